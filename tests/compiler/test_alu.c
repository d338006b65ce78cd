/*
 * The lowering of arithmetic, comparison, conversion and bit instructions
 * (spirv_lower_alu.c, spirv_lower_float.c), alone:
 *
 *   1. the host references of alu_ref.h against what an H100 (sm_90)
 *      computed for the same PTX (inline asm, edge cases: division by
 *      zero, shifts past the width, bit fields past the end, every prmt
 *      mode, NaN and zero handling, saturation), so the references the
 *      device runs are compared with are themselves right;
 *   2. PTX snippets covering every family and modifier, lowered through
 *      the test emitter (alu_emitter.c) and accepted by spirv-val
 *      --target-env vulkan1.2; and instructions a target cannot run
 *      refused with UNSUPPORTED naming them and their line;
 *   3. nvcc's PTX for tests/kernels/alu_*.cu (arguments after the
 *      validator): every ALU instruction in them lowered and validated.
 *
 * test_alu SPIRV_VAL [KERNEL.ptx ...]; without a validator the lowering
 * checks still run and the spirv-val ones are skipped.
 */
#include <string.h>

#include "alu_emitter.h"
#include "alu_ref.h"
#include "compiler/ptx.h"
#include "compiler/spirv.h"
#include "compiler_test.h"
#include "ir_snippet.h"
#include "unit_test.h"

#define HEADER ".version 8.0\n.target sm_90\n.address_size 64\n"

static const char *spirv_val;

static const struct cuvk_cc_target *const full = &compiler_test_lavapipe;

#define REGS                                                                   \
   "\t.reg .pred %p<8>;\n\t.reg .b16 %h<8>;\n\t.reg .b32 %r<16>;\n"             \
   "\t.reg .b64 %rd<16>;\n\t.reg .f32 %f<16>;\n\t.reg .f64 %fd<16>;\n"          \
   "\t.reg .f16 %hf<8>;\n"

/* The snippet as the body of a kernel, line 13 its first line. */
static char *
kernel_of(const char *body)
{
   static const char pre[] = HEADER ".visible .entry k()\n{\n" REGS;
   size_t n = strlen(pre) + strlen(body) + 32;
   char *s = malloc(n);
   snprintf(s, n, "%s%s\tret;\n}\n", pre, body);
   return s;
}

static unsigned snippets, snippet_instrs;

static void
lower_ok(const char *name, const char *body, const struct cuvk_cc_target *t)
{
   char *text = kernel_of(body);
   struct cuvk_ir_module *ir = ir_snippet_module(name, text, strlen(text));
   struct cuvk_cc_error err;
   size_t count;
   unsigned lowered = 0;

   free(text);
   if (!ir)
      return;
   uint32_t *words = alu_emit(ir, t, ALU_EMIT_IO, &count, &lowered, &err);
   cuvk_ir_module_destroy(ir);
   if (!words) {
      compiler_test_print_error(name, &err);
      UNIT_CHECK(!"lowering failed");
      return;
   }
   UNIT_CHECK(compiler_test_spirv_val(spirv_val, name, words, count));
   snippets++;
   snippet_instrs += lowered;
   free(words);
}

/* On a device whose Fma rounds once (target->fma_fused), fma.rn and
 * mad.rn of f32 and f64 are one Fma each, with no f64 detour: want Fmas
 * and no OpFConvert in the module; without it, none is a bare Fma of
 * f32. */
static void
lower_fma(const char *name, const char *body, const struct cuvk_cc_target *t, unsigned want_fma,
          bool want_convert)
{
   char *text = kernel_of(body);
   struct cuvk_ir_module *ir = ir_snippet_module(name, text, strlen(text));
   struct cuvk_cc_error err;
   size_t count;
   unsigned lowered = 0, fmas = 0, converts = 0;

   free(text);
   if (!ir)
      return;
   uint32_t *words = alu_emit(ir, t, ALU_EMIT_IO, &count, &lowered, &err);
   cuvk_ir_module_destroy(ir);
   if (!words) {
      compiler_test_print_error(name, &err);
      UNIT_CHECK(!"lowering failed");
      return;
   }
   UNIT_CHECK(compiler_test_spirv_val(spirv_val, name, words, count));
   for (size_t i = 5; i < count && words[i] >> 16; i += words[i] >> 16) {
      SpvOp op = words[i] & 0xffff;
      if (op == SpvOpExtInst && (words[i] >> 16) >= 5 && words[i + 4] == GLSLstd450Fma)
         fmas++;
      else if (op == SpvOpFConvert)
         converts++;
   }
   if (fmas != want_fma || (converts != 0) != want_convert)
      fprintf(stderr, "%s: %u Fma, %u OpFConvert\n", name, fmas, converts);
   UNIT_CHECK(fmas == want_fma);
   UNIT_CHECK((converts != 0) == want_convert);
   free(words);
}

static void
lower_refused(const char *name, const char *body, const struct cuvk_cc_target *t,
              enum cuvk_cc_status status, unsigned line, const char *needle)
{
   char *text = kernel_of(body);
   struct cuvk_ir_module *ir = ir_snippet_module(name, text, strlen(text));
   struct cuvk_cc_error err;
   size_t count;

   free(text);
   if (!ir)
      return;
   uint32_t *words = alu_emit(ir, t, 0, &count, NULL, &err);
   cuvk_ir_module_destroy(ir);
   UNIT_CHECK(words == NULL);
   free(words);
   if (err.status != status || err.line != line || !strstr(err.message, needle)) {
      fprintf(stderr, "%s: expected %s at line %u containing \"%s\", got:\n", name,
              cuvk_cc_status_name(status), line, needle);
      compiler_test_print_error(name, &err);
      UNIT_CHECK(!"wrong error");
   }
}

/* 1. References against the H100. */
static void
check_refs(void)
{
   /* Division: by zero all ones for every width and signedness, quotient
    * and remainder alike; INT_MIN / -1. */
   UNIT_CHECK(ref_div(5, 0, 32, false, false) == 0xffffffffu);
   UNIT_CHECK(ref_div(5, 0, 32, true, false) == 0xffffffffu);
   UNIT_CHECK(ref_div((uint32_t)-5, 0, 32, true, false) == 0xffffffffu);
   UNIT_CHECK(ref_div(0x80000000u, 0xffffffffu, 32, true, false) == 0x80000000u);
   UNIT_CHECK(ref_div(5, 0, 32, false, true) == 0xffffffffu);
   UNIT_CHECK(ref_div((uint32_t)-5, 0, 32, true, true) == 0xffffffffu);
   UNIT_CHECK(ref_div(0x80000000u, 0xffffffffu, 32, true, true) == 0);
   UNIT_CHECK(ref_div(5, 0, 64, false, false) == ~0ull);
   UNIT_CHECK(ref_div((uint64_t)-5, 0, 64, true, true) == ~0ull);
   UNIT_CHECK(ref_div((uint16_t)-5, 0, 16, true, false) == 0xffff);
   UNIT_CHECK(ref_div((uint32_t)-7, 2, 32, true, false) == 0xfffffffdu);
   UNIT_CHECK(ref_div((uint32_t)-7, 2, 32, true, true) == 0xffffffffu);
   UNIT_CHECK(ref_div(7, (uint32_t)-2, 32, true, true) == 1);
   /* Shifts past the width. */
   UNIT_CHECK(ref_shift(0x12345678, 32, 32, 0) == 0);
   UNIT_CHECK(ref_shift((uint32_t)-8, 40, 32, 2) == 0xffffffffu);
   UNIT_CHECK(ref_shift(0x80000000u, 40, 32, 1) == 0);
   UNIT_CHECK(ref_shift((uint32_t)-8, 0xffffffffu, 32, 2) == 0xffffffffu);
   UNIT_CHECK(ref_shift(0x123456789abcdefull, 64, 64, 0) == 0);
   UNIT_CHECK(ref_shift(0x8000000000000000ull, 100, 64, 2) == ~0ull);
   UNIT_CHECK(ref_shift(0x8001, 16, 16, 2) == 0xffff);
   UNIT_CHECK(ref_shift(0x8001, 17, 16, 0) == 0);
   /* bfe, bfi, bfind. */
   UNIT_CHECK(ref_bfe(0xF0F0F0F0u, 28, 8, 32, false) == 0xf);
   UNIT_CHECK(ref_bfe(0xF0F0F0F0u, 28, 8, 32, true) == 0xffffffffu);
   UNIT_CHECK(ref_bfe(0xF0F0F0F0u, 40, 4, 32, true) == 0xffffffffu);
   UNIT_CHECK(ref_bfe(0xF0F0F0F0u, 4, 0, 32, true) == 0);
   UNIT_CHECK(ref_bfe(0xF0F0F0F0u, 0x104, 0x103, 32, true) == 0xffffffffu);
   UNIT_CHECK(ref_bfe(0xF0F0F0F0u, 4, 40, 32, false) == 0x0f0f0f0fu);
   UNIT_CHECK(ref_bfi(0xff, 0x12345678u, 30, 8, 32) == 0xd2345678u);
   UNIT_CHECK(ref_bfi(0xff, 0x12345678u, 0x104, 4, 32) == 0x123456f8u);
   UNIT_CHECK(ref_bfi(0xff, 0x12345678u, 40, 4, 32) == 0x12345678u);
   UNIT_CHECK(ref_bfind(0, 32, false, false) == 0xffffffffu);
   UNIT_CHECK(ref_bfind(0xffffffffu, 32, true, false) == 0xffffffffu);
   UNIT_CHECK(ref_bfind(0x40000000u, 32, true, false) == 30);
   UNIT_CHECK(ref_bfind(0xF0000000u, 32, true, false) == 27);
   UNIT_CHECK(ref_bfind(1, 32, false, true) == 31);
   UNIT_CHECK(ref_bfind(0, 32, false, true) == 0xffffffffu);
   UNIT_CHECK(ref_bfind(0, 64, false, false) == 0xffffffffu);
   UNIT_CHECK(ref_bfind(0x100000000ull, 64, false, true) == 31);
   /* prmt: every mode for c = 0..3 with bytes 0..7 = 00 11 .. 77. */
   static const uint32_t prmt_h100[6][4] = {
      { 0x33221100, 0x44332211, 0x55443322, 0x66554433 },   /* f4e */
      { 0x55667700, 0x66770011, 0x77001122, 0x00112233 },   /* b4e */
      { 0x00000000, 0x11111111, 0x22222222, 0x33333333 },   /* rc8 */
      { 0x33221100, 0x33221111, 0x33222222, 0x33333333 },   /* ecl */
      { 0x00000000, 0x11111100, 0x22221100, 0x33221100 },   /* ecr */
      { 0x11001100, 0x33223322, 0x11001100, 0x33223322 },   /* rc16 */
   };
   for (int m = 0; m < 6; m++)
      for (uint32_t c = 0; c < 4; c++)
         UNIT_CHECK(ref_prmt(0x33221100u, 0x77665544u, c, m + 1) == prmt_h100[m][c]);
   UNIT_CHECK(ref_prmt(0x83221100u, 0x77E65544u, 0x89B3, 0) == 0xff83);
   UNIT_CHECK(ref_prmt(0x83221100u, 0x77E65544u, 0xFFFF3210u, 0) == 0x83221100u);
   /* mul24, shf, sad, saturation. */
   UNIT_CHECK(ref_mul24(0xffffff, 0xffffff, false, true) == 0xfffffe00u);
   UNIT_CHECK(ref_mul24(0xffffff, 0x7fffff, true, true) == 0xffffff80u);
   UNIT_CHECK(ref_mul24(0xff123456u, 0xff000003u, false, false) == 0x369d02);
   UNIT_CHECK(ref_mul24(0x00800001u, 3, true, false) == 0xfe800003u);
   UNIT_CHECK(ref_mul24(0x00800000u, 0x00800000u, true, true) == 0x40000000u);
   UNIT_CHECK(ref_shf(0x11111111u, 0x80000001u, 36, true, false) == 0x11);
   UNIT_CHECK(ref_shf(0x11111111u, 0x80000001u, 36, true, true) == 0x11111111u);
   UNIT_CHECK(ref_shf(0x11111111u, 0x80000001u, 36, false, true) == 0x80000001u);
   UNIT_CHECK(ref_shf(0x11111111u, 0x80000001u, 4, false, false) == 0x11111111u);
   /* bmsk, szext, fns: the PTX ISA's examples, and the edges of each mode. */
   UNIT_CHECK(ref_bmsk(1, 2, false) == 6);
   UNIT_CHECK(ref_bmsk(4, 0, true) == 0);
   UNIT_CHECK(ref_bmsk(4, 32, true) == 0xfffffff0u);
   UNIT_CHECK(ref_bmsk(4, 32, false) == 0);
   UNIT_CHECK(ref_bmsk(32, 4, true) == 0);
   UNIT_CHECK(ref_bmsk(32, 4, false) == 0xf);
   UNIT_CHECK(ref_bmsk(28, 8, true) == 0xf0000000u);
   UNIT_CHECK(ref_szext(0xffffffffu, 0, false, false) == 0);
   UNIT_CHECK(ref_szext(0xffffffffu, 0, true, true) == 0);
   UNIT_CHECK(ref_szext(0x1f0u, 8, false, true) == 0xfffffff0u);
   UNIT_CHECK(ref_szext(0x1f0u, 8, false, false) == 0xf0u);
   UNIT_CHECK(ref_szext(0x80000001u, 40, true, true) == 0x80000001u);
   UNIT_CHECK(ref_szext(0x80000001u, 40, false, true) == 0x1);
   UNIT_CHECK(ref_szext(0x80000001u, 32, false, true) == 0);
   UNIT_CHECK(ref_fns(0xaaaaaaaau, 3, 1) == 3);
   UNIT_CHECK(ref_fns(0xaaaaaaaau, 3, -1) == 3);
   UNIT_CHECK(ref_fns(0xaaaaaaaau, 2, 1) == 3);
   UNIT_CHECK(ref_fns(0xaaaaaaaau, 2, -1) == 1);
   UNIT_CHECK(ref_fns(0xaaaaaaaau, 2, 0) == 0xffffffffu);
   UNIT_CHECK(ref_fns(0xaaaaaaaau, 0, 16) == 31);
   UNIT_CHECK(ref_fns(0xaaaaaaaau, 0, 17) == 0xffffffffu);
   UNIT_CHECK(ref_fns(0xaaaaaaaau, 31, -16) == 1);
   UNIT_CHECK(ref_fns(~0u, 31, INT32_MIN) == 0xffffffffu);
   UNIT_CHECK(ref_sat_s32((int64_t)INT32_MAX + 1) == INT32_MAX);
   UNIT_CHECK(ref_sat_s32((int64_t)INT32_MIN - 1) == INT32_MIN);
   UNIT_CHECK(ref_lop3(0xF0F0F0F0u, 0xCCCCCCCCu, 0xAAAAAAAAu, 0x96) ==
              (0xF0F0F0F0u ^ 0xCCCCCCCCu ^ 0xAAAAAAAAu));
   /* min/max of zeros and NaNs. */
   const uint32_t nz = 0x80000000u, pz = 0, nan1 = 0x7fc00001u, one = 0x3f800000u,
                  nnan = 0xffc00002u;
   UNIT_CHECK(ref_fminmax(nz, pz, false, false) == nz);
   UNIT_CHECK(ref_fminmax(pz, nz, false, false) == nz);
   UNIT_CHECK(ref_fminmax(nz, pz, true, false) == pz);
   UNIT_CHECK(ref_fminmax(pz, nz, true, false) == pz);
   UNIT_CHECK(ref_fminmax(nan1, one, false, false) == one);
   UNIT_CHECK(ref_fminmax(one, nan1, false, false) == one);
   UNIT_CHECK(ref_fminmax(nan1, nnan, false, false) == 0x7fffffffu);
   UNIT_CHECK(ref_fminmax(nan1, one, false, true) == 0x7fffffffu);
   UNIT_CHECK(ref_fminmax(one, nnan, true, true) == 0x7fffffffu);
   /* float -> int saturation and NaN. */
   UNIT_CHECK(ref_f2i(NAN, 32, true, 1, false) == 0);
   UNIT_CHECK((uint32_t)ref_f2i(INFINITY, 32, true, 1, false) == 0x7fffffffu);
   UNIT_CHECK((uint32_t)ref_f2i(-INFINITY, 32, true, 1, false) == 0x80000000u);
   UNIT_CHECK(ref_f2i(-1.5, 32, false, 0, false) == 0);
   UNIT_CHECK(ref_f2i(-1.0, 64, false, 1, false) == 0);
   UNIT_CHECK(ref_f2i(NAN, 64, true, 1, false) == 0x8000000000000000ull);
   UNIT_CHECK(ref_f2i(40000.0, 16, true, 1, false) == 0x7fff);
   UNIT_CHECK(ref_f2i(300.0, 8, false, 1, false) == 0xff);
   UNIT_CHECK((uint8_t)ref_f2i(-300.0, 8, true, 1, false) == 0x80);
   UNIT_CHECK(ref_f2i(4294967296.0, 32, false, 0, false) == 0xffffffffu);
   UNIT_CHECK(ref_f2i(2.5, 32, true, 0, false) == 2);
   /* NaN from an f64 source, or to 64 bits: the sign bit alone. */
   UNIT_CHECK(ref_f2i(NAN, 64, false, 1, false) == 0x8000000000000000ull);
   UNIT_CHECK(ref_f2i(NAN, 32, false, 1, false) == 0);
   UNIT_CHECK(ref_f2i(NAN, 16, true, 1, false) == 0);
   UNIT_CHECK(ref_f2i(NAN, 32, true, 1, true) == 0x80000000u);
   UNIT_CHECK(ref_f2i(NAN, 32, false, 1, true) == 0x80000000u);
   UNIT_CHECK(ref_f2i(NAN, 16, true, 1, true) == 0x8000);
   UNIT_CHECK(ref_f2i(NAN, 8, true, 1, true) == 0x80);
   UNIT_CHECK(ref_f2i(NAN, 64, false, 1, true) == 0x8000000000000000ull);
   /* f16 and bf16 conversions. */
   UNIT_CHECK(ref_f32_to_f16(0x477ff000u, 0) == 0x7c00);    /* 65520 -> inf */
   UNIT_CHECK(ref_f32_to_f16(0x49742400u, 1) == 0x7bff);    /* 1e6 rz -> max */
   UNIT_CHECK(ref_f32_to_f16(nnan, 0) == 0x7fff);
   UNIT_CHECK(ref_f32_to_f16(0xc9742400u, 2) == 0xfc00);    /* -1e6 rm -> -inf */
   UNIT_CHECK(ref_f32_to_bf16(nnan, false) == 0x7fff);
   UNIT_CHECK(ref_f32_to_bf16(0x3f808000u, false) == 0x3f80);
   /* And against the host's own conversion where it has one. */
   for (uint32_t i = 0; i < 200000; i++) {
      uint32_t x = (uint32_t)unit_rand();
      if (i < 64)
         x = (i & 1 ? 0x80000000u : 0) | (0x33800000u + (i >> 1) * 0x00400000u);  /* near 2^-24.. */
      float f = ref_bitsf(x);
      if (isnan(f))
         continue;
#if defined(__FLT16_MAX__)
      _Float16 h = (_Float16)f;
      uint16_t hb;
      memcpy(&hb, &h, 2);
      if (ref_f32_to_f16(x, 0) != hb) {
         fprintf(stderr, "f32 %08x -> f16: ref %04x host %04x\n", x, ref_f32_to_f16(x, 0), hb);
         UNIT_CHECK(!"ref_f32_to_f16 disagrees with the host");
         break;
      }
#endif
   }
}

/* 2. Snippets. */
static void
check_snippets(void)
{
   /* Integer arithmetic of every width. */
   lower_ok("int add/sub/mul",
            "\tadd.s16 %h1, %h2, %h3;\n\tsub.u16 %h1, %h2, 7;\n\tmul.lo.s16 %h1, %h2, %h3;\n"
            "\tadd.u32 %r1, %r2, %r3;\n\tsub.s32 %r1, %r2, -1;\n\tadd.sat.s32 %r1, %r2, %r3;\n"
            "\tsub.sat.s32 %r1, %r2, %r3;\n\tadd.s64 %rd1, %rd2, %rd3;\n"
            "\tsub.u64 %rd1, %rd2, 1;\n\tmul.lo.u32 %r1, %r2, %r3;\n"
            "\tmul.hi.u32 %r1, %r2, %r3;\n\tmul.hi.s32 %r1, %r2, %r3;\n"
            "\tmul.wide.s32 %rd1, %r2, %r3;\n\tmul.wide.u32 %rd1, %r2, 4;\n"
            "\tmul.wide.u16 %r1, %h2, %h3;\n\tmul.hi.u64 %rd1, %rd2, %rd3;\n"
            "\tmul.hi.s64 %rd1, %rd2, %rd3;\n\tmul.lo.s64 %rd1, %rd2, %rd3;\n"
            "\tmul.hi.u16 %h1, %h2, %h3;\n", full);
   lower_ok("int mad",
            "\tmad.lo.s32 %r1, %r2, %r3, %r4;\n\tmad.hi.u32 %r1, %r2, %r3, %r4;\n"
            "\tmad.wide.s32 %rd1, %r2, %r3, %rd4;\n\tmad.wide.u16 %r1, %h2, %h3, %r4;\n"
            "\tmad.hi.sat.s32 %r1, %r2, %r3, %r4;\n\tmad.lo.u64 %rd1, %rd2, %rd3, %rd4;\n"
            "\tmul24.lo.s32 %r1, %r2, %r3;\n\tmul24.hi.u32 %r1, %r2, %r3;\n"
            "\tmad24.lo.u32 %r1, %r2, %r3, %r4;\n\tmad24.hi.sat.s32 %r1, %r2, %r3, %r4;\n"
            "\tsad.s32 %r1, %r2, %r3, %r4;\n\tsad.u64 %rd1, %rd2, %rd3, %rd4;\n"
            "\tsad.u16 %h1, %h2, %h3, %h4;\n", full);
   lower_ok("carry chains",
            "\tadd.cc.u32 %r1, %r2, %r3;\n\taddc.cc.u32 %r4, %r5, %r6;\n"
            "\taddc.u32 %r7, %r8, 0;\n\tsub.cc.u32 %r1, %r2, %r3;\n"
            "\tsubc.cc.u32 %r4, %r5, %r6;\n\tsubc.s32 %r7, %r8, %r9;\n"
            "\tadd.cc.u64 %rd1, %rd2, %rd3;\n\taddc.u64 %rd4, %rd5, %rd6;\n"
            "\tmad.lo.cc.u32 %r1, %r2, %r3, %r4;\n\tmadc.hi.cc.u32 %r5, %r2, %r3, %r6;\n"
            "\tmadc.lo.u32 %r7, %r2, %r3, 0;\n\tsub.cc.s64 %rd1, %rd2, %rd3;\n"
            "\tsubc.u64 %rd4, %rd5, %rd6;\n", full);
   lower_ok("div rem",
            "\tdiv.u32 %r1, %r2, %r3;\n\tdiv.s32 %r1, %r2, %r3;\n\trem.u32 %r1, %r2, %r3;\n"
            "\trem.s32 %r1, %r2, %r3;\n\tdiv.u64 %rd1, %rd2, %rd3;\n\tdiv.s64 %rd1, %rd2, %rd3;\n"
            "\trem.s64 %rd1, %rd2, %rd3;\n\trem.u64 %rd1, %rd2, 10;\n\tdiv.s16 %h1, %h2, %h3;\n"
            "\trem.u16 %h1, %h2, %h3;\n", full);
   lower_ok("min max abs neg",
            "\tmin.s32 %r1, %r2, %r3;\n\tmax.u32 %r1, %r2, %r3;\n\tmin.u64 %rd1, %rd2, %rd3;\n"
            "\tmax.s16 %h1, %h2, %h3;\n\tmax.relu.s32 %r1, %r2, %r3;\n\tabs.s32 %r1, %r2;\n"
            "\tabs.s64 %rd1, %rd2;\n\tneg.s32 %r1, %r2;\n\tneg.s16 %h1, %h2;\n", full);
   /* Logic, shifts, bits. */
   lower_ok("logic",
            "\tand.b32 %r1, %r2, %r3;\n\tor.b64 %rd1, %rd2, %rd3;\n\txor.b16 %h1, %h2, %h3;\n"
            "\tnot.b32 %r1, %r2;\n\tcnot.b32 %r1, %r2;\n\tcnot.b64 %rd1, %rd2;\n"
            "\tand.pred %p1, %p2, %p3;\n\tor.pred %p1, !%p2, %p3;\n\txor.pred %p1, %p2, %p3;\n"
            "\tnot.pred %p1, %p2;\n"
            "\tlop3.b32 %r1, %r2, %r3, %r4, 0x96;\n\tlop3.b32 %r1, %r2, %r3, %r4, 0;\n"
            "\tlop3.b32 %r1, %r2, %r3, %r4, 255;\n\tlop3.b32 %r1, %r2, %r3, %r4, 0xe8;\n", full);
   lower_ok("shifts",
            "\tshl.b32 %r1, %r2, %r3;\n\tshr.u32 %r1, %r2, 40;\n\tshr.s32 %r1, %r2, %r3;\n"
            "\tshl.b64 %rd1, %rd2, %r3;\n\tshr.s64 %rd1, %rd2, %r3;\n\tshr.u64 %rd1, %rd2, 63;\n"
            "\tshl.b16 %h1, %h2, %r3;\n\tshr.s16 %h1, %h2, %r3;\n"
            "\tshf.l.wrap.b32 %r1, %r2, %r3, %r4;\n\tshf.r.clamp.b32 %r1, %r2, %r3, %r4;\n"
            "\tshf.l.clamp.b32 %r1, %r2, %r3, 8;\n\tshf.r.wrap.b32 %r1, %r2, %r3, 31;\n", full);
   lower_ok("bit fields",
            "\tbfe.u32 %r1, %r2, %r3, %r4;\n\tbfe.s32 %r1, %r2, 8, 8;\n"
            "\tbfe.u64 %rd1, %rd2, %r3, %r4;\n\tbfe.s64 %rd1, %rd2, %r3, %r4;\n"
            "\tbfi.b32 %r1, %r2, %r3, %r4, %r5;\n\tbfi.b64 %rd1, %rd2, %rd3, %r4, 16;\n"
            "\tbrev.b32 %r1, %r2;\n\tbrev.b64 %rd1, %rd2;\n\tpopc.b32 %r1, %r2;\n"
            "\tpopc.b64 %r1, %rd2;\n\tclz.b32 %r1, %r2;\n\tclz.b64 %r1, %rd2;\n"
            "\tbfind.u32 %r1, %r2;\n\tbfind.s32 %r1, %r2;\n\tbfind.shiftamt.u64 %r1, %rd2;\n"
            "\tbfind.s64 %r1, %rd2;\n", full);
   lower_ok("bmsk szext fns",
            "\tbmsk.clamp.b32 %r1, %r2, %r3;\n\tbmsk.wrap.b32 %r1, 4, %r3;\n"
            "\tszext.clamp.s32 %r1, %r2, %r3;\n\tszext.wrap.u32 %r1, %r2, 8;\n"
            "\tszext.wrap.s32 %r1, %r2, %r3;\n\tszext.clamp.u32 %r1, %r2, %r3;\n"
            "\tfns.b32 %r1, %r2, %r3, %r4;\n\tfns.b32 %r1, %r2, 0, -1;\n", full);
   lower_ok("prmt",
            "\tprmt.b32 %r1, %r2, %r3, %r4;\n\tprmt.b32 %r1, %r2, %r3, 0x3210;\n"
            "\tprmt.b32.f4e %r1, %r2, %r3, %r4;\n\tprmt.b32.b4e %r1, %r2, %r3, %r4;\n"
            "\tprmt.b32.rc8 %r1, %r2, %r3, %r4;\n\tprmt.b32.ecl %r1, %r2, %r3, %r4;\n"
            "\tprmt.b32.ecr %r1, %r2, %r3, %r4;\n\tprmt.b32.rc16 %r1, %r2, %r3, %r4;\n", full);
   /* Comparisons and selection. */
   lower_ok("setp int",
            "\tsetp.eq.s32 %p1, %r2, %r3;\n\tsetp.ne.u32 %p1, %r2, 0;\n"
            "\tsetp.lt.s32 %p1, %r2, %r3;\n\tsetp.le.u64 %p1, %rd2, %rd3;\n"
            "\tsetp.gt.s16 %p1, %h2, %h3;\n\tsetp.ge.u32 %p1, %r2, %r3;\n"
            "\tsetp.lo.u32 %p1, %r2, %r3;\n\tsetp.ls.u32 %p1, %r2, %r3;\n"
            "\tsetp.hi.u64 %p1, %rd2, %rd3;\n\tsetp.hs.u32 %p1, %r2, %r3;\n"
            "\tsetp.eq.b32 %p1, %r2, %r3;\n"
            "\tsetp.lt.and.s32 %p1, %r2, %r3, %p4;\n\tsetp.ge.or.u32 %p1|%p2, %r2, %r3, !%p4;\n"
            "\tsetp.ne.xor.s64 %p1|%p2, %rd2, %rd3, %p4;\n", full);
   lower_ok("setp float",
            "\tsetp.eq.f32 %p1, %f2, %f3;\n\tsetp.ne.f32 %p1, %f2, %f3;\n"
            "\tsetp.lt.f32 %p1, %f2, 0f00000000;\n\tsetp.le.f64 %p1, %fd2, %fd3;\n"
            "\tsetp.gt.ftz.f32 %p1, %f2, %f3;\n\tsetp.ge.f32 %p1, %f2, %f3;\n"
            "\tsetp.equ.f32 %p1, %f2, %f3;\n\tsetp.neu.f64 %p1, %fd2, %fd3;\n"
            "\tsetp.ltu.f32 %p1, %f2, %f3;\n\tsetp.leu.f32 %p1, %f2, %f3;\n"
            "\tsetp.gtu.f32 %p1, %f2, %f3;\n\tsetp.geu.f16 %p1, %hf2, %hf3;\n"
            "\tsetp.num.f32 %p1, %f2, %f3;\n\tsetp.nan.f64 %p1, %fd2, %fd3;\n"
            "\tsetp.lt.and.f32 %p1|%p2, %f2, %f3, %p3;\n\tsetp.nan.or.f32 %p1, %f2, %f3, !%p3;\n",
            full);
   lower_ok("set selp slct",
            "\tset.lt.u32.s32 %r1, %r2, %r3;\n\tset.eq.f32.f32 %f1, %f2, %f3;\n"
            "\tset.gtu.s32.f64 %r1, %fd2, %fd3;\n\tset.ne.and.u32.u32 %r1, %r2, %r3, %p1;\n"
            "\tselp.b32 %r1, %r2, %r3, %p1;\n\tselp.f32 %f1, %f2, 0f3F800000, !%p1;\n"
            "\tselp.u64 %rd1, %rd2, %rd3, %p1;\n\tselp.f64 %fd1, %fd2, %fd3, %p2;\n"
            "\tselp.b16 %h1, %h2, %h3, %p1;\n"
            "\tslct.u32.s32 %r1, %r2, %r3, %r4;\n\tslct.f32.f32 %f1, %f2, %f3, %f4;\n"
            "\tslct.ftz.s32.f32 %r1, %r2, %r3, %f4;\n", full);
   /* Float arithmetic. */
   lower_ok("f32 arithmetic",
            "\tadd.f32 %f1, %f2, %f3;\n\tadd.rn.f32 %f1, %f2, %f3;\n\tadd.rz.f32 %f1, %f2, %f3;\n"
            "\tadd.rm.ftz.f32 %f1, %f2, %f3;\n\tadd.rp.sat.f32 %f1, %f2, %f3;\n"
            "\tsub.f32 %f1, %f2, %f3;\n\tsub.rm.f32 %f1, %f2, %f3;\n"
            "\tmul.f32 %f1, %f2, %f3;\n\tmul.rz.ftz.f32 %f1, %f2, %f3;\n"
            "\tmul.rp.f32 %f1, %f2, 0f40000000;\n\tfma.rn.f32 %f1, %f2, %f3, %f4;\n"
            "\tfma.rz.f32 %f1, %f2, %f3, %f4;\n\tfma.rm.ftz.sat.f32 %f1, %f2, %f3, %f4;\n"
            "\tfma.rp.f32 %f1, %f2, %f3, %f4;\n\tmad.rn.f32 %f1, %f2, %f3, %f4;\n"
            "\tadd.sat.f32 %f1, %f2, %f3;\n", full);
   struct cuvk_cc_target fused = *full;
   fused.fma_fused = true;
   lower_fma("fma.rn fused", "\tfma.rn.f32 %f1, %f2, %f3, %f4;\n\tmad.rn.f32 %f1, %f2, %f3, %f4;\n"
             "\tfma.rn.f64 %fd1, %fd2, %fd3, %fd4;\n", &fused, 3, false);
   lower_fma("fma.rn.f32 exact", "\tfma.rn.f32 %f1, %f2, %f3, %f4;\n", full, 0, true);
   lower_ok("f64 and f16 arithmetic",
            "\tadd.f64 %fd1, %fd2, %fd3;\n\tadd.rn.f64 %fd1, %fd2, %fd3;\n"
            "\tmul.rn.f64 %fd1, %fd2, %fd3;\n\tfma.rn.f64 %fd1, %fd2, %fd3, %fd4;\n"
            "\tdiv.rn.f64 %fd1, %fd2, %fd3;\n\tsqrt.rn.f64 %fd1, %fd2;\n\trcp.rn.f64 %fd1, %fd2;\n"
            "\trcp.approx.ftz.f64 %fd1, %fd2;\n\trsqrt.approx.f64 %fd1, %fd2;\n"
            "\tadd.f16 %hf1, %hf2, %hf3;\n\tadd.rn.f16 %hf1, %hf2, %hf3;\n"
            "\tmul.f16 %hf1, %hf2, %hf3;\n\tfma.rn.f16 %hf1, %hf2, %hf3, %hf4;\n"
            "\tfma.rn.sat.f16 %hf1, %hf2, %hf3, %hf4;\n\tsub.rn.ftz.f16 %hf1, %hf2, %hf3;\n",
            full);
   lower_ok("f32 division and roots",
            "\tdiv.rn.f32 %f1, %f2, %f3;\n\tdiv.rz.f32 %f1, %f2, %f3;\n"
            "\tdiv.rm.f32 %f1, %f2, %f3;\n\tdiv.rp.ftz.f32 %f1, %f2, %f3;\n"
            "\tdiv.full.f32 %f1, %f2, %f3;\n\tdiv.approx.f32 %f1, %f2, %f3;\n"
            "\tdiv.approx.ftz.f32 %f1, %f2, %f3;\n\trcp.rn.f32 %f1, %f2;\n"
            "\trcp.rz.ftz.f32 %f1, %f2;\n\trcp.approx.f32 %f1, %f2;\n"
            "\tsqrt.rn.f32 %f1, %f2;\n\tsqrt.rp.f32 %f1, %f2;\n\tsqrt.approx.f32 %f1, %f2;\n"
            "\tsqrt.approx.ftz.f32 %f1, %f2;\n\trsqrt.approx.f32 %f1, %f2;\n"
            "\trsqrt.approx.ftz.f32 %f1, %f2;\n", full);
   lower_ok("f32 approximate functions",
            "\tex2.approx.f32 %f1, %f2;\n\tex2.approx.ftz.f32 %f1, %f2;\n"
            "\tlg2.approx.f32 %f1, %f2;\n\tlg2.approx.ftz.f32 %f1, %f2;\n"
            "\tsin.approx.f32 %f1, %f2;\n\tcos.approx.ftz.f32 %f1, %f2;\n"
            "\ttanh.approx.f32 %f1, %f2;\n\tex2.approx.f16 %hf1, %hf2;\n", full);
   lower_ok("min max abs neg copysign testp",
            "\tmin.f32 %f1, %f2, %f3;\n\tmax.ftz.f32 %f1, %f2, %f3;\n"
            "\tmin.NaN.f32 %f1, %f2, %f3;\n\tmax.f64 %fd1, %fd2, %fd3;\n"
            "\tmin.f16 %hf1, %hf2, %hf3;\n\tmax.NaN.f16 %hf1, %hf2, %hf3;\n"
            "\tabs.f32 %f1, %f2;\n\tabs.ftz.f32 %f1, %f2;\n\tneg.f64 %fd1, %fd2;\n"
            "\tneg.ftz.f32 %f1, %f2;\n\tabs.f16 %hf1, %hf2;\n"
            "\tcopysign.f32 %f1, %f2, %f3;\n\tcopysign.f64 %fd1, %fd2, %fd3;\n"
            "\ttestp.finite.f32 %p1, %f2;\n\ttestp.infinite.f64 %p1, %fd2;\n"
            "\ttestp.number.f32 %p1, %f2;\n\ttestp.notanumber.f32 %p1, %f2;\n"
            "\ttestp.normal.f64 %p1, %fd2;\n\ttestp.subnormal.f32 %p1, %f2;\n", full);
   /* Conversions. */
   lower_ok("cvt int int",
            "\tcvt.u32.u16 %r1, %h2;\n\tcvt.s32.s16 %r1, %h2;\n\tcvt.u16.u32 %h1, %r2;\n"
            "\tcvt.s8.s32 %r1, %r2;\n\tcvt.u8.u32 %h1, %r2;\n\tcvt.sat.s8.s32 %r1, %r2;\n"
            "\tcvt.sat.u8.s32 %r1, %r2;\n\tcvt.sat.u32.s32 %r1, %r2;\n"
            "\tcvt.sat.s32.u32 %r1, %r2;\n\tcvt.s64.s32 %rd1, %r2;\n\tcvt.u64.u32 %rd1, %r2;\n"
            "\tcvt.u32.u64 %r1, %rd2;\n\tcvt.sat.s32.s64 %r1, %rd2;\n"
            "\tcvt.sat.u16.u64 %h1, %rd2;\n\tcvt.sat.s16.u16 %h1, %h2;\n"
            "\tcvt.sat.u64.s64 %rd1, %rd2;\n\tcvt.s16.s8 %h1, %h2;\n", full);
   lower_ok("cvt int float",
            "\tcvt.rn.f32.s32 %f1, %r2;\n\tcvt.rz.f32.u32 %f1, %r2;\n"
            "\tcvt.rm.f32.s64 %f1, %rd2;\n\tcvt.rp.f32.u64 %f1, %rd2;\n"
            "\tcvt.rn.f64.s32 %fd1, %r2;\n\tcvt.rn.f64.u64 %fd1, %rd2;\n"
            "\tcvt.rz.f64.s64 %fd1, %rd2;\n\tcvt.rn.f16.s32 %hf1, %r2;\n"
            "\tcvt.rm.f16.u16 %hf1, %h2;\n\tcvt.rn.sat.f32.s32 %f1, %r2;\n"
            "\tcvt.rp.f16.s64 %hf1, %rd2;\n\tcvt.rn.f32.u8 %f1, %h2;\n", full);
   lower_ok("cvt float int",
            "\tcvt.rzi.s32.f32 %r1, %f2;\n\tcvt.rni.u32.f32 %r1, %f2;\n"
            "\tcvt.rmi.s64.f64 %rd1, %fd2;\n\tcvt.rpi.u64.f32 %rd1, %f2;\n"
            "\tcvt.rzi.ftz.s32.f32 %r1, %f2;\n\tcvt.rzi.s16.f32 %h1, %f2;\n"
            "\tcvt.rzi.u8.f32 %r1, %f2;\n\tcvt.rni.s8.f64 %h1, %fd2;\n"
            "\tcvt.rzi.s32.f16 %r1, %hf2;\n\tcvt.rni.u16.f16 %h1, %hf2;\n"
            "\tcvt.rzi.sat.s32.f32 %r1, %f2;\n", full);
   lower_ok("cvt float float",
            "\tcvt.f64.f32 %fd1, %f2;\n\tcvt.ftz.f64.f32 %fd1, %f2;\n\tcvt.rn.f32.f64 %f1, %fd2;\n"
            "\tcvt.rz.f32.f64 %f1, %fd2;\n\tcvt.rm.ftz.f32.f64 %f1, %fd2;\n"
            "\tcvt.rp.sat.f32.f64 %f1, %fd2;\n\tcvt.rn.f16.f32 %hf1, %f2;\n"
            "\tcvt.rz.f16.f32 %hf1, %f2;\n\tcvt.rm.f16.f64 %hf1, %fd2;\n"
            "\tcvt.f32.f16 %f1, %hf2;\n\tcvt.f64.f16 %fd1, %hf2;\n"
            "\tcvt.rni.f32.f32 %f1, %f2;\n\tcvt.rzi.ftz.f32.f32 %f1, %f2;\n"
            "\tcvt.rmi.f64.f64 %fd1, %fd2;\n\tcvt.rpi.f16.f16 %hf1, %hf2;\n"
            "\tcvt.ftz.f32.f32 %f1, %f2;\n\tcvt.sat.f32.f32 %f1, %f2;\n"
            "\tcvt.rn.bf16.f32 %h1, %f2;\n\tcvt.rz.bf16.f32 %h1, %f2;\n"
            "\tcvt.f32.bf16 %f1, %h2;\n", full);

   /* The same f16 conversions and arithmetic where the device keeps f16
    * subnormals: OpFConvert and native f16 operations instead of the bits
    * (compiler.alu.run runs the bit path; lavapipe does not preserve
    * them). */
   struct cuvk_cc_target native16 = *full;
   native16.denorm_preserve_f16 = true;
   lower_ok("f16x2, bf16x2 and bf16 arithmetic",
            "\tadd.rn.f16x2 %r1, %r2, %r3;\n\tsub.ftz.sat.f16x2 %r1, %r2, %r3;\n"
            "\tfma.rn.relu.f16x2 %r1, %r2, %r3, %r4;\n\tmax.NaN.f16x2 %r1, %r2, %r3;\n"
            "\tneg.f16x2 %r1, %r2;\n\tmul.rn.bf16x2 %r1, %r2, %r3;\n\tfma.rn.bf16 %h1, %h2, %h3, %h4;\n"
            "\tmin.bf16 %h1, %h2, %h3;\n\tabs.bf16x2 %r1, %r2;\n"
            "\tcvt.rn.f16x2.f32 %r1, %f2, %f3;\n\tcvt.rz.bf16x2.f32 %r1, %f2, %f3;\n", full);
   lower_ok("f16 where subnormals are kept",
            "\tcvt.rn.f16.f32 %hf1, %f2;\n\tcvt.rz.f16.f32 %hf1, %f2;\n\tcvt.rm.f16.f64 %hf1, %fd2;\n"
            "\tcvt.f32.f16 %f1, %hf2;\n\tcvt.f64.f16 %fd1, %hf2;\n\tcvt.rpi.f16.f16 %hf1, %hf2;\n"
            "\tcvt.rzi.s32.f16 %r1, %hf2;\n\tcvt.rp.f16.s64 %hf1, %rd2;\n"
            "\tadd.rn.f16 %hf1, %hf2, %hf3;\n\tfma.rn.sat.f16 %hf1, %hf2, %hf3, %hf4;\n"
            "\tmin.f16 %hf1, %hf2, %hf3;\n\tsetp.geu.f16 %p1, %hf2, %hf3;\n", &native16);

   /* What a target without f64 or f16 cannot run, and what is not
    * translated at all, refused with the instruction and its line. */
   struct cuvk_cc_target no64 = *full;
   no64.float64 = false;
   no64.float16 = false;
   lower_refused("f64 without shaderFloat64", "\tadd.f64 %fd1, %fd2, %fd3;\n", &no64,
                 CUVK_CC_UNSUPPORTED, 13, "add.f64: the device lacks shaderFloat64");
   lower_refused("f16 without shaderFloat16", "\tadd.f32 %f1, %f2, %f3;\n\tmul.f16 %hf1, %hf2, %hf3;\n",
                 &no64, CUVK_CC_UNSUPPORTED, 14, "mul.f16: the device lacks shaderFloat16");
   lower_refused("div.rn.f32 without shaderFloat64", "\tdiv.rn.f32 %f1, %f2, %f3;\n", &no64,
                 CUVK_CC_UNSUPPORTED, 13, "div.rn.f32: needs shaderFloat64");
   lower_refused("add.rz.f32 without shaderFloat64", "\tadd.rz.f32 %f1, %f2, %f3;\n", &no64,
                 CUVK_CC_UNSUPPORTED, 13, "add.rz.f32: needs shaderFloat64");
   lower_ok("f64, directed",
            "\tadd.rz.f64 %fd1, %fd2, %fd3;\n\tadd.rm.f64 %fd1, %fd2, %fd3;\n"
            "\tsub.rp.f64 %fd1, %fd2, %fd3;\n\tsub.rm.f64 %fd1, %fd2, 0d3FF0000000000000;\n"
            "\tmul.rz.f64 %fd1, %fd2, %fd3;\n\tdiv.rm.f64 %fd1, %fd2, %fd3;\n"
            "\tfma.rp.f64 %fd1, %fd2, %fd3, %fd4;\n\tmad.rm.f64 %fd1, %fd2, %fd3, %fd4;\n"
            "\trcp.rz.f64 %fd1, %fd2;\n\tsqrt.rp.f64 %fd1, %fd2;\n", full);
   lower_ok("bf16 and integers",
            "\tcvt.rzi.s32.bf16 %r1, %h2;\n\tcvt.rni.u64.bf16 %rd1, %h2;\n"
            "\tcvt.rmi.s16.bf16 %h1, %h2;\n\tcvt.rpi.u32.bf16 %r1, %h2;\n"
            "\tcvt.rn.bf16.s32 %h1, %r2;\n\tcvt.rz.bf16.u64 %h1, %rd2;\n"
            "\tcvt.rm.bf16.s64 %h1, %rd2;\n\tcvt.rp.bf16.u16 %h1, %h2;\n", full);
   lower_refused("bf16 to an integer without .rXi", "\tcvt.rz.s32.bf16 %r1, %h2;\n", full,
                 CUVK_CC_INVALID, 13, "needs .rni");
   lower_refused("bf16 from an integer, .relu", "\tcvt.rn.relu.bf16.s32 %h1, %r2;\n", full,
                 CUVK_CC_UNSUPPORTED, 13, "not translated");
   struct cuvk_cc_target no_int64 = *full;
   no_int64.int64 = false;
   lower_refused("s64 without shaderInt64", "\tadd.s64 %rd1, %rd2, %rd3;\n", &no_int64,
                 CUVK_CC_UNSUPPORTED, 13, "add.s64: the device lacks shaderInt64");
   /* The half .approx functions are f32 work on the lanes' bits: no
    * shaderFloat16 or shaderFloat64 needed. */
   static const char half_approx[] =
      "\tex2.approx.f16x2 %r1, %r2;\n\tex2.approx.f16 %hf1, %hf2;\n"
      "\tex2.approx.ftz.bf16x2 %r1, %r2;\n\tex2.approx.ftz.bf16 %h1, %h2;\n"
      "\ttanh.approx.f16x2 %r1, %r2;\n\ttanh.approx.f16 %hf1, %hf2;\n"
      "\ttanh.approx.bf16x2 %r1, %r2;\n\ttanh.approx.bf16 %h1, %h2;\n";
   lower_ok("half approximate functions", half_approx, full);
   lower_ok("dot products",
            "\tdp4a.s32.s32 %r1, %r2, %r3, %r4;\n\tdp4a.u32.u32 %r1, %r2, %r3, %r4;\n"
            "\tdp4a.u32.s32 %r1, %r2, %r3, %r4;\n\tdp2a.lo.s32.u32 %r1, %r2, %r3, %r4;\n"
            "\tdp2a.hi.u32.u32 %r1, %r2, %r3, %r4;\n", full);
   lower_refused("dp2a without .lo or .hi", "\tdp2a.s32.s32 %r1, %r2, %r3, %r4;\n", full,
                 CUVK_CC_INVALID, 13, "dp2a.s32.s32: malformed");
   lower_ok("half approximate functions without f16 or f64", half_approx, &no64);
   lower_ok("simd video",
            "\tvabsdiff4.u32.u32.u32 %r1, %r2, %r3, %r4;\n\tvabsdiff2.s32.s32.s32.add %r1, %r2, %r3, %r4;\n"
            "\tvadd4.s32.s32.s32.sat %r1, %r2, %r3, %r4;\n\tvsub2.u32.s32.u32 %r1, %r2, %r3, %r4;\n"
            "\tvavrg4.u32.u32.u32 %r1, %r2, %r3, %r4;\n\tvmin2.s32.s32.s32.add %r1, %r2, %r3, %r4;\n"
            "\tvmax4.u32.u32.u32.sat %r1, %r2, %r3, %r4;\n", full);
   lower_refused("vadd4 .sat .add", "\tvadd4.u32.u32.u32.sat.add %r1, %r2, %r3, %r4;\n", full,
                 CUVK_CC_INVALID, 13, ".sat and .add together");
   lower_refused("bmsk without a mode", "\tbmsk.b32 %r1, %r2, %r3;\n", full, CUVK_CC_INVALID, 13,
                 "needs one of .clamp and .wrap");
   lower_refused("szext.s64", "\tszext.wrap.s64 %rd1, %rd2, %r3;\n", full, CUVK_CC_INVALID, 13,
                 "szext.wrap.s64: malformed");
   lower_refused("ex2.approx.bf16x2 without .ftz", "\tex2.approx.bf16x2 %r1, %r2;\n", full,
                 CUVK_CC_INVALID, 13, "bf16 ex2 is .ftz only");
   lower_refused("tanh.f16x2 without .approx", "\ttanh.f16x2 %r1, %r2;\n", full, CUVK_CC_INVALID,
                 13, "only .approx exists");
   lower_refused("ex2.approx.sat.f16x2", "\tex2.approx.sat.f16x2 %r1, %r2;\n", full,
                 CUVK_CC_INVALID, 13, "takes no such modifier");
   lower_refused("sin.approx.f16x2", "\tsin.approx.f16x2 %r1, %r2;\n", full, CUVK_CC_UNSUPPORTED,
                 13, "sin.approx.f16x2: not translated for .f16x2");
   lower_refused("add.rz.bf16", "\tadd.rz.bf16 %h1, %h2, %h3;\n", full, CUVK_CC_INVALID, 13,
                 "only .rn rounds packed or bf16 values");
   lower_refused("add.bf16 without shaderFloat64", "\tadd.rn.bf16 %h1, %h2, %h3;\n", &no64,
                 CUVK_CC_UNSUPPORTED, 13, "needs shaderFloat64 and shaderInt64");
   lower_refused("cvt.rna", "\tcvt.rna.f16.f32 %hf1, %f2;\n", full, CUVK_CC_UNSUPPORTED, 13,
                 "rounding .rna");
   lower_refused("cvt float to int without rounding", "\tcvt.s32.f32 %r1, %f2;\n", full,
                 CUVK_CC_INVALID, 13, "needs .rni");
   lower_refused("lop3 without an immediate", "\tlop3.b32 %r1, %r2, %r3, %r4, %r5;\n", full,
                 CUVK_CC_INVALID, 13, "must be an immediate");
   lower_refused("not an ALU instruction", "\tmov.u32 %r1, %r2;\n", full, CUVK_CC_UNSUPPORTED,
                 13, "not an instruction of the ALU lowering");
}

/* 3. nvcc's kernels: every ALU instruction lowered and valid. */
static void
check_kernel(const char *path)
{
   size_t len;
   char *text = compiler_test_read(path, &len);
   UNIT_CHECK(text != NULL);
   if (!text)
      return;
   struct cuvk_ir_module *ir = ir_snippet_module(path, text, len);
   free(text);
   if (!ir)
      return;
   for (size_t i = 0; i < ir->func_count; i++) {
      /* One kernel at a time: the test emitter takes the first. */
      struct cuvk_ir_function *f = ir->funcs[i];
      if (!f->is_entry || !f->has_body)
         continue;
      struct cuvk_ir_function *first = ir->funcs[0];
      ir->funcs[0] = f;
      ir->funcs[i] = first;
      struct cuvk_cc_error err;
      size_t count;
      unsigned lowered = 0;
      uint32_t *words = alu_emit(ir, full, ALU_EMIT_SKIP_OTHERS, &count, &lowered, &err);
      if (!words) {
         compiler_test_print_error(path, &err);
         UNIT_CHECK(!"a kernel's ALU instruction was refused");
      } else {
         char name[256];
         snprintf(name, sizeof(name), "%s:%s", path, f->name);
         UNIT_CHECK(compiler_test_spirv_val(spirv_val, name, words, count));
         printf("%s: %u ALU instructions lowered, %zu words, valid\n", name, lowered, count);
         UNIT_CHECK(lowered > 0 || strstr(path, "empty"));
      }
      free(words);
      ir->funcs[i] = f;
      ir->funcs[0] = first;
   }
   cuvk_ir_module_destroy(ir);
}

int
main(int argc, char **argv)
{
   unit_seed();
   if (argc >= 2 && argv[1][0])
      spirv_val = argv[1];
   else
      printf("spirv-val not found: lowering checked without the validator\n");

   check_refs();
   check_snippets();
   printf("%u snippets, %u instructions lowered%s\n", snippets, snippet_instrs,
          spirv_val ? ", every module valid" : "");
   for (int i = 2; i < argc; i++)
      check_kernel(argv[i]);
   return unit_report("compiler.alu");
}
