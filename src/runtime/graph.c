/*
 * Runtime graphs and stream capture: the driver's (src/cuda_api/graph.h),
 * with the runtime's implicit context and result codes.
 *
 * A cudaGraph_t, cudaGraphNode_t and cudaGraphExec_t are the driver's
 * CUgraph, CUgraphNode and CUgraphExec (the same struct tags), and the
 * edge data, host node parameters and the enums share the driver's
 * layouts and numbers (checked below), so most calls pass straight
 * through.  What the runtime describes differently is converted here: a
 * kernel node names its kernel by host stub (or cudaKernel_t), which
 * becomes the CUfunction loaded in the calling thread's context, as
 * cudaLaunchKernel does; a memcpy node is a cudaMemcpy3DParms, converted
 * as cudaMemcpy3D converts it (cuvk_rt_memcpy3d_desc); a memset node has
 * a pointer for its destination.  Copy and fill nodes run in the context
 * current when they were added.
 *
 * Stream capture needs nothing of its own here: the runtime's stream
 * calls (cudaMemcpyAsync, cudaMemsetAsync, cudaLaunchKernel and <<<...>>>,
 * cudaLaunchHostFunc, cudaEventRecord, cudaStreamWaitEvent) are the
 * driver's, which record into the capture.
 */
#include "runtime/runtime.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/macros.h"

_Static_assert(sizeof(cudaGraphEdgeData) == sizeof(CUgraphEdgeData) &&
                  offsetof(cudaGraphEdgeData, type) == offsetof(CUgraphEdgeData, type) &&
                  offsetof(cudaGraphEdgeData, reserved) == offsetof(CUgraphEdgeData, reserved),
               "edge data layout");
_Static_assert(sizeof(struct cudaHostNodeParams) == sizeof(CUDA_HOST_NODE_PARAMS) &&
                  offsetof(struct cudaHostNodeParams, userData) == offsetof(CUDA_HOST_NODE_PARAMS, userData),
               "host node layout");
_Static_assert((int)cudaGraphNodeTypeKernel == (int)CU_GRAPH_NODE_TYPE_KERNEL &&
                  (int)cudaGraphNodeTypeMemcpy == (int)CU_GRAPH_NODE_TYPE_MEMCPY &&
                  (int)cudaGraphNodeTypeMemset == (int)CU_GRAPH_NODE_TYPE_MEMSET &&
                  (int)cudaGraphNodeTypeHost == (int)CU_GRAPH_NODE_TYPE_HOST &&
                  (int)cudaGraphNodeTypeGraph == (int)CU_GRAPH_NODE_TYPE_GRAPH &&
                  (int)cudaGraphNodeTypeEmpty == (int)CU_GRAPH_NODE_TYPE_EMPTY &&
                  (int)cudaGraphNodeTypeWaitEvent == (int)CU_GRAPH_NODE_TYPE_WAIT_EVENT &&
                  (int)cudaGraphNodeTypeEventRecord == (int)CU_GRAPH_NODE_TYPE_EVENT_RECORD &&
                  (int)cudaGraphNodeTypeExtSemaphoreSignal == (int)CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL &&
                  (int)cudaGraphNodeTypeExtSemaphoreWait == (int)CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT &&
                  (int)cudaGraphNodeTypeMemAlloc == (int)CU_GRAPH_NODE_TYPE_MEM_ALLOC &&
                  (int)cudaGraphNodeTypeMemFree == (int)CU_GRAPH_NODE_TYPE_MEM_FREE &&
                  (int)cudaGraphNodeTypeConditional == (int)CU_GRAPH_NODE_TYPE_CONDITIONAL,
               "node type numbers");
_Static_assert((int)cudaStreamCaptureStatusNone == (int)CU_STREAM_CAPTURE_STATUS_NONE &&
                  (int)cudaStreamCaptureStatusActive == (int)CU_STREAM_CAPTURE_STATUS_ACTIVE &&
                  (int)cudaStreamCaptureStatusInvalidated == (int)CU_STREAM_CAPTURE_STATUS_INVALIDATED,
               "capture status numbers");
_Static_assert((int)cudaStreamCaptureModeGlobal == (int)CU_STREAM_CAPTURE_MODE_GLOBAL &&
                  (int)cudaStreamCaptureModeThreadLocal == (int)CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
                  (int)cudaStreamCaptureModeRelaxed == (int)CU_STREAM_CAPTURE_MODE_RELAXED,
               "capture mode numbers");
_Static_assert((int)cudaGraphInstantiateFlagAutoFreeOnLaunch ==
                     (int)CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH &&
                  (int)cudaGraphInstantiateFlagUpload == (int)CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD &&
                  (int)cudaGraphInstantiateFlagDeviceLaunch == (int)CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH &&
                  (int)cudaGraphInstantiateFlagUseNodePriority ==
                     (int)CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY,
               "instantiate flags");

/* Every call starts as stream.c's do: the calling thread's context made
 * current, or the reason it cannot be. */
#define RT_CONTEXT()                                                           \
   do {                                                                        \
      cudaError_t ctx_err_ = cuvk_rt_context();                                \
      if (ctx_err_ != cudaSuccess)                                             \
         return cuvk_rt_return(ctx_err_);                                      \
   } while (0)

/* The context copy and fill nodes run in: the calling thread's. */
static cudaError_t
rt_current_context(const char *entry, CUcontext *ctx)
{
   CUresult res = cuCtxGetCurrent(ctx);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_from_cu(res);
   if (!*ctx)
      return cuvk_rt_error(cudaErrorDeviceUninitialized, "%s: no current context", entry);
   return cudaSuccess;
}

/* ---- Graphs and their nodes ---- */

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuGraphCreate(pGraph, flags));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphDestroy(cudaGraph_t graph)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuGraphDestroy(graph));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                       size_t numDependencies, const struct cudaKernelNodeParams *pNodeParams)
{
   static const char entry[] = "cudaGraphAddKernelNode";
   RT_CONTEXT();
   if (!pNodeParams)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "%s: pNodeParams is NULL", entry));

   /* The kernel is loaded in this thread's context now, as a launch
    * would load it, and its configuration checked as a launch checks it. */
   CUfunction f;
   cudaError_t err = cuvk_rt_function(pNodeParams->func, entry, &f);
   if (err == cudaSuccess)
      err = cuvk_rt_launch_check(f, pNodeParams->gridDim, pNodeParams->blockDim, pNodeParams->sharedMemBytes,
                                 entry);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);

   CUDA_KERNEL_NODE_PARAMS p;
   memset(&p, 0, sizeof(p));
   p.func = f;
   p.gridDimX = pNodeParams->gridDim.x;
   p.gridDimY = pNodeParams->gridDim.y;
   p.gridDimZ = pNodeParams->gridDim.z;
   p.blockDimX = pNodeParams->blockDim.x;
   p.blockDimY = pNodeParams->blockDim.y;
   p.blockDimZ = pNodeParams->blockDim.z;
   p.sharedMemBytes = pNodeParams->sharedMemBytes;
   p.kernelParams = pNodeParams->kernelParams;
   p.extra = pNodeParams->extra;
   return cuvk_rt_return_cu(cuGraphAddKernelNode_v2(pGraphNode, graph, pDependencies, numDependencies, &p));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                       size_t numDependencies, const struct cudaMemcpy3DParms *pCopyParams)
{
   static const char entry[] = "cudaGraphAddMemcpyNode";
   RT_CONTEXT();
   CUDA_MEMCPY3D copy;
   CUcontext ctx;
   cudaError_t err = cuvk_rt_memcpy3d_desc(pCopyParams, entry, &copy);
   if (err == cudaSuccess)
      err = rt_current_context(entry, &ctx);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &copy, ctx));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                       size_t numDependencies, const struct cudaMemsetParams *pMemsetParams)
{
   static const char entry[] = "cudaGraphAddMemsetNode";
   RT_CONTEXT();
   if (!pMemsetParams)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "%s: pMemsetParams is NULL", entry));
   CUcontext ctx;
   cudaError_t err = rt_current_context(entry, &ctx);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   CUDA_MEMSET_NODE_PARAMS p;
   memset(&p, 0, sizeof(p));
   p.dst = (CUdeviceptr)(uintptr_t)pMemsetParams->dst;
   p.pitch = pMemsetParams->pitch;
   p.value = pMemsetParams->value;
   p.elementSize = pMemsetParams->elementSize;
   p.width = pMemsetParams->width;
   p.height = pMemsetParams->height;
   return cuvk_rt_return_cu(cuGraphAddMemsetNode(pGraphNode, graph, pDependencies, numDependencies, &p, ctx));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                     size_t numDependencies, const struct cudaHostNodeParams *pNodeParams)
{
   RT_CONTEXT();
   /* The same two pointers as CUDA_HOST_NODE_PARAMS (asserted above). */
   return cuvk_rt_return_cu(cuGraphAddHostNode(pGraphNode, graph, pDependencies, numDependencies,
                                               (const CUDA_HOST_NODE_PARAMS *)pNodeParams));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                      size_t numDependencies)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuGraphAddEmptyNode(pGraphNode, graph, pDependencies, numDependencies));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                            size_t numDependencies, cudaEvent_t event)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuGraphAddEventRecordNode(pGraphNode, graph, pDependencies, numDependencies, event));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                          size_t numDependencies, cudaEvent_t event)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuGraphAddEventWaitNode(pGraphNode, graph, pDependencies, numDependencies, event));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                         const cudaGraphEdgeData *edgeData, size_t numDependencies)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuGraphAddDependencies_v2(graph, from, to, (const CUgraphEdgeData *)edgeData,
                                                      numDependencies));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphDestroyNode(cudaGraphNode_t node)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuGraphDestroyNode(node));
}

/* ---- Queries ---- */

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuGraphGetNodes(graph, nodes, numNodes));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes, size_t *pNumRootNodes)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuGraphGetRootNodes(graph, pRootNodes, pNumRootNodes));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to, cudaGraphEdgeData *edgeData,
                  size_t *numEdges)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuGraphGetEdges_v2(graph, from, to, (CUgraphEdgeData *)edgeData, numEdges));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies, cudaGraphEdgeData *edgeData,
                             size_t *pNumDependencies)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuGraphNodeGetDependencies_v2(node, pDependencies, (CUgraphEdgeData *)edgeData,
                                                          pNumDependencies));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes, cudaGraphEdgeData *edgeData,
                               size_t *pNumDependentNodes)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuGraphNodeGetDependentNodes_v2(node, pDependentNodes, (CUgraphEdgeData *)edgeData,
                                                            pNumDependentNodes));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType)
{
   RT_CONTEXT();
   if (!pType)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaGraphNodeGetType: pType is NULL"));
   CUgraphNodeType type;
   CUresult res = cuGraphNodeGetType(node, &type);
   if (res == CUDA_SUCCESS)
      *pType = (enum cudaGraphNodeType)type;
   return cuvk_rt_return_cu(res);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *pNodeParams)
{
   RT_CONTEXT();
   if (!pNodeParams)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue,
                                          "cudaGraphMemsetNodeGetParams: pNodeParams is NULL"));
   CUDA_MEMSET_NODE_PARAMS p;
   CUresult res = cuGraphMemsetNodeGetParams(node, &p);
   if (res == CUDA_SUCCESS) {
      pNodeParams->dst = (void *)(uintptr_t)p.dst;
      pNodeParams->pitch = p.pitch;
      pNodeParams->value = p.value;
      pNodeParams->elementSize = p.elementSize;
      pNodeParams->width = p.width;
      pNodeParams->height = p.height;
   }
   return cuvk_rt_return_cu(res);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *pNodeParams)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuGraphHostNodeGetParams(node, (CUDA_HOST_NODE_PARAMS *)pNodeParams));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuGraphEventRecordNodeGetEvent(node, event_out));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuGraphEventWaitNodeGetEvent(node, event_out));
}

/* ---- Executable graphs ---- */

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
   RT_CONTEXT();
   /* CUDA 13's cudaGraphInstantiate is cudaGraphInstantiateWithFlags. */
   return cuvk_rt_return_cu(cuGraphInstantiateWithFlags(pGraphExec, graph, flags));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuGraphInstantiateWithFlags(pGraphExec, graph, flags));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuGraphLaunch(graphExec, stream));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuGraphExecDestroy(graphExec));
}

/* ---- Stream capture ---- */

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuStreamBeginCapture_v2(stream, (CUstreamCaptureMode)mode));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
   RT_CONTEXT();
   return cuvk_rt_return_cu(cuStreamEndCapture(stream, pGraph));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
   RT_CONTEXT();
   if (!pCaptureStatus)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaStreamIsCapturing: pCaptureStatus is NULL"));
   CUstreamCaptureStatus status;
   CUresult res = cuStreamIsCapturing(stream, &status);
   if (res == CUDA_SUCCESS)
      *pCaptureStatus = (enum cudaStreamCaptureStatus)status;
   return cuvk_rt_return_cu(res);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                         unsigned long long *id_out, cudaGraph_t *graph_out,
                         const cudaGraphNode_t **dependencies_out, const cudaGraphEdgeData **edgeData_out,
                         size_t *numDependencies_out)
{
   RT_CONTEXT();
   if (!captureStatus_out)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue,
                                          "cudaStreamGetCaptureInfo: captureStatus_out is NULL"));
   /* The id is a cuuint64_t (unsigned long here) in the driver, and the
    * status an enum of the driver's: taken apart, then written back. */
   CUstreamCaptureStatus status;
   cuuint64_t id = 0;
   CUresult res = cuStreamGetCaptureInfo_v3(stream, &status, id_out ? &id : NULL, graph_out, dependencies_out,
                                            (const CUgraphEdgeData **)edgeData_out, numDependencies_out);
   if (res == CUDA_SUCCESS) {
      *captureStatus_out = (enum cudaStreamCaptureStatus)status;
      if (id_out)
         *id_out = id;
   }
   return cuvk_rt_return_cu(res);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
   RT_CONTEXT();
   if (!mode)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue,
                                          "cudaThreadExchangeStreamCaptureMode: mode is NULL"));
   CUstreamCaptureMode m = (CUstreamCaptureMode)*mode;
   CUresult res = cuThreadExchangeStreamCaptureMode(&m);
   if (res == CUDA_SUCCESS)
      *mode = (enum cudaStreamCaptureMode)m;
   return cuvk_rt_return_cu(res);
}

/* Per-thread default stream forms: NULL on a _ptsz call is the thread's
 * stream. */

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
   return cudaGraphLaunch(graphExec, stream ? stream : cudaStreamPerThread);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamBeginCapture_ptsz(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
   return cudaStreamBeginCapture(stream ? stream : cudaStreamPerThread, mode);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph)
{
   return cudaStreamEndCapture(stream ? stream : cudaStreamPerThread, pGraph);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamIsCapturing_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
   return cudaStreamIsCapturing(stream ? stream : cudaStreamPerThread, pCaptureStatus);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                              unsigned long long *id_out, cudaGraph_t *graph_out,
                              const cudaGraphNode_t **dependencies_out, const cudaGraphEdgeData **edgeData_out,
                              size_t *numDependencies_out)
{
   return cudaStreamGetCaptureInfo(stream ? stream : cudaStreamPerThread, captureStatus_out, id_out, graph_out,
                                   dependencies_out, edgeData_out, numDependencies_out);
}
