/*
 * Runtime devices: implicit initialisation, the per-thread current device,
 * the runtime's hold on primary contexts, device properties and versions.
 *
 * The runtime has no context of its own.  Each thread has a current device
 * (0 until cudaSetDevice), and the first call that needs a device makes
 * that device's primary context current on the thread, unless the thread
 * already has a live current context (one made with the driver API), which
 * the runtime then uses as it is.  The runtime holds one reference on each
 * primary context it used, from first use to cudaDeviceReset.
 */
#include "runtime/runtime.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_api/context.h"
#include "cuda_api/object.h"
#include "util/log.h"
#include "util/macros.h"

/* The device cudaSetDevice chose for this thread. */
static _Thread_local int rt_device;
/* The primary context the runtime last made current on this thread; tells
 * the runtime's own (destroyed by a reset elsewhere, to be replaced) from a
 * context the program made current and destroyed (an error). */
static _Thread_local CUcontext rt_bound;

/* The runtime's reference on each device's primary context, or NULL. */
static pthread_mutex_t rt_lock = PTHREAD_MUTEX_INITIALIZER;
static CUcontext *rt_primaries;
static int rt_device_count;

cudaError_t
cuvk_rt_init(void)
{
   CUresult res = cuInit(0);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_from_cu(res);
   if (cuvk_likely(__atomic_load_n(&rt_primaries, __ATOMIC_ACQUIRE)))
      return cudaSuccess;

   cudaError_t err = cudaSuccess;
   pthread_mutex_lock(&rt_lock);
   if (!rt_primaries) {
      int count = 0;
      res = cuDeviceGetCount(&count);
      CUcontext *table = res == CUDA_SUCCESS ? calloc(CUVK_MAX(count, 1), sizeof(*table)) : NULL;
      if (res != CUDA_SUCCESS)
         err = cuvk_rt_from_cu(res);
      else if (!table)
         err = cuvk_rt_error(cudaErrorMemoryAllocation, "out of host memory starting the runtime");
      else {
         rt_device_count = count;
         __atomic_store_n(&rt_primaries, table, __ATOMIC_RELEASE);
      }
   }
   pthread_mutex_unlock(&rt_lock);
   return err;
}

/* Device dev's primary context, retained by the runtime on first use. */
static cudaError_t
rt_primary(int dev, CUcontext *out)
{
   cudaError_t err = cudaSuccess;
   CUcontext ctx;

   if (dev < 0 || dev >= rt_device_count)
      return cuvk_rt_error(cudaErrorInvalidDevice, "device %d does not exist (%d devices)", dev,
                           rt_device_count);

   pthread_mutex_lock(&rt_lock);
   ctx = rt_primaries[dev];
   /* cuDevicePrimaryCtxReset through the driver API destroys the context
    * under the runtime's reference (and drops the reference): take a new
    * one then. */
   if (!ctx || !cuvk_object_is(ctx, CUVK_OBJECT_CONTEXT)) {
      CUresult res = cuDevicePrimaryCtxRetain(&ctx, dev);
      if (res != CUDA_SUCCESS) {
         err = cuvk_rt_from_cu(res);
         ctx = NULL;
      }
      rt_primaries[dev] = ctx;
   }
   pthread_mutex_unlock(&rt_lock);
   *out = ctx;
   return err;
}

static cudaError_t
rt_bind_primary(int dev)
{
   CUcontext ctx = NULL;
   cudaError_t err = rt_primary(dev, &ctx);
   if (err != cudaSuccess)
      return err;
   CUresult res = cuCtxSetCurrent(ctx);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_from_cu(res);
   rt_bound = ctx;
   return cudaSuccess;
}

/* The calling thread's current context if it is live, else NULL. */
static CUcontext
rt_live_current(CUcontext *stale)
{
   CUcontext cur = NULL;

   *stale = NULL;
   if (cuCtxGetCurrent(&cur) != CUDA_SUCCESS || !cur)
      return NULL;
   if (cuvk_object_is(cur, CUVK_OBJECT_CONTEXT))
      return cur;
   *stale = cur;
   return NULL;
}

cudaError_t
cuvk_rt_context(void)
{
   CUcontext stale;
   cudaError_t err = cuvk_rt_init();
   if (err != cudaSuccess)
      return err;

   if (cuvk_likely(rt_live_current(&stale) != NULL))
      return cudaSuccess;
   if (stale && stale != rt_bound)
      return cuvk_rt_error(cudaErrorContextIsDestroyed,
                           "the context current on this thread (%p) was destroyed", (void *)stale);
   return rt_bind_primary(rt_device);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGetDeviceCount(int *count)
{
   if (!count)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaGetDeviceCount: count is NULL"));
   cudaError_t err = cuvk_rt_init();
   if (err != cudaSuccess) {
      /* No usable device is a count of 0 as well as an error. */
      *count = 0;
      return cuvk_rt_return(err);
   }
   return cuvk_rt_return_cu(cuDeviceGetCount(count));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaSetDevice(int device)
{
   CUdevice dev;
   cudaError_t err = cuvk_rt_init();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   CUresult res = cuDeviceGet(&dev, device);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_return_cu(res);

   /* Since CUDA 12 the device is initialised here, not at its first use,
    * and its primary context replaces whatever was current. */
   err = rt_bind_primary(dev);
   if (err == cudaSuccess)
      rt_device = dev;
   return cuvk_rt_return(err);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGetDevice(int *device)
{
   CUcontext cur, stale;
   CUdevice dev;

   if (!device)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaGetDevice: device is NULL"));
   cudaError_t err = cuvk_rt_init();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);

   /* A live current context decides, whoever made it current. */
   cur = rt_live_current(&stale);
   if (cur && cuCtxGetDevice(&dev) == CUDA_SUCCESS)
      *device = dev;
   else
      *device = rt_device;
   return cudaSuccess;
}

/* Where each attribute-backed member of cudaDeviceProp comes from. */
#define PROP(member, attr)                                                   \
   { offsetof(struct cudaDeviceProp, member),                                \
     sizeof(((struct cudaDeviceProp *)0)->member), CU_DEVICE_ATTRIBUTE_##attr }

static const struct {
   size_t offset;
   size_t size;
   CUdevice_attribute attr;
} rt_prop_attrs[] = {
   PROP(sharedMemPerBlock, MAX_SHARED_MEMORY_PER_BLOCK),
   PROP(regsPerBlock, MAX_REGISTERS_PER_BLOCK),
   PROP(warpSize, WARP_SIZE),
   PROP(memPitch, MAX_PITCH),
   PROP(maxThreadsPerBlock, MAX_THREADS_PER_BLOCK),
   PROP(maxThreadsDim[0], MAX_BLOCK_DIM_X),
   PROP(maxThreadsDim[1], MAX_BLOCK_DIM_Y),
   PROP(maxThreadsDim[2], MAX_BLOCK_DIM_Z),
   PROP(maxGridSize[0], MAX_GRID_DIM_X),
   PROP(maxGridSize[1], MAX_GRID_DIM_Y),
   PROP(maxGridSize[2], MAX_GRID_DIM_Z),
   PROP(totalConstMem, TOTAL_CONSTANT_MEMORY),
   PROP(major, COMPUTE_CAPABILITY_MAJOR),
   PROP(minor, COMPUTE_CAPABILITY_MINOR),
   PROP(textureAlignment, TEXTURE_ALIGNMENT),
   PROP(texturePitchAlignment, TEXTURE_PITCH_ALIGNMENT),
   PROP(multiProcessorCount, MULTIPROCESSOR_COUNT),
   PROP(integrated, INTEGRATED),
   PROP(canMapHostMemory, CAN_MAP_HOST_MEMORY),
   PROP(maxTexture1D, MAXIMUM_TEXTURE1D_WIDTH),
   PROP(maxTexture1DMipmap, MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH),
   PROP(maxTexture2D[0], MAXIMUM_TEXTURE2D_WIDTH),
   PROP(maxTexture2D[1], MAXIMUM_TEXTURE2D_HEIGHT),
   PROP(maxTexture2DMipmap[0], MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH),
   PROP(maxTexture2DMipmap[1], MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT),
   PROP(maxTexture2DLinear[0], MAXIMUM_TEXTURE2D_LINEAR_WIDTH),
   PROP(maxTexture2DLinear[1], MAXIMUM_TEXTURE2D_LINEAR_HEIGHT),
   PROP(maxTexture2DLinear[2], MAXIMUM_TEXTURE2D_LINEAR_PITCH),
   PROP(maxTexture2DGather[0], MAXIMUM_TEXTURE2D_GATHER_WIDTH),
   PROP(maxTexture2DGather[1], MAXIMUM_TEXTURE2D_GATHER_HEIGHT),
   PROP(maxTexture3D[0], MAXIMUM_TEXTURE3D_WIDTH),
   PROP(maxTexture3D[1], MAXIMUM_TEXTURE3D_HEIGHT),
   PROP(maxTexture3D[2], MAXIMUM_TEXTURE3D_DEPTH),
   PROP(maxTexture3DAlt[0], MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE),
   PROP(maxTexture3DAlt[1], MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE),
   PROP(maxTexture3DAlt[2], MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE),
   PROP(maxTextureCubemap, MAXIMUM_TEXTURECUBEMAP_WIDTH),
   PROP(maxTexture1DLayered[0], MAXIMUM_TEXTURE1D_LAYERED_WIDTH),
   PROP(maxTexture1DLayered[1], MAXIMUM_TEXTURE1D_LAYERED_LAYERS),
   PROP(maxTexture2DLayered[0], MAXIMUM_TEXTURE2D_LAYERED_WIDTH),
   PROP(maxTexture2DLayered[1], MAXIMUM_TEXTURE2D_LAYERED_HEIGHT),
   PROP(maxTexture2DLayered[2], MAXIMUM_TEXTURE2D_LAYERED_LAYERS),
   PROP(maxTextureCubemapLayered[0], MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH),
   PROP(maxTextureCubemapLayered[1], MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS),
   PROP(maxSurface1D, MAXIMUM_SURFACE1D_WIDTH),
   PROP(maxSurface2D[0], MAXIMUM_SURFACE2D_WIDTH),
   PROP(maxSurface2D[1], MAXIMUM_SURFACE2D_HEIGHT),
   PROP(maxSurface3D[0], MAXIMUM_SURFACE3D_WIDTH),
   PROP(maxSurface3D[1], MAXIMUM_SURFACE3D_HEIGHT),
   PROP(maxSurface3D[2], MAXIMUM_SURFACE3D_DEPTH),
   PROP(maxSurface1DLayered[0], MAXIMUM_SURFACE1D_LAYERED_WIDTH),
   PROP(maxSurface1DLayered[1], MAXIMUM_SURFACE1D_LAYERED_LAYERS),
   PROP(maxSurface2DLayered[0], MAXIMUM_SURFACE2D_LAYERED_WIDTH),
   PROP(maxSurface2DLayered[1], MAXIMUM_SURFACE2D_LAYERED_HEIGHT),
   PROP(maxSurface2DLayered[2], MAXIMUM_SURFACE2D_LAYERED_LAYERS),
   PROP(maxSurfaceCubemap, MAXIMUM_SURFACECUBEMAP_WIDTH),
   PROP(maxSurfaceCubemapLayered[0], MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH),
   PROP(maxSurfaceCubemapLayered[1], MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS),
   PROP(surfaceAlignment, SURFACE_ALIGNMENT),
   PROP(concurrentKernels, CONCURRENT_KERNELS),
   PROP(ECCEnabled, ECC_ENABLED),
   PROP(pciBusID, PCI_BUS_ID),
   PROP(pciDeviceID, PCI_DEVICE_ID),
   PROP(pciDomainID, PCI_DOMAIN_ID),
   PROP(tccDriver, TCC_DRIVER),
   PROP(asyncEngineCount, ASYNC_ENGINE_COUNT),
   PROP(unifiedAddressing, UNIFIED_ADDRESSING),
   PROP(memoryBusWidth, GLOBAL_MEMORY_BUS_WIDTH),
   PROP(l2CacheSize, L2_CACHE_SIZE),
   PROP(persistingL2CacheMaxSize, MAX_PERSISTING_L2_CACHE_SIZE),
   PROP(maxThreadsPerMultiProcessor, MAX_THREADS_PER_MULTIPROCESSOR),
   PROP(streamPrioritiesSupported, STREAM_PRIORITIES_SUPPORTED),
   PROP(globalL1CacheSupported, GLOBAL_L1_CACHE_SUPPORTED),
   PROP(localL1CacheSupported, LOCAL_L1_CACHE_SUPPORTED),
   PROP(sharedMemPerMultiprocessor, MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
   PROP(regsPerMultiprocessor, MAX_REGISTERS_PER_MULTIPROCESSOR),
   PROP(managedMemory, MANAGED_MEMORY),
   PROP(isMultiGpuBoard, MULTI_GPU_BOARD),
   PROP(multiGpuBoardGroupID, MULTI_GPU_BOARD_GROUP_ID),
   PROP(hostNativeAtomicSupported, HOST_NATIVE_ATOMIC_SUPPORTED),
   PROP(pageableMemoryAccess, PAGEABLE_MEMORY_ACCESS),
   PROP(concurrentManagedAccess, CONCURRENT_MANAGED_ACCESS),
   PROP(computePreemptionSupported, COMPUTE_PREEMPTION_SUPPORTED),
   PROP(canUseHostPointerForRegisteredMem, CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM),
   PROP(cooperativeLaunch, COOPERATIVE_LAUNCH),
   PROP(sharedMemPerBlockOptin, MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
   PROP(pageableMemoryAccessUsesHostPageTables, PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES),
   PROP(directManagedMemAccessFromHost, DIRECT_MANAGED_MEM_ACCESS_FROM_HOST),
   PROP(maxBlocksPerMultiProcessor, MAX_BLOCKS_PER_MULTIPROCESSOR),
   PROP(accessPolicyMaxWindowSize, MAX_ACCESS_POLICY_WINDOW_SIZE),
   PROP(reservedSharedMemPerBlock, RESERVED_SHARED_MEMORY_PER_BLOCK),
   PROP(hostRegisterSupported, HOST_REGISTER_SUPPORTED),
   PROP(sparseCudaArraySupported, SPARSE_CUDA_ARRAY_SUPPORTED),
   PROP(hostRegisterReadOnlySupported, READ_ONLY_HOST_REGISTER_SUPPORTED),
   PROP(timelineSemaphoreInteropSupported, TIMELINE_SEMAPHORE_INTEROP_SUPPORTED),
   PROP(memoryPoolsSupported, MEMORY_POOLS_SUPPORTED),
   PROP(gpuDirectRDMASupported, GPU_DIRECT_RDMA_SUPPORTED),
   PROP(gpuDirectRDMAFlushWritesOptions, GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS),
   PROP(gpuDirectRDMAWritesOrdering, GPU_DIRECT_RDMA_WRITES_ORDERING),
   PROP(memoryPoolSupportedHandleTypes, MEMPOOL_SUPPORTED_HANDLE_TYPES),
   PROP(deferredMappingCudaArraySupported, DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED),
   PROP(ipcEventSupported, IPC_EVENT_SUPPORTED),
   PROP(clusterLaunch, CLUSTER_LAUNCH),
   PROP(unifiedFunctionPointers, UNIFIED_FUNCTION_POINTERS),
   PROP(deviceNumaConfig, NUMA_CONFIG),
   PROP(deviceNumaId, NUMA_ID),
   PROP(mpsEnabled, MPS_ENABLED),
   PROP(hostNumaId, HOST_NUMA_ID),
   PROP(gpuPciDeviceID, GPU_PCI_DEVICE_ID),
   PROP(gpuPciSubsystemID, GPU_PCI_SUBSYSTEM_ID),
   PROP(hostNumaMultinodeIpcSupported, HOST_NUMA_MULTINODE_IPC_SUPPORTED),
};
#undef PROP

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
   CUdevice dev;
   CUresult res;

   if (!prop)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaGetDeviceProperties: prop is NULL"));
   cudaError_t err = cuvk_rt_init();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   res = cuDeviceGet(&dev, device);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_return_cu(res);

   /* Members without a meaning here (luid, the reserved words) read 0. */
   struct cudaDeviceProp p;
   memset(&p, 0, sizeof(p));
   res = cuDeviceGetName(p.name, (int)sizeof(p.name), dev);
   if (res == CUDA_SUCCESS)
      res = cuDeviceGetUuid_v2(&p.uuid, dev);
   if (res == CUDA_SUCCESS)
      res = cuDeviceTotalMem_v2(&p.totalGlobalMem, dev);
   for (size_t i = 0; res == CUDA_SUCCESS && i < CUVK_ARRAY_SIZE(rt_prop_attrs); i++) {
      int value = 0;
      res = cuDeviceGetAttribute(&value, rt_prop_attrs[i].attr, dev);
      char *dst = (char *)&p + rt_prop_attrs[i].offset;
      if (rt_prop_attrs[i].size == sizeof(size_t)) {
         size_t wide = value > 0 ? (size_t)value : 0;
         memcpy(dst, &wide, sizeof(wide));
      } else {
         memcpy(dst, &value, sizeof(value));
      }
   }
   if (res != CUDA_SUCCESS)
      return cuvk_rt_return_cu(res);
   *prop = p;
   return cudaSuccess;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
   cudaError_t err = cuvk_rt_init();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   /* Every runtime attribute has its driver attribute's number. */
   return cuvk_rt_return_cu(cuDeviceGetAttribute(value, (CUdevice_attribute)attr, device));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaDeviceSynchronize(void)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuCtxSynchronize());
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuCtxGetStreamPriorityRange(leastPriority, greatestPriority));
}

/* The current device's limits are its primary context's (or those of the
 * context the program made current), as in CUDA. */
CUVK_EXPORT cudaError_t CUDARTAPI
cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuCtxSetLimit((CUlimit)limit, value));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuCtxGetLimit(pValue, (CUlimit)limit));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaDeviceReset(void)
{
   CUcontext cur, stale;
   CUdevice dev;
   cudaError_t err = cuvk_rt_init();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);

   cur = rt_live_current(&stale);
   if (cur && !cuvk_context_is_primary(cur)) {
      /* A context the program created: the runtime keeps nothing in it
       * to reset, so only its work is waited for. */
      return cuvk_rt_return_cu(cuCtxSynchronize());
   }
   if (!cur || cuCtxGetDevice(&dev) != CUDA_SUCCESS)
      dev = rt_device;

   /* Destroys the primary context whoever holds it, as CUDA does; the
    * next call that needs the device makes a new one. */
   pthread_mutex_lock(&rt_lock);
   CUresult res = cuDevicePrimaryCtxReset_v2(dev);
   if (res == CUDA_SUCCESS && dev < rt_device_count)
      rt_primaries[dev] = NULL;
   pthread_mutex_unlock(&rt_lock);
   return cuvk_rt_return_cu(res);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaDriverGetVersion(int *driverVersion)
{
   if (!driverVersion)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaDriverGetVersion: output is NULL"));
   return cuvk_rt_return_cu(cuDriverGetVersion(driverVersion));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaRuntimeGetVersion(int *runtimeVersion)
{
   if (!runtimeVersion)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaRuntimeGetVersion: output is NULL"));
   *runtimeVersion = CUDART_VERSION;
   return cudaSuccess;
}
