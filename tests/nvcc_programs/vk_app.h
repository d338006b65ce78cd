// The Vulkan side of the interop programs (simple_vulkan.cu,
// simple_vulkan_mmap.cu), as an application of their kind has it: its own
// instance and device, whatever layers the environment enables
// (VK_INSTANCE_LAYERS: under test VK_LAYER_CUVK_interop, which gives
// lavapipe exportable semaphores, and the validation layer), a debug
// messenger that counts every warning and error as a failed check, and
// small helpers for buffers, semaphores and one-off command buffers.
//
// Only the loader's note that an environment variable added layers is
// not counted: every run under test gets it.
#ifndef NVCC_PROGRAMS_VK_APP_H
#define NVCC_PROGRAMS_VK_APP_H

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <vulkan/vulkan.h>

#include "check.h"

#define CHECK_VK(call)                                                                \
   do {                                                                               \
      VkResult r_ = (call);                                                           \
      if (r_ != VK_SUCCESS) {                                                         \
         std::fprintf(stderr, "FAIL %s:%d: %s: VkResult %d\n", __FILE__, __LINE__,     \
                      #call, (int)r_);                                                \
         check_failures++;                                                            \
      }                                                                               \
   } while (0)

struct vk_app {
   VkInstance instance;
   VkDebugUtilsMessengerEXT messenger;
   PFN_vkDestroyDebugUtilsMessengerEXT DestroyDebugUtilsMessengerEXT;
   VkPhysicalDevice physical_device;
   uint8_t device_uuid[VK_UUID_SIZE];
   VkPhysicalDeviceMemoryProperties memory;
   VkDevice device;
   uint32_t family;
   VkQueue queue;
   VkCommandPool pool;
   PFN_vkGetMemoryFdKHR GetMemoryFdKHR;
   PFN_vkGetSemaphoreFdKHR GetSemaphoreFdKHR;
};

// Counted from the messenger, which may run on any thread (the layer's
// bridge threads among them).
static unsigned vk_app_message_count;

static VKAPI_ATTR VkBool32 VKAPI_CALL
vk_app_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
               const VkDebugUtilsMessengerCallbackDataEXT *data, void *)
{
   const char *id = data->pMessageIdName ? data->pMessageIdName : "-";
   const char *msg = data->pMessage ? data->pMessage : "";
   if (severity == VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT &&
       types == VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT && std::strcmp(id, "Loader Message") == 0 &&
       std::strncmp(msg, "env var '", 9) == 0)
      return VK_FALSE;
   __atomic_add_fetch(&vk_app_message_count, 1, __ATOMIC_RELAXED);
   std::fprintf(stderr, "FAIL: Vulkan %s: [%s] %s\n",
                severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning", id, msg);
   return VK_FALSE;
}

// Instance, messenger, the first physical device, a device with
// external memory and semaphore fds and a graphics+compute queue, and a
// command pool.  False (after saying why) when any of it fails.
static bool
vk_app_init(vk_app *app, const char *name)
{
   std::memset(app, 0, sizeof(*app));
   VkDebugUtilsMessengerCreateInfoEXT messenger_info = {};
   messenger_info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
   messenger_info.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
   messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
   messenger_info.pfnUserCallback = vk_app_message;

   VkApplicationInfo app_info = {};
   app_info.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
   app_info.pApplicationName = name;
   app_info.apiVersion = VK_API_VERSION_1_2;
   const char *instance_extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
   VkInstanceCreateInfo instance_info = {};
   instance_info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
   instance_info.pNext = &messenger_info;
   instance_info.pApplicationInfo = &app_info;
   instance_info.enabledExtensionCount = 1;
   instance_info.ppEnabledExtensionNames = instance_extensions;
   VkResult res = vkCreateInstance(&instance_info, nullptr, &app->instance);
   if (res != VK_SUCCESS) {
      std::fprintf(stderr, "FAIL: vkCreateInstance: %d\n", (int)res);
      return false;
   }
   auto create_messenger = (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
      app->instance, "vkCreateDebugUtilsMessengerEXT");
   app->DestroyDebugUtilsMessengerEXT = (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
      app->instance, "vkDestroyDebugUtilsMessengerEXT");
   if (!create_messenger || !app->DestroyDebugUtilsMessengerEXT ||
       create_messenger(app->instance, &messenger_info, nullptr, &app->messenger) != VK_SUCCESS) {
      std::fprintf(stderr, "FAIL: no debug messenger\n");
      return false;
   }

   uint32_t count = 1;
   res = vkEnumeratePhysicalDevices(app->instance, &count, &app->physical_device);
   if ((res != VK_SUCCESS && res != VK_INCOMPLETE) || count == 0) {
      std::fprintf(stderr, "FAIL: no Vulkan device (%d)\n", (int)res);
      return false;
   }
   VkPhysicalDeviceIDProperties id = {};
   id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
   VkPhysicalDeviceProperties2 props = {};
   props.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
   props.pNext = &id;
   vkGetPhysicalDeviceProperties2(app->physical_device, &props);
   std::memcpy(app->device_uuid, id.deviceUUID, VK_UUID_SIZE);
   vkGetPhysicalDeviceMemoryProperties(app->physical_device, &app->memory);

   VkQueueFamilyProperties families[16];
   count = 16;
   vkGetPhysicalDeviceQueueFamilyProperties(app->physical_device, &count, families);
   app->family = UINT32_MAX;
   for (uint32_t i = 0; i < count && app->family == UINT32_MAX; i++) {
      VkQueueFlags want = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
      if ((families[i].queueFlags & want) == want)
         app->family = i;
   }
   if (app->family == UINT32_MAX) {
      std::fprintf(stderr, "FAIL: no graphics and compute queue\n");
      return false;
   }

   float priority = 1.0f;
   VkDeviceQueueCreateInfo queue_info = {};
   queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
   queue_info.queueFamilyIndex = app->family;
   queue_info.queueCount = 1;
   queue_info.pQueuePriorities = &priority;
   const char *device_extensions[] = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME,
                                      VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME};
   VkDeviceCreateInfo device_info = {};
   device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
   device_info.queueCreateInfoCount = 1;
   device_info.pQueueCreateInfos = &queue_info;
   device_info.enabledExtensionCount = 2;
   device_info.ppEnabledExtensionNames = device_extensions;
   res = vkCreateDevice(app->physical_device, &device_info, nullptr, &app->device);
   if (res != VK_SUCCESS) {
      std::fprintf(stderr, "FAIL: vkCreateDevice with external memory and semaphore fds: %d\n", (int)res);
      return false;
   }
   vkGetDeviceQueue(app->device, app->family, 0, &app->queue);
   app->GetMemoryFdKHR = (PFN_vkGetMemoryFdKHR)vkGetDeviceProcAddr(app->device, "vkGetMemoryFdKHR");
   app->GetSemaphoreFdKHR =
      (PFN_vkGetSemaphoreFdKHR)vkGetDeviceProcAddr(app->device, "vkGetSemaphoreFdKHR");
   if (!app->GetMemoryFdKHR || !app->GetSemaphoreFdKHR) {
      std::fprintf(stderr, "FAIL: no vkGetMemoryFdKHR or vkGetSemaphoreFdKHR\n");
      return false;
   }

   VkCommandPoolCreateInfo pool_info = {};
   pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
   pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
   pool_info.queueFamilyIndex = app->family;
   res = vkCreateCommandPool(app->device, &pool_info, nullptr, &app->pool);
   if (res != VK_SUCCESS) {
      std::fprintf(stderr, "FAIL: vkCreateCommandPool: %d\n", (int)res);
      return false;
   }
   return true;
}

// Destroys what vk_app_init made (the caller has destroyed its own
// objects) and fails the program if the messenger saw anything.
static void
vk_app_finish(vk_app *app)
{
   if (app->device) {
      vkDeviceWaitIdle(app->device);
      if (app->pool)
         vkDestroyCommandPool(app->device, app->pool, nullptr);
      vkDestroyDevice(app->device, nullptr);
   }
   if (app->messenger)
      app->DestroyDebugUtilsMessengerEXT(app->instance, app->messenger, nullptr);
   if (app->instance)
      vkDestroyInstance(app->instance, nullptr);
   unsigned messages = __atomic_load_n(&vk_app_message_count, __ATOMIC_RELAXED);
   if (messages) {
      std::fprintf(stderr, "FAIL: %u Vulkan validation or loader message(s)\n", messages);
      check_failures++;
   }
}

// The first memory type of type_bits with every flag of want; -1 if none.
static int
vk_app_memory_type(const vk_app *app, uint32_t type_bits, VkMemoryPropertyFlags want)
{
   for (uint32_t i = 0; i < app->memory.memoryTypeCount; i++)
      if ((type_bits & (1u << i)) && (app->memory.memoryTypes[i].propertyFlags & want) == want)
         return (int)i;
   return -1;
}

struct vk_app_buffer {
   VkBuffer buffer;
   VkDeviceMemory memory;
   VkDeviceSize allocation_size;
};

// A buffer with memory of its own of the first type with want; exportable
// as an opaque fd when exportable is set.
static bool
vk_app_buffer_create(vk_app *app, VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags want,
                     bool exportable, vk_app_buffer *out)
{
   std::memset(out, 0, sizeof(*out));
   VkExternalMemoryBufferCreateInfo external = {};
   external.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO;
   external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
   VkBufferCreateInfo info = {};
   info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
   info.pNext = exportable ? &external : nullptr;
   info.size = size;
   info.usage = usage;
   info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
   VkResult res = vkCreateBuffer(app->device, &info, nullptr, &out->buffer);
   if (res != VK_SUCCESS) {
      std::fprintf(stderr, "FAIL: vkCreateBuffer (%llu bytes): %d\n", (unsigned long long)size, (int)res);
      check_failures++;
      return false;
   }
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(app->device, out->buffer, &req);
   int type = vk_app_memory_type(app, req.memoryTypeBits, want);
   if (type < 0) {
      std::fprintf(stderr, "FAIL: no memory type with flags 0x%x for a buffer\n", (unsigned)want);
      check_failures++;
      return false;
   }
   VkExportMemoryAllocateInfo export_info = {};
   export_info.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO;
   export_info.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
   VkMemoryAllocateInfo alloc = {};
   alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
   alloc.pNext = exportable ? &export_info : nullptr;
   alloc.allocationSize = req.size;
   alloc.memoryTypeIndex = (uint32_t)type;
   res = vkAllocateMemory(app->device, &alloc, nullptr, &out->memory);
   if (res != VK_SUCCESS) {
      std::fprintf(stderr, "FAIL: vkAllocateMemory (%llu bytes): %d\n", (unsigned long long)req.size,
                   (int)res);
      check_failures++;
      return false;
   }
   out->allocation_size = req.size;
   CHECK_VK(vkBindBufferMemory(app->device, out->buffer, out->memory, 0));
   return true;
}

static void
vk_app_buffer_destroy(vk_app *app, vk_app_buffer *b)
{
   if (b->buffer)
      vkDestroyBuffer(app->device, b->buffer, nullptr);
   if (b->memory)
      vkFreeMemory(app->device, b->memory, nullptr);
   std::memset(b, 0, sizeof(*b));
}

// An opaque fd of b's memory; -1 (a failed check) if there is none.
static int
vk_app_buffer_fd(vk_app *app, const vk_app_buffer *b)
{
   VkMemoryGetFdInfoKHR info = {};
   info.sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR;
   info.memory = b->memory;
   info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
   int fd = -1;
   CHECK_VK(app->GetMemoryFdKHR(app->device, &info, &fd));
   return fd;
}

// An exportable binary semaphore.
static VkSemaphore
vk_app_semaphore_create(vk_app *app)
{
   VkExportSemaphoreCreateInfo export_info = {};
   export_info.sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO;
   export_info.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
   VkSemaphoreCreateInfo info = {};
   info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
   info.pNext = &export_info;
   VkSemaphore sem = VK_NULL_HANDLE;
   CHECK_VK(vkCreateSemaphore(app->device, &info, nullptr, &sem));
   return sem;
}

static int
vk_app_semaphore_fd(vk_app *app, VkSemaphore sem)
{
   VkSemaphoreGetFdInfoKHR info = {};
   info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR;
   info.semaphore = sem;
   info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
   int fd = -1;
   CHECK_VK(app->GetSemaphoreFdKHR(app->device, &info, &fd));
   return fd;
}

/* sem exported and imported by CUDA, as the samples hand their
 * semaphores over; NULL (after a failed check) when either step fails. */
static cudaExternalSemaphore_t
vk_app_cuda_semaphore(vk_app *app, VkSemaphore sem)
{
   int fd = vk_app_semaphore_fd(app, sem);
   if (fd < 0)
      return nullptr;
   cudaExternalSemaphoreHandleDesc desc = {};
   desc.type = cudaExternalSemaphoreHandleTypeOpaqueFd;
   desc.handle.fd = fd;
   cudaExternalSemaphore_t ext = nullptr;
   cudaError_t err = cudaImportExternalSemaphore(&ext, &desc);
   EXPECT_ERR(err, cudaSuccess);
   // A successful import owns the fd.
   if (err != cudaSuccess)
      close(fd);
   return ext;
}

static VkCommandBuffer
vk_app_command_buffer(vk_app *app)
{
   VkCommandBufferAllocateInfo info = {};
   info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
   info.commandPool = app->pool;
   info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
   info.commandBufferCount = 1;
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   CHECK_VK(vkAllocateCommandBuffers(app->device, &info, &cmd));
   VkCommandBufferBeginInfo begin = {};
   begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
   begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
   CHECK_VK(vkBeginCommandBuffer(cmd, &begin));
   return cmd;
}

// Submits cmd (ended here; may be null for a batch of semaphores only),
// waiting on wait at wait_stage and signalling signal, either of which may
// be null; fence may be null.
static void
vk_app_submit(vk_app *app, VkCommandBuffer cmd, VkSemaphore wait, VkPipelineStageFlags wait_stage,
              VkSemaphore signal, VkFence fence)
{
   if (cmd)
      CHECK_VK(vkEndCommandBuffer(cmd));
   VkSubmitInfo submit = {};
   submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
   submit.waitSemaphoreCount = wait ? 1 : 0;
   submit.pWaitSemaphores = &wait;
   submit.pWaitDstStageMask = &wait_stage;
   submit.commandBufferCount = cmd ? 1 : 0;
   submit.pCommandBuffers = &cmd;
   submit.signalSemaphoreCount = signal ? 1 : 0;
   submit.pSignalSemaphores = &signal;
   CHECK_VK(vkQueueSubmit(app->queue, 1, &submit, fence));
}

static VkFence
vk_app_fence(vk_app *app)
{
   VkFenceCreateInfo info = {};
   info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
   VkFence fence = VK_NULL_HANDLE;
   CHECK_VK(vkCreateFence(app->device, &info, nullptr, &fence));
   return fence;
}

static void
vk_app_fence_wait(vk_app *app, VkFence fence)
{
   // Generous: lavapipe under the validation layer on a loaded machine.
   CHECK_VK(vkWaitForFences(app->device, 1, &fence, VK_TRUE, 60ull * 1000 * 1000 * 1000));
}

// The CUDA device whose UUID is the Vulkan device's, as an interop program
// picks it; -1 if none.
static int
vk_app_cuda_device(const vk_app *app)
{
   int count = 0;
   if (cudaGetDeviceCount(&count) != cudaSuccess)
      return -1;
   for (int i = 0; i < count; i++) {
      cudaDeviceProp prop;
      if (cudaGetDeviceProperties(&prop, i) == cudaSuccess &&
          std::memcmp(prop.uuid.bytes, app->device_uuid, VK_UUID_SIZE) == 0)
         return i;
   }
   return -1;
}

#endif
