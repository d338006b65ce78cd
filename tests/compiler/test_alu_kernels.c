/*
 * nvcc's kernels of tests/kernels/alu_int.cu and alu_float.cu translated
 * by the whole compiler (cuvk_cc_*: structurizer, emitter, the arithmetic
 * lowering) and run on the Vulkan device through kernel_runner.c, every
 * element compared with the host references of alu_ref.h: exactly for
 * integer, bit and correctly rounded float results, within PTX's bound
 * (written next to each) for the approximate ones.
 *
 * test_alu_kernels int|float|half|half_sm90|half_approx|half_approx_sm90|dot|libm|bits|intrinsics
 *                  KERNEL.ptx [fast]
 */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alu_ref.h"
#include "compiler_test.h"
#include "kernel_runner.h"

static unsigned failures, shown;

/* One element under check: its kernel, index and inputs, which a failure
 * prints with the slot and both values. */
struct elem {
   const char *kernel;
   int i;
   uint64_t in[3];
   unsigned nin;
};

static void
expect(const struct elem *e, int k, uint64_t got, uint64_t want)
{
   if (got == want)
      return;
   failures++;
   if (shown++ < 12) {
      fprintf(stderr, "%s: element %d slot %d inputs", e->kernel, e->i, k);
      for (unsigned j = 0; j < e->nin; j++)
         fprintf(stderr, " %#llx", (unsigned long long)e->in[j]);
      fprintf(stderr, ": got %#llx, want %#llx\n", (unsigned long long)got,
              (unsigned long long)want);
   }
}

/* Slot k of a row of width-byte slots. */
static uint64_t
slot(const void *row, unsigned width, unsigned k)
{
   switch (width) {
   case 2: return ((const uint16_t *)row)[k];
   case 4: return ((const uint32_t *)row)[k];
   default: return ((const uint64_t *)row)[k];
   }
}

/* Slots [from, to) of an element's output row against want, both rows of
 * width-byte slots; with any_nan, a NaN (f32 in 4-byte slots, f64 in
 * 8-byte ones) matches any NaN. */
static void
expect_slots(const struct elem *e, const void *got, const void *want, unsigned width,
             unsigned from, unsigned to, bool any_nan)
{
   for (unsigned k = from; k < to; k++) {
      uint64_t g = slot(got, width, k), w = slot(want, width, k);
      if (any_nan && (width == 4 ? isnan(ref_bitsf((uint32_t)g)) && isnan(ref_bitsf((uint32_t)w))
                                 : isnan(ref_bitsd(g)) && isnan(ref_bitsd(w))))
         continue;
      expect(e, (int)k, g, w);
   }
}

/* The whole row, exactly. */
static void
expect_row(const struct elem *e, const void *got, const void *want, unsigned width, unsigned outs)
{
   expect_slots(e, got, want, width, 0, outs, false);
}

/* count buffers, bufs[k] of n * elem_bytes[k] bytes; false (a failure)
 * when one is missing. */
static bool
alloc_buffers(struct kr *r, int n, const unsigned *elem_bytes, struct kr_buffer **bufs,
              unsigned count)
{
   bool ok = true;
   for (unsigned k = 0; k < count; k++)
      ok &= (bufs[k] = kr_alloc(r, (uint64_t)n * elem_bytes[k])) != NULL;
   if (!ok)
      failures++;
   return ok;
}

/* Runs kernel once over n threads, 64 a block, with the buffers'
 * addresses and then n as its arguments; kr_run's result, *fault and
 * *status as it gives them. */
static bool
launch(struct kr *r, const char *kernel, int n, struct kr_buffer *const *bufs, unsigned count,
       uint32_t *fault, enum cuvk_cc_status *status)
{
   struct kr_arg args[8];
   const uint32_t g[3] = { (uint32_t)(n + 63) / 64, 1, 1 }, b[3] = { 64, 1, 1 };
   for (unsigned k = 0; k < count; k++)
      args[k] = KR_ARG(bufs[k]->addr);
   args[count] = KR_ARG(n);
   return kr_run(r, kernel, g, b, 0, args, count + 1, fault, status);
}

/* launch, which must compile and run without a fault: false (a failure,
 * printed) otherwise. */
static bool
run(struct kr *r, const char *kernel, int n, struct kr_buffer *const *bufs, unsigned count)
{
   uint32_t fault;
   enum cuvk_cc_status status;
   if (!launch(r, kernel, n, bufs, count, &fault, &status) || fault) {
      fprintf(stderr, "%s: did not run (status %d, fault %u)\n", kernel, status, fault);
      failures++;
      return false;
   }
   return true;
}

static uint64_t rng = 0x5eed2024;

static uint64_t
rnd(void)
{
   return cuvk_test_rand(&rng);
}

static uint64_t
input(int i, int k)
{
   static const uint64_t edge[] = { 0, 1, 2, 5, 31, 32, 33, 63, 64, 0x7fffffff, 0x80000000,
                                    0xffffffff, 0x8000000000000000ull, 0x7fffffffffffffffull,
                                    ~0ull, 0x8000, 0xffff };
   const int ne = (int)(sizeof(edge) / sizeof(edge[0]));
   if (k < 2 && i < ne * ne)
      return edge[k == 0 ? i % ne : i / ne];
   uint64_t v = rnd();
   return (rnd() & 1) ? v >> (rnd() % 64) : v;
}

static int32_t
sat32(int64_t v)
{
   return ref_sat_s32(v);
}

static void
case_int32(struct kr *r)
{
   enum { N = 1024, OUTS = 48 };
   struct kr_buffer *bufs[4];
   if (!alloc_buffers(r, N, (const unsigned[]){ 4, 4, 4, OUTS * 4 }, bufs, 4))
      return;
   uint32_t *x = bufs[0]->map, *y = bufs[1]->map, *z = bufs[2]->map, *out = bufs[3]->map;
   for (int i = 0; i < N; i++)
      x[i] = (uint32_t)input(i, 0), y[i] = (uint32_t)input(i, 1), z[i] = (uint32_t)input(i, 2);
   if (!run(r, "alu_int32", N, bufs, 4))
      return;
   for (int i = 0; i < N; i++) {
      uint32_t X = x[i], Y = y[i], Z = z[i];
      int32_t sx = (int32_t)X, sy = (int32_t)Y;
      struct elem e = { "alu_int32", i, { X, Y, Z }, 3 };
      uint64_t s96a = (uint64_t)X + Y, s96b = (uint64_t)Y + Z + (s96a >> 32);
      uint32_t s96c = Z + X + (uint32_t)(s96b >> 32);
      uint32_t d0 = X - Y, bor = X < Y, d1 = Z - X - bor;
      uint32_t want[OUTS] = {
         X + Y, X - Y, X * Y, (uint32_t)(((uint64_t)X * Y) >> 32),
         (uint32_t)(((int64_t)sx * sy) >> 32), X * Y + Z,
         (uint32_t)ref_div(X, Y, 32, false, false), (uint32_t)ref_div(X, Y, 32, true, false),
         (uint32_t)ref_div(X, Y, 32, false, true), (uint32_t)ref_div(X, Y, 32, true, true),
         (uint32_t)(sx < sy ? sx : sy), X > Y ? X : Y, sx < 0 ? 0u - X : X,
         (uint32_t)ref_shift(X, Y & 63, 32, 0), (uint32_t)ref_shift(X, Y & 63, 32, 1),
         (uint32_t)ref_shift(X, Y & 63, 32, 2), (uint32_t)__builtin_popcount(X),
         X ? (uint32_t)__builtin_clz(X) : 32, 0, X ? (uint32_t)__builtin_ctz(X) + 1 : 0,
         (uint32_t)ref_bfe(X, Y, Z, 32, false), (uint32_t)ref_bfe(X, Y, Z, 32, true),
         (uint32_t)ref_bfi(X, Y, Z, Z >> 8, 32), ref_bfind(X, 32, false, false),
         ref_bfind(X, 32, true, false), ref_bfind(X, 32, false, true),
         ref_prmt(X, Y, Z & 0x7777, 0), ref_prmt(X, Y, Z, 1), ref_prmt(X, Y, Z, 2),
         ref_prmt(X, Y, Z, 3), ref_prmt(X, Y, Z, 4), ref_prmt(X, Y, Z, 5), ref_prmt(X, Y, Z, 6),
         ref_mul24(X, Y, false, false), ref_mul24(X, Y, true, false), ref_mul24(X, Y, false, true),
         Z + (sx > sy ? X - Y : Y - X), ref_shf(X, Y, Z, true, false), ref_shf(X, Y, Z, false, true),
         ref_lop3(X, Y, Z, 0xe8), (uint32_t)sat32((int64_t)sx + sy), (uint32_t)sat32((int64_t)sx - sy),
         (uint32_t)sat32((((int64_t)sx * sy) >> 32) + (int32_t)Z),
         (uint32_t)s96a, (uint32_t)s96b, s96c, d0, d1,
      };
      uint32_t br = 0;
      for (int k = 0; k < 32; k++)
         br |= ((X >> k) & 1u) << (31 - k);
      want[18] = br;
      expect_row(&e, out + i * OUTS, want, 4, OUTS);
   }
}

static void
case_int64(struct kr *r)
{
   enum { N = 1024, OUTS = 24 };
   struct kr_buffer *bufs[3];
   if (!alloc_buffers(r, N, (const unsigned[]){ 8, 8, OUTS * 8 }, bufs, 3))
      return;
   uint64_t *x = bufs[0]->map, *y = bufs[1]->map, *out = bufs[2]->map;
   for (int i = 0; i < N; i++)
      x[i] = input(i, 0), y[i] = input(i, 1);
   if (!run(r, "alu_int64", N, bufs, 3))
      return;
   for (int i = 0; i < N; i++) {
      uint64_t X = x[i], Y = y[i], br = 0;
      int64_t sx = (int64_t)X, sy = (int64_t)Y;
      struct elem e = { "alu_int64", i, { X, Y }, 2 };
      for (int k = 0; k < 64; k++)
         br |= ((X >> k) & 1u) << (63 - k);
      uint64_t want[OUTS] = {
         X + Y, X - Y, X * Y, (uint64_t)(((unsigned __int128)X * Y) >> 64),
         (uint64_t)(((__int128)sx * sy) >> 64), ref_div(X, Y, 64, false, false),
         ref_div(X, Y, 64, true, false), ref_div(X, Y, 64, false, true),
         ref_div(X, Y, 64, true, true), (uint64_t)(sx < sy ? sx : sy), X > Y ? X : Y,
         ref_shift(X, (uint32_t)Y & 127, 64, 0), ref_shift(X, (uint32_t)Y & 127, 64, 2),
         (uint64_t)__builtin_popcountll(X), X ? (uint64_t)__builtin_clzll(X) : 64, br,
         X ? (uint64_t)__builtin_ctzll(X) + 1 : 0,
         ref_bfe(X, (uint32_t)Y, (uint32_t)(Y >> 32), 64, true),
         (uint64_t)(uint32_t)X * (uint32_t)Y, (uint64_t)((int64_t)(int32_t)X * (int32_t)Y),
         sx < 0 ? 0 - X : X, X / (Y | 1), ref_div(X, Y | 1, 64, true, true),
         (X << 13) | (X >> 51),
      };
      expect_row(&e, out + i * OUTS, want, 8, OUTS);
   }
}

static void
case_int16(struct kr *r)
{
   enum { N = 1024, OUTS = 8 };
   struct kr_buffer *bufs[3];
   if (!alloc_buffers(r, N, (const unsigned[]){ 2, 2, OUTS * 2 }, bufs, 3))
      return;
   uint16_t *x = bufs[0]->map, *y = bufs[1]->map, *out = bufs[2]->map;
   for (int i = 0; i < N; i++)
      x[i] = (uint16_t)input(i, 0), y[i] = (uint16_t)input(i, 1);
   if (!run(r, "alu_int16", N, bufs, 3))
      return;
   for (int i = 0; i < N; i++) {
      uint16_t X = x[i], Y = y[i];
      int16_t sx = (int16_t)X, sy = (int16_t)Y;
      struct elem e = { "alu_int16", i, { X, Y }, 2 };
      uint16_t want[OUTS] = {
         (uint16_t)(X + Y), (uint16_t)(sx * sy), (uint16_t)ref_div(X, Y, 16, true, false),
         (uint16_t)ref_div(X, Y, 16, false, true), (uint16_t)ref_shift(X, Y & 31, 16, 2),
         (uint16_t)(sx < sy ? sx : sy), (uint16_t)(((uint32_t)X * Y) >> 16),
         (uint16_t)((int8_t)X + (int8_t)Y),
      };
      expect_row(&e, out + i * OUTS, want, 2, OUTS);
   }
}

/* Relative bound of each alu_f32 slot (0: exact); fast_math turns
 * x / y and sqrtf into div.approx and sqrt.approx. */
static double
f32_bound(int k, bool fast)
{
   switch (k) {
   case 3: return fast ? 0x1p-21 : 0;          /* div.approx: 2 ulp */
   case 4: return fast ? 0x1p-22 : 0;          /* sqrt.approx: rel 2^-23, 1 ulp */
   case 25: return 0x1p-21;                    /* __fdividef: div.approx, 2 ulp */
   case 27: return 0x1p-18;                    /* __expf: ex2.approx(x * log2 e), |x| <= 3 */
   case 28: case 39: return 0x1p-21;           /* lg2.approx: 2^-22 (abs. near 1: see below) */
   case 29: case 30: return -0x1p-20;          /* sin/cos.approx: abs. 2^-20.9 on [-pi, pi] */
   case 31: return 0x1.02p-11;                 /* tanh.approx: rel 2^-10.987 */
   case 32: return 0x1p-22;                    /* rsqrt.approx: rel 2^-22.9 */
   default: return 0;
   }
}

static float
rndf(double lo, double hi)
{
   double t = (double)(rnd() >> 11) / 9007199254740992.0;
   double m = exp2(log2(lo) + t * (log2(hi) - log2(lo)));
   return (float)((rnd() & 1) ? -m : m);
}

static void
case_f32(struct kr *r, bool fast)
{
   enum { N = 1024, OUTS = 40 };
   struct kr_buffer *bufs[4];
   if (!alloc_buffers(r, N, (const unsigned[]){ 4, 4, 4, OUTS * 4 }, bufs, 4))
      return;
   float *x = bufs[0]->map, *y = bufs[1]->map, *z = bufs[2]->map;
   uint32_t *out = bufs[3]->map;
   for (int i = 0; i < N; i++) {
      x[i] = rndf(0x1p-4, 3.0), y[i] = rndf(0x1p-10, 0x1p10), z[i] = rndf(0x1p-10, 0x1p10);
      if (i % 4 == 0)
         y[i] = x[i];   /* equal operands for the comparisons */
   }
   if (!run(r, "alu_f32", N, bufs, 4))
      return;
   for (int i = 0; i < N; i++) {
      float X = x[i], Y = y[i], Z = z[i];
      struct elem e = { "alu_f32", i, { ref_fbits(X), ref_fbits(Y), ref_fbits(Z) }, 3 };
      double want[OUTS];
      want[0] = ref_f32_op('+', X, Y, 0, 0);
      want[1] = ref_f32_op('-', X, Y, 0, 0);
      want[2] = ref_f32_op('*', X, Y, 0, 0);
      want[3] = ref_f32_op('/', X, Y, 0, 0);
      want[4] = ref_f32_op('s', X, 0, 0, 0);
      want[5] = ref_f32_op('f', X, Y, Z, 0);
      want[6] = fminf(X, Y);
      want[7] = fmaxf(X, Y);
      want[8] = fabsf(X);
      want[9] = copysignf(X, Y);
      for (int m = 1; m < 4; m++) {
         want[9 + m] = ref_f32_op('+', X, Y, 0, m);
         want[12 + m] = ref_f32_op('*', X, Y, 0, m);
         want[15 + m] = ref_f32_op('/', X, Y, 0, m);
         want[20 + m] = ref_f32_op('f', X, Y, Z, m);
      }
      want[19] = ref_f32_op('s', X, 0, 0, 1);
      want[20] = ref_f32_op('s', X, 0, 0, 2);
      want[24] = ref_f32_op('/', 1.0f, X, 0, 0);
      want[25] = (double)X / Y;
      want[26] = X > 0 ? (X < 1 ? X : 1.0f) : 0.0f;
      want[27] = exp(X);
      want[28] = log2(X);
      want[29] = sin(X);
      want[30] = cos(X);
      want[31] = tanh(X);
      want[32] = 1 / sqrt(X);
      want[33] = ref_f32_op('+', X, Y, 0, 0);
      float p = ref_f32_op('*', X, Y, 0, 0);
      want[34] = p > 0 ? (p < 1 ? p : 1.0f) : 0.0f;
      want[35] = fminf(X, Y);
      want[36] = (X < Y) | (X <= Y) << 1 | (X == Y) << 2 | (X != Y) << 3 | (!(X >= Y)) << 6;
      want[37] = X > 0.0f ? Y : Z;
      want[38] = ref_f32_op('/', X, Y, 0, 0);
      want[39] = log2(X);
      for (int k = 0; k < OUTS; k++) {
         uint32_t gb = out[i * OUTS + k];
         if (k == 36) {
            expect(&e, k, gb & 0x4f, (uint64_t)want[k]);
            continue;
         }
         double got = ref_bitsf(gb), bound = f32_bound(k, fast), w = want[k];
         if (isnan(w) && isnan(got))
            continue;
         if (bound == 0) {
            expect(&e, k, gb, ref_fbits((float)w));
            continue;
         }
         double err = fabs(got - w);
         bool ok = bound < 0 ? err <= -bound : err <= bound * fabs(w);
         if ((k == 28 || k == 39) && X >= 0.5f && X <= 2.0f)
            ok = err <= 0x1p-22;   /* lg2.approx: absolute 2^-22.6 on [0.5, 2] */
         if (!ok)
            expect(&e, k, gb, ref_fbits((float)w));
      }
   }
}

static void
case_f64(struct kr *r)
{
   enum { N = 1024, OUTS = 10 };
   struct kr_buffer *bufs[4];
   if (!alloc_buffers(r, N, (const unsigned[]){ 8, 8, 8, OUTS * 8 }, bufs, 4))
      return;
   double *x = bufs[0]->map, *y = bufs[1]->map, *z = bufs[2]->map;
   uint64_t *out = bufs[3]->map;
   for (int i = 0; i < N; i++) {
      x[i] = ldexp((double)(int64_t)rnd(), -(int)(rnd() % 80));
      y[i] = ldexp((double)(int64_t)rnd(), -(int)(rnd() % 80));
      z[i] = ldexp((double)(int64_t)rnd(), -(int)(rnd() % 80));
   }
   if (!run(r, "alu_f64", N, bufs, 4))
      return;
   for (int i = 0; i < N; i++) {
      volatile double X = x[i], Y = y[i], Z = z[i];
      struct elem e = { "alu_f64", i, { ref_dbits(X), ref_dbits(Y), ref_dbits(Z) }, 3 };
      uint64_t want[OUTS] = {
         ref_dbits(X + Y), ref_dbits(X * Y), ref_dbits(X / Y), ref_dbits(sqrt(X)),
         ref_dbits(fma(X, Y, Z)), ref_dbits(fmin(X, Y)), ref_dbits(fabs(X) + -Z),
         ref_dbits(1.0 / X), (uint64_t)(X < Y) | (uint64_t)isnan(X) << 1, ref_dbits(X + Y),
      };
      expect_slots(&e, out + i * OUTS, want, 8, 0, OUTS, true);
   }
}

/* Lanes that exercise half and bf16: specials, subnormals of both, random. */
static uint32_t
lanes(void)
{
   static const uint16_t special[] = { 0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7fc0, 0x3c00, 0xbc00,
                                       0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0x007f, 0x0080 };
   uint32_t r = 0;
   for (int l = 0; l < 2; l++) {
      uint16_t h;
      switch (rnd() % 5) {
      case 0: h = special[rnd() % (sizeof(special) / sizeof(special[0]))]; break;
      case 1: h = (uint16_t)((rnd() % 0x0800) | ((rnd() & 1) << 15)); break;
      default: h = (uint16_t)rnd(); break;
      }
      r |= (uint32_t)h << (16 * l);
   }
   return r;
}

static bool
lane_nan(uint16_t h, bool bf)
{
   return (h & 0x7fff) > (bf ? 0x7f80 : 0x7c00);
}

/* bf16 arithmetic as cuda_bf16.h emulates it below sm_80: in f32 rounded
 * to nearest, then to bf16 (two roundings). */
static uint16_t
bf16_emulated(enum ref_pop op, uint16_t a, uint16_t b)
{
   float x = (float)ref_bf16_value(a), y = (float)ref_bf16_value(b);
   volatile float r = op == P_ADD ? x + y : x * y;
   return ref_f32_to_bf16(ref_fbits(r), false);
}

/* tests/kernels/alu_half.cu's bf16_int: bf16 to every integer width in
 * every rounding and back, against ref_f2i and ref_int_to_bf16 (sm_90:
 * cvt between bf16 and the integers; sm_75: nvcc's way through f32). */
static void
case_bf16_int(struct kr *r)
{
   enum { N = 2048, OUTS = 48 };
   struct kr_buffer *bufs[3];
   if (!alloc_buffers(r, N, (const unsigned[]){ 4, 8, OUTS * 8 }, bufs, 3))
      return;
   struct kr_buffer *a = bufs[0], *b = bufs[1], *o = bufs[2];
   uint32_t *h = a->map;
   uint64_t *l = b->map, *out = o->map;
   for (int i = 0; i < N; i++) {
      uint64_t x = rnd();
      /* 2^-8 to 2^70 (past every integer range), halves among them */
      h[i] = (uint32_t)((((x >> 8) % 79 + 119) << 7) | (x & 0x7f) | (x >> 63 ? 0x8000 : 0));
      if (i % 8 == 0)
         h[i] = (uint32_t)(x >> 17) & 0xffff;
      l[i] = input(i, 0);
      if (i % 4 == 1)
         l[i] = rnd() >> (rnd() % 64);
      else if (i % 4 == 2)
         l[i] = ((rnd() & 0x1ff) | 0x100) << (rnd() % 55) | (rnd() & 1 ? 0 : rnd() & 1);
      if (i % 8 == 3)
         l[i] = 0 - l[i];
   }
   if (!run(r, "bf16_int", N, bufs, 3))
      return;
   static const int f2i[4] = { 0, 1, 3, 2 };   /* rn rz ru rd as ref_f2i numbers them */
   static const int i2b[4] = { 0, 1, 3, 2 };   /* and ref_int_to_bf16 */
   static const struct { unsigned bits; bool sign; } w[6] = {
      { 32, true }, { 32, false }, { 64, true }, { 64, false }, { 16, true }, { 16, false },
   };
   for (int i = 0; i < N; i++) {
      struct elem e = { "bf16_int", i, { h[i], l[i] }, 2 };
      float x = ref_bitsf(h[i] << 16);
      for (int t = 0; t < 6; t++)
         for (int m = 0; m < 4; m++) {
            uint64_t mask = w[t].bits == 64 ? ~0ull : (1ull << w[t].bits) - 1;
            uint64_t want = ref_f2i(x, w[t].bits, w[t].sign, f2i[m], false) & mask;
            expect(&e, t * 4 + m, out[i * OUTS + t * 4 + m] & mask, want);
            uint16_t bw = ref_int_to_bf16(l[i], w[t].bits, w[t].sign, i2b[m]);
            expect(&e, 24 + t * 4 + m, out[i * OUTS + 24 + t * 4 + m], bw);
         }
   }
}

/* tests/kernels/alu_half.cu: half2 and bf16 arithmetic, comparisons and
 * packing conversions, as nvcc writes them for sm_75 (bf16 emulated in
 * f32) or sm_90 (native bf16 instructions, one rounding). */
static void
case_half(struct kr *r, bool sm90)
{
   enum { N = 2048, OUTS = 16 };
   struct kr_buffer *bufs[5];
   if (!alloc_buffers(r, N, (const unsigned[]){ 4, 4, 4, 8, OUTS * 4 }, bufs, 5))
      return;
   uint32_t *x = bufs[0]->map, *y = bufs[1]->map, *z = bufs[2]->map;
   uint32_t *fs = bufs[3]->map, *out = bufs[4]->map;
   for (int i = 0; i < N; i++) {
      x[i] = lanes(), y[i] = lanes(), z[i] = lanes();
      for (int k = 0; k < 2; k++)
         fs[2 * i + k] = (rnd() & 1) ? (uint32_t)rnd()
                                     : (uint32_t)(0x33000000u + rnd() % 0x14800000u) ^
                                          (uint32_t)(rnd() & 0x80000000u);
   }
   if (!run(r, "alu_half", N, bufs, 5))
      return;
   static const enum ref_pop pops[7] = { P_ADD, P_SUB, P_MUL, P_FMA, P_MAX, P_NEG, P_ADDSAT };
   for (int i = 0; i < N; i++) {
      struct elem e = { "alu_half", i, { x[i], y[i], z[i] }, 3 };
      uint32_t want[OUTS] = { 0 };
      bool bf_slot[OUTS] = { false };
      for (int l = 0; l < 2; l++) {
         unsigned sh = 16u * (unsigned)l;
         uint16_t p = (uint16_t)(x[i] >> sh), q = (uint16_t)(y[i] >> sh), s = (uint16_t)(z[i] >> sh);
         for (int k = 0; k < 7; k++)
            want[k] |= (uint32_t)ref_lane(pops[k], p, q, s, false) << sh;
         want[7] |= (uint32_t)ref_f32_to_f16(fs[2 * i + l], 0) << sh;
         want[13] |= (uint32_t)ref_f32_to_bf16(fs[2 * i + l], false) << sh;
         want[10] |= (uint32_t)(sm90 ? ref_lane(P_ADD, p, q, 0, true) : bf16_emulated(P_ADD, p, q))
                     << sh;
         want[11] |= (uint32_t)(sm90 ? ref_lane(P_MUL, p, q, 0, true) : bf16_emulated(P_MUL, p, q))
                     << sh;
      }
      uint16_t xl = (uint16_t)x[i], yh = (uint16_t)(y[i] >> 16);
      want[8] = ref_f16_value(xl) < ref_f16_value(yh);
      uint16_t m = ref_lane(P_MUL, xl, yh, 0, false);
      want[9] = ref_fbits((float)ref_f16_value(m));
      uint16_t bm = sm90 ? ref_lane(P_MUL, xl, yh, 0, true) : bf16_emulated(P_MUL, xl, yh);
      want[12] = (uint32_t)bm << 16;
      bf_slot[10] = bf_slot[11] = bf_slot[13] = true;
      for (int k = 0; k < 14; k++) {
         uint32_t got = out[i * OUTS + k];
         if (k == 9 || k == 12) {
            /* f32 results: any NaN for a NaN. */
            if (isnan(ref_bitsf(got)) && isnan(ref_bitsf(want[k])))
               continue;
         } else if (k != 8) {
            /* Lane by lane, any NaN for a NaN (the emulation keeps payloads). */
            for (int l = 0; l < 2; l++) {
               unsigned sh = 16u * (unsigned)l;
               uint16_t g = (uint16_t)(got >> sh), w = (uint16_t)(want[k] >> sh);
               if (lane_nan(g, bf_slot[k]) && lane_nan(w, bf_slot[k]))
                  got = (got & ~(0xffffu << sh)) | ((uint32_t)w << sh);
            }
         }
         expect(&e, k, got, want[k]);
      }
   }
}

/* Field [at, at + width) of x, sign-extended when sign. */
static int64_t
dot_field(uint32_t x, unsigned at, unsigned width, bool sign)
{
   uint32_t f = (x >> at) & ((1u << width) - 1);
   return sign && (f >> (width - 1)) ? (int64_t)f - ((int64_t)1 << width) : (int64_t)f;
}

/* dp4a (four) or dp2a (hi picks b's bytes 2 and 3) as PTX defines it. */
static uint32_t
ref_dot(uint32_t a, uint32_t b, uint32_t c, bool as, bool bs, bool four, bool hi)
{
   int64_t d = c;
   for (unsigned i = 0; i < (four ? 4u : 2u); i++)
      d += (four ? dot_field(a, 8 * i, 8, as) : dot_field(a, 16 * i, 16, as)) *
           dot_field(b, 8 * (four ? i : i + (hi ? 2 : 0)), 8, bs);
   return (uint32_t)d;
}

/* tests/kernels/alu_dot.cu: __dp4a, __dp2a_lo, __dp2a_hi and the mixed
 * signedness forms, exactly. */
static void
case_dot(struct kr *r)
{
   enum { N = 4096, OUTS = 8 };
   struct kr_buffer *bufs[4];
   if (!alloc_buffers(r, N, (const unsigned[]){ 4, 4, 4, OUTS * 4 }, bufs, 4))
      return;
   uint32_t *x = bufs[0]->map, *y = bufs[1]->map, *z = bufs[2]->map, *out = bufs[3]->map;
   for (int i = 0; i < N; i++) {
      x[i] = (uint32_t)input(i, 0), y[i] = (uint32_t)input(i, 1), z[i] = (uint32_t)rnd();
      if (i % 8 == 0)   /* every byte at its extremes */
         x[i] = 0x807f80ffu, y[i] = i % 16 ? 0x80808080u : 0xffffffffu;
   }
   if (!run(r, "alu_dot", N, bufs, 4))
      return;
   /* Per slot: a signed, b signed, dp4a, .hi. */
   static const bool form[OUTS][4] = {
      { true, true, true, false },  { false, false, true, false },
      { false, true, true, false }, { true, false, true, false },
      { true, true, false, false }, { false, false, false, true },
      { false, true, false, false }, { true, false, false, true },
   };
   for (int i = 0; i < N; i++) {
      struct elem e = { "alu_dot", i, { x[i], y[i], z[i] }, 3 };
      uint32_t want[OUTS];
      for (int k = 0; k < OUTS; k++)
         want[k] = ref_dot(x[i], y[i], z[i], form[k][0], form[k][1], form[k][2], form[k][3]);
      expect_row(&e, out + i * OUTS, want, 4, OUTS);
   }
}

/* A lane for the half .approx functions: specials, values where ex2
 * and tanh change the most (ex2's subnormal and overflowing results
 * included), random bits. */
static uint16_t
approx_lane(bool bf)
{
   static const uint16_t f16_special[] = { 0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x3c00, 0xbc00,
                                           0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff,
                                           0x4c00, 0xcc00, 0xce00, 0xce40 };
   static const uint16_t bf16_special[] = { 0, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x3f80, 0xbf80,
                                            0x0001, 0x8001, 0x007f, 0x0080, 0x7f7f, 0xff7f,
                                            0x4300, 0xc2fc, 0xc2fe, 0xc300 };
   double u = (double)(rnd() >> 11) * 0x1p-53;
   switch (rnd() % 5) {
   case 0:
      return bf ? bf16_special[rnd() % (sizeof(bf16_special) / sizeof(bf16_special[0]))]
                : f16_special[rnd() % (sizeof(f16_special) / sizeof(f16_special[0]))];
   case 1:
   case 2:   /* ex2's range, past overflow and into the subnormals */
      return bf ? ref_f64_to_bf16(-140 + 270 * u) : ref_f64_to_f16(-27 + 44 * u, 0);
   case 3:   /* tanh's */
      return bf ? ref_f64_to_bf16(-6 + 12 * u) : ref_f64_to_f16(-6 + 12 * u, 0);
   default:
      return (uint16_t)rnd();
   }
}

/* got (lane bits) against the exact value want within rel: PTX bounds
 * the relative error of normal results; a subnormal one (ex2's below
 * 2^-14, f16) may be a quantum off, or 0 where the input or result is
 * flushed (.ftz); past the largest finite number infinity or that
 * number.  Returns the error of a normal result as a fraction of the
 * bound (0 for the others), 2 when out of every allowance. */
static double
approx_check(uint16_t got, double want, bool bf, double rel, bool ftz)
{
   double g = bf ? ref_bf16_value(got) : ref_f16_value(got);
   double min_normal = bf ? 0x1p-126 : 0x1p-14, quantum = bf ? 0x1p-133 : 0x1p-24;
   double max = bf ? 0x1.fep127 : 65504.0;
   if (isnan(want))
      return lane_nan(got, bf) ? 0 : 2;
   if (lane_nan(got, bf))
      return 2;
   if (isinf(want) || fabs(want) > max)
      return g == copysign(INFINITY, want) || g == copysign(max, want) ? 0 : 2;
   double err = fabs(g - want);
   if (fabs(want) < min_normal)
      return err <= quantum || (ftz && g == 0) || err <= rel * fabs(want) ? 0 : 2;
   return err <= rel * fabs(want) ? err / (rel * fabs(want)) : 2;
}

/* tests/kernels/half_approx.cu: ex2.approx and tanh.approx of f16 and
 * f16x2 (both targets), of bf16 and bf16x2 (sm_90; sm_75 builds the bf16
 * ones from f32 functions), against the host's exp2 and tanh within PTX's
 * relative bounds: ex2 2^-9.9 (f16) and 2^-7 (bf16), tanh 2^-10.987 and
 * 2^-8.  The worst error is printed as a fraction of the bound. */
static void
case_half_approx(struct kr *r, bool sm90)
{
   enum { N = 4096, OUTS = 8 };
   struct kr_buffer *bufs[3];
   if (!alloc_buffers(r, N, (const unsigned[]){ 4, 4, OUTS * 4 }, bufs, 3))
      return;
   uint32_t *x = bufs[0]->map, *y = bufs[1]->map, *out = bufs[2]->map;
   for (int i = 0; i < N; i++) {
      x[i] = approx_lane(false) | (uint32_t)approx_lane(false) << 16;
      y[i] = approx_lane(true) | (uint32_t)approx_lane(true) << 16;
   }
   if (!run(r, "half_approx", N, bufs, 3))
      return;
   static const char *const names[OUTS] = { "ex2.f16x2", "ex2.f16", "tanh.f16x2", "tanh.f16",
                                            "ex2.bf16x2", "ex2.bf16", "tanh.bf16x2", "tanh.bf16" };
   double worst[OUTS] = { 0 };
   for (int i = 0; i < N; i++) {
      for (int k = 0; k < OUTS; k++) {
         bool bf = k >= 4, tanh_k = (k & 3) >= 2, ftz = bf && !tanh_k && sm90;
         double rel = tanh_k ? (bf ? 0x1p-8 : exp2(-10.987)) : (bf ? 0x1p-7 : exp2(-9.9));
         /* Slots 0, 2, 4, 6 are both lanes; 1 and 5 the low lane, 3 and 7 the high one. */
         int first = (k & 1) ? ((k & 3) == 1 ? 0 : 1) : 0, last = (k & 1) ? first : 1;
         uint32_t in = bf ? y[i] : x[i];
         for (int l = first; l <= last; l++) {
            uint16_t h = (uint16_t)(in >> (16 * l));
            uint16_t g = (uint16_t)(out[i * OUTS + k] >> ((k & 1) ? 0 : 16 * l));
            double v = bf ? ref_bf16_value(h) : ref_f16_value(h);
            if (ftz && fabs(v) < 0x1p-126)
               v = copysign(0, v);
            double want = tanh_k ? tanh(v) : exp2(v);
            double e = approx_check(g, want, bf, rel, ftz);
            if (e > 1) {
               failures++;
               if (shown++ < 12)
                  fprintf(stderr, "half_approx: element %d %s lane %d input %#06x: got %#06x "
                          "(%.9g), want %.9g\n", i, names[k], l, h, g,
                          bf ? ref_bf16_value(g) : ref_f16_value(g), want);
            } else if (e > worst[k]) {
               worst[k] = e;
            }
         }
      }
   }
   for (int k = 0; k < OUTS; k++)
      printf("half_approx %s: worst error %.3f of the bound\n", names[k], worst[k]);
}

/* The f32 unit in the last place at |x| (normal results). */
static double
ulp_f32(double x)
{
   int e;
   frexp(fabs(x), &e);
   return ldexp(1.0, (e - 1 < -126 ? -126 : e - 1) - 23);
}

/* tests/kernels/alu_libm.cu: sinf, cosf, expf, logf, powf, x / y, tanf
 * and sqrtf against the host's double-precision functions, within the
 * bounds CUDA's Programming Guide documents (its mathematical functions
 * appendix): in ulps of the f32 result for the full-precision library,
 * plus half an ulp for the correctly rounded value those are measured
 * from; for --use_fast_math, the intrinsics' bounds (__sinf/__cosf
 * absolute in [-pi, pi], __expf 2 + floor(|1.173 x|) ulp, __logf absolute
 * in [0.5, 2] and 3 ulp elsewhere, __fdividef 2 ulp, sqrt.approx 2^-22
 * relative; __powf is exp2(y * log2(x)) on those, its bound derived from
 * them).  Inputs keep results normal: fast-math flushes subnormals. */
static void
case_libm(struct kr *r, bool fast)
{
   enum { N = 4096, OUTS = 8 };
   static const char *const names[OUTS] = { "sinf", "cosf", "expf", "logf", "powf", "x / y",
                                            "tanf", "sqrtf" };
   double worst[OUTS] = { 0 };
   struct kr_buffer *bufs[3];
   if (!alloc_buffers(r, N, (const unsigned[]){ 4, 4, OUTS * 4 }, bufs, 3))
      return;
   float *x = bufs[0]->map, *y = bufs[1]->map;
   uint32_t *out = bufs[2]->map;
   for (int i = 0; i < N; i++) {
      double t = (double)(rnd() >> 11) / 9007199254740992.0;
      double u = (double)(rnd() >> 11) / 9007199254740992.0;
      /* Half in [-pi, pi], half over [-2^20, 2^20] log-uniformly; y in
       * [-80, 80] half the time, else [-8, 8]. */
      double m = (i & 1) ? ldexp(1.0, (int)(rnd() % 40) - 19) * (1 + t) : 3.14159 * t;
      x[i] = (float)((rnd() & 1) ? -m : m);
      if (x[i] == 0)
         x[i] = 1.5f;
      y[i] = (float)((i & 2) ? 160 * u - 80 : 16 * u - 8);
   }
   if (!run(r, "alu_libm", N, bufs, 3))
      return;
   for (int i = 0; i < N; i++) {
      double X = x[i], Y = y[i], ax = fabs(X);
      double want[OUTS] = { sin(X), cos(X), exp(Y), log(ax), pow(ax, Y), X / Y, tan(X), sqrt(ax) };
      struct elem e = { "alu_libm", i, { ref_fbits(x[i]), ref_fbits(y[i]) }, 2 };
      for (int k = 0; k < OUTS; k++) {
         double got = ref_bitsf(out[i * OUTS + k]), w = want[k];
         double err = fabs(got - w), ulps = err / ulp_f32(w), bound;
         bool small_trig = ax <= 3.14159;
         bool ok;
         /* Results outside f32's normal range are not compared. */
         if (fabs(w) >= 0x1p127 || (fabs(w) < 0x1p-125 && k != 0 && k != 1 && k != 6))
            continue;
         if (!fast) {
            /* sinf 2, cosf 2, expf 2, logf 1, powf 4, tanf 4 ulp; x / y and
             * sqrtf correctly rounded (0). */
            static const double full[OUTS] = { 2, 2, 2, 1, 4, 0, 4, 0 };
            /* sin/cos/tan near their zeros: the ulp of a tiny result; the
             * bound is the library's, measured the same way. */
            bound = full[k] + 0.5;
            ok = ulps <= bound;
            worst[k] = fmax(worst[k], ulps / bound);
         } else {
            double rel;
            switch (k) {
            case 0: case 1:
               if (!small_trig)
                  continue;   /* documented in [-pi, pi] only */
               bound = k == 0 ? 0x1.8p-22 /* 2^-21.41 */ : 0x1.bp-22 /* 2^-21.19 */;
               ok = err <= bound, rel = err / bound;
               break;
            case 2:
               bound = (2 + floor(fabs(1.173 * Y)) + 0.5) * ulp_f32(w);
               ok = err <= bound, rel = err / bound;
               break;
            case 3:
               bound = ax >= 0.5 && ax <= 2 ? 0x1.8p-22 /* 2^-21.41 */ : 3.5 * ulp_f32(w);
               ok = err <= bound, rel = err / bound;
               break;
            case 4: {
               /* exp2(y * log2(x)): log2's error (2^-21.41 absolute or 3
                * ulp) times |y|, the product's rounding, then exp2's 2 ulp,
                * as a relative error of the result (ln 2 per unit of the
                * exponent). */
               double l2 = log2(ax), el = ax >= 0.5 && ax <= 2 ? 0x1.8p-22 : 3 * ulp_f32(l2);
               double e_exp = fabs(Y) * el + ulp_f32(Y * l2);
               bound = fabs(w) * (0.6931471805599453 * e_exp * 1.01 + 3 * 0x1p-23);
               ok = err <= bound, rel = err / bound;
               break;
            }
            case 5:
               bound = 2.5 * ulp_f32(w);
               ok = err <= bound, rel = err / bound;
               break;
            case 6:
               continue;   /* __tanf: no documented bound */
            default:
               bound = 0x1p-22 * fabs(w);
               ok = err <= bound, rel = err / bound;
               break;
            }
            worst[k] = fmax(worst[k], rel);
         }
         if (isnan(got) != isnan(w))
            ok = false;
         if (!ok) {
            e.kernel = names[k];
            expect(&e, k, out[i * OUTS + k], ref_fbits((float)w));
         }
      }
   }
   for (int k = 0; k < OUTS; k++)
      printf("%-6s worst error %.3f of the bound%s\n", names[k], worst[k],
             fast && k == 6 ? " (not checked: no documented bound)" : "");
}

/* alu_bits.cu: fns, bmsk, szext against alu_ref.h. */
static void
case_bits(struct kr *r)
{
   enum { N = 2048, OUTS = 10 };
   struct kr_buffer *bufs[4];
   if (!alloc_buffers(r, N, (const unsigned[]){ 4, 4, 4, OUTS * 4 }, bufs, 4))
      return;
   uint32_t *x = bufs[0]->map, *y = bufs[1]->map, *z = bufs[2]->map, *out = bufs[3]->map;
   for (int i = 0; i < N; i++) {
      x[i] = (uint32_t)input(i, 0), y[i] = (uint32_t)rnd(), z[i] = (uint32_t)rnd();
      /* sparse and dense masks as well as the edge values */
      if (i % 4 == 1)
         x[i] &= (uint32_t)rnd() & (uint32_t)rnd();
      else if (i % 4 == 2)
         x[i] |= (uint32_t)rnd() | (uint32_t)rnd();
   }
   if (!run(r, "alu_bits", N, bufs, 4))
      return;
   for (int i = 0; i < N; i++) {
      uint32_t X = x[i], Y = y[i], Z = z[i];
      struct elem e = { "alu_bits", i, { X, Y, Z }, 3 };
      uint32_t base = Y & 31;
      int32_t off = (int32_t)(Z % 81) - 40;
      uint32_t want[OUTS] = {
         ref_fns(X, base, off), ref_fns(X, base, 0), ref_fns(X, 0, (int32_t)(Z & 63)),
         ref_fns(X, 31, -(int32_t)(Z & 63)),
         ref_bmsk(Y % 72, Z % 72, true), ref_bmsk(Y % 72, Z % 72, false),
         ref_szext(X, Y % 72, true, true), ref_szext(X, Y % 72, false, true),
         ref_szext(X, Z % 72, true, false), ref_szext(X, Z, false, false),
      };
      expect_row(&e, out + i * OUTS, want, 4, OUTS);
   }
}

/* intrinsics.cu: the sweep of NVIDIA's intrinsic lists.  The SIMD video
 * intrinsics lane by lane as the CUDA Math API documents them. */
enum simd_op {
   S_ABSDIFFS, S_ABSDIFFU, S_ADD, S_ADDSS, S_ADDUS, S_AVGS, S_AVGU, S_CMPEQ, S_CMPGES, S_CMPGEU,
   S_CMPGTS, S_CMPGTU, S_CMPLES, S_CMPLEU, S_CMPLTS, S_CMPLTU, S_CMPNE, S_HADDU, S_MAXS, S_MAXU,
   S_MINS, S_MINU, S_SADS, S_SADU, S_SETEQ, S_SETGES, S_SETGEU, S_SETGTS, S_SETGTU, S_SETLES,
   S_SETLEU, S_SETLTS, S_SETLTU, S_SETNE, S_SUB, S_SUBSS, S_SUBUS, S_ABS, S_ABSSS, S_NEG, S_NEGSS,
   S_COUNT,
};

static int64_t
clamp64(int64_t v, int64_t lo, int64_t hi)
{
   return v < lo ? lo : v > hi ? hi : v;
}

/* Lane result of op on lane values (sa, sb signed; ua, ub unsigned) of
 * width w; sad lanes give their |difference| for the caller to sum. */
static int64_t
simd_lane(enum simd_op op, unsigned w, int64_t sa, int64_t sb, int64_t ua, int64_t ub)
{
   int64_t smin = -(1ll << (w - 1)), smax = (1ll << (w - 1)) - 1, umax = (1ll << w) - 1;
   int64_t ones = umax, s;
   switch (op) {
   case S_ABSDIFFS: case S_SADS: return sa > sb ? sa - sb : sb - sa;
   case S_ABSDIFFU: case S_SADU: return ua > ub ? ua - ub : ub - ua;
   case S_ADD: return ua + ub;
   case S_ADDSS: return clamp64(sa + sb, smin, smax);
   case S_ADDUS: return clamp64(ua + ub, 0, umax);
   case S_AVGS:   /* rounded half away from zero */
      s = sa + sb;
      return s < 0 ? s >> 1 : (s + 1) >> 1;
   case S_AVGU: return (ua + ub + 1) >> 1;
   case S_CMPEQ: return ua == ub ? ones : 0;
   case S_CMPGES: return sa >= sb ? ones : 0;
   case S_CMPGEU: return ua >= ub ? ones : 0;
   case S_CMPGTS: return sa > sb ? ones : 0;
   case S_CMPGTU: return ua > ub ? ones : 0;
   case S_CMPLES: return sa <= sb ? ones : 0;
   case S_CMPLEU: return ua <= ub ? ones : 0;
   case S_CMPLTS: return sa < sb ? ones : 0;
   case S_CMPLTU: return ua < ub ? ones : 0;
   case S_CMPNE: return ua != ub ? ones : 0;
   case S_HADDU: return (ua + ub) >> 1;
   case S_MAXS: return sa > sb ? sa : sb;
   case S_MAXU: return ua > ub ? ua : ub;
   case S_MINS: return sa < sb ? sa : sb;
   case S_MINU: return ua < ub ? ua : ub;
   case S_SETEQ: return ua == ub;
   case S_SETGES: return sa >= sb;
   case S_SETGEU: return ua >= ub;
   case S_SETGTS: return sa > sb;
   case S_SETGTU: return ua > ub;
   case S_SETLES: return sa <= sb;
   case S_SETLEU: return ua <= ub;
   case S_SETLTS: return sa < sb;
   case S_SETLTU: return ua < ub;
   case S_SETNE: return ua != ub;
   case S_SUB: return ua - ub;
   case S_SUBSS: return clamp64(sa - sb, smin, smax);
   case S_SUBUS: return clamp64(ua - ub, 0, umax);
   case S_ABS: return sa < 0 ? -sa : sa;
   case S_ABSSS: return clamp64(sa < 0 ? -sa : sa, smin, smax);
   case S_NEG: return -sa;
   case S_NEGSS: return clamp64(-sa, smin, smax);
   default: return 0;
   }
}

static uint32_t
simd_ref(enum simd_op op, unsigned lanes, uint32_t a, uint32_t b)
{
   unsigned w = 32 / lanes;
   uint32_t m = (uint32_t)((1ull << w) - 1), r = 0, sum = 0;
   for (unsigned i = 0; i < lanes; i++) {
      int64_t ua = (a >> (w * i)) & m, ub = (b >> (w * i)) & m;
      int64_t sa = ua >= (1ll << (w - 1)) ? ua - (1ll << w) : ua;
      int64_t sb = ub >= (1ll << (w - 1)) ? ub - (1ll << w) : ub;
      int64_t v = simd_lane(op, w, sa, sb, ua, ub);
      sum += (uint32_t)v;
      r |= ((uint32_t)v & m) << (w * i);
   }
   return op == S_SADS || op == S_SADU ? sum : r;
}

/* Signed 16-bit lane i of v. */
static int32_t
lane16(uint32_t v, unsigned i)
{
   return (int16_t)(v >> (16 * i));
}

static void
case_sweep_simd_int(struct kr *r)
{
   enum { N = 2048, SOUTS = 82, IOUTS = 24 };
   struct kr_buffer *bufs[4];
   if (!alloc_buffers(r, N, (const unsigned[]){ 4, 4, 4, SOUTS * 4 }, bufs, 4))
      return;
   uint32_t *x = bufs[0]->map, *y = bufs[1]->map, *z = bufs[2]->map, *out = bufs[3]->map;
   for (int i = 0; i < N; i++) {
      x[i] = (uint32_t)input(i, 0), y[i] = (uint32_t)input(i, 1), z[i] = (uint32_t)input(i, 2);
      if (i % 3 == 2)   /* lanes equal, or one apart, for the comparisons */
         y[i] = x[i] ^ ((uint32_t)rnd() & 0x01000100u);
   }
   if (run(r, "sweep_simd", N, (struct kr_buffer *[]){ bufs[0], bufs[1], bufs[3] }, 3)) {
      for (int i = 0; i < N; i++) {
         struct elem e = { "sweep_simd", i, { x[i], y[i] }, 2 };
         uint32_t want[SOUTS];
         for (int k = 0; k < SOUTS; k++) {
            unsigned op = k < 74 ? (unsigned)k / 2 : S_ABS + ((unsigned)k - 74) / 2;
            want[k] = simd_ref(op, k % 2 ? 4 : 2, x[i], y[i]);
         }
         expect_row(&e, out + i * SOUTS, want, 4, SOUTS);
      }
   }
   /* The video instructions nvcc writes for none of them, pinned by
    * inline PTX: the references are the PTX ISA's description (the
    * lanes of vop2/vop4, .sat clamping to dtype, .add summing onto c). */
   if (run(r, "sweep_video", N, bufs, 4)) {
      for (int i = 0; i < N; i++) {
         uint32_t X = x[i], Y = y[i], Z = z[i];
         struct elem e = { "sweep_video", i, { X, Y, Z }, 3 };
         uint32_t want[7] = {
            simd_ref(S_ADDUS, 4, X, Y), simd_ref(S_SUBSS, 2, X, Y), simd_ref(S_AVGU, 4, X, Y),
            simd_ref(S_MINS, 2, X, Y), simd_ref(S_MAXU, 4, X, Y), Z + simd_ref(S_SADS, 2, X, Y),
            simd_ref(S_ADD, 2, X, Y),
         };
         expect_row(&e, out + i * 7, want, 4, 7);
      }
   }
   if (!run(r, "sweep_int", N, bufs, 4))
      return;
   for (int i = 0; i < N; i++) {
      uint32_t X = x[i], Y = y[i], Z = z[i];
      int32_t sx = (int32_t)X, sy = (int32_t)Y, sz = (int32_t)Z;
      struct elem e = { "sweep_int", i, { X, Y, Z }, 3 };
      int32_t m3 = sx > sy ? sx : sy;
      m3 = m3 > sz ? m3 : sz;
      uint32_t u3 = X < Y ? X : Y;
      u3 = u3 < Z ? u3 : Z;
      int32_t add = (int32_t)(X + Y);
      uint32_t uadd = X + Y;
      uint32_t h_max3 = 0, h_addmax = 0, h_bmin = 0, h_min3 = 0, preds = 0;
      for (unsigned l = 0; l < 2; l++) {
         int32_t p = lane16(X, l), q = lane16(Y, l), s = lane16(Z, l);
         int32_t mx = p > q ? p : q;
         mx = mx > s ? mx : s;
         mx = mx > 0 ? mx : 0;
         int32_t am = (int16_t)(p + q);
         am = am > s ? am : s;
         int32_t mn = p < q ? p : q;
         mn = mn < s ? mn : s;
         uint32_t up = (X >> (16 * l)) & 0xffff, uq = (Y >> (16 * l)) & 0xffff;
         h_max3 |= ((uint32_t)mx & 0xffff) << (16 * l);
         h_addmax |= ((uint32_t)am & 0xffff) << (16 * l);
         h_min3 |= ((uint32_t)mn & 0xffff) << (16 * l);
         h_bmin |= (up < uq ? up : uq) << (16 * l);
         /* o[22]: pred_hi in bit 0, pred_lo in bit 1 */
         preds |= (uint32_t)(up <= uq) << (l == 1 ? 0 : 1);
      }
      uint32_t want[IOUTS] = {
         ref_shf(X, Y, Z, true, false), ref_shf(X, Y, Z, true, true),
         ref_shf(X, Y, Z, false, false), ref_shf(X, Y, Z, false, true),
         (uint32_t)(int32_t)(((int64_t)sx + sy) >> 1), (uint32_t)(int32_t)(((int64_t)sx + sy + 1) >> 1),
         (uint32_t)(((uint64_t)X + Y) >> 1), (uint32_t)(((uint64_t)X + Y + 1) >> 1),
         Z + (X > Y ? X - Y : Y - X), Z + (sx > sy ? X - Y : Y - X),
         ref_prmt(X, Y, Z & 0x7777, 0),
         (uint32_t)m3, (uint32_t)(m3 > 0 ? m3 : 0), u3,
         (uint32_t)(add > sz ? add : sz), uadd < Z ? uadd : Z,
         (uint32_t)(sx > sy ? (sx > 0 ? sx : 0) : (sy > 0 ? sy : 0)),
         (uint32_t)(sx > sy ? sx : sy), sx >= sy,
         h_max3, h_addmax, h_bmin, preds, h_min3,
      };
      expect_row(&e, out + i * IOUTS, want, 4, IOUTS);
   }
}

/* f32 input bits: edges, moderate values, then any bits. */
static uint32_t
f32_input(int i, int k)
{
   static const uint32_t edge[] = { 0, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u,
                                    0xff800000u, 0x7fc00000u, 0x00000001u, 0x007fffffu,
                                    0x00800000u, 0x7f7fffffu, 0x40490fdbu, 0x3eaaaaabu };
   const int ne = (int)(sizeof(edge) / sizeof(edge[0]));
   if (k < 2 && i < ne * ne)
      return edge[k == 0 ? i % ne : i / ne];
   uint32_t v = (uint32_t)rnd();
   if (i % 4 != 3)   /* exponents near 1, for sums that round */
      v = (v & 0x807fffffu) | ((uint32_t)(112 + rnd() % 32) << 23);
   return v;
}

static bool
same_f32(uint32_t got, uint32_t want, bool zero_sign)
{
   float g = ref_bitsf(got), w = ref_bitsf(want);
   if (isnan(g) || isnan(w))
      return isnan(g) && isnan(w);
   return got == want || (zero_sign && g == 0 && w == 0);
}

static const int round_mode[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD };

static void
case_sweep_f32(struct kr *r)
{
   enum { N = 2048, OUTS = 34 };
   struct kr_buffer *bufs[4];
   if (!alloc_buffers(r, N, (const unsigned[]){ 4, 4, 4, OUTS * 4 }, bufs, 4))
      return;
   uint32_t *x = bufs[0]->map, *y = bufs[1]->map, *z = bufs[2]->map, *out = bufs[3]->map;
   for (int i = 0; i < N; i++)
      x[i] = f32_input(i, 0), y[i] = f32_input(i, 1), z[i] = f32_input(i, 2);
   if (!run(r, "sweep_f32", N, bufs, 4))
      return;
   unsigned rsqrt_off = 0;
   for (int i = 0; i < N; i++) {
      volatile float X = ref_bitsf(x[i]), Y = ref_bitsf(y[i]), Z = ref_bitsf(z[i]);
      struct elem e = { "sweep_f32", i, { x[i], y[i], z[i] }, 3 };
      uint32_t want[OUTS];
      for (int m = 0; m < 4; m++) {
         fesetround(round_mode[m]);
         want[0 + m] = ref_fbits(X + Y);
         want[4 + m] = ref_fbits(X - Y);
         want[8 + m] = ref_fbits(X * Y);
         want[12 + m] = ref_fbits(X / Y);
         want[16 + m] = ref_fbits(fmaf(X, Y, Z));
         want[20 + m] = ref_fbits(1.0f / X);
         want[24 + m] = ref_fbits(sqrtf(X));
         want[30 + m] = want[16 + m];
      }
      fesetround(FE_TONEAREST);
      want[28] = ref_fbits((float)(1.0L / sqrtl((long double)X)));
      want[29] = ref_fbits(isnan(X) ? 0.0f : X < 0 ? 0.0f : X > 1 ? 1.0f : X);
      for (int k = 0; k < OUTS; k++) {
         uint32_t got = out[i * OUTS + k];
         if (k == 28 && !same_f32(got, want[k], false)) {
            /* __frsqrt_rn is nvcc's refinement of rsqrt.approx, made
             * for NVIDIA's approximation: one ulp allowed, counted. */
            int64_t d = (int64_t)got - (int64_t)want[k];
            if (d == 1 || d == -1) {
               rsqrt_off++;
               continue;
            }
         }
         if (!same_f32(got, want[k], k == 29))
            expect(&e, k, got, want[k]);
      }
   }
   printf("sweep_f32: __frsqrt_rn one ulp off in %u of %d\n", rsqrt_off, N);
}

static void
case_sweep_f64(struct kr *r)
{
   enum { N = 1024, OUTS = 7 };
   static const char *const modes[4] = { "rn", "rz", "ru", "rd" };
   struct kr_buffer *bufs[4];
   if (!alloc_buffers(r, N, (const unsigned[]){ 8, 8, 8, OUTS * 8 }, bufs, 4))
      return;
   uint64_t *x = bufs[0]->map, *y = bufs[1]->map, *z = bufs[2]->map, *out = bufs[3]->map;
   static const double edge[] = { 0.0, -0.0, 1.0, -1.0, 0x1.fffffffffffffp+1023,
                                  -0x1.fffffffffffffp+1023, 0x1p-1074, -0x1p-1074, 0x1p-1022,
                                  0x1p+1023, 0x1.0000000000001p0, 0x1p-53, -0x1p-54, 3.0 };
   const int ne = (int)(sizeof(edge) / sizeof(edge[0]));
   for (int i = 0; i < N; i++) {
      x[i] = ref_dbits((double)ref_bitsf(f32_input(i, 0)) * (1.0 + ldexp((double)(rnd() % 1000), -40)));
      y[i] = ref_dbits((double)ref_bitsf(f32_input(i, 1)) * (1.0 + ldexp((double)(rnd() % 1000), -40)));
      z[i] = ref_dbits((double)ref_bitsf(f32_input(i, 2)));
      if (i < ne * ne) {
         x[i] = ref_dbits(edge[i % ne]), y[i] = ref_dbits(edge[i / ne]);
      } else if (i % 5 == 0) {
         y[i] = x[i] ^ (1ull << 63);            /* exact cancellation */
      } else if (i % 5 == 1) {
         y[i] = ref_dbits(ldexp(ref_bitsd(x[i]), -(int)(rnd() % 60)) * (rnd() & 1 ? 1 : -1));
      } else if (i % 5 == 2) {                 /* random bits, subnormals and overflows included */
         x[i] = rnd(), y[i] = rnd();
      }
      if (i >= ne * ne && i % 7 == 3)          /* the fma is the product's rounding error */
         z[i] = ref_dbits(-(ref_bitsd(x[i]) * ref_bitsd(y[i])));
   }
   for (int m = 0; m < 4; m++) {
      for (int part = 0; part < 2; part++) {
         char name[32];
         snprintf(name, sizeof(name), part ? "sweep_f64_%s" : "sweep_f64add_%s", modes[m]);
         if (!run(r, name, N, bufs, 4))
            continue;
         for (int i = 0; i < N; i++) {
            volatile double X = ref_bitsd(x[i]), Y = ref_bitsd(y[i]), Z = ref_bitsd(z[i]);
            struct elem e = { name, i, { x[i], y[i], z[i] }, 3 };
            uint64_t want[OUTS];
            volatile double one = 1.0;
            fesetround(round_mode[m]);
            want[0] = ref_dbits(X + Y);
            want[1] = ref_dbits(X - Y);
            want[2] = ref_dbits(X * Y);
            want[3] = ref_dbits(X / Y);
            want[4] = ref_dbits(fma(X, Y, Z));
            want[5] = ref_dbits(one / X);
            want[6] = ref_dbits(sqrt(X));
            fesetround(FE_TONEAREST);
            expect_slots(&e, out + i * OUTS, want, 8, part ? 2 : 0, part ? OUTS : 2, true);
         }
      }
   }
}

static void
case_sweep_cvt(struct kr *r)
{
   enum { N = 2048, OUTS = 40, OUTS64 = 12 };
   struct kr_buffer *bufs[5];
   if (!alloc_buffers(r, N, (const unsigned[]){ 4, 8, 8, OUTS * 4, OUTS64 * 8 }, bufs, 5))
      return;
   uint32_t *x = bufs[0]->map, *out = bufs[3]->map;
   uint64_t *d = bufs[1]->map, *l = bufs[2]->map, *out64 = bufs[4]->map;
   for (int i = 0; i < N; i++) {
      x[i] = f32_input(i, 0);
      if (i % 4 == 1)   /* integers and halves around the conversion limits */
         x[i] = ref_fbits((float)ldexp((double)(rnd() % 2001) / 2 - 500, (int)(rnd() % 70)));
      double v = ref_bitsf(f32_input(i, 1));
      d[i] = ref_dbits(i % 3 ? ldexp(v, (int)(rnd() % 40)) + 0.5 * (double)(rnd() % 3) : v);
      l[i] = input(i, 2);
   }
   if (run(r, "sweep_cvt", N, bufs, 5)) {
      static const int f2i_mode[4] = { 0, 1, 3, 2 };   /* rn rz ru rd as ref_f2i numbers them */
      for (int i = 0; i < N; i++) {
         float X = ref_bitsf(x[i]);
         double D = ref_bitsd(d[i]);
         uint64_t L = l[i];
         int32_t xi = (int32_t)x[i];
         struct elem e = { "sweep_cvt", i, { x[i], d[i], L }, 3 };
         uint32_t want[OUTS];
         for (int m = 0; m < 4; m++) {
            want[0 + m] = (uint32_t)ref_f2i(X, 32, true, f2i_mode[m], false);
            want[4 + m] = (uint32_t)ref_f2i(X, 32, false, f2i_mode[m], false);
            want[8 + m] = (uint32_t)ref_f2i(D, 32, true, f2i_mode[m], true);
            want[12 + m] = (uint32_t)ref_f2i(D, 32, false, f2i_mode[m], true);
            fesetround(round_mode[m]);
            volatile double vd = D;
            volatile int32_t vi = xi;
            volatile int64_t vl = (int64_t)L;
            volatile uint64_t vu = L;
            want[16 + m] = ref_fbits((float)vd);
            want[20 + m] = ref_fbits((float)vi);
            want[24 + m] = ref_fbits((float)(uint32_t)vi);
            want[28 + m] = ref_fbits((float)vl);
            want[32 + m] = ref_fbits((float)vu);
            fesetround(FE_TONEAREST);
         }
         want[36] = (uint32_t)(d[i] >> 32);
         want[37] = (uint32_t)d[i];
         want[38] = (uint32_t)L;
         want[39] = x[i];
         /* f32 results (16 to 35): any NaN for a NaN */
         expect_slots(&e, out + i * OUTS, want, 4, 0, 16, false);
         expect_slots(&e, out + i * OUTS, want, 4, 16, 36, true);
         expect_slots(&e, out + i * OUTS, want, 4, 36, OUTS, false);
         uint64_t want64[OUTS64] = {
            ref_f2i(X, 64, true, 0, false), ref_f2i(X, 64, true, 1, false),
            ref_f2i(X, 64, true, 3, false), ref_f2i(X, 64, true, 2, false),
            ref_f2i(X, 64, false, 0, false), ref_f2i(X, 64, false, 2, false),
            ref_f2i(D, 64, true, 0, true), ref_f2i(D, 64, true, 3, true),
            ref_f2i(D, 64, false, 1, true), ref_f2i(D, 64, false, 3, true),
            ref_dbits((double)xi), ref_dbits((double)(int64_t)L),
         };
         e.kernel = "sweep_cvt (64-bit)";
         expect_row(&e, out64 + i * OUTS64, want64, 8, OUTS64);
      }
   }
   if (!run(r, "sweep_cvt_f64_directed", N, (struct kr_buffer *[]){ bufs[2], bufs[4] }, 2))
      return;
   for (int i = 0; i < N; i++) {
      uint64_t L = l[i], want[4];
      struct elem e = { "sweep_cvt_f64_directed", i, { L }, 1 };
      volatile int64_t vl = (int64_t)L;
      volatile uint64_t vu = L;
      fesetround(FE_TOWARDZERO);
      want[0] = ref_dbits((double)vl);
      want[3] = ref_dbits((double)vu);
      fesetround(FE_UPWARD);
      want[1] = ref_dbits((double)vl);
      fesetround(FE_DOWNWARD);
      want[2] = ref_dbits((double)vu);
      fesetround(FE_TONEAREST);
      expect_row(&e, out64 + i * 4, want, 8, 4);
   }
}

int
main(int argc, char **argv)
{
   struct kr r;
   size_t len;
   char *text = argc > 2 ? compiler_test_read(argv[2], &len) : NULL;
   bool is_float = argc > 2 && strcmp(argv[1], "float") == 0;
   bool is_approx = argc > 2 && strncmp(argv[1], "half_approx", 11) == 0;
   bool is_half = argc > 2 && strncmp(argv[1], "half", 4) == 0 && !is_approx;
   bool is_libm = argc > 2 && strcmp(argv[1], "libm") == 0;
   bool is_dot = argc > 2 && strcmp(argv[1], "dot") == 0;
   bool is_bits = argc > 2 && strcmp(argv[1], "bits") == 0;
   bool is_sweep = argc > 2 && strcmp(argv[1], "intrinsics") == 0;
   bool fast = argc > 3 && strcmp(argv[3], "fast") == 0;

   if (!text) {
      fprintf(stderr, "usage: test_alu_kernels int|float|half|half_sm90|half_approx|"
                      "half_approx_sm90|dot|libm|bits|intrinsics KERNEL.ptx [fast]\n");
      return 1;
   }
   if (!kr_init(&r, is_libm ? "compiler.run.alu_libm"
                   : is_dot ? "compiler.run.alu_dot"
                   : is_bits ? "compiler.run.alu_bits"
                   : is_sweep ? "compiler.run.intrinsics"
                   : is_approx ? "compiler.run.half_approx"
                   : is_half ? "compiler.run.alu_half"
                            : is_float ? "compiler.run.alu_float" : "compiler.run.alu_int")) {
      free(text);
      kr_finish(&r);
      return 1;
   }
   if (kr_load(&r, text, len)) {
      if (is_libm) {
         case_libm(&r, fast);
      } else if (is_dot) {
         case_dot(&r);
      } else if (is_bits) {
         case_bits(&r);
      } else if (is_sweep) {
         case_sweep_simd_int(&r);
         case_sweep_f32(&r);
         case_sweep_f64(&r);
         case_sweep_cvt(&r);
      } else if (is_approx) {
         case_half_approx(&r, strcmp(argv[1], "half_approx_sm90") == 0);
      } else if (is_half) {
         case_half(&r, strcmp(argv[1], "half_sm90") == 0);
         case_bf16_int(&r);
      } else if (is_float) {
         case_f32(&r, fast);
         case_f64(&r);
      } else {
         case_int32(&r);
         case_int64(&r);
         case_int16(&r);
      }
   } else {
      failures++;
   }
   free(text);
   unsigned messages = kr_finish(&r);
   printf("%s: %u mismatches, %u validation messages\n", argv[2], failures, messages);
   return messages || failures ? 1 : 0;
}
