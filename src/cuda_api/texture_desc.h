/*
 * Texture and surface descriptors: CUDA's descriptions checked and turned
 * into a plan of Vulkan values.
 *
 * cuTexObjectCreate and cuSurfObjectCreate take a resource, a texture
 * description and an optional resource view.  This module checks them as
 * CUDA does (the codes are in docs/textures.md) and answers with a plan:
 * what the resource is, the format and extent of the view the kernel
 * reads, the numeric type tex.* returns, and the sampler as a filled
 * VkSamplerCreateInfo.  It makes no Vulkan object and keeps no state; the
 * texture object module (texture.c) checks every description here and
 * nowhere else, makes the sampler and the kernel's record from the plan,
 * and keeps the descriptions so that the Get* calls return what Create
 * got.
 *
 * Where CUDA's texture reads texel coordinates, the plan asks for a
 * sampler that takes them as they are (unnormalizedCoordinates) if Vulkan
 * allows one there: one level of a 1D or 2D image, not layered (CUDA
 * already clamps texel coordinates in wrap and mirror mode, as Vulkan's
 * samplers must).  Elsewhere the sampler takes normalised coordinates and
 * the kernel multiplies CUDA's by coord_scale first.
 */
#ifndef CUVK_API_TEXTURE_DESC_H
#define CUVK_API_TEXTURE_DESC_H

#include <stdbool.h>
#include <stdint.h>
#include <cuda.h>
#include <vulkan/vulkan.h>

struct cuvk_device;
struct cuvk_format;
struct cuvk_array;
struct cuvk_mipmapped_array;

/* What the device allows, as CUDA reports it (cuDeviceGetAttribute) and as
 * Vulkan lets the sampler be. */
struct cuvk_tex_desc_limits {
   uint64_t texture_alignment;      /* bytes, LINEAR and PITCH2D addresses */
   uint64_t pitch_alignment;        /* bytes, PITCH2D pitch */
   uint64_t max_1d_linear;          /* texels of a LINEAR resource */
   uint64_t max_2d_linear[3];       /* PITCH2D width, height (texels), pitch (bytes) */
   float max_anisotropy;            /* 0: the device has no samplerAnisotropy */
   float max_lod_bias;              /* maxSamplerLodBias */
   bool custom_border_color;        /* VK_EXT_custom_border_color's customBorderColors */
   bool custom_border_without_format; /* customBorderColorWithoutFormat: border.format UNDEFINED */
};

/* The limits of dev.  max_anisotropy and the custom border fields say what
 * the physical device has: a context that does not enable
 * samplerAnisotropy, customBorderColors or customBorderColorWithoutFormat
 * must clear them before building plans. */
void cuvk_tex_desc_limits_init(const struct cuvk_device *dev, struct cuvk_tex_desc_limits *out);

/* The numeric type a kernel's tex.* instruction returns. */
enum cuvk_tex_sampled {
   CUVK_TEX_SAMPLED_FLOAT,
   CUVK_TEX_SAMPLED_SINT,
   CUVK_TEX_SAMPLED_UINT,
};

/* What an array or mipmapped array resource is, found from its handle. */
struct cuvk_tex_source {
   const struct cuvk_format *format;
   CUDA_ARRAY3D_DESCRIPTOR desc;    /* the array's (a level's own extent), or level 0's */
   uint32_t levels;                 /* 1 for an array */
   uint32_t level;                  /* the image level an array is (a level of a
                                     * mipmapped array), else 0 */
};

struct cuvk_tex_plan {
   /* The caller's descriptions, as given (the Get* calls return them). */
   CUDA_RESOURCE_DESC res;
   CUDA_TEXTURE_DESC tex;
   CUDA_RESOURCE_VIEW_DESC view;
   bool has_view;

   /* The resource: exactly one of array, mipmap (each holding a reference
    * that cuvk_tex_plan_finish drops) or address is set. */
   CUresourcetype kind;
   struct cuvk_array *array;
   struct cuvk_mipmapped_array *mipmap;
   CUdeviceptr address;             /* LINEAR, PITCH2D */
   uint64_t size;                   /* LINEAR: bytes */
   uint64_t pitch;                  /* PITCH2D: bytes per row */

   /* The view the kernel reads: its format (the resource view's where one
    * is given), bytes per texel (per 4x4 block for block-compressed
    * formats) and the extent of its first level in texels. */
   const struct cuvk_format *format;
   unsigned texel_size;
   VkFormat view_format;            /* sampled image view, or texel buffer view for LINEAR */
   VkExtent3D extent;
   uint32_t base_level;             /* of the image */
   uint32_t level_count;
   uint32_t base_layer;
   uint32_t layer_count;            /* layers (cube faces count, 6 per cube) */
   VkImageViewType view_type;       /* LINEAR: VK_IMAGE_VIEW_TYPE_1D, read as a texel buffer */
   unsigned coords;                 /* coordinates a kernel passes, layer not counted: 1, 2, 3 */

   /* What tex.* returns: float for float formats and for 8/16-bit
    * integers read as normalized floats (UNORM/SNORM/SRGB views),
    * sint/uint for integers read as they are. */
   enum cuvk_tex_sampled sampled;
   bool normalized_read;
   bool srgb;

   /* The sampler.  sampler.pNext is NULL; where custom_border is true the
    * creator chains `border` (VK_EXT_custom_border_color), whose colour
    * is already zero in the channels the view's swizzle zeroes (so is
    * the fixed colour chosen otherwise), and which names the view's
    * format or, with customBorderColorWithoutFormat, none.
    * texel_coords: it takes texel coordinates (unnormalizedCoordinates,
    * see above), and the kernel passes CUDA's unscaled. */
   VkSamplerCreateInfo sampler;
   bool texel_coords;
   /* Linear filtering asked of integers read as integers, which the
    * driver API takes: the texture samples the nearest texel instead
    * (kernels filtering memory textures read this too). */
   bool point_only;
   bool custom_border;
   VkSamplerCustomBorderColorCreateInfoEXT border;

   /* The kernel multiplies coordinate i by coord_scale[i] before sampling:
    * 1/extent where CUDA reads texel coordinates (no
    * CU_TRSF_NORMALIZED_COORDINATES) and the sampler takes normalised
    * ones, 1.0 otherwise and for cubemaps. */
   float coord_scale[3];
};

/* Checks the descriptions and fills *out.  res and tex are required, view
 * may be NULL.  Array handles are looked up (a reference each, held by
 * the plan); on failure *out holds nothing.  CUDA_ERROR_INVALID_VALUE
 * (logged) for what CUDA rejects, CUDA_ERROR_NOT_SUPPORTED (logged) for
 * what CUDA takes and Vulkan cannot do (docs/textures.md). */
CUresult cuvk_tex_desc_check(const CUDA_RESOURCE_DESC *res, const CUDA_TEXTURE_DESC *tex,
                             const CUDA_RESOURCE_VIEW_DESC *view,
                             const struct cuvk_tex_desc_limits *limits, struct cuvk_tex_plan *out);

/* The same without handles: src describes an array or mipmapped array
 * resource (ignored for LINEAR and PITCH2D); out->array and out->mipmap
 * stay NULL.  For tests and for callers that resolved the handle. */
CUresult cuvk_tex_plan_build(const CUDA_RESOURCE_DESC *res, const CUDA_TEXTURE_DESC *tex,
                             const CUDA_RESOURCE_VIEW_DESC *view, const struct cuvk_tex_source *src,
                             const struct cuvk_tex_desc_limits *limits, struct cuvk_tex_plan *out);

/* Drops the plan's references. */
void cuvk_tex_plan_finish(struct cuvk_tex_plan *plan);

/* cuTexObjectGetResourceDesc, GetTextureDesc, GetResourceViewDesc: what
 * Create got.  The view: CUDA_ERROR_INVALID_VALUE (logged) when the
 * texture was created without one. */
void cuvk_tex_plan_resource_desc(const struct cuvk_tex_plan *plan, CUDA_RESOURCE_DESC *out);
void cuvk_tex_plan_texture_desc(const struct cuvk_tex_plan *plan, CUDA_TEXTURE_DESC *out);
CUresult cuvk_tex_plan_view_desc(const struct cuvk_tex_plan *plan, CUDA_RESOURCE_VIEW_DESC *out);

struct cuvk_surf_plan {
   CUDA_RESOURCE_DESC res;          /* as given */
   struct cuvk_array *array;        /* referenced */
   const struct cuvk_format *format;
   unsigned texel_size;             /* bytes; suld/sust x offsets are in bytes */
   VkFormat storage_format;         /* R8/R16/R32/R32G32/R32G32B32A32_UINT */
   VkImageViewType view_type;       /* cubemaps: 2D_ARRAY, faces as layers */
   VkExtent3D extent;               /* texels */
   uint32_t level;                  /* of the image */
   uint32_t layer_count;
};

/* cuSurfObjectCreate's checks: an array resource created with
 * CUDA_ARRAY3D_SURFACE_LDST, not block-compressed.  CUDA_ERROR_INVALID_VALUE
 * (logged) otherwise. */
CUresult cuvk_surf_desc_check(const CUDA_RESOURCE_DESC *res, struct cuvk_surf_plan *out);

/* The same for an array described by src (out->array stays NULL). */
CUresult cuvk_surf_plan_build(const CUDA_RESOURCE_DESC *res, const struct cuvk_tex_source *src,
                              struct cuvk_surf_plan *out);

void cuvk_surf_plan_finish(struct cuvk_surf_plan *plan);

/* cuSurfObjectGetResourceDesc. */
void cuvk_surf_plan_resource_desc(const struct cuvk_surf_plan *plan, CUDA_RESOURCE_DESC *out);

#endif
