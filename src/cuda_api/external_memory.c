/*
 * cuImportExternalMemory, cuExternalMemoryGetMappedBuffer and
 * cuDestroyExternalMemory.
 */
#include "cuda_api/external_memory.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "compiler/kernel_abi.h"
#include "cuda_api/memory.h"
#include "mem/block_heap.h"
#include "mem/va_space.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

/* Mapped pointers keep the offset's alignment modulo this, as CUDA's do
 * (its base allocations are at least this aligned). */
#define MAPPING_ALIGNMENT 256u

static void
external_memory_free(struct cuvk_context *ctx, void *data)
{
   struct cuvk_external_memory *ext = data;

   if (ext->block)
      cuvk_mem_block_destroy(ext->block); /* frees the memory too */
   else
      vkFreeMemory(ctx->vk, ext->memory, NULL);
   if (ext->dedicated_image)
      vkDestroyImage(ctx->vk, ext->dedicated_image, NULL);
   free(ext);
}

/* ctx lock held. */
static void
external_memory_unref_locked(struct cuvk_external_memory *ext)
{
   if (--ext->refs > 0)
      return;
   cuvk_list_del(&ext->link);
   ext->release.fn = external_memory_free;
   ext->release.data = ext;
   cuvk_submit_defer(ext->ctx, &ext->release);
}

void
cuvk_external_memory_unref_locked(struct cuvk_external_memory *ext)
{
   external_memory_unref_locked(ext);
}

/* The handle's last reference is gone: after cuDestroyExternalMemory,
 * once no call that found the import live is still using it.  Its
 * mappings may keep the memory longer. */
static void
external_memory_handle_free(struct cuvk_object *obj)
{
   struct cuvk_external_memory *ext = cuvk_container_of(obj, struct cuvk_external_memory, base);
   struct cuvk_context *ctx = ext->ctx;
   pthread_mutex_lock(&ctx->lock);
   ext->handle_live = false;
   external_memory_unref_locked(ext);
   pthread_mutex_unlock(&ctx->lock);
}

CUresult
cuvk_external_memory_get(CUexternalMemory hext, CUresult error, const char *entry,
                         struct cuvk_external_memory **out)
{
   struct cuvk_object *obj = cuvk_object_get(hext, CUVK_OBJECT_EXTERNAL_MEMORY);
   if (!obj)
      return cuvk_error(error, "%s: %p is not a live import", entry, (void *)hext);
   *out = cuvk_container_of(obj, struct cuvk_external_memory, base);
   return CUDA_SUCCESS;
}

void
cuvk_external_memory_put(struct cuvk_external_memory *ext)
{
   if (ext)
      cuvk_object_put(&ext->base);
}

void
cuvk_external_memory_release_context(struct cuvk_context *ctx)
{
   cuvk_list_for_each_entry_safe(struct cuvk_external_memory, ext, &ctx->external_memories, link) {
      if (ext->handle_live)
         cuvk_object_remove(&ext->base);
      cuvk_list_del(&ext->link);
      external_memory_free(ctx, ext);
   }
}

static VkExternalMemoryHandleTypeFlagBits
external_vk_handle_type(CUexternalMemoryHandleType type)
{
   return type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD ?
      VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT : VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
}

static CUresult
external_check_desc(struct cuvk_context *ctx, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *desc)
{
   switch (desc->type) {
   case CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD:
      break;
   case CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD:
      if (!ctx->dev->has_dma_buf)
         return cuvk_error(CUDA_ERROR_NOT_SUPPORTED,
                           "cuImportExternalMemory: %s cannot import dma-bufs (no VK_EXT_external_memory_dma_buf)",
                           ctx->dev->props.deviceName);
      break;
   case CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32:
   case CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT:
   case CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP:
   case CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE:
   case CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE:
   case CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT:
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED,
                        "cuImportExternalMemory: handle type %d is a Windows handle; this is a Linux build",
                        (int)desc->type);
   case CU_EXTERNAL_MEMORY_HANDLE_TYPE_NVSCIBUF:
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "cuImportExternalMemory: NvSciBuf is not supported by cuvk");
   default:
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuImportExternalMemory: unknown handle type %d",
                        (int)desc->type);
   }

   if (desc->flags & ~(unsigned)CUDA_EXTERNAL_MEMORY_DEDICATED)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuImportExternalMemory: unknown flags 0x%x",
                        desc->flags & ~(unsigned)CUDA_EXTERNAL_MEMORY_DEDICATED);
   if (desc->size == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuImportExternalMemory: size is 0");

   int fd = desc->handle.fd;
   struct stat st;
   if (fd < 0 || fcntl(fd, F_GETFD) < 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuImportExternalMemory: %d is not an open file descriptor", fd);
   if (fstat(fd, &st) != 0 || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISDIR(st.st_mode))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "cuImportExternalMemory: fd %d is a pipe, socket or folder, not exported memory", fd);
   return CUDA_SUCCESS;
}

static void
image_create_info(const struct cuvk_mem_image_info *info, VkImageCreateInfo *ci,
                  VkExternalMemoryImageCreateInfo *ext, VkImageFormatListCreateInfo *list,
                  VkExternalMemoryHandleTypeFlagBits handle_type)
{
   *ext = (VkExternalMemoryImageCreateInfo){
      .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO,
      .handleTypes = info->handle_types ? info->handle_types : handle_type,
   };
   *list = (VkImageFormatListCreateInfo){
      .sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO,
      .viewFormatCount = info->view_format_count,
      .pViewFormats = info->view_formats,
   };
   if (info->view_format_count && !info->view_formats_truncated)
      ext->pNext = list;
   *ci = (VkImageCreateInfo){
      .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
      .pNext = ext,
      .flags = info->flags,
      .imageType = info->image_type,
      .format = info->format,
      .extent = info->extent,
      .mipLevels = info->mip_levels,
      .arrayLayers = info->array_layers,
      .samples = info->samples,
      .tiling = info->tiling,
      .usage = info->usage,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
      .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
   };
}

void
cuvk_external_image_create_info(const struct cuvk_mem_image_info *info, VkImageCreateInfo *ci,
                                VkExternalMemoryImageCreateInfo *ext, VkImageFormatListCreateInfo *list,
                                VkExternalMemoryHandleTypeFlagBits handle_type)
{
   image_create_info(info, ci, ext, list, handle_type);
}

/* The exporter's buffer, plus the usages cuvk's copies need; Vulkan
 * validation cannot see the two devices' objects side by side, and
 * drivers key dedicated imports on the size. */
VkResult
cuvk_external_dedicated_buffer_create(VkDevice vk, const struct cuvk_mem_buffer_info *info,
                                      VkExternalMemoryHandleTypeFlagBits handle_type, VkBuffer *out)
{
   VkExternalMemoryBufferCreateInfo external = {
      .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
      .handleTypes = handle_type,
   };
   VkBufferCreateInfo create = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .pNext = &external,
      .flags = info->flags,
      .size = info->size,
      .usage = info->usage | CUVK_MEM_BLOCK_USAGE,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   return vkCreateBuffer(vk, &create, NULL, out);
}

CUresult
cuvk_fd_import_init(struct cuvk_fd_import *imp, int fd, VkExternalMemoryHandleTypeFlagBits type,
                    const char *entry)
{
   int dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
   if (dup_fd < 0)
      return cuvk_error(CUDA_ERROR_OPERATING_SYSTEM, "%s: dup of fd %d failed: %s", entry, fd,
                        strerror(errno));
   imp->import = (VkImportMemoryFdInfoKHR){
      .sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR,
      .handleType = type,
      .fd = dup_fd,
   };
   imp->dedicated = (VkMemoryDedicatedAllocateInfo){
      .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO,
      .pNext = &imp->import,
   };
   return CUDA_SUCCESS;
}

const void *
cuvk_fd_import_chain(struct cuvk_fd_import *imp, VkBuffer buffer, VkImage image)
{
   if (!buffer && !image)
      return &imp->import;
   imp->dedicated.buffer = buffer;
   imp->dedicated.image = image;
   return &imp->dedicated;
}

void
cuvk_fd_import_finish(struct cuvk_fd_import *imp)
{
   if (imp->import.fd >= 0)
      close(imp->import.fd);
   imp->import.fd = -1;
}

static CUresult
external_import(struct cuvk_context *ctx, struct cuvk_external_memory *ext, int fd,
                VkDeviceSize size, uint32_t type_index, bool dedicated_buffer,
                const struct cuvk_mem_buffer_info *buffer_info)
{
   VkExternalMemoryHandleTypeFlagBits handle_type = external_vk_handle_type(ext->type);
   VkBuffer dedicated = VK_NULL_HANDLE;
   struct cuvk_fd_import imp;
   VkResult vr;
   CUresult res;

   res = cuvk_fd_import_init(&imp, fd, handle_type, "cuImportExternalMemory");
   if (res != CUDA_SUCCESS)
      return res;

   VkImageCreateInfo image_ci;
   VkExternalMemoryImageCreateInfo image_ext;
   VkImageFormatListCreateInfo image_list;
   if (ext->has_record && ext->record.dedicated == CUVK_MEM_DEDICATED_IMAGE) {
      image_create_info(&ext->record.dedicated_image, &image_ci, &image_ext, &image_list, handle_type);
      vr = vkCreateImage(ctx->vk, &image_ci, NULL, &ext->dedicated_image);
      if (vr != VK_SUCCESS) {
         res = cuvk_vk_error(vr, "cuImportExternalMemory: re-creating the exported image");
         goto fail_fd;
      }
   } else if (dedicated_buffer) {
      vr = cuvk_external_dedicated_buffer_create(ctx->vk, buffer_info, handle_type, &dedicated);
      if (vr != VK_SUCCESS) {
         res = cuvk_vk_error(vr, "cuImportExternalMemory: re-creating the exported buffer");
         goto fail_fd;
      }
   }

   vr = cuvk_mem_allocate(ctx->vk, size, type_index,
                          cuvk_fd_import_chain(&imp, dedicated, ext->dedicated_image), &ext->memory);
   if (vr != VK_SUCCESS) {
      res = cuvk_vk_error(vr, "cuImportExternalMemory: vkAllocateMemory importing the fd");
      goto fail_objects;
   }
   cuvk_fd_import_taken(&imp);

   if (ext->dedicated_image) {
      vr = vkBindImageMemory(ctx->vk, ext->dedicated_image, ext->memory, 0);
      if (vr != VK_SUCCESS) {
         res = cuvk_vk_error(vr, "cuImportExternalMemory: vkBindImageMemory");
         goto fail_memory;
      }
      return CUDA_SUCCESS;
   }

   /* Mapped where the memory type allows, for the direct CPU path of
    * small copies (all of lavapipe's memory). */
   VkMemoryPropertyFlags type_flags = ctx->dev->mem.memoryTypes[type_index].propertyFlags;
   res = cuvk_mem_block_wrap(ctx->vk, ext->memory, dedicated, size,
                             type_flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, handle_type, &ext->block);
   if (res != CUDA_SUCCESS) {
      dedicated = VK_NULL_HANDLE; /* destroyed by the failed wrap */
      goto fail_memory;
   }
   ext->block->cached = type_flags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
   return CUDA_SUCCESS;

fail_memory:
   vkFreeMemory(ctx->vk, ext->memory, NULL);
   ext->memory = VK_NULL_HANDLE;
fail_objects:
   if (dedicated)
      vkDestroyBuffer(ctx->vk, dedicated, NULL);
   if (ext->dedicated_image)
      vkDestroyImage(ctx->vk, ext->dedicated_image, NULL);
   ext->dedicated_image = VK_NULL_HANDLE;
fail_fd:
   cuvk_fd_import_finish(&imp);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuImportExternalMemory(CUexternalMemory *ext_out, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *desc)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   struct cuvk_external_memory *ext;
   CUresult res = cuvk_context_current("cuImportExternalMemory", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!ext_out || !desc)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuImportExternalMemory: NULL argument");
   res = external_check_desc(ctx, desc);
   if (res != CUDA_SUCCESS)
      return res;

   ext = calloc(1, sizeof(*ext));
   if (!ext)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuImportExternalMemory: out of host memory");
   ext->ctx = ctx;
   ext->type = desc->type;
   ext->flags = desc->flags;
   int fd = desc->handle.fd;

   ext->has_record = cuvk_mem_registry_lookup_fd(fd, &ext->record);
   if (ext->has_record && ext->record.has_uuids &&
       memcmp(ext->record.device_uuid, ctx->dev->id.deviceUUID, VK_UUID_SIZE) != 0) {
      free(ext);
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "cuImportExternalMemory: fd %d was exported by another device than %s",
                        fd, ctx->dev->props.deviceName);
   }

   VkDeviceSize size = desc->size;
   uint32_t type_index = ctx->opaque_fd_type_index;
   bool guess_type = false;
   bool dedicated_buffer = false;
   struct cuvk_mem_buffer_info buffer_info = { .size = desc->size };

   if (ext->has_record) {
      size = ext->record.allocation_size;
      type_index = ext->record.memory_type_index;
      if (ext->record.dedicated == CUVK_MEM_DEDICATED_BUFFER && ext->record.dedicated_buffer.size) {
         dedicated_buffer = true;
         buffer_info = ext->record.dedicated_buffer;
      } else if (ext->record.dedicated == CUVK_MEM_DEDICATED_IMAGE &&
                 ext->record.dedicated_image.format == VK_FORMAT_UNDEFINED) {
         free(ext);
         return cuvk_error(CUDA_ERROR_NOT_SUPPORTED,
                           "cuImportExternalMemory: fd %d is dedicated to an image created without "
                           "VkExternalMemoryImageCreateInfo, which cannot be re-created for import", fd);
      }
      if (desc->size > size)
         cuvk_logw("cuImportExternalMemory: declared size %llu is larger than the exported %llu bytes; "
                   "mappings past %llu will fail", (unsigned long long)desc->size,
                   (unsigned long long)size, (unsigned long long)size);
      ext->size = CUVK_MIN((VkDeviceSize)desc->size, size);
   } else {
      if (ext->type == CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD) {
         PFN_vkGetMemoryFdPropertiesKHR props_fn = (PFN_vkGetMemoryFdPropertiesKHR)
            vkGetDeviceProcAddr(ctx->vk, "vkGetMemoryFdPropertiesKHR");
         VkMemoryFdPropertiesKHR props = { .sType = VK_STRUCTURE_TYPE_MEMORY_FD_PROPERTIES_KHR };
         if (!props_fn || props_fn(ctx->vk, VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT, fd, &props) !=
                             VK_SUCCESS || !props.memoryTypeBits) {
            free(ext);
            return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuImportExternalMemory: fd %d is not a dma-buf "
                              "this device can import", fd);
         }
         if (!(props.memoryTypeBits & (1u << type_index)))
            type_index = (uint32_t)__builtin_ctz(props.memoryTypeBits);
      } else {
         cuvk_log_once(CUVK_LOG_WARN,
                       "cuImportExternalMemory: fd %d has no record of its export; guessing its memory "
                       "type and size. Enable VK_LAYER_CUVK_interop in the exporting process "
                       "(VK_INSTANCE_LAYERS) to make imports exact", fd);
         dedicated_buffer = desc->flags & CUDA_EXTERNAL_MEMORY_DEDICATED;
         guess_type = true;
      }
      /* A memfd (lavapipe's export) knows its size; a declared size past
       * it would make the import fail where CUDA's succeeds, so import
       * what is there and let mappings past it fail. */
      struct stat st;
      if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
          (uint64_t)st.st_size < size) {
         cuvk_logw("cuImportExternalMemory: declared size %llu is larger than the %llu bytes fd %d holds; "
                   "mappings past %llu will fail", (unsigned long long)size,
                   (unsigned long long)st.st_size, fd, (unsigned long long)st.st_size);
         size = (VkDeviceSize)st.st_size;
      }
      ext->size = size;
   }
   if (type_index >= ctx->dev->mem.memoryTypeCount) {
      free(ext);
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuImportExternalMemory: memory type %u does not exist here",
                        type_index);
   }

   /* Without a record the exporter's memory type is unknown, and drivers
    * refuse an OPAQUE_FD import into the wrong type (NVIDIA keeps device
    * and system memory apart). */
   if (guess_type) {
      res = cuvk_external_memory_guess_type(ctx, fd, size, dedicated_buffer ? &buffer_info : NULL,
                                            &type_index);
      if (res != CUDA_SUCCESS) {
         free(ext);
         return res;
      }
   }
   res = external_import(ctx, ext, fd, size, type_index, dedicated_buffer, &buffer_info);
   if (res != CUDA_SUCCESS) {
      free(ext);
      return res;
   }

   /* Success: the import holds the memory, so cuvk owns the caller's fd
    * and is done with it. */
   close(fd);
   ext->memory_type = type_index;

   ext->refs = 1;
   ext->handle_live = true;
   pthread_mutex_lock(&ctx->lock);
   cuvk_list_addtail(&ext->link, &ctx->external_memories);
   pthread_mutex_unlock(&ctx->lock);
   cuvk_object_add_in(&ext->base, CUVK_OBJECT_EXTERNAL_MEMORY, external_memory_handle_free, &ctx->base);
   *ext_out = (CUexternalMemory)ext;
   return CUDA_SUCCESS;
}

static void
mapping_release(struct cuvk_mem_alloc *alloc)
{
   struct cuvk_external_memory *ext = alloc->owner;

   /* The range's va came from mapping_va below; undo its alignment shift. */
   uint64_t shift = alloc->range.start % MAPPING_ALIGNMENT;
   cuvk_mem_va_free(alloc->range.start - shift, alloc->range.size + shift);
   external_memory_unref_locked(ext);
}

static CUresult
map_buffer(struct cuvk_external_memory *ext, const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *desc, CUdeviceptr *dptr)
{
   struct cuvk_mem_alloc *alloc;
   uint64_t va;
   CUresult res;

   if (desc->flags != 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuExternalMemoryGetMappedBuffer: flags must be 0, got 0x%x",
                        desc->flags);
   if (desc->size == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuExternalMemoryGetMappedBuffer: size is 0");
   if (desc->offset > ext->size || desc->size > ext->size - desc->offset)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "cuExternalMemoryGetMappedBuffer: %llu bytes at offset %llu run past the %llu bytes "
                        "of the import", (unsigned long long)desc->size, (unsigned long long)desc->offset,
                        (unsigned long long)ext->size);
   if (!ext->block)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED,
                        "cuExternalMemoryGetMappedBuffer: the memory is dedicated to an image; Vulkan allows "
                        "no buffer on it (map it as a mipmapped array)");

   alloc = calloc(1, sizeof(*alloc));
   if (!alloc)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuExternalMemoryGetMappedBuffer: out of host memory");

   uint64_t shift = desc->offset % MAPPING_ALIGNMENT;
   /* The range starts a kernel page of its own: a page holds bytes of one
    * buffer only, so one page table entry serves all of it
    * (mem/page_table.h). */
   res = cuvk_mem_va_alloc(desc->size + shift, CUVK_KERNEL_PAGE_SIZE, 0, &va);
   if (res != CUDA_SUCCESS) {
      free(alloc);
      return res;
   }
   alloc->ctx = ext->ctx;
   alloc->block = ext->block;
   alloc->offset = desc->offset;
   alloc->range.kind = CUVK_MEM_EXTERNAL;
   alloc->range.start = va + shift;
   alloc->range.size = desc->size;
   alloc->owner = ext;
   alloc->on_release = mapping_release;

   pthread_mutex_lock(&ext->ctx->lock);
   ext->refs++;
   pthread_mutex_unlock(&ext->ctx->lock);

   res = cuvk_mem_alloc_publish(alloc);
   if (res != CUDA_SUCCESS) {
      pthread_mutex_lock(&ext->ctx->lock);
      external_memory_unref_locked(ext);
      pthread_mutex_unlock(&ext->ctx->lock);
      cuvk_mem_va_free(va, desc->size + shift);
      free(alloc);
      return res;
   }
   *dptr = alloc->range.start;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuExternalMemoryGetMappedBuffer(CUdeviceptr *dptr, CUexternalMemory hext,
                                const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *desc)
{
   struct cuvk_external_memory *ext = NULL; /* set whenever res is CUDA_SUCCESS; GCC cannot tell */
   CUresult res = cuvk_driver_check("cuExternalMemoryGetMappedBuffer");
   if (res != CUDA_SUCCESS)
      return res;
   if (!dptr || !hext || !desc)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuExternalMemoryGetMappedBuffer: NULL argument");
   res = cuvk_external_memory_get(hext, CUDA_ERROR_INVALID_VALUE, "cuExternalMemoryGetMappedBuffer", &ext);
   if (res != CUDA_SUCCESS)
      return res;
   /* The mapping takes a reference of its own; the call's goes after. */
   res = map_buffer(ext, desc, dptr);
   cuvk_external_memory_put(ext);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuDestroyExternalMemory(CUexternalMemory hext)
{
   CUresult res = cuvk_driver_check("cuDestroyExternalMemory");
   if (res != CUDA_SUCCESS)
      return res;
   if (!hext)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDestroyExternalMemory: extMem is NULL");
   struct cuvk_external_memory *ext = NULL; /* set whenever res is CUDA_SUCCESS; GCC cannot tell */
   res = cuvk_external_memory_get(hext, CUDA_ERROR_INVALID_HANDLE, "cuDestroyExternalMemory", &ext);
   if (res != CUDA_SUCCESS)
      return res;
   /* Later lookups fail from here; the handle's hold on the memory goes
    * with its last reference. */
   if (!cuvk_object_release(&ext->base))
      res = cuvk_error(CUDA_ERROR_INVALID_HANDLE, "cuDestroyExternalMemory: %p was destroyed meanwhile",
                       (void *)hext);
   cuvk_external_memory_put(ext);
   return res;
}
