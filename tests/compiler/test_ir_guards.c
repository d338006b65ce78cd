/*
 * The guard pass (ir_lower_guards.c) on snippets: PTX in, lowered to IR,
 * guards turned into branches, and the exact IR text out, validated.  The
 * expected texts were written by hand from the pass's rule: the block is
 * split at the first guarded instruction, the run under the same guard
 * goes to a new block, the rest to another, both placed last.
 */
#include "ir_snippet.h"

#define HEADER ".version 9.0\n.target sm_75\n.address_size 64\n"

static void
expect_guards(const char *name, const char *ptx_text, const char *expected)
{
   struct cuvk_cc_error err = { 0 };
   struct cuvk_ir_module *ir = ir_snippet_module(name, ptx_text, strlen(ptx_text));

   if (!ir)
      return;
   for (int pass = 0; pass < 2; pass++) {
      /* Twice: the second run must change nothing. */
      for (size_t i = 0; i < ir->func_count; i++)
         if (ir->funcs[i]->has_body && !cuvk_ir_lower_guards(ir->funcs[i], &err))
            UNIT_CHECK(!"guard pass failed");
      if (!cuvk_ir_validate(ir, &err)) {
         compiler_test_print_error(name, &err);
         UNIT_CHECK(!"validation failed");
      }
      char *text = cuvk_ir_print(ir);
      UNIT_CHECK(text != NULL);
      if (text && strcmp(text, expected) != 0) {
         fprintf(stderr, "%s (run %d): IR differs.\n--- expected\n%s--- got\n%s---\n", name,
                 pass + 1, expected, text);
         UNIT_CHECK(!"IR differs");
      }
      free(text);
   }
   cuvk_ir_module_destroy(ir);
}

int
main(void)
{
   /* A run of two under %p1, one under !%p1, then the block's end. */
   expect_guards("runs",
      HEADER
      ".entry k()\n{\n"
      "\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
      "\tsetp.lt.u32 %p1, %r1, 10;\n"
      "\t@%p1 add.s32 %r2, %r1, 1;\n"
      "\t@%p1 add.s32 %r3, %r2, 1;\n"
      "\t@!%p1 mov.u32 %r1, 7;\n"
      "\tret;\n}\n",
      "; PTX 9.0 sm_75\n"
      "entry k()\n"
      "   regs pred:2 b32:4\n"
      "bb0: ; no preds\n"
      "   %p1 = setp.lt.u32 %r1, 10\n"
      "   cbr %p1, bb1, bb2\n"
      "bb1: ; preds bb0\n"
      "   %r2 = add.s32 %r1, 1\n"
      "   %r3 = add.s32 %r2, 1\n"
      "   br bb2\n"
      "bb2: ; preds bb0 bb1\n"
      "   cbr !%p1, bb3, bb4\n"
      "bb3: ; preds bb2\n"
      "   %r1 = mov.u32 7\n"
      "   br bb4\n"
      "bb4: ; preds bb2 bb3\n"
      "   ret\n");

   /* An instruction that writes its own guard ends the run; the branch
    * at the end of the block moves to the last tail. */
   expect_guards("guard written",
      HEADER
      ".entry k()\n{\n"
      "\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n"
      "$L_top:\n"
      "\t@%p1 setp.ne.s32 %p1, %r1, 0;\n"
      "\t@%p1 add.s32 %r1, %r1, -1;\n"
      "\t@%p1 bra $L_top;\n"
      "\tret;\n}\n",
      "; PTX 9.0 sm_75\n"
      "entry k()\n"
      "   regs pred:2 b32:3\n"
      "bb0: ; no preds\n"
      "   br bb1\n"
      "bb1: ; $L_top, preds bb0 bb6\n"
      "   cbr %p1, bb3, bb4\n"
      "bb2: ; preds bb6\n"
      "   ret\n"
      "bb3: ; preds bb1\n"
      "   %p1 = setp.ne.s32 %r1, 0\n"
      "   br bb4\n"
      "bb4: ; preds bb1 bb3\n"
      "   cbr %p1, bb5, bb6\n"
      "bb5: ; preds bb4\n"
      "   %r1 = add.s32 %r1, -1\n"
      "   br bb6\n"
      "bb6: ; preds bb4 bb5\n"
      "   cbr %p1, bb1, bb2\n");
   return unit_report("compiler.ir.guards");
}
