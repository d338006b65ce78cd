/*
 * One plane of a multi-planar (YCbCr) image as a CUDA array.
 *
 * FFmpeg's hwcontext_vulkan exports a video frame as ONE image of a format
 * such as VK_FORMAT_G8_B8R8_2PLANE_420_UNORM and maps each plane into CUDA
 * on its own: cuExternalMemoryGetMappedMipmappedArray with the plane's
 * offset in the memory, the plane's extent and a CUDA format of the
 * plane's texel size.  A CUDA descriptor cannot say "plane 1 of that
 * image", so cuvk works it out from the layer's record of the export: the
 * image bound at or below the offset, its plane table (format.c), and the
 * plane whose extent, texel size and offset match.  The array then wraps
 * the exporter's image re-created here, remembering the plane's aspect
 * and compatible single-plane format, so every copy names
 * VK_IMAGE_ASPECT_PLANE_i_BIT.
 *
 * Where the planes lie.  For LINEAR tiling vkGetImageSubresourceLayout
 * gives each plane's offset and the mapping's offset must be exactly that.
 * For OPTIMAL tiling Vulkan forbids that query
 * (VUID-vkGetImageSubresourceLayout-image-07790), so the plane is the one
 * whose extent and texel size match the descriptor, its offset must be the
 * image's for plane 0 and lie inside the image past the tightly packed
 * sizes of the planes before it otherwise; where two planes look alike
 * (planes 1 and 2 of a 3-plane format) the later one is taken once the
 * offset is past where it could start.  A disjoint image's planes are bound
 * on their own, and the offset must be that plane's binding.
 *
 * Sharing.  Memory dedicated to the image holds the import's one
 * re-created image (external_memory.c), and every plane mapped from it
 * wraps that image without owning it.  Otherwise each mapping creates its
 * own alias of the exporter's image, bound where the exporter bound it:
 * Vulkan allows no second binding of one image, and identical create info
 * over the same memory is what makes the bytes line up, as for the
 * exporter's own image.  Barriers of a non-disjoint image must name the
 * whole image (COLOR), so two planes of one image never meet in one
 * command (copy.c copies between them through a scratch buffer).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array/array.h"
#include "cuda_api/context.h"
#include "cuda_api/external_memory.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

#define ENTRY "cuExternalMemoryGetMappedMipmappedArray"

static const VkImageAspectFlagBits plane_aspects[3] = {
   VK_IMAGE_ASPECT_PLANE_0_BIT,
   VK_IMAGE_ASPECT_PLANE_1_BIT,
   VK_IMAGE_ASPECT_PLANE_2_BIT,
};

/* What one plane of the candidate image is. */
struct plane_desc {
   VkFormat format;
   unsigned elem_size;
   VkExtent3D extent;
   uint64_t offset;        /* in the memory; valid when offset_known */
   bool offset_known;
   uint64_t min_offset;    /* OPTIMAL: the earliest the plane can start */
};

struct candidate {
   const struct cuvk_mem_image_info *info;
   const struct cuvk_vk_planes *planes;
   bool dedicated;
   bool disjoint;
   uint64_t offset;                        /* of the (non-disjoint) image */
   const struct cuvk_mem_bound_image *bindings[3]; /* disjoint: each plane's */
   struct plane_desc plane[3];
   uint64_t size;                          /* non-disjoint: the image's memory size */
};

static bool
image_info_equal(const struct cuvk_mem_image_info *a, const struct cuvk_mem_image_info *b)
{
   return a->flags == b->flags && a->image_type == b->image_type && a->format == b->format &&
          a->extent.width == b->extent.width && a->extent.height == b->extent.height &&
          a->extent.depth == b->extent.depth && a->mip_levels == b->mip_levels &&
          a->array_layers == b->array_layers && a->tiling == b->tiling && a->usage == b->usage;
}

static int
aspect_plane(VkImageAspectFlagBits aspect)
{
   for (int i = 0; i < 3; i++)
      if (plane_aspects[i] == aspect)
         return i;
   return -1;
}

/* The multi-planar image the record puts at or below offset (the nearest
 * one); false when there is none. */
static bool
find_candidate(const struct cuvk_external_memory *ext, uint64_t offset, struct candidate *c)
{
   const struct cuvk_mem_export_record *rec = &ext->record;

   memset(c, 0, sizeof(*c));
   if (rec->dedicated == CUVK_MEM_DEDICATED_IMAGE) {
      c->planes = cuvk_vk_format_planes(rec->dedicated_image.format);
      if (!c->planes)
         return false;
      c->info = &rec->dedicated_image;
      c->dedicated = true;
      return true;
   }
   if (rec->dedicated != CUVK_MEM_DEDICATED_NONE)
      return false;

   int best = -1;
   for (uint32_t i = 0; i < rec->image_count; i++) {
      const struct cuvk_mem_bound_image *b = &rec->images[i];
      /* A single-plane image bound exactly there is what is meant. */
      if (b->offset == offset && !b->plane_aspect && !cuvk_vk_format_planes(b->info.format))
         return false;
      if (!cuvk_vk_format_planes(b->info.format) || b->offset > offset)
         continue;
      if (best < 0 || b->offset > rec->images[best].offset)
         best = (int)i;
   }
   if (best < 0)
      return false;

   const struct cuvk_mem_bound_image *b = &rec->images[best];
   c->info = &b->info;
   c->planes = cuvk_vk_format_planes(b->info.format);
   c->offset = b->offset;
   if (!b->plane_aspect)
      return true;

   /* A disjoint image: each plane's binding, the one of the same image
    * taken as the nearest in bind order with the same create info. */
   c->disjoint = true;
   for (unsigned p = 0; p < c->planes->count; p++) {
      int pick = -1;
      for (uint32_t i = 0; i < rec->image_count; i++) {
         const struct cuvk_mem_bound_image *o = &rec->images[i];
         if (aspect_plane(o->plane_aspect) != (int)p || !image_info_equal(&o->info, &b->info))
            continue;
         if (pick < 0 || abs((int)i - best) < abs(pick - best))
            pick = (int)i;
      }
      c->bindings[p] = pick >= 0 ? &rec->images[pick] : NULL;
   }
   return true;
}

static void
describe_planes(const struct candidate *c, char *buf, size_t size)
{
   size_t len = 0;
   buf[0] = '\0';
   for (unsigned p = 0; p < c->planes->count && len < size; p++) {
      const struct plane_desc *d = &c->plane[p];
      char where[64];
      if (d->offset_known)
         snprintf(where, sizeof(where), "offset %llu", (unsigned long long)d->offset);
      else
         snprintf(where, sizeof(where), "offset >= %llu", (unsigned long long)d->min_offset);
      len += (size_t)snprintf(buf + len, size - len, "%splane %u: %s, %ux%u, VkFormat %d (%u bytes per texel)",
                              p ? "; " : "", p, where, d->extent.width, d->extent.height,
                              (int)d->format, d->elem_size);
   }
}

/* Creates the image from its record and binds it (every plane of a
 * disjoint one) where the exporter did. */
static CUresult
create_bound(struct cuvk_external_memory *ext, struct candidate *c, VkImage *out)
{
   struct cuvk_context *ctx = ext->ctx;
   VkImageCreateInfo ci;
   VkExternalMemoryImageCreateInfo ext_ci;
   VkImageFormatListCreateInfo list;
   VkImage image;
   VkResult vr;
   CUresult res;

   cuvk_external_image_create_info(c->info, &ci, &ext_ci, &list,
                                   VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT);
   vr = vkCreateImage(ctx->vk, &ci, NULL, &image);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, ENTRY ": vkCreateImage of a multi-planar image");

   VkBindImageMemoryInfo binds[3];
   VkBindImagePlaneMemoryInfo plane_binds[3];
   uint32_t count = c->disjoint ? c->planes->count : 1;
   for (uint32_t p = 0; p < count; p++) {
      VkImagePlaneMemoryRequirementsInfo plane_req = {
         .sType = VK_STRUCTURE_TYPE_IMAGE_PLANE_MEMORY_REQUIREMENTS_INFO,
         .planeAspect = plane_aspects[p],
      };
      VkImageMemoryRequirementsInfo2 req_info = {
         .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2,
         .pNext = c->disjoint ? &plane_req : NULL,
         .image = image,
      };
      VkMemoryRequirements2 req = { .sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2 };
      vkGetImageMemoryRequirements2(ctx->vk, &req_info, &req);
      uint64_t at = c->disjoint ? c->bindings[p]->offset : c->offset;
      const VkMemoryRequirements *r = &req.memoryRequirements;
      if (at % r->alignment || r->size > ext->size || at > ext->size - r->size) {
         res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: the recorded image%s needs %llu bytes aligned to "
                          "%llu at offset %llu; the memory has %llu bytes", ENTRY,
                          c->disjoint ? "'s plane" : "", (unsigned long long)r->size,
                          (unsigned long long)r->alignment, (unsigned long long)at,
                          (unsigned long long)ext->size);
         goto fail;
      }
      if (!(r->memoryTypeBits & (1u << ext->record.memory_type_index))) {
         res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: the memory's type %u cannot hold this image "
                          "(types 0x%x can)", ENTRY, ext->record.memory_type_index, r->memoryTypeBits);
         goto fail;
      }
      if (!c->disjoint)
         c->size = r->size;
      plane_binds[p] = (VkBindImagePlaneMemoryInfo){
         .sType = VK_STRUCTURE_TYPE_BIND_IMAGE_PLANE_MEMORY_INFO,
         .planeAspect = plane_aspects[p],
      };
      binds[p] = (VkBindImageMemoryInfo){
         .sType = VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO,
         .pNext = c->disjoint ? &plane_binds[p] : NULL,
         .image = image,
         .memory = ext->memory,
         .memoryOffset = at,
      };
   }
   vr = vkBindImageMemory2(ctx->vk, count, binds);
   if (vr != VK_SUCCESS) {
      res = cuvk_vk_error(vr, ENTRY ": vkBindImageMemory2 of a multi-planar image");
      goto fail;
   }
   *out = image;
   return CUDA_SUCCESS;

fail:
   vkDestroyImage(ctx->vk, image, NULL);
   return res;
}

/* Fills c->plane[]: formats, extents and where each plane lies. */
static void
lay_out_planes(struct cuvk_context *ctx, struct candidate *c, VkImage image)
{
   uint64_t tight = 0;
   for (unsigned p = 0; p < c->planes->count; p++) {
      struct plane_desc *d = &c->plane[p];
      d->format = c->planes->plane[p];
      cuvk_vk_plane_format_size(d->format, &d->elem_size);
      d->extent = (VkExtent3D){
         c->info->extent.width / c->planes->width_div[p],
         c->info->extent.height / c->planes->height_div[p],
         1,
      };
      uint64_t base = c->disjoint ? c->bindings[p]->offset : c->offset;
      if (c->info->tiling == VK_IMAGE_TILING_LINEAR) {
         VkImageSubresource sub = { .aspectMask = plane_aspects[p] };
         VkSubresourceLayout layout;
         vkGetImageSubresourceLayout(ctx->vk, image, &sub, &layout);
         d->offset = base + layout.offset;
         d->offset_known = true;
      } else if (c->disjoint || p == 0) {
         /* OPTIMAL: a plane starts where it is bound. */
         d->offset = base;
         d->offset_known = true;
      } else {
         d->min_offset = base + tight;
      }
      tight += (uint64_t)d->extent.width * d->extent.height * d->elem_size;
   }
}

/* The plane the descriptor names, or -1. */
static int
match_plane(const struct candidate *c, const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *desc,
            const struct cuvk_format *format, const struct cuvk_array_geometry *geo)
{
   int found = -1;
   for (unsigned p = 0; p < c->planes->count; p++) {
      const struct plane_desc *d = &c->plane[p];
      if (d->elem_size != format->elem_size || format->block != 1 || geo->type != VK_IMAGE_TYPE_2D ||
          geo->extent.width != d->extent.width || geo->extent.height != d->extent.height ||
          geo->layers != c->info->array_layers || desc->numLevels > c->info->mip_levels)
         continue;
      if (d->offset_known) {
         if (desc->offset == d->offset)
            return (int)p;
         continue;
      }
      /* OPTIMAL, past plane 0: inside the image and past where this
       * plane could start; the later of two alike planes wins. */
      if (desc->offset >= d->min_offset && desc->offset < c->offset + c->size)
         found = (int)p;
   }
   return found;
}

CUresult
cuvk_array_map_plane(struct cuvk_external_memory *ext, const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *desc,
                     const struct cuvk_format *format, const struct cuvk_array_geometry *geo,
                     bool *handled, struct cuvk_array_image **out)
{
   struct cuvk_context *ctx = ext->ctx;
   struct candidate c;
   VkImage image = VK_NULL_HANDLE;
   CUresult res;

   *handled = false;
   if (!ext->has_record || !find_candidate(ext, desc->offset, &c))
      return CUDA_SUCCESS;
   *handled = true;

   const struct cuvk_mem_image_info *info = c.info;
   if (info->samples != VK_SAMPLE_COUNT_1_BIT || info->tiling == VK_IMAGE_TILING_DRM_FORMAT_MODIFIER_EXT)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: the exported multi-planar image (VkFormat %d) is "
                        "multisampled or has a DRM format modifier, which cuvk cannot map", ENTRY,
                        (int)info->format);
   if (c.disjoint) {
      for (unsigned p = 0; p < c.planes->count; p++) {
         if (!c.bindings[p])
            return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: the exported image (VkFormat %d) is disjoint "
                              "and its plane %u is not bound into this memory; cuvk can only map planes of "
                              "a disjoint image whose planes all lie in one allocation", ENTRY,
                              (int)info->format, p);
      }
   }

   if (c.dedicated) {
      if (!ext->dedicated_image)
         return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: the import did not re-create its dedicated image",
                           ENTRY);
      image = ext->dedicated_image;
      VkMemoryRequirements req;
      vkGetImageMemoryRequirements(ctx->vk, image, &req);
      c.size = req.size;
   } else {
      res = create_bound(ext, &c, &image);
      if (res != CUDA_SUCCESS)
         return res;
   }
   lay_out_planes(ctx, &c, image);

   int p = match_plane(&c, desc, format, geo);
   if (p < 0) {
      char planes[512];
      describe_planes(&c, planes, sizeof(planes));
      res = cuvk_error(CUDA_ERROR_INVALID_VALUE,
                       "%s: offset %llu, %ux%u, CU_AD_FORMAT_%s (%u bytes per texel), %u levels names no "
                       "plane of the exported %s%s image (VkFormat %d, %ux%u at offset %llu, %u levels): %s",
                       ENTRY, desc->offset, geo->extent.width, geo->extent.height, format->name,
                       format->elem_size, desc->numLevels, c.disjoint ? "disjoint " : "",
                       info->tiling == VK_IMAGE_TILING_LINEAR ? "linear" : "optimal-tiled", (int)info->format,
                       info->extent.width, info->extent.height, (unsigned long long)c.offset,
                       info->mip_levels, planes);
      goto fail;
   }

   struct cuvk_array_image *img = calloc(1, sizeof(*img));
   if (!img) {
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", ENTRY);
      goto fail;
   }
   img->ctx = ctx;
   img->ext = ext;
   img->external = true;
   img->image = image;
   img->owns_image = !c.dedicated;
   img->plane_aspect = plane_aspects[p];
   img->plane_disjoint = c.disjoint;
   img->vk_format = c.plane[p].format;
   img->elem_size = c.plane[p].elem_size;
   img->block = 1;
   img->type = VK_IMAGE_TYPE_2D;
   img->create_flags = info->flags;
   img->usage = info->usage;
   img->extent = c.plane[p].extent;
   img->layers = info->array_layers;
   img->levels = info->mip_levels;
   /* Copies of a plane take transfer commands: a storage view of one
    * plane would need the exporter to have made the image MUTABLE_FORMAT
    * with a storage-capable plane format, which video frames are not. */
   img->storage_format = VK_FORMAT_UNDEFINED;
   cuvk_logd("%s: offset %llu maps plane %d (VkFormat %d, %ux%u) of VkFormat %d image", ENTRY,
             desc->offset, p, (int)img->vk_format, img->extent.width, img->extent.height,
             (int)info->format);
   *out = img;
   return CUDA_SUCCESS;

fail:
   if (!c.dedicated)
      vkDestroyImage(ctx->vk, image, NULL);
   return res;
}
