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
