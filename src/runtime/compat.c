/*
 * The per-thread default stream symbols of the runtime API: what a program
 * built with CUDA_API_PER_THREAD_DEFAULT_STREAM calls.  In them the
 * default stream (0) means the calling thread's own default stream,
 * cudaStreamPerThread, a stream of its own per thread and context
 * (src/cuda_api/stream_per_thread.c); these only forward.  The
 * synchronous _ptds forms run on the legacy stream, as
 * src/cuda_api/compat.c explains.
 */
#include "runtime/runtime.h"

#include "util/macros.h"

static cudaStream_t
rt_ptsz(cudaStream_t stream)
{
   return stream ? stream : cudaStreamPerThread;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
   return cudaMemcpy(dst, src, count, kind);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemset_ptds(void *devPtr, int value, size_t count)
{
   return cudaMemset(devPtr, value, count);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                     cudaStream_t stream)
{
   return cudaMemcpyAsync(dst, src, count, kind, rt_ptsz(stream));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream)
{
   return cudaMemsetAsync(devPtr, value, count, rt_ptsz(stream));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamQuery_ptsz(cudaStream_t stream)
{
   return cudaStreamQuery(rt_ptsz(stream));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags)
{
   return cudaStreamGetFlags(rt_ptsz(hStream), flags);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority)
{
   return cudaStreamGetPriority(rt_ptsz(hStream), priority);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
   return cudaEventRecord(event, rt_ptsz(stream));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
   return cudaEventRecordWithFlags(event, rt_ptsz(stream), flags);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
   return cudaStreamWaitEvent(rt_ptsz(stream), event, flags);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
   return cudaStreamSynchronize(rt_ptsz(stream));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                           unsigned int flags)
{
   return cudaStreamAddCallback(rt_ptsz(stream), callback, userData, flags);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
   return cudaLaunchHostFunc(rt_ptsz(stream), fn, userData);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaSignalExternalSemaphoresAsync_ptsz(const cudaExternalSemaphore_t *extSemArray,
                                       const struct cudaExternalSemaphoreSignalParams *paramsArray,
                                       unsigned int numExtSems, cudaStream_t stream)
{
   return cudaSignalExternalSemaphoresAsync(extSemArray, paramsArray, numExtSems, rt_ptsz(stream));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaWaitExternalSemaphoresAsync_ptsz(const cudaExternalSemaphore_t *extSemArray,
                                     const struct cudaExternalSemaphoreWaitParams *paramsArray,
                                     unsigned int numExtSems, cudaStream_t stream)
{
   return cudaWaitExternalSemaphoresAsync(extSemArray, paramsArray, numExtSems, rt_ptsz(stream));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream)
{
   return cudaMallocAsync(devPtr, size, rt_ptsz(hStream));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream)
{
   return cudaFreeAsync(devPtr, rt_ptsz(hStream));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
   return cudaMallocFromPoolAsync(ptr, size, memPool, rt_ptsz(stream));
}
