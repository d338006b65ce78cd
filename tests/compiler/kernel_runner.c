/*
 * kernel_runner.h: compiled kernels on a Vulkan device, by hand.
 */
#include "kernel_runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/kernel_abi.h"

/* The features the compiler may use, as far as the device has them; the
 * target says which. */
struct features {
   VkPhysicalDeviceFeatures2 f2;
   VkPhysicalDeviceVulkan11Features f11;
   VkPhysicalDeviceVulkan12Features f12;
   VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float;
   VkPhysicalDeviceShaderClockFeaturesKHR clock;
   VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR wg_layout;
};

static void
features_chain(struct features *f, bool with_atomic_float, bool with_clock, bool with_wg_layout)
{
   memset(f, 0, sizeof(*f));
   f->f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
   f->f11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
   f->f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
   f->atomic_float.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT;
   f->f2.pNext = &f->f11;
   f->f11.pNext = &f->f12;
   f->clock.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR;
   f->wg_layout.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR;
   void **tail = &f->f12.pNext;
   if (with_atomic_float) {
      *tail = &f->atomic_float;
      tail = &f->atomic_float.pNext;
   }
   if (with_clock) {
      *tail = &f->clock;
      tail = &f->clock.pNext;
   }
   if (with_wg_layout)
      *tail = &f->wg_layout;
}

static bool
has_extension(VkPhysicalDevice pd, const char *name)
{
   uint32_t n = 0;
   vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL);
   VkExtensionProperties *props = calloc(n ? n : 1, sizeof(*props));
   bool found = false;
   if (props && vkEnumerateDeviceExtensionProperties(pd, NULL, &n, props) == VK_SUCCESS)
      for (uint32_t i = 0; i < n && !found; i++)
         found = strcmp(props[i].extensionName, name) == 0;
   free(props);
   return found;
}

bool
kr_init(struct kr *r, const char *name)
{
   struct features have, want;

   memset(r, 0, sizeof(*r));
   /* A first device to ask what the physical device offers. */
   if (!vkh_init(&r->h, name, NULL))
      return false;
   bool atomic_float = has_extension(r->h.physical_device,
                                     VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
   bool clock = has_extension(r->h.physical_device, VK_KHR_SHADER_CLOCK_EXTENSION_NAME);
   /* 64-bit shared atomics (lavapipe 22.3 lacks it; NVIDIA has it). */
   bool wg_layout = has_extension(r->h.physical_device,
                                  VK_KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_EXTENSION_NAME);
   features_chain(&have, atomic_float, clock, wg_layout);
   vkGetPhysicalDeviceFeatures2(r->h.physical_device, &have.f2);
   VkPhysicalDeviceDriverProperties driver = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
   };
   VkPhysicalDeviceFloatControlsProperties float_controls = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES,
      .pNext = &driver,
   };
   VkPhysicalDeviceSubgroupProperties subgroup = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
      .pNext = &float_controls,
   };
   VkPhysicalDeviceProperties2 props = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
      .pNext = &subgroup,
   };
   vkGetPhysicalDeviceProperties2(r->h.physical_device, &props);
   unsigned messages = vkh_finish(&r->h);
   if (messages)
      return false;
   if (!have.f12.bufferDeviceAddress || !have.f2.features.shaderInt64) {
      fprintf(stderr, "%s: the device lacks bufferDeviceAddress or shaderInt64\n", name);
      return false;
   }

   features_chain(&want, atomic_float, clock, wg_layout);
   want.clock.shaderSubgroupClock = have.clock.shaderSubgroupClock;
   want.wg_layout.workgroupMemoryExplicitLayout = have.wg_layout.workgroupMemoryExplicitLayout &&
                                                  have.f12.shaderSharedInt64Atomics;
   want.f2.features.shaderInt64 = VK_TRUE;
   want.f2.features.shaderInt16 = have.f2.features.shaderInt16;
   want.f2.features.shaderFloat64 = have.f2.features.shaderFloat64;
   want.f11.storageBuffer16BitAccess = have.f11.storageBuffer16BitAccess;
   want.f12.bufferDeviceAddress = VK_TRUE;
   want.f12.shaderInt8 = have.f12.shaderInt8;
   want.f12.shaderFloat16 = have.f12.shaderFloat16;
   want.f12.storageBuffer8BitAccess = have.f12.storageBuffer8BitAccess;
   want.f12.shaderBufferInt64Atomics = have.f12.shaderBufferInt64Atomics;
   want.f12.shaderSharedInt64Atomics = have.f12.shaderSharedInt64Atomics;
   want.atomic_float.shaderBufferFloat32AtomicAdd = have.atomic_float.shaderBufferFloat32AtomicAdd;
   want.atomic_float.shaderBufferFloat64AtomicAdd = have.atomic_float.shaderBufferFloat64AtomicAdd;

   r->target = (struct cuvk_cc_target){
      .subgroup_size = subgroup.subgroupSize,
      .int8 = want.f12.shaderInt8 && want.f12.storageBuffer8BitAccess,
      .int16 = want.f2.features.shaderInt16 && want.f11.storageBuffer16BitAccess,
      .int64 = true,
      .float16 = want.f12.shaderFloat16,
      .float64 = want.f2.features.shaderFloat64,
      .atomic_int64 = want.f12.shaderBufferInt64Atomics,
      .atomic_float32_add = want.atomic_float.shaderBufferFloat32AtomicAdd,
      .atomic_float64_add = want.atomic_float.shaderBufferFloat64AtomicAdd,
      .max_shared_bytes = props.properties.limits.maxComputeSharedMemorySize,
      .shader_clock = want.clock.shaderSubgroupClock,
      .denorm_preserve_f16 = float_controls.shaderDenormPreserveFloat16,
      .denorm_preserve_f32 = float_controls.shaderDenormPreserveFloat32,
      .denorm_preserve_f64 = float_controls.shaderDenormPreserveFloat64,
      .shared_atomic_int64 = want.wg_layout.workgroupMemoryExplicitLayout,
      /* As the context sets it (docs/compiler.md, "Lavapipe's loop limit"). */
      .loop_limit = driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE ? 65535u : 0u,
   };
   const char *ext[3];
   uint32_t ext_count = 0;
   if (atomic_float)
      ext[ext_count++] = VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME;
   if (clock)
      ext[ext_count++] = VK_KHR_SHADER_CLOCK_EXTENSION_NAME;
   if (want.wg_layout.workgroupMemoryExplicitLayout)
      ext[ext_count++] = VK_KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_EXTENSION_NAME;
   struct vkh_options options = {
      .device_extensions = ext,
      .device_extension_count = ext_count,
      .device_pnext = &want.f2,
   };
   if (!vkh_init(&r->h, name, &options))
      return false;
   VkCommandPoolCreateInfo pool = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
      .queueFamilyIndex = r->h.queue_family,
   };
   if (vkCreateCommandPool(r->h.device, &pool, NULL, &r->pool) != VK_SUCCESS) {
      fprintf(stderr, "%s: vkCreateCommandPool failed\n", name);
      return false;
   }
   r->ready = true;
   return true;
}

unsigned
kr_finish(struct kr *r)
{
   if (r->h.device) {
      vkDeviceWaitIdle(r->h.device);
      for (unsigned i = 0; i < r->buffer_count; i++) {
         vkDestroyBuffer(r->h.device, r->buffers[i].buffer, NULL);
         vkFreeMemory(r->h.device, r->buffers[i].memory, NULL);
      }
      if (r->pool)
         vkDestroyCommandPool(r->h.device, r->pool, NULL);
   }
   cuvk_cc_module_destroy(r->module);
   free(r->global_addrs);
   return vkh_finish(&r->h);
}

struct kr_buffer *
kr_alloc(struct kr *r, uint64_t size)
{
   if (r->buffer_count == KR_MAX_BUFFERS)
      return NULL;
   struct kr_buffer *b = &r->buffers[r->buffer_count];
   memset(b, 0, sizeof(*b));
   if (size == 0)
      size = 4;
   VkBufferCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = size,
      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   if (vkCreateBuffer(r->h.device, &info, NULL, &b->buffer) != VK_SUCCESS)
      return NULL;
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(r->h.device, b->buffer, &req);
   int type = vkh_find_memory_type(&r->h, req.memoryTypeBits,
                                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
   VkMemoryAllocateFlagsInfo flags = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
      .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
   };
   VkMemoryAllocateInfo alloc = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .pNext = &flags,
      .allocationSize = req.size,
      .memoryTypeIndex = (uint32_t)type,
   };
   if (type < 0 || vkAllocateMemory(r->h.device, &alloc, NULL, &b->memory) != VK_SUCCESS) {
      vkDestroyBuffer(r->h.device, b->buffer, NULL);
      return NULL;
   }
   if (vkBindBufferMemory(r->h.device, b->buffer, b->memory, 0) != VK_SUCCESS ||
       vkMapMemory(r->h.device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->map) != VK_SUCCESS) {
      vkDestroyBuffer(r->h.device, b->buffer, NULL);
      vkFreeMemory(r->h.device, b->memory, NULL);
      return NULL;
   }
   memset(b->map, 0, size);
   VkBufferDeviceAddressInfo ai = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
      .buffer = b->buffer,
   };
   b->addr = vkGetBufferDeviceAddress(r->h.device, &ai);
   b->size = size;
   r->buffer_count++;
   return b;
}

bool
kr_load(struct kr *r, const char *ptx, size_t len)
{
   struct cuvk_cc_error err;

   if (!cuvk_cc_module_create(ptx, len, &r->module, &err)) {
      fprintf(stderr, "%s: the PTX did not load: line %u: %s\n", r->h.name, err.line,
              err.message);
      return false;
   }
   size_t n = cuvk_cc_module_global_count(r->module);
   r->global_addrs = calloc(n + 1, sizeof(*r->global_addrs));
   if (!r->global_addrs)
      return false;
   struct kr_buffer **bufs = calloc(n + 1, sizeof(*bufs));
   bool ok = bufs != NULL;
   for (size_t i = 0; i < n && ok; i++) {
      const struct cuvk_cc_global *g = cuvk_cc_module_global(r->module, i);
      bufs[i] = kr_alloc(r, g->size);
      ok = bufs[i] != NULL;
      if (ok && g->init)
         memcpy(bufs[i]->map, g->init, g->size);
      if (ok)
         r->global_addrs[i] = bufs[i]->addr;
   }
   for (size_t i = 0; i < n && ok; i++) {
      const struct cuvk_cc_global *g = cuvk_cc_module_global(r->module, i);
      for (size_t k = 0; k < g->reloc_count; k++) {
         const struct cuvk_cc_reloc *rl = &g->relocs[k];
         uint64_t v = r->global_addrs[rl->var] + rl->addend;
         memcpy((uint8_t *)bufs[i]->map + rl->offset, &v, rl->size);
      }
   }
   free(bufs);
   if (!ok)
      fprintf(stderr, "%s: allocating the module's globals failed\n", r->h.name);
   return ok;
}

uint64_t
kr_global(struct kr *r, const char *name)
{
   for (size_t i = 0; r->module && i < cuvk_cc_module_global_count(r->module); i++)
      if (strcmp(cuvk_cc_module_global(r->module, i)->name, name) == 0)
         return r->global_addrs[i];
   return 0;
}

/* The host ranges: every buffer, sorted, delta 0 (pointers are device
 * addresses already). */
static int
range_cmp(const void *a, const void *b)
{
   const struct cuvk_kernel_host_range *x = a, *y = b;
   return x->start < y->start ? -1 : x->start > y->start;
}

bool
kr_run(struct kr *r, const char *kernel, const uint32_t grid[3], const uint32_t block[3],
       uint32_t dynamic_shared, const struct kr_arg *args, unsigned arg_count, uint32_t *fault,
       enum cuvk_cc_status *status)
{
   struct cuvk_cc_kernel k;
   struct cuvk_cc_error err;
   VkDevice dev = r->h.device;
   bool ok = false;

   *status = CUVK_CC_OK;
   *fault = 0;
   if (!cuvk_cc_compile_kernel(r->module, kernel, &r->target, &k, &err)) {
      *status = err.status;
      fprintf(stderr, "%s: %s does not compile: line %u: %s\n", r->h.name, kernel, err.line,
              err.message);
      return false;
   }
   if (arg_count != k.param_count) {
      fprintf(stderr, "%s: %s takes %u parameters, the test gave %u\n", r->h.name, kernel,
              k.param_count, arg_count);
      free(k.words);
      return false;
   }

   /* The per-run buffers come after the test's own, so the host ranges
    * are the test's buffers only: a wild pointer into these is as wild. */
   unsigned test_buffers = r->buffer_count;
   struct cuvk_kernel_host_range ranges[KR_MAX_BUFFERS];
   for (unsigned i = 0; i < test_buffers; i++)
      ranges[i] = (struct cuvk_kernel_host_range){ r->buffers[i].addr,
                                                   r->buffers[i].addr + r->buffers[i].size, 0 };
   qsort(ranges, test_buffers, sizeof(ranges[0]), range_cmp);
   size_t global_count = cuvk_cc_module_global_count(r->module);
   /* The parameter block, then its spans (kernel_abi.h). */
   uint32_t span_count = CUVK_KERNEL_SPAN_COUNT(k.param_bytes);
   uint64_t spans_at = CUVK_KERNEL_SPANS_OFFSET(k.param_bytes);
   struct kr_buffer *params = kr_alloc(r, spans_at + span_count * sizeof(struct cuvk_kernel_span));
   struct kr_buffer *globals = params ? kr_alloc(r, (global_count + 1) * 8) : NULL;
   struct kr_buffer *range_buf = globals ? kr_alloc(r, sizeof(ranges)) : NULL;
   /* The fault word and scratch, sized as launch.c sizes them: a faulting
    * 32-byte access (sm_100's .v8.f32) lands as far as byte 271. */
   struct kr_buffer *fault_buf = range_buf ? kr_alloc(r, 16 + CUVK_KERNEL_SCRATCH_SIZE + 16)
                                           : NULL;
   if (!fault_buf) {
      fprintf(stderr, "%s: allocating the run's buffers failed\n", r->h.name);
      free(k.words);
      return false;
   }
   for (unsigned i = 0; i < arg_count; i++) {
      if (args[i].size != k.params[i].size) {
         fprintf(stderr, "%s: parameter %u of %s has %u bytes, the test gave %u\n", r->h.name,
                 i, kernel, k.params[i].size, args[i].size);
         free(k.words);
         return false;
      }
      memcpy((uint8_t *)params->map + k.params[i].offset, args[i].data, args[i].size);
   }
   /* A word inside one of the test's buffers gets the buffer as its span,
    * less the widest access at its end, as the launch code does for host
    * ranges; any other word none.  (The buffers' delta is 0, so the runs
    * here show the fast path's SPIR-V runs; tests/module, with real
    * deltas, shows it lands on the right bytes.) */
   for (uint32_t w = 0; w < span_count; w++) {
      struct cuvk_kernel_span span = { 0 };
      uint64_t v;
      memcpy(&v, (uint8_t *)params->map + w * 8, 8);
      for (unsigned i = 0; i < test_buffers; i++) {
         const struct kr_buffer *buf = &r->buffers[i];
         if (v - buf->addr < buf->size && buf->size > CUVK_KERNEL_SPAN_ACCESS)
            span = (struct cuvk_kernel_span){ buf->addr, buf->size - CUVK_KERNEL_SPAN_ACCESS + 1, 0 };
      }
      memcpy((uint8_t *)params->map + spans_at + w * sizeof(span), &span, sizeof(span));
   }
   memcpy(globals->map, r->global_addrs, global_count * 8);
   memcpy(range_buf->map, ranges, test_buffers * sizeof(ranges[0]));

   struct cuvk_kernel_push push = {
      .params = params->addr,
      .globals = globals->addr,
      .page_table = r->page_table,
      .va_base = r->va_base,
      .va_size = r->va_size,
      .host_ranges = range_buf->addr,
      .fault = fault_buf->addr,
      .host_range_count = test_buffers,
      .nctaid = { grid[0], grid[1], grid[2] },
   };

   VkShaderModule module = VK_NULL_HANDLE;
   VkPipelineLayout layout = VK_NULL_HANDLE;
   VkPipeline pipeline = VK_NULL_HANDLE;
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   VkFence fence = VK_NULL_HANDLE;
   VkShaderModuleCreateInfo smi = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
      .codeSize = k.word_count * 4,
      .pCode = k.words,
   };
   VkPushConstantRange range = { VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push) };
   VkPipelineLayoutCreateInfo pli = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .pushConstantRangeCount = 1,
      .pPushConstantRanges = &range,
   };
   uint32_t spec[4] = { block[0], block[1], block[2], dynamic_shared };
   VkSpecializationMapEntry entries[4];
   for (uint32_t i = 0; i < 4; i++)
      entries[i] = (VkSpecializationMapEntry){ i, i * 4, 4 };
   VkSpecializationInfo si = { 4, entries, sizeof(spec), spec };
   if (vkCreateShaderModule(dev, &smi, NULL, &module) != VK_SUCCESS ||
       vkCreatePipelineLayout(dev, &pli, NULL, &layout) != VK_SUCCESS)
      goto out;
   VkComputePipelineCreateInfo cpi = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {
         .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_COMPUTE_BIT,
         .module = module,
         .pName = kernel,
         .pSpecializationInfo = &si,
      },
      .layout = layout,
   };
   if (vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpi, NULL, &pipeline) != VK_SUCCESS)
      goto out;
   VkCommandBufferAllocateInfo cai = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .commandPool = r->pool,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 1,
   };
   VkFenceCreateInfo fi = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
   VkCommandBufferBeginInfo bi = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
   };
   if (vkAllocateCommandBuffers(dev, &cai, &cmd) != VK_SUCCESS ||
       vkCreateFence(dev, &fi, NULL, &fence) != VK_SUCCESS ||
       vkBeginCommandBuffer(cmd, &bi) != VK_SUCCESS)
      goto out;
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
   vkCmdDispatch(cmd, grid[0], grid[1], grid[2]);
   /* The host reads what the kernel wrote. */
   VkMemoryBarrier mb = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
      .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                        1, &mb, 0, NULL, 0, NULL);
   if (vkEndCommandBuffer(cmd) != VK_SUCCESS)
      goto out;
   VkSubmitInfo submit = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .commandBufferCount = 1,
      .pCommandBuffers = &cmd,
   };
   if (vkQueueSubmit(r->h.queue, 1, &submit, fence) != VK_SUCCESS ||
       vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX) != VK_SUCCESS)
      goto out;
   memcpy(fault, fault_buf->map, 4);
   ok = true;
out:
   if (!ok)
      fprintf(stderr, "%s: running %s failed in Vulkan\n", r->h.name, kernel);
   if (fence)
      vkDestroyFence(dev, fence, NULL);
   if (cmd)
      vkFreeCommandBuffers(dev, r->pool, 1, &cmd);
   if (pipeline)
      vkDestroyPipeline(dev, pipeline, NULL);
   if (layout)
      vkDestroyPipelineLayout(dev, layout, NULL);
   if (module)
      vkDestroyShaderModule(dev, module, NULL);
   /* The run's buffers go; the test's stay. */
   while (r->buffer_count > test_buffers) {
      struct kr_buffer *b = &r->buffers[--r->buffer_count];
      vkDestroyBuffer(dev, b->buffer, NULL);
      vkFreeMemory(dev, b->memory, NULL);
   }
   free(k.words);
   return ok;
}
