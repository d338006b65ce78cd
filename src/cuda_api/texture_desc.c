/*
 * Texture and surface descriptors checked into plans (texture_desc.h).
 *
 * The rules follow cuTexObjectCreate's and cuSurfObjectCreate's
 * documentation; docs/textures.md lists them with the places where a
 * Vulkan sampler cannot do what CUDA's does and what cuvk does instead.
 */
#include "cuda_api/texture_desc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "array/array.h"
#include "array/format.h"
#include "cuda_api/driver.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

#define TEX_ENTRY "cuTexObjectCreate"
#define SURF_ENTRY "cuSurfObjectCreate"

/* Every flag CUDA 13 defines for CUDA_TEXTURE_DESC.flags. */
#define TRSF_KNOWN                                                                    \
   (CU_TRSF_READ_AS_INTEGER | CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_SRGB |         \
    CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION | CU_TRSF_SEAMLESS_CUBEMAP)

/* CUDA clamps maxAnisotropy to [1, 16]. */
#define CUDA_MAX_ANISOTROPY 16.0f

static bool
device_has_extension(VkPhysicalDevice pdev, const char *name)
{
   uint32_t count = 0;
   if (vkEnumerateDeviceExtensionProperties(pdev, NULL, &count, NULL) != VK_SUCCESS || !count)
      return false;
   VkExtensionProperties *props = calloc(count, sizeof(*props));
   if (!props)
      return false;
   bool found = false;
   if (vkEnumerateDeviceExtensionProperties(pdev, NULL, &count, props) == VK_SUCCESS) {
      for (uint32_t i = 0; i < count && !found; i++)
         found = !strcmp(props[i].extensionName, name);
   }
   free(props);
   return found;
}

static uint64_t
attribute(const struct cuvk_device *dev, CUdevice_attribute attrib)
{
   int value = 0;
   if (cuDeviceGetAttribute(&value, attrib, dev->ordinal) != CUDA_SUCCESS || value < 0)
      return 0;
   return (uint64_t)value;
}

void
cuvk_tex_desc_limits_init(const struct cuvk_device *dev, struct cuvk_tex_desc_limits *out)
{
   memset(out, 0, sizeof(*out));
   /* The numbers cuDeviceGetAttribute reports, so that what an
    * application computed from them is what the checks accept. */
   out->texture_alignment = attribute(dev, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT);
   out->pitch_alignment = attribute(dev, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT);
   out->max_1d_linear = attribute(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH);
   out->max_2d_linear[0] = attribute(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH);
   out->max_2d_linear[1] = attribute(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT);
   out->max_2d_linear[2] = attribute(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH);
   out->max_lod_bias = dev->props.limits.maxSamplerLodBias;

   bool has_border = device_has_extension(dev->pdev, VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME);
   if (has_border) {
      VkPhysicalDeviceCustomBorderColorPropertiesEXT border_props = {
         .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_PROPERTIES_EXT,
      };
      VkPhysicalDeviceProperties2 props = {
         .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
         .pNext = &border_props,
      };
      vkGetPhysicalDeviceProperties2(dev->pdev, &props);
      has_border = border_props.maxCustomBorderColorSamplers > 0;
   }
   VkPhysicalDeviceCustomBorderColorFeaturesEXT border = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT,
   };
   VkPhysicalDeviceFeatures2 features = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
      .pNext = has_border ? &border : NULL,
   };
   vkGetPhysicalDeviceFeatures2(dev->pdev, &features);
   if (features.features.samplerAnisotropy)
      out->max_anisotropy = dev->props.limits.maxSamplerAnisotropy;
   out->custom_border_color = has_border && border.customBorderColors;
   out->custom_border_without_format = out->custom_border_color && border.customBorderColorWithoutFormat;
}

/* ---- formats ---- */

static bool
format_is_block(const struct cuvk_format *f)
{
   return f->block > 1;
}

/* The array format and channel count a resource view format names. */
static bool
view_format_lookup(CUresourceViewFormat vf, CUarray_format *format, unsigned *channels)
{
   static const struct {
      CUresourceViewFormat view;
      CUarray_format format;
      unsigned channels;
   } table[] = {
      { CU_RES_VIEW_FORMAT_UINT_1X8, CU_AD_FORMAT_UNSIGNED_INT8, 1 },
      { CU_RES_VIEW_FORMAT_UINT_2X8, CU_AD_FORMAT_UNSIGNED_INT8, 2 },
      { CU_RES_VIEW_FORMAT_UINT_4X8, CU_AD_FORMAT_UNSIGNED_INT8, 4 },
      { CU_RES_VIEW_FORMAT_SINT_1X8, CU_AD_FORMAT_SIGNED_INT8, 1 },
      { CU_RES_VIEW_FORMAT_SINT_2X8, CU_AD_FORMAT_SIGNED_INT8, 2 },
      { CU_RES_VIEW_FORMAT_SINT_4X8, CU_AD_FORMAT_SIGNED_INT8, 4 },
      { CU_RES_VIEW_FORMAT_UINT_1X16, CU_AD_FORMAT_UNSIGNED_INT16, 1 },
      { CU_RES_VIEW_FORMAT_UINT_2X16, CU_AD_FORMAT_UNSIGNED_INT16, 2 },
      { CU_RES_VIEW_FORMAT_UINT_4X16, CU_AD_FORMAT_UNSIGNED_INT16, 4 },
      { CU_RES_VIEW_FORMAT_SINT_1X16, CU_AD_FORMAT_SIGNED_INT16, 1 },
      { CU_RES_VIEW_FORMAT_SINT_2X16, CU_AD_FORMAT_SIGNED_INT16, 2 },
      { CU_RES_VIEW_FORMAT_SINT_4X16, CU_AD_FORMAT_SIGNED_INT16, 4 },
      { CU_RES_VIEW_FORMAT_UINT_1X32, CU_AD_FORMAT_UNSIGNED_INT32, 1 },
      { CU_RES_VIEW_FORMAT_UINT_2X32, CU_AD_FORMAT_UNSIGNED_INT32, 2 },
      { CU_RES_VIEW_FORMAT_UINT_4X32, CU_AD_FORMAT_UNSIGNED_INT32, 4 },
      { CU_RES_VIEW_FORMAT_SINT_1X32, CU_AD_FORMAT_SIGNED_INT32, 1 },
      { CU_RES_VIEW_FORMAT_SINT_2X32, CU_AD_FORMAT_SIGNED_INT32, 2 },
      { CU_RES_VIEW_FORMAT_SINT_4X32, CU_AD_FORMAT_SIGNED_INT32, 4 },
      { CU_RES_VIEW_FORMAT_FLOAT_1X16, CU_AD_FORMAT_HALF, 1 },
      { CU_RES_VIEW_FORMAT_FLOAT_2X16, CU_AD_FORMAT_HALF, 2 },
      { CU_RES_VIEW_FORMAT_FLOAT_4X16, CU_AD_FORMAT_HALF, 4 },
      { CU_RES_VIEW_FORMAT_FLOAT_1X32, CU_AD_FORMAT_FLOAT, 1 },
      { CU_RES_VIEW_FORMAT_FLOAT_2X32, CU_AD_FORMAT_FLOAT, 2 },
      { CU_RES_VIEW_FORMAT_FLOAT_4X32, CU_AD_FORMAT_FLOAT, 4 },
      { CU_RES_VIEW_FORMAT_UNSIGNED_BC1, CU_AD_FORMAT_BC1_UNORM, 4 },
      { CU_RES_VIEW_FORMAT_UNSIGNED_BC2, CU_AD_FORMAT_BC2_UNORM, 4 },
      { CU_RES_VIEW_FORMAT_UNSIGNED_BC3, CU_AD_FORMAT_BC3_UNORM, 4 },
      { CU_RES_VIEW_FORMAT_UNSIGNED_BC4, CU_AD_FORMAT_BC4_UNORM, 1 },
      { CU_RES_VIEW_FORMAT_SIGNED_BC4, CU_AD_FORMAT_BC4_SNORM, 1 },
      { CU_RES_VIEW_FORMAT_UNSIGNED_BC5, CU_AD_FORMAT_BC5_UNORM, 2 },
      { CU_RES_VIEW_FORMAT_SIGNED_BC5, CU_AD_FORMAT_BC5_SNORM, 2 },
      { CU_RES_VIEW_FORMAT_UNSIGNED_BC6H, CU_AD_FORMAT_BC6H_UF16, 3 },
      { CU_RES_VIEW_FORMAT_SIGNED_BC6H, CU_AD_FORMAT_BC6H_SF16, 3 },
      { CU_RES_VIEW_FORMAT_UNSIGNED_BC7, CU_AD_FORMAT_BC7_UNORM, 4 },
   };
   for (unsigned i = 0; i < CUVK_ARRAY_SIZE(table); i++) {
      if (table[i].view == vf) {
         *format = table[i].format;
         *channels = table[i].channels;
         return true;
      }
   }
   return false;
}

/* Integer formats CUDA promotes to normalized floats unless the texture
 * reads them as integers: 8 and 16 bits.  32-bit integers are never
 * promoted. */
static bool
format_promotable(CUarray_format f)
{
   return f == CU_AD_FORMAT_UNSIGNED_INT8 || f == CU_AD_FORMAT_SIGNED_INT8 ||
          f == CU_AD_FORMAT_UNSIGNED_INT16 || f == CU_AD_FORMAT_SIGNED_INT16;
}

static bool
format_is_integer(CUarray_format f)
{
   return format_promotable(f) || f == CU_AD_FORMAT_UNSIGNED_INT32 || f == CU_AD_FORMAT_SIGNED_INT32;
}

static bool
format_is_signed_integer(CUarray_format f)
{
   return f == CU_AD_FORMAT_SIGNED_INT8 || f == CU_AD_FORMAT_SIGNED_INT16 || f == CU_AD_FORMAT_SIGNED_INT32;
}

/* The normalized twin of an 8/16-bit integer VkFormat (same bits). */
static VkFormat
normalized_format(VkFormat f)
{
   switch (f) {
   case VK_FORMAT_R8_UINT: return VK_FORMAT_R8_UNORM;
   case VK_FORMAT_R8G8_UINT: return VK_FORMAT_R8G8_UNORM;
   case VK_FORMAT_R8G8B8A8_UINT: return VK_FORMAT_R8G8B8A8_UNORM;
   case VK_FORMAT_R8_SINT: return VK_FORMAT_R8_SNORM;
   case VK_FORMAT_R8G8_SINT: return VK_FORMAT_R8G8_SNORM;
   case VK_FORMAT_R8G8B8A8_SINT: return VK_FORMAT_R8G8B8A8_SNORM;
   case VK_FORMAT_R16_UINT: return VK_FORMAT_R16_UNORM;
   case VK_FORMAT_R16G16_UINT: return VK_FORMAT_R16G16_UNORM;
   case VK_FORMAT_R16G16B16A16_UINT: return VK_FORMAT_R16G16B16A16_UNORM;
   case VK_FORMAT_R16_SINT: return VK_FORMAT_R16_SNORM;
   case VK_FORMAT_R16G16_SINT: return VK_FORMAT_R16G16_SNORM;
   case VK_FORMAT_R16G16B16A16_SINT: return VK_FORMAT_R16G16B16A16_SNORM;
   default: return f;
   }
}

/* The sRGB twin of an 8-bit unsigned normalized format, or the format
 * itself where Vulkan has none (CUDA then reads linear values; CUDA only
 * converts 8-bit unsigned formats either). */
static VkFormat
srgb_format(VkFormat f)
{
   switch (f) {
   case VK_FORMAT_R8_UNORM: return VK_FORMAT_R8_SRGB;
   case VK_FORMAT_R8G8_UNORM: return VK_FORMAT_R8G8_SRGB;
   case VK_FORMAT_R8G8B8A8_UNORM: return VK_FORMAT_R8G8B8A8_SRGB;
   case VK_FORMAT_BC1_RGBA_UNORM_BLOCK: return VK_FORMAT_BC1_RGBA_SRGB_BLOCK;
   case VK_FORMAT_BC2_UNORM_BLOCK: return VK_FORMAT_BC2_SRGB_BLOCK;
   case VK_FORMAT_BC3_UNORM_BLOCK: return VK_FORMAT_BC3_SRGB_BLOCK;
   case VK_FORMAT_BC7_UNORM_BLOCK: return VK_FORMAT_BC7_SRGB_BLOCK;
   default: return f;
   }
}

static bool
vk_format_is_srgb(VkFormat f)
{
   switch (f) {
   case VK_FORMAT_R8_SRGB:
   case VK_FORMAT_R8G8_SRGB:
   case VK_FORMAT_R8G8B8A8_SRGB:
   case VK_FORMAT_BC1_RGBA_SRGB_BLOCK:
   case VK_FORMAT_BC2_SRGB_BLOCK:
   case VK_FORMAT_BC3_SRGB_BLOCK:
   case VK_FORMAT_BC7_SRGB_BLOCK:
      return true;
   default:
      return false;
   }
}

/* Fills the plan's view format and sampled type from its format and the
 * texture's flags. */
static void
plan_read_mode(struct cuvk_tex_plan *plan, unsigned flags)
{
   const struct cuvk_format *f = plan->format;
   VkFormat vk = f->vk;

   if (format_is_integer(f->cu) &&
       (!format_promotable(f->cu) || (flags & CU_TRSF_READ_AS_INTEGER))) {
      plan->sampled = format_is_signed_integer(f->cu) ? CUVK_TEX_SAMPLED_SINT : CUVK_TEX_SAMPLED_UINT;
      plan->normalized_read = false;
   } else {
      plan->sampled = CUVK_TEX_SAMPLED_FLOAT;
      vk = normalized_format(vk);
      if (flags & CU_TRSF_SRGB)
         vk = srgb_format(vk);
      plan->normalized_read = f->cu != CU_AD_FORMAT_HALF && f->cu != CU_AD_FORMAT_FLOAT &&
                              f->cu != CU_AD_FORMAT_BC6H_UF16 && f->cu != CU_AD_FORMAT_BC6H_SF16;
   }
   plan->view_format = vk;
   plan->srgb = vk_format_is_srgb(vk);
}

/* ---- resources ---- */

static CUresult
check_linear_format(CUarray_format format, unsigned channels, const char *what,
                    const struct cuvk_format **out)
{
   CUresult res = cuvk_format_lookup(format, channels, TEX_ENTRY, out);
   if (res != CUDA_SUCCESS)
      return res == CUDA_ERROR_NOT_SUPPORTED ? res : CUDA_ERROR_INVALID_VALUE;
   if (format_is_block(*out))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        TEX_ENTRY ": %s memory cannot hold block-compressed CU_AD_FORMAT_%s", what,
                        (*out)->name);
   /* Every other format of the table is one kernels decode from memory
    * (spirv_texture.c's texel_fn: the classic eight, the UNORM/SNORM
    * vectors and 10-10-10-2). */
   return CUDA_SUCCESS;
}

static CUresult
plan_linear(const CUDA_RESOURCE_DESC *res, const struct cuvk_tex_desc_limits *limits,
            struct cuvk_tex_plan *plan)
{
   CUresult r = check_linear_format(res->res.linear.format, res->res.linear.numChannels, "linear",
                                    &plan->format);
   if (r != CUDA_SUCCESS)
      return r;
   CUdeviceptr ptr = res->res.linear.devPtr;
   if (!ptr)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, TEX_ENTRY ": linear resource's devPtr is 0");
   if (limits->texture_alignment && ptr % limits->texture_alignment)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        TEX_ENTRY ": linear devPtr 0x%llx is not a multiple of the texture alignment %llu",
                        (unsigned long long)ptr, (unsigned long long)limits->texture_alignment);
   /* Real CUDA takes a size holding no element, and one past
    * MAXIMUM_TEXTURE1D_LINEAR_WIDTH (codes_cuda_h100.txt): an empty
    * texture reads 0 everywhere, and a kernel reading past the
    * allocation faults as any wild access does. */
   uint64_t texels = CUVK_MIN(res->res.linear.sizeInBytes / plan->format->elem_size, (uint64_t)INT32_MAX);
   plan->address = ptr;
   plan->size = res->res.linear.sizeInBytes;
   plan->extent = (VkExtent3D){ (uint32_t)texels, 1, 1 };
   plan->view_type = VK_IMAGE_VIEW_TYPE_1D;
   plan->coords = 1;
   plan->level_count = 1;
   plan->layer_count = 1;
   return CUDA_SUCCESS;
}

static CUresult
plan_pitch2d(const CUDA_RESOURCE_DESC *res, const struct cuvk_tex_desc_limits *limits,
             struct cuvk_tex_plan *plan)
{
   CUresult r = check_linear_format(res->res.pitch2D.format, res->res.pitch2D.numChannels, "pitch2D",
                                    &plan->format);
   if (r != CUDA_SUCCESS)
      return r;
   CUdeviceptr ptr = res->res.pitch2D.devPtr;
   uint64_t width = res->res.pitch2D.width, height = res->res.pitch2D.height;
   uint64_t pitch = res->res.pitch2D.pitchInBytes;
   if (!ptr)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, TEX_ENTRY ": pitch2D resource's devPtr is 0");
   if (limits->texture_alignment && ptr % limits->texture_alignment)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        TEX_ENTRY ": pitch2D devPtr 0x%llx is not a multiple of the texture alignment %llu",
                        (unsigned long long)ptr, (unsigned long long)limits->texture_alignment);
   /* Real CUDA takes an empty extent and a pitch under a row
    * (codes_cuda_h100.txt): the first reads only the border, the second
    * rows that overlap. */
   if (width > limits->max_2d_linear[0] || height > limits->max_2d_linear[1])
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        TEX_ENTRY ": pitch2D extent %llux%llu is over the device's %llux%llu",
                        (unsigned long long)width, (unsigned long long)height,
                        (unsigned long long)limits->max_2d_linear[0],
                        (unsigned long long)limits->max_2d_linear[1]);
   if (!pitch || (limits->pitch_alignment && pitch % limits->pitch_alignment))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        TEX_ENTRY ": pitchInBytes %llu is not a multiple of the texture pitch alignment %llu",
                        (unsigned long long)pitch, (unsigned long long)limits->pitch_alignment);
   if (pitch > limits->max_2d_linear[2])
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, TEX_ENTRY ": pitchInBytes %llu is over the device's %llu",
                        (unsigned long long)pitch, (unsigned long long)limits->max_2d_linear[2]);
   plan->address = ptr;
   plan->pitch = pitch;
   plan->extent = (VkExtent3D){ (uint32_t)width, (uint32_t)height, 1 };
   plan->view_type = VK_IMAGE_VIEW_TYPE_2D;
   plan->coords = 2;
   plan->level_count = 1;
   plan->layer_count = 1;
   return CUDA_SUCCESS;
}

/* The view's format: the resource's, or the resource view's where it
 * reinterprets the same bytes. */
static CUresult
plan_view_format(const CUDA_RESOURCE_VIEW_DESC *view, const struct cuvk_tex_source *src,
                 struct cuvk_tex_plan *plan, bool *block_view)
{
   const struct cuvk_format *base = src->format;
   *block_view = false;
   plan->format = base;
   if (!view || view->format == CU_RES_VIEW_FORMAT_NONE)
      return CUDA_SUCCESS;

   CUarray_format cu;
   unsigned channels;
   if (!view_format_lookup(view->format, &cu, &channels))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, TEX_ENTRY ": 0x%x is not a CUresourceViewFormat",
                        (unsigned)view->format);
   const struct cuvk_format *vf;
   if (cuvk_format_lookup(cu, channels, TEX_ENTRY, &vf) != CUDA_SUCCESS)
      return CUDA_ERROR_INVALID_VALUE;

   if (format_is_block(vf) && format_is_block(base)) {
      /* One BC format as another of its family (BC1 as sRGB BC1, BC4
       * unsigned as signed): the same blocks, and the only views between
       * compressed formats Vulkan allows.  The family is the name's "BCn". */
      if (strncmp(vf->name, base->name, 3))
         return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                           TEX_ENTRY ": view format %s does not reinterpret CU_AD_FORMAT_%s", vf->name,
                           base->name);
   } else if (format_is_block(vf)) {
      /* CUDA's rule: a block-compressed view reads an array of 32-bit
       * unsigned words, two per 8-byte block (BC1, BC4) and four per
       * 16-byte block (the others). */
      if (base->cu != CU_AD_FORMAT_UNSIGNED_INT32 || base->elem_size != vf->elem_size)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                           TEX_ENTRY ": a %s view needs an UNSIGNED_INT32 x%u resource, not CU_AD_FORMAT_%s",
                           vf->name, vf->elem_size / 4, base->name);
      *block_view = true;
   } else if (format_is_block(base) || base->elem_size != vf->elem_size) {
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        TEX_ENTRY ": view format %s does not reinterpret CU_AD_FORMAT_%s (%u bytes)",
                        vf->name, base->name, base->elem_size);
   }
   plan->format = vf;
   return CUDA_SUCCESS;
}

static CUresult
plan_array(const CUDA_RESOURCE_VIEW_DESC *view, const struct cuvk_tex_source *src, unsigned flags,
           struct cuvk_tex_plan *plan)
{
   const CUDA_ARRAY3D_DESCRIPTOR *d = &src->desc;
   bool block_view;
   CUresult r = plan_view_format(view, src, plan, &block_view);
   if (r != CUDA_SUCCESS)
      return r;

   /* The image's shape, as array.c makes it (array_geometry). */
   bool cube = d->Flags & CUDA_ARRAY3D_CUBEMAP;
   bool layered = d->Flags & CUDA_ARRAY3D_LAYERED;
   uint64_t width = d->Width, height = CUVK_MAX(d->Height, (size_t)1), depth = 1;
   uint32_t layers = 1;            /* CUDA layers: a cubemap of a layered cubemap array is one */
   uint32_t faces = 1;             /* Vulkan layers per CUDA layer */
   if (cube) {
      layers = layered ? (uint32_t)(d->Depth / 6) : 1;
      faces = 6;
      plan->view_type = layered ? VK_IMAGE_VIEW_TYPE_CUBE_ARRAY : VK_IMAGE_VIEW_TYPE_CUBE;
      plan->coords = 3;
   } else if (layered) {
      layers = (uint32_t)d->Depth;
      plan->view_type = d->Height ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_1D_ARRAY;
      plan->coords = d->Height ? 2 : 1;
   } else if (d->Depth) {
      depth = d->Depth;
      plan->view_type = VK_IMAGE_VIEW_TYPE_3D;
      plan->coords = 3;
   } else if (d->Height) {
      plan->view_type = VK_IMAGE_VIEW_TYPE_2D;
      plan->coords = 2;
   } else {
      plan->view_type = VK_IMAGE_VIEW_TYPE_1D;
      plan->coords = 1;
   }

   if (cube && (flags & CU_TRSF_SEAMLESS_CUBEMAP)) {
      /* Vulkan filters every cube map seamlessly; nothing to plan. */
   } else if (flags & CU_TRSF_SEAMLESS_CUBEMAP) {
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        TEX_ENTRY ": CU_TRSF_SEAMLESS_CUBEMAP on a resource that is not a cubemap");
   }

   uint32_t first_level = 0, last_level = src->levels - 1;
   uint32_t first_layer = 0, last_layer = layers - 1;
   if (view) {
      /* Extents as CUDA states them: equal to the resource's, four times
       * as wide and high for a block-compressed view. */
      uint64_t scale = block_view ? 4 : 1;
      if (view->width != d->Width * scale || view->height != d->Height * scale || view->depth != d->Depth)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                           TEX_ENTRY ": view extent %zux%zux%zu is not the resource's %zux%zux%zu%s",
                           view->width, view->height, view->depth, d->Width * scale, d->Height * scale,
                           d->Depth, block_view ? " (x4 for a block-compressed view)" : "");
      if (view->firstMipmapLevel > view->lastMipmapLevel || view->lastMipmapLevel >= src->levels)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                           TEX_ENTRY ": view levels %u..%u are not within the resource's %u",
                           view->firstMipmapLevel, view->lastMipmapLevel, src->levels);
      if (view->firstLayer > view->lastLayer || view->lastLayer >= layers ||
          (!layered && view->lastLayer))
         return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                           TEX_ENTRY ": view layers %u..%u are not within the resource's %u",
                           view->firstLayer, view->lastLayer, layered ? layers : 0);
      first_level = view->firstMipmapLevel;
      last_level = view->lastMipmapLevel;
      first_layer = view->firstLayer;
      last_layer = view->lastLayer;
   }

   if (block_view) {
      /* Vulkan views a compressed image as uncompressed words
       * (BLOCK_TEXEL_VIEW_COMPATIBLE), never the other way round. */
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED,
                        TEX_ENTRY ": a %s view of an UNSIGNED_INT32 array has no Vulkan equivalent",
                        plan->format->name);
   }

   plan->base_level = src->level + first_level;
   plan->level_count = last_level - first_level + 1;
   plan->base_layer = first_layer * faces;
   plan->layer_count = (last_layer - first_layer + 1) * faces;
   plan->extent = (VkExtent3D){
      .width = (uint32_t)CUVK_MAX(width >> first_level, (uint64_t)1),
      .height = (uint32_t)(d->Height ? CUVK_MAX(height >> first_level, (uint64_t)1) : 1),
      .depth = (uint32_t)CUVK_MAX(depth >> first_level, (uint64_t)1),
   };
   return CUDA_SUCCESS;
}

/* ---- sampler ---- */

static VkSamplerAddressMode
address_mode(CUaddress_mode mode, bool normalized)
{
   switch (mode) {
   case CU_TR_ADDRESS_MODE_WRAP:
      return normalized ? VK_SAMPLER_ADDRESS_MODE_REPEAT : VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
   case CU_TR_ADDRESS_MODE_MIRROR:
      return normalized ? VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT : VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
   case CU_TR_ADDRESS_MODE_BORDER:
      return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
   default:
      return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
   }
}

/* v within [lo, hi], NaN as 0: an integer border colour from any float. */
static double
clamp_to(float v, double lo, double hi)
{
   if (isnan(v))
      return 0.0;
   return v < lo ? lo : v > hi ? hi : v;
}

/* The border: the fixed Vulkan colour where CUDA's is one, the
 * application's through VK_EXT_custom_border_color where the device has
 * it, else CUDA_ERROR_NOT_SUPPORTED: a near colour would read wrong
 * values without a word.
 *
 * CUDA reads the channels a format lacks as 0, border included (measured
 * on an H100), and cuvk's sampled views of 1- and 2-channel formats
 * swizzle those channels to ZERO (texture.c).  The colour is compared,
 * and given, with those channels zeroed: then it reads the same whether
 * or not a device applies the view's swizzle to the border (Vulkan
 * leaves that undefined for custom and opaque black colours without
 * VK_EXT_border_color_swizzle, which texture.c uses where it can), and
 * (0, 0, 0, 1) or (1, 1, 1, 1) on one channel is a fixed colour. */
static CUresult
plan_border(struct cuvk_tex_plan *plan, const CUDA_TEXTURE_DESC *tex,
            const struct cuvk_tex_desc_limits *limits)
{
   static const float standard[3][4] = {
      { 0, 0, 0, 0 }, /* TRANSPARENT_BLACK */
      { 0, 0, 0, 1 }, /* OPAQUE_BLACK */
      { 1, 1, 1, 1 }, /* OPAQUE_WHITE */
   };
   bool integer = plan->sampled != CUVK_TEX_SAMPLED_FLOAT;
   static const VkBorderColor float_colors[3] = {
      VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK, VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK,
      VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE,
   };
   static const VkBorderColor int_colors[3] = {
      VK_BORDER_COLOR_INT_TRANSPARENT_BLACK, VK_BORDER_COLOR_INT_OPAQUE_BLACK,
      VK_BORDER_COLOR_INT_OPAQUE_WHITE,
   };
   /* Block-compressed views have no swizzle (texture.c). */
   unsigned channels = plan->format->block > 1 ? 4 : plan->format->channels;
   /* What the kernel would read: an integer texture's border is the
    * colour's values as integers. */
   float want[4];
   for (unsigned c = 0; c < 4; c++) {
      float v = integer ? truncf(tex->borderColor[c]) : tex->borderColor[c];
      want[c] = c < channels ? v : 0.0f;
   }

   unsigned best = 0;
   float best_dist = INFINITY;
   for (unsigned i = 0; i < 3; i++) {
      float dist = 0;
      for (unsigned c = 0; c < 4; c++) {
         float d = want[c] - (c < channels ? standard[i][c] : 0.0f);
         dist += d * d;
      }
      if (dist < best_dist) {
         best = i;
         best_dist = dist;
      }
   }
   plan->sampler.borderColor = integer ? int_colors[best] : float_colors[best];
   if (best_dist == 0)
      return CUDA_SUCCESS;

   if (limits->custom_border_color) {
      plan->custom_border = true;
      plan->border = (VkSamplerCustomBorderColorCreateInfoEXT){
         .sType = VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT,
         /* Without a format the driver takes the colour as it is for
          * every view, which also lets identical samplers of different
          * formats be one (texture.c shares them). */
         .format = limits->custom_border_without_format ? VK_FORMAT_UNDEFINED : plan->view_format,
      };
      for (unsigned c = 0; c < 4; c++) {
         if (plan->sampled == CUVK_TEX_SAMPLED_FLOAT)
            plan->border.customBorderColor.float32[c] = want[c];
         else if (plan->sampled == CUVK_TEX_SAMPLED_SINT)
            plan->border.customBorderColor.int32[c] = (int32_t)clamp_to(want[c], -2147483648.0, 2147483647.0);
         else
            plan->border.customBorderColor.uint32[c] = (uint32_t)clamp_to(want[c], 0.0, 4294967295.0);
      }
      plan->sampler.borderColor = integer ? VK_BORDER_COLOR_INT_CUSTOM_EXT : VK_BORDER_COLOR_FLOAT_CUSTOM_EXT;
      return CUDA_SUCCESS;
   }
   return cuvk_error(CUDA_ERROR_NOT_SUPPORTED,
                     TEX_ENTRY ": border colour (%g, %g, %g, %g): without VK_EXT_custom_border_color "
                     "cuvk has only (0,0,0,0), (0,0,0,1) and (1,1,1,1)",
                     tex->borderColor[0], tex->borderColor[1], tex->borderColor[2], tex->borderColor[3]);
}

static CUresult
plan_sampler(struct cuvk_tex_plan *plan, const CUDA_TEXTURE_DESC *tex,
             const struct cuvk_tex_desc_limits *limits)
{
   bool normalized = tex->flags & CU_TRSF_NORMALIZED_COORDINATES;
   bool linear = tex->filterMode == CU_TR_FILTER_MODE_LINEAR;
   bool mip_linear = tex->mipmapFilterMode == CU_TR_FILTER_MODE_LINEAR;
   bool mipmapped = plan->kind == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;

   /* CUDA filters only what it returns as floats, and its documentation
    * calls linear filtering of integers read as integers an error, but
    * the driver takes it (codes_cuda_h100.txt: arrays, linear and pitched
    * memory, 8- to 32-bit, mipmap filtering too); the runtime refuses it
    * (cudaErrorInvalidFilterSetting, src/runtime/texture.c).  Vulkan
    * cannot filter integer formats, so such a texture samples the
    * nearest texel (and level). */
   if (plan->sampled != CUVK_TEX_SAMPLED_FLOAT && (linear || (mipmapped && mip_linear))) {
      cuvk_logd(TEX_ENTRY ": CU_AD_FORMAT_%s read as integers is sampled without linear filtering",
                plan->format->name);
      linear = false;
      mip_linear = false;
      plan->point_only = true;
   }
   /* LINEAR resources are read by tex1Dfetch, which neither filters nor
    * addresses. */
   if (plan->kind == CU_RESOURCE_TYPE_LINEAR) {
      linear = false;
      mip_linear = false;
   }

   VkSamplerCreateInfo *s = &plan->sampler;
   *s = (VkSamplerCreateInfo){
      .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
      .magFilter = linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST,
      .minFilter = linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST,
      .mipmapMode = mipmapped && mip_linear ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST,
      .compareOp = VK_COMPARE_OP_NEVER,
      .borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK,
      .unnormalizedCoordinates = VK_FALSE,
   };

   bool cube = plan->view_type == VK_IMAGE_VIEW_TYPE_CUBE || plan->view_type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
   VkSamplerAddressMode modes[3];
   bool border = false;
   for (unsigned i = 0; i < 3; i++) {
      /* Cube maps: Vulkan ignores the modes (the faces join seamlessly);
       * a linear resource is never addressed. */
      modes[i] = cube || plan->kind == CU_RESOURCE_TYPE_LINEAR
                    ? VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
                    : address_mode(tex->addressMode[i], normalized);
      border |= i < plan->coords && modes[i] == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
   }
   s->addressModeU = modes[0];
   s->addressModeV = modes[1];
   s->addressModeW = modes[2];
   /* Pitched memory has no sampler: the kernel reads the exact colour
    * from the record. */
   if (border && plan->kind != CU_RESOURCE_TYPE_PITCH2D) {
      CUresult r = plan_border(plan, tex, limits);
      if (r != CUDA_SUCCESS)
         return r;
   }

   if (mipmapped) {
      /* Vulkan's LOD 0 is the view's base level, as CUDA's clamps are
       * relative to the view's first level.  A NaN bias or clamp (which
       * CUDA takes) is none. */
      float bias = isnan(tex->mipmapLevelBias) ? 0.0f : tex->mipmapLevelBias;
      s->mipLodBias = CUVK_MAX(CUVK_MIN(bias, limits->max_lod_bias), -limits->max_lod_bias);
      if (s->mipLodBias != bias)
         cuvk_logw(TEX_ENTRY ": mipmapLevelBias %g clamped to the device's %g", bias, s->mipLodBias);
      s->minLod = isnan(tex->minMipmapLevelClamp) ? 0.0f : CUVK_MAX(tex->minMipmapLevelClamp, 0.0f);
      s->maxLod = isnan(tex->maxMipmapLevelClamp) ? VK_LOD_CLAMP_NONE
                                                   : CUVK_MAX(tex->maxMipmapLevelClamp, s->minLod);
   }

   /* CUDA clamps the ratio to [1, 16]; 1 is no anisotropic filtering.
    * Only a linear filter uses it, as on CUDA's hardware. */
   float aniso = CUVK_MIN(CUVK_MAX((float)tex->maxAnisotropy, 1.0f), CUDA_MAX_ANISOTROPY);
   if (linear && aniso > 1.0f && limits->max_anisotropy >= 1.0f) {
      s->anisotropyEnable = VK_TRUE;
      s->maxAnisotropy = CUVK_MIN(aniso, limits->max_anisotropy);
   }

   /* Texel coordinates straight to the sampler where Vulkan takes them
    * (texture_desc.h): no scaling in the kernel, and no rounding error
    * from scaling at exact texel edges.  The address modes are clamps
    * already (address_mode), as such a sampler needs. */
   if (!normalized && plan->kind == CU_RESOURCE_TYPE_ARRAY && plan->level_count == 1 && plan->layer_count == 1 &&
       (plan->view_type == VK_IMAGE_VIEW_TYPE_1D || plan->view_type == VK_IMAGE_VIEW_TYPE_2D)) {
      plan->texel_coords = true;
      s->unnormalizedCoordinates = VK_TRUE;
      s->mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
      s->mipLodBias = 0.0f;
      s->minLod = s->maxLod = 0.0f;
      s->anisotropyEnable = VK_FALSE;
      s->maxAnisotropy = 0.0f;
   }

   for (unsigned i = 0; i < 3; i++)
      plan->coord_scale[i] = 1.0f;
   if (!normalized && !cube && !plan->texel_coords && plan->kind != CU_RESOURCE_TYPE_LINEAR) {
      const uint32_t ext[3] = { plan->extent.width, plan->extent.height, plan->extent.depth };
      for (unsigned i = 0; i < plan->coords; i++)
         plan->coord_scale[i] = 1.0f / (float)ext[i];
   }
   return CUDA_SUCCESS;
}

static CUresult
check_texture_desc(const CUDA_TEXTURE_DESC *tex)
{
   for (unsigned i = 0; i < 3; i++) {
      if ((unsigned)tex->addressMode[i] > CU_TR_ADDRESS_MODE_BORDER)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, TEX_ENTRY ": addressMode[%u] 0x%x is not a CUaddress_mode",
                           i, (unsigned)tex->addressMode[i]);
   }
   if ((unsigned)tex->filterMode > CU_TR_FILTER_MODE_LINEAR)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, TEX_ENTRY ": filterMode 0x%x is not a CUfilter_mode",
                        (unsigned)tex->filterMode);
   if ((unsigned)tex->mipmapFilterMode > CU_TR_FILTER_MODE_LINEAR)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, TEX_ENTRY ": mipmapFilterMode 0x%x is not a CUfilter_mode",
                        (unsigned)tex->mipmapFilterMode);
   if (tex->flags & ~TRSF_KNOWN)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, TEX_ENTRY ": unknown texture flags 0x%x",
                        tex->flags & ~TRSF_KNOWN);
   /* NaN biases and clamps: real CUDA takes them (codes_cuda_h100.txt);
    * plan_sampler reads them as no bias and no clamp. */
   return CUDA_SUCCESS;
}

CUresult
cuvk_tex_plan_build(const CUDA_RESOURCE_DESC *res, const CUDA_TEXTURE_DESC *tex,
                    const CUDA_RESOURCE_VIEW_DESC *view, const struct cuvk_tex_source *src,
                    const struct cuvk_tex_desc_limits *limits, struct cuvk_tex_plan *out)
{
   CUresult r;
   if (!res || !tex || !limits || !out)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, TEX_ENTRY ": resource or texture description is NULL");
   if (res->flags)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, TEX_ENTRY ": resource flags 0x%x are not 0", res->flags);
   r = check_texture_desc(tex);
   if (r != CUDA_SUCCESS)
      return r;

   struct cuvk_tex_plan plan = {
      .res = *res,
      .tex = *tex,
      .view = view ? *view : (CUDA_RESOURCE_VIEW_DESC){ 0 },
      .has_view = view != NULL,
      .kind = res->resType,
   };

   switch (res->resType) {
   case CU_RESOURCE_TYPE_ARRAY:
   case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
      if (!src || !src->format || !src->levels)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, TEX_ENTRY ": no array behind the resource");
      /* CUDA's documentation says a mipmapped array needs
       * CU_TRSF_NORMALIZED_COORDINATES, but real CUDA takes one without
       * (codes_cuda_h100.txt): the kernel scales texel coordinates of
       * level 0, as for any texture its sampler cannot take them for. */
      r = plan_array(view, src, tex->flags, &plan);
      break;
   case CU_RESOURCE_TYPE_LINEAR:
   case CU_RESOURCE_TYPE_PITCH2D:
      if (view)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                           TEX_ENTRY ": a resource view is only for arrays and mipmapped arrays");
      if (tex->flags & CU_TRSF_SEAMLESS_CUBEMAP)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                           TEX_ENTRY ": CU_TRSF_SEAMLESS_CUBEMAP on a resource that is not a cubemap");
      r = res->resType == CU_RESOURCE_TYPE_LINEAR ? plan_linear(res, limits, &plan)
                                                  : plan_pitch2d(res, limits, &plan);
      break;
   default:
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, TEX_ENTRY ": 0x%x is not a CUresourcetype",
                        (unsigned)res->resType);
   }
   if (r != CUDA_SUCCESS)
      return r;

   plan.texel_size = plan.format->elem_size;
   plan_read_mode(&plan, tex->flags);
   r = plan_sampler(&plan, tex, limits);
   if (r != CUDA_SUCCESS)
      return r;
   *out = plan;
   return CUDA_SUCCESS;
}

/* Looks up an array or mipmapped array resource's handle; on success
 * *array or *mip holds a reference. */
static CUresult
resource_source(const CUDA_RESOURCE_DESC *res, const char *entry, struct cuvk_array **array,
                struct cuvk_mipmapped_array **mip, struct cuvk_tex_source *src)
{
   CUresult r;
   *array = NULL;
   *mip = NULL;
   /* A NULL or destroyed handle is INVALID_VALUE here (the lookups log
    * the one line): real CUDA gives it for a destroyed array in
    * cuTexObjectCreate (codes_cuda_h100.txt), unlike the
    * INVALID_HANDLE of other calls taking one, and crashes on a destroyed
    * mipmapped array and in cuSurfObjectCreate, which answer the same
    * here. */
   if (res->resType == CU_RESOURCE_TYPE_ARRAY) {
      r = cuvk_array_get(res->res.array.hArray, entry, array);
      if (r != CUDA_SUCCESS)
         return r == CUDA_ERROR_INVALID_HANDLE ? CUDA_ERROR_INVALID_VALUE : r;
      *src = (struct cuvk_tex_source){
         .format = (*array)->format,
         .desc = (*array)->desc,
         .levels = 1,
         .level = (*array)->level,
      };
   } else {
      r = cuvk_mipmapped_array_get(res->res.mipmap.hMipmappedArray, entry, mip);
      if (r != CUDA_SUCCESS)
         return r == CUDA_ERROR_INVALID_HANDLE ? CUDA_ERROR_INVALID_VALUE : r;
      *src = (struct cuvk_tex_source){
         .format = (*mip)->format,
         .desc = (*mip)->desc,
         .levels = (*mip)->levels,
      };
   }
   return CUDA_SUCCESS;
}

CUresult
cuvk_tex_desc_check(const CUDA_RESOURCE_DESC *res, const CUDA_TEXTURE_DESC *tex,
                    const CUDA_RESOURCE_VIEW_DESC *view, const struct cuvk_tex_desc_limits *limits,
                    struct cuvk_tex_plan *out)
{
   struct cuvk_array *array = NULL;
   struct cuvk_mipmapped_array *mip = NULL;
   struct cuvk_tex_source src = { 0 };
   CUresult r;

   if (!res || !tex || !limits || !out)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, TEX_ENTRY ": resource or texture description is NULL");
   if (res->resType == CU_RESOURCE_TYPE_ARRAY || res->resType == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY) {
      r = resource_source(res, TEX_ENTRY, &array, &mip, &src);
      if (r != CUDA_SUCCESS)
         return r;
   }
   r = cuvk_tex_plan_build(res, tex, view, &src, limits, out);
   if (r != CUDA_SUCCESS) {
      cuvk_array_put(array);
      cuvk_mipmapped_array_put(mip);
      return r;
   }
   out->array = array;
   out->mipmap = mip;
   return CUDA_SUCCESS;
}

void
cuvk_tex_plan_finish(struct cuvk_tex_plan *plan)
{
   cuvk_array_put(plan->array);
   cuvk_mipmapped_array_put(plan->mipmap);
   plan->array = NULL;
   plan->mipmap = NULL;
}

void
cuvk_tex_plan_resource_desc(const struct cuvk_tex_plan *plan, CUDA_RESOURCE_DESC *out)
{
   *out = plan->res;
}

void
cuvk_tex_plan_texture_desc(const struct cuvk_tex_plan *plan, CUDA_TEXTURE_DESC *out)
{
   *out = plan->tex;
}

CUresult
cuvk_tex_plan_view_desc(const struct cuvk_tex_plan *plan, CUDA_RESOURCE_VIEW_DESC *out)
{
   if (!plan->has_view)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "cuTexObjectGetResourceViewDesc: the texture was created without a resource view");
   *out = plan->view;
   return CUDA_SUCCESS;
}

/* ---- surfaces ---- */

/* An unsigned format as wide as a texel: suld.b and sust.b move raw bits. */
static VkFormat
storage_format(unsigned texel_size)
{
   switch (texel_size) {
   case 1: return VK_FORMAT_R8_UINT;
   case 2: return VK_FORMAT_R16_UINT;
   case 4: return VK_FORMAT_R32_UINT;
   case 8: return VK_FORMAT_R32G32_UINT;
   case 16: return VK_FORMAT_R32G32B32A32_UINT;
   default: return VK_FORMAT_UNDEFINED;
   }
}

CUresult
cuvk_surf_plan_build(const CUDA_RESOURCE_DESC *res, const struct cuvk_tex_source *src,
                     struct cuvk_surf_plan *out)
{
   if (!res || !out)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, SURF_ENTRY ": resource description is NULL");
   if (res->resType != CU_RESOURCE_TYPE_ARRAY)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        SURF_ENTRY ": resource type 0x%x is not CU_RESOURCE_TYPE_ARRAY", (unsigned)res->resType);
   if (res->flags)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, SURF_ENTRY ": resource flags 0x%x are not 0", res->flags);
   if (!src || !src->format)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, SURF_ENTRY ": no array behind the resource");
   const CUDA_ARRAY3D_DESCRIPTOR *d = &src->desc;
   if (!(d->Flags & CUDA_ARRAY3D_SURFACE_LDST))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        SURF_ENTRY ": the array was created without CUDA_ARRAY3D_SURFACE_LDST");
   VkFormat storage = format_is_block(src->format) ? VK_FORMAT_UNDEFINED : storage_format(src->format->elem_size);
   if (storage == VK_FORMAT_UNDEFINED)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, SURF_ENTRY ": CU_AD_FORMAT_%s arrays are not surfaces",
                        src->format->name);

   struct cuvk_surf_plan plan = {
      .res = *res,
      .format = src->format,
      .texel_size = src->format->elem_size,
      .storage_format = storage,
      .level = src->level,
      .extent = { (uint32_t)d->Width, (uint32_t)CUVK_MAX(d->Height, (size_t)1), 1 },
      .layer_count = 1,
   };
   /* Surfaces address cube faces as layers (surfCubemapread's face
    * argument), so a cubemap is a 2D array of six. */
   if (d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP)) {
      plan.layer_count = (uint32_t)d->Depth;
      plan.view_type = d->Height ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_1D_ARRAY;
   } else if (d->Depth) {
      plan.extent.depth = (uint32_t)d->Depth;
      plan.view_type = VK_IMAGE_VIEW_TYPE_3D;
   } else {
      plan.view_type = d->Height ? VK_IMAGE_VIEW_TYPE_2D : VK_IMAGE_VIEW_TYPE_1D;
   }
   *out = plan;
   return CUDA_SUCCESS;
}

CUresult
cuvk_surf_desc_check(const CUDA_RESOURCE_DESC *res, struct cuvk_surf_plan *out)
{
   struct cuvk_array *array = NULL;
   struct cuvk_mipmapped_array *mip = NULL;
   struct cuvk_tex_source src = { 0 };
   CUresult r;

   if (!res || !out)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, SURF_ENTRY ": resource description is NULL");
   if (res->resType == CU_RESOURCE_TYPE_ARRAY) {
      r = resource_source(res, SURF_ENTRY, &array, &mip, &src);
      if (r != CUDA_SUCCESS)
         return r;
   }
   r = cuvk_surf_plan_build(res, &src, out);
   if (r != CUDA_SUCCESS) {
      cuvk_array_put(array);
      return r;
   }
   out->array = array;
   return CUDA_SUCCESS;
}

void
cuvk_surf_plan_finish(struct cuvk_surf_plan *plan)
{
   cuvk_array_put(plan->array);
   plan->array = NULL;
}

void
cuvk_surf_plan_resource_desc(const struct cuvk_surf_plan *plan, CUDA_RESOURCE_DESC *out)
{
   *out = plan->res;
}
