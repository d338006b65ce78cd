/*
 * PTX to IR on snippets written here: each case is PTX in and the exact
 * IR text out (ir_print.c's format), run through the validator; and
 * PTX that parses but cannot be lowered, answered with the right error.
 * The expected texts were written by hand from the PTX, not pasted from
 * the printer's output: they are the specification of the lowering.
 */
#include <string.h>

#include "compiler/ir.h"
#include "compiler_test.h"
#include "unit_test.h"

#define HEADER ".version 9.0\n.target sm_75\n.address_size 64\n"

static void
expect_ir(const char *name, const char *ptx_text, const char *expected)
{
   struct cuvk_cc_error err;
   struct ptx_module *ptx = ptx_parse(ptx_text, strlen(ptx_text), &err);

   if (!ptx) {
      compiler_test_print_error(name, &err);
      UNIT_CHECK(!"parse failed");
      return;
   }
   struct cuvk_ir_module *ir = cuvk_ptx_to_ir(ptx, &err);
   ptx_module_destroy(ptx);
   if (!ir) {
      compiler_test_print_error(name, &err);
      UNIT_CHECK(!"lowering failed");
      return;
   }
   if (!cuvk_ir_validate(ir, &err)) {
      compiler_test_print_error(name, &err);
      UNIT_CHECK(!"validation failed");
   }
   char *text = cuvk_ir_print(ir);
   UNIT_CHECK(text != NULL);
   if (text && strcmp(text, expected) != 0) {
      fprintf(stderr, "%s: IR differs.\n--- expected\n%s--- got\n%s---\n", name, expected, text);
      UNIT_CHECK(!"IR differs");
   }
   free(text);
   cuvk_ir_module_destroy(ir);
}

static void
expect_lower_error(const char *name, const char *ptx_text, enum cuvk_cc_status status,
                   unsigned line, const char *needle)
{
   struct cuvk_cc_error err;
   struct ptx_module *ptx = ptx_parse(ptx_text, strlen(ptx_text), &err);

   if (!ptx) {
      compiler_test_print_error(name, &err);
      UNIT_CHECK(!"parse failed");
      return;
   }
   struct cuvk_ir_module *ir = cuvk_ptx_to_ir(ptx, &err);
   ptx_module_destroy(ptx);
   UNIT_CHECK(ir == NULL);
   cuvk_ir_module_destroy(ir);
   if (err.status != status || err.line != line || !strstr(err.message, needle)) {
      fprintf(stderr, "%s: expected %s at line %u containing \"%s\", got:\n", name,
              cuvk_cc_status_name(status), line, needle);
      compiler_test_print_error(name, &err);
      UNIT_CHECK(!"wrong error");
   }
}

/* nvcc's vector add: a guarded early exit becomes a two-way branch. */
static void
test_vector_add(void)
{
   expect_ir("vector_add",
      HEADER
      ".visible .entry vector_add(\n"
      "\t.param .u64 p0,\n\t.param .u32 p1\n)\n"
      "{\n"
      "\t.reg .pred %p<2>;\n\t.reg .f32 %f<2>;\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n"
      "\tld.param.u64 %rd1, [p0];\n"
      "\tld.param.u32 %r1, [p1];\n"
      "\tmov.u32 %r2, %tid.x;\n"
      "\tsetp.ge.s32 %p1, %r2, %r1;\n"
      "\t@%p1 bra $L__BB0_2;\n"
      "\tcvta.to.global.u64 %rd2, %rd1;\n"
      "\tld.global.f32 %f1, [%rd2+-4];\n"
      "\tst.global.f32 [%rd2], %f1;\n"
      "$L__BB0_2:\n"
      "\tret;\n"
      "}\n",
      "; PTX 9.0 sm_75\n"
      ".visible entry vector_add(p0, p1)\n"
      "   param .param p0: 8 bytes of u64 align 8\n"
      "   param .param p1: 4 bytes of u32 align 4\n"
      "   regs pred:2 b32:3 b64:3 f32:2\n"
      "bb0: ; no preds\n"
      "   %rd1 = ld.param.u64 [p0]\n"
      "   %r1 = ld.param.u32 [p1]\n"
      "   %r2 = mov.u32 %tid.x\n"
      "   %p1 = setp.ge.s32 %r2, %r1\n"
      "   cbr %p1, bb2, bb1\n"
      "bb1: ; preds bb0\n"
      "   %rd2 = cvta.to.global.u64 %rd1\n"
      "   %f1 = ld.global.f32 [%rd2-4]\n"
      "   st.global.f32 [%rd2], %f1\n"
      "   br bb2\n"
      "bb2: ; $L__BB0_2, preds bb0 bb1\n"
      "   ret\n");
}

/* A loop whose header is the body's first statement: the entry stays
 * free of predecessors; bra.uni, a guarded instruction, a guarded exit,
 * code after a branch that nothing reaches, and a label at the very end. */
static void
test_control_flow(void)
{
   expect_ir("control_flow",
      HEADER
      ".entry loop()\n"
      "{\n"
      "\t.reg .pred %p<3>;\n\t.reg .b32 %r<4>;\n"
      "$L_top:\n"
      "\tadd.s32 %r1, %r1, 1;\n"
      "\t@!%p1 mov.u32 %r2, 7;\n"
      "\tsetp.lt.u32 %p1|%p2, %r1, 10;\n"
      "\t@%p2 exit;\n"
      "\t@%p1 bra.uni $L_top;\n"
      "\tbra.uni $L_end;\n"
      "\tmov.u32 %r3, 1;\n"
      "$L_end:\n"
      "}\n",
      "; PTX 9.0 sm_75\n"
      "entry loop()\n"
      "   regs pred:3 b32:4\n"
      "bb0: ; no preds\n"
      "   br bb1\n"
      "bb1: ; $L_top, preds bb0 bb3\n"
      "   %r1 = add.s32 %r1, 1\n"
      "   @!%p1 %r2 = mov.u32 7\n"
      "   {%p1, %p2} = setp.lt.u32 %r1, 10\n"
      "   cbr %p2, bb2, bb3\n"
      "bb2: ; preds bb1\n"
      "   exit\n"
      "bb3: ; preds bb1\n"
      "   cbr.uni %p1, bb1, bb4\n"
      "bb4: ; preds bb3\n"
      "   br.uni bb6\n"
      "bb5: ; no preds\n"
      "   %r3 = mov.u32 1\n"
      "   br bb6\n"
      "bb6: ; $L_end, preds bb4 bb5\n"
      "   ret\n");
}

/* Initialised data with addresses in it, a .func called twice with the
 * call slots nvcc scopes per call (same names, distinct slots), a
 * variable's address as a value, and brx.idx over a .branchtargets table. */
static void
test_data_and_calls(void)
{
   expect_ir("data_and_calls",
      HEADER
      ".global .align 4 .b8 w[8] = {1, 2, 0, 0, 0, 0, 0, 0};\n"
      ".global .align 8 .u64 ptrs[2] = {w, generic(w)+4};\n"
      ".const .f32 c[2] = {1, 0f40000000};\n"
      ".func (.param .b32 r) twice(.param .b32 a)\n"
      "{\n"
      "\t.reg .b32 %r<2>;\n"
      "\tld.param.b32 %r1, [a];\n"
      "\tshl.b32 %r1, %r1, 1;\n"
      "\tst.param.b32 [r], %r1;\n"
      "\tret;\n"
      "}\n"
      ".entry k(.param .u32 n)\n"
      "{\n"
      "\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
      "\tld.param.u32 %r1, [n];\n"
      "\t{ .param .b32 param0; .param .b32 retval0;\n"
      "\tst.param.b32 [param0+0], %r1;\n"
      "\tcall.uni (retval0), twice, (param0);\n"
      "\tld.param.b32 %r2, [retval0+0]; }\n"
      "\t{ .param .b32 param0; .param .b32 retval0;\n"
      "\tst.param.b32 [param0+0], %r2;\n"
      "\tcall.uni (retval0), twice, (param0);\n"
      "\tld.param.b32 %r2, [retval0+0]; }\n"
      "\tmov.u64 %rd1, ptrs+8;\n"
      "$L_tbl: .branchtargets $L_a, $L_b;\n"
      "\tbrx.idx %r2, $L_tbl;\n"
      "$L_a:\n\tret;\n"
      "$L_b:\n\texit;\n"
      "}\n",
      "; PTX 9.0 sm_75\n"
      "var .global w: 8 bytes of b8 align 4 = 01 02\n"
      "var .global ptrs: 16 bytes of u64 align 8 = zero @0=&w @8=generic(&w)+4\n"
      "var .const c: 8 bytes of f32 align 4 = 00 00 80 3f 00 00 00 40\n"
      "func twice(a) -> (r)\n"
      "   param .param a: 4 bytes of b32 align 4\n"
      "   param .param r: 4 bytes of b32 align 4\n"
      "   regs b32:2\n"
      "bb0: ; no preds\n"
      "   %r1 = ld.param.b32 [a]\n"
      "   %r1 = shl.b32 %r1, 1\n"
      "   st.param.b32 [r], %r1\n"
      "   ret\n"
      "entry k(n)\n"
      "   param .param n: 4 bytes of u32 align 4\n"
      "   var .param param0: 4 bytes of b32 align 4\n"
      "   var .param retval0: 4 bytes of b32 align 4\n"
      "   var .param param0.3: 4 bytes of b32 align 4\n"
      "   var .param retval0.4: 4 bytes of b32 align 4\n"
      "   regs b32:3 b64:2\n"
      "bb0: ; no preds\n"
      "   %r1 = ld.param.u32 [n]\n"
      "   st.param.b32 [param0], %r1\n"
      "   retval0 = call.uni twice, param0\n"
      "   %r2 = ld.param.b32 [retval0]\n"
      "   st.param.b32 [param0.3], %r2\n"
      "   retval0.4 = call.uni twice, param0.3\n"
      "   %r2 = ld.param.b32 [retval0.4]\n"
      "   %rd1 = mov.u64 ptrs+8\n"
      "   switch %r2, bb1, bb2\n"
      "bb1: ; $L_a, preds bb0\n"
      "   ret\n"
      "bb2: ; $L_b, preds bb0\n"
      "   exit\n");
}

#define BODY(decls, code) HEADER ".entry k()\n{\n" decls code "}\n"

static void
test_errors(void)
{
   /* In BODY, line 6 holds the declarations and line 7 the code. */
   expect_lower_error("undeclared", BODY("\t.reg .b32 %r<2>;\n", "\tadd.s32 %r9, %r1, 1;\n"),
                      CUVK_CC_INVALID, 7, "%r9 is not declared");
   expect_lower_error("no label", BODY("\t.reg .b32 %r<2>;\n", "\tbra $L_nowhere;\n"),
                      CUVK_CC_INVALID, 7, "$L_nowhere is not a label of k");
   expect_lower_error("guard", BODY("\t.reg .b32 %r<2>;\n", "\t@%r1 ret;\n"),
                      CUVK_CC_INVALID, 7, "guard %r1 is not a .pred register");
   expect_lower_error("component", BODY("\t.reg .b32 %r<2>;\n", "\tmov.u32 %r1, %tid;\n"),
                      CUVK_CC_INVALID, 7, "%tid needs a component");
   expect_lower_error("twice", BODY("\t.reg .b32 %a;\n\t.reg .b32 %a;\n", ""),
                      CUVK_CC_INVALID, 7, "%a is declared twice");
   expect_lower_error("dest", BODY("\t.reg .b32 %r<2>;\n", "\tadd.s32 5, %r1, 1;\n"),
                      CUVK_CC_INVALID, 7, "add: the destination must be a register");
   expect_lower_error("too much data", HEADER ".global .b8 x[2] = {1, 2, 3};\n",
                      CUVK_CC_INVALID, 4, "3 initialisers for 2 bytes");
   expect_lower_error("float into int", HEADER ".global .u32 x = 0f3F800000;\n",
                      CUVK_CC_INVALID, 4, "a float initialises an integer variable");
   expect_lower_error("call arity",
                      HEADER ".func f(.param .b32 a) { ret; }\n"
                      ".entry k() {\n\tcall.uni f;\n}\n",
                      CUVK_CC_INVALID, 6, "f takes 1 arguments and 0 return values, not 0 and 0");
   expect_lower_error("indirect", BODY("\t.reg .b64 %rd<2>;\n", "\tcall.uni %rd1;\n"),
                      CUVK_CC_UNSUPPORTED, 7, "indirect calls are not supported");
}

int
main(void)
{
   test_vector_add();
   test_control_flow();
   test_data_and_calls();
   test_errors();
   return unit_report("compiler.ir.lower");
}
