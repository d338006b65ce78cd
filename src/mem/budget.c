#include "mem/budget.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

void
cuvk_mem_budget_init(struct cuvk_mem_budget *b, VkPhysicalDevice pdev,
                     const VkPhysicalDeviceMemoryProperties *mem, bool has_budget_ext,
                     uint32_t limited_heap, VkDeviceSize cap)
{
   memset(b, 0, sizeof(*b));
   b->pdev = pdev;
   b->has_budget_ext = has_budget_ext;
   b->heap_count = mem->memoryHeapCount;
   for (uint32_t i = 0; i < mem->memoryTypeCount; i++)
      b->type_heap[i] = mem->memoryTypes[i].heapIndex;
   for (uint32_t h = 0; h < mem->memoryHeapCount; h++)
      b->limit[h] = mem->memoryHeaps[h].size;
   if (cap && limited_heap < mem->memoryHeapCount && cap < b->limit[limited_heap])
      b->limit[limited_heap] = cap;
   pthread_mutex_init(&b->lock, NULL);
}

void
cuvk_mem_budget_finish(struct cuvk_mem_budget *b)
{
   pthread_mutex_destroy(&b->lock);
}

/* What the driver's budget leaves of heap, all processes counted;
 * UINT64_MAX without VK_EXT_memory_budget. */
static VkDeviceSize
driver_budget_left(struct cuvk_mem_budget *b, uint32_t heap)
{
   if (!b->has_budget_ext)
      return UINT64_MAX;
   VkPhysicalDeviceMemoryBudgetPropertiesEXT budget = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT,
   };
   VkPhysicalDeviceMemoryProperties2 props = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2,
      .pNext = &budget,
   };
   vkGetPhysicalDeviceMemoryProperties2(b->pdev, &props);
   return budget.heapBudget[heap] > budget.heapUsage[heap] ?
          budget.heapBudget[heap] - budget.heapUsage[heap] : 0;
}

CUresult
cuvk_mem_budget_reserve(struct cuvk_mem_budget *b, uint32_t type_index, VkDeviceSize size,
                        const char *what)
{
   uint32_t heap = b->type_heap[type_index];
   CUresult res = CUDA_SUCCESS;

   pthread_mutex_lock(&b->lock);
   VkDeviceSize left = b->limit[heap] - b->used[heap];
   VkDeviceSize budget_left = size <= left ? driver_budget_left(b, heap) : UINT64_MAX;
   if (!what && (size > left || size > budget_left)) {
      /* The caller tries again after waiting for frees, and reports. */
      res = CUDA_ERROR_OUT_OF_MEMORY;
   } else if (size > left) {
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: %llu bytes do not fit: cuvk holds %llu of the "
                       "%llu bytes it allows itself in memory heap %u", what, (unsigned long long)size,
                       (unsigned long long)b->used[heap], (unsigned long long)b->limit[heap], heap);
   } else if (size > budget_left) {
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: %llu bytes do not fit: the driver's budget for "
                       "memory heap %u leaves %llu", what, (unsigned long long)size, heap,
                       (unsigned long long)budget_left);
   } else {
      b->used[heap] += size;
   }
   pthread_mutex_unlock(&b->lock);
   return res;
}

void
cuvk_mem_budget_unreserve(struct cuvk_mem_budget *b, uint32_t type_index, VkDeviceSize size)
{
   uint32_t heap = b->type_heap[type_index];

   pthread_mutex_lock(&b->lock);
   b->used[heap] -= CUVK_MIN(size, b->used[heap]);
   pthread_mutex_unlock(&b->lock);
}

void
cuvk_mem_budget_query(struct cuvk_mem_budget *b, uint32_t heap, VkDeviceSize *avail,
                      VkDeviceSize *limit)
{
   pthread_mutex_lock(&b->lock);
   *limit = b->limit[heap];
   *avail = CUVK_MIN(b->limit[heap] - b->used[heap], driver_budget_left(b, heap));
   pthread_mutex_unlock(&b->lock);
}

bool
cuvk_mem_parse_size(const char *text, VkDeviceSize *out)
{
   static const char suffixes[] = "KMGT";
   char *end;

   if (!text || !isdigit((unsigned char)text[0]))
      return false;
   errno = 0;
   unsigned long long value = strtoull(text, &end, 10);
   if (errno || value == 0)
      return false;
   unsigned shift = 0;
   if (*end) {
      const char *s = strchr(suffixes, toupper((unsigned char)*end));
      if (!s)
         return false;
      shift = 10 * (unsigned)(s - suffixes + 1);
      end++;
      if (strcasecmp(end, "iB") != 0 && strcasecmp(end, "B") != 0 && *end)
         return false;
   }
   if (value > (UINT64_MAX >> shift))
      return false;
   *out = (VkDeviceSize)value << shift;
   return true;
}
