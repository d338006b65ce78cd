/*
 * Images as the shared object of semaphore interop:
 *
 * external_semaphore.{opaque_fd.binary,timeline_fd}.vulkan_to_cuda.image_level
 *    Vulkan writes one level of a mipmapped image and signals; CUDA
 *    waits and copies that level of the mapped mipmapped array out.
 *
 * external_semaphore.ffmpeg.{nv12,p010}.{to_cuda,from_cuda}
 *    FFmpeg's Vulkan <-> CUDA frame transfers (libavutil/hwcontext_vulkan.c,
 *    vulkan_transfer_data_to_cuda and _from_cuda), as that code makes its
 *    calls: each image's memory imported with cuImportExternalMemory and
 *    mapped with cuExternalMemoryGetMappedMipmappedArray, level 0 taken
 *    with cuMipmappedArrayGetLevel; a timeline semaphore per image with
 *    the frame's current value; cuWaitExternalSemaphoresAsync for that
 *    value, one cuMemcpy2DAsync per plane between the array and pitched
 *    device memory (the CUDA frame), cuSignalExternalSemaphoresAsync with
 *    the value + 1; Vulkan waits for that in its own next submit.  Three
 *    frames are in flight at once, with no host wait between the two
 *    sides until the round's end, over four rounds.
 *
 * The frames are one image per plane (R8 + R8G8 for nv12, R16 + R16G16
 * for p010), which is what FFmpeg does on a device without multi-planar
 * formats: lavapipe 22.3 has neither VK_FORMAT_G8_B8R8_2PLANE_420_UNORM
 * nor the 10-bit one.  cuvk cannot map one plane of a multi-planar image
 * yet (docs/semaphores.md), so the cases use plane images everywhere.
 *
 * Every producer is long (fills of the 16 MiB exported buffer, or CUDA
 * memsets of it) and comes right before the image write, so a consumer
 * without its wait reads the last round's frame (ITEST_OMIT_WAIT=1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interop_semaphore.h"

/* The rule that vkGetImageSubresourceLayout takes LINEAR images only:
 * validation layer 1.3.239 (Debian 12's, on CI and the GPU machine)
 * reports it as 07789, later specs number it 07790. */
#define OPTIMAL_SUBRESOURCE_LAYOUT_VUIDS \
   "VUID-vkGetImageSubresourceLayout-image-07789|VUID-vkGetImageSubresourceLayout-image-07790"

/* An exported image and CUDA's mipmapped array over it. */
struct simage {
   VkImage image;
   VkDeviceMemory memory;
   VkDeviceSize allocation_size;
   uint32_t width, height, levels;
   CUexternalMemory ext;
   CUmipmappedArray mip;
   /* A plane of a multi-planar image: the aspect copies name (0: COLOR),
    * and image, memory and import belong to the frame's image. */
   VkImageAspectFlags aspect;
   bool borrowed;
};

static uint32_t
level_dim(uint32_t d, uint32_t level)
{
   return d >> level ? d >> level : 1;
}

/* Ownership moves between Vulkan's queue family and CUDA's side
 * (VK_QUEUE_FAMILY_EXTERNAL); the image stays in GENERAL throughout, as
 * docs/arrays.md asks of the exporter. */
static void
image_ownership(struct stest *s, VkCommandBuffer cmd, const struct simage *img, bool to_cuda)
{
   VkImageMemoryBarrier b = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
      .srcAccessMask = to_cuda ? VK_ACCESS_TRANSFER_WRITE_BIT : 0,
      .dstAccessMask = to_cuda ? 0 : VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
      .oldLayout = VK_IMAGE_LAYOUT_GENERAL,
      .newLayout = VK_IMAGE_LAYOUT_GENERAL,
      .srcQueueFamilyIndex = to_cuda ? s->it.vk.queue_family : VK_QUEUE_FAMILY_EXTERNAL,
      .dstQueueFamilyIndex = to_cuda ? VK_QUEUE_FAMILY_EXTERNAL : s->it.vk.queue_family,
      .image = img->image,
      .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0, 1 },
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                        NULL, 0, NULL, 1, &b);
}

static VkBufferImageCopy
level_region(const struct simage *img, uint32_t level, VkDeviceSize buffer_offset)
{
   return (VkBufferImageCopy){
      .bufferOffset = buffer_offset,
      .imageSubresource = { img->aspect ? img->aspect : VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 1 },
      .imageExtent = { level_dim(img->width, level), level_dim(img->height, level), 1 },
   };
}

/* One level between GENERAL, where the image rests, and the layout a
 * copy wants (the validation layer asks for the transfer layouts). */
static void
level_layout(VkCommandBuffer cmd, const struct simage *img, uint32_t level, VkImageLayout from,
             VkImageLayout to)
{
   VkImageMemoryBarrier b = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
      .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
      .oldLayout = from,
      .newLayout = to,
      .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .image = img->image,
      .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, level, 1, 0, 1 },
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                        NULL, 0, NULL, 1, &b);
}

/* buffer at offset, rows packed, into a level of the image. */
static void
record_to_image(VkCommandBuffer cmd, VkBuffer buffer, VkDeviceSize offset, const struct simage *img,
                uint32_t level)
{
   VkBufferImageCopy region = level_region(img, level, offset);
   level_layout(cmd, img, level, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
   vkCmdCopyBufferToImage(cmd, buffer, img->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
   level_layout(cmd, img, level, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL);
}

/* A level of the image into buffer at offset, rows packed. */
static void
record_from_image(VkCommandBuffer cmd, const struct simage *img, uint32_t level, VkBuffer buffer,
                  VkDeviceSize offset)
{
   VkBufferImageCopy region = level_region(img, level, offset);
   level_layout(cmd, img, level, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
   vkCmdCopyImageToBuffer(cmd, img->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &region);
   level_layout(cmd, img, level, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL);
}

/* Creates the image in a dedicated exported allocation, moves it to
 * GENERAL (Vulkan's queue family owns it then), and imports and maps it
 * into CUDA as FFmpeg's vulkan_export_to_cuda does. */
static bool
simage_export(struct stest *s, VkFormat format, uint32_t width, uint32_t height, uint32_t levels,
              struct simage *img)
{
   memset(img, 0, sizeof(*img));
   img->width = width;
   img->height = height;
   img->levels = levels;
   VkImageCreateInfo info = vkh_image_info_2d(
      format, width, height, levels, 1,
      VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
   VkResult res = vkh_create_image(&s->it.vk, &info, VKH_OPAQUE_FD, &img->image);
   if (res == VK_SUCCESS)
      res = vkh_allocate_for_image(&s->it.vk, img->image, true, VKH_OPAQUE_FD, &img->memory,
                                   &img->allocation_size, NULL);
   if (res == VK_SUCCESS)
      res = vkBindImageMemory(s->it.vk.device, img->image, img->memory, 0);
   if (res != VK_SUCCESS) {
      ITEST_FAILF("creating an exportable %ux%u image of VkFormat %d: %d", width, height, format,
                  res);
      return false;
   }

   VkCommandBuffer cmd = stest_cmd_begin(s);
   VkImageMemoryBarrier to_general = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
      .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
      .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
      .newLayout = VK_IMAGE_LAYOUT_GENERAL,
      .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .image = img->image,
      .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0, 1 },
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                        NULL, 0, NULL, 1, &to_general);
   VKH_CHECK_VK(vkEndCommandBuffer(cmd));
   if (!stest_submit_batch(s, cmd, NULL, 0, NULL, 0, s->fence) || !stest_fence_wait(s))
      return false;

   CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc;
   memset(&desc, 0, sizeof(desc));
   desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
   desc.handle.fd = vkh_get_memory_fd(&s->it.vk, img->memory, VKH_OPAQUE_FD);
   desc.size = img->allocation_size;
   desc.flags = CUDA_EXTERNAL_MEMORY_DEDICATED;
   if (desc.handle.fd < 0) {
      ITEST_FAILF("vkGetMemoryFdKHR of an image's memory");
      return false;
   }
   if (!ITEST_CU(cuImportExternalMemory(&img->ext, &desc))) {
      close(desc.handle.fd);
      img->ext = NULL;
      return false;
   }
   return true;
}

/* cuExternalMemoryGetMappedMipmappedArray of ext at offset. */
static bool
simage_map(CUexternalMemory ext, uint64_t offset, uint32_t width, uint32_t height, uint32_t levels,
           CUarray_format cu_format, unsigned channels, CUmipmappedArray *mip)
{
   CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC mdesc;
   memset(&mdesc, 0, sizeof(mdesc));
   mdesc.offset = offset;
   mdesc.arrayDesc.Width = width;
   mdesc.arrayDesc.Height = height;
   mdesc.arrayDesc.Depth = 0;
   mdesc.arrayDesc.Format = cu_format;
   mdesc.arrayDesc.NumChannels = channels;
   mdesc.numLevels = levels;
   if (!ITEST_CU(cuExternalMemoryGetMappedMipmappedArray(mip, ext, &mdesc))) {
      *mip = NULL;
      return false;
   }
   return true;
}

static bool
simage_create(struct stest *s, VkFormat format, uint32_t width, uint32_t height, uint32_t levels,
              CUarray_format cu_format, unsigned channels, struct simage *img)
{
   return simage_export(s, format, width, height, levels, img) &&
          simage_map(img->ext, 0, width, height, levels, cu_format, channels, &img->mip);
}

static CUarray
simage_level(struct simage *img, uint32_t level)
{
   CUarray array = NULL;
   if (!img->mip || !ITEST_CU(cuMipmappedArrayGetLevel(&array, img->mip, level)))
      return NULL;
   return array;
}

static void
simage_destroy(struct stest *s, struct simage *img)
{
   if (img->mip)
      ITEST_CU(cuMipmappedArrayDestroy(img->mip));
   if (img->borrowed) {
      memset(img, 0, sizeof(*img));
      return;
   }
   if (img->ext)
      ITEST_CU(cuDestroyExternalMemory(img->ext));
   if (img->image)
      vkDestroyImage(s->it.vk.device, img->image, NULL);
   if (img->memory)
      vkFreeMemory(s->it.vk.device, img->memory, NULL);
   memset(img, 0, sizeof(*img));
}

/* Records the start of a long Vulkan producer: fills of the whole
 * exported buffer, then bytes [offset, offset + size) of the staging
 * buffer over the same range of it, ready to be copied into an image. */
static void
record_fills_then_staging(struct stest *s, VkCommandBuffer cmd, unsigned fills,
                          VkDeviceSize offset, VkDeviceSize size)
{
   /* Earlier batches of this queue may still read the buffer. */
   stest_transfer_barrier(cmd);
   for (unsigned i = 0; i < fills; i++) {
      vkCmdFillBuffer(cmd, s->mem.target, 0, DATA_SIZE, 0x0b0b0b0bu * (i + 1));
      stest_transfer_barrier(cmd);
   }
   VkBufferCopy region = { .srcOffset = offset, .dstOffset = offset, .size = size };
   vkCmdCopyBuffer(cmd, s->staging, s->mem.target, 1, &region);
   stest_transfer_barrier(cmd);
}

static void
record_to_host(VkCommandBuffer cmd)
{
   VkMemoryBarrier to_host = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
      .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                        &to_host, 0, NULL, 0, NULL);
}

static bool
cu_wait_one(struct stest *s, CUexternalSemaphore sem, uint64_t value, CUstream stream)
{
   if (s->omit_wait)
      return true;
   CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS params;
   memset(&params, 0, sizeof(params));
   params.params.fence.value = value;
   return ITEST_CU(cuWaitExternalSemaphoresAsync(&sem, &params, 1, stream));
}

/* ---- an image level ------------------------------------------------------ */

#define LEVEL_IMAGE_WIDTH 1024
#define LEVEL_IMAGE_HEIGHT 512
#define LEVEL_IMAGE_LEVELS 4
#define SHARED_LEVEL 1

int
stest_image_level(struct stest *s, bool timeline)
{
   struct simage img;
   VkSemaphore vk_sem = VK_NULL_HANDLE;
   CUexternalSemaphore cu_sem = NULL;
   const uint32_t w = level_dim(LEVEL_IMAGE_WIDTH, SHARED_LEVEL);
   const uint32_t h = level_dim(LEVEL_IMAGE_HEIGHT, SHARED_LEVEL);
   const size_t row = (size_t)w * 4, bytes = row * h;
   uint8_t *want = malloc(bytes), *got = malloc(bytes);
   CUarray level = NULL;

   memset(&img, 0, sizeof(img));
   if (!want || !got ||
       !simage_create(s, VK_FORMAT_R8G8B8A8_UINT, LEVEL_IMAGE_WIDTH, LEVEL_IMAGE_HEIGHT,
                      LEVEL_IMAGE_LEVELS, CU_AD_FORMAT_UNSIGNED_INT8, 4, &img) ||
       !(level = simage_level(&img, SHARED_LEVEL)) ||
       !stest_semaphore_share(s, timeline, &vk_sem, &cu_sem))
      goto out;

   for (uint32_t round = 1; round <= 3; round++) {
      itest_pattern(want, bytes, 0x1e7e0000u + round);
      if (!vkh_write(&s->it.vk, s->staging_mem, 0, want, bytes))
         ITEST_FAILF("writing the staging pattern");
      VkCommandBuffer cmd = stest_cmd_begin(s);
      record_fills_then_staging(s, cmd, PRODUCER_FILLS, 0, bytes);
      if (round > 1)
         image_ownership(s, cmd, &img, false);
      record_to_image(cmd, s->mem.target, 0, &img, SHARED_LEVEL);
      image_ownership(s, cmd, &img, true);
      VKH_CHECK_VK(vkEndCommandBuffer(cmd));
      struct stest_sem_op signal = { vk_sem, round };
      if (!stest_submit_batch(s, cmd, NULL, 0, &signal, 1, s->fence))
         break;

      /* CUDA: wait in stream order, then copy the level out to the host
       * (synchronous, after the wait on the same stream). */
      CUDA_MEMCPY2D copy;
      memset(&copy, 0, sizeof(copy));
      copy.srcMemoryType = CU_MEMORYTYPE_ARRAY;
      copy.srcArray = level;
      copy.dstMemoryType = CU_MEMORYTYPE_HOST;
      copy.dstHost = got;
      copy.dstPitch = row;
      copy.WidthInBytes = row;
      copy.Height = h;
      if (!cu_wait_one(s, cu_sem, round, NULL) || !ITEST_CU(cuMemcpy2D(&copy)))
         break;
      char what[80];
      snprintf(what, sizeof(what), "round %u: level %u as CUDA read it after the wait", round,
               SHARED_LEVEL);
      itest_check_bytes(got, want, bytes, what);
      if (!stest_fence_wait(s))
         break;
   }

out:
   if (s->it.have_cuda)
      ITEST_CU(cuCtxSynchronize());
   vkDeviceWaitIdle(s->it.vk.device);
   if (cu_sem)
      ITEST_CU(cuDestroyExternalSemaphore(cu_sem));
   if (vk_sem)
      vkDestroySemaphore(s->it.vk.device, vk_sem, NULL);
   simage_destroy(s, &img);
   free(want);
   free(got);
   return ITEST_PASS;
}

/* ---- FFmpeg's frame transfers ------------------------------------------- */

#define FF_WIDTH 384
#define FF_HEIGHT 216
#define FF_FRAMES 3
#define FF_ROUNDS 4
#define FF_PLANES 2
/* Fills (or memsets) of the 16 MiB buffer before each frame's write. */
#define FF_PRODUCER_FILLS 4
#define FF_PITCH_ALIGN 512

struct ff_format {
   const char *name;
   VkFormat vk[FF_PLANES];
   CUarray_format cu;
   /* Bytes per texel of each plane: luma, then interleaved chroma. */
   unsigned texel[FF_PLANES];
   /* p010 keeps its 10 bits in the high bits of each 16-bit sample. */
   bool high_10_bits;
   /* The one multi-planar format FFmpeg uses where the device has it. */
   VkFormat multi;
   const char *multi_name;
};

static const struct ff_format ff_nv12 = {
   "nv12", { VK_FORMAT_R8_UNORM, VK_FORMAT_R8G8_UNORM }, CU_AD_FORMAT_UNSIGNED_INT8, { 1, 2 }, false,
   VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, "VK_FORMAT_G8_B8R8_2PLANE_420_UNORM",
};
static const struct ff_format ff_p010 = {
   "p010", { VK_FORMAT_R16_UNORM, VK_FORMAT_R16G16_UNORM }, CU_AD_FORMAT_UNSIGNED_INT16, { 2, 4 }, true,
   VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16, "VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16",
};

struct ff_plane {
   struct simage img;
   CUarray array;
   VkSemaphore vk_sem;
   CUexternalSemaphore cu_sem;
   uint32_t width, height;
   size_t row_bytes;
   /* The CUDA frame's plane: pitched device memory. */
   CUdeviceptr dev;
   size_t pitch;
   /* Where the plane's bytes lie, rows packed, in the staging, readback
    * and pinned buffers. */
   size_t offset;
};

struct ff_frame {
   struct ff_plane planes[FF_PLANES];
   /* Multi-planar frames: the one image the planes map (each plane's img
    * borrows it), and its one semaphore in planes[0]. */
   struct simage img;
   /* The semaphores' value, FFmpeg's sem_value: the last one signalled
    * (or enqueued to be). */
   uint64_t value;
   /* to_cuda: [0] the write.  from_cuda: [0] hands the frame to CUDA,
    * [1] the read. */
   VkCommandBuffer cmd[2];
   VkFence fence;
   bool handed_to_cuda;
};

struct ff_test {
   const struct ff_format *fmt;
   bool multiplanar;
   /* Semaphores per frame: one per image. */
   unsigned sems;
   struct ff_frame frames[FF_FRAMES];
   size_t total_bytes;
   /* CUDA's side of the bytes: the source of from_cuda, the destination
    * of to_cuda's download. */
   uint8_t *pinned;
   /* What the frames must hold, rows packed. */
   uint8_t *want;
   uint8_t *got;
   CUstream stream;
};

static void
ff_pattern(const struct ff_format *fmt, uint8_t *dst, size_t size, uint32_t seed)
{
   itest_pattern(dst, size, seed);
   if (fmt->high_10_bits) {
      for (size_t i = 0; i < size; i += 2)
         dst[i] &= 0xc0;
   }
}

/* Whether the exporter can make FFmpeg's multi-planar frame: an
 * exportable (OPAQUE_FD) optimal-tiled 2D image of fmt->multi with the
 * usage simage_export gives.  Says why not on stderr. */
static bool
ff_multi_supported(struct stest *s, const struct ff_format *fmt)
{
   VkPhysicalDeviceExternalImageFormatInfo ext_info = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO,
      .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
   };
   VkPhysicalDeviceImageFormatInfo2 info = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2,
      .pNext = &ext_info,
      .format = fmt->multi,
      .type = VK_IMAGE_TYPE_2D,
      .tiling = VK_IMAGE_TILING_OPTIMAL,
      .usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
   };
   VkExternalImageFormatProperties ext_props = {
      .sType = VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES,
   };
   VkImageFormatProperties2 props = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2,
      .pNext = &ext_props,
   };
   VkPhysicalDeviceProperties dev;
   vkGetPhysicalDeviceProperties(s->it.vk.physical_device, &dev);
   VkResult res = vkGetPhysicalDeviceImageFormatProperties2(s->it.vk.physical_device, &info, &props);
   if (res != VK_SUCCESS) {
      fprintf(stderr, "SKIP: %s has no %s (%d) optimal-tiled transfer image with OPAQUE_FD export "
              "(vkGetPhysicalDeviceImageFormatProperties2: %d)\n", dev.deviceName, fmt->multi_name,
              (int)fmt->multi, res);
      return false;
   }
   VkExternalMemoryFeatureFlags need = VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT;
   VkExternalMemoryFeatureFlags have = ext_props.externalMemoryProperties.externalMemoryFeatures;
   if ((have & need) != need) {
      fprintf(stderr, "SKIP: %s cannot export %s (%d) images as OPAQUE_FD (external memory features 0x%x)\n",
              dev.deviceName, fmt->multi_name, (int)fmt->multi, have);
      return false;
   }
   if (props.imageFormatProperties.maxExtent.width < FF_WIDTH ||
       props.imageFormatProperties.maxExtent.height < FF_HEIGHT) {
      fprintf(stderr, "SKIP: %s makes %s images of at most %ux%u\n", dev.deviceName, fmt->multi_name,
              props.imageFormatProperties.maxExtent.width, props.imageFormatProperties.maxExtent.height);
      return false;
   }
   return true;
}

/* A multi-planar frame as vulkan_export_to_cuda maps it: the image's
 * dedicated memory imported once, then per plane
 * cuExternalMemoryGetMappedMipmappedArray at the offset
 * vkGetImageSubresourceLayout gives for the plane's aspect, with the
 * plane's extent and a 1- or 2-channel format. */
static bool
ff_frame_multi(struct stest *s, struct ff_test *t, struct ff_frame *frame)
{
   static const VkImageAspectFlagBits aspects[FF_PLANES] = {
      VK_IMAGE_ASPECT_PLANE_0_BIT,
      VK_IMAGE_ASPECT_PLANE_1_BIT,
   };
   if (!simage_export(s, t->fmt->multi, FF_WIDTH, FF_HEIGHT, 1, &frame->img))
      return false;
   for (unsigned p = 0; p < FF_PLANES; p++) {
      struct ff_plane *plane = &frame->planes[p];
      /* FFmpeg's query; Vulkan allows it on LINEAR images only, and the
       * driver answers it anyway: tolerated here, for this call alone. */
      VkImageSubresource sub = { .aspectMask = aspects[p] };
      VkSubresourceLayout layout;
      vkh_tolerate_message(OPTIMAL_SUBRESOURCE_LAYOUT_VUIDS);
      vkGetImageSubresourceLayout(s->it.vk.device, frame->img.image, &sub, &layout);
      vkh_tolerate_message(NULL);
      plane->img = (struct simage){
         .image = frame->img.image,
         .width = plane->width,
         .height = plane->height,
         .levels = 1,
         .aspect = aspects[p],
         .borrowed = true,
      };
      if (!simage_map(frame->img.ext, layout.offset, plane->width, plane->height, 1, t->fmt->cu, p ? 2 : 1,
                      &plane->img.mip)) {
         ITEST_FAILF("%s frame: mapping plane %u at offset %llu (%ux%u, %u channel(s))", t->fmt->multi_name,
                     p, (unsigned long long)layout.offset, plane->width, plane->height, p ? 2 : 1);
         return false;
      }
   }
   return true;
}

static bool
ff_setup(struct stest *s, struct ff_test *t, const struct ff_format *fmt, bool multiplanar)
{
   memset(t, 0, sizeof(*t));
   t->fmt = fmt;
   t->multiplanar = multiplanar;
   t->sems = multiplanar ? 1 : FF_PLANES;
   size_t offset = 0;
   for (unsigned f = 0; f < FF_FRAMES; f++) {
      struct ff_frame *frame = &t->frames[f];
      for (unsigned p = 0; p < FF_PLANES; p++) {
         struct ff_plane *plane = &frame->planes[p];
         plane->width = p ? FF_WIDTH / 2 : FF_WIDTH;
         plane->height = p ? FF_HEIGHT / 2 : FF_HEIGHT;
      }
      if (multiplanar && !ff_frame_multi(s, t, frame))
         return false;
      for (unsigned p = 0; p < FF_PLANES; p++) {
         struct ff_plane *plane = &frame->planes[p];
         /* 4:2:0: the chroma plane is half as wide and half as high. */
         plane->width = p ? FF_WIDTH / 2 : FF_WIDTH;
         plane->height = p ? FF_HEIGHT / 2 : FF_HEIGHT;
         plane->row_bytes = (size_t)plane->width * fmt->texel[p];
         plane->pitch = ITEST_ALIGN(plane->row_bytes, FF_PITCH_ALIGN);
         plane->offset = offset;
         offset += ITEST_ALIGN(plane->row_bytes * plane->height, 256);
         if ((!multiplanar && !simage_create(s, fmt->vk[p], plane->width, plane->height, 1, fmt->cu,
                                             p ? 2 : 1, &plane->img)) ||
             !(plane->array = simage_level(&plane->img, 0)) ||
             (p < t->sems && !stest_semaphore_share(s, true, &plane->vk_sem, &plane->cu_sem)) ||
             !ITEST_CU(cuMemAlloc(&plane->dev, plane->pitch * plane->height)))
            return false;
      }
      for (unsigned i = 0; i < 2; i++) {
         if (!(frame->cmd[i] = stest_cmd_alloc(s)))
            return false;
      }
      VkFenceCreateInfo fence = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
      VKH_CHECK_VK(vkCreateFence(s->it.vk.device, &fence, NULL, &frame->fence));
   }
   t->total_bytes = offset;
   if (offset > DATA_SIZE) {
      ITEST_FAILF("%zu bytes of frames do not fit the staging buffer", offset);
      return false;
   }
   t->want = malloc(offset);
   t->got = malloc(offset);
   return t->want && t->got && ITEST_CU(cuMemAllocHost((void **)&t->pinned, offset)) &&
          ITEST_CU(cuStreamCreate(&t->stream, CU_STREAM_NON_BLOCKING));
}

static void
ff_teardown(struct stest *s, struct ff_test *t)
{
   if (t->stream) {
      ITEST_CU(cuStreamSynchronize(t->stream));
      ITEST_CU(cuStreamDestroy(t->stream));
   }
   vkDeviceWaitIdle(s->it.vk.device);
   for (unsigned f = 0; f < FF_FRAMES; f++) {
      struct ff_frame *frame = &t->frames[f];
      for (unsigned p = 0; p < FF_PLANES; p++) {
         struct ff_plane *plane = &frame->planes[p];
         if (plane->dev)
            ITEST_CU(cuMemFree(plane->dev));
         if (plane->cu_sem)
            ITEST_CU(cuDestroyExternalSemaphore(plane->cu_sem));
         if (plane->vk_sem)
            vkDestroySemaphore(s->it.vk.device, plane->vk_sem, NULL);
         simage_destroy(s, &plane->img);
      }
      simage_destroy(s, &frame->img);
      if (frame->fence)
         vkDestroyFence(s->it.vk.device, frame->fence, NULL);
   }
   if (t->pinned)
      ITEST_CU(cuMemFreeHost(t->pinned));
   free(t->want);
   free(t->got);
}

/* The frame's semaphores at value, for a Vulkan batch. */
static void
ff_sem_ops(const struct ff_test *t, const struct ff_frame *frame, uint64_t value, struct stest_sem_op *ops)
{
   for (unsigned p = 0; p < t->sems; p++)
      ops[p] = (struct stest_sem_op){ frame->planes[p].vk_sem, value };
}

/* Whether plane p's image is one whose ownership the batches move: each
 * plane's own image, or the multi-planar image once (through plane 0). */
static bool
ff_owner(const struct ff_test *t, unsigned p)
{
   return !t->multiplanar || p == 0;
}

/* FFmpeg's CUDA side of a transfer: wait for every image's semaphore at
 * the frame's value in one call, a 2D copy per plane, signal them all at
 * value + 1 in one call. */
static bool
ff_cuda_transfer(struct stest *s, struct ff_test *t, struct ff_frame *frame, bool to_cuda)
{
   CUexternalSemaphore sems[FF_PLANES];
   CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wait[FF_PLANES];
   CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS signal[FF_PLANES];
   memset(wait, 0, sizeof(wait));
   memset(signal, 0, sizeof(signal));
   for (unsigned p = 0; p < t->sems; p++) {
      sems[p] = frame->planes[p].cu_sem;
      wait[p].params.fence.value = frame->value;
      signal[p].params.fence.value = frame->value + 1;
   }
   /* to_cuda: CUDA consumes, so ITEST_OMIT_WAIT leaves its wait out. */
   if (!(to_cuda && s->omit_wait) &&
       !ITEST_CU(cuWaitExternalSemaphoresAsync(sems, wait, t->sems, t->stream)))
      return false;
   for (unsigned p = 0; p < FF_PLANES; p++) {
      struct ff_plane *plane = &frame->planes[p];
      CUDA_MEMCPY2D copy;
      memset(&copy, 0, sizeof(copy));
      if (to_cuda) {
         copy.srcMemoryType = CU_MEMORYTYPE_ARRAY;
         copy.srcArray = plane->array;
         copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
         copy.dstDevice = plane->dev;
         copy.dstPitch = plane->pitch;
      } else {
         copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
         copy.srcDevice = plane->dev;
         copy.srcPitch = plane->pitch;
         copy.dstMemoryType = CU_MEMORYTYPE_ARRAY;
         copy.dstArray = plane->array;
      }
      copy.WidthInBytes = plane->row_bytes;
      copy.Height = plane->height;
      if (!ITEST_CU(cuMemcpy2DAsync(&copy, t->stream)))
         return false;
   }
   if (!ITEST_CU(cuSignalExternalSemaphoresAsync(sems, signal, t->sems, t->stream)))
      return false;
   frame->value++;
   return true;
}

/* A 2D copy between a plane's pitched device memory and its packed rows
 * in the pinned buffer. */
static bool
ff_cuda_plane_host(struct ff_test *t, struct ff_plane *plane, bool to_host)
{
   CUDA_MEMCPY2D copy;
   memset(&copy, 0, sizeof(copy));
   if (to_host) {
      copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
      copy.srcDevice = plane->dev;
      copy.srcPitch = plane->pitch;
      copy.dstMemoryType = CU_MEMORYTYPE_HOST;
      copy.dstHost = t->pinned + plane->offset;
      copy.dstPitch = plane->row_bytes;
   } else {
      copy.srcMemoryType = CU_MEMORYTYPE_HOST;
      copy.srcHost = t->pinned + plane->offset;
      copy.srcPitch = plane->row_bytes;
      copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
      copy.dstDevice = plane->dev;
      copy.dstPitch = plane->pitch;
   }
   copy.WidthInBytes = plane->row_bytes;
   copy.Height = plane->height;
   return ITEST_CU(cuMemcpy2DAsync(&copy, t->stream));
}

static size_t
ff_frame_bytes(const struct ff_frame *frame)
{
   const struct ff_plane *last = &frame->planes[FF_PLANES - 1];
   return last->offset + last->row_bytes * last->height - frame->planes[0].offset;
}

static void
ff_check(struct ff_test *t, const uint8_t *got, uint32_t round, const char *who)
{
   for (unsigned f = 0; f < FF_FRAMES; f++) {
      for (unsigned p = 0; p < FF_PLANES; p++) {
         const struct ff_plane *plane = &t->frames[f].planes[p];
         char what[96];
         snprintf(what, sizeof(what), "%s round %u, frame %u, plane %u: what %s read", t->fmt->name,
                  round, f, p, who);
         itest_check_bytes(got + plane->offset, t->want + plane->offset,
                           plane->row_bytes * plane->height, what);
      }
   }
}

/*
 * Vulkan -> CUDA (vulkan_transfer_data_to_cuda).  A round: every frame's
 * Vulkan batch waits for the frame's value (CUDA done with the last
 * round), writes the planes after a long producer and signals value + 1;
 * then CUDA's transfer of every frame waits for value + 1, copies the
 * planes into its frame and signals value + 2; then CUDA copies its
 * frames to the host, and the bytes are checked.
 */
static int
ff_to_cuda(struct stest *s, const struct ff_format *fmt, bool multiplanar)
{
   struct ff_test t;
   if (multiplanar && !ff_multi_supported(s, fmt))
      return ITEST_SKIP;
   if (!ff_setup(s, &t, fmt, multiplanar))
      goto out;

   for (uint32_t round = 1; round <= FF_ROUNDS; round++) {
      ff_pattern(fmt, t.want, t.total_bytes, 0xff000000u + round * 16 + (fmt->high_10_bits ? 8 : 0));
      if (!vkh_write(&s->it.vk, s->staging_mem, 0, t.want, t.total_bytes)) {
         ITEST_FAILF("writing the staging patterns");
         break;
      }
      bool ok = true;
      for (unsigned f = 0; f < FF_FRAMES && ok; f++) {
         struct ff_frame *frame = &t.frames[f];
         VkCommandBuffer cmd = stest_cmd_start(frame->cmd[0]);
         record_fills_then_staging(s, cmd, FF_PRODUCER_FILLS, frame->planes[0].offset,
                                   ff_frame_bytes(frame));
         for (unsigned p = 0; p < FF_PLANES; p++) {
            if (frame->handed_to_cuda && ff_owner(&t, p))
               image_ownership(s, cmd, &frame->planes[p].img, false);
         }
         for (unsigned p = 0; p < FF_PLANES; p++) {
            struct ff_plane *plane = &frame->planes[p];
            record_to_image(cmd, s->mem.target, plane->offset, &plane->img, 0);
         }
         for (unsigned p = 0; p < FF_PLANES; p++) {
            if (ff_owner(&t, p))
               image_ownership(s, cmd, &frame->planes[p].img, true);
         }
         VKH_CHECK_VK(vkEndCommandBuffer(cmd));
         frame->handed_to_cuda = true;
         struct stest_sem_op waits[FF_PLANES], signals[FF_PLANES];
         ff_sem_ops(&t, frame, frame->value, waits);
         ff_sem_ops(&t, frame, frame->value + 1, signals);
         ok = stest_submit_batch(s, cmd, waits, frame->value ? t.sems : 0, signals, t.sems,
                                 frame->fence);
         frame->value++;
      }
      for (unsigned f = 0; f < FF_FRAMES && ok; f++)
         ok = ff_cuda_transfer(s, &t, &t.frames[f], true);
      for (unsigned f = 0; f < FF_FRAMES && ok; f++) {
         for (unsigned p = 0; p < FF_PLANES && ok; p++)
            ok = ff_cuda_plane_host(&t, &t.frames[f].planes[p], true);
      }
      if (!ok || !ITEST_CU(cuStreamSynchronize(t.stream)))
         break;
      ff_check(&t, t.pinned, round, "CUDA");
      for (unsigned f = 0; f < FF_FRAMES; f++) {
         VKH_CHECK_VK(vkWaitForFences(s->it.vk.device, 1, &t.frames[f].fence, VK_TRUE,
                                      60 * ONE_SECOND_NS));
         VKH_CHECK_VK(vkResetFences(s->it.vk.device, 1, &t.frames[f].fence));
      }
   }

out:
   ff_teardown(s, &t);
   return ITEST_PASS;
}

/*
 * CUDA -> Vulkan (vulkan_transfer_data_from_cuda).  A round: every
 * frame's first Vulkan batch hands the images to CUDA (FFmpeg's
 * prepare_frame for export) after the frame's value and signals value +
 * 1; CUDA's frame is written after a long producer (memsets of the 16 MiB
 * buffer, then the pattern), its transfer waits for value + 1, copies the
 * planes into the images and signals value + 2; the frame's second Vulkan
 * batch waits for that, takes the images back, copies them to the host
 * and signals value + 3.
 */
static int
ff_from_cuda(struct stest *s, const struct ff_format *fmt, bool multiplanar)
{
   struct ff_test t;
   if (multiplanar && !ff_multi_supported(s, fmt))
      return ITEST_SKIP;
   if (!ff_setup(s, &t, fmt, multiplanar))
      goto out;

   for (uint32_t round = 1; round <= FF_ROUNDS; round++) {
      ff_pattern(fmt, t.want, t.total_bytes, 0xf0000000u + round * 16 + (fmt->high_10_bits ? 8 : 0));
      memcpy(t.pinned, t.want, t.total_bytes);
      bool ok = true;
      struct stest_sem_op waits[FF_PLANES], signals[FF_PLANES];

      for (unsigned f = 0; f < FF_FRAMES && ok; f++) {
         struct ff_frame *frame = &t.frames[f];
         VkCommandBuffer cmd = stest_cmd_start(frame->cmd[0]);
         for (unsigned p = 0; p < FF_PLANES; p++) {
            if (ff_owner(&t, p))
               image_ownership(s, cmd, &frame->planes[p].img, true);
         }
         VKH_CHECK_VK(vkEndCommandBuffer(cmd));
         ff_sem_ops(&t, frame, frame->value, waits);
         ff_sem_ops(&t, frame, frame->value + 1, signals);
         ok = stest_submit_batch(s, cmd, waits, frame->value ? t.sems : 0, signals, t.sems,
                                 VK_NULL_HANDLE);
         frame->value++;
      }
      for (unsigned f = 0; f < FF_FRAMES && ok; f++) {
         struct ff_frame *frame = &t.frames[f];
         for (unsigned i = 0; i < FF_PRODUCER_FILLS && ok; i++)
            ok = ITEST_CU(cuMemsetD32Async(s->dptr, 0x0c0c0c0cu * (i + 1), DATA_SIZE / 4, t.stream));
         for (unsigned p = 0; p < FF_PLANES && ok; p++)
            ok = ff_cuda_plane_host(&t, &frame->planes[p], false);
         ok = ok && ff_cuda_transfer(s, &t, frame, false);
      }
      for (unsigned f = 0; f < FF_FRAMES && ok; f++) {
         struct ff_frame *frame = &t.frames[f];
         VkCommandBuffer cmd = stest_cmd_start(frame->cmd[1]);
         for (unsigned p = 0; p < FF_PLANES; p++) {
            if (ff_owner(&t, p))
               image_ownership(s, cmd, &frame->planes[p].img, false);
         }
         for (unsigned p = 0; p < FF_PLANES; p++) {
            struct ff_plane *plane = &frame->planes[p];
            record_from_image(cmd, &plane->img, 0, s->readback, plane->offset);
         }
         record_to_host(cmd);
         VKH_CHECK_VK(vkEndCommandBuffer(cmd));
         ff_sem_ops(&t, frame, frame->value, waits);
         ff_sem_ops(&t, frame, frame->value + 1, signals);
         ok = stest_submit_batch(s, cmd, waits, s->omit_wait ? 0 : t.sems, signals, t.sems,
                                 frame->fence);
         frame->value++;
      }
      if (!ok)
         break;
      for (unsigned f = 0; f < FF_FRAMES; f++) {
         VKH_CHECK_VK(vkWaitForFences(s->it.vk.device, 1, &t.frames[f].fence, VK_TRUE,
                                      60 * ONE_SECOND_NS));
         VKH_CHECK_VK(vkResetFences(s->it.vk.device, 1, &t.frames[f].fence));
      }
      /* The pinned source stays put until CUDA has copied it. */
      if (!ITEST_CU(cuStreamSynchronize(t.stream)) ||
          !vkh_read(&s->it.vk, s->readback_mem, 0, t.got, t.total_bytes))
         break;
      ff_check(&t, t.got, round, "Vulkan");
   }

out:
   ff_teardown(s, &t);
   return ITEST_PASS;
}

#define FF_CASE(name, fn, fmt, multi)                   \
   int                                                 \
   stest_ffmpeg_##name(struct stest *s, bool timeline) \
   {                                                   \
      (void)timeline;                                  \
      return fn(s, fmt, multi);                        \
   }

FF_CASE(nv12_to_cuda, ff_to_cuda, &ff_nv12, false)
FF_CASE(nv12_from_cuda, ff_from_cuda, &ff_nv12, false)
FF_CASE(p010_to_cuda, ff_to_cuda, &ff_p010, false)
FF_CASE(p010_from_cuda, ff_from_cuda, &ff_p010, false)
FF_CASE(nv12_multiplanar_to_cuda, ff_to_cuda, &ff_nv12, true)
FF_CASE(nv12_multiplanar_from_cuda, ff_from_cuda, &ff_nv12, true)
FF_CASE(p010_multiplanar_to_cuda, ff_to_cuda, &ff_p010, true)
FF_CASE(p010_multiplanar_from_cuda, ff_from_cuda, &ff_p010, true)

/* Mappings of a multi-planar frame that name no plane: each fails with
 * CUDA_ERROR_INVALID_VALUE (and a log line listing the planes), and the
 * good ones after them still map. */
int
stest_ffmpeg_nv12_multiplanar_bad_mappings(struct stest *s, bool timeline)
{
   (void)timeline;
   const struct ff_format *fmt = &ff_nv12;
   if (!ff_multi_supported(s, fmt))
      return ITEST_SKIP;

   struct simage img;
   uint64_t plane1 = 0;
   if (!simage_export(s, fmt->multi, FF_WIDTH, FF_HEIGHT, 1, &img))
      goto out;
   VkImageSubresource sub = { .aspectMask = VK_IMAGE_ASPECT_PLANE_1_BIT };
   VkSubresourceLayout layout;
   vkh_tolerate_message(OPTIMAL_SUBRESOURCE_LAYOUT_VUIDS);
   vkGetImageSubresourceLayout(s->it.vk.device, img.image, &sub, &layout);
   vkh_tolerate_message(NULL);
   plane1 = layout.offset;

   const struct {
      const char *what;
      uint64_t offset;
      uint32_t w, h, levels;
      unsigned channels;
   } bad[] = {
      { "luma at the chroma plane's offset", plane1, FF_WIDTH, FF_HEIGHT, 1, 1 },
      { "chroma at the image's start", 0, FF_WIDTH / 2, FF_HEIGHT / 2, 1, 2 },
      { "the whole frame as one 2-channel array", 0, FF_WIDTH, FF_HEIGHT, 1, 2 },
      { "chroma with 4-channel texels", plane1, FF_WIDTH / 2, FF_HEIGHT / 2, 1, 4 },
      { "chroma of the wrong extent", plane1, FF_WIDTH / 2, FF_HEIGHT, 1, 2 },
      { "luma with 2 levels", 0, FF_WIDTH, FF_HEIGHT, 2, 1 },
   };
   for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
      CUmipmappedArray mip = NULL;
      CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC d;
      memset(&d, 0, sizeof(d));
      d.offset = bad[i].offset;
      d.arrayDesc.Width = bad[i].w;
      d.arrayDesc.Height = bad[i].h;
      d.arrayDesc.Format = fmt->cu;
      d.arrayDesc.NumChannels = bad[i].channels;
      d.numLevels = bad[i].levels;
      fprintf(stderr, "bad mapping: %s (offset %llu)\n", bad[i].what, (unsigned long long)d.offset);
      if (!ITEST_CU_EXPECT(cuExternalMemoryGetMappedMipmappedArray(&mip, img.ext, &d),
                           CUDA_ERROR_INVALID_VALUE) && mip)
         ITEST_CU(cuMipmappedArrayDestroy(mip));
   }
   /* Both planes still map, at once, and share the frame's memory. */
   CUmipmappedArray luma = NULL, chroma = NULL;
   if (simage_map(img.ext, 0, FF_WIDTH, FF_HEIGHT, 1, fmt->cu, 1, &luma) &&
       simage_map(img.ext, plane1, FF_WIDTH / 2, FF_HEIGHT / 2, 1, fmt->cu, 2, &chroma)) {
      CUDA_ARRAY3D_DESCRIPTOR got;
      CUarray level;
      if (ITEST_CU(cuMipmappedArrayGetLevel(&level, chroma, 0)) && ITEST_CU(cuArray3DGetDescriptor(&got, level)))
         S_CHECK(got.Width == FF_WIDTH / 2 && got.Height == FF_HEIGHT / 2 && got.NumChannels == 2);
   }
   if (chroma)
      ITEST_CU(cuMipmappedArrayDestroy(chroma));
   if (luma)
      ITEST_CU(cuMipmappedArrayDestroy(luma));

out:
   simage_destroy(s, &img);
   return ITEST_PASS;
}
