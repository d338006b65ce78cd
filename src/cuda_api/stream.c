/*
 * Streams.  Each stream records on a lane of its context (see submit.h),
 * which carries CUDA's ordering between streams as waits, so a stream
 * only has to remember its lane and the point its last work completes.
 */
#include <stdlib.h>
#include <string.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuda_api/external_semaphore.h"
#include "cuda_api/graph.h"
#include "util/error.h"
#include "util/macros.h"

#define STREAM_FLAGS CU_STREAM_NON_BLOCKING
#define STREAM_PRIORITY_LEAST 0
#define STREAM_PRIORITY_GREATEST (-5)

static bool
stream_is_default(CUstream hstream)
{
   return hstream == NULL || hstream == CU_STREAM_LEGACY || hstream == CU_STREAM_PER_THREAD;
}

/* Stream ids (cuStreamGetId) are unique in the process and never reused,
 * default streams included, as NVIDIA's are. */
static unsigned long long next_stream_id = 1;

unsigned long long
cuvk_stream_next_id(void)
{
   return __atomic_fetch_add(&next_stream_id, 1, __ATOMIC_RELAXED);
}

/* A stream's last reference is gone: cuStreamDestroy (or its context's
 * teardown) took it off its context, and no call holds it any more.
 * Nothing the GPU uses lives in it, so only its memory is left. */
static void
stream_free(struct cuvk_object *obj)
{
   free(cuvk_container_of(obj, struct cuvk_stream, base));
}

/* The live stream hstream names, with a reference (never a default
 * stream: the caller resolves those). */
static struct cuvk_stream *
stream_get(CUstream hstream)
{
   struct cuvk_object *obj = cuvk_object_get(hstream, CUVK_OBJECT_STREAM);
   return obj ? cuvk_container_of(obj, struct cuvk_stream, base) : NULL;
}

/* A default stream of ctx, with a reference: the legacy stream's is one
 * on ctx, the calling thread's per-thread stream's its own (which holds
 * ctx too). */
static CUresult
stream_default(struct cuvk_context *ctx, CUstream hstream, const char *entry, struct cuvk_stream **out)
{
   if (hstream == CU_STREAM_PER_THREAD) {
      struct cuvk_stream *own = NULL;
      CUresult res = cuvk_stream_per_thread(ctx, entry, &own);
      if (res != CUDA_SUCCESS)
         return res;
      *out = stream_get((CUstream)own);
      if (!*out)
         return cuvk_error(CUDA_ERROR_CONTEXT_IS_DESTROYED, "%s: the context's per-thread streams are gone",
                           entry);
      return CUDA_SUCCESS;
   }
   cuvk_context_get(ctx);
   *out = &ctx->null_stream;
   return CUDA_SUCCESS;
}

void
cuvk_stream_put(struct cuvk_stream *stream)
{
   if (!stream)
      return;
   /* A context's default stream is part of the context, not counted:
    * its lookup held the context alone.  Another stream's reference
    * holds its context too (cuvk_object_add_in). */
   if (stream == &stream->ctx->null_stream)
      cuvk_context_put(stream->ctx);
   else
      cuvk_object_put(&stream->base);
}

CUresult
cuvk_stream_lookup_any(CUstream hstream, const char *entry, struct cuvk_context **ctx_out,
                       struct cuvk_stream **out)
{
   struct cuvk_context *ctx = NULL;
   CUresult res;

   if (stream_is_default(hstream)) {
      res = cuvk_context_current(entry, &ctx);
      if (res != CUDA_SUCCESS)
         return res;
      /* The stream's reference holds ctx from here. */
      res = stream_default(ctx, hstream, entry, out);
      cuvk_context_put(ctx);
      if (res == CUDA_SUCCESS)
         *ctx_out = ctx;
      return res;
   }
   res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_stream *stream = stream_get(hstream);
   if (!stream)
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "%s: %p is not a live stream", entry, (void *)hstream);
   *out = stream;
   *ctx_out = stream->ctx;
   return CUDA_SUCCESS;
}

CUresult
cuvk_stream_resolve_any(struct cuvk_context *ctx, CUstream hstream, const char *entry,
                        struct cuvk_stream **out)
{
   if (stream_is_default(hstream))
      return stream_default(ctx, hstream, entry, out);
   struct cuvk_stream *stream = stream_get(hstream);
   if (!stream)
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "%s: %p is not a live stream", entry, (void *)hstream);
   if (stream->ctx != ctx) {
      cuvk_stream_put(stream);
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "%s: stream %p belongs to another context",
                        entry, (void *)hstream);
   }
   *out = stream;
   return CUDA_SUCCESS;
}

/* A lookup that found a capturing stream gives it back and refuses. */
static CUresult
stream_refuse_capturing(CUresult res, const char *entry, struct cuvk_stream **out)
{
   if (res != CUDA_SUCCESS || !cuvk_stream_capturing(*out))
      return res;
   res = cuvk_capture_refuse(*out, entry);
   cuvk_stream_put(*out);
   *out = NULL;
   return res;
}

CUresult
cuvk_stream_lookup(CUstream hstream, const char *entry, struct cuvk_context **ctx_out,
                   struct cuvk_stream **out)
{
   return stream_refuse_capturing(cuvk_stream_lookup_any(hstream, entry, ctx_out, out), entry, out);
}

CUresult
cuvk_stream_resolve(struct cuvk_context *ctx, CUstream hstream, const char *entry,
                    struct cuvk_stream **out)
{
   return stream_refuse_capturing(cuvk_stream_resolve_any(ctx, hstream, entry, out), entry, out);
}

/* Takes the stream off its context and drops the table's reference; a
 * call still holding it finishes on it.  ctx lock held; the put only
 * frees memory, so it may run under the lock. */
void
cuvk_stream_destroy_locked(struct cuvk_stream *stream)
{
   /* Its held waits become submitted steps, which need the stream only
    * while they are submitted: the work of a destroyed stream still
    * completes, as on CUDA. */
   if (stream->ctx->held_wait_count)
      (void)cuvk_held_waits_submit(stream->ctx);
   /* A capture it takes part in cannot end well any more. */
   cuvk_capture_stream_gone(stream);
   cuvk_list_del(&stream->link);
   cuvk_object_release(&stream->base);
}

CUresult
cuvk_stream_create_locked(struct cuvk_context *ctx, unsigned flags, int priority, struct cuvk_stream **out)
{
   struct cuvk_stream *stream = calloc(1, sizeof(*stream));
   if (!stream)
      return CUDA_ERROR_OUT_OF_MEMORY;
   stream->ctx = ctx;
   stream->flags = flags;
   /* CUDA clamps priorities into the supported range. */
   stream->priority = CUVK_MAX(CUVK_MIN(priority, STREAM_PRIORITY_LEAST), STREAM_PRIORITY_GREATEST);
   stream->lane = cuvk_submit_pick_lane(ctx, stream->priority);
   stream->transfer_lane = cuvk_submit_pick_transfer_lane(ctx);
   stream->id = cuvk_stream_next_id();
   cuvk_list_addtail(&stream->link, &ctx->streams);
   *out = stream;
   return CUDA_SUCCESS;
}

void
cuvk_stream_enter(struct cuvk_stream *stream)
{
   cuvk_object_add_in(&stream->base, CUVK_OBJECT_STREAM, stream_free, &stream->ctx->base);
}

static CUresult
stream_create(CUstream *phstream, unsigned int flags, int priority, const char *entry)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   struct cuvk_stream *stream = NULL;
   CUresult res = cuvk_context_current(entry, &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!phstream)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: phStream is NULL", entry);
   if (flags & ~STREAM_FLAGS)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: unknown flags 0x%x", entry, flags & ~STREAM_FLAGS);

   pthread_mutex_lock(&ctx->lock);
   res = cuvk_stream_create_locked(ctx, flags, priority, &stream);
   pthread_mutex_unlock(&ctx->lock);
   if (res != CUDA_SUCCESS)
      return cuvk_error(res, "%s: out of host memory", entry);
   cuvk_stream_enter(stream);
   *phstream = (CUstream)stream;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamCreate(CUstream *phstream, unsigned int flags)
{
   return stream_create(phstream, flags, 0, "cuStreamCreate");
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamCreateWithPriority(CUstream *phstream, unsigned int flags, int priority)
{
   return stream_create(phstream, flags, priority, "cuStreamCreateWithPriority");
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamDestroy_v2(CUstream hstream)
{
   CUresult res = cuvk_driver_check("cuStreamDestroy");
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_stream *stream = stream_is_default(hstream) ? NULL : stream_get(hstream);
   if (!stream)
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "cuStreamDestroy: %p is not a live stream",
                        (void *)hstream);
   /* Work already recorded completes on its own; a stream holds nothing
    * the GPU uses.  Two destroys racing: the one that takes the stream
    * out of the table unlinks it, the other finds it gone. */
   struct cuvk_context *ctx = stream->ctx;
   bool first = false;
   pthread_mutex_lock(&ctx->lock);
   if (cuvk_object_is(stream, CUVK_OBJECT_STREAM)) {
      cuvk_stream_destroy_locked(stream);
      first = true;
   }
   pthread_mutex_unlock(&ctx->lock);
   cuvk_stream_put(stream);
   if (!first)
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "cuStreamDestroy: %p is not a live stream",
                        (void *)hstream);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamSynchronize(CUstream hstream)
{
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   CUresult res = cuvk_stream_lookup(hstream, "cuStreamSynchronize", &ctx, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   /* The legacy stream waits for every blocking stream too: the
    * frontier, every lane's newest work, covers it. */
   if (stream == &ctx->null_stream)
      return cuvk_submit_wait_idle(ctx);
   /* Waits the host holds for the stream first: what follows them was
    * submitted with them, so last_value, read after, covers it. */
   res = cuvk_held_waits_wait(ctx, stream);
   if (res != CUDA_SUCCESS)
      return res;
   pthread_mutex_lock(&ctx->lock);
   uint64_t value = stream->last_value;
   pthread_mutex_unlock(&ctx->lock);
   return cuvk_submit_wait(ctx, value);
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamQuery(CUstream hstream)
{
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   bool done;
   CUresult res = cuvk_stream_lookup(hstream, "cuStreamQuery", &ctx, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   if (stream == &ctx->null_stream) {
      res = cuvk_submit_is_idle_done(ctx, &done);
   } else {
      res = cuvk_held_waits_query(ctx, stream, &done);
      if (res == CUDA_SUCCESS && done) {
         pthread_mutex_lock(&ctx->lock);
         uint64_t value = stream->last_value;
         pthread_mutex_unlock(&ctx->lock);
         res = cuvk_submit_is_done(ctx, value, &done);
      }
   }
   if (res != CUDA_SUCCESS)
      return res;
   return done ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamWaitEvent(CUstream hstream, CUevent hevent, unsigned int flags)
{
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   CUresult res = cuvk_stream_lookup_any(hstream, "cuStreamWaitEvent", &ctx, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   if (flags & ~(unsigned)CU_EVENT_WAIT_EXTERNAL)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuStreamWaitEvent: unknown flags 0x%x",
                        flags & ~(unsigned)CU_EVENT_WAIT_EXTERNAL);
   struct cuvk_event *event = NULL;
   res = cuvk_event_get(hevent, "cuStreamWaitEvent", &event);
   if (res != CUDA_SUCCESS)
      return res;
   /* A fork or join of a capture, or a wait captured as a node. */
   if (cuvk_capture_wait_event(stream, event, flags, &res)) {
      cuvk_event_put(event);
      return res;
   }
   /* EXTERNAL only means something while capturing (an event-wait
    * node); outside a capture it is refused, as the runtime's twin is. */
   if (flags & CU_EVENT_WAIT_EXTERNAL) {
      cuvk_event_put(event);
      return cuvk_error(CUDA_ERROR_ILLEGAL_STATE, "cuStreamWaitEvent: CU_EVENT_WAIT_EXTERNAL outside a stream "
                        "capture");
   }
   /* Within a context, the stream's lane waits for the event's point on
    * the GPU (nothing when the point is on the same lane, already before
    * the stream's next work).  Across contexts (two VkDevices) there is
    * nothing to chain on the GPU side, so the host waits. */
   uint64_t value;
   if (cuvk_event_recorded(event, &value) && value) {
      if (event->ctx != ctx) {
         res = cuvk_submit_wait(event->ctx, value);
      } else {
         pthread_mutex_lock(&ctx->lock);
         res = cuvk_submit_stream_wait(ctx, stream, value);
         pthread_mutex_unlock(&ctx->lock);
      }
   }
   cuvk_event_put(event);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamGetFlags(CUstream hstream, unsigned int *flags)
{
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   CUresult res = cuvk_stream_lookup_any(hstream, "cuStreamGetFlags", &ctx, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   if (!flags)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuStreamGetFlags: flags is NULL");
   *flags = stream->flags;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamGetPriority(CUstream hstream, int *priority)
{
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   CUresult res = cuvk_stream_lookup_any(hstream, "cuStreamGetPriority", &ctx, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   if (!priority)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuStreamGetPriority: priority is NULL");
   *priority = stream->priority;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamGetCtx_v2(CUstream hstream, CUcontext *pctx, CUgreenCtx *pgreen)
{
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   CUresult res = cuvk_stream_lookup_any(hstream, "cuStreamGetCtx", &ctx, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   /* Either output may be NULL (measured); a stream of cuvk always
    * belongs to a regular context, never to a green one. */
   if (pctx)
      *pctx = (CUcontext)ctx;
   if (pgreen)
      *pgreen = NULL;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamGetCtx(CUstream hstream, CUcontext *pctx)
{
   if (!pctx)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuStreamGetCtx: pctx is NULL");
   return cuStreamGetCtx_v2(hstream, pctx, NULL);
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamGetId(CUstream hstream, unsigned long long *stream_id)
{
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   CUresult res = cuvk_stream_lookup_any(hstream, "cuStreamGetId", &ctx, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   if (!stream_id)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuStreamGetId: streamId is NULL");
   /* The per-thread default stream has an id of its own per thread. */
   *stream_id = stream->id;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamGetDevice(CUstream hstream, CUdevice *device)
{
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   CUresult res = cuvk_stream_lookup_any(hstream, "cuStreamGetDevice", &ctx, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   if (!device)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuStreamGetDevice: device is NULL");
   *device = ctx->dev->ordinal;
   return CUDA_SUCCESS;
}
