/*
 * The element formats of CUDA arrays and the Vulkan formats behind them.
 *
 * One table (format.c) maps every CUarray_format and channel count CUDA
 * accepts to a VkFormat with the same bytes per element, so that a copy of
 * WidthInBytes bytes moves the same bits on both APIs.  Block-compressed
 * formats count a 4x4 block as one element.
 */
#ifndef CUVK_ARRAY_FORMAT_H
#define CUVK_ARRAY_FORMAT_H

#include <stdbool.h>
#include <stdint.h>
#include <cuda.h>
#include <vulkan/vulkan.h>

struct cuvk_device;

struct cuvk_format {
   CUarray_format cu;
   uint8_t channels;
   uint8_t elem_size;   /* bytes per texel, or per block */
   uint8_t block;       /* texels per block side: 1, or 4 for BC */
   VkFormat vk;         /* VK_FORMAT_UNDEFINED: no Vulkan equivalent */
   const char *name;    /* "FLOAT x4" */
};

/* Finds the entry of (format, channels).  CUDA_ERROR_INVALID_VALUE (logged,
 * naming entry) for a format value CUDA does not define or a channel count
 * it does not allow with it; CUDA_ERROR_NOT_SUPPORTED for a format CUDA
 * defines but Vulkan has no single-plane format for (the video layouts). */
CUresult cuvk_format_lookup(CUarray_format format, unsigned channels, const char *entry,
                            const struct cuvk_format **out);

/* Checks that dev can make optimal-tiling images of fmt with the features
 * needed: transfers always, plus `features`.  CUDA_ERROR_NOT_SUPPORTED with
 * a log line naming the format otherwise. */
CUresult cuvk_format_check_device(const struct cuvk_device *dev, const struct cuvk_format *fmt,
                                  VkFormatFeatureFlags features, const char *entry);

/* Bytes per texel (per block for block-compressed formats) and block side
 * of any color VkFormat cuvk knows, for images made by an application;
 * elem_size 0 when the format is not one cuvk can copy (depth, stencil,
 * multi-planar, or unknown). */
void cuvk_vk_format_size(VkFormat format, unsigned *elem_size, unsigned *block);

/* How a channel's bits read in a VkFormat of one of the channel families
 * below (formats that differ only in that: R8G8B8A8_UINT, _SINT, _UNORM,
 * _SNORM and _SRGB, say). */
enum cuvk_channel_kind {
   CUVK_CHANNEL_UINT,
   CUVK_CHANNEL_SINT,
   CUVK_CHANNEL_UNORM,
   CUVK_CHANNEL_SNORM,
   CUVK_CHANNEL_SRGB,
   CUVK_CHANNEL_SFLOAT,
   CUVK_CHANNEL_KIND_COUNT,
};

/* The family of format: how its channels read, how many there are and
 * their bits (8, 16 or 32).  False for a format in no family (packed,
 * three-channel, block-compressed, BGRA, ...). */
bool cuvk_vk_format_channels(VkFormat format, enum cuvk_channel_kind *kind, unsigned *channels,
                             unsigned *bits);

/* The format of format's family whose channels read as kind;
 * VK_FORMAT_UNDEFINED where the family has none (no 16-bit sRGB, no
 * 8-bit floats, no 32-bit normalised formats) or format is in none. */
VkFormat cuvk_vk_format_with_kind(VkFormat format, enum cuvk_channel_kind kind);

/* Every format an image of format may be viewed as by cuvk: format
 * itself, every family format of the same bytes per texel (texture read
 * modes, resource views, the raw unsigned storage view of copies and
 * surfaces), and for block-compressed formats the other one of their
 * Vulkan compatibility class (sRGB, signed).  Writes at most max,
 * returns the count. */
unsigned cuvk_vk_format_view_list(VkFormat format, VkFormat *out, unsigned max);

/* The planes of a multi-planar (YCbCr) VkFormat, from the Vulkan spec's
 * "Plane Format Compatibility" table: the single-plane format each plane
 * is compatible with (what copies of that plane use) and the divisors of
 * the image's width and height that give the plane's extent. */
struct cuvk_vk_planes {
   VkFormat format;
   unsigned count;                 /* 2 or 3 */
   VkFormat plane[3];
   uint8_t width_div[3];
   uint8_t height_div[3];
};

/* The entry of a multi-planar format; NULL for any other format. */
const struct cuvk_vk_planes *cuvk_vk_format_planes(VkFormat format);

/* Bytes per texel of a plane's compatible format (the _PACK16 ones
 * included, which cuvk_vk_format_size leaves out). */
void cuvk_vk_plane_format_size(VkFormat format, unsigned *elem_size);

/* Entries of the plane table, for tests. */
unsigned cuvk_vk_plane_format_count(void);
const struct cuvk_vk_planes *cuvk_vk_plane_format_get(unsigned index);

/* Entries of the table, for tests and documentation. */
unsigned cuvk_format_count(void);
const struct cuvk_format *cuvk_format_get(unsigned index);

#endif
