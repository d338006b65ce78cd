/*
 * The Vulkan baseline: the same driver's vkCmdCopyBuffer and
 * vkCmdFillBuffer on a VkDevice of the tool's own, done the fastest plain
 * way: one command buffer recorded once per size and resubmitted, one
 * fence waited on and reset.  On a GPU the wait polls the fence, as cuvk's
 * and CUDA's default waits do: with the host asleep in vkWaitForFences an
 * H200 took 435 us for a 1 GiB fill that takes 256 polled.  The device
 * also exports the memory that the import benchmark hands to cuvk and to
 * real CUDA.
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BENCH_VK_USAGE (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT)
#define BENCH_VK_EXPORT VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT

static bool
vk_fail(VkResult vr, const char *what)
{
   fprintf(stderr, "cuvk-bench: Vulkan: %s: %s\n", what, tool_vk_result_name(vr));
   return false;
}

static VkPhysicalDevice
vk_pick_physical_device(struct bench_vk *vk, const uint8_t *uuid, char *err, size_t len)
{
   VkPhysicalDevice *pdevs = NULL, found = VK_NULL_HANDLE;
   uint32_t count = 0;
   VkResult vr;

   vr = vkEnumeratePhysicalDevices(vk->vi.instance, &count, NULL);
   if (vr != VK_SUCCESS || count == 0) {
      snprintf(err, len, "no Vulkan physical device (%s)", tool_vk_result_name(vr));
      return VK_NULL_HANDLE;
   }
   pdevs = calloc(count, sizeof(*pdevs));
   if (!pdevs) {
      snprintf(err, len, "out of memory");
      return VK_NULL_HANDLE;
   }
   vr = vkEnumeratePhysicalDevices(vk->vi.instance, &count, pdevs);
   if (vr != VK_SUCCESS && vr != VK_INCOMPLETE) {
      snprintf(err, len, "vkEnumeratePhysicalDevices: %s", tool_vk_result_name(vr));
      goto out;
   }
   if (!uuid) {
      found = pdevs[0];
      goto out;
   }
   for (uint32_t i = 0; i < count && !found; i++) {
      VkPhysicalDeviceProperties props;
      vkGetPhysicalDeviceProperties(pdevs[i], &props);
      if (props.apiVersion < VK_API_VERSION_1_1)
         continue;
      VkPhysicalDeviceIDProperties id = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES };
      VkPhysicalDeviceProperties2 props2 = {
         .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
         .pNext = &id,
      };
      vkGetPhysicalDeviceProperties2(pdevs[i], &props2);
      if (memcmp(id.deviceUUID, uuid, VK_UUID_SIZE) == 0)
         found = pdevs[i];
   }
   if (!found)
      snprintf(err, len, "no Vulkan physical device has the CUDA device's UUID");
out:
   free(pdevs);
   return found;
}

/* The family cuvk picks (src/cuda_api/driver.c), so that both run their
 * copies on the same kind of queue: compute without graphics first. */
static uint32_t
vk_pick_queue_family(VkPhysicalDevice pdev)
{
   uint32_t count = 0, family = UINT32_MAX;

   vkGetPhysicalDeviceQueueFamilyProperties(pdev, &count, NULL);
   VkQueueFamilyProperties *qfs = calloc(count ? count : 1, sizeof(*qfs));
   if (!qfs)
      return UINT32_MAX;
   vkGetPhysicalDeviceQueueFamilyProperties(pdev, &count, qfs);
   for (int pass = 0; pass < 2 && family == UINT32_MAX; pass++) {
      for (uint32_t i = 0; i < count; i++) {
         bool compute = qfs[i].queueFlags & VK_QUEUE_COMPUTE_BIT;
         bool graphics = qfs[i].queueFlags & VK_QUEUE_GRAPHICS_BIT;
         if (compute && (pass == 1 || !graphics)) {
            family = i;
            break;
         }
      }
   }
   free(qfs);
   return family;
}

bool
bench_vk_init(struct bench_vk *vk, const uint8_t *uuid, char *err, size_t len)
{
   VkExtensionProperties *exts = NULL;
   uint32_t ext_count = 0;
   const char *enabled[2];
   uint32_t enabled_count = 0;
   VkResult vr;

   memset(vk, 0, sizeof(*vk));
   vr = tool_vk_instance_create(&vk->vi, "cuvk-bench");
   if (vr != VK_SUCCESS) {
      snprintf(err, len, "vkCreateInstance: %s", tool_vk_result_name(vr));
      return false;
   }
   vk->pdev = vk_pick_physical_device(vk, uuid, err, len);
   if (!vk->pdev)
      goto fail_instance;
   vkGetPhysicalDeviceProperties(vk->pdev, &vk->props);
   vkGetPhysicalDeviceMemoryProperties(vk->pdev, &vk->mem);

   vk->queue_family = vk_pick_queue_family(vk->pdev);
   if (vk->queue_family == UINT32_MAX) {
      snprintf(err, len, "%s has no compute queue", vk->props.deviceName);
      goto fail_instance;
   }

   exts = tool_vk_device_extensions(vk->pdev, &ext_count);
   if (vk->props.apiVersion >= VK_API_VERSION_1_1 &&
       tool_vk_has_extension(exts, ext_count, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME)) {
      VkPhysicalDeviceExternalBufferInfo binfo = {
         .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO,
         .usage = BENCH_VK_USAGE,
         .handleType = BENCH_VK_EXPORT,
      };
      VkExternalBufferProperties bprops = { .sType = VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES };
      vkGetPhysicalDeviceExternalBufferProperties(vk->pdev, &binfo, &bprops);
      VkExternalMemoryFeatureFlags f = bprops.externalMemoryProperties.externalMemoryFeatures;
      if (f & VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT) {
         vk->can_export = true;
         vk->export_dedicated_only = f & VK_EXTERNAL_MEMORY_FEATURE_DEDICATED_ONLY_BIT;
         enabled[enabled_count++] = VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME;
      }
   }

   /* Exportable semaphores for the semaphore table: the extension (on
    * lavapipe VK_LAYER_CUVK_interop lists it), timeline semaphores, and
    * OPAQUE_FD export of both kinds. */
   VkPhysicalDeviceVulkan12Features features12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
   };
   bool semaphores = false;
   if (vk->props.apiVersion >= VK_API_VERSION_1_2) {
      VkPhysicalDeviceFeatures2 f2 = {
         .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
         .pNext = &features12,
      };
      vkGetPhysicalDeviceFeatures2(vk->pdev, &f2);
      /* The kernel table's timeline rows need the feature alone. */
      vk->has_timeline = features12.timelineSemaphore;
   }
   if (vk->has_timeline &&
       tool_vk_has_extension(exts, ext_count, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME)) {
      semaphores = true;
      for (int timeline = 0; timeline < 2 && semaphores; timeline++) {
         VkSemaphoreTypeCreateInfo type = {
            .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
            .semaphoreType = timeline ? VK_SEMAPHORE_TYPE_TIMELINE : VK_SEMAPHORE_TYPE_BINARY,
         };
         VkPhysicalDeviceExternalSemaphoreInfo sinfo = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO,
            .pNext = &type,
            .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT,
         };
         VkExternalSemaphoreProperties sprops = {
            .sType = VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES,
         };
         vkGetPhysicalDeviceExternalSemaphoreProperties(vk->pdev, &sinfo, &sprops);
         semaphores = sprops.externalSemaphoreFeatures & VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT;
      }
      if (semaphores)
         enabled[enabled_count++] = VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME;
   }
   /* Only timeline semaphores, never whatever else the query said. */
   memset(&features12, 0, sizeof(features12));
   features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
   features12.timelineSemaphore = VK_TRUE;
   free(exts);

   const float priority = 1.0f;
   VkDeviceQueueCreateInfo qinfo = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
      .queueFamilyIndex = vk->queue_family,
      .queueCount = 1,
      .pQueuePriorities = &priority,
   };
   VkDeviceCreateInfo dinfo = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
      .queueCreateInfoCount = 1,
      .pQueueCreateInfos = &qinfo,
      .enabledExtensionCount = enabled_count,
      .ppEnabledExtensionNames = enabled,
      .pNext = vk->has_timeline ? &features12 : NULL,
   };
   vr = vkCreateDevice(vk->pdev, &dinfo, NULL, &vk->device);
   if (vr != VK_SUCCESS) {
      snprintf(err, len, "vkCreateDevice: %s", tool_vk_result_name(vr));
      goto fail_instance;
   }
   vkGetDeviceQueue(vk->device, vk->queue_family, 0, &vk->queue);
   if (vk->can_export)
      vk->GetMemoryFdKHR = (PFN_vkGetMemoryFdKHR)vkGetDeviceProcAddr(vk->device, "vkGetMemoryFdKHR");
   vk->can_export = vk->GetMemoryFdKHR != NULL;
   if (semaphores)
      vk->GetSemaphoreFdKHR =
         (PFN_vkGetSemaphoreFdKHR)vkGetDeviceProcAddr(vk->device, "vkGetSemaphoreFdKHR");
   vk->can_export_semaphores = vk->GetSemaphoreFdKHR != NULL;

   VkCommandPoolCreateInfo pinfo = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
      .queueFamilyIndex = vk->queue_family,
   };
   vr = vkCreateCommandPool(vk->device, &pinfo, NULL, &vk->pool);
   if (vr != VK_SUCCESS) {
      snprintf(err, len, "vkCreateCommandPool: %s", tool_vk_result_name(vr));
      goto fail_device;
   }
   VkCommandBufferAllocateInfo cinfo = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .commandPool = vk->pool,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 1,
   };
   vr = vkAllocateCommandBuffers(vk->device, &cinfo, &vk->cmd);
   if (vr != VK_SUCCESS) {
      snprintf(err, len, "vkAllocateCommandBuffers: %s", tool_vk_result_name(vr));
      goto fail_pool;
   }
   VkFenceCreateInfo finfo = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
   vr = vkCreateFence(vk->device, &finfo, NULL, &vk->fence);
   if (vr != VK_SUCCESS) {
      snprintf(err, len, "vkCreateFence: %s", tool_vk_result_name(vr));
      goto fail_pool;
   }
   return true;

fail_pool:
   vkDestroyCommandPool(vk->device, vk->pool, NULL);
fail_device:
   vkDestroyDevice(vk->device, NULL);
fail_instance:
   tool_vk_instance_destroy(&vk->vi);
   memset(vk, 0, sizeof(*vk));
   return false;
}

void
bench_vk_finish(struct bench_vk *vk)
{
   if (!vk->device)
      return;
   vkDeviceWaitIdle(vk->device);
   vkDestroySemaphore(vk->device, vk->timeline, NULL);
   vkDestroyPipeline(vk->device, vk->empty_pipeline, NULL);
   vkDestroyPipelineLayout(vk->device, vk->empty_layout, NULL);
   vkDestroyFence(vk->device, vk->fence, NULL);
   vkDestroyCommandPool(vk->device, vk->pool, NULL);
   vkDestroyDevice(vk->device, NULL);
   tool_vk_instance_destroy(&vk->vi);
   memset(vk, 0, sizeof(*vk));
}

static uint32_t
vk_find_type(const struct bench_vk *vk, uint32_t bits, VkMemoryPropertyFlags want,
             VkMemoryPropertyFlags avoid)
{
   for (uint32_t i = 0; i < vk->mem.memoryTypeCount; i++) {
      VkMemoryPropertyFlags f = vk->mem.memoryTypes[i].propertyFlags;
      if ((bits & (1u << i)) && (f & want) == want && !(f & avoid))
         return i;
   }
   return UINT32_MAX;
}

static uint32_t
vk_choose_type(const struct bench_vk *vk, uint32_t bits, enum bench_vk_memory where)
{
   const VkMemoryPropertyFlags hv = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
   const VkMemoryPropertyFlags hc = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
   const VkMemoryPropertyFlags cached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
   const VkMemoryPropertyFlags dl = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
   const VkMemoryPropertyFlags prot = VK_MEMORY_PROPERTY_PROTECTED_BIT;
   uint32_t t;

   if (where == BENCH_VK_DEVICE) {
      /* Plain VRAM first: where a GPU has it, the fastest copies. */
      t = vk_find_type(vk, bits, dl, hv | prot);
      if (t == UINT32_MAX)
         t = vk_find_type(vk, bits, dl, prot);
      return t;
   }
   /* System memory the CPU caches, like cuMemAllocHost's. */
   t = vk_find_type(vk, bits, hv | hc | cached, dl | prot);
   if (t == UINT32_MAX)
      t = vk_find_type(vk, bits, hv | hc, dl | prot);
   if (t == UINT32_MAX)
      t = vk_find_type(vk, bits, hv | hc, prot);
   return t;
}

bool
bench_vk_buffer_create(struct bench_vk *vk, VkDeviceSize size, enum bench_vk_memory where,
                       bool exportable, struct bench_vk_buffer *out)
{
   VkResult vr;

   memset(out, 0, sizeof(*out));
   out->size = size;
   if (exportable && !vk->can_export) {
      fprintf(stderr, "cuvk-bench: Vulkan: %s cannot export OPAQUE_FD memory\n", vk->props.deviceName);
      return false;
   }

   VkExternalMemoryBufferCreateInfo ext_info = {
      .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
      .handleTypes = BENCH_VK_EXPORT,
   };
   VkBufferCreateInfo binfo = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .pNext = exportable ? &ext_info : NULL,
      .size = size,
      .usage = BENCH_VK_USAGE,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   vr = vkCreateBuffer(vk->device, &binfo, NULL, &out->buffer);
   if (vr != VK_SUCCESS)
      return vk_fail(vr, "vkCreateBuffer");

   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(vk->device, out->buffer, &req);
   uint32_t type = vk_choose_type(vk, req.memoryTypeBits, where);
   if (type == UINT32_MAX) {
      fprintf(stderr, "cuvk-bench: Vulkan: no memory type for a %s buffer\n",
              where == BENCH_VK_DEVICE ? "device-local" : "staging");
      goto fail_buffer;
   }

   out->dedicated = exportable && vk->export_dedicated_only;
   VkMemoryDedicatedAllocateInfo dedicated = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO,
      .buffer = out->buffer,
   };
   VkExportMemoryAllocateInfo export_info = {
      .sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO,
      .pNext = out->dedicated ? &dedicated : NULL,
      .handleTypes = BENCH_VK_EXPORT,
   };
   VkMemoryAllocateInfo ainfo = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .pNext = exportable ? &export_info : NULL,
      .allocationSize = req.size,
      .memoryTypeIndex = type,
   };
   vr = vkAllocateMemory(vk->device, &ainfo, NULL, &out->memory);
   if (vr != VK_SUCCESS) {
      vk_fail(vr, "vkAllocateMemory");
      goto fail_buffer;
   }
   out->allocation_size = req.size;
   out->memory_type = type;
   vr = vkBindBufferMemory(vk->device, out->buffer, out->memory, 0);
   if (vr != VK_SUCCESS) {
      vk_fail(vr, "vkBindBufferMemory");
      goto fail_memory;
   }
   if (where == BENCH_VK_STAGING) {
      vr = vkMapMemory(vk->device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->map);
      if (vr != VK_SUCCESS) {
         vk_fail(vr, "vkMapMemory");
         goto fail_memory;
      }
      /* Fault every page in now rather than in the first timed copy. */
      memset(out->map, 0x5a, (size_t)size);
   }
   return true;

fail_memory:
   vkFreeMemory(vk->device, out->memory, NULL);
fail_buffer:
   vkDestroyBuffer(vk->device, out->buffer, NULL);
   memset(out, 0, sizeof(*out));
   return false;
}

void
bench_vk_buffer_destroy(struct bench_vk *vk, struct bench_vk_buffer *b)
{
   if (!b->buffer)
      return;
   /* The command buffer may still name the buffer; nothing is pending
    * (every submit is waited for), so it only has to be reset. */
   vkResetCommandBuffer(vk->cmd, 0);
   vkDestroyBuffer(vk->device, b->buffer, NULL);
   vkFreeMemory(vk->device, b->memory, NULL);
   memset(b, 0, sizeof(*b));
}

static bool
vk_begin(struct bench_vk *vk)
{
   VkResult vr = vkResetCommandBuffer(vk->cmd, 0);
   if (vr != VK_SUCCESS)
      return vk_fail(vr, "vkResetCommandBuffer");
   /* No ONE_TIME_SUBMIT: the point is to submit it again and again. */
   VkCommandBufferBeginInfo info = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
   vr = vkBeginCommandBuffer(vk->cmd, &info);
   if (vr != VK_SUCCESS)
      return vk_fail(vr, "vkBeginCommandBuffer");
   return true;
}

static bool
vk_end(struct bench_vk *vk, const struct bench_vk_buffer *dst)
{
   /* The fence makes the copy's writes available but not visible to the
    * host: a staging destination needs the host-read barrier. */
   if (dst->map) {
      VkMemoryBarrier barrier = {
         .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
         .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
         .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
      };
      vkCmdPipelineBarrier(vk->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                           1, &barrier, 0, NULL, 0, NULL);
   }
   VkResult vr = vkEndCommandBuffer(vk->cmd);
   if (vr != VK_SUCCESS)
      return vk_fail(vr, "vkEndCommandBuffer");
   return true;
}

bool
bench_vk_record_copy(struct bench_vk *vk, const struct bench_vk_buffer *src, VkDeviceSize src_offset,
                     const struct bench_vk_buffer *dst, VkDeviceSize dst_offset, VkDeviceSize size)
{
   if (!vk_begin(vk))
      return false;
   VkBufferCopy region = { .srcOffset = src_offset, .dstOffset = dst_offset, .size = size };
   vkCmdCopyBuffer(vk->cmd, src->buffer, dst->buffer, 1, &region);
   return vk_end(vk, dst);
}

bool
bench_vk_record_fill(struct bench_vk *vk, const struct bench_vk_buffer *dst, VkDeviceSize size,
                     uint32_t value)
{
   if (!vk_begin(vk))
      return false;
   vkCmdFillBuffer(vk->cmd, dst->buffer, 0, size, value);
   return vk_end(vk, dst);
}

/* SPIR-V 1.0 of a GLSL compute shader with local size 1x1x1 and an empty
 * main, written out by hand: five ids, no resources. */
static const uint32_t empty_spirv[] = {
   0x07230203, 0x00010000, 0, 5, 0,
   (2u << 16) | 17, 1,                         /* OpCapability Shader */
   (3u << 16) | 14, 0, 1,                      /* OpMemoryModel Logical GLSL450 */
   (5u << 16) | 15, 5, 1, 0x6e69616d, 0,       /* OpEntryPoint GLCompute %1 "main" */
   (6u << 16) | 16, 1, 17, 1, 1, 1,            /* OpExecutionMode %1 LocalSize 1 1 1 */
   (2u << 16) | 19, 2,                         /* %2 = OpTypeVoid */
   (3u << 16) | 33, 3, 2,                      /* %3 = OpTypeFunction %2 */
   (5u << 16) | 54, 2, 1, 0, 3,                /* %1 = OpFunction %2 None %3 */
   (2u << 16) | 248, 4,                        /* %4 = OpLabel */
   (1u << 16) | 253,                           /* OpReturn */
   (1u << 16) | 56,                            /* OpFunctionEnd */
};

static bool
vk_empty_pipeline(struct bench_vk *vk)
{
   VkResult vr;

   if (vk->empty_pipeline)
      return true;
   VkPipelineLayoutCreateInfo layout_info = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO };
   vr = vkCreatePipelineLayout(vk->device, &layout_info, NULL, &vk->empty_layout);
   if (vr != VK_SUCCESS)
      return vk_fail(vr, "vkCreatePipelineLayout");
   VkShaderModuleCreateInfo module_info = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
      .codeSize = sizeof(empty_spirv),
      .pCode = empty_spirv,
   };
   VkShaderModule module;
   vr = vkCreateShaderModule(vk->device, &module_info, NULL, &module);
   if (vr != VK_SUCCESS)
      return vk_fail(vr, "vkCreateShaderModule");
   VkComputePipelineCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {
         .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_COMPUTE_BIT,
         .module = module,
         .pName = "main",
      },
      .layout = vk->empty_layout,
   };
   vr = vkCreateComputePipelines(vk->device, VK_NULL_HANDLE, 1, &info, NULL, &vk->empty_pipeline);
   vkDestroyShaderModule(vk->device, module, NULL);
   if (vr != VK_SUCCESS) {
      vk->empty_pipeline = VK_NULL_HANDLE;
      return vk_fail(vr, "vkCreateComputePipelines");
   }
   return true;
}

bool
bench_vk_record_empty_dispatch(struct bench_vk *vk)
{
   if (!vk_empty_pipeline(vk) || !vk_begin(vk))
      return false;
   vkCmdBindPipeline(vk->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, vk->empty_pipeline);
   vkCmdDispatch(vk->cmd, 1, 1, 1);
   VkResult vr = vkEndCommandBuffer(vk->cmd);
   if (vr != VK_SUCCESS)
      return vk_fail(vr, "vkEndCommandBuffer");
   return true;
}

bool
bench_vk_record_empty_dispatch_barriers(struct bench_vk *vk, bool one_time, bool host_read)
{
   if (!vk_empty_pipeline(vk))
      return false;
   VkResult vr = vkResetCommandBuffer(vk->cmd, 0);
   if (vr != VK_SUCCESS)
      return vk_fail(vr, "vkResetCommandBuffer");
   VkCommandBufferBeginInfo info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
      .flags = one_time ? VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT : 0,
   };
   vr = vkBeginCommandBuffer(vk->cmd, &info);
   if (vr != VK_SUCCESS)
      return vk_fail(vr, "vkBeginCommandBuffer");
   /* cuvk's barrier, as src/cuda_api/submit.c records it for a batch of
    * one command: none before it (the previous batch's last barrier
    * orders it), one at the end that orders later work after the batch
    * and makes its writes visible to the host.  Without host_read, the
    * same barrier for later work alone: what leaving the host's part out
    * would save (docs/design.md says why cuvk keeps it). */
   const VkPipelineStageFlags work = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
   const VkAccessFlags writes = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
   vkCmdBindPipeline(vk->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, vk->empty_pipeline);
   vkCmdDispatch(vk->cmd, 1, 1, 1);
   VkMemoryBarrier after = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = writes,
      .dstAccessMask = writes | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                       (host_read ? VK_ACCESS_HOST_READ_BIT : 0),
   };
   vkCmdPipelineBarrier(vk->cmd, work, work | (host_read ? VK_PIPELINE_STAGE_HOST_BIT : 0), 0, 1, &after, 0, NULL,
                        0, NULL);
   vr = vkEndCommandBuffer(vk->cmd);
   if (vr != VK_SUCCESS)
      return vk_fail(vr, "vkEndCommandBuffer");
   return true;
}

bool
bench_vk_submit_timeline_wait(struct bench_vk *vk)
{
   return bench_vk_submit_timeline(vk) && bench_vk_timeline_wait(vk);
}

bool
bench_vk_submit_timeline(struct bench_vk *vk)
{
   VkResult vr;
   if (!vk->has_timeline) {
      fprintf(stderr, "cuvk-bench: Vulkan: %s has no timeline semaphores\n", vk->props.deviceName);
      return false;
   }
   if (!vk->timeline) {
      VkSemaphoreTypeCreateInfo type = {
         .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
         .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
      };
      VkSemaphoreCreateInfo info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type };
      vr = vkCreateSemaphore(vk->device, &info, NULL, &vk->timeline);
      if (vr != VK_SUCCESS)
         return vk_fail(vr, "vkCreateSemaphore (timeline)");
   }
   uint64_t value = ++vk->timeline_value;
   VkTimelineSemaphoreSubmitInfo values = {
      .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
      .signalSemaphoreValueCount = 1,
      .pSignalSemaphoreValues = &value,
   };
   VkSubmitInfo submit = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .pNext = &values,
      .commandBufferCount = 1,
      .pCommandBuffers = &vk->cmd,
      .signalSemaphoreCount = 1,
      .pSignalSemaphores = &vk->timeline,
   };
   vr = vkQueueSubmit(vk->queue, 1, &submit, VK_NULL_HANDLE);
   return vr == VK_SUCCESS || vk_fail(vr, "vkQueueSubmit");
}

bool
bench_vk_timeline_wait(struct bench_vk *vk)
{
   uint64_t value = vk->timeline_value;
   VkResult vr;
   /* Polled on a GPU, as cuvk's wait does for its first 2 ms. */
   if (vk->props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) {
      uint64_t now = 0;
      do
         vr = vkGetSemaphoreCounterValue(vk->device, vk->timeline, &now);
      while (vr == VK_SUCCESS && now < value);
      if (vr != VK_SUCCESS)
         return vk_fail(vr, "vkGetSemaphoreCounterValue");
      return true;
   }
   VkSemaphoreWaitInfo wait = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
      .semaphoreCount = 1,
      .pSemaphores = &vk->timeline,
      .pValues = &value,
   };
   vr = vkWaitSemaphores(vk->device, &wait, UINT64_MAX);
   return vr == VK_SUCCESS || vk_fail(vr, "vkWaitSemaphores");
}

bool
bench_vk_submit_wait(struct bench_vk *vk)
{
   VkSubmitInfo submit = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .commandBufferCount = 1,
      .pCommandBuffers = &vk->cmd,
   };
   VkResult vr = vkQueueSubmit(vk->queue, 1, &submit, vk->fence);
   if (vr != VK_SUCCESS)
      return vk_fail(vr, "vkQueueSubmit");
   /* A CPU device's driver threads need the core a poll would take. */
   if (vk->props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) {
      do
         vr = vkGetFenceStatus(vk->device, vk->fence);
      while (vr == VK_NOT_READY);
      if (vr != VK_SUCCESS)
         return vk_fail(vr, "vkGetFenceStatus");
   }
   vr = vkWaitForFences(vk->device, 1, &vk->fence, VK_TRUE, UINT64_MAX);
   if (vr != VK_SUCCESS)
      return vk_fail(vr, "vkWaitForFences");
   vr = vkResetFences(vk->device, 1, &vk->fence);
   if (vr != VK_SUCCESS)
      return vk_fail(vr, "vkResetFences");
   return true;
}

bool
bench_vk_import_cycle(struct bench_vk *vk, const struct bench_vk_buffer *b, int fd)
{
   VkBuffer buffer;
   VkDeviceMemory memory;
   VkExternalMemoryBufferCreateInfo ext_info = {
      .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
      .handleTypes = BENCH_VK_EXPORT,
   };
   VkBufferCreateInfo binfo = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .pNext = &ext_info,
      .size = b->size,
      .usage = BENCH_VK_USAGE,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   VkResult vr = vkCreateBuffer(vk->device, &binfo, NULL, &buffer);
   if (vr != VK_SUCCESS) {
      close(fd);
      return vk_fail(vr, "vkCreateBuffer");
   }
   VkMemoryDedicatedAllocateInfo dedicated = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO,
      .buffer = buffer,
   };
   VkImportMemoryFdInfoKHR import = {
      .sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR,
      .pNext = b->dedicated ? &dedicated : NULL,
      .handleType = BENCH_VK_EXPORT,
      .fd = fd,
   };
   VkMemoryAllocateInfo ainfo = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .pNext = &import,
      .allocationSize = b->allocation_size,
      .memoryTypeIndex = b->memory_type,
   };
   vr = vkAllocateMemory(vk->device, &ainfo, NULL, &memory);
   if (vr != VK_SUCCESS) {
      /* A failed import leaves the fd with the caller. */
      close(fd);
      vkDestroyBuffer(vk->device, buffer, NULL);
      return vk_fail(vr, "vkAllocateMemory (import)");
   }
   vr = vkBindBufferMemory(vk->device, buffer, memory, 0);
   vkDestroyBuffer(vk->device, buffer, NULL);
   vkFreeMemory(vk->device, memory, NULL);
   if (vr != VK_SUCCESS)
      return vk_fail(vr, "vkBindBufferMemory (import)");
   return true;
}

int
bench_vk_export_fd(struct bench_vk *vk, const struct bench_vk_buffer *b)
{
   int fd = -1;
   VkMemoryGetFdInfoKHR info = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR,
      .memory = b->memory,
      .handleType = BENCH_VK_EXPORT,
   };
   VkResult vr = vk->GetMemoryFdKHR(vk->device, &info, &fd);
   if (vr != VK_SUCCESS) {
      vk_fail(vr, "vkGetMemoryFdKHR");
      return -1;
   }
   return fd;
}

bool
bench_vk_semaphore_create(struct bench_vk *vk, bool timeline, bool exportable, VkSemaphore *out)
{
   VkSemaphoreTypeCreateInfo type = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
      .semaphoreType = timeline ? VK_SEMAPHORE_TYPE_TIMELINE : VK_SEMAPHORE_TYPE_BINARY,
   };
   VkExportSemaphoreCreateInfo export_info = {
      .sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO,
      .pNext = &type,
      .handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT,
   };
   VkSemaphoreCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
      .pNext = exportable ? (const void *)&export_info : (const void *)&type,
   };
   *out = VK_NULL_HANDLE;
   if (exportable && !vk->can_export_semaphores) {
      fprintf(stderr, "cuvk-bench: Vulkan: %s cannot export semaphores\n", vk->props.deviceName);
      return false;
   }
   VkResult vr = vkCreateSemaphore(vk->device, &info, NULL, out);
   return vr == VK_SUCCESS || vk_fail(vr, "vkCreateSemaphore");
}

int
bench_vk_semaphore_fd(struct bench_vk *vk, VkSemaphore sem)
{
   VkSemaphoreGetFdInfoKHR info = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR,
      .semaphore = sem,
      .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT,
   };
   int fd = -1;
   VkResult vr = vk->GetSemaphoreFdKHR(vk->device, &info, &fd);
   if (vr != VK_SUCCESS) {
      vk_fail(vr, "vkGetSemaphoreFdKHR");
      return -1;
   }
   return fd;
}

bool
bench_vk_submit_semaphores(struct bench_vk *vk, VkSemaphore wait, uint64_t wait_value,
                           VkSemaphore signal, uint64_t signal_value, VkFence fence)
{
   const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
   VkTimelineSemaphoreSubmitInfo values = {
      .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
      .waitSemaphoreValueCount = wait ? 1 : 0,
      .pWaitSemaphoreValues = &wait_value,
      .signalSemaphoreValueCount = signal ? 1 : 0,
      .pSignalSemaphoreValues = &signal_value,
   };
   VkSubmitInfo submit = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .pNext = &values,
      .waitSemaphoreCount = wait ? 1 : 0,
      .pWaitSemaphores = &wait,
      .pWaitDstStageMask = &stage,
      .signalSemaphoreCount = signal ? 1 : 0,
      .pSignalSemaphores = &signal,
   };
   VkResult vr = vkQueueSubmit(vk->queue, 1, &submit, fence);
   return vr == VK_SUCCESS || vk_fail(vr, "vkQueueSubmit");
}
