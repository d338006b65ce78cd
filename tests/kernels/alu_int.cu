// Integer arithmetic and bit instructions of every width, for the
// instruction lowering (tests/compiler/test_alu.c) and, once kernels run,
// for comparison with the host references of tests/compiler/alu_ref.h.
// Each thread reads a[i], b[i], c[i] and writes ALU_INT_OUTS results to
// out[i * ALU_INT_OUTS + k]; the slot of each result is its k below.
// Inline PTX pins the forms C cannot ask for (division by zero, shifts
// past the width, prmt modes, carry chains); the rest is what nvcc picks.
#include <stdint.h>

#define ALU_INT_OUTS 48

extern "C" __global__ void
alu_int32(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   uint32_t x = a[i], y = b[i], z = c[i];
   int32_t sx = (int32_t)x, sy = (int32_t)y;
   uint32_t *o = out + (size_t)i * ALU_INT_OUTS, r;

   o[0] = x + y;
   o[1] = x - y;
   o[2] = x * y;
   o[3] = __umulhi(x, y);
   o[4] = (uint32_t)__mulhi(sx, sy);
   o[5] = x * y + z;
   asm("div.u32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); o[6] = r;
   asm("div.s32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); o[7] = r;
   asm("rem.u32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); o[8] = r;
   asm("rem.s32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); o[9] = r;
   o[10] = (uint32_t)min(sx, sy);
   o[11] = max(x, y);
   o[12] = (uint32_t)abs(sx);
   asm("shl.b32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y & 63)); o[13] = r;
   asm("shr.u32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y & 63)); o[14] = r;
   asm("shr.s32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y & 63)); o[15] = r;
   o[16] = __popc(x);
   o[17] = __clz(x);
   o[18] = __brev(x);
   o[19] = __ffs(x);
   asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[20] = r;
   asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[21] = r;
   asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(x), "r"(y), "r"(z), "r"(z >> 8)); o[22] = r;
   asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(x)); o[23] = r;
   asm("bfind.s32 %0, %1;" : "=r"(r) : "r"(x)); o[24] = r;
   asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r) : "r"(x)); o[25] = r;
   o[26] = __byte_perm(x, y, z);
   asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[27] = r;
   asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[28] = r;
   asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[29] = r;
   asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[30] = r;
   asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[31] = r;
   asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[32] = r;
   o[33] = __umul24(x, y);
   o[34] = (uint32_t)__mul24(sx, sy);
   asm("mul24.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); o[35] = r;
   o[36] = __sad(sx, sy, z);
   o[37] = __funnelshift_l(x, y, z);
   o[38] = __funnelshift_rc(x, y, z);
   asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[39] = r;
   asm("add.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); o[40] = r;
   asm("sub.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); o[41] = r;
   asm("mad.hi.sat.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(z)); o[42] = r;
   {
      /* A 96-bit add through the carry flag: {z, y, x} + {x, z, y}. */
      uint32_t r0, r1, r2;
      asm("add.cc.u32 %0, %3, %4;\n\taddc.cc.u32 %1, %5, %6;\n\taddc.u32 %2, %7, %8;"
          : "=r"(r0), "=r"(r1), "=r"(r2)
          : "r"(x), "r"(y), "r"(y), "r"(z), "r"(z), "r"(x));
      o[43] = r0, o[44] = r1, o[45] = r2;
      asm("sub.cc.u32 %0, %2, %3;\n\tsubc.u32 %1, %4, %5;"
          : "=r"(r0), "=r"(r1) : "r"(x), "r"(y), "r"(z), "r"(x));
      o[46] = r0, o[47] = r1;
   }
}

extern "C" __global__ void
alu_int64(const uint64_t *a, const uint64_t *b, uint64_t *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   uint64_t x = a[i], y = b[i], r;
   int64_t sx = (int64_t)x, sy = (int64_t)y;
   uint64_t *o = out + (size_t)i * 24;

   o[0] = x + y;
   o[1] = x - y;
   o[2] = x * y;
   o[3] = __umul64hi(x, y);
   o[4] = (uint64_t)__mul64hi(sx, sy);
   asm("div.u64 %0, %1, %2;" : "=l"(r) : "l"(x), "l"(y)); o[5] = r;
   asm("div.s64 %0, %1, %2;" : "=l"(r) : "l"(x), "l"(y)); o[6] = r;
   asm("rem.u64 %0, %1, %2;" : "=l"(r) : "l"(x), "l"(y)); o[7] = r;
   asm("rem.s64 %0, %1, %2;" : "=l"(r) : "l"(x), "l"(y)); o[8] = r;
   o[9] = (uint64_t)min(sx, sy);
   o[10] = max(x, y);
   asm("shl.b64 %0, %1, %2;" : "=l"(r) : "l"(x), "r"((uint32_t)y & 127)); o[11] = r;
   asm("shr.s64 %0, %1, %2;" : "=l"(r) : "l"(x), "r"((uint32_t)y & 127)); o[12] = r;
   o[13] = __popcll(x);
   o[14] = __clzll(x);
   o[15] = __brevll(x);
   o[16] = (uint64_t)__ffsll(sx);
   asm("bfe.s64 %0, %1, %2, %3;" : "=l"(r) : "l"(x), "r"((uint32_t)y), "r"((uint32_t)(y >> 32)));
   o[17] = r;
   o[18] = (uint64_t)((uint32_t)x * (uint64_t)(uint32_t)y);   /* mul.wide.u32 */
   o[19] = (uint64_t)((int64_t)(int32_t)x * (int32_t)y);       /* mul.wide.s32 */
   o[20] = (uint64_t)llabs(sx);
   o[21] = x / (y | 1);
   o[22] = (uint64_t)(sx % (sy | 1));
   o[23] = (x << 13) | (x >> 51);
}

extern "C" __global__ void
alu_int16(const uint16_t *a, const uint16_t *b, uint16_t *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   uint16_t x = a[i], y = b[i], r;
   uint16_t *o = out + (size_t)i * 8;

   asm("add.u16 %0, %1, %2;" : "=h"(r) : "h"(x), "h"(y)); o[0] = r;
   asm("mul.lo.s16 %0, %1, %2;" : "=h"(r) : "h"(x), "h"(y)); o[1] = r;
   asm("div.s16 %0, %1, %2;" : "=h"(r) : "h"(x), "h"(y)); o[2] = r;
   asm("rem.u16 %0, %1, %2;" : "=h"(r) : "h"(x), "h"(y)); o[3] = r;
   asm("shr.s16 %0, %1, %2;" : "=h"(r) : "h"(x), "r"((uint32_t)y & 31)); o[4] = r;
   asm("min.s16 %0, %1, %2;" : "=h"(r) : "h"(x), "h"(y)); o[5] = r;
   {
      uint32_t w;
      asm("mul.wide.u16 %0, %1, %2;" : "=r"(w) : "h"(x), "h"(y));
      o[6] = (uint16_t)(w >> 16);
   }
   o[7] = (uint16_t)((int8_t)x + (int8_t)y);
}
