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

#endif
