/*
 * unit.layer.semaphore_probe: when VK_LAYER_CUVK_interop provides
 * exportable semaphores and when it stays out of the way, for drivers CI
 * does not have.  lavapipe (no fd extension, timelines) is the emulated
 * case that the layer suite runs for real; NVIDIA (fd extension, OPAQUE_FD
 * exportable) must be left alone.
 */
#include "layer/layer_semaphore.h"
#include "unit_test.h"

static const VkExternalSemaphoreFeatureFlags both = VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT |
                                                    VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT;

int
main(void)
{
   /* NVIDIA: the driver exports natively. */
   struct layer_sem_probe nvidia = {
      .has_fd_extension = true,
      .properties_known = true,
      .opaque_fd_features = both,
      .timeline_core = true,
      .timeline_extension = true,
   };
   UNIT_CHECK(layer_semaphore_decide(&nvidia) == LAYER_SEM_NATIVE);
   /* Its properties not asked (an instance without 1.1 or the
    * capabilities extension): still the driver's. */
   nvidia.properties_known = false;
   nvidia.opaque_fd_features = 0;
   UNIT_CHECK(layer_semaphore_decide(&nvidia) == LAYER_SEM_NATIVE);

   /* A driver with the extension but SYNC_FD only: its own business. */
   struct layer_sem_probe sync_only = {
      .has_fd_extension = true,
      .properties_known = true,
      .opaque_fd_features = 0,
      .timeline_core = true,
   };
   UNIT_CHECK(layer_semaphore_decide(&sync_only) == LAYER_SEM_NATIVE);

   /* lavapipe 22.3: no extension, no exportable OPAQUE_FD, timelines in
    * 1.2 core and as VK_KHR_timeline_semaphore. */
   struct layer_sem_probe lavapipe = {
      .properties_known = true,
      .opaque_fd_features = 0,
      .timeline_core = true,
      .timeline_extension = true,
   };
   UNIT_CHECK(layer_semaphore_decide(&lavapipe) == LAYER_SEM_EMULATE);
   /* An application on Vulkan 1.1: timelines through the extension. */
   lavapipe.timeline_core = false;
   UNIT_CHECK(layer_semaphore_decide(&lavapipe) == LAYER_SEM_EMULATE);
   /* No timelines at all: nothing to build on. */
   lavapipe.timeline_extension = false;
   UNIT_CHECK(layer_semaphore_decide(&lavapipe) == LAYER_SEM_NONE);
   return unit_report("unit.layer.semaphore_probe");
}
