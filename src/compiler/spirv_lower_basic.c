/*
 * The emitter's own lowering of the plain integer and float instructions
 * its tests need (mov, add, sub, mul, mad, fma, setp, selp, bit
 * operations, shifts, integer cvt, div and rem), written against
 * spirv_lower.h like spirv_lower_alu.c.  It exists so that the emitter
 * could be tested before spirv_lower_alu.c was written; the emitter asks
 * it only about what cuvk_spirv_lower_alu leaves.
 *
 * It refuses every modifier it does not implement exactly (.ftz, .sat,
 * .approx, rounding other than .rn, .cc ...) with 0, "not mine", so the
 * emitter names the instruction as not translated rather than
 * translating it wrongly.
 */
#include "compiler/spirv_emit.h"

/* True when every modifier of in is a type or one of allowed. */
static bool
only_mods(const struct cuvk_ir_instr *in, const enum ptx_modifier *allowed, unsigned count)
{
   for (unsigned i = 0; i < in->mod_count; i++) {
      enum ptx_modifier m = in->mods[i];
      bool ok = ptx_modifier_is_type(m);
      for (unsigned k = 0; k < count && !ok; k++)
         ok = m == allowed[k];
      if (!ok)
         return false;
   }
   return true;
}
#define ONLY(in, ...)                                                            \
   only_mods((in), (const enum ptx_modifier[]){ PTX_MOD_COUNT, __VA_ARGS__ },     \
             sizeof((const enum ptx_modifier[]){ PTX_MOD_COUNT, __VA_ARGS__ }) /  \
                sizeof(enum ptx_modifier))

static bool
is_int(enum cuvk_spirv_kind k)
{
   return k == CUVK_SPIRV_UINT || k == CUVK_SPIRV_SINT;
}

/* mov.b32 d, {a, b} and mov.b64 d, {a, b} / {a, b, c, d}: the elements,
 * first in the low bits; mov.b64 {a, b}, d the reverse ("_" skips one). */
static int
lower_mov_vector(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, unsigned bits)
{
   bool pack = in->src_count > 1;
   unsigned n = pack ? in->src_count : in->dst_count;
   unsigned eb = bits / n;
   uint32_t t = cuvk_spirv_type_uint(e, bits);

   if ((pack ? in->dst_count : in->src_count) != 1 || eb * n != bits || eb < 8)
      return 0;
   if (pack) {
      uint32_t r = cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, bits, 0);
      for (unsigned i = 0; i < n; i++) {
         uint32_t v = cuvk_spirv_convert(e, cuvk_spirv_read(e, &in->src[i], CUVK_SPIRV_UINT, eb),
                                         CUVK_SPIRV_UINT, eb, CUVK_SPIRV_UINT, bits);
         if (i)
            v = cuvk_spirv_val(e, SpvOpShiftLeftLogical, t, v, cuvk_spirv_const_u32(e, i * eb));
         r = cuvk_spirv_val(e, SpvOpBitwiseOr, t, r, v);
      }
      cuvk_spirv_write(e, &in->dst[0], r, CUVK_SPIRV_UINT, bits);
      return 1;
   }
   uint32_t a = cuvk_spirv_read(e, &in->src[0], CUVK_SPIRV_UINT, bits);
   for (unsigned i = 0; i < n; i++) {
      if (in->dst[i].kind == CUVK_IR_VAL_NONE)
         continue;
      uint32_t v = i ? cuvk_spirv_val(e, SpvOpShiftRightLogical, t, a,
                                      cuvk_spirv_const_u32(e, i * eb))
                     : a;
      cuvk_spirv_write(e, &in->dst[i],
                       cuvk_spirv_convert(e, v, CUVK_SPIRV_UINT, bits, CUVK_SPIRV_UINT, eb),
                       CUVK_SPIRV_UINT, eb);
   }
   return 1;
}

static int
lower_mov(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, enum cuvk_spirv_kind kind,
          unsigned bits)
{
   if (ONLY(in) && kind != CUVK_SPIRV_BOOL && (in->dst_count > 1 || in->src_count > 1))
      return lower_mov_vector(e, in, bits);
   if (!ONLY(in) || in->dst_count != 1 || in->src_count != 1)
      return 0;
   uint32_t v = cuvk_spirv_read(e, &in->src[0], kind, bits);
   cuvk_spirv_write(e, &in->dst[0], v, kind, bits);
   return 1;
}

static int
lower_binary(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
             enum cuvk_spirv_kind kind, unsigned bits)
{
   SpvOp op;
   bool f = kind == CUVK_SPIRV_FLOAT;

   if (in->dst_count != 1 || in->src_count != 2)
      return 0;
   if (f ? !ONLY(in, PTX_MOD_RN) : !ONLY(in, PTX_MOD_LO))
      return 0;
   switch (in->op) {
   case PTX_OP_ADD: op = f ? SpvOpFAdd : SpvOpIAdd; break;
   case PTX_OP_SUB: op = f ? SpvOpFSub : SpvOpISub; break;
   case PTX_OP_MUL:
      if (!f && !cuvk_spirv_has_mod(in, PTX_MOD_LO))
         return 0;
      op = f ? SpvOpFMul : SpvOpIMul;
      break;
   case PTX_OP_DIV:
      if (f)
         return 0;
      op = kind == CUVK_SPIRV_SINT ? SpvOpSDiv : SpvOpUDiv;
      break;
   case PTX_OP_REM:
      if (f)
         return 0;
      /* PTX's remainder takes the dividend's sign, as OpSRem does. */
      op = kind == CUVK_SPIRV_SINT ? SpvOpSRem : SpvOpUMod;
      break;
   case PTX_OP_AND: op = SpvOpBitwiseAnd; break;
   case PTX_OP_OR: op = SpvOpBitwiseOr; break;
   case PTX_OP_XOR: op = SpvOpBitwiseXor; break;
   default: return 0;
   }
   if (kind == CUVK_SPIRV_BOOL) {
      if (in->op == PTX_OP_AND)
         op = SpvOpLogicalAnd;
      else if (in->op == PTX_OP_OR)
         op = SpvOpLogicalOr;
      else if (in->op == PTX_OP_XOR)
         op = SpvOpLogicalNotEqual;
      else
         return 0;
   }
   uint32_t a = cuvk_spirv_read(e, &in->src[0], kind, bits);
   uint32_t b = cuvk_spirv_read(e, &in->src[1], kind, bits);
   uint32_t r = cuvk_spirv_val(e, op, cuvk_spirv_type_of(e, kind, bits), a, b);
   if (f)   /* PTX never fuses what it spells apart. */
      cuvk_spirv_decorate(e, r, SpvDecorationNoContraction, NULL, 0);
   cuvk_spirv_write(e, &in->dst[0], r, kind, bits);
   return 1;
}

/* mul.wide / mad.wide: operands widened first. */
static int
lower_wide(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
           enum cuvk_spirv_kind kind, unsigned bits)
{
   bool mad = in->op == PTX_OP_MAD;
   if (!is_int(kind) || !ONLY(in, PTX_MOD_WIDE) || in->dst_count != 1 ||
       in->src_count != (mad ? 3u : 2u) || bits > 32)
      return 0;
   uint32_t t2 = cuvk_spirv_type_uint(e, bits * 2);
   uint32_t a = cuvk_spirv_convert(e, cuvk_spirv_read(e, &in->src[0], kind, bits), kind, bits,
                                   kind, bits * 2);
   uint32_t b = cuvk_spirv_convert(e, cuvk_spirv_read(e, &in->src[1], kind, bits), kind, bits,
                                   kind, bits * 2);
   uint32_t r = cuvk_spirv_val(e, SpvOpIMul, t2, a, b);
   if (mad)
      r = cuvk_spirv_val(e, SpvOpIAdd, t2, r, cuvk_spirv_read(e, &in->src[2], kind, bits * 2));
   cuvk_spirv_write(e, &in->dst[0], r, kind, bits * 2);
   return 1;
}

static int
lower_mad(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
          enum cuvk_spirv_kind kind, unsigned bits)
{
   if (in->dst_count != 1 || in->src_count != 3)
      return 0;
   uint32_t t = cuvk_spirv_type_of(e, kind, bits);
   uint32_t a = cuvk_spirv_read(e, &in->src[0], kind, bits);
   uint32_t b = cuvk_spirv_read(e, &in->src[1], kind, bits);
   uint32_t c = cuvk_spirv_read(e, &in->src[2], kind, bits);
   uint32_t r;
   if (kind == CUVK_SPIRV_FLOAT) {
      /* fma.rn and mad.rn (f32 mad is fused since sm_20): one rounding. */
      if (!ONLY(in, PTX_MOD_RN) || !cuvk_spirv_has_mod(in, PTX_MOD_RN))
         return 0;
      r = cuvk_spirv_glsl(e, GLSLstd450Fma, t, a, b, c);
   } else {
      if (in->op != PTX_OP_MAD || !ONLY(in, PTX_MOD_LO) || !cuvk_spirv_has_mod(in, PTX_MOD_LO))
         return 0;
      r = cuvk_spirv_val(e, SpvOpIAdd, t, cuvk_spirv_val(e, SpvOpIMul, t, a, b), c);
   }
   cuvk_spirv_write(e, &in->dst[0], r, kind, bits);
   return 1;
}

static int
lower_shift(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
            enum cuvk_spirv_kind kind, unsigned bits)
{
   if (!is_int(kind) || !ONLY(in) || in->dst_count != 1 || in->src_count != 2)
      return 0;
   uint32_t t = cuvk_spirv_type_uint(e, bits), t_bool = cuvk_spirv_type_bool(e);
   uint32_t a = cuvk_spirv_read(e, &in->src[0], kind, bits);
   uint32_t n = cuvk_spirv_read(e, &in->src[1], CUVK_SPIRV_UINT, 32);
   /* PTX clamps the amount to the width; SPIR-V leaves larger ones
    * undefined. */
   uint32_t big = cuvk_spirv_val(e, SpvOpUGreaterThanEqual, t_bool, n,
                                 cuvk_spirv_const_u32(e, bits));
   uint32_t nc = cuvk_spirv_val(e, SpvOpSelect, cuvk_spirv_type_uint(e, 32), big,
                                cuvk_spirv_const_u32(e, bits - 1), n);
   uint32_t r;
   if (in->op == PTX_OP_SHR && kind == CUVK_SPIRV_SINT) {
      r = cuvk_spirv_val(e, SpvOpShiftRightArithmetic, t, a, nc);
   } else {
      r = cuvk_spirv_val(e, in->op == PTX_OP_SHL ? SpvOpShiftLeftLogical : SpvOpShiftRightLogical,
                         t, a, nc);
      r = cuvk_spirv_val(e, SpvOpSelect, t, big, cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, bits, 0),
                         r);
   }
   cuvk_spirv_write(e, &in->dst[0], r, kind, bits);
   return 1;
}

static int
lower_not_neg(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
              enum cuvk_spirv_kind kind, unsigned bits)
{
   if (!ONLY(in) || in->dst_count != 1 || in->src_count != 1)
      return 0;
   uint32_t a = cuvk_spirv_read(e, &in->src[0], kind, bits);
   uint32_t t = cuvk_spirv_type_of(e, kind, bits);
   SpvOp op;
   if (in->op == PTX_OP_NOT)
      op = kind == CUVK_SPIRV_BOOL ? SpvOpLogicalNot : SpvOpNot;
   else if (kind == CUVK_SPIRV_FLOAT)
      op = SpvOpFNegate;
   else if (is_int(kind))
      op = SpvOpSNegate;
   else
      return 0;
   cuvk_spirv_write(e, &in->dst[0], cuvk_spirv_val(e, op, t, a), kind, bits);
   return 1;
}

static int
lower_setp(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
           enum cuvk_spirv_kind kind, unsigned bits)
{
   enum ptx_modifier cmp = cuvk_spirv_mod_of_class(in, PTX_MODC_CMP);
   enum ptx_modifier bop = cuvk_spirv_mod_of_class(in, PTX_MODC_BOOLOP);
   bool f = kind == CUVK_SPIRV_FLOAT, s = kind == CUVK_SPIRV_SINT;
   SpvOp op;

   if (cmp == PTX_MOD_COUNT || in->dst_count < 1 || in->dst_count > 2 ||
       in->src_count != (bop == PTX_MOD_COUNT ? 2u : 3u) || kind == CUVK_SPIRV_BOOL)
      return 0;
   for (unsigned i = 0; i < in->mod_count; i++) {
      enum ptx_mod_class c = in->mods[i] < PTX_MOD_COUNT ? ptx_modifier_table[in->mods[i]].cls
                                                          : PTX_MODC_MODE;
      if (!ptx_modifier_is_type(in->mods[i]) && c != PTX_MODC_CMP && c != PTX_MODC_BOOLOP)
         return 0;
   }
   switch (cmp) {
   case PTX_MOD_EQ: op = f ? SpvOpFOrdEqual : SpvOpIEqual; break;
   case PTX_MOD_NE: op = f ? SpvOpFOrdNotEqual : SpvOpINotEqual; break;
   case PTX_MOD_LT: op = f ? SpvOpFOrdLessThan : s ? SpvOpSLessThan : SpvOpULessThan; break;
   case PTX_MOD_LE:
      op = f ? SpvOpFOrdLessThanEqual : s ? SpvOpSLessThanEqual : SpvOpULessThanEqual;
      break;
   case PTX_MOD_GT: op = f ? SpvOpFOrdGreaterThan : s ? SpvOpSGreaterThan : SpvOpUGreaterThan; break;
   case PTX_MOD_GE:
      op = f ? SpvOpFOrdGreaterThanEqual : s ? SpvOpSGreaterThanEqual : SpvOpUGreaterThanEqual;
      break;
   case PTX_MOD_LO: op = SpvOpULessThan; break;
   case PTX_MOD_LS: op = SpvOpULessThanEqual; break;
   case PTX_MOD_HI: op = SpvOpUGreaterThan; break;
   case PTX_MOD_HS: op = SpvOpUGreaterThanEqual; break;
   case PTX_MOD_EQU: op = SpvOpFUnordEqual; break;
   case PTX_MOD_NEU: op = SpvOpFUnordNotEqual; break;
   case PTX_MOD_LTU: op = SpvOpFUnordLessThan; break;
   case PTX_MOD_LEU: op = SpvOpFUnordLessThanEqual; break;
   case PTX_MOD_GTU: op = SpvOpFUnordGreaterThan; break;
   case PTX_MOD_GEU: op = SpvOpFUnordGreaterThanEqual; break;
   default: return 0;
   }
   if (!f && (cmp >= PTX_MOD_EQU))
      return 0;
   if (f && cmp >= PTX_MOD_LO && cmp <= PTX_MOD_HS)
      return 0;
   uint32_t t_bool = cuvk_spirv_type_bool(e);
   uint32_t a = cuvk_spirv_read(e, &in->src[0], kind, bits);
   uint32_t b = cuvk_spirv_read(e, &in->src[1], kind, bits);
   uint32_t r = cuvk_spirv_val(e, op, t_bool, a, b);
   uint32_t q = cuvk_spirv_val(e, SpvOpLogicalNot, t_bool, r);
   if (bop != PTX_MOD_COUNT) {
      SpvOp bo = bop == PTX_MOD_AND ? SpvOpLogicalAnd
                 : bop == PTX_MOD_OR ? SpvOpLogicalOr : SpvOpLogicalNotEqual;
      uint32_t c = cuvk_spirv_read(e, &in->src[2], CUVK_SPIRV_BOOL, 1);
      r = cuvk_spirv_val(e, bo, t_bool, r, c);
      q = cuvk_spirv_val(e, bo, t_bool, q, c);
   }
   cuvk_spirv_write(e, &in->dst[0], r, CUVK_SPIRV_BOOL, 1);
   if (in->dst_count == 2)
      cuvk_spirv_write(e, &in->dst[1], q, CUVK_SPIRV_BOOL, 1);
   return 1;
}

static int
lower_selp(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
           enum cuvk_spirv_kind kind, unsigned bits)
{
   if (!ONLY(in) || in->dst_count != 1 || in->src_count != 3)
      return 0;
   uint32_t a = cuvk_spirv_read(e, &in->src[0], kind, bits);
   uint32_t b = cuvk_spirv_read(e, &in->src[1], kind, bits);
   uint32_t c = cuvk_spirv_read(e, &in->src[2], CUVK_SPIRV_BOOL, 1);
   cuvk_spirv_write(e, &in->dst[0],
                    cuvk_spirv_val(e, SpvOpSelect, cuvk_spirv_type_of(e, kind, bits), c, a, b),
                    kind, bits);
   return 1;
}

static int
lower_cvt(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   enum cuvk_spirv_kind dk, sk;
   unsigned db, sb;

   if (in->dst_count != 1 || in->src_count != 1 ||
       !cuvk_spirv_ptx_kind(cuvk_spirv_type_mod(in, 0), &dk, &db) ||
       !cuvk_spirv_ptx_kind(cuvk_spirv_type_mod(in, 1), &sk, &sb))
      return 0;
   uint32_t a = cuvk_spirv_read(e, &in->src[0], sk, sb);
   uint32_t r;
   if (is_int(dk) && is_int(sk)) {
      if (!ONLY(in))
         return 0;
      r = cuvk_spirv_convert(e, a, sk, sb, dk, db);
   } else if (dk == CUVK_SPIRV_FLOAT && is_int(sk)) {
      if (!ONLY(in, PTX_MOD_RN) || !cuvk_spirv_has_mod(in, PTX_MOD_RN))
         return 0;
      r = cuvk_spirv_val(e, sk == CUVK_SPIRV_SINT ? SpvOpConvertSToF : SpvOpConvertUToF,
                         cuvk_spirv_type_float(e, db), a);
   } else if (dk == CUVK_SPIRV_FLOAT && sk == CUVK_SPIRV_FLOAT && db > sb) {
      /* Widening is exact. */
      if (!ONLY(in))
         return 0;
      r = cuvk_spirv_val(e, SpvOpFConvert, cuvk_spirv_type_float(e, db), a);
   } else {
      return 0;
   }
   cuvk_spirv_write(e, &in->dst[0], r, dk, db);
   return 1;
}

int
cuvk_spirv_lower_basic(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   enum cuvk_spirv_kind kind;
   unsigned bits;

   if (in->op == PTX_OP_CVT)
      return lower_cvt(e, in);
   if (!cuvk_spirv_ptx_kind(cuvk_spirv_type_mod(in, 0), &kind, &bits))
      return 0;
   switch (in->op) {
   case PTX_OP_MOV:
      return lower_mov(e, in, kind, bits);
   case PTX_OP_ADD:
   case PTX_OP_SUB:
   case PTX_OP_DIV:
   case PTX_OP_REM:
   case PTX_OP_AND:
   case PTX_OP_OR:
   case PTX_OP_XOR:
      return lower_binary(e, in, kind, bits);
   case PTX_OP_MUL:
      if (cuvk_spirv_has_mod(in, PTX_MOD_WIDE))
         return lower_wide(e, in, kind, bits);
      return lower_binary(e, in, kind, bits);
   case PTX_OP_MAD:
      if (cuvk_spirv_has_mod(in, PTX_MOD_WIDE))
         return lower_wide(e, in, kind, bits);
      return lower_mad(e, in, kind, bits);
   case PTX_OP_FMA:
      return kind == CUVK_SPIRV_FLOAT ? lower_mad(e, in, kind, bits) : 0;
   case PTX_OP_SHL:
   case PTX_OP_SHR:
      return lower_shift(e, in, kind, bits);
   case PTX_OP_NOT:
   case PTX_OP_NEG:
      return lower_not_neg(e, in, kind, bits);
   case PTX_OP_SETP:
      return lower_setp(e, in, kind, bits);
   case PTX_OP_SELP:
      return lower_selp(e, in, kind, bits);
   default:
      return 0;
   }
}
