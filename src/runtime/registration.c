/*
 * The calls nvcc's generated host code makes before main() runs
 * (crt/host_runtime.h): one __cudaRegisterFatBinary per translation unit
 * with device code, then __cudaRegisterFunction / __cudaRegisterVar /
 * __cudaRegisterManagedVar for each kernel and variable in it,
 * __cudaRegisterFatBinaryEnd, and at exit __cudaUnregisterFatBinary.
 *
 * cuvk does not run kernels through the runtime yet (issue 14), so these
 * register nothing.  They must still let the program start: the
 * generated code checks none of them and dereferences nothing they
 * return, so each only logs one line naming the call.  They do not set
 * the thread's last error, which a program reads after its own calls and
 * which start-up must not poison.  What fails is the launch: `<<<...>>>`
 * calls __cudaPushCallConfiguration, which (from unsupported.c) returns
 * cudaErrorNotSupported, so the kernel's stub is skipped and
 * cudaGetLastError() reports cudaErrorNotSupported.
 *
 * The parameters are NVIDIA's (crt/host_runtime.h, fact of its ABI).
 */
#include <stddef.h>

#include "runtime/runtime.h"
#include "util/log.h"
#include "util/macros.h"

/* What __cudaRegisterFatBinary hands out.  The generated code keeps it
 * and passes it back to the calls below; none of them looks at it.  Not
 * NULL, because that is what a failed registration would look like to
 * anything that checks. */
static void *fatbin_handle_placeholder;

CUVK_EXPORT void **CUDARTAPI __cudaRegisterFatBinary(void *fatCubin);
CUVK_EXPORT void **CUDARTAPI
__cudaRegisterFatBinary(void *fatCubin)
{
   cuvk_logw("__cudaRegisterFatBinary(%p): not supported by cuvk; this program's "
             "kernels will fail to launch with cudaErrorNotSupported", fatCubin);
   return &fatbin_handle_placeholder;
}

CUVK_EXPORT void CUDARTAPI __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
CUVK_EXPORT void CUDARTAPI
__cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
   (void)fatCubinHandle;
   cuvk_logw("__cudaRegisterFatBinaryEnd: not supported by cuvk");
}

CUVK_EXPORT void CUDARTAPI __cudaUnregisterFatBinary(void **fatCubinHandle);
CUVK_EXPORT void CUDARTAPI
__cudaUnregisterFatBinary(void **fatCubinHandle)
{
   (void)fatCubinHandle;
   cuvk_logw("__cudaUnregisterFatBinary: not supported by cuvk");
}

CUVK_EXPORT void CUDARTAPI __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun,
                                                  char *deviceFun, const char *deviceName,
                                                  int thread_limit, void *tid, void *bid,
                                                  void *bDim, void *gDim, int *wSize);
CUVK_EXPORT void CUDARTAPI
__cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                       const char *deviceName, int thread_limit, void *tid, void *bid,
                       void *bDim, void *gDim, int *wSize)
{
   (void)fatCubinHandle, (void)hostFun, (void)deviceFun, (void)thread_limit;
   (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
   cuvk_logw("__cudaRegisterFunction(%s): not supported by cuvk",
             deviceName ? deviceName : "(null)");
}

CUVK_EXPORT void CUDARTAPI __cudaRegisterVar(void **fatCubinHandle, char *hostVar,
                                             char *deviceAddress, const char *deviceName,
                                             int ext, size_t size, int constant, int global);
CUVK_EXPORT void CUDARTAPI
__cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                  const char *deviceName, int ext, size_t size, int constant, int global)
{
   (void)fatCubinHandle, (void)hostVar, (void)deviceAddress, (void)ext;
   (void)size, (void)constant, (void)global;
   cuvk_logw("__cudaRegisterVar(%s): not supported by cuvk",
             deviceName ? deviceName : "(null)");
}

CUVK_EXPORT void CUDARTAPI __cudaRegisterManagedVar(void **fatCubinHandle,
                                                    void **hostVarPtrAddress,
                                                    char *deviceAddress,
                                                    const char *deviceName, int ext,
                                                    size_t size, int constant, int global);
CUVK_EXPORT void CUDARTAPI
__cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                         const char *deviceName, int ext, size_t size, int constant, int global)
{
   (void)fatCubinHandle, (void)hostVarPtrAddress, (void)deviceAddress, (void)ext;
   (void)size, (void)constant, (void)global;
   cuvk_logw("__cudaRegisterManagedVar(%s): not supported by cuvk",
             deviceName ? deviceName : "(null)");
}

/* NVIDIA's has no public prototype (CUPTI names it): a host variable of
 * a library; registering nothing is all cuvk can do. */
CUVK_EXPORT void CUDARTAPI __cudaRegisterHostVar(void);
CUVK_EXPORT void CUDARTAPI
__cudaRegisterHostVar(void)
{
   cuvk_logw("__cudaRegisterHostVar: not supported by cuvk");
}

/* Called the first time host code touches a __managed__ variable; 0 says
 * the module could not be initialised.  The variable's host pointer was
 * never set (__cudaRegisterManagedVar registers nothing), so such a
 * program cannot run on cuvk. */
CUVK_EXPORT char CUDARTAPI __cudaInitModule(void **fatCubinHandle);
CUVK_EXPORT char CUDARTAPI
__cudaInitModule(void **fatCubinHandle)
{
   (void)fatCubinHandle;
   cuvk_logw("__cudaInitModule: not supported by cuvk (managed variables)");
   return 0;
}
