/*
 * leak.loop.*: long loops of the create/destroy pairs a long-running
 * program repeats, each CUVK_LEAK_CYCLES times (default 10,000), checked
 * three ways:
 *
 *  - file descriptors: /proc/self/fd holds as many entries after the
 *    loop as after its warm-up cycles;
 *  - Vulkan objects: the case ends by releasing the primary context,
 *    whose vkDestroyDevice makes the validation layer report every object
 *    cuvk left behind, and CUVK_VALIDATION_FATAL turns that report into an
 *    abort; the exporter's own device is checked the same way by
 *    vk_harness's message count.  leak.meta.validation_reports_leaks
 *    shows that the layer installed here does report a leaked object;
 *  - memory: the bytes malloc has handed out and not had back (glibc's
 *    mallinfo2, every arena) grow by less than HEAP_BOUND, and the
 *    resident set (/proc/self/statm) by less than RSS_BOUND, from the
 *    first quarter of the loop to the last (see LEAK_CHECKPOINTS for how
 *    they are read).  Under AddressSanitizer
 *    the bound is not checked (freed memory sits in ASan's quarantine, so
 *    the resident set grows by design); LeakSanitizer's report at exit
 *    takes its place there.
 *
 * tests/api/test_leak.c has the shorter context and registration cycles
 * (api.leak.fd.*).
 */
#include "api_test.h"
#include "vk_harness.h"

#include <malloc.h>

#if defined(__SANITIZE_ADDRESS__)
#define LEAK_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LEAK_UNDER_ASAN 1
#endif
#endif
#ifndef LEAK_UNDER_ASAN
#define LEAK_UNDER_ASAN 0
#endif

/* Growth allowed from the first quarter of a loop to the last.  Over
 * 10,000 cycles, a loop that loses 1 KiB per cycle grows by about 7 MiB
 * between them.  The malloc count sees the small records a leak is made
 * of and little else (lavapipe's device memory is mmap'ed); the resident
 * set sees everything, device memory included: on a CPU device that is
 * host memory, and a loop of allocations touches new pages of the block
 * heap's 64 MiB blocks as it goes, so leak.loop.alloc_free allows one
 * block more.  What was measured is in docs/testing.md. */
#define HEAP_BOUND (1 * API_MIB)
#define RSS_BOUND (4 * API_MIB)
#define BLOCK_BYTES (64 * API_MIB)
#define WARMUP_CYCLES 200

static long
cycles(void)
{
   const char *s = getenv("CUVK_LEAK_CYCLES");
   long n = s && *s ? strtol(s, NULL, 10) : 10000;
   return n > 0 ? n : 10000;
}

/* Resident bytes of the process. */
static size_t
rss_bytes(void)
{
   FILE *f = fopen("/proc/self/statm", "r");
   unsigned long size = 0, resident = 0;

   API_REQUIRE(f != NULL);
   API_REQUIRE(fscanf(f, "%lu %lu", &size, &resident) == 2);
   fclose(f);
   return (size_t)resident * (size_t)sysconf(_SC_PAGESIZE);
}

/*
 * The resident set moves by tens of MiB within a loop that leaks nothing:
 * on a CPU device, device memory is host memory, and the block heap takes
 * and gives back whole blocks as deferred frees come and go.  A leak only
 * ever grows.  So the loop is cut into LEAK_CHECKPOINTS parts, with a
 * cuCtxSynchronize and a reading of the resident set after each, and the
 * least reading of the last quarter is compared with the least of the
 * first: the transient peaks drop out, a leak over half the loop stays.
 */
#define LEAK_CHECKPOINTS 20

struct leak_loop {
   const char *what;
   long cycles;
   size_t rss_bound;
   int fds_before;
   size_t rss[LEAK_CHECKPOINTS];
   size_t heap[LEAK_CHECKPOINTS];
   double t0;
};

/* Bytes malloc has handed out, in every arena. */
static size_t
heap_bytes(void)
{
   struct mallinfo2 mi = mallinfo2();
   return mi.uordblks + mi.hblkhd;
}

static void
leak_loop_begin(struct leak_loop *l, const char *what, size_t rss_bound)
{
   memset(l, 0, sizeof(*l));
   l->what = what;
   l->rss_bound = rss_bound;
   l->cycles = cycles();
   API_CHECK_CU(cuCtxSynchronize());
   l->fds_before = api_fd_count();
   l->t0 = api_now();
}

/* Called after cycle i; takes a reading at the end of each part. */
static void
leak_loop_step(struct leak_loop *l, long i)
{
   long part = l->cycles / LEAK_CHECKPOINTS;
   if (part > 0 && (i + 1) % part == 0 && (i + 1) / part <= LEAK_CHECKPOINTS) {
      API_CHECK_CU(cuCtxSynchronize());
      l->rss[(i + 1) / part - 1] = rss_bytes();
      l->heap[(i + 1) / part - 1] = heap_bytes();
   }
}

static size_t
least(const size_t *v, int n)
{
   size_t m = SIZE_MAX;
   for (int i = 0; i < n; i++)
      if (v[i] && v[i] < m)
         m = v[i];
   return m;
}

static void
leak_loop_end(struct leak_loop *l)
{
   const int q = LEAK_CHECKPOINTS / 4;
   API_CHECK_CU(cuCtxSynchronize());
   int fds_after = api_fd_count();
   size_t first = least(l->rss, q), last = least(l->rss + LEAK_CHECKPOINTS - q, q);
   size_t heap_first = least(l->heap, q), heap_last = least(l->heap + LEAK_CHECKPOINTS - q, q);
   size_t peak = 0;
   for (int i = 0; i < LEAK_CHECKPOINTS; i++)
      peak = API_MAX(peak, l->rss[i]);
   long long grown = (long long)last - (long long)first;
   long long heap_grown = (long long)heap_last - (long long)heap_first;

   printf("%s: %ld cycles in %.1f s; fds %d -> %d; least of the first and last quarters: ", l->what,
          l->cycles, api_now() - l->t0, l->fds_before, fds_after);
   /* ASan's allocator fills in no mallinfo2. */
   if (!LEAK_UNDER_ASAN)
      printf("malloc'ed %.2f -> %.2f MiB (%+.3f), ", heap_first / 1048576.0, heap_last / 1048576.0,
             heap_grown / 1048576.0);
   printf("resident %.1f -> %.1f MiB (%+.2f), peak %.1f MiB%s\n", first / 1048576.0, last / 1048576.0,
          grown / 1048576.0, peak / 1048576.0,
          LEAK_UNDER_ASAN ? "; under ASan, not checked against the bounds (LeakSanitizer checks)" : "");
   API_CHECK_MSG(fds_after == l->fds_before, "%s: %d file descriptors after the warm-up, %d after %ld cycles",
                 l->what, l->fds_before, fds_after, l->cycles);
   API_CHECK_MSG(first != SIZE_MAX && last != SIZE_MAX, "%s: too few cycles (%ld) to read the resident set",
                 l->what, l->cycles);
   if (LEAK_UNDER_ASAN)
      return;
   API_CHECK_MSG(heap_grown < (long long)HEAP_BOUND,
                 "%s: malloc'ed bytes grew by %lld from the first quarter of %ld cycles to the last "
                 "(bound %zu)", l->what, heap_grown, l->cycles, (size_t)HEAP_BOUND);
   API_CHECK_MSG(grown < (long long)l->rss_bound,
                 "%s: the resident set grew by %lld bytes from the first quarter of %ld cycles to the "
                 "last (bound %zu)", l->what, grown, l->cycles, l->rss_bound);
}

/* ---- cuMemAlloc / cuMemFree, cuMemAllocHost / cuMemFreeHost ---- */

/* stream: NULL for cuMemAlloc/cuMemFree, else a blocking stream that
 * cuMemAllocAsync/cuMemFreeAsync use (every third free is cuMemFree). */
static void
alloc_cycle(long i, uint64_t *rng, uint8_t *host, uint8_t *back, CUstream stream)
{
   /* Sizes from one byte to 2 MiB, so both sub-allocations of the block
    * heap and allocations of their own come and go. */
   size_t size = 1 + (size_t)(api_rand(rng) % (2 * API_MIB));
   CUdeviceptr d = 0;
   void *pinned = NULL;

   if (stream)
      API_REQUIRE_CU(cuMemAllocAsync(&d, size, stream));
   else
      API_REQUIRE_CU(cuMemAlloc(&d, size));
   /* Work left queued on the memory when it is freed: the free is
    * deferred until the work is done, and must still happen. */
   API_CHECK_CU(cuMemsetD8Async(d, (unsigned char)i, API_MIN(size, 4096), stream));
   if (i % 64 == 0) {
      size_t n = API_MIN(size, 64 * API_KIB);
      api_fill_random(host, n, (uint64_t)i);
      API_CHECK_CU(cuMemcpyHtoD(d, host, n));
      API_CHECK_CU(cuMemcpyDtoH(back, d, n));
      API_CHECK_BYTES(back, host, n, "cycle %ld: %zu bytes through a fresh allocation", i, n);
      API_CHECK_CU(cuMemAllocHost(&pinned, n));
      API_CHECK_CU(cuMemcpyDtoH(pinned, d, n));
      API_CHECK_BYTES(pinned, host, n, "cycle %ld: %zu bytes into fresh pinned memory", i, n);
      API_CHECK_CU(cuMemFreeHost(pinned));
   }
   if (stream && i % 3 != 0)
      API_REQUIRE_CU(cuMemFreeAsync(d, stream));
   else
      API_REQUIRE_CU(cuMemFree(d));
}

static void
alloc_free_loop(bool async)
{
   uint64_t rng = 1;
   uint8_t *host = api_xmalloc(64 * API_KIB), *back = api_xmalloc(64 * API_KIB);
   CUstream stream = NULL;

   if (async)
      API_REQUIRE_CU(cuStreamCreate(&stream, CU_STREAM_DEFAULT));
   for (long i = 0; i < WARMUP_CYCLES; i++)
      alloc_cycle(i, &rng, host, back, stream);
   struct leak_loop l;
   leak_loop_begin(&l, async ? "async alloc/free" : "alloc/free", RSS_BOUND + BLOCK_BYTES);
   for (long i = 0; i < l.cycles && !cuvk_test_failures(); i++) {
      alloc_cycle(i, &rng, host, back, stream);
      leak_loop_step(&l, i);
   }
   leak_loop_end(&l);
   if (async) {
      CUmemoryPool pool;
      cuuint64_t used = 1;
      API_CHECK_CU(cuStreamDestroy(stream));
      API_CHECK_CU(cuDeviceGetDefaultMemPool(&pool, 0));
      API_CHECK_CU(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &used));
      API_CHECK_MSG(used == 0, "the pool counts %llu bytes in use after every free", (unsigned long long)used);
   }
   free(host);
   free(back);
}

static void
loop_alloc_free(void)
{
   alloc_free_loop(false);
}

/* The same cycles through the stream-ordered allocator. */
static void
loop_alloc_free_async(void)
{
   alloc_free_loop(true);
}

/* ---- cuImportExternalMemory / map / free / cuDestroyExternalMemory ---- */

struct exporter {
   struct vkh vk;
   VkDeviceMemory memory;
   VkDeviceSize size;
};

static bool
exporter_init(struct exporter *e, const char *name)
{
   VkBuffer probe = VK_NULL_HANDLE;
   VkMemoryRequirements req;

   e->size = API_MIB;
   if (!vkh_init(&e->vk, name, NULL))
      return false;
   if (vkh_create_buffer(&e->vk, e->size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, VKH_OPAQUE_FD, &probe) != VK_SUCCESS)
      return false;
   vkGetBufferMemoryRequirements(e->vk.device, probe, &req);
   vkDestroyBuffer(e->vk.device, probe, NULL);
   int type = vkh_find_memory_type(&e->vk, req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
   return type >= 0 &&
          vkh_allocate(&e->vk, e->size, (uint32_t)type, VKH_OPAQUE_FD, VK_NULL_HANDLE, VK_NULL_HANDLE,
                       &e->memory) == VK_SUCCESS;
}

static void
exporter_finish(struct exporter *e)
{
   if (e->memory)
      vkFreeMemory(e->vk.device, e->memory, NULL);
   e->memory = VK_NULL_HANDLE;
   unsigned messages = vkh_finish(&e->vk);
   API_CHECK_MSG(messages == 0, "the exporter's device saw %u validation messages", messages);
}

static void
import_cycle(long i, struct exporter *e, const uint8_t *pattern, uint8_t *back)
{
   /* Each cycle exports a new fd of the same memory, which the import
    * then owns. */
   int fd = vkh_get_memory_fd(&e->vk, e->memory, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT);
   API_REQUIRE(fd >= 0);

   CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc;
   memset(&desc, 0, sizeof(desc));
   desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
   desc.handle.fd = fd;
   desc.size = e->size;
   CUexternalMemory ext = NULL;
   CUresult res = cuImportExternalMemory(&ext, &desc);
   if (res != CUDA_SUCCESS)
      close(fd);
   API_REQUIRE_CU(res);

   /* A mapping at a different offset each cycle. */
   CUDA_EXTERNAL_MEMORY_BUFFER_DESC buf;
   memset(&buf, 0, sizeof(buf));
   buf.offset = (unsigned long long)(i % 16) * 4096;
   buf.size = 64 * API_KIB;
   CUdeviceptr ptr = 0;
   API_CHECK_CU(cuExternalMemoryGetMappedBuffer(&ptr, ext, &buf));
   if (ptr && i % 64 == 0) {
      API_CHECK_CU(cuMemcpyDtoH(back, ptr, buf.size));
      API_CHECK_BYTES(back, pattern + buf.offset, buf.size, "cycle %ld: imported bytes at %llu", i,
                      buf.offset);
   }
   if (ptr)
      API_CHECK_CU(cuMemFree(ptr));
   API_REQUIRE_CU(cuDestroyExternalMemory(ext));
}

static void
loop_import_map(void)
{
   struct exporter e;
   memset(&e, 0, sizeof(e));
   uint8_t *pattern = NULL, *back = api_xmalloc(64 * API_KIB);

   if (!exporter_init(&e, "leak.loop.import_map")) {
      api_report(__FILE__, __LINE__, "the exporter could not be set up");
      exporter_finish(&e);
      free(back);
      return;
   }
   pattern = api_xmalloc(e.size);
   api_fill_random(pattern, e.size, 7);
   API_REQUIRE(vkh_write(&e.vk, e.memory, 0, pattern, e.size));

   for (long i = 0; i < WARMUP_CYCLES; i++)
      import_cycle(i, &e, pattern, back);
   struct leak_loop l;
   leak_loop_begin(&l, "import/map/free/destroy", RSS_BOUND);
   for (long i = 0; i < l.cycles && !cuvk_test_failures(); i++) {
      import_cycle(i, &e, pattern, back);
      leak_loop_step(&l, i);
   }
   leak_loop_end(&l);

   exporter_finish(&e);
   free(pattern);
   free(back);
}

/* ---- cuMemCreate / cuMemMap / cuMemUnmap / cuMemRelease ---- */

static void
vmm_cycle(long i, size_t granule, CUdeviceptr base)
{
   CUmemAllocationProp prop;
   memset(&prop, 0, sizeof(prop));
   prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
   prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
   prop.location.id = api_dev;
   CUmemAccessDesc access;
   memset(&access, 0, sizeof(access));
   access.location = prop.location;
   access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;

   /* Every fourth cycle also reserves and frees an address range of its
    * own; the others map into the loop's reservation, alternating halves. */
   bool own_range = i % 4 == 0;
   CUdeviceptr at = base + (size_t)(i & 1) * granule;
   if (own_range)
      API_REQUIRE_CU(cuMemAddressReserve(&at, granule, 0, 0, 0));

   CUmemGenericAllocationHandle handle = 0;
   API_REQUIRE_CU(cuMemCreate(&handle, granule, &prop, 0));
   API_REQUIRE_CU(cuMemMap(at, granule, 0, handle, 0));
   API_CHECK_CU(cuMemSetAccess(at, granule, &access, 1));
   API_CHECK_CU(cuMemsetD32Async(at, (unsigned)i, 1024, NULL));
   if (i % 64 == 0) {
      uint32_t word = 0;
      API_CHECK_CU(cuMemcpyDtoH(&word, at + 4 * 1023, 4));
      API_CHECK_MSG(word == (uint32_t)i, "cycle %ld: mapped memory reads 0x%x", i, word);
   }
   /* Half the cycles release the handle while it is still mapped (it goes
    * at the unmap), half after. */
   if (i % 2)
      API_CHECK_CU(cuMemRelease(handle));
   API_CHECK_CU(cuMemUnmap(at, granule));
   if (!(i % 2))
      API_CHECK_CU(cuMemRelease(handle));
   if (own_range)
      API_CHECK_CU(cuMemAddressFree(at, granule));
}

static void
loop_vmm(void)
{
   CUmemAllocationProp prop;
   size_t granule = 0;
   CUdeviceptr base = 0;

   memset(&prop, 0, sizeof(prop));
   prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
   prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
   prop.location.id = api_dev;
   API_REQUIRE_CU(cuMemGetAllocationGranularity(&granule, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
   API_REQUIRE_CU(cuMemAddressReserve(&base, 2 * granule, 0, 0, 0));

   for (long i = 0; i < WARMUP_CYCLES; i++)
      vmm_cycle(i, granule, base);
   struct leak_loop l;
   leak_loop_begin(&l, "VMM create/map/unmap/release", RSS_BOUND);
   for (long i = 0; i < l.cycles && !cuvk_test_failures(); i++) {
      vmm_cycle(i, granule, base);
      leak_loop_step(&l, i);
   }
   leak_loop_end(&l);
   API_CHECK_CU(cuMemAddressFree(base, 2 * granule));
}

/* ---- Semaphore import/destroy: comes with issue 11 ----
 *
 * The loop of cuImportExternalSemaphore / cuSignalExternalSemaphoresAsync /
 * cuWaitExternalSemaphoresAsync / cuDestroyExternalSemaphore belongs
 * here, as leak.loop.semaphore_import, built like loop_import_map: an
 * exporter's VkSemaphore exported as an OPAQUE_FD each cycle, the same
 * three checks.  It is added with the external semaphore work (issue 11);
 * until then cuvk has no such calls to loop over. */

/* ---- The check itself ---- */

/* A VkBuffer left alive at vkDestroyDevice must be reported by the
 * validation layer as it is installed here; the loops above rely on that
 * report to find Vulkan objects cuvk leaks. */
static void
meta_validation_reports_leaks(void)
{
   struct vkh vk;
   VkBuffer leaked = VK_NULL_HANDLE;

   API_REQUIRE(vkh_init(&vk, "leak.meta.validation_reports_leaks", NULL));
   unsigned before = vkh_message_count();
   /* The driver never frees the leaked buffer's memory. */
   vkh_deliberate_leak_begin();
   API_REQUIRE(vkh_create_buffer(&vk, 4096, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 0, &leaked) == VK_SUCCESS);
   printf("destroying the device with a VkBuffer alive; the validation layer must report it:\n");
   fflush(stdout);
   unsigned after = vkh_finish(&vk);
   vkh_deliberate_leak_end();
   API_CHECK_MSG(after > before,
                 "no validation message for a VkBuffer alive at vkDestroyDevice: leaks of Vulkan objects "
                 "would go unnoticed (is VK_LAYER_KHRONOS_validation enabled?)");
   printf("%u message(s): the leak was reported\n", after - before);
}

/* ---- cuMemPoolCreate / allocate / cuMemPoolDestroy ---- */

/* A pool created, allocated from, and destroyed each cycle: every other
 * cycle with its allocations still live (the pool then goes with their
 * frees), every third with a maxSize. */
static void
pool_cycle(long i, CUstream stream)
{
   CUmemPoolProps props;
   CUmemoryPool pool;
   CUdeviceptr d[2];

   memset(&props, 0, sizeof(props));
   props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
   props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
   props.maxSize = i % 3 == 0 ? 8 * API_MIB : 0;
   API_REQUIRE_CU(cuMemPoolCreate(&pool, &props));
   for (int k = 0; k < 2; k++) {
      API_REQUIRE_CU(cuMemAllocFromPoolAsync(&d[k], 4096 + (size_t)(i % 64) * 4096, pool, stream));
      API_CHECK_CU(cuMemsetD8Async(d[k], (unsigned char)i, 4096, stream));
   }
   if (i % 2)
      API_REQUIRE_CU(cuMemPoolDestroy(pool));
   for (int k = 0; k < 2; k++)
      API_REQUIRE_CU(cuMemFreeAsync(d[k], stream));
   if (i % 2 == 0)
      API_REQUIRE_CU(cuMemPoolDestroy(pool));
}

static void
loop_mempool(void)
{
   CUstream stream;

   API_REQUIRE_CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
   for (long i = 0; i < WARMUP_CYCLES; i++)
      pool_cycle(i, stream);
   struct leak_loop l;
   leak_loop_begin(&l, "pool create/alloc/destroy", RSS_BOUND);
   for (long i = 0; i < l.cycles && !cuvk_test_failures(); i++) {
      pool_cycle(i, stream);
      leak_loop_step(&l, i);
   }
   leak_loop_end(&l);
   API_CHECK_CU(cuStreamDestroy(stream));
}

static const struct api_case cases[] = {
   API_CASE("leak.loop.alloc_free", loop_alloc_free),
   API_CASE("leak.loop.alloc_free_async", loop_alloc_free_async),
   API_CASE("leak.loop.import_map", loop_import_map),
   API_CASE("leak.loop.vmm", loop_vmm),
   API_CASE("leak.loop.mempool", loop_mempool),
   API_CASE_NOINIT("leak.meta.validation_reports_leaks", meta_validation_reports_leaks),
};

API_MAIN(cases)
