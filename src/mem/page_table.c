#include "mem/page_table.h"

#include <stdlib.h>
#include <string.h>

#include "mem/block_heap.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

#define PAGE_MASK (CUVK_KERNEL_PAGE_SIZE - 1)

/* Common part of both constructors: rounds the span out to pages and
 * allocates the reference counts (calloc: the untouched pages of a 1 TiB
 * span's 2 MiB of counts cost nothing). */
static CUresult
table_alloc(uint64_t va_base, uint64_t va_size, struct cuvk_mem_page_table **out)
{
   if (va_size == 0 || va_base + va_size < va_base)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "page table over an empty or wrapping span 0x%llx+%llu",
                        (unsigned long long)va_base, (unsigned long long)va_size);

   struct cuvk_mem_page_table *pt = calloc(1, sizeof(*pt));
   if (!pt)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for a page table");
   pt->va_base = va_base & ~PAGE_MASK;
   pt->va_size = CUVK_ALIGN_UP(va_base + va_size, CUVK_KERNEL_PAGE_SIZE) - pt->va_base;
   pt->page_count = pt->va_size >> CUVK_KERNEL_PAGE_SHIFT;
   pt->refs = calloc(pt->page_count, sizeof(*pt->refs));
   pt->copy = calloc(pt->page_count, sizeof(*pt->copy));
   if (!pt->refs || !pt->copy) {
      free(pt->refs);
      free(pt->copy);
      uint64_t pages = pt->page_count;
      free(pt);
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for %llu page counts",
                        (unsigned long long)pages);
   }
   pthread_mutex_init(&pt->lock, NULL);
   *out = pt;
   return CUDA_SUCCESS;
}

static void
table_free(struct cuvk_mem_page_table *pt)
{
   pthread_mutex_destroy(&pt->lock);
   free(pt->host);
   free(pt->copy);
   free(pt->refs);
   free(pt);
}

CUresult
cuvk_mem_page_table_create_host(uint64_t va_base, uint64_t va_size, struct cuvk_mem_page_table **out)
{
   struct cuvk_mem_page_table *pt;
   CUresult res = table_alloc(va_base, va_size, &pt);
   if (res != CUDA_SUCCESS)
      return res;
   pt->entries = calloc(pt->page_count, sizeof(*pt->entries));
   if (!pt->entries) {
      table_free(pt);
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for a page table");
   }
   *out = pt;
   return CUDA_SUCCESS;
}

/* The first memory type among bits with all of want. */
static int
find_type(const VkPhysicalDeviceMemoryProperties *props, uint32_t bits, VkMemoryPropertyFlags want)
{
   for (uint32_t i = 0; i < props->memoryTypeCount; i++) {
      if ((bits & (1u << i)) && (props->memoryTypes[i].propertyFlags & want) == want)
         return (int)i;
   }
   return -1;
}

CUresult
cuvk_mem_page_table_create(VkDevice vk, const VkPhysicalDeviceMemoryProperties *props, uint64_t va_base,
                           uint64_t va_size, struct cuvk_mem_page_table **out)
{
   struct cuvk_mem_page_table *pt;
   VkResult vr;
   CUresult res = table_alloc(va_base, va_size, &pt);
   if (res != CUDA_SUCCESS)
      return res;
   pt->vk = vk;

   VkBufferCreateInfo buffer_info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = pt->page_count * sizeof(uint64_t),
      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   vr = vkCreateBuffer(vk, &buffer_info, NULL, &pt->buffer);
   if (vr != VK_SUCCESS) {
      res = cuvk_vk_error(vr, "vkCreateBuffer for the page table");
      goto fail_table;
   }
   VkMemoryRequirements reqs;
   vkGetBufferMemoryRequirements(vk, pt->buffer, &reqs);

   /* Every memory access of every kernel reads an entry, so device-local
    * memory the host can write (ReBAR, or any integrated GPU) is worth
    * having; plain host memory works everywhere else. */
   const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
   int types[2] = {
      find_type(props, reqs.memoryTypeBits, host | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT),
      find_type(props, reqs.memoryTypeBits, host),
   };
   vr = VK_ERROR_OUT_OF_DEVICE_MEMORY;
   for (unsigned i = 0; i < 2 && vr != VK_SUCCESS; i++) {
      if (types[i] < 0 || (i == 1 && types[1] == types[0]))
         continue;
      vr = cuvk_mem_allocate(vk, reqs.size, (uint32_t)types[i], NULL, &pt->memory);
   }
   if (vr != VK_SUCCESS) {
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "no host-visible memory for a page table of %llu bytes (%s)",
                       (unsigned long long)reqs.size, cuvk_vk_result_name(vr));
      goto fail_buffer;
   }
   vr = vkBindBufferMemory(vk, pt->buffer, pt->memory, 0);
   if (vr != VK_SUCCESS) {
      res = cuvk_vk_error(vr, "vkBindBufferMemory for the page table");
      goto fail_memory;
   }
   void *map;
   vr = vkMapMemory(vk, pt->memory, 0, VK_WHOLE_SIZE, 0, &map);
   if (vr != VK_SUCCESS) {
      res = cuvk_vk_error(vr, "vkMapMemory of the page table");
      goto fail_memory;
   }
   pt->entries = map;
   memset(pt->entries, 0, pt->page_count * sizeof(uint64_t));
   pt->address = vkGetBufferDeviceAddress(vk, &(VkBufferDeviceAddressInfo){
      .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
      .buffer = pt->buffer,
   });
   cuvk_logd("page table: %llu pages over [0x%llx, +0x%llx), %llu bytes", (unsigned long long)pt->page_count,
             (unsigned long long)pt->va_base, (unsigned long long)pt->va_size, (unsigned long long)reqs.size);
   *out = pt;
   return CUDA_SUCCESS;

fail_memory:
   vkFreeMemory(vk, pt->memory, NULL);
fail_buffer:
   vkDestroyBuffer(vk, pt->buffer, NULL);
fail_table:
   table_free(pt);
   return res;
}

void
cuvk_mem_page_table_destroy(struct cuvk_mem_page_table *pt)
{
   if (!pt)
      return;
   if (pt->memory) {
      vkUnmapMemory(pt->vk, pt->memory);
      vkDestroyBuffer(pt->vk, pt->buffer, NULL);
      vkFreeMemory(pt->vk, pt->memory, NULL);
   } else {
      free(pt->entries);
   }
   table_free(pt);
}

static bool
range_inside(const struct cuvk_mem_page_table *pt, uint64_t start, uint64_t size)
{
   return size != 0 && start >= pt->va_base && start - pt->va_base < pt->va_size &&
          size <= pt->va_size - (start - pt->va_base);
}

CUresult
cuvk_mem_page_table_map(struct cuvk_mem_page_table *pt, uint64_t start, uint64_t size, uint64_t delta)
{
   if (!range_inside(pt, start, size))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "page table: 0x%llx+%llu is outside [0x%llx, +0x%llx)",
                        (unsigned long long)start, (unsigned long long)size, (unsigned long long)pt->va_base,
                        (unsigned long long)pt->va_size);
   /* A device address equal to the cuvk address would make an entry that
    * reads as "unmapped"; no driver has been seen to give one (the space
    * is the host's, reserved), so it is refused rather than mistranslated. */
   if (delta == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "page table: 0x%llx+%llu would translate to itself",
                        (unsigned long long)start, (unsigned long long)size);

   uint64_t first = (start - pt->va_base) >> CUVK_KERNEL_PAGE_SHIFT;
   uint64_t last = (start + size - 1 - pt->va_base) >> CUVK_KERNEL_PAGE_SHIFT;
   pthread_mutex_lock(&pt->lock);
   for (uint64_t p = first; p <= last; p++) {
      if (pt->refs[p] == 0) {
         pt->mapped_pages++;
      } else if (pt->entries[p] != delta) {
         /* Only a range mapped again before the release of the one it
          * replaced has run (cuMemUnmap + cuMemMap with work in flight). */
         cuvk_logd("page table: page 0x%llx moves from delta 0x%llx to 0x%llx",
                   (unsigned long long)(pt->va_base + (p << CUVK_KERNEL_PAGE_SHIFT)),
                   (unsigned long long)pt->entries[p], (unsigned long long)delta);
      }
      pt->refs[p]++;
      pt->copy[p] = delta;
      __atomic_store_n(&pt->entries[p], delta, __ATOMIC_RELAXED);
   }
   pthread_mutex_unlock(&pt->lock);
   return CUDA_SUCCESS;
}

void
cuvk_mem_page_table_unmap(struct cuvk_mem_page_table *pt, uint64_t start, uint64_t size)
{
   if (!range_inside(pt, start, size))
      return;
   uint64_t first = (start - pt->va_base) >> CUVK_KERNEL_PAGE_SHIFT;
   uint64_t last = (start + size - 1 - pt->va_base) >> CUVK_KERNEL_PAGE_SHIFT;
   pthread_mutex_lock(&pt->lock);
   for (uint64_t p = first; p <= last; p++) {
      if (pt->refs[p] == 0) {
         cuvk_loge("page table: unmapping page 0x%llx, which has no range",
                   (unsigned long long)(pt->va_base + (p << CUVK_KERNEL_PAGE_SHIFT)));
         continue;
      }
      if (--pt->refs[p] == 0) {
         pt->copy[p] = 0;
         __atomic_store_n(&pt->entries[p], 0, __ATOMIC_RELAXED);
         pt->mapped_pages--;
      }
   }
   pthread_mutex_unlock(&pt->lock);
}

uint64_t
cuvk_mem_page_table_entry(struct cuvk_mem_page_table *pt, uint64_t addr)
{
   if (addr < pt->va_base || addr - pt->va_base >= pt->va_size)
      return 0;
   pthread_mutex_lock(&pt->lock);
   uint64_t entry = pt->copy[(addr - pt->va_base) >> CUVK_KERNEL_PAGE_SHIFT];
   pthread_mutex_unlock(&pt->lock);
   return entry;
}

/* Index of the first host range whose end is above addr. */
static uint32_t
host_search(const struct cuvk_mem_page_table *pt, uint64_t addr)
{
   uint32_t lo = 0, hi = pt->host_count;
   while (lo < hi) {
      uint32_t mid = lo + (hi - lo) / 2;
      if (pt->host[mid].end <= addr)
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo;
}

/* word's span; lock held. */
static struct cuvk_kernel_span
span_of(const struct cuvk_mem_page_table *pt, uint64_t word)
{
   if (word >= pt->va_base && word - pt->va_base < pt->va_size) {
      uint64_t page = (word - pt->va_base) >> CUVK_KERNEL_PAGE_SHIFT;
      uint64_t entry = pt->copy[page];
      if (!entry)
         return (struct cuvk_kernel_span){ 0 };
      /* Pages with one entry are one run of device memory: entry = device
       * address - cuvk address is the same for both only if the second
       * page's memory follows the first's, so any address in the run is
       * reachable at addr + entry, as the table itself would say. */
      uint64_t first = page, last = page;
      while (first > 0 && page - first < CUVK_PAGE_TABLE_SPAN_PAGES && pt->copy[first - 1] == entry)
         first--;
      while (last + 1 < pt->page_count && last - page < CUVK_PAGE_TABLE_SPAN_PAGES &&
             pt->copy[last + 1] == entry)
         last++;
      return (struct cuvk_kernel_span){
         .base = pt->va_base + (first << CUVK_KERNEL_PAGE_SHIFT),
         .size = (last - first + 1) << CUVK_KERNEL_PAGE_SHIFT,
         .delta = entry,
      };
   }
   uint32_t i = host_search(pt, word);
   if (i < pt->host_count && pt->host[i].start <= word) {
      const struct cuvk_kernel_host_range *h = &pt->host[i];
      /* An access must fit whole, and the kernel tests only its start. */
      if (h->end - h->start < CUVK_KERNEL_SPAN_ACCESS)
         return (struct cuvk_kernel_span){ 0 };
      return (struct cuvk_kernel_span){
         .base = h->start,
         .size = h->end - h->start - (CUVK_KERNEL_SPAN_ACCESS - 1),
         .delta = h->delta,
      };
   }
   return (struct cuvk_kernel_span){ 0 };
}

void
cuvk_mem_page_table_spans(struct cuvk_mem_page_table *pt, const uint64_t *words, uint32_t count,
                          struct cuvk_kernel_span *out)
{
   pthread_mutex_lock(&pt->lock);
   for (uint32_t i = 0; i < count; i++)
      out[i] = span_of(pt, words[i]);
   pthread_mutex_unlock(&pt->lock);
}

CUresult
cuvk_mem_page_table_add_host(struct cuvk_mem_page_table *pt, uint64_t start, uint64_t size, uint64_t delta)
{
   CUresult res = CUDA_SUCCESS;
   if (size == 0 || start + size < start)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "page table: host range 0x%llx+%llu is empty or wraps",
                        (unsigned long long)start, (unsigned long long)size);

   pthread_mutex_lock(&pt->lock);
   uint32_t i = host_search(pt, start);
   if (i < pt->host_count && pt->host[i].start < start + size) {
      res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "page table: host range 0x%llx+%llu overlaps 0x%llx-0x%llx",
                       (unsigned long long)start, (unsigned long long)size,
                       (unsigned long long)pt->host[i].start, (unsigned long long)pt->host[i].end);
      goto out;
   }
   if (pt->host_count == pt->host_capacity) {
      uint32_t cap = pt->host_capacity ? pt->host_capacity * 2 : 16;
      struct cuvk_kernel_host_range *host = realloc(pt->host, cap * sizeof(*host));
      if (!host) {
         res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "page table: out of host memory for host ranges");
         goto out;
      }
      pt->host = host;
      pt->host_capacity = cap;
   }
   memmove(&pt->host[i + 1], &pt->host[i], (pt->host_count - i) * sizeof(*pt->host));
   pt->host[i] = (struct cuvk_kernel_host_range){ .start = start, .end = start + size, .delta = delta };
   pt->host_count++;
out:
   pthread_mutex_unlock(&pt->lock);
   return res;
}

bool
cuvk_mem_page_table_remove_host(struct cuvk_mem_page_table *pt, uint64_t start)
{
   bool found = false;
   pthread_mutex_lock(&pt->lock);
   uint32_t i = host_search(pt, start);
   if (i < pt->host_count && pt->host[i].start == start) {
      memmove(&pt->host[i], &pt->host[i + 1], (pt->host_count - i - 1) * sizeof(*pt->host));
      pt->host_count--;
      found = true;
   }
   pthread_mutex_unlock(&pt->lock);
   return found;
}

uint32_t
cuvk_mem_page_table_host_ranges(struct cuvk_mem_page_table *pt, struct cuvk_kernel_host_range *out,
                                uint32_t max)
{
   pthread_mutex_lock(&pt->lock);
   uint32_t count = pt->host_count;
   if (count && max)
      memcpy(out, pt->host, CUVK_MIN(count, max) * sizeof(*out));
   pthread_mutex_unlock(&pt->lock);
   return count;
}
