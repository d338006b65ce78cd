// nvcc_programs.graphs: CUDA graphs as programs make them.
//
// Captured: a stream's work between cudaStreamBeginCapture and
// cudaStreamEndCapture (cudaMemsetAsync, <<<...>>> launches, a fork onto a
// second stream and a join back through cudaEventRecord and
// cudaStreamWaitEvent, cudaMemcpyAsync into cudaMallocHost memory,
// cudaLaunchHostFunc) becomes a graph that runs nothing until it is
// launched; cudaStreamIsCapturing and cudaStreamGetCaptureInfo say so
// before, during and after, and the graph's shape is read back.
//
// Built: a graph of an event wait, a memset, an empty node, a kernel, a
// memcpy, a host node and an event record, joined by dependencies given
// at creation and added with cudaGraphAddDependencies; its nodes, roots,
// edges and parameters read back; two executables of it, one launched
// after the graph is destroyed.
//
// Each executable is launched several times, the inputs changed between
// launches, back to back and alternately on two streams, and every result
// is checked against the host's; the host functions check, when they run,
// that the copy before them has landed.  Last, what capture refuses (the
// legacy stream, an end without a beginning), the thread's capture mode,
// an empty capture, and a cudaEventWaitExternal wait captured as a node.
#include "check.h"

#include <cstdint>
#include <vector>

// y = a*y + b*x
__global__ void madd(float *y, const float *x, float a, float b, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      y[i] = a * y[i] + b * x[i];
}

// y += z
__global__ void add_into(float *y, const float *z, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      y[i] += z[i];
}

// v = 2*v + 1
__global__ void twice_plus_one(float *v, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      v[i] = 2.0f * v[i] + 1.0f;
}

static const int N = 4096;
static const int THREADS = 128;
static const int BLOCKS = N / THREADS;
static const size_t BYTES = N * sizeof(float);
static const float SENTINEL = -12345.0f;

// What a host function checks when it runs: the pinned buffer the copy
// before it wrote holds want * (i + shift), in order after the copy.
struct HostCheck {
   const float *pinned;
   float want;
   int shift;
   int calls;
   int bad;
};

static void CUDART_CB
host_check(void *data)
{
   HostCheck *c = (HostCheck *)data;
   c->calls++;
   for (int i = 0; i < N; i++) {
      if (c->pinned[i] != c->want * (float)(i + c->shift)) {
         c->bad++;
         break;
      }
   }
}

static int
count_bad(const float *got, float want, int shift, const char *what)
{
   for (int i = 0; i < N; i++) {
      if (got[i] != want * (float)(i + shift)) {
         std::fprintf(stderr, "FAIL %s: [%d] = %.9g, want %.9g\n", what, i, got[i], want * (float)(i + shift));
         check_failures++;
         return 1;
      }
   }
   return 0;
}

static void
upload_x(float *d_x, int shift)
{
   std::vector<float> x(N);
   for (int i = 0; i < N; i++)
      x[i] = (float)(i + shift);
   CHECK_CUDA(cudaMemcpy(d_x, x.data(), BYTES, cudaMemcpyHostToDevice));
   // A copy from pageable memory may still be landing when cudaMemcpy
   // returns, and the non-blocking stream does not wait for it.
   CHECK_CUDA(cudaDeviceSynchronize());
}

static void
fill_device(float *d, float value)
{
   std::vector<float> v(N, value);
   CHECK_CUDA(cudaMemcpy(d, v.data(), BYTES, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaDeviceSynchronize());
}

static void
fill_host(float *h, float value)
{
   for (int i = 0; i < N; i++)
      h[i] = value;
}

static size_t
count_type(cudaGraph_t g, cudaGraphNodeType type)
{
   size_t n = 0, found = 0;
   CHECK_CUDA(cudaGraphGetNodes(g, nullptr, &n));
   std::vector<cudaGraphNode_t> nodes(n);
   CHECK_CUDA(cudaGraphGetNodes(g, nodes.data(), &n));
   for (size_t i = 0; i < n; i++) {
      cudaGraphNodeType t;
      CHECK_CUDA(cudaGraphNodeGetType(nodes[i], &t));
      found += t == type;
   }
   return found;
}

// ---- A captured graph --------------------------------------------------

static void
captured(float *d_x, float *d_y, float *d_z, float *h_y, cudaStream_t s1, cudaStream_t s2)
{
   cudaEvent_t fork, join;
   CHECK_CUDA(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
   CHECK_CUDA(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
   HostCheck check = {h_y, 8.0f, 0, 0, 0};

   upload_x(d_x, 0);
   fill_device(d_y, SENTINEL);
   fill_host(h_y, SENTINEL);

   cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
   CHECK_CUDA(cudaStreamIsCapturing(s1, &status));
   CHECK(status == cudaStreamCaptureStatusNone);

   CHECK_CUDA(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
   CHECK_CUDA(cudaStreamIsCapturing(s1, &status));
   CHECK(status == cudaStreamCaptureStatusActive);
   CHECK_CUDA(cudaStreamIsCapturing(s2, &status));
   CHECK(status == cudaStreamCaptureStatusNone);

   unsigned long long id = 0;
   cudaGraph_t capturing = nullptr;
   const cudaGraphNode_t *deps = nullptr;
   const cudaGraphEdgeData *edges = nullptr;
   size_t ndeps = 99;
   CHECK_CUDA(cudaStreamGetCaptureInfo(s1, &status, &id, &capturing, &deps, &edges, &ndeps));
   CHECK(status == cudaStreamCaptureStatusActive);
   CHECK(id != 0);
   CHECK(capturing != nullptr);
   CHECK(ndeps == 0);

   // y = 0; y = 5*y + 2*x = 2x
   CHECK_CUDA(cudaMemsetAsync(d_y, 0, BYTES, s1));
   madd<<<BLOCKS, THREADS, 0, s1>>>(d_y, d_x, 5.0f, 2.0f, N);
   CHECK_CUDA(cudaGetLastError());

   // Fork: s2 joins the capture; z = 0; z = z + 3x = 3x.
   CHECK_CUDA(cudaEventRecord(fork, s1));
   CHECK_CUDA(cudaStreamWaitEvent(s2, fork, 0));
   CHECK_CUDA(cudaStreamIsCapturing(s2, &status));
   CHECK(status == cudaStreamCaptureStatusActive);
   unsigned long long id2 = 0;
   CHECK_CUDA(cudaStreamGetCaptureInfo(s2, &status, &id2));
   CHECK(status == cudaStreamCaptureStatusActive && id2 == id);
   CHECK_CUDA(cudaMemsetAsync(d_z, 0, BYTES, s2));
   madd<<<BLOCKS, THREADS, 0, s2>>>(d_z, d_x, 1.0f, 3.0f, N);
   // Meanwhile on s1: y = 2*y + x = 5x.
   madd<<<BLOCKS, THREADS, 0, s1>>>(d_y, d_x, 2.0f, 1.0f, N);
   // Join: y += z = 8x, copied out, then checked by a host function.
   CHECK_CUDA(cudaEventRecord(join, s2));
   CHECK_CUDA(cudaStreamWaitEvent(s1, join, 0));
   add_into<<<BLOCKS, THREADS, 0, s1>>>(d_y, d_z, N);
   CHECK_CUDA(cudaMemcpyAsync(h_y, d_y, BYTES, cudaMemcpyDeviceToHost, s1));
   CHECK_CUDA(cudaLaunchHostFunc(s1, host_check, &check));

   // The stream's frontier is the host node, and nothing has run.
   CHECK_CUDA(cudaStreamGetCaptureInfo(s1, &status, &id2, &capturing, &deps, &edges, &ndeps));
   CHECK(status == cudaStreamCaptureStatusActive && id2 == id);
   CHECK(ndeps == 1);
   if (ndeps == 1 && deps) {
      cudaGraphNodeType t = cudaGraphNodeTypeCount;
      CHECK_CUDA(cudaGraphNodeGetType(deps[0], &t));
      CHECK(t == cudaGraphNodeTypeHost);
   }
   CHECK(check.calls == 0);
   CHECK(h_y[0] == SENTINEL && h_y[N - 1] == SENTINEL);

   cudaGraph_t graph = nullptr;
   CHECK_CUDA(cudaStreamEndCapture(s1, &graph));
   CHECK(graph != nullptr);
   CHECK_CUDA(cudaStreamIsCapturing(s1, &status));
   CHECK(status == cudaStreamCaptureStatusNone);
   CHECK_CUDA(cudaStreamIsCapturing(s2, &status));
   CHECK(status == cudaStreamCaptureStatusNone);
   CHECK_CUDA(cudaStreamSynchronize(s1));
   CHECK_CUDA(cudaStreamSynchronize(s2));
   CHECK(check.calls == 0);
   CHECK(h_y[0] == SENTINEL && h_y[N - 1] == SENTINEL);
   std::vector<float> y(N);
   CHECK_CUDA(cudaMemcpy(y.data(), d_y, BYTES, cudaMemcpyDeviceToHost));
   CHECK(y[0] == SENTINEL && y[N - 1] == SENTINEL);

   // Its shape: two memsets, four kernels, a copy and a host node (event
   // records and waits in a capture only make edges); one root; the
   // diamond's join has both branches as dependencies.
   if (graph) {
      size_t n = 0;
      CHECK_CUDA(cudaGraphGetNodes(graph, nullptr, &n));
      CHECK(n == 8);
      CHECK(count_type(graph, cudaGraphNodeTypeMemset) == 2);
      CHECK(count_type(graph, cudaGraphNodeTypeKernel) == 4);
      CHECK(count_type(graph, cudaGraphNodeTypeMemcpy) == 1);
      CHECK(count_type(graph, cudaGraphNodeTypeHost) == 1);
      size_t roots = 0;
      CHECK_CUDA(cudaGraphGetRootNodes(graph, nullptr, &roots));
      CHECK(roots == 1);
      cudaGraphNode_t root = nullptr;
      roots = 1;
      CHECK_CUDA(cudaGraphGetRootNodes(graph, &root, &roots));
      cudaGraphNodeType t = cudaGraphNodeTypeCount;
      CHECK_CUDA(cudaGraphNodeGetType(root, &t));
      CHECK(t == cudaGraphNodeTypeMemset);
      size_t nedges = 0;
      CHECK_CUDA(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &nedges));
      CHECK(nedges == 8);
      std::vector<cudaGraphNode_t> from(nedges), to(nedges);
      CHECK_CUDA(cudaGraphGetEdges(graph, from.data(), to.data(), nullptr, &nedges));
      size_t joins = 0;
      for (size_t i = 0; i < nedges; i++) {
         size_t nd = 0;
         CHECK_CUDA(cudaGraphNodeGetDependencies(to[i], nullptr, nullptr, &nd));
         joins += nd == 2;
      }
      CHECK(joins == 2);  // both edges into add_into
   }

   cudaGraphExec_t exec = nullptr;
   CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
   CHECK(exec != nullptr);

   // Launched three times, the input changed in between; what ran before
   // is overwritten each time (y and z start as garbage).
   for (int round = 1; round <= 3; round++) {
      upload_x(d_x, round);
      fill_device(d_y, SENTINEL);
      fill_device(d_z, 1e30f);
      fill_host(h_y, SENTINEL);
      check.shift = round;
      CHECK_CUDA(cudaGraphLaunch(exec, s1));
      CHECK_CUDA(cudaStreamSynchronize(s1));
      count_bad(h_y, 8.0f, round, "captured graph, copied out");
      CHECK_CUDA(cudaMemcpy(y.data(), d_y, BYTES, cudaMemcpyDeviceToHost));
      count_bad(y.data(), 8.0f, round, "captured graph, y");
      CHECK(check.calls == round);
   }
   CHECK(check.bad == 0);

   // Five more back to back, the host function checking each.
   for (int i = 0; i < 5; i++)
      CHECK_CUDA(cudaGraphLaunch(exec, s1));
   CHECK_CUDA(cudaStreamSynchronize(s1));
   CHECK(check.calls == 8);
   CHECK(check.bad == 0);
   count_bad(h_y, 8.0f, 3, "captured graph, back to back");

   CHECK_CUDA(cudaGraphExecDestroy(exec));
   CHECK_CUDA(cudaGraphDestroy(graph));
   CHECK_CUDA(cudaEventDestroy(fork));
   CHECK_CUDA(cudaEventDestroy(join));
}

// ---- A graph built node by node ----------------------------------------

static void
built(float *d_x, float *d_w, float *h_w, cudaStream_t s1, cudaStream_t s2)
{
   cudaEvent_t before, done;
   CHECK_CUDA(cudaEventCreateWithFlags(&before, cudaEventDisableTiming));
   CHECK_CUDA(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
   HostCheck check = {h_w, 3.0f, 0, 0, 0};

   cudaGraph_t graph = nullptr;
   CHECK_CUDA(cudaGraphCreate(&graph, 0));

   // wait(before) -> memset w = 1.0f -> (empty, kernel) ; empty -> kernel
   cudaGraphNode_t wait = nullptr, set = nullptr, empty = nullptr, kern = nullptr, copy = nullptr,
                   host = nullptr, record = nullptr;
   CHECK_CUDA(cudaGraphAddEventWaitNode(&wait, graph, nullptr, 0, before));

   cudaMemsetParams mp = {};
   mp.dst = d_w;
   mp.value = 0x40000000u;  // 2.0f
   mp.elementSize = 4;
   mp.width = N;
   mp.height = 1;
   CHECK_CUDA(cudaGraphAddMemsetNode(&set, graph, &wait, 1, &mp));
   CHECK_CUDA(cudaGraphAddEmptyNode(&empty, graph, &set, 1));

   // w = a*w + b*x with a = -1.5, b = 3: w = 3x - 3.  The host's copies of
   // the arguments change once the node is added, which the node must not
   // see: it took their values.
   float *w_arg = d_w;
   const float *x_arg = d_x;
   float a = -1.5f, b = 3.0f;
   int n = N;
   void *args[] = {&w_arg, &x_arg, &a, &b, &n};
   cudaKernelNodeParams kp = {};
   kp.func = (void *)madd;
   kp.gridDim = dim3(BLOCKS);
   kp.blockDim = dim3(THREADS);
   kp.sharedMemBytes = 0;
   kp.kernelParams = args;
   kp.extra = nullptr;
   CHECK_CUDA(cudaGraphAddKernelNode(&kern, graph, &set, 1, &kp));
   a = 100.0f;
   b = 100.0f;
   w_arg = nullptr;
   n = 1;
   // With x_i = i + shift + 1, w_i = 3(i + shift).
   CHECK_CUDA(cudaGraphAddDependencies(graph, &empty, &kern, nullptr, 1));

   cudaMemcpy3DParms cp = {};
   cp.srcPtr = make_cudaPitchedPtr(d_w, BYTES, N, 1);
   cp.dstPtr = make_cudaPitchedPtr(h_w, BYTES, N, 1);
   cp.extent = make_cudaExtent(BYTES, 1, 1);
   cp.kind = cudaMemcpyDeviceToHost;
   CHECK_CUDA(cudaGraphAddMemcpyNode(&copy, graph, &kern, 1, &cp));

   cudaHostNodeParams hp = {};
   hp.fn = host_check;
   hp.userData = &check;
   CHECK_CUDA(cudaGraphAddHostNode(&host, graph, &copy, 1, &hp));
   CHECK_CUDA(cudaGraphAddEventRecordNode(&record, graph, &host, 1, done));

   // Read back.
   size_t count = 0;
   CHECK_CUDA(cudaGraphGetNodes(graph, nullptr, &count));
   CHECK(count == 7);
   cudaGraphNode_t nodes[9];
   count = 9;
   CHECK_CUDA(cudaGraphGetNodes(graph, nodes, &count));
   CHECK(count == 7);
   size_t nroots = 0;
   cudaGraphNode_t roots[2] = {nullptr, nullptr};
   nroots = 2;
   CHECK_CUDA(cudaGraphGetRootNodes(graph, roots, &nroots));
   CHECK(nroots == 1 && roots[0] == wait);
   const struct {
      cudaGraphNode_t node;
      cudaGraphNodeType type;
   } types[] = {
      {wait, cudaGraphNodeTypeWaitEvent}, {set, cudaGraphNodeTypeMemset}, {empty, cudaGraphNodeTypeEmpty},
      {kern, cudaGraphNodeTypeKernel},    {copy, cudaGraphNodeTypeMemcpy}, {host, cudaGraphNodeTypeHost},
      {record, cudaGraphNodeTypeEventRecord},
   };
   for (const auto &t : types) {
      cudaGraphNodeType got = cudaGraphNodeTypeCount;
      CHECK_CUDA(cudaGraphNodeGetType(t.node, &got));
      CHECK(got == t.type);
   }
   size_t nd = 0;
   CHECK_CUDA(cudaGraphNodeGetDependencies(kern, nullptr, nullptr, &nd));
   CHECK(nd == 2);
   cudaGraphNode_t kdeps[2] = {nullptr, nullptr};
   nd = 2;
   CHECK_CUDA(cudaGraphNodeGetDependencies(kern, kdeps, nullptr, &nd));
   CHECK(nd == 2 && ((kdeps[0] == set && kdeps[1] == empty) || (kdeps[0] == empty && kdeps[1] == set)));
   CHECK_CUDA(cudaGraphNodeGetDependentNodes(set, nullptr, nullptr, &nd));
   CHECK(nd == 2);
   size_t nedges = 0;
   CHECK_CUDA(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &nedges));
   CHECK(nedges == 7);
   cudaMemsetParams mp_back = {};
   CHECK_CUDA(cudaGraphMemsetNodeGetParams(set, &mp_back));
   CHECK(mp_back.dst == d_w && mp_back.value == mp.value && mp_back.elementSize == 4 && mp_back.width == N &&
         mp_back.height == 1);
   cudaHostNodeParams hp_back = {};
   CHECK_CUDA(cudaGraphHostNodeGetParams(host, &hp_back));
   CHECK(hp_back.fn == host_check && hp_back.userData == &check);
   cudaEvent_t ev = nullptr;
   CHECK_CUDA(cudaGraphEventRecordNodeGetEvent(record, &ev));
   CHECK(ev == done);
   CHECK_CUDA(cudaGraphEventWaitNodeGetEvent(wait, &ev));
   CHECK(ev == before);

   cudaGraphExec_t exec = nullptr, exec2 = nullptr;
   CHECK_CUDA(cudaGraphInstantiateWithFlags(&exec, graph, 0));
   CHECK_CUDA(cudaGraphInstantiate(&exec2, graph));

   // Four launches on s2, each after an event the wait node waits for.
   for (int round = 0; round < 4; round++) {
      upload_x(d_x, round + 1);
      fill_device(d_w, SENTINEL);
      fill_host(h_w, SENTINEL);
      check.shift = round;
      CHECK_CUDA(cudaEventRecord(before, s1));
      CHECK_CUDA(cudaGraphLaunch(exec, s2));
      CHECK_CUDA(cudaEventSynchronize(done));
      CHECK_CUDA(cudaEventQuery(done));
      CHECK_CUDA(cudaStreamSynchronize(s2));
      count_bad(h_w, 3.0f, round, "built graph, copied out");
      CHECK(check.calls == round + 1);
   }
   CHECK(check.bad == 0);

   // The second executable outlives its graph.
   CHECK_CUDA(cudaGraphDestroy(graph));
   upload_x(d_x, 11);
   fill_host(h_w, SENTINEL);
   check.shift = 10;
   CHECK_CUDA(cudaEventRecord(before, s1));
   CHECK_CUDA(cudaGraphLaunch(exec2, s1));
   CHECK_CUDA(cudaStreamSynchronize(s1));
   count_bad(h_w, 3.0f, 10, "built graph, after cudaGraphDestroy");
   CHECK(check.calls == 5 && check.bad == 0);

   CHECK_CUDA(cudaGraphExecDestroy(exec));
   CHECK_CUDA(cudaGraphExecDestroy(exec2));
   CHECK_CUDA(cudaEventDestroy(before));
   CHECK_CUDA(cudaEventDestroy(done));
}

// ---- One executable launched on two streams in turn ----------------------
//
// Launches of one executable are ordered after each other whatever
// stream they go to: v = 2v + 1 twelve times from 0 is 4095.

static void
relaunched(float *d_v, cudaStream_t s1, cudaStream_t s2)
{
   cudaGraph_t graph = nullptr;
   cudaGraphNode_t node = nullptr;
   CHECK_CUDA(cudaGraphCreate(&graph, 0));
   int n = N;
   void *args[] = {&d_v, &n};
   cudaKernelNodeParams kp = {};
   kp.func = (void *)twice_plus_one;
   kp.gridDim = dim3(BLOCKS);
   kp.blockDim = dim3(THREADS);
   kp.kernelParams = args;
   CHECK_CUDA(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &kp));
   cudaGraphExec_t exec = nullptr;
   CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
   CHECK_CUDA(cudaMemset(d_v, 0, BYTES));
   CHECK_CUDA(cudaDeviceSynchronize());
   for (int i = 0; i < 12; i++)
      CHECK_CUDA(cudaGraphLaunch(exec, i % 2 ? s2 : s1));
   CHECK_CUDA(cudaStreamSynchronize(s1));
   CHECK_CUDA(cudaStreamSynchronize(s2));
   std::vector<float> v(N);
   CHECK_CUDA(cudaMemcpy(v.data(), d_v, BYTES, cudaMemcpyDeviceToHost));
   for (int i = 0; i < N; i++) {
      if (v[i] != 4095.0f) {
         std::fprintf(stderr, "FAIL relaunched: v[%d] = %g, want 4095\n", i, v[i]);
         check_failures++;
         break;
      }
   }
   CHECK_CUDA(cudaGraphExecDestroy(exec));
   CHECK_CUDA(cudaGraphDestroy(graph));
}

// ---- What capture refuses, and smaller captures -----------------------------

static void
refusals(cudaStream_t s1, cudaStream_t s2)
{
   cudaGraph_t graph = nullptr;
   // The legacy default stream cannot capture.
   EXPECT_ERR(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal), cudaErrorStreamCaptureUnsupported);
   CHECK(cudaGetLastError() == cudaErrorStreamCaptureUnsupported);
   // Ending a capture that never began.
   EXPECT_ERR(cudaStreamEndCapture(s1, &graph), cudaErrorIllegalState);
   CHECK(cudaGetLastError() == cudaErrorIllegalState);
   CHECK(cudaGetLastError() == cudaSuccess);

   // This thread's capture mode, swapped and put back.
   cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
   CHECK_CUDA(cudaThreadExchangeStreamCaptureMode(&mode));
   CHECK(mode == cudaStreamCaptureModeGlobal);
   CHECK_CUDA(cudaThreadExchangeStreamCaptureMode(&mode));
   CHECK(mode == cudaStreamCaptureModeRelaxed);

   // An empty capture is an empty graph.
   CHECK_CUDA(cudaStreamBeginCapture(s1, cudaStreamCaptureModeThreadLocal));
   CHECK_CUDA(cudaStreamEndCapture(s1, &graph));
   size_t n = 99;
   CHECK_CUDA(cudaGraphGetNodes(graph, nullptr, &n));
   CHECK(n == 0);
   CHECK_CUDA(cudaGraphDestroy(graph));

   // A wait for an event of the world outside the capture is a node only
   // when asked for (cudaEventWaitExternal), which outside a capture is
   // refused.
   cudaEvent_t outside;
   CHECK_CUDA(cudaEventCreateWithFlags(&outside, cudaEventDisableTiming));
   CHECK_CUDA(cudaEventRecord(outside, s2));
   EXPECT_ERR(cudaStreamWaitEvent(s1, outside, cudaEventWaitExternal), cudaErrorIllegalState);
   CHECK(cudaGetLastError() == cudaErrorIllegalState);
   CHECK_CUDA(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
   CHECK_CUDA(cudaStreamWaitEvent(s1, outside, cudaEventWaitExternal));
   graph = nullptr;
   CHECK_CUDA(cudaStreamEndCapture(s1, &graph));
   n = 0;
   cudaGraphNode_t node = nullptr;
   CHECK_CUDA(cudaGraphGetNodes(graph, nullptr, &n));
   CHECK(n == 1);
   n = 1;
   CHECK_CUDA(cudaGraphGetNodes(graph, &node, &n));
   cudaGraphNodeType t = cudaGraphNodeTypeCount;
   CHECK_CUDA(cudaGraphNodeGetType(node, &t));
   CHECK(t == cudaGraphNodeTypeWaitEvent);
   cudaEvent_t ev = nullptr;
   CHECK_CUDA(cudaGraphEventWaitNodeGetEvent(node, &ev));
   CHECK(ev == outside);
   CHECK_CUDA(cudaGraphDestroy(graph));
   CHECK_CUDA(cudaStreamSynchronize(s2));
   CHECK_CUDA(cudaEventDestroy(outside));
}

int
main()
{
   check_bound_to_cuvk();

   float *d_x, *d_y, *d_z, *d_w, *h_y, *h_w;
   CHECK_CUDA(cudaMalloc(&d_x, BYTES));
   CHECK_CUDA(cudaMalloc(&d_y, BYTES));
   CHECK_CUDA(cudaMalloc(&d_z, BYTES));
   CHECK_CUDA(cudaMalloc(&d_w, BYTES));
   CHECK_CUDA(cudaMallocHost(&h_y, BYTES));
   CHECK_CUDA(cudaMallocHost(&h_w, BYTES));
   cudaStream_t s1, s2;
   CHECK_CUDA(cudaStreamCreate(&s1));
   CHECK_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));

   captured(d_x, d_y, d_z, h_y, s1, s2);
   built(d_x, d_w, h_w, s1, s2);
   relaunched(d_w, s1, s2);
   refusals(s1, s2);

   CHECK_CUDA(cudaStreamDestroy(s1));
   CHECK_CUDA(cudaStreamDestroy(s2));
   CHECK_CUDA(cudaFree(d_x));
   CHECK_CUDA(cudaFree(d_y));
   CHECK_CUDA(cudaFree(d_z));
   CHECK_CUDA(cudaFree(d_w));
   CHECK_CUDA(cudaFreeHost(h_y));
   CHECK_CUDA(cudaFreeHost(h_w));
   return check_finish("graphs");
}
