/*
 * Texture and surface objects: cuTexObject* and cuSurfObject*
 * (texture.h, docs/textures.md).
 */
#include "cuda_api/texture.h"

#include <stdlib.h>
#include <string.h>

#include "array/array.h"
#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuda_api/module.h"
#include "mem/budget.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

/* Slots at most, on any device.  Without descriptor indexing every
 * element of a binding is written whenever objects come or go, and each
 * object has a VkSampler of its own: measured on an H100, 4096 slots
 * took the texture tests past two minutes and past the driver's 4000
 * samplers (maxSamplerAllocationCount). */
#define MAX_SLOTS 256u

void
cuvk_texture_target(const VkPhysicalDeviceLimits *l, uint32_t *tex_slots, uint32_t *surf_slots)
{
   /* Two sampled bindings (say float and uint 2D) and four storage ones
    * fit every kernel's stage at these counts; a kernel that needs more
    * is refused by the compiler, naming the limit. */
   uint32_t sampled = CUVK_MIN(l->maxPerStageDescriptorSamplers, l->maxPerStageDescriptorSampledImages);
   sampled = CUVK_MIN(sampled, l->maxPerStageResources);
   *tex_slots = CUVK_MIN(sampled / 2, MAX_SLOTS);
   *surf_slots = CUVK_MIN(CUVK_MIN(l->maxPerStageDescriptorStorageImages, l->maxPerStageResources) / 4, MAX_SLOTS);
}

/* A 1x1 image standing in for every slot of a binding without an object
 * of its kind: without descriptor indexing each element must be valid. */
struct dummy {
   struct cuvk_array_image *img;
   VkImageView view;
};

/* What kernels with one set of bindings share: the set layout, the
 * pipeline layout, and the set written for the tables' versions. */
struct binding_set {
   struct cuvk_list link;
   uint64_t mask;
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkDescriptorPool pool;         /* VK_NULL_HANDLE: no set written yet */
   VkDescriptorSet set;
   uint64_t tex_version, surf_version;
};

struct retired_pool {
   struct cuvk_deferred node;
   VkDescriptorPool pool;
};

static void dummy_free(struct cuvk_context *ctx, struct dummy *d);

/* ---- Handles ---- */

static uint64_t
handle_tag(bool surfaces)
{
   return surfaces ? CUVK_KERNEL_HANDLE_SURF : CUVK_KERNEL_HANDLE_TEX;
}

/* The flag bits of a slot's handle (kernel_abi.h): what a kernel would
 * otherwise load from the record before every sample. */
static uint64_t
handle_flags(const struct cuvk_tex_table *t, uint32_t slot)
{
   const struct cuvk_kernel_tex_record *r = &t->records[slot];
   if (t->surfaces)
      return 0;
   return (r->kind != CUVK_KERNEL_RES_IMAGE ? CUVK_KERNEL_HANDLE_MEMORY : 0) |
          (r->flags & CUVK_KERNEL_TEX_NORMALIZED ? CUVK_KERNEL_HANDLE_NORMALIZED : 0) |
          (r->flags & CUVK_KERNEL_TEX_CONVERT ? CUVK_KERNEL_HANDLE_CONVERT : 0) |
          (r->flags & CUVK_KERNEL_TEX_TEXEL_SAMPLER ? CUVK_KERNEL_HANDLE_TEXEL_SAMPLER : 0);
}

/* Whether kernels scale a texture's float texel coordinates: an image
 * whose sampler takes neither them nor normalised ones as they are
 * (CUVK_KERNEL_SPEC_TEX_SCALE). */
static bool
record_scaled(const struct cuvk_tex_table *t, const struct cuvk_kernel_tex_record *r)
{
   return !t->surfaces && r->kind == CUVK_KERNEL_RES_IMAGE &&
          !(r->flags & (CUVK_KERNEL_TEX_NORMALIZED | CUVK_KERNEL_TEX_TEXEL_SAMPLER));
}

static uint64_t
handle_make(const struct cuvk_tex_table *t, uint32_t slot)
{
   return handle_tag(t->surfaces) << CUVK_KERNEL_HANDLE_TAG_SHIFT | handle_flags(t, slot) |
          (uint64_t)t->slots[slot].generation << CUVK_KERNEL_HANDLE_GEN_SHIFT | (uint64_t)(slot + 1);
}

static const char *
kind_name(bool surfaces)
{
   return surfaces ? "surface object" : "texture object";
}

/* The slot a handle names: live, of this table's kind, of its
 * generation.  Context lock held. */
static CUresult
slot_find(const struct cuvk_tex_table *t, uint64_t handle, const char *entry, uint32_t *out)
{
   if (!handle)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s 0", entry, kind_name(t->surfaces));
   uint64_t tag = handle >> CUVK_KERNEL_HANDLE_TAG_SHIFT;
   uint32_t slot = (uint32_t)(handle & CUVK_KERNEL_HANDLE_SLOT_MASK);
   uint32_t gen = (uint32_t)(handle >> CUVK_KERNEL_HANDLE_GEN_SHIFT & CUVK_KERNEL_HANDLE_GEN_MASK);
   if (tag == handle_tag(!t->surfaces))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is a %s, not a %s", entry, (unsigned long long)handle,
                        kind_name(!t->surfaces), kind_name(t->surfaces));
   if (tag != handle_tag(t->surfaces) || slot == 0 || slot > t->slot_count || !t->slots ||
       !t->slots[slot - 1].used || t->slots[slot - 1].generation != gen || handle != handle_make(t, slot - 1))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is not a live %s of the current context", entry,
                        (unsigned long long)handle, kind_name(t->surfaces));
   *out = slot - 1;
   return CUDA_SUCCESS;
}

/* ---- Tables ---- */

static CUresult
table_init(struct cuvk_context *ctx, struct cuvk_tex_table *t, bool surfaces, uint32_t slots)
{
   uint8_t *map;
   t->surfaces = surfaces;
   t->slot_count = slots;
   if (!slots)
      return CUDA_SUCCESS;
   t->slots = calloc(slots, sizeof(*t->slots));
   if (!t->slots)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for the %s table", kind_name(surfaces));
   CUresult res = cuvk_launch_buffer_create(ctx, (VkDeviceSize)slots * sizeof(struct cuvk_kernel_tex_record),
                                            &t->records_buffer, &map, &t->records_address);
   if (res != CUDA_SUCCESS) {
      free(t->slots);
      t->slots = NULL;
      return res;
   }
   t->records = (struct cuvk_kernel_tex_record *)map;
   memset(t->records, 0, (size_t)slots * sizeof(struct cuvk_kernel_tex_record));
   return CUDA_SUCCESS;
}

static void
table_finish(struct cuvk_context *ctx, struct cuvk_tex_table *t)
{
   free(t->slots);
   cuvk_launch_buffer_destroy(ctx->vk, t->records_buffer);
}

/* The most custom border samplers alive at once: the device's, lowered
 * by CUVK_CUSTOM_BORDER_SAMPLERS (a testing setting, so the limit can be
 * reached on a device whose limit is far above its texture slots). */
static uint32_t
border_sampler_limit(uint32_t device)
{
   const char *env = getenv("CUVK_CUSTOM_BORDER_SAMPLERS");
   if (!env || !*env)
      return device;
   char *end = NULL;
   unsigned long v = strtoul(env, &end, 10);
   if (*end || env[0] == '-') {
      cuvk_logw("CUVK_CUSTOM_BORDER_SAMPLERS=%s is not a count: the device's %u stands", env, device);
      return device;
   }
   return v < device ? (uint32_t)v : device;
}

/* The context's tables, made at first use. */
static CUresult
tables_get(struct cuvk_context *ctx, struct cuvk_tex_tables **out)
{
   struct cuvk_tex_tables *tt = __atomic_load_n(&ctx->textures, __ATOMIC_ACQUIRE);
   if (tt) {
      *out = tt;
      return CUDA_SUCCESS;
   }
   uint32_t tex_slots = ctx->kernel_target.tex_slots, surf_slots = ctx->kernel_target.surf_slots;
   tt = calloc(1, sizeof(*tt));
   if (tt)
      tt->dummies = calloc(CUVK_KERNEL_BINDING_COUNT, sizeof(*tt->dummies));
   if (!tt || !tt->dummies) {
      free(tt);
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for the texture tables");
   }
   cuvk_list_init(&tt->binding_sets);
   cuvk_tex_desc_limits_init(ctx->dev, &tt->limits);
   /* Samplers are made as the plans say, within what the context's
    * VkDevice enabled (context.c). */
   const struct cuvk_sampler_features *sf = &ctx->samplers;
   tt->limits.max_anisotropy = sf->anisotropy ? CUVK_MIN(tt->limits.max_anisotropy, sf->max_anisotropy) : 0.0f;
   tt->limits.custom_border_color = tt->limits.custom_border_color && sf->custom_border;
   tt->limits.custom_border_without_format = tt->limits.custom_border_without_format && sf->border_without_format;
   tt->border_sampler_limit = sf->custom_border ? border_sampler_limit(sf->max_custom_border_samplers) : 0;
   CUresult res = table_init(ctx, &tt->tex, false, tex_slots);
   if (res == CUDA_SUCCESS) {
      res = table_init(ctx, &tt->surf, true, surf_slots);
      if (res != CUDA_SUCCESS)
         table_finish(ctx, &tt->tex);
   }
   if (res != CUDA_SUCCESS) {
      free(tt->dummies);
      free(tt);
      return res;
   }
   pthread_mutex_lock(&ctx->lock);
   if (ctx->textures) {
      /* Another thread made them first. */
      pthread_mutex_unlock(&ctx->lock);
      table_finish(ctx, &tt->tex);
      table_finish(ctx, &tt->surf);
      free(tt->dummies);
      free(tt);
      *out = ctx->textures;
      return CUDA_SUCCESS;
   }
   __atomic_store_n(&ctx->textures, tt, __ATOMIC_RELEASE);
   pthread_mutex_unlock(&ctx->lock);
   *out = tt;
   return CUDA_SUCCESS;
}

/* A free slot, or CUDA_ERROR_OUT_OF_MEMORY when all are taken.  Lock held. */
static CUresult
slot_alloc(struct cuvk_tex_table *t, const char *entry, uint32_t *out)
{
   for (uint32_t i = 0; i < t->slot_count; i++) {
      if (!t->slots[i].used) {
         *out = i;
         return CUDA_SUCCESS;
      }
   }
   return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: all %u %s slots of this device are in use "
                     "(docs/textures.md: the descriptor limits of the device set the count)",
                     entry, t->slot_count, kind_name(t->surfaces));
}

/* ---- Vulkan views and samplers ---- */

/*
 * Samplers with a custom border colour.  Vulkan bounds how many may live
 * at once (maxCustomBorderColorSamplers: 32768 on lavapipe, 24 on
 * Broadcom's V3DV), where CUDA has no such limit; textures that describe the
 * same sampler share one, so the bound is one of distinct descriptions.
 * Past it cuTexObjectCreate gives CUDA_ERROR_OUT_OF_MEMORY, as when the
 * texture slots run out.  The list is the context's (context.h); an
 * object's sampler is released when the object's view goes.
 */
struct border_sampler {
   struct cuvk_list link;
   VkSamplerCreateInfo info;                    /* pNext NULL */
   VkSamplerCustomBorderColorCreateInfoEXT border; /* pNext NULL */
   bool mapped;                                 /* `mapping` chained */
   VkSamplerBorderColorComponentMappingCreateInfoEXT mapping;
   VkSampler sampler;
   uint32_t refs;
};

static bool
components_equal(const VkComponentMapping *a, const VkComponentMapping *b)
{
   return a->r == b->r && a->g == b->g && a->b == b->b && a->a == b->a;
}

/* Field by field: the structures' padding is not known to be zero. */
static bool
border_sampler_matches(const struct border_sampler *e, const VkSamplerCreateInfo *i,
                       const VkSamplerCustomBorderColorCreateInfoEXT *b,
                       const VkSamplerBorderColorComponentMappingCreateInfoEXT *m)
{
   const VkSamplerCreateInfo *o = &e->info;
   return o->flags == i->flags && o->magFilter == i->magFilter && o->minFilter == i->minFilter &&
          o->mipmapMode == i->mipmapMode && o->addressModeU == i->addressModeU &&
          o->addressModeV == i->addressModeV && o->addressModeW == i->addressModeW &&
          o->mipLodBias == i->mipLodBias && o->anisotropyEnable == i->anisotropyEnable &&
          o->maxAnisotropy == i->maxAnisotropy && o->compareEnable == i->compareEnable &&
          o->compareOp == i->compareOp && o->minLod == i->minLod && o->maxLod == i->maxLod &&
          o->borderColor == i->borderColor && o->unnormalizedCoordinates == i->unnormalizedCoordinates &&
          e->border.format == b->format &&
          !memcmp(&e->border.customBorderColor, &b->customBorderColor, sizeof(b->customBorderColor)) &&
          e->mapped == (m != NULL) &&
          (!m || (components_equal(&e->mapping.components, &m->components) && e->mapping.srgb == m->srgb));
}

/* A sampler of info with custom border colour border (and the border's
 * component mapping m, or NULL): a live one that matches, with a further
 * reference, or a new one while the limit allows. */
static CUresult
border_sampler_get(struct cuvk_context *ctx, uint32_t limit, const VkSamplerCreateInfo *info,
                   const VkSamplerCustomBorderColorCreateInfoEXT *border,
                   const VkSamplerBorderColorComponentMappingCreateInfoEXT *m, const char *entry,
                   VkSampler *out)
{
   CUresult res = CUDA_SUCCESS;
   pthread_mutex_lock(&ctx->border_lock);
   cuvk_list_for_each_entry(struct border_sampler, e, &ctx->border_samplers, link) {
      if (border_sampler_matches(e, info, border, m)) {
         e->refs++;
         *out = e->sampler;
         goto out;
      }
   }
   if (ctx->border_sampler_count >= limit) {
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY,
                       "%s: %u samplers with custom border colours are live, as many as %s allows at once "
                       "(maxCustomBorderColorSamplers%s); textures describing the same sampler share one, "
                       "CUDA has no such limit", entry, ctx->border_sampler_count, ctx->dev->props.deviceName,
                       limit < ctx->samplers.max_custom_border_samplers ? ", lowered by CUVK_CUSTOM_BORDER_SAMPLERS"
                                                                          : "");
      goto out;
   }
   struct border_sampler *e = calloc(1, sizeof(*e));
   if (!e) {
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
      goto out;
   }
   e->info = *info;
   e->info.pNext = NULL;
   e->border = *border;
   e->border.pNext = NULL;
   e->mapped = m != NULL;
   if (m) {
      e->mapping = *m;
      e->mapping.pNext = NULL;
   }
   VkSamplerCreateInfo create = e->info;
   VkSamplerCustomBorderColorCreateInfoEXT chain_border = e->border;
   VkSamplerBorderColorComponentMappingCreateInfoEXT chain_mapping = e->mapping;
   create.pNext = &chain_border;
   if (m)
      chain_border.pNext = &chain_mapping;
   VkResult vr = vkCreateSampler(ctx->vk, &create, NULL, &e->sampler);
   if (vr != VK_SUCCESS) {
      free(e);
      res = cuvk_vk_error(vr, "vkCreateSampler for a texture object with a custom border colour");
      goto out;
   }
   e->refs = 1;
   cuvk_list_add(&e->link, &ctx->border_samplers);
   ctx->border_sampler_count++;
   *out = e->sampler;
out:
   pthread_mutex_unlock(&ctx->border_lock);
   return res;
}

/* Releases a texture's sampler: a reference where it is a shared one
 * with a custom border colour (destroyed with its last), else the
 * sampler. */
static void
sampler_release(struct cuvk_context *ctx, VkSampler sampler)
{
   if (!sampler)
      return;
   pthread_mutex_lock(&ctx->border_lock);
   cuvk_list_for_each_entry(struct border_sampler, e, &ctx->border_samplers, link) {
      if (e->sampler == sampler) {
         if (--e->refs == 0) {
            cuvk_list_del(&e->link);
            ctx->border_sampler_count--;
            vkDestroySampler(ctx->vk, e->sampler, NULL);
            free(e);
         }
         pthread_mutex_unlock(&ctx->border_lock);
         return;
      }
   }
   pthread_mutex_unlock(&ctx->border_lock);
   vkDestroySampler(ctx->vk, sampler, NULL);
}

void
cuvk_texture_finish_samplers(struct cuvk_context *ctx)
{
   cuvk_list_for_each_entry_safe(struct border_sampler, e, &ctx->border_samplers, link) {
      cuvk_logw("a sampler with a custom border colour outlived its %u texture objects", e->refs);
      vkDestroySampler(ctx->vk, e->sampler, NULL);
      free(e);
   }
   cuvk_list_init(&ctx->border_samplers);
   ctx->border_sampler_count = 0;
}

/* The Vulkan objects a slot holds while its object lives, and what goes
 * in its record and descriptor. */
struct slot_setup {
   struct cuvk_object *resource;
   VkImageView view;
   VkSampler sampler;
   uint32_t binding;
   struct cuvk_kernel_tex_record record;
};

static void
setup_discard(struct cuvk_context *ctx, struct slot_setup *s)
{
   if (s->view)
      vkDestroyImageView(ctx->vk, s->view, NULL);
   sampler_release(ctx, s->sampler);
   if (s->resource)
      cuvk_object_put(s->resource);
}

/* The image behind an array or mipmapped array resource, with a reference
 * on its handle, and the part of it an object views: levels and layers
 * (Vulkan's, six per cubemap) and the format the kernel reads. */
struct resource_image {
   struct cuvk_array_image *img;
   const struct cuvk_format *format;
   const CUDA_ARRAY3D_DESCRIPTOR *desc;
   uint32_t base_level, levels;
   uint32_t base_layer, layers;
   VkExtent3D extent;                    /* of base_level */
};

/* The image of the array or mipmapped array a plan references.  The
 * plan's reference moves to s (setup_discard drops it, or the slot keeps
 * it). */
static void
resource_image_take(struct cuvk_array **array, struct cuvk_mipmapped_array **mip, struct slot_setup *s,
                    struct resource_image *out)
{
   if (*array) {
      struct cuvk_array *a = *array;
      s->resource = &a->base;
      *out = (struct resource_image){
         .img = a->img, .format = a->format, .desc = &a->desc,
         .base_level = a->level, .levels = 1, .layers = a->img->layers, .extent = a->extent,
      };
   } else {
      struct cuvk_mipmapped_array *m = *mip;
      s->resource = &m->base;
      *out = (struct resource_image){
         .img = m->img, .format = m->format, .desc = &m->desc,
         .base_level = 0, .levels = m->levels, .layers = m->img->layers, .extent = m->img->extent,
      };
   }
   *array = NULL;
   *mip = NULL;
}

/* A texture views what its plan names: the levels and layers of a
 * resource view (all of them without one) in the view's format, the
 * extent of its first level.  The plan counts levels from the image's
 * first, so a level of a mipmapped array keeps its place. */
static void
resource_image_narrow(struct resource_image *ri, const struct cuvk_tex_plan *plan)
{
   ri->format = plan->format;
   ri->base_level = plan->base_level;
   ri->levels = plan->level_count;
   ri->base_layer = plan->base_layer;
   ri->layers = plan->layer_count;
   ri->extent = plan->extent;
}

static enum cuvk_kernel_tex_dim
image_dim(const struct resource_image *ri, bool surface, VkImageViewType *view_type)
{
   const struct cuvk_array_image *img = ri->img;
   unsigned flags = ri->desc->Flags;
   bool layered = flags & CUDA_ARRAY3D_LAYERED;
   if (img->type == VK_IMAGE_TYPE_3D) {
      *view_type = VK_IMAGE_VIEW_TYPE_3D;
      return CUVK_KERNEL_DIM_3D;
   }
   if (img->type == VK_IMAGE_TYPE_1D) {
      *view_type = layered ? VK_IMAGE_VIEW_TYPE_1D_ARRAY : VK_IMAGE_VIEW_TYPE_1D;
      return layered ? CUVK_KERNEL_DIM_1D_ARRAY : CUVK_KERNEL_DIM_1D;
   }
   /* CUDA addresses a cubemap's faces as layers in surface calls. */
   if ((flags & CUDA_ARRAY3D_CUBEMAP) && !surface) {
      *view_type = layered ? VK_IMAGE_VIEW_TYPE_CUBE_ARRAY : VK_IMAGE_VIEW_TYPE_CUBE;
      return layered ? CUVK_KERNEL_DIM_CUBE_ARRAY : CUVK_KERNEL_DIM_CUBE;
   }
   if (layered || (flags & CUDA_ARRAY3D_CUBEMAP)) {
      *view_type = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
      return CUVK_KERNEL_DIM_2D_ARRAY;
   }
   *view_type = VK_IMAGE_VIEW_TYPE_2D;
   return CUVK_KERNEL_DIM_2D;
}

static const char *
unviewable_reason(const struct cuvk_array_image *img)
{
   return (img->create_flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT)
             ? "the format list it was made with does not name that format"
             : "it was made without VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT";
}

_Static_assert(CUVK_CHANNEL_UINT == (int)CUVK_KERNEL_CHANNEL_UINT &&
                  CUVK_CHANNEL_SINT == (int)CUVK_KERNEL_CHANNEL_SINT &&
                  CUVK_CHANNEL_UNORM == (int)CUVK_KERNEL_CHANNEL_UNORM &&
                  CUVK_CHANNEL_SNORM == (int)CUVK_KERNEL_CHANNEL_SNORM &&
                  CUVK_CHANNEL_SRGB == (int)CUVK_KERNEL_CHANNEL_SRGB &&
                  CUVK_CHANNEL_SFLOAT == (int)CUVK_KERNEL_CHANNEL_SFLOAT,
               "channel kinds");

/*
 * A texture whose view format the image cannot take (an imported image
 * made without MUTABLE_FORMAT, or whose format list does not name it)
 * reads a view of the image's own format instead, and the kernel
 * converts each sample (kernel_abi.h, CUVK_KERNEL_TEX_CONVERT), where
 * the two formats have the same channels of the same bits: an
 * UNSIGNED_INT8 array over an R8G8B8A8_UNORM image read as integers, an
 * R8_UINT one read as normalised floats.  The conversion is exact (but
 * for -128 of a signed normalised view read as an integer, which
 * Vulkan reads as -1.0, as -127).  Filtering would blend the view's
 * values, not the texture's (and Vulkan filters no integer view): a
 * texture that filters linearly is refused with CUDA_ERROR_NOT_SUPPORTED,
 * as is a border colour other than transparent black, which the sampler
 * would give in the view's kind.
 * Fills the view format, its sampled type and the record's flags.
 */
static CUresult
texture_convert(const struct resource_image *ri, const struct cuvk_tex_plan *plan, const char *entry,
                VkFormat *vk, enum cuvk_kernel_tex_type *type, uint32_t *flags)
{
   const CUDA_TEXTURE_DESC *td = &plan->tex;
   VkFormat own = ri->img->vk_format;
   enum cuvk_channel_kind from, to;
   unsigned from_channels, from_bits, to_channels, to_bits;
   if (!cuvk_vk_format_channels(own, &from, &from_channels, &from_bits) ||
       !cuvk_vk_format_channels(*vk, &to, &to_channels, &to_bits) || from_channels != to_channels ||
       from_bits != to_bits)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: the array's image (format %d) cannot be viewed as format "
                        "%d (CU_AD_FORMAT_%s): %s, and the two formats' channels differ, so a kernel cannot "
                        "convert one to the other", entry, own, *vk, ri->format->name, unviewable_reason(ri->img));
   if (!plan->point_only && (td->filterMode == CU_TR_FILTER_MODE_LINEAR ||
                             (ri->levels > 1 && td->mipmapFilterMode == CU_TR_FILTER_MODE_LINEAR)))
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: the array's image (format %d) cannot be viewed as format "
                        "%d (CU_AD_FORMAT_%s): %s; a texture reads it through a view of its own format and "
                        "converts each texel, so it cannot filter linearly (point filtering works)", entry, own,
                        *vk, ri->format->name, unviewable_reason(ri->img));
   /* The sampler's border texel is of the view's kind too, and only
    * transparent black reads the same through every conversion. */
   const VkSamplerCreateInfo *si = &plan->sampler;
   if ((si->addressModeU == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER ||
        si->addressModeV == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER ||
        si->addressModeW == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER) &&
       si->borderColor != VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK &&
       si->borderColor != VK_BORDER_COLOR_INT_TRANSPARENT_BLACK)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: the array's image (format %d) cannot be viewed as format "
                        "%d (CU_AD_FORMAT_%s): %s; a texture reads it through a view of its own format and "
                        "converts each texel, where a border colour other than (0, 0, 0, 0) would be converted "
                        "too", entry, own, *vk, ri->format->name, unviewable_reason(ri->img));
   *vk = own;
   *type = from == CUVK_CHANNEL_UINT ? CUVK_KERNEL_TEX_UINT
           : from == CUVK_CHANNEL_SINT ? CUVK_KERNEL_TEX_SINT
                                       : CUVK_KERNEL_TEX_FLOAT;
   uint32_t bits_log2 = from_bits == 8 ? 0 : from_bits == 16 ? 1 : 2;
   *flags = CUVK_KERNEL_TEX_CONVERT | (uint32_t)from << CUVK_KERNEL_TEX_CONVERT_FROM_SHIFT |
            (uint32_t)to << CUVK_KERNEL_TEX_CONVERT_TO_SHIFT | bits_log2 << CUVK_KERNEL_TEX_CONVERT_BITS_SHIFT;
   return CUDA_SUCCESS;
}

/* CUDA reads the channels a format lacks as 0, alpha too (measured on an
 * H100, 1- and 2-channel float and int arrays), where Vulkan reads alpha
 * as 1: sampled views map them to zero (border colours included, as
 * CUDA's: plan_border zeroes them in the colour too). */
static VkComponentMapping
view_components(const struct cuvk_format *format, VkImageUsageFlags usage)
{
   VkComponentMapping components = {0};
   unsigned channels = format->channels;
   if ((usage & VK_IMAGE_USAGE_SAMPLED_BIT) && format->block == 1 && channels < 4) {
      components.g = channels < 2 ? VK_COMPONENT_SWIZZLE_ZERO : VK_COMPONENT_SWIZZLE_IDENTITY;
      components.b = VK_COMPONENT_SWIZZLE_ZERO;
      components.a = VK_COMPONENT_SWIZZLE_ZERO;
   }
   return components;
}

static CUresult
view_create(struct cuvk_context *ctx, const struct resource_image *ri, VkImageViewType view_type,
            VkFormat format, VkImageUsageFlags usage, const char *entry, VkImageView *out)
{
   const struct cuvk_array_image *img = ri->img;
   /* cuvk makes its arrays MUTABLE_FORMAT where the device allows
    * (src/array/array.c); an imported image has the exporter's flags and
    * format list.  Textures that cannot have their format's view convert
    * instead (texture_convert); a surface's raw view has no way round. */
   if (!cuvk_array_image_viewable(img, format))
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: the array's image (format %d) cannot be viewed as format "
                        "%d (CU_AD_FORMAT_%s): %s", entry, img->vk_format, format, ri->format->name,
                        unviewable_reason(img));
   VkImageViewUsageCreateInfo usage_info = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO,
      .usage = usage,
   };
   VkComponentMapping components = view_components(ri->format, usage);
   VkImageViewCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
      .pNext = &usage_info,
      .image = img->image,
      .viewType = view_type,
      .format = format,
      .components = components,
      .subresourceRange = {
         .aspectMask = cuvk_array_image_aspect(img),
         .baseMipLevel = ri->base_level,
         .levelCount = ri->levels,
         .baseArrayLayer = ri->base_layer,
         .layerCount = ri->layers,
      },
   };
   VkResult vr = vkCreateImageView(ctx->vk, &info, NULL, out);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkCreateImageView for a texture or surface object");
   return CUDA_SUCCESS;
}

static void
record_image(struct cuvk_kernel_tex_record *r, const struct resource_image *ri)
{
   const struct cuvk_array_image *img = ri->img;
   r->kind = CUVK_KERNEL_RES_IMAGE;
   r->format = ri->format->cu;
   r->channels = ri->format->channels;
   r->width = ri->extent.width;
   r->height = img->type == VK_IMAGE_TYPE_1D ? 1 : ri->extent.height;
   r->depth = img->type == VK_IMAGE_TYPE_3D ? ri->extent.depth : ri->layers;
   r->levels = ri->levels;
}

/* The plan's sampling state, its flags resolved for the format as
 * kernel_abi.h says: kernels reading memory decode the format themselves
 * and need only know whether the result is integers and whether sRGB
 * converts. */
static void
record_sampling(struct cuvk_kernel_tex_record *r, const struct cuvk_tex_plan *plan)
{
   const CUDA_TEXTURE_DESC *td = &plan->tex;
   r->flags = 0;
   if (plan->sampled != CUVK_TEX_SAMPLED_FLOAT)
      r->flags |= CUVK_KERNEL_TEX_READ_AS_INTEGER;
   if (td->flags & CU_TRSF_NORMALIZED_COORDINATES)
      r->flags |= CUVK_KERNEL_TEX_NORMALIZED;
   if (plan->srgb)
      r->flags |= CUVK_KERNEL_TEX_SRGB;
   for (unsigned i = 0; i < 3; i++)
      r->address_mode[i] = td->addressMode[i];
   r->filter_mode = plan->point_only ? CU_TR_FILTER_MODE_POINT : td->filterMode;
   memcpy(r->border_color, td->borderColor, sizeof(r->border_color));
}

/* A texture over an array or a mipmapped array: the plan's format and
 * sampled type (cuvk_tex_desc_check has checked the descriptions), and
 * what the device can do with them. */
static CUresult
texture_image_setup(struct cuvk_context *ctx, struct cuvk_tex_plan *plan, const char *entry, struct slot_setup *s)
{
   const CUDA_TEXTURE_DESC *td = &plan->tex;
   struct resource_image ri;
   resource_image_take(&plan->array, &plan->mipmap, s, &ri);
   if (ri.img->ctx != ctx)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: the array belongs to another context", entry);
   resource_image_narrow(&ri, plan);
   if (!(ri.img->usage & VK_IMAGE_USAGE_SAMPLED_BIT))
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: %s cannot sample CU_AD_FORMAT_%s images", entry,
                        ctx->dev->props.deviceName, ri.format->name);
   VkFormat vk = plan->view_format;
   enum cuvk_kernel_tex_type type = plan->sampled == CUVK_TEX_SAMPLED_SINT   ? CUVK_KERNEL_TEX_SINT
                                    : plan->sampled == CUVK_TEX_SAMPLED_UINT ? CUVK_KERNEL_TEX_UINT
                                                                             : CUVK_KERNEL_TEX_FLOAT;
   uint32_t convert = 0;
   VkSamplerCreateInfo sampler = plan->sampler;
   if (!cuvk_array_image_viewable(ri.img, vk)) {
      enum cuvk_kernel_tex_type read_type = type;
      CUresult res = texture_convert(&ri, plan, entry, &vk, &type, &convert);
      if (res != CUDA_SUCCESS)
         return res;
      /* Vulkan's fixed border colours come as float or int, after the
       * view's type (texture_convert took only transparent black, which
       * every conversion keeps). */
      if ((read_type == CUVK_KERNEL_TEX_FLOAT) != (type == CUVK_KERNEL_TEX_FLOAT) &&
          sampler.borderColor <= VK_BORDER_COLOR_INT_OPAQUE_WHITE)
         sampler.borderColor = type == CUVK_KERNEL_TEX_FLOAT ? (VkBorderColor)(sampler.borderColor & ~1)
                                                             : (VkBorderColor)(sampler.borderColor | 1);
   }
   VkFormatProperties props;
   vkGetPhysicalDeviceFormatProperties(ctx->dev->pdev, vk, &props);
   VkFormatFeatureFlags need = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
   /* Linear filtering of integers was refused by the plan. */
   if (!plan->point_only && (td->filterMode == CU_TR_FILTER_MODE_LINEAR ||
                             (ri.levels > 1 && td->mipmapFilterMode == CU_TR_FILTER_MODE_LINEAR)))
      need |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
   if ((props.optimalTilingFeatures & need) != need)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: %s cannot %s CU_AD_FORMAT_%s%s", entry,
                        ctx->dev->props.deviceName,
                        (need & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT) ? "filter" : "sample",
                        ri.format->name, (td->flags & CU_TRSF_SRGB) ? " as sRGB" : "");
   VkImageViewType view_type;
   enum cuvk_kernel_tex_dim dim = image_dim(&ri, false, &view_type);
   /* Cube array views need imageCubeArray, which the context enables
    * where the device has it. */
   if (view_type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY && !ctx->kernel_target.image_cube_array)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: %s lacks imageCubeArray: no textures of layered cubemaps",
                        entry, ctx->dev->props.deviceName);
   CUresult res = view_create(ctx, &ri, view_type, vk, VK_IMAGE_USAGE_SAMPLED_BIT, entry, &s->view);
   if (res != CUDA_SUCCESS)
      return res;
   /* The plan's sampler: texel coordinates where the plan says Vulkan
    * takes them, else normalised ones (the kernel scales CUDA's texel
    * ones).  A custom border colour (a conversion took none) comes from
    * the shared ones; with VK_EXT_border_color_swizzle it names the
    * view's swizzle, which Vulkan otherwise leaves the border to apply
    * or not (the plan zeroed the swizzled channels, so either reads the
    * same). */
   if (plan->custom_border) {
      VkComponentMapping components = view_components(ri.format, VK_IMAGE_USAGE_SAMPLED_BIT);
      VkComponentMapping identity = {0};
      enum cuvk_channel_kind kind;
      unsigned channels, bits;
      VkSamplerBorderColorComponentMappingCreateInfoEXT mapping = {
         .sType = VK_STRUCTURE_TYPE_SAMPLER_BORDER_COLOR_COMPONENT_MAPPING_CREATE_INFO_EXT,
         .components = components,
         .srgb = cuvk_vk_format_channels(vk, &kind, &channels, &bits) && kind == CUVK_CHANNEL_SRGB,
      };
      bool mapped = ctx->samplers.border_swizzle && !components_equal(&components, &identity);
      const struct cuvk_tex_tables *tt = __atomic_load_n(&ctx->textures, __ATOMIC_ACQUIRE);
      res = border_sampler_get(ctx, tt->border_sampler_limit, &sampler, &plan->border,
                               mapped ? &mapping : NULL, entry, &s->sampler);
      if (res != CUDA_SUCCESS)
         return res;
   } else {
      VkResult vr = vkCreateSampler(ctx->vk, &sampler, NULL, &s->sampler);
      if (vr != VK_SUCCESS)
         return cuvk_vk_error(vr, "vkCreateSampler for a texture object");
   }
   s->binding = CUVK_KERNEL_TEX_BINDING(dim, type);
   record_image(&s->record, &ri);
   record_sampling(&s->record, plan);
   s->record.flags |= convert;
   if (plan->texel_coords)
      s->record.flags |= CUVK_KERNEL_TEX_TEXEL_SAMPLER;
   return CUDA_SUCCESS;
}

/* Linear and pitched memory: only a record, from the plan; the kernel
 * reads the memory through the page table. */
static void
texture_memory_setup(const struct cuvk_tex_plan *plan, struct slot_setup *s)
{
   struct cuvk_kernel_tex_record *r = &s->record;
   r->kind = plan->kind == CU_RESOURCE_TYPE_LINEAR ? CUVK_KERNEL_RES_LINEAR : CUVK_KERNEL_RES_PITCH2D;
   r->format = plan->format->cu;
   r->channels = plan->format->channels;
   r->address = plan->address;
   r->width = plan->extent.width;
   r->height = plan->extent.height;
   r->depth = 1;
   r->levels = 1;
   r->pitch = plan->pitch;
   s->binding = UINT32_MAX;
   record_sampling(r, plan);
}

/* A surface over the plan's array (cuvk_surf_desc_check has checked it),
 * where the device can load and store its texels. */
static CUresult
surface_setup(struct cuvk_context *ctx, struct cuvk_surf_plan *plan, const char *entry, struct slot_setup *s)
{
   struct cuvk_mipmapped_array *none = NULL;
   struct resource_image ri;
   resource_image_take(&plan->array, &none, s, &ri);
   if (ri.img->ctx != ctx)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: the array belongs to another context", entry);
   unsigned size_log2 = (unsigned)__builtin_ctz(plan->texel_size);
   VkFormat vk = plan->storage_format;
   VkFormatProperties props;
   vkGetPhysicalDeviceFormatProperties(ctx->dev->pdev, vk, &props);
   if (!(ri.img->usage & VK_IMAGE_USAGE_STORAGE_BIT) ||
       !(props.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT))
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: %s cannot load and store CU_AD_FORMAT_%s as %u-byte texels",
                        entry, ctx->dev->props.deviceName, ri.format->name, 1u << size_log2);
   VkImageViewType view_type;
   enum cuvk_kernel_tex_dim dim = image_dim(&ri, true, &view_type);
   CUresult res = view_create(ctx, &ri, view_type, vk, VK_IMAGE_USAGE_STORAGE_BIT, entry, &s->view);
   if (res != CUDA_SUCCESS)
      return res;
   s->binding = CUVK_KERNEL_SURF_BINDING(dim, size_log2);
   record_image(&s->record, &ri);
   return CUDA_SUCCESS;
}

/* ---- Create and destroy ---- */

/* Checks the descriptions (texture_desc.c, the one set of rules; codes in
 * docs/textures.md) and makes what the slot will hold. */
static CUresult
object_setup(struct cuvk_context *ctx, struct cuvk_tex_tables *tt, bool surface, const CUDA_RESOURCE_DESC *rd,
             const CUDA_TEXTURE_DESC *td, const CUDA_RESOURCE_VIEW_DESC *view, const char *entry,
             struct slot_setup *s)
{
   CUresult res;
   if (surface) {
      struct cuvk_surf_plan plan;
      res = cuvk_surf_desc_check(rd, &plan);
      if (res != CUDA_SUCCESS)
         return res;
      res = surface_setup(ctx, &plan, entry, s);
      cuvk_surf_plan_finish(&plan);
      return res;
   }
   struct cuvk_tex_plan plan;
   res = cuvk_tex_desc_check(rd, td, view, &tt->limits, &plan);
   if (res != CUDA_SUCCESS)
      return res;
   if (plan.kind == CU_RESOURCE_TYPE_ARRAY || plan.kind == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY)
      res = texture_image_setup(ctx, &plan, entry, s);
   else
      texture_memory_setup(&plan, s);
   cuvk_tex_plan_finish(&plan);
   return res;
}

static CUresult
object_create(bool surface, unsigned long long *handle, const CUDA_RESOURCE_DESC *rd, const CUDA_TEXTURE_DESC *td,
              const CUDA_RESOURCE_VIEW_DESC *view, const char *entry)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   struct cuvk_tex_tables *tt;
   CUresult res = cuvk_context_current(entry, &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!handle)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: the handle pointer is NULL", entry);
   res = tables_get(ctx, &tt);
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_tex_table *t = surface ? &tt->surf : &tt->tex;
   struct slot_setup s = {.binding = UINT32_MAX};
   res = object_setup(ctx, tt, surface, rd, td, view, entry, &s);
   if (res == CUDA_SUCCESS && !t->slot_count)
      res = cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: %s has no descriptors for %ss", entry,
                       ctx->dev->props.deviceName, kind_name(surface));
   if (res != CUDA_SUCCESS) {
      setup_discard(ctx, &s);
      return res;
   }

   pthread_mutex_lock(&ctx->lock);
   uint32_t i = 0;
   res = slot_alloc(t, entry, &i);
   if (res == CUDA_SUCCESS) {
      struct cuvk_tex_slot *slot = &t->slots[i];
      slot->used = true;
      /* A new generation, never 0, so an old handle of this slot fails. */
      slot->generation = (uint32_t)((slot->generation + 1) & CUVK_KERNEL_HANDLE_GEN_MASK);
      if (!slot->generation)
         slot->generation = 1;
      slot->res = *rd;
      if (td)
         slot->tex = *td;
      slot->has_view = view != NULL;
      slot->view_desc = view ? *view : (CUDA_RESOURCE_VIEW_DESC){0};
      /* The slot keeps its array without holding the context, which
       * frees the slot at its teardown. */
      if (s.resource)
         cuvk_object_keep(s.resource);
      slot->resource = s.resource;
      slot->view = s.view;
      slot->sampler = s.sampler;
      slot->binding = s.binding;
      t->records[i] = s.record;
      t->memory_objects += !surface && s.record.kind != CUVK_KERNEL_RES_IMAGE;
      t->scaled_objects += record_scaled(t, &s.record);
      t->convert_objects += !surface && (s.record.flags & CUVK_KERNEL_TEX_CONVERT);
      t->version++;
      *handle = handle_make(t, i);
   }
   pthread_mutex_unlock(&ctx->lock);
   if (res != CUDA_SUCCESS)
      setup_discard(ctx, &s);
   return res;
}

struct retired_views {
   struct cuvk_deferred node;
   VkImageView view;
   VkSampler sampler;
};

static void
retired_views_free(struct cuvk_context *ctx, void *data)
{
   struct retired_views *r = data;
   vkDestroyImageView(ctx->vk, r->view, NULL);
   sampler_release(ctx, r->sampler);
   free(r);
}

static CUresult
object_destroy(bool surface, uint64_t handle, const char *entry)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_current(entry, &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_tex_tables *tt = __atomic_load_n(&ctx->textures, __ATOMIC_ACQUIRE);
   if (!tt)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is not a live %s of the current context", entry,
                        (unsigned long long)handle, kind_name(surface));
   /* Allocated before the lock so that nothing can fail once the slot is
    * emptied. */
   struct retired_views *r = calloc(1, sizeof(*r));
   if (!r)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
   struct cuvk_tex_table *t = surface ? &tt->surf : &tt->tex;
   struct cuvk_object *resource = NULL;
   uint32_t i = 0;
   pthread_mutex_lock(&ctx->lock);
   res = slot_find(t, handle, entry, &i);
   if (res == CUDA_SUCCESS) {
      struct cuvk_tex_slot *slot = &t->slots[i];
      resource = slot->resource;
      /* Work recorded before may still sample the view: it goes once
       * that work is done.  The slot itself is free at once; a new
       * object in it gets a new generation and new descriptors. */
      if (slot->view || slot->sampler) {
         r->view = slot->view;
         r->sampler = slot->sampler;
         r->node.fn = retired_views_free;
         r->node.data = r;
         cuvk_submit_defer(ctx, &r->node);
         r = NULL;
      }
      slot->used = false;
      slot->resource = NULL;
      slot->view = VK_NULL_HANDLE;
      slot->sampler = VK_NULL_HANDLE;
      slot->binding = UINT32_MAX;
      t->memory_objects -= !surface && t->records[i].kind != CUVK_KERNEL_RES_IMAGE;
      t->scaled_objects -= record_scaled(t, &t->records[i]);
      t->convert_objects -= !surface && (t->records[i].flags & CUVK_KERNEL_TEX_CONVERT);
      memset(&t->records[i], 0, sizeof(t->records[i]));
      t->version++;
   }
   pthread_mutex_unlock(&ctx->lock);
   free(r);
   /* The array's reference goes last, outside the lock: dropping it may
    * free the array, which defers its image after the views above. */
   if (resource)
      cuvk_object_put_kept(resource);
   return res;
}

/* Copies what a live object's slot holds, under the lock. */
static CUresult
object_query(bool surface, uint64_t handle, const char *entry, CUDA_RESOURCE_DESC *rd, CUDA_TEXTURE_DESC *td,
             CUDA_RESOURCE_VIEW_DESC *vd)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_current(entry, &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!rd && !td && !vd)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: NULL argument", entry);
   struct cuvk_tex_tables *tt = __atomic_load_n(&ctx->textures, __ATOMIC_ACQUIRE);
   if (!tt)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is not a live %s of the current context", entry,
                        (unsigned long long)handle, kind_name(surface));
   struct cuvk_tex_table *t = surface ? &tt->surf : &tt->tex;
   uint32_t i = 0;
   pthread_mutex_lock(&ctx->lock);
   res = slot_find(t, handle, entry, &i);
   if (res == CUDA_SUCCESS) {
      if (rd)
         *rd = t->slots[i].res;
      if (td)
         *td = t->slots[i].tex;
      if (vd && !t->slots[i].has_view)
         res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: texture object 0x%llx was made without a resource view",
                          entry, (unsigned long long)handle);
      else if (vd)
         *vd = t->slots[i].view_desc;
   }
   pthread_mutex_unlock(&ctx->lock);
   return res;
}

static void
table_release(struct cuvk_context *ctx, struct cuvk_tex_table *t)
{
   for (uint32_t i = 0; i < t->slot_count; i++) {
      struct cuvk_tex_slot *slot = &t->slots[i];
      if (!slot->used)
         continue;
      vkDestroyImageView(ctx->vk, slot->view, NULL);
      sampler_release(ctx, slot->sampler);
      if (slot->resource)
         cuvk_object_put_kept(slot->resource);
   }
   table_finish(ctx, t);
}

void
cuvk_texture_release_context(struct cuvk_context *ctx)
{
   struct cuvk_tex_tables *tt = ctx->textures;
   if (!tt)
      return;
   /* Objects the application never destroyed: CUDA frees them with the
    * context.  Their references go before the arrays are freed. */
   table_release(ctx, &tt->tex);
   table_release(ctx, &tt->surf);
   cuvk_list_for_each_entry_safe(struct binding_set, s, &tt->binding_sets, link) {
      vkDestroyDescriptorPool(ctx->vk, s->pool, NULL);
      vkDestroyPipelineLayout(ctx->vk, s->layout, NULL);
      vkDestroyDescriptorSetLayout(ctx->vk, s->set_layout, NULL);
      free(s);
   }
   for (uint32_t b = 0; b < CUVK_KERNEL_BINDING_COUNT; b++)
      dummy_free(ctx, &tt->dummies[b]);
   free(tt->dummies);
   vkDestroySampler(ctx->vk, tt->dummy_sampler, NULL);
   free(tt);
   ctx->textures = NULL;
}

/* ---- Launches (docs/textures.md, "Without descriptor indexing") ---- */

static bool
binding_is_storage(uint32_t b)
{
   return b >= CUVK_KERNEL_SURF_BINDING_BASE;
}

/* The dimension, and the sampled type or texel size, of a binding. */
static void
binding_decode(uint32_t b, enum cuvk_kernel_tex_dim *dim, unsigned *sub)
{
   if (binding_is_storage(b)) {
      *dim = (enum cuvk_kernel_tex_dim)((b - CUVK_KERNEL_SURF_BINDING_BASE) / CUVK_KERNEL_SURF_SIZE_COUNT);
      *sub = (b - CUVK_KERNEL_SURF_BINDING_BASE) % CUVK_KERNEL_SURF_SIZE_COUNT;
   } else {
      *dim = (enum cuvk_kernel_tex_dim)(b / CUVK_KERNEL_TEX_TYPE_COUNT);
      *sub = b % CUVK_KERNEL_TEX_TYPE_COUNT;
   }
}

static void
dummy_free(struct cuvk_context *ctx, struct dummy *d)
{
   if (!d->img)
      return;
   vkDestroyImageView(ctx->vk, d->view, NULL);
   vkDestroyImage(ctx->vk, d->img->image, NULL);
   vkFreeMemory(ctx->vk, d->img->memory, NULL);
   cuvk_mem_budget_unreserve(&ctx->dev->budget, d->img->memory_type, d->img->memory_size);
   free(d->img);
   d->img = NULL;
}

/* The dummy of binding b, made at first need.  Context lock not held (the
 * image's layout transition is recorded). */
static CUresult
dummy_get(struct cuvk_context *ctx, struct cuvk_tex_tables *tt, uint32_t b, const char *entry)
{
   if (tt->dummies[b].img)
      return CUDA_SUCCESS;
   enum cuvk_kernel_tex_dim dim;
   unsigned sub;
   binding_decode(b, &dim, &sub);
   bool storage = binding_is_storage(b);
   CUarray_format cf;
   unsigned channels = 1;
   if (storage) {
      static const CUarray_format formats[] = {CU_AD_FORMAT_UNSIGNED_INT8, CU_AD_FORMAT_UNSIGNED_INT16,
                                               CU_AD_FORMAT_UNSIGNED_INT32, CU_AD_FORMAT_UNSIGNED_INT32,
                                               CU_AD_FORMAT_UNSIGNED_INT32};
      cf = formats[sub];
      channels = sub == 3 ? 2 : sub == 4 ? 4 : 1;
   } else {
      cf = sub == CUVK_KERNEL_TEX_FLOAT ? CU_AD_FORMAT_FLOAT
           : sub == CUVK_KERNEL_TEX_SINT ? CU_AD_FORMAT_SIGNED_INT32 : CU_AD_FORMAT_UNSIGNED_INT32;
   }
   const struct cuvk_format *f;
   CUresult res = cuvk_format_lookup(cf, channels, entry, &f);
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_array_geometry geo = {.extent = {1, 1, 1}, .layers = 1, .max_levels = 1};
   VkImageViewType view_type;
   switch (dim) {
   case CUVK_KERNEL_DIM_1D:
      geo.type = VK_IMAGE_TYPE_1D;
      view_type = VK_IMAGE_VIEW_TYPE_1D;
      break;
   case CUVK_KERNEL_DIM_2D:
      geo.type = VK_IMAGE_TYPE_2D;
      view_type = VK_IMAGE_VIEW_TYPE_2D;
      break;
   case CUVK_KERNEL_DIM_3D:
      geo.type = VK_IMAGE_TYPE_3D;
      view_type = VK_IMAGE_VIEW_TYPE_3D;
      break;
   case CUVK_KERNEL_DIM_1D_ARRAY:
      geo.type = VK_IMAGE_TYPE_1D;
      view_type = VK_IMAGE_VIEW_TYPE_1D_ARRAY;
      break;
   case CUVK_KERNEL_DIM_2D_ARRAY:
      geo.type = VK_IMAGE_TYPE_2D;
      view_type = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
      break;
   case CUVK_KERNEL_DIM_CUBE:
      /* A cube view needs six layers of a cube-compatible image. */
      geo.type = VK_IMAGE_TYPE_2D;
      geo.layers = 6;
      geo.create_flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
      view_type = VK_IMAGE_VIEW_TYPE_CUBE;
      break;
   case CUVK_KERNEL_DIM_CUBE_ARRAY:
      /* One cube; only kernels translated for a device with
       * imageCubeArray declare this binding. */
      geo.type = VK_IMAGE_TYPE_2D;
      geo.layers = 6;
      geo.create_flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
      view_type = VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
      break;
   default:
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: binding %u's dimension has no stand-in image yet", entry, b);
   }
   VkImageUsageFlags usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                             (storage ? VK_IMAGE_USAGE_STORAGE_BIT : VK_IMAGE_USAGE_SAMPLED_BIT);
   struct cuvk_array_image *img;
   res = cuvk_array_image_create(ctx, f, &geo, 1, usage, entry, &img);
   if (res != CUDA_SUCCESS)
      return res;
   struct resource_image ri = {.img = img, .format = f, .base_level = 0, .levels = 1,
                             .layers = img->layers, .extent = geo.extent};
   VkImageView view;
   res = view_create(ctx, &ri, view_type, f->vk, storage ? VK_IMAGE_USAGE_STORAGE_BIT : VK_IMAGE_USAGE_SAMPLED_BIT,
                     entry, &view);
   if (res != CUDA_SUCCESS) {
      struct dummy d = {.img = img};
      cuvk_submit_wait_idle(ctx);
      dummy_free(ctx, &d);
      return res;
   }
   pthread_mutex_lock(&ctx->lock);
   bool lost = tt->dummies[b].img != NULL;
   if (!lost)
      tt->dummies[b] = (struct dummy){.img = img, .view = view};
   pthread_mutex_unlock(&ctx->lock);
   if (lost) {
      /* Another launch made it first. */
      struct dummy d = {.img = img, .view = view};
      cuvk_submit_wait_idle(ctx);
      dummy_free(ctx, &d);
   }
   return CUDA_SUCCESS;
}

/* The layouts of one set of bindings.  Lock held. */
static CUresult
binding_set_get(struct cuvk_context *ctx, struct cuvk_tex_tables *tt, uint64_t mask, struct binding_set **out)
{
   cuvk_list_for_each_entry(struct binding_set, s, &tt->binding_sets, link) {
      if (s->mask == mask) {
         *out = s;
         return CUDA_SUCCESS;
      }
   }
   struct binding_set *s = calloc(1, sizeof(*s));
   if (!s)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for a kernel's descriptor layout");
   VkDescriptorSetLayoutBinding bindings[CUVK_KERNEL_BINDING_COUNT];
   uint32_t n = 0;
   for (uint32_t b = 0; b < CUVK_KERNEL_BINDING_COUNT; b++) {
      if (!(mask >> b & 1))
         continue;
      bool storage = binding_is_storage(b);
      bindings[n++] = (VkDescriptorSetLayoutBinding){
         .binding = b,
         .descriptorType = storage ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
         .descriptorCount = storage ? tt->surf.slot_count : tt->tex.slot_count,
         .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
      };
   }
   VkDescriptorSetLayoutCreateInfo set_info = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .bindingCount = n,
      .pBindings = bindings,
   };
   VkResult vr = vkCreateDescriptorSetLayout(ctx->vk, &set_info, NULL, &s->set_layout);
   if (vr != VK_SUCCESS) {
      free(s);
      return cuvk_vk_error(vr, "vkCreateDescriptorSetLayout for a kernel's textures");
   }
   /* The push constants as every kernel has them, so pushes recorded
    * with the common layout stay compatible. */
   VkPushConstantRange range = {
      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
      .size = sizeof(struct cuvk_kernel_push),
   };
   VkPipelineLayoutCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .setLayoutCount = 1,
      .pSetLayouts = &s->set_layout,
      .pushConstantRangeCount = 1,
      .pPushConstantRanges = &range,
   };
   vr = vkCreatePipelineLayout(ctx->vk, &info, NULL, &s->layout);
   if (vr != VK_SUCCESS) {
      vkDestroyDescriptorSetLayout(ctx->vk, s->set_layout, NULL);
      free(s);
      return cuvk_vk_error(vr, "vkCreatePipelineLayout for a kernel's textures");
   }
   s->mask = mask;
   cuvk_list_addtail(&s->link, &tt->binding_sets);
   *out = s;
   return CUDA_SUCCESS;
}

bool
cuvk_texture_memory_live(const struct cuvk_context *ctx)
{
   const struct cuvk_tex_tables *tt = __atomic_load_n(&ctx->textures, __ATOMIC_ACQUIRE);
   return tt && tt->tex.memory_objects;
}

bool
cuvk_texture_scaling_live(const struct cuvk_context *ctx)
{
   const struct cuvk_tex_tables *tt = __atomic_load_n(&ctx->textures, __ATOMIC_ACQUIRE);
   return tt && tt->tex.scaled_objects;
}

bool
cuvk_texture_convert_live(const struct cuvk_context *ctx)
{
   const struct cuvk_tex_tables *tt = __atomic_load_n(&ctx->textures, __ATOMIC_ACQUIRE);
   return tt && tt->tex.convert_objects;
}

CUresult
cuvk_texture_prepare(struct cuvk_context *ctx, uint64_t mask, const char *entry)
{
   struct cuvk_tex_tables *tt;
   CUresult res = tables_get(ctx, &tt);
   if (res != CUDA_SUCCESS)
      return res;
   if (!tt->dummy_sampler) {
      VkSamplerCreateInfo info = {
         .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
         .magFilter = VK_FILTER_NEAREST,
         .minFilter = VK_FILTER_NEAREST,
         .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
         .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
         .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
         .borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK,
      };
      VkSampler sampler;
      VkResult vr = vkCreateSampler(ctx->vk, &info, NULL, &sampler);
      if (vr != VK_SUCCESS)
         return cuvk_vk_error(vr, "vkCreateSampler for unused texture slots");
      pthread_mutex_lock(&ctx->lock);
      bool lost = tt->dummy_sampler != VK_NULL_HANDLE;
      if (!lost)
         tt->dummy_sampler = sampler;
      pthread_mutex_unlock(&ctx->lock);
      if (lost)
         vkDestroySampler(ctx->vk, sampler, NULL);
   }
   for (uint32_t b = 0; b < CUVK_KERNEL_BINDING_COUNT; b++) {
      if (mask >> b & 1) {
         res = dummy_get(ctx, tt, b, entry);
         if (res != CUDA_SUCCESS)
            return res;
      }
   }
   return CUDA_SUCCESS;
}

VkPipelineLayout
cuvk_texture_layout(struct cuvk_context *ctx, uint64_t mask)
{
   struct binding_set *s;
   if (binding_set_get(ctx, ctx->textures, mask, &s) != CUDA_SUCCESS)
      return VK_NULL_HANDLE;
   return s->layout;
}

static void
retired_pool_free(struct cuvk_context *ctx, void *data)
{
   struct retired_pool *r = data;
   vkDestroyDescriptorPool(ctx->vk, r->pool, NULL);
   free(r);
}

/* Writes a new set for the tables as they are. */
static CUresult
set_write(struct cuvk_context *ctx, struct cuvk_tex_tables *tt, struct binding_set *s)
{
   uint32_t sampled = 0, storage = 0;
   for (uint32_t b = 0; b < CUVK_KERNEL_BINDING_COUNT; b++) {
      if (s->mask >> b & 1) {
         if (binding_is_storage(b))
            storage += tt->surf.slot_count;
         else
            sampled += tt->tex.slot_count;
      }
   }
   VkDescriptorPoolSize sizes[2];
   uint32_t nsizes = 0;
   if (sampled)
      sizes[nsizes++] = (VkDescriptorPoolSize){VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, sampled};
   if (storage)
      sizes[nsizes++] = (VkDescriptorPoolSize){VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, storage};
   VkDescriptorPoolCreateInfo pool_info = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
      .maxSets = 1,
      .poolSizeCount = nsizes,
      .pPoolSizes = sizes,
   };
   struct retired_pool *retired = NULL;
   if (s->pool) {
      retired = calloc(1, sizeof(*retired));
      if (!retired)
         return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for a descriptor set");
   }
   VkDescriptorPool pool;
   VkResult vr = vkCreateDescriptorPool(ctx->vk, &pool_info, NULL, &pool);
   if (vr != VK_SUCCESS) {
      free(retired);
      return cuvk_vk_error(vr, "vkCreateDescriptorPool for a kernel's textures");
   }
   VkDescriptorSet set;
   vr = vkAllocateDescriptorSets(ctx->vk, &(VkDescriptorSetAllocateInfo){
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
      .descriptorPool = pool,
      .descriptorSetCount = 1,
      .pSetLayouts = &s->set_layout,
   }, &set);
   if (vr != VK_SUCCESS) {
      vkDestroyDescriptorPool(ctx->vk, pool, NULL);
      free(retired);
      return cuvk_vk_error(vr, "vkAllocateDescriptorSets for a kernel's textures");
   }
   uint32_t most = CUVK_MAX(tt->tex.slot_count, tt->surf.slot_count);
   VkDescriptorImageInfo *infos = malloc(sizeof(*infos) * most);
   if (!infos) {
      vkDestroyDescriptorPool(ctx->vk, pool, NULL);
      free(retired);
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for a descriptor set");
   }
   for (uint32_t b = 0; b < CUVK_KERNEL_BINDING_COUNT; b++) {
      if (!(s->mask >> b & 1))
         continue;
      bool is_storage = binding_is_storage(b);
      const struct cuvk_tex_table *t = is_storage ? &tt->surf : &tt->tex;
      for (uint32_t i = 0; i < t->slot_count; i++) {
         const struct cuvk_tex_slot *slot = &t->slots[i];
         bool mine = slot->used && slot->binding == b;
         infos[i] = (VkDescriptorImageInfo){
            .sampler = is_storage ? VK_NULL_HANDLE : mine ? slot->sampler : tt->dummy_sampler,
            .imageView = mine ? slot->view : tt->dummies[b].view,
            .imageLayout = VK_IMAGE_LAYOUT_GENERAL,
         };
      }
      VkWriteDescriptorSet write = {
         .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = set,
         .dstBinding = b,
         .descriptorCount = t->slot_count,
         .descriptorType = is_storage ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
         .pImageInfo = infos,
      };
      vkUpdateDescriptorSets(ctx->vk, 1, &write, 0, NULL);
   }
   free(infos);
   /* The old set goes once the work that bound it is done. */
   if (retired) {
      retired->pool = s->pool;
      retired->node.fn = retired_pool_free;
      retired->node.data = retired;
      cuvk_submit_defer(ctx, &retired->node);
   }
   s->pool = pool;
   s->set = set;
   s->tex_version = tt->tex.version;
   s->surf_version = tt->surf.version;
   return CUDA_SUCCESS;
}

CUresult
cuvk_texture_bind(struct cuvk_context *ctx, uint64_t mask, VkCommandBuffer cmd, struct cuvk_kernel_push *push)
{
   struct cuvk_tex_tables *tt = ctx->textures;
   struct binding_set *s;
   CUresult res = binding_set_get(ctx, tt, mask, &s);
   if (res != CUDA_SUCCESS)
      return res;
   if (mask && (!s->pool || s->tex_version != tt->tex.version || s->surf_version != tt->surf.version)) {
      res = set_write(ctx, tt, s);
      if (res != CUDA_SUCCESS)
         return res;
   }
   if (mask)
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, s->layout, CUVK_KERNEL_TEX_SET, 1, &s->set, 0,
                              NULL);
   push->tex_records = tt->tex.records_address;
   push->surf_records = tt->surf.records_address;
   return CUDA_SUCCESS;
}

unsigned
cuvk_texture_external_images(struct cuvk_context *ctx, uint64_t mask, struct cuvk_array_image **imgs,
                             unsigned max)
{
   struct cuvk_tex_tables *tt = ctx->textures;
   unsigned n = 0;
   if (!tt)
      return 0;
   for (unsigned k = 0; k < 2; k++) {
      const struct cuvk_tex_table *t = k ? &tt->surf : &tt->tex;
      for (uint32_t i = 0; i < t->slot_count; i++) {
         const struct cuvk_tex_slot *slot = &t->slots[i];
         if (!slot->used || !slot->resource || slot->binding >= CUVK_KERNEL_BINDING_COUNT ||
             !(mask >> slot->binding & 1))
            continue;
         /* The resource type says which handle the slot keeps (the
          * handle may be destroyed, its object out of the table). */
         struct cuvk_array_image *img =
            slot->res.resType == CU_RESOURCE_TYPE_ARRAY ?
               cuvk_container_of(slot->resource, struct cuvk_array, base)->img :
               cuvk_container_of(slot->resource, struct cuvk_mipmapped_array, base)->img;
         if (!img->external)
            continue;
         bool seen = false;
         for (unsigned j = 0; j < n && j < max && !seen; j++)
            seen = imgs[j] == img;
         if (seen)
            continue;
         if (n < max)
            imgs[n] = img;
         n++;
      }
   }
   return n;
}

/* ---- Entry points ---- */

CUVK_EXPORT CUresult CUDAAPI
cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc, const CUDA_TEXTURE_DESC *pTexDesc,
                  const CUDA_RESOURCE_VIEW_DESC *pResViewDesc)
{
   return object_create(false, pTexObject, pResDesc, pTexDesc, pResViewDesc, "cuTexObjectCreate");
}

CUVK_EXPORT CUresult CUDAAPI
cuTexObjectDestroy(CUtexObject texObject)
{
   return object_destroy(false, texObject, "cuTexObjectDestroy");
}

CUVK_EXPORT CUresult CUDAAPI
cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject)
{
   if (!pResDesc)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuTexObjectGetResourceDesc: pResDesc is NULL");
   return object_query(false, texObject, "cuTexObjectGetResourceDesc", pResDesc, NULL, NULL);
}

CUVK_EXPORT CUresult CUDAAPI
cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc, CUtexObject texObject)
{
   if (!pTexDesc)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuTexObjectGetTextureDesc: pTexDesc is NULL");
   return object_query(false, texObject, "cuTexObjectGetTextureDesc", NULL, pTexDesc, NULL);
}

/* The view Create got; CUDA_ERROR_INVALID_VALUE for a texture made
 * without one. */
CUVK_EXPORT CUresult CUDAAPI
cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *pResViewDesc, CUtexObject texObject)
{
   if (!pResViewDesc)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuTexObjectGetResourceViewDesc: pResViewDesc is NULL");
   return object_query(false, texObject, "cuTexObjectGetResourceViewDesc", NULL, NULL, pResViewDesc);
}

CUVK_EXPORT CUresult CUDAAPI
cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc)
{
   return object_create(true, pSurfObject, pResDesc, NULL, NULL, "cuSurfObjectCreate");
}

CUVK_EXPORT CUresult CUDAAPI
cuSurfObjectDestroy(CUsurfObject surfObject)
{
   return object_destroy(true, surfObject, "cuSurfObjectDestroy");
}

CUVK_EXPORT CUresult CUDAAPI
cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUsurfObject surfObject)
{
   if (!pResDesc)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuSurfObjectGetResourceDesc: pResDesc is NULL");
   return object_query(true, surfObject, "cuSurfObjectGetResourceDesc", pResDesc, NULL, NULL);
}
