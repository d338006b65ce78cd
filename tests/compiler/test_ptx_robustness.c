/*
 * Mutated PTX must be answered with an error, never a crash, a hang or a
 * read out of bounds: every input the parser accepts or refuses is checked
 * for a coherent result (a module, or an error with a status, a message
 * and a place inside the text), and every module that parses goes on
 * through the lowering to IR, the validator, the CFG analyses, the
 * printer and the SPIR-V emitter.  The inputs are the PTX files given on the
 * command line (nvcc's output for tests/kernels) and a built-in module, so
 * the test has something to chew on without nvcc.  Run it under
 * AddressSanitizer (see docs/testing.md) to catch what a crash would not.
 *
 * Mutations: truncation at every line end and at random bytes, single
 * bytes flipped, deleted or duplicated, a random byte range copied over
 * another place, and a structural character inserted.  CUVK_TEST_SEED
 * replays a run.
 */
#include <string.h>

#include "compiler/ir_structure.h"
#include "compiler/ir_cfg.h"
#include "compiler/spirv.h"
#include "compiler_test.h"
#include "unit_test.h"

#define MUTATIONS_PER_INPUT 3000

static const char builtin_ptx[] =
   ".version 9.0\n"
   ".target sm_75\n"
   ".address_size 64\n"
   ".global .align 4 .b8 weights[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 5};\n"
   ".extern .shared .align 16 .b8 scratch[];\n"
   ".visible .entry vector_add(\n"
   "\t.param .u64 p0,\n\t.param .u64 p1,\n\t.param .u32 p2\n)\n"
   ".maxntid 256, 1, 1\n"
   "{\n"
   "\t.reg .pred %p<2>;\n\t.reg .f32 %f<4>;\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<8>;\n"
   "\tld.param.u64 %rd1, [p0];\n\tld.param.u64 %rd2, [p1];\n\tld.param.u32 %r2, [p2];\n"
   "\tmov.u32 %r3, %ctaid.x;\n\tmov.u32 %r4, %ntid.x;\n\tmov.u32 %r5, %tid.x;\n"
   "\tmad.lo.s32 %r1, %r3, %r4, %r5;\n\tsetp.ge.s32 %p1, %r1, %r2;\n"
   "\t@%p1 bra $L__BB0_2;\n"
   "\tcvta.to.global.u64 %rd3, %rd1;\n\tmul.wide.s32 %rd4, %r1, 4;\n"
   "\tadd.s64 %rd5, %rd3, %rd4;\n\tld.global.v2.f32 {%f1, %f2}, [%rd5+-8];\n"
   "\tfma.rn.f32 %f3, %f1, 0f3F800000, %f2;\n"
   "\t{ .param .b32 param0; st.param.f32 [param0+0], %f3; }\n"
   "\tst.global.f32 [%rd5], %f3;\n"
   "$L__BB0_2:\n\tret;\n}\n";

static unsigned accepted, refused, lowered, emitted;

/* A target like lavapipe, for the emitter. */
static const struct cuvk_cc_target target = {
   .subgroup_size = 8, .int8 = true, .int16 = true, .int64 = true, .float16 = true,
   .float64 = true, .atomic_int64 = true, .atomic_float32_add = true,
   .max_shared_bytes = 32768,
};

/* Every kernel of a mutant that lowered goes through the guard pass, the
 * structurizer and the emitter: words or an error with a message, and
 * the IR they changed in place still valid. */
static void
emit_all(struct cuvk_ir_module *ir)
{
   for (size_t i = 0; i < ir->func_count; i++) {
      const struct cuvk_ir_function *f = ir->funcs[i];
      struct cuvk_cc_error err;
      uint32_t *words;
      size_t count;
      if (!f->is_entry || !f->has_body)
         continue;
      if (cuvk_spirv_emit_kernel(ir, f->name, &target, NULL, &words, &count, &err)) {
         UNIT_CHECK(words != NULL && count > 5 && err.status == CUVK_CC_OK);
         emitted++;
         free(words);
      } else {
         UNIT_CHECK(words == NULL && err.status != CUVK_CC_OK && err.message[0] != '\0');
      }
      if (!cuvk_ir_validate(ir, &err)) {
         compiler_test_print_error("mutant after emission", &err);
         UNIT_CHECK(!"IR does not validate after the emitter's passes");
      }
   }
}

/* The CFG analyses on whatever graph a mutant lowered to: they must not
 * crash or loop, and their answers must agree with each other. */
static void
analyse(const struct cuvk_ir_module *ir)
{
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
         for (unsigned b = 0; b < f->block_count; b++)
            if (dom.idom[b] != CUVK_IR_NONE)
               UNIT_CHECK(cuvk_ir_dominates(&dom, dom.idom[b], b));
         for (unsigned l = 0; l < loops.count; l++)
            UNIT_CHECK(cuvk_ir_dominates(&dom, loops.loops[l].header, loops.loops[l].blocks[0]));
      }
      cuvk_arena_finish(&arena);
   }
}

/* Then the structurizer on the same graphs (before the printer, which
 * shows its result): it must succeed, keep the IR valid and give a
 * structure that keeps SPIR-V's rules. */
static void
structure(struct cuvk_ir_module *ir)
{
   struct cuvk_cc_error err = { 0 };

   for (size_t i = 0; i < ir->func_count; i++) {
      struct cuvk_ir_function *f = ir->funcs[i];
      struct cuvk_ir_structure s;
      struct cuvk_arena arena;

      if (!f->has_body)
         continue;
      cuvk_arena_init(&arena);
      if (!cuvk_ir_structurize(f, &arena, &s, &err)) {
         compiler_test_print_error("mutant", &err);
         UNIT_CHECK(!"structurize failed");
      } else if (!cuvk_ir_structure_check(f, &s, &arena, &err)) {
         compiler_test_print_error("mutant", &err);
         UNIT_CHECK(!"the structure breaks a rule");
      }
      cuvk_arena_finish(&arena);
   }
   if (!cuvk_ir_validate(ir, &err)) {
      compiler_test_print_error("mutant", &err);
      UNIT_CHECK(!"structured IR does not validate");
   }
}

static void
check_one(const char *text, size_t len)
{
   struct cuvk_cc_error err;
   struct ptx_module *m = ptx_parse(text, len, &err);

   if (m) {
      accepted++;
      UNIT_CHECK(err.status == CUVK_CC_OK);
      /* What parses must lower to valid IR or be refused, never crash. */
      struct cuvk_ir_module *ir = cuvk_ptx_to_ir(m, &err);
      ptx_module_destroy(m);
      if (ir) {
         lowered++;
         if (!cuvk_ir_validate(ir, &err)) {
            compiler_test_print_error("mutant", &err);
            UNIT_CHECK(!"lowered IR does not validate");
         }
         analyse(ir);
         structure(ir);
         char *printed = cuvk_ir_print(ir);
         UNIT_CHECK(printed != NULL);
         free(printed);
         emit_all(ir);
         cuvk_ir_module_destroy(ir);
      } else {
         UNIT_CHECK(err.status == CUVK_CC_INVALID || err.status == CUVK_CC_UNSUPPORTED);
         UNIT_CHECK(err.message[0] != '\0');
      }
      return;
   }
   refused++;
   UNIT_CHECK(err.status == CUVK_CC_INVALID || err.status == CUVK_CC_UNSUPPORTED);
   UNIT_CHECK(err.message[0] != '\0');

   /* The place must be inside the text: line 1..lines+1. */
   unsigned lines = 1;
   for (size_t i = 0; i < len; i++)
      lines += text[i] == '\n';
   UNIT_CHECK(err.line >= 1 && err.line <= lines);
   UNIT_CHECK(err.column >= 1);
}

static void
mutate_and_check(const char *name, const char *orig, size_t len)
{
   /* Headroom for insertions; the parser sees only len bytes of it. */
   char *buf = malloc(len + 64);
   unsigned before_acc = accepted, before_ref = refused, before_low = lowered;
   unsigned before_emit = emitted;

   if (!buf) {
      UNIT_CHECK(!"out of memory");
      return;
   }

   /* The unmutated text must parse. */
   check_one(orig, len);
   UNIT_CHECK(accepted == before_acc + 1);

   /* Truncated at every line end, and before it. */
   for (size_t i = 0; i < len; i++) {
      if (orig[i] != '\n')
         continue;
      memcpy(buf, orig, i);
      check_one(buf, i);
      if (i > 0)
         check_one(buf, i - 1);
   }

   for (unsigned n = 0; n < MUTATIONS_PER_INPUT; n++) {
      size_t at = (size_t)unit_rand_below(len);
      size_t blen = len;
      memcpy(buf, orig, len);
      switch (unit_rand_below(6)) {
      case 0: /* truncate */
         blen = at;
         break;
      case 1: /* flip a bit */
         buf[at] ^= (char)(1u << unit_rand_below(8));
         break;
      case 2: /* delete a byte */
         memmove(buf + at, buf + at + 1, len - at - 1);
         blen = len - 1;
         break;
      case 3: /* duplicate a byte */
         memmove(buf + at + 1, buf + at, len - at);
         blen = len + 1;
         break;
      case 4: { /* copy a range over another place */
         size_t from = (size_t)unit_rand_below(len);
         size_t count = 1 + (size_t)unit_rand_below(32);
         if (from + count > len)
            count = len - from;
         if (at + count > len)
            count = len - at;
         memmove(buf + at, orig + from, count);
         break;
      }
      default: { /* insert a character the grammar cares about */
         static const char structural[] = "{}[]();,.:@!|<>=+-%\"/0x\n";
         memmove(buf + at + 1, buf + at, len - at);
         buf[at] = structural[unit_rand_below(sizeof(structural) - 1)];
         blen = len + 1;
         break;
      }
      }
      check_one(buf, blen);
   }
   printf("%s: %zu bytes, %u mutants parsed (%u of them lowered to valid IR, %u kernels "
          "emitted), %u refused\n",
          name, len, accepted - before_acc, lowered - before_low, emitted - before_emit,
          refused - before_ref);
   free(buf);
}

int
main(int argc, char **argv)
{
   double start = unit_now();

   unit_seed();
   mutate_and_check("built-in", builtin_ptx, sizeof(builtin_ptx) - 1);
   for (int i = 1; i < argc; i++) {
      size_t len;
      char *text = compiler_test_read(argv[i], &len);
      UNIT_CHECK(text != NULL);
      if (!text)
         continue;
      mutate_and_check(argv[i], text, len);
      free(text);
   }
   if (argc < 2)
      printf("nvcc's output was not available; only the built-in module was mutated\n");
   printf("%.2f s\n", unit_now() - start);
   return unit_report("compiler.ptx.robustness");
}
