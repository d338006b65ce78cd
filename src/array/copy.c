/*
 * cuMemcpy2D, cuMemcpy3D (+Unaligned, +Async) and the 1D array copies
 * (HtoA, AtoH, DtoA, AtoD, AtoA): any mix of host, device, unified and
 * array memory, with pitches, offsets and sub-boxes.
 *
 * Every copy becomes one box of `depth` slices of `height` rows of `width`
 * bytes between two sides, each an array (element, row and slice of the
 * first element) or linear memory (first byte, row pitch, slice pitch).
 * Linear memory is a GPU buffer when it is device memory or pinned host
 * memory of the copy's context, and plain host memory otherwise.
 *
 * Array copies are one command per copy:
 *  - buffer <-> image: on the compute engine (GPUs) a shader that stores
 *    raw texels through a storage view (compute.c); otherwise, and for
 *    images a shader cannot reach, vkCmdCopyBufferToImage /
 *    vkCmdCopyImageToBuffer, whose row length and image height express any
 *    pitch that is a whole number of elements.  Other pitches and offsets
 *    go through a packed scratch buffer, filled or drained by the linear
 *    copy engine (two commands, never one per row).
 *  - image <-> image: vkCmdCopyImage, or through a scratch buffer when
 *    Vulkan cannot copy directly (element sizes or image types differ, or
 *    both sides are the same subresource).
 *  - host memory cuvk cannot give the GPU (pageable) streams through the
 *    context's staging ring, whole slices or rows per chunk.
 * docs/arrays.md has the measurement behind transfer commands over
 * compute-shader image stores.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "array/array.h"
#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuda_api/graph.h"
#include "cuda_api/memory.h"
#include "cuda_api/transfer.h"
#include "mem/block_heap.h"
#include "util/error.h"
#include "util/host_copy.h"
#include "util/log.h"
#include "util/macros.h"

enum side_kind {
   SIDE_ARRAY,
   SIDE_GPU,    /* a buffer of the copy's context */
   SIDE_HOST,   /* host memory the GPU cannot name (pageable) */
};

struct side {
   enum side_kind kind;
   const char *name;           /* "source", "destination" */

   /* SIDE_ARRAY: the first element of the box, in copy units. */
   struct cuvk_array *array;
   uint64_t x, y, z;

   /* SIDE_GPU and SIDE_HOST: the first byte of the box. */
   VkBuffer buffer;
   VkDeviceSize offset;
   VkDeviceAddress address;
   uint8_t *host;              /* host view; NULL for unmapped GPU memory */
   bool cached;                /* host view is cheap to read */
   bool host_memory;           /* host memory: synchronous copies wait for it */
   bool pinned;                /* in the pinned heap, shared with the transfer lanes */
   uint64_t pitch;             /* bytes between rows */
   uint64_t slice;             /* bytes between slices */
};

struct copy {
   struct cuvk_context *ctx;
   struct cuvk_stream *stream;
   struct side dst, src;
   uint64_t width;             /* bytes per row */
   uint64_t height;            /* rows */
   uint64_t depth;             /* slices */
   bool async;
   const char *entry;
};

/* A box in an array's copy units. */
struct box {
   uint64_t x, y, z;
   uint64_t w, h, d;
};

/* ---- Parsing a CUDA copy descriptor ---- */

struct side_desc {
   CUmemorytype type;
   const void *host;
   CUdeviceptr device;
   CUarray array;
   size_t x, y, z;
   size_t pitch, height;       /* row pitch; rows per slice (3D only) */
};

static CUresult
side_parse_array(struct copy *c, struct side *s, const struct side_desc *d, bool write)
{
   struct cuvk_array *a;
   CUresult res = cuvk_array_get(d->array, c->entry, &a);
   if (res != CUDA_SUCCESS)
      return res;
   /* Held until the copy is recorded (copy3d puts it), failed or not. */
   s->array = a;
   if (a->ctx != c->ctx)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: the %s array belongs to another context", c->entry,
                        s->name);

   unsigned elem = a->img->elem_size;
   if (d->x % elem || c->width % elem)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "%s: %s x %zu and width %llu must be multiples of the array's %u-byte elements",
                        c->entry, s->name, d->x, (unsigned long long)c->width, elem);
   uint64_t x = d->x / elem, w = c->width / elem;
   if (x > a->row_elems || w > a->row_elems - x || d->y > a->rows || c->height > a->rows - d->y ||
       d->z > a->slices || c->depth > a->slices - d->z)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "%s: the %s box at (%zu bytes, %zu, %zu) of %llux%llux%llu runs past the array's "
                        "%llu bytes x %llu rows x %llu slices", c->entry, s->name, d->x, d->y, d->z,
                        (unsigned long long)c->width, (unsigned long long)c->height,
                        (unsigned long long)c->depth, (unsigned long long)(a->row_elems * elem),
                        (unsigned long long)a->rows, (unsigned long long)a->slices);

   VkImageUsageFlags need = write ? VK_IMAGE_USAGE_TRANSFER_DST_BIT : VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
   if (!(a->img->usage & need))
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: the exported image was created without %s usage, "
                        "which copies %s it need", c->entry, write ? "TRANSFER_DST" : "TRANSFER_SRC",
                        write ? "into" : "from");

   s->kind = SIDE_ARRAY;
   s->array = a;
   s->x = x;
   s->y = d->y;
   s->z = d->z;
   return CUDA_SUCCESS;
}

/* *out = a * b + c; false on overflow. */
static bool
mul_add(uint64_t a, uint64_t b, uint64_t c, uint64_t *out)
{
   uint64_t t;
   return !__builtin_mul_overflow(a, b, &t) && !__builtin_add_overflow(t, c, out);
}

static CUresult
side_parse_linear(struct copy *c, struct side *s, const struct side_desc *d)
{
   uint64_t ptr = d->type == CU_MEMORYTYPE_HOST ? (uint64_t)(uintptr_t)d->host : d->device;
   if (ptr == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s pointer is NULL", c->entry, s->name);

   /* The row pitch matters once a second row is reached or skipped, the
    * slice height once a second slice is; a lone first row needs
    * neither. */
   uint64_t pitch = d->pitch, rows = d->height;
   if (c->height > 1 || c->depth > 1 || d->y || d->z) {
      if (pitch < d->x || pitch - d->x < c->width)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s pitch %zu is less than x %zu + width %llu",
                           c->entry, s->name, d->pitch, d->x, (unsigned long long)c->width);
   } else {
      pitch = d->x + c->width;
   }
   if (c->depth > 1 || d->z) {
      if (rows < d->y || rows - d->y < c->height)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s height %zu is less than y %zu + height %llu",
                           c->entry, s->name, d->height, d->y, (unsigned long long)c->height);
   } else {
      rows = d->y + c->height;
   }
   /* The first byte and the extent from it, overflow-safe. */
   uint64_t slice, skip, extent, start, end;
   if (!mul_add(pitch, rows, 0, &slice) ||
       !mul_add(d->y, pitch, d->x, &skip) || !mul_add(d->z, slice, skip, &skip) ||
       !mul_add(c->height - 1, pitch, c->width, &extent) || !mul_add(c->depth - 1, slice, extent, &extent) ||
       __builtin_add_overflow(ptr, skip, &start) || __builtin_add_overflow(start, extent, &end))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s range wraps around the address space", c->entry,
                        s->name);

   s->pitch = pitch;
   s->slice = slice;

   struct cuvk_mem_span span;
   if (cuvk_mem_resolve(start, &span)) {
      bool host_kind = cuvk_mem_kind_is_host(span.kind);
      if (d->type == CU_MEMORYTYPE_HOST && !host_kind)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s 0x%llx is device memory, given as host memory",
                           c->entry, s->name, (unsigned long long)start);
      if (s == &c->dst && cuvk_mem_span_read_only(&span))
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: destination 0x%llx is registered with "
                           "CU_MEMHOSTREGISTER_READ_ONLY", c->entry, (unsigned long long)start);
      if (span.avail < extent)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                           "%s: the %s's %llu bytes from 0x%llx run past the end of its allocation "
                           "(%llu bytes left)", c->entry, s->name, (unsigned long long)extent,
                           (unsigned long long)start, (unsigned long long)span.avail);
      if (span.ctx == c->ctx) {
         s->kind = SIDE_GPU;
         s->buffer = span.buffer;
         s->offset = span.buffer_offset;
         s->address = span.address;
         s->host = span.map;
         s->cached = span.cached;
         s->host_memory = host_kind;
         s->pinned = cuvk_mem_kind_in_host_heap(span.kind);
         return CUDA_SUCCESS;
      }
      if (!host_kind)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s 0x%llx is device memory of another context",
                           c->entry, s->name, (unsigned long long)start);
      /* Another context's pinned memory is just host memory here. */
   } else if (d->type == CU_MEMORYTYPE_DEVICE || cuvk_mem_is_device_address(start)) {
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s 0x%llx is not inside any allocation", c->entry,
                        s->name, (unsigned long long)start);
   }
   s->kind = SIDE_HOST;
   s->host = (uint8_t *)(uintptr_t)start;
   s->cached = true;
   s->host_memory = true;
   return CUDA_SUCCESS;
}

static CUresult
side_parse(struct copy *c, struct side *s, const struct side_desc *d, bool write)
{
   switch (d->type) {
   case CU_MEMORYTYPE_ARRAY:
      return side_parse_array(c, s, d, write);
   case CU_MEMORYTYPE_HOST:
   case CU_MEMORYTYPE_DEVICE:
   case CU_MEMORYTYPE_UNIFIED:
      return side_parse_linear(c, s, d);
   default:
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s memory type %d is not a CUmemorytype", c->entry,
                        s->name, (int)d->type);
   }
}

/* ---- Recording ---- */

/* ctx lock held for both: the command buffer of one command, on the
 * stream's lane or its transfer lane, with the array subresources it uses
 * in their transfer layouts (shared images acquired), and its end. */
static CUresult
cmd_begin_on(struct copy *c, bool transfer_lane, const struct cuvk_array_use *uses, unsigned count,
             VkCommandBuffer *cmd, uint64_t *value)
{
   /* Array layouts are tracked per image, not per lane: an array
    * command follows the last one of any lane (submit.h, array_point). */
   CUresult res = cuvk_submit_stream_wait(c->ctx, c->stream, c->ctx->submit.array_point);
   if (res == CUDA_SUCCESS)
      res = transfer_lane ? cuvk_submit_record_transfer(c->ctx, c->stream, cmd, value)
                          : cuvk_submit_record(c->ctx, c->stream, cmd, value);
   if (res == CUDA_SUCCESS)
      c->ctx->submit.array_point = *value;
   if (res == CUDA_SUCCESS)
      cuvk_array_use_begin(c->ctx, *cmd, uses, count);
   return res;
}

/* On the stream's own lane. */
static CUresult
cmd_begin(struct copy *c, const struct cuvk_array_use *uses, unsigned count, VkCommandBuffer *cmd,
          uint64_t *value)
{
   return cmd_begin_on(c, false, uses, count, cmd, value);
}

static CUresult
cmd_end(struct copy *c, const struct cuvk_array_use *uses, unsigned count, VkCommandBuffer cmd,
        uint64_t value)
{
   cuvk_array_use_end(c->ctx, cmd, uses, count);
   c->stream->last_value = value;
   return cuvk_submit_commit(c->ctx);
}

static struct cuvk_array_use
array_use(const struct cuvk_array *a, const VkImageSubresourceLayers *sub, VkImageLayout layout)
{
   return (struct cuvk_array_use){ a->img, sub->mipLevel, sub->baseArrayLayer, sub->layerCount, layout };
}

/* The part of the array's image a box covers. */
static void
image_region(const struct cuvk_array *a, const struct box *b, VkImageSubresourceLayers *sub,
             VkOffset3D *offset, VkExtent3D *extent)
{
   const struct cuvk_array_image *img = a->img;
   unsigned block = img->block;

   *sub = (VkImageSubresourceLayers){
      .aspectMask = cuvk_array_image_aspect(img),
      .mipLevel = a->level,
   };
   offset->x = (int32_t)(b->x * block);
   offset->y = (int32_t)(b->y * block);
   if (img->type == VK_IMAGE_TYPE_3D) {
      sub->baseArrayLayer = 0;
      sub->layerCount = 1;
      offset->z = (int32_t)b->z;
      extent->depth = (uint32_t)b->d;
   } else {
      sub->baseArrayLayer = (uint32_t)b->z;
      sub->layerCount = (uint32_t)b->d;
      offset->z = 0;
      extent->depth = 1;
   }
   /* A block-compressed box may end in a partial block at the level's
    * edge, which Vulkan wants as the edge itself. */
   extent->width = (uint32_t)CUVK_MIN(b->w * block, a->extent.width - (uint64_t)offset->x);
   extent->height = img->type == VK_IMAGE_TYPE_1D ? 1 :
      (uint32_t)CUVK_MIN(b->h * block, a->extent.height - (uint64_t)offset->y);
}

/* A buffer region for an array box, the buffer laid out by pitch and
 * slice; false when Vulkan cannot express that layout. */
static bool
buffer_image_region(const struct cuvk_array *a, const struct box *b, VkDeviceSize offset,
                    uint64_t pitch, uint64_t slice, VkBufferImageCopy *r)
{
   unsigned elem = a->img->elem_size, block = a->img->block;

   /* The queue may lack graphics, where offsets must be 4-aligned too. */
   if (offset % elem || offset % 4)
      return false;
   memset(r, 0, sizeof(*r));
   r->bufferOffset = offset;
   if (b->h > 1 || b->d > 1) {
      if (pitch % elem || pitch / elem * block > UINT32_MAX)
         return false;
      r->bufferRowLength = (uint32_t)(pitch / elem * block);
   }
   if (b->d > 1) {
      if (slice % pitch || slice / pitch * block > UINT32_MAX)
         return false;
      r->bufferImageHeight = (uint32_t)(slice / pitch * block);
   }
   image_region(a, b, &r->imageSubresource, &r->imageOffset, &r->imageExtent);
   return true;
}

static struct box
side_box(const struct copy *c, const struct side *s)
{
   unsigned elem = s->array->img->elem_size;
   return (struct box){ s->x, s->y, s->z, c->width / elem, c->height, c->depth };
}

/* Scratch buffers: packed copies of a box, from the context's device heap,
 * freed once the GPU is done with them. */
struct scratch {
   struct cuvk_mem_block *block;
   VkDeviceSize offset;
   VkDeviceSize size;
   struct cuvk_deferred release;
};

static CUresult
scratch_alloc(struct cuvk_context *ctx, uint64_t size, struct scratch **out)
{
   struct scratch *s = calloc(1, sizeof(*s));
   if (!s)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for a scratch buffer");
   s->size = CUVK_ALIGN_UP(size, 256);
   CUresult res = cuvk_mem_heap_alloc(&ctx->device_heap, s->size, 256, &s->block, &s->offset);
   if (res != CUDA_SUCCESS) {
      free(s);
      return res;
   }
   *out = s;
   return CUDA_SUCCESS;
}

static void
scratch_free_now(struct cuvk_context *ctx, void *data)
{
   struct scratch *s = data;
   struct cuvk_mem_block *dead = cuvk_mem_heap_free(s->block->heap, s->block, s->offset, s->size);
   if (dead)
      cuvk_mem_block_destroy(dead);
   free(s);
}

/* ctx lock held. */
static void
scratch_release(struct cuvk_context *ctx, struct scratch *s)
{
   s->release.fn = scratch_free_now;
   s->release.data = s;
   cuvk_submit_defer(ctx, &s->release);
}

/* A packed linear side over a scratch buffer. */
static struct side
scratch_side(const struct copy *c, const struct scratch *s)
{
   return (struct side){
      .kind = SIDE_GPU,
      .name = "scratch",
      .buffer = s->block->buffer,
      .offset = s->offset,
      .address = s->block->address + s->offset,
      .pitch = c->width,
      .slice = c->width * c->height,
   };
}

/* Linear to linear between two GPU buffers: one 2D copy when both sides'
 * slices follow each other without gaps, else one per slice.  ctx lock
 * held. */
static CUresult
record_linear(struct copy *c, const struct side *dst, const struct side *src)
{
   uint64_t slices = c->depth, rows = c->height;
   if (slices > 1 && dst->slice == dst->pitch * rows && src->slice == src->pitch * rows) {
      rows *= slices;
      slices = 1;
   }
   for (uint64_t z = 0; z < slices; z++) {
      uint64_t d = z * dst->slice, s = z * src->slice;
      CUresult res = cuvk_transfer_record_copy_2d(c->ctx, c->stream, dst->buffer, dst->offset + d,
                                                  dst->address + d, src->buffer, src->offset + s,
                                                  src->address + s, c->width, rows, dst->pitch,
                                                  src->pitch);
      if (res != CUDA_SUCCESS)
         return res;
   }
   return CUDA_SUCCESS;
}

/* Pinned memory <-> a cuvk image as a copy command on the stream's
 * transfer lane (submit.h): on NVIDIA those are the copy engines, which
 * reach host memory at the link's speed where the compute queue's copy
 * shader and copy commands do not (docs/arrays.md has the figures).  The
 * image stays in GENERAL, where it rests: a transfer-only queue runs no
 * layout transition that names shader access.  ctx lock held. */
static CUresult
record_array_transfer(struct copy *c, const struct cuvk_array *a, const VkBufferImageCopy *region,
                      VkBuffer buffer, bool upload)
{
   VkCommandBuffer cmd;
   uint64_t value;

   /* No use to transition: the image stays in GENERAL. */
   CUresult res = cmd_begin_on(c, true, NULL, 0, &cmd, &value);
   if (res != CUDA_SUCCESS)
      return res;
   if (upload)
      vkCmdCopyBufferToImage(cmd, buffer, a->img->image, VK_IMAGE_LAYOUT_GENERAL, 1, region);
   else
      vkCmdCopyImageToBuffer(cmd, a->img->image, VK_IMAGE_LAYOUT_GENERAL, buffer, 1, region);
   return cmd_end(c, NULL, 0, cmd, value);
}

/*
 * One command between an array box and a GPU buffer laid out by buf's
 * pitch and slice pitch: a shader where the compute engine can take it
 * (compute.c), else vkCmdCopyBufferToImage / vkCmdCopyImageToBuffer.
 * *done is false, and nothing recorded, when neither can express the
 * buffer's layout.  ctx lock held.
 */
static CUresult
record_array_buffer(struct copy *c, const struct side *array_side, const struct box *b,
                    const struct side *buf, bool *done)
{
   const struct cuvk_array *a = array_side->array;
   bool upload = array_side == &c->dst;
   VkCommandBuffer cmd;
   uint64_t value;
   CUresult res;

   *done = true;
   VkBufferImageCopy region;
   if (buf->pinned && a->img->transfer_lanes &&
       buffer_image_region(a, b, buf->offset, buf->pitch, buf->slice, &region))
      return record_array_transfer(c, a, &region, buf->buffer, upload);

   uint64_t pitch = b->h > 1 ? buf->pitch : 0, slice = b->d > 1 ? buf->slice : 0;
   if (cuvk_array_compute_usable(c->ctx, a->img, buf->address, pitch, slice)) {
      VkImageSubresourceLayers sub;
      VkOffset3D offset;
      VkExtent3D extent;
      image_region(a, b, &sub, &offset, &extent);
      /* The shader walks layers as its third dimension. */
      if (a->img->type != VK_IMAGE_TYPE_3D) {
         offset.z = (int32_t)sub.baseArrayLayer;
         extent.depth = sub.layerCount;
      }
      struct cuvk_array_use use = array_use(a, &sub, VK_IMAGE_LAYOUT_GENERAL);
      res = cmd_begin(c, &use, 1, &cmd, &value);
      if (res != CUDA_SUCCESS)
         return res;
      res = cuvk_array_record_compute(c->ctx, cmd, a, &offset, &extent, buf->address, pitch, slice, upload);
      CUresult end = cmd_end(c, &use, 1, cmd, value);
      return res != CUDA_SUCCESS ? res : end;
   }

   if (!buffer_image_region(a, b, buf->offset, buf->pitch, buf->slice, &region)) {
      *done = false;
      return CUDA_SUCCESS;
   }
   VkImageLayout layout = upload ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
   struct cuvk_array_use use = array_use(a, &region.imageSubresource, layout);
   res = cmd_begin(c, &use, 1, &cmd, &value);
   if (res != CUDA_SUCCESS)
      return res;
   if (upload)
      vkCmdCopyBufferToImage(cmd, buf->buffer, a->img->image, layout, 1, &region);
   else
      vkCmdCopyImageToBuffer(cmd, a->img->image, layout, buf->buffer, 1, &region);
   return cmd_end(c, &use, 1, cmd, value);
}

/* The same into or out of a packed buffer, which both engines always
 * express. */
static CUresult
record_array_packed(struct copy *c, const struct side *array_side, const struct box *b,
                    const struct side *packed)
{
   bool done;
   CUresult res = record_array_buffer(c, array_side, b, packed, &done);
   assert(res != CUDA_SUCCESS || done);
   return res;
}

/* Array <-> GPU buffer, directly or through a packed scratch buffer. */
static CUresult
copy_array_gpu(struct copy *c, const struct side *array_side, const struct side *buf)
{
   struct box b = side_box(c, array_side);
   bool done;
   CUresult res;

   pthread_mutex_lock(&c->ctx->lock);
   res = record_array_buffer(c, array_side, &b, buf, &done);
   if (res != CUDA_SUCCESS || done) {
      pthread_mutex_unlock(&c->ctx->lock);
      return res;
   }

   struct scratch *s;
   res = scratch_alloc(c->ctx, c->width * c->height * c->depth, &s);
   if (res != CUDA_SUCCESS) {
      pthread_mutex_unlock(&c->ctx->lock);
      return res;
   }
   struct side packed = scratch_side(c, s);
   if (array_side == &c->dst) {
      res = record_linear(c, &packed, buf);
      if (res == CUDA_SUCCESS)
         res = record_array_packed(c, array_side, &b, &packed);
   } else {
      res = record_array_packed(c, array_side, &b, &packed);
      if (res == CUDA_SUCCESS)
         res = record_linear(c, buf, &packed);
   }
   scratch_release(c->ctx, s);
   pthread_mutex_unlock(&c->ctx->lock);
   return res;
}

static CUresult
copy_array_array(struct copy *c)
{
   const struct cuvk_array *da = c->dst.array, *sa = c->src.array;
   struct box db = side_box(c, &c->dst), sb = side_box(c, &c->src);
   VkImageCopy region;
   VkExtent3D dext;
   CUresult res;

   image_region(sa, &sb, &region.srcSubresource, &region.srcOffset, &region.extent);
   image_region(da, &db, &region.dstSubresource, &region.dstOffset, &dext);

   /* vkCmdCopyImage needs equal texel blocks, types that are equal or 2D
    * with 3D, and one extent that suits both sides.  Within one image the
    * two sides must be different subresources, since each is in its own
    * transfer layout. */
   bool types_ok = sa->img->type == da->img->type ||
                   (sa->img->type != VK_IMAGE_TYPE_1D && da->img->type != VK_IMAGE_TYPE_1D);
   const VkImageSubresourceLayers *ss = &region.srcSubresource, *ds = &region.dstSubresource;
   bool same_subresource = sa->img == da->img && ss->mipLevel == ds->mipLevel &&
                           ss->baseArrayLayer < ds->baseArrayLayer + ds->layerCount &&
                           ds->baseArrayLayer < ss->baseArrayLayer + ss->layerCount;
   /* Two planes of one non-disjoint image: Vulkan's barriers cover the
    * whole image, so the two transfer layouts cannot coexist. */
   if (sa->img != da->img && sa->img->image == da->img->image)
      same_subresource = true;
   bool direct = sa->img->elem_size == da->img->elem_size && sa->img->block == da->img->block && types_ok &&
                 region.extent.width == dext.width && region.extent.height == dext.height &&
                 !same_subresource;

   pthread_mutex_lock(&c->ctx->lock);
   if (direct) {
      region.extent.depth = CUVK_MAX(region.extent.depth, dext.depth);
      struct cuvk_array_use uses[2] = {
         array_use(sa, ss, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL),
         array_use(da, ds, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL),
      };
      VkCommandBuffer cmd;
      uint64_t value;
      res = cmd_begin(c, uses, 2, &cmd, &value);
      if (res == CUDA_SUCCESS) {
         vkCmdCopyImage(cmd, sa->img->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, da->img->image,
                        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
         res = cmd_end(c, uses, 2, cmd, value);
      }
      pthread_mutex_unlock(&c->ctx->lock);
      return res;
   }

   struct scratch *s;
   res = scratch_alloc(c->ctx, c->width * c->height * c->depth, &s);
   if (res == CUDA_SUCCESS) {
      struct side packed = scratch_side(c, s);
      res = record_array_packed(c, &c->src, &sb, &packed);
      if (res == CUDA_SUCCESS)
         res = record_array_packed(c, &c->dst, &db, &packed);
      scratch_release(c->ctx, s);
   }
   pthread_mutex_unlock(&c->ctx->lock);
   return res;
}

/* ---- Staging: host memory the GPU cannot reach ---- */

/* A piece of the copy that fits one staging slot: whole slices, rows of
 * one slice, or a part of one row. */
struct chunk {
   uint64_t z, y, x;       /* x in bytes */
   uint64_t slices, rows, bytes;
};

struct chunk_iter {
   uint64_t z, y, x;
};

static bool
chunk_next(const struct copy *c, unsigned elem, struct chunk_iter *it, struct chunk *out)
{
   const uint64_t cap = cuvk_staging_chunk_size(c->width * c->height * c->depth);
   uint64_t row = c->width;

   if (it->z >= c->depth)
      return false;
   if (it->x == 0 && it->y == 0 && row * c->height <= cap) {
      uint64_t n = CUVK_MIN(cap / (row * c->height), c->depth - it->z);
      *out = (struct chunk){ it->z, 0, 0, n, c->height, row };
      it->z += n;
      return true;
   }
   if (it->x == 0 && row <= cap) {
      uint64_t n = CUVK_MIN(cap / row, c->height - it->y);
      *out = (struct chunk){ it->z, it->y, 0, 1, n, row };
      it->y += n;
   } else {
      uint64_t n = CUVK_MIN(row - it->x, cap - cap % elem);
      *out = (struct chunk){ it->z, it->y, it->x, 1, 1, n };
      it->x += n;
      if (it->x < row)
         return true;
      it->x = 0;
      it->y++;
   }
   if (it->y == c->height) {
      it->y = 0;
      it->z++;
   }
   return true;
}

/* The chunk's box in host memory, and packed in a slot. */
static uint8_t *
chunk_host(const struct side *host, const struct chunk *k)
{
   return host->host + k->z * host->slice + k->y * host->pitch + k->x;
}

static void
chunk_pack(const struct copy *c, const struct side *host, const struct chunk *k, uint8_t *dst)
{
   cuvk_host_copy(&(struct cuvk_host_copy){
      .dst = dst,
      .src = chunk_host(host, k),
      .width = k->bytes,
      .rows = k->rows,
      .slices = k->slices,
      .dst_pitch = k->bytes,
      .dst_slice = k->bytes * k->rows,
      .src_pitch = host->pitch,
      .src_slice = host->slice,
   });
}

static void
chunk_unpack(const struct copy *c, const struct side *host, const struct chunk *k, const uint8_t *src)
{
   cuvk_host_copy(&(struct cuvk_host_copy){
      .dst = chunk_host(host, k),
      .src = src,
      .width = k->bytes,
      .rows = k->rows,
      .slices = k->slices,
      .dst_pitch = host->pitch,
      .dst_slice = host->slice,
      .src_pitch = k->bytes,
      .src_slice = k->bytes * k->rows,
   });
}

/* Records the GPU half of one chunk between a slot and the GPU side
 * (array or buffer); ctx lock held. */
static CUresult
chunk_record(struct copy *c, const struct side *gpu, const struct chunk *k,
             const struct cuvk_staging_slot *slot)
{
   struct side packed = {
      .kind = SIDE_GPU,
      .buffer = slot->buffer,
      .offset = slot->offset,
      .address = slot->address,
      .pitch = k->bytes,
      .slice = k->bytes * k->rows,
   };

   if (gpu->kind == SIDE_ARRAY) {
      unsigned elem = gpu->array->img->elem_size;
      struct box b = { gpu->x + k->x / elem, gpu->y + k->y, gpu->z + k->z, k->bytes / elem, k->rows, k->slices };
      return record_array_packed(c, gpu, &b, &packed);
   }

   struct side g = *gpu;
   uint64_t skip = k->z * g.slice + k->y * g.pitch + k->x;
   g.offset += skip;
   g.address += skip;
   struct copy sub = *c;
   sub.width = k->bytes;
   sub.height = k->rows;
   sub.depth = k->slices;
   return gpu == &c->dst ? record_linear(&sub, &g, &packed) : record_linear(&sub, &packed, &g);
}

static unsigned
copy_elem(const struct copy *c)
{
   if (c->dst.kind == SIDE_ARRAY)
      return c->dst.array->img->elem_size;
   if (c->src.kind == SIDE_ARRAY)
      return c->src.array->img->elem_size;
   return 1;
}

/* Host -> GPU side through the staging ring: the CPU packs a chunk into a
 * slot while the GPU drains the previous ones. */
static CUresult
staged_upload(struct copy *c)
{
   struct cuvk_context *ctx = c->ctx;
   struct chunk_iter it = { 0 };
   struct chunk k;
   CUresult res = cuvk_staging_lock(ctx);
   if (res != CUDA_SUCCESS)
      return res;
   while (res == CUDA_SUCCESS && chunk_next(c, copy_elem(c), &it, &k)) {
      struct cuvk_staging_slot slot;
      res = cuvk_staging_next(ctx, &slot);
      if (res != CUDA_SUCCESS)
         break;
      chunk_pack(c, &c->src, &k, slot.map);
      pthread_mutex_lock(&ctx->lock);
      res = chunk_record(c, &c->dst, &k, &slot);
      cuvk_staging_set_busy(ctx, &slot, c->stream->last_value);
      if (res == CUDA_SUCCESS)
         res = cuvk_submit_flush(ctx);
      pthread_mutex_unlock(&ctx->lock);
   }
   cuvk_staging_unlock(ctx);
   return res;
}

/* GPU side -> host through the staging ring, keeping every slot in
 * flight and unpacking the oldest chunk before its slot is reused. */
static CUresult
staged_download(struct copy *c)
{
   struct cuvk_context *ctx = c->ctx;
   struct {
      struct cuvk_staging_slot slot;
      struct chunk chunk;
      uint64_t value;
   } fifo[CUVK_STAGING_SLOTS];
   unsigned head = 0, count = 0;
   struct chunk_iter it = { 0 };
   struct chunk k;
   bool more = true;
   CUresult res = cuvk_staging_lock(ctx);
   if (res != CUDA_SUCCESS)
      return res;

   while (res == CUDA_SUCCESS && (more || count)) {
      if (more && count < CUVK_STAGING_SLOTS && (more = chunk_next(c, copy_elem(c), &it, &k))) {
         unsigned i = (head + count) % CUVK_STAGING_SLOTS;
         res = cuvk_staging_next(ctx, &fifo[i].slot);
         if (res != CUDA_SUCCESS)
            break;
         fifo[i].chunk = k;
         pthread_mutex_lock(&ctx->lock);
         res = chunk_record(c, &c->src, &k, &fifo[i].slot);
         fifo[i].value = c->stream->last_value;
         cuvk_staging_set_busy(ctx, &fifo[i].slot, fifo[i].value);
         if (res == CUDA_SUCCESS)
            res = cuvk_submit_flush(ctx);
         pthread_mutex_unlock(&ctx->lock);
         count++;
         continue;
      }
      if (!count)
         break;
      res = cuvk_submit_wait(ctx, fifo[head].value);
      if (res == CUDA_SUCCESS)
         chunk_unpack(c, &c->dst, &fifo[head].chunk, fifo[head].slot.map);
      head = (head + 1) % CUVK_STAGING_SLOTS;
      count--;
   }
   cuvk_staging_unlock(ctx);
   return res;
}

/* ---- Linear to linear ---- */

static CUresult
copy_linear(struct copy *c)
{
   struct side *d = &c->dst, *s = &c->src;
   CUresult res;

   if (d->kind == SIDE_GPU && s->kind == SIDE_GPU) {
      pthread_mutex_lock(&c->ctx->lock);
      res = record_linear(c, d, s);
      pthread_mutex_unlock(&c->ctx->lock);
      return res;
   }

   /* A host side: through the CPU where both have a host view worth
    * using, after the GPU is done with what came before; unless
    * CUVK_PAGEABLE_PATH asks pageable memory to take the staging ring. */
   bool dview = d->host != NULL;
   bool sview = s->host != NULL && (s->kind == SIDE_HOST || s->cached);
   bool pageable = (d->kind == SIDE_HOST && !s->host_memory) || (s->kind == SIDE_HOST && !d->host_memory);
   bool force_staged = pageable && cuvk_transfer_pageable_path() != CUVK_PAGEABLE_AUTO;
   if (dview && sview && !force_staged) {
      res = cuvk_submit_wait_idle(c->ctx);
      if (res != CUDA_SUCCESS)
         return res;
      uint64_t dext = (c->depth - 1) * d->slice + (c->height - 1) * d->pitch + c->width;
      uint64_t sext = (c->depth - 1) * s->slice + (c->height - 1) * s->pitch + c->width;
      if (d->host + dext <= s->host || s->host + sext <= d->host) {
         cuvk_host_copy(&(struct cuvk_host_copy){
            .dst = d->host,
            .src = s->host,
            .width = c->width,
            .rows = c->height,
            .slices = c->depth,
            .dst_pitch = d->pitch,
            .dst_slice = d->slice,
            .src_pitch = s->pitch,
            .src_slice = s->slice,
         });
         return CUDA_SUCCESS;
      }
      for (uint64_t z = 0; z < c->depth; z++)
         for (uint64_t y = 0; y < c->height; y++)
            memmove(d->host + z * d->slice + y * d->pitch, s->host + z * s->slice + y * s->pitch, c->width);
      return CUDA_SUCCESS;
   }
   if (d->kind == SIDE_GPU)
      return staged_upload(c);
   return staged_download(c);
}

/* ---- The copy ---- */

static CUresult
copy_run(struct copy *c)
{
   struct side *d = &c->dst, *s = &c->src;
   CUresult res;

   if (d->kind == SIDE_ARRAY && s->kind == SIDE_ARRAY)
      res = copy_array_array(c);
   else if (d->kind == SIDE_ARRAY)
      res = s->kind == SIDE_GPU ? copy_array_gpu(c, d, s) : staged_upload(c);
   else if (s->kind == SIDE_ARRAY)
      res = d->kind == SIDE_GPU ? copy_array_gpu(c, s, d) : staged_download(c);
   else
      res = copy_linear(c);
   if (res != CUDA_SUCCESS)
      return res;

   /* A synchronous copy returns once the host memory it reads or writes is
    * done with, as CUDA's does; pageable uploads are done once staged. */
   bool host_gpu = (d->kind == SIDE_GPU && d->host_memory) || (s->kind == SIDE_GPU && s->host_memory);
   if (!c->async && host_gpu)
      return cuvk_submit_wait(c->ctx, c->stream->last_value);
   return CUDA_SUCCESS;
}

struct copy3d_desc {
   struct side_desc src, dst;
   size_t width, height, depth;
};

static CUresult
copy_capture(const struct copy *c, const struct copy3d_desc *d)
{
   const CUDA_MEMCPY3D p = {
      .srcXInBytes = d->src.x, .srcY = d->src.y, .srcZ = d->src.z,
      .srcMemoryType = d->src.type, .srcHost = d->src.host, .srcDevice = d->src.device,
      .srcArray = d->src.array, .srcPitch = d->src.pitch, .srcHeight = d->src.height,
      .dstXInBytes = d->dst.x, .dstY = d->dst.y, .dstZ = d->dst.z,
      .dstMemoryType = d->dst.type, .dstHost = (void *)d->dst.host, .dstDevice = d->dst.device,
      .dstArray = d->dst.array, .dstPitch = d->dst.pitch, .dstHeight = d->dst.height,
      .WidthInBytes = d->width, .Height = d->height, .Depth = d->depth,
   };
   const struct cuvk_graph_memcpy node = { .copy = &p, .ctx = (CUcontext)c->ctx };
   return cuvk_capture_add(c->stream, CU_GRAPH_NODE_TYPE_MEMCPY, cuvk_graph_init_memcpy, &node, c->entry);
}

static CUresult
copy3d(const struct copy3d_desc *desc, CUstream hstream, bool async, const char *entry)
{
   struct copy c = {
      .width = desc->width,
      .height = desc->height,
      .depth = desc->depth,
      .async = async,
      .entry = entry,
      .dst.name = "destination",
      .src.name = "source",
   };
   CUresult res = cuvk_stream_lookup_any(hstream, entry, &c.ctx, &c.stream);
   if (res != CUDA_SUCCESS)
      return res;
   bool capture = cuvk_stream_capturing(c.stream);
   if (capture && !async) {
      res = cuvk_capture_refuse(c.stream, entry);
      cuvk_stream_put(c.stream);
      return res;
   }
   if (c.width == 0 || c.height == 0 || c.depth == 0) {
      cuvk_stream_put(c.stream);
      return CUDA_SUCCESS;
   }
   res = side_parse(&c, &c.dst, &desc->dst, true);
   if (res == CUDA_SUCCESS)
      res = side_parse(&c, &c.src, &desc->src, false);
   /* Captured: checked as it would run, and kept as a memcpy node. */
   if (res == CUDA_SUCCESS && capture)
      res = copy_capture(&c, desc);
   else if (res == CUDA_SUCCESS)
      res = copy_run(&c);
   /* The recorded work keeps the images through their deferred release. */
   cuvk_array_put(c.dst.array);
   cuvk_array_put(c.src.array);
   cuvk_stream_put(c.stream);
   return res;
}

static CUresult
copy2d_entry(const CUDA_MEMCPY2D *p, CUstream stream, bool async, const char *entry)
{
   if (!p)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: pCopy is NULL", entry);
   struct copy3d_desc d = {
      .src = { p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY, 0,
               p->srcPitch, 0 },
      .dst = { p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY, 0,
               p->dstPitch, 0 },
      .width = p->WidthInBytes,
      .height = p->Height,
      .depth = 1,
   };
   return copy3d(&d, stream, async, entry);
}

static CUresult
copy3d_entry(const CUDA_MEMCPY3D *p, CUstream stream, bool async, const char *entry)
{
   if (!p)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: pCopy is NULL", entry);
   if (p->reserved0 || p->reserved1)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: reserved0 and reserved1 must be NULL", entry);
   if (p->srcLOD || p->dstLOD)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: srcLOD and dstLOD must be 0 (copy a level array "
                        "from cuMipmappedArrayGetLevel instead)", entry);
   struct copy3d_desc d = {
      .src = { p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY, p->srcZ,
               p->srcPitch, p->srcHeight },
      .dst = { p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY, p->dstZ,
               p->dstPitch, p->dstHeight },
      .width = p->WidthInBytes,
      .height = p->Height,
      .depth = p->Depth,
   };
   return copy3d(&d, stream, async, entry);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpy2D_v2(const CUDA_MEMCPY2D *p)
{
   return copy2d_entry(p, NULL, false, "cuMemcpy2D");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *p)
{
   /* cuvk's cuMemcpy2D takes any pitch already. */
   return copy2d_entry(p, NULL, false, "cuMemcpy2DUnaligned");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *p, CUstream stream)
{
   return copy2d_entry(p, stream, true, "cuMemcpy2DAsync");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpy3D_v2(const CUDA_MEMCPY3D *p)
{
   return copy3d_entry(p, NULL, false, "cuMemcpy3D");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *p, CUstream stream)
{
   return copy3d_entry(p, stream, true, "cuMemcpy3DAsync");
}

/* ---- 1D copies: a byte range through an array's rows in order ---- */

/* How a byte offset lies in an array: rows of row_bytes, rows_per_slice
 * rows per slice. */
struct array_walk {
   uint64_t row_bytes;
   uint64_t rows;
   uint64_t total;
};

static CUresult
array_walk(CUarray handle, size_t offset, size_t count, const char *which, const char *entry,
           struct array_walk *w)
{
   struct cuvk_array *a;
   CUresult res = cuvk_array_get(handle, entry, &a);
   if (res != CUDA_SUCCESS)
      return res;
   unsigned elem = a->img->elem_size;
   w->row_bytes = a->row_elems * elem;
   w->rows = a->rows;
   w->total = w->row_bytes * a->rows * a->slices;
   cuvk_array_put(a);
   if (offset % elem || count % elem)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s offset %zu and size %zu must be multiples of the "
                        "array's %u-byte elements", entry, which, offset, count, elem);
   if (offset > w->total || count > w->total - offset)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %zu bytes at %s offset %zu run past the array's %llu",
                        entry, count, which, offset, (unsigned long long)w->total);
   return CUDA_SUCCESS;
}

/* Splits [offset, offset + count) of one or two arrays into boxes that are
 * whole slices, whole rows of one slice, or part of one row, and copies
 * each (at most five pieces when one side is linear). */
static CUresult
copy1d(CUmemorytype dtype, void *dhost, CUdeviceptr ddev, CUarray darray, size_t doff,
       CUmemorytype stype, const void *shost, CUdeviceptr sdev, CUarray sarray, size_t soff,
       size_t count, CUstream stream, bool async, const char *entry)
{
   struct array_walk dw = { 0 }, sw = { 0 };
   CUresult res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;
   /* Refused here, before the loop below steps through the host side by
    * pointer arithmetic, which on NULL is undefined behaviour (copy3d
    * would refuse it, but one step too late). */
   if (count > 0 && ((dtype == CU_MEMORYTYPE_HOST && !dhost) || (stype == CU_MEMORYTYPE_HOST && !shost)))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s pointer is NULL", entry,
                        dtype == CU_MEMORYTYPE_HOST && !dhost ? "destination" : "source");
   if (dtype == CU_MEMORYTYPE_ARRAY)
      res = array_walk(darray, doff, count, "destination", entry, &dw);
   if (res == CUDA_SUCCESS && stype == CU_MEMORYTYPE_ARRAY)
      res = array_walk(sarray, soff, count, "source", entry, &sw);
   if (res != CUDA_SUCCESS)
      return res;

   size_t done = 0;
   while (done < count) {
      size_t left = count - done;
      struct side_desc d = { dtype, NULL, 0, darray, 0, 0, 0, 0, 0 };
      struct side_desc s = { stype, NULL, 0, sarray, 0, 0, 0, 0, 0 };
      const struct array_walk *walks[2] = { &dw, &sw };
      struct side_desc *descs[2] = { &d, &s };
      size_t offs[2] = { doff + done, soff + done };
      bool row_start = true, slice_start = true;
      uint64_t row = 0, rows = 0;

      /* Where each array side is, and how far the piece may reach. */
      uint64_t len = left;
      for (int i = 0; i < 2; i++) {
         const struct array_walk *w = walks[i];
         if (!w->row_bytes)
            continue;
         uint64_t r = offs[i] / w->row_bytes;
         descs[i]->x = offs[i] % w->row_bytes;
         descs[i]->y = r % w->rows;
         descs[i]->z = r / w->rows;
         len = CUVK_MIN(len, w->row_bytes - descs[i]->x);
         row_start &= descs[i]->x == 0;
         slice_start &= descs[i]->x == 0 && descs[i]->y == 0;
         if (row && row != w->row_bytes)
            row_start = slice_start = false;
         if (rows && rows != w->rows)
            slice_start = false;
         row = w->row_bytes;
         rows = w->rows;
      }

      struct copy3d_desc piece = { .dst = d, .src = s, .width = len, .height = 1, .depth = 1 };
      if (row && row_start && left >= row) {
         piece.width = row;
         if (slice_start && left >= row * rows) {
            piece.height = rows;
            piece.depth = left / (row * rows);
         } else {
            uint64_t fit = left / row;
            for (int i = 0; i < 2; i++)
               if (walks[i]->row_bytes)
                  fit = CUVK_MIN(fit, walks[i]->rows - descs[i]->y);
            piece.height = fit;
         }
      }
      /* Linear sides run contiguously through the piece. */
      for (int i = 0; i < 2; i++) {
         struct side_desc *sd = i ? &piece.src : &piece.dst;
         if (walks[i]->row_bytes)
            continue;
         sd->pitch = piece.width;
         sd->height = piece.height;
         if (sd->type == CU_MEMORYTYPE_HOST) {
            if (i)
               sd->host = (const uint8_t *)shost + done;
            else
               sd->host = (uint8_t *)dhost + done;
         } else {
            sd->device = (i ? sdev : ddev) + done;
         }
      }
      res = copy3d(&piece, stream, async, entry);
      if (res != CUDA_SUCCESS)
         return res;
      done += piece.width * piece.height * piece.depth;
   }
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyHtoA_v2(CUarray dst, size_t dst_offset, const void *src, size_t count)
{
   return copy1d(CU_MEMORYTYPE_ARRAY, NULL, 0, dst, dst_offset, CU_MEMORYTYPE_HOST, src, 0, NULL, 0, count,
                 NULL, false, "cuMemcpyHtoA");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyAtoH_v2(void *dst, CUarray src, size_t src_offset, size_t count)
{
   return copy1d(CU_MEMORYTYPE_HOST, dst, 0, NULL, 0, CU_MEMORYTYPE_ARRAY, NULL, 0, src, src_offset, count,
                 NULL, false, "cuMemcpyAtoH");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyHtoAAsync_v2(CUarray dst, size_t dst_offset, const void *src, size_t count, CUstream stream)
{
   return copy1d(CU_MEMORYTYPE_ARRAY, NULL, 0, dst, dst_offset, CU_MEMORYTYPE_HOST, src, 0, NULL, 0, count,
                 stream, true, "cuMemcpyHtoAAsync");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyAtoHAsync_v2(void *dst, CUarray src, size_t src_offset, size_t count, CUstream stream)
{
   return copy1d(CU_MEMORYTYPE_HOST, dst, 0, NULL, 0, CU_MEMORYTYPE_ARRAY, NULL, 0, src, src_offset, count,
                 stream, true, "cuMemcpyAtoHAsync");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyDtoA_v2(CUarray dst, size_t dst_offset, CUdeviceptr src, size_t count)
{
   return copy1d(CU_MEMORYTYPE_ARRAY, NULL, 0, dst, dst_offset, CU_MEMORYTYPE_DEVICE, NULL, src, NULL, 0,
                 count, NULL, false, "cuMemcpyDtoA");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyAtoD_v2(CUdeviceptr dst, CUarray src, size_t src_offset, size_t count)
{
   return copy1d(CU_MEMORYTYPE_DEVICE, NULL, dst, NULL, 0, CU_MEMORYTYPE_ARRAY, NULL, 0, src, src_offset,
                 count, NULL, false, "cuMemcpyAtoD");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyAtoA_v2(CUarray dst, size_t dst_offset, CUarray src, size_t src_offset, size_t count)
{
   return copy1d(CU_MEMORYTYPE_ARRAY, NULL, 0, dst, dst_offset, CU_MEMORYTYPE_ARRAY, NULL, 0, src, src_offset,
                 count, NULL, false, "cuMemcpyAtoA");
}
