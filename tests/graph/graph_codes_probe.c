/*
 * graph_codes_probe: the error codes of the graph and stream-capture
 * calls (cuGraphCreate and cuGraphDestroy, the cuGraphAdd*Node calls,
 * cuGraphAddDependencies, the graph and node queries, the node parameter
 * reads, cuGraphInstantiateWithFlags, cuGraphLaunch, cuGraphExecDestroy,
 * cuStreamBeginCapture to cuStreamEndCapture, the capture queries and
 * cuThreadExchangeStreamCaptureMode, the event calls a capture changes,
 * and the runtime's twins) given bad input.  cuvk took their codes from
 * NVIDIA's documentation; one run of this program on real CUDA measures
 * them, and graph.codes compares its output on cuvk with the codes cuvk
 * documents (graph_codes_expected.txt).  tests/common/codes_harness.h
 * says how a probe runs and what it prints.
 *
 * Each case makes the graphs, streams, events, memory and module it
 * needs, makes its one call, and the release hook frees all of it before
 * the next.  A case that begins a capture holds its stream, and the
 * release hook ends that capture first (cuStreamEndCapture, the graph it
 * gives destroyed), so that no capture outlives its case: a capture left
 * running in CUDA's global mode would refuse the next case's set-up.  For
 * the same reason every set-up call of a capturing case (streams, events,
 * memory, an event recorded outside) comes before its cuStreamBeginCapture,
 * so that the call probed is the only one the capture sees.
 *
 * Cases handing the library a NULL, made-up or destroyed handle, a NULL
 * output or a NULL array with a count run forked, so that a library that
 * crashes on one costs that case only.
 *
 * The kernel nodes need a kernel: axpb, hand-written PTX (as in
 * test_graph.c, no nvcc needed) loaded with cuModuleLoadData.  No kernel
 * node is launched, so its pointer argument is 0.
 */
#include "codes_harness.h"
#include "axpb_ptx.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- The entry points, looked up at run time ------------------------- */

#define DRIVER_CALLS(X)                                                        \
   X(cuStreamCreate)                                                           \
   X(cuStreamDestroy)                                                          \
   X(cuStreamSynchronize)                                                      \
   X(cuStreamQuery)                                                            \
   X(cuStreamWaitEvent)                                                        \
   X(cuEventCreate)                                                            \
   X(cuEventDestroy)                                                           \
   X(cuEventRecord)                                                            \
   X(cuEventRecordWithFlags)                                                   \
   X(cuMemAlloc)                                                               \
   X(cuMemFree)                                                                \
   X(cuMemsetD32Async)                                                         \
   X(cuModuleLoadData)                                                         \
   X(cuModuleGetFunction)                                                      \
   X(cuModuleUnload)                                                           \
   X(cuGraphCreate)                                                            \
   X(cuGraphDestroy)                                                           \
   X(cuGraphAddKernelNode)                                                     \
   X(cuGraphAddMemcpyNode)                                                     \
   X(cuGraphAddMemsetNode)                                                     \
   X(cuGraphAddHostNode)                                                       \
   X(cuGraphAddEmptyNode)                                                      \
   X(cuGraphAddEventRecordNode)                                                \
   X(cuGraphAddEventWaitNode)                                                  \
   X(cuGraphAddDependencies)                                                   \
   X(cuGraphDestroyNode)                                                       \
   X(cuGraphGetNodes)                                                          \
   X(cuGraphGetRootNodes)                                                      \
   X(cuGraphGetEdges)                                                          \
   X(cuGraphNodeGetType)                                                       \
   X(cuGraphNodeGetDependencies)                                               \
   X(cuGraphNodeGetDependentNodes)                                             \
   X(cuGraphKernelNodeGetParams)                                               \
   X(cuGraphMemcpyNodeGetParams)                                               \
   X(cuGraphMemsetNodeGetParams)                                               \
   X(cuGraphHostNodeGetParams)                                                 \
   X(cuGraphEventRecordNodeGetEvent)                                           \
   X(cuGraphEventWaitNodeGetEvent)                                             \
   X(cuGraphInstantiateWithFlags)                                              \
   X(cuGraphLaunch)                                                            \
   X(cuGraphExecDestroy)                                                       \
   X(cuStreamBeginCapture)                                                     \
   X(cuStreamEndCapture)                                                       \
   X(cuStreamIsCapturing)                                                      \
   X(cuStreamGetCaptureInfo)                                                   \
   X(cuThreadExchangeStreamCaptureMode)

#define RUNTIME_CALLS(X)                                                       \
   X(cudaGraphCreate)                                                          \
   X(cudaGraphDestroy)                                                         \
   X(cudaGraphAddEmptyNode)                                                    \
   X(cudaGraphAddMemsetNode)                                                   \
   X(cudaGraphAddDependencies)                                                 \
   X(cudaGraphNodeGetType)                                                     \
   X(cudaGraphInstantiate)                                                     \
   X(cudaGraphLaunch)                                                          \
   X(cudaGraphExecDestroy)                                                     \
   X(cudaStreamBeginCapture)                                                   \
   X(cudaStreamEndCapture)                                                     \
   X(cudaStreamIsCapturing)                                                    \
   X(cudaStreamGetCaptureInfo)                                                 \
   X(cudaStreamSynchronize)                                                    \
   X(cudaStreamWaitEvent)                                                      \
   X(cudaEventRecordWithFlags)                                                 \
   X(cudaThreadExchangeStreamCaptureMode)

DRIVER_CALLS(CODES_STATIC_POINTER)
RUNTIME_CALLS(CODES_STATIC_POINTER)

static void
look_up(void)
{
   DRIVER_CALLS(CODES_LOOK_UP_DRIVER)
   RUNTIME_CALLS(CODES_LOOK_UP_RUNTIME)
}

/* ---- What each case made ----------------------------------------------- */

#define MAX_HELD 8
static struct {
   CUstream captures[MAX_HELD]; /* streams a capture was begun on */
   CUgraphExec execs[MAX_HELD];
   CUgraph graphs[MAX_HELD];
   CUevent events[MAX_HELD];
   CUstream streams[MAX_HELD];
   CUdeviceptr memory[MAX_HELD];
   CUmodule modules[MAX_HELD];
   unsigned n_captures, n_execs, n_graphs, n_events, n_streams, n_memory, n_modules;
} held;

#define HOLD(list, count, value) CODES_HOLD(held.list, held.count, value)

/* Frees what the case made: its captures ended first (a capture's graph
 * destroyed with it; one ended already answers an error, ignored), then
 * the execs, graphs, events and streams, the memory and modules last; the
 * thread's capture mode set back to CUDA's default. */
static void
release_held(void)
{
   CALL(cuCtxSetCurrent)(codes_primary);
   while (held.n_captures) {
      CUgraph g = NULL;
      if (CALL(cuStreamEndCapture)(held.captures[--held.n_captures], &g) == CUDA_SUCCESS && g)
         CALL(cuGraphDestroy)(g);
   }
   CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_GLOBAL;
   CALL(cuThreadExchangeStreamCaptureMode)(&mode);
   while (held.n_execs)
      CALL(cuGraphExecDestroy)(held.execs[--held.n_execs]);
   while (held.n_graphs)
      CALL(cuGraphDestroy)(held.graphs[--held.n_graphs]);
   while (held.n_events)
      CALL(cuEventDestroy)(held.events[--held.n_events]);
   while (held.n_streams)
      CALL(cuStreamDestroy)(held.streams[--held.n_streams]);
   while (held.n_memory)
      CALL(cuMemFree)(held.memory[--held.n_memory]);
   while (held.n_modules)
      CALL(cuModuleUnload)(held.modules[--held.n_modules]);
}

/* ---- Set-up ------------------------------------------------------------- */


static CUfunction
axpb(void)
{
   CUmodule mod = NULL;
   CUfunction f = NULL;
   NEED(CALL(cuModuleLoadData)(&mod, axpb_ptx));
   HOLD(modules, n_modules, mod);
   NEED(CALL(cuModuleGetFunction)(&f, mod, "axpb"));
   return f;
}

/* axpb's arguments: static, so that the node's kernelParams point at
 * memory that outlives the call. */
static struct {
   CUdeviceptr y;
   float a, b;
   unsigned n;
} axpb_args = { 0, 2.0f, 1.0f, 32 };
static void *axpb_params[] = { &axpb_args.y, &axpb_args.a, &axpb_args.b, &axpb_args.n };

/* One block of 32 threads of axpb, its arguments as kernelParams. */
static CUDA_KERNEL_NODE_PARAMS
kernel_params(void)
{
   CUDA_KERNEL_NODE_PARAMS p;
   memset(&p, 0, sizeof(p));
   p.func = axpb();
   p.gridDimX = p.gridDimY = p.gridDimZ = 1;
   p.blockDimX = 32;
   p.blockDimY = p.blockDimZ = 1;
   p.kernelParams = axpb_params;
   return p;
}

static CUdeviceptr
mem_alloc(size_t size)
{
   CUdeviceptr p = 0;
   NEED(CALL(cuMemAlloc)(&p, size));
   HOLD(memory, n_memory, p);
   return p;
}

/* 4096 bytes from one allocation to another. */
static CUDA_MEMCPY3D
memcpy_params(void)
{
   CUDA_MEMCPY3D c;
   memset(&c, 0, sizeof(c));
   c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
   c.srcDevice = mem_alloc(4096);
   c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
   c.dstDevice = mem_alloc(4096);
   c.WidthInBytes = 4096;
   c.Height = 1;
   c.Depth = 1;
   return c;
}

/* 1024 words of an allocation, one row. */
static CUDA_MEMSET_NODE_PARAMS
memset_params(void)
{
   CUDA_MEMSET_NODE_PARAMS s;
   memset(&s, 0, sizeof(s));
   s.dst = mem_alloc(4096);
   s.value = 0x12345678u;
   s.elementSize = 4;
   s.width = 1024;
   s.height = 1;
   return s;
}

static void CUDA_CB
host_nop(void *data)
{
   (void)data;
}

static CUDA_HOST_NODE_PARAMS
host_params(void)
{
   CUDA_HOST_NODE_PARAMS h = { host_nop, NULL };
   return h;
}

static CUgraph
make_graph(void)
{
   CUgraph g = NULL;
   NEED(CALL(cuGraphCreate)(&g, 0));
   HOLD(graphs, n_graphs, g);
   return g;
}

static CUgraph
destroyed_graph(void)
{
   CUgraph g = NULL;
   NEED(CALL(cuGraphCreate)(&g, 0));
   NEED(CALL(cuGraphDestroy)(g));
   return g;
}

/* An address no library handed out, for a made-up handle: static zeros,
 * so that a library reading a handle's memory reads zeros rather than
 * faulting. */
static uint64_t made_up[64];
#define MADE_UP(type) ((type)(void *)made_up)

static CUgraphNode
empty_node(CUgraph g)
{
   CUgraphNode n = NULL;
   NEED(CALL(cuGraphAddEmptyNode)(&n, g, NULL, 0));
   return n;
}

/* A node of g, destroyed again: a stale handle. */
static CUgraphNode
destroyed_node(CUgraph g)
{
   CUgraphNode n = empty_node(g);
   NEED(CALL(cuGraphDestroyNode)(n));
   return n;
}

/* A graph of two empty nodes, a -> b. */
static CUgraph
pair(CUgraphNode *a, CUgraphNode *b)
{
   CUgraph g = make_graph();
   *a = empty_node(g);
   *b = empty_node(g);
   NEED(CALL(cuGraphAddDependencies)(g, a, b, NULL, 1));
   return g;
}

static CUgraphExec
make_exec(CUgraph g)
{
   CUgraphExec e = NULL;
   NEED(CALL(cuGraphInstantiateWithFlags)(&e, g, 0));
   HOLD(execs, n_execs, e);
   return e;
}

/* The exec of a graph of one empty node. */
static CUgraphExec
empty_exec(void)
{
   CUgraph g = make_graph();
   empty_node(g);
   return make_exec(g);
}

static CUgraphExec
destroyed_exec(void)
{
   CUgraph g = make_graph();
   empty_node(g);
   CUgraphExec e = NULL;
   NEED(CALL(cuGraphInstantiateWithFlags)(&e, g, 0));
   NEED(CALL(cuGraphExecDestroy)(e));
   return e;
}

static CUstream
make_stream_flags(unsigned flags)
{
   CUstream s = NULL;
   NEED(CALL(cuStreamCreate)(&s, flags));
   HOLD(streams, n_streams, s);
   return s;
}

static CUstream make_stream(void) { return make_stream_flags(CU_STREAM_NON_BLOCKING); }

static CUstream
destroyed_stream(void)
{
   CUstream s = NULL;
   NEED(CALL(cuStreamCreate)(&s, CU_STREAM_NON_BLOCKING));
   NEED(CALL(cuStreamDestroy)(s));
   return s;
}

static CUevent
make_event(void)
{
   CUevent e = NULL;
   NEED(CALL(cuEventCreate)(&e, CU_EVENT_DISABLE_TIMING));
   HOLD(events, n_events, e);
   return e;
}

static CUevent
destroyed_event(void)
{
   CUevent e = NULL;
   NEED(CALL(cuEventCreate)(&e, CU_EVENT_DISABLE_TIMING));
   NEED(CALL(cuEventDestroy)(e));
   return e;
}

/* An event recorded on a stream of its own, outside any capture, and
 * complete. */
static CUevent
outside_event(void)
{
   CUevent e = make_event();
   CUstream s = make_stream();
   NEED(CALL(cuEventRecord)(e, s));
   NEED(CALL(cuStreamSynchronize)(s));
   return e;
}

/* A capture begun on s, ended by the release hook. */
static void
begin(CUstream s, CUstreamCaptureMode mode)
{
   NEED(CALL(cuStreamBeginCapture)(s, mode));
   HOLD(captures, n_captures, s);
}

static CUstream
capturing_stream(void)
{
   CUstream s = make_stream();
   begin(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
   return s;
}

/* A capture begun on origin that forked onto other through an event
 * recorded on origin, e made beforehand. */
static void
fork_capture(CUstream origin, CUstream other, CUevent e)
{
   begin(origin, CU_STREAM_CAPTURE_MODE_GLOBAL);
   NEED(CALL(cuEventRecord)(e, origin));
   NEED(CALL(cuStreamWaitEvent)(other, e, 0));
}

/* The case's call for graphs and execs made: held. */
static int
graph_made(CUresult res, CUgraph g)
{
   if (res == CUDA_SUCCESS && g)
      HOLD(graphs, n_graphs, g);
   return (int)res;
}

static int
exec_made(CUresult res, CUgraphExec e)
{
   if (res == CUDA_SUCCESS && e)
      HOLD(execs, n_execs, e);
   return (int)res;
}

/* ---- cuGraphCreate, cuGraphDestroy -------------------------------------- */

static int
create(unsigned flags)
{
   CUgraph g = NULL;
   CUresult res = CALL(cuGraphCreate)(&g, flags);
   return graph_made(res, g);
}
static int create_ok(void) { return create(0); }
static int create_flags_1(void) { return create(1); }
static int create_null(void) { return (int)CALL(cuGraphCreate)(NULL, 0); }

/* A graph with a node: its node goes with it. */
static int
destroy_ok(void)
{
   CUgraph g = make_graph();
   empty_node(g);
   held.n_graphs--; /* destroyed here, not again */
   return (int)CALL(cuGraphDestroy)(g);
}
static int destroy_null(void) { return (int)CALL(cuGraphDestroy)(NULL); }
static int destroy_made_up(void) { return (int)CALL(cuGraphDestroy)(MADE_UP(CUgraph)); }
static int destroy_destroyed(void) { return (int)CALL(cuGraphDestroy)(destroyed_graph()); }

/* ---- The cuGraphAdd*Node calls ----------------------------------------- */

enum kind { KERNEL, MEMCPY, MEMSET, HOST, EMPTY, EVENT_RECORD, EVENT_WAIT };

/* The add call of kind with valid parameters made now; only out, the
 * graph and the dependencies vary. */
static int
add_node(enum kind kind, CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t n)
{
   switch (kind) {
   case KERNEL: {
      CUDA_KERNEL_NODE_PARAMS p = kernel_params();
      return (int)CALL(cuGraphAddKernelNode)(out, g, deps, n, &p);
   }
   case MEMCPY: {
      CUDA_MEMCPY3D c = memcpy_params();
      return (int)CALL(cuGraphAddMemcpyNode)(out, g, deps, n, &c, codes_primary);
   }
   case MEMSET: {
      CUDA_MEMSET_NODE_PARAMS s = memset_params();
      return (int)CALL(cuGraphAddMemsetNode)(out, g, deps, n, &s, codes_primary);
   }
   case HOST: {
      CUDA_HOST_NODE_PARAMS h = host_params();
      return (int)CALL(cuGraphAddHostNode)(out, g, deps, n, &h);
   }
   case EMPTY:
      return (int)CALL(cuGraphAddEmptyNode)(out, g, deps, n);
   case EVENT_RECORD:
      return (int)CALL(cuGraphAddEventRecordNode)(out, g, deps, n, make_event());
   case EVENT_WAIT:
      return (int)CALL(cuGraphAddEventWaitNode)(out, g, deps, n, make_event());
   }
   codes_setup_fail("no such kind of node");
   return -1;
}

static int
add_ok(enum kind kind)
{
   CUgraph g = make_graph();
   CUgraphNode dep = empty_node(g), n = NULL;
   return add_node(kind, &n, g, &dep, 1);
}
static int add_null_out(enum kind kind) { return add_node(kind, NULL, make_graph(), NULL, 0); }
static int
add_null_graph(enum kind kind)
{
   CUgraphNode n = NULL;
   return add_node(kind, &n, NULL, NULL, 0);
}
/* One dependency and no array. */
static int
add_deps_null(enum kind kind)
{
   CUgraphNode n = NULL;
   return add_node(kind, &n, make_graph(), NULL, 1);
}
static int
add_dep_other_graph(enum kind kind)
{
   CUgraph g = make_graph();
   CUgraphNode dep = empty_node(make_graph()), n = NULL;
   return add_node(kind, &n, g, &dep, 1);
}
static int
add_dep_twice(enum kind kind)
{
   CUgraph g = make_graph();
   CUgraphNode dep = empty_node(g), n = NULL;
   const CUgraphNode deps[2] = { dep, dep };
   return add_node(kind, &n, g, deps, 2);
}

/* The six cases every add call has, as kind_ok, kind_null_out, ... */
#define ADD_CASES(name, kind)                                                  \
   static int name##_ok(void) { return add_ok(kind); }                         \
   static int name##_null_out(void) { return add_null_out(kind); }             \
   static int name##_null_graph(void) { return add_null_graph(kind); }         \
   static int name##_deps_null(void) { return add_deps_null(kind); }           \
   static int name##_dep_other_graph(void) { return add_dep_other_graph(kind); } \
   static int name##_dep_twice(void) { return add_dep_twice(kind); }
ADD_CASES(kernel, KERNEL)
ADD_CASES(memcpy, MEMCPY)
ADD_CASES(memset, MEMSET)
ADD_CASES(host, HOST)
ADD_CASES(empty, EMPTY)
ADD_CASES(event_record, EVENT_RECORD)
ADD_CASES(event_wait, EVENT_WAIT)

static int
empty_dep_destroyed(void)
{
   CUgraph g = make_graph();
   CUgraphNode dep = destroyed_node(g), n = NULL;
   return (int)CALL(cuGraphAddEmptyNode)(&n, g, &dep, 1);
}
static int
empty_dep_made_up(void)
{
   CUgraphNode dep = MADE_UP(CUgraphNode), n = NULL;
   return (int)CALL(cuGraphAddEmptyNode)(&n, make_graph(), &dep, 1);
}
static int
empty_destroyed_graph(void)
{
   CUgraphNode n = NULL;
   return (int)CALL(cuGraphAddEmptyNode)(&n, destroyed_graph(), NULL, 0);
}

/* Kernel nodes: the parameters one at a time. */
static int
add_kernel(CUDA_KERNEL_NODE_PARAMS p)
{
   CUgraphNode n = NULL;
   return (int)CALL(cuGraphAddKernelNode)(&n, make_graph(), NULL, 0, &p);
}
static int
kernel_null_params(void)
{
   CUgraphNode n = NULL;
   return (int)CALL(cuGraphAddKernelNode)(&n, make_graph(), NULL, 0, NULL);
}
static int
kernel_func_null(void)
{
   CUDA_KERNEL_NODE_PARAMS p = kernel_params();
   p.func = NULL;
   return add_kernel(p);
}
static int
kernel_grid_0(void)
{
   CUDA_KERNEL_NODE_PARAMS p = kernel_params();
   p.gridDimX = 0;
   return add_kernel(p);
}
static int
kernel_block_0(void)
{
   CUDA_KERNEL_NODE_PARAMS p = kernel_params();
   p.blockDimX = 0;
   return add_kernel(p);
}
/* More threads than a block can have (1024 on every device since sm_20):
 * a launch refuses it; whether the add does is the question. */
static int
kernel_block_1025(void)
{
   CUDA_KERNEL_NODE_PARAMS p = kernel_params();
   p.blockDimX = 1025;
   return add_kernel(p);
}
/* A kernel of four parameters given neither kernelParams nor extra. */
static int
kernel_no_arguments(void)
{
   CUDA_KERNEL_NODE_PARAMS p = kernel_params();
   p.kernelParams = NULL;
   return add_kernel(p);
}

/* Copy nodes. */
static int
add_memcpy(CUDA_MEMCPY3D c, CUcontext ctx)
{
   CUgraphNode n = NULL;
   return (int)CALL(cuGraphAddMemcpyNode)(&n, make_graph(), NULL, 0, &c, ctx);
}
static int
memcpy_null_params(void)
{
   CUgraphNode n = NULL;
   return (int)CALL(cuGraphAddMemcpyNode)(&n, make_graph(), NULL, 0, NULL, codes_primary);
}
static int
memcpy_width_0(void)
{
   CUDA_MEMCPY3D c = memcpy_params();
   c.WidthInBytes = 0;
   return add_memcpy(c, codes_primary);
}
static int
memcpy_depth_0(void)
{
   CUDA_MEMCPY3D c = memcpy_params();
   c.Depth = 0;
   return add_memcpy(c, codes_primary);
}
static int memcpy_ctx_null(void) { return add_memcpy(memcpy_params(), NULL); }

/* Fill nodes. */
static int
add_memset(CUDA_MEMSET_NODE_PARAMS s)
{
   CUgraphNode n = NULL;
   return (int)CALL(cuGraphAddMemsetNode)(&n, make_graph(), NULL, 0, &s, codes_primary);
}
static int
memset_null_params(void)
{
   CUgraphNode n = NULL;
   return (int)CALL(cuGraphAddMemsetNode)(&n, make_graph(), NULL, 0, NULL, codes_primary);
}
static int
memset_element_size_3(void)
{
   CUDA_MEMSET_NODE_PARAMS s = memset_params();
   s.elementSize = 3;
   return add_memset(s);
}
static int
memset_width_0(void)
{
   CUDA_MEMSET_NODE_PARAMS s = memset_params();
   s.width = 0;
   return add_memset(s);
}
static int
memset_height_0(void)
{
   CUDA_MEMSET_NODE_PARAMS s = memset_params();
   s.height = 0;
   return add_memset(s);
}
/* Two rows 16 bytes apart, each 4096 bytes long. */
static int
memset_pitch_below_row(void)
{
   CUDA_MEMSET_NODE_PARAMS s = memset_params();
   s.height = 2;
   s.pitch = 16;
   return add_memset(s);
}

/* Host nodes. */
static int
host_null_params(void)
{
   CUgraphNode n = NULL;
   return (int)CALL(cuGraphAddHostNode)(&n, make_graph(), NULL, 0, NULL);
}
static int
host_fn_null(void)
{
   CUDA_HOST_NODE_PARAMS h = { NULL, NULL };
   CUgraphNode n = NULL;
   return (int)CALL(cuGraphAddHostNode)(&n, make_graph(), NULL, 0, &h);
}

/* Event nodes given no event, or a destroyed one. */
static int
event_record_event(CUevent e)
{
   CUgraphNode n = NULL;
   return (int)CALL(cuGraphAddEventRecordNode)(&n, make_graph(), NULL, 0, e);
}
static int
event_wait_event(CUevent e)
{
   CUgraphNode n = NULL;
   return (int)CALL(cuGraphAddEventWaitNode)(&n, make_graph(), NULL, 0, e);
}
static int event_record_null_event(void) { return event_record_event(NULL); }
static int event_record_destroyed_event(void) { return event_record_event(destroyed_event()); }
static int event_wait_null_event(void) { return event_wait_event(NULL); }
static int event_wait_destroyed_event(void) { return event_wait_event(destroyed_event()); }

/* ---- cuGraphDestroyNode ------------------------------------------------- */

static int destroy_node_ok(void) { return (int)CALL(cuGraphDestroyNode)(empty_node(make_graph())); }
static int destroy_node_twice(void) { return (int)CALL(cuGraphDestroyNode)(destroyed_node(make_graph())); }
static int destroy_node_null(void) { return (int)CALL(cuGraphDestroyNode)(NULL); }

/* ---- cuGraphAddDependencies --------------------------------------------- */

static int
edge_ok(void)
{
   CUgraph g = make_graph();
   CUgraphNode a = empty_node(g), b = empty_node(g);
   return (int)CALL(cuGraphAddDependencies)(g, &a, &b, NULL, 1);
}
static int
edge_self(void)
{
   CUgraph g = make_graph();
   CUgraphNode a = empty_node(g);
   return (int)CALL(cuGraphAddDependencies)(g, &a, &a, NULL, 1);
}
/* a -> b twice in one call. */
static int
edge_twice(void)
{
   CUgraph g = make_graph();
   CUgraphNode a = empty_node(g), b = empty_node(g);
   const CUgraphNode from[2] = { a, a }, to[2] = { b, b };
   return (int)CALL(cuGraphAddDependencies)(g, from, to, NULL, 2);
}
static int
edge_existing(void)
{
   CUgraphNode a, b;
   CUgraph g = pair(&a, &b);
   return (int)CALL(cuGraphAddDependencies)(g, &a, &b, NULL, 1);
}
/* b -> a where a -> b exists: a cycle, which CUDA refuses only at
 * instantiation by its documentation. */
static int
edge_back(void)
{
   CUgraphNode a, b;
   CUgraph g = pair(&a, &b);
   return (int)CALL(cuGraphAddDependencies)(g, &b, &a, NULL, 1);
}
static int
edge_other_graph(void)
{
   CUgraph g = make_graph();
   CUgraphNode foreign = empty_node(make_graph()), b = empty_node(g);
   return (int)CALL(cuGraphAddDependencies)(g, &foreign, &b, NULL, 1);
}
/* Both nodes of another graph than the one named. */
static int
edge_wrong_graph(void)
{
   CUgraphNode a, b;
   pair(&a, &b);
   return (int)CALL(cuGraphAddDependencies)(make_graph(), &b, &a, NULL, 1);
}
static int
edge_null_from(void)
{
   CUgraph g = make_graph();
   CUgraphNode b = empty_node(g);
   return (int)CALL(cuGraphAddDependencies)(g, NULL, &b, NULL, 1);
}
static int
edge_null_to(void)
{
   CUgraph g = make_graph();
   CUgraphNode a = empty_node(g);
   return (int)CALL(cuGraphAddDependencies)(g, &a, NULL, NULL, 1);
}
static int edge_count_0(void) { return (int)CALL(cuGraphAddDependencies)(make_graph(), NULL, NULL, NULL, 0); }
static int
edge_null_graph(void)
{
   CUgraphNode a, b;
   pair(&a, &b);
   return (int)CALL(cuGraphAddDependencies)(NULL, &b, &a, NULL, 1);
}
static int
edge_destroyed_node(void)
{
   CUgraph g = make_graph();
   CUgraphNode a = destroyed_node(g), b = empty_node(g);
   return (int)CALL(cuGraphAddDependencies)(g, &a, &b, NULL, 1);
}

/* Edge data: a programmatic edge (type 1) between empty nodes, which
 * CUDA documents for kernel nodes only, and between two kernel nodes out
 * of the programmatic port, which CUDA documents as valid. */
static int
edge_type_programmatic_empty(void)
{
   CUgraph g = make_graph();
   CUgraphNode a = empty_node(g), b = empty_node(g);
   CUgraphEdgeData data;
   memset(&data, 0, sizeof(data));
   data.type = CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC;
   return (int)CALL(cuGraphAddDependencies)(g, &a, &b, &data, 1);
}
static int
edge_type_programmatic_kernels(void)
{
   CUgraph g = make_graph();
   CUDA_KERNEL_NODE_PARAMS p = kernel_params();
   CUgraphNode a = NULL, b = NULL;
   NEED(CALL(cuGraphAddKernelNode)(&a, g, NULL, 0, &p));
   NEED(CALL(cuGraphAddKernelNode)(&b, g, NULL, 0, &p));
   CUgraphEdgeData data;
   memset(&data, 0, sizeof(data));
   data.from_port = CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC;
   data.type = CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC;
   return (int)CALL(cuGraphAddDependencies)(g, &a, &b, &data, 1);
}
/* The default edge given explicitly: all zero. */
static int
edge_data_zero(void)
{
   CUgraph g = make_graph();
   CUgraphNode a = empty_node(g), b = empty_node(g);
   CUgraphEdgeData data;
   memset(&data, 0, sizeof(data));
   return (int)CALL(cuGraphAddDependencies)(g, &a, &b, &data, 1);
}
static int
edge_data_reserved(void)
{
   CUgraph g = make_graph();
   CUgraphNode a = empty_node(g), b = empty_node(g);
   CUgraphEdgeData data;
   memset(&data, 0, sizeof(data));
   data.reserved[0] = 1;
   return (int)CALL(cuGraphAddDependencies)(g, &a, &b, &data, 1);
}

/* ---- The queries -------------------------------------------------------- */

static int
get_nodes_ok(void)
{
   CUgraphNode a, b;
   size_t n = 0;
   return (int)CALL(cuGraphGetNodes)(pair(&a, &b), NULL, &n);
}
static int
get_nodes_null_count(void)
{
   CUgraphNode a, b, nodes[2];
   return (int)CALL(cuGraphGetNodes)(pair(&a, &b), nodes, NULL);
}
static int
get_nodes_null_graph(void)
{
   size_t n = 0;
   return (int)CALL(cuGraphGetNodes)(NULL, NULL, &n);
}
static int
get_nodes_destroyed_graph(void)
{
   size_t n = 0;
   return (int)CALL(cuGraphGetNodes)(destroyed_graph(), NULL, &n);
}

static int
root_nodes_ok(void)
{
   CUgraphNode a, b, roots[2];
   size_t n = 2;
   return (int)CALL(cuGraphGetRootNodes)(pair(&a, &b), roots, &n);
}
static int
root_nodes_null_count(void)
{
   CUgraphNode a, b;
   return (int)CALL(cuGraphGetRootNodes)(pair(&a, &b), NULL, NULL);
}

static int
edges_ok(void)
{
   CUgraphNode a, b, from[2], to[2];
   size_t n = 2;
   return (int)CALL(cuGraphGetEdges)(pair(&a, &b), from, to, NULL, &n);
}
static int
edges_null_count(void)
{
   CUgraphNode a, b;
   return (int)CALL(cuGraphGetEdges)(pair(&a, &b), NULL, NULL, NULL, NULL);
}
static int
edges_from_without_to(void)
{
   CUgraphNode a, b, from[2];
   size_t n = 2;
   return (int)CALL(cuGraphGetEdges)(pair(&a, &b), from, NULL, NULL, &n);
}
static int
edges_to_without_from(void)
{
   CUgraphNode a, b, to[2];
   size_t n = 2;
   return (int)CALL(cuGraphGetEdges)(pair(&a, &b), NULL, to, NULL, &n);
}

static int
node_type(CUgraphNode node)
{
   CUgraphNodeType t;
   return (int)CALL(cuGraphNodeGetType)(node, &t);
}
static int node_type_ok(void) { return node_type(empty_node(make_graph())); }
static int node_type_null_out(void) { return (int)CALL(cuGraphNodeGetType)(empty_node(make_graph()), NULL); }
static int node_type_null_node(void) { return node_type(NULL); }
static int node_type_destroyed(void) { return node_type(destroyed_node(make_graph())); }
static int node_type_made_up(void) { return node_type(MADE_UP(CUgraphNode)); }
/* A node of a graph destroyed since: its handle died with the graph. */
static int
node_type_graph_destroyed(void)
{
   CUgraph g = NULL;
   CUgraphNode n = NULL;
   NEED(CALL(cuGraphCreate)(&g, 0));
   CUresult res = CALL(cuGraphAddEmptyNode)(&n, g, NULL, 0);
   NEED(CALL(cuGraphDestroy)(g));
   NEED(res);
   return node_type(n);
}

static int
dependencies_ok(void)
{
   CUgraphNode a, b, deps[2];
   pair(&a, &b);
   size_t n = 2;
   return (int)CALL(cuGraphNodeGetDependencies)(b, deps, NULL, &n);
}
static int
dependencies_null_count(void)
{
   CUgraphNode a, b;
   pair(&a, &b);
   return (int)CALL(cuGraphNodeGetDependencies)(b, NULL, NULL, NULL);
}
static int
dependencies_destroyed(void)
{
   size_t n = 0;
   return (int)CALL(cuGraphNodeGetDependencies)(destroyed_node(make_graph()), NULL, NULL, &n);
}
static int
dependencies_null_node(void)
{
   size_t n = 0;
   return (int)CALL(cuGraphNodeGetDependencies)(NULL, NULL, NULL, &n);
}

static int
dependents_ok(void)
{
   CUgraphNode a, b, next[2];
   pair(&a, &b);
   size_t n = 2;
   return (int)CALL(cuGraphNodeGetDependentNodes)(a, next, NULL, &n);
}
static int
dependents_null_count(void)
{
   CUgraphNode a, b;
   pair(&a, &b);
   return (int)CALL(cuGraphNodeGetDependentNodes)(a, NULL, NULL, NULL);
}
static int
dependents_destroyed(void)
{
   size_t n = 0;
   return (int)CALL(cuGraphNodeGetDependentNodes)(destroyed_node(make_graph()), NULL, NULL, &n);
}
static int
dependents_null_node(void)
{
   size_t n = 0;
   return (int)CALL(cuGraphNodeGetDependentNodes)(NULL, NULL, NULL, &n);
}

/* ---- The node parameter reads ------------------------------------------- */

/* A node of kind in a graph of its own. */
static CUgraphNode
node_of(enum kind kind)
{
   CUgraphNode n = NULL;
   NEED(add_node(kind, &n, make_graph(), NULL, 0));
   return n;
}

static int
kernel_params_of(CUgraphNode n)
{
   CUDA_KERNEL_NODE_PARAMS p;
   return (int)CALL(cuGraphKernelNodeGetParams)(n, &p);
}
static int params_kernel_ok(void) { return kernel_params_of(node_of(KERNEL)); }
static int params_kernel_wrong_type(void) { return kernel_params_of(node_of(MEMSET)); }
static int params_kernel_null_out(void) { return (int)CALL(cuGraphKernelNodeGetParams)(node_of(KERNEL), NULL); }
static int params_kernel_destroyed(void) { return kernel_params_of(destroyed_node(make_graph())); }

static int
memcpy_params_of(CUgraphNode n)
{
   CUDA_MEMCPY3D c;
   return (int)CALL(cuGraphMemcpyNodeGetParams)(n, &c);
}
static int params_memcpy_ok(void) { return memcpy_params_of(node_of(MEMCPY)); }
static int params_memcpy_wrong_type(void) { return memcpy_params_of(node_of(HOST)); }
static int params_memcpy_null_out(void) { return (int)CALL(cuGraphMemcpyNodeGetParams)(node_of(MEMCPY), NULL); }

static int
memset_params_of(CUgraphNode n)
{
   CUDA_MEMSET_NODE_PARAMS s;
   return (int)CALL(cuGraphMemsetNodeGetParams)(n, &s);
}
static int params_memset_ok(void) { return memset_params_of(node_of(MEMSET)); }
static int params_memset_wrong_type(void) { return memset_params_of(node_of(KERNEL)); }
static int params_memset_null_out(void) { return (int)CALL(cuGraphMemsetNodeGetParams)(node_of(MEMSET), NULL); }

static int
host_params_of(CUgraphNode n)
{
   CUDA_HOST_NODE_PARAMS h;
   return (int)CALL(cuGraphHostNodeGetParams)(n, &h);
}
static int params_host_ok(void) { return host_params_of(node_of(HOST)); }
static int params_host_wrong_type(void) { return host_params_of(node_of(EMPTY)); }
static int params_host_null_out(void) { return (int)CALL(cuGraphHostNodeGetParams)(node_of(HOST), NULL); }

static int
record_event_of(CUgraphNode n)
{
   CUevent e;
   return (int)CALL(cuGraphEventRecordNodeGetEvent)(n, &e);
}
static int params_event_record_ok(void) { return record_event_of(node_of(EVENT_RECORD)); }
static int params_event_record_wrong_type(void) { return record_event_of(node_of(EVENT_WAIT)); }
static int
params_event_record_null_out(void)
{
   return (int)CALL(cuGraphEventRecordNodeGetEvent)(node_of(EVENT_RECORD), NULL);
}

static int
wait_event_of(CUgraphNode n)
{
   CUevent e;
   return (int)CALL(cuGraphEventWaitNodeGetEvent)(n, &e);
}
static int params_event_wait_ok(void) { return wait_event_of(node_of(EVENT_WAIT)); }
static int params_event_wait_wrong_type(void) { return wait_event_of(node_of(EVENT_RECORD)); }
static int
params_event_wait_null_out(void)
{
   return (int)CALL(cuGraphEventWaitNodeGetEvent)(node_of(EVENT_WAIT), NULL);
}

/* ---- cuGraphInstantiateWithFlags ---------------------------------------- */

static int
instantiate(CUgraph g, unsigned long long flags)
{
   CUgraphExec e = NULL;
   CUresult res = CALL(cuGraphInstantiateWithFlags)(&e, g, flags);
   return exec_made(res, e);
}

/* A graph of one empty node: every flag's question is the flag's own. */
static CUgraph
one_node_graph(void)
{
   CUgraph g = make_graph();
   empty_node(g);
   return g;
}

static int instantiate_ok(void) { return instantiate(one_node_graph(), 0); }
/* A graph of a node of every kind this probe makes. */
static int
instantiate_every_kind_ok(void)
{
   CUgraph g = make_graph();
   CUgraphNode prev = NULL, n = NULL;
   for (int k = KERNEL; k <= EVENT_WAIT; k++, prev = n)
      NEED(add_node((enum kind)k, &n, g, prev ? &prev : NULL, prev ? 1 : 0));
   return instantiate(g, 0);
}
static int instantiate_empty_graph(void) { return instantiate(make_graph(), 0); }
static int
instantiate_null_out(void)
{
   return (int)CALL(cuGraphInstantiateWithFlags)(NULL, one_node_graph(), 0);
}
static int instantiate_null_graph(void) { return instantiate(NULL, 0); }
static int instantiate_destroyed_graph(void) { return instantiate(destroyed_graph(), 0); }
/* Two empty nodes with edges both ways. */
static int
instantiate_cycle(void)
{
   CUgraphNode a, b;
   CUgraph g = pair(&a, &b);
   NEED(CALL(cuGraphAddDependencies)(g, &b, &a, NULL, 1));
   return instantiate(g, 0);
}
/* The flags' cases instantiate a graph of one memset node: a graph CUDA
 * could launch from the device too (which needs a kernel, copy or fill
 * node and allows no empty ones), so that each answer is the flag's. */
static int
instantiate_flag(unsigned long long flag)
{
   CUgraphNode n = NULL;
   CUgraph g = make_graph();
   NEED(add_node(MEMSET, &n, g, NULL, 0));
   return instantiate(g, flag);
}
static int
instantiate_flag_auto_free(void)
{
   return instantiate_flag(CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH);
}
static int instantiate_flag_upload(void) { return instantiate_flag(CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD); }
static int instantiate_flag_device_launch(void) { return instantiate_flag(CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH); }
static int
instantiate_flag_node_priority(void)
{
   return instantiate_flag(CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY);
}
/* A bit past every flag CUDA 13 defines. */
static int instantiate_flag_1024(void) { return instantiate_flag(1ull << 10); }

/* ---- cuGraphLaunch, cuGraphExecDestroy ---------------------------------- */

static int launch_ok(void) { return (int)CALL(cuGraphLaunch)(empty_exec(), make_stream()); }
static int launch_legacy_ok(void) { return (int)CALL(cuGraphLaunch)(empty_exec(), NULL); }
/* An exec outlives its graph, by CUDA's documentation. */
static int
launch_graph_destroyed_ok(void)
{
   CUgraph g = NULL;
   NEED(CALL(cuGraphCreate)(&g, 0));
   HOLD(graphs, n_graphs, g);
   empty_node(g);
   CUgraphExec e = make_exec(g);
   held.n_graphs--; /* destroyed here, not again */
   NEED(CALL(cuGraphDestroy)(g));
   return (int)CALL(cuGraphLaunch)(e, make_stream());
}
static int launch_null(void) { return (int)CALL(cuGraphLaunch)(NULL, make_stream()); }
static int launch_made_up(void) { return (int)CALL(cuGraphLaunch)(MADE_UP(CUgraphExec), make_stream()); }
static int launch_destroyed(void) { return (int)CALL(cuGraphLaunch)(destroyed_exec(), make_stream()); }
static int launch_destroyed_stream(void) { return (int)CALL(cuGraphLaunch)(empty_exec(), destroyed_stream()); }
/* Launched into a capture: CUDA captures a launch as a child-graph node. */
static int
launch_capturing(void)
{
   CUgraphExec e = empty_exec();
   return (int)CALL(cuGraphLaunch)(e, capturing_stream());
}

static int
exec_destroy_ok(void)
{
   CUgraphExec e = NULL;
   NEED(CALL(cuGraphInstantiateWithFlags)(&e, one_node_graph(), 0));
   CUresult res = CALL(cuGraphExecDestroy)(e);
   if (res != CUDA_SUCCESS)
      HOLD(execs, n_execs, e);
   return (int)res;
}
static int exec_destroy_null(void) { return (int)CALL(cuGraphExecDestroy)(NULL); }
static int exec_destroy_made_up(void) { return (int)CALL(cuGraphExecDestroy)(MADE_UP(CUgraphExec)); }
static int exec_destroy_twice(void) { return (int)CALL(cuGraphExecDestroy)(destroyed_exec()); }

/* ---- cuStreamBeginCapture ----------------------------------------------- */

static int
begin_on(CUstream s, CUstreamCaptureMode mode)
{
   CUresult res = CALL(cuStreamBeginCapture)(s, mode);
   if (res == CUDA_SUCCESS)
      HOLD(captures, n_captures, s);
   return (int)res;
}
static int begin_global_ok(void) { return begin_on(make_stream(), CU_STREAM_CAPTURE_MODE_GLOBAL); }
static int begin_thread_local_ok(void) { return begin_on(make_stream(), CU_STREAM_CAPTURE_MODE_THREAD_LOCAL); }
static int begin_relaxed_ok(void) { return begin_on(make_stream(), CU_STREAM_CAPTURE_MODE_RELAXED); }
/* A stream that synchronises with the legacy stream. */
static int begin_blocking_ok(void) { return begin_on(make_stream_flags(0), CU_STREAM_CAPTURE_MODE_GLOBAL); }
static int begin_per_thread(void) { return begin_on(CU_STREAM_PER_THREAD, CU_STREAM_CAPTURE_MODE_GLOBAL); }
static int begin_null(void) { return begin_on(NULL, CU_STREAM_CAPTURE_MODE_GLOBAL); }
static int begin_legacy(void) { return begin_on(CU_STREAM_LEGACY, CU_STREAM_CAPTURE_MODE_GLOBAL); }
static int begin_twice(void) { return begin_on(capturing_stream(), CU_STREAM_CAPTURE_MODE_GLOBAL); }
static int begin_mode_7(void) { return begin_on(make_stream(), (CUstreamCaptureMode)7); }
static int begin_destroyed_stream(void) { return begin_on(destroyed_stream(), CU_STREAM_CAPTURE_MODE_GLOBAL); }
/* A stream that joined another stream's capture through an event. */
static int
begin_joined(void)
{
   CUstream origin = make_stream(), other = make_stream();
   fork_capture(origin, other, make_event());
   return begin_on(other, CU_STREAM_CAPTURE_MODE_GLOBAL);
}

/* ---- cuStreamEndCapture ------------------------------------------------- */

/* The case's cuStreamEndCapture: a graph it gives is held. */
static int
end_on(CUstream s)
{
   CUgraph g = NULL;
   CUresult res = CALL(cuStreamEndCapture)(s, &g);
   return graph_made(res, g);
}
static int
end_ok(void)
{
   CUstream s = make_stream();
   CUdeviceptr d = mem_alloc(4096);
   begin(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
   NEED(CALL(cuMemsetD32Async)(d, 1, 1024, s));
   return end_on(s);
}
/* A capture of nothing. */
static int end_empty_ok(void) { return end_on(capturing_stream()); }
static int end_not_capturing(void) { return end_on(make_stream()); }
static int end_legacy(void) { return end_on(NULL); }
static int end_null_out(void) { return (int)CALL(cuStreamEndCapture)(capturing_stream(), NULL); }
static int end_destroyed_stream(void) { return end_on(destroyed_stream()); }
/* On the stream that joined the capture rather than the one that began it. */
static int
end_joined(void)
{
   CUstream origin = make_stream(), other = make_stream();
   fork_capture(origin, other, make_event());
   return end_on(other);
}
/* The origin ends while the stream that forked off has work not joined
 * back. */
static int
end_unjoined(void)
{
   CUstream origin = make_stream(), other = make_stream();
   CUdeviceptr d = mem_alloc(4096);
   fork_capture(origin, other, make_event());
   NEED(CALL(cuMemsetD32Async)(d, 2, 1024, other));
   return end_on(origin);
}
/* The same, joined back through a second event: the control. */
static int
end_joined_back_ok(void)
{
   CUstream origin = make_stream(), other = make_stream();
   CUdeviceptr d = mem_alloc(4096);
   CUevent back = make_event();
   fork_capture(origin, other, make_event());
   NEED(CALL(cuMemsetD32Async)(d, 2, 1024, other));
   NEED(CALL(cuEventRecord)(back, other));
   NEED(CALL(cuStreamWaitEvent)(origin, back, 0));
   return end_on(origin);
}

/* cuStreamSynchronize and cuStreamQuery of a capturing stream, and the
 * end of a capture after one (the call's own code is its case; here it is
 * set-up that may fail). */
static int sync_capturing(void) { return (int)CALL(cuStreamSynchronize)(capturing_stream()); }
static int query_capturing(void) { return (int)CALL(cuStreamQuery)(capturing_stream()); }
static int
end_after_sync(void)
{
   CUstream s = capturing_stream();
   CALL(cuStreamSynchronize)(s);
   return end_on(s);
}
static int
end_after_query(void)
{
   CUstream s = capturing_stream();
   CALL(cuStreamQuery)(s);
   return end_on(s);
}

/* cuStreamEndCapture from a second thread, the primary context current
 * there. */
struct end_elsewhere {
   CUstream s;
   CUgraph g;
   CUresult res;
};

static void *
end_elsewhere_thread(void *arg)
{
   struct end_elsewhere *e = arg;
   e->res = CALL(cuCtxSetCurrent)(codes_primary);
   if (e->res == CUDA_SUCCESS)
      e->res = CALL(cuStreamEndCapture)(e->s, &e->g);
   return NULL;
}

static int
end_other_thread(CUstreamCaptureMode mode)
{
   CUstream s = make_stream();
   begin(s, mode);
   struct end_elsewhere e = { s, NULL, CUDA_ERROR_UNKNOWN };
   pthread_t t;
   if (pthread_create(&t, NULL, end_elsewhere_thread, &e) != 0)
      codes_setup_fail("pthread_create failed");
   pthread_join(t, NULL);
   return graph_made(e.res, e.g);
}
static int end_other_thread_global(void) { return end_other_thread(CU_STREAM_CAPTURE_MODE_GLOBAL); }
static int end_other_thread_thread_local(void) { return end_other_thread(CU_STREAM_CAPTURE_MODE_THREAD_LOCAL); }
static int end_other_thread_relaxed(void) { return end_other_thread(CU_STREAM_CAPTURE_MODE_RELAXED); }

/* ---- Waits and records around a capture --------------------------------- */

/* A capturing stream waits for an event recorded outside any capture. */
static int
wait_outside_event(void)
{
   CUevent e = outside_event();
   return (int)CALL(cuStreamWaitEvent)(capturing_stream(), e, 0);
}
/* The same with CU_EVENT_WAIT_EXTERNAL: an event-wait node. */
static int
wait_external_in_capture(void)
{
   CUevent e = outside_event();
   return (int)CALL(cuStreamWaitEvent)(capturing_stream(), e, CU_EVENT_WAIT_EXTERNAL);
}
static int
wait_external_outside(void)
{
   CUevent e = outside_event();
   return (int)CALL(cuStreamWaitEvent)(make_stream(), e, CU_EVENT_WAIT_EXTERNAL);
}
/* A flag bit past CU_EVENT_WAIT_EXTERNAL. */
static int
wait_flags_2(void)
{
   CUevent e = outside_event();
   return (int)CALL(cuStreamWaitEvent)(make_stream(), e, 2);
}
/* A capturing stream waits for an event of another capture. */
static int
wait_other_capture(void)
{
   CUstream a = make_stream(), b = make_stream();
   CUevent e = make_event();
   begin(a, CU_STREAM_CAPTURE_MODE_GLOBAL);
   begin(b, CU_STREAM_CAPTURE_MODE_GLOBAL);
   NEED(CALL(cuEventRecord)(e, a));
   return (int)CALL(cuStreamWaitEvent)(b, e, 0);
}

static int
record_external_outside(void)
{
   CUevent e = make_event();
   return (int)CALL(cuEventRecordWithFlags)(e, make_stream(), CU_EVENT_RECORD_EXTERNAL);
}
static int
record_external_in_capture(void)
{
   CUevent e = make_event();
   return (int)CALL(cuEventRecordWithFlags)(e, capturing_stream(), CU_EVENT_RECORD_EXTERNAL);
}

/* What the capture modes forbid elsewhere: cuMemAlloc on the thread of a
 * global-mode capture (documented as unsafe there), and work on the legacy
 * stream while a blocking stream captures (the implicit synchronisation
 * CUDA refuses). */
static int
mem_alloc_in_capture(CUstreamCaptureMode mode)
{
   CUstream s = make_stream();
   begin(s, mode);
   CUdeviceptr p = 0;
   CUresult res = CALL(cuMemAlloc)(&p, 4096);
   if (res == CUDA_SUCCESS)
      HOLD(memory, n_memory, p);
   return (int)res;
}
static int mem_alloc_global(void) { return mem_alloc_in_capture(CU_STREAM_CAPTURE_MODE_GLOBAL); }
static int mem_alloc_relaxed(void) { return mem_alloc_in_capture(CU_STREAM_CAPTURE_MODE_RELAXED); }
static int
legacy_implicit(void)
{
   CUstream s = make_stream_flags(0);
   CUdeviceptr d = mem_alloc(4096);
   begin(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
   return (int)CALL(cuMemsetD32Async)(d, 3, 1024, NULL);
}

/* ---- The capture queries ------------------------------------------------ */

static int
is_capturing(CUstream s)
{
   CUstreamCaptureStatus st;
   return (int)CALL(cuStreamIsCapturing)(s, &st);
}
static int is_capturing_ok(void) { return is_capturing(capturing_stream()); }
static int is_capturing_legacy_ok(void) { return is_capturing(NULL); }
static int is_capturing_null_out(void) { return (int)CALL(cuStreamIsCapturing)(capturing_stream(), NULL); }
static int is_capturing_destroyed(void) { return is_capturing(destroyed_stream()); }
/* The legacy stream asked while a blocking stream captures, which CUDA
 * documents as CUDA_ERROR_STREAM_CAPTURE_IMPLICIT. */
static int
is_capturing_legacy_blocking(void)
{
   begin(make_stream_flags(0), CU_STREAM_CAPTURE_MODE_GLOBAL);
   return is_capturing(CU_STREAM_LEGACY);
}

static int
capture_info_ok(void)
{
   CUstreamCaptureStatus st;
   cuuint64_t id = 0;
   CUgraph g = NULL;
   const CUgraphNode *deps = NULL;
   const CUgraphEdgeData *data = NULL;
   size_t n = 0;
   return (int)CALL(cuStreamGetCaptureInfo)(capturing_stream(), &st, &id, &g, &deps, &data, &n);
}
static int
capture_info_null_status(void)
{
   cuuint64_t id = 0;
   return (int)CALL(cuStreamGetCaptureInfo)(capturing_stream(), NULL, &id, NULL, NULL, NULL, NULL);
}
/* Only the status asked for, on a stream not capturing. */
static int
capture_info_status_only_ok(void)
{
   CUstreamCaptureStatus st;
   return (int)CALL(cuStreamGetCaptureInfo)(make_stream(), &st, NULL, NULL, NULL, NULL, NULL);
}

static int
exchange(CUstreamCaptureMode mode)
{
   return (int)CALL(cuThreadExchangeStreamCaptureMode)(&mode);
}
static int exchange_ok(void) { return exchange(CU_STREAM_CAPTURE_MODE_RELAXED); }
static int exchange_null(void) { return (int)CALL(cuThreadExchangeStreamCaptureMode)(NULL); }
static int exchange_mode_7(void) { return exchange((CUstreamCaptureMode)7); }

/* ---- The runtime's ------------------------------------------------------ */

/* The runtime's handles are the driver's (cudaGraph_t is CUgraph, and so
 * on), so the objects come from the set-up above. */

static int
rt_graph_create(unsigned flags)
{
   cudaGraph_t g = NULL;
   cudaError_t err = CALL(cudaGraphCreate)(&g, flags);
   if (err == cudaSuccess && g)
      HOLD(graphs, n_graphs, g);
   return (int)err;
}
static int rt_graph_create_ok(void) { return rt_graph_create(0); }
static int rt_graph_create_flags_1(void) { return rt_graph_create(1); }
static int rt_graph_create_null(void) { return (int)CALL(cudaGraphCreate)(NULL, 0); }
static int rt_graph_destroy_destroyed(void) { return (int)CALL(cudaGraphDestroy)(destroyed_graph()); }

static int
rt_add_empty_dep_other_graph(void)
{
   CUgraphNode dep = empty_node(make_graph()), n = NULL;
   return (int)CALL(cudaGraphAddEmptyNode)(&n, make_graph(), &dep, 1);
}
static int
rt_add_empty_deps_null(void)
{
   CUgraphNode n = NULL;
   return (int)CALL(cudaGraphAddEmptyNode)(&n, make_graph(), NULL, 1);
}

static int
rt_add_memset(unsigned element_size, size_t width)
{
   struct cudaMemsetParams s;
   memset(&s, 0, sizeof(s));
   s.dst = (void *)(uintptr_t)mem_alloc(4096);
   s.value = 0x12345678u;
   s.elementSize = element_size;
   s.width = width;
   s.height = 1;
   CUgraphNode n = NULL;
   return (int)CALL(cudaGraphAddMemsetNode)(&n, make_graph(), NULL, 0, &s);
}
static int rt_add_memset_ok(void) { return rt_add_memset(4, 1024); }
static int rt_add_memset_element_size_3(void) { return rt_add_memset(3, 1024); }
static int rt_add_memset_width_0(void) { return rt_add_memset(4, 0); }
static int
rt_add_memset_null_params(void)
{
   CUgraphNode n = NULL;
   return (int)CALL(cudaGraphAddMemsetNode)(&n, make_graph(), NULL, 0, NULL);
}

static int
rt_edge_self(void)
{
   CUgraph g = make_graph();
   CUgraphNode a = empty_node(g);
   return (int)CALL(cudaGraphAddDependencies)(g, &a, &a, NULL, 1);
}

static int
rt_node_type_null_out(void)
{
   return (int)CALL(cudaGraphNodeGetType)(empty_node(make_graph()), NULL);
}
static int
rt_node_type_destroyed(void)
{
   enum cudaGraphNodeType t;
   return (int)CALL(cudaGraphNodeGetType)(destroyed_node(make_graph()), &t);
}

static int
rt_instantiate(CUgraph g, unsigned long long flags)
{
   cudaGraphExec_t e = NULL;
   cudaError_t err = CALL(cudaGraphInstantiate)(&e, g, flags);
   if (err == cudaSuccess && e)
      HOLD(execs, n_execs, e);
   return (int)err;
}
static int rt_instantiate_ok(void) { return rt_instantiate(one_node_graph(), 0); }
static int
rt_instantiate_cycle(void)
{
   CUgraphNode a, b;
   CUgraph g = pair(&a, &b);
   NEED(CALL(cuGraphAddDependencies)(g, &b, &a, NULL, 1));
   return rt_instantiate(g, 0);
}
static int rt_instantiate_flag_1024(void) { return rt_instantiate(one_node_graph(), 1ull << 10); }
static int rt_instantiate_null_graph(void) { return rt_instantiate(NULL, 0); }

static int rt_launch_ok(void) { return (int)CALL(cudaGraphLaunch)(empty_exec(), make_stream()); }
static int rt_launch_destroyed(void) { return (int)CALL(cudaGraphLaunch)(destroyed_exec(), make_stream()); }
static int rt_launch_capturing(void) { return (int)CALL(cudaGraphLaunch)(empty_exec(), capturing_stream()); }
static int rt_exec_destroy_twice(void) { return (int)CALL(cudaGraphExecDestroy)(destroyed_exec()); }

static int
rt_begin(cudaStream_t s, enum cudaStreamCaptureMode mode)
{
   cudaError_t err = CALL(cudaStreamBeginCapture)(s, mode);
   if (err == cudaSuccess)
      HOLD(captures, n_captures, s);
   return (int)err;
}
static int rt_begin_ok(void) { return rt_begin(make_stream(), cudaStreamCaptureModeGlobal); }
/* Stream 0: the legacy stream, this program not being built for the
 * per-thread default stream. */
static int rt_begin_stream_0(void) { return rt_begin(NULL, cudaStreamCaptureModeGlobal); }
static int rt_begin_twice(void) { return rt_begin(capturing_stream(), cudaStreamCaptureModeGlobal); }
static int rt_begin_mode_7(void) { return rt_begin(make_stream(), (enum cudaStreamCaptureMode)7); }

static int
rt_end(cudaStream_t s)
{
   cudaGraph_t g = NULL;
   cudaError_t err = CALL(cudaStreamEndCapture)(s, &g);
   if (err == cudaSuccess && g)
      HOLD(graphs, n_graphs, g);
   return (int)err;
}
static int rt_end_ok(void) { return rt_end(capturing_stream()); }
static int rt_end_not_capturing(void) { return rt_end(make_stream()); }
static int rt_end_null_out(void) { return (int)CALL(cudaStreamEndCapture)(capturing_stream(), NULL); }
static int
rt_end_joined(void)
{
   CUstream origin = make_stream(), other = make_stream();
   fork_capture(origin, other, make_event());
   return rt_end(other);
}
static int
rt_end_unjoined(void)
{
   CUstream origin = make_stream(), other = make_stream();
   CUdeviceptr d = mem_alloc(4096);
   fork_capture(origin, other, make_event());
   NEED(CALL(cuMemsetD32Async)(d, 2, 1024, other));
   return rt_end(origin);
}
static int rt_sync_capturing(void) { return (int)CALL(cudaStreamSynchronize)(capturing_stream()); }
static int
rt_end_after_sync(void)
{
   CUstream s = capturing_stream();
   CALL(cudaStreamSynchronize)(s);
   return rt_end(s);
}

static int
rt_wait_outside_event(void)
{
   CUevent e = outside_event();
   return (int)CALL(cudaStreamWaitEvent)(capturing_stream(), e, 0);
}
static int
rt_wait_external_outside(void)
{
   CUevent e = outside_event();
   return (int)CALL(cudaStreamWaitEvent)(make_stream(), e, cudaEventWaitExternal);
}
static int
rt_record_external_outside(void)
{
   CUevent e = make_event();
   return (int)CALL(cudaEventRecordWithFlags)(e, make_stream(), cudaEventRecordExternal);
}

static int
rt_is_capturing_ok(void)
{
   enum cudaStreamCaptureStatus st;
   return (int)CALL(cudaStreamIsCapturing)(capturing_stream(), &st);
}
static int rt_is_capturing_null_out(void) { return (int)CALL(cudaStreamIsCapturing)(capturing_stream(), NULL); }
static int
rt_capture_info_null_status(void)
{
   unsigned long long id = 0;
   return (int)CALL(cudaStreamGetCaptureInfo)(capturing_stream(), NULL, &id, NULL, NULL, NULL, NULL);
}

static int
rt_exchange(enum cudaStreamCaptureMode mode)
{
   return (int)CALL(cudaThreadExchangeStreamCaptureMode)(&mode);
}
static int rt_exchange_ok(void) { return rt_exchange(cudaStreamCaptureModeRelaxed); }
static int rt_exchange_null(void) { return (int)CALL(cudaThreadExchangeStreamCaptureMode)(NULL); }
static int rt_exchange_mode_7(void) { return rt_exchange((enum cudaStreamCaptureMode)7); }

/* ---- The cases, in the order they print -------------------------------- */

static const struct codes_case cases[] = {
   DRV("graph.create.ok", create_ok),
   DRV_FORKED("graph.create.null_out", create_null),
   DRV("graph.create.flags_1", create_flags_1),
   DRV("graph.destroy.ok", destroy_ok),
   DRV_FORKED("graph.destroy.null", destroy_null),
   DRV_FORKED("graph.destroy.made_up", destroy_made_up),
   DRV_FORKED("graph.destroy.destroyed", destroy_destroyed),

   DRV("node.kernel.ok", kernel_ok),
   DRV_FORKED("node.kernel.null_out", kernel_null_out),
   DRV_FORKED("node.kernel.null_graph", kernel_null_graph),
   DRV_FORKED("node.kernel.null_params", kernel_null_params),
   DRV_FORKED("node.kernel.deps_null_array", kernel_deps_null),
   DRV("node.kernel.dep_other_graph", kernel_dep_other_graph),
   DRV("node.kernel.dep_twice", kernel_dep_twice),
   DRV_FORKED("node.kernel.func_null", kernel_func_null),
   DRV("node.kernel.grid_0", kernel_grid_0),
   DRV("node.kernel.block_0", kernel_block_0),
   DRV("node.kernel.block_1025", kernel_block_1025),
   DRV_FORKED("node.kernel.no_arguments", kernel_no_arguments),

   DRV("node.memcpy.ok", memcpy_ok),
   DRV_FORKED("node.memcpy.null_out", memcpy_null_out),
   DRV_FORKED("node.memcpy.null_graph", memcpy_null_graph),
   DRV_FORKED("node.memcpy.null_params", memcpy_null_params),
   DRV_FORKED("node.memcpy.deps_null_array", memcpy_deps_null),
   DRV("node.memcpy.dep_other_graph", memcpy_dep_other_graph),
   DRV("node.memcpy.dep_twice", memcpy_dep_twice),
   DRV("node.memcpy.width_0", memcpy_width_0),
   DRV("node.memcpy.depth_0", memcpy_depth_0),
   DRV_FORKED("node.memcpy.ctx_null", memcpy_ctx_null),

   DRV("node.memset.ok", memset_ok),
   DRV_FORKED("node.memset.null_out", memset_null_out),
   DRV_FORKED("node.memset.null_graph", memset_null_graph),
   DRV_FORKED("node.memset.null_params", memset_null_params),
   DRV_FORKED("node.memset.deps_null_array", memset_deps_null),
   DRV("node.memset.dep_other_graph", memset_dep_other_graph),
   DRV("node.memset.dep_twice", memset_dep_twice),
   DRV("node.memset.element_size_3", memset_element_size_3),
   DRV("node.memset.width_0", memset_width_0),
   DRV("node.memset.height_0", memset_height_0),
   DRV("node.memset.pitch_below_row", memset_pitch_below_row),

   DRV("node.host.ok", host_ok),
   DRV_FORKED("node.host.null_out", host_null_out),
   DRV_FORKED("node.host.null_graph", host_null_graph),
   DRV_FORKED("node.host.null_params", host_null_params),
   DRV_FORKED("node.host.deps_null_array", host_deps_null),
   DRV("node.host.dep_other_graph", host_dep_other_graph),
   DRV("node.host.dep_twice", host_dep_twice),
   DRV("node.host.fn_null", host_fn_null),

   DRV("node.empty.ok", empty_ok),
   DRV_FORKED("node.empty.null_out", empty_null_out),
   DRV_FORKED("node.empty.null_graph", empty_null_graph),
   DRV_FORKED("node.empty.destroyed_graph", empty_destroyed_graph),
   DRV_FORKED("node.empty.deps_null_array", empty_deps_null),
   DRV("node.empty.dep_other_graph", empty_dep_other_graph),
   DRV("node.empty.dep_twice", empty_dep_twice),
   DRV_FORKED("node.empty.dep_destroyed", empty_dep_destroyed),
   DRV_FORKED("node.empty.dep_made_up", empty_dep_made_up),

   DRV("node.event_record.ok", event_record_ok),
   DRV_FORKED("node.event_record.null_out", event_record_null_out),
   DRV_FORKED("node.event_record.null_graph", event_record_null_graph),
   DRV_FORKED("node.event_record.deps_null_array", event_record_deps_null),
   DRV("node.event_record.dep_other_graph", event_record_dep_other_graph),
   DRV("node.event_record.dep_twice", event_record_dep_twice),
   DRV_FORKED("node.event_record.null_event", event_record_null_event),
   DRV_FORKED("node.event_record.destroyed_event", event_record_destroyed_event),

   DRV("node.event_wait.ok", event_wait_ok),
   DRV_FORKED("node.event_wait.null_out", event_wait_null_out),
   DRV_FORKED("node.event_wait.null_graph", event_wait_null_graph),
   DRV_FORKED("node.event_wait.deps_null_array", event_wait_deps_null),
   DRV("node.event_wait.dep_other_graph", event_wait_dep_other_graph),
   DRV("node.event_wait.dep_twice", event_wait_dep_twice),
   DRV_FORKED("node.event_wait.null_event", event_wait_null_event),
   DRV_FORKED("node.event_wait.destroyed_event", event_wait_destroyed_event),

   DRV("node.destroy.ok", destroy_node_ok),
   DRV_FORKED("node.destroy.twice", destroy_node_twice),
   DRV_FORKED("node.destroy.null", destroy_node_null),

   DRV("edge.add.ok", edge_ok),
   DRV("edge.add.self", edge_self),
   DRV("edge.add.twice_in_call", edge_twice),
   DRV("edge.add.existing", edge_existing),
   DRV("edge.add.back_edge", edge_back),
   DRV("edge.add.node_of_other_graph", edge_other_graph),
   DRV("edge.add.graph_of_neither", edge_wrong_graph),
   DRV_FORKED("edge.add.null_from", edge_null_from),
   DRV_FORKED("edge.add.null_to", edge_null_to),
   DRV("edge.add.count_0_null_arrays", edge_count_0),
   DRV_FORKED("edge.add.null_graph", edge_null_graph),
   DRV_FORKED("edge.add.destroyed_node", edge_destroyed_node),
   DRV("edge.add.data_zero.ok", edge_data_zero),
   DRV("edge.add.data_reserved", edge_data_reserved),
   DRV("edge.add.type_programmatic_empty", edge_type_programmatic_empty),
   DRV("edge.add.type_programmatic_kernels", edge_type_programmatic_kernels),

   DRV("query.nodes.ok", get_nodes_ok),
   DRV_FORKED("query.nodes.null_count", get_nodes_null_count),
   DRV_FORKED("query.nodes.null_graph", get_nodes_null_graph),
   DRV_FORKED("query.nodes.destroyed_graph", get_nodes_destroyed_graph),
   DRV("query.root_nodes.ok", root_nodes_ok),
   DRV_FORKED("query.root_nodes.null_count", root_nodes_null_count),
   DRV("query.edges.ok", edges_ok),
   DRV_FORKED("query.edges.null_count", edges_null_count),
   DRV_FORKED("query.edges.from_without_to", edges_from_without_to),
   DRV_FORKED("query.edges.to_without_from", edges_to_without_from),
   DRV("query.node_type.ok", node_type_ok),
   DRV_FORKED("query.node_type.null_out", node_type_null_out),
   DRV_FORKED("query.node_type.null_node", node_type_null_node),
   DRV_FORKED("query.node_type.destroyed_node", node_type_destroyed),
   DRV_FORKED("query.node_type.made_up_node", node_type_made_up),
   DRV_FORKED("query.node_type.graph_destroyed", node_type_graph_destroyed),
   DRV("query.dependencies.ok", dependencies_ok),
   DRV_FORKED("query.dependencies.null_count", dependencies_null_count),
   DRV_FORKED("query.dependencies.null_node", dependencies_null_node),
   DRV_FORKED("query.dependencies.destroyed_node", dependencies_destroyed),
   DRV("query.dependents.ok", dependents_ok),
   DRV_FORKED("query.dependents.null_count", dependents_null_count),
   DRV_FORKED("query.dependents.null_node", dependents_null_node),
   DRV_FORKED("query.dependents.destroyed_node", dependents_destroyed),

   DRV("params.kernel.ok", params_kernel_ok),
   DRV("params.kernel.wrong_type", params_kernel_wrong_type),
   DRV_FORKED("params.kernel.null_out", params_kernel_null_out),
   DRV_FORKED("params.kernel.destroyed_node", params_kernel_destroyed),
   DRV("params.memcpy.ok", params_memcpy_ok),
   DRV("params.memcpy.wrong_type", params_memcpy_wrong_type),
   DRV_FORKED("params.memcpy.null_out", params_memcpy_null_out),
   DRV("params.memset.ok", params_memset_ok),
   DRV("params.memset.wrong_type", params_memset_wrong_type),
   DRV_FORKED("params.memset.null_out", params_memset_null_out),
   DRV("params.host.ok", params_host_ok),
   DRV("params.host.wrong_type", params_host_wrong_type),
   DRV_FORKED("params.host.null_out", params_host_null_out),
   DRV("params.event_record.ok", params_event_record_ok),
   DRV("params.event_record.wrong_type", params_event_record_wrong_type),
   DRV_FORKED("params.event_record.null_out", params_event_record_null_out),
   DRV("params.event_wait.ok", params_event_wait_ok),
   DRV("params.event_wait.wrong_type", params_event_wait_wrong_type),
   DRV_FORKED("params.event_wait.null_out", params_event_wait_null_out),

   DRV("exec.instantiate.ok", instantiate_ok),
   DRV("exec.instantiate.every_kind.ok", instantiate_every_kind_ok),
   DRV("exec.instantiate.empty_graph", instantiate_empty_graph),
   DRV_FORKED("exec.instantiate.null_out", instantiate_null_out),
   DRV_FORKED("exec.instantiate.null_graph", instantiate_null_graph),
   DRV_FORKED("exec.instantiate.destroyed_graph", instantiate_destroyed_graph),
   DRV("exec.instantiate.cycle", instantiate_cycle),
   DRV("exec.instantiate.flag_auto_free", instantiate_flag_auto_free),
   DRV("exec.instantiate.flag_upload", instantiate_flag_upload),
   DRV("exec.instantiate.flag_device_launch", instantiate_flag_device_launch),
   DRV("exec.instantiate.flag_use_node_priority", instantiate_flag_node_priority),
   DRV("exec.instantiate.flag_1024", instantiate_flag_1024),
   DRV("exec.launch.ok", launch_ok),
   DRV("exec.launch.legacy_stream.ok", launch_legacy_ok),
   DRV("exec.launch.graph_destroyed.ok", launch_graph_destroyed_ok),
   DRV_FORKED("exec.launch.null", launch_null),
   DRV_FORKED("exec.launch.made_up", launch_made_up),
   DRV_FORKED("exec.launch.destroyed", launch_destroyed),
   DRV_FORKED("exec.launch.destroyed_stream", launch_destroyed_stream),
   DRV("exec.launch.capturing_stream", launch_capturing),
   DRV("exec.destroy.ok", exec_destroy_ok),
   DRV_FORKED("exec.destroy.null", exec_destroy_null),
   DRV_FORKED("exec.destroy.made_up", exec_destroy_made_up),
   DRV_FORKED("exec.destroy.twice", exec_destroy_twice),

   DRV("capture.begin.global.ok", begin_global_ok),
   DRV("capture.begin.thread_local.ok", begin_thread_local_ok),
   DRV("capture.begin.relaxed.ok", begin_relaxed_ok),
   DRV("capture.begin.blocking_stream.ok", begin_blocking_ok),
   DRV("capture.begin.per_thread_stream", begin_per_thread),
   DRV("capture.begin.null_stream", begin_null),
   DRV("capture.begin.legacy_stream", begin_legacy),
   DRV("capture.begin.twice", begin_twice),
   DRV("capture.begin.joined_stream", begin_joined),
   DRV("capture.begin.mode_7", begin_mode_7),
   DRV_FORKED("capture.begin.destroyed_stream", begin_destroyed_stream),
   DRV("capture.end.ok", end_ok),
   DRV("capture.end.empty.ok", end_empty_ok),
   DRV("capture.end.joined_back.ok", end_joined_back_ok),
   DRV("capture.end.not_capturing", end_not_capturing),
   DRV("capture.end.null_stream", end_legacy),
   DRV_FORKED("capture.end.null_out", end_null_out),
   DRV_FORKED("capture.end.destroyed_stream", end_destroyed_stream),
   DRV("capture.end.joined_stream", end_joined),
   DRV("capture.end.unjoined", end_unjoined),
   DRV("capture.sync_capturing", sync_capturing),
   DRV("capture.end.after_sync", end_after_sync),
   DRV("capture.query_capturing", query_capturing),
   DRV("capture.end.after_query", end_after_query),
   DRV("capture.end.other_thread_global", end_other_thread_global),
   DRV("capture.end.other_thread_thread_local", end_other_thread_thread_local),
   DRV("capture.end.other_thread_relaxed", end_other_thread_relaxed),
   DRV("capture.wait.outside_event", wait_outside_event),
   DRV("capture.wait.external_in_capture", wait_external_in_capture),
   DRV("capture.wait.external_outside_capture", wait_external_outside),
   DRV("capture.wait.flags_2", wait_flags_2),
   DRV("capture.wait.other_capture", wait_other_capture),
   DRV("capture.record_external.outside_capture", record_external_outside),
   DRV("capture.record_external.in_capture", record_external_in_capture),
   DRV("capture.mem_alloc.global", mem_alloc_global),
   DRV("capture.mem_alloc.relaxed", mem_alloc_relaxed),
   DRV("capture.legacy_stream_implicit", legacy_implicit),
   DRV("capture.is_capturing.ok", is_capturing_ok),
   DRV("capture.is_capturing.null_stream.ok", is_capturing_legacy_ok),
   DRV("capture.is_capturing.legacy_while_blocking_captures", is_capturing_legacy_blocking),
   DRV_FORKED("capture.is_capturing.null_out", is_capturing_null_out),
   DRV_FORKED("capture.is_capturing.destroyed_stream", is_capturing_destroyed),
   DRV("capture.info.ok", capture_info_ok),
   DRV("capture.info.status_only.ok", capture_info_status_only_ok),
   DRV_FORKED("capture.info.null_status", capture_info_null_status),
   DRV("capture.exchange_mode.ok", exchange_ok),
   DRV_FORKED("capture.exchange_mode.null", exchange_null),
   DRV("capture.exchange_mode.mode_7", exchange_mode_7),

   RT("rt.graph_create.ok", rt_graph_create_ok),
   RT("rt.graph_create.flags_1", rt_graph_create_flags_1),
   RT_FORKED("rt.graph_create.null_out", rt_graph_create_null),
   RT_FORKED("rt.graph_destroy.destroyed", rt_graph_destroy_destroyed),
   RT("rt.add_empty.dep_other_graph", rt_add_empty_dep_other_graph),
   RT_FORKED("rt.add_empty.deps_null_array", rt_add_empty_deps_null),
   RT("rt.add_memset.ok", rt_add_memset_ok),
   RT("rt.add_memset.element_size_3", rt_add_memset_element_size_3),
   RT("rt.add_memset.width_0", rt_add_memset_width_0),
   RT_FORKED("rt.add_memset.null_params", rt_add_memset_null_params),
   RT("rt.edge.self", rt_edge_self),
   RT_FORKED("rt.node_type.null_out", rt_node_type_null_out),
   RT_FORKED("rt.node_type.destroyed_node", rt_node_type_destroyed),
   RT("rt.instantiate.ok", rt_instantiate_ok),
   RT("rt.instantiate.cycle", rt_instantiate_cycle),
   RT("rt.instantiate.flag_1024", rt_instantiate_flag_1024),
   RT_FORKED("rt.instantiate.null_graph", rt_instantiate_null_graph),
   RT("rt.launch.ok", rt_launch_ok),
   RT_FORKED("rt.launch.destroyed", rt_launch_destroyed),
   RT("rt.launch.capturing_stream", rt_launch_capturing),
   RT_FORKED("rt.exec_destroy.twice", rt_exec_destroy_twice),
   RT("rt.begin.ok", rt_begin_ok),
   RT("rt.begin.stream_0", rt_begin_stream_0),
   RT("rt.begin.twice", rt_begin_twice),
   RT("rt.begin.mode_7", rt_begin_mode_7),
   RT("rt.end.ok", rt_end_ok),
   RT("rt.end.not_capturing", rt_end_not_capturing),
   RT_FORKED("rt.end.null_out", rt_end_null_out),
   RT("rt.end.joined_stream", rt_end_joined),
   RT("rt.end.unjoined", rt_end_unjoined),
   RT("rt.sync_capturing", rt_sync_capturing),
   RT("rt.end.after_sync", rt_end_after_sync),
   RT("rt.wait.outside_event", rt_wait_outside_event),
   RT("rt.wait.external_outside_capture", rt_wait_external_outside),
   RT("rt.record_external.outside_capture", rt_record_external_outside),
   RT("rt.is_capturing.ok", rt_is_capturing_ok),
   RT_FORKED("rt.is_capturing.null_out", rt_is_capturing_null_out),
   RT_FORKED("rt.capture_info.null_status", rt_capture_info_null_status),
   RT("rt.exchange_mode.ok", rt_exchange_ok),
   RT_FORKED("rt.exchange_mode.null", rt_exchange_null),
   RT("rt.exchange_mode.mode_7", rt_exchange_mode_7),
};

static const struct codes_probe probe = {
   "graph_codes_probe", cases, CODES_COUNT(cases), look_up, NULL, release_held,
};

int
main(int argc, char **argv)
{
   return codes_probe_main(&probe, argc, argv);
}
