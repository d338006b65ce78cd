/*
 * The other names NVIDIA's ABI has for cuvk's calls.
 *
 * Per-thread default stream forms (_ptds, _ptsz): a program built with
 * CUDA_API_PER_THREAD_DEFAULT_STREAM calls these.  The _ptsz forms pass
 * the calling thread's per-thread stream (stream_per_thread.c) where the
 * program passes 0.  The synchronous _ptds forms forward to the legacy
 * ones: work on the legacy stream follows every blocking stream's, this
 * thread's per-thread stream included, and the call returns when it is
 * done, so the order CUDA gives holds (with more waiting than CUDA's,
 * which would not wait for other threads' per-thread streams).
 *
 * Legacy plain names: programs built against headers older than the
 * versioned names call these.  Those with the current signature forward;
 * those that pass device addresses as 32-bit integers (CUDA before 3.2)
 * cannot name cuvk's 64-bit addresses and return CUDA_ERROR_NOT_SUPPORTED,
 * a gap docs/api-coverage.md lists.
 */
#include <stdio.h>
#include <string.h>

#include <cuda.h>

#include "util/error.h"
#include "util/macros.h"

/* NULL in a _ptsz call means the calling thread's default stream. */
static CUstream
ptsz(CUstream stream)
{
   return stream ? stream : CU_STREAM_PER_THREAD;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyHtoD_v2_ptds(CUdeviceptr dst, const void *src, size_t n)
{
   return cuMemcpyHtoD_v2(dst, src, n);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyDtoH_v2_ptds(void *dst, CUdeviceptr src, size_t n)
{
   return cuMemcpyDtoH_v2(dst, src, n);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyDtoD_v2_ptds(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
   return cuMemcpyDtoD_v2(dst, src, n);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
   return cuMemcpy(dst, src, n);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD8_v2_ptds(CUdeviceptr dst, unsigned char v, size_t n)
{
   return cuMemsetD8_v2(dst, v, n);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD16_v2_ptds(CUdeviceptr dst, unsigned short v, size_t n)
{
   return cuMemsetD16_v2(dst, v, n);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD32_v2_ptds(CUdeviceptr dst, unsigned int v, size_t n)
{
   return cuMemsetD32_v2(dst, v, n);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD2D8_v2_ptds(CUdeviceptr dst, size_t pitch, unsigned char v, size_t w, size_t h)
{
   return cuMemsetD2D8_v2(dst, pitch, v, w, h);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD2D16_v2_ptds(CUdeviceptr dst, size_t pitch, unsigned short v, size_t w, size_t h)
{
   return cuMemsetD2D16_v2(dst, pitch, v, w, h);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD2D32_v2_ptds(CUdeviceptr dst, size_t pitch, unsigned int v, size_t w, size_t h)
{
   return cuMemsetD2D32_v2(dst, pitch, v, w, h);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dst, const void *src, size_t n, CUstream s)
{
   return cuMemcpyHtoDAsync_v2(dst, src, n, ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyDtoHAsync_v2_ptsz(void *dst, CUdeviceptr src, size_t n, CUstream s)
{
   return cuMemcpyDtoHAsync_v2(dst, src, n, ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
   return cuMemcpyDtoDAsync_v2(dst, src, n, ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
   return cuMemcpyAsync(dst, src, n, ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD8Async_ptsz(CUdeviceptr dst, unsigned char v, size_t n, CUstream s)
{
   return cuMemsetD8Async(dst, v, n, ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD16Async_ptsz(CUdeviceptr dst, unsigned short v, size_t n, CUstream s)
{
   return cuMemsetD16Async(dst, v, n, ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD32Async_ptsz(CUdeviceptr dst, unsigned int v, size_t n, CUstream s)
{
   return cuMemsetD32Async(dst, v, n, ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD2D8Async_ptsz(CUdeviceptr dst, size_t pitch, unsigned char v, size_t w, size_t h, CUstream s)
{
   return cuMemsetD2D8Async(dst, pitch, v, w, h, ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD2D16Async_ptsz(CUdeviceptr dst, size_t pitch, unsigned short v, size_t w, size_t h, CUstream s)
{
   return cuMemsetD2D16Async(dst, pitch, v, w, h, ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD2D32Async_ptsz(CUdeviceptr dst, size_t pitch, unsigned int v, size_t w, size_t h, CUstream s)
{
   return cuMemsetD2D32Async(dst, pitch, v, w, h, ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamAddCallback_ptsz(CUstream s, CUstreamCallback callback, void *data, unsigned int flags)
{
   return cuStreamAddCallback(ptsz(s), callback, data, flags);
}

CUVK_EXPORT CUresult CUDAAPI
cuLaunchHostFunc_ptsz(CUstream s, CUhostFn fn, void *data)
{
   return cuLaunchHostFunc(ptsz(s), fn, data);
}

CUVK_EXPORT CUresult CUDAAPI
cuSignalExternalSemaphoresAsync_ptsz(const CUexternalSemaphore *sems,
                                     const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *params, unsigned int n,
                                     CUstream s)
{
   return cuSignalExternalSemaphoresAsync(sems, params, n, ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuWaitExternalSemaphoresAsync_ptsz(const CUexternalSemaphore *sems,
                                   const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *params, unsigned int n,
                                   CUstream s)
{
   return cuWaitExternalSemaphoresAsync(sems, params, n, ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamQuery_ptsz(CUstream s)
{
   return cuStreamQuery(ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamSynchronize_ptsz(CUstream s)
{
   return cuStreamSynchronize(ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamWaitEvent_ptsz(CUstream s, CUevent e, unsigned int flags)
{
   return cuStreamWaitEvent(ptsz(s), e, flags);
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamGetFlags_ptsz(CUstream s, unsigned int *flags)
{
   return cuStreamGetFlags(ptsz(s), flags);
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamGetPriority_ptsz(CUstream s, int *priority)
{
   return cuStreamGetPriority(ptsz(s), priority);
}

CUVK_EXPORT CUresult CUDAAPI
cuEventRecord_ptsz(CUevent e, CUstream s)
{
   return cuEventRecord(e, ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuEventRecordWithFlags_ptsz(CUevent e, CUstream s, unsigned int flags)
{
   return cuEventRecordWithFlags(e, ptsz(s), flags);
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamGetCtx_ptsz(CUstream s, CUcontext *pctx)
{
   return cuStreamGetCtx(ptsz(s), pctx);
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamGetCtx_v2_ptsz(CUstream s, CUcontext *pctx, CUgreenCtx *pgreen)
{
   return cuStreamGetCtx_v2(ptsz(s), pctx, pgreen);
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamGetId_ptsz(CUstream s, unsigned long long *id)
{
   return cuStreamGetId(ptsz(s), id);
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamGetDevice_ptsz(CUstream s, CUdevice *device)
{
   return cuStreamGetDevice(ptsz(s), device);
}

CUVK_EXPORT CUresult CUDAAPI
cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
   return cuDeviceGetUuid_v2(uuid, dev);
}

CUVK_EXPORT CUresult CUDAAPI
cuDevicePrimaryCtxRelease(CUdevice dev)
{
   return cuDevicePrimaryCtxRelease_v2(dev);
}

CUVK_EXPORT CUresult CUDAAPI
cuDevicePrimaryCtxReset(CUdevice dev)
{
   return cuDevicePrimaryCtxReset_v2(dev);
}

CUVK_EXPORT CUresult CUDAAPI
cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
   return cuDevicePrimaryCtxSetFlags_v2(dev, flags);
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
   return cuCtxCreate_v2(pctx, flags, dev);
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxDestroy(CUcontext ctx)
{
   return cuCtxDestroy_v2(ctx);
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxPushCurrent(CUcontext ctx)
{
   return cuCtxPushCurrent_v2(ctx);
}

CUVK_EXPORT CUresult CUDAAPI
cuCtxPopCurrent(CUcontext *pctx)
{
   return cuCtxPopCurrent_v2(pctx);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemHostRegister(void *p, size_t bytesize, unsigned int flags)
{
   return cuMemHostRegister_v2(p, bytesize, flags);
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamDestroy(CUstream s)
{
   return cuStreamDestroy_v2(s);
}

CUVK_EXPORT CUresult CUDAAPI
cuEventDestroy(CUevent e)
{
   return cuEventDestroy_v2(e);
}

CUVK_EXPORT CUresult CUDAAPI
cuEventElapsedTime(float *ms, CUevent start, CUevent end)
{
   return cuEventElapsedTime_v2(ms, start, end);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemAllocHost(void **pp, unsigned int bytesize)
{
   return cuMemAllocHost_v2(pp, bytesize);
}

CUVK_EXPORT CUresult CUDAAPI
cuDeviceTotalMem(unsigned int *bytes, CUdevice dev)
{
   size_t total = 0;
   CUresult res;

   if (!bytes)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceTotalMem: bytes is NULL");
   res = cuDeviceTotalMem_v2(&total, dev);
   if (res == CUDA_SUCCESS)
      *bytes = total > UINT32_MAX ? UINT32_MAX : (unsigned int)total;
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemGetInfo(unsigned int *free_bytes, unsigned int *total_bytes)
{
   size_t f = 0, t = 0;
   CUresult res;

   if (!free_bytes || !total_bytes)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemGetInfo: NULL output");
   res = cuMemGetInfo_v2(&f, &t);
   if (res == CUDA_SUCCESS) {
      *free_bytes = f > UINT32_MAX ? UINT32_MAX : (unsigned int)f;
      *total_bytes = t > UINT32_MAX ? UINT32_MAX : (unsigned int)t;
   }
   return res;
}

static CUresult
legacy_32bit(const char *entry)
{
   return cuvk_error(CUDA_ERROR_NOT_SUPPORTED,
                     "%s: the 32-bit device-address ABI of CUDA before 3.2 is not supported; "
                     "rebuild against a current cuda.h", entry);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemAlloc(CUdeviceptr_v1 *dptr, unsigned int bytesize)
{
   return legacy_32bit("cuMemAlloc");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemAllocPitch(CUdeviceptr_v1 *dptr, unsigned int *pitch, unsigned int width, unsigned int height, unsigned int elem)
{
   return legacy_32bit("cuMemAllocPitch");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemFree(CUdeviceptr_v1 dptr)
{
   return legacy_32bit("cuMemFree");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemGetAddressRange(CUdeviceptr_v1 *pbase, unsigned int *psize, CUdeviceptr_v1 dptr)
{
   return legacy_32bit("cuMemGetAddressRange");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemHostGetDevicePointer(CUdeviceptr_v1 *pdptr, void *p, unsigned int flags)
{
   return legacy_32bit("cuMemHostGetDevicePointer");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyHtoD(CUdeviceptr_v1 dst, const void *src, unsigned int n)
{
   return legacy_32bit("cuMemcpyHtoD");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyDtoH(void *dst, CUdeviceptr_v1 src, unsigned int n)
{
   return legacy_32bit("cuMemcpyDtoH");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyDtoD(CUdeviceptr_v1 dst, CUdeviceptr_v1 src, unsigned int n)
{
   return legacy_32bit("cuMemcpyDtoD");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyHtoDAsync(CUdeviceptr_v1 dst, const void *src, unsigned int n, CUstream s)
{
   return legacy_32bit("cuMemcpyHtoDAsync");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyDtoHAsync(void *dst, CUdeviceptr_v1 src, unsigned int n, CUstream s)
{
   return legacy_32bit("cuMemcpyDtoHAsync");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemcpyDtoDAsync(CUdeviceptr_v1 dst, CUdeviceptr_v1 src, unsigned int n, CUstream s)
{
   return legacy_32bit("cuMemcpyDtoDAsync");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD8(CUdeviceptr_v1 dst, unsigned char v, unsigned int n)
{
   return legacy_32bit("cuMemsetD8");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD16(CUdeviceptr_v1 dst, unsigned short v, unsigned int n)
{
   return legacy_32bit("cuMemsetD16");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD32(CUdeviceptr_v1 dst, unsigned int v, unsigned int n)
{
   return legacy_32bit("cuMemsetD32");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD2D8(CUdeviceptr_v1 dst, unsigned int pitch, unsigned char v, unsigned int w, unsigned int h)
{
   return legacy_32bit("cuMemsetD2D8");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD2D16(CUdeviceptr_v1 dst, unsigned int pitch, unsigned short v, unsigned int w, unsigned int h)
{
   return legacy_32bit("cuMemsetD2D16");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemsetD2D32(CUdeviceptr_v1 dst, unsigned int pitch, unsigned int v, unsigned int w, unsigned int h)
{
   return legacy_32bit("cuMemsetD2D32");
}

CUVK_EXPORT CUresult CUDAAPI
cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUstream s)
{
   return cuMemAllocAsync(dptr, bytesize, ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream s)
{
   return cuMemFreeAsync(dptr, ptsz(s));
}

CUVK_EXPORT CUresult CUDAAPI
cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream s)
{
   return cuMemAllocFromPoolAsync(dptr, bytesize, pool, ptsz(s));
}

/* ---- Graphs and stream capture ---- */

CUVK_EXPORT CUresult CUDAAPI
cuStreamBeginCapture_v2_ptsz(CUstream hStream, CUstreamCaptureMode mode)
{
   return cuStreamBeginCapture_v2(ptsz(hStream), mode);
}

/* CUDA 10.0's form, before capture modes: a global capture. */
CUVK_EXPORT CUresult CUDAAPI
cuStreamBeginCapture(CUstream hStream)
{
   return cuStreamBeginCapture_v2(hStream, CU_STREAM_CAPTURE_MODE_GLOBAL);
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamBeginCapture_ptsz(CUstream hStream)
{
   return cuStreamBeginCapture_v2(ptsz(hStream), CU_STREAM_CAPTURE_MODE_GLOBAL);
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamEndCapture_ptsz(CUstream hStream, CUgraph *phGraph)
{
   return cuStreamEndCapture(ptsz(hStream), phGraph);
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamIsCapturing_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus)
{
   return cuStreamIsCapturing(ptsz(hStream), captureStatus);
}

/* The capture info before the graph and dependencies (10.1), and before
 * edge data (11.3). */
CUVK_EXPORT CUresult CUDAAPI
cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out)
{
   return cuStreamGetCaptureInfo_v3(hStream, captureStatus_out, id_out, NULL, NULL, NULL, NULL);
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamGetCaptureInfo_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out)
{
   return cuStreamGetCaptureInfo_v3(ptsz(hStream), captureStatus_out, id_out, NULL, NULL, NULL, NULL);
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out,
                          CUgraph *graph_out, const CUgraphNode **dependencies_out, size_t *numDependencies_out)
{
   return cuStreamGetCaptureInfo_v3(hStream, captureStatus_out, id_out, graph_out, dependencies_out, NULL,
                                    numDependencies_out);
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamGetCaptureInfo_v2_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out,
                               CUgraph *graph_out, const CUgraphNode **dependencies_out,
                               size_t *numDependencies_out)
{
   return cuStreamGetCaptureInfo_v3(ptsz(hStream), captureStatus_out, id_out, graph_out, dependencies_out, NULL,
                                    numDependencies_out);
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamGetCaptureInfo_v3_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out,
                               CUgraph *graph_out, const CUgraphNode **dependencies_out,
                               const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
   return cuStreamGetCaptureInfo_v3(ptsz(hStream), captureStatus_out, id_out, graph_out, dependencies_out,
                                    edgeData_out, numDependencies_out);
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
   return cuGraphLaunch(hGraphExec, ptsz(hStream));
}

/* The CUDA 10 and 11 instantiation: no flags, an error node (cuvk's
 * checks name none) and a log that gets the error's name. */
static CUresult
graph_instantiate_logged(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode, char *logBuffer,
                         size_t bufferSize)
{
   if (phErrorNode)
      *phErrorNode = NULL;
   CUresult res = cuGraphInstantiateWithFlags(phGraphExec, hGraph, 0);
   if (logBuffer && bufferSize) {
      const char *name = NULL;
      if (res != CUDA_SUCCESS)
         cuGetErrorName(res, &name);
      snprintf(logBuffer, bufferSize, "%s", name ? name : "");
   }
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphInstantiate(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode, char *logBuffer,
                   size_t bufferSize)
{
   return graph_instantiate_logged(phGraphExec, hGraph, phErrorNode, logBuffer, bufferSize);
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphInstantiate_v2(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode, char *logBuffer,
                      size_t bufferSize)
{
   return graph_instantiate_logged(phGraphExec, hGraph, phErrorNode, logBuffer, bufferSize);
}

/* The kernel node before CUDA 12's CUkernel and context. */
CUVK_EXPORT CUresult CUDAAPI
cuGraphAddKernelNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                     size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
   if (!nodeParams)
      return cuGraphAddKernelNode_v2(phGraphNode, hGraph, dependencies, numDependencies, NULL);
   CUDA_KERNEL_NODE_PARAMS p = { 0 };
   memcpy(&p, nodeParams, sizeof(*nodeParams));
   return cuGraphAddKernelNode_v2(phGraphNode, hGraph, dependencies, numDependencies, &p);
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphKernelNodeGetParams(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
   CUDA_KERNEL_NODE_PARAMS p;
   CUresult res = cuGraphKernelNodeGetParams_v2(hNode, nodeParams ? &p : NULL);
   if (res == CUDA_SUCCESS)
      memcpy(nodeParams, &p, sizeof(*nodeParams));
   return res;
}

/* The edge calls before CUDA 12.3's edge data: plain edges only. */
CUVK_EXPORT CUresult CUDAAPI
cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to, size_t numDependencies)
{
   return cuGraphAddDependencies_v2(hGraph, from, to, NULL, numDependencies);
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphGetEdges(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, size_t *numEdges)
{
   return cuGraphGetEdges_v2(hGraph, from, to, NULL, numEdges);
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphNodeGetDependencies(CUgraphNode hNode, CUgraphNode *dependencies, size_t *numDependencies)
{
   return cuGraphNodeGetDependencies_v2(hNode, dependencies, NULL, numDependencies);
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphNodeGetDependentNodes(CUgraphNode hNode, CUgraphNode *dependentNodes, size_t *numDependentNodes)
{
   return cuGraphNodeGetDependentNodes_v2(hNode, dependentNodes, NULL, numDependentNodes);
}
