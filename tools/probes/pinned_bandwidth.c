/* Pinned <-> device copy bandwidth of the driver alone (docs/design.md,
 * "Pinned transfers have a ceiling of their own"): vkCmdCopyBuffer on the
 * copy-engine family's queues and on the compute family's, one queue
 * against the copy split over up to four, and uploads with downloads at
 * once.  Usage: probe-pinned-bandwidth
 * [BYTES] [c|uc]: cached (default) or uncached host memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <vulkan/vulkan.h>

#include "probe_util.h"

int
main(int argc, char **argv)
{
   struct probe p;
   probe_init(&p);
   uint32_t qcount, ccount;
   uint32_t fam = probe_family(&p, VK_QUEUE_TRANSFER_BIT, VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT, &qcount);
   /* The compute family (cuvk's), for comparison. */
   uint32_t cfam = probe_family(&p, VK_QUEUE_COMPUTE_BIT, VK_QUEUE_GRAPHICS_BIT, &ccount);
   printf("copy family %u (%u queues), compute family %u (%u queues)\n", fam, qcount, cfam, ccount);
   float prio[16] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
   VkDeviceQueueCreateInfo qi[2] = {
      { VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, fam, qcount, prio },
      { VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, cfam, ccount < 4 ? ccount : 4, prio },
   };
   /* Without a copy-engine family (lavapipe) both are the same one. */
   VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                              .queueCreateInfoCount = cfam == fam ? 1 : 2, .pQueueCreateInfos = qi };
   VkDevice d;
   PROBE_CK(vkCreateDevice(p.pdev, &dci, NULL, &d));

   const VkDeviceSize size = argc > 1 ? strtoull(argv[1], NULL, 0) : (1ull << 30);
   const VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
   VkBuffer host, host2, dev;
   VkDeviceMemory hm, hm2, dm;
   bool uc = argc > 2 && strcmp(argv[2], "uc") == 0;
   VkMemoryPropertyFlags hw = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | (uc ? 0 : VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
   VkMemoryPropertyFlags ha = uc ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT : 0;
   probe_buffer(&p, d, size, usage, hw, ha, &host, &hm);
   probe_buffer(&p, d, size, usage, hw, ha, &host2, &hm2);
   printf("host memory: %s\n", uc ? "uncached" : "cached");
   probe_buffer(&p, d, size, usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, &dev, &dm);
   void *map;
   PROBE_CK(vkMapMemory(d, hm, 0, VK_WHOLE_SIZE, 0, &map));
   memset(map, 1, size);
   PROBE_CK(vkMapMemory(d, hm2, 0, VK_WHOLE_SIZE, 0, &map));
   memset(map, 2, size);

   for (int which = 0; which < (cfam == fam ? 1 : 2); which++) {
      uint32_t f = which ? cfam : fam, qn = which ? (ccount < 4 ? ccount : 4) : qcount;
      VkCommandPool pool;
      VkCommandPoolCreateInfo pci = { VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL,
                                      VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, f };
      PROBE_CK(vkCreateCommandPool(d, &pci, NULL, &pool));
      VkCommandBuffer cb[16];
      VkCommandBufferAllocateInfo cai = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, pool,
                                          VK_COMMAND_BUFFER_LEVEL_PRIMARY, 16 };
      PROBE_CK(vkAllocateCommandBuffers(d, &cai, cb));
      VkFence fence[16];
      for (int i = 0; i < 16; i++) {
         VkFenceCreateInfo fci = { VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
         PROBE_CK(vkCreateFence(d, &fci, NULL, &fence[i]));
      }
      /* dir 0: HtoD, 1: DtoH, 2: HtoD on half the queues and DtoH on the others (duplex) */
      for (int dir = 0; dir < 3; dir++) {
         for (uint32_t split = 1; split <= (qn < 4 ? qn : 4); split++) {
            if (dir == 2 && split < 2)
               continue;
            double best = 1e18;
            for (int rep = 0; rep < 4; rep++) {
               VkDeviceSize part = size / split;
               for (uint32_t s = 0; s < split; s++) {
                  VkCommandBufferBeginInfo bi = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
                                                  VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
                  PROBE_CK(vkBeginCommandBuffer(cb[s], &bi));
                  VkBufferCopy r = { s * part, s * part, part };
                  bool up = dir == 0 || (dir == 2 && s % 2 == 0);
                  if (up)
                     vkCmdCopyBuffer(cb[s], host, dev, 1, &r);
                  else
                     vkCmdCopyBuffer(cb[s], dev, host2, 1, &r);
                  PROBE_CK(vkEndCommandBuffer(cb[s]));
               }
               double t0 = probe_now_us();
               for (uint32_t s = 0; s < split; s++) {
                  VkQueue q;
                  vkGetDeviceQueue(d, f, s, &q);
                  VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                                      .pCommandBuffers = &cb[s] };
                  PROBE_CK(vkQueueSubmit(q, 1, &si, fence[s]));
               }
               PROBE_CK(vkWaitForFences(d, split, fence, VK_TRUE, UINT64_MAX));
               double t = probe_now_us() - t0;
               PROBE_CK(vkResetFences(d, split, fence));
               if (t < best)
                  best = t;
            }
            printf("%s family, %s, %u MiB over %u queue(s): %.2f ms, %.1f GB/s\n", which ? "compute" : "copy",
                   dir == 0 ? "HtoD" : dir == 1 ? "DtoH" : "duplex", (unsigned)(size >> 20), split, best / 1e3, size / best / 1e3);
         }
      }
      vkDestroyCommandPool(d, pool, NULL);
      for (int i = 0; i < 16; i++)
         vkDestroyFence(d, fence[i], NULL);
   }
   vkDestroyBuffer(d, host, NULL);
   vkDestroyBuffer(d, host2, NULL);
   vkDestroyBuffer(d, dev, NULL);
   vkFreeMemory(d, hm, NULL);
   vkFreeMemory(d, hm2, NULL);
   vkFreeMemory(d, dm, NULL);
   vkDestroyDevice(d, NULL);
   vkDestroyInstance(p.instance, NULL);
   return 0;
}
