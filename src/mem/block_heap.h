/*
 * Physical memory for one VkDevice and one memory type.
 *
 * Small allocations are carved out of large blocks; an allocation above
 * half a block gets a block of its own (a dedicated block), as VMA does.
 * Every block is one VkDeviceMemory with one VkBuffer spanning it, created
 * with SHADER_DEVICE_ADDRESS so shaders reach any byte through a device
 * address, and a range of cuvk's device address space (va) so that
 * CUdeviceptr = block->va + offset.  Host-visible blocks are mapped once
 * for their whole life.  A heap may send its largest allocations to a
 * second memory type, exportable (cuvk_mem_heap_set_bulk).
 *
 * Thread-safe: the heap has its own lock.  A block that becomes empty is
 * returned to the caller, who destroys it once the GPU no longer uses it.
 */
#ifndef CUVK_MEM_BLOCK_HEAP_H
#define CUVK_MEM_BLOCK_HEAP_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <cuda.h>
#include <vulkan/vulkan.h>

#include "mem/budget.h"
#include "util/list.h"
#include "util/vma_heap.h"

struct cuvk_mem_heap;

/* What every buffer cuvk copies and fills reach is created for: transfer
 * commands and shader access through device addresses. */
#define CUVK_MEM_BLOCK_USAGE                                                     \
   (VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |     \
    VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT)

struct cuvk_mem_block {
   struct cuvk_list link;
   struct cuvk_mem_heap *heap; /* NULL for a wrapped import */
   VkDevice vk;
   VkDeviceMemory memory;
   VkBuffer buffer;
   VkDeviceAddress address;
   uint8_t *map;               /* host view of offset 0, or NULL */
   bool owns_map;              /* map came from vkMapMemory */
   bool cached;                /* map is HOST_CACHED: cheap for the CPU to read */
   VkDeviceSize size;
   uint64_t va;                /* heap blocks only; 0 when wrapped */
   bool dedicated;
   uint32_t live;              /* allocations inside */
   /* Counted in budget as type_index's until destroyed; NULL when the
    * memory is not cuvk's own (imports). */
   struct cuvk_mem_budget *budget;
   uint32_t type_index;
   struct cuvk_vma_heap space; /* sub-allocation; unused when dedicated */
};

struct cuvk_mem_heap {
   VkDevice vk;
   struct cuvk_mem_budget *budget; /* every block is counted here */
   uint32_t type_index;
   VkMemoryPropertyFlags type_flags;
   VkDeviceSize block_size;
   VkDeviceSize max_size;      /* largest allocation the driver allows */
   pthread_mutex_t lock;
   struct cuvk_list blocks;
   VkDeviceSize allocated;     /* bytes of VkDeviceMemory held */
   VkDeviceSize used;          /* bytes handed out */
   /* Dedicated blocks of at least bulk_min_size (UINT64_MAX: none). */
   VkDeviceSize bulk_min_size;
   uint32_t bulk_type_index;
   VkMemoryPropertyFlags bulk_type_flags;
   VkExternalMemoryHandleTypeFlagBits bulk_handle_type;
   /* Queue families whose queues use the blocks' buffers: two make them
    * VK_SHARING_MODE_CONCURRENT (transfer lanes on another family than
    * the compute lanes, cuda_api/submit.h); fewer, EXCLUSIVE. */
   uint32_t share_families[2];
   uint32_t share_family_count;
};

void cuvk_mem_heap_init(struct cuvk_mem_heap *heap, VkDevice vk, struct cuvk_mem_budget *budget,
                        uint32_t type_index, VkMemoryPropertyFlags type_flags,
                        VkDeviceSize block_size, VkDeviceSize max_size);

/* The queue families the heap's buffers are shared by (see
 * share_families).  Call before the first allocation. */
void cuvk_mem_heap_set_sharing(struct cuvk_mem_heap *heap, const uint32_t *families, uint32_t count);

/* Allocations of at least min_size get a block of their own from
 * type_index, exportable as handle_type (0: not exportable), allocated
 * without naming a dedicated buffer.  Call before the first allocation. */
void cuvk_mem_heap_set_bulk(struct cuvk_mem_heap *heap, uint32_t type_index,
                            VkMemoryPropertyFlags type_flags, VkDeviceSize min_size,
                            VkExternalMemoryHandleTypeFlagBits handle_type);

/* Allocates size bytes of memory type type_index that buffers with device
 * addresses can bind, with next (an import or export structure, or NULL)
 * chained in. */
VkResult cuvk_mem_allocate(VkDevice vk, VkDeviceSize size, uint32_t type_index, const void *next,
                           VkDeviceMemory *out);

/* Destroys every block; the caller has made sure the GPU is idle. */
void cuvk_mem_heap_finish(struct cuvk_mem_heap *heap);

/* A new block's memory is counted in the heap's budget first; when the
 * budget refuses it the result is CUDA_ERROR_OUT_OF_MEMORY, which frees
 * still waiting for the GPU may cure (cuda_api/memory.c waits and
 * retries). */
CUresult cuvk_mem_heap_alloc(struct cuvk_mem_heap *heap, VkDeviceSize size, VkDeviceSize alignment,
                             struct cuvk_mem_block **block, VkDeviceSize *offset);

/* As cuvk_mem_heap_alloc, with a budget refusal logged naming what (the
 * API call), or not at all when what is NULL: for a caller that will
 * wait for pending frees and try again. */
CUresult cuvk_mem_heap_try_alloc(struct cuvk_mem_heap *heap, VkDeviceSize size, VkDeviceSize alignment,
                                 const char *what, struct cuvk_mem_block **block, VkDeviceSize *offset);

/* Returns the block when it became empty and should be destroyed (through
 * cuvk_mem_block_destroy, after the GPU is done with it); NULL otherwise. */
struct cuvk_mem_block *cuvk_mem_heap_free(struct cuvk_mem_heap *heap, struct cuvk_mem_block *block,
                                          VkDeviceSize offset, VkDeviceSize size);

/* Frees the block's buffer, mapping, va and memory (a wrapped block's
 * memory too: the wrap took ownership), and gives its bytes back to its
 * budget. */
void cuvk_mem_block_destroy(struct cuvk_mem_block *block);

/* Creates a block around memory the caller allocated (an import), owned by
 * no heap: buffer, address and va are set up like a heap block's, the
 * buffer created for handle_type (0 for none) unless the caller passes the
 * buffer the memory is dedicated to.  On success the block owns memory and
 * buffer; on failure the caller still does (the buffer is destroyed).  A caller that already has a
 * host view (imported host memory) passes map = false and sets block->map. */
CUresult cuvk_mem_block_wrap(VkDevice vk, VkDeviceMemory memory, VkBuffer buffer, VkDeviceSize size, bool map,
                             VkExternalMemoryHandleTypeFlagBits handle_type,
                             struct cuvk_mem_block **out);

#endif
