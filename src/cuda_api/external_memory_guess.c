/*
 * The memory type of an OPAQUE_FD import that has no record of its
 * export.
 *
 * Vulkan has no query for the memory type an opaque fd's payload lives
 * in, so without the layer's record cuvk tries the types an OPAQUE_FD
 * buffer can bind until an import succeeds.  It cannot try them on the
 * context's device: on NVIDIA (580.159, H100) a failed import breaks the
 * device it fails on, and every later vkAllocateMemory of that device
 * fails with VK_ERROR_OUT_OF_DEVICE_MEMORY (a 96 KiB export from a
 * host-visible type, imported into a device-local one, then a plain
 * 2 MiB allocation; tools/probes/import_types.c, figures in docs/layer.md).  So the tries
 * run on a scratch device of the same physical device, a fresh one after
 * each failure, and only the type that worked there is used for real.
 */
#include "cuda_api/external_memory.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "mem/block_heap.h"
#include "util/error.h"
#include "util/log.h"

#define ENTRY "cuImportExternalMemory"

/* A device with one queue and what an import needs: the fd extension,
 * and bufferDeviceAddress because cuvk's own imports ask for addresses. */
static VkResult
scratch_device_create(const struct cuvk_device *dev, VkDevice *out)
{
   const char *exts[] = { VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME };
   const float priority = 1.0f;
   VkDeviceQueueCreateInfo queue = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
      .queueFamilyIndex = dev->queue_family,
      .queueCount = 1,
      .pQueuePriorities = &priority,
   };
   VkPhysicalDeviceVulkan12Features f12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
      .bufferDeviceAddress = VK_TRUE,
   };
   VkDeviceCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
      .pNext = &f12,
      .queueCreateInfoCount = 1,
      .pQueueCreateInfos = &queue,
      .enabledExtensionCount = 1,
      .ppEnabledExtensionNames = exts,
   };
   return vkCreateDevice(dev->pdev, &info, NULL, out);
}

/* Imports a duplicate of fd into type on vk as the real import would
 * (with the dedicated buffer where there is one), and frees it again. */
static VkResult
try_import(VkDevice vk, int fd, VkDeviceSize size, uint32_t type,
           const struct cuvk_mem_buffer_info *dedicated_buffer)
{
   VkBuffer buffer = VK_NULL_HANDLE;
   VkDeviceMemory memory;
   VkResult vr;

   int dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
   if (dup_fd < 0) {
      cuvk_loge(ENTRY ": dup of fd %d failed: %s", fd, strerror(errno));
      return VK_ERROR_INVALID_EXTERNAL_HANDLE;
   }
   VkImportMemoryFdInfoKHR import = {
      .sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR,
      .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
      .fd = dup_fd,
   };
   VkMemoryDedicatedAllocateInfo dedicated = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO,
      .pNext = &import,
   };
   if (dedicated_buffer) {
      vr = cuvk_external_dedicated_buffer_create(vk, dedicated_buffer, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
                                                 &buffer);
      if (vr != VK_SUCCESS)
         goto fail_fd;
      dedicated.buffer = buffer;
   }

   vr = cuvk_mem_allocate(vk, size, type, dedicated_buffer ? (const void *)&dedicated : &import, &memory);
   if (vr != VK_SUCCESS)
      goto fail_buffer;
   vkFreeMemory(vk, memory, NULL);
   vkDestroyBuffer(vk, buffer, NULL);
   return VK_SUCCESS;

fail_buffer:
   vkDestroyBuffer(vk, buffer, NULL);
fail_fd:
   close(dup_fd);
   return vr;
}

CUresult
cuvk_external_memory_guess_type(struct cuvk_context *ctx, int fd, VkDeviceSize size,
                                const struct cuvk_mem_buffer_info *dedicated_buffer, uint32_t *type_out)
{
   const struct cuvk_device *dev = ctx->dev;
   uint32_t candidates = ctx->opaque_fd_type_bits;
   VkDevice scratch = VK_NULL_HANDLE;
   VkResult vr = VK_SUCCESS;

   /* One candidate: nothing to find out, and the real import says
    * whether it fits. */
   if (__builtin_popcount(candidates) <= 1) {
      *type_out = candidates ? (uint32_t)__builtin_ctz(candidates) : ctx->opaque_fd_type_index;
      return CUDA_SUCCESS;
   }

   /* The device-local type first: what an exporter shares most. */
   uint32_t order[VK_MAX_MEMORY_TYPES];
   uint32_t count = 0;
   order[count++] = ctx->opaque_fd_type_index;
   for (uint32_t t = 0; t < dev->mem.memoryTypeCount; t++)
      if (t != ctx->opaque_fd_type_index && (candidates & (1u << t)))
         order[count++] = t;

   for (uint32_t i = 0; i < count; i++) {
      if (!scratch) {
         vr = scratch_device_create(dev, &scratch);
         if (vr != VK_SUCCESS)
            return cuvk_vk_error(vr, ENTRY ": vkCreateDevice of the device that finds the memory type");
      }
      vr = try_import(scratch, fd, size, order[i], dedicated_buffer);
      if (vr == VK_SUCCESS) {
         vkDestroyDevice(scratch, NULL);
         cuvk_logi(ENTRY ": fd %d imports as memory type %u", fd, order[i]);
         *type_out = order[i];
         return CUDA_SUCCESS;
      }
      cuvk_logi(ENTRY ": fd %d does not import as memory type %u: %s", fd, order[i], cuvk_vk_result_name(vr));
      /* The failure may have broken the scratch device (see above). */
      vkDestroyDevice(scratch, NULL);
      scratch = VK_NULL_HANDLE;
   }
   cuvk_logw(ENTRY ": fd %d imports into none of the %u memory types OPAQUE_FD buffers bind", fd, count);
   return cuvk_vk_error(vr, ENTRY ": vkAllocateMemory importing the fd");
}
