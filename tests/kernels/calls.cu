// A non-inlined device function with a return value, launch bounds, an
// unrolling pragma nvcc keeps, printf, and fast-math friendly float code.
#include <cstdio>

__device__ __noinline__ float
smooth(float x, int k)
{
   float acc = 0.0f;
#pragma unroll 1
   for (int i = 0; i < k; i++)
      acc += __sinf(x * i) * 0.25f;
   return acc;
}

extern "C" __global__ void __launch_bounds__(128, 2)
bounded(float *out, int k)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   out[t] = smooth((float)t, k) + rsqrtf((float)t + 1.0f) + __fdividef(1.0f, (float)(t + 2));
   if (t == 0)
      printf("k=%d first=%f\n", k, (double)out[0]);
}
