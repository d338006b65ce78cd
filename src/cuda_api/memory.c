/*
 * Device and host allocations: cuMemAlloc, cuMemFree, cuMemAllocPitch,
 * cuMemGetInfo, cuMemGetAddressRange, the pinned and registered host
 * memory calls, and cuPointerGetAttribute.
 */
#include "cuda_api/memory.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "mem/page_table.h"
#include "mem/va_space.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

/* CUDA promises at least 256-byte alignment for cuMemAlloc. */
#define DEVICE_ALIGNMENT 256u
/* Pinned host memory is handed out page-aligned, as CUDA does. */
#define HOST_ALIGNMENT 4096u
/* cuMemAllocPitch rows are aligned like CUDA's texture pitch. */
#define PITCH_ALIGNMENT 512u

#define HOSTALLOC_FLAGS (CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED)
#define HOSTREGISTER_FLAGS (CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP | \
                            CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY)

static struct cuvk_mem_range_map mem_ranges;
static pthread_once_t mem_ranges_once = PTHREAD_ONCE_INIT;
static CUresult mem_ranges_result;
static uint64_t next_buffer_id = 1;

static void
mem_ranges_init(void)
{
   mem_ranges_result = cuvk_mem_range_map_init(&mem_ranges);
}

static struct cuvk_mem_range_map *
ranges(void)
{
   pthread_once(&mem_ranges_once, mem_ranges_init);
   return &mem_ranges;
}

struct cuvk_mem_range_map *
cuvk_mem_ranges(void)
{
   return ranges();
}

bool
cuvk_mem_is_device_address(uint64_t ptr)
{
   return cuvk_mem_va_contains(ptr);
}

static bool
span_fill(struct cuvk_mem_range *range, void *data)
{
   struct cuvk_mem_alloc *alloc = cuvk_container_of(range, struct cuvk_mem_alloc, range);
   struct cuvk_mem_span *span = data;
   uint64_t delta = span->base - range->start; /* base holds the pointer on entry */
   struct cuvk_mem_block *block = alloc->block;

   span->ctx = alloc->ctx;
   span->kind = (enum cuvk_mem_kind)range->kind;
   span->base = range->start;
   span->size = range->size;
   span->address = block->address + alloc->offset + delta;
   span->buffer = block->buffer;
   span->buffer_offset = alloc->offset + delta;
   span->map = block->map ? block->map + alloc->offset + delta : NULL;
   span->cached = block->cached;
   span->avail = range->size - delta;
   span->buffer_id = alloc->buffer_id;
   span->host_flags = alloc->host_flags;
   span->pool = alloc->pool;
   return true;
}

bool
cuvk_mem_resolve(uint64_t ptr, struct cuvk_mem_span *out)
{
   memset(out, 0, sizeof(*out));
   out->base = ptr;
   if (cuvk_mem_range_map_find(ranges(), ptr, span_fill, out))
      return true;
   memset(out, 0, sizeof(*out));
   return false;
}

bool
cuvk_mem_resolve_run(uint64_t ptr, uint64_t want, struct cuvk_mem_span *out)
{
   if (!cuvk_mem_resolve(ptr, out))
      return false;
   while (out->kind == CUVK_MEM_VMM && out->avail < want) {
      struct cuvk_mem_span next;
      if (!cuvk_mem_resolve(ptr + out->avail, &next) || next.kind != CUVK_MEM_VMM || next.ctx != out->ctx ||
          next.buffer != out->buffer || next.buffer_offset != out->buffer_offset + out->avail)
         break;
      out->avail += next.avail;
   }
   return true;
}

static bool
range_start_of(struct cuvk_mem_range *range, void *data)
{
   *(uint64_t *)data = range->start;
   return true;
}

/* Makes alloc reachable from ctx's kernels: host memory as a host range,
 * everything else through its pages.  Context lock held. */
static CUresult
page_table_enter(struct cuvk_mem_page_table *pt, struct cuvk_mem_alloc *alloc)
{
   uint64_t delta = alloc->block->address + alloc->offset - alloc->range.start;
   CUresult res;
   if (cuvk_mem_kind_is_host(alloc->range.kind))
      res = cuvk_mem_page_table_add_host(pt, alloc->range.start, alloc->range.size, delta);
   else
      res = cuvk_mem_page_table_map(pt, alloc->range.start, alloc->range.size, delta);
   alloc->in_page_table = res == CUDA_SUCCESS;
   return res;
}

/* Undoes page_table_enter, once the GPU is done with the range.  Context
 * lock held. */
static void
page_table_leave(struct cuvk_context *ctx, struct cuvk_mem_alloc *alloc)
{
   if (!alloc->in_page_table || !ctx->page_table)
      return;
   if (cuvk_mem_kind_is_host(alloc->range.kind))
      cuvk_mem_page_table_remove_host(ctx->page_table, alloc->range.start);
   else
      cuvk_mem_page_table_unmap(ctx->page_table, alloc->range.start, alloc->range.size);
   alloc->in_page_table = false;
}

CUresult
cuvk_mem_page_table_get(struct cuvk_context *ctx, struct cuvk_mem_page_table **out)
{
   CUresult res = CUDA_SUCCESS;
   uint64_t va_base, va_size;

   pthread_mutex_lock(&ctx->lock);
   if (ctx->page_table)
      goto out;
   res = cuvk_mem_va_init(0);
   if (res != CUDA_SUCCESS)
      goto out;
   cuvk_mem_va_get_bounds(&va_base, &va_size);
   struct cuvk_mem_page_table *pt;
   res = cuvk_mem_page_table_create(ctx->vk, &ctx->dev->mem, va_base, va_size, &pt);
   if (res != CUDA_SUCCESS)
      goto out;
   /* Every allocation published so far is in the list (publish enters
    * new ones in the table under this same lock). */
   cuvk_list_for_each_entry(struct cuvk_mem_alloc, alloc, &ctx->allocations, link) {
      res = page_table_enter(pt, alloc);
      if (res != CUDA_SUCCESS) {
         cuvk_list_for_each_entry(struct cuvk_mem_alloc, a, &ctx->allocations, link)
            a->in_page_table = false;
         cuvk_mem_page_table_destroy(pt);
         goto out;
      }
   }
   ctx->page_table = pt;
out:
   *out = ctx->page_table;
   pthread_mutex_unlock(&ctx->lock);
   return res;
}

CUresult
cuvk_mem_alloc_publish(struct cuvk_mem_alloc *alloc)
{
   struct cuvk_context *ctx = alloc->ctx;

   if (mem_ranges_result != CUDA_SUCCESS)
      return mem_ranges_result;
   alloc->buffer_id = __atomic_fetch_add(&next_buffer_id, 1, __ATOMIC_RELAXED);
   if (!cuvk_mem_range_map_insert(ranges(), &alloc->range))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "range 0x%llx+%llu overlaps an existing allocation",
                        (unsigned long long)alloc->range.start, (unsigned long long)alloc->range.size);
   pthread_mutex_lock(&ctx->lock);
   /* This is the one place allocations become visible, so kernels see
    * exactly what copies see. */
   if (ctx->page_table) {
      CUresult res = page_table_enter(ctx->page_table, alloc);
      if (res != CUDA_SUCCESS) {
         pthread_mutex_unlock(&ctx->lock);
         cuvk_mem_range_map_remove(ranges(), &alloc->range);
         return res;
      }
   }
   cuvk_list_addtail(&alloc->link, &ctx->allocations);
   pthread_mutex_unlock(&ctx->lock);
   return CUDA_SUCCESS;
}

/* Gives a heap allocation's bytes back, destroying its block when that
 * emptied it; only once the GPU no longer uses them (or never did). */
static void
alloc_heap_free(struct cuvk_mem_alloc *alloc)
{
   struct cuvk_mem_block *block = alloc->block;
   struct cuvk_mem_block *dead = cuvk_mem_heap_free(block->heap, block, alloc->offset, alloc->reserved);
   if (dead)
      cuvk_mem_block_destroy(dead);
}

static void
alloc_release_now(struct cuvk_context *ctx, void *data)
{
   struct cuvk_mem_alloc *alloc = data;
   struct cuvk_mem_block *block = alloc->block;

   /* The GPU is done with the range: kernels may stop reaching it. */
   page_table_leave(ctx, alloc);
   if (block->heap) {
      alloc_heap_free(alloc);
   } else if (alloc->reserved) {
      /* A wrapped block owned by this allocation alone. */
      cuvk_mem_block_destroy(block);
   }
   if (alloc->on_release)
      alloc->on_release(alloc);
   if (alloc->pool)
      cuvk_mem_pool_released(alloc->pool, alloc->reserved);
   free(alloc);
}

/* Removes ptr's allocation of the given kind from the map if ptr is its
 * start; the caller then releases it (alloc_release_held).  Atomic against
 * a concurrent free of the same pointer.  The allocation comes with a
 * reference to its context, taken while the map still held it: a
 * context being destroyed keeps its allocations (its teardown frees
 * them), and one that is not waits for this free before it starts. */
static struct cuvk_mem_alloc *
alloc_unpublish(uint64_t ptr, enum cuvk_mem_kind kind, enum cuvk_mem_kind kind2, bool *dying)
{
   struct cuvk_mem_range_map *map = ranges();
   struct cuvk_mem_alloc *alloc = NULL;

   *dying = false;
   cuvk_mem_range_map_write_lock(map);
   struct cuvk_mem_range *range = cuvk_mem_range_map_lookup_locked(map, ptr);
   if (range && range->start == ptr && (range->kind == kind || range->kind == kind2)) {
      struct cuvk_mem_alloc *found = cuvk_container_of(range, struct cuvk_mem_alloc, range);
      if (cuvk_object_get(found->ctx, CUVK_OBJECT_CONTEXT)) {
         cuvk_mem_range_map_remove_locked(map, range);
         alloc = found;
      } else {
         *dying = true;
      }
   }
   cuvk_mem_range_map_write_unlock(map);
   return alloc;
}

/* cuvk_mem_alloc_release for what alloc_unpublish gave, then its
 * context's reference. */
static void
alloc_release_held(struct cuvk_mem_alloc *alloc)
{
   struct cuvk_context *ctx = alloc->ctx;
   if (alloc->pool)
      cuvk_mem_pool_freed(alloc->pool, alloc->reserved);
   cuvk_mem_alloc_release(alloc);
   cuvk_context_put(ctx);
}

/* The GPU may still be using the memory: the release waits for all work
 * recorded so far. */
void
cuvk_mem_alloc_release(struct cuvk_mem_alloc *alloc)
{
   struct cuvk_context *ctx = alloc->ctx;

   pthread_mutex_lock(&ctx->lock);
   cuvk_list_del(&alloc->link);
   alloc->release.fn = alloc_release_now;
   alloc->release.data = alloc;
   /* Heap memory is what later allocations wait to get back. */
   cuvk_submit_defer_bytes(ctx, &alloc->release, alloc->block->heap ? alloc->reserved : 0);
   pthread_mutex_unlock(&ctx->lock);
}

void
cuvk_memory_release_context(struct cuvk_context *ctx)
{
   struct cuvk_mem_range_map *map = ranges();

   cuvk_list_for_each_entry_safe(struct cuvk_mem_alloc, alloc, &ctx->allocations, link) {
      cuvk_mem_range_map_remove(map, &alloc->range);
      cuvk_list_del(&alloc->link);
      if (alloc->pool)
         cuvk_mem_pool_freed(alloc->pool, alloc->reserved);
      alloc_release_now(ctx, alloc);
   }
}

CUresult
cuvk_mem_wait_for_frees(struct cuvk_context *ctx, bool *waited)
{
   pthread_mutex_lock(&ctx->lock);
   *waited = cuvk_submit_has_deferred_frees(ctx);
   pthread_mutex_unlock(&ctx->lock);
   if (!*waited)
      return CUDA_SUCCESS;
   cuvk_logd("memory runs short with frees waiting for the GPU: waiting for all queued work");
   return cuvk_submit_wait_idle(ctx);
}

CUresult
cuvk_mem_reserve(struct cuvk_context *ctx, uint32_t type_index, VkDeviceSize size, const char *what)
{
   struct cuvk_mem_budget *budget = &ctx->dev->budget;
   CUresult res = cuvk_submit_throttle_frees(ctx);
   if (res != CUDA_SUCCESS)
      return res;
   res = cuvk_mem_budget_reserve(budget, type_index, size, NULL);
   if (res != CUDA_ERROR_OUT_OF_MEMORY)
      return res;
   bool waited;
   res = cuvk_mem_wait_for_frees(ctx, &waited);
   if (res != CUDA_SUCCESS)
      return res;
   return cuvk_mem_budget_reserve(budget, type_index, size, what);
}

CUresult
cuvk_mem_alloc_reserve_heap(struct cuvk_context *ctx, struct cuvk_mem_heap *heap, VkDeviceSize size,
                            VkDeviceSize alignment, const char *what, struct cuvk_mem_block **block,
                            VkDeviceSize *offset)
{
   /* Freed memory the GPU still holds comes back before more is taken:
    * a loop of alloc, queue, free stays within a bounded footprint. */
   CUresult res = cuvk_submit_throttle_frees(ctx);
   if (res != CUDA_SUCCESS)
      return res;
   res = cuvk_mem_heap_try_alloc(heap, size, alignment, NULL, block, offset);
   if (res != CUDA_ERROR_OUT_OF_MEMORY)
      return res;
   /* Out of memory is only the answer once every pending free is back. */
   bool waited;
   res = cuvk_mem_wait_for_frees(ctx, &waited);
   if (res != CUDA_SUCCESS)
      return res;
   return cuvk_mem_heap_try_alloc(heap, size, alignment, what, block, offset);
}

/* Counts an allocation of bytes in pool.  A pool at its maxSize first
 * gets back the frees the GPU has not yet passed, as the heap does when
 * it runs short (cuvk_mem_alloc_reserve_heap), and only then refuses. */
static CUresult
pool_count(struct cuvk_context *ctx, struct cuvk_mem_pool *pool, VkDeviceSize bytes, const char *entry)
{
   CUresult res = cuvk_mem_pool_allocated(pool, bytes, NULL);
   if (res != CUDA_ERROR_OUT_OF_MEMORY)
      return res;
   bool waited;
   res = cuvk_mem_wait_for_frees(ctx, &waited);
   if (res != CUDA_SUCCESS)
      return res;
   return cuvk_mem_pool_allocated(pool, bytes, entry);
}

/* pool: NULL, or the pool a stream-ordered allocation counts in, with a
 * reference that the allocation takes over (and that is given back when
 * it fails). */
static CUresult
alloc_from_heap(struct cuvk_context *ctx, struct cuvk_mem_heap *heap, enum cuvk_mem_kind kind,
                size_t size, VkDeviceSize alignment, const char *entry, struct cuvk_mem_pool *pool,
                struct cuvk_mem_alloc **out)
{
   struct cuvk_mem_alloc *alloc;
   CUresult res;

   alloc = calloc(1, sizeof(*alloc));
   if (!alloc) {
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for an allocation record");
      goto fail_put;
   }
   alloc->ctx = ctx;
   alloc->reserved = CUVK_ALIGN_UP((VkDeviceSize)size, alignment);
   if (alloc->reserved < size) {
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "size %zu is too large", size);
      goto fail_free;
   }

   /* Counted before the memory is taken, so that a pool's maxSize holds
    * however many threads allocate at once, and before it is published,
    * so that a free racing with the return (of a pointer the program
    * cannot know yet) finds it counted. */
   if (pool) {
      res = pool_count(ctx, pool, alloc->reserved, entry);
      if (res != CUDA_SUCCESS)
         goto fail_free;
   }

   res = cuvk_mem_alloc_reserve_heap(ctx, heap, alloc->reserved, alignment, entry, &alloc->block,
                                     &alloc->offset);
   if (res != CUDA_SUCCESS)
      goto fail_uncount;

   if (cuvk_mem_kind_in_host_heap(kind) && !alloc->block->map) {
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "the driver would not map pinned host memory");
      goto fail_heap;
   }

   alloc->range.kind = kind;
   alloc->range.size = size;
   alloc->range.start = kind == CUVK_MEM_DEVICE ?
      alloc->block->va + alloc->offset : (uint64_t)(uintptr_t)(alloc->block->map + alloc->offset);

   alloc->pool = pool;
   res = cuvk_mem_alloc_publish(alloc);
   if (res != CUDA_SUCCESS)
      goto fail_heap;
   *out = alloc;
   return CUDA_SUCCESS;

fail_heap:
   alloc_heap_free(alloc);
fail_uncount:
   if (pool) {
      /* Gives back the reference too. */
      cuvk_mem_pool_freed(pool, alloc->reserved);
      cuvk_mem_pool_released(pool, alloc->reserved);
      pool = NULL;
   }
fail_free:
   free(alloc);
fail_put:
   if (pool)
      cuvk_mem_pool_put(pool);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   struct cuvk_mem_alloc *alloc;
   CUresult res = cuvk_context_current("cuMemAlloc", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!dptr)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemAlloc: dptr is NULL");
   if (bytesize == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemAlloc: size is 0");

   res = alloc_from_heap(ctx, &ctx->device_heap, CUVK_MEM_DEVICE, bytesize, DEVICE_ALIGNMENT, "cuMemAlloc",
                         NULL, &alloc);
   if (res != CUDA_SUCCESS)
      return res;
   *dptr = alloc->range.start;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pitch, size_t width, size_t height,
                   unsigned int element_size)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_current("cuMemAllocPitch", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!dptr || !pitch)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemAllocPitch: NULL output");
   if (element_size != 4 && element_size != 8 && element_size != 16)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemAllocPitch: element size %u is not 4, 8 or 16",
                        element_size);
   if (width == 0 || height == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemAllocPitch: %zux%zu has no bytes", width, height);

   size_t row = CUVK_ALIGN_UP(width, (size_t)PITCH_ALIGNMENT);
   if (row < width || height > SIZE_MAX / row)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemAllocPitch: %zux%zu overflows", width, height);

   res = cuMemAlloc_v2(dptr, row * height);
   if (res == CUDA_SUCCESS)
      *pitch = row;
   return res;
}

/* Frees a device allocation once all work recorded so far, on every
 * stream of its context, is done: which also orders it after any
 * stream's earlier work, as cuMemFreeAsync wants. */
static CUresult
device_free(CUdeviceptr dptr, const char *entry)
{
   bool dying;
   struct cuvk_mem_alloc *alloc = alloc_unpublish(dptr, CUVK_MEM_DEVICE, CUVK_MEM_EXTERNAL, &dying);
   if (!alloc && !dying)
      alloc = alloc_unpublish(dptr, CUVK_MEM_MANAGED, CUVK_MEM_MANAGED, &dying);
   if (!alloc) {
      struct cuvk_mem_span span;
      if (dying)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                           "%s: 0x%llx belongs to a context being destroyed, which frees it", entry,
                           (unsigned long long)dptr);
      if (cuvk_mem_resolve(dptr, &span))
         return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                           "%s: 0x%llx is inside the allocation at 0x%llx, not its start", entry,
                           (unsigned long long)dptr, (unsigned long long)span.base);
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is not an allocation (already freed?)", entry,
                        (unsigned long long)dptr);
   }
   alloc_release_held(alloc);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemFree_v2(CUdeviceptr dptr)
{
   CUresult res = cuvk_driver_check("cuMemFree");
   if (res != CUDA_SUCCESS)
      return res;
   if (dptr == 0)
      return CUDA_SUCCESS;
   return device_free(dptr, "cuMemFree");
}

/*
 * The stream-ordered allocator.  Memory is handed out at once, as by
 * cuMemAlloc, from the stream's context's device heap, so it is valid
 * for any work ordered after the call (CUDA allows memory to be ready
 * earlier than the stream reaches the allocation).  cuMemFreeAsync
 * defers the release exactly as cuMemFree does: until every lane has
 * passed what was recorded before the free, which includes the stream's
 * own earlier work (and any other stream's).  The bytes return to the
 * context's heap then, for any later allocation; CUDA's reuse within a
 * stream before the GPU got there is not done.  The pool only counts
 * (mempool.c).
 *
 * The body of cuMemAllocAsync (handle NULL: the device's current pool,
 * cuDeviceSetMemPool) and cuMemAllocFromPoolAsync (*handle), checking
 * the stream, the output, the size and then the pool; entry names the
 * call in the log.
 */
static CUresult
alloc_async(CUdeviceptr *dptr, size_t bytesize, const CUmemoryPool *handle, CUstream hstream,
            const char *entry)
{
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   struct cuvk_mem_pool *pool;
   struct cuvk_mem_alloc *alloc;
   CUresult res = cuvk_stream_lookup(hstream, entry, &ctx, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   if (!dptr)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: dptr is NULL", entry);
   /* Real CUDA allocates nothing and succeeds (H100, measured by
    * tests/api/mempool_codes_probe.c), unlike cuMemAlloc's size 0. */
   if (bytesize == 0) {
      *dptr = 0;
      return CUDA_SUCCESS;
   }
   if (handle) {
      res = cuvk_mem_pool_get(*handle, entry, &pool);
      if (res != CUDA_SUCCESS)
         return res;
   } else {
      pool = cuvk_mem_pool_get_current(ctx->dev);
   }

   /* The pool's device must be the stream's: cuvk's devices share no
    * memory, so a pool of another device cannot serve this stream's
    * context (CUDA can, through peer access). */
   if (cuvk_mem_pool_device(pool) != ctx->dev) {
      res = cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: the pool is device %d's, the stream is device %d's", entry,
                       cuvk_mem_pool_device(pool)->ordinal, ctx->dev->ordinal);
      cuvk_mem_pool_put(pool);
      return res;
   }
   /* The allocation takes over the pool's reference. */
   res = alloc_from_heap(ctx, &ctx->device_heap, CUVK_MEM_DEVICE, bytesize, DEVICE_ALIGNMENT, entry, pool,
                         &alloc);
   if (res != CUDA_SUCCESS)
      return res;
   *dptr = alloc->range.start;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hstream)
{
   return alloc_async(dptr, bytesize, NULL, hstream, "cuMemAllocAsync");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool handle, CUstream hstream)
{
   return alloc_async(dptr, bytesize, &handle, hstream, "cuMemAllocFromPoolAsync");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemFreeAsync(CUdeviceptr dptr, CUstream hstream)
{
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   /* The stream must be valid even though the free waits for every
    * stream: a bad handle is the program's error to hear about. */
   CUresult res = cuvk_stream_lookup(hstream, "cuMemFreeAsync", &ctx, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   /* Freeing 0 does nothing and succeeds, as on real CUDA (H100,
    * measured) and as cudaFreeAsync(NULL) does. */
   if (dptr == 0)
      return CUDA_SUCCESS;
   return device_free(dptr, "cuMemFreeAsync");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
   struct cuvk_mem_span span;
   CUresult res = cuvk_driver_check("cuMemGetAddressRange");
   if (res != CUDA_SUCCESS)
      return res;
   if (!cuvk_mem_resolve(dptr, &span))
      return cuvk_error(CUDA_ERROR_NOT_FOUND, "cuMemGetAddressRange: 0x%llx is in no allocation",
                        (unsigned long long)dptr);
   if (pbase)
      *pbase = span.base;
   if (psize)
      *psize = span.size;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemGetInfo_v2(size_t *free_bytes, size_t *total_bytes)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_current("cuMemGetInfo", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!free_bytes || !total_bytes)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemGetInfo: NULL output");

   struct cuvk_device *dev = ctx->dev;
   uint32_t heap = dev->mem.memoryTypes[dev->device_type_index].heapIndex;
   VkDeviceSize avail, total;

   /* Frees whose work has completed are given back first.  Those still
    * waiting for the GPU hold their memory and are not counted free: an
    * allocation gets them back only by waiting. */
   pthread_mutex_lock(&ctx->lock);
   cuvk_submit_retire(ctx);
   pthread_mutex_unlock(&ctx->lock);

   /* Free is what cuMemAlloc can still take as new blocks: the heap's
    * limit less what every context of the device holds, and no more than
    * the driver's budget leaves (which counts every process's use, as
    * CUDA's figure does). */
   cuvk_mem_budget_query(&dev->budget, heap, &avail, &total);
   *free_bytes = avail;
   *total_bytes = total;
   return CUDA_SUCCESS;
}

/* Pinned host memory. */

CUVK_EXPORT CUresult CUDAAPI
cuMemHostAlloc(void **pp, size_t bytesize, unsigned int flags)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   struct cuvk_mem_alloc *alloc;
   CUresult res = cuvk_context_current("cuMemHostAlloc", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!pp)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemHostAlloc: pp is NULL");
   if (flags & ~HOSTALLOC_FLAGS)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemHostAlloc: unknown flags 0x%x", flags & ~HOSTALLOC_FLAGS);
   if (bytesize == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemHostAlloc: size is 0");

   res = alloc_from_heap(ctx, &ctx->host_heap, CUVK_MEM_HOST, bytesize, HOST_ALIGNMENT, "cuMemHostAlloc", NULL,
                         &alloc);
   if (res != CUDA_SUCCESS)
      return res;
   /* Under unified addressing every pinned allocation is mapped. */
   alloc->host_flags = flags | CU_MEMHOSTALLOC_DEVICEMAP;
   *pp = (void *)(uintptr_t)alloc->range.start;
   return CUDA_SUCCESS;
}

/* Managed memory is pinned host memory from the same heap: the host
 * reads and writes it at the returned address, which is also its device
 * address (kernels reach it through the page table's host ranges, copies
 * through the heap's buffer).  That is correct on every Vulkan device,
 * with no migration to get wrong; on a discrete GPU kernels pay the bus
 * for every access (docs/design.md, "Managed memory"). */
CUVK_EXPORT CUresult CUDAAPI
cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   struct cuvk_mem_alloc *alloc;
   CUresult res = cuvk_context_current("cuMemAllocManaged", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!dptr)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemAllocManaged: dptr is NULL");
   if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "cuMemAllocManaged: flags 0x%x are not CU_MEM_ATTACH_GLOBAL or CU_MEM_ATTACH_HOST", flags);
   if (bytesize == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemAllocManaged: size is 0");

   res = alloc_from_heap(ctx, &ctx->host_heap, CUVK_MEM_MANAGED, bytesize, HOST_ALIGNMENT, "cuMemAllocManaged",
                         NULL, &alloc);
   if (res != CUDA_SUCCESS)
      return res;
   /* The attachment only matters where the device may touch managed
    * memory while the host does (concurrentManagedAccess), which cuvk
    * does not claim; it is kept for nothing else. */
   alloc->host_flags = flags;
   *dptr = alloc->range.start;
   return CUDA_SUCCESS;
}

/* Checks that [ptr, ptr + count) lies in one managed allocation, for the
 * managed-memory hints. */
static CUresult
managed_range_check(CUdeviceptr ptr, size_t count, const char *entry, struct cuvk_mem_span *span)
{
   if (count == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: count is 0", entry);
   if (!cuvk_mem_resolve(ptr, span) || span->kind != CUVK_MEM_MANAGED)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is not managed memory", entry,
                        (unsigned long long)ptr);
   if (count > span->avail)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx+%zu runs past the end of its allocation", entry,
                        (unsigned long long)ptr, count);
   return CUDA_SUCCESS;
}

/* A location a hint may name: a device that exists, or the host.  CUDA
 * asks a device destination to have concurrentManagedAccess, which cuvk
 * reports 0; the hint being a no-op here, it is accepted rather than
 * failing programs that prefetch unconditionally. */
static CUresult
managed_location_check(CUmemLocation location, const char *entry)
{
   switch (location.type) {
   case CU_MEM_LOCATION_TYPE_DEVICE: {
      struct cuvk_device *dev;
      return cuvk_device_get(location.id, entry, &dev);
   }
   case CU_MEM_LOCATION_TYPE_HOST:
   case CU_MEM_LOCATION_TYPE_HOST_NUMA:
   case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
      return CUDA_SUCCESS;
   default:
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: location type %d is not valid here", entry,
                        (int)location.type);
   }
}

/* The legacy CUdevice form of a location: CU_DEVICE_CPU is the host. */
static CUmemLocation
managed_location_of_device(CUdevice device)
{
   CUmemLocation loc = {0};
   if (device == CU_DEVICE_CPU) {
      loc.type = CU_MEM_LOCATION_TYPE_HOST;
   } else {
      loc.type = CU_MEM_LOCATION_TYPE_DEVICE;
      loc.id = device;
   }
   return loc;
}

/* A prefetch is a hint about where pages should be before later work;
 * cuvk's managed memory never moves, so after checking its arguments
 * (the stream included) there is nothing to order on the stream. */
CUVK_EXPORT CUresult CUDAAPI
cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags,
                      CUstream hStream)
{
   struct cuvk_context *ctx;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   struct cuvk_mem_span span;
   CUresult res = cuvk_stream_lookup(hStream, "cuMemPrefetchAsync", &ctx, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   if (flags != 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPrefetchAsync: flags 0x%x must be 0", flags);
   res = managed_location_check(location, "cuMemPrefetchAsync");
   if (res != CUDA_SUCCESS)
      return res;
   return managed_range_check(devPtr, count, "cuMemPrefetchAsync", &span);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemPrefetchAsync_v2_ptsz(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags,
                           CUstream hStream)
{
   return cuMemPrefetchAsync_v2(devPtr, count, location, flags, hStream ? hStream : CU_STREAM_PER_THREAD);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream)
{
   return cuMemPrefetchAsync_v2(devPtr, count, managed_location_of_device(dstDevice), 0, hStream);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemPrefetchAsync_ptsz(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream)
{
   return cuMemPrefetchAsync_v2(devPtr, count, managed_location_of_device(dstDevice), 0,
                                hStream ? hStream : CU_STREAM_PER_THREAD);
}

/* Advice changes where CUDA would migrate pages to; cuvk never migrates,
 * so valid advice changes nothing and is not kept (cuMemRangeGetAttribute
 * reports what the memory is, not the advice). */
CUVK_EXPORT CUresult CUDAAPI
cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUmemLocation location)
{
   struct cuvk_mem_span span;
   CUresult res = cuvk_driver_check("cuMemAdvise");
   if (res != CUDA_SUCCESS)
      return res;
   switch (advice) {
   case CU_MEM_ADVISE_SET_READ_MOSTLY:
   case CU_MEM_ADVISE_UNSET_READ_MOSTLY:
   case CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
      /* The location is ignored for these. */
      break;
   case CU_MEM_ADVISE_SET_PREFERRED_LOCATION:
   case CU_MEM_ADVISE_SET_ACCESSED_BY:
   case CU_MEM_ADVISE_UNSET_ACCESSED_BY:
      res = managed_location_check(location, "cuMemAdvise");
      break;
   default:
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemAdvise: advice %d is not a CUmem_advise", (int)advice);
   }
   if (res != CUDA_SUCCESS)
      return res;
   return managed_range_check(devPtr, count, "cuMemAdvise", &span);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device)
{
   return cuMemAdvise_v2(devPtr, count, advice, managed_location_of_device(device));
}

/* What a managed range is: never read-mostly, no preferred location and
 * no accessed-by device (advice is not kept), and never prefetched
 * anywhere, which CUDA reports as CU_DEVICE_INVALID / an invalid
 * location. */
CUVK_EXPORT CUresult CUDAAPI
cuMemRangeGetAttribute(void *data, size_t dataSize, CUmem_range_attribute attribute, CUdeviceptr devPtr,
                       size_t count)
{
   struct cuvk_mem_span span;
   CUresult res = cuvk_driver_check("cuMemRangeGetAttribute");
   if (res != CUDA_SUCCESS)
      return res;
   if (!data)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemRangeGetAttribute: data is NULL");
   res = managed_range_check(devPtr, count, "cuMemRangeGetAttribute", &span);
   if (res != CUDA_SUCCESS)
      return res;
   switch (attribute) {
   case CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY:
   case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE:
   case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE:
   case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID:
   case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID:
   case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION:
   case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION:
      if (dataSize != 4)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemRangeGetAttribute: attribute %d needs dataSize 4, not %zu",
                           (int)attribute, dataSize);
      if (attribute == CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY ||
          attribute == CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE ||
          attribute == CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE)
         *(int *)data = 0; /* false, CU_MEM_LOCATION_TYPE_INVALID */
      else
         *(int *)data = CU_DEVICE_INVALID;
      return CUDA_SUCCESS;
   case CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY:
      if (dataSize == 0 || dataSize % 4)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                           "cuMemRangeGetAttribute: ACCESSED_BY needs a non-zero multiple of 4 bytes, not %zu",
                           dataSize);
      for (size_t i = 0; i < dataSize / 4; i++)
         ((int *)data)[i] = CU_DEVICE_INVALID;
      return CUDA_SUCCESS;
   default:
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemRangeGetAttribute: %d is not a range attribute",
                        (int)attribute);
   }
}

CUVK_EXPORT CUresult CUDAAPI
cuMemAllocHost_v2(void **pp, size_t bytesize)
{
   return cuMemHostAlloc(pp, bytesize, 0);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemFreeHost(void *p)
{
   CUresult res = cuvk_driver_check("cuMemFreeHost");
   if (res != CUDA_SUCCESS)
      return res;
   bool dying;
   struct cuvk_mem_alloc *alloc = alloc_unpublish((uint64_t)(uintptr_t)p, CUVK_MEM_HOST, CUVK_MEM_HOST, &dying);
   if (!alloc)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemFreeHost: %p %s", p,
                        dying ? "belongs to a context being destroyed, which frees it"
                              : "is not from cuMemHostAlloc");
   alloc_release_held(alloc);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int flags)
{
   struct cuvk_mem_span span;
   CUresult res = cuvk_driver_check("cuMemHostGetDevicePointer");
   if (res != CUDA_SUCCESS)
      return res;
   if (!pdptr || !p)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemHostGetDevicePointer: NULL argument");
   if (flags != 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemHostGetDevicePointer: flags must be 0");
   if (!cuvk_mem_resolve((uint64_t)(uintptr_t)p, &span) ||
       (span.kind != CUVK_MEM_HOST && span.kind != CUVK_MEM_REGISTERED))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemHostGetDevicePointer: %p is not pinned host memory", p);
   *pdptr = (CUdeviceptr)(uintptr_t)p;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemHostGetFlags(unsigned int *pflags, void *p)
{
   struct cuvk_mem_span span;
   CUresult res = cuvk_driver_check("cuMemHostGetFlags");
   if (res != CUDA_SUCCESS)
      return res;
   if (!pflags)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemHostGetFlags: pflags is NULL");
   if (!cuvk_mem_resolve((uint64_t)(uintptr_t)p, &span) ||
       (span.kind != CUVK_MEM_HOST && span.kind != CUVK_MEM_REGISTERED))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemHostGetFlags: %p is not pinned host memory", p);
   *pflags = span.host_flags;
   return CUDA_SUCCESS;
}

/* Checks that every page of [start, end) is mapped in this process and
 * readable, and writable too unless read_only: importing a range with a
 * hole or the wrong protection succeeds in the driver and the first copy
 * then faults in one of its threads (issue 15).  /proc/self/maps is the
 * one source that tells both mapping and protection without touching the
 * pages (mincore tells only the first).  Its lines are sorted by address;
 * the walk follows the range from mapping to mapping and stops at the
 * first gap or page without the access.  On failure *bad is the first
 * address found wanting and *why what is wrong with it. */
static bool
host_range_accessible(uint64_t start, uint64_t end, bool read_only, uint64_t *bad, const char **why)
{
   FILE *maps = fopen("/proc/self/maps", "re");
   if (!maps) {
      /* Without /proc (a sandbox) the range cannot be checked; the
       * import goes ahead as it did before the check. */
      cuvk_log_once(CUVK_LOG_WARN, "/proc/self/maps cannot be read, so host ranges cuvk imports "
                    "(cuMemHostRegister, CUVK_PAGEABLE_PATH=import) are not checked for holes or protection");
      return true;
   }
   char *line = NULL;
   size_t cap = 0;
   uint64_t covered = start;
   *why = "not mapped";
   while (covered < end && getline(&line, &cap, maps) > 0) {
      unsigned long long lo, hi;
      char perms[5];
      if (sscanf(line, "%llx-%llx %4s", &lo, &hi, perms) != 3)
         continue;
      if (hi <= covered)
         continue;
      if (lo > covered)
         break; /* a hole at covered */
      if (perms[0] != 'r' || (!read_only && perms[1] != 'w')) {
         *why = perms[0] != 'r' ? "not readable" : "read-only (register it with CU_MEMHOSTREGISTER_READ_ONLY)";
         break;
      }
      covered = hi;
   }
   free(line);
   fclose(maps);
   *bad = covered;
   return covered >= end;
}

/* The memory type host pages at base import as: the pinned type where
 * the driver offers it, else the first it offers; false for none. */
static bool
host_pointer_type(struct cuvk_context *ctx, uint64_t base, uint32_t *type)
{
   VkMemoryHostPointerPropertiesEXT host_props = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT,
   };
   VkResult vr = ctx->GetMemoryHostPointerPropertiesEXT(ctx->vk,
                                                        VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
                                                        (void *)(uintptr_t)base, &host_props);
   if (vr != VK_SUCCESS || host_props.memoryTypeBits == 0)
      return false;
   *type = ctx->dev->host_type_index;
   if (!(host_props.memoryTypeBits & (1u << *type)))
      *type = (uint32_t)__builtin_ctz(host_props.memoryTypeBits);
   return true;
}

/* Memory over the size bytes of host pages from base (aligned). */
static VkResult
host_pointer_import(struct cuvk_context *ctx, uint64_t base, VkDeviceSize size, uint32_t type,
                    VkDeviceMemory *memory)
{
   VkImportMemoryHostPointerInfoEXT import = {
      .sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT,
      .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
      .pHostPointer = (void *)(uintptr_t)base,
   };
   return cuvk_mem_allocate(ctx->vk, size, type, &import, memory);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int flags)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   struct cuvk_mem_alloc *alloc;
   struct cuvk_mem_span span;
   VkDeviceMemory memory;
   VkResult vr;
   CUresult res = cuvk_context_current("cuMemHostRegister", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!p || bytesize == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemHostRegister: NULL pointer or size 0");
   if (flags & ~HOSTREGISTER_FLAGS)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemHostRegister: unknown flags 0x%x",
                        flags & ~HOSTREGISTER_FLAGS);
   if (flags & CU_MEMHOSTREGISTER_IOMEMORY)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED,
                        "cuMemHostRegister: IOMEMORY registration is not supported by cuvk");
   if (!ctx->dev->has_external_memory_host)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED,
                        "cuMemHostRegister: %s has no VK_EXT_external_memory_host",
                        ctx->dev->props.deviceName);

   uint64_t start = (uint64_t)(uintptr_t)p;
   if (cuvk_mem_is_device_address(start))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemHostRegister: %p is a device address", p);
   if (start + bytesize < start)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemHostRegister: range wraps around");
   /* Checked before the import: a driver may refuse to import pages it
    * already has (NVIDIA's does), which would hide the real answer. */
   uint64_t next_start = 0;
   if (cuvk_mem_resolve(start, &span) ||
       (cuvk_mem_range_map_find_next(ranges(), start, range_start_of, &next_start) &&
        next_start < start + bytesize))
      return cuvk_error(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                        "cuMemHostRegister: %p+%zu overlaps memory that is already pinned", p, bytesize);

   /* Vulkan imports whole aligned pages; cover the caller's range with
    * them and point the allocation at the caller's first byte. */
   VkDeviceSize align = CUVK_MAX(ctx->dev->min_imported_host_alignment, (VkDeviceSize)4096);
   uint64_t base = start & ~(align - 1);
   uint64_t end = CUVK_ALIGN_UP(start + bytesize, align);

   /* Every page the import covers must be there, with the access the
    * flags promise the device. */
   uint64_t bad;
   const char *why;
   if (!host_range_accessible(base, end, flags & CU_MEMHOSTREGISTER_READ_ONLY, &bad, &why))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemHostRegister: %p+%zu: the page at 0x%llx is %s", p,
                        bytesize, (unsigned long long)bad, why);

   if ((flags & CU_MEMHOSTREGISTER_READ_ONLY) && !ctx->dev->read_only_host_import)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "cuMemHostRegister: %s cannot import read-only pages",
                        ctx->dev->props.deviceName);

   uint32_t type;
   if (!host_pointer_type(ctx, base, &type))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemHostRegister: the driver cannot import %p", p);
   if (end - base > cuvk_device_max_allocation(ctx->dev, type))
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuMemHostRegister: %zu bytes exceed the largest allocation "
                        "the device allows", bytesize);

   vr = host_pointer_import(ctx, base, end - base, type, &memory);
   if (vr != VK_SUCCESS && (flags & CU_MEMHOSTREGISTER_READ_ONLY))
      /* NVIDIA's driver refuses pages the process cannot write; real CUDA
       * answers READ_ONLY where the device lacks it with NOT_SUPPORTED. */
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "cuMemHostRegister: %s cannot import read-only pages (%s)",
                        ctx->dev->props.deviceName, cuvk_vk_result_name(vr));
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "cuMemHostRegister: vkAllocateMemory importing host memory");

   alloc = calloc(1, sizeof(*alloc));
   if (!alloc) {
      vkFreeMemory(ctx->vk, memory, NULL);
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for an allocation record");
   }
   res = cuvk_mem_block_wrap(ctx->vk, memory, VK_NULL_HANDLE, end - base, false,
                             VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, &alloc->block);
   if (res != CUDA_SUCCESS) {
      vkFreeMemory(ctx->vk, memory, NULL);
      free(alloc);
      return res;
   }
   alloc->block->map = (uint8_t *)(uintptr_t)base;
   alloc->block->cached = true; /* ordinary host memory */
   alloc->ctx = ctx;
   alloc->offset = start - base;
   alloc->reserved = end - base;
   alloc->host_flags = flags | CU_MEMHOSTREGISTER_DEVICEMAP;
   alloc->range.kind = CUVK_MEM_REGISTERED;
   alloc->range.start = start;
   alloc->range.size = bytesize;

   res = cuvk_mem_alloc_publish(alloc);
   if (res != CUDA_SUCCESS) {
      cuvk_mem_block_destroy(alloc->block);
      free(alloc);
      return res == CUDA_ERROR_INVALID_VALUE ? CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED : res;
   }
   return CUDA_SUCCESS;
}

/* The pages of a pageable copy are the caller's, borrowed for the one
 * copy: nothing records them, and any refusal just sends the copy
 * through staging, so each is a debug line, not an error. */
bool
cuvk_mem_import_pageable(struct cuvk_context *ctx, const void *ptr, size_t size, struct cuvk_mem_block **out,
                         VkDeviceSize *offset)
{
   struct cuvk_mem_span span;
   VkDeviceMemory memory;
   VkResult vr;

   if (!ctx->dev->has_external_memory_host || !ctx->GetMemoryHostPointerPropertiesEXT)
      return false;
   VkDeviceSize align = CUVK_MAX(ctx->dev->min_imported_host_alignment, (VkDeviceSize)4096);
   uint64_t start = (uint64_t)(uintptr_t)ptr;
   uint64_t base = start & ~(align - 1);
   uint64_t end = CUVK_ALIGN_UP(start + size, align);

   /* NVIDIA's driver refuses pages it has imported already, and any
    * read-only page, which worse leaves the whole mapping unimportable
    * for the process (device_policy.h): ask only for writable pages that
    * no registration or pinned allocation shares. */
   uint64_t next_start = 0, bad;
   const char *why;
   if (cuvk_mem_resolve(base, &span) ||
       (cuvk_mem_range_map_find_next(ranges(), base, range_start_of, &next_start) && next_start < end)) {
      cuvk_logd("pageable copy at %p: its pages meet pinned memory; staged", ptr);
      return false;
   }
   if (!host_range_accessible(base, end, false, &bad, &why)) {
      cuvk_logd("pageable copy at %p: the page at 0x%llx is %s; staged", ptr, (unsigned long long)bad, why);
      return false;
   }

   uint32_t type;
   if (!host_pointer_type(ctx, base, &type)) {
      cuvk_logd("pageable copy at %p: the driver offers no memory type for it; staged", ptr);
      return false;
   }
   if (end - base > cuvk_device_max_allocation(ctx->dev, type))
      return false;

   vr = host_pointer_import(ctx, base, end - base, type, &memory);
   if (vr != VK_SUCCESS) {
      cuvk_logd("pageable copy at %p: importing %llu bytes failed (%s); staged", ptr,
                (unsigned long long)(end - base), cuvk_vk_result_name(vr));
      return false;
   }
   if (cuvk_mem_block_wrap(ctx->vk, memory, VK_NULL_HANDLE, end - base, false,
                           VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, out) != CUDA_SUCCESS) {
      vkFreeMemory(ctx->vk, memory, NULL);
      return false;
   }
   *offset = start - base;
   return true;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemHostUnregister(void *p)
{
   CUresult res = cuvk_driver_check("cuMemHostUnregister");
   if (res != CUDA_SUCCESS)
      return res;
   if (!p)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemHostUnregister: p is NULL");
   bool dying;
   struct cuvk_mem_alloc *alloc =
      alloc_unpublish((uint64_t)(uintptr_t)p, CUVK_MEM_REGISTERED, CUVK_MEM_REGISTERED, &dying);
   if (!alloc)
      return cuvk_error(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "cuMemHostUnregister: %p %s", p,
                        dying ? "belongs to a context being destroyed, which unregisters it"
                              : "is not the start of a registered range");
   /* The memory is the caller's, free to unmap once this returns: work
    * already queued on it has to finish first, as CUDA makes it. */
   res = cuvk_submit_wait_idle(alloc->ctx);
   alloc_release_held(alloc);
   return res;
}

/* One attribute of the memory span names (NULL: a pointer cuvk does not
 * know, which only the plural call accepts, answering the zero values
 * CUDA documents for it).  strict: the singular call, which refuses a
 * host pointer for device memory where the plural one answers NULL. */
static CUresult
pointer_attribute(const char *entry, bool strict, const struct cuvk_mem_span *span, CUdeviceptr ptr,
                  CUpointer_attribute attribute, void *data)
{
   bool host = span && cuvk_mem_kind_is_host(span->kind);
   bool managed = span && span->kind == CUVK_MEM_MANAGED;

   switch (attribute) {
   case CU_POINTER_ATTRIBUTE_CONTEXT:
      *(CUcontext *)data = span ? (CUcontext)span->ctx : NULL;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
      /* CUDA reports managed memory as device memory (it has a host
       * pointer all the same). */
      *(unsigned int *)data = !span ? 0 : host && !managed ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
      *(CUdeviceptr *)data = span ? ptr : 0;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_HOST_POINTER:
      if (strict && span && !host)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: device memory at 0x%llx has no host pointer", entry,
                           (unsigned long long)ptr);
      *(void **)data = host ? (void *)(uintptr_t)ptr : NULL;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_BUFFER_ID:
      *(unsigned long long *)data = span ? span->buffer_id : 0;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_IS_MANAGED:
      *(int *)data = managed;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
   case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
      *(int *)data = 0;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
   case CU_POINTER_ATTRIBUTE_MAPPED:
      /* Every command is ordered after every earlier one, so memory
       * operations on any allocation are synchronous in CUDA's sense. */
      *(int *)data = span != NULL;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
      /* -2 for memory of no device, as the runtime's
       * cudaPointerAttributes.device documents. */
      *(int *)data = span ? span->ctx->dev->ordinal : -2;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
      *(CUdeviceptr *)data = span ? span->base : 0;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
      *(size_t *)data = span ? span->size : 0;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
      *(unsigned long long *)data = 0;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
      *(unsigned int *)data = span ? CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE : 0;
      return CUDA_SUCCESS;
   case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
      *(CUmemoryPool *)data = span ? (CUmemoryPool)span->pool : NULL;
      return CUDA_SUCCESS;
   default:
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: attribute %d is not supported", entry, (int)attribute);
   }
}

CUVK_EXPORT CUresult CUDAAPI
cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr)
{
   struct cuvk_mem_span span;
   CUresult res = cuvk_driver_check("cuPointerGetAttribute");
   if (res != CUDA_SUCCESS)
      return res;
   if (!data)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuPointerGetAttribute: data is NULL");
   if (!cuvk_mem_resolve(ptr, &span))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "cuPointerGetAttribute: 0x%llx is not memory cuvk allocated or registered",
                        (unsigned long long)ptr);
   return pointer_attribute("cuPointerGetAttribute", true, &span, ptr, attribute, data);
}

/* Unlike the singular call, a pointer cuvk does not know is no error: every
 * attribute gets its zero value, as CUDA documents. */
CUVK_EXPORT CUresult CUDAAPI
cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes, void **data, CUdeviceptr ptr)
{
   struct cuvk_mem_span span;
   CUresult res = cuvk_driver_check("cuPointerGetAttributes");
   if (res != CUDA_SUCCESS)
      return res;
   if (numAttributes == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuPointerGetAttributes: numAttributes is 0");
   if (!attributes || !data)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuPointerGetAttributes: %s is NULL",
                        attributes ? "data" : "attributes");
   for (unsigned i = 0; i < numAttributes; i++)
      if (!data[i])
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuPointerGetAttributes: data[%u] is NULL", i);
   bool known = cuvk_mem_resolve(ptr, &span);
   for (unsigned i = 0; i < numAttributes; i++) {
      res = pointer_attribute("cuPointerGetAttributes", false, known ? &span : NULL, ptr, attributes[i],
                              data[i]);
      if (res != CUDA_SUCCESS)
         return res;
   }
   return CUDA_SUCCESS;
}

/* Only CU_POINTER_ATTRIBUTE_SYNC_MEMOPS may be set, and cuvk's memory
 * operations are synchronous in its sense on every allocation already:
 * every command is ordered after every earlier one.  So setting it is
 * accepted on memory cuvk knows and changes nothing. */
CUVK_EXPORT CUresult CUDAAPI
cuPointerSetAttribute(const void *value, CUpointer_attribute attribute, CUdeviceptr ptr)
{
   struct cuvk_mem_span span;
   CUresult res = cuvk_driver_check("cuPointerSetAttribute");
   if (res != CUDA_SUCCESS)
      return res;
   if (!value)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuPointerSetAttribute: value is NULL");
   if (attribute != CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuPointerSetAttribute: attribute %d cannot be set "
                        "(only CU_POINTER_ATTRIBUTE_SYNC_MEMOPS can)", (int)attribute);
   if (!cuvk_mem_resolve(ptr, &span))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "cuPointerSetAttribute: 0x%llx is not memory cuvk allocated or registered",
                        (unsigned long long)ptr);
   if (!*(const unsigned int *)value)
      cuvk_logi("cuPointerSetAttribute: SYNC_MEMOPS 0 on 0x%llx changes nothing: cuvk orders every "
                "memory operation", (unsigned long long)ptr);
   return CUDA_SUCCESS;
}
