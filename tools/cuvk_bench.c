/*
 * cuvk-bench: bandwidth and latency of cuvk's copies and fills, next to
 * the same Vulkan driver's own vkCmdCopyBuffer/vkCmdFillBuffer, a plain
 * host memcpy and, with --cuda-lib, NVIDIA's real libcuda running the very
 * same driver-API calls.
 *
 * Every figure is the median of per-run times.  A run is one operation and
 * the synchronisation that makes it complete (cuCtxSynchronize, a fence
 * wait), so small sizes measure latency and large ones bandwidth.  Each
 * size runs at least 3 times and for at least --min-time; operations far
 * shorter than the clock's resolution are timed in batches.
 */
#include "bench.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BENCH_DEFAULT_MAX_SIZE TOOL_GIB
#define BENCH_IMPORT_SIZE TOOL_MIB
#define BENCH_MEMSET_VALUE 0x5a5aa5a5u
#define BENCH_MIN_SAMPLES 3
#define BENCH_MAX_SAMPLES 5000
/* Shorter operations are repeated within one timed sample. */
#define BENCH_MIN_SAMPLE_S 20e-6

enum bench_id {
   BENCH_DTOD,
   BENCH_MEMSET,
   BENCH_HTOD_PINNED,
   BENCH_HTOD_PAGEABLE,
   BENCH_DTOH_PINNED,
   BENCH_DTOH_PAGEABLE,
   BENCH_LATENCY,
   BENCH_IMPORT,
   BENCH_SEAM,
   BENCH_SEMAPHORE,
   BENCH_KERNEL,
   BENCH_STREAMS,
   BENCH_ID_COUNT,
};

#define BIT(b) (1u << (b))

static const struct {
   const char *name;
   unsigned mask;
} bench_selectors[] = {
   { "dtod", BIT(BENCH_DTOD) },
   { "memset", BIT(BENCH_MEMSET) },
   { "htod", BIT(BENCH_HTOD_PINNED) | BIT(BENCH_HTOD_PAGEABLE) },
   { "dtoh", BIT(BENCH_DTOH_PINNED) | BIT(BENCH_DTOH_PAGEABLE) },
   { "htod-pinned", BIT(BENCH_HTOD_PINNED) },
   { "htod-pageable", BIT(BENCH_HTOD_PAGEABLE) },
   { "dtoh-pinned", BIT(BENCH_DTOH_PINNED) },
   { "dtoh-pageable", BIT(BENCH_DTOH_PAGEABLE) },
   { "latency", BIT(BENCH_LATENCY) },
   { "import", BIT(BENCH_IMPORT) },
   { "seam", BIT(BENCH_SEAM) },
   { "semaphore", BIT(BENCH_SEMAPHORE) },
   { "kernel", BIT(BENCH_KERNEL) },
   { "streams", BIT(BENCH_STREAMS) },
   { "all", BIT(BENCH_ID_COUNT) - 1 },
};

struct bench_options {
   uint64_t max_size;
   bool max_size_given;
   double min_time_s;
   double warmup_s;
   bool quick;
   bool cuda_first;
   const char *json_path;
   const char *cuda_lib;
   const char *cuvk_lib;
   int device;
   unsigned only;
};

struct bench_state {
   struct bench_options opt;
   struct bench_report *rep;
   /* [0] cuvk, [1] the real CUDA of --cuda-lib. */
   struct bench_cu cu[2];
   bool have_cuda;
   struct bench_vk vk;
   bool have_vk;
   struct bench_clock clock;
   uint64_t sizes[BENCH_MAX_ROWS];
   unsigned size_count;
   /* Host memcpy and memset per size, measured once and shown in every
    * table that compares with them. */
   bool host_copy_done, host_set_done;
   struct bench_result host_copy[BENCH_MAX_ROWS];
   struct bench_result host_set[BENCH_MAX_ROWS];
   unsigned failures;
};

/* ---- Timing ---- */

typedef bool (*bench_op_fn)(void *ctx);

static double
now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
cmp_double(const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return x < y ? -1 : x > y;
}

/*
 * Times op.  prepare, when given, runs before each op outside the timed
 * part (the import benchmark gets its fresh fd there), and forces one op
 * per sample.  Runs that are not part of the result come first, at least
 * two and for at least --warmup: the first pays for first touches and lazy
 * setup, and the rest give the GPU time to settle under this load after
 * whatever ran before.  The fastest warm-up run estimates what an op
 * takes, which sets the batch and sample counts.  The GPU clocks read
 * after the timed runs go with the result, since on an H200 they decided
 * whole tables.
 */
static bool
bench_measure(const struct bench_state *s, bench_op_fn op, bench_op_fn prepare, void *ctx,
              struct bench_result *out)
{
   double estimate = INFINITY;
   double *times;
   unsigned reps = 1, samples;

   memset(out, 0, sizeof(*out));
   double warm_start = now_s();
   for (unsigned i = 0; i < 2 || now_s() - warm_start < s->opt.warmup_s; i++) {
      if (prepare && !prepare(ctx))
         return false;
      double t0 = now_s();
      if (!op(ctx))
         return false;
      estimate = TOOL_MIN(estimate, now_s() - t0);
   }
   estimate = TOOL_MAX(estimate, 1e-9);
   if (!prepare && estimate < BENCH_MIN_SAMPLE_S)
      reps = (unsigned)ceil(BENCH_MIN_SAMPLE_S / estimate);
   samples = (unsigned)ceil(s->opt.min_time_s / (estimate * reps));
   samples = TOOL_MIN(TOOL_MAX(samples, BENCH_MIN_SAMPLES), BENCH_MAX_SAMPLES);

   times = malloc(samples * sizeof(*times));
   if (!times)
      return false;
   for (unsigned i = 0; i < samples; i++) {
      if (prepare && !prepare(ctx))
         goto fail;
      double t0 = now_s();
      for (unsigned r = 0; r < reps; r++)
         if (!op(ctx))
            goto fail;
      times[i] = (now_s() - t0) / reps;
   }
   qsort(times, samples, sizeof(*times), cmp_double);
   out->median_s = samples % 2 ? times[samples / 2]
                               : 0.5 * (times[samples / 2 - 1] + times[samples / 2]);
   out->min_s = times[0];
   bench_clock_read(&s->clock, out);
   out->samples = samples;
   out->reps = reps;
   out->valid = true;
   free(times);
   return true;

fail:
   free(times);
   return false;
}

/* Which of s->cu the i-th measurement of a table uses: cuvk first unless
 * --cuda-first, which checks that the order does not favour either. */
static int
bench_cu_index(const struct bench_state *s, int i)
{
   return s->opt.cuda_first ? 1 - i : i;
}

/* ---- Operations ---- */

struct op_ctx {
   struct bench_cu *cu;
   struct bench_vk *vk;
   CUdeviceptr dsrc, ddst;
   void *hsrc, *hdst;
   size_t size;
   /* Vulkan: the buffers a size's command buffer is recorded with, and
    * the mapped staging word of the latency test. */
   const struct bench_vk_buffer *vsrc, *vdst;
   volatile uint32_t *word;
   uint32_t counter;
   /* Import. */
   const struct bench_vk_buffer *exported;
   int fd;
   /* Seam: the address where two cuMemMap mappings meet. */
   CUdeviceptr seam;
};

static bool
op_cu_dtod(void *p)
{
   struct op_ctx *c = p;
   return bench_cu_ok(c->cu, c->cu->MemcpyDtoD(c->ddst, c->dsrc, c->size), "cuMemcpyDtoD") &&
          bench_cu_ok(c->cu, c->cu->CtxSynchronize(), "cuCtxSynchronize");
}

/* A copy whose source straddles the seam between two mappings, half of
 * it on each side. */
static bool
op_cu_seam_dtod(void *p)
{
   struct op_ctx *c = p;
   CUdeviceptr src = c->seam - c->size / 2;
   return bench_cu_ok(c->cu, c->cu->MemcpyDtoD(c->ddst, src, c->size), "cuMemcpyDtoD") &&
          bench_cu_ok(c->cu, c->cu->CtxSynchronize(), "cuCtxSynchronize");
}

static bool
op_cu_memset(void *p)
{
   struct op_ctx *c = p;
   return bench_cu_ok(c->cu, c->cu->MemsetD32(c->ddst, BENCH_MEMSET_VALUE, c->size / 4), "cuMemsetD32") &&
          bench_cu_ok(c->cu, c->cu->CtxSynchronize(), "cuCtxSynchronize");
}

static bool
op_cu_htod(void *p)
{
   struct op_ctx *c = p;
   return bench_cu_ok(c->cu, c->cu->MemcpyHtoD(c->ddst, c->hsrc, c->size), "cuMemcpyHtoD") &&
          bench_cu_ok(c->cu, c->cu->CtxSynchronize(), "cuCtxSynchronize");
}

/* cuMemcpyDtoH returns with the data in host memory: nothing to wait for. */
static bool
op_cu_dtoh(void *p)
{
   struct op_ctx *c = p;
   return bench_cu_ok(c->cu, c->cu->MemcpyDtoH(c->hdst, c->dsrc, c->size), "cuMemcpyDtoH");
}

static bool
op_vk_submit(void *p)
{
   struct op_ctx *c = p;
   return bench_vk_submit_wait(c->vk);
}

/* A 4-byte upload the Vulkan way: store into mapped staging memory, copy
 * to the device buffer, wait. */
static bool
op_vk_upload_word(void *p)
{
   struct op_ctx *c = p;
   *c->word = ++c->counter;
   return bench_vk_submit_wait(c->vk);
}

static bool
op_vk_download_word(void *p)
{
   struct op_ctx *c = p;
   if (!bench_vk_submit_wait(c->vk))
      return false;
   c->counter += *c->word;
   return true;
}

static bool
op_host_memcpy(void *p)
{
   struct op_ctx *c = p;
   memcpy(c->hdst, c->hsrc, c->size);
   /* The destination escapes, so the copy cannot be dropped. */
   __asm__ __volatile__("" : : "r"(c->hdst) : "memory");
   return true;
}

static bool
op_host_memset(void *p)
{
   struct op_ctx *c = p;
   memset(c->hdst, (int)(BENCH_MEMSET_VALUE & 0xff), c->size);
   __asm__ __volatile__("" : : "r"(c->hdst) : "memory");
   return true;
}

static bool
op_import_prepare(void *p)
{
   struct op_ctx *c = p;
   if (c->fd >= 0)
      close(c->fd);
   c->fd = bench_vk_export_fd(c->vk, c->exported);
   return c->fd >= 0;
}

static CUresult
cu_import(struct bench_cu *cu, const struct bench_vk_buffer *b, int fd, CUexternalMemory *ext)
{
   CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc = {
      .type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD,
      .handle.fd = fd,
      .size = b->allocation_size,
      .flags = b->dedicated ? CUDA_EXTERNAL_MEMORY_DEDICATED : 0,
   };
   return cu->ImportExternalMemory(ext, &desc);
}

static CUresult
cu_map(struct bench_cu *cu, CUexternalMemory ext, uint64_t offset, uint64_t size, CUdeviceptr *out)
{
   CUDA_EXTERNAL_MEMORY_BUFFER_DESC desc = { .offset = offset, .size = size };
   return cu->ExternalMemoryGetMappedBuffer(out, ext, &desc);
}

/* The whole life of an imported buffer, as an interop application that
 * imports per frame would pay it. */
static bool
op_cu_import_cycle(void *p)
{
   struct op_ctx *c = p;
   CUexternalMemory ext = NULL;
   CUdeviceptr ptr = 0;

   /* On success the fd belongs to the driver. */
   if (!bench_cu_ok(c->cu, cu_import(c->cu, c->exported, c->fd, &ext), "cuImportExternalMemory"))
      return false;
   c->fd = -1;
   bool ok = bench_cu_ok(c->cu, cu_map(c->cu, ext, 0, BENCH_IMPORT_SIZE, &ptr),
                         "cuExternalMemoryGetMappedBuffer");
   if (ok)
      ok = bench_cu_ok(c->cu, c->cu->MemFree(ptr), "cuMemFree");
   ok &= bench_cu_ok(c->cu, c->cu->DestroyExternalMemory(ext), "cuDestroyExternalMemory");
   return ok;
}

/* The driver's floor for the cycle above: the same fd imported by the
 * tool's own VkDevice into a buffer, then freed. */
static bool
op_vk_import_cycle(void *p)
{
   struct op_ctx *c = p;
   int fd = c->fd;
   c->fd = -1;
   return bench_vk_import_cycle(c->vk, c->exported, fd);
}

/* ---- Tables ---- */

static struct bench_table *
table_begin(struct bench_state *s, const char *id, const char *title, enum bench_kind kind,
            unsigned bytes_factor, const char *counted)
{
   struct bench_report *rep = s->rep;
   if (rep->table_count >= BENCH_MAX_TABLES)
      return NULL;
   struct bench_table *t = &rep->tables[rep->table_count++];
   memset(t, 0, sizeof(*t));
   t->id = id;
   t->title = title;
   t->kind = kind;
   t->bytes_factor = bytes_factor;
   t->counted = counted;
   if (kind == BENCH_KIND_BANDWIDTH) {
      t->row_count = s->size_count;
      for (unsigned i = 0; i < s->size_count; i++)
         t->rows[i].size = s->sizes[i];
   }
   return t;
}

static void
table_add_row(struct bench_table *t, const char *label, uint64_t size)
{
   if (t->row_count >= BENCH_MAX_ROWS)
      return;
   struct bench_row *row = &t->rows[t->row_count++];
   snprintf(row->label, sizeof(row->label), "%s", label);
   row->size = size;
}

static void
progress(const struct bench_state *s, const char *id, const char *impl)
{
   if (isatty(STDERR_FILENO))
      fprintf(stderr, "\r\033[K  running %s: %s ...", id, impl);
}

static void
progress_done(void)
{
   if (isatty(STDERR_FILENO))
      fprintf(stderr, "\r\033[K");
}

/* Runs op for every row of t not bigger than limit, into column impl.  A
 * failure ends the column: the next sizes would fail the same way. */
static void
run_rows(struct bench_state *s, struct bench_table *t, enum bench_impl impl, uint64_t limit,
         struct op_ctx *c, bench_op_fn op, bool (*record)(struct bench_state *, struct op_ctx *))
{
   for (unsigned i = 0; i < t->row_count; i++) {
      if (t->rows[i].size > limit)
         break;
      c->size = (size_t)t->rows[i].size;
      if ((record && !record(s, c)) || !bench_measure(s, op, NULL, c, &t->rows[i].r[impl])) {
         char size[32];
         tool_format_size(t->rows[i].size, size, sizeof(size));
         bench_table_note(t, "%s failed at %s (see the messages above)", bench_impl_names[impl], size);
         s->failures++;
         break;
      }
   }
}

/* The host column: one measurement per size, shared by all tables. */
static void
run_host(struct bench_state *s, struct bench_table *t, bool set)
{
   struct bench_result *cache = set ? s->host_set : s->host_copy;
   bool *done = set ? &s->host_set_done : &s->host_copy_done;
   uint64_t max = s->sizes[s->size_count - 1];

   if (!*done) {
      struct op_ctx c = { 0 };
      progress(s, t->id, set ? "host memset" : "host memcpy");
      c.hsrc = set ? NULL : malloc(max);
      c.hdst = malloc(max);
      if (c.hdst && (set || c.hsrc)) {
         if (c.hsrc)
            memset(c.hsrc, 1, max);
         memset(c.hdst, 2, max);
         for (unsigned i = 0; i < s->size_count; i++) {
            c.size = s->sizes[i];
            bench_measure(s, set ? op_host_memset : op_host_memcpy, NULL, &c, &cache[i]);
         }
      } else {
         bench_table_note(t, "host: out of memory for two buffers of %" PRIu64 " bytes", max);
         s->failures++;
      }
      free(c.hsrc);
      free(c.hdst);
      *done = true;
   }
   for (unsigned i = 0; i < t->row_count && i < s->size_count; i++)
      t->rows[i].r[BENCH_IMPL_HOST] = cache[i];
}

/* Device memory for a benchmark, its contents set so no page is first
 * touched while timed. */
/* Pseudo-random bytes (xorshift64), the same for every implementation.
 * Copies are measured on data no memory compression can shrink: a GPU
 * that compresses some kinds of memory would copy a constant faster than
 * real data (docs/design.md). */
static void
fill_random(void *p, size_t size, uint64_t seed)
{
   uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1, w;
   uint8_t *b = p;
   size_t i = 0;

   for (; i + 8 <= size; i += 8) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      memcpy(b + i, &x, 8);
   }
   for (w = x; i < size; i++, w >>= 8)
      b[i] = (uint8_t)w;
}

#define BENCH_UPLOAD_CHUNK (64ull << 20)

/* Fills device memory with fill_random's bytes, a chunk at a time. */
static bool
upload_random(struct bench_cu *cu, CUdeviceptr dst, uint64_t size)
{
   size_t chunk = (size_t)TOOL_MIN(size, BENCH_UPLOAD_CHUNK);
   uint8_t *buf = malloc(chunk ? chunk : 1);
   bool ok = buf != NULL;

   for (uint64_t off = 0; ok && off < size; off += chunk) {
      size_t len = (size_t)TOOL_MIN(size - off, (uint64_t)chunk);
      fill_random(buf, len, off / chunk + 1);
      ok = bench_cu_ok(cu, cu->MemcpyHtoD(dst + off, buf, len), "cuMemcpyHtoD");
   }
   free(buf);
   return ok && bench_cu_ok(cu, cu->CtxSynchronize(), "cuCtxSynchronize");
}

static bool
cu_alloc_device(struct bench_state *s, struct bench_table *t, struct bench_cu *cu, uint64_t size,
                CUdeviceptr *out)
{
   char what[64], sz[32];
   tool_format_size(size, sz, sizeof(sz));
   snprintf(what, sizeof(what), "cuMemAlloc(%s)", sz);
   *out = 0;
   if (!bench_cu_ok(cu, cu->MemAlloc(out, size), what)) {
      bench_table_note(t, "%s: %s failed", cu->label, what);
      s->failures++;
      *out = 0;
      return false;
   }
   if (!upload_random(cu, *out, size)) {
      s->failures++;
      return false;
   }
   return true;
}

static bool
cu_alloc_host(struct bench_state *s, struct bench_table *t, struct bench_cu *cu, bool pinned,
              uint64_t size, void **out)
{
   char sz[32];
   tool_format_size(size, sz, sizeof(sz));
   *out = NULL;
   if (pinned) {
      if (!bench_cu_ok(cu, cu->MemAllocHost(out, size), "cuMemAllocHost")) {
         bench_table_note(t, "%s: cuMemAllocHost(%s) failed", cu->label, sz);
         s->failures++;
         *out = NULL;
         return false;
      }
   } else {
      *out = malloc(size);
      if (!*out) {
         bench_table_note(t, "out of host memory for %s", sz);
         s->failures++;
         return false;
      }
   }
   fill_random(*out, size, 3);
   return true;
}

static void
cu_free_host(struct bench_cu *cu, bool pinned, void *p)
{
   if (!p)
      return;
   if (pinned)
      cu->MemFreeHost(p);
   else
      free(p);
}

static bool
record_vk_copy(struct bench_state *s, struct op_ctx *c)
{
   return bench_vk_record_copy(&s->vk, c->vsrc, 0, c->vdst, 0, c->size);
}

static bool
record_vk_fill(struct bench_state *s, struct op_ctx *c)
{
   return bench_vk_record_fill(&s->vk, c->vdst, c->size, BENCH_MEMSET_VALUE);
}

/* A size-sweep benchmark: which side each buffer is on, and what the
 * Vulkan baseline does (NULL: Vulkan has no counterpart). */
struct bench_sweep {
   const char *id;
   const char *title;
   unsigned factor;
   const char *counted;
   bool src_device, dst_device, host_pinned;
   const char *vk_what;
   bool memset;
};

/* One of the size-sweep benchmarks: DtoD, memset, HtoD and DtoH. */
static void
bench_bandwidth(struct bench_state *s, enum bench_id id)
{
   static const struct bench_sweep desc[] = {
      [BENCH_DTOD] = { "dtod", "cuMemcpyDtoD + cuCtxSynchronize", 2, "bytes read + written (2 x size)",
                       true, true, false, "vkCmdCopyBuffer, device-local to device-local", false },
      [BENCH_MEMSET] = { "memset", "cuMemsetD32 + cuCtxSynchronize", 1, "bytes written",
                         false, true, false, "vkCmdFillBuffer, device-local", true },
      [BENCH_HTOD_PINNED] = { "htod-pinned", "cuMemcpyHtoD from cuMemAllocHost memory + cuCtxSynchronize",
                              1, "bytes moved", false, true, true,
                              "vkCmdCopyBuffer, host-visible staging to device-local", false },
      [BENCH_HTOD_PAGEABLE] = { "htod-pageable", "cuMemcpyHtoD from malloc memory + cuCtxSynchronize",
                                1, "bytes moved", false, true, false, NULL, false },
      [BENCH_DTOH_PINNED] = { "dtoh-pinned", "cuMemcpyDtoH to cuMemAllocHost memory", 1, "bytes moved",
                              true, false, true,
                              "vkCmdCopyBuffer, device-local to host-visible staging", false },
      [BENCH_DTOH_PAGEABLE] = { "dtoh-pageable", "cuMemcpyDtoH to malloc memory", 1, "bytes moved",
                                true, false, false, NULL, false },
   };
   const struct bench_sweep *d = &desc[id];
   uint64_t max = s->sizes[s->size_count - 1];

   struct bench_table *t = table_begin(s, d->id, d->title, BENCH_KIND_BANDWIDTH, d->factor, d->counted);
   if (!t)
      return;
   t->impl_what[BENCH_IMPL_CUVK] = "cuvk";
   t->impl_what[BENCH_IMPL_CUDA] = "--cuda-lib, the same calls";
   t->impl_what[BENCH_IMPL_VULKAN] = s->have_vk ? d->vk_what : NULL;
   t->impl_what[BENCH_IMPL_HOST] = d->memset ? "memset, one thread"
                                             : id == BENCH_DTOD ? "memcpy, one thread, counted as DtoD"
                                                                : "memcpy, one thread";

   bench_op_fn cu_op = id == BENCH_DTOD ? op_cu_dtod
                     : id == BENCH_MEMSET ? op_cu_memset
                     : d->dst_device ? op_cu_htod : op_cu_dtoh;

   for (int i = 0; i < 2; i++) {
      int k = bench_cu_index(s, i);
      struct bench_cu *cu = &s->cu[k];
      enum bench_impl impl = k ? BENCH_IMPL_CUDA : BENCH_IMPL_CUVK;
      struct op_ctx c = { .cu = cu, .fd = -1 };

      if (k && !s->have_cuda)
         continue;
      progress(s, t->id, cu->label);
      if (d->src_device && !cu_alloc_device(s, t, cu, max, &c.dsrc))
         goto cu_done;
      if (d->dst_device && !cu_alloc_device(s, t, cu, max, &c.ddst))
         goto cu_done;
      if (!d->src_device && !d->memset && !cu_alloc_host(s, t, cu, d->host_pinned, max, &c.hsrc))
         goto cu_done;
      if (!d->dst_device && !cu_alloc_host(s, t, cu, d->host_pinned, max, &c.hdst))
         goto cu_done;
      run_rows(s, t, impl, max, &c, cu_op, NULL);
   cu_done:
      if (c.dsrc)
         cu->MemFree(c.dsrc);
      if (c.ddst)
         cu->MemFree(c.ddst);
      cu_free_host(cu, d->host_pinned, c.hsrc);
      cu_free_host(cu, d->host_pinned, c.hdst);
   }

   if (t->impl_what[BENCH_IMPL_VULKAN]) {
      struct bench_vk_buffer src = { 0 }, dst = { 0 };
      struct op_ctx c = { .vk = &s->vk, .vsrc = &src, .vdst = &dst, .fd = -1 };

      progress(s, t->id, "Vulkan");
      bool ok = bench_vk_buffer_create(&s->vk, max, d->dst_device ? BENCH_VK_DEVICE : BENCH_VK_STAGING,
                                       false, &dst);
      if (ok && !d->memset)
         ok = bench_vk_buffer_create(&s->vk, max, d->src_device ? BENCH_VK_DEVICE : BENCH_VK_STAGING,
                                     false, &src);
      if (ok)
         run_rows(s, t, BENCH_IMPL_VULKAN, max, &c, op_vk_submit,
                  d->memset ? record_vk_fill : record_vk_copy);
      else {
         bench_table_note(t, "Vulkan: cannot create the buffers of %" PRIu64 " bytes", max);
         s->failures++;
      }
      bench_vk_buffer_destroy(&s->vk, &src);
      bench_vk_buffer_destroy(&s->vk, &dst);
   }

   progress(s, t->id, "host");
   run_host(s, t, d->memset);
   progress_done();
}

/* ---- DtoD across a virtual-memory seam ---- */

/* Two cuMemCreate allocations mapped side by side in one reservation; the
 * source of each copy straddles the seam between them. */
static bool
seam_setup(struct bench_state *s, struct bench_table *t, struct bench_cu *cu, uint64_t max,
           CUdeviceptr *va, size_t *reserved, CUmemGenericAllocationHandle handles[2])
{
   CUmemAllocationProp prop = {
      .type = CU_MEM_ALLOCATION_TYPE_PINNED,
      .location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = cu->device },
   };
   CUmemAccessDesc access = { .location = prop.location, .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
   size_t gran = 0;

   if (!bench_cu_ok(cu, cu->MemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED),
                    "cuMemGetAllocationGranularity"))
      return false;
   size_t half = (size_t)((max / 2 + gran - 1) / gran * gran);
   if (half == 0)
      half = gran;
   *reserved = 2 * half;
   if (!bench_cu_ok(cu, cu->MemAddressReserve(va, *reserved, 0, 0, 0), "cuMemAddressReserve"))
      return false;
   for (int i = 0; i < 2; i++) {
      if (!bench_cu_ok(cu, cu->MemCreate(&handles[i], half, &prop, 0), "cuMemCreate") ||
          !bench_cu_ok(cu, cu->MemMap(*va + i * half, half, 0, handles[i], 0), "cuMemMap"))
         return false;
   }
   if (!bench_cu_ok(cu, cu->MemSetAccess(*va, *reserved, &access, 1), "cuMemSetAccess") ||
       !upload_random(cu, *va, *reserved))
      return false;
   bench_table_note(t, "%s: two mappings of %zu bytes, granularity %zu", cu->label, half, gran);
   return true;
}

static void
bench_seam(struct bench_state *s)
{
   uint64_t max = s->sizes[s->size_count - 1];
   struct bench_table *t = table_begin(s, "seam", "cuMemcpyDtoD whose source crosses two cuMemMap mappings",
                                       BENCH_KIND_BANDWIDTH, 2, "bytes read + written (2 x size)");
   if (!t)
      return;
   t->impl_what[BENCH_IMPL_CUVK] = "cuvk";
   t->impl_what[BENCH_IMPL_CUDA] = "--cuda-lib, the same calls";

   for (int i = 0; i < 2; i++) {
      int k = bench_cu_index(s, i);
      struct bench_cu *cu = &s->cu[k];
      enum bench_impl impl = k ? BENCH_IMPL_CUDA : BENCH_IMPL_CUVK;
      struct op_ctx c = { .cu = cu, .fd = -1 };
      CUmemGenericAllocationHandle handles[2] = { 0, 0 };
      CUdeviceptr va = 0;
      size_t reserved = 0;

      if (k && !s->have_cuda)
         continue;
      if (!bench_cu_has_vmm(cu)) {
         bench_table_note(t, "%s: no virtual memory calls; skipped", cu->label);
         continue;
      }
      progress(s, t->id, cu->label);
      if (seam_setup(s, t, cu, max, &va, &reserved, handles) && cu_alloc_device(s, t, cu, max, &c.ddst)) {
         c.seam = va + reserved / 2;
         run_rows(s, t, impl, max, &c, op_cu_seam_dtod, NULL);
      } else {
         bench_table_note(t, "%s: setting up the mappings failed", cu->label);
         s->failures++;
      }
      if (c.ddst)
         cu->MemFree(c.ddst);
      if (va) {
         cu->MemUnmap(va, reserved);
         cu->MemAddressFree(va, reserved);
      }
      for (int h = 0; h < 2; h++)
         if (handles[h])
            cu->MemRelease(handles[h]);
   }
   progress_done();
}

/* ---- Latency ---- */

static void
bench_latency(struct bench_state *s)
{
   struct bench_table *t = table_begin(s, "latency", "4-byte transfers, one at a time", BENCH_KIND_LATENCY, 1, NULL);
   if (!t)
      return;
   t->impl_what[BENCH_IMPL_CUVK] = "cuvk";
   t->impl_what[BENCH_IMPL_CUDA] = "--cuda-lib, the same calls";
   t->impl_what[BENCH_IMPL_VULKAN] = s->have_vk ? "vkCmdCopyBuffer through mapped staging memory, "
                                                  "reused command buffer, fence wait"
                                                : NULL;
   table_add_row(t, "HtoD 4 B + sync", 4);
   table_add_row(t, "DtoH 4 B", 4);

   for (int i = 0; i < 2; i++) {
      int k = bench_cu_index(s, i);
      struct bench_cu *cu = &s->cu[k];
      enum bench_impl impl = k ? BENCH_IMPL_CUDA : BENCH_IMPL_CUVK;
      uint32_t word = 0x12345678;
      struct op_ctx c = { .cu = cu, .size = 4, .hsrc = &word, .hdst = &word, .fd = -1 };

      if (k && !s->have_cuda)
         continue;
      progress(s, t->id, cu->label);
      if (!bench_cu_ok(cu, cu->MemAlloc(&c.ddst, 4), "cuMemAlloc")) {
         s->failures++;
         continue;
      }
      c.dsrc = c.ddst;
      if (!bench_measure(s, op_cu_htod, NULL, &c, &t->rows[0].r[impl]) ||
          !bench_measure(s, op_cu_dtoh, NULL, &c, &t->rows[1].r[impl])) {
         bench_table_note(t, "%s failed (see the messages above)", cu->label);
         s->failures++;
      }
      cu->MemFree(c.ddst);
   }

   if (s->have_vk) {
      struct bench_vk_buffer staging = { 0 }, dev = { 0 };
      struct op_ctx c = { .vk = &s->vk, .fd = -1 };

      progress(s, t->id, "Vulkan");
      if (bench_vk_buffer_create(&s->vk, 4, BENCH_VK_STAGING, false, &staging) &&
          bench_vk_buffer_create(&s->vk, 4, BENCH_VK_DEVICE, false, &dev)) {
         c.word = staging.map;
         if (!bench_vk_record_copy(&s->vk, &staging, 0, &dev, 0, 4) ||
             !bench_measure(s, op_vk_upload_word, NULL, &c, &t->rows[0].r[BENCH_IMPL_VULKAN]) ||
             !bench_vk_record_copy(&s->vk, &dev, 0, &staging, 0, 4) ||
             !bench_measure(s, op_vk_download_word, NULL, &c, &t->rows[1].r[BENCH_IMPL_VULKAN])) {
            bench_table_note(t, "Vulkan failed (see the messages above)");
            s->failures++;
         }
      }
      bench_vk_buffer_destroy(&s->vk, &staging);
      bench_vk_buffer_destroy(&s->vk, &dev);
   }
   progress_done();
}

/* ---- Import ---- */

static bool
import_usable(struct bench_state *s, struct bench_table *t, struct bench_cu *cu)
{
   if (bench_cu_has_import(cu))
      return true;
   bench_table_note(t, "%s: %s does not export cuImportExternalMemory, "
                    "cuExternalMemoryGetMappedBuffer and cuDestroyExternalMemory: skipped",
                    cu->label, cu->path);
   return false;
}

static void
bench_import(struct bench_state *s)
{
   char label[64], sz[32];
   struct bench_vk_buffer small = { 0 }, big = { 0 };
   uint64_t max = s->sizes[s->size_count - 1];
   /* The imported DtoD copies between the two halves of one export. */
   uint64_t half = TOOL_MIN(max, s->opt.quick ? TOOL_MIB : 256 * TOOL_MIB);

   struct bench_table *t = table_begin(s, "import", "interop: import an OPAQUE_FD from the tool's VkDevice",
                                       BENCH_KIND_LATENCY, 1, NULL);
   if (!t)
      return;
   const char *what = "cuImportExternalMemory + cuExternalMemoryGetMappedBuffer + cuMemFree + "
                      "cuDestroyExternalMemory; vkGetMemoryFdKHR for a fresh fd each run, not timed";
   t->impl_what[BENCH_IMPL_CUVK] = what;
   t->impl_what[BENCH_IMPL_CUDA] = what;
   t->impl_what[BENCH_IMPL_VULKAN] = s->have_vk && s->vk.can_export ?
      "vkAllocateMemory importing the same fd + vkCreateBuffer + vkBindBufferMemory + vkDestroyBuffer + "
      "vkFreeMemory, on the tool's own VkDevice" : NULL;
   tool_format_size(BENCH_IMPORT_SIZE, sz, sizeof(sz));
   snprintf(label, sizeof(label), "import cycle, %s", sz);
   table_add_row(t, label, BENCH_IMPORT_SIZE);

   struct bench_table *bw = table_begin(s, "dtod-imported",
                                        "cuMemcpyDtoD + cuCtxSynchronize between two buffers mapped "
                                        "from one imported allocation",
                                        BENCH_KIND_BANDWIDTH, 2, "bytes read + written (2 x size)");
   if (bw) {
      bw->impl_what[BENCH_IMPL_CUVK] = "cuvk";
      bw->impl_what[BENCH_IMPL_CUDA] = "--cuda-lib, the same calls";
      bw->impl_what[BENCH_IMPL_VULKAN] = "vkCmdCopyBuffer between the halves of the exported buffer";
      while (bw->row_count && bw->rows[bw->row_count - 1].size > half)
         bw->row_count--;
   }

   if (!s->have_vk || !s->vk.can_export) {
      bench_table_note(t, "the tool's Vulkan device cannot export OPAQUE_FD memory: skipped");
      if (bw)
         bench_table_note(bw, "the tool's Vulkan device cannot export OPAQUE_FD memory: skipped");
      return;
   }
   if (!bench_vk_buffer_create(&s->vk, BENCH_IMPORT_SIZE, BENCH_VK_DEVICE, true, &small)) {
      bench_table_note(t, "cannot allocate exportable Vulkan memory: skipped");
      s->failures++;
      goto out;
   }
   if (bw && !bench_vk_buffer_create(&s->vk, 2 * half, BENCH_VK_DEVICE, true, &big)) {
      bench_table_note(bw, "cannot allocate %" PRIu64 " bytes of exportable Vulkan memory: skipped",
                       2 * half);
      s->failures++;
      bw = NULL;
   }
   /* Without the layer in this process cuvk imports with its own guess of
    * the exporter's memory type, and says so once on stderr. */
   const char *layers = getenv("VK_INSTANCE_LAYERS");
   if (!layers || !strstr(layers, "VK_LAYER_CUVK_interop"))
      bench_table_note(t, "VK_LAYER_CUVK_interop is not in VK_INSTANCE_LAYERS: cuvk imports "
                       "without the exporter's record of the allocation");

   {
      struct op_ctx c = { .vk = &s->vk, .exported = &small, .fd = -1 };
      progress(s, t->id, "Vulkan");
      if (!bench_measure(s, op_vk_import_cycle, op_import_prepare, &c, &t->rows[0].r[BENCH_IMPL_VULKAN])) {
         bench_table_note(t, "the Vulkan import cycle failed (see the messages above)");
         s->failures++;
      }
      if (c.fd >= 0)
         close(c.fd);
   }
   for (int i = 0; i < 2; i++) {
      int k = bench_cu_index(s, i);
      struct bench_cu *cu = &s->cu[k];
      enum bench_impl impl = k ? BENCH_IMPL_CUDA : BENCH_IMPL_CUVK;
      struct op_ctx c = { .cu = cu, .vk = &s->vk, .exported = &small, .fd = -1 };

      if ((k && !s->have_cuda) || !import_usable(s, t, cu))
         continue;
      progress(s, t->id, cu->label);
      if (!bench_measure(s, op_cu_import_cycle, op_import_prepare, &c, &t->rows[0].r[impl])) {
         bench_table_note(t, "%s failed (see the messages above)", cu->label);
         s->failures++;
      }
      if (c.fd >= 0)
         close(c.fd);

      if (!bw)
         continue;
      CUexternalMemory ext = NULL;
      int fd = bench_vk_export_fd(&s->vk, &big);
      if (fd < 0) {
         s->failures++;
         continue;
      }
      if (!bench_cu_ok(cu, cu_import(cu, &big, fd, &ext), "cuImportExternalMemory")) {
         close(fd);
         bench_table_note(bw, "%s: cuImportExternalMemory failed", cu->label);
         s->failures++;
         continue;
      }
      c.exported = &big;
      if (bench_cu_ok(cu, cu_map(cu, ext, 0, half, &c.dsrc), "cuExternalMemoryGetMappedBuffer") &&
          bench_cu_ok(cu, cu_map(cu, ext, half, half, &c.ddst), "cuExternalMemoryGetMappedBuffer") &&
          upload_random(cu, c.dsrc, half))
         run_rows(s, bw, impl, half, &c, op_cu_dtod, NULL);
      else
         s->failures++;
      if (c.dsrc)
         cu->MemFree(c.dsrc);
      if (c.ddst)
         cu->MemFree(c.ddst);
      cu->DestroyExternalMemory(ext);
   }

   if (bw) {
      progress(s, bw->id, "Vulkan");
      for (unsigned i = 0; i < bw->row_count; i++) {
         struct op_ctx c = { .vk = &s->vk, .fd = -1 };
         if (!bench_vk_record_copy(&s->vk, &big, 0, &big, half, bw->rows[i].size) ||
             !bench_measure(s, op_vk_submit, NULL, &c, &bw->rows[i].r[BENCH_IMPL_VULKAN])) {
            bench_table_note(bw, "Vulkan failed (see the messages above)");
            s->failures++;
            break;
         }
      }
   }

out:
   progress_done();
   bench_vk_buffer_destroy(&s->vk, &small);
   bench_vk_buffer_destroy(&s->vk, &big);
}

/* ---- Semaphores ---- */

/*
 * The handoffs of issue 11's speed table, each a whole round trip timed
 * from the host: a CUDA stream and the tool's Vulkan device share
 * semaphores the device exported (on lavapipe through
 * VK_LAYER_CUVK_interop, which provides the export).  Every
 * implementation gets semaphores of its own, so timeline values never
 * meet.
 */
enum sem_row {
   SEM_ROW_SIGNAL_HOST_SEES,
   SEM_ROW_HOST_SIGNAL_CUDA_WAITS,
   SEM_ROW_PING_PONG_TIMELINE,
   SEM_ROW_PING_PONG_BINARY,
   SEM_ROW_IMPORT_DESTROY,
   SEM_ROW_COUNT,
};

static const char *const sem_row_labels[SEM_ROW_COUNT] = {
   [SEM_ROW_SIGNAL_HOST_SEES] = "CUDA timeline signal -> host sees counter",
   [SEM_ROW_HOST_SIGNAL_CUDA_WAITS] = "host vkSignalSemaphore -> CUDA wait + sync",
   [SEM_ROW_PING_PONG_TIMELINE] = "ping-pong, timeline",
   [SEM_ROW_PING_PONG_BINARY] = "ping-pong, binary",
   [SEM_ROW_IMPORT_DESTROY] = "import + destroy, timeline",
};

/* A semaphore the tool's device exported and one implementation imported. */
struct sem_pair {
   VkSemaphore vk;
   CUexternalSemaphore cu;
   bool timeline;
};

struct sem_ctx {
   struct bench_cu *cu;
   struct bench_vk *vk;
   CUstream stream;
   /* a, b: timeline; c, d: binary. */
   struct sem_pair a, b, c, d;
   /* The last timeline value used, for a, b and the Vulkan baseline's. */
   uint64_t value;
   /* The Vulkan baseline's own semaphore, not exported. */
   VkSemaphore plain;
   VkFence fence;
   /* Import: a fresh fd of a's Vulkan semaphore per run. */
   int fd;
};

#define SEM_TIMEOUT_NS 10000000000ull

static CUresult
sem_import(struct bench_cu *cu, int fd, bool timeline, CUexternalSemaphore *out)
{
   CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC desc;
   memset(&desc, 0, sizeof(desc));
   desc.type = timeline ? CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD
                        : CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
   desc.handle.fd = fd;
   return cu->ImportExternalSemaphore(out, &desc);
}

static bool
sem_pair_create(struct sem_ctx *c, bool timeline, struct sem_pair *p)
{
   memset(p, 0, sizeof(*p));
   p->timeline = timeline;
   if (!bench_vk_semaphore_create(c->vk, timeline, true, &p->vk))
      return false;
   int fd = bench_vk_semaphore_fd(c->vk, p->vk);
   if (fd < 0)
      return false;
   if (!bench_cu_ok(c->cu, sem_import(c->cu, fd, timeline, &p->cu), "cuImportExternalSemaphore")) {
      close(fd);
      return false;
   }
   return true;
}

static void
sem_pair_destroy(struct sem_ctx *c, struct sem_pair *p)
{
   if (p->cu)
      c->cu->DestroyExternalSemaphore(p->cu);
   if (p->vk)
      vkDestroySemaphore(c->vk->device, p->vk, NULL);
   memset(p, 0, sizeof(*p));
}

static bool
sem_cu_signal(struct sem_ctx *c, const struct sem_pair *p, uint64_t value)
{
   CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS params;
   memset(&params, 0, sizeof(params));
   params.params.fence.value = value;
   return bench_cu_ok(c->cu, c->cu->SignalExternalSemaphoresAsync(&p->cu, &params, 1, c->stream),
                      "cuSignalExternalSemaphoresAsync");
}

static bool
sem_cu_wait(struct sem_ctx *c, const struct sem_pair *p, uint64_t value)
{
   CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS params;
   memset(&params, 0, sizeof(params));
   params.params.fence.value = value;
   return bench_cu_ok(c->cu, c->cu->WaitExternalSemaphoresAsync(&p->cu, &params, 1, c->stream),
                      "cuWaitExternalSemaphoresAsync");
}

static bool
sem_host_wait(struct sem_ctx *c, VkSemaphore sem, uint64_t value)
{
   VkSemaphoreWaitInfo wait = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
      .semaphoreCount = 1,
      .pSemaphores = &sem,
      .pValues = &value,
   };
   VkResult vr = vkWaitSemaphores(c->vk->device, &wait, SEM_TIMEOUT_NS);
   if (vr != VK_SUCCESS)
      fprintf(stderr, "cuvk-bench: vkWaitSemaphores: %s\n", tool_vk_result_name(vr));
   return vr == VK_SUCCESS;
}

static bool
sem_host_signal(struct sem_ctx *c, VkSemaphore sem, uint64_t value)
{
   VkSemaphoreSignalInfo signal = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
      .semaphore = sem,
      .value = value,
   };
   VkResult vr = vkSignalSemaphore(c->vk->device, &signal);
   if (vr != VK_SUCCESS)
      fprintf(stderr, "cuvk-bench: vkSignalSemaphore: %s\n", tool_vk_result_name(vr));
   return vr == VK_SUCCESS;
}

static bool
sem_fence_wait(struct sem_ctx *c)
{
   VkResult vr = vkWaitForFences(c->vk->device, 1, &c->fence, VK_TRUE, SEM_TIMEOUT_NS);
   if (vr == VK_SUCCESS)
      vr = vkResetFences(c->vk->device, 1, &c->fence);
   if (vr != VK_SUCCESS)
      fprintf(stderr, "cuvk-bench: waiting for the fence: %s\n", tool_vk_result_name(vr));
   return vr == VK_SUCCESS;
}

/* The stream signals a; the host returns from vkWaitSemaphores on the
 * exporter's semaphore. */
static bool
op_sem_signal_host_sees(void *p)
{
   struct sem_ctx *c = p;
   uint64_t v = ++c->value;
   return sem_cu_signal(c, &c->a, v) && sem_host_wait(c, c->a.vk, v);
}

/* The stream waits for a, the host signals it, the stream is synchronised. */
static bool
op_sem_host_signal_cuda_waits(void *p)
{
   struct sem_ctx *c = p;
   uint64_t v = ++c->value;
   return sem_cu_wait(c, &c->a, v) && sem_host_signal(c, c->a.vk, v) &&
          bench_cu_ok(c->cu, c->cu->StreamSynchronize(c->stream), "cuStreamSynchronize");
}

/* CUDA signals A; a Vulkan batch waits A and signals B; CUDA waits B; the
 * stream is synchronised (and the batch's fence reset for the next run). */
static bool
ping_pong(struct sem_ctx *c, const struct sem_pair *a, const struct sem_pair *b)
{
   uint64_t v = ++c->value;
   return sem_cu_signal(c, a, v) &&
          bench_vk_submit_semaphores(c->vk, a->vk, v, b->vk, v, c->fence) && sem_cu_wait(c, b, v) &&
          bench_cu_ok(c->cu, c->cu->StreamSynchronize(c->stream), "cuStreamSynchronize") &&
          sem_fence_wait(c);
}

static bool
op_sem_ping_pong_timeline(void *p)
{
   struct sem_ctx *c = p;
   return ping_pong(c, &c->a, &c->b);
}

static bool
op_sem_ping_pong_binary(void *p)
{
   struct sem_ctx *c = p;
   return ping_pong(c, &c->c, &c->d);
}

static bool
op_sem_import_prepare(void *p)
{
   struct sem_ctx *c = p;
   if (c->fd >= 0)
      close(c->fd);
   c->fd = bench_vk_semaphore_fd(c->vk, c->a.vk);
   return c->fd >= 0;
}

static bool
op_sem_import_destroy(void *p)
{
   struct sem_ctx *c = p;
   CUexternalSemaphore sem = NULL;
   if (!bench_cu_ok(c->cu, sem_import(c->cu, c->fd, true, &sem), "cuImportExternalSemaphore"))
      return false;
   /* On success the fd belongs to the driver. */
   c->fd = -1;
   return bench_cu_ok(c->cu, c->cu->DestroyExternalSemaphore(sem), "cuDestroyExternalSemaphore");
}

/* The Vulkan baselines on a semaphore of the device's own: a batch
 * signals, the host sees it; the host signals, a batch waiting for it
 * completes its fence. */
static bool
op_vk_sem_signal_host_sees(void *p)
{
   struct sem_ctx *c = p;
   uint64_t v = ++c->value;
   return bench_vk_submit_semaphores(c->vk, VK_NULL_HANDLE, 0, c->plain, v, VK_NULL_HANDLE) &&
          sem_host_wait(c, c->plain, v);
}

static bool
op_vk_sem_host_signal_queue_waits(void *p)
{
   struct sem_ctx *c = p;
   uint64_t v = ++c->value;
   return bench_vk_submit_semaphores(c->vk, c->plain, v, VK_NULL_HANDLE, 0, c->fence) &&
          sem_host_signal(c, c->plain, v) && sem_fence_wait(c);
}

static void
bench_semaphore(struct bench_state *s)
{
   struct bench_table *t = table_begin(s, "semaphore",
                                       "external semaphores: handoffs between a CUDA stream and the "
                                       "tool's VkDevice",
                                       BENCH_KIND_LATENCY, 1, NULL);
   if (!t)
      return;
   const char *what = "cuImportExternalSemaphore of the tool's exported semaphores, "
                      "cuSignal/cuWaitExternalSemaphoresAsync on a stream, cuStreamSynchronize";
   t->impl_what[BENCH_IMPL_CUVK] = what;
   t->impl_what[BENCH_IMPL_CUDA] = what;
   t->impl_what[BENCH_IMPL_VULKAN] =
      s->have_vk ? "the first two rows on a timeline semaphore of the device's own: an empty batch "
                   "signals, vkWaitSemaphores; vkSignalSemaphore, an empty batch's fence"
                 : NULL;
   for (unsigned r = 0; r < SEM_ROW_COUNT; r++)
      table_add_row(t, sem_row_labels[r], 0);
   bench_table_note(t, "ping-pong: CUDA signals A, a Vulkan batch waits A and signals B, CUDA waits "
                    "B, cuStreamSynchronize, the batch's fence; import: a fresh vkGetSemaphoreFdKHR "
                    "fd each run, not timed");

   if (!s->have_vk || !s->vk.can_export_semaphores) {
      bench_table_note(t, "the tool's Vulkan device cannot export semaphores (lavapipe needs "
                       "VK_LAYER_CUVK_interop in VK_INSTANCE_LAYERS): skipped");
      return;
   }

   for (int i = 0; i < 2; i++) {
      int k = bench_cu_index(s, i);
      struct bench_cu *cu = &s->cu[k];
      enum bench_impl impl = k ? BENCH_IMPL_CUDA : BENCH_IMPL_CUVK;
      struct sem_ctx c = { .cu = cu, .vk = &s->vk, .fd = -1 };
      static const bench_op_fn ops[SEM_ROW_COUNT] = {
         [SEM_ROW_SIGNAL_HOST_SEES] = op_sem_signal_host_sees,
         [SEM_ROW_HOST_SIGNAL_CUDA_WAITS] = op_sem_host_signal_cuda_waits,
         [SEM_ROW_PING_PONG_TIMELINE] = op_sem_ping_pong_timeline,
         [SEM_ROW_PING_PONG_BINARY] = op_sem_ping_pong_binary,
         [SEM_ROW_IMPORT_DESTROY] = op_sem_import_destroy,
      };

      if (k && !s->have_cuda)
         continue;
      if (!bench_cu_has_semaphores(cu)) {
         bench_table_note(t, "%s: %s lacks the stream or external semaphore calls: skipped",
                          cu->label, cu->path);
         continue;
      }
      progress(s, t->id, cu->label);
      VkFenceCreateInfo finfo = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
      if (vkCreateFence(s->vk.device, &finfo, NULL, &c.fence) != VK_SUCCESS ||
          !bench_cu_ok(cu, cu->StreamCreate(&c.stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate") ||
          !sem_pair_create(&c, true, &c.a) || !sem_pair_create(&c, true, &c.b) ||
          !sem_pair_create(&c, false, &c.c) || !sem_pair_create(&c, false, &c.d)) {
         bench_table_note(t, "%s: setting up the semaphores failed (see the messages above)", cu->label);
         s->failures++;
      } else {
         for (unsigned r = 0; r < SEM_ROW_COUNT; r++) {
            bench_op_fn prepare = r == SEM_ROW_IMPORT_DESTROY ? op_sem_import_prepare : NULL;
            if (!bench_measure(s, ops[r], prepare, &c, &t->rows[r].r[impl])) {
               bench_table_note(t, "%s: %s failed (see the messages above)", cu->label,
                                sem_row_labels[r]);
               s->failures++;
               break;
            }
         }
      }
      if (c.fd >= 0)
         close(c.fd);
      if (c.stream) {
         cu->StreamSynchronize(c.stream);
         cu->StreamDestroy(c.stream);
      }
      vkDeviceWaitIdle(s->vk.device);
      sem_pair_destroy(&c, &c.a);
      sem_pair_destroy(&c, &c.b);
      sem_pair_destroy(&c, &c.c);
      sem_pair_destroy(&c, &c.d);
      if (c.fence)
         vkDestroyFence(s->vk.device, c.fence, NULL);
   }

   progress(s, t->id, "Vulkan");
   struct sem_ctx c = { .vk = &s->vk, .fd = -1 };
   VkFenceCreateInfo finfo = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
   if (vkCreateFence(s->vk.device, &finfo, NULL, &c.fence) != VK_SUCCESS ||
       !bench_vk_semaphore_create(&s->vk, true, false, &c.plain) ||
       !bench_measure(s, op_vk_sem_signal_host_sees, NULL, &c,
                      &t->rows[SEM_ROW_SIGNAL_HOST_SEES].r[BENCH_IMPL_VULKAN]) ||
       !bench_measure(s, op_vk_sem_host_signal_queue_waits, NULL, &c,
                      &t->rows[SEM_ROW_HOST_SIGNAL_CUDA_WAITS].r[BENCH_IMPL_VULKAN])) {
      bench_table_note(t, "Vulkan failed (see the messages above)");
      s->failures++;
   }
   vkDeviceWaitIdle(s->vk.device);
   if (c.plain)
      vkDestroySemaphore(s->vk.device, c.plain, NULL);
   if (c.fence)
      vkDestroyFence(s->vk.device, c.fence, NULL);
   progress_done();
}

/* ---- Two streams side by side ----
 *
 * Issue 12's two-stream rows: a host-to-device copy on stream A with a
 * device-to-host copy, or eight device-to-device copies, on stream B,
 * both queued and then one cuCtxSynchronize.  Each part is also timed
 * alone; the overlap factor, the parts' times summed over the time
 * together, is 1.0 when the streams run one after the other and up to 2.0
 * when they fully overlap (a GPU's copy engines run an upload and a
 * download at once). */

#define STREAMS_SIZE (256ull << 20)
#define STREAMS_QUICK_SIZE TOOL_MIB
#define STREAMS_DTOD_COUNT 8

enum streams_row {
   STREAMS_HTOD,
   STREAMS_DTOH,
   STREAMS_HTOD_DTOH,
   STREAMS_DTOD8,
   STREAMS_HTOD_DTOD8,
   STREAMS_ROW_COUNT,
};

struct streams_ctx {
   struct bench_cu *cu;
   CUstream a, b;
   CUdeviceptr up, down, dsrc, ddst;
   void *hsrc, *hdst;
   size_t size;
   enum streams_row row;
};

static bool
op_cu_streams(void *p)
{
   struct streams_ctx *c = p;
   struct bench_cu *cu = c->cu;
   bool up = c->row == STREAMS_HTOD || c->row == STREAMS_HTOD_DTOH || c->row == STREAMS_HTOD_DTOD8;
   bool down = c->row == STREAMS_DTOH || c->row == STREAMS_HTOD_DTOH;
   bool dtod = c->row == STREAMS_DTOD8 || c->row == STREAMS_HTOD_DTOD8;

   if (up && !bench_cu_ok(cu, cu->MemcpyHtoDAsync(c->up, c->hsrc, c->size, c->a), "cuMemcpyHtoDAsync"))
      return false;
   if (down && !bench_cu_ok(cu, cu->MemcpyDtoHAsync(c->hdst, c->down, c->size, c->b), "cuMemcpyDtoHAsync"))
      return false;
   for (int i = 0; dtod && i < STREAMS_DTOD_COUNT; i++)
      if (!bench_cu_ok(cu, cu->MemcpyDtoDAsync(c->ddst, c->dsrc, c->size, c->b), "cuMemcpyDtoDAsync"))
         return false;
   return bench_cu_ok(cu, cu->CtxSynchronize(), "cuCtxSynchronize");
}

static void
bench_streams(struct bench_state *s)
{
   static const char *const labels[STREAMS_ROW_COUNT] = {
      [STREAMS_HTOD] = "HtoD on A alone",
      [STREAMS_DTOH] = "DtoH on B alone",
      [STREAMS_HTOD_DTOH] = "HtoD on A + DtoH on B",
      [STREAMS_DTOD8] = "8 x DtoD on B alone",
      [STREAMS_HTOD_DTOD8] = "HtoD on A + 8 x DtoD on B",
   };
   uint64_t size = TOOL_MIN(s->opt.quick ? STREAMS_QUICK_SIZE : STREAMS_SIZE, s->opt.max_size);
   /* The report keeps a pointer to the title and prints it later. */
   static char title[128];
   char sz[32];

   tool_format_size(size, sz, sizeof(sz));
   snprintf(title, sizeof(title), "two streams: %s copies on stream A and B (pinned host memory) "
            "+ cuCtxSynchronize", sz);
   struct bench_table *t = table_begin(s, "streams", title, BENCH_KIND_LATENCY, 1, NULL);
   if (!t)
      return;
   t->impl_what[BENCH_IMPL_CUVK] = "cuvk";
   t->impl_what[BENCH_IMPL_CUDA] = "--cuda-lib, the same calls";
   for (int r = 0; r < STREAMS_ROW_COUNT; r++)
      table_add_row(t, labels[r], size);

   for (int i = 0; i < 2; i++) {
      int k = bench_cu_index(s, i);
      struct bench_cu *cu = &s->cu[k];
      enum bench_impl impl = k ? BENCH_IMPL_CUDA : BENCH_IMPL_CUVK;
      struct streams_ctx c = { .cu = cu, .size = (size_t)size };
      bool ok = true;

      if (k && !s->have_cuda)
         continue;
      if (!cu->StreamCreate || !cu->StreamDestroy || !cu->MemcpyHtoDAsync || !cu->MemcpyDtoHAsync ||
          !cu->MemcpyDtoDAsync) {
         bench_table_note(t, "%s: no stream or asynchronous copy calls; skipped", cu->label);
         continue;
      }
      progress(s, t->id, cu->label);
      ok = bench_cu_ok(cu, cu->StreamCreate(&c.a, CU_STREAM_NON_BLOCKING), "cuStreamCreate") &&
           bench_cu_ok(cu, cu->StreamCreate(&c.b, CU_STREAM_NON_BLOCKING), "cuStreamCreate") &&
           cu_alloc_device(s, t, cu, size, &c.up) && cu_alloc_device(s, t, cu, size, &c.down) &&
           cu_alloc_device(s, t, cu, size, &c.dsrc) && cu_alloc_device(s, t, cu, size, &c.ddst) &&
           cu_alloc_host(s, t, cu, true, size, &c.hsrc) && cu_alloc_host(s, t, cu, true, size, &c.hdst);
      for (int r = 0; ok && r < STREAMS_ROW_COUNT; r++) {
         c.row = (enum streams_row)r;
         ok = bench_measure(s, op_cu_streams, NULL, &c, &t->rows[r].r[impl]);
      }
      if (!ok) {
         bench_table_note(t, "%s failed (see the messages above)", cu->label);
         s->failures++;
      } else {
         const struct bench_row *rw = t->rows;
         double dtoh = (rw[STREAMS_HTOD].r[impl].median_s + rw[STREAMS_DTOH].r[impl].median_s) /
                       rw[STREAMS_HTOD_DTOH].r[impl].median_s;
         double dtod = (rw[STREAMS_HTOD].r[impl].median_s + rw[STREAMS_DTOD8].r[impl].median_s) /
                       rw[STREAMS_HTOD_DTOD8].r[impl].median_s;
         bench_table_note(t, "%s: overlap %.2fx for HtoD || DtoH, %.2fx for HtoD || 8 x DtoD "
                          "(times alone summed / time together; 1.00 = one after the other)",
                          cu->label, dtoh, dtod);
      }
      if (c.a)
         cu->StreamDestroy(c.a);
      if (c.b)
         cu->StreamDestroy(c.b);
      CUdeviceptr dev[] = { c.up, c.down, c.dsrc, c.ddst };
      for (size_t d = 0; d < TOOL_ARRAY_SIZE(dev); d++)
         if (dev[d])
            cu->MemFree(dev[d]);
      cu_free_host(cu, true, c.hsrc);
      cu_free_host(cu, true, c.hdst);
   }
   progress_done();
}

/* ---- Kernels ---- */

/*
 * Issue 13's speed rows: launches of tests/kernels' empty.cu and saxpy.cu,
 * whose PTX nvcc wrote at build time and embed_ptx.py made into strings
 * (bench_kernels.c).  Both implementations load the same text with
 * cuModuleLoadData, so real CUDA JIT-compiles exactly what cuvk
 * translates.
 */
#ifdef CUVK_BENCH_HAVE_PTX
extern const char bench_ptx_empty[];
extern const char bench_ptx_saxpy[];
#endif

#define KERNEL_SAXPY_SIZE (256 * TOOL_MIB)
/* lavapipe runs a 256 MiB saxpy for about a second a launch; --quick is a
 * smoke test. */
#define KERNEL_SAXPY_QUICK_SIZE (4 * TOOL_MIB)
#define KERNEL_BLOCK 256u

enum kernel_row {
   KERNEL_ROW_FIRST_IN_PROCESS,
   KERNEL_ROW_FIRST_EMPTY,
   KERNEL_ROW_FIRST_SAXPY,
   KERNEL_ROW_FIRST_SAXPY_CACHED,
   KERNEL_ROW_EMPTY,
   /* The empty row's parts and, for the Vulkan column, its driver round
    * trip built up step by step towards what cuvk submits. */
   KERNEL_ROW_EMPTY_LAUNCH,
   KERNEL_ROW_EMPTY_SYNC,
   KERNEL_ROW_EMPTY_VK_TIMELINE,
   KERNEL_ROW_EMPTY_VK_BARRIER_NO_HOST,
   KERNEL_ROW_EMPTY_VK_BARRIERS,
   KERNEL_ROW_EMPTY_VK_RECORDED,
   KERNEL_ROW_SAXPY,
   KERNEL_ROW_COUNT,
};

struct kernel_ctx {
   struct bench_cu *cu;
   /* What a first-launch run loads, and the module it loaded last (the
    * next run's prepare unloads it, untimed). */
   const char *ptx;
   const char *name;
   CUmodule module;
   /* The launch: function, grid, block and parameters. */
   CUfunction func;
   unsigned grid, block;
   void **params;
};

/* cuLaunchKernel on the legacy stream + cuCtxSynchronize. */
static bool
kernel_launch_sync(struct kernel_ctx *c)
{
   return bench_cu_ok(c->cu, c->cu->LaunchKernel(c->func, c->grid, 1, 1, c->block, 1, 1, 0, NULL, c->params, NULL),
                      "cuLaunchKernel") &&
          bench_cu_ok(c->cu, c->cu->CtxSynchronize(), "cuCtxSynchronize");
}

static bool
op_kernel_launch(void *p)
{
   return kernel_launch_sync(p);
}

/* The empty row taken apart: each run times its two halves (the
 * launch and the synchronisation after it, or Vulkan's record + submit and
 * the wait) separately, and the two rows get the medians of each half (so
 * they need not add up to the whole row's median).  As bench_measure,
 * warm-up runs first. */
static bool
measure_parts(struct bench_state *s, struct bench_table *t, enum bench_impl impl, bench_op_fn first,
              bench_op_fn second, void *ctx)
{
   struct bench_result *out[2] = {
      &t->rows[KERNEL_ROW_EMPTY_LAUNCH].r[impl],
      &t->rows[KERNEL_ROW_EMPTY_SYNC].r[impl],
   };
   double warm_start = now_s(), estimate = INFINITY;
   bool ok = true;

   for (unsigned i = 0; ok && (i < 2 || now_s() - warm_start < s->opt.warmup_s); i++) {
      double t0 = now_s();
      ok = first(ctx) && second(ctx);
      estimate = TOOL_MIN(estimate, now_s() - t0);
   }
   unsigned samples = (unsigned)ceil(s->opt.min_time_s / TOOL_MAX(estimate, 1e-9));
   samples = TOOL_MIN(TOOL_MAX(samples, BENCH_MIN_SAMPLES), BENCH_MAX_SAMPLES);
   double *times = ok ? malloc(2 * samples * sizeof(*times)) : NULL;
   ok = times != NULL;
   for (unsigned i = 0; ok && i < samples; i++) {
      double t0 = now_s();
      ok = first(ctx);
      double t1 = now_s();
      ok = ok && second(ctx);
      times[i] = t1 - t0;
      times[samples + i] = now_s() - t1;
   }
   for (unsigned part = 0; ok && part < 2; part++) {
      struct bench_result *r = out[part];
      double *p = times + part * samples;
      qsort(p, samples, sizeof(*p), cmp_double);
      memset(r, 0, sizeof(*r));
      r->median_s = samples % 2 ? p[samples / 2] : 0.5 * (p[samples / 2 - 1] + p[samples / 2]);
      r->min_s = p[0];
      r->samples = samples;
      r->reps = 1;
      r->valid = true;
      bench_clock_read(&s->clock, r);
   }
   free(times);
   if (!ok) {
      bench_table_note(t, "%s: timing the two halves of the empty row apart failed (see the messages above)",
                       bench_impl_names[impl]);
      s->failures++;
   }
   return ok;
}

static bool
op_kernel_launch_only(void *p)
{
   struct kernel_ctx *c = p;
   return bench_cu_ok(c->cu, c->cu->LaunchKernel(c->func, c->grid, 1, 1, c->block, 1, 1, 0, NULL, c->params, NULL),
                      "cuLaunchKernel");
}

static bool
op_kernel_sync_only(void *p)
{
   struct kernel_ctx *c = p;
   return bench_cu_ok(c->cu, c->cu->CtxSynchronize(), "cuCtxSynchronize");
}

/* The Vulkan steps of the empty row: the recorded command buffer
 * resubmitted with a timeline signal, or recorded afresh first. */
static bool
op_vk_timeline(void *p)
{
   struct op_ctx *c = p;
   return bench_vk_submit_timeline_wait(c->vk);
}

static bool
op_vk_record_timeline(void *p)
{
   struct op_ctx *c = p;
   return bench_vk_record_empty_dispatch_barriers(c->vk, true, true) && bench_vk_submit_timeline_wait(c->vk);
}

/* Its two halves, for the empty row's parts. */
static bool
op_vk_record_submit(void *p)
{
   struct op_ctx *c = p;
   return bench_vk_record_empty_dispatch_barriers(c->vk, true, true) && bench_vk_submit_timeline(c->vk);
}

static bool
op_vk_timeline_wait(void *p)
{
   struct op_ctx *c = p;
   return bench_vk_timeline_wait(c->vk);
}

static bool
op_kernel_unload(void *p)
{
   struct kernel_ctx *c = p;
   CUmodule m = c->module;
   c->module = NULL;
   return !m || bench_cu_ok(c->cu, c->cu->ModuleUnload(m), "cuModuleUnload");
}

/* What a program pays before its first kernel has run: the module from
 * PTX text, the function, the launch and its completion. */
static bool
op_kernel_first(void *p)
{
   struct kernel_ctx *c = p;
   return bench_cu_ok(c->cu, c->cu->ModuleLoadData(&c->module, c->ptx), "cuModuleLoadData") &&
          bench_cu_ok(c->cu, c->cu->ModuleGetFunction(&c->func, c->module, c->name), "cuModuleGetFunction") &&
          kernel_launch_sync(c);
}

/* x = 1, y = 2 everywhere, one launch of y = 3x + y, and every y read
 * back must be 5: a saxpy that computed nothing would time well. */
static bool
kernel_saxpy_check(struct bench_table *t, struct kernel_ctx *c, CUdeviceptr x,
                   CUdeviceptr y, unsigned long long n)
{
   struct bench_cu *cu = c->cu;
   float a = 3.0f, *host;
   void *params[] = { &n, &a, &x, &y };
   void **saved = c->params;
   bool ok;

   if (!bench_cu_ok(cu, cu->MemsetD32(x, 0x3f800000u, n), "cuMemsetD32") ||
       !bench_cu_ok(cu, cu->MemsetD32(y, 0x40000000u, n), "cuMemsetD32"))
      return false;
   c->params = params;
   ok = kernel_launch_sync(c);
   c->params = saved;
   host = ok ? malloc(n * sizeof(float)) : NULL;
   if (!host)
      return false;
   ok = bench_cu_ok(cu, cu->MemcpyDtoH(host, y, n * sizeof(float)), "cuMemcpyDtoH");
   for (unsigned long long i = 0; ok && i < n; i++) {
      if (host[i] != 5.0f) {
         bench_table_note(t, "%s: saxpy computed y[%llu] = %g, expected 5", cu->label, i, host[i]);
         ok = false;
      }
   }
   free(host);
   return ok;
}

static bool
kernel_measure(struct bench_state *s, struct bench_table *t, enum kernel_row row, enum bench_impl impl,
               struct kernel_ctx *c, bench_op_fn op, bench_op_fn prepare)
{
   if (bench_measure(s, op, prepare, c, &t->rows[row].r[impl]))
      return true;
   bench_table_note(t, "%s: %s failed (see the messages above)", c->cu->label, t->rows[row].label);
   s->failures++;
   return false;
}

/* cuvk's disk cache for the kernel table: a private directory, so the
 * user's cache neither helps nor grows, and on (cached) or off (cold).
 * cuvk reads these variables at every module load.  CUDA_CACHE_DISABLE,
 * which cuvk honours too, is set aside while the cache is on: NVIDIA's
 * libcuda read it at cuInit already. */
static void
kernel_cache_env(bool cached)
{
   static char dir[64];
   static char *cuda_disable;
   if (!dir[0]) {
      snprintf(dir, sizeof(dir), "/tmp/cuvk-bench-cache-XXXXXX");
      if (!mkdtemp(dir))
         snprintf(dir, sizeof(dir), "/tmp/cuvk-bench-cache-%ld", (long)getpid());
      setenv("CUVK_CACHE_DIR", dir, 1);
   }
   if (cached) {
      const char *v = getenv("CUDA_CACHE_DISABLE");
      free(cuda_disable);
      cuda_disable = v ? strdup(v) : NULL;
      unsetenv("CUDA_CACHE_DISABLE");
      unsetenv("CUVK_CACHE_DISABLE");
   } else {
      if (cuda_disable) {
         setenv("CUDA_CACHE_DISABLE", cuda_disable, 1);
         free(cuda_disable);
         cuda_disable = NULL;
      }
      setenv("CUVK_CACHE_DISABLE", "1", 1);
   }
}

/* Removes the private cache directory (its two levels of entries). */
static void
kernel_cache_remove(void)
{
   const char *dir = getenv("CUVK_CACHE_DIR");
   if (!dir || strncmp(dir, "/tmp/cuvk-bench-cache-", 22) != 0)
      return;
   char cmd[128];
   snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
   if (system(cmd) != 0)
      fprintf(stderr, "cuvk-bench: could not remove %s\n", dir);
}

static void
bench_kernel(struct bench_state *s)
{
   struct bench_table *t = table_begin(s, "kernel", "kernels: launch + sync and time to first launch, "
                                       "the same PTX on both", BENCH_KIND_LATENCY, 1, NULL);
   if (!t)
      return;
#ifndef CUVK_BENCH_HAVE_PTX
   bench_table_note(t, "cuvk-bench was built without nvcc, so it holds no PTX: skipped");
   (void)kernel_measure;
   (void)kernel_saxpy_check;
   (void)op_kernel_launch;
   (void)op_kernel_first;
   (void)op_kernel_unload;
   (void)measure_parts;
   (void)op_kernel_launch_only;
   (void)op_kernel_sync_only;
   (void)op_vk_timeline;
   (void)op_vk_record_timeline;
   (void)op_vk_record_submit;
   (void)op_vk_timeline_wait;
   (void)kernel_cache_env;
   (void)kernel_cache_remove;
#else
   uint64_t size = TOOL_MIN(s->opt.quick ? KERNEL_SAXPY_QUICK_SIZE : KERNEL_SAXPY_SIZE, s->opt.max_size);
   unsigned long long n = size / sizeof(float);
   char label[64], sz[32];

   const char *what = "cuModuleLoadData of PTX text, cuModuleGetFunction, cuLaunchKernel on the "
                      "legacy stream, cuCtxSynchronize";
   t->impl_what[BENCH_IMPL_CUVK] = what;
   t->impl_what[BENCH_IMPL_CUDA] = what;
   table_add_row(t, "first launch: empty.ptx, first in process", 0);
   table_add_row(t, "first launch: empty.ptx, cold", 0);
   table_add_row(t, "first launch: saxpy.ptx, 1 block, cold", 0);
   table_add_row(t, "first launch: saxpy.ptx, 1 block, from disk cache", 0);
   table_add_row(t, "empty <<<1, 1>>> + sync", 0);
   table_add_row(t, "  empty: the launch", 0);
   table_add_row(t, "  empty: the synchronisation after it", 0);
   table_add_row(t, "  empty, Vulkan: timeline signal, host wait", 0);
   table_add_row(t, "  empty, Vulkan: + barrier for later work only", 0);
   table_add_row(t, "  empty, Vulkan: + cuvk's batch barrier", 0);
   table_add_row(t, "  empty, Vulkan: + recorded each time", 0);
   for (unsigned r = KERNEL_ROW_EMPTY_VK_TIMELINE; r <= KERNEL_ROW_EMPTY_VK_RECORDED; r++)
      t->rows[r].impls = 1u << BENCH_IMPL_VULKAN;
   tool_format_size(size, sz, sizeof(sz));
   const char *why = "";
   if (size < (s->opt.quick ? KERNEL_SAXPY_QUICK_SIZE : KERNEL_SAXPY_SIZE))
      why = " (--max-size)";
   else if (size < KERNEL_SAXPY_SIZE)
      why = " (--quick)";
   snprintf(label, sizeof(label), "saxpy %s%s + sync", sz, why);
   table_add_row(t, label, size);
   t->rows[KERNEL_ROW_SAXPY].bytes = 3 * n * sizeof(float);
   bench_table_note(t, "first launch: load + get + launch + sync of a fresh module each run, "
                    "cuModuleUnload between runs not timed; the first row is one run, the process's "
                    "first module");
   bench_table_note(t, "cuvk: \"cold\" rows translate every run (CUVK_CACHE_DISABLE=1 around them); the "
                    "\"from disk cache\" row reads the translated kernel from a private cache directory "
                    "that the warm-up runs filled; the context's VkPipelineCache is kept in both");
   bench_table_note(t, "real CUDA: both rows are what its JIT cache gives (~/.nv/ComputeCache, read at cuInit; "
                    "CUDA_CACHE_DISABLE=1 for the bench turns it off)");
   bench_table_note(t, "empty's two halves, each run timed apart, medians of each: cuLaunchKernel, then "
                    "the cuCtxSynchronize after it; for Vulkan, recording the command buffer with cuvk's "
                    "barrier + vkQueueSubmit with a timeline signal, then the host's wait for it "
                    "(CUVK_TRACE_SUBMIT=2 splits cuvk's further, per wait)");
   bench_table_note(t, "Vulkan's steps towards what cuvk submits for the empty launch: the command buffer "
                    "signalling a timeline semaphore instead of a fence; then with a barrier for later "
                    "work only (the price of the host's part is the next row's difference); then with the "
                    "barrier cuvk ends a batch with (later work and the host's reads after it); then "
                    "recorded anew "
                    "(one-time) before each submit, as cuvk records a batch; waits polled on a GPU, "
                    "as cuvk's. A launch that goes alone to an idle lane, as this one, submits a buffer "
                    "cuvk recorded for it before, the barrier row; CUVK_LAUNCH_REUSE=0 records each");
   bench_table_note(t, "saxpy: y = a*x + y over two arrays of %s, one element a thread in blocks of "
                    "%u; GB/s counts x read, y read and written (3 x %s)", sz, KERNEL_BLOCK, sz);

   for (int i = 0; i < 2; i++) {
      int k = bench_cu_index(s, i);
      struct bench_cu *cu = &s->cu[k];
      enum bench_impl impl = k ? BENCH_IMPL_CUDA : BENCH_IMPL_CUVK;
      struct kernel_ctx c = { .cu = cu, .block = 1, .grid = 1 };
      CUmodule empty = NULL, saxpy = NULL;
      CUfunction empty_fn = NULL, saxpy_fn = NULL;
      CUdeviceptr x = 0, y = 0;
      float a = 1.0f;
      /* The first-launch saxpy: one block, within the arrays however
       * small --max-size made them. */
      unsigned long long small_n = TOOL_MIN(n, (unsigned long long)KERNEL_BLOCK);
      void *params[] = { &small_n, &a, &x, &y };
      struct bench_result *first = &t->rows[KERNEL_ROW_FIRST_IN_PROCESS].r[impl];
      double t0;

      if (k && !s->have_cuda)
         continue;
      if (!bench_cu_has_kernels(cu)) {
         bench_table_note(t, "%s: %s lacks cuModuleLoadData, cuModuleGetFunction, cuModuleUnload or "
                          "cuLaunchKernel: skipped", cu->label, cu->path);
         continue;
      }
      progress(s, t->id, cu->label);
      if (!k)
         kernel_cache_env(false);
      /* (cu_alloc_device counts its own failures.) */
      if (!cu_alloc_device(s, t, cu, size, &x) || !cu_alloc_device(s, t, cu, size, &y))
         goto next;

      /* Time to first launch, the process's first module before anything
       * else has compiled. */
      c.ptx = bench_ptx_empty;
      c.name = "empty";
      t0 = now_s();
      if (!op_kernel_first(&c)) {
         bench_table_note(t, "%s: the first launch failed (see the messages above)", cu->label);
         s->failures++;
         goto next;
      }
      first->median_s = first->min_s = now_s() - t0;
      first->samples = first->reps = 1;
      first->valid = true;
      bench_clock_read(&s->clock, first);
      if (!kernel_measure(s, t, KERNEL_ROW_FIRST_EMPTY, impl, &c, op_kernel_first, op_kernel_unload))
         goto next;
      op_kernel_unload(&c);
      c.ptx = bench_ptx_saxpy;
      c.name = "saxpy";
      c.block = KERNEL_BLOCK;
      c.params = params;
      if (!kernel_measure(s, t, KERNEL_ROW_FIRST_SAXPY, impl, &c, op_kernel_first, op_kernel_unload))
         goto next;
      op_kernel_unload(&c);
      if (!k)
         kernel_cache_env(true);
      bool cached = kernel_measure(s, t, KERNEL_ROW_FIRST_SAXPY_CACHED, impl, &c, op_kernel_first,
                                   op_kernel_unload);
      if (!k)
         kernel_cache_env(false);
      if (!cached)
         goto next;
      op_kernel_unload(&c);

      /* Launch + sync, modules loaded once. */
      if (!bench_cu_ok(cu, cu->ModuleLoadData(&empty, bench_ptx_empty), "cuModuleLoadData") ||
          !bench_cu_ok(cu, cu->ModuleGetFunction(&empty_fn, empty, "empty"), "cuModuleGetFunction") ||
          !bench_cu_ok(cu, cu->ModuleLoadData(&saxpy, bench_ptx_saxpy), "cuModuleLoadData") ||
          !bench_cu_ok(cu, cu->ModuleGetFunction(&saxpy_fn, saxpy, "saxpy"), "cuModuleGetFunction")) {
         s->failures++;
         goto next;
      }
      c = (struct kernel_ctx){ .cu = cu, .func = empty_fn, .grid = 1, .block = 1 };
      if (!kernel_measure(s, t, KERNEL_ROW_EMPTY, impl, &c, op_kernel_launch, NULL) ||
          !measure_parts(s, t, impl, op_kernel_launch_only, op_kernel_sync_only, &c))
         goto next;
      c.func = saxpy_fn;
      c.block = KERNEL_BLOCK;
      c.grid = (unsigned)((n + KERNEL_BLOCK - 1) / KERNEL_BLOCK);
      params[0] = &n;
      c.params = params;
      if (!kernel_saxpy_check(t, &c, x, y, n)) {
         bench_table_note(t, "%s: saxpy's result was wrong or unreadable: not timed", cu->label);
         s->failures++;
         goto next;
      }
      kernel_measure(s, t, KERNEL_ROW_SAXPY, impl, &c, op_kernel_launch, NULL);

   next:
      cu->CtxSynchronize();
      op_kernel_unload(&c);
      if (empty)
         cu->ModuleUnload(empty);
      if (saxpy)
         cu->ModuleUnload(saxpy);
      if (x)
         cu->MemFree(x);
      if (y)
         cu->MemFree(y);
   }

   /* The driver's own round trip for the empty launch: one dispatch of
    * an empty shader, recorded once, submitted and waited for. */
   if (s->have_vk) {
      struct op_ctx vc = { .vk = &s->vk, .fd = -1 };
      progress(s, t->id, "Vulkan");
      t->impl_what[BENCH_IMPL_VULKAN] = "vkCmdDispatch(1, 1, 1) of an empty shader, recorded once, "
                                        "submitted and its fence waited for (empty rows only)";
      if (!bench_vk_record_empty_dispatch(&s->vk) ||
          !bench_measure(s, op_vk_submit, NULL, &vc, &t->rows[KERNEL_ROW_EMPTY].r[BENCH_IMPL_VULKAN]) ||
          !bench_measure(s, op_vk_timeline, NULL, &vc,
                         &t->rows[KERNEL_ROW_EMPTY_VK_TIMELINE].r[BENCH_IMPL_VULKAN]) ||
          !bench_vk_record_empty_dispatch_barriers(&s->vk, false, false) ||
          !bench_measure(s, op_vk_timeline, NULL, &vc,
                         &t->rows[KERNEL_ROW_EMPTY_VK_BARRIER_NO_HOST].r[BENCH_IMPL_VULKAN]) ||
          !bench_vk_record_empty_dispatch_barriers(&s->vk, false, true) ||
          !bench_measure(s, op_vk_timeline, NULL, &vc,
                         &t->rows[KERNEL_ROW_EMPTY_VK_BARRIERS].r[BENCH_IMPL_VULKAN]) ||
          !bench_measure(s, op_vk_record_timeline, NULL, &vc,
                         &t->rows[KERNEL_ROW_EMPTY_VK_RECORDED].r[BENCH_IMPL_VULKAN]) ||
          !measure_parts(s, t, BENCH_IMPL_VULKAN, op_vk_record_submit, op_vk_timeline_wait, &vc)) {
         bench_table_note(t, "Vulkan: the empty dispatch failed (see the messages above)");
         s->failures++;
      }
   }

   kernel_cache_remove();
   for (int k = 0; k < 2; k++) {
      enum bench_impl impl = k ? BENCH_IMPL_CUDA : BENCH_IMPL_CUVK;
      const struct bench_row *row = &t->rows[KERNEL_ROW_SAXPY];
      if (row->r[impl].valid)
         bench_table_note(t, "saxpy %s: %.2f GB/s", bench_impl_names[impl], bench_gbps(t, row, impl));
   }
#endif
   progress_done();
}

/* ---- Setup ---- */

static void
usage(FILE *f)
{
   fprintf(f,
      "usage: cuvk-bench [options]\n"
      "Bandwidth and latency of cuvk's copies and fills (DtoD, memset D32, HtoD and\n"
      "DtoH from pinned and pageable memory, 4-byte round trips, external-memory\n"
      "import, external-semaphore handoffs) and of kernel launches, next to\n"
      "vkCmdCopyBuffer/vkCmdFillBuffer on the same Vulkan driver, a single-threaded\n"
      "host memcpy, and optionally NVIDIA's real libcuda.\n"
      "\n"
      "  --max-size SIZE   largest transfer (4 B up by factors of 4); K, M, G suffixes\n"
      "                    are binary.  Default 1G, capped at a quarter of the device\n"
      "                    heap\n"
      "  --only LIST       comma-separated: dtod, memset, htod, dtoh, htod-pinned,\n"
      "                    htod-pageable, dtoh-pinned, dtoh-pageable, latency, import, seam,\n"
      "                    semaphore, kernel, streams, all (default: all)\n"
      "  --quick           a few sizes (4 B, 64 KiB, 1 MiB) and 5 ms a size: a smoke test\n"
      "  --min-time MS     time each size for at least MS milliseconds (default 50;\n"
      "                    at least 3 runs in any case)\n"
      "  --warmup MS       before timing a size, run it untimed for at least MS\n"
      "                    milliseconds (default 20, 2 with --quick; at least 2 runs)\n"
      "  --cuda-first      in each table, measure --cuda-lib before cuvk\n"
      "  --json FILE       also write every result as JSON to FILE\n"
      "  --cuda-lib PATH   a real libcuda.so.1 to run the same calls on, side by side\n"
      "                    (opened RTLD_LOCAL|RTLD_DEEPBIND, reached only via dlsym)\n"
      "  --cuvk-lib PATH   the cuvk library to measure (default: the libcuvk this\n"
      "                    program is linked with)\n"
      "  --device N        CUDA device ordinal (default 0); the Vulkan baseline and\n"
      "                    real CUDA use the device with the same UUID\n"
      "  -h, --help        this text\n");
}

static bool
parse_only(const char *list, unsigned *mask)
{
   char *copy = strdup(list), *save = NULL;
   bool ok = copy != NULL;

   *mask = 0;
   for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && ok;
        tok = strtok_r(NULL, ",", &save)) {
      bool found = false;
      for (size_t i = 0; i < TOOL_ARRAY_SIZE(bench_selectors) && !found; i++) {
         if (strcmp(tok, bench_selectors[i].name) == 0) {
            *mask |= bench_selectors[i].mask;
            found = true;
         }
      }
      if (!found) {
         fprintf(stderr, "cuvk-bench: --only: unknown benchmark '%s'\n", tok);
         ok = false;
      }
   }
   free(copy);
   return ok && *mask;
}

/* A non-negative number of milliseconds, stored in seconds. */
static bool
parse_ms(const char *option, const char *v, double *seconds)
{
   char *end;
   double ms = strtod(v, &end);
   if (*end || !(ms >= 0.0)) {
      fprintf(stderr, "cuvk-bench: %s: '%s' is not a number of milliseconds\n", option, v);
      return false;
   }
   *seconds = ms * 1e-3;
   return true;
}

/* 0 on success, else the exit status. */
static int
parse_options(int argc, char **argv, struct bench_options *opt)
{
   memset(opt, 0, sizeof(*opt));
   opt->max_size = BENCH_DEFAULT_MAX_SIZE;
   opt->min_time_s = -1.0;
   opt->warmup_s = -1.0;
   opt->only = BIT(BENCH_ID_COUNT) - 1;

   for (int i = 1; i < argc; i++) {
      const char *a = argv[i];
      const char *v = i + 1 < argc ? argv[i + 1] : NULL;
      bool takes_value = true;

      if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
         usage(stdout);
         return -1;
      } else if (strcmp(a, "--quick") == 0) {
         opt->quick = true;
         takes_value = false;
      } else if (strcmp(a, "--cuda-first") == 0) {
         opt->cuda_first = true;
         takes_value = false;
      } else if (!v && (strcmp(a, "--max-size") == 0 || strcmp(a, "--only") == 0 ||
                        strcmp(a, "--min-time") == 0 || strcmp(a, "--json") == 0 ||
                        strcmp(a, "--warmup") == 0 ||
                        strcmp(a, "--cuda-lib") == 0 || strcmp(a, "--cuvk-lib") == 0 ||
                        strcmp(a, "--device") == 0)) {
         fprintf(stderr, "cuvk-bench: %s needs a value\n", a);
         return 2;
      } else if (strcmp(a, "--max-size") == 0) {
         if (!tool_parse_size(v, &opt->max_size) || opt->max_size < 4) {
            fprintf(stderr, "cuvk-bench: --max-size: '%s' is not a size of at least 4 bytes\n", v);
            return 2;
         }
         opt->max_size_given = true;
      } else if (strcmp(a, "--only") == 0) {
         if (!parse_only(v, &opt->only))
            return 2;
      } else if (strcmp(a, "--min-time") == 0 || strcmp(a, "--warmup") == 0) {
         if (!parse_ms(a, v, strcmp(a, "--warmup") == 0 ? &opt->warmup_s : &opt->min_time_s))
            return 2;
      } else if (strcmp(a, "--json") == 0) {
         opt->json_path = v;
      } else if (strcmp(a, "--cuda-lib") == 0) {
         opt->cuda_lib = v;
      } else if (strcmp(a, "--cuvk-lib") == 0) {
         opt->cuvk_lib = v;
      } else if (strcmp(a, "--device") == 0) {
         char *end;
         long d = strtol(v, &end, 10);
         if (*end || d < 0 || d > 1024) {
            fprintf(stderr, "cuvk-bench: --device: '%s' is not a device ordinal\n", v);
            return 2;
         }
         opt->device = (int)d;
      } else {
         fprintf(stderr, "cuvk-bench: unknown option '%s'\n", a);
         usage(stderr);
         return 2;
      }
      if (takes_value)
         i++;
   }
   if (opt->min_time_s < 0.0)
      opt->min_time_s = opt->quick ? 5e-3 : 50e-3;
   if (opt->warmup_s < 0.0)
      opt->warmup_s = opt->quick ? 2e-3 : 20e-3;
   return 0;
}

/* The largest size: 1 GiB by default, but no more than a quarter of the
 * smallest device heap involved, so that the two buffers of a copy, the
 * Vulkan baseline's and the driver's own needs all fit. */
static void
choose_max_size(struct bench_state *s)
{
   uint64_t heap = UINT64_MAX;
   char a[32], b[32];

   for (int k = 0; k < 2; k++) {
      size_t bytes = 0;
      if ((k == 0 || s->have_cuda) && s->cu[k].DeviceTotalMem(&bytes, s->cu[k].device) == CUDA_SUCCESS)
         heap = TOOL_MIN(heap, (uint64_t)bytes);
   }
   uint64_t limit = heap / 4 / 4 * 4;
   s->opt.max_size = s->opt.max_size / 4 * 4;
   tool_format_size(heap, a, sizeof(a));
   tool_format_size(limit, b, sizeof(b));
   if (!s->opt.max_size_given && heap != UINT64_MAX && limit < s->opt.max_size) {
      s->opt.max_size = limit;
      bench_report_note(s->rep, "sizes capped at %s, a quarter of the %s device heap "
                        "(--max-size to change)", b, a);
   } else if (s->opt.max_size_given && heap != UINT64_MAX && s->opt.max_size > limit) {
      bench_report_note(s->rep, "--max-size is above a quarter of the %s device heap: "
                        "allocations may fail", a);
   }
}

static void
choose_sizes(struct bench_state *s)
{
   uint64_t max = s->opt.max_size;

   s->size_count = 0;
   if (s->opt.quick) {
      /* A smoke test's sizes; the largest only replaces them when it is
       * smaller. */
      static const uint64_t quick[] = { 4, 64 * TOOL_KIB, TOOL_MIB };
      for (size_t i = 0; i < TOOL_ARRAY_SIZE(quick); i++)
         if (quick[i] <= max)
            s->sizes[s->size_count++] = quick[i];
      if (max < TOOL_MIB && s->sizes[s->size_count - 1] != max)
         s->sizes[s->size_count++] = max;
      return;
   }
   for (uint64_t size = 4; size <= max && s->size_count < BENCH_MAX_ROWS - 1; size *= 4)
      s->sizes[s->size_count++] = size;
   if (s->sizes[s->size_count - 1] != max)
      s->sizes[s->size_count++] = max;
}

static void
fill_device_info(struct bench_state *s)
{
   struct bench_report *rep = s->rep;
   struct bench_cu *cu = &s->cu[0];
   CUuuid uuid;

   cu->DeviceGetName(rep->device_name, sizeof(rep->device_name), cu->device);
   if (cu->DeviceGetUuid(&uuid, cu->device) == CUDA_SUCCESS)
      tool_format_uuid((const uint8_t *)uuid.bytes, rep->device_uuid);
   snprintf(rep->cuvk_lib, sizeof(rep->cuvk_lib), "%s", cu->path);
}

int
main(int argc, char **argv)
{
   static struct bench_report report;
   struct bench_state s = { .rep = &report };
   char err[512];
   CUuuid uuid;
   int status;

   status = parse_options(argc, argv, &s.opt);
   if (status)
      return status < 0 ? 0 : status;
   report.quick = s.opt.quick;
   report.min_time_s = s.opt.min_time_s;
   report.warmup_s = s.opt.warmup_s;
   report.cuda_first = s.opt.cuda_first;

   if (!bench_cu_load(&s.cu[0], "cuvk", s.opt.cuvk_lib, err, sizeof(err))) {
      fprintf(stderr, "cuvk-bench: cuvk: %s\n", err);
      return 1;
   }
   if (!bench_cu_start(&s.cu[0], s.opt.device, NULL, err, sizeof(err))) {
      /* As cuvk-info does: no device is an answer, not an error. */
      printf("cuvk-bench: cuvk has no device to measure (%s); cuvk-info says why.\n", err);
      return 0;
   }
   fill_device_info(&s);
   s.cu[0].DeviceGetUuid(&uuid, s.cu[0].device);
   report.has_impl[BENCH_IMPL_CUVK] = true;
   report.has_impl[BENCH_IMPL_HOST] = true;

   if (s.opt.cuda_lib) {
      if (bench_cu_load(&s.cu[1], "CUDA", s.opt.cuda_lib, err, sizeof(err)) &&
          bench_cu_start(&s.cu[1], s.opt.device, (const uint8_t *)uuid.bytes, err, sizeof(err))) {
         s.have_cuda = true;
         report.has_impl[BENCH_IMPL_CUDA] = true;
         snprintf(report.cuda_lib, sizeof(report.cuda_lib), "%s", s.cu[1].path);
         s.cu[1].DeviceGetName(report.cuda_device_name, sizeof(report.cuda_device_name), s.cu[1].device);
      } else {
         fprintf(stderr, "cuvk-bench: real CUDA: %s\n", err);
         bench_report_note(&report, "real CUDA (%s) not measured: %s", s.opt.cuda_lib, err);
      }
   }

   if (bench_vk_init(&s.vk, (const uint8_t *)uuid.bytes, err, sizeof(err))) {
      s.have_vk = true;
      report.has_impl[BENCH_IMPL_VULKAN] = true;
      VkPhysicalDeviceDriverProperties driver = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES };
      VkPhysicalDeviceProperties2 props2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2 };
      if (s.vk.props.apiVersion >= VK_API_VERSION_1_2) {
         props2.pNext = &driver;
         vkGetPhysicalDeviceProperties2(s.vk.pdev, &props2);
         snprintf(report.vulkan_driver, sizeof(report.vulkan_driver), "%s, %s", driver.driverName,
                  driver.driverInfo);
      }
   } else {
      bench_report_note(&report, "no Vulkan baseline: %s", err);
   }

   if (bench_clock_open(&s.clock, report.device_uuid))
      bench_report_note(&report, "GPU clocks after each result, from NVML: sm_mhz, mem_mhz and "
                        "clock_reasons (why clocks were below maximum) in the JSON");

   choose_max_size(&s);
   choose_sizes(&s);
   report.max_size = s.sizes[s.size_count - 1];

   bench_report_print_header(&report, stdout);
   fflush(stdout);

   static const enum bench_id order[] = {
      BENCH_DTOD, BENCH_MEMSET, BENCH_HTOD_PINNED, BENCH_HTOD_PAGEABLE,
      BENCH_DTOH_PINNED, BENCH_DTOH_PAGEABLE, BENCH_LATENCY, BENCH_IMPORT, BENCH_SEAM,
      BENCH_SEMAPHORE, BENCH_KERNEL, BENCH_STREAMS,
   };
   for (size_t i = 0; i < TOOL_ARRAY_SIZE(order); i++) {
      unsigned first = report.table_count;
      if (!(s.opt.only & BIT(order[i])))
         continue;
      if (order[i] == BENCH_LATENCY)
         bench_latency(&s);
      else if (order[i] == BENCH_IMPORT)
         bench_import(&s);
      else if (order[i] == BENCH_SEAM)
         bench_seam(&s);
      else if (order[i] == BENCH_SEMAPHORE)
         bench_semaphore(&s);
      else if (order[i] == BENCH_KERNEL)
         bench_kernel(&s);
      else if (order[i] == BENCH_STREAMS)
         bench_streams(&s);
      else
         bench_bandwidth(&s, order[i]);
      for (unsigned t = first; t < report.table_count; t++)
         bench_report_print_table(&report, &report.tables[t], stdout);
   }

   bench_clock_close(&s.clock);
   bench_vk_finish(&s.vk);
   bench_cu_stop(&s.cu[1]);
   bench_cu_stop(&s.cu[0]);

   status = 0;
   if (tool_vk_message_count()) {
      fprintf(stderr, "cuvk-bench: the Vulkan validation layer or loader reported %u message(s)\n",
              tool_vk_message_count());
      bench_report_note(&report, "%u Vulkan validation message(s) on the tool's device",
                        tool_vk_message_count());
      status = 1;
   }
   if (s.failures) {
      fprintf(stderr, "cuvk-bench: %u measurement(s) failed\n", s.failures);
      status = 1;
   }
   if (s.opt.json_path) {
      FILE *f = fopen(s.opt.json_path, "w");
      if (!f) {
         fprintf(stderr, "cuvk-bench: cannot write %s: %s\n", s.opt.json_path, strerror(errno));
         return 1;
      }
      bench_report_write_json(&report, f);
      if (fclose(f) != 0) {
         fprintf(stderr, "cuvk-bench: writing %s: %s\n", s.opt.json_path, strerror(errno));
         return 1;
      }
   }
   return status;
}
