/*
 * Host references for PTX's arithmetic, conversion and bit instructions,
 * written from the PTX ISA's definitions, with the cases it leaves to the
 * hardware (division by zero, NaN to integer, min/max of zeros) as an
 * H100 (sm_90) computes them; test_alu.c checks every one of those
 * against the values measured there.  Floating-point references use the
 * host's IEEE arithmetic under fesetround() for the directed modes.
 */
#ifndef CUVK_TESTS_ALU_REF_H
#define CUVK_TESTS_ALU_REF_H

#include <fenv.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t
ref_fbits(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

static inline float
ref_bitsf(uint32_t u)
{
   float f;
   memcpy(&f, &u, 4);
   return f;
}

static inline uint64_t
ref_dbits(double d)
{
   uint64_t u;
   memcpy(&u, &d, 8);
   return u;
}

static inline double
ref_bitsd(uint64_t u)
{
   double d;
   memcpy(&d, &u, 8);
   return d;
}

/* div/rem: by zero all ones; INT_MIN / -1 = INT_MIN, remainder 0. */
static inline uint64_t
ref_div(uint64_t a, uint64_t b, unsigned bits, bool sign, bool rem)
{
   uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1;
   a &= m, b &= m;
   if (b == 0)
      return m;
   if (!sign)
      return (rem ? a % b : a / b) & m;
   int64_t sa = (int64_t)(a << (64 - bits)) >> (64 - bits);
   int64_t sb = (int64_t)(b << (64 - bits)) >> (64 - bits);
   if (sb == -1)
      return rem ? 0 : (uint64_t)(-(uint64_t)sa) & m;
   return (uint64_t)(rem ? sa % sb : sa / sb) & m;
}

/* shl/shr with amounts past the width. */
static inline uint64_t
ref_shift(uint64_t a, uint32_t n, unsigned bits, int kind /* 0 shl, 1 shr.u, 2 shr.s */)
{
   uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1;
   a &= m;
   if (kind == 2) {
      int64_t s = (int64_t)(a << (64 - bits)) >> (64 - bits);
      return (uint64_t)(s >> (n >= bits ? bits - 1 : n)) & m;
   }
   if (n >= bits)
      return 0;
   return (kind == 0 ? a << n : a >> n) & m;
}

/* bfe: the PTX ISA's loop, literally. */
static inline uint64_t
ref_bfe(uint64_t a, uint32_t b, uint32_t c, unsigned bits, bool sign)
{
   unsigned msb = bits - 1, pos = b & 0xff, len = c & 0xff;
   unsigned sbit = 0;
   uint64_t d = 0;
   if (sign && len != 0) {
      unsigned i = pos + len - 1 < msb ? pos + len - 1 : msb;
      sbit = (a >> i) & 1;
   }
   for (unsigned i = 0; i <= msb; i++) {
      unsigned bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
      d |= (uint64_t)bit << i;
   }
   return d;
}

static inline uint64_t
ref_bfi(uint64_t a, uint64_t b, uint32_t c, uint32_t dl, unsigned bits)
{
   unsigned msb = bits - 1, pos = c & 0xff, len = dl & 0xff;
   uint64_t d = b;
   for (unsigned i = 0; i < len && pos + i <= msb; i++)
      d = (d & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
   return d;
}

static inline uint32_t
ref_bfind(uint64_t a, unsigned bits, bool sign, bool shiftamt)
{
   uint32_t d = ~0u;
   if (sign && ((a >> (bits - 1)) & 1))
      a = ~a;
   for (int i = (int)bits - 1; i >= 0; i--)
      if ((a >> i) & 1) {
         d = (uint32_t)i;
         break;
      }
   if (shiftamt && d != ~0u)
      d = bits - 1 - d;
   return d;
}

/* prmt: the generic form and the six modes. */
static inline uint32_t
ref_prmt(uint32_t a, uint32_t b, uint32_t c, int mode /* 0 generic, 1 f4e .. 6 rc16 */)
{
   uint64_t t = (uint64_t)b << 32 | a;
   uint32_t d = 0, s = c & 3;
   for (unsigned i = 0; i < 4; i++) {
      unsigned sel, idx;
      switch (mode) {
      case 1: idx = (s + i) & 7; sel = idx; break;
      case 2: idx = (s - i) & 7; sel = idx; break;
      case 3: idx = s; sel = idx; break;
      case 4: idx = i > s ? i : s; sel = idx; break;
      case 5: idx = i < s ? i : s; sel = idx; break;
      case 6: idx = (i & 1) | (s & 1) << 1; sel = idx; break;
      default: sel = (c >> (4 * i)) & 0xf; idx = sel & 7; break;
      }
      uint32_t byte = (t >> (8 * idx)) & 0xff;
      if (mode == 0 && (sel & 8))
         byte = (byte & 0x80) ? 0xff : 0;
      d |= byte << (8 * i);
   }
   return d;
}

static inline uint32_t
ref_mul24(uint32_t a, uint32_t b, bool sign, bool hi)
{
   int64_t x = sign ? (int64_t)((int32_t)(a << 8) >> 8) : (int64_t)(a & 0xffffff);
   int64_t y = sign ? (int64_t)((int32_t)(b << 8) >> 8) : (int64_t)(b & 0xffffff);
   int64_t p = x * y;
   return hi ? (uint32_t)((uint64_t)p >> 16) : (uint32_t)p;
}

static inline uint32_t
ref_shf(uint32_t a, uint32_t b, uint32_t c, bool left, bool clamp)
{
   uint32_t n = clamp ? (c < 32 ? c : 32) : c & 31;
   uint64_t t = (uint64_t)b << 32 | a;
   return left ? (uint32_t)((t << n) >> 32) : (uint32_t)(t >> n);
}

/* bmsk, szext and fns as the PTX ISA's pseudo-code spells them. */
static inline uint32_t
ref_bmsk(uint32_t a, uint32_t b, bool clamp)
{
   uint32_t a1 = a & 31, b1 = b & 31, sum = a1 + b1;
   uint32_t mask0 = ~0u << a1, mask1 = sum < 32 ? ~0u << sum : 0;
   bool over = sum >= 32;
   if (clamp && a >= 32)
      mask0 = 0, over = true;
   if (clamp && b >= 32)
      over = true;
   if (over)
      mask1 = 0;
   else if (b1 == 0)
      mask1 = ~0u;
   return mask0 & ~mask1;
}

static inline uint32_t
ref_szext(uint32_t a, uint32_t b, bool clamp, bool sign)
{
   uint32_t b1 = b & 31;
   bool too_large = clamp && b >= 32;
   uint32_t mask = too_large ? 0 : ~0u << b1;
   bool sbit = !(b1 == 0 || too_large || !sign) && ((a >> ((b1 - 1) & 31)) & 1);
   return (a & ~mask) | (sbit ? mask : 0);
}

/* A base past 31 is undefined in PTX; the pseudo-code's loop then finds
 * nothing, and so does this (and cuvk). */
static inline uint32_t
ref_fns(uint32_t mask, uint32_t base, int32_t offset)
{
   if (base > 31)
      return ~0u;
   if (offset == 0)
      return (mask >> base) & 1 ? base : ~0u;
   int64_t count = offset < 0 ? -(int64_t)offset - 1 : offset - 1;
   int inc = offset > 0 ? 1 : -1;
   for (int pos = (int)base; pos >= 0 && pos < 32; pos += inc) {
      if ((mask >> pos) & 1) {
         if (count == 0)
            return (uint32_t)pos;
         count--;
      }
   }
   return ~0u;
}

static inline uint32_t
ref_lop3(uint32_t a, uint32_t b, uint32_t c, uint8_t lut)
{
   uint32_t d = 0;
   for (unsigned i = 0; i < 32; i++) {
      unsigned k = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1);
      d |= (uint32_t)((lut >> k) & 1) << i;
   }
   return d;
}

static inline int32_t
ref_sat_s32(int64_t v)
{
   return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

/* min/max.f32: a NaN operand loses; -0 < +0; both NaN: 0x7fffffff. */
static inline uint32_t
ref_fminmax(uint32_t a, uint32_t b, bool max, bool nan_mode)
{
   float x = ref_bitsf(a), y = ref_bitsf(b);
   if (isnan(x) || isnan(y)) {
      if (nan_mode || (isnan(x) && isnan(y)))
         return 0x7fffffffu;
      return isnan(x) ? b : a;
   }
   if (x == y)
      return max ? a & b : a | b;   /* zeros: the sign bit decides */
   return (max ? x > y : x < y) ? a : b;
}

/* cvt.rXi.{s,u}N.{f32,f64}: rounded, saturated; NaN gives the
 * destination's sign bit alone when the source is f64 (src64) or the
 * destination 64 bits, else 0 (measured on an H100, signed or not). */
static inline uint64_t
ref_f2i(double x, unsigned bits, bool sign, int mode /* 0 rni 1 rzi 2 rmi 3 rpi */, bool src64)
{
   uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1;
   if (isnan(x))
      return src64 || bits == 64 ? 1ull << (bits - 1) : 0;
   double r = mode == 0 ? nearbyint(x) : mode == 1 ? trunc(x) : mode == 2 ? floor(x) : ceil(x);
   if (sign) {
      double hi = ldexp(1.0, (int)bits - 1);
      if (r >= hi)
         return (m >> 1);
      if (r < -hi)
         return (1ull << (bits - 1)) | ~m;
      return (uint64_t)(int64_t)r & m;
   }
   if (r >= ldexp(1.0, (int)bits))
      return m;
   if (r <= 0)
      return 0;
   return (uint64_t)r;
}

/* f32 -> f16 in a rounding mode (0 rn, 1 rz, 2 rm, 3 rp), by the bits;
 * NaN gives 0x7fff as on sm_90. */
static inline uint16_t
ref_f32_to_f16(uint32_t x, int mode)
{
   uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
   uint32_t ax = x & 0x7fffffffu;
   if (ax > 0x7f800000u)
      return 0x7fff;
   if (ax == 0x7f800000u)
      return sign | 0x7c00;
   /* Work on the exact value |x| = m * 2^e. */
   int e = (int)(ax >> 23);
   uint64_t mant = ax & 0x7fffff;
   if (e == 0)
      e = 1;
   else
      mant |= 0x800000;
   e -= 127 + 23;   /* |x| = mant * 2^e */
   /* f16 quantum at this magnitude: 2^(max(exp16, -14) - 10). */
   int q;
   if (mant == 0)
      return sign;
   int top = 63 - __builtin_clzll(mant) + e;   /* floor(log2 |x|) */
   q = (top < -14 ? -14 : top) - 10;
   /* value in quanta: mant * 2^(e - q), with remainder */
   uint64_t n, rem = 0, half;
   int sh = e - q;
   if (sh >= 0) {
      n = mant << sh;
      half = 0;
   } else if (sh <= -40) {
      /* Far below the smallest subnormal: a nonzero remainder under half
       * a quantum. */
      n = 0;
      rem = 1;
      half = 2;
   } else {
      n = mant >> -sh;
      rem = mant & ((1ull << -sh) - 1);
      half = 1ull << (-sh - 1);
   }
   bool neg = sign != 0, up;
   switch (mode) {
   case 0: up = sh < 0 && (rem > half || (rem == half && (n & 1))); break;
   case 1: up = false; break;
   case 2: up = neg && rem != 0; break;
   default: up = !neg && rem != 0; break;
   }
   n += up;
   /* n quanta of 2^q: encode (n may have carried into the next binade) */
   int ex = q + 10;   /* exponent of the leading bit if n has 11 bits */
   while (n >= 2048) {   /* cannot lose bits: only from the carry */
      n >>= 1;
      ex++;
   }
   if (n < 1024)       /* subnormal (ex == -4 here) */
      return sign | (uint16_t)n;
   if (ex > 15) {
      bool inf = mode == 0 || (mode == 2 && neg) || (mode == 3 && !neg);
      return sign | (inf ? 0x7c00 : 0x7bff);
   }
   return sign | (uint16_t)((ex + 15) << 10) | (uint16_t)(n & 0x3ff);
}

static inline uint16_t
ref_f32_to_bf16(uint32_t x, bool rz)
{
   if ((x & 0x7fffffffu) > 0x7f800000u)
      return 0x7fff;
   if (rz)
      return (uint16_t)(x >> 16);
   return (uint16_t)((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

/* cvt.{rn,rz,rm,rp}.bf16.{s,u}N: the integer v (N bits) rounded to bf16
 * in mode (0 rn, 1 rz, 2 rm, 3 rp) with exact integer arithmetic: the two
 * bf16 neighbours of |v| and, for rn, twice |v| against their sum. */
static inline uint16_t
ref_int_to_bf16(uint64_t v, unsigned bits, bool sign, int mode)
{
   uint64_t m = bits == 64 ? v : v & ((1ull << bits) - 1);
   bool neg = false;
   if (sign && bits < 64 && (m >> (bits - 1)))
      m |= ~((1ull << bits) - 1);
   if (sign && (int64_t)m < 0)
      neg = true, m = 0 - m;
   if (m == 0)
      return 0;
   int top = 63 - __builtin_clzll(m);
   unsigned __int128 lo = m, hi = m;
   if (top > 7) {
      uint64_t q = 1ull << (top - 7);
      lo = m & ~(q - 1);
      hi = lo + q;
   }
   unsigned __int128 r;
   if (lo == m)
      r = lo;
   else if (mode == 1)
      r = lo;
   else if (mode == 2)
      r = neg ? hi : lo;
   else if (mode == 3)
      r = neg ? lo : hi;
   else {
      unsigned __int128 twice = (unsigned __int128)m * 2;
      r = twice < lo + hi ? lo : twice > lo + hi ? hi
          : ((lo >> (top - 7)) & 1) ? hi : lo;
   }
   /* At most 9 significant bits: exact in f32. */
   float f = (float)(long double)r;
   return (uint16_t)((ref_fbits(f) >> 16) | (neg ? 0x8000u : 0));
}

/* An f32 operation in a rounding mode, by the host's FPU. */
static inline float
ref_f32_op(char op, float a, float b, float c, int mode)
{
   static const int modes[] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
   int old = fegetround();
   volatile float x = a, y = b, z = c, r;
   fesetround(modes[mode]);
   switch (op) {
   case '+': r = x + y; break;
   case '-': r = x - y; break;
   case '*': r = x * y; break;
   case '/': r = x / y; break;
   case 's': r = sqrtf(x); break;
   default: r = fmaf(x, y, z); break;
   }
   fesetround(old);
   return r;
}

/* f16 and bf16 (test_alu_run.c, test_alu_kernels.c). */
static inline double
ref_f16_value(uint16_t h)
{
   unsigned ex = (h >> 10) & 31, m = h & 0x3ff;
   double v = ex == 0 ? ldexp(m, -24) : ex == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, (int)ex - 25);
   return (h & 0x8000) ? -v : v;
}

/* f64 -> f16 in mode: to f32 rounded to odd (towards zero, then the last
 * bit set when inexact), which keeps enough bits for one correct rounding
 * to f16 by ref_f32_to_f16. */
static inline uint16_t
ref_f64_to_f16(double d, int mode)
{
   if (isnan(d))
      return 0x7fff;
   int old = fegetround();
   fesetround(FE_TOWARDZERO);
   volatile double vd = d;
   volatile float f = (float)vd;
   fesetround(old);
   uint32_t b = ref_fbits(f);
   if ((double)f != d && !isinf(f))
      b |= 1;
   return ref_f32_to_f16(b, mode);
}

/* a * b + c rounded to odd in f64: towards zero, then the last bit set
 * when inexact (the host's fma honours the rounding mode). */
static inline double
ref_fma_odd(double a, double b, double c)
{
   int old = fegetround();
   feclearexcept(FE_INEXACT);
   fesetround(FE_TOWARDZERO);
   volatile double r = fma(a, b, c);
   bool inexact = fetestexcept(FE_INEXACT) != 0;
   fesetround(old);
   if (inexact && !isinf(r) && !isnan(r))
      return ref_bitsd(ref_dbits(r) | 1);
   return r;
}

/* f64 rounded to odd, to bf16 to nearest even (through f32 rounded to odd). */
static inline uint16_t
ref_f64_to_bf16(double d)
{
   if (isnan(d))
      return 0x7fff;
   int old = fegetround();
   fesetround(FE_TOWARDZERO);
   volatile double vd = d;
   volatile float f = (float)vd;
   fesetround(old);
   uint32_t b = ref_fbits(f);
   if ((double)f != d && !isinf(f))
      b |= 1;
   return ref_f32_to_bf16(b, false);
}

static inline double
ref_bf16_value(uint16_t h)
{
   return ref_bitsf((uint32_t)h << 16);
}

enum ref_pop { P_ADD, P_SUB, P_MUL, P_FMA, P_MIN, P_MAX, P_MAXNAN, P_NEG, P_ABS, P_ADDSAT, P_FMARELU };

/* One lane of a packed (or bf16) instruction, as PTX defines it. */
static inline uint16_t
ref_lane(enum ref_pop op, uint16_t a, uint16_t b, uint16_t c, bool bf)
{
   uint16_t nan_mag = bf ? 0x7f80 : 0x7c00;
   bool an = (a & 0x7fff) > nan_mag, bn = (b & 0x7fff) > nan_mag;
   double x = bf ? ref_bf16_value(a) : ref_f16_value(a), y = bf ? ref_bf16_value(b) : ref_f16_value(b);
   double z = bf ? ref_bf16_value(c) : ref_f16_value(c);
   uint16_t r;
   switch (op) {
   case P_NEG: return a ^ 0x8000;
   case P_ABS: return a & 0x7fff;
   case P_MIN: case P_MAX: case P_MAXNAN:
      if (op == P_MAXNAN && (an || bn))
         return 0x7fff;
      if (an && bn)
         return 0x7fff;
      if (an)
         return b;
      if (bn)
         return a;
      if (op == P_MIN)
         return x < y || (x == y && (a & 0x8000)) ? a : b;
      return x > y || (x == y && !(a & 0x8000)) ? a : b;
   default:
      break;
   }
   /* A product of two lanes is exact in f64 (11 + 11 or 8 + 8 bits, and
    * bf16's exponents fit), sums are rounded to odd there. */
   double d = op == P_MUL ? x * y
            : op == P_FMA || op == P_FMARELU ? ref_fma_odd(x, y, z)
            : ref_fma_odd(1.0, x, op == P_SUB ? -y : y);
   r = bf ? ref_f64_to_bf16(d) : ref_f64_to_f16(d, 0);
   if (op == P_ADDSAT)
      r = (r & 0x7fff) > 0x7c00 || (r & 0x8000) ? 0 : r >= 0x3c00 ? 0x3c00 : r;
   if (op == P_FMARELU && (r & 0x8000) && r != 0x8000 && (r & 0x7fff) <= nan_mag)
      r = 0;
   return r;
}

#endif
