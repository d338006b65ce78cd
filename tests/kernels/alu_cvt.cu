// Conversions between every pair of types, for the instruction lowering.
// out[i * 32 + k] holds the k-th result, zero-extended to 64 bits.
#include <stdint.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void
alu_cvt(const float *a, const double *b, const int64_t *c, uint64_t *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   float x = a[i];
   double d = b[i];
   int64_t l = c[i];
   uint64_t *o = out + (size_t)i * 32;

   o[0] = (uint32_t)__float2int_rn(x);
   o[1] = (uint32_t)__float2int_rz(x);
   o[2] = (uint32_t)__float2int_rd(x);
   o[3] = (uint32_t)__float2int_ru(x);
   o[4] = __float2uint_rn(x);
   o[5] = (uint64_t)__float2ll_rz(x);
   o[6] = __float2ull_rn(x);
   o[7] = (uint32_t)__double2int_rz(d);
   o[8] = (uint64_t)__double2ll_rn(d);
   o[9] = __float_as_uint(__int2float_rz((int)l));
   o[10] = __float_as_uint(__uint2float_rd((unsigned)l));
   o[11] = __float_as_uint(__ll2float_ru(l));
   o[12] = __float_as_uint(__ull2float_rn((unsigned long long)l));
   o[13] = __double_as_longlong(__ll2double_rz(l));
   o[14] = __float_as_uint(__double2float_rz(d));
   o[15] = __float_as_uint(__double2float_rd(d));
   o[16] = __float_as_uint(__double2float_ru(d));
   o[17] = __float_as_uint((float)d);
   o[18] = __double_as_longlong((double)x);
   o[19] = __half_as_ushort(__float2half_rn(x));
   o[20] = __half_as_ushort(__float2half_rz(x));
   o[21] = __float_as_uint(__half2float(__ushort_as_half((unsigned short)l)));
   o[22] = __bfloat16_as_ushort(__float2bfloat16_rn(x));
   o[23] = __float_as_uint(__bfloat162float(__ushort_as_bfloat16((unsigned short)l)));
   o[24] = (uint8_t)(int8_t)l;
   o[25] = (uint16_t)(int16_t)(int32_t)l;
   o[26] = (uint64_t)(int64_t)(int32_t)l;
   o[27] = __float_as_uint(rintf(x));
   o[28] = __float_as_uint(truncf(x));
   o[29] = __float_as_uint(floorf(x));
   o[30] = __float_as_uint(ceilf(x));
   {
      uint32_t r;
      asm("cvt.sat.u8.s32 %0, %1;" : "=r"(r) : "r"((int32_t)l));
      o[31] = r;
   }
}
