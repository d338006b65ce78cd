/*
 * Floating-point lowering: arithmetic with PTX's rounding modes,
 * flush-to-zero and saturation, the approximate functions, min/max,
 * comparisons, testp, and cvt between every pair of types.
 *
 * Precision.  Vulkan guarantees correct rounding (to nearest even) for
 * f32 OpFAdd, OpFSub, OpFMul and conversions, but only 2.5 ulp for OpFDiv
 * and 3 ulp for sqrt, nothing for directed rounding, and lets Fma round
 * twice.  PTX promises correctly rounded div.rn, sqrt.rn, rcp.rn, fma and
 * every .rz/.rm/.rp.  These are built here from exact arithmetic in the
 * next wider format (f64 for f32, f32 for f16):
 *
 *   - the exact result is held as x + err in the wide format, err found
 *     by Knuth's TwoSum (exact for any rounding of the wide add); a product
 *     of two narrow numbers is exact in the wide format (24 + 24 <= 53,
 *     11 + 11 <= 24), so mul needs no err and fma is TwoSum(a*b, c);
 *   - a quotient or square root has no such form, but comparing it with a
 *     narrow candidate v is exact: a/b < v iff |a| < v*|b| and
 *     sqrt(a) < v iff a < v*v, since v*|b| and v*v (v with at most one
 *     bit more than the narrow format, a midpoint) fit the wide format;
 *   - a candidate from the device's own wide-to-narrow conversion is
 *     within one unit in the last place of the exact value, so the exact
 *     value lies in [lo, hi] of two neighbouring narrow numbers found with
 *     one comparison; the mode then picks lo or hi, nearest-even by
 *     comparing with their midpoint (exact in the wide format too).
 *
 * So the result never depends on how well the device divides or takes
 * square roots, only on its wide add, multiply and compare being exact
 * where the operands say they are (which Vulkan requires: correct
 * rounding of OpFAdd/OpFMul means exact when the result is
 * representable).  Without the wide format (f32 without shaderFloat64)
 * these instructions are refused rather than computed wrongly.
 *
 * f64 has no wider format: .rn f64 arithmetic is emitted as OpFAdd,
 * OpFMul, Fma, OpFDiv and Sqrt and relies on the device rounding f64
 * correctly (lavapipe and NVIDIA's Vulkan driver do; docs/compiler.md
 * says so); directed rounding on f64 steps the nearest result by one ulp
 * where the exact sign of its residual says (dir64_pick, fma64_round), and
 * fma.rn.f64 is rounded once the same way where Fma may round twice.
 *
 * Subnormals.  PTX keeps f32 subnormals unless .ftz is given; Vulkan's
 * default leaves it to the device (the emitter declares DenormPreserve
 * where the device supports it).  .ftz is done here with bit operations
 * on inputs and results, so it holds on every device.
 */
#include "compiler/spirv_lower_alu_priv.h"

uint64_t
alu_fsign(unsigned bits)
{
   return 1ull << (bits - 1);
}

uint64_t
alu_finf(unsigned bits)
{
   return bits == 16 ? 0x7c00u : bits == 32 ? 0x7f800000u : 0x7ff0000000000000ull;
}

uint64_t
alu_fmin_normal(unsigned bits)
{
   return bits == 16 ? 0x0400u : bits == 32 ? 0x00800000u : 0x0010000000000000ull;
}

uint64_t
alu_fnan(unsigned bits)
{
   /* What sm_90 writes for an invalid operation: all mantissa bits set. */
   return bits == 16 ? 0x7fffu : bits == 32 ? 0x7fffffffu : 0x7fffffffffffffffull;
}

static uint32_t
as_u(struct cuvk_spirv_emitter *e, uint32_t x, unsigned bits)
{
   return alu_bitcast(e, alu_u(e, bits), x);
}

static uint32_t
as_f(struct cuvk_spirv_emitter *e, uint32_t x, unsigned bits)
{
   return alu_bitcast(e, alu_f(e, bits), x);
}

/* |x| as bits. */
static uint32_t
mag_bits(struct cuvk_spirv_emitter *e, uint32_t x, unsigned bits)
{
   return cuvk_spirv_val(e, SpvOpBitwiseAnd, alu_u(e, bits), as_u(e, x, bits),
                         alu_cu(e, bits, alu_fsign(bits) - 1));
}

uint32_t
alu_flush(struct cuvk_spirv_emitter *e, uint32_t x, unsigned bits)
{
   uint32_t u = alu_u(e, bits);
   uint32_t xb = as_u(e, x, bits);
   uint32_t sub = cuvk_spirv_val(e, SpvOpULessThan, alu_b(e), mag_bits(e, x, bits),
                                 alu_cu(e, bits, alu_fmin_normal(bits)));
   uint32_t z = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, xb, alu_cu(e, bits, alu_fsign(bits)));
   return as_f(e, alu_sel(e, u, sub, z, xb), bits);
}

uint32_t
alu_isnan(struct cuvk_spirv_emitter *e, uint32_t x, unsigned bits)
{
   return cuvk_spirv_val(e, SpvOpUGreaterThan, alu_b(e), mag_bits(e, x, bits),
                         alu_cu(e, bits, alu_finf(bits)));
}

static uint32_t
is_zero(struct cuvk_spirv_emitter *e, uint32_t x, unsigned bits)
{
   return cuvk_spirv_val(e, SpvOpIEqual, alu_b(e), mag_bits(e, x, bits), alu_cu(e, bits, 0));
}

static uint32_t
sign_set(struct cuvk_spirv_emitter *e, uint32_t x, unsigned bits)
{
   return cuvk_spirv_val(e, SpvOpINotEqual, alu_b(e),
                         cuvk_spirv_val(e, SpvOpBitwiseAnd, alu_u(e, bits), as_u(e, x, bits),
                                        alu_cu(e, bits, alu_fsign(bits))),
                         alu_cu(e, bits, 0));
}

/* The neighbour of x towards +inf (up) or -inf, by its bits: zeros step
 * to the smallest subnormal of the direction's sign. */
static uint32_t
next_after(struct cuvk_spirv_emitter *e, uint32_t x, unsigned bits, bool up)
{
   uint32_t u = alu_u(e, bits);
   uint32_t xb = as_u(e, x, bits);
   uint32_t inc = cuvk_spirv_val(e, SpvOpIAdd, u, xb, alu_cu(e, bits, 1));
   uint32_t dec = cuvk_spirv_val(e, SpvOpISub, u, xb, alu_cu(e, bits, 1));
   uint32_t neg = sign_set(e, x, bits);
   /* Away from zero is +1 on the bits. */
   uint32_t r = up ? alu_sel(e, u, neg, dec, inc) : alu_sel(e, u, neg, inc, dec);
   uint32_t tiny = alu_cu(e, bits, up ? 1 : alu_fsign(bits) | 1);
   return as_f(e, alu_sel(e, u, is_zero(e, x, bits), tiny, r), bits);
}

/*
 * f16 conversions by the bits.  A device without
 * shaderDenormPreserveFloat16 may flush f16 subnormals in any instruction
 * that takes or gives an f16 value, OpFConvert included (NVIDIA's Vulkan
 * driver does: compiler.alu.run on an H100 got zeros for every f32 -> f16
 * conversion below 2^-14).  So every conversion between f16 and a
 * wider float is integer work on the bits, which no float mode touches;
 * the f32 side of it is always a normal number, since the smallest f16
 * subnormal is 2^-24.
 */
static bool
f16_by_bits(struct cuvk_spirv_emitter *e)
{
   /* Nor is a device that reports shaderDenormPreserveFloat16 to be
    * trusted with OpFConvert to f16: NVIDIA's driver (580, H100) does,
    * and compiler.alu.run still found 43,058 mismatches there, directed
    * roundings near and below 2^-14 coming back rounded to nearest
    * (cvt.rm.f16.f32 of -4.16 * 2^-24 gave -4 * 2^-24), where the bits
    * gave none.  So always on the bits. */
   (void)e;
   return true;
}

/* f16 value h to f32 or f64, exactly.  Normals and infinities rebias the
 * exponent; a subnormal m * 2^-24 is ConvertUToF(m) * 2^-24, a normal f32
 * product with no rounding; a NaN keeps its payload, quieted. */
static uint32_t
f16_bits_to_f32(struct cuvk_spirv_emitter *e, uint32_t hb)
{
   uint32_t u = alu_u(e, 32), bo = alu_b(e);
   uint32_t sign = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u,
                                  cuvk_spirv_val(e, SpvOpBitwiseAnd, u, hb, alu_cu(e, 32, 0x8000)),
                                  alu_cu(e, 32, 16));
   uint32_t m = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, hb, alu_cu(e, 32, 0x7fff));
   uint32_t m13 = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, m, alu_cu(e, 32, 13));
   /* (e16 + 112) << 23 is the f32 exponent of a normal f16. */
   uint32_t normal = cuvk_spirv_val(e, SpvOpIAdd, u, m13, alu_cu(e, 32, 112u << 23));
   uint32_t special = cuvk_spirv_val(e, SpvOpBitwiseOr, u, m13, alu_cu(e, 32, 0x7f800000u));
   uint32_t nan = cuvk_spirv_val(e, SpvOpUGreaterThan, bo, m, alu_cu(e, 32, 0x7c00));
   special = alu_sel(e, u, nan, cuvk_spirv_val(e, SpvOpBitwiseOr, u, special,
                                                alu_cu(e, 32, 0x00400000u)), special);
   uint32_t sub = alu_bitcast(e, u, cuvk_spirv_val(e, SpvOpFMul, alu_f(e, 32),
                                                   cuvk_spirv_val(e, SpvOpConvertUToF,
                                                                  alu_f(e, 32), m),
                                                   alu_cf(e, 32, 0x33800000u)));  /* 2^-24 */
   uint32_t r = alu_sel(e, u, cuvk_spirv_val(e, SpvOpULessThan, bo, m, alu_cu(e, 32, 0x400)),
                        sub, normal);
   r = alu_sel(e, u, cuvk_spirv_val(e, SpvOpUGreaterThanEqual, bo, m, alu_cu(e, 32, 0x7c00)),
               special, r);
   return alu_bitcast(e, alu_f(e, 32), cuvk_spirv_val(e, SpvOpBitwiseOr, u, r, sign));
}

static uint32_t
f16_widen_bits(struct cuvk_spirv_emitter *e, uint32_t h, unsigned to)
{
   uint32_t hb = cuvk_spirv_val(e, SpvOpUConvert, alu_u(e, 32), alu_bitcast(e, alu_u(e, 16), h));
   uint32_t r = f16_bits_to_f32(e, hb);
   /* f32 to f64 is exact, and r is a normal number or zero. */
   return to == 64 ? cuvk_spirv_val(e, SpvOpFConvert, alu_f(e, 64), r) : r;
}

/* f32 or f64 value x rounded to f16 in mode, on the bits.  The source's
 * significand (with its implicit bit) is shifted right so that its last
 * kept bit is the f16 quantum at this magnitude (2^-24 for subnormals);
 * the bits shifted out decide the rounding, which may carry into the
 * exponent, up to infinity, as IEEE wants.  An f64 is read as two words:
 * its top 21 mantissa bits and one sticky bit for the 31 below, which
 * decide every rounding the same way (they lie below the half-quantum
 * bit), so no 64-bit integer is needed.  NaN gives 0x7fff, as on sm_90. */
static uint32_t
f16_narrow_u32(struct cuvk_spirv_emitter *e, uint32_t x, unsigned from, enum alu_round mode)
{
   uint32_t u = alu_u(e, 32), bo = alu_b(e);
   uint32_t hi, mant, sticky = 0;
   unsigned E, B;   /* mantissa bits kept in mant, exponent bias */

   if (from == 64) {
      uint32_t w = alu_bitcast(e, cuvk_spirv_type_vector(e, u, 2), x);
      uint32_t lo = cuvk_spirv_val(e, SpvOpCompositeExtract, u, w, 0);
      hi = cuvk_spirv_val(e, SpvOpCompositeExtract, u, w, 1);
      sticky = alu_sel(e, u, cuvk_spirv_val(e, SpvOpINotEqual, bo, lo, alu_cu(e, 32, 0)),
                       alu_cu(e, 32, 1), alu_cu(e, 32, 0));
      E = 21, B = 1023;
   } else {
      hi = as_u(e, x, 32);
      E = 23, B = 127;
   }
   unsigned ebits = from == 64 ? 20 : 23;   /* where hi's exponent starts */
   uint32_t neg = cuvk_spirv_val(e, SpvOpINotEqual, bo,
                                 cuvk_spirv_val(e, SpvOpBitwiseAnd, u, hi,
                                                alu_cu(e, 32, 0x80000000u)),
                                 alu_cu(e, 32, 0));
   uint32_t mag = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, hi, alu_cu(e, 32, 0x7fffffffu));
   uint32_t ex = cuvk_spirv_val(e, SpvOpShiftRightLogical, u, mag, alu_cu(e, 32, ebits));
   mant = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, mag, alu_cu(e, 32, (1u << ebits) - 1));
   if (from == 64)
      mant = cuvk_spirv_val(e, SpvOpBitwiseOr, u,
                            cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, mant, alu_cu(e, 32, 1)),
                            sticky);
   uint32_t sig = alu_sel(e, u, cuvk_spirv_val(e, SpvOpINotEqual, bo, ex, alu_cu(e, 32, 0)),
                          cuvk_spirv_val(e, SpvOpBitwiseOr, u, mant, alu_cu(e, 32, 1u << E)),
                          mant);
   /* A zero exponent field is exponent 1 - B without the implicit bit. */
   uint32_t lowexp = cuvk_spirv_glsl(e, GLSLstd450UMax, u, ex, alu_cu(e, 32, 1));
   uint32_t normal = cuvk_spirv_val(e, SpvOpUGreaterThanEqual, bo, lowexp, alu_cu(e, 32, B - 14));
   /* Below 2^-14 every binade shifts one more bit out; past 12 more the
    * significand is below half a quantum anyway (sig < 2^(E+1)). */
   uint32_t under = alu_sel(e, u, normal, alu_cu(e, 32, 0),
                            cuvk_spirv_val(e, SpvOpISub, u, alu_cu(e, 32, B - 14), lowexp));
   under = cuvk_spirv_glsl(e, GLSLstd450UMin, u, under, alu_cu(e, 32, 12));
   uint32_t shift = cuvk_spirv_val(e, SpvOpIAdd, u, under, alu_cu(e, 32, E - 10));
   uint32_t q = cuvk_spirv_val(e, SpvOpShiftRightLogical, u, sig, shift);
   uint32_t one_at = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, alu_cu(e, 32, 1), shift);
   uint32_t rem = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, sig,
                                 cuvk_spirv_val(e, SpvOpISub, u, one_at, alu_cu(e, 32, 1)));
   uint32_t half = cuvk_spirv_val(e, SpvOpShiftRightLogical, u, one_at, alu_cu(e, 32, 1));
   uint32_t inexact = cuvk_spirv_val(e, SpvOpINotEqual, bo, rem, alu_cu(e, 32, 0));
   uint32_t pos = cuvk_spirv_val(e, SpvOpLogicalNot, bo, neg);
   uint32_t up;
   switch (mode) {
   case ALU_RN: {
      uint32_t odd = cuvk_spirv_val(e, SpvOpINotEqual, bo,
                                    cuvk_spirv_val(e, SpvOpBitwiseAnd, u, q, alu_cu(e, 32, 1)),
                                    alu_cu(e, 32, 0));
      up = cuvk_spirv_val(e, SpvOpLogicalOr, bo,
                          cuvk_spirv_val(e, SpvOpUGreaterThan, bo, rem, half),
                          cuvk_spirv_val(e, SpvOpLogicalAnd, bo,
                                         cuvk_spirv_val(e, SpvOpIEqual, bo, rem, half), odd));
      break;
   }
   case ALU_RZ: up = cuvk_spirv_const_bool(e, false); break;
   case ALU_RM: up = cuvk_spirv_val(e, SpvOpLogicalAnd, bo, inexact, neg); break;
   default: up = cuvk_spirv_val(e, SpvOpLogicalAnd, bo, inexact, pos); break;
   }
   /* A normal's implicit bit in q adds one to the exponent field. */
   uint32_t base = alu_sel(e, u, normal,
                           cuvk_spirv_val(e, SpvOpShiftLeftLogical, u,
                                          cuvk_spirv_val(e, SpvOpISub, u, lowexp,
                                                         alu_cu(e, 32, B - 14)),
                                          alu_cu(e, 32, 10)),
                           alu_cu(e, 32, 0));
   uint32_t r = cuvk_spirv_val(e, SpvOpIAdd, u, cuvk_spirv_val(e, SpvOpIAdd, u, base, q),
                               alu_sel(e, u, up, alu_cu(e, 32, 1), alu_cu(e, 32, 0)));
   /* |x| >= 2^16 (infinity included): the largest finite number or
    * infinity, as the mode rounds past it. */
   uint32_t big = cuvk_spirv_val(e, SpvOpUGreaterThanEqual, bo, ex, alu_cu(e, 32, B + 16));
   uint32_t inf = alu_cu(e, 32, 0x7c00), maxf = alu_cu(e, 32, 0x7bff), ovf;
   switch (mode) {
   case ALU_RN: ovf = inf; break;
   case ALU_RZ: ovf = maxf; break;
   case ALU_RM: ovf = alu_sel(e, u, neg, inf, maxf); break;
   default: ovf = alu_sel(e, u, neg, maxf, inf); break;
   }
   r = alu_sel(e, u, big, ovf, r);
   uint32_t exmax = alu_cu(e, 32, from == 64 ? 0x7ff : 0xff);
   uint32_t special = cuvk_spirv_val(e, SpvOpIEqual, bo, ex, exmax);
   uint32_t isnan = cuvk_spirv_val(e, SpvOpLogicalAnd, bo, special,
                                   cuvk_spirv_val(e, SpvOpINotEqual, bo, mant, alu_cu(e, 32, 0)));
   r = alu_sel(e, u, special, inf, r);
   r = cuvk_spirv_val(e, SpvOpBitwiseOr, u, r,
                      alu_sel(e, u, neg, alu_cu(e, 32, 0x8000), alu_cu(e, 32, 0)));
   return alu_sel(e, u, isnan, alu_cu(e, 32, alu_fnan(16)), r);
}

static uint32_t
f16_narrow_bits(struct cuvk_spirv_emitter *e, uint32_t x, unsigned from, enum alu_round mode)
{
   uint32_t r = f16_narrow_u32(e, x, from, mode);
   return alu_bitcast(e, alu_f(e, 16), cuvk_spirv_val(e, SpvOpUConvert, alu_u(e, 16), r));
}

/* Float to float of another width; to f16 rounds to nearest even.  On the
 * bits where f16 subnormals may be flushed (above). */
static uint32_t
fconvert(struct cuvk_spirv_emitter *e, uint32_t x, unsigned to, unsigned from)
{
   if (to == from)
      return x;
   if ((to == 16 || from == 16) && f16_by_bits(e))
      return from == 16 ? f16_widen_bits(e, x, to) : f16_narrow_bits(e, x, from, ALU_RN);
   return cuvk_spirv_val(e, SpvOpFConvert, alu_f(e, to), x);
}

static uint32_t
nocontract(struct cuvk_spirv_emitter *e, uint32_t id)
{
   cuvk_spirv_decorate(e, id, SpvDecorationNoContraction, NULL, 0);
   return id;
}

/* x op y in the wide format, never fused with anything. */
static uint32_t
wop(struct cuvk_spirv_emitter *e, SpvOp op, unsigned bits, uint32_t x, uint32_t y)
{
   return nocontract(e, cuvk_spirv_val(e, op, alu_f(e, bits), x, y));
}

/* The exact value of an operation, as the rounding below consults it. */
enum exact_kind {
   EXACT_SUM,     /* x + err, |err| <= half an ulp of x (err 0: x alone) */
   EXACT_QUOT,    /* a / b for a, b >= 0 */
   EXACT_SQRT,    /* sqrt(a) for a >= 0 */
   /* f64 with no wider format: the sign of a residual, exactly, by
    * error-free transformations (exact_cmp64). */
   EXACT_QUOT64,  /* a / b, a and b positive, finite and nonzero (ok) */
   EXACT_SQRT64,  /* sqrt(a), a positive and finite (ok) */
   EXACT_PROD64,  /* a * b, a and b positive, finite and nonzero (ok) */
};

struct exact {
   enum exact_kind kind;
   unsigned wbits;              /* the wide format */
   uint32_t x, err;             /* SUM (err may be 0: no error term) */
   uint32_t a, b;               /* QUOT, SQRT, and the 64-bit kinds */
   uint32_t ok;                 /* 64-bit kinds: the operands are as said (else exact) */
};

static void exact_cmp64(struct cuvk_spirv_emitter *e, const struct exact *x, uint32_t v,
                        uint32_t *lt, uint32_t *gt);

/* Compares the exact value with v (wide): *lt when exact < v, *gt when
 * exact > v; neither when equal or NaN. */
static void
exact_cmp(struct cuvk_spirv_emitter *e, const struct exact *x, uint32_t v, uint32_t *lt,
          uint32_t *gt)
{
   uint32_t bo = alu_b(e);
   unsigned w = x->wbits;
   uint32_t lhs, rhs;

   if (x->kind >= EXACT_QUOT64) {
      exact_cmp64(e, x, v, lt, gt);
      return;
   }
   switch (x->kind) {
   case EXACT_SUM:
      lhs = x->x, rhs = v;
      break;
   case EXACT_QUOT:
      lhs = x->a, rhs = wop(e, SpvOpFMul, w, v, x->b);
      break;
   default:
      lhs = x->a, rhs = wop(e, SpvOpFMul, w, v, v);
      break;
   }
   *lt = cuvk_spirv_val(e, SpvOpFOrdLessThan, bo, lhs, rhs);
   *gt = cuvk_spirv_val(e, SpvOpFOrdGreaterThan, bo, lhs, rhs);
   if (x->kind == EXACT_SUM && x->err) {
      uint32_t eq = cuvk_spirv_val(e, SpvOpFOrdEqual, bo, lhs, rhs);
      uint32_t zero = alu_cf(e, w, 0);
      uint32_t en = cuvk_spirv_val(e, SpvOpFOrdLessThan, bo, x->err, zero);
      uint32_t ep = cuvk_spirv_val(e, SpvOpFOrdGreaterThan, bo, x->err, zero);
      *lt = cuvk_spirv_val(e, SpvOpLogicalOr, bo, *lt, cuvk_spirv_val(e, SpvOpLogicalAnd, bo, eq, en));
      *gt = cuvk_spirv_val(e, SpvOpLogicalOr, bo, *gt, cuvk_spirv_val(e, SpvOpLogicalAnd, bo, eq, ep));
   }
}

/* A narrow value as the wide format sees it; infinities stand for
 * 2^(emax + 1), the value past the largest finite number, so that the
 * midpoint with it is where round-to-nearest overflows. */
static uint32_t
widen_for_mid(struct cuvk_spirv_emitter *e, uint32_t v, unsigned nbits, unsigned wbits)
{
   uint32_t vw = fconvert(e, v, wbits, nbits);
   uint64_t past = nbits == 16 ? (wbits == 32 ? 0x47800000u : 0x40f0000000000000ull)
                               : 0x47f0000000000000ull;  /* 2^16, 2^128 */
   uint32_t inf = cuvk_spirv_val(e, SpvOpIEqual, alu_b(e), mag_bits(e, v, nbits),
                                 alu_cu(e, nbits, alu_finf(nbits)));
   uint32_t big = alu_sel(e, alu_f(e, wbits), sign_set(e, v, nbits),
                          alu_cf(e, wbits, past | alu_fsign(wbits)), alu_cf(e, wbits, past));
   return alu_sel(e, alu_f(e, wbits), inf, big, vw);
}

/* The exact value rounded to nbits in mode, from a candidate f within
 * one ulp of it (see the top of the file). */
static uint32_t
round_fix(struct cuvk_spirv_emitter *e, const struct exact *x, uint32_t f, unsigned nbits,
          enum alu_round mode)
{
   uint32_t bo = alu_b(e), nt = alu_f(e, nbits);
   unsigned w = x->wbits;
   uint32_t lt, gt;

   exact_cmp(e, x, fconvert(e, f, w, nbits), &lt, &gt);
   uint32_t lo = alu_sel(e, nt, gt, f, next_after(e, f, nbits, false));
   uint32_t hi = alu_sel(e, nt, gt, next_after(e, f, nbits, true), f);
   uint32_t r;

   switch (mode) {
   case ALU_RM:
      r = lo;
      break;
   case ALU_RP:
      r = hi;
      break;
   case ALU_RZ:
      /* The exact value is positive when lo is (lo >= 0, or the exact
       * value was above f >= 0). */
      r = alu_sel(e, nt, cuvk_spirv_val(e, SpvOpLogicalNot, bo, sign_set(e, lo, nbits)), lo, hi);
      break;
   default: {
      uint32_t m = wop(e, SpvOpFMul, w,
                       wop(e, SpvOpFAdd, w, widen_for_mid(e, lo, nbits, w),
                           widen_for_mid(e, hi, nbits, w)),
                       alu_cf(e, w, w == 64 ? 0x3fe0000000000000ull : 0x3f000000u));
      uint32_t mlt, mgt;
      exact_cmp(e, x, m, &mlt, &mgt);
      uint32_t lo_even = cuvk_spirv_val(e, SpvOpIEqual, bo,
                                        cuvk_spirv_val(e, SpvOpBitwiseAnd, alu_u(e, nbits),
                                                       as_u(e, lo, nbits), alu_cu(e, nbits, 1)),
                                        alu_cu(e, nbits, 0));
      r = alu_sel(e, nt, lo_even, lo, hi);
      r = alu_sel(e, nt, mgt, hi, r);
      r = alu_sel(e, nt, mlt, lo, r);
      break;
   }
   }
   /* Exact (or NaN): f itself. */
   uint32_t off = cuvk_spirv_val(e, SpvOpLogicalOr, bo, lt, gt);
   return alu_sel(e, nt, off, r, f);
}

/* TwoSum: s + t == x + y exactly, s the rounded sum (Knuth). */
static void
two_sum(struct cuvk_spirv_emitter *e, unsigned w, uint32_t x, uint32_t y, uint32_t *s,
        uint32_t *t)
{
   *s = wop(e, SpvOpFAdd, w, x, y);
   uint32_t bv = wop(e, SpvOpFSub, w, *s, x);
   uint32_t av = wop(e, SpvOpFSub, w, *s, bv);
   *t = wop(e, SpvOpFAdd, w, wop(e, SpvOpFSub, w, x, av), wop(e, SpvOpFSub, w, y, bv));
}

/* Dekker's exact product: p + err == a * b, p the rounded product, by
 * Veltkamp's split (each half 26 bits, so the partial products are
 * exact); needs |a|, |b| below 2^995 and a product above 2^-969. */
static void
two_prod64(struct cuvk_spirv_emitter *e, uint32_t a, uint32_t b, uint32_t *p, uint32_t *err)
{
   uint32_t hl[2][2];
   uint32_t x[2] = { a, b };
   for (unsigned i = 0; i < 2; i++) {
      uint32_t t = wop(e, SpvOpFMul, 64, x[i], alu_cf(e, 64, 0x41a0000002000000ull));  /* 2^27+1 */
      hl[i][0] = wop(e, SpvOpFSub, 64, t, wop(e, SpvOpFSub, 64, t, x[i]));
      hl[i][1] = wop(e, SpvOpFSub, 64, x[i], hl[i][0]);
   }
   *p = wop(e, SpvOpFMul, 64, a, b);
   uint32_t t = wop(e, SpvOpFSub, 64, wop(e, SpvOpFMul, 64, hl[0][0], hl[1][0]), *p);
   t = wop(e, SpvOpFAdd, 64, t, wop(e, SpvOpFMul, 64, hl[0][0], hl[1][1]));
   t = wop(e, SpvOpFAdd, 64, t, wop(e, SpvOpFMul, 64, hl[0][1], hl[1][0]));
   *err = wop(e, SpvOpFAdd, 64, t, wop(e, SpvOpFMul, 64, hl[0][1], hl[1][1]));
}

/* fma.rn.f64 with one rounding.  GLSL's Fma may round twice (lavapipe's
 * f64 Fma does: measured by compiler.run.alu_float), and there is no wider
 * format, so Boldo and Melquiond's emulation ("Emulation of FMA and
 * correctly rounded sums: proved algorithms using rounding to odd", 2008):
 * (uh, ul) = a * b exactly, (th, tl) = TwoSum(c, uh), v = tl + ul rounded
 * to odd, result = th + v rounded to nearest.  Valid where the split is
 * exact (|a|, |b| < 2^995, |c| < 2^1000, a product between 2^-969 and
 * 2^1020): fma64_round scales the operands into that range. */
static uint32_t
fma64_core(struct cuvk_spirv_emitter *e, uint32_t a, uint32_t b, uint32_t c)
{
   uint32_t u = alu_u(e, 64), bo = alu_b(e);
   uint32_t uh, ul, th, tl, v, ve;

   two_prod64(e, a, b, &uh, &ul);
   two_sum(e, 64, c, uh, &th, &tl);
   two_sum(e, 64, tl, ul, &v, &ve);
   /* Round to odd: an inexact v with an even last bit moves one step
    * towards the exact sum, onto its odd neighbour. */
   uint32_t vb = as_u(e, v, 64);
   uint32_t inexact = cuvk_spirv_val(e, SpvOpFOrdNotEqual, bo, ve, alu_cf(e, 64, 0));
   uint32_t even = cuvk_spirv_val(e, SpvOpIEqual, bo,
                                  cuvk_spirv_val(e, SpvOpBitwiseAnd, u, vb, alu_cu(e, 64, 1)),
                                  alu_cu(e, 64, 0));
   uint32_t away = cuvk_spirv_val(e, SpvOpLogicalEqual, bo, sign_set(e, v, 64),
                                  sign_set(e, ve, 64));
   uint32_t step = alu_sel(e, u, away, cuvk_spirv_val(e, SpvOpIAdd, u, vb, alu_cu(e, 64, 1)),
                           cuvk_spirv_val(e, SpvOpISub, u, vb, alu_cu(e, 64, 1)));
   uint32_t vo = as_f(e, alu_sel(e, u, cuvk_spirv_val(e, SpvOpLogicalAnd, bo, inexact, even),
                                 step, vb), 64);
   return wop(e, SpvOpFAdd, 64, th, vo);
}

static bool
parse_round(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, enum alu_round *mode,
            bool *given)
{
   *mode = ALU_RN;
   *given = false;
   for (unsigned i = 0; i < in->mod_count; i++) {
      switch (in->mods[i]) {
      case PTX_MOD_RN: *mode = ALU_RN; *given = true; break;
      case PTX_MOD_RZ: *mode = ALU_RZ; *given = true; break;
      case PTX_MOD_RM: *mode = ALU_RM; *given = true; break;
      case PTX_MOD_RP: *mode = ALU_RP; *given = true; break;
      case PTX_MOD_RNA: case PTX_MOD_RS:
         return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "%s: rounding %s is not translated",
                                alu_name(in), ptx_modifier_table[in->mods[i]].name);
      default:
         break;
      }
   }
   return true;
}

/* The wide format for exact arithmetic on nbits, or 0 when the device
 * has none. */
static unsigned
wide_of(struct cuvk_spirv_emitter *e, unsigned nbits)
{
   if (nbits == 16)
      return 32;
   if (nbits == 32 && cuvk_spirv_target(e)->float64)
      return 64;
   return 0;
}

/* [0, 1], NaN to +0 (.sat).  On the bits, so that a subnormal stays
 * itself on a device that flushes it in comparisons. */
static uint32_t
saturate(struct cuvk_spirv_emitter *e, uint32_t x, unsigned bits)
{
   uint32_t u = alu_u(e, bits), bo = alu_b(e);
   uint64_t one = bits == 16 ? 0x3c00u : bits == 32 ? 0x3f800000u : 0x3ff0000000000000ull;
   uint32_t m = mag_bits(e, x, bits);
   uint32_t zero = cuvk_spirv_val(e, SpvOpLogicalOr, bo, sign_set(e, x, bits),
                                  cuvk_spirv_val(e, SpvOpUGreaterThan, bo, m,
                                                 alu_cu(e, bits, alu_finf(bits))));
   uint32_t r = alu_sel(e, u, cuvk_spirv_val(e, SpvOpUGreaterThanEqual, bo, m, alu_cu(e, bits, one)),
                        alu_cu(e, bits, one), as_u(e, x, bits));
   return as_f(e, alu_sel(e, u, zero, alu_cu(e, bits, 0), r), bits);
}

/* The result's common tail: .sat, then .ftz on the result. */
static uint32_t
finish(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, uint32_t r, unsigned bits)
{
   if (alu_has(in, PTX_MOD_FTZ))
      r = alu_flush(e, r, bits);
   if (alu_has(in, PTX_MOD_SAT))
      r = saturate(e, r, bits);
   return r;
}

static uint32_t
read_f(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, unsigned i, unsigned bits)
{
   uint32_t v = alu_read(e, in, i, CUVK_SPIRV_FLOAT, bits);
   return alu_has(in, PTX_MOD_FTZ) ? alu_flush(e, v, bits) : v;
}

/* add/sub.rz/.rm/.rp.f64: there is no wider format, but TwoSum gives
 * the sum's error exactly in f64 itself, which is all round_fix needs.
 * Two cases it cannot see: an overflow (the rounded sum is infinite and
 * the error NaN), which rounds to the largest finite number unless the
 * mode rounds away from zero on that side, and an exact zero, which is -0
 * when rounding down unless both addends are +0.  (A device that flushes
 * f64 subnormals, lacking shaderDenormPreserveFloat64, gets those wrong
 * here as it does in add.rn.f64.) */
static uint32_t
add64_directed(struct cuvk_spirv_emitter *e, uint32_t a, uint32_t b, bool sub, enum alu_round mode)
{
   uint32_t bo = alu_b(e), ft = alu_f(e, 64);
   struct exact x = { .kind = EXACT_SUM, .wbits = 64 };

   if (sub)
      b = cuvk_spirv_val(e, SpvOpFNegate, ft, b);
   two_sum(e, 64, a, b, &x.x, &x.err);
   uint32_t r = round_fix(e, &x, x.x, 64, mode);
   /* Overflow: infinite sum of finite addends. */
   uint32_t inf = alu_cu(e, 64, alu_finf(64));
   uint32_t fin_a = cuvk_spirv_val(e, SpvOpULessThan, bo, mag_bits(e, a, 64), inf);
   uint32_t fin_b = cuvk_spirv_val(e, SpvOpULessThan, bo, mag_bits(e, b, 64), inf);
   uint32_t ovf = cuvk_spirv_val(e, SpvOpLogicalAnd, bo,
                                 cuvk_spirv_val(e, SpvOpIEqual, bo, mag_bits(e, x.x, 64), inf),
                                 cuvk_spirv_val(e, SpvOpLogicalAnd, bo, fin_a, fin_b));
   uint32_t neg = sign_set(e, x.x, 64);
   /* RZ always stops at the largest finite number; RM on the positive
    * side, RP on the negative side. */
   uint32_t clamp = mode == ALU_RZ ? ovf
                    : cuvk_spirv_val(e, SpvOpLogicalAnd, bo, ovf,
                                     mode == ALU_RM ? cuvk_spirv_val(e, SpvOpLogicalNot, bo, neg) : neg);
   uint32_t maxv = alu_sel(e, ft, neg, alu_cf(e, 64, 0xffefffffffffffffull),
                           alu_cf(e, 64, 0x7fefffffffffffffull));
   r = alu_sel(e, ft, clamp, maxv, r);
   if (mode == ALU_RM) {
      uint32_t zsign = cuvk_spirv_val(e, SpvOpLogicalOr, bo, sign_set(e, a, 64), sign_set(e, b, 64));
      uint32_t z = cuvk_spirv_val(e, SpvOpLogicalAnd, bo, is_zero(e, r, 64), zsign);
      r = alu_sel(e, ft, z, alu_cf(e, 64, alu_fsign(64)), r);
   }
   return r;
}

/*
 * Directed rounding of f64 mul, div, rcp, sqrt and fma.  There is no wider
 * format, so the exact result is never formed; what is needed is only on
 * which side of a candidate v (the round-to-nearest result, or anything
 * within one ulp of the exact value) the exact value lies, and that is
 * the sign of a residual: a - v*b for a quotient, a - v*v for a square
 * root, v - a*b for a product, a*b + c - v for an fma.  Each residual is
 * computed exactly with what Vulkan promises for f64 (OpFAdd, OpFSub,
 * OpFMul correctly rounded; Fma is not trusted to be fused): Dekker's
 * product on significands scaled into [1, 2) by their exponents (taken
 * from the bits, so huge and subnormal operands alike), Sterbenz's lemma
 * or TwoSum for the differences.  The candidate then steps one ulp by its
 * bits where the mode says (dir64_pick on magnitudes, fma64_round on the
 * signed value).  Like add.rn.f64, this takes the device's f64
 * subnormals as IEEE says (lavapipe's and NVIDIA's are).
 */

/* x = m * 2^ex for a finite nonzero x: |m| in [1, 2) with x's sign, ex a
 * 32-bit two's complement integer.  A subnormal is scaled by 2^64 first
 * (exact).  For zero, infinity or NaN the results are finite nonsense,
 * which the callers select away. */
static void
f64_split(struct cuvk_spirv_emitter *e, uint32_t x, uint32_t *m, uint32_t *ex)
{
   uint32_t u = alu_u(e, 64), u32 = alu_u(e, 32), ft = alu_f(e, 64), bo = alu_b(e);
   uint32_t sub = cuvk_spirv_val(e, SpvOpULessThan, bo, mag_bits(e, x, 64),
                                 alu_cu(e, 64, alu_fmin_normal(64)));
   uint32_t xs = alu_sel(e, ft, sub, wop(e, SpvOpFMul, 64, x, alu_cf(e, 64, 0x43f0000000000000ull)),
                         x);   /* 2^64 */
   uint32_t b = as_u(e, xs, 64);
   uint32_t exf = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32,
                                 cuvk_spirv_val(e, SpvOpUConvert, u32,
                                                cuvk_spirv_val(e, SpvOpShiftRightLogical, u, b,
                                                               alu_cu(e, 64, 52))),
                                 alu_cu(e, 32, 0x7ff));
   *ex = cuvk_spirv_val(e, SpvOpISub, u32, exf,
                        alu_sel(e, u32, sub, alu_cu(e, 32, 1023 + 64), alu_cu(e, 32, 1023)));
   *m = as_f(e, cuvk_spirv_val(e, SpvOpBitwiseOr, u,
                               cuvk_spirv_val(e, SpvOpBitwiseAnd, u, b,
                                              alu_cu(e, 64, 0x800fffffffffffffull)),
                               alu_cu(e, 64, 0x3ff0000000000000ull)), 64);
}

/* 2^k for a 32-bit k in [-1022, 1023]. */
static uint32_t
f64_pow2(struct cuvk_spirv_emitter *e, uint32_t k)
{
   uint32_t u = alu_u(e, 64);
   uint32_t biased = cuvk_spirv_val(e, SpvOpUConvert, u,
                                    cuvk_spirv_val(e, SpvOpIAdd, alu_u(e, 32), k,
                                                   alu_cu(e, 32, 1023)));
   return as_f(e, cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, biased, alu_cu(e, 64, 52)), 64);
}

/* x * 2^k for a 32-bit k, in three steps of the same sign (each power
 * representable): the intermediate values lie between x and the result,
 * so the product is exact whenever the result is representable. */
static uint32_t
f64_scale(struct cuvk_spirv_emitter *e, uint32_t x, uint32_t k)
{
   uint32_t u32 = alu_u(e, 32);
   k = cuvk_spirv_glsl(e, GLSLstd450SClamp, u32, k, alu_cu(e, 32, (uint32_t)-2200),
                       alu_cu(e, 32, 2200));
   uint32_t k1 = cuvk_spirv_val(e, SpvOpSDiv, u32, k, alu_cu(e, 32, 3));
   uint32_t rest = cuvk_spirv_val(e, SpvOpISub, u32, k, k1);
   uint32_t k2 = cuvk_spirv_val(e, SpvOpSDiv, u32, rest, alu_cu(e, 32, 2));
   uint32_t k3 = cuvk_spirv_val(e, SpvOpISub, u32, rest, k2);
   x = wop(e, SpvOpFMul, 64, x, f64_pow2(e, k1));
   x = wop(e, SpvOpFMul, 64, x, f64_pow2(e, k2));
   return wop(e, SpvOpFMul, 64, x, f64_pow2(e, k3));
}

/* For positive, finite, nonzero A, x, y: *lt when A < x*y exactly, *gt
 * when A > x*y.  With A = mA 2^eA etc. the comparison is mA 2^k against
 * mx*my in [1, 4), k = eA - ex - ey; past k = +-2 the exponent alone
 * decides, so k is clamped there.  Dekker's product gives p + pe = mx*my
 * exactly (26-bit halves of numbers below 2); As - p is exact when below
 * 1/2 (both are multiples of 2^-54) and otherwise far larger than
 * |pe| <= 2^-52, so comparing the rounded As - p with pe is exact. */
static void
cmp_prod64(struct cuvk_spirv_emitter *e, uint32_t A, uint32_t x, uint32_t y, uint32_t *lt,
           uint32_t *gt)
{
   uint32_t u32 = alu_u(e, 32), bo = alu_b(e);
   uint32_t mA, eA, mx, ex, my, ey, p, pe;

   f64_split(e, A, &mA, &eA);
   f64_split(e, x, &mx, &ex);
   if (y == x)
      my = mx, ey = ex;
   else
      f64_split(e, y, &my, &ey);
   uint32_t k = cuvk_spirv_val(e, SpvOpISub, u32, cuvk_spirv_val(e, SpvOpISub, u32, eA, ex), ey);
   k = cuvk_spirv_glsl(e, GLSLstd450SClamp, u32, k, alu_cu(e, 32, (uint32_t)-2), alu_cu(e, 32, 2));
   uint32_t As = wop(e, SpvOpFMul, 64, mA, f64_pow2(e, k));
   two_prod64(e, mx, my, &p, &pe);
   uint32_t d = wop(e, SpvOpFSub, 64, As, p);
   *lt = cuvk_spirv_val(e, SpvOpFOrdLessThan, bo, d, pe);
   *gt = cuvk_spirv_val(e, SpvOpFOrdGreaterThan, bo, d, pe);
}

static uint32_t
finite_nonzero64(struct cuvk_spirv_emitter *e, uint32_t x)
{
   uint32_t bo = alu_b(e);
   uint32_t m = mag_bits(e, x, 64);
   return cuvk_spirv_val(e, SpvOpLogicalAnd, bo,
                         cuvk_spirv_val(e, SpvOpINotEqual, bo, m, alu_cu(e, 64, 0)),
                         cuvk_spirv_val(e, SpvOpULessThan, bo, m, alu_cu(e, 64, alu_finf(64))));
}

/* exact_cmp for the 64-bit kinds, v a positive candidate: 0 is below and
 * infinity above every value these operands give. */
static void
exact_cmp64(struct cuvk_spirv_emitter *e, const struct exact *x, uint32_t v, uint32_t *lt,
            uint32_t *gt)
{
   uint32_t bo = alu_b(e);
   uint32_t l, g;

   switch (x->kind) {
   case EXACT_QUOT64:   /* a/b < v iff a < v*b */
      cmp_prod64(e, x->a, v, x->b, &l, &g);
      break;
   case EXACT_SQRT64:   /* sqrt(a) < v iff a < v*v */
      cmp_prod64(e, x->a, v, v, &l, &g);
      break;
   default:             /* a*b < v iff v > a*b */
      cmp_prod64(e, v, x->a, x->b, &g, &l);
      break;
   }
   uint32_t m = mag_bits(e, v, 64);
   uint32_t vz = cuvk_spirv_val(e, SpvOpIEqual, bo, m, alu_cu(e, 64, 0));
   uint32_t vinf = cuvk_spirv_val(e, SpvOpIEqual, bo, m, alu_cu(e, 64, alu_finf(64)));
   l = cuvk_spirv_val(e, SpvOpLogicalOr, bo, vinf,
                      cuvk_spirv_val(e, SpvOpLogicalAnd, bo, cuvk_spirv_val(e, SpvOpLogicalNot, bo, vz),
                                     l));
   g = cuvk_spirv_val(e, SpvOpLogicalOr, bo, vz,
                      cuvk_spirv_val(e, SpvOpLogicalAnd, bo,
                                     cuvk_spirv_val(e, SpvOpLogicalNot, bo, vinf), g));
   *lt = cuvk_spirv_val(e, SpvOpLogicalAnd, bo, x->ok, l);
   *gt = cuvk_spirv_val(e, SpvOpLogicalAnd, bo, x->ok, g);
}

/* The directed rounding of a positive exact value (x) from q, the signed
 * round-to-nearest result: its magnitude f is within half an ulp (one
 * is enough), so the rounding towards zero is f or the number below and
 * away from zero f or the number above; RM and RP pick one by the
 * result's sign neg.  Where the value is exact (or the operands special:
 * zeros, infinities, NaN) q itself. */
static uint32_t
dir64_pick(struct cuvk_spirv_emitter *e, const struct exact *x, uint32_t q, uint32_t neg,
           enum alu_round mode)
{
   uint32_t bo = alu_b(e), ft = alu_f(e, 64), u = alu_u(e, 64), lt, gt;
   uint32_t f = as_f(e, mag_bits(e, q, 64), 64);

   exact_cmp(e, x, f, &lt, &gt);
   uint32_t lo = alu_sel(e, ft, gt, f, next_after(e, f, 64, false));
   uint32_t hi = alu_sel(e, ft, gt, next_after(e, f, 64, true), f);
   uint32_t away = mode == ALU_RZ ? cuvk_spirv_const_bool(e, false)
                   : mode == ALU_RM ? neg : cuvk_spirv_val(e, SpvOpLogicalNot, bo, neg);
   uint32_t r = as_u(e, alu_sel(e, ft, away, hi, lo), 64);
   r = alu_sel(e, u, neg, cuvk_spirv_val(e, SpvOpBitwiseOr, u, r, alu_cu(e, 64, alu_fsign(64))), r);
   return alu_sel(e, ft, cuvk_spirv_val(e, SpvOpLogicalOr, bo, lt, gt), as_f(e, r, 64), q);
}

/* The magnitudes of a and b as x's operands, exact only where both are
 * finite and nonzero; returns whether the result is negative (the signs
 * differ), for a quotient or a product. */
static uint32_t
exact_operands(struct cuvk_spirv_emitter *e, struct exact *x, uint32_t a, uint32_t b)
{
   uint32_t bo = alu_b(e);
   x->a = as_f(e, mag_bits(e, a, 64), 64);
   x->b = as_f(e, mag_bits(e, b, 64), 64);
   x->ok = cuvk_spirv_val(e, SpvOpLogicalAnd, bo, finite_nonzero64(e, a), finite_nonzero64(e, b));
   return cuvk_spirv_val(e, SpvOpLogicalNotEqual, bo, sign_set(e, a, 64), sign_set(e, b, 64));
}

/* div.rz/.rm/.rp.f64 (rcp: a = 1). */
static uint32_t
div64_directed(struct cuvk_spirv_emitter *e, uint32_t a, uint32_t b, enum alu_round mode)
{
   struct exact x = { .kind = EXACT_QUOT64, .wbits = 64 };
   uint32_t q = nocontract(e, cuvk_spirv_val(e, SpvOpFDiv, alu_f(e, 64), a, b));
   uint32_t neg = exact_operands(e, &x, a, b);
   return dir64_pick(e, &x, q, neg, mode);
}

/* sqrt.rz/.rm/.rp.f64: the result is positive, so RM is RZ. */
static uint32_t
sqrt64_directed(struct cuvk_spirv_emitter *e, uint32_t a, enum alu_round mode)
{
   uint32_t bo = alu_b(e);
   struct exact x = { .kind = EXACT_SQRT64, .wbits = 64, .a = a };
   uint32_t s = cuvk_spirv_glsl(e, GLSLstd450Sqrt, alu_f(e, 64), a);

   x.ok = cuvk_spirv_val(e, SpvOpLogicalAnd, bo, finite_nonzero64(e, a),
                         cuvk_spirv_val(e, SpvOpLogicalNot, bo, sign_set(e, a, 64)));
   return dir64_pick(e, &x, s, cuvk_spirv_const_bool(e, false), mode);
}

/* mul.rz/.rm/.rp.f64. */
static uint32_t
mul64_directed(struct cuvk_spirv_emitter *e, uint32_t a, uint32_t b, enum alu_round mode)
{
   struct exact x = { .kind = EXACT_PROD64, .wbits = 64 };
   uint32_t p = wop(e, SpvOpFMul, 64, a, b);
   uint32_t neg = exact_operands(e, &x, a, b);
   return dir64_pick(e, &x, p, neg, mode);
}

/* The sign of an expansion: its top nonzero component (Grow-Expansion
 * keeps the components nonoverlapping, in increasing magnitude). */
static uint32_t
expansion_sign(struct cuvk_spirv_emitter *e, const uint32_t *g, unsigned n)
{
   uint32_t ft = alu_f(e, 64), bo = alu_b(e), zero = alu_cf(e, 64, 0);
   uint32_t s = g[0];
   for (unsigned i = 1; i < n; i++)
      s = alu_sel(e, ft, cuvk_spirv_val(e, SpvOpFOrdEqual, bo, g[i], zero), s, g[i]);
   return s;
}

/* Shewchuk's Grow-Expansion: g[0..n] = h[0..n-1] + b exactly. */
static void
grow_expansion(struct cuvk_spirv_emitter *e, const uint32_t *h, unsigned n, uint32_t b, uint32_t *g)
{
   uint32_t q = b;
   for (unsigned i = 0; i < n; i++)
      two_sum(e, 64, q, h[i], &q, &g[i]);
   g[n] = q;
}

/* x * 2^k for the midpoint test, an infinite x standing for 2^1024 of
 * its sign (where round-to-nearest overflows). */
static uint32_t
f64_scale_mid(struct cuvk_spirv_emitter *e, uint32_t x, uint32_t k)
{
   uint32_t ft = alu_f(e, 64), bo = alu_b(e);
   uint32_t inf = cuvk_spirv_val(e, SpvOpIEqual, bo, mag_bits(e, x, 64), alu_cu(e, 64, alu_finf(64)));
   uint32_t top = alu_sel(e, ft, sign_set(e, x, 64), alu_cf(e, 64, 0xffe0000000000000ull),
                          alu_cf(e, 64, 0x7fe0000000000000ull));   /* +-2^1023 */
   uint32_t big = wop(e, SpvOpFMul, 64, f64_scale(e, top, k), alu_cf(e, 64, 0x4000000000000000ull));
   return alu_sel(e, ft, inf, big, f64_scale(e, x, k));
}

/*
 * fma.f64 rounded once in any mode, a*b + c, on devices whose Fma may
 * round twice.  With a = ma 2^ea, b = mb 2^eb (|ma|, |mb| in [1, 2)) and
 * E = ea + eb everything is scaled by 2^-E, which leaves the product
 * ma*mb in [1, 4), exact as ph + pl by Dekker, and c as C = c 2^-E.  Where
 * c's exponent is within 900 of E, C is exact and moderate, so is the
 * scaled candidate R = v 2^-E, and the sign of pl + ph + C - R, the
 * exact value against the candidate, is that of the top nonzero component
 * of the expansion Shewchuk's Grow-Expansion makes of the four terms
 * (TwoSums, never overflowing below 2^905).  c more than 2^900 above the
 * product: the product is far below c's last bit, the candidate is c and
 * the sign that of the product.  c more than 2^900 below it (or zero):
 * the sign of ph + pl - R, and where that is zero the sign of c.
 *
 * The candidate, within one ulp everywhere: fma64_core's one rounding on
 * the scaled operands (inside its exact range by construction; its result
 * is 0 or above 2^-952 there, never subnormal), scaled back by 2^E, which
 * rounds again only where the result is subnormal; c itself, or the
 * product rounded, in the two far cases.  The candidate and its
 * neighbour on the exact value's side bracket it: the directed modes
 * pick one; to nearest compares twice the exact value with their sum
 * (one more expansion, 2(pl + ph + C) - lo - hi, scaled), ties to the
 * even one.  Zeros, infinities and NaN operands are exact through the
 * device's Fma (one rounding of c + 0, or no number at all), except a
 * finite product plus an infinite c, which is c (the device's product
 * might overflow into inf - inf).
 */
static uint32_t
fma64_round(struct cuvk_spirv_emitter *e, uint32_t a, uint32_t b, uint32_t c, enum alu_round mode)
{
   uint32_t bo = alu_b(e), ft = alu_f(e, 64), u32 = alu_u(e, 32), u = alu_u(e, 64);
   uint32_t ma, ea, mb, eb, mc, ec, ph, pl;
   uint32_t zero = alu_cf(e, 64, 0), inf = alu_cu(e, 64, alu_finf(64));

   uint32_t cfin = cuvk_spirv_val(e, SpvOpULessThan, bo, mag_bits(e, c, 64), inf);
   uint32_t abfin = cuvk_spirv_val(e, SpvOpLogicalAnd, bo,
                                   cuvk_spirv_val(e, SpvOpULessThan, bo, mag_bits(e, a, 64), inf),
                                   cuvk_spirv_val(e, SpvOpULessThan, bo, mag_bits(e, b, 64), inf));
   uint32_t ok = cuvk_spirv_val(e, SpvOpLogicalAnd, bo,
                                cuvk_spirv_val(e, SpvOpLogicalAnd, bo, finite_nonzero64(e, a),
                                               finite_nonzero64(e, b)),
                                cfin);
   f64_split(e, a, &ma, &ea);
   f64_split(e, b, &mb, &eb);
   f64_split(e, c, &mc, &ec);
   (void)mc;
   uint32_t E = cuvk_spirv_val(e, SpvOpIAdd, u32, ea, eb);
   uint32_t negE = cuvk_spirv_val(e, SpvOpISub, u32, alu_cu(e, 32, 0), E);
   two_prod64(e, ma, mb, &ph, &pl);
   uint32_t cz = is_zero(e, c, 64);
   uint32_t d = cuvk_spirv_val(e, SpvOpISub, u32, ec, E);
   uint32_t c_huge = cuvk_spirv_val(e, SpvOpLogicalAnd, bo, cuvk_spirv_val(e, SpvOpLogicalNot, bo, cz),
                                    cuvk_spirv_val(e, SpvOpSGreaterThan, bo, d, alu_cu(e, 32, 900)));
   uint32_t c_tiny = cuvk_spirv_val(e, SpvOpLogicalOr, bo, cz,
                                    cuvk_spirv_val(e, SpvOpSLessThan, bo, d,
                                                   alu_cu(e, 32, (uint32_t)-900)));
   uint32_t C = alu_sel(e, ft, c_tiny, zero, f64_scale(e, c, negE));

   /* The candidate. */
   uint32_t mid = f64_scale(e, fma64_core(e, ma, mb, C), E);
   uint32_t v = alu_sel(e, ft, c_tiny, f64_scale(e, ph, E), mid);
   v = alu_sel(e, ft, c_huge, c, v);
   uint32_t special = alu_sel(e, ft, cuvk_spirv_val(e, SpvOpLogicalAnd, bo, abfin,
                                                     cuvk_spirv_val(e, SpvOpLogicalNot, bo, cfin)),
                              c, cuvk_spirv_glsl(e, GLSLstd450Fma, ft, a, b, c));
   v = alu_sel(e, ft, ok, v, special);

   /* The exact value against v: pl + ph + C - R. */
   uint32_t h[3], g[4], q;
   two_sum(e, 64, C, pl, &q, &h[0]);
   two_sum(e, 64, q, ph, &h[2], &h[1]);
   grow_expansion(e, h, 3, cuvk_spirv_val(e, SpvOpFNegate, ft, f64_scale(e, v, negE)), g);
   uint32_t s = expansion_sign(e, g, 4);
   /* c far below: the product's residual decides, else c's sign. */
   s = alu_sel(e, ft, cuvk_spirv_val(e, SpvOpLogicalAnd, bo, c_tiny,
                                     cuvk_spirv_val(e, SpvOpFOrdEqual, bo, s, zero)),
               c, s);
   /* c far above: the product's sign (v is c). */
   s = alu_sel(e, ft, c_huge, ph, s);
   uint32_t lt = cuvk_spirv_val(e, SpvOpFOrdLessThan, bo, s, zero);
   uint32_t gt = cuvk_spirv_val(e, SpvOpFOrdGreaterThan, bo, s, zero);
   /* An infinite candidate of finite operands: the exact value is below
    * +inf, above -inf. */
   uint32_t vinf = cuvk_spirv_val(e, SpvOpIEqual, bo, mag_bits(e, v, 64), inf);
   uint32_t vneg = sign_set(e, v, 64);
   lt = alu_sel(e, bo, vinf, cuvk_spirv_val(e, SpvOpLogicalNot, bo, vneg), lt);
   gt = alu_sel(e, bo, vinf, vneg, gt);
   lt = cuvk_spirv_val(e, SpvOpLogicalAnd, bo, ok, lt);
   gt = cuvk_spirv_val(e, SpvOpLogicalAnd, bo, ok, gt);

   uint32_t lo = alu_sel(e, ft, gt, v, next_after(e, v, 64, false));
   uint32_t hi = alu_sel(e, ft, gt, next_after(e, v, 64, true), v);
   uint32_t r;
   switch (mode) {
   case ALU_RM: r = lo; break;
   case ALU_RP: r = hi; break;
   case ALU_RZ:
      r = alu_sel(e, ft, cuvk_spirv_val(e, SpvOpLogicalNot, bo, sign_set(e, lo, 64)), lo, hi);
      break;
   default: {
      /* 2(pl + ph + C) - lo - hi against 0. */
      uint32_t two = alu_cf(e, 64, 0x4000000000000000ull);
      uint32_t h2[3], g4[4], g5[5];
      for (unsigned i = 0; i < 3; i++)
         h2[i] = wop(e, SpvOpFMul, 64, h[i], two);
      grow_expansion(e, h2, 3, cuvk_spirv_val(e, SpvOpFNegate, ft, f64_scale_mid(e, lo, negE)), g4);
      grow_expansion(e, g4, 4, cuvk_spirv_val(e, SpvOpFNegate, ft, f64_scale_mid(e, hi, negE)), g5);
      uint32_t sm = expansion_sign(e, g5, 5);
      sm = alu_sel(e, ft, cuvk_spirv_val(e, SpvOpLogicalAnd, bo, c_tiny,
                                         cuvk_spirv_val(e, SpvOpFOrdEqual, bo, sm, zero)),
                   c, sm);
      uint32_t lo_even = cuvk_spirv_val(e, SpvOpIEqual, bo,
                                        cuvk_spirv_val(e, SpvOpBitwiseAnd, u, as_u(e, lo, 64),
                                                       alu_cu(e, 64, 1)),
                                        alu_cu(e, 64, 0));
      r = alu_sel(e, ft, lo_even, lo, hi);
      r = alu_sel(e, ft, cuvk_spirv_val(e, SpvOpFOrdGreaterThan, bo, sm, zero), hi, r);
      r = alu_sel(e, ft, cuvk_spirv_val(e, SpvOpFOrdLessThan, bo, sm, zero), lo, r);
      /* c far above the product: c is the nearest. */
      r = alu_sel(e, ft, c_huge, v, r);
      break;
   }
   }
   uint32_t off = cuvk_spirv_val(e, SpvOpLogicalOr, bo, lt, gt);
   r = alu_sel(e, ft, off, r, v);
   if (mode == ALU_RM) {
      /* An exact zero is -0 when rounding down unless the product and c
       * are both +0 or positive (IEEE 754 6.3); the candidate's is the
       * nearest rounding's. */
      uint32_t zsign = cuvk_spirv_val(e, SpvOpLogicalOr, bo,
                                      cuvk_spirv_val(e, SpvOpLogicalNotEqual, bo, sign_set(e, a, 64),
                                                     sign_set(e, b, 64)),
                                      sign_set(e, c, 64));
      uint32_t z = cuvk_spirv_val(e, SpvOpLogicalAnd, bo,
                                  cuvk_spirv_val(e, SpvOpLogicalAnd, bo, is_zero(e, r, 64),
                                                 cuvk_spirv_val(e, SpvOpLogicalNot, bo, off)),
                                  zsign);
      r = alu_sel(e, ft, z, alu_cf(e, 64, alu_fsign(64)), r);
   }
   return r;
}

/* add, sub, mul, fma/mad: n operands (2 or 3). */
static int
lower_arith(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, unsigned bits)
{
   bool fma = in->op == PTX_OP_FMA || in->op == PTX_OP_MAD;
   unsigned n = fma ? 3 : 2;
   enum alu_round mode;
   bool given;
   uint32_t ft = alu_f(e, bits), v[3], r;

   if (in->dst_count != 1 || in->src_count != n)
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: expected %u sources", alu_name(in), n);
   if (!parse_round(e, in, &mode, &given))
      return -1;
   for (unsigned i = 0; i < n; i++)
      v[i] = read_f(e, in, i, bits);

   SpvOp op = in->op == PTX_OP_ADD ? SpvOpFAdd : in->op == PTX_OP_SUB ? SpvOpFSub : SpvOpFMul;
   if (mode == ALU_RN && !fma && !(bits == 16 && f16_by_bits(e))) {
      /* Correctly rounded in Vulkan.  Without a rounding modifier PTX lets
       * the compiler contract mul and add into fma, so only an explicit
       * .rn forbids it. */
      r = cuvk_spirv_val(e, op, ft, v[0], v[1]);
      if (given)
         nocontract(e, r);
   } else if (fma && mode == ALU_RN && bits != 16 && cuvk_spirv_target(e)->fma_fused) {
      r = cuvk_spirv_glsl(e, GLSLstd450Fma, ft, v[0], v[1], v[2]);
   } else if (bits == 64 && !fma && op != SpvOpFMul) {
      r = add64_directed(e, v[0], v[1], op == SpvOpFSub, mode);
   } else if (bits == 64 && !fma) {
      r = mul64_directed(e, v[0], v[1], mode);
   } else if (bits == 64) {
      r = fma64_round(e, v[0], v[1], v[2], mode);
   } else {
      unsigned w = wide_of(e, bits);
      if (!w)
         return alu_refuse(e, CUVK_CC_UNSUPPORTED, in, "%s: needs shaderFloat64 to round "
                           "correctly", alu_name(in));
      struct exact x = { .kind = EXACT_SUM, .wbits = w };
      uint32_t a = fconvert(e, v[0], w, bits), b = fconvert(e, v[1], w, bits);
      uint32_t zsign = 0;
      if (fma) {
         uint32_t p = wop(e, SpvOpFMul, w, a, b);     /* exact */
         two_sum(e, w, p, fconvert(e, v[2], w, bits), &x.x, &x.err);
         zsign = cuvk_spirv_val(e, SpvOpLogicalOr, alu_b(e), sign_set(e, p, w),
                                sign_set(e, v[2], bits));
      } else if (op == SpvOpFMul) {
         x.x = wop(e, SpvOpFMul, w, a, b);            /* exact */
      } else {
         two_sum(e, w, a, op == SpvOpFSub ? cuvk_spirv_val(e, SpvOpFNegate, alu_f(e, w), b) : b,
                 &x.x, &x.err);
         uint32_t bneg = sign_set(e, v[1], bits);
         if (op == SpvOpFSub)
            bneg = cuvk_spirv_val(e, SpvOpLogicalNot, alu_b(e), bneg);
         zsign = cuvk_spirv_val(e, SpvOpLogicalOr, alu_b(e), sign_set(e, v[0], bits), bneg);
      }
      r = round_fix(e, &x, fconvert(e, x.x, bits, w), bits, mode);
      if (zsign && mode == ALU_RM) {
         /* An exact zero sum is -0 when rounding down unless both addends
          * are +0 (IEEE 754 6.3); the wide add made it +0. */
         uint32_t z = cuvk_spirv_val(e, SpvOpLogicalAnd, alu_b(e), is_zero(e, r, bits), zsign);
         r = alu_sel(e, ft, z, alu_cf(e, bits, alu_fsign(bits)), r);
      }
   }
   cuvk_spirv_write(e, &in->dst[0], finish(e, in, r, bits), CUVK_SPIRV_FLOAT, bits);
   return 1;
}

/* a / b correctly rounded in mode (div.rn/.rz/.rm/.rp, div.full, rcp.rn):
 * on magnitudes, then the sign.  On a magnitude, rounding towards zero is
 * RZ and away from it RP; RM and RP pick one of them by the sign. */
static uint32_t
div_exact(struct cuvk_spirv_emitter *e, uint32_t a, uint32_t b, unsigned bits, unsigned w,
          enum alu_round mode)
{
   uint32_t u = alu_u(e, bits), bo = alu_b(e);
   uint32_t neg = cuvk_spirv_val(e, SpvOpLogicalNotEqual, bo, sign_set(e, a, bits),
                                 sign_set(e, b, bits));
   uint32_t am = as_f(e, mag_bits(e, a, bits), bits), bm = as_f(e, mag_bits(e, b, bits), bits);
   struct exact x = { .kind = EXACT_QUOT, .wbits = w };
   uint32_t r;

   x.a = fconvert(e, am, w, bits);
   x.b = fconvert(e, bm, w, bits);
   uint32_t q = wop(e, SpvOpFDiv, w, x.a, x.b);
   uint32_t f = as_f(e, mag_bits(e, fconvert(e, q, bits, w), bits), bits);
   if (mode == ALU_RN || mode == ALU_RZ) {
      r = round_fix(e, &x, f, bits, mode);
   } else {
      uint32_t toward = round_fix(e, &x, f, bits, ALU_RZ);
      uint32_t away = round_fix(e, &x, f, bits, ALU_RP);
      uint32_t want_away = mode == ALU_RM ? neg : cuvk_spirv_val(e, SpvOpLogicalNot, bo, neg);
      r = alu_sel(e, alu_f(e, bits), want_away, away, toward);
   }
   uint32_t rb = as_u(e, r, bits);
   rb = alu_sel(e, u, neg, cuvk_spirv_val(e, SpvOpBitwiseOr, u, rb, alu_cu(e, bits, alu_fsign(bits))),
                rb);
   return as_f(e, rb, bits);
}

static uint32_t
sqrt_exact(struct cuvk_spirv_emitter *e, uint32_t a, unsigned bits, unsigned w, enum alu_round mode)
{
   struct exact x = { .kind = EXACT_SQRT, .wbits = w };
   x.a = fconvert(e, a, w, bits);
   uint32_t s = cuvk_spirv_glsl(e, GLSLstd450Sqrt, alu_f(e, w), x.a);
   /* sqrt(-0) is -0 and of a negative number NaN: both pass through the
    * fix unchanged (equal, or unordered). */
   return round_fix(e, &x, fconvert(e, s, bits, w), bits, mode);
}

/* x == 0 ? copysign(inf, x) : r (rcp, rsqrt and lg2 of zeros). */
static uint32_t
zero_to(struct cuvk_spirv_emitter *e, uint32_t x, uint32_t r, unsigned bits, uint64_t val,
        bool keep_sign)
{
   uint32_t u = alu_u(e, bits);
   uint32_t s = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, as_u(e, x, bits),
                               alu_cu(e, bits, alu_fsign(bits)));
   uint32_t v = keep_sign ? cuvk_spirv_val(e, SpvOpBitwiseOr, u, s, alu_cu(e, bits, val))
                          : alu_cu(e, bits, val);
   return alu_sel(e, alu_f(e, bits), is_zero(e, x, bits), as_f(e, v, bits), r);
}

static int
lower_div_sqrt(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, unsigned bits)
{
   bool div = in->op == PTX_OP_DIV, rcp = in->op == PTX_OP_RCP;
   unsigned n = div ? 2 : 1;
   enum alu_round mode;
   bool given;
   uint32_t ft = alu_f(e, bits), r;

   if (in->dst_count != 1 || in->src_count != n)
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: expected %u sources", alu_name(in), n);
   if (!parse_round(e, in, &mode, &given))
      return -1;
   uint32_t a = read_f(e, in, 0, bits);
   uint32_t b = div ? read_f(e, in, 1, bits) : 0;
   uint32_t one = alu_cf(e, bits, bits == 16 ? 0x3c00u : bits == 32 ? 0x3f800000u
                                                                     : 0x3ff0000000000000ull);
   bool approx = alu_has(in, PTX_MOD_APPROX);

   if (approx) {
      /* div.approx, rcp.approx, sqrt.approx (f32; rcp.approx.ftz.f64):
       * PTX allows 2 ulp (div), 1 ulp (rcp, sqrt); Vulkan gives 2.5 ulp
       * for OpFDiv over |b| in [2^-126, 2^126] and 3 ulp for Sqrt (see
       * docs/compiler.md).  Zeros and negatives are explicit, since Vulkan
       * leaves x/0 and sqrt(x < 0) undefined. */
      if (div) {
         r = nocontract(e, cuvk_spirv_val(e, SpvOpFDiv, ft, a, b));
      } else if (rcp) {
         r = zero_to(e, a, nocontract(e, cuvk_spirv_val(e, SpvOpFDiv, ft, one, a)), bits,
                     alu_finf(bits), true);
      } else {
         uint32_t neg = cuvk_spirv_val(e, SpvOpFOrdLessThan, alu_b(e), a, alu_cf(e, bits, 0));
         r = cuvk_spirv_glsl(e, GLSLstd450Sqrt, ft, a);
         r = alu_sel(e, ft, neg, alu_cf(e, bits, alu_fnan(bits)), r);
         r = zero_to(e, a, r, bits, 0, true);
      }
   } else if (bits == 64 && mode != ALU_RN) {
      r = in->op == PTX_OP_SQRT ? sqrt64_directed(e, a, mode)
                                : div64_directed(e, rcp ? one : a, rcp ? a : b, mode);
   } else if (bits == 64) {
      if (in->op == PTX_OP_SQRT)
         r = cuvk_spirv_glsl(e, GLSLstd450Sqrt, ft, a);
      else
         r = nocontract(e, cuvk_spirv_val(e, SpvOpFDiv, ft, rcp ? one : a, rcp ? a : b));
   } else {
      unsigned w = wide_of(e, bits);
      if (!w)
         return alu_refuse(e, CUVK_CC_UNSUPPORTED, in, "%s: needs shaderFloat64 to round "
                           "correctly", alu_name(in));
      if (in->op == PTX_OP_SQRT)
         r = sqrt_exact(e, a, bits, w, mode);
      else
         r = div_exact(e, rcp ? one : a, rcp ? a : b, bits, w, mode);
   }
   cuvk_spirv_write(e, &in->dst[0], finish(e, in, r, bits), CUVK_SPIRV_FLOAT, bits);
   return 1;
}

/* 2^a for ex2.approx of bits (16, 32 or 64), NaN aside (the caller's). */
static uint32_t
ex2_value(struct cuvk_spirv_emitter *e, uint32_t a, unsigned bits)
{
   uint32_t ft = alu_f(e, bits);
   /* Vulkan lets Exp2 err by 3 + 2|x| ulp, PTX by 2 ulp whatever x:
    * so 2^x = 2^f * 2^n with n = floor(x) and f = x - n in [0, 1)
    * (exact), the device's Exp2 only ever seeing [0, 1).  x is clamped
    * first, where 2^x is 0 or inf anyway, so n fits an int; NaN is the
    * caller's to select. */
   uint64_t lim = bits == 16 ? 0x5a40u : bits == 32 ? 0x43480000u : 0x40a0000000000000ull;
   uint32_t xc = cuvk_spirv_glsl(e, GLSLstd450FClamp, ft, a,
                                 alu_cf(e, bits, lim | alu_fsign(bits)), alu_cf(e, bits, lim));
   uint32_t nf = cuvk_spirv_glsl(e, GLSLstd450Floor, ft, xc);
   uint32_t fr = nocontract(e, cuvk_spirv_val(e, SpvOpFSub, ft, xc, nf));
   uint32_t ni = cuvk_spirv_val(e, SpvOpConvertFToS, alu_u(e, 32), nf);
   if (bits == 32 && cuvk_spirv_target(e)->float64) {
      /* 2^f = e^(f ln 2) by its Taylor series to t^10 in f64 (error
       * below 2^-31 on [0, ln 2)), scaled by 2^n in f64 and rounded to
       * f32 once: within about half an ulp.  CUDA's full-precision
       * expf and powf are built on ex2.approx and keep their
       * documented 2 and 4 ulp only with an ex2 as good as NVIDIA's;
       * the device's Exp2 at Vulkan's precision left expf at 3 ulp
       * (compiler.run.alu_libm). */
      uint32_t dt = alu_f(e, 64);
      uint32_t t = wop(e, SpvOpFMul, 64, fconvert(e, fr, 64, 32),
                       alu_cf(e, 64, 0x3fe62e42fefa39efull));   /* ln 2 */
      double c = 1;
      for (int k = 2; k <= 10; k++)
         c /= k;
      /* c = 1/10!; Horner from the top term down. */
      union { double d; uint64_t u; } cv = { .d = c };
      uint32_t p = alu_cf(e, 64, cv.u);
      for (int k = 9; k >= 0; k--) {
         double ck = 1;
         for (int j = 2; j <= k; j++)
            ck /= j;
         cv.d = ck;
         p = wop(e, SpvOpFAdd, 64, wop(e, SpvOpFMul, 64, p, t), alu_cf(e, 64, cv.u));
      }
      return fconvert(e, cuvk_spirv_glsl(e, GLSLstd450Ldexp, dt, p, ni), 32, 64);
   }
   return cuvk_spirv_glsl(e, GLSLstd450Ldexp, ft, cuvk_spirv_glsl(e, GLSLstd450Exp2, ft, fr), ni);
}

/* tanh of an f32 x, NaN aside (the caller's).  Devices build Tanh from
 * exponentials, whose cancellation near 0 leaves an absolute error:
 * lavapipe gave +-2^-25 for tanh(5e-27).  So x itself below 2^-12 (the
 * first dropped term, x^3/3, is below x * 2^-25, and subnormals never
 * reach the device's arithmetic), x - x^3/3 + 2x^5/15 below 2^-4
 * (relative error under 2^-28), the device's Tanh above, its input
 * clamped to +-10 where tanh is +-1 in f32 and exp would overflow. */
static uint32_t
tanh_f32(struct cuvk_spirv_emitter *e, uint32_t x)
{
   uint32_t ft = alu_f(e, 32), bo = alu_b(e);
   uint32_t m = mag_bits(e, x, 32);
   uint32_t xc = cuvk_spirv_glsl(e, GLSLstd450FClamp, ft, x, alu_cf(e, 32, 0xc1200000u),
                                 alu_cf(e, 32, 0x41200000u));
   uint32_t r = cuvk_spirv_glsl(e, GLSLstd450Tanh, ft, xc);
   uint32_t x2 = nocontract(e, cuvk_spirv_val(e, SpvOpFMul, ft, x, x));
   /* x + x^3 (-1/3 + x^2 * 2/15) */
   uint32_t c = nocontract(e, cuvk_spirv_val(e, SpvOpFAdd, ft,
                                             nocontract(e, cuvk_spirv_val(e, SpvOpFMul, ft, x2,
                                                                          alu_cf(e, 32,
                                                                                 0x3e088889u))),
                                             alu_cf(e, 32, 0xbeaaaaabu)));
   uint32_t x3 = nocontract(e, cuvk_spirv_val(e, SpvOpFMul, ft, x2, x));
   uint32_t p = nocontract(e, cuvk_spirv_val(e, SpvOpFAdd, ft, x,
                                             nocontract(e, cuvk_spirv_val(e, SpvOpFMul, ft, x3,
                                                                          c))));
   r = alu_sel(e, ft, cuvk_spirv_val(e, SpvOpULessThan, bo, m, alu_cu(e, 32, 0x3d800000u)), p, r);
   return alu_sel(e, ft, cuvk_spirv_val(e, SpvOpULessThan, bo, m, alu_cu(e, 32, 0x39800000u)), x,
                  r);
}

/* rsqrt, ex2, lg2, sin, cos, tanh (.approx only): GLSL.std.450 with the
 * special values PTX defines made explicit, and subnormal inputs scaled
 * into the normal range where the device might flush them. */
static int
lower_approx(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, unsigned bits)
{
   uint32_t ft = alu_f(e, bits), bo = alu_b(e);
   bool ftz = alu_has(in, PTX_MOD_FTZ);

   if (in->dst_count != 1 || in->src_count != 1)
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: expected one source", alu_name(in));
   if (!alu_has(in, PTX_MOD_APPROX))
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: only .approx exists", alu_name(in));
   uint32_t a = read_f(e, in, 0, bits), r;
   uint32_t neg = cuvk_spirv_val(e, SpvOpFOrdLessThan, bo, a, alu_cf(e, bits, 0));
   uint32_t nan = alu_cf(e, bits, alu_fnan(bits));
   /* Subnormal scaling for f32 without .ftz: x * 2^24, result fixed up. */
   bool scale = bits == 32 && !ftz;
   uint32_t sub = 0, as = a;
   if (scale && (in->op == PTX_OP_RSQRT || in->op == PTX_OP_LG2)) {
      sub = cuvk_spirv_val(e, SpvOpULessThan, bo, mag_bits(e, a, 32), alu_cu(e, 32, 0x00800000u));
      as = alu_sel(e, ft, sub, nocontract(e, cuvk_spirv_val(e, SpvOpFMul, ft, a,
                                                             alu_cf(e, 32, 0x4b800000u))), a);
   }

   switch (in->op) {
   case PTX_OP_RSQRT:
      r = cuvk_spirv_glsl(e, GLSLstd450InverseSqrt, ft, as);
      if (sub)   /* rsqrt(x) = rsqrt(x * 2^24) * 2^12 */
         r = alu_sel(e, ft, sub, nocontract(e, cuvk_spirv_val(e, SpvOpFMul, ft, r,
                                                               alu_cf(e, 32, 0x45800000u))), r);
      r = alu_sel(e, ft, neg, nan, r);
      r = zero_to(e, a, r, bits, alu_finf(bits), true);
      break;
   case PTX_OP_LG2:
      r = cuvk_spirv_glsl(e, GLSLstd450Log2, ft, as);
      if (sub)   /* log2(x) = log2(x * 2^24) - 24 */
         r = alu_sel(e, ft, sub, nocontract(e, cuvk_spirv_val(e, SpvOpFSub, ft, r,
                                                               alu_cf(e, 32, 0x41c00000u))), r);
      r = alu_sel(e, ft, neg, nan, r);
      r = zero_to(e, a, r, bits, alu_finf(bits) | alu_fsign(bits), false);
      break;
   case PTX_OP_EX2:
      r = ex2_value(e, a, bits);
      break;
   case PTX_OP_SIN:
      r = cuvk_spirv_glsl(e, GLSLstd450Sin, ft, a);
      break;
   case PTX_OP_COS:
      r = cuvk_spirv_glsl(e, GLSLstd450Cos, ft, a);
      break;
   default:
      r = bits == 32 ? tanh_f32(e, a) : cuvk_spirv_glsl(e, GLSLstd450Tanh, ft, a);
      break;
   }
   /* NaN in, NaN out, whatever the device's function does with it. */
   r = alu_sel(e, ft, alu_isnan(e, a, bits), nan, r);
   cuvk_spirv_write(e, &in->dst[0], finish(e, in, r, bits), CUVK_SPIRV_FLOAT, bits);
   return 1;
}

/* min/max: a NaN operand gives the other one (both NaN: the canonical
 * NaN), -0 is below +0; .NaN makes any NaN operand the result. */
static int
lower_minmax(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, unsigned bits)
{
   uint32_t ft = alu_f(e, bits), bo = alu_b(e);
   bool max = in->op == PTX_OP_MAX;

   if (in->dst_count != 1 || in->src_count != 2)
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: expected two sources", alu_name(in));
   if (alu_has(in, PTX_MOD_XORSIGN) || alu_has(in, PTX_MOD_ABS))
      return alu_refuse(e, CUVK_CC_UNSUPPORTED, in, "%s: .xorsign.abs is not translated",
                        alu_name(in));
   uint32_t a = read_f(e, in, 0, bits), b = read_f(e, in, 1, bits);
   uint32_t an = alu_isnan(e, a, bits), bn = alu_isnan(e, b, bits);
   /* f16 subnormals compared in f32 where the device may flush them. */
   unsigned cb = bits == 16 && f16_by_bits(e) ? 32 : bits;
   uint32_t ca = fconvert(e, a, cb, bits), cbv = fconvert(e, b, cb, bits);
   uint32_t lt = cuvk_spirv_val(e, max ? SpvOpFOrdGreaterThan : SpvOpFOrdLessThan, bo, ca, cbv);
   /* Equal zeros: min takes the negative one, max the positive one. */
   uint32_t eq = cuvk_spirv_val(e, SpvOpFOrdEqual, bo, ca, cbv);
   uint32_t as = sign_set(e, a, bits);
   uint32_t pick_a = cuvk_spirv_val(e, SpvOpLogicalOr, bo, lt,
                                    cuvk_spirv_val(e, SpvOpLogicalAnd, bo, eq,
                                                   max ? cuvk_spirv_val(e, SpvOpLogicalNot, bo, as)
                                                       : as));
   uint32_t r = alu_sel(e, ft, pick_a, a, b);
   uint32_t nan = alu_cf(e, bits, alu_fnan(bits));
   if (alu_has(in, PTX_MOD_NAN_MINMAX)) {
      r = alu_sel(e, ft, cuvk_spirv_val(e, SpvOpLogicalOr, bo, an, bn), nan, r);
   } else {
      r = alu_sel(e, ft, bn, a, r);
      r = alu_sel(e, ft, an, b, r);
      r = alu_sel(e, ft, cuvk_spirv_val(e, SpvOpLogicalAnd, bo, an, bn), nan, r);
   }
   if (alu_has(in, PTX_MOD_RELU))
      r = alu_sel(e, ft, cuvk_spirv_val(e, SpvOpFOrdLessThan, bo, fconvert(e, r, cb, bits),
                                        alu_cf(e, cb, 0)),
                  alu_cf(e, bits, 0), r);
   cuvk_spirv_write(e, &in->dst[0], finish(e, in, r, bits), CUVK_SPIRV_FLOAT, bits);
   return 1;
}

/* abs, neg, copysign: bit operations, so NaNs keep their payload and
 * subnormals survive unless .ftz. */
static int
lower_sign_ops(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, unsigned bits)
{
   uint32_t u = alu_u(e, bits);
   uint64_t sb = alu_fsign(bits);
   unsigned n = in->op == PTX_OP_COPYSIGN ? 2 : 1;
   uint32_t r;

   if (in->dst_count != 1 || in->src_count != n)
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: expected %u sources", alu_name(in), n);
   uint32_t a = as_u(e, read_f(e, in, 0, bits), bits);
   if (in->op == PTX_OP_ABS) {
      r = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, a, alu_cu(e, bits, sb - 1));
   } else if (in->op == PTX_OP_NEG) {
      r = cuvk_spirv_val(e, SpvOpBitwiseXor, u, a, alu_cu(e, bits, sb));
   } else {
      /* copysign d, a, b: b's magnitude with a's sign. */
      uint32_t b = as_u(e, read_f(e, in, 1, bits), bits);
      r = cuvk_spirv_val(e, SpvOpBitwiseOr, u,
                         cuvk_spirv_val(e, SpvOpBitwiseAnd, u, a, alu_cu(e, bits, sb)),
                         cuvk_spirv_val(e, SpvOpBitwiseAnd, u, b, alu_cu(e, bits, sb - 1)));
   }
   cuvk_spirv_write(e, &in->dst[0], finish(e, in, as_f(e, r, bits), bits), CUVK_SPIRV_FLOAT, bits);
   return 1;
}

/* testp: by the bits; zeros count as normal. */
static int
lower_testp(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, unsigned bits)
{
   uint32_t bo = alu_b(e);
   if (in->dst_count != 1 || in->src_count != 1)
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: expected one source", alu_name(in));
   uint32_t m = mag_bits(e, alu_read(e, in, 0, CUVK_SPIRV_FLOAT, bits), bits);
   uint32_t inf = alu_cu(e, bits, alu_finf(bits)), mn = alu_cu(e, bits, alu_fmin_normal(bits));
   uint32_t zero = alu_cu(e, bits, 0), r;

   if (alu_has(in, PTX_MOD_FINITE))
      r = cuvk_spirv_val(e, SpvOpULessThan, bo, m, inf);
   else if (alu_has(in, PTX_MOD_INFINITE))
      r = cuvk_spirv_val(e, SpvOpIEqual, bo, m, inf);
   else if (alu_has(in, PTX_MOD_NUMBER))
      r = cuvk_spirv_val(e, SpvOpULessThanEqual, bo, m, inf);
   else if (alu_has(in, PTX_MOD_NOTANUMBER))
      r = cuvk_spirv_val(e, SpvOpUGreaterThan, bo, m, inf);
   else if (alu_has(in, PTX_MOD_NORMAL))
      r = cuvk_spirv_val(e, SpvOpLogicalOr, bo, cuvk_spirv_val(e, SpvOpIEqual, bo, m, zero),
                         cuvk_spirv_val(e, SpvOpLogicalAnd, bo,
                                        cuvk_spirv_val(e, SpvOpUGreaterThanEqual, bo, m, mn),
                                        cuvk_spirv_val(e, SpvOpULessThan, bo, m, inf)));
   else if (alu_has(in, PTX_MOD_SUBNORMAL))
      r = cuvk_spirv_val(e, SpvOpLogicalAnd, bo, cuvk_spirv_val(e, SpvOpINotEqual, bo, m, zero),
                         cuvk_spirv_val(e, SpvOpULessThan, bo, m, mn));
   else
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: which test?", alu_name(in));
   cuvk_spirv_write(e, &in->dst[0], r, CUVK_SPIRV_BOOL, 1);
   return 1;
}

/*
 * f16x2, bf16 and bf16x2 arithmetic.  Each 16-bit lane is widened exactly,
 * f16 to f32 and bf16 to f64 (whose exponent range holds any product of
 * two bf16 numbers); there the exact result is x + err (a product of two
 * lanes is exact: 11 + 11 and 8 + 8 bits; a sum or an fma's sum by
 * TwoSum), x is rounded to odd (stepped towards err when x is even and
 * err is not zero), and that is rounded to the lane's format to nearest
 * even on the bits.  Rounding to odd first in a format at least two bits
 * wider keeps the final rounding correct (Boldo and Melquiond).  No f16
 * value is ever formed, so neither a device that flushes f16 subnormals
 * nor one without shaderFloat16 changes PTX's result.
 */

/* The wide value of lane bits (in the low 16 bits of a uint32). */
static uint32_t
lane_to_wide(struct cuvk_spirv_emitter *e, uint32_t lane, bool bf)
{
   uint32_t u = alu_u(e, 32), bo = alu_b(e);
   if (!bf)
      return f16_bits_to_f32(e, lane);
   /* bf16 is the top half of an f32.  Its subnormals are built as
    * m * 2^-133 in f64, so that no f32 subnormal is ever converted. */
   uint32_t f = as_f(e, cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, lane, alu_cu(e, 32, 16)), 32);
   uint32_t d = cuvk_spirv_val(e, SpvOpFConvert, alu_f(e, 64), f);
   uint32_t m = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, lane, alu_cu(e, 32, 0x7f));
   uint32_t sub = cuvk_spirv_val(e, SpvOpFMul, alu_f(e, 64),
                                 cuvk_spirv_val(e, SpvOpConvertUToF, alu_f(e, 64), m),
                                 alu_cf(e, 64, 0x37a0000000000000ull));   /* 2^-133 */
   uint32_t neg = cuvk_spirv_val(e, SpvOpINotEqual, bo,
                                 cuvk_spirv_val(e, SpvOpBitwiseAnd, u, lane, alu_cu(e, 32, 0x8000)),
                                 alu_cu(e, 32, 0));
   sub = alu_sel(e, alu_f(e, 64), neg, cuvk_spirv_val(e, SpvOpFNegate, alu_f(e, 64), sub), sub);
   uint32_t is_sub = cuvk_spirv_val(e, SpvOpIEqual, bo,
                                    cuvk_spirv_val(e, SpvOpBitwiseAnd, u, lane,
                                                   alu_cu(e, 32, 0x7f80)),
                                    alu_cu(e, 32, 0));
   return alu_sel(e, alu_f(e, 64), is_sub, sub, d);
}

/* x + err (wide, err 0 or below half an ulp of x) rounded to odd. */
static uint32_t
round_odd(struct cuvk_spirv_emitter *e, uint32_t x, uint32_t err, unsigned w)
{
   uint32_t u = alu_u(e, w), bo = alu_b(e);
   uint32_t xb = as_u(e, x, w);
   uint32_t inexact = cuvk_spirv_val(e, SpvOpFOrdNotEqual, bo, err, alu_cf(e, w, 0));
   uint32_t even = cuvk_spirv_val(e, SpvOpIEqual, bo,
                                  cuvk_spirv_val(e, SpvOpBitwiseAnd, u, xb, alu_cu(e, w, 1)),
                                  alu_cu(e, w, 0));
   uint32_t away = cuvk_spirv_val(e, SpvOpLogicalEqual, bo, sign_set(e, x, w), sign_set(e, err, w));
   uint32_t step = alu_sel(e, u, away, cuvk_spirv_val(e, SpvOpIAdd, u, xb, alu_cu(e, w, 1)),
                           cuvk_spirv_val(e, SpvOpISub, u, xb, alu_cu(e, w, 1)));
   return as_f(e, alu_sel(e, u, cuvk_spirv_val(e, SpvOpLogicalAnd, bo, inexact, even), step, xb),
               w);
}

/* A wide value rounded to odd, to the lane's format to nearest even. */
static uint32_t
wide_to_lane(struct cuvk_spirv_emitter *e, uint32_t x, bool bf)
{
   uint32_t u = alu_u(e, 32), bo = alu_b(e);
   if (!bf)
      return f16_narrow_u32(e, x, 32, ALU_RN);
   /* f64 to f32 rounded to odd: the device's conversion is within an ulp,
    * and an even inexact result steps towards x. */
   uint32_t f = cuvk_spirv_val(e, SpvOpFConvert, alu_f(e, 32), x);
   uint32_t fd = cuvk_spirv_val(e, SpvOpFConvert, alu_f(e, 64), f);
   uint32_t fb = as_u(e, f, 32);
   uint32_t inexact = cuvk_spirv_val(e, SpvOpFOrdNotEqual, bo, fd, x);
   uint32_t even = cuvk_spirv_val(e, SpvOpIEqual, bo,
                                  cuvk_spirv_val(e, SpvOpBitwiseAnd, u, fb, alu_cu(e, 32, 1)),
                                  alu_cu(e, 32, 0));
   uint32_t away = cuvk_spirv_val(e, SpvOpFOrdGreaterThan, bo, as_f(e, mag_bits(e, x, 64), 64),
                                  as_f(e, mag_bits(e, fd, 64), 64));
   uint32_t step = alu_sel(e, u, away, cuvk_spirv_val(e, SpvOpIAdd, u, fb, alu_cu(e, 32, 1)),
                           cuvk_spirv_val(e, SpvOpISub, u, fb, alu_cu(e, 32, 1)));
   fb = alu_sel(e, u, cuvk_spirv_val(e, SpvOpLogicalAnd, bo, inexact, even), step, fb);
   uint32_t odd = cuvk_spirv_val(e, SpvOpBitwiseAnd, u,
                                 cuvk_spirv_val(e, SpvOpShiftRightLogical, u, fb, alu_cu(e, 32, 16)),
                                 alu_cu(e, 32, 1));
   uint32_t r = cuvk_spirv_val(e, SpvOpShiftRightLogical, u,
                               cuvk_spirv_val(e, SpvOpIAdd, u, fb,
                                              cuvk_spirv_val(e, SpvOpIAdd, u, odd,
                                                             alu_cu(e, 32, 0x7fff))),
                               alu_cu(e, 32, 16));
   return alu_sel(e, u, alu_isnan(e, x, 64), alu_cu(e, 32, 0x7fff), r);
}

/* Lane bits (uint32): .ftz's flush (below 2^-14 for f16, 2^-126 for
 * bf16), .sat's clamp, NaN test. */
static uint32_t
lane_flush(struct cuvk_spirv_emitter *e, uint32_t lane, bool bf)
{
   uint32_t u = alu_u(e, 32);
   uint32_t m = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, lane, alu_cu(e, 32, 0x7fff));
   return alu_sel(e, u, cuvk_spirv_val(e, SpvOpULessThan, alu_b(e), m,
                                       alu_cu(e, 32, bf ? 0x80 : 0x400)),
                  cuvk_spirv_val(e, SpvOpBitwiseAnd, u, lane, alu_cu(e, 32, 0x8000)), lane);
}

static uint32_t
lane_isnan(struct cuvk_spirv_emitter *e, uint32_t lane, bool bf)
{
   uint32_t m = cuvk_spirv_val(e, SpvOpBitwiseAnd, alu_u(e, 32), lane, alu_cu(e, 32, 0x7fff));
   return cuvk_spirv_val(e, SpvOpUGreaterThan, alu_b(e), m, alu_cu(e, 32, bf ? 0x7f80 : 0x7c00));
}

static uint32_t
lane_negative(struct cuvk_spirv_emitter *e, uint32_t lane)
{
   return cuvk_spirv_val(e, SpvOpINotEqual, alu_b(e),
                         cuvk_spirv_val(e, SpvOpBitwiseAnd, alu_u(e, 32), lane,
                                        alu_cu(e, 32, 0x8000)),
                         alu_cu(e, 32, 0));
}

/* An integer whose order is the lane's value order, for lanes that are
 * not NaN: -0 and +0 meet at 0x8000, negatives below it.  Comparing keys
 * needs no f16 or f64 arithmetic, so packed comparisons work on any
 * device and whatever it does with subnormals. */
static uint32_t
lane_key(struct cuvk_spirv_emitter *e, uint32_t lane)
{
   uint32_t u = alu_u(e, 32);
   uint32_t mag = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, lane, alu_cu(e, 32, 0x7fff));
   return alu_sel(e, u, lane_negative(e, lane),
                  cuvk_spirv_val(e, SpvOpISub, u, alu_cu(e, 32, 0x8000), mag),
                  cuvk_spirv_val(e, SpvOpIAdd, u, alu_cu(e, 32, 0x8000), mag));
}

uint32_t
alu_lane_compare(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
                 enum ptx_modifier cmp, uint32_t a, uint32_t b, bool bf)
{
   uint32_t bo = alu_b(e);
   bool unordered = false;
   SpvOp op;

   if (alu_has(in, PTX_MOD_FTZ)) {
      a = lane_flush(e, a, bf);
      b = lane_flush(e, b, bf);
   }
   uint32_t any_nan = cuvk_spirv_val(e, SpvOpLogicalOr, bo, lane_isnan(e, a, bf),
                                     lane_isnan(e, b, bf));
   switch (cmp) {
   case PTX_MOD_NAN: return any_nan;
   case PTX_MOD_NUM: return cuvk_spirv_val(e, SpvOpLogicalNot, bo, any_nan);
   case PTX_MOD_EQU: unordered = true; /* fallthrough */
   case PTX_MOD_EQ: op = SpvOpIEqual; break;
   case PTX_MOD_NEU: unordered = true; /* fallthrough */
   case PTX_MOD_NE: op = SpvOpINotEqual; break;
   case PTX_MOD_LTU: unordered = true; /* fallthrough */
   case PTX_MOD_LT: op = SpvOpULessThan; break;
   case PTX_MOD_LEU: unordered = true; /* fallthrough */
   case PTX_MOD_LE: op = SpvOpULessThanEqual; break;
   case PTX_MOD_GTU: unordered = true; /* fallthrough */
   case PTX_MOD_GT: op = SpvOpUGreaterThan; break;
   case PTX_MOD_GEU: unordered = true; /* fallthrough */
   case PTX_MOD_GE: op = SpvOpUGreaterThanEqual; break;
   default:
      cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "%s: %s does not compare floats", alu_name(in),
                      ptx_modifier_table[cmp].name);
      return 0;
   }
   uint32_t r = cuvk_spirv_val(e, op, bo, lane_key(e, a), lane_key(e, b));
   if (unordered)
      return cuvk_spirv_val(e, SpvOpLogicalOr, bo, any_nan, r);
   return cuvk_spirv_val(e, SpvOpLogicalAnd, bo, cuvk_spirv_val(e, SpvOpLogicalNot, bo, any_nan),
                         r);
}

/* ex2.approx or tanh.approx of one f16 or bf16 lane (bits in the low 16
 * of a uint32): the lane widened exactly to f32 (f16 by its bits, bf16
 * being the top half of an f32), the f32 function, rounded to the lane's
 * format to nearest even on the bits.  The f32 functions are within
 * 2^-22 relative (ex2) and well inside tanh.approx.f32's 2^-10.987, so
 * after the one rounding (2^-11 at most, relative) the lane's result
 * stays within PTX's 2^-9.9 / 2^-7 (ex2) and 2^-10.987 / 2^-8 (tanh)
 * for f16 / bf16 (compiler.run.half_approx measures how far).  No f16
 * value is formed: no shaderFloat16, and no device flushing of f16
 * subnormals, which ex2's results below 2^-14 are. */
static uint32_t
lane_approx(struct cuvk_spirv_emitter *e, enum ptx_opcode op, uint32_t lane, bool bf)
{
   uint32_t u = alu_u(e, 32), bo = alu_b(e);
   uint32_t x = bf ? as_f(e, cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, lane, alu_cu(e, 32, 16)),
                          32)
                   : f16_bits_to_f32(e, lane);
   uint32_t mag = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, lane, alu_cu(e, 32, 0x7fff));
   uint32_t r = op == PTX_OP_EX2 ? ex2_value(e, x, 32) : tanh_f32(e, x), rl;

   if (bf) {
      /* f32 to bf16, to nearest even: add 0x7fff plus the kept lsb. */
      uint32_t rb = as_u(e, r, 32);
      uint32_t odd = cuvk_spirv_val(e, SpvOpBitwiseAnd, u,
                                    cuvk_spirv_val(e, SpvOpShiftRightLogical, u, rb,
                                                   alu_cu(e, 32, 16)),
                                    alu_cu(e, 32, 1));
      rl = cuvk_spirv_val(e, SpvOpShiftRightLogical, u,
                          cuvk_spirv_val(e, SpvOpIAdd, u, rb,
                                         cuvk_spirv_val(e, SpvOpIAdd, u, odd,
                                                        alu_cu(e, 32, 0x7fff))),
                          alu_cu(e, 32, 16));
   } else {
      rl = f16_narrow_u32(e, r, 32, ALU_RN);
   }
   if (op == PTX_OP_TANH) {
      /* tanh(x) is x in either format below 2^-12 (tanh_f32 gives it
       * too, but this keeps bf16 subnormals, f32 subnormals after the
       * shift, away from a device that flushes them). */
      uint32_t tiny = cuvk_spirv_val(e, SpvOpULessThan, bo, mag,
                                     alu_cu(e, 32, bf ? 0x3980 : 0x0c00));   /* 2^-12 */
      rl = alu_sel(e, u, tiny, lane, rl);
   }
   return alu_sel(e, u, lane_isnan(e, lane, bf), alu_cu(e, 32, 0x7fff), rl);
}

/* in's modifier mod; none when in is NULL (an atomic's plain operation). */
static bool
packed_has(const struct cuvk_ir_instr *in, enum ptx_modifier mod)
{
   return in && alu_has(in, mod);
}

/* One lane of op (in's, with its modifiers, or a plain one when in is
 * NULL): sources' lane bits in v, the result's lane bits. */
static uint32_t
packed_lane(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, enum ptx_opcode op,
            const uint32_t *v, bool bf)
{
   uint32_t u = alu_u(e, 32), bo = alu_b(e);
   unsigned w = bf ? 64 : 32;
   bool ftz = packed_has(in, PTX_MOD_FTZ);
   uint32_t l[3], x[3], r;

   for (unsigned i = 0; i < 3 && v[i]; i++)
      l[i] = ftz ? lane_flush(e, v[i], bf) : v[i];
   switch (op) {
   case PTX_OP_EX2: case PTX_OP_TANH:
      r = lane_approx(e, op, l[0], bf);
      break;
   case PTX_OP_NEG:
      r = cuvk_spirv_val(e, SpvOpBitwiseXor, u, l[0], alu_cu(e, 32, 0x8000));
      break;
   case PTX_OP_ABS:
      r = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, l[0], alu_cu(e, 32, 0x7fff));
      break;
   case PTX_OP_MIN:
   case PTX_OP_MAX: {
      bool max = op == PTX_OP_MAX;
      x[0] = lane_to_wide(e, l[0], bf);
      x[1] = lane_to_wide(e, l[1], bf);
      uint32_t an = lane_isnan(e, l[0], bf), bn = lane_isnan(e, l[1], bf);
      uint32_t lt = cuvk_spirv_val(e, max ? SpvOpFOrdGreaterThan : SpvOpFOrdLessThan, bo, x[0],
                                   x[1]);
      uint32_t eq = cuvk_spirv_val(e, SpvOpFOrdEqual, bo, x[0], x[1]);
      uint32_t as = lane_negative(e, l[0]);
      uint32_t pick_a = cuvk_spirv_val(e, SpvOpLogicalOr, bo, lt,
                                       cuvk_spirv_val(e, SpvOpLogicalAnd, bo, eq,
                                                      max ? cuvk_spirv_val(e, SpvOpLogicalNot,
                                                                           bo, as)
                                                          : as));
      r = alu_sel(e, u, pick_a, l[0], l[1]);
      uint32_t nan = alu_cu(e, 32, 0x7fff);
      if (packed_has(in, PTX_MOD_NAN_MINMAX)) {
         r = alu_sel(e, u, cuvk_spirv_val(e, SpvOpLogicalOr, bo, an, bn), nan, r);
      } else {
         r = alu_sel(e, u, bn, l[0], r);
         r = alu_sel(e, u, an, l[1], r);
         r = alu_sel(e, u, cuvk_spirv_val(e, SpvOpLogicalAnd, bo, an, bn), nan, r);
      }
      break;
   }
   default: {
      uint32_t xs, err = alu_cf(e, w, 0);
      for (unsigned i = 0; i < 3 && v[i]; i++)
         x[i] = lane_to_wide(e, l[i], bf);
      if (op == PTX_OP_MUL) {
         xs = wop(e, SpvOpFMul, w, x[0], x[1]);   /* exact */
      } else if (op == PTX_OP_FMA) {
         two_sum(e, w, wop(e, SpvOpFMul, w, x[0], x[1]), x[2], &xs, &err);
      } else {
         uint32_t b = op == PTX_OP_SUB ? cuvk_spirv_val(e, SpvOpFNegate, alu_f(e, w), x[1])
                                           : x[1];
         two_sum(e, w, x[0], b, &xs, &err);
      }
      r = wide_to_lane(e, round_odd(e, xs, err, w), bf);
      break;
   }
   }
   if (ftz)
      r = lane_flush(e, r, bf);
   if (packed_has(in, PTX_MOD_SAT)) {
      uint32_t m = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, r, alu_cu(e, 32, 0x7fff));
      uint32_t zero = cuvk_spirv_val(e, SpvOpLogicalOr, bo, lane_negative(e, r),
                                     lane_isnan(e, r, bf));
      r = alu_sel(e, u, cuvk_spirv_val(e, SpvOpUGreaterThanEqual, bo, m, alu_cu(e, 32, 0x3c00)),
                  alu_cu(e, 32, 0x3c00), r);
      r = alu_sel(e, u, zero, alu_cu(e, 32, 0), r);
   }
   if (packed_has(in, PTX_MOD_RELU)) {
      /* Negative results become +0; NaN stays (the canonical one). */
      uint32_t nan = lane_isnan(e, r, bf);
      uint32_t neg = cuvk_spirv_val(e, SpvOpLogicalAnd, bo, lane_negative(e, r),
                                    cuvk_spirv_val(e, SpvOpLogicalNot, bo, nan));
      neg = cuvk_spirv_val(e, SpvOpLogicalAnd, bo, neg,
                           cuvk_spirv_val(e, SpvOpINotEqual, bo, r, alu_cu(e, 32, 0x8000)));
      r = alu_sel(e, u, neg, alu_cu(e, 32, 0), r);
      r = alu_sel(e, u, nan, alu_cu(e, 32, 0x7fff), r);
   }
   return r;
}

static int packed_lanes(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, unsigned n,
                        bool x2, bool bf);

int
alu_lower_packed(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
                 const struct alu_type *t)
{
   const struct cuvk_cc_target *tg = cuvk_spirv_target(e);
   bool bf = t->mod == PTX_MOD_BF16 || t->mod == PTX_MOD_BF16X2, x2 = t->bits == 32;
   bool approx = in->op == PTX_OP_EX2 || in->op == PTX_OP_TANH;
   unsigned n;
   enum alu_round mode;
   bool given;

   switch (in->op) {
   case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MIN: case PTX_OP_MAX:
      n = 2;
      break;
   case PTX_OP_FMA:
      n = 3;
      break;
   case PTX_OP_NEG: case PTX_OP_ABS: case PTX_OP_EX2: case PTX_OP_TANH:
      n = 1;
      break;
   default:
      return alu_refuse(e, CUVK_CC_UNSUPPORTED, in, "%s: not translated for %s", alu_name(in),
                        ptx_modifier_table[t->mod].name);
   }
   if (in->dst_count != 1 || in->src_count != n)
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: expected %u sources", alu_name(in), n);
   if (approx) {
      /* ex2.approx.{f16,f16x2}, ex2.approx.ftz.{bf16,bf16x2} and
       * tanh.approx of all four: f32 work on the lanes' bits, which any
       * device has (the f64 that ex2's f32 path takes where present
       * included). */
      if (!alu_has(in, PTX_MOD_APPROX))
         return alu_refuse(e, CUVK_CC_INVALID, in, "%s: only .approx exists", alu_name(in));
      if (bf && in->op == PTX_OP_EX2 && !alu_has(in, PTX_MOD_FTZ))
         return alu_refuse(e, CUVK_CC_INVALID, in, "%s: bf16 ex2 is .ftz only", alu_name(in));
      if ((in->op == PTX_OP_TANH && alu_has(in, PTX_MOD_FTZ)) || alu_has(in, PTX_MOD_SAT) ||
          alu_has(in, PTX_MOD_RELU) || (!bf && alu_has(in, PTX_MOD_FTZ)))
         return alu_refuse(e, CUVK_CC_INVALID, in, "%s: takes no such modifier", alu_name(in));
      if (!x2 && !tg->int16)
         return alu_refuse(e, CUVK_CC_UNSUPPORTED, in, "%s: the device lacks shaderInt16",
                           alu_name(in));
      return packed_lanes(e, in, n, x2, bf);
   }
   if (!parse_round(e, in, &mode, &given))
      return -1;
   if (mode != ALU_RN)
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: only .rn rounds packed or bf16 values",
                        alu_name(in));
   if (alu_has(in, PTX_MOD_XORSIGN))
      return alu_refuse(e, CUVK_CC_UNSUPPORTED, in, "%s: .xorsign.abs is not translated",
                        alu_name(in));
   if (bf && (alu_has(in, PTX_MOD_FTZ) || alu_has(in, PTX_MOD_SAT)))
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: bf16 takes no .ftz or .sat", alu_name(in));
   if (bf && n > 1 && in->op != PTX_OP_MIN && in->op != PTX_OP_MAX &&
       (!tg->float64 || !tg->int64))
      return alu_refuse(e, CUVK_CC_UNSUPPORTED, in, "%s: needs shaderFloat64 and shaderInt64 to "
                        "round", alu_name(in));
   if (bf && (in->op == PTX_OP_MIN || in->op == PTX_OP_MAX) && !tg->float64)
      return alu_refuse(e, CUVK_CC_UNSUPPORTED, in, "%s: needs shaderFloat64", alu_name(in));
   if (!x2 && !tg->int16)
      return alu_refuse(e, CUVK_CC_UNSUPPORTED, in, "%s: the device lacks shaderInt16",
                        alu_name(in));

   return packed_lanes(e, in, n, x2, bf);
}

/* Reads in's n sources, runs packed_lane on each 16-bit lane (two for
 * x2, else one in 16 bits), writes the packed result. */
static int
packed_lanes(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, unsigned n, bool x2,
             bool bf)
{
   uint32_t u = alu_u(e, 32), src[3] = { 0 }, r = 0;
   for (unsigned i = 0; i < n; i++) {
      src[i] = alu_read(e, in, i, CUVK_SPIRV_UINT, x2 ? 32 : 16);
      if (!x2)
         src[i] = cuvk_spirv_val(e, SpvOpUConvert, u, src[i]);
   }
   for (unsigned lane = 0; lane < (x2 ? 2u : 1u); lane++) {
      uint32_t v[3] = { 0 };
      for (unsigned i = 0; i < n; i++) {
         v[i] = lane ? cuvk_spirv_val(e, SpvOpShiftRightLogical, u, src[i], alu_cu(e, 32, 16))
                     : src[i];
         v[i] = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, v[i], alu_cu(e, 32, 0xffff));
      }
      uint32_t l = packed_lane(e, in, in->op, v, bf);
      r = lane ? cuvk_spirv_val(e, SpvOpBitwiseOr, u, r,
                                cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, l, alu_cu(e, 32, 16)))
               : l;
   }
   if (x2)
      cuvk_spirv_write(e, &in->dst[0], r, CUVK_SPIRV_UINT, 32);
   else
      cuvk_spirv_write(e, &in->dst[0], cuvk_spirv_val(e, SpvOpUConvert, alu_u(e, 16), r),
                       CUVK_SPIRV_UINT, 16);
   return 1;
}

uint32_t
alu_fcompare(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, enum ptx_modifier cmp,
             uint32_t a, uint32_t b, unsigned bits)
{
   uint32_t bo = alu_b(e);
   SpvOp op;

   if (bits == 16 && f16_by_bits(e)) {
      /* Subnormals compared in f32, where the device keeps them. */
      a = fconvert(e, a, 32, 16);
      b = fconvert(e, b, 32, 16);
      bits = 32;
   }
   switch (cmp) {
   case PTX_MOD_EQ: op = SpvOpFOrdEqual; break;
   case PTX_MOD_NE: op = SpvOpFOrdNotEqual; break;
   case PTX_MOD_LT: op = SpvOpFOrdLessThan; break;
   case PTX_MOD_LE: op = SpvOpFOrdLessThanEqual; break;
   case PTX_MOD_GT: op = SpvOpFOrdGreaterThan; break;
   case PTX_MOD_GE: op = SpvOpFOrdGreaterThanEqual; break;
   case PTX_MOD_EQU: op = SpvOpFUnordEqual; break;
   case PTX_MOD_NEU: op = SpvOpFUnordNotEqual; break;
   case PTX_MOD_LTU: op = SpvOpFUnordLessThan; break;
   case PTX_MOD_LEU: op = SpvOpFUnordLessThanEqual; break;
   case PTX_MOD_GTU: op = SpvOpFUnordGreaterThan; break;
   case PTX_MOD_GEU: op = SpvOpFUnordGreaterThanEqual; break;
   case PTX_MOD_NUM:
   case PTX_MOD_NAN: {
      /* By the bits: OpOrdered/OpUnordered are Kernel-only, and IsNan may
       * be folded away by a driver assuming no NaNs. */
      uint32_t any = cuvk_spirv_val(e, SpvOpLogicalOr, bo, alu_isnan(e, a, bits),
                                    alu_isnan(e, b, bits));
      return cmp == PTX_MOD_NAN ? any : cuvk_spirv_val(e, SpvOpLogicalNot, bo, any);
   }
   default:
      cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "%s: %s does not compare floats", alu_name(in),
                      ptx_modifier_table[cmp].name);
      return 0;
   }
   return cuvk_spirv_val(e, op, bo, a, b);
}

int
alu_lower_float(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
                const struct alu_type *t)
{
   switch (in->op) {
   case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_FMA: case PTX_OP_MAD:
      return lower_arith(e, in, t->bits);
   case PTX_OP_DIV: case PTX_OP_RCP: case PTX_OP_SQRT:
      return lower_div_sqrt(e, in, t->bits);
   case PTX_OP_RSQRT: case PTX_OP_EX2: case PTX_OP_LG2: case PTX_OP_SIN: case PTX_OP_COS:
   case PTX_OP_TANH:
      return lower_approx(e, in, t->bits);
   case PTX_OP_MIN: case PTX_OP_MAX:
      return lower_minmax(e, in, t->bits);
   case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_COPYSIGN:
      return lower_sign_ops(e, in, t->bits);
   case PTX_OP_TESTP:
      return lower_testp(e, in, t->bits);
   default:
      return alu_refuse(e, CUVK_CC_UNSUPPORTED, in, "%s: not translated for floating point",
                        alu_name(in));
   }
}

/*
 * cvt.
 */

static uint32_t
int_convert(struct cuvk_spirv_emitter *e, uint32_t v, unsigned to, unsigned from, bool sign)
{
   if (to == from)
      return v;
   return cuvk_spirv_val(e, to > from && sign ? SpvOpSConvert : SpvOpUConvert, alu_u(e, to), v);
}

static uint64_t
sext(uint64_t v, unsigned bits)
{
   return bits >= 64 ? v : (v & (1ull << (bits - 1))) ? v | ~((1ull << bits) - 1) : v;
}

static uint64_t
mask_of(unsigned bits)
{
   return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* Integer to integer: truncation or extension by the source's
 * signedness; .sat clamps to the destination's range first. */
static uint32_t
cvt_int_int(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, const struct alu_type *d,
            const struct alu_type *s)
{
   bool ss = s->kind == CUVK_SPIRV_SINT, ds = d->kind == CUVK_SPIRV_SINT;
   unsigned w = d->bits > s->bits ? d->bits : s->bits;
   uint32_t u = alu_u(e, w);
   uint32_t x = int_convert(e, alu_read(e, in, 0, s->kind, s->bits), w, s->bits, ss);

   if (alu_has(in, PTX_MOD_SAT)) {
      uint64_t m = w == 64 ? ~0ull : (1ull << w) - 1;
      if (ss) {
         /* Signed source: compare signed at width w. */
         if (ds && d->bits < s->bits) {
            uint64_t lo = sext(1ull << (d->bits - 1), d->bits) & m;
            x = cuvk_spirv_glsl(e, GLSLstd450SClamp, u, x, alu_cu(e, w, lo),
                                alu_cu(e, w, (1ull << (d->bits - 1)) - 1));
         } else if (!ds) {
            x = cuvk_spirv_glsl(e, GLSLstd450SMax, u, x, alu_cu(e, w, 0));
            if (d->bits < s->bits)
               x = cuvk_spirv_glsl(e, GLSLstd450SMin, u, x, alu_cu(e, w, mask_of(d->bits)));
         }
      } else {
         uint64_t hi = ds ? mask_of(d->bits - 1) : mask_of(d->bits);
         if ((ds && d->bits <= s->bits) || (!ds && d->bits < s->bits))
            x = cuvk_spirv_glsl(e, GLSLstd450UMin, u, x, alu_cu(e, w, hi));
      }
   }
   return w > d->bits ? cuvk_spirv_val(e, SpvOpUConvert, alu_u(e, d->bits), x) : x;
}

/* Integer to float in mode.  An integer of up to half the wide format's
 * precision converts to it exactly; a 64-bit one is split into a high
 * part with the low 11 bits cleared (at most 53 significant bits, exact
 * in f64) and the low 11 bits, summed by TwoSum into x + err. */
static int
cvt_int_float(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, const struct alu_type *d,
              const struct alu_type *s, enum alu_round mode, uint32_t *out)
{
   bool ss = s->kind == CUVK_SPIRV_SINT;
   SpvOp conv = ss ? SpvOpConvertSToF : SpvOpConvertUToF;
   uint32_t v = alu_read(e, in, 0, s->kind, s->bits);
   unsigned nb = d->bits;
   unsigned w = 0;

   /* The wide format the exact sum lives in. */
   if (nb < 64 && cuvk_spirv_target(e)->float64)
      w = 64;
   else if (nb == 16 && s->bits <= 16)
      w = 32;
   else if (nb == 64 && s->bits == 64)
      w = 64;   /* directed modes only: the bracket needs no midpoint */

   if ((nb == 64 && s->bits <= 32) || (mode == ALU_RN && (w == 0 || nb == 64))) {
      /* Exact (f64 from 32 bits), or to nearest by the device's
       * conversion, which Vulkan requires correctly rounded. */
      *out = cuvk_spirv_val(e, conv, alu_f(e, nb), v);
      return 1;
   }
   if (!w)
      return alu_refuse(e, CUVK_CC_UNSUPPORTED, in, "%s: needs shaderFloat64 to round",
                        alu_name(in));

   struct exact x = { .kind = EXACT_SUM, .wbits = w };
   if (s->bits < 64) {
      x.x = cuvk_spirv_val(e, conv, alu_f(e, w), v);
   } else {
      uint32_t u64 = alu_u(e, 64);
      uint32_t hi = cuvk_spirv_val(e, SpvOpBitwiseAnd, u64, v, alu_cu(e, 64, ~0x7ffull));
      uint32_t lo = cuvk_spirv_val(e, SpvOpBitwiseAnd, u64, v, alu_cu(e, 64, 0x7ff));
      two_sum(e, 64, cuvk_spirv_val(e, conv, alu_f(e, 64), hi),
              cuvk_spirv_val(e, SpvOpConvertUToF, alu_f(e, 64), lo), &x.x, &x.err);
   }
   *out = round_fix(e, &x, fconvert(e, x.x, nb, w), nb, mode);
   return 1;
}

/* Float to integer: rounded to an integer by the mode, then saturated;
 * NaN gives, as measured on sm_90, the destination's sign bit alone
 * (0x80000000 for .s32 and .u32 alike) when the source is f64 or the
 * destination 64 bits wide, and 0 otherwise. */
static uint32_t
cvt_float_int(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, const struct alu_type *d,
              const struct alu_type *s, enum ptx_modifier irnd, uint32_t x)
{
   unsigned fb = s->bits, n = d->bits, w = n > 32 ? n : 32;
   bool ds = d->kind == CUVK_SPIRV_SINT;
   uint32_t bo = alu_b(e), u = alu_u(e, w);

   if (fb == 32 && alu_has(in, PTX_MOD_FTZ))
      x = alu_flush(e, x, 32);
   if (fb == 16) {
      x = fconvert(e, x, 32, 16);
      fb = 32;
   }
   uint32_t ft = alu_f(e, fb);
   enum GLSLstd450 op = irnd == PTX_MOD_RNI ? GLSLstd450RoundEven
                        : irnd == PTX_MOD_RZI ? GLSLstd450Trunc
                        : irnd == PTX_MOD_RMI ? GLSLstd450Floor : GLSLstd450Ceil;
   uint32_t r = cuvk_spirv_glsl(e, op, ft, x);
   /* Limits: powers of two, exact in either format. */
   unsigned hexp = ds ? n - 1 : n;
   uint64_t hi_f = fb == 32 ? (uint64_t)(127 + hexp) << 23 : (uint64_t)(1023 + hexp) << 52;
   uint64_t lo_f = ds ? (fb == 32 ? (uint64_t)(127 + n - 1) << 23 | 0x80000000u
                                  : (uint64_t)(1023 + n - 1) << 52 | (1ull << 63))
                      : 0;
   uint32_t hi_lim = alu_cf(e, fb, hi_f), lo_lim = alu_cf(e, fb, lo_f);
   uint32_t above = cuvk_spirv_val(e, SpvOpFOrdGreaterThanEqual, bo, r, hi_lim);
   uint32_t below = cuvk_spirv_val(e, SpvOpFOrdLessThan, bo, r, lo_lim);
   uint32_t inside = cuvk_spirv_val(e, SpvOpLogicalAnd, bo,
                                    cuvk_spirv_val(e, SpvOpLogicalNot, bo, above),
                                    cuvk_spirv_val(e, SpvOpLogicalNot, bo, below));
   uint32_t safe = alu_sel(e, ft, inside, r, alu_cf(e, fb, 0));
   uint32_t c = cuvk_spirv_val(e, ds ? SpvOpConvertFToS : SpvOpConvertFToU, u, safe);
   uint64_t maxv = ds ? mask_of(n - 1) : mask_of(n);
   uint64_t minv = ds ? sext(1ull << (n - 1), n) & mask_of(w) : 0;
   uint64_t nanv = s->bits == 64 || n == 64 ? 1ull << (n - 1) : 0;

   c = alu_sel(e, u, below, alu_cu(e, w, minv), c);
   c = alu_sel(e, u, above, alu_cu(e, w, maxv), c);
   c = alu_sel(e, u, alu_isnan(e, x, fb), alu_cu(e, w, nanv), c);
   return w > n ? cuvk_spirv_val(e, SpvOpUConvert, alu_u(e, n), c) : c;
}

/* An integer of s (8 to 64 bits, either sign) rounded to bf16 in mode,
 * on the integers: the magnitude keeps its top 8 significant bits, the
 * bits below decide the rounding, and the kept ones (at most 2^8 after
 * rounding up) times 2^shift form an f32 exactly, whose top half is the
 * bf16.  Never rounds twice, as going through an f32 conversion of a 32-
 * or 64-bit integer would. */
static uint32_t
int_to_bf16(struct cuvk_spirv_emitter *e, uint32_t v, const struct alu_type *s, enum alu_round mode)
{
   unsigned w = s->bits == 64 ? 64 : 32;
   bool sg = s->kind == CUVK_SPIRV_SINT;
   uint32_t u = alu_u(e, w), u32 = alu_u(e, 32), bo = alu_b(e);

   v = int_convert(e, v, w, s->bits, sg);
   uint32_t neg = sg ? cuvk_spirv_val(e, SpvOpSLessThan, bo, v, alu_cu(e, w, 0))
                     : cuvk_spirv_const_bool(e, false);
   /* INT_MIN's negation, 2^(w-1), is right as an unsigned magnitude. */
   uint32_t mag = sg ? alu_sel(e, u, neg, cuvk_spirv_val(e, SpvOpSNegate, u, v), v) : v;
   uint32_t msb;   /* -1 for 0 */
   if (w == 64) {
      uint32_t hi = cuvk_spirv_val(e, SpvOpUConvert, u32,
                                   cuvk_spirv_val(e, SpvOpShiftRightLogical, u, mag,
                                                  alu_cu(e, 64, 32)));
      uint32_t lo = cuvk_spirv_val(e, SpvOpUConvert, u32, mag);
      msb = alu_sel(e, u32, cuvk_spirv_val(e, SpvOpINotEqual, bo, hi, alu_cu(e, 32, 0)),
                    cuvk_spirv_val(e, SpvOpIAdd, u32, cuvk_spirv_glsl(e, GLSLstd450FindUMsb, u32, hi),
                                   alu_cu(e, 32, 32)),
                    cuvk_spirv_glsl(e, GLSLstd450FindUMsb, u32, lo));
   } else {
      msb = cuvk_spirv_glsl(e, GLSLstd450FindUMsb, u32, mag);
   }
   uint32_t shift32 = cuvk_spirv_glsl(e, GLSLstd450SMax, u32,
                                      cuvk_spirv_val(e, SpvOpISub, u32, msb, alu_cu(e, 32, 7)),
                                      alu_cu(e, 32, 0));
   uint32_t shift = int_convert(e, shift32, w, 32, false);
   uint32_t kept = cuvk_spirv_val(e, SpvOpShiftRightLogical, u, mag, shift);
   uint32_t one_at = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, alu_cu(e, w, 1), shift);
   uint32_t rem = cuvk_spirv_val(e, SpvOpBitwiseAnd, u, mag,
                                 cuvk_spirv_val(e, SpvOpISub, u, one_at, alu_cu(e, w, 1)));
   uint32_t half = cuvk_spirv_val(e, SpvOpShiftRightLogical, u, one_at, alu_cu(e, w, 1));
   uint32_t inexact = cuvk_spirv_val(e, SpvOpINotEqual, bo, rem, alu_cu(e, w, 0));
   uint32_t up;
   switch (mode) {
   case ALU_RN: {
      uint32_t odd = cuvk_spirv_val(e, SpvOpINotEqual, bo,
                                    cuvk_spirv_val(e, SpvOpBitwiseAnd, u, kept, alu_cu(e, w, 1)),
                                    alu_cu(e, w, 0));
      up = cuvk_spirv_val(e, SpvOpLogicalOr, bo,
                          cuvk_spirv_val(e, SpvOpUGreaterThan, bo, rem, half),
                          cuvk_spirv_val(e, SpvOpLogicalAnd, bo,
                                         cuvk_spirv_val(e, SpvOpIEqual, bo, rem, half), odd));
      up = cuvk_spirv_val(e, SpvOpLogicalAnd, bo, inexact, up);
      break;
   }
   case ALU_RZ: up = cuvk_spirv_const_bool(e, false); break;
   case ALU_RM: up = cuvk_spirv_val(e, SpvOpLogicalAnd, bo, inexact, neg); break;
   default:
      up = cuvk_spirv_val(e, SpvOpLogicalAnd, bo, inexact, cuvk_spirv_val(e, SpvOpLogicalNot, bo, neg));
      break;
   }
   uint32_t k = cuvk_spirv_val(e, SpvOpIAdd, u32, w == 64 ? cuvk_spirv_val(e, SpvOpUConvert, u32, kept)
                                                          : kept,
                               alu_sel(e, u32, up, alu_cu(e, 32, 1), alu_cu(e, 32, 0)));
   /* k <= 2^8 and 2^shift <= 2^56: the product is exact in f32. */
   uint32_t p2 = as_f(e, cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32,
                                        cuvk_spirv_val(e, SpvOpIAdd, u32, shift32, alu_cu(e, 32, 127)),
                                        alu_cu(e, 32, 23)), 32);
   uint32_t f = wop(e, SpvOpFMul, 32, cuvk_spirv_val(e, SpvOpConvertUToF, alu_f(e, 32), k), p2);
   uint32_t r = cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, as_u(e, f, 32), alu_cu(e, 32, 16));
   return alu_sel(e, u32, neg, cuvk_spirv_val(e, SpvOpBitwiseOr, u32, r, alu_cu(e, 32, 0x8000)), r);
}

/* bf16: its bits in a b16 register.  f32 -> bf16 rounds to nearest even
 * (or towards zero) on the bits; NaN gives 0x7fff as on sm_90.  Integers
 * (sm_90's cvt.rXi.s32.bf16, cvt.rn.bf16.s32 and the other widths): to an
 * integer as from the bf16's f32 (exact: bf16 is f32's top half), NaN to
 * 0 below 64 bits and to the sign bit for 64 as from f16 and f32; from an
 * integer by int_to_bf16. */
static int
cvt_bf16(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, const struct alu_type *d,
         const struct alu_type *s, enum alu_round mode, bool rgiven, enum ptx_modifier irnd)
{
   uint32_t u = alu_u(e, 32);

   if (!cuvk_spirv_target(e)->int16)
      return alu_refuse(e, CUVK_CC_UNSUPPORTED, in, "%s: the device lacks shaderInt16",
                        alu_name(in));
   /* (bf16 itself is kept as an unsigned 16-bit integer.) */
   bool dint = d->mod != PTX_MOD_BF16 && (d->kind == CUVK_SPIRV_SINT || d->kind == CUVK_SPIRV_UINT);
   bool sint = s->mod != PTX_MOD_BF16 && (s->kind == CUVK_SPIRV_SINT || s->kind == CUVK_SPIRV_UINT);
   if ((d->mod == PTX_MOD_BF16 && sint) || (s->mod == PTX_MOD_BF16 && dint)) {
      const struct alu_type *it = sint ? s : d;
      if (!alu_check_type(e, in, it))
         return -1;
      if (alu_has(in, PTX_MOD_RELU) || alu_has(in, PTX_MOD_SATFINITE) ||
          alu_has(in, PTX_MOD_FTZ))
         return alu_refuse(e, CUVK_CC_UNSUPPORTED, in, "%s: .relu, .satfinite and .ftz are not "
                           "translated here", alu_name(in));
      uint32_t r;
      if (dint) {
         if (irnd == PTX_MOD_COUNT || rgiven)
            return alu_refuse(e, CUVK_CC_INVALID, in, "%s: bf16 to an integer needs .rni, .rzi, "
                              ".rmi or .rpi", alu_name(in));
         uint32_t b = cuvk_spirv_val(e, SpvOpUConvert, u, alu_read(e, in, 0, CUVK_SPIRV_UINT, 16));
         uint32_t x = as_f(e, cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, b, alu_cu(e, 32, 16)), 32);
         struct alu_type f32 = { .mod = PTX_MOD_F32, .kind = CUVK_SPIRV_FLOAT, .bits = 32 };
         r = cvt_float_int(e, in, d, &f32, irnd, x);
         cuvk_spirv_write(e, &in->dst[0], r, d->kind, d->bits);
      } else {
         if (irnd != PTX_MOD_COUNT)
            return alu_refuse(e, CUVK_CC_INVALID, in, "%s: integer rounding of an integer",
                              alu_name(in));
         r = int_to_bf16(e, alu_read(e, in, 0, s->kind, s->bits), s, mode);
         cuvk_spirv_write(e, &in->dst[0], cuvk_spirv_val(e, SpvOpUConvert, alu_u(e, 16), r),
                          CUVK_SPIRV_UINT, 16);
      }
      return 1;
   }
   if (d->mod == PTX_MOD_BF16 && s->mod == PTX_MOD_F32 && rgiven &&
       (mode == ALU_RN || mode == ALU_RZ) && !alu_has(in, PTX_MOD_RELU) &&
       !alu_has(in, PTX_MOD_SATFINITE)) {
      uint32_t x = alu_read(e, in, 0, CUVK_SPIRV_FLOAT, 32);
      if (alu_has(in, PTX_MOD_FTZ))
         x = alu_flush(e, x, 32);
      uint32_t b = as_u(e, x, 32), r = b;
      if (mode == ALU_RN) {
         uint32_t odd = cuvk_spirv_val(e, SpvOpBitwiseAnd, u,
                                       cuvk_spirv_val(e, SpvOpShiftRightLogical, u, b,
                                                      alu_cu(e, 32, 16)),
                                       alu_cu(e, 32, 1));
         r = cuvk_spirv_val(e, SpvOpIAdd, u, b,
                            cuvk_spirv_val(e, SpvOpIAdd, u, odd, alu_cu(e, 32, 0x7fff)));
      }
      r = cuvk_spirv_val(e, SpvOpShiftRightLogical, u, r, alu_cu(e, 32, 16));
      r = alu_sel(e, u, alu_isnan(e, x, 32), alu_cu(e, 32, 0x7fff), r);
      cuvk_spirv_write(e, &in->dst[0], cuvk_spirv_val(e, SpvOpUConvert, alu_u(e, 16), r),
                       CUVK_SPIRV_UINT, 16);
      return 1;
   }
   if (d->mod == PTX_MOD_F32 && s->mod == PTX_MOD_BF16 && !rgiven) {
      uint32_t b = cuvk_spirv_val(e, SpvOpUConvert, u, alu_read(e, in, 0, CUVK_SPIRV_UINT, 16));
      uint32_t x = as_f(e, cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, b, alu_cu(e, 32, 16)), 32);
      cuvk_spirv_write(e, &in->dst[0], finish(e, in, x, 32), CUVK_SPIRV_FLOAT, 32);
      return 1;
   }
   return alu_refuse(e, CUVK_CC_UNSUPPORTED, in, "%s: this bf16 conversion is not translated",
                     alu_name(in));
}

/* cvt.rn/.rz.f16x2/.bf16x2.f32 d, a, b: a rounded into the upper half, b
 * into the lower, on the bits (no f16 value is formed). */
static int
cvt_pack(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, const struct alu_type *d,
         enum alu_round mode, bool rgiven)
{
   uint32_t u = alu_u(e, 32), r = 0;
   bool bf = d->mod == PTX_MOD_BF16X2;

   if (!rgiven || (mode != ALU_RN && mode != ALU_RZ) || alu_has(in, PTX_MOD_FTZ) ||
       alu_has(in, PTX_MOD_SAT))
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: packs with .rn or .rz only", alu_name(in));
   if (alu_has(in, PTX_MOD_RELU) || alu_has(in, PTX_MOD_SATFINITE))
      return alu_refuse(e, CUVK_CC_UNSUPPORTED, in, "%s: .relu and .satfinite are not translated",
                        alu_name(in));
   for (unsigned i = 0; i < 2; i++) {
      uint32_t x = alu_read(e, in, i, CUVK_SPIRV_FLOAT, 32), l;
      if (bf) {
         uint32_t b = as_u(e, x, 32);
         if (mode == ALU_RN) {
            uint32_t odd = cuvk_spirv_val(e, SpvOpBitwiseAnd, u,
                                          cuvk_spirv_val(e, SpvOpShiftRightLogical, u, b,
                                                         alu_cu(e, 32, 16)),
                                          alu_cu(e, 32, 1));
            b = cuvk_spirv_val(e, SpvOpIAdd, u, b,
                               cuvk_spirv_val(e, SpvOpIAdd, u, odd, alu_cu(e, 32, 0x7fff)));
         }
         l = cuvk_spirv_val(e, SpvOpShiftRightLogical, u, b, alu_cu(e, 32, 16));
         l = alu_sel(e, u, alu_isnan(e, x, 32), alu_cu(e, 32, 0x7fff), l);
      } else {
         l = f16_narrow_u32(e, x, 32, mode);
      }
      r = i ? cuvk_spirv_val(e, SpvOpBitwiseOr, u, r, l)
            : cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, l, alu_cu(e, 32, 16));
   }
   cuvk_spirv_write(e, &in->dst[0], r, CUVK_SPIRV_UINT, 32);
   return 1;
}

int
alu_lower_cvt(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   struct alu_type d, s;
   enum ptx_modifier irnd = PTX_MOD_COUNT;
   enum alu_round mode;
   bool rgiven;
   uint32_t r;

   if (!alu_type(in, 0, &d) || !alu_type(in, 1, &s))
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: cvt needs two types", alu_name(in));
   if ((d.mod == PTX_MOD_F16X2 || d.mod == PTX_MOD_BF16X2) && s.mod == PTX_MOD_F32 &&
       in->dst_count == 1 && in->src_count == 2) {
      if (!parse_round(e, in, &mode, &rgiven))
         return -1;
      return cvt_pack(e, in, &d, mode, rgiven);
   }
   if (in->dst_count != 1 || in->src_count != 1)
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: expected one source", alu_name(in));
   for (unsigned i = 0; i < in->mod_count; i++)
      if (in->mods[i] == PTX_MOD_RNI || in->mods[i] == PTX_MOD_RZI ||
          in->mods[i] == PTX_MOD_RMI || in->mods[i] == PTX_MOD_RPI)
         irnd = in->mods[i];
   if (!parse_round(e, in, &mode, &rgiven))
      return -1;
   if (d.mod == PTX_MOD_BF16 || s.mod == PTX_MOD_BF16)
      return cvt_bf16(e, in, &d, &s, mode, rgiven, irnd);
   if (!alu_check_type(e, in, &d) || !alu_check_type(e, in, &s))
      return -1;
   if (alu_has(in, PTX_MOD_RELU) || alu_has(in, PTX_MOD_SATFINITE))
      return alu_refuse(e, CUVK_CC_UNSUPPORTED, in, "%s: .relu and .satfinite are not translated",
                        alu_name(in));
   if (d.kind == CUVK_SPIRV_BOOL || s.kind == CUVK_SPIRV_BOOL)
      return alu_refuse(e, CUVK_CC_INVALID, in, "%s: cvt of a predicate", alu_name(in));

   bool dfloat = d.kind == CUVK_SPIRV_FLOAT, sfloat = s.kind == CUVK_SPIRV_FLOAT;
   if (!dfloat && !sfloat) {
      r = cvt_int_int(e, in, &d, &s);
   } else if (dfloat && !sfloat) {
      if (irnd != PTX_MOD_COUNT)
         return alu_refuse(e, CUVK_CC_INVALID, in, "%s: integer rounding of an integer",
                           alu_name(in));
      if (cvt_int_float(e, in, &d, &s, mode, &r) < 0)
         return -1;
      if (alu_has(in, PTX_MOD_SAT))
         r = saturate(e, r, d.bits);
   } else if (!dfloat) {
      if (irnd == PTX_MOD_COUNT)
         return alu_refuse(e, CUVK_CC_INVALID, in, "%s: float to integer needs .rni, .rzi, .rmi "
                           "or .rpi", alu_name(in));
      r = cvt_float_int(e, in, &d, &s, irnd, alu_read(e, in, 0, CUVK_SPIRV_FLOAT, s.bits));
   } else {
      uint32_t x = alu_read(e, in, 0, CUVK_SPIRV_FLOAT, s.bits);
      bool ftz = alu_has(in, PTX_MOD_FTZ);
      if (ftz && s.bits == 32)
         x = alu_flush(e, x, 32);
      if (d.bits >= s.bits) {
         r = fconvert(e, x, d.bits, s.bits);   /* exact */
      } else if (d.bits == 16 && f16_by_bits(e)) {
         r = f16_narrow_bits(e, x, s.bits, mode);
      } else {
         struct exact ex = { .kind = EXACT_SUM, .wbits = s.bits, .x = x };
         r = round_fix(e, &ex, fconvert(e, x, d.bits, s.bits), d.bits, mode);
         r = alu_sel(e, alu_f(e, d.bits), alu_isnan(e, x, s.bits), alu_cf(e, d.bits, alu_fnan(d.bits)),
                     r);
      }
      if (irnd != PTX_MOD_COUNT) {
         enum GLSLstd450 op = irnd == PTX_MOD_RNI ? GLSLstd450RoundEven
                              : irnd == PTX_MOD_RZI ? GLSLstd450Trunc
                              : irnd == PTX_MOD_RMI ? GLSLstd450Floor : GLSLstd450Ceil;
         /* An f16 subnormal rounds up to 1 under .rpi: in f32 where the
          * device may flush it (the integer comes back exactly). */
         unsigned rb = d.bits == 16 && f16_by_bits(e) ? 32 : d.bits;
         r = fconvert(e, cuvk_spirv_glsl(e, op, alu_f(e, rb), fconvert(e, r, rb, d.bits)),
                      d.bits, rb);
      }
      if (ftz && d.bits == 32)
         r = alu_flush(e, r, 32);
      if (alu_has(in, PTX_MOD_SAT))
         r = saturate(e, r, d.bits);
   }
   cuvk_spirv_write(e, &in->dst[0], r, d.kind, d.bits);
   return 1;
}

uint32_t
cuvk_spirv_packed_op(struct cuvk_spirv_emitter *e, enum ptx_opcode op, bool bf, uint32_t a,
                     uint32_t b)
{
   uint32_t u = alu_u(e, 32), m = alu_cu(e, 32, 0xffff), sh = alu_cu(e, 32, 16);
   uint32_t lo[3] = { cuvk_spirv_val(e, SpvOpBitwiseAnd, u, a, m),
                      cuvk_spirv_val(e, SpvOpBitwiseAnd, u, b, m), 0 };
   uint32_t hi[3] = { cuvk_spirv_val(e, SpvOpShiftRightLogical, u, a, sh),
                      cuvk_spirv_val(e, SpvOpShiftRightLogical, u, b, sh), 0 };
   uint32_t l = packed_lane(e, NULL, op, lo, bf), h = packed_lane(e, NULL, op, hi, bf);
   return cuvk_spirv_val(e, SpvOpBitwiseOr, u, l, cuvk_spirv_val(e, SpvOpShiftLeftLogical, u, h, sh));
}

uint32_t
cuvk_spirv_f32_to_f16_bits(struct cuvk_spirv_emitter *e, uint32_t x)
{
   return f16_narrow_u32(e, x, 32, ALU_RN);
}
