/*
 * cuGetProcAddress: entry points by name, the way libraries that load
 * libcuda.so.1 at run time find them.  The name a caller asks for is the
 * plain one ("cuMemAlloc"); which exported symbol answers depends on the
 * CUDA version the caller was built for and on whether it wants the
 * per-thread default stream forms.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <cuda.h>

#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

/* Calls that gained a versioned symbol, and the CUDA version (as in
 * CUDA_VERSION) whose headers started calling it. */
static const struct {
   const char *name;
   const char *suffix;
   int since;
} proc_versions[] = {
   { "cuArray3DCreate", "_v2", 3020 },
   { "cuArray3DGetDescriptor", "_v2", 3020 },
   { "cuArrayCreate", "_v2", 3020 },
   { "cuArrayGetDescriptor", "_v2", 3020 },
   { "cuCtxCreate", "_v4", 12050 },
   { "cuCtxCreate", "_v3", 11040 },
   { "cuCtxCreate", "_v2", 3020 },
   { "cuCtxDestroy", "_v2", 4000 },
   { "cuCtxPopCurrent", "_v2", 4000 },
   { "cuCtxPushCurrent", "_v2", 4000 },
   { "cuDeviceGetUuid", "_v2", 11040 },
   { "cuDevicePrimaryCtxRelease", "_v2", 11000 },
   { "cuDevicePrimaryCtxReset", "_v2", 11000 },
   { "cuDevicePrimaryCtxSetFlags", "_v2", 11000 },
   { "cuDeviceTotalMem", "_v2", 3020 },
   { "cuEventDestroy", "_v2", 4000 },
   { "cuEventElapsedTime", "_v2", 12080 },
   { "cuGetProcAddress", "_v2", 12000 },
   { "cuMemAlloc", "_v2", 3020 },
   { "cuMemAllocHost", "_v2", 3020 },
   { "cuMemAllocPitch", "_v2", 3020 },
   { "cuMemFree", "_v2", 3020 },
   { "cuMemGetAddressRange", "_v2", 3020 },
   { "cuMemGetInfo", "_v2", 3020 },
   { "cuMemHostGetDevicePointer", "_v2", 3020 },
   { "cuMemHostRegister", "_v2", 6050 },
   { "cuMemcpy2D", "_v2", 3020 },
   { "cuMemcpy2DAsync", "_v2", 3020 },
   { "cuMemcpy2DUnaligned", "_v2", 3020 },
   { "cuMemcpy3D", "_v2", 3020 },
   { "cuMemcpy3DAsync", "_v2", 3020 },
   { "cuMemcpyAtoA", "_v2", 3020 },
   { "cuMemcpyAtoD", "_v2", 3020 },
   { "cuMemcpyAtoH", "_v2", 3020 },
   { "cuMemcpyAtoHAsync", "_v2", 3020 },
   { "cuMemcpyDtoA", "_v2", 3020 },
   { "cuMemcpyDtoD", "_v2", 3020 },
   { "cuMemcpyDtoDAsync", "_v2", 3020 },
   { "cuMemcpyDtoH", "_v2", 3020 },
   { "cuMemcpyDtoHAsync", "_v2", 3020 },
   { "cuMemcpyHtoA", "_v2", 3020 },
   { "cuMemcpyHtoAAsync", "_v2", 3020 },
   { "cuMemcpyHtoD", "_v2", 3020 },
   { "cuMemcpyHtoDAsync", "_v2", 3020 },
   { "cuMemsetD16", "_v2", 3020 },
   { "cuMemsetD2D16", "_v2", 3020 },
   { "cuMemsetD2D32", "_v2", 3020 },
   { "cuMemsetD2D8", "_v2", 3020 },
   { "cuMemsetD32", "_v2", 3020 },
   { "cuMemsetD8", "_v2", 3020 },
   { "cuStreamDestroy", "_v2", 4000 },
};

/* Calls with a per-thread default stream form, and its suffix. */
static const struct {
   const char *name;
   const char *suffix;
} proc_per_thread[] = {
   { "cuEventRecord", "_ptsz" },
   { "cuLaunchHostFunc", "_ptsz" },
   { "cuMemcpy", "_ptds" },
   { "cuMemcpy2D", "_ptds" },
   { "cuMemcpy2DAsync", "_ptsz" },
   { "cuMemcpy2DUnaligned", "_ptds" },
   { "cuMemcpy3D", "_ptds" },
   { "cuMemcpy3DAsync", "_ptsz" },
   { "cuMemcpyAtoA", "_ptds" },
   { "cuMemcpyAtoD", "_ptds" },
   { "cuMemcpyAtoH", "_ptds" },
   { "cuMemcpyAtoHAsync", "_ptsz" },
   { "cuMemcpyDtoA", "_ptds" },
   { "cuMemcpyAsync", "_ptsz" },
   { "cuMemcpyDtoD", "_ptds" },
   { "cuMemcpyDtoDAsync", "_ptsz" },
   { "cuMemcpyDtoH", "_ptds" },
   { "cuMemcpyDtoHAsync", "_ptsz" },
   { "cuMemcpyHtoA", "_ptds" },
   { "cuMemcpyHtoAAsync", "_ptsz" },
   { "cuMemcpyHtoD", "_ptds" },
   { "cuMemcpyHtoDAsync", "_ptsz" },
   { "cuMemsetD16", "_ptds" },
   { "cuMemsetD16Async", "_ptsz" },
   { "cuMemsetD2D16", "_ptds" },
   { "cuMemsetD2D16Async", "_ptsz" },
   { "cuMemsetD2D32", "_ptds" },
   { "cuMemsetD2D32Async", "_ptsz" },
   { "cuMemsetD2D8", "_ptds" },
   { "cuMemsetD2D8Async", "_ptsz" },
   { "cuMemsetD32", "_ptds" },
   { "cuMemsetD32Async", "_ptsz" },
   { "cuMemsetD8", "_ptds" },
   { "cuMemsetD8Async", "_ptsz" },
   { "cuSignalExternalSemaphoresAsync", "_ptsz" },
   { "cuStreamAddCallback", "_ptsz" },
   { "cuStreamGetFlags", "_ptsz" },
   { "cuStreamGetPriority", "_ptsz" },
   { "cuStreamQuery", "_ptsz" },
   { "cuStreamSynchronize", "_ptsz" },
   { "cuStreamWaitEvent", "_ptsz" },
   { "cuWaitExternalSemaphoresAsync", "_ptsz" },
};

/* Looks a symbol up in this library only, never in whatever else the
 * process loaded (a real libcuda among it). */
static void *
proc_lookup(const char *symbol)
{
   static void *self;
   Dl_info info;

   if (!self) {
      if (!dladdr((void *)proc_lookup, &info) || !info.dli_fname)
         return NULL;
      void *handle = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
      if (!handle)
         return NULL;
      __atomic_store_n(&self, handle, __ATOMIC_RELEASE);
   }
   return dlsym(__atomic_load_n(&self, __ATOMIC_ACQUIRE), symbol);
}

CUVK_EXPORT CUresult CUDAAPI
cuGetProcAddress_v2(const char *symbol, void **pfn, int cuda_version, cuuint64_t flags,
                    CUdriverProcAddressQueryResult *status)
{
   char name[128];
   const char *suffix = "";

   if (!symbol || !pfn)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGetProcAddress: NULL symbol or pfn");
   if (flags & ~(cuuint64_t)(CU_GET_PROC_ADDRESS_LEGACY_STREAM | CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGetProcAddress: unknown flags 0x%llx",
                        (unsigned long long)flags);
   *pfn = NULL;

   for (unsigned i = 0; i < CUVK_ARRAY_SIZE(proc_versions); i++) {
      if (strcmp(proc_versions[i].name, symbol) != 0)
         continue;
      /* Newest first: the first version the caller's headers knew. */
      if (cuda_version >= proc_versions[i].since) {
         suffix = proc_versions[i].suffix;
         break;
      }
   }

   bool per_thread = flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
   const char *pt = "";
   for (unsigned i = 0; per_thread && i < CUVK_ARRAY_SIZE(proc_per_thread); i++)
      if (strcmp(proc_per_thread[i].name, symbol) == 0)
         pt = proc_per_thread[i].suffix;

   if (snprintf(name, sizeof(name), "%s%s%s", symbol, suffix, pt) >= (int)sizeof(name) ||
       strncmp(symbol, "cu", 2) != 0 || !(*pfn = proc_lookup(name))) {
      if (status)
         *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
      cuvk_logd("cuGetProcAddress: %s (CUDA %d) is not provided by cuvk", symbol, cuda_version);
      return CUDA_ERROR_NOT_FOUND;
   }
   if (status)
      *status = CU_GET_PROC_ADDRESS_SUCCESS;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuGetProcAddress(const char *symbol, void **pfn, int cuda_version, cuuint64_t flags)
{
   return cuGetProcAddress_v2(symbol, pfn, cuda_version, flags, NULL);
}
