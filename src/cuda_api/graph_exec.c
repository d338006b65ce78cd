/*
 * Executable graphs: cuGraphInstantiate, cuGraphLaunch, cuGraphExecDestroy.
 *
 * Instantiation copies the graph's nodes in a topological order (Kahn's:
 * a node once all it depends on is placed, ties in creation order), so
 * later changes to the graph do not reach the exec, as CUDA specifies.  A
 * launch issues the nodes in that order onto the launch stream through the
 * calls a program would make (graph.h), which keeps every dependency, and
 * the launch as a whole ordered after the stream's earlier work and before
 * its later work.  Independent nodes do not overlap each other within a
 * launch; that is the part a later step can add, by spreading the order
 * over lanes.
 *
 * CUDA also orders a launch after the previous launch of the same exec,
 * on whatever stream that went: an event recorded at each launch's end
 * is what the next one waits for.
 */
#include "cuda_api/graph.h"

#include <stdlib.h>
#include <string.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuda_api/module.h"
#include "util/error.h"
#include "util/macros.h"

static void
exec_free(struct cuvk_object *obj)
{
   struct cuvk_graph_exec *exec = cuvk_container_of(obj, struct cuvk_graph_exec, base);
   for (uint32_t i = 0; i < exec->node_count; i++)
      cuvk_graph_node_finish(&exec->nodes[i]);
   free(exec->nodes);
   /* A dead event (its context destroyed) answers an error, ignored. */
   if (exec->done)
      (void)cuEventDestroy_v2(exec->done);
   pthread_mutex_destroy(&exec->lock);
   free(exec);
}

static CUresult
exec_get(CUgraphExec hexec, const char *entry, struct cuvk_graph_exec **out)
{
   struct cuvk_object *obj = cuvk_object_get(hexec, CUVK_OBJECT_GRAPH_EXEC);
   if (!obj)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %p is not a live executable graph", entry, (void *)hexec);
   *out = cuvk_container_of(obj, struct cuvk_graph_exec, base);
   return CUDA_SUCCESS;
}

/* Graph lock held: the nodes in launch order, into order (node_count
 * entries); false when the edges hold a cycle. */
static bool
graph_order(const struct cuvk_graph *graph, const struct cuvk_graph_node **order)
{
   uint32_t n = graph->nodes.count, placed = 0;
   bool *done = calloc(n ? n : 1, sizeof(*done));
   if (!done)
      return false;
   /* Quadratic in the worst case; graphs are built by hand or captured
    * from a stream, and this runs once per instantiation. */
   bool progress = true;
   while (placed < n && progress) {
      progress = false;
      for (uint32_t i = 0; i < n; i++) {
         if (done[i])
            continue;
         const struct cuvk_graph_node *node = graph->nodes.at[i];
         bool ready = true;
         for (uint32_t d = 0; d < node->deps.count && ready; d++) {
            for (uint32_t j = 0; j < n; j++) {
               if (graph->nodes.at[j] == node->deps.at[d]) {
                  ready = done[j];
                  break;
               }
            }
         }
         if (!ready)
            continue;
         done[i] = true;
         order[placed++] = node;
         progress = true;
      }
   }
   free(done);
   return placed == n;
}

static CUresult
exec_create(struct cuvk_graph *graph, const char *entry, struct cuvk_graph_exec **out)
{
   CUresult res = CUDA_SUCCESS;
   struct cuvk_graph_exec *exec = calloc(1, sizeof(*exec));
   if (!exec)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
   pthread_mutex_init(&exec->lock, NULL);

   pthread_mutex_lock(&graph->lock);
   uint32_t n = graph->nodes.count;
   const struct cuvk_graph_node **order = malloc((n ? n : 1) * sizeof(*order));
   exec->nodes = calloc(n ? n : 1, sizeof(*exec->nodes));
   if (!order || !exec->nodes) {
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
   } else if (!graph_order(graph, order)) {
      res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: the graph's dependencies form a cycle", entry);
   } else {
      for (uint32_t i = 0; i < n && res == CUDA_SUCCESS; i++) {
         res = cuvk_graph_node_copy_op(&exec->nodes[i], order[i]);
         if (res != CUDA_SUCCESS)
            res = cuvk_error(res, "%s: out of host memory", entry);
         else
            exec->node_count = i + 1;
      }
   }
   pthread_mutex_unlock(&graph->lock);
   free(order);
   if (res != CUDA_SUCCESS) {
      for (uint32_t i = 0; i < exec->node_count; i++)
         cuvk_graph_node_finish(&exec->nodes[i]);
      free(exec->nodes);
      pthread_mutex_destroy(&exec->lock);
      free(exec);
      return res;
   }
   cuvk_object_add(&exec->base, CUVK_OBJECT_GRAPH_EXEC, exec_free);
   *out = exec;
   return CUDA_SUCCESS;
}

/* The flags cuGraphInstantiateWithFlags takes.  AUTO_FREE_ON_LAUNCH has
 * no allocation node to free in cuvk's graphs, and USE_NODE_PRIORITY no
 * node with a priority of its own (every node runs at its stream's), so
 * both change nothing here; DEVICE_LAUNCH asks for launches from kernels,
 * which cuvk cannot do.  UPLOAD belongs to cuGraphInstantiateWithParams
 * only. */
#define INSTANTIATE_FLAGS                                                      \
   ((unsigned long long)(CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH |      \
                         CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH |            \
                         CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY))

static CUresult
instantiate(CUgraphExec *out, CUgraph hgraph, unsigned long long flags, const char *entry)
{
   CUresult res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;
   if (!out)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: phGraphExec is NULL", entry);
   if (flags & ~INSTANTIATE_FLAGS)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: flags 0x%llx are not flags this call takes", entry,
                        flags & ~INSTANTIATE_FLAGS);
   if (flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: graphs launched from kernels are not supported by cuvk",
                        entry);
   struct cuvk_graph *graph = NULL;
   res = cuvk_graph_get(hgraph, entry, &graph);
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_graph_exec *exec = NULL;
   res = exec_create(graph, entry, &exec);
   cuvk_object_put(&graph->base);
   if (res == CUDA_SUCCESS)
      *out = (CUgraphExec)exec;
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags)
{
   return instantiate(phGraphExec, hGraph, flags, "cuGraphInstantiateWithFlags");
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphExecDestroy(CUgraphExec hGraphExec)
{
   struct cuvk_graph_exec *exec = NULL;
   CUresult res = cuvk_driver_check("cuGraphExecDestroy");
   if (res == CUDA_SUCCESS)
      res = exec_get(hGraphExec, "cuGraphExecDestroy", &exec);
   if (res != CUDA_SUCCESS)
      return res;
   bool first = cuvk_object_release(&exec->base);
   cuvk_object_put(&exec->base);
   if (!first)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphExecDestroy: %p is not a live executable graph",
                        (void *)hGraphExec);
   return CUDA_SUCCESS;
}

/* ---- launch ------------------------------------------------------------- */

/* The context a copy or fill node names, which must be the stream's.
 * The calls below are the legacy-stream entry points: the launch's
 * stream handle means what it meant to cuGraphLaunch (the per-thread
 * form has turned NULL into CU_STREAM_PER_THREAD already). */
static CUresult
node_context_check(CUcontext node_ctx, const struct cuvk_context *ctx, const char *entry)
{
   if (node_ctx && (struct cuvk_context *)node_ctx != ctx)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: a node of context %p launched on a stream of context %p; "
                        "cuvk runs a graph in its launch stream's context only", entry, (void *)node_ctx,
                        (const void *)ctx);
   return CUDA_SUCCESS;
}

CUresult
cuvk_graph_node_run(const struct cuvk_graph_node *node, CUstream hstream)
{
   switch (node->type) {
   case CU_GRAPH_NODE_TYPE_KERNEL: {
      const struct cuvk_graph_kernel *k = &node->u.kernel;
      size_t bytes = k->param_bytes;
      void *extra[] = {
         CU_LAUNCH_PARAM_BUFFER_POINTER, k->params,
         CU_LAUNCH_PARAM_BUFFER_SIZE, &bytes,
         CU_LAUNCH_PARAM_END,
      };
      const uint32_t grid[3] = { k->grid[0], k->grid[1], k->grid[2] };
      const uint32_t block[3] = { k->block[0], k->block[1], k->block[2] };
      return cuvk_launch_kernel(k->func, grid, block, k->shared, hstream, NULL, bytes ? extra : NULL,
                                "cuGraphLaunch");
   }
   case CU_GRAPH_NODE_TYPE_MEMCPY:
      return cuMemcpy3DAsync_v2(&node->u.memcpy.copy, hstream);
   case CU_GRAPH_NODE_TYPE_MEMSET: {
      const CUDA_MEMSET_NODE_PARAMS *s = &node->u.memset.set;
      size_t pitch = s->height > 1 ? s->pitch : s->width * s->elementSize;
      switch (s->elementSize) {
      case 1:
         return cuMemsetD2D8Async(s->dst, pitch, (unsigned char)s->value, s->width, s->height, hstream);
      case 2:
         return cuMemsetD2D16Async(s->dst, pitch, (unsigned short)s->value, s->width, s->height, hstream);
      default:
         return cuMemsetD2D32Async(s->dst, pitch, s->value, s->width, s->height, hstream);
      }
   }
   case CU_GRAPH_NODE_TYPE_HOST:
      return cuLaunchHostFunc(hstream, node->u.host.fn, node->u.host.userData);
   case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
      return cuEventRecord(node->u.event, hstream);
   case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
      return cuStreamWaitEvent(hstream, node->u.event, 0);
   case CU_GRAPH_NODE_TYPE_EMPTY:
      return CUDA_SUCCESS;
   default:
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "cuGraphLaunch: nodes of type %d are not supported by cuvk",
                        (int)node->type);
   }
}

static CUresult
graph_launch(CUgraphExec hexec, CUstream hstream, const char *entry)
{
   struct cuvk_graph_exec *exec = NULL;
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   CUresult res = cuvk_driver_check(entry);
   if (res == CUDA_SUCCESS)
      res = exec_get(hexec, entry, &exec);
   if (res != CUDA_SUCCESS)
      return res;
   /* A capturing stream refuses the launch here (a graph inside a graph
    * is not captured by cuvk). */
   res = cuvk_stream_lookup(hstream, entry, &ctx, &stream);
   for (uint32_t i = 0; i < exec->node_count && res == CUDA_SUCCESS; i++) {
      if (exec->nodes[i].type == CU_GRAPH_NODE_TYPE_MEMCPY)
         res = node_context_check(exec->nodes[i].u.memcpy.ctx, ctx, entry);
      else if (exec->nodes[i].type == CU_GRAPH_NODE_TYPE_MEMSET)
         res = node_context_check(exec->nodes[i].u.memset.ctx, ctx, entry);
   }
   if (res != CUDA_SUCCESS) {
      cuvk_object_put(&exec->base);
      return res;
   }

   pthread_mutex_lock(&exec->lock);
   /* After the exec's previous launch; its event may be of a context
    * destroyed since, whose work is over. */
   if (exec->done) {
      CUresult wait = cuStreamWaitEvent(hstream, exec->done, 0);
      if (wait != CUDA_SUCCESS && wait != CUDA_ERROR_INVALID_HANDLE)
         res = wait;
      if (exec->done_ctx != (CUcontext)ctx) {
         (void)cuEventDestroy_v2(exec->done);
         exec->done = NULL;
      }
   }
   if (res == CUDA_SUCCESS && !exec->done) {
      struct cuvk_event *event;
      res = cuvk_event_create(ctx, CU_EVENT_DISABLE_TIMING, &event);
      if (res == CUDA_SUCCESS) {
         exec->done = (CUevent)event;
         exec->done_ctx = (CUcontext)ctx;
      }
   }
   for (uint32_t i = 0; i < exec->node_count && res == CUDA_SUCCESS; i++)
      res = cuvk_graph_node_run(&exec->nodes[i], hstream);
   if (res == CUDA_SUCCESS)
      res = cuEventRecord(exec->done, hstream);
   pthread_mutex_unlock(&exec->lock);
   cuvk_object_put(&exec->base);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream)
{
   return graph_launch(hGraphExec, hStream, "cuGraphLaunch");
}

