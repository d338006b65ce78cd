#include "mem/block_heap.h"

#include <stdlib.h>

#include "compiler/kernel_abi.h"
#include "mem/va_space.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

/* Device addresses of blocks are aligned so any sub-allocation's address
 * keeps the alignment it was carved with, and to a kernel page: a page
 * then never holds bytes of two blocks, so one page table entry serves it
 * (mem/page_table.h). */
#define BLOCK_VA_ALIGNMENT CUVK_KERNEL_PAGE_SIZE

void
cuvk_mem_heap_init(struct cuvk_mem_heap *heap, VkDevice vk, struct cuvk_mem_budget *budget,
                   uint32_t type_index, VkMemoryPropertyFlags type_flags, VkDeviceSize block_size,
                   VkDeviceSize max_size)
{
   heap->budget = budget;
   heap->max_size = max_size;
   heap->vk = vk;
   heap->type_index = type_index;
   heap->type_flags = type_flags;
   heap->block_size = block_size;
   pthread_mutex_init(&heap->lock, NULL);
   cuvk_list_init(&heap->blocks);
   heap->allocated = 0;
   heap->used = 0;
   heap->bulk_min_size = UINT64_MAX;
   heap->bulk_type_index = type_index;
   heap->bulk_type_flags = type_flags;
   heap->bulk_handle_type = 0;
   heap->share_family_count = 0;
}

void
cuvk_mem_heap_set_sharing(struct cuvk_mem_heap *heap, const uint32_t *families, uint32_t count)
{
   heap->share_family_count = count < 2 ? 0 : 2;
   for (uint32_t i = 0; i < heap->share_family_count; i++)
      heap->share_families[i] = families[i];
}

void
cuvk_mem_heap_set_bulk(struct cuvk_mem_heap *heap, uint32_t type_index,
                       VkMemoryPropertyFlags type_flags, VkDeviceSize min_size,
                       VkExternalMemoryHandleTypeFlagBits handle_type)
{
   heap->bulk_min_size = min_size;
   heap->bulk_type_index = type_index;
   heap->bulk_type_flags = type_flags;
   heap->bulk_handle_type = handle_type;
}

VkResult
cuvk_mem_allocate(VkDevice vk, VkDeviceSize size, uint32_t type_index, const void *next,
                  VkDeviceMemory *out)
{
   VkMemoryAllocateFlagsInfo flags_info = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
      .pNext = next,
      .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
   };
   VkMemoryAllocateInfo info = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .pNext = &flags_info,
      .allocationSize = size,
      .memoryTypeIndex = type_index,
   };
   return vkAllocateMemory(vk, &info, NULL, out);
}

/* Buffer, address, mapping and va for memory that is already allocated. */
static CUresult
block_setup(struct cuvk_mem_block *block, bool map, VkExternalMemoryHandleTypeFlagBits handle_type)
{
   /* A buffer bound to imported memory must name the handle type. */
   VkExternalMemoryBufferCreateInfo external_info = {
      .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
      .handleTypes = handle_type,
   };
   VkBufferCreateInfo buffer_info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .pNext = handle_type ? &external_info : NULL,
      .size = block->size,
      .usage = CUVK_MEM_BLOCK_USAGE,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   VkResult vr;
   CUresult res;

   /* Blocks of a heap shared by two queue families (transfer lanes) are
    * used by queues of both without ownership transfers. */
   if (block->heap && block->heap->share_family_count == 2) {
      buffer_info.sharingMode = VK_SHARING_MODE_CONCURRENT;
      buffer_info.queueFamilyIndexCount = 2;
      buffer_info.pQueueFamilyIndices = block->heap->share_families;
   }

   /* A dedicated import comes with its buffer: memory dedicated to a
    * buffer may have no other. */
   if (!block->buffer) {
      vr = vkCreateBuffer(block->vk, &buffer_info, NULL, &block->buffer);
      if (vr != VK_SUCCESS)
         return cuvk_vk_error(vr, "vkCreateBuffer");

      /* Imported memory has the exporter's size, which need not be a
       * multiple of what a buffer of that size asks for; shrink the buffer
       * until it fits rather than bind it past the end. */
      VkMemoryRequirements reqs;
      vkGetBufferMemoryRequirements(block->vk, block->buffer, &reqs);
      if (reqs.size > block->size && reqs.alignment && block->size > reqs.alignment) {
         vkDestroyBuffer(block->vk, block->buffer, NULL);
         buffer_info.size = block->size / reqs.alignment * reqs.alignment;
         vr = vkCreateBuffer(block->vk, &buffer_info, NULL, &block->buffer);
         if (vr != VK_SUCCESS)
            return cuvk_vk_error(vr, "vkCreateBuffer");
         vkGetBufferMemoryRequirements(block->vk, block->buffer, &reqs);
      }
      if (reqs.size > block->size) {
         res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "a buffer over %llu bytes of memory needs %llu",
                          (unsigned long long)block->size, (unsigned long long)reqs.size);
         goto fail_buffer;
      }
   }

   vr = vkBindBufferMemory(block->vk, block->buffer, block->memory, 0);
   if (vr != VK_SUCCESS) {
      res = cuvk_vk_error(vr, "vkBindBufferMemory");
      goto fail_buffer;
   }

   block->address = vkGetBufferDeviceAddress(block->vk, &(VkBufferDeviceAddressInfo){
      .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
      .buffer = block->buffer,
   });

   /* A host view is an optimisation (direct CPU copies); a driver that
    * will not map a large BAR allocation just costs the fast path. */
   if (map) {
      void *ptr;
      vr = vkMapMemory(block->vk, block->memory, 0, VK_WHOLE_SIZE, 0, &ptr);
      if (vr == VK_SUCCESS) {
         block->map = ptr;
         block->owns_map = true;
      } else {
         cuvk_logi("vkMapMemory of %llu bytes failed (%s); using GPU copies only",
                   (unsigned long long)block->size, cuvk_vk_result_name(vr));
      }
   }

   /* Heap blocks hand out CUdeviceptrs as va + offset; a wrapped block's
    * users (imports, cuMemMap, registered host memory) bring their own
    * addresses. */
   if (block->heap) {
      res = cuvk_mem_va_alloc(block->size, BLOCK_VA_ALIGNMENT, 0, &block->va);
      if (res != CUDA_SUCCESS)
         goto fail_map;
   }

   return CUDA_SUCCESS;

fail_map:
   if (block->owns_map)
      vkUnmapMemory(block->vk, block->memory);
   block->map = NULL;
fail_buffer:
   vkDestroyBuffer(block->vk, block->buffer, NULL);
   block->buffer = VK_NULL_HANDLE;
   return res;
}

static CUresult
block_create(struct cuvk_mem_heap *heap, VkDeviceSize size, bool dedicated, const char *what,
             struct cuvk_mem_block **out)
{
   struct cuvk_mem_block *block;
   VkResult vr;
   CUresult res;

   block = calloc(1, sizeof(*block));
   if (!block)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for a block");

   /* A bulk block's memory is exportable and names no dedicated buffer:
    * on NVIDIA's driver that memory gets a kind that moves compressible
    * data faster (util/device_policy.h).  Its buffer must then name the
    * handle type. */
   bool bulk = dedicated && size >= heap->bulk_min_size;
   uint32_t type_index = bulk ? heap->bulk_type_index : heap->type_index;
   VkMemoryPropertyFlags type_flags = bulk ? heap->bulk_type_flags : heap->type_flags;
   VkExternalMemoryHandleTypeFlagBits handle_type = bulk ? heap->bulk_handle_type : 0;

   block->heap = heap;
   block->vk = heap->vk;
   block->cached = type_flags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
   block->size = size;
   block->dedicated = dedicated;

   /* Counted before it is allocated, so that concurrent allocations
    * cannot all pass the limit together. */
   res = cuvk_mem_budget_reserve(heap->budget, type_index, size, what);
   if (res != CUDA_SUCCESS)
      goto fail_free;

   VkExportMemoryAllocateInfo export_info = {
      .sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO,
      .handleTypes = handle_type,
   };
   vr = cuvk_mem_allocate(heap->vk, size, type_index, handle_type ? &export_info : NULL,
                          &block->memory);
   if (vr != VK_SUCCESS) {
      res = cuvk_vk_error(vr, "vkAllocateMemory");
      goto fail_budget;
   }
   if (bulk)
      cuvk_logd("bulk allocation of %llu bytes: memory type %u%s", (unsigned long long)size,
                type_index, handle_type ? ", exportable" : "");

   res = block_setup(block, type_flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, handle_type);
   if (res != CUDA_SUCCESS)
      goto fail_memory;

   if (!dedicated)
      cuvk_vma_heap_init(&block->space, 0, size);

   block->budget = heap->budget;
   block->type_index = type_index;
   heap->allocated += size;
   cuvk_list_addtail(&block->link, &heap->blocks);
   *out = block;
   return CUDA_SUCCESS;

fail_memory:
   vkFreeMemory(heap->vk, block->memory, NULL);
fail_budget:
   cuvk_mem_budget_unreserve(heap->budget, type_index, size);
fail_free:
   free(block);
   return res;
}

CUresult
cuvk_mem_block_wrap(VkDevice vk, VkDeviceMemory memory, VkBuffer buffer, VkDeviceSize size, bool map,
                    VkExternalMemoryHandleTypeFlagBits handle_type, struct cuvk_mem_block **out)
{
   struct cuvk_mem_block *block;
   CUresult res;

   block = calloc(1, sizeof(*block));
   if (!block)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for a block");
   block->vk = vk;
   block->memory = memory;
   block->buffer = buffer;
   block->size = size;
   block->dedicated = true;
   cuvk_list_init(&block->link);

   res = block_setup(block, map, handle_type);
   if (res != CUDA_SUCCESS) {
      free(block);
      return res;
   }
   *out = block;
   return CUDA_SUCCESS;
}

void
cuvk_mem_block_destroy(struct cuvk_mem_block *block)
{
   if (block->heap)
      cuvk_mem_va_free(block->va, block->size);
   if (block->owns_map)
      vkUnmapMemory(block->vk, block->memory);
   vkDestroyBuffer(block->vk, block->buffer, NULL);
   vkFreeMemory(block->vk, block->memory, NULL);
   if (block->budget)
      cuvk_mem_budget_unreserve(block->budget, block->type_index, block->size);
   if (!block->dedicated)
      cuvk_vma_heap_finish(&block->space);
   free(block);
}

void
cuvk_mem_heap_finish(struct cuvk_mem_heap *heap)
{
   cuvk_list_for_each_entry_safe(struct cuvk_mem_block, block, &heap->blocks, link) {
      cuvk_list_del(&block->link);
      cuvk_mem_block_destroy(block);
   }
   pthread_mutex_destroy(&heap->lock);
}

static CUresult
heap_alloc(struct cuvk_mem_heap *heap, VkDeviceSize size, VkDeviceSize alignment, const char *what,
           struct cuvk_mem_block **out_block, VkDeviceSize *out_offset)
{
   struct cuvk_mem_block *block = NULL;
   uint64_t offset = 0;
   CUresult res = CUDA_SUCCESS;

   /* Asking Vulkan for more than the heap holds is invalid usage, not an
    * out-of-memory result: answer it here. */
   if (size > heap->max_size)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%llu bytes exceed the largest allocation of %llu the "
                        "device allows", (unsigned long long)size, (unsigned long long)heap->max_size);

   pthread_mutex_lock(&heap->lock);

   if (size > heap->block_size / 2) {
      /* A dedicated block fills its last kernel page, so a kernel that runs
       * a little past the end of its buffer lands in memory it owns, as on
       * CUDA, instead of outside the Vulkan allocation. */
      VkDeviceSize block_size = CUVK_ALIGN_UP(size, BLOCK_VA_ALIGNMENT);
      if (block_size > heap->max_size)
         block_size = size;
      res = block_create(heap, block_size, true, what, &block);
      if (res == CUDA_SUCCESS)
         block->live = 1;
      goto out;
   }

   cuvk_list_for_each_entry(struct cuvk_mem_block, b, &heap->blocks, link) {
      if (!b->dedicated && cuvk_vma_heap_alloc(&b->space, size, alignment, &offset)) {
         block = b;
         break;
      }
   }

   if (!block) {
      res = block_create(heap, heap->block_size, false, what, &block);
      if (res != CUDA_SUCCESS)
         goto out;
      if (!cuvk_vma_heap_alloc(&block->space, size, alignment, &offset)) {
         /* A fresh block always fits size <= block_size / 2, so only host
          * memory exhaustion gets here. */
         cuvk_list_del(&block->link);
         heap->allocated -= block->size;
         cuvk_mem_block_destroy(block);
         block = NULL;
         res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "sub-allocation of %llu bytes failed",
                          (unsigned long long)size);
         goto out;
      }
   }
   block->live++;

out:
   if (res == CUDA_SUCCESS) {
      heap->used += size;
      *out_block = block;
      *out_offset = offset;
   }
   pthread_mutex_unlock(&heap->lock);
   return res;
}

CUresult
cuvk_mem_heap_alloc(struct cuvk_mem_heap *heap, VkDeviceSize size, VkDeviceSize alignment,
                    struct cuvk_mem_block **out_block, VkDeviceSize *out_offset)
{
   return heap_alloc(heap, size, alignment, "allocating a memory block", out_block, out_offset);
}

CUresult
cuvk_mem_heap_try_alloc(struct cuvk_mem_heap *heap, VkDeviceSize size, VkDeviceSize alignment,
                        const char *what, struct cuvk_mem_block **out_block, VkDeviceSize *out_offset)
{
   return heap_alloc(heap, size, alignment, what, out_block, out_offset);
}

struct cuvk_mem_block *
cuvk_mem_heap_free(struct cuvk_mem_heap *heap, struct cuvk_mem_block *block,
                   VkDeviceSize offset, VkDeviceSize size)
{
   struct cuvk_mem_block *dead = NULL;

   pthread_mutex_lock(&heap->lock);
   heap->used -= size;
   if (!block->dedicated)
      cuvk_vma_heap_free(&block->space, offset, size);
   block->live--;

   if (block->live == 0) {
      /* Keep one empty block around so a loop of alloc/free of small
       * buffers does not allocate Vulkan memory each time. */
      bool keep = false;
      if (!block->dedicated) {
         unsigned empty = 0;
         cuvk_list_for_each_entry(struct cuvk_mem_block, b, &heap->blocks, link)
            empty += !b->dedicated && b->live == 0;
         keep = empty == 1;
      }
      if (!keep) {
         cuvk_list_del(&block->link);
         heap->allocated -= block->size;
         dead = block;
      }
   }
   pthread_mutex_unlock(&heap->lock);
   return dead;
}
