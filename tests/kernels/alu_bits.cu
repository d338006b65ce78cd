// fns (__fns), bmsk and szext: the bit instructions of sm_70 on that
// cuvk lowers without a loop (spirv_lower_alu.c).  nvcc writes fns for
// __fns (cooperative_groups' coalesced shuffles use it); bmsk and szext it
// writes for none of the C forms tried, so inline PTX pins them.  Each
// thread reads a[i], b[i], c[i] and writes ALU_BITS_OUTS results to
// out[i * ALU_BITS_OUTS + k], checked in tests/compiler/test_alu_kernels.c
// against alu_ref.h.
#include <stdint.h>

#define ALU_BITS_OUTS 10

extern "C" __global__ void
alu_bits(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   uint32_t x = a[i], y = b[i], z = c[i], r;
   uint32_t *o = out + (size_t)i * ALU_BITS_OUTS;
   // base in 0..31 (PTX leaves larger ones undefined), offsets around the
   // bit count in both directions, and 0
   uint32_t base = y & 31;
   int off = (int)(z % 81) - 40;

   o[0] = __fns(x, base, off);
   o[1] = __fns(x, base, 0);
   o[2] = __fns(x, 0, (int)(z & 63));
   o[3] = __fns(x, 31, -(int)(z & 63));
   asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r) : "r"(y % 72), "r"(z % 72)); o[4] = r;
   asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r) : "r"(y % 72), "r"(z % 72)); o[5] = r;
   asm("szext.clamp.s32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y % 72)); o[6] = r;
   asm("szext.wrap.s32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y % 72)); o[7] = r;
   asm("szext.clamp.u32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(z % 72)); o[8] = r;
   asm("szext.wrap.u32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(z)); o[9] = r;
}
