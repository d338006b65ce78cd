/*
 * Per-thread default streams: what CU_STREAM_PER_THREAD, the _ptsz/_ptds
 * entry points and programs built with --default-stream per-thread name.
 * Each (thread, context) pair gets a blocking stream of its own at the
 * thread's first use of it in that context: ordered with the legacy
 * stream like any blocking stream, and independent of other threads'
 * per-thread streams and of other streams, as CUDA defines it.
 *
 * It goes when the thread exits or when the context is destroyed,
 * whichever comes first.  Both sides meet in an entry that is linked into
 * the thread's list and the context's, under one process-wide lock, and
 * whichever side comes first unlinks it from both and frees it: the
 * thread's exit destroys the stream (so many short-lived threads do not
 * pile up streams), a
 * context's teardown only drops the entries, as it destroys every stream
 * of its own anyway.
 *
 * Lock order: per_thread_lock, then a context's lock.
 */
#include <pthread.h>
#include <stdlib.h>

#include "cuda_api/context.h"
#include "util/error.h"
#include "util/list.h"
#include "util/log.h"

struct per_thread_entry {
   struct cuvk_list thread_link;   /* in per_thread_thread.entries */
   struct cuvk_list ctx_link;      /* in ctx->per_thread_streams */
   struct cuvk_context *ctx;
   unsigned long long ctx_id;
   struct cuvk_stream *stream;
};

/* One per thread that used a per-thread stream; the thread-specific value
 * of per_thread_key, so its destructor runs at the thread's exit. */
struct per_thread_thread {
   struct cuvk_list entries;
};

static pthread_mutex_t per_thread_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t per_thread_once = PTHREAD_ONCE_INIT;
static pthread_key_t per_thread_key;
static bool per_thread_key_ok;

/* The stream the calling thread used last, and the id of its context:
 * context ids are never reused, so a match is that context and its
 * stream, which lives as long as the context (a context that is live
 * again with the same id is the same one).  Values only, never a pointer
 * to an entry another thread may free. */
static _Thread_local unsigned long long last_ctx_id;
static _Thread_local struct cuvk_stream *last_stream;

static void
per_thread_exit(void *value)
{
   struct per_thread_thread *t = value;

   pthread_mutex_lock(&per_thread_lock);
   cuvk_list_for_each_entry_safe(struct per_thread_entry, e, &t->entries, thread_link) {
      struct cuvk_context *ctx = e->ctx;
      pthread_mutex_lock(&ctx->lock);
      cuvk_list_del(&e->ctx_link);
      /* Recorded work completes on its own, as for cuStreamDestroy. */
      cuvk_stream_destroy_locked(e->stream);
      pthread_mutex_unlock(&ctx->lock);
      cuvk_list_del(&e->thread_link);
      free(e);
   }
   pthread_mutex_unlock(&per_thread_lock);
   free(t);
}

static void
per_thread_init_key(void)
{
   per_thread_key_ok = pthread_key_create(&per_thread_key, per_thread_exit) == 0;
}

CUresult
cuvk_stream_per_thread(struct cuvk_context *ctx, const char *entry, struct cuvk_stream **out)
{
   CUresult res = CUDA_SUCCESS;

   if (last_stream && last_ctx_id == ctx->id) {
      *out = last_stream;
      return CUDA_SUCCESS;
   }
   pthread_once(&per_thread_once, per_thread_init_key);
   if (!per_thread_key_ok)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: no thread-specific key for per-thread streams", entry);

   pthread_mutex_lock(&per_thread_lock);
   struct per_thread_thread *t = pthread_getspecific(per_thread_key);
   if (!t) {
      t = malloc(sizeof(*t));
      if (!t || pthread_setspecific(per_thread_key, t) != 0) {
         free(t);
         res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the per-thread stream", entry);
         goto out;
      }
      cuvk_list_init(&t->entries);
   }
   cuvk_list_for_each_entry(struct per_thread_entry, e, &t->entries, thread_link) {
      if (e->ctx_id == ctx->id) {
         *out = e->stream;
         goto found;
      }
   }

   struct per_thread_entry *e = malloc(sizeof(*e));
   if (!e) {
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the per-thread stream", entry);
      goto out;
   }
   pthread_mutex_lock(&ctx->lock);
   /* Blocking, default priority; counted like any stream, so lookups of
    * it hold it (and its context) while they use it. */
   res = cuvk_stream_create_locked(ctx, 0, 0, &e->stream);
   if (res == CUDA_SUCCESS)
      cuvk_list_addtail(&e->ctx_link, &ctx->per_thread_streams);
   pthread_mutex_unlock(&ctx->lock);
   if (res != CUDA_SUCCESS) {
      free(e);
      goto out;
   }
   cuvk_stream_enter(e->stream);
   e->ctx = ctx;
   e->ctx_id = ctx->id;
   cuvk_list_addtail(&e->thread_link, &t->entries);
   *out = e->stream;
   cuvk_logd("%s: a per-thread stream for this thread in context %llu", entry, ctx->id);

found:
   last_ctx_id = ctx->id;
   last_stream = *out;
out:
   pthread_mutex_unlock(&per_thread_lock);
   return res;
}

void
cuvk_stream_per_thread_release_context(struct cuvk_context *ctx)
{
   pthread_mutex_lock(&per_thread_lock);
   cuvk_list_for_each_entry_safe(struct per_thread_entry, e, &ctx->per_thread_streams, ctx_link) {
      cuvk_list_del(&e->ctx_link);
      cuvk_list_del(&e->thread_link);
      free(e);
   }
   pthread_mutex_unlock(&per_thread_lock);
   /* The calling thread's cache may name this context's stream; other
    * threads' caches hold its id, which no later context has. */
   if (last_ctx_id == ctx->id)
      last_stream = NULL;
}
