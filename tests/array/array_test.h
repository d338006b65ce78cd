/*
 * The array suite's harness: a table of named cases (each its own meson
 * test and process, `exe NAME`; `exe --list` prints them), checks that
 * print file:line with the CUresult's name and keep going, and the CUDA
 * setup every case shares: cuInit, device 0's primary context current,
 * released at the end, which destroys cuvk's VkDevice so that a leaked
 * Vulkan object aborts the case under CUVK_VALIDATION_FATAL.
 *
 * Only the public API is used.
 */
#ifndef CUVK_TESTS_ARRAY_TEST_H
#define CUVK_TESTS_ARRAY_TEST_H

#include <cuda.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AT_PASS 0
#define AT_FAIL 1
#define AT_SKIP 77

#define AT_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define AT_MIN(a, b) ((a) < (b) ? (a) : (b))
#define AT_MAX(a, b) ((a) > (b) ? (a) : (b))

static unsigned at_failures;
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

static inline void
at_fail(const char *file, int line, const char *what)
{
   if (at_failures++ < 40)
      fprintf(stderr, "%s:%d: FAIL: %s\n", file, line, what);
}

#define AT_CHECK(cond)                                 \
   do {                                                \
      if (!(cond))                                     \
         at_fail(__FILE__, __LINE__, #cond);           \
   } while (0)

/* A call that must give `want`. */
#define AT_EXPECT(want, call)                                                     \
   do {                                                                           \
      CUresult at_res_ = (call);                                                  \
      if (at_res_ != (want)) {                                                    \
         char at_buf_[512];                                                       \
         snprintf(at_buf_, sizeof(at_buf_), "%s returned %s, expected %s", #call, \
                  at_result_name(at_res_), at_result_name(want));                 \
         at_fail(__FILE__, __LINE__, at_buf_);                                    \
      }                                                                           \
   } while (0)

#define AT_OK(call) AT_EXPECT(CUDA_SUCCESS, call)

/* Byte comparison that says where the first difference is. */
static inline bool
at_compare(const char *file, int line, const char *what, const void *got, const void *want, size_t n)
{
   const uint8_t *g = got, *w = want;
   for (size_t i = 0; i < n; i++) {
      if (g[i] != w[i]) {
         char buf[256];
         snprintf(buf, sizeof(buf), "%s: byte %zu of %zu is 0x%02x, expected 0x%02x", what, i, n, g[i], w[i]);
         at_fail(file, line, buf);
         return false;
      }
   }
   return true;
}

#define AT_COMPARE(what, got, want, n) at_compare(__FILE__, __LINE__, (what), (got), (want), (n))

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
at_run(const struct at_case *c)
{
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
   printf("%s: %s\n", c->name, at_failures ? "FAIL" : "pass");
   return at_failures ? AT_FAIL : AT_PASS;
}

static inline int
at_main(int argc, char **argv, const struct at_case *cases, size_t count)
{
   if (argc == 2 && strcmp(argv[1], "--list") == 0) {
      for (size_t i = 0; i < count; i++)
         printf("%s\n", cases[i].name);
      return AT_PASS;
   }
   if (argc == 2) {
      for (size_t i = 0; i < count; i++)
         if (strcmp(argv[1], cases[i].name) == 0)
            return at_run(&cases[i]);
      fprintf(stderr, "no case named %s\n", argv[1]);
      return AT_FAIL;
   }
   fprintf(stderr, "usage: %s CASE | --list\n", argv[0]);
   return AT_FAIL;
}

#define AT_MAIN(cases)                                                 \
   int main(int argc, char **argv)                                     \
   {                                                                   \
      return at_main(argc, argv, (cases), AT_ARRAY_SIZE(cases));       \
   }

#endif
