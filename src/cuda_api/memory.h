/*
 * Allocations behind CUdeviceptr and pinned host pointers.
 *
 * Every allocation (device memory, pinned or registered host memory, a
 * mapped external buffer) is one range in a process-wide range map, so any
 * pointer, interior ones included, resolves to the block that backs it.
 * Device pointers live in cuvk's reserved device address space; pinned
 * host pointers are their own device pointers, as under CUDA's unified
 * addressing, and the reservation guarantees the two never collide.
 */
#ifndef CUVK_API_MEMORY_H
#define CUVK_API_MEMORY_H

#include <stdbool.h>
#include <stdint.h>
#include <cuda.h>
#include <vulkan/vulkan.h>

#include "cuda_api/submit.h"
#include "mem/block_heap.h"
#include "mem/range_map.h"
#include "util/list.h"

struct cuvk_context;
struct cuvk_mem_pool;

enum cuvk_mem_kind {
   CUVK_MEM_DEVICE = 1,   /* cuMemAlloc and friends */
   CUVK_MEM_HOST,         /* cuMemAllocHost / cuMemHostAlloc */
   CUVK_MEM_REGISTERED,   /* cuMemHostRegister */
   CUVK_MEM_EXTERNAL,     /* cuExternalMemoryGetMappedBuffer */
   CUVK_MEM_VMM,          /* cuMemMap */
   CUVK_MEM_MANAGED,      /* cuMemAllocManaged: pinned host memory too */
};

/* Memory the host reaches at its own address: pinned, registered and
 * managed allocations, which kernels reach through the page table's host
 * ranges. */
static inline bool
cuvk_mem_kind_is_host(enum cuvk_mem_kind kind)
{
   return kind == CUVK_MEM_HOST || kind == CUVK_MEM_REGISTERED || kind == CUVK_MEM_MANAGED;
}

/* Allocations carved from the context's pinned host heap. */
static inline bool
cuvk_mem_kind_in_host_heap(enum cuvk_mem_kind kind)
{
   return kind == CUVK_MEM_HOST || kind == CUVK_MEM_MANAGED;
}

struct cuvk_mem_alloc {
   struct cuvk_mem_range range;  /* start = the pointer, size = as asked */
   struct cuvk_context *ctx;
   struct cuvk_list link;        /* in ctx->allocations */
   struct cuvk_mem_block *block;
   VkDeviceSize offset;          /* of range.start within block */
   VkDeviceSize reserved;        /* bytes taken from the block's heap */
   unsigned host_flags;
   unsigned access_flags;        /* CUmemAccess_flags of a cuMemMap range */
   uint64_t buffer_id;           /* CU_POINTER_ATTRIBUTE_BUFFER_ID */
   bool in_page_table;           /* entered in ctx->page_table */
   struct cuvk_deferred release;
   /* Called at release for allocations that keep something else alive
    * (a mapped external buffer keeps its import). */
   void (*on_release)(struct cuvk_mem_alloc *alloc);
   void *owner;
   /* The pool a cuMemAllocAsync allocation counts in, else NULL. */
   struct cuvk_mem_pool *pool;
};

/* What a pointer resolves to, copied out while the range is locked. */
struct cuvk_mem_span {
   struct cuvk_context *ctx;
   enum cuvk_mem_kind kind;
   uint64_t base;              /* the allocation's start and size */
   uint64_t size;
   VkDeviceAddress address;    /* device address of the pointer */
   VkBuffer buffer;            /* a buffer holding the pointer ... */
   VkDeviceSize buffer_offset; /* ... at this offset */
   uint8_t *map;               /* host view of the pointer, or NULL */
   bool cached;                /* map is cached (cheap to read) */
   uint64_t avail;             /* bytes from the pointer to the end */
   uint64_t buffer_id;
   unsigned host_flags;
   struct cuvk_mem_pool *pool; /* cuvk_mem_alloc.pool */
};

/* The pool's counts (mempool.c): an allocation of bytes made, freed by
 * the program, released once the GPU is done with it. */
void cuvk_mem_pool_allocated(struct cuvk_mem_pool *pool, uint64_t bytes);
void cuvk_mem_pool_freed(struct cuvk_mem_pool *pool, uint64_t bytes);
void cuvk_mem_pool_released(struct cuvk_mem_pool *pool, uint64_t bytes);

/* False when ptr lies in no allocation. */
bool cuvk_mem_resolve(uint64_t ptr, struct cuvk_mem_span *out);

/* True for host memory registered with CU_MEMHOSTREGISTER_READ_ONLY,
 * whose pages may be read-only: nothing may write to it. */
static inline bool
cuvk_mem_span_read_only(const struct cuvk_mem_span *span)
{
   return span->kind == CUVK_MEM_REGISTERED && (span->host_flags & CU_MEMHOSTREGISTER_READ_ONLY);
}

/* As cuvk_mem_resolve, and where ptr lies in a cuMemMap mapping, avail
 * goes on through the mappings that follow as long as they continue the
 * same buffer (a sparse reservation's), up to want bytes: the span is
 * then one run a single command can cover. */
bool cuvk_mem_resolve_run(uint64_t ptr, uint64_t want, struct cuvk_mem_span *out);

/* True when ptr is inside cuvk's device address space (so it can never be
 * a host pointer). */
bool cuvk_mem_is_device_address(uint64_t ptr);

/* Takes size bytes from heap for ctx, with back-pressure: first waits
 * while too much freed memory waits for the GPU, and when the heap's
 * limit is reached, waits for every pending free before answering
 * CUDA_ERROR_OUT_OF_MEMORY, logged naming what (the API call).  Context
 * lock not held. */
CUresult cuvk_mem_alloc_reserve_heap(struct cuvk_context *ctx, struct cuvk_mem_heap *heap,
                                     VkDeviceSize size, VkDeviceSize alignment, const char *what,
                                     struct cuvk_mem_block **block, VkDeviceSize *offset);

/* Counts size bytes of memory type type_index against the device's
 * budget (mem/budget.h) for memory cuvk allocates outside the block heaps
 * (cuMemCreate, arrays); out of memory, logged naming what, only once
 * pending frees are back.  Context lock not held. */
CUresult cuvk_mem_reserve(struct cuvk_context *ctx, uint32_t type_index, VkDeviceSize size,
                          const char *what);

/* Waits for all of ctx's queued work when freed memory waits for it;
 * *waited says whether it did (then trying again may succeed).  Context
 * lock not held. */
CUresult cuvk_mem_wait_for_frees(struct cuvk_context *ctx, bool *waited);

/* Enters a fully set-up allocation in the range map and the context's
 * list; CUDA_ERROR_INVALID_VALUE if it overlaps one already there. */
CUresult cuvk_mem_alloc_publish(struct cuvk_mem_alloc *alloc);

/* The process-wide range map; for callers (virtual memory) that edit
 * several ranges under one write lock. */
struct cuvk_mem_range_map *cuvk_mem_ranges(void);

/* Releases an allocation already removed from the range map, once the
 * GPU is done with everything recorded so far. */
void cuvk_mem_alloc_release(struct cuvk_mem_alloc *alloc);

/* The context's kernel page table (mem/page_table.h), made at first
 * call and filled from every live allocation; publish and release keep
 * it current from then on.  Context lock not held. */
struct cuvk_mem_page_table;
CUresult cuvk_mem_page_table_get(struct cuvk_context *ctx, struct cuvk_mem_page_table **out);

/* Imports the host pages under [ptr, ptr + size), pageable memory cuvk
 * does not know, for one copy (VK_EXT_external_memory_host): *out is a
 * block over the whole pages, ptr at *offset in its buffer, to be
 * destroyed (cuvk_mem_block_destroy) once the GPU is done with it.  False,
 * with a debug line, where the driver cannot have them (no extension,
 * pages read-only, unmapped or already pinned, a refusal). */
bool cuvk_mem_import_pageable(struct cuvk_context *ctx, const void *ptr, size_t size,
                              struct cuvk_mem_block **out, VkDeviceSize *offset);

/* Frees every allocation of a context being destroyed (GPU idle). */
void cuvk_memory_release_context(struct cuvk_context *ctx);

#endif
