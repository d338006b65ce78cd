/*
 * What the compiler tests share on top of unit_test.h: reading a PTX file
 * whole, and printing a compiler error the way a compiler would.
 */
#ifndef CUVK_TESTS_COMPILER_TEST_H
#define CUVK_TESTS_COMPILER_TEST_H

#include <stdio.h>
#include <stdlib.h>

#include "compiler/diag.h"

/* The file's bytes (not NUL-terminated) and their count; NULL when it
 * cannot be read. */
static inline char *
compiler_test_read(const char *path, size_t *len)
{
   FILE *f = fopen(path, "rb");
   char *buf = NULL;
   long n;

   if (!f)
      return NULL;
   if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
      buf = malloc((size_t)n + 1);
      if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
         free(buf);
         buf = NULL;
      }
      *len = (size_t)n;
   }
   fclose(f);
   return buf;
}

static inline void
compiler_test_print_error(const char *where, const struct cuvk_cc_error *err)
{
   fprintf(stderr, "%s:%u:%u: %s: %s\n", where, err->line, err->column,
           cuvk_cc_status_name(err->status), err->message);
}

#endif
