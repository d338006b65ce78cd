/*
 * What the compiler tests that lower PTX to IR share: the text parsed and
 * lowered (test_alu.c, test_ir_guards.c, test_structurize.c and the two
 * below); for the passes that answer about named registers
 * (test_ir_uniform.c, test_ir_param_ptr.c) one function's guards turned
 * into blocks (the CFG as the emitter sees it, which the passes run on)
 * and registers found by their PTX names.  Failures count in
 * unit_test.h's check.
 */
#ifndef CUVK_TESTS_IR_SNIPPET_H
#define CUVK_TESTS_IR_SNIPPET_H

#include <string.h>

#include "compiler/ir.h"
#include "compiler/ir_passes.h"
#include "compiler_test.h"
#include "unit_test.h"

/* The IR of len bytes of PTX; NULL, a failure with the error printed
 * under name, when it does not parse or lower. */
static inline struct cuvk_ir_module *
ir_snippet_module(const char *name, const char *ptx_text, size_t len)
{
   struct cuvk_cc_error err = { 0 };
   struct ptx_module *ptx = ptx_parse(ptx_text, len, &err);
   struct cuvk_ir_module *ir = ptx ? cuvk_ptx_to_ir(ptx, &err) : NULL;

   ptx_module_destroy(ptx);
   if (!ir) {
      compiler_test_print_error(name, &err);
      UNIT_CHECK(!"the PTX did not parse and lower");
   }
   return ir;
}

/* Function func of the snippet, guards lowered, its module in *ir (for
 * cuvk_ir_module_destroy); NULL when the PTX does not lower. */
static inline struct cuvk_ir_function *
ir_snippet_lower(const char *name, const char *ptx_text, unsigned func, struct cuvk_ir_module **ir)
{
   struct cuvk_cc_error err = { 0 };

   *ir = ir_snippet_module(name, ptx_text, strlen(ptx_text));
   if (!*ir)
      return NULL;
   struct cuvk_ir_function *f = (*ir)->funcs[func];
   UNIT_CHECK(cuvk_ir_lower_guards(f, &err));
   return f;
}

/* The register of f named reg; UINT32_MAX, a failure, when f has none. */
static inline uint32_t
ir_snippet_reg(const char *name, const struct cuvk_ir_function *f, const char *reg)
{
   uint32_t r = UINT32_MAX;
   for (uint32_t k = 0; k < f->reg_count; k++)
      if (f->regs[k].name && strcmp(f->regs[k].name, reg) == 0)
         r = k;
   if (r == UINT32_MAX) {
      fprintf(stderr, "%s: no register %s\n", name, reg);
      UNIT_CHECK(!"register missing");
   }
   return r;
}

#endif
