// Floating-point arithmetic for the instruction lowering: what nvcc emits
// for ordinary code (and, in the .fast_math build, with
// --use_fast_math), plus inline PTX for the rounding modes, .ftz, .sat
// and approximate instructions C cannot name.  out[i * ALU_FLOAT_OUTS + k]
// holds the k-th result's bits.
#include <stdint.h>

#define ALU_FLOAT_OUTS 40

__device__ static uint32_t
bits(float f)
{
   return __float_as_uint(f);
}

extern "C" __global__ void
alu_f32(const float *a, const float *b, const float *c, uint32_t *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   float x = a[i], y = b[i], z = c[i], r;
   uint32_t *o = out + (size_t)i * ALU_FLOAT_OUTS;

   o[0] = bits(x + y);
   o[1] = bits(x - y);
   o[2] = bits(x * y);
   o[3] = bits(x / y);
   o[4] = bits(sqrtf(x));
   o[5] = bits(fmaf(x, y, z));
   o[6] = bits(fminf(x, y));
   o[7] = bits(fmaxf(x, y));
   o[8] = bits(fabsf(x));
   o[9] = bits(copysignf(x, y));
   o[10] = bits(__fadd_rz(x, y));
   o[11] = bits(__fadd_rd(x, y));
   o[12] = bits(__fadd_ru(x, y));
   o[13] = bits(__fmul_rz(x, y));
   o[14] = bits(__fmul_rd(x, y));
   o[15] = bits(__fmul_ru(x, y));
   o[16] = bits(__fdiv_rz(x, y));
   o[17] = bits(__fdiv_rd(x, y));
   o[18] = bits(__fdiv_ru(x, y));
   o[19] = bits(__fsqrt_rz(x));
   o[20] = bits(__fsqrt_rd(x));
   o[21] = bits(__fmaf_rz(x, y, z));
   o[22] = bits(__fmaf_rd(x, y, z));
   o[23] = bits(__fmaf_ru(x, y, z));
   o[24] = bits(__frcp_rn(x));
   o[25] = bits(__fdividef(x, y));
   o[26] = bits(__saturatef(x));
   o[27] = bits(__expf(x));
   o[28] = bits(__log2f(x));
   o[29] = bits(__sinf(x));
   o[30] = bits(__cosf(x));
   asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); o[31] = bits(r);
   asm("rsqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); o[32] = bits(r);
   asm("add.rn.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); o[33] = bits(r);
   asm("mul.rn.sat.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); o[34] = bits(r);
   asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); o[35] = bits(r);
   o[36] = (x < y) | (x <= y) << 1 | (x == y) << 2 | (x != y) << 3 | isnan(x) << 4 |
           isinf(x) << 5 | (!(x >= y)) << 6 | signbit(x) << 7;
   o[37] = bits(x > 0.0f ? y : z);
   asm("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); o[38] = bits(r);
   asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); o[39] = bits(r);
}

extern "C" __global__ void
alu_f64(const double *a, const double *b, const double *c, uint64_t *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   double x = a[i], y = b[i], z = c[i];
   uint64_t *o = out + (size_t)i * 10;

   o[0] = __double_as_longlong(x + y);
   o[1] = __double_as_longlong(x * y);
   o[2] = __double_as_longlong(x / y);
   o[3] = __double_as_longlong(sqrt(x));
   o[4] = __double_as_longlong(fma(x, y, z));
   o[5] = __double_as_longlong(fmin(x, y));
   o[6] = __double_as_longlong(fabs(x) + -z);
   o[7] = __double_as_longlong(__drcp_rn(x));
   o[8] = (uint64_t)(x < y) | (uint64_t)isnan(x) << 1;
   o[9] = __double_as_longlong(__dadd_rn(x, y));
}
