/*
 * The array suite's harness: a table of named cases (each its own meson
 * test and process, `exe NAME`; `exe --list` prints them; the command line
 * and failure counting are the shared tests/common/case_harness.h), checks
 * that print file:line with the CUresult's name and keep going, and the
 * CUDA setup every case shares: cuInit, device 0's primary context current,
 * released at the end, which destroys cuvk's VkDevice so that a leaked
 * Vulkan object aborts the case under CUVK_VALIDATION_FATAL.
 *
 * Only the public API is used.
 */
#ifndef CUVK_TESTS_ARRAY_TEST_H
#define CUVK_TESTS_ARRAY_TEST_H

#include <cuda.h>

#include "case_harness.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AT_PASS CUVK_TEST_PASS
#define AT_FAIL CUVK_TEST_FAIL

#define AT_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define AT_MIN(a, b) ((a) < (b) ? (a) : (b))
#define AT_MAX(a, b) ((a) > (b) ? (a) : (b))

static CUdevice at_dev;
static CUcontext at_ctx;

static inline const char *
at_result_name(CUresult res)
{
   const char *name = NULL;
   if (cuGetErrorName(res, &name) != CUDA_SUCCESS || !name)
      return "(unknown CUresult)";
   return name;
}

#define AT_CHECK(cond)                                                         \
   do {                                                                        \
      if (!(cond))                                                             \
         cuvk_test_report(__FILE__, __LINE__, "check failed: %s", #cond);      \
   } while (0)

/* A call that must give `want`. */
#define AT_EXPECT(want, call)                                                  \
   do {                                                                        \
      CUresult at_res_ = (call);                                               \
      if (at_res_ != (want))                                                   \
         cuvk_test_report(__FILE__, __LINE__, "%s returned %s, expected %s", #call, \
                          at_result_name(at_res_), at_result_name(want));      \
   } while (0)

#define AT_OK(call) AT_EXPECT(CUDA_SUCCESS, call)

#define AT_COMPARE(what, got, want, n)                                         \
   cuvk_test_check_bytes(__FILE__, __LINE__, (got), (want), (n), "%s", (what))

static uint64_t at_rng_state = 0x9e3779b97f4a7c15ull;

static inline uint64_t
at_rand(void)
{
   uint64_t x = at_rng_state;
   x ^= x << 13;
   x ^= x >> 7;
   x ^= x << 17;
   return at_rng_state = x;
}

static inline void
at_fill_random(void *p, size_t n)
{
   uint8_t *b = p;
   size_t i = 0;
   for (; i + 8 <= n; i += 8) {
      uint64_t r = at_rand();
      memcpy(b + i, &r, 8);
   }
   for (; i < n; i++)
      b[i] = (uint8_t)at_rand();
}

static inline void *
at_malloc(size_t n)
{
   void *p = malloc(n ? n : 1);
   if (!p) {
      fprintf(stderr, "out of memory (%zu bytes)\n", n);
      exit(AT_FAIL);
   }
   return p;
}

struct at_case {
   const char *name;
   void (*fn)(void);
   bool bare;   /* manages cuInit and contexts itself */
};

#define AT_CASE(name, fn) { name, fn, false }
#define AT_CASE_BARE(name, fn) { name, fn, true }

static inline int
at_run(const void *p)
{
   const struct at_case *c = p;

   if (!c->bare) {
      CUresult res = cuInit(0);
      if (res == CUDA_SUCCESS)
         res = cuDeviceGet(&at_dev, 0);
      if (res == CUDA_SUCCESS)
         res = cuDevicePrimaryCtxRetain(&at_ctx, at_dev);
      if (res == CUDA_SUCCESS)
         res = cuCtxSetCurrent(at_ctx);
      if (res != CUDA_SUCCESS) {
         fprintf(stderr, "%s: CUDA setup failed: %s\n", c->name, at_result_name(res));
         return AT_FAIL;
      }
   }
   c->fn();
   if (!c->bare) {
      AT_OK(cuCtxSynchronize());
      AT_OK(cuDevicePrimaryCtxRelease(at_dev));
   }
   unsigned failures = cuvk_test_failures();
   printf("%s: %s\n", c->name, failures ? "FAIL" : "pass");
   return failures ? AT_FAIL : AT_PASS;
}

#define AT_MAIN(cases)                                                         \
   _Static_assert(offsetof(struct at_case, name) == 0, "name leads a case");   \
   int main(int argc, char **argv)                                             \
   {                                                                           \
      struct cuvk_test_table table = CUVK_TEST_TABLE(cases);                   \
      return cuvk_test_main(argc, argv, &table, at_run, NULL);                 \
   }

#endif
