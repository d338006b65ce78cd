/*
 * cuLaunchKernelEx: a launch described by a CUlaunchConfig and its
 * attributes.  Each attribute is honoured, accepted because cuvk already
 * gives at least what it asks (a hint, or an ordering cuvk keeps anyway),
 * or refused; each leaves one log line saying which.
 */
#include "cuda_api/module.h"

#include "cuda_api/driver.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

/* The events to record once the kernel is queued. */
struct launch_events {
   CUevent events[4];
   unsigned count;
};

static CUresult
launch_attribute(const CUlaunchAttribute *a, const char *entry, struct launch_events *ev)
{
   const CUlaunchAttributeValue *v = &a->value;
   switch (a->id) {
   case CU_LAUNCH_ATTRIBUTE_IGNORE:
      return CUDA_SUCCESS;
   case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
      if (!v->cooperative)
         return CUDA_SUCCESS;
      /* Vulkan promises nothing about workgroups running at once, so a
       * grid-wide barrier could wait forever; cuvk reports
       * CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH as 0, and CUDA answers a
       * cooperative launch on such a device so. */
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: cooperative launches are not supported (Vulkan does not "
                        "guarantee that all blocks of a grid run at once)", entry);
   case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
      if ((v->clusterDim.x <= 1 && v->clusterDim.y <= 1 && v->clusterDim.z <= 1))
         return CUDA_SUCCESS;
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: thread block clusters (%ux%ux%u) are not supported; only "
                        "1x1x1", entry, v->clusterDim.x, v->clusterDim.y, v->clusterDim.z);
   case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION:
   case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
      cuvk_logd("%s: cluster preference %d ignored (no clusters in cuvk)", entry, (int)a->id);
      return CUDA_SUCCESS;
   case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
   case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
   case CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING:
   case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
      cuvk_logd("%s: hint %d accepted and not acted on (Vulkan has no such control)", entry, (int)a->id);
      return CUDA_SUCCESS;
   case CU_LAUNCH_ATTRIBUTE_PRIORITY:
      /* Queue priorities are fixed when a Vulkan device is made; the
       * launch still runs in its stream's order. */
      cuvk_logd("%s: priority %d accepted; cuvk runs launches in stream order without priorities", entry,
                v->priority);
      return CUDA_SUCCESS;
   case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION:
      /* Permission to overlap with the previous kernel; not overlapping
       * is always correct. */
      cuvk_logd("%s: programmatic stream serialization %d: the launch keeps full stream order", entry,
                v->programmaticStreamSerializationAllowed);
      return CUDA_SUCCESS;
   case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
   case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
      /* One domain: every fence orders everything, which is what the
       * default domain gives and stronger than a remote one. */
      cuvk_logd("%s: memory synchronisation domain attribute %d accepted; cuvk has one domain", entry,
                (int)a->id);
      return CUDA_SUCCESS;
   case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT:
   case CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT: {
      /* CUDA lets both events trigger later than the moment they name
       * (they are best effort); cuvk records them when the whole kernel
       * is done, which is after every block triggered or began. */
      CUevent e = a->id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT ? v->programmaticEvent.event
                                                                   : v->launchCompletionEvent.event;
      if (!e)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: launch attribute %d without an event", entry,
                           (int)a->id);
      if (ev->count == sizeof(ev->events) / sizeof(ev->events[0]))
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: too many event attributes", entry);
      cuvk_logd("%s: event of attribute %d recorded when the kernel completes", entry, (int)a->id);
      ev->events[ev->count++] = e;
      return CUDA_SUCCESS;
   }
   case CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE:
      if (!v->deviceUpdatableKernelNode.deviceUpdatable)
         return CUDA_SUCCESS;
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: device-updatable kernel nodes exist only in graphs",
                        entry);
   default:
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: launch attribute %d is unknown", entry, (int)a->id);
   }
}

static CUresult
launch_ex(const CUlaunchConfig *config, CUfunction f, void **params, void **extra, bool per_thread,
          const char *entry)
{
   CUresult res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;
   if (!config)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: config is NULL", entry);
   if (config->numAttrs && !config->attrs)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %u attributes and attrs is NULL", entry,
                        config->numAttrs);
   struct launch_events ev = {.count = 0};
   for (unsigned i = 0; i < config->numAttrs; i++) {
      res = launch_attribute(&config->attrs[i], entry, &ev);
      if (res != CUDA_SUCCESS)
         return res;
   }
   const uint32_t grid[3] = {config->gridDimX, config->gridDimY, config->gridDimZ};
   const uint32_t block[3] = {config->blockDimX, config->blockDimY, config->blockDimZ};
   CUstream stream = config->hStream;
   if (per_thread && !stream)
      stream = CU_STREAM_PER_THREAD;
   res = cuvk_launch_kernel(f, grid, block, config->sharedMemBytes, stream, params, extra, entry);
   for (unsigned i = 0; i < ev.count && res == CUDA_SUCCESS; i++)
      res = cuEventRecord(ev.events[i], stream);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
   return launch_ex(config, f, kernelParams, extra, false, "cuLaunchKernelEx");
}

CUVK_EXPORT CUresult CUDAAPI
cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
   return launch_ex(config, f, kernelParams, extra, true, "cuLaunchKernelEx_ptsz");
}
