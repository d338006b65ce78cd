/*
 * The cuMemset* entry points: argument checks and stream resolution, then
 * the transfer engine's fill.
 */
#include "cuda_api/context.h"
#include "cuda_api/graph.h"
#include "cuda_api/transfer.h"
#include "util/error.h"
#include "util/macros.h"

static CUresult
fill_on(CUstream hstream, const struct cuvk_fill *fill)
{
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   CUresult res = cuvk_stream_lookup_any(hstream, fill->entry, &ctx, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   if (cuvk_stream_capturing(stream)) {
      if (!fill->async)
         return cuvk_capture_refuse(stream, fill->entry);
      const CUDA_MEMSET_NODE_PARAMS set = {
         .dst = fill->dst, .pitch = fill->pitch, .value = fill->value, .elementSize = fill->elem_size,
         .width = fill->width, .height = fill->height,
      };
      const struct cuvk_graph_memset node = { .set = &set, .ctx = (CUcontext)ctx };
      return cuvk_capture_add(stream, CU_GRAPH_NODE_TYPE_MEMSET, cuvk_graph_init_memset, &node, fill->entry);
   }
   return cuvk_fill(ctx, stream, fill);
}

#define FILL(entry_, dst_, pitch_, value_, elem_, width_, height_, stream_, async_) \
   fill_on((stream_), &(struct cuvk_fill){                                         \
      .dst = (dst_), .pitch = (pitch_), .width = (width_), .height = (height_),    \
      .value = (value_), .elem_size = (elem_), .async = (async_), .entry = (entry_), \
   })

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD8_v2(CUdeviceptr dst, unsigned char value, size_t n)
{
   return FILL("cuMemsetD8", dst, 0, value, 1, n, 1, NULL, false);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD16_v2(CUdeviceptr dst, unsigned short value, size_t n)
{
   return FILL("cuMemsetD16", dst, 0, value, 2, n, 1, NULL, false);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD32_v2(CUdeviceptr dst, unsigned int value, size_t n)
{
   return FILL("cuMemsetD32", dst, 0, value, 4, n, 1, NULL, false);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t n, CUstream stream)
{
   return FILL("cuMemsetD8Async", dst, 0, value, 1, n, 1, stream, true);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t n, CUstream stream)
{
   return FILL("cuMemsetD16Async", dst, 0, value, 2, n, 1, stream, true);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD32Async(CUdeviceptr dst, unsigned int value, size_t n, CUstream stream)
{
   return FILL("cuMemsetD32Async", dst, 0, value, 4, n, 1, stream, true);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD2D8_v2(CUdeviceptr dst, size_t pitch, unsigned char value, size_t width, size_t height)
{
   return FILL("cuMemsetD2D8", dst, pitch, value, 1, width, height, NULL, false);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD2D16_v2(CUdeviceptr dst, size_t pitch, unsigned short value, size_t width, size_t height)
{
   return FILL("cuMemsetD2D16", dst, pitch, value, 2, width, height, NULL, false);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD2D32_v2(CUdeviceptr dst, size_t pitch, unsigned int value, size_t width, size_t height)
{
   return FILL("cuMemsetD2D32", dst, pitch, value, 4, width, height, NULL, false);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD2D8Async(CUdeviceptr dst, size_t pitch, unsigned char value, size_t width, size_t height,
                  CUstream stream)
{
   return FILL("cuMemsetD2D8Async", dst, pitch, value, 1, width, height, stream, true);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD2D16Async(CUdeviceptr dst, size_t pitch, unsigned short value, size_t width, size_t height,
                   CUstream stream)
{
   return FILL("cuMemsetD2D16Async", dst, pitch, value, 2, width, height, stream, true);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD2D32Async(CUdeviceptr dst, size_t pitch, unsigned int value, size_t width, size_t height,
                   CUstream stream)
{
   return FILL("cuMemsetD2D32Async", dst, pitch, value, 4, width, height, stream, true);
}
