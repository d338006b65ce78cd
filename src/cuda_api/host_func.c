/*
 * cuLaunchHostFunc and cuStreamAddCallback: a host function in stream
 * order.  It runs on the context's host queue thread (host_queue.h) once
 * everything recorded before it has completed, and work recorded after it
 * waits on the GPU for the gate value the thread signals when the
 * function returns.  The calling thread never blocks.
 */
#include <stdlib.h>

#include "cuda_api/graph.h"
#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuda_api/host_queue.h"
#include "util/error.h"
#include "util/log.h"

struct host_call {
   CUhostFn fn;                 /* cuLaunchHostFunc, or */
   CUstreamCallback callback;   /* cuStreamAddCallback */
   CUstream hstream;            /* as the caller passed it */
   void *user_data;
};

static void
host_call_run(void *data, bool abandoned)
{
   struct host_call *call = data;

   /* Abandoned: the context is being destroyed while the work before the
    * function can never finish; running it now would break the order. */
   if (abandoned)
      cuvk_logw("host function %p dropped: the context was destroyed before its stream reached it",
                call->fn ? (void *)call->fn : (void *)call->callback);
   else if (call->fn)
      call->fn(call->user_data);
   else
      call->callback(call->hstream, CUDA_SUCCESS, call->user_data);
   free(call);
}

static CUresult
host_call_enqueue(CUstream hstream, struct host_call *call, const char *entry)
{
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   CUresult res = cuvk_stream_lookup_any(hstream, entry, &ctx, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   /* A host function is captured as a host node; a stream callback,
    * which gets the stream and a status, has no node to become. */
   if (cuvk_stream_capturing(stream)) {
      if (!call->fn)
         return cuvk_capture_refuse(stream, entry);
      const CUDA_HOST_NODE_PARAMS node = { .fn = call->fn, .userData = call->user_data };
      return cuvk_capture_add(stream, CU_GRAPH_NODE_TYPE_HOST, cuvk_graph_init_host, &node, entry);
   }

   struct cuvk_host_op *op = calloc(1, sizeof(*op));
   struct host_call *data = malloc(sizeof(*data));
   if (!op || !data) {
      free(op);
      free(data);
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
   }
   *data = *call;
   op->fn = host_call_run;
   op->data = data;

   pthread_mutex_lock(&ctx->lock);
   /* The stream's work so far must reach the GPU for the function to
    * run after it. */
   res = cuvk_submit_mark(ctx, stream, true);
   if (res != CUDA_SUCCESS)
      goto fail;
   op->after = stream->last_value;
   /* Once queued, the op belongs to the host queue's thread, which may
    * run and free it before the push returns: keep its gate value here. */
   uint64_t gate_value = op->gate = cuvk_host_queue_next_gate(ctx);
   res = cuvk_host_queue_push(ctx, op);
   if (res != CUDA_SUCCESS) {
      /* The gate value is taken: release it for the GPU. */
      VkSemaphoreSignalInfo sig = {
         .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
         .semaphore = ctx->host_queue.gate,
         .value = gate_value,
      };
      vkSignalSemaphore(ctx->vk, &sig);
      goto fail;
   }
   struct cuvk_submit_sem gate = { ctx->host_queue.gate, gate_value };
   res = cuvk_submit_semaphores(ctx, stream, &gate, 1, NULL, 0);
   pthread_mutex_unlock(&ctx->lock);
   return res;

fail:
   pthread_mutex_unlock(&ctx->lock);
   free(op);
   free(data);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuLaunchHostFunc(CUstream hstream, CUhostFn fn, void *user_data)
{
   CUresult res = cuvk_driver_check("cuLaunchHostFunc");
   if (res != CUDA_SUCCESS)
      return res;
   if (!fn)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuLaunchHostFunc: fn is NULL");
   struct host_call call = { .fn = fn, .hstream = hstream, .user_data = user_data };
   return host_call_enqueue(hstream, &call, "cuLaunchHostFunc");
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamAddCallback(CUstream hstream, CUstreamCallback callback, void *user_data, unsigned int flags)
{
   CUresult res = cuvk_driver_check("cuStreamAddCallback");
   if (res != CUDA_SUCCESS)
      return res;
   if (!callback)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuStreamAddCallback: callback is NULL");
   if (flags != 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuStreamAddCallback: flags must be 0, got 0x%x", flags);
   struct host_call call = { .callback = callback, .hstream = hstream, .user_data = user_data };
   return host_call_enqueue(hstream, &call, "cuStreamAddCallback");
}
