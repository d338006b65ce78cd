/*
 * Runtime streams and events: the driver's, with the runtime's implicit
 * context and result codes.  A cudaStream_t is a CUstream and a
 * cudaEvent_t a CUevent, including the special streams (0,
 * cudaStreamLegacy, cudaStreamPerThread), so handles pass straight through.
 */
#include "runtime/runtime.h"

#include <stdlib.h>

#include "util/macros.h"

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   /* cudaStreamNonBlocking is CU_STREAM_NON_BLOCKING; priorities are
    * clamped into range by the driver, as CUDA does. */
   return cuvk_rt_return_cu(cuStreamCreateWithPriority(pStream, flags, priority));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
   return cudaStreamCreateWithPriority(pStream, flags, 0);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamCreate(cudaStream_t *pStream)
{
   return cudaStreamCreateWithPriority(pStream, cudaStreamDefault, 0);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuStreamGetPriority(hStream, priority));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuStreamGetFlags(hStream, flags));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamDestroy(cudaStream_t stream)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuStreamDestroy_v2(stream));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamSynchronize(cudaStream_t stream)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuStreamSynchronize(stream));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamQuery(cudaStream_t stream)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   /* cudaErrorNotReady comes back but is not recorded as an error. */
   return cuvk_rt_return_cu(cuStreamQuery(stream));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   /* cudaEventWaitExternal only means something while the stream
    * captures a graph (an event wait node); real CUDA answers it so
    * outside a capture. */
   if (flags == cudaEventWaitExternal) {
      CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
      CUresult res = cuStreamIsCapturing(stream, &status);
      if (res != CUDA_SUCCESS)
         return cuvk_rt_return_cu(res);
      if (status == CU_STREAM_CAPTURE_STATUS_NONE)
         return cuvk_rt_return(cuvk_rt_error(cudaErrorIllegalState,
                                             "cudaStreamWaitEvent: cudaEventWaitExternal outside a stream capture"));
      return cuvk_rt_return_cu(cuStreamWaitEvent(stream, event, CU_EVENT_WAIT_EXTERNAL));
   }
   if (flags != cudaEventWaitDefault)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaStreamWaitEvent: unknown flags 0x%x",
                                          flags));
   return cuvk_rt_return_cu(cuStreamWaitEvent(stream, event, 0));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   /* The runtime's event flags are the driver's CU_EVENT_* bits. */
   return cuvk_rt_return_cu(cuEventCreate(event, flags));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaEventCreate(cudaEvent_t *event)
{
   return cudaEventCreateWithFlags(event, cudaEventDefault);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuEventRecord(event, stream));
}

/* cudaEventRecordExternal is CU_EVENT_RECORD_EXTERNAL: an event-record
 * node in a capture, refused outside one, as the driver's. */
CUVK_EXPORT cudaError_t CUDARTAPI
cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuEventRecordWithFlags(event, stream, flags));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaEventQuery(cudaEvent_t event)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuEventQuery(event));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaEventSynchronize(cudaEvent_t event)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuEventSynchronize(event));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuEventElapsedTime_v2(ms, start, end));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaEventDestroy(cudaEvent_t event)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuEventDestroy_v2(event));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuLaunchHostFunc(stream, (CUhostFn)fn, userData));
}

/* The runtime's callback takes a cudaError_t: a trampoline translates. */
struct rt_callback {
   cudaStreamCallback_t callback;
   void *user_data;
};

static void CUDA_CB
rt_callback_run(CUstream stream, CUresult status, void *data)
{
   struct rt_callback call = *(struct rt_callback *)data;
   free(data);
   call.callback(stream, cuvk_rt_from_cu(status), call.user_data);
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData, unsigned int flags)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   if (!callback)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaStreamAddCallback: callback is NULL"));
   if (flags != 0)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue,
                                          "cudaStreamAddCallback: flags must be 0, got 0x%x", flags));
   struct rt_callback *call = malloc(sizeof(*call));
   if (!call)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorMemoryAllocation, "cudaStreamAddCallback: out of host memory"));
   call->callback = callback;
   call->user_data = userData;
   CUresult res = cuStreamAddCallback(stream, rt_callback_run, call, 0);
   if (res != CUDA_SUCCESS)
      free(call);
   return cuvk_rt_return_cu(res);
}
