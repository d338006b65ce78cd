// Shared and global atomics of every common kind, and module-scope
// initialised data in .global and .const.
__device__ unsigned weights[4] = {1, 2, 3, 5};
__constant__ double scale[2] = {0.5, 2.0};

extern "C" __global__ void
histogram(const unsigned char *data, int n, unsigned *bins, unsigned long long *total,
          float *fsum, int *imax, double *dsum)
{
   __shared__ unsigned local_bins[64];
   for (int i = threadIdx.x; i < 64; i += blockDim.x)
      local_bins[i] = 0;
   __syncthreads();
   for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
      atomicAdd(&local_bins[data[i] & 63], weights[data[i] & 3]);
      atomicMax(imax, (int)data[i]);
      atomicAdd(fsum, (float)data[i]);
      atomicAdd(dsum, data[i] * scale[i & 1]);
   }
   __syncthreads();
   for (int i = threadIdx.x; i < 64; i += blockDim.x) {
      atomicAdd(&bins[i], local_bins[i]);
      atomicAdd(total, (unsigned long long)local_bins[i]);
      atomicCAS(&bins[64 + i], 0u, 1u);
      atomicExch(&bins[128 + i], local_bins[i]);
      atomicOr(&bins[192], 1u << (i & 31));
      atomicInc(&bins[193], 1000u);
   }
}
