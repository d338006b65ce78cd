/*
 * Building graphs: cuGraphCreate, the cuGraphAdd*Node calls, edges, the
 * queries, and destruction (graph.h).
 */
#include "cuda_api/graph.h"

#include <stdlib.h>
#include <string.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuda_api/module.h"
#include "util/error.h"
#include "util/macros.h"

/* ---- handles ------------------------------------------------------------ */

static void
graph_node_free(struct cuvk_graph_node *node)
{
   cuvk_graph_node_finish(node);
   cuvk_graph_nodes_finish(&node->deps);
   free(node);
}

static void
graph_free(struct cuvk_object *obj)
{
   struct cuvk_graph *graph = cuvk_container_of(obj, struct cuvk_graph, base);
   for (uint32_t i = 0; i < graph->nodes.count; i++)
      graph_node_free(graph->nodes.at[i]);
   while (graph->retired) {
      struct cuvk_graph_node *node = graph->retired;
      graph->retired = node->next_retired;
      graph_node_free(node);
   }
   cuvk_graph_nodes_finish(&graph->nodes);
   pthread_mutex_destroy(&graph->lock);
   free(graph);
}

CUresult
cuvk_graph_get(CUgraph hgraph, const char *entry, struct cuvk_graph **out)
{
   struct cuvk_object *obj = cuvk_object_get(hgraph, CUVK_OBJECT_GRAPH);
   if (!obj)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %p is not a live graph", entry, (void *)hgraph);
   *out = cuvk_container_of(obj, struct cuvk_graph, base);
   return CUDA_SUCCESS;
}

CUresult
cuvk_graph_node_get(CUgraphNode hnode, const char *entry, struct cuvk_graph_node **out)
{
   struct cuvk_object *obj = cuvk_object_get(hnode, CUVK_OBJECT_GRAPH_NODE);
   if (!obj)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %p is not a live graph node", entry, (void *)hnode);
   *out = cuvk_container_of(obj, struct cuvk_graph_node, base);
   return CUDA_SUCCESS;
}

static inline void
graph_put(struct cuvk_graph **graph)
{
   if (*graph)
      cuvk_object_put(&(*graph)->base);
}

static inline void
node_put(struct cuvk_graph_node **node)
{
   if (*node)
      cuvk_object_put(&(*node)->base);
}

#define HELD_GRAPH __attribute__((cleanup(graph_put)))
#define HELD_NODE __attribute__((cleanup(node_put)))

CUresult
cuvk_graph_create(struct cuvk_graph **out, const char *entry)
{
   struct cuvk_graph *graph = calloc(1, sizeof(*graph));
   if (!graph)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
   pthread_mutex_init(&graph->lock, NULL);
   cuvk_object_add(&graph->base, CUVK_OBJECT_GRAPH, graph_free);
   *out = graph;
   return CUDA_SUCCESS;
}

void
cuvk_graph_release(struct cuvk_graph *graph)
{
   /* Its nodes first: they live in the graph's memory. */
   pthread_mutex_lock(&graph->lock);
   for (uint32_t i = 0; i < graph->nodes.count; i++)
      cuvk_object_remove(&graph->nodes.at[i]->base);
   pthread_mutex_unlock(&graph->lock);
   cuvk_object_release(&graph->base);
}

/* ---- nodes -------------------------------------------------------------- */

bool
cuvk_graph_nodes_has(const struct cuvk_graph_nodes *set, const struct cuvk_graph_node *node)
{
   for (uint32_t i = 0; i < set->count; i++)
      if (set->at[i] == node)
         return true;
   return false;
}

bool
cuvk_graph_nodes_add(struct cuvk_graph_nodes *set, struct cuvk_graph_node *node)
{
   if (set->count == set->capacity) {
      uint32_t cap = set->capacity ? set->capacity * 2 : 4;
      struct cuvk_graph_node **grown = realloc(set->at, cap * sizeof(*grown));
      if (!grown)
         return false;
      set->at = grown;
      set->capacity = cap;
   }
   set->at[set->count++] = node;
   return true;
}

bool
cuvk_graph_nodes_merge(struct cuvk_graph_nodes *set, struct cuvk_graph_node *const *from, uint32_t n)
{
   for (uint32_t i = 0; i < n; i++)
      if (!cuvk_graph_nodes_has(set, from[i]) && !cuvk_graph_nodes_add(set, from[i]))
         return false;
   return true;
}

void
cuvk_graph_nodes_remove(struct cuvk_graph_nodes *set, const struct cuvk_graph_node *node)
{
   uint32_t keep = 0;
   for (uint32_t i = 0; i < set->count; i++)
      if (set->at[i] != node)
         set->at[keep++] = set->at[i];
   set->count = keep;
}

bool
cuvk_graph_nodes_copy(struct cuvk_graph_nodes *set, struct cuvk_graph_node *const *from, uint32_t n)
{
   set->count = 0;
   return cuvk_graph_nodes_merge(set, from, n);
}

void
cuvk_graph_nodes_finish(struct cuvk_graph_nodes *set)
{
   free(set->at);
   *set = (struct cuvk_graph_nodes){ 0 };
}

/* Graph lock held: whether node is one of graph's. */
static bool
graph_has(const struct cuvk_graph *graph, const void *node)
{
   return cuvk_graph_nodes_has(&graph->nodes, node);
}

CUresult
cuvk_graph_add_node(struct cuvk_graph *graph, CUgraphNodeType type, struct cuvk_graph_node *const *deps,
                    size_t dep_count, cuvk_graph_node_init_fn init, const void *data, const char *entry,
                    struct cuvk_graph_node **out)
{
   CUresult res;
   if (dep_count && !deps)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %zu dependencies and a NULL array", entry, dep_count);

   struct cuvk_graph_node *node = calloc(1, sizeof(*node));
   if (!node)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
   node->graph = graph;
   node->type = type;

   pthread_mutex_lock(&graph->lock);
   for (size_t i = 0; i < dep_count; i++) {
      if (!graph_has(graph, deps[i])) {
         res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: dependency %zu (%p) is not a node of graph %p", entry,
                          i, (void *)deps[i], (void *)graph);
         goto fail;
      }
      if (cuvk_graph_nodes_has(&node->deps, deps[i])) {
         res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: dependency %zu (%p) is given twice", entry, i,
                          (void *)deps[i]);
         goto fail;
      }
      if (!cuvk_graph_nodes_add(&node->deps, deps[i])) {
         res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
         goto fail;
      }
   }
   if (init) {
      res = init(node, data);
      if (res != CUDA_SUCCESS)
         goto fail;
   }
   if (!cuvk_graph_nodes_add(&graph->nodes, node)) {
      cuvk_graph_node_finish(node);
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
      goto fail;
   }
   cuvk_object_add_owned(&node->base, CUVK_OBJECT_GRAPH_NODE, &graph->base);
   pthread_mutex_unlock(&graph->lock);
   if (out)
      *out = node;
   return CUDA_SUCCESS;

fail:
   pthread_mutex_unlock(&graph->lock);
   cuvk_graph_nodes_finish(&node->deps);
   free(node);
   return res;
}

/* ---- node operations ---------------------------------------------------- */

/* A kernel node keeps the parameter bytes as they were when it was added,
 * laid out as the function declares them. */
CUresult
cuvk_graph_init_kernel(struct cuvk_graph_node *node, const void *data)
{
   const CUDA_KERNEL_NODE_PARAMS *p = data;
   CUfunction hfunc = p->kern ? (CUfunction)p->kern : p->func;
   struct cuvk_function *f = NULL;
   CUresult res;

   if (!hfunc)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphAddKernelNode: no function");
   if (!p->gridDimX || !p->gridDimY || !p->gridDimZ || !p->blockDimX || !p->blockDimY || !p->blockDimZ)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphAddKernelNode: a grid or block dimension is 0");
   bool is_kernel = cuvk_object_is(hfunc, CUVK_OBJECT_KERNEL);
   CUfunction layout_of = hfunc;
   if (is_kernel) {
      /* A CUkernel's layout is its function's in the node's context. */
      struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
      res = cuvk_context_resolve(p->ctx, "cuGraphAddKernelNode", &ctx);
      if (res == CUDA_SUCCESS)
         res = cuvk_kernel_function((CUkernel)hfunc, ctx, "cuGraphAddKernelNode", &f);
      if (res != CUDA_SUCCESS)
         return res;
      layout_of = (CUfunction)f;
   }
   res = cuvk_function_get(layout_of, "cuGraphAddKernelNode", &f);
   if (res != CUDA_SUCCESS)
      return res;

   uint32_t bytes = 0, count = 0;
   cuvk_launch_params_layout(f, &bytes, &count);
   uint8_t *block = bytes ? calloc(1, bytes) : NULL;
   void **ptrs = count ? calloc(count, sizeof(*ptrs)) : NULL;
   if ((bytes && !block) || (count && !ptrs))
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuGraphAddKernelNode: out of host memory");
   if (res == CUDA_SUCCESS)
      res = cuvk_launch_params_copy(f, p->kernelParams, p->extra, block, ptrs, "cuGraphAddKernelNode");
   cuvk_function_put(f);
   if (res != CUDA_SUCCESS) {
      free(block);
      free(ptrs);
      return res;
   }
   node->u.kernel.func = hfunc;
   node->u.kernel.is_kernel = is_kernel;
   node->u.kernel.ctx = p->ctx;
   node->u.kernel.grid[0] = p->gridDimX;
   node->u.kernel.grid[1] = p->gridDimY;
   node->u.kernel.grid[2] = p->gridDimZ;
   node->u.kernel.block[0] = p->blockDimX;
   node->u.kernel.block[1] = p->blockDimY;
   node->u.kernel.block[2] = p->blockDimZ;
   node->u.kernel.shared = p->sharedMemBytes;
   node->u.kernel.params = block;
   node->u.kernel.param_bytes = bytes;
   node->u.kernel.param_count = count;
   node->u.kernel.param_ptrs = ptrs;
   return CUDA_SUCCESS;
}

CUresult
cuvk_graph_init_memcpy(struct cuvk_graph_node *node, const void *data)
{
   const struct cuvk_graph_memcpy *m = data;
   if (!m->copy)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphAddMemcpyNode: copyParams is NULL");
   if (!m->copy->WidthInBytes || !m->copy->Height || !m->copy->Depth)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphAddMemcpyNode: an extent of the copy is 0");
   node->u.memcpy.copy = *m->copy;
   node->u.memcpy.ctx = m->ctx;
   return CUDA_SUCCESS;
}

CUresult
cuvk_graph_init_memset(struct cuvk_graph_node *node, const void *data)
{
   const struct cuvk_graph_memset *m = data;
   const CUDA_MEMSET_NODE_PARAMS *s = m->set;
   if (!s)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphAddMemsetNode: memsetParams is NULL");
   if (s->elementSize != 1 && s->elementSize != 2 && s->elementSize != 4)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphAddMemsetNode: elementSize %u is not 1, 2 or 4",
                        s->elementSize);
   if (!s->width || !s->height)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphAddMemsetNode: width or height is 0");
   if (s->height > 1 && s->pitch < s->width * s->elementSize)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphAddMemsetNode: pitch %zu is below a row's %zu bytes",
                        s->pitch, s->width * s->elementSize);
   node->u.memset.set = *s;
   node->u.memset.ctx = m->ctx;
   return CUDA_SUCCESS;
}

CUresult
cuvk_graph_init_host(struct cuvk_graph_node *node, const void *data)
{
   const CUDA_HOST_NODE_PARAMS *p = data;
   if (!p || !p->fn)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphAddHostNode: no host function");
   node->u.host = *p;
   return CUDA_SUCCESS;
}

CUresult
cuvk_graph_init_event(struct cuvk_graph_node *node, const void *data)
{
   CUevent event = (CUevent)data;
   if (!cuvk_object_is(event, CUVK_OBJECT_EVENT))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphAddEvent%sNode: %p is not a live event",
                        node->type == CU_GRAPH_NODE_TYPE_EVENT_RECORD ? "Record" : "Wait", (void *)event);
   node->u.event = event;
   return CUDA_SUCCESS;
}

void
cuvk_graph_node_finish(struct cuvk_graph_node *node)
{
   if (node->type == CU_GRAPH_NODE_TYPE_KERNEL) {
      free(node->u.kernel.params);
      free(node->u.kernel.param_ptrs);
      node->u.kernel.params = NULL;
      node->u.kernel.param_ptrs = NULL;
   }
}

CUresult
cuvk_graph_node_copy_op(struct cuvk_graph_node *dst, const struct cuvk_graph_node *src)
{
   dst->type = src->type;
   dst->u = src->u;
   if (src->type != CU_GRAPH_NODE_TYPE_KERNEL)
      return CUDA_SUCCESS;
   dst->u.kernel.params = NULL;
   dst->u.kernel.param_ptrs = NULL;
   if (src->u.kernel.param_bytes) {
      dst->u.kernel.params = malloc(src->u.kernel.param_bytes);
      if (!dst->u.kernel.params)
         return CUDA_ERROR_OUT_OF_MEMORY;
      memcpy(dst->u.kernel.params, src->u.kernel.params, src->u.kernel.param_bytes);
   }
   return CUDA_SUCCESS;
}

/* ---- entry points: building --------------------------------------------- */

CUVK_EXPORT CUresult CUDAAPI
cuGraphCreate(CUgraph *phGraph, unsigned int flags)
{
   CUresult res = cuvk_driver_check("cuGraphCreate");
   if (res != CUDA_SUCCESS)
      return res;
   if (!phGraph)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphCreate: phGraph is NULL");
   if (flags)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphCreate: flags must be 0, got 0x%x", flags);
   struct cuvk_graph *graph;
   res = cuvk_graph_create(&graph, "cuGraphCreate");
   if (res == CUDA_SUCCESS)
      *phGraph = (CUgraph)graph;
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphDestroy(CUgraph hGraph)
{
   struct cuvk_graph *graph HELD_GRAPH = NULL;
   CUresult res = cuvk_driver_check("cuGraphDestroy");
   if (res == CUDA_SUCCESS)
      res = cuvk_graph_get(hGraph, "cuGraphDestroy", &graph);
   if (res != CUDA_SUCCESS)
      return res;
   cuvk_graph_release(graph);
   return CUDA_SUCCESS;
}

/* The add calls' common part: the graph, the out pointer, then the node. */
static CUresult
graph_add(CUgraphNode *out, CUgraph hgraph, const CUgraphNode *deps, size_t dep_count, CUgraphNodeType type,
          cuvk_graph_node_init_fn init, const void *data, const char *entry)
{
   struct cuvk_graph *graph HELD_GRAPH = NULL;
   CUresult res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;
   if (!out)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: phGraphNode is NULL", entry);
   res = cuvk_graph_get(hgraph, entry, &graph);
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_graph_node *node;
   res = cuvk_graph_add_node(graph, type, (struct cuvk_graph_node *const *)deps, dep_count, init, data, entry,
                             &node);
   if (res == CUDA_SUCCESS)
      *out = (CUgraphNode)node;
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphAddKernelNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                        size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
   if (!nodeParams)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphAddKernelNode: nodeParams is NULL");
   return graph_add(phGraphNode, hGraph, dependencies, numDependencies, CU_GRAPH_NODE_TYPE_KERNEL,
                    cuvk_graph_init_kernel, nodeParams, "cuGraphAddKernelNode");
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphAddMemcpyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                     size_t numDependencies, const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
   struct cuvk_graph_memcpy m = { .copy = copyParams, .ctx = ctx };
   return graph_add(phGraphNode, hGraph, dependencies, numDependencies, CU_GRAPH_NODE_TYPE_MEMCPY,
                    cuvk_graph_init_memcpy, &m, "cuGraphAddMemcpyNode");
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphAddMemsetNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                     size_t numDependencies, const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx)
{
   struct cuvk_graph_memset m = { .set = memsetParams, .ctx = ctx };
   return graph_add(phGraphNode, hGraph, dependencies, numDependencies, CU_GRAPH_NODE_TYPE_MEMSET,
                    cuvk_graph_init_memset, &m, "cuGraphAddMemsetNode");
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                   size_t numDependencies, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
   return graph_add(phGraphNode, hGraph, dependencies, numDependencies, CU_GRAPH_NODE_TYPE_HOST,
                    cuvk_graph_init_host, nodeParams, "cuGraphAddHostNode");
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphAddEmptyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                    size_t numDependencies)
{
   return graph_add(phGraphNode, hGraph, dependencies, numDependencies, CU_GRAPH_NODE_TYPE_EMPTY, NULL, NULL,
                    "cuGraphAddEmptyNode");
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphAddEventRecordNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                          size_t numDependencies, CUevent event)
{
   return graph_add(phGraphNode, hGraph, dependencies, numDependencies, CU_GRAPH_NODE_TYPE_EVENT_RECORD,
                    cuvk_graph_init_event, event, "cuGraphAddEventRecordNode");
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphAddEventWaitNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                        size_t numDependencies, CUevent event)
{
   return graph_add(phGraphNode, hGraph, dependencies, numDependencies, CU_GRAPH_NODE_TYPE_WAIT_EVENT,
                    cuvk_graph_init_event, event, "cuGraphAddEventWaitNode");
}

/* Only plain edges exist here.  Edge data CUDA itself refuses (reserved
 * bytes, an unknown type, a programmatic edge not between two kernel
 * nodes) is invalid; a programmatic edge or ports CUDA would take are
 * not supported. */
static CUresult
edge_data_check(const CUgraphEdgeData *d, const struct cuvk_graph_node *from, const struct cuvk_graph_node *to,
                size_t i, const char *entry)
{
   static const unsigned char zero[sizeof(d->reserved)];
   if (memcmp(d->reserved, zero, sizeof(zero)) != 0 || d->type > CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: edge %zu has reserved bytes set or an unknown type %u",
                        entry, i, d->type);
   if (d->type == CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC &&
       (from->type != CU_GRAPH_NODE_TYPE_KERNEL || to->type != CU_GRAPH_NODE_TYPE_KERNEL))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: edge %zu is programmatic but not between two kernel nodes",
                        entry, i);
   if (d->type || d->from_port || d->to_port)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: edge %zu is programmatic or has ports, which cuvk does not "
                        "support", entry, i);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphAddDependencies_v2(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                          const CUgraphEdgeData *edgeData, size_t numDependencies)
{
   static const char entry[] = "cuGraphAddDependencies";
   struct cuvk_graph *graph HELD_GRAPH = NULL;
   CUresult res = cuvk_driver_check(entry);
   if (res == CUDA_SUCCESS)
      res = cuvk_graph_get(hGraph, entry, &graph);
   if (res == CUDA_SUCCESS && numDependencies && (!from || !to))
      res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: from or to is NULL", entry);
   if (res != CUDA_SUCCESS)
      return res;

   pthread_mutex_lock(&graph->lock);
   /* All checked before any is added: a failed call changes nothing. */
   for (size_t i = 0; i < numDependencies && res == CUDA_SUCCESS; i++) {
      struct cuvk_graph_node *a = (struct cuvk_graph_node *)from[i], *b = (struct cuvk_graph_node *)to[i];
      if (!graph_has(graph, a) || !graph_has(graph, b))
         res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: edge %zu names a node not of graph %p", entry, i,
                          (void *)graph);
      else if (a == b)
         res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: edge %zu goes from a node to itself", entry, i);
      else if (cuvk_graph_nodes_has(&b->deps, a))
         res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: edge %zu exists already", entry, i);
      else if (edgeData)
         res = edge_data_check(&edgeData[i], a, b, i, entry);
      for (size_t j = 0; j < i && res == CUDA_SUCCESS; j++)
         if (from[j] == from[i] && to[j] == to[i])
            res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: edge %zu is given twice", entry, i);
   }
   for (size_t i = 0; i < numDependencies && res == CUDA_SUCCESS; i++)
      if (!cuvk_graph_nodes_add(&((struct cuvk_graph_node *)to[i])->deps, (struct cuvk_graph_node *)from[i]))
         res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
   pthread_mutex_unlock(&graph->lock);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphDestroyNode(CUgraphNode hNode)
{
   struct cuvk_graph_node *node HELD_NODE = NULL;
   CUresult res = cuvk_driver_check("cuGraphDestroyNode");
   if (res == CUDA_SUCCESS)
      res = cuvk_graph_node_get(hNode, "cuGraphDestroyNode", &node);
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_graph *graph = node->graph;
   pthread_mutex_lock(&graph->lock);
   bool first = cuvk_object_remove(&node->base);
   if (first) {
      /* Its edges go with it, both ways. */
      cuvk_graph_nodes_remove(&graph->nodes, node);
      for (uint32_t i = 0; i < graph->nodes.count; i++)
         cuvk_graph_nodes_remove(&graph->nodes.at[i]->deps, node);
      node->next_retired = graph->retired;
      graph->retired = node;
   }
   pthread_mutex_unlock(&graph->lock);
   if (!first)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphDestroyNode: %p is not a live graph node", (void *)hNode);
   return CUDA_SUCCESS;
}

/* ---- entry points: queries ---------------------------------------------- */

/* Fills a caller's array of count entries from n found, the CUDA way: a
 * NULL array asks for the count; a larger one gets NULLs past the end. */
static void
fill_nodes(CUgraphNode *out, size_t *count, struct cuvk_graph_node *const *found, size_t n)
{
   if (out) {
      for (size_t i = 0; i < *count; i++)
         out[i] = i < n ? (CUgraphNode)found[i] : NULL;
      if (n < *count)
         *count = n;
   } else {
      *count = n;
   }
}

static void
fill_edge_data(CUgraphEdgeData *data, size_t count)
{
   if (data)
      memset(data, 0, count * sizeof(*data));
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes)
{
   struct cuvk_graph *graph HELD_GRAPH = NULL;
   CUresult res = cuvk_driver_check("cuGraphGetNodes");
   if (res == CUDA_SUCCESS)
      res = cuvk_graph_get(hGraph, "cuGraphGetNodes", &graph);
   if (res == CUDA_SUCCESS && !numNodes)
      res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphGetNodes: numNodes is NULL");
   if (res != CUDA_SUCCESS)
      return res;
   pthread_mutex_lock(&graph->lock);
   fill_nodes(nodes, numNodes, graph->nodes.at, graph->nodes.count);
   pthread_mutex_unlock(&graph->lock);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode *rootNodes, size_t *numRootNodes)
{
   struct cuvk_graph *graph HELD_GRAPH = NULL;
   CUresult res = cuvk_driver_check("cuGraphGetRootNodes");
   if (res == CUDA_SUCCESS)
      res = cuvk_graph_get(hGraph, "cuGraphGetRootNodes", &graph);
   if (res == CUDA_SUCCESS && !numRootNodes)
      res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphGetRootNodes: numRootNodes is NULL");
   if (res != CUDA_SUCCESS)
      return res;
   pthread_mutex_lock(&graph->lock);
   struct cuvk_graph_node **roots = malloc((graph->nodes.count + 1) * sizeof(*roots));
   size_t n = 0;
   if (roots) {
      for (uint32_t i = 0; i < graph->nodes.count; i++)
         if (!graph->nodes.at[i]->deps.count)
            roots[n++] = graph->nodes.at[i];
      fill_nodes(rootNodes, numRootNodes, roots, n);
   }
   pthread_mutex_unlock(&graph->lock);
   free(roots);
   return roots ? CUDA_SUCCESS : cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuGraphGetRootNodes: out of host memory");
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphGetEdges_v2(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *edgeData,
                   size_t *numEdges)
{
   struct cuvk_graph *graph HELD_GRAPH = NULL;
   CUresult res = cuvk_driver_check("cuGraphGetEdges");
   if (res == CUDA_SUCCESS)
      res = cuvk_graph_get(hGraph, "cuGraphGetEdges", &graph);
   if (res == CUDA_SUCCESS && (!numEdges || (!from != !to)))
      res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphGetEdges: numEdges is NULL, or one of from and to");
   if (res != CUDA_SUCCESS)
      return res;
   pthread_mutex_lock(&graph->lock);
   size_t n = 0;
   for (uint32_t i = 0; i < graph->nodes.count; i++) {
      struct cuvk_graph_node *b = graph->nodes.at[i];
      for (uint32_t j = 0; j < b->deps.count; j++, n++) {
         if (from && n < *numEdges) {
            from[n] = (CUgraphNode)b->deps.at[j];
            to[n] = (CUgraphNode)b;
         }
      }
   }
   pthread_mutex_unlock(&graph->lock);
   if (from) {
      for (size_t i = n; i < *numEdges; i++)
         from[i] = to[i] = NULL;
      fill_edge_data(edgeData, *numEdges);
      if (n < *numEdges)
         *numEdges = n;
   } else {
      *numEdges = n;
   }
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType *type)
{
   struct cuvk_graph_node *node HELD_NODE = NULL;
   CUresult res = cuvk_driver_check("cuGraphNodeGetType");
   if (res == CUDA_SUCCESS)
      res = cuvk_graph_node_get(hNode, "cuGraphNodeGetType", &node);
   if (res == CUDA_SUCCESS && !type)
      res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphNodeGetType: type is NULL");
   if (res == CUDA_SUCCESS)
      *type = node->type;
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphNodeGetDependencies_v2(CUgraphNode hNode, CUgraphNode *dependencies, CUgraphEdgeData *edgeData,
                              size_t *numDependencies)
{
   struct cuvk_graph_node *node HELD_NODE = NULL;
   CUresult res = cuvk_driver_check("cuGraphNodeGetDependencies");
   if (res == CUDA_SUCCESS)
      res = cuvk_graph_node_get(hNode, "cuGraphNodeGetDependencies", &node);
   if (res == CUDA_SUCCESS && !numDependencies)
      res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphNodeGetDependencies: numDependencies is NULL");
   if (res != CUDA_SUCCESS)
      return res;
   pthread_mutex_lock(&node->graph->lock);
   fill_nodes(dependencies, numDependencies, node->deps.at, node->deps.count);
   pthread_mutex_unlock(&node->graph->lock);
   if (dependencies)
      fill_edge_data(edgeData, *numDependencies);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphNodeGetDependentNodes_v2(CUgraphNode hNode, CUgraphNode *dependentNodes, CUgraphEdgeData *edgeData,
                                size_t *numDependentNodes)
{
   struct cuvk_graph_node *node HELD_NODE = NULL;
   CUresult res = cuvk_driver_check("cuGraphNodeGetDependentNodes");
   if (res == CUDA_SUCCESS)
      res = cuvk_graph_node_get(hNode, "cuGraphNodeGetDependentNodes", &node);
   if (res == CUDA_SUCCESS && !numDependentNodes)
      res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGraphNodeGetDependentNodes: numDependentNodes is NULL");
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_graph *graph = node->graph;
   pthread_mutex_lock(&graph->lock);
   struct cuvk_graph_node **found = malloc((graph->nodes.count + 1) * sizeof(*found));
   size_t n = 0;
   if (found) {
      for (uint32_t i = 0; i < graph->nodes.count; i++)
         if (cuvk_graph_nodes_has(&graph->nodes.at[i]->deps, node))
            found[n++] = graph->nodes.at[i];
      fill_nodes(dependentNodes, numDependentNodes, found, n);
   }
   pthread_mutex_unlock(&graph->lock);
   free(found);
   if (!found)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuGraphNodeGetDependentNodes: out of host memory");
   if (dependentNodes)
      fill_edge_data(edgeData, *numDependentNodes);
   return CUDA_SUCCESS;
}

/* A node of the type asked for, for the GetParams calls. */
static CUresult
node_of_type(CUgraphNode hnode, CUgraphNodeType type, const void *out, const char *entry,
             struct cuvk_graph_node **node)
{
   CUresult res = cuvk_driver_check(entry);
   if (res == CUDA_SUCCESS)
      res = cuvk_graph_node_get(hnode, entry, node);
   if (res != CUDA_SUCCESS)
      return res;
   if (!out)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: the output is NULL", entry);
   if ((*node)->type != type)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: node %p is of another type (%d)", entry, (void *)hnode,
                        (int)(*node)->type);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphKernelNodeGetParams_v2(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
   struct cuvk_graph_node *node HELD_NODE = NULL;
   CUresult res = node_of_type(hNode, CU_GRAPH_NODE_TYPE_KERNEL, nodeParams, "cuGraphKernelNodeGetParams", &node);
   if (res != CUDA_SUCCESS)
      return res;
   const struct cuvk_graph_kernel *k = &node->u.kernel;
   *nodeParams = (CUDA_KERNEL_NODE_PARAMS){
      .func = k->is_kernel ? NULL : k->func,
      .kern = k->is_kernel ? (CUkernel)k->func : NULL,
      .ctx = k->ctx,
      .gridDimX = k->grid[0], .gridDimY = k->grid[1], .gridDimZ = k->grid[2],
      .blockDimX = k->block[0], .blockDimY = k->block[1], .blockDimZ = k->block[2],
      .sharedMemBytes = k->shared,
      /* The node's own copies, valid while the node lives. */
      .kernelParams = k->param_ptrs,
   };
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphMemcpyNodeGetParams(CUgraphNode hNode, CUDA_MEMCPY3D *nodeParams)
{
   struct cuvk_graph_node *node HELD_NODE = NULL;
   CUresult res = node_of_type(hNode, CU_GRAPH_NODE_TYPE_MEMCPY, nodeParams, "cuGraphMemcpyNodeGetParams", &node);
   if (res == CUDA_SUCCESS)
      *nodeParams = node->u.memcpy.copy;
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphMemsetNodeGetParams(CUgraphNode hNode, CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
   struct cuvk_graph_node *node HELD_NODE = NULL;
   CUresult res = node_of_type(hNode, CU_GRAPH_NODE_TYPE_MEMSET, nodeParams, "cuGraphMemsetNodeGetParams", &node);
   if (res == CUDA_SUCCESS)
      *nodeParams = node->u.memset.set;
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphHostNodeGetParams(CUgraphNode hNode, CUDA_HOST_NODE_PARAMS *nodeParams)
{
   struct cuvk_graph_node *node HELD_NODE = NULL;
   CUresult res = node_of_type(hNode, CU_GRAPH_NODE_TYPE_HOST, nodeParams, "cuGraphHostNodeGetParams", &node);
   if (res == CUDA_SUCCESS)
      *nodeParams = node->u.host;
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphEventRecordNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
   struct cuvk_graph_node *node HELD_NODE = NULL;
   CUresult res = node_of_type(hNode, CU_GRAPH_NODE_TYPE_EVENT_RECORD, event_out,
                               "cuGraphEventRecordNodeGetEvent", &node);
   if (res == CUDA_SUCCESS)
      *event_out = node->u.event;
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuGraphEventWaitNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
   struct cuvk_graph_node *node HELD_NODE = NULL;
   CUresult res = node_of_type(hNode, CU_GRAPH_NODE_TYPE_WAIT_EVENT, event_out,
                               "cuGraphEventWaitNodeGetEvent", &node);
   if (res == CUDA_SUCCESS)
      *event_out = node->u.event;
   return res;
}
