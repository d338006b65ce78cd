/*
 * api.leak.*: repeated context, allocation and registration cycles leave
 * the process with the file descriptors it started with.
 *
 * Vulkan objects are covered separately: every context destroy here ends
 * in vkDestroyDevice, where the validation layer reports any object cuvk
 * left behind, and CUVK_VALIDATION_FATAL turns that into an abort.
 */
#include "api_test.h"

#define CYCLES 200

/* Everything a context can own, used once, and then either freed by hand
 * or left for the context's destruction. */
static void
context_cycle(int i, uint8_t *host, uint8_t *reg, size_t size)
{
   CUcontext ctx = NULL;
   CUdeviceptr d = 0;
   CUstream s = NULL;
   CUevent e = NULL, timed = NULL;
   void *pinned = NULL;

   API_REQUIRE_CU(cuCtxCreate(&ctx, NULL, 0, api_dev));
   API_CHECK_CU(cuMemAlloc(&d, size));
   API_CHECK_CU(cuMemAllocHost(&pinned, size));
   API_CHECK_CU(cuMemHostRegister(reg, size, 0));
   API_CHECK_CU(cuStreamCreate(&s, 0));
   API_CHECK_CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
   API_CHECK_CU(cuEventCreate(&timed, 0));

   API_CHECK_CU(cuEventRecord(timed, s));
   API_CHECK_CU(cuMemcpyHtoDAsync(d, host, size, s));
   API_CHECK_CU(cuMemcpyDtoHAsync(pinned, d, size, s));
   API_CHECK_CU(cuMemcpyAsync((CUdeviceptr)(uintptr_t)reg, (CUdeviceptr)(uintptr_t)pinned, size, s));
   API_CHECK_CU(cuEventRecord(e, s));

   if (i % 2 == 0) {
      API_CHECK_CU(cuStreamSynchronize(s));
      API_CHECK(memcmp(reg, host, size) == 0);
      API_CHECK_CU(cuEventDestroy(e));
      API_CHECK_CU(cuEventDestroy(timed));
      API_CHECK_CU(cuStreamDestroy(s));
      API_CHECK_CU(cuMemHostUnregister(reg));
      API_CHECK_CU(cuMemFreeHost(pinned));
      API_CHECK_CU(cuMemFree(d));
   }
   API_CHECK_CU(cuCtxDestroy(ctx));
}

static void
leak_fd_context_cycles(void)
{
   const size_t size = 256 * API_KIB;
   uint8_t *host = api_xmalloc(size);
   uint8_t *reg = api_xmalloc_aligned(size);

   api_fill_random(host, size, 1);
   /* The first context loads whatever the Vulkan driver keeps open for
    * the life of the process. */
   context_cycle(0, host, reg, size);
   context_cycle(1, host, reg, size);
   int before = api_fd_count();
   API_REQUIRE(before > 0);

   double t0 = api_now();
   for (int i = 0; i < CYCLES; i++)
      context_cycle(i, host, reg, size);
   int after = api_fd_count();
   printf("%d context cycles in %.2f s; %d descriptors before, %d after\n", CYCLES,
          api_now() - t0, before, after);
   API_CHECK_MSG(after == before, "%d file descriptors open before %d context cycles, %d after",
                 before, CYCLES, after);
   free(host);
   free(reg);
}

static void
leak_fd_primary_cycles(void)
{
   const size_t size = 64 * API_KIB;
   uint8_t *host = api_xmalloc(size);
   CUcontext ctx = NULL;

   int before = -1;

   api_fill_random(host, size, 2);
   for (int i = 0; i < CYCLES + 2; i++) {
      /* Counted after two warm-up cycles. */
      if (i == 2)
         before = api_fd_count();

      CUdeviceptr d = 0;
      void *pinned = NULL;
      API_REQUIRE_CU(cuDevicePrimaryCtxRetain(&ctx, api_dev));
      API_CHECK_CU(cuCtxSetCurrent(ctx));
      API_CHECK_CU(cuMemAlloc(&d, size));
      API_CHECK_CU(cuMemAllocHost(&pinned, size));
      API_CHECK_CU(cuMemcpyHtoD(d, host, size));
      API_CHECK_CU(cuMemcpyDtoH(pinned, d, size));
      API_CHECK(memcmp(pinned, host, size) == 0);
      if (i % 3 == 0) {
         /* Reset destroys it with the memory still allocated. */
         API_CHECK_CU(cuDevicePrimaryCtxReset(api_dev));
      } else {
         API_CHECK_CU(cuMemFreeHost(pinned));
         API_CHECK_CU(cuMemFree(d));
         API_CHECK_CU(cuDevicePrimaryCtxRelease(api_dev));
      }
      API_CHECK_CU(cuCtxSetCurrent(NULL));

      if (i == CYCLES + 1) {
         int after = api_fd_count();
         printf("%d descriptors before, %d after\n", before, after);
         API_CHECK_MSG(after == before, "%d file descriptors before %d primary cycles, %d after",
                       before, CYCLES, after);
      }
   }
   free(host);
}

/* Allocation, registration and stream churn in one long-lived context. */
static void
leak_fd_object_cycles(void)
{
   const size_t size = 1 * API_MIB;
   uint8_t *reg = api_xmalloc_aligned(size);
   int before = -1;

   for (int i = 0; i < 10 * CYCLES + 10; i++) {
      if (i == 10)
         before = api_fd_count();
      CUdeviceptr d = 0;
      void *pinned = NULL;
      CUstream s = NULL;
      CUevent e = NULL;
      API_CHECK_CU(cuMemAlloc(&d, size + (size_t)i));
      API_CHECK_CU(cuMemAllocHost(&pinned, size + (size_t)i));
      API_CHECK_CU(cuMemHostRegister(reg, size, 0));
      API_CHECK_CU(cuStreamCreate(&s, 0));
      API_CHECK_CU(cuEventCreate(&e, 0));
      API_CHECK_CU(cuMemcpyAsync(d, (CUdeviceptr)(uintptr_t)reg, size, s));
      API_CHECK_CU(cuEventRecord(e, s));
      API_CHECK_CU(cuMemsetD8Async((CUdeviceptr)(uintptr_t)pinned, 1, size, s));
      API_CHECK_CU(cuEventDestroy(e));
      API_CHECK_CU(cuStreamDestroy(s));
      API_CHECK_CU(cuMemHostUnregister(reg));
      API_CHECK_CU(cuMemFreeHost(pinned));
      API_CHECK_CU(cuMemFree(d));
   }
   API_CHECK_CU(cuCtxSynchronize());
   int after = api_fd_count();
   printf("%d descriptors before, %d after\n", before, after);
   API_CHECK_MSG(after == before, "%d file descriptors before, %d after", before, after);
   free(reg);
}

static const struct api_case cases[] = {
   API_CASE_BARE("api.leak.fd.context_cycles", leak_fd_context_cycles),
   API_CASE_BARE("api.leak.fd.primary_cycles", leak_fd_primary_cycles),
   API_CASE("api.leak.fd.object_cycles", leak_fd_object_cycles),
};

API_MAIN(cases)
