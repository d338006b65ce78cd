/*
 * Loader plumbing of VK_LAYER_CUVK_interop: interface negotiation,
 * vkGetInstanceProcAddr/vkGetDeviceProcAddr, the enumerate queries, and
 * the instance and device state that holds the next entity's entry points.
 * Follows the Vulkan loader's layer interface, version 2.
 */
#include "layer/layer.h"

#include <pthread.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "util/xsem_bridge.h"

/* All layer state sits in one table under one lock. */
static pthread_mutex_t layer_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct layer_table layer_handles;

void
layer_lock(void)
{
   pthread_mutex_lock(&layer_mutex);
}

void
layer_unlock(void)
{
   pthread_mutex_unlock(&layer_mutex);
}

/* The loader's dispatch key: the first word of every dispatchable object.
 * A physical device shares its instance's. */
static inline uint64_t
layer_dispatch_key(const void *dispatchable)
{
   return (uint64_t)(uintptr_t)*(void *const *)dispatchable;
}

void *
layer_zalloc(const VkAllocationCallbacks *cb, size_t size, VkSystemAllocationScope scope,
             struct layer_allocator *out)
{
   void *p;

   if (cb) {
      p = cb->pfnAllocation(cb->pUserData, size, alignof(max_align_t), scope);
      if (p)
         memset(p, 0, size);
   } else {
      p = calloc(1, size);
   }
   if (p && out) {
      out->set = cb != NULL;
      if (cb)
         out->callbacks = *cb;
   }
   return p;
}

void
layer_free(const struct layer_allocator *a, void *ptr)
{
   struct layer_allocator copy = *a;

   if (!ptr)
      return;
   if (copy.set)
      copy.callbacks.pfnFree(copy.callbacks.pUserData, ptr);
   else
      free(ptr);
}

void
layer_object_insert(struct layer_device *dev, struct layer_object *obj, enum layer_kind kind,
                    uint64_t handle)
{
   obj->node.kind = kind;
   obj->node.scope = dev;
   obj->node.key = handle;
   layer_table_insert(&layer_handles, &obj->node);
   cuvk_list_addtail(&obj->device_link, &dev->objects);
}

void
layer_object_insert_list(struct layer_device *dev, struct layer_object *obj, enum layer_kind kind,
                         uint64_t handle, struct cuvk_list *list)
{
   obj->node.kind = kind;
   obj->node.scope = dev;
   obj->node.key = handle;
   layer_table_insert(&layer_handles, &obj->node);
   cuvk_list_addtail(&obj->device_link, list);
}

struct layer_object *
layer_object_find(struct layer_device *dev, enum layer_kind kind, uint64_t handle)
{
   struct layer_node *n = layer_table_find(&layer_handles, kind, dev, handle);
   return n ? cuvk_container_of(n, struct layer_object, node) : NULL;
}

void
layer_object_remove(struct layer_object *obj)
{
   layer_table_remove(&layer_handles, &obj->node);
   cuvk_list_del(&obj->device_link);
}

struct layer_instance *
layer_instance_of(const void *dispatchable)
{
   layer_lock();
   struct layer_node *n = layer_table_find(&layer_handles, LAYER_KIND_INSTANCE, NULL,
                                           layer_dispatch_key(dispatchable));
   layer_unlock();
   return n ? cuvk_container_of(n, struct layer_instance, node) : NULL;
}

struct layer_device *
layer_device_get(const void *dispatchable)
{
   layer_lock();
   struct layer_node *n = layer_table_find(&layer_handles, LAYER_KIND_DEVICE, NULL,
                                           layer_dispatch_key(dispatchable));
   layer_unlock();
   return n ? cuvk_container_of(n, struct layer_device, node) : NULL;
}

static bool
layer_has_extension(const char *const *names, uint32_t count, const char *name)
{
   for (uint32_t i = 0; i < count; i++) {
      if (strcmp(names[i], name) == 0)
         return true;
   }
   return false;
}

/* ---- the enumerate queries ---------------------------------------------- */

static const VkLayerProperties layer_properties = {
   .layerName = CUVK_LAYER_NAME,
   .specVersion = VK_HEADER_VERSION_COMPLETE,
   .implementationVersion = CUVK_LAYER_IMPLEMENTATION_VERSION,
   .description = CUVK_LAYER_DESCRIPTION,
};

static VkResult
layer_report_self(uint32_t *pPropertyCount, VkLayerProperties *pProperties)
{
   if (!pProperties) {
      *pPropertyCount = 1;
      return VK_SUCCESS;
   }
   if (*pPropertyCount < 1)
      return VK_INCOMPLETE;
   pProperties[0] = layer_properties;
   *pPropertyCount = 1;
   return VK_SUCCESS;
}

static bool
layer_is_self(const char *pLayerName)
{
   return pLayerName && strcmp(pLayerName, CUVK_LAYER_NAME) == 0;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_EnumerateInstanceLayerProperties(uint32_t *pPropertyCount, VkLayerProperties *pProperties)
{
   return layer_report_self(pPropertyCount, pProperties);
}

/* The layer adds no extension; any other name (NULL included) is another
 * layer's business, as the loader interface requires. */
static VKAPI_ATTR VkResult VKAPI_CALL
layer_EnumerateInstanceExtensionProperties(const char *pLayerName, uint32_t *pPropertyCount,
                                           VkExtensionProperties *pProperties)
{
   if (!layer_is_self(pLayerName))
      return VK_ERROR_LAYER_NOT_PRESENT;
   *pPropertyCount = 0;
   return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_EnumerateDeviceLayerProperties(VkPhysicalDevice physicalDevice, uint32_t *pPropertyCount,
                                     VkLayerProperties *pProperties)
{
   return layer_report_self(pPropertyCount, pProperties);
}

/* Our name: the extensions the layer provides on this device (the
 * external-semaphore ones where the driver lacks them).  NULL: the
 * driver's, plus those.  Another layer's name: the loader interface says to
 * chain down. */
static VKAPI_ATTR VkResult VKAPI_CALL
layer_EnumerateDeviceExtensionProperties(VkPhysicalDevice physicalDevice, const char *pLayerName,
                                         uint32_t *pPropertyCount,
                                         VkExtensionProperties *pProperties)
{
   struct layer_instance *inst = layer_instance_of(physicalDevice);
   if (!inst)
      return VK_ERROR_LAYER_NOT_PRESENT;
   if (layer_is_self(pLayerName))
      return layer_semaphore_own_extensions(inst, physicalDevice, pPropertyCount, pProperties);
   if (!pLayerName)
      return layer_semaphore_enumerate_extensions(inst, physicalDevice, pPropertyCount, pProperties);
   return inst->EnumerateDeviceExtensionProperties(physicalDevice, pLayerName, pPropertyCount,
                                                   pProperties);
}

/* ---- instance ----------------------------------------------------------- */

/* The loader's link for this layer in a create info's pNext chain.  The
 * chain is const to the application but the loader's own structs in it are
 * meant to be advanced by each layer. */
static VkLayerInstanceCreateInfo *
layer_instance_link(const VkInstanceCreateInfo *info)
{
   for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext) {
      if (s->sType != VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO)
         continue;
      VkLayerInstanceCreateInfo *link = (VkLayerInstanceCreateInfo *)s;
      if (link->function == VK_LAYER_LINK_INFO)
         return link;
   }
   return NULL;
}

static VkLayerDeviceCreateInfo *
layer_device_link(const VkDeviceCreateInfo *info)
{
   for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext) {
      if (s->sType != VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO)
         continue;
      VkLayerDeviceCreateInfo *link = (VkLayerDeviceCreateInfo *)s;
      if (link->function == VK_LAYER_LINK_INFO)
         return link;
   }
   return NULL;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_CreateInstance(const VkInstanceCreateInfo *pCreateInfo, const VkAllocationCallbacks *pAllocator,
                     VkInstance *pInstance)
{
   VkLayerInstanceCreateInfo *link = layer_instance_link(pCreateInfo);
   if (!link || !link->u.pLayerInfo) {
      cuvk_loge("vkCreateInstance reached " CUVK_LAYER_NAME " without the loader's link info");
      return VK_ERROR_INITIALIZATION_FAILED;
   }

   PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
   PFN_vkCreateInstance create = (PFN_vkCreateInstance)gipa(NULL, "vkCreateInstance");
   if (!create)
      return VK_ERROR_INITIALIZATION_FAILED;

   struct layer_allocator allocator;
   struct layer_instance *inst = layer_zalloc(pAllocator, sizeof(*inst),
                                              VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE, &allocator);
   if (!inst)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   inst->allocator = allocator;

   /* The next layer must find its own link, not ours. */
   link->u.pLayerInfo = link->u.pLayerInfo->pNext;

   VkResult res = create(pCreateInfo, pAllocator, pInstance);
   if (res != VK_SUCCESS) {
      layer_free(&inst->allocator, inst);
      return res;
   }

   VkInstance instance = *pInstance;
   const VkApplicationInfo *app = pCreateInfo->pApplicationInfo;
   inst->instance = instance;
   inst->api_version = app && app->apiVersion ? app->apiVersion : VK_API_VERSION_1_0;
   inst->khr_get_physical_device_properties2 =
      layer_has_extension(pCreateInfo->ppEnabledExtensionNames, pCreateInfo->enabledExtensionCount,
                          VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME);
   inst->khr_external_memory_capabilities =
      layer_has_extension(pCreateInfo->ppEnabledExtensionNames, pCreateInfo->enabledExtensionCount,
                          VK_KHR_EXTERNAL_MEMORY_CAPABILITIES_EXTENSION_NAME);
   inst->khr_external_semaphore_capabilities =
      layer_has_extension(pCreateInfo->ppEnabledExtensionNames, pCreateInfo->enabledExtensionCount,
                          VK_KHR_EXTERNAL_SEMAPHORE_CAPABILITIES_EXTENSION_NAME);

#define GET(name) inst->name = (PFN_vk##name)gipa(instance, "vk" #name)
   inst->GetInstanceProcAddr = gipa;
   GET(DestroyInstance);
   GET(EnumerateDeviceExtensionProperties);
   GET(GetPhysicalDeviceProperties);
   GET(GetPhysicalDeviceMemoryProperties);
   GET(GetPhysicalDeviceFormatProperties);
   if (inst->api_version >= VK_API_VERSION_1_1) {
      GET(GetPhysicalDeviceProperties2);
      GET(GetPhysicalDeviceImageFormatProperties2);
      GET(GetPhysicalDeviceExternalSemaphoreProperties);
   }
   if (inst->khr_get_physical_device_properties2)
      GET(GetPhysicalDeviceProperties2KHR);
   if (inst->khr_external_semaphore_capabilities)
      GET(GetPhysicalDeviceExternalSemaphorePropertiesKHR);
#undef GET

   inst->node.kind = LAYER_KIND_INSTANCE;
   inst->node.key = layer_dispatch_key(instance);
   layer_lock();
   layer_table_insert(&layer_handles, &inst->node);
   layer_unlock();
   return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
layer_DestroyInstance(VkInstance instance, const VkAllocationCallbacks *pAllocator)
{
   if (!instance)
      return;

   layer_lock();
   struct layer_node *n = layer_table_find(&layer_handles, LAYER_KIND_INSTANCE, NULL,
                                           layer_dispatch_key(instance));
   if (n)
      layer_table_remove(&layer_handles, n);
   layer_unlock();
   if (!n)
      return;

   struct layer_instance *inst = cuvk_container_of(n, struct layer_instance, node);
   inst->DestroyInstance(instance, pAllocator);
   layer_free(&inst->allocator, inst);
}

/* ---- device ------------------------------------------------------------- */

/* The physical device's UUIDs, which an importer compares with its own.
 * VkPhysicalDeviceIDProperties needs Vulkan 1.1 on both instance and
 * device, or the two KHR instance extensions; without them the record
 * says it has no UUIDs rather than make an invalid call. */
static void
layer_query_uuids(struct layer_instance *inst, VkPhysicalDevice pdev, struct layer_device *dev)
{
   PFN_vkGetPhysicalDeviceProperties2 get2 = NULL;
   VkPhysicalDeviceProperties props;

   inst->GetPhysicalDeviceProperties(pdev, &props);
   if (inst->api_version >= VK_API_VERSION_1_1 && props.apiVersion >= VK_API_VERSION_1_1)
      get2 = inst->GetPhysicalDeviceProperties2;
   if (!get2 && inst->khr_get_physical_device_properties2 && inst->khr_external_memory_capabilities)
      get2 = inst->GetPhysicalDeviceProperties2KHR;

   if (!get2) {
      cuvk_log_once(CUVK_LOG_INFO,
                    "instance has neither Vulkan 1.1 nor VK_KHR_external_memory_capabilities: "
                    "exports are recorded without device UUIDs");
      return;
   }

   VkPhysicalDeviceIDProperties id = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES,
   };
   VkPhysicalDeviceProperties2 props2 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
      .pNext = &id,
   };
   get2(pdev, &props2);
   memcpy(dev->device_uuid, id.deviceUUID, VK_UUID_SIZE);
   memcpy(dev->driver_uuid, id.driverUUID, VK_UUID_SIZE);
   dev->has_uuids = true;
}

static void
layer_fill_device(struct layer_device *dev, const VkDeviceCreateInfo *info,
                  PFN_vkGetDeviceProcAddr gdpa)
{
   VkDevice device = dev->device;

#define GET(name) dev->name = (PFN_vk##name)gdpa(device, "vk" #name)
   dev->GetDeviceProcAddr = gdpa;
   GET(DestroyDevice);
   GET(AllocateMemory);
   GET(FreeMemory);
   GET(CreateImage);
   GET(DestroyImage);
   GET(CreateBuffer);
   GET(DestroyBuffer);
   GET(BindImageMemory);
   GET(BindImageMemory2);
   GET(BindBufferMemory);
   GET(BindBufferMemory2);
   GET(GetMemoryFdKHR);
#ifdef _WIN32
   GET(GetMemoryWin32HandleKHR);
#endif
#undef GET

   /* A 1.0 device with VK_KHR_bind_memory2 has only the KHR names. */
   if (!dev->BindImageMemory2)
      dev->BindImageMemory2 = (PFN_vkBindImageMemory2)gdpa(device, "vkBindImageMemory2KHR");
   if (!dev->BindBufferMemory2)
      dev->BindBufferMemory2 = (PFN_vkBindBufferMemory2)gdpa(device, "vkBindBufferMemory2KHR");

   /* Only called by the layer itself, so only where the application
    * enabled it: a layer below must not see a call to a disabled command. */
   if (layer_has_extension(info->ppEnabledExtensionNames, info->enabledExtensionCount,
                           VK_EXT_IMAGE_DRM_FORMAT_MODIFIER_EXTENSION_NAME)) {
      dev->GetImageDrmFormatModifierPropertiesEXT = (PFN_vkGetImageDrmFormatModifierPropertiesEXT)
         gdpa(device, "vkGetImageDrmFormatModifierPropertiesEXT");
   }
}

/* Whether the driver (everything below the layer) lists a device
 * extension. */
static bool
layer_driver_has_extension(struct layer_instance *inst, VkPhysicalDevice pdev, const char *name)
{
   uint32_t count = 0;
   if (inst->EnumerateDeviceExtensionProperties(pdev, NULL, &count, NULL) != VK_SUCCESS || !count)
      return false;
   struct layer_allocator a;
   VkExtensionProperties *props =
      layer_zalloc(inst->allocator.set ? &inst->allocator.callbacks : NULL, count * sizeof(*props),
                   VK_SYSTEM_ALLOCATION_SCOPE_COMMAND, &a);
   if (!props)
      return false;
   bool found = false;
   VkResult res = inst->EnumerateDeviceExtensionProperties(pdev, NULL, &count, props);
   for (uint32_t i = 0; (res == VK_SUCCESS || res == VK_INCOMPLETE) && i < count && !found; i++)
      found = strcmp(props[i].extensionName, name) == 0;
   layer_free(&a, props);
   return found;
}

/* Widened images name the formats cuvk views them as
 * (VkImageFormatListCreateInfo) where the device takes the struct: Vulkan
 * 1.2 (the lower of the instance's and the physical device's version) or
 * VK_KHR_image_format_list.  A 1.1 application that did not enable the
 * extension gets it from the layer where the driver has it, as it gets
 * VK_KHR_timeline_semaphore for the semaphore emulation: without a list a
 * driver may not compress the application's image (NVIDIA's colour
 * compression).  Returns the extension names to call down with (*names,
 * freed by the caller with *a) when one is added; sets *format_list. */
static VkResult
layer_format_list_extension(struct layer_instance *inst, VkPhysicalDevice pdev,
                            const VkPhysicalDeviceProperties *pd_props, const VkDeviceCreateInfo *info,
                            const VkAllocationCallbacks *alloc, const char ***names,
                            struct layer_allocator *a, bool *format_list)
{
   *names = NULL;
   *format_list = false;
   /* For measuring what the list is worth (docs/environment.md). */
   const char *env = getenv("CUVK_LAYER_FORMAT_LIST");
   if (env && strcmp(env, "0") == 0) {
      cuvk_log_once(CUVK_LOG_INFO, "CUVK_LAYER_FORMAT_LIST=0: images the layer widens get no format list");
      return VK_SUCCESS;
   }
   if (inst->api_version >= VK_API_VERSION_1_2 && pd_props->apiVersion >= VK_API_VERSION_1_2) {
      *format_list = true;
      return VK_SUCCESS;
   }
   if (layer_has_extension(info->ppEnabledExtensionNames, info->enabledExtensionCount,
                           VK_KHR_IMAGE_FORMAT_LIST_EXTENSION_NAME)) {
      *format_list = true;
      return VK_SUCCESS;
   }
   /* Below 1.1 the layer widens nothing (layer_image_widen). */
   if (inst->api_version < VK_API_VERSION_1_1 || pd_props->apiVersion < VK_API_VERSION_1_1 ||
       !layer_driver_has_extension(inst, pdev, VK_KHR_IMAGE_FORMAT_LIST_EXTENSION_NAME))
      return VK_SUCCESS;

   const char **list = layer_zalloc(alloc, (info->enabledExtensionCount + 1) * sizeof(*list),
                                    VK_SYSTEM_ALLOCATION_SCOPE_COMMAND, a);
   if (!list)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   for (uint32_t i = 0; i < info->enabledExtensionCount; i++)
      list[i] = info->ppEnabledExtensionNames[i];
   list[info->enabledExtensionCount] = VK_KHR_IMAGE_FORMAT_LIST_EXTENSION_NAME;
   *names = list;
   *format_list = true;
   cuvk_logd("vkCreateDevice: " CUVK_LAYER_NAME " enables " VK_KHR_IMAGE_FORMAT_LIST_EXTENSION_NAME
             " for the format lists of the exportable images it widens");
   return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo *pCreateInfo,
                   const VkAllocationCallbacks *pAllocator, VkDevice *pDevice)
{
   struct layer_instance *inst = layer_instance_of(physicalDevice);
   VkLayerDeviceCreateInfo *link = layer_device_link(pCreateInfo);
   if (!inst || !link || !link->u.pLayerInfo) {
      cuvk_loge("vkCreateDevice reached " CUVK_LAYER_NAME " without its instance or the loader's link info");
      return VK_ERROR_INITIALIZATION_FAILED;
   }

   PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
   PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
   PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(inst->instance, "vkCreateDevice");
   if (!create)
      return VK_ERROR_INITIALIZATION_FAILED;

   struct layer_allocator allocator;
   struct layer_device *dev = layer_zalloc(pAllocator, sizeof(*dev),
                                           VK_SYSTEM_ALLOCATION_SCOPE_DEVICE, &allocator);
   if (!dev)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   dev->allocator = allocator;
   cuvk_list_init(&dev->objects);
   cuvk_list_init(&dev->semaphores);

   link->u.pLayerInfo = link->u.pLayerInfo->pNext;

   /* Where the layer provides VK_KHR_external_semaphore_fd, the driver
    * gets a copy without it (and with timeline semaphores on). */
   const VkDeviceCreateInfo *down = pCreateInfo;
   void *scratch = NULL;
   VkResult res = layer_semaphore_device_info(inst, physicalDevice, pCreateInfo, pAllocator, &down,
                                              &scratch, &dev->sem_emulated);

   /* The device's version is the lower of the instance's and the
    * physical device's. */
   VkPhysicalDeviceProperties pd_props;
   inst->GetPhysicalDeviceProperties(physicalDevice, &pd_props);
   const char **names = NULL;
   struct layer_allocator names_allocator;
   VkDeviceCreateInfo with_list;
   if (res == VK_SUCCESS)
      res = layer_format_list_extension(inst, physicalDevice, &pd_props, down, pAllocator, &names,
                                        &names_allocator, &dev->format_list);
   if (res == VK_SUCCESS && names) {
      with_list = *down;
      with_list.enabledExtensionCount++;
      with_list.ppEnabledExtensionNames = names;
      down = &with_list;
   }
   if (res == VK_SUCCESS)
      res = create(physicalDevice, down, pAllocator, pDevice);
   if (names)
      layer_free(&names_allocator, names);
   layer_semaphore_device_info_free(pAllocator, scratch);
   if (res != VK_SUCCESS) {
      layer_free(&dev->allocator, dev);
      return res;
   }

   dev->device = *pDevice;
   layer_fill_device(dev, pCreateInfo, gdpa);
   layer_semaphore_fill_device(dev, inst->api_version, gdpa);
   layer_query_uuids(inst, physicalDevice, dev);

   VkPhysicalDeviceMemoryProperties mem_props;
   inst->GetPhysicalDeviceMemoryProperties(physicalDevice, &mem_props);
   dev->memory_type_count = mem_props.memoryTypeCount;
   for (uint32_t i = 0; i < mem_props.memoryTypeCount; i++)
      dev->memory_type_flags[i] = mem_props.memoryTypes[i].propertyFlags;

   if (inst->GetPhysicalDeviceImageFormatProperties2 && inst->GetPhysicalDeviceFormatProperties &&
       pd_props.apiVersion >= VK_API_VERSION_1_1) {
      dev->physical_device = physicalDevice;
      dev->GetPhysicalDeviceFormatProperties = inst->GetPhysicalDeviceFormatProperties;
      dev->GetPhysicalDeviceImageFormatProperties2 = inst->GetPhysicalDeviceImageFormatProperties2;
   }

   dev->node.kind = LAYER_KIND_DEVICE;
   dev->node.key = layer_dispatch_key(*pDevice);
   layer_lock();
   layer_table_insert(&layer_handles, &dev->node);
   layer_unlock();
   return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
layer_DestroyDevice(VkDevice device, const VkAllocationCallbacks *pAllocator)
{
   struct cuvk_list orphans;

   if (!device)
      return;

   cuvk_list_init(&orphans);
   layer_lock();
   struct layer_node *n = layer_table_find(&layer_handles, LAYER_KIND_DEVICE, NULL,
                                           layer_dispatch_key(device));
   if (n) {
      layer_table_remove(&layer_handles, n);
      layer_memory_detach_device(cuvk_container_of(n, struct layer_device, node), &orphans);
   }
   layer_unlock();
   if (!n)
      return;

   struct layer_device *dev = cuvk_container_of(n, struct layer_device, node);
   if (dev->sem_emulated)
      layer_semaphore_destroy_device(dev);
   dev->DestroyDevice(device, pAllocator);
   layer_memory_free_objects(&orphans);
   layer_free(&dev->allocator, dev);
}

/* ---- vkGet*ProcAddr and negotiation ------------------------------------- */

struct layer_entry {
   const char *name;
   PFN_vkVoidFunction func;
};

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
layer_GetDeviceProcAddr(VkDevice device, const char *pName);
static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
layer_GetInstanceProcAddr(VkInstance instance, const char *pName);

#define ENTRY(name) { "vk" #name, (PFN_vkVoidFunction)layer_##name }

/* Commands that take no instance. */
static const struct layer_entry layer_global_entries[] = {
   ENTRY(GetInstanceProcAddr),
   ENTRY(CreateInstance),
   ENTRY(EnumerateInstanceLayerProperties),
   ENTRY(EnumerateInstanceExtensionProperties),
};

/* Instance and physical-device commands the layer handles itself. */
static const struct layer_entry layer_instance_entries[] = {
   ENTRY(DestroyInstance),
   ENTRY(CreateDevice),
   ENTRY(GetDeviceProcAddr),
   ENTRY(EnumerateDeviceLayerProperties),
   ENTRY(EnumerateDeviceExtensionProperties),
};

/* Device commands of the plumbing; layer_memory_proc has the rest. */
static const struct layer_entry layer_device_entries[] = {
   ENTRY(GetDeviceProcAddr),
   ENTRY(DestroyDevice),
};

#undef ENTRY

static PFN_vkVoidFunction
layer_lookup(const struct layer_entry *entries, size_t count, const char *name)
{
   for (size_t i = 0; i < count; i++) {
      if (strcmp(entries[i].name, name) == 0)
         return entries[i].func;
   }
   return NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
layer_GetInstanceProcAddr(VkInstance instance, const char *pName)
{
   PFN_vkVoidFunction f;

   if (!pName)
      return NULL;
   f = layer_lookup(layer_global_entries, CUVK_ARRAY_SIZE(layer_global_entries), pName);
   if (f)
      return f;
   if (!instance)
      return NULL;

   /* Asked only of layers older than interface 2; ours is the NULL that
    * negotiation gave, never the next layer's. */
   if (strcmp(pName, "vk_layerGetPhysicalDeviceProcAddr") == 0)
      return NULL;

   struct layer_instance *inst = layer_instance_of(instance);
   if (!inst)
      return NULL;
   f = layer_lookup(layer_instance_entries, CUVK_ARRAY_SIZE(layer_instance_entries), pName);
   if (f)
      return f;

   /* Everything else is the next entity's; a device command we intercept
    * is ours only where the next entity has it at all, so what is not
    * supported stays NULL. */
   PFN_vkVoidFunction next = inst->GetInstanceProcAddr(instance, pName);
   if (!next)
      return NULL;
   f = layer_semaphore_instance_proc(pName);
   if (!f)
      f = layer_lookup(layer_device_entries, CUVK_ARRAY_SIZE(layer_device_entries), pName);
   if (!f)
      f = layer_memory_proc(pName);
   if (!f)
      f = layer_semaphore_proc(NULL, pName, next);
   return f ? f : next;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
layer_GetDeviceProcAddr(VkDevice device, const char *pName)
{
   if (!device || !pName)
      return NULL;

   struct layer_device *dev = layer_device_get(device);
   if (!dev)
      return NULL;

   PFN_vkVoidFunction f = layer_lookup(layer_device_entries,
                                       CUVK_ARRAY_SIZE(layer_device_entries), pName);
   if (f)
      return f;

   /* Intercept only what the device has enabled: the next entity answers
    * NULL for the rest, and so do we, except for the semaphore fd
    * commands the layer provides itself. */
   PFN_vkVoidFunction next = dev->GetDeviceProcAddr(device, pName);
   f = layer_semaphore_proc(dev, pName, next);
   if (f || !next)
      return f;
   f = layer_memory_proc(pName);
   return f ? f : next;
}

CUVK_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
cuvk_layer_NegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *pVersionStruct)
{
   if (!pVersionStruct || pVersionStruct->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT)
      return VK_ERROR_INITIALIZATION_FAILED;

   /* Versions 0 and 1 find vkGetInstanceProcAddr by symbol name, which
    * libcuvk.so does not export. */
   if (pVersionStruct->loaderLayerInterfaceVersion < 2)
      return VK_ERROR_INITIALIZATION_FAILED;

   pVersionStruct->loaderLayerInterfaceVersion = 2;
   pVersionStruct->pfnGetInstanceProcAddr = layer_GetInstanceProcAddr;
   pVersionStruct->pfnGetDeviceProcAddr = layer_GetDeviceProcAddr;
   /* No physical-device command of an unknown extension is intercepted. */
   pVersionStruct->pfnGetPhysicalDeviceProcAddr = NULL;
   return VK_SUCCESS;
}
