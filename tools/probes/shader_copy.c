/* Pinned <-> device copies of the driver alone (docs/design.md, "Pinned
 * transfers have a ceiling of their own"): vkCmdCopyBuffer on a compute
 * queue against a compute shader copying 16 bytes a lane, over 132 and
 * 528 workgroups.  Usage: probe-shader-copy [BYTES] [thp]: the host side
 * is the driver's host-visible cached memory, or with thp the process's
 * own memory on transparent huge pages, imported through
 * VK_EXT_external_memory_host. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <vulkan/vulkan.h>

#include "probe_util.h"
#include "shader_copy_spv.h"


int
main(int argc, char **argv)
{
   VkDeviceSize size = argc > 1 ? strtoull(argv[1], NULL, 0) : (1ull << 30);
   struct probe p;
   probe_init(&p);
   uint32_t qn;
   uint32_t fam = probe_family(&p, VK_QUEUE_COMPUTE_BIT, VK_QUEUE_GRAPHICS_BIT, &qn);
   float prio = 1;
   VkDeviceQueueCreateInfo qi = { VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, fam, 1, &prio };
   const char *exts[] = { "VK_EXT_external_memory_host" };
   bool thp = argc > 2 && strcmp(argv[2], "thp") == 0;
   VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &qi, .enabledExtensionCount = thp ? 1 : 0,
                              .ppEnabledExtensionNames = exts };
   VkDevice d;
   PROBE_CK(vkCreateDevice(p.pdev, &dci, NULL, &d));
   VkQueue q;
   vkGetDeviceQueue(d, fam, 0, &q);
   const VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
   VkBuffer hb, db;
   VkDeviceMemory hm, dm;
   if (thp) {
      /* Host memory of the process's own, on transparent huge pages,
       * imported (VK_EXT_external_memory_host). */
      void *host = NULL;
      if (posix_memalign(&host, 2u << 20, size)) {
         printf("posix_memalign failed\n");
         return 1;
      }
      printf("madvise(MADV_HUGEPAGE): %d\n", madvise(host, size, MADV_HUGEPAGE));
      memset(host, 1, size);
      FILE *f = fopen("/proc/meminfo", "r");
      char line[256];
      while (f && fgets(line, sizeof(line), f))
         if (!strncmp(line, "AnonHugePages", 13))
            printf("%s", line);
      if (f)
         fclose(f);
      PFN_vkGetMemoryHostPointerPropertiesEXT props_fn =
         (PFN_vkGetMemoryHostPointerPropertiesEXT)vkGetDeviceProcAddr(d, "vkGetMemoryHostPointerPropertiesEXT");
      VkMemoryHostPointerPropertiesEXT hp = { VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT };
      PROBE_CK(props_fn(d, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, host, &hp));
      VkExternalMemoryBufferCreateInfo ebi = { VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO, NULL,
                                               VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT };
      VkBufferCreateInfo bi = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .pNext = &ebi, .size = size,
                                .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                         VK_BUFFER_USAGE_STORAGE_BUFFER_BIT };
      PROBE_CK(vkCreateBuffer(d, &bi, NULL, &hb));
      VkMemoryRequirements r;
      vkGetBufferMemoryRequirements(d, hb, &r);
      VkImportMemoryHostPointerInfoEXT imp = { VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT, NULL,
                                               VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, host };
      VkMemoryAllocateInfo ai = { VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &imp, size,
                                  probe_memory_type(&p, hp.memoryTypeBits & r.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, 0) };
      PROBE_CK(vkAllocateMemory(d, &ai, NULL, &hm));
      PROBE_CK(vkBindBufferMemory(d, hb, hm, 0));
   } else {
      probe_buffer(&p, d, size, usage, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                   VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &hb, &hm);
   }
   probe_buffer(&p, d, size, usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, &db,
                &dm);
   if (!thp) {
      void *map;
      PROBE_CK(vkMapMemory(d, hm, 0, VK_WHOLE_SIZE, 0, &map));
      memset(map, 3, size);
   }
   VkDescriptorSetLayout dsl;
   VkPipelineLayout pl;
   VkPipeline pipe;
   probe_pipeline(d, probe_shader_copy, sizeof(probe_shader_copy), 8, &dsl, &pl, &pipe);
   VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4 };
   VkDescriptorPoolCreateInfo dpi = { VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, 2, 1, &ps };
   VkDescriptorPool dp;
   PROBE_CK(vkCreateDescriptorPool(d, &dpi, NULL, &dp));
   VkDescriptorSetLayout dsls[2] = { dsl, dsl };
   VkDescriptorSetAllocateInfo dsai = { VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL, dp, 2, dsls };
   VkDescriptorSet ds[2];
   PROBE_CK(vkAllocateDescriptorSets(d, &dsai, ds));
   for (int dir = 0; dir < 2; dir++) {
      VkDescriptorBufferInfo bis[2] = { { dir ? db : hb, 0, VK_WHOLE_SIZE }, { dir ? hb : db, 0, VK_WHOLE_SIZE } };
      VkWriteDescriptorSet w = { VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, ds[dir], 0, 0, 2,
                                 VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, bis, NULL };
      vkUpdateDescriptorSets(d, 1, &w, 0, NULL);
   }
   VkCommandPool pool;
   VkCommandPoolCreateInfo pci = { VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL,
                                   VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, fam };
   PROBE_CK(vkCreateCommandPool(d, &pci, NULL, &pool));
   VkCommandBuffer cb;
   VkCommandBufferAllocateInfo cai = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, pool,
                                       VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1 };
   PROBE_CK(vkAllocateCommandBuffers(d, &cai, &cb));
   VkFence fence;
   VkFenceCreateInfo fci = { VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
   PROBE_CK(vkCreateFence(d, &fci, NULL, &fence));
   uint32_t groups_list[] = { 132, 528, 2112, 8448, 33792 };
   for (int dir = 0; dir < 2; dir++) {
      for (int engine = 0; engine < 2; engine++) {
         for (unsigned gi = 0; gi < (engine ? 2 : 1); gi++) {
            uint32_t groups = groups_list[gi];
            double best = 1e18;
            for (int rep = 0; rep < 4; rep++) {
               VkCommandBufferBeginInfo bi = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
                                               VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
               PROBE_CK(vkBeginCommandBuffer(cb, &bi));
               if (engine) {
                  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
                  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &ds[dir], 0, NULL);
                  uint32_t pc[2] = { (uint32_t)(size / 16), groups * 256 };
                  vkCmdPushConstants(cb, pl, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, pc);
                  vkCmdDispatch(cb, groups, 1, 1);
               } else {
                  VkBufferCopy r = { 0, 0, size };
                  vkCmdCopyBuffer(cb, dir ? db : hb, dir ? hb : db, 1, &r);
               }
               PROBE_CK(vkEndCommandBuffer(cb));
               VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb };
               double t0 = probe_now_us();
               PROBE_CK(vkQueueSubmit(q, 1, &si, fence));
               PROBE_CK(vkWaitForFences(d, 1, &fence, VK_TRUE, UINT64_MAX));
               double t = probe_now_us() - t0;
               PROBE_CK(vkResetFences(d, 1, &fence));
               if (t < best)
                  best = t;
            }
            printf("%s %s: %llu MiB in %.0f us, %.1f GB/s\n", dir ? "DtoH" : "HtoD",
                   engine ? "shader" : "vkCmdCopyBuffer (compute queue)", (unsigned long long)(size >> 20), best,
                   size / best / 1e3);
            if (engine)
               printf("   (%u workgroups of 256)\n", groups);
         }
      }
   }
   vkDeviceWaitIdle(d);
   vkDestroyDevice(d, NULL);
   vkDestroyInstance(p.instance, NULL);
   return 0;
}
