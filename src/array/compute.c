/*
 * The compute engine of array copies.
 *
 * Measured with tests/array/bench_array_copy (docs/arrays.md): on an
 * NVIDIA H200, vkCmdCopyBufferToImage moves 93 GB/s while a shader storing
 * raw texels moves 1.3 to 1.9 TB/s; on lavapipe the shader is 30 to 45
 * times slower than the transfer command.  So array copies follow the
 * context's copy engine, like buffer copies (pipeline.c): shaders on GPUs,
 * transfer commands on CPU devices and wherever a shader cannot reach the
 * image.
 *
 * A shader reaches an image through a storage view of an unsigned format
 * as wide as its texels (r32ui, rg32ui, rgba32ui), so the bits go through
 * whatever the image's format is; that needs the image to have STORAGE
 * usage and, unless its format is that unsigned one, MUTABLE_FORMAT.
 * cuvk creates its own arrays so (when the device allows); imported images
 * have what the exporter gave them.  1- and 2-byte texels and
 * block-compressed formats take transfer commands.
 */
#include <stdlib.h>

#include "array/array.h"
#include "array_copy_params.h"
#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "util/error.h"
#include "util/macros.h"

#include "array_copy_down_1d_1w_spv.h"
#include "array_copy_down_1d_2w_spv.h"
#include "array_copy_down_1d_4w_spv.h"
#include "array_copy_down_2d_1w_spv.h"
#include "array_copy_down_2d_2w_spv.h"
#include "array_copy_down_2d_4w_spv.h"
#include "array_copy_down_3d_1w_spv.h"
#include "array_copy_down_3d_2w_spv.h"
#include "array_copy_down_3d_4w_spv.h"
#include "array_copy_up_1d_1w_spv.h"
#include "array_copy_up_1d_2w_spv.h"
#include "array_copy_up_1d_4w_spv.h"
#include "array_copy_up_2d_1w_spv.h"
#include "array_copy_up_2d_2w_spv.h"
#include "array_copy_up_2d_4w_spv.h"
#include "array_copy_up_3d_1w_spv.h"
#include "array_copy_up_3d_2w_spv.h"
#include "array_copy_up_3d_4w_spv.h"

#define SPV(a) { a, sizeof(a) }

/* [upload][dimensionality - 1][words: 1, 2, 4] */
static const struct {
   const uint32_t *code;
   size_t size;
} shader_code[2][3][3] = {
   {
      { SPV(cuvk_array_copy_down_1d_1w), SPV(cuvk_array_copy_down_1d_2w), SPV(cuvk_array_copy_down_1d_4w) },
      { SPV(cuvk_array_copy_down_2d_1w), SPV(cuvk_array_copy_down_2d_2w), SPV(cuvk_array_copy_down_2d_4w) },
      { SPV(cuvk_array_copy_down_3d_1w), SPV(cuvk_array_copy_down_3d_2w), SPV(cuvk_array_copy_down_3d_4w) },
   },
   {
      { SPV(cuvk_array_copy_up_1d_1w), SPV(cuvk_array_copy_up_1d_2w), SPV(cuvk_array_copy_up_1d_4w) },
      { SPV(cuvk_array_copy_up_2d_1w), SPV(cuvk_array_copy_up_2d_2w), SPV(cuvk_array_copy_up_2d_4w) },
      { SPV(cuvk_array_copy_up_3d_1w), SPV(cuvk_array_copy_up_3d_2w), SPV(cuvk_array_copy_up_3d_4w) },
   },
};

struct cuvk_array_pipelines {
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkPipeline pipelines[2][3][3];   /* as shader_code, made at first use */
};

static VkFormat
uint_format(unsigned elem_size)
{
   switch (elem_size) {
   case 4: return VK_FORMAT_R32_UINT;
   case 8: return VK_FORMAT_R32G32_UINT;
   case 16: return VK_FORMAT_R32G32B32A32_UINT;
   default: return VK_FORMAT_UNDEFINED;
   }
}

static unsigned
words_index(VkFormat storage_format)
{
   return storage_format == VK_FORMAT_R32_UINT ? 0 : storage_format == VK_FORMAT_R32G32_UINT ? 1 : 2;
}

VkFormat
cuvk_array_storage_format(const struct cuvk_device *dev, VkFormat format, VkImageCreateFlags flags,
                          VkImageUsageFlags usage)
{
   unsigned elem, block;
   cuvk_vk_format_size(format, &elem, &block);
   VkFormat view = block == 1 ? uint_format(elem) : VK_FORMAT_UNDEFINED;
   if (view == VK_FORMAT_UNDEFINED || !(usage & VK_IMAGE_USAGE_STORAGE_BIT))
      return VK_FORMAT_UNDEFINED;
   if (view != format && !(flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT))
      return VK_FORMAT_UNDEFINED;
   VkFormatProperties props;
   vkGetPhysicalDeviceFormatProperties(dev->pdev, view, &props);
   if (!(props.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT))
      return VK_FORMAT_UNDEFINED;
   return view;
}

void
cuvk_array_storage_extras(const struct cuvk_device *dev, VkFormat format, VkImageType type,
                          VkImageCreateFlags *flags, VkImageUsageFlags *usage)
{
   /* EXTENDED_USAGE: the image's own format (sRGB, say) need not allow
    * storage, only the unsigned view does. */
   VkImageCreateFlags f = *flags | VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
   VkImageUsageFlags u = *usage | VK_IMAGE_USAGE_STORAGE_BIT;
   VkImageFormatProperties props;

   if (cuvk_array_storage_format(dev, format, f, u) == VK_FORMAT_UNDEFINED)
      return;
   if (vkGetPhysicalDeviceImageFormatProperties(dev->pdev, format, type, VK_IMAGE_TILING_OPTIMAL, u, f,
                                                &props) != VK_SUCCESS)
      return;
   *flags = f;
   *usage = u;
}

bool
cuvk_array_compute_usable(const struct cuvk_context *ctx, const struct cuvk_array_image *img,
                          uint64_t address, uint64_t pitch, uint64_t slice)
{
   return !ctx->transfer_engine && img->storage_format != VK_FORMAT_UNDEFINED &&
          (address % 4) == 0 && (pitch % 4) == 0 && (slice % 4) == 0;
}

static CUresult
pipelines_get(struct cuvk_context *ctx, struct cuvk_array_pipelines **out)
{
   struct cuvk_array_pipelines *p = ctx->array_pipelines;
   VkResult vr;

   if (p) {
      *out = p;
      return CUDA_SUCCESS;
   }
   p = calloc(1, sizeof(*p));
   if (!p)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for the array copy pipelines");

   VkDescriptorSetLayoutBinding binding = {
      .binding = 0,
      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
      .descriptorCount = 1,
      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
   };
   VkDescriptorSetLayoutCreateInfo set_info = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .bindingCount = 1,
      .pBindings = &binding,
   };
   vr = vkCreateDescriptorSetLayout(ctx->vk, &set_info, NULL, &p->set_layout);
   if (vr != VK_SUCCESS)
      goto fail;
   VkPushConstantRange range = {
      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
      .size = sizeof(struct cuvk_array_copy_params),
   };
   VkPipelineLayoutCreateInfo layout_info = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .setLayoutCount = 1,
      .pSetLayouts = &p->set_layout,
      .pushConstantRangeCount = 1,
      .pPushConstantRanges = &range,
   };
   vr = vkCreatePipelineLayout(ctx->vk, &layout_info, NULL, &p->layout);
   if (vr != VK_SUCCESS) {
      vkDestroyDescriptorSetLayout(ctx->vk, p->set_layout, NULL);
      goto fail;
   }
   ctx->array_pipelines = p;
   *out = p;
   return CUDA_SUCCESS;

fail:
   free(p);
   return cuvk_vk_error(vr, "creating the array copy pipeline layout");
}

static CUresult
pipeline_get(struct cuvk_context *ctx, struct cuvk_array_pipelines *p, bool upload, unsigned dim,
             unsigned words, VkPipeline *out)
{
   VkPipeline *slot = &p->pipelines[upload][dim][words];
   VkShaderModule module;
   VkResult vr;

   if (*slot) {
      *out = *slot;
      return CUDA_SUCCESS;
   }
   VkShaderModuleCreateInfo module_info = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
      .codeSize = shader_code[upload][dim][words].size,
      .pCode = shader_code[upload][dim][words].code,
   };
   vr = vkCreateShaderModule(ctx->vk, &module_info, NULL, &module);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkCreateShaderModule for an array copy");
   VkComputePipelineCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {
         .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_COMPUTE_BIT,
         .module = module,
         .pName = "main",
      },
      .layout = p->layout,
   };
   vr = vkCreateComputePipelines(ctx->vk, VK_NULL_HANDLE, 1, &info, NULL, slot);
   vkDestroyShaderModule(ctx->vk, module, NULL);
   if (vr != VK_SUCCESS) {
      *slot = VK_NULL_HANDLE;
      return cuvk_vk_error(vr, "vkCreateComputePipelines for an array copy");
   }
   *out = *slot;
   return CUDA_SUCCESS;
}

static unsigned
image_dim(const struct cuvk_array_image *img)
{
   return img->type == VK_IMAGE_TYPE_1D ? 0 : img->type == VK_IMAGE_TYPE_2D ? 1 : 2;
}

/* The level's storage view and its descriptor set, made at first use. */
static CUresult
level_set(struct cuvk_context *ctx, struct cuvk_array_pipelines *p, struct cuvk_array_image *img,
          uint32_t level, VkDescriptorSet *out)
{
   VkResult vr;

   if (!img->pool) {
      VkDescriptorPoolSize size = { VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, img->levels };
      VkDescriptorPoolCreateInfo pool_info = {
         .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
         .maxSets = img->levels,
         .poolSizeCount = 1,
         .pPoolSizes = &size,
      };
      img->views = calloc(img->levels, sizeof(*img->views));
      img->sets = calloc(img->levels, sizeof(*img->sets));
      if (!img->views || !img->sets) {
         free(img->views);
         free(img->sets);
         img->views = NULL;
         img->sets = NULL;
         return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for array views");
      }
      vr = vkCreateDescriptorPool(ctx->vk, &pool_info, NULL, &img->pool);
      if (vr != VK_SUCCESS)
         return cuvk_vk_error(vr, "vkCreateDescriptorPool for an array");
   }
   if (img->sets[level]) {
      *out = img->sets[level];
      return CUDA_SUCCESS;
   }

   static const VkImageViewType view_types[] = {
      VK_IMAGE_VIEW_TYPE_1D_ARRAY, VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_IMAGE_VIEW_TYPE_3D,
   };
   VkImageViewUsageCreateInfo usage = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO,
      .usage = VK_IMAGE_USAGE_STORAGE_BIT,
   };
   VkImageViewCreateInfo view_info = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
      .pNext = &usage,
      .image = img->image,
      .viewType = view_types[image_dim(img)],
      .format = img->storage_format,
      .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, level, 1, 0, VK_REMAINING_ARRAY_LAYERS },
   };
   vr = vkCreateImageView(ctx->vk, &view_info, NULL, &img->views[level]);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkCreateImageView for an array level");

   VkDescriptorSetAllocateInfo alloc_info = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
      .descriptorPool = img->pool,
      .descriptorSetCount = 1,
      .pSetLayouts = &p->set_layout,
   };
   vr = vkAllocateDescriptorSets(ctx->vk, &alloc_info, &img->sets[level]);
   if (vr != VK_SUCCESS) {
      vkDestroyImageView(ctx->vk, img->views[level], NULL);
      img->views[level] = VK_NULL_HANDLE;
      return cuvk_vk_error(vr, "vkAllocateDescriptorSets for an array level");
   }
   VkDescriptorImageInfo image_info = {
      .imageView = img->views[level],
      .imageLayout = VK_IMAGE_LAYOUT_GENERAL,
   };
   VkWriteDescriptorSet write = {
      .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
      .dstSet = img->sets[level],
      .descriptorCount = 1,
      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
      .pImageInfo = &image_info,
   };
   vkUpdateDescriptorSets(ctx->vk, 1, &write, 0, NULL);
   *out = img->sets[level];
   return CUDA_SUCCESS;
}

CUresult
cuvk_array_record_compute(struct cuvk_context *ctx, VkCommandBuffer cmd, const struct cuvk_array *a,
                          const VkOffset3D *offset, const VkExtent3D *extent, uint64_t address,
                          uint64_t pitch, uint64_t slice, bool upload)
{
   struct cuvk_array_image *img = a->img;
   struct cuvk_array_pipelines *p = NULL;
   VkPipeline pipeline = VK_NULL_HANDLE;
   VkDescriptorSet set = VK_NULL_HANDLE;
   CUresult res;

   res = pipelines_get(ctx, &p);
   if (res == CUDA_SUCCESS)
      res = pipeline_get(ctx, p, upload, image_dim(img), words_index(img->storage_format), &pipeline);
   if (res == CUDA_SUCCESS)
      res = level_set(ctx, p, img, a->level, &set);
   if (res != CUDA_SUCCESS)
      return res;

   struct cuvk_array_copy_params params = {
      .address = address,
      .pitch = pitch,
      .slice = slice,
      .x = offset->x,
      .y = offset->y,
      .z = offset->z,
      .width = extent->width,
      .height = extent->height,
      .depth = extent->depth,
   };
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 1, &set, 0, NULL);
   vkCmdPushConstants(cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(params), &params);
   vkCmdDispatch(cmd, (extent->width + CUVK_ARRAY_COPY_LOCAL_X - 1) / CUVK_ARRAY_COPY_LOCAL_X,
                 (extent->height + CUVK_ARRAY_COPY_LOCAL_Y - 1) / CUVK_ARRAY_COPY_LOCAL_Y, extent->depth);
   return CUDA_SUCCESS;
}

void
cuvk_array_image_finish_compute(struct cuvk_context *ctx, struct cuvk_array_image *img)
{
   if (img->views) {
      for (uint32_t i = 0; i < img->levels; i++)
         if (img->views[i])
            vkDestroyImageView(ctx->vk, img->views[i], NULL);
   }
   if (img->pool)
      vkDestroyDescriptorPool(ctx->vk, img->pool, NULL);
   free(img->views);
   free(img->sets);
   img->views = NULL;
   img->sets = NULL;
   img->pool = VK_NULL_HANDLE;
}

void
cuvk_array_pipelines_finish(struct cuvk_context *ctx)
{
   struct cuvk_array_pipelines *p = ctx->array_pipelines;
   if (!p)
      return;
   for (unsigned u = 0; u < 2; u++)
      for (unsigned d = 0; d < 3; d++)
         for (unsigned w = 0; w < 3; w++)
            if (p->pipelines[u][d][w])
               vkDestroyPipeline(ctx->vk, p->pipelines[u][d][w], NULL);
   vkDestroyPipelineLayout(ctx->vk, p->layout, NULL);
   vkDestroyDescriptorSetLayout(ctx->vk, p->set_layout, NULL);
   free(p);
   ctx->array_pipelines = NULL;
}
