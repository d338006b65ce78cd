// 64-bit atomics on shared memory as CUDA programs write them: atomicAdd
// on a __shared__ double and unsigned long long, atomicMax, atomicMin on
// long long, the bitwise ones, atomicExch, and an atomicCAS loop (a max
// on doubles, the usual way to get one).  Each block's finals go to
// out[blockIdx.x * 10 + k]; the olds of the unsigned add to olds[i].
__device__ double
atomic_max_double(double *a, double v)
{
   unsigned long long *p = (unsigned long long *)a;
   unsigned long long old = *p, assumed;
   do {
      assumed = old;
      if (__longlong_as_double(assumed) >= v)
         break;
      old = atomicCAS(p, assumed, (unsigned long long)__double_as_longlong(v));
   } while (assumed != old);
   return __longlong_as_double(old);
}

extern "C" __global__ void
shared_atomics64(const double *x, const long long *k, unsigned long long *out,
                 unsigned long long *olds, int n)
{
   __shared__ double dsum, dmax;
   __shared__ unsigned long long usum, umax, bits_and, bits_or, bits_xor, swapped;
   __shared__ long long smin;
   if (threadIdx.x == 0) {
      dsum = 0;
      dmax = -1e300;
      usum = 0xfffffff0ull;
      umax = 0;
      bits_and = ~0ull;
      bits_or = 0;
      bits_xor = 0;
      swapped = 0;
      smin = 0;
   }
   __syncthreads();
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n) {
      unsigned long long u = (unsigned long long)k[i];
      atomicAdd(&dsum, x[i]);
      atomic_max_double(&dmax, x[i]);
      olds[i] = atomicAdd(&usum, 0x100000001ull);
      atomicMax(&umax, u);
      atomicMin(&smin, k[i]);
      atomicAnd(&bits_and, ~(1ull << ((i * 5) & 63)));
      atomicOr(&bits_or, 1ull << ((i * 7) & 63));
      atomicXor(&bits_xor, u);
      atomicExch(&swapped, u);
   }
   __syncthreads();
   if (threadIdx.x == 0) {
      unsigned long long *o = out + blockIdx.x * 10;
      o[0] = (unsigned long long)__double_as_longlong(dsum);
      o[1] = (unsigned long long)__double_as_longlong(dmax);
      o[2] = usum;
      o[3] = umax;
      o[4] = (unsigned long long)smin;
      o[5] = bits_and;
      o[6] = bits_or;
      o[7] = bits_xor;
      o[8] = swapped;
   }
}
