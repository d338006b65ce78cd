// nvcc_programs.managed: a __managed__ variable, which cuvk does not
// support yet (cudaMallocManaged it does: managed_arrays.cu).  The program
// must start, its host code may touch the variable without crashing, and
// its kernels fail cleanly: cudaErrorNotSupported from the launch, nothing
// sticky afterwards.  On CUDA the kernel runs.
#include "check.h"

__managed__ int counter;

__global__ void bump(int by)
{
   counter += by;
}

int
main()
{
   check_bound_to_cuvk();
   int managed = -1;
   CHECK_CUDA(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, 0));
   CHECK(managed == 1);
   // Run under the test suite, the program is bound to cuvk (checked
   // above); elsewhere it is CUDA's runtime, where the kernel runs.
   const char *expect = std::getenv("NVCC_PROGRAMS_EXPECT_CUVK");
   bool on_cuvk = expect && std::strcmp(expect, "1") == 0;
   counter = 5;
   bump<<<1, 1>>>(3);
   cudaError_t err = cudaGetLastError();
   CHECK_CUDA(cudaDeviceSynchronize());
   if (!on_cuvk) {
      CHECK(err == cudaSuccess);
      CHECK(counter == 8);
   } else {
      EXPECT_ERR(err, cudaErrorNotSupported);
      CHECK(counter == 5);
   }
   CHECK_CUDA(cudaGetLastError());
   // Other work still runs.
   int *d;
   CHECK_CUDA(cudaMalloc(&d, 4));
   CHECK_CUDA(cudaMemset(d, 0, 4));
   CHECK_CUDA(cudaFree(d));
   return check_finish("managed");
}
