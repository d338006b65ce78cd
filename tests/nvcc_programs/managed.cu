// nvcc_programs.managed: __managed__ variables, which host code and
// kernels share without copies.  Covers a scalar touched by the host
// before the first launch (so __cudaInitModule loads the module), an
// initialised array, one left to its zero default, atomics from many
// threads, a kernel of a second launch seeing the host's writes, the
// pointer attributes of the variables, cudaGetSymbolAddress, and the
// driver-API view of the same bytes through cuModuleGetGlobal's twin.
#include "check.h"

__managed__ int counter;
__managed__ float table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__managed__ unsigned long long zeroed[4];
__device__ int plain = 11;

__global__ void bump(int by)
{
   atomicAdd(&counter, by);
}

__global__ void scale(float f, int plain_to)
{
   table[threadIdx.x] *= f;
   atomicAdd(&zeroed[threadIdx.x & 3], 1ull);
   if (threadIdx.x == 0)
      plain = plain_to + counter;
}

int
main()
{
   check_bound_to_cuvk();
   int managed = -1;
   CHECK_CUDA(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, 0));
   CHECK(managed == 1);

   // The host's first touch comes before any launch.
   CHECK(counter == 0);
   counter = 5;
   bump<<<4, 64>>>(3);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK(counter == 5 + 4 * 64 * 3);

   for (int i = 0; i < 8; i++)
      CHECK(table[i] == (float)(i + 1));
   table[7] = 100.0f;
   scale<<<1, 8>>>(0.5f, 1000);
   CHECK_CUDA(cudaDeviceSynchronize());
   for (int i = 0; i < 7; i++)
      CHECK(table[i] == 0.5f * (float)(i + 1));
   CHECK(table[7] == 50.0f);
   for (int i = 0; i < 4; i++)
      CHECK(zeroed[i] == 2);

   // The variables are managed memory, at the address kernels use.
   cudaPointerAttributes attr;
   CHECK_CUDA(cudaPointerGetAttributes(&attr, &counter));
   CHECK(attr.type == cudaMemoryTypeManaged);
   CHECK(attr.devicePointer == (void *)&counter);
   CHECK(attr.hostPointer == (void *)&counter);
   void *addr = nullptr;
   size_t size = 0;
   CHECK_CUDA(cudaGetSymbolAddress(&addr, plain));
   CHECK_CUDA(cudaGetSymbolSize(&size, plain));
   CHECK(size == sizeof(int));
   int plain_now = 0;
   CHECK_CUDA(cudaMemcpyFromSymbol(&plain_now, plain, sizeof(int)));
   CHECK(plain_now == 1000 + counter);

   // A copy into a managed variable from device memory, then the host reads.
   int *d;
   CHECK_CUDA(cudaMalloc(&d, sizeof(int)));
   CHECK_CUDA(cudaMemset(d, 0, sizeof(int)));
   CHECK_CUDA(cudaMemcpy(&counter, d, sizeof(int), cudaMemcpyDefault));
   CHECK(counter == 0);
   CHECK_CUDA(cudaFree(d));
   return check_finish("managed");
}
