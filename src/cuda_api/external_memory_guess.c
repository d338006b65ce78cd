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
 * run on a scratch device of the same physical device, and only the type
 * that worked there is used for real.  The context keeps the scratch
 * device between imports (a device per import made each one cost tens of
 * milliseconds), and makes a fresh one after a failed try.
 */
#include "cuda_api/external_memory.h"

#include <pthread.h>

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

void
cuvk_import_scratch_init(struct cuvk_import_scratch *scratch)
{
   pthread_mutex_init(&scratch->lock, NULL);
   scratch->vk = VK_NULL_HANDLE;
}

void
cuvk_import_scratch_finish(struct cuvk_import_scratch *scratch)
{
   if (scratch->vk)
      vkDestroyDevice(scratch->vk, NULL);
   scratch->vk = VK_NULL_HANDLE;
   pthread_mutex_destroy(&scratch->lock);
}

/* Imports imp's duplicate into type on vk as the real import would (with
 * the dedicated buffer where there is one), and frees it again. */
static VkResult
try_import(VkDevice vk, struct cuvk_fd_import *imp, VkDeviceSize size, uint32_t type,
           const struct cuvk_mem_buffer_info *dedicated_buffer)
{
   VkBuffer buffer = VK_NULL_HANDLE;
   VkDeviceMemory memory;
   VkResult vr;

   if (dedicated_buffer) {
      vr = cuvk_external_dedicated_buffer_create(vk, dedicated_buffer, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
                                                 &buffer);
      if (vr != VK_SUCCESS)
         return vr;
   }
   vr = cuvk_mem_allocate(vk, size, type, cuvk_fd_import_chain(imp, buffer, VK_NULL_HANDLE), &memory);
   if (vr == VK_SUCCESS) {
      cuvk_fd_import_taken(imp);
      vkFreeMemory(vk, memory, NULL); /* closes the duplicate */
   }
   vkDestroyBuffer(vk, buffer, NULL);
   return vr;
}

/* Scratch lock held. */
static CUresult
guess_type_locked(struct cuvk_context *ctx, int fd, VkDeviceSize size,
                  const struct cuvk_mem_buffer_info *dedicated_buffer, const uint32_t *order,
                  uint32_t count, uint32_t *type_out)
{
   struct cuvk_import_scratch *scratch = &ctx->import_scratch;
   VkResult vr = VK_SUCCESS;

   for (uint32_t i = 0; i < count; i++) {
      if (!scratch->vk) {
         vr = scratch_device_create(ctx->dev, &scratch->vk);
         if (vr != VK_SUCCESS) {
            scratch->vk = VK_NULL_HANDLE;
            return cuvk_vk_error(vr, ENTRY ": vkCreateDevice of the device that finds the memory type");
         }
      }
      /* A duplicate for each try: after a failed import into one type,
       * NVIDIA's driver (580.159) refuses the same fd in every other
       * (measured on the H100: a host-visible export, tried device-local
       * first, then failed in all four types). */
      struct cuvk_fd_import imp;
      CUresult res = cuvk_fd_import_init(&imp, fd, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, ENTRY);
      if (res != CUDA_SUCCESS)
         return res;
      vr = try_import(scratch->vk, &imp, size, order[i], dedicated_buffer);
      cuvk_fd_import_finish(&imp);
      if (vr == VK_SUCCESS) {
         cuvk_logi(ENTRY ": fd %d imports as memory type %u", fd, order[i]);
         *type_out = order[i];
         return CUDA_SUCCESS;
      }
      cuvk_logi(ENTRY ": fd %d does not import as memory type %u: %s", fd, order[i], cuvk_vk_result_name(vr));
      /* The failure may have broken the scratch device (see above). */
      vkDestroyDevice(scratch->vk, NULL);
      scratch->vk = VK_NULL_HANDLE;
   }
   cuvk_logw(ENTRY ": fd %d imports into none of the %u memory types OPAQUE_FD buffers bind", fd, count);
   return cuvk_vk_error(vr, ENTRY ": vkAllocateMemory importing the fd");
}

CUresult
cuvk_external_memory_guess_type(struct cuvk_context *ctx, int fd, VkDeviceSize size,
                                const struct cuvk_mem_buffer_info *dedicated_buffer, uint32_t *type_out)
{
   const struct cuvk_device *dev = ctx->dev;
   uint32_t candidates = ctx->opaque_fd_type_bits;

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

   pthread_mutex_lock(&ctx->import_scratch.lock);
   CUresult res = guess_type_locked(ctx, fd, size, dedicated_buffer, order, count, type_out);
   pthread_mutex_unlock(&ctx->import_scratch.lock);
   return res;
}
