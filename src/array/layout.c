/*
 * Image layouts and queue family ownership of array images.
 *
 * GENERAL is where every array image rests: cuvk's own images move there
 * once, at creation, and the images shared with an exporter are handed
 * over in it.  A copy moves just the subresources it touches to the
 * transfer layout it needs and back, inside the one command; the
 * lane's barrier before every command (submit.c) orders it after
 * everything before on its lane, and a wait for the last array command
 * of any other lane (submit.h, array_point) after the rest: two lanes
 * moving one image's layout at once would race.
 *
 * Images in imported memory are shared with the exporting device.  The
 * Vulkan specification makes the external queue family the way to hand
 * such a resource back and forth with its contents intact: the consumer
 * acquires it (srcQueueFamilyIndex = VK_QUEUE_FAMILY_EXTERNAL) before use
 * and releases it (dstQueueFamilyIndex = VK_QUEUE_FAMILY_EXTERNAL) after.
 * The old layout is GENERAL in both directions, never UNDEFINED, which
 * would allow the driver to drop the contents; the exporting application
 * is expected to leave the image in GENERAL when it hands it to CUDA and
 * to acquire it back from the external family (docs/arrays.md).
 */
#include "array/array.h"

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "util/error.h"
#include "util/macros.h"

static const VkPipelineStageFlags array_stages =
   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;

static VkImageMemoryBarrier
whole_image_barrier(const struct cuvk_array_image *img)
{
   return (VkImageMemoryBarrier){
      .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
      .oldLayout = VK_IMAGE_LAYOUT_GENERAL,
      .newLayout = VK_IMAGE_LAYOUT_GENERAL,
      .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .image = img->image,
      .subresourceRange = {
         .aspectMask = cuvk_array_image_barrier_aspect(img),
         .baseMipLevel = 0,
         .levelCount = VK_REMAINING_MIP_LEVELS,
         .baseArrayLayer = 0,
         .layerCount = VK_REMAINING_ARRAY_LAYERS,
      },
   };
}

CUresult
cuvk_array_image_init_layout(struct cuvk_context *ctx, struct cuvk_array_image *img)
{
   VkCommandBuffer cmd;
   uint64_t value;
   CUresult res;

   VkImageMemoryBarrier barrier = whole_image_barrier(img);
   barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED; /* a new image: nothing to keep */
   barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                           VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;

   pthread_mutex_lock(&ctx->lock);
   /* On the legacy stream, after the last array command of any lane
    * (submit.h, array_point). */
   res = cuvk_submit_stream_wait(ctx, &ctx->null_stream, ctx->submit.array_point);
   if (res == CUDA_SUCCESS)
      res = cuvk_submit_record(ctx, &ctx->null_stream, &cmd, &value);
   if (res == CUDA_SUCCESS)
      ctx->submit.array_point = value;
   if (res == CUDA_SUCCESS) {
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, array_stages, 0, 0, NULL, 0, NULL,
                           1, &barrier);
      res = cuvk_submit_commit(ctx);
   }
   pthread_mutex_unlock(&ctx->lock);
   return res;
}

static bool
seen_before(const struct cuvk_array_use *uses, unsigned i)
{
   for (unsigned j = 0; j < i; j++)
      if (uses[j].img->image == uses[i].img->image)
         return true;
   return false;
}

/* Acquire (to_us) or release every distinct shared image of uses, whole,
 * in GENERAL: the layouts match what the other side releases and
 * acquires with. */
static void
ownership(struct cuvk_context *ctx, VkCommandBuffer cmd, const struct cuvk_array_use *uses,
          unsigned count, bool to_us)
{
   VkImageMemoryBarrier barriers[4];
   uint32_t n = 0;

   for (unsigned i = 0; i < count && n < CUVK_ARRAY_SIZE(barriers); i++) {
      if (!uses[i].img->external || seen_before(uses, i))
         continue;
      VkImageMemoryBarrier b = whole_image_barrier(uses[i].img);
      if (to_us) {
         b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_EXTERNAL;
         b.dstQueueFamilyIndex = ctx->dev->queue_family;
         b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                           VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
      } else {
         b.srcQueueFamilyIndex = ctx->dev->queue_family;
         b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_EXTERNAL;
         b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
      }
      barriers[n++] = b;
   }
   if (n)
      vkCmdPipelineBarrier(cmd, array_stages, array_stages, 0, 0, NULL, 0, NULL, n, barriers);
}

void
cuvk_array_images_ownership(struct cuvk_context *ctx, VkCommandBuffer cmd, struct cuvk_array_image *const *imgs,
                            unsigned count, bool to_us)
{
   VkImageMemoryBarrier barriers[16];
   uint32_t n = 0;

   for (unsigned i = 0; i < count; i++) {
      VkImageMemoryBarrier b = whole_image_barrier(imgs[i]);
      if (to_us) {
         b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_EXTERNAL;
         b.dstQueueFamilyIndex = ctx->dev->queue_family;
         b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
      } else {
         b.srcQueueFamilyIndex = ctx->dev->queue_family;
         b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_EXTERNAL;
         b.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
      }
      barriers[n++] = b;
      /* Batches of what fits on the stack: a launch may name hundreds. */
      if (n == CUVK_ARRAY_SIZE(barriers) || i + 1 == count) {
         vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0,
                              NULL, 0, NULL, n, barriers);
         n = 0;
      }
   }
}

/* GENERAL <-> each use's transfer layout, for the subresources it
 * touches.  Transfer layouts let the driver pick its fastest copy path
 * (and keep validation's performance checks quiet). */
static void
transitions(VkCommandBuffer cmd, const struct cuvk_array_use *uses, unsigned count, bool to_transfer)
{
   VkImageMemoryBarrier barriers[4];
   uint32_t n = 0;

   for (unsigned i = 0; i < count && n < CUVK_ARRAY_SIZE(barriers); i++) {
      if (uses[i].layout == VK_IMAGE_LAYOUT_GENERAL)
         continue; /* storage access stays where images rest */
      VkAccessFlags access = uses[i].layout == VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL ?
         VK_ACCESS_TRANSFER_WRITE_BIT : VK_ACCESS_TRANSFER_READ_BIT;
      VkImageMemoryBarrier b = whole_image_barrier(uses[i].img);
      b.subresourceRange.baseMipLevel = uses[i].level;
      b.subresourceRange.levelCount = 1;
      b.subresourceRange.baseArrayLayer = uses[i].base_layer;
      b.subresourceRange.layerCount = uses[i].layer_count;
      if (to_transfer) {
         b.newLayout = uses[i].layout;
         b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
         b.dstAccessMask = access;
      } else {
         b.oldLayout = uses[i].layout;
         b.srcAccessMask = access & VK_ACCESS_TRANSFER_WRITE_BIT;
         b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                           VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
      }
      barriers[n++] = b;
   }
   if (n)
      vkCmdPipelineBarrier(cmd, array_stages, array_stages, 0, 0, NULL, 0, NULL, n, barriers);
}

void
cuvk_array_use_begin(struct cuvk_context *ctx, VkCommandBuffer cmd, const struct cuvk_array_use *uses,
                     unsigned count)
{
   ownership(ctx, cmd, uses, count, true);
   transitions(cmd, uses, count, true);
}

void
cuvk_array_use_end(struct cuvk_context *ctx, VkCommandBuffer cmd, const struct cuvk_array_use *uses,
                   unsigned count)
{
   transitions(cmd, uses, count, false);
   ownership(ctx, cmd, uses, count, false);
}
