/*
 * The application's Vulkan side of the virtual-memory tests, on the
 * harness's VkDevice: import an fd that cuMemExportToShareableHandle
 * gave, bind a buffer to it, and move bytes through that buffer with
 * transfer commands, as simpleVulkanMMAP's renderer would with its vertex
 * buffer.  No cuda.h here: this file is built alongside either header.
 */
#ifndef CUVK_TESTS_VMM_VK_H
#define CUVK_TESTS_VMM_VK_H

#include "vk_harness.h"

struct vmm_vk_import {
   VkDeviceMemory memory;
   VkBuffer buffer;
   VkDeviceSize size;
   uint32_t type_index;
};

/* Imports fd (an OPAQUE_FD of size bytes) into a buffer over all of it.
 * Takes the fd either way: Vulkan owns it after a successful import, and
 * it is closed on failure. */
bool vmm_vk_import_fd(struct vkh *h, int fd, VkDeviceSize size, struct vmm_vk_import *out);
void vmm_vk_import_destroy(struct vkh *h, struct vmm_vk_import *imp);

/* Copies through a host-visible staging buffer with vkCmdCopyBuffer and
 * waits for the queue. */
bool vmm_vk_read(struct vkh *h, VkBuffer src, VkDeviceSize offset, void *dst, size_t size);
bool vmm_vk_write(struct vkh *h, VkBuffer dst, VkDeviceSize offset, const void *src, size_t size);
/* vkCmdFillBuffer; offset and size multiples of 4. */
bool vmm_vk_fill(struct vkh *h, VkBuffer dst, VkDeviceSize offset, VkDeviceSize size, uint32_t value);

#endif
