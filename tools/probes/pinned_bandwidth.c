/* Pinned <-> device copy bandwidth of the driver alone (docs/design.md,
 * "Pinned transfers have a ceiling of their own"): vkCmdCopyBuffer on the
 * copy-engine family's queues, one queue against the copy split over two,
 * and an upload with a download at once.  Usage: probe-pinned-bandwidth
 * [BYTES] [c|uc]: cached (default) or uncached host memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <time.h>
#include <vulkan/vulkan.h>

#define CK(x) do { VkResult r_ = (x); if (r_) { printf("%s: %d\n", #x, r_); exit(1); } } while (0)

static double
now(void)
{
   struct timespec t;
   clock_gettime(CLOCK_MONOTONIC, &t);
   return t.tv_sec + t.tv_nsec * 1e-9;
}

static VkPhysicalDeviceMemoryProperties mp;

static uint32_t
type_with(uint32_t bits, VkMemoryPropertyFlags want, VkMemoryPropertyFlags avoid)
{
   for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
      if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want &&
          !(mp.memoryTypes[i].propertyFlags & avoid))
         return i;
   return UINT32_MAX;
}

static void
mkbuf(VkDevice d, VkDeviceSize size, VkMemoryPropertyFlags want, VkMemoryPropertyFlags avoid, VkBuffer *b,
      VkDeviceMemory *m)
{
   VkBufferCreateInfo bi = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
                             .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT };
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
   uint32_t fam = 0, qcount = 1;
   for (uint32_t i = 0; i < qfc; i++)
      if ((qf[i].queueFlags & VK_QUEUE_TRANSFER_BIT) && !(qf[i].queueFlags & (VK_QUEUE_COMPUTE_BIT | 1))) {
         fam = i;
         qcount = qf[i].queueCount;
         break;
      }
   /* The compute family (cuvk's), for comparison. */
   uint32_t cfam = 0, ccount = 1;
   for (uint32_t i = 0; i < qfc; i++)
      if ((qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && !(qf[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)) {
         cfam = i;
         ccount = qf[i].queueCount;
         break;
      }
   printf("copy family %u (%u queues), compute family %u (%u queues)\n", fam, qcount, cfam, ccount);
   float prio[16] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
   VkDeviceQueueCreateInfo qi[2] = {
      { VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, fam, qcount, prio },
      { VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, cfam, ccount < 4 ? ccount : 4, prio },
   };
   VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 2,
                              .pQueueCreateInfos = qi };
   VkDevice d;
   CK(vkCreateDevice(pdev, &dci, NULL, &d));

   const VkDeviceSize size = argc > 1 ? strtoull(argv[1], NULL, 0) : (1ull << 30);
   VkBuffer host, host2, dev;
   VkDeviceMemory hm, hm2, dm;
   bool uc = argc > 2 && strcmp(argv[2], "uc") == 0;
   VkMemoryPropertyFlags hw = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | (uc ? 0 : VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
   VkMemoryPropertyFlags ha = uc ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT : 0;
   mkbuf(d, size, hw, ha, &host, &hm);
   mkbuf(d, size, hw, ha, &host2, &hm2);
   printf("host memory: %s\n", uc ? "uncached" : "cached");
   mkbuf(d, size, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, &dev, &dm);
   void *p;
   CK(vkMapMemory(d, hm, 0, VK_WHOLE_SIZE, 0, &p));
   memset(p, 1, size);
   CK(vkMapMemory(d, hm2, 0, VK_WHOLE_SIZE, 0, &p));
   memset(p, 2, size);

   for (int which = 0; which < 1; which++) {
      uint32_t f = which ? cfam : fam, qn = which ? (ccount < 4 ? ccount : 4) : qcount;
      VkCommandPool pool;
      VkCommandPoolCreateInfo pci = { VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL,
                                      VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, f };
      CK(vkCreateCommandPool(d, &pci, NULL, &pool));
      VkCommandBuffer cb[16];
      VkCommandBufferAllocateInfo cai = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, pool,
                                          VK_COMMAND_BUFFER_LEVEL_PRIMARY, 16 };
      CK(vkAllocateCommandBuffers(d, &cai, cb));
      VkFence fence[16];
      for (int i = 0; i < 16; i++) {
         VkFenceCreateInfo fci = { VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
         CK(vkCreateFence(d, &fci, NULL, &fence[i]));
      }
      /* dir 0: HtoD, 1: DtoH, 2: HtoD on half the queues and DtoH on the others (duplex) */
      for (int dir = 0; dir < 3; dir++) {
         for (uint32_t split = 1; split <= (qn < 2 ? qn : 2); split++) {
            if (dir == 2 && split < 2)
               continue;
            double best = 1e9;
            for (int rep = 0; rep < 4; rep++) {
               VkDeviceSize part = size / split;
               for (uint32_t s = 0; s < split; s++) {
                  VkCommandBufferBeginInfo bi = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
                                                  VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
                  CK(vkBeginCommandBuffer(cb[s], &bi));
                  VkBufferCopy r = { s * part, s * part, part };
                  bool up = dir == 0 || (dir == 2 && s % 2 == 0);
                  if (up)
                     vkCmdCopyBuffer(cb[s], host, dev, 1, &r);
                  else
                     vkCmdCopyBuffer(cb[s], dev, host2, 1, &r);
                  CK(vkEndCommandBuffer(cb[s]));
               }
               double t0 = now();
               for (uint32_t s = 0; s < split; s++) {
                  VkQueue q;
                  vkGetDeviceQueue(d, f, s, &q);
                  VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                                      .pCommandBuffers = &cb[s] };
                  CK(vkQueueSubmit(q, 1, &si, fence[s]));
               }
               CK(vkWaitForFences(d, split, fence, VK_TRUE, UINT64_MAX));
               double t = now() - t0;
               CK(vkResetFences(d, split, fence));
               if (t < best)
                  best = t;
            }
            printf("%s family, %s, %u MiB over %u queue(s): %.2f ms, %.1f GB/s\n", which ? "compute" : "copy",
                   dir == 0 ? "HtoD" : dir == 1 ? "DtoH" : "duplex", (unsigned)(size >> 20), split, best * 1e3, size / best / 1e9);
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
   vkDestroyInstance(inst, NULL);
   return 0;
}
