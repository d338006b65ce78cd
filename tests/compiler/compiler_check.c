/*
 * compiler_check FILE.ptx...: runs nvcc's output for the kernels of
 * tests/kernels through every compiler stage that exists (parse, lowering
 * to IR, validation, the CFG analyses) and fails on the first error,
 * printed as FILE:LINE:COLUMN.  Without arguments (the build
 * found no nvcc) it says so and exits 77, meson's "skipped".
 */
#include <string.h>

#include "compiler/ir_cfg.h"
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

   struct cuvk_ir_module *ir = cuvk_ptx_to_ir(m, &err);
   ptx_module_destroy(m);
   if (!ir) {
      compiler_test_print_error(path, &err);
      UNIT_CHECK(!"lowering to IR failed");
      return;
   }
   if (!cuvk_ir_validate(ir, &err)) {
      compiler_test_print_error(path, &err);
      UNIT_CHECK(!"the IR does not validate");
   }
   unsigned blocks = 0, edges = 0;
   for (size_t i = 0; i < ir->func_count; i++) {
      blocks += ir->funcs[i]->block_count;
      for (unsigned b = 0; b < ir->funcs[i]->block_count; b++)
         edges += ir->funcs[i]->blocks[b]->succ_count;
   }
   printf("%s: IR of %zu functions, %u blocks, %u edges\n", path, ir->func_count, blocks, edges);

   /* The analyses on every function with a body: nvcc's graphs are
    * reducible (design notes), and every loop's header dominates its
    * body. */
   for (size_t i = 0; i < ir->func_count; i++) {
      const struct cuvk_ir_function *f = ir->funcs[i];
      struct cuvk_arena arena;
      struct cuvk_ir_domtree dom, pdom;
      struct cuvk_ir_loops loops;
      bool reducible;
      unsigned from, to;

      if (!f->has_body)
         continue;
      cuvk_arena_init(&arena);
      bool ok = cuvk_ir_dominators(f, &arena, &dom) &&
                cuvk_ir_post_dominators(f, &arena, &pdom) &&
                cuvk_ir_is_reducible(f, &dom, &arena, &reducible, &from, &to) &&
                cuvk_ir_find_loops(f, &dom, &arena, &loops);
      UNIT_CHECK(ok);
      if (ok) {
         UNIT_CHECK(reducible);
         if (!reducible)
            fprintf(stderr, "%s: %s: edge bb%u -> bb%u makes the graph irreducible\n", path,
                    f->name, from, to);
         unsigned max_depth = 0;
         for (unsigned l = 0; l < loops.count; l++) {
            for (unsigned b = 0; b < loops.loops[l].block_count; b++)
               UNIT_CHECK(cuvk_ir_dominates(&dom, loops.loops[l].header,
                                            loops.loops[l].blocks[b]));
            if (loops.loops[l].depth > max_depth)
               max_depth = loops.loops[l].depth;
         }
         printf("%s: %s: %u blocks, %sreducible, %u loops (nesting depth %u)\n", path, f->name,
                f->block_count, reducible ? "" : "NOT ", loops.count, max_depth);
      }
      cuvk_arena_finish(&arena);
   }
   /* CUVK_PRINT_IR=1 shows the IR, for reading the lowering of a kernel. */
   if (getenv("CUVK_PRINT_IR")) {
      char *printed = cuvk_ir_print(ir);
      UNIT_CHECK(printed != NULL);
      if (printed)
         fputs(printed, stdout);
      free(printed);
   }
   cuvk_ir_module_destroy(ir);
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
