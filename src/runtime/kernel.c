/*
 * Runtime kernels and symbols: cudaLaunchKernel, the function attribute
 * and occupancy calls, and the __device__ / __constant__ variable copies,
 * over the driver's modules.
 *
 * A kernel is named by its host stub (or the cudaKernel_t cudaGetKernel
 * gave), a variable by its host shadow's address; registration.c maps
 * either to what nvcc registered and loads the fatbin's module into the
 * current context at its first use there.  From then on these are the
 * driver's calls on that module's CUfunction and globals.
 */
#include "runtime/runtime.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuda_api/module.h"
#include "util/macros.h"

/* CUDA's grid limits (cudaDeviceProp.maxGridSize, as device.c reports). */
#define RT_GRID_MAX_X 0x7fffffffu
#define RT_GRID_MAX_YZ 65535u

cudaError_t
cuvk_rt_launch_check(CUfunction hfunc, dim3 grid, dim3 block, size_t shared, const char *entry)
{
   /* The configuration is checked against the limits cudaDeviceProp
    * reports for the function's device.  CUDA 13's runtime answers a bad
    * one with cudaErrorInvalidValue, for <<<...>>> and cudaLaunchKernel
    * alike (measured on an H100, driver 580.159.04: block of 2048 or
    * 4096 threads, a dimension of 0, grid.y of 70000, block.z over
    * maxThreadsDim[2]); older runtimes said cudaErrorInvalidConfiguration. */
   /* A function the runtime cached is live unless the program unloaded
    * its module behind the runtime's back; checked, not trusted. */
   if (!cuvk_object_is(hfunc, CUVK_OBJECT_FUNCTION))
      return cuvk_rt_error(cudaErrorInvalidResourceHandle, "%s: function %p is no longer loaded", entry,
                           (void *)hfunc);
   const struct cuvk_function *f = (const struct cuvk_function *)hfunc;
   const VkPhysicalDeviceLimits *lim = &f->mod->ctx->dev->props.limits;
   uint64_t threads = (uint64_t)block.x * block.y * block.z;
   uint32_t max_threads = CUVK_MIN(lim->maxComputeWorkGroupInvocations, 1024u);

   if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > RT_GRID_MAX_X || grid.y > RT_GRID_MAX_YZ ||
       grid.z > RT_GRID_MAX_YZ)
      return cuvk_rt_error(cudaErrorInvalidValue, "%s: grid %ux%ux%u is empty or beyond %ux%ux%u",
                           entry, grid.x, grid.y, grid.z, RT_GRID_MAX_X, RT_GRID_MAX_YZ, RT_GRID_MAX_YZ);
   if (threads == 0 || threads > max_threads || block.x > lim->maxComputeWorkGroupSize[0] ||
       block.y > lim->maxComputeWorkGroupSize[1] || block.z > lim->maxComputeWorkGroupSize[2])
      return cuvk_rt_error(cudaErrorInvalidValue, "%s: block %ux%ux%u is empty or beyond the device's "
                           "%ux%ux%u and %u threads", entry, block.x, block.y, block.z,
                           lim->maxComputeWorkGroupSize[0], lim->maxComputeWorkGroupSize[1],
                           lim->maxComputeWorkGroupSize[2], max_threads);
   if (shared > UINT32_MAX)
      return cuvk_rt_error(cudaErrorInvalidValue, "%s: %zu bytes of dynamic shared memory", entry, shared);
   return cudaSuccess;
}

cudaError_t
cuvk_rt_launch(CUfunction hfunc, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream,
               const char *entry)
{
   cudaError_t err = cuvk_rt_launch_check(hfunc, grid, block, shared, entry);
   if (err != cudaSuccess)
      return err;
   return cuvk_rt_from_cu(cuLaunchKernel(hfunc, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                         (unsigned)shared, (CUstream)stream, args, NULL));
}

static cudaError_t
rt_launch(const void *func, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream,
          const char *entry)
{
   CUfunction f;
   cudaError_t err = cuvk_rt_function(func, entry, &f);
   if (err != cudaSuccess)
      return err;
   return cuvk_rt_launch(f, grid, block, args, shared, stream, entry);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                 cudaStream_t stream)
{
   return cuvk_rt_return(rt_launch(func, gridDim, blockDim, args, sharedMem, stream, "cudaLaunchKernel"));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                      cudaStream_t stream)
{
   return cuvk_rt_return(rt_launch(func, gridDim, blockDim, args, sharedMem,
                                   stream ? stream : cudaStreamPerThread, "cudaLaunchKernel_ptsz"));
}

/* The runtime's launch attributes are the driver's: the same numbers, the
 * same 8-byte header and 64-byte value union (driver_types.h and cuda.h),
 * and a cudaEvent_t is a CUevent here. */
_Static_assert(sizeof(cudaLaunchAttribute) == sizeof(CUlaunchAttribute), "launch attribute layout");
_Static_assert(offsetof(cudaLaunchAttribute, val) == offsetof(CUlaunchAttribute, value), "launch attribute");
_Static_assert(sizeof(cudaLaunchAttributeValue) == sizeof(CUlaunchAttributeValue), "launch attribute value");
_Static_assert((int)cudaLaunchAttributeClusterDimension == (int)CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION &&
                  (int)cudaLaunchAttributeLaunchCompletionEvent == (int)CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT &&
                  (int)cudaLaunchAttributeNvlinkUtilCentricScheduling ==
                     (int)CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING,
               "launch attribute numbers");

/* cudaLaunchKernelExC: the runtime's configuration checks, then
 * cuLaunchKernelEx, which honours, accepts or refuses each attribute
 * (launch_ex.c). */
static cudaError_t
rt_launch_ex(const cudaLaunchConfig_t *config, const void *func, void **args, bool per_thread,
             const char *entry)
{
   if (!config)
      return cuvk_rt_error(cudaErrorInvalidValue, "%s: config is NULL", entry);
   if (config->numAttrs && !config->attrs)
      return cuvk_rt_error(cudaErrorInvalidValue, "%s: %u attributes and attrs is NULL", entry,
                           config->numAttrs);
   CUfunction f;
   cudaError_t err = cuvk_rt_function(func, entry, &f);
   if (err == cudaSuccess)
      err = cuvk_rt_launch_check(f, config->gridDim, config->blockDim, config->dynamicSmemBytes, entry);
   if (err != cudaSuccess)
      return err;
   cudaStream_t stream = config->stream;
   if (per_thread && !stream)
      stream = cudaStreamPerThread;
   CUlaunchConfig cu = {
      .gridDimX = config->gridDim.x,
      .gridDimY = config->gridDim.y,
      .gridDimZ = config->gridDim.z,
      .blockDimX = config->blockDim.x,
      .blockDimY = config->blockDim.y,
      .blockDimZ = config->blockDim.z,
      .sharedMemBytes = (unsigned)config->dynamicSmemBytes,
      .hStream = (CUstream)stream,
      .attrs = (CUlaunchAttribute *)config->attrs,
      .numAttrs = config->numAttrs,
   };
   return cuvk_rt_from_cu(cuLaunchKernelEx(&cu, f, args, NULL));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
   return cuvk_rt_return(rt_launch_ex(config, func, args, false, "cudaLaunchKernelExC"));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func, void **args)
{
   return cuvk_rt_return(rt_launch_ex(config, func, args, true, "cudaLaunchKernelExC_ptsz"));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
   CUfunction f;
   cudaError_t err = cuvk_rt_function(func, "cudaFuncGetParamInfo", &f);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuFuncGetParamInfo(f, paramIndex, paramOffset, paramSize));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
   struct cuvk_rt_kernel *k;
   if (!kernelPtr)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaGetKernel: kernelPtr is NULL"));
   cudaError_t err = cuvk_rt_kernel_find(entryFuncAddr, "cudaGetKernel", &k);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   *kernelPtr = (cudaKernel_t)k;
   return cudaSuccess;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr)
{
   CUfunction f;
   if (!functionPtr)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaGetFuncBySymbol: functionPtr is NULL"));
   cudaError_t err = cuvk_rt_function(symbolPtr, "cudaGetFuncBySymbol", &f);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   *functionPtr = (cudaFunction_t)f;
   return cudaSuccess;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
   CUfunction f;
   if (!attr)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaFuncGetAttributes: attr is NULL"));
   cudaError_t err = cuvk_rt_function(func, "cudaFuncGetAttributes", &f);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);

   static const struct {
      size_t offset;
      bool is_size;
      CUfunction_attribute attrib;
   } fields[] = {
#define RT_FA(member, a)                                                                   \
   { offsetof(struct cudaFuncAttributes, member),                                         \
     sizeof(((struct cudaFuncAttributes *)0)->member) == sizeof(size_t), CU_FUNC_ATTRIBUTE_##a }
      RT_FA(sharedSizeBytes, SHARED_SIZE_BYTES),
      RT_FA(constSizeBytes, CONST_SIZE_BYTES),
      RT_FA(localSizeBytes, LOCAL_SIZE_BYTES),
      RT_FA(maxThreadsPerBlock, MAX_THREADS_PER_BLOCK),
      RT_FA(numRegs, NUM_REGS),
      RT_FA(ptxVersion, PTX_VERSION),
      RT_FA(binaryVersion, BINARY_VERSION),
      RT_FA(cacheModeCA, CACHE_MODE_CA),
      RT_FA(maxDynamicSharedSizeBytes, MAX_DYNAMIC_SHARED_SIZE_BYTES),
      RT_FA(preferredShmemCarveout, PREFERRED_SHARED_MEMORY_CARVEOUT),
      RT_FA(clusterDimMustBeSet, CLUSTER_SIZE_MUST_BE_SET),
      RT_FA(requiredClusterWidth, REQUIRED_CLUSTER_WIDTH),
      RT_FA(requiredClusterHeight, REQUIRED_CLUSTER_HEIGHT),
      RT_FA(requiredClusterDepth, REQUIRED_CLUSTER_DEPTH),
      RT_FA(clusterSchedulingPolicyPreference, CLUSTER_SCHEDULING_POLICY_PREFERENCE),
      RT_FA(nonPortableClusterSizeAllowed, NON_PORTABLE_CLUSTER_SIZE_ALLOWED),
#undef RT_FA
   };
   struct cudaFuncAttributes out;
   memset(&out, 0, sizeof(out));
   for (size_t i = 0; i < CUVK_ARRAY_SIZE(fields); i++) {
      int v = 0;
      CUresult res = cuFuncGetAttribute(&v, fields[i].attrib, f);
      if (res != CUDA_SUCCESS)
         return cuvk_rt_return_cu(res);
      if (fields[i].is_size) {
         size_t s = (size_t)(v < 0 ? 0 : v);
         memcpy((char *)&out + fields[i].offset, &s, sizeof(s));
      } else {
         memcpy((char *)&out + fields[i].offset, &v, sizeof(v));
      }
   }
   *attr = out;
   return cudaSuccess;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
   CUfunction f;
   cudaError_t err = cuvk_rt_function(func, "cudaFuncSetAttribute", &f);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   /* The runtime's attribute numbers are the driver's. */
   return cuvk_rt_return_cu(cuFuncSetAttribute(f, (CUfunction_attribute)attr, value));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
   CUfunction f;
   cudaError_t err = cuvk_rt_function(func, "cudaFuncSetCacheConfig", &f);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuFuncSetCacheConfig(f, (CUfunc_cache)cacheConfig));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func, int blockSize,
                                                       size_t dynamicSMemSize, unsigned int flags)
{
   CUfunction f;
   cudaError_t err = cuvk_rt_function(func, "cudaOccupancyMaxActiveBlocksPerMultiprocessor", &f);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, f, blockSize,
                                                                                 dynamicSMemSize, flags));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                              size_t dynamicSMemSize)
{
   return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize,
                                                                 cudaOccupancyDefault);
}

/* The most dynamic shared memory each of numBlocks blocks of blockSize
 * threads may have with all of them on one multiprocessor at once: the
 * shared memory the occupancy figure (module.c) divides among them. */
CUVK_EXPORT cudaError_t CUDARTAPI
cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func, int numBlocks,
                                          int blockSize)
{
   CUfunction hf;
   if (!dynamicSmemSize)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue,
                                          "cudaOccupancyAvailableDynamicSMemPerBlock: output is NULL"));
   cudaError_t err = cuvk_rt_function(func, "cudaOccupancyAvailableDynamicSMemPerBlock", &hf);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   const struct cuvk_function *f = (const struct cuvk_function *)hf;
   int max_threads = 0;
   CUresult res = cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, hf);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_return_cu(res);
   if (numBlocks <= 0 || blockSize <= 0 || blockSize > max_threads || (int64_t)numBlocks * blockSize > 2048)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaOccupancyAvailableDynamicSMemPerBlock: "
                                          "%d blocks of %d threads do not fit one multiprocessor", numBlocks,
                                          blockSize));
   uint64_t total = f->mod->ctx->dev->props.limits.maxComputeSharedMemorySize;
   uint64_t each = total / (uint64_t)numBlocks;
   each = each > f->k.static_shared_bytes ? each - f->k.static_shared_bytes : 0;
   *dynamicSmemSize = (size_t)CUVK_MIN(each, (uint64_t)__atomic_load_n(&f->max_dynamic_shared, __ATOMIC_RELAXED));
   return cudaSuccess;
}

/* ---- Symbols ------------------------------------------------------------ */

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
   CUdeviceptr p;
   size_t n;
   if (!devPtr)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaGetSymbolAddress: devPtr is NULL"));
   cudaError_t err = cuvk_rt_var_address(symbol, "cudaGetSymbolAddress", &p, &n);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   *devPtr = (void *)(uintptr_t)p;
   return cudaSuccess;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGetSymbolSize(size_t *size, const void *symbol)
{
   CUdeviceptr p;
   size_t n;
   if (!size)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaGetSymbolSize: size is NULL"));
   cudaError_t err = cuvk_rt_var_address(symbol, "cudaGetSymbolSize", &p, &n);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   *size = n;
   return cudaSuccess;
}

/* Where count bytes at offset into symbol are, after the checks real
 * CUDA makes: the range inside the variable (cudaErrorInvalidValue), and
 * a kind that puts the variable on the device side
 * (cudaErrorInvalidMemcpyDirection). */
static cudaError_t
rt_symbol_range(const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind, bool to_symbol,
                const char *entry, void **out)
{
   CUdeviceptr p;
   size_t size;
   bool kind_ok = to_symbol ? kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice ||
                                 kind == cudaMemcpyDefault
                            : kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice ||
                                 kind == cudaMemcpyDefault;
   if (!kind_ok)
      return cuvk_rt_error(cudaErrorInvalidMemcpyDirection, "%s: kind %d does not copy %s the device", entry,
                           (int)kind, to_symbol ? "to" : "from");
   cudaError_t err = cuvk_rt_var_address(symbol, entry, &p, &size);
   if (err != cudaSuccess)
      return err;
   if (offset > size || count > size - offset)
      return cuvk_rt_error(cudaErrorInvalidValue, "%s: %zu bytes at offset %zu run past the variable's %zu",
                           entry, count, offset, size);
   *out = (void *)(uintptr_t)(p + offset);
   return cudaSuccess;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind)
{
   void *dst;
   cudaError_t err = rt_symbol_range(symbol, count, offset, kind, true, "cudaMemcpyToSymbol", &dst);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cudaMemcpy(dst, src, count, kind);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind)
{
   void *src;
   cudaError_t err = rt_symbol_range(symbol, count, offset, kind, false, "cudaMemcpyFromSymbol", &src);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cudaMemcpy(dst, src, count, kind);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                        enum cudaMemcpyKind kind, cudaStream_t stream)
{
   void *dst;
   cudaError_t err = rt_symbol_range(symbol, count, offset, kind, true, "cudaMemcpyToSymbolAsync", &dst);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cudaMemcpyAsync(dst, src, count, kind, stream);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                          enum cudaMemcpyKind kind, cudaStream_t stream)
{
   void *src;
   cudaError_t err = rt_symbol_range(symbol, count, offset, kind, false, "cudaMemcpyFromSymbolAsync", &src);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cudaMemcpyAsync(dst, src, count, kind, stream);
}

/* The per-thread default stream forms (compat.c says why they only
 * forward). */
CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count, size_t offset,
                        enum cudaMemcpyKind kind)
{
   return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind)
{
   return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count, size_t offset,
                             enum cudaMemcpyKind kind, cudaStream_t stream)
{
   return cudaMemcpyToSymbolAsync(symbol, src, count, offset, kind, stream ? stream : cudaStreamPerThread);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count, size_t offset,
                               enum cudaMemcpyKind kind, cudaStream_t stream)
{
   return cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, kind, stream ? stream : cudaStreamPerThread);
}
