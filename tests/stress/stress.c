/*
 * stress.threads.*: several threads drive cuvk at once, for a bounded
 * time, on shared and separate contexts and streams, and check every byte
 * and every return code.
 *
 * Threads are laid out by index (CUVK_STRESS_THREADS, default 6):
 *    index % 4 == 0, 1   device 0's primary context; both also use one
 *                        stream of that context that they share
 *    index % 4 == 2      a context made with cuCtxCreate and shared by
 *                        every such thread, with a shared stream too
 *    index % 4 == 3      a context of its own, created in the thread
 * Every thread also has streams of its own.  Each runs the operations of
 * the table below in turn, with sizes and offsets from its own random
 * sequence, until CUVK_STRESS_SECONDS (default 5) have passed:
 * allocations and frees, copies of every direction (host to device,
 * device to host, device to device, pinned host to pinned host, 2D) and
 * fills, each read back and compared; streams and events created,
 * recorded, queried, synchronised and destroyed (and one event of the
 * primary context recorded and queried by all its threads at once), with
 * cuStreamWaitEvent
 * ordering one stream after another (in the same context and across
 * contexts); external memory exported by a Vulkan device of this process
 * (tests/common/vk_harness), imported, mapped, checked from both sides,
 * freed and destroyed; virtual memory reserved, created, mapped, checked,
 * unmapped and released (the handle released both before and after the
 * unmap); host memory registered and unregistered.
 *
 * The run fails on any wrong byte, any call that does not return what it
 * must, any validation message (CUVK_VALIDATION_FATAL on cuvk's instance,
 * the harness's count on the exporter's), and when an operation never
 * ran.  The sanitizer mode of scripts/test.sh runs it under TSan as well
 * (docs/testing.md).
 */
#include <cuda.h>

#include "case_harness.h"
#include "vk_harness.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define KIB ((size_t)1 << 10)
#define MIB ((size_t)1 << 20)
#define MAX_THREADS 64
/* The largest buffer any operation uses; the thread's scratch buffers
 * hold this much. */
#define MAX_BYTES (256 * KIB)

/* ---- Checks ---- */

static const char *
result_name(CUresult res)
{
   const char *name = NULL;
   if (cuGetErrorName(res, &name) != CUDA_SUCCESS || !name)
      return "(unknown CUresult)";
   return name;
}

static bool
check_cu(const char *file, int line, const char *expr, CUresult got, int thread)
{
   if (got == CUDA_SUCCESS)
      return true;
   cuvk_test_report(file, line, "thread %d: %s: expected CUDA_SUCCESS, got %s (%d)", thread, expr,
                    result_name(got), (int)got);
   return false;
}

/* Every call is checked; a failed one ends the operation (returns false),
 * and the thread goes on with the next, so one fault does not hide
 * others.  `w` is the running worker. */
#define CU(expr)                                                               \
   do {                                                                        \
      if (!check_cu(__FILE__, __LINE__, #expr, (expr), w->index))              \
         return false;                                                         \
   } while (0)

/* For cleanup: checked, but the cleanup goes on. */
#define CU_CLEANUP(expr) (void)check_cu(__FILE__, __LINE__, #expr, (expr), w->index)

#define REQUIRE(cond)                                                          \
   do {                                                                        \
      if (!(cond)) {                                                           \
         cuvk_test_report(__FILE__, __LINE__, "thread %d: check failed: %s",   \
                          w->index, #cond);                                    \
         return false;                                                         \
      }                                                                        \
   } while (0)

#define BYTES(got, want, n, what)                                              \
   do {                                                                        \
      if (!cuvk_test_check_bytes(__FILE__, __LINE__, (got), (want), (n),       \
                                 "thread %d: %s", w->index, (what)))           \
         return false;                                                         \
   } while (0)

static double
now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A number in [lo, hi]. */
static size_t
random_between(uint64_t *state, size_t lo, size_t hi)
{
   if (hi < lo)
      abort(); /* a bug in this test: no such number */
   return lo + (size_t)(cuvk_test_rand(state) % (hi - lo + 1));
}

static void
fill_random(uint64_t *state, void *p, size_t n)
{
   uint8_t *b = p;
   size_t i = 0;
   for (; i + 8 <= n; i += 8) {
      uint64_t v = cuvk_test_rand(state);
      memcpy(b + i, &v, 8);
   }
   if (i < n) {
      uint64_t v = cuvk_test_rand(state);
      memcpy(b + i, &v, n - i);
   }
}

static int
env_int(const char *name, int fallback, int lo, int hi)
{
   const char *s = getenv(name);
   if (!s || !*s)
      return fallback;
   char *end = NULL;
   long v = strtol(s, &end, 10);
   if (*end || v < lo || v > hi) {
      fprintf(stderr, "%s=%s is not a number in [%d, %d]; using %d\n", name, s, lo, hi, fallback);
      return fallback;
   }
   return (int)v;
}

/* ---- What the threads share ---- */

static struct {
   double deadline;
   CUdevice dev;
   CUcontext primary;
   CUstream primary_stream;
   /* One event of the primary context that its threads all record,
    * query, wait for and synchronise with at once. */
   CUevent primary_event;
   CUcontext shared;
   CUstream shared_stream;
   size_t vmm_granularity;

   /* The exporter: its own VkInstance and VkDevice.  Allocating,
    * mapping and exporting memory take no queue, and each thread touches
    * only its own VkDeviceMemory, so Vulkan needs no lock here. */
   struct vkh vk;
   int export_type;
} g;

/* ---- The workers ---- */

enum op {
   OP_ALLOC_FREE,
   OP_COPY_SYNC,
   OP_COPY_ASYNC,
   OP_COPY_2D,
   OP_FILL,
   OP_STREAM_EVENT,
   OP_CROSS_CONTEXT,
   OP_EXTERNAL,
   OP_VMM,
   OP_REGISTER,
   OP_SYNC,
   OP_SHARED_EVENT,
   OP_COUNT,
};

static const char *const op_names[OP_COUNT] = {
   [OP_ALLOC_FREE] = "alloc_free",
   [OP_COPY_SYNC] = "copy_sync",
   [OP_COPY_ASYNC] = "copy_async",
   [OP_COPY_2D] = "copy_2d",
   [OP_FILL] = "fill",
   [OP_STREAM_EVENT] = "stream_event",
   [OP_CROSS_CONTEXT] = "cross_context",
   [OP_EXTERNAL] = "external_memory",
   [OP_VMM] = "vmm",
   [OP_REGISTER] = "host_register",
   [OP_SYNC] = "synchronize",
   [OP_SHARED_EVENT] = "shared_event",
};

struct worker {
   int index;
   pthread_t thread;
   uint64_t rng;

   CUcontext ctx;
   bool own_ctx;
   /* A stream other threads use too (NULL for a context of its own),
    * and one of this thread's. */
   CUstream shared_stream;
   CUstream stream;
   /* The context the cross-context operation waits on: a context other
    * than ctx, with a stream of it this thread created. */
   CUcontext other_ctx;

   /* Scratch: pinned (cuMemAllocHost) and pageable, MAX_BYTES each. */
   uint8_t *pinned_a, *pinned_b;
   uint8_t *host_a, *host_b;

   unsigned long ops[OP_COUNT];
   unsigned long skipped[OP_COUNT];
};

/* Where a thread's asynchronous work goes: alternately its own stream
 * and the shared one. */
static CUstream
pick_stream(struct worker *w)
{
   if (w->shared_stream && (cuvk_test_rand(&w->rng) & 1))
      return w->shared_stream;
   return w->stream;
}

static bool
op_alloc_free(struct worker *w)
{
   enum { N = 8 };
   CUdeviceptr d[N] = { 0 };
   size_t sizes[N];
   bool ok = true;

   for (int i = 0; i < N; i++) {
      sizes[i] = random_between(&w->rng, 1, MAX_BYTES / N);
      if (!check_cu(__FILE__, __LINE__, "cuMemAlloc", cuMemAlloc(&d[i], sizes[i]), w->index)) {
         ok = false;
         break;
      }
   }
   /* Each allocation gets its own bytes; one overlapping another would
    * show in the readback. */
   for (int i = 0; ok && i < N; i++) {
      fill_random(&w->rng, w->host_a + i * (MAX_BYTES / N), sizes[i]);
      ok = check_cu(__FILE__, __LINE__, "cuMemcpyHtoD", cuMemcpyHtoD(d[i], w->host_a + i * (MAX_BYTES / N), sizes[i]),
                    w->index);
   }
   for (int i = 0; ok && i < N; i++) {
      ok = check_cu(__FILE__, __LINE__, "cuMemcpyDtoH", cuMemcpyDtoH(w->host_b, d[i], sizes[i]), w->index) &&
           cuvk_test_check_bytes(__FILE__, __LINE__, w->host_b, w->host_a + i * (MAX_BYTES / N), sizes[i],
                                 "thread %d: allocation %d of %zu bytes", w->index, i, sizes[i]);
   }
   /* Freed in an order of their own. */
   int start = (int)random_between(&w->rng, 0, N - 1);
   for (int k = 0; k < N; k++) {
      int i = (start + k * 3) % N;
      if (d[i])
         ok &= check_cu(__FILE__, __LINE__, "cuMemFree", cuMemFree(d[i]), w->index);
   }
   return ok;
}

/* Host to device from pageable memory, device to device, device to
 * pinned host, pinned to pinned host through cuMemcpy, and pageable to
 * pageable through cuMemcpy: each result checked. */
static bool
op_copy_sync(struct worker *w)
{
   size_t n = random_between(&w->rng, 1, MAX_BYTES / 2);
   size_t off = random_between(&w->rng, 0, 64);
   CUdeviceptr a = 0, b = 0;
   bool ok = false;

   fill_random(&w->rng, w->host_a, n);
   CU(cuMemAlloc(&a, n + 64));
   if (!check_cu(__FILE__, __LINE__, "cuMemAlloc", cuMemAlloc(&b, n + 64), w->index))
      goto out;
   if (!check_cu(__FILE__, __LINE__, "cuMemcpyHtoD", cuMemcpyHtoD(a + off, w->host_a, n), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuMemcpyDtoD", cuMemcpyDtoD(b + (64 - off), a + off, n), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuMemcpyDtoH", cuMemcpyDtoH(w->pinned_a, b + (64 - off), n), w->index))
      goto out;
   if (!cuvk_test_check_bytes(__FILE__, __LINE__, w->pinned_a, w->host_a, n,
                              "thread %d: HtoD, DtoD, DtoH of %zu bytes", w->index, n))
      goto out;
   memset(w->pinned_b, 0, n);
   if (!check_cu(__FILE__, __LINE__, "cuMemcpy(pinned to pinned)",
                 cuMemcpy((CUdeviceptr)(uintptr_t)w->pinned_b, (CUdeviceptr)(uintptr_t)w->pinned_a, n), w->index) ||
       !cuvk_test_check_bytes(__FILE__, __LINE__, w->pinned_b, w->host_a, n,
                              "thread %d: pinned to pinned, %zu bytes", w->index, n))
      goto out;
   memset(w->host_b, 0, n);
   if (!check_cu(__FILE__, __LINE__, "cuMemcpy(pageable to pageable)",
                 cuMemcpy((CUdeviceptr)(uintptr_t)w->host_b, (CUdeviceptr)(uintptr_t)w->pinned_b, n), w->index) ||
       !cuvk_test_check_bytes(__FILE__, __LINE__, w->host_b, w->host_a, n,
                              "thread %d: pinned to pageable, %zu bytes", w->index, n))
      goto out;
   ok = true;
out:
   if (b)
      CU_CLEANUP(cuMemFree(b));
   CU_CLEANUP(cuMemFree(a));
   return ok;
}

/* The same directions on a stream, from and to pinned memory, then one
 * synchronisation. */
static bool
op_copy_async(struct worker *w)
{
   size_t n = random_between(&w->rng, 4, MAX_BYTES / 2);
   CUstream s = pick_stream(w);
   CUdeviceptr a = 0, b = 0;
   bool ok = false;

   fill_random(&w->rng, w->pinned_a, n);
   memset(w->pinned_b, 0, n);
   memcpy(w->host_a, w->pinned_a, n);
   CU(cuMemAlloc(&a, n));
   if (!check_cu(__FILE__, __LINE__, "cuMemAlloc", cuMemAlloc(&b, n), w->index))
      goto out;
   if (!check_cu(__FILE__, __LINE__, "cuMemcpyHtoDAsync", cuMemcpyHtoDAsync(a, w->pinned_a, n, s), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuMemcpyDtoDAsync", cuMemcpyDtoDAsync(b, a, n, s), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuMemcpyDtoHAsync", cuMemcpyDtoHAsync(w->pinned_b, b, n, s), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuStreamSynchronize", cuStreamSynchronize(s), w->index))
      goto out;
   if (!cuvk_test_check_bytes(__FILE__, __LINE__, w->pinned_b, w->host_a, n,
                              "thread %d: async HtoD, DtoD, DtoH of %zu bytes", w->index, n))
      goto out;
   /* Pinned to pinned on the stream. */
   memset(w->pinned_a, 0, n);
   if (!check_cu(__FILE__, __LINE__, "cuMemcpyAsync(pinned to pinned)",
                 cuMemcpyAsync((CUdeviceptr)(uintptr_t)w->pinned_a, (CUdeviceptr)(uintptr_t)w->pinned_b, n, s),
                 w->index) ||
       !check_cu(__FILE__, __LINE__, "cuStreamSynchronize", cuStreamSynchronize(s), w->index) ||
       !cuvk_test_check_bytes(__FILE__, __LINE__, w->pinned_a, w->host_a, n,
                              "thread %d: async pinned to pinned, %zu bytes", w->index, n))
      goto out;
   ok = true;
out:
   if (b)
      CU_CLEANUP(cuMemFree(b));
   CU_CLEANUP(cuMemFree(a));
   return ok;
}

/* A sub-rectangle from pageable host memory into pitched device memory,
 * device to device into another pitch, and back into pinned memory; only
 * the rectangle may change. */
static bool
op_copy_2d(struct worker *w)
{
   size_t width = random_between(&w->rng, 1, 300);
   size_t height = random_between(&w->rng, 1, 64);
   size_t host_pitch = width + random_between(&w->rng, 0, 40);
   size_t dpitch = 0;
   CUdeviceptr d = 0, d2 = 0;
   bool ok = false;
   size_t dpitch2 = width + random_between(&w->rng, 0, 100);

   REQUIRE(host_pitch * height <= MAX_BYTES);
   fill_random(&w->rng, w->host_a, host_pitch * height);
   CU(cuMemAllocPitch(&d, &dpitch, width, height, 4));
   if (!check_cu(__FILE__, __LINE__, "cuMemAlloc", cuMemAlloc(&d2, dpitch2 * height), w->index))
      goto out;

   CUDA_MEMCPY2D up = {
      .srcMemoryType = CU_MEMORYTYPE_HOST, .srcHost = w->host_a, .srcPitch = host_pitch,
      .dstMemoryType = CU_MEMORYTYPE_DEVICE, .dstDevice = d, .dstPitch = dpitch,
      .WidthInBytes = width, .Height = height,
   };
   CUDA_MEMCPY2D across = {
      .srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = d, .srcPitch = dpitch,
      .dstMemoryType = CU_MEMORYTYPE_DEVICE, .dstDevice = d2, .dstPitch = dpitch2,
      .WidthInBytes = width, .Height = height,
   };
   CUDA_MEMCPY2D down = {
      .srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = d2, .srcPitch = dpitch2,
      .dstMemoryType = CU_MEMORYTYPE_HOST, .dstHost = w->pinned_a, .dstPitch = host_pitch,
      .WidthInBytes = width, .Height = height,
   };
   CUstream s = pick_stream(w);
   /* The pitch gaps of the result must keep their earlier bytes. */
   fill_random(&w->rng, w->pinned_a, host_pitch * height);
   memcpy(w->host_b, w->pinned_a, host_pitch * height);
   for (size_t y = 0; y < height; y++)
      memcpy(w->host_b + y * host_pitch, w->host_a + y * host_pitch, width);

   if (!check_cu(__FILE__, __LINE__, "cuMemcpy2D(up)", cuMemcpy2D(&up), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuMemcpy2DAsync(across)", cuMemcpy2DAsync(&across, s), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuMemcpy2DAsync(down)", cuMemcpy2DAsync(&down, s), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuStreamSynchronize", cuStreamSynchronize(s), w->index))
      goto out;
   ok = cuvk_test_check_bytes(__FILE__, __LINE__, w->pinned_a, w->host_b, host_pitch * height,
                              "thread %d: 2D copy of %zux%zu, pitches %zu, %zu, %zu", w->index, width, height,
                              host_pitch, dpitch, dpitch2);
out:
   if (d2)
      CU_CLEANUP(cuMemFree(d2));
   CU_CLEANUP(cuMemFree(d));
   return ok;
}

/* Fills of each width, synchronous and on a stream, at odd offsets, over
 * random bytes: checked against a model. */
static bool
op_fill(struct worker *w)
{
   size_t n = random_between(&w->rng, 64, MAX_BYTES);
   CUdeviceptr d = 0;
   uint8_t *model = w->host_a;
   CUstream s = pick_stream(w);
   bool ok = false;

   fill_random(&w->rng, model, n);
   CU(cuMemAlloc(&d, n));
   if (!check_cu(__FILE__, __LINE__, "cuMemcpyHtoD", cuMemcpyHtoD(d, model, n), w->index))
      goto out;

   size_t o8 = random_between(&w->rng, 0, n - 1);
   size_t c8 = random_between(&w->rng, 1, n - o8);
   uint8_t v8 = (uint8_t)cuvk_test_rand(&w->rng);
   memset(model + o8, v8, c8);
   size_t o16 = 2 * random_between(&w->rng, 0, n / 2 - 1);
   size_t c16 = random_between(&w->rng, 1, (n - o16) / 2);
   uint16_t v16 = (uint16_t)cuvk_test_rand(&w->rng);
   for (size_t i = 0; i < c16; i++)
      memcpy(model + o16 + 2 * i, &v16, 2);
   size_t o32 = 4 * random_between(&w->rng, 0, n / 4 - 1);
   size_t c32 = random_between(&w->rng, 1, (n - o32) / 4);
   uint32_t v32 = (uint32_t)cuvk_test_rand(&w->rng);
   for (size_t i = 0; i < c32; i++)
      memcpy(model + o32 + 4 * i, &v32, 4);
   /* A 2D fill: rows of 8-bit values with a pitch, inside the buffer. */
   size_t pitch = random_between(&w->rng, 1, n < 512 ? n : 512);
   size_t rows = random_between(&w->rng, 1, n / pitch);
   size_t row_bytes = random_between(&w->rng, 1, pitch);
   uint8_t v2d = (uint8_t)cuvk_test_rand(&w->rng);
   for (size_t y = 0; y < rows; y++)
      memset(model + y * pitch, v2d, row_bytes);

   bool async = cuvk_test_rand(&w->rng) & 1;
   if (async) {
      if (!check_cu(__FILE__, __LINE__, "cuMemsetD8Async", cuMemsetD8Async(d + o8, v8, c8, s), w->index) ||
          !check_cu(__FILE__, __LINE__, "cuMemsetD16Async", cuMemsetD16Async(d + o16, v16, c16, s), w->index) ||
          !check_cu(__FILE__, __LINE__, "cuMemsetD32Async", cuMemsetD32Async(d + o32, v32, c32, s), w->index) ||
          !check_cu(__FILE__, __LINE__, "cuMemsetD2D8Async",
                    cuMemsetD2D8Async(d, pitch, v2d, row_bytes, rows, s), w->index) ||
          !check_cu(__FILE__, __LINE__, "cuStreamSynchronize", cuStreamSynchronize(s), w->index))
         goto out;
   } else {
      if (!check_cu(__FILE__, __LINE__, "cuMemsetD8", cuMemsetD8(d + o8, v8, c8), w->index) ||
          !check_cu(__FILE__, __LINE__, "cuMemsetD16", cuMemsetD16(d + o16, v16, c16), w->index) ||
          !check_cu(__FILE__, __LINE__, "cuMemsetD32", cuMemsetD32(d + o32, v32, c32), w->index) ||
          !check_cu(__FILE__, __LINE__, "cuMemsetD2D8", cuMemsetD2D8(d, pitch, v2d, row_bytes, rows), w->index))
         goto out;
   }
   if (!check_cu(__FILE__, __LINE__, "cuMemcpyDtoH", cuMemcpyDtoH(w->host_b, d, n), w->index))
      goto out;
   ok = cuvk_test_check_bytes(__FILE__, __LINE__, w->host_b, model, n,
                              "thread %d: %s fills in %zu bytes", w->index, async ? "async" : "sync", n);
out:
   CU_CLEANUP(cuMemFree(d));
   return ok;
}

/* Two fresh streams: the first fills and copies, records an event; the
 * second waits for it and copies on; events are queried while work may
 * be pending and synchronised; everything is destroyed again. */
static bool
op_stream_event(struct worker *w)
{
   size_t n = random_between(&w->rng, 4, MAX_BYTES / 2);
   CUstream s1 = NULL, s2 = NULL;
   CUevent e1 = NULL, e2 = NULL;
   CUdeviceptr a = 0, b = 0;
   bool ok = false;

   fill_random(&w->rng, w->pinned_a, n);
   memcpy(w->host_a, w->pinned_a, n);
   memset(w->pinned_b, 0, n);
   CU(cuMemAlloc(&a, 2 * n));
   b = a + n;
   if (!check_cu(__FILE__, __LINE__, "cuStreamCreate", cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuStreamCreate", cuStreamCreate(&s2, CU_STREAM_DEFAULT), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuEventCreate", cuEventCreate(&e1, CU_EVENT_DISABLE_TIMING), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuEventCreate", cuEventCreate(&e2, CU_EVENT_DEFAULT), w->index))
      goto out;
   if (!check_cu(__FILE__, __LINE__, "cuMemsetD8Async", cuMemsetD8Async(a, 0x5a, n, s1), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuMemcpyHtoDAsync", cuMemcpyHtoDAsync(a, w->pinned_a, n, s1), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuEventRecord", cuEventRecord(e1, s1), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuStreamWaitEvent", cuStreamWaitEvent(s2, e1, 0), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuMemcpyDtoDAsync", cuMemcpyDtoDAsync(b, a, n, s2), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuMemcpyDtoHAsync", cuMemcpyDtoHAsync(w->pinned_b, b, n, s2), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuEventRecord", cuEventRecord(e2, s2), w->index))
      goto out;

   /* Not ready or done: both are right while the work may be queued. */
   CUresult q = cuEventQuery(e2);
   if (q != CUDA_SUCCESS && q != CUDA_ERROR_NOT_READY) {
      check_cu(__FILE__, __LINE__, "cuEventQuery", q, w->index);
      goto out;
   }
   q = cuStreamQuery(s1);
   if (q != CUDA_SUCCESS && q != CUDA_ERROR_NOT_READY) {
      check_cu(__FILE__, __LINE__, "cuStreamQuery", q, w->index);
      goto out;
   }
   if (!check_cu(__FILE__, __LINE__, "cuEventSynchronize", cuEventSynchronize(e2), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuEventQuery", cuEventQuery(e2), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuEventQuery", cuEventQuery(e1), w->index))
      goto out;
   ok = cuvk_test_check_bytes(__FILE__, __LINE__, w->pinned_b, w->host_a, n,
                              "thread %d: copy ordered by cuStreamWaitEvent, %zu bytes", w->index, n);
out:
   if (e2)
      CU_CLEANUP(cuEventDestroy(e2));
   if (e1)
      CU_CLEANUP(cuEventDestroy(e1));
   /* Half the time destroyed right away, with work possibly in flight
    * (CUDA finishes it); else after synchronising. */
   if (s2 && (cuvk_test_rand(&w->rng) & 1))
      CU_CLEANUP(cuStreamSynchronize(s2));
   if (s2)
      CU_CLEANUP(cuStreamDestroy(s2));
   if (s1)
      CU_CLEANUP(cuStreamDestroy(s1));
   CU_CLEANUP(cuMemFree(a));
   return ok;
}

/* A stream of another context waits for an event of this one: device
 * memory is copied into portable pinned memory here, and there copied
 * on from that pinned memory, ordered only by cuStreamWaitEvent. */
static bool
op_cross_context(struct worker *w)
{
   size_t n = random_between(&w->rng, 4, MAX_BYTES / 2);
   CUdeviceptr a = 0, far = 0;
   CUstream far_stream = NULL;
   CUevent e = NULL;
   void *bridge = NULL;
   bool ok = false, pushed = false;

   fill_random(&w->rng, w->host_a, n);
   CU(cuMemHostAlloc(&bridge, n, CU_MEMHOSTALLOC_PORTABLE));
   memset(bridge, 0, n);
   if (!check_cu(__FILE__, __LINE__, "cuMemAlloc", cuMemAlloc(&a, n), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuEventCreate", cuEventCreate(&e, CU_EVENT_DISABLE_TIMING), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuMemcpyHtoD", cuMemcpyHtoD(a, w->host_a, n), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuMemcpyDtoHAsync", cuMemcpyDtoHAsync(bridge, a, n, w->stream), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuEventRecord", cuEventRecord(e, w->stream), w->index))
      goto out;

   if (!check_cu(__FILE__, __LINE__, "cuCtxPushCurrent", cuCtxPushCurrent(w->other_ctx), w->index))
      goto out;
   pushed = true;
   if (!check_cu(__FILE__, __LINE__, "cuStreamCreate", cuStreamCreate(&far_stream, CU_STREAM_NON_BLOCKING), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuMemAlloc", cuMemAlloc(&far, n), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuStreamWaitEvent", cuStreamWaitEvent(far_stream, e, 0), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuMemcpyHtoDAsync", cuMemcpyHtoDAsync(far, bridge, n, far_stream), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuMemcpyDtoHAsync", cuMemcpyDtoHAsync(w->pinned_b, far, n, far_stream), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuStreamSynchronize", cuStreamSynchronize(far_stream), w->index))
      goto out;
   /* pinned_b belongs to this thread's context; in the other it is
    * pageable memory as far as CUDA is concerned, and the copy still
    * lands there by the synchronisation. */
   ok = cuvk_test_check_bytes(__FILE__, __LINE__, w->pinned_b, w->host_a, n,
                              "thread %d: copy across contexts, %zu bytes", w->index, n);
out:
   if (pushed) {
      CUcontext popped = NULL;
      if (far_stream)
         CU_CLEANUP(cuStreamDestroy(far_stream));
      if (far)
         CU_CLEANUP(cuMemFree(far));
      CU_CLEANUP(cuCtxPopCurrent(&popped));
      if (popped != w->other_ctx) {
         cuvk_test_report(__FILE__, __LINE__, "thread %d: cuCtxPopCurrent gave %p, not %p", w->index,
                          (void *)popped, (void *)w->other_ctx);
         ok = false;
      }
   }
   if (e)
      CU_CLEANUP(cuEventSynchronize(e));
   if (e)
      CU_CLEANUP(cuEventDestroy(e));
   if (a)
      CU_CLEANUP(cuMemFree(a));
   CU_CLEANUP(cuMemFreeHost(bridge));
   return ok;
}

/* The exporter allocates, writes and exports; cuvk imports, maps a range
 * at an offset, reads it, writes part of it; the exporter reads that
 * back; then the mapping is freed and the import destroyed, in either
 * order of the exporter's free. */
static bool
op_external(struct worker *w)
{
   const VkDeviceSize size = 256 * KIB;
   VkDeviceMemory mem = VK_NULL_HANDLE;
   CUexternalMemory ext = NULL;
   CUdeviceptr ptr = 0;
   bool ok = false;
   size_t off = 4096 * random_between(&w->rng, 0, 16);
   size_t n = random_between(&w->rng, 1, (size_t)size - off);
   uint8_t *model = w->host_a;

   if (vkh_allocate(&g.vk, size, (uint32_t)g.export_type, VKH_OPAQUE_FD, VK_NULL_HANDLE, VK_NULL_HANDLE,
                    &mem) != VK_SUCCESS) {
      cuvk_test_report(__FILE__, __LINE__, "thread %d: the exporter's vkAllocateMemory failed", w->index);
      return false;
   }
   fill_random(&w->rng, model, size);
   if (!vkh_write(&g.vk, mem, 0, model, size)) {
      cuvk_test_report(__FILE__, __LINE__, "thread %d: vkh_write failed", w->index);
      goto out;
   }
   int fd = vkh_get_memory_fd(&g.vk, mem, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT);
   if (fd < 0) {
      cuvk_test_report(__FILE__, __LINE__, "thread %d: vkGetMemoryFdKHR failed", w->index);
      goto out;
   }

   CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc;
   memset(&desc, 0, sizeof(desc));
   desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
   desc.handle.fd = fd;
   desc.size = size;
   CUresult res = cuImportExternalMemory(&ext, &desc);
   if (res != CUDA_SUCCESS) {
      /* The fd stays the caller's when the import fails. */
      close(fd);
      check_cu(__FILE__, __LINE__, "cuImportExternalMemory", res, w->index);
      goto out;
   }

   CUDA_EXTERNAL_MEMORY_BUFFER_DESC buf;
   memset(&buf, 0, sizeof(buf));
   buf.offset = off;
   buf.size = n;
   if (!check_cu(__FILE__, __LINE__, "cuExternalMemoryGetMappedBuffer",
                 cuExternalMemoryGetMappedBuffer(&ptr, ext, &buf), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuMemcpyDtoH", cuMemcpyDtoH(w->host_b, ptr, n), w->index) ||
       !cuvk_test_check_bytes(__FILE__, __LINE__, w->host_b, model + off, n,
                              "thread %d: imported bytes [%zu, +%zu)", w->index, off, n))
      goto out;

   size_t wo = random_between(&w->rng, 0, n - 1);
   size_t wn = random_between(&w->rng, 1, n - wo);
   uint8_t v = (uint8_t)cuvk_test_rand(&w->rng);
   memset(model + off + wo, v, wn);
   if (!check_cu(__FILE__, __LINE__, "cuMemsetD8Async", cuMemsetD8Async(ptr + wo, v, wn, w->stream), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuStreamSynchronize", cuStreamSynchronize(w->stream), w->index))
      goto out;
   if (!vkh_read(&g.vk, mem, 0, w->host_b, size)) {
      cuvk_test_report(__FILE__, __LINE__, "thread %d: vkh_read failed", w->index);
      goto out;
   }
   ok = cuvk_test_check_bytes(__FILE__, __LINE__, w->host_b, model, size,
                              "thread %d: exported memory after a CUDA fill of [%zu, +%zu)", w->index,
                              off + wo, wn);
out:
   if (ptr)
      CU_CLEANUP(cuMemFree(ptr));
   /* The exporter may free its memory first: the import holds its own
    * reference through the fd. */
   bool vk_first = cuvk_test_rand(&w->rng) & 1;
   if (vk_first && mem)
      vkFreeMemory(g.vk.device, mem, NULL);
   if (ext)
      CU_CLEANUP(cuDestroyExternalMemory(ext));
   if (!vk_first && mem)
      vkFreeMemory(g.vk.device, mem, NULL);
   return ok;
}

/* Reserve, create, map, allow access, write and read, unmap and release
 * (the handle released before or after the unmap), free the range. */
static bool
op_vmm(struct worker *w)
{
   const size_t gsz = g.vmm_granularity;
   CUdeviceptr base = 0, at = 0;
   CUmemGenericAllocationHandle handle = 0;
   bool ok = false, mapped = false;
   CUmemAllocationProp prop;
   CUmemAccessDesc access;

   memset(&prop, 0, sizeof(prop));
   prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
   prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
   prop.location.id = g.dev;
   memset(&access, 0, sizeof(access));
   access.location = prop.location;
   access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;

   CU(cuMemAddressReserve(&base, 2 * gsz, 0, 0, 0));
   if (!check_cu(__FILE__, __LINE__, "cuMemCreate", cuMemCreate(&handle, gsz, &prop, 0), w->index))
      goto out;
   /* Either half of the reservation. */
   at = base + (cuvk_test_rand(&w->rng) & 1 ? gsz : 0);
   if (!check_cu(__FILE__, __LINE__, "cuMemMap", cuMemMap(at, gsz, 0, handle, 0), w->index))
      goto out;
   mapped = true;
   if (!check_cu(__FILE__, __LINE__, "cuMemSetAccess", cuMemSetAccess(at, gsz, &access, 1), w->index))
      goto out;

   size_t n = random_between(&w->rng, 1, MAX_BYTES);
   size_t off = random_between(&w->rng, 0, gsz - n);
   fill_random(&w->rng, w->host_a, n);
   if (!check_cu(__FILE__, __LINE__, "cuMemcpyHtoD", cuMemcpyHtoD(at + off, w->host_a, n), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuMemcpyDtoH", cuMemcpyDtoH(w->host_b, at + off, n), w->index) ||
       !cuvk_test_check_bytes(__FILE__, __LINE__, w->host_b, w->host_a, n,
                              "thread %d: mapped bytes [%zu, +%zu)", w->index, off, n))
      goto out;
   /* Work left queued on the mapping when it goes away: the unmap waits
    * for it or defers the release. */
   if (!check_cu(__FILE__, __LINE__, "cuMemsetD8Async",
                 cuMemsetD8Async(at + off, 0x33, n, w->stream), w->index))
      goto out;
   ok = true;
out:
   if (handle && !(cuvk_test_rand(&w->rng) & 1)) {
      /* Released while still mapped: freed at the unmap. */
      ok &= check_cu(__FILE__, __LINE__, "cuMemRelease", cuMemRelease(handle), w->index);
      handle = 0;
   }
   if (mapped)
      ok &= check_cu(__FILE__, __LINE__, "cuMemUnmap", cuMemUnmap(at, gsz), w->index);
   if (handle)
      ok &= check_cu(__FILE__, __LINE__, "cuMemRelease", cuMemRelease(handle), w->index);
   if (base)
      ok &= check_cu(__FILE__, __LINE__, "cuMemAddressFree", cuMemAddressFree(base, 2 * gsz), w->index);
   return ok;
}

/* Pageable memory registered, copied through, unregistered. */
static bool
op_register(struct worker *w)
{
   size_t n = 4096 * random_between(&w->rng, 1, MAX_BYTES / 4096);
   uint8_t *p = NULL;
   CUdeviceptr d = 0;
   bool ok = false;

   REQUIRE(posix_memalign((void **)&p, 4096, n) == 0);
   fill_random(&w->rng, p, n);
   memcpy(w->host_a, p, n);
   CUresult res = cuMemHostRegister(p, n, 0);
   if (res == CUDA_ERROR_NOT_SUPPORTED) {
      /* No VK_EXT_external_memory_host on this device. */
      w->skipped[OP_REGISTER]++;
      free(p);
      return true;
   }
   if (!check_cu(__FILE__, __LINE__, "cuMemHostRegister", res, w->index)) {
      free(p);
      return false;
   }
   if (!check_cu(__FILE__, __LINE__, "cuMemAlloc", cuMemAlloc(&d, n), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuMemcpyHtoDAsync", cuMemcpyHtoDAsync(d, p, n, w->stream), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuMemsetD32Async", cuMemsetD32Async(d, 0x01020304u, 1, w->stream), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuMemcpyDtoHAsync", cuMemcpyDtoHAsync(p, d, n, w->stream), w->index) ||
       !check_cu(__FILE__, __LINE__, "cuStreamSynchronize", cuStreamSynchronize(w->stream), w->index))
      goto out;
   uint32_t word = 0x01020304u;
   memcpy(w->host_a, &word, 4);
   ok = cuvk_test_check_bytes(__FILE__, __LINE__, p, w->host_a, n,
                              "thread %d: registered memory round trip, %zu bytes", w->index, n);
out:
   if (d)
      CU_CLEANUP(cuMemFree(d));
   CU_CLEANUP(cuMemHostUnregister(p));
   free(p);
   return ok;
}

/* Synchronisation of what the other threads have queued in this
 * context, and of the shared stream. */
static bool
op_sync(struct worker *w)
{
   if (w->shared_stream) {
      CUresult q = cuStreamQuery(w->shared_stream);
      if (q != CUDA_SUCCESS && q != CUDA_ERROR_NOT_READY) {
         check_cu(__FILE__, __LINE__, "cuStreamQuery(shared)", q, w->index);
         return false;
      }
      CU(cuStreamSynchronize(w->shared_stream));
   }
   CU(cuCtxSynchronize());
   return true;
}

/* The primary context's shared event: recorded on this thread's stream
 * while other threads record, query and wait for it.  Which record a
 * query sees is theirs to race for; each call must still succeed. */
static bool
op_shared_event(struct worker *w)
{
   if (w->ctx != g.primary)
      return op_sync(w);
   CU(cuEventRecord(g.primary_event, w->stream));
   CUresult q = cuEventQuery(g.primary_event);
   if (q != CUDA_SUCCESS && q != CUDA_ERROR_NOT_READY) {
      check_cu(__FILE__, __LINE__, "cuEventQuery(shared)", q, w->index);
      return false;
   }
   CU(cuStreamWaitEvent(w->stream, g.primary_event, 0));
   CU(cuEventSynchronize(g.primary_event));
   return true;
}

static bool (*const op_fns[OP_COUNT])(struct worker *) = {
   [OP_ALLOC_FREE] = op_alloc_free,
   [OP_COPY_SYNC] = op_copy_sync,
   [OP_COPY_ASYNC] = op_copy_async,
   [OP_COPY_2D] = op_copy_2d,
   [OP_FILL] = op_fill,
   [OP_STREAM_EVENT] = op_stream_event,
   [OP_CROSS_CONTEXT] = op_cross_context,
   [OP_EXTERNAL] = op_external,
   [OP_VMM] = op_vmm,
   [OP_REGISTER] = op_register,
   [OP_SYNC] = op_sync,
   [OP_SHARED_EVENT] = op_shared_event,
};

static bool
worker_setup(struct worker *w)
{
   void *p = NULL;

   if (w->own_ctx) {
      CU(cuCtxCreate(&w->ctx, NULL, 0, g.dev));
   } else {
      CU(cuCtxSetCurrent(w->ctx));
   }
   CU(cuStreamCreate(&w->stream, CU_STREAM_NON_BLOCKING));
   CU(cuMemAllocHost(&p, MAX_BYTES));
   w->pinned_a = p;
   CU(cuMemAllocHost(&p, MAX_BYTES));
   w->pinned_b = p;
   w->host_a = malloc(MAX_BYTES);
   w->host_b = malloc(MAX_BYTES);
   REQUIRE(w->host_a && w->host_b);
   return true;
}

static void
worker_teardown(struct worker *w)
{
   if (w->stream)
      CU_CLEANUP(cuStreamSynchronize(w->stream));
   if (w->stream)
      CU_CLEANUP(cuStreamDestroy(w->stream));
   if (w->pinned_a)
      CU_CLEANUP(cuMemFreeHost(w->pinned_a));
   if (w->pinned_b)
      CU_CLEANUP(cuMemFreeHost(w->pinned_b));
   free(w->host_a);
   free(w->host_b);
   if (w->own_ctx && w->ctx)
      CU_CLEANUP(cuCtxDestroy(w->ctx));
   else
      CU_CLEANUP(cuCtxSetCurrent(NULL));
}

static void *
worker_main(void *arg)
{
   struct worker *w = arg;

   if (worker_setup(w)) {
      /* The operations in turn, each thread starting elsewhere. */
      for (unsigned i = (unsigned)w->index; now() < g.deadline; i++) {
         enum op op = (enum op)(i % OP_COUNT);
         if (!op_fns[op](w))
            fprintf(stderr, "thread %d: operation %s failed\n", w->index, op_names[op]);
         w->ops[op]++;
      }
   }
   worker_teardown(w);
   return NULL;
}

/* The exporter's memory type: host-visible (it is written and read
 * through vkMapMemory) and exportable as an OPAQUE_FD. */
static int
pick_export_type(void)
{
   VkBuffer probe = VK_NULL_HANDLE;
   VkMemoryRequirements req;

   if (vkh_create_buffer(&g.vk, 256 * KIB, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, VKH_OPAQUE_FD, &probe) !=
       VK_SUCCESS)
      return -1;
   vkGetBufferMemoryRequirements(g.vk.device, probe, &req);
   vkDestroyBuffer(g.vk.device, probe, NULL);
   return vkh_find_memory_type(&g.vk, req.memoryTypeBits,
                               VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
}

static int
stress_threads(const char *name)
{
   int seconds = env_int("CUVK_STRESS_SECONDS", 5, 1, 24 * 3600);
   int nthreads = env_int("CUVK_STRESS_THREADS", 6, 1, MAX_THREADS);
   uint64_t seed = (uint64_t)env_int("CUVK_STRESS_SEED", (int)(time(NULL) & 0x7fffffff), 0, 0x7fffffff);
   static struct worker workers[MAX_THREADS];
   /* The main thread, as the check macros name it. */
   struct worker main_thread = { .index = -1 };
   struct worker *w = &main_thread;
   int status = CUVK_TEST_FAIL;

   printf("%s: %d threads for %d s, CUVK_STRESS_SEED=%" PRIu64 "\n", name, nthreads, seconds, seed);

   if (!vkh_init(&g.vk, name, NULL))
      return CUVK_TEST_FAIL;
   g.export_type = pick_export_type();
   if (g.export_type < 0) {
      fprintf(stderr, "no host-visible, coherent, exportable memory type on the exporter\n");
      vkh_finish(&g.vk);
      return CUVK_TEST_FAIL;
   }

   if (!check_cu(__FILE__, __LINE__, "cuInit", cuInit(0), -1) ||
       !check_cu(__FILE__, __LINE__, "cuDeviceGet", cuDeviceGet(&g.dev, 0), -1) ||
       !check_cu(__FILE__, __LINE__, "cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain(&g.primary, g.dev), -1))
      goto out_vk;
   if (!check_cu(__FILE__, __LINE__, "cuCtxSetCurrent", cuCtxSetCurrent(g.primary), -1) ||
       !check_cu(__FILE__, __LINE__, "cuStreamCreate", cuStreamCreate(&g.primary_stream, 0), -1) ||
       !check_cu(__FILE__, __LINE__, "cuEventCreate", cuEventCreate(&g.primary_event, CU_EVENT_DISABLE_TIMING), -1))
      goto out_primary;
   if (!check_cu(__FILE__, __LINE__, "cuCtxCreate", cuCtxCreate(&g.shared, NULL, 0, g.dev), -1))
      goto out_primary;
   /* cuCtxCreate made g.shared current here. */
   if (!check_cu(__FILE__, __LINE__, "cuStreamCreate", cuStreamCreate(&g.shared_stream, 0), -1))
      goto out_shared;

   CUmemAllocationProp prop;
   memset(&prop, 0, sizeof(prop));
   prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
   prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
   prop.location.id = g.dev;
   if (!check_cu(__FILE__, __LINE__, "cuMemGetAllocationGranularity",
                 cuMemGetAllocationGranularity(&g.vmm_granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM), -1))
      goto out_shared;
   if (!check_cu(__FILE__, __LINE__, "cuCtxSetCurrent", cuCtxSetCurrent(NULL), -1))
      goto out_shared;

   g.deadline = now() + seconds;
   for (int i = 0; i < nthreads; i++) {
      struct worker *t = &workers[i];
      t->index = i;
      t->rng = seed * 1000003u + (uint64_t)i;
      switch (i % 4) {
      case 0:
      case 1:
         t->ctx = g.primary;
         t->shared_stream = g.primary_stream;
         t->other_ctx = g.shared;
         break;
      case 2:
         t->ctx = g.shared;
         t->shared_stream = g.shared_stream;
         t->other_ctx = g.primary;
         break;
      default:
         t->own_ctx = true;
         t->other_ctx = g.primary;
         break;
      }
      if (pthread_create(&t->thread, NULL, worker_main, t) != 0) {
         cuvk_test_report(__FILE__, __LINE__, "pthread_create failed for thread %d", i);
         nthreads = i;
         break;
      }
   }
   unsigned long totals[OP_COUNT] = { 0 }, skipped[OP_COUNT] = { 0 };
   for (int i = 0; i < nthreads; i++) {
      pthread_join(workers[i].thread, NULL);
      for (int op = 0; op < OP_COUNT; op++) {
         totals[op] += workers[i].ops[op];
         skipped[op] += workers[i].skipped[op];
      }
   }

   printf("%-16s %10s %8s\n", "operation", "runs", "skipped");
   for (int op = 0; op < OP_COUNT; op++) {
      printf("%-16s %10lu %8lu\n", op_names[op], totals[op], skipped[op]);
      /* Each thread starts at a different operation; in the time given
       * every operation must have run, and not only been skipped. */
      if (totals[op] == skipped[op] && op != OP_REGISTER)
         cuvk_test_report(__FILE__, __LINE__, "operation %s never ran in %d s", op_names[op], seconds);
   }

   if (!check_cu(__FILE__, __LINE__, "cuCtxSetCurrent", cuCtxSetCurrent(g.shared), -1))
      goto out_shared;
   CU_CLEANUP(cuStreamDestroy(g.shared_stream));
out_shared:
   CU_CLEANUP(cuCtxDestroy(g.shared));
out_primary:
   if (g.primary_stream) {
      CU_CLEANUP(cuCtxSetCurrent(g.primary));
      CU_CLEANUP(cuStreamDestroy(g.primary_stream));
      if (g.primary_event)
         CU_CLEANUP(cuEventDestroy(g.primary_event));
   }
   CU_CLEANUP(cuCtxSetCurrent(NULL));
   /* The last release destroys the primary context's VkDevice, where
    * the validation layer reports any object cuvk left behind. */
   CU_CLEANUP(cuDevicePrimaryCtxRelease(g.dev));
out_vk:
   status = vkh_exit(vkh_finish(&g.vk));
   return status;
}

struct stress_case {
   const char *name;
   int (*run)(const char *name);
};

static const struct stress_case cases[] = {
   { "stress.threads.mixed", stress_threads },
};

static int
run_case(const void *c)
{
   const struct stress_case *sc = c;
   return sc->run(sc->name);
}

int
main(int argc, char **argv)
{
   struct cuvk_test_table table = CUVK_TEST_TABLE(cases);
   return cuvk_test_main(argc, argv, &table, run_case, NULL);
}
