// nvcc_programs.managed: a __managed__ variable, which cuvk does not
// support (cudaDevAttrManagedMemory is 0 there).  The program must start,
// its host code may touch the variable without crashing, and its
// kernels fail cleanly: cudaErrorNotSupported from the launch, nothing
// sticky afterwards.  On a runtime with managed memory the kernel runs.
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
   counter = 5;
   bump<<<1, 1>>>(3);
   cudaError_t err = cudaGetLastError();
   CHECK_CUDA(cudaDeviceSynchronize());
   if (managed) {
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
