/*
 * The driver-API suite's harness: named cases in a table, checks that
 * print file:line with the CUresult's name and keep going, and the little
 * a test needs around them (random data, a clock, buffers of each memory
 * kind).  Failures, byte comparisons and the command line are the shared
 * tests/common/case_harness.h.
 *
 * Every test executable ends with
 *
 *    static const struct api_case cases[] = {
 *       API_CASE("api.memory.alloc.sizes", memory_alloc_sizes),
 *       API_CASE_BARE("api.context.push_pop", context_push_pop),
 *    };
 *    API_MAIN(cases)
 *
 * and is run as `exe CASE` (one case, which is how meson registers each
 * case as its own test), `exe --list`, `exe --expect NAME...` (fails
 * unless the table holds exactly those names: meson's list and the
 * table cannot drift apart), or `exe` alone to run every case in turn.
 *
 * API_CASE cases start with cuInit done and device 0's primary context
 * current (api_dev, api_ctx), and end by releasing it, which destroys its
 * VkDevice: under the validation layer and CUVK_VALIDATION_FATAL, any
 * Vulkan object cuvk leaked aborts the case there.  API_CASE_BARE cases
 * get cuInit only (API_CASE_NOINIT: not even that) and manage contexts
 * themselves.
 *
 * Only the public API is used, and only what NVIDIA's cuda.h declares
 * too: tests/api/nvidia_abi_program.c includes this file with NVIDIA's
 * header on the include path instead of ours.
 */
#ifndef CUVK_TESTS_API_TEST_H
#define CUVK_TESTS_API_TEST_H

#include <cuda.h>

#include "case_harness.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define API_EXIT_PASS CUVK_TEST_PASS
#define API_EXIT_FAIL CUVK_TEST_FAIL

#define API_KIB ((size_t)1 << 10)
#define API_MIB ((size_t)1 << 20)

#define API_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define API_MIN(a, b) ((a) < (b) ? (a) : (b))
#define API_MAX(a, b) ((a) > (b) ? (a) : (b))

static CUdevice api_dev;
static CUcontext api_ctx;

static inline const char *
api_result_name(CUresult res)
{
   const char *name = NULL;

   if (cuGetErrorName(res, &name) != CUDA_SUCCESS || !name)
      return "(unknown CUresult)";
   return name;
}

#define api_report cuvk_test_report
#define api_abort_case cuvk_test_abort_case

static inline bool
api_check_result(const char *file, int line, const char *expr, CUresult expected, CUresult got)
{
   if (got == expected)
      return true;
   api_report(file, line, "%s: expected %s (%d), got %s (%d)", expr, api_result_name(expected),
              (int)expected, api_result_name(got), (int)got);
   return false;
}

static inline bool __attribute__((format(printf, 4, 5)))
api_check_at(const char *file, int line, bool ok, const char *fmt, ...)
{
   va_list ap;

   if (ok)
      return true;
   va_start(ap, fmt);
   cuvk_test_vreport(file, line, fmt, ap);
   va_end(ap);
   return false;
}

/* CHECK: report and go on (an expression: true when it held).  REQUIRE:
 * report and end the case. */
#define API_CHECK(cond)                                                        \
   api_check_at(__FILE__, __LINE__, !!(cond), "check failed: %s", #cond)

#define API_CHECK_MSG(cond, ...)                                               \
   api_check_at(__FILE__, __LINE__, !!(cond), __VA_ARGS__)

#define API_REQUIRE(cond)                                                      \
   do {                                                                        \
      if (!(cond)) {                                                           \
         api_report(__FILE__, __LINE__, "requirement failed: %s", #cond);      \
         api_abort_case();                                                     \
      }                                                                        \
   } while (0)

#define API_CHECK_RES(expected, call)                                          \
   api_check_result(__FILE__, __LINE__, #call, (expected), (call))

#define API_CHECK_CU(call) API_CHECK_RES(CUDA_SUCCESS, call)

#define API_REQUIRE_RES(expected, call)                                        \
   do {                                                                        \
      if (!API_CHECK_RES(expected, call))                                      \
         api_abort_case();                                                     \
   } while (0)

#define API_REQUIRE_CU(call) API_REQUIRE_RES(CUDA_SUCCESS, call)

#define API_CHECK_BYTES(got, want, n, ...)                                     \
   cuvk_test_check_bytes(__FILE__, __LINE__, (got), (want), (n), __VA_ARGS__)

/* The 32-bit words of p's bytes that are not value. */
static inline size_t
api_count_not(const uint32_t *p, size_t bytes, uint32_t value)
{
   size_t bad = 0;

   for (size_t i = 0; i < bytes / 4; i++)
      bad += p[i] != value;
   return bad;
}

/* Every 32-bit word of p's bytes is value; what names them in the report. */
#define API_CHECK_WORDS(p, bytes, value, what)                                 \
   do {                                                                        \
      size_t bad_ = api_count_not((const uint32_t *)(p), (bytes), (value));    \
      API_CHECK_MSG(bad_ == 0, "%s: %zu of %zu words are not 0x%08x", (what),  \
                    bad_, (size_t)(bytes) / 4, (unsigned)(value));             \
   } while (0)

static inline double
api_now(void)
{
   struct timespec ts;

   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Reproducible data that differs at every byte and call. */
#define api_rand cuvk_test_rand

static inline void
api_fill_random(void *p, size_t n, uint64_t seed)
{
   uint8_t *b = p;
   uint64_t state = seed;
   size_t i = 0;

   for (; i + 8 <= n; i += 8) {
      uint64_t v = api_rand(&state);
      memcpy(b + i, &v, 8);
   }
   if (i < n) {
      uint64_t v = api_rand(&state);
      memcpy(b + i, &v, n - i);
   }
}

static inline void *
api_xmalloc(size_t n)
{
   void *p = malloc(n ? n : 1);

   API_REQUIRE(p != NULL);
   return p;
}

/* Page-aligned pageable memory, so offsets a test adds are the only
 * misalignment. */
static inline void *
api_xmalloc_aligned(size_t n)
{
   void *p = NULL;

   API_REQUIRE(posix_memalign(&p, 4096, n ? n : 1) == 0);
   return p;
}

/* Reads n bytes of device memory back and compares them. */
static inline bool __attribute__((format(printf, 6, 7)))
api_check_device_at(const char *file, int line, CUdeviceptr src, const void *want, size_t n,
                    const char *fmt, ...)
{
   uint8_t *got = api_xmalloc(n);
   char what[256];
   va_list ap;
   bool ok;

   va_start(ap, fmt);
   vsnprintf(what, sizeof(what), fmt, ap);
   va_end(ap);
   ok = api_check_result(file, line, "cuMemcpyDtoH(readback)", CUDA_SUCCESS,
                         cuMemcpyDtoH(got, src, n));
   if (ok)
      ok = cuvk_test_check_bytes(file, line, got, want, n, "%s", what);
   free(got);
   return ok;
}

#define API_CHECK_DEVICE(src, want, n, ...)                                    \
   api_check_device_at(__FILE__, __LINE__, (src), (want), (n), __VA_ARGS__)

/* Open file descriptors of this process. */
static inline int
api_fd_count(void)
{
   DIR *dir = opendir("/proc/self/fd");
   struct dirent *e;
   int count = 0;

   if (!dir)
      return -1;
   while ((e = readdir(dir)))
      if (e->d_name[0] != '.')
         count++;
   closedir(dir);
   return count - 1; /* the directory stream's own descriptor */
}

/* ---- Buffers of every memory kind a copy can name ---- */

enum api_mem_kind {
   API_MEM_DEVICE,      /* cuMemAlloc */
   API_MEM_PINNED,      /* cuMemAllocHost */
   API_MEM_REGISTERED,  /* malloc + cuMemHostRegister */
   API_MEM_PAGEABLE,    /* malloc */
};

static const char *const api_mem_kind_names[] = {
   [API_MEM_DEVICE] = "device",
   [API_MEM_PINNED] = "pinned",
   [API_MEM_REGISTERED] = "registered",
   [API_MEM_PAGEABLE] = "pageable",
};

struct api_buf {
   enum api_mem_kind kind;
   size_t size;
   CUdeviceptr dptr;   /* API_MEM_DEVICE */
   uint8_t *host;      /* the host kinds */
};

static inline void
api_buf_create(struct api_buf *b, enum api_mem_kind kind, size_t size)
{
   void *p = NULL;

   memset(b, 0, sizeof(*b));
   b->kind = kind;
   b->size = size;
   switch (kind) {
   case API_MEM_DEVICE:
      API_REQUIRE_CU(cuMemAlloc(&b->dptr, size));
      break;
   case API_MEM_PINNED:
      API_REQUIRE_CU(cuMemAllocHost(&p, size));
      b->host = p;
      break;
   case API_MEM_REGISTERED:
      b->host = api_xmalloc_aligned(size);
      API_REQUIRE_CU(cuMemHostRegister(b->host, size, 0));
      break;
   case API_MEM_PAGEABLE:
      b->host = api_xmalloc_aligned(size);
      break;
   }
}

static inline void
api_buf_destroy(struct api_buf *b)
{
   switch (b->kind) {
   case API_MEM_DEVICE:
      API_CHECK_CU(cuMemFree(b->dptr));
      break;
   case API_MEM_PINNED:
      API_CHECK_CU(cuMemFreeHost(b->host));
      break;
   case API_MEM_REGISTERED:
      API_CHECK_CU(cuMemHostUnregister(b->host));
      free(b->host);
      break;
   case API_MEM_PAGEABLE:
      free(b->host);
      break;
   }
   memset(b, 0, sizeof(*b));
}

/* The address cuMemcpy takes for byte off of b. */
static inline CUdeviceptr
api_buf_ptr(const struct api_buf *b, size_t off)
{
   if (b->kind == API_MEM_DEVICE)
      return b->dptr + off;
   return (CUdeviceptr)(uintptr_t)(b->host + off);
}

static inline void
api_buf_write(const struct api_buf *b, size_t off, const void *src, size_t n)
{
   if (b->kind == API_MEM_DEVICE)
      API_REQUIRE_CU(cuMemcpyHtoD(b->dptr + off, src, n));
   else
      memcpy(b->host + off, src, n);
}

static inline void
api_buf_read(const struct api_buf *b, size_t off, void *dst, size_t n)
{
   if (b->kind == API_MEM_DEVICE)
      API_REQUIRE_CU(cuMemcpyDtoH(dst, b->dptr + off, n));
   else
      memcpy(dst, b->host + off, n);
}

/* ---- Cases and the runner ---- */

enum api_case_setup {
   API_SETUP_CONTEXT,  /* cuInit, primary context of device 0 current */
   API_SETUP_INIT,     /* cuInit only */
   API_SETUP_NONE,     /* nothing: the case tests what comes before cuInit */
};

struct api_case {
   const char *name;
   void (*run)(void);
   enum api_case_setup setup;
   /* For cases that share one function: what this one is about, found
    * in api_case_data while it runs. */
   const void *data;
};

#define API_CASE(name, fn) { name, fn, API_SETUP_CONTEXT, NULL }
#define API_CASE_BARE(name, fn) { name, fn, API_SETUP_INIT, NULL }
#define API_CASE_NOINIT(name, fn) { name, fn, API_SETUP_NONE, NULL }
#define API_CASE_DATA(name, fn, data) { name, fn, API_SETUP_CONTEXT, data }

static const void *api_case_data;
static const char *api_case_name;

static inline void
api_case_setup(const struct api_case *c)
{
   if (c->setup == API_SETUP_NONE)
      return;
   API_REQUIRE_CU(cuInit(0));
   API_REQUIRE_CU(cuDeviceGet(&api_dev, 0));
   if (c->setup == API_SETUP_CONTEXT) {
      API_REQUIRE_CU(cuDevicePrimaryCtxRetain(&api_ctx, api_dev));
      API_REQUIRE_CU(cuCtxSetCurrent(api_ctx));
   }
}

static inline void
api_case_teardown(const struct api_case *c)
{
   if (c->setup != API_SETUP_CONTEXT)
      return;
   /* Releasing the last reference destroys the context's VkDevice, where
    * the validation layer reports whatever cuvk left behind. */
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   API_CHECK_CU(cuDevicePrimaryCtxRelease(api_dev));
   api_ctx = NULL;
}

static inline int
api_run_case(const void *p)
{
   const struct api_case *c = p;
   unsigned before = cuvk_test_failures();
   double t0 = api_now();

   printf("%s ...\n", c->name);
   fflush(stdout);
   api_case_data = c->data;
   api_case_name = c->name;
   api_case_setup(c);
   c->run();
   api_case_teardown(c);
   unsigned failed = cuvk_test_failures() - before;
   printf("%s: %s (%.3f s)\n", c->name, failed ? "FAIL" : "pass", api_now() - t0);
   fflush(stdout);
   return failed ? API_EXIT_FAIL : API_EXIT_PASS;
}

/* Every case in one process: cases that need a fresh process
 * (API_SETUP_NONE) only make sense first, and run only if they are. */
static inline int
api_run_all(const struct cuvk_test_table *t)
{
   const struct api_case *cases = t->cases;
   int status = API_EXIT_PASS;

   for (size_t i = 0; i < t->count; i++) {
      if (cases[i].setup == API_SETUP_NONE && i > 0) {
         printf("%s: not run (needs a process of its own)\n", cases[i].name);
         continue;
      }
      if (api_run_case(&cases[i]) != API_EXIT_PASS)
         status = API_EXIT_FAIL;
   }
   return status;
}

#define API_MAIN(cases)                                                        \
   _Static_assert(offsetof(struct api_case, name) == 0, "name leads a case");  \
   int main(int argc, char **argv)                                             \
   {                                                                           \
      struct cuvk_test_table table = CUVK_TEST_TABLE(cases);                   \
      return cuvk_test_main(argc, argv, &table, api_run_case, api_run_all);    \
   }

#endif
