/*
 * api.thread.*: the API from many threads at once, every byte checked:
 * threads with their own streams in one context, threads sharing a
 * context through cuCtxSetCurrent, threads with contexts of their own,
 * and allocation churn.
 */
#include "api_test.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#define THREADS 8

struct worker {
   int index;
   CUcontext ctx;
   pthread_barrier_t *start;
   unsigned iterations;
   unsigned done;
};

static void
run_workers(void *(*fn)(void *), struct worker *w, int count, CUcontext ctx, unsigned iterations)
{
   pthread_t threads[THREADS];
   pthread_barrier_t start;

   API_REQUIRE(count <= THREADS);
   pthread_barrier_init(&start, NULL, (unsigned)count);
   for (int i = 0; i < count; i++) {
      w[i] = (struct worker){ .index = i, .ctx = ctx, .start = &start, .iterations = iterations };
      API_REQUIRE(pthread_create(&threads[i], NULL, fn, &w[i]) == 0);
   }
   for (int i = 0; i < count; i++) {
      pthread_join(threads[i], NULL);
      API_CHECK_MSG(w[i].done == iterations, "thread %d finished %u of %u iterations", i,
                    w[i].done, iterations);
   }
   pthread_barrier_destroy(&start);
}

/* Each thread: its own stream, and a loop of allocate, copy host ->
 * device -> device -> host at random offsets and sizes, check, free. */
static void *
streams_worker(void *arg)
{
   struct worker *w = arg;
   const size_t max = API_MIB + 64;
   uint64_t rng = 0x1000 + (uint64_t)w->index;
   uint8_t *pinned_in = NULL, *pinned_out = NULL;
   uint8_t *pageable_in = api_xmalloc(max), *pageable_out = api_xmalloc(max);
   CUstream s = NULL;

   bool ready = API_CHECK_CU(cuCtxSetCurrent(w->ctx)) &&
                API_CHECK_CU(cuStreamCreate(&s, w->index & 1 ? CU_STREAM_NON_BLOCKING : 0)) &&
                API_CHECK_CU(cuMemAllocHost((void **)&pinned_in, max)) &&
                API_CHECK_CU(cuMemAllocHost((void **)&pinned_out, max));
   /* Everyone meets here even after a failure, or the others would wait
    * for this thread forever. */
   pthread_barrier_wait(w->start);
   if (!ready)
      return NULL;

   for (unsigned it = 0; it < w->iterations; it++) {
      const bool pinned = it % 3 != 2;
      uint8_t *in = pinned ? pinned_in : pageable_in, *out = pinned ? pinned_out : pageable_out;
      size_t n = 1 + api_rand(&rng) % (it % 4 == 0 ? API_MIB : 70000);
      size_t oa = api_rand(&rng) % 17, ob = api_rand(&rng) % 17, oh = api_rand(&rng) % 33;
      CUdeviceptr a = 0, b = 0;

      api_fill_random(in + oh, n, rng);
      memset(out, 0, n + oh);
      if (!API_CHECK_CU(cuMemAlloc(&a, n + oa)) || !API_CHECK_CU(cuMemAlloc(&b, n + ob)))
         break;
      API_CHECK_CU(cuMemcpyHtoDAsync(a + oa, in + oh, n, s));
      API_CHECK_CU(cuMemcpyDtoDAsync(b + ob, a + oa, n, s));
      API_CHECK_CU(cuMemsetD8Async(a, 0, n + oa, s));
      API_CHECK_CU(cuMemcpyDtoHAsync(out + oh, b + ob, n, s));
      API_CHECK_CU(cuStreamSynchronize(s));
      API_CHECK_BYTES(out + oh, in + oh, n, "thread %d iteration %u: %zu bytes", w->index, it, n);
      API_CHECK_CU(cuMemFree(a));
      API_CHECK_CU(cuMemFree(b));
      w->done++;
   }

   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFreeHost(pinned_in));
   API_CHECK_CU(cuMemFreeHost(pinned_out));
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   free(pageable_in);
   free(pageable_out);
   return NULL;
}

static void
thread_streams(void)
{
   struct worker w[THREADS];

   run_workers(streams_worker, w, THREADS, api_ctx, 40);
}

/* Threads sharing one created context through cuCtxSetCurrent, using
 * only synchronous calls and the default stream. */
static void *
shared_worker(void *arg)
{
   struct worker *w = arg;
   const size_t max = 300 * API_KIB;
   uint8_t *in = api_xmalloc(max), *out = api_xmalloc(max);
   uint64_t rng = 0x2000 + (uint64_t)w->index;
   CUcontext current = NULL;

   bool ready = API_CHECK_CU(cuCtxSetCurrent(w->ctx));
   API_CHECK_CU(cuCtxGetCurrent(&current));
   API_CHECK(current == w->ctx);
   pthread_barrier_wait(w->start);
   if (!ready)
      return NULL;

   for (unsigned it = 0; it < w->iterations; it++) {
      size_t n = 1 + api_rand(&rng) % max;
      CUdeviceptr a = 0, b = 0;
      uint8_t value = (uint8_t)api_rand(&rng);

      api_fill_random(in, n, rng);
      if (!API_CHECK_CU(cuMemAlloc(&a, n)) || !API_CHECK_CU(cuMemAlloc(&b, n)))
         break;
      API_CHECK_CU(cuMemcpyHtoD(a, in, n));
      API_CHECK_CU(cuMemcpyDtoD(b, a, n));
      API_CHECK_CU(cuMemsetD8(a, value, n));
      API_CHECK_CU(cuMemcpyDtoH(out, b, n));
      API_CHECK_BYTES(out, in, n, "thread %d iteration %u: copy of %zu bytes", w->index, it, n);
      API_CHECK_CU(cuMemcpy((CUdeviceptr)(uintptr_t)out, a, n));
      memset(in, value, n);
      API_CHECK_BYTES(out, in, n, "thread %d iteration %u: fill of %zu bytes", w->index, it, n);
      API_CHECK_CU(cuMemFree(a));
      API_CHECK_CU(cuMemFree(b));
      if (it % 8 == 0)
         API_CHECK_CU(cuCtxSynchronize());
      w->done++;
   }
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   free(in);
   free(out);
   return NULL;
}

static void
thread_shared_context(void)
{
   struct worker w[THREADS];
   CUcontext ctx = NULL;

   API_REQUIRE_CU(cuCtxCreate(&ctx, NULL, 0, api_dev));
   API_CHECK_CU(cuCtxPopCurrent(NULL));
   run_workers(shared_worker, w, THREADS, ctx, 60);
   API_CHECK_CU(cuCtxDestroy(ctx));
}

/* Each thread creates, uses and destroys contexts of its own while the
 * others do the same. */
static void *
own_context_worker(void *arg)
{
   struct worker *w = arg;
   uint8_t in[8192], out[8192];
   uint64_t rng = 0x3000 + (uint64_t)w->index;

   pthread_barrier_wait(w->start);
   for (unsigned it = 0; it < w->iterations; it++) {
      CUcontext ctx = NULL, current = NULL;
      CUdeviceptr d = 0;
      CUstream s = NULL;

      if (!API_CHECK_CU(cuCtxCreate(&ctx, NULL, 0, 0)))
         break;
      API_CHECK_CU(cuCtxGetCurrent(&current));
      API_CHECK(current == ctx);
      api_fill_random(in, sizeof(in), rng + it);
      API_CHECK_CU(cuMemAlloc(&d, sizeof(in)));
      API_CHECK_CU(cuStreamCreate(&s, 0));
      API_CHECK_CU(cuMemcpyHtoDAsync(d, in, sizeof(in), s));
      API_CHECK_CU(cuMemcpyDtoHAsync(out, d, sizeof(out), s));
      API_CHECK_CU(cuStreamSynchronize(s));
      API_CHECK_BYTES(out, in, sizeof(in), "thread %d context %u", w->index, it);
      /* Half the time leave the stream and memory to the destroy. */
      if (it % 2) {
         API_CHECK_CU(cuStreamDestroy(s));
         API_CHECK_CU(cuMemFree(d));
      }
      API_CHECK_CU(cuCtxDestroy(ctx));
      w->done++;
   }
   return NULL;
}

static void
thread_context_per_thread(void)
{
   struct worker w[4];

   run_workers(own_context_worker, w, 4, NULL, 10);
}

/* Allocation churn: every thread allocates, queries and frees small
 * device and pinned blocks, and registers host memory, at once. */
static void *
churn_worker(void *arg)
{
   struct worker *w = arg;
   enum { LIVE = 64 };
   CUdeviceptr live[LIVE] = { 0 };
   size_t sizes[LIVE] = { 0 };
   uint64_t rng = 0x4000 + (uint64_t)w->index;
   uint8_t *reg = api_xmalloc_aligned(16 * API_KIB);

   bool ready = API_CHECK_CU(cuCtxSetCurrent(w->ctx));
   pthread_barrier_wait(w->start);
   if (!ready)
      return NULL;

   for (unsigned it = 0; it < w->iterations; it++) {
      int slot = (int)(api_rand(&rng) % LIVE);
      if (live[slot]) {
         CUdeviceptr base = 0;
         size_t size = 0;
         uint8_t tag = 0;
         API_CHECK_CU(cuMemGetAddressRange(&base, &size, live[slot] + sizes[slot] - 1));
         API_CHECK(base == live[slot] && size == sizes[slot]);
         API_CHECK_CU(cuMemcpyDtoH(&tag, live[slot] + sizes[slot] / 2, 1));
         API_CHECK_MSG(tag == (uint8_t)(slot + w->index * LIVE),
                       "thread %d slot %d holds 0x%02x", w->index, slot, tag);
         API_CHECK_CU(cuMemFree(live[slot]));
         live[slot] = 0;
      } else {
         sizes[slot] = 1 + api_rand(&rng) % 3000;
         if (!API_CHECK_CU(cuMemAlloc(&live[slot], sizes[slot])))
            break;
         API_CHECK_CU(cuMemsetD8(live[slot], (unsigned char)(slot + w->index * LIVE), sizes[slot]));
      }
      if (it % 50 == 0) {
         void *pinned = NULL;
         API_CHECK_CU(cuMemAllocHost(&pinned, 1 + api_rand(&rng) % 100000));
         API_CHECK_CU(cuMemHostRegister(reg, 16 * API_KIB, 0));
         API_CHECK_CU(cuMemHostUnregister(reg));
         API_CHECK_CU(cuMemFreeHost(pinned));
      }
      w->done++;
   }
   for (int i = 0; i < LIVE; i++)
      if (live[i])
         API_CHECK_CU(cuMemFree(live[i]));
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   free(reg);
   return NULL;
}

static void
thread_alloc_churn(void)
{
   struct worker w[THREADS];

   run_workers(churn_worker, w, THREADS, api_ctx, 2000);
}

/* Every thread retains the primary context, works in it and releases
 * it, over and over: the context is created and destroyed many times
 * while other threads hold or are about to take references. */
static void *
primary_worker(void *arg)
{
   struct worker *w = arg;
   uint8_t in[4096], out[4096];
   uint64_t rng = 0x5000 + (uint64_t)w->index;

   pthread_barrier_wait(w->start);
   for (unsigned it = 0; it < w->iterations; it++) {
      CUcontext ctx = NULL;
      CUdeviceptr d = 0;
      size_t n = 1 + api_rand(&rng) % sizeof(in);

      if (!API_CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, 0)))
         break;
      API_CHECK_CU(cuCtxSetCurrent(ctx));
      api_fill_random(in, n, rng);
      if (API_CHECK_CU(cuMemAlloc(&d, n))) {
         API_CHECK_CU(cuMemcpyHtoD(d, in, n));
         API_CHECK_CU(cuMemcpyDtoH(out, d, n));
         API_CHECK_BYTES(out, in, n, "thread %d iteration %u", w->index, it);
         API_CHECK_CU(cuMemFree(d));
      }
      API_CHECK_CU(cuCtxSetCurrent(NULL));
      API_CHECK_CU(cuDevicePrimaryCtxRelease(0));
      w->done++;
   }
   return NULL;
}

static void
thread_primary_retain_release(void)
{
   struct worker w[THREADS];
   unsigned flags = 0;
   int active = -1;

   run_workers(primary_worker, w, THREADS, NULL, 30);
   API_CHECK_CU(cuDevicePrimaryCtxGetState(0, &flags, &active));
   API_CHECK_MSG(active == 0, "primary context still active after every release");
}

/* One thread produces on its stream and records an event; another
 * makes its stream wait for the event and consumes. */
struct relay {
   CUcontext ctx;
   CUdeviceptr buf;
   CUevent ready;
   pthread_barrier_t recorded, consumed;
   uint32_t *out;
   int rounds;
};

#define RELAY_BYTES (16 * API_MIB)

static void *
relay_producer(void *arg)
{
   struct relay *r = arg;
   CUstream s = NULL;

   API_CHECK_CU(cuCtxSetCurrent(r->ctx));
   API_CHECK_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
   for (int i = 0; i < r->rounds; i++) {
      API_CHECK_CU(cuMemsetD32Async(r->buf, 0x70000000u + (uint32_t)i, RELAY_BYTES / 4, s));
      API_CHECK_CU(cuEventRecord(r->ready, s));
      pthread_barrier_wait(&r->recorded);
      pthread_barrier_wait(&r->consumed);
   }
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

static void *
relay_consumer(void *arg)
{
   struct relay *r = arg;
   CUstream s = NULL;

   API_CHECK_CU(cuCtxSetCurrent(r->ctx));
   API_CHECK_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
   for (int i = 0; i < r->rounds; i++) {
      pthread_barrier_wait(&r->recorded);
      API_CHECK_CU(cuStreamWaitEvent(s, r->ready, 0));
      API_CHECK_CU(cuMemcpyDtoHAsync(r->out, r->buf, RELAY_BYTES, s));
      API_CHECK_CU(cuStreamSynchronize(s));
      size_t bad = 0;
      for (size_t k = 0; k < RELAY_BYTES / 4; k++)
         bad += r->out[k] != 0x70000000u + (uint32_t)i;
      API_CHECK_MSG(bad == 0, "round %d: %zu words not yet produced", i, bad);
      pthread_barrier_wait(&r->consumed);
   }
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

static void
thread_event_relay(void)
{
   struct relay r = { .ctx = api_ctx, .rounds = 8 };
   pthread_t producer, consumer;

   API_REQUIRE_CU(cuMemAlloc(&r.buf, RELAY_BYTES));
   API_REQUIRE_CU(cuMemAllocHost((void **)&r.out, RELAY_BYTES));
   API_REQUIRE_CU(cuEventCreate(&r.ready, CU_EVENT_DISABLE_TIMING));
   pthread_barrier_init(&r.recorded, NULL, 2);
   pthread_barrier_init(&r.consumed, NULL, 2);
   API_REQUIRE(pthread_create(&producer, NULL, relay_producer, &r) == 0);
   API_REQUIRE(pthread_create(&consumer, NULL, relay_consumer, &r) == 0);
   pthread_join(producer, NULL);
   pthread_join(consumer, NULL);
   pthread_barrier_destroy(&r.recorded);
   pthread_barrier_destroy(&r.consumed);
   API_CHECK_CU(cuEventDestroy(r.ready));
   API_CHECK_CU(cuMemFreeHost(r.out));
   API_CHECK_CU(cuMemFree(r.buf));
}

/* ---- api.thread.vmm_release_retire ---------------------------------------
 *
 * One thread cycles virtual memory (create, map, fill, unmap, release, in
 * the orders CUDA allows) while others keep retiring the context's
 * batches with cuCtxSynchronize, cuStreamQuery and small synchronous
 * copies.  Retiring runs the deferred release of an unmapped mapping,
 * which frees the handle when cuMemRelease has dropped the last handle
 * reference: issue 15 found cuMemRelease still touching the handle after
 * that (a use-after-free, a corrupted object table, and later releases
 * of live handles failing).  Bounded in time; every return checked. */

#define VMM_STRESS_SECONDS 2.0
#define VMM_STRESS_SIZE (2 * API_MIB)

struct vmm_stress {
   CUcontext ctx;
   pthread_barrier_t start;
   CUdeviceptr va;
   int mapped; /* set while the cycler has va mapped, a hint for retainers */
   int stop;
   unsigned cycles;
   unsigned retires;
   unsigned retains;
};

static void *
vmm_stress_cycler(void *arg)
{
   struct vmm_stress *v = arg;
   CUmemAllocationProp prop = {
      .type = CU_MEM_ALLOCATION_TYPE_PINNED,
      .location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0 },
   };
   CUmemAccessDesc access = {
      .location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0 },
      .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
   };
   CUdeviceptr va = v->va;
   CUstream s = NULL;
   bool ready = API_CHECK_CU(cuCtxSetCurrent(v->ctx)) &&
                API_CHECK_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
   pthread_barrier_wait(&v->start);
   double end = api_now() + VMM_STRESS_SECONDS;

   for (unsigned it = 0; ready && api_now() < end; it++) {
      CUmemGenericAllocationHandle h = 0, again = 0;
      uint8_t tag = (uint8_t)(it * 7 + 1), got[64];
      uint8_t want[64];

      if (!API_CHECK_CU(cuMemCreate(&h, VMM_STRESS_SIZE, &prop, 0)))
         break;
      if (!API_CHECK_CU(cuMemMap(va, VMM_STRESS_SIZE, 0, h, 0)) ||
          !API_CHECK_CU(cuMemSetAccess(va, VMM_STRESS_SIZE, &access, 1))) {
         API_CHECK_CU(cuMemRelease(h));
         break;
      }
      __atomic_store_n(&v->mapped, 1, __ATOMIC_RELAXED);
      /* Work in flight on the mapping, so its release is deferred to
       * whichever thread retires the batch next. */
      API_CHECK_CU(cuMemsetD8Async(va, tag, VMM_STRESS_SIZE, s));
      if (it % 8 == 0) {
         memset(want, tag, sizeof(want));
         API_CHECK_CU(cuMemcpyDtoHAsync(got, va + VMM_STRESS_SIZE - sizeof(got), sizeof(got), s));
         API_CHECK_CU(cuStreamSynchronize(s));
         API_CHECK_BYTES(got, want, sizeof(got), "cycle %u", it);
         API_CHECK_CU(cuMemsetD8Async(va, tag, VMM_STRESS_SIZE, s));
      }
      __atomic_store_n(&v->mapped, 0, __ATOMIC_RELAXED);
      switch (it % 3) {
      case 0:
         /* Unmap first: the mapping's reference outlives the handle's
          * by the deferred release only. */
         API_CHECK_CU(cuMemUnmap(va, VMM_STRESS_SIZE));
         API_CHECK_CU(cuMemRelease(h));
         break;
      case 1:
         /* Release first: the mapping keeps the memory alive. */
         API_CHECK_CU(cuMemRelease(h));
         API_CHECK_CU(cuMemUnmap(va, VMM_STRESS_SIZE));
         break;
      default:
         /* A released handle revived through its mapping, released
          * again, then the mapping goes. */
         API_CHECK_CU(cuMemRelease(h));
         API_CHECK_CU(cuMemRetainAllocationHandle(&again, (void *)(uintptr_t)va));
         API_CHECK(again == h);
         API_CHECK_CU(cuMemUnmap(va, VMM_STRESS_SIZE));
         API_CHECK_CU(cuMemRelease(again));
         break;
      }
      v->cycles++;
   }
   __atomic_store_n(&v->stop, 1, __ATOMIC_RELEASE);
   if (s)
      API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

static void *
vmm_stress_retirer(void *arg)
{
   struct vmm_stress *v = arg;
   uint8_t in[256], out[256];
   CUdeviceptr d = 0;
   CUstream s = NULL;
   uint64_t rng = 0x6000;
   bool ready = API_CHECK_CU(cuCtxSetCurrent(v->ctx)) &&
                API_CHECK_CU(cuStreamCreate(&s, 0)) &&
                API_CHECK_CU(cuMemAlloc(&d, sizeof(in)));
   pthread_barrier_wait(&v->start);

   for (unsigned it = 0; ready && !__atomic_load_n(&v->stop, __ATOMIC_ACQUIRE); it++) {
      switch (it % 3) {
      case 0:
         API_CHECK_CU(cuCtxSynchronize());
         break;
      case 1: {
         CUresult r = cuStreamQuery(s);
         API_CHECK_MSG(r == CUDA_SUCCESS || r == CUDA_ERROR_NOT_READY, "cuStreamQuery returned %d", (int)r);
         break;
      }
      default:
         api_fill_random(in, sizeof(in), rng++);
         API_CHECK_CU(cuMemcpyHtoD(d, in, sizeof(in)));
         API_CHECK_CU(cuMemcpyDtoH(out, d, sizeof(out)));
         API_CHECK_BYTES(out, in, sizeof(in), "retirer copy %u", it);
         break;
      }
      __atomic_add_fetch(&v->retires, 1, __ATOMIC_RELAXED);
   }
   if (d)
      API_CHECK_CU(cuMemFree(d));
   if (s)
      API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

/* Takes references to whatever handle is mapped at the moment and gives
 * them back, racing the cycler's own releases: a reference taken while
 * the mapping lives is good for exactly one release. */
static void *
vmm_stress_retainer(void *arg)
{
   struct vmm_stress *v = arg;
   bool ready = API_CHECK_CU(cuCtxSetCurrent(v->ctx));
   pthread_barrier_wait(&v->start);

   while (ready && !__atomic_load_n(&v->stop, __ATOMIC_ACQUIRE)) {
      CUmemGenericAllocationHandle h = 0;
      /* Only a hint: the mapping may go between this and the retain, and
       * cuvk logs each refused retain. */
      if (!__atomic_load_n(&v->mapped, __ATOMIC_RELAXED))
         continue;
      CUresult r = cuMemRetainAllocationHandle(&h, (void *)(uintptr_t)v->va);
      /* Nothing mapped at the moment is the one other answer. */
      if (r == CUDA_ERROR_INVALID_VALUE)
         continue;
      if (!API_CHECK_CU(r))
         break;
      API_CHECK_CU(cuMemRelease(h));
      __atomic_add_fetch(&v->retains, 1, __ATOMIC_RELAXED);
   }
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

static void
thread_vmm_release_retire(void)
{
   enum { RETIRERS = 3, RETAINERS = 2 };
   struct vmm_stress v = { .ctx = api_ctx };
   pthread_t cycler, others[RETIRERS + RETAINERS];

   API_REQUIRE_CU(cuMemAddressReserve(&v.va, VMM_STRESS_SIZE, 0, 0, 0));
   pthread_barrier_init(&v.start, NULL, 1 + RETIRERS + RETAINERS);
   API_REQUIRE(pthread_create(&cycler, NULL, vmm_stress_cycler, &v) == 0);
   for (int i = 0; i < RETIRERS + RETAINERS; i++)
      API_REQUIRE(pthread_create(&others[i], NULL, i < RETIRERS ? vmm_stress_retirer : vmm_stress_retainer,
                                 &v) == 0);
   pthread_join(cycler, NULL);
   for (int i = 0; i < RETIRERS + RETAINERS; i++)
      pthread_join(others[i], NULL);
   pthread_barrier_destroy(&v.start);
   API_CHECK_CU(cuMemAddressFree(v.va, VMM_STRESS_SIZE));
   API_CHECK_MSG(v.cycles > 0, "no virtual memory cycle completed");
   printf("%u create/map/unmap/release cycles, %u retiring calls, %u retain/release pairs\n", v.cycles,
          v.retires, v.retains);
}

/* ---- api.thread.event_record_query ---------------------------------------
 *
 * Threads record one event on their own streams while others query it,
 * wait for it, make streams of the same and of another context wait on
 * it, and time it: the event's value and
 * state are written under the context lock and must be read under it
 * too (issue 15: cuEventQuery, cuEventSynchronize and cuStreamWaitEvent
 * read them bare, a data race ThreadSanitizer reports). */

#define EVENT_RACE_ROUNDS 400

struct event_race {
   CUcontext ctx;
   CUcontext other; /* a second context: waits on the event go through the host */
   CUevent shared;
   CUevent timed;
   pthread_barrier_t start;
};

struct event_reader {
   struct event_race *race;
   CUcontext ctx;
};

static void *
event_race_recorder(void *arg)
{
   struct event_race *e = arg;
   CUdeviceptr d = 0;
   CUstream s = NULL;
   bool ready = API_CHECK_CU(cuCtxSetCurrent(e->ctx)) &&
                API_CHECK_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING)) &&
                API_CHECK_CU(cuMemAlloc(&d, 64 * API_KIB));
   pthread_barrier_wait(&e->start);
   for (int i = 0; ready && i < EVENT_RACE_ROUNDS; i++) {
      API_CHECK_CU(cuMemsetD8Async(d, (unsigned char)i, 64 * API_KIB, s));
      API_CHECK_CU(cuEventRecord(e->shared, s));
      API_CHECK_CU(cuEventRecord(e->timed, s));
   }
   if (s) {
      API_CHECK_CU(cuStreamSynchronize(s));
      API_CHECK_CU(cuStreamDestroy(s));
   }
   if (d)
      API_CHECK_CU(cuMemFree(d));
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

static void *
event_race_reader(void *arg)
{
   struct event_reader *reader = arg;
   struct event_race *e = reader->race;
   const bool timing = reader->ctx == e->ctx;
   CUevent first = NULL;
   CUstream s = NULL;
   bool ready = API_CHECK_CU(cuCtxSetCurrent(reader->ctx)) &&
                API_CHECK_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING)) &&
                API_CHECK_CU(cuEventCreate(&first, 0)) &&
                API_CHECK_CU(cuEventRecord(first, s));
   pthread_barrier_wait(&e->start);
   for (int i = 0; ready && i < EVENT_RACE_ROUNDS; i++) {
      CUresult r = cuEventQuery(e->shared);
      API_CHECK_MSG(r == CUDA_SUCCESS || r == CUDA_ERROR_NOT_READY, "cuEventQuery returned %d", (int)r);
      if (i % 4 == 0)
         API_CHECK_CU(cuEventSynchronize(e->shared));
      API_CHECK_CU(cuStreamWaitEvent(s, e->shared, 0));
      /* Elapsed time needs both events in one context. */
      if (timing && i % 8 == 0) {
         float ms = 0;
         r = cuEventElapsedTime(&ms, first, e->timed);
         API_CHECK_MSG(r == CUDA_SUCCESS || r == CUDA_ERROR_NOT_READY, "cuEventElapsedTime returned %d",
                       (int)r);
      }
   }
   if (s) {
      API_CHECK_CU(cuStreamSynchronize(s));
      API_CHECK_CU(cuStreamDestroy(s));
   }
   if (first)
      API_CHECK_CU(cuEventDestroy(first));
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

static void
thread_event_record_query(void)
{
   enum { PAIRS = 2 };
   struct event_race e = { .ctx = api_ctx };
   struct event_reader readers[PAIRS];
   pthread_t threads[2 * PAIRS];

   API_REQUIRE_CU(cuCtxCreate(&e.other, NULL, 0, api_dev));
   API_REQUIRE_CU(cuCtxSetCurrent(api_ctx));
   API_REQUIRE_CU(cuEventCreate(&e.shared, CU_EVENT_DISABLE_TIMING));
   API_REQUIRE_CU(cuEventCreate(&e.timed, 0));
   /* Recorded once before the race, so elapsed-time readers always see
    * a recorded end event. */
   API_REQUIRE_CU(cuEventRecord(e.timed, NULL));
   pthread_barrier_init(&e.start, NULL, 2 * PAIRS);
   for (int i = 0; i < PAIRS; i++) {
      API_REQUIRE(pthread_create(&threads[2 * i], NULL, event_race_recorder, &e) == 0);
      readers[i] = (struct event_reader){ .race = &e, .ctx = i % 2 ? e.other : e.ctx };
      API_REQUIRE(pthread_create(&threads[2 * i + 1], NULL, event_race_reader, &readers[i]) == 0);
   }
   for (int i = 0; i < 2 * PAIRS; i++)
      pthread_join(threads[i], NULL);
   pthread_barrier_destroy(&e.start);
   API_CHECK_CU(cuEventSynchronize(e.shared));
   API_CHECK_CU(cuEventQuery(e.shared));
   API_CHECK_CU(cuEventDestroy(e.shared));
   API_CHECK_CU(cuEventDestroy(e.timed));
   API_CHECK_CU(cuCtxDestroy(e.other));
   API_CHECK_CU(cuCtxSetCurrent(api_ctx));
}

/* One thread creates, uses and destroys streams; others query whichever
 * stream was created last, live or already destroyed.  A call that found
 * the stream in the object table used to read it after the destroy had
 * freed it (fuzz_api; under --sanitize=address a heap-use-after-free in
 * cuStreamQuery).  The table now holds a reference to each stream and
 * each call its own, so a late reader finishes on the live stream. */
struct stream_race {
   CUcontext ctx;
   CUdeviceptr dev;
   CUstream _Atomic latest;
   bool _Atomic stop;
   pthread_barrier_t start;
};

static void *
stream_race_churn(void *data)
{
   struct stream_race *r = data;
   API_CHECK_CU(cuCtxSetCurrent(r->ctx));
   pthread_barrier_wait(&r->start);
   double end = api_now() + 2.0;
   for (unsigned i = 0; api_now() < end; i++) {
      CUstream s;
      if (!API_CHECK_CU(cuStreamCreateWithPriority(&s, i % 2 ? CU_STREAM_NON_BLOCKING : 0, -(int)(i % 3))))
         break;
      atomic_store(&r->latest, s);
      API_CHECK_CU(cuMemsetD8Async(r->dev, (unsigned char)i, 4096, s));
      API_CHECK_CU(cuStreamDestroy(s));
   }
   atomic_store(&r->stop, true);
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

static void *
stream_race_reader(void *data)
{
   struct stream_race *r = data;
   pthread_barrier_wait(&r->start);
   while (!atomic_load(&r->stop)) {
      CUstream s = atomic_load(&r->latest);
      if (!s)
         continue;
      unsigned flags;
      int prio;
      CUresult q = cuStreamQuery(s), y = cuStreamSynchronize(s), f = cuStreamGetFlags(s, &flags),
               p = cuStreamGetPriority(s, &prio);
      API_CHECK_MSG((q == CUDA_SUCCESS || q == CUDA_ERROR_NOT_READY || q == CUDA_ERROR_INVALID_HANDLE) &&
                       (y == CUDA_SUCCESS || y == CUDA_ERROR_INVALID_HANDLE) &&
                       (f == CUDA_SUCCESS || f == CUDA_ERROR_INVALID_HANDLE) &&
                       (p == CUDA_SUCCESS || p == CUDA_ERROR_INVALID_HANDLE),
                    "on a stream being destroyed: query %d, synchronize %d, flags %d, priority %d", (int)q,
                    (int)y, (int)f, (int)p);
   }
   return NULL;
}

static void
thread_stream_destroy_query(void)
{
   enum { READERS = 3 };
   struct stream_race r = { .ctx = api_ctx };
   pthread_t threads[1 + READERS];
   API_REQUIRE_CU(cuMemAlloc(&r.dev, 4096));
   pthread_barrier_init(&r.start, NULL, 1 + READERS);
   API_REQUIRE(pthread_create(&threads[0], NULL, stream_race_churn, &r) == 0);
   for (int i = 1; i <= READERS; i++)
      API_REQUIRE(pthread_create(&threads[i], NULL, stream_race_reader, &r) == 0);
   for (int i = 0; i <= READERS; i++)
      pthread_join(threads[i], NULL);
   pthread_barrier_destroy(&r.start);
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_CU(cuMemFree(r.dev));
}

/* One thread creates streams, queues a fill on each and destroys it;
 * others queue work on whichever stream it made last, live or already
 * destroyed: copies and fills, an event recorded on it and waited for
 * there, a synchronisation and a query.  Each call holds the stream it
 * found until it returns, and what it queued before the destroy
 * completes, as CUDA defines for a destroyed stream's work. */
struct stream_use_race {
   CUcontext ctx;
   CUdeviceptr dev;
   CUstream _Atomic latest;
   bool _Atomic stop;
   pthread_barrier_t start;
};

static void *
stream_use_churn(void *data)
{
   struct stream_use_race *r = data;
   API_CHECK_CU(cuCtxSetCurrent(r->ctx));
   pthread_barrier_wait(&r->start);
   double end = api_now() + 2.0;
   for (unsigned i = 0; api_now() < end && !cuvk_test_failures(); i++) {
      CUstream s;
      if (!API_CHECK_CU(cuStreamCreate(&s, i % 2 ? CU_STREAM_NON_BLOCKING : 0)))
         break;
      atomic_store(&r->latest, s);
      API_CHECK_CU(cuMemsetD8Async(r->dev, (unsigned char)i, 4096, s));
      API_CHECK_CU(cuStreamDestroy(s));
   }
   atomic_store(&r->stop, true);
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

static bool
stream_use_result(CUresult r)
{
   return r == CUDA_SUCCESS || r == CUDA_ERROR_NOT_READY || r == CUDA_ERROR_INVALID_HANDLE;
}

static void *
stream_use_user(void *data)
{
   struct stream_use_race *r = data;
   uint8_t host[256];
   CUevent e;
   API_CHECK_CU(cuCtxSetCurrent(r->ctx));
   if (!API_CHECK_CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING)))
      e = NULL;
   pthread_barrier_wait(&r->start);
   while (e && !atomic_load(&r->stop)) {
      CUstream s = atomic_load(&r->latest);
      if (!s)
         continue;
      CUresult c = cuMemcpyDtoHAsync(host, r->dev, sizeof(host), s),
               f = cuMemsetD32Async(r->dev + 1024, 7, 64, s), v = cuEventRecord(e, s),
               w = cuStreamWaitEvent(s, e, 0), y = cuStreamSynchronize(s), q = cuStreamQuery(s);
      API_CHECK_MSG(stream_use_result(c) && stream_use_result(f) && stream_use_result(v) &&
                       stream_use_result(w) && stream_use_result(y) && stream_use_result(q),
                    "on a stream being destroyed: copy %d, fill %d, event record %d, event wait %d, "
                    "synchronize %d, query %d", (int)c, (int)f, (int)v, (int)w, (int)y, (int)q);
   }
   /* What was recorded on a destroyed stream completes all the same. */
   if (e) {
      API_CHECK_CU(cuEventSynchronize(e));
      API_CHECK_CU(cuEventDestroy(e));
   }
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

static void
thread_stream_destroy_use(void)
{
   enum { USERS = 3 };
   struct stream_use_race r = { .ctx = api_ctx };
   pthread_t threads[1 + USERS];
   API_REQUIRE_CU(cuMemAlloc(&r.dev, 4096));
   pthread_barrier_init(&r.start, NULL, 1 + USERS);
   API_REQUIRE(pthread_create(&threads[0], NULL, stream_use_churn, &r) == 0);
   for (int i = 1; i <= USERS; i++)
      API_REQUIRE(pthread_create(&threads[i], NULL, stream_use_user, &r) == 0);
   for (int i = 0; i <= USERS; i++)
      pthread_join(threads[i], NULL);
   pthread_barrier_destroy(&r.start);
   API_CHECK_CU(cuCtxSetCurrent(api_ctx));
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_CU(cuMemFree(r.dev));
}

/* One thread creates, records and destroys events; others use whichever
 * event was created last, live or already destroyed.  A call that found
 * the event in the object table read it after the destroy had freed it
 * (under --sanitize=address a heap-use-after-free in cuEventQuery and
 * the others); the table now holds a reference and each call its own, so
 * a late call finishes on the live event and a later one is told the
 * handle is gone. */
struct event_destroy_race {
   CUcontext ctx;
   CUevent _Atomic latest;
   bool _Atomic stop;
   pthread_barrier_t start;
};

static void *
event_destroy_churn(void *data)
{
   struct event_destroy_race *r = data;
   API_CHECK_CU(cuCtxSetCurrent(r->ctx));
   pthread_barrier_wait(&r->start);
   double end = api_now() + 2.0;
   for (unsigned i = 0; api_now() < end; i++) {
      CUevent e;
      if (!API_CHECK_CU(cuEventCreate(&e, i % 2 ? CU_EVENT_DISABLE_TIMING : 0)))
         break;
      atomic_store(&r->latest, e);
      API_CHECK_CU(cuEventRecord(e, NULL));
      API_CHECK_CU(cuEventDestroy(e));
   }
   atomic_store(&r->stop, true);
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

static bool
event_race_result(CUresult r)
{
   return r == CUDA_SUCCESS || r == CUDA_ERROR_NOT_READY || r == CUDA_ERROR_INVALID_HANDLE;
}

static void *
event_destroy_reader(void *data)
{
   struct event_destroy_race *r = data;
   API_CHECK_CU(cuCtxSetCurrent(r->ctx));
   pthread_barrier_wait(&r->start);
   while (!atomic_load(&r->stop)) {
      CUevent e = atomic_load(&r->latest);
      if (!e)
         continue;
      float ms;
      CUresult q = cuEventQuery(e), y = cuEventSynchronize(e), c = cuEventRecord(e, NULL),
               w = cuStreamWaitEvent(NULL, e, 0), t = cuEventElapsedTime(&ms, e, e);
      API_CHECK_MSG(event_race_result(q) && event_race_result(y) && event_race_result(c) &&
                       event_race_result(w) && event_race_result(t),
                    "on an event being destroyed: query %d, synchronize %d, record %d, stream wait %d, "
                    "elapsed time %d", (int)q, (int)y, (int)c, (int)w, (int)t);
   }
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

static void
thread_event_destroy_use(void)
{
   enum { READERS = 3 };
   struct event_destroy_race r = { .ctx = api_ctx };
   pthread_t threads[1 + READERS];
   pthread_barrier_init(&r.start, NULL, 1 + READERS);
   API_REQUIRE(pthread_create(&threads[0], NULL, event_destroy_churn, &r) == 0);
   for (int i = 1; i <= READERS; i++)
      API_REQUIRE(pthread_create(&threads[i], NULL, event_destroy_reader, &r) == 0);
   for (int i = 0; i <= READERS; i++)
      pthread_join(threads[i], NULL);
   pthread_barrier_destroy(&r.start);
   API_CHECK_CU(cuCtxSetCurrent(api_ctx));
   API_CHECK_CU(cuCtxSynchronize());
}

/* One thread creates an exportable VMM allocation, imports it back as
 * external memory, and destroys both; others use whichever handle and
 * import it made last, live or already gone: cuMemGetAllocationProperties-
 * FromHandle, cuMemExportToShareableHandle and cuExternalMemoryGet-
 * MappedBuffer.  Each found the object in the table and read it after a
 * destroy could have freed it; each now holds a count on it. */
struct vmm_import_race {
   CUcontext ctx;
   CUmemAllocationProp prop;
   size_t size;
   _Atomic CUmemGenericAllocationHandle handle;
   CUexternalMemory _Atomic ext;
   bool _Atomic stop;
   pthread_barrier_t start;
};

static void *
vmm_import_churn(void *data)
{
   struct vmm_import_race *r = data;
   API_CHECK_CU(cuCtxSetCurrent(r->ctx));
   pthread_barrier_wait(&r->start);
   double end = api_now() + 2.0;
   while (api_now() < end && !cuvk_test_failures()) {
      CUmemGenericAllocationHandle h;
      if (!API_CHECK_CU(cuMemCreate(&h, r->size, &r->prop, 0)))
         break;
      atomic_store(&r->handle, h);
      int fd = -1;
      CUexternalMemory ext = NULL;
      if (API_CHECK_CU(cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0))) {
         CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc;
         memset(&desc, 0, sizeof(desc));
         desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
         desc.handle.fd = fd;
         desc.size = r->size;
         if (!API_CHECK_CU(cuImportExternalMemory(&ext, &desc)))
            close(fd);
      }
      if (ext) {
         atomic_store(&r->ext, ext);
         API_CHECK_CU(cuDestroyExternalMemory(ext));
      }
      API_CHECK_CU(cuMemRelease(h));
   }
   atomic_store(&r->stop, true);
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

static void *
vmm_import_user(void *data)
{
   struct vmm_import_race *r = data;
   API_CHECK_CU(cuCtxSetCurrent(r->ctx));
   pthread_barrier_wait(&r->start);
   while (!atomic_load(&r->stop)) {
      CUmemGenericAllocationHandle h = atomic_load(&r->handle);
      CUexternalMemory ext = atomic_load(&r->ext);
      if (!h || !ext)
         continue;
      CUmemAllocationProp prop;
      int fd = -1;
      CUdeviceptr ptr = 0;
      CUDA_EXTERNAL_MEMORY_BUFFER_DESC buf;
      memset(&buf, 0, sizeof(buf));
      buf.size = r->size;
      CUresult p = cuMemGetAllocationPropertiesFromHandle(&prop, h);
      CUresult x = cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
      CUresult m = cuExternalMemoryGetMappedBuffer(&ptr, ext, &buf);
      if (x == CUDA_SUCCESS)
         close(fd);
      if (m == CUDA_SUCCESS)
         API_CHECK_CU(cuMemFree(ptr));
      API_CHECK_MSG((p == CUDA_SUCCESS || p == CUDA_ERROR_INVALID_VALUE) &&
                       (x == CUDA_SUCCESS || x == CUDA_ERROR_INVALID_VALUE) &&
                       (m == CUDA_SUCCESS || m == CUDA_ERROR_INVALID_VALUE),
                    "on a handle being released: properties %d, export %d, mapped buffer %d", (int)p, (int)x,
                    (int)m);
   }
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

static void
thread_vmm_import_destroy_use(void)
{
   enum { USERS = 3 };
   struct vmm_import_race r = { .ctx = api_ctx };
   pthread_t threads[1 + USERS];
   r.prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
   r.prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
   r.prop.location.id = api_dev;
   r.prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
   API_REQUIRE_CU(cuMemGetAllocationGranularity(&r.size, &r.prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
   pthread_barrier_init(&r.start, NULL, 1 + USERS);
   API_REQUIRE(pthread_create(&threads[0], NULL, vmm_import_churn, &r) == 0);
   for (int i = 1; i <= USERS; i++)
      API_REQUIRE(pthread_create(&threads[i], NULL, vmm_import_user, &r) == 0);
   for (int i = 0; i <= USERS; i++)
      pthread_join(threads[i], NULL);
   pthread_barrier_destroy(&r.start);
   API_CHECK_CU(cuCtxSetCurrent(api_ctx));
   API_CHECK_CU(cuCtxSynchronize());
}

/* One thread creates and destroys arrays and mipmapped arrays; others
 * read descriptors of, copy out of and take levels of whichever it made
 * last, live or already destroyed.  Each call holds a reference, a
 * level's being its mipmapped array's. */
struct array_race {
   CUcontext ctx;
   CUarray _Atomic array;
   CUmipmappedArray _Atomic mip;
   bool _Atomic stop;
   pthread_barrier_t start;
};

static void *
array_race_churn(void *data)
{
   struct array_race *r = data;
   API_CHECK_CU(cuCtxSetCurrent(r->ctx));
   pthread_barrier_wait(&r->start);
   CUDA_ARRAY3D_DESCRIPTOR desc = {
      .Width = 64, .Height = 16, .Format = CU_AD_FORMAT_UNSIGNED_INT8, .NumChannels = 4,
   };
   double end = api_now() + 2.0;
   while (api_now() < end && !cuvk_test_failures()) {
      CUarray a;
      CUmipmappedArray m;
      if (!API_CHECK_CU(cuArray3DCreate(&a, &desc)))
         break;
      atomic_store(&r->array, a);
      if (!API_CHECK_CU(cuMipmappedArrayCreate(&m, &desc, 3))) {
         API_CHECK_CU(cuArrayDestroy(a));
         break;
      }
      atomic_store(&r->mip, m);
      API_CHECK_CU(cuArrayDestroy(a));
      API_CHECK_CU(cuMipmappedArrayDestroy(m));
   }
   atomic_store(&r->stop, true);
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

static bool
array_race_result(CUresult r)
{
   return r == CUDA_SUCCESS || r == CUDA_ERROR_INVALID_HANDLE;
}

static void *
array_race_user(void *data)
{
   struct array_race *r = data;
   uint8_t row[64 * 4];
   API_CHECK_CU(cuCtxSetCurrent(r->ctx));
   pthread_barrier_wait(&r->start);
   while (!atomic_load(&r->stop)) {
      CUarray a = atomic_load(&r->array);
      CUmipmappedArray m = atomic_load(&r->mip);
      if (!a || !m)
         continue;
      CUDA_ARRAY_DESCRIPTOR desc;
      CUDA_MEMCPY2D copy = {
         .srcMemoryType = CU_MEMORYTYPE_ARRAY, .srcArray = a,
         .dstMemoryType = CU_MEMORYTYPE_HOST, .dstHost = row, .dstPitch = sizeof(row),
         .WidthInBytes = sizeof(row), .Height = 1,
      };
      CUarray level = NULL;
      CUresult d = cuArrayGetDescriptor(&desc, a), c = cuMemcpy2D(&copy),
               l = cuMipmappedArrayGetLevel(&level, m, 1);
      CUresult ld = l == CUDA_SUCCESS ? cuArrayGetDescriptor(&desc, level) : CUDA_SUCCESS;
      API_CHECK_MSG(array_race_result(d) && array_race_result(c) && array_race_result(l) &&
                       array_race_result(ld),
                    "on arrays being destroyed: descriptor %d, copy %d, level %d, level descriptor %d", (int)d,
                    (int)c, (int)l, (int)ld);
   }
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

static void
thread_array_destroy_use(void)
{
   enum { USERS = 3 };
   struct array_race r = { .ctx = api_ctx };
   pthread_t threads[1 + USERS];
   pthread_barrier_init(&r.start, NULL, 1 + USERS);
   API_REQUIRE(pthread_create(&threads[0], NULL, array_race_churn, &r) == 0);
   for (int i = 1; i <= USERS; i++)
      API_REQUIRE(pthread_create(&threads[i], NULL, array_race_user, &r) == 0);
   for (int i = 0; i <= USERS; i++)
      pthread_join(threads[i], NULL);
   pthread_barrier_destroy(&r.start);
   API_CHECK_CU(cuCtxSetCurrent(api_ctx));
   API_CHECK_CU(cuCtxSynchronize());
}

/* One thread creates contexts and destroys each after a moment; others
 * make whichever it created last current and use it: allocate and free,
 * create, record on and destroy streams and events, synchronise.  A call
 * that found the context live used to have it freed under it (no count
 * on contexts); the destroy now waits for calls holding it, and later
 * ones are told it is gone. */
struct ctx_race {
   CUdevice dev;
   CUcontext _Atomic latest;
   bool _Atomic stop;
   unsigned _Atomic uses;
   pthread_barrier_t start;
};

static bool
ctx_race_result(CUresult r)
{
   return r == CUDA_SUCCESS || r == CUDA_ERROR_NOT_READY || r == CUDA_ERROR_INVALID_CONTEXT ||
          r == CUDA_ERROR_CONTEXT_IS_DESTROYED || r == CUDA_ERROR_INVALID_HANDLE ||
          r == CUDA_ERROR_INVALID_VALUE;
}

/* Uses the current context (live or destroyed meanwhile); false when an
 * answer was not one a destroyed context may give. */
static bool
ctx_race_use(void)
{
   CUdeviceptr p = 0;
   CUstream s = NULL;
   CUevent e = NULL;
   CUresult a = cuMemAlloc(&p, 4096), f = CUDA_SUCCESS, m = CUDA_SUCCESS;
   if (a == CUDA_SUCCESS) {
      m = cuMemsetD8(p, 1, 4096);
      f = cuMemFree(p);
   }
   CUresult sc = cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), ec = cuEventCreate(&e, 0);
   CUresult er = CUDA_SUCCESS, ss = CUDA_SUCCESS, sd = CUDA_SUCCESS, ed = CUDA_SUCCESS;
   if (sc == CUDA_SUCCESS && ec == CUDA_SUCCESS) {
      er = cuEventRecord(e, s);
      ss = cuStreamSynchronize(s);
   }
   if (sc == CUDA_SUCCESS)
      sd = cuStreamDestroy(s);
   if (ec == CUDA_SUCCESS)
      ed = cuEventDestroy(e);
   CUresult cs = cuCtxSynchronize();
   bool ok = ctx_race_result(a) && ctx_race_result(m) && ctx_race_result(f) && ctx_race_result(sc) &&
             ctx_race_result(ec) && ctx_race_result(er) && ctx_race_result(ss) && ctx_race_result(sd) &&
             ctx_race_result(ed) && ctx_race_result(cs);
   API_CHECK_MSG(ok, "on a context being destroyed: alloc %d, memset %d, free %d, stream %d, event %d, "
                 "record %d, stream sync %d, stream destroy %d, event destroy %d, ctx sync %d", (int)a, (int)m,
                 (int)f, (int)sc, (int)ec, (int)er, (int)ss, (int)sd, (int)ed, (int)cs);
   return ok;
}

static void *
ctx_race_destroyer(void *data)
{
   struct ctx_race *r = data;
   pthread_barrier_wait(&r->start);
   double end = api_now() + 2.0;
   while (api_now() < end && !cuvk_test_failures()) {
      CUcontext ctx;
      if (!API_CHECK_CU(cuCtxCreate(&ctx, NULL, 0, r->dev)))
         break;
      API_CHECK_CU(cuCtxPopCurrent(NULL));
      atomic_store(&r->latest, ctx);
      /* Long enough for the others to be in calls on it. */
      unsigned seen = atomic_load(&r->uses);
      double wait_end = api_now() + 0.2;
      while (atomic_load(&r->uses) < seen + 3 && api_now() < wait_end)
         sched_yield();
      API_CHECK_CU(cuCtxDestroy(ctx));
   }
   atomic_store(&r->stop, true);
   return NULL;
}

static void *
ctx_race_user(void *data)
{
   struct ctx_race *r = data;
   pthread_barrier_wait(&r->start);
   while (!atomic_load(&r->stop)) {
      CUcontext ctx = atomic_load(&r->latest);
      if (!ctx)
         continue;
      CUresult c = cuCtxSetCurrent(ctx);
      if (c == CUDA_ERROR_INVALID_CONTEXT)
         continue;
      if (!API_CHECK_CU(c) || !ctx_race_use())
         break;
      atomic_fetch_add(&r->uses, 1);
   }
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

static void
thread_ctx_destroy_use(void)
{
   enum { USERS = 3 };
   struct ctx_race r = { .dev = api_dev };
   pthread_t threads[1 + USERS];
   pthread_barrier_init(&r.start, NULL, 1 + USERS);
   API_REQUIRE(pthread_create(&threads[0], NULL, ctx_race_destroyer, &r) == 0);
   for (int i = 1; i <= USERS; i++)
      API_REQUIRE(pthread_create(&threads[i], NULL, ctx_race_user, &r) == 0);
   for (int i = 0; i <= USERS; i++)
      pthread_join(threads[i], NULL);
   pthread_barrier_destroy(&r.start);
}

/* The same with the primary context: one thread resets it now and then
 * while others retain it, use it and release it. */
static void *
primary_race_resetter(void *data)
{
   struct ctx_race *r = data;
   pthread_barrier_wait(&r->start);
   double end = api_now() + 2.0;
   while (api_now() < end && !cuvk_test_failures()) {
      unsigned seen = atomic_load(&r->uses);
      double wait_end = api_now() + 0.2;
      while (atomic_load(&r->uses) < seen + 3 && api_now() < wait_end)
         sched_yield();
      API_CHECK_CU(cuDevicePrimaryCtxReset(r->dev));
   }
   atomic_store(&r->stop, true);
   return NULL;
}

static void *
primary_race_user(void *data)
{
   struct ctx_race *r = data;
   pthread_barrier_wait(&r->start);
   while (!atomic_load(&r->stop)) {
      CUcontext ctx;
      if (!API_CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, r->dev)))
         break;
      CUresult c = cuCtxSetCurrent(ctx);
      bool ok = c == CUDA_ERROR_INVALID_CONTEXT || (API_CHECK_CU(c) && ctx_race_use());
      /* A reset in between dropped every retain: nothing to release. */
      CUresult rel = cuDevicePrimaryCtxRelease(r->dev);
      API_CHECK_MSG(rel == CUDA_SUCCESS || rel == CUDA_ERROR_INVALID_CONTEXT, "release gave %d", (int)rel);
      if (!ok)
         break;
      atomic_fetch_add(&r->uses, 1);
   }
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

static void
thread_primary_reset_use(void)
{
   enum { USERS = 3 };
   struct ctx_race r = { .dev = api_dev };
   pthread_t threads[1 + USERS];
   pthread_barrier_init(&r.start, NULL, 1 + USERS);
   API_REQUIRE(pthread_create(&threads[0], NULL, primary_race_resetter, &r) == 0);
   for (int i = 1; i <= USERS; i++)
      API_REQUIRE(pthread_create(&threads[i], NULL, primary_race_user, &r) == 0);
   for (int i = 0; i <= USERS; i++)
      pthread_join(threads[i], NULL);
   pthread_barrier_destroy(&r.start);
   /* Whatever the users' retains left. */
   API_CHECK_CU(cuDevicePrimaryCtxReset(api_dev));
}

/* Copies that reach another context only through a device pointer: the
 * users copy, in a context of their own, from memory of a context that
 * another thread keeps destroying.  The pointer names no handle the call
 * could hold, so cuvk holds the context it finds behind it for the copy;
 * a copy answers with the bytes the memory held or an error, never with
 * a crash or a use of freed memory (ASan run). */
struct cross_race {
   CUdevice dev;
   pthread_mutex_t lock;
   CUdeviceptr ptr;    /* in the current victim context, 0 between two */
   unsigned char value;
   bool _Atomic stop;
   unsigned _Atomic uses;
   pthread_barrier_t start;
};

enum { CROSS_BYTES = 4096 };

static void *
cross_race_destroyer(void *data)
{
   struct cross_race *r = data;
   pthread_barrier_wait(&r->start);
   double end = api_now() + 2.0;
   for (unsigned gen = 0; api_now() < end && !cuvk_test_failures(); gen++) {
      CUcontext ctx;
      CUdeviceptr p;
      unsigned char value = (unsigned char)(1 + gen % 255);
      if (!API_CHECK_CU(cuCtxCreate(&ctx, NULL, 0, r->dev)))
         break;
      bool ok = API_CHECK_CU(cuMemAlloc(&p, CROSS_BYTES)) && API_CHECK_CU(cuMemsetD8(p, value, CROSS_BYTES)) &&
                API_CHECK_CU(cuCtxSynchronize());
      API_CHECK_CU(cuCtxPopCurrent(NULL));
      if (!ok)
         break;
      pthread_mutex_lock(&r->lock);
      r->ptr = p;
      r->value = value;
      pthread_mutex_unlock(&r->lock);
      unsigned seen = atomic_load(&r->uses);
      double wait_end = api_now() + 0.2;
      while (atomic_load(&r->uses) < seen + 3 && api_now() < wait_end)
         sched_yield();
      /* Destroyed with the pointer still published: users race it. */
      API_CHECK_CU(cuCtxDestroy(ctx));
      pthread_mutex_lock(&r->lock);
      r->ptr = 0;
      pthread_mutex_unlock(&r->lock);
   }
   atomic_store(&r->stop, true);
   return NULL;
}

static void *
cross_race_user(void *data)
{
   struct cross_race *r = data;
   CUcontext own;
   unsigned char host[CROSS_BYTES];
   pthread_barrier_wait(&r->start);
   if (!API_CHECK_CU(cuCtxCreate(&own, NULL, 0, r->dev)))
      return NULL;
   while (!atomic_load(&r->stop) && !cuvk_test_failures()) {
      pthread_mutex_lock(&r->lock);
      CUdeviceptr p = r->ptr;
      pthread_mutex_unlock(&r->lock);
      if (!p) {
         sched_yield();
         continue;
      }
      memset(host, 0, sizeof(host));
      CUresult c = cuMemcpyDtoH(host, p, CROSS_BYTES);
      if (c == CUDA_SUCCESS) {
         /* Whichever generation's memory the address held then: every
          * byte one value, never zero (each generation fills 1..255). */
         bool same = host[0] != 0;
         for (unsigned i = 1; i < CROSS_BYTES && same; i++)
            same = host[i] == host[0];
         if (!API_CHECK_MSG(same, "a copy from another context's memory read mixed bytes"))
            break;
      } else if (!API_CHECK_MSG(c == CUDA_ERROR_INVALID_VALUE || c == CUDA_ERROR_INVALID_CONTEXT ||
                                c == CUDA_ERROR_CONTEXT_IS_DESTROYED || c == CUDA_ERROR_NOT_SUPPORTED,
                                "cuMemcpyDtoH from a context being destroyed gave %d", (int)c)) {
         break;
      }
      atomic_fetch_add(&r->uses, 1);
   }
   API_CHECK_CU(cuCtxDestroy(own));
   return NULL;
}

static void
thread_ctx_destroy_copy_from(void)
{
   enum { USERS = 2 };
   struct cross_race r = { .dev = api_dev };
   pthread_t threads[1 + USERS];
   pthread_mutex_init(&r.lock, NULL);
   pthread_barrier_init(&r.start, NULL, 1 + USERS);
   API_REQUIRE(pthread_create(&threads[0], NULL, cross_race_destroyer, &r) == 0);
   for (int i = 1; i <= USERS; i++)
      API_REQUIRE(pthread_create(&threads[i], NULL, cross_race_user, &r) == 0);
   for (int i = 0; i <= USERS; i++)
      pthread_join(threads[i], NULL);
   pthread_barrier_destroy(&r.start);
   pthread_mutex_destroy(&r.lock);
   API_CHECK_MSG(atomic_load(&r.uses) > 0, "no copy ever reached the other context's memory");
}

static const struct api_case cases[] = {
   API_CASE("api.thread.streams", thread_streams),
   API_CASE_BARE("api.thread.shared_context", thread_shared_context),
   API_CASE_BARE("api.thread.context_per_thread", thread_context_per_thread),
   API_CASE("api.thread.alloc_churn", thread_alloc_churn),
   API_CASE("api.thread.event_relay", thread_event_relay),
   API_CASE_BARE("api.thread.primary_retain_release", thread_primary_retain_release),
   API_CASE("api.thread.vmm_release_retire", thread_vmm_release_retire),
   API_CASE("api.thread.event_record_query", thread_event_record_query),
   API_CASE("api.thread.stream_destroy_query", thread_stream_destroy_query),
   API_CASE("api.thread.stream_destroy_use", thread_stream_destroy_use),
   API_CASE("api.thread.event_destroy_use", thread_event_destroy_use),
   API_CASE("api.thread.vmm_import_destroy_use", thread_vmm_import_destroy_use),
   API_CASE("api.thread.array_destroy_use", thread_array_destroy_use),
   API_CASE_BARE("api.thread.ctx_destroy_use", thread_ctx_destroy_use),
   API_CASE_BARE("api.thread.primary_reset_use", thread_primary_reset_use),
   API_CASE_BARE("api.thread.ctx_destroy_copy_from", thread_ctx_destroy_copy_from),
};

API_MAIN(cases)
