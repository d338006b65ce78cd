/*
 * cuInit, the Vulkan instance and device discovery.
 */
#include "cuda_api/driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/device_policy.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

struct cuvk_driver cuvk_driver;

static pthread_mutex_t driver_lock = PTHREAD_MUTEX_INITIALIZER;
/* Read without the lock on every call; written once, under it, with a
 * release store after the driver state is complete. */
static int driver_ready;
static CUresult driver_init_result = CUDA_ERROR_NOT_INITIALIZED;
static bool driver_init_tried;

CUresult
cuvk_driver_check(const char *entry)
{
   if (cuvk_likely(__atomic_load_n(&driver_ready, __ATOMIC_ACQUIRE)))
      return CUDA_SUCCESS;
   return cuvk_error(CUDA_ERROR_NOT_INITIALIZED, "%s: cuInit has not been called", entry);
}

CUresult
cuvk_device_get(CUdevice dev, const char *entry, struct cuvk_device **out)
{
   CUresult res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;
   if (dev < 0 || dev >= cuvk_driver.device_count)
      return cuvk_error(CUDA_ERROR_INVALID_DEVICE, "%s: device %d does not exist (%d devices)",
                        entry, dev, cuvk_driver.device_count);
   *out = &cuvk_driver.devices[dev];
   return CUDA_SUCCESS;
}

VkDeviceSize
cuvk_device_max_allocation(const struct cuvk_device *dev, uint32_t type_index)
{
   VkDeviceSize heap = dev->mem.memoryHeaps[dev->mem.memoryTypes[type_index].heapIndex].size;
   return dev->max_allocation_size ? CUVK_MIN(heap, dev->max_allocation_size) : heap;
}

PFN_vkVoidFunction
cuvk_driver_instance_proc(const char *name)
{
   return vkGetInstanceProcAddr(cuvk_driver.instance, name);
}

/* A validation message this thread's current call is known to draw
 * wrongly (cuvk_driver_quirk_begin): its VUID and the object it names. */
static _Thread_local struct {
   const char *vuid;
   uint64_t object;
} driver_quirk;

void
cuvk_driver_quirk_begin(const char *vuid, uint64_t object)
{
   driver_quirk.vuid = vuid;
   driver_quirk.object = object;
}

void
cuvk_driver_quirk_end(void)
{
   driver_quirk.vuid = NULL;
}

static bool
driver_quirk_matches(const VkDebugUtilsMessengerCallbackDataEXT *data)
{
   if (!driver_quirk.vuid || !data->pMessageIdName || strcmp(data->pMessageIdName, driver_quirk.vuid) != 0)
      return false;
   for (uint32_t i = 0; i < data->objectCount; i++)
      if (data->pObjects[i].objectHandle == driver_quirk.object)
         return true;
   return false;
}

static VKAPI_ATTR VkBool32 VKAPI_CALL
driver_debug_callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                      VkDebugUtilsMessageTypeFlagsEXT types,
                      const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
   /* Read once when the messenger was made (user), so callbacks on
    * several threads share no mutable state. */
   bool fatal = *(const bool *)user;
   bool validation = types & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
   if (validation && driver_quirk_matches(data)) {
      cuvk_logd("Vulkan validation, known to be wrong for this call (docs/semaphores.md): %s", data->pMessage);
      return VK_FALSE;
   }
   cuvk_loge("Vulkan %s: %s", validation ? "validation" : "driver",
             data->pMessage ? data->pMessage : "(no message)");
   /* Only validation messages are bugs; a driver saying why a call failed
    * (an import it refused) comes with an error code cuvk returns. */
   if (fatal && validation) {
      fprintf(stderr, "cuvk: CUVK_VALIDATION_FATAL is set; aborting on a Vulkan validation message\n");
      abort();
   }
   return VK_FALSE;
}

static bool
has_extension(const VkExtensionProperties *exts, uint32_t count, const char *name)
{
   for (uint32_t i = 0; i < count; i++)
      if (strcmp(exts[i].extensionName, name) == 0)
         return true;
   return false;
}

/* CUVK_DEVICE_HEAP_LIMIT: a cap on the device memory heap, 0 when unset
 * or not understood (with a warning). */
static VkDeviceSize
device_heap_cap(void)
{
   const char *env = getenv("CUVK_DEVICE_HEAP_LIMIT");
   VkDeviceSize cap = 0;

   if (env && !cuvk_mem_parse_size(env, &cap)) {
      cuvk_logw("CUVK_DEVICE_HEAP_LIMIT=%s is not a byte count (e.g. 512M); ignored", env);
      cap = 0;
   }
   return cap;
}

static void
device_choose_memory_types(struct cuvk_device *dev, bool has_budget_ext)
{
   const VkPhysicalDeviceMemoryProperties *mem = &dev->mem;

   cuvk_policy_memory_types(mem, &dev->device_type_index, &dev->host_type_index);
   if (dev->device_type_index == UINT32_MAX)
      return;
   uint32_t heap = mem->memoryTypes[dev->device_type_index].heapIndex;
   cuvk_mem_budget_init(&dev->budget, dev->pdev, mem, has_budget_ext, heap, device_heap_cap());
   dev->device_heap_size = dev->budget.limit[heap];
   if (dev->device_heap_size < mem->memoryHeaps[heap].size)
      cuvk_logi("%s: device memory limited to %llu of the heap's %llu bytes by CUVK_DEVICE_HEAP_LIMIT",
                dev->props.deviceName, (unsigned long long)dev->device_heap_size,
                (unsigned long long)mem->memoryHeaps[heap].size);
}

/* Fills dev from pdev; false (with an info line saying why) when the
 * device lacks something cuvk needs. */
static bool
device_probe(VkPhysicalDevice pdev, struct cuvk_device *dev)
{
   VkExtensionProperties *exts = NULL;
   uint32_t ext_count = 0;
   bool ok = false;

   memset(dev, 0, sizeof(*dev));
   dev->pdev = pdev;
   vkGetPhysicalDeviceProperties(pdev, &dev->props);
   const char *name = dev->props.deviceName;

   if (dev->props.apiVersion < VK_API_VERSION_1_2) {
      cuvk_logi("skipping %s: Vulkan %u.%u, cuvk needs 1.2", name,
                VK_API_VERSION_MAJOR(dev->props.apiVersion),
                VK_API_VERSION_MINOR(dev->props.apiVersion));
      return false;
   }

   if (vkEnumerateDeviceExtensionProperties(pdev, NULL, &ext_count, NULL) != VK_SUCCESS)
      return false;
   exts = calloc(ext_count ? ext_count : 1, sizeof(*exts));
   if (!exts)
      return false;
   if (vkEnumerateDeviceExtensionProperties(pdev, NULL, &ext_count, exts) != VK_SUCCESS)
      goto out;

   if (!has_extension(exts, ext_count, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME)) {
      cuvk_logi("skipping %s: no %s", name, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);
      goto out;
   }
   dev->has_external_memory_host = has_extension(exts, ext_count, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
   dev->has_dma_buf = has_extension(exts, ext_count, VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME);
   dev->has_pci_bus_info = has_extension(exts, ext_count, VK_EXT_PCI_BUS_INFO_EXTENSION_NAME);
   dev->has_memory_budget = has_extension(exts, ext_count, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
   dev->has_atomic_float = has_extension(exts, ext_count, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
   dev->has_workgroup_explicit_layout =
      has_extension(exts, ext_count, VK_KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_EXTENSION_NAME);
   dev->has_external_semaphore_fd = has_extension(exts, ext_count, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME);
   dev->has_shader_clock = has_extension(exts, ext_count, VK_KHR_SHADER_CLOCK_EXTENSION_NAME);
   dev->has_custom_border_color = has_extension(exts, ext_count, VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME);
   dev->has_border_color_swizzle = has_extension(exts, ext_count, VK_EXT_BORDER_COLOR_SWIZZLE_EXTENSION_NAME);
   dev->global_priority_ext = has_extension(exts, ext_count, VK_KHR_GLOBAL_PRIORITY_EXTENSION_NAME) ?
                              VK_KHR_GLOBAL_PRIORITY_EXTENSION_NAME :
                              has_extension(exts, ext_count, VK_EXT_GLOBAL_PRIORITY_EXTENSION_NAME) ?
                              VK_EXT_GLOBAL_PRIORITY_EXTENSION_NAME : NULL;

   VkPhysicalDeviceVulkan12Features f12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES };
   VkPhysicalDeviceFeatures2 f = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12 };
   vkGetPhysicalDeviceFeatures2(pdev, &f);
   if (!f12.bufferDeviceAddress || !f12.timelineSemaphore || !f12.storageBuffer8BitAccess ||
       !f12.shaderInt8 || !f.features.shaderInt64) {
      cuvk_logi("skipping %s: needs bufferDeviceAddress, timelineSemaphore, "
                "storageBuffer8BitAccess, shaderInt8 and shaderInt64", name);
      goto out;
   }

   uint32_t qf_count = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(pdev, &qf_count, NULL);
   VkQueueFamilyProperties *qfs = calloc(qf_count ? qf_count : 1, sizeof(*qfs));
   if (!qfs)
      goto out;
   vkGetPhysicalDeviceQueueFamilyProperties(pdev, &qf_count, qfs);
   /* Prefer a compute family without graphics: on GPUs it is the async
    * compute queue, free of the display's work. */
   dev->queue_family = UINT32_MAX;
   for (int pass = 0; pass < 2 && dev->queue_family == UINT32_MAX; pass++) {
      for (uint32_t i = 0; i < qf_count; i++) {
         bool compute = qfs[i].queueFlags & VK_QUEUE_COMPUTE_BIT;
         bool graphics = qfs[i].queueFlags & VK_QUEUE_GRAPHICS_BIT;
         if (compute && (pass == 1 || !graphics)) {
            dev->queue_family = i;
            dev->queue_count = qfs[i].queueCount;
            dev->timestamp_valid_bits = qfs[i].timestampValidBits;
            break;
         }
      }
   }
   /* The copy-engine family, for transfer lanes (submit.c). */
   dev->transfer_family = UINT32_MAX;
   for (uint32_t i = 0; i < qf_count; i++) {
      if ((qfs[i].queueFlags & VK_QUEUE_TRANSFER_BIT) &&
          !(qfs[i].queueFlags & (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT)) && qfs[i].queueCount) {
         dev->transfer_family = i;
         dev->transfer_queue_count = qfs[i].queueCount;
         dev->transfer_granularity = qfs[i].minImageTransferGranularity;
         break;
      }
   }
   free(qfs);
   if (dev->queue_family == UINT32_MAX) {
      cuvk_logi("skipping %s: no compute queue", name);
      goto out;
   }

   VkPhysicalDeviceDriverProperties driver_props = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
   };
   VkPhysicalDeviceMaintenance3Properties maint3 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES,
      .pNext = &driver_props,
   };
   dev->id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
   dev->id.pNext = &maint3;
   dev->subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
   dev->subgroup.pNext = &dev->id;
   VkPhysicalDeviceExternalMemoryHostPropertiesEXT host_props = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT,
   };
   dev->pci.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT;
   void *chain = &dev->subgroup;
   if (dev->has_external_memory_host) {
      host_props.pNext = chain;
      chain = &host_props;
   }
   if (dev->has_pci_bus_info) {
      dev->pci.pNext = chain;
      chain = &dev->pci;
   }
   VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm_props = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV,
   };
   VkPhysicalDeviceShaderCorePropertiesAMD core_props = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD,
   };
   if (has_extension(exts, ext_count, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
      sm_props.pNext = chain;
      chain = &sm_props;
   }
   if (has_extension(exts, ext_count, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME)) {
      core_props.pNext = chain;
      chain = &core_props;
   }
   VkPhysicalDeviceProperties2 props2 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
      .pNext = chain,
   };
   vkGetPhysicalDeviceProperties2(pdev, &props2);
   dev->sm_count = sm_props.shaderSMCount ? sm_props.shaderSMCount
                                          : core_props.shaderEngineCount * core_props.shaderArraysPerEngineCount *
                                               core_props.computeUnitsPerShaderArray;
   dev->pci.pNext = NULL;
   dev->subgroup.pNext = NULL;
   dev->id.pNext = NULL;
   dev->max_allocation_size = maint3.maxMemoryAllocationSize;
   dev->driver_id = driver_props.driverID;
   dev->min_imported_host_alignment = host_props.minImportedHostPointerAlignment;

   vkGetPhysicalDeviceMemoryProperties(pdev, &dev->mem);
   device_choose_memory_types(dev, dev->has_memory_budget);
   if (dev->device_type_index == UINT32_MAX || dev->host_type_index == UINT32_MAX) {
      if (dev->device_type_index != UINT32_MAX)
         cuvk_mem_budget_finish(&dev->budget);
      cuvk_logi("skipping %s: no usable memory types", name);
      goto out;
   }

   const char *sparse_why;
   dev->sparse_reservations = cuvk_policy_sparse_reservations(pdev, dev->queue_family, &sparse_why);
   cuvk_logi("%s: reservations %s a sparse buffer: %s", name,
             dev->sparse_reservations ? "get" : "do not get", sparse_why);

   const char *bulk_why;
   dev->bulk_exportable = cuvk_policy_bulk_memory(dev->driver_id, &bulk_why);
   cuvk_logi("%s: allocations of %llu MiB and more %s: %s", name,
             (unsigned long long)(CUVK_POLICY_BULK_MIN_SIZE >> 20),
             dev->bulk_exportable ? "get exportable memory" : "share the device memory type",
             bulk_why);

   const char *read_only_why;
   dev->read_only_host_import = dev->has_external_memory_host &&
                                cuvk_policy_read_only_host_import(dev->driver_id, &read_only_why);
   if (dev->has_external_memory_host)
      cuvk_logi("%s: read-only host registration %s: %s", name,
                dev->read_only_host_import ? "allowed" : "refused", read_only_why);

   const char *probe_why;
   dev->import_size_probe = cuvk_policy_import_size_probe(dev->driver_id, &probe_why);
   cuvk_logd("%s: sizes of unrecorded VMM imports %s by trial imports: %s", name,
             dev->import_size_probe ? "found" : "not found", probe_why);

   pthread_mutex_init(&dev->primary_lock, NULL);
   ok = true;
out:
   free(exts);
   return ok;
}

static CUresult
driver_create_instance(void)
{
   VkExtensionProperties *exts = NULL;
   uint32_t ext_count = 0;
   const char *enabled[4];
   uint32_t enabled_count = 0;
   bool debug_utils = false;
   VkResult vr;

   uint32_t loader_version = VK_API_VERSION_1_0;
   vkEnumerateInstanceVersion(&loader_version);
   if (loader_version < VK_API_VERSION_1_2)
      return cuvk_error(CUDA_ERROR_NO_DEVICE, "the Vulkan loader supports only %u.%u; cuvk needs 1.2",
                        VK_API_VERSION_MAJOR(loader_version), VK_API_VERSION_MINOR(loader_version));
   cuvk_driver.api_version = loader_version >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;

   if (vkEnumerateInstanceExtensionProperties(NULL, &ext_count, NULL) == VK_SUCCESS && ext_count) {
      exts = calloc(ext_count, sizeof(*exts));
      if (exts && vkEnumerateInstanceExtensionProperties(NULL, &ext_count, exts) == VK_SUCCESS)
         debug_utils = has_extension(exts, ext_count, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
      free(exts);
   }
   if (debug_utils)
      enabled[enabled_count++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;

   VkApplicationInfo app = {
      .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
      .pApplicationName = "cuvk",
      .pEngineName = "cuvk",
      .engineVersion = VK_MAKE_VERSION(0, 1, 0),
      .apiVersion = cuvk_driver.api_version,
   };
   VkInstanceCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
      .pApplicationInfo = &app,
      .enabledExtensionCount = enabled_count,
      .ppEnabledExtensionNames = enabled,
   };
   vr = vkCreateInstance(&info, NULL, &cuvk_driver.instance);
   if (vr == VK_ERROR_INCOMPATIBLE_DRIVER)
      return cuvk_error(CUDA_ERROR_NO_DEVICE, "cuInit: the Vulkan loader found no driver");
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkCreateInstance");

   if (debug_utils) {
      PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)
         vkGetInstanceProcAddr(cuvk_driver.instance, "vkCreateDebugUtilsMessengerEXT");
      VkDebugUtilsMessengerCreateInfoEXT minfo = {
         .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
         .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
         .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                        VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                        VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
         .pfnUserCallback = driver_debug_callback,
         .pUserData = &cuvk_driver.validation_fatal,
      };
      const char *fatal = getenv("CUVK_VALIDATION_FATAL");
      cuvk_driver.validation_fatal = fatal && strcmp(fatal, "0") != 0;
      if (create)
         create(cuvk_driver.instance, &minfo, NULL, &cuvk_driver.messenger);
   }

   /* The layer lives in this very library; whether the loader put it in
    * the application's instances is what VK_INSTANCE_LAYERS says. */
   const char *layers = getenv("VK_INSTANCE_LAYERS");
   cuvk_driver.layer_active = layers && strstr(layers, "VK_LAYER_CUVK_interop");
   return CUDA_SUCCESS;
}

static CUresult
driver_enumerate_devices(void)
{
   VkPhysicalDevice *pdevs = NULL;
   uint32_t count = 0;
   VkResult vr;

   vr = vkEnumeratePhysicalDevices(cuvk_driver.instance, &count, NULL);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkEnumeratePhysicalDevices");
   if (count == 0)
      return CUDA_SUCCESS;

   pdevs = calloc(count, sizeof(*pdevs));
   cuvk_driver.devices = calloc(count, sizeof(*cuvk_driver.devices));
   if (!pdevs || !cuvk_driver.devices) {
      free(pdevs);
      free(cuvk_driver.devices);
      cuvk_driver.devices = NULL;
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory listing devices");
   }
   vr = vkEnumeratePhysicalDevices(cuvk_driver.instance, &count, pdevs);
   if (vr != VK_SUCCESS && vr != VK_INCOMPLETE) {
      free(pdevs);
      return cuvk_vk_error(vr, "vkEnumeratePhysicalDevices");
   }

   for (uint32_t i = 0; i < count; i++) {
      struct cuvk_device *dev = &cuvk_driver.devices[cuvk_driver.device_count];
      if (device_probe(pdevs[i], dev)) {
         dev->ordinal = cuvk_driver.device_count++;
         cuvk_logi("device %d: %s", dev->ordinal, dev->props.deviceName);
      }
   }
   free(pdevs);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuInit(unsigned int flags)
{
   CUresult res;

   if (flags != 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuInit: flags must be 0, got 0x%x", flags);

   if (__atomic_load_n(&driver_ready, __ATOMIC_ACQUIRE))
      return CUDA_SUCCESS;

   pthread_mutex_lock(&driver_lock);
   if (driver_init_tried) {
      res = driver_init_result;
      pthread_mutex_unlock(&driver_lock);
      return res;
   }
   driver_init_tried = true;

   res = driver_create_instance();
   if (res == CUDA_SUCCESS)
      res = driver_enumerate_devices();
   if (res == CUDA_SUCCESS && cuvk_driver.device_count == 0)
      res = cuvk_error(CUDA_ERROR_NO_DEVICE,
                       "cuInit: no Vulkan device has what cuvk needs (CUVK_LOG=info says why)");

   driver_init_result = res;
   if (res == CUDA_SUCCESS)
      __atomic_store_n(&driver_ready, 1, __ATOMIC_RELEASE);
   pthread_mutex_unlock(&driver_lock);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuDriverGetVersion(int *version)
{
   if (!version)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDriverGetVersion: version is NULL");
   *version = CUDA_VERSION;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuGetErrorName(CUresult error, const char **str)
{
   const char *name;

   if (!str)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGetErrorName: output is NULL");
   name = cuvk_result_name(error);
   if (!name) {
      *str = NULL;
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGetErrorName: %d is not a CUresult", (int)error);
   }
   *str = name;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuGetErrorString(CUresult error, const char **str)
{
   const char *desc;

   if (!str)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGetErrorString: output is NULL");
   desc = cuvk_result_string(error);
   if (!desc) {
      *str = NULL;
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGetErrorString: %d is not a CUresult", (int)error);
   }
   *str = desc;
   return CUDA_SUCCESS;
}
