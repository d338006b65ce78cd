/*
 * api.context.*: primary contexts, created contexts, the per-thread stack
 * of current contexts, and destroying contexts that still hold work,
 * memory and objects (the validation layer checks cuvk freed every Vulkan
 * object at vkDestroyDevice).
 */
#include "api_test.h"

#include <pthread.h>

static CUcontext
current(void)
{
   CUcontext ctx = (CUcontext)(uintptr_t)0xdead;

   API_CHECK_CU(cuCtxGetCurrent(&ctx));
   return ctx;
}

/* A small round trip through the current context: proves it works. */
static bool
context_works(void)
{
   uint8_t in[300], out[300];
   CUdeviceptr d = 0;

   api_fill_random(in, sizeof(in), (uint64_t)(uintptr_t)&d);
   if (!API_CHECK_CU(cuMemAlloc(&d, sizeof(in))))
      return false;
   API_CHECK_CU(cuMemcpyHtoD(d, in, sizeof(in)));
   API_CHECK_CU(cuMemcpyDtoH(out, d, sizeof(out)));
   API_CHECK_CU(cuMemFree(d));
   return API_CHECK_BYTES(out, in, sizeof(in), "round trip");
}

static void
context_primary_retain_release(void)
{
   unsigned flags = 99;
   int active = 99;
   CUcontext a = NULL, b = NULL;

   API_CHECK_CU(cuDevicePrimaryCtxGetState(api_dev, &flags, &active));
   API_CHECK(active == 0);
   API_CHECK(flags == 0);
   API_CHECK(current() == NULL);

   API_REQUIRE_CU(cuDevicePrimaryCtxRetain(&a, api_dev));
   API_REQUIRE(a != NULL);
   API_CHECK_CU(cuDevicePrimaryCtxGetState(api_dev, &flags, &active));
   API_CHECK(active == 1);
   /* Retaining does not make it current. */
   API_CHECK(current() == NULL);

   API_REQUIRE_CU(cuDevicePrimaryCtxRetain(&b, api_dev));
   API_CHECK(a == b);

   API_CHECK_CU(cuCtxSetCurrent(a));
   API_CHECK(context_works());
   CUdevice dev = -1;
   API_CHECK_CU(cuCtxGetDevice(&dev));
   API_CHECK(dev == api_dev);

   API_CHECK_CU(cuDevicePrimaryCtxRelease(api_dev));
   API_CHECK_CU(cuDevicePrimaryCtxGetState(api_dev, &flags, &active));
   API_CHECK(active == 1);
   API_CHECK(context_works());

   API_CHECK_CU(cuCtxSetCurrent(NULL));
   API_CHECK_CU(cuDevicePrimaryCtxRelease(api_dev));
   API_CHECK_CU(cuDevicePrimaryCtxGetState(api_dev, &flags, &active));
   API_CHECK(active == 0);

   /* A later retain gets a working context again. */
   API_REQUIRE_CU(cuDevicePrimaryCtxRetain(&a, api_dev));
   API_CHECK_CU(cuCtxSetCurrent(a));
   API_CHECK(context_works());
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   API_CHECK_CU(cuDevicePrimaryCtxRelease(api_dev));

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxRetain(NULL, api_dev));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxGetState(api_dev, NULL, &active));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxGetState(api_dev, &flags, NULL));
}

/* Reset destroys the primary context whatever its reference count, with
 * the memory in it; the next retain starts a fresh one. */
static void
context_primary_reset(void)
{
   CUcontext ctx = NULL;
   CUdeviceptr d = 0;
   int active = -1;
   unsigned flags;

   API_REQUIRE_CU(cuDevicePrimaryCtxRetain(&ctx, api_dev));
   API_REQUIRE_CU(cuDevicePrimaryCtxRetain(&ctx, api_dev));
   API_CHECK_CU(cuCtxSetCurrent(ctx));
   API_REQUIRE_CU(cuMemAlloc(&d, 1 << 20));
   API_CHECK_CU(cuMemsetD32Async(d, 0x12345678, (1 << 20) / 4, NULL));

   API_CHECK_CU(cuDevicePrimaryCtxReset(api_dev));
   API_CHECK_CU(cuDevicePrimaryCtxGetState(api_dev, &flags, &active));
   API_CHECK(active == 0);
   /* Its memory went with it. */
   API_CHECK_RES(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(NULL, NULL, d));
   API_CHECK_CU(cuCtxSetCurrent(NULL));

   API_REQUIRE_CU(cuDevicePrimaryCtxRetain(&ctx, api_dev));
   API_CHECK_CU(cuCtxSetCurrent(ctx));
   API_CHECK(context_works());
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   API_CHECK_CU(cuDevicePrimaryCtxRelease(api_dev));
}

static void
context_primary_set_flags(void)
{
   CUcontext ctx = NULL;
   unsigned flags = 0;
   int active = 0;

   API_CHECK_CU(cuDevicePrimaryCtxSetFlags(api_dev, CU_CTX_SCHED_BLOCKING_SYNC));
   API_CHECK_CU(cuDevicePrimaryCtxGetState(api_dev, &flags, &active));
   API_CHECK(flags == CU_CTX_SCHED_BLOCKING_SYNC);
   API_CHECK(active == 0);

   API_REQUIRE_CU(cuDevicePrimaryCtxRetain(&ctx, api_dev));
   API_CHECK_CU(cuCtxSetCurrent(ctx));
   API_CHECK_CU(cuCtxGetFlags(&flags));
   API_CHECK_MSG((flags & CU_CTX_SCHED_MASK) == CU_CTX_SCHED_BLOCKING_SYNC, "flags 0x%x", flags);
   API_CHECK(context_works());

   API_CHECK_CU(cuDevicePrimaryCtxSetFlags(api_dev, CU_CTX_SCHED_SPIN));
   API_CHECK_CU(cuDevicePrimaryCtxGetState(api_dev, &flags, &active));
   API_CHECK(flags == CU_CTX_SCHED_SPIN);
   API_CHECK(active == 1);

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxSetFlags(api_dev, 0x100));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE,
                 cuDevicePrimaryCtxSetFlags(api_dev, CU_CTX_SCHED_SPIN | CU_CTX_SCHED_YIELD));
   API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxSetFlags(-1, 0));

   API_CHECK_CU(cuCtxSetCurrent(NULL));
   API_CHECK_CU(cuDevicePrimaryCtxRelease(api_dev));
   API_CHECK_CU(cuDevicePrimaryCtxSetFlags(api_dev, 0));
}

static void
context_create_destroy(void)
{
   CUcontext ctx = NULL;
   CUdevice dev = -1;
   unsigned flags = 0;

   API_REQUIRE_CU(cuCtxCreate(&ctx, NULL, CU_CTX_SCHED_YIELD, api_dev));
   API_REQUIRE(ctx != NULL);
   /* A created context is pushed on the calling thread's stack. */
   API_CHECK(current() == ctx);
   API_CHECK_CU(cuCtxGetDevice(&dev));
   API_CHECK(dev == api_dev);
   API_CHECK_CU(cuCtxGetFlags(&flags));
   API_CHECK_MSG((flags & CU_CTX_SCHED_MASK) == CU_CTX_SCHED_YIELD, "flags 0x%x", flags);
   API_CHECK(context_works());
   API_CHECK_CU(cuCtxSynchronize());

   /* Destroying the current context pops it. */
   API_CHECK_CU(cuCtxDestroy(ctx));
   API_CHECK(current() == NULL);
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetDevice(&dev));

   /* Not a live context any more. */
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxDestroy(ctx));
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxPushCurrent(ctx));
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxSetCurrent(ctx));

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxCreate(NULL, NULL, 0, api_dev));
   API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuCtxCreate(&ctx, NULL, 0, -1));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxCreate(&ctx, NULL, 0x100, api_dev));
   API_CHECK(current() == NULL);
}

/* Several contexts of one device are independent: memory of one is not
 * the other's, and each works after the other is gone. */
static void
context_several(void)
{
   CUcontext a = NULL, b = NULL, owner = NULL;
   CUdeviceptr da = 0, db = 0;

   API_REQUIRE_CU(cuCtxCreate(&a, NULL, 0, api_dev));
   API_REQUIRE_CU(cuMemAlloc(&da, 4096));
   API_REQUIRE_CU(cuCtxCreate(&b, NULL, 0, api_dev));
   API_CHECK(a != b);
   API_REQUIRE_CU(cuMemAlloc(&db, 4096));
   API_CHECK(da != db);

   API_CHECK_CU(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, da));
   API_CHECK(owner == a);
   API_CHECK_CU(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, db));
   API_CHECK(owner == b);

   API_CHECK_CU(cuCtxDestroy(b));
   API_CHECK(current() == a);
   API_CHECK(context_works());
   API_CHECK_CU(cuMemFree(da));
   API_CHECK_CU(cuCtxDestroy(a));
   API_CHECK(current() == NULL);
}

static void
context_push_pop(void)
{
   CUcontext a = NULL, b = NULL, popped = NULL;

   API_REQUIRE_CU(cuCtxCreate(&a, NULL, 0, api_dev));
   API_REQUIRE_CU(cuCtxPopCurrent(&popped));
   API_CHECK(popped == a);
   API_CHECK(current() == NULL);
   API_REQUIRE_CU(cuCtxCreate(&b, NULL, 0, api_dev));
   API_REQUIRE_CU(cuCtxPopCurrent(NULL));
   API_CHECK(current() == NULL);

   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxPopCurrent(&popped));

   API_CHECK_CU(cuCtxPushCurrent(a));
   API_CHECK(current() == a);
   API_CHECK_CU(cuCtxPushCurrent(b));
   API_CHECK(current() == b);
   API_CHECK(context_works());
   API_CHECK_CU(cuCtxPopCurrent(&popped));
   API_CHECK(popped == b);
   API_CHECK(current() == a);
   API_CHECK(context_works());
   API_CHECK_CU(cuCtxPopCurrent(&popped));
   API_CHECK(popped == a);
   API_CHECK(current() == NULL);

   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxPushCurrent(NULL));

   API_CHECK_CU(cuCtxDestroy(a));
   API_CHECK_CU(cuCtxDestroy(b));
}

/* cuCtxSetCurrent replaces the top of the stack (NULL pops it). */
static void
context_set_current(void)
{
   CUcontext a = NULL, b = NULL, popped = NULL;

   API_REQUIRE_CU(cuCtxCreate(&a, NULL, 0, api_dev));
   API_REQUIRE_CU(cuCtxCreate(&b, NULL, 0, api_dev));
   API_CHECK_CU(cuCtxPopCurrent(NULL));
   API_CHECK_CU(cuCtxPopCurrent(NULL));
   API_CHECK(current() == NULL);

   API_CHECK_CU(cuCtxSetCurrent(NULL));
   API_CHECK(current() == NULL);
   API_CHECK_CU(cuCtxSetCurrent(a));
   API_CHECK(current() == a);
   API_CHECK_CU(cuCtxSetCurrent(b));
   API_CHECK(current() == b);

   API_CHECK_CU(cuCtxPushCurrent(a));   /* stack: b a */
   API_CHECK_CU(cuCtxSetCurrent(b));    /* stack: b b */
   API_CHECK(current() == b);
   API_CHECK_CU(cuCtxPopCurrent(&popped));
   API_CHECK(popped == b);
   API_CHECK(current() == b);
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   API_CHECK(current() == NULL);

   API_CHECK_CU(cuCtxDestroy(a));
   API_CHECK_CU(cuCtxDestroy(b));
}

/* A deep stack alternating two contexts and the primary one unwinds in
 * order, each level working. */
static void
context_nested_stack(void)
{
   enum { DEPTH = 24 };
   CUcontext ctxs[3], pushed[DEPTH], popped = NULL;

   API_REQUIRE_CU(cuCtxCreate(&ctxs[0], NULL, 0, api_dev));
   API_REQUIRE_CU(cuCtxCreate(&ctxs[1], NULL, 0, api_dev));
   API_REQUIRE_CU(cuDevicePrimaryCtxRetain(&ctxs[2], api_dev));
   API_CHECK_CU(cuCtxPopCurrent(NULL));
   API_CHECK_CU(cuCtxPopCurrent(NULL));
   API_CHECK(current() == NULL);

   for (int i = 0; i < DEPTH; i++) {
      pushed[i] = ctxs[(i * 7) % 3];
      API_CHECK_CU(cuCtxPushCurrent(pushed[i]));
      API_CHECK(current() == pushed[i]);
   }
   for (int i = DEPTH - 1; i >= 0; i--) {
      API_CHECK(current() == pushed[i]);
      if (i % 5 == 0)
         API_CHECK(context_works());
      API_CHECK_CU(cuCtxPopCurrent(&popped));
      API_CHECK(popped == pushed[i]);
   }
   API_CHECK(current() == NULL);

   API_CHECK_CU(cuCtxDestroy(ctxs[0]));
   API_CHECK_CU(cuCtxDestroy(ctxs[1]));
   API_CHECK_CU(cuDevicePrimaryCtxRelease(api_dev));
}

/* The stack is per thread: a new thread starts with nothing current. */
static void *
stack_thread(void *arg)
{
   CUcontext *seen = arg;

   if (cuCtxGetCurrent(&seen[0]) != CUDA_SUCCESS)
      seen[0] = (CUcontext)(uintptr_t)1;
   if (cuCtxPushCurrent(seen[1]) != CUDA_SUCCESS || cuCtxGetCurrent(&seen[2]) != CUDA_SUCCESS)
      seen[2] = (CUcontext)(uintptr_t)1;
   cuCtxPopCurrent(NULL);
   return NULL;
}

static void
context_stack_per_thread(void)
{
   CUcontext a = NULL, b = NULL;
   CUcontext seen[3];
   pthread_t t;

   API_REQUIRE_CU(cuCtxCreate(&a, NULL, 0, api_dev));
   API_REQUIRE_CU(cuCtxCreate(&b, NULL, 0, api_dev));
   seen[0] = (CUcontext)(uintptr_t)1;
   seen[1] = a;
   seen[2] = NULL;
   API_REQUIRE(pthread_create(&t, NULL, stack_thread, seen) == 0);
   pthread_join(t, NULL);
   API_CHECK_MSG(seen[0] == NULL, "a new thread starts with %p current", (void *)seen[0]);
   API_CHECK(seen[2] == a);
   /* The other thread's push and pop left this thread's stack alone. */
   API_CHECK(current() == b);
   API_CHECK_CU(cuCtxDestroy(b));
   API_CHECK(current() == a);
   API_CHECK_CU(cuCtxDestroy(a));
}

static void
context_no_current(void)
{
   CUdevice dev;
   unsigned flags;
   CUdeviceptr d;
   size_t free_bytes, total;
   CUstream stream;
   CUevent event;

   API_CHECK(current() == NULL);
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetDevice(&dev));
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetFlags(&flags));
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxSynchronize());
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuMemAlloc(&d, 16));
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuMemGetInfo(&free_bytes, &total));
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuStreamCreate(&stream, 0));
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuEventCreate(&event, 0));
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuStreamSynchronize(NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuMemsetD8(0x10000, 0, 1));
}

static void
context_synchronize(void)
{
   const size_t size = 32 * API_MIB;
   CUdeviceptr a = 0, b = 0;
   CUstream s1 = NULL, s2 = NULL;
   uint32_t *host = NULL;

   API_REQUIRE_CU(cuMemAlloc(&a, size));
   API_REQUIRE_CU(cuMemAlloc(&b, size));
   API_REQUIRE_CU(cuMemAllocHost((void **)&host, size));
   API_REQUIRE_CU(cuStreamCreate(&s1, 0));
   API_REQUIRE_CU(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));

   /* Work on three streams; cuCtxSynchronize waits for all of it. */
   API_CHECK_CU(cuMemsetD32Async(a, 0xa1a2a3a4, size / 4, s1));
   API_CHECK_CU(cuMemsetD32Async(b, 0xb1b2b3b4, size / 4, s2));
   API_CHECK_CU(cuMemcpyDtoHAsync(host, a, size, s1));
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_CU(cuStreamQuery(s1));
   API_CHECK_CU(cuStreamQuery(s2));
   API_CHECK_CU(cuStreamQuery(NULL));
   size_t bad = 0;
   for (size_t i = 0; i < size / 4; i++)
      bad += host[i] != 0xa1a2a3a4;
   API_CHECK_MSG(bad == 0, "%zu words not yet written after cuCtxSynchronize", bad);

   API_CHECK_CU(cuMemcpyDtoHAsync(host, b, size, s2));
   API_CHECK_CU(cuCtxSynchronize());
   bad = 0;
   for (size_t i = 0; i < size / 4; i++)
      bad += host[i] != 0xb1b2b3b4;
   API_CHECK_MSG(bad == 0, "%zu words not yet written after cuCtxSynchronize", bad);

   /* With nothing outstanding it returns at once. */
   API_CHECK_CU(cuCtxSynchronize());

   API_CHECK_CU(cuStreamDestroy(s1));
   API_CHECK_CU(cuStreamDestroy(s2));
   API_CHECK_CU(cuMemFreeHost(host));
   API_CHECK_CU(cuMemFree(a));
   API_CHECK_CU(cuMemFree(b));
}

/* Destroying a context that still has memory, pinned memory, registered
 * memory, streams, events and queued work: cuvk frees all of it (the
 * validation layer would abort at vkDestroyDevice otherwise). */
static void
context_destroy_with_live_objects(void)
{
   const size_t size = 16 * API_MIB;
   CUcontext ctx = NULL;
   CUdeviceptr d = 0, small = 0;
   CUstream stream = NULL;
   CUevent ev = NULL, ev_timed = NULL;
   void *pinned = NULL;
   void *registered = api_xmalloc_aligned(64 * API_KIB);

   API_REQUIRE_CU(cuCtxCreate(&ctx, NULL, 0, api_dev));
   API_REQUIRE_CU(cuMemAlloc(&d, size));
   API_REQUIRE_CU(cuMemAlloc(&small, 100));
   API_REQUIRE_CU(cuMemAllocHost(&pinned, size));
   API_REQUIRE_CU(cuMemHostRegister(registered, 64 * API_KIB, 0));
   API_REQUIRE_CU(cuStreamCreate(&stream, 0));
   API_REQUIRE_CU(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
   API_REQUIRE_CU(cuEventCreate(&ev_timed, 0));

   /* Queue work and leave it running. */
   API_CHECK_CU(cuEventRecord(ev_timed, stream));
   API_CHECK_CU(cuMemsetD8Async(d, 0x3c, size, stream));
   API_CHECK_CU(cuMemcpyDtoHAsync(pinned, d, size, stream));
   API_CHECK_CU(cuMemcpyHtoDAsync(d, registered, 64 * API_KIB, stream));
   API_CHECK_CU(cuEventRecord(ev, stream));

   API_CHECK_CU(cuCtxDestroy(ctx));
   API_CHECK(current() == NULL);

   /* Everything it owned is gone. */
   API_CHECK_RES(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(NULL, NULL, d));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventQuery(ev));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamQuery(stream));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFree(d));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost(pinned));
   API_CHECK_RES(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, cuMemHostUnregister(registered));

   /* The host memory is the program's again, and registers anew. */
   memset(registered, 1, 64 * API_KIB);
   API_REQUIRE_CU(cuCtxCreate(&ctx, NULL, 0, api_dev));
   API_CHECK_CU(cuMemHostRegister(registered, 64 * API_KIB, 0));
   API_CHECK_CU(cuMemHostUnregister(registered));
   API_CHECK_CU(cuCtxDestroy(ctx));
   free(registered);
}

struct other_thread {
   CUcontext ctx;
   pthread_barrier_t made_current, destroyed;
   CUresult after_destroy;
   CUresult after_unbind;
   bool worked;
};

static void *
other_thread_main(void *arg)
{
   struct other_thread *t = arg;
   CUdeviceptr d = 0;

   t->worked = cuCtxSetCurrent(t->ctx) == CUDA_SUCCESS && cuMemAlloc(&d, 64) == CUDA_SUCCESS &&
               cuMemsetD8(d, 1, 64) == CUDA_SUCCESS;
   pthread_barrier_wait(&t->made_current);
   pthread_barrier_wait(&t->destroyed);

   /* The context current here was destroyed by the main thread. */
   t->after_destroy = cuMemAlloc(&d, 64);
   cuCtxSetCurrent(NULL);
   t->after_unbind = cuMemAlloc(&d, 64);
   return NULL;
}

static void
context_destroy_current_on_other_thread(void)
{
   struct other_thread t = { 0 };
   pthread_t thread;

   API_REQUIRE_CU(cuCtxCreate(&t.ctx, NULL, 0, api_dev));
   API_CHECK_CU(cuCtxPopCurrent(NULL));
   pthread_barrier_init(&t.made_current, NULL, 2);
   pthread_barrier_init(&t.destroyed, NULL, 2);
   API_REQUIRE(pthread_create(&thread, NULL, other_thread_main, &t) == 0);

   pthread_barrier_wait(&t.made_current);
   API_CHECK_CU(cuCtxDestroy(t.ctx));
   pthread_barrier_wait(&t.destroyed);
   pthread_join(thread, NULL);

   API_CHECK(t.worked);
   API_CHECK_MSG(t.after_destroy == CUDA_ERROR_CONTEXT_IS_DESTROYED ||
                 t.after_destroy == CUDA_ERROR_INVALID_CONTEXT,
                 "cuMemAlloc in a destroyed context: %s", api_result_name(t.after_destroy));
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, t.after_unbind);
   pthread_barrier_destroy(&t.made_current);
   pthread_barrier_destroy(&t.destroyed);

   /* Nothing of it lingers for the next context. */
   CUcontext ctx = NULL;
   API_REQUIRE_CU(cuCtxCreate(&ctx, NULL, 0, api_dev));
   API_CHECK(context_works());
   API_CHECK_CU(cuCtxDestroy(ctx));
}

static void
context_stream_priority_range(void)
{
   int least = 99, greatest = 99;

   API_CHECK_CU(cuCtxGetStreamPriorityRange(&least, &greatest));
   /* Lower numbers are higher priorities. */
   API_CHECK(greatest <= least);
   API_CHECK_CU(cuCtxGetStreamPriorityRange(NULL, &greatest));
   API_CHECK_CU(cuCtxGetStreamPriorityRange(&least, NULL));
}

static const struct api_case cases[] = {
   API_CASE_BARE("api.context.primary.retain_release", context_primary_retain_release),
   API_CASE_BARE("api.context.primary.reset", context_primary_reset),
   API_CASE_BARE("api.context.primary.set_flags", context_primary_set_flags),
   API_CASE_BARE("api.context.create_destroy", context_create_destroy),
   API_CASE_BARE("api.context.several", context_several),
   API_CASE_BARE("api.context.push_pop", context_push_pop),
   API_CASE_BARE("api.context.set_current", context_set_current),
   API_CASE_BARE("api.context.nested_stack", context_nested_stack),
   API_CASE_BARE("api.context.stack_per_thread", context_stack_per_thread),
   API_CASE_BARE("api.context.no_current", context_no_current),
   API_CASE("api.context.synchronize", context_synchronize),
   API_CASE_BARE("api.context.destroy_with_live_objects", context_destroy_with_live_objects),
   API_CASE_BARE("api.context.destroy_current_on_other_thread", context_destroy_current_on_other_thread),
   API_CASE("api.context.stream_priority_range", context_stream_priority_range),
};

API_MAIN(cases)
