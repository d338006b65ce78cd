/*
 * cuMipmappedArrayCreate, cuMipmappedArrayGetLevel, cuMipmappedArrayDestroy:
 * one image with every level, and a CUarray per level that belongs to it.
 */
#include <stdlib.h>

#include "array/array.h"
#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "util/error.h"
#include "util/macros.h"

void
cuvk_mipmapped_array_free_levels(struct cuvk_mipmapped_array *mip)
{
   for (uint32_t i = 0; i < mip->levels; i++) {
      if (mip->level_arrays[i]) {
         cuvk_object_remove(&mip->level_arrays[i]->base);
         free(mip->level_arrays[i]);
      }
   }
}

/* The last reference is gone: after cuMipmappedArrayDestroy, once no
 * call that found it or one of its levels live is still using it. */
static void
mipmap_free(struct cuvk_object *obj)
{
   struct cuvk_mipmapped_array *mip = cuvk_container_of(obj, struct cuvk_mipmapped_array, base);
   struct cuvk_context *ctx = mip->ctx;
   pthread_mutex_lock(&ctx->lock);
   cuvk_mipmapped_array_free_levels(mip);
   cuvk_array_image_release_locked(mip->img);
   pthread_mutex_unlock(&ctx->lock);
   free(mip);
}

CUresult
cuvk_mipmapped_array_wrap(struct cuvk_context *ctx, struct cuvk_array_image *img,
                          const struct cuvk_format *format, const CUDA_ARRAY3D_DESCRIPTOR *desc,
                          uint32_t levels, struct cuvk_mipmapped_array **out)
{
   struct cuvk_mipmapped_array *mip;

   mip = calloc(1, sizeof(*mip) + levels * sizeof(mip->level_arrays[0]));
   if (!mip)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for a mipmapped array");
   mip->ctx = ctx;
   mip->img = img;
   mip->format = format;
   mip->desc = *desc;
   mip->levels = levels;
   img->mipmap = mip;
   cuvk_array_image_publish(ctx, img);
   cuvk_object_add_in(&mip->base, CUVK_OBJECT_MIPMAPPED_ARRAY, mipmap_free, &ctx->base);
   *out = mip;
   return CUDA_SUCCESS;
}

CUresult
cuvk_mipmapped_array_get(CUmipmappedArray handle, const char *entry, struct cuvk_mipmapped_array **out)
{
   if (!handle)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: mipmapped array is NULL", entry);
   struct cuvk_object *obj = cuvk_object_get(handle, CUVK_OBJECT_MIPMAPPED_ARRAY);
   if (!obj)
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "%s: %p is not a live CUmipmappedArray", entry,
                        (void *)handle);
   *out = cuvk_container_of(obj, struct cuvk_mipmapped_array, base);
   return CUDA_SUCCESS;
}

void
cuvk_mipmapped_array_put(struct cuvk_mipmapped_array *mip)
{
   if (mip)
      cuvk_object_put(&mip->base);
}

CUVK_EXPORT CUresult CUDAAPI
cuMipmappedArrayCreate(CUmipmappedArray *handle, const CUDA_ARRAY3D_DESCRIPTOR *desc,
                       unsigned int levels)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   const struct cuvk_format *format;
   struct cuvk_array_geometry geo;
   struct cuvk_array_image *img;
   struct cuvk_mipmapped_array *mip;
   VkImageUsageFlags usage;
   VkFormatFeatureFlags features;
   CUresult res = cuvk_context_current("cuMipmappedArrayCreate", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!handle || !desc)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMipmappedArrayCreate: NULL argument");
   res = cuvk_array_check_desc(ctx, desc, "cuMipmappedArrayCreate", &format, &usage, &features);
   if (res != CUDA_SUCCESS)
      return res;
   res = cuvk_array_geometry(desc, "cuMipmappedArrayCreate", &geo);
   if (res != CUDA_SUCCESS)
      return res;
   if (levels == 0 || levels > geo.max_levels)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "cuMipmappedArrayCreate: %u levels; a %ux%ux%u array has 1 to %u", levels,
                        geo.extent.width, geo.extent.height, geo.extent.depth, geo.max_levels);

   res = cuvk_array_image_create(ctx, format, &geo, levels, usage, "cuMipmappedArrayCreate", &img);
   if (res != CUDA_SUCCESS)
      return res;
   res = cuvk_mipmapped_array_wrap(ctx, img, format, desc, levels, &mip);
   if (res != CUDA_SUCCESS) {
      pthread_mutex_lock(&ctx->lock);
      cuvk_list_init(&img->link); /* never published */
      cuvk_list_addtail(&img->link, &ctx->arrays);
      cuvk_array_image_release_locked(img);
      pthread_mutex_unlock(&ctx->lock);
      return res;
   }
   *handle = (CUmipmappedArray)mip;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMipmappedArrayGetLevel(CUarray *out, CUmipmappedArray handle, unsigned int level)
{
   struct cuvk_mipmapped_array *mip;
   CUresult res = cuvk_driver_check("cuMipmappedArrayGetLevel");
   if (res != CUDA_SUCCESS)
      return res;
   if (!out)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMipmappedArrayGetLevel: pLevelArray is NULL");
   res = cuvk_mipmapped_array_get(handle, "cuMipmappedArrayGetLevel", &mip);
   if (res != CUDA_SUCCESS)
      return res;
   if (level >= mip->levels) {
      cuvk_object_put(&mip->base);
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMipmappedArrayGetLevel: level %u of a %u-level array",
                        level, mip->levels);
   }

   /* The same handle every time, made under the context lock so that two
    * threads asking at once get one. */
   struct cuvk_context *ctx = mip->ctx;
   pthread_mutex_lock(&ctx->lock);
   struct cuvk_array *array = mip->level_arrays[level];
   bool destroyed = mip->destroyed;
   if (!array && !destroyed) {
      array = calloc(1, sizeof(*array));
      if (array) {
         cuvk_array_init_level(array, mip->img, mip->format, &mip->desc, level);
         array->parent = mip;
         /* A level's references are its mipmapped array's. */
         cuvk_object_add_owned(&array->base, CUVK_OBJECT_ARRAY, &mip->base);
         mip->level_arrays[level] = array;
      }
   }
   pthread_mutex_unlock(&ctx->lock);
   cuvk_object_put(&mip->base);
   if (destroyed)
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "cuMipmappedArrayGetLevel: %p was destroyed meanwhile",
                        (void *)handle);
   if (!array)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuMipmappedArrayGetLevel: out of host memory");
   *out = (CUarray)array;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMipmappedArrayDestroy(CUmipmappedArray handle)
{
   struct cuvk_mipmapped_array *mip;
   CUresult res = cuvk_driver_check("cuMipmappedArrayDestroy");
   if (res != CUDA_SUCCESS)
      return res;
   res = cuvk_mipmapped_array_get(handle, "cuMipmappedArrayDestroy", &mip);
   if (res != CUDA_SUCCESS)
      return res;

   /* Its levels leave the table first: their references are the
    * mipmapped array's (object.h), so none may be found once the
    * table's reference to it goes.  destroyed stops new ones. */
   struct cuvk_context *ctx = mip->ctx;
   pthread_mutex_lock(&ctx->lock);
   bool first = !mip->destroyed;
   mip->destroyed = true;
   for (uint32_t i = 0; i < mip->levels; i++)
      if (mip->level_arrays[i])
         cuvk_object_remove(&mip->level_arrays[i]->base);
   pthread_mutex_unlock(&ctx->lock);
   if (!first || !cuvk_object_release(&mip->base))
      res = cuvk_error(CUDA_ERROR_INVALID_HANDLE, "cuMipmappedArrayDestroy: %p was destroyed meanwhile",
                       (void *)handle);
   cuvk_object_put(&mip->base);
   return res;
}
