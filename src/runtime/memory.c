/*
 * Runtime memory: allocations, pinned and registered host memory, copies,
 * fills and pointer attributes, forwarded to the driver API.
 *
 * Where the runtime's rules differ from the driver's they follow what real
 * CUDA 13 does (measured on an H200, driver 580): a size of 0 allocates
 * nothing and succeeds with NULL, and a copy or fill of 0 bytes succeeds
 * whatever its pointers.
 */
#include "runtime/runtime.h"

#include <stdint.h>
#include <string.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuda_api/memory.h"
#include "util/macros.h"

#define RT_HOSTALLOC_FLAGS (cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined)

static CUdeviceptr
rt_dptr(const void *p)
{
   return (CUdeviceptr)(uintptr_t)p;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMalloc(void **devPtr, size_t size)
{
   CUdeviceptr dptr;
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   if (!devPtr)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaMalloc: devPtr is NULL"));
   if (size == 0) {
      *devPtr = NULL;
      return cudaSuccess;
   }
   CUresult res = cuMemAlloc_v2(&dptr, size);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_return_cu(res);
   *devPtr = (void *)(uintptr_t)dptr;
   return cudaSuccess;
}

/* Unlike cudaMalloc, a size of 0 is an error here, as CUDA documents. */
CUVK_EXPORT cudaError_t CUDARTAPI
cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
   CUdeviceptr dptr;
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   if (!devPtr)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaMallocManaged: devPtr is NULL"));
   /* cudaMemAttach* are the driver's CU_MEM_ATTACH_* bits. */
   CUresult res = cuMemAllocManaged(&dptr, size, flags);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_return_cu(res);
   *devPtr = (void *)(uintptr_t)dptr;
   return cudaSuccess;
}

/* struct cudaMemLocation and its types, cudaMemoryAdvise and
 * cudaMemRangeAttribute have the driver's layout and values. */
static CUmemLocation
rt_location(struct cudaMemLocation location)
{
   CUmemLocation loc = {.type = (CUmemLocationType)location.type, .id = location.id};
   return loc;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location, unsigned int flags,
                     cudaStream_t stream)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuMemPrefetchAsync_v2(rt_dptr(devPtr), count, rt_location(location), flags, stream));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, struct cudaMemLocation location, unsigned int flags,
                          cudaStream_t stream)
{
   return cudaMemPrefetchAsync(devPtr, count, location, flags, stream ? stream : cudaStreamPerThread);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, struct cudaMemLocation location)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuMemAdvise_v2(rt_dptr(devPtr), count, (CUmem_advise)advice, rt_location(location)));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemRangeGetAttribute(void *data, size_t dataSize, enum cudaMemRangeAttribute attribute, const void *devPtr,
                         size_t count)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuMemRangeGetAttribute(data, dataSize, (CUmem_range_attribute)attribute,
                                                   rt_dptr(devPtr), count));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaFree(void *devPtr)
{
   /* cudaFree(NULL) is the customary way to initialise the runtime. */
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess || !devPtr)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuMemFree_v2(rt_dptr(devPtr)));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   if (!pHost)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaHostAlloc: pHost is NULL"));
   if (flags & ~RT_HOSTALLOC_FLAGS)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaHostAlloc: unknown flags 0x%x",
                                          flags & ~RT_HOSTALLOC_FLAGS));
   if (size == 0) {
      *pHost = NULL;
      return cudaSuccess;
   }
   /* The runtime's flags are the driver's CU_MEMHOSTALLOC_* bits. */
   return cuvk_rt_return_cu(cuMemHostAlloc(pHost, size, flags));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMallocHost(void **ptr, size_t size)
{
   return cudaHostAlloc(ptr, size, cudaHostAllocDefault);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaFreeHost(void *ptr)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess || !ptr)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuMemFreeHost(ptr));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuMemHostRegister_v2(ptr, size, flags));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaHostUnregister(void *ptr)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuMemHostUnregister(ptr));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
   CUdeviceptr dptr;
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   if (!pDevice)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaHostGetDevicePointer: pDevice is NULL"));
   CUresult res = cuMemHostGetDevicePointer_v2(&dptr, pHost, flags);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_return_cu(res);
   *pDevice = (void *)(uintptr_t)dptr;
   return cudaSuccess;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuMemHostGetFlags(pFlags, pHost));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemGetInfo(size_t *free, size_t *total)
{
   size_t free_bytes, total_bytes;
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   /* Either output may be NULL here, unlike cuMemGetInfo. */
   CUresult res = cuMemGetInfo_v2(&free_bytes, &total_bytes);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_return_cu(res);
   if (free)
      *free = free_bytes;
   if (total)
      *total = total_bytes;
   return cudaSuccess;
}

/* True when CUDA knows p: device memory, or pinned or registered host
 * memory (all of which the device can address under unified addressing). */
static bool
rt_is_cuda_memory(const void *p)
{
   struct cuvk_mem_span span;
   return cuvk_mem_resolve((uint64_t)(uintptr_t)p, &span);
}

/*
 * The kind of a copy only constrains it: under unified addressing the
 * pointers say where the memory is.  What real CUDA enforces, and so what
 * cuvk does: a side the kind calls "device" must be memory CUDA knows
 * (device, pinned or registered), else cudaErrorInvalidValue; a "host"
 * side may be anything, device memory included; HostToHost and Default
 * accept any pointers.  A kind outside the enum is
 * cudaErrorInvalidMemcpyDirection.
 */
static cudaError_t
rt_memcpy(const char *entry, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
          cudaStream_t stream, bool async)
{
   if (count == 0)
      return cudaSuccess;
   if ((unsigned)kind > cudaMemcpyDefault)
      return cuvk_rt_error(cudaErrorInvalidMemcpyDirection, "%s: %d is not a cudaMemcpyKind", entry,
                           (int)kind);
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return err;
   if (!dst || !src)
      return cuvk_rt_error(cudaErrorInvalidValue, "%s: %s is NULL", entry, dst ? "src" : "dst");

   bool dst_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
   bool src_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
   if (dst_device && !rt_is_cuda_memory(dst))
      return cuvk_rt_error(cudaErrorInvalidValue,
                           "%s: the kind says dst %p is on the device, but it is pageable host memory",
                           entry, dst);
   if (src_device && !rt_is_cuda_memory(src))
      return cuvk_rt_error(cudaErrorInvalidValue,
                           "%s: the kind says src %p is on the device, but it is pageable host memory",
                           entry, src);

   if (async)
      return cuvk_rt_from_cu(cuMemcpyAsync(rt_dptr(dst), rt_dptr(src), count, stream));
   return cuvk_rt_from_cu(cuMemcpy(rt_dptr(dst), rt_dptr(src), count));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
   return cuvk_rt_return(rt_memcpy("cudaMemcpy", dst, src, count, kind, NULL, false));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                cudaStream_t stream)
{
   return cuvk_rt_return(rt_memcpy("cudaMemcpyAsync", dst, src, count, kind, stream, true));
}

static cudaError_t
rt_memset(void *devPtr, int value, size_t count, cudaStream_t stream, bool async)
{
   if (count == 0)
      return cudaSuccess;
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return err;
   /* The value is converted to unsigned char, as memset does. */
   if (async)
      return cuvk_rt_from_cu(cuMemsetD8Async(rt_dptr(devPtr), (unsigned char)value, count, stream));
   return cuvk_rt_from_cu(cuMemsetD8_v2(rt_dptr(devPtr), (unsigned char)value, count));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemset(void *devPtr, int value, size_t count)
{
   return cuvk_rt_return(rt_memset(devPtr, value, count, NULL, false));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
   return cuvk_rt_return(rt_memset(devPtr, value, count, stream, true));
}

/* ---- Pitched memory ---- */

/*
 * Rows a multiple of cudaDevAttrTexturePitchAlignment apart, from
 * cuMemAllocPitch, so that the memory can back a pitched texture as is.
 * As cudaMalloc with 0 bytes, an allocation with no rows or no bytes in a
 * row succeeds with NULL (and a pitch of 0).
 */
static cudaError_t
malloc_pitch(void **ptr, size_t *pitch, size_t width, size_t height, const char *entry)
{
   CUdeviceptr dptr;
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return err;
   if (!ptr || !pitch)
      return cuvk_rt_error(cudaErrorInvalidValue, "%s: NULL output", entry);
   if (width == 0 || height == 0) {
      *ptr = NULL;
      *pitch = 0;
      return cudaSuccess;
   }
   /* The element size only bounds what the driver may pad to; 4 is the
    * smallest it takes. */
   CUresult res = cuMemAllocPitch_v2(&dptr, pitch, width, height, 4);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_from_cu(res);
   *ptr = (void *)(uintptr_t)dptr;
   return cudaSuccess;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
   return cuvk_rt_return(malloc_pitch(devPtr, pitch, width, height, "cudaMallocPitch"));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
   size_t rows;
   if (!pitchedDevPtr)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaMalloc3D: pitchedDevPtr is NULL"));
   /* One pitched allocation of height * depth rows: slice z starts
    * z * height rows in, as ysize (= height) says. */
   if (__builtin_mul_overflow(extent.height, extent.depth, &rows))
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaMalloc3D: %zu rows x %zu slices overflow",
                                          extent.height, extent.depth));
   struct cudaPitchedPtr p = { NULL, 0, extent.width, extent.height };
   cudaError_t err = malloc_pitch(&p.ptr, &p.pitch, extent.width, rows, "cudaMalloc3D");
   if (err == cudaSuccess)
      *pitchedDevPtr = p;
   return cuvk_rt_return(err);
}

/* The value is converted to unsigned char, as memset does; the driver
 * checks the pitch (which must hold a row once there are two) and the
 * memory. */
static cudaError_t
memset_2d(void *ptr, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream, bool async)
{
   if (width == 0 || height == 0)
      return cudaSuccess;
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return err;
   if (async)
      return cuvk_rt_from_cu(cuMemsetD2D8Async(rt_dptr(ptr), pitch, (unsigned char)value, width, height, stream));
   return cuvk_rt_from_cu(cuMemsetD2D8_v2(rt_dptr(ptr), pitch, (unsigned char)value, width, height));
}

/*
 * A box of extent.depth slices, each extent.height rows of extent.width
 * bytes, slice z at z * pitch * ysize.  Where the box's rows are evenly
 * spaced through all its slices (one slice, or height == ysize) it is a
 * single 2D fill; otherwise one fill per slice, in order on the stream.
 */
static cudaError_t
memset_3d(struct cudaPitchedPtr p, int value, struct cudaExtent e, cudaStream_t stream, bool async,
          const char *entry)
{
   size_t rows, slice;
   if (e.width == 0 || e.height == 0 || e.depth == 0)
      return cudaSuccess;
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return err;
   if (e.height == 1 && e.depth == 1)
      return memset_2d(p.ptr, p.pitch, value, e.width, 1, stream, async);
   if (p.pitch < e.width)
      return cuvk_rt_error(cudaErrorInvalidValue, "%s: pitch %zu is less than the width %zu", entry, p.pitch,
                           e.width);
   if (e.depth > 1 && p.ysize < e.height)
      return cuvk_rt_error(cudaErrorInvalidValue, "%s: slices of %zu rows are less than the height %zu", entry,
                           p.ysize, e.height);
   if (__builtin_mul_overflow(p.pitch, p.ysize, &slice) || __builtin_mul_overflow(e.height, e.depth, &rows))
      return cuvk_rt_error(cudaErrorInvalidValue, "%s: the box overflows", entry);
   if (e.depth == 1 || e.height == p.ysize)
      return memset_2d(p.ptr, p.pitch, value, e.width, rows, stream, async);
   for (size_t z = 0; z < e.depth && err == cudaSuccess; z++)
      err = memset_2d((char *)p.ptr + z * slice, p.pitch, value, e.width, e.height, stream, async);
   return err;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
   return cuvk_rt_return(memset_2d(devPtr, pitch, value, width, height, NULL, false));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream)
{
   return cuvk_rt_return(memset_2d(devPtr, pitch, value, width, height, stream, true));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
   return cuvk_rt_return(memset_3d(pitchedDevPtr, value, extent, NULL, false, "cudaMemset3D"));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent, cudaStream_t stream)
{
   return cuvk_rt_return(memset_3d(pitchedDevPtr, value, extent, stream, true, "cudaMemset3DAsync"));
}

/* Per-thread default stream forms: one submission order per context
 * makes them the same calls (NULL on a _ptsz call is the thread's
 * stream). */

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
   return cudaMemset2D(devPtr, pitch, value, width, height);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream)
{
   return cudaMemset2DAsync(devPtr, pitch, value, width, height, stream ? stream : cudaStreamPerThread);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
   return cudaMemset3D(pitchedDevPtr, value, extent);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                       cudaStream_t stream)
{
   return cudaMemset3DAsync(pitchedDevPtr, value, extent, stream ? stream : cudaStreamPerThread);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
   struct cuvk_mem_span span;

   if (!attributes)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaPointerGetAttributes: attributes is NULL"));
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);

   memset(attributes, 0, sizeof(*attributes));
   if (!cuvk_mem_resolve((uint64_t)(uintptr_t)ptr, &span)) {
      /* Memory CUDA does not know is not an error: it is pageable host
       * memory on no device, which only the host can address. */
      attributes->type = cudaMemoryTypeUnregistered;
      attributes->device = cudaInvalidDeviceId;
      attributes->hostPointer = (void *)ptr;
      return cudaSuccess;
   }

   attributes->device = span.ctx->dev->ordinal;
   attributes->devicePointer = (void *)ptr;
   if (span.kind == CUVK_MEM_MANAGED) {
      attributes->type = cudaMemoryTypeManaged;
      attributes->hostPointer = (void *)ptr;
   } else if (cuvk_mem_kind_is_host(span.kind)) {
      /* Pinned memory is its own device address under unified addressing. */
      attributes->type = cudaMemoryTypeHost;
      attributes->hostPointer = (void *)ptr;
   } else {
      attributes->type = cudaMemoryTypeDevice;
   }
   return cudaSuccess;
}

/* ---- The stream-ordered allocator ---- */

/*
 * On the device's default pool (src/cuda_api/mempool.c).  As with
 * cudaMalloc and cudaFree, a size of 0 gives NULL and freeing NULL does
 * nothing; neither has been measured on CUDA for the async pair.
 */
CUVK_EXPORT cudaError_t CUDARTAPI
cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
   CUdeviceptr dptr;
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   if (!devPtr)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaMallocAsync: devPtr is NULL"));
   if (size == 0) {
      *devPtr = NULL;
      return cudaSuccess;
   }
   CUresult res = cuMemAllocAsync(&dptr, size, hStream);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_return_cu(res);
   *devPtr = (void *)(uintptr_t)dptr;
   return cudaSuccess;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess || !devPtr)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuMemFreeAsync(rt_dptr(devPtr), hStream));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
   cudaError_t err = cuvk_rt_init();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuDeviceGetDefaultMemPool(memPool, device));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
   cudaError_t err = cuvk_rt_init();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuDeviceGetMemPool(memPool, device));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
   cudaError_t err = cuvk_rt_init();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuDeviceSetMemPool(device, memPool));
}

/* The runtime's pool attributes have the driver's numbers and types. */
CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
   cudaError_t err = cuvk_rt_init();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuMemPoolGetAttribute(memPool, (CUmemPool_attribute)attr, value));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
   cudaError_t err = cuvk_rt_init();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuMemPoolSetAttribute(memPool, (CUmemPool_attribute)attr, value));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
   cudaError_t err = cuvk_rt_init();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuMemPoolTrimTo(memPool, minBytesToKeep));
}
