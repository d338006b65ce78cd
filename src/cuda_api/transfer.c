#include "cuda_api/transfer.h"

#include <stdlib.h>
#include <string.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuda_api/host_queue.h"
#include "cuda_api/memory.h"
#include "cuda_api/module.h"
#include "cuda_api/ring.h"
#include "cuvk_shader_params.h"
#include "util/device_policy.h"
#include "util/error.h"
#include "util/host_copy.h"
#include "util/log.h"
#include "util/macros.h"

/* Copies and fills up to this size between CPU-visible places skip the
 * GPU when the context is idle: a memcpy costs less than a submit. */
#define DIRECT_SMALL_MAX (64u << 10)
/* CPU access to uncached (write-combined, PCIe BAR) memory is slow: on an
 * H200 a GPU copy wins above about 512 bytes (cuvk-bench), so only tiny
 * transfers touch it directly. */
#define DIRECT_UNCACHED_MAX 512u
/* One dispatch covers at most this many bytes per row, which keeps the
 * shader's 32-bit row offsets exact. */
#define DISPATCH_MAX_ROW_BYTES (1ull << 31)
#define DISPATCH_MAX_ROWS (1ull << 31)

void
cuvk_staging_init(struct cuvk_context *ctx)
{
   memset(&ctx->staging, 0, sizeof(ctx->staging));
   pthread_mutex_init(&ctx->staging.lock, NULL);
}

void
cuvk_staging_finish(struct cuvk_context *ctx)
{
   struct cuvk_staging *st = &ctx->staging;

   if (st->map) {
      vkUnmapMemory(ctx->vk, st->memory);
      vkDestroyBuffer(ctx->vk, st->buffer, NULL);
      vkFreeMemory(ctx->vk, st->memory, NULL);
   }
   if (st->scratch_buffer) {
      vkDestroyBuffer(ctx->vk, st->scratch_buffer, NULL);
      vkFreeMemory(ctx->vk, st->scratch_memory, NULL);
   }
   pthread_mutex_destroy(&st->lock);
}

/* Created at first use: a context that never copies pageable memory
 * through it (all of lavapipe's) never pays for it.  Staging lock held. */
static CUresult
staging_ensure(struct cuvk_context *ctx)
{
   struct cuvk_staging *st = &ctx->staging;
   VkDeviceSize size = (VkDeviceSize)CUVK_STAGING_SLOTS * CUVK_STAGING_SLOT_SIZE;
   uint32_t type = ctx->dev->host_type_index;
   VkResult vr;
   void *map;

   if (st->map)
      return CUDA_SUCCESS;

   vr = cuvk_mem_allocate(ctx->vk, size, type, NULL, &st->memory);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkAllocateMemory for the staging ring");

   VkBufferCreateInfo buffer_info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = size,
      .usage = CUVK_MEM_BLOCK_USAGE,
   };
   vr = vkCreateBuffer(ctx->vk, &buffer_info, NULL, &st->buffer);
   if (vr != VK_SUCCESS)
      goto fail_memory;
   vr = vkBindBufferMemory(ctx->vk, st->buffer, st->memory, 0);
   if (vr != VK_SUCCESS)
      goto fail_buffer;
   vr = vkMapMemory(ctx->vk, st->memory, 0, VK_WHOLE_SIZE, 0, &map);
   if (vr != VK_SUCCESS)
      goto fail_buffer;

   st->address = vkGetBufferDeviceAddress(ctx->vk, &(VkBufferDeviceAddressInfo){
      .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
      .buffer = st->buffer,
   });
   st->cached = ctx->dev->mem.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
   st->map = map;
   return CUDA_SUCCESS;

fail_buffer:
   vkDestroyBuffer(ctx->vk, st->buffer, NULL);
fail_memory:
   vkFreeMemory(ctx->vk, st->memory, NULL);
   return cuvk_vk_error(vr, "setting up the staging ring");
}

static void
dispatch_groups(struct cuvk_context *ctx, uint64_t row_bytes, uint64_t rows,
                uint32_t *gx, uint32_t *gy)
{
   uint64_t units = row_bytes / 16 + 1;
   uint64_t groups = (units + CUVK_SHADER_LOCAL_SIZE - 1) / CUVK_SHADER_LOCAL_SIZE;
   uint32_t max_y = ctx->dev->props.limits.maxComputeWorkGroupCount[1];

   *gx = (uint32_t)CUVK_MIN(groups, (uint64_t)ctx->max_groups_x);
   *gy = (uint32_t)CUVK_MIN(rows, (uint64_t)max_y);
}

/* Records one dispatch of a copy or fill piece, width bytes by height
 * rows; ctx lock held. */
static CUresult
record_dispatch(struct cuvk_context *ctx, struct cuvk_stream *stream, VkPipeline pipeline,
                VkPipelineLayout layout, const void *push, uint32_t push_size, uint64_t width,
                uint64_t height)
{
   VkCommandBuffer cmd;
   uint64_t value;
   uint32_t gx, gy;
   CUresult res = cuvk_submit_record(ctx, stream, &cmd, &value);
   if (res != CUDA_SUCCESS)
      return res;
   dispatch_groups(ctx, width, height, &gx, &gy);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size, push);
   vkCmdDispatch(cmd, gx, gy, 1);
   stream->last_value = value;
   return cuvk_submit_commit(ctx);
}

static uint32_t
copy_src_mode(uint64_t dst, uint64_t src, uint64_t dst_pitch, uint64_t src_pitch, uint64_t rows)
{
   uint64_t delta = src - dst;
   uint64_t pitch_delta = rows > 1 ? src_pitch - dst_pitch : 0;

   if ((delta & 15) == 0 && (pitch_delta & 15) == 0)
      return CUVK_COPY_SRC_ALIGN16;
   if ((delta & 3) == 0 && (pitch_delta & 3) == 0)
      return CUVK_COPY_SRC_ALIGN4;
   return CUVK_COPY_SRC_UNALIGNED;
}

/* A place on the GPU, named both ways: shaders use the address, transfer
 * commands the buffer and offset. */
struct gpu_ref {
   VkBuffer buffer;
   VkDeviceSize offset;
   VkDeviceAddress address;
};

static struct gpu_ref
span_ref(const struct cuvk_mem_span *span)
{
   return (struct gpu_ref){ span->buffer, span->buffer_offset, span->address };
}

static struct gpu_ref
staging_ref(struct cuvk_staging *st, unsigned slot)
{
   VkDeviceSize off = (VkDeviceSize)slot * CUVK_STAGING_SLOT_SIZE;
   return (struct gpu_ref){ st->buffer, off, st->address + off };
}

static struct gpu_ref
ref_advance(struct gpu_ref r, uint64_t bytes)
{
   r.offset += bytes;
   r.address += bytes;
   return r;
}

/* Regions per vkCmdCopyBuffer on the transfer engine. */
#define TRANSFER_MAX_REGIONS 1024u

/* on_transfer_lane: on the stream's transfer lane (submit.h), for
 * buffers of the heaps shared with its family only. */
static CUresult
record_copy_transfer(struct cuvk_context *ctx, struct cuvk_stream *stream, struct gpu_ref dst,
                     struct gpu_ref src, uint64_t row_bytes, uint64_t rows, uint64_t dst_pitch,
                     uint64_t src_pitch, bool on_transfer_lane)
{
   VkBufferCopy regions[64];
   CUresult res;

   for (uint64_t row = 0; row < rows;) {
      VkCommandBuffer cmd;
      uint64_t value;
      res = on_transfer_lane ? cuvk_submit_record_transfer(ctx, stream, &cmd, &value)
                             : cuvk_submit_record(ctx, stream, &cmd, &value);
      if (res != CUDA_SUCCESS)
         return res;
      /* One command holds up to TRANSFER_MAX_REGIONS rows, passed in
       * small slices of the region array. */
      uint64_t end = CUVK_MIN(rows, row + TRANSFER_MAX_REGIONS);
      while (row < end) {
         uint32_t count = 0;
         for (; row < end && count < CUVK_ARRAY_SIZE(regions); row++, count++) {
            regions[count] = (VkBufferCopy){
               .srcOffset = src.offset + row * src_pitch,
               .dstOffset = dst.offset + row * dst_pitch,
               .size = row_bytes,
            };
         }
         vkCmdCopyBuffer(cmd, src.buffer, dst.buffer, count, regions);
      }
      stream->last_value = value;
      res = cuvk_submit_commit(ctx);
      if (res != CUDA_SUCCESS)
         return res;
   }
   return CUDA_SUCCESS;
}

static CUresult
record_copy_compute(struct cuvk_context *ctx, struct cuvk_stream *stream, VkDeviceAddress dst,
                    VkDeviceAddress src, uint64_t row_bytes, uint64_t rows, uint64_t dst_pitch,
                    uint64_t src_pitch)
{
   CUresult res;

   /* Rows wider than a dispatch covers become several dispatches, each a
    * column of the copy. */
   for (uint64_t col = 0; col < row_bytes; col += DISPATCH_MAX_ROW_BYTES) {
      uint64_t width = CUVK_MIN(row_bytes - col, DISPATCH_MAX_ROW_BYTES);
      for (uint64_t row = 0; row < rows; row += DISPATCH_MAX_ROWS) {
         uint64_t height = CUVK_MIN(rows - row, DISPATCH_MAX_ROWS);
         struct cuvk_copy_params p = {
            .src = src + row * src_pitch + col,
            .dst = dst + row * dst_pitch + col,
            .src_pitch = src_pitch,
            .dst_pitch = dst_pitch,
            .width = (uint32_t)width,
            .height = (uint32_t)height,
         };
         p.src_mode = copy_src_mode(p.dst, p.src, dst_pitch, src_pitch, height);

         res = record_dispatch(ctx, stream, ctx->copy_pipeline, ctx->copy_layout, &p, sizeof(p),
                               width, height);
         if (res != CUDA_SUCCESS)
            return res;
      }
   }
   return CUDA_SUCCESS;
}

static bool
copy_overlaps(struct gpu_ref dst, struct gpu_ref src, uint64_t row_bytes, uint64_t rows,
              uint64_t dst_pitch, uint64_t src_pitch)
{
   uint64_t dst_end = dst.offset + (rows - 1) * dst_pitch + row_bytes;
   uint64_t src_end = src.offset + (rows - 1) * src_pitch + row_bytes;
   return dst.buffer == src.buffer && dst.offset < src_end && src.offset < dst_end;
}

/* Records a 2D copy whose source and destination do not overlap; ctx
 * lock held. */
static CUresult
record_copy_disjoint(struct cuvk_context *ctx, struct cuvk_stream *stream, struct gpu_ref dst,
                     struct gpu_ref src, uint64_t row_bytes, uint64_t rows, uint64_t dst_pitch,
                     uint64_t src_pitch)
{
   if (ctx->transfer_engine)
      return record_copy_transfer(ctx, stream, dst, src, row_bytes, rows, dst_pitch, src_pitch, false);
   return record_copy_compute(ctx, stream, dst.address, src.address, row_bytes, rows, dst_pitch,
                              src_pitch);
}

/* The scratch an overlapping copy bounces through: big enough that a
 * copy moved by a few bytes takes few commands, small enough to keep for
 * the context's life once one such copy has happened. */
#define OVERLAP_SCRATCH_SIZE (4ull << 20)
/* A copy split into at most this many pieces goes direct, without the
 * scratch. */
#define OVERLAP_DIRECT_PIECES 16u

/* Made at first need; ctx lock held. */
static CUresult
scratch_ensure(struct cuvk_context *ctx)
{
   struct cuvk_staging *st = &ctx->staging;
   VkResult vr;

   if (st->scratch_buffer)
      return CUDA_SUCCESS;
   vr = cuvk_mem_allocate(ctx->vk, OVERLAP_SCRATCH_SIZE, ctx->dev->device_type_index, NULL,
                          &st->scratch_memory);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkAllocateMemory for overlapping copies' scratch");
   VkBufferCreateInfo buffer_info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = OVERLAP_SCRATCH_SIZE,
      .usage = CUVK_MEM_BLOCK_USAGE,
   };
   vr = vkCreateBuffer(ctx->vk, &buffer_info, NULL, &st->scratch_buffer);
   if (vr == VK_SUCCESS) {
      vr = vkBindBufferMemory(ctx->vk, st->scratch_buffer, st->scratch_memory, 0);
      if (vr != VK_SUCCESS) {
         vkDestroyBuffer(ctx->vk, st->scratch_buffer, NULL);
         st->scratch_buffer = VK_NULL_HANDLE;
      }
   }
   if (vr != VK_SUCCESS) {
      vkFreeMemory(ctx->vk, st->scratch_memory, NULL);
      return cuvk_vk_error(vr, "setting up overlapping copies' scratch");
   }
   st->scratch_address = vkGetBufferDeviceAddress(ctx->vk, &(VkBufferDeviceAddressInfo){
      .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
      .buffer = st->scratch_buffer,
   });
   return CUDA_SUCCESS;
}

/* Records a copy of n bytes inside one buffer whose source and
 * destination overlap, so that it ends as memmove would.  One command
 * over both ranges would race (shader invocations read bytes others
 * write; vkCmdCopyBuffer forbids it outright), so the copy goes in
 * pieces, each a command whose ranges are disjoint, in the order that
 * reads every byte before a piece overwrites it: from the low end when
 * the destination is below the source, from the high end when above.
 * Pieces are at most the distance between the two ranges; where that is
 * short against the copy, each piece instead bounces through the
 * scratch, read whole before it is written.  Commands run in recording
 * order (submit.h), which is all the ordering this needs.  Ctx lock held. */
static CUresult
record_copy_overlapping(struct cuvk_context *ctx, struct cuvk_stream *stream, struct gpu_ref dst,
                        struct gpu_ref src, uint64_t n)
{
   bool up = dst.offset > src.offset;
   uint64_t distance = up ? dst.offset - src.offset : src.offset - dst.offset;
   CUresult res = CUDA_SUCCESS;

   if (distance == 0)
      return CUDA_SUCCESS; /* every byte is already where it goes */

   bool direct = distance >= OVERLAP_SCRATCH_SIZE || n <= (uint64_t)OVERLAP_DIRECT_PIECES * distance;
   if (!direct) {
      res = scratch_ensure(ctx);
      if (res != CUDA_SUCCESS)
         return res;
   }
   struct gpu_ref scratch = { ctx->staging.scratch_buffer, 0, ctx->staging.scratch_address };
   uint64_t piece = direct ? distance : OVERLAP_SCRATCH_SIZE;

   for (uint64_t done = 0; done < n && res == CUDA_SUCCESS;) {
      uint64_t len = CUVK_MIN(piece, n - done);
      uint64_t off = up ? n - done - len : done;
      if (direct) {
         res = record_copy_disjoint(ctx, stream, ref_advance(dst, off), ref_advance(src, off), len, 1, 0, 0);
      } else {
         res = record_copy_disjoint(ctx, stream, scratch, ref_advance(src, off), len, 1, 0, 0);
         if (res == CUDA_SUCCESS)
            res = record_copy_disjoint(ctx, stream, ref_advance(dst, off), scratch, len, 1, 0, 0);
      }
      done += len;
   }
   return res;
}

/* Whether some row of a 2D copy whose extents overlap (copy_overlaps)
 * reads bytes some row writes.  Two ranges of rows with one pitch can
 * interleave without touching (columns of one pitched allocation): row i
 * of the destination meets row j of the source when the gap between
 * them, dst - src + (i - j) * pitch, is within a row's width, so only
 * the two row distances nearest -(dst - src) / pitch need looking at.
 * Unequal pitches are taken as overlapping. */
static bool
rows_overlap(struct gpu_ref dst, struct gpu_ref src, uint64_t row_bytes, uint64_t rows, uint64_t dst_pitch,
             uint64_t src_pitch)
{
   if (rows <= 1)
      return true;
   if (dst_pitch != src_pitch || dst_pitch == 0 || dst_pitch > INT64_MAX || rows > INT64_MAX)
      return true;
   int64_t gap = (int64_t)(dst.offset - src.offset);
   int64_t pitch = (int64_t)dst_pitch, max_k = (int64_t)rows - 1;
   int64_t k0 = -gap / pitch;
   for (int64_t k = k0 - 1; k <= k0 + 1; k++) {
      if (k < -max_k || k > max_k)
         continue;
      int64_t d = gap + k * pitch;
      if (d > -(int64_t)row_bytes && d < (int64_t)row_bytes)
         return true;
   }
   return false;
}

/* Records a 2D copy; ctx lock held.  Overlapping ranges are copied row
 * by row, each row as memmove would, the rows in the order that reads a
 * row before an earlier row's write lands on it (which, with equal
 * pitches, makes the whole copy end as one memmove would). */
static CUresult
record_copy(struct cuvk_context *ctx, struct cuvk_stream *stream, struct gpu_ref dst,
            struct gpu_ref src, uint64_t row_bytes, uint64_t rows, uint64_t dst_pitch,
            uint64_t src_pitch)
{
   if (!copy_overlaps(dst, src, row_bytes, rows, dst_pitch, src_pitch) ||
       !rows_overlap(dst, src, row_bytes, rows, dst_pitch, src_pitch))
      return record_copy_disjoint(ctx, stream, dst, src, row_bytes, rows, dst_pitch, src_pitch);

   bool up = dst.offset > src.offset;
   CUresult res = CUDA_SUCCESS;
   for (uint64_t i = 0; i < rows && res == CUDA_SUCCESS; i++) {
      uint64_t row = up ? rows - 1 - i : i;
      struct gpu_ref d = ref_advance(dst, row * dst_pitch), s = ref_advance(src, row * src_pitch);
      if (copy_overlaps(d, s, row_bytes, 1, 0, 0))
         res = record_copy_overlapping(ctx, stream, d, s, row_bytes);
      else
         res = record_copy_disjoint(ctx, stream, d, s, row_bytes, 1, 0, 0);
   }
   return res;
}

static CUresult
record_fill_compute(struct cuvk_context *ctx, struct cuvk_stream *stream, VkDeviceAddress dst,
                    uint64_t row_bytes, uint64_t rows, uint64_t pitch, uint32_t pattern)
{
   CUresult res;

   for (uint64_t col = 0; col < row_bytes; col += DISPATCH_MAX_ROW_BYTES) {
      uint64_t width = CUVK_MIN(row_bytes - col, DISPATCH_MAX_ROW_BYTES);
      for (uint64_t row = 0; row < rows; row += DISPATCH_MAX_ROWS) {
         uint64_t height = CUVK_MIN(rows - row, DISPATCH_MAX_ROWS);
         struct cuvk_fill_params p = {
            .dst = dst + row * pitch + col,
            .dst_pitch = pitch,
            .width = (uint32_t)width,
            .height = (uint32_t)height,
            .pattern = pattern,
         };
         res = record_dispatch(ctx, stream, ctx->fill_pipeline, ctx->fill_layout, &p, sizeof(p),
                               width, height);
         if (res != CUDA_SUCCESS)
            return res;
      }
   }
   return CUDA_SUCCESS;
}

/* Records a fill; ctx lock held.  Where the driver's fill is the faster
 * (ctx->fill_transfer), a 1D fill's 4-aligned body is one vkCmdFillBuffer.
 * Unaligned edges, at most 3 bytes each, take the shader: beside the body
 * where copies take transfer commands too (CPU devices), otherwise the
 * whole fill is one dispatch, as three commands would cost a GPU more
 * than the shader's percent of bandwidth.  2D fills stay one dispatch
 * rather than one command per row. */
static CUresult
record_fill(struct cuvk_context *ctx, struct cuvk_stream *stream, struct gpu_ref dst,
            uint64_t row_bytes, uint64_t rows, uint64_t pitch, uint32_t pattern)
{
   if (!ctx->fill_transfer || rows > 1)
      return record_fill_compute(ctx, stream, dst.address, row_bytes, rows, pitch, pattern);

   uint64_t head = CUVK_MIN((4 - (dst.address & 3)) & 3, row_bytes);
   uint64_t body = (row_bytes - head) & ~(uint64_t)3;
   uint64_t tail = row_bytes - head - body;
   CUresult res = CUDA_SUCCESS;

   if ((head || tail) && !ctx->transfer_engine)
      return record_fill_compute(ctx, stream, dst.address, row_bytes, rows, pitch, pattern);

   if (head)
      res = record_fill_compute(ctx, stream, dst.address, head, 1, head, pattern);
   if (res == CUDA_SUCCESS && body) {
      VkCommandBuffer cmd;
      uint64_t value;
      res = cuvk_submit_record(ctx, stream, &cmd, &value);
      if (res != CUDA_SUCCESS)
         return res;
      vkCmdFillBuffer(cmd, dst.buffer, dst.offset + head, body, pattern);
      stream->last_value = value;
      res = cuvk_submit_commit(ctx);
   }
   if (res == CUDA_SUCCESS && tail)
      res = record_fill_compute(ctx, stream, dst.address + head + body, tail, 1, tail, pattern);
   return res;
}

CUresult
cuvk_transfer_record_copy_2d(struct cuvk_context *ctx, struct cuvk_stream *stream,
                             VkBuffer dst_buffer, VkDeviceSize dst_offset, VkDeviceAddress dst_address,
                             VkBuffer src_buffer, VkDeviceSize src_offset, VkDeviceAddress src_address,
                             uint64_t row_bytes, uint64_t rows, uint64_t dst_pitch, uint64_t src_pitch)
{
   return record_copy(ctx, stream, (struct gpu_ref){ dst_buffer, dst_offset, dst_address },
                      (struct gpu_ref){ src_buffer, src_offset, src_address }, row_bytes, rows,
                      dst_pitch, src_pitch);
}

CUresult
cuvk_staging_lock(struct cuvk_context *ctx)
{
   pthread_mutex_lock(&ctx->staging.lock);
   CUresult res = staging_ensure(ctx);
   if (res != CUDA_SUCCESS)
      pthread_mutex_unlock(&ctx->staging.lock);
   return res;
}

void
cuvk_staging_unlock(struct cuvk_context *ctx)
{
   pthread_mutex_unlock(&ctx->staging.lock);
}

CUresult
cuvk_staging_next(struct cuvk_context *ctx, struct cuvk_staging_slot *slot)
{
   struct cuvk_staging *st = &ctx->staging;
   unsigned index = st->next;
   CUresult res = cuvk_submit_wait(ctx, st->slot_value[index]);
   if (res != CUDA_SUCCESS)
      return res;
   st->next = (st->next + 1) % CUVK_STAGING_SLOTS;
   struct gpu_ref ref = staging_ref(st, index);
   *slot = (struct cuvk_staging_slot){
      .index = index,
      .buffer = ref.buffer,
      .offset = ref.offset,
      .address = ref.address,
      .map = st->map + (size_t)index * CUVK_STAGING_SLOT_SIZE,
   };
   return CUDA_SUCCESS;
}

void
cuvk_staging_set_busy(struct cuvk_context *ctx, const struct cuvk_staging_slot *slot, uint64_t value)
{
   ctx->staging.slot_value[slot->index] = value;
}

/* CUVK_HOST_OP_MAX: the most bytes a copy or fill the host does itself
 * may have, below the defaults above (0: never).  Read once. */
static uint64_t
host_op_max(void)
{
   static uint64_t cached; /* the limit + 1; 0 until read */
   uint64_t v = __atomic_load_n(&cached, __ATOMIC_RELAXED);
   if (v)
      return v - 1;
   v = UINT64_MAX - 1;
   const char *env = getenv("CUVK_HOST_OP_MAX");
   if (env && *env) {
      char *end;
      unsigned long long n = strtoull(env, &end, 10);
      if (*end || n >= UINT64_MAX - 1)
         cuvk_logw("CUVK_HOST_OP_MAX=%s is not a number of bytes; keeping the defaults", env);
      else
         v = n;
   }
   __atomic_store_n(&cached, v + 1, __ATOMIC_RELAXED);
   return v;
}

/* Whether a copy or fill of n bytes is cheaper on the CPU than a submit:
 * up to DIRECT_SMALL_MAX where both sides are cached, DIRECT_UNCACHED_MAX
 * where one is not. */
static bool
host_op_cheap(uint64_t n, bool cached)
{
   return n <= (cached ? DIRECT_SMALL_MAX : DIRECT_UNCACHED_MAX) && n <= host_op_max();
}

/* Whether the host may do a small copy or fill itself, now, instead of
 * recording it.  It may when nothing recorded on any lane is outstanding,
 * no wait is held and no host function or semaphore op is queued: then
 * every stream is idle, whatever the operation follows in any stream's order (its own
 * stream, the legacy stream's implicit order, events waited for) is
 * done, and doing it at once is doing it in stream order, for an *Async
 * call as for a synchronous one.  Nothing on the GPU advances: the
 * stream's last point is complete already, so an event recorded after
 * the operation is complete too, as the operation is.  On true it
 * returns with the context lock held, so that no other thread records
 * work that could run while the host writes; host_op_end releases it. */
static bool
host_op_begin(struct cuvk_context *ctx)
{
   pthread_mutex_lock(&ctx->lock);
   if (cuvk_submit_host_turn(ctx)) {
      cuvk_submit_trace_host_op(&ctx->submit);
      return true;
   }
   pthread_mutex_unlock(&ctx->lock);
   return false;
}

static void
host_op_end(struct cuvk_context *ctx)
{
   pthread_mutex_unlock(&ctx->lock);
}

static bool
span_is_host(const struct cuvk_mem_span *span)
{
   return cuvk_mem_kind_is_host(span->kind);
}

/* A synchronous fill (src 0) or copy of device memory on the command
 * ring (ring.h), when the context has one that takes it and is idle; as
 * with the host path above, the operation is then done when this
 * returns true.  Pinned and registered memory stay off the ring: the
 * GPU's caches may hold a line of it the host has since written. */
static bool
ring_op(struct cuvk_context *ctx, const struct cuvk_mem_span *dst, const struct cuvk_mem_span *src, uint64_t n,
        uint32_t pattern)
{
   if (span_is_host(dst) || (src && span_is_host(src)) ||
       !cuvk_ring_takes(ctx, dst->address, src ? src->address : 0, n) || !host_op_begin(ctx))
      return false;
   bool done = cuvk_ring_run(ctx, dst->address, src ? src->address : 0, n, pattern);
   host_op_end(ctx);
   return done;
}

/* A staged transfer goes in chunks of at least STAGING_CHUNK_MIN, each a
 * submission, and at most a slot: a transfer that fits one slot is still
 * cut into up to STAGING_SPLIT chunks so that the CPU's copy of one
 * overlaps the GPU's of the one before, where whole it would run the two
 * one after the other. */
#define STAGING_CHUNK_MIN (1u << 20)
#define STAGING_SPLIT 4u

size_t
cuvk_staging_chunk_size(uint64_t size)
{
   uint64_t chunk = CUVK_ALIGN_UP((size + STAGING_SPLIT - 1) / STAGING_SPLIT, 4096);
   return (size_t)CUVK_MIN(CUVK_MAX(chunk, (uint64_t)STAGING_CHUNK_MIN), (uint64_t)CUVK_STAGING_SLOT_SIZE);
}

static CUresult
staging_upload(struct cuvk_context *ctx, struct cuvk_stream *stream, struct gpu_ref dst,
               const uint8_t *src, size_t size)
{
   struct cuvk_staging *st = &ctx->staging;
   size_t chunk = cuvk_staging_chunk_size(size);
   CUresult res;

   cuvk_logd("pageable copy of %zu bytes staged in chunks of %zu", size, chunk);
   pthread_mutex_lock(&st->lock);
   res = staging_ensure(ctx);
   for (size_t off = 0; res == CUDA_SUCCESS && off < size; off += chunk) {
      size_t len = CUVK_MIN(size - off, chunk);
      unsigned slot = st->next;
      st->next = (st->next + 1) % CUVK_STAGING_SLOTS;

      res = cuvk_submit_wait(ctx, st->slot_value[slot]);
      if (res != CUDA_SUCCESS)
         break;
      cuvk_host_memcpy(st->map + (size_t)slot * CUVK_STAGING_SLOT_SIZE, src + off, len);

      pthread_mutex_lock(&ctx->lock);
      res = record_copy(ctx, stream, ref_advance(dst, off), staging_ref(st, slot), len, 1, 0, 0);
      st->slot_value[slot] = stream->last_value;
      /* Start the GPU on this chunk while the CPU fills the next. */
      if (res == CUDA_SUCCESS)
         res = cuvk_submit_flush(ctx);
      pthread_mutex_unlock(&ctx->lock);
   }
   pthread_mutex_unlock(&st->lock);
   return res;
}

static CUresult
staging_download(struct cuvk_context *ctx, struct cuvk_stream *stream, uint8_t *dst,
                 struct gpu_ref src, size_t size)
{
   struct cuvk_staging *st = &ctx->staging;
   size_t chunk = cuvk_staging_chunk_size(size);
   size_t chunks = (size + chunk - 1) / chunk;
   CUresult res;

   cuvk_logd("pageable copy of %zu bytes staged in chunks of %zu", size, chunk);
   pthread_mutex_lock(&st->lock);
   res = staging_ensure(ctx);

   /* Keep up to all slots in flight; drain the oldest chunk before its
    * slot is reused. */
   for (size_t i = 0; res == CUDA_SUCCESS && i < chunks + CUVK_STAGING_SLOTS; i++) {
      if (i >= CUVK_STAGING_SLOTS && i - CUVK_STAGING_SLOTS < chunks) {
         size_t done = i - CUVK_STAGING_SLOTS;
         unsigned slot = done % CUVK_STAGING_SLOTS;
         size_t off = done * chunk;
         size_t len = CUVK_MIN(size - off, chunk);
         res = cuvk_submit_wait(ctx, st->slot_value[slot]);
         if (res != CUDA_SUCCESS)
            break;
         cuvk_host_memcpy(dst + off, st->map + (size_t)slot * CUVK_STAGING_SLOT_SIZE, len);
      }
      if (i < chunks) {
         unsigned slot = i % CUVK_STAGING_SLOTS;
         size_t off = i * chunk;
         size_t len = CUVK_MIN(size - off, chunk);
         res = cuvk_submit_wait(ctx, st->slot_value[slot]);
         if (res != CUDA_SUCCESS)
            break;
         pthread_mutex_lock(&ctx->lock);
         res = record_copy(ctx, stream, staging_ref(st, slot), ref_advance(src, off), len, 1, 0, 0);
         st->slot_value[slot] = stream->last_value;
         if (res == CUDA_SUCCESS)
            res = cuvk_submit_flush(ctx);
         pthread_mutex_unlock(&ctx->lock);
      }
   }
   pthread_mutex_unlock(&st->lock);
   return res;
}

/* Resolves one side of a copy.  *found is false for host memory cuvk does
 * not know (pageable), which only a host side may be. */
static CUresult
copy_resolve(const struct cuvk_copy *copy, uint64_t ptr, uint64_t want, enum cuvk_copy_side side,
             const char *which, struct cuvk_mem_span *span, bool *found)
{
   *found = cuvk_mem_resolve_run(ptr, want, span);
   if (*found) {
      if (side == CUVK_SIDE_HOST && !cuvk_mem_kind_is_host(span->kind))
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s 0x%llx is device memory, not a host pointer",
                           copy->entry, which, (unsigned long long)ptr);
      return CUDA_SUCCESS;
   }
   if (side == CUVK_SIDE_DEVICE || cuvk_mem_is_device_address(ptr))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s 0x%llx is not inside any allocation",
                        copy->entry, which, (unsigned long long)ptr);
   return CUDA_SUCCESS;
}

/* Every byte of [ptr, ptr + size) must be somewhere: allocations end to
 * end, or, for a host side, host memory from some point on. */
static CUresult
copy_check_range(const struct cuvk_copy *copy, uint64_t ptr, uint64_t size, enum cuvk_copy_side side,
                 const char *which, bool written)
{
   while (size > 0) {
      struct cuvk_mem_span span;
      bool found;
      CUresult res = copy_resolve(copy, ptr, size, side, which, &span, &found);
      if (res != CUDA_SUCCESS)
         return res;
      if (!found)
         return CUDA_SUCCESS; /* pageable host memory to the end */
      /* Its pages may well be read-only: a write would fault. */
      if (written && cuvk_mem_span_read_only(&span))
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s 0x%llx is registered with "
                           "CU_MEMHOSTREGISTER_READ_ONLY", copy->entry, which, (unsigned long long)ptr);
      uint64_t n = CUVK_MIN(size, span.avail);
      if (n < size && span.kind != CUVK_MEM_VMM)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s 0x%llx+%llu runs past the end of its allocation",
                           copy->entry, which, (unsigned long long)ptr, (unsigned long long)size);
      ptr += n;
      size -= n;
      /* Only cuMemMap ranges continue into the next one. */
      if (size > 0 && (!cuvk_mem_resolve(ptr, &span) || span.kind != CUVK_MEM_VMM))
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s runs past the end of a mapping into 0x%llx, "
                           "which is not mapped", copy->entry, which, (unsigned long long)ptr);
   }
   return CUDA_SUCCESS;
}

static pthread_once_t pageable_once = PTHREAD_ONCE_INIT;
static enum cuvk_pageable_path pageable_setting;

static void
pageable_read(void)
{
   const char *why;
   pageable_setting = cuvk_policy_pageable_path(&why);
   cuvk_logi("pageable copies: %s", why);
}

enum cuvk_pageable_path
cuvk_transfer_pageable_path(void)
{
   pthread_once(&pageable_once, pageable_read);
   return pageable_setting;
}

/* memmove through host views, on the copy pool's threads when the two
 * ranges are apart (util/host_copy.h). */
static void
host_move(uint8_t *dst, const uint8_t *src, size_t n)
{
   if (dst + n <= src || src + n <= dst)
      cuvk_host_memcpy(dst, src, n);
   else
      memmove(dst, src, n);
}

/* A pageable copy as one GPU copy between the GPU side and the caller's
 * own pages, imported for the copy and released once it is done (the
 * caller may free or reuse them as soon as the call returns).  False when
 * the pages cannot be imported, nothing done: the copy is then staged. */
static bool
import_copy(struct cuvk_context *ctx, struct cuvk_stream *stream, const struct cuvk_mem_span *gpu,
            uint8_t *host, size_t n, bool upload, CUresult *res)
{
   struct cuvk_mem_block *block;
   VkDeviceSize offset;

   if (!cuvk_mem_import_pageable(ctx, host, n, &block, &offset))
      return false;
   cuvk_logd("pageable copy of %zu bytes through the caller's imported pages", n);
   struct gpu_ref h = { block->buffer, offset, block->address + offset };

   pthread_mutex_lock(&ctx->lock);
   if (upload)
      *res = record_copy(ctx, stream, span_ref(gpu), h, n, 1, 0, 0);
   else
      *res = record_copy(ctx, stream, h, span_ref(gpu), n, 1, 0, 0);
   uint64_t value = stream->last_value;
   pthread_mutex_unlock(&ctx->lock);

   if (*res == CUDA_SUCCESS)
      *res = cuvk_submit_wait(ctx, value);
   else
      /* Part of the copy may be recorded: the pages go once nothing
       * can run on them. */
      cuvk_submit_wait_idle(ctx);
   cuvk_mem_block_destroy(block);
   return true;
}

/* A copy the transfer lanes take: host memory on one side at least, and
 * both sides in the heaps whose buffers are shared with the transfer
 * family (pinned and device allocations; registered, imported and VMM
 * memory have buffers of their own, exclusive to the compute family).
 * It is a vkCmdCopyBuffer whatever the copy engine, being all a
 * copy-engine queue runs. */
static bool
copy_takes_transfer_lane(struct cuvk_context *ctx, const struct cuvk_mem_span *ds,
                         const struct cuvk_mem_span *ss)
{
   bool dh = cuvk_mem_kind_in_host_heap(ds->kind), sh = cuvk_mem_kind_in_host_heap(ss->kind);
   return cuvk_submit_has_transfer_lanes(ctx) && (dh || sh) && (dh || ds->kind == CUVK_MEM_DEVICE) &&
          (sh || ss->kind == CUVK_MEM_DEVICE);
}

static CUresult
copy_segment(struct cuvk_context *ctx, struct cuvk_stream *stream, const struct cuvk_copy *copy,
             uint64_t dst, uint64_t src, size_t n, const struct cuvk_mem_span *ds, bool dfound,
             const struct cuvk_mem_span *ss, bool sfound)
{
   bool gpu_d = dfound && ds->ctx == ctx;
   bool gpu_s = sfound && ss->ctx == ctx;
   uint8_t *dmap = dfound ? ds->map : (uint8_t *)(uintptr_t)dst;
   const uint8_t *smap = sfound ? ss->map : (const uint8_t *)(uintptr_t)src;
   CUresult res;

   if ((dfound && !gpu_d && !dmap) || (sfound && !gpu_s && !smap))
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED,
                        "%s: copies with memory of another context need it host-visible", copy->entry);

   if (gpu_d && gpu_s) {
      bool host_side = span_is_host(ds) || span_is_host(ss);
      /* memmove: the two sides may be one allocation and overlap, which
       * cuvk defines as memmove's result (docs/design.md). */
      if (dmap && smap && host_op_cheap(n, ds->cached && ss->cached) && host_op_begin(ctx)) {
         memmove(dmap, smap, n);
         host_op_end(ctx);
         return CUDA_SUCCESS;
      }
      if (!copy->async && ring_op(ctx, ds, ss, n, 0))
         return CUDA_SUCCESS;
      pthread_mutex_lock(&ctx->lock);
      if (copy_takes_transfer_lane(ctx, ds, ss) && !copy_overlaps(span_ref(ds), span_ref(ss), n, 1, 0, 0))
         res = record_copy_transfer(ctx, stream, span_ref(ds), span_ref(ss), n, 1, 0, 0, true);
      else
         res = record_copy(ctx, stream, span_ref(ds), span_ref(ss), n, 1, 0, 0);
      pthread_mutex_unlock(&ctx->lock);
      /* A synchronous copy that involves host memory returns once the
       * host side is done with, as CUDA's does. */
      if (res == CUDA_SUCCESS && !copy->async && host_side)
         res = cuvk_submit_wait_idle(ctx);
      return res;
   }

   /* From here one side is pageable host memory (or another context's
    * mapped memory): the transfer is synchronous for the host. */
   struct cuvk_context *other = NULL;
   if (dfound && ds->ctx != ctx)
      other = ds->ctx;
   if (sfound && ss->ctx != ctx)
      other = ss->ctx;

   /* Pageable memory on one side, this context's device memory on the
    * other: the copy CUVK_PAGEABLE_PATH is about (pinned memory is the
    * CPU's to copy whatever the path). */
   bool pageable = (gpu_d && !sfound && !span_is_host(ds)) || (gpu_s && !dfound && !span_is_host(ss));
   enum cuvk_pageable_path path = pageable ? cuvk_transfer_pageable_path() : CUVK_PAGEABLE_AUTO;

   bool read_ok = !sfound || !gpu_s || ss->cached || n <= DIRECT_UNCACHED_MAX;
   if (dmap && smap && (read_ok || !gpu_s) && path == CUVK_PAGEABLE_AUTO) {
      /* The other context is reached through a pointer, not a handle the
       * caller passed: held for the copy, so that its destroy on another
       * thread waits for the copy instead of freeing the memory under it,
       * and a context already gone is an error, not a crash. */
      struct cuvk_context *held_other CUVK_HELD_CONTEXT = NULL;
      if (other) {
         res = cuvk_context_resolve((CUcontext)other, copy->entry, &held_other);
         if (res != CUDA_SUCCESS)
            return res;
      }
      res = cuvk_submit_wait_idle(ctx);
      if (res == CUDA_SUCCESS && other)
         res = cuvk_submit_wait_idle(other);
      if (res == CUDA_SUCCESS)
         host_move(dmap, smap, n);
      return res;
   }
   if (path == CUVK_PAGEABLE_IMPORT && import_copy(ctx, stream, gpu_d ? ds : ss,
                                                   gpu_d ? (uint8_t *)smap : dmap, n, gpu_d, &res))
      return res;
   if (gpu_d)
      return staging_upload(ctx, stream, span_ref(ds), smap, n);
   return staging_download(ctx, stream, dmap, span_ref(ss), n);
}

/* Records a checked copy, walking both sides together: a copy may cross
 * from one allocation into the next only where they are contiguous
 * (virtual memory mappings), and is cut there unless both sit in one
 * sparse reservation's buffer.  Its pieces go to the GPU in one
 * submission. */
struct copy_piece {
   uint64_t dst, src;
   size_t n;
   struct cuvk_mem_span ds, ss;
   bool dfound, sfound;
};

/* A copy whose destination lies above its overlapping source, cut into
 * pieces at allocation seams, runs its pieces from the last to the
 * first, so each reads its bytes before a lower piece overwrites them
 * (each piece takes care of its own overlap): memmove's result across
 * seams too. */
static CUresult
copy_walk_backwards(struct cuvk_context *ctx, struct cuvk_stream *stream, const struct cuvk_copy *copy)
{
   uint64_t dst = copy->dst, src = copy->src;
   size_t left = copy->size, count = 0, cap = 0;
   struct copy_piece *pieces = NULL;
   CUresult res = CUDA_SUCCESS;

   while (left > 0) {
      if (count == cap) {
         size_t new_cap = cap ? cap * 2 : 8;
         struct copy_piece *grown = realloc(pieces, new_cap * sizeof(*pieces));
         if (!grown) {
            free(pieces);
            return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", copy->entry);
         }
         pieces = grown;
         cap = new_cap;
      }
      struct copy_piece *p = &pieces[count];
      res = copy_resolve(copy, dst, left, copy->dst_side, "destination", &p->ds, &p->dfound);
      if (res == CUDA_SUCCESS)
         res = copy_resolve(copy, src, left, copy->src_side, "source", &p->ss, &p->sfound);
      if (res != CUDA_SUCCESS)
         break;
      p->n = left;
      if (p->dfound)
         p->n = CUVK_MIN(p->n, p->ds.avail);
      if (p->sfound)
         p->n = CUVK_MIN(p->n, p->ss.avail);
      p->dst = dst;
      p->src = src;
      count++;
      dst += p->n;
      src += p->n;
      left -= p->n;
   }
   for (size_t i = count; res == CUDA_SUCCESS && i > 0; i--) {
      struct copy_piece *p = &pieces[i - 1];
      res = copy_segment(ctx, stream, copy, p->dst, p->src, p->n, &p->ds, p->dfound, &p->ss, p->sfound);
   }
   free(pieces);
   return res;
}

static CUresult
copy_walk(struct cuvk_context *ctx, struct cuvk_stream *stream, const struct cuvk_copy *copy)
{
   uint64_t dst = copy->dst, src = copy->src;
   size_t left = copy->size;
   CUresult res = CUDA_SUCCESS;

   cuvk_submit_hold(ctx);
   if (dst > src && dst - src < left)
      return cuvk_submit_release(ctx, copy_walk_backwards(ctx, stream, copy));
   while (left > 0) {
      struct cuvk_mem_span ds, ss;
      bool dfound, sfound;

      res = copy_resolve(copy, dst, left, copy->dst_side, "destination", &ds, &dfound);
      if (res != CUDA_SUCCESS)
         break;
      res = copy_resolve(copy, src, left, copy->src_side, "source", &ss, &sfound);
      if (res != CUDA_SUCCESS)
         break;

      size_t n = left;
      if (dfound)
         n = CUVK_MIN(n, ds.avail);
      if (sfound)
         n = CUVK_MIN(n, ss.avail);
      /* When n < left the next round resolves what follows; past the end
       * of a device allocation that is an error there. */

      res = copy_segment(ctx, stream, copy, dst, src, n, &ds, dfound, &ss, sfound);
      if (res != CUDA_SUCCESS)
         break;
      dst += n;
      src += n;
      left -= n;
   }
   return cuvk_submit_release(ctx, res);
}

CUresult
cuvk_copy(struct cuvk_context *ctx, struct cuvk_stream *stream, const struct cuvk_copy *copy)
{
   uint64_t dst = copy->dst, src = copy->src;
   size_t left = copy->size;
   CUresult res;

   /* The sticky fault, before any host path that would skip the
    * submission's own check. */
   res = cuvk_context_faulted(ctx, copy->entry);
   if (res != CUDA_SUCCESS)
      return res;

   if (left == 0)
      return CUDA_SUCCESS;
   if (dst == 0 || src == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s pointer is NULL", copy->entry,
                        dst == 0 ? "destination" : "source");
   if (dst + left < dst || src + left < src)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: range wraps around the address space", copy->entry);

   /* Check both whole ranges first: a copy that fails must not have
    * written anything, as in CUDA. */
   res = copy_check_range(copy, dst, left, copy->dst_side, "destination", true);
   if (res == CUDA_SUCCESS)
      res = copy_check_range(copy, src, left, copy->src_side, "source", false);
   if (res != CUDA_SUCCESS)
      return res;

   return copy_walk(ctx, stream, copy);
}

/* CPU fill of a host view whose address modulo 4 matches the device
 * address the pattern is laid out for: byte i of the pattern goes where
 * the address is i modulo 4.  Word stores between byte-wise edges; a byte
 * at a time ran at 2 GB/s on lavapipe's host, slower than the GPU path
 * from 16 KiB on. */
static void
fill_cpu(uint8_t *p, size_t n, uint32_t pattern)
{
   if (pattern == (pattern & 0xff) * 0x01010101u) {
      memset(p, (int)(pattern & 0xff), n);
      return;
   }
   while (n && ((uintptr_t)p & 7)) {
      *p = (uint8_t)(pattern >> (((uintptr_t)p & 3) * 8));
      p++;
      n--;
   }
   uint64_t word = (uint64_t)pattern | (uint64_t)pattern << 32;
   for (; n >= 8; p += 8, n -= 8)
      memcpy(p, &word, 8);
   for (; n; p++, n--)
      *p = (uint8_t)(pattern >> (((uintptr_t)p & 3) * 8));
}

/* Fills the n bytes of one allocation at span, on the CPU when that is
 * cheaper than a submit.  A 2D fill is always one segment: n is its whole
 * extent, rows and gaps. */
static CUresult
fill_segment(struct cuvk_context *ctx, struct cuvk_stream *stream, const struct cuvk_fill *fill,
             const struct cuvk_mem_span *span, uint64_t n, uint64_t row_bytes, uint64_t pitch,
             uint32_t pattern)
{
   CUresult res;

   if (span->map && host_op_cheap(n, span->cached) && host_op_begin(ctx)) {
      for (uint64_t r = 0; r < fill->height; r++)
         fill_cpu(span->map + r * pitch, fill->height > 1 ? row_bytes : n, pattern);
      host_op_end(ctx);
      return CUDA_SUCCESS;
   }
   if (!fill->async && fill->height == 1 && ring_op(ctx, span, NULL, n, pattern))
      return CUDA_SUCCESS;

   pthread_mutex_lock(&ctx->lock);
   if (fill->height > 1)
      res = record_fill(ctx, stream, span_ref(span), row_bytes, fill->height, pitch, pattern);
   else
      res = record_fill(ctx, stream, span_ref(span), n, 1, n, pattern);
   pthread_mutex_unlock(&ctx->lock);
   if (res == CUDA_SUCCESS && !fill->async && span_is_host(span))
      res = cuvk_submit_wait_idle(ctx);
   return res;
}

CUresult
cuvk_fill(struct cuvk_context *ctx, struct cuvk_stream *stream, const struct cuvk_fill *fill)
{
   struct cuvk_mem_span span;
   CUresult res;

   /* The sticky fault, before any host path that would skip the
    * submission's own check. */
   res = cuvk_context_faulted(ctx, fill->entry);
   if (res != CUDA_SUCCESS)
      return res;

   if (fill->dst == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: destination is NULL", fill->entry);
   if (fill->dst % fill->elem_size)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: destination 0x%llx is not %u-byte aligned",
                        fill->entry, (unsigned long long)fill->dst, fill->elem_size);
   if (fill->width == 0 || fill->height == 0)
      return CUDA_SUCCESS;
   if (fill->width > SIZE_MAX / fill->elem_size)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: width overflows", fill->entry);

   uint64_t row_bytes = (uint64_t)fill->width * fill->elem_size;
   uint64_t pitch = fill->height > 1 ? fill->pitch : row_bytes;
   if (fill->height > 1 && (pitch < row_bytes || pitch % fill->elem_size))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: pitch %zu is smaller than a row or misaligned",
                        fill->entry, fill->pitch);
   if (fill->height - 1 > (UINT64_MAX - row_bytes) / pitch)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: extent overflows", fill->entry);
   uint64_t extent = (uint64_t)(fill->height - 1) * pitch + row_bytes;

   uint32_t pattern = fill->value;
   if (fill->elem_size == 1)
      pattern = (fill->value & 0xff) * 0x01010101u;
   else if (fill->elem_size == 2)
      pattern = (fill->value & 0xffff) * 0x00010001u;

   /* A 1D fill may cross contiguous mappings; a 2D one stays inside one
    * allocation.  All of it is checked before anything is written. */
   for (uint64_t p = fill->dst, left = extent; left > 0;) {
      if (!cuvk_mem_resolve(p, &span))
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is not inside any allocation",
                           fill->entry, (unsigned long long)p);
      if (cuvk_mem_span_read_only(&span))
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is registered with "
                           "CU_MEMHOSTREGISTER_READ_ONLY", fill->entry, (unsigned long long)p);
      if (span.avail < left && (fill->height > 1 || span.kind != CUVK_MEM_VMM))
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %llu bytes run past the end of the allocation",
                           fill->entry, (unsigned long long)extent);
      uint64_t n = CUVK_MIN(left, span.avail);
      if (n < left && (!cuvk_mem_resolve(p + n, &span) || span.kind != CUVK_MEM_VMM))
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: runs past the end of a mapping into 0x%llx, "
                           "which is not mapped", fill->entry, (unsigned long long)(p + n));
      p += n;
      left -= n;
   }

   /* The pieces go to the GPU in one submission. */
   cuvk_submit_hold(ctx);
   res = CUDA_SUCCESS;
   for (uint64_t dst = fill->dst, left = extent; left > 0 && res == CUDA_SUCCESS;) {
      if (!cuvk_mem_resolve_run(dst, fill->height > 1 ? 0 : left, &span)) {
         res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is not inside any allocation",
                          fill->entry, (unsigned long long)dst);
         break;
      }
      if (span.ctx != ctx) {
         res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx belongs to another context",
                          fill->entry, (unsigned long long)dst);
         break;
      }
      uint64_t n = CUVK_MIN(left, span.avail);
      res = fill_segment(ctx, stream, fill, &span, n, row_bytes, pitch, pattern);
      dst += n;
      left -= n;
   }
   return cuvk_submit_release(ctx, res);
}
