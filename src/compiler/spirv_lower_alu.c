/*
 * Lowering of PTX's arithmetic, comparison, selection, conversion and bit
 * instructions to SPIR-V, through the emitter interface of spirv_lower.h
 * alone.  This file decodes instructions and lowers the integer, bit and
 * predicate families; spirv_lower_float.c does floating point and cvt.
 *
 * The rule throughout: a PTX instruction's result is defined for every
 * input (division by zero, shifts past the width, bit fields past the
 * end), while the SPIR-V instruction that looks like it often is not
 * (OpUDiv by zero, OpShiftLeftLogical by 32, OpBitFieldUExtract past the
 * end are undefined).  So every such case is selected explicitly, with
 * the values an sm_90 GPU gives (measured on an H100 with inline PTX; see
 * docs/compiler.md), and the undefined SPIR-V operation only ever sees
 * operands for which it is defined.
 *
 * Bit instructions Vulkan restricts to 32 bits (OpBitCount, OpBitReverse,
 * FindUMsb) are split into halves for 64-bit operands.
 */
#include "compiler/spirv_lower_alu_priv.h"

#include <stdio.h>
#include <string.h>

bool
alu_has(const struct cuvk_ir_instr *in, enum ptx_modifier mod)
{
   for (unsigned i = 0; i < in->mod_count; i++)
      if (in->mods[i] == mod)
         return true;
   return false;
}

bool
alu_type(const struct cuvk_ir_instr *in, unsigned n, struct alu_type *t)
{
   for (unsigned i = 0; i < in->mod_count; i++) {
      enum ptx_modifier m = in->mods[i];
      if (!ptx_modifier_is_type(m) || n-- > 0)
         continue;
      const struct ptx_modifier_info *info = &ptx_modifier_table[m];
      t->mod = m;
      t->bits = info->bits;
      switch (info->type_kind) {
      case PTX_TK_S: t->kind = CUVK_SPIRV_SINT; break;
      case PTX_TK_F: t->kind = CUVK_SPIRV_FLOAT; break;
      case PTX_TK_PRED: t->kind = CUVK_SPIRV_BOOL; break;
      default: t->kind = CUVK_SPIRV_UINT; break;
      }
      return true;
   }
   t->mod = PTX_MOD_COUNT;
   t->kind = CUVK_SPIRV_UINT;
   t->bits = 0;
   return false;
}

const char *
alu_name(const struct cuvk_ir_instr *in)
{
   static _Thread_local char buf[128];
   size_t n = (size_t)snprintf(buf, sizeof(buf), "%s", ptx_opcode_table[in->op].name);

   for (unsigned i = 0; i < in->mod_count && n < sizeof(buf); i++)
      n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s", ptx_modifier_table[in->mods[i]].name);
   return buf;
}

bool
alu_check_type(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
               const struct alu_type *t)
{
   const struct cuvk_cc_target *tg = cuvk_spirv_target(e);
   const char *need = NULL;

   switch (t->mod) {
   case PTX_MOD_F16X2:
   case PTX_MOD_BF16:
   case PTX_MOD_BF16X2:
   case PTX_MOD_B128:
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "%s: %s is not translated", alu_name(in),
                             ptx_modifier_table[t->mod].name);
   default:
      break;
   }
   if (t->kind == CUVK_SPIRV_FLOAT) {
      if (t->bits == 16 && !tg->float16)
         need = "shaderFloat16";
      else if (t->bits == 64 && !tg->float64)
         need = "shaderFloat64";
   } else if (t->kind != CUVK_SPIRV_BOOL) {
      if (t->bits == 8 && !tg->int8)
         need = "shaderInt8";
      else if (t->bits == 16 && !tg->int16)
         need = "shaderInt16";
      else if (t->bits == 64 && !tg->int64)
         need = "shaderInt64";
   }
   if (need)
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "%s: the device lacks %s", alu_name(in),
                             need);
   return true;
}

uint32_t
alu_read(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, unsigned i,
         enum cuvk_spirv_kind kind, unsigned bits)
{
   const struct cuvk_ir_value *v = &in->src[i];

   if (kind == CUVK_SPIRV_BOOL && v->negated) {
      /* The "!" is decoded here, so the emitter's read sees a plain
       * register whatever it does with the flag. */
      struct cuvk_ir_value plain = *v;
      plain.negated = false;
      uint32_t p = cuvk_spirv_read(e, &plain, kind, bits);
      return cuvk_spirv_val(e, SpvOpLogicalNot, alu_b(e), p);
   }
   return cuvk_spirv_read(e, v, kind, bits);
}

static bool
need_srcs(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, unsigned dsts,
          unsigned srcs)
{
   if (in->dst_count != dsts || in->src_count != srcs)
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "%s: expected %u destination(s) and %u "
                             "source(s)", alu_name(in), dsts, srcs);
   return true;
}

static uint32_t
bool_to_u(struct cuvk_spirv_emitter *e, uint32_t p, unsigned bits)
{
   return alu_sel(e, alu_u(e, bits), p, alu_cu(e, bits, 1), alu_cu(e, bits, 0));
}

/* All ones of a width. */
static uint64_t
ones(unsigned bits)
{
   return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

static uint32_t
ucvt(struct cuvk_spirv_emitter *e, uint32_t v, unsigned to, unsigned from, bool sign)
{
   if (to == from)
      return v;
   return cuvk_spirv_val(e, to > from && sign ? SpvOpSConvert : SpvOpUConvert, alu_u(e, to), v);
}

/* Low and high 32-bit halves of a 64-bit value. */
static void
halves(struct cuvk_spirv_emitter *e, uint32_t v, uint32_t *lo, uint32_t *hi)
{
   uint32_t u64 = alu_u(e, 64), u32 = alu_u(e, 32);
   *lo = cuvk_spirv_val(e, SpvOpUConvert, u32, v);
   *hi = cuvk_spirv_val(e, SpvOpUConvert, u32,
                        cuvk_spirv_val(e, SpvOpShiftRightLogical, u64, v, alu_cu(e, 32, 32)));
}

/* s32 saturation of a + b or a - b (.sat): the exact result clamped to
 * [INT32_MIN, INT32_MAX], computed without a wider type. */
static uint32_t
sat_addsub(struct cuvk_spirv_emitter *e, uint32_t a, uint32_t b, bool sub)
{
   uint32_t u = alu_u(e, 32), bo = alu_b(e);
   uint32_t r = cuvk_spirv_val(e, sub ? SpvOpISub : SpvOpIAdd, u, a, b);
   /* Overflow: for a + b both operands' signs differ from the result's;
    * for a - b the operands' signs differ and the result's differs from a's. */
   uint32_t x = sub ? cuvk_spirv_val(e, SpvOpBitwiseAnd, u,
                                     cuvk_spirv_val(e, SpvOpBitwiseXor, u, a, b),
                                     cuvk_spirv_val(e, SpvOpBitwiseXor, u, a, r))
                    : cuvk_spirv_val(e, SpvOpBitwiseAnd, u,
                                     cuvk_spirv_val(e, SpvOpBitwiseXor, u, a, r),
                                     cuvk_spirv_val(e, SpvOpBitwiseXor, u, b, r));
   uint32_t ovf = cuvk_spirv_val(e, SpvOpSLessThan, bo, x, alu_cu(e, 32, 0));
   uint32_t neg = cuvk_spirv_val(e, SpvOpSLessThan, bo, a, alu_cu(e, 32, 0));
   uint32_t lim = alu_sel(e, u, neg, alu_cu(e, 32, 0x80000000u), alu_cu(e, 32, 0x7fffffffu));
   return alu_sel(e, u, ovf, lim, r);
}

/* The high half of a * b at width bits. */
static uint32_t
mul_hi(struct cuvk_spirv_emitter *e, uint32_t a, uint32_t b, unsigned bits, bool sign)
{
   uint32_t u = alu_u(e, bits);
   uint32_t pair = cuvk_spirv_val(e, sign ? SpvOpSMulExtended : SpvOpUMulExtended,
                                  cuvk_spirv_type_pair(e, u, u), a, b);
   return cuvk_spirv_val(e, SpvOpCompositeExtract, u, pair, 1);
}

/* mul/mad: .lo, .hi, .wide; the product at the destination width. */
static uint32_t
mul_mode(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, const struct alu_type *t,
         unsigned *dbits)
{
   bool sign = t->kind == CUVK_SPIRV_SINT;
   uint32_t a = alu_read(e, in, 0, t->kind, t->bits);
   uint32_t b = alu_read(e, in, 1, t->kind, t->bits);

   *dbits = t->bits;
   if (alu_has(in, PTX_MOD_WIDE)) {
      unsigned w = t->bits * 2;
      *dbits = w;
      return cuvk_spirv_val(e, SpvOpIMul, alu_u(e, w), ucvt(e, a, w, t->bits, sign),
                            ucvt(e, b, w, t->bits, sign));
   }
   if (alu_has(in, PTX_MOD_HI))
      return mul_hi(e, a, b, t->bits, sign);
   return cuvk_spirv_val(e, SpvOpIMul, alu_u(e, t->bits), a, b);
}

/* mul24/mad24: operands are the low 24 bits (sign- or zero-extended);
 * .lo keeps bits 0..31 of the 48-bit product, .hi bits 16..47. */
static uint32_t
mul24(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, bool sign)
{
   uint32_t u = alu_u(e, 32);
   uint32_t x[2];

   for (unsigned i = 0; i < 2; i++) {
      uint32_t v = alu_read(e, in, i, CUVK_SPIRV_UINT, 32);
      uint32_t s = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, v, alu_cu(e, 32, 8));
      x[i] = cuvk_spirv_val(e, sign ? SpvOpShiftRightArithmetic : SpvOpShiftRightLogical, u, s,
                            alu_cu(e, 32, 8));
   }
   if (!alu_has(in, PTX_MOD_HI))
      return cuvk_spirv_val(e, SpvOpIMul, u, x[0], x[1]);
   uint32_t pair = cuvk_spirv_val(e, sign ? SpvOpSMulExtended : SpvOpUMulExtended,
                                  cuvk_spirv_type_pair(e, u, u), x[0], x[1]);
   uint32_t lo = cuvk_spirv_val(e, SpvOpCompositeExtract, u, pair, 0);
   uint32_t hi = cuvk_spirv_val(e, SpvOpCompositeExtract, u, pair, 1);
   return cuvk_spirv_val(e, SpvOpBitwiseOr, u,
                         cuvk_spirv_val(e, SpvOpShiftRightLogical, u, lo, alu_cu(e, 32, 16)),
                         cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, hi, alu_cu(e, 32, 16)));
}

/* x + y with the carry (or, sub, x - y with the borrow) chain of .cc/c:
 * carry_in adds (subtracts) the flag, carry_out writes it. */
static uint32_t
add_carry(struct cuvk_spirv_emitter *e, uint32_t x, uint32_t y, unsigned bits, bool sub,
          bool carry_in, bool carry_out)
{
   uint32_t u = alu_u(e, bits), u32 = alu_u(e, 32), pair = cuvk_spirv_type_pair(e, u, u);
   SpvOp op = sub ? SpvOpISubBorrow : SpvOpIAddCarry;
   uint32_t r1 = cuvk_spirv_val(e, op, pair, x, y);
   uint32_t v = cuvk_spirv_val(e, SpvOpCompositeExtract, u, r1, 0);
   uint32_t c = cuvk_spirv_val(e, SpvOpCompositeExtract, u, r1, 1);

   if (carry_in) {
      uint32_t cin = ucvt(e, cuvk_spirv_read_carry(e), bits, 32, false);
      uint32_t r2 = cuvk_spirv_val(e, op, pair, v, cin);
      v = cuvk_spirv_val(e, SpvOpCompositeExtract, u, r2, 0);
      /* At most one of the two steps carries: a carry out of x + y leaves
       * v <= 2^bits - 2, and v + 1 cannot carry again; so OR is the sum. */
      c = cuvk_spirv_val(e, SpvOpBitwiseOr, u, c,
                         cuvk_spirv_val(e, SpvOpCompositeExtract, u, r2, 1));
   }
   if (carry_out)
      cuvk_spirv_write_carry(e, bits == 32 ? c : cuvk_spirv_val(e, SpvOpUConvert, u32, c));
   return v;
}

static int
lower_addsub(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, const struct alu_type *t)
{
   bool sub = in->op == PTX_OP_SUB || in->op == PTX_OP_SUBC;
   bool cin = in->op == PTX_OP_ADDC || in->op == PTX_OP_SUBC;
   bool cout = alu_has(in, PTX_MOD_CC);
   uint32_t a = alu_read(e, in, 0, t->kind, t->bits);
   uint32_t b = alu_read(e, in, 1, t->kind, t->bits);
   uint32_t r;

   if (alu_has(in, PTX_MOD_SAT)) {
      if (t->mod != PTX_MOD_S32 || cin || cout)
         return alu_refuse(e, CUVK_CC_INVALID, in, "%s: .sat is for .s32 alone",
                                alu_name(in));
      r = sat_addsub(e, a, b, sub);
   } else if (cin || cout) {
      if (t->bits != 32 && t->bits != 64)
         return alu_refuse(e, CUVK_CC_INVALID, in, "%s: carry needs 32 or 64 bits",
                                alu_name(in));
      r = add_carry(e, a, b, t->bits, sub, cin, cout);
   } else {
      r = cuvk_spirv_val(e, sub ? SpvOpISub : SpvOpIAdd, alu_u(e, t->bits), a, b);
   }
   cuvk_spirv_write(e, &in->dst[0], r, t->kind, t->bits);
   return 1;
}

static int
lower_mul_mad(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, const struct alu_type *t)
{
   bool mad = in->op == PTX_OP_MAD || in->op == PTX_OP_MADC;
   bool is24 = in->op == PTX_OP_MUL24 || in->op == PTX_OP_MAD24;
   unsigned dbits = t->bits;
   uint32_t p;

   if (is24) {
      if (t->bits != 32)
         return alu_refuse(e, CUVK_CC_INVALID, in, "%s: 32-bit types only", alu_name(in));
      p = mul24(e, in, t->kind == CUVK_SPIRV_SINT);
   } else {
      p = mul_mode(e, in, t, &dbits);
   }
   if (mad || in->op == PTX_OP_MAD24) {
      uint32_t c = alu_read(e, in, 2, t->kind, dbits);
      bool cin = in->op == PTX_OP_MADC, cout = alu_has(in, PTX_MOD_CC);
      if (alu_has(in, PTX_MOD_SAT)) {
         /* mad.hi.sat.s32, mad24.hi.sat.s32: the add saturates. */
         if (t->mod != PTX_MOD_S32 || dbits != 32)
            return alu_refuse(e, CUVK_CC_INVALID, in, "%s: .sat is for .s32 alone",
                                   alu_name(in));
         p = sat_addsub(e, p, c, false);
      } else if (cin || cout) {
         p = add_carry(e, p, c, dbits, false, cin, cout);
      } else {
         p = cuvk_spirv_val(e, SpvOpIAdd, alu_u(e, dbits), p, c);
      }
   }
   cuvk_spirv_write(e, &in->dst[0], p, t->kind, dbits);
   return 1;
}

/* div/rem: PTX defines division by zero (all ones, signed or not, for
 * quotient and remainder alike) and INT_MIN / -1 (INT_MIN, remainder 0);
 * SPIR-V leaves both undefined, so the divisor is replaced before the
 * division and the result selected after. */
static int
lower_divrem(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, const struct alu_type *t)
{
   unsigned w = t->bits;
   uint32_t u = alu_u(e, w), bo = alu_b(e);
   bool sign = t->kind == CUVK_SPIRV_SINT, rem = in->op == PTX_OP_REM;
   uint32_t a = alu_read(e, in, 0, t->kind, w);
   uint32_t b = alu_read(e, in, 1, t->kind, w);
   uint32_t zero = alu_cu(e, w, 0), one = alu_cu(e, w, 1), all = alu_cu(e, w, ones(w));
   uint32_t bz = cuvk_spirv_val(e, SpvOpIEqual, bo, b, zero);
   uint32_t r;

   if (sign) {
      uint32_t bm1 = cuvk_spirv_val(e, SpvOpIEqual, bo, b, all);
      uint32_t bad = cuvk_spirv_val(e, SpvOpLogicalOr, bo, bz, bm1);
      uint32_t bs = alu_sel(e, u, bad, one, b);
      if (rem) {
         /* a - trunc(a / b) * b rather than OpSRem: NVIDIA's driver
          * (580.159, H100) gives OpSRem the divisor's sign (-1 rem 2 read
          * 1), while its OpSDiv truncates as SPIR-V says.  By 1: 0, right
          * for -1 too. */
         uint32_t q = cuvk_spirv_val(e, SpvOpSDiv, u, a, bs);
         r = cuvk_spirv_val(e, SpvOpISub, u, a, cuvk_spirv_val(e, SpvOpIMul, u, q, bs));
      } else {
         r = cuvk_spirv_val(e, SpvOpSDiv, u, a, bs);
         r = alu_sel(e, u, bm1, cuvk_spirv_val(e, SpvOpSNegate, u, a), r);
      }
   } else {
      uint32_t bs = alu_sel(e, u, bz, one, b);
      r = cuvk_spirv_val(e, rem ? SpvOpUMod : SpvOpUDiv, u, a, bs);
   }
   r = alu_sel(e, u, bz, all, r);
   cuvk_spirv_write(e, &in->dst[0], r, t->kind, w);
   return 1;
}

static int
lower_minmax_int(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
                 const struct alu_type *t)
{
   bool sign = t->kind == CUVK_SPIRV_SINT, max = in->op == PTX_OP_MAX;
   enum GLSLstd450 op = sign ? (max ? GLSLstd450SMax : GLSLstd450SMin)
                             : (max ? GLSLstd450UMax : GLSLstd450UMin);
   uint32_t u = alu_u(e, t->bits);
   uint32_t a = alu_read(e, in, 0, t->kind, t->bits);
   uint32_t b = alu_read(e, in, 1, t->kind, t->bits);
   uint32_t r = cuvk_spirv_glsl(e, op, u, a, b);

   if (alu_has(in, PTX_MOD_RELU))
      r = cuvk_spirv_glsl(e, GLSLstd450SMax, u, r, alu_cu(e, t->bits, 0));
   cuvk_spirv_write(e, &in->dst[0], r, t->kind, t->bits);
   return 1;
}

/* abs, neg, not, cnot, popc, clz, brev, bfind on integers. */
static uint32_t
find_msb(struct cuvk_spirv_emitter *e, uint32_t v, unsigned bits)
{
   uint32_t u32 = alu_u(e, 32), bo = alu_b(e);

   if (bits <= 32)
      return cuvk_spirv_glsl(e, GLSLstd450FindUMsb, u32, ucvt(e, v, 32, bits, false));
   uint32_t lo, hi;
   halves(e, v, &lo, &hi);
   uint32_t mlo = cuvk_spirv_glsl(e, GLSLstd450FindUMsb, u32, lo);
   uint32_t mhi = cuvk_spirv_glsl(e, GLSLstd450FindUMsb, u32, hi);
   uint32_t hi_set = cuvk_spirv_val(e, SpvOpINotEqual, bo, hi, alu_cu(e, 32, 0));
   return alu_sel(e, u32, hi_set, cuvk_spirv_val(e, SpvOpIAdd, u32, mhi, alu_cu(e, 32, 32)), mlo);
}

static uint32_t
bit_count(struct cuvk_spirv_emitter *e, uint32_t v, unsigned bits)
{
   uint32_t u32 = alu_u(e, 32);

   if (bits <= 32)
      return cuvk_spirv_val(e, SpvOpBitCount, u32, ucvt(e, v, 32, bits, false));
   uint32_t lo, hi;
   halves(e, v, &lo, &hi);
   return cuvk_spirv_val(e, SpvOpIAdd, u32, cuvk_spirv_val(e, SpvOpBitCount, u32, lo),
                         cuvk_spirv_val(e, SpvOpBitCount, u32, hi));
}

static uint32_t
bit_reverse(struct cuvk_spirv_emitter *e, uint32_t v, unsigned bits)
{
   uint32_t u32 = alu_u(e, 32), u64 = alu_u(e, 64);

   if (bits == 32)
      return cuvk_spirv_val(e, SpvOpBitReverse, u32, v);
   uint32_t lo, hi;
   halves(e, v, &lo, &hi);
   uint32_t rlo = cuvk_spirv_val(e, SpvOpUConvert, u64, cuvk_spirv_val(e, SpvOpBitReverse, u32, lo));
   uint32_t rhi = cuvk_spirv_val(e, SpvOpUConvert, u64, cuvk_spirv_val(e, SpvOpBitReverse, u32, hi));
   return cuvk_spirv_val(e, SpvOpBitwiseOr, u64,
                         cuvk_spirv_val(e, SpvOpShiftLeftLogical, u64, rlo, alu_cu(e, 32, 32)), rhi);
}

static int
lower_unary_int(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
                const struct alu_type *t)
{
   unsigned w = t->bits;
   uint32_t bo = alu_b(e);
   uint32_t r;

   if (t->kind == CUVK_SPIRV_BOOL) {
      /* not.pred */
      if (in->op != PTX_OP_NOT)
         return alu_refuse(e, CUVK_CC_INVALID, in, "%s: not for predicates", alu_name(in));
      r = cuvk_spirv_val(e, SpvOpLogicalNot, bo, alu_read(e, in, 0, CUVK_SPIRV_BOOL, 1));
      cuvk_spirv_write(e, &in->dst[0], r, CUVK_SPIRV_BOOL, 1);
      return 1;
   }
   uint32_t u = alu_u(e, w), u32 = alu_u(e, 32);
   uint32_t a = alu_read(e, in, 0, t->kind, w);
   enum cuvk_spirv_kind dkind = t->kind;
   unsigned dbits = w;

   switch (in->op) {
   case PTX_OP_ABS:
      r = cuvk_spirv_glsl(e, GLSLstd450SAbs, u, a);
      break;
   case PTX_OP_NEG:
      r = cuvk_spirv_val(e, SpvOpSNegate, u, a);
      break;
   case PTX_OP_NOT:
      r = cuvk_spirv_val(e, SpvOpNot, u, a);
      break;
   case PTX_OP_CNOT:
      r = bool_to_u(e, cuvk_spirv_val(e, SpvOpIEqual, bo, a, alu_cu(e, w, 0)), w);
      break;
   case PTX_OP_POPC:
      r = bit_count(e, a, w);
      dkind = CUVK_SPIRV_UINT, dbits = 32;
      break;
   case PTX_OP_CLZ:
      /* FindUMsb(0) is -1, so 0 gives w as PTX wants. */
      r = cuvk_spirv_val(e, SpvOpISub, u32, alu_cu(e, 32, w - 1), find_msb(e, a, w));
      dkind = CUVK_SPIRV_UINT, dbits = 32;
      break;
   case PTX_OP_BREV:
      r = bit_reverse(e, a, w);
      break;
   case PTX_OP_BFIND: {
      /* Signed: the most significant bit that differs from the sign, which
       * is the unsigned answer for ~a when a is negative. */
      uint32_t x = a;
      if (t->kind == CUVK_SPIRV_SINT) {
         uint32_t neg = cuvk_spirv_val(e, SpvOpSLessThan, bo, a, alu_cu(e, w, 0));
         x = alu_sel(e, u, neg, cuvk_spirv_val(e, SpvOpNot, u, a), a);
      }
      r = find_msb(e, x, w);
      if (alu_has(in, PTX_MOD_SHIFTAMT)) {
         uint32_t none = cuvk_spirv_val(e, SpvOpIEqual, bo, r, alu_cu(e, 32, ~0u));
         r = alu_sel(e, u32, none, r,
                     cuvk_spirv_val(e, SpvOpISub, u32, alu_cu(e, 32, w - 1), r));
      }
      dkind = CUVK_SPIRV_UINT, dbits = 32;
      break;
   }
   default:
      return 0;
   }
   cuvk_spirv_write(e, &in->dst[0], r, dkind, dbits);
   return 1;
}

static int
lower_logic(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, const struct alu_type *t)
{
   static const SpvOp bit_ops[] = { SpvOpBitwiseAnd, SpvOpBitwiseOr, SpvOpBitwiseXor };
   static const SpvOp bool_ops[] = { SpvOpLogicalAnd, SpvOpLogicalOr, SpvOpLogicalNotEqual };
   unsigned k = in->op == PTX_OP_AND ? 0 : in->op == PTX_OP_OR ? 1 : 2;
   bool pred = t->kind == CUVK_SPIRV_BOOL;
   unsigned w = pred ? 1 : t->bits;
   enum cuvk_spirv_kind kind = pred ? CUVK_SPIRV_BOOL : CUVK_SPIRV_UINT;
   uint32_t a = alu_read(e, in, 0, kind, w);
   uint32_t b = alu_read(e, in, 1, kind, w);
   uint32_t r = cuvk_spirv_val(e, pred ? bool_ops[k] : bit_ops[k],
                               pred ? alu_b(e) : alu_u(e, w), a, b);

   cuvk_spirv_write(e, &in->dst[0], r, kind, w);
   return 1;
}

/* shl, shr: amounts of the width or more give 0 (shl, shr.u) or the sign
 * everywhere (shr.s); the SPIR-V shift only sees amounts below the width. */
static int
lower_shift(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, const struct alu_type *t)
{
   unsigned w = t->bits;
   uint32_t u = alu_u(e, w), u32 = alu_u(e, 32), bo = alu_b(e);
   uint32_t a = alu_read(e, in, 0, t->kind, w);
   uint32_t n = alu_read(e, in, 1, CUVK_SPIRV_UINT, 32);
   uint32_t nc = cuvk_spirv_glsl(e, GLSLstd450UMin, u32, n, alu_cu(e, 32, w - 1));
   uint32_t r;

   if (in->op == PTX_OP_SHR && t->kind == CUVK_SPIRV_SINT) {
      r = cuvk_spirv_val(e, SpvOpShiftRightArithmetic, u, a, nc);
   } else {
      SpvOp op = in->op == PTX_OP_SHL ? SpvOpShiftLeftLogical : SpvOpShiftRightLogical;
      uint32_t big = cuvk_spirv_val(e, SpvOpUGreaterThanEqual, bo, n, alu_cu(e, 32, w));
      r = alu_sel(e, u, big, alu_cu(e, w, 0), cuvk_spirv_val(e, op, u, a, nc));
   }
   cuvk_spirv_write(e, &in->dst[0], r, t->kind, w);
   return 1;
}

/* The mask of the low n bits (n in 0..w, a u32 value) at width w. */
static uint32_t
low_mask(struct cuvk_spirv_emitter *e, uint32_t n, unsigned w)
{
   uint32_t u = alu_u(e, w), bo = alu_b(e);
   uint32_t full = cuvk_spirv_val(e, SpvOpUGreaterThanEqual, bo, n, alu_cu(e, 32, w));
   uint32_t nc = cuvk_spirv_glsl(e, GLSLstd450UMin, alu_u(e, 32), n, alu_cu(e, 32, w - 1));
   uint32_t m = cuvk_spirv_val(e, SpvOpISub, u,
                               cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, alu_cu(e, w, 1), nc),
                               alu_cu(e, w, 1));
   return alu_sel(e, u, full, alu_cu(e, w, ones(w)), m);
}

/* bfe and bfi: position and length are bytes (0..255); the field is the
 * part of [pos, pos + len) inside the register.  bfe.s fills the bits
 * above it with the field's last bit, a[min(pos + len - 1, msb)] (the
 * sign when the field runs past the end), and gives 0 for len 0. */
static int
lower_bitfield(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
               const struct alu_type *t)
{
   unsigned w = t->bits;
   uint32_t u = alu_u(e, w), u32 = alu_u(e, 32), bo = alu_b(e);
   bool bfi = in->op == PTX_OP_BFI;
   unsigned pi = bfi ? 2 : 1;
   uint32_t a = alu_read(e, in, 0, t->kind, w);
   uint32_t pos = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, alu_read(e, in, pi, CUVK_SPIRV_UINT, 32),
                                 alu_cu(e, 32, 0xff));
   uint32_t len = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32,
                                 alu_read(e, in, pi + 1, CUVK_SPIRV_UINT, 32), alu_cu(e, 32, 0xff));
   uint32_t inside = cuvk_spirv_val(e, SpvOpULessThan, bo, pos, alu_cu(e, 32, w));
   uint32_t posc = cuvk_spirv_glsl(e, GLSLstd450UMin, u32, pos, alu_cu(e, 32, w - 1));
   /* Bits of the field inside the register: min(len, w - pos), 0 past it. */
   uint32_t room = cuvk_spirv_val(e, SpvOpISub, u32, alu_cu(e, 32, w), posc);
   uint32_t n = alu_sel(e, u32, inside, cuvk_spirv_glsl(e, GLSLstd450UMin, u32, len, room),
                        alu_cu(e, 32, 0));
   uint32_t mask = low_mask(e, n, w);
   uint32_t r;

   if (bfi) {
      uint32_t b = alu_read(e, in, 1, t->kind, w);
      uint32_t m = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, mask, posc);
      uint32_t f = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, a, posc);
      r = cuvk_spirv_val(e, SpvOpBitwiseOr, u,
                         cuvk_spirv_val(e, SpvOpBitwiseAnd, u, b,
                                        cuvk_spirv_val(e, SpvOpNot, u, m)),
                         cuvk_spirv_val(e, SpvOpBitwiseAnd, u, f, m));
   } else {
      uint32_t shifted = alu_sel(e, u, inside,
                                 cuvk_spirv_val(e, SpvOpShiftRightLogical, u, a, posc),
                                 alu_cu(e, w, 0));
      r = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, shifted, mask);
      if (t->kind == CUVK_SPIRV_SINT) {
         /* sbit = a[min(pos + len - 1, w - 1)], for len > 0 */
         uint32_t last = cuvk_spirv_glsl(e, GLSLstd450UMin, u32,
                                         cuvk_spirv_val(e, SpvOpISub, u32,
                                                        cuvk_spirv_val(e, SpvOpIAdd, u32, pos, len),
                                                        alu_cu(e, 32, 1)),
                                         alu_cu(e, 32, w - 1));
         uint32_t bit = cuvk_spirv_val(e, SpvOpBitwiseAnd, u,
                                       cuvk_spirv_val(e, SpvOpShiftRightLogical, u, a, last),
                                       alu_cu(e, w, 1));
         uint32_t fill = cuvk_spirv_val(e, SpvOpLogicalAnd, bo,
                                        cuvk_spirv_val(e, SpvOpINotEqual, bo, bit, alu_cu(e, w, 0)),
                                        cuvk_spirv_val(e, SpvOpINotEqual, bo, len,
                                                       alu_cu(e, 32, 0)));
         r = alu_sel(e, u, fill,
                     cuvk_spirv_val(e, SpvOpBitwiseOr, u, r, cuvk_spirv_val(e, SpvOpNot, u, mask)),
                     r);
      }
   }
   cuvk_spirv_write(e, &in->dst[0], r, t->kind, w);
   return 1;
}

/* bmsk.mode.b32 d, a, b: the mask of b bits from bit a.  Both wrap to
 * 0..31 (.wrap), or a past 31 gives 0 and b past 31 a mask up to the top
 * (.clamp); a field past bit 31 is cut there.  As the PTX ISA's
 * pseudo-code: d = (~0 << a1) & ~(~0 << (a1 + b1)), the second mask 0 on
 * overflow and all ones for b1 = 0. */
static int
lower_bmsk(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   uint32_t u32 = alu_u(e, 32), bo = alu_b(e);
   bool clamp = alu_has(in, PTX_MOD_CLAMP);
   uint32_t a = alu_read(e, in, 0, CUVK_SPIRV_UINT, 32);
   uint32_t b = alu_read(e, in, 1, CUVK_SPIRV_UINT, 32);
   uint32_t all = alu_cu(e, 32, 0xffffffffu), zero = alu_cu(e, 32, 0);
   uint32_t a1 = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, a, alu_cu(e, 32, 31));
   uint32_t b1 = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, b, alu_cu(e, 32, 31));
   uint32_t mask0 = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32, all, a1);
   uint32_t sum = cuvk_spirv_val(e, SpvOpIAdd, u32, a1, b1);
   /* SPIR-V leaves shifts by the width or more undefined: clamp the
    * amount, the overflow select below covers sum >= 32. */
   uint32_t mask1 = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32, all,
                                   cuvk_spirv_glsl(e, GLSLstd450UMin, u32, sum, alu_cu(e, 32, 31)));
   uint32_t over = cuvk_spirv_val(e, SpvOpUGreaterThanEqual, bo, sum, alu_cu(e, 32, 32));
   if (clamp) {
      uint32_t a_big = cuvk_spirv_val(e, SpvOpUGreaterThanEqual, bo, a, alu_cu(e, 32, 32));
      uint32_t b_big = cuvk_spirv_val(e, SpvOpUGreaterThanEqual, bo, b, alu_cu(e, 32, 32));
      mask0 = alu_sel(e, u32, a_big, zero, mask0);
      over = cuvk_spirv_val(e, SpvOpLogicalOr, bo, over,
                            cuvk_spirv_val(e, SpvOpLogicalOr, bo, a_big, b_big));
   }
   uint32_t b_zero = cuvk_spirv_val(e, SpvOpIEqual, bo, b1, zero);
   mask1 = alu_sel(e, u32, over, zero, alu_sel(e, u32, b_zero, all, mask1));
   uint32_t r = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, mask0, cuvk_spirv_val(e, SpvOpNot, u32, mask1));
   cuvk_spirv_write(e, &in->dst[0], r, CUVK_SPIRV_UINT, 32);
   return 1;
}

/* szext.mode.{s32,u32} d, a, b: the low b bits of a, sign- or
 * zero-extended; b = 0 gives 0, b past 31 wraps (.wrap, so 32 is 0) or
 * keeps all of a (.clamp). */
static int
lower_szext(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, const struct alu_type *t)
{
   uint32_t u32 = alu_u(e, 32), bo = alu_b(e);
   uint32_t a = alu_read(e, in, 0, CUVK_SPIRV_UINT, 32);
   uint32_t b = alu_read(e, in, 1, CUVK_SPIRV_UINT, 32);
   uint32_t zero = alu_cu(e, 32, 0);
   uint32_t b1 = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, b, alu_cu(e, 32, 31));
   uint32_t mask = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32, alu_cu(e, 32, 0xffffffffu), b1);
   uint32_t big = 0;
   if (alu_has(in, PTX_MOD_CLAMP)) {
      big = cuvk_spirv_val(e, SpvOpUGreaterThanEqual, bo, b, alu_cu(e, 32, 32));
      mask = alu_sel(e, u32, big, zero, mask);
   }
   uint32_t r = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, a, cuvk_spirv_val(e, SpvOpNot, u32, mask));
   if (t->kind == CUVK_SPIRV_SINT) {
      /* The field's top bit, a[(b1 - 1) & 31], unless the field is empty
       * or (clamped) the whole register. */
      uint32_t pos = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32,
                                    cuvk_spirv_val(e, SpvOpISub, u32, b1, alu_cu(e, 32, 1)),
                                    alu_cu(e, 32, 31));
      uint32_t bit = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32,
                                    cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, a, pos),
                                    alu_cu(e, 32, 1));
      uint32_t sign = cuvk_spirv_val(e, SpvOpLogicalAnd, bo,
                                     cuvk_spirv_val(e, SpvOpINotEqual, bo, bit, zero),
                                     cuvk_spirv_val(e, SpvOpINotEqual, bo, b1, zero));
      if (big)
         sign = cuvk_spirv_val(e, SpvOpLogicalAnd, bo, sign, cuvk_spirv_val(e, SpvOpLogicalNot, bo, big));
      r = cuvk_spirv_val(e, SpvOpBitwiseOr, u32, r, alu_sel(e, u32, sign, mask, zero));
   }
   cuvk_spirv_write(e, &in->dst[0], r, CUVK_SPIRV_UINT, 32);
   return 1;
}

/* fns.b32 d, mask, base, offset: the position of the offset-th set bit of
 * mask counting up from bit base (offset > 0), down from it (offset < 0),
 * or base itself if set (offset 0); 0xffffffff when there is none.  A base
 * past 31 (undefined in PTX) finds nothing, as the ISA's pseudo-code loop
 * does.  Without a loop: keep the bits on the searched side of base, turn
 * a downward search into the (count - n + 1)-th bit from the bottom, and
 * find the k-th set bit from the bottom by halving [0, 32) with bit counts. */
static int
lower_fns(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   uint32_t u32 = alu_u(e, 32), bo = alu_b(e);
   uint32_t m = alu_read(e, in, 0, CUVK_SPIRV_UINT, 32);
   uint32_t base = alu_read(e, in, 1, CUVK_SPIRV_UINT, 32);
   uint32_t off = alu_read(e, in, 2, CUVK_SPIRV_UINT, 32);
   uint32_t zero = alu_cu(e, 32, 0), one = alu_cu(e, 32, 1), all = alu_cu(e, 32, 0xffffffffu);
   uint32_t basec = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, base, alu_cu(e, 32, 31));
   uint32_t in_range = cuvk_spirv_val(e, SpvOpULessThan, bo, base, alu_cu(e, 32, 32));
   uint32_t down = cuvk_spirv_val(e, SpvOpSLessThan, bo, off, zero);
   uint32_t exact = cuvk_spirv_val(e, SpvOpIEqual, bo, off, zero);
   /* Bits base..31 up, 0..base down, base alone for offset 0. */
   uint32_t up_bits = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32, all, basec);
   uint32_t down_bits = cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, all,
                                       cuvk_spirv_val(e, SpvOpISub, u32, alu_cu(e, 32, 31), basec));
   uint32_t keep = alu_sel(e, u32, exact, cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32, one, basec),
                           alu_sel(e, u32, down, down_bits, up_bits));
   keep = alu_sel(e, u32, in_range, keep, zero);
   uint32_t x = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, m, keep);
   /* n = |offset| (2^31 for INT_MIN, as unsigned), at least 1. */
   uint32_t n = alu_sel(e, u32, down, cuvk_spirv_val(e, SpvOpSNegate, u32, off), off);
   n = cuvk_spirv_glsl(e, GLSLstd450UMax, u32, n, one);
   uint32_t count = cuvk_spirv_val(e, SpvOpBitCount, u32, x);
   uint32_t found = cuvk_spirv_val(e, SpvOpUGreaterThanEqual, bo, count, n);
   /* Rank k (1-based) from the bottom; only used when found. */
   uint32_t k = alu_sel(e, u32, down,
                        cuvk_spirv_val(e, SpvOpIAdd, u32, cuvk_spirv_val(e, SpvOpISub, u32, count, n), one),
                        n);
   uint32_t pos = zero;
   for (unsigned s = 16; s >= 1; s /= 2) {
      uint32_t part = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32,
                                     cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, x, pos),
                                     alu_cu(e, 32, (1u << s) - 1));
      uint32_t c = cuvk_spirv_val(e, SpvOpBitCount, u32, part);
      uint32_t past = cuvk_spirv_val(e, SpvOpULessThan, bo, c, k);
      pos = alu_sel(e, u32, past, cuvk_spirv_val(e, SpvOpIAdd, u32, pos, alu_cu(e, 32, s)), pos);
      k = alu_sel(e, u32, past, cuvk_spirv_val(e, SpvOpISub, u32, k, c), k);
   }
   cuvk_spirv_write(e, &in->dst[0], alu_sel(e, u32, found, pos, all), CUVK_SPIRV_UINT, 32);
   return 1;
}

/* The SIMD video instructions vadd, vsub, vavrg, vabsdiff, vmin, vmax on
 * two 16-bit (vop2) or four 8-bit (vop4) lanes, in the default lanes
 * nvcc writes (no mask or selectors: lane i of a against lane i of b).
 * Each lane is sign- or zero-extended by atype/btype, operated on in 32
 * bits (vavrg rounds up: (a + b + 1) >> 1), clamped to dtype's lane range
 * with .sat, and then either written to its lane of d (the merge form:
 * with every lane selected, c is not read) or summed with the other
 * lanes onto c (.add, which __vsadu2/4 use). */
static int
lower_video(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   struct alu_type dt, at, bt;
   if (!alu_type(in, 0, &dt) || !alu_type(in, 1, &at) || !alu_type(in, 2, &bt) ||
       dt.bits != 32 || at.bits != 32 || bt.bits != 32 || dt.kind == CUVK_SPIRV_FLOAT ||
       at.kind == CUVK_SPIRV_FLOAT || bt.kind == CUVK_SPIRV_FLOAT)
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: needs three .u32/.s32 types", alu_name(in));
   bool sat = alu_has(in, PTX_MOD_SAT), acc = alu_has(in, PTX_MOD_ADD);
   if (sat && acc)
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: .sat and .add together", alu_name(in));
   if (!need_srcs(e, in, 1, 3))
      return -1;
   bool quad = in->op == PTX_OP_VABSDIFF4 || in->op == PTX_OP_VADD4 || in->op == PTX_OP_VSUB4 ||
               in->op == PTX_OP_VAVRG4 || in->op == PTX_OP_VMIN4 || in->op == PTX_OP_VMAX4;
   unsigned lanes = quad ? 4 : 2, w = 32 / lanes;
   uint32_t u32 = alu_u(e, 32), s32 = cuvk_spirv_type_of(e, CUVK_SPIRV_SINT, 32);
   uint32_t a = alu_read(e, in, 0, CUVK_SPIRV_UINT, 32);
   uint32_t b = alu_read(e, in, 1, CUVK_SPIRV_UINT, 32);
   uint32_t r = acc ? alu_read(e, in, 2, CUVK_SPIRV_UINT, 32) : alu_cu(e, 32, 0);
   int32_t lo = dt.kind == CUVK_SPIRV_SINT ? -(1 << (w - 1)) : 0;
   int32_t hi = dt.kind == CUVK_SPIRV_SINT ? (1 << (w - 1)) - 1 : (1 << w) - 1;

   for (unsigned i = 0; i < lanes; i++) {
      /* The lane at the top of the word, then shifted down: arithmetic
       * for a signed source, logical for an unsigned one. */
      uint32_t up = alu_cu(e, 32, 32 - w * (i + 1)), down = alu_cu(e, 32, 32 - w);
      uint32_t ta = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32, a, up);
      uint32_t tb = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32, b, up);
      ta = cuvk_spirv_val(e, at.kind == CUVK_SPIRV_SINT ? SpvOpShiftRightArithmetic
                                                        : SpvOpShiftRightLogical, u32, ta, down);
      tb = cuvk_spirv_val(e, bt.kind == CUVK_SPIRV_SINT ? SpvOpShiftRightArithmetic
                                                        : SpvOpShiftRightLogical, u32, tb, down);
      ta = alu_bitcast(e, s32, ta);
      tb = alu_bitcast(e, s32, tb);
      uint32_t v;
      switch (in->op) {
      case PTX_OP_VADD2: case PTX_OP_VADD4:
         v = cuvk_spirv_val(e, SpvOpIAdd, s32, ta, tb);
         break;
      case PTX_OP_VSUB2: case PTX_OP_VSUB4:
         v = cuvk_spirv_val(e, SpvOpISub, s32, ta, tb);
         break;
      case PTX_OP_VAVRG2: case PTX_OP_VAVRG4:
         v = cuvk_spirv_val(e, SpvOpShiftRightArithmetic, s32,
                            cuvk_spirv_val(e, SpvOpIAdd, s32, cuvk_spirv_val(e, SpvOpIAdd, s32, ta, tb),
                                           cuvk_spirv_const_bits(e, CUVK_SPIRV_SINT, 32, 1)),
                            alu_cu(e, 32, 1));
         break;
      case PTX_OP_VABSDIFF2: case PTX_OP_VABSDIFF4:
         v = cuvk_spirv_glsl(e, GLSLstd450SAbs, s32, cuvk_spirv_val(e, SpvOpISub, s32, ta, tb));
         break;
      case PTX_OP_VMIN2: case PTX_OP_VMIN4:
         v = cuvk_spirv_glsl(e, GLSLstd450SMin, s32, ta, tb);
         break;
      default:
         v = cuvk_spirv_glsl(e, GLSLstd450SMax, s32, ta, tb);
         break;
      }
      if (sat)
         v = cuvk_spirv_glsl(e, GLSLstd450SClamp, s32, v,
                             cuvk_spirv_const_bits(e, CUVK_SPIRV_SINT, 32, (uint32_t)lo),
                             cuvk_spirv_const_bits(e, CUVK_SPIRV_SINT, 32, (uint32_t)hi));
      v = alu_bitcast(e, u32, v);
      if (acc) {
         r = cuvk_spirv_val(e, SpvOpIAdd, u32, r, v);
      } else {
         v = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, v, alu_cu(e, 32, (1u << w) - 1));
         r = cuvk_spirv_val(e, SpvOpBitwiseOr, u32, r,
                            cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32, v, alu_cu(e, 32, w * i)));
      }
   }
   cuvk_spirv_write(e, &in->dst[0], r, CUVK_SPIRV_UINT, 32);
   return 1;
}

/* prmt: each result byte i comes from byte idx_i of {b, a} (a is bytes
 * 0..3); the generic form reads idx_i from nibble i of c, with bit 3
 * asking for the byte's sign replicated; the modes compute idx_i from
 * s = c & 3, as measured on sm_90:
 *   f4e (s + i) & 7   b4e (s - i) & 7   rc8 s   ecl max(i, s)
 *   ecr min(i, s)     rc16 (i & 1) | (s & 1) << 1 */
static int
lower_prmt(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   uint32_t u = alu_u(e, 32), bo = alu_b(e);
   uint32_t a = alu_read(e, in, 0, CUVK_SPIRV_UINT, 32);
   uint32_t b = alu_read(e, in, 1, CUVK_SPIRV_UINT, 32);
   uint32_t c = alu_read(e, in, 2, CUVK_SPIRV_UINT, 32);
   uint32_t s = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, c, alu_cu(e, 32, 3));
   enum ptx_modifier mode = PTX_MOD_COUNT;
   static const enum ptx_modifier modes[] = { PTX_MOD_F4E, PTX_MOD_B4E, PTX_MOD_RC8,
                                              PTX_MOD_ECL, PTX_MOD_ECR, PTX_MOD_RC16 };
   uint32_t r = alu_cu(e, 32, 0);

   for (unsigned m = 0; m < sizeof(modes) / sizeof(modes[0]); m++)
      if (alu_has(in, modes[m]))
         mode = modes[m];
   for (unsigned i = 0; i < 4; i++) {
      uint32_t ci = alu_cu(e, 32, i), sel = 0, idx;
      switch (mode) {
      case PTX_MOD_F4E:
         idx = cuvk_spirv_val(e, SpvOpIAdd, u, s, ci);
         break;
      case PTX_MOD_B4E:
         idx = cuvk_spirv_val(e, SpvOpISub, u, cuvk_spirv_val(e, SpvOpIAdd, u, s, alu_cu(e, 32, 8)),
                              ci);
         break;
      case PTX_MOD_RC8:
         idx = s;
         break;
      case PTX_MOD_ECL:
         idx = cuvk_spirv_glsl(e, GLSLstd450UMax, u, s, ci);
         break;
      case PTX_MOD_ECR:
         idx = cuvk_spirv_glsl(e, GLSLstd450UMin, u, s, ci);
         break;
      case PTX_MOD_RC16:
         idx = cuvk_spirv_val(e, SpvOpBitwiseOr, u, alu_cu(e, 32, i & 1),
                              cuvk_spirv_val(e, SpvOpShiftLeftLogical, u,
                                             cuvk_spirv_val(e, SpvOpBitwiseAnd, u, s,
                                                            alu_cu(e, 32, 1)),
                                             alu_cu(e, 32, 1)));
         break;
      default:
         sel = cuvk_spirv_val(e, SpvOpBitwiseAnd, u,
                              cuvk_spirv_val(e, SpvOpShiftRightLogical, u, c, alu_cu(e, 32, 4 * i)),
                              alu_cu(e, 32, 0xf));
         idx = sel;
         break;
      }
      idx = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, idx, alu_cu(e, 32, 7));
      uint32_t from_b = cuvk_spirv_val(e, SpvOpUGreaterThanEqual, bo, idx, alu_cu(e, 32, 4));
      uint32_t word = alu_sel(e, u, from_b, b, a);
      uint32_t sh = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u,
                                   cuvk_spirv_val(e, SpvOpBitwiseAnd, u, idx, alu_cu(e, 32, 3)),
                                   alu_cu(e, 32, 3));
      uint32_t byte = cuvk_spirv_val(e, SpvOpBitwiseAnd, u,
                                     cuvk_spirv_val(e, SpvOpShiftRightLogical, u, word, sh),
                                     alu_cu(e, 32, 0xff));
      if (sel) {
         uint32_t rep = cuvk_spirv_val(e, SpvOpINotEqual, bo,
                                       cuvk_spirv_val(e, SpvOpBitwiseAnd, u, sel, alu_cu(e, 32, 8)),
                                       alu_cu(e, 32, 0));
         uint32_t neg = cuvk_spirv_val(e, SpvOpINotEqual, bo,
                                       cuvk_spirv_val(e, SpvOpBitwiseAnd, u, byte,
                                                      alu_cu(e, 32, 0x80)),
                                       alu_cu(e, 32, 0));
         byte = alu_sel(e, u, rep, alu_sel(e, u, neg, alu_cu(e, 32, 0xff), alu_cu(e, 32, 0)),
                        byte);
      }
      r = cuvk_spirv_val(e, SpvOpBitwiseOr, u, r,
                         cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, byte, alu_cu(e, 32, 8 * i)));
   }
   cuvk_spirv_write(e, &in->dst[0], r, CUVK_SPIRV_UINT, 32);
   return 1;
}

/* lop3.b32 d, a, b, c, lut: bit k of d is bit (a_k << 2 | b_k << 1 | c_k)
 * of lut, so d is the OR of lut's minterms. */
static int
lower_lop3(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   uint32_t u = alu_u(e, 32);
   if (in->src[3].kind != CUVK_IR_VAL_IMM)
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: the look-up table must be an immediate",
                             alu_name(in));
   unsigned lut = (unsigned)(in->src[3].imm & 0xff);
   uint32_t v[3], nv[3];
   uint32_t r = alu_cu(e, 32, 0);

   for (unsigned i = 0; i < 3; i++) {
      v[i] = alu_read(e, in, i, CUVK_SPIRV_UINT, 32);
      nv[i] = cuvk_spirv_val(e, SpvOpNot, u, v[i]);
   }
   if (lut == 0xff)
      r = alu_cu(e, 32, ~0u);
   for (unsigned k = 0; k < 8 && lut != 0xff; k++) {
      if (!(lut & (1u << k)))
         continue;
      uint32_t t = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, k & 4 ? v[0] : nv[0], k & 2 ? v[1] : nv[1]);
      t = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, t, k & 1 ? v[2] : nv[2]);
      r = cuvk_spirv_val(e, SpvOpBitwiseOr, u, r, t);
   }
   cuvk_spirv_write(e, &in->dst[0], r, CUVK_SPIRV_UINT, 32);
   return 1;
}

/* shf.l/.r: the 64-bit {b, a} shifted by n, upper (l) or lower (r) word;
 * .wrap takes n mod 32, .clamp min(n, 32). */
static int
lower_shf(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   uint32_t u = alu_u(e, 32), bo = alu_b(e);
   bool left = alu_has(in, PTX_MOD_L);
   uint32_t a = alu_read(e, in, 0, CUVK_SPIRV_UINT, 32);
   uint32_t b = alu_read(e, in, 1, CUVK_SPIRV_UINT, 32);
   uint32_t c = alu_read(e, in, 2, CUVK_SPIRV_UINT, 32);
   uint32_t n = alu_has(in, PTX_MOD_CLAMP)
                   ? cuvk_spirv_glsl(e, GLSLstd450UMin, u, c, alu_cu(e, 32, 32))
                   : cuvk_spirv_val(e, SpvOpBitwiseAnd, u, c, alu_cu(e, 32, 31));
   /* k in 1..31 for the shifts; n == 0 and n == 32 are selected. */
   uint32_t k = cuvk_spirv_glsl(e, GLSLstd450UClamp, u, n, alu_cu(e, 32, 1), alu_cu(e, 32, 31));
   uint32_t kk = cuvk_spirv_val(e, SpvOpISub, u, alu_cu(e, 32, 32), k);
   uint32_t r, at0, at32;

   if (left) {
      r = cuvk_spirv_val(e, SpvOpBitwiseOr, u, cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, b, k),
                         cuvk_spirv_val(e, SpvOpShiftRightLogical, u, a, kk));
      at0 = b, at32 = a;
   } else {
      r = cuvk_spirv_val(e, SpvOpBitwiseOr, u, cuvk_spirv_val(e, SpvOpShiftRightLogical, u, a, k),
                         cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, b, kk));
      at0 = a, at32 = b;
   }
   r = alu_sel(e, u, cuvk_spirv_val(e, SpvOpIEqual, bo, n, alu_cu(e, 32, 0)), at0, r);
   r = alu_sel(e, u, cuvk_spirv_val(e, SpvOpIEqual, bo, n, alu_cu(e, 32, 32)), at32, r);
   cuvk_spirv_write(e, &in->dst[0], r, CUVK_SPIRV_UINT, 32);
   return 1;
}

static int
lower_sad(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, const struct alu_type *t)
{
   unsigned w = t->bits;
   uint32_t u = alu_u(e, w), bo = alu_b(e);
   uint32_t a = alu_read(e, in, 0, t->kind, w);
   uint32_t b = alu_read(e, in, 1, t->kind, w);
   uint32_t c = alu_read(e, in, 2, t->kind, w);
   uint32_t gt = cuvk_spirv_val(e, t->kind == CUVK_SPIRV_SINT ? SpvOpSGreaterThan
                                                              : SpvOpUGreaterThan, bo, a, b);
   uint32_t d = alu_sel(e, u, gt, cuvk_spirv_val(e, SpvOpISub, u, a, b),
                        cuvk_spirv_val(e, SpvOpISub, u, b, a));
   cuvk_spirv_write(e, &in->dst[0], cuvk_spirv_val(e, SpvOpIAdd, u, c, d), t->kind, w);
   return 1;
}

/* Bits [at, at + width) of x, sign- or zero-extended to 32 bits. */
static uint32_t
field32(struct cuvk_spirv_emitter *e, uint32_t x, unsigned at, unsigned width, bool sign)
{
   uint32_t u = alu_u(e, 32);
   uint32_t up = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, x, alu_cu(e, 32, 32 - at - width));
   return cuvk_spirv_val(e, sign ? SpvOpShiftRightArithmetic : SpvOpShiftRightLogical, u, up,
                         alu_cu(e, 32, 32 - width));
}

/* dp4a.atype.btype d, a, b, c: c plus the four products of a's and b's
 * bytes; dp2a.lo/.hi: c plus a's two 16-bit halves times b's bytes 0
 * and 1 (.lo) or 2 and 3 (.hi).  Each field is sign-extended when its
 * operand's type is .s32; the sum wraps in 32 bits, as PTX's does. */
static int
lower_dot(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   struct alu_type at, bt;
   bool four = in->op == PTX_OP_DP4A, hi = alu_has(in, PTX_MOD_HI);

   if (!alu_type(in, 0, &at) || !alu_type(in, 1, &bt) || at.bits != 32 || bt.bits != 32 ||
       at.kind == CUVK_SPIRV_FLOAT || bt.kind == CUVK_SPIRV_FLOAT ||
       (!four && hi == alu_has(in, PTX_MOD_LO)))
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: malformed", alu_name(in));
   uint32_t u = alu_u(e, 32);
   bool as = at.kind == CUVK_SPIRV_SINT, bs = bt.kind == CUVK_SPIRV_SINT;
   uint32_t a = alu_read(e, in, 0, CUVK_SPIRV_UINT, 32);
   uint32_t b = alu_read(e, in, 1, CUVK_SPIRV_UINT, 32);
   uint32_t d = alu_read(e, in, 2, CUVK_SPIRV_UINT, 32);
   for (unsigned i = 0; i < (four ? 4u : 2u); i++) {
      uint32_t x = four ? field32(e, a, 8 * i, 8, as) : field32(e, a, 16 * i, 16, as);
      uint32_t y = field32(e, b, 8 * (four ? i : i + (hi ? 2 : 0)), 8, bs);
      d = cuvk_spirv_val(e, SpvOpIAdd, u, d, cuvk_spirv_val(e, SpvOpIMul, u, x, y));
   }
   /* The destination is .u32 when both sources are, else .s32: the same
    * bits either way. */
   cuvk_spirv_write(e, &in->dst[0], d, as || bs ? CUVK_SPIRV_SINT : CUVK_SPIRV_UINT, 32);
   return 1;
}

/* An integer comparison of setp/set. */
static uint32_t
icompare(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, enum ptx_modifier cmp,
         uint32_t a, uint32_t b, bool sign)
{
   uint32_t bo = alu_b(e);
   SpvOp op;

   switch (cmp) {
   case PTX_MOD_EQ: op = SpvOpIEqual; break;
   case PTX_MOD_NE: op = SpvOpINotEqual; break;
   case PTX_MOD_LT: op = sign ? SpvOpSLessThan : SpvOpULessThan; break;
   case PTX_MOD_LE: op = sign ? SpvOpSLessThanEqual : SpvOpULessThanEqual; break;
   case PTX_MOD_GT: op = sign ? SpvOpSGreaterThan : SpvOpUGreaterThan; break;
   case PTX_MOD_GE: op = sign ? SpvOpSGreaterThanEqual : SpvOpUGreaterThanEqual; break;
   case PTX_MOD_LO: op = SpvOpULessThan; break;
   case PTX_MOD_LS: op = SpvOpULessThanEqual; break;
   case PTX_MOD_HI: op = SpvOpUGreaterThan; break;
   case PTX_MOD_HS: op = SpvOpUGreaterThanEqual; break;
   default:
      cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "%s: %s does not compare integers", alu_name(in),
                      ptx_modifier_table[cmp].name);
      return 0;
   }
   return cuvk_spirv_val(e, op, bo, a, b);
}

/* The bits set writes for true in one lane of dtype dt: 1.0 of a float
 * type (f16/bf16 lanes included), all ones of an integer one. */
static uint64_t
set_true(const struct alu_type *dt, unsigned lane_bits)
{
   switch (dt->mod) {
   case PTX_MOD_F32: return 0x3f800000u;
   case PTX_MOD_F16: case PTX_MOD_F16X2: return 0x3c00;
   case PTX_MOD_BF16: case PTX_MOD_BF16X2: return 0x3f80;
   default: return ones(lane_bits);
   }
}

/* setp and set: the comparison, then the optional .and/.or/.xor with a
 * (maybe negated) predicate.  setp's second destination (p|q) is the
 * negated comparison combined the same way.  f16x2, bf16x2 (and bf16)
 * sources compare lane by lane on the bits (alu_lane_compare): setp's p
 * gets the low lane and q the high one, set writes each lane's half. */
static int
lower_compare(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   bool setp = in->op == PTX_OP_SETP;
   struct alu_type dt = { 0 }, st;
   enum ptx_modifier cmp = PTX_MOD_COUNT, boolop = PTX_MOD_COUNT;
   uint32_t bo = alu_b(e), u = alu_u(e, 32);

   for (unsigned i = 0; i < in->mod_count; i++) {
      if (ptx_modifier_table[in->mods[i]].cls == PTX_MODC_CMP)
         cmp = in->mods[i];
      else if (ptx_modifier_table[in->mods[i]].cls == PTX_MODC_BOOLOP)
         boolop = in->mods[i];
   }
   if (setp) {
      if (!alu_type(in, 0, &st))
         return alu_refuse(e, CUVK_CC_INVALID, in, "%s: no type", alu_name(in));
   } else {
      if (!alu_type(in, 0, &dt) || !alu_type(in, 1, &st))
         return alu_refuse(e, CUVK_CC_INVALID, in, "%s: set needs two types", alu_name(in));
   }
   bool lanes = st.mod == PTX_MOD_F16X2 || st.mod == PTX_MOD_BF16X2 || st.mod == PTX_MOD_BF16;
   bool x2 = lanes && st.bits == 32, bf = st.mod == PTX_MOD_BF16 || st.mod == PTX_MOD_BF16X2;
   if (lanes) {
      if (bf && alu_has(in, PTX_MOD_FTZ))
         return alu_refuse(e, CUVK_CC_INVALID, in, "%s: bf16 takes no .ftz", alu_name(in));
      if (!x2 && !cuvk_spirv_target(e)->int16)
         return alu_refuse(e, CUVK_CC_UNSUPPORTED, in, "%s: the device lacks shaderInt16",
                           alu_name(in));
   } else if (!alu_check_type(e, in, &st)) {
      return -1;
   }
   /* set's destination: 32 bits (f32, an integer, or a packed pair for
    * packed sources), or 16 (f16, bf16, u16, s16, b16) for scalar ones. */
   if (!setp) {
      bool packed_dt = dt.mod == PTX_MOD_F16X2 || dt.mod == PTX_MOD_BF16X2;
      if (x2 ? dt.bits != 32 || dt.mod == PTX_MOD_F32 || dt.mod == PTX_MOD_B32 ||
                  (packed_dt && dt.mod != st.mod)
             : packed_dt || (dt.bits != 32 && dt.bits != 16))
         return alu_refuse(e, CUVK_CC_INVALID, in, "%s: no such set", alu_name(in));
      if (dt.bits == 16 && !cuvk_spirv_target(e)->int16)
         return alu_refuse(e, CUVK_CC_UNSUPPORTED, in, "%s: the device lacks shaderInt16",
                           alu_name(in));
   }
   unsigned nsrc = boolop != PTX_MOD_COUNT ? 3 : 2;
   if (cmp == PTX_MOD_COUNT || in->src_count != nsrc || in->dst_count < 1 ||
       in->dst_count > (setp ? 2u : 1u))
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: malformed comparison", alu_name(in));

   uint32_t p[2] = { 0, 0 };
   if (lanes) {
      uint32_t a = alu_read(e, in, 0, CUVK_SPIRV_UINT, x2 ? 32 : 16);
      uint32_t b = alu_read(e, in, 1, CUVK_SPIRV_UINT, x2 ? 32 : 16);
      if (!x2) {
         a = cuvk_spirv_val(e, SpvOpUConvert, u, a);
         b = cuvk_spirv_val(e, SpvOpUConvert, u, b);
      }
      for (unsigned l = 0; l < (x2 ? 2u : 1u); l++) {
         uint32_t sh = alu_cu(e, 32, 16 * l), m = alu_cu(e, 32, 0xffff);
         uint32_t la = cuvk_spirv_val(e, SpvOpBitwiseAnd, u,
                                      cuvk_spirv_val(e, SpvOpShiftRightLogical, u, a, sh), m);
         uint32_t lb = cuvk_spirv_val(e, SpvOpBitwiseAnd, u,
                                      cuvk_spirv_val(e, SpvOpShiftRightLogical, u, b, sh), m);
         p[l] = alu_lane_compare(e, in, cmp, la, lb, bf);
      }
   } else if (st.kind == CUVK_SPIRV_FLOAT) {
      uint32_t a = alu_read(e, in, 0, st.kind, st.bits);
      uint32_t b = alu_read(e, in, 1, st.kind, st.bits);
      if (alu_has(in, PTX_MOD_FTZ)) {
         a = alu_flush(e, a, st.bits);
         b = alu_flush(e, b, st.bits);
      }
      p[0] = alu_fcompare(e, in, cmp, a, b, st.bits);
   } else {
      uint32_t a = alu_read(e, in, 0, st.kind, st.bits);
      uint32_t b = alu_read(e, in, 1, st.kind, st.bits);
      p[0] = icompare(e, in, cmp, a, b, st.kind == CUVK_SPIRV_SINT);
   }
   if (!p[0] || (x2 && !p[1]))
      return -1;

   /* Without packed lanes, the second value is the negated comparison. */
   if (!x2)
      p[1] = cuvk_spirv_val(e, SpvOpLogicalNot, bo, p[0]);
   if (boolop != PTX_MOD_COUNT) {
      uint32_t c = alu_read(e, in, 2, CUVK_SPIRV_BOOL, 1);
      SpvOp op = boolop == PTX_MOD_AND ? SpvOpLogicalAnd
                 : boolop == PTX_MOD_OR ? SpvOpLogicalOr : SpvOpLogicalNotEqual;
      p[0] = cuvk_spirv_val(e, op, bo, p[0], c);
      p[1] = cuvk_spirv_val(e, op, bo, p[1], c);
   }
   if (setp) {
      cuvk_spirv_write(e, &in->dst[0], p[0], CUVK_SPIRV_BOOL, 1);
      if (in->dst_count == 2)
         cuvk_spirv_write(e, &in->dst[1], p[1], CUVK_SPIRV_BOOL, 1);
      return 1;
   }
   if (x2) {
      uint64_t t = set_true(&dt, 16);
      uint32_t r = cuvk_spirv_val(e, SpvOpBitwiseOr, u,
                                  alu_sel(e, u, p[0], alu_cu(e, 32, t), alu_cu(e, 32, 0)),
                                  alu_sel(e, u, p[1], alu_cu(e, 32, t << 16), alu_cu(e, 32, 0)));
      cuvk_spirv_write(e, &in->dst[0], r, CUVK_SPIRV_UINT, 32);
      return 1;
   }
   /* set: 1.0 or all ones for true, 0 for false, as bits of dt's width. */
   uint32_t r = alu_sel(e, alu_u(e, dt.bits), p[0], alu_cu(e, dt.bits, set_true(&dt, dt.bits)),
                        alu_cu(e, dt.bits, 0));
   cuvk_spirv_write(e, &in->dst[0], r, CUVK_SPIRV_UINT, dt.bits);
   return 1;
}

static int
lower_selp(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, const struct alu_type *t)
{
   uint32_t a = alu_read(e, in, 0, t->kind, t->bits);
   uint32_t b = alu_read(e, in, 1, t->kind, t->bits);
   uint32_t c = alu_read(e, in, 2, CUVK_SPIRV_BOOL, 1);
   uint32_t type = cuvk_spirv_type_of(e, t->kind, t->bits);
   cuvk_spirv_write(e, &in->dst[0], alu_sel(e, type, c, a, b), t->kind, t->bits);
   return 1;
}

/* slct.dtype.s32/.f32 d, a, b, c: d = c >= 0 ? a : b. */
static int
lower_slct(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   struct alu_type dt, ct;
   if (!alu_type(in, 0, &dt) || !alu_type(in, 1, &ct) || ct.bits != 32)
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: malformed", alu_name(in));
   if (!alu_check_type(e, in, &dt))
      return -1;
   uint32_t a = alu_read(e, in, 0, dt.kind, dt.bits);
   uint32_t b = alu_read(e, in, 1, dt.kind, dt.bits);
   uint32_t c = alu_read(e, in, 2, ct.kind, 32), ge;
   if (ct.kind == CUVK_SPIRV_FLOAT) {
      if (alu_has(in, PTX_MOD_FTZ))
         c = alu_flush(e, c, 32);
      ge = cuvk_spirv_val(e, SpvOpFOrdGreaterThanEqual, alu_b(e), c, alu_cf(e, 32, 0));
   } else {
      ge = cuvk_spirv_val(e, SpvOpSGreaterThanEqual, alu_b(e), c, alu_cu(e, 32, 0));
   }
   uint32_t type = cuvk_spirv_type_of(e, dt.kind, dt.bits);
   cuvk_spirv_write(e, &in->dst[0], alu_sel(e, type, ge, a, b), dt.kind, dt.bits);
   return 1;
}

int
cuvk_spirv_lower_alu(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   struct alu_type t;

   switch (in->op) {
   case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_ADDC: case PTX_OP_SUBC:
   case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MADC:
   case PTX_OP_MUL24: case PTX_OP_MAD24:
   case PTX_OP_DIV: case PTX_OP_REM:
   case PTX_OP_MIN: case PTX_OP_MAX:
   case PTX_OP_ABS: case PTX_OP_NEG:
   case PTX_OP_NOT: case PTX_OP_CNOT: case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR:
   case PTX_OP_SHL: case PTX_OP_SHR:
   case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BREV: case PTX_OP_BFIND:
   case PTX_OP_BFE: case PTX_OP_BFI:
   case PTX_OP_SAD: case PTX_OP_SELP:
   case PTX_OP_FMA: case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT:
   case PTX_OP_EX2: case PTX_OP_LG2: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_TANH:
   case PTX_OP_COPYSIGN: case PTX_OP_TESTP:
      if (!alu_type(in, 0, &t))
         return alu_refuse(e, CUVK_CC_INVALID, in, "%s: no type", alu_name(in));
      if (t.mod == PTX_MOD_F16X2 || t.mod == PTX_MOD_BF16 || t.mod == PTX_MOD_BF16X2)
         return alu_lower_packed(e, in, &t);
      /* ex2/tanh.approx.f16 take the lanes' f32 path too: no f16 value,
       * so neither shaderFloat16 nor the device's f16 subnormals. */
      if (t.mod == PTX_MOD_F16 && (in->op == PTX_OP_EX2 || in->op == PTX_OP_TANH))
         return alu_lower_packed(e, in, &t);
      if (!alu_check_type(e, in, &t))
         return -1;
      break;
   case PTX_OP_SETP: case PTX_OP_SET:
      return lower_compare(e, in);
   case PTX_OP_CVT:
      return alu_lower_cvt(e, in);
   case PTX_OP_SLCT:
      return need_srcs(e, in, 1, 3) ? lower_slct(e, in) : -1;
   case PTX_OP_PRMT:
      return need_srcs(e, in, 1, 3) ? lower_prmt(e, in) : -1;
   case PTX_OP_LOP3:
      return need_srcs(e, in, 1, 4) ? lower_lop3(e, in) : -1;
   case PTX_OP_SHF:
      return need_srcs(e, in, 1, 3) ? lower_shf(e, in) : -1;
   case PTX_OP_DP4A: case PTX_OP_DP2A:
      return need_srcs(e, in, 1, 3) ? lower_dot(e, in) : -1;
   case PTX_OP_VADD2: case PTX_OP_VADD4: case PTX_OP_VSUB2: case PTX_OP_VSUB4:
   case PTX_OP_VAVRG2: case PTX_OP_VAVRG4: case PTX_OP_VABSDIFF2: case PTX_OP_VABSDIFF4:
   case PTX_OP_VMIN2: case PTX_OP_VMIN4: case PTX_OP_VMAX2: case PTX_OP_VMAX4:
      return lower_video(e, in);
   case PTX_OP_BMSK: case PTX_OP_SZEXT: case PTX_OP_FNS: {
      /* bmsk.b32, szext.{s32,u32}, fns.b32. */
      bool szext = in->op == PTX_OP_SZEXT;
      if (!alu_type(in, 0, &t) || t.bits != 32 || t.kind == CUVK_SPIRV_FLOAT ||
          (!szext && t.kind == CUVK_SPIRV_SINT))
         return alu_refuse(e, CUVK_CC_INVALID, in, "%s: malformed", alu_name(in));
      if (in->op != PTX_OP_FNS && alu_has(in, PTX_MOD_CLAMP) == alu_has(in, PTX_MOD_WRAP))
         return alu_refuse(e, CUVK_CC_INVALID, in, "%s: needs one of .clamp and .wrap",
                           alu_name(in));
      if (in->op == PTX_OP_FNS)
         return need_srcs(e, in, 1, 3) ? lower_fns(e, in) : -1;
      if (!need_srcs(e, in, 1, 2))
         return -1;
      return szext ? lower_szext(e, in, &t) : lower_bmsk(e, in);
   }
   default:
      return 0;
   }

   if (in->op == PTX_OP_SELP)
      return need_srcs(e, in, 1, 3) ? lower_selp(e, in, &t) : -1;
   /* Floating point, and the opcodes that exist only for floats. */
   if (t.kind == CUVK_SPIRV_FLOAT || in->op == PTX_OP_FMA || in->op == PTX_OP_RCP ||
       in->op == PTX_OP_SQRT || in->op == PTX_OP_RSQRT || in->op == PTX_OP_EX2 ||
       in->op == PTX_OP_LG2 || in->op == PTX_OP_SIN || in->op == PTX_OP_COS ||
       in->op == PTX_OP_TANH || in->op == PTX_OP_COPYSIGN || in->op == PTX_OP_TESTP) {
      if (t.kind != CUVK_SPIRV_FLOAT)
         return alu_refuse(e, CUVK_CC_INVALID, in, "%s: needs a floating-point type",
                                alu_name(in));
      return alu_lower_float(e, in, &t);
   }
   if (t.kind == CUVK_SPIRV_BOOL && in->op != PTX_OP_AND && in->op != PTX_OP_OR &&
       in->op != PTX_OP_XOR && in->op != PTX_OP_NOT)
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: not for predicates", alu_name(in));

   switch (in->op) {
   case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_ADDC: case PTX_OP_SUBC:
      return need_srcs(e, in, 1, 2) ? lower_addsub(e, in, &t) : -1;
   case PTX_OP_MUL: case PTX_OP_MUL24:
      return need_srcs(e, in, 1, 2) ? lower_mul_mad(e, in, &t) : -1;
   case PTX_OP_MAD: case PTX_OP_MADC: case PTX_OP_MAD24:
      return need_srcs(e, in, 1, 3) ? lower_mul_mad(e, in, &t) : -1;
   case PTX_OP_DIV: case PTX_OP_REM:
      return need_srcs(e, in, 1, 2) ? lower_divrem(e, in, &t) : -1;
   case PTX_OP_MIN: case PTX_OP_MAX:
      return need_srcs(e, in, 1, 2) ? lower_minmax_int(e, in, &t) : -1;
   case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR:
      return need_srcs(e, in, 1, 2) ? lower_logic(e, in, &t) : -1;
   case PTX_OP_SHL: case PTX_OP_SHR:
      return need_srcs(e, in, 1, 2) ? lower_shift(e, in, &t) : -1;
   case PTX_OP_BFE:
      return need_srcs(e, in, 1, 3) ? lower_bitfield(e, in, &t) : -1;
   case PTX_OP_BFI:
      return need_srcs(e, in, 1, 4) ? lower_bitfield(e, in, &t) : -1;
   case PTX_OP_SAD:
      return need_srcs(e, in, 1, 3) ? lower_sad(e, in, &t) : -1;
   default:
      return need_srcs(e, in, 1, 1) ? lower_unary_int(e, in, &t) : -1;
   }
}
