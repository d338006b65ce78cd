// nvcc_programs.vector_add: the first CUDA program anyone writes, with
// <<<...>>>, then the same kernel through cudaLaunchKernel (by its stub
// and by the cudaKernel_t cudaGetKernel gives) and what the runtime says
// about it (cudaFuncGetAttributes, occupancy, cudaGetFuncBySymbol).
#include "check.h"

#include <vector>

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      c[i] = a[i] + b[i];
}

__global__ void scale_add(float *c, float k, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      c[i] = c[i] * k + 1.0f;
}

int
main()
{
   const int n = 100000;
   std::vector<float> a(n), b(n), c(n);
   for (int i = 0; i < n; i++) {
      a[i] = (float)i * 0.5f;
      b[i] = (float)(n - i);
   }
   check_bound_to_cuvk();

   float *da, *db, *dc;
   CHECK_CUDA(cudaMalloc(&da, n * sizeof(float)));
   CHECK_CUDA(cudaMalloc(&db, n * sizeof(float)));
   CHECK_CUDA(cudaMalloc(&dc, n * sizeof(float)));
   CHECK_CUDA(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));

   int threads = 256, blocks = (n + threads - 1) / threads;
   vector_add<<<blocks, threads>>>(da, db, dc, n);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost));
   for (int i = 0; i < n; i++) {
      if (c[i] != a[i] + b[i]) {
         std::fprintf(stderr, "FAIL: <<<>>> c[%d] = %g, want %g\n", i, c[i], a[i] + b[i]);
         check_failures++;
         break;
      }
   }

   // The same launch through the API: by the stub's address...
   float k = 2.0f;
   int nn = n;
   void *args[] = {&dc, &k, &nn};
   CHECK_CUDA(cudaLaunchKernel((const void *)scale_add, dim3(blocks), dim3(threads), args, 0, 0));
   // ...and by its kernel handle.
   cudaKernel_t handle = nullptr;
   CHECK_CUDA(cudaGetKernel(&handle, (const void *)scale_add));
   CHECK(handle != nullptr);
   CHECK_CUDA(cudaLaunchKernel((const void *)handle, dim3(blocks), dim3(threads), args, 0, 0));
   CHECK_CUDA(cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost));
   for (int i = 0; i < n; i++) {
      float want = ((a[i] + b[i]) * 2.0f + 1.0f) * 2.0f + 1.0f;
      if (c[i] != want) {
         std::fprintf(stderr, "FAIL: cudaLaunchKernel c[%d] = %g, want %g\n", i, c[i], want);
         check_failures++;
         break;
      }
   }

   // What the runtime says of the kernel.
   cudaFuncAttributes attr;
   std::memset(&attr, 0xff, sizeof(attr));
   CHECK_CUDA(cudaFuncGetAttributes(&attr, (const void *)vector_add));
   CHECK(attr.maxThreadsPerBlock >= 256 && attr.maxThreadsPerBlock <= 1024);
   CHECK(attr.sharedSizeBytes == 0);
   CHECK(attr.ptxVersion > 0);
   int per_sm = -1;
   CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, vector_add, 256, 0));
   CHECK(per_sm >= 1);
   CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&per_sm, vector_add, 256, 0,
                                                                     cudaOccupancyDefault));
   CHECK(per_sm >= 1);
   int min_grid = 0, block = 0;
   CHECK_CUDA(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, vector_add, 0, 0));
   CHECK(block > 0 && block <= attr.maxThreadsPerBlock && min_grid > 0);
   cudaFunction_t fn = nullptr;
   CHECK_CUDA(cudaGetFuncBySymbol(&fn, (const void *)vector_add));
   CHECK(fn != nullptr);
   CHECK_CUDA(cudaFuncSetCacheConfig((const void *)vector_add, cudaFuncCachePreferL1));

   // Something that is not a kernel: CUDA 13 takes it for a bad
   // cudaKernel_t (measured on an H100, driver 580.159.04).
   EXPECT_ERR(cudaFuncGetAttributes(&attr, (const void *)&n), cudaErrorInvalidResourceHandle);
   EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidResourceHandle);
   EXPECT_ERR(cudaLaunchKernel((const void *)main, dim3(1), dim3(1), nullptr, 0, 0),
              cudaErrorInvalidResourceHandle);
   CHECK_CUDA(cudaGetLastError() == cudaErrorInvalidResourceHandle ? cudaSuccess : cudaErrorUnknown);

   CHECK_CUDA(cudaFree(da));
   CHECK_CUDA(cudaFree(db));
   CHECK_CUDA(cudaFree(dc));
   return check_finish("vector_add");
}
