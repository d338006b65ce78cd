/*
 * Entry points cuvk does not implement.  libcuda.so.1 exports every name
 * NVIDIA's does, because loaders that dlsym a long list of names (FFmpeg's
 * nv-codec-headers, for one) refuse a library that lacks any of them, and
 * a program linked against NVIDIA's libcuda must find every symbol it
 * references.  Each name below fails with CUDA_ERROR_NOT_SUPPORTED and one
 * log line naming the call.
 *
 * The list is generated at build time (gen_exports.py): NVIDIA's exports
 * (nvidia_exports.txt) less what cuvk's cuda.h declares, so implementing a
 * call means declaring it there, and its entry here disappears.
 *
 * The definitions take no parameters, whatever NVIDIA's prototype: all of
 * NVIDIA's exports return CUresult, and under the calling conventions cuvk
 * runs with (x86-64 System V, AArch64 AAPCS64: the caller passes arguments
 * in registers and on its own stack and cleans up) a function that ignores
 * its arguments can be called with any of them.  None of these is
 * declared in include/cuda.h, so no program compiled against cuvk's
 * header sees the wrong prototype.
 */
#include <cuda.h>

#include "util/error.h"
#include "util/macros.h"

static CUresult
unsupported(const char *name)
{
   return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: not supported by cuvk", name);
}

#define CUVK_UNSUPPORTED(name)                                                 \
   CUVK_EXPORT CUresult CUDAAPI name(void);                                    \
   CUVK_EXPORT CUresult CUDAAPI name(void)                                     \
   {                                                                           \
      return unsupported(#name);                                               \
   }

#include "unsupported_list.h"
