/*
 * Translated kernels on disk (util/disk_cache.h holds the files).
 *
 * A kernel's entry is keyed by the SHA-256 of: the PTX text of its
 * module, the kernel's name, the build of cuvk (its ELF build ID: a
 * different compiler translates differently), and the device (Vulkan
 * vendor and device IDs, driver version and pipelineCacheUUID, and every
 * field of the context's cuvk_cc_target).  It holds the SPIR-V and what
 * launches need to know (cuvk_cc_kernel's fields, the parameters).
 *
 * Each context's VkPipelineCache is kept on disk as well, keyed by the
 * device and cuvk's build, read when the context's first module loads and
 * written back when the context goes.
 */
#ifndef CUVK_API_MODULE_CACHE_H
#define CUVK_API_MODULE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "compiler/compiler.h"

struct cuvk_context;

/* The PTX's hash, when the cache is on; false when it is off. */
bool cuvk_module_cache_hash_ptx(const char *ptx, size_t len, uint8_t out[32]);

/* The cache key of one kernel of a module whose PTX hashed to ptx_hash. */
void cuvk_module_cache_key(const struct cuvk_context *ctx, const uint8_t ptx_hash[32], const char *name,
                           uint8_t key[32]);

/* The kernel stored under key: k's fields with k->words and *params
 * malloc'ed (k->params points at *params; k->name is left alone).  False
 * on a miss. */
bool cuvk_module_cache_get(const uint8_t key[32], struct cuvk_cc_kernel *k, struct cuvk_cc_param **params);

/* Stores k under key. */
void cuvk_module_cache_put(const uint8_t key[32], const struct cuvk_cc_kernel *k);

/* A pipeline cache for ctx, filled from disk where the cache has data
 * for the device. */
VkResult cuvk_module_cache_pipeline_create(const struct cuvk_context *ctx, VkPipelineCache *out);

/* Writes cache's data to disk unless its size is still *saved_size (the
 * size when it was read or last written), and then sets *saved_size.
 * True when it wrote.  vkGetPipelineCacheData is internally synchronised,
 * so pipelines may be made meanwhile. */
bool cuvk_module_cache_pipeline_save(const struct cuvk_context *ctx, VkPipelineCache cache,
                                     size_t *saved_size);

#endif
