/*
 * The uniform-register pass (ir_uniform.c) on snippets: PTX in, lowered to
 * IR with guards turned into blocks as the emitter sees it, and for chosen
 * registers whether the pass calls them the same in every thread.  The
 * answer drops non-uniform descriptor indexing, so every case where a
 * register could differ between threads must say no.
 */
#include "ir_snippet.h"

#define HEADER ".version 9.0\n.target sm_75\n.address_size 64\n"

struct want {
   const char *reg;
   bool uniform;
};

static void
expect_uniform(const char *name, const char *ptx_text, unsigned func, const struct want *wants,
               unsigned want_count)
{
   struct cuvk_ir_module *ir;
   struct cuvk_ir_function *f = ir_snippet_lower(name, ptx_text, func, &ir);
   if (!f)
      return;
   bool *uniform = cuvk_ir_uniform_regs(f, &ir->arena);
   UNIT_CHECK(uniform != NULL);
   for (unsigned i = 0; uniform && i < want_count; i++) {
      uint32_t r = ir_snippet_reg(name, f, wants[i].reg);
      if (r != UINT32_MAX && uniform[r] != wants[i].uniform) {
         fprintf(stderr, "%s: %s is %s, expected %s\n", name, wants[i].reg, uniform[r] ? "uniform" : "not",
                 wants[i].uniform ? "uniform" : "not");
         UNIT_CHECK(!"wrong answer");
      }
   }
   cuvk_ir_module_destroy(ir);
}

int
main(void)
{
   /* nvcc's shape: handles loaded at the start, a copy of one, a value
    * per thread, a handle loaded from memory. */
   expect_uniform("params",
      HEADER
      ".visible .entry k(.param .u64 tex, .param .u64 surfs, .param .u32 level)\n{\n"
      "\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n"
      "\tld.param.u64 %rd1, [tex];\n"
      "\tld.param.u64 %rd2, [surfs];\n"
      "\tld.param.u32 %r1, [level];\n"
      "\tmov.b64 %rd3, %rd1;\n"
      "\tcvta.to.global.u64 %rd4, %rd2;\n"
      "\tmov.u32 %r2, %tid.x;\n"
      "\tmul.wide.u32 %rd5, %r1, 8;\n"
      "\tadd.s64 %rd6, %rd4, %rd5;\n"
      "\tld.global.u64 %rd7, [%rd6];\n"
      "\tsetp.eq.u32 %p1, %r2, 0;\n"
      "\t@%p1 bra $L;\n"
      "\tadd.u32 %r3, %r2, 1;\n"
      "$L:\n"
      "\tret;\n}\n",
      0,
      (const struct want[]){{"%rd1", true}, {"%rd2", true}, {"%r1", true}, {"%rd3", true}, {"%rd4", true},
                            {"%r2", false}, {"%rd5", false}, {"%rd7", false}, {"%r3", false}},
      9);

   /* A second definition anywhere, a definition past a branch, a guarded
    * one, and a read before the definition all say no. */
   expect_uniform("spoilers",
      HEADER
      ".visible .entry k(.param .u64 a, .param .u64 b)\n{\n"
      "\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<8>;\n"
      "\tmov.u32 %r1, %tid.x;\n"
      "\tsetp.eq.u32 %p1, %r1, 0;\n"
      "\tadd.s64 %rd5, %rd4, 1;\n"
      "\tld.param.u64 %rd1, [a];\n"
      "\tld.param.u64 %rd2, [a];\n"
      "\t@%p1 ld.param.u64 %rd3, [b];\n"
      "\tld.param.u64 %rd4, [b];\n"
      "\t@%p1 bra $L;\n"
      "\tld.param.u64 %rd2, [b];\n"
      "\tld.param.u64 %rd6, [b];\n"
      "$L:\n"
      "\tret;\n}\n",
      0,
      (const struct want[]){{"%rd1", true}, {"%rd2", false}, {"%rd3", false}, {"%rd4", false},
                            {"%rd6", false}},
      5);

   /* A function's parameters are its caller's values: nothing counts. */
   expect_uniform("func",
      HEADER
      ".func f(.param .u64 a)\n{\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [a];\n\tret;\n}\n",
      0, (const struct want[]){{"%rd1", false}}, 1);

   return unit_report("compiler.ir.uniform");
}
