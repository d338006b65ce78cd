/*
 * graph.*: CUDA graphs and stream capture through the driver API.
 *
 * graph.build.*   graphs built node by node (memset, kernel, memcpy, host,
 *                 event record and wait, empty) or from edges added
 *                 afterwards, instantiated, launched, every element
 *                 checked against a host model; the queries (nodes,
 *                 roots, edges, dependencies, each node's parameters).
 * graph.exec.*    one exec launched on two streams in turn (its launches
 *                 are ordered), an exec outliving its graph.
 * graph.capture.* stream capture: a chain, a fork and join through events,
 *                 and every capture error with its exact code.
 * graph.errors.*  bad handles and arguments, a cycle at instantiation.
 * graph.threads   four threads building and launching their own graphs
 *                 and one shared exec in the primary context.
 *
 * The kernel is hand-written PTX (no nvcc here): axpb(y, a, b, n) sets
 * y[i] = a * y[i] + b for every i < n, one thread an element.
 */
#include "api_test.h"
#include "axpb_ptx.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>

#define N 4096
#define BYTES (N * sizeof(float))
#define BLOCK 128

/* ---- Helpers ---- */

static uint32_t
f2u(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

/* The host model of one element of axpb. */
static float
model_axpb(float y, float a, float b)
{
   return fmaf(a, y, b);
}

/* A word no float the tests compute has: marks host memory not yet
 * written. */
#define SENTINEL 0xdeadbeefu

static void
fill_sentinel(float *p, size_t count)
{
   for (size_t i = 0; i < count; i++)
      memcpy(&p[i], &(uint32_t){ SENTINEL }, 4);
}

/* got[from..to) all equal want, bit for bit. */
static bool
check_floats_at(const char *file, int line, const float *got, size_t from, size_t to, float want,
                const char *what)
{
   size_t bad = 0, first = 0;

   for (size_t i = from; i < to; i++) {
      if (f2u(got[i]) != f2u(want)) {
         if (!bad)
            first = i;
         bad++;
      }
   }
   return api_check_at(file, line, bad == 0,
                       "%s: %zu of %zu floats are not %g (first at [%zu]: %g, 0x%08x)", what, bad,
                       to - from, (double)want, first, bad ? (double)got[first] : 0.0,
                       bad ? f2u(got[first]) : 0u);
}

#define CHECK_FLOATS(got, from, to, want, what)                                \
   check_floats_at(__FILE__, __LINE__, (got), (from), (to), (want), (what))

/* Reads N floats of device memory (synchronous: not during a capture). */
static void
read_floats(float *host, CUdeviceptr src)
{
   API_REQUIRE_CU(cuMemcpyDtoH(host, src, BYTES));
}

struct kern {
   CUmodule mod;
   CUfunction axpb;
};

static void
kern_load(struct kern *k)
{
   API_REQUIRE_CU(cuModuleLoadData(&k->mod, axpb_ptx));
   API_REQUIRE_CU(cuModuleGetFunction(&k->axpb, k->mod, "axpb"));
}

static void
kern_unload(struct kern *k)
{
   API_CHECK_CU(cuModuleUnload(k->mod));
}

/* axpb's arguments and the kernelParams array that points at them. */
struct axpb_args {
   CUdeviceptr y;
   float a, b;
   unsigned n;
   void *params[4];
};

static void
axpb_args_set(struct axpb_args *p, CUdeviceptr y, float a, float b, unsigned n)
{
   p->y = y;
   p->a = a;
   p->b = b;
   p->n = n;
   p->params[0] = &p->y;
   p->params[1] = &p->a;
   p->params[2] = &p->b;
   p->params[3] = &p->n;
}

static unsigned
grid_for(unsigned n)
{
   return (n + BLOCK - 1) / BLOCK;
}

static CUDA_KERNEL_NODE_PARAMS
axpb_node(CUfunction f, struct axpb_args *p)
{
   CUDA_KERNEL_NODE_PARAMS kp;

   memset(&kp, 0, sizeof(kp));
   kp.func = f;
   kp.gridDimX = grid_for(p->n);
   kp.gridDimY = 1;
   kp.gridDimZ = 1;
   kp.blockDimX = BLOCK;
   kp.blockDimY = 1;
   kp.blockDimZ = 1;
   kp.sharedMemBytes = 0;
   kp.kernelParams = p->params;
   kp.extra = NULL;
   return kp;
}

static CUresult
launch_axpb(CUfunction f, struct axpb_args *p, CUstream s)
{
   return cuLaunchKernel(f, grid_for(p->n), 1, 1, BLOCK, 1, 1, 0, s, p->params, NULL);
}

/* A 1D fill of count 32-bit words. */
static CUDA_MEMSET_NODE_PARAMS
memset32_node(CUdeviceptr dst, uint32_t value, size_t count)
{
   CUDA_MEMSET_NODE_PARAMS m;

   memset(&m, 0, sizeof(m));
   m.dst = dst;
   m.pitch = count * 4;
   m.value = value;
   m.elementSize = 4;
   m.width = count;
   m.height = 1;
   return m;
}

/* Device to host, bytes in one row. */
static CUDA_MEMCPY3D
dtoh_copy(void *dst, CUdeviceptr src, size_t bytes)
{
   CUDA_MEMCPY3D c;

   memset(&c, 0, sizeof(c));
   c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
   c.srcDevice = src;
   c.dstMemoryType = CU_MEMORYTYPE_HOST;
   c.dstHost = dst;
   c.WidthInBytes = bytes;
   c.Height = 1;
   c.Depth = 1;
   return c;
}

static const char *
type_name(CUgraphNodeType t)
{
   switch (t) {
   case CU_GRAPH_NODE_TYPE_KERNEL: return "KERNEL";
   case CU_GRAPH_NODE_TYPE_MEMCPY: return "MEMCPY";
   case CU_GRAPH_NODE_TYPE_MEMSET: return "MEMSET";
   case CU_GRAPH_NODE_TYPE_HOST: return "HOST";
   case CU_GRAPH_NODE_TYPE_GRAPH: return "GRAPH";
   case CU_GRAPH_NODE_TYPE_EMPTY: return "EMPTY";
   case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return "WAIT_EVENT";
   case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return "EVENT_RECORD";
   default: return "(other)";
   }
}

/* The node's type, or -1 when the query failed (reported). */
static int
node_type(CUgraphNode n)
{
   CUgraphNodeType t;

   if (!API_CHECK_CU(cuGraphNodeGetType(n, &t)))
      return -1;
   return (int)t;
}

#define CHECK_TYPE(node, want)                                                 \
   do {                                                                        \
      int t_ = node_type(node);                                                \
      API_CHECK_MSG(t_ == (int)(want), "%s: type %s (%d), want %s", #node,     \
                    t_ < 0 ? "?" : type_name((CUgraphNodeType)t_), t_,         \
                    type_name(want));                                          \
   } while (0)

static size_t
graph_node_count(CUgraph g)
{
   size_t n = 12345;

   API_CHECK_CU(cuGraphGetNodes(g, NULL, &n));
   return n;
}

static size_t
graph_edge_count(CUgraph g)
{
   size_t n = 12345;

   API_CHECK_CU(cuGraphGetEdges(g, NULL, NULL, NULL, &n));
   return n;
}

/* A node's dependencies (or dependents), counted with a NULL array and
 * then filled; at most cap, the count returned. */
static size_t
deps_of(CUgraphNode node, CUgraphNode *out, size_t cap)
{
   size_t n = 12345;

   if (!API_CHECK_CU(cuGraphNodeGetDependencies(node, NULL, NULL, &n)))
      return 0;
   API_REQUIRE(n <= cap);
   size_t m = n;
   if (n && !API_CHECK_CU(cuGraphNodeGetDependencies(node, out, NULL, &m)))
      return 0;
   API_CHECK_MSG(m == n, "dependencies: counted %zu, filled %zu", n, m);
   return n;
}

static size_t
dependents_of(CUgraphNode node, CUgraphNode *out, size_t cap)
{
   size_t n = 12345;

   if (!API_CHECK_CU(cuGraphNodeGetDependentNodes(node, NULL, NULL, &n)))
      return 0;
   API_REQUIRE(n <= cap);
   size_t m = n;
   if (n && !API_CHECK_CU(cuGraphNodeGetDependentNodes(node, out, NULL, &m)))
      return 0;
   API_CHECK_MSG(m == n, "dependents: counted %zu, filled %zu", n, m);
   return n;
}

static bool
node_in(CUgraphNode n, const CUgraphNode *set, size_t count)
{
   for (size_t i = 0; i < count; i++)
      if (set[i] == n)
         return true;
   return false;
}

/* The two node sets hold the same nodes (each listed once). */
static bool
same_nodes(const CUgraphNode *a, size_t na, const CUgraphNode *b, size_t nb)
{
   if (na != nb)
      return false;
   for (size_t i = 0; i < na; i++) {
      if (!node_in(a[i], b, nb))
         return false;
      for (size_t j = 0; j < i; j++)
         if (a[j] == a[i])
            return false;
   }
   return true;
}

/* g is a chain of count nodes of the given types, in that order: one
 * root, each node the only dependent of the one before, the last with
 * none.  The nodes go to out (count entries). */
static void
check_chain(CUgraph g, const CUgraphNodeType *types, size_t count, CUgraphNode *out)
{
   CUgraphNode root[8], next[8];
   size_t nroot = 8;

   API_REQUIRE(count <= 8);
   size_t nodes = graph_node_count(g);
   API_CHECK_MSG(nodes == count, "chain: %zu nodes, want %zu", nodes, count);
   size_t edges = graph_edge_count(g);
   API_CHECK_MSG(edges == count - 1, "chain: %zu edges, want %zu", edges, count - 1);
   if (!API_CHECK_CU(cuGraphGetRootNodes(g, root, &nroot)))
      return;
   if (!API_CHECK_MSG(nroot == 1, "chain: %zu roots, want 1", nroot))
      return;
   CUgraphNode cur = root[0];
   for (size_t i = 0; i < count; i++) {
      int t = node_type(cur);
      API_CHECK_MSG(t == (int)types[i], "chain node %zu: type %s, want %s", i,
                    t < 0 ? "?" : type_name((CUgraphNodeType)t), type_name(types[i]));
      out[i] = cur;
      CUgraphNode dep[8];
      size_t ndep = deps_of(cur, dep, 8);
      if (i == 0)
         API_CHECK_MSG(ndep == 0, "chain node 0: %zu dependencies", ndep);
      else
         API_CHECK_MSG(ndep == 1 && dep[0] == out[i - 1],
                       "chain node %zu: %zu dependencies, want the node before", i, ndep);
      size_t nnext = dependents_of(cur, next, 8);
      if (i + 1 == count) {
         API_CHECK_MSG(nnext == 0, "chain's last node: %zu dependents", nnext);
      } else if (!API_CHECK_MSG(nnext == 1, "chain node %zu: %zu dependents, want 1", i, nnext)) {
         return;
      }
      cur = next[0];
   }
}

static void
nap_ms(int ms)
{
   struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
   nanosleep(&ts, NULL);
}

/* Fresh resources, ordinary work: what each error case ends with. */
static void
check_normal_work_at(const char *file, int line, const char *after)
{
   CUstream s = NULL;
   CUdeviceptr d = 0;
   uint32_t host[256];
   bool ok = api_check_result(file, line, "cuStreamCreate", CUDA_SUCCESS, cuStreamCreate(&s, 0)) &&
             api_check_result(file, line, "cuMemAlloc", CUDA_SUCCESS, cuMemAlloc(&d, sizeof(host))) &&
             api_check_result(file, line, "cuMemsetD32Async", CUDA_SUCCESS,
                              cuMemsetD32Async(d, 0x600d600du, 256, s)) &&
             api_check_result(file, line, "cuStreamSynchronize", CUDA_SUCCESS, cuStreamSynchronize(s)) &&
             api_check_result(file, line, "cuMemcpyDtoH", CUDA_SUCCESS, cuMemcpyDtoH(host, d, sizeof(host)));
   if (ok) {
      size_t bad = api_count_not(host, sizeof(host), 0x600d600du);
      api_check_at(file, line, bad == 0, "normal work after %s: %zu words wrong", after, bad);
   } else {
      api_report(file, line, "normal work after %s failed", after);
   }
   if (d)
      api_check_result(file, line, "cuMemFree", CUDA_SUCCESS, cuMemFree(d));
   if (s)
      api_check_result(file, line, "cuStreamDestroy", CUDA_SUCCESS, cuStreamDestroy(s));
}

#define CHECK_NORMAL_WORK(after) check_normal_work_at(__FILE__, __LINE__, (after))

static CUstreamCaptureStatus
capture_status(CUstream s)
{
   CUstreamCaptureStatus st = (CUstreamCaptureStatus)99;

   API_CHECK_CU(cuStreamIsCapturing(s, &st));
   return st;
}

#define CHECK_CAPTURING(s, want)                                               \
   do {                                                                        \
      CUstreamCaptureStatus st_ = capture_status(s);                           \
      API_CHECK_MSG(st_ == (want), "cuStreamIsCapturing(%s): %d, want %s", #s, \
                    (int)st_, #want);                                          \
   } while (0)

/* ---- graph.build.* ---- */

/* memset -> kernel -> memcpy into pinned memory, launched three times;
 * the kernel's (and fill's and copy's) parameters are the graph's own
 * once added. */
static void
build_chain(void)
{
   struct kern k;
   CUdeviceptr y, other;
   float *out, *host = api_xmalloc(BYTES);
   CUstream s;
   CUgraph g;
   CUgraphExec exec = NULL;
   CUgraphNode nset, nkern, ncopy;

   kern_load(&k);
   API_REQUIRE_CU(cuMemAlloc(&y, BYTES));
   API_REQUIRE_CU(cuMemAlloc(&other, BYTES));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out, BYTES));
   API_REQUIRE_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuMemsetD32(other, f2u(-7.0f), N));
   API_REQUIRE_CU(cuMemsetD32(y, f2u(-9.0f), N));

   API_REQUIRE_CU(cuGraphCreate(&g, 0));
   CUDA_MEMSET_NODE_PARAMS set = memset32_node(y, f2u(3.0f), N);
   API_REQUIRE_CU(cuGraphAddMemsetNode(&nset, g, NULL, 0, &set, api_ctx));
   struct axpb_args p;
   axpb_args_set(&p, y, 2.0f, 0.5f, N);
   CUDA_KERNEL_NODE_PARAMS kp = axpb_node(k.axpb, &p);
   API_REQUIRE_CU(cuGraphAddKernelNode(&nkern, g, &nset, 1, &kp));
   CUDA_MEMCPY3D cp = dtoh_copy(out, y, BYTES);
   API_REQUIRE_CU(cuGraphAddMemcpyNode(&ncopy, g, &nkern, 1, &cp, api_ctx));

   /* Everything the caller passed is overwritten: another buffer (whose
    * contents must stay -7), other scalars, another grid, another fill
    * value, a zeroed copy description. */
   axpb_args_set(&p, other, 100.0f, 1000.0f, N / 2);
   kp.gridDimX = 1;
   kp.blockDimX = 1;
   set.value = f2u(11.0f);
   set.dst = other;
   memset(&cp, 0, sizeof(cp));

   API_REQUIRE_CU(cuGraphInstantiate(&exec, g, 0));
   API_CHECK(exec != NULL);

   const float want = model_axpb(3.0f, 2.0f, 0.5f);
   for (int round = 0; round < 3; round++) {
      fill_sentinel(out, N);
      API_CHECK_CU(cuGraphLaunch(exec, s));
      API_CHECK_CU(cuStreamSynchronize(s));
      char what[64];
      snprintf(what, sizeof(what), "launch %d: pinned copy of y", round);
      CHECK_FLOATS(out, 0, N, want, what);
   }
   read_floats(host, y);
   CHECK_FLOATS(host, 0, N, want, "y after three launches");
   read_floats(host, other);
   CHECK_FLOATS(host, 0, N, -7.0f, "the buffer the caller's variables named after the add");

   API_CHECK_CU(cuGraphExecDestroy(exec));
   API_CHECK_CU(cuGraphDestroy(g));
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFreeHost(out));
   API_CHECK_CU(cuMemFree(other));
   API_CHECK_CU(cuMemFree(y));
   kern_unload(&k);
   free(host);
}

/* A diamond: a fill, two kernels on disjoint halves after it, a kernel
 * over all of it after both, a copy out. */
static void
build_diamond(void)
{
   struct kern k;
   CUdeviceptr y;
   float *out;
   CUstream s;
   CUgraph g;
   CUgraphExec exec = NULL;
   CUgraphNode root, left, right, join, copy;

   kern_load(&k);
   API_REQUIRE_CU(cuMemAlloc(&y, BYTES));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out, BYTES));
   API_REQUIRE_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuMemsetD32(y, 0, N));

   API_REQUIRE_CU(cuGraphCreate(&g, 0));
   CUDA_MEMSET_NODE_PARAMS set = memset32_node(y, f2u(1.0f), N);
   API_REQUIRE_CU(cuGraphAddMemsetNode(&root, g, NULL, 0, &set, api_ctx));

   struct axpb_args pl, pr, pj;
   axpb_args_set(&pl, y, 2.0f, 3.0f, N / 2);
   axpb_args_set(&pr, y + BYTES / 2, 3.0f, -1.0f, N / 2);
   axpb_args_set(&pj, y, 0.5f, 1.0f, N);
   CUDA_KERNEL_NODE_PARAMS kl = axpb_node(k.axpb, &pl);
   CUDA_KERNEL_NODE_PARAMS kr = axpb_node(k.axpb, &pr);
   CUDA_KERNEL_NODE_PARAMS kj = axpb_node(k.axpb, &pj);
   API_REQUIRE_CU(cuGraphAddKernelNode(&left, g, &root, 1, &kl));
   API_REQUIRE_CU(cuGraphAddKernelNode(&right, g, &root, 1, &kr));
   CUgraphNode both[2] = { left, right };
   API_REQUIRE_CU(cuGraphAddKernelNode(&join, g, both, 2, &kj));
   CUDA_MEMCPY3D cp = dtoh_copy(out, y, BYTES);
   API_REQUIRE_CU(cuGraphAddMemcpyNode(&copy, g, &join, 1, &cp, api_ctx));

   /* Its shape. */
   API_CHECK(graph_node_count(g) == 5);
   API_CHECK(graph_edge_count(g) == 5);
   CUgraphNode got[8];
   size_t n = deps_of(join, got, 8);
   API_CHECK_MSG(same_nodes(got, n, both, 2), "the join's %zu dependencies are not the two halves", n);
   n = dependents_of(root, got, 8);
   API_CHECK_MSG(same_nodes(got, n, both, 2), "the root's %zu dependents are not the two halves", n);
   size_t nroot = 8;
   API_CHECK_CU(cuGraphGetRootNodes(g, got, &nroot));
   API_CHECK_MSG(nroot == 1 && got[0] == root, "%zu roots", nroot);

   API_REQUIRE_CU(cuGraphInstantiate(&exec, g, 0));
   const float want_l = model_axpb(model_axpb(1.0f, 2.0f, 3.0f), 0.5f, 1.0f);
   const float want_r = model_axpb(model_axpb(1.0f, 3.0f, -1.0f), 0.5f, 1.0f);
   for (int round = 0; round < 2; round++) {
      fill_sentinel(out, N);
      API_CHECK_CU(cuGraphLaunch(exec, s));
      API_CHECK_CU(cuStreamSynchronize(s));
      CHECK_FLOATS(out, 0, N / 2, want_l, "first half (fill, left kernel, join)");
      CHECK_FLOATS(out, N / 2, N, want_r, "second half (fill, right kernel, join)");
   }

   API_CHECK_CU(cuGraphExecDestroy(exec));
   API_CHECK_CU(cuGraphDestroy(g));
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFreeHost(out));
   API_CHECK_CU(cuMemFree(y));
   kern_unload(&k);
}

/* Host nodes: each appends its id to a log. */
struct host_log {
   atomic_int count;
   int order[64];
};

struct host_ud {
   int id;
   struct host_log *log;
   const float *watch;   /* checked against want when not NULL */
   float want;
   atomic_int calls;
   atomic_size_t bad;
};

static void CUDA_CB
host_step(void *data)
{
   struct host_ud *u = data;

   if (u->watch) {
      size_t bad = 0;
      for (size_t i = 0; i < N; i++)
         bad += f2u(u->watch[i]) != f2u(u->want);
      atomic_fetch_add(&u->bad, bad);
   }
   int i = atomic_fetch_add(&u->log->count, 1);
   if (i < 64)
      u->log->order[i] = u->id;
   atomic_fetch_add(&u->calls, 1);
}

/* kernel -> copy -> h1 -> {h2, h3} -> h4: the host nodes run after the
 * kernel's result is in pinned memory, in dependency order, each with its
 * own userData. */
static void
build_host_node(void)
{
   struct kern k;
   CUdeviceptr y;
   float *out;
   CUstream s;
   CUgraph g;
   CUgraphExec exec = NULL;
   CUgraphNode nset, nkern, ncopy, h[4];
   struct host_log log;
   struct host_ud ud[4];

   memset(&log, 0, sizeof(log));
   atomic_init(&log.count, 0);
   for (int i = 0; i < 4; i++) {
      ud[i].id = i + 1;
      ud[i].log = &log;
      ud[i].watch = NULL;
      ud[i].want = 0;
      atomic_init(&ud[i].calls, 0);
      atomic_init(&ud[i].bad, 0);
   }

   kern_load(&k);
   API_REQUIRE_CU(cuMemAlloc(&y, BYTES));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out, BYTES));
   API_REQUIRE_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));

   API_REQUIRE_CU(cuGraphCreate(&g, 0));
   CUDA_MEMSET_NODE_PARAMS set = memset32_node(y, f2u(4.0f), N);
   API_REQUIRE_CU(cuGraphAddMemsetNode(&nset, g, NULL, 0, &set, api_ctx));
   struct axpb_args p;
   axpb_args_set(&p, y, 0.25f, 2.0f, N);
   CUDA_KERNEL_NODE_PARAMS kp = axpb_node(k.axpb, &p);
   API_REQUIRE_CU(cuGraphAddKernelNode(&nkern, g, &nset, 1, &kp));
   CUDA_MEMCPY3D cp = dtoh_copy(out, y, BYTES);
   API_REQUIRE_CU(cuGraphAddMemcpyNode(&ncopy, g, &nkern, 1, &cp, api_ctx));

   ud[0].watch = out;
   ud[0].want = model_axpb(4.0f, 0.25f, 2.0f);
   CUDA_HOST_NODE_PARAMS hp = { .fn = host_step, .userData = &ud[0] };
   API_REQUIRE_CU(cuGraphAddHostNode(&h[0], g, &ncopy, 1, &hp));
   hp.userData = &ud[1];
   API_REQUIRE_CU(cuGraphAddHostNode(&h[1], g, &h[0], 1, &hp));
   hp.userData = &ud[2];
   API_REQUIRE_CU(cuGraphAddHostNode(&h[2], g, &h[0], 1, &hp));
   CUgraphNode mid[2] = { h[1], h[2] };
   hp.userData = &ud[3];
   API_REQUIRE_CU(cuGraphAddHostNode(&h[3], g, mid, 2, &hp));
   hp.fn = NULL;
   hp.userData = NULL;

   for (int i = 0; i < 4; i++) {
      CUDA_HOST_NODE_PARAMS got = { NULL, NULL };
      API_CHECK_CU(cuGraphHostNodeGetParams(h[i], &got));
      API_CHECK_MSG(got.fn == host_step && got.userData == &ud[i],
                    "host node %d: fn %p userData %p, want %p %p", i + 1, (void *)got.fn,
                    got.userData, (void *)host_step, (void *)&ud[i]);
      CHECK_TYPE(h[i], CU_GRAPH_NODE_TYPE_HOST);
   }

   API_REQUIRE_CU(cuGraphInstantiate(&exec, g, 0));
   /* Nothing ran before a launch. */
   nap_ms(10);
   API_CHECK_MSG(atomic_load(&log.count) == 0, "%d host nodes ran before any launch",
                 atomic_load(&log.count));

   for (int round = 0; round < 2; round++) {
      fill_sentinel(out, N);
      API_CHECK_CU(cuGraphLaunch(exec, s));
      API_CHECK_CU(cuStreamSynchronize(s));
      int count = atomic_load(&log.count);
      if (!API_CHECK_MSG(count == 4 * (round + 1), "launch %d: %d host node calls logged, want %d",
                         round, count, 4 * (round + 1)))
         continue;
      const int *o = log.order + 4 * round;
      API_CHECK_MSG(o[0] == 1 && o[3] == 4 &&
                       ((o[1] == 2 && o[2] == 3) || (o[1] == 3 && o[2] == 2)),
                    "launch %d: host nodes ran in the order %d %d %d %d (want 1, 2 and 3 in any order, 4)",
                    round, o[0], o[1], o[2], o[3]);
      CHECK_FLOATS(out, 0, N, ud[0].want, "pinned copy of y");
   }
   for (int i = 0; i < 4; i++)
      API_CHECK_MSG(atomic_load(&ud[i].calls) == 2, "host node %d ran %d times, want 2", i + 1,
                    atomic_load(&ud[i].calls));
   API_CHECK_MSG(atomic_load(&ud[0].bad) == 0,
                 "the host node after the copy saw %zu wrong floats (it ran before the kernel's result arrived)",
                 atomic_load(&ud[0].bad));

   API_CHECK_CU(cuGraphExecDestroy(exec));
   API_CHECK_CU(cuGraphDestroy(g));
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFreeHost(out));
   API_CHECK_CU(cuMemFree(y));
   kern_unload(&k);
}

/* The nodes made in the reverse of the order they must run in, none with
 * dependencies, and the chain memset -> kernel -> memcpy -> h1 -> h2 then
 * made of edges alone (cuGraphAddDependencies, two in one call): an exec
 * that ran nodes in the order they were made would copy before the
 * kernel and fill last. */
static void
build_added_edges(void)
{
   struct kern k;
   CUdeviceptr y;
   float *out;
   CUstream s;
   CUgraph g;
   CUgraphExec exec = NULL;
   CUgraphNode m, kn, c, h1, h2;
   struct host_log log;
   struct host_ud ud[2];

   memset(&log, 0, sizeof(log));
   atomic_init(&log.count, 0);
   for (int i = 0; i < 2; i++) {
      ud[i].id = i + 1;
      ud[i].log = &log;
      ud[i].watch = NULL;
      ud[i].want = 0;
      atomic_init(&ud[i].calls, 0);
      atomic_init(&ud[i].bad, 0);
   }

   kern_load(&k);
   API_REQUIRE_CU(cuMemAlloc(&y, BYTES));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out, BYTES));
   API_REQUIRE_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuMemsetD32(y, f2u(-3.0f), N));

   API_REQUIRE_CU(cuGraphCreate(&g, 0));
   CUDA_HOST_NODE_PARAMS hp = { .fn = host_step, .userData = &ud[1] };
   API_REQUIRE_CU(cuGraphAddHostNode(&h2, g, NULL, 0, &hp));
   ud[0].watch = out;
   ud[0].want = model_axpb(6.0f, -0.5f, 10.0f);
   hp.userData = &ud[0];
   API_REQUIRE_CU(cuGraphAddHostNode(&h1, g, NULL, 0, &hp));
   CUDA_MEMCPY3D cp = dtoh_copy(out, y, BYTES);
   API_REQUIRE_CU(cuGraphAddMemcpyNode(&c, g, NULL, 0, &cp, api_ctx));
   struct axpb_args p;
   axpb_args_set(&p, y, -0.5f, 10.0f, N);
   CUDA_KERNEL_NODE_PARAMS kp = axpb_node(k.axpb, &p);
   API_REQUIRE_CU(cuGraphAddKernelNode(&kn, g, NULL, 0, &kp));
   CUDA_MEMSET_NODE_PARAMS set = memset32_node(y, f2u(6.0f), N);
   API_REQUIRE_CU(cuGraphAddMemsetNode(&m, g, NULL, 0, &set, api_ctx));

   size_t nroot = 12345;
   API_CHECK_CU(cuGraphGetRootNodes(g, NULL, &nroot));
   API_CHECK_MSG(nroot == 5, "%zu roots before any edge, want 5", nroot);
   const CUgraphNode from[2] = { m, kn }, to[2] = { kn, c };
   API_CHECK_CU(cuGraphAddDependencies(g, from, to, NULL, 2));
   API_CHECK_CU(cuGraphAddDependencies(g, &c, &h1, NULL, 1));
   API_CHECK_CU(cuGraphAddDependencies(g, &h1, &h2, NULL, 1));

   static const CUgraphNodeType chain[5] = { CU_GRAPH_NODE_TYPE_MEMSET, CU_GRAPH_NODE_TYPE_KERNEL,
                                             CU_GRAPH_NODE_TYPE_MEMCPY, CU_GRAPH_NODE_TYPE_HOST,
                                             CU_GRAPH_NODE_TYPE_HOST };
   CUgraphNode nodes[5] = { 0 };
   check_chain(g, chain, 5, nodes);
   API_CHECK_MSG(nodes[0] == m && nodes[1] == kn && nodes[2] == c && nodes[3] == h1 && nodes[4] == h2,
                 "the chain the edges made is not m, k, c, h1, h2");

   API_REQUIRE_CU(cuGraphInstantiate(&exec, g, 0));
   for (int round = 0; round < 2; round++) {
      fill_sentinel(out, N);
      API_CHECK_CU(cuGraphLaunch(exec, s));
      API_CHECK_CU(cuStreamSynchronize(s));
      CHECK_FLOATS(out, 0, N, ud[0].want, "pinned copy of y");
      int count = atomic_load(&log.count);
      if (API_CHECK_MSG(count == 2 * (round + 1), "launch %d: %d host node calls logged", round, count))
         API_CHECK_MSG(log.order[2 * round] == 1 && log.order[2 * round + 1] == 2,
                       "launch %d: host nodes ran in the order %d %d, want 1 2", round, log.order[2 * round],
                       log.order[2 * round + 1]);
   }
   API_CHECK_MSG(atomic_load(&ud[0].bad) == 0,
                 "the host node after the copy saw %zu wrong floats (it ran before the copy)",
                 atomic_load(&ud[0].bad));

   API_CHECK_CU(cuGraphExecDestroy(exec));
   API_CHECK_CU(cuGraphDestroy(g));
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFreeHost(out));
   API_CHECK_CU(cuMemFree(y));
   kern_unload(&k);
}

static void CUDA_CB
sleep_50ms(void *data)
{
   (void)data;
   nap_ms(50);
}

/* wait(e_w) -> kernel -> record(e_rec) -> copy: the wait node holds the
 * kernel until another stream's fill (behind a slow host function) is
 * done; e_rec completes once the kernel is. */
static void
build_events(void)
{
   struct kern k;
   CUdeviceptr y;
   float *out, *host = api_xmalloc(BYTES);
   CUstream s1, s2;
   CUevent e_w, e_rec;
   CUgraph g;
   CUgraphExec exec = NULL;
   CUgraphNode nwait, nkern, nrec, ncopy;

   kern_load(&k);
   API_REQUIRE_CU(cuMemAlloc(&y, BYTES));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out, BYTES));
   API_REQUIRE_CU(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuEventCreate(&e_w, CU_EVENT_DISABLE_TIMING));
   API_REQUIRE_CU(cuEventCreate(&e_rec, CU_EVENT_DISABLE_TIMING));
   API_REQUIRE_CU(cuMemsetD32(y, 0, N));

   API_REQUIRE_CU(cuGraphCreate(&g, 0));
   API_REQUIRE_CU(cuGraphAddEventWaitNode(&nwait, g, NULL, 0, e_w));
   struct axpb_args p;
   axpb_args_set(&p, y, 3.0f, 0.5f, N);
   CUDA_KERNEL_NODE_PARAMS kp = axpb_node(k.axpb, &p);
   API_REQUIRE_CU(cuGraphAddKernelNode(&nkern, g, &nwait, 1, &kp));
   API_REQUIRE_CU(cuGraphAddEventRecordNode(&nrec, g, &nkern, 1, e_rec));
   CUDA_MEMCPY3D cp = dtoh_copy(out, y, BYTES);
   API_REQUIRE_CU(cuGraphAddMemcpyNode(&ncopy, g, &nrec, 1, &cp, api_ctx));

   CUevent got = NULL;
   API_CHECK_CU(cuGraphEventRecordNodeGetEvent(nrec, &got));
   API_CHECK_MSG(got == e_rec, "cuGraphEventRecordNodeGetEvent: %p, want %p", (void *)got, (void *)e_rec);
   got = NULL;
   API_CHECK_CU(cuGraphEventWaitNodeGetEvent(nwait, &got));
   API_CHECK_MSG(got == e_w, "cuGraphEventWaitNodeGetEvent: %p, want %p", (void *)got, (void *)e_w);
   CHECK_TYPE(nwait, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
   CHECK_TYPE(nrec, CU_GRAPH_NODE_TYPE_EVENT_RECORD);

   API_REQUIRE_CU(cuGraphInstantiate(&exec, g, 0));

   static const float fills[] = { 5.0f, 7.0f };
   for (int round = 0; round < 2; round++) {
      const float want = model_axpb(fills[round], 3.0f, 0.5f);
      fill_sentinel(out, N);
      /* The producer on s2, late; the graph on s1 must wait for it. */
      API_CHECK_CU(cuLaunchHostFunc(s2, sleep_50ms, NULL));
      API_CHECK_CU(cuMemsetD32Async(y, f2u(fills[round]), N, s2));
      API_CHECK_CU(cuEventRecord(e_w, s2));
      API_CHECK_CU(cuGraphLaunch(exec, s1));
      API_CHECK_CU(cuEventSynchronize(e_rec));
      API_CHECK_CU(cuEventQuery(e_rec));
      /* The kernel before the record node is done (the legacy stream
       * does not wait for s1, which is non-blocking). */
      read_floats(host, y);
      char what[64];
      snprintf(what, sizeof(what), "round %d: y once e_rec completed", round);
      CHECK_FLOATS(host, 0, N, want, what);
      API_CHECK_CU(cuStreamSynchronize(s1));
      snprintf(what, sizeof(what), "round %d: pinned copy of y", round);
      CHECK_FLOATS(out, 0, N, want, what);
      API_CHECK_CU(cuStreamSynchronize(s2));
   }

   API_CHECK_CU(cuGraphExecDestroy(exec));
   API_CHECK_CU(cuGraphDestroy(g));
   API_CHECK_CU(cuEventDestroy(e_rec));
   API_CHECK_CU(cuEventDestroy(e_w));
   API_CHECK_CU(cuStreamDestroy(s2));
   API_CHECK_CU(cuStreamDestroy(s1));
   API_CHECK_CU(cuMemFreeHost(out));
   API_CHECK_CU(cuMemFree(y));
   kern_unload(&k);
   free(host);
}

/* The queries, on a graph with a node of every kind:
 *
 *    m (memset) -> k (kernel) -> c (memcpy) -> h (host)
 *                      \-> r (event record)
 *    e (empty)     w (event wait)
 *
 * then an edge e -> h added with cuGraphAddDependencies, then e destroyed. */
static void
build_queries(void)
{
   struct kern k;
   CUdeviceptr y;
   float *out;
   CUstream s;
   CUevent ev_rec, ev_wait;
   CUgraph g;
   CUgraphExec exec = NULL;
   CUgraphNode m, kn, c, h, r, e, w;
   struct host_log log;
   struct host_ud ud = { .id = 7, .log = &log };

   memset(&log, 0, sizeof(log));
   atomic_init(&log.count, 0);
   atomic_init(&ud.calls, 0);
   atomic_init(&ud.bad, 0);

   kern_load(&k);
   API_REQUIRE_CU(cuMemAlloc(&y, BYTES));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out, BYTES));
   API_REQUIRE_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuEventCreate(&ev_rec, CU_EVENT_DISABLE_TIMING));
   API_REQUIRE_CU(cuEventCreate(&ev_wait, CU_EVENT_DISABLE_TIMING));
   API_REQUIRE_CU(cuEventRecord(ev_wait, s));

   API_REQUIRE_CU(cuGraphCreate(&g, 0));
   API_CHECK(graph_node_count(g) == 0);
   API_CHECK(graph_edge_count(g) == 0);

   CUDA_MEMSET_NODE_PARAMS set = memset32_node(y, f2u(2.0f), N);
   API_REQUIRE_CU(cuGraphAddMemsetNode(&m, g, NULL, 0, &set, api_ctx));
   struct axpb_args p;
   axpb_args_set(&p, y, 1.5f, -0.25f, N);
   CUDA_KERNEL_NODE_PARAMS kp = axpb_node(k.axpb, &p);
   API_REQUIRE_CU(cuGraphAddKernelNode(&kn, g, &m, 1, &kp));
   CUDA_MEMCPY3D cp = dtoh_copy(out, y, BYTES);
   API_REQUIRE_CU(cuGraphAddMemcpyNode(&c, g, &kn, 1, &cp, api_ctx));
   CUDA_HOST_NODE_PARAMS hp = { .fn = host_step, .userData = &ud };
   API_REQUIRE_CU(cuGraphAddHostNode(&h, g, &c, 1, &hp));
   API_REQUIRE_CU(cuGraphAddEventRecordNode(&r, g, &kn, 1, ev_rec));
   API_REQUIRE_CU(cuGraphAddEmptyNode(&e, g, NULL, 0));
   API_REQUIRE_CU(cuGraphAddEventWaitNode(&w, g, NULL, 0, ev_wait));

   const CUgraphNode all[7] = { m, kn, c, h, r, e, w };
   for (int i = 0; i < 7; i++)
      for (int j = 0; j < i; j++)
         API_CHECK_MSG(all[i] != all[j], "nodes %d and %d have one handle", i, j);

   /* Types. */
   CHECK_TYPE(m, CU_GRAPH_NODE_TYPE_MEMSET);
   CHECK_TYPE(kn, CU_GRAPH_NODE_TYPE_KERNEL);
   CHECK_TYPE(c, CU_GRAPH_NODE_TYPE_MEMCPY);
   CHECK_TYPE(h, CU_GRAPH_NODE_TYPE_HOST);
   CHECK_TYPE(r, CU_GRAPH_NODE_TYPE_EVENT_RECORD);
   CHECK_TYPE(e, CU_GRAPH_NODE_TYPE_EMPTY);
   CHECK_TYPE(w, CU_GRAPH_NODE_TYPE_WAIT_EVENT);

   /* cuGraphGetNodes: counted, a larger array (the rest set to NULL),
    * a smaller one (the first n). */
   size_t n = 12345;
   API_CHECK_CU(cuGraphGetNodes(g, NULL, &n));
   API_CHECK_MSG(n == 7, "cuGraphGetNodes counted %zu nodes, want 7", n);
   CUgraphNode big[10];
   for (int i = 0; i < 10; i++)
      big[i] = (CUgraphNode)(uintptr_t)0x5a5a5a5a;
   n = 10;
   API_CHECK_CU(cuGraphGetNodes(g, big, &n));
   API_CHECK_MSG(n == 7, "cuGraphGetNodes with room for 10: count %zu, want 7", n);
   API_CHECK_MSG(same_nodes(big, 7, all, 7), "cuGraphGetNodes: the 7 nodes are not the graph's");
   for (int i = 7; i < 10; i++)
      API_CHECK_MSG(big[i] == NULL, "cuGraphGetNodes: entry %d past the count is %p, want NULL", i,
                    (void *)big[i]);
   CUgraphNode small[4];
   for (int i = 0; i < 4; i++)
      small[i] = (CUgraphNode)(uintptr_t)0x5a5a5a5a;
   n = 3;
   API_CHECK_CU(cuGraphGetNodes(g, small, &n));
   API_CHECK_MSG(n == 3, "cuGraphGetNodes with room for 3: count %zu, want 3", n);
   for (int i = 0; i < 3; i++)
      API_CHECK_MSG(small[i] == big[i], "cuGraphGetNodes with room for 3: entry %d is not the first listing's",
                    i);
   API_CHECK_MSG(small[3] == (CUgraphNode)(uintptr_t)0x5a5a5a5a,
                 "cuGraphGetNodes with room for 3 wrote a fourth entry");

   /* Roots: m, e, w. */
   const CUgraphNode want_roots[3] = { m, e, w };
   n = 12345;
   API_CHECK_CU(cuGraphGetRootNodes(g, NULL, &n));
   API_CHECK_MSG(n == 3, "cuGraphGetRootNodes counted %zu, want 3", n);
   CUgraphNode roots[5];
   n = 5;
   roots[3] = roots[4] = (CUgraphNode)(uintptr_t)0x5a5a5a5a;
   API_CHECK_CU(cuGraphGetRootNodes(g, roots, &n));
   API_CHECK_MSG(n == 3 && same_nodes(roots, 3, want_roots, 3), "cuGraphGetRootNodes: %zu roots, not m, e, w", n);
   API_CHECK(roots[3] == NULL && roots[4] == NULL);

   /* Dependencies and dependents, counted and filled. */
   CUgraphNode got[8];
   size_t nd = deps_of(kn, got, 8);
   API_CHECK_MSG(nd == 1 && got[0] == m, "k's dependencies: %zu, not m", nd);
   nd = deps_of(m, got, 8);
   API_CHECK_MSG(nd == 0, "m has %zu dependencies", nd);
   const CUgraphNode k_next[2] = { c, r };
   nd = dependents_of(kn, got, 8);
   API_CHECK_MSG(same_nodes(got, nd, k_next, 2), "k's dependents: %zu, not c and r", nd);
   nd = dependents_of(h, got, 8);
   API_CHECK_MSG(nd == 0, "h has %zu dependents", nd);
   nd = dependents_of(w, got, 8);
   API_CHECK_MSG(nd == 0, "w has %zu dependents", nd);
   /* A larger array than needed: the rest NULL, the count written back. */
   CUgraphNode four[4] = { 0 };
   for (int i = 0; i < 4; i++)
      four[i] = (CUgraphNode)(uintptr_t)0x5a5a5a5a;
   n = 4;
   API_CHECK_CU(cuGraphNodeGetDependentNodes(kn, four, NULL, &n));
   API_CHECK_MSG(n == 2 && same_nodes(four, 2, k_next, 2) && four[2] == NULL && four[3] == NULL,
                 "cuGraphNodeGetDependentNodes(k) with room for 4: count %zu, entries %p %p %p %p", n,
                 (void *)four[0], (void *)four[1], (void *)four[2], (void *)four[3]);
   for (int i = 0; i < 4; i++)
      four[i] = (CUgraphNode)(uintptr_t)0x5a5a5a5a;
   n = 4;
   API_CHECK_CU(cuGraphNodeGetDependencies(c, four, NULL, &n));
   API_CHECK_MSG(n == 1 && four[0] == kn && four[1] == NULL,
                 "cuGraphNodeGetDependencies(c) with room for 4: count %zu, entries %p %p", n,
                 (void *)four[0], (void *)four[1]);

   /* Edges: m->k, k->c, c->h, k->r. */
   const CUgraphNode want_from[4] = { m, kn, c, kn }, want_to[4] = { kn, c, h, r };
   n = 12345;
   API_CHECK_CU(cuGraphGetEdges(g, NULL, NULL, NULL, &n));
   API_CHECK_MSG(n == 4, "cuGraphGetEdges counted %zu edges, want 4", n);
   CUgraphNode from[6], to[6];
   for (int i = 0; i < 6; i++)
      from[i] = to[i] = (CUgraphNode)(uintptr_t)0x5a5a5a5a;
   n = 6;
   API_CHECK_CU(cuGraphGetEdges(g, from, to, NULL, &n));
   API_CHECK_MSG(n == 4, "cuGraphGetEdges with room for 6: count %zu, want 4", n);
   for (size_t i = 0; i < 4 && i < n; i++) {
      bool found = false;
      for (size_t j = 0; j < n; j++)
         found |= from[j] == want_from[i] && to[j] == want_to[i];
      API_CHECK_MSG(found, "edge %zu (%s -> %s) not listed", i, type_name((CUgraphNodeType)node_type(want_from[i])),
                    type_name((CUgraphNodeType)node_type(want_to[i])));
   }
   if (n == 4)
      API_CHECK_MSG(from[4] == NULL && to[4] == NULL && from[5] == NULL && to[5] == NULL,
                    "cuGraphGetEdges: entries past the count not NULL");

   /* An edge added: e -> h. */
   API_CHECK_CU(cuGraphAddDependencies(g, &e, &h, NULL, 1));
   API_CHECK(graph_edge_count(g) == 5);
   const CUgraphNode h_deps[2] = { c, e };
   nd = deps_of(h, got, 8);
   API_CHECK_MSG(same_nodes(got, nd, h_deps, 2), "h's dependencies after the added edge: %zu, not c and e", nd);
   nd = dependents_of(e, got, 8);
   API_CHECK_MSG(nd == 1 && got[0] == h, "e's dependents after the added edge: %zu, not h", nd);
   n = 8;
   API_CHECK_CU(cuGraphGetRootNodes(g, got, &n));
   API_CHECK_MSG(n == 3 && same_nodes(got, 3, want_roots, 3), "roots after the added edge: %zu", n);
   n = 6;
   API_CHECK_CU(cuGraphGetEdges(g, from, to, NULL, &n));
   bool found = false;
   for (size_t j = 0; j < n && j < 6; j++)
      found |= from[j] == e && to[j] == h;
   API_CHECK_MSG(n == 5 && found, "cuGraphGetEdges after the added edge: %zu edges, e -> h %s", n,
                 found ? "listed" : "not listed");

   /* Each kind's parameters. */
   CUDA_KERNEL_NODE_PARAMS kgot;
   memset(&kgot, 0, sizeof(kgot));
   if (API_CHECK_CU(cuGraphKernelNodeGetParams(kn, &kgot))) {
      API_CHECK(kgot.func == k.axpb);
      API_CHECK_MSG(kgot.gridDimX == grid_for(N) && kgot.gridDimY == 1 && kgot.gridDimZ == 1,
                    "grid %u %u %u", kgot.gridDimX, kgot.gridDimY, kgot.gridDimZ);
      API_CHECK_MSG(kgot.blockDimX == BLOCK && kgot.blockDimY == 1 && kgot.blockDimZ == 1,
                    "block %u %u %u", kgot.blockDimX, kgot.blockDimY, kgot.blockDimZ);
      API_CHECK(kgot.sharedMemBytes == 0);
      /* The parameters the node holds, its own copies. */
      if (API_CHECK_MSG(kgot.kernelParams != NULL, "cuGraphKernelNodeGetParams: kernelParams NULL")) {
         API_CHECK(kgot.kernelParams != p.params);
         CUdeviceptr gy;
         float ga, gb;
         unsigned gn;
         memcpy(&gy, kgot.kernelParams[0], sizeof(gy));
         memcpy(&ga, kgot.kernelParams[1], sizeof(ga));
         memcpy(&gb, kgot.kernelParams[2], sizeof(gb));
         memcpy(&gn, kgot.kernelParams[3], sizeof(gn));
         API_CHECK_MSG(gy == y && ga == 1.5f && gb == -0.25f && gn == N,
                       "kernel node parameters: y %#llx a %g b %g n %u", (unsigned long long)gy, (double)ga,
                       (double)gb, gn);
      }
   }
   CUDA_MEMSET_NODE_PARAMS sgot;
   memset(&sgot, 0, sizeof(sgot));
   if (API_CHECK_CU(cuGraphMemsetNodeGetParams(m, &sgot)))
      API_CHECK_MSG(sgot.dst == y && sgot.value == f2u(2.0f) && sgot.elementSize == 4 && sgot.width == N &&
                       sgot.height == 1,
                    "memset node: dst %#llx value 0x%x elementSize %u width %zu height %zu",
                    (unsigned long long)sgot.dst, sgot.value, sgot.elementSize, sgot.width, sgot.height);
   CUDA_HOST_NODE_PARAMS hgot = { NULL, NULL };
   API_CHECK_CU(cuGraphHostNodeGetParams(h, &hgot));
   API_CHECK(hgot.fn == host_step && hgot.userData == &ud);
   CUDA_MEMCPY3D cgot;
   memset(&cgot, 0, sizeof(cgot));
   if (API_CHECK_CU(cuGraphMemcpyNodeGetParams(c, &cgot)))
      API_CHECK_MSG(cgot.srcMemoryType == CU_MEMORYTYPE_DEVICE && cgot.srcDevice == y &&
                       cgot.dstMemoryType == CU_MEMORYTYPE_HOST && cgot.dstHost == out &&
                       cgot.WidthInBytes == BYTES && cgot.Height == 1 && cgot.Depth == 1 &&
                       cgot.srcXInBytes == 0 && cgot.dstXInBytes == 0,
                    "memcpy node: src type %d %#llx dst type %d %p width %zu height %zu depth %zu",
                    (int)cgot.srcMemoryType, (unsigned long long)cgot.srcDevice, (int)cgot.dstMemoryType,
                    cgot.dstHost, cgot.WidthInBytes, cgot.Height, cgot.Depth);
   CUevent evgot = NULL;
   API_CHECK_CU(cuGraphEventRecordNodeGetEvent(r, &evgot));
   API_CHECK(evgot == ev_rec);
   evgot = NULL;
   API_CHECK_CU(cuGraphEventWaitNodeGetEvent(w, &evgot));
   API_CHECK(evgot == ev_wait);

   /* It runs, every kind of node. */
   API_REQUIRE_CU(cuGraphInstantiate(&exec, g, 0));
   fill_sentinel(out, N);
   API_CHECK_CU(cuGraphLaunch(exec, s));
   API_CHECK_CU(cuStreamSynchronize(s));
   CHECK_FLOATS(out, 0, N, model_axpb(2.0f, 1.5f, -0.25f), "pinned copy of y");
   API_CHECK_MSG(atomic_load(&ud.calls) == 1, "the host node ran %d times", atomic_load(&ud.calls));
   API_CHECK_CU(cuEventQuery(ev_rec));
   API_CHECK_CU(cuGraphExecDestroy(exec));

   /* A node destroyed: its edges go with it. */
   API_CHECK_CU(cuGraphDestroyNode(e));
   API_CHECK(graph_node_count(g) == 6);
   API_CHECK(graph_edge_count(g) == 4);
   nd = deps_of(h, got, 8);
   API_CHECK_MSG(nd == 1 && got[0] == c, "h's dependencies once e is destroyed: %zu, not c", nd);
   CUgraphNodeType t;
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphNodeGetType(e, &t));

   API_CHECK_CU(cuGraphDestroy(g));
   API_CHECK_CU(cuEventDestroy(ev_wait));
   API_CHECK_CU(cuEventDestroy(ev_rec));
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFreeHost(out));
   API_CHECK_CU(cuMemFree(y));
   kern_unload(&k);
}

/* ---- graph.exec.* ---- */

static void CUDA_CB
sleep_2ms(void *data)
{
   (void)data;
   nap_ms(2);
}

/* One exec launched 20 times on two streams in turn with nothing else
 * ordering them: each launch reads what the one before wrote.  The graph
 * is y = 2y + 1, a host node that sleeps, y = y - 1 (y -> 2y a launch):
 * two launches that overlapped (the second's first kernel during the
 * first's sleep) would give 4y + 1 where 4y is right. */
static void
exec_relaunch_streams(void)
{
   struct kern k;
   CUdeviceptr y;
   float *host = api_xmalloc(BYTES);
   CUstream s[2];
   CUgraph g;
   CUgraphExec exec = NULL;
   CUgraphNode k1, nap, k2;

   kern_load(&k);
   API_REQUIRE_CU(cuMemAlloc(&y, BYTES));
   API_REQUIRE_CU(cuMemsetD32(y, f2u(1.0f), N));
   API_REQUIRE_CU(cuStreamCreate(&s[0], CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&s[1], CU_STREAM_NON_BLOCKING));

   API_REQUIRE_CU(cuGraphCreate(&g, 0));
   struct axpb_args p1, p2;
   axpb_args_set(&p1, y, 2.0f, 1.0f, N);
   axpb_args_set(&p2, y, 1.0f, -1.0f, N);
   CUDA_KERNEL_NODE_PARAMS kp1 = axpb_node(k.axpb, &p1), kp2 = axpb_node(k.axpb, &p2);
   CUDA_HOST_NODE_PARAMS hp = { .fn = sleep_2ms, .userData = NULL };
   API_REQUIRE_CU(cuGraphAddKernelNode(&k1, g, NULL, 0, &kp1));
   API_REQUIRE_CU(cuGraphAddHostNode(&nap, g, &k1, 1, &hp));
   API_REQUIRE_CU(cuGraphAddKernelNode(&k2, g, &nap, 1, &kp2));
   API_REQUIRE_CU(cuGraphInstantiate(&exec, g, 0));

   float want = 1.0f;
   for (int i = 0; i < 20; i++) {
      API_CHECK_CU(cuGraphLaunch(exec, s[i & 1]));
      want = model_axpb(model_axpb(want, 2.0f, 1.0f), 1.0f, -1.0f);
   }
   API_CHECK_CU(cuStreamSynchronize(s[0]));
   API_CHECK_CU(cuStreamSynchronize(s[1]));
   read_floats(host, y);
   CHECK_FLOATS(host, 0, N, want, "y after 20 launches of y = 2y + 1, y = y - 1");
   API_CHECK(want == 1048576.0f);

   API_CHECK_CU(cuGraphExecDestroy(exec));
   API_CHECK_CU(cuGraphDestroy(g));
   API_CHECK_CU(cuStreamDestroy(s[1]));
   API_CHECK_CU(cuStreamDestroy(s[0]));
   API_CHECK_CU(cuMemFree(y));
   kern_unload(&k);
   free(host);
}

/* The graph destroyed right after instantiation: the exec is whole. */
static void
exec_outlives_graph(void)
{
   struct kern k;
   CUdeviceptr y;
   float *out;
   CUstream s;
   CUgraph g;
   CUgraphExec exec = NULL;
   CUgraphNode nset, nkern, ncopy, nhost;
   struct host_log log;
   struct host_ud ud = { .id = 1, .log = &log };

   memset(&log, 0, sizeof(log));
   atomic_init(&log.count, 0);
   atomic_init(&ud.calls, 0);
   atomic_init(&ud.bad, 0);

   kern_load(&k);
   API_REQUIRE_CU(cuMemAlloc(&y, BYTES));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out, BYTES));
   API_REQUIRE_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));

   API_REQUIRE_CU(cuGraphCreate(&g, 0));
   CUDA_MEMSET_NODE_PARAMS set = memset32_node(y, f2u(-2.0f), N);
   API_REQUIRE_CU(cuGraphAddMemsetNode(&nset, g, NULL, 0, &set, api_ctx));
   struct axpb_args p;
   axpb_args_set(&p, y, 4.0f, 0.75f, N);
   CUDA_KERNEL_NODE_PARAMS kp = axpb_node(k.axpb, &p);
   API_REQUIRE_CU(cuGraphAddKernelNode(&nkern, g, &nset, 1, &kp));
   CUDA_MEMCPY3D cp = dtoh_copy(out, y, BYTES);
   API_REQUIRE_CU(cuGraphAddMemcpyNode(&ncopy, g, &nkern, 1, &cp, api_ctx));
   ud.watch = out;
   ud.want = model_axpb(-2.0f, 4.0f, 0.75f);
   CUDA_HOST_NODE_PARAMS hp = { .fn = host_step, .userData = &ud };
   API_REQUIRE_CU(cuGraphAddHostNode(&nhost, g, &ncopy, 1, &hp));
   API_REQUIRE_CU(cuGraphInstantiate(&exec, g, 0));
   API_CHECK_CU(cuGraphDestroy(g));

   for (int round = 0; round < 2; round++) {
      fill_sentinel(out, N);
      API_CHECK_CU(cuGraphLaunch(exec, s));
      API_CHECK_CU(cuStreamSynchronize(s));
      CHECK_FLOATS(out, 0, N, ud.want, "pinned copy of y");
   }
   API_CHECK_MSG(atomic_load(&ud.calls) == 2, "the host node ran %d times, want 2", atomic_load(&ud.calls));
   API_CHECK_MSG(atomic_load(&ud.bad) == 0, "the host node saw %zu wrong floats", atomic_load(&ud.bad));
   API_CHECK_CU(cuGraphExecDestroy(exec));

   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFreeHost(out));
   API_CHECK_CU(cuMemFree(y));
   kern_unload(&k);
}

/* ---- graph.capture.* ---- */

struct host_count {
   atomic_int calls;
   atomic_size_t bad;
   const float *watch;
   float want;
};

static void CUDA_CB
host_count_run(void *data)
{
   struct host_count *h = data;
   size_t bad = 0;

   for (size_t i = 0; i < N; i++)
      bad += f2u(h->watch[i]) != f2u(h->want);
   atomic_fetch_add(&h->bad, bad);
   atomic_fetch_add(&h->calls, 1);
}

/* memset, kernel, copy out, host function captured on one stream: a
 * chain of four nodes; nothing runs until the graph is launched. */
static void
capture_basic(void)
{
   struct kern k;
   CUdeviceptr y;
   float *out;
   CUstream s;
   CUgraph g = NULL;
   CUgraphExec exec = NULL;
   struct host_count hc;

   kern_load(&k);
   API_REQUIRE_CU(cuMemAlloc(&y, BYTES));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out, BYTES));
   API_REQUIRE_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuMemsetD32(y, f2u(-1.0f), N));
   fill_sentinel(out, N);
   atomic_init(&hc.calls, 0);
   atomic_init(&hc.bad, 0);
   hc.watch = out;
   hc.want = model_axpb(2.0f, 1.5f, 0.25f);

   CHECK_CAPTURING(s, CU_STREAM_CAPTURE_STATUS_NONE);
   API_REQUIRE_CU(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
   CHECK_CAPTURING(s, CU_STREAM_CAPTURE_STATUS_ACTIVE);

   CUstreamCaptureStatus st = (CUstreamCaptureStatus)99;
   cuuint64_t id = 0;
   CUgraph cg = NULL;
   const CUgraphNode *deps = NULL;
   size_t nd = 12345;
   API_CHECK_CU(cuStreamGetCaptureInfo(s, &st, &id, &cg, &deps, NULL, &nd));
   API_CHECK_MSG(st == CU_STREAM_CAPTURE_STATUS_ACTIVE, "capture status %d", (int)st);
   API_CHECK_MSG(id != 0, "capture id 0");
   API_CHECK_MSG(cg != NULL, "no capture graph");
   API_CHECK_MSG(nd == 0, "%zu dependencies before anything was captured", nd);

   API_CHECK_CU(cuMemsetD32Async(y, f2u(2.0f), N, s));
   struct axpb_args p;
   axpb_args_set(&p, y, 1.5f, 0.25f, N);
   API_CHECK_CU(launch_axpb(k.axpb, &p, s));
   axpb_args_set(&p, y, 100.0f, 100.0f, 1); /* captured: the node holds the old values */
   API_CHECK_CU(cuMemcpyDtoHAsync(out, y, BYTES, s));
   API_CHECK_CU(cuLaunchHostFunc(s, host_count_run, &hc));

   /* Nothing ran. */
   nap_ms(20);
   API_CHECK_MSG(atomic_load(&hc.calls) == 0, "the host function ran during capture");
   API_CHECK_WORDS(out, BYTES, SENTINEL, "pinned destination during capture");

   st = (CUstreamCaptureStatus)99;
   cuuint64_t id2 = 0;
   CUgraph cg2 = NULL;
   deps = NULL;
   nd = 12345;
   API_CHECK_CU(cuStreamGetCaptureInfo(s, &st, &id2, &cg2, &deps, NULL, &nd));
   API_CHECK_MSG(st == CU_STREAM_CAPTURE_STATUS_ACTIVE, "capture status %d", (int)st);
   API_CHECK_MSG(id2 == id, "capture id changed: %llu then %llu", (unsigned long long)id,
                 (unsigned long long)id2);
   API_CHECK_MSG(cg2 == cg, "capture graph changed");
   CUgraphNode last = NULL;
   if (API_CHECK_MSG(nd == 1 && deps != NULL, "%zu dependencies after four captured calls, want 1", nd)) {
      last = deps[0];
      CHECK_TYPE(last, CU_GRAPH_NODE_TYPE_HOST);
   }
   /* Only the status asked for. */
   st = (CUstreamCaptureStatus)99;
   API_CHECK_CU(cuStreamGetCaptureInfo(s, &st, NULL, NULL, NULL, NULL, NULL));
   API_CHECK(st == CU_STREAM_CAPTURE_STATUS_ACTIVE);
   /* The graph may be queried during capture. */
   if (cg)
      API_CHECK_MSG(graph_node_count(cg) == 4, "the capture graph has %zu nodes during capture",
                    graph_node_count(cg));

   API_REQUIRE_CU(cuStreamEndCapture(s, &g));
   API_REQUIRE(g != NULL);
   API_CHECK_MSG(g == cg, "cuStreamEndCapture's graph is not the one cuStreamGetCaptureInfo gave");
   CHECK_CAPTURING(s, CU_STREAM_CAPTURE_STATUS_NONE);
   API_CHECK_MSG(atomic_load(&hc.calls) == 0, "the host function ran at the end of capture");

   static const CUgraphNodeType chain[4] = { CU_GRAPH_NODE_TYPE_MEMSET, CU_GRAPH_NODE_TYPE_KERNEL,
                                             CU_GRAPH_NODE_TYPE_MEMCPY, CU_GRAPH_NODE_TYPE_HOST };
   CUgraphNode nodes[4] = { 0 };
   check_chain(g, chain, 4, nodes);
   if (last)
      API_CHECK_MSG(nodes[3] == last, "the capture's last dependency is not the chain's last node");
   CUDA_KERNEL_NODE_PARAMS kgot;
   memset(&kgot, 0, sizeof(kgot));
   if (nodes[1] && API_CHECK_CU(cuGraphKernelNodeGetParams(nodes[1], &kgot)))
      API_CHECK_MSG(kgot.func == k.axpb && kgot.gridDimX == grid_for(N) && kgot.blockDimX == BLOCK,
                    "captured kernel: grid %u block %u", kgot.gridDimX, kgot.blockDimX);

   API_REQUIRE_CU(cuGraphInstantiate(&exec, g, 0));
   for (int round = 0; round < 2; round++) {
      fill_sentinel(out, N);
      API_CHECK_CU(cuGraphLaunch(exec, s));
      API_CHECK_CU(cuStreamSynchronize(s));
      CHECK_FLOATS(out, 0, N, hc.want, "pinned copy of y");
   }
   API_CHECK_MSG(atomic_load(&hc.calls) == 2, "the host function ran %d times, want 2", atomic_load(&hc.calls));
   API_CHECK_MSG(atomic_load(&hc.bad) == 0, "the host function saw %zu wrong floats", atomic_load(&hc.bad));
   API_CHECK_CU(cuGraphExecDestroy(exec));
   API_CHECK_CU(cuGraphDestroy(g));

   /* A second capture on the stream: another id. */
   API_REQUIRE_CU(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
   cuuint64_t id3 = 0;
   API_CHECK_CU(cuStreamGetCaptureInfo(s, &st, &id3, NULL, NULL, NULL, NULL));
   API_CHECK_MSG(id3 != 0 && id3 != id, "second capture's id %llu (first %llu)", (unsigned long long)id3,
                 (unsigned long long)id);
   API_CHECK_CU(cuMemsetD32Async(y, 0, N, s));
   g = NULL;
   API_REQUIRE_CU(cuStreamEndCapture(s, &g));
   API_REQUIRE(g != NULL);
   API_CHECK(graph_node_count(g) == 1);
   API_CHECK_CU(cuGraphDestroy(g));

   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFreeHost(out));
   API_CHECK_CU(cuMemFree(y));
   kern_unload(&k);
}

/* s1 forks to s2 through an event and joins it back through another: a
 * diamond graph. */
static void
capture_fork_join(void)
{
   struct kern k;
   CUdeviceptr y;
   float *out;
   CUstream s1, s2;
   CUevent e1, e2;
   CUgraph g = NULL;
   CUgraphExec exec = NULL;

   kern_load(&k);
   API_REQUIRE_CU(cuMemAlloc(&y, BYTES));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out, BYTES));
   API_REQUIRE_CU(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuEventCreate(&e1, CU_EVENT_DISABLE_TIMING));
   API_REQUIRE_CU(cuEventCreate(&e2, CU_EVENT_DISABLE_TIMING));
   API_REQUIRE_CU(cuMemsetD32(y, 0, N));
   fill_sentinel(out, N);

   API_REQUIRE_CU(cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
   CHECK_CAPTURING(s2, CU_STREAM_CAPTURE_STATUS_NONE);
   API_CHECK_CU(cuMemsetD32Async(y, f2u(1.0f), N, s1));
   API_CHECK_CU(cuEventRecord(e1, s1));
   API_CHECK_CU(cuStreamWaitEvent(s2, e1, 0));
   CHECK_CAPTURING(s2, CU_STREAM_CAPTURE_STATUS_ACTIVE);
   cuuint64_t id1 = 0, id2 = 0;
   CUstreamCaptureStatus st;
   API_CHECK_CU(cuStreamGetCaptureInfo(s1, &st, &id1, NULL, NULL, NULL, NULL));
   API_CHECK_CU(cuStreamGetCaptureInfo(s2, &st, &id2, NULL, NULL, NULL, NULL));
   API_CHECK_MSG(id1 == id2 && id1 != 0, "capture ids: origin %llu, joined %llu", (unsigned long long)id1,
                 (unsigned long long)id2);

   struct axpb_args pl, pr;
   axpb_args_set(&pl, y, 2.0f, 3.0f, N / 2);
   axpb_args_set(&pr, y + BYTES / 2, 3.0f, -1.0f, N / 2);
   API_CHECK_CU(launch_axpb(k.axpb, &pl, s1));
   API_CHECK_CU(launch_axpb(k.axpb, &pr, s2));
   API_CHECK_CU(cuEventRecord(e2, s2));
   API_CHECK_CU(cuStreamWaitEvent(s1, e2, 0));
   API_CHECK_CU(cuMemcpyDtoHAsync(out, y, BYTES, s1));
   API_REQUIRE_CU(cuStreamEndCapture(s1, &g));
   API_REQUIRE(g != NULL);
   CHECK_CAPTURING(s1, CU_STREAM_CAPTURE_STATUS_NONE);
   CHECK_CAPTURING(s2, CU_STREAM_CAPTURE_STATUS_NONE);
   API_CHECK_WORDS(out, BYTES, SENTINEL, "pinned destination after capture");

   /* The diamond: memset -> {kernel, kernel} -> memcpy (event records and
    * waits in capture are edges, not nodes). */
   size_t nn = graph_node_count(g);
   API_CHECK_MSG(nn == 4, "%zu nodes, want 4", nn);
   size_t ne = graph_edge_count(g);
   API_CHECK_MSG(ne == 4, "%zu edges, want 4", ne);
   CUgraphNode root[4], mid[8], tail[8];
   size_t nroot = 4;
   API_CHECK_CU(cuGraphGetRootNodes(g, root, &nroot));
   if (API_CHECK_MSG(nroot == 1, "%zu roots, want 1", nroot)) {
      CHECK_TYPE(root[0], CU_GRAPH_NODE_TYPE_MEMSET);
      size_t nmid = dependents_of(root[0], mid, 8);
      if (API_CHECK_MSG(nmid == 2, "the fill has %zu dependents, want 2", nmid)) {
         CHECK_TYPE(mid[0], CU_GRAPH_NODE_TYPE_KERNEL);
         CHECK_TYPE(mid[1], CU_GRAPH_NODE_TYPE_KERNEL);
         for (int i = 0; i < 2; i++) {
            size_t nt = dependents_of(mid[i], tail, 8);
            if (API_CHECK_MSG(nt == 1, "kernel %d has %zu dependents, want 1", i, nt)) {
               CHECK_TYPE(tail[0], CU_GRAPH_NODE_TYPE_MEMCPY);
               CUgraphNode d[8];
               size_t ndep = deps_of(tail[0], d, 8);
               API_CHECK_MSG(same_nodes(d, ndep, mid, 2), "the copy's %zu dependencies are not the two kernels",
                             ndep);
            }
         }
      }
   }

   API_REQUIRE_CU(cuGraphInstantiate(&exec, g, 0));
   const float want_l = model_axpb(1.0f, 2.0f, 3.0f), want_r = model_axpb(1.0f, 3.0f, -1.0f);
   for (int round = 0; round < 2; round++) {
      fill_sentinel(out, N);
      API_CHECK_CU(cuGraphLaunch(exec, round ? s2 : s1));
      API_CHECK_CU(cuStreamSynchronize(round ? s2 : s1));
      CHECK_FLOATS(out, 0, N / 2, want_l, "first half");
      CHECK_FLOATS(out, N / 2, N, want_r, "second half");
   }

   API_CHECK_CU(cuGraphExecDestroy(exec));
   API_CHECK_CU(cuGraphDestroy(g));
   API_CHECK_CU(cuEventDestroy(e2));
   API_CHECK_CU(cuEventDestroy(e1));
   API_CHECK_CU(cuStreamDestroy(s2));
   API_CHECK_CU(cuStreamDestroy(s1));
   API_CHECK_CU(cuMemFreeHost(out));
   API_CHECK_CU(cuMemFree(y));
   kern_unload(&k);
}

/* EndCapture of an invalidated capture: the code, a NULL graph, and the
 * stream out of capture. */
static void
end_invalidated_at(const char *file, int line, CUstream s, const char *what)
{
   CUgraph g = (CUgraph)(uintptr_t)0x5a5a5a5a;
   CUstreamCaptureStatus st = (CUstreamCaptureStatus)99;

   if (api_check_result(file, line, "cuStreamIsCapturing", CUDA_SUCCESS, cuStreamIsCapturing(s, &st)))
      api_check_at(file, line, st == CU_STREAM_CAPTURE_STATUS_INVALIDATED,
                   "%s: capture status %d, want CU_STREAM_CAPTURE_STATUS_INVALIDATED", what, (int)st);
   api_check_result(file, line, "cuStreamEndCapture", CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
                    cuStreamEndCapture(s, &g));
   api_check_at(file, line, g == NULL, "%s: cuStreamEndCapture's graph %p, want NULL", what, (void *)g);
   st = (CUstreamCaptureStatus)99;
   if (api_check_result(file, line, "cuStreamIsCapturing", CUDA_SUCCESS, cuStreamIsCapturing(s, &st)))
      api_check_at(file, line, st == CU_STREAM_CAPTURE_STATUS_NONE,
                   "%s: capture status %d after the end, want CU_STREAM_CAPTURE_STATUS_NONE", what, (int)st);
}

#define END_INVALIDATED(s, what) end_invalidated_at(__FILE__, __LINE__, (s), (what))

/* The stream itself takes ordinary work again. */
static void
stream_works_at(const char *file, int line, CUstream s, CUdeviceptr d, const char *what)
{
   uint32_t host[64];

   if (!api_check_result(file, line, "cuMemsetD32Async", CUDA_SUCCESS, cuMemsetD32Async(d, 0x0badf00du, 64, s)) ||
       !api_check_result(file, line, "cuStreamSynchronize", CUDA_SUCCESS, cuStreamSynchronize(s)) ||
       !api_check_result(file, line, "cuMemcpyDtoH", CUDA_SUCCESS, cuMemcpyDtoH(host, d, sizeof(host))))
      return;
   size_t bad = api_count_not(host, sizeof(host), 0x0badf00du);
   api_check_at(file, line, bad == 0, "%s: the stream's fill left %zu words wrong", what, bad);
}

#define STREAM_WORKS(s, d, what) stream_works_at(__FILE__, __LINE__, (s), (d), (what))

static void
capture_errors(void)
{
   CUdeviceptr d;
   CUstream s1, s2, s3;
   CUevent e1, e2, outside;
   CUgraph g;

   API_REQUIRE_CU(cuMemAlloc(&d, 4096));
   API_REQUIRE_CU(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&s3, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuEventCreate(&e1, CU_EVENT_DISABLE_TIMING));
   API_REQUIRE_CU(cuEventCreate(&e2, CU_EVENT_DISABLE_TIMING));
   API_REQUIRE_CU(cuEventCreate(&outside, CU_EVENT_DISABLE_TIMING));

   /* The legacy stream cannot capture. */
   API_CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cuStreamBeginCapture(NULL, CU_STREAM_CAPTURE_MODE_GLOBAL));
   API_CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
                 cuStreamBeginCapture(CU_STREAM_LEGACY, CU_STREAM_CAPTURE_MODE_GLOBAL));
   CHECK_CAPTURING(CU_STREAM_LEGACY, CU_STREAM_CAPTURE_STATUS_NONE);
   CHECK_NORMAL_WORK("capture on the legacy stream");

   /* Twice on one stream. */
   API_REQUIRE_CU(cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
   API_CHECK_RES(CUDA_ERROR_ILLEGAL_STATE, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
   {
      /* What becomes of the first capture CUDA does not document: it ends
       * either way. */
      g = NULL;
      CUresult res = cuStreamEndCapture(s1, &g);
      printf("cuStreamEndCapture after a second cuStreamBeginCapture: %s\n", api_result_name(res));
      API_CHECK_MSG(res == CUDA_SUCCESS || res == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
                    "cuStreamEndCapture after a second cuStreamBeginCapture: %s", api_result_name(res));
      if (res == CUDA_SUCCESS && g)
         API_CHECK_CU(cuGraphDestroy(g));
      CHECK_CAPTURING(s1, CU_STREAM_CAPTURE_STATUS_NONE);
   }
   STREAM_WORKS(s1, d, "after a second cuStreamBeginCapture");
   CHECK_NORMAL_WORK("a second cuStreamBeginCapture");

   /* Ending a capture never begun. */
   g = (CUgraph)(uintptr_t)0x5a5a5a5a;
   API_CHECK_RES(CUDA_ERROR_ILLEGAL_STATE, cuStreamEndCapture(s1, &g));
   CHECK_CAPTURING(s1, CU_STREAM_CAPTURE_STATUS_NONE);
   CHECK_NORMAL_WORK("cuStreamEndCapture without a capture");

   /* cuStreamSynchronize of a capturing stream invalidates its capture. */
   API_REQUIRE_CU(cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
   API_CHECK_CU(cuMemsetD32Async(d, 1, 64, s1));
   API_CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cuStreamSynchronize(s1));
   END_INVALIDATED(s1, "after cuStreamSynchronize");
   STREAM_WORKS(s1, d, "after the cuStreamSynchronize capture");
   CHECK_NORMAL_WORK("cuStreamSynchronize during capture");

   /* So does cuStreamQuery. */
   API_REQUIRE_CU(cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
   API_CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cuStreamQuery(s1));
   END_INVALIDATED(s1, "after cuStreamQuery");
   STREAM_WORKS(s1, d, "after the cuStreamQuery capture");
   CHECK_NORMAL_WORK("cuStreamQuery during capture");

   /* A fork not joined back before the origin ends. */
   API_REQUIRE_CU(cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
   API_CHECK_CU(cuMemsetD32Async(d, 2, 64, s1));
   API_CHECK_CU(cuEventRecord(e1, s1));
   API_CHECK_CU(cuStreamWaitEvent(s2, e1, 0));
   CHECK_CAPTURING(s2, CU_STREAM_CAPTURE_STATUS_ACTIVE);
   API_CHECK_CU(cuMemsetD32Async(d + 256, 3, 64, s2));
   g = (CUgraph)(uintptr_t)0x5a5a5a5a;
   API_CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, cuStreamEndCapture(s1, &g));
   API_CHECK_MSG(g == NULL, "unjoined: cuStreamEndCapture's graph %p, want NULL", (void *)g);
   CHECK_CAPTURING(s1, CU_STREAM_CAPTURE_STATUS_NONE);
   CHECK_CAPTURING(s2, CU_STREAM_CAPTURE_STATUS_NONE);
   STREAM_WORKS(s1, d, "origin after the unjoined capture");
   STREAM_WORKS(s2, d + 1024, "forked stream after the unjoined capture");
   CHECK_NORMAL_WORK("an unjoined capture");

   /* Ending on the joined stream, which did not begin the capture. */
   API_REQUIRE_CU(cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
   API_CHECK_CU(cuMemsetD32Async(d, 4, 64, s1));
   API_CHECK_CU(cuEventRecord(e1, s1));
   API_CHECK_CU(cuStreamWaitEvent(s2, e1, 0));
   g = NULL;
   API_CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, cuStreamEndCapture(s2, &g));
   {
      /* Whether that invalidated the capture CUDA does not document: the
       * join and the origin's end either succeed or say it was. */
      CUresult r1 = cuEventRecord(e2, s2);
      CUresult r2 = cuStreamWaitEvent(s1, e2, 0);
      g = NULL;
      CUresult r3 = cuStreamEndCapture(s1, &g);
      printf("after UNMATCHED: join %s, %s; origin's end %s\n", api_result_name(r1), api_result_name(r2),
             api_result_name(r3));
      bool whole = r1 == CUDA_SUCCESS && r2 == CUDA_SUCCESS && r3 == CUDA_SUCCESS && g != NULL;
      bool invalidated = (r1 == CUDA_SUCCESS || r1 == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED) &&
                         (r2 == CUDA_SUCCESS || r2 == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED) &&
                         r3 == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED && g == NULL;
      API_CHECK_MSG(whole || invalidated, "after UNMATCHED: join %s, %s; origin's end %s, graph %p",
                    api_result_name(r1), api_result_name(r2), api_result_name(r3), (void *)g);
      if (r3 == CUDA_SUCCESS && g)
         API_CHECK_CU(cuGraphDestroy(g));
   }
   CHECK_CAPTURING(s1, CU_STREAM_CAPTURE_STATUS_NONE);
   CHECK_CAPTURING(s2, CU_STREAM_CAPTURE_STATUS_NONE);
   STREAM_WORKS(s1, d, "origin after the unmatched end");
   STREAM_WORKS(s2, d + 1024, "joined stream after the unmatched end");
   CHECK_NORMAL_WORK("an unmatched cuStreamEndCapture");

   /* Waiting in capture for an event recorded outside any capture. */
   API_CHECK_CU(cuEventRecord(outside, s2));
   API_CHECK_CU(cuStreamSynchronize(s2));
   API_REQUIRE_CU(cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
   API_CHECK_CU(cuMemsetD32Async(d, 5, 64, s1));
   API_CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_ISOLATION, cuStreamWaitEvent(s1, outside, 0));
   END_INVALIDATED(s1, "after waiting for an outside event");
   STREAM_WORKS(s1, d, "after the isolation error");
   CHECK_NORMAL_WORK("a capture waiting for an outside event");

   /* CU_EVENT_WAIT_EXTERNAL only has a meaning in a capture (an
    * event-wait node); outside one it is refused. */
   API_CHECK_RES(CUDA_ERROR_ILLEGAL_STATE, cuStreamWaitEvent(s2, outside, CU_EVENT_WAIT_EXTERNAL));
   CHECK_NORMAL_WORK("CU_EVENT_WAIT_EXTERNAL outside a capture");

   /* An event recorded in a capture, then recorded again outside it while
    * the capture still runs, stands for its new record only: a wait on it
    * is an ordinary one and does not join the capture. */
   API_REQUIRE_CU(cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
   API_CHECK_CU(cuMemsetD32Async(d, 6, 64, s1));
   API_CHECK_CU(cuEventRecord(e1, s1));
   API_CHECK_CU(cuEventRecord(e1, s2));
   API_CHECK_CU(cuStreamWaitEvent(s3, e1, 0));
   CHECK_CAPTURING(s3, CU_STREAM_CAPTURE_STATUS_NONE);
   STREAM_WORKS(s3, d + 2048, "a stream waiting on an event recorded again outside the capture");
   g = NULL;
   API_CHECK_CU(cuStreamEndCapture(s1, &g));
   API_CHECK_MSG(g != NULL, "the capture beside a re-recorded event gave no graph");
   if (g)
      API_CHECK_CU(cuGraphDestroy(g));
   CHECK_NORMAL_WORK("an event recorded again outside a capture");

   /* The thread's capture mode. */
   CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
   API_CHECK_CU(cuThreadExchangeStreamCaptureMode(&mode));
   API_CHECK_MSG(mode == CU_STREAM_CAPTURE_MODE_GLOBAL, "the thread's first mode: %d, want GLOBAL", (int)mode);
   API_CHECK_CU(cuThreadExchangeStreamCaptureMode(&mode));
   API_CHECK_MSG(mode == CU_STREAM_CAPTURE_MODE_RELAXED, "the mode set: %d, want RELAXED", (int)mode);
   mode = CU_STREAM_CAPTURE_MODE_THREAD_LOCAL;
   API_CHECK_CU(cuThreadExchangeStreamCaptureMode(&mode));
   API_CHECK_MSG(mode == CU_STREAM_CAPTURE_MODE_GLOBAL, "the restored mode: %d, want GLOBAL", (int)mode);
   mode = CU_STREAM_CAPTURE_MODE_GLOBAL;
   API_CHECK_CU(cuThreadExchangeStreamCaptureMode(&mode));
   API_CHECK_MSG(mode == CU_STREAM_CAPTURE_MODE_THREAD_LOCAL, "the mode set: %d, want THREAD_LOCAL", (int)mode);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuThreadExchangeStreamCaptureMode(NULL));
   CHECK_NORMAL_WORK("cuThreadExchangeStreamCaptureMode");

   API_CHECK_CU(cuEventDestroy(outside));
   API_CHECK_CU(cuEventDestroy(e2));
   API_CHECK_CU(cuEventDestroy(e1));
   API_CHECK_CU(cuStreamDestroy(s3));
   API_CHECK_CU(cuStreamDestroy(s2));
   API_CHECK_CU(cuStreamDestroy(s1));
   API_CHECK_CU(cuMemFree(d));
}

/* ---- graph.errors.* ---- */

static void CUDA_CB
host_nop(void *data)
{
   (void)data;
}

static void
errors_handles(void)
{
   struct kern k;
   CUdeviceptr y;
   float *out;
   CUstream s;
   CUevent ev;
   CUgraph g, other;
   CUgraphNode a, b, kn, sn, hn, cn, rn, wn, foreign, x;
   CUgraphExec exec;
   CUgraphNodeType t;
   size_t n;

   kern_load(&k);
   API_REQUIRE_CU(cuMemAlloc(&y, BYTES));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out, BYTES));
   API_REQUIRE_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));

   struct axpb_args p;
   axpb_args_set(&p, y, 1.0f, 1.0f, N);
   CUDA_KERNEL_NODE_PARAMS kp = axpb_node(k.axpb, &p);
   CUDA_MEMSET_NODE_PARAMS set = memset32_node(y, 0, N);
   CUDA_MEMCPY3D cp = dtoh_copy(out, y, BYTES);
   CUDA_HOST_NODE_PARAMS hp = { .fn = host_nop, .userData = NULL };

   /* cuGraphCreate. */
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphCreate(NULL, 0));
   g = (CUgraph)(uintptr_t)0x5a5a5a5a;
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphCreate(&g, 1));
   API_REQUIRE_CU(cuGraphCreate(&g, 0));
   API_REQUIRE_CU(cuGraphCreate(&other, 0));

   /* Good nodes of each kind. */
   API_REQUIRE_CU(cuGraphAddEmptyNode(&a, g, NULL, 0));
   API_REQUIRE_CU(cuGraphAddEmptyNode(&b, g, &a, 1));
   API_REQUIRE_CU(cuGraphAddKernelNode(&kn, g, NULL, 0, &kp));
   API_REQUIRE_CU(cuGraphAddMemsetNode(&sn, g, NULL, 0, &set, api_ctx));
   API_REQUIRE_CU(cuGraphAddHostNode(&hn, g, NULL, 0, &hp));
   API_REQUIRE_CU(cuGraphAddMemcpyNode(&cn, g, NULL, 0, &cp, api_ctx));
   API_REQUIRE_CU(cuGraphAddEventRecordNode(&rn, g, NULL, 0, ev));
   API_REQUIRE_CU(cuGraphAddEventWaitNode(&wn, g, NULL, 0, ev));
   API_REQUIRE_CU(cuGraphAddEmptyNode(&foreign, other, NULL, 0));
   const size_t good = 8;

   /* NULL out-pointers. */
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddEmptyNode(NULL, g, NULL, 0));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddKernelNode(NULL, g, NULL, 0, &kp));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemsetNode(NULL, g, NULL, 0, &set, api_ctx));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemcpyNode(NULL, g, NULL, 0, &cp, api_ctx));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddHostNode(NULL, g, NULL, 0, &hp));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddEventRecordNode(NULL, g, NULL, 0, ev));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddEventWaitNode(NULL, g, NULL, 0, ev));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphInstantiate(NULL, g, 0));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphGetNodes(g, NULL, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphGetRootNodes(g, NULL, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphGetEdges(g, NULL, NULL, NULL, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphNodeGetType(a, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphNodeGetDependencies(b, NULL, NULL, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphNodeGetDependentNodes(a, NULL, NULL, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphKernelNodeGetParams(kn, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphMemsetNodeGetParams(sn, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphHostNodeGetParams(hn, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphMemcpyNodeGetParams(cn, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphEventRecordNodeGetEvent(rn, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphEventWaitNodeGetEvent(wn, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamIsCapturing(s, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamGetCaptureInfo(s, NULL, NULL, NULL, NULL, NULL, NULL));
   /* And NULL parameter blocks. */
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddKernelNode(&x, g, NULL, 0, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemsetNode(&x, g, NULL, 0, NULL, api_ctx));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemcpyNode(&x, g, NULL, 0, NULL, api_ctx));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddHostNode(&x, g, NULL, 0, NULL));

   /* Dependencies: a count with no array, another graph's node, one node
    * twice. */
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddEmptyNode(&x, g, NULL, 1));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddKernelNode(&x, g, NULL, 2, &kp));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddEmptyNode(&x, g, &foreign, 1));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemsetNode(&x, g, &foreign, 1, &set, api_ctx));
   const CUgraphNode twice[2] = { a, a };
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddEmptyNode(&x, g, twice, 2));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddHostNode(&x, g, twice, 2, &hp));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddDependencies(g, &foreign, &a, NULL, 1));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddDependencies(g, NULL, NULL, NULL, 1));

   /* A fill of 3-byte elements. */
   CUDA_MEMSET_NODE_PARAMS bad_set = set;
   bad_set.elementSize = 3;
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemsetNode(&x, g, NULL, 0, &bad_set, api_ctx));

   /* None of the refused adds left a node. */
   n = graph_node_count(g);
   API_CHECK_MSG(n == good, "%zu nodes after the refused adds, want %zu", n, good);
   API_CHECK(graph_node_count(other) == 1);

   /* Another kind's parameters. */
   CUDA_KERNEL_NODE_PARAMS kgot;
   CUDA_MEMSET_NODE_PARAMS sgot;
   CUDA_HOST_NODE_PARAMS hgot;
   CUDA_MEMCPY3D cgot;
   CUevent egot;
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphKernelNodeGetParams(sn, &kgot));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphMemsetNodeGetParams(kn, &sgot));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphHostNodeGetParams(sn, &hgot));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphMemcpyNodeGetParams(hn, &cgot));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphEventRecordNodeGetEvent(wn, &egot));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphEventWaitNodeGetEvent(rn, &egot));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphKernelNodeGetParams(a, &kgot));

   /* Handles that are not: garbage, and NULL. */
   CUgraph bad_g = (CUgraph)(uintptr_t)0x1234;
   CUgraphNode bad_n = (CUgraphNode)(uintptr_t)0x1234;
   CUgraphExec bad_e = (CUgraphExec)(uintptr_t)0x1234;
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphDestroy(bad_g));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphGetNodes(bad_g, NULL, &n));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddEmptyNode(&x, bad_g, NULL, 0));
   exec = NULL;
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphInstantiate(&exec, bad_g, 0));
   API_CHECK(exec == NULL);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphNodeGetType(bad_n, &t));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphNodeGetDependencies(bad_n, NULL, NULL, &n));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddEmptyNode(&x, g, &bad_n, 1));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphExecDestroy(bad_e));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphLaunch(bad_e, s));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphDestroy(NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphGetNodes(NULL, NULL, &n));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphNodeGetType(NULL, &t));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphExecDestroy(NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphLaunch(NULL, s));
   API_CHECK(graph_node_count(g) == good);

   /* A destroyed graph, its nodes, and a destroyed exec. */
   CUgraph dead;
   CUgraphNode dead_node;
   CUgraphExec dead_exec;
   API_REQUIRE_CU(cuGraphCreate(&dead, 0));
   API_REQUIRE_CU(cuGraphAddEmptyNode(&dead_node, dead, NULL, 0));
   API_REQUIRE_CU(cuGraphInstantiate(&dead_exec, dead, 0));
   API_CHECK_CU(cuGraphDestroy(dead));
   API_CHECK_CU(cuGraphExecDestroy(dead_exec));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphDestroy(dead));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphGetNodes(dead, NULL, &n));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddEmptyNode(&x, dead, NULL, 0));
   exec = NULL;
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphInstantiate(&exec, dead, 0));
   API_CHECK(exec == NULL);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphNodeGetType(dead_node, &t));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphExecDestroy(dead_exec));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphLaunch(dead_exec, s));

   /* A cycle a -> b -> c -> a: added, refused at instantiation. */
   CUgraph cyc;
   CUgraphNode c1, c2, c3;
   API_REQUIRE_CU(cuGraphCreate(&cyc, 0));
   API_REQUIRE_CU(cuGraphAddEmptyNode(&c1, cyc, NULL, 0));
   API_REQUIRE_CU(cuGraphAddEmptyNode(&c2, cyc, &c1, 1));
   API_REQUIRE_CU(cuGraphAddEmptyNode(&c3, cyc, &c2, 1));
   API_CHECK_CU(cuGraphAddDependencies(cyc, &c3, &c1, NULL, 1));
   exec = NULL;
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphInstantiate(&exec, cyc, 0));
   API_CHECK_MSG(exec == NULL, "a refused instantiation set an exec");
   if (exec)
      cuGraphExecDestroy(exec);
   API_CHECK_CU(cuGraphDestroy(cyc));

   /* The good graph still instantiates and runs. */
   exec = NULL;
   API_REQUIRE_CU(cuGraphInstantiate(&exec, g, 0));
   API_CHECK_CU(cuGraphLaunch(exec, s));
   API_CHECK_CU(cuStreamSynchronize(s));
   API_CHECK_CU(cuGraphExecDestroy(exec));

   API_CHECK_CU(cuGraphDestroy(other));
   API_CHECK_CU(cuGraphDestroy(g));
   API_CHECK_CU(cuEventDestroy(ev));
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFreeHost(out));
   API_CHECK_CU(cuMemFree(y));
   kern_unload(&k);
}

/* ---- graph.threads ---- */

#define THREADS 4
#define LAUNCHES 50

struct graph_worker {
   int index;
   CUfunction axpb;
   /* The exec every thread launches: CUDA asks callers to serialise calls
    * on one graph object, so its launches go under this lock (what runs
    * is still four streams' work, ordered only by the exec). */
   CUgraphExec shared;
   pthread_mutex_t *shared_lock;
   pthread_barrier_t *start;
   int launched;
};

static void *
graph_worker_run(void *arg)
{
   struct graph_worker *w = arg;
   CUstream s = NULL;
   CUdeviceptr y = 0;
   float *out = NULL;
   CUgraph g = NULL;
   CUgraphExec exec = NULL;
   CUgraphNode nk, nc;

   bool ready = API_CHECK_CU(cuCtxSetCurrent(api_ctx)) &&
                API_CHECK_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING)) &&
                API_CHECK_CU(cuMemAlloc(&y, BYTES)) &&
                API_CHECK_CU(cuMemAllocHost((void **)&out, BYTES)) &&
                API_CHECK_CU(cuMemsetD32(y, f2u((float)w->index), N));
   pthread_barrier_wait(w->start);

   /* Built here, at the same time as the other threads build theirs. */
   struct axpb_args p;
   axpb_args_set(&p, y, 1.0f, 1.0f, N);
   CUDA_KERNEL_NODE_PARAMS kp = axpb_node(w->axpb, &p);
   CUDA_MEMCPY3D cp = dtoh_copy(out, y, BYTES);
   ready = ready && API_CHECK_CU(cuGraphCreate(&g, 0)) &&
           API_CHECK_CU(cuGraphAddKernelNode(&nk, g, NULL, 0, &kp)) &&
           API_CHECK_CU(cuGraphAddMemcpyNode(&nc, g, &nk, 1, &cp, api_ctx)) &&
           API_CHECK_CU(cuGraphInstantiate(&exec, g, 0));

   for (int i = 0; ready && i < LAUNCHES; i++) {
      if (!API_CHECK_CU(cuGraphLaunch(exec, s)))
         break;
      pthread_mutex_lock(w->shared_lock);
      CUresult res = cuGraphLaunch(w->shared, s);
      pthread_mutex_unlock(w->shared_lock);
      if (!API_CHECK_CU(res))
         break;
      w->launched++;
      if ((i + 1) % 10 == 0) {
         if (!API_CHECK_CU(cuStreamSynchronize(s)))
            break;
         char what[64];
         snprintf(what, sizeof(what), "thread %d after %d launches", w->index, i + 1);
         CHECK_FLOATS(out, 0, N, (float)(w->index + i + 1), what);
      }
   }

   if (s)
      API_CHECK_CU(cuStreamSynchronize(s));
   if (exec)
      API_CHECK_CU(cuGraphExecDestroy(exec));
   if (g)
      API_CHECK_CU(cuGraphDestroy(g));
   if (out)
      API_CHECK_CU(cuMemFreeHost(out));
   if (y)
      API_CHECK_CU(cuMemFree(y));
   if (s)
      API_CHECK_CU(cuStreamDestroy(s));
   return NULL;
}

static void CUDA_CB
sleep_1ms(void *data)
{
   (void)data;
   nap_ms(1);
}

static void
graph_threads(void)
{
   struct kern k;
   CUdeviceptr shared_y;
   float *host = api_xmalloc(BYTES);
   CUgraph g;
   CUgraphExec shared = NULL;
   CUgraphNode k1, nap, k2;
   pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
   pthread_barrier_t start;
   pthread_t threads[THREADS];
   struct graph_worker w[THREADS];

   kern_load(&k);
   API_REQUIRE_CU(cuMemAlloc(&shared_y, BYTES));
   API_REQUIRE_CU(cuMemsetD32(shared_y, 0, N));
   /* The shared exec: y = 1 - y, a host node that sleeps, y = 3 - y,
    * which is y + 2 a launch; two launches that overlapped would add 0. */
   API_REQUIRE_CU(cuGraphCreate(&g, 0));
   struct axpb_args p1, p2;
   axpb_args_set(&p1, shared_y, -1.0f, 1.0f, N);
   axpb_args_set(&p2, shared_y, -1.0f, 3.0f, N);
   CUDA_KERNEL_NODE_PARAMS kp1 = axpb_node(k.axpb, &p1), kp2 = axpb_node(k.axpb, &p2);
   CUDA_HOST_NODE_PARAMS hp = { .fn = sleep_1ms, .userData = NULL };
   API_REQUIRE_CU(cuGraphAddKernelNode(&k1, g, NULL, 0, &kp1));
   API_REQUIRE_CU(cuGraphAddHostNode(&nap, g, &k1, 1, &hp));
   API_REQUIRE_CU(cuGraphAddKernelNode(&k2, g, &nap, 1, &kp2));
   API_REQUIRE_CU(cuGraphInstantiate(&shared, g, 0));

   pthread_barrier_init(&start, NULL, THREADS);
   for (int i = 0; i < THREADS; i++) {
      w[i] = (struct graph_worker){ .index = i, .axpb = k.axpb, .shared = shared, .shared_lock = &lock,
                                    .start = &start };
      API_REQUIRE(pthread_create(&threads[i], NULL, graph_worker_run, &w[i]) == 0);
   }
   int total = 0;
   for (int i = 0; i < THREADS; i++) {
      pthread_join(threads[i], NULL);
      API_CHECK_MSG(w[i].launched == LAUNCHES, "thread %d launched %d of %d times", i, w[i].launched, LAUNCHES);
      total += w[i].launched;
   }
   pthread_barrier_destroy(&start);

   API_CHECK_CU(cuCtxSynchronize());
   read_floats(host, shared_y);
   CHECK_FLOATS(host, 0, N, (float)(2 * total), "the shared exec's buffer (y + 2 a launch)");
   API_CHECK(total == THREADS * LAUNCHES);

   API_CHECK_CU(cuGraphExecDestroy(shared));
   API_CHECK_CU(cuGraphDestroy(g));
   API_CHECK_CU(cuMemFree(shared_y));
   kern_unload(&k);
   free(host);
}

static const struct api_case cases[] = {
   API_CASE("graph.build.chain", build_chain),
   API_CASE("graph.build.diamond", build_diamond),
   API_CASE("graph.build.host_node", build_host_node),
   API_CASE("graph.build.added_edges", build_added_edges),
   API_CASE("graph.build.events", build_events),
   API_CASE("graph.build.queries", build_queries),
   API_CASE("graph.exec.relaunch_streams", exec_relaunch_streams),
   API_CASE("graph.exec.outlives_graph", exec_outlives_graph),
   API_CASE("graph.capture.basic", capture_basic),
   API_CASE("graph.capture.fork_join", capture_fork_join),
   API_CASE("graph.capture.errors", capture_errors),
   API_CASE("graph.errors.handles", errors_handles),
   API_CASE("graph.threads", graph_threads),
};
API_MAIN(cases)
