/*
 * kernel.loop_limit.*: lavapipe's loop limit (docs/compiler.md,
 * "Lavapipe's loop limit").  llvmpipe ends every loop of an invocation
 * vector once all its loops together ran 65535 iterations (Mesa's
 * LP_MAX_TGSI_LOOP_ITERATIONS), silently; cuvk's kernels count and the
 * launch fails with CUDA_ERROR_LAUNCH_FAILED instead.  The kernels are
 * tests/kernels/loop_limit.cu:
 *
 *   kernel.loop_limit.short      1,000 and 60,000 iterations: every
 *                                thread's exact sum, on every driver
 *   kernel.loop_limit.long       70,000 iterations: on llvmpipe the
 *                                synchronisation answers
 *                                CUDA_ERROR_LAUNCH_FAILED and the context
 *                                stays failed; elsewhere the exact sums
 *   kernel.loop_limit.two_loops  two loops of 40,000 one after the other:
 *                                the same (80,000 together)
 *
 *    test_loop_limit CASE LOOP_LIMIT.ptx
 */
#include <cuda.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "driver_harness.h"

#define THREADS 32u

static CUmodule mod;

static bool
on_llvmpipe(void)
{
   CUdevice dev;
   char name[256] = "";
   OK(cuDeviceGet(&dev, 0));
   OK(cuDeviceGetName(name, sizeof(name), dev));
   return strstr(name, "llvmpipe") != NULL;
}

/* What loop_count (two = false) or loop_two leaves in out[t]. */
static unsigned
expected(unsigned n, unsigned t, bool two)
{
   unsigned m = n + (t & 1), s = 0;
   for (unsigned i = 0; i < m; i++)
      s += i & 7;
   if (two)
      for (unsigned i = 0; i < m; i++)
         s += i & 3;
   return s;
}

/* Runs kernel with n over one block; CUDA_SUCCESS with every thread's sum
 * checked, or the synchronisation's error. */
static CUresult
run(const char *kernel, unsigned n, bool two)
{
   CUfunction f;
   CUdeviceptr out;
   unsigned host[THREADS];
   OK(cuModuleGetFunction(&f, mod, kernel));
   OK(cuMemAlloc(&out, sizeof(host)));
   OK(cuMemsetD32(out, 0xdeadbeef, THREADS));
   void *params[] = {&out, &n};
   OK(cuLaunchKernel(f, 1, 1, 1, THREADS, 1, 1, 0, NULL, params, NULL));
   CUresult r = cuCtxSynchronize();
   if (r != CUDA_SUCCESS)
      return r;
   OK(cuMemcpyDtoH(host, out, sizeof(host)));
   for (unsigned t = 0; t < THREADS; t++)
      if (host[t] != expected(n, t, two)) {
         cuvk_test_report(__FILE__, __LINE__, "%s n=%u: thread %u has %u, expected %u", kernel, n, t,
                          host[t], expected(n, t, two));
         break;
      }
   OK(cuMemFree(out));
   return CUDA_SUCCESS;
}

static void
case_short(void)
{
   OK(run("loop_count", 1000, false));
   OK(run("loop_count", 60000, false));
   OK(run("loop_two", 1000, true));
}

/* A launch past the limit: failed on llvmpipe, for good; exact elsewhere. */
static void
expect_limit(const char *kernel, unsigned n, bool two)
{
   if (!on_llvmpipe()) {
      OK(run(kernel, n, two));
      return;
   }
   CUfunction f;
   CUdeviceptr p;
   OK(cuModuleGetFunction(&f, mod, kernel));
   OK(cuMemAlloc(&p, THREADS * sizeof(unsigned)));
   CHECK_CU(run(kernel, n, two), CUDA_ERROR_LAUNCH_FAILED);
   /* Sticky, as CUDA's unspecified launch failure is. */
   CHECK_CU(cuCtxSynchronize(), CUDA_ERROR_LAUNCH_FAILED);
   void *params[] = {&p, &n};
   CHECK_CU(cuLaunchKernel(f, 1, 1, 1, THREADS, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_LAUNCH_FAILED);
   CHECK_CU(cuMemsetD32(p, 0, THREADS), CUDA_ERROR_LAUNCH_FAILED);
   /* The harness unloads the module and releases the failed context. */
}

static void
case_long(void)
{
   expect_limit("loop_count", 70000, false);
}

static void
case_two_loops(void)
{
   expect_limit("loop_two", 40000, true);
}

static const struct drv_case cases[] = {
   {"kernel.loop_limit.short", case_short},
   {"kernel.loop_limit.long", case_long},
   {"kernel.loop_limit.two_loops", case_two_loops},
};

int
main(int argc, char **argv)
{
   return drv_test_main(argc, argv, &(struct drv_program){
      .cases = cases,
      .count = sizeof(cases) / sizeof(cases[0]),
      .usage = "CASE LOOP_LIMIT.ptx",
      .module = &mod,
   });
}
