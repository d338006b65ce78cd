// The single-precision maths library as programs call it: sinf, cosf,
// expf, logf, powf, tanf, sqrtf and division, which nvcc inlines at full
// precision or maps to the approximate instructions (--use_fast_math).
// compiler.run.alu_libm checks each against CUDA's documented bounds.
// out[i * 8 + k] holds the k-th result's bits.
#include <stdint.h>

extern "C" __global__ void
alu_libm(const float *a, const float *b, uint32_t *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   float x = a[i], y = b[i];
   uint32_t *o = out + (size_t)i * 8;
   o[0] = __float_as_uint(sinf(x));
   o[1] = __float_as_uint(cosf(x));
   o[2] = __float_as_uint(expf(y));
   o[3] = __float_as_uint(logf(fabsf(x)));
   o[4] = __float_as_uint(powf(fabsf(x), y));
   o[5] = __float_as_uint(x / y);
   o[6] = __float_as_uint(tanf(x));
   o[7] = __float_as_uint(sqrtf(fabsf(x)));
}
