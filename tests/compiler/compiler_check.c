/*
 * compiler_check FILE.ptx...: runs nvcc's output for the kernels of
 * tests/kernels through every compiler stage that exists and fails on the
 * first error, printed as FILE:LINE:COLUMN.  Without arguments (the build
 * found no nvcc) it says so and exits 77, meson's "skipped".
 */
#include <string.h>

#include "compiler/ptx.h"
#include "compiler_test.h"
#include "unit_test.h"

static void
check_file(const char *path)
{
   struct cuvk_cc_error err;
   size_t len;
   char *text = compiler_test_read(path, &len);

   UNIT_CHECK(text != NULL);
   if (!text)
      return;
   struct ptx_module *m = ptx_parse(text, len, &err);
   free(text);
   if (!m) {
      compiler_test_print_error(path, &err);
      UNIT_CHECK(!"parse failed");
      return;
   }

   size_t stmts = 0, instrs = 0, entries = 0;
   for (size_t i = 0; i < m->func_count; i++) {
      const struct ptx_function *f = &m->funcs[i];
      entries += f->is_entry;
      stmts += f->body_count;
      for (size_t s = 0; s < f->body_count; s++)
         instrs += f->body[s].kind == PTX_STMT_INSTR;
   }
   /* Every kernel file defines at least one kernel with a body. */
   UNIT_CHECK(entries > 0);
   UNIT_CHECK(instrs > 0);
   printf("%s: PTX %u.%u %s, %zu variables, %zu functions (%zu kernels), %zu statements, "
          "%zu instructions\n", path, m->version_major, m->version_minor, m->target,
          m->var_count, m->func_count, entries, stmts, instrs);

   ptx_module_destroy(m);
}

int
main(int argc, char **argv)
{
   if (argc < 2) {
      printf("skipped: nvcc not found (looked for /usr/local/cuda/bin/nvcc and nvcc on PATH)\n");
      return 77;
   }
   for (int i = 1; i < argc; i++)
      check_file(argv[i]);
   return unit_report("compiler_check");
}
