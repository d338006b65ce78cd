/*
 * The runtime-API suite's harness: named cases in a table, checks that
 * print file:line with the cudaError_t's name and keep going, and byte
 * comparisons that say where data went wrong.
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

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define RT_EXIT_PASS 0
#define RT_EXIT_FAIL 1
#define RT_EXIT_SKIP 77

#define RT_KIB ((size_t)1 << 10)
#define RT_MIB ((size_t)1 << 20)

#define RT_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Reports after this many are counted, not printed. */
#define RT_MAX_REPORTS 40

static atomic_uint rt_failures;

static inline void __attribute__((format(printf, 3, 4)))
rt_report(const char *file, int line, const char *fmt, ...)
{
   unsigned n = atomic_fetch_add(&rt_failures, 1);
   va_list ap;

   if (n < RT_MAX_REPORTS) {
      fprintf(stderr, "%s:%d: ", file, line);
      va_start(ap, fmt);
      vfprintf(stderr, fmt, ap);
      va_end(ap);
      fputc('\n', stderr);
   } else if (n == RT_MAX_REPORTS) {
      fprintf(stderr, "(further failures are counted, not printed)\n");
   }
}

/* Ends the case at once, for failures it cannot go on after. */
static inline void __attribute__((noreturn))
rt_abort_case(void)
{
   fprintf(stderr, "case aborted: it cannot continue after that failure\n");
   fflush(stdout);
   fflush(stderr);
   _exit(RT_EXIT_FAIL);
}

static inline void __attribute__((noreturn, format(printf, 1, 2)))
rt_skip(const char *fmt, ...)
{
   va_list ap;

   printf("SKIP: ");
   va_start(ap, fmt);
   vprintf(fmt, ap);
   va_end(ap);
   printf("\n");
   fflush(stdout);
   exit(RT_EXIT_SKIP);
}

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

/* Compares n bytes; on a mismatch reports the first differing offset. */
static inline bool __attribute__((format(printf, 6, 7)))
rt_check_bytes_at(const char *file, int line, const void *got, const void *want, size_t n,
                  const char *fmt, ...)
{
   const uint8_t *g = got, *w = want;
   size_t first = SIZE_MAX, bad = 0;
   char what[256];
   va_list ap;

   if (memcmp(got, want, n) == 0)
      return true;
   for (size_t i = 0; i < n; i++) {
      if (g[i] != w[i]) {
         if (first == SIZE_MAX)
            first = i;
         bad++;
      }
   }
   va_start(ap, fmt);
   vsnprintf(what, sizeof(what), fmt, ap);
   va_end(ap);
   rt_report(file, line, "%s: %zu of %zu bytes differ, first at offset %zu (got 0x%02x, want 0x%02x)",
             what, bad, n, first, g[first], w[first]);
   return false;
}

#define RT_CHECK_BYTES(got, want, n, ...)                                      \
   rt_check_bytes_at(__FILE__, __LINE__, (got), (want), (n), __VA_ARGS__)

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
rt_run_case(const struct rt_case *c)
{
   atomic_store(&rt_failures, 0);
   c->run();
   /* Tears down the primary context, so leaks show up under validation. */
   RT_CHECK_OK(cudaDeviceReset());
   unsigned failures = atomic_load(&rt_failures);
   printf("%s: %s\n", c->name, failures ? "FAIL" : "pass");
   fflush(stdout);
   return failures ? RT_EXIT_FAIL : RT_EXIT_PASS;
}

static inline int
rt_main(const struct rt_case *cases, size_t count, int argc, char **argv)
{
   if (argc >= 2 && strcmp(argv[1], "--list") == 0) {
      for (size_t i = 0; i < count; i++)
         printf("%s\n", cases[i].name);
      return RT_EXIT_PASS;
   }

   if (argc >= 2 && strcmp(argv[1], "--expect") == 0) {
      int bad = 0;
      for (int a = 2; a < argc; a++) {
         bool found = false;
         for (size_t i = 0; i < count && !found; i++)
            found = strcmp(cases[i].name, argv[a]) == 0;
         if (!found) {
            fprintf(stderr, "%s is registered in meson but not in the case table\n", argv[a]);
            bad = 1;
         }
      }
      for (size_t i = 0; i < count; i++) {
         bool found = false;
         for (int a = 2; a < argc && !found; a++)
            found = strcmp(cases[i].name, argv[a]) == 0;
         if (!found) {
            fprintf(stderr, "%s is in the case table but not registered in meson\n", cases[i].name);
            bad = 1;
         }
      }
      return bad ? RT_EXIT_FAIL : RT_EXIT_PASS;
   }

   if (argc >= 2) {
      for (size_t i = 0; i < count; i++) {
         if (strcmp(cases[i].name, argv[1]) == 0)
            return rt_run_case(&cases[i]);
      }
      fprintf(stderr, "no case named %s (--list shows them)\n", argv[1]);
      return RT_EXIT_FAIL;
   }

   /* Every case in a process of its own, as under meson. */
   int worst = RT_EXIT_PASS;
   for (size_t i = 0; i < count; i++) {
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
   int main(int argc, char **argv)                                             \
   {                                                                           \
      return rt_main((cases), RT_ARRAY_SIZE(cases), argc, argv);               \
   }

#endif
