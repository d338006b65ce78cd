/*
 * The PTX parser on snippets written here: every construct of ptx.h's list
 * parsed into the expected structure, and malformed input answered with
 * the right error at the right line and column.
 */
#include <string.h>

#include "compiler/ptx.h"
#include "compiler_test.h"
#include "unit_test.h"

#define HEADER ".version 8.5\n.target sm_80\n.address_size 64\n"

static struct ptx_module *
parse_ok(const char *text)
{
   struct cuvk_cc_error err;
   struct ptx_module *m = ptx_parse(text, strlen(text), &err);

   if (!m)
      compiler_test_print_error("snippet", &err);
   UNIT_CHECK(m != NULL);
   return m;
}

/* Parses text, expecting it to fail with status at line:column and a
 * message containing needle. */
static void
parse_fails(const char *text, enum cuvk_cc_status status, unsigned line, unsigned column,
            const char *needle)
{
   struct cuvk_cc_error err;
   struct ptx_module *m = ptx_parse(text, strlen(text), &err);

   UNIT_CHECK(m == NULL);
   ptx_module_destroy(m);
   if (err.status != status || err.line != line || err.column != column ||
       !strstr(err.message, needle)) {
      fprintf(stderr, "expected %s at %u:%u containing \"%s\", got:\n",
              cuvk_cc_status_name(status), line, column, needle);
      compiler_test_print_error("snippet", &err);
      UNIT_CHECK(!"wrong error");
   }
}

static const struct ptx_stmt *
nth_instr(const struct ptx_function *f, unsigned n)
{
   for (size_t i = 0; i < f->body_count; i++)
      if (f->body[i].kind == PTX_STMT_INSTR && n-- == 0)
         return &f->body[i];
   return NULL;
}

static void
test_header(void)
{
   struct ptx_module *m = parse_ok("// a comment\n.version 9.0\n.target sm_90a, debug\n"
                                   ".address_size 64\n");
   if (!m)
      return;
   UNIT_CHECK(m->version_major == 9 && m->version_minor == 0);
   UNIT_CHECK(strcmp(m->target, "sm_90a") == 0);
   UNIT_CHECK(m->target_debug);
   UNIT_CHECK(m->address_size == 64);
   UNIT_CHECK(m->func_count == 0 && m->var_count == 0);
   ptx_module_destroy(m);
}

static void
test_module_vars(void)
{
   struct ptx_module *m = parse_ok(
      HEADER
      ".global .align 4 .b8 weights[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 5};\n"
      ".const .align 8 .f64 scale[2] = {0d3FE0000000000000, -0d4000000000000000};\n"
      ".extern .shared .align 16 .b8 scratch[];\n"
      ".visible .global .align 8 .u64 table[2][2] = {{tab, generic(tab)}, {tab+8, 0}};\n"
      ".global .f32 one = 0f3F800000;\n"
      ".global .v4 .u32 quad;\n"
      ".visible .global .attribute(.managed) .align 4 .u32 shared_count = 5;\n");
   if (!m)
      return;
   UNIT_CHECK(m->var_count == 7);
   if (m->var_count == 7) {
      const struct ptx_decl *mv = &m->vars[6];
      UNIT_CHECK(mv->managed && mv->align == 4 && mv->init_count == 1 && mv->init[0].value == 5);
      UNIT_CHECK(!m->vars[0].managed);
      const struct ptx_decl *w = &m->vars[0], *s = &m->vars[1], *x = &m->vars[2];
      const struct ptx_decl *t = &m->vars[3], *o = &m->vars[4], *q = &m->vars[5];
      UNIT_CHECK(strcmp(w->name, "weights") == 0 && w->space == PTX_SPACE_GLOBAL);
      UNIT_CHECK(w->align == 4 && w->type == PTX_MOD_B8 && w->dims == 1 && w->dim[0] == 16);
      UNIT_CHECK(w->has_init && w->init_count == 13 && w->init[12].value == 5);
      UNIT_CHECK(s->space == PTX_SPACE_CONST && s->init_count == 2);
      UNIT_CHECK(s->init[0].kind == PTX_INIT_F64 && s->init[0].value == 0x3FE0000000000000);
      UNIT_CHECK(s->init[1].value == 0xC000000000000000);
      UNIT_CHECK(x->linkage == PTX_LINK_EXTERN && x->space == PTX_SPACE_SHARED);
      UNIT_CHECK(x->unsized && x->dims == 1 && x->align == 16 && !x->has_init);
      UNIT_CHECK(t->linkage == PTX_LINK_VISIBLE && t->dims == 2 && t->dim[1] == 2);
      UNIT_CHECK(t->init_count == 4);
      if (t->init_count == 4) {
         UNIT_CHECK(t->init[0].kind == PTX_INIT_SYMBOL && !t->init[0].generic);
         UNIT_CHECK(t->init[1].generic && strcmp(t->init[1].symbol, "tab") == 0);
         UNIT_CHECK(t->init[2].value == 8 && t->init[3].kind == PTX_INIT_INT);
      }
      UNIT_CHECK(o->type == PTX_MOD_F32 && o->init_count == 1 &&
                 o->init[0].kind == PTX_INIT_F32 && o->init[0].value == 0x3F800000);
      UNIT_CHECK(q->vec == 4 && q->type == PTX_MOD_U32);
   }
   ptx_module_destroy(m);
}

static void
test_functions(void)
{
   struct ptx_module *m = parse_ok(
      HEADER
      ".extern .func (.param .b32 func_retval0) vprintf\n"
      "(\n\t.param .b64 vprintf_param_0,\n\t.param .b64 vprintf_param_1\n)\n;\n"
      ".func (.param .align 16 .b8 ret[16]) helper(.reg .b32 a, .param .f32 b) .noreturn\n"
      "{\n\tret;\n}\n"
      ".visible .entry kern(\n\t.param .u64 .ptr .global .align 16 kern_param_0,\n"
      "\t.param .u32 kern_param_1\n)\n.maxntid 128, 1, 1\n.minnctapersm 2\n"
      ".pragma \"nounroll\";\n{\n\texit;\n}\n"
      ".weak .entry w() .reqntid 32 { ret; }\n");
   if (!m)
      return;
   UNIT_CHECK(m->func_count == 4);
   if (m->func_count == 4) {
      const struct ptx_function *v = &m->funcs[0], *h = &m->funcs[1];
      const struct ptx_function *k = &m->funcs[2], *w = &m->funcs[3];
      UNIT_CHECK(strcmp(v->name, "vprintf") == 0 && !v->has_body && !v->is_entry);
      UNIT_CHECK(v->linkage == PTX_LINK_EXTERN && v->ret_count == 1 && v->param_count == 2);
      UNIT_CHECK(h->ret_count == 1 && h->rets[0].align == 16 && h->rets[0].dim[0] == 16);
      UNIT_CHECK(h->param_count == 2 && h->params[0].space == PTX_SPACE_REG);
      UNIT_CHECK(h->noreturn && h->has_body && h->body_count == 1);
      UNIT_CHECK(k->is_entry && k->linkage == PTX_LINK_VISIBLE && k->param_count == 2);
      UNIT_CHECK(k->params[0].is_ptr && k->params[0].ptr_space == PTX_SPACE_GLOBAL &&
                 k->params[0].ptr_align == 16 && k->params[0].type == PTX_MOD_U64);
      UNIT_CHECK(k->maxntid[0] == 128 && k->maxntid[1] == 1 && k->maxntid[2] == 1);
      UNIT_CHECK(k->minnctapersm == 2 && k->pragma_count == 1 &&
                 strcmp(k->pragmas[0], "nounroll") == 0);
      UNIT_CHECK(w->linkage == PTX_LINK_WEAK && w->reqntid[0] == 32 && w->reqntid[1] == 1);
   }
   ptx_module_destroy(m);
}

static void
test_body(void)
{
   struct ptx_module *m = parse_ok(
      HEADER
      ".visible .entry k(.param .u64 k_param_0)\n"
      "{\n"
      "\t.reg .pred %p<3>;\n"
      "\t.reg .b32 %r<10>, %extra;\n"
      "\t.reg .b64 %rd<5>;\n"
      "\t.local .align 16 .b8 __local_depot0[64];\n"
      "\t.shared .align 4 .b8 sh[1024];\n"
      "\t.loc 1 10 4\n"
      "\tld.param.u64 %rd1, [k_param_0];\n"                  /* 0 */
      "\tmov.u32 %r1, %tid.x;\n"                             /* 1 */
      "\tsetp.lt.s32 %p1|%p2, %r1, -7;\n"                    /* 2 */
      "\t@!%p1 bra $L__BB0_2;\n"                             /* 3 */
      "\tst.global.v4.f32 [%rd1+-16], {%r1, %r2, %r3, _};\n" /* 4 */
      "\tadd.f32 %r2, %r2, 0f3F800000;\n"                    /* 5 */
      "\tfma.rn.f64 %rd2, %rd2, 0d3FF0000000000000, 1.5;\n"  /* 6 */
      "$L__BB0_2:\n"
      "\t.pragma \"nounroll\";\n"
      "\t{ // callseq 0, 0\n"
      "\t.reg .b32 temp_param_reg;\n"
      "\t.param .b32 param0;\n"
      "\tst.param.b32 [param0+0], %r1;\n"                    /* 7 */
      "\tcall.uni (retval0), \n\t_Z1fi, \n\t(\n\tparam0\n\t);\n" /* 8 */
      "\t} // callseq 0\n"
      "\tmov.u32 %r4, sh+4;\n"                               /* 9 */
      "\tatom.global.cas.b32 %r5, [%rd1], %r4, 0x10;\n"      /* 10 */
      "\tld.global.nc.L1::no_allocate.L2::128B.v2.u32 {%r6, %r7}, [%rd1];\n" /* 11 */
      "\tret;\n"
      "}\n"
      ".section .debug_str { $L__info_string0: .b8 95, 0 }\n"
      "\t.file\t1 \"/tmp/k.cu\", 1700000000, 123\n");
   if (!m)
      return;
   UNIT_CHECK(m->func_count == 1);
   if (m->func_count != 1) {
      ptx_module_destroy(m);
      return;
   }
   const struct ptx_function *f = &m->funcs[0];
   unsigned decls = 0, labels = 0, opens = 0, closes = 0, pragmas = 0;
   for (size_t i = 0; i < f->body_count; i++) {
      const struct ptx_stmt *s = &f->body[i];
      decls += s->kind == PTX_STMT_DECL;
      labels += s->kind == PTX_STMT_LABEL;
      opens += s->kind == PTX_STMT_OPEN;
      closes += s->kind == PTX_STMT_CLOSE;
      pragmas += s->kind == PTX_STMT_PRAGMA;
   }
   /* %p, %r, %extra, %rd, depot, sh, temp_param_reg, param0 */
   UNIT_CHECK(decls == 8);
   UNIT_CHECK(labels == 1 && opens == 1 && closes == 1 && pragmas == 1);
   UNIT_CHECK(f->body[0].kind == PTX_STMT_DECL && f->body[0].decl.reg_range == 3 &&
              f->body[0].decl.type == PTX_MOD_PRED);
   UNIT_CHECK(f->body[2].kind == PTX_STMT_DECL && strcmp(f->body[2].decl.name, "%extra") == 0 &&
              f->body[2].decl.reg_range == 0 && f->body[2].decl.type == PTX_MOD_B32);

   const struct ptx_stmt *s;
   if ((s = nth_instr(f, 0))) {
      UNIT_CHECK(s->instr.op == PTX_OP_LD && s->instr.mod_count == 2);
      UNIT_CHECK(ptx_instr_mod_of(&s->instr, PTX_MODC_SPACE) == PTX_MOD_PARAM);
      UNIT_CHECK(ptx_instr_type(&s->instr, 0) == PTX_MOD_U64);
      UNIT_CHECK(s->instr.ops[1].kind == PTX_OPND_ADDR &&
                 strcmp(s->instr.ops[1].name, "k_param_0") == 0 && s->instr.ops[1].value == 0);
      UNIT_CHECK(s->line == 12 && s->column == 2);
   }
   if ((s = nth_instr(f, 1)))
      UNIT_CHECK(strcmp(s->instr.ops[1].name, "%tid") == 0 && s->instr.ops[1].component == 'x');
   if ((s = nth_instr(f, 2))) {
      UNIT_CHECK(s->instr.ops[0].kind == PTX_OPND_PAIR && s->instr.ops[0].elem_count == 2 &&
                 strcmp(s->instr.ops[0].elems[1].name, "%p2") == 0);
      UNIT_CHECK(s->instr.ops[2].kind == PTX_OPND_INT && s->instr.ops[2].value == (uint64_t)-7);
      UNIT_CHECK(ptx_instr_mod_of(&s->instr, PTX_MODC_CMP) == PTX_MOD_LT);
   }
   if ((s = nth_instr(f, 3))) {
      UNIT_CHECK(s->instr.op == PTX_OP_BRA && s->instr.guard_negated &&
                 strcmp(s->instr.guard, "%p1") == 0);
      UNIT_CHECK(strcmp(s->instr.ops[0].name, "$L__BB0_2") == 0);
   }
   if ((s = nth_instr(f, 4))) {
      UNIT_CHECK(s->instr.ops[0].kind == PTX_OPND_ADDR && s->instr.ops[0].value == (uint64_t)-16);
      UNIT_CHECK(s->instr.ops[1].kind == PTX_OPND_VEC && s->instr.ops[1].elem_count == 4 &&
                 strcmp(s->instr.ops[1].elems[3].name, "_") == 0);
      UNIT_CHECK(ptx_instr_has(&s->instr, PTX_MOD_V4));
   }
   if ((s = nth_instr(f, 5)))
      UNIT_CHECK(s->instr.ops[2].kind == PTX_OPND_F32 && s->instr.ops[2].value == 0x3F800000);
   if ((s = nth_instr(f, 6))) {
      UNIT_CHECK(s->instr.ops[2].kind == PTX_OPND_F64 &&
                 s->instr.ops[2].value == 0x3FF0000000000000);
      UNIT_CHECK(s->instr.ops[3].kind == PTX_OPND_F64 &&
                 s->instr.ops[3].value == 0x3FF8000000000000);
   }
   if ((s = nth_instr(f, 8))) {
      UNIT_CHECK(s->instr.op == PTX_OP_CALL && s->instr.op_count == 3);
      UNIT_CHECK(s->instr.ops[0].kind == PTX_OPND_LIST && s->instr.ops[0].elem_count == 1);
      UNIT_CHECK(s->instr.ops[2].kind == PTX_OPND_LIST && s->instr.ops[2].elem_count == 1);
   }
   if ((s = nth_instr(f, 9)))
      UNIT_CHECK(s->instr.ops[1].kind == PTX_OPND_NAME && s->instr.ops[1].value == 4);
   if ((s = nth_instr(f, 10))) {
      UNIT_CHECK(s->instr.op_count == 4 && s->instr.ops[3].value == 16);
      UNIT_CHECK(ptx_instr_has(&s->instr, PTX_MOD_CAS));
   }
   if ((s = nth_instr(f, 11))) {
      UNIT_CHECK(s->instr.mod_count == 6 && ptx_instr_has(&s->instr, PTX_MOD_L2_128B));
      UNIT_CHECK(s->instr.ops[0].kind == PTX_OPND_VEC && s->instr.ops[0].elem_count == 2);
   }
   ptx_module_destroy(m);
}

static void
test_errors(void)
{
   parse_fails("", CUVK_CC_INVALID, 1, 1, "expected .version");
   parse_fails(".version 8.5\n.target sm_80\n.address_size 32\n", CUVK_CC_UNSUPPORTED,
               4, 1, ".address_size 32");
   parse_fails(".version 10.0\n", CUVK_CC_UNSUPPORTED, 1, 10, "version 10.0");
   parse_fails(".version 8.5\n.target gfx900\n", CUVK_CC_INVALID, 2, 9, "unknown target");
   parse_fails(HEADER ".entry k() {\n\tfrobnicate.u32 %r1;\n}\n", CUVK_CC_UNSUPPORTED, 5, 2,
               "'frobnicate'");
   parse_fails(HEADER ".entry k() {\n\tadd.u32.wobbly %r1, %r2, %r3;\n}\n", CUVK_CC_UNSUPPORTED,
               5, 9, "'.wobbly' on add");
   parse_fails(HEADER ".entry k() {\n\tadd.u32 %r1, %r2;\n}\n", CUVK_CC_INVALID, 5, 2,
               "add takes 3 to 3 operands, not 2");
   parse_fails(HEADER ".entry k() {\n\tmov.u32 %r1, %r2\n}\n", CUVK_CC_INVALID, 6, 1,
               "expected ';', found '}'");
   parse_fails(HEADER ".entry k() {\n\tret;\n", CUVK_CC_INVALID, 6, 1, "end of input inside");
   parse_fails(HEADER ".entry k() {\n\tmov.f32 %f1, 0f3F80;\n}\n", CUVK_CC_INVALID, 5, 15,
               "8 hex digits");
   parse_fails(HEADER ".entry k() {\n\t.pragma \"open\n}\n", CUVK_CC_INVALID, 5, 10,
               "unterminated string");
   parse_fails(HEADER "/* never closed\n", CUVK_CC_INVALID, 4, 1, "unterminated /*");
   parse_fails(HEADER ".entry k() {\n\tmov.u32 %r1, 5 # 3;\n}\n", CUVK_CC_INVALID, 5, 17,
               "unexpected character '#'");
   parse_fails(HEADER ".global .b32 x = 99999999999999999999;\n", CUVK_CC_INVALID, 4, 18,
               "does not fit 64 bits");
   parse_fails(HEADER ".global .align 3 .b32 x;\n", CUVK_CC_INVALID, 4, 16,
               "not a power of two");
   parse_fails(HEADER ".shared .b32 x = 1;\n", CUVK_CC_INVALID, 4, 16, "initialiser");
   parse_fails(HEADER ".entry k() { $L1: .callprototype (.param .b32 _) _ (); }\n",
               CUVK_CC_UNSUPPORTED, 4, 19, "indirect calls");
   parse_fails(HEADER ".global .texref t;\n", CUVK_CC_UNSUPPORTED, 4, 9, ".texref");
   parse_fails(HEADER ".const .attribute(.managed) .b32 x;\n", CUVK_CC_INVALID, 4, 8,
               "applies to .global variables only");
   parse_fails(HEADER ".global .attribute(.unified(1, 2)) .b32 x;\n", CUVK_CC_UNSUPPORTED, 4, 20,
               ".unified");
}

int
main(void)
{
   test_header();
   test_module_vars();
   test_functions();
   test_body();
   test_errors();
   return unit_report("compiler.ptx.parse");
}
