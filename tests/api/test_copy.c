/*
 * api.copy.*: every copy direction and entry point, sync and async, with
 * every byte checked: the destination against a host-side image of what
 * it must hold (so bytes around the copied range are checked too), the
 * source against what it held.  api.errors.memcpy_*: copies cuvk must
 * refuse, and refuse without writing anything.
 */
#include <pthread.h>
#include <sys/mman.h>

#include "api_test.h"

enum copy_fn {
   FN_HTOD,
   FN_DTOH,
   FN_DTOD,
   FN_MEMCPY,  /* cuMemcpy / cuMemcpyAsync: unified addressing */
};

struct copy_spec {
   enum copy_fn fn;
   enum api_mem_kind dst_kind, src_kind;
   bool async;
};

static CUresult
copy_call(const struct copy_spec *spec, CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
   void *hdst = (void *)(uintptr_t)dst;
   const void *hsrc = (const void *)(uintptr_t)src;

   switch (spec->fn) {
   case FN_HTOD:
      return spec->async ? cuMemcpyHtoDAsync(dst, hsrc, n, s) : cuMemcpyHtoD(dst, hsrc, n);
   case FN_DTOH:
      return spec->async ? cuMemcpyDtoHAsync(hdst, src, n, s) : cuMemcpyDtoH(hdst, src, n);
   case FN_DTOD:
      return spec->async ? cuMemcpyDtoDAsync(dst, src, n, s) : cuMemcpyDtoD(dst, src, n);
   case FN_MEMCPY:
      return spec->async ? cuMemcpyAsync(dst, src, n, s) : cuMemcpy(dst, src, n);
   }
   return CUDA_ERROR_UNKNOWN;
}

/* Sizes around every threshold a copy engine has: a single byte, under
 * and over one 16-byte vector, a page, the 64 KiB direct-copy limit, and
 * a large odd size. */
static const size_t copy_sizes[] = { 1, 3, 15, 16, 17, 4095, 65537, API_MIB + 3 };
#define COPY_MAX_SIZE (API_MIB + 3)
#define COPY_OFFSETS 18
/* The source pointer also moves by multiples of 256 from one copy to the
 * next, so consecutive copies carry different data without changing the
 * alignment the offset chose. */
#define COPY_ROT_STEP 256
#define COPY_ROT_COUNT 8
/* Bytes past the end of each copy that must be untouched. */
#define COPY_GUARD 64

static void
copy_matrix(void)
{
   const struct copy_spec *spec = api_case_data;
   const size_t src_size = COPY_ROT_STEP * COPY_ROT_COUNT + COPY_OFFSETS + COPY_MAX_SIZE;
   const size_t dst_size = COPY_OFFSETS + COPY_MAX_SIZE + COPY_GUARD;
   struct api_buf src, dst;
   CUstream stream = NULL;
   unsigned iter = 0, copies = 0;

   uint8_t *src_img = api_xmalloc(src_size);
   uint8_t *dst_img = api_xmalloc(dst_size);
   uint8_t *got = api_xmalloc(API_MAX(src_size, dst_size));

   api_buf_create(&src, spec->src_kind, src_size);
   api_buf_create(&dst, spec->dst_kind, dst_size);
   api_fill_random(src_img, src_size, 1);
   api_fill_random(dst_img, dst_size, 2);
   api_buf_write(&src, 0, src_img, src_size);
   api_buf_write(&dst, 0, dst_img, dst_size);
   if (spec->async)
      API_REQUIRE_CU(cuStreamCreate(&stream, 0));

   double t0 = api_now();
   for (size_t si = 0; si < API_ARRAY_SIZE(copy_sizes); si++) {
      const size_t size = copy_sizes[si];
      for (size_t doff = 0; doff < COPY_OFFSETS; doff++) {
         for (size_t soff = 0; soff < COPY_OFFSETS; soff++) {
            size_t src_at = (iter++ % COPY_ROT_COUNT) * COPY_ROT_STEP + soff;

            CUresult res = copy_call(spec, api_buf_ptr(&dst, doff), api_buf_ptr(&src, src_at), size,
                                     stream);
            if (!API_CHECK_MSG(res == CUDA_SUCCESS, "copy dst+%zu <- src+%zu, %zu bytes: %s", doff,
                               src_at, size, api_result_name(res)))
               continue;
            if (spec->async)
               API_CHECK_CU(cuStreamSynchronize(stream));
            copies++;

            memcpy(dst_img + doff, src_img + src_at, size);
            size_t window = API_MIN(dst_size, doff + size + COPY_GUARD);
            api_buf_read(&dst, 0, got, window);
            if (!API_CHECK_BYTES(got, dst_img, window, "dst+%zu <- src+%zu, %zu bytes", doff,
                                 src_at, size)) {
               /* Take what is there as the new expectation, so later
                * copies report only their own damage. */
               memcpy(dst_img, got, window);
            }
         }
      }
   }
   printf("%u copies in %.3f s\n", copies, api_now() - t0);

   api_buf_read(&src, 0, got, src_size);
   API_CHECK_BYTES(got, src_img, src_size, "source after all copies");

   if (stream)
      API_CHECK_CU(cuStreamDestroy(stream));
   api_buf_destroy(&src);
   api_buf_destroy(&dst);
   free(src_img);
   free(dst_img);
   free(got);
}

/* One 300 MiB copy (plus an odd-sized one at odd offsets), every byte
 * checked. */
static void
copy_large(void)
{
   const struct copy_spec *spec = api_case_data;
   const size_t size = 300 * API_MIB;
   struct api_buf src, dst;
   CUstream stream = NULL;

   uint8_t *img = api_xmalloc(size);
   uint8_t *got = api_xmalloc(size);
   api_fill_random(img, size, 300);
   api_buf_create(&src, spec->src_kind, size);
   api_buf_create(&dst, spec->dst_kind, size);
   api_buf_write(&src, 0, img, size);
   if (spec->async)
      API_REQUIRE_CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));

   double t0 = api_now();
   API_CHECK_CU(copy_call(spec, api_buf_ptr(&dst, 0), api_buf_ptr(&src, 0), size, stream));
   if (stream)
      API_CHECK_CU(cuStreamSynchronize(stream));
   double t1 = api_now();
   api_buf_read(&dst, 0, got, size);
   API_CHECK_BYTES(got, img, size, "300 MiB copy");
   printf("300 MiB in %.3f s\n", t1 - t0);

   /* Odd offsets on both sides, an odd size: the shifted tail. */
   const size_t doff = 1, soff = 6, n = size - 9;
   memset(got, 0, size);
   api_buf_write(&dst, 0, got, size);
   API_CHECK_CU(copy_call(spec, api_buf_ptr(&dst, doff), api_buf_ptr(&src, soff), n, stream));
   if (stream)
      API_CHECK_CU(cuStreamSynchronize(stream));
   uint8_t *want = api_xmalloc(size);
   memset(want, 0, size);
   memcpy(want + doff, img + soff, n);
   api_buf_read(&dst, 0, got, size);
   API_CHECK_BYTES(got, want, size, "300 MiB - 9 copy, dst+1 <- src+6");

   api_buf_read(&src, 0, got, size);
   API_CHECK_BYTES(got, img, size, "source after the copies");

   if (stream)
      API_CHECK_CU(cuStreamDestroy(stream));
   api_buf_destroy(&src);
   api_buf_destroy(&dst);
   free(img);
   free(got);
   free(want);
}

/* ---- Pageable transfers at every size the staging pipeline cuts ---- */

/* Around the thresholds of the pageable paths: tiny, a page either side,
 * one staging chunk (1 MiB), several chunks of one slot (8 MiB), several
 * slots, and past the ring's 32 MiB; each at odd offsets on both sides. */
static const size_t pageable_sizes[] = { 1, 4095, 4097, API_MIB - 1, 2 * API_MIB + 5, 8 * API_MIB + 17,
                                         33 * API_MIB + 3, 64 * API_MIB + 7 };
static const size_t pageable_offsets[] = { 0, 1, 7, 4095 };
#define PAGEABLE_GUARD 64
#define PAGEABLE_CAP (64 * API_MIB + 7 + 4095 + PAGEABLE_GUARD)

/* Device bytes [0, n) read through pinned memory, which no pageable path
 * touches. */
static void
pageable_read_device(CUdeviceptr d, uint8_t *pinned, size_t n)
{
   API_CHECK_CU(cuMemcpyDtoH(pinned, d, n));
}

/* HtoD and DtoH between malloc memory and the device, sync and async on a
 * stream of its own, every byte of the window around the copy checked
 * (the guard bytes after it, and the bytes before the offset). */
static void
copy_pageable_sizes(void)
{
   uint8_t *host = api_xmalloc(PAGEABLE_CAP), *want = api_xmalloc(PAGEABLE_CAP);
   uint8_t *pinned = NULL;
   CUdeviceptr dev = 0;
   CUstream stream = NULL;
   unsigned iter = 0;

   API_REQUIRE_CU(cuMemAllocHost((void **)&pinned, PAGEABLE_CAP));
   API_REQUIRE_CU(cuMemAlloc(&dev, PAGEABLE_CAP));
   API_REQUIRE_CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));

   double t0 = api_now();
   for (size_t si = 0; si < API_ARRAY_SIZE(pageable_sizes); si++) {
      const size_t n = pageable_sizes[si];
      for (size_t oi = 0; oi < API_ARRAY_SIZE(pageable_offsets); oi++, iter++) {
         const size_t hoff = pageable_offsets[oi];
         const size_t doff = pageable_offsets[(oi + 1) % API_ARRAY_SIZE(pageable_offsets)];
         const size_t window = doff + n + PAGEABLE_GUARD;
         const bool async = iter % 2;

         /* Host to device, over a device filled with a known pattern. */
         API_CHECK_CU(cuMemsetD8(dev, 0xa5, window));
         api_fill_random(host, hoff + n, 100 + iter);
         memset(want, 0xa5, window);
         memcpy(want + doff, host + hoff, n);
         if (async) {
            API_CHECK_CU(cuMemcpyHtoDAsync(dev + doff, host + hoff, n, stream));
            API_CHECK_CU(cuStreamSynchronize(stream));
         } else {
            API_CHECK_CU(cuMemcpyHtoD(dev + doff, host + hoff, n));
         }
         pageable_read_device(dev, pinned, window);
         API_CHECK_BYTES(pinned, want, window, "HtoD %zu bytes, dev+%zu <- host+%zu%s", n, doff, hoff,
                         async ? ", async" : "");

         /* Device to host, over a host buffer filled with a known
          * pattern: the device now holds want[0, window). */
         memset(host, 0x3c, hoff + n + PAGEABLE_GUARD);
         if (async) {
            API_CHECK_CU(cuMemcpyDtoHAsync(host + hoff, dev + doff, n, stream));
            API_CHECK_CU(cuStreamSynchronize(stream));
         } else {
            API_CHECK_CU(cuMemcpyDtoH(host + hoff, dev + doff, n));
         }
         bool ok = true;
         for (size_t i = 0; i < hoff && ok; i++)
            ok = host[i] == 0x3c;
         for (size_t i = 0; i < PAGEABLE_GUARD && ok; i++)
            ok = host[hoff + n + i] == 0x3c;
         API_CHECK_MSG(ok, "DtoH %zu bytes, host+%zu <- dev+%zu: bytes outside the copy changed", n, hoff,
                       doff);
         API_CHECK_BYTES(host + hoff, want + doff, n, "DtoH %zu bytes, host+%zu <- dev+%zu%s", n, hoff, doff,
                         async ? ", async" : "");
      }
   }
   printf("%u pageable round trips in %.3f s\n", iter, api_now() - t0);

   API_CHECK_CU(cuStreamDestroy(stream));
   API_CHECK_CU(cuMemFree(dev));
   API_CHECK_CU(cuMemFreeHost(pinned));
   free(host);
   free(want);
}

/* Threads, each on a stream of its own, upload and read back pageable
 * buffers of their own at once, so staging slots, the copy pool and
 * imports are shared between concurrent transfers. */
#define PAGEABLE_THREADS 4
#define PAGEABLE_ROUNDS 6

struct pageable_worker {
   CUcontext ctx;
   unsigned index;
   CUdeviceptr dev;
   size_t n;
   bool ok;
};

static void *
pageable_worker_main(void *data)
{
   struct pageable_worker *w = data;
   uint8_t *in = api_xmalloc(w->n + 3), *out = api_xmalloc(w->n + 3);
   CUstream stream = NULL;

   w->ok = API_CHECK_CU(cuCtxSetCurrent(w->ctx)) &&
           API_CHECK_CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
   for (unsigned r = 0; w->ok && r < PAGEABLE_ROUNDS; r++) {
      /* Odd host offsets that change from round to round. */
      size_t off = (w->index + r) % 4;
      api_fill_random(in + off, w->n - off, 1000 * w->index + r);
      memset(out, 0, w->n + 3);
      w->ok &= API_CHECK_CU(cuMemcpyHtoDAsync(w->dev, in + off, w->n - off, stream));
      w->ok &= API_CHECK_CU(cuMemcpyDtoHAsync(out + 3 - off, w->dev, w->n - off, stream));
      w->ok &= API_CHECK_CU(cuStreamSynchronize(stream));
      w->ok &= API_CHECK_BYTES(out + 3 - off, in + off, w->n - off, "thread %u round %u", w->index, r);
   }
   if (stream)
      API_CHECK_CU(cuStreamDestroy(stream));
   free(in);
   free(out);
   return NULL;
}

static void
copy_pageable_streams(void)
{
   struct pageable_worker w[PAGEABLE_THREADS];
   pthread_t threads[PAGEABLE_THREADS];
   CUcontext ctx;

   API_REQUIRE_CU(cuCtxGetCurrent(&ctx));
   for (unsigned i = 0; i < PAGEABLE_THREADS; i++) {
      w[i] = (struct pageable_worker){ .ctx = ctx, .index = i, .n = (3 + 2 * i) * API_MIB + 11 * i + 1 };
      API_REQUIRE_CU(cuMemAlloc(&w[i].dev, w[i].n));
   }
   for (unsigned i = 0; i < PAGEABLE_THREADS; i++)
      API_REQUIRE(pthread_create(&threads[i], NULL, pageable_worker_main, &w[i]) == 0);
   for (unsigned i = 0; i < PAGEABLE_THREADS; i++) {
      pthread_join(threads[i], NULL);
      API_CHECK_MSG(w[i].ok, "thread %u", i);
      API_CHECK_CU(cuMemFree(w[i].dev));
   }
}

/* A source whose pages are read-only: an import must not be tried on
 * them (NVIDIA refuses, and then refuses the whole mapping), and the copy
 * still lands, through staging. */
static void
copy_pageable_read_only_source(void)
{
   const size_t n = 2 * API_MIB + 4096;
   uint8_t *want = api_xmalloc(n);
   CUdeviceptr dev = 0;

   uint8_t *ro = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   API_REQUIRE(ro != MAP_FAILED);
   api_fill_random(ro, n, 77);
   memcpy(want, ro, n);
   API_REQUIRE(mprotect(ro, n, PROT_READ) == 0);
   API_REQUIRE_CU(cuMemAlloc(&dev, n));

   API_CHECK_CU(cuMemcpyHtoD(dev, ro + 5, n - 9));
   API_CHECK_DEVICE(dev, want + 5, n - 9, "upload from read-only pages");

   API_CHECK_CU(cuMemFree(dev));
   munmap(ro, n);
   free(want);
}

/* Zero bytes is a successful copy of nothing. */
static void
copy_zero_size(void)
{
   CUdeviceptr a = 0, b = 0;
   uint8_t host[16] = { 0 };

   API_REQUIRE_CU(cuMemAlloc(&a, 16));
   API_REQUIRE_CU(cuMemAlloc(&b, 16));
   API_CHECK_CU(cuMemcpyHtoD(a, host, 0));
   API_CHECK_CU(cuMemcpyDtoH(host, a, 0));
   API_CHECK_CU(cuMemcpyDtoD(a, b, 0));
   API_CHECK_CU(cuMemcpy(a, b, 0));
   API_CHECK_CU(cuMemcpyHtoDAsync(a, host, 0, NULL));
   API_CHECK_CU(cuMemcpyAsync(a, b, 0, NULL));
   API_CHECK_CU(cuMemFree(a));
   API_CHECK_CU(cuMemFree(b));
}

/* Copies between the legacy stream, the per-thread stream and NULL, all
 * of which name a default stream. */
static void
copy_default_stream_handles(void)
{
   const size_t size = 2 * API_MIB + 1;
   uint8_t *in = api_xmalloc(size), *out = NULL;
   CUdeviceptr a = 0, b = 0;

   api_fill_random(in, size, 77);
   API_REQUIRE_CU(cuMemAllocHost((void **)&out, size));
   API_REQUIRE_CU(cuMemAlloc(&a, size));
   API_REQUIRE_CU(cuMemAlloc(&b, size));
   API_CHECK_CU(cuMemcpyHtoDAsync(a, in, size, CU_STREAM_LEGACY));
   API_CHECK_CU(cuMemcpyDtoDAsync(b, a, size, CU_STREAM_PER_THREAD));
   API_CHECK_CU(cuMemcpyDtoHAsync(out, b, size, NULL));
   API_CHECK_CU(cuStreamSynchronize(NULL));
   API_CHECK_CU(cuStreamSynchronize(CU_STREAM_PER_THREAD));
   API_CHECK_CU(cuStreamSynchronize(CU_STREAM_LEGACY));
   API_CHECK_BYTES(out, in, size, "through three default-stream handles");
   API_CHECK_CU(cuMemFreeHost(out));
   API_CHECK_CU(cuMemFree(a));
   API_CHECK_CU(cuMemFree(b));
   free(in);
}

/* Copies from one part of an allocation to another part of it, at every
 * relative alignment: both ends are the same buffer to Vulkan. */
static void
copy_dtod_same_allocation(void)
{
   static const size_t sizes[] = { 1, 17, 4095, 65537, API_MIB + 3 };
   const size_t size = 2 * (API_MIB + 3) + 64;
   uint8_t *img = api_xmalloc(size), *got = api_xmalloc(size);
   CUdeviceptr d = 0;
   CUstream s = NULL;

   API_REQUIRE_CU(cuMemAlloc(&d, size));
   API_REQUIRE_CU(cuStreamCreate(&s, 0));
   api_fill_random(img, size, 41);
   API_REQUIRE_CU(cuMemcpyHtoD(d, img, size));

   for (size_t si = 0; si < API_ARRAY_SIZE(sizes); si++) {
      const size_t n = sizes[si];
      for (size_t soff = 0; soff < 4; soff++) {
         for (size_t gap = 0; gap < 18; gap += 1 + gap / 4) {
            const size_t doff = soff + n + gap;
            bool async = (soff + gap) % 2;
            /* Forwards and backwards. */
            size_t from = (gap % 3) ? soff : doff, to = (gap % 3) ? doff : soff;
            API_CHECK_CU(async ? cuMemcpyDtoDAsync(d + to, d + from, n, s) :
                                 cuMemcpyDtoD(d + to, d + from, n));
            if (async)
               API_CHECK_CU(cuStreamSynchronize(s));
            memmove(img + to, img + from, n);
            API_CHECK_CU(cuMemcpyDtoH(got, d, size));
            if (!API_CHECK_BYTES(got, img, size, "+%zu -> +%zu, %zu bytes", from, to, n))
               memcpy(img, got, size);
         }
      }
   }
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFree(d));
   free(img);
   free(got);
}

/* Copies whose source and destination overlap, forwards (destination
 * below the source) and backwards, by small and large distances, through
 * every path a copy inside one allocation takes: synchronous small copies
 * the CPU does when the context is idle, GPU copies (the transfer engine
 * and, under api.compute_engine, the shader), pinned host memory through
 * cuMemcpy.  cuvk promises memmove's result (docs/design.md); before
 * issue 15 the host path ran memcpy on them (C undefined behaviour) and
 * the GPU path raced.  Every byte of the allocation is checked against
 * memmove on a host image. */
static void
copy_overlap(void)
{
   static const size_t sizes[] = { 1, 17, 4096, 65536, 65537, 3 * API_MIB + 5 };
   static const size_t deltas[] = { 1, 3, 4, 15, 16, 17, 4097, 65536, API_MIB + 1 };
   /* Room for the largest copy, its distance, its base and its guard. */
   const size_t size = 3 * API_MIB + 5 + API_MIB + 1 + 16 + 64;
   uint8_t *img = api_xmalloc(size), *got = api_xmalloc(size), *pinned = NULL;
   CUdeviceptr d = 0;
   CUstream s = NULL;
   unsigned copies = 0;

   API_REQUIRE_CU(cuMemAlloc(&d, size));
   API_REQUIRE_CU(cuMemAllocHost((void **)&pinned, size));
   API_REQUIRE_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
   api_fill_random(img, size, 77);
   API_REQUIRE_CU(cuMemcpyHtoD(d, img, size));
   memcpy(pinned, img, size);

   for (size_t si = 0; si < API_ARRAY_SIZE(sizes); si++) {
      const size_t n = sizes[si];
      for (size_t di = 0; di < API_ARRAY_SIZE(deltas); di++) {
         const size_t delta = deltas[di];
         if (delta >= n)
            continue; /* no overlap: api.copy.dtod.same_allocation */
         for (int way = 0; way < 8; way++) {
            /* way: bit 0 destination above the source, bit 1 async,
             * bit 2 cuMemcpy on pinned memory instead of DtoD. */
            const bool up = way & 1, async = way & 2, host = way & 4;
            const size_t base = 7 + (size_t)way;
            const size_t from = up ? base : base + delta, to = up ? base + delta : base;
            /* The bytes a copy may touch, and 64 past them that it must
             * not; the rest of the allocation is never written. */
            const size_t window = base + delta + n + 64;
            if (host) {
               API_CHECK_CU(async ? cuMemcpyAsync((CUdeviceptr)(uintptr_t)(pinned + to),
                                                  (CUdeviceptr)(uintptr_t)(pinned + from), n, s) :
                                    cuMemcpy((CUdeviceptr)(uintptr_t)(pinned + to),
                                             (CUdeviceptr)(uintptr_t)(pinned + from), n));
            } else {
               API_CHECK_CU(async ? cuMemcpyDtoDAsync(d + to, d + from, n, s) :
                                    cuMemcpyDtoD(d + to, d + from, n));
            }
            if (async)
               API_CHECK_CU(cuStreamSynchronize(s));
            memmove(img + to, img + from, n);
            if (host)
               memcpy(got, pinned, window);
            else
               API_CHECK_CU(cuMemcpyDtoH(got, d, window));
            copies++;
            if (!API_CHECK_BYTES(got, img, window, "%s %s copy of %zu bytes, destination %zu %s the source",
                                 async ? "async" : "sync", host ? "pinned" : "device", n, delta,
                                 up ? "above" : "below")) {
               /* Carry on from what the memory holds. */
               memcpy(img, got, window);
            }
            /* Both sides start the next copy from the same bytes. */
            if (host)
               API_CHECK_CU(cuMemcpyHtoD(d, img, window));
            else
               memcpy(pinned, img, window);
         }
      }
   }
   printf("%u overlapping copies checked\n", copies);
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFreeHost(pinned));
   API_CHECK_CU(cuMemFree(d));
   free(img);
   free(got);
}

/* Overlapping copies across the seam of two cuMemMap mappings, which
 * cuvk cuts into one piece per mapping (on devices without sparse
 * reservations, lavapipe among them): the pieces must run in the order
 * memmove's result needs, last first when the destination is above. */
static void
copy_overlap_across_mappings(void)
{
   const size_t gran = 2 * API_MIB, size = 2 * gran;
   static const size_t deltas[] = { 1, 100, 4096, 300000 };
   static const size_t sizes[] = { 5000, 1500000, 2 * API_MIB - 400000 };
   CUmemAllocationProp prop = {
      .type = CU_MEM_ALLOCATION_TYPE_PINNED,
      .location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0 },
   };
   CUmemAccessDesc access = {
      .location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0 },
      .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
   };
   CUmemGenericAllocationHandle h[2] = { 0, 0 };
   uint8_t *img = api_xmalloc(size), *got = api_xmalloc(size);
   CUdeviceptr va = 0;
   CUstream s = NULL;

   API_REQUIRE_CU(cuMemAddressReserve(&va, size, 0, 0, 0));
   for (int i = 0; i < 2; i++) {
      API_REQUIRE_CU(cuMemCreate(&h[i], gran, &prop, 0));
      API_REQUIRE_CU(cuMemMap(va + i * gran, gran, 0, h[i], 0));
   }
   API_REQUIRE_CU(cuMemSetAccess(va, size, &access, 1));
   API_REQUIRE_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
   api_fill_random(img, size, 78);
   API_REQUIRE_CU(cuMemcpyHtoD(va, img, size));

   for (size_t si = 0; si < API_ARRAY_SIZE(sizes); si++) {
      for (size_t di = 0; di < API_ARRAY_SIZE(deltas); di++) {
         const size_t n = sizes[si], delta = deltas[di];
         for (int way = 0; way < 4; way++) {
            const bool up = way & 1, async = way & 2;
            /* Both ranges straddle the seam. */
            const size_t low = gran - n / 2 - delta / 2;
            const size_t from = up ? low : low + delta, to = up ? low + delta : low;
            API_CHECK_CU(async ? cuMemcpyDtoDAsync(va + to, va + from, n, s) :
                                 cuMemcpyDtoD(va + to, va + from, n));
            if (async)
               API_CHECK_CU(cuStreamSynchronize(s));
            memmove(img + to, img + from, n);
            API_CHECK_CU(cuMemcpyDtoH(got, va, size));
            if (!API_CHECK_BYTES(got, img, size, "%s copy of %zu bytes across the seam, destination %zu %s the "
                                 "source", async ? "async" : "sync", n, delta, up ? "above" : "below"))
               memcpy(img, got, size);
         }
      }
   }
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemUnmap(va, size));
   for (int i = 0; i < 2; i++)
      API_CHECK_CU(cuMemRelease(h[i]));
   API_CHECK_CU(cuMemAddressFree(va, size));
   free(img);
   free(got);
}

/* Copies between device memory of two contexts, from either one: under
 * unified addressing cuMemcpy and cuMemcpyDtoD take any device pointer.
 * cuvk needs the memory host-visible for that (all of lavapipe's is);
 * elsewhere it may answer CUDA_ERROR_NOT_SUPPORTED. */
static void
copy_across_contexts(void)
{
   const size_t size = 3 * API_MIB + 7;
   uint8_t *in = api_xmalloc(size), *out = api_xmalloc(size);
   CUcontext other = NULL;
   CUdeviceptr a = 0, b = 0;

   api_fill_random(in, size, 31);
   API_REQUIRE_CU(cuMemAlloc(&a, size));
   API_REQUIRE_CU(cuMemcpyHtoD(a, in, size));
   API_REQUIRE_CU(cuCtxCreate(&other, NULL, 0, api_dev));
   API_REQUIRE_CU(cuMemAlloc(&b, size));

   CUresult res = cuMemcpyDtoD(b, a, size);
   if (res == CUDA_ERROR_NOT_SUPPORTED) {
      printf("copies across contexts are not supported on this device\n");
   } else if (API_CHECK_CU(res)) {
      API_CHECK_DEVICE(b, in, size, "DtoD into this context from the other");
      API_CHECK_CU(cuCtxPopCurrent(NULL));
      API_CHECK_CU(cuMemsetD8(a, 0, size));
      API_CHECK_CU(cuMemcpy(a + 1, b + 2, size - 2));
      API_CHECK_CU(cuMemcpyDtoH(out, a, size));
      API_CHECK(out[0] == 0);
      API_CHECK_BYTES(out + 1, in + 2, size - 2, "cuMemcpy from the other context");
      API_CHECK_CU(cuCtxPushCurrent(other));
   }
   API_CHECK_CU(cuCtxDestroy(other));
   API_CHECK_CU(cuMemFree(a));
   free(in);
   free(out);
}

/* ---- api.errors.memcpy_* ---- */

#define PAST_SIZE 1000

/* A device allocation of PAST_SIZE bytes with known contents, and the
 * image of them. */
static CUdeviceptr
past_alloc(uint8_t *img, uint64_t seed)
{
   CUdeviceptr d = 0;

   API_REQUIRE_CU(cuMemAlloc(&d, PAST_SIZE));
   api_fill_random(img, PAST_SIZE, seed);
   API_REQUIRE_CU(cuMemcpyHtoD(d, img, PAST_SIZE));
   return d;
}

static void
errors_memcpy_htod_past_end(void)
{
   uint8_t img[PAST_SIZE], host[2 * PAST_SIZE];
   CUdeviceptr d = past_alloc(img, 1);
   CUstream s = NULL;

   API_REQUIRE_CU(cuStreamCreate(&s, 0));
   memset(host, 0xcd, sizeof(host));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(d, host, PAST_SIZE + 1));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(d + 500, host, PAST_SIZE - 499));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(d + PAST_SIZE - 1, host, 2));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(d, host, 2 * PAST_SIZE));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoDAsync(d + 1, host, PAST_SIZE, s));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpy(d + 999, (CUdeviceptr)(uintptr_t)host, 2));
   API_CHECK_CU(cuStreamSynchronize(s));
   API_CHECK_DEVICE(d, img, PAST_SIZE, "allocation after refused copies");
   /* Exactly to the end is fine. */
   API_CHECK_CU(cuMemcpyHtoD(d + 500, host, PAST_SIZE - 500));
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFree(d));
}

static void
errors_memcpy_dtoh_past_end(void)
{
   uint8_t img[PAST_SIZE], host[2 * PAST_SIZE], want[2 * PAST_SIZE];
   CUdeviceptr d = past_alloc(img, 2);
   CUstream s = NULL;

   API_REQUIRE_CU(cuStreamCreate(&s, 0));
   memset(host, 0xcd, sizeof(host));
   memset(want, 0xcd, sizeof(want));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(host, d, PAST_SIZE + 1));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(host, d + 999, 2));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoHAsync(host, d + 3, PAST_SIZE, s));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpy((CUdeviceptr)(uintptr_t)host, d, PAST_SIZE + 7));
   API_CHECK_CU(cuStreamSynchronize(s));
   API_CHECK_BYTES(host, want, sizeof(host), "host buffer after refused copies");
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFree(d));
}

static void
errors_memcpy_dtod_past_end(void)
{
   uint8_t img_a[PAST_SIZE], img_b[PAST_SIZE];
   CUdeviceptr a = past_alloc(img_a, 3), b = past_alloc(img_b, 4);
   CUstream s = NULL;

   API_REQUIRE_CU(cuStreamCreate(&s, 0));
   /* Destination too short, source too short, both. */
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(a + 1, b, PAST_SIZE));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(a, b + 1, PAST_SIZE));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(a, b, PAST_SIZE + 1));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoDAsync(a + 900, b, 101, s));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyAsync(a, b + 900, 101, s));
   API_CHECK_CU(cuStreamSynchronize(s));
   API_CHECK_DEVICE(a, img_a, PAST_SIZE, "destination after refused copies");
   API_CHECK_DEVICE(b, img_b, PAST_SIZE, "source after refused copies");
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFree(a));
   API_CHECK_CU(cuMemFree(b));
}

/* Small allocations are packed together; a copy running off the end of
 * one must not spill into the next. */
static void
errors_memcpy_past_end_into_neighbour(void)
{
   enum { N = 8, SIZE = 256 };
   CUdeviceptr d[N];
   uint8_t img[N][SIZE], host[4 * SIZE];
   int adjacent = -1;

   for (int i = 0; i < N; i++) {
      API_REQUIRE_CU(cuMemAlloc(&d[i], SIZE));
      api_fill_random(img[i], SIZE, (uint64_t)i + 10);
      API_REQUIRE_CU(cuMemcpyHtoD(d[i], img[i], SIZE));
   }
   for (int i = 0; i < N && adjacent < 0; i++)
      for (int j = 0; j < N && adjacent < 0; j++)
         if (d[j] == d[i] + SIZE)
            adjacent = i;
   if (adjacent < 0)
      printf("no two allocations are adjacent; checking plain overruns only\n");

   memset(host, 0x99, sizeof(host));
   for (int i = 0; i < N; i++) {
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(d[i], host, SIZE + 1));
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(d[i] + SIZE - 8, host, 2 * SIZE));
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(d[i] + 1, d[(i + 1) % N], SIZE));
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(host, d[i] + 8, SIZE));
   }
   API_CHECK_CU(cuCtxSynchronize());
   for (int i = 0; i < N; i++)
      API_CHECK_DEVICE(d[i], img[i], SIZE, "allocation %d%s", i,
                       i == adjacent + 1 ? " (right after another)" : "");
   for (int i = 0; i < N; i++)
      API_CHECK_CU(cuMemFree(d[i]));
}

static void
errors_memcpy_unknown_pointer(void)
{
   uint8_t host[64] = { 0 };
   CUdeviceptr d = 0, freed = 0;

   API_REQUIRE_CU(cuMemAlloc(&d, 64));
   API_REQUIRE_CU(cuMemAlloc(&freed, 64));
   API_CHECK_CU(cuMemFree(freed));

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(freed, host, 64));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(host, freed, 64));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(d, freed, 64));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(freed, d, 64));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(0, host, 64));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(NULL, d, 64));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(d, 0, 64));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpy(d, 0, 64));
   /* Ranges that wrap around the address space. */
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(d, host, SIZE_MAX));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(d, d, SIZE_MAX - 8));
   /* A host pointer where a device pointer must be. */
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(d, (CUdeviceptr)(uintptr_t)host, 64));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD((CUdeviceptr)(uintptr_t)host, host, 64));
   API_CHECK_CU(cuMemFree(d));
}

static void
errors_memcpy_invalid_stream(void)
{
   uint8_t host[64] = { 0 };
   CUdeviceptr d = 0;
   CUstream s = NULL;

   API_REQUIRE_CU(cuMemAlloc(&d, 64));
   API_REQUIRE_CU(cuStreamCreate(&s, 0));
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuMemcpyHtoDAsync(d, host, 64, s));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuMemcpyAsync(d, d, 64, (CUstream)(uintptr_t)0x40));
   API_CHECK_CU(cuMemFree(d));
}

/* ---- The case table ---- */

#define D API_MEM_DEVICE
#define P API_MEM_PINNED
#define R API_MEM_REGISTERED
#define H API_MEM_PAGEABLE

#define SPEC(fn, dst, src, async) (&(const struct copy_spec){ fn, dst, src, async })
#define MATRIX(name, fn, dst, src, async) API_CASE_DATA(name, copy_matrix, SPEC(fn, dst, src, async))
#define LARGE(name, fn, dst, src, async) API_CASE_DATA(name, copy_large, SPEC(fn, dst, src, async))
#define MEMCPY_CASES(prefix, async)                                                        \
   MATRIX(prefix "device_to_device", FN_MEMCPY, D, D, async),                       \
   MATRIX(prefix "device_to_pinned", FN_MEMCPY, P, D, async),                       \
   MATRIX(prefix "device_to_registered", FN_MEMCPY, R, D, async),                   \
   MATRIX(prefix "device_to_pageable", FN_MEMCPY, H, D, async),                     \
   MATRIX(prefix "pinned_to_device", FN_MEMCPY, D, P, async),                       \
   MATRIX(prefix "pinned_to_pinned", FN_MEMCPY, P, P, async),                       \
   MATRIX(prefix "pinned_to_registered", FN_MEMCPY, R, P, async),                   \
   MATRIX(prefix "pinned_to_pageable", FN_MEMCPY, H, P, async),                     \
   MATRIX(prefix "registered_to_device", FN_MEMCPY, D, R, async),                   \
   MATRIX(prefix "registered_to_pinned", FN_MEMCPY, P, R, async),                   \
   MATRIX(prefix "registered_to_registered", FN_MEMCPY, R, R, async),               \
   MATRIX(prefix "registered_to_pageable", FN_MEMCPY, H, R, async),                 \
   MATRIX(prefix "pageable_to_device", FN_MEMCPY, D, H, async),                     \
   MATRIX(prefix "pageable_to_pinned", FN_MEMCPY, P, H, async),                     \
   MATRIX(prefix "pageable_to_registered", FN_MEMCPY, R, H, async),                 \
   MATRIX(prefix "pageable_to_pageable", FN_MEMCPY, H, H, async)

static const struct api_case cases[] = {
   MATRIX("api.copy.htod.unaligned", FN_HTOD, D, H, false),
   MATRIX("api.copy.htod.pinned_unaligned", FN_HTOD, D, P, false),
   MATRIX("api.copy.htod.registered_unaligned", FN_HTOD, D, R, false),
   MATRIX("api.copy.htod_async.unaligned", FN_HTOD, D, H, true),
   MATRIX("api.copy.htod_async.pinned_unaligned", FN_HTOD, D, P, true),
   MATRIX("api.copy.htod_async.registered_unaligned", FN_HTOD, D, R, true),
   MATRIX("api.copy.dtoh.unaligned", FN_DTOH, H, D, false),
   MATRIX("api.copy.dtoh.pinned_unaligned", FN_DTOH, P, D, false),
   MATRIX("api.copy.dtoh.registered_unaligned", FN_DTOH, R, D, false),
   MATRIX("api.copy.dtoh_async.unaligned", FN_DTOH, H, D, true),
   MATRIX("api.copy.dtoh_async.pinned_unaligned", FN_DTOH, P, D, true),
   MATRIX("api.copy.dtoh_async.registered_unaligned", FN_DTOH, R, D, true),
   MATRIX("api.copy.dtod.unaligned", FN_DTOD, D, D, false),
   MATRIX("api.copy.dtod_async.unaligned", FN_DTOD, D, D, true),
   MEMCPY_CASES("api.copy.memcpy.", false),
   MEMCPY_CASES("api.copy.memcpy_async.", true),
   LARGE("api.copy.large.htod", FN_HTOD, D, H, false),
   LARGE("api.copy.large.htod_pinned_async", FN_HTOD, D, P, true),
   LARGE("api.copy.large.dtoh", FN_DTOH, H, D, false),
   LARGE("api.copy.large.dtoh_pinned_async", FN_DTOH, P, D, true),
   LARGE("api.copy.large.dtod", FN_DTOD, D, D, false),
   LARGE("api.copy.large.memcpy_registered_to_device", FN_MEMCPY, D, R, false),
   API_CASE("api.copy.pageable.sizes", copy_pageable_sizes),
   API_CASE("api.copy.pageable.streams", copy_pageable_streams),
   API_CASE("api.copy.pageable.read_only_source", copy_pageable_read_only_source),
   API_CASE("api.copy.zero_size", copy_zero_size),
   API_CASE("api.copy.default_stream_handles", copy_default_stream_handles),
   API_CASE("api.copy.across_contexts", copy_across_contexts),
   API_CASE("api.copy.dtod.same_allocation", copy_dtod_same_allocation),
   API_CASE("api.copy.dtod.overlap", copy_overlap),
   API_CASE("api.copy.dtod.overlap_across_mappings", copy_overlap_across_mappings),
   API_CASE("api.errors.memcpy_htod_past_end", errors_memcpy_htod_past_end),
   API_CASE("api.errors.memcpy_dtoh_past_end", errors_memcpy_dtoh_past_end),
   API_CASE("api.errors.memcpy_dtod_past_end", errors_memcpy_dtod_past_end),
   API_CASE("api.errors.memcpy_past_end_into_neighbour", errors_memcpy_past_end_into_neighbour),
   API_CASE("api.errors.memcpy_unknown_pointer", errors_memcpy_unknown_pointer),
   API_CASE("api.errors.memcpy_invalid_stream", errors_memcpy_invalid_stream),
};

API_MAIN(cases)
