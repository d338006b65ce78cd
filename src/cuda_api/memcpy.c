/*
 * The cuMemcpy* entry points: argument checks and stream resolution, then
 * the transfer engine.
 */
#include "cuda_api/context.h"
#include "cuda_api/memory.h"
#include "cuda_api/transfer.h"
#include "util/error.h"
#include "util/macros.h"

static CUresult
copy_on(CUstream hstream, const struct cuvk_copy *copy)
{
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   CUresult res = cuvk_stream_lookup(hstream, copy->entry, &ctx, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   return cuvk_copy(ctx, stream, copy);
}

#define COPY(entry_, dst_, dside_, src_, sside_, size_, stream_, async_)         \
   copy_on((stream_), &(struct cuvk_copy){                                        \
      .dst = (uint64_t)(uintptr_t)(dst_), .src = (uint64_t)(uintptr_t)(src_),     \
      .size = (size_), .dst_side = (dside_), .src_side = (sside_),                \
      .async = (async_), .entry = (entry_),                                       \
   })

CUVK_EXPORT CUresult CUDAAPI
cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t size)
{
   return COPY("cuMemcpy", dst, CUVK_SIDE_ANY, src, CUVK_SIDE_ANY, size, NULL, false);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t size, CUstream stream)
{
   return COPY("cuMemcpyAsync", dst, CUVK_SIDE_ANY, src, CUVK_SIDE_ANY, size, stream, true);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t size)
{
   return COPY("cuMemcpyHtoD", dst, CUVK_SIDE_DEVICE, src, CUVK_SIDE_HOST, size, NULL, false);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t size)
{
   return COPY("cuMemcpyDtoH", dst, CUVK_SIDE_HOST, src, CUVK_SIDE_DEVICE, size, NULL, false);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t size)
{
   return COPY("cuMemcpyDtoD", dst, CUVK_SIDE_DEVICE, src, CUVK_SIDE_DEVICE, size, NULL, false);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t size, CUstream stream)
{
   return COPY("cuMemcpyHtoDAsync", dst, CUVK_SIDE_DEVICE, src, CUVK_SIDE_HOST, size, stream, true);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t size, CUstream stream)
{
   return COPY("cuMemcpyDtoHAsync", dst, CUVK_SIDE_HOST, src, CUVK_SIDE_DEVICE, size, stream, true);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t size, CUstream stream)
{
   return COPY("cuMemcpyDtoDAsync", dst, CUVK_SIDE_DEVICE, src, CUVK_SIDE_DEVICE, size, stream, true);
}
