// Every CUDA device intrinsic of NVIDIA's integer, SIMD, float, double
// and conversion lists for ordinary kernels (crt/device_functions.h,
// sm_*_intrinsics.h), one kernel per family, per thread, for the sweep of
// tests/compiler/test_alu_kernels.c ("intrinsics"): every result is
// compared with a host reference of the same rounding.  The f64
// arithmetic is one kernel per rounding mode (add and sub in kernels of
// their own).
// (Half and bf16 intrinsics: alu_half.cu; approximate functions:
// alu_float.cu fast-math; dp4a/dp2a: alu_dot.cu.)
#include <stdint.h>

#define SIMD_OUTS 82
#define INT_OUTS 24
#define F32_OUTS 34
#define F64_OUTS 7
#define CVT_OUTS 40

// the SIMD video intrinsics, halfword (2) and byte (4) lanes
extern "C" __global__ void
sweep_simd(const uint32_t *a, const uint32_t *b, uint32_t *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   uint32_t x = a[i], y = b[i];
   uint32_t *o = out + (size_t)i * SIMD_OUTS;
   o[0] = __vabsdiffs2(x, y);
   o[1] = __vabsdiffs4(x, y);
   o[2] = __vabsdiffu2(x, y);
   o[3] = __vabsdiffu4(x, y);
   o[4] = __vadd2(x, y);
   o[5] = __vadd4(x, y);
   o[6] = __vaddss2(x, y);
   o[7] = __vaddss4(x, y);
   o[8] = __vaddus2(x, y);
   o[9] = __vaddus4(x, y);
   o[10] = __vavgs2(x, y);
   o[11] = __vavgs4(x, y);
   o[12] = __vavgu2(x, y);
   o[13] = __vavgu4(x, y);
   o[14] = __vcmpeq2(x, y);
   o[15] = __vcmpeq4(x, y);
   o[16] = __vcmpges2(x, y);
   o[17] = __vcmpges4(x, y);
   o[18] = __vcmpgeu2(x, y);
   o[19] = __vcmpgeu4(x, y);
   o[20] = __vcmpgts2(x, y);
   o[21] = __vcmpgts4(x, y);
   o[22] = __vcmpgtu2(x, y);
   o[23] = __vcmpgtu4(x, y);
   o[24] = __vcmples2(x, y);
   o[25] = __vcmples4(x, y);
   o[26] = __vcmpleu2(x, y);
   o[27] = __vcmpleu4(x, y);
   o[28] = __vcmplts2(x, y);
   o[29] = __vcmplts4(x, y);
   o[30] = __vcmpltu2(x, y);
   o[31] = __vcmpltu4(x, y);
   o[32] = __vcmpne2(x, y);
   o[33] = __vcmpne4(x, y);
   o[34] = __vhaddu2(x, y);
   o[35] = __vhaddu4(x, y);
   o[36] = __vmaxs2(x, y);
   o[37] = __vmaxs4(x, y);
   o[38] = __vmaxu2(x, y);
   o[39] = __vmaxu4(x, y);
   o[40] = __vmins2(x, y);
   o[41] = __vmins4(x, y);
   o[42] = __vminu2(x, y);
   o[43] = __vminu4(x, y);
   o[44] = __vsads2(x, y);
   o[45] = __vsads4(x, y);
   o[46] = __vsadu2(x, y);
   o[47] = __vsadu4(x, y);
   o[48] = __vseteq2(x, y);
   o[49] = __vseteq4(x, y);
   o[50] = __vsetges2(x, y);
   o[51] = __vsetges4(x, y);
   o[52] = __vsetgeu2(x, y);
   o[53] = __vsetgeu4(x, y);
   o[54] = __vsetgts2(x, y);
   o[55] = __vsetgts4(x, y);
   o[56] = __vsetgtu2(x, y);
   o[57] = __vsetgtu4(x, y);
   o[58] = __vsetles2(x, y);
   o[59] = __vsetles4(x, y);
   o[60] = __vsetleu2(x, y);
   o[61] = __vsetleu4(x, y);
   o[62] = __vsetlts2(x, y);
   o[63] = __vsetlts4(x, y);
   o[64] = __vsetltu2(x, y);
   o[65] = __vsetltu4(x, y);
   o[66] = __vsetne2(x, y);
   o[67] = __vsetne4(x, y);
   o[68] = __vsub2(x, y);
   o[69] = __vsub4(x, y);
   o[70] = __vsubss2(x, y);
   o[71] = __vsubss4(x, y);
   o[72] = __vsubus2(x, y);
   o[73] = __vsubus4(x, y);
   o[74] = __vabs2(x);
   o[75] = __vabs4(x);
   o[76] = __vabsss2(x);
   o[77] = __vabsss4(x);
   o[78] = __vneg2(x);
   o[79] = __vneg4(x);
   o[80] = __vnegss2(x);
   o[81] = __vnegss4(x);
}

// integer intrinsics, and the sm_90 three-way/relu min-max ones (emulated
// for the default target)
extern "C" __global__ void
sweep_int(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   uint32_t x = a[i], y = b[i], z = c[i];
   int sx = (int)x, sy = (int)y, sz = (int)z;
   uint32_t *o = out + (size_t)i * INT_OUTS;
   bool p, q;
   o[0] = __funnelshift_l(x, y, z);
   o[1] = __funnelshift_lc(x, y, z);
   o[2] = __funnelshift_r(x, y, z);
   o[3] = __funnelshift_rc(x, y, z);
   o[4] = (uint32_t)__hadd(sx, sy);
   o[5] = (uint32_t)__rhadd(sx, sy);
   o[6] = __uhadd(x, y);
   o[7] = __urhadd(x, y);
   o[8] = __usad(x, y, z);
   o[9] = __sad(sx, sy, z);
   o[10] = __byte_perm(x, y, z);
   o[11] = (uint32_t)__vimax3_s32(sx, sy, sz);
   o[12] = (uint32_t)__vimax3_s32_relu(sx, sy, sz);
   o[13] = __vimin3_u32(x, y, z);
   o[14] = (uint32_t)__viaddmax_s32(sx, sy, sz);
   o[15] = __viaddmin_u32(x, y, z);
   o[16] = (uint32_t)__vimax_s32_relu(sx, sy);
   o[17] = (uint32_t)__vibmax_s32(sx, sy, &p);
   o[18] = p;
   o[19] = __vimax3_s16x2_relu(x, y, z);
   o[20] = __viaddmax_s16x2(x, y, z);
   o[21] = __vibmin_u16x2(x, y, &p, &q);
   o[22] = p | (q << 1);
   o[23] = __vimin3_s16x2(x, y, z);
}

// f32 with every rounding, correctly rounded reciprocal, root, and
// saturation (inputs are bit patterns)
extern "C" __global__ void
sweep_f32(const float *a, const float *b, const float *c, float *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   float x = a[i], y = b[i], z = c[i];
   float *o = out + (size_t)i * F32_OUTS;
   o[0] = __fadd_rn(x, y); o[1] = __fadd_rz(x, y); o[2] = __fadd_ru(x, y); o[3] = __fadd_rd(x, y);
   o[4] = __fsub_rn(x, y); o[5] = __fsub_rz(x, y); o[6] = __fsub_ru(x, y); o[7] = __fsub_rd(x, y);
   o[8] = __fmul_rn(x, y); o[9] = __fmul_rz(x, y); o[10] = __fmul_ru(x, y); o[11] = __fmul_rd(x, y);
   o[12] = __fdiv_rn(x, y); o[13] = __fdiv_rz(x, y); o[14] = __fdiv_ru(x, y); o[15] = __fdiv_rd(x, y);
   o[16] = __fmaf_rn(x, y, z); o[17] = __fmaf_rz(x, y, z); o[18] = __fmaf_ru(x, y, z);
   o[19] = __fmaf_rd(x, y, z);
   o[20] = __frcp_rn(x); o[21] = __frcp_rz(x); o[22] = __frcp_ru(x); o[23] = __frcp_rd(x);
   o[24] = __fsqrt_rn(x); o[25] = __fsqrt_rz(x); o[26] = __fsqrt_ru(x); o[27] = __fsqrt_rd(x);
   o[28] = __frsqrt_rn(x);
   o[29] = __saturatef(x);
   o[30] = __fmaf_ieee_rn(x, y, z); o[31] = __fmaf_ieee_rz(x, y, z);
   o[32] = __fmaf_ieee_ru(x, y, z); o[33] = __fmaf_ieee_rd(x, y, z);
}

// f64 in one rounding: add and sub (every rounding translates), then
// mul, div, fma, reciprocal, root (only _rn does)
#define SWEEP_F64(mode)                                                        \
extern "C" __global__ void                                                     \
sweep_f64add_##mode(const double *a, const double *b, const double *c, double *out, int n) \
{                                                                              \
   int i = blockIdx.x * blockDim.x + threadIdx.x;                              \
   if (i >= n)                                                                 \
      return;                                                                  \
   double *o = out + (size_t)i * F64_OUTS;                                     \
   o[0] = __dadd_##mode(a[i], b[i]);                                           \
   o[1] = __dsub_##mode(a[i], b[i]);                                           \
}                                                                              \
extern "C" __global__ void                                                     \
sweep_f64_##mode(const double *a, const double *b, const double *c, double *out, int n) \
{                                                                              \
   int i = blockIdx.x * blockDim.x + threadIdx.x;                              \
   if (i >= n)                                                                 \
      return;                                                                  \
   double x = a[i], y = b[i], z = c[i];                                        \
   double *o = out + (size_t)i * F64_OUTS;                                     \
   o[2] = __dmul_##mode(x, y);                                                 \
   o[3] = __ddiv_##mode(x, y);                                                 \
   o[4] = __fma_##mode(x, y, z);                                               \
   o[5] = __drcp_##mode(x);                                                    \
   o[6] = __dsqrt_##mode(x);                                                   \
}
SWEEP_F64(rn)
SWEEP_F64(rz)
SWEEP_F64(ru)
SWEEP_F64(rd)

// conversions with an explicit rounding to and from f32, and f64 to
// integers and f32; x is an f32 and an integer, d an f64, l a 64-bit
// integer (bit patterns)
extern "C" __global__ void
sweep_cvt(const float *a, const double *b, const uint64_t *c, uint32_t *out, uint64_t *out64,
          int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   float x = a[i];
   double d = b[i];
   uint64_t l = c[i];
   int xi = __float_as_int(x);
   uint32_t *o = out + (size_t)i * CVT_OUTS;
   uint64_t *o64 = out64 + (size_t)i * 12;
   o[0] = (uint32_t)__float2int_rn(x); o[1] = (uint32_t)__float2int_rz(x);
   o[2] = (uint32_t)__float2int_ru(x); o[3] = (uint32_t)__float2int_rd(x);
   o[4] = __float2uint_rn(x); o[5] = __float2uint_rz(x);
   o[6] = __float2uint_ru(x); o[7] = __float2uint_rd(x);
   o[8] = (uint32_t)__double2int_rn(d); o[9] = (uint32_t)__double2int_rz(d);
   o[10] = (uint32_t)__double2int_ru(d); o[11] = (uint32_t)__double2int_rd(d);
   o[12] = __double2uint_rn(d); o[13] = __double2uint_rz(d);
   o[14] = __double2uint_ru(d); o[15] = __double2uint_rd(d);
   o[16] = __float_as_uint(__double2float_rn(d)); o[17] = __float_as_uint(__double2float_rz(d));
   o[18] = __float_as_uint(__double2float_ru(d)); o[19] = __float_as_uint(__double2float_rd(d));
   o[20] = __float_as_uint(__int2float_rn(xi)); o[21] = __float_as_uint(__int2float_rz(xi));
   o[22] = __float_as_uint(__int2float_ru(xi)); o[23] = __float_as_uint(__int2float_rd(xi));
   o[24] = __float_as_uint(__uint2float_rn((unsigned)xi));
   o[25] = __float_as_uint(__uint2float_rz((unsigned)xi));
   o[26] = __float_as_uint(__uint2float_ru((unsigned)xi));
   o[27] = __float_as_uint(__uint2float_rd((unsigned)xi));
   o[28] = __float_as_uint(__ll2float_rn((long long)l)); o[29] = __float_as_uint(__ll2float_rz((long long)l));
   o[30] = __float_as_uint(__ll2float_ru((long long)l)); o[31] = __float_as_uint(__ll2float_rd((long long)l));
   o[32] = __float_as_uint(__ull2float_rn(l)); o[33] = __float_as_uint(__ull2float_rz(l));
   o[34] = __float_as_uint(__ull2float_ru(l)); o[35] = __float_as_uint(__ull2float_rd(l));
   o[36] = (uint32_t)__double2hiint(d); o[37] = (uint32_t)__double2loint(d);
   o[38] = (uint32_t)__double_as_longlong(__hiloint2double(xi, (int)l));
   o[39] = __float_as_uint(__int_as_float(xi));
   o64[0] = (uint64_t)__float2ll_rn(x); o64[1] = (uint64_t)__float2ll_rz(x);
   o64[2] = (uint64_t)__float2ll_ru(x); o64[3] = (uint64_t)__float2ll_rd(x);
   o64[4] = __float2ull_rn(x); o64[5] = __float2ull_rd(x);
   o64[6] = (uint64_t)__double2ll_rn(d); o64[7] = (uint64_t)__double2ll_ru(d);
   o64[8] = __double2ull_rz(d); o64[9] = __double2ull_ru(d);
   o64[10] = (uint64_t)__double_as_longlong(__int2double_rn(xi));
   o64[11] = (uint64_t)__double_as_longlong(__ll2double_rn((long long)l));
}

// integer to f64 with a directed rounding
extern "C" __global__ void
sweep_cvt_f64_directed(const uint64_t *c, uint64_t *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   uint64_t l = c[i];
   uint64_t *o = out + (size_t)i * 4;
   o[0] = (uint64_t)__double_as_longlong(__ll2double_rz((long long)l));
   o[1] = (uint64_t)__double_as_longlong(__ll2double_ru((long long)l));
   o[2] = (uint64_t)__double_as_longlong(__ull2double_rd(l));
   o[3] = (uint64_t)__double_as_longlong(__ull2double_rz(l));
}

// the PTX SIMD video instructions nvcc does not write for the intrinsics
// above (it writes vabsdiff2/4 only), pinned by inline PTX
extern "C" __global__ void
sweep_video(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   uint32_t x = a[i], y = b[i], z = c[i], r;
   uint32_t *o = out + (size_t)i * 7;
   asm("vadd4.u32.u32.u32.sat %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[0] = r;
   asm("vsub2.s32.s32.s32.sat %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[1] = r;
   asm("vavrg4.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[2] = r;
   asm("vmin2.s32.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[3] = r;
   asm("vmax4.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[4] = r;
   asm("vabsdiff2.s32.s32.s32.add %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[5] = r;
   asm("vadd2.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[6] = r;
}
