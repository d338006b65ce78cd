/*
 * cuArrayCreate, cuArray3DCreate, cuArrayDestroy and the descriptor
 * queries; the images behind every array handle.
 */
#include "array/array.h"

#include <stdlib.h>
#include <string.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuda_api/external_memory.h"
#include "cuda_api/memory.h"
#include "util/device_policy.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

#define ARRAY3D_KNOWN_FLAGS                                                             \
   (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP |           \
    CUDA_ARRAY3D_TEXTURE_GATHER | CUDA_ARRAY3D_DEPTH_TEXTURE | CUDA_ARRAY3D_COLOR_ATTACHMENT | \
    CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_DEFERRED_MAPPING | CUDA_ARRAY3D_VIDEO_ENCODE_DECODE)

/* Flags CUDA defines that need what cuvk does not do: depth formats,
 * sparse residency, arrays without memory, video surfaces. */
#define ARRAY3D_UNSUPPORTED_FLAGS                                                  \
   (CUDA_ARRAY3D_DEPTH_TEXTURE | CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_DEFERRED_MAPPING | \
    CUDA_ARRAY3D_VIDEO_ENCODE_DECODE)

static uint32_t
log2_floor(uint64_t v)
{
   return 63u - (uint32_t)__builtin_clzll(v);
}

CUresult
cuvk_array_geometry(const CUDA_ARRAY3D_DESCRIPTOR *desc, const char *entry,
                    struct cuvk_array_geometry *out)
{
   size_t w = desc->Width, h = desc->Height, d = desc->Depth;
   unsigned flags = desc->Flags;
   bool layered = flags & CUDA_ARRAY3D_LAYERED;
   bool cube = flags & CUDA_ARRAY3D_CUBEMAP;

   memset(out, 0, sizeof(*out));
   if (w == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: Width is 0", entry);
   if (w > UINT32_MAX || h > UINT32_MAX || d > UINT32_MAX)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %zux%zux%zu is larger than any device allows",
                        entry, w, h, d);
   if (cube) {
      if (w != h)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: a cubemap needs Width == Height, got %zux%zu",
                           entry, w, h);
      if (layered ? (d == 0 || d % 6) : d != 6)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: a %scubemap needs Depth %s, got %zu", entry,
                           layered ? "layered " : "", layered ? "a multiple of 6" : "6", d);
      out->type = VK_IMAGE_TYPE_2D;
      out->extent = (VkExtent3D){ (uint32_t)w, (uint32_t)h, 1 };
      out->layers = (uint32_t)d;
      out->create_flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
   } else if (layered) {
      if (d == 0)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: a layered array needs Depth (its layer count) > 0",
                           entry);
      out->type = h ? VK_IMAGE_TYPE_2D : VK_IMAGE_TYPE_1D;
      out->extent = (VkExtent3D){ (uint32_t)w, h ? (uint32_t)h : 1, 1 };
      out->layers = (uint32_t)d;
   } else if (d) {
      if (h == 0)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: a 3D array (Depth %zu) needs Height > 0", entry, d);
      out->type = VK_IMAGE_TYPE_3D;
      out->extent = (VkExtent3D){ (uint32_t)w, (uint32_t)h, (uint32_t)d };
      out->layers = 1;
   } else {
      out->type = h ? VK_IMAGE_TYPE_2D : VK_IMAGE_TYPE_1D;
      out->extent = (VkExtent3D){ (uint32_t)w, h ? (uint32_t)h : 1, 1 };
      out->layers = 1;
   }
   if ((flags & CUDA_ARRAY3D_TEXTURE_GATHER) && (out->type != VK_IMAGE_TYPE_2D || layered || cube))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: CUDA_ARRAY3D_TEXTURE_GATHER needs a plain 2D array",
                        entry);

   uint64_t largest = CUVK_MAX(CUVK_MAX(out->extent.width, out->extent.height), out->extent.depth);
   out->max_levels = log2_floor(largest) + 1;
   return CUDA_SUCCESS;
}

CUresult
cuvk_array_check_desc(struct cuvk_context *ctx, const CUDA_ARRAY3D_DESCRIPTOR *desc,
                      const char *entry, const struct cuvk_format **format,
                      VkImageUsageFlags *usage, VkFormatFeatureFlags *features)
{
   unsigned flags = desc->Flags;
   CUresult res;

   if (flags & ~(unsigned)ARRAY3D_KNOWN_FLAGS)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: unknown flags 0x%x", entry,
                        flags & ~(unsigned)ARRAY3D_KNOWN_FLAGS);
   res = cuvk_format_lookup(desc->Format, desc->NumChannels, entry, format);
   if (res != CUDA_SUCCESS)
      return res;
   if (flags & ARRAY3D_UNSUPPORTED_FLAGS)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: flags 0x%x (depth, sparse, deferred mapping or video) "
                        "are not supported by cuvk", entry, flags & ARRAY3D_UNSUPPORTED_FLAGS);

   *usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
   *features = 0;
   if (flags & CUDA_ARRAY3D_SURFACE_LDST) {
      *usage |= VK_IMAGE_USAGE_STORAGE_BIT;
      *features |= VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
   }
   if (flags & CUDA_ARRAY3D_COLOR_ATTACHMENT) {
      *usage |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
      *features |= VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT;
   }
   if (flags & CUDA_ARRAY3D_TEXTURE_GATHER)
      *features |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;

   res = cuvk_format_check_device(ctx->dev, *format, *features, entry);
   if (res != CUDA_SUCCESS)
      return res;

   /* Arrays are textures in CUDA: sampled wherever the format allows. */
   VkFormatProperties props;
   vkGetPhysicalDeviceFormatProperties(ctx->dev->pdev, (*format)->vk, &props);
   if (props.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)
      *usage |= VK_IMAGE_USAGE_SAMPLED_BIT;
   return CUDA_SUCCESS;
}

CUresult
cuvk_array_get(CUarray handle, const char *entry, struct cuvk_array **out)
{
   if (!handle)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: array is NULL", entry);
   struct cuvk_object *obj = cuvk_object_get(handle, CUVK_OBJECT_ARRAY);
   if (!obj)
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "%s: %p is not a live CUarray", entry, (void *)handle);
   *out = cuvk_container_of(obj, struct cuvk_array, base);
   return CUDA_SUCCESS;
}

void
cuvk_array_put(struct cuvk_array *array)
{
   if (array)
      cuvk_object_put(&array->base);
}

/* A plain array's last reference is gone: after cuArrayDestroy, once no
 * call that found it live is still using it. */
static void
array_free(struct cuvk_object *obj)
{
   struct cuvk_array *array = cuvk_container_of(obj, struct cuvk_array, base);
   struct cuvk_context *ctx = array->ctx;
   pthread_mutex_lock(&ctx->lock);
   cuvk_array_image_release_locked(array->img);
   pthread_mutex_unlock(&ctx->lock);
   free(array);
}

static uint32_t
level_extent(uint32_t v, uint32_t level)
{
   return CUVK_MAX(v >> level, 1u);
}

/* Fills the level's descriptor and copy units from the image and the
 * descriptor it was made from. */
void
cuvk_array_init_level(struct cuvk_array *array, struct cuvk_array_image *img,
                 const struct cuvk_format *format, const CUDA_ARRAY3D_DESCRIPTOR *desc,
                 uint32_t level)
{
   array->ctx = img->ctx;
   array->img = img;
   array->level = level;
   array->format = format;
   array->extent = (VkExtent3D){
      level_extent(img->extent.width, level),
      level_extent(img->extent.height, level),
      level_extent(img->extent.depth, level),
   };
   array->desc = *desc;
   array->desc.Width = array->extent.width;
   array->desc.Height = desc->Height ? array->extent.height : 0;
   if (img->type == VK_IMAGE_TYPE_3D)
      array->desc.Depth = array->extent.depth;

   unsigned block = img->block;
   array->row_elems = (array->extent.width + block - 1) / block;
   array->rows = img->type == VK_IMAGE_TYPE_1D ? 1 : (array->extent.height + block - 1) / block;
   array->slices = img->type == VK_IMAGE_TYPE_3D ? array->extent.depth : img->layers;
}

static uint32_t
image_memory_type(const struct cuvk_device *dev, uint32_t bits)
{
   if (bits & (1u << dev->device_type_index))
      return dev->device_type_index;
   for (uint32_t i = 0; i < dev->mem.memoryTypeCount; i++) {
      if ((bits & (1u << i)) && (dev->mem.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
         return i;
   }
   return bits ? (uint32_t)__builtin_ctz(bits) : UINT32_MAX;
}

/* Whether a texture may view an image of this format through another
 * format of the same layout: 8- and 16-bit integers read as normalised
 * floats (R8_UINT as R8_UNORM), 8-bit unsigned and block-compressed
 * formats read as sRGB, signed BC4 and BC5 as unsigned (docs/textures.md,
 * "Read modes and formats"). */
static bool
has_texture_views(VkFormat format)
{
   switch (format) {
   case VK_FORMAT_R8_UINT:
   case VK_FORMAT_R8_SINT:
   case VK_FORMAT_R8G8_UINT:
   case VK_FORMAT_R8G8_SINT:
   case VK_FORMAT_R8G8B8A8_UINT:
   case VK_FORMAT_R8G8B8A8_SINT:
   case VK_FORMAT_R16_UINT:
   case VK_FORMAT_R16_SINT:
   case VK_FORMAT_R16G16_UINT:
   case VK_FORMAT_R16G16_SINT:
   case VK_FORMAT_R16G16B16A16_UINT:
   case VK_FORMAT_R16G16B16A16_SINT:
   case VK_FORMAT_R8G8B8A8_UNORM:
   case VK_FORMAT_R8G8B8A8_SRGB:
   case VK_FORMAT_BC1_RGBA_UNORM_BLOCK:
   case VK_FORMAT_BC1_RGBA_SRGB_BLOCK:
   case VK_FORMAT_BC2_UNORM_BLOCK:
   case VK_FORMAT_BC2_SRGB_BLOCK:
   case VK_FORMAT_BC3_UNORM_BLOCK:
   case VK_FORMAT_BC3_SRGB_BLOCK:
   case VK_FORMAT_BC4_UNORM_BLOCK:
   case VK_FORMAT_BC4_SNORM_BLOCK:
   case VK_FORMAT_BC5_UNORM_BLOCK:
   case VK_FORMAT_BC5_SNORM_BLOCK:
   case VK_FORMAT_BC7_UNORM_BLOCK:
   case VK_FORMAT_BC7_SRGB_BLOCK:
      return true;
   default:
      return false;
   }
}

/* MUTABLE_FORMAT for an image that textures may view as another format.
 * Storage for compute copies adds it to images of 4 bytes a texel or more
 * (cuvk_array_storage_extras); 1- and 2-byte texels and block-compressed
 * formats, which copies reach with transfer commands, need it here, or a
 * texture reading an UNSIGNED_INT8 x1 array as normalised floats, CUDA's
 * default read mode, could not be made. */
static void
texture_view_extras(const struct cuvk_device *dev, VkFormat format, VkImageType type, VkImageUsageFlags usage,
                    VkImageCreateFlags *flags)
{
   VkImageCreateFlags f = *flags | VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
   VkImageFormatProperties props;
   if (f == *flags || !has_texture_views(format) || !(usage & VK_IMAGE_USAGE_SAMPLED_BIT))
      return;
   if (vkGetPhysicalDeviceImageFormatProperties(dev->pdev, format, type, VK_IMAGE_TILING_OPTIMAL, usage, f,
                                                &props) == VK_SUCCESS)
      *flags = f;
}

bool
cuvk_array_image_viewable(const struct cuvk_array_image *img, VkFormat format)
{
   if (format == img->vk_format)
      return true;
   if (!(img->create_flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT))
      return false;
   if (!img->view_format_count)
      return true;
   for (uint32_t i = 0; i < img->view_format_count; i++)
      if (img->view_formats[i] == format)
         return true;
   return false;
}

/* Creates the VkImage and its own memory for a new (not imported) array. */
CUresult
cuvk_array_image_create(struct cuvk_context *ctx, const struct cuvk_format *format,
             const struct cuvk_array_geometry *geo, uint32_t levels, VkImageUsageFlags usage,
             const char *entry, struct cuvk_array_image **out)
{
   struct cuvk_device *dev = ctx->dev;
   struct cuvk_array_image *img;
   VkImageCreateFlags create_flags = geo->create_flags;
   VkResult vr;
   CUresult res;

   VkImageFormatProperties limits;
   vr = vkGetPhysicalDeviceImageFormatProperties(dev->pdev, format->vk, geo->type, VK_IMAGE_TILING_OPTIMAL,
                                                 usage, create_flags, &limits);
   if (vr == VK_ERROR_FORMAT_NOT_SUPPORTED)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: %s cannot make %uD CU_AD_FORMAT_%s images with usage 0x%x",
                        entry, dev->props.deviceName, geo->type + 1, format->name, usage);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkGetPhysicalDeviceImageFormatProperties");
   if (geo->extent.width > limits.maxExtent.width || geo->extent.height > limits.maxExtent.height ||
       geo->extent.depth > limits.maxExtent.depth || geo->layers > limits.maxArrayLayers ||
       levels > limits.maxMipLevels)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "%s: %ux%ux%u, %u layers, %u levels is past %s's limit of %ux%ux%u, %u layers, %u levels",
                        entry, geo->extent.width, geo->extent.height, geo->extent.depth, geo->layers, levels,
                        dev->props.deviceName, limits.maxExtent.width, limits.maxExtent.height,
                        limits.maxExtent.depth, limits.maxArrayLayers, limits.maxMipLevels);

   /* Storage access for the compute copy engine, where the device has it. */
   cuvk_array_storage_extras(dev, format->vk, geo->type, &create_flags, &usage);
   texture_view_extras(dev, format->vk, geo->type, usage, &create_flags);

   img = calloc(1, sizeof(*img));
   if (!img)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
   img->ctx = ctx;
   img->owns_image = true;
   img->vk_format = format->vk;
   img->elem_size = format->elem_size;
   img->block = format->block;
   img->type = geo->type;
   img->create_flags = create_flags;
   img->usage = usage;
   img->storage_format = cuvk_array_storage_format(dev, format->vk, create_flags, usage);
   /* A mutable image names exactly the formats cuvk may view it as, so
    * that a driver may keep compressing it where those formats allow
    * (NVIDIA may not compress a mutable image without a list). */
   if (create_flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT)
      img->view_format_count = cuvk_vk_format_view_list(format->vk, img->view_formats, CUVK_ARRAY_MAX_VIEW_FORMATS);
   img->extent = geo->extent;
   img->layers = geo->layers;
   img->levels = levels;

   VkImageFormatListCreateInfo list = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO,
      .viewFormatCount = img->view_format_count,
      .pViewFormats = img->view_formats,
   };
   VkImageCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
      .pNext = img->view_format_count ? &list : NULL,
      .flags = create_flags,
      .imageType = geo->type,
      .format = format->vk,
      .extent = geo->extent,
      .mipLevels = levels,
      .arrayLayers = geo->layers,
      .samples = VK_SAMPLE_COUNT_1_BIT,
      .tiling = VK_IMAGE_TILING_OPTIMAL,
      .usage = usage,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
      .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
   };
   /* Shared with the transfer lanes' family, like the pinned and device
    * heaps' buffers, so that copies with pinned memory can run on the
    * copy engines (copy.c, record_array_transfer).  Only where that
    * family copies any texel box: a coarser granularity would split
    * copies by their alignment, for no measured gain. */
   uint32_t families[2];
   img->transfer_lanes = cuvk_submit_has_transfer_lanes(ctx);
   if (img->transfer_lanes && cuvk_policy_lane_families(&ctx->lane_plan, families) == 2) {
      const VkExtent3D *g = &dev->transfer_granularity;
      if (g->width == 1 && g->height == 1 && g->depth == 1) {
         info.sharingMode = VK_SHARING_MODE_CONCURRENT;
         info.queueFamilyIndexCount = 2;
         info.pQueueFamilyIndices = families;
      } else {
         img->transfer_lanes = false;
      }
   }
   vr = vkCreateImage(ctx->vk, &info, NULL, &img->image);
   if (vr != VK_SUCCESS) {
      res = cuvk_vk_error(vr, "vkCreateImage for an array");
      goto fail_img;
   }

   VkMemoryRequirements req;
   vkGetImageMemoryRequirements(ctx->vk, img->image, &req);
   uint32_t type = image_memory_type(dev, req.memoryTypeBits);
   if (type == UINT32_MAX) {
      res = cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: no memory type can hold the image", entry);
      goto fail_image;
   }
   /* Each array gets its own allocation, dedicated where the driver likes
    * that best for images; arrays are few and large. */
   VkMemoryDedicatedAllocateInfo dedicated = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO,
      .image = img->image,
   };
   VkMemoryAllocateInfo alloc_info = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .pNext = &dedicated,
      .allocationSize = req.size,
      .memoryTypeIndex = type,
   };
   res = cuvk_mem_reserve(ctx, type, req.size, entry);
   if (res != CUDA_SUCCESS)
      goto fail_image;
   vr = vkAllocateMemory(ctx->vk, &alloc_info, NULL, &img->memory);
   if (vr != VK_SUCCESS) {
      res = cuvk_vk_error(vr, "vkAllocateMemory for an array");
      goto fail_budget;
   }
   img->memory_size = req.size;
   img->memory_type = type;
   vr = vkBindImageMemory(ctx->vk, img->image, img->memory, 0);
   if (vr != VK_SUCCESS) {
      res = cuvk_vk_error(vr, "vkBindImageMemory for an array");
      goto fail_memory;
   }
   res = cuvk_array_image_init_layout(ctx, img);
   if (res != CUDA_SUCCESS)
      goto fail_memory_used;

   *out = img;
   return CUDA_SUCCESS;

fail_memory_used:
   /* The transition may be recorded: wait for the GPU before freeing. */
   cuvk_submit_wait_idle(ctx);
fail_memory:
   vkFreeMemory(ctx->vk, img->memory, NULL);
fail_budget:
   cuvk_mem_budget_unreserve(&dev->budget, type, req.size);
fail_image:
   vkDestroyImage(ctx->vk, img->image, NULL);
fail_img:
   free(img);
   return res;
}

static void
image_free(struct cuvk_context *ctx, struct cuvk_array_image *img)
{
   cuvk_array_image_finish_compute(ctx, img);
   if (img->owns_image)
      vkDestroyImage(ctx->vk, img->image, NULL);
   if (img->memory) {
      vkFreeMemory(ctx->vk, img->memory, NULL);
      cuvk_mem_budget_unreserve(&ctx->dev->budget, img->memory_type, img->memory_size);
   }
   free(img);
}

static void
image_release_now(struct cuvk_context *ctx, void *data)
{
   image_free(ctx, data);
}

/* Drops an image from its context once the GPU is done with it; ctx lock
 * held.  Its import, if any, is unreferenced now: the import's own release
 * is deferred the same way, after this one. */
void
cuvk_array_image_release_locked(struct cuvk_array_image *img)
{
   struct cuvk_context *ctx = img->ctx;
   struct cuvk_external_memory *ext = img->ext;

   cuvk_list_del(&img->link);
   img->release.fn = image_release_now;
   img->release.data = img;
   cuvk_submit_defer_bytes(ctx, &img->release, img->memory ? img->memory_size : 0);
   if (ext)
      cuvk_external_memory_unref_locked(ext);
}

void
cuvk_array_release_context(struct cuvk_context *ctx)
{
   cuvk_list_for_each_entry_safe(struct cuvk_array_image, img, &ctx->arrays, link) {
      cuvk_list_del(&img->link);
      if (img->array) {
         cuvk_object_remove(&img->array->base);
         free(img->array);
      } else {
         cuvk_object_remove(&img->mipmap->base);
         cuvk_mipmapped_array_free_levels(img->mipmap);
         free(img->mipmap);
      }
      /* Imports are freed right after, whatever their count says. */
      image_free(ctx, img);
   }
   cuvk_array_pipelines_finish(ctx);
}

void
cuvk_array_image_publish(struct cuvk_context *ctx, struct cuvk_array_image *img)
{
   pthread_mutex_lock(&ctx->lock);
   cuvk_list_addtail(&img->link, &ctx->arrays);
   pthread_mutex_unlock(&ctx->lock);
}

CUVK_EXPORT CUresult CUDAAPI
cuArray3DCreate_v2(CUarray *handle, const CUDA_ARRAY3D_DESCRIPTOR *desc)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   const struct cuvk_format *format;
   struct cuvk_array_geometry geo;
   struct cuvk_array_image *img;
   struct cuvk_array *array;
   VkImageUsageFlags usage;
   VkFormatFeatureFlags features;
   CUresult res = cuvk_context_current("cuArray3DCreate", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!handle || !desc)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuArray3DCreate: NULL argument");
   res = cuvk_array_check_desc(ctx, desc, "cuArray3DCreate", &format, &usage, &features);
   if (res != CUDA_SUCCESS)
      return res;
   res = cuvk_array_geometry(desc, "cuArray3DCreate", &geo);
   if (res != CUDA_SUCCESS)
      return res;

   array = calloc(1, sizeof(*array));
   if (!array)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuArray3DCreate: out of host memory");
   res = cuvk_array_image_create(ctx, format, &geo, 1, usage, "cuArray3DCreate", &img);
   if (res != CUDA_SUCCESS) {
      free(array);
      return res;
   }
   img->array = array;
   cuvk_array_init_level(array, img, format, desc, 0);
   cuvk_array_image_publish(ctx, img);
   cuvk_object_add_in(&array->base, CUVK_OBJECT_ARRAY, array_free, &ctx->base);
   *handle = (CUarray)array;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuArrayCreate_v2(CUarray *handle, const CUDA_ARRAY_DESCRIPTOR *desc)
{
   if (!desc)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuArrayCreate: descriptor is NULL");
   CUDA_ARRAY3D_DESCRIPTOR desc3d = {
      .Width = desc->Width,
      .Height = desc->Height,
      .Depth = 0,
      .Format = desc->Format,
      .NumChannels = desc->NumChannels,
      .Flags = 0,
   };
   return cuArray3DCreate_v2(handle, &desc3d);
}

CUVK_EXPORT CUresult CUDAAPI
cuArrayDestroy(CUarray handle)
{
   struct cuvk_array *array;
   CUresult res = cuvk_driver_check("cuArrayDestroy");
   if (res != CUDA_SUCCESS)
      return res;
   res = cuvk_array_get(handle, "cuArrayDestroy", &array);
   if (res != CUDA_SUCCESS)
      return res;
   /* Real CUDA accepts this and crashes later; the level belongs to its
    * mipmapped array, which frees it. */
   if (array->parent)
      res = cuvk_error(CUDA_ERROR_INVALID_VALUE,
                       "cuArrayDestroy: %p is level %u of mipmapped array %p; destroy that instead",
                       (void *)handle, array->level, (void *)array->parent);
   else if (!cuvk_object_release(&array->base))
      res = cuvk_error(CUDA_ERROR_INVALID_HANDLE, "cuArrayDestroy: %p was destroyed meanwhile", (void *)handle);
   cuvk_array_put(array);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *out, CUarray handle)
{
   struct cuvk_array *array;
   CUresult res = cuvk_driver_check("cuArray3DGetDescriptor");
   if (res != CUDA_SUCCESS)
      return res;
   if (!out)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuArray3DGetDescriptor: descriptor is NULL");
   res = cuvk_array_get(handle, "cuArray3DGetDescriptor", &array);
   if (res != CUDA_SUCCESS)
      return res;
   *out = array->desc;
   cuvk_array_put(array);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *out, CUarray handle)
{
   struct cuvk_array *array;
   CUresult res = cuvk_driver_check("cuArrayGetDescriptor");
   if (res != CUDA_SUCCESS)
      return res;
   if (!out)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuArrayGetDescriptor: descriptor is NULL");
   res = cuvk_array_get(handle, "cuArrayGetDescriptor", &array);
   if (res != CUDA_SUCCESS)
      return res;
   out->Width = array->desc.Width;
   out->Height = array->desc.Height;
   out->Format = array->desc.Format;
   out->NumChannels = array->desc.NumChannels;
   cuvk_array_put(array);
   return CUDA_SUCCESS;
}
