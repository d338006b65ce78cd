/*
 * What VK_LAYER_CUVK_interop records: exportable allocations, the
 * images and buffers created for export, and which of them is bound where.
 * At vkGetMemoryFdKHR the allocation's record goes into the registry under
 * the returned fd; binds and destroys after that keep it current; freeing
 * the memory or destroying the device drops it.
 *
 * Only what can take part in an export is tracked: memory allocated with
 * VkExportMemoryAllocateInfo, images and buffers created with
 * VkExternalMemory{Image,Buffer}CreateInfo (the only ones valid to bind to
 * exportable memory).  Anything else costs a device lookup and a walk of
 * its pNext chain.  State is allocated with the application's allocation
 * callbacks; the layer never fails a call because its own bookkeeping ran
 * out of memory: the object is then passed through untracked.
 */
#include "layer/layer.h"

#include <string.h>

#include "array/format.h"
#include "mem/registry.h"
#include "util/log.h"

/* The maximum planes of a disjoint image (VK_IMAGE_ASPECT_PLANE_0..2). */
#define LAYER_MAX_IMAGE_BINDINGS 3

struct layer_image {
   struct layer_object base;
   struct cuvk_mem_image_info info;
   /* Tracked memory this image is bound to (one per plane when disjoint). */
   uint64_t bound_memory[LAYER_MAX_IMAGE_BINDINGS];
};

struct layer_buffer {
   struct layer_object base;
   struct cuvk_mem_buffer_info info;
   uint64_t bound_memory;
};

struct layer_memory {
   struct layer_object base;
   /* Whether rec is in the registry (some fd has been exported). */
   bool registered;
   /* The handles of rec.images[] and rec.buffers[], index for index. */
   uint64_t image_handles[CUVK_MEM_MAX_BOUND_IMAGES];
   uint64_t buffer_handles[CUVK_MEM_MAX_BOUND_BUFFERS];
   struct cuvk_mem_export_record rec;
};

static const void *
layer_find_struct(const void *pNext, VkStructureType type)
{
   for (const VkBaseInStructure *s = pNext; s; s = s->pNext) {
      if (s->sType == type)
         return s;
   }
   return NULL;
}

/* Reached only through a device this layer did not create, which the
 * loader never does; say so instead of crashing. */
static struct layer_device *
layer_memory_device(VkDevice device, const char *what)
{
   struct layer_device *dev = layer_device_get(device);
   if (cuvk_unlikely(!dev))
      cuvk_loge("%s: device %p was not created through " CUVK_LAYER_NAME, what, (void *)device);
   return dev;
}

#define LAYER_GET_DEVICE(dev, device, what, fail) \
   struct layer_device *dev = layer_memory_device((device), (what)); \
   if (cuvk_unlikely(!dev))                                         \
      return fail

/* With the lock held: the registry's copy follows every change. */
static void
layer_memory_changed(struct layer_memory *mem)
{
   if (mem->registered)
      cuvk_mem_registry_update(mem, &mem->rec);
}

static struct layer_memory *
layer_find_memory(struct layer_device *dev, uint64_t handle)
{
   struct layer_object *o = layer_object_find(dev, LAYER_KIND_MEMORY, handle);
   return o ? cuvk_container_of(o, struct layer_memory, base) : NULL;
}

static struct layer_image *
layer_find_image(struct layer_device *dev, uint64_t handle)
{
   struct layer_object *o = layer_object_find(dev, LAYER_KIND_IMAGE, handle);
   return o ? cuvk_container_of(o, struct layer_image, base) : NULL;
}

static struct layer_buffer *
layer_find_buffer(struct layer_device *dev, uint64_t handle)
{
   struct layer_object *o = layer_object_find(dev, LAYER_KIND_BUFFER, handle);
   return o ? cuvk_container_of(o, struct layer_buffer, base) : NULL;
}

/* ---- images and buffers ------------------------------------------------- */

static void
layer_image_info_init(struct cuvk_mem_image_info *info, const VkImageCreateInfo *ci,
                      VkExternalMemoryHandleTypeFlags handle_types)
{
   *info = (struct cuvk_mem_image_info){
      .flags = ci->flags,
      .image_type = ci->imageType,
      .format = ci->format,
      .extent = ci->extent,
      .mip_levels = ci->mipLevels,
      .array_layers = ci->arrayLayers,
      .samples = ci->samples,
      .tiling = ci->tiling,
      .usage = ci->usage,
      .sharing_mode = ci->sharingMode,
      .initial_layout = ci->initialLayout,
      .handle_types = handle_types,
   };

   const VkImageFormatListCreateInfo *list =
      layer_find_struct(ci->pNext, VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO);
   if (list && list->pViewFormats) {
      uint32_t n = CUVK_MIN(list->viewFormatCount, CUVK_MEM_MAX_VIEW_FORMATS);
      memcpy(info->view_formats, list->pViewFormats, n * sizeof(VkFormat));
      info->view_format_count = n;
      info->view_formats_truncated = list->viewFormatCount > n;
   }

   if (ci->tiling != VK_IMAGE_TILING_DRM_FORMAT_MODIFIER_EXT)
      return;
   const VkImageDrmFormatModifierExplicitCreateInfoEXT *explicit_mod =
      layer_find_struct(ci->pNext, VK_STRUCTURE_TYPE_IMAGE_DRM_FORMAT_MODIFIER_EXPLICIT_CREATE_INFO_EXT);
   if (explicit_mod) {
      uint32_t n = CUVK_MIN(explicit_mod->drmFormatModifierPlaneCount, CUVK_MEM_MAX_DRM_PLANES);
      info->has_drm_format_modifier = true;
      info->drm_format_modifier = explicit_mod->drmFormatModifier;
      if (explicit_mod->pPlaneLayouts)
         memcpy(info->drm_plane_layouts, explicit_mod->pPlaneLayouts, n * sizeof(VkSubresourceLayout));
      info->drm_plane_count = n;
   }
}

/* The unsigned format as wide as a texel of format (cuvk's surface views,
 * src/cuda_api/texture.c), VK_FORMAT_UNDEFINED for formats CUDA cannot
 * load and store. */
static VkFormat
layer_raw_format(VkFormat format)
{
   unsigned elem, block;
   cuvk_vk_format_size(format, &elem, &block);
   if (block != 1)
      return VK_FORMAT_UNDEFINED;
   switch (elem) {
   case 1: return VK_FORMAT_R8_UINT;
   case 2: return VK_FORMAT_R16_UINT;
   case 4: return VK_FORMAT_R32_UINT;
   case 8: return VK_FORMAT_R32G32_UINT;
   case 16: return VK_FORMAT_R32G32B32A32_UINT;
   default: return VK_FORMAT_UNDEFINED;
   }
}

/* Whether the device takes an exportable image created as ci, and what it
 * allows its memory. */
static bool
layer_image_supported(struct layer_device *dev, const VkImageCreateInfo *ci,
                      VkExternalMemoryHandleTypeFlagBits handle_type, VkExternalMemoryFeatureFlags *features)
{
   VkPhysicalDeviceExternalImageFormatInfo ext_info = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO,
      .handleType = handle_type,
   };
   /* The image's format list, where the device takes one, is part of the
    * question: a driver may answer for the listed formats only, and a
    * list may be what keeps the image compressible. */
   const VkImageFormatListCreateInfo *ci_list =
      dev->format_list ? layer_find_struct(ci->pNext, VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO) : NULL;
   VkImageFormatListCreateInfo list;
   if (ci_list) {
      list = *ci_list;
      list.pNext = NULL;
      ext_info.pNext = &list;
   }
   VkPhysicalDeviceImageFormatInfo2 info = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2,
      .pNext = &ext_info,
      .format = ci->format,
      .type = ci->imageType,
      .tiling = ci->tiling,
      .usage = ci->usage,
      .flags = ci->flags,
   };
   VkExternalImageFormatProperties ext_props = {
      .sType = VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES,
   };
   VkImageFormatProperties2 props = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2,
      .pNext = &ext_props,
   };
   if (dev->GetPhysicalDeviceImageFormatProperties2(dev->physical_device, &info, &props) != VK_SUCCESS)
      return false;
   const VkImageFormatProperties *p = &props.imageFormatProperties;
   if (ci->extent.width > p->maxExtent.width || ci->extent.height > p->maxExtent.height ||
       ci->extent.depth > p->maxExtent.depth || ci->mipLevels > p->maxMipLevels ||
       ci->arrayLayers > p->maxArrayLayers || !(p->sampleCounts & ci->samples))
      return false;
   *features = ext_props.externalMemoryProperties.externalMemoryFeatures;
   return true;
}

/* Whether the device takes wide, for each of the export's handle types,
 * with the same external memory features as the application's ci (so an
 * image never becomes dedicated-only because of the layer).  False too
 * where ci itself is refused: the driver answers the application's call
 * as it will. */
static bool
layer_image_same_memory(struct layer_device *dev, const VkImageCreateInfo *ci, const VkImageCreateInfo *wide,
                        VkExternalMemoryHandleTypeFlags handle_types)
{
   for (uint32_t bits = handle_types; bits; bits &= bits - 1) {
      VkExternalMemoryHandleTypeFlagBits type = (VkExternalMemoryHandleTypeFlagBits)(bits & -bits);
      VkExternalMemoryFeatureFlags before, after;
      if (!layer_image_supported(dev, ci, type, &before) || !layer_image_supported(dev, wide, type, &after) ||
          after != before)
         return false;
   }
   return true;
}

/* CUDA reads an exported image through textures (a SAMPLED view) and
 * writes it through surfaces (a STORAGE view as the unsigned format of
 * its texel size), on cuvk's own image over the imported memory.  Vulkan
 * guarantees that two images share their contents only when created with
 * identical parameters (external memory: the importer repeats the
 * exporter's create info), so cuvk's image cannot simply have more usage
 * than the application's.  Instead the application's image gets what CUDA
 * needs, where the device allows it for this image and its export, and
 * the record (what cuvk repeats) has the same:
 *
 * - SAMPLED where the format can be sampled;
 * - STORAGE where the format and its unsigned twin can be stored to, and
 *   every format the application may view the image as can be too (its
 *   own views inherit the usage); then MUTABLE_FORMAT: cuvk views the
 *   image as the integer, normalised and sRGB twins of its format too
 *   (texture read modes), and the raw unsigned one.  Where the device
 *   takes VkImageFormatListCreateInfo, a list of exactly those formats
 *   (cuvk_vk_format_view_list, the one cuvk's own arrays name) goes in
 *   front of the application's chain, in *list with its formats in
 *   formats: a driver may not compress a mutable image without one
 *   (NVIDIA).  The record keeps it, so the import repeats it.
 *
 * Nothing changes when the image already has it all, or when the device
 * would refuse the result or treat its memory differently (another
 * external memory feature set: dedicated-only, say).  Returns true with
 * wide filled when it changes. */
static bool
layer_image_widen(struct layer_device *dev, const VkImageCreateInfo *ci, VkExternalMemoryHandleTypeFlags handle_types,
                  VkImageCreateInfo *wide, VkImageFormatListCreateInfo *list,
                  VkFormat formats[CUVK_MEM_MAX_VIEW_FORMATS])
{
   if (!dev->GetPhysicalDeviceImageFormatProperties2 || ci->tiling != VK_IMAGE_TILING_OPTIMAL ||
       ci->samples != VK_SAMPLE_COUNT_1_BIT)
      return false;
   VkFormat raw = layer_raw_format(ci->format);
   if (raw == VK_FORMAT_UNDEFINED)
      return false;
   VkFormatProperties own, twin;
   dev->GetPhysicalDeviceFormatProperties(dev->physical_device, ci->format, &own);
   dev->GetPhysicalDeviceFormatProperties(dev->physical_device, raw, &twin);

   const VkImageFormatListCreateInfo *app_list =
      layer_find_struct(ci->pNext, VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO);
   bool has_list = app_list && app_list->viewFormatCount;
   bool mutable_format = ci->flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
   /* An empty list of the application's stays where it is, and a chain
    * may hold only one: the image is then mutable without a list. */
   bool own_list = false;

   VkImageUsageFlags usage = ci->usage;
   VkImageCreateFlags flags = ci->flags;
   if (own.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)
      usage |= VK_IMAGE_USAGE_SAMPLED_BIT;

   bool storage = (own.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) &&
                  (twin.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT);
   if (storage && raw != ci->format) {
      if (mutable_format && has_list) {
         /* The application's list must name the twin, and each format in
          * it must allow storage: views of it inherit STORAGE. */
         bool twin_listed = false;
         for (uint32_t i = 0; i < app_list->viewFormatCount && storage; i++) {
            VkFormatProperties p;
            dev->GetPhysicalDeviceFormatProperties(dev->physical_device, app_list->pViewFormats[i], &p);
            storage = p.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
            twin_listed |= app_list->pViewFormats[i] == raw;
         }
         storage = storage && twin_listed;
      } else if (mutable_format || has_list) {
         /* Views of any compatible format, or a list without the flag
          * that cannot simply be replaced: leave the image alone. */
         storage = false;
      } else {
         flags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
         own_list = dev->format_list && !app_list;
      }
   }
   if (storage) {
      usage |= VK_IMAGE_USAGE_STORAGE_BIT;
   } else {
      flags = ci->flags;
      own_list = false;
   }
   if (usage == ci->usage && flags == ci->flags)
      return false;

   *wide = *ci;
   wide->usage = usage;
   wide->flags = flags;
   if (own_list) {
      *list = (VkImageFormatListCreateInfo){
         .sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO,
         .pNext = ci->pNext,
         .viewFormatCount = cuvk_vk_format_view_list(ci->format, formats, CUVK_MEM_MAX_VIEW_FORMATS),
         .pViewFormats = formats,
      };
      wide->pNext = list;
   }

   /* A driver that refuses the list (or answers differently with it)
    * still gets the mutable image without one, as before lists. */
   bool same = layer_image_same_memory(dev, ci, wide, handle_types);
   if (!same && own_list) {
      wide->pNext = ci->pNext;
      own_list = false;
      same = layer_image_same_memory(dev, ci, wide, handle_types);
   }
   if (!same) {
      cuvk_logd("vkCreateImage: the device would take the exportable image (format %d) differently with "
                "usage 0x%x, flags 0x%x; left as created, so CUDA cannot use it as a surface",
                (int)ci->format, (unsigned)usage, (unsigned)flags);
      return false;
   }
   cuvk_logd("vkCreateImage: exportable image (format %d) given usage 0x%x (was 0x%x), flags 0x%x (was 0x%x) "
             "and %u view formats for CUDA's textures and surfaces", (int)ci->format, (unsigned)usage,
             (unsigned)ci->usage, (unsigned)flags, (unsigned)ci->flags, own_list ? list->viewFormatCount : 0);
   return true;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_CreateImage(VkDevice device, const VkImageCreateInfo *pCreateInfo,
                  const VkAllocationCallbacks *pAllocator, VkImage *pImage)
{
   LAYER_GET_DEVICE(dev, device, "vkCreateImage", VK_ERROR_INITIALIZATION_FAILED);

   const VkExternalMemoryImageCreateInfo *ext =
      layer_find_struct(pCreateInfo->pNext, VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO);
   if (!ext || !ext->handleTypes)
      return dev->CreateImage(device, pCreateInfo, pAllocator, pImage);

   VkImageCreateInfo wide;
   VkImageFormatListCreateInfo list;
   VkFormat view_formats[CUVK_MEM_MAX_VIEW_FORMATS];
   if (layer_image_widen(dev, pCreateInfo, ext->handleTypes, &wide, &list, view_formats))
      pCreateInfo = &wide;

   struct layer_allocator allocator;
   struct layer_image *img = layer_zalloc(pAllocator, sizeof(*img),
                                          VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, &allocator);
   VkResult res = dev->CreateImage(device, pCreateInfo, pAllocator, pImage);
   if (res != VK_SUCCESS || !img) {
      if (img)
         layer_free(&allocator, img);
      else if (res == VK_SUCCESS)
         cuvk_logw("out of memory tracking an exportable image; its exports will import without the layer's record");
      return res;
   }
   img->base.allocator = allocator;
   layer_image_info_init(&img->info, pCreateInfo, ext->handleTypes);

   /* From a modifier list the driver picks one; ask which. */
   if (pCreateInfo->tiling == VK_IMAGE_TILING_DRM_FORMAT_MODIFIER_EXT &&
       !img->info.has_drm_format_modifier && dev->GetImageDrmFormatModifierPropertiesEXT) {
      VkImageDrmFormatModifierPropertiesEXT props = {
         .sType = VK_STRUCTURE_TYPE_IMAGE_DRM_FORMAT_MODIFIER_PROPERTIES_EXT,
      };
      if (dev->GetImageDrmFormatModifierPropertiesEXT(device, *pImage, &props) == VK_SUCCESS) {
         img->info.has_drm_format_modifier = true;
         img->info.drm_format_modifier = props.drmFormatModifier;
      }
   }

   layer_lock();
   layer_object_insert(dev, &img->base, LAYER_KIND_IMAGE, LAYER_HANDLE(*pImage));
   layer_unlock();
   return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_CreateBuffer(VkDevice device, const VkBufferCreateInfo *pCreateInfo,
                   const VkAllocationCallbacks *pAllocator, VkBuffer *pBuffer)
{
   LAYER_GET_DEVICE(dev, device, "vkCreateBuffer", VK_ERROR_INITIALIZATION_FAILED);

   const VkExternalMemoryBufferCreateInfo *ext =
      layer_find_struct(pCreateInfo->pNext, VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO);
   if (!ext || !ext->handleTypes)
      return dev->CreateBuffer(device, pCreateInfo, pAllocator, pBuffer);

   struct layer_allocator allocator;
   struct layer_buffer *buf = layer_zalloc(pAllocator, sizeof(*buf),
                                           VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, &allocator);
   VkResult res = dev->CreateBuffer(device, pCreateInfo, pAllocator, pBuffer);
   if (res != VK_SUCCESS || !buf) {
      if (buf)
         layer_free(&allocator, buf);
      else if (res == VK_SUCCESS)
         cuvk_logw("out of memory tracking an exportable buffer; its exports will import without the layer's record");
      return res;
   }
   buf->base.allocator = allocator;
   buf->info = (struct cuvk_mem_buffer_info){
      .flags = pCreateInfo->flags,
      .size = pCreateInfo->size,
      .usage = pCreateInfo->usage,
      .sharing_mode = pCreateInfo->sharingMode,
      .handle_types = ext->handleTypes,
   };

   layer_lock();
   layer_object_insert(dev, &buf->base, LAYER_KIND_BUFFER, LAYER_HANDLE(*pBuffer));
   layer_unlock();
   return VK_SUCCESS;
}

/* With the lock held: drops every binding of object handle from mem. */
static void
layer_memory_unbind(struct layer_memory *mem, enum layer_kind kind, uint64_t handle)
{
   struct cuvk_mem_export_record *rec = &mem->rec;
   uint32_t kept = 0;

   if (kind == LAYER_KIND_IMAGE) {
      for (uint32_t i = 0; i < rec->image_count; i++) {
         if (mem->image_handles[i] == handle)
            continue;
         mem->image_handles[kept] = mem->image_handles[i];
         rec->images[kept++] = rec->images[i];
      }
      rec->image_count = kept;
   } else {
      for (uint32_t i = 0; i < rec->buffer_count; i++) {
         if (mem->buffer_handles[i] == handle)
            continue;
         mem->buffer_handles[kept] = mem->buffer_handles[i];
         rec->buffers[kept++] = rec->buffers[i];
      }
      rec->buffer_count = kept;
   }
   layer_memory_changed(mem);
}

static VKAPI_ATTR void VKAPI_CALL
layer_DestroyImage(VkDevice device, VkImage image, const VkAllocationCallbacks *pAllocator)
{
   LAYER_GET_DEVICE(dev, device, "vkDestroyImage", );

   struct layer_image *img = NULL;
   if (image) {
      layer_lock();
      img = layer_find_image(dev, LAYER_HANDLE(image));
      if (img) {
         layer_object_remove(&img->base);
         for (uint32_t i = 0; i < LAYER_MAX_IMAGE_BINDINGS; i++) {
            struct layer_memory *mem = img->bound_memory[i] ?
               layer_find_memory(dev, img->bound_memory[i]) : NULL;
            if (mem)
               layer_memory_unbind(mem, LAYER_KIND_IMAGE, LAYER_HANDLE(image));
         }
      }
      layer_unlock();
   }

   dev->DestroyImage(device, image, pAllocator);
   if (img)
      layer_free(&img->base.allocator, img);
}

static VKAPI_ATTR void VKAPI_CALL
layer_DestroyBuffer(VkDevice device, VkBuffer buffer, const VkAllocationCallbacks *pAllocator)
{
   LAYER_GET_DEVICE(dev, device, "vkDestroyBuffer", );

   struct layer_buffer *buf = NULL;
   if (buffer) {
      layer_lock();
      buf = layer_find_buffer(dev, LAYER_HANDLE(buffer));
      if (buf) {
         layer_object_remove(&buf->base);
         struct layer_memory *mem = buf->bound_memory ?
            layer_find_memory(dev, buf->bound_memory) : NULL;
         if (mem)
            layer_memory_unbind(mem, LAYER_KIND_BUFFER, LAYER_HANDLE(buffer));
      }
      layer_unlock();
   }

   dev->DestroyBuffer(device, buffer, pAllocator);
   if (buf)
      layer_free(&buf->base.allocator, buf);
}

/* ---- memory ------------------------------------------------------------- */

static VKAPI_ATTR VkResult VKAPI_CALL
layer_AllocateMemory(VkDevice device, const VkMemoryAllocateInfo *pAllocateInfo,
                     const VkAllocationCallbacks *pAllocator, VkDeviceMemory *pMemory)
{
   LAYER_GET_DEVICE(dev, device, "vkAllocateMemory", VK_ERROR_INITIALIZATION_FAILED);

   const VkExportMemoryAllocateInfo *export_info =
      layer_find_struct(pAllocateInfo->pNext, VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO);
   if (!export_info || !export_info->handleTypes)
      return dev->AllocateMemory(device, pAllocateInfo, pAllocator, pMemory);

   struct layer_allocator allocator;
   struct layer_memory *mem = layer_zalloc(pAllocator, sizeof(*mem),
                                           VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, &allocator);
   VkResult res = dev->AllocateMemory(device, pAllocateInfo, pAllocator, pMemory);
   if (res != VK_SUCCESS || !mem) {
      if (mem)
         layer_free(&allocator, mem);
      else if (res == VK_SUCCESS)
         cuvk_logw("out of memory tracking an exportable allocation; its exports will import without the layer's record");
      return res;
   }
   mem->base.allocator = allocator;

   struct cuvk_mem_export_record *rec = &mem->rec;
   rec->has_uuids = dev->has_uuids;
   memcpy(rec->device_uuid, dev->device_uuid, VK_UUID_SIZE);
   memcpy(rec->driver_uuid, dev->driver_uuid, VK_UUID_SIZE);
   rec->allocation_size = pAllocateInfo->allocationSize;
   rec->memory_type_index = pAllocateInfo->memoryTypeIndex;
   if (pAllocateInfo->memoryTypeIndex < dev->memory_type_count)
      rec->memory_flags = dev->memory_type_flags[pAllocateInfo->memoryTypeIndex];
   rec->handle_types = export_info->handleTypes;

   const VkMemoryAllocateFlagsInfo *flags_info =
      layer_find_struct(pAllocateInfo->pNext, VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
   if (flags_info)
      rec->allocate_flags = flags_info->flags;

   const VkMemoryDedicatedAllocateInfo *dedicated =
      layer_find_struct(pAllocateInfo->pNext, VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO);

   layer_lock();
   if (dedicated && dedicated->image) {
      struct layer_image *img = layer_find_image(dev, LAYER_HANDLE(dedicated->image));
      rec->dedicated = CUVK_MEM_DEDICATED_IMAGE;
      if (img)
         rec->dedicated_image = img->info;
   } else if (dedicated && dedicated->buffer) {
      struct layer_buffer *buf = layer_find_buffer(dev, LAYER_HANDLE(dedicated->buffer));
      rec->dedicated = CUVK_MEM_DEDICATED_BUFFER;
      if (buf)
         rec->dedicated_buffer = buf->info;
   }
   layer_object_insert(dev, &mem->base, LAYER_KIND_MEMORY, LAYER_HANDLE(*pMemory));
   layer_unlock();

   if (rec->dedicated != CUVK_MEM_DEDICATED_NONE &&
       rec->dedicated_image.format == VK_FORMAT_UNDEFINED && rec->dedicated_buffer.size == 0)
      cuvk_log_once(CUVK_LOG_WARN,
                    "exportable memory is dedicated to an image or buffer created without "
                    "VkExternalMemory*CreateInfo; its parameters are not recorded");
   return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
layer_FreeMemory(VkDevice device, VkDeviceMemory memory, const VkAllocationCallbacks *pAllocator)
{
   LAYER_GET_DEVICE(dev, device, "vkFreeMemory", );

   struct layer_memory *mem = NULL;
   if (memory) {
      layer_lock();
      mem = layer_find_memory(dev, LAYER_HANDLE(memory));
      if (mem) {
         layer_object_remove(&mem->base);
         if (mem->registered)
            cuvk_mem_registry_forget_owner(mem);
      }
      layer_unlock();
   }

   dev->FreeMemory(device, memory, pAllocator);
   if (mem)
      layer_free(&mem->base.allocator, mem);
}

/* ---- binding ------------------------------------------------------------ */

/* With the lock held. */
static void
layer_bind_image(struct layer_device *dev, VkImage image, VkDeviceMemory memory,
                 VkDeviceSize offset, VkImageAspectFlagBits plane_aspect)
{
   struct layer_image *img = layer_find_image(dev, LAYER_HANDLE(image));
   struct layer_memory *mem = memory ? layer_find_memory(dev, LAYER_HANDLE(memory)) : NULL;
   if (!img || !mem)
      return;

   for (uint32_t i = 0; i < LAYER_MAX_IMAGE_BINDINGS; i++) {
      if (!img->bound_memory[i] || img->bound_memory[i] == LAYER_HANDLE(memory)) {
         img->bound_memory[i] = LAYER_HANDLE(memory);
         break;
      }
   }

   struct cuvk_mem_export_record *rec = &mem->rec;
   if (rec->image_count == CUVK_MEM_MAX_BOUND_IMAGES) {
      rec->bindings_truncated = true;
   } else {
      mem->image_handles[rec->image_count] = LAYER_HANDLE(image);
      rec->images[rec->image_count++] = (struct cuvk_mem_bound_image){
         .offset = offset,
         .plane_aspect = plane_aspect,
         .info = img->info,
      };
   }
   layer_memory_changed(mem);
}

/* With the lock held. */
static void
layer_bind_buffer(struct layer_device *dev, VkBuffer buffer, VkDeviceMemory memory,
                  VkDeviceSize offset)
{
   struct layer_buffer *buf = layer_find_buffer(dev, LAYER_HANDLE(buffer));
   struct layer_memory *mem = memory ? layer_find_memory(dev, LAYER_HANDLE(memory)) : NULL;
   if (!buf || !mem)
      return;

   buf->bound_memory = LAYER_HANDLE(memory);

   struct cuvk_mem_export_record *rec = &mem->rec;
   if (rec->buffer_count == CUVK_MEM_MAX_BOUND_BUFFERS) {
      rec->bindings_truncated = true;
   } else {
      mem->buffer_handles[rec->buffer_count] = LAYER_HANDLE(buffer);
      rec->buffers[rec->buffer_count++] = (struct cuvk_mem_bound_buffer){
         .offset = offset,
         .info = buf->info,
      };
   }
   layer_memory_changed(mem);
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_BindImageMemory(VkDevice device, VkImage image, VkDeviceMemory memory,
                      VkDeviceSize memoryOffset)
{
   LAYER_GET_DEVICE(dev, device, "vkBindImageMemory", VK_ERROR_INITIALIZATION_FAILED);

   VkResult res = dev->BindImageMemory(device, image, memory, memoryOffset);
   if (res == VK_SUCCESS) {
      layer_lock();
      layer_bind_image(dev, image, memory, memoryOffset, 0);
      layer_unlock();
   }
   return res;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_BindImageMemory2(VkDevice device, uint32_t bindInfoCount,
                       const VkBindImageMemoryInfo *pBindInfos)
{
   LAYER_GET_DEVICE(dev, device, "vkBindImageMemory2", VK_ERROR_INITIALIZATION_FAILED);
   if (!dev->BindImageMemory2)
      return VK_ERROR_EXTENSION_NOT_PRESENT;

   VkResult res = dev->BindImageMemory2(device, bindInfoCount, pBindInfos);
   if (res != VK_SUCCESS)
      return res;

   layer_lock();
   for (uint32_t i = 0; i < bindInfoCount; i++) {
      const VkBindImageMemoryInfo *b = &pBindInfos[i];
      const VkBindImagePlaneMemoryInfo *plane =
         layer_find_struct(b->pNext, VK_STRUCTURE_TYPE_BIND_IMAGE_PLANE_MEMORY_INFO);
      layer_bind_image(dev, b->image, b->memory, b->memoryOffset,
                       plane ? plane->planeAspect : 0);
   }
   layer_unlock();
   return res;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_BindBufferMemory(VkDevice device, VkBuffer buffer, VkDeviceMemory memory,
                       VkDeviceSize memoryOffset)
{
   LAYER_GET_DEVICE(dev, device, "vkBindBufferMemory", VK_ERROR_INITIALIZATION_FAILED);

   VkResult res = dev->BindBufferMemory(device, buffer, memory, memoryOffset);
   if (res == VK_SUCCESS) {
      layer_lock();
      layer_bind_buffer(dev, buffer, memory, memoryOffset);
      layer_unlock();
   }
   return res;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_BindBufferMemory2(VkDevice device, uint32_t bindInfoCount,
                        const VkBindBufferMemoryInfo *pBindInfos)
{
   LAYER_GET_DEVICE(dev, device, "vkBindBufferMemory2", VK_ERROR_INITIALIZATION_FAILED);
   if (!dev->BindBufferMemory2)
      return VK_ERROR_EXTENSION_NOT_PRESENT;

   VkResult res = dev->BindBufferMemory2(device, bindInfoCount, pBindInfos);
   if (res != VK_SUCCESS)
      return res;

   layer_lock();
   for (uint32_t i = 0; i < bindInfoCount; i++)
      layer_bind_buffer(dev, pBindInfos[i].buffer, pBindInfos[i].memory,
                        pBindInfos[i].memoryOffset);
   layer_unlock();
   return res;
}

/* ---- export ------------------------------------------------------------- */

static VKAPI_ATTR VkResult VKAPI_CALL
layer_GetMemoryFdKHR(VkDevice device, const VkMemoryGetFdInfoKHR *pGetFdInfo, int *pFd)
{
   LAYER_GET_DEVICE(dev, device, "vkGetMemoryFdKHR", VK_ERROR_INITIALIZATION_FAILED);
   if (!dev->GetMemoryFdKHR)
      return VK_ERROR_EXTENSION_NOT_PRESENT;

   VkResult res = dev->GetMemoryFdKHR(device, pGetFdInfo, pFd);
   if (res != VK_SUCCESS)
      return res;

   layer_lock();
   struct layer_memory *mem = layer_find_memory(dev, LAYER_HANDLE(pGetFdInfo->memory));
   if (mem && cuvk_mem_registry_register_fd(*pFd, pGetFdInfo->handleType, mem, &mem->rec))
      mem->registered = true;
   layer_unlock();
   return res;
}

#ifdef _WIN32
static VKAPI_ATTR VkResult VKAPI_CALL
layer_GetMemoryWin32HandleKHR(VkDevice device, const VkMemoryGetWin32HandleInfoKHR *pGetWin32HandleInfo,
                              HANDLE *pHandle)
{
   LAYER_GET_DEVICE(dev, device, "vkGetMemoryWin32HandleKHR", VK_ERROR_INITIALIZATION_FAILED);
   if (!dev->GetMemoryWin32HandleKHR)
      return VK_ERROR_EXTENSION_NOT_PRESENT;

   VkResult res = dev->GetMemoryWin32HandleKHR(device, pGetWin32HandleInfo, pHandle);
   if (res != VK_SUCCESS)
      return res;

   layer_lock();
   struct layer_memory *mem = layer_find_memory(dev, LAYER_HANDLE(pGetWin32HandleInfo->memory));
   if (mem && cuvk_mem_registry_register_win32_handle(*pHandle, pGetWin32HandleInfo->handleType,
                                                      mem, &mem->rec))
      mem->registered = true;
   layer_unlock();
   return res;
}
#endif

/* ---- entry points and teardown ------------------------------------------ */

#define ENTRY(name) { "vk" #name, (PFN_vkVoidFunction)layer_##name }
#define ALIAS(name, func) { "vk" #name, (PFN_vkVoidFunction)layer_##func }

static const struct {
   const char *name;
   PFN_vkVoidFunction func;
} layer_memory_entries[] = {
   ENTRY(AllocateMemory),
   ENTRY(FreeMemory),
   ENTRY(CreateImage),
   ENTRY(DestroyImage),
   ENTRY(CreateBuffer),
   ENTRY(DestroyBuffer),
   ENTRY(BindImageMemory),
   ENTRY(BindImageMemory2),
   ALIAS(BindImageMemory2KHR, BindImageMemory2),
   ENTRY(BindBufferMemory),
   ENTRY(BindBufferMemory2),
   ALIAS(BindBufferMemory2KHR, BindBufferMemory2),
   ENTRY(GetMemoryFdKHR),
#ifdef _WIN32
   ENTRY(GetMemoryWin32HandleKHR),
#endif
};

#undef ENTRY
#undef ALIAS

PFN_vkVoidFunction
layer_memory_proc(const char *name)
{
   for (size_t i = 0; i < CUVK_ARRAY_SIZE(layer_memory_entries); i++) {
      if (strcmp(layer_memory_entries[i].name, name) == 0)
         return layer_memory_entries[i].func;
   }
   return NULL;
}

void
layer_memory_detach_device(struct layer_device *dev, struct cuvk_list *list)
{
   while (!cuvk_list_is_empty(&dev->objects)) {
      struct layer_object *obj = cuvk_list_first_entry(&dev->objects, struct layer_object,
                                                       device_link);
      layer_object_remove(obj);
      if (obj->node.kind == LAYER_KIND_MEMORY) {
         struct layer_memory *mem = cuvk_container_of(obj, struct layer_memory, base);
         if (mem->registered)
            cuvk_mem_registry_forget_owner(mem);
      }
      cuvk_list_addtail(&obj->device_link, list);
   }
}

void
layer_memory_free_objects(struct cuvk_list *list)
{
   while (!cuvk_list_is_empty(list)) {
      struct layer_object *obj = cuvk_list_first_entry(list, struct layer_object, device_link);
      cuvk_list_del(&obj->device_link);
      layer_free(&obj->allocator, obj);
   }
}
