/*
 * Copies and fills between any two places cuvk can name: device memory,
 * pinned or registered host memory, and pageable host memory.
 *
 * GPU-side work is the copy and fill compute shaders.  Host transfers
 * touch the memory directly when the CPU can map it cheaply (lavapipe's
 * memory, pinned memory, small transfers to resizable-BAR memory), and
 * otherwise stream through the context's staging ring in chunks, the CPU
 * filling one slot while the GPU drains another.
 */
#ifndef CUVK_API_TRANSFER_H
#define CUVK_API_TRANSFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cuda.h>
#include <vulkan/vulkan.h>

#include "util/device_policy.h"

struct cuvk_context;
struct cuvk_stream;

void cuvk_staging_init(struct cuvk_context *ctx);
void cuvk_staging_finish(struct cuvk_context *ctx);

/* Which side of a copy may be host memory, for the checks of the typed
 * entry points (HtoD, DtoH, ...); cuMemcpy allows either. */
enum cuvk_copy_side {
   CUVK_SIDE_ANY,
   CUVK_SIDE_DEVICE,  /* must be an allocation */
   CUVK_SIDE_HOST,    /* a host pointer, pinned or pageable */
};

struct cuvk_copy {
   uint64_t dst;
   uint64_t src;
   size_t size;
   enum cuvk_copy_side dst_side;
   enum cuvk_copy_side src_side;
   bool async;
   const char *entry;
};

CUresult cuvk_copy(struct cuvk_context *ctx, struct cuvk_stream *stream, const struct cuvk_copy *copy);

/* Fills height rows of width elements of elem_size (1, 2 or 4) bytes,
 * rows pitch bytes apart, with value. */
struct cuvk_fill {
   uint64_t dst;
   size_t pitch;
   size_t width;
   size_t height;
   uint32_t value;
   unsigned elem_size;
   bool async;
   const char *entry;
};

CUresult cuvk_fill(struct cuvk_context *ctx, struct cuvk_stream *stream, const struct cuvk_fill *fill);

/* ---- Building blocks for other copy engines (src/array/) ---- */

/* Records a 2D copy between two GPU buffers, each place named by buffer
 * and offset (transfer commands) and by device address (shaders): rows of
 * row_bytes, pitch bytes apart.  Picks the context's copy engine; ctx lock
 * held.  Sets stream->last_value. */
CUresult cuvk_transfer_record_copy_2d(struct cuvk_context *ctx, struct cuvk_stream *stream,
                                      VkBuffer dst_buffer, VkDeviceSize dst_offset,
                                      VkDeviceAddress dst_address, VkBuffer src_buffer,
                                      VkDeviceSize src_offset, VkDeviceAddress src_address,
                                      uint64_t row_bytes, uint64_t rows, uint64_t dst_pitch,
                                      uint64_t src_pitch);

/* One slot of the staging ring (CUVK_STAGING_SLOT_SIZE bytes). */
struct cuvk_staging_slot {
   unsigned index;
   VkBuffer buffer;
   VkDeviceSize offset;
   VkDeviceAddress address;
   uint8_t *map;
};

/* CUVK_PAGEABLE_PATH (util/device_policy.h), read once. */
enum cuvk_pageable_path cuvk_transfer_pageable_path(void);

/* Bytes per chunk of a staged transfer of size bytes: at most a slot, and
 * below that small enough that the CPU's and the GPU's halves of
 * successive chunks overlap. */
size_t cuvk_staging_chunk_size(uint64_t size);

/* Takes the staging ring for one transfer (creating it at first use);
 * cuvk_staging_unlock gives it back.  Neither holds the ctx lock. */
CUresult cuvk_staging_lock(struct cuvk_context *ctx);
void cuvk_staging_unlock(struct cuvk_context *ctx);

/* The ring's next slot, once the GPU work that last used it is done;
 * staging locked, ctx lock not held. */
CUresult cuvk_staging_next(struct cuvk_context *ctx, struct cuvk_staging_slot *slot);

/* Records that the slot is in use until timeline value completes. */
void cuvk_staging_set_busy(struct cuvk_context *ctx, const struct cuvk_staging_slot *slot,
                           uint64_t value);

#endif
