/*
 * Whether VK_LAYER_CUVK_interop emulates exportable semaphores on a
 * physical device: the decision alone, with no Vulkan call, so that it is
 * unit-tested for drivers CI does not have (tests/unit/test_layer_probe.c).
 */
#ifndef CUVK_LAYER_SEMAPHORE_H
#define CUVK_LAYER_SEMAPHORE_H

#include <stdbool.h>

#include <vulkan/vulkan.h>

enum layer_sem_mode {
   /* The driver exports OPAQUE_FD semaphores: the layer stays out of the way. */
   LAYER_SEM_NATIVE,
   /* The driver has no VK_KHR_external_semaphore_fd: the layer provides it. */
   LAYER_SEM_EMULATE,
   /* Neither: no fd extension, and no timeline semaphores to build on. */
   LAYER_SEM_NONE,
};

/* What the driver (everything below the layer) says about a device.  The
 * properties are recorded for the log; the extension decides. */
struct layer_sem_probe {
   bool has_fd_extension;               /* lists VK_KHR_external_semaphore_fd */
   bool properties_known;               /* vkGetPhysicalDeviceExternalSemaphoreProperties was asked */
   VkExternalSemaphoreFeatureFlags opaque_fd_features;   /* its answer for OPAQUE_FD, binary */
   bool timeline_core;                  /* instance and device are Vulkan 1.2 */
   bool timeline_extension;             /* lists VK_KHR_timeline_semaphore */
};

static inline enum layer_sem_mode
layer_semaphore_decide(const struct layer_sem_probe *p)
{
   /* A driver that has the extension owns it, even where it exports no
    * OPAQUE_FD (SYNC_FD only): the layer cannot add a handle type to a
    * driver's extension without intercepting every semaphore, and the
    * application then sees what the driver says.  Without the extension no
    * driver can export (whatever its properties say), so the layer
    * provides it where it has timeline semaphores to build on. */
   if (p->has_fd_extension)
      return LAYER_SEM_NATIVE;
   if (p->timeline_core || p->timeline_extension)
      return LAYER_SEM_EMULATE;
   return LAYER_SEM_NONE;
}

#endif
