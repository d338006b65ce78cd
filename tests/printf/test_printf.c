/*
 * printf.*: device printf through the driver API.  The kernels are
 * tests/kernels/printf.cu; each case runs them, captures what the process
 * writes on stdout (fd 1 redirected to a file around the calls that
 * print) and compares it with the text the host's own printf makes of the
 * same formats and arguments.
 *
 *    test_printf CASE PRINTF.ptx
 */
#include <cuda.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver_harness.h"

static CUmodule mod;

/* stdout into a temporary file until capture_end, which returns what was
 * written (malloc'ed). */
static int saved_stdout = -1;
static char capture_path[64];

static void
capture_begin(void)
{
   fflush(stdout);
   snprintf(capture_path, sizeof(capture_path), "/tmp/cuvk_printf_XXXXXX");
   int fd = mkstemp(capture_path);
   if (fd < 0) {
      perror("mkstemp");
      exit(1);
   }
   saved_stdout = dup(1);
   dup2(fd, 1);
   close(fd);
}

static char *
capture_end(void)
{
   fflush(stdout);
   dup2(saved_stdout, 1);
   close(saved_stdout);
   char *text = drv_test_read_file(capture_path, NULL);
   unlink(capture_path);
   /* CUVK_TEST_ECHO=1 shows what was captured, for debugging. */
   if (getenv("CUVK_TEST_ECHO"))
      fprintf(stderr, "captured:\n%s", text);
   return text;
}

static CUfunction
function(const char *name)
{
   CUfunction f = NULL;
   OK(cuModuleGetFunction(&f, mod, name));
   return f;
}

static int
cmp_lines(const void *a, const void *b)
{
   return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Splits text into its lines (in place), sorted; returns the count. */
static size_t
sorted_lines(char *text, char ***out)
{
   size_t n = 0, cap = 64;
   char **lines = malloc(cap * sizeof(*lines));
   for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
      if (n == cap)
         lines = realloc(lines, (cap *= 2) * sizeof(*lines));
      lines[n++] = l;
   }
   qsort(lines, n, sizeof(*lines), cmp_lines);
   *out = lines;
   return n;
}

/* Many blocks and threads: every line once, whichever order. */
static void
case_threads(void)
{
   CUfunction f = function("print_ids");
   int tag = 77;
   void *params[] = {&tag};
   const unsigned blocks = 12, threads = 64;
   capture_begin();
   OK(cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, NULL, params, NULL));
   OK(cuCtxSynchronize());
   char *got = capture_end();
   /* The expected text, sorted the same way. */
   size_t cap = blocks * threads * 48 + 1, at = 0;
   char *want = malloc(cap);
   for (unsigned b = 0; b < blocks; b++)
      for (unsigned t = 0; t < threads; t++)
         at += (size_t)snprintf(want + at, cap - at, "block %d thread %d tag %d\n", b, t, tag);
   char **gl, **wl;
   size_t gn = sorted_lines(got, &gl), wn = sorted_lines(want, &wl);
   CHECK(gn == wn);
   for (size_t i = 0; i < gn && i < wn; i++) {
      if (strcmp(gl[i], wl[i]) != 0) {
         cuvk_test_report(__FILE__, __LINE__, "line %zu: got \"%s\", want \"%s\"", i, gl[i], wl[i]);
         break;
      }
   }
   free(gl);
   free(wl);
   free(got);
   free(want);
}

/* Every conversion on one thread: exactly the host's text. */
static void
case_conversions(void)
{
   CUfunction f = function("print_all");
   int i = -1234;
   unsigned u = 0xdeadbeefu;
   long long ll = -1234567890123ll;
   unsigned long long ull = 0xfedcba9876543210ull;
   double d = 3.14159265358979;
   float fl = 2.5e-3f;
   char c = 'Q';
   short h = -321;
   static const char dev_text[] = "from device memory";
   CUdeviceptr dev_str;
   OK(cuMemAlloc(&dev_str, sizeof(dev_text)));
   OK(cuMemcpyHtoD(dev_str, dev_text, sizeof(dev_text)));
   void *params[] = {&i, &u, &ll, &ull, &d, &fl, &c, &h, &dev_str};
   capture_begin();
   OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
   OK(cuStreamSynchronize(NULL));
   char *got = capture_end();

   char want[2048];
   size_t at = 0;
   at += (size_t)snprintf(want + at, sizeof(want) - at, "ints %d %i %u %x %X %o|%5d|%-5d|%05d|%+d|% d\n",
                          i, i, u, u, u, u, i, i, i, i, i);
   at += (size_t)snprintf(want + at, sizeof(want) - at, "wide %lld %llu %llx %ld %lu|%hd %hhd %hu\n", ll,
                          ull, ull, (long)ll, (unsigned long)ull, h, (signed char)i, (unsigned short)h);
   at += (size_t)snprintf(want + at, sizeof(want) - at, "floats %f %e %g %a %.3f %10.2e %G %E %F\n", d, d,
                          d, d, d, d, (double)fl, d, d);
   at += (size_t)snprintf(want + at, sizeof(want) - at, "strings %s|%10s|%-6s|%.2s|%c|%s|%c%c\n", "lit",
                          "right", "left", "trunc", c, dev_text, 'o', 'k');
   at += (size_t)snprintf(want + at, sizeof(want) - at, "misc %p %%|%*d|%.*f|%-*.*s|\n",
                          (void *)(uintptr_t)dev_str, 6, i, 2, d, 7, 3, "stars");
   at += (size_t)snprintf(want + at, sizeof(want) - at, "no arguments\n");
   if (strcmp(got, want) != 0) {
      cuvk_test_report(__FILE__, __LINE__, "got:\n%s\nwant:\n%s", got, want);
   }
   free(got);
   OK(cuMemFree(dev_str));
}

/* printf's value is its argument count; output at a blocking copy. */
static void
case_return(void)
{
   CUfunction f = function("print_count");
   const unsigned threads = 32;
   CUdeviceptr out;
   OK(cuMemAlloc(&out, threads * 2 * sizeof(int)));
   void *params[] = {&out};
   int host[64];
   capture_begin();
   OK(cuLaunchKernel(f, 1, 1, 1, threads, 1, 1, 0, NULL, params, NULL));
   OK(cuMemcpyDtoH(host, out, sizeof(host)));
   char *got = capture_end();
   for (unsigned t = 0; t < threads; t++) {
      CHECK(host[t * 2] == 3);
      CHECK(host[t * 2 + 1] == 0);
   }
   char **lines;
   size_t n = sorted_lines(got, &lines);
   CHECK(n == threads * 2);
   unsigned none = 0;
   for (size_t k = 0; k < n; k++) {
      unsigned id;
      if (strcmp(lines[k], "count none") == 0)
         none++;
      else if (sscanf(lines[k], "count %u 2.500000 x", &id) != 1 || id >= threads)
         CHECK(!"a line that no thread printed");
   }
   CHECK(none == threads);
   free(lines);
   free(got);
   OK(cuMemFree(out));
}

/* A buffer far too small: what fits is printed whole, in each thread's
 * order, the rest dropped; the next synchronisation's buffer is empty
 * again; the FIFO's size is fixed once a kernel printed. */
static void
case_overflow(void)
{
   OK(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 4096));
   size_t limit = 0;
   OK(cuCtxGetLimit(&limit, CU_LIMIT_PRINTF_FIFO_SIZE));
   CHECK(limit == 4096);
   CUfunction f = function("print_flood");
   int n = 20;
   void *params[] = {&n};
   const unsigned threads = 64;
   for (int round = 0; round < 2; round++) {
      capture_begin();
      OK(cuLaunchKernel(f, 2, 1, 1, threads, 1, 1, 0, NULL, params, NULL));
      OK(cuCtxSynchronize());
      char *got = capture_end();
      int next[128];
      memset(next, 0, sizeof(next));
      unsigned lines = 0;
      for (char *save = NULL, *l = strtok_r(got, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
         int id, k;
         if (sscanf(l, "flood %d %d", &id, &k) != 2 || id < 0 || id >= 128 || k < next[id]) {
            cuvk_test_report(__FILE__, __LINE__, "round %d: bad line \"%s\"", round, l);
            break;
         }
         next[id] = k + 1;
         lines++;
      }
      /* 24-byte records in 4096 bytes: at most 170 of the 2560 lines. */
      CHECK(lines > 0 && lines <= 4096 / 24);
      free(got);
   }
   /* As on an H100: even the same size is refused once a kernel printed. */
   CHECK_CU(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 1 << 20), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 4096), CUDA_ERROR_INVALID_VALUE);
}

/* A kernel prints and then faults: the launch's synchronisation fails,
 * and what it printed is whole lines, each thread's once. */
static void
case_fault(void)
{
   CUfunction f = function("print_fault");
   CUdeviceptr wild = 0x10;
   void *params[] = {&wild};
   capture_begin();
   OK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
   CHECK_CU(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
   char *got = capture_end();
   unsigned seen[32] = {0}, lines = 0;
   for (char *save = NULL, *l = strtok_r(got, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
      unsigned id;
      if (sscanf(l, "before %u", &id) != 1 || id >= 32 || seen[id]++) {
         cuvk_test_report(__FILE__, __LINE__, "bad line \"%s\"", l);
      }
      lines++;
   }
   CHECK(lines <= 32);
   free(got);
}

/* Output of a stream's work at cuStreamSynchronize and at an event's,
 * and at module unload. */
static void
case_sync_points(void)
{
   CUfunction f = function("print_ids");
   CUstream s;
   CUevent ev;
   OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
   OK(cuEventCreate(&ev, 0));
   int tag = 1;
   void *params[] = {&tag};
   capture_begin();
   OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, params, NULL));
   OK(cuStreamSynchronize(s));
   tag = 2;
   OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, params, NULL));
   OK(cuEventRecord(ev, s));
   OK(cuEventSynchronize(ev));
   tag = 3;
   OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, params, NULL));
   OK(cuModuleUnload(mod));
   mod = NULL;
   char *got = capture_end();
   const char *want = "block 0 thread 0 tag 1\nblock 0 thread 0 tag 2\nblock 0 thread 0 tag 3\n";
   if (strcmp(got, want) != 0) {
      cuvk_test_report(__FILE__, __LINE__, "got:\n%s\nwant:\n%s", got, want);
   }
   free(got);
   OK(cuEventDestroy(ev));
   OK(cuStreamDestroy(s));
}

static const struct drv_case cases[] = {
   {"printf.threads", case_threads},
   {"printf.conversions", case_conversions},
   {"printf.return", case_return},
   {"printf.overflow", case_overflow},
   {"printf.fault", case_fault},
   {"printf.sync_points", case_sync_points},
};

int
main(int argc, char **argv)
{
   return drv_test_main(argc, argv, &(struct drv_program){
      .cases = cases,
      .count = sizeof(cases) / sizeof(cases[0]),
      .usage = "CASE PRINTF.ptx",
      .module = &mod,
   });
}
