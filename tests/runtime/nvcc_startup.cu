// runtime.nvcc.startup: a program built with plain `nvcc -cudart=shared`,
// run unmodified on cuvk's drop-in.  Before main() its generated code
// registers the fatbinary, the kernel and the __device__ variable; that
// must leave no error behind, and the <<<...>>> launch must run the
// kernel (tests/nvcc_programs has the fuller programs).
#include <cstdio>
#include <cuda_runtime.h>

__device__ int offset[4];

__global__ void scale(float *p, float k)
{
   p[threadIdx.x] = p[threadIdx.x] * k + offset[0];
}

static int failures;

static void
expect(cudaError_t got, cudaError_t want, const char *what)
{
   if (got != want) {
      std::fprintf(stderr, "FAIL: %s: %s, want %s\n", what, cudaGetErrorName(got),
                   cudaGetErrorName(want));
      failures++;
   }
}

int
main()
{
   float host[64], back[64];
   float *dev = nullptr;

   for (int i = 0; i < 64; i++)
      host[i] = (float)i;
   // Registration left nothing behind for the program's first check.
   expect(cudaGetLastError(), cudaSuccess, "cudaGetLastError at start");
   expect(cudaMalloc(&dev, sizeof(host)), cudaSuccess, "cudaMalloc");
   expect(cudaMemcpy(dev, host, sizeof(host), cudaMemcpyHostToDevice), cudaSuccess, "cudaMemcpy H2D");

   scale<<<1, 64>>>(dev, 2.0f);
   expect(cudaGetLastError(), cudaSuccess, "cudaGetLastError after the launch");

   expect(cudaMemcpy(back, dev, sizeof(back), cudaMemcpyDeviceToHost), cudaSuccess, "cudaMemcpy D2H");
   for (int i = 0; i < 64; i++) {
      if (back[i] != host[i] * 2.0f) {
         std::fprintf(stderr, "FAIL: [%d] = %g, want %g\n", i, back[i], host[i] * 2.0f);
         failures++;
         break;
      }
   }
   expect(cudaFree(dev), cudaSuccess, "cudaFree");
   std::printf("%s\n", failures ? "FAIL" : "pass");
   return failures ? 1 : 0;
}
