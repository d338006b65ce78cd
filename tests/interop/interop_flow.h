/*
 * The common frame of the buffer cases: an exported allocation whose bytes
 * start as a pattern Vulkan wrote, a model of them, and its import.
 */
#ifndef CUVK_TESTS_INTEROP_FLOW_H
#define CUVK_TESTS_INTEROP_FLOW_H

#include "interop_cases.h"

/* The size of the target buffer: not a power of two, a multiple of 4
 * (vkCmdFillBuffer), more than one 64 KiB block. */
#define FLOW_SIZE (3 * 65536 + 4096 + 52)

struct flow {
   struct itest t;
   struct itest_export e;
   /* e.model_size bytes: what the memory must hold. */
   uint8_t *model;
   /* The target buffer's bytes in model. */
   uint8_t *tm;
   /* The exported fd while the case still owns it (-1 once imported). */
   int fd;
   CUexternalMemory ext;
   /* The mapping of the target buffer's range. */
   CUdeviceptr map;
};

enum flow_steps {
   /* Export, fill with the starting pattern, and keep the fd. */
   FLOW_EXPORT = 0,
   /* And import it (with CUDA_EXTERNAL_MEMORY_DEDICATED when the
    * allocation is dedicated) and map the target's range. */
   FLOW_IMPORT_AND_MAP = 1,
};

/* Sets up as far as steps says; returns ITEST_PASS to go on, else the
 * status to end with (after flow_end). */
int flow_begin(struct flow *f, const struct itest_case *c, VkDeviceSize size, enum flow_steps steps);

/* Frees whatever flow_begin and the case left in f and finishes the
 * harness; returns the case's exit status. */
int flow_end(struct flow *f, int status);

/* Applies a write of size bytes at offset (relative to the target
 * buffer) to the model. */
void flow_model_write(struct flow *f, size_t offset, const void *data, size_t size);

#endif
