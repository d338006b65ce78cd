/*
 * CUDA arrays and mipmapped arrays as Vulkan images.
 *
 * Every CUarray and CUmipmappedArray is backed by one VkImage in its
 * context's VkDevice (struct cuvk_array_image).  A plain array owns an
 * image of one mip level; a mipmapped array owns an image with all its
 * levels, and each level handed out by cuMipmappedArrayGetLevel is a
 * CUarray that names (image, level) and belongs to the mipmapped array: it
 * lives and dies with it.
 *
 * Images cuvk creates stay in VK_IMAGE_LAYOUT_GENERAL for their whole life
 * (one transition at creation), so the context's global barrier before
 * every command is all the synchronisation copies need.  Images over
 * imported memory (cuExternalMemoryGetMappedMipmappedArray) are shared
 * with the exporting application: each command that touches one acquires
 * it from VK_QUEUE_FAMILY_EXTERNAL and releases it back, in GENERAL, so
 * the contents are never discarded (layout.c).
 *
 * Copy units.  CUDA's copies address arrays in bytes along a row, in rows
 * and in slices (3D depth or layers).  For block-compressed formats an
 * element is a 4x4 block and a row is a row of blocks.
 */
#ifndef CUVK_ARRAY_ARRAY_H
#define CUVK_ARRAY_ARRAY_H

#include <stdbool.h>
#include <stdint.h>
#include <cuda.h>
#include <vulkan/vulkan.h>

#include "array/format.h"
#include "cuda_api/object.h"
#include "cuda_api/submit.h"
#include "util/list.h"

struct cuvk_context;
struct cuvk_external_memory;
struct cuvk_array;
struct cuvk_mipmapped_array;

/* Formats of one image's view list at most: every family format of a
 * 4-byte texel (cuvk_vk_format_view_list) and the image's own. */
#define CUVK_ARRAY_MAX_VIEW_FORMATS 16u

struct cuvk_array_image {
   struct cuvk_list link;            /* in ctx->arrays */
   struct cuvk_context *ctx;
   VkImage image;
   VkDeviceMemory memory;            /* owned; VK_NULL_HANDLE over an import */
   VkDeviceSize memory_size;         /* of memory, counted in the device's budget */
   uint32_t memory_type;
   bool owns_image;                  /* false: the import's dedicated image */
   /* Usable on the transfer lanes (submit.h) with no ownership transfer:
    * a cuvk image, VK_SHARING_MODE_CONCURRENT where those lanes are of
    * another family.  Copies with pinned memory run there (copy.c). */
   bool transfer_lanes;
   struct cuvk_external_memory *ext; /* the import it lives in (referenced) */
   bool external;                    /* shared with another device or API */
   VkFormat vk_format;               /* the image's own format; for a plane, the
                                      * plane's compatible single-plane format */
   /* A plane of a multi-planar image (plane.c): the aspect copies name
    * (0: VK_IMAGE_ASPECT_COLOR_BIT, a plain image), and whether the image
    * is disjoint (then barriers name the plane too; otherwise Vulkan wants
    * them on the whole image, COLOR). */
   VkImageAspectFlagBits plane_aspect;
   bool plane_disjoint;
   unsigned elem_size;               /* bytes per element of vk_format */
   unsigned block;                   /* texels per block side */
   VkImageType type;
   VkImageCreateFlags create_flags;
   /* The VkImageFormatListCreateInfo the image was made with (cuvk's own
    * list, or the exporter's as the layer recorded it; 0: none, so with
    * MUTABLE_FORMAT any compatible format).  cuvk_array_image_viewable
    * reads it. */
   uint32_t view_format_count;
   VkFormat view_formats[CUVK_ARRAY_MAX_VIEW_FORMATS];
   VkImageUsageFlags usage;
   VkExtent3D extent;                /* of level 0, in texels */
   uint32_t layers;
   uint32_t levels;

   /* The compute engine's access (compute.c): an unsigned format as wide
    * as a texel, VK_FORMAT_UNDEFINED when the image allows no such storage
    * view (then copies use transfer commands); one view and descriptor set
    * per level, made at first use. */
   VkFormat storage_format;
   VkDescriptorPool pool;
   VkImageView *views;
   VkDescriptorSet *sets;

   /* The handle that owns the image: exactly one is set. */
   struct cuvk_array *array;
   struct cuvk_mipmapped_array *mipmap;
   struct cuvk_deferred release;
};

struct cuvk_array {
   struct cuvk_object base;
   struct cuvk_context *ctx;
   struct cuvk_array_image *img;
   struct cuvk_mipmapped_array *parent; /* set for a level of a mipmapped array */
   uint32_t level;
   const struct cuvk_format *format;
   CUDA_ARRAY3D_DESCRIPTOR desc;        /* what cuArray3DGetDescriptor reports */

   /* The level in copy units (see above). */
   uint64_t row_elems;                  /* elements per row */
   uint64_t rows;                       /* rows per slice (1 for 1D) */
   uint64_t slices;                     /* 3D depth or layers (1 for plain 1D/2D) */
   VkExtent3D extent;                   /* the level in texels */
};

struct cuvk_mipmapped_array {
   struct cuvk_object base;
   struct cuvk_context *ctx;
   struct cuvk_array_image *img;
   const struct cuvk_format *format;
   CUDA_ARRAY3D_DESCRIPTOR desc;
   uint32_t levels;
   bool destroyed;                      /* under ctx->lock: no new level handles */
   struct cuvk_array *level_arrays[];   /* made on first cuMipmappedArrayGetLevel */
};

/* ---- array.c ---- */

/* A live array handle (plain or level), with a reference the caller
 * drops with cuvk_array_put (not under the context's lock; a level's is
 * its mipmapped array's), or CUDA_ERROR_INVALID_VALUE (NULL) /
 * CUDA_ERROR_INVALID_HANDLE (anything else). */
CUresult cuvk_array_get(CUarray handle, const char *entry, struct cuvk_array **out);
void cuvk_array_put(struct cuvk_array *array);

/* The geometry of a CUDA descriptor as a Vulkan image: type, extent,
 * layers and create flags.  CUDA_ERROR_INVALID_VALUE (logged) for a
 * descriptor CUDA rejects. */
struct cuvk_array_geometry {
   VkImageType type;
   VkExtent3D extent;
   uint32_t layers;
   VkImageCreateFlags create_flags;
   uint32_t max_levels;                 /* log2(largest extent) + 1 */
};
CUresult cuvk_array_geometry(const CUDA_ARRAY3D_DESCRIPTOR *desc, const char *entry,
                             struct cuvk_array_geometry *out);

/* Checks a descriptor's flags and format and looks the format up;
 * the usage the image needs goes to *usage and the format features to
 * *features. */
CUresult cuvk_array_check_desc(struct cuvk_context *ctx, const CUDA_ARRAY3D_DESCRIPTOR *desc,
                               const char *entry, const struct cuvk_format **format,
                               VkImageUsageFlags *usage, VkFormatFeatureFlags *features);

/* A new image with its own memory, in GENERAL (not yet in the context's
 * list: cuvk_array_image_publish). */
CUresult cuvk_array_image_create(struct cuvk_context *ctx, const struct cuvk_format *format,
                                 const struct cuvk_array_geometry *geo, uint32_t levels,
                                 VkImageUsageFlags usage, const char *entry,
                                 struct cuvk_array_image **out);
void cuvk_array_image_publish(struct cuvk_context *ctx, struct cuvk_array_image *img);

/* Drops a published image once the GPU is done with it, and its reference
 * on an import; ctx lock held. */
void cuvk_array_image_release_locked(struct cuvk_array_image *img);

/* Fills an array handle for level `level` of img, made from desc. */
void cuvk_array_init_level(struct cuvk_array *array, struct cuvk_array_image *img,
                           const struct cuvk_format *format, const CUDA_ARRAY3D_DESCRIPTOR *desc,
                           uint32_t level);

/* Whether Vulkan lets img be viewed as format: its own format always;
 * another only on a MUTABLE_FORMAT image, and only one its format list
 * names where it was made with one. */
bool cuvk_array_image_viewable(const struct cuvk_array_image *img, VkFormat format);

/* The aspect copies of img name, and the one its barriers name. */
static inline VkImageAspectFlags
cuvk_array_image_aspect(const struct cuvk_array_image *img)
{
   return img->plane_aspect ? (VkImageAspectFlags)img->plane_aspect : VK_IMAGE_ASPECT_COLOR_BIT;
}

static inline VkImageAspectFlags
cuvk_array_image_barrier_aspect(const struct cuvk_array_image *img)
{
   return img->plane_disjoint ? (VkImageAspectFlags)img->plane_aspect : VK_IMAGE_ASPECT_COLOR_BIT;
}

/* ---- plane.c ---- */

struct cuvk_external_memory;

/* cuExternalMemoryGetMappedMipmappedArray over one plane of a
 * multi-planar image the layer recorded.  *handled is false when the
 * record puts no multi-planar image at or below desc->offset (the caller
 * goes on with single-plane images); otherwise the result is final, and
 * on success *out is an image set up for the plane (not yet published). */
CUresult cuvk_array_map_plane(struct cuvk_external_memory *ext,
                              const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *desc,
                              const struct cuvk_format *format, const struct cuvk_array_geometry *geo,
                              bool *handled, struct cuvk_array_image **out);

/* ---- mipmap.c ---- */

/* A live mipmapped array handle, with a reference the caller drops with
 * cuvk_mipmapped_array_put (not under the context's lock), or
 * CUDA_ERROR_INVALID_VALUE (NULL) / CUDA_ERROR_INVALID_HANDLE (anything
 * else). */
CUresult cuvk_mipmapped_array_get(CUmipmappedArray handle, const char *entry,
                                  struct cuvk_mipmapped_array **out);
void cuvk_mipmapped_array_put(struct cuvk_mipmapped_array *mip);

/* Frees the level handles a mipmapped array gave out. */
void cuvk_mipmapped_array_free_levels(struct cuvk_mipmapped_array *mip);

/* Makes a mipmapped array handle around an image the caller set up (the
 * external path); on success it owns img, and the level arrays are created
 * on demand. */
CUresult cuvk_mipmapped_array_wrap(struct cuvk_context *ctx, struct cuvk_array_image *img,
                                   const struct cuvk_format *format,
                                   const CUDA_ARRAY3D_DESCRIPTOR *desc, uint32_t levels,
                                   struct cuvk_mipmapped_array **out);

/* Frees everything of a context being destroyed (GPU idle). */
void cuvk_array_release_context(struct cuvk_context *ctx);

/* ---- compute.c ---- */

/* The unsigned format (r32ui, rg32ui, rgba32ui) a compute copy can view
 * an image of these parameters as, or VK_FORMAT_UNDEFINED. */
VkFormat cuvk_array_storage_format(const struct cuvk_device *dev, VkFormat format,
                                   VkImageCreateFlags flags, VkImageUsageFlags usage);

/* The flags and usage to add to a new image so that compute copies can
 * reach it (none when the device cannot). */
void cuvk_array_storage_extras(const struct cuvk_device *dev, VkFormat format, VkImageType type,
                               VkImageCreateFlags *flags, VkImageUsageFlags *usage);

/* True when a copy between img and a buffer at address, rows pitch bytes
 * apart and slices slice bytes apart, takes the compute engine: the
 * context uses it (GPUs; CUVK_COPY_ENGINE) and the image and layout allow. */
bool cuvk_array_compute_usable(const struct cuvk_context *ctx, const struct cuvk_array_image *img,
                               uint64_t address, uint64_t pitch, uint64_t slice);

/* Records the dispatch that moves a box (texels; z is the slice of a 3D
 * image, else the layer) of a's level between the image and the buffer;
 * inside a command from cuvk_submit_record, ctx lock held. */
CUresult cuvk_array_record_compute(struct cuvk_context *ctx, VkCommandBuffer cmd, const struct cuvk_array *a,
                                   const VkOffset3D *offset, const VkExtent3D *extent, uint64_t address,
                                   uint64_t pitch, uint64_t slice, bool upload);

/* Destroys img's views and descriptors (GPU done with them). */
void cuvk_array_image_finish_compute(struct cuvk_context *ctx, struct cuvk_array_image *img);

/* Destroys the context's copy pipelines (GPU idle). */
void cuvk_array_pipelines_finish(struct cuvk_context *ctx);

/* ---- layout.c ---- */

/* Records the one layout transition of an image cuvk created
 * (UNDEFINED -> GENERAL) on the context's submission order. */
CUresult cuvk_array_image_init_layout(struct cuvk_context *ctx, struct cuvk_array_image *img);

/* What one command does with an image: the subresources it touches and
 * the transfer layout it needs them in. */
struct cuvk_array_use {
   const struct cuvk_array_image *img;
   uint32_t level;
   uint32_t base_layer;
   uint32_t layer_count;
   VkImageLayout layout;   /* TRANSFER_SRC/DST_OPTIMAL, or GENERAL for storage */
};

/* Around every command that uses array images (cmd from
 * cuvk_submit_record): begin acquires shared images from
 * VK_QUEUE_FAMILY_EXTERNAL and moves the touched subresources from
 * GENERAL to their transfer layout; end moves them back and releases
 * shared images.  Two uses of one image must touch different
 * subresources. */
void cuvk_array_use_begin(struct cuvk_context *ctx, VkCommandBuffer cmd,
                          const struct cuvk_array_use *uses, unsigned count);
void cuvk_array_use_end(struct cuvk_context *ctx, VkCommandBuffer cmd,
                        const struct cuvk_array_use *uses, unsigned count);

/* Acquires (to_us) from VK_QUEUE_FAMILY_EXTERNAL, or releases to it,
 * whole distinct shared images in GENERAL for compute shaders: a kernel
 * launch's texture and surface objects over imported images (launch.c).
 * The caller orders the command after the last array command of any lane
 * (submit.h, array_point), as copies do. */
void cuvk_array_images_ownership(struct cuvk_context *ctx, VkCommandBuffer cmd,
                                 struct cuvk_array_image *const *imgs, unsigned count, bool to_us);

#endif
