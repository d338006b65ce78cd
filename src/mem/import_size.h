/*
 * The size of an exported allocation that neither a record nor the fd
 * tells, found by importing it.
 *
 * NVIDIA's opaque fds are opens of /dev/nvidiactl (size 0, no lseek), and
 * a cuMemExportToShareableHandle fd sent to another process arrives with
 * nothing else; CUDA's cuMemImportFromShareableHandle takes no size.
 * Measured on an H100 (driver 580.159.04): the driver imports such an fd
 * at any allocationSize up to the allocation's own and refuses anything
 * larger with VK_ERROR_OUT_OF_DEVICE_MEMORY, leaving later allocations
 * and imports unharmed.  The largest size that imports is therefore the
 * allocation's.  Only for drivers where that was measured
 * (cuvk_policy_import_size_probe): elsewhere a larger size may import and
 * fault at the first touch past the end.
 */
#ifndef CUVK_MEM_IMPORT_SIZE_H
#define CUVK_MEM_IMPORT_SIZE_H

#include <stdbool.h>

#include <vulkan/vulkan.h>

/* Finds the allocation size of fd, a multiple of granule no larger than
 * limit, by trial imports of dups of fd as memory type type_index (each
 * freed again); fd itself is left alone.  False when not even one granule
 * imports. */
bool cuvk_mem_probe_import_size(VkDevice vk, int fd, uint32_t type_index, VkDeviceSize granule,
                                VkDeviceSize limit, VkDeviceSize *size);

#endif
