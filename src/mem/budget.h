/*
 * How much memory cuvk lets itself allocate from each Vulkan memory heap
 * of one physical device, shared by every context on it.
 *
 * Vulkan drivers do not all refuse allocations past a heap's size:
 * lavapipe reports a 2 GiB heap yet hands out whatever the kernel lets
 * it map, so a program that takes what cuMemGetInfo offered would end in
 * the kernel's OOM killer rather than in CUDA_ERROR_OUT_OF_MEMORY.  cuvk
 * therefore counts the VkDeviceMemory it allocates itself (sub-allocation
 * blocks, cuMemCreate handles, arrays) against a limit per heap: the
 * heap's size, for the heap device memory lives in lowered by
 * CUVK_DEVICE_HEAP_LIMIT, and where the driver has VK_EXT_memory_budget
 * also what its budget leaves (heapBudget - heapUsage, which counts other
 * processes and the driver's own use).  Imported memory (external memory,
 * registered host memory, imported VMM handles) belongs to its exporter
 * and is not counted.
 *
 * Thread-safe.
 */
#ifndef CUVK_MEM_BUDGET_H
#define CUVK_MEM_BUDGET_H

#include <pthread.h>
#include <stdbool.h>
#include <cuda.h>
#include <vulkan/vulkan.h>

struct cuvk_mem_budget {
   VkPhysicalDevice pdev;
   bool has_budget_ext;       /* VK_EXT_memory_budget */
   uint32_t heap_count;
   uint32_t type_heap[VK_MAX_MEMORY_TYPES];
   VkDeviceSize limit[VK_MAX_MEMORY_HEAPS];
   pthread_mutex_t lock;
   VkDeviceSize used[VK_MAX_MEMORY_HEAPS]; /* bytes cuvk holds; lock */
};

/* Limits every heap to its size and limited_heap (the device memory
 * heap) further to cap when cap is nonzero and smaller. */
void cuvk_mem_budget_init(struct cuvk_mem_budget *b, VkPhysicalDevice pdev,
                          const VkPhysicalDeviceMemoryProperties *mem, bool has_budget_ext,
                          uint32_t limited_heap, VkDeviceSize cap);
void cuvk_mem_budget_finish(struct cuvk_mem_budget *b);

/* Counts size bytes of memory type type_index as held, or, when that
 * would pass the heap's limit or the driver's budget, returns
 * CUDA_ERROR_OUT_OF_MEMORY with a log line naming what (the caller); a
 * NULL what logs nothing, for a caller that will wait and try again. */
CUresult cuvk_mem_budget_reserve(struct cuvk_mem_budget *b, uint32_t type_index, VkDeviceSize size,
                                 const char *what);

/* Gives back what cuvk_mem_budget_reserve counted, once the memory is
 * freed. */
void cuvk_mem_budget_unreserve(struct cuvk_mem_budget *b, uint32_t type_index, VkDeviceSize size);

/* What a heap has left to allocate (the smaller of limit - used and the
 * driver's budget left) and its limit. */
void cuvk_mem_budget_query(struct cuvk_mem_budget *b, uint32_t heap, VkDeviceSize *avail,
                           VkDeviceSize *limit);

/* Parses a byte count with an optional K, M, G or T suffix (powers of
 * 1024, "MiB" and "MB" alike); false for anything else, 0 included. */
bool cuvk_mem_parse_size(const char *text, VkDeviceSize *out);

#endif
