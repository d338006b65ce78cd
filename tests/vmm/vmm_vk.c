#include "vmm_vk.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define VMM_VK_USAGE (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT)

static bool
vmm_vk_ok(VkResult res, const char *what)
{
   if (res == VK_SUCCESS)
      return true;
   fprintf(stderr, "vmm_vk: %s: VkResult %d\n", what, res);
   return false;
}

bool
vmm_vk_import_fd(struct vkh *h, int fd, VkDeviceSize size, struct vmm_vk_import *out)
{
   VkMemoryRequirements req;

   memset(out, 0, sizeof(*out));
   out->size = size;
   if (!vmm_vk_ok(vkh_create_buffer(h, size, VMM_VK_USAGE, VKH_OPAQUE_FD, &out->buffer),
                  "vkCreateBuffer(import)"))
      goto fail_fd;
   vkGetBufferMemoryRequirements(h->device, out->buffer, &req);
   if (req.size > size) {
      fprintf(stderr, "vmm_vk: a %llu-byte buffer needs %llu bytes, more than the import holds\n",
              (unsigned long long)size, (unsigned long long)req.size);
      goto fail_buffer;
   }

   /* What simpleVulkanMMAP does: the buffer's first device-local type.
    * An OPAQUE_FD import must name the exporter's type; cuvk exports from
    * the device-local type of the same physical device. */
   int type = vkh_find_memory_type(h, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
   if (type < 0) {
      fprintf(stderr, "vmm_vk: no device-local memory type for the imported buffer\n");
      goto fail_buffer;
   }
   out->type_index = (uint32_t)type;

   VkImportMemoryFdInfoKHR import = {
      .sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR,
      .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
      .fd = fd,
   };
   VkMemoryAllocateInfo info = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .pNext = &import,
      .allocationSize = size,
      .memoryTypeIndex = out->type_index,
   };
   if (!vmm_vk_ok(vkAllocateMemory(h->device, &info, NULL, &out->memory), "vkAllocateMemory(import)"))
      goto fail_buffer;
   /* A successful import owns the fd: it closes with the memory. */
   fd = -1;
   if (!vmm_vk_ok(vkBindBufferMemory(h->device, out->buffer, out->memory, 0), "vkBindBufferMemory(import)"))
      goto fail_memory;
   return true;

fail_memory:
   vkFreeMemory(h->device, out->memory, NULL);
   out->memory = VK_NULL_HANDLE;
fail_buffer:
   vkDestroyBuffer(h->device, out->buffer, NULL);
   out->buffer = VK_NULL_HANDLE;
fail_fd:
   if (fd >= 0)
      close(fd);
   return false;
}

void
vmm_vk_import_destroy(struct vkh *h, struct vmm_vk_import *imp)
{
   if (imp->buffer)
      vkDestroyBuffer(h->device, imp->buffer, NULL);
   if (imp->memory)
      vkFreeMemory(h->device, imp->memory, NULL);
   memset(imp, 0, sizeof(*imp));
}

/* ---- One-shot command buffers ---- */

struct vmm_vk_cmd {
   VkCommandPool pool;
   VkCommandBuffer cmd;
};

static bool
vmm_vk_cmd_begin(struct vkh *h, struct vmm_vk_cmd *c)
{
   VkCommandPoolCreateInfo pool_info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
      .queueFamilyIndex = h->queue_family,
   };
   VkCommandBufferAllocateInfo alloc_info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 1,
   };
   VkCommandBufferBeginInfo begin = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
   };

   memset(c, 0, sizeof(*c));
   if (!vmm_vk_ok(vkCreateCommandPool(h->device, &pool_info, NULL, &c->pool), "vkCreateCommandPool"))
      return false;
   alloc_info.commandPool = c->pool;
   if (!vmm_vk_ok(vkAllocateCommandBuffers(h->device, &alloc_info, &c->cmd), "vkAllocateCommandBuffers") ||
       !vmm_vk_ok(vkBeginCommandBuffer(c->cmd, &begin), "vkBeginCommandBuffer")) {
      vkDestroyCommandPool(h->device, c->pool, NULL);
      return false;
   }
   return true;
}

/* Ends, submits and waits; destroys the pool either way. */
static bool
vmm_vk_cmd_submit(struct vkh *h, struct vmm_vk_cmd *c)
{
   VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
   VkSubmitInfo submit = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .commandBufferCount = 1,
      .pCommandBuffers = &c->cmd,
   };
   VkFence fence = VK_NULL_HANDLE;
   bool ok = vmm_vk_ok(vkEndCommandBuffer(c->cmd), "vkEndCommandBuffer") &&
             vmm_vk_ok(vkCreateFence(h->device, &fence_info, NULL, &fence), "vkCreateFence") &&
             vmm_vk_ok(vkQueueSubmit(h->queue, 1, &submit, fence), "vkQueueSubmit") &&
             vmm_vk_ok(vkWaitForFences(h->device, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");

   if (fence)
      vkDestroyFence(h->device, fence, NULL);
   vkDestroyCommandPool(h->device, c->pool, NULL);
   return ok;
}

/* Makes transfer writes visible to the host, or host writes visible to
 * transfers. */
static void
vmm_vk_barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
               VkPipelineStageFlags dst_stage, VkAccessFlags dst_access)
{
   VkMemoryBarrier barrier = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = src_access,
      .dstAccessMask = dst_access,
   };
   vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &barrier, 0, NULL, 0, NULL);
}

struct vmm_vk_staging {
   VkBuffer buffer;
   VkDeviceMemory memory;
};

static bool
vmm_vk_staging_create(struct vkh *h, size_t size, struct vmm_vk_staging *s)
{
   memset(s, 0, sizeof(*s));
   if (!vmm_vk_ok(vkh_create_buffer(h, size, VMM_VK_USAGE, 0, &s->buffer), "vkCreateBuffer(staging)"))
      return false;
   if (!vmm_vk_ok(vkh_allocate_for_buffer(h, s->buffer, false, 0, &s->memory, NULL, NULL),
                  "vkAllocateMemory(staging)") ||
       !vmm_vk_ok(vkBindBufferMemory(h->device, s->buffer, s->memory, 0), "vkBindBufferMemory(staging)")) {
      if (s->memory)
         vkFreeMemory(h->device, s->memory, NULL);
      vkDestroyBuffer(h->device, s->buffer, NULL);
      return false;
   }
   return true;
}

static void
vmm_vk_staging_destroy(struct vkh *h, struct vmm_vk_staging *s)
{
   vkDestroyBuffer(h->device, s->buffer, NULL);
   vkFreeMemory(h->device, s->memory, NULL);
}

bool
vmm_vk_read(struct vkh *h, VkBuffer src, VkDeviceSize offset, void *dst, size_t size)
{
   struct vmm_vk_staging staging;
   struct vmm_vk_cmd c;
   bool ok = false;

   if (!vmm_vk_staging_create(h, size, &staging))
      return false;
   if (vmm_vk_cmd_begin(h, &c)) {
      VkBufferCopy region = { .srcOffset = offset, .dstOffset = 0, .size = size };
      vkCmdCopyBuffer(c.cmd, src, staging.buffer, 1, &region);
      vmm_vk_barrier(c.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
      ok = vmm_vk_cmd_submit(h, &c) && vkh_read(h, staging.memory, 0, dst, size);
   }
   vmm_vk_staging_destroy(h, &staging);
   return ok;
}

bool
vmm_vk_write(struct vkh *h, VkBuffer dst, VkDeviceSize offset, const void *src, size_t size)
{
   struct vmm_vk_staging staging;
   struct vmm_vk_cmd c;
   bool ok = false;

   if (!vmm_vk_staging_create(h, size, &staging))
      return false;
   /* Host writes before the submit are visible to it without a barrier. */
   if (vkh_write(h, staging.memory, 0, src, size) && vmm_vk_cmd_begin(h, &c)) {
      VkBufferCopy region = { .srcOffset = 0, .dstOffset = offset, .size = size };
      vkCmdCopyBuffer(c.cmd, staging.buffer, dst, 1, &region);
      ok = vmm_vk_cmd_submit(h, &c);
   }
   vmm_vk_staging_destroy(h, &staging);
   return ok;
}

bool
vmm_vk_fill(struct vkh *h, VkBuffer dst, VkDeviceSize offset, VkDeviceSize size, uint32_t value)
{
   struct vmm_vk_cmd c;

   if (!vmm_vk_cmd_begin(h, &c))
      return false;
   vkCmdFillBuffer(c.cmd, dst, offset, size, value);
   return vmm_vk_cmd_submit(h, &c);
}
