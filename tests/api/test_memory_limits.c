/*
 * api.memory.backpressure.*, api.memory.heap_limit.*: device memory stays
 * within the heap cuvk reports, and a host that queues faster than the
 * device runs does not pile up freed memory (issue 15, faults 4 and 5).
 *
 * Each case watches its own footprint and ends the process at the first
 * sign of unbounded growth (api_abort_case is _exit, which also drops
 * whatever work is still queued): on a CPU device the memory cuvk takes
 * is the machine's, shared with the rest of the suite.  The heap_limit
 * and heap_reuse cases cap cuvk's heap with CUVK_DEVICE_HEAP_LIMIT
 * (tests/api/meson.build), so what they allocate stays small, and they
 * never write the memory they fill the heap with.
 */
#include "api_test.h"

static size_t
rss_bytes(void)
{
   long pages = 0, resident = 0;
   FILE *f = fopen("/proc/self/statm", "r");

   API_REQUIRE(f != NULL);
   API_REQUIRE(fscanf(f, "%ld %ld", &pages, &resident) == 2);
   fclose(f);
   return (size_t)resident * (size_t)sysconf(_SC_PAGESIZE);
}

/* What cuvk holds of the device heap beyond what it held at free0. */
static size_t
held_since(size_t free0)
{
   size_t free_bytes = 0, total = 0;

   API_REQUIRE_CU(cuMemGetInfo(&free_bytes, &total));
   return free_bytes < free0 ? free0 - free_bytes : 0;
}

/* Reads the word at d back after a fill with value. */
static void
check_word(CUdeviceptr d, size_t offset, unsigned value, int iteration)
{
   unsigned got = 0;

   API_CHECK_CU(cuMemcpyDtoH(&got, d + offset, sizeof(got)));
   API_CHECK_MSG(got == value, "iteration %d: word at %zu is 0x%x, filled with 0x%x", iteration,
                 offset, got, value);
}

/* The loop of the issue: allocate, queue a fill, free, one live buffer at
 * a time, far faster than lavapipe fills.  Before back-pressure every
 * freed buffer waited for the fill queued behind it and cuvk took new
 * memory for the next: 20 GiB for these 5,000 iterations.  Bound: what
 * cuvk may hold in freed memory (an eighth of the heap, at least 64 MiB and
 * at most 1 GiB: 256 MiB of lavapipe's 2 GiB) plus blocks and slack. */
#define BACKPRESSURE_ITERATIONS 5000
#define BACKPRESSURE_SIZE (4 * API_MIB)
#define BACKPRESSURE_SLACK (256 * API_MIB)

static size_t
backpressure_bound(size_t total)
{
   size_t deferred = API_MIN(API_MAX(total / 8, 64 * API_MIB), 1024 * API_MIB);
   return deferred + BACKPRESSURE_SLACK;
}

static void
backpressure_alloc_memset_free(void)
{
   CUstream stream = NULL;
   CUdeviceptr d = 0;
   size_t free0 = 0, total = 0, worst_held = 0, worst_rss = 0;

   API_REQUIRE_CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
   /* One round first, so the driver's own start-up is in the baseline. */
   API_REQUIRE_CU(cuMemAlloc(&d, BACKPRESSURE_SIZE));
   API_REQUIRE_CU(cuMemsetD32Async(d, 0, BACKPRESSURE_SIZE / 4, stream));
   API_REQUIRE_CU(cuMemFree(d));
   API_REQUIRE_CU(cuCtxSynchronize());
   API_REQUIRE_CU(cuMemGetInfo(&free0, &total));
   size_t rss0 = rss_bytes();
   const size_t bound = backpressure_bound(total);

   double t0 = api_now();
   for (int i = 0; i < BACKPRESSURE_ITERATIONS; i++) {
      unsigned value = 0x5a000000u | (unsigned)i;
      API_REQUIRE_CU(cuMemAlloc(&d, BACKPRESSURE_SIZE));
      API_REQUIRE_CU(cuMemsetD32Async(d, value, BACKPRESSURE_SIZE / 4, stream));
      /* Now and then, the fill has to have happened. */
      if (i % 1000 == 999) {
         API_CHECK_CU(cuStreamSynchronize(stream));
         check_word(d, BACKPRESSURE_SIZE - 4, value, i);
      }
      API_REQUIRE_CU(cuMemFree(d));

      if (i % 16 == 0) {
         size_t held = held_since(free0);
         size_t rss = rss_bytes();
         size_t grown = rss > rss0 ? rss - rss0 : 0;
         worst_held = API_MAX(worst_held, held);
         worst_rss = API_MAX(worst_rss, grown);
         if (held > bound || grown > bound) {
            api_report(__FILE__, __LINE__, "after %d iterations of %zu MiB: cuvk holds %zu MiB more of "
                       "the device heap, resident memory grew %zu MiB (bound %zu MiB)", i + 1,
                       BACKPRESSURE_SIZE >> 20, held >> 20, grown >> 20, bound >> 20);
            api_abort_case();
         }
      }
   }
   API_CHECK_CU(cuStreamSynchronize(stream));
   double t1 = api_now();
   size_t rss = rss_bytes();
   size_t grown = rss > rss0 ? rss - rss0 : 0;
   worst_rss = API_MAX(worst_rss, grown);
   API_CHECK_MSG(grown <= bound, "resident memory grew %zu MiB over the loop (bound %zu MiB)",
                 grown >> 20, bound >> 20);
   API_CHECK_CU(cuStreamDestroy(stream));
   printf("%d iterations of %zu MiB in %.1f s; most held %zu MiB, most resident growth %zu MiB "
          "(bound %zu MiB), heap %zu MiB\n", BACKPRESSURE_ITERATIONS, BACKPRESSURE_SIZE >> 20, t1 - t0,
          worst_held >> 20, worst_rss >> 20, bound >> 20, total >> 20);
}

/* Queued work is bounded too: cuvk keeps at most 16 submitted batches of
 * up to 64 commands and one open batch in flight, so when a call
 * returns, everything queued more than 17 x 64 commands before it has
 * completed.  A fill of an 8 MiB buffer is one command on lavapipe (a GPU
 * may take more, which only lowers the bound in iterations); lavapipe
 * takes about a millisecond for it, the host microseconds to queue it. */
#define QUEUE_ITERATIONS 2000
#define QUEUE_SIZE (8 * API_MIB)
#define QUEUE_MAX_AHEAD (17 * 64)

static void
backpressure_queue_depth(void)
{
   static CUevent events[QUEUE_ITERATIONS];
   CUstream stream = NULL;
   CUdeviceptr d = 0;

   API_REQUIRE_CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuMemAlloc(&d, QUEUE_SIZE));
   for (int i = 0; i < QUEUE_ITERATIONS; i++)
      API_REQUIRE_CU(cuEventCreate(&events[i], CU_EVENT_DISABLE_TIMING));

   double t0 = api_now();
   for (int i = 0; i < QUEUE_ITERATIONS; i++) {
      API_REQUIRE_CU(cuMemsetD32Async(d, (unsigned)i, QUEUE_SIZE / 4, stream));
      API_REQUIRE_CU(cuEventRecord(events[i], stream));
   }
   double t1 = api_now();
   /* Queried newest first: a query may submit what it waits for. */
   int behind = QUEUE_ITERATIONS - 1 - QUEUE_MAX_AHEAD;
   CUresult res = cuEventQuery(events[behind]);
   API_CHECK_MSG(res == CUDA_SUCCESS, "once %d fills were queued, fill %d was not done (%s): more than "
                 "%d commands were in flight", QUEUE_ITERATIONS, behind, api_result_name(res),
                 QUEUE_MAX_AHEAD);
   int done = 0;
   for (int i = 0; i < QUEUE_ITERATIONS; i++)
      done += cuEventQuery(events[i]) == CUDA_SUCCESS;
   API_CHECK_CU(cuStreamSynchronize(stream));
   check_word(d, QUEUE_SIZE - 4, QUEUE_ITERATIONS - 1, QUEUE_ITERATIONS - 1);
   for (int i = 0; i < QUEUE_ITERATIONS; i++)
      API_CHECK_CU(cuEventDestroy(events[i]));
   API_CHECK_CU(cuMemFree(d));
   API_CHECK_CU(cuStreamDestroy(stream));
   printf("%d fills queued in %.2f s; %d of them done when the last was queued\n", QUEUE_ITERATIONS,
          t1 - t0, done);
}

/* Run with CUVK_DEVICE_HEAP_LIMIT=256M. */
#define REUSE_HEAP (256 * API_MIB)
#define REUSE_KEEP (160 * API_MIB)
#define REUSE_SIZE (56 * API_MIB)

/* With 160 of 256 MiB kept, a 56 MiB buffer fits only once the one
 * before it is back, and 2x the heap passes through: each allocation has
 * to wait for the fill of the buffer freed before it rather than fail. */
static void
backpressure_heap_reuse(void)
{
   CUstream stream = NULL;
   CUdeviceptr keep = 0, d = 0;
   size_t free0 = 0, total = 0;

   API_REQUIRE_CU(cuMemGetInfo(&free0, &total));
   if (!API_CHECK_MSG(total == REUSE_HEAP, "heap of %zu MiB: CUVK_DEVICE_HEAP_LIMIT=256M not honoured",
                      total >> 20))
      api_abort_case();
   API_REQUIRE_CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuMemAlloc(&keep, REUSE_KEEP));

   int n = (int)(2 * REUSE_HEAP / REUSE_SIZE) + 4;
   size_t worst_held = 0;
   for (int i = 0; i < n; i++) {
      unsigned value = 0xc0de0000u | (unsigned)i;
      API_REQUIRE_CU(cuMemAlloc(&d, REUSE_SIZE));
      API_REQUIRE_CU(cuMemsetD32Async(d, value, REUSE_SIZE / 4, stream));
      if (i == n - 1) {
         API_CHECK_CU(cuStreamSynchronize(stream));
         check_word(d, REUSE_SIZE - 4, value, i);
      }
      API_REQUIRE_CU(cuMemFree(d));
      worst_held = API_MAX(worst_held, held_since(free0));
   }
   API_CHECK_MSG(worst_held <= total, "cuvk held %zu MiB of a %zu MiB heap", worst_held >> 20,
                 total >> 20);
   API_CHECK_CU(cuMemFree(keep));
   API_CHECK_CU(cuStreamDestroy(stream));
   API_CHECK_CU(cuCtxSynchronize());
   size_t free1 = 0;
   API_CHECK_CU(cuMemGetInfo(&free1, &total));
   API_CHECK_MSG(free1 == free0, "free %zu MiB before, %zu MiB after everything was freed", free0 >> 20,
                 free1 >> 20);
   printf("%d buffers of %zu MiB (%zu MiB) through a %zu MiB heap with %zu MiB kept; most held %zu MiB\n",
          n, REUSE_SIZE >> 20, (size_t)n * REUSE_SIZE >> 20, total >> 20, REUSE_KEEP >> 20,
          worst_held >> 20);
}

/* Run with CUVK_DEVICE_HEAP_LIMIT=512M.  Chunks of 64 MiB get memory of
 * their own each, so the heap's bytes are all they take. */
#define LIMIT_HEAP (512 * API_MIB)
#define LIMIT_CHUNK (64 * API_MIB)
#define LIMIT_MAX_CHUNKS 64

static CUmemAllocationProp
vmm_prop(void)
{
   CUmemAllocationProp prop;

   memset(&prop, 0, sizeof(prop));
   prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
   prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
   prop.location.id = api_dev;
   return prop;
}

/* Allocates chunks until out of memory, never past total + a chunk (what
 * cuvk did before: lavapipe hands out far more than its heap, and this
 * touches none of it). */
static int
fill_heap(CUdeviceptr *ptrs, CUmemGenericAllocationHandle *handles, size_t total, const char *what)
{
   CUmemAllocationProp prop = vmm_prop();
   CUresult res = CUDA_SUCCESS;
   int n = 0;

   while (n < LIMIT_MAX_CHUNKS && (size_t)n * LIMIT_CHUNK <= total) {
      res = ptrs ? cuMemAlloc(&ptrs[n], LIMIT_CHUNK) : cuMemCreate(&handles[n], LIMIT_CHUNK, &prop, 0);
      if (res != CUDA_SUCCESS)
         break;
      n++;
   }
   API_CHECK_MSG(res == CUDA_ERROR_OUT_OF_MEMORY, "%s: %d chunks of %zu MiB (%zu MiB) in a %zu MiB heap, "
                 "then %s instead of CUDA_ERROR_OUT_OF_MEMORY", what, n, LIMIT_CHUNK >> 20,
                 (size_t)n * LIMIT_CHUNK >> 20, total >> 20, api_result_name(res));
   API_CHECK_MSG((size_t)n * LIMIT_CHUNK <= total, "%s: %zu MiB allocated of a %zu MiB heap", what,
                 (size_t)n * LIMIT_CHUNK >> 20, total >> 20);
   return n;
}

static void
heap_limit_exhaust(void)
{
   static CUdeviceptr ptrs[LIMIT_MAX_CHUNKS];
   static CUmemGenericAllocationHandle handles[LIMIT_MAX_CHUNKS];
   size_t free0 = 0, total = 0, free1 = 0, total1 = 0, dev_total = 0;
   CUmemAllocationProp prop = vmm_prop();
   CUmemGenericAllocationHandle h = 0;
   CUdeviceptr d = 0;
   size_t pitch = 0;

   API_REQUIRE_CU(cuMemGetInfo(&free0, &total));
   API_CHECK_CU(cuDeviceTotalMem(&dev_total, api_dev));
   API_CHECK_MSG(dev_total == total, "cuDeviceTotalMem %zu MiB, cuMemGetInfo total %zu MiB",
                 dev_total >> 20, total >> 20);

   /* cuMemAlloc up to the limit; then nothing else fits either. */
   int n = fill_heap(ptrs, NULL, total, "cuMemAlloc");
   size_t sum = (size_t)n * LIMIT_CHUNK;
   API_CHECK_MSG(sum >= free0 / 4 * 3, "only %zu MiB allocated of %zu MiB free", sum >> 20, free0 >> 20);
   API_CHECK_CU(cuMemGetInfo(&free1, &total1));
   API_CHECK_MSG(free1 < LIMIT_CHUNK, "cuMemGetInfo says %zu MiB free, yet %zu MiB did not fit",
                 free1 >> 20, LIMIT_CHUNK >> 20);
   API_CHECK_RES(CUDA_ERROR_OUT_OF_MEMORY, cuMemAllocPitch(&d, &pitch, 8192, LIMIT_CHUNK / 8192, 4));
   API_CHECK_RES(CUDA_ERROR_OUT_OF_MEMORY, cuMemCreate(&h, LIMIT_CHUNK, &prop, 0));

   for (int i = 0; i < n; i++)
      API_CHECK_CU(cuMemFree(ptrs[i]));
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_CU(cuMemGetInfo(&free1, &total1));
   API_CHECK_MSG(free1 + LIMIT_CHUNK / 16 >= free0 && free1 <= free0,
                 "free %zu MiB before, %zu MiB after everything was freed", free0 >> 20, free1 >> 20);

   /* The freed memory is there to take again, by cuMemCreate too. */
   int m = fill_heap(NULL, handles, total, "cuMemCreate");
   API_CHECK_MSG(m == n, "%d chunks by cuMemAlloc, %d by cuMemCreate", n, m);
   for (int i = 0; i < m; i++)
      API_CHECK_CU(cuMemRelease(handles[i]));
   API_CHECK_CU(cuMemAllocPitch(&d, &pitch, 8192, LIMIT_CHUNK / 8192, 4));
   API_CHECK_CU(cuMemsetD32(d, 7, pitch / 4 * (LIMIT_CHUNK / 8192)));
   check_word(d, LIMIT_CHUNK - 4, 7, 0);
   API_CHECK_CU(cuMemFree(d));
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_CU(cuMemGetInfo(&free1, &total1));
   API_CHECK_MSG(free1 + LIMIT_CHUNK / 16 >= free0, "free %zu MiB before, %zu MiB at the end", free0 >> 20,
                 free1 >> 20);
   /* Last: the variable was honoured (before it was, the loops above
    * already failed on the driver's own heap size). */
   API_CHECK_MSG(total == LIMIT_HEAP, "heap of %zu MiB: CUVK_DEVICE_HEAP_LIMIT=512M not honoured",
                 total >> 20);
   printf("%d chunks of %zu MiB in a %zu MiB heap (%zu MiB free at the start)\n", n, LIMIT_CHUNK >> 20,
          total >> 20, free0 >> 20);
}

static const struct api_case cases[] = {
   API_CASE("api.memory.backpressure.alloc_memset_free", backpressure_alloc_memset_free),
   API_CASE("api.memory.backpressure.heap_reuse", backpressure_heap_reuse),
   API_CASE("api.memory.backpressure.queue_depth", backpressure_queue_depth),
   API_CASE("api.memory.heap_limit.exhaust", heap_limit_exhaust),
};

API_MAIN(cases)
