/*
 * VK_LAYER_CUVK_interop: a Vulkan layer compiled into libcuvk.so that
 * watches the application's exports of device memory and records, in the
 * registry (mem/registry.h), what an importer needs and CUDA's descriptors
 * never carry.
 *
 * layer_dispatch.c is the loader plumbing: negotiation, vkGet*ProcAddr,
 * chain walking, the enumerate queries, instance and device state.
 * layer_memory.c is the feature: memory, image and buffer tracking.
 *
 * The manifest maps vkNegotiateLoaderLayerInterfaceVersion to the one
 * symbol libcuvk.so exports for the layer; everything else is hidden.  The
 * layer does nothing until the loader negotiates with it: a program that
 * never enables it pays nothing.  Handles are never wrapped.
 */
#ifndef CUVK_LAYER_H
#define CUVK_LAYER_H

#include <stdbool.h>
#include <stdint.h>

#include <vulkan/vulkan.h>
#include <vulkan/vk_layer.h>

#include "layer/layer_table.h"
#include "util/list.h"
#include "util/macros.h"

struct cuvk_xsem_bridge;

#define CUVK_LAYER_NAME "VK_LAYER_CUVK_interop"
#define CUVK_LAYER_DESCRIPTION "cuvk: records exported memory for CUDA external-memory import"
#define CUVK_LAYER_IMPLEMENTATION_VERSION 1

/* The layer's only exported symbol, named in the manifest's "functions". */
CUVK_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
cuvk_layer_NegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *pVersionStruct);

/* Table node kinds. */
enum layer_kind {
   LAYER_KIND_INSTANCE = 1,
   LAYER_KIND_DEVICE,
   LAYER_KIND_IMAGE,
   LAYER_KIND_BUFFER,
   LAYER_KIND_MEMORY,
   LAYER_KIND_SEMAPHORE,
};

/* The callbacks an object was created with, kept so that it is freed with
 * the same ones. */
struct layer_allocator {
   VkAllocationCallbacks callbacks;
   bool set;
};

/* Zeroed memory from cb (or malloc when cb is NULL); NULL when out of
 * memory.  *out remembers cb for layer_free. */
void *layer_zalloc(const VkAllocationCallbacks *cb, size_t size,
                   VkSystemAllocationScope scope, struct layer_allocator *out);
/* Frees ptr with a copy of *a, so a may live inside ptr. */
void layer_free(const struct layer_allocator *a, void *ptr);

struct layer_instance {
   struct layer_node node;          /* LAYER_KIND_INSTANCE, key: dispatch key */
   struct layer_allocator allocator;
   VkInstance instance;
   uint32_t api_version;            /* VkApplicationInfo::apiVersion, 1.0 if none */
   bool khr_get_physical_device_properties2;
   bool khr_external_memory_capabilities;
   bool khr_external_semaphore_capabilities;

   PFN_vkGetInstanceProcAddr GetInstanceProcAddr;   /* the next entity's */
   PFN_vkDestroyInstance DestroyInstance;
   PFN_vkEnumerateDeviceExtensionProperties EnumerateDeviceExtensionProperties;
   PFN_vkGetPhysicalDeviceProperties GetPhysicalDeviceProperties;
   PFN_vkGetPhysicalDeviceProperties2 GetPhysicalDeviceProperties2;
   PFN_vkGetPhysicalDeviceProperties2KHR GetPhysicalDeviceProperties2KHR;
   PFN_vkGetPhysicalDeviceMemoryProperties GetPhysicalDeviceMemoryProperties;
   PFN_vkGetPhysicalDeviceFormatProperties GetPhysicalDeviceFormatProperties;
   PFN_vkGetPhysicalDeviceImageFormatProperties2 GetPhysicalDeviceImageFormatProperties2; /* 1.1 only */
   PFN_vkGetPhysicalDeviceExternalSemaphoreProperties GetPhysicalDeviceExternalSemaphoreProperties;
   PFN_vkGetPhysicalDeviceExternalSemaphorePropertiesKHR GetPhysicalDeviceExternalSemaphorePropertiesKHR;
};

struct layer_device {
   struct layer_node node;          /* LAYER_KIND_DEVICE, key: dispatch key */
   struct layer_allocator allocator;
   VkDevice device;

   bool has_uuids;
   uint8_t device_uuid[VK_UUID_SIZE];
   uint8_t driver_uuid[VK_UUID_SIZE];
   uint32_t memory_type_count;
   VkMemoryPropertyFlags memory_type_flags[VK_MAX_MEMORY_TYPES];

   /* Exportable images get the usage CUDA's textures and surfaces need
    * (layer_memory.c, layer_image_widen): set where the device is Vulkan
    * 1.1 (the 1.1 format query with external memory). */
   VkPhysicalDevice physical_device;
   PFN_vkGetPhysicalDeviceFormatProperties GetPhysicalDeviceFormatProperties;
   PFN_vkGetPhysicalDeviceImageFormatProperties2 GetPhysicalDeviceImageFormatProperties2;
   /* Whether the device takes VkImageFormatListCreateInfo (Vulkan 1.2, or
    * VK_KHR_image_format_list, which the layer enables itself on a 1.1
    * device whose driver has it): a widened image then names the formats
    * cuvk views it as, so that the driver may keep compressing it. */
   bool format_list;

   /* Every tracked image, buffer and memory of this device (struct
    * layer_object::device_link), so vkDestroyDevice can drop them. */
   struct cuvk_list objects;

   /* Exportable semaphores provided by the layer (layer_semaphore.c):
    * true when the driver has no VK_KHR_external_semaphore_fd and the
    * application enabled it.  Fixed at vkCreateDevice. */
   bool sem_emulated;
   /* The semaphores the layer emulates (struct layer_semaphore), and how
    * many there are: submits and host calls look nothing up while there
    * are none. */
   struct cuvk_list semaphores;
   uint32_t semaphore_count;       /* atomic */
   /* Started with the first emulated semaphore, under the lock. */
   struct cuvk_xsem_bridge *bridge;

   /* The next entity's entry points; NULL where not enabled. */
   PFN_vkGetDeviceProcAddr GetDeviceProcAddr;
   PFN_vkDestroyDevice DestroyDevice;
   PFN_vkAllocateMemory AllocateMemory;
   PFN_vkFreeMemory FreeMemory;
   PFN_vkCreateImage CreateImage;
   PFN_vkDestroyImage DestroyImage;
   PFN_vkCreateBuffer CreateBuffer;
   PFN_vkDestroyBuffer DestroyBuffer;
   PFN_vkBindImageMemory BindImageMemory;
   PFN_vkBindImageMemory2 BindImageMemory2;     /* core or KHR, whichever exists */
   PFN_vkBindBufferMemory BindBufferMemory;
   PFN_vkBindBufferMemory2 BindBufferMemory2;   /* core or KHR, whichever exists */
   PFN_vkGetMemoryFdKHR GetMemoryFdKHR;
   PFN_vkGetImageDrmFormatModifierPropertiesEXT GetImageDrmFormatModifierPropertiesEXT;
   PFN_vkCreateSemaphore CreateSemaphore;
   PFN_vkDestroySemaphore DestroySemaphore;
   PFN_vkQueueSubmit QueueSubmit;
   PFN_vkQueueSubmit2 QueueSubmit2;                     /* core or KHR, whichever exists */
   PFN_vkWaitSemaphores WaitSemaphores;                 /* core or KHR, whichever exists */
   PFN_vkSignalSemaphore SignalSemaphore;               /* core or KHR, whichever exists */
   PFN_vkGetSemaphoreCounterValue GetSemaphoreCounterValue;   /* core or KHR */
   PFN_vkGetSemaphoreFdKHR GetSemaphoreFdKHR;           /* NULL where emulated */
   PFN_vkImportSemaphoreFdKHR ImportSemaphoreFdKHR;     /* NULL where emulated */
#ifdef _WIN32
   PFN_vkGetMemoryWin32HandleKHR GetMemoryWin32HandleKHR;
#endif
};

/* Common head of the tracked images, buffers and memory. */
struct layer_object {
   struct layer_node node;          /* key: the handle, scope: the layer_device */
   struct cuvk_list device_link;
   struct layer_allocator allocator;
};

/* The one lock over all layer state; the registry's lock may be taken
 * while holding it, never the other way round. */
void layer_lock(void);
void layer_unlock(void);

/* With the lock held. */
void layer_object_insert(struct layer_device *dev, struct layer_object *obj,
                         enum layer_kind kind, uint64_t handle);
struct layer_object *layer_object_find(struct layer_device *dev, enum layer_kind kind,
                                       uint64_t handle);
void layer_object_remove(struct layer_object *obj);

/* The state of the instance a dispatchable handle (instance, physical
 * device) belongs to (takes the lock); NULL for one this layer did not
 * create. */
struct layer_instance *layer_instance_of(const void *dispatchable);

/* The state of the device a dispatchable handle belongs to (takes the
 * lock); NULL for a device this layer did not create. */
struct layer_device *layer_device_get(const void *dispatchable);

/* layer_memory.c: our entry point for a device command name, or NULL when
 * the layer does not intercept it. */
PFN_vkVoidFunction layer_memory_proc(const char *name);

/* layer_memory.c, with the lock held: unlinks every tracked object of dev
 * (forgetting its exports in the registry) onto *list, to be freed with
 * layer_memory_free_objects once the lock is dropped. */
void layer_memory_detach_device(struct layer_device *dev, struct cuvk_list *list);
void layer_memory_free_objects(struct cuvk_list *list);

/* With the lock held: like layer_object_insert, but the object goes on
 * list instead of the device's objects (which vkDestroyDevice frees
 * without knowing what they hold). */
void layer_object_insert_list(struct layer_device *dev, struct layer_object *obj,
                              enum layer_kind kind, uint64_t handle, struct cuvk_list *list);

/* layer_semaphore.c: the exportable-semaphore emulation. */
struct layer_sem_device_create;
/* Our entry point for a device command name, or NULL.  dev NULL: through
 * vkGetInstanceProcAddr, for any device (the wrapper checks at run time);
 * otherwise only where dev emulates (the fd commands even where the next
 * entity has none).  next: the next entity's, NULL if it has none. */
PFN_vkVoidFunction layer_semaphore_proc(struct layer_device *dev, const char *name,
                                        PFN_vkVoidFunction next);
/* Physical-device commands the layer answers (external semaphore
 * properties); NULL for others. */
PFN_vkVoidFunction layer_semaphore_instance_proc(const char *name);
/* vkEnumerateDeviceExtensionProperties with pLayerName NULL. */
VkResult layer_semaphore_enumerate_extensions(struct layer_instance *inst, VkPhysicalDevice pdev,
                                              uint32_t *pPropertyCount,
                                              VkExtensionProperties *pProperties);
/* vkEnumerateDeviceExtensionProperties with our own name: the device
 * extensions the manifest declares. */
VkResult layer_semaphore_own_extensions(struct layer_instance *inst, VkPhysicalDevice pdev,
                                        uint32_t *pPropertyCount,
                                        VkExtensionProperties *pProperties);
/* vkCreateDevice: *out_info is the create info to call down with (the
 * application's, or a copy without VK_KHR_external_semaphore_fd and with
 * timeline semaphores enabled); *emulate says which.  Free with
 * layer_semaphore_device_info_free. */
VkResult layer_semaphore_device_info(struct layer_instance *inst, VkPhysicalDevice pdev,
                                     const VkDeviceCreateInfo *info,
                                     const VkAllocationCallbacks *alloc,
                                     const VkDeviceCreateInfo **out_info, void **scratch,
                                     bool *emulate);
void layer_semaphore_device_info_free(const VkAllocationCallbacks *alloc, void *scratch);
/* After vkCreateDevice: the next entity's semaphore commands, for an
 * application of api_version. */
void layer_semaphore_fill_device(struct layer_device *dev, uint32_t api_version,
                                 PFN_vkGetDeviceProcAddr gdpa);
/* Before the next vkDestroyDevice (without the lock): the bridge, the
 * internal semaphores and the records of semaphores the application did
 * not destroy. */
void layer_semaphore_destroy_device(struct layer_device *dev);

/* Handles as table keys: pointers on 64-bit, uint64_t on 32-bit. */
#define LAYER_HANDLE(h) ((uint64_t)(h))

#endif
