/*
 * The contract between a translated kernel and the launch code that runs
 * it (src/cuda_api/): what the kernel finds in its push constants and
 * specialization constants, and how it reaches memory.  Both sides
 * include this header; nothing else passes between them.
 *
 * Memory model.  A CUdeviceptr is an address in cuvk's own device address
 * space (src/mem/va_space.h), not a Vulkan buffer device address, and
 * pinned or registered host memory is named by its host address (docs/
 * design.md).  A kernel keeps PTX's pointers as they are (so pointer
 * arithmetic, pointers stored in memory and comparisons all behave as on
 * CUDA) and translates at each access:
 *
 *   - an address inside [va_base, va_base + va_size) finds the device
 *     address through the page table: one 64-bit entry per
 *     CUVK_KERNEL_PAGE_SIZE page, entry = (buffer device address of the
 *     page) - (its cuvk address), so device = addr + entry.  Every
 *     allocation cuvk places in the space is aligned to a page and keeps
 *     one buffer per page, so one entry serves the whole page;
 *   - any other address is looked up in the host ranges: host_range_count
 *     sorted, disjoint {start, end, delta} triples of pinned and
 *     registered memory, device = addr + delta;
 *   - an entry of 0 or an address found nowhere is a fault: the kernel
 *     stores CUVK_KERNEL_FAULT_ADDRESS in the fault word, and performs
 *     the access on the scratch bytes after it instead (so the process
 *     never touches memory it does not own), and the launch code reports
 *     CUDA_ERROR_ILLEGAL_ADDRESS once the work has run.
 *
 * Spans: a fast path for the common case, an address computed from a
 * pointer the kernel received as a parameter.  After the parameter block,
 * at params + CUVK_KERNEL_SPANS_OFFSET(param_bytes), the launch code
 * writes one struct cuvk_kernel_span per 8-byte word of the block (the
 * first CUVK_KERNEL_SPAN_WORDS words, CUVK_KERNEL_SPAN_COUNT of them):
 * for a word whose value lies in memory the page table or a host range
 * reaches, the span around it that one delta translates (a run of pages
 * with the same entry, or the host range less its last 31 bytes); for
 * any other word, size 0.  Every address a with a - base < size (64-bit,
 * unsigned) is reachable at a + delta by an access of up to 32 bytes, as
 * the page table would have said when the launch was recorded.  A kernel
 * may test an address against any span and take the page table when it
 * is outside: spans are never needed, only faster (an address outside
 * every allocation is outside every span).
 *
 * Generic addresses of .shared and .local memory (cvta.shared,
 * cvta.local, generic ld/st) live in windows no device or host pointer can
 * fall in (x86-64 and AArch64 user addresses stay below 2^48), so a
 * generic access tells the three apart by the address alone.
 */
#ifndef CUVK_COMPILER_KERNEL_ABI_H
#define CUVK_COMPILER_KERNEL_ABI_H

#include <stdint.h>

#define CUVK_KERNEL_PAGE_SHIFT 21
#define CUVK_KERNEL_PAGE_SIZE (UINT64_C(1) << CUVK_KERNEL_PAGE_SHIFT)

/* Generic windows of .shared and .local memory: offset + window. */
#define CUVK_KERNEL_SHARED_WINDOW UINT64_C(0xffff800000000000)
#define CUVK_KERNEL_LOCAL_WINDOW UINT64_C(0xffff900000000000)
#define CUVK_KERNEL_WINDOW_SIZE (UINT64_C(1) << 40)

/* Bytes of scratch after the fault word that faulting accesses land in.
 * A faulting access is redirected to fault + 16 + (addr % (SCRATCH_SIZE
 * - 32)): an access of up to 16 bytes keeps the alignment it had (the
 * fault word's address must be 16-byte aligned) and stays inside the
 * 4 + CUVK_KERNEL_SCRATCH_SIZE bytes the launch code allocates. */
#define CUVK_KERNEL_SCRATCH_SIZE 256u

enum cuvk_kernel_fault {
   CUVK_KERNEL_FAULT_NONE = 0,
   CUVK_KERNEL_FAULT_ADDRESS = 1,    /* an access outside every allocation */
   CUVK_KERNEL_FAULT_TRAP = 2,       /* trap, or a failed assertion */
};

/* Specialization constants: SpecId 0, 1, 2 are the block shape (x, y, z)
 * behind WorkgroupSize; 3 is the bytes of dynamic shared memory. */
#define CUVK_KERNEL_SPEC_BLOCK_X 0
#define CUVK_KERNEL_SPEC_BLOCK_Y 1
#define CUVK_KERNEL_SPEC_BLOCK_Z 2
#define CUVK_KERNEL_SPEC_DYNAMIC_SHARED 3

/* Push constants, std430 layout, in this order (Offset decorations in the
 * module equal offsetof here).  Vulkan guarantees 128 bytes. */
struct cuvk_kernel_push {
   uint64_t params;           /* device address of the parameter block: the
                               * kernel's .param space, laid out at the
                               * offsets cuvk_cc_kernel_info lists */
   uint64_t globals;          /* device address of a uint64_t per module
                               * variable (.global, .const), by index in
                               * the module: its CUdeviceptr */
   uint64_t page_table;       /* device address of the page table */
   uint64_t va_base;          /* cuvk address of page 0 */
   uint64_t va_size;          /* bytes the page table covers */
   uint64_t host_ranges;      /* device address of the host ranges */
   uint64_t fault;            /* device address of the fault word (uint32_t,
                               * then CUVK_KERNEL_SCRATCH_SIZE bytes) */
   uint32_t host_range_count;
   uint32_t grid_base[3];     /* %ctaid of this dispatch's first workgroup
                               * (grids beyond maxComputeWorkGroupCount are
                               * split into several dispatches) */
   uint32_t nctaid[3];        /* the whole grid: %nctaid */
   uint32_t reserved;
   uint64_t printf_buffer;    /* device address of the context's printf
                               * buffer (below); 0 for kernels that do
                               * not print */
};

struct cuvk_kernel_host_range {
   uint64_t start, end, delta;
};

_Static_assert(sizeof(struct cuvk_kernel_push) == 96, "push constant layout");

/*
 * The printf buffer (device printf, vprintf): a header of
 * CUVK_KERNEL_PRINTF_HEADER bytes, { uint32_t head; uint32_t capacity; },
 * then capacity bytes of records.  A thread that prints reserves a record
 * by adding its size to head (only while head < capacity, so head stays
 * near capacity once it is full) and writes it only when the whole record
 * fits; what does not fit is dropped, as on CUDA.  A record is
 *
 *   uint32_t size;        total bytes, a multiple of 8; stored last with
 *                         release semantics, so 0 means "being written"
 *   uint32_t arg_bytes;   bytes of arguments that follow
 *   uint64_t format;      CUdeviceptr of the format string
 *   uint8_t  args[];      nvcc's argument buffer as vprintf got it
 *
 * The host (src/cuda_api/printf.c) prints complete records in order at
 * synchronisations and resets head to 0 when no printing kernel can run.
 */
#define CUVK_KERNEL_PRINTF_HEADER 16u
#define CUVK_KERNEL_PRINTF_RECORD 16u

struct cuvk_kernel_span {
   uint64_t base, size, delta;
};

#define CUVK_KERNEL_SPAN_WORDS 32u
#define CUVK_KERNEL_SPANS_OFFSET(param_bytes) (((uint64_t)(param_bytes) + 15) / 16 * 16)
#define CUVK_KERNEL_SPAN_COUNT(param_bytes)                                        \
   ((param_bytes) / 8 < CUVK_KERNEL_SPAN_WORDS ? (uint32_t)(param_bytes) / 8        \
                                               : CUVK_KERNEL_SPAN_WORDS)
/* The bytes a span must leave at its end for the widest access (v4.b64,
 * v8.b32) to stay inside a host range. */
#define CUVK_KERNEL_SPAN_ACCESS 32u

#endif
