/*
 * Process-wide driver state: the Vulkan instance cuvk owns, and one
 * cuvk_device per Vulkan physical device that can run cuvk.
 */
#ifndef CUVK_API_DRIVER_H
#define CUVK_API_DRIVER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <cuda.h>
#include <vulkan/vulkan.h>

#include "mem/budget.h"
#include "util/list.h"

struct cuvk_context;

/*
 * A memory pool of cuvk's stream-ordered allocator (mempool.c): each
 * device's default pool, embedded in its cuvk_device, and the pools
 * programs create (cuMemPoolCreate).  A pool keeps no memory of its own:
 * cuMemAllocAsync and cuMemAllocFromPoolAsync take from the stream's
 * context's device heap as cuMemAlloc does, and a free gives the bytes
 * back to that heap once the GPU has passed it.  The pool counts what
 * its allocations hold, for the attributes programs read.  All fields
 * under mempool.c's lock; a default pool is zero-initialised with its
 * device.
 */
struct cuvk_mem_pool {
   uint64_t used;           /* bytes of live allocations */
   uint64_t used_high;
   uint64_t reserved;       /* used, plus freed bytes the GPU may still use */
   uint64_t reserved_high;
   uint64_t release_threshold;
   uint64_t max_size;       /* CUmemPoolProps.maxSize; 0: no limit */
   /* The CU_MEMPOOL_ATTR_REUSE_* flags, stored inverted so that zero is
    * CUDA's default (enabled). */
   bool reuse_off[3];

   /* Created pools only (NULL dev: a default pool, which lives as long
    * as its device). */
   struct cuvk_device *dev;
   /* One for the handle until cuMemPoolDestroy, one per allocation until
    * its release: CUDA frees a destroyed pool once its last allocation
    * is gone, and so does cuvk. */
   uint64_t refs;
   struct cuvk_list link;   /* in mempool.c's list of live handles */
};

struct cuvk_device {
   int ordinal;
   VkPhysicalDevice pdev;
   VkPhysicalDeviceProperties props;
   VkPhysicalDeviceIDProperties id;
   VkPhysicalDeviceSubgroupProperties subgroup;
   VkPhysicalDeviceMemoryProperties mem;
   VkPhysicalDevicePCIBusInfoPropertiesEXT pci;
   VkDriverId driver_id;
   VkDeviceSize min_imported_host_alignment;
   VkDeviceSize max_allocation_size;  /* maxMemoryAllocationSize */
   uint32_t queue_family;
   uint32_t queue_count;          /* queues queue_family offers */
   uint32_t timestamp_valid_bits;
   /* The GPU's multiprocessors as the driver counts them: NVIDIA's SMs
    * (VK_NV_shader_sm_builtins' shaderSMCount) or AMD's compute units
    * (VK_AMD_shader_core_properties); 0 where the driver says nothing. */
   uint32_t sm_count;
   /* A family with TRANSFER and neither COMPUTE nor GRAPHICS (NVIDIA's
    * copy engines), UINT32_MAX where there is none. */
   uint32_t transfer_family;
   uint32_t transfer_queue_count;
   VkExtent3D transfer_granularity;  /* its minImageTransferGranularity */
   /* VK_KHR_global_priority, else VK_EXT_global_priority (NULL: neither). */
   const char *global_priority_ext;

   bool has_pci_bus_info;
   bool has_external_memory_host;
   bool has_dma_buf;
   bool has_memory_budget;
   /* VK_EXT_shader_atomic_float: kernels' float atomic adds. */
   bool has_atomic_float;
   /* VK_KHR_workgroup_memory_explicit_layout: 64-bit shared atomics
    * (compiler.h's shared_atomic_int64). */
   bool has_workgroup_explicit_layout;
   /* VK_KHR_shader_clock: kernels' %clock and %clock64 (compiler.h's
    * shader_clock). */
   bool has_shader_clock;
   /* VK_EXT_custom_border_color and VK_EXT_border_color_swizzle: texture
    * samplers with any border colour (texture.c). */
   bool has_custom_border_color;
   bool has_border_color_swizzle;
   /* VK_KHR_external_semaphore_fd: native OPAQUE_FD semaphore imports
    * (external_semaphore.c), binary and timeline. */
   bool has_external_semaphore_fd;
   /* Reservations are backed by a sparse buffer (util/device_policy.h);
    * contexts then enable sparseBinding and sparseResidencyBuffer. */
   bool sparse_reservations;
   VkDeviceSize sparse_space_used;  /* of sparseAddressSpaceSize (vmm_sparse.c) */

   /* The memory type device allocations use, and the one pinned host
    * allocations use (host-visible, cached where the device has it). */
   uint32_t device_type_index;
   uint32_t host_type_index;
   /* The device memory heap's size as cuvk uses it: the Vulkan heap's,
    * lowered by CUVK_DEVICE_HEAP_LIMIT (cuDeviceTotalMem, cuMemGetInfo). */
   VkDeviceSize device_heap_size;
   /* What cuvk's contexts on this device hold of each heap (mem/budget.h). */
   struct cuvk_mem_budget budget;
   /* Large device allocations get exportable device-local memory where a
    * context can allocate it (util/device_policy.h, context.c). */
   bool bulk_exportable;
   /* cuMemHostRegister may import read-only pages (util/device_policy.h). */
   bool read_only_host_import;
   /* cuvk_policy_import_size_probe */
   bool import_size_probe;

   /* The default memory pool, and the current one: what cuMemAllocAsync
    * allocates from (NULL: the default pool; under mempool.c's lock). */
   struct cuvk_mem_pool pool;
   struct cuvk_mem_pool *current_pool;

   /* Primary context: created by the first retain, destroyed by the last
    * release or by a reset. */
   pthread_mutex_t primary_lock;
   struct cuvk_context *primary;
   unsigned primary_refs;
   unsigned primary_flags;
};

struct cuvk_driver {
   VkInstance instance;
   VkDebugUtilsMessengerEXT messenger;
   uint32_t api_version;
   int device_count;
   struct cuvk_device *devices;
   bool layer_active;
   bool validation_fatal;      /* CUVK_VALIDATION_FATAL, read at cuInit */
};

extern struct cuvk_driver cuvk_driver;

/* CUDA_SUCCESS once cuInit has succeeded; CUDA_ERROR_NOT_INITIALIZED (with
 * a log line naming the entry point) before. */
CUresult cuvk_driver_check(const char *entry);

/* Resolves a CUdevice to its cuvk_device, or CUDA_ERROR_INVALID_DEVICE. */
CUresult cuvk_device_get(CUdevice dev, const char *entry, struct cuvk_device **out);

/* The largest single allocation of a memory type: the smaller of its
 * heap and maxMemoryAllocationSize. */
VkDeviceSize cuvk_device_max_allocation(const struct cuvk_device *dev, uint32_t type_index);

/* Instance-level entry point of an extension, looked up once. */
PFN_vkVoidFunction cuvk_driver_instance_proc(const char *name);

/* Between begin and end, a validation message with this VUID that names
 * object is logged at debug level instead of as an error (and does not
 * abort under CUVK_VALIDATION_FATAL): for a call the validation layers
 * are known to flag wrongly, each use documented where it is made.  Per
 * thread; the messages come on the thread making the call. */
void cuvk_driver_quirk_begin(const char *vuid, uint64_t object);
void cuvk_driver_quirk_end(void);

#endif
