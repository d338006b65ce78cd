/*
 * layer.external_semaphore.emulated.*: exportable semaphores that
 * VK_LAYER_CUVK_interop provides where the driver has none (lavapipe),
 * used the way an application uses a driver's own: check support, create
 * exportable binary and timeline semaphores, export fds, import them into
 * a second VkDevice (or another process), and submit with them.
 *
 * Each producer writes a large buffer with several fills, the last one the
 * pattern the consumer must see, and signals; the consumer's batch waits
 * and copies the shared memory out: a wait that did not hold would copy
 * while the fills still run and see an earlier pattern.  The real
 * libcuvk.so layer is loaded through its manifest, with the validation
 * layer above or below it; any validation message fails.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fd_util.h"
#include "vk_harness.h"

#define SHARED_SIZE (16u << 20)
#define CUVK_ARRAY_SIZE_T(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

static const char *test_name;

/* A device of the harness's instance with the fd extensions, timeline
 * semaphores and synchronization2. */
struct side {
   VkDevice device;
   VkQueue queue;
   VkCommandPool pool;
   VkCommandBuffer cmd;
   VkFence fence;
   PFN_vkGetSemaphoreFdKHR GetSemaphoreFdKHR;
   PFN_vkImportSemaphoreFdKHR ImportSemaphoreFdKHR;
   PFN_vkGetMemoryFdKHR GetMemoryFdKHR;
};

static const char *const device_extensions[] = {
   VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME,
   VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME,
};

static VkPhysicalDeviceVulkan13Features features13 = {
   .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
   .synchronization2 = VK_TRUE,
};
static VkPhysicalDeviceVulkan12Features features12 = {
   .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
   .pNext = &features13,
   .timelineSemaphore = VK_TRUE,
};

static void
side_tools(struct side *s, uint32_t family)
{
   vkGetDeviceQueue(s->device, family, 0, &s->queue);
   VkCommandPoolCreateInfo pool = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
      .queueFamilyIndex = family,
   };
   VKH_CHECK_VK(vkCreateCommandPool(s->device, &pool, NULL, &s->pool));
   VkCommandBufferAllocateInfo alloc = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .commandPool = s->pool,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 1,
   };
   VKH_CHECK_VK(vkAllocateCommandBuffers(s->device, &alloc, &s->cmd));
   VkFenceCreateInfo fence = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
   VKH_CHECK_VK(vkCreateFence(s->device, &fence, NULL, &s->fence));
   s->GetSemaphoreFdKHR = (PFN_vkGetSemaphoreFdKHR)vkGetDeviceProcAddr(s->device, "vkGetSemaphoreFdKHR");
   s->ImportSemaphoreFdKHR =
      (PFN_vkImportSemaphoreFdKHR)vkGetDeviceProcAddr(s->device, "vkImportSemaphoreFdKHR");
   s->GetMemoryFdKHR = (PFN_vkGetMemoryFdKHR)vkGetDeviceProcAddr(s->device, "vkGetMemoryFdKHR");
   VKH_CHECK(s->GetSemaphoreFdKHR && s->ImportSemaphoreFdKHR && s->GetMemoryFdKHR);
}

static bool
side_create(struct vkh *h, struct side *s)
{
   float priority = 1.0f;
   VkDeviceQueueCreateInfo queue = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
      .queueFamilyIndex = h->queue_family,
      .queueCount = 1,
      .pQueuePriorities = &priority,
   };
   VkDeviceCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
      .pNext = &features12,
      .queueCreateInfoCount = 1,
      .pQueueCreateInfos = &queue,
      .enabledExtensionCount = CUVK_ARRAY_SIZE_T(device_extensions),
      .ppEnabledExtensionNames = device_extensions,
   };
   memset(s, 0, sizeof(*s));
   VkResult res = vkCreateDevice(h->physical_device, &info, NULL, &s->device);
   if (res != VK_SUCCESS) {
      fprintf(stderr, "%s: second vkCreateDevice: %d\n", test_name, res);
      return false;
   }
   side_tools(s, h->queue_family);
   return true;
}

static void
side_destroy(struct side *s)
{
   if (!s->device)
      return;
   vkDeviceWaitIdle(s->device);
   vkDestroyFence(s->device, s->fence, NULL);
   vkDestroyCommandPool(s->device, s->pool, NULL);
   vkDestroyDevice(s->device, NULL);
   s->device = VK_NULL_HANDLE;
}

static bool
init(struct vkh *h, struct side *a)
{
   struct vkh_options opt = {
      .api_version = VK_API_VERSION_1_3,
      .device_extensions = device_extensions + 1,
      .device_extension_count = 1,
      .device_pnext = &features12,
   };
   if (!vkh_init(h, test_name, &opt))
      return false;
   memset(a, 0, sizeof(*a));
   a->device = h->device;
   side_tools(a, h->queue_family);
   return true;
}

static void
finish_side_a(struct side *a)
{
   vkDeviceWaitIdle(a->device);
   vkDestroyFence(a->device, a->fence, NULL);
   vkDestroyCommandPool(a->device, a->pool, NULL);
}

static VkSemaphore
semaphore_create(struct side *s, bool timeline, bool exportable, uint64_t initial)
{
   VkSemaphoreTypeCreateInfo type = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
      .semaphoreType = timeline ? VK_SEMAPHORE_TYPE_TIMELINE : VK_SEMAPHORE_TYPE_BINARY,
      .initialValue = timeline ? initial : 0,
   };
   VkExportSemaphoreCreateInfo export_info = {
      .sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO,
      .pNext = &type,
      .handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT,
   };
   /* A binary semaphore is the default: no type struct, which a Vulkan
    * 1.1 device without VK_KHR_timeline_semaphore must not be given. */
   if (!timeline)
      export_info.pNext = NULL;
   const void *chain = timeline ? (const void *)&type : NULL;
   VkSemaphoreCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
      .pNext = exportable ? (const void *)&export_info : chain,
   };
   VkSemaphore sem = VK_NULL_HANDLE;
   VKH_CHECK_VK(vkCreateSemaphore(s->device, &info, NULL, &sem));
   return sem;
}

static int
semaphore_export(struct side *s, VkSemaphore sem)
{
   VkSemaphoreGetFdInfoKHR info = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR,
      .semaphore = sem,
      .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT,
   };
   int fd = -1;
   VKH_CHECK_VK(s->GetSemaphoreFdKHR(s->device, &info, &fd));
   VKH_CHECK(fd >= 0);
   return fd;
}

static VkResult
semaphore_import(struct side *s, VkSemaphore sem, int fd, bool temporary)
{
   VkImportSemaphoreFdInfoKHR info = {
      .sType = VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_FD_INFO_KHR,
      .semaphore = sem,
      .flags = temporary ? VK_SEMAPHORE_IMPORT_TEMPORARY_BIT : 0,
      .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT,
      .fd = fd,
   };
   return s->ImportSemaphoreFdKHR(s->device, &info);
}

/* A semaphore of b imported from a's exportable one. */
static VkSemaphore
semaphore_share(struct side *a, VkSemaphore exported, struct side *b, bool timeline)
{
   VkSemaphore sem = semaphore_create(b, timeline, false, 0);
   int fd = semaphore_export(a, exported);
   VKH_CHECK_VK(semaphore_import(b, sem, fd, false));
   /* The import owns the fd. */
   VKH_CHECK(!fd_util_is_open(fd));
   return sem;
}

/* Whether the layer provides a's exportable semaphores: their fd is then
 * the layer's shared page (util/xsem.c's memfd), not the driver's. */
static bool
layer_emulates(struct side *a)
{
   VkSemaphore sem = semaphore_create(a, false, true, 0);
   int fd = semaphore_export(a, sem);
   char path[64], target[256];
   snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
   ssize_t n = readlink(path, target, sizeof(target) - 1);
   target[n > 0 ? n : 0] = '\0';
   if (fd >= 0)
      close(fd);
   vkDestroySemaphore(a->device, sem, NULL);
   return strncmp(target, "/memfd:cuvk-xsem", 16) == 0;
}

static void
host_signal(struct side *s, VkSemaphore sem, uint64_t v)
{
   VkSemaphoreSignalInfo info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                                  .semaphore = sem, .value = v };
   VKH_CHECK_VK(vkSignalSemaphore(s->device, &info));
}

static VkResult
host_wait(struct side *s, VkSemaphore sem, uint64_t v, uint64_t timeout)
{
   VkSemaphoreWaitInfo info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                                .semaphoreCount = 1, .pSemaphores = &sem, .pValues = &v };
   return vkWaitSemaphores(s->device, &info, timeout);
}

static uint64_t
counter(struct side *s, VkSemaphore sem)
{
   uint64_t v = 0;
   VKH_CHECK_VK(vkGetSemaphoreCounterValue(s->device, sem, &v));
   return v;
}

/* ---- shared memory: a's exportable buffer, imported by b ---------------- */

struct shared {
   VkBuffer a_buf, b_buf, readback;
   VkDeviceMemory a_mem, b_mem, readback_mem;
};

static int
host_visible_type(struct vkh *h, uint32_t bits)
{
   return vkh_find_memory_type(h, bits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                        VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
}

static VkBuffer
buffer_create(struct side *s, bool external)
{
   VkExternalMemoryBufferCreateInfo ext = {
      .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
      .handleTypes = VKH_OPAQUE_FD,
   };
   VkBufferCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .pNext = external ? &ext : NULL,
      .size = SHARED_SIZE,
      .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
   };
   VkBuffer buf = VK_NULL_HANDLE;
   VKH_CHECK_VK(vkCreateBuffer(s->device, &info, NULL, &buf));
   return buf;
}

static VkDeviceMemory
memory_for(struct vkh *h, struct side *s, VkBuffer buf, bool exportable, int import_fd)
{
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(s->device, buf, &req);
   VkExportMemoryAllocateInfo export_info = {
      .sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO,
      .handleTypes = VKH_OPAQUE_FD,
   };
   VkImportMemoryFdInfoKHR import_info = {
      .sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR,
      .handleType = VKH_OPAQUE_FD,
      .fd = import_fd,
   };
   VkMemoryAllocateInfo info = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .pNext = import_fd >= 0 ? (const void *)&import_info
               : exportable ? (const void *)&export_info : NULL,
      .allocationSize = req.size,
      .memoryTypeIndex = (uint32_t)host_visible_type(h, req.memoryTypeBits),
   };
   VkDeviceMemory mem = VK_NULL_HANDLE;
   VKH_CHECK_VK(vkAllocateMemory(s->device, &info, NULL, &mem));
   VKH_CHECK_VK(vkBindBufferMemory(s->device, buf, mem, 0));
   return mem;
}

static void
shared_create(struct vkh *h, struct side *a, struct side *b, struct shared *m)
{
   m->a_buf = buffer_create(a, true);
   m->a_mem = memory_for(h, a, m->a_buf, true, -1);
   VkMemoryGetFdInfoKHR get = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR,
      .memory = m->a_mem,
      .handleType = VKH_OPAQUE_FD,
   };
   int fd = -1;
   VKH_CHECK_VK(a->GetMemoryFdKHR(a->device, &get, &fd));
   m->b_buf = buffer_create(b, true);
   m->b_mem = memory_for(h, b, m->b_buf, false, fd);
   m->readback = buffer_create(b, false);
   m->readback_mem = memory_for(h, b, m->readback, false, -1);
}

static void
shared_destroy(struct side *a, struct side *b, struct shared *m)
{
   vkDestroyBuffer(b->device, m->readback, NULL);
   vkFreeMemory(b->device, m->readback_mem, NULL);
   vkDestroyBuffer(b->device, m->b_buf, NULL);
   vkFreeMemory(b->device, m->b_mem, NULL);
   vkDestroyBuffer(a->device, m->a_buf, NULL);
   vkFreeMemory(a->device, m->a_mem, NULL);
}

static void
begin(struct side *s, VkCommandBufferUsageFlags flags)
{
   VKH_CHECK_VK(vkResetCommandBuffer(s->cmd, 0));
   VkCommandBufferBeginInfo info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
      .flags = flags,
   };
   VKH_CHECK_VK(vkBeginCommandBuffer(s->cmd, &info));
}

static void
transfer_barrier(VkCommandBuffer cmd)
{
   VkMemoryBarrier barrier = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
      .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                        &barrier, 0, NULL, 0, NULL);
}

/* a's producer: stale patterns first, the expected one last. */
static void
record_producer(struct side *a, struct shared *m, uint32_t pattern)
{
   begin(a, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
   for (uint32_t i = 0; i < 4; i++) {
      vkCmdFillBuffer(a->cmd, m->a_buf, 0, VK_WHOLE_SIZE, i == 3 ? pattern : 0xdead0000u + i);
      transfer_barrier(a->cmd);
   }
   VKH_CHECK_VK(vkEndCommandBuffer(a->cmd));
}

/* b's consumer: the shared memory copied to b's readback buffer. */
static void
record_consumer(struct side *b, struct shared *m)
{
   /* Submitted once per iteration. */
   begin(b, 0);
   VkBufferCopy region = { .size = SHARED_SIZE };
   vkCmdCopyBuffer(b->cmd, m->b_buf, m->readback, 1, &region);
   VkMemoryBarrier barrier = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
      .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(b->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                        &barrier, 0, NULL, 0, NULL);
   VKH_CHECK_VK(vkEndCommandBuffer(b->cmd));
}

/* Every word of b's readback is pattern. */
static bool
check_readback(struct side *b, struct shared *m, uint32_t pattern)
{
   void *map = NULL;
   VKH_CHECK_VK(vkMapMemory(b->device, m->readback_mem, 0, VK_WHOLE_SIZE, 0, &map));
   if (!map)
      return false;
   const uint32_t *w = map;
   size_t bad = 0, first = 0;
   for (size_t i = 0; i < SHARED_SIZE / 4; i++) {
      if (w[i] != pattern && bad++ == 0)
         first = i;
   }
   if (bad)
      fprintf(stderr, "%s: %zu of %u words wrong, first at %zu: %#x, expected %#x\n", test_name,
              bad, SHARED_SIZE / 4, first, w[first], pattern);
   vkUnmapMemory(b->device, m->readback_mem);
   return bad == 0;
}

static void
submit1(struct side *s, VkCommandBuffer cmd, VkSemaphore wait, uint64_t wait_value,
        VkSemaphore signal, uint64_t signal_value, VkFence fence)
{
   VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
   VkTimelineSemaphoreSubmitInfo tl = {
      .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
      .waitSemaphoreValueCount = wait ? 1 : 0,
      .pWaitSemaphoreValues = &wait_value,
      .signalSemaphoreValueCount = signal ? 1 : 0,
      .pSignalSemaphoreValues = &signal_value,
   };
   VkSubmitInfo info = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      /* Binary-only batches carry no timeline struct, as a Vulkan 1.1
       * application's would; the layer adds its own. */
      .pNext = wait_value || signal_value ? &tl : NULL,
      .waitSemaphoreCount = wait ? 1 : 0,
      .pWaitSemaphores = &wait,
      .pWaitDstStageMask = &stage,
      .commandBufferCount = cmd ? 1 : 0,
      .pCommandBuffers = &cmd,
      .signalSemaphoreCount = signal ? 1 : 0,
      .pSignalSemaphores = &signal,
   };
   VKH_CHECK_VK(vkQueueSubmit(s->queue, 1, &info, fence));
}

static void
submit2(struct side *s, VkCommandBuffer cmd, VkSemaphore wait, uint64_t wait_value,
        VkSemaphore signal, uint64_t signal_value, VkFence fence)
{
   VkSemaphoreSubmitInfo w = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
      .semaphore = wait,
      .value = wait_value,
      .stageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT,
   };
   VkSemaphoreSubmitInfo sg = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
      .semaphore = signal,
      .value = signal_value,
      .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
   };
   VkCommandBufferSubmitInfo c = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
      .commandBuffer = cmd,
   };
   VkSubmitInfo2 info = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
      .waitSemaphoreInfoCount = wait ? 1 : 0,
      .pWaitSemaphoreInfos = &w,
      .commandBufferInfoCount = cmd ? 1 : 0,
      .pCommandBufferInfos = &c,
      .signalSemaphoreInfoCount = signal ? 1 : 0,
      .pSignalSemaphoreInfos = &sg,
   };
   VKH_CHECK_VK(vkQueueSubmit2(s->queue, 1, &info, fence));
}

static void
wait_fence(struct side *s)
{
   VKH_CHECK_VK(vkWaitForFences(s->device, 1, &s->fence, VK_TRUE, 10000000000ull));
   VKH_CHECK_VK(vkResetFences(s->device, 1, &s->fence));
}

/* ---- cases -------------------------------------------------------------- */

/* The driver has no exportable semaphores; through the layer the
 * application sees the extension and OPAQUE_FD for both types, and a
 * device that does not enable timeline semaphores itself still works. */
static void
advertised(struct vkh *h, struct side *a)
{
   uint32_t n = 0;
   VKH_CHECK_VK(vkEnumerateDeviceExtensionProperties(h->physical_device, NULL, &n, NULL));
   VkExtensionProperties *ext = calloc(n, sizeof(*ext));
   uint32_t got = n;
   VKH_CHECK_VK(vkEnumerateDeviceExtensionProperties(h->physical_device, NULL, &got, ext));
   bool found = false;
   for (uint32_t i = 0; i < got; i++)
      found |= strcmp(ext[i].extensionName, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME) == 0;
   VKH_CHECK(found);
   /* VK_INCOMPLETE when the array is short. */
   if (n > 1) {
      got = n - 1;
      VKH_CHECK(vkEnumerateDeviceExtensionProperties(h->physical_device, NULL, &got, ext) ==
                VK_INCOMPLETE);
      VKH_CHECK(got == n - 1);
   }
   free(ext);

   for (int timeline = 0; timeline < 2; timeline++) {
      VkSemaphoreTypeCreateInfo type = {
         .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
         .semaphoreType = timeline ? VK_SEMAPHORE_TYPE_TIMELINE : VK_SEMAPHORE_TYPE_BINARY,
      };
      VkPhysicalDeviceExternalSemaphoreInfo info = {
         .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO,
         .pNext = &type,
         .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT,
      };
      VkExternalSemaphoreProperties props = { .sType = VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES };
      vkGetPhysicalDeviceExternalSemaphoreProperties(h->physical_device, &info, &props);
      VKH_CHECK(props.externalSemaphoreFeatures == (VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT |
                                                    VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT));
      VKH_CHECK(props.compatibleHandleTypes == VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT);
      VKH_CHECK(props.exportFromImportedHandleTypes == VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT);
      info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT;
      vkGetPhysicalDeviceExternalSemaphoreProperties(h->physical_device, &info, &props);
      VKH_CHECK(props.externalSemaphoreFeatures == 0);
   }

   /* Devices that leave timeline semaphores off: with no feature struct,
    * and with a VkPhysicalDeviceVulkan12Features (behind a
    * VkPhysicalDeviceFeatures2) that says VK_FALSE.  The layer turns them
    * on underneath; the application uses binary semaphores only. */
   VkPhysicalDeviceVulkan12Features off12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
   };
   VkPhysicalDeviceFeatures2 f2 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
      .pNext = &off12,
   };
   const void *chains[] = { NULL, &f2 };
   for (int c = 0; c < 2; c++) {
      float priority = 1.0f;
      VkDeviceQueueCreateInfo queue = {
         .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
         .queueFamilyIndex = h->queue_family,
         .queueCount = 1,
         .pQueuePriorities = &priority,
      };
      VkDeviceCreateInfo info = {
         .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
         .pNext = chains[c],
         .queueCreateInfoCount = 1,
         .pQueueCreateInfos = &queue,
         .enabledExtensionCount = CUVK_ARRAY_SIZE_T(device_extensions),
         .ppEnabledExtensionNames = device_extensions,
      };
      struct side d = { 0 };
      VKH_CHECK_VK(vkCreateDevice(h->physical_device, &info, NULL, &d.device));
      if (!d.device)
         continue;
      side_tools(&d, h->queue_family);
      VkSemaphore exported = semaphore_create(&d, false, true, 0);
      VkSemaphore imported = semaphore_share(&d, exported, a, false);
      /* d signals, a waits; then a signals, d waits. */
      submit1(&d, VK_NULL_HANDLE, VK_NULL_HANDLE, 0, exported, 0, VK_NULL_HANDLE);
      submit1(a, VK_NULL_HANDLE, imported, 0, VK_NULL_HANDLE, 0, a->fence);
      wait_fence(a);
      submit1(a, VK_NULL_HANDLE, VK_NULL_HANDLE, 0, imported, 0, VK_NULL_HANDLE);
      submit1(&d, VK_NULL_HANDLE, exported, 0, VK_NULL_HANDLE, 0, d.fence);
      wait_fence(&d);
      VKH_CHECK_VK(vkQueueWaitIdle(a->queue));
      vkDestroySemaphore(a->device, imported, NULL);
      vkDestroySemaphore(d.device, exported, NULL);
      side_destroy(&d);
   }
}

/* a produces and signals, b waits and copies; every iteration's bytes
 * checked.  Binary with vkQueueSubmit, timeline with vkQueueSubmit (a)
 * and vkQueueSubmit2 (b). */
static void
cross_device(struct vkh *h, struct side *a, bool timeline)
{
   struct side b;
   struct shared m;

   if (!side_create(h, &b)) {
      vkh_fail(__FILE__, __LINE__, "second device");
      return;
   }
   shared_create(h, a, &b, &m);
   VkSemaphore exported = semaphore_create(a, timeline, true, 0);
   VkSemaphore imported = semaphore_share(a, exported, &b, timeline);
   record_consumer(&b, &m);

   for (uint32_t i = 1; i <= 4; i++) {
      uint32_t pattern = 0x5e000000u + i * 0x1111u;
      record_producer(a, &m, pattern);
      submit1(a, a->cmd, VK_NULL_HANDLE, 0, exported, i, VK_NULL_HANDLE);
      if (timeline)
         submit2(&b, b.cmd, imported, i, VK_NULL_HANDLE, 0, b.fence);
      else
         submit1(&b, b.cmd, imported, 0, VK_NULL_HANDLE, 0, b.fence);
      wait_fence(&b);
      VKH_CHECK(check_readback(&b, &m, pattern));
      VKH_CHECK_VK(vkQueueWaitIdle(a->queue));
      if (timeline) {
         VKH_CHECK(counter(a, exported) == i);
         VKH_CHECK(counter(&b, imported) == i);
      }
   }

   /* And back: b signals (its imported semaphore), a waits on its own. */
   submit1(&b, VK_NULL_HANDLE, VK_NULL_HANDLE, 0, imported, 10, VK_NULL_HANDLE);
   submit1(a, VK_NULL_HANDLE, exported, 10, VK_NULL_HANDLE, 0, a->fence);
   wait_fence(a);
   if (timeline)
      VKH_CHECK(counter(a, exported) == 10);

   VKH_CHECK_VK(vkQueueWaitIdle(b.queue));
   vkDestroySemaphore(b.device, imported, NULL);
   vkDestroySemaphore(a->device, exported, NULL);
   shared_destroy(a, &b, &m);
   side_destroy(&b);
}

static void
binary_cross_device(struct vkh *h, struct side *a)
{
   cross_device(h, a, false);
}

static void
timeline_cross_device(struct vkh *h, struct side *a)
{
   cross_device(h, a, true);
}

/* vkSignalSemaphore on one device releases a batch of the other waiting
 * on the shared timeline; vkWaitSemaphores on one sees the other's queue
 * signal; mixed and any-of waits. */
static void
host_signal_and_wait(struct vkh *h, struct side *a)
{
   struct side b;
   if (!side_create(h, &b)) {
      vkh_fail(__FILE__, __LINE__, "second device");
      return;
   }
   VkSemaphore exported = semaphore_create(a, true, true, 0);
   VkSemaphore imported = semaphore_share(a, exported, &b, true);

   /* b's batch waits for 5; nothing has signalled it. */
   submit1(&b, VK_NULL_HANDLE, imported, 5, VK_NULL_HANDLE, 0, b.fence);
   VKH_CHECK(vkWaitForFences(b.device, 1, &b.fence, VK_TRUE, 30000000) == VK_TIMEOUT);
   host_signal(a, exported, 5);
   wait_fence(&b);
   VKH_CHECK(counter(&b, imported) == 5);

   /* a's own batch waits on a's semaphore, signalled from b's host. */
   submit1(a, VK_NULL_HANDLE, exported, 6, VK_NULL_HANDLE, 0, a->fence);
   VKH_CHECK(vkWaitForFences(a->device, 1, &a->fence, VK_TRUE, 30000000) == VK_TIMEOUT);
   host_signal(&b, imported, 6);
   wait_fence(a);

   /* b's host waits for a's queue signal. */
   VKH_CHECK(host_wait(&b, imported, 7, 20000000) == VK_TIMEOUT);
   submit1(a, VK_NULL_HANDLE, VK_NULL_HANDLE, 0, exported, 7, VK_NULL_HANDLE);
   VKH_CHECK(host_wait(&b, imported, 7, 5000000000ull) == VK_SUCCESS);
   VKH_CHECK(counter(&b, imported) == 7);

   /* A wait of all, mixing the shared semaphore with b's own timeline,
    * and a wait for any of two shared ones. */
   VkSemaphore local = semaphore_create(&b, true, false, 3);
   VkSemaphore pair[2] = { imported, local };
   uint64_t values[2] = { 8, 3 };
   VkSemaphoreWaitInfo all = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                               .semaphoreCount = 2, .pSemaphores = pair, .pValues = values };
   VKH_CHECK(vkWaitSemaphores(b.device, &all, 20000000) == VK_TIMEOUT);
   submit1(a, VK_NULL_HANDLE, VK_NULL_HANDLE, 0, exported, 8, VK_NULL_HANDLE);
   VKH_CHECK(vkWaitSemaphores(b.device, &all, 5000000000ull) == VK_SUCCESS);

   VkSemaphore second = semaphore_create(a, true, true, 0);
   VkSemaphore second_b = semaphore_share(a, second, &b, true);
   VkSemaphore either[2] = { imported, second_b };
   uint64_t either_values[2] = { 100, 1 };
   VkSemaphoreWaitInfo any = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                               .flags = VK_SEMAPHORE_WAIT_ANY_BIT, .semaphoreCount = 2,
                               .pSemaphores = either, .pValues = either_values };
   VKH_CHECK(vkWaitSemaphores(b.device, &any, 20000000) == VK_TIMEOUT);
   host_signal(a, second, 1);
   VKH_CHECK(vkWaitSemaphores(b.device, &any, 5000000000ull) == VK_SUCCESS);

   VKH_CHECK_VK(vkQueueWaitIdle(a->queue));
   vkDestroySemaphore(b.device, second_b, NULL);
   vkDestroySemaphore(a->device, second, NULL);
   vkDestroySemaphore(b.device, local, NULL);
   vkDestroySemaphore(b.device, imported, NULL);
   vkDestroySemaphore(a->device, exported, NULL);
   side_destroy(&b);
}

/* A temporary import into a semaphore of b's own lasts for one wait. */
static void
temporary_import(struct vkh *h, struct side *a)
{
   VkSemaphore exported = semaphore_create(a, false, true, 0);
   VkSemaphore own = semaphore_create(a, false, false, 0);
   int fd = semaphore_export(a, exported);
   VKH_CHECK_VK(semaphore_import(a, own, fd, true));

   submit1(a, VK_NULL_HANDLE, VK_NULL_HANDLE, 0, exported, 0, VK_NULL_HANDLE);
   submit1(a, VK_NULL_HANDLE, own, 0, VK_NULL_HANDLE, 0, a->fence);
   wait_fence(a);
   /* Its own payload again: a local signal and wait pair. */
   submit1(a, VK_NULL_HANDLE, VK_NULL_HANDLE, 0, own, 0, VK_NULL_HANDLE);
   submit1(a, VK_NULL_HANDLE, own, 0, VK_NULL_HANDLE, 0, a->fence);
   wait_fence(a);

   /* Not an xsem: refused, and the fd stays the caller's.  Only the
    * layer's refusal is checked: a driver's own (NVIDIA's) also reports
    * it through the debug messenger, which fails the test. */
   if (!layer_emulates(a)) {
      printf("%s: the driver exports semaphores itself; the refusal of a pipe fd is the "
             "driver's, not checked\n", test_name);
      vkDestroySemaphore(a->device, own, NULL);
      vkDestroySemaphore(a->device, exported, NULL);
      return;
   }
   int p[2];
   VKH_CHECK(pipe(p) == 0);
   VKH_CHECK(semaphore_import(a, own, p[0], false) == VK_ERROR_INVALID_EXTERNAL_HANDLE);
   VKH_CHECK(fd_util_is_open(p[0]));
   close(p[0]);
   close(p[1]);
   (void)h;
   vkDestroySemaphore(a->device, own, NULL);
   vkDestroySemaphore(a->device, exported, NULL);
}

/* ---- another process ---------------------------------------------------- */

static bool
send_fd(int sock, int fd)
{
   char byte = 'f';
   struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
   union {
      char buf[CMSG_SPACE(sizeof(int))];
      struct cmsghdr align;
   } ctl;
   struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
                         .msg_controllen = sizeof(ctl.buf) };
   struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
   c->cmsg_level = SOL_SOCKET;
   c->cmsg_type = SCM_RIGHTS;
   c->cmsg_len = CMSG_LEN(sizeof(int));
   memcpy(CMSG_DATA(c), &fd, sizeof(int));
   return sendmsg(sock, &msg, 0) == 1;
}

static int
recv_fd(int sock)
{
   char byte;
   struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
   union {
      char buf[CMSG_SPACE(sizeof(int))];
      struct cmsghdr align;
   } ctl;
   struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
                         .msg_controllen = sizeof(ctl.buf) };
   if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != 1)
      return -1;
   struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
   if (!c || c->cmsg_type != SCM_RIGHTS)
      return -1;
   int fd;
   memcpy(&fd, CMSG_DATA(c), sizeof(int));
   return fd;
}

/* The child: its own instance and device through the layer; imports the
 * binary and the timeline semaphore it is sent, signals the binary one
 * from its queue and the timeline from its host. */
static int
child_main(int sock)
{
   struct vkh h;
   struct side c;
   int bin_fd = recv_fd(sock), tl_fd = recv_fd(sock);

   if (bin_fd < 0 || tl_fd < 0 || !init(&h, &c))
      return 10;
   VkSemaphore bin = semaphore_create(&c, false, false, 0);
   VkSemaphore tl = semaphore_create(&c, true, false, 0);
   VKH_CHECK_VK(semaphore_import(&c, bin, bin_fd, false));
   VKH_CHECK_VK(semaphore_import(&c, tl, tl_fd, false));
   submit1(&c, VK_NULL_HANDLE, VK_NULL_HANDLE, 0, bin, 0, c.fence);
   wait_fence(&c);
   host_signal(&c, tl, 42);
   vkDestroySemaphore(c.device, tl, NULL);
   vkDestroySemaphore(c.device, bin, NULL);
   finish_side_a(&c);
   return vkh_exit(vkh_finish(&h));
}

static int
other_process(void)
{
   int sv[2];
   if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
      return VKH_EXIT_FAIL;
   /* Before any Vulkan: the child starts its own from nothing. */
   pid_t pid = fork();
   if (pid == 0) {
      close(sv[0]);
      _exit(child_main(sv[1]));
   }
   close(sv[1]);

   struct vkh h;
   struct side a;
   if (!init(&h, &a)) {
      kill(pid, SIGKILL);
      waitpid(pid, NULL, 0);
      return VKH_EXIT_FAIL;
   }
   VkSemaphore bin = semaphore_create(&a, false, true, 0);
   VkSemaphore tl = semaphore_create(&a, true, true, 0);
   int bin_fd = semaphore_export(&a, bin), tl_fd = semaphore_export(&a, tl);
   VKH_CHECK(send_fd(sv[0], bin_fd) && send_fd(sv[0], tl_fd));
   close(bin_fd);
   close(tl_fd);

   /* The parent's batch waits on the child's queue signal. */
   submit1(&a, VK_NULL_HANDLE, bin, 0, VK_NULL_HANDLE, 0, a.fence);
   wait_fence(&a);
   VKH_CHECK(host_wait(&a, tl, 42, 10000000000ull) == VK_SUCCESS);
   VKH_CHECK(counter(&a, tl) == 42);

   int status = -1;
   VKH_CHECK(waitpid(pid, &status, 0) == pid);
   if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      fprintf(stderr, "%s: child status %#x\n", test_name, status);
      vkh_fail(__FILE__, __LINE__, "the child failed");
   }
   close(sv[0]);
   vkDestroySemaphore(a.device, tl, NULL);
   vkDestroySemaphore(a.device, bin, NULL);
   finish_side_a(&a);
   return vkh_exit(vkh_finish(&h));
}

/* ---- hygiene and speed -------------------------------------------------- */

static void
fd_hygiene(struct vkh *h, struct side *a)
{
   int before = fd_util_list(NULL, 0);

   for (int i = 0; i < 10000; i++) {
      VkSemaphore s = semaphore_create(a, i & 1, true, 0);
      int fd = semaphore_export(a, s);
      if (i % 10 == 0) {
         /* Some go through an import too. */
         VkSemaphore t = semaphore_create(a, i & 1, false, 0);
         VKH_CHECK_VK(semaphore_import(a, t, fd, false));
         vkDestroySemaphore(a->device, t, NULL);
      } else {
         close(fd);
      }
      vkDestroySemaphore(a->device, s, NULL);
      if (vkh_failure_count())
         break;
   }
   int after = fd_util_list(NULL, 0);
   printf("%s: open fds %d before, %d after 10000 create/export/destroy cycles\n", test_name,
          before, after);
   VKH_CHECK(before == after);
   (void)h;
}

struct observer {
   struct side *side;
   VkSemaphore sem;
   int rounds;
   double *seen;
   atomic_int armed;
};

static double
now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *
observe(void *arg)
{
   struct observer *o = arg;
   for (int i = 1; i <= o->rounds; i++) {
      atomic_store(&o->armed, i);
      if (host_wait(o->side, o->sem, (uint64_t)i, 5000000000ull) != VK_SUCCESS)
         return NULL;
      o->seen[i - 1] = now_s();
   }
   return NULL;
}

static int
cmp_double(const void *x, const void *y)
{
   double a = *(const double *)x, b = *(const double *)y;
   return a < b ? -1 : a > b;
}

static double
median_us(const double *sent, const double *seen, int n, double *p90)
{
   double *lat = malloc(n * sizeof(double));
   for (int i = 0; i < n; i++)
      lat[i] = (seen[i] - sent[i]) * 1e6;
   qsort(lat, n, sizeof(double), cmp_double);
   double med = lat[n / 2];
   *p90 = lat[n * 9 / 10];
   free(lat);
   return med;
}

/* Signal on one device -> the other side sees it, 1000 times each way:
 *  queue: a's queue signals the shared timeline; a thread of b blocked in
 *         vkWaitSemaphores on b's import returns;
 *  host:  a's vkSignalSemaphore; b's queue, waiting on its import, runs a
 *         batch that signals b's own timeline, which a thread of b waits
 *         on (so this includes one driver timeline hop of b's). */
static void
latency(struct vkh *h, struct side *a)
{
   enum { ROUNDS = 1000 };
   static double sent[ROUNDS], seen[ROUNDS];
   struct side b;
   double p90;

   if (!side_create(h, &b)) {
      vkh_fail(__FILE__, __LINE__, "second device");
      return;
   }
   VkSemaphore exported = semaphore_create(a, true, true, 0);
   VkSemaphore imported = semaphore_share(a, exported, &b, true);

   struct observer o = { .side = &b, .sem = imported, .rounds = ROUNDS, .seen = seen };
   pthread_t th;
   VKH_CHECK(pthread_create(&th, NULL, observe, &o) == 0);
   for (int i = 1; i <= ROUNDS; i++) {
      while (atomic_load(&o.armed) < i)
         ;
      struct timespec nap = { 0, 50000 };
      nanosleep(&nap, NULL);
      sent[i - 1] = now_s();
      submit1(a, VK_NULL_HANDLE, VK_NULL_HANDLE, 0, exported, (uint64_t)i, VK_NULL_HANDLE);
   }
   pthread_join(th, NULL);
   double queue_med = median_us(sent, seen, ROUNDS, &p90);
   printf("%s: a's queue signal -> b's vkWaitSemaphores returns: median %.1f us, p90 %.1f us "
          "(%d rounds)\n", test_name, queue_med, p90, ROUNDS);

   VkSemaphore local = semaphore_create(&b, true, false, 0);
   struct observer o2 = { .side = &b, .sem = local, .rounds = ROUNDS, .seen = seen };
   for (int i = 1; i <= ROUNDS; i++)
      submit1(&b, VK_NULL_HANDLE, imported, (uint64_t)(ROUNDS + i), local, (uint64_t)i,
              VK_NULL_HANDLE);
   VKH_CHECK(pthread_create(&th, NULL, observe, &o2) == 0);
   for (int i = 1; i <= ROUNDS; i++) {
      while (atomic_load(&o2.armed) < i)
         ;
      struct timespec nap = { 0, 50000 };
      nanosleep(&nap, NULL);
      sent[i - 1] = now_s();
      host_signal(a, exported, (uint64_t)(ROUNDS + i));
   }
   pthread_join(th, NULL);
   double host_med = median_us(sent, seen, ROUNDS, &p90);
   printf("%s: a's vkSignalSemaphore -> b's queue wait released (seen through b's timeline): "
          "median %.1f us, p90 %.1f us (%d rounds)\n", test_name, host_med, p90, ROUNDS);
   /* Loose bounds for a loaded two-core machine; the figures are printed. */
   VKH_CHECK(queue_med < 20000.0 && host_med < 20000.0);

   VKH_CHECK_VK(vkQueueWaitIdle(a->queue));
   VKH_CHECK_VK(vkQueueWaitIdle(b.queue));
   vkDestroySemaphore(b.device, local, NULL);
   vkDestroySemaphore(b.device, imported, NULL);
   vkDestroySemaphore(a->device, exported, NULL);
   side_destroy(&b);
}

/* The file a function pointer lies in. */
static const char *
library_of(PFN_vkVoidFunction f)
{
   Dl_info info;
   return f && dladdr((void *)f, &info) && info.dli_fname ? info.dli_fname : "?";
}

/* A device that does not enable VK_KHR_external_semaphore_fd gets the
 * next entity's semaphore, submit and wait commands themselves: not one
 * call of its passes through the layer.  The harness's device, which
 * enables it, gets the layer's where the layer is on top. */
static void
native_path_untouched(struct vkh *h, struct side *a)
{
   static const char *const names[] = {
      "vkQueueSubmit", "vkQueueSubmit2", "vkCreateSemaphore", "vkDestroySemaphore",
      "vkWaitSemaphores", "vkSignalSemaphore", "vkGetSemaphoreCounterValue",
   };
   float priority = 1.0f;
   VkDeviceQueueCreateInfo queue = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
      .queueFamilyIndex = h->queue_family,
      .queueCount = 1,
      .pQueuePriorities = &priority,
   };
   VkDeviceCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
      .pNext = &features12,
      .queueCreateInfoCount = 1,
      .pQueueCreateInfos = &queue,
   };
   VkDevice plain = VK_NULL_HANDLE;
   VKH_CHECK_VK(vkCreateDevice(h->physical_device, &info, NULL, &plain));
   if (!plain)
      return;

   /* Where the driver exports semaphores itself, the layer leaves the
    * harness's device alone too, and only the first half holds. */
   const char *layers = getenv("VK_INSTANCE_LAYERS");
   bool layer_on_top = layers && strncmp(layers, "VK_LAYER_CUVK_interop", 21) == 0 &&
                       layer_emulates(a);
   for (size_t i = 0; i < CUVK_ARRAY_SIZE_T(names); i++) {
      const char *plain_lib = library_of(vkGetDeviceProcAddr(plain, names[i]));
      const char *emulated_lib = library_of(vkGetDeviceProcAddr(a->device, names[i]));
      if (strstr(plain_lib, "libcuvk")) {
         fprintf(stderr, "%s: %s of a device without the extension is in %s\n", test_name,
                 names[i], plain_lib);
         vkh_fail(__FILE__, __LINE__, "the layer intercepts a non-emulated device");
      }
      if (layer_on_top && !strstr(emulated_lib, "libcuvk")) {
         fprintf(stderr, "%s: %s of the emulated device is in %s\n", test_name, names[i],
                 emulated_lib);
         vkh_fail(__FILE__, __LINE__, "the emulated device is not intercepted");
      }
   }
   /* Still fully usable: a local timeline signal and host wait. */
   VkSemaphoreTypeCreateInfo type = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
      .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
   };
   VkSemaphoreCreateInfo sci = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type };
   VkSemaphore sem = VK_NULL_HANDLE;
   VKH_CHECK_VK(vkCreateSemaphore(plain, &sci, NULL, &sem));
   VkSemaphoreSignalInfo sig = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = sem,
                                 .value = 3 };
   VKH_CHECK_VK(vkSignalSemaphore(plain, &sig));
   uint64_t v = 0;
   VKH_CHECK_VK(vkGetSemaphoreCounterValue(plain, sem, &v));
   VKH_CHECK(v == 3);
   vkDestroySemaphore(plain, sem, NULL);
   vkDestroyDevice(plain, NULL);
}

/* An application of Vulkan 1.1 with no feature struct: the layer turns
 * timeline semaphores on through VK_KHR_timeline_semaphore and uses its
 * commands (a core 1.2 name would be flagged by validation below it). */
static int
vulkan_1_1(void)
{
   static const char *const fd_ext[] = { VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME };
   struct vkh_options opt = {
      .api_version = VK_API_VERSION_1_1,
      .device_extensions = fd_ext,
      .device_extension_count = 1,
   };
   struct vkh h;
   struct side a;
   if (!vkh_init(&h, test_name, &opt))
      return VKH_EXIT_FAIL;
   memset(&a, 0, sizeof(a));
   a.device = h.device;
   side_tools(&a, h.queue_family);

   VkSemaphore exported = semaphore_create(&a, false, true, 0);
   VkSemaphore imported = semaphore_share(&a, exported, &a, false);
   for (int i = 0; i < 3; i++) {
      submit1(&a, VK_NULL_HANDLE, VK_NULL_HANDLE, 0, exported, 0, VK_NULL_HANDLE);
      submit1(&a, VK_NULL_HANDLE, imported, 0, VK_NULL_HANDLE, 0, a.fence);
      wait_fence(&a);
   }
   vkDestroySemaphore(a.device, imported, NULL);
   vkDestroySemaphore(a.device, exported, NULL);
   finish_side_a(&a);
   return vkh_exit(vkh_finish(&h));
}

/* emulated_only: the case checks the layer's own host signals, waits and
 * their latency, so where the driver exports semaphores itself (NVIDIA)
 * it would test the driver's, and the validation layer of Debian 12
 * (1.3.239) reports such a driver's external signals as pending: a value
 * vkGetSemaphoreCounterValue reads from another device's signal stays a
 * pending signal to it, and a later vkSignalSemaphore above it fails
 * VUID-VkSemaphoreSignalInfo-value-03259 (measured on the H100; fixed
 * upstream in 2024).  The other cases run on either path. */
static const struct {
   const char *name;
   void (*run)(struct vkh *h, struct side *a);
   bool emulated_only;
} cases[] = {
   { "native_path_untouched", native_path_untouched, false },
   { "advertised", advertised, false },
   { "binary.cross_device", binary_cross_device, false },
   { "timeline.cross_device", timeline_cross_device, false },
   { "timeline.host_signal_and_wait", host_signal_and_wait, true },
   { "binary.temporary_import", temporary_import, false },
   { "fd_hygiene", fd_hygiene, false },
   { "latency", latency, true },
};

int
main(int argc, char **argv)
{
   if (argc < 2) {
      fprintf(stderr, "usage: %s CASE [label]\n", argv[0]);
      return VKH_EXIT_FAIL;
   }
   test_name = argc > 2 ? argv[2] : argv[1];
   if (strcmp(argv[1], "other_process") == 0)
      return other_process();
   if (strcmp(argv[1], "vulkan_1_1") == 0)
      return vulkan_1_1();

   for (size_t i = 0; i < CUVK_ARRAY_SIZE_T(cases); i++) {
      if (strcmp(argv[1], cases[i].name) != 0)
         continue;
      struct vkh h;
      struct side a;
      if (!init(&h, &a))
         return VKH_EXIT_FAIL;
      if (cases[i].emulated_only && !layer_emulates(&a)) {
         printf("%s: skipped: the driver exports semaphores itself, so the layer's host "
                "signals and waits are not in the path\n", test_name);
         finish_side_a(&a);
         int code = vkh_exit(vkh_finish(&h));
         return code == 0 ? VKH_EXIT_SKIP : code;
      }
      cases[i].run(&h, &a);
      finish_side_a(&a);
      return vkh_exit(vkh_finish(&h));
   }
   fprintf(stderr, "%s: no case %s\n", argv[0], argv[1]);
   return VKH_EXIT_FAIL;
}
