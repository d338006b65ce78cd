// nvcc_programs.two_tu, second translation unit (see two_tu_a.cu).
#include <cuda_runtime.h>

static __device__ int tag = 200;
__constant__ int offset;

__global__ void negate(int *p, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] = -p[i] + offset + (tag - 200);
}

void
b_launch_negate(int *p, int n)
{
   negate<<<(n + 127) / 128, 128>>>(p, n);
}

void
b_set_offset(int v)
{
   cudaMemcpyToSymbol(offset, &v, sizeof(v));
}

int
b_read_offset(void)
{
   int v = -1;
   cudaMemcpyFromSymbol(&v, offset, sizeof(v));
   return v;
}
