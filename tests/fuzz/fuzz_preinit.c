/*
 * libFuzzer target: calls before cuInit.  cuInit can run only once in a
 * process, so the calls that come before it have a target of their own,
 * which never initialises: every call must answer
 * CUDA_ERROR_NOT_INITIALIZED (or, for the few that need no driver, work)
 * without touching anything.  Handles here are made-up values, since
 * cuvk has handed out none; cuvk must not look at them before it checks
 * that it is initialised.
 *
 * A call that answers anything else than the codes listed aborts, which
 * libFuzzer reports as a crash with the input that did it.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A NULL output may be refused before the missing cuInit is noticed, as
 * either order is what a caller could see from real CUDA. */
static bool null_arg;

static void
expect(CUresult r, const char *call)
{
   if (r != CUDA_ERROR_NOT_INITIALIZED && !(null_arg && r == CUDA_ERROR_INVALID_VALUE)) {
      fprintf(stderr, "fuzz_preinit: %s before cuInit returned %d, not CUDA_ERROR_NOT_INITIALIZED\n", call,
              (int)r);
      abort();
   }
}

#define EXPECT(call) expect((call), #call)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   uint8_t buf[256];
   for (size_t i = 0; i < size; i++) {
      uint8_t b = data[i];
      uint8_t a = i + 1 < size ? data[i + 1] : 0;
      /* Pointers: NULL or a buffer of the harness, never anything else. */
      void *p = a & 1 ? buf : NULL;
      /* Handles: 0 or a value no cuvk object has. */
      uintptr_t h = a & 2 ? (uintptr_t)buf : 0;
      size_t n = a & 4 ? (size_t)a << 8 : (a & 8 ? SIZE_MAX : 0);
      int dev = (int)(int8_t)a;
      null_arg = p == NULL;
      memset(buf, 0, sizeof(buf));
      switch (b % 36) {
      case 0: {
         /* Works without cuInit. */
         CUresult r = cuDriverGetVersion(p);
         if (r != (p ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE)) {
            fprintf(stderr, "fuzz_preinit: cuDriverGetVersion returned %d\n", (int)r);
            abort();
         }
         break;
      }
      case 1: EXPECT(cuDeviceGetCount(p)); break;
      case 2: EXPECT(cuDeviceGet(p, dev)); break;
      case 3: EXPECT(cuDeviceGetName(p, (int)a, dev)); break;
      case 4: EXPECT(cuDeviceTotalMem(p, dev)); break;
      case 5: EXPECT(cuDeviceGetAttribute(p, (CUdevice_attribute)a, dev)); break;
      case 6: EXPECT(cuDevicePrimaryCtxRetain(p, dev)); break;
      case 7: EXPECT(cuDevicePrimaryCtxRelease(dev)); break;
      case 8: EXPECT(cuDevicePrimaryCtxReset(dev)); break;
      case 9: EXPECT(cuDevicePrimaryCtxGetState(dev, p, p)); break;
      case 10: EXPECT(cuCtxCreate(p, NULL, 0, dev)); break;
      case 11: EXPECT(cuCtxDestroy((CUcontext)h)); break;
      case 12: EXPECT(cuCtxSetCurrent((CUcontext)h)); break;
      case 13: EXPECT(cuCtxPushCurrent((CUcontext)h)); break;
      case 14: EXPECT(cuCtxPopCurrent(p)); break;
      case 15: EXPECT(cuCtxGetCurrent(p)); break;
      case 16: EXPECT(cuCtxSynchronize()); break;
      case 17: EXPECT(cuMemAlloc(p, n)); break;
      case 18: EXPECT(cuMemFree((CUdeviceptr)h)); break;
      case 19: EXPECT(cuMemAllocHost(p, n)); break;
      case 20: EXPECT(cuMemFreeHost(p)); break;
      case 21: EXPECT(cuMemHostRegister(p, n, 0)); break;
      case 22: EXPECT(cuMemcpyHtoD((CUdeviceptr)h, p, n)); break;
      case 23: EXPECT(cuMemcpyDtoH(p, (CUdeviceptr)h, n)); break;
      case 24: EXPECT(cuMemsetD8((CUdeviceptr)h, a, n)); break;
      case 25: EXPECT(cuStreamCreate(p, a)); break;
      case 26: EXPECT(cuStreamDestroy((CUstream)h)); break;
      case 27: EXPECT(cuEventCreate(p, a)); break;
      case 28: EXPECT(cuEventRecord((CUevent)h, NULL)); break;
      case 29: EXPECT(cuImportExternalMemory(p, p)); break;
      case 30: EXPECT(cuDestroyExternalMemory((CUexternalMemory)h)); break;
      case 31: EXPECT(cuMemAddressReserve(p, n, 0, 0, 0)); break;
      case 32: EXPECT(cuMemCreate(p, n, p, 0)); break;
      case 33: EXPECT(cuMemRelease((CUmemGenericAllocationHandle)h)); break;
      case 34: EXPECT(cuArrayCreate(p, p)); break;
      default: EXPECT(cuMemGetInfo(p, p)); break;
      }
   }
   return 0;
}
