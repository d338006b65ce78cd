/*
 * Stream capture: cuStreamBeginCapture to cuStreamEndCapture records the
 * work a program issues on a stream as nodes of a new graph instead of
 * running it (graph.h).
 *
 * Each stream in a capture keeps the set of nodes its next operation
 * depends on (its "dependencies"): empty at the start, then the node just
 * added.  An event recorded on a capturing stream stands for that set, and
 * a stream that waits on it joins the capture with it (a fork), or merges
 * it into its own (a join), which is how CUDA programs spread a capture
 * over streams.  The capture ends on the stream that began it, once every
 * other stream's last work is something that stream depends on.
 *
 * Operations cuvk captures: kernel launches, asynchronous copies and
 * fills, host functions, event records and waits (CU_EVENT_RECORD_EXTERNAL
 * and CU_EVENT_WAIT_EXTERNAL as event nodes).  Everything else a capturing
 * stream is given fails with CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED and
 * invalidates the capture, as CUDA does for what it cannot capture:
 * cuvk_stream_lookup refuses capturing streams unless the caller asked
 * with cuvk_stream_lookup_any, so a call that knows nothing of capture
 * cannot run work on one by mistake.
 *
 * One process-wide lock guards every capture's state, the streams'
 * dependency sets and the events' snapshots; it is taken before a graph's
 * lock and never while waiting for the GPU.  A context's lock may be held
 * when it is taken (a stream or event going away), never the other way.
 */
#include "cuda_api/graph.h"

#include <stdlib.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

struct cuvk_capture {
   struct cuvk_graph *graph;
   uint64_t id;
   CUstreamCaptureMode mode;
   pthread_t thread;               /* the thread that began it */
   bool invalidated;
   /* The streams in it, the origin first; each has capture == this. */
   struct cuvk_stream **streams;
   uint32_t stream_count, stream_capacity;
};

static pthread_mutex_t capture_lock = PTHREAD_MUTEX_INITIALIZER;
/* The live captures, for the events that name one by id. */
static struct cuvk_capture **captures;
static uint32_t capture_count, capture_capacity;
static uint64_t next_capture_id = 1;

static __thread CUstreamCaptureMode thread_mode = CU_STREAM_CAPTURE_MODE_GLOBAL;

/* ---- captures ----------------------------------------------------------- */

static struct cuvk_capture *
capture_find(uint64_t id)
{
   for (uint32_t i = 0; id && i < capture_count; i++)
      if (captures[i]->id == id)
         return captures[i];
   return NULL;
}

static bool
capture_join(struct cuvk_capture *capture, struct cuvk_stream *stream)
{
   if (capture->stream_count == capture->stream_capacity) {
      uint32_t cap = capture->stream_capacity ? capture->stream_capacity * 2 : 4;
      struct cuvk_stream **grown = realloc(capture->streams, cap * sizeof(*grown));
      if (!grown)
         return false;
      capture->streams = grown;
      capture->stream_capacity = cap;
   }
   capture->streams[capture->stream_count++] = stream;
   __atomic_store_n(&stream->capture, capture, __ATOMIC_RELEASE);
   stream->capture_deps.count = 0;
   return true;
}

static void
stream_leave(struct cuvk_stream *stream)
{
   __atomic_store_n(&stream->capture, NULL, __ATOMIC_RELEASE);
   cuvk_graph_nodes_finish(&stream->capture_deps);
}

/* Ends a capture: its streams leave it, and it leaves the live list.  The
 * graph is the caller's. */
static void
capture_end(struct cuvk_capture *capture)
{
   for (uint32_t i = 0; i < capture->stream_count; i++)
      stream_leave(capture->streams[i]);
   for (uint32_t i = 0; i < capture_count; i++) {
      if (captures[i] == capture) {
         captures[i] = captures[--capture_count];
         break;
      }
   }
   free(capture->streams);
   free(capture);
}

static void
capture_invalidate(struct cuvk_capture *capture, const char *entry)
{
   if (!capture->invalidated)
      cuvk_logw("%s: the stream capture %llu is invalidated", entry, (unsigned long long)capture->id);
   capture->invalidated = true;
}

/* Graph lock held: marks node and everything it depends on, transitively. */
static void
mark_ancestors(struct cuvk_graph_node *node, struct cuvk_graph_node **stack, uint32_t *seen, uint32_t n)
{
   uint32_t top = 0;
   stack[top++] = node;
   while (top) {
      struct cuvk_graph_node *x = stack[--top];
      bool have = false;
      for (uint32_t i = 0; i < *seen && !have; i++)
         have = stack[n + i] == x;
      if (have)
         continue;
      stack[n + (*seen)++] = x;
      for (uint32_t d = 0; d < x->deps.count; d++)
         stack[top++] = x->deps.at[d];
   }
}

/* Whether every other stream's last work is something the origin's next
 * operation would depend on. */
static bool
capture_joined(struct cuvk_capture *capture)
{
   struct cuvk_graph *graph = capture->graph;
   struct cuvk_stream *origin = capture->streams[0];
   if (capture->stream_count == 1)
      return true;
   pthread_mutex_lock(&graph->lock);
   /* The stack can hold every edge once; the seen list every node. */
   uint32_t edges = 0, n = graph->nodes.count;
   for (uint32_t i = 0; i < n; i++)
      edges += graph->nodes.at[i]->deps.count;
   uint32_t room = edges + origin->capture_deps.count + 1;
   struct cuvk_graph_node **stack = malloc((room + n + 1) * sizeof(*stack));
   bool joined = stack != NULL;
   uint32_t seen = 0;
   for (uint32_t i = 0; joined && i < origin->capture_deps.count; i++)
      mark_ancestors(origin->capture_deps.at[i], stack, &seen, room);
   for (uint32_t s = 1; joined && s < capture->stream_count; s++) {
      const struct cuvk_stream *other = capture->streams[s];
      for (uint32_t d = 0; joined && d < other->capture_deps.count; d++) {
         bool have = false;
         for (uint32_t i = 0; i < seen && !have; i++)
            have = stack[room + i] == other->capture_deps.at[d];
         joined = have;
      }
   }
   pthread_mutex_unlock(&graph->lock);
   free(stack);
   return joined;
}

/* ---- the hooks of the capturable calls ---------------------------------- */

bool
cuvk_stream_capturing(const struct cuvk_stream *stream)
{
   return __atomic_load_n(&stream->capture, __ATOMIC_ACQUIRE) != NULL;
}

CUresult
cuvk_capture_refuse(struct cuvk_stream *stream, const char *entry)
{
   pthread_mutex_lock(&capture_lock);
   if (stream->capture)
      capture_invalidate(stream->capture, entry);
   pthread_mutex_unlock(&capture_lock);
   return cuvk_error(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "%s: not permitted on a capturing stream "
                     "(cuvk does not capture it)", entry);
}

CUresult
cuvk_capture_add(struct cuvk_stream *stream, CUgraphNodeType type, cuvk_graph_node_init_fn init,
                 const void *data, const char *entry)
{
   CUresult res;
   pthread_mutex_lock(&capture_lock);
   struct cuvk_capture *capture = stream->capture;
   if (!capture) {
      res = cuvk_error(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "%s: the stream's capture ended meanwhile", entry);
   } else if (capture->invalidated) {
      res = cuvk_error(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "%s: the stream's capture was invalidated", entry);
   } else {
      struct cuvk_graph_node *node;
      res = cuvk_graph_add_node(capture->graph, type, stream->capture_deps.at, stream->capture_deps.count, init,
                                data, entry, &node);
      if (res == CUDA_SUCCESS &&
          !cuvk_graph_nodes_copy(&stream->capture_deps, &node, 1)) {
         capture_invalidate(capture, entry);
         res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
      }
   }
   pthread_mutex_unlock(&capture_lock);
   return res;
}

CUresult
cuvk_capture_event_record(struct cuvk_stream *stream, struct cuvk_event *event, const char *entry)
{
   CUresult res = CUDA_SUCCESS;
   pthread_mutex_lock(&capture_lock);
   struct cuvk_capture *capture = stream->capture;
   if (!capture || capture->invalidated) {
      res = cuvk_error(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "%s: the stream's capture was invalidated", entry);
   } else if (!cuvk_graph_nodes_copy(&event->capture_deps, stream->capture_deps.at, stream->capture_deps.count)) {
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
   } else {
      __atomic_store_n(&event->capture_id, capture->id, __ATOMIC_RELEASE);
   }
   pthread_mutex_unlock(&capture_lock);
   return res;
}

bool
cuvk_capture_wait_event(struct cuvk_stream *stream, struct cuvk_event *event, unsigned flags, CUresult *res)
{
   static const char entry[] = "cuStreamWaitEvent";
   /* The common case, without the lock: neither side was ever part of a
    * capture (both fields are only set under it). */
   if (!cuvk_stream_capturing(stream) && !__atomic_load_n(&event->capture_id, __ATOMIC_ACQUIRE))
      return false;
   pthread_mutex_lock(&capture_lock);
   struct cuvk_capture *from = capture_find(__atomic_load_n(&event->capture_id, __ATOMIC_RELAXED));
   struct cuvk_capture *into = stream->capture;
   bool handled = from || into;

   if (!handled) {
      /* Neither side is in a capture: an ordinary wait. */
   } else if ((into && into->invalidated) || (from && from->invalidated)) {
      *res = cuvk_error(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "%s: the capture was invalidated", entry);
   } else if (!from) {
      pthread_mutex_unlock(&capture_lock);
      /* An event of the world outside the capture: CUDA captures a wait
       * for it only when asked to, as an event-wait node. */
      if (flags & CU_EVENT_WAIT_EXTERNAL) {
         *res = cuvk_capture_add(stream, CU_GRAPH_NODE_TYPE_WAIT_EVENT, cuvk_graph_init_event, event, entry);
         return true;
      }
      pthread_mutex_lock(&capture_lock);
      if (stream->capture)
         capture_invalidate(stream->capture, entry);
      *res = cuvk_error(CUDA_ERROR_STREAM_CAPTURE_ISOLATION, "%s: a capturing stream waits for an event "
                        "recorded outside its capture", entry);
   } else if (into && into != from) {
      capture_invalidate(into, entry);
      capture_invalidate(from, entry);
      *res = cuvk_error(CUDA_ERROR_STREAM_CAPTURE_MERGE, "%s: the wait would merge two captures", entry);
   } else if (!into) {
      /* A fork: the stream joins the capture after the event's work. */
      if (!capture_join(from, stream) ||
          !cuvk_graph_nodes_copy(&stream->capture_deps, event->capture_deps.at, event->capture_deps.count)) {
         capture_invalidate(from, entry);
         *res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
      } else {
         *res = CUDA_SUCCESS;
      }
   } else {
      /* A join within the capture. */
      *res = cuvk_graph_nodes_merge(&stream->capture_deps, event->capture_deps.at, event->capture_deps.count)
                ? CUDA_SUCCESS
                : cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
   }
   pthread_mutex_unlock(&capture_lock);
   return handled;
}

void
cuvk_capture_stream_gone(struct cuvk_stream *stream)
{
   /* Most streams never capture: no lock for them at every destroy. */
   if (!cuvk_stream_capturing(stream))
      return;
   pthread_mutex_lock(&capture_lock);
   struct cuvk_capture *capture = stream->capture;
   if (capture) {
      capture_invalidate(capture, "cuStreamDestroy");
      if (capture->streams[0] == stream) {
         /* The origin: nothing can end the capture any more. */
         struct cuvk_graph *graph = capture->graph;
         capture_end(capture);
         cuvk_graph_release(graph);
      } else {
         for (uint32_t i = 1; i < capture->stream_count; i++) {
            if (capture->streams[i] == stream) {
               capture->streams[i] = capture->streams[--capture->stream_count];
               break;
            }
         }
         stream_leave(stream);
      }
   }
   pthread_mutex_unlock(&capture_lock);
}

void
cuvk_capture_event_gone(struct cuvk_event *event)
{
   /* Set only with an array, under the lock, by a capture's record. */
   if (!__atomic_load_n(&event->capture_id, __ATOMIC_ACQUIRE))
      return;
   pthread_mutex_lock(&capture_lock);
   cuvk_graph_nodes_finish(&event->capture_deps);
   __atomic_store_n(&event->capture_id, 0, __ATOMIC_RELAXED);
   pthread_mutex_unlock(&capture_lock);
}

/* ---- entry points ------------------------------------------------------- */

static CUresult
begin_capture(CUstream hstream, CUstreamCaptureMode mode, const char *entry)
{
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   CUresult res = cuvk_stream_lookup_any(hstream, entry, &ctx, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   if (mode != CU_STREAM_CAPTURE_MODE_GLOBAL && mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
       mode != CU_STREAM_CAPTURE_MODE_RELAXED)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: capture mode %d is unknown", entry, (int)mode);
   if (stream == &ctx->null_stream)
      return cuvk_error(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "%s: the legacy default stream cannot be "
                        "captured", entry);

   struct cuvk_capture *capture = calloc(1, sizeof(*capture));
   if (!capture)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
   res = cuvk_graph_create(&capture->graph, entry);
   if (res != CUDA_SUCCESS) {
      free(capture);
      return res;
   }
   capture->mode = mode;
   capture->thread = pthread_self();

   pthread_mutex_lock(&capture_lock);
   if (stream->capture) {
      res = cuvk_error(CUDA_ERROR_ILLEGAL_STATE, "%s: the stream is being captured already", entry);
   } else if (capture_count == capture_capacity) {
      uint32_t cap = capture_capacity ? capture_capacity * 2 : 8;
      struct cuvk_capture **grown = realloc(captures, cap * sizeof(*grown));
      if (grown) {
         captures = grown;
         capture_capacity = cap;
      } else {
         res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
      }
   }
   if (res == CUDA_SUCCESS && !capture_join(capture, stream))
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
   if (res == CUDA_SUCCESS) {
      capture->id = next_capture_id++;
      captures[capture_count++] = capture;
   }
   pthread_mutex_unlock(&capture_lock);
   if (res != CUDA_SUCCESS) {
      cuvk_graph_release(capture->graph);
      free(capture->streams);
      free(capture);
   }
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode)
{
   return begin_capture(hStream, mode, "cuStreamBeginCapture");
}

static CUresult
end_capture(CUstream hstream, CUgraph *out, const char *entry)
{
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   CUresult res = cuvk_stream_lookup_any(hstream, entry, &ctx, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   if (!out)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: phGraph is NULL", entry);

   struct cuvk_graph *graph = NULL;
   pthread_mutex_lock(&capture_lock);
   struct cuvk_capture *capture = stream->capture;
   if (!capture) {
      res = cuvk_error(CUDA_ERROR_ILLEGAL_STATE, "%s: the stream is not being captured", entry);
   } else if (capture->streams[0] != stream) {
      res = cuvk_error(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, "%s: the capture began on another stream", entry);
   } else if (capture->mode != CU_STREAM_CAPTURE_MODE_RELAXED && !pthread_equal(capture->thread, pthread_self())) {
      res = cuvk_error(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, "%s: the capture began on another thread", entry);
   } else {
      graph = capture->graph;
      if (capture->invalidated)
         res = cuvk_error(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "%s: the capture was invalidated", entry);
      else if (!capture_joined(capture))
         res = cuvk_error(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, "%s: a stream that joined the capture was not "
                          "joined back into the stream that began it", entry);
      capture_end(capture);
   }
   pthread_mutex_unlock(&capture_lock);
   if (graph && res != CUDA_SUCCESS) {
      cuvk_graph_release(graph);
      graph = NULL;
   }
   if (graph || res == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED || res == CUDA_ERROR_STREAM_CAPTURE_UNJOINED)
      *out = (CUgraph)graph;
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamEndCapture(CUstream hStream, CUgraph *phGraph)
{
   return end_capture(hStream, phGraph, "cuStreamEndCapture");
}

/* The capture info of every version; NULL outputs are not written. */
static CUresult
capture_info(CUstream hstream, CUstreamCaptureStatus *status, cuuint64_t *id, CUgraph *graph,
             const CUgraphNode **deps, const CUgraphEdgeData **edge_data, size_t *dep_count, const char *entry)
{
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   CUresult res = cuvk_stream_lookup_any(hstream, entry, &ctx, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   if (!status)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: captureStatus is NULL", entry);
   pthread_mutex_lock(&capture_lock);
   struct cuvk_capture *capture = stream->capture;
   if (!capture) {
      *status = CU_STREAM_CAPTURE_STATUS_NONE;
   } else {
      *status = capture->invalidated ? CU_STREAM_CAPTURE_STATUS_INVALIDATED : CU_STREAM_CAPTURE_STATUS_ACTIVE;
      if (id)
         *id = capture->id;
      if (graph)
         *graph = (CUgraph)capture->graph;
      /* Valid until the stream's next capture call, as CUDA's are. */
      if (deps)
         *deps = (const CUgraphNode *)stream->capture_deps.at;
      if (edge_data)
         *edge_data = NULL; /* every edge is a plain one */
      if (dep_count)
         *dep_count = stream->capture_deps.count;
   }
   pthread_mutex_unlock(&capture_lock);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus)
{
   return capture_info(hStream, captureStatus, NULL, NULL, NULL, NULL, NULL, "cuStreamIsCapturing");
}

CUVK_EXPORT CUresult CUDAAPI
cuStreamGetCaptureInfo_v3(CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out,
                          CUgraph *graph_out, const CUgraphNode **dependencies_out,
                          const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
   return capture_info(hStream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                       numDependencies_out, "cuStreamGetCaptureInfo");
}

/* The mode only decides which calls a capture forbids elsewhere; cuvk
 * keeps it for the thread, as CUDA does, and forbids nothing beyond the
 * capturing streams themselves yet (docs/api-coverage.md). */
CUVK_EXPORT CUresult CUDAAPI
cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
   CUresult res = cuvk_driver_check("cuThreadExchangeStreamCaptureMode");
   if (res != CUDA_SUCCESS)
      return res;
   if (!mode)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuThreadExchangeStreamCaptureMode: mode is NULL");
   if (*mode != CU_STREAM_CAPTURE_MODE_GLOBAL && *mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
       *mode != CU_STREAM_CAPTURE_MODE_RELAXED)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuThreadExchangeStreamCaptureMode: mode %d is unknown",
                        (int)*mode);
   CUstreamCaptureMode old = thread_mode;
   thread_mode = *mode;
   *mode = old;
   return CUDA_SUCCESS;
}
