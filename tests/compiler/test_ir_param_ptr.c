/*
 * The parameter-pointer pass (ir_param_ptr.c) on snippets: PTX in, lowered
 * to IR, and for chosen registers the parameter word the pass names.  The
 * parameter offsets are given by hand (not the real layout), so a wrong
 * offset arithmetic shows.
 */
#include "ir_snippet.h"

#define HEADER ".version 9.0\n.target sm_75\n.address_size 64\n"
#define NO CUVK_IR_NO_WORD

struct want {
   const char *reg;
   uint32_t word;
};

static void
expect_words(const char *name, const char *ptx_text, const uint32_t *offsets,
             const struct want *wants, unsigned want_count)
{
   struct cuvk_ir_module *ir;
   struct cuvk_ir_function *f = ir_snippet_lower(name, ptx_text, 0, &ir);
   if (!f)
      return;
   uint32_t *words = cuvk_ir_param_pointers(f, offsets, &ir->arena);
   UNIT_CHECK(words != NULL);
   for (unsigned i = 0; words && i < want_count; i++) {
      uint32_t r = ir_snippet_reg(name, f, wants[i].reg);
      if (r != UINT32_MAX && words[r] != wants[i].word) {
         fprintf(stderr, "%s: %s is word %d, expected %d\n", name, wants[i].reg,
                 (int)words[r], (int)wants[i].word);
         UNIT_CHECK(!"wrong word");
      }
   }
   cuvk_ir_module_destroy(ir);
}

int
main(void)
{
   /* nvcc's saxpy: a grid-stride loop over two parameters; the length and
    * the scale are no pointers, the loop index never was one. */
   static const uint32_t saxpy_offsets[] = { 0, 8, 16, 24 };
   expect_words("saxpy",
      HEADER
      ".visible .entry saxpy(.param .u64 n, .param .f32 a, .param .u64 x, .param .u64 y)\n{\n"
      "\t.reg .pred %p<3>;\n\t.reg .f32 %f<5>;\n\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<18>;\n"
      "\tld.param.u64 %rd8, [n];\n"
      "\tld.param.f32 %f1, [a];\n"
      "\tld.param.u64 %rd9, [x];\n"
      "\tld.param.u64 %rd10, [y];\n"
      "\tmov.u32 %r1, %ctaid.x;\n"
      "\tcvt.u64.u32 %rd17, %r1;\n"
      "\tcvta.to.global.u64 %rd4, %rd9;\n"
      "\tcvta.to.global.u64 %rd5, %rd10;\n"
      "$L:\n"
      "\tshl.b64 %rd14, %rd17, 2;\n"
      "\tadd.s64 %rd15, %rd4, %rd14;\n"
      "\tld.global.f32 %f2, [%rd15];\n"
      "\tadd.s64 %rd16, %rd14, %rd5;\n"
      "\tld.global.f32 %f3, [%rd16];\n"
      "\tst.global.f32 [%rd16], %f3;\n"
      "\tadd.s64 %rd17, %rd17, %rd8;\n"
      "\tsetp.lt.u64 %p2, %rd17, %rd8;\n"
      "\t@%p2 bra $L;\n"
      "\tret;\n}\n",
      saxpy_offsets,
      (const struct want[]){ { "%rd8", 0 }, { "%rd9", 2 }, { "%rd10", 3 }, { "%rd4", 2 },
                             { "%rd5", 3 }, { "%rd15", 2 }, { "%rd16", 3 }, { "%rd14", NO },
                             { "%rd17", 0 } },
      9);
   /* (The loop index adds the length word, so it reads as word 0: a guess
    * the run-time check undoes, harmless.) */

   /* A pointer walked in a loop, mad.wide, sub, mov, an offset inside a
    * struct parameter, and pointers loaded from memory, which say
    * nothing. */
   static const uint32_t walk_offsets[] = { 0, 8, 32 };
   expect_words("walk",
      HEADER
      ".visible .entry walk(.param .u64 p, .param .align 8 .b8 s[24], .param .u64 q)\n{\n"
      "\t.reg .pred %p<3>;\n\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<20>;\n"
      "\tld.param.u64 %rd1, [p];\n"
      "\tld.param.u64 %rd2, [s+8];\n"
      "\tld.param.u64 %rd3, [s+4];\n"
      "\tld.param.u64 %rd4, [q];\n"
      "\tmov.u32 %r1, %tid.x;\n"
      "\tmad.wide.s32 %rd5, %r1, 4, %rd1;\n"
      "\tsub.s64 %rd6, %rd2, 16;\n"
      "\tmov.b64 %rd7, %rd6;\n"
      "\tld.global.u64 %rd8, [%rd5];\n"
      "\tadd.s64 %rd9, %rd8, 8;\n"
      "$L:\n"
      "\tadd.s64 %rd5, %rd5, 4;\n"
      "\tsetp.lt.u64 %p1, %rd5, %rd7;\n"
      "\t@%p1 bra $L;\n"
      /* Two definitions from two words: no single answer. */
      "\tmov.b64 %rd10, %rd1;\n"
      "\t@%p1 mov.b64 %rd10, %rd4;\n"
      "\tld.param.u32 %r2, [q];\n"
      "\tret;\n}\n",
      walk_offsets,
      (const struct want[]){ { "%rd1", 0 }, { "%rd2", 2 }, { "%rd3", NO }, { "%rd4", 4 },
                             { "%rd5", 0 }, { "%rd6", 2 }, { "%rd7", 2 }, { "%rd8", NO },
                             { "%rd9", NO }, { "%rd10", NO } },
      10);
   return unit_report("compiler.ir.param_ptr");
}
