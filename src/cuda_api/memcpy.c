/*
 * The cuMemcpy* entry points: argument checks and stream resolution, then
 * the transfer engine.
 */
#include "cuda_api/context.h"
#include "cuda_api/graph.h"
#include "cuda_api/memory.h"
#include "cuda_api/transfer.h"
#include "util/error.h"
#include "util/macros.h"

/* One side of a linear copy as a CUDA_MEMCPY3D side: unified addressing
 * where the call leaves the kind open. */
static void
copy_side(enum cuvk_copy_side side, uint64_t address, CUmemorytype *type, const void **host, CUdeviceptr *device)
{
   if (side == CUVK_SIDE_HOST) {
      *type = CU_MEMORYTYPE_HOST;
      *host = (const void *)(uintptr_t)address;
   } else {
      *type = side == CUVK_SIDE_DEVICE ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_UNIFIED;
      *device = address;
   }
}

/* An asynchronous copy on a capturing stream becomes a memcpy node, the
 * one-row, one-slice CUDA_MEMCPY3D CUDA makes of it. */
static CUresult
copy_capture(struct cuvk_context *ctx, struct cuvk_stream *stream, const struct cuvk_copy *copy)
{
   if (!copy->async)
      return cuvk_capture_refuse(stream, copy->entry);
   if (!copy->size)
      return CUDA_SUCCESS;
   CUDA_MEMCPY3D p = { .WidthInBytes = copy->size, .Height = 1, .Depth = 1 };
   const void *dst_host = NULL;
   copy_side(copy->src_side, copy->src, &p.srcMemoryType, &p.srcHost, &p.srcDevice);
   copy_side(copy->dst_side, copy->dst, &p.dstMemoryType, &dst_host, &p.dstDevice);
   p.dstHost = (void *)dst_host;
   const struct cuvk_graph_memcpy node = { .copy = &p, .ctx = (CUcontext)ctx };
   return cuvk_capture_add(stream, CU_GRAPH_NODE_TYPE_MEMCPY, cuvk_graph_init_memcpy, &node, copy->entry);
}

static CUresult
copy_on(CUstream hstream, const struct cuvk_copy *copy)
{
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   CUresult res = cuvk_stream_lookup_any(hstream, copy->entry, &ctx, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   if (cuvk_stream_capturing(stream))
      return copy_capture(ctx, stream, copy);
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
