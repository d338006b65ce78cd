/* Whether a failed OPAQUE_FD import breaks the device it failed on
 * (docs/layer.md, "Without the layer").  Usage: probe-import-types MODE
 * TYPE [SIZE]: export SIZE bytes (1 MiB) from memory type TYPE, then
 * A: import into types 1, 0, 2, 3 until one succeeds, with device
 *    addresses (what cuvk did without a record before session 12);
 * B: import into TYPE only; C: as A without device addresses; D: no
 *    export or import;
 * then allocate 2..256 MiB of type 4 and 64 MiB of type 1 (the H100's
 * device types).  The type numbers are the H100's (580.159). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

#include "probe_util.h"

static struct probe p;

static VkDevice
mkdev(void)
{
   float prio = 1.0f;
   VkDeviceQueueCreateInfo q = { VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1, &prio };
   const char *exts[] = { "VK_KHR_external_memory_fd" };
   VkPhysicalDeviceBufferDeviceAddressFeatures bda = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES, .bufferDeviceAddress = VK_TRUE };
   VkDeviceCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &bda, .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &q, .enabledExtensionCount = 1, .ppEnabledExtensionNames = exts };
   VkDevice d;
   if (vkCreateDevice(p.pdev, &ci, NULL, &d)) {
      printf("vkCreateDevice failed\n");
      exit(1);
   }
   return d;
}

static int
export_fd(VkDevice d, uint32_t type, VkDeviceSize size, VkDeviceMemory *mem)
{
   VkExportMemoryAllocateInfo ex = { VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO, NULL,
                                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT };
   VkMemoryAllocateInfo ai = { VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &ex, size, type };
   VkResult r = vkAllocateMemory(d, &ai, NULL, mem);
   if (r) {
      printf("  export alloc type %u: %d\n", type, r);
      return -1;
   }
   PFN_vkGetMemoryFdKHR get = (PFN_vkGetMemoryFdKHR)vkGetDeviceProcAddr(d, "vkGetMemoryFdKHR");
   VkMemoryGetFdInfoKHR gi = { VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR, NULL, *mem,
                               VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT };
   int fd = -1;
   if (get(d, &gi, &fd)) {
      printf("  vkGetMemoryFdKHR failed\n");
      return -1;
   }
   return fd;
}

static int use_da;
static VkResult
import(VkDevice d, int fd, uint32_t type, VkDeviceSize size)
{
   int dupfd = dup(fd);
   VkImportMemoryFdInfoKHR im = { VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR, NULL,
                                  VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, dupfd };
   VkMemoryAllocateFlagsInfo fl = { VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO, &im, VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT, 0 };
   VkMemoryAllocateInfo ai = { VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, use_da ? (void *)&fl : (void *)&im, size, type };
   VkDeviceMemory m;
   VkResult r = vkAllocateMemory(d, &ai, NULL, &m);
   if (r == VK_SUCCESS)
      vkFreeMemory(d, m, NULL);
   else
      close(dupfd);
   return r;
}

static VkResult
plain_alloc(VkDevice d, uint32_t type, VkDeviceSize size)
{
   VkMemoryAllocateFlagsInfo fl = { VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO, NULL, VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT, 0 };
   VkMemoryAllocateInfo ai = { VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &fl, size, type };
   VkDeviceMemory m;
   VkResult r = vkAllocateMemory(d, &ai, NULL, &m);
   if (r == VK_SUCCESS)
      vkFreeMemory(d, m, NULL);
   return r;
}

int
main(int argc, char **argv)
{
   probe_init(&p);
   const VkPhysicalDeviceMemoryProperties *mp = &p.mem;
   for (uint32_t i = 0; i < mp->memoryTypeCount; i++)
      printf("type %u: flags 0x%x heap %u\n", i, mp->memoryTypes[i].propertyFlags, mp->memoryTypes[i].heapIndex);
   for (uint32_t i = 0; i < mp->memoryHeapCount; i++)
      printf("heap %u: size %llu flags 0x%x\n", i, (unsigned long long)mp->memoryHeaps[i].size,
             mp->memoryHeaps[i].flags);
   VkDevice exp = mkdev(), imp = mkdev();
   const char *mode = argc > 1 ? argv[1] : "A";
   uint32_t x = argc > 2 ? atoi(argv[2]) : 2;
   use_da = mode[0] != 'C';
   VkDeviceSize size = argc > 3 ? strtoull(argv[3], NULL, 0) : (1 << 20);
   printf("mode %s export type %u size %llu da %d:", mode, x, (unsigned long long)size, use_da);
   VkDeviceMemory em;
   int fd = mode[0] == 'D' ? -1 : export_fd(exp, x, size, &em);
   if (fd >= 0) {
      void *map;
      if (mp->memoryTypes[x].propertyFlags & 2)
         vkMapMemory(exp, em, 0, VK_WHOLE_SIZE, 0, &map);
      if (mode[0] == 'A' || mode[0] == 'C') {
         uint32_t seq[] = { 1, 0, 2, 3 };
         for (int i = 0; i < 4; i++) {
            VkResult r = import(imp, fd, seq[i], size);
            printf(" import %u:%d", seq[i], r);
            if (!r)
               break;
         }
      } else if (mode[0] == 'B') {
         printf(" import %u:%d", x, import(imp, fd, x, size));
      }
   }
   printf(" | allocs type 4:");
   for (VkDeviceSize s = 2 << 20; s <= (256ull << 20); s <<= 1)
      printf(" %lluMiB:%d", (unsigned long long)(s >> 20), plain_alloc(imp, 4, s));
   printf(" | type 1 64MiB:%d\n", plain_alloc(imp, 1, 64 << 20));
   vkDestroyDevice(imp, NULL);
   vkDestroyDevice(exp, NULL);
   vkDestroyInstance(p.instance, NULL);
   return 0;
}
