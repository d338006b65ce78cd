// The .approx functions of half and bfloat16 values: htanh_approx and
// h2tanh_approx of cuda_fp16.h and cuda_bf16.h (tanh.approx.f16/.f16x2 on
// sm_75 and later, .bf16/.bf16x2 on sm_90; below that the bf16 ones go
// through tanhf), and ex2.approx.f16/.f16x2 and ex2.approx.ftz.bf16/.bf16x2,
// which no CUDA header emits (h2exp2 goes through f32), written as inline
// PTX.  out[i * 8 + k] holds the k-th result's bits.
#include <stdint.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void
half_approx(const uint32_t *a, const uint32_t *b, uint32_t *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   uint32_t *o = out + (size_t)i * 8;
   uint32_t x = a[i], p = b[i];
   uint32_t r;
   unsigned short h, lo = (unsigned short)x;

   asm("ex2.approx.f16x2 %0, %1;" : "=r"(r) : "r"(x));
   o[0] = r;
   asm("ex2.approx.f16 %0, %1;" : "=h"(h) : "h"(lo));
   o[1] = h;
   __half2 t = h2tanh_approx(*(const __half2 *)&x);
   o[2] = *(uint32_t *)&t;
   __half th = htanh_approx(__high2half(*(const __half2 *)&x));
   o[3] = *(unsigned short *)&th;

#if __CUDA_ARCH__ >= 900
   asm("ex2.approx.ftz.bf16x2 %0, %1;" : "=r"(r) : "r"(p));
   o[4] = r;
   unsigned short plo = (unsigned short)p;
   asm("ex2.approx.ftz.bf16 %0, %1;" : "=h"(h) : "h"(plo));
   o[5] = h;
#else
   __nv_bfloat162 e2 = h2exp2(*(const __nv_bfloat162 *)&p);
   o[4] = *(uint32_t *)&e2;
   __nv_bfloat16 e1 = hexp2(__low2bfloat16(*(const __nv_bfloat162 *)&p));
   o[5] = *(unsigned short *)&e1;
#endif
   __nv_bfloat162 u = h2tanh_approx(*(const __nv_bfloat162 *)&p);
   o[6] = *(uint32_t *)&u;
   __nv_bfloat16 uh = htanh_approx(__high2bfloat16(*(const __nv_bfloat162 *)&p));
   o[7] = *(unsigned short *)&uh;
}
