// A block sum through shared memory: barriers inside a loop, static and
// dynamic (extern) shared arrays.
extern "C" __global__ void
reduce_sum(const float *in, float *out, unsigned n)
{
   __shared__ float partial[256];
   unsigned tid = threadIdx.x;
   unsigned i = blockIdx.x * blockDim.x * 2 + tid;
   float v = 0.0f;

   if (i < n)
      v = in[i];
   if (i + blockDim.x < n)
      v += in[i + blockDim.x];
   partial[tid] = v;
   __syncthreads();
   for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (tid < s)
         partial[tid] += partial[tid + s];
      __syncthreads();
   }
   if (tid == 0)
      out[blockIdx.x] = partial[0];
}

extern "C" __global__ void
reduce_dynamic(const int *in, long long *out, int n)
{
   extern __shared__ long long scratch[];
   int tid = threadIdx.x;
   int i = blockIdx.x * blockDim.x + tid;

   scratch[tid] = i < n ? in[i] : 0;
   __syncthreads();
   for (int s = blockDim.x / 2; s > 0; s >>= 1) {
      if (tid < s)
         scratch[tid] += scratch[tid + s];
      __syncthreads();
   }
   if (tid == 0)
      out[blockIdx.x] = scratch[0];
}
