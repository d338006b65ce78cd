/*
 * The process-wide device address space: every CUdeviceptr cuvk hands out
 * comes from here.
 *
 * The space is a range of the host's own virtual address space, reserved
 * with an inaccessible mapping (PROT_NONE, MAP_NORESERVE: no memory, no
 * commit charge) and never released.  Because the host can never place
 * anything there, no host pointer (malloc, mmap, stack, a library) can equal
 * a device address, so entry points that take "a device or host pointer"
 * tell them apart with cuvk_mem_va_contains alone.
 *
 * Threads: every function may be called from any thread.  Allocation and
 * free serialise on one internal mutex; cuvk_mem_va_contains and
 * cuvk_mem_va_get_bounds never lock.
 */
#ifndef CUVK_MEM_VA_SPACE_H
#define CUVK_MEM_VA_SPACE_H

#include <stdbool.h>
#include <stdint.h>

#include <cuda.h>

/* What cuvk_mem_va_init(0), and an allocation before any init, reserve. */
#define CUVK_MEM_VA_DEFAULT_SIZE (UINT64_C(1) << 40)

/* When the host refuses a reservation (RLIMIT_AS, a small address space),
 * the size is halved until it fits, but never below this. */
#define CUVK_MEM_VA_MIN_SIZE (UINT64_C(1) << 30)

/*
 * Reserves the space, wanted_size bytes (0: CUVK_MEM_VA_DEFAULT_SIZE), or
 * the largest half, quarter, ... of it the host grants, down to
 * CUVK_MEM_VA_MIN_SIZE (or wanted_size itself when smaller).  Idempotent:
 * once a call succeeds, later calls return CUDA_SUCCESS and change nothing,
 * whatever size they ask for.  A failed call (CUDA_ERROR_OUT_OF_MEMORY)
 * leaves the space unreserved, so a later call may try again.
 */
CUresult cuvk_mem_va_init(uint64_t wanted_size);

/* True when addr lies in the reserved space (false before it is reserved).
 * Lock-free, so cheap enough to classify every pointer an entry point gets.
 * It says nothing about whether addr is currently allocated. */
bool cuvk_mem_va_contains(uint64_t addr);

/*
 * Allocates size bytes of the space at a multiple of alignment (a power of
 * two; 0 means 1) and stores the address in *addr; reserves the space with
 * the default size first if no init has.  A nonzero hint is honoured when it
 * is a multiple of alignment and [hint, hint + size) is wholly free;
 * otherwise the hint is ignored and any address is used.  The result is
 * never 0.  The range is not rounded: the caller frees it with the same size.
 *
 * Returns CUDA_ERROR_INVALID_VALUE for a zero size, a NULL addr or a bad
 * alignment, and CUDA_ERROR_OUT_OF_MEMORY when the space is exhausted,
 * cannot be reserved, or bookkeeping memory runs out.  O(log n) in the
 * number of free holes.
 */
CUresult cuvk_mem_va_alloc(uint64_t size, uint64_t alignment, uint64_t hint, uint64_t *addr);

/* Returns a range that cuvk_mem_va_alloc gave out, with the size it was
 * given.  The caller validates the range first: a bad one is only caught by
 * assertions in debug builds. */
void cuvk_mem_va_free(uint64_t addr, uint64_t size);

/* The reserved span; both 0 before the space is reserved.  Lock-free; the
 * bounds never change once set. */
void cuvk_mem_va_get_bounds(uint64_t *start, uint64_t *size);

#endif
