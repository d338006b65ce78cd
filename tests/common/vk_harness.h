/*
 * A small Vulkan harness for cuvk's tests: one instance (with whatever
 * layers VK_INSTANCE_LAYERS names; the test environment sets it), a
 * VK_EXT_debug_utils messenger that prints and counts every warning and
 * error, the first physical device, a device with external memory fd
 * export, and helpers to create exportable buffers, images and memory.
 *
 * A test fails on any message: vkh_finish() returns how many there were.
 * The one exception is the loader's own warning that an environment
 * variable (VK_INSTANCE_LAYERS) added layers, which every such run gets;
 * it is printed as a note.
 *
 *    struct vkh h;
 *    if (!vkh_init(&h, "layer.record.dedicated_image", NULL))
 *       return VKH_EXIT_FAIL;
 *    ...
 *    VKH_CHECK(...);
 *    return vkh_exit(vkh_finish(&h));
 */
#ifndef CUVK_TESTS_VK_HARNESS_H
#define CUVK_TESTS_VK_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

#include "case_harness.h"

/* meson's conventions for a test's exit status. */
#define VKH_EXIT_PASS CUVK_TEST_PASS
#define VKH_EXIT_FAIL CUVK_TEST_FAIL
#define VKH_EXIT_SKIP CUVK_TEST_SKIP

#define VKH_OPAQUE_FD VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT

struct vkh {
   const char *name;
   VkInstance instance;
   VkDebugUtilsMessengerEXT messenger;
   VkPhysicalDevice physical_device;
   VkPhysicalDeviceProperties properties;
   VkPhysicalDeviceMemoryProperties memory_properties;
   uint8_t device_uuid[VK_UUID_SIZE];
   uint8_t driver_uuid[VK_UUID_SIZE];
   VkDevice device;
   uint32_t queue_family;
   VkQueue queue;

   PFN_vkGetMemoryFdKHR GetMemoryFdKHR;
   PFN_vkDestroyDebugUtilsMessengerEXT DestroyDebugUtilsMessengerEXT;
};

struct vkh_options {
   /* VkApplicationInfo::apiVersion; 0 means Vulkan 1.2. */
   uint32_t api_version;
   /* Device extensions besides VK_KHR_external_memory_fd. */
   const char *const *device_extensions;
   uint32_t device_extension_count;
   /* VkDeviceCreateInfo::pNext (feature structs), e.g. a
    * VkPhysicalDeviceVulkan12Features enabling timelineSemaphore. */
   const void *device_pnext;
};

/* Creates instance, messenger and device; prints why and returns false on
 * failure (after cleaning up).  Fails when a layer VK_INSTANCE_LAYERS names
 * is not installed, so a misconfigured run never passes quietly. */
bool vkh_init(struct vkh *h, const char *name, const struct vkh_options *options);

/* Waits for the device, destroys everything, and returns the number of
 * warnings and errors the messenger saw over the harness's lifetime. */
unsigned vkh_finish(struct vkh *h);

/* Warnings and errors seen so far (all harnesses of the process). */
unsigned vkh_message_count(void);

/* Stops counting messages whose id is exactly id, or one of the ids of a
 * '|'-separated list (the same rule has had different ids in different
 * validation layer versions); one call at a time, NULL stops tolerating:
 * for a test that replays an application's known invalid call.  Each
 * tolerated message is still printed, marked so. */
void vkh_tolerate_message(const char *id);

/* Counts a failed check and prints it, in the one count the case
 * harness keeps (case_harness.h), so a Vulkan-side check fails a CUDA
 * suite's case too.  VKH_CHECK is the usual way in. */
#define vkh_fail(file, line, what) cuvk_test_report((file), (line), "%s", (what))
#define vkh_failure_count cuvk_test_failures

#define VKH_CHECK(cond)                                   \
   do {                                                   \
      if (!(cond))                                        \
         vkh_fail(__FILE__, __LINE__, #cond);             \
   } while (0)

#define VKH_CHECK_VK(expr)                                \
   do {                                                   \
      VkResult vkh_res_ = (expr);                         \
      if (vkh_res_ != VK_SUCCESS)                         \
         vkh_fail(__FILE__, __LINE__, #expr " != VK_SUCCESS"); \
   } while (0)

/* Between these two calls, on the calling thread, LeakSanitizer (in the
 * sanitizer mode of scripts/test.sh) ignores what is allocated: for a test
 * that leaves Vulkan objects alive at vkDestroyDevice on purpose, whose
 * memory the driver then never frees.  No-ops in other builds. */
void vkh_deliberate_leak_begin(void);
void vkh_deliberate_leak_end(void);

/* The exit status for a test whose vkh_finish returned messages: fails on
 * any message or failed check. */
int vkh_exit(unsigned messages);

/* The first memory type in type_bits with all of required; -1 if none. */
int vkh_find_memory_type(const struct vkh *h, uint32_t type_bits, VkMemoryPropertyFlags required);

/* A buffer; external != 0 chains VkExternalMemoryBufferCreateInfo. */
VkResult vkh_create_buffer(struct vkh *h, VkDeviceSize size, VkBufferUsageFlags usage,
                           VkExternalMemoryHandleTypeFlags external, VkBuffer *out);

/* A VkImageCreateInfo for an optimal-tiling 2D image, undefined layout,
 * exclusive sharing, one sample. */
VkImageCreateInfo vkh_image_info_2d(VkFormat format, uint32_t width, uint32_t height,
                                    uint32_t mip_levels, uint32_t array_layers,
                                    VkImageUsageFlags usage);

/* An image from *info; external != 0 puts VkExternalMemoryImageCreateInfo
 * in front of info's own pNext chain. */
VkResult vkh_create_image(struct vkh *h, const VkImageCreateInfo *info,
                          VkExternalMemoryHandleTypeFlags export_types, VkImage *out);

/* Memory of size bytes of type type_index; export_types != 0 chains
 * VkExportMemoryAllocateInfo, and a non-null dedicated image or buffer
 * VkMemoryDedicatedAllocateInfo. */
VkResult vkh_allocate(struct vkh *h, VkDeviceSize size, uint32_t type_index,
                      VkExternalMemoryHandleTypeFlags export_types, VkImage dedicated_image,
                      VkBuffer dedicated_buffer, VkDeviceMemory *out);

/* Host-visible memory of a buffer's or image's requirements, exportable
 * when export_types != 0; size and type are returned through the
 * pointers, which may be NULL. */
VkResult vkh_allocate_for_buffer(struct vkh *h, VkBuffer buffer, bool dedicated,
                                 VkExternalMemoryHandleTypeFlags export_types,
                                 VkDeviceMemory *out, VkDeviceSize *size, uint32_t *type_index);
VkResult vkh_allocate_for_image(struct vkh *h, VkImage image, bool dedicated,
                                VkExternalMemoryHandleTypeFlags export_types,
                                VkDeviceMemory *out, VkDeviceSize *size, uint32_t *type_index);

/* vkGetMemoryFdKHR; -1 on failure (printed). */
int vkh_get_memory_fd(struct vkh *h, VkDeviceMemory memory, VkExternalMemoryHandleTypeFlagBits type);

/* Copies through a mapping of host-visible memory, flushing or
 * invalidating where it is not coherent. */
bool vkh_write(struct vkh *h, VkDeviceMemory memory, VkDeviceSize offset, const void *data,
               size_t size);
bool vkh_read(struct vkh *h, VkDeviceMemory memory, VkDeviceSize offset, void *data, size_t size);

#endif
