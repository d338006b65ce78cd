/*
 * The compute pipelines of a context: copy and fill, each with a pipeline
 * layout of push constants only (addresses come as device addresses).
 */
#ifndef CUVK_API_PIPELINE_H
#define CUVK_API_PIPELINE_H

#include <cuda.h>

struct cuvk_context;

CUresult cuvk_pipelines_init(struct cuvk_context *ctx);
void cuvk_pipelines_finish(struct cuvk_context *ctx);

#endif
