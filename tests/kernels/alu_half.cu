// Half and bfloat16 arithmetic as CUDA code writes it with cuda_fp16.h and
// cuda_bf16.h: packed half2 operations, conversions that pack two floats,
// comparisons, and bf16 arithmetic (emulated through f32 below sm_80).
// out[i * 16 + k] holds the k-th result's bits.
#include <stdint.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void
alu_half(const uint32_t *a, const uint32_t *b, const uint32_t *c, const float *f, uint32_t *out,
         int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   uint32_t *o = out + (size_t)i * 16;
   __half2 x = *(const __half2 *)&a[i], y = *(const __half2 *)&b[i], z = *(const __half2 *)&c[i];
   __half2 r[8];
   r[0] = __hadd2(x, y);
   r[1] = __hsub2(x, y);
   r[2] = __hmul2(x, y);
   r[3] = __hfma2(x, y, z);
   r[4] = __hmax2(x, y);
   r[5] = __hneg2(x);
   r[6] = __hadd2_sat(x, y);
   r[7] = __floats2half2_rn(f[2 * i], f[2 * i + 1]);
   for (int k = 0; k < 8; k++)
      o[k] = *(uint32_t *)&r[k];
   o[8] = __hlt(__low2half(x), __high2half(y));
   o[9] = __float_as_uint(__half2float(__hmul(__low2half(x), __high2half(y))));

   __nv_bfloat162 p = *(const __nv_bfloat162 *)&a[i], q = *(const __nv_bfloat162 *)&b[i];
   __nv_bfloat162 s = __hadd2(p, q);
   __nv_bfloat162 t = __hmul2(p, q);
   o[10] = *(uint32_t *)&s;
   o[11] = *(uint32_t *)&t;
   o[12] = __float_as_uint(__bfloat162float(__hmul(__low2bfloat16(p), __high2bfloat16(q))));
   __nv_bfloat162 u = __floats2bfloat162_rn(f[2 * i], f[2 * i + 1]);
   o[13] = *(uint32_t *)&u;
}

// bf16 to and from every integer width in every rounding: sm_90 writes
// cvt between bf16 and the integer directly (cvt.rzi.s32.bf16,
// cvt.rn.bf16.s32...), sm_75 goes through f32.  h holds a bf16 in its low
// half, l an integer; out[i * 48 + k] the k-th result (bf16 results in
// the low 16 bits).
#define BF16_INT_OUTS 48
#define ROUNDINGS(f, x) f##_rn(x), f##_rz(x), f##_ru(x), f##_rd(x)
extern "C" __global__ void
bf16_int(const uint32_t *h, const uint64_t *l, uint64_t *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   uint64_t *o = out + (size_t)i * BF16_INT_OUTS;
   __nv_bfloat16 x = __ushort_as_bfloat16((unsigned short)h[i]);
   uint64_t v = l[i];
   int si[4] = { ROUNDINGS(__bfloat162int, x) };
   unsigned ui[4] = { ROUNDINGS(__bfloat162uint, x) };
   long long sl[4] = { ROUNDINGS(__bfloat162ll, x) };
   unsigned long long ul[4] = { ROUNDINGS(__bfloat162ull, x) };
   short ss[4] = { ROUNDINGS(__bfloat162short, x) };
   unsigned short us[4] = { ROUNDINGS(__bfloat162ushort, x) };
   __nv_bfloat16 b[24] = {
      ROUNDINGS(__int2bfloat16, (int)v), ROUNDINGS(__uint2bfloat16, (unsigned)v),
      ROUNDINGS(__ll2bfloat16, (long long)v), ROUNDINGS(__ull2bfloat16, (unsigned long long)v),
      ROUNDINGS(__short2bfloat16, (short)v), ROUNDINGS(__ushort2bfloat16, (unsigned short)v),
   };
   for (int k = 0; k < 4; k++) {
      o[k] = (uint32_t)si[k];
      o[4 + k] = ui[k];
      o[8 + k] = (uint64_t)sl[k];
      o[12 + k] = ul[k];
      o[16 + k] = (uint16_t)ss[k];
      o[20 + k] = us[k];
   }
   for (int k = 0; k < 24; k++)
      o[24 + k] = __bfloat16_as_ushort(b[k]);
}
