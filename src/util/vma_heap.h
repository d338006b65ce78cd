/*
 * Address-range allocator: hands out ranges of a [start, start + size) span
 * of addresses that need not have any memory behind them.  cuvk uses it for
 * the device address space behind CUdeviceptr and to sub-allocate large
 * Vulkan memory blocks.
 *
 * Only the free holes are tracked, so the caller passes the size back to
 * cuvk_vma_heap_free and pays nothing per live allocation; the holes are
 * indexed by address and by size, so allocation and free are O(log n) in the
 * number of holes, however many ranges are live.  A hole costs one malloc'd
 * node, which is why cuvk_vma_heap_init and the allocating calls can fail
 * for lack of memory; they leave the heap untouched when they do.
 *
 * Nothing here locks: callers serialise every call on one heap.
 */
#ifndef CUVK_UTIL_VMA_HEAP_H
#define CUVK_UTIL_VMA_HEAP_H

#include <stdbool.h>
#include <stdint.h>

#include "util/rb_tree.h"

struct cuvk_vma_heap {
   /* Holes keyed by start address, for merging and fixed-address carving. */
   struct cuvk_rb_tree holes_by_addr;
   /* One hole per distinct size, keyed by size; holes of a size already
    * present hang off that one in a ring (see vma_heap.c). */
   struct cuvk_rb_tree holes_by_size;
   uint64_t start;
   uint64_t size;
   uint64_t free_size;
};

/* Makes all of [start, start + size) free.  The span may not wrap past
 * UINT64_MAX; size may be 0 (a heap that never allocates).  Returns false on
 * malloc failure, leaving nothing to finish. */
bool cuvk_vma_heap_init(struct cuvk_vma_heap *heap, uint64_t start, uint64_t size);

/* Frees the heap's bookkeeping.  Live allocations are simply forgotten. */
void cuvk_vma_heap_finish(struct cuvk_vma_heap *heap);

/*
 * Allocates size (> 0) bytes at an address that is a multiple of alignment
 * (a power of two) and stores it in *addr.  Returns false, leaving *addr
 * and the heap untouched, when no fitting hole is found or on malloc
 * failure.
 *
 * Fit: among the holes that fit it picks, with a few candidates checked in
 * size order, the smallest; if none of those fits once aligned, it takes
 * the smallest hole of at least size + alignment - 1 bytes, which fits
 * whatever its start.  So it always succeeds when some hole has size +
 * alignment - 1 bytes, and may fail when only holes between size and size +
 * alignment - 2 bytes exist and more than a few of them are misaligned.
 */
bool cuvk_vma_heap_alloc(struct cuvk_vma_heap *heap, uint64_t size, uint64_t alignment,
                         uint64_t *addr);

/* Allocates exactly [addr, addr + size).  Returns false, changing nothing,
 * unless the whole range is free, or on malloc failure. */
bool cuvk_vma_heap_alloc_addr(struct cuvk_vma_heap *heap, uint64_t addr, uint64_t size);

/* Returns [addr, addr + size) to the heap, merging it with free neighbours.
 * The range must be allocated: callers validate first.  Debug builds assert
 * that it lies inside the heap and overlaps no hole, which catches double
 * frees and frees of never-allocated space (not a free of part of one live
 * allocation, which the heap cannot tell from a free of a whole one).  A
 * free that cannot merge needs a node; if that malloc fails the range is
 * logged and stays allocated for good rather than corrupting the heap. */
void cuvk_vma_heap_free(struct cuvk_vma_heap *heap, uint64_t addr, uint64_t size);

/* Total free bytes, O(1). */
static inline uint64_t
cuvk_vma_heap_free_size(const struct cuvk_vma_heap *heap)
{
   return heap->free_size;
}

/* True when nothing is allocated: the whole span is one free hole. O(1). */
static inline bool
cuvk_vma_heap_is_empty(const struct cuvk_vma_heap *heap)
{
   return heap->free_size == heap->size;
}

/* Size of the largest hole (0 when full), O(log n).  An allocation of that
 * size with alignment 1 is certain to succeed, short of malloc failure. */
uint64_t cuvk_vma_heap_largest_free(const struct cuvk_vma_heap *heap);

/* Checks both indexes against each other: holes in bounds, sorted, neither
 * overlapping nor touching (touching holes must have been merged), every
 * hole in the size index exactly once, and free_size their sum.  Logs the
 * first violation and returns false.  O(n); for tests and debugging. */
bool cuvk_vma_heap_validate(const struct cuvk_vma_heap *heap);

#endif
