/*
 * layer.stack.validation_first / validation_last: the interop pattern
 * (exportable images and buffers, dedicated and sub-allocated, bound with
 * both bind entry points, exported, written and read, freed in either
 * order, on two devices) through the real libcuvk.so layer with the
 * Khronos validation layer above it or below it.  Below it, validation
 * also sees every call the layer itself makes.  Any message fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fd_util.h"
#include "vk_harness.h"

static void
check_bytes(struct vkh *h, VkDeviceMemory memory, VkDeviceSize offset, uint8_t seed, size_t size)
{
   uint8_t *out = malloc(size), *in = malloc(size);
   for (size_t i = 0; i < size; i++)
      out[i] = (uint8_t)(seed + i * 7);
   VKH_CHECK(vkh_write(h, memory, offset, out, size));
   VKH_CHECK(vkh_read(h, memory, offset, in, size));
   VKH_CHECK(memcmp(in, out, size) == 0);
   free(out);
   free(in);
}

/* An exportable image in dedicated memory, exported, the memory freed
 * before the image is destroyed (valid, and the layer must cope). */
static void
dedicated_image(struct vkh *h)
{
   static const VkFormat view_formats[] = { VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB };
   VkImageFormatListCreateInfo list = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO,
      .viewFormatCount = 2,
      .pViewFormats = view_formats,
   };
   VkImageCreateInfo ci = vkh_image_info_2d(VK_FORMAT_R8G8B8A8_UNORM, 128, 64, 4, 1,
                                            VK_IMAGE_USAGE_SAMPLED_BIT |
                                            VK_IMAGE_USAGE_TRANSFER_DST_BIT);
   ci.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
   ci.pNext = &list;

   VkImage image;
   VkDeviceMemory memory;
   VKH_CHECK_VK(vkh_create_image(h, &ci, VKH_OPAQUE_FD, &image));
   VKH_CHECK_VK(vkh_allocate_for_image(h, image, true, VKH_OPAQUE_FD, &memory, NULL, NULL));
   VkBindImageMemoryInfo bind = {
      .sType = VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO,
      .image = image,
      .memory = memory,
   };
   VKH_CHECK_VK(vkBindImageMemory2(h->device, 1, &bind));

   /* The layer is in the chain: the export leaves its dup of the fd open
    * until the memory is freed. */
   int before[FD_UTIL_MAX], kept = -1;
   int n_before = fd_util_list(before, FD_UTIL_MAX);
   int fd = vkh_get_memory_fd(h, memory, VKH_OPAQUE_FD);
   VKH_CHECK(fd >= 0);
   VKH_CHECK(fd_util_new_same_file(fd, before, n_before, &kept, 1) == 1);

   vkFreeMemory(h->device, memory, NULL);
   VKH_CHECK(kept >= 0 && !fd_util_is_open(kept));
   vkDestroyImage(h->device, image, NULL);
   close(fd);
}

/* Two buffers in one exportable allocation, one bound before and one after
 * the export, data written through each. */
static void
suballocated_buffers(struct vkh *h)
{
   VkBuffer a, b;
   VKH_CHECK_VK(vkh_create_buffer(h, 65536, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKH_OPAQUE_FD, &a));
   VKH_CHECK_VK(vkh_create_buffer(h, 4096, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, VKH_OPAQUE_FD, &b));

   VkMemoryRequirements req_a, req_b;
   vkGetBufferMemoryRequirements(h->device, a, &req_a);
   vkGetBufferMemoryRequirements(h->device, b, &req_b);
   VkDeviceSize offset_b = (req_a.size + req_b.alignment - 1) / req_b.alignment * req_b.alignment;
   int type = vkh_find_memory_type(h, req_a.memoryTypeBits & req_b.memoryTypeBits,
                                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
   VKH_CHECK(type >= 0);

   VkDeviceMemory memory;
   VKH_CHECK_VK(vkh_allocate(h, offset_b + req_b.size, (uint32_t)type, VKH_OPAQUE_FD,
                             VK_NULL_HANDLE, VK_NULL_HANDLE, &memory));
   VKH_CHECK_VK(vkBindBufferMemory(h->device, a, memory, 0));
   int fd = vkh_get_memory_fd(h, memory, VKH_OPAQUE_FD);
   VKH_CHECK(fd >= 0);
   VkBindBufferMemoryInfo bind = {
      .sType = VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO,
      .buffer = b,
      .memory = memory,
      .memoryOffset = offset_b,
   };
   VKH_CHECK_VK(vkBindBufferMemory2(h->device, 1, &bind));

   check_bytes(h, memory, 0, 1, 65536);
   check_bytes(h, memory, offset_b, 2, 4096);

   vkDestroyBuffer(h->device, a, NULL);
   vkDestroyBuffer(h->device, b, NULL);
   vkFreeMemory(h->device, memory, NULL);
   close(fd);
}

/* Objects the layer does not track pass straight through. */
static void
plain_objects(struct vkh *h)
{
   VkBuffer buffer;
   VkDeviceMemory memory;
   VKH_CHECK_VK(vkh_create_buffer(h, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0, &buffer));
   VKH_CHECK_VK(vkh_allocate_for_buffer(h, buffer, false, 0, &memory, NULL, NULL));
   VKH_CHECK_VK(vkBindBufferMemory(h->device, buffer, memory, 0));
   check_bytes(h, memory, 0, 3, 4096);
   vkDestroyBuffer(h->device, buffer, NULL);
   vkFreeMemory(h->device, memory, NULL);
}

/* A second device on the same instance, with its own exports. */
static void
second_device(struct vkh *h)
{
   const char *extensions[] = { VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME };
   float priority = 1.0f;
   VkDeviceQueueCreateInfo queue = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
      .queueFamilyIndex = h->queue_family,
      .queueCount = 1,
      .pQueuePriorities = &priority,
   };
   VkDeviceCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
      .queueCreateInfoCount = 1,
      .pQueueCreateInfos = &queue,
      .enabledExtensionCount = 1,
      .ppEnabledExtensionNames = extensions,
   };
   struct vkh second = *h;
   VKH_CHECK_VK(vkCreateDevice(h->physical_device, &info, NULL, &second.device));
   second.GetMemoryFdKHR = (PFN_vkGetMemoryFdKHR)vkGetDeviceProcAddr(second.device,
                                                                     "vkGetMemoryFdKHR");
   VKH_CHECK(second.GetMemoryFdKHR != NULL);
   if (second.GetMemoryFdKHR) {
      suballocated_buffers(&second);
      dedicated_image(&second);
   }
   vkDestroyDevice(second.device, NULL);
}

/* The control of the zero-message runs: an invalid call (a buffer with no
 * usage) must reach validation through the stack and be counted. */
static int
messages_are_counted(const char *name)
{
   struct vkh h;
   if (!vkh_init(&h, name, NULL))
      return VKH_EXIT_FAIL;

   VkBufferCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = 4096,
      .usage = 0,
   };
   VkBuffer buffer = VK_NULL_HANDLE;
   fprintf(stderr, "%s: the next message is expected\n", name);
   vkCreateBuffer(h.device, &info, NULL, &buffer);
   if (buffer)
      vkDestroyBuffer(h.device, buffer, NULL);

   unsigned messages = vkh_finish(&h);
   VKH_CHECK(messages > 0);
   return vkh_failure_count() ? VKH_EXIT_FAIL : VKH_EXIT_PASS;
}

int
main(int argc, char **argv)
{
   const char *name = argc > 1 ? argv[1] : "layer.stack";
   if (argc > 2 && strcmp(argv[2], "--invalid-call") == 0)
      return messages_are_counted(name);

   struct vkh h;
   if (!vkh_init(&h, name, NULL))
      return VKH_EXIT_FAIL;

   int open_before = fd_util_list(NULL, 0);
   dedicated_image(&h);
   suballocated_buffers(&h);
   plain_objects(&h);
   second_device(&h);
   VKH_CHECK(fd_util_list(NULL, 0) == open_before);

   return vkh_exit(vkh_finish(&h));
}
