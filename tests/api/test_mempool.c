/*
 * api.mempool.*: the stream-ordered allocator (src/cuda_api/mempool.c):
 * the default pool's calls, its attributes as allocations come and go,
 * frees mixed between cuMemFree and cuMemFreeAsync, the pointer
 * attribute; pools the program creates (their own counts, the current
 * pool, destroy with allocations live, maxSize, access); bad input; and
 * several threads allocating, freeing, creating and destroying pools at
 * once (clean under TSan).  The ordering of a
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
   /* Size 0 and a free of 0 succeed and do nothing, as on real CUDA (H100). */
   d = 1;
   API_CHECK_CU(cuMemAllocAsync(&d, 0, NULL));
   API_CHECK(d == 0);
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuMemAllocAsync(&d, 4096, dead));
   API_CHECK_RES(CUDA_ERROR_OUT_OF_MEMORY, cuMemAllocAsync(&d, (size_t)1 << 62, NULL));
   API_REQUIRE_CU(cuMemAllocAsync(&d, 4096, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuMemFreeAsync(d, dead));
   API_CHECK_CU(cuMemFreeAsync(0, NULL));
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

/* ---- Pools a program creates ---- */

static CUmemPoolProps
device_pool_props(size_t max_size)
{
   CUmemPoolProps props;
   memset(&props, 0, sizeof(props));
   props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
   props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
   props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
   props.location.id = 0;
   props.maxSize = max_size;
   return props;
}

static CUmemoryPool
create_pool(size_t max_size)
{
   CUmemPoolProps props = device_pool_props(max_size);
   CUmemoryPool pool = NULL;
   API_REQUIRE_CU(cuMemPoolCreate(&pool, &props));
   API_REQUIRE(pool != NULL);
   return pool;
}

/* A created pool: the device says it has them, the pool starts with
 * CUDA's defaults, counts its own allocations (made on two streams, the
 * second ordered after the first's fill through an event and reading
 * it) and none of the default pool's, and is gone after destroy. */
static void
mempool_create(void)
{
   CUmemoryPool def = default_pool(), pool, other;
   CUstream s1, s2;
   CUevent filled;
   CUdeviceptr a = 0, b = 0, c = 0;
   int supported = 0, flag = -1;
   uint32_t *back = api_xmalloc(API_MIB);

   API_CHECK_CU(cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, 0));
   API_CHECK(supported == 1);
   API_CHECK_CU(cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES, 0));
   API_CHECK(supported == 0);

   pool = create_pool(0);
   other = create_pool(0);
   API_CHECK(pool != def && other != def && pool != other);
   for (int attr = CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES;
        attr <= CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES; attr++) {
      API_CHECK_CU(cuMemPoolGetAttribute(pool, (CUmemPool_attribute)attr, &flag));
      API_CHECK(flag == 1);
   }
   for (int attr = CU_MEMPOOL_ATTR_RELEASE_THRESHOLD; attr <= CU_MEMPOOL_ATTR_USED_MEM_HIGH; attr++)
      API_CHECK_MSG(pool_u64(pool, (CUmemPool_attribute)attr) == 0, "attribute %d of a new pool", attr);
   /* Attributes are the pool's own. */
   cuuint64_t v = 64 * API_MIB;
   API_CHECK_CU(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v));
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD) == v);
   API_CHECK(pool_u64(other, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD) == 0);
   API_CHECK(pool_u64(def, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD) == 0);
   cuuint64_t def_used = pool_u64(def, CU_MEMPOOL_ATTR_USED_MEM_CURRENT);

   API_REQUIRE_CU(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuEventCreate(&filled, CU_EVENT_DISABLE_TIMING));
   API_REQUIRE_CU(cuMemAllocFromPoolAsync(&a, API_MIB, pool, s1));
   API_REQUIRE_CU(cuMemAllocFromPoolAsync(&b, API_MIB + 1, pool, s2));
   API_REQUIRE_CU(cuMemAllocFromPoolAsync(&c, 4096, other, s2));
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT) == 2 * API_MIB + 256);
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT) == 2 * API_MIB + 256);
   API_CHECK(pool_u64(other, CU_MEMPOOL_ATTR_USED_MEM_CURRENT) == 4096);
   API_CHECK(pool_u64(def, CU_MEMPOOL_ATTR_USED_MEM_CURRENT) == def_used);
   CUmemoryPool got = NULL;
   API_CHECK_CU(cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, b + 4096));
   API_CHECK(got == pool);
   API_CHECK_CU(cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, c));
   API_CHECK(got == other);

   /* s1 fills a; s2 waits for that, copies it into b, reads b. */
   API_CHECK_CU(cuMemsetD32Async(a, 0x600dcafeu, API_MIB / 4, s1));
   API_CHECK_CU(cuEventRecord(filled, s1));
   API_CHECK_CU(cuStreamWaitEvent(s2, filled, 0));
   API_CHECK_CU(cuMemcpyDtoDAsync(b, a, API_MIB, s2));
   API_CHECK_CU(cuMemFreeAsync(a, s2));
   API_CHECK_CU(cuMemcpyDtoHAsync(back, b, API_MIB, s2));
   API_CHECK_CU(cuMemFreeAsync(b, s2));
   API_CHECK_CU(cuStreamSynchronize(s2));
   size_t bad = 0;
   for (size_t i = 0; i < API_MIB / 4; i++)
      bad += back[i] != 0x600dcafeu;
   API_CHECK_MSG(bad == 0, "%zu words of the copy between the pool's allocations are wrong", bad);
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT) == 0);
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH) == 2 * API_MIB + 256);
   check_round_trip(c, 4096, 0x0123u, s1, "the other pool's allocation");
   API_CHECK_CU(cuMemFree(c));

   /* Frees the GPU has passed leave the reserve once work retires. */
   API_CHECK_CU(cuCtxSynchronize());
   CUdeviceptr tmp;
   API_CHECK_CU(cuMemAlloc(&tmp, 4096));
   API_CHECK_CU(cuMemFree(tmp));
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_MSG(pool_u64(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT) == 0, "reserved %llu after every free",
                 (unsigned long long)pool_u64(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
   API_CHECK_CU(cuMemPoolTrimTo(pool, 0));

   API_CHECK_CU(cuMemPoolDestroy(pool));
   API_CHECK_CU(cuMemPoolDestroy(other));
   /* The handles are dead. */
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemAllocFromPoolAsync(&a, 4096, other, s1));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolDestroy(pool));
   API_CHECK_CU(cuEventDestroy(filled));
   API_CHECK_CU(cuStreamDestroy(s1));
   API_CHECK_CU(cuStreamDestroy(s2));
   free(back);
}

/* cuDeviceSetMemPool to a created pool: cuMemAllocAsync then takes from
 * it; destroying it puts the default pool back. */
static void
mempool_current(void)
{
   CUmemoryPool def = default_pool(), pool = create_pool(0), cur = NULL;
   CUmemLocation loc = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
   CUdeviceptr a = 0, b = 0;

   API_CHECK_CU(cuDeviceSetMemPool(0, pool));
   API_CHECK_CU(cuDeviceGetMemPool(&cur, 0));
   API_CHECK(cur == pool);
   API_CHECK_CU(cuMemGetMemPool(&cur, &loc, CU_MEM_ALLOCATION_TYPE_PINNED));
   API_CHECK(cur == pool);
   API_CHECK_CU(cuMemGetDefaultMemPool(&cur, &loc, CU_MEM_ALLOCATION_TYPE_PINNED));
   API_CHECK(cur == def);
   cuuint64_t def_used = pool_u64(def, CU_MEMPOOL_ATTR_USED_MEM_CURRENT);

   API_REQUIRE_CU(cuMemAllocAsync(&a, 8192, NULL));
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT) == 8192);
   API_CHECK(pool_u64(def, CU_MEMPOOL_ATTR_USED_MEM_CURRENT) == def_used);
   check_round_trip(a, 8192, 0x77777777u, NULL, "an allocation from the current pool");

   /* Back to the default pool, through the CUDA 13 call. */
   API_CHECK_CU(cuMemSetMemPool(&loc, CU_MEM_ALLOCATION_TYPE_PINNED, def));
   API_CHECK_CU(cuDeviceGetMemPool(&cur, 0));
   API_CHECK(cur == def);
   API_CHECK_CU(cuMemSetMemPool(&loc, CU_MEM_ALLOCATION_TYPE_PINNED, pool));
   /* Destroying the current pool makes the default one current again;
    * its live allocation stays usable and counted until freed. */
   API_CHECK_CU(cuMemPoolDestroy(pool));
   API_CHECK_CU(cuDeviceGetMemPool(&cur, 0));
   API_CHECK(cur == def);
   API_REQUIRE_CU(cuMemAllocAsync(&b, 4096, NULL));
   API_CHECK(pool_u64(def, CU_MEMPOOL_ATTR_USED_MEM_CURRENT) == def_used + 4096);
   check_round_trip(a, 8192, 0x78787878u, NULL, "an allocation of a destroyed pool");
   API_CHECK_CU(cuMemFreeAsync(a, NULL));
   API_CHECK_CU(cuMemFreeAsync(b, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceSetMemPool(0, pool));
   API_CHECK_CU(cuCtxSynchronize());
}

/* cuMemPoolDestroy with allocations live and work queued on them: the
 * call returns at once, the memory stays valid until freed, and the pool
 * goes with the last free (ASan and the leak checks see it go). */
static void
mempool_destroy_live(void)
{
   CUstream s;
   CUdeviceptr d[4];

   API_REQUIRE_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
   for (int round = 0; round < 2; round++) {
      CUmemoryPool pool = create_pool(0);
      for (int i = 0; i < 4; i++) {
         API_REQUIRE_CU(cuMemAllocFromPoolAsync(&d[i], 64 * API_KIB, pool, s));
         API_CHECK_CU(cuMemsetD32Async(d[i], 0xd0000000u + (uint32_t)i, 16 * API_KIB, s));
      }
      /* Round 0 frees one before the destroy, round 1 none. */
      if (round == 0)
         API_CHECK_CU(cuMemFreeAsync(d[0], s));
      API_CHECK_CU(cuMemPoolDestroy(pool));
      for (int i = round == 0 ? 1 : 0; i < 4; i++) {
         uint32_t back[16];
         API_CHECK_CU(cuMemcpyDtoHAsync(back, d[i] + 4096, sizeof(back), s));
         API_CHECK_CU(cuStreamSynchronize(s));
         for (int k = 0; k < 16; k++)
            API_CHECK_MSG(back[k] == 0xd0000000u + (uint32_t)i, "round %d, allocation %d: 0x%08x", round, i,
                          back[k]);
         /* cuMemFree in one round, cuMemFreeAsync in the other. */
         if (round == 0)
            API_CHECK_CU(cuMemFree(d[i]));
         else
            API_CHECK_CU(cuMemFreeAsync(d[i], s));
      }
   }
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_CU(cuStreamDestroy(s));
}

/* maxSize bounds what a pool reserves; freed memory counts until the GPU
 * has passed its free, and the allocation that would pass the bound
 * waits for those frees before it fails. */
static void
mempool_max_size(void)
{
   CUmemoryPool pool = create_pool(API_MIB);
   CUdeviceptr a = 0, b = 0, c = 0;

   API_REQUIRE_CU(cuMemAllocFromPoolAsync(&a, API_MIB / 2, pool, NULL));
   API_REQUIRE_CU(cuMemAllocFromPoolAsync(&b, API_MIB / 2, pool, NULL));
   API_CHECK_RES(CUDA_ERROR_OUT_OF_MEMORY, cuMemAllocFromPoolAsync(&c, 1, pool, NULL));
   API_CHECK_RES(CUDA_ERROR_OUT_OF_MEMORY, cuMemAllocFromPoolAsync(&c, 2 * API_MIB, pool, NULL));
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT) == API_MIB);
   check_round_trip(a, API_MIB / 2, 0x1u, NULL, "the first half of a full pool");
   API_CHECK_CU(cuMemFreeAsync(a, NULL));
   /* The free is queued behind the round trip's work at most. */
   API_REQUIRE_CU(cuMemAllocFromPoolAsync(&c, API_MIB / 2, pool, NULL));
   check_round_trip(c, API_MIB / 2, 0x2u, NULL, "memory from a full pool after a free");
   API_CHECK_CU(cuMemFreeAsync(b, NULL));
   API_CHECK_CU(cuMemFreeAsync(c, NULL));
   API_CHECK_CU(cuMemPoolDestroy(pool));
   API_CHECK_CU(cuCtxSynchronize());
}

/* Access: a pool's own device reads and writes it, and that cannot be
 * changed; the host has none.  Default and created pools alike. */
static void
mempool_access(void)
{
   CUmemoryPool pools[2] = { default_pool(), create_pool(0) };
   int count = 0;

   API_REQUIRE_CU(cuDeviceGetCount(&count));
   for (int p = 0; p < 2; p++) {
      CUmemoryPool pool = pools[p];
      CUmemLocation dev0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 }, host = { CU_MEM_LOCATION_TYPE_HOST, 0 };
      CUmemAccess_flags flags = (CUmemAccess_flags)-1;
      API_CHECK_CU(cuMemPoolGetAccess(&flags, pool, &dev0));
      API_CHECK(flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
      API_CHECK_CU(cuMemPoolGetAccess(&flags, pool, &host));
      API_CHECK(flags == CU_MEM_ACCESS_FLAGS_PROT_NONE);

      CUmemAccessDesc desc = { dev0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
      API_CHECK_CU(cuMemPoolSetAccess(pool, &desc, 1));
      /* Real CUDA's codes (H100): a NULL map even for no entries, the own
       * device's access taken away or made read-only, a device past the
       * count, a host location. */
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAccess(pool, NULL, 0));
      desc.flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
      API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuMemPoolSetAccess(pool, &desc, 1));
      desc.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
      API_CHECK_RES(CUDA_ERROR_NOT_SUPPORTED, cuMemPoolSetAccess(pool, &desc, 1));
      API_CHECK_CU(cuMemPoolGetAccess(&flags, pool, &dev0));
      API_CHECK(flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
      desc.flags = (CUmemAccess_flags)2;
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAccess(pool, &desc, 1));
      desc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
      desc.location.id = count;
      API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuMemPoolSetAccess(pool, &desc, 1));
      desc.location = host;
      API_CHECK_RES(CUDA_ERROR_NOT_SUPPORTED, cuMemPoolSetAccess(pool, &desc, 1));
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAccess(pool, NULL, 1));
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAccess(NULL, pool, &dev0));
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAccess(&flags, pool, NULL));
      CUmemLocation bad = { CU_MEM_LOCATION_TYPE_DEVICE, count };
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAccess(&flags, pool, &bad));
      bad.type = (CUmemLocationType)9;
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAccess(&flags, pool, &bad));
      /* Another device, where there is one: no access, none to give. */
      if (count > 1) {
         CUmemLocation dev1 = { CU_MEM_LOCATION_TYPE_DEVICE, 1 };
         API_CHECK_CU(cuMemPoolGetAccess(&flags, pool, &dev1));
         API_CHECK(flags == CU_MEM_ACCESS_FLAGS_PROT_NONE);
         CUmemAccessDesc d1 = { dev1, CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
         API_CHECK_RES(CUDA_ERROR_NOT_SUPPORTED, cuMemPoolSetAccess(pool, &d1, 1));
      }
   }
   API_CHECK_CU(cuMemPoolDestroy(pools[1]));
}

static void
errors_mempool_create(void)
{
   CUmemoryPool pool = NULL, def = default_pool();
   CUmemPoolProps props;
   CUdeviceptr d = 0;
   int count = 0;

   API_REQUIRE_CU(cuDeviceGetCount(&count));
   props = device_pool_props(0);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(NULL, &props));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&pool, NULL));

#define BAD_PROPS(code, field, value)                                          \
   do {                                                                        \
      props = device_pool_props(0);                                            \
      props.field = value;                                                     \
      pool = NULL;                                                             \
      API_CHECK_RES(code, cuMemPoolCreate(&pool, &props));                     \
      API_CHECK(pool == NULL);                                                 \
   } while (0)
   BAD_PROPS(CUDA_ERROR_INVALID_VALUE, allocType, CU_MEM_ALLOCATION_TYPE_INVALID);
   BAD_PROPS(CUDA_ERROR_INVALID_VALUE, allocType, (CUmemAllocationType)7);
   BAD_PROPS(CUDA_ERROR_NOT_SUPPORTED, allocType, CU_MEM_ALLOCATION_TYPE_MANAGED);
   BAD_PROPS(CUDA_ERROR_INVALID_VALUE, location.type, CU_MEM_LOCATION_TYPE_INVALID);
   BAD_PROPS(CUDA_ERROR_INVALID_VALUE, location.type, CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT);
   BAD_PROPS(CUDA_ERROR_NOT_SUPPORTED, location.type, CU_MEM_LOCATION_TYPE_HOST);
   BAD_PROPS(CUDA_ERROR_NOT_SUPPORTED, location.type, CU_MEM_LOCATION_TYPE_HOST_NUMA);
   BAD_PROPS(CUDA_ERROR_INVALID_VALUE, location.id, count);
   BAD_PROPS(CUDA_ERROR_INVALID_VALUE, location.id, -1);
   BAD_PROPS(CUDA_ERROR_NOT_SUPPORTED, handleTypes, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
   BAD_PROPS(CUDA_ERROR_NOT_SUPPORTED, handleTypes, CU_MEM_HANDLE_TYPE_FABRIC);
   BAD_PROPS(CUDA_ERROR_INVALID_VALUE, handleTypes, CU_MEM_HANDLE_TYPE_WIN32);
   BAD_PROPS(CUDA_ERROR_INVALID_VALUE, handleTypes, (CUmemAllocationHandleType)0x100);
   BAD_PROPS(CUDA_ERROR_NOT_SUPPORTED, usage, CU_MEM_POOL_CREATE_USAGE_HW_DECOMPRESS);
   /* Ignored, as real CUDA ignores them on Linux (H100). */
   props = device_pool_props(0);
   props.win32SecurityAttributes = &props;
   props.usage = 0x80;
   pool = NULL;
   API_CHECK_CU(cuMemPoolCreate(&pool, &props));
   API_CHECK(pool != NULL);
   if (pool)
      API_CHECK_CU(cuMemPoolDestroy(pool));
   BAD_PROPS(CUDA_ERROR_INVALID_VALUE, reserved[53], 1);
#undef BAD_PROPS

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolDestroy(NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolDestroy(def));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolDestroy((CUmemoryPool)&props));

   pool = create_pool(0);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemAllocFromPoolAsync(NULL, 4096, pool, NULL));
   d = 1;
   API_CHECK_CU(cuMemAllocFromPoolAsync(&d, 0, pool, NULL));
   API_CHECK(d == 0);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemAllocFromPoolAsync(&d, 4096, NULL, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemAllocFromPoolAsync(&d, 4096, (CUmemoryPool)&props, NULL));
   API_CHECK_RES(CUDA_ERROR_OUT_OF_MEMORY, cuMemAllocFromPoolAsync(&d, (size_t)1 << 62, pool, NULL));
   API_CHECK(pool_u64(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT) == 0);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceSetMemPool(count, pool));
   API_CHECK_CU(cuMemPoolDestroy(pool));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolDestroy(pool));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceSetMemPool(0, pool));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolTrimTo(pool, 0));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemAllocFromPoolAsync(&d, 4096, pool, NULL));

   /* The CUDA 13 calls by location. */
   CUmemLocation loc = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemGetMemPool(&pool, NULL, CU_MEM_ALLOCATION_TYPE_PINNED));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemGetMemPool(&pool, &loc, CU_MEM_ALLOCATION_TYPE_INVALID));
   API_CHECK_RES(CUDA_ERROR_NOT_SUPPORTED, cuMemGetMemPool(&pool, &loc, CU_MEM_ALLOCATION_TYPE_MANAGED));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemGetDefaultMemPool(NULL, &loc, CU_MEM_ALLOCATION_TYPE_PINNED));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemSetMemPool(&loc, CU_MEM_ALLOCATION_TYPE_PINNED, NULL));
   loc.id = count;
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemGetDefaultMemPool(&pool, &loc, CU_MEM_ALLOCATION_TYPE_PINNED));
   loc.type = CU_MEM_LOCATION_TYPE_HOST;
   loc.id = 0;
   API_CHECK_RES(CUDA_ERROR_NOT_SUPPORTED, cuMemGetDefaultMemPool(&pool, &loc, CU_MEM_ALLOCATION_TYPE_PINNED));
}

/* Several threads each creating pools, allocating from them on their own
 * stream, checking the bytes, and destroying them with allocations live
 * or not, while the others do the same (clean under TSan). */
#define POOL_THREADS 4
#define POOL_THREAD_ROUNDS 24

static void *
pool_worker_run(void *data)
{
   struct worker *w = data;
   uint32_t back[64];

   w->res = cuCtxSetCurrent(w->ctx);
   for (unsigned r = 0; r < POOL_THREAD_ROUNDS && w->res == CUDA_SUCCESS; r++) {
      CUmemPoolProps props = device_pool_props(r % 3 == 0 ? 4 * API_MIB : 0);
      CUmemoryPool pool = NULL;
      CUdeviceptr d[2] = { 0, 0 };
      cuuint64_t used = 1;
      w->res = cuMemPoolCreate(&pool, &props);
      for (unsigned i = 0; i < 2 && w->res == CUDA_SUCCESS; i++) {
         uint32_t value = (w->index << 24) | (r << 8) | i;
         w->res = cuMemAllocFromPoolAsync(&d[i], 4096 + (size_t)r * 1024, pool, w->stream);
         if (w->res == CUDA_SUCCESS)
            w->res = cuMemsetD32Async(d[i], value, sizeof(back) / 4, w->stream);
         if (w->res == CUDA_SUCCESS)
            w->res = cuMemcpyDtoHAsync(back, d[i], sizeof(back), w->stream);
         if (w->res == CUDA_SUCCESS)
            w->res = cuStreamSynchronize(w->stream);
         for (size_t k = 0; w->res == CUDA_SUCCESS && k < API_ARRAY_SIZE(back); k++)
            w->bad += back[k] != value;
      }
      if (w->res == CUDA_SUCCESS)
         w->res = cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &used);
      if (w->res == CUDA_SUCCESS && used != 2 * (4096 + (cuuint64_t)r * 1024))
         w->bad++;
      /* Odd rounds destroy the pool first, with both allocations live. */
      if (r % 2 && pool && cuMemPoolDestroy(pool) != CUDA_SUCCESS && w->res == CUDA_SUCCESS)
         w->res = CUDA_ERROR_UNKNOWN;
      for (unsigned i = 0; i < 2; i++)
         if (d[i] && cuMemFreeAsync(d[i], w->stream) != CUDA_SUCCESS && w->res == CUDA_SUCCESS)
            w->res = CUDA_ERROR_UNKNOWN;
      if (r % 2 == 0 && pool && cuMemPoolDestroy(pool) != CUDA_SUCCESS && w->res == CUDA_SUCCESS)
         w->res = CUDA_ERROR_UNKNOWN;
   }
   return NULL;
}

static void
mempool_create_threads(void)
{
   struct worker w[POOL_THREADS];
   pthread_t t[POOL_THREADS];
   CUcontext ctx;

   API_REQUIRE_CU(cuCtxGetCurrent(&ctx));
   for (unsigned i = 0; i < POOL_THREADS; i++) {
      w[i] = (struct worker){ .ctx = ctx, .index = i };
      API_REQUIRE_CU(cuStreamCreate(&w[i].stream, CU_STREAM_NON_BLOCKING));
   }
   for (unsigned i = 0; i < POOL_THREADS; i++)
      API_REQUIRE(pthread_create(&t[i], NULL, pool_worker_run, &w[i]) == 0);
   for (unsigned i = 0; i < POOL_THREADS; i++) {
      pthread_join(t[i], NULL);
      API_CHECK_MSG(w[i].res == CUDA_SUCCESS, "thread %u: %d", i, (int)w[i].res);
      API_CHECK_MSG(w[i].bad == 0, "thread %u read %zu wrong words or counts", i, w[i].bad);
   }
   API_CHECK_CU(cuCtxSynchronize());
   for (unsigned i = 0; i < POOL_THREADS; i++)
      API_CHECK_CU(cuStreamDestroy(w[i].stream));
}

static const struct api_case cases[] = {
   API_CASE("api.mempool.default_pool", mempool_default_pool),
   API_CASE("api.mempool.attributes", mempool_attributes),
   API_CASE("api.mempool.pointer_attribute", mempool_pointer_attribute),
   API_CASE("api.mempool.mix_free", mempool_mix_free),
   API_CASE("api.mempool.threads", mempool_threads),
   API_CASE("api.mempool.create", mempool_create),
   API_CASE("api.mempool.current", mempool_current),
   API_CASE("api.mempool.destroy_live", mempool_destroy_live),
   API_CASE("api.mempool.max_size", mempool_max_size),
   API_CASE("api.mempool.access", mempool_access),
   API_CASE("api.mempool.create_threads", mempool_create_threads),
   API_CASE("api.errors.mempool", errors_mempool),
   API_CASE("api.errors.mempool_no_context", errors_mempool_no_context),
   API_CASE("api.errors.mempool_create", errors_mempool_create),
};

API_MAIN(cases)
