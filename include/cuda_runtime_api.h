/*
 * cuvk: the CUDA runtime API, implemented on Vulkan.
 *
 * The part of the runtime API that CUDA/Vulkan interop programs use:
 * devices, memory, copies, streams, events, errors and external memory.
 * A program built against NVIDIA's cuda_runtime_api.h must run unchanged
 * on libcuvk (linked as libcudart.so.13), so names, values, layouts and
 * exported symbols follow NVIDIA's CUDA 13.0 header; the text is our own.
 *
 * The runtime needs no explicit initialisation: the first call that needs
 * a device initialises the driver and makes the current device's primary
 * context current on the calling thread (a context the program made
 * current with the driver API is used as it is).  Errors are returned and
 * also remembered per thread until cudaGetLastError reads them.
 *
 * Per-thread default stream: with CUDA_API_PER_THREAD_DEFAULT_STREAM
 * defined, calls that use the default stream are renamed to their _ptds
 * (synchronous) and _ptsz (stream-taking) symbols, as NVIDIA's header does.
 * An implementation file defines __CUDA_API_VERSION_INTERNAL to see every
 * symbol under its own name.
 */
#ifndef __CUDA_RUNTIME_API_H__
#define __CUDA_RUNTIME_API_H__

/* The runtime API version this header describes: 13.0. */
#define CUDART_VERSION 13000

#ifndef CUDARTAPI
#if defined(_WIN32)
#define CUDARTAPI __stdcall
#else
#define CUDARTAPI
#endif
#endif

#include "driver_types.h"

#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM) || defined(__CUDA_API_VERSION_INTERNAL)
#define __CUDART_API_PER_THREAD_DEFAULT_STREAM
#define __CUDART_API_PTDS(api) api ## _ptds
#define __CUDART_API_PTSZ(api) api ## _ptsz
#else
#define __CUDART_API_PTDS(api) api
#define __CUDART_API_PTSZ(api) api
#endif

#if defined(__CUDART_API_PER_THREAD_DEFAULT_STREAM)
#define cudaMemcpy                  __CUDART_API_PTDS(cudaMemcpy)
#define cudaMemset                  __CUDART_API_PTDS(cudaMemset)
#define cudaMemcpyAsync             __CUDART_API_PTSZ(cudaMemcpyAsync)
#define cudaMemsetAsync             __CUDART_API_PTSZ(cudaMemsetAsync)
#define cudaMemPrefetchAsync        __CUDART_API_PTSZ(cudaMemPrefetchAsync)
#define cudaStreamQuery             __CUDART_API_PTSZ(cudaStreamQuery)
#define cudaStreamGetFlags          __CUDART_API_PTSZ(cudaStreamGetFlags)
#define cudaStreamGetPriority       __CUDART_API_PTSZ(cudaStreamGetPriority)
#define cudaEventRecord             __CUDART_API_PTSZ(cudaEventRecord)
#define cudaEventRecordWithFlags    __CUDART_API_PTSZ(cudaEventRecordWithFlags)
#define cudaStreamWaitEvent         __CUDART_API_PTSZ(cudaStreamWaitEvent)
#define cudaStreamSynchronize       __CUDART_API_PTSZ(cudaStreamSynchronize)
#define cudaStreamAddCallback       __CUDART_API_PTSZ(cudaStreamAddCallback)
#define cudaLaunchHostFunc          __CUDART_API_PTSZ(cudaLaunchHostFunc)
#define cudaSignalExternalSemaphoresAsync __CUDART_API_PTSZ(cudaSignalExternalSemaphoresAsync)
#define cudaGetDriverEntryPoint     __CUDART_API_PTSZ(cudaGetDriverEntryPoint)
#define cudaGetDriverEntryPointByVersion __CUDART_API_PTSZ(cudaGetDriverEntryPointByVersion)
#define cudaWaitExternalSemaphoresAsync __CUDART_API_PTSZ(cudaWaitExternalSemaphoresAsync)
#define cudaMallocAsync             __CUDART_API_PTSZ(cudaMallocAsync)
#define cudaFreeAsync               __CUDART_API_PTSZ(cudaFreeAsync)
#define cudaMallocFromPoolAsync     __CUDART_API_PTSZ(cudaMallocFromPoolAsync)
#endif

/* C++ callers may leave out trailing arguments that have a usual value
 * (the default stream, no flags), as with NVIDIA's header. */
#if defined(__cplusplus)
#define CUVK_RT_DEFAULT(v) = v
#else
#define CUVK_RT_DEFAULT(v)
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/* ---- Devices ---- */

extern cudaError_t CUDARTAPI cudaDeviceReset(void);
extern cudaError_t CUDARTAPI cudaDeviceSynchronize(void);
extern cudaError_t CUDARTAPI cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
extern cudaError_t CUDARTAPI cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
extern cudaError_t CUDARTAPI cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit);
extern cudaError_t CUDARTAPI cudaGetDeviceCount(int *count);
extern cudaError_t CUDARTAPI cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
extern cudaError_t CUDARTAPI cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
extern cudaError_t CUDARTAPI cudaSetDevice(int device);
extern cudaError_t CUDARTAPI cudaGetDevice(int *device);

/* ---- Errors ---- */

extern cudaError_t CUDARTAPI cudaGetLastError(void);
extern cudaError_t CUDARTAPI cudaPeekAtLastError(void);
extern const char *CUDARTAPI cudaGetErrorName(cudaError_t error);
extern const char *CUDARTAPI cudaGetErrorString(cudaError_t error);

/* ---- Streams ---- */

/* cudaStreamAddCallback */
typedef void (CUDART_CB *cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *userData);

extern cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t *pStream);
extern cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);
extern cudaError_t CUDARTAPI cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags,
                                                         int priority);
extern cudaError_t CUDARTAPI cudaStreamGetPriority(cudaStream_t hStream, int *priority);
extern cudaError_t CUDARTAPI cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags);
extern cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                                unsigned int flags CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                                  void *userData, unsigned int flags);
extern cudaError_t CUDARTAPI cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);

/* ---- Events ---- */

extern cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t *event);
extern cudaError_t CUDARTAPI cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
extern cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t event, cudaStream_t stream CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream CUVK_RT_DEFAULT(0),
                                                     unsigned int flags CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaEventQuery(cudaEvent_t event);
extern cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t event);
extern cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t event);
extern cudaError_t CUDARTAPI cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);

/* ---- External memory ---- */

extern cudaError_t CUDARTAPI cudaImportExternalMemory(cudaExternalMemory_t *extMem_out,
                                                     const struct cudaExternalMemoryHandleDesc *memHandleDesc);
extern cudaError_t CUDARTAPI cudaExternalMemoryGetMappedBuffer(void **devPtr, cudaExternalMemory_t extMem,
                                                              const struct cudaExternalMemoryBufferDesc *bufferDesc);
extern cudaError_t CUDARTAPI cudaDestroyExternalMemory(cudaExternalMemory_t extMem);

/* ---- External semaphores ---- */

extern cudaError_t CUDARTAPI cudaImportExternalSemaphore(cudaExternalSemaphore_t *extSem_out,
                                                        const struct cudaExternalSemaphoreHandleDesc *semHandleDesc);
extern cudaError_t CUDARTAPI cudaSignalExternalSemaphoresAsync(
   const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreSignalParams *paramsArray,
   unsigned int numExtSems, cudaStream_t stream CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaWaitExternalSemaphoresAsync(
   const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreWaitParams *paramsArray,
   unsigned int numExtSems, cudaStream_t stream CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaDestroyExternalSemaphore(cudaExternalSemaphore_t extSem);

/* ---- Memory ---- */

extern cudaError_t CUDARTAPI cudaMalloc(void **devPtr, size_t size);
extern cudaError_t CUDARTAPI cudaMallocHost(void **ptr, size_t size);
extern cudaError_t CUDARTAPI cudaFree(void *devPtr);
extern cudaError_t CUDARTAPI cudaFreeHost(void *ptr);
extern cudaError_t CUDARTAPI cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
extern cudaError_t CUDARTAPI cudaHostRegister(void *ptr, size_t size, unsigned int flags);
extern cudaError_t CUDARTAPI cudaHostUnregister(void *ptr);
extern cudaError_t CUDARTAPI cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
extern cudaError_t CUDARTAPI cudaHostGetFlags(unsigned int *pFlags, void *pHost);
extern cudaError_t CUDARTAPI cudaMemGetInfo(size_t *free, size_t *total);
extern cudaError_t CUDARTAPI cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                            enum cudaMemcpyKind kind,
                                            cudaStream_t stream CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMemset(void *devPtr, int value, size_t count);
extern cudaError_t CUDARTAPI cudaMemsetAsync(void *devPtr, int value, size_t count,
                                            cudaStream_t stream CUVK_RT_DEFAULT(0));

/* ---- The stream-ordered allocator and memory pools ---- */

extern cudaError_t CUDARTAPI cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream);
extern cudaError_t CUDARTAPI cudaFreeAsync(void *devPtr, cudaStream_t hStream);
extern cudaError_t CUDARTAPI cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                                    cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps);
extern cudaError_t CUDARTAPI cudaMemPoolDestroy(cudaMemPool_t memPool);
extern cudaError_t CUDARTAPI cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList,
                                                 size_t count);
extern cudaError_t CUDARTAPI cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                                 struct cudaMemLocation *location);
extern cudaError_t CUDARTAPI cudaMemGetDefaultMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                                     enum cudaMemAllocationType type);
extern cudaError_t CUDARTAPI cudaMemGetMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                              enum cudaMemAllocationType type);
extern cudaError_t CUDARTAPI cudaMemSetMemPool(struct cudaMemLocation *location, enum cudaMemAllocationType type,
                                              cudaMemPool_t memPool);
extern cudaError_t CUDARTAPI cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device);
extern cudaError_t CUDARTAPI cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device);
extern cudaError_t CUDARTAPI cudaDeviceSetMemPool(int device, cudaMemPool_t memPool);
extern cudaError_t CUDARTAPI cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
                                                    void *value);
extern cudaError_t CUDARTAPI cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
                                                    void *value);
extern cudaError_t CUDARTAPI cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep);

/* ---- Managed memory ---- */

extern cudaError_t CUDARTAPI cudaMallocManaged(void **devPtr, size_t size,
                                              unsigned int flags CUVK_RT_DEFAULT(cudaMemAttachGlobal));
extern cudaError_t CUDARTAPI cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                                 unsigned int flags, cudaStream_t stream CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                          struct cudaMemLocation location);
extern cudaError_t CUDARTAPI cudaMemRangeGetAttribute(void *data, size_t dataSize,
                                                     enum cudaMemRangeAttribute attribute, const void *devPtr,
                                                     size_t count);

/* ---- Unified addressing ---- */

extern cudaError_t CUDARTAPI cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
                                                     const void *ptr);

/* ---- Versions ---- */

extern cudaError_t CUDARTAPI cudaDriverGetVersion(int *driverVersion);
extern cudaError_t CUDARTAPI cudaRuntimeGetVersion(int *runtimeVersion);

/* ---- Driver entry points ---- */

/* The driver function cuGetProcAddress would return for symbol at CUDA
 * version cudaVersion (CUDART_VERSION for the first); a name cuvk does not
 * know is cudaSuccess with *funcPtr NULL and *driverStatus saying why. */
extern cudaError_t CUDARTAPI cudaGetDriverEntryPoint(const char *symbol, void **funcPtr,
                                                    unsigned long long flags,
                                                    enum cudaDriverEntryPointQueryResult *driverStatus
                                                       CUVK_RT_DEFAULT(NULL));
extern cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr,
                                                             unsigned int cudaVersion,
                                                             unsigned long long flags,
                                                             enum cudaDriverEntryPointQueryResult *driverStatus
                                                                CUVK_RT_DEFAULT(NULL));

#if defined(__CUDA_API_VERSION_INTERNAL)
/* The implementation's view: the declarations above named the per-thread
 * symbols; drop the renames and declare the plain ones too. */
#undef cudaMemcpy
#undef cudaMemset
#undef cudaMemcpyAsync
#undef cudaMemsetAsync
#undef cudaMemPrefetchAsync
#undef cudaStreamQuery
#undef cudaStreamGetFlags
#undef cudaStreamGetPriority
#undef cudaEventRecord
#undef cudaEventRecordWithFlags
#undef cudaStreamWaitEvent
#undef cudaStreamSynchronize
#undef cudaStreamAddCallback
#undef cudaLaunchHostFunc
#undef cudaGetDriverEntryPoint
#undef cudaGetDriverEntryPointByVersion
#undef cudaSignalExternalSemaphoresAsync
#undef cudaWaitExternalSemaphoresAsync
#undef cudaMallocAsync
#undef cudaFreeAsync
#undef cudaMallocFromPoolAsync

extern cudaError_t CUDARTAPI cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemset(void *devPtr, int value, size_t count);
extern cudaError_t CUDARTAPI cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                            enum cudaMemcpyKind kind, cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                                 unsigned int flags, cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags);
extern cudaError_t CUDARTAPI cudaStreamGetPriority(cudaStream_t hStream, int *priority);
extern cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags);
extern cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
extern cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                                  void *userData, unsigned int flags);
extern cudaError_t CUDARTAPI cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);
extern cudaError_t CUDARTAPI cudaGetDriverEntryPoint(const char *symbol, void **funcPtr,
                                                    unsigned long long flags,
                                                    enum cudaDriverEntryPointQueryResult *driverStatus);
extern cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr,
                                                             unsigned int cudaVersion,
                                                             unsigned long long flags,
                                                             enum cudaDriverEntryPointQueryResult *driverStatus);
extern cudaError_t CUDARTAPI cudaSignalExternalSemaphoresAsync(
   const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreSignalParams *paramsArray,
   unsigned int numExtSems, cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaWaitExternalSemaphoresAsync(
   const cudaExternalSemaphore_t *extSemArray, const struct cudaExternalSemaphoreWaitParams *paramsArray,
   unsigned int numExtSems, cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream);
extern cudaError_t CUDARTAPI cudaFreeAsync(void *devPtr, cudaStream_t hStream);
extern cudaError_t CUDARTAPI cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                                    cudaStream_t stream);
#endif

#if defined(__cplusplus)
}
#endif

/* ==== Arrays and mipmapped arrays ============================================
 *
 * CUDA arrays (cudaArray_t) and mipmapped arrays over Vulkan images, and the
 * copies that reach them; the driver API's cuArray*, cuMipmappedArray* and
 * cuMemcpy2D/3D underneath (src/cuda_api/runtime_array.c). */

/* An offset: elements of an array's row, rows and slices; bytes, rows and
 * slices of linear memory. */
struct cudaPos {
   size_t x;
   size_t y;
   size_t z;
};

/* Linear memory and its layout: pitch bytes between rows, ysize rows per
 * slice (xsize, the row's width, is informative). */
struct cudaPitchedPtr {
   void *ptr;
   size_t pitch;
   size_t xsize;
   size_t ysize;
};

/* cudaMemcpy3D: each side is an array (with srcPos/dstPos in its
 * elements) or pitched memory (positions in bytes); extent counts an
 * array's elements, or bytes when no array takes part. */
struct cudaMemcpy3DParms {
   cudaArray_t srcArray;
   struct cudaPos srcPos;
   struct cudaPitchedPtr srcPtr;
   cudaArray_t dstArray;
   struct cudaPos dstPos;
   struct cudaPitchedPtr dstPtr;
   struct cudaExtent extent;
   enum cudaMemcpyKind kind;
};

#if defined(__CUDART_API_PER_THREAD_DEFAULT_STREAM)
#define cudaMemcpy2DToArray         __CUDART_API_PTDS(cudaMemcpy2DToArray)
#define cudaMemcpy2DFromArray       __CUDART_API_PTDS(cudaMemcpy2DFromArray)
#define cudaMemcpy2DArrayToArray    __CUDART_API_PTDS(cudaMemcpy2DArrayToArray)
#define cudaMemcpy3D                __CUDART_API_PTDS(cudaMemcpy3D)
#define cudaMemcpy3DAsync           __CUDART_API_PTSZ(cudaMemcpy3DAsync)
#endif

#if defined(__cplusplus)
extern "C" {
#endif

extern cudaError_t CUDARTAPI cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                            size_t width, size_t height CUVK_RT_DEFAULT(0),
                                            unsigned int flags CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                              struct cudaExtent extent, unsigned int flags CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaFreeArray(cudaArray_t array);
extern cudaError_t CUDARTAPI cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                                             unsigned int *flags, cudaArray_t array);
/* Channel descriptions */
extern struct cudaChannelFormatDesc CUDARTAPI cudaCreateChannelDesc(int x, int y, int z, int w,
                                                                    enum cudaChannelFormatKind f);
extern cudaError_t CUDARTAPI cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array);
/* Texture and surface objects */
extern cudaError_t CUDARTAPI cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                                    const struct cudaResourceDesc *pResDesc,
                                                    const struct cudaTextureDesc *pTexDesc,
                                                    const struct cudaResourceViewDesc *pResViewDesc);
extern cudaError_t CUDARTAPI cudaDestroyTextureObject(cudaTextureObject_t texObject);
extern cudaError_t CUDARTAPI cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                             cudaTextureObject_t texObject);
extern cudaError_t CUDARTAPI cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
                                                            cudaTextureObject_t texObject);
extern cudaError_t CUDARTAPI cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *pResViewDesc,
                                                                 cudaTextureObject_t texObject);
extern cudaError_t CUDARTAPI cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                                    const struct cudaResourceDesc *pResDesc);
extern cudaError_t CUDARTAPI cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
extern cudaError_t CUDARTAPI cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                             cudaSurfaceObject_t surfObject);
extern cudaError_t CUDARTAPI cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray,
                                                     const struct cudaChannelFormatDesc *desc,
                                                     struct cudaExtent extent, unsigned int numLevels,
                                                     unsigned int flags CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaGetMipmappedArrayLevel(cudaArray_t *levelArray,
                                                       cudaMipmappedArray_const_t mipmappedArray,
                                                       unsigned int level);
extern cudaError_t CUDARTAPI cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray);
extern cudaError_t CUDARTAPI cudaExternalMemoryGetMappedMipmappedArray(
   cudaMipmappedArray_t *mipmap, cudaExternalMemory_t extMem,
   const struct cudaExternalMemoryMipmappedArrayDesc *mipmapDesc);
extern cudaError_t CUDARTAPI cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                const void *src, size_t spitch, size_t width,
                                                size_t height, enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src,
                                                  size_t wOffset, size_t hOffset, size_t width,
                                                  size_t height, enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                     cudaArray_const_t src, size_t wOffsetSrc,
                                                     size_t hOffsetSrc, size_t width, size_t height,
                                                     enum cudaMemcpyKind kind
                                                        CUVK_RT_DEFAULT(cudaMemcpyDeviceToDevice));
extern cudaError_t CUDARTAPI cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
extern cudaError_t CUDARTAPI cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p,
                                              cudaStream_t stream CUVK_RT_DEFAULT(0));

#if defined(__CUDA_API_VERSION_INTERNAL)
#undef cudaMemcpy2DToArray
#undef cudaMemcpy2DFromArray
#undef cudaMemcpy2DArrayToArray
#undef cudaMemcpy3D
#undef cudaMemcpy3DAsync

extern cudaError_t CUDARTAPI cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                const void *src, size_t spitch, size_t width,
                                                size_t height, enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src,
                                                  size_t wOffset, size_t hOffset, size_t width,
                                                  size_t height, enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                     cudaArray_const_t src, size_t wOffsetSrc,
                                                     size_t hOffsetSrc, size_t width, size_t height,
                                                     enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
extern cudaError_t CUDARTAPI cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream);
#endif

#if defined(__cplusplus)
}
#endif

/* ==== End of arrays and mipmapped arrays ===================================== */

/* ==== Pitched linear memory ===================================================
 *
 * Linear device memory laid out in rows (cudaMallocPitch, cudaMalloc3D),
 * the 2D copies and fills over any pitch, and the older array copies that
 * take a byte count (cudaMemcpyToArray, cudaMemcpyFromArray: deprecated
 * by NVIDIA, still exported); the driver's cuMemAllocPitch, cuMemcpy2D
 * and cuMemsetD2D8 underneath (src/runtime/memory.c, array.c). */

#if defined(__CUDART_API_PER_THREAD_DEFAULT_STREAM)
#define cudaMemcpy2D                __CUDART_API_PTDS(cudaMemcpy2D)
#define cudaMemcpyToArray           __CUDART_API_PTDS(cudaMemcpyToArray)
#define cudaMemcpyFromArray         __CUDART_API_PTDS(cudaMemcpyFromArray)
#define cudaMemcpyArrayToArray      __CUDART_API_PTDS(cudaMemcpyArrayToArray)
#define cudaMemset2D                __CUDART_API_PTDS(cudaMemset2D)
#define cudaMemset3D                __CUDART_API_PTDS(cudaMemset3D)
#define cudaMemcpy2DAsync           __CUDART_API_PTSZ(cudaMemcpy2DAsync)
#define cudaMemcpyToArrayAsync      __CUDART_API_PTSZ(cudaMemcpyToArrayAsync)
#define cudaMemcpy2DToArrayAsync    __CUDART_API_PTSZ(cudaMemcpy2DToArrayAsync)
#define cudaMemcpyFromArrayAsync    __CUDART_API_PTSZ(cudaMemcpyFromArrayAsync)
#define cudaMemcpy2DFromArrayAsync  __CUDART_API_PTSZ(cudaMemcpy2DFromArrayAsync)
#define cudaMemset2DAsync           __CUDART_API_PTSZ(cudaMemset2DAsync)
#define cudaMemset3DAsync           __CUDART_API_PTSZ(cudaMemset3DAsync)
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/* Rows of width bytes each pitch apart, pitch a multiple of
 * cudaDevAttrTexturePitchAlignment, so the memory can back a pitched
 * texture. */
extern cudaError_t CUDARTAPI cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
extern cudaError_t CUDARTAPI cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent);
extern cudaError_t CUDARTAPI cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                         size_t width, size_t height, enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                              size_t width, size_t height, enum cudaMemcpyKind kind,
                                              cudaStream_t stream CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                     const void *src, size_t spitch, size_t width,
                                                     size_t height, enum cudaMemcpyKind kind,
                                                     cudaStream_t stream CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src,
                                                       size_t wOffset, size_t hOffset, size_t width,
                                                       size_t height, enum cudaMemcpyKind kind,
                                                       cudaStream_t stream CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
extern cudaError_t CUDARTAPI cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                                              size_t height, cudaStream_t stream CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent);
extern cudaError_t CUDARTAPI cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value,
                                              struct cudaExtent extent, cudaStream_t stream CUVK_RT_DEFAULT(0));
/* Deprecated by NVIDIA: count bytes from (wOffset bytes, hOffset rows),
 * running on across rows of the array. */
extern cudaError_t CUDARTAPI cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                              size_t count, enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                   const void *src, size_t count, enum cudaMemcpyKind kind,
                                                   cudaStream_t stream CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset,
                                                size_t hOffset, size_t count, enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset,
                                                     size_t hOffset, size_t count, enum cudaMemcpyKind kind,
                                                     cudaStream_t stream CUVK_RT_DEFAULT(0));
/* Deprecated by NVIDIA: count bytes from one array to another, each side
 * running on across its own rows. */
extern cudaError_t CUDARTAPI cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                   cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                   size_t count,
                                                   enum cudaMemcpyKind kind CUVK_RT_DEFAULT(cudaMemcpyDeviceToDevice));

#if defined(__CUDA_API_VERSION_INTERNAL)
#undef cudaMemcpy2D
#undef cudaMemcpyToArray
#undef cudaMemcpyFromArray
#undef cudaMemcpyArrayToArray
#undef cudaMemset2D
#undef cudaMemset3D
#undef cudaMemcpy2DAsync
#undef cudaMemcpyToArrayAsync
#undef cudaMemcpy2DToArrayAsync
#undef cudaMemcpyFromArrayAsync
#undef cudaMemcpy2DFromArrayAsync
#undef cudaMemset2DAsync
#undef cudaMemset3DAsync

extern cudaError_t CUDARTAPI cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                         size_t width, size_t height, enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                              size_t width, size_t height, enum cudaMemcpyKind kind,
                                              cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                     const void *src, size_t spitch, size_t width,
                                                     size_t height, enum cudaMemcpyKind kind, cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src,
                                                       size_t wOffset, size_t hOffset, size_t width,
                                                       size_t height, enum cudaMemcpyKind kind,
                                                       cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
extern cudaError_t CUDARTAPI cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                                              size_t height, cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent);
extern cudaError_t CUDARTAPI cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value,
                                              struct cudaExtent extent, cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                              size_t count, enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                   const void *src, size_t count, enum cudaMemcpyKind kind,
                                                   cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset,
                                                size_t hOffset, size_t count, enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset,
                                                     size_t hOffset, size_t count, enum cudaMemcpyKind kind,
                                                     cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                   cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                   size_t count, enum cudaMemcpyKind kind);
#endif

#if defined(__cplusplus)
}
#endif

/* ==== End of pitched linear memory ============================================ */

/* ==== Kernels =================================================================
 *
 * Kernels a program built with nvcc registered at start-up
 * (src/runtime/registration.c): func is the kernel's host stub (the
 * address of the __global__ function in host code) or a cudaKernel_t;
 * symbol is the host address of a __device__ or __constant__ variable. */

#if defined(__CUDART_API_PER_THREAD_DEFAULT_STREAM)
#define cudaLaunchKernel            __CUDART_API_PTSZ(cudaLaunchKernel)
#define cudaLaunchKernelExC         __CUDART_API_PTSZ(cudaLaunchKernelExC)
#define cudaMemcpyToSymbol          __CUDART_API_PTDS(cudaMemcpyToSymbol)
#define cudaMemcpyFromSymbol        __CUDART_API_PTDS(cudaMemcpyFromSymbol)
#define cudaMemcpyToSymbolAsync     __CUDART_API_PTSZ(cudaMemcpyToSymbolAsync)
#define cudaMemcpyFromSymbolAsync   __CUDART_API_PTSZ(cudaMemcpyFromSymbolAsync)
#endif

#if defined(__cplusplus)
extern "C" {
#endif

extern cudaError_t CUDARTAPI cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                             size_t sharedMem, cudaStream_t stream);
/* The launch attributes are cuLaunchKernelEx's (api-coverage.md says which
 * are honoured).  NVIDIA's C++ template cudaLaunchKernelEx, which takes
 * the kernel's arguments by value, comes with nvcc's cuda_runtime.h and
 * calls this. */
extern cudaError_t CUDARTAPI cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
                                                void **args);
extern cudaError_t CUDARTAPI cudaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset,
                                                 size_t *paramSize);
extern cudaError_t CUDARTAPI cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr);
extern cudaError_t CUDARTAPI cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr);
extern cudaError_t CUDARTAPI cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
extern cudaError_t CUDARTAPI cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
extern cudaError_t CUDARTAPI cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
extern cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                                          int blockSize,
                                                                          size_t dynamicSMemSize);
extern cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
   int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize, unsigned int flags);
extern cudaError_t CUDARTAPI cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
                                                                      const void *func, int numBlocks,
                                                                      int blockSize);
extern cudaError_t CUDARTAPI cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                               size_t offset CUVK_RT_DEFAULT(0),
                                               enum cudaMemcpyKind kind
                                                  CUVK_RT_DEFAULT(cudaMemcpyHostToDevice));
extern cudaError_t CUDARTAPI cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                                 size_t offset CUVK_RT_DEFAULT(0),
                                                 enum cudaMemcpyKind kind
                                                    CUVK_RT_DEFAULT(cudaMemcpyDeviceToHost));
extern cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                                    size_t offset, enum cudaMemcpyKind kind,
                                                    cudaStream_t stream CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                                      size_t offset, enum cudaMemcpyKind kind,
                                                      cudaStream_t stream CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaGetSymbolAddress(void **devPtr, const void *symbol);
extern cudaError_t CUDARTAPI cudaGetSymbolSize(size_t *size, const void *symbol);

#if defined(__CUDA_API_VERSION_INTERNAL)
#undef cudaLaunchKernel
#undef cudaLaunchKernelExC
#undef cudaMemcpyToSymbol
#undef cudaMemcpyFromSymbol
#undef cudaMemcpyToSymbolAsync
#undef cudaMemcpyFromSymbolAsync

extern cudaError_t CUDARTAPI cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                             size_t sharedMem, cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
                                                void **args);
extern cudaError_t CUDARTAPI cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                               size_t offset, enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                                 size_t offset, enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                                    size_t offset, enum cudaMemcpyKind kind,
                                                    cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                                      size_t offset, enum cudaMemcpyKind kind,
                                                      cudaStream_t stream);
#endif

#if defined(__cplusplus)
}
#endif

/* ==== End of kernels ========================================================== */

/* ==== Graphs and stream capture ===============================================
 *
 * A graph is built node by node (cudaGraphAdd*Node) or captured from the
 * work a program queues on a stream between cudaStreamBeginCapture and
 * cudaStreamEndCapture, then instantiated once and launched any number of
 * times.  The handles are the driver API's CUgraph, CUgraphNode and
 * CUgraphExec, and every call here is its driver twin
 * (src/runtime/graph.c); a kernel node names its kernel by host stub, as
 * cudaLaunchKernel does. */

#if defined(__CUDART_API_PER_THREAD_DEFAULT_STREAM)
#define cudaGraphLaunch             __CUDART_API_PTSZ(cudaGraphLaunch)
#define cudaStreamBeginCapture      __CUDART_API_PTSZ(cudaStreamBeginCapture)
#define cudaStreamEndCapture        __CUDART_API_PTSZ(cudaStreamEndCapture)
#define cudaStreamGetCaptureInfo    __CUDART_API_PTSZ(cudaStreamGetCaptureInfo)
#define cudaStreamIsCapturing       __CUDART_API_PTSZ(cudaStreamIsCapturing)
#endif

#if defined(__cplusplus)
extern "C" {
#endif

extern cudaError_t CUDARTAPI cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
extern cudaError_t CUDARTAPI cudaGraphDestroy(cudaGraph_t graph);
extern cudaError_t CUDARTAPI cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                   const struct cudaKernelNodeParams *pNodeParams);
extern cudaError_t CUDARTAPI cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                   const struct cudaMemcpy3DParms *pCopyParams);
extern cudaError_t CUDARTAPI cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                   const struct cudaMemsetParams *pMemsetParams);
extern cudaError_t CUDARTAPI cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                 const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                 const struct cudaHostNodeParams *pNodeParams);
extern cudaError_t CUDARTAPI cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                  const cudaGraphNode_t *pDependencies, size_t numDependencies);
extern cudaError_t CUDARTAPI cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                        const cudaGraphNode_t *pDependencies,
                                                        size_t numDependencies, cudaEvent_t event);
extern cudaError_t CUDARTAPI cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                      const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                      cudaEvent_t event);
/* Edges from[i] -> to[i]; edgeData may be NULL (plain dependencies). */
extern cudaError_t CUDARTAPI cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                     const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                                     size_t numDependencies);
extern cudaError_t CUDARTAPI cudaGraphDestroyNode(cudaGraphNode_t node);
/* The queries: with a NULL array, the count; else up to *count entries
 * (the rest of a longer array NULL) and the count written back. */
extern cudaError_t CUDARTAPI cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes);
extern cudaError_t CUDARTAPI cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes,
                                                  size_t *pNumRootNodes);
extern cudaError_t CUDARTAPI cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                              cudaGraphEdgeData *edgeData, size_t *numEdges);
extern cudaError_t CUDARTAPI cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                                         cudaGraphEdgeData *edgeData, size_t *pNumDependencies);
extern cudaError_t CUDARTAPI cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                                                           cudaGraphEdgeData *edgeData,
                                                           size_t *pNumDependentNodes);
extern cudaError_t CUDARTAPI cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType);
extern cudaError_t CUDARTAPI cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *pNodeParams);
extern cudaError_t CUDARTAPI cudaGraphHostNodeGetParams(cudaGraphNode_t node,
                                                       struct cudaHostNodeParams *pNodeParams);
extern cudaError_t CUDARTAPI cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out);
extern cudaError_t CUDARTAPI cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out);
/* CUDA 13: both take the cudaGraphInstantiateFlags. */
extern cudaError_t CUDARTAPI cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                 unsigned long long flags CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                          unsigned long long flags CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaGraphExecDestroy(cudaGraphExec_t graphExec);

extern cudaError_t CUDARTAPI cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
extern cudaError_t CUDARTAPI cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
extern cudaError_t CUDARTAPI cudaStreamIsCapturing(cudaStream_t stream,
                                                  enum cudaStreamCaptureStatus *pCaptureStatus);
/* Every output but the status may be NULL; the dependencies (and their
 * edge data) stay valid until the next call on the stream. */
extern cudaError_t CUDARTAPI cudaStreamGetCaptureInfo(cudaStream_t stream,
                                                     enum cudaStreamCaptureStatus *captureStatus_out,
                                                     unsigned long long *id_out CUVK_RT_DEFAULT(0),
                                                     cudaGraph_t *graph_out CUVK_RT_DEFAULT(0),
                                                     const cudaGraphNode_t **dependencies_out CUVK_RT_DEFAULT(0),
                                                     const cudaGraphEdgeData **edgeData_out CUVK_RT_DEFAULT(0),
                                                     size_t *numDependencies_out CUVK_RT_DEFAULT(0));
extern cudaError_t CUDARTAPI cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode);

#if defined(__CUDA_API_VERSION_INTERNAL)
#undef cudaGraphLaunch
#undef cudaStreamBeginCapture
#undef cudaStreamEndCapture
#undef cudaStreamGetCaptureInfo
#undef cudaStreamIsCapturing

extern cudaError_t CUDARTAPI cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
extern cudaError_t CUDARTAPI cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
extern cudaError_t CUDARTAPI cudaStreamIsCapturing(cudaStream_t stream,
                                                  enum cudaStreamCaptureStatus *pCaptureStatus);
extern cudaError_t CUDARTAPI cudaStreamGetCaptureInfo(cudaStream_t stream,
                                                     enum cudaStreamCaptureStatus *captureStatus_out,
                                                     unsigned long long *id_out, cudaGraph_t *graph_out,
                                                     const cudaGraphNode_t **dependencies_out,
                                                     const cudaGraphEdgeData **edgeData_out,
                                                     size_t *numDependencies_out);
#endif

#if defined(__cplusplus)
}
#endif

/* ==== End of graphs and stream capture ======================================== */

#undef CUVK_RT_DEFAULT

#endif
