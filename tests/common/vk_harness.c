#include "vk_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define VKH_HAVE_LSAN 1
#endif

static unsigned vkh_messages;
static const char *_Atomic vkh_tolerated;

void
vkh_tolerate_message(const char *id)
{
   vkh_tolerated = id;
}

/* Whether id is one of the '|'-separated ids being tolerated. */
static bool
vkh_is_tolerated(const char *id)
{
   const char *list = vkh_tolerated;
   size_t n = strlen(id);
   while (list && *list) {
      const char *end = strchr(list, '|');
      size_t len = end ? (size_t)(end - list) : strlen(list);
      if (len == n && strncmp(list, id, n) == 0)
         return true;
      list = end ? end + 1 : NULL;
   }
   return false;
}

void
vkh_deliberate_leak_begin(void)
{
#ifdef VKH_HAVE_LSAN
   __lsan_disable();
#endif
}

void
vkh_deliberate_leak_end(void)
{
#ifdef VKH_HAVE_LSAN
   __lsan_enable();
#endif
}

unsigned
vkh_message_count(void)
{
   return __atomic_load_n(&vkh_messages, __ATOMIC_RELAXED);
}

int
vkh_exit(unsigned messages)
{
   if (messages)
      fprintf(stderr, "FAIL: %u validation/loader warning or error message(s)\n", messages);
   return messages || vkh_failure_count() ? VKH_EXIT_FAIL : VKH_EXIT_PASS;
}

static VKAPI_ATTR VkBool32 VKAPI_CALL
vkh_messenger_cb(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                 VkDebugUtilsMessageTypeFlagsEXT types,
                 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
   const char *tag = severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning";
   const char *id = data->pMessageIdName ? data->pMessageIdName : "-";
   const char *msg = data->pMessage ? data->pMessage : "";

   /* The loader warns whenever an environment variable such as
    * VK_INSTANCE_LAYERS adds layers, which is how every test enables them
    * (so that cuvk's own instance gets them too): a note, not a failure. */
   if (severity == VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT &&
       types == VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT &&
       strcmp(id, "Loader Message") == 0 && strncmp(msg, "env var '", 9) == 0) {
      fprintf(stderr, "vkh: %s: note: %s\n", (const char *)user, msg);
      return VK_FALSE;
   }

   if (vkh_is_tolerated(id)) {
      fprintf(stderr, "vkh: %s: tolerated: [%s] %s\n", (const char *)user, id, msg);
      return VK_FALSE;
   }
   __atomic_add_fetch(&vkh_messages, 1, __ATOMIC_RELAXED);
   fprintf(stderr, "vkh: %s: %s: [%s] %s\n", (const char *)user, tag, id, msg);
   return VK_FALSE;
}

static bool
vkh_instance_has_extension(const char *name)
{
   uint32_t count = 0;
   bool found = false;

   if (vkEnumerateInstanceExtensionProperties(NULL, &count, NULL) != VK_SUCCESS)
      return false;
   VkExtensionProperties *props = calloc(count, sizeof(*props));
   if (!props)
      return false;
   if (vkEnumerateInstanceExtensionProperties(NULL, &count, props) == VK_SUCCESS) {
      for (uint32_t i = 0; i < count && !found; i++)
         found = strcmp(props[i].extensionName, name) == 0;
   }
   free(props);
   return found;
}

/* Every layer VK_INSTANCE_LAYERS names must exist: the loader would only
 * warn and go on without it. */
static bool
vkh_check_env_layers(void)
{
   const char *env = getenv("VK_INSTANCE_LAYERS");
   uint32_t count = 0;
   bool ok = true;

   if (!env || !*env)
      return true;
   if (vkEnumerateInstanceLayerProperties(&count, NULL) != VK_SUCCESS)
      return false;
   VkLayerProperties *props = calloc(count ? count : 1, sizeof(*props));
   if (!props || vkEnumerateInstanceLayerProperties(&count, props) != VK_SUCCESS) {
      free(props);
      return false;
   }

   char *list = strdup(env);
   char *save = NULL;
   for (char *name = list ? strtok_r(list, ":", &save) : NULL; name;
        name = strtok_r(NULL, ":", &save)) {
      bool found = false;
      for (uint32_t i = 0; i < count && !found; i++)
         found = strcmp(props[i].layerName, name) == 0;
      if (!found) {
         fprintf(stderr, "vkh: layer %s from VK_INSTANCE_LAYERS is not installed "
                 "(VK_ADD_LAYER_PATH=%s)\n", name,
                 getenv("VK_ADD_LAYER_PATH") ? getenv("VK_ADD_LAYER_PATH") : "");
         ok = false;
      }
   }
   free(list);
   free(props);
   return ok;
}

static bool
vkh_create_instance(struct vkh *h, uint32_t api_version)
{
   bool debug_utils = vkh_instance_has_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
   const char *extensions[] = { VK_EXT_DEBUG_UTILS_EXTENSION_NAME };

   VkDebugUtilsMessengerCreateInfoEXT messenger_info = {
      .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
      .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
      .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
      .pfnUserCallback = vkh_messenger_cb,
      .pUserData = (void *)h->name,
   };
   VkApplicationInfo app = {
      .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
      .pApplicationName = h->name,
      .apiVersion = api_version,
   };
   VkInstanceCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
      /* Also catches messages of vkCreateInstance/vkDestroyInstance. */
      .pNext = debug_utils ? &messenger_info : NULL,
      .pApplicationInfo = &app,
      .enabledExtensionCount = debug_utils ? 1 : 0,
      .ppEnabledExtensionNames = extensions,
   };

   if (!debug_utils)
      fprintf(stderr, "vkh: %s: no VK_EXT_debug_utils; messages are not counted\n", h->name);

   VkResult res = vkCreateInstance(&info, NULL, &h->instance);
   if (res != VK_SUCCESS) {
      fprintf(stderr, "vkh: %s: vkCreateInstance: %d\n", h->name, res);
      return false;
   }

   if (debug_utils) {
      PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)
         vkGetInstanceProcAddr(h->instance, "vkCreateDebugUtilsMessengerEXT");
      h->DestroyDebugUtilsMessengerEXT = (PFN_vkDestroyDebugUtilsMessengerEXT)
         vkGetInstanceProcAddr(h->instance, "vkDestroyDebugUtilsMessengerEXT");
      if (!create || !h->DestroyDebugUtilsMessengerEXT ||
          create(h->instance, &messenger_info, NULL, &h->messenger) != VK_SUCCESS) {
         fprintf(stderr, "vkh: %s: cannot create the debug messenger\n", h->name);
         return false;
      }
   }
   return true;
}

static bool
vkh_create_device(struct vkh *h, const struct vkh_options *options)
{
   uint32_t count = 1;
   VkResult res = vkEnumeratePhysicalDevices(h->instance, &count, &h->physical_device);
   if ((res != VK_SUCCESS && res != VK_INCOMPLETE) || count == 0) {
      fprintf(stderr, "vkh: %s: no physical device (%d)\n", h->name, res);
      return false;
   }

   VkPhysicalDeviceIDProperties id = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES };
   VkPhysicalDeviceProperties2 props2 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
      .pNext = &id,
   };
   vkGetPhysicalDeviceProperties2(h->physical_device, &props2);
   h->properties = props2.properties;
   memcpy(h->device_uuid, id.deviceUUID, VK_UUID_SIZE);
   memcpy(h->driver_uuid, id.driverUUID, VK_UUID_SIZE);
   vkGetPhysicalDeviceMemoryProperties(h->physical_device, &h->memory_properties);

   uint32_t family_count = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(h->physical_device, &family_count, NULL);
   VkQueueFamilyProperties families[16];
   family_count = family_count > 16 ? 16 : family_count;
   vkGetPhysicalDeviceQueueFamilyProperties(h->physical_device, &family_count, families);
   h->queue_family = UINT32_MAX;
   for (uint32_t i = 0; i < family_count && h->queue_family == UINT32_MAX; i++) {
      if (families[i].queueFlags & (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT))
         h->queue_family = i;
   }
   if (h->queue_family == UINT32_MAX) {
      fprintf(stderr, "vkh: %s: no compute queue\n", h->name);
      return false;
   }

   const char *extensions[16] = { VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME };
   uint32_t extension_count = 1;
   for (uint32_t i = 0; options && i < options->device_extension_count && extension_count < 16; i++)
      extensions[extension_count++] = options->device_extensions[i];

   float priority = 1.0f;
   VkDeviceQueueCreateInfo queue = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
      .queueFamilyIndex = h->queue_family,
      .queueCount = 1,
      .pQueuePriorities = &priority,
   };
   /* External memory, dedicated allocation and bind_memory2 are core in
    * 1.1; only the fd extension is needed. */
   VkDeviceCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
      .pNext = options ? options->device_pnext : NULL,
      .queueCreateInfoCount = 1,
      .pQueueCreateInfos = &queue,
      .enabledExtensionCount = extension_count,
      .ppEnabledExtensionNames = extensions,
   };
   res = vkCreateDevice(h->physical_device, &info, NULL, &h->device);
   if (res != VK_SUCCESS) {
      fprintf(stderr, "vkh: %s: vkCreateDevice: %d\n", h->name, res);
      return false;
   }
   vkGetDeviceQueue(h->device, h->queue_family, 0, &h->queue);
   h->GetMemoryFdKHR = (PFN_vkGetMemoryFdKHR)vkGetDeviceProcAddr(h->device, "vkGetMemoryFdKHR");
   if (!h->GetMemoryFdKHR) {
      fprintf(stderr, "vkh: %s: no vkGetMemoryFdKHR\n", h->name);
      return false;
   }
   return true;
}

bool
vkh_init(struct vkh *h, const char *name, const struct vkh_options *options)
{
   memset(h, 0, sizeof(*h));
   h->name = name;

   uint32_t api_version = options && options->api_version ? options->api_version
                                                          : VK_API_VERSION_1_2;
   if (!vkh_check_env_layers() || !vkh_create_instance(h, api_version) ||
       !vkh_create_device(h, options)) {
      vkh_finish(h);
      return false;
   }
   return true;
}

unsigned
vkh_finish(struct vkh *h)
{
   if (h->device) {
      vkDeviceWaitIdle(h->device);
      vkDestroyDevice(h->device, NULL);
      h->device = VK_NULL_HANDLE;
   }
   if (h->messenger) {
      h->DestroyDebugUtilsMessengerEXT(h->instance, h->messenger, NULL);
      h->messenger = VK_NULL_HANDLE;
   }
   if (h->instance) {
      vkDestroyInstance(h->instance, NULL);
      h->instance = VK_NULL_HANDLE;
   }
   return vkh_message_count();
}

int
vkh_find_memory_type(const struct vkh *h, uint32_t type_bits, VkMemoryPropertyFlags required)
{
   for (uint32_t i = 0; i < h->memory_properties.memoryTypeCount; i++) {
      if ((type_bits & (1u << i)) &&
          (h->memory_properties.memoryTypes[i].propertyFlags & required) == required)
         return (int)i;
   }
   return -1;
}

/* Host-visible and coherent if there is such a type, else host-visible,
 * else whatever the object allows. */
static int
vkh_pick_memory_type(const struct vkh *h, uint32_t type_bits)
{
   int t = vkh_find_memory_type(h, type_bits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                              VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
   if (t < 0)
      t = vkh_find_memory_type(h, type_bits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
   if (t < 0)
      t = vkh_find_memory_type(h, type_bits, 0);
   return t;
}

VkResult
vkh_create_buffer(struct vkh *h, VkDeviceSize size, VkBufferUsageFlags usage,
                  VkExternalMemoryHandleTypeFlags external, VkBuffer *out)
{
   VkExternalMemoryBufferCreateInfo ext = {
      .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
      .handleTypes = external,
   };
   VkBufferCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .pNext = external ? &ext : NULL,
      .size = size,
      .usage = usage,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   return vkCreateBuffer(h->device, &info, NULL, out);
}

VkImageCreateInfo
vkh_image_info_2d(VkFormat format, uint32_t width, uint32_t height, uint32_t mip_levels,
                  uint32_t array_layers, VkImageUsageFlags usage)
{
   return (VkImageCreateInfo){
      .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
      .imageType = VK_IMAGE_TYPE_2D,
      .format = format,
      .extent = { width, height, 1 },
      .mipLevels = mip_levels,
      .arrayLayers = array_layers,
      .samples = VK_SAMPLE_COUNT_1_BIT,
      .tiling = VK_IMAGE_TILING_OPTIMAL,
      .usage = usage,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
      .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
   };
}

VkResult
vkh_create_image(struct vkh *h, const VkImageCreateInfo *info,
                 VkExternalMemoryHandleTypeFlags external, VkImage *out)
{
   VkExternalMemoryImageCreateInfo ext = {
      .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO,
      .pNext = info->pNext,
      .handleTypes = external,
   };
   VkImageCreateInfo copy = *info;
   if (external)
      copy.pNext = &ext;
   return vkCreateImage(h->device, &copy, NULL, out);
}

VkResult
vkh_allocate(struct vkh *h, VkDeviceSize size, uint32_t type_index,
             VkExternalMemoryHandleTypeFlags export_types, VkImage dedicated_image,
             VkBuffer dedicated_buffer, VkDeviceMemory *out)
{
   VkMemoryDedicatedAllocateInfo dedicated = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO,
      .image = dedicated_image,
      .buffer = dedicated_buffer,
   };
   VkExportMemoryAllocateInfo export_info = {
      .sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO,
      .handleTypes = export_types,
   };
   VkMemoryAllocateInfo info = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .allocationSize = size,
      .memoryTypeIndex = type_index,
   };
   const void **tail = &info.pNext;
   if (export_types) {
      *tail = &export_info;
      tail = &export_info.pNext;
   }
   if (dedicated_image || dedicated_buffer)
      *tail = &dedicated;
   return vkAllocateMemory(h->device, &info, NULL, out);
}

static VkResult
vkh_allocate_for(struct vkh *h, const VkMemoryRequirements *req, VkImage image, VkBuffer buffer,
                 VkExternalMemoryHandleTypeFlags export_types, VkDeviceMemory *out,
                 VkDeviceSize *size, uint32_t *type_index)
{
   int t = vkh_pick_memory_type(h, req->memoryTypeBits);
   if (t < 0)
      return VK_ERROR_FEATURE_NOT_PRESENT;
   if (size)
      *size = req->size;
   if (type_index)
      *type_index = (uint32_t)t;
   return vkh_allocate(h, req->size, (uint32_t)t, export_types, image, buffer, out);
}

VkResult
vkh_allocate_for_buffer(struct vkh *h, VkBuffer buffer, bool dedicated,
                        VkExternalMemoryHandleTypeFlags export_types, VkDeviceMemory *out,
                        VkDeviceSize *size, uint32_t *type_index)
{
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(h->device, buffer, &req);
   return vkh_allocate_for(h, &req, VK_NULL_HANDLE, dedicated ? buffer : VK_NULL_HANDLE,
                           export_types, out, size, type_index);
}

VkResult
vkh_allocate_for_image(struct vkh *h, VkImage image, bool dedicated,
                       VkExternalMemoryHandleTypeFlags export_types, VkDeviceMemory *out,
                       VkDeviceSize *size, uint32_t *type_index)
{
   VkMemoryRequirements req;
   vkGetImageMemoryRequirements(h->device, image, &req);
   return vkh_allocate_for(h, &req, dedicated ? image : VK_NULL_HANDLE, VK_NULL_HANDLE,
                           export_types, out, size, type_index);
}

int
vkh_get_memory_fd(struct vkh *h, VkDeviceMemory memory, VkExternalMemoryHandleTypeFlagBits type)
{
   VkMemoryGetFdInfoKHR info = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR,
      .memory = memory,
      .handleType = type,
   };
   int fd = -1;
   VkResult res = h->GetMemoryFdKHR(h->device, &info, &fd);
   if (res != VK_SUCCESS) {
      fprintf(stderr, "vkh: %s: vkGetMemoryFdKHR: %d\n", h->name, res);
      return -1;
   }
   return fd;
}

/* The harness allocates coherent memory where the device has it; not
 * knowing the type of a given allocation, it flushes and invalidates unless
 * every host-visible type is coherent. */
static bool
vkh_host_memory_is_coherent(const struct vkh *h)
{
   for (uint32_t i = 0; i < h->memory_properties.memoryTypeCount; i++) {
      VkMemoryPropertyFlags f = h->memory_properties.memoryTypes[i].propertyFlags;
      if ((f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) && !(f & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
         return false;
   }
   return true;
}

bool
vkh_write(struct vkh *h, VkDeviceMemory memory, VkDeviceSize offset, const void *data, size_t size)
{
   void *p;
   if (vkMapMemory(h->device, memory, 0, VK_WHOLE_SIZE, 0, &p) != VK_SUCCESS)
      return false;
   memcpy((char *)p + offset, data, size);
   if (!vkh_host_memory_is_coherent(h)) {
      VkMappedMemoryRange range = {
         .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
         .memory = memory,
         .size = VK_WHOLE_SIZE,
      };
      vkFlushMappedMemoryRanges(h->device, 1, &range);
   }
   vkUnmapMemory(h->device, memory);
   return true;
}

bool
vkh_read(struct vkh *h, VkDeviceMemory memory, VkDeviceSize offset, void *data, size_t size)
{
   void *p;
   if (vkMapMemory(h->device, memory, 0, VK_WHOLE_SIZE, 0, &p) != VK_SUCCESS)
      return false;
   if (!vkh_host_memory_is_coherent(h)) {
      VkMappedMemoryRange range = {
         .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
         .memory = memory,
         .size = VK_WHOLE_SIZE,
      };
      vkInvalidateMappedMemoryRanges(h->device, 1, &range);
   }
   memcpy(data, (char *)p + offset, size);
   vkUnmapMemory(h->device, memory);
   return true;
}
