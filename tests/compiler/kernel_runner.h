/*
 * Runs kernels the compiler translated on a Vulkan device (lavapipe in
 * the tests), without cuvk's driver API: the test's harness (tests/common)
 * with the validation layer, one host-visible buffer per test allocation
 * whose device address is the kernel's pointer, push constants filled as
 * kernel_abi.h says with an empty page table (va_size 0) and host ranges
 * covering the runner's buffers with delta 0, so a pointer is its own
 * device address on any driver.  A pointer outside every buffer faults:
 * the run reports the fault word.
 *
 *    struct kr r;
 *    if (!kr_init(&r, "compiler.run.vector_add")) return 77 or 1;
 *    struct kr_buffer *a = kr_alloc(&r, bytes);      a->map, a->addr
 *    kr_load(&r, ptx, len);
 *    kr_run(&r, "vector_add", grid, block, 0, (struct kr_arg[]){ KR_ARG(a->addr), ... }, n,
 *           &fault, &status);
 *    return vkh_exit(kr_finish(&r));
 */
#ifndef CUVK_TESTS_KERNEL_RUNNER_H
#define CUVK_TESTS_KERNEL_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/compiler.h"
#include "vk_harness.h"

#define KR_MAX_BUFFERS 64

struct kr_buffer {
   VkBuffer buffer;
   VkDeviceMemory memory;
   void *map;
   uint64_t addr;          /* its device address: the kernel's pointer */
   uint64_t size;
};

struct kr {
   struct vkh h;
   bool ready;
   struct cuvk_cc_target target;   /* what the device offers */
   VkCommandPool pool;
   struct kr_buffer buffers[KR_MAX_BUFFERS];
   unsigned buffer_count;
   struct cuvk_cc_module *module;
   uint64_t *global_addrs;          /* per module global: its buffer's address */
   /* A page table for the runs, as the launch code would give one: 0 by
    * default (no cuvk address space, only the host ranges). */
   uint64_t va_base, va_size, page_table;
};

/* Vulkan with the features kernels need; false (printed) when the device
 * lacks them or on failure. */
bool kr_init(struct kr *r, const char *name);
/* Frees everything; returns the harness's message count. */
unsigned kr_finish(struct kr *r);

/* A zeroed buffer of size bytes, mapped; NULL on failure. */
struct kr_buffer *kr_alloc(struct kr *r, uint64_t size);

/* Loads PTX (cuvk_cc_module_create) and allocates its globals, filled
 * from their initialisers and relocations; false (printed) on failure. */
bool kr_load(struct kr *r, const char *ptx, size_t len);
/* The address of the module's global named name; 0 when none. */
uint64_t kr_global(struct kr *r, const char *name);

/* One kernel argument: its bytes, placed at the parameter's offset. */
struct kr_arg {
   const void *data;
   uint32_t size;
};
#define KR_ARG(x) ((struct kr_arg){ &(x), sizeof(x) })

/* Compiles kernel for the device and runs it once over grid x block
 * threads with dynamic_shared bytes of dynamic shared memory; *fault gets
 * the fault word.  False when the kernel does not compile (*status is
 * the compiler's, the error printed) or the run fails (*status OK). */
bool kr_run(struct kr *r, const char *kernel, const uint32_t grid[3], const uint32_t block[3],
            uint32_t dynamic_shared, const struct kr_arg *args, unsigned arg_count,
            uint32_t *fault, enum cuvk_cc_status *status);

#endif
