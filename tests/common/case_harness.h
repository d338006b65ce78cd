/*
 * What every CUDA-side test suite's harness shares: failures counted
 * process-wide and reported with file:line, byte comparisons that say where
 * data went wrong, and the command line of a table of named cases.
 *
 * A suite's own header adds its checks (CUresult or cudaError_t names),
 * its case struct and setup, and forwards to these.  Nothing here uses
 * CUDA or Vulkan, so suites built against NVIDIA's headers link it too.
 *
 * A case table is an array of structs whose first member is the case's
 * name (const char *).  An executable runs as
 *    exe CASE               one case: how meson runs each as a test
 *    exe --list             the names, one a line
 *    exe --expect NAME...   fails unless the table holds exactly those
 *                           names, so meson.build and the table agree
 *    exe --skip REASON      prints the reason, exits 77
 *    exe                    every case, where the suite supports it
 */
#ifndef CUVK_TESTS_CASE_HARNESS_H
#define CUVK_TESTS_CASE_HARNESS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CUVK_TEST_PASS 0
#define CUVK_TEST_FAIL 1
#define CUVK_TEST_SKIP 77

/* ---- Failures ---- */

/* Counts a failure; the first few are printed as "file:line: message",
 * later ones only counted, so a broken loop does not bury the first. */
void cuvk_test_vreport(const char *file, int line, const char *fmt, va_list ap);
void cuvk_test_report(const char *file, int line, const char *fmt, ...)
   __attribute__((format(printf, 3, 4)));
unsigned cuvk_test_failures(void);

/* Ends the process at once, failed: for failures a case cannot go on
 * after.  Each case is its own process under meson. */
void cuvk_test_abort_case(void) __attribute__((noreturn));
/* Prints "SKIP: reason" and exits 77. */
void cuvk_test_skip(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* Compares n bytes; on a difference reports how many bytes differ and the
 * first and last, labelled with what (printf-style). */
bool cuvk_test_check_bytes(const char *file, int line, const void *got, const void *want, size_t n,
                           const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* splitmix64: the next of a reproducible sequence of 64-bit values from
 * *state, which it advances; the tests' data and random choices. */
static inline uint64_t
cuvk_test_rand(uint64_t *state)
{
   uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

   z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
   z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
   return z ^ (z >> 31);
}

/* ---- Case tables ---- */

struct cuvk_test_table {
   const void *cases;
   size_t count;
   size_t stride;
};

#define CUVK_TEST_TABLE(array)                                                 \
   ((struct cuvk_test_table){ (array), sizeof(array) / sizeof((array)[0]), sizeof((array)[0]) })

const char *cuvk_test_case_name(const struct cuvk_test_table *t, size_t i);
const void *cuvk_test_find_case(const struct cuvk_test_table *t, const char *name);
/* The --expect check: every case among names and every name a case. */
int cuvk_test_check_names(const struct cuvk_test_table *t, char *const *names, int count);

typedef int (*cuvk_test_run_fn)(const void *c);
typedef int (*cuvk_test_run_all_fn)(const struct cuvk_test_table *t);

/* The command line above.  run_all runs every case when no argument is
 * given; without it that is a usage error. */
int cuvk_test_main(int argc, char **argv, const struct cuvk_test_table *t, cuvk_test_run_fn run,
                   cuvk_test_run_all_fn run_all);

#endif
