#include "array_vk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AVK_CHECK(expr)                                                      \
   do {                                                                      \
      VkResult avk_res_ = (expr);                                            \
      if (avk_res_ != VK_SUCCESS) {                                          \
         fprintf(stderr, "%s:%d: %s: VkResult %d\n", __FILE__, __LINE__,    \
                 #expr, avk_res_);                                           \
         return false;                                                       \
      }                                                                      \
   } while (0)

bool
avk_init(struct avk *v, const char *name)
{
   memset(v, 0, sizeof(*v));
   if (!vkh_init(&v->h, name, NULL))
      return false;

   VkCommandPoolCreateInfo pool_info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
      .queueFamilyIndex = v->h.queue_family,
   };
   AVK_CHECK(vkCreateCommandPool(v->h.device, &pool_info, NULL, &v->pool));
   VkCommandBufferAllocateInfo cmd_info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .commandPool = v->pool,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 1,
   };
   AVK_CHECK(vkAllocateCommandBuffers(v->h.device, &cmd_info, &v->cmd));
   VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
   AVK_CHECK(vkCreateFence(v->h.device, &fence_info, NULL, &v->fence));
   return true;
}

static void
avk_staging_free(struct avk *v)
{
   if (!v->staging)
      return;
   vkUnmapMemory(v->h.device, v->staging_memory);
   vkDestroyBuffer(v->h.device, v->staging, NULL);
   vkFreeMemory(v->h.device, v->staging_memory, NULL);
   v->staging = VK_NULL_HANDLE;
   v->staging_size = 0;
}

unsigned
avk_finish(struct avk *v)
{
   if (v->h.device) {
      vkDeviceWaitIdle(v->h.device);
      avk_staging_free(v);
      if (v->fence)
         vkDestroyFence(v->h.device, v->fence, NULL);
      if (v->pool)
         vkDestroyCommandPool(v->h.device, v->pool, NULL);
   }
   return vkh_finish(&v->h);
}

static bool
avk_staging_ensure(struct avk *v, VkDeviceSize size)
{
   if (size <= v->staging_size)
      return true;
   avk_staging_free(v);
   AVK_CHECK(vkh_create_buffer(&v->h, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                               0, &v->staging));
   AVK_CHECK(vkh_allocate_for_buffer(&v->h, v->staging, false, 0, &v->staging_memory, NULL, NULL));
   AVK_CHECK(vkBindBufferMemory(v->h.device, v->staging, v->staging_memory, 0));
   AVK_CHECK(vkMapMemory(v->h.device, v->staging_memory, 0, VK_WHOLE_SIZE, 0, &v->staging_map));
   v->staging_size = size;
   return true;
}

void
avk_format_size(VkFormat format, unsigned *elem_size, unsigned *block)
{
   *block = 1;
   switch (format) {
   case VK_FORMAT_R8_UINT: case VK_FORMAT_R8_SINT: case VK_FORMAT_R8_UNORM: case VK_FORMAT_R8_SNORM:
      *elem_size = 1; break;
   case VK_FORMAT_R8G8_UINT: case VK_FORMAT_R8G8_SINT: case VK_FORMAT_R8G8_UNORM: case VK_FORMAT_R8G8_SNORM:
   case VK_FORMAT_R16_UINT: case VK_FORMAT_R16_SINT: case VK_FORMAT_R16_SFLOAT: case VK_FORMAT_R16_UNORM:
   case VK_FORMAT_R16_SNORM:
      *elem_size = 2; break;
   case VK_FORMAT_R8G8B8A8_UINT: case VK_FORMAT_R8G8B8A8_SINT: case VK_FORMAT_R8G8B8A8_UNORM:
   case VK_FORMAT_R8G8B8A8_SNORM: case VK_FORMAT_B8G8R8A8_UNORM: case VK_FORMAT_R8G8B8A8_SRGB:
   case VK_FORMAT_R16G16_UINT: case VK_FORMAT_R16G16_SINT: case VK_FORMAT_R16G16_SFLOAT:
   case VK_FORMAT_R16G16_UNORM: case VK_FORMAT_R16G16_SNORM: case VK_FORMAT_R32_UINT:
   case VK_FORMAT_R32_SINT: case VK_FORMAT_R32_SFLOAT: case VK_FORMAT_A2B10G10R10_UNORM_PACK32:
      *elem_size = 4; break;
   case VK_FORMAT_R16G16B16A16_UINT: case VK_FORMAT_R16G16B16A16_SINT: case VK_FORMAT_R16G16B16A16_SFLOAT:
   case VK_FORMAT_R16G16B16A16_UNORM: case VK_FORMAT_R16G16B16A16_SNORM: case VK_FORMAT_R32G32_UINT:
   case VK_FORMAT_R32G32_SINT: case VK_FORMAT_R32G32_SFLOAT:
      *elem_size = 8; break;
   case VK_FORMAT_R32G32B32A32_UINT: case VK_FORMAT_R32G32B32A32_SINT: case VK_FORMAT_R32G32B32A32_SFLOAT:
      *elem_size = 16; break;
   case VK_FORMAT_BC1_RGBA_UNORM_BLOCK: case VK_FORMAT_BC1_RGBA_SRGB_BLOCK: case VK_FORMAT_BC4_UNORM_BLOCK:
   case VK_FORMAT_BC4_SNORM_BLOCK:
      *elem_size = 8; *block = 4; break;
   case VK_FORMAT_BC2_UNORM_BLOCK: case VK_FORMAT_BC2_SRGB_BLOCK: case VK_FORMAT_BC3_UNORM_BLOCK:
   case VK_FORMAT_BC3_SRGB_BLOCK: case VK_FORMAT_BC5_UNORM_BLOCK: case VK_FORMAT_BC5_SNORM_BLOCK:
   case VK_FORMAT_BC6H_UFLOAT_BLOCK: case VK_FORMAT_BC6H_SFLOAT_BLOCK: case VK_FORMAT_BC7_UNORM_BLOCK:
   case VK_FORMAT_BC7_SRGB_BLOCK:
      *elem_size = 16; *block = 4; break;
   default:
      *elem_size = 0; break;
   }
}

bool
avk_image_supported(struct avk *v, const VkImageCreateInfo *info)
{
   VkPhysicalDeviceExternalImageFormatInfo ext = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO,
      .handleType = VKH_OPAQUE_FD,
   };
   VkPhysicalDeviceImageFormatInfo2 fi = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2,
      .pNext = &ext,
      .format = info->format,
      .type = info->imageType,
      .tiling = info->tiling,
      .usage = info->usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
      .flags = info->flags,
   };
   VkExternalImageFormatProperties ext_props = {
      .sType = VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES,
   };
   VkImageFormatProperties2 props = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2,
      .pNext = &ext_props,
   };
   if (vkGetPhysicalDeviceImageFormatProperties2(v->h.physical_device, &fi, &props) != VK_SUCCESS)
      return false;
   const VkImageFormatProperties *p = &props.imageFormatProperties;
   return info->extent.width <= p->maxExtent.width && info->extent.height <= p->maxExtent.height &&
          info->extent.depth <= p->maxExtent.depth && info->arrayLayers <= p->maxArrayLayers &&
          info->mipLevels <= p->maxMipLevels;
}

static VkImageMemoryBarrier
avk_barrier(const struct avk_image *img)
{
   return (VkImageMemoryBarrier){
      .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
      .oldLayout = VK_IMAGE_LAYOUT_GENERAL,
      .newLayout = VK_IMAGE_LAYOUT_GENERAL,
      .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .image = img->image,
      .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0,
                            VK_REMAINING_ARRAY_LAYERS },
   };
}

static void
avk_acquire(struct avk *v, const struct avk_image *img)
{
   VkImageMemoryBarrier b = avk_barrier(img);
   b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_EXTERNAL;
   b.dstQueueFamilyIndex = v->h.queue_family;
   b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
   vkCmdPipelineBarrier(v->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL,
                        0, NULL, 1, &b);
}

static void
avk_release(struct avk *v, const struct avk_image *img)
{
   VkImageMemoryBarrier b = avk_barrier(img);
   b.srcQueueFamilyIndex = v->h.queue_family;
   b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_EXTERNAL;
   b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   vkCmdPipelineBarrier(v->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL,
                        0, NULL, 1, &b);
}

/* One level between GENERAL and the transfer layout a copy wants. */
static void
avk_transition(struct avk *v, const struct avk_image *img, uint32_t level, VkImageLayout from,
               VkImageLayout to)
{
   VkImageMemoryBarrier b = avk_barrier(img);
   b.oldLayout = from;
   b.newLayout = to;
   b.subresourceRange.baseMipLevel = level;
   b.subresourceRange.levelCount = 1;
   b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
   vkCmdPipelineBarrier(v->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL,
                        0, NULL, 1, &b);
}

static bool
avk_begin(struct avk *v)
{
   VkCommandBufferBeginInfo begin = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
   };
   AVK_CHECK(vkResetCommandBuffer(v->cmd, 0));
   AVK_CHECK(vkBeginCommandBuffer(v->cmd, &begin));
   return true;
}

static bool
avk_submit_wait(struct avk *v)
{
   AVK_CHECK(vkEndCommandBuffer(v->cmd));
   VkSubmitInfo submit = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .commandBufferCount = 1,
      .pCommandBuffers = &v->cmd,
   };
   AVK_CHECK(vkResetFences(v->h.device, 1, &v->fence));
   AVK_CHECK(vkQueueSubmit(v->h.queue, 1, &submit, v->fence));
   AVK_CHECK(vkWaitForFences(v->h.device, 1, &v->fence, VK_TRUE, UINT64_MAX));
   return true;
}

bool
avk_image_create(struct avk *v, const VkImageCreateInfo *info, bool dedicated, VkDeviceSize offset,
                 struct avk_image *out)
{
   memset(out, 0, sizeof(*out));
   out->fd = -1;
   out->info = *info;
   out->info.usage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
   /* The caller's chain (a format list, say) goes to vkCreateImage only. */
   VkImageCreateInfo create = out->info;
   out->info.pNext = NULL;
   out->dedicated = dedicated;
   avk_format_size(info->format, &out->elem_size, &out->block);
   if (!out->elem_size) {
      fprintf(stderr, "avk: VkFormat %d is not one the tests know\n", info->format);
      return false;
   }

   AVK_CHECK(vkh_create_image(&v->h, &create, VKH_OPAQUE_FD, &out->image));
   VkMemoryRequirements req;
   vkGetImageMemoryRequirements(v->h.device, out->image, &req);
   if (dedicated) {
      out->offset = 0;
      AVK_CHECK(vkh_allocate_for_image(&v->h, out->image, true, VKH_OPAQUE_FD, &out->memory,
                                       &out->allocation_size, NULL));
   } else {
      out->offset = (offset + req.alignment - 1) / req.alignment * req.alignment;
      int type = vkh_find_memory_type(&v->h, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
      if (type < 0)
         type = vkh_find_memory_type(&v->h, req.memoryTypeBits, 0);
      out->allocation_size = out->offset + req.size;
      AVK_CHECK(vkh_allocate(&v->h, out->allocation_size, (uint32_t)type, VKH_OPAQUE_FD, VK_NULL_HANDLE,
                             VK_NULL_HANDLE, &out->memory));
   }
   AVK_CHECK(vkBindImageMemory(v->h.device, out->image, out->memory, out->offset));

   /* New image: into GENERAL, then over to whoever comes next. */
   if (!avk_begin(v))
      return false;
   VkImageMemoryBarrier b = avk_barrier(out);
   b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
   b.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   vkCmdPipelineBarrier(v->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL,
                        0, NULL, 1, &b);
   avk_release(v, out);
   if (!avk_submit_wait(v))
      return false;

   out->fd = vkh_get_memory_fd(&v->h, out->memory, VKH_OPAQUE_FD);
   return out->fd >= 0;
}

void
avk_image_destroy(struct avk *v, struct avk_image *img)
{
   vkDeviceWaitIdle(v->h.device);
   if (img->image)
      vkDestroyImage(v->h.device, img->image, NULL);
   if (img->memory)
      vkFreeMemory(v->h.device, img->memory, NULL);
   memset(img, 0, sizeof(*img));
   img->fd = -1;
}

void
avk_level_extent(const struct avk_image *img, uint32_t level, VkExtent3D *extent, uint32_t *layers)
{
   extent->width = img->info.extent.width >> level ? img->info.extent.width >> level : 1;
   extent->height = img->info.extent.height >> level ? img->info.extent.height >> level : 1;
   extent->depth = img->info.extent.depth >> level ? img->info.extent.depth >> level : 1;
   *layers = img->info.arrayLayers;
}

size_t
avk_level_size(const struct avk_image *img, uint32_t level)
{
   VkExtent3D e;
   uint32_t layers;
   avk_level_extent(img, level, &e, &layers);
   size_t bw = (e.width + img->block - 1) / img->block, bh = (e.height + img->block - 1) / img->block;
   return bw * bh * e.depth * layers * img->elem_size;
}

static VkBufferImageCopy
avk_level_region(const struct avk_image *img, uint32_t level)
{
   VkExtent3D e;
   uint32_t layers;
   avk_level_extent(img, level, &e, &layers);
   return (VkBufferImageCopy){
      .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, level, 0, layers },
      .imageExtent = e,
   };
}

bool
avk_write_level(struct avk *v, struct avk_image *img, uint32_t level, const void *data)
{
   size_t size = avk_level_size(img, level);
   if (!avk_staging_ensure(v, size))
      return false;
   memcpy(v->staging_map, data, size);
   if (!avk_begin(v))
      return false;
   avk_acquire(v, img);
   avk_transition(v, img, level, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
   VkBufferImageCopy r = avk_level_region(img, level);
   vkCmdCopyBufferToImage(v->cmd, v->staging, img->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
   avk_transition(v, img, level, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL);
   avk_release(v, img);
   return avk_submit_wait(v);
}

bool
avk_read_level(struct avk *v, struct avk_image *img, uint32_t level, void *data)
{
   size_t size = avk_level_size(img, level);
   if (!avk_staging_ensure(v, size))
      return false;
   if (!avk_begin(v))
      return false;
   avk_acquire(v, img);
   avk_transition(v, img, level, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
   VkBufferImageCopy r = avk_level_region(img, level);
   vkCmdCopyImageToBuffer(v->cmd, img->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, v->staging, 1, &r);
   avk_transition(v, img, level, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL);
   VkMemoryBarrier host = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
      .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(v->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0,
                        NULL, 0, NULL);
   avk_release(v, img);
   if (!avk_submit_wait(v))
      return false;
   memcpy(data, v->staging_map, size);
   return true;
}
