#include "util/device_policy.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/log.h"
#include "util/macros.h"

static uint32_t
first_type(const VkPhysicalDeviceMemoryProperties *mem, VkMemoryPropertyFlags want,
           VkMemoryPropertyFlags avoid)
{
   for (uint32_t i = 0; i < mem->memoryTypeCount; i++) {
      VkMemoryPropertyFlags f = mem->memoryTypes[i].propertyFlags;
      if ((f & want) == want && !(f & avoid))
         return i;
   }
   return UINT32_MAX;
}

void
cuvk_policy_memory_types(const VkPhysicalDeviceMemoryProperties *mem, uint32_t *device_type,
                         uint32_t *host_type)
{
   uint32_t big_heap = 0;
   VkDeviceSize big = 0;

   for (uint32_t h = 0; h < mem->memoryHeapCount; h++) {
      if ((mem->memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) &&
          mem->memoryHeaps[h].size > big) {
         big = mem->memoryHeaps[h].size;
         big_heap = h;
      }
   }

   /* CUVK_DEVICE_MEMORY=local keeps device allocations out of host-visible
    * (BAR) memory, for comparing the two on a GPU. */
   const char *env = getenv("CUVK_DEVICE_MEMORY");
   bool bar_ok = !env || strcmp(env, "local") != 0;

   *device_type = UINT32_MAX;
   for (uint32_t i = 0; bar_ok && i < mem->memoryTypeCount; i++) {
      VkMemoryPropertyFlags f = mem->memoryTypes[i].propertyFlags;
      VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
                                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      if ((f & want) == want && mem->memoryTypes[i].heapIndex == big_heap &&
          !(f & (VK_MEMORY_PROPERTY_PROTECTED_BIT | VK_MEMORY_PROPERTY_DEVICE_COHERENT_BIT_AMD))) {
         *device_type = i;
         break;
      }
   }
   if (*device_type == UINT32_MAX)
      *device_type = first_type(mem, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                                VK_MEMORY_PROPERTY_PROTECTED_BIT |
                                (bar_ok ? 0 : VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT));
   if (*device_type == UINT32_MAX)
      *device_type = first_type(mem, 0, VK_MEMORY_PROPERTY_PROTECTED_BIT);

   *host_type = first_type(mem, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
                                VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                           VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_PROTECTED_BIT);
   if (*host_type == UINT32_MAX)
      *host_type = first_type(mem, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                              VK_MEMORY_PROPERTY_PROTECTED_BIT);
}

/* An override variable: 0 when name is set to off_value, 1 when set to
 * on_value, with *why set to the matching *_why; -1 when unset, -2 when
 * set to anything else. */
static int
env_override(const char *name, const char *off_value, const char *off_why,
             const char *on_value, const char *on_why, const char **why)
{
   const char *env = getenv(name);
   if (env && strcmp(env, off_value) == 0) {
      *why = off_why;
      return 0;
   }
   if (env && strcmp(env, on_value) == 0) {
      *why = on_why;
      return 1;
   }
   return env ? -2 : -1;
}

bool
cuvk_policy_transfer_engine(VkPhysicalDeviceType type, const char **why)
{
   /* Measured with cuvk-bench (docs/design.md): on lavapipe the copy
    * shader reaches 0.4 GB/s, its device-address loads and stores being
    * emulated lane by lane, while vkCmdCopyBuffer is a memcpy at the
    * host's full speed.  On NVIDIA the shader is five times faster than
    * vkCmdCopyBuffer.  So CPU devices get transfer commands and GPUs the
    * shaders. */
   int env = env_override("CUVK_COPY_ENGINE", "compute", "CUVK_COPY_ENGINE=compute",
                          "transfer", "CUVK_COPY_ENGINE=transfer", why);
   if (env >= 0)
      return env;
   bool ignored = env == -2;
   if (type == VK_PHYSICAL_DEVICE_TYPE_CPU) {
      *why = ignored ? "CPU device (CUVK_COPY_ENGINE value not recognised)"
                     : "CPU device: vkCmdCopyBuffer beats the shader";
      return true;
   }
   *why = ignored ? "GPU (CUVK_COPY_ENGINE value not recognised)"
                  : "GPU: the copy shader beats vkCmdCopyBuffer";
   return false;
}

bool
cuvk_policy_fill_transfer(VkPhysicalDeviceType type, const char **why)
{
   /* Unlike the copy, the driver's own fill is never the slower one where
    * it was measured: a memset on lavapipe, and on an H200 244-246 us per
    * GiB against 247-249 for the best of 40 shapes of cuvk's fill shader
    * (docs/design.md). */
   int env = env_override("CUVK_FILL_ENGINE", "compute", "CUVK_FILL_ENGINE=compute",
                          "transfer", "CUVK_FILL_ENGINE=transfer", why);
   if (env >= 0)
      return env;
   bool ignored = env == -2;
   if (type == VK_PHYSICAL_DEVICE_TYPE_CPU)
      *why = ignored ? "CPU device (CUVK_FILL_ENGINE value not recognised)"
                     : "CPU device: vkCmdFillBuffer is a memset";
   else
      *why = ignored ? "GPU (CUVK_FILL_ENGINE value not recognised)"
                     : "GPU: vkCmdFillBuffer beats the fill shader";
   return true;
}

bool
cuvk_policy_bulk_memory(VkDriverId driver, const char **why)
{
   /* Measured on an H200 (driver 580.159, docs/design.md): a 1 GiB fill
    * took 221 us of GPU time in such memory against 246 in the device
    * type, beyond what the memory's bandwidth allows without compression,
    * and a copy of a constant 333 us against 524, while a copy of random
    * data ran the same in both.  The price is that small transfers into
    * these allocations go through the GPU, hence only large ones. */
   int env = env_override("CUVK_BULK_MEMORY", "plain", "CUVK_BULK_MEMORY=plain", "exportable",
                          "CUVK_BULK_MEMORY=exportable", why);
   if (env >= 0)
      return env;
   bool ignored = env == -2;
   if (driver == VK_DRIVER_ID_NVIDIA_PROPRIETARY) {
      *why = ignored ? "NVIDIA (CUVK_BULK_MEMORY value not recognised)"
                     : "NVIDIA: exportable memory fills and copies compressible data faster";
      return true;
   }
   *why = ignored ? "CUVK_BULK_MEMORY value not recognised" : "no gain measured on this driver";
   return false;
}

bool
cuvk_policy_sparse_reservations(VkPhysicalDevice pdev, uint32_t queue_family, const char **why)
{
   const char *env = getenv("CUVK_VMM_SPARSE");
   if (env && strcmp(env, "0") == 0) {
      *why = "CUVK_VMM_SPARSE=0";
      return false;
   }

   VkPhysicalDeviceFeatures features;
   vkGetPhysicalDeviceFeatures(pdev, &features);
   if (!features.sparseBinding || !features.sparseResidencyBuffer) {
      *why = "the device lacks sparseBinding or sparseResidencyBuffer";
      return false;
   }

   uint32_t count = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(pdev, &count, NULL);
   VkQueueFamilyProperties *families = calloc(count ? count : 1, sizeof(*families));
   if (!families) {
      *why = "out of host memory";
      return false;
   }
   vkGetPhysicalDeviceQueueFamilyProperties(pdev, &count, families);
   bool sparse_queue = queue_family < count &&
                       (families[queue_family].queueFlags & VK_QUEUE_SPARSE_BINDING_BIT);
   free(families);
   if (!sparse_queue) {
      *why = "cuvk's queue family has no sparse binding";
      return false;
   }

   *why = env ? "sparse residency for buffers (CUVK_VMM_SPARSE value not 0)"
              : "sparse residency for buffers";
   return true;
}

bool
cuvk_policy_read_only_host_import(VkDriverId driver, const char **why)
{
   if (driver == VK_DRIVER_ID_NVIDIA_PROPRIETARY) {
      *why = "NVIDIA: the driver refuses read-only pages";
      return false;
   }
   *why = "tried; a refusal answers CUDA_ERROR_NOT_SUPPORTED";
   return true;
}

bool
cuvk_policy_sampler_anisotropy(VkDriverId driver, const char **why)
{
   if (driver == VK_DRIVER_ID_MESA_LLVMPIPE) {
      *why = "llvmpipe: its shader compiler crashes on anisotropic samplers";
      return false;
   }
   *why = "the device has samplerAnisotropy";
   return true;
}

bool
cuvk_policy_import_size_probe(VkDriverId driver, const char **why)
{
   if (driver == VK_DRIVER_ID_NVIDIA_PROPRIETARY) {
      *why = "NVIDIA: an import larger than the allocation is refused";
      return true;
   }
   *why = "not measured to refuse imports larger than the allocation";
   return false;
}

bool
cuvk_policy_host_semaphore_ops(const char **why)
{
   int env = env_override("CUVK_HOST_SEMAPHORE_OPS", "0", "CUVK_HOST_SEMAPHORE_OPS=0", "1",
                          "CUVK_HOST_SEMAPHORE_OPS=1", why);
   if (env >= 0)
      return env;
   *why = env == -2 ? "CUVK_HOST_SEMAPHORE_OPS is neither 0 nor 1: the default, on"
                    : "the default: the host signals and waits where nothing on the GPU is in the way";
   return true;
}

enum cuvk_pageable_path
cuvk_policy_pageable_path(const char **why)
{
   /* Importing a pageable range costs pinning its pages, per copy (cuvk
    * cannot know when the caller frees them, so nothing can be kept);
    * whether that beats copying through staging is the driver's and the
    * machine's to show (docs/design.md), so auto stays with staging. */
   const char *env = getenv("CUVK_PAGEABLE_PATH");
   if (env && strcmp(env, "staged") == 0) {
      *why = "CUVK_PAGEABLE_PATH=staged";
      return CUVK_PAGEABLE_STAGED;
   }
   if (env && strcmp(env, "import") == 0) {
      *why = "CUVK_PAGEABLE_PATH=import";
      return CUVK_PAGEABLE_IMPORT;
   }
   bool ignored = env && *env && strcmp(env, "auto") != 0;
   *why = ignored ? "CUVK_PAGEABLE_PATH value not recognised: mapping or staging"
                  : "mapping where cached, else staging";
   return CUVK_PAGEABLE_AUTO;
}

/* CUVK_LANES: how many lanes a context has, 1 .. CUVK_MAX_LANES_WANTED;
 * 0 when unset. */
static uint32_t
lanes_wanted(void)
{
   const char *env = getenv("CUVK_LANES");
   if (!env || !*env)
      return 0;
   char *end;
   unsigned long n = strtoul(env, &end, 10);
   if (*end || n < 1 || n > CUVK_MAX_LANES_WANTED) {
      cuvk_logw("CUVK_LANES=%s is not a number of lanes from 1 to %u; using the default", env,
                CUVK_MAX_LANES_WANTED);
      return 0;
   }
   return (uint32_t)n;
}

/* Queue priorities within the context (pQueuePriorities, relative among
 * the device's queues): lanes of ordinary streams in the middle, the
 * high lane's queue at the top, as CUDA's stream priorities are relative
 * among a context's streams. */
#define QUEUE_PRIORITY_NORMAL 0.5f
#define QUEUE_PRIORITY_HIGH 1.0f

/* Adds a queue of family to plan; returns its index. */
static uint32_t
plan_queue(struct cuvk_lane_plan *plan, uint32_t family, float priority)
{
   uint32_t q = plan->queue_count++;
   uint32_t index = 0;
   for (uint32_t i = 0; i < q; i++)
      index += plan->queue_family[i] == family;
   plan->queue_family[q] = family;
   plan->queue_index[q] = index;
   plan->queue_priority[q] = priority;
   return q;
}

void
cuvk_policy_lanes(uint32_t family, uint32_t family_queues, uint32_t transfer_family,
                  uint32_t transfer_queues, struct cuvk_lane_plan *plan)
{
   family_queues = CUVK_MAX(family_queues, 1u);
   uint32_t wanted = lanes_wanted();
   uint32_t lanes = wanted ? wanted : family_queues > 1 ? CUVK_MIN(CUVK_DEFAULT_LANES, family_queues) : 1;
   uint32_t compute_queues = CUVK_MIN(lanes, family_queues);

   memset(plan, 0, sizeof(*plan));
   plan->high_lane = UINT32_MAX;
   plan->transfer_lane = UINT32_MAX;
   plan->ring_queue = UINT32_MAX;
   for (uint32_t q = 0; q < compute_queues; q++)
      plan_queue(plan, family, QUEUE_PRIORITY_NORMAL);
   for (uint32_t i = 0; i < lanes; i++)
      plan->lane_queue[i] = i % compute_queues;
   plan->virtual_lanes = lanes > compute_queues;
   plan->lane_count = lanes;
   /* The high lane: on a queue of its own where one is spare, and on a
    * shared one where lanes share anyway (CUVK_LANES, so lavapipe runs
    * the routing); with one lane on one queue, priorities change nothing
    * and every stream stays on lane 0, as before lanes. */
   if (family_queues > compute_queues) {
      plan->high_lane = plan->lane_count++;
      plan->lane_queue[plan->high_lane] = plan_queue(plan, family, QUEUE_PRIORITY_HIGH);
   } else if (plan->virtual_lanes) {
      plan->high_lane = plan->lane_count++;
      plan->lane_queue[plan->high_lane] = lanes % compute_queues;
   }

   /* Transfer lanes. */
   const char *env = getenv("CUVK_TRANSFER_LANES");
   bool on_compute = env && strcmp(env, "compute") == 0;
   bool off = env && strcmp(env, "0") == 0;
   if (env && !on_compute && !off && strcmp(env, "1") != 0)
      cuvk_logw("CUVK_TRANSFER_LANES=%s is not 0, 1 or compute; using the default", env);
   if (off) {
      plan->transfer_why = "off (CUVK_TRANSFER_LANES=0)";
   } else if (on_compute) {
      /* Queues of the compute family beyond the ones taken, else shared
       * with the compute lanes: the same code, testable on one queue. */
      plan->transfer_lane = plan->lane_count;
      plan->transfer_lane_count = CUVK_MAX_TRANSFER_LANES;
      for (uint32_t t = 0; t < CUVK_MAX_TRANSFER_LANES; t++) {
         uint32_t lane = plan->lane_count++;
         if (family_queues > plan->queue_count) {
            plan->lane_queue[lane] = plan_queue(plan, family, QUEUE_PRIORITY_NORMAL);
         } else {
            plan->lane_queue[lane] = t % compute_queues;
            plan->virtual_lanes = true;
         }
      }
      plan->transfer_why = "on the compute family (CUVK_TRANSFER_LANES=compute)";
   } else if (transfer_family != UINT32_MAX && transfer_queues) {
      plan->transfer_lane = plan->lane_count;
      plan->transfer_lane_count = CUVK_MIN(transfer_queues, CUVK_MAX_TRANSFER_LANES);
      for (uint32_t t = 0; t < plan->transfer_lane_count; t++)
         plan->lane_queue[plan->lane_count++] = plan_queue(plan, transfer_family, QUEUE_PRIORITY_NORMAL);
      plan->transfer_why = "on the copy-engine family";
   } else {
      plan->transfer_why = "none (no transfer-only queue family)";
   }
   /* A shared queue gives no queue priority of its own. */
   if (plan->virtual_lanes && plan->high_lane != UINT32_MAX)
      plan->queue_priority[plan->lane_queue[plan->high_lane]] = QUEUE_PRIORITY_NORMAL;
}

bool
cuvk_policy_ring(bool bar_memory, const char **why)
{
   int env = env_override("CUVK_RING", "0", "off (CUVK_RING=0)", "1", "on (CUVK_RING=1)", why);
   if (env == -2)
      cuvk_logw("CUVK_RING=%s is not 0 or 1; using the default", getenv("CUVK_RING"));
   if (env != 1) {
      /* Off unless asked for, everywhere: on an H100, while the dispatch
       * sat on its queue no other VkDevice's work ran, of this process
       * or another, for seconds on end (docs/design.md). */
      if (env != 0)
         *why = "off by default (CUVK_RING=1: while it runs, other GPU contexts wait)";
      return false;
   }
   if (!bar_memory) {
      *why = "off: no memory type is both device-local and host-visible";
      return false;
   }
   return true;
}

uint32_t
cuvk_policy_ring_memory_type(const VkPhysicalDeviceMemoryProperties *mem)
{
   return first_type(mem,
                     VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                        VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                     VK_MEMORY_PROPERTY_PROTECTED_BIT);
}

void
cuvk_policy_ring_queue(struct cuvk_lane_plan *plan, uint32_t family, uint32_t family_queues)
{
   uint32_t taken = 0;
   for (uint32_t q = 0; q < plan->queue_count; q++)
      taken += plan->queue_family[q] == family;
   if (family_queues > taken && plan->queue_count < CUVK_MAX_LANES) {
      plan->ring_queue = plan_queue(plan, family, QUEUE_PRIORITY_NORMAL);
      plan->ring_shared = false;
   } else {
      plan->ring_queue = plan->lane_queue[0];
      plan->ring_shared = true;
   }
}

uint32_t
cuvk_policy_lane_families(const struct cuvk_lane_plan *plan, uint32_t out[2])
{
   uint32_t n = 0;
   for (uint32_t q = 0; q < plan->queue_count; q++) {
      bool seen = false;
      for (uint32_t i = 0; i < n; i++)
         seen |= out[i] == plan->queue_family[q];
      if (!seen && n < 2)
         out[n++] = plan->queue_family[q];
   }
   return n;
}

unsigned
cuvk_policy_compile_threads(const char **why)
{
   long cpus = sysconf(_SC_NPROCESSORS_ONLN);
   unsigned n = (unsigned)CUVK_MIN(CUVK_MAX(cpus - 1, 0L), (long)CUVK_POLICY_COMPILE_THREADS_MAX);
   *why = "the CPUs online less one";
   const char *env = getenv("CUVK_COMPILE_THREADS");
   if (!env || !*env)
      return n;
   char *end;
   errno = 0;
   unsigned long v = strtoul(env, &end, 10);
   if (errno || *end || v > 64) {
      cuvk_logw("CUVK_COMPILE_THREADS=%s is not a number of threads from 0 to 64; using %u", env, n);
      return n;
   }
   *why = v ? "CUVK_COMPILE_THREADS" : "CUVK_COMPILE_THREADS=0 (off)";
   return (unsigned)v;
}

bool
cuvk_policy_pipelines_ahead(VkPhysicalDeviceType type, const char **why)
{
   const char *env = getenv("CUVK_COMPILE_PIPELINES");
   if (env && (strcmp(env, "0") == 0 || strcmp(env, "1") == 0)) {
      *why = "CUVK_COMPILE_PIPELINES";
      return env[0] == '1';
   }
   if (env && *env)
      cuvk_logw("CUVK_COMPILE_PIPELINES=%s is not 0 or 1; ignored", env);
   *why = type == VK_PHYSICAL_DEVICE_TYPE_CPU ? "a CPU device compiles at its first dispatch" : "a GPU";
   return type != VK_PHYSICAL_DEVICE_TYPE_CPU;
}
