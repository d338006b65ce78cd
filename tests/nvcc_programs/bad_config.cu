// nvcc_programs.bad_config: launches real CUDA refuses, and what
// cudaPeekAtLastError / cudaGetLastError say after each: a block of too
// many threads or a dimension of 0 is cudaErrorInvalidValue, the
// error is not sticky, the kernel did not run, and the next good launch
// works.
#include "check.h"

__global__ void fill(int *p, int v)
{
   p[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

int
main()
{
   check_bound_to_cuvk();
   int *d, h[64];
   CHECK_CUDA(cudaMalloc(&d, sizeof(h)));
   CHECK_CUDA(cudaMemset(d, 0, sizeof(h)));

   fill<<<1, 2048>>>(d, 1);
   EXPECT_ERR(cudaPeekAtLastError(), cudaErrorInvalidValue);
   EXPECT_ERR(cudaPeekAtLastError(), cudaErrorInvalidValue);
   EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   CHECK_CUDA(cudaGetLastError());

   fill<<<0, 64>>>(d, 2);
   EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   fill<<<1, dim3(64, 0, 1)>>>(d, 3);
   EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   fill<<<dim3(1, 70000), 1>>>(d, 4);
   EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   int dim_x = 0;
   CHECK_CUDA(cudaDeviceGetAttribute(&dim_x, cudaDevAttrMaxBlockDimZ, 0));
   fill<<<1, dim3(1, 1, dim_x + 1)>>>(d, 5);
   EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   void *args[] = {&d, &dim_x};
   EXPECT_ERR(cudaLaunchKernel((const void *)fill, dim3(1), dim3(4096), args, 0, 0),
              cudaErrorInvalidValue);
   EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);

   // cudaDeviceProp's limits are the ones checked: a block of
   // maxThreadsPerBlock threads runs, one more thread is refused.
   cudaDeviceProp prop;
   CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
   CHECK(prop.maxThreadsPerBlock > 0 && prop.maxThreadsPerBlock <= prop.maxThreadsDim[0]);
   CHECK(prop.maxGridSize[1] == 65535 && prop.warpSize > 0 && prop.multiProcessorCount > 0);
   int *big;
   CHECK_CUDA(cudaMalloc(&big, (prop.maxThreadsPerBlock + 1) * sizeof(int)));
   fill<<<1, prop.maxThreadsPerBlock + 1>>>(big, 6);
   EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   fill<<<1, prop.maxThreadsPerBlock>>>(big, 7);
   CHECK_CUDA(cudaGetLastError());
   int last = 0;
   CHECK_CUDA(cudaMemcpy(&last, big + prop.maxThreadsPerBlock - 1, sizeof(int), cudaMemcpyDeviceToHost));
   CHECK(last == 7);
   CHECK_CUDA(cudaFree(big));

   // None of them ran.
   CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
   for (int i = 0; i < 64; i++)
      CHECK(h[i] == 0);

   // The error was not sticky: the context still works.
   fill<<<2, 32>>>(d, 9);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
   for (int i = 0; i < 64; i++)
      CHECK(h[i] == 9);

   CHECK_CUDA(cudaFree(d));
   return check_finish("bad_config");
}
