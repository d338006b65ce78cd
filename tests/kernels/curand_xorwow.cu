// curand's XORWOW generator as nvcc builds it from curand_kernel.h: the
// skip-ahead reads curand's precomputed matrices, module globals of
// 100 KiB each.  tests/curand checks every value against a generator the
// test runs on the host.
#include <curand_kernel.h>

extern "C" __global__ void xorwow(unsigned long long seed, unsigned long long offset, unsigned *raw,
                                  float *uniform, float *normal, int per)
{
   int id = (int)(blockIdx.x * blockDim.x + threadIdx.x);
   curandState s;
   curand_init(seed, (unsigned long long)id, offset, &s);
   for (int k = 0; k < per; k++) {
      raw[id * per + k] = curand(&s);
      uniform[id * per + k] = curand_uniform(&s);
      normal[id * per + k] = curand_normal(&s);
   }
}

// A large subsequence and offset: every block of the precomputed tables
// and the squaring loop past them.
extern "C" __global__ void xorwow_far(unsigned long long seed, unsigned long long subsequence,
                                      unsigned long long offset, unsigned *raw, int per)
{
   curandState s;
   curand_init(seed, subsequence + threadIdx.x, offset, &s);
   for (int k = 0; k < per; k++)
      raw[threadIdx.x * per + k] = curand(&s);
}
