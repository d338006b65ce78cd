// Half-precision atomics and packed comparisons as CUDA code writes them
// with cuda_fp16.h and cuda_bf16.h: atomicAdd on __half, __half2,
// __nv_bfloat16, __nv_bfloat162 (global and shared) and double, and the
// __half2 and __nv_bfloat162 comparisons (lane results, masks, bools).
// Built for sm_75 (bf16 atomics emulated by a loop around atom.cas.b16)
// and sm_90 (native bf16 atomics).
#include <stdint.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void
half_atomics(const int *vals, int n, __half *h, __half2 *h2, __nv_bfloat16 *b,
             __nv_bfloat162 *b2, double *d, __half *from_shared,
             __half2 *from_shared2)
{
   __shared__ __half sh[16];
   __shared__ __half2 sh2[8];
   for (int i = threadIdx.x; i < 16; i += blockDim.x)
      sh[i] = __float2half(0.0f);
   for (int i = threadIdx.x; i < 8; i += blockDim.x)
      sh2[i] = __floats2half2_rn(0.0f, 0.0f);
   __syncthreads();
   for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
      float f = (float)vals[i] * 0.25f;
      atomicAdd(&h[i & 15], __float2half(f));
      atomicAdd(&h2[i & 7], __floats2half2_rn(f, -f));
      atomicAdd(&b[i & 31], __float2bfloat16(f));
      atomicAdd(&b2[i & 15], __floats2bfloat162_rn(f, 2.0f * f));
      atomicAdd(&d[i & 3], (double)vals[i] * 0.125);
      atomicAdd(&sh[i & 15], __float2half(f));
      atomicAdd(&sh2[i & 7], __floats2half2_rn(-f, f));
   }
   __syncthreads();
   for (int i = threadIdx.x; i < 16; i += blockDim.x)
      atomicAdd(&from_shared[i], sh[i]);
   for (int i = threadIdx.x; i < 8; i += blockDim.x)
      atomicAdd(&from_shared2[i], sh2[i]);
}

// out[i * 12 + k]: the k-th comparison of a[i] and b[i] (lane pairs).
extern "C" __global__ void
half_compare(const uint32_t *a, const uint32_t *b, uint32_t *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   uint32_t *o = out + (size_t)i * 12;
   __half2 x = *(const __half2 *)&a[i], y = *(const __half2 *)&b[i];
   __half2 r;
   r = __hlt2(x, y);
   o[0] = *(uint32_t *)&r;
   o[1] = __hbeq2(x, y);
   r = __hisnan2(x);
   o[2] = *(uint32_t *)&r;
   r = __hgtu2(x, y);
   o[3] = *(uint32_t *)&r;
   o[4] = __hle2_mask(x, y);
   o[5] = __hneu2_mask(x, y);
   o[6] = __hbgt2(x, y);
   __nv_bfloat162 p = *(const __nv_bfloat162 *)&a[i], q = *(const __nv_bfloat162 *)&b[i];
   __nv_bfloat162 s;
   s = __hlt2(p, q);
   o[7] = *(uint32_t *)&s;
   s = __hgeu2(p, q);
   o[8] = *(uint32_t *)&s;
   o[9] = __hle(__low2bfloat16(p), __high2bfloat16(q));
   o[10] = __heq2_mask(p, q);
   o[11] = __hbne2(p, q);
}
