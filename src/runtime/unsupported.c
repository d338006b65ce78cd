/*
 * Runtime entry points cuvk does not implement.  The drop-in
 * libcudart.so.13 exports every name NVIDIA's does, so that a program
 * linked against NVIDIA's runtime finds every symbol it references (the
 * dynamic linker refuses to start it otherwise, even for a call it never
 * makes).  Each name below fails with cudaErrorNotSupported, which it
 * records as the thread's last error as every runtime call does, and logs
 * one line naming the call.
 *
 * The list is generated at build time (gen_exports.py): NVIDIA's exports
 * (nvidia_exports.txt) less what cuvk's cuda_runtime_api.h declares and
 * the registration calls of registration.c, so implementing a call means
 * declaring it there, and its entry here disappears.
 *
 * As in src/cuda_api/unsupported.c, the definitions take no parameters:
 * every one of these returns cudaError_t (an int) in NVIDIA's header, or
 * a value nvcc's generated code only compares with cudaSuccess
 * (__cudaPushCallConfiguration), and under the calling conventions cuvk
 * runs with the caller passes and cleans up the arguments, so a function
 * that ignores them can be called with any.  None is declared in cuvk's
 * headers, so no program compiled against them sees the wrong prototype.
 */
#include "runtime/runtime.h"
#include "util/macros.h"

static cudaError_t
unsupported(const char *name)
{
   return cuvk_rt_return(cuvk_rt_error(cudaErrorNotSupported, "%s: not supported by cuvk", name));
}

#define CUVK_RT_UNSUPPORTED(name)                                              \
   CUVK_EXPORT cudaError_t CUDARTAPI name(void);                               \
   CUVK_EXPORT cudaError_t CUDARTAPI name(void)                                \
   {                                                                           \
      return unsupported(#name);                                               \
   }

#include "unsupported_list.h"
