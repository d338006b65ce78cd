/*
 * What the compiler tests share on top of unit_test.h: reading a PTX file
 * whole, printing a compiler error the way a compiler would, the PTX
 * header of snippets, and (compiler_test.c) the targets tests compile for
 * and spirv-val run on a module.
 */
#ifndef CUVK_TESTS_COMPILER_TEST_H
#define CUVK_TESTS_COMPILER_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "compiler/compiler.h"
#include "compiler/diag.h"

/* The directives snippets written in the tests start with. */
#define COMPILER_TEST_PTX_HEADER ".version 9.0\n.target sm_75\n.address_size 64\n"

/* compiler_test.c: a lavapipe-like and an NVIDIA-like target. */
extern const struct cuvk_cc_target compiler_test_lavapipe;
extern const struct cuvk_cc_target compiler_test_nvidia;

/* Runs spirv_val --target-env vulkan1.2 on the words: true when it
 * accepts them, or when spirv_val is NULL (no validator; callers that need
 * one skip before).  A refused module is kept (its path printed) for
 * spirv-dis. */
bool compiler_test_spirv_val(const char *spirv_val, const char *name, const uint32_t *words,
                             size_t count);

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
