/*
 * What the external-memory interop tests share.
 *
 * Every case plays both sides in one process: an exporter, with its own
 * VkInstance and VkDevice from tests/common/vk_harness (whose messenger
 * counts validation messages), and an importer, cuvk through the CUDA
 * driver API.  The two only meet through the fd vkGetMemoryFdKHR returns,
 * as an application and CUDA would.  Work on the two sides is ordered by
 * host waits (vkQueueWaitIdle, cuCtxSynchronize), never by both touching
 * memory at once.
 *
 * Data checks compare every byte of the range a side reads with a model of
 * what the exported memory must hold: the tests start from a pattern
 * written by Vulkan, apply each write to the model too, and so also see
 * bytes outside the written ranges that changed when they must not.
 *
 * This file compiles against our include/cuda.h and against NVIDIA's (the
 * nvidia_header build), so it uses nothing cuvk-specific.
 */
#ifndef CUVK_TESTS_INTEROP_HARNESS_H
#define CUVK_TESTS_INTEROP_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

#include "vk_harness.h"

#define ITEST_PASS VKH_EXIT_PASS
#define ITEST_FAIL VKH_EXIT_FAIL
#define ITEST_SKIP VKH_EXIT_SKIP

/* Where the exporter puts the memory. */
enum itest_memory {
   /* Host-visible (and coherent where the driver has it): Vulkan reads
    * and writes it through vkMapMemory. */
   ITEST_HOST_VISIBLE,
   /* Device-local and not host-visible: Vulkan reads and writes through a
    * staging buffer.  Drivers without such a type (lavapipe) skip. */
   ITEST_DEVICE_ONLY,
};

struct itest {
   struct vkh vk;
   /* VK_INSTANCE_LAYERS names VK_LAYER_CUVK_interop: cuvk finds the
    * exporter's record of every fd. */
   bool layer_on;
   bool have_cuda;
   CUdevice cu_device;
   CUcontext cu_context;
   VkCommandPool pool;
};

/*
 * One exported allocation and the buffers on it.
 *
 * target is the buffer the test works on, target_offset bytes into the
 * memory.  Dedicated: target is the allocation's dedicated buffer, at 0.
 * Suballocated: target sits at a non-zero offset of a larger allocation,
 * and whole, bound at 0 and aliasing target, covers the allocation so that
 * staging copies can reach every byte of it.
 *
 * model_size is how many bytes from offset 0 the tests can read back
 * through Vulkan: the whole allocation, except for dedicated device-only
 * memory, where only the buffer's range is reachable.
 */
struct itest_export {
   VkDeviceMemory memory;
   VkDeviceSize allocation_size;
   uint32_t type_index;
   bool host_visible;
   bool dedicated;

   VkBuffer whole;
   VkBuffer target;
   VkDeviceSize target_offset;
   VkDeviceSize target_size;
   VkDeviceSize model_size;
};

#define ITEST_ALIGN(v, a) (((v) + (a) - 1) / (a) * (a))

/* Usage every exported buffer has: copies both ways and fills. */
#define ITEST_BUFFER_USAGE \
   (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | \
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT)

/* ---- setup -------------------------------------------------------------- */

/* Whether this run enables VK_LAYER_CUVK_interop (from VK_INSTANCE_LAYERS,
 * which the test environment sets for the exporter and cuvk alike). */
bool itest_layer_requested(void);

/* Creates the exporter and, with with_cuda, initialises CUDA and makes
 * current the primary context of the CUDA device whose UUID is the
 * exporter's deviceUUID.  Prints why and returns false on failure. */
bool itest_init(struct itest *t, const char *name, bool with_cuda);
/* The same with the exporter's device made as options says (extensions
 * such as VK_KHR_external_semaphore_fd, timeline semaphores). */
bool itest_init_options(struct itest *t, const char *name, bool with_cuda,
                        const struct vkh_options *options);

/* Releases the context and the exporter; returns the test's exit status
 * (fails on any failed check or validation message). */
int itest_finish(struct itest *t);

/* ---- exporting ---------------------------------------------------------- */

/* A memory type of type_bits of the given kind, or -1. */
int itest_memory_type(const struct itest *t, uint32_t type_bits, enum itest_memory memory);

/*
 * Creates and exports (VkExportMemoryAllocateInfo, OPAQUE_FD) an
 * allocation holding a target buffer of size bytes, as described at
 * struct itest_export.  Returns VK_ERROR_FEATURE_NOT_PRESENT when the
 * device has no memory type of that kind (the case then skips).
 */
VkResult itest_export_create(struct itest *t, VkDeviceSize size, bool dedicated,
                             enum itest_memory memory, struct itest_export *e);
/* Destroys the buffers and frees the memory; safe on a zeroed export and
 * on one already destroyed. */
void itest_export_destroy(struct itest *t, struct itest_export *e);

/* vkGetMemoryFdKHR; -1 on failure (counted). */
int itest_export_fd(struct itest *t, const struct itest_export *e);

/* ---- Vulkan access ------------------------------------------------------ */

/* Reads or writes bytes [offset, offset + size) of the memory: mapped when
 * host-visible, else through a staging buffer and the whole buffer. */
bool itest_vk_write(struct itest *t, const struct itest_export *e, VkDeviceSize offset,
                    const void *data, size_t size);
bool itest_vk_read(struct itest *t, const struct itest_export *e, VkDeviceSize offset,
                   void *data, size_t size);

/* vkCmdCopyBuffer from a staging buffer into buffer at offset, one region
 * per entry, on the exporter's queue; waits for it. */
struct itest_region {
   VkDeviceSize offset;
   const void *data;
   size_t size;
};
bool itest_vk_copy_into(struct itest *t, VkBuffer buffer, const struct itest_region *regions,
                        uint32_t count);

/* vkCmdFillBuffer on the exporter's queue; waits for it. */
bool itest_vk_fill(struct itest *t, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size,
                   uint32_t value);

/* Checks that bytes [0, e->model_size) of the memory equal model. */
bool itest_vk_check_(struct itest *t, const struct itest_export *e, const uint8_t *model,
                     const char *file, int line, const char *what);
#define itest_vk_check(t, e, model, what) \
   itest_vk_check_((t), (e), (model), __FILE__, __LINE__, (what))

/* ---- CUDA --------------------------------------------------------------- */

/* Checks a CUresult: counts a failure naming the expression and both
 * codes when it is not the one wanted. */
bool itest_cu_expect_(const char *file, int line, const char *expr, CUresult got, CUresult want);
#define ITEST_CU(expr) itest_cu_expect_(__FILE__, __LINE__, #expr, (expr), CUDA_SUCCESS)
#define ITEST_CU_EXPECT(expr, want) itest_cu_expect_(__FILE__, __LINE__, #expr, (expr), (want))

/* cuImportExternalMemory of an OPAQUE_FD. */
CUresult itest_import(int fd, unsigned long long size, unsigned flags, CUexternalMemory *out);

/* cuExternalMemoryGetMappedBuffer of [offset, offset + size). */
CUresult itest_map(CUexternalMemory ext, unsigned long long offset, unsigned long long size,
                   CUdeviceptr *out);

/* Reads size bytes at ptr with cuMemcpyDtoH and checks them against want. */
bool itest_cu_check_(CUdeviceptr ptr, const uint8_t *want, size_t size, const char *file,
                     int line, const char *what);
#define itest_cu_check(ptr, want, size, what) \
   itest_cu_check_((ptr), (want), (size), __FILE__, __LINE__, (what))

/* ---- data --------------------------------------------------------------- */

/* Fills dst with bytes that depend on seed and on the position, with no
 * short period, so that a shifted or misplaced copy never matches. */
void itest_pattern(uint8_t *dst, size_t size, uint32_t seed);

/* The bytes cuMemsetD16/D32 of value write (little-endian), count
 * elements. */
void itest_model_fill16(uint8_t *dst, uint16_t value, size_t count);
void itest_model_fill32(uint8_t *dst, uint32_t value, size_t count);

/* Compares size bytes; on a difference counts a failure saying how many
 * bytes differ and where the first and last are (case_harness.h). */
#define itest_check_bytes(got, want, size, what) \
   cuvk_test_check_bytes(__FILE__, __LINE__, (got), (want), (size), "%s", (what))

/* Counts a failure with a formatted message. */
#define itest_failf cuvk_test_report
#define ITEST_FAILF(...) itest_failf(__FILE__, __LINE__, __VA_ARGS__)

/* ---- file descriptors --------------------------------------------------- */

bool itest_fd_is_open(int fd);

/* The number of open fds of the process (/proc/self/fd). */
int itest_count_fds(void);

/* Sends fd and size bytes of data over a unix socket (SCM_RIGHTS); true on
 * success.  itest_recv_fd returns the received fd, or -1. */
bool itest_send_fd(int sock, int fd, const void *data, size_t size);
int itest_recv_fd(int sock, void *data, size_t size);

/* A new fd on the same open file description as fd, received over a
 * socketpair as a peer process would get it; -1 on failure. */
int itest_pass_fd_to_self(int fd);

#endif
