/*
 * Runtime texture and surface objects: cudaCreateTextureObject and its
 * Destroy and Get* twins, and cudaCreateSurfaceObject likewise, on the
 * driver's cuTexObject* and cuSurfObject* (src/cuda_api/texture_desc.h
 * checks the descriptions).  The channel descriptions are array.c's.
 *
 * The runtime's descriptions differ from the driver's in two ways: linear
 * and pitched resources name their format with a cudaChannelFormatDesc,
 * and the texture description spells the driver's CU_TRSF_* flags out as
 * fields (readMode, sRGB, normalizedCoords, ...).  Both are converted
 * here, both ways, so the Get* calls return what Create got.
 */
#include "runtime/runtime.h"

#include <string.h>

#include "util/macros.h"

/* The runtime's enums take the driver's values. */
_Static_assert((int)cudaResourceTypeArray == (int)CU_RESOURCE_TYPE_ARRAY &&
               (int)cudaResourceTypeMipmappedArray == (int)CU_RESOURCE_TYPE_MIPMAPPED_ARRAY &&
               (int)cudaResourceTypeLinear == (int)CU_RESOURCE_TYPE_LINEAR &&
               (int)cudaResourceTypePitch2D == (int)CU_RESOURCE_TYPE_PITCH2D,
               "runtime and driver resource types differ");
_Static_assert((int)cudaAddressModeWrap == (int)CU_TR_ADDRESS_MODE_WRAP &&
               (int)cudaAddressModeClamp == (int)CU_TR_ADDRESS_MODE_CLAMP &&
               (int)cudaAddressModeMirror == (int)CU_TR_ADDRESS_MODE_MIRROR &&
               (int)cudaAddressModeBorder == (int)CU_TR_ADDRESS_MODE_BORDER,
               "runtime and driver address modes differ");
_Static_assert((int)cudaFilterModePoint == (int)CU_TR_FILTER_MODE_POINT &&
               (int)cudaFilterModeLinear == (int)CU_TR_FILTER_MODE_LINEAR,
               "runtime and driver filter modes differ");
_Static_assert((int)cudaResViewFormatUnsignedBlockCompressed7 == (int)CU_RES_VIEW_FORMAT_UNSIGNED_BC7 &&
               (int)cudaResViewFormatFloat4 == (int)CU_RES_VIEW_FORMAT_FLOAT_4X32,
               "runtime and driver view formats differ");

static cudaError_t
resource_to_driver(const struct cudaResourceDesc *in, const char *entry, CUDA_RESOURCE_DESC *out)
{
   cudaError_t err;
   if (!in)
      return cuvk_rt_error(cudaErrorInvalidValue, "%s: resource description is NULL", entry);
   memset(out, 0, sizeof(*out));
   out->resType = (CUresourcetype)in->resType;
   out->flags = in->flags;
   switch (in->resType) {
   case cudaResourceTypeArray:
      out->res.array.hArray = (CUarray)in->res.array.array;
      break;
   case cudaResourceTypeMipmappedArray:
      out->res.mipmap.hMipmappedArray = (CUmipmappedArray)in->res.mipmap.mipmap;
      break;
   case cudaResourceTypeLinear:
      err = cuvk_rt_format_from_desc(&in->res.linear.desc, entry, &out->res.linear.format,
                                     &out->res.linear.numChannels);
      if (err != cudaSuccess)
         return err;
      out->res.linear.devPtr = (CUdeviceptr)(uintptr_t)in->res.linear.devPtr;
      out->res.linear.sizeInBytes = in->res.linear.sizeInBytes;
      break;
   case cudaResourceTypePitch2D:
      err = cuvk_rt_format_from_desc(&in->res.pitch2D.desc, entry, &out->res.pitch2D.format,
                                     &out->res.pitch2D.numChannels);
      if (err != cudaSuccess)
         return err;
      out->res.pitch2D.devPtr = (CUdeviceptr)(uintptr_t)in->res.pitch2D.devPtr;
      out->res.pitch2D.width = in->res.pitch2D.width;
      out->res.pitch2D.height = in->res.pitch2D.height;
      out->res.pitch2D.pitchInBytes = in->res.pitch2D.pitchInBytes;
      break;
   default:
      return cuvk_rt_error(cudaErrorInvalidValue, "%s: 0x%x is not a cudaResourceType", entry,
                           (unsigned)in->resType);
   }
   return cudaSuccess;
}

static void
resource_from_driver(const CUDA_RESOURCE_DESC *in, struct cudaResourceDesc *out)
{
   memset(out, 0, sizeof(*out));
   out->resType = (enum cudaResourceType)in->resType;
   out->flags = in->flags;
   switch (in->resType) {
   case CU_RESOURCE_TYPE_ARRAY:
      out->res.array.array = (cudaArray_t)in->res.array.hArray;
      break;
   case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
      out->res.mipmap.mipmap = (cudaMipmappedArray_t)in->res.mipmap.hMipmappedArray;
      break;
   case CU_RESOURCE_TYPE_LINEAR:
      out->res.linear.devPtr = (void *)(uintptr_t)in->res.linear.devPtr;
      out->res.linear.desc = cuvk_rt_desc_from_format(in->res.linear.format, in->res.linear.numChannels);
      out->res.linear.sizeInBytes = in->res.linear.sizeInBytes;
      break;
   case CU_RESOURCE_TYPE_PITCH2D:
      out->res.pitch2D.devPtr = (void *)(uintptr_t)in->res.pitch2D.devPtr;
      out->res.pitch2D.desc = cuvk_rt_desc_from_format(in->res.pitch2D.format, in->res.pitch2D.numChannels);
      out->res.pitch2D.width = in->res.pitch2D.width;
      out->res.pitch2D.height = in->res.pitch2D.height;
      out->res.pitch2D.pitchInBytes = in->res.pitch2D.pitchInBytes;
      break;
   default:
      break;
   }
}

static cudaError_t
texture_to_driver(const struct cudaTextureDesc *in, CUDA_TEXTURE_DESC *out)
{
   if (!in)
      return cuvk_rt_error(cudaErrorInvalidValue, "cudaCreateTextureObject: texture description is NULL");
   if ((unsigned)in->readMode > cudaReadModeNormalizedFloat)
      return cuvk_rt_error(cudaErrorInvalidValue, "cudaCreateTextureObject: readMode %d is not a "
                           "cudaTextureReadMode", (int)in->readMode);
   memset(out, 0, sizeof(*out));
   for (unsigned i = 0; i < 3; i++)
      out->addressMode[i] = (CUaddress_mode)in->addressMode[i];
   out->filterMode = (CUfilter_mode)in->filterMode;
   /* The driver reads 8/16-bit integers as integers only when asked:
    * cudaReadModeElementType is that request. */
   out->flags = (in->readMode == cudaReadModeElementType ? CU_TRSF_READ_AS_INTEGER : 0) |
                (in->sRGB ? CU_TRSF_SRGB : 0) |
                (in->normalizedCoords ? CU_TRSF_NORMALIZED_COORDINATES : 0) |
                (in->disableTrilinearOptimization ? CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION : 0) |
                (in->seamlessCubemap ? CU_TRSF_SEAMLESS_CUBEMAP : 0);
   out->maxAnisotropy = in->maxAnisotropy;
   out->mipmapFilterMode = (CUfilter_mode)in->mipmapFilterMode;
   out->mipmapLevelBias = in->mipmapLevelBias;
   out->minMipmapLevelClamp = in->minMipmapLevelClamp;
   out->maxMipmapLevelClamp = in->maxMipmapLevelClamp;
   memcpy(out->borderColor, in->borderColor, sizeof(out->borderColor));
   return cudaSuccess;
}

static void
texture_from_driver(const CUDA_TEXTURE_DESC *in, struct cudaTextureDesc *out)
{
   memset(out, 0, sizeof(*out));
   for (unsigned i = 0; i < 3; i++)
      out->addressMode[i] = (enum cudaTextureAddressMode)in->addressMode[i];
   out->filterMode = (enum cudaTextureFilterMode)in->filterMode;
   out->readMode = in->flags & CU_TRSF_READ_AS_INTEGER ? cudaReadModeElementType : cudaReadModeNormalizedFloat;
   out->sRGB = !!(in->flags & CU_TRSF_SRGB);
   out->normalizedCoords = !!(in->flags & CU_TRSF_NORMALIZED_COORDINATES);
   out->disableTrilinearOptimization = !!(in->flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION);
   out->seamlessCubemap = !!(in->flags & CU_TRSF_SEAMLESS_CUBEMAP);
   out->maxAnisotropy = in->maxAnisotropy;
   out->mipmapFilterMode = (enum cudaTextureFilterMode)in->mipmapFilterMode;
   out->mipmapLevelBias = in->mipmapLevelBias;
   out->minMipmapLevelClamp = in->minMipmapLevelClamp;
   out->maxMipmapLevelClamp = in->maxMipmapLevelClamp;
   memcpy(out->borderColor, in->borderColor, sizeof(out->borderColor));
}

static void
view_to_driver(const struct cudaResourceViewDesc *in, CUDA_RESOURCE_VIEW_DESC *out)
{
   memset(out, 0, sizeof(*out));
   out->format = (CUresourceViewFormat)in->format;
   out->width = in->width;
   out->height = in->height;
   out->depth = in->depth;
   out->firstMipmapLevel = in->firstMipmapLevel;
   out->lastMipmapLevel = in->lastMipmapLevel;
   out->firstLayer = in->firstLayer;
   out->lastLayer = in->lastLayer;
}

static void
view_from_driver(const CUDA_RESOURCE_VIEW_DESC *in, struct cudaResourceViewDesc *out)
{
   memset(out, 0, sizeof(*out));
   out->format = (enum cudaResourceViewFormat)in->format;
   out->width = in->width;
   out->height = in->height;
   out->depth = in->depth;
   out->firstMipmapLevel = in->firstMipmapLevel;
   out->lastMipmapLevel = in->lastMipmapLevel;
   out->firstLayer = in->firstLayer;
   out->lastLayer = in->lastLayer;
}

/* The runtime refuses linear filtering of what a texture returns as
 * integers (32-bit integers always, 8- and 16-bit ones read as element
 * type) with cudaErrorInvalidFilterSetting, where the driver takes it
 * (both measured on an H100, tests/texture/codes_cuda_h100.txt). */
static cudaError_t
check_filter(const CUDA_RESOURCE_DESC *res, const CUDA_TEXTURE_DESC *tex)
{
   if (tex->filterMode != CU_TR_FILTER_MODE_LINEAR)
      return cudaSuccess;
   CUarray_format format;
   switch (res->resType) {
   case CU_RESOURCE_TYPE_LINEAR:
      format = res->res.linear.format;
      break;
   case CU_RESOURCE_TYPE_PITCH2D:
      format = res->res.pitch2D.format;
      break;
   case CU_RESOURCE_TYPE_ARRAY: {
      CUDA_ARRAY3D_DESCRIPTOR d;
      /* A bad array is the driver's to report. */
      if (cuArray3DGetDescriptor_v2(&d, res->res.array.hArray) != CUDA_SUCCESS)
         return cudaSuccess;
      format = d.Format;
      break;
   }
   default:
      return cudaSuccess;
   }
   bool narrow = format == CU_AD_FORMAT_UNSIGNED_INT8 || format == CU_AD_FORMAT_UNSIGNED_INT16 ||
                 format == CU_AD_FORMAT_SIGNED_INT8 || format == CU_AD_FORMAT_SIGNED_INT16;
   bool wide = format == CU_AD_FORMAT_UNSIGNED_INT32 || format == CU_AD_FORMAT_SIGNED_INT32;
   if (wide || (narrow && (tex->flags & CU_TRSF_READ_AS_INTEGER)))
      return cuvk_rt_error(cudaErrorInvalidFilterSetting,
                           "cudaCreateTextureObject: linear filtering of integers read as integers");
   return cudaSuccess;
}

/* What the calls that fill something in check first, in CUDA's order: a
 * live context, then the pointer to fill (named as cuda_runtime_api.h
 * names it). */
static cudaError_t
enter(const char *entry, const void *out, const char *name)
{
   cudaError_t err = cuvk_rt_context();
   if (err == cudaSuccess && !out)
      err = cuvk_rt_error(cudaErrorInvalidValue, "%s: %s is NULL", entry, name);
   return err;
}

/* cudaGetTextureObjectResourceDesc and cudaGetSurfaceObjectResourceDesc:
 * the driver's description (get) of the object, in the runtime's terms. */
static cudaError_t
get_resource_desc(const char *entry, struct cudaResourceDesc *res_desc,
                  CUresult (*get)(CUDA_RESOURCE_DESC *, unsigned long long), unsigned long long object)
{
   CUDA_RESOURCE_DESC res;
   cudaError_t err = enter(entry, res_desc, "pResDesc");
   if (err == cudaSuccess)
      err = cuvk_rt_from_cu(get(&res, object));
   if (err == cudaSuccess)
      resource_from_driver(&res, res_desc);
   return cuvk_rt_return(err);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaCreateTextureObject(cudaTextureObject_t *tex_object, const struct cudaResourceDesc *res_desc,
                        const struct cudaTextureDesc *tex_desc, const struct cudaResourceViewDesc *view_desc)
{
   CUDA_RESOURCE_DESC res;
   CUDA_TEXTURE_DESC tex;
   CUDA_RESOURCE_VIEW_DESC view;
   cudaError_t err = enter("cudaCreateTextureObject", tex_object, "pTexObject");
   if (err == cudaSuccess)
      err = resource_to_driver(res_desc, "cudaCreateTextureObject", &res);
   if (err == cudaSuccess)
      err = texture_to_driver(tex_desc, &tex);
   if (err == cudaSuccess)
      err = check_filter(&res, &tex);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   if (view_desc)
      view_to_driver(view_desc, &view);
   return cuvk_rt_return_cu(cuTexObjectCreate(tex_object, &res, &tex, view_desc ? &view : NULL));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaDestroyTextureObject(cudaTextureObject_t tex_object)
{
   cudaError_t err = cuvk_rt_context();
   if (err == cudaSuccess)
      err = cuvk_rt_from_cu(cuTexObjectDestroy(tex_object));
   return cuvk_rt_return(err);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *res_desc, cudaTextureObject_t tex_object)
{
   return get_resource_desc("cudaGetTextureObjectResourceDesc", res_desc, cuTexObjectGetResourceDesc, tex_object);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *tex_desc, cudaTextureObject_t tex_object)
{
   CUDA_TEXTURE_DESC tex;
   cudaError_t err = enter("cudaGetTextureObjectTextureDesc", tex_desc, "pTexDesc");
   if (err == cudaSuccess)
      err = cuvk_rt_from_cu(cuTexObjectGetTextureDesc(&tex, tex_object));
   if (err == cudaSuccess)
      texture_from_driver(&tex, tex_desc);
   return cuvk_rt_return(err);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *view_desc, cudaTextureObject_t tex_object)
{
   CUDA_RESOURCE_VIEW_DESC view;
   cudaError_t err = enter("cudaGetTextureObjectResourceViewDesc", view_desc, "pResViewDesc");
   if (err == cudaSuccess)
      err = cuvk_rt_from_cu(cuTexObjectGetResourceViewDesc(&view, tex_object));
   if (err == cudaSuccess)
      view_from_driver(&view, view_desc);
   return cuvk_rt_return(err);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaCreateSurfaceObject(cudaSurfaceObject_t *surf_object, const struct cudaResourceDesc *res_desc)
{
   CUDA_RESOURCE_DESC res;
   cudaError_t err = enter("cudaCreateSurfaceObject", surf_object, "pSurfObject");
   if (err == cudaSuccess)
      err = resource_to_driver(res_desc, "cudaCreateSurfaceObject", &res);
   if (err == cudaSuccess)
      err = cuvk_rt_from_cu(cuSurfObjectCreate(surf_object, &res));
   return cuvk_rt_return(err);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaDestroySurfaceObject(cudaSurfaceObject_t surf_object)
{
   cudaError_t err = cuvk_rt_context();
   if (err == cudaSuccess)
      err = cuvk_rt_from_cu(cuSurfObjectDestroy(surf_object));
   return cuvk_rt_return(err);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *res_desc, cudaSurfaceObject_t surf_object)
{
   return get_resource_desc("cudaGetSurfaceObjectResourceDesc", res_desc, cuSurfObjectGetResourceDesc,
                            surf_object);
}
