#include "mem/import_size.h"

#include <fcntl.h>
#include <unistd.h>

#include "mem/block_heap.h"
#include "util/log.h"

static bool
imports_at(VkDevice vk, int fd, uint32_t type_index, VkDeviceSize size)
{
   int dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
   if (dup_fd < 0)
      return false;
   VkImportMemoryFdInfoKHR import = {
      .sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR,
      .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
      .fd = dup_fd,
   };
   VkDeviceMemory memory;
   if (cuvk_mem_allocate(vk, size, type_index, &import, &memory) != VK_SUCCESS) {
      close(dup_fd); /* a failed import leaves the fd with us */
      return false;
   }
   vkFreeMemory(vk, memory, NULL);
   return true;
}

bool
cuvk_mem_probe_import_size(VkDevice vk, int fd, uint32_t type_index, VkDeviceSize granule,
                           VkDeviceSize limit, VkDeviceSize *size)
{
   unsigned tries = 1;
   if (granule == 0 || limit < granule || !imports_at(vk, fd, type_index, granule))
      return false;

   /* Doubling finds a size that fails, then halving the gap between the
    * largest success and the smallest failure: about 2 log2(size /
    * granule) imports. */
   VkDeviceSize good = granule, bad = 0;
   while (!bad) {
      VkDeviceSize next = good * 2;
      if (next > limit || next < good) {
         bad = limit / granule * granule + granule;
         break;
      }
      tries++;
      if (imports_at(vk, fd, type_index, next))
         good = next;
      else
         bad = next;
   }
   while (bad - good > granule) {
      VkDeviceSize mid = good + (bad - good) / granule / 2 * granule;
      tries++;
      if (imports_at(vk, fd, type_index, mid))
         good = mid;
      else
         bad = mid;
   }
   cuvk_logi("fd %d: %llu bytes, found by %u trial imports", fd, (unsigned long long)good, tries);
   *size = good;
   return true;
}
