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

/* Entries of the table, for tests and documentation. */
unsigned cuvk_format_count(void);
const struct cuvk_format *cuvk_format_get(unsigned index);

#endif
