/*
 * api.mempool.*: the stream-ordered allocator on the device's default
 * pool (src/cuda_api/mempool.c): the pool calls, its attributes as
 * allocations come and go, frees mixed between cuMemFree and
 * cuMemFreeAsync, the pointer attribute, bad input, and several threads
 * allocating and freeing at once (clean under TSan).  The ordering of a
 * free after other streams' work is tests/streams' streams.mempool.*.
 */
#include "api_test.h"

#include <pthread.h>

static CUmemoryPool
default_pool(void)
{
   CUmemoryPool pool = NULL;
   API_REQUIRE_CU(cuDeviceGetDefaultMemPool(&pool, 0));
   API_REQUIRE(pool != NULL);
   return pool;
}

static cuuint64_t
pool_u64(CUmemoryPool pool, CUmemPool_attribute attr)
{
   cuuint64_t v = ~(cuuint64_t)0;
   API_CHECK_CU(cuMemPoolGetAttribute(pool, attr, &v));
   return v;
}

/* Writes value through the stream and reads it back. */
static void
check_round_trip(CUdeviceptr d, size_t bytes, uint32_t value, CUstream s, const char *what)
{
   uint32_t *back = api_xmalloc(bytes);
   memset(back, 0, bytes);
   API_CHECK_CU(cuMemsetD32Async(d, value, bytes / 4, s));
   API_CHECK_CU(cuMemcpyDtoHAsync(back, d, bytes, s));
   API_CHECK_CU(cuStreamSynchronize(s));
   size_t bad = 0;
   for (size_t i = 0; i < bytes / 4; i++)
      bad += back[i] != value;
   API_CHECK_MSG(bad == 0, "%s: %zu of %zu words are not 0x%08x", what, bad, bytes / 4, value);
   free(back);
}

static void
mempool_default_pool(void)
{
   CUmemoryPool def = default_pool(), cur = NULL;
   int count = 0;

   API_CHECK_CU(cuDeviceGetMemPool(&cur, 0));
   API_CHECK(cur == def);
   API_CHECK_CU(cuDeviceSetMemPool(0, def));
   API_CHECK_CU(cuDeviceGetMemPool(&cur, 0));
   API_CHECK(cur == def);
   /* Each device has a pool of its own. */
   API_REQUIRE_CU(cuDeviceGetCount(&count));
   for (int i = 1; i < count; i++) {
      CUmemoryPool other = NULL;
      API_CHECK_CU(cuDeviceGetDefaultMemPool(&other, i));
      API_CHECK(other != def);
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceSetMemPool(0, other));
   }
}

static void
mempool_attributes(void)
{
   CUmemoryPool pool = default_pool();
   CUstream s;
   CUdeviceptr a = 0, b = 0;
   int flag = -1;
   cuuint64_t v;

   API_REQUIRE_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
   /* CUDA's defaults: reuse allowed every way, threshold 0. */
   for (int attr = CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES;
        attr <= CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES; attr++) {
      API_CHECK_CU(cuMemPoolGetAttribute(pool, (CUmemPool_attribute)attr, &flag));
      API_CHECK_MSG(flag == 1, "reuse attribute %d is %d by default", attr, flag);
      int off = 0;
      API_CHECK_CU(cuMemPoolSetAttribute(pool, (CUmemPool_attribute)attr, &off));
      API_CHECK_CU(cuMemPoolGetAttribute(pool, (CUmemPool_attribute)attr, &flag));
      API_CHECK(flag == 0);
      int on = 1;
      API_CHECK_CU(cuMemPoolSetAttribute(pool, (CUmemPool_attribute)attr, &on));
   }
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD) == 0);
   v = UINT64_MAX;
   API_CHECK_CU(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v));
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD) == UINT64_MAX);
   v = 0;
   API_CHECK_CU(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v));

   /* Nothing in use at the start of the case. */
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT) == 0);
   API_CHECK_CU(cuCtxSynchronize());

   API_REQUIRE_CU(cuMemAllocAsync(&a, 1 * API_MIB, s));
   API_REQUIRE_CU(cuMemAllocAsync(&b, 3 * API_MIB + 1, s));
   /* Sizes count rounded up to the 256-byte alignment. */
   cuuint64_t want = 1 * API_MIB + 3 * API_MIB + 256;
   API_CHECK_MSG(pool_u64(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT) == want, "used %llu, want %llu",
                 (unsigned long long)pool_u64(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT),
                 (unsigned long long)want);
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH) >= want);
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT) >= want);
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH) >= want);
   check_round_trip(a, 1 * API_MIB, 0x11111111u, s, "the first async allocation");
   check_round_trip(b, 3 * API_MIB, 0x22222222u, s, "the second async allocation");

   API_CHECK_CU(cuMemFreeAsync(b, s));
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT) == 1 * API_MIB);
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH) >= want);
   /* Reset the watermark: it drops to what is in use now. */
   v = 0;
   API_CHECK_CU(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &v));
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH) == 1 * API_MIB);
   /* Once the GPU is past the free, the freed bytes leave the reserve. */
   API_CHECK_CU(cuStreamSynchronize(s));
   API_CHECK_CU(cuMemFreeAsync(a, s));
   API_CHECK_CU(cuCtxSynchronize());
   /* Synchronisation retires completed work; an allocation retires too. */
   CUdeviceptr tmp;
   API_CHECK_CU(cuMemAlloc(&tmp, 4096));
   API_CHECK_CU(cuMemFree(tmp));
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT) == 0);
   API_CHECK_MSG(pool_u64(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT) == 0, "reserved %llu after every free",
                 (unsigned long long)pool_u64(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
   v = 0;
   API_CHECK_CU(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &v));
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH) == 0);
   API_CHECK_CU(cuMemPoolTrimTo(pool, 0));

   /* cuMemAlloc's memory is not the pool's. */
   API_REQUIRE_CU(cuMemAlloc(&a, API_MIB));
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT) == 0);
   API_CHECK_CU(cuMemFree(a));
   API_CHECK_CU(cuStreamDestroy(s));
}

static void
mempool_pointer_attribute(void)
{
   CUmemoryPool pool = default_pool(), got = (CUmemoryPool)1;
   CUdeviceptr a = 0, b = 0;

   API_REQUIRE_CU(cuMemAllocAsync(&a, 4096, NULL));
   API_REQUIRE_CU(cuMemAlloc(&b, 4096));
   API_CHECK_CU(cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, a + 100));
   API_CHECK(got == pool);
   API_CHECK_CU(cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, b));
   API_CHECK(got == NULL);
   size_t size = 0;
   CUdeviceptr base = 0;
   API_CHECK_CU(cuMemGetAddressRange(&base, &size, a + 100));
   API_CHECK(base == a && size == 4096);
   API_CHECK_CU(cuMemFreeAsync(a, NULL));
   API_CHECK_CU(cuMemFree(b));
}

/* Memory from either allocator may be freed by either free; data written
 * before the free is what queued work reads. */
static void
mempool_mix_free(void)
{
   CUmemoryPool pool = default_pool();
   CUstream s1, s2;
   CUdeviceptr d[4];

   API_REQUIRE_CU(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&s2, CU_STREAM_DEFAULT));
   API_REQUIRE_CU(cuMemAllocAsync(&d[0], 64 * API_KIB, s1));
   API_REQUIRE_CU(cuMemAllocAsync(&d[1], 64 * API_KIB, s2));
   API_REQUIRE_CU(cuMemAlloc(&d[2], 64 * API_KIB));
   API_REQUIRE_CU(cuMemAllocAsync(&d[3], 64 * API_KIB, CU_STREAM_LEGACY));
   for (int i = 0; i < 4; i++)
      check_round_trip(d[i], 64 * API_KIB, 0x3000u + (uint32_t)i, i % 2 ? s2 : s1, "a mixed allocation");
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT) == 3 * 64 * API_KIB);
   /* Async memory through cuMemFree, cuMemAlloc's through cuMemFreeAsync,
    * async memory on another stream than its allocation's. */
   API_CHECK_CU(cuMemFree(d[0]));
   API_CHECK_CU(cuMemFreeAsync(d[2], s1));
   API_CHECK_CU(cuMemFreeAsync(d[1], s1));
   API_CHECK_CU(cuMemFreeAsync(d[3], CU_STREAM_PER_THREAD));
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT) == 0);
   /* Each is gone: a second free is refused. */
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(d[0], s1));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFree(d[1]));
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_CU(cuStreamDestroy(s1));
   API_CHECK_CU(cuStreamDestroy(s2));
}

static void
errors_mempool(void)
{
   CUmemoryPool pool = default_pool(), got;
   CUdeviceptr d = 0, other = 0;
   CUstream dead;
   cuuint64_t v = 1;
   int count = 0;

   API_REQUIRE_CU(cuDeviceGetCount(&count));
   API_REQUIRE_CU(cuStreamCreate(&dead, 0));
   API_REQUIRE_CU(cuStreamDestroy(dead));

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemAllocAsync(NULL, 4096, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemAllocAsync(&d, 0, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuMemAllocAsync(&d, 4096, dead));
   API_CHECK_RES(CUDA_ERROR_OUT_OF_MEMORY, cuMemAllocAsync(&d, (size_t)1 << 62, NULL));
   API_REQUIRE_CU(cuMemAllocAsync(&d, 4096, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuMemFreeAsync(d, dead));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(0, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(d + 256, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(0x1000, NULL));
   void *pinned = NULL;
   API_REQUIRE_CU(cuMemAllocHost(&pinned, 4096));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync((CUdeviceptr)(uintptr_t)pinned, NULL));
   API_CHECK_CU(cuMemFreeHost(pinned));
   /* The refusals hurt nothing: d is still whole, and freed once. */
   API_REQUIRE_CU(cuMemAllocAsync(&other, 4096, NULL));
   check_round_trip(d, 4096, 0x5eed5eedu, NULL, "an allocation after refused frees");
   API_CHECK_CU(cuMemFreeAsync(d, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(d, NULL));
   API_CHECK_CU(cuMemFreeAsync(other, NULL));

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetDefaultMemPool(NULL, 0));
   API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetDefaultMemPool(&got, count));
   API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetDefaultMemPool(&got, -1));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetMemPool(NULL, 0));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetMemPool(&got, count));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceSetMemPool(0, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceSetMemPool(0, (CUmemoryPool)&v));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceSetMemPool(count, pool));

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAttribute(NULL, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE,
                 cuMemPoolGetAttribute((CUmemoryPool)&v, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAttribute(pool, (CUmemPool_attribute)0, &v));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAttribute(pool, (CUmemPool_attribute)9, &v));
   v = 1;
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &v));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &v));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE,
                 cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &v));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAttribute(NULL, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolTrimTo(NULL, 0));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolTrimTo((CUmemoryPool)&v, 0));
   API_CHECK_CU(cuCtxSynchronize());
}

/* No current context: the default stream names none. */
static void
errors_mempool_no_context(void)
{
   CUdeviceptr d = 0;
   CUcontext ctx = NULL;
   API_REQUIRE_CU(cuCtxPopCurrent(&ctx));
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuMemAllocAsync(&d, 4096, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuMemFreeAsync(0x1000, NULL));
   API_REQUIRE_CU(cuCtxPushCurrent(ctx));
}

/* ---- Several threads at once ---- */

#define THREADS 4
#define ROUNDS 48

struct worker {
   CUcontext ctx;
   CUstream stream;
   unsigned index;
   size_t bad;
   CUresult res;
};

static void *
worker_run(void *data)
{
   struct worker *w = data;
   CUdeviceptr live[3] = { 0 };
   uint32_t back[64];

   w->res = cuCtxSetCurrent(w->ctx);
   for (unsigned r = 0; r < ROUNDS && w->res == CUDA_SUCCESS; r++) {
      unsigned slot = r % 3;
      /* Free what this slot held, async on the thread's stream or, one
       * round in four, with cuMemFree. */
      if (live[slot]) {
         w->res = r % 4 == 0 ? cuMemFree(live[slot]) : cuMemFreeAsync(live[slot], w->stream);
         live[slot] = 0;
         if (w->res != CUDA_SUCCESS)
            break;
      }
      size_t size = 256 + ((size_t)(w->index * 7919u + r * 104729u) % (512 * API_KIB));
      uint32_t value = (w->index << 24) | r;
      w->res = cuMemAllocAsync(&live[slot], size, w->stream);
      if (w->res == CUDA_SUCCESS)
         w->res = cuMemsetD32Async(live[slot], value, sizeof(back) / 4, w->stream);
      if (w->res == CUDA_SUCCESS)
         w->res = cuMemcpyDtoHAsync(back, live[slot], sizeof(back), w->stream);
      if (w->res == CUDA_SUCCESS)
         w->res = cuStreamSynchronize(w->stream);
      for (size_t i = 0; w->res == CUDA_SUCCESS && i < API_ARRAY_SIZE(back); i++)
         w->bad += back[i] != value;
   }
   for (unsigned i = 0; i < 3; i++)
      if (live[i] && cuMemFreeAsync(live[i], w->stream) != CUDA_SUCCESS && w->res == CUDA_SUCCESS)
         w->res = CUDA_ERROR_UNKNOWN;
   return NULL;
}

static void
mempool_threads(void)
{
   CUmemoryPool pool = default_pool();
   struct worker w[THREADS];
   pthread_t t[THREADS];
   CUcontext ctx;

   API_REQUIRE_CU(cuCtxGetCurrent(&ctx));
   for (unsigned i = 0; i < THREADS; i++) {
      w[i] = (struct worker){ .ctx = ctx, .index = i };
      API_REQUIRE_CU(cuStreamCreate(&w[i].stream, CU_STREAM_NON_BLOCKING));
   }
   for (unsigned i = 0; i < THREADS; i++)
      API_REQUIRE(pthread_create(&t[i], NULL, worker_run, &w[i]) == 0);
   for (unsigned i = 0; i < THREADS; i++) {
      pthread_join(t[i], NULL);
      API_CHECK_MSG(w[i].res == CUDA_SUCCESS, "thread %u: %d", i, (int)w[i].res);
      API_CHECK_MSG(w[i].bad == 0, "thread %u read %zu wrong words", i, w[i].bad);
   }
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT) == 0);
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH) > 0);
   for (unsigned i = 0; i < THREADS; i++)
      API_CHECK_CU(cuStreamDestroy(w[i].stream));
}

static const struct api_case cases[] = {
   API_CASE("api.mempool.default_pool", mempool_default_pool),
   API_CASE("api.mempool.attributes", mempool_attributes),
   API_CASE("api.mempool.pointer_attribute", mempool_pointer_attribute),
   API_CASE("api.mempool.mix_free", mempool_mix_free),
   API_CASE("api.mempool.threads", mempool_threads),
   API_CASE("api.errors.mempool", errors_mempool),
   API_CASE("api.errors.mempool_no_context", errors_mempool_no_context),
};

API_MAIN(cases)
