/* A resident compute shader polling a command ring, against a plain submit
 * and wait, for a small fill's round trip (docs/design.md, "A resident
 * command ring").  Usage: probe-command-ring [ITERATIONS] [cached|uc|bar]:
 * the ring in cached or uncached host memory, or in device-local
 * host-visible memory (the BAR).  On lavapipe it runs too, with nothing
 * to gain; a command not seen within 2 s ends the probe. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

#include "command_ring_spv.h"
#include "probe_util.h"

static int
cmpd(const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return x < y ? -1 : x > y;
}

static void
report(const char *what, double *t, int n)
{
   qsort(t, n, sizeof(double), cmpd);
   printf("%-48s median %6.2f us  p10 %6.2f  p90 %6.2f  min %6.2f\n", what, t[n / 2], t[n / 10], t[n * 9 / 10], t[0]);
}

struct ring {
   uint32_t seq, cmd, offset, count, value, done, check;
};

int
main(int argc, char **argv)
{
   int iters = argc > 1 ? atoi(argv[1]) : 2000;
   bool uncached = argc > 2 && strcmp(argv[2], "uc") == 0;
   bool bar = argc > 2 && strcmp(argv[2], "bar") == 0;
   struct probe p;
   probe_init(&p);
   uint32_t qn;
   uint32_t fam = probe_family(&p, VK_QUEUE_COMPUTE_BIT, VK_QUEUE_GRAPHICS_BIT, &qn);
   qn = qn < 2 ? qn : 2;
   float prio[2] = { 1, 1 };
   VkDeviceQueueCreateInfo qi = { VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, fam, qn, prio };
   VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &qi };
   VkDevice d;
   PROBE_CK(vkCreateDevice(p.pdev, &dci, NULL, &d));
   VkQueue qring, qwork;
   vkGetDeviceQueue(d, fam, 0, &qring);
   vkGetDeviceQueue(d, fam, qn - 1, &qwork);
   printf("family %u, %u queue(s); ring memory %s\n", fam, qn, bar ? "device-local (BAR)" : uncached ? "uncached" : "cached");

   const VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
   VkBuffer rb, db;
   VkDeviceMemory rm, dm;
   if (bar)
      probe_buffer(&p, d, 4096, usage, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, &rb, &rm);
   else
      probe_buffer(&p, d, 4096, usage,
            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
               (uncached ? 0 : VK_MEMORY_PROPERTY_HOST_CACHED_BIT),
            VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | (uncached ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT : 0), &rb, &rm);
   probe_buffer(&p, d, 1 << 20, usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, &db, &dm);
   struct ring *ring;
   PROBE_CK(vkMapMemory(d, rm, 0, VK_WHOLE_SIZE, 0, (void **)&ring));
   memset(ring, 0, sizeof(*ring));

   /* Pipeline. */
   VkDescriptorSetLayout dsl;
   VkPipelineLayout pl;
   VkPipeline pipe;
   probe_pipeline(d, probe_command_ring, sizeof(probe_command_ring), 0, &dsl, &pl, &pipe);
   VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 };
   VkDescriptorPoolCreateInfo dpi = { VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, 1, 1, &ps };
   VkDescriptorPool dp;
   PROBE_CK(vkCreateDescriptorPool(d, &dpi, NULL, &dp));
   VkDescriptorSetAllocateInfo dsai = { VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL, dp, 1, &dsl };
   VkDescriptorSet ds;
   PROBE_CK(vkAllocateDescriptorSets(d, &dsai, &ds));
   VkDescriptorBufferInfo bis[2] = { { rb, 0, VK_WHOLE_SIZE }, { db, 0, VK_WHOLE_SIZE } };
   VkWriteDescriptorSet w = { VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, ds, 0, 0, 2,
                              VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, bis, NULL };
   vkUpdateDescriptorSets(d, 1, &w, 0, NULL);

   VkCommandPool pool;
   VkCommandPoolCreateInfo pci = { VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, fam };
   PROBE_CK(vkCreateCommandPool(d, &pci, NULL, &pool));
   VkCommandBuffer cb[2];
   VkCommandBufferAllocateInfo cai = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, pool,
                                       VK_COMMAND_BUFFER_LEVEL_PRIMARY, 2 };
   PROBE_CK(vkAllocateCommandBuffers(d, &cai, cb));
   VkCommandBufferBeginInfo bi = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
   /* cb[0]: the resident shader; cb[1]: a 1 KiB fill + host-read barrier. */
   PROBE_CK(vkBeginCommandBuffer(cb[0], &bi));
   vkCmdBindPipeline(cb[0], VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
   vkCmdBindDescriptorSets(cb[0], VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &ds, 0, NULL);
   vkCmdDispatch(cb[0], 1, 1, 1);
   PROBE_CK(vkEndCommandBuffer(cb[0]));
   PROBE_CK(vkBeginCommandBuffer(cb[1], &bi));
   vkCmdFillBuffer(cb[1], db, 4096, 1024, 7);
   VkMemoryBarrier mb = { VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_TRANSFER_WRITE_BIT,
                          VK_ACCESS_HOST_READ_BIT };
   vkCmdPipelineBarrier(cb[1], VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0,
                        NULL);
   PROBE_CK(vkEndCommandBuffer(cb[1]));
   VkFence fence, rfence;
   VkFenceCreateInfo fci = { VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
   PROBE_CK(vkCreateFence(d, &fci, NULL, &fence));
   PROBE_CK(vkCreateFence(d, &fci, NULL, &rfence));

   double *t = calloc(iters, sizeof(double));
   /* Baseline: submit the fill and poll its fence. */
   for (int i = 0; i < iters; i++) {
      VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb[1] };
      double t0 = probe_now_us();
      PROBE_CK(vkQueueSubmit(qwork, 1, &si, fence));
      while (vkGetFenceStatus(d, fence) == VK_NOT_READY)
         ;
      t[i] = probe_now_us() - t0;
      PROBE_CK(vkResetFences(d, 1, &fence));
   }
   report("submit 1 KiB fill + poll fence (no ring)", t, iters);

   /* The ring. */
   VkSubmitInfo rsi = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb[0] };
   PROBE_CK(vkQueueSubmit(qring, 1, &rsi, rfence));
   int bad = 0;
   for (uint32_t words = 1; words <= 4096; words *= 16) {
      for (int i = 0; i < iters; i++) {
         uint32_t seq = (words == 1 ? 0 : 100000 * words) + i + 1;
         double t0 = probe_now_us();
         ring->cmd = 1;
         ring->offset = 64 + (i % 8) * 4096;
         ring->count = words;
         ring->value = seq * 3;
         atomic_thread_fence(memory_order_release);
         __atomic_store_n(&ring->seq, seq, __ATOMIC_RELEASE);
         double deadline = t0 + 2e6;
         while (__atomic_load_n(&ring->done, __ATOMIC_ACQUIRE) != seq) {
            if (probe_now_us() > deadline) {
               printf("ring stalled at seq %u (done %u, check %u, ring seq %u)\n", seq, ring->done, ring->check, ring->seq);
               fflush(stdout); _exit(1);
            }
         }
         t[i] = probe_now_us() - t0;
         if (ring->check != seq * 3)
            bad++;
      }
      char what[64];
      snprintf(what, sizeof(what), "ring: fill %u words, host sees done", words);
      report(what, t, iters);
   }
   printf("ring check mismatches: %d\n", bad);

   /* Plain submissions on the other queue while the ring shader runs. */
   if (qwork != qring) {
      for (int i = 0; i < iters; i++) {
         VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                             .pCommandBuffers = &cb[1] };
         double t0 = probe_now_us();
         PROBE_CK(vkQueueSubmit(qwork, 1, &si, fence));
         while (vkGetFenceStatus(d, fence) == VK_NOT_READY)
            ;
         t[i] = probe_now_us() - t0;
         PROBE_CK(vkResetFences(d, 1, &fence));
      }
      report("submit 1 KiB fill + poll fence, ring resident", t, iters);
   }

   ring->cmd = 0;
   __atomic_store_n(&ring->seq, 0xffffffffu, __ATOMIC_RELEASE);
   PROBE_CK(vkWaitForFences(d, 1, &rfence, VK_TRUE, 2000000000ull));
   printf("ring stopped\n");
   vkDeviceWaitIdle(d);
   vkDestroyDevice(d, NULL);
   vkDestroyInstance(p.instance, NULL);
   return 0;
}
