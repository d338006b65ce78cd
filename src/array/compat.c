/*
 * The other names NVIDIA's ABI has for the array calls (see
 * src/cuda_api/compat.c for the scheme).
 *
 * Per-thread default stream forms forward unchanged: every stream of a
 * context shares one submission order.  Legacy plain names take 32-bit
 * sizes and the v1 descriptors; they are widened and forwarded, except
 * where they carry a 32-bit device address, which cannot name cuvk's
 * memory: those return CUDA_ERROR_NOT_SUPPORTED.
 */
#include <stdbool.h>
#include <cuda.h>

#include "util/error.h"
#include "util/macros.h"

static CUstream
ptsz(CUstream stream)
{
   return stream ? stream : CU_STREAM_PER_THREAD;
}

static CUresult
legacy_32bit(const char *entry)
{
   return cuvk_error(CUDA_ERROR_NOT_SUPPORTED,
                     "%s: the 32-bit device-address ABI of CUDA before 3.2 is not supported; "
                     "rebuild against a current cuda.h", entry);
}

/* ---- Per-thread default stream ---- */

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyDtoA_v2_ptds(CUarray dst, size_t off, CUdeviceptr src, size_t n)
{
   return cuMemcpyDtoA_v2(dst, off, src, n);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyAtoD_v2_ptds(CUdeviceptr dst, CUarray src, size_t off, size_t n)
{
   return cuMemcpyAtoD_v2(dst, src, off, n);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyHtoA_v2_ptds(CUarray dst, size_t off, const void *src, size_t n)
{
   return cuMemcpyHtoA_v2(dst, off, src, n);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyAtoH_v2_ptds(void *dst, CUarray src, size_t off, size_t n)
{
   return cuMemcpyAtoH_v2(dst, src, off, n);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyAtoA_v2_ptds(CUarray dst, size_t doff, CUarray src, size_t soff, size_t n)
{
   return cuMemcpyAtoA_v2(dst, doff, src, soff, n);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *p)
{
   return cuMemcpy2D_v2(p);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *p)
{
   return cuMemcpy2DUnaligned_v2(p);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *p)
{
   return cuMemcpy3D_v2(p);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyHtoAAsync_v2_ptsz(CUarray dst, size_t off, const void *src, size_t n, CUstream s)
{
   return cuMemcpyHtoAAsync_v2(dst, off, src, n, ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyAtoHAsync_v2_ptsz(void *dst, CUarray src, size_t off, size_t n, CUstream s)
{
   return cuMemcpyAtoHAsync_v2(dst, src, off, n, ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *p, CUstream s)
{
   return cuMemcpy2DAsync_v2(p, ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *p, CUstream s)
{
   return cuMemcpy3DAsync_v2(p, ptsz(s));
}

/* ---- Legacy 32-bit names ---- */

CUVK_EXPORT CUresult CUDAAPI
cuArrayCreate(CUarray *handle, const CUDA_ARRAY_DESCRIPTOR_v1 *desc)
{
   if (!desc)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuArrayCreate: descriptor is NULL");
   CUDA_ARRAY_DESCRIPTOR d = { desc->Width, desc->Height, desc->Format, desc->NumChannels };
   return cuArrayCreate_v2(handle, &d);
}

CUVK_EXPORT CUresult CUDAAPI
cuArray3DCreate(CUarray *handle, const CUDA_ARRAY3D_DESCRIPTOR_v1 *desc)
{
   if (!desc)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuArray3DCreate: descriptor is NULL");
   CUDA_ARRAY3D_DESCRIPTOR d = {
      desc->Width, desc->Height, desc->Depth, desc->Format, desc->NumChannels, desc->Flags,
   };
   return cuArray3DCreate_v2(handle, &d);
}

/* Array extents never pass 32 bits (cuvk_array_geometry), so the narrow
 * descriptors hold them. */
CUVK_EXPORT CUresult CUDAAPI
cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR_v1 *out, CUarray handle)
{
   CUDA_ARRAY_DESCRIPTOR d;
   if (!out)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuArrayGetDescriptor: descriptor is NULL");
   CUresult res = cuArrayGetDescriptor_v2(&d, handle);
   if (res == CUDA_SUCCESS)
      *out = (CUDA_ARRAY_DESCRIPTOR_v1){ (unsigned)d.Width, (unsigned)d.Height, d.Format, d.NumChannels };
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR_v1 *out, CUarray handle)
{
   CUDA_ARRAY3D_DESCRIPTOR d;
   if (!out)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuArray3DGetDescriptor: descriptor is NULL");
   CUresult res = cuArray3DGetDescriptor_v2(&d, handle);
   if (res == CUDA_SUCCESS)
      *out = (CUDA_ARRAY3D_DESCRIPTOR_v1){
         (unsigned)d.Width, (unsigned)d.Height, (unsigned)d.Depth, d.Format, d.NumChannels, d.Flags,
      };
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyHtoA(CUarray dst, unsigned int off, const void *src, unsigned int n)
{
   return cuMemcpyHtoA_v2(dst, off, src, n);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyAtoH(void *dst, CUarray src, unsigned int off, unsigned int n)
{
   return cuMemcpyAtoH_v2(dst, src, off, n);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyAtoA(CUarray dst, unsigned int doff, CUarray src, unsigned int soff, unsigned int n)
{
   return cuMemcpyAtoA_v2(dst, doff, src, soff, n);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyHtoAAsync(CUarray dst, unsigned int off, const void *src, unsigned int n, CUstream s)
{
   return cuMemcpyHtoAAsync_v2(dst, off, src, n, s);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyAtoHAsync(void *dst, CUarray src, unsigned int off, unsigned int n, CUstream s)
{
   return cuMemcpyAtoHAsync_v2(dst, src, off, n, s);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyDtoA(CUarray dst, unsigned int off, CUdeviceptr_v1 src, unsigned int n)
{
   return legacy_32bit("cuMemcpyDtoA");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyAtoD(CUdeviceptr_v1 dst, CUarray src, unsigned int off, unsigned int n)
{
   return legacy_32bit("cuMemcpyAtoD");
}

/* The v1 copy descriptors: host and array sides widen; a device side is a
 * 32-bit address. */
static bool
legacy_type_ok(CUmemorytype type)
{
   return type != CU_MEMORYTYPE_DEVICE && type != CU_MEMORYTYPE_UNIFIED;
}

static CUresult
widen_2d(const CUDA_MEMCPY2D_v1 *p, const char *entry, CUDA_MEMCPY2D *out)
{
   if (!p)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: pCopy is NULL", entry);
   if (!legacy_type_ok(p->srcMemoryType) || !legacy_type_ok(p->dstMemoryType))
      return legacy_32bit(entry);
   *out = (CUDA_MEMCPY2D){
      .srcXInBytes = p->srcXInBytes, .srcY = p->srcY, .srcMemoryType = p->srcMemoryType,
      .srcHost = p->srcHost, .srcArray = p->srcArray, .srcPitch = p->srcPitch,
      .dstXInBytes = p->dstXInBytes, .dstY = p->dstY, .dstMemoryType = p->dstMemoryType,
      .dstHost = p->dstHost, .dstArray = p->dstArray, .dstPitch = p->dstPitch,
      .WidthInBytes = p->WidthInBytes, .Height = p->Height,
   };
   return CUDA_SUCCESS;
}

static CUresult
widen_3d(const CUDA_MEMCPY3D_v1 *p, const char *entry, CUDA_MEMCPY3D *out)
{
   if (!p)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: pCopy is NULL", entry);
   if (!legacy_type_ok(p->srcMemoryType) || !legacy_type_ok(p->dstMemoryType))
      return legacy_32bit(entry);
   *out = (CUDA_MEMCPY3D){
      .srcXInBytes = p->srcXInBytes, .srcY = p->srcY, .srcZ = p->srcZ, .srcLOD = p->srcLOD,
      .srcMemoryType = p->srcMemoryType, .srcHost = p->srcHost, .srcArray = p->srcArray,
      .reserved0 = p->reserved0, .srcPitch = p->srcPitch, .srcHeight = p->srcHeight,
      .dstXInBytes = p->dstXInBytes, .dstY = p->dstY, .dstZ = p->dstZ, .dstLOD = p->dstLOD,
      .dstMemoryType = p->dstMemoryType, .dstHost = p->dstHost, .dstArray = p->dstArray,
      .reserved1 = p->reserved1, .dstPitch = p->dstPitch, .dstHeight = p->dstHeight,
      .WidthInBytes = p->WidthInBytes, .Height = p->Height, .Depth = p->Depth,
   };
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpy2D(const CUDA_MEMCPY2D_v1 *p)
{
   CUDA_MEMCPY2D d;
   CUresult res = widen_2d(p, "cuMemcpy2D", &d);
   return res == CUDA_SUCCESS ? cuMemcpy2D_v2(&d) : res;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpy2DUnaligned(const CUDA_MEMCPY2D_v1 *p)
{
   CUDA_MEMCPY2D d;
   CUresult res = widen_2d(p, "cuMemcpy2DUnaligned", &d);
   return res == CUDA_SUCCESS ? cuMemcpy2DUnaligned_v2(&d) : res;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpy2DAsync(const CUDA_MEMCPY2D_v1 *p, CUstream s)
{
   CUDA_MEMCPY2D d;
   CUresult res = widen_2d(p, "cuMemcpy2DAsync", &d);
   return res == CUDA_SUCCESS ? cuMemcpy2DAsync_v2(&d, s) : res;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpy3D(const CUDA_MEMCPY3D_v1 *p)
{
   CUDA_MEMCPY3D d;
   CUresult res = widen_3d(p, "cuMemcpy3D", &d);
   return res == CUDA_SUCCESS ? cuMemcpy3D_v2(&d) : res;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpy3DAsync(const CUDA_MEMCPY3D_v1 *p, CUstream s)
{
   CUDA_MEMCPY3D d;
   CUresult res = widen_3d(p, "cuMemcpy3DAsync", &d);
   return res == CUDA_SUCCESS ? cuMemcpy3DAsync_v2(&d, s) : res;
}
