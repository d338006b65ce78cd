/*
 * Context settings that only kernels would read: limits (stack size,
 * printf FIFO, malloc heap, ...), the L1/shared memory preference and the
 * shared memory bank size, and the context's id and API version.  cuvk
 * runs no kernels, so these are validated, kept per context and reported
 * back as NVIDIA's driver does, and change nothing else.  Programs set and
 * read them at start-up (FFmpeg sets CU_LIMIT_... on its contexts), which
 * is why they answer rather than fail.
 *
 * Defaults and error codes are those of NVIDIA's driver 580.159.04 on an
 * H100 (CUDA 13.0), measured with a probe program; docs/api-coverage.md
 * lists them.
 */
#include <cuda.h>

#include "cuda_api/context.h"
#include "cuda_api/module.h"
#include "cuda_api/driver.h"
#include "util/error.h"
#include "util/macros.h"

/* What NVIDIA's cuCtxGetApiVersion reports for every context a CUDA 13
 * driver creates, cuCtxCreate_v4 and primary ones alike. */
#define CTX_API_VERSION 3020

static unsigned long long next_context_id = 1;

void
cuvk_context_settings_init(struct cuvk_context *ctx)
{
   ctx->id = __atomic_fetch_add(&next_context_id, 1, __ATOMIC_RELAXED);
   ctx->limits[CU_LIMIT_STACK_SIZE] = 1024;
   ctx->limits[CU_LIMIT_PRINTF_FIFO_SIZE] = 8650752;
   ctx->limits[CU_LIMIT_MALLOC_HEAP_SIZE] = 8 << 20;
   ctx->limits[CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT] = 2048;
   ctx->limits[CU_LIMIT_MAX_L2_FETCH_GRANULARITY] = 64;
   /* No L2 is set aside for persisting accesses (NVIDIA's default is a
    * share of the GPU's L2, 9830400 bytes on an H100). */
   ctx->limits[CU_LIMIT_PERSISTING_L2_CACHE_SIZE] = 0;
   /* Read-only: the shared memory a kernel may opt into. */
   ctx->limits[CU_LIMIT_SHMEM_SIZE] = ctx->dev->props.limits.maxComputeSharedMemorySize;
   ctx->limits[CU_LIMIT_CIG_ENABLED] = 0;
   ctx->cache_config = CU_FUNC_CACHE_PREFER_NONE;
   ctx->null_stream.id = cuvk_stream_next_id();
}

CUresult
cuvk_context_resolve(CUcontext hctx, const char *entry, struct cuvk_context **out)
{
   if (!hctx)
      return cuvk_context_current(entry, out);
   CUresult res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;
   if (!cuvk_object_get(hctx, CUVK_OBJECT_CONTEXT))
      return cuvk_error(CUDA_ERROR_INVALID_CONTEXT, "%s: %p is not a live context", entry, (void *)hctx);
   *out = (struct cuvk_context *)hctx;
   return CUDA_SUCCESS;
}

/* Limits NVIDIA's driver does not have on current GPUs: the device
 * runtime's sync depth (gone since CUDA 12) and CIG's fallback switch
 * outside a CIG context. */
static bool
limit_unsupported(CUlimit limit)
{
   return limit == CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH || limit == CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED;
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxSetLimit(CUlimit limit, size_t value)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_current("cuCtxSetLimit", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if ((unsigned)limit >= CU_LIMIT_MAX)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuCtxSetLimit: %d is not a limit", (int)limit);
   if (limit_unsupported(limit))
      return cuvk_error(CUDA_ERROR_UNSUPPORTED_LIMIT, "cuCtxSetLimit: limit %d is not supported",
                        (int)limit);
   if (limit == CU_LIMIT_SHMEM_SIZE || limit == CU_LIMIT_CIG_ENABLED)
      return cuvk_error(CUDA_ERROR_NOT_PERMITTED, "cuCtxSetLimit: limit %d can only be read",
                        (int)limit);
   if (limit == CU_LIMIT_MAX_L2_FETCH_GRANULARITY && value > 128)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "cuCtxSetLimit: L2 fetch granularity %zu is above 128 bytes", value);
   /* The stack size is kept in 16-byte steps, as NVIDIA's driver reports
    * it (1000 reads back as 1008).  NVIDIA also raises small printf FIFO
    * and heap sizes to a minimum of its own; cuvk keeps what was set. */
   if (limit == CU_LIMIT_STACK_SIZE)
      value = CUVK_ALIGN_UP(value, 16);
   /* CUDA's rule: the FIFO's size is fixed by the first launch of a
    * kernel that prints; setting it again then fails even with the same
    * value (measured on an H100). */
   if (limit == CU_LIMIT_PRINTF_FIFO_SIZE && cuvk_printf_started(ctx))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuCtxSetLimit: the printf FIFO's size cannot change "
                        "after a kernel that prints was launched");
   __atomic_store_n(&ctx->limits[limit], value, __ATOMIC_RELAXED);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxGetLimit(size_t *pvalue, CUlimit limit)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_current("cuCtxGetLimit", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!pvalue)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuCtxGetLimit: pvalue is NULL");
   if ((unsigned)limit >= CU_LIMIT_MAX)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuCtxGetLimit: %d is not a limit", (int)limit);
   if (limit_unsupported(limit))
      return cuvk_error(CUDA_ERROR_UNSUPPORTED_LIMIT, "cuCtxGetLimit: limit %d is not supported",
                        (int)limit);
   *pvalue = __atomic_load_n(&ctx->limits[limit], __ATOMIC_RELAXED);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxGetCacheConfig(CUfunc_cache *pconfig)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_current("cuCtxGetCacheConfig", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!pconfig)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuCtxGetCacheConfig: pconfig is NULL");
   *pconfig = __atomic_load_n(&ctx->cache_config, __ATOMIC_RELAXED);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxSetCacheConfig(CUfunc_cache config)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_current("cuCtxSetCacheConfig", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if ((unsigned)config > CU_FUNC_CACHE_PREFER_EQUAL)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuCtxSetCacheConfig: %d is not a cache configuration",
                        (int)config);
   __atomic_store_n(&ctx->cache_config, config, __ATOMIC_RELAXED);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxGetSharedMemConfig(CUsharedconfig *pconfig)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_current("cuCtxGetSharedMemConfig", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!pconfig)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuCtxGetSharedMemConfig: pConfig is NULL");
   /* Current GPUs have 4-byte banks only; NVIDIA's driver reports them
    * whatever was set. */
   *pconfig = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxSetSharedMemConfig(CUsharedconfig config)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_current("cuCtxSetSharedMemConfig", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if ((unsigned)config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "cuCtxSetSharedMemConfig: %d is not a shared memory configuration", (int)config);
   /* Accepted and without effect, as on NVIDIA's current GPUs. */
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxGetApiVersion(CUcontext hctx, unsigned int *version)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_resolve(hctx, "cuCtxGetApiVersion", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!version)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuCtxGetApiVersion: version is NULL");
   *version = CTX_API_VERSION;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxGetId(CUcontext hctx, unsigned long long *ctx_id)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_resolve(hctx, "cuCtxGetId", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!ctx_id)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuCtxGetId: ctxId is NULL");
   *ctx_id = ctx->id;
   return CUDA_SUCCESS;
}
