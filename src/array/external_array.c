/*
 * cuExternalMemoryGetMappedMipmappedArray: a mipmapped array over an
 * image the application exported from Vulkan.
 *
 * With the layer's record of the export, cuvk knows the exporter's image
 * exactly: a dedicated import already re-created it (external_memory.c),
 * and an image bound into a shared allocation is re-created here from its
 * recorded create info and bound at the same offset.  The CUDA descriptor
 * is then only checked against that image (element size, extent, type,
 * levels), which catches the descriptor mistakes real CUDA maps silently.
 * Without a record the image is built from the descriptor, as CUDA does,
 * and the log says what enabling the layer would check.  A mapping of one
 * plane of a recorded multi-planar image goes to plane.c first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array/array.h"
#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuda_api/external_memory.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

#define ENTRY "cuExternalMemoryGetMappedMipmappedArray"

static const char *
image_type_name(VkImageType type)
{
   switch (type) {
   case VK_IMAGE_TYPE_1D: return "1D";
   case VK_IMAGE_TYPE_2D: return "2D";
   case VK_IMAGE_TYPE_3D: return "3D";
   default: return "?D";
   }
}

/* Checks the CUDA descriptor against the exporter's image; logs both sides
 * on a mismatch. */
static CUresult
check_against_record(const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *desc,
                     const struct cuvk_format *format, const struct cuvk_array_geometry *geo,
                     const struct cuvk_mem_image_info *info)
{
   const char *what = NULL;
   unsigned elem_size, block;

   cuvk_vk_format_size(info->format, &elem_size, &block);
   if (elem_size == 0)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: the exported image's VkFormat %d is not a color "
                        "format cuvk can copy", ENTRY, (int)info->format);
   if (info->samples != VK_SAMPLE_COUNT_1_BIT)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: the exported image is multisampled (%d samples)",
                        ENTRY, (int)info->samples);
   if (info->tiling == VK_IMAGE_TILING_DRM_FORMAT_MODIFIER_EXT)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: images with DRM format modifiers are not supported",
                        ENTRY);

   if (elem_size != format->elem_size || block != format->block)
      what = "element size";
   else if (geo->type != info->image_type)
      what = "type";
   else if (geo->extent.width != info->extent.width || geo->extent.height != info->extent.height ||
            geo->extent.depth != info->extent.depth)
      what = "extent";
   else if (geo->layers != info->array_layers)
      what = "layer count";
   else if ((geo->create_flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) &&
            !(info->flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT))
      what = "cubemap flag";
   else if (desc->numLevels > info->mip_levels)
      what = "level count";
   if (!what)
      return CUDA_SUCCESS;

   return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                     "%s: the descriptor's %s does not match the exported image: descriptor %s %ux%ux%u, "
                     "%u layers%s, CU_AD_FORMAT_%s (%u bytes per element), %u levels; image %s %ux%ux%u, "
                     "%u layers%s, VkFormat %d (%u bytes per element), %u levels",
                     ENTRY, what, image_type_name(geo->type), geo->extent.width, geo->extent.height,
                     geo->extent.depth, geo->layers,
                     (geo->create_flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) ? ", cube" : "",
                     format->name, format->elem_size, desc->numLevels,
                     image_type_name(info->image_type), info->extent.width, info->extent.height,
                     info->extent.depth, info->array_layers,
                     (info->flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) ? ", cube" : "",
                     (int)info->format, elem_size, info->mip_levels);
}

/* The image bound at offset in a shared (non-dedicated) allocation. */
static const struct cuvk_mem_bound_image *
find_bound_image(const struct cuvk_mem_export_record *rec, uint64_t offset)
{
   for (uint32_t i = 0; i < rec->image_count; i++) {
      if (rec->images[i].offset == offset && rec->images[i].plane_aspect == 0)
         return &rec->images[i];
   }
   return NULL;
}

static CUresult
no_image_at(const struct cuvk_mem_export_record *rec, uint64_t offset)
{
   char list[256] = "";
   size_t len = 0;
   for (uint32_t i = 0; i < rec->image_count && len < sizeof(list); i++)
      len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%llu", i ? ", " : "",
                              (unsigned long long)rec->images[i].offset);
   return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                     "%s: the exporter bound no image at offset %llu of the memory (images are at: %s)",
                     ENTRY, (unsigned long long)offset, rec->image_count ? list : "none");
}

/* Creates an image from create info, binds it into the import at offset,
 * after checking alignment, size and memory type. */
static CUresult
bind_new_image(struct cuvk_external_memory *ext, const VkImageCreateInfo *info, uint64_t offset,
               VkImage *out)
{
   struct cuvk_context *ctx = ext->ctx;
   VkImage image;
   VkResult vr;
   CUresult res;

   vr = vkCreateImage(ctx->vk, info, NULL, &image);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, ENTRY ": vkCreateImage");

   VkMemoryRequirements req;
   vkGetImageMemoryRequirements(ctx->vk, image, &req);
   uint32_t type_index = ext->memory_type;
   if (offset % req.alignment) {
      res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: offset %llu is not a multiple of the image's "
                       "alignment %llu", ENTRY, (unsigned long long)offset,
                       (unsigned long long)req.alignment);
      goto fail;
   }
   if (req.size > ext->size || offset > ext->size - req.size) {
      res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: the image needs %llu bytes at offset %llu, past the "
                       "%llu bytes of the memory", ENTRY, (unsigned long long)req.size,
                       (unsigned long long)offset, (unsigned long long)ext->size);
      goto fail;
   }
   if (!(req.memoryTypeBits & (1u << type_index))) {
      res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: the memory's type %u cannot hold this image "
                       "(types 0x%x can)", ENTRY, type_index, req.memoryTypeBits);
      goto fail;
   }
   vr = vkBindImageMemory(ctx->vk, image, ext->memory, offset);
   if (vr != VK_SUCCESS) {
      res = cuvk_vk_error(vr, ENTRY ": vkBindImageMemory");
      goto fail;
   }
   *out = image;
   return CUDA_SUCCESS;

fail:
   vkDestroyImage(ctx->vk, image, NULL);
   return res;
}

static CUresult
check_args(struct cuvk_external_memory *ext, const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *desc)
{
   if (ext->type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: dma-buf imports cannot be mapped as arrays", ENTRY);
   if (ext->type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_NVSCIBUF && desc->numLevels != 1)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: NvSciBuf imports map one level, not %u", ENTRY,
                        desc->numLevels);
   /* Real CUDA corrupts its heap on 0 levels. */
   if (desc->numLevels == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: numLevels is 0", ENTRY);
   if (desc->offset >= ext->size)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: offset %llu is past the %llu bytes of the memory",
                        ENTRY, desc->offset, (unsigned long long)ext->size);
   return CUDA_SUCCESS;
}

/* Hands out a mipmapped array around img, which references the import
 * from now on; img is freed (with its image where it owns one) on
 * failure. */
static CUresult
publish(struct cuvk_external_memory *ext, struct cuvk_array_image *img, const struct cuvk_format *format,
        const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *desc, CUmipmappedArray *out)
{
   struct cuvk_context *ctx = ext->ctx;
   CUresult res;

   const VkImageUsageFlags copy_usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
   if ((img->usage & copy_usage) != copy_usage)
      cuvk_logw("%s: the exported image lacks usage%s%s; copies %s it will fail", ENTRY,
                img->usage & VK_IMAGE_USAGE_TRANSFER_SRC_BIT ? "" : " TRANSFER_SRC",
                img->usage & VK_IMAGE_USAGE_TRANSFER_DST_BIT ? "" : " TRANSFER_DST",
                img->usage & VK_IMAGE_USAGE_TRANSFER_SRC_BIT ? "into" : "from");

   /* The import stays alive while the array does, as for mapped buffers. */
   pthread_mutex_lock(&ctx->lock);
   ext->refs++;
   pthread_mutex_unlock(&ctx->lock);

   struct cuvk_mipmapped_array *mip;
   res = cuvk_mipmapped_array_wrap(ctx, img, format, &desc->arrayDesc, desc->numLevels, &mip);
   if (res != CUDA_SUCCESS) {
      pthread_mutex_lock(&ctx->lock);
      cuvk_external_memory_unref_locked(ext);
      pthread_mutex_unlock(&ctx->lock);
      if (img->owns_image)
         vkDestroyImage(ctx->vk, img->image, NULL);
      free(img);
      return res;
   }
   *out = (CUmipmappedArray)mip;
   return CUDA_SUCCESS;
}

static CUresult
map_mipmapped_array(struct cuvk_external_memory *ext, const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *desc,
                    CUmipmappedArray *out)
{
   const struct cuvk_format *format;
   struct cuvk_array_geometry geo;
   VkImageUsageFlags usage;
   VkFormatFeatureFlags features;
   CUresult res;

   res = check_args(ext, desc);
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_context *ctx = ext->ctx;

   res = cuvk_array_check_desc(ctx, &desc->arrayDesc, ENTRY, &format, &usage, &features);
   if (res != CUDA_SUCCESS)
      return res;
   res = cuvk_array_geometry(&desc->arrayDesc, ENTRY, &geo);
   if (res != CUDA_SUCCESS)
      return res;
   if (desc->numLevels > geo.max_levels)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %u levels; a %ux%ux%u array has at most %u", ENTRY,
                        desc->numLevels, geo.extent.width, geo.extent.height, geo.extent.depth,
                        geo.max_levels);

   /* One plane of a multi-planar image (plane.c). */
   struct cuvk_array_image *img;
   bool planar;
   res = cuvk_array_map_plane(ext, desc, format, &geo, &planar, &img);
   if (planar) {
      if (res != CUDA_SUCCESS)
         return res;
      return publish(ext, img, format, desc, out);
   }

   /* What the image is: the exporter's, from the record, or the
    * descriptor's. */
   const struct cuvk_mem_image_info *info = NULL;
   bool dedicated = false;
   if (ext->has_record) {
      const struct cuvk_mem_export_record *rec = &ext->record;
      if (rec->dedicated == CUVK_MEM_DEDICATED_IMAGE) {
         if (desc->offset != 0)
            return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: the memory is dedicated to one image, at "
                              "offset 0, not %llu", ENTRY, desc->offset);
         info = &rec->dedicated_image;
         dedicated = true;
      } else if (rec->dedicated == CUVK_MEM_DEDICATED_BUFFER) {
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: the memory is dedicated to a buffer; it holds "
                           "no image", ENTRY);
      } else if (rec->image_count || rec->bindings_truncated) {
         const struct cuvk_mem_bound_image *bound = find_bound_image(rec, desc->offset);
         if (!bound && !rec->bindings_truncated)
            return no_image_at(rec, desc->offset);
         if (bound)
            info = &bound->info;
      }
      if (info) {
         res = check_against_record(desc, format, &geo, info);
         if (res != CUDA_SUCCESS)
            return res;
      } else {
         cuvk_logw("%s: the layer saw no image bound at offset %llu when the memory was exported; "
                   "building the image from the descriptor", ENTRY, desc->offset);
      }
   } else if (ext->flags & CUDA_EXTERNAL_MEMORY_DEDICATED) {
      /* The import had to guess what the memory is dedicated to, and an
       * image cannot be re-created from a CUDA descriptor exactly. */
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED,
                        "%s: the memory is a dedicated allocation with no record of its export; cuvk can "
                        "only map it (or a plane of a multi-planar image in it) with "
                        "VK_LAYER_CUVK_interop enabled in the exporting process (VK_INSTANCE_LAYERS)",
                        ENTRY);
   } else {
      cuvk_log_once(CUVK_LOG_WARN,
                    "%s: the import has no record of its export, so the image is built from the CUDA "
                    "descriptor and cannot be checked against the exporter's. Enable "
                    "VK_LAYER_CUVK_interop in the exporting process (VK_INSTANCE_LAYERS) to make the "
                    "mapping exact", ENTRY);
   }

   img = calloc(1, sizeof(*img));
   if (!img)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", ENTRY);
   img->ctx = ctx;
   img->ext = ext;
   img->external = true;

   if (dedicated) {
      if (!ext->dedicated_image) {
         free(img);
         return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: the import did not re-create its dedicated image",
                           ENTRY);
      }
      img->image = ext->dedicated_image;
   } else {
      VkImageCreateInfo ci;
      VkExternalMemoryImageCreateInfo ext_ci;
      VkImageFormatListCreateInfo list;
      if (info) {
         cuvk_external_image_create_info(info, &ci, &ext_ci, &list,
                                         VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT);
      } else {
         ext_ci = (VkExternalMemoryImageCreateInfo){
            .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO,
            .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
         };
         ci = (VkImageCreateInfo){
            .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
            .pNext = &ext_ci,
            .flags = geo.create_flags,
            .imageType = geo.type,
            .format = format->vk,
            .extent = geo.extent,
            .mipLevels = desc->numLevels,
            .arrayLayers = geo.layers,
            .samples = VK_SAMPLE_COUNT_1_BIT,
            .tiling = VK_IMAGE_TILING_OPTIMAL,
            .usage = usage,
            .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
            .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
         };
      }
      res = bind_new_image(ext, &ci, desc->offset, &img->image);
      if (res != CUDA_SUCCESS) {
         free(img);
         return res;
      }
      img->owns_image = true;
   }

   if (info) {
      img->vk_format = info->format;
      img->type = info->image_type;
      img->create_flags = info->flags;
      /* A truncated record names fewer formats than the image allows:
       * views of those it names are still valid. */
      img->view_format_count = CUVK_MIN(info->view_format_count, CUVK_ARRAY_MAX_VIEW_FORMATS);
      memcpy(img->view_formats, info->view_formats, img->view_format_count * sizeof(VkFormat));
      img->usage = info->usage;
      img->extent = info->extent;
      img->layers = info->array_layers;
      img->levels = info->mip_levels;
   } else {
      img->vk_format = format->vk;
      img->type = geo.type;
      img->create_flags = geo.create_flags;
      img->usage = usage;
      img->extent = geo.extent;
      img->layers = geo.layers;
      img->levels = desc->numLevels;
   }
   cuvk_vk_format_size(img->vk_format, &img->elem_size, &img->block);
   img->storage_format = cuvk_array_storage_format(ctx->dev, img->vk_format, img->create_flags, img->usage);
   /* The exporter's format list may leave the raw unsigned view out. */
   if (!cuvk_array_image_viewable(img, img->storage_format))
      img->storage_format = VK_FORMAT_UNDEFINED;

   return publish(ext, img, format, desc, out);
}

CUVK_EXPORT CUresult CUDAAPI
cuExternalMemoryGetMappedMipmappedArray(CUmipmappedArray *out, CUexternalMemory hext,
                                        const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *desc)
{
   struct cuvk_external_memory *ext;
   CUresult res = cuvk_driver_check(ENTRY);
   if (res != CUDA_SUCCESS)
      return res;
   if (!out || !hext || !desc)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: NULL argument", ENTRY);
   res = cuvk_external_memory_get(hext, CUDA_ERROR_INVALID_HANDLE, ENTRY, &ext);
   if (res != CUDA_SUCCESS)
      return res;
   /* The array takes a reference of its own; the call's goes after. */
   res = map_mipmapped_array(ext, desc, out);
   cuvk_external_memory_put(ext);
   return res;
}
