/*
 * The page table through which translated kernels reach memory
 * (compiler/kernel_abi.h): one per VkDevice, made when the first module is
 * loaded there.
 *
 * A CUdeviceptr lies in cuvk's device address space (mem/va_space.h); a
 * kernel turns it into a Vulkan buffer device address by adding the entry
 * of its 2 MiB page: entry = (device address of the page) - (its cuvk
 * address), 0 for a page no live allocation of this device covers.  That
 * works because every range cuvk places in the space starts on a page
 * boundary and no page holds bytes of two buffers (block_heap.c,
 * external_memory.c and vmm.c align their ranges so).  Entries live in a
 * host-visible buffer (device-local too where the device has such memory,
 * so the GPU reads them at full speed) that the host writes directly: a
 * page is only ever set before any work can use it and cleared only once
 * the GPU is done with everything that did.
 *
 * Several ranges may share a page (sub-allocations of one block): each
 * page counts the live ranges in it and is cleared when the last goes.
 *
 * Pinned and registered host memory is not in the space; it is kept as a
 * sorted list of {start, end, delta} host ranges that each launch copies.
 *
 * Threads: every function may be called from any thread; one mutex per
 * table.
 */
#ifndef CUVK_MEM_PAGE_TABLE_H
#define CUVK_MEM_PAGE_TABLE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <cuda.h>
#include <vulkan/vulkan.h>

#include "compiler/kernel_abi.h"

struct cuvk_mem_page_table {
   pthread_mutex_t lock;
   VkDevice vk;
   VkDeviceMemory memory;        /* VK_NULL_HANDLE for a table on host memory */
   VkBuffer buffer;
   VkDeviceAddress address;      /* of entries[0] */
   uint64_t *entries;            /* host view, one per page */
   uint64_t *copy;               /* the same in plain host memory, which the
                                  * host reads (entries may be write-combined
                                  * device memory, slow to read back) */
   uint32_t *refs;               /* live ranges per page */
   uint64_t va_base;             /* cuvk address of page 0 */
   uint64_t va_size;             /* bytes covered, a multiple of the page */
   uint64_t page_count;
   uint64_t mapped_pages;        /* pages with an entry */

   struct cuvk_kernel_host_range *host;  /* sorted by start, disjoint */
   uint32_t host_count;
   uint32_t host_capacity;
};

/* Makes a table covering [va_base, va_base + va_size) (rounded out to
 * whole pages) in a buffer of vk with a device address, in memory of the
 * first type of props that is host-visible, coherent and device-local,
 * else host-visible and coherent.  CUDA_ERROR_OUT_OF_MEMORY when neither
 * can be had. */
CUresult cuvk_mem_page_table_create(VkDevice vk, const VkPhysicalDeviceMemoryProperties *props,
                                    uint64_t va_base, uint64_t va_size,
                                    struct cuvk_mem_page_table **out);

/* The same with the entries in host memory the table allocates itself and
 * no buffer (address 0): the bookkeeping alone, for tests and for tools. */
CUresult cuvk_mem_page_table_create_host(uint64_t va_base, uint64_t va_size,
                                         struct cuvk_mem_page_table **out);

/* The GPU must be done with the table. */
void cuvk_mem_page_table_destroy(struct cuvk_mem_page_table *pt);

/* Enters [start, start + size) as reachable at start + delta.  Pages the
 * range shares with live ranges must have the same delta; one that has
 * another is overwritten (the newer range wins) and logged.  Returns
 * CUDA_ERROR_INVALID_VALUE, changing nothing, for a range outside the
 * table or delta 0 (which reads as "unmapped"). */
CUresult cuvk_mem_page_table_map(struct cuvk_mem_page_table *pt, uint64_t start, uint64_t size,
                                 uint64_t delta);

/* Undoes one cuvk_mem_page_table_map of the same range: its pages whose
 * last range this was read as unmapped from now on. */
void cuvk_mem_page_table_unmap(struct cuvk_mem_page_table *pt, uint64_t start, uint64_t size);

/* The entry of addr's page (0: unmapped, or addr outside the table). */
uint64_t cuvk_mem_page_table_entry(struct cuvk_mem_page_table *pt, uint64_t addr);

/* The spans of count words of a parameter block (kernel_abi.h): for a
 * word inside a mapped page, the run of pages around it with the same
 * entry (at most CUVK_PAGE_TABLE_SPAN_PAGES on each side); for one inside
 * a host range, the range less its last CUVK_KERNEL_SPAN_ACCESS - 1
 * bytes; size 0 for any other. */
#define CUVK_PAGE_TABLE_SPAN_PAGES 1024u
void cuvk_mem_page_table_spans(struct cuvk_mem_page_table *pt, const uint64_t *words, uint32_t count,
                               struct cuvk_kernel_span *out);

/* Enters host memory [start, start + size) as reachable at start + delta.
 * CUDA_ERROR_INVALID_VALUE for an empty or wrapping range or one that
 * overlaps a range already entered; OUT_OF_MEMORY when the list cannot
 * grow. */
CUresult cuvk_mem_page_table_add_host(struct cuvk_mem_page_table *pt, uint64_t start, uint64_t size,
                                      uint64_t delta);

/* Removes the host range that starts at start; false when there is none. */
bool cuvk_mem_page_table_remove_host(struct cuvk_mem_page_table *pt, uint64_t start);

/* Copies at most max host ranges, in order, to out and returns how many
 * there are in all (a caller with too little room asks again). */
uint32_t cuvk_mem_page_table_host_ranges(struct cuvk_mem_page_table *pt,
                                         struct cuvk_kernel_host_range *out, uint32_t max);

#endif
