/*
 * The runtime-API suite's harness: named cases in a table and checks that
 * print file:line with the cudaError_t's name and keep going.  Failures,
 * byte comparisons and the command line are the shared
 * tests/common/case_harness.h.
 *
 * Every test executable ends with
 *
 *    static const struct rt_case cases[] = {
 *       RT_CASE("runtime.memory.malloc_free", memory_malloc_free),
 *    };
 *    RT_MAIN(cases)
 *
 * and is run as `exe CASE` (one case: how meson registers each case as
 * its own test and process), `exe --list`, `exe --expect NAME...` (fails
 * unless the table holds exactly those names, so meson's list and the
 * table cannot drift apart), or `exe` alone to run every case, each in a
 * child process of its own.
 *
 * A case starts with nothing initialised, as a program does: the runtime
 * initialises itself.  After it, the harness calls cudaDeviceReset, which
 * destroys the primary context's VkDevice: under the validation layer and
 * CUVK_VALIDATION_FATAL any Vulkan object cuvk leaked aborts the case.
 *
 * Only cuda_runtime_api.h is used, and only what NVIDIA's declares too:
 * the same sources build against NVIDIA's headers (runtime.nvidia_headers.*).
 */
#ifndef CUVK_TESTS_RT_TEST_H
#define CUVK_TESTS_RT_TEST_H

#include <cuda_runtime_api.h>

#include "case_harness.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define RT_EXIT_PASS CUVK_TEST_PASS
#define RT_EXIT_FAIL CUVK_TEST_FAIL

#define RT_KIB ((size_t)1 << 10)
#define RT_MIB ((size_t)1 << 20)

#define RT_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define rt_report cuvk_test_report
#define rt_abort_case cuvk_test_abort_case

static inline bool
rt_check_error(const char *file, int line, const char *expr, cudaError_t expected, cudaError_t got)
{
   if (got == expected)
      return true;
   rt_report(file, line, "%s: expected %s (%d), got %s (%d)", expr, cudaGetErrorName(expected),
             (int)expected, cudaGetErrorName(got), (int)got);
   return false;
}

/* CHECK: report and go on.  REQUIRE: report and end the case. */
#define RT_CHECK(cond)                                                         \
   do {                                                                        \
      if (!(cond))                                                             \
         rt_report(__FILE__, __LINE__, "check failed: %s", #cond);             \
   } while (0)

#define RT_CHECK_MSG(cond, ...)                                                \
   do {                                                                        \
      if (!(cond))                                                             \
         rt_report(__FILE__, __LINE__, __VA_ARGS__);                           \
   } while (0)

#define RT_REQUIRE(cond)                                                       \
   do {                                                                        \
      if (!(cond)) {                                                           \
         rt_report(__FILE__, __LINE__, "requirement failed: %s", #cond);       \
         rt_abort_case();                                                      \
      }                                                                        \
   } while (0)

#define RT_CHECK_ERR(expected, call)                                           \
   rt_check_error(__FILE__, __LINE__, #call, (expected), (call))

#define RT_CHECK_OK(call) RT_CHECK_ERR(cudaSuccess, call)

#define RT_REQUIRE_ERR(expected, call)                                         \
   do {                                                                        \
      if (!RT_CHECK_ERR(expected, call))                                       \
         rt_abort_case();                                                      \
   } while (0)

#define RT_REQUIRE_OK(call) RT_REQUIRE_ERR(cudaSuccess, call)

/* An expected failure: returns it, and leaves it as the thread's last
 * error, which the check then takes (so the next case step starts clean). */
#define RT_CHECK_FAILS(expected, call)                                         \
   do {                                                                        \
      RT_CHECK_ERR(expected, call);                                            \
      RT_CHECK_ERR(expected, cudaGetLastError());                              \
   } while (0)

#define RT_CHECK_BYTES(got, want, n, ...)                                      \
   cuvk_test_check_bytes(__FILE__, __LINE__, (got), (want), (n), __VA_ARGS__)

/* A byte pattern that differs with seed and position. */
static inline void
rt_fill_pattern(void *dst, size_t n, unsigned seed)
{
   uint8_t *p = dst;
   uint32_t x = seed * 2654435761u + 12345u;

   for (size_t i = 0; i < n; i++) {
      x = x * 1103515245u + 12345u;
      p[i] = (uint8_t)(x >> 16);
   }
}

/* ---- Cases and main ---- */

struct rt_case {
   const char *name;
   void (*run)(void);
};

#define RT_CASE(name, fn) { (name), (fn) }

static inline int
rt_run_case(const void *p)
{
   const struct rt_case *c = p;
   unsigned before = cuvk_test_failures();

   c->run();
   /* Tears down the primary context, so leaks show up under validation. */
   RT_CHECK_OK(cudaDeviceReset());
   unsigned failures = cuvk_test_failures() - before;
   printf("%s: %s\n", c->name, failures ? "FAIL" : "pass");
   fflush(stdout);
   return failures ? RT_EXIT_FAIL : RT_EXIT_PASS;
}

/* Every case in a process of its own, as under meson. */
static inline int
rt_run_all(const struct cuvk_test_table *t)
{
   const struct rt_case *cases = t->cases;
   int worst = RT_EXIT_PASS;

   for (size_t i = 0; i < t->count; i++) {
      fflush(stdout);
      pid_t pid = fork();
      if (pid == 0)
         _exit(rt_run_case(&cases[i]));
      int status = 0;
      if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)) {
         printf("%s: FAIL (crashed)\n", cases[i].name);
         worst = RT_EXIT_FAIL;
      } else if (WEXITSTATUS(status) == RT_EXIT_FAIL) {
         worst = RT_EXIT_FAIL;
      }
   }
   return worst;
}

#define RT_MAIN(cases)                                                         \
   _Static_assert(offsetof(struct rt_case, name) == 0, "name leads a case");   \
   int main(int argc, char **argv)                                             \
   {                                                                           \
      struct cuvk_test_table table = CUVK_TEST_TABLE(cases);                   \
      return cuvk_test_main(argc, argv, &table, rt_run_case, rt_run_all);      \
   }

#endif
