/*
 * cudaGetDriverEntryPoint and cudaGetDriverEntryPointByVersion: the
 * runtime's way to cuGetProcAddress.  The runtime and the driver are one
 * library in cuvk, so the search is cuGetProcAddress_v2's own (every name
 * NVIDIA's libcuda.so.1 exports, by name, version and stream flavour);
 * this adds the runtime's rules: cudaEnableDefault picks the flavour the
 * program was built for (the _ptsz symbols are what a program built with
 * CUDA_API_PER_THREAD_DEFAULT_STREAM calls), and a name that is not found
 * is no error, only a NULL pointer and the reason in *driverStatus.
 */
#include "runtime/runtime.h"

#include <limits.h>
#include <stdbool.h>

#include "util/macros.h"

static cudaError_t
entry_point(const char *symbol, void **funcPtr, unsigned int cudaVersion,
            unsigned long long flags, enum cudaDriverEntryPointQueryResult *driverStatus,
            bool per_thread_default)
{
   CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;

   if (!symbol || !funcPtr)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue,
                                          "cudaGetDriverEntryPoint: NULL symbol or funcPtr"));
   if (flags > cudaEnablePerThreadDefaultStream)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue,
                                          "cudaGetDriverEntryPoint: unknown flags 0x%llx", flags));
   if (flags == cudaEnableDefault)
      flags = per_thread_default ? cudaEnablePerThreadDefaultStream : cudaEnableLegacyStream;
   if (cudaVersion > INT_MAX)
      cudaVersion = INT_MAX;

   /* The runtime's flags have cuGetProcAddress's values. */
   CUresult res = cuGetProcAddress_v2(symbol, funcPtr, (int)cudaVersion, flags, &status);
   if (res == CUDA_ERROR_NOT_FOUND) {
      *funcPtr = NULL;
      res = CUDA_SUCCESS;
   }
   if (driverStatus && res == CUDA_SUCCESS)
      *driverStatus = (enum cudaDriverEntryPointQueryResult)status;
   return cuvk_rt_return_cu(res);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                 unsigned long long flags,
                                 enum cudaDriverEntryPointQueryResult *driverStatus)
{
   return entry_point(symbol, funcPtr, cudaVersion, flags, driverStatus, false);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                      unsigned long long flags,
                                      enum cudaDriverEntryPointQueryResult *driverStatus)
{
   return entry_point(symbol, funcPtr, cudaVersion, flags, driverStatus, true);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags,
                        enum cudaDriverEntryPointQueryResult *driverStatus)
{
   return entry_point(symbol, funcPtr, CUDART_VERSION, flags, driverStatus, false);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr, unsigned long long flags,
                             enum cudaDriverEntryPointQueryResult *driverStatus)
{
   return entry_point(symbol, funcPtr, CUDART_VERSION, flags, driverStatus, true);
}
