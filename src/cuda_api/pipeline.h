/*
 * The compute pipelines of a context: copy and fill, each with a pipeline
 * layout of push constants only (addresses come as device addresses).
 */
#ifndef CUVK_API_PIPELINE_H
#define CUVK_API_PIPELINE_H

#include <stddef.h>
#include <stdint.h>
#include <cuda.h>
#include <vulkan/vulkan.h>

struct cuvk_context;

CUresult cuvk_pipelines_init(struct cuvk_context *ctx);

/* A compute pipeline of code whose layout has push_size bytes of push
 * constants and nothing else. */
CUresult cuvk_pipeline_create(struct cuvk_context *ctx, const uint32_t *code, size_t code_size,
                              uint32_t push_size, VkPipelineLayout *layout, VkPipeline *pipeline);
void cuvk_pipelines_finish(struct cuvk_context *ctx);

#endif
