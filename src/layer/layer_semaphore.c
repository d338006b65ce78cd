/*
 * Exportable semaphores for drivers that have none (lavapipe 22.3: timeline
 * semaphores, but no VK_KHR_external_semaphore_fd).
 *
 * Where the driver lacks the extension, the layer lists it, answers the
 * external-semaphore property queries with OPAQUE_FD exportable and
 * importable (binary and timeline), and removes it from vkCreateDevice's
 * list before calling down.  On such a device ("emulated"):
 *
 *  - a semaphore created with VkExportSemaphoreCreateInfo, or one an xsem
 *    fd is imported into, gets a record: a payload of one xsem (the shared
 *    page, util/xsem.h, whose memfd is the exported fd) and two internal
 *    timeline semaphores of the device, T (signalled by the queue where
 *    the application's batch signals the semaphore) and W (signalled by the
 *    bridge where the application's batch waits on it);
 *  - submits are rewritten: a signal of the semaphore becomes a signal of
 *    T, and the bridge (util/xsem_bridge.h) signals the xsem when T gets
 *    there; a wait becomes a wait on W, which the bridge signals when the
 *    xsem gets there.  Binary semaphores count: the k-th signal signals
 *    T = k, the k-th wait (in any process) waits for W = k, i.e. for k
 *    signals;
 *  - host signals, waits and queries go to the xsem.
 *
 * The semaphore the application holds is a real one of the driver, created
 * without the export struct, which nothing signals or waits on: handles are
 * never wrapped.  Where the driver has the extension nothing here runs:
 * vkGetDeviceProcAddr returns the next entity's commands.
 */
#include "layer/layer.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "layer/layer_semaphore.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/xsem.h"
#include "util/xsem_bridge.h"

/* One shared page and the two internal timelines that stand for it on
 * this device. */
struct layer_sem_payload {
   struct cuvk_list link;          /* on the record's retired list */
   struct cuvk_xsem *xsem;
   VkSemaphore signal_timeline;    /* T: the queue signals it, the bridge forwards */
   VkSemaphore wait_timeline;      /* W: the bridge signals it, the queue waits */
};

struct layer_semaphore {
   struct layer_object base;       /* LAYER_KIND_SEMAPHORE, on dev->semaphores */
   enum cuvk_xsem_type type;
   struct layer_sem_payload *permanent;
   /* A binary payload imported with VK_SEMAPHORE_IMPORT_TEMPORARY_BIT: used
    * by signals until the next wait, which consumes it. */
   struct layer_sem_payload *temporary;
   /* Payloads replaced or consumed while batches may still use their
    * timelines; freed with the record (after the application's last use of
    * the semaphore, by the rules of vkDestroySemaphore). */
   struct cuvk_list retired;
};

static const void *
layer_sem_find_struct(const void *pNext, VkStructureType type)
{
   for (const VkBaseInStructure *s = pNext; s; s = s->pNext) {
      if (s->sType == type)
         return s;
   }
   return NULL;
}

static bool
layer_sem_has_name(const char *const *names, uint32_t count, const char *name)
{
   for (uint32_t i = 0; i < count; i++) {
      if (strcmp(names[i], name) == 0)
         return true;
   }
   return false;
}

/* The structures the layer may have to copy to change a chain before
 * them.  0 for others: the layer then says it cannot. */
static size_t
layer_sem_struct_size(VkStructureType type)
{
   switch (type) {
#define S(st, t) case VK_STRUCTURE_TYPE_##st: return sizeof(t)
   S(LOADER_DEVICE_CREATE_INFO, VkLayerDeviceCreateInfo);
   S(PHYSICAL_DEVICE_FEATURES_2, VkPhysicalDeviceFeatures2);
   S(PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, VkPhysicalDeviceVulkan11Features);
   S(PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, VkPhysicalDeviceVulkan12Features);
   S(PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, VkPhysicalDeviceVulkan13Features);
   S(PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES, VkPhysicalDeviceTimelineSemaphoreFeatures);
   S(DEVICE_GROUP_DEVICE_CREATE_INFO, VkDeviceGroupDeviceCreateInfo);
   S(PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES, VkPhysicalDeviceBufferDeviceAddressFeatures);
   S(PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES, VkPhysicalDeviceSynchronization2Features);
   S(PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES, VkPhysicalDevice16BitStorageFeatures);
   S(PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES, VkPhysicalDevice8BitStorageFeatures);
   S(PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES, VkPhysicalDeviceShaderFloat16Int8Features);
   S(PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES, VkPhysicalDeviceDescriptorIndexingFeatures);
   S(PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES, VkPhysicalDeviceScalarBlockLayoutFeatures);
   S(PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES, VkPhysicalDeviceHostQueryResetFeatures);
   S(PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES, VkPhysicalDeviceDynamicRenderingFeatures);
   S(PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES, VkPhysicalDeviceVulkanMemoryModelFeatures);
   S(PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES, VkPhysicalDeviceSamplerYcbcrConversionFeatures);
   S(PHYSICAL_DEVICE_MULTIVIEW_FEATURES, VkPhysicalDeviceMultiviewFeatures);
   S(PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES, VkPhysicalDeviceShaderDrawParametersFeatures);
   S(PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES, VkPhysicalDeviceVariablePointersFeatures);
   S(PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES, VkPhysicalDeviceShaderAtomicInt64Features);
   S(PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES, VkPhysicalDeviceMaintenance4Features);
   S(PHYSICAL_DEVICE_UNIFORM_BUFFER_STANDARD_LAYOUT_FEATURES, VkPhysicalDeviceUniformBufferStandardLayoutFeatures);
   S(PHYSICAL_DEVICE_IMAGELESS_FRAMEBUFFER_FEATURES, VkPhysicalDeviceImagelessFramebufferFeatures);
   S(SEMAPHORE_TYPE_CREATE_INFO, VkSemaphoreTypeCreateInfo);
   S(DEVICE_GROUP_SUBMIT_INFO, VkDeviceGroupSubmitInfo);
   S(PROTECTED_SUBMIT_INFO, VkProtectedSubmitInfo);
   S(PERFORMANCE_QUERY_SUBMIT_INFO_KHR, VkPerformanceQuerySubmitInfoKHR);
#undef S
   default:
      return 0;
   }
}

#define LAYER_SEM_ALIGN(n) CUVK_ALIGN_UP((n), 16)

/* The bytes layer_sem_copy_prefix needs for the structs of chain before
 * `stop`; SIZE_MAX when one of them cannot be copied. */
static size_t
layer_sem_prefix_size(const void *chain, const void *stop)
{
   size_t total = 0;

   for (const VkBaseInStructure *s = chain; s && (const void *)s != stop; s = s->pNext) {
      size_t n = layer_sem_struct_size(s->sType);
      if (!n)
         return SIZE_MAX;
      total += LAYER_SEM_ALIGN(n);
   }
   return total;
}

/* Copies the structs of chain before `stop` into mem and links the last
 * copy to `rest`; returns the new head (rest when nothing precedes stop). */
static const void *
layer_sem_copy_prefix(const void *chain, const void *stop, const void *rest, char *mem)
{
   const void *head = rest;
   VkBaseOutStructure *last = NULL;

   for (const VkBaseInStructure *s = chain; s && (const void *)s != stop; s = s->pNext) {
      size_t n = layer_sem_struct_size(s->sType);
      VkBaseOutStructure *copy = (VkBaseOutStructure *)mem;
      memcpy(copy, s, n);
      mem += LAYER_SEM_ALIGN(n);
      if (last)
         last->pNext = copy;
      else
         head = copy;
      last = copy;
   }
   if (last)
      last->pNext = (VkBaseOutStructure *)rest;
   return head;
}

/* ---- what the driver has ------------------------------------------------ */

struct layer_sem_driver {
   struct layer_sem_probe probe;
   bool has_external_semaphore;    /* VK_KHR_external_semaphore */
   bool device_1_2;
   VkExtensionProperties *extensions;
   uint32_t extension_count;
};

static VkResult
layer_sem_query_driver(struct layer_instance *inst, VkPhysicalDevice pdev,
                       struct layer_sem_driver *d)
{
   memset(d, 0, sizeof(*d));

   uint32_t count = 0;
   VkResult res = inst->EnumerateDeviceExtensionProperties(pdev, NULL, &count, NULL);
   if (res != VK_SUCCESS)
      return res;
   d->extensions = layer_zalloc(inst->allocator.set ? &inst->allocator.callbacks : NULL,
                                (count + 2) * sizeof(VkExtensionProperties),
                                VK_SYSTEM_ALLOCATION_SCOPE_COMMAND, NULL);
   if (!d->extensions)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   res = inst->EnumerateDeviceExtensionProperties(pdev, NULL, &count, d->extensions);
   if (res != VK_SUCCESS && res != VK_INCOMPLETE)
      return res;
   d->extension_count = count;

   for (uint32_t i = 0; i < count; i++) {
      const char *name = d->extensions[i].extensionName;
      if (strcmp(name, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME) == 0)
         d->probe.has_fd_extension = true;
      else if (strcmp(name, VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME) == 0)
         d->probe.timeline_extension = true;
      else if (strcmp(name, VK_KHR_EXTERNAL_SEMAPHORE_EXTENSION_NAME) == 0)
         d->has_external_semaphore = true;
   }

   VkPhysicalDeviceProperties props;
   inst->GetPhysicalDeviceProperties(pdev, &props);
   d->device_1_2 = props.apiVersion >= VK_API_VERSION_1_2;
   d->probe.timeline_core = d->device_1_2 && inst->api_version >= VK_API_VERSION_1_2;

   PFN_vkGetPhysicalDeviceExternalSemaphoreProperties get = NULL;
   if (props.apiVersion >= VK_API_VERSION_1_1 && inst->api_version >= VK_API_VERSION_1_1)
      get = inst->GetPhysicalDeviceExternalSemaphoreProperties;
   if (!get)
      get = inst->GetPhysicalDeviceExternalSemaphorePropertiesKHR;
   if (get) {
      const VkPhysicalDeviceExternalSemaphoreInfo info = {
         .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO,
         .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT,
      };
      VkExternalSemaphoreProperties out = {
         .sType = VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES,
      };
      get(pdev, &info, &out);
      d->probe.properties_known = true;
      d->probe.opaque_fd_features = out.externalSemaphoreFeatures;
   }
   return VK_SUCCESS;
}

static void
layer_sem_driver_finish(struct layer_instance *inst, struct layer_sem_driver *d)
{
   struct layer_allocator a = { .set = inst->allocator.set, .callbacks = inst->allocator.callbacks };
   layer_free(&a, d->extensions);
}

static enum layer_sem_mode
layer_sem_mode_of(struct layer_instance *inst, VkPhysicalDevice pdev)
{
   struct layer_sem_driver d;
   enum layer_sem_mode mode = LAYER_SEM_NATIVE;

   if (layer_sem_query_driver(inst, pdev, &d) == VK_SUCCESS)
      mode = layer_semaphore_decide(&d.probe);
   layer_sem_driver_finish(inst, &d);
   return mode;
}

/* ---- enumerate and properties ------------------------------------------- */

static const VkExtensionProperties layer_sem_fd_extension = {
   .extensionName = VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME,
   .specVersion = VK_KHR_EXTERNAL_SEMAPHORE_FD_SPEC_VERSION,
};
static const VkExtensionProperties layer_sem_external_extension = {
   .extensionName = VK_KHR_EXTERNAL_SEMAPHORE_EXTENSION_NAME,
   .specVersion = VK_KHR_EXTERNAL_SEMAPHORE_SPEC_VERSION,
};

static VkResult
layer_sem_report(const VkExtensionProperties *list, uint32_t n, uint32_t *pPropertyCount,
                 VkExtensionProperties *pProperties)
{
   if (!pProperties) {
      *pPropertyCount = n;
      return VK_SUCCESS;
   }
   uint32_t copy = CUVK_MIN(n, *pPropertyCount);
   memcpy(pProperties, list, copy * sizeof(*list));
   *pPropertyCount = copy;
   return copy < n ? VK_INCOMPLETE : VK_SUCCESS;
}

VkResult
layer_semaphore_enumerate_extensions(struct layer_instance *inst, VkPhysicalDevice pdev,
                                     uint32_t *pPropertyCount, VkExtensionProperties *pProperties)
{
   struct layer_sem_driver d;
   VkResult res = layer_sem_query_driver(inst, pdev, &d);

   if (res != VK_SUCCESS) {
      layer_sem_driver_finish(inst, &d);
      return inst->EnumerateDeviceExtensionProperties(pdev, NULL, pPropertyCount, pProperties);
   }
   /* The driver's list as it was just read, plus (the array has room)
    * what the layer adds. */
   uint32_t n = d.extension_count;
   if (layer_semaphore_decide(&d.probe) == LAYER_SEM_EMULATE) {
      d.extensions[n++] = layer_sem_fd_extension;
      if (!d.has_external_semaphore)
         d.extensions[n++] = layer_sem_external_extension;
   }
   res = layer_sem_report(d.extensions, n, pPropertyCount, pProperties);
   layer_sem_driver_finish(inst, &d);
   return res;
}

/* The loader answers a query for the layer's own name from the manifest,
 * which lists both; a direct call gets the same, without calling down (the
 * handle it gets may be the application's, not the loader's). */
VkResult
layer_semaphore_own_extensions(struct layer_instance *inst, VkPhysicalDevice pdev,
                               uint32_t *pPropertyCount, VkExtensionProperties *pProperties)
{
   const VkExtensionProperties list[2] = { layer_sem_fd_extension, layer_sem_external_extension };
   (void)inst;
   (void)pdev;
   return layer_sem_report(list, 2, pPropertyCount, pProperties);
}

/* ---- device creation ---------------------------------------------------- */

VkResult
layer_semaphore_device_info(struct layer_instance *inst, VkPhysicalDevice pdev,
                            const VkDeviceCreateInfo *info, const VkAllocationCallbacks *alloc,
                            const VkDeviceCreateInfo **out_info, void **scratch, bool *emulate)
{
   *out_info = info;
   *scratch = NULL;
   *emulate = false;

   /* Nothing to provide to a device that does not ask for it. */
   if (!layer_sem_has_name(info->ppEnabledExtensionNames, info->enabledExtensionCount,
                           VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME))
      return VK_SUCCESS;

   struct layer_sem_driver d;
   VkResult res = layer_sem_query_driver(inst, pdev, &d);
   if (res != VK_SUCCESS) {
      layer_sem_driver_finish(inst, &d);
      return res;
   }
   enum layer_sem_mode mode = layer_semaphore_decide(&d.probe);
   bool timeline_core = d.probe.timeline_core;
   bool strip_external = !d.has_external_semaphore;
   layer_sem_driver_finish(inst, &d);

   if (mode == LAYER_SEM_NATIVE)
      return VK_SUCCESS;
   if (mode == LAYER_SEM_NONE) {
      cuvk_loge("vkCreateDevice: the driver has neither VK_KHR_external_semaphore_fd nor timeline "
                "semaphores, so " CUVK_LAYER_NAME " cannot provide exportable semaphores");
      return VK_ERROR_EXTENSION_NOT_PRESENT;
   }

   /* Timeline semaphores, which the emulation is built of, must be on. */
   const VkPhysicalDeviceVulkan12Features *v12 =
      layer_sem_find_struct(info->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
   const VkPhysicalDeviceTimelineSemaphoreFeatures *tsf =
      layer_sem_find_struct(info->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES);
   const VkBaseInStructure *to_change = NULL;
   if (v12 && !v12->timelineSemaphore)
      to_change = (const VkBaseInStructure *)v12;
   else if (tsf && !tsf->timelineSemaphore)
      to_change = (const VkBaseInStructure *)tsf;
   bool prepend = !v12 && !tsf;

   size_t prefix = 0;
   if (to_change) {
      prefix = layer_sem_prefix_size(info->pNext, to_change);
      if (prefix == SIZE_MAX) {
         cuvk_loge("vkCreateDevice: " CUVK_LAYER_NAME " must enable timelineSemaphore, but the "
                   "feature struct that disables it follows a struct it does not know");
         return VK_ERROR_FEATURE_NOT_PRESENT;
      }
      prefix += LAYER_SEM_ALIGN(layer_sem_struct_size(to_change->sType));
   }

   uint32_t name_count = info->enabledExtensionCount + 1;
   size_t size = LAYER_SEM_ALIGN(sizeof(VkDeviceCreateInfo)) +
                 LAYER_SEM_ALIGN(sizeof(VkPhysicalDeviceTimelineSemaphoreFeatures)) + prefix +
                 name_count * sizeof(const char *);
   char *mem = layer_zalloc(alloc, size, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND, NULL);
   if (!mem)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   *scratch = mem;

   VkDeviceCreateInfo *copy = (VkDeviceCreateInfo *)mem;
   mem += LAYER_SEM_ALIGN(sizeof(*copy));
   VkPhysicalDeviceTimelineSemaphoreFeatures *ours = (VkPhysicalDeviceTimelineSemaphoreFeatures *)mem;
   mem += LAYER_SEM_ALIGN(sizeof(*ours));
   char *prefix_mem = mem;
   mem += prefix;
   const char **names = (const char **)mem;

   *copy = *info;
   if (prepend) {
      *ours = (VkPhysicalDeviceTimelineSemaphoreFeatures){
         .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES,
         .pNext = (void *)info->pNext,
         .timelineSemaphore = VK_TRUE,
      };
      copy->pNext = ours;
   } else if (to_change) {
      /* Copies every struct up to and including the one to change. */
      size_t n = layer_sem_struct_size(to_change->sType);
      size_t before = prefix - LAYER_SEM_ALIGN(n);
      char *changed = prefix_mem + before;
      memcpy(changed, to_change, n);
      if (to_change->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)
         ((VkPhysicalDeviceVulkan12Features *)changed)->timelineSemaphore = VK_TRUE;
      else
         ((VkPhysicalDeviceTimelineSemaphoreFeatures *)changed)->timelineSemaphore = VK_TRUE;
      copy->pNext = layer_sem_copy_prefix(info->pNext, to_change, changed, prefix_mem);
   }

   uint32_t n = 0;
   bool has_timeline_ext = false;
   for (uint32_t i = 0; i < info->enabledExtensionCount; i++) {
      const char *name = info->ppEnabledExtensionNames[i];
      if (strcmp(name, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME) == 0)
         continue;
      if (strip_external && strcmp(name, VK_KHR_EXTERNAL_SEMAPHORE_EXTENSION_NAME) == 0)
         continue;
      if (strcmp(name, VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME) == 0)
         has_timeline_ext = true;
      names[n++] = name;
   }
   if (!timeline_core && !has_timeline_ext)
      names[n++] = VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME;
   copy->enabledExtensionCount = n;
   copy->ppEnabledExtensionNames = names;

   *out_info = copy;
   *emulate = true;
   cuvk_logi("vkCreateDevice: the driver has no VK_KHR_external_semaphore_fd; " CUVK_LAYER_NAME
             " provides it on this device");
   return VK_SUCCESS;
}

void
layer_semaphore_device_info_free(const VkAllocationCallbacks *alloc, void *scratch)
{
   struct layer_allocator a = { .set = alloc != NULL };
   if (alloc)
      a.callbacks = *alloc;
   layer_free(&a, scratch);
}

void
layer_semaphore_fill_device(struct layer_device *dev, uint32_t api_version,
                            PFN_vkGetDeviceProcAddr gdpa)
{
   VkDevice device = dev->device;

   /* An application below Vulkan 1.2 (1.3 for vkQueueSubmit2) gets the
    * timeline and submit commands as the extensions' names, which the
    * layer also calls: a core name above the application's version is
    * invalid usage, and the validation layer says so. */
   bool core12 = api_version >= VK_API_VERSION_1_2;
   bool core13 = api_version >= VK_API_VERSION_1_3;
#define GET(field, name) dev->field = (PFN_vk##field)gdpa(device, name)
#define GET2(field, core, name) \
   GET(field, (core) ? "vk" #name : "vk" #name "KHR"); \
   if (!dev->field) \
      GET(field, (core) ? "vk" #name "KHR" : "vk" #name)
   GET(CreateSemaphore, "vkCreateSemaphore");
   GET(DestroySemaphore, "vkDestroySemaphore");
   GET(QueueSubmit, "vkQueueSubmit");
   GET2(QueueSubmit2, core13, QueueSubmit2);
   GET2(WaitSemaphores, core12, WaitSemaphores);
   GET2(SignalSemaphore, core12, SignalSemaphore);
   GET2(GetSemaphoreCounterValue, core12, GetSemaphoreCounterValue);
#undef GET2
   if (!dev->sem_emulated) {
      GET(GetSemaphoreFdKHR, "vkGetSemaphoreFdKHR");
      GET(ImportSemaphoreFdKHR, "vkImportSemaphoreFdKHR");
   }
#undef GET
}

/* ---- records and payloads ----------------------------------------------- */

static const VkAllocationCallbacks *
layer_sem_callbacks(const struct layer_allocator *a)
{
   return a->set ? &a->callbacks : NULL;
}

static VkResult
layer_sem_timeline_create(struct layer_device *dev, uint64_t initial,
                          const VkAllocationCallbacks *alloc, VkSemaphore *out)
{
   const VkSemaphoreTypeCreateInfo type = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
      .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
      .initialValue = initial,
   };
   const VkSemaphoreCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
      .pNext = &type,
   };
   return dev->CreateSemaphore(dev->device, &info, alloc, out);
}

/* A payload for xsem (whose reference it takes over). */
static VkResult
layer_sem_payload_create(struct layer_device *dev, const struct layer_allocator *a,
                         struct cuvk_xsem *xsem, struct layer_sem_payload **out)
{
   const VkAllocationCallbacks *alloc = layer_sem_callbacks(a);
   struct layer_sem_payload *p = layer_zalloc(alloc, sizeof(*p), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT,
                                              NULL);
   if (!p)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   /* Binary: counts of signals and waits, from 0.  Timeline: the
    * application's values, from the xsem's value now. */
   uint64_t initial = cuvk_xsem_get_type(xsem) == CUVK_XSEM_TIMELINE ? cuvk_xsem_value(xsem) : 0;
   VkResult res = layer_sem_timeline_create(dev, initial, alloc, &p->signal_timeline);
   if (res == VK_SUCCESS)
      res = layer_sem_timeline_create(dev, initial, alloc, &p->wait_timeline);
   if (res != VK_SUCCESS) {
      if (p->signal_timeline)
         dev->DestroySemaphore(dev->device, p->signal_timeline, alloc);
      layer_free(a, p);
      return res;
   }
   p->xsem = xsem;
   *out = p;
   return VK_SUCCESS;
}

/* After the application's last use (or the device's end). */
static void
layer_sem_payload_free(struct layer_device *dev, const struct layer_allocator *a,
                       struct layer_sem_payload *p)
{
   const VkAllocationCallbacks *alloc = layer_sem_callbacks(a);

   cuvk_xsem_bridge_forget(dev->bridge, p->signal_timeline);
   cuvk_xsem_bridge_forget(dev->bridge, p->wait_timeline);
   dev->DestroySemaphore(dev->device, p->signal_timeline, alloc);
   dev->DestroySemaphore(dev->device, p->wait_timeline, alloc);
   cuvk_xsem_destroy(p->xsem);
   layer_free(a, p);
}

static void
layer_sem_record_free(struct layer_device *dev, struct layer_semaphore *rec)
{
   struct layer_allocator a = rec->base.allocator;

   if (rec->permanent)
      layer_sem_payload_free(dev, &a, rec->permanent);
   if (rec->temporary)
      layer_sem_payload_free(dev, &a, rec->temporary);
   cuvk_list_for_each_entry_safe(struct layer_sem_payload, p, &rec->retired, link) {
      cuvk_list_del(&p->link);
      layer_sem_payload_free(dev, &a, p);
   }
   layer_free(&a, rec);
}

/* With the lock held. */
static struct layer_semaphore *
layer_sem_find(struct layer_device *dev, VkSemaphore semaphore)
{
   struct layer_object *o = layer_object_find(dev, LAYER_KIND_SEMAPHORE, LAYER_HANDLE(semaphore));
   return o ? cuvk_container_of(o, struct layer_semaphore, base) : NULL;
}

/* The payload signals and waits go to now (with the lock held); NULL for
 * a semaphore of the driver's own whose temporary import was consumed. */
static struct layer_sem_payload *
layer_sem_current(struct layer_semaphore *rec)
{
   return rec->temporary ? rec->temporary : rec->permanent;
}

/* With the lock held: the record of a semaphore that is emulated now. */
static struct layer_semaphore *
layer_sem_find_active(struct layer_device *dev, VkSemaphore semaphore)
{
   struct layer_semaphore *rec = layer_sem_find(dev, semaphore);
   return rec && layer_sem_current(rec) ? rec : NULL;
}

/* With the lock held: the bridge, started by the first emulated
 * semaphore. */
static VkResult
layer_sem_bridge(struct layer_device *dev)
{
   if (dev->bridge)
      return VK_SUCCESS;
   const struct cuvk_xsem_bridge_vk vk = {
      .device = dev->device,
      .WaitSemaphores = dev->WaitSemaphores,
      .SignalSemaphore = dev->SignalSemaphore,
      .GetSemaphoreCounterValue = dev->GetSemaphoreCounterValue,
      .CreateSemaphore = dev->CreateSemaphore,
      .DestroySemaphore = dev->DestroySemaphore,
   };
   int ret = cuvk_xsem_bridge_create(&vk, &dev->bridge);
   if (ret) {
      cuvk_loge("cannot create the semaphore bridge (%d)", ret);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   return VK_SUCCESS;
}

static struct layer_device *
layer_sem_device(const void *dispatchable, const char *what)
{
   struct layer_device *dev = layer_device_get(dispatchable);
   if (cuvk_unlikely(!dev))
      cuvk_loge("%s: device %p was not created through " CUVK_LAYER_NAME, what,
                *(void *const *)dispatchable);
   return dev;
}

static inline bool
layer_sem_any(struct layer_device *dev)
{
   return dev->sem_emulated && __atomic_load_n(&dev->semaphore_count, __ATOMIC_ACQUIRE) != 0;
}

/* ---- semaphore commands ------------------------------------------------- */

static VKAPI_ATTR VkResult VKAPI_CALL
layer_CreateSemaphore(VkDevice device, const VkSemaphoreCreateInfo *pCreateInfo,
                      const VkAllocationCallbacks *pAllocator, VkSemaphore *pSemaphore)
{
   struct layer_device *dev = layer_sem_device(device, "vkCreateSemaphore");
   if (!dev)
      return VK_ERROR_INITIALIZATION_FAILED;

   const VkExportSemaphoreCreateInfo *export_info =
      layer_sem_find_struct(pCreateInfo->pNext, VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO);
   if (!dev->sem_emulated || !export_info || !export_info->handleTypes)
      return dev->CreateSemaphore(device, pCreateInfo, pAllocator, pSemaphore);

   if (export_info->handleTypes != VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT) {
      cuvk_loge("vkCreateSemaphore: " CUVK_LAYER_NAME " exports OPAQUE_FD only, not handle types %#x",
                export_info->handleTypes);
      return VK_ERROR_INVALID_EXTERNAL_HANDLE;
   }

   /* The driver gets the create info without the export struct. */
   size_t prefix = layer_sem_prefix_size(pCreateInfo->pNext, export_info);
   if (prefix == SIZE_MAX) {
      cuvk_loge("vkCreateSemaphore: VkExportSemaphoreCreateInfo follows a struct " CUVK_LAYER_NAME
                " does not know");
      return VK_ERROR_INITIALIZATION_FAILED;
   }
   /* The copied structs hold 64-bit members. */
   _Alignas(16) char stack[256];
   char *mem = prefix <= sizeof(stack) ? stack : malloc(prefix);
   if (!mem)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   VkSemaphoreCreateInfo down = *pCreateInfo;
   down.pNext = layer_sem_copy_prefix(pCreateInfo->pNext, export_info, export_info->pNext, mem);

   const VkSemaphoreTypeCreateInfo *type =
      layer_sem_find_struct(pCreateInfo->pNext, VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
   bool timeline = type && type->semaphoreType == VK_SEMAPHORE_TYPE_TIMELINE;

   struct layer_allocator a;
   struct layer_semaphore *rec = layer_zalloc(pAllocator, sizeof(*rec),
                                              VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, &a);
   struct cuvk_xsem *xsem = NULL;
   struct layer_sem_payload *payload = NULL;
   VkResult res = VK_ERROR_OUT_OF_HOST_MEMORY;
   if (!rec)
      goto fail;
   rec->base.allocator = a;
   rec->type = timeline ? CUVK_XSEM_TIMELINE : CUVK_XSEM_BINARY;
   cuvk_list_init(&rec->retired);

   int ret = cuvk_xsem_create(rec->type, timeline ? type->initialValue : 0, &xsem);
   if (ret) {
      cuvk_loge("vkCreateSemaphore: cannot create the shared page (%s)", strerror(-ret));
      res = ret == -EMFILE || ret == -ENFILE ? VK_ERROR_TOO_MANY_OBJECTS
                                             : VK_ERROR_OUT_OF_HOST_MEMORY;
      goto fail;
   }
   res = layer_sem_payload_create(dev, &a, xsem, &payload);
   if (res != VK_SUCCESS)
      goto fail;
   xsem = NULL;   /* the payload's now */

   res = dev->CreateSemaphore(device, &down, pAllocator, pSemaphore);
   if (res != VK_SUCCESS)
      goto fail;

   rec->permanent = payload;
   layer_lock();
   res = layer_sem_bridge(dev);
   if (res == VK_SUCCESS) {
      layer_object_insert_list(dev, &rec->base, LAYER_KIND_SEMAPHORE, LAYER_HANDLE(*pSemaphore),
                               &dev->semaphores);
      __atomic_add_fetch(&dev->semaphore_count, 1, __ATOMIC_RELEASE);
   }
   layer_unlock();
   if (res != VK_SUCCESS) {
      dev->DestroySemaphore(device, *pSemaphore, pAllocator);
      *pSemaphore = VK_NULL_HANDLE;
      rec->permanent = NULL;
      goto fail;
   }
   if (mem != stack)
      free(mem);
   return VK_SUCCESS;

fail:
   if (payload)
      layer_sem_payload_free(dev, &a, payload);
   cuvk_xsem_destroy(xsem);
   if (rec)
      layer_free(&a, rec);
   if (mem != stack)
      free(mem);
   return res;
}

static VKAPI_ATTR void VKAPI_CALL
layer_DestroySemaphore(VkDevice device, VkSemaphore semaphore,
                       const VkAllocationCallbacks *pAllocator)
{
   struct layer_device *dev = layer_sem_device(device, "vkDestroySemaphore");
   if (!dev)
      return;

   struct layer_semaphore *rec = NULL;
   if (semaphore && layer_sem_any(dev)) {
      layer_lock();
      rec = layer_sem_find(dev, semaphore);
      if (rec) {
         layer_object_remove(&rec->base);
         __atomic_sub_fetch(&dev->semaphore_count, 1, __ATOMIC_RELEASE);
      }
      layer_unlock();
   }
   dev->DestroySemaphore(device, semaphore, pAllocator);
   if (rec)
      layer_sem_record_free(dev, rec);
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_GetSemaphoreFdKHR(VkDevice device, const VkSemaphoreGetFdInfoKHR *pGetFdInfo, int *pFd)
{
   struct layer_device *dev = layer_sem_device(device, "vkGetSemaphoreFdKHR");
   if (!dev)
      return VK_ERROR_INITIALIZATION_FAILED;
   if (!dev->sem_emulated) {
      if (!dev->GetSemaphoreFdKHR) {
         cuvk_loge("vkGetSemaphoreFdKHR: VK_KHR_external_semaphore_fd is not enabled");
         return VK_ERROR_INITIALIZATION_FAILED;
      }
      return dev->GetSemaphoreFdKHR(device, pGetFdInfo, pFd);
   }

   if (pGetFdInfo->handleType != VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT) {
      cuvk_loge("vkGetSemaphoreFdKHR: " CUVK_LAYER_NAME " exports OPAQUE_FD only, not handle type %#x",
                pGetFdInfo->handleType);
      return VK_ERROR_INVALID_EXTERNAL_HANDLE;
   }
   int fd = -EINVAL;
   layer_lock();
   struct layer_semaphore *rec = layer_sem_find_active(dev, pGetFdInfo->semaphore);
   if (rec)
      fd = cuvk_xsem_export_fd(layer_sem_current(rec)->xsem);
   layer_unlock();
   if (!rec) {
      cuvk_loge("vkGetSemaphoreFdKHR: semaphore %#llx was created without VkExportSemaphoreCreateInfo",
                (unsigned long long)LAYER_HANDLE(pGetFdInfo->semaphore));
      return VK_ERROR_INVALID_EXTERNAL_HANDLE;
   }
   if (fd < 0) {
      cuvk_loge("vkGetSemaphoreFdKHR: cannot duplicate the fd (%s)", strerror(-fd));
      return fd == -EMFILE || fd == -ENFILE ? VK_ERROR_TOO_MANY_OBJECTS
                                            : VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   *pFd = fd;
   return VK_SUCCESS;
}

/* Temporary imports (binary only, as Vulkan requires) last until the next
 * wait; a timeline given the flag is imported permanently, with a warning,
 * since a timeline's temporary import is invalid usage. */
static VKAPI_ATTR VkResult VKAPI_CALL
layer_ImportSemaphoreFdKHR(VkDevice device, const VkImportSemaphoreFdInfoKHR *pImportInfo)
{
   struct layer_device *dev = layer_sem_device(device, "vkImportSemaphoreFdKHR");
   if (!dev)
      return VK_ERROR_INITIALIZATION_FAILED;
   if (!dev->sem_emulated) {
      if (!dev->ImportSemaphoreFdKHR) {
         cuvk_loge("vkImportSemaphoreFdKHR: VK_KHR_external_semaphore_fd is not enabled");
         return VK_ERROR_INITIALIZATION_FAILED;
      }
      return dev->ImportSemaphoreFdKHR(device, pImportInfo);
   }

   if (pImportInfo->handleType != VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT) {
      cuvk_loge("vkImportSemaphoreFdKHR: " CUVK_LAYER_NAME " imports OPAQUE_FD only, not handle type %#x",
                pImportInfo->handleType);
      return VK_ERROR_INVALID_EXTERNAL_HANDLE;
   }
   struct cuvk_xsem *xsem;
   int ret = cuvk_xsem_import(pImportInfo->fd, &xsem);
   if (ret) {
      cuvk_loge("vkImportSemaphoreFdKHR: fd %d is not a semaphore exported through " CUVK_LAYER_NAME,
                pImportInfo->fd);
      return VK_ERROR_INVALID_EXTERNAL_HANDLE;
   }

   bool temporary = pImportInfo->flags & VK_SEMAPHORE_IMPORT_TEMPORARY_BIT;
   if (temporary && cuvk_xsem_get_type(xsem) == CUVK_XSEM_TIMELINE) {
      cuvk_logw("vkImportSemaphoreFdKHR: a timeline semaphore cannot be imported temporarily; "
                "importing it permanently");
      temporary = false;
   }

   /* A semaphore seen for the first time gets a record, with the
    * device's allocator since the semaphore's is not known here. */
   layer_lock();
   struct layer_semaphore *rec = layer_sem_find(dev, pImportInfo->semaphore);
   layer_unlock();
   struct layer_semaphore *fresh = NULL;
   struct layer_allocator a = dev->allocator;
   if (rec) {
      a = rec->base.allocator;
   } else {
      fresh = layer_zalloc(layer_sem_callbacks(&dev->allocator), sizeof(*fresh),
                           VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, &a);
      if (!fresh) {
         cuvk_xsem_destroy(xsem);
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      }
      fresh->base.allocator = a;
      fresh->type = cuvk_xsem_get_type(xsem);
      cuvk_list_init(&fresh->retired);
   }

   struct layer_sem_payload *payload;
   VkResult res = layer_sem_payload_create(dev, &a, xsem, &payload);
   if (res != VK_SUCCESS) {
      cuvk_xsem_destroy(xsem);
      if (fresh)
         layer_free(&a, fresh);
      return res;
   }

   layer_lock();
   res = layer_sem_bridge(dev);
   if (res == VK_SUCCESS) {
      if (fresh) {
         rec = fresh;
         layer_object_insert_list(dev, &rec->base, LAYER_KIND_SEMAPHORE,
                                  LAYER_HANDLE(pImportInfo->semaphore), &dev->semaphores);
         __atomic_add_fetch(&dev->semaphore_count, 1, __ATOMIC_RELEASE);
      }
      struct layer_sem_payload **slot = temporary ? &rec->temporary : &rec->permanent;
      if (*slot)
         cuvk_list_addtail(&(*slot)->link, &rec->retired);
      *slot = payload;
   }
   layer_unlock();
   if (res != VK_SUCCESS) {
      layer_sem_payload_free(dev, &a, payload);
      if (fresh)
         layer_free(&a, fresh);
      return res;
   }

   /* A successful import owns the fd. */
   close(pImportInfo->fd);
   return VK_SUCCESS;
}

/* ---- host signals, waits and queries ------------------------------------ */

/* The xsem of an emulated semaphore, referenced, or NULL. */
static struct cuvk_xsem *
layer_sem_xsem_ref(struct layer_device *dev, VkSemaphore semaphore)
{
   struct cuvk_xsem *x = NULL;

   layer_lock();
   struct layer_semaphore *rec = layer_sem_find_active(dev, semaphore);
   if (rec)
      x = cuvk_xsem_ref(layer_sem_current(rec)->xsem);
   layer_unlock();
   return x;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_GetSemaphoreCounterValue(VkDevice device, VkSemaphore semaphore, uint64_t *pValue)
{
   struct layer_device *dev = layer_sem_device(device, "vkGetSemaphoreCounterValue");
   if (!dev)
      return VK_ERROR_INITIALIZATION_FAILED;
   struct cuvk_xsem *x = layer_sem_any(dev) ? layer_sem_xsem_ref(dev, semaphore) : NULL;
   if (!x)
      return dev->GetSemaphoreCounterValue(device, semaphore, pValue);
   *pValue = cuvk_xsem_value(x);
   cuvk_xsem_unref(x);
   return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_SignalSemaphore(VkDevice device, const VkSemaphoreSignalInfo *pSignalInfo)
{
   struct layer_device *dev = layer_sem_device(device, "vkSignalSemaphore");
   if (!dev)
      return VK_ERROR_INITIALIZATION_FAILED;
   struct cuvk_xsem *x = layer_sem_any(dev) ? layer_sem_xsem_ref(dev, pSignalInfo->semaphore) : NULL;
   if (!x)
      return dev->SignalSemaphore(device, pSignalInfo);
   /* Local waits are released by the bridge, which watches the xsem. */
   if (!cuvk_xsem_enqueue_timeline_signal(x, pSignalInfo->value))
      cuvk_logw("vkSignalSemaphore: value %llu is not greater than the semaphore's current or "
                "pending value; the counter stays where it is",
                (unsigned long long)pSignalInfo->value);
   cuvk_xsem_signal(x, pSignalInfo->value);
   cuvk_xsem_unref(x);
   return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_WaitSemaphores(VkDevice device, const VkSemaphoreWaitInfo *pWaitInfo, uint64_t timeout)
{
   struct layer_device *dev = layer_sem_device(device, "vkWaitSemaphores");
   if (!dev)
      return VK_ERROR_INITIALIZATION_FAILED;
   uint32_t count = pWaitInfo->semaphoreCount;
   if (!layer_sem_any(dev) || count == 0)
      return dev->WaitSemaphores(device, pWaitInfo, timeout);

   struct cuvk_xsem *stack_x[8];
   VkSemaphore stack_w[8];
   uint64_t stack_v[8];
   struct cuvk_xsem **xs = stack_x;
   VkSemaphore *ws = stack_w;
   uint64_t *vs = stack_v;
   if (count > CUVK_ARRAY_SIZE(stack_x)) {
      xs = calloc(count, sizeof(*xs));
      ws = calloc(count, sizeof(*ws));
      vs = calloc(count, sizeof(*vs));
      if (!xs || !ws || !vs) {
         free(xs);
         free(ws);
         free(vs);
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      }
   }

   uint32_t emulated = 0;
   layer_lock();
   for (uint32_t i = 0; i < count; i++) {
      struct layer_semaphore *rec = layer_sem_find_active(dev, pWaitInfo->pSemaphores[i]);
      xs[i] = NULL;
      ws[i] = pWaitInfo->pSemaphores[i];
      vs[i] = pWaitInfo->pValues[i];
      if (rec) {
         struct layer_sem_payload *p = layer_sem_current(rec);
         xs[i] = cuvk_xsem_ref(p->xsem);
         ws[i] = p->wait_timeline;
         emulated++;
      }
   }
   layer_unlock();

   VkResult res = VK_SUCCESS;
   bool any = pWaitInfo->flags & VK_SEMAPHORE_WAIT_ANY_BIT;
   if (emulated == 0) {
      res = dev->WaitSemaphores(device, pWaitInfo, timeout);
   } else if (emulated == count && (!any || count == 1)) {
      /* Only shared pages: wait on them directly. */
      uint64_t start = cuvk_clock_ns();
      for (uint32_t i = 0; i < count && res == VK_SUCCESS; i++) {
         uint64_t left = CUVK_XSEM_WAIT_FOREVER;
         if (timeout != UINT64_MAX) {
            uint64_t spent = cuvk_clock_ns() - start;
            left = spent >= timeout ? 0 : timeout - spent;
         }
         if (!cuvk_xsem_wait(xs[i], vs[i], left))
            res = VK_TIMEOUT;
      }
   } else {
      /* Mixed with the driver's own, or any-of: the driver waits on each
       * emulated semaphore's W, which the bridge signals once the page
       * gets there.  An operation left behind by a timeout is harmless:
       * it signals W later, or is dropped with the semaphore. */
      for (uint32_t i = 0; i < count && res == VK_SUCCESS; i++) {
         if (xs[i] && cuvk_xsem_bridge_backward(dev->bridge, xs[i], vs[i], ws[i], vs[i]))
            res = VK_ERROR_OUT_OF_HOST_MEMORY;
      }
      if (res == VK_SUCCESS) {
         VkSemaphoreWaitInfo down = *pWaitInfo;
         down.pSemaphores = ws;
         down.pValues = vs;
         res = dev->WaitSemaphores(device, &down, timeout);
      }
   }

   for (uint32_t i = 0; i < count; i++)
      cuvk_xsem_unref(xs[i]);
   if (xs != stack_x) {
      free(xs);
      free(ws);
      free(vs);
   }
   return res;
}

/* ---- submits ------------------------------------------------------------ */

/* A forward operation to register once the batch is submitted. */
struct layer_sem_forward {
   VkSemaphore timeline;
   uint64_t value;
   struct cuvk_xsem *xsem;         /* referenced */
   uint64_t v;
};

/* With the lock held: what a wait on the emulated rec becomes.  Binary:
 * the next wait number; a temporary payload is consumed. */
static int
layer_sem_rewrite_wait(struct layer_device *dev, struct layer_semaphore *rec, uint64_t value,
                       VkSemaphore *out_sem, uint64_t *out_value)
{
   struct layer_sem_payload *p = layer_sem_current(rec);

   if (rec->type == CUVK_XSEM_BINARY)
      value = cuvk_xsem_enqueue_wait(p->xsem);
   int ret = cuvk_xsem_bridge_backward(dev->bridge, p->xsem, value, p->wait_timeline, value);
   *out_sem = p->wait_timeline;
   *out_value = value;
   if (p == rec->temporary) {
      rec->temporary = NULL;
      cuvk_list_addtail(&p->link, &rec->retired);
   }
   return ret;
}

/* With the lock held: what a signal of rec becomes, and the forward
 * operation to register after the submit. */
static void
layer_sem_rewrite_signal(struct layer_semaphore *rec, uint64_t value, VkSemaphore *out_sem,
                         uint64_t *out_value, struct layer_sem_forward *fwd)
{
   struct layer_sem_payload *p = layer_sem_current(rec);

   if (rec->type == CUVK_XSEM_BINARY) {
      value = cuvk_xsem_enqueue_signal(p->xsem);
   } else if (!cuvk_xsem_enqueue_timeline_signal(p->xsem, value)) {
      cuvk_logw("vkQueueSubmit: timeline value %llu is not greater than the semaphore's current or "
                "pending value", (unsigned long long)value);
   }
   *out_sem = p->signal_timeline;
   *out_value = value;
   *fwd = (struct layer_sem_forward){
      .timeline = p->signal_timeline,
      .value = value,
      .xsem = cuvk_xsem_ref(p->xsem),
      .v = value,
   };
}

static void
layer_sem_register_forwards(struct layer_device *dev, struct layer_sem_forward *fwd, uint32_t n,
                            bool submitted)
{
   for (uint32_t i = 0; i < n; i++) {
      if (submitted) {
         int ret = cuvk_xsem_bridge_forward(dev->bridge, fwd[i].timeline, fwd[i].value,
                                            fwd[i].xsem, fwd[i].v);
         if (ret)
            cuvk_loge("vkQueueSubmit: cannot watch a signal of an exported semaphore (%d); its "
                      "other holders will not see it", ret);
      }
      cuvk_xsem_unref(fwd[i].xsem);
   }
}

/* Whether any semaphore of the arrays is emulated (with the lock held). */
static bool
layer_sem_any_in(struct layer_device *dev, const VkSemaphore *sems, uint32_t n)
{
   for (uint32_t i = 0; i < n; i++) {
      if (layer_sem_find_active(dev, sems[i]))
         return true;
   }
   return false;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_QueueSubmit(VkQueue queue, uint32_t submitCount, const VkSubmitInfo *pSubmits, VkFence fence)
{
   struct layer_device *dev = layer_sem_device(queue, "vkQueueSubmit");
   if (!dev)
      return VK_ERROR_INITIALIZATION_FAILED;
   if (!layer_sem_any(dev) || submitCount == 0)
      return dev->QueueSubmit(queue, submitCount, pSubmits, fence);

   /* Sizes first: semaphores and values of every batch, and the copies of
    * chain structs in front of an application's timeline struct. */
   uint32_t sems = 0;
   size_t chains = 0;
   bool any = false;
   layer_lock();
   for (uint32_t i = 0; i < submitCount; i++) {
      const VkSubmitInfo *s = &pSubmits[i];
      if (!layer_sem_any_in(dev, s->pWaitSemaphores, s->waitSemaphoreCount) &&
          !layer_sem_any_in(dev, s->pSignalSemaphores, s->signalSemaphoreCount))
         continue;
      any = true;
      sems += s->waitSemaphoreCount + s->signalSemaphoreCount;
      const void *app_tl = layer_sem_find_struct(s->pNext, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
      if (app_tl) {
         size_t n = layer_sem_prefix_size(s->pNext, app_tl);
         if (n == SIZE_MAX) {
            layer_unlock();
            cuvk_loge("vkQueueSubmit: VkTimelineSemaphoreSubmitInfo follows a struct " CUVK_LAYER_NAME
                      " does not know");
            return VK_ERROR_OUT_OF_HOST_MEMORY;
         }
         chains += n;
      }
   }
   if (!any) {
      layer_unlock();
      return dev->QueueSubmit(queue, submitCount, pSubmits, fence);
   }
   /* The lock stays held to the end of the rewrite, so what was counted
    * is what is rewritten (an import could make a semaphore emulated). */

   size_t size = LAYER_SEM_ALIGN(submitCount * sizeof(VkSubmitInfo)) +
                 LAYER_SEM_ALIGN(submitCount * sizeof(VkTimelineSemaphoreSubmitInfo)) +
                 LAYER_SEM_ALIGN(sems * sizeof(VkSemaphore)) +
                 LAYER_SEM_ALIGN(sems * sizeof(uint64_t)) +
                 LAYER_SEM_ALIGN(sems * sizeof(struct layer_sem_forward)) + chains;
   const VkAllocationCallbacks *alloc = layer_sem_callbacks(&dev->allocator);
   char *mem = layer_zalloc(alloc, size, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND, NULL);
   if (!mem) {
      layer_unlock();
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   char *p = mem;
   VkSubmitInfo *subs = (VkSubmitInfo *)p;
   p += LAYER_SEM_ALIGN(submitCount * sizeof(VkSubmitInfo));
   VkTimelineSemaphoreSubmitInfo *tls = (VkTimelineSemaphoreSubmitInfo *)p;
   p += LAYER_SEM_ALIGN(submitCount * sizeof(VkTimelineSemaphoreSubmitInfo));
   VkSemaphore *sem_out = (VkSemaphore *)p;
   p += LAYER_SEM_ALIGN(sems * sizeof(VkSemaphore));
   uint64_t *val_out = (uint64_t *)p;
   p += LAYER_SEM_ALIGN(sems * sizeof(uint64_t));
   struct layer_sem_forward *fwd = (struct layer_sem_forward *)p;
   p += LAYER_SEM_ALIGN(sems * sizeof(struct layer_sem_forward));
   char *chain_mem = p;
   uint32_t nfwd = 0;
   VkResult res = VK_SUCCESS;

   for (uint32_t i = 0; i < submitCount; i++) {
      const VkSubmitInfo *s = &pSubmits[i];
      subs[i] = *s;
      if (!layer_sem_any_in(dev, s->pWaitSemaphores, s->waitSemaphoreCount) &&
          !layer_sem_any_in(dev, s->pSignalSemaphores, s->signalSemaphoreCount))
         continue;

      const VkTimelineSemaphoreSubmitInfo *app_tl =
         layer_sem_find_struct(s->pNext, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
      VkSemaphore *waits = sem_out, *signals = sem_out + s->waitSemaphoreCount;
      uint64_t *wait_values = val_out, *signal_values = val_out + s->waitSemaphoreCount;
      sem_out += s->waitSemaphoreCount + s->signalSemaphoreCount;
      val_out += s->waitSemaphoreCount + s->signalSemaphoreCount;

      for (uint32_t j = 0; j < s->waitSemaphoreCount; j++) {
         uint64_t v = app_tl && j < app_tl->waitSemaphoreValueCount && app_tl->pWaitSemaphoreValues
                         ? app_tl->pWaitSemaphoreValues[j] : 0;
         struct layer_semaphore *rec = layer_sem_find_active(dev, s->pWaitSemaphores[j]);
         waits[j] = s->pWaitSemaphores[j];
         wait_values[j] = v;
         if (rec && layer_sem_rewrite_wait(dev, rec, v, &waits[j], &wait_values[j]))
            res = VK_ERROR_OUT_OF_HOST_MEMORY;
      }
      for (uint32_t j = 0; j < s->signalSemaphoreCount; j++) {
         uint64_t v = app_tl && j < app_tl->signalSemaphoreValueCount && app_tl->pSignalSemaphoreValues
                         ? app_tl->pSignalSemaphoreValues[j] : 0;
         struct layer_semaphore *rec = layer_sem_find_active(dev, s->pSignalSemaphores[j]);
         signals[j] = s->pSignalSemaphores[j];
         signal_values[j] = v;
         if (rec)
            layer_sem_rewrite_signal(rec, v, &signals[j], &signal_values[j], &fwd[nfwd++]);
      }

      tls[i] = (VkTimelineSemaphoreSubmitInfo){
         .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
         .waitSemaphoreValueCount = s->waitSemaphoreCount,
         .pWaitSemaphoreValues = wait_values,
         .signalSemaphoreValueCount = s->signalSemaphoreCount,
         .pSignalSemaphoreValues = signal_values,
      };
      if (app_tl) {
         tls[i].pNext = layer_sem_copy_prefix(s->pNext, app_tl, app_tl->pNext, chain_mem);
         chain_mem += layer_sem_prefix_size(s->pNext, app_tl);
      } else {
         tls[i].pNext = s->pNext;
      }
      subs[i].pNext = &tls[i];
      subs[i].pWaitSemaphores = waits;
      subs[i].pSignalSemaphores = signals;
   }
   layer_unlock();

   if (res == VK_SUCCESS)
      res = dev->QueueSubmit(queue, submitCount, subs, fence);
   else
      cuvk_loge("vkQueueSubmit: out of memory watching an exported semaphore");
   layer_sem_register_forwards(dev, fwd, nfwd, res == VK_SUCCESS);
   struct layer_allocator a = dev->allocator;
   layer_free(&a, mem);
   return res;
}

static bool
layer_sem_any_in2(struct layer_device *dev, const VkSemaphoreSubmitInfo *infos, uint32_t n)
{
   for (uint32_t i = 0; i < n; i++) {
      if (layer_sem_find_active(dev, infos[i].semaphore))
         return true;
   }
   return false;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_QueueSubmit2(VkQueue queue, uint32_t submitCount, const VkSubmitInfo2 *pSubmits, VkFence fence)
{
   struct layer_device *dev = layer_sem_device(queue, "vkQueueSubmit2");
   if (!dev)
      return VK_ERROR_INITIALIZATION_FAILED;
   if (!layer_sem_any(dev) || submitCount == 0)
      return dev->QueueSubmit2(queue, submitCount, pSubmits, fence);

   uint32_t sems = 0;
   bool any = false;
   layer_lock();
   for (uint32_t i = 0; i < submitCount; i++) {
      const VkSubmitInfo2 *s = &pSubmits[i];
      if (layer_sem_any_in2(dev, s->pWaitSemaphoreInfos, s->waitSemaphoreInfoCount) ||
          layer_sem_any_in2(dev, s->pSignalSemaphoreInfos, s->signalSemaphoreInfoCount))
         any = true;
      sems += s->waitSemaphoreInfoCount + s->signalSemaphoreInfoCount;
   }
   if (!any) {
      layer_unlock();
      return dev->QueueSubmit2(queue, submitCount, pSubmits, fence);
   }

   size_t size = LAYER_SEM_ALIGN(submitCount * sizeof(VkSubmitInfo2)) +
                 LAYER_SEM_ALIGN(sems * sizeof(VkSemaphoreSubmitInfo)) +
                 LAYER_SEM_ALIGN(sems * sizeof(struct layer_sem_forward));
   const VkAllocationCallbacks *alloc = layer_sem_callbacks(&dev->allocator);
   char *mem = layer_zalloc(alloc, size, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND, NULL);
   if (!mem) {
      layer_unlock();
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   VkSubmitInfo2 *subs = (VkSubmitInfo2 *)mem;
   VkSemaphoreSubmitInfo *infos =
      (VkSemaphoreSubmitInfo *)(mem + LAYER_SEM_ALIGN(submitCount * sizeof(VkSubmitInfo2)));
   struct layer_sem_forward *fwd =
      (struct layer_sem_forward *)((char *)infos + LAYER_SEM_ALIGN(sems * sizeof(VkSemaphoreSubmitInfo)));
   uint32_t nfwd = 0;
   VkResult res = VK_SUCCESS;

   for (uint32_t i = 0; i < submitCount; i++) {
      const VkSubmitInfo2 *s = &pSubmits[i];
      subs[i] = *s;
      VkSemaphoreSubmitInfo *waits = infos, *signals = infos + s->waitSemaphoreInfoCount;
      infos += s->waitSemaphoreInfoCount + s->signalSemaphoreInfoCount;
      for (uint32_t j = 0; j < s->waitSemaphoreInfoCount; j++) {
         waits[j] = s->pWaitSemaphoreInfos[j];
         struct layer_semaphore *rec = layer_sem_find_active(dev, waits[j].semaphore);
         if (rec && layer_sem_rewrite_wait(dev, rec, waits[j].value, &waits[j].semaphore,
                                           &waits[j].value))
            res = VK_ERROR_OUT_OF_HOST_MEMORY;
      }
      for (uint32_t j = 0; j < s->signalSemaphoreInfoCount; j++) {
         signals[j] = s->pSignalSemaphoreInfos[j];
         struct layer_semaphore *rec = layer_sem_find_active(dev, signals[j].semaphore);
         if (rec)
            layer_sem_rewrite_signal(rec, signals[j].value, &signals[j].semaphore,
                                     &signals[j].value, &fwd[nfwd++]);
      }
      subs[i].pWaitSemaphoreInfos = waits;
      subs[i].pSignalSemaphoreInfos = signals;
   }
   layer_unlock();

   if (res == VK_SUCCESS)
      res = dev->QueueSubmit2(queue, submitCount, subs, fence);
   else
      cuvk_loge("vkQueueSubmit2: out of memory watching an exported semaphore");
   layer_sem_register_forwards(dev, fwd, nfwd, res == VK_SUCCESS);
   struct layer_allocator a = dev->allocator;
   layer_free(&a, mem);
   return res;
}

/* ---- physical-device queries -------------------------------------------- */

static void
layer_sem_answer_properties(VkPhysicalDevice pdev, const VkPhysicalDeviceExternalSemaphoreInfo *info,
                            VkExternalSemaphoreProperties *props, bool khr)
{
   struct layer_instance *inst = layer_instance_of(pdev);
   PFN_vkGetPhysicalDeviceExternalSemaphoreProperties next =
      !inst ? NULL : khr ? inst->GetPhysicalDeviceExternalSemaphorePropertiesKHR
                         : inst->GetPhysicalDeviceExternalSemaphoreProperties;

   if (inst && info->handleType == VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT &&
       layer_sem_mode_of(inst, pdev) == LAYER_SEM_EMULATE) {
      /* Binary and timeline alike. */
      props->exportFromImportedHandleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
      props->compatibleHandleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
      props->externalSemaphoreFeatures = VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT |
                                         VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT;
      return;
   }
   if (next) {
      next(pdev, info, props);
      return;
   }
   props->exportFromImportedHandleTypes = 0;
   props->compatibleHandleTypes = 0;
   props->externalSemaphoreFeatures = 0;
}

static VKAPI_ATTR void VKAPI_CALL
layer_GetPhysicalDeviceExternalSemaphoreProperties(VkPhysicalDevice pdev,
                                                   const VkPhysicalDeviceExternalSemaphoreInfo *info,
                                                   VkExternalSemaphoreProperties *props)
{
   layer_sem_answer_properties(pdev, info, props, false);
}

static VKAPI_ATTR void VKAPI_CALL
layer_GetPhysicalDeviceExternalSemaphorePropertiesKHR(VkPhysicalDevice pdev,
                                                      const VkPhysicalDeviceExternalSemaphoreInfo *info,
                                                      VkExternalSemaphoreProperties *props)
{
   layer_sem_answer_properties(pdev, info, props, true);
}

/* ---- device lifetime ---------------------------------------------------- */

void
layer_semaphore_destroy_device(struct layer_device *dev)
{
   struct cuvk_list records;

   cuvk_list_init(&records);
   layer_lock();
   while (!cuvk_list_is_empty(&dev->semaphores)) {
      struct layer_object *obj = cuvk_list_first_entry(&dev->semaphores, struct layer_object,
                                                       device_link);
      layer_object_remove(obj);
      cuvk_list_addtail(&obj->device_link, &records);
   }
   __atomic_store_n(&dev->semaphore_count, 0, __ATOMIC_RELEASE);
   layer_unlock();

   /* Stop the threads first: they may be waiting on internal timelines. */
   struct cuvk_xsem_bridge *bridge = dev->bridge;
   dev->bridge = NULL;
   cuvk_xsem_bridge_destroy(bridge);

   cuvk_list_for_each_entry_safe(struct layer_object, obj, &records, device_link) {
      cuvk_list_del(&obj->device_link);
      layer_sem_record_free(dev, cuvk_container_of(obj, struct layer_semaphore, base));
   }
}

/* ---- entry points ------------------------------------------------------- */

struct layer_sem_entry {
   const char *name;
   PFN_vkVoidFunction func;
   bool fd;                        /* provided where the next entity has none */
};

#define ENTRY(name) { "vk" #name, (PFN_vkVoidFunction)layer_##name, false }
#define ALIAS(alias, name) { "vk" #alias, (PFN_vkVoidFunction)layer_##name, false }
#define FD_ENTRY(name) { "vk" #name, (PFN_vkVoidFunction)layer_##name, true }

static const struct layer_sem_entry layer_sem_entries[] = {
   ENTRY(CreateSemaphore),
   ENTRY(DestroySemaphore),
   FD_ENTRY(GetSemaphoreFdKHR),
   FD_ENTRY(ImportSemaphoreFdKHR),
   ENTRY(QueueSubmit),
   ENTRY(QueueSubmit2),
   ALIAS(QueueSubmit2KHR, QueueSubmit2),
   ENTRY(WaitSemaphores),
   ALIAS(WaitSemaphoresKHR, WaitSemaphores),
   ENTRY(SignalSemaphore),
   ALIAS(SignalSemaphoreKHR, SignalSemaphore),
   ENTRY(GetSemaphoreCounterValue),
   ALIAS(GetSemaphoreCounterValueKHR, GetSemaphoreCounterValue),
};

static const struct layer_sem_entry layer_sem_instance_entries[] = {
   ENTRY(GetPhysicalDeviceExternalSemaphoreProperties),
   ENTRY(GetPhysicalDeviceExternalSemaphorePropertiesKHR),
};

#undef ENTRY
#undef ALIAS
#undef FD_ENTRY

PFN_vkVoidFunction
layer_semaphore_proc(struct layer_device *dev, const char *name, PFN_vkVoidFunction next)
{
   for (size_t i = 0; i < CUVK_ARRAY_SIZE(layer_sem_entries); i++) {
      const struct layer_sem_entry *e = &layer_sem_entries[i];
      if (strcmp(e->name, name) != 0)
         continue;
      /* A device the layer does not emulate on gets the next entity's
       * commands themselves: nothing on its path changes. */
      if (dev && !dev->sem_emulated)
         return NULL;
      if (!next && !(dev && e->fd))
         return NULL;
      return e->func;
   }
   return NULL;
}

PFN_vkVoidFunction
layer_semaphore_instance_proc(const char *name)
{
   for (size_t i = 0; i < CUVK_ARRAY_SIZE(layer_sem_instance_entries); i++) {
      if (strcmp(layer_sem_instance_entries[i].name, name) == 0)
         return layer_sem_instance_entries[i].func;
   }
   return NULL;
}
