/*
 * Contexts: creation of the VkDevice and everything a context owns, the
 * per-thread stack of current contexts, primary contexts and the cuCtx*
 * entry points.
 */
#include "cuda_api/context.h"

#include <stdlib.h>
#include <string.h>

#include "array/array.h"
#include "cuda_api/driver.h"
#include "cuda_api/external_memory.h"
#include "cuda_api/external_semaphore.h"
#include "cuda_api/host_queue.h"
#include "cuda_api/memory.h"
#include "cuda_api/module.h"
#include "cuda_api/pipeline.h"
#include "cuda_api/ring.h"
#include "cuda_api/texture.h"
#include "cuda_api/transfer.h"
#include "mem/page_table.h"
#include "util/device_policy.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

/* Small blocks keep lavapipe's 2 GiB heap usable by many contexts; large
 * enough that sub-allocation covers typical interop buffers. */
#define DEVICE_BLOCK_SIZE (64ull << 20)
#define HOST_BLOCK_SIZE (16ull << 20)

/* CUDA keeps no fixed limit; 64 nested pushes is far past any real use. */
#define CONTEXT_STACK_DEPTH 64

static _Thread_local struct cuvk_context *ctx_stack[CONTEXT_STACK_DEPTH];
static _Thread_local int ctx_depth;

#define CTX_FLAGS_MASK 0xffu
#define CTX_SCHED_MASK 0x07u

static CUresult
context_create_device(struct cuvk_context *ctx)
{
   struct cuvk_device *dev = ctx->dev;
   const char *exts[16];
   uint32_t ext_count = 0;
   VkResult vr;

   exts[ext_count++] = VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME;
   if (dev->has_external_memory_host)
      exts[ext_count++] = VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME;
   if (dev->has_dma_buf)
      exts[ext_count++] = VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME;
   if (dev->has_memory_budget)
      exts[ext_count++] = VK_EXT_MEMORY_BUDGET_EXTENSION_NAME;
   if (dev->has_external_semaphore_fd)
      exts[ext_count++] = VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME;

   /* What translated kernels may use, as far as the device has it
    * (compiler.h's target says which). */
   VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR have_wg = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR,
   };
   VkPhysicalDeviceShaderAtomicFloatFeaturesEXT have_af = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
      .pNext = dev->has_workgroup_explicit_layout ? &have_wg : NULL,
   };
   VkPhysicalDeviceVulkan12Features have12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
      .pNext = dev->has_atomic_float ? (void *)&have_af
               : dev->has_workgroup_explicit_layout ? (void *)&have_wg : NULL,
   };
   VkPhysicalDeviceShaderClockFeaturesKHR have_clock = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR,
   };
   if (dev->has_shader_clock) {
      have_clock.pNext = have12.pNext;
      have12.pNext = &have_clock;
   }
   VkPhysicalDeviceCustomBorderColorFeaturesEXT have_border = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT,
   };
   if (dev->has_custom_border_color) {
      have_border.pNext = have12.pNext;
      have12.pNext = &have_border;
   }
   VkPhysicalDeviceBorderColorSwizzleFeaturesEXT have_swizzle = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BORDER_COLOR_SWIZZLE_FEATURES_EXT,
   };
   if (dev->has_custom_border_color && dev->has_border_color_swizzle) {
      have_swizzle.pNext = have12.pNext;
      have12.pNext = &have_swizzle;
   }
   VkPhysicalDeviceVulkan11Features have11 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
      .pNext = &have12,
   };
   VkPhysicalDeviceFeatures2 have = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
      .pNext = &have11,
   };
   vkGetPhysicalDeviceFeatures2(dev->pdev, &have);
   VkPhysicalDeviceCustomBorderColorPropertiesEXT border_props = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_PROPERTIES_EXT,
   };
   VkPhysicalDeviceFloatControlsProperties float_controls = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES,
      .pNext = dev->has_custom_border_color ? &border_props : NULL,
   };
   VkPhysicalDeviceProperties2 props2 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
      .pNext = &float_controls,
   };
   vkGetPhysicalDeviceProperties2(dev->pdev, &props2);
   if (dev->has_atomic_float)
      exts[ext_count++] = VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME;
   /* 64-bit atomics on shared memory need an aliased 64-bit view of it
    * (spirv_memory.c): the explicit layout, with shaderSharedInt64Atomics.
    * Only the base feature: the views hold 32- and 64-bit words. */
   bool shared_atomic_int64 = dev->has_workgroup_explicit_layout &&
                              have_wg.workgroupMemoryExplicitLayout &&
                              have12.shaderSharedInt64Atomics;
   if (shared_atomic_int64)
      exts[ext_count++] = VK_KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_EXTENSION_NAME;
   VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR wg = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR,
      .workgroupMemoryExplicitLayout = VK_TRUE,
   };

   VkPhysicalDeviceShaderAtomicFloatFeaturesEXT af = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
      .pNext = shared_atomic_int64 ? &wg : NULL,
      .shaderBufferFloat32AtomicAdd = have_af.shaderBufferFloat32AtomicAdd,
      .shaderBufferFloat64AtomicAdd = have_af.shaderBufferFloat64AtomicAdd,
      .shaderSharedFloat32AtomicAdd = have_af.shaderSharedFloat32AtomicAdd,
      .shaderSharedFloat64AtomicAdd = have_af.shaderSharedFloat64AtomicAdd,
   };
   VkPhysicalDeviceVulkan12Features f12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
      .pNext = dev->has_atomic_float ? (void *)&af : shared_atomic_int64 ? (void *)&wg : NULL,
      .bufferDeviceAddress = VK_TRUE,
      .timelineSemaphore = VK_TRUE,
      .storageBuffer8BitAccess = VK_TRUE,
      .shaderInt8 = VK_TRUE,
      .shaderFloat16 = have12.shaderFloat16,
      .shaderBufferInt64Atomics = have12.shaderBufferInt64Atomics,
      .shaderSharedInt64Atomics = have12.shaderSharedInt64Atomics,
      /* Texture and surface accesses index their binding's array with
       * each lane's own slot where these are (spirv_texture.c); without
       * them a loop makes the index uniform.  No descriptor set layout
       * flag is needed for non-uniform indexing alone. */
      .shaderSampledImageArrayNonUniformIndexing = have12.shaderSampledImageArrayNonUniformIndexing,
      .shaderStorageImageArrayNonUniformIndexing = have12.shaderStorageImageArrayNonUniformIndexing,
   };
   /* %clock and %clock64 read the subgroup clock (spirv_emit.c); where
    * the device lacks it, kernels reading them are refused by name. */
   bool shader_clock = dev->has_shader_clock && have_clock.shaderSubgroupClock;
   VkPhysicalDeviceShaderClockFeaturesKHR clock = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR,
      .shaderSubgroupClock = VK_TRUE,
   };
   if (shader_clock) {
      exts[ext_count++] = VK_KHR_SHADER_CLOCK_EXTENSION_NAME;
      clock.pNext = f12.pNext;
      f12.pNext = &clock;
   }
   /* Texture samplers (texture.c): any border colour CUDA takes, where
    * the device has custom ones (without them only Vulkan's three fixed
    * colours, the rest refused); the border colour's component mapping
    * given with the sampler, so that views with swizzles have defined
    * borders; and anisotropic filtering. */
   bool custom_border = dev->has_custom_border_color && have_border.customBorderColors &&
                        border_props.maxCustomBorderColorSamplers > 0;
   bool border_swizzle = custom_border && dev->has_border_color_swizzle && have_swizzle.borderColorSwizzle;
   VkPhysicalDeviceCustomBorderColorFeaturesEXT border = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT,
      .customBorderColors = VK_TRUE,
      .customBorderColorWithoutFormat = have_border.customBorderColorWithoutFormat,
   };
   VkPhysicalDeviceBorderColorSwizzleFeaturesEXT swizzle = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BORDER_COLOR_SWIZZLE_FEATURES_EXT,
      .borderColorSwizzle = VK_TRUE,
   };
   if (custom_border) {
      exts[ext_count++] = VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME;
      border.pNext = f12.pNext;
      f12.pNext = &border;
   }
   if (border_swizzle) {
      exts[ext_count++] = VK_EXT_BORDER_COLOR_SWIZZLE_EXTENSION_NAME;
      swizzle.pNext = f12.pNext;
      f12.pNext = &swizzle;
   }
   const char *anisotropy_why = "the device lacks samplerAnisotropy";
   bool anisotropy = have.features.samplerAnisotropy &&
                     cuvk_policy_sampler_anisotropy(dev->driver_id, &anisotropy_why);
   ctx->samplers = (struct cuvk_sampler_features){
      .anisotropy = anisotropy,
      .max_anisotropy = anisotropy ? dev->props.limits.maxSamplerAnisotropy : 0.0f,
      .custom_border = custom_border,
      .border_without_format = custom_border && have_border.customBorderColorWithoutFormat,
      .border_swizzle = border_swizzle,
      .max_custom_border_samplers = custom_border ? border_props.maxCustomBorderColorSamplers : 0,
   };
   cuvk_logd("samplers: anisotropy %s (%s; up to %g), custom border colours %s (%u samplers%s%s)",
             anisotropy ? "on" : "off", anisotropy_why, ctx->samplers.max_anisotropy,
             custom_border ? "on" : "off", ctx->samplers.max_custom_border_samplers,
             ctx->samplers.border_without_format ? ", without format" : "",
             border_swizzle ? ", border swizzle" : "");
   VkPhysicalDeviceVulkan11Features f11 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
      .pNext = &f12,
      .storageBuffer16BitAccess = have11.storageBuffer16BitAccess,
   };
   VkPhysicalDeviceFeatures2 features = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
      .pNext = &f11,
      .features = {
         .shaderInt64 = VK_TRUE,
         .shaderInt16 = have.features.shaderInt16,
         .shaderFloat64 = have.features.shaderFloat64,
         /* Textures of layered cubemaps are cube array views, sampled
          * by tex.acube; without it cuTexObjectCreate refuses them. */
         .imageCubeArray = have.features.imageCubeArray,
         .samplerAnisotropy = anisotropy,
         .sparseBinding = dev->sparse_reservations,
         .sparseResidencyBuffer = dev->sparse_reservations,
      },
   };
   ctx->kernel_target = (struct cuvk_cc_target){
      .subgroup_size = dev->subgroup.subgroupSize,
      .int8 = true,
      .int16 = have.features.shaderInt16 && have11.storageBuffer16BitAccess,
      .int64 = true,
      .float16 = have12.shaderFloat16,
      .float64 = have.features.shaderFloat64,
      .atomic_int64 = have12.shaderBufferInt64Atomics && have12.shaderSharedInt64Atomics,
      .atomic_float32_add = have_af.shaderBufferFloat32AtomicAdd && have_af.shaderSharedFloat32AtomicAdd,
      .atomic_float64_add = have_af.shaderBufferFloat64AtomicAdd && have_af.shaderSharedFloat64AtomicAdd,
      .max_shared_bytes = dev->props.limits.maxComputeSharedMemorySize,
      .denorm_preserve_f16 = float_controls.shaderDenormPreserveFloat16,
      .denorm_preserve_f32 = float_controls.shaderDenormPreserveFloat32,
      .denorm_preserve_f64 = float_controls.shaderDenormPreserveFloat64,
      /* NVIDIA's GPUs have one fused multiply-add per width (FFMA, DFMA),
       * which their compiler gives GLSL's Fma; no Vulkan feature says so. */
      .fma_fused = dev->props.vendorID == 0x10de,
      .max_sampled_descriptors = CUVK_MIN(dev->props.limits.maxPerStageDescriptorSamplers,
                                          dev->props.limits.maxPerStageDescriptorSampledImages),
      .max_storage_descriptors = dev->props.limits.maxPerStageDescriptorStorageImages,
      .tex_nonuniform = have12.shaderSampledImageArrayNonUniformIndexing,
      .surf_nonuniform = have12.shaderStorageImageArrayNonUniformIndexing,
      .image_cube_array = have.features.imageCubeArray,
      .shared_atomic_int64 = shared_atomic_int64,
      .shader_clock = shader_clock,
      /* llvmpipe ends every loop of an invocation vector once all its
       * loops together ran 65535 iterations (Mesa's
       * LP_MAX_TGSI_LOOP_ITERATIONS), silently: kernels count, and the
       * launch fails instead (docs/compiler.md, "Lavapipe's loop limit"). */
      .loop_limit = dev->driver_id == VK_DRIVER_ID_MESA_LLVMPIPE ? 65535u : 0u,
   };
   cuvk_texture_target(&dev->props.limits, &ctx->kernel_target.tex_slots, &ctx->kernel_target.surf_slots);
   cuvk_logd("kernels index textures %s, surfaces %s",
             ctx->kernel_target.tex_nonuniform ? "non-uniformly" : "through the uniform-index loop",
             ctx->kernel_target.surf_nonuniform ? "non-uniformly" : "through the uniform-index loop");
   /* A queue per lane where the family has enough, and the transfer
    * lanes' queues (submit.h); one create info per family, its queues'
    * priorities in index order. */
   const struct cuvk_lane_plan *plan = &ctx->lane_plan;
   cuvk_policy_lanes(dev->queue_family, dev->queue_count, dev->transfer_family, dev->transfer_queue_count,
                     &ctx->lane_plan);
   const char *ring_why;
   if (cuvk_policy_ring(cuvk_policy_ring_memory_type(&dev->mem) != UINT32_MAX, &ring_why))
      cuvk_policy_ring_queue(&ctx->lane_plan, dev->queue_family, dev->queue_count);
   cuvk_logd("command ring: %s", ring_why);
   uint32_t families[2];
   uint32_t family_count = cuvk_policy_lane_families(plan, families);
   float priorities[2][CUVK_MAX_LANES];
   VkDeviceQueueCreateInfo queue_infos[2];
   for (uint32_t f = 0; f < family_count; f++) {
      uint32_t n = 0;
      for (uint32_t q = 0; q < plan->queue_count; q++)
         if (plan->queue_family[q] == families[f])
            priorities[f][plan->queue_index[q]] = plan->queue_priority[q], n++;
      queue_infos[f] = (VkDeviceQueueCreateInfo){
         .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
         .queueFamilyIndex = families[f],
         .queueCount = n,
         .pQueuePriorities = priorities[f],
      };
   }
   VkDeviceCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
      .pNext = &features,
      .queueCreateInfoCount = family_count,
      .pQueueCreateInfos = queue_infos,
      .enabledExtensionCount = ext_count,
      .ppEnabledExtensionNames = exts,
   };
   vr = vkCreateDevice(dev->pdev, &info, NULL, &ctx->vk);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkCreateDevice");

   ctx->GetMemoryFdKHR = (PFN_vkGetMemoryFdKHR)vkGetDeviceProcAddr(ctx->vk, "vkGetMemoryFdKHR");
   if (dev->has_external_memory_host)
      ctx->GetMemoryHostPointerPropertiesEXT = (PFN_vkGetMemoryHostPointerPropertiesEXT)
         vkGetDeviceProcAddr(ctx->vk, "vkGetMemoryHostPointerPropertiesEXT");
   if (dev->has_external_semaphore_fd)
      ctx->ImportSemaphoreFdKHR = (PFN_vkImportSemaphoreFdKHR)
         vkGetDeviceProcAddr(ctx->vk, "vkImportSemaphoreFdKHR");
   return CUDA_SUCCESS;
}

/* Asks the driver which memory types an OPAQUE_FD buffer can live in. */
static void
context_probe_external_types(struct cuvk_context *ctx)
{
   struct cuvk_device *dev = ctx->dev;
   VkExternalMemoryBufferCreateInfo ext = {
      .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
      .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
   };
   VkBufferCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .pNext = &ext,
      .size = 1 << 16,
      .usage = CUVK_MEM_BLOCK_USAGE,
   };
   VkBuffer buffer;
   uint32_t bits = (1u << dev->mem.memoryTypeCount) - 1;

   if (vkCreateBuffer(ctx->vk, &info, NULL, &buffer) == VK_SUCCESS) {
      VkMemoryRequirements reqs;
      vkGetBufferMemoryRequirements(ctx->vk, buffer, &reqs);
      bits = reqs.memoryTypeBits;
      vkDestroyBuffer(ctx->vk, buffer, NULL);
   }
   ctx->opaque_fd_type_bits = bits;
   ctx->opaque_fd_type_index = dev->device_type_index;
   if (!(bits & (1u << dev->device_type_index))) {
      ctx->opaque_fd_type_index = bits ? (uint32_t)__builtin_ctz(bits) : dev->device_type_index;
      for (uint32_t i = 0; i < dev->mem.memoryTypeCount; i++) {
         if ((bits & (1u << i)) &&
             (dev->mem.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) {
            ctx->opaque_fd_type_index = i;
            break;
         }
      }
   }
}

/* Sends large device allocations to exportable memory where the device
 * policy asks for it and the context can have it: a device-local type in
 * the device type's heap (so cuMemGetInfo's budget still covers it) that
 * OPAQUE_FD buffers bind without a dedicated allocation. */
static void
context_setup_bulk_memory(struct cuvk_context *ctx)
{
   struct cuvk_device *dev = ctx->dev;
   const VkMemoryType *types = dev->mem.memoryTypes;
   uint32_t type = ctx->opaque_fd_type_index;
   const char *why_not = NULL;

   if (!dev->bulk_exportable)
      return;

   VkPhysicalDeviceExternalBufferInfo info = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO,
      .usage = CUVK_MEM_BLOCK_USAGE,
      .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
   };
   VkExternalBufferProperties props = { .sType = VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES };
   vkGetPhysicalDeviceExternalBufferProperties(dev->pdev, &info, &props);
   VkExternalMemoryFeatureFlags features = props.externalMemoryProperties.externalMemoryFeatures;

   if (!(ctx->opaque_fd_type_bits & (1u << type)) ||
       !(types[type].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
      why_not = "no device-local memory type takes OPAQUE_FD buffers";
   else if (types[type].heapIndex != types[dev->device_type_index].heapIndex)
      why_not = "the OPAQUE_FD memory type is in another heap than device memory";
   else if (!(features & VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT))
      why_not = "OPAQUE_FD buffers are not exportable";
   else if (features & VK_EXTERNAL_MEMORY_FEATURE_DEDICATED_ONLY_BIT)
      why_not = "OPAQUE_FD buffers need dedicated allocations";
   if (why_not) {
      cuvk_logi("large allocations share the device memory type: %s", why_not);
      return;
   }
   cuvk_mem_heap_set_bulk(&ctx->device_heap, type, types[type].propertyFlags,
                          CUVK_POLICY_BULK_MIN_SIZE, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT);
}

/* The last reference to a context out of the table is gone: the destroy
 * waiting in cuvk_context_destroy may tear it down.  The destroy frees
 * the context only after taking drain_lock, so this thread is done with
 * it once it unlocks. */
static void
context_drained(struct cuvk_object *obj)
{
   struct cuvk_context *ctx = cuvk_container_of(obj, struct cuvk_context, base);
   pthread_mutex_lock(&ctx->drain_lock);
   ctx->drained = true;
   pthread_cond_broadcast(&ctx->drain_cond);
   pthread_mutex_unlock(&ctx->drain_lock);
}

void
cuvk_context_get(struct cuvk_context *ctx)
{
   /* The caller holds a reference, so the count is above zero. */
   __atomic_fetch_add(&ctx->base.refs, 1, __ATOMIC_RELAXED);
}

void
cuvk_context_put(struct cuvk_context *ctx)
{
   if (ctx)
      cuvk_object_put(&ctx->base);
}

bool
cuvk_context_is_primary(CUcontext hctx)
{
   struct cuvk_object *obj = cuvk_object_get(hctx, CUVK_OBJECT_CONTEXT);
   if (!obj)
      return false;
   bool primary = ((struct cuvk_context *)hctx)->primary;
   cuvk_object_put(obj);
   return primary;
}

CUresult
cuvk_context_create(struct cuvk_device *dev, unsigned flags, bool primary,
                    struct cuvk_context **out)
{
   struct cuvk_context *ctx = NULL;
   CUresult res;

   ctx = calloc(1, sizeof(*ctx));
   if (!ctx)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for a context");
   ctx->dev = dev;
   ctx->flags = flags;
   ctx->primary = primary;
   pthread_mutex_init(&ctx->lock, NULL);
   pthread_mutex_init(&ctx->drain_lock, NULL);
   pthread_mutex_init(&ctx->border_lock, NULL);
   cuvk_list_init(&ctx->border_samplers);
   pthread_cond_init(&ctx->drain_cond, NULL);
   cuvk_list_init(&ctx->streams);
   cuvk_list_init(&ctx->per_thread_streams);
   cuvk_list_init(&ctx->events);
   cuvk_list_init(&ctx->query_pools);
   cuvk_list_init(&ctx->allocations);
   cuvk_list_init(&ctx->modules);
   cuvk_list_init(&ctx->external_memories);
   cuvk_import_scratch_init(&ctx->import_scratch);
   cuvk_list_init(&ctx->arrays);
   cuvk_list_init(&ctx->vmm_handles);
   cuvk_list_init(&ctx->external_semaphores);
   cuvk_list_init(&ctx->held_waits);
   const char *why;
   ctx->host_semaphore_ops = cuvk_policy_host_semaphore_ops(&why);
   cuvk_logd("external semaphores: %s (%s)",
             ctx->host_semaphore_ops ? "host signals and held waits" : "every signal and wait queued", why);

   res = context_create_device(ctx);
   if (res != CUDA_SUCCESS)
      goto fail_ctx;

   context_probe_external_types(ctx);
   cuvk_semaphore_pool_init(&ctx->semaphore_pool, ctx->vk);

   res = cuvk_pipelines_init(ctx);
   if (res != CUDA_SUCCESS)
      goto fail_device;

   res = cuvk_submit_init(ctx);
   if (res != CUDA_SUCCESS)
      goto fail_pipelines;

   res = cuvk_host_queue_init(ctx);
   if (res != CUDA_SUCCESS)
      goto fail_submit;
   cuvk_ring_init(ctx);

   /* Copies between pinned and device memory run on the transfer lanes,
    * which may be of another family (submit.h). */
   uint32_t share[2];
   uint32_t share_count = cuvk_policy_lane_families(&ctx->lane_plan, share);
   cuvk_staging_init(ctx);
   cuvk_mem_heap_init(&ctx->device_heap, ctx->vk, &dev->budget, dev->device_type_index,
                      dev->mem.memoryTypes[dev->device_type_index].propertyFlags, DEVICE_BLOCK_SIZE,
                      cuvk_device_max_allocation(dev, dev->device_type_index));
   cuvk_mem_heap_set_sharing(&ctx->device_heap, share, share_count);
   context_setup_bulk_memory(ctx);
   cuvk_mem_heap_init(&ctx->host_heap, ctx->vk, &dev->budget, dev->host_type_index,
                      dev->mem.memoryTypes[dev->host_type_index].propertyFlags, HOST_BLOCK_SIZE,
                      cuvk_device_max_allocation(dev, dev->host_type_index));
   cuvk_mem_heap_set_sharing(&ctx->host_heap, share, share_count);

   ctx->null_stream.ctx = ctx;
   cuvk_context_settings_init(ctx);
   cuvk_object_add(&ctx->base, CUVK_OBJECT_CONTEXT, context_drained);
   *out = ctx;
   return CUDA_SUCCESS;

fail_submit:
   cuvk_submit_finish(ctx);
fail_pipelines:
   cuvk_pipelines_finish(ctx);
fail_device:
   cuvk_semaphore_pool_finish(&ctx->semaphore_pool);
   vkDestroyDevice(ctx->vk, NULL);
fail_ctx:
   cuvk_import_scratch_finish(&ctx->import_scratch);
   pthread_cond_destroy(&ctx->drain_cond);
   pthread_mutex_destroy(&ctx->border_lock);
   pthread_mutex_destroy(&ctx->drain_lock);
   pthread_mutex_destroy(&ctx->lock);
   free(ctx);
   return res;
}

/* Teardown of a context whose GPU queue is stuck on a semaphore nobody
 * will signal: destroying its VkDevice, or anything the GPU may still
 * use, would be invalid, so its handles die and its Vulkan objects and
 * memory stay behind. */
static void
context_leak(struct cuvk_context *ctx)
{
   cuvk_host_queue_abandon(ctx, true);
   cuvk_host_queue_stop(ctx);
   /* The ring never waits for anything: it leaves its queue. */
   cuvk_ring_finish(ctx);
   cuvk_stream_per_thread_release_context(ctx);
   pthread_mutex_lock(&ctx->lock);
   cuvk_list_for_each_entry_safe(struct cuvk_stream, s, &ctx->streams, link)
      cuvk_stream_destroy_locked(s);
   cuvk_list_for_each_entry_safe(struct cuvk_event, e, &ctx->events, link)
      cuvk_event_destroy_locked(e);
   cuvk_held_waits_drop(ctx);
   cuvk_external_semaphore_release_context(ctx, true);
   pthread_mutex_unlock(&ctx->lock);
   /* A device of its own, idle: no reason to leave it behind too. */
   cuvk_import_scratch_finish(&ctx->import_scratch);
}

bool
cuvk_context_destroy(struct cuvk_context *ctx, bool held)
{
   /* Out of the table, no call finds the context or any of its objects
    * any more (object.c); the calls that did hold it, and are let finish
    * on a whole context before anything goes.  CUDA leaves a destroy
    * under use undefined; waiting is what keeps cuvk from crashing. */
   bool first = cuvk_object_release(&ctx->base);
   if (first)
      cuvk_context_unbind(ctx);
   if (held)
      cuvk_context_put(ctx);
   if (!first)
      return false;
   /* Waits on emulated semaphores that nobody signalled now pass (this
    * one and any a call in flight still queues), so the GPU work behind
    * them drains, and so does a synchronisation on another thread
    * blocked on it, which the wait below would otherwise wait for. */
   cuvk_host_queue_abandon(ctx, false);
   pthread_mutex_lock(&ctx->lock);
   /* A held wait nobody signals must not hold up the teardown; nothing
    * recorded depends on one. */
   cuvk_held_waits_drop(ctx);
   cuvk_submit_flush(ctx);
   pthread_mutex_unlock(&ctx->lock);
   pthread_mutex_lock(&ctx->drain_lock);
   while (!ctx->drained)
      pthread_cond_wait(&ctx->drain_cond, &ctx->drain_lock);
   pthread_mutex_unlock(&ctx->drain_lock);

   /* What the calls that drained recorded. */
   pthread_mutex_lock(&ctx->lock);
   cuvk_submit_flush(ctx);
   pthread_mutex_unlock(&ctx->lock);
   /* With waits on native semaphores nobody signals the GPU cannot go
    * idle, and the device is leaked instead of destroyed busy. */
   if (!cuvk_external_semaphore_settle(ctx)) {
      context_leak(ctx);
      return true;
   }
   /* First: the device never goes idle with the ring on it. */
   cuvk_ring_finish(ctx);
   vkDeviceWaitIdle(ctx->vk);
   cuvk_host_queue_stop(ctx);
   cuvk_stream_per_thread_release_context(ctx);

   pthread_mutex_lock(&ctx->lock);
   cuvk_submit_retire(ctx);
   cuvk_list_for_each_entry_safe(struct cuvk_stream, s, &ctx->streams, link)
      cuvk_stream_destroy_locked(s);
   cuvk_list_for_each_entry_safe(struct cuvk_event, e, &ctx->events, link)
      cuvk_event_destroy_locked(e);
   pthread_mutex_unlock(&ctx->lock);

   /* Allocations go before the submission state: freeing one may defer
    * work onto a batch. */
   /* Modules first: their globals are allocations. */
   /* What kernels printed, while the modules' format strings exist. */
   cuvk_printf_finish(ctx);
   cuvk_module_release_context(ctx);
   cuvk_memory_release_context(ctx);
   cuvk_texture_release_context(ctx); /* before the arrays they reference */
   cuvk_array_release_context(ctx); /* images before the imports they live in */
   cuvk_external_memory_release_context(ctx);
   cuvk_import_scratch_finish(&ctx->import_scratch);
   cuvk_vmm_release_context(ctx);
   cuvk_external_semaphore_release_context(ctx, false);
   cuvk_host_queue_finish(ctx);
   cuvk_submit_finish(ctx);
   cuvk_texture_finish_samplers(ctx); /* after the deferred frees of destroyed objects' samplers */
   cuvk_launch_finish(ctx);
   /* After every release (they leave the table) has run. */
   cuvk_mem_page_table_destroy(ctx->page_table);

   cuvk_list_for_each_entry_safe(struct cuvk_query_pool, qp, &ctx->query_pools, link) {
      vkDestroyQueryPool(ctx->vk, qp->pool, NULL);
      free(qp);
   }
   cuvk_staging_finish(ctx);
   cuvk_mem_heap_finish(&ctx->host_heap);
   cuvk_mem_heap_finish(&ctx->device_heap);
   cuvk_pipelines_finish(ctx);
   /* After cuvk_submit_finish, whose deferred frees return semaphores. */
   cuvk_semaphore_pool_finish(&ctx->semaphore_pool);
   vkDestroyDevice(ctx->vk, NULL);
   pthread_cond_destroy(&ctx->drain_cond);
   pthread_mutex_destroy(&ctx->border_lock);
   pthread_mutex_destroy(&ctx->drain_lock);
   pthread_mutex_destroy(&ctx->lock);
   free(ctx);
   return true;
}

CUresult
cuvk_context_current(const char *entry, struct cuvk_context **out)
{
   CUresult res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;

   struct cuvk_context *ctx = ctx_depth > 0 ? ctx_stack[ctx_depth - 1] : NULL;
   if (!ctx)
      return cuvk_error(CUDA_ERROR_INVALID_CONTEXT, "%s: no context is current on this thread", entry);
   if (!cuvk_object_get(ctx, CUVK_OBJECT_CONTEXT))
      return cuvk_error(CUDA_ERROR_CONTEXT_IS_DESTROYED, "%s: the current context was destroyed", entry);
   *out = ctx;
   return CUDA_SUCCESS;
}

void
cuvk_context_set_current_if_none(struct cuvk_context *ctx)
{
   if (ctx_depth == 0)
      ctx_stack[ctx_depth++] = ctx;
   else if (!ctx_stack[ctx_depth - 1])
      ctx_stack[ctx_depth - 1] = ctx;
}

void
cuvk_context_unbind(struct cuvk_context *ctx)
{
   /* CUDA pops a destroyed context that is current on the calling thread;
    * other threads find out through the handle check. */
   if (ctx_depth > 0 && ctx_stack[ctx_depth - 1] == ctx)
      ctx_depth--;
}

static CUresult
context_check_flags(const char *entry, unsigned flags)
{
   if (flags & ~CTX_FLAGS_MASK)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: unknown flags 0x%x", entry, flags & ~CTX_FLAGS_MASK);
   unsigned sched = flags & CTX_SCHED_MASK;
   if (sched != 0 && sched != CU_CTX_SCHED_SPIN && sched != CU_CTX_SCHED_YIELD &&
       sched != CU_CTX_SCHED_BLOCKING_SYNC)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: scheduling flags 0x%x name more than one policy",
                        entry, sched);
   return CUDA_SUCCESS;
}

static CUresult
context_create_current(CUcontext *pctx, unsigned int flags, CUdevice dev, const char *entry)
{
   struct cuvk_device *device;
   struct cuvk_context *ctx = NULL;
   CUresult res;

   res = cuvk_device_get(dev, entry, &device);
   if (res != CUDA_SUCCESS)
      return res;
   if (!pctx)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: pctx is NULL", entry);
   res = context_check_flags(entry, flags);
   if (res != CUDA_SUCCESS)
      return res;
   if (ctx_depth == CONTEXT_STACK_DEPTH)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: more than %d contexts pushed on this thread",
                        entry, CONTEXT_STACK_DEPTH);

   res = cuvk_context_create(device, flags, false, &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   ctx_stack[ctx_depth++] = ctx;
   *pctx = (CUcontext)ctx;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
   return context_create_current(pctx, flags, dev, "cuCtxCreate");
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *params, int num_params, unsigned int flags,
               CUdevice dev)
{
   if (num_params < 0 || (num_params > 0 && !params))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuCtxCreate_v3: bad affinity parameters");
   if (num_params > 0)
      return cuvk_error(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY,
                        "cuCtxCreate_v3: execution affinity is not supported by cuvk");
   return context_create_current(pctx, flags, dev, "cuCtxCreate_v3");
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *params, unsigned int flags, CUdevice dev)
{
   if (params && (params->numExecAffinityParams > 0 || params->cigParams))
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED,
                        "cuCtxCreate: execution affinity and CIG parameters are not supported by cuvk");
   return context_create_current(pctx, flags, dev, "cuCtxCreate");
}

static CUresult
context_lookup(CUcontext hctx, const char *entry, struct cuvk_context **out)
{
   CUresult res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;
   if (!cuvk_object_get(hctx, CUVK_OBJECT_CONTEXT))
      return cuvk_error(CUDA_ERROR_INVALID_CONTEXT, "%s: %p is not a live context", entry, (void *)hctx);
   *out = (struct cuvk_context *)hctx;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxDestroy_v2(CUcontext hctx)
{
   struct cuvk_context *ctx = NULL;
   CUresult res = context_lookup(hctx, "cuCtxDestroy", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (ctx->primary) {
      cuvk_context_put(ctx);
      return cuvk_error(CUDA_ERROR_INVALID_CONTEXT,
                        "cuCtxDestroy: %p is a primary context; release it instead", (void *)hctx);
   }
   if (!cuvk_context_destroy(ctx, true))
      return cuvk_error(CUDA_ERROR_INVALID_CONTEXT, "cuCtxDestroy: %p was destroyed by another thread",
                        (void *)hctx);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxPushCurrent_v2(CUcontext hctx)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = context_lookup(hctx, "cuCtxPushCurrent", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (ctx_depth == CONTEXT_STACK_DEPTH)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuCtxPushCurrent: more than %d contexts pushed",
                        CONTEXT_STACK_DEPTH);
   ctx_stack[ctx_depth++] = ctx;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxPopCurrent_v2(CUcontext *pctx)
{
   CUresult res = cuvk_driver_check("cuCtxPopCurrent");
   if (res != CUDA_SUCCESS)
      return res;
   if (ctx_depth == 0 || !ctx_stack[ctx_depth - 1])
      return cuvk_error(CUDA_ERROR_INVALID_CONTEXT, "cuCtxPopCurrent: no context is current");
   struct cuvk_context *ctx = ctx_stack[--ctx_depth];
   if (pctx)
      *pctx = (CUcontext)ctx;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxSetCurrent(CUcontext hctx)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res;

   if (hctx) {
      res = context_lookup(hctx, "cuCtxSetCurrent", &ctx);
      if (res != CUDA_SUCCESS)
         return res;
   } else {
      res = cuvk_driver_check("cuCtxSetCurrent");
      if (res != CUDA_SUCCESS)
         return res;
   }

   /* Replaces the top of the stack; NULL unbinds it. */
   if (ctx_depth == 0) {
      if (ctx)
         ctx_stack[ctx_depth++] = ctx;
   } else if (ctx) {
      ctx_stack[ctx_depth - 1] = ctx;
   } else {
      ctx_depth--;
   }
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxGetCurrent(CUcontext *pctx)
{
   CUresult res = cuvk_driver_check("cuCtxGetCurrent");
   if (res != CUDA_SUCCESS)
      return res;
   if (!pctx)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuCtxGetCurrent: pctx is NULL");
   *pctx = ctx_depth > 0 ? (CUcontext)ctx_stack[ctx_depth - 1] : NULL;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxGetDevice(CUdevice *device)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_current("cuCtxGetDevice", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!device)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuCtxGetDevice: device is NULL");
   *device = ctx->dev->ordinal;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxGetDevice_v2(CUdevice *device, CUcontext hctx)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_resolve(hctx, "cuCtxGetDevice_v2", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!device)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuCtxGetDevice_v2: device is NULL");
   *device = ctx->dev->ordinal;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxGetFlags(unsigned int *flags)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_current("cuCtxGetFlags", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!flags)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuCtxGetFlags: flags is NULL");
   *flags = __atomic_load_n(&ctx->flags, __ATOMIC_RELAXED);
   return CUDA_SUCCESS;
}

/* The flags cuCtxSetFlags may change; the others (CU_CTX_MAP_HOST, the
 * core dump ones) are fixed at creation.  NVIDIA's driver drops them from
 * the request silently (measured: SetFlags(MAP_HOST) then reads 0). */
#define CTX_SETTABLE_FLAGS (CTX_SCHED_MASK | CU_CTX_LMEM_RESIZE_TO_MAX | CU_CTX_SYNC_MEMOPS)

CUVK_EXPORT CUresult CUDAAPI
cuCtxSetFlags(unsigned int flags)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_current("cuCtxSetFlags", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   res = context_check_flags("cuCtxSetFlags", flags);
   if (res != CUDA_SUCCESS)
      return res;
   unsigned old = __atomic_load_n(&ctx->flags, __ATOMIC_RELAXED), next;
   do {
      next = (old & ~CTX_SETTABLE_FLAGS) | (flags & CTX_SETTABLE_FLAGS);
   } while (!__atomic_compare_exchange_n(&ctx->flags, &old, next, false, __ATOMIC_RELAXED,
                                         __ATOMIC_RELAXED));
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxSynchronize(void)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_current("cuCtxSynchronize", &ctx);
   if (res != CUDA_SUCCESS)
      return res;

   return cuvk_submit_wait_idle(ctx);
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxSynchronize_v2(CUcontext hctx)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_resolve(hctx, "cuCtxSynchronize_v2", &ctx);
   if (res != CUDA_SUCCESS)
      return res;

   return cuvk_submit_wait_idle(ctx);
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxGetStreamPriorityRange(int *least, int *greatest)
{
   CUresult res = cuvk_driver_check("cuCtxGetStreamPriorityRange");
   if (res != CUDA_SUCCESS)
      return res;
   /* One queue serves every stream, so priorities are accepted and kept
    * but do not reorder work; the range CUDA reports on current GPUs is
    * given so code that clamps priorities behaves the same. */
   if (least)
      *least = 0;
   if (greatest)
      *greatest = -5;
   return CUDA_SUCCESS;
}

/* Primary contexts. */

CUVK_EXPORT CUresult CUDAAPI
cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
   struct cuvk_device *device;
   CUresult res = cuvk_device_get(dev, "cuDevicePrimaryCtxRetain", &device);
   if (res != CUDA_SUCCESS)
      return res;
   if (!pctx)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDevicePrimaryCtxRetain: pctx is NULL");

   pthread_mutex_lock(&device->primary_lock);
   if (!device->primary)
      res = cuvk_context_create(device, device->primary_flags, true, &device->primary);
   if (res == CUDA_SUCCESS) {
      device->primary_refs++;
      *pctx = (CUcontext)device->primary;
   }
   pthread_mutex_unlock(&device->primary_lock);
   return res;
}

static CUresult
primary_release(CUdevice dev, const char *entry, bool reset)
{
   struct cuvk_device *device;
   CUresult res = cuvk_device_get(dev, entry, &device);
   if (res != CUDA_SUCCESS)
      return res;

   pthread_mutex_lock(&device->primary_lock);
   if (!reset && device->primary_refs == 0) {
      pthread_mutex_unlock(&device->primary_lock);
      return cuvk_error(CUDA_ERROR_INVALID_CONTEXT, "%s: the primary context of device %d is not retained",
                        entry, dev);
   }
   if (!reset)
      device->primary_refs--;
   /* Under the lock, so a retain meanwhile waits and makes the next one
    * after this one is gone (lavapipe is not known to take a device's
    * creation beside another's teardown).  The destroy waits for calls
    * still using the context; none takes this lock while it holds one. */
   if ((reset || device->primary_refs == 0) && device->primary) {
      cuvk_context_destroy(device->primary, false);
      device->primary = NULL;
   }
   if (reset)
      device->primary_refs = 0;
   pthread_mutex_unlock(&device->primary_lock);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
   return primary_release(dev, "cuDevicePrimaryCtxRelease", false);
}

CUVK_EXPORT CUresult CUDAAPI
cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
   return primary_release(dev, "cuDevicePrimaryCtxReset", true);
}

CUVK_EXPORT CUresult CUDAAPI
cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
   struct cuvk_device *device;
   CUresult res = cuvk_device_get(dev, "cuDevicePrimaryCtxGetState", &device);
   if (res != CUDA_SUCCESS)
      return res;
   if (!flags || !active)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDevicePrimaryCtxGetState: NULL output");
   pthread_mutex_lock(&device->primary_lock);
   *flags = device->primary_flags;
   *active = device->primary != NULL;
   pthread_mutex_unlock(&device->primary_lock);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags)
{
   struct cuvk_device *device;
   CUresult res = cuvk_device_get(dev, "cuDevicePrimaryCtxSetFlags", &device);
   if (res != CUDA_SUCCESS)
      return res;
   res = context_check_flags("cuDevicePrimaryCtxSetFlags", flags);
   if (res != CUDA_SUCCESS)
      return res;
   pthread_mutex_lock(&device->primary_lock);
   device->primary_flags = flags;
   if (device->primary)
      device->primary->flags = flags;
   pthread_mutex_unlock(&device->primary_lock);
   return CUDA_SUCCESS;
}
