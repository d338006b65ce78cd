// 32-byte loads and stores as nvcc writes them for sm_100 and later: a
// copy of a 32-byte aligned struct of eight floats, of four doubles and of
// CUDA 13's double4_32a and longlong4_32a becomes one ld/st.global.v8.f32,
// .v4.f64 or .v4.u64 (earlier targets split each into two 16-byte
// accesses).  A __restrict__ const source gives the ld.global.nc form.
#include <stdint.h>

struct __align__(32) float8 {
   float v[8];
};

struct __align__(32) double4x {
   double v[4];
};

extern "C" __global__ void
wide_access(const float8 *__restrict__ a, float8 *b, const double4x *c, double4x *d,
            const double4_32a *e, double4_32a *f, const longlong4_32a *g, longlong4_32a *h,
            int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   float8 x = a[i];
   for (int k = 0; k < 8; k++)
      x.v[k] = x.v[k] * 2.0f + (float)k;
   b[i] = x;
   double4x y = c[i];
   for (int k = 0; k < 4; k++)
      y.v[k] += 1.0;
   d[i] = y;
   double4_32a z = e[i];
   z.x *= 3.0;
   z.w -= 1.0;
   f[i] = z;
   longlong4_32a w = g[i];
   w.x += 1;
   w.y ^= 5;
   w.z <<= 1;
   w.w = -w.w;
   h[i] = w;
}
