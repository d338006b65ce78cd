/*
 * Events: a timeline value ("done when") and, unless timing is disabled, a
 * timestamp query written in submission order.
 */
#include <stdlib.h>
#include <string.h>

#include "cuda_api/graph.h"
#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "util/error.h"
#include "util/macros.h"

#define EVENT_FLAGS (CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS)
/* Kept in the flags word, above every flag CUDA defines. */
#define EVENT_RECORDED (1u << 31)

/* Takes a free timestamp query, creating a pool when all are in use;
 * ctx lock held. */
static CUresult
query_alloc(struct cuvk_context *ctx, struct cuvk_query_pool **out, uint32_t *query)
{
   cuvk_list_for_each_entry(struct cuvk_query_pool, qp, &ctx->query_pools, link) {
      for (uint32_t w = 0; w < CUVK_ARRAY_SIZE(qp->used); w++) {
         if (qp->used[w] != UINT32_MAX) {
            uint32_t bit = (uint32_t)__builtin_ctz(~qp->used[w]);
            qp->used[w] |= 1u << bit;
            *out = qp;
            *query = w * 32 + bit;
            return CUDA_SUCCESS;
         }
      }
   }

   struct cuvk_query_pool *qp = calloc(1, sizeof(*qp));
   if (!qp)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for a query pool");
   VkQueryPoolCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
      .queryType = VK_QUERY_TYPE_TIMESTAMP,
      .queryCount = CUVK_QUERY_POOL_SIZE,
   };
   VkResult vr = vkCreateQueryPool(ctx->vk, &info, NULL, &qp->pool);
   if (vr != VK_SUCCESS) {
      free(qp);
      return cuvk_vk_error(vr, "vkCreateQueryPool");
   }
   cuvk_list_add(&qp->link, &ctx->query_pools);
   qp->used[0] = 1;
   *out = qp;
   *query = 0;
   return CUDA_SUCCESS;
}

/* What the context knows of the event goes; ctx lock held. */
static void
event_forget_locked(struct cuvk_event *event)
{
   cuvk_list_del(&event->link);
   /* The query may still be written by in-flight work; it is only reused
    * after a reset that is ordered after that work. */
   if (event->qpool)
      event->qpool->used[event->query / 32] &= ~(1u << (event->query % 32));
   cuvk_capture_event_gone(event);
}

/* The last reference is gone: after cuEventDestroy, once no call that
 * found the event live is still using it. */
static void
event_free(struct cuvk_object *obj)
{
   struct cuvk_event *event = cuvk_container_of(obj, struct cuvk_event, base);
   struct cuvk_context *ctx = event->ctx;
   pthread_mutex_lock(&ctx->lock);
   event_forget_locked(event);
   pthread_mutex_unlock(&ctx->lock);
   free(event);
}

void
cuvk_event_destroy_locked(struct cuvk_event *event)
{
   cuvk_object_remove(&event->base);
   event_forget_locked(event);
   free(event);
}

bool
cuvk_event_recorded(struct cuvk_event *event, uint64_t *value)
{
   /* cuEventRecord may be rewriting both on another thread: read them
    * under the lock it writes them under (issue 15 found them read bare,
    * a data race). */
   pthread_mutex_lock(&event->ctx->lock);
   bool recorded = event->flags & EVENT_RECORDED;
   *value = event->value;
   pthread_mutex_unlock(&event->ctx->lock);
   return recorded;
}

CUresult
cuvk_event_get(CUevent hevent, const char *entry, struct cuvk_event **out)
{
   CUresult res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_object *obj = cuvk_object_get(hevent, CUVK_OBJECT_EVENT);
   if (!obj)
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "%s: %p is not a live event", entry, (void *)hevent);
   *out = cuvk_container_of(obj, struct cuvk_event, base);
   return CUDA_SUCCESS;
}

void
cuvk_event_put(struct cuvk_event *event)
{
   if (event)
      cuvk_object_put(&event->base);
}

CUVK_EXPORT CUresult CUDAAPI
cuEventCreate(CUevent *phevent, unsigned int flags)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_current("cuEventCreate", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!phevent)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuEventCreate: phEvent is NULL");
   struct cuvk_event *event;
   res = cuvk_event_create(ctx, flags, &event);
   if (res == CUDA_SUCCESS)
      *phevent = (CUevent)event;
   return res;
}

CUresult
cuvk_event_create(struct cuvk_context *ctx, unsigned flags, struct cuvk_event **out)
{
   struct cuvk_event *event = NULL;
   CUresult res;
   if (flags & ~EVENT_FLAGS)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuEventCreate: unknown flags 0x%x", flags & ~EVENT_FLAGS);
   if ((flags & CU_EVENT_INTERPROCESS) && !(flags & CU_EVENT_DISABLE_TIMING))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuEventCreate: INTERPROCESS needs DISABLE_TIMING");
   if (flags & CU_EVENT_INTERPROCESS)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "cuEventCreate: interprocess events are not supported by cuvk");

   event = calloc(1, sizeof(*event));
   if (!event)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuEventCreate: out of host memory");
   event->ctx = ctx;
   event->flags = flags;

   pthread_mutex_lock(&ctx->lock);
   if (!(flags & CU_EVENT_DISABLE_TIMING)) {
      res = query_alloc(ctx, &event->qpool, &event->query);
      if (res != CUDA_SUCCESS) {
         pthread_mutex_unlock(&ctx->lock);
         free(event);
         return res;
      }
   }
   cuvk_list_addtail(&event->link, &ctx->events);
   pthread_mutex_unlock(&ctx->lock);
   cuvk_object_add_in(&event->base, CUVK_OBJECT_EVENT, event_free, &ctx->base);
   *out = event;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuEventRecord(CUevent hevent, CUstream hstream)
{
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   struct cuvk_event *event = NULL;
   CUresult res = cuvk_event_get(hevent, "cuEventRecord", &event);
   if (res != CUDA_SUCCESS)
      return res;
   res = cuvk_stream_lookup_any(hstream, "cuEventRecord", &ctx, &stream);
   if (res == CUDA_SUCCESS && event->ctx != ctx)
      res = cuvk_error(CUDA_ERROR_INVALID_HANDLE,
                       "cuEventRecord: the event and the stream belong to different contexts");
   if (res != CUDA_SUCCESS) {
      cuvk_event_put(event);
      return res;
   }
   /* In a capture the event only stands for the stream's place in the
    * graph; its own state is untouched. */
   if (cuvk_stream_capturing(stream)) {
      res = cuvk_capture_event_record(stream, event, "cuEventRecord");
      cuvk_event_put(event);
      return res;
   }
   cuvk_capture_event_gone(event);

   pthread_mutex_lock(&ctx->lock);
   if (event->qpool) {
      VkCommandBuffer cmd;
      uint64_t value;
      res = cuvk_submit_record(ctx, stream, &cmd, &value);
      if (res == CUDA_SUCCESS) {
         vkCmdResetQueryPool(cmd, event->qpool->pool, event->query, 1);
         vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, event->qpool->pool, event->query);
         event->value = value;
         stream->last_value = value;
         res = cuvk_submit_commit(ctx);
      }
   } else {
      /* The stream's work so far, with what it is ordered after, is
       * what the event waits for; a point of 0 (nothing ever recorded)
       * is complete from the start. */
      res = cuvk_submit_mark(ctx, stream, false);
      event->value = stream->last_value;
   }
   if (res == CUDA_SUCCESS)
      event->flags |= EVENT_RECORDED;
   pthread_mutex_unlock(&ctx->lock);
   cuvk_event_put(event);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuEventQuery(CUevent hevent)
{
   struct cuvk_event *event = NULL;
   uint64_t value;
   bool done;
   CUresult res = cuvk_event_get(hevent, "cuEventQuery", &event);
   if (res != CUDA_SUCCESS)
      return res;
   if (cuvk_event_recorded(event, &value)) {
      res = cuvk_submit_is_done(event->ctx, value, &done);
      if (res == CUDA_SUCCESS && !done)
         res = CUDA_ERROR_NOT_READY;
   }
   cuvk_event_put(event);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuEventSynchronize(CUevent hevent)
{
   struct cuvk_event *event = NULL;
   uint64_t value;
   CUresult res = cuvk_event_get(hevent, "cuEventSynchronize", &event);
   if (res != CUDA_SUCCESS)
      return res;
   if (cuvk_event_recorded(event, &value))
      res = cuvk_submit_wait(event->ctx, value);
   cuvk_event_put(event);
   return res;
}

static CUresult
event_timestamp(struct cuvk_event *event, uint64_t *ticks, const char *entry)
{
   struct cuvk_context *ctx = event->ctx;
   VkResult vr = vkGetQueryPoolResults(ctx->vk, event->qpool->pool, event->query, 1, sizeof(*ticks),
                                       ticks, sizeof(*ticks), VK_QUERY_RESULT_64_BIT);
   if (vr == VK_NOT_READY)
      return CUDA_ERROR_NOT_READY;
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, entry);
   uint32_t bits = ctx->dev->timestamp_valid_bits;
   if (bits < 64)
      *ticks &= (1ull << bits) - 1;
   return CUDA_SUCCESS;
}

static CUresult
elapsed_time(struct cuvk_event *start, struct cuvk_event *end, float *ms, const char *entry)
{
   CUresult res;
   bool done;

   if (!start->qpool || !end->qpool)
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "%s: an event was created with DISABLE_TIMING", entry);
   uint64_t values[2];
   bool start_recorded = cuvk_event_recorded(start, &values[0]);
   bool end_recorded = cuvk_event_recorded(end, &values[1]);
   if (!start_recorded || !end_recorded)
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "%s: an event has not been recorded", entry);
   if (start->ctx != end->ctx)
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "%s: the events belong to different contexts", entry);

   for (int i = 0; i < 2; i++) {
      res = cuvk_submit_is_done(start->ctx, values[i], &done);
      if (res != CUDA_SUCCESS)
         return res;
      if (!done)
         return CUDA_ERROR_NOT_READY;
   }

   uint64_t t0, t1;
   res = event_timestamp(start, &t0, entry);
   if (res == CUDA_SUCCESS)
      res = event_timestamp(end, &t1, entry);
   if (res != CUDA_SUCCESS)
      return res;
   double ns = ((double)t1 - (double)t0) * start->ctx->dev->props.limits.timestampPeriod;
   *ms = (float)(ns / 1e6);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuEventElapsedTime_v2(float *ms, CUevent hstart, CUevent hend)
{
   const char *entry = "cuEventElapsedTime";
   struct cuvk_event *start = NULL, *end = NULL;
   CUresult res;

   if (!ms)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: pMilliseconds is NULL", entry);
   res = cuvk_event_get(hstart, entry, &start);
   if (res == CUDA_SUCCESS)
      res = cuvk_event_get(hend, entry, &end);
   if (res == CUDA_SUCCESS)
      res = elapsed_time(start, end, ms, entry);
   cuvk_event_put(end);
   cuvk_event_put(start);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuEventDestroy_v2(CUevent hevent)
{
   struct cuvk_event *event = NULL;
   CUresult res = cuvk_event_get(hevent, "cuEventDestroy", &event);
   if (res != CUDA_SUCCESS)
      return res;
   /* Later lookups fail from here; the event itself goes with the last
    * reference, once calls that found it live are done with it. */
   if (!cuvk_object_release(&event->base))
      res = cuvk_error(CUDA_ERROR_INVALID_HANDLE, "cuEventDestroy: %p was destroyed meanwhile", (void *)hevent);
   cuvk_event_put(event);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuEventRecordWithFlags(CUevent hevent, CUstream hstream, unsigned int flags)
{
   if (flags & ~(unsigned)CU_EVENT_RECORD_EXTERNAL)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuEventRecordWithFlags: unknown flags 0x%x",
                        flags & ~(unsigned)CU_EVENT_RECORD_EXTERNAL);
   if (!(flags & CU_EVENT_RECORD_EXTERNAL))
      return cuEventRecord(hevent, hstream);
   /* EXTERNAL only means something while a stream is being captured: an
    * event-record node.  Outside a capture NVIDIA's driver refuses it
    * (measured). */
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   CUresult res = cuvk_stream_lookup_any(hstream, "cuEventRecordWithFlags", &ctx, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   if (!cuvk_stream_capturing(stream))
      return cuvk_error(CUDA_ERROR_ILLEGAL_STATE,
                        "cuEventRecordWithFlags: CU_EVENT_RECORD_EXTERNAL outside a stream capture");
   if (!cuvk_object_is(hevent, CUVK_OBJECT_EVENT))
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "cuEventRecordWithFlags: %p is not a live event",
                        (void *)hevent);
   return cuvk_capture_add(stream, CU_GRAPH_NODE_TYPE_EVENT_RECORD, cuvk_graph_init_event, hevent,
                           "cuEventRecordWithFlags");
}
