// Integer dot products of sm_61_intrinsics.h: __dp4a and __dp2a_lo/_hi
// (dp4a, dp2a.lo, dp2a.hi) in their signed and unsigned forms, and the
// mixed-signedness forms PTX has but no intrinsic writes, as inline PTX.
// out[i * 8 + k] holds the k-th result.
#include <stdint.h>

extern "C" __global__ void
alu_dot(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   uint32_t *o = out + (size_t)i * 8;
   uint32_t x = a[i], y = b[i], z = c[i], r;
   o[0] = (uint32_t)__dp4a((int)x, (int)y, (int)z);
   o[1] = __dp4a(x, y, z);
   asm("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z));
   o[2] = r;
   asm("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z));
   o[3] = r;
   o[4] = (uint32_t)__dp2a_lo((int)x, (int)y, (int)z);
   o[5] = __dp2a_hi(x, y, z);
   asm("dp2a.lo.u32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z));
   o[6] = r;
   asm("dp2a.hi.s32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z));
   o[7] = r;
}
