// nvcc_programs.two_tu: two translation units, each with its own kernels
// and variables (so two fatbinaries registered before main), launched
// from both; a kernel of one and a symbol of the other in the same
// program.  This file has main; two_tu_b.cu the other half.
#include "check.h"

// Same names in both units, at file scope, are the units' own.
static __device__ int tag = 100;

__global__ void square(int *p, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] = p[i] * p[i] + tag;
}

// two_tu_b.cu
void b_launch_negate(int *p, int n);
int b_read_offset(void);
void b_set_offset(int v);

int
main()
{
   check_bound_to_cuvk();
   const int n = 777;
   int h[n], *d;
   for (int i = 0; i < n; i++)
      h[i] = i - 300;
   CHECK_CUDA(cudaMalloc(&d, sizeof(h)));
   CHECK_CUDA(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));

   b_set_offset(5);
   CHECK(b_read_offset() == 5);
   square<<<(n + 63) / 64, 64>>>(d, n);
   b_launch_negate(d, n);
   CHECK_CUDA(cudaGetLastError());
   int out[n];
   CHECK_CUDA(cudaMemcpy(out, d, sizeof(out), cudaMemcpyDeviceToHost));
   for (int i = 0; i < n; i++) {
      int want = -(h[i] * h[i] + 100) + 5;
      if (out[i] != want) {
         std::fprintf(stderr, "FAIL: [%d] = %d, want %d\n", i, out[i], want);
         check_failures++;
         break;
      }
   }
   int t = 0;
   CHECK_CUDA(cudaMemcpyFromSymbol(&t, tag, sizeof(t)));
   CHECK(t == 100);
   CHECK_CUDA(cudaFree(d));
   return check_finish("two_tu");
}
