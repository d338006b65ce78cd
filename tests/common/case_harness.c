#include "case_harness.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reports after this many are counted, not printed. */
#define MAX_REPORTS 40

static atomic_uint failures;

void
cuvk_test_vreport(const char *file, int line, const char *fmt, va_list ap)
{
   unsigned n = atomic_fetch_add(&failures, 1);

   if (n < MAX_REPORTS) {
      fprintf(stderr, "%s:%d: ", file, line);
      vfprintf(stderr, fmt, ap);
      fputc('\n', stderr);
   } else if (n == MAX_REPORTS) {
      fprintf(stderr, "(further failures are counted, not printed)\n");
   }
}

void
cuvk_test_report(const char *file, int line, const char *fmt, ...)
{
   va_list ap;

   va_start(ap, fmt);
   cuvk_test_vreport(file, line, fmt, ap);
   va_end(ap);
}

unsigned
cuvk_test_failures(void)
{
   return atomic_load(&failures);
}

void
cuvk_test_abort_case(void)
{
   fprintf(stderr, "case aborted: it cannot go on after that failure\n");
   fflush(stdout);
   fflush(stderr);
   _exit(CUVK_TEST_FAIL);
}

void
cuvk_test_skip(const char *fmt, ...)
{
   va_list ap;

   printf("SKIP: ");
   va_start(ap, fmt);
   vprintf(fmt, ap);
   va_end(ap);
   printf("\n");
   fflush(stdout);
   exit(CUVK_TEST_SKIP);
}

bool
cuvk_test_check_bytes(const char *file, int line, const void *got, const void *want, size_t n,
                      const char *fmt, ...)
{
   const uint8_t *g = got, *w = want;
   size_t first = SIZE_MAX, last = 0, bad = 0;
   char what[256];
   va_list ap;

   if (memcmp(got, want, n) == 0)
      return true;
   for (size_t i = 0; i < n; i++) {
      if (g[i] != w[i]) {
         if (first == SIZE_MAX)
            first = i;
         last = i;
         bad++;
      }
   }
   va_start(ap, fmt);
   vsnprintf(what, sizeof(what), fmt, ap);
   va_end(ap);
   cuvk_test_report(file, line,
                    "%s: %zu of %zu bytes differ; first at %zu (got 0x%02x, want 0x%02x), "
                    "last at %zu (got 0x%02x, want 0x%02x)",
                    what, bad, n, first, g[first], w[first], last, g[last], w[last]);
   return false;
}

const char *
cuvk_test_case_name(const struct cuvk_test_table *t, size_t i)
{
   return *(const char *const *)((const char *)t->cases + i * t->stride);
}

const void *
cuvk_test_find_case(const struct cuvk_test_table *t, const char *name)
{
   for (size_t i = 0; i < t->count; i++)
      if (strcmp(cuvk_test_case_name(t, i), name) == 0)
         return (const char *)t->cases + i * t->stride;
   return NULL;
}

int
cuvk_test_check_names(const struct cuvk_test_table *t, char *const *names, int count)
{
   int status = CUVK_TEST_PASS;

   for (size_t i = 0; i < t->count; i++) {
      bool found = false;
      for (int a = 0; a < count && !found; a++)
         found = strcmp(names[a], cuvk_test_case_name(t, i)) == 0;
      if (!found) {
         fprintf(stderr, "case %s is not registered with meson\n", cuvk_test_case_name(t, i));
         status = CUVK_TEST_FAIL;
      }
   }
   for (int a = 0; a < count; a++) {
      if (!cuvk_test_find_case(t, names[a])) {
         fprintf(stderr, "meson registers %s, which is not a case here\n", names[a]);
         status = CUVK_TEST_FAIL;
      }
   }
   return status;
}

int
cuvk_test_main(int argc, char **argv, const struct cuvk_test_table *t, cuvk_test_run_fn run,
               cuvk_test_run_all_fn run_all)
{
   /* Failures go to stderr and progress to stdout; line buffering keeps
    * them in order in meson's log. */
   setvbuf(stdout, NULL, _IOLBF, 0);

   if (argc == 2 && strcmp(argv[1], "--list") == 0) {
      for (size_t i = 0; i < t->count; i++)
         printf("%s\n", cuvk_test_case_name(t, i));
      return CUVK_TEST_PASS;
   }
   if (argc >= 2 && strcmp(argv[1], "--expect") == 0)
      return cuvk_test_check_names(t, argv + 2, argc - 2);
   if (argc == 3 && strcmp(argv[1], "--skip") == 0)
      cuvk_test_skip("%s", argv[2]);
   if (argc == 2 && argv[1][0] != '-') {
      const void *c = cuvk_test_find_case(t, argv[1]);
      if (c)
         return run(c);
      fprintf(stderr, "no case named %s (--list names them)\n", argv[1]);
      return CUVK_TEST_FAIL;
   }
   if (argc == 1 && run_all)
      return run_all(t);
   fprintf(stderr, "usage: %s CASE | --list | --expect NAME... | --skip REASON%s\n", argv[0],
           run_all ? " | (nothing: every case)" : "");
   return CUVK_TEST_FAIL;
}
