/*
 * The runtime and the driver API in one program, as interop code often
 * mixes them: the runtime uses a context the program made current with
 * the driver API, shares the primary context with it, survives a reset of
 * that context through the driver, and its handles are the driver's.
 *
 * Includes cuda_runtime_api.h before cuda.h (header_order.c does the
 * reverse), which also checks that the two headers go together.
 */
#include "rt_test.h"

#include <cuda.h>
#include <pthread.h>

/* The types the two headers share are one type. */
_Static_assert(sizeof(cudaUUID_t) == sizeof(CUuuid), "cudaUUID_t is CUuuid");
_Static_assert(_Generic((cudaStream_t)0, CUstream: 1, default: 0), "cudaStream_t is CUstream");
_Static_assert(_Generic((cudaEvent_t)0, CUevent: 1, default: 0), "cudaEvent_t is CUevent");
_Static_assert(_Generic((cudaUUID_t *)0, CUuuid *: 1, default: 0), "cudaUUID_t is CUuuid");
_Static_assert(CUDART_VERSION == CUDA_VERSION, "runtime and driver headers describe one CUDA");

int rt_header_order_check(void);

#define CHECK_CU(call) RT_CHECK_MSG((call) == CUDA_SUCCESS, "%s failed", #call)

static CUcontext
pointer_context(const void *p)
{
   CUcontext ctx = NULL;
   CHECK_CU(cuPointerGetAttribute(&ctx, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)(uintptr_t)p));
   return ctx;
}

static void
driver_headers_together(void)
{
   RT_CHECK(rt_header_order_check() == 1);

   struct cudaDeviceProp p;
   CUuuid u;
   RT_REQUIRE_OK(cudaGetDeviceProperties(&p, 0));
   CHECK_CU(cuDeviceGetUuid(&u, 0));
   RT_CHECK(memcmp(&u, &p.uuid, sizeof(u)) == 0);
}

/* The runtime's first call makes the primary context current: the same
 * one the driver API retains. */
static void
driver_primary_shared(void)
{
   CUcontext cur = NULL, primary = NULL;
   unsigned flags;
   int active = 0;

   RT_REQUIRE_OK(cudaFree(NULL));
   CHECK_CU(cuCtxGetCurrent(&cur));
   CHECK_CU(cuDevicePrimaryCtxRetain(&primary, 0));
   RT_CHECK(cur != NULL && cur == primary);
   CHECK_CU(cuDevicePrimaryCtxGetState(0, &flags, &active));
   RT_CHECK(active == 1);

   void *d;
   RT_REQUIRE_OK(cudaMalloc(&d, 4096));
   RT_CHECK(pointer_context(d) == primary);
   RT_CHECK_OK(cudaFree(d));
   CHECK_CU(cuDevicePrimaryCtxRelease(0));
}

/* A context the program made current is the one the runtime uses, and
 * cudaDeviceReset leaves it alone. */
static void
driver_uses_current_context(void)
{
   CUcontext ctx = NULL, cur = NULL;
   void *d;

   CHECK_CU(cuInit(0));
   CHECK_CU(cuCtxCreate(&ctx, NULL, 0, 0));
   RT_REQUIRE(ctx != NULL);

   RT_REQUIRE_OK(cudaMalloc(&d, 4096));
   RT_CHECK(pointer_context(d) == ctx);
   int dev = -1;
   RT_CHECK_OK(cudaGetDevice(&dev));
   RT_CHECK(dev == 0);

   RT_CHECK_OK(cudaDeviceReset());
   CHECK_CU(cuCtxGetCurrent(&cur));
   RT_CHECK(cur == ctx);
   CHECK_CU(cuCtxSynchronize());
   RT_CHECK_OK(cudaFree(d));
   CHECK_CU(cuCtxDestroy(ctx));

   /* With nothing current any more, the runtime falls back on the
    * primary context. */
   RT_REQUIRE_OK(cudaMalloc(&d, 4096));
   CHECK_CU(cuCtxGetCurrent(&cur));
   RT_CHECK(cur != NULL && cur != ctx);
   RT_CHECK(pointer_context(d) == cur);
   RT_CHECK_OK(cudaFree(d));
}

/* cudaSetDevice makes the primary context current, replacing the
 * program's own. */
static void
driver_set_device_replaces_current(void)
{
   CUcontext ctx = NULL, cur = NULL, primary = NULL;

   CHECK_CU(cuInit(0));
   CHECK_CU(cuCtxCreate(&ctx, NULL, 0, 0));
   RT_CHECK_OK(cudaSetDevice(0));
   CHECK_CU(cuCtxGetCurrent(&cur));
   CHECK_CU(cuDevicePrimaryCtxRetain(&primary, 0));
   RT_CHECK(cur == primary && cur != ctx);
   CHECK_CU(cuDevicePrimaryCtxRelease(0));
   CHECK_CU(cuCtxDestroy(ctx));
}

struct reset_peer {
   pthread_barrier_t barrier;
   cudaError_t after;
};

/* Another thread with the primary context current when it is reset. */
static void *
reset_peer_fn(void *arg)
{
   struct reset_peer *peer = arg;
   void *d = NULL;

   RT_CHECK_OK(cudaFree(NULL));
   pthread_barrier_wait(&peer->barrier);   /* bound */
   pthread_barrier_wait(&peer->barrier);   /* reset */
   peer->after = cudaMalloc(&d, 4096);
   if (peer->after == cudaSuccess)
      RT_CHECK_OK(cudaFree(d));
   return NULL;
}

/* A reset of the primary context through the driver destroys it under the
 * runtime, which takes the new one at its next call, on this thread and
 * on every other that had it current. */
static void
driver_primary_reset_under_runtime(void)
{
   const size_t size = 4096;
   uint8_t want[4096], got[4096];
   struct reset_peer peer = { .after = cudaErrorUnknown };
   pthread_t thread;
   void *d;

   pthread_barrier_init(&peer.barrier, NULL, 2);
   RT_REQUIRE(pthread_create(&thread, NULL, reset_peer_fn, &peer) == 0);
   RT_REQUIRE_OK(cudaMalloc(&d, size));
   pthread_barrier_wait(&peer.barrier);
   CHECK_CU(cuDevicePrimaryCtxReset(0));
   pthread_barrier_wait(&peer.barrier);
   pthread_join(thread, NULL);
   pthread_barrier_destroy(&peer.barrier);
   RT_CHECK_ERR(cudaSuccess, peer.after);

   RT_REQUIRE_OK(cudaMalloc(&d, size));
   rt_fill_pattern(want, size, 5);
   RT_CHECK_OK(cudaMemcpy(d, want, size, cudaMemcpyHostToDevice));
   RT_CHECK_OK(cudaMemcpy(got, d, size, cudaMemcpyDeviceToHost));
   RT_CHECK_BYTES(got, want, size, "after a driver-side reset");
   RT_CHECK_OK(cudaFree(d));
}

/* Streams and events pass between the APIs unchanged. */
static void
driver_handles_interchange(void)
{
   cudaStream_t s;
   cudaEvent_t e;
   CUstream cs;
   void *d;

   RT_REQUIRE_OK(cudaStreamCreate(&s));
   RT_REQUIRE_OK(cudaEventCreate(&e));
   RT_REQUIRE_OK(cudaMalloc(&d, RT_MIB));
   CHECK_CU(cuMemsetD8Async((CUdeviceptr)(uintptr_t)d, 3, RT_MIB, s));
   CHECK_CU(cuEventRecord(e, s));
   RT_CHECK_OK(cudaEventSynchronize(e));
   CHECK_CU(cuEventQuery(e));

   CHECK_CU(cuStreamCreate(&cs, CU_STREAM_NON_BLOCKING));
   RT_CHECK_OK(cudaMemsetAsync(d, 4, 16, cs));
   RT_CHECK_OK(cudaStreamSynchronize(cs));
   unsigned flags = 0;
   RT_CHECK_OK(cudaStreamGetFlags(cs, &flags));
   RT_CHECK(flags == cudaStreamNonBlocking);
   CHECK_CU(cuStreamDestroy(cs));

   RT_CHECK_OK(cudaFree(d));
   RT_CHECK_OK(cudaEventDestroy(e));
   RT_CHECK_OK(cudaStreamDestroy(s));
}

static const struct rt_case cases[] = {
   RT_CASE("runtime.driver.headers_together", driver_headers_together),
   RT_CASE("runtime.driver.primary_shared", driver_primary_shared),
   RT_CASE("runtime.driver.uses_current_context", driver_uses_current_context),
   RT_CASE("runtime.driver.set_device_replaces_current", driver_set_device_replaces_current),
   RT_CASE("runtime.driver.primary_reset_under_runtime", driver_primary_reset_under_runtime),
   RT_CASE("runtime.driver.handles_interchange", driver_handles_interchange),
};

RT_MAIN(cases)
