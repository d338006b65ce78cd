/*
 * cuvk-info: what cuvk sees on this machine, in the manner of
 * `vulkaninfo --summary`.
 *
 * Every Vulkan physical device is listed, whether cuvk can use it or not.
 * The tool enumerates Vulkan on its own instance and repeats the checks of
 * cuInit's device probe (src/cuda_api/driver.c) so it can say why a device
 * is not a CUDA device; it then calls cuInit and matches cuvk's devices to
 * the Vulkan ones by UUID (cuDeviceGetUuid returns the Vulkan deviceUUID).
 *
 *    cuvk-info           a readable summary
 *    cuvk-info --json    the same as one JSON object on stdout
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <vulkan/vulkan.h>

#include "tool_util.h"
#include "util/device_policy.h"
#include "util/host_copy.h"

#ifndef CUVK_VERSION
#define CUVK_VERSION "unknown"
#endif

#define INFO_LAYER_NAME "VK_LAYER_CUVK_interop"
#define INFO_MAX_REASONS 8
#define INFO_MAX_QUEUE_FAMILIES 16

/* The buffer usage cuvk creates its buffers with (src/mem/block_heap.c,
 * src/cuda_api/external_memory.c): what external memory must allow. */
#define INFO_CUVK_BUFFER_USAGE                                             \
   (VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
    VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT)

struct info_handle_type {
   const char *name;
   const char *json_name;
   VkExternalMemoryHandleTypeFlagBits bit;
   /* The device extension the handle type needs beyond
    * VK_KHR_external_memory_fd; NULL for none. */
   const char *extension;
};

static const struct info_handle_type info_handle_types[] = {
   { "OPAQUE_FD", "opaque_fd", VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
     VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME },
   { "DMA_BUF", "dma_buf", VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT,
     VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME },
   { "HOST_ALLOCATION", "host_allocation", VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
     VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME },
};

#define INFO_HANDLE_TYPE_COUNT TOOL_ARRAY_SIZE(info_handle_types)

struct info_external {
   bool has_extension;
   VkExternalMemoryProperties props;
};

struct info_device {
   VkPhysicalDevice pdev;
   VkPhysicalDeviceProperties props;
   VkPhysicalDeviceMemoryProperties mem;
   bool has_id;
   VkPhysicalDeviceIDProperties id;
   bool has_driver_props;
   VkPhysicalDeviceDriverProperties driver;

   /* cuvk's view: the CUDA ordinal, or -1 and the reasons. */
   int cuda_ordinal;
   bool passes_probe;
   char reasons[INFO_MAX_REASONS][192];
   unsigned reason_count;

   uint32_t queue_family;
   /* Every queue family, for issue 12's lanes: which can take copies
    * beside the compute family, and how many queues each has. */
   uint32_t qf_count;
   VkQueueFamilyProperties qfs[INFO_MAX_QUEUE_FAMILIES];
   bool global_priority;     /* VK_KHR_ or VK_EXT_global_priority */
   uint32_t device_type_index;
   uint32_t host_type_index;

   struct info_external external[INFO_HANDLE_TYPE_COUNT];
   bool has_external_memory_host;
   VkDeviceSize min_imported_host_alignment;

   bool sparse_binding;
   bool sparse_residency_buffer;
   bool sparse_queue;
   bool sparse_reservations;
   const char *sparse_reservations_why;

   const char *copy_engine;
   const char *copy_engine_why;
   const char *fill_engine;
   const char *fill_engine_why;
   bool bulk_exportable;
   const char *bulk_why;
   const char *pageable_path;
   const char *pageable_why;
};

struct info {
   uint32_t loader_version;
   int driver_version;
   CUresult init_result;
   int cuda_device_count;
   bool layer_available;
   char layer_description[VK_MAX_DESCRIPTION_SIZE];
   uint32_t layer_impl_version;
   bool layer_active;
   const char *copy_engine_env;
   const char *fill_engine_env;
   const char *no_device_message;
   uint32_t device_count;
   struct info_device *devices;
};

static void
info_add_reason(struct info_device *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
info_add_reason(struct info_device *d, const char *fmt, ...)
{
   va_list ap;

   if (d->reason_count >= INFO_MAX_REASONS)
      return;
   va_start(ap, fmt);
   vsnprintf(d->reasons[d->reason_count++], sizeof(d->reasons[0]), fmt, ap);
   va_end(ap);
}

/* Gathers everything about one physical device and repeats cuvk's probe,
 * recording every reason it would refuse the device rather than the
 * first. */
static void
info_query_device(struct info_device *d, VkPhysicalDevice pdev)
{
   VkExtensionProperties *exts;
   uint32_t ext_count = 0;
   bool is_12;

   memset(d, 0, sizeof(*d));
   d->pdev = pdev;
   d->cuda_ordinal = -1;
   d->queue_family = UINT32_MAX;
   vkGetPhysicalDeviceProperties(pdev, &d->props);
   vkGetPhysicalDeviceMemoryProperties(pdev, &d->mem);
   is_12 = d->props.apiVersion >= VK_API_VERSION_1_2;

   exts = tool_vk_device_extensions(pdev, &ext_count);
   if (!exts)
      info_add_reason(d, "vkEnumerateDeviceExtensionProperties failed");

   /* Structures of 1.1 and 1.2 may only be chained where the device
    * supports that version (or, for driver properties, the extension). */
   d->has_id = d->props.apiVersion >= VK_API_VERSION_1_1;
   d->has_driver_props = is_12 || tool_vk_has_extension(exts, ext_count,
                                                        VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME);
   d->has_external_memory_host = tool_vk_has_extension(exts, ext_count,
                                                       VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
   d->global_priority = tool_vk_has_extension(exts, ext_count, "VK_KHR_global_priority") ||
                        tool_vk_has_extension(exts, ext_count, "VK_EXT_global_priority");
   VkPhysicalDeviceExternalMemoryHostPropertiesEXT host_props = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT,
   };
   d->id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
   d->driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
   void *chain = NULL;
   if (d->has_id) {
      d->id.pNext = chain;
      chain = &d->id;
   }
   if (d->has_driver_props) {
      d->driver.pNext = chain;
      chain = &d->driver;
   }
   if (d->has_external_memory_host) {
      host_props.pNext = chain;
      chain = &host_props;
   }
   if (chain) {
      VkPhysicalDeviceProperties2 props2 = {
         .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
         .pNext = chain,
      };
      vkGetPhysicalDeviceProperties2(pdev, &props2);
   }
   d->id.pNext = NULL;
   d->driver.pNext = NULL;
   d->min_imported_host_alignment = host_props.minImportedHostPointerAlignment;

   /* cuvk's probe, step by step. */
   if (!is_12)
      info_add_reason(d, "Vulkan %u.%u; cuvk needs 1.2", VK_API_VERSION_MAJOR(d->props.apiVersion),
                      VK_API_VERSION_MINOR(d->props.apiVersion));
   if (exts && !tool_vk_has_extension(exts, ext_count, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME))
      info_add_reason(d, "no %s", VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);

   VkPhysicalDeviceVulkan12Features f12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
   };
   VkPhysicalDeviceFeatures2 f = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
      .pNext = is_12 ? &f12 : NULL,
   };
   vkGetPhysicalDeviceFeatures2(pdev, &f);
   if (is_12) {
      const struct {
         const char *name;
         VkBool32 value;
      } needed[] = {
         { "bufferDeviceAddress", f12.bufferDeviceAddress },
         { "timelineSemaphore", f12.timelineSemaphore },
         { "storageBuffer8BitAccess", f12.storageBuffer8BitAccess },
         { "shaderInt8", f12.shaderInt8 },
         { "shaderInt64", f.features.shaderInt64 },
      };
      char missing[160] = "";
      for (unsigned i = 0; i < TOOL_ARRAY_SIZE(needed); i++) {
         if (!needed[i].value) {
            size_t len = strlen(missing);
            snprintf(missing + len, sizeof(missing) - len, "%s%s", len ? ", " : "", needed[i].name);
         }
      }
      if (missing[0])
         info_add_reason(d, "missing feature(s): %s", missing);
   }
   d->sparse_binding = f.features.sparseBinding;
   d->sparse_residency_buffer = f.features.sparseResidencyBuffer;

   uint32_t qf_count = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(pdev, &qf_count, NULL);
   VkQueueFamilyProperties *qfs = calloc(qf_count ? qf_count : 1, sizeof(*qfs));
   if (qfs) {
      vkGetPhysicalDeviceQueueFamilyProperties(pdev, &qf_count, qfs);
      for (int pass = 0; pass < 2 && d->queue_family == UINT32_MAX; pass++) {
         for (uint32_t i = 0; i < qf_count; i++) {
            bool compute = qfs[i].queueFlags & VK_QUEUE_COMPUTE_BIT;
            bool graphics = qfs[i].queueFlags & VK_QUEUE_GRAPHICS_BIT;
            if (compute && (pass == 1 || !graphics)) {
               d->queue_family = i;
               break;
            }
         }
      }
      for (uint32_t i = 0; i < qf_count; i++)
         d->sparse_queue |= (qfs[i].queueFlags & VK_QUEUE_SPARSE_BINDING_BIT) != 0;
      d->qf_count = TOOL_MIN(qf_count, INFO_MAX_QUEUE_FAMILIES);
      memcpy(d->qfs, qfs, d->qf_count * sizeof(*qfs));
      free(qfs);
   }
   if (d->queue_family == UINT32_MAX)
      info_add_reason(d, "no compute queue");

   cuvk_policy_memory_types(&d->mem, &d->device_type_index, &d->host_type_index);
   if (d->device_type_index == UINT32_MAX || d->host_type_index == UINT32_MAX)
      info_add_reason(d, "no usable memory types");
   d->passes_probe = d->reason_count == 0;

   /* External memory for buffers made the way cuvk makes them. */
   if (d->props.apiVersion >= VK_API_VERSION_1_1) {
      for (unsigned t = 0; t < INFO_HANDLE_TYPE_COUNT; t++) {
         struct info_external *e = &d->external[t];
         e->has_extension = tool_vk_has_extension(exts, ext_count, info_handle_types[t].extension);
         if (!e->has_extension)
            continue;
         VkPhysicalDeviceExternalBufferInfo binfo = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO,
            .usage = is_12 ? INFO_CUVK_BUFFER_USAGE
                           : INFO_CUVK_BUFFER_USAGE & ~VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
            .handleType = info_handle_types[t].bit,
         };
         VkExternalBufferProperties bprops = {
            .sType = VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES,
         };
         vkGetPhysicalDeviceExternalBufferProperties(pdev, &binfo, &bprops);
         e->props = bprops.externalMemoryProperties;
      }
   }

   if (d->queue_family != UINT32_MAX)
      d->sparse_reservations = cuvk_policy_sparse_reservations(pdev, d->queue_family,
                                                               &d->sparse_reservations_why);
   else
      d->sparse_reservations_why = "no compute queue";
   d->copy_engine = cuvk_policy_transfer_engine(d->props.deviceType, &d->copy_engine_why)
                       ? "transfer" : "compute";
   d->fill_engine = cuvk_policy_fill_transfer(d->props.deviceType, &d->fill_engine_why)
                       ? "transfer" : "compute";
   d->bulk_exportable = cuvk_policy_bulk_memory(d->driver.driverID, &d->bulk_why);
   static const char *const paths[] = {
      [CUVK_PAGEABLE_AUTO] = "auto",
      [CUVK_PAGEABLE_STAGED] = "staged",
      [CUVK_PAGEABLE_IMPORT] = "import",
   };
   d->pageable_path = paths[cuvk_policy_pageable_path(&d->pageable_why)];
   free(exts);
}

static bool
info_env_names_layer(const char *env, const char *layer)
{
   size_t len = strlen(layer);

   /* A list separated by ':' (';' on Windows); match whole names only. */
   for (const char *p = env; p && *p;) {
      const char *end = p + strcspn(p, ":;");
      if ((size_t)(end - p) == len && strncmp(p, layer, len) == 0)
         return true;
      p = *end ? end + 1 : end;
   }
   return false;
}

static void
info_query_layer(struct info *info)
{
   VkLayerProperties *layers = NULL;
   uint32_t count = 0;

   if (vkEnumerateInstanceLayerProperties(&count, NULL) == VK_SUCCESS && count) {
      layers = calloc(count, sizeof(*layers));
      if (layers && vkEnumerateInstanceLayerProperties(&count, layers) == VK_SUCCESS) {
         for (uint32_t i = 0; i < count; i++) {
            if (strcmp(layers[i].layerName, INFO_LAYER_NAME) == 0) {
               info->layer_available = true;
               info->layer_impl_version = layers[i].implementationVersion;
               snprintf(info->layer_description, sizeof(info->layer_description), "%s",
                        layers[i].description);
               break;
            }
         }
      }
      free(layers);
   }
   info->layer_active = info_env_names_layer(getenv("VK_INSTANCE_LAYERS"), INFO_LAYER_NAME);
}

static void
info_match_cuda_devices(struct info *info)
{
   info->init_result = cuInit(0);
   if (info->init_result != CUDA_SUCCESS)
      return;
   if (cuDeviceGetCount(&info->cuda_device_count) != CUDA_SUCCESS)
      return;
   for (int o = 0; o < info->cuda_device_count; o++) {
      CUuuid uuid;
      if (cuDeviceGetUuid(&uuid, o) != CUDA_SUCCESS)
         continue;
      for (uint32_t i = 0; i < info->device_count; i++) {
         struct info_device *d = &info->devices[i];
         if (d->has_id && memcmp(d->id.deviceUUID, uuid.bytes, VK_UUID_SIZE) == 0) {
            d->cuda_ordinal = o;
            break;
         }
      }
   }
}

/* ---- Output ---- */

static const char *
info_result_name(CUresult r)
{
   const char *name = NULL;
   if (cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
      return "CUDA_ERROR_UNKNOWN";
   return name;
}

static void
info_format_version(uint32_t v, char *out, size_t len)
{
   snprintf(out, len, "%u.%u.%u", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v),
            VK_API_VERSION_PATCH(v));
}

static const struct {
   VkMemoryPropertyFlags bit;
   const char *name;
} info_memory_flags[] = {
   { VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, "device-local" },
   { VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, "host-visible" },
   { VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, "host-coherent" },
   { VK_MEMORY_PROPERTY_HOST_CACHED_BIT, "host-cached" },
   { VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT, "lazily-allocated" },
   { VK_MEMORY_PROPERTY_PROTECTED_BIT, "protected" },
   { VK_MEMORY_PROPERTY_DEVICE_COHERENT_BIT_AMD, "device-coherent-amd" },
   { VK_MEMORY_PROPERTY_DEVICE_UNCACHED_BIT_AMD, "device-uncached-amd" },
   { VK_MEMORY_PROPERTY_RDMA_CAPABLE_BIT_NV, "rdma-capable-nv" },
};

/* Why the device is not a cuvk device, as one line. */
static void
info_why_not(const struct info *info, const struct info_device *d, char *out, size_t len)
{
   size_t used = 0;

   out[0] = '\0';
   if (d->passes_probe) {
      if (info->init_result != CUDA_SUCCESS)
         snprintf(out, len, "passes cuvk's checks, but cuInit failed: %s",
                  info_result_name(info->init_result));
      else
         snprintf(out, len, "passes cuvk's checks, but cuInit did not list it");
      return;
   }
   for (unsigned i = 0; i < d->reason_count && used < len; i++)
      used += snprintf(out + used, len - used, "%s%s", i ? "; " : "", d->reasons[i]);
}

/* The lanes a context on d gets (cuvk_policy_lanes): the copy-engine
 * family is the first with TRANSFER and neither COMPUTE nor GRAPHICS, as
 * in cuvk's driver.c. */
static void
info_lane_plan(const struct info_device *d, struct cuvk_lane_plan *plan)
{
   uint32_t transfer = UINT32_MAX;
   for (uint32_t q = 0; q < d->qf_count && transfer == UINT32_MAX; q++)
      if ((d->qfs[q].queueFlags & VK_QUEUE_TRANSFER_BIT) &&
          !(d->qfs[q].queueFlags & (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT)) && d->qfs[q].queueCount)
         transfer = q;
   cuvk_policy_lanes(d->queue_family, d->qfs[d->queue_family].queueCount, transfer,
                     transfer == UINT32_MAX ? 0 : d->qfs[transfer].queueCount, plan);
}

/* "compute|transfer|sparse": the queue flags cuvk's lanes care about. */
static void
info_queue_flags(VkQueueFlags flags, char *out, size_t len)
{
   static const struct {
      VkQueueFlags bit;
      const char *name;
   } names[] = {
      { VK_QUEUE_GRAPHICS_BIT, "graphics" },
      { VK_QUEUE_COMPUTE_BIT, "compute" },
      { VK_QUEUE_TRANSFER_BIT, "transfer" },
      { VK_QUEUE_SPARSE_BINDING_BIT, "sparse" },
      { VK_QUEUE_PROTECTED_BIT, "protected" },
      { 0x20 /* VK_QUEUE_VIDEO_DECODE_BIT_KHR */, "video_decode" },
      { 0x40 /* VK_QUEUE_VIDEO_ENCODE_BIT_KHR */, "video_encode" },
   };
   size_t used = 0;

   out[0] = '\0';
   for (size_t i = 0; i < TOOL_ARRAY_SIZE(names); i++)
      if ((flags & names[i].bit) && used < len)
         used += (size_t)snprintf(out + used, len - used, "%s%s", used ? "|" : "", names[i].name);
   if (!out[0])
      snprintf(out, len, "none");
}

static void
info_print_handle_props(const VkExternalMemoryProperties *p)
{
   VkExternalMemoryFeatureFlags f = p->externalMemoryFeatures;
   bool any = false;

   if (f & VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT) {
      printf("exportable");
      any = true;
   }
   if (f & VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT) {
      printf("%simportable", any ? ", " : "");
      any = true;
   }
   if (!any)
      printf("not supported for cuvk's buffers");
   if (f & VK_EXTERNAL_MEMORY_FEATURE_DEDICATED_ONLY_BIT)
      printf(", dedicated allocations only");
   printf("\n");
}

static void
info_print_text(const struct info *info)
{
   char buf[512];

   info_format_version(info->loader_version, buf, sizeof(buf));
   printf("cuvk %s, CUDA driver API %d.%d, Vulkan loader %s\n", CUVK_VERSION,
          info->driver_version / 1000, info->driver_version % 1000 / 10, buf);
   printf("cuInit: %s", info_result_name(info->init_result));
   if (info->init_result == CUDA_SUCCESS)
      printf(", %d CUDA device%s", info->cuda_device_count, info->cuda_device_count == 1 ? "" : "s");
   printf("\n");
   if (info->layer_available)
      printf("layer %s: available (version %u), %s\n", INFO_LAYER_NAME, info->layer_impl_version,
             info->layer_active ? "active (VK_INSTANCE_LAYERS names it)"
                                : "not active (add it to VK_INSTANCE_LAYERS)");
   else
      printf("layer %s: not found by the loader (VK_ADD_LAYER_PATH=<cuvk's layer folder>)%s\n",
             INFO_LAYER_NAME,
             info->layer_active ? "; VK_INSTANCE_LAYERS names it, so instances will fail" : "");
   if (info->copy_engine_env)
      printf("CUVK_COPY_ENGINE=%s\n", info->copy_engine_env);
   if (info->fill_engine_env)
      printf("CUVK_FILL_ENGINE=%s\n", info->fill_engine_env);

   if (info->no_device_message) {
      printf("\n%s\n", info->no_device_message);
      return;
   }

   for (uint32_t i = 0; i < info->device_count; i++) {
      const struct info_device *d = &info->devices[i];

      printf("\nVulkan device %u: %s\n", i, d->props.deviceName);
      if (d->cuda_ordinal >= 0) {
         int sms = 0;
         cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d->cuda_ordinal);
         printf("   cuvk:           CUDA device %d, %d multiprocessor%s\n", d->cuda_ordinal, sms,
                sms == 1 ? "" : "s");
      } else {
         info_why_not(info, d, buf, sizeof(buf));
         printf("   cuvk:           not a cuvk device: %s\n", buf);
      }
      if (d->has_id) {
         tool_format_uuid(d->id.deviceUUID, buf);
         printf("   UUID:           %s\n", buf);
      }
      if (d->has_driver_props)
         printf("   driver:         %s (%s)\n", d->driver.driverName, d->driver.driverInfo);
      info_format_version(d->props.apiVersion, buf, sizeof(buf));
      printf("   Vulkan API:     %s\n", buf);
      printf("   type:           %s\n", tool_vk_device_type_name(d->props.deviceType));

      for (uint32_t h = 0; h < d->mem.memoryHeapCount; h++) {
         tool_format_size(d->mem.memoryHeaps[h].size, buf, sizeof(buf));
         printf("   %-16s%u: %s%s\n", h ? "" : "memory heaps:", h, buf,
                (d->mem.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) ? ", device-local" : "");
      }
      for (uint32_t t = 0; t < d->mem.memoryTypeCount; t++) {
         VkMemoryPropertyFlags flags = d->mem.memoryTypes[t].propertyFlags;
         printf("   %-16s%u: heap %u,", t ? "" : "memory types:", t, d->mem.memoryTypes[t].heapIndex);
         if (!flags)
            printf(" (no flags)");
         for (unsigned b = 0; b < TOOL_ARRAY_SIZE(info_memory_flags); b++)
            if (flags & info_memory_flags[b].bit)
               printf(" %s", info_memory_flags[b].name);
         printf("\n");
      }
      if (d->passes_probe)
         printf("   cuvk memory:    device allocations type %u, pinned host memory type %u\n",
                d->device_type_index, d->host_type_index);
      printf("   external memory for buffers:\n");
      for (unsigned t = 0; t < INFO_HANDLE_TYPE_COUNT; t++) {
         printf("      %-16s ", info_handle_types[t].name);
         if (!d->external[t].has_extension)
            printf("no %s\n", info_handle_types[t].extension);
         else
            info_print_handle_props(&d->external[t].props);
      }
      if (d->has_external_memory_host)
         printf("   VK_EXT_external_memory_host: yes, host pointers aligned to %" PRIu64 " bytes\n",
                (uint64_t)d->min_imported_host_alignment);
      else
         printf("   VK_EXT_external_memory_host: no\n");
      printf("   sparse binding: %s (sparseResidencyBuffer %s, sparse queue %s)\n",
             d->sparse_binding ? "yes" : "no", d->sparse_residency_buffer ? "yes" : "no",
             d->sparse_queue ? "yes" : "no");
      printf("   reservations:   %s (%s)\n",
             d->sparse_reservations ? "one sparse buffer each" : "one buffer per mapping",
             d->sparse_reservations_why);
      printf("   copy engine:    %s (%s)\n", d->copy_engine, d->copy_engine_why);
      printf("   fill engine:    %s (%s)\n", d->fill_engine, d->fill_engine_why);
      printf("   allocations of %llu MiB and more: %s (%s)\n",
             (unsigned long long)(CUVK_POLICY_BULK_MIN_SIZE >> 20),
             d->bulk_exportable ? "exportable memory" : "device memory", d->bulk_why);
      printf("   pageable copies: %s (%s); CPU copies on %u thread(s)\n", d->pageable_path, d->pageable_why,
             cuvk_host_copy_threads());
      printf("   queue families (global priority %s):\n", d->global_priority ? "offered" : "not offered");
      for (uint32_t q = 0; q < d->qf_count; q++) {
         char flags[128];
         info_queue_flags(d->qfs[q].queueFlags, flags, sizeof(flags));
         printf("      %u: %2u x %-40s timestamps %u bits%s\n", q, d->qfs[q].queueCount, flags,
                d->qfs[q].timestampValidBits, q == d->queue_family ? "  (cuvk's)" : "");
      }
      if (d->queue_family != UINT32_MAX) {
         struct cuvk_lane_plan plan;
         info_lane_plan(d, &plan);
         printf("   lanes:          %u on %u queue%s%s\n", plan.lane_count, plan.queue_count,
                plan.queue_count == 1 ? "" : "s", plan.virtual_lanes ? " (some shared)" : "");
         printf("   transfer lanes: %u, %s\n", plan.transfer_lane_count, plan.transfer_why);
         if (plan.high_lane == UINT32_MAX)
            printf("   priorities:     accepted, no effect (no queue to spare for a high-priority lane)\n");
         else if (plan.virtual_lanes)
            printf("   priorities:     lane %u for priority < 0, on a shared queue (routing only)\n",
                   plan.high_lane);
         else
            printf("   priorities:     lane %u for priority < 0, its queue at priority %.1f, the others' %.1f; "
                   "global priority unused (one per queue family)\n", plan.high_lane,
                   (double)plan.queue_priority[plan.lane_queue[plan.high_lane]],
                   (double)plan.queue_priority[0]);
         /* The command ring (cuda_api/ring.h): policy, then a queue. */
         bool bar = cuvk_policy_ring_memory_type(&d->mem) != UINT32_MAX;
         const char *why;
         bool ring = cuvk_policy_ring(bar, &why);
         if (ring)
            cuvk_policy_ring_queue(&plan, d->queue_family, d->qfs[d->queue_family].queueCount);
         printf("   command ring:   %s%s\n", why,
                !ring ? "" : plan.ring_shared ? ", on lane 0's queue" : ", on a queue of its own");
      }
   }
}

static void
info_json_handle_bits(struct tool_json *j, const char *key, VkExternalMemoryHandleTypeFlags bits)
{
   static const struct {
      VkExternalMemoryHandleTypeFlagBits bit;
      const char *name;
   } names[] = {
      { VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, "opaque_fd" },
      { VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT, "dma_buf" },
      { VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, "host_allocation" },
      { VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_MAPPED_FOREIGN_MEMORY_BIT_EXT, "host_mapped_foreign_memory" },
   };
   tool_json_array_begin(j, key);
   for (unsigned i = 0; i < TOOL_ARRAY_SIZE(names); i++)
      if (bits & names[i].bit)
         tool_json_string(j, NULL, names[i].name);
   tool_json_array_end(j);
}

static void
info_print_json(const struct info *info)
{
   struct tool_json j;
   char buf[512];

   tool_json_init(&j, stdout);
   tool_json_object_begin(&j, NULL);
   tool_json_string(&j, "cuvk_version", CUVK_VERSION);
   tool_json_int(&j, "cuda_driver_version", info->driver_version);
   info_format_version(info->loader_version, buf, sizeof(buf));
   tool_json_string(&j, "vulkan_loader_version", buf);
   tool_json_object_begin(&j, "cuinit");
   tool_json_string(&j, "result", info_result_name(info->init_result));
   tool_json_int(&j, "device_count", info->cuda_device_count);
   tool_json_object_end(&j);
   tool_json_object_begin(&j, "layer");
   tool_json_string(&j, "name", INFO_LAYER_NAME);
   tool_json_bool(&j, "available", info->layer_available);
   tool_json_bool(&j, "active", info->layer_active);
   tool_json_object_end(&j);
   tool_json_string(&j, "copy_engine_env", info->copy_engine_env);
   tool_json_string(&j, "fill_engine_env", info->fill_engine_env);
   tool_json_string(&j, "message", info->no_device_message);

   tool_json_array_begin(&j, "devices");
   for (uint32_t i = 0; i < info->device_count; i++) {
      const struct info_device *d = &info->devices[i];

      tool_json_object_begin(&j, NULL);
      tool_json_uint(&j, "index", i);
      tool_json_string(&j, "name", d->props.deviceName);
      if (d->cuda_ordinal >= 0) {
         tool_json_int(&j, "cuda_ordinal", d->cuda_ordinal);
         tool_json_null(&j, "not_cuvk_device_reason");
      } else {
         tool_json_null(&j, "cuda_ordinal");
         info_why_not(info, d, buf, sizeof(buf));
         tool_json_string(&j, "not_cuvk_device_reason", buf);
      }
      tool_json_bool(&j, "passes_cuvk_checks", d->passes_probe);
      if (d->has_id) {
         tool_format_uuid(d->id.deviceUUID, buf);
         tool_json_string(&j, "uuid", buf);
      } else {
         tool_json_null(&j, "uuid");
      }
      tool_json_object_begin(&j, "driver");
      if (d->has_driver_props) {
         tool_json_uint(&j, "id", d->driver.driverID);
         tool_json_string(&j, "name", d->driver.driverName);
         tool_json_string(&j, "info", d->driver.driverInfo);
      }
      tool_json_uint(&j, "version", d->props.driverVersion);
      tool_json_object_end(&j);
      info_format_version(d->props.apiVersion, buf, sizeof(buf));
      tool_json_string(&j, "api_version", buf);
      tool_json_string(&j, "type", tool_vk_device_type_name(d->props.deviceType));

      tool_json_array_begin(&j, "memory_heaps");
      for (uint32_t h = 0; h < d->mem.memoryHeapCount; h++) {
         tool_json_object_begin(&j, NULL);
         tool_json_uint(&j, "index", h);
         tool_json_uint(&j, "size", d->mem.memoryHeaps[h].size);
         tool_json_bool(&j, "device_local",
                        d->mem.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT);
         tool_json_object_end(&j);
      }
      tool_json_array_end(&j);
      tool_json_array_begin(&j, "memory_types");
      for (uint32_t t = 0; t < d->mem.memoryTypeCount; t++) {
         tool_json_object_begin(&j, NULL);
         tool_json_uint(&j, "index", t);
         tool_json_uint(&j, "heap", d->mem.memoryTypes[t].heapIndex);
         tool_json_array_begin(&j, "flags");
         for (unsigned b = 0; b < TOOL_ARRAY_SIZE(info_memory_flags); b++)
            if (d->mem.memoryTypes[t].propertyFlags & info_memory_flags[b].bit)
               tool_json_string(&j, NULL, info_memory_flags[b].name);
         tool_json_array_end(&j);
         tool_json_object_end(&j);
      }
      tool_json_array_end(&j);
      tool_json_object_begin(&j, "cuvk_memory_types");
      if (d->passes_probe) {
         tool_json_uint(&j, "device", d->device_type_index);
         tool_json_uint(&j, "pinned_host", d->host_type_index);
      }
      tool_json_object_end(&j);

      tool_json_object_begin(&j, "external_memory_buffers");
      for (unsigned t = 0; t < INFO_HANDLE_TYPE_COUNT; t++) {
         const struct info_external *e = &d->external[t];
         VkExternalMemoryFeatureFlags f = e->props.externalMemoryFeatures;
         tool_json_object_begin(&j, info_handle_types[t].json_name);
         tool_json_string(&j, "extension", info_handle_types[t].extension);
         tool_json_bool(&j, "extension_present", e->has_extension);
         tool_json_bool(&j, "exportable", f & VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT);
         tool_json_bool(&j, "importable", f & VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT);
         tool_json_bool(&j, "dedicated_only", f & VK_EXTERNAL_MEMORY_FEATURE_DEDICATED_ONLY_BIT);
         info_json_handle_bits(&j, "compatible", e->props.compatibleHandleTypes);
         info_json_handle_bits(&j, "export_from_imported", e->props.exportFromImportedHandleTypes);
         tool_json_object_end(&j);
      }
      tool_json_object_end(&j);
      tool_json_object_begin(&j, "external_memory_host");
      tool_json_bool(&j, "supported", d->has_external_memory_host);
      tool_json_uint(&j, "min_imported_host_pointer_alignment", d->min_imported_host_alignment);
      tool_json_object_end(&j);
      tool_json_object_begin(&j, "sparse");
      tool_json_bool(&j, "binding", d->sparse_binding);
      tool_json_bool(&j, "residency_buffer", d->sparse_residency_buffer);
      tool_json_bool(&j, "sparse_binding_queue", d->sparse_queue);
      tool_json_bool(&j, "reservations", d->sparse_reservations);
      tool_json_string(&j, "reservations_reason", d->sparse_reservations_why);
      tool_json_object_end(&j);
      tool_json_bool(&j, "global_priority", d->global_priority);
      tool_json_array_begin(&j, "queue_families");
      for (uint32_t q = 0; q < d->qf_count; q++) {
         char flags[128];
         info_queue_flags(d->qfs[q].queueFlags, flags, sizeof(flags));
         tool_json_object_begin(&j, NULL);
         tool_json_uint(&j, "index", q);
         tool_json_string(&j, "flags", flags);
         tool_json_uint(&j, "queue_count", d->qfs[q].queueCount);
         tool_json_uint(&j, "timestamp_valid_bits", d->qfs[q].timestampValidBits);
         tool_json_bool(&j, "used_by_cuvk", q == d->queue_family);
         tool_json_object_end(&j);
      }
      tool_json_array_end(&j);
      if (d->queue_family != UINT32_MAX) {
         struct cuvk_lane_plan plan;
         info_lane_plan(d, &plan);
         tool_json_object_begin(&j, "lanes");
         tool_json_uint(&j, "count", plan.lane_count);
         tool_json_uint(&j, "queues", plan.queue_count);
         tool_json_bool(&j, "shared_queues", plan.virtual_lanes);
         tool_json_bool(&j, "high_priority_lane", plan.high_lane != UINT32_MAX);
         tool_json_bool(&j, "high_priority_queue", plan.high_lane != UINT32_MAX && !plan.virtual_lanes);
         tool_json_uint(&j, "transfer_lanes", plan.transfer_lane_count);
         tool_json_string(&j, "transfer_reason", plan.transfer_why);
         tool_json_object_end(&j);
      }
      tool_json_object_begin(&j, "copy_engine");
      tool_json_string(&j, "engine", d->copy_engine);
      tool_json_string(&j, "reason", d->copy_engine_why);
      tool_json_object_end(&j);
      tool_json_object_begin(&j, "fill_engine");
      tool_json_string(&j, "engine", d->fill_engine);
      tool_json_string(&j, "reason", d->fill_engine_why);
      tool_json_object_end(&j);
      tool_json_object_begin(&j, "bulk_memory");
      tool_json_bool(&j, "exportable", d->bulk_exportable);
      tool_json_uint(&j, "min_size", CUVK_POLICY_BULK_MIN_SIZE);
      tool_json_string(&j, "reason", d->bulk_why);
      tool_json_object_end(&j);
      tool_json_object_begin(&j, "pageable");
      tool_json_string(&j, "path", d->pageable_path);
      tool_json_string(&j, "reason", d->pageable_why);
      tool_json_uint(&j, "staging_threads", cuvk_host_copy_threads());
      tool_json_object_end(&j);
      tool_json_object_end(&j);
   }
   tool_json_array_end(&j);
   tool_json_uint(&j, "validation_messages", tool_vk_message_count());
   tool_json_object_end(&j);
}

static void
info_usage(FILE *f)
{
   fprintf(f,
           "usage: cuvk-info [--json]\n"
           "Lists the Vulkan devices, which of them cuvk uses as CUDA devices (and why\n"
           "not the others), their memory, interop features and cuvk's copy engine.\n"
           "  --json   print the same as one JSON object\n"
           "Exit status: 0, also when there is no device; 1 on an error or when the\n"
           "Vulkan validation layer reported a message.\n");
}

int
main(int argc, char **argv)
{
   struct tool_vk_instance vi = { 0 };
   struct info info = { 0 };
   VkPhysicalDevice *pdevs = NULL;
   bool json = false;
   int status = 1;
   VkResult vr;

   for (int i = 1; i < argc; i++) {
      if (strcmp(argv[i], "--json") == 0) {
         json = true;
      } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
         info_usage(stdout);
         return 0;
      } else {
         fprintf(stderr, "cuvk-info: unknown option '%s'\n", argv[i]);
         info_usage(stderr);
         return 2;
      }
   }

   info.copy_engine_env = getenv("CUVK_COPY_ENGINE");
   info.fill_engine_env = getenv("CUVK_FILL_ENGINE");
   cuDriverGetVersion(&info.driver_version);
   info_query_layer(&info);

   vr = tool_vk_instance_create(&vi, "cuvk-info");
   if (vr == VK_ERROR_INCOMPATIBLE_DRIVER) {
      /* The loader's answer when it finds no driver at all; the errors
       * it printed on the way are the message below. */
      tool_vk_forget_messages();
      info.no_device_message = "No Vulkan driver found: cuvk has no device to run on.";
      info.loader_version = vi.loader_version;
      info.init_result = cuInit(0);
      status = 0;
      goto print;
   }
   if (vr != VK_SUCCESS) {
      fprintf(stderr, "cuvk-info: vkCreateInstance failed: %s\n", tool_vk_result_name(vr));
      goto out;
   }
   info.loader_version = vi.loader_version;

   vr = vkEnumeratePhysicalDevices(vi.instance, &info.device_count, NULL);
   if (vr != VK_SUCCESS) {
      fprintf(stderr, "cuvk-info: vkEnumeratePhysicalDevices failed: %s\n", tool_vk_result_name(vr));
      goto out;
   }
   if (info.device_count) {
      pdevs = calloc(info.device_count, sizeof(*pdevs));
      info.devices = calloc(info.device_count, sizeof(*info.devices));
      if (!pdevs || !info.devices) {
         fprintf(stderr, "cuvk-info: out of memory\n");
         goto out;
      }
      vr = vkEnumeratePhysicalDevices(vi.instance, &info.device_count, pdevs);
      if (vr != VK_SUCCESS && vr != VK_INCOMPLETE) {
         fprintf(stderr, "cuvk-info: vkEnumeratePhysicalDevices failed: %s\n", tool_vk_result_name(vr));
         goto out;
      }
   }
   for (uint32_t i = 0; i < info.device_count; i++)
      info_query_device(&info.devices[i], pdevs[i]);

   info_match_cuda_devices(&info);
   if (info.device_count == 0)
      info.no_device_message = "No Vulkan physical device found: cuvk has no device to run on.";
   status = 0;

print:
   if (json)
      info_print_json(&info);
   else
      info_print_text(&info);
   if (!json && info.device_count && info.cuda_device_count == 0)
      printf("\nNo device has what cuvk needs: see the reasons above.\n");

out:
   free(pdevs);
   free(info.devices);
   tool_vk_instance_destroy(&vi);
   if (tool_vk_message_count()) {
      fprintf(stderr, "cuvk-info: the Vulkan validation layer or loader reported %u message(s)\n",
              tool_vk_message_count());
      status = 1;
   }
   return status;
}
