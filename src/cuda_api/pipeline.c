#include "cuda_api/pipeline.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "copy_spv.h"
#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuvk_shader_params.h"
#include "fill_spv.h"
#include "util/device_policy.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

CUresult
cuvk_pipeline_create(struct cuvk_context *ctx, const uint32_t *code, size_t code_size,
                uint32_t push_size, VkPipelineLayout *layout, VkPipeline *pipeline)
{
   VkShaderModule module;
   VkResult vr;
   CUresult res = CUDA_SUCCESS;

   VkShaderModuleCreateInfo module_info = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
      .codeSize = code_size,
      .pCode = code,
   };
   vr = vkCreateShaderModule(ctx->vk, &module_info, NULL, &module);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkCreateShaderModule");

   VkPushConstantRange range = {
      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
      .size = push_size,
   };
   VkPipelineLayoutCreateInfo layout_info = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .pushConstantRangeCount = 1,
      .pPushConstantRanges = &range,
   };
   vr = vkCreatePipelineLayout(ctx->vk, &layout_info, NULL, layout);
   if (vr != VK_SUCCESS) {
      res = cuvk_vk_error(vr, "vkCreatePipelineLayout");
      goto out_module;
   }

   VkComputePipelineCreateInfo pipeline_info = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {
         .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_COMPUTE_BIT,
         .module = module,
         .pName = "main",
      },
      .layout = *layout,
   };
   vr = vkCreateComputePipelines(ctx->vk, VK_NULL_HANDLE, 1, &pipeline_info, NULL, pipeline);
   if (vr != VK_SUCCESS) {
      res = cuvk_vk_error(vr, "vkCreateComputePipelines");
      vkDestroyPipelineLayout(ctx->vk, *layout, NULL);
      *layout = VK_NULL_HANDLE;
   }

out_module:
   vkDestroyShaderModule(ctx->vk, module, NULL);
   return res;
}

/* Workgroups per copy or fill dispatch on a GPU, invocations looping over
 * 16-byte units with a grid stride.  On an H200 this measured as well as
 * 4096, 16384 or no cap at all, within run-to-run noise (cuvk-bench,
 * docs/design.md). */
#define GPU_DISPATCH_GROUPS 65535u

CUresult
cuvk_pipelines_init(struct cuvk_context *ctx)
{
   CUresult res;

   res = cuvk_pipeline_create(ctx, cuvk_copy_spv, sizeof(cuvk_copy_spv), sizeof(struct cuvk_copy_params),
                         &ctx->copy_layout, &ctx->copy_pipeline);
   if (res != CUDA_SUCCESS)
      return res;

   res = cuvk_pipeline_create(ctx, cuvk_fill_spv, sizeof(cuvk_fill_spv), sizeof(struct cuvk_fill_params),
                         &ctx->fill_layout, &ctx->fill_pipeline);
   if (res != CUDA_SUCCESS) {
      vkDestroyPipeline(ctx->vk, ctx->copy_pipeline, NULL);
      vkDestroyPipelineLayout(ctx->vk, ctx->copy_layout, NULL);
      return res;
   }

   /* Grid-stride loops let a bounded grid cover any size.  A GPU wants
    * enough workgroups to fill every core; lavapipe runs one workgroup per
    * task on a small thread pool, where a few large tasks beat many small
    * ones. */
   uint32_t limit = ctx->dev->props.limits.maxComputeWorkGroupCount[0];
   if (ctx->dev->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) {
      long cpus = sysconf(_SC_NPROCESSORS_ONLN);
      ctx->max_groups_x = (uint32_t)CUVK_MAX(cpus, 1) * 4;
   } else {
      ctx->max_groups_x = GPU_DISPATCH_GROUPS;
   }
   /* CUVK_DISPATCH_GROUPS overrides, for tuning on a new device. */
   const char *groups = getenv("CUVK_DISPATCH_GROUPS");
   if (groups && atol(groups) > 0)
      ctx->max_groups_x = (uint32_t)CUVK_MIN(atol(groups), (long)UINT32_MAX);
   ctx->max_groups_x = CUVK_MIN(ctx->max_groups_x, limit);

   const char *why;
   ctx->transfer_engine = cuvk_policy_transfer_engine(ctx->dev->props.deviceType, &why);
   cuvk_logd("copies: %s (%s)", ctx->transfer_engine ? "vkCmdCopyBuffer" : "the copy shader", why);
   ctx->fill_transfer = cuvk_policy_fill_transfer(ctx->dev->props.deviceType, &why);
   cuvk_logd("fills: %s (%s)", ctx->fill_transfer ? "vkCmdFillBuffer" : "the fill shader", why);
   return CUDA_SUCCESS;
}

void
cuvk_pipelines_finish(struct cuvk_context *ctx)
{
   vkDestroyPipeline(ctx->vk, ctx->fill_pipeline, NULL);
   vkDestroyPipelineLayout(ctx->vk, ctx->fill_layout, NULL);
   vkDestroyPipeline(ctx->vk, ctx->copy_pipeline, NULL);
   vkDestroyPipelineLayout(ctx->vk, ctx->copy_layout, NULL);
}
