/*
 * Runtime arrays: cudaMallocArray, cudaMalloc3DArray, cudaMallocMipmappedArray,
 * their frees and queries, the channel descriptions (cudaCreateChannelDesc,
 * cudaGetChannelDesc), cudaExternalMemoryGetMappedMipmappedArray, and
 * the 2D/3D copies that reach arrays, on the driver's cuArray*,
 * cuMipmappedArray* and cuMemcpy2D/3D (src/array/).
 *
 * A cudaArray_t is the driver's CUarray and a cudaMipmappedArray_t its
 * CUmipmappedArray under NVIDIA's runtime struct tags: the same pointer,
 * cast at this boundary.  The runtime describes formats with a
 * cudaChannelFormatDesc (bits per channel and a kind) where the driver has
 * a CUarray_format and a channel count; the conversion is below.
 */
#include "runtime/runtime.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "array/array.h"
#include "util/macros.h"

/* The array flags share their values with the driver's. */
_Static_assert(cudaArrayLayered == CUDA_ARRAY3D_LAYERED && cudaArraySurfaceLoadStore == CUDA_ARRAY3D_SURFACE_LDST &&
               cudaArrayCubemap == CUDA_ARRAY3D_CUBEMAP && cudaArrayTextureGather == CUDA_ARRAY3D_TEXTURE_GATHER &&
               cudaArrayColorAttachment == CUDA_ARRAY3D_COLOR_ATTACHMENT && cudaArraySparse == CUDA_ARRAY3D_SPARSE &&
               cudaArrayDeferredMapping == CUDA_ARRAY3D_DEFERRED_MAPPING,
               "runtime and driver array flags differ");

/* Channel kinds that name one driver format with a fixed channel count. */
static const struct {
   enum cudaChannelFormatKind kind;
   CUarray_format format;
   unsigned channels;
} fixed_kinds[] = {
   { cudaChannelFormatKindUnsignedNormalized8X1, CU_AD_FORMAT_UNORM_INT8X1, 1 },
   { cudaChannelFormatKindUnsignedNormalized8X2, CU_AD_FORMAT_UNORM_INT8X2, 2 },
   { cudaChannelFormatKindUnsignedNormalized8X4, CU_AD_FORMAT_UNORM_INT8X4, 4 },
   { cudaChannelFormatKindUnsignedNormalized16X1, CU_AD_FORMAT_UNORM_INT16X1, 1 },
   { cudaChannelFormatKindUnsignedNormalized16X2, CU_AD_FORMAT_UNORM_INT16X2, 2 },
   { cudaChannelFormatKindUnsignedNormalized16X4, CU_AD_FORMAT_UNORM_INT16X4, 4 },
   { cudaChannelFormatKindSignedNormalized8X1, CU_AD_FORMAT_SNORM_INT8X1, 1 },
   { cudaChannelFormatKindSignedNormalized8X2, CU_AD_FORMAT_SNORM_INT8X2, 2 },
   { cudaChannelFormatKindSignedNormalized8X4, CU_AD_FORMAT_SNORM_INT8X4, 4 },
   { cudaChannelFormatKindSignedNormalized16X1, CU_AD_FORMAT_SNORM_INT16X1, 1 },
   { cudaChannelFormatKindSignedNormalized16X2, CU_AD_FORMAT_SNORM_INT16X2, 2 },
   { cudaChannelFormatKindSignedNormalized16X4, CU_AD_FORMAT_SNORM_INT16X4, 4 },
   { cudaChannelFormatKindUnsignedBlockCompressed1, CU_AD_FORMAT_BC1_UNORM, 4 },
   { cudaChannelFormatKindUnsignedBlockCompressed1SRGB, CU_AD_FORMAT_BC1_UNORM_SRGB, 4 },
   { cudaChannelFormatKindUnsignedBlockCompressed2, CU_AD_FORMAT_BC2_UNORM, 4 },
   { cudaChannelFormatKindUnsignedBlockCompressed2SRGB, CU_AD_FORMAT_BC2_UNORM_SRGB, 4 },
   { cudaChannelFormatKindUnsignedBlockCompressed3, CU_AD_FORMAT_BC3_UNORM, 4 },
   { cudaChannelFormatKindUnsignedBlockCompressed3SRGB, CU_AD_FORMAT_BC3_UNORM_SRGB, 4 },
   { cudaChannelFormatKindUnsignedBlockCompressed4, CU_AD_FORMAT_BC4_UNORM, 1 },
   { cudaChannelFormatKindSignedBlockCompressed4, CU_AD_FORMAT_BC4_SNORM, 1 },
   { cudaChannelFormatKindUnsignedBlockCompressed5, CU_AD_FORMAT_BC5_UNORM, 2 },
   { cudaChannelFormatKindSignedBlockCompressed5, CU_AD_FORMAT_BC5_SNORM, 2 },
   { cudaChannelFormatKindUnsignedBlockCompressed6H, CU_AD_FORMAT_BC6H_UF16, 3 },
   { cudaChannelFormatKindSignedBlockCompressed6H, CU_AD_FORMAT_BC6H_SF16, 3 },
   { cudaChannelFormatKindUnsignedBlockCompressed7, CU_AD_FORMAT_BC7_UNORM, 4 },
   { cudaChannelFormatKindUnsignedBlockCompressed7SRGB, CU_AD_FORMAT_BC7_UNORM_SRGB, 4 },
   { cudaChannelFormatKindUnsignedNormalized1010102, CU_AD_FORMAT_UNORM_INT_101010_2, 4 },
   { cudaChannelFormatKindNV12, CU_AD_FORMAT_NV12, 3 },
};

/* Bits per channel of each fixed kind, for cudaArrayGetInfo. */
static void
fixed_kind_bits(CUarray_format format, int bits[4])
{
   int b = 8;
   switch (format) {
   case CU_AD_FORMAT_UNORM_INT16X1: case CU_AD_FORMAT_UNORM_INT16X2: case CU_AD_FORMAT_UNORM_INT16X4:
   case CU_AD_FORMAT_SNORM_INT16X1: case CU_AD_FORMAT_SNORM_INT16X2: case CU_AD_FORMAT_SNORM_INT16X4:
   case CU_AD_FORMAT_BC6H_UF16: case CU_AD_FORMAT_BC6H_SF16:
      b = 16;
      break;
   case CU_AD_FORMAT_UNORM_INT_101010_2:
      bits[0] = bits[1] = bits[2] = 10;
      bits[3] = 2;
      return;
   default:
      break;
   }
   for (int i = 0; i < 4; i++)
      bits[i] = bits[i] ? b : 0;
}

cudaError_t
cuvk_rt_format_from_desc(const struct cudaChannelFormatDesc *d, const char *entry, CUarray_format *format,
                 unsigned *channels)
{
   if (!d)
      return cuvk_rt_error(cudaErrorInvalidValue, "%s: channel descriptor is NULL", entry);
   for (unsigned i = 0; i < CUVK_ARRAY_SIZE(fixed_kinds); i++) {
      if (fixed_kinds[i].kind == d->f) {
         *format = fixed_kinds[i].format;
         *channels = fixed_kinds[i].channels;
         return cudaSuccess;
      }
   }

   /* Signed, unsigned, float: 1, 2 or 4 channels of one width. */
   const int bits[4] = { d->x, d->y, d->z, d->w };
   unsigned n = 0;
   while (n < 4 && bits[n] != 0)
      n++;
   bool uniform = n > 0;
   for (unsigned i = 0; i < 4; i++)
      uniform &= i < n ? bits[i] == bits[0] : bits[i] == 0;
   if (!uniform || n == 3)
      return cuvk_rt_error(cudaErrorInvalidChannelDescriptor,
                           "%s: channels of %d/%d/%d/%d bits do not make an array format", entry, d->x, d->y,
                           d->z, d->w);

   CUarray_format f = (CUarray_format)0;
   switch (d->f) {
   case cudaChannelFormatKindSigned:
      f = bits[0] == 8 ? CU_AD_FORMAT_SIGNED_INT8 : bits[0] == 16 ? CU_AD_FORMAT_SIGNED_INT16 :
          bits[0] == 32 ? CU_AD_FORMAT_SIGNED_INT32 : f;
      break;
   case cudaChannelFormatKindUnsigned:
      f = bits[0] == 8 ? CU_AD_FORMAT_UNSIGNED_INT8 : bits[0] == 16 ? CU_AD_FORMAT_UNSIGNED_INT16 :
          bits[0] == 32 ? CU_AD_FORMAT_UNSIGNED_INT32 : f;
      break;
   case cudaChannelFormatKindFloat:
      f = bits[0] == 16 ? CU_AD_FORMAT_HALF : bits[0] == 32 ? CU_AD_FORMAT_FLOAT : f;
      break;
   default:
      break;
   }
   if (!f)
      return cuvk_rt_error(cudaErrorInvalidChannelDescriptor, "%s: kind %d with %d-bit channels is not an "
                           "array format", entry, (int)d->f, bits[0]);
   *format = f;
   *channels = n;
   return cudaSuccess;
}

struct cudaChannelFormatDesc
cuvk_rt_desc_from_format(CUarray_format format, unsigned channels)
{
   struct cudaChannelFormatDesc d = { 0, 0, 0, 0, cudaChannelFormatKindNone };
   int bits[4] = { 0 };
   for (unsigned i = 0; i < channels && i < 4; i++)
      bits[i] = 1;

   for (unsigned i = 0; i < CUVK_ARRAY_SIZE(fixed_kinds); i++) {
      if (fixed_kinds[i].format == format) {
         d.f = fixed_kinds[i].kind;
         fixed_kind_bits(format, bits);
         d.x = bits[0];
         d.y = bits[1];
         d.z = bits[2];
         d.w = bits[3];
         return d;
      }
   }
   int b = 0;
   switch (format) {
   case CU_AD_FORMAT_SIGNED_INT8: d.f = cudaChannelFormatKindSigned; b = 8; break;
   case CU_AD_FORMAT_SIGNED_INT16: d.f = cudaChannelFormatKindSigned; b = 16; break;
   case CU_AD_FORMAT_SIGNED_INT32: d.f = cudaChannelFormatKindSigned; b = 32; break;
   case CU_AD_FORMAT_UNSIGNED_INT8: d.f = cudaChannelFormatKindUnsigned; b = 8; break;
   case CU_AD_FORMAT_UNSIGNED_INT16: d.f = cudaChannelFormatKindUnsigned; b = 16; break;
   case CU_AD_FORMAT_UNSIGNED_INT32: d.f = cudaChannelFormatKindUnsigned; b = 32; break;
   case CU_AD_FORMAT_HALF: d.f = cudaChannelFormatKindFloat; b = 16; break;
   case CU_AD_FORMAT_FLOAT: d.f = cudaChannelFormatKindFloat; b = 32; break;
   default: break;
   }
   d.x = bits[0] * b;
   d.y = bits[1] * b;
   d.z = bits[2] * b;
   d.w = bits[3] * b;
   return d;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
                  unsigned int flags)
{
   CUDA_ARRAY3D_DESCRIPTOR d = { extent.width, extent.height, extent.depth, (CUarray_format)0, 0, flags };
   cudaError_t err = cuvk_rt_context();
   if (err == cudaSuccess && !array)
      err = cuvk_rt_error(cudaErrorInvalidValue, "cudaMalloc3DArray: array is NULL");
   if (err == cudaSuccess)
      err = cuvk_rt_format_from_desc(desc, "cudaMalloc3DArray", &d.Format, &d.NumChannels);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuArray3DCreate_v2((CUarray *)array, &d));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width, size_t height,
                unsigned int flags)
{
   return cudaMalloc3DArray(array, desc, (struct cudaExtent){ width, height, 0 }, flags);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaFreeArray(cudaArray_t array)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   if (!array)
      return cudaSuccess;
   return cuvk_rt_return_cu(cuArrayDestroy((CUarray)array));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent, unsigned int *flags,
                 cudaArray_t array)
{
   CUDA_ARRAY3D_DESCRIPTOR d;
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   CUresult res = cuArray3DGetDescriptor_v2(&d, (CUarray)array);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_return_cu(res);
   if (desc)
      *desc = cuvk_rt_desc_from_format(d.Format, d.NumChannels);
   if (extent)
      *extent = (struct cudaExtent){ d.Width, d.Height, d.Depth };
   if (flags)
      *flags = d.Flags;
   return cudaSuccess;
}

CUVK_EXPORT struct cudaChannelFormatDesc CUDARTAPI
cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f)
{
   /* A plain constructor: CUDA checks the description where it is used. */
   return (struct cudaChannelFormatDesc){ x, y, z, w, f };
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
   CUDA_ARRAY3D_DESCRIPTOR d;
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   if (!desc)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaGetChannelDesc: desc is NULL"));
   CUresult res = cuArray3DGetDescriptor_v2(&d, (CUarray)array);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_return_cu(res);
   *desc = cuvk_rt_desc_from_format(d.Format, d.NumChannels);
   return cudaSuccess;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmap, const struct cudaChannelFormatDesc *desc,
                         struct cudaExtent extent, unsigned int levels, unsigned int flags)
{
   CUDA_ARRAY3D_DESCRIPTOR d = { extent.width, extent.height, extent.depth, (CUarray_format)0, 0, flags };
   cudaError_t err = cuvk_rt_context();
   if (err == cudaSuccess && !mipmap)
      err = cuvk_rt_error(cudaErrorInvalidValue, "cudaMallocMipmappedArray: mipmappedArray is NULL");
   if (err == cudaSuccess)
      err = cuvk_rt_format_from_desc(desc, "cudaMallocMipmappedArray", &d.Format, &d.NumChannels);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuMipmappedArrayCreate((CUmipmappedArray *)mipmap, &d, levels));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGetMipmappedArrayLevel(cudaArray_t *level_array, cudaMipmappedArray_const_t mipmap, unsigned int level)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuMipmappedArrayGetLevel((CUarray *)level_array,
                                                     (CUmipmappedArray)(uintptr_t)mipmap, level));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaFreeMipmappedArray(cudaMipmappedArray_t mipmap)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   if (!mipmap)
      return cudaSuccess;
   return cuvk_rt_return_cu(cuMipmappedArrayDestroy((CUmipmappedArray)mipmap));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaExternalMemoryGetMappedMipmappedArray(cudaMipmappedArray_t *mipmap, cudaExternalMemory_t ext,
                                          const struct cudaExternalMemoryMipmappedArrayDesc *desc)
{
   CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC d;
   const char *entry = "cudaExternalMemoryGetMappedMipmappedArray";
   cudaError_t err = cuvk_rt_context();
   if (err == cudaSuccess && (!mipmap || !desc))
      err = cuvk_rt_error(cudaErrorInvalidValue, "%s: NULL argument", entry);
   memset(&d, 0, sizeof(d));
   if (err == cudaSuccess)
      err = cuvk_rt_format_from_desc(&desc->formatDesc, entry, &d.arrayDesc.Format, &d.arrayDesc.NumChannels);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   d.offset = desc->offset;
   d.arrayDesc.Width = desc->extent.width;
   d.arrayDesc.Height = desc->extent.height;
   d.arrayDesc.Depth = desc->extent.depth;
   d.arrayDesc.Flags = desc->flags;
   d.numLevels = desc->numLevels;
   memcpy(d.reserved, desc->reserved, sizeof(d.reserved));
   return cuvk_rt_return_cu(cuExternalMemoryGetMappedMipmappedArray((CUmipmappedArray *)mipmap,
                                                                    (CUexternalMemory)ext, &d));
}

/* ---- Copies ---- */

/* The memory type of a linear side, as the kind names it.  As for
 * cudaMemcpy (memory.c), the kind only constrains the copy: a side it
 * calls "device" must be memory CUDA knows, and the driver refuses
 * anything else as CU_MEMORYTYPE_DEVICE; a "host" side may be any
 * pointer, device memory included, which CU_MEMORYTYPE_UNIFIED lets the
 * driver resolve (CU_MEMORYTYPE_HOST would refuse device memory). */
static CUmemorytype
side_type(enum cudaMemcpyKind kind, bool dst)
{
   switch (kind) {
   case cudaMemcpyHostToDevice:
      return dst ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_UNIFIED;
   case cudaMemcpyDeviceToHost:
      return dst ? CU_MEMORYTYPE_UNIFIED : CU_MEMORYTYPE_DEVICE;
   case cudaMemcpyDeviceToDevice:
      return CU_MEMORYTYPE_DEVICE;
   default:
      return CU_MEMORYTYPE_UNIFIED;
   }
}

static cudaError_t
check_kind(enum cudaMemcpyKind kind, const char *entry)
{
   if ((unsigned)kind > cudaMemcpyDefault)
      return cuvk_rt_error(cudaErrorInvalidMemcpyDirection, "%s: %d is not a cudaMemcpyKind", entry, (int)kind);
   return cudaSuccess;
}

static void
linear_side(const void *ptr, enum cudaMemcpyKind kind, bool dst, CUmemorytype *type, const void **host,
            CUdeviceptr *device)
{
   *type = side_type(kind, dst);
   if (*type == CU_MEMORYTYPE_HOST)
      *host = ptr;
   else
      *device = (CUdeviceptr)(uintptr_t)ptr;
}

/* The largest pitch a 2D copy takes: CU_DEVICE_ATTRIBUTE_MAX_PITCH. */
#define RT_MAX_PITCH ((size_t)INT32_MAX)

/* A 2D copy as the runtime checks it before the driver sees it: the kind,
 * then nothing to do for an empty region (as cudaMemcpy with 0 bytes),
 * then each linear side's pitch, which must hold a row of the copy and
 * not pass the device's maximum (cudaErrorInvalidPitchValue, as CUDA
 * documents for these calls). */
static cudaError_t
memcpy2d(const CUDA_MEMCPY2D *p, enum cudaMemcpyKind kind, cudaStream_t stream, bool async, const char *entry)
{
   cudaError_t err = check_kind(kind, entry);
   if (err != cudaSuccess)
      return err;
   if (p->WidthInBytes == 0 || p->Height == 0)
      return cudaSuccess;
   err = cuvk_rt_context();
   if (err != cudaSuccess)
      return err;
   if (p->srcMemoryType != CU_MEMORYTYPE_ARRAY && (p->srcPitch < p->WidthInBytes || p->srcPitch > RT_MAX_PITCH))
      return cuvk_rt_error(cudaErrorInvalidPitchValue, "%s: source pitch %zu for rows of %zu bytes", entry,
                           p->srcPitch, p->WidthInBytes);
   if (p->dstMemoryType != CU_MEMORYTYPE_ARRAY && (p->dstPitch < p->WidthInBytes || p->dstPitch > RT_MAX_PITCH))
      return cuvk_rt_error(cudaErrorInvalidPitchValue, "%s: destination pitch %zu for rows of %zu bytes", entry,
                           p->dstPitch, p->WidthInBytes);
   return cuvk_rt_from_cu(async ? cuMemcpy2DAsync_v2(p, stream) : cuMemcpy2D_v2(p));
}

static cudaError_t
memcpy2d_linear(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                enum cudaMemcpyKind kind, cudaStream_t stream, bool async, const char *entry)
{
   CUDA_MEMCPY2D p;
   const void *host = NULL;
   memset(&p, 0, sizeof(p));
   linear_side(src, kind, false, &p.srcMemoryType, &p.srcHost, &p.srcDevice);
   p.srcPitch = spitch;
   linear_side(dst, kind, true, &p.dstMemoryType, &host, &p.dstDevice);
   p.dstHost = (void *)(uintptr_t)host;
   p.dstPitch = dpitch;
   p.WidthInBytes = width;
   p.Height = height;
   return memcpy2d(&p, kind, stream, async, entry);
}

static cudaError_t
memcpy2d_to_array(cudaArray_t dst, size_t w_offset, size_t h_offset, const void *src, size_t spitch,
                  size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream, bool async,
                  const char *entry)
{
   CUDA_MEMCPY2D p;
   memset(&p, 0, sizeof(p));
   linear_side(src, kind, false, &p.srcMemoryType, &p.srcHost, &p.srcDevice);
   p.srcPitch = spitch;
   p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
   p.dstArray = (CUarray)dst;
   p.dstXInBytes = w_offset;
   p.dstY = h_offset;
   p.WidthInBytes = width;
   p.Height = height;
   return memcpy2d(&p, kind, stream, async, entry);
}

static cudaError_t
memcpy2d_from_array(void *dst, size_t dpitch, cudaArray_const_t src, size_t w_offset, size_t h_offset,
                    size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream, bool async,
                    const char *entry)
{
   CUDA_MEMCPY2D p;
   const void *host = NULL;
   memset(&p, 0, sizeof(p));
   p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
   p.srcArray = (CUarray)(uintptr_t)src;
   p.srcXInBytes = w_offset;
   p.srcY = h_offset;
   linear_side(dst, kind, true, &p.dstMemoryType, &host, &p.dstDevice);
   p.dstHost = (void *)(uintptr_t)host;
   p.dstPitch = dpitch;
   p.WidthInBytes = width;
   p.Height = height;
   return memcpy2d(&p, kind, stream, async, entry);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
             enum cudaMemcpyKind kind)
{
   return cuvk_rt_return(memcpy2d_linear(dst, dpitch, src, spitch, width, height, kind, NULL, false,
                                         "cudaMemcpy2D"));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                  enum cudaMemcpyKind kind, cudaStream_t stream)
{
   return cuvk_rt_return(memcpy2d_linear(dst, dpitch, src, spitch, width, height, kind, stream, true,
                                         "cudaMemcpy2DAsync"));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy2DToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void *src, size_t spitch,
                    size_t width, size_t height, enum cudaMemcpyKind kind)
{
   return cuvk_rt_return(memcpy2d_to_array(dst, w_offset, h_offset, src, spitch, width, height, kind, NULL,
                                           false, "cudaMemcpy2DToArray"));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t w_offset, size_t h_offset, const void *src, size_t spitch,
                         size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
   return cuvk_rt_return(memcpy2d_to_array(dst, w_offset, h_offset, src, spitch, width, height, kind, stream,
                                           true, "cudaMemcpy2DToArrayAsync"));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t w_offset, size_t h_offset,
                      size_t width, size_t height, enum cudaMemcpyKind kind)
{
   return cuvk_rt_return(memcpy2d_from_array(dst, dpitch, src, w_offset, h_offset, width, height, kind, NULL,
                                             false, "cudaMemcpy2DFromArray"));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t w_offset, size_t h_offset,
                           size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
   return cuvk_rt_return(memcpy2d_from_array(dst, dpitch, src, w_offset, h_offset, width, height, kind, stream,
                                             true, "cudaMemcpy2DFromArrayAsync"));
}

/* The bytes in a row of an array and its rows, for the byte-count copies. */
static cudaError_t
array_rows(cudaArray_const_t array, const char *entry, uint64_t *row, uint64_t *rows)
{
   struct cuvk_array *a;
   CUresult res = cuvk_array_get((CUarray)(uintptr_t)array, entry, &a);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_from_cu(res);
   *row = a->row_elems * a->img->elem_size;
   *rows = a->rows;
   cuvk_array_put(a);
   return cudaSuccess;
}

/* Whether count bytes from byte w_offset of row h_offset stay inside an
 * array of rows rows of row bytes; *start is the first byte's index.  A
 * w_offset past the row is a byte of a later row, as NVIDIA's runtime
 * takes it (measured on an H100). */
static bool
byte_range_fits(uint64_t row, uint64_t rows, size_t w_offset, size_t h_offset, size_t count, uint64_t *start)
{
   uint64_t end;
   return !__builtin_mul_overflow((uint64_t)h_offset, row, start) &&
          !__builtin_add_overflow(*start, (uint64_t)w_offset, start) &&
          !__builtin_add_overflow(*start, (uint64_t)count, &end) && end <= row * rows;
}

/*
 * cudaMemcpyToArray/FromArray (deprecated, still exported): count bytes
 * of the array read row after row from byte w_offset of row h_offset, so
 * a copy may run on into the following rows, and a w_offset past the row
 * is a position in a later row (NVIDIA's runtime takes w_offset 64 of a
 * 64-byte row as the next row's first byte: measured on an H100).  It becomes at most three
 * 2D copies on one stream: the rest of the first row, the whole rows,
 * what is left of the last.  The whole range is checked against the
 * array first, so a copy that does not fit changes nothing.
 */
static cudaError_t
memcpy_array_bytes(cudaArray_t array, size_t w_offset, size_t h_offset, void *linear, size_t count,
                   enum cudaMemcpyKind kind, bool to_array, cudaStream_t stream, bool async, const char *entry)
{
   cudaError_t err = check_kind(kind, entry);
   if (err != cudaSuccess)
      return err;
   if (count == 0)
      return cudaSuccess;
   err = cuvk_rt_context();
   if (err != cudaSuccess)
      return err;
   uint64_t row = 0, rows = 0, start = 0;
   err = array_rows(array, entry, &row, &rows);
   if (err != cudaSuccess)
      return err;
   if (!byte_range_fits(row, rows, w_offset, h_offset, count, &start))
      return cuvk_rt_error(cudaErrorInvalidValue,
                           "%s: %zu bytes from byte %zu of row %zu run past the array's %llu rows of %llu bytes",
                           entry, count, w_offset, h_offset, (unsigned long long)rows, (unsigned long long)row);

   size_t x = (size_t)(start % row), y = (size_t)(start / row), done = 0;
   while (done < count && err == cudaSuccess) {
      size_t width, height;
      if (x != 0 || count - done < row) {
         width = CUVK_MIN(count - done, row - x);   /* part of one row */
         height = 1;
      } else {
         width = row;                                /* whole rows */
         height = (count - done) / row;
      }
      char *l = (char *)linear + done;
      if (to_array)
         err = memcpy2d_to_array(array, x, y, l, width, width, height, kind, stream, async, entry);
      else
         err = memcpy2d_from_array(l, width, array, x, y, width, height, kind, stream, async, entry);
      done += width * height;
      x = (x + width) % row;
      y += x == 0 ? height : 0;
   }
   return err;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void *src, size_t count,
                  enum cudaMemcpyKind kind)
{
   return cuvk_rt_return(memcpy_array_bytes(dst, w_offset, h_offset, (void *)(uintptr_t)src, count, kind, true,
                                            NULL, false, "cudaMemcpyToArray"));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyToArrayAsync(cudaArray_t dst, size_t w_offset, size_t h_offset, const void *src, size_t count,
                       enum cudaMemcpyKind kind, cudaStream_t stream)
{
   return cuvk_rt_return(memcpy_array_bytes(dst, w_offset, h_offset, (void *)(uintptr_t)src, count, kind, true,
                                            stream, true, "cudaMemcpyToArrayAsync"));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t w_offset, size_t h_offset, size_t count,
                    enum cudaMemcpyKind kind)
{
   return cuvk_rt_return(memcpy_array_bytes((cudaArray_t)(uintptr_t)src, w_offset, h_offset, dst, count, kind,
                                            false, NULL, false, "cudaMemcpyFromArray"));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t w_offset, size_t h_offset, size_t count,
                         enum cudaMemcpyKind kind, cudaStream_t stream)
{
   return cuvk_rt_return(memcpy_array_bytes((cudaArray_t)(uintptr_t)src, w_offset, h_offset, dst, count, kind,
                                            false, stream, true, "cudaMemcpyFromArrayAsync"));
}

/*
 * cudaMemcpyArrayToArray (deprecated, still exported): count bytes, read
 * from the source as cudaMemcpyFromArray reads them and written to the
 * destination as cudaMemcpyToArray writes them, each side running on
 * across its own rows.  Both ranges are checked first, so a copy that
 * does not fit changes nothing.  It becomes 2D copies on the driver's
 * array-to-array path: whole rows at once where both sides start a row
 * and their rows are as long, else the longest piece that ends neither
 * side's row (arrays of different widths take about two copies a row).
 */
static cudaError_t
memcpy_array_to_array(cudaArray_t dst, size_t dst_x, size_t dst_y, cudaArray_const_t src, size_t src_x,
                      size_t src_y, size_t count, enum cudaMemcpyKind kind, const char *entry)
{
   cudaError_t err = check_kind(kind, entry);
   if (err != cudaSuccess)
      return err;
   if (count == 0)
      return cudaSuccess;
   err = cuvk_rt_context();
   if (err != cudaSuccess)
      return err;
   uint64_t srow = 0, srows = 0, drow = 0, drows = 0, spos = 0, dpos = 0;
   if ((err = array_rows(src, entry, &srow, &srows)) != cudaSuccess ||
       (err = array_rows(dst, entry, &drow, &drows)) != cudaSuccess)
      return err;
   if (!byte_range_fits(srow, srows, src_x, src_y, count, &spos))
      return cuvk_rt_error(cudaErrorInvalidValue,
                           "%s: %zu bytes from byte %zu of row %zu run past the source's %llu rows of %llu bytes",
                           entry, count, src_x, src_y, (unsigned long long)srows, (unsigned long long)srow);
   if (!byte_range_fits(drow, drows, dst_x, dst_y, count, &dpos))
      return cuvk_rt_error(cudaErrorInvalidValue,
                           "%s: %zu bytes to byte %zu of row %zu run past the destination's %llu rows of %llu bytes",
                           entry, count, dst_x, dst_y, (unsigned long long)drows, (unsigned long long)drow);

   for (size_t done = 0; done < count && err == cudaSuccess;) {
      uint64_t sx = spos % srow, dx = dpos % drow, left = count - done;
      uint64_t width = left, height = 1;
      if (sx == 0 && dx == 0 && srow == drow && left >= srow) {
         width = srow;
         height = left / srow;
      } else {
         width = CUVK_MIN(CUVK_MIN(width, srow - sx), drow - dx);
      }
      CUDA_MEMCPY2D p;
      memset(&p, 0, sizeof(p));
      p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
      p.srcArray = (CUarray)(uintptr_t)src;
      p.srcXInBytes = sx;
      p.srcY = spos / srow;
      p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
      p.dstArray = (CUarray)dst;
      p.dstXInBytes = dx;
      p.dstY = dpos / drow;
      p.WidthInBytes = width;
      p.Height = height;
      err = memcpy2d(&p, kind, NULL, false, entry);
      done += width * height;
      spos += width * height;
      dpos += width * height;
   }
   return err;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyArrayToArray(cudaArray_t dst, size_t w_offset_dst, size_t h_offset_dst, cudaArray_const_t src,
                       size_t w_offset_src, size_t h_offset_src, size_t count, enum cudaMemcpyKind kind)
{
   return cuvk_rt_return(memcpy_array_to_array(dst, w_offset_dst, h_offset_dst, src, w_offset_src, h_offset_src,
                                               count, kind, "cudaMemcpyArrayToArray"));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t w_offset_dst, size_t h_offset_dst, cudaArray_const_t src,
                         size_t w_offset_src, size_t h_offset_src, size_t width, size_t height,
                         enum cudaMemcpyKind kind)
{
   CUDA_MEMCPY2D p;
   memset(&p, 0, sizeof(p));
   p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
   p.srcArray = (CUarray)(uintptr_t)src;
   p.srcXInBytes = w_offset_src;
   p.srcY = h_offset_src;
   p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
   p.dstArray = (CUarray)dst;
   p.dstXInBytes = w_offset_dst;
   p.dstY = h_offset_dst;
   p.WidthInBytes = width;
   p.Height = height;
   return cuvk_rt_return(memcpy2d(&p, kind, NULL, false, "cudaMemcpy2DArrayToArray"));
}

/* Bytes per element of an array, for positions and extents given in
 * elements. */
static cudaError_t
array_elem(cudaArray_t array, const char *entry, size_t *elem)
{
   struct cuvk_array *a;
   CUresult res = cuvk_array_get((CUarray)array, entry, &a);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_from_cu(res);
   *elem = a->img->elem_size;
   cuvk_array_put(a);
   return cudaSuccess;
}

cudaError_t
cuvk_rt_memcpy3d_desc(const struct cudaMemcpy3DParms *p, const char *entry, CUDA_MEMCPY3D *out)
{
   CUDA_MEMCPY3D d;
   size_t selem = 1, delem = 1;

   if (!p)
      return cuvk_rt_error(cudaErrorInvalidValue, "%s: p is NULL", entry);
   cudaError_t err = check_kind(p->kind, entry);
   if (err != cudaSuccess)
      return err;
   if (!p->srcArray == !p->srcPtr.ptr || !p->dstArray == !p->dstPtr.ptr)
      return cuvk_rt_error(cudaErrorInvalidValue, "%s: each side needs exactly one of an array and a pointer",
                           entry);
   if (p->srcArray && (err = array_elem(p->srcArray, entry, &selem)) != cudaSuccess)
      return err;
   if (p->dstArray && (err = array_elem(p->dstArray, entry, &delem)) != cudaSuccess)
      return err;

   /* The extent counts elements of the array that takes part (the
    * source's when both do), bytes otherwise. */
   size_t elem = p->srcArray ? selem : delem;
   memset(&d, 0, sizeof(d));
   if (p->srcArray) {
      d.srcMemoryType = CU_MEMORYTYPE_ARRAY;
      d.srcArray = (CUarray)p->srcArray;
   } else {
      linear_side(p->srcPtr.ptr, p->kind, false, &d.srcMemoryType, &d.srcHost, &d.srcDevice);
      d.srcPitch = p->srcPtr.pitch;
      d.srcHeight = p->srcPtr.ysize;
   }
   if (p->dstArray) {
      d.dstMemoryType = CU_MEMORYTYPE_ARRAY;
      d.dstArray = (CUarray)p->dstArray;
   } else {
      const void *host = NULL;
      linear_side(p->dstPtr.ptr, p->kind, true, &d.dstMemoryType, &host, &d.dstDevice);
      d.dstHost = (void *)(uintptr_t)host;
      d.dstPitch = p->dstPtr.pitch;
      d.dstHeight = p->dstPtr.ysize;
   }
   d.srcXInBytes = p->srcPos.x * selem;
   d.srcY = p->srcPos.y;
   d.srcZ = p->srcPos.z;
   d.dstXInBytes = p->dstPos.x * delem;
   d.dstY = p->dstPos.y;
   d.dstZ = p->dstPos.z;
   d.WidthInBytes = p->extent.width * elem;
   d.Height = p->extent.height;
   d.Depth = p->extent.depth;
   *out = d;
   return cudaSuccess;
}

static cudaError_t
memcpy3d(const struct cudaMemcpy3DParms *p, cudaStream_t stream, bool async, const char *entry)
{
   CUDA_MEMCPY3D d;
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return err;
   err = cuvk_rt_memcpy3d_desc(p, entry, &d);
   if (err != cudaSuccess)
      return err;
   return cuvk_rt_from_cu(async ? cuMemcpy3DAsync_v2(&d, stream) : cuMemcpy3D_v2(&d));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
   return cuvk_rt_return(memcpy3d(p, NULL, false, "cudaMemcpy3D"));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
   return cuvk_rt_return(memcpy3d(p, stream, true, "cudaMemcpy3DAsync"));
}

/* Per-thread default stream forms: one submission order per context
 * makes them the same calls (NULL on a _ptsz call is the thread's
 * stream). */

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t w_offset, size_t h_offset, const void *src, size_t spitch,
                         size_t width, size_t height, enum cudaMemcpyKind kind)
{
   return cudaMemcpy2DToArray(dst, w_offset, h_offset, src, spitch, width, height, kind);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src, size_t w_offset, size_t h_offset,
                           size_t width, size_t height, enum cudaMemcpyKind kind)
{
   return cudaMemcpy2DFromArray(dst, dpitch, src, w_offset, h_offset, width, height, kind);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t w_offset_dst, size_t h_offset_dst, cudaArray_const_t src,
                              size_t w_offset_src, size_t h_offset_src, size_t width, size_t height,
                              enum cudaMemcpyKind kind)
{
   return cudaMemcpy2DArrayToArray(dst, w_offset_dst, h_offset_dst, src, w_offset_src, h_offset_src, width,
                                   height, kind);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p)
{
   return cudaMemcpy3D(p);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
   return cudaMemcpy3DAsync(p, stream ? stream : cudaStreamPerThread);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                  enum cudaMemcpyKind kind)
{
   return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                       enum cudaMemcpyKind kind, cudaStream_t stream)
{
   return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, stream ? stream : cudaStreamPerThread);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t w_offset, size_t h_offset, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
   return cudaMemcpy2DToArrayAsync(dst, w_offset, h_offset, src, spitch, width, height, kind,
                                   stream ? stream : cudaStreamPerThread);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src, size_t w_offset,
                                size_t h_offset, size_t width, size_t height, enum cudaMemcpyKind kind,
                                cudaStream_t stream)
{
   return cudaMemcpy2DFromArrayAsync(dst, dpitch, src, w_offset, h_offset, width, height, kind,
                                     stream ? stream : cudaStreamPerThread);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t w_offset_dst, size_t h_offset_dst, cudaArray_const_t src,
                            size_t w_offset_src, size_t h_offset_src, size_t count, enum cudaMemcpyKind kind)
{
   return cudaMemcpyArrayToArray(dst, w_offset_dst, h_offset_dst, src, w_offset_src, h_offset_src, count, kind);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyToArray_ptds(cudaArray_t dst, size_t w_offset, size_t h_offset, const void *src, size_t count,
                       enum cudaMemcpyKind kind)
{
   return cudaMemcpyToArray(dst, w_offset, h_offset, src, count, kind);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t w_offset, size_t h_offset, const void *src, size_t count,
                            enum cudaMemcpyKind kind, cudaStream_t stream)
{
   return cudaMemcpyToArrayAsync(dst, w_offset, h_offset, src, count, kind, stream ? stream : cudaStreamPerThread);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t w_offset, size_t h_offset, size_t count,
                         enum cudaMemcpyKind kind)
{
   return cudaMemcpyFromArray(dst, src, w_offset, h_offset, count, kind);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src, size_t w_offset, size_t h_offset, size_t count,
                              enum cudaMemcpyKind kind, cudaStream_t stream)
{
   return cudaMemcpyFromArrayAsync(dst, src, w_offset, h_offset, count, kind,
                                   stream ? stream : cudaStreamPerThread);
}
