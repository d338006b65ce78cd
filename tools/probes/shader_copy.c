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
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <vulkan/vulkan.h>

#include "shader_copy_spv.h"

#define CK(x) do { VkResult r_ = (x); if (r_) { printf("%s: %d\n", #x, r_); exit(1); } } while (0)

static double
now_us(void)
{
   struct timespec t;
   clock_gettime(CLOCK_MONOTONIC, &t);
   return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

static VkPhysicalDeviceMemoryProperties mp;

static uint32_t
type_with(uint32_t bits, VkMemoryPropertyFlags want, VkMemoryPropertyFlags avoid)
{
   for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
      if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want &&
          !(mp.memoryTypes[i].propertyFlags & avoid))
         return i;
   for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
      if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
         return i;
   return 0;
}

static void
mkbuf(VkDevice d, VkDeviceSize size, VkMemoryPropertyFlags want, VkMemoryPropertyFlags avoid, VkBuffer *b,
      VkDeviceMemory *m)
{
   VkBufferCreateInfo bi = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
                             .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT };
   CK(vkCreateBuffer(d, &bi, NULL, b));
   VkMemoryRequirements r;
   vkGetBufferMemoryRequirements(d, *b, &r);
   VkMemoryAllocateInfo ai = { VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, r.size,
                               type_with(r.memoryTypeBits, want, avoid) };
   CK(vkAllocateMemory(d, &ai, NULL, m));
   CK(vkBindBufferMemory(d, *b, *m, 0));
}


int
main(int argc, char **argv)
{
   VkDeviceSize size = argc > 1 ? strtoull(argv[1], NULL, 0) : (1ull << 30);
   VkApplicationInfo app = { VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "p", 1, "p", 1, VK_API_VERSION_1_2 };
   VkInstanceCreateInfo ici = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app };
   VkInstance inst;
   CK(vkCreateInstance(&ici, NULL, &inst));
   uint32_t n = 1;
   VkPhysicalDevice pdev;
   vkEnumeratePhysicalDevices(inst, &n, &pdev);
   vkGetPhysicalDeviceMemoryProperties(pdev, &mp);
   uint32_t qfc = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(pdev, &qfc, NULL);
   VkQueueFamilyProperties qf[16];
   vkGetPhysicalDeviceQueueFamilyProperties(pdev, &qfc, qf);
   uint32_t fam = 0;
   for (uint32_t i = 0; i < qfc; i++)
      if ((qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && !(qf[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)) {
         fam = i;
         break;
      }
   float prio = 1;
   VkDeviceQueueCreateInfo qi = { VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, fam, 1, &prio };
   const char *exts[] = { "VK_EXT_external_memory_host" };
   bool thp = argc > 2 && strcmp(argv[2], "thp") == 0;
   VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &qi, .enabledExtensionCount = thp ? 1 : 0,
                              .ppEnabledExtensionNames = exts };
   VkDevice d;
   CK(vkCreateDevice(pdev, &dci, NULL, &d));
   VkQueue q;
   vkGetDeviceQueue(d, fam, 0, &q);
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
      CK(props_fn(d, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, host, &hp));
      VkExternalMemoryBufferCreateInfo ebi = { VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO, NULL,
                                               VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT };
      VkBufferCreateInfo bi = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .pNext = &ebi, .size = size,
                                .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                         VK_BUFFER_USAGE_STORAGE_BUFFER_BIT };
      CK(vkCreateBuffer(d, &bi, NULL, &hb));
      VkMemoryRequirements r;
      vkGetBufferMemoryRequirements(d, hb, &r);
      VkImportMemoryHostPointerInfoEXT imp = { VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT, NULL,
                                               VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, host };
      VkMemoryAllocateInfo ai = { VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &imp, size,
                                  type_with(hp.memoryTypeBits & r.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, 0) };
      CK(vkAllocateMemory(d, &ai, NULL, &hm));
      CK(vkBindBufferMemory(d, hb, hm, 0));
   } else {
      mkbuf(d, size, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &hb, &hm);
   }
   mkbuf(d, size, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, &db, &dm);
   if (!thp) {
      void *p;
      CK(vkMapMemory(d, hm, 0, VK_WHOLE_SIZE, 0, &p));
      memset(p, 3, size);
   }
   VkShaderModuleCreateInfo smi = { VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0, sizeof(probe_shader_copy), probe_shader_copy };
   VkShaderModule sm;
   CK(vkCreateShaderModule(d, &smi, NULL, &sm));
   VkDescriptorSetLayoutBinding binds[2] = {
      { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
      { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
   };
   VkDescriptorSetLayoutCreateInfo dli = { VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, NULL, 0, 2, binds };
   VkDescriptorSetLayout dsl;
   CK(vkCreateDescriptorSetLayout(d, &dli, NULL, &dsl));
   VkPushConstantRange pcr = { VK_SHADER_STAGE_COMPUTE_BIT, 0, 8 };
   VkPipelineLayoutCreateInfo pli = { VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0, 1, &dsl, 1, &pcr };
   VkPipelineLayout pl;
   CK(vkCreatePipelineLayout(d, &pli, NULL, &pl));
   VkComputePipelineCreateInfo cpi = { VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, NULL, 0,
                                       { VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0,
                                         VK_SHADER_STAGE_COMPUTE_BIT, sm, "main", NULL },
                                       pl, VK_NULL_HANDLE, 0 };
   VkPipeline pipe;
   CK(vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &cpi, NULL, &pipe));
   VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4 };
   VkDescriptorPoolCreateInfo dpi = { VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, 2, 1, &ps };
   VkDescriptorPool dp;
   CK(vkCreateDescriptorPool(d, &dpi, NULL, &dp));
   VkDescriptorSetLayout dsls[2] = { dsl, dsl };
   VkDescriptorSetAllocateInfo dsai = { VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL, dp, 2, dsls };
   VkDescriptorSet ds[2];
   CK(vkAllocateDescriptorSets(d, &dsai, ds));
   for (int dir = 0; dir < 2; dir++) {
      VkDescriptorBufferInfo bis[2] = { { dir ? db : hb, 0, VK_WHOLE_SIZE }, { dir ? hb : db, 0, VK_WHOLE_SIZE } };
      VkWriteDescriptorSet w = { VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, ds[dir], 0, 0, 2,
                                 VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, bis, NULL };
      vkUpdateDescriptorSets(d, 1, &w, 0, NULL);
   }
   VkCommandPool pool;
   VkCommandPoolCreateInfo pci = { VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL,
                                   VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, fam };
   CK(vkCreateCommandPool(d, &pci, NULL, &pool));
   VkCommandBuffer cb;
   VkCommandBufferAllocateInfo cai = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, pool,
                                       VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1 };
   CK(vkAllocateCommandBuffers(d, &cai, &cb));
   VkFence fence;
   VkFenceCreateInfo fci = { VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
   CK(vkCreateFence(d, &fci, NULL, &fence));
   uint32_t groups_list[] = { 132, 528, 2112, 8448, 33792 };
   for (int dir = 0; dir < 2; dir++) {
      for (int engine = 0; engine < 2; engine++) {
         for (unsigned gi = 0; gi < (engine ? 2 : 1); gi++) {
            uint32_t groups = groups_list[gi];
            double best = 1e18;
            for (int rep = 0; rep < 4; rep++) {
               VkCommandBufferBeginInfo bi = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
                                               VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
               CK(vkBeginCommandBuffer(cb, &bi));
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
               CK(vkEndCommandBuffer(cb));
               VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb };
               double t0 = now_us();
               CK(vkQueueSubmit(q, 1, &si, fence));
               CK(vkWaitForFences(d, 1, &fence, VK_TRUE, UINT64_MAX));
               double t = now_us() - t0;
               CK(vkResetFences(d, 1, &fence));
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
   vkDestroyInstance(inst, NULL);
   return 0;
}
