/*
 * layer.record.*: what VK_LAYER_CUVK_interop records for an export, read
 * back through the registry as cuImportExternalMemory will.
 *
 * The layer the loader runs here is the copy linked into this executable
 * (see meson.build: a test manifest names a tiny shim module that forwards
 * negotiation to this executable's exported entry point), so the registry
 * this test reads is the one the layer writes, with no test hook in
 * libcuvk.so.  The loader's view of the real libcuvk.so is tested by
 * test_loader.c and test_stack.c.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fd_util.h"
#include "array/format.h"
#include "layer/layer.h"
#include "mem/registry.h"
#include "vk_harness.h"

static bool
lookup(int fd, struct cuvk_mem_export_record *rec)
{
   memset(rec, 0xcd, sizeof(*rec));
   return cuvk_mem_registry_lookup_fd(fd, rec);
}

static void
check_image_info(const struct cuvk_mem_image_info *info, const VkImageCreateInfo *ci,
                 VkExternalMemoryHandleTypeFlags handle_types)
{
   VKH_CHECK(info->flags == ci->flags);
   VKH_CHECK(info->image_type == ci->imageType);
   VKH_CHECK(info->format == ci->format);
   VKH_CHECK(info->extent.width == ci->extent.width);
   VKH_CHECK(info->extent.height == ci->extent.height);
   VKH_CHECK(info->extent.depth == ci->extent.depth);
   VKH_CHECK(info->mip_levels == ci->mipLevels);
   VKH_CHECK(info->array_layers == ci->arrayLayers);
   VKH_CHECK(info->samples == ci->samples);
   VKH_CHECK(info->tiling == ci->tiling);
   VKH_CHECK(info->usage == ci->usage);
   VKH_CHECK(info->sharing_mode == ci->sharingMode);
   VKH_CHECK(info->initial_layout == ci->initialLayout);
   VKH_CHECK(info->handle_types == handle_types);
   VKH_CHECK(!info->has_drm_format_modifier);
}

static void
check_buffer_info(const struct cuvk_mem_buffer_info *info, VkDeviceSize size,
                  VkBufferUsageFlags usage)
{
   VKH_CHECK(info->flags == 0);
   VKH_CHECK(info->size == size);
   VKH_CHECK(info->usage == usage);
   VKH_CHECK(info->sharing_mode == VK_SHARING_MODE_EXCLUSIVE);
   VKH_CHECK(info->handle_types == VKH_OPAQUE_FD);
}

static void
check_allocation(const struct vkh *h, const struct cuvk_mem_export_record *rec,
                 VkDeviceSize size, uint32_t type_index)
{
   VKH_CHECK(rec->has_uuids);
   VKH_CHECK(memcmp(rec->device_uuid, h->device_uuid, VK_UUID_SIZE) == 0);
   VKH_CHECK(memcmp(rec->driver_uuid, h->driver_uuid, VK_UUID_SIZE) == 0);
   VKH_CHECK(rec->allocation_size == size);
   VKH_CHECK(rec->memory_type_index == type_index);
   VKH_CHECK(rec->memory_flags == h->memory_properties.memoryTypes[type_index].propertyFlags);
   VKH_CHECK(rec->allocate_flags == 0);
   VKH_CHECK(rec->handle_types == VKH_OPAQUE_FD);
   VKH_CHECK(rec->exported_handle_type == VKH_OPAQUE_FD);
   VKH_CHECK(!rec->bindings_truncated);
}

/* An exportable image with the usage vulkanImageCUDA gives it (transfer
 * only here) is created, and recorded, with what CUDA's textures and
 * surfaces need: SAMPLED and STORAGE usage and MUTABLE_FORMAT, with a
 * format list of exactly the formats cuvk views it as, in
 * cuvk_vk_format_view_list's order (docs/layer.md).  The image the
 * application holds is that image: its views and copies stay valid,
 * which validation, in either order, checks.  A Vulkan 1.1 application
 * (widened_image_vulkan_1_1) gets the list too, through
 * VK_KHR_image_format_list, which the layer enables for it. */
static int
widened_image(const char *name, uint32_t api_version)
{
   struct vkh h;
   const struct vkh_options options = { .api_version = api_version };
   if (!vkh_init(&h, name, &options))
      return VKH_EXIT_FAIL;

   VkImageCreateInfo ci = vkh_image_info_2d(VK_FORMAT_R8G8B8A8_UNORM, 32, 32, 6, 1,
                                            VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                            VK_IMAGE_USAGE_TRANSFER_DST_BIT);
   VkImage image;
   VkDeviceMemory memory;
   VkDeviceSize size;
   uint32_t type;
   VKH_CHECK_VK(vkh_create_image(&h, &ci, VKH_OPAQUE_FD, &image));
   VKH_CHECK_VK(vkh_allocate_for_image(&h, image, true, VKH_OPAQUE_FD, &memory, &size, &type));
   VKH_CHECK_VK(vkBindImageMemory(h.device, image, memory, 0));
   /* The application's own view, of its own format. */
   VkImageView view;
   VkImageViewCreateInfo view_info = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
      .image = image,
      .viewType = VK_IMAGE_VIEW_TYPE_2D,
      .format = VK_FORMAT_R8G8B8A8_UNORM,
      .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 6, 0, 1 },
   };
   VKH_CHECK_VK(vkCreateImageView(h.device, &view_info, NULL, &view));
   vkDestroyImageView(h.device, view, NULL);

   int fd = vkh_get_memory_fd(&h, memory, VKH_OPAQUE_FD);
   VKH_CHECK(fd >= 0);
   struct cuvk_mem_export_record rec;
   VKH_CHECK(lookup(fd, &rec));
   check_allocation(&h, &rec, size, type);
   VKH_CHECK(rec.dedicated == CUVK_MEM_DEDICATED_IMAGE);
   VkImageCreateInfo wide = ci;
   wide.usage |= VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT;
   wide.flags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
   check_image_info(&rec.dedicated_image, &wide, VKH_OPAQUE_FD);
   check_image_info(&rec.images[0].info, &wide, VKH_OPAQUE_FD);
   /* The list: the image's own format first, every twin cuvk's textures
    * read it as (sRGB included) and the raw R32_UINT of its surfaces. */
   VkFormat want[CUVK_MEM_MAX_VIEW_FORMATS];
   unsigned n = cuvk_vk_format_view_list(ci.format, want, CUVK_MEM_MAX_VIEW_FORMATS);
   VKH_CHECK(n >= 3 && want[0] == ci.format);
   for (unsigned r = 0; r < 2; r++) {
      const struct cuvk_mem_image_info *info = r ? &rec.images[0].info : &rec.dedicated_image;
      VKH_CHECK(info->view_format_count == n);
      VKH_CHECK(!info->view_formats_truncated);
      VKH_CHECK(memcmp(info->view_formats, want, n * sizeof(VkFormat)) == 0);
   }
   bool srgb = false, raw = false;
   for (unsigned i = 0; i < n; i++) {
      srgb |= want[i] == VK_FORMAT_R8G8B8A8_SRGB;
      raw |= want[i] == VK_FORMAT_R32_UINT;
   }
   VKH_CHECK(srgb && raw);

   close(fd);
   vkDestroyImage(h.device, image, NULL);
   vkFreeMemory(h.device, memory, NULL);
   return vkh_exit(vkh_finish(&h));
}

static int
test_widened_image(void)
{
   return widened_image("layer.record.widened_image", 0);
}

static int
test_widened_image_vulkan_1_1(void)
{
   return widened_image("layer.record.widened_image_vulkan_1_1", VK_API_VERSION_1_1);
}

/* A dedicated allocation of a mutable-format, mipmapped, layered image,
 * bound with vkBindImageMemory2: every create parameter comes back. */
static int
test_dedicated_image(void)
{
   struct vkh h;
   if (!vkh_init(&h, "layer.record.dedicated_image", NULL))
      return VKH_EXIT_FAIL;

   static const VkFormat view_formats[] = { VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB };
   VkImageFormatListCreateInfo list = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO,
      .viewFormatCount = 2,
      .pViewFormats = view_formats,
   };
   VkImageCreateInfo ci = vkh_image_info_2d(VK_FORMAT_R8G8B8A8_UNORM, 64, 32, 3, 2,
                                            VK_IMAGE_USAGE_SAMPLED_BIT |
                                            VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                            VK_IMAGE_USAGE_TRANSFER_DST_BIT);
   ci.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
   ci.pNext = &list;

   VkImage image;
   VkDeviceMemory memory;
   VkDeviceSize size;
   uint32_t type;
   VKH_CHECK_VK(vkh_create_image(&h, &ci, VKH_OPAQUE_FD, &image));
   VKH_CHECK_VK(vkh_allocate_for_image(&h, image, true, VKH_OPAQUE_FD, &memory, &size, &type));
   VkBindImageMemoryInfo bind = {
      .sType = VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO,
      .image = image,
      .memory = memory,
   };
   VKH_CHECK_VK(vkBindImageMemory2(h.device, 1, &bind));

   int fd = vkh_get_memory_fd(&h, memory, VKH_OPAQUE_FD);
   VKH_CHECK(fd >= 0);

   struct cuvk_mem_export_record rec;
   VKH_CHECK(lookup(fd, &rec));
   check_allocation(&h, &rec, size, type);
   VKH_CHECK(rec.dedicated == CUVK_MEM_DEDICATED_IMAGE);
   check_image_info(&rec.dedicated_image, &ci, VKH_OPAQUE_FD);
   VKH_CHECK(rec.dedicated_image.view_format_count == 2);
   VKH_CHECK(!rec.dedicated_image.view_formats_truncated);
   VKH_CHECK(rec.dedicated_image.view_formats[0] == view_formats[0]);
   VKH_CHECK(rec.dedicated_image.view_formats[1] == view_formats[1]);
   VKH_CHECK(rec.image_count == 1);
   VKH_CHECK(rec.images[0].offset == 0);
   VKH_CHECK(rec.images[0].plane_aspect == 0);
   check_image_info(&rec.images[0].info, &ci, VKH_OPAQUE_FD);
   VKH_CHECK(rec.buffer_count == 0);

   /* Destroying the image after the export drops its binding, not the
    * dedicated image's parameters. */
   vkDestroyImage(h.device, image, NULL);
   VKH_CHECK(lookup(fd, &rec));
   VKH_CHECK(rec.image_count == 0);
   VKH_CHECK(rec.dedicated == CUVK_MEM_DEDICATED_IMAGE);
   VKH_CHECK(rec.dedicated_image.format == ci.format);

   vkFreeMemory(h.device, memory, NULL);
   close(fd);
   return vkh_exit(vkh_finish(&h));
}

static int
test_dedicated_buffer(void)
{
   struct vkh h;
   if (!vkh_init(&h, "layer.record.dedicated_buffer", NULL))
      return VKH_EXIT_FAIL;

   const VkDeviceSize buffer_size = 1 << 20;
   const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                    VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                    VK_BUFFER_USAGE_TRANSFER_DST_BIT;
   VkBuffer buffer;
   VkDeviceMemory memory;
   VkDeviceSize size;
   uint32_t type;
   VKH_CHECK_VK(vkh_create_buffer(&h, buffer_size, usage, VKH_OPAQUE_FD, &buffer));
   VKH_CHECK_VK(vkh_allocate_for_buffer(&h, buffer, true, VKH_OPAQUE_FD, &memory, &size, &type));
   VKH_CHECK_VK(vkBindBufferMemory(h.device, buffer, memory, 0));

   int fd = vkh_get_memory_fd(&h, memory, VKH_OPAQUE_FD);
   VKH_CHECK(fd >= 0);

   struct cuvk_mem_export_record rec;
   VKH_CHECK(lookup(fd, &rec));
   check_allocation(&h, &rec, size, type);
   VKH_CHECK(rec.dedicated == CUVK_MEM_DEDICATED_BUFFER);
   check_buffer_info(&rec.dedicated_buffer, buffer_size, usage);
   VKH_CHECK(rec.image_count == 0);
   VKH_CHECK(rec.buffer_count == 1);
   VKH_CHECK(rec.buffers[0].offset == 0);
   check_buffer_info(&rec.buffers[0].info, buffer_size, usage);

   vkDestroyBuffer(h.device, buffer, NULL);
   vkFreeMemory(h.device, memory, NULL);
   close(fd);
   return vkh_exit(vkh_finish(&h));
}

/* Two buffers in one allocation, one bound before the export and one
 * after it (vkBindBufferMemory2): the record follows both, and a destroy. */
static int
test_suballocated_buffers(void)
{
   struct vkh h;
   if (!vkh_init(&h, "layer.record.suballocated_buffers", NULL))
      return VKH_EXIT_FAIL;

   const VkDeviceSize size_a = 65536, size_b = 100000;
   const VkBufferUsageFlags usage_a = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
   const VkBufferUsageFlags usage_b = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                      VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
   VkBuffer a, b;
   VKH_CHECK_VK(vkh_create_buffer(&h, size_a, usage_a, VKH_OPAQUE_FD, &a));
   VKH_CHECK_VK(vkh_create_buffer(&h, size_b, usage_b, VKH_OPAQUE_FD, &b));

   VkMemoryRequirements req_a, req_b;
   vkGetBufferMemoryRequirements(h.device, a, &req_a);
   vkGetBufferMemoryRequirements(h.device, b, &req_b);
   const VkDeviceSize offset_b = (req_a.size + req_b.alignment - 1) / req_b.alignment * req_b.alignment;
   const VkDeviceSize size = offset_b + req_b.size;
   int type = vkh_find_memory_type(&h, req_a.memoryTypeBits & req_b.memoryTypeBits,
                                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
   VKH_CHECK(type >= 0);

   VkDeviceMemory memory;
   VKH_CHECK_VK(vkh_allocate(&h, size, (uint32_t)type, VKH_OPAQUE_FD, VK_NULL_HANDLE,
                             VK_NULL_HANDLE, &memory));
   VKH_CHECK_VK(vkBindBufferMemory(h.device, a, memory, 0));

   int fd = vkh_get_memory_fd(&h, memory, VKH_OPAQUE_FD);
   VKH_CHECK(fd >= 0);

   struct cuvk_mem_export_record rec;
   VKH_CHECK(lookup(fd, &rec));
   check_allocation(&h, &rec, size, (uint32_t)type);
   VKH_CHECK(rec.dedicated == CUVK_MEM_DEDICATED_NONE);
   VKH_CHECK(rec.buffer_count == 1);

   VkBindBufferMemoryInfo bind = {
      .sType = VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO,
      .buffer = b,
      .memory = memory,
      .memoryOffset = offset_b,
   };
   VKH_CHECK_VK(vkBindBufferMemory2(h.device, 1, &bind));

   VKH_CHECK(lookup(fd, &rec));
   VKH_CHECK(rec.buffer_count == 2);
   VKH_CHECK(rec.image_count == 0);
   VKH_CHECK(rec.buffers[0].offset == 0);
   check_buffer_info(&rec.buffers[0].info, size_a, usage_a);
   VKH_CHECK(rec.buffers[1].offset == offset_b);
   check_buffer_info(&rec.buffers[1].info, size_b, usage_b);

   vkDestroyBuffer(h.device, a, NULL);
   VKH_CHECK(lookup(fd, &rec));
   VKH_CHECK(rec.buffer_count == 1);
   VKH_CHECK(rec.buffers[0].offset == offset_b);
   check_buffer_info(&rec.buffers[0].info, size_b, usage_b);

   vkDestroyBuffer(h.device, b, NULL);
   vkFreeMemory(h.device, memory, NULL);
   close(fd);
   return vkh_exit(vkh_finish(&h));
}

/* Every fd on the export's open file description finds its record; other
 * exports and other files do not. */
static int
test_dup_fd_finds_record(void)
{
   struct vkh h;
   if (!vkh_init(&h, "layer.record.dup_fd_finds_record", NULL))
      return VKH_EXIT_FAIL;

   int type = vkh_find_memory_type(&h, ~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
   VKH_CHECK(type >= 0);

   VkDeviceMemory m1, m2;
   VKH_CHECK_VK(vkh_allocate(&h, 65536, (uint32_t)type, VKH_OPAQUE_FD, VK_NULL_HANDLE,
                             VK_NULL_HANDLE, &m1));
   VKH_CHECK_VK(vkh_allocate(&h, 131072, (uint32_t)type, VKH_OPAQUE_FD, VK_NULL_HANDLE,
                             VK_NULL_HANDLE, &m2));
   int fd1 = vkh_get_memory_fd(&h, m1, VKH_OPAQUE_FD);
   int fd2 = vkh_get_memory_fd(&h, m2, VKH_OPAQUE_FD);
   VKH_CHECK(fd1 >= 0 && fd2 >= 0);

   struct cuvk_mem_export_record rec;
   VKH_CHECK(lookup(fd1, &rec) && rec.allocation_size == 65536);
   VKH_CHECK(lookup(fd2, &rec) && rec.allocation_size == 131072);

   int dup1 = dup(fd1);
   int high1 = fcntl(fd1, F_DUPFD_CLOEXEC, 200);
   int passed1 = fd_util_pass_over_socket(fd1);
   int dup2 = dup(fd2);
   VKH_CHECK(dup1 >= 0 && high1 >= 200 && passed1 >= 0 && dup2 >= 0);
   VKH_CHECK(lookup(dup1, &rec) && rec.allocation_size == 65536);
   VKH_CHECK(lookup(high1, &rec) && rec.allocation_size == 65536);
   VKH_CHECK(lookup(passed1, &rec) && rec.allocation_size == 65536);
   VKH_CHECK(lookup(dup2, &rec) && rec.allocation_size == 131072);

   /* The original closed, its copies still find the record. */
   close(fd1);
   VKH_CHECK(lookup(dup1, &rec) && rec.allocation_size == 65536);
   VKH_CHECK(!lookup(fd1, &rec));

   /* A second export of the same memory finds the same record. */
   int again1 = vkh_get_memory_fd(&h, m1, VKH_OPAQUE_FD);
   VKH_CHECK(again1 >= 0);
   VKH_CHECK(lookup(again1, &rec) && rec.allocation_size == 65536);

   /* Files that are not exports. */
   int memfd = memfd_create("not-an-export", MFD_CLOEXEC);
   int pipefd[2];
   VKH_CHECK(memfd >= 0 && pipe2(pipefd, O_CLOEXEC) == 0);
   VKH_CHECK(!lookup(memfd, &rec));
   VKH_CHECK(!lookup(pipefd[0], &rec));
   VKH_CHECK(!lookup(-1, &rec));
   close(memfd);
   close(pipefd[0]);
   close(pipefd[1]);

   vkFreeMemory(h.device, m1, NULL);
   VKH_CHECK(!lookup(dup1, &rec));
   VKH_CHECK(!lookup(again1, &rec));
   VKH_CHECK(lookup(dup2, &rec) && rec.allocation_size == 131072);
   vkFreeMemory(h.device, m2, NULL);
   VKH_CHECK(!lookup(dup2, &rec));

   close(dup1);
   close(high1);
   close(passed1);
   close(again1);
   close(fd2);
   close(dup2);
   return vkh_exit(vkh_finish(&h));
}


/* Exports memory and finds the registry's dup of the fd: the one fd the
 * export opened on the same open file description as the returned one. */
static int
export_and_find_kept(struct vkh *h, VkDeviceMemory memory, int *kept)
{
   int before[FD_UTIL_MAX];
   int n_before = fd_util_list(before, FD_UTIL_MAX);
   int fd = vkh_get_memory_fd(h, memory, VKH_OPAQUE_FD);

   *kept = -1;
   VKH_CHECK(fd >= 0);
   if (fd < 0)
      return fd;
   VKH_CHECK(fd_util_new_same_file(fd, before, n_before, kept, 1) == 1);
   VKH_CHECK(*kept >= 0 && (fcntl(*kept, F_GETFD) & FD_CLOEXEC));
   return fd;
}

/* vkFreeMemory drops the record and closes the fd the registry kept. */
static int
test_free_forgets(void)
{
   struct vkh h;
   if (!vkh_init(&h, "layer.record.free_forgets", NULL))
      return VKH_EXIT_FAIL;

   int type = vkh_find_memory_type(&h, ~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
   VKH_CHECK(type >= 0);

   int open_before = fd_util_list(NULL, 0);
   VkDeviceMemory memory;
   /* The driver never frees what the leaked allocation holds. */
   vkh_deliberate_leak_begin();
   VKH_CHECK_VK(vkh_allocate(&h, 65536, (uint32_t)type, VKH_OPAQUE_FD, VK_NULL_HANDLE,
                             VK_NULL_HANDLE, &memory));
   int kept;
   int fd = export_and_find_kept(&h, memory, &kept);

   struct cuvk_mem_export_record rec;
   VKH_CHECK(lookup(fd, &rec));

   vkFreeMemory(h.device, memory, NULL);
   VKH_CHECK(!lookup(fd, &rec));
   VKH_CHECK(kept < 0 || !fd_util_is_open(kept));
   /* Nothing else of the allocation is left open either (true of
    * lavapipe, which closes its memfd at vkFreeMemory). */
   VKH_CHECK(fd_util_count_same_file(fd) == 1);
   VKH_CHECK(fd_util_list(NULL, 0) == open_before + 1);

   close(fd);
   VKH_CHECK(fd_util_list(NULL, 0) == open_before);
   return vkh_exit(vkh_finish(&h));
}

/* An application that exports the same memory every frame: the registry
 * keeps a bounded number of exports per allocation, so open fds do not
 * grow with the exports, and the newest export is still found. */
static int
test_repeated_exports_bounded(void)
{
   struct vkh h;
   if (!vkh_init(&h, "layer.record.repeated_exports_bounded", NULL))
      return VKH_EXIT_FAIL;

   int type = vkh_find_memory_type(&h, ~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
   VKH_CHECK(type >= 0);

   VkDeviceMemory memory;
   VKH_CHECK_VK(vkh_allocate(&h, 65536, (uint32_t)type, VKH_OPAQUE_FD, VK_NULL_HANDLE,
                             VK_NULL_HANDLE, &memory));
   int open_before = fd_util_list(NULL, 0);
   for (int i = 0; i < 100; i++) {
      int fd = vkh_get_memory_fd(&h, memory, VKH_OPAQUE_FD);
      VKH_CHECK(fd >= 0);
      close(fd);
   }
   /* At most a handful of kept exports, however many were made. */
   VKH_CHECK(fd_util_list(NULL, 0) <= open_before + 4);

   int fd = vkh_get_memory_fd(&h, memory, VKH_OPAQUE_FD);
   struct cuvk_mem_export_record rec;
   VKH_CHECK(fd >= 0 && lookup(fd, &rec));
   VKH_CHECK(rec.allocation_size == 65536);
   close(fd);

   vkFreeMemory(h.device, memory, NULL);
   VKH_CHECK(fd_util_list(NULL, 0) <= open_before);
   return vkh_exit(vkh_finish(&h));
}

/* vkDestroyDevice with exported memory still allocated (an application
 * leak, so this runs without the validation layer) forgets its records. */
static int
test_destroy_device_forgets(void)
{
   struct vkh h;
   if (!vkh_init(&h, "layer.record.destroy_device_forgets", NULL))
      return VKH_EXIT_FAIL;

   int type = vkh_find_memory_type(&h, ~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
   VKH_CHECK(type >= 0);

   VkDeviceMemory memory;
   /* The driver never frees what the leaked allocation holds. */
   vkh_deliberate_leak_begin();
   VKH_CHECK_VK(vkh_allocate(&h, 65536, (uint32_t)type, VKH_OPAQUE_FD, VK_NULL_HANDLE,
                             VK_NULL_HANDLE, &memory));
   int kept;
   int fd = export_and_find_kept(&h, memory, &kept);

   struct cuvk_mem_export_record rec;
   VKH_CHECK(lookup(fd, &rec));

   /* The driver may keep the leaked allocation's own fd; the registry's
    * must go. */
   vkDestroyDevice(h.device, NULL);
   h.device = VK_NULL_HANDLE;
   vkh_deliberate_leak_end();
   VKH_CHECK(!lookup(fd, &rec));
   VKH_CHECK(kept < 0 || !fd_util_is_open(kept));

   close(fd);
   return vkh_exit(vkh_finish(&h));
}

/* Memory without VkExportMemoryAllocateInfo (or with no handle types) and
 * objects without external create info are not tracked at all. */
static int
test_not_exported_not_recorded(void)
{
   struct vkh h;
   if (!vkh_init(&h, "layer.record.not_exported_not_recorded", NULL))
      return VKH_EXIT_FAIL;

   /* The layer in this executable is the one in the device's chain. */
   struct layer_device *dev = layer_device_get(h.device);
   VKH_CHECK(dev != NULL);
   if (!dev)
      return vkh_exit(vkh_finish(&h));

   VkBuffer plain, external;
   VKH_CHECK_VK(vkh_create_buffer(&h, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0, &plain));
   VKH_CHECK_VK(vkh_create_buffer(&h, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VKH_OPAQUE_FD,
                                  &external));

   VkImage plain_image;
   VkImageCreateInfo ci = vkh_image_info_2d(VK_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 1,
                                            VK_IMAGE_USAGE_SAMPLED_BIT);
   VKH_CHECK_VK(vkh_create_image(&h, &ci, 0, &plain_image));

   int type = vkh_find_memory_type(&h, ~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
   VKH_CHECK(type >= 0);
   VkDeviceMemory not_exported, no_types, exported;
   VKH_CHECK_VK(vkh_allocate(&h, 65536, (uint32_t)type, 0, VK_NULL_HANDLE, VK_NULL_HANDLE,
                             &not_exported));
   VkExportMemoryAllocateInfo no_types_info = {
      .sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO,
      .handleTypes = 0,
   };
   VkMemoryAllocateInfo no_types_alloc = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .pNext = &no_types_info,
      .allocationSize = 65536,
      .memoryTypeIndex = (uint32_t)type,
   };
   VKH_CHECK_VK(vkAllocateMemory(h.device, &no_types_alloc, NULL, &no_types));
   VKH_CHECK_VK(vkh_allocate(&h, 65536, (uint32_t)type, VKH_OPAQUE_FD, VK_NULL_HANDLE,
                             VK_NULL_HANDLE, &exported));
   VKH_CHECK_VK(vkBindBufferMemory(h.device, plain, not_exported, 0));

   layer_lock();
   VKH_CHECK(!layer_object_find(dev, LAYER_KIND_BUFFER, LAYER_HANDLE(plain)));
   VKH_CHECK(!layer_object_find(dev, LAYER_KIND_IMAGE, LAYER_HANDLE(plain_image)));
   VKH_CHECK(!layer_object_find(dev, LAYER_KIND_MEMORY, LAYER_HANDLE(not_exported)));
   VKH_CHECK(!layer_object_find(dev, LAYER_KIND_MEMORY, LAYER_HANDLE(no_types)));
   /* The controls: the same calls with export info are tracked. */
   VKH_CHECK(layer_object_find(dev, LAYER_KIND_BUFFER, LAYER_HANDLE(external)));
   VKH_CHECK(layer_object_find(dev, LAYER_KIND_MEMORY, LAYER_HANDLE(exported)));
   layer_unlock();

   /* An fd the layer never saw finds nothing. */
   struct cuvk_mem_export_record rec;
   int memfd = memfd_create("not-an-export", MFD_CLOEXEC);
   VKH_CHECK(memfd >= 0 && !lookup(memfd, &rec));
   close(memfd);

   vkDestroyBuffer(h.device, plain, NULL);
   vkDestroyBuffer(h.device, external, NULL);
   vkDestroyImage(h.device, plain_image, NULL);
   vkFreeMemory(h.device, not_exported, NULL);
   vkFreeMemory(h.device, no_types, NULL);
   vkFreeMemory(h.device, exported, NULL);

   layer_lock();
   VKH_CHECK(!layer_object_find(dev, LAYER_KIND_BUFFER, LAYER_HANDLE(external)));
   VKH_CHECK(!layer_object_find(dev, LAYER_KIND_MEMORY, LAYER_HANDLE(exported)));
   layer_unlock();
   return vkh_exit(vkh_finish(&h));
}

/* ---- allocation callbacks ----------------------------------------------- */

struct counting_allocator {
   int live;
   int total;
};

static void *VKAPI_CALL
counting_alloc(void *user, size_t size, size_t align, VkSystemAllocationScope scope)
{
   struct counting_allocator *c = user;
   void *p = NULL;
   if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size) != 0)
      return NULL;
   __atomic_add_fetch(&c->live, 1, __ATOMIC_RELAXED);
   __atomic_add_fetch(&c->total, 1, __ATOMIC_RELAXED);
   return p;
}

static void *VKAPI_CALL
counting_realloc(void *user, void *orig, size_t size, size_t align, VkSystemAllocationScope scope)
{
   struct counting_allocator *c = user;
   if (!orig)
      return counting_alloc(user, size, align, scope);
   if (size == 0) {
      free(orig);
      __atomic_sub_fetch(&c->live, 1, __ATOMIC_RELAXED);
      return NULL;
   }
   /* Not knowing the old size, the harness never shrinks or grows in
    * place; nothing here reallocates. */
   return realloc(orig, size);
}

static void VKAPI_CALL
counting_free(void *user, void *p)
{
   struct counting_allocator *c = user;
   if (!p)
      return;
   free(p);
   __atomic_sub_fetch(&c->live, 1, __ATOMIC_RELAXED);
}

/* The layer allocates its state of an object with the callbacks the object
 * was created with, and frees it with them. */
static int
test_allocation_callbacks(void)
{
   struct vkh h;
   if (!vkh_init(&h, "layer.record.allocation_callbacks", NULL))
      return VKH_EXIT_FAIL;

   struct counting_allocator counts = { 0 };
   const VkAllocationCallbacks cb = {
      .pUserData = &counts,
      .pfnAllocation = counting_alloc,
      .pfnReallocation = counting_realloc,
      .pfnFree = counting_free,
   };

   VkExternalMemoryBufferCreateInfo ext = {
      .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
      .handleTypes = VKH_OPAQUE_FD,
   };
   VkBufferCreateInfo bci = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .pNext = &ext,
      .size = 4096,
      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
   };
   VkBuffer buffer;
   VKH_CHECK_VK(vkCreateBuffer(h.device, &bci, &cb, &buffer));

   int type = vkh_find_memory_type(&h, ~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
   VkExportMemoryAllocateInfo export_info = {
      .sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO,
      .handleTypes = VKH_OPAQUE_FD,
   };
   VkMemoryAllocateInfo mai = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .pNext = &export_info,
      .allocationSize = 65536,
      .memoryTypeIndex = (uint32_t)type,
   };
   VkDeviceMemory memory;
   VKH_CHECK_VK(vkAllocateMemory(h.device, &mai, &cb, &memory));

   struct layer_device *dev = layer_device_get(h.device);
   VKH_CHECK(dev != NULL);
   if (dev) {
      layer_lock();
      struct layer_object *b = layer_object_find(dev, LAYER_KIND_BUFFER, LAYER_HANDLE(buffer));
      struct layer_object *m = layer_object_find(dev, LAYER_KIND_MEMORY, LAYER_HANDLE(memory));
      VKH_CHECK(b && b->allocator.set && b->allocator.callbacks.pUserData == &counts);
      VKH_CHECK(m && m->allocator.set && m->allocator.callbacks.pUserData == &counts);
      layer_unlock();
   }
   VKH_CHECK(counts.live >= 2);

   vkDestroyBuffer(h.device, buffer, &cb);
   vkFreeMemory(h.device, memory, &cb);
   VKH_CHECK(counts.live == 0);
   return vkh_exit(vkh_finish(&h));
}

/* ---- threads ------------------------------------------------------------ */

#define THREADS 4
#define ROUNDS 50

struct thread_arg {
   struct vkh *h;
   uint32_t type;
   VkDeviceSize size;
   int failures;
};

static void *
export_loop(void *p)
{
   struct thread_arg *a = p;

   for (int i = 0; i < ROUNDS; i++) {
      VkDeviceMemory memory;
      if (vkh_allocate(a->h, a->size, a->type, VKH_OPAQUE_FD, VK_NULL_HANDLE, VK_NULL_HANDLE,
                       &memory) != VK_SUCCESS) {
         a->failures++;
         continue;
      }
      int fd = vkh_get_memory_fd(a->h, memory, VKH_OPAQUE_FD);
      struct cuvk_mem_export_record rec;
      if (fd < 0 || !cuvk_mem_registry_lookup_fd(fd, &rec) || rec.allocation_size != a->size)
         a->failures++;
      vkFreeMemory(a->h->device, memory, NULL);
      if (fd >= 0 && cuvk_mem_registry_lookup_fd(fd, &rec))
         a->failures++;
      if (fd >= 0)
         close(fd);
   }
   return NULL;
}

/* Threads exporting and freeing at once each find their own record. */
static int
test_concurrent_exports(void)
{
   struct vkh h;
   if (!vkh_init(&h, "layer.record.concurrent_exports", NULL))
      return VKH_EXIT_FAIL;

   int type = vkh_find_memory_type(&h, ~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
   VKH_CHECK(type >= 0);

   int open_before = fd_util_list(NULL, 0);
   pthread_t threads[THREADS];
   struct thread_arg args[THREADS];
   for (int i = 0; i < THREADS; i++) {
      args[i] = (struct thread_arg){ .h = &h, .type = (uint32_t)type, .size = 4096 * (i + 1) };
      VKH_CHECK(pthread_create(&threads[i], NULL, export_loop, &args[i]) == 0);
   }
   for (int i = 0; i < THREADS; i++) {
      pthread_join(threads[i], NULL);
      VKH_CHECK(args[i].failures == 0);
   }
   VKH_CHECK(fd_util_list(NULL, 0) == open_before);
   return vkh_exit(vkh_finish(&h));
}

static const struct {
   const char *name;
   int (*run)(void);
} tests[] = {
   { "dedicated_image", test_dedicated_image },
   { "widened_image", test_widened_image },
   { "widened_image_vulkan_1_1", test_widened_image_vulkan_1_1 },
   { "dedicated_buffer", test_dedicated_buffer },
   { "suballocated_buffers", test_suballocated_buffers },
   { "dup_fd_finds_record", test_dup_fd_finds_record },
   { "free_forgets", test_free_forgets },
   { "repeated_exports_bounded", test_repeated_exports_bounded },
   { "destroy_device_forgets", test_destroy_device_forgets },
   { "not_exported_not_recorded", test_not_exported_not_recorded },
   { "allocation_callbacks", test_allocation_callbacks },
   { "concurrent_exports", test_concurrent_exports },
};

int
main(int argc, char **argv)
{
   for (size_t i = 0; argc == 2 && i < sizeof(tests) / sizeof(tests[0]); i++) {
      if (strcmp(argv[1], tests[i].name) == 0)
         return tests[i].run();
   }
   fprintf(stderr, "usage: %s <case>; cases:", argv[0]);
   for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
      fprintf(stderr, " %s", tests[i].name);
   fprintf(stderr, "\n");
   return VKH_EXIT_FAIL;
}
