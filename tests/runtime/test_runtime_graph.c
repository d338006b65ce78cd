/*
 * Graphs and stream capture through the runtime, without kernels (the
 * nvcc program tests/nvcc_programs/graphs.cu has those): captured and
 * built graphs of fills, copies between pinned and device memory (CUDA
 * does not promise graphs copies of pageable memory), host functions and
 * events, each launched several times with
 * new inputs and every byte checked against a host reference.  Built
 * again with the per-thread default stream (runtime.ptds.graph.*), where
 * the capture and launch calls are their _ptsz symbols and stream 0 is the
 * thread's own, which can capture, and with NVIDIA's headers
 * (runtime.nvidia_headers.graph.*).
 */
#include "rt_test.h"

#include <string.h>

#define SIZE ((size_t)256 * RT_KIB)

/* A host function's record: how often it ran, and whether the pinned
 * buffer held what the copy before it wrote, when it ran. */
struct host_seen {
   const uint8_t *pinned;
   const uint8_t *want;
   size_t size;
   int calls;
   int wrong;
};

static void CUDART_CB
host_seen_run(void *data)
{
   struct host_seen *h = data;
   h->calls++;
   if (memcmp(h->pinned, h->want, h->size) != 0)
      h->wrong++;
}

static size_t
node_count(cudaGraph_t graph)
{
   size_t n = 0;
   RT_CHECK_OK(cudaGraphGetNodes(graph, NULL, &n));
   return n;
}

/*
 * Captured on a created stream s, with a fork onto s2:
 *
 *    s:  memset(a, 0x11) -> copy a[0, half) <- in[0, half)
 *          fork -> s2: copy a[half, size) <- pin_in[half, size)
 *        copy b <- a (device to device, once s2 has joined)
 *        copy pin_out <- b, host function
 *
 * (in and pin_in both pinned) so b and pin_out hold in's first half and
 * pin_in's second half, and the 0x11 fill is wholly overwritten.
 */
static void
graph_capture_on(cudaStream_t s)
{
   uint8_t *want = malloc(SIZE), *back = malloc(SIZE);
   uint8_t *in = NULL, *pin_in = NULL, *pin_out = NULL;
   void *a = NULL, *b = NULL;
   cudaStream_t s2;
   cudaEvent_t fork, join;
   RT_REQUIRE(want && back);
   RT_REQUIRE_OK(cudaMallocHost((void **)&in, SIZE));
   RT_REQUIRE_OK(cudaMallocHost((void **)&pin_in, SIZE));
   RT_REQUIRE_OK(cudaMallocHost((void **)&pin_out, SIZE));
   RT_REQUIRE_OK(cudaMalloc(&a, SIZE));
   RT_REQUIRE_OK(cudaMalloc(&b, SIZE));
   RT_REQUIRE_OK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
   RT_REQUIRE_OK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
   RT_REQUIRE_OK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
   memset(pin_out, 0xee, SIZE);
   struct host_seen seen = { pin_out, want, SIZE, 0, 0 };
   size_t half = SIZE / 2;

   enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
   RT_CHECK_OK(cudaStreamIsCapturing(s, &status));
   RT_CHECK(status == cudaStreamCaptureStatusNone);
   RT_REQUIRE_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
   RT_CHECK_OK(cudaStreamIsCapturing(s, &status));
   RT_CHECK(status == cudaStreamCaptureStatusActive);
   RT_CHECK_OK(cudaMemsetAsync(a, 0x11, SIZE, s));
   RT_CHECK_OK(cudaMemcpyAsync(a, in, half, cudaMemcpyHostToDevice, s));
   RT_CHECK_OK(cudaEventRecord(fork, s));
   RT_CHECK_OK(cudaStreamWaitEvent(s2, fork, 0));
   RT_CHECK_OK(cudaStreamIsCapturing(s2, &status));
   RT_CHECK(status == cudaStreamCaptureStatusActive);
   RT_CHECK_OK(cudaMemcpyAsync((uint8_t *)a + half, pin_in + half, SIZE - half, cudaMemcpyHostToDevice, s2));
   RT_CHECK_OK(cudaEventRecord(join, s2));
   RT_CHECK_OK(cudaStreamWaitEvent(s, join, 0));
   RT_CHECK_OK(cudaMemcpyAsync(b, a, SIZE, cudaMemcpyDeviceToDevice, s));
   RT_CHECK_OK(cudaMemcpyAsync(pin_out, b, SIZE, cudaMemcpyDeviceToHost, s));
   RT_CHECK_OK(cudaLaunchHostFunc(s, host_seen_run, &seen));

   unsigned long long id = 0;
   cudaGraph_t capturing = NULL;
   const cudaGraphNode_t *deps = NULL;
   const cudaGraphEdgeData *edge_data = NULL;
   size_t ndeps = 0;
   RT_CHECK_OK(cudaStreamGetCaptureInfo(s, &status, &id, &capturing, &deps, &edge_data, &ndeps));
   RT_CHECK(status == cudaStreamCaptureStatusActive && id != 0 && capturing != NULL && ndeps == 1);

   cudaGraph_t graph = NULL;
   RT_REQUIRE_OK(cudaStreamEndCapture(s, &graph));
   RT_REQUIRE(graph != NULL);
   RT_CHECK(graph == capturing);
   RT_CHECK_OK(cudaStreamIsCapturing(s, &status));
   RT_CHECK(status == cudaStreamCaptureStatusNone);
   RT_CHECK_OK(cudaStreamIsCapturing(s2, &status));
   RT_CHECK(status == cudaStreamCaptureStatusNone);
   /* Memset, three copies in, one out, and the host node. */
   RT_CHECK(node_count(graph) == 6);
   RT_CHECK_OK(cudaDeviceSynchronize());
   RT_CHECK(seen.calls == 0);

   cudaGraphExec_t exec = NULL;
   RT_REQUIRE_OK(cudaGraphInstantiate(&exec, graph, 0));
   for (unsigned round = 0; round < 3; round++) {
      rt_fill_pattern(in, SIZE, 100 + round);
      rt_fill_pattern(pin_in, SIZE, 200 + round);
      memcpy(want, in, half);
      memcpy(want + half, pin_in + half, SIZE - half);
      RT_CHECK_OK(cudaGraphLaunch(exec, s));
      RT_CHECK_OK(cudaStreamSynchronize(s));
      RT_CHECK_BYTES(pin_out, want, SIZE, "captured graph, launch %u", round);
      RT_CHECK_OK(cudaMemcpy(back, b, SIZE, cudaMemcpyDeviceToHost));
      RT_CHECK_BYTES(back, want, SIZE, "captured graph's b, launch %u", round);
   }
   RT_CHECK(seen.calls == 3 && seen.wrong == 0);

   RT_CHECK_OK(cudaGraphExecDestroy(exec));
   RT_CHECK_OK(cudaGraphDestroy(graph));
   RT_CHECK_OK(cudaEventDestroy(fork));
   RT_CHECK_OK(cudaEventDestroy(join));
   RT_CHECK_OK(cudaStreamDestroy(s2));
   RT_CHECK_OK(cudaFree(a));
   RT_CHECK_OK(cudaFree(b));
   RT_CHECK_OK(cudaFreeHost(in));
   RT_CHECK_OK(cudaFreeHost(pin_in));
   RT_CHECK_OK(cudaFreeHost(pin_out));
   free(want);
   free(back);
}

static void
graph_capture(void)
{
   cudaStream_t s;
   RT_REQUIRE_OK(cudaStreamCreate(&s));
   graph_capture_on(s);
   RT_CHECK_OK(cudaStreamDestroy(s));
}

/* The calling thread's default stream captures like any other (the
 * legacy stream cannot); with the per-thread default stream, so does 0. */
static void
graph_capture_per_thread(void)
{
   graph_capture_on(cudaStreamPerThread);
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
   graph_capture_on(0);
#endif
}

/*
 * Built node by node:
 *
 *    wait(before) -> memset d (4-byte elements, 2D with a pitch)
 *                 -> copy d[row 0..] <- pinned in  (cudaMemcpy3DParms)
 *    memset, copy -> empty -> copy pinned out <- d -> host -> record(done)
 *
 * The fill covers rows of FILL_W elements each PITCH bytes apart; the
 * copy then overwrites the first COPY bytes; the rest keeps the fill.
 */
#define ROWS 16
#define PITCH ((size_t)4096)
#define FILL_W ((size_t)1000) /* elements of 4 bytes, within the pitch */
#define COPY ((size_t)5000)

static void
graph_build(void)
{
   size_t size = ROWS * PITCH;
   uint8_t *in = NULL, *want = malloc(size), *pinned = NULL;
   void *d = NULL;
   cudaStream_t s;
   cudaEvent_t before, done;
   RT_REQUIRE(want);
   RT_REQUIRE_OK(cudaMallocHost((void **)&in, COPY));
   RT_REQUIRE_OK(cudaMallocHost((void **)&pinned, size));
   RT_REQUIRE_OK(cudaMalloc(&d, size));
   RT_REQUIRE_OK(cudaStreamCreate(&s));
   RT_REQUIRE_OK(cudaEventCreateWithFlags(&before, cudaEventDisableTiming));
   RT_REQUIRE_OK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
   struct host_seen seen = { pinned, want, size, 0, 0 };

   cudaGraph_t graph = NULL;
   RT_REQUIRE_OK(cudaGraphCreate(&graph, 0));
   cudaGraphNode_t wait = NULL, fill = NULL, copy_in = NULL, empty = NULL, copy_out = NULL, host = NULL,
                   record = NULL;
   RT_REQUIRE_OK(cudaGraphAddEventWaitNode(&wait, graph, NULL, 0, before));

   struct cudaMemsetParams mp;
   memset(&mp, 0, sizeof(mp));
   mp.dst = d;
   mp.pitch = PITCH;
   mp.value = 0xa1b2c3d4u;
   mp.elementSize = 4;
   mp.width = FILL_W;
   mp.height = ROWS;
   RT_REQUIRE_OK(cudaGraphAddMemsetNode(&fill, graph, &wait, 1, &mp));

   struct cudaMemcpy3DParms cp;
   memset(&cp, 0, sizeof(cp));
   cp.srcPtr.ptr = in;
   cp.srcPtr.pitch = COPY;
   cp.srcPtr.xsize = COPY;
   cp.srcPtr.ysize = 1;
   cp.dstPtr.ptr = d;
   cp.dstPtr.pitch = COPY;
   cp.dstPtr.xsize = COPY;
   cp.dstPtr.ysize = 1;
   cp.extent.width = COPY;
   cp.extent.height = 1;
   cp.extent.depth = 1;
   cp.kind = cudaMemcpyHostToDevice;
   /* After the fill, by an edge added afterwards. */
   RT_REQUIRE_OK(cudaGraphAddMemcpyNode(&copy_in, graph, &wait, 1, &cp));
   RT_REQUIRE_OK(cudaGraphAddDependencies(graph, &fill, &copy_in, NULL, 1));

   cudaGraphNode_t both[2] = { fill, copy_in };
   RT_REQUIRE_OK(cudaGraphAddEmptyNode(&empty, graph, both, 2));
   memset(&cp, 0, sizeof(cp));
   cp.srcPtr.ptr = d;
   cp.srcPtr.pitch = size;
   cp.srcPtr.xsize = size;
   cp.srcPtr.ysize = 1;
   cp.dstPtr.ptr = pinned;
   cp.dstPtr.pitch = size;
   cp.dstPtr.xsize = size;
   cp.dstPtr.ysize = 1;
   cp.extent.width = size;
   cp.extent.height = 1;
   cp.extent.depth = 1;
   cp.kind = cudaMemcpyDefault;
   RT_REQUIRE_OK(cudaGraphAddMemcpyNode(&copy_out, graph, &empty, 1, &cp));
   struct cudaHostNodeParams hp = { host_seen_run, &seen };
   RT_REQUIRE_OK(cudaGraphAddHostNode(&host, graph, &copy_out, 1, &hp));
   RT_REQUIRE_OK(cudaGraphAddEventRecordNode(&record, graph, &host, 1, done));

   RT_CHECK(node_count(graph) == 7);
   size_t n = 0;
   RT_CHECK_OK(cudaGraphGetRootNodes(graph, NULL, &n));
   RT_CHECK(n == 1);
   RT_CHECK_OK(cudaGraphGetEdges(graph, NULL, NULL, NULL, &n));
   RT_CHECK(n == 8);
   RT_CHECK_OK(cudaGraphNodeGetDependencies(copy_in, NULL, NULL, &n));
   RT_CHECK(n == 2);
   RT_CHECK_OK(cudaGraphNodeGetDependentNodes(wait, NULL, NULL, &n));
   RT_CHECK(n == 2);
   enum cudaGraphNodeType type = cudaGraphNodeTypeCount;
   RT_CHECK_OK(cudaGraphNodeGetType(copy_in, &type));
   RT_CHECK(type == cudaGraphNodeTypeMemcpy);
   RT_CHECK_OK(cudaGraphNodeGetType(fill, &type));
   RT_CHECK(type == cudaGraphNodeTypeMemset);
   struct cudaMemsetParams mp_back;
   memset(&mp_back, 0, sizeof(mp_back));
   RT_CHECK_OK(cudaGraphMemsetNodeGetParams(fill, &mp_back));
   RT_CHECK(mp_back.dst == d && mp_back.pitch == PITCH && mp_back.value == mp.value && mp_back.elementSize == 4 &&
            mp_back.width == FILL_W && mp_back.height == ROWS);

   /* What the graph leaves in d: the fill's rows, the copy over their
    * start, and the padding as it was (0x5a from the set-up below). */
   cudaGraphExec_t exec = NULL;
   RT_REQUIRE_OK(cudaGraphInstantiate(&exec, graph, 0));
   for (unsigned round = 0; round < 3; round++) {
      rt_fill_pattern(in, COPY, round);
      RT_CHECK_OK(cudaMemset(d, 0x5a, size));
      RT_CHECK_OK(cudaDeviceSynchronize());
      memset(want, 0x5a, size);
      for (size_t y = 0; y < ROWS; y++) {
         for (size_t x = 0; x < FILL_W; x++)
            memcpy(want + y * PITCH + x * 4, &mp.value, 4);
      }
      memcpy(want, in, COPY);
      memset(pinned, 0xee, size);
      RT_CHECK_OK(cudaEventRecord(before, s));
      RT_CHECK_OK(cudaGraphLaunch(exec, s));
      RT_CHECK_OK(cudaEventSynchronize(done));
      RT_CHECK_BYTES(pinned, want, size, "built graph, launch %u", round);
   }
   RT_CHECK_OK(cudaStreamSynchronize(s));
   RT_CHECK(seen.calls == 3 && seen.wrong == 0);

   RT_CHECK_OK(cudaGraphExecDestroy(exec));
   RT_CHECK_OK(cudaGraphDestroy(graph));
   RT_CHECK_OK(cudaEventDestroy(before));
   RT_CHECK_OK(cudaEventDestroy(done));
   RT_CHECK_OK(cudaStreamDestroy(s));
   RT_CHECK_OK(cudaFree(d));
   RT_CHECK_OK(cudaFreeHost(pinned));
   RT_CHECK_OK(cudaFreeHost(in));
   free(want);
}

static const struct rt_case cases[] = {
   RT_CASE("runtime.graph.capture", graph_capture),
   RT_CASE("runtime.graph.capture_per_thread", graph_capture_per_thread),
   RT_CASE("runtime.graph.build", graph_build),
};

RT_MAIN(cases)
