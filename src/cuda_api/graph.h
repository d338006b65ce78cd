/*
 * CUDA graphs (CUgraph, CUgraphNode, CUgraphExec) and stream capture.
 *
 * A graph is a list of nodes, each holding what its operation needs to
 * run again (a kernel's parameter bytes, a copy's CUDA_MEMCPY3D, a fill's
 * CUDA_MEMSET_NODE_PARAMS, a host function, an event) and the nodes it
 * depends on.  Building and capture fill it in (graph.c,
 * stream_capture.c); instantiation orders a copy of it once (a
 * topological order, graph_exec.c), and a launch issues that order onto
 * the launch stream through the same calls a program makes, so a node runs
 * exactly as its stream operation would, after everything it depends on.
 *
 * Graphs belong to no context: a node names its own (copies and fills) or
 * runs in the launch stream's.  Handles are checked through the object
 * table; a node is an owned object of its graph, so a node handle is live
 * exactly while its graph is and the node was not destroyed.
 *
 * Locking: each graph has its own lock, held while a call reads or changes
 * it.  Capture state (which streams capture into which graph, what events
 * recorded during capture stand for) is guarded by one process-wide lock
 * in stream_capture.c, taken before any graph's.
 */
#ifndef CUVK_API_GRAPH_H
#define CUVK_API_GRAPH_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <cuda.h>

#include "cuda_api/object.h"

struct cuvk_stream;
struct cuvk_event;
struct cuvk_graph_node;

/* Nodes in the order they were added, no node twice: a node's
 * dependencies, a graph's nodes, a capturing stream's dependencies, what
 * an event recorded in a capture stands for. */
struct cuvk_graph_nodes {
   struct cuvk_graph_node **at;
   uint32_t count, capacity;
};

bool cuvk_graph_nodes_has(const struct cuvk_graph_nodes *set, const struct cuvk_graph_node *node);
/* Appends node, which the caller knows the set lacks; false when out of
 * memory. */
bool cuvk_graph_nodes_add(struct cuvk_graph_nodes *set, struct cuvk_graph_node *node);
/* Adds the nodes of from the set lacks; false when out of memory (those
 * added so far stay). */
bool cuvk_graph_nodes_merge(struct cuvk_graph_nodes *set, struct cuvk_graph_node *const *from, uint32_t n);
/* Takes node out, keeping the others' order. */
void cuvk_graph_nodes_remove(struct cuvk_graph_nodes *set, const struct cuvk_graph_node *node);
/* The set becomes from's nodes. */
bool cuvk_graph_nodes_copy(struct cuvk_graph_nodes *set, struct cuvk_graph_node *const *from, uint32_t n);
void cuvk_graph_nodes_finish(struct cuvk_graph_nodes *set);

/* A kernel node's launch, its parameters as bytes. */
struct cuvk_graph_kernel {
   CUfunction func;                /* or a CUkernel, resolved per launch */
   unsigned grid[3], block[3], shared;
   uint8_t *params;                /* the parameter bytes, copied at add */
   uint32_t param_bytes;
   uint32_t param_count;
   void **param_ptrs;              /* into params: what GetParams returns */
   CUcontext ctx;                  /* the v2 params' context, or NULL */
   bool is_kernel;                 /* func is a CUkernel */
};

struct cuvk_graph_node {
   struct cuvk_object base;        /* CUVK_OBJECT_GRAPH_NODE, owned by its graph */
   struct cuvk_graph *graph;
   CUgraphNodeType type;
   /* The nodes this one depends on, in the order given. */
   struct cuvk_graph_nodes deps;
   /* On the graph's retired list once cuGraphDestroyNode took it out: a
    * call that looked it up before may still read it until the graph
    * goes. */
   struct cuvk_graph_node *next_retired;
   union {
      struct cuvk_graph_kernel kernel;
      struct {
         CUDA_MEMCPY3D copy;
         CUcontext ctx;
      } memcpy;
      struct {
         CUDA_MEMSET_NODE_PARAMS set;
         CUcontext ctx;
      } memset;
      CUDA_HOST_NODE_PARAMS host;
      CUevent event;               /* EVENT_RECORD and WAIT_EVENT */
   } u;
};

struct cuvk_graph {
   struct cuvk_object base;        /* CUVK_OBJECT_GRAPH, counted */
   pthread_mutex_t lock;
   struct cuvk_graph_nodes nodes;  /* in creation order */
   struct cuvk_graph_node *retired;
};

/* An instantiated graph: the nodes' parameters copied, in an order that
 * puts every node after its dependencies. */
struct cuvk_graph_exec {
   struct cuvk_object base;        /* CUVK_OBJECT_GRAPH_EXEC, counted */
   /* Launches of one exec are ordered, on whatever streams they go to;
    * held through a launch. */
   pthread_mutex_t lock;
   struct cuvk_graph_node *nodes;  /* copies, in launch order (deps unused) */
   uint32_t node_count;
   CUevent done;                   /* recorded after each launch; NULL until the first */
   CUcontext done_ctx;
};

/* graph.c */

/* The live graph or node a handle names, with a reference the caller
 * drops with cuvk_object_put; CUDA_ERROR_INVALID_VALUE, logged, otherwise. */
CUresult cuvk_graph_get(CUgraph hgraph, const char *entry, struct cuvk_graph **out);
CUresult cuvk_graph_node_get(CUgraphNode hnode, const char *entry, struct cuvk_graph_node **out);

/* A new empty graph, entered in the table. */
CUresult cuvk_graph_create(struct cuvk_graph **out, const char *entry);
/* Takes the graph out of the table (its handle and its nodes' die). */
void cuvk_graph_release(struct cuvk_graph *graph);

/* Adds a node of type with the given dependencies (checked: live nodes of
 * this graph, no repeats) and fills its operation with init(node, data).
 * The graph's lock is taken here; init runs under it. */
typedef CUresult (*cuvk_graph_node_init_fn)(struct cuvk_graph_node *node, const void *data);
CUresult cuvk_graph_add_node(struct cuvk_graph *graph, CUgraphNodeType type, struct cuvk_graph_node *const *deps,
                             size_t dep_count, cuvk_graph_node_init_fn init, const void *data, const char *entry,
                             struct cuvk_graph_node **out);

/* The node initialisers, for capture as for the cuGraphAdd*Node calls. */
CUresult cuvk_graph_init_kernel(struct cuvk_graph_node *node, const void *params_v2);
CUresult cuvk_graph_init_memcpy(struct cuvk_graph_node *node, const void *node_memcpy);
CUresult cuvk_graph_init_memset(struct cuvk_graph_node *node, const void *node_memset);
CUresult cuvk_graph_init_host(struct cuvk_graph_node *node, const void *host_params);
CUresult cuvk_graph_init_event(struct cuvk_graph_node *node, const void *event);

/* What a memcpy or memset node stores, with its context. */
struct cuvk_graph_memcpy {
   const CUDA_MEMCPY3D *copy;
   CUcontext ctx;
};
struct cuvk_graph_memset {
   const CUDA_MEMSET_NODE_PARAMS *set;
   CUcontext ctx;
};

/* Frees what a node's operation holds (not the node). */
void cuvk_graph_node_finish(struct cuvk_graph_node *node);
/* Copies src's operation into dst (an exec's copy): deep for kernel
 * parameters. */
CUresult cuvk_graph_node_copy_op(struct cuvk_graph_node *dst, const struct cuvk_graph_node *src);

/* graph_exec.c: runs one node's operation on hstream. */
CUresult cuvk_graph_node_run(const struct cuvk_graph_node *node, CUstream hstream);

/* stream_capture.c */

/* Whether stream is capturing (or its capture was invalidated and not
 * ended yet). */
bool cuvk_stream_capturing(const struct cuvk_stream *stream);
/* A call that cannot be captured was made on a capturing stream: the
 * capture is invalidated, and CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED
 * logged and returned. */
CUresult cuvk_capture_refuse(struct cuvk_stream *stream, const char *entry);
/* Records a node of type on the capturing stream, after the stream's
 * current dependencies; the stream then depends on the new node. */
CUresult cuvk_capture_add(struct cuvk_stream *stream, CUgraphNodeType type, cuvk_graph_node_init_fn init,
                          const void *data, const char *entry);
/* cuEventRecord on a capturing stream: the event stands for the stream's
 * current dependencies in the capture, for cuStreamWaitEvent. */
CUresult cuvk_capture_event_record(struct cuvk_stream *stream, struct cuvk_event *event, const char *entry);
/* cuStreamWaitEvent: handled here (true, with *res) when the stream is
 * capturing or the event was recorded in a live capture. */
bool cuvk_capture_wait_event(struct cuvk_stream *stream, struct cuvk_event *event, unsigned flags,
                             CUresult *res);
/* A stream is going away: it leaves its capture, which it invalidates. */
void cuvk_capture_stream_gone(struct cuvk_stream *stream);
/* An event is going away, or recorded outside a capture again: it
 * forgets what it stood for in a capture. */
void cuvk_capture_event_gone(struct cuvk_event *event);

#endif
