// nvcc_programs.mem_pool: the stream-ordered allocator as programs in
// the style of NVIDIA's streamOrderedAllocation sample use it: ask the
// device whether it has pools, create one with a release threshold,
// allocate through cuda_runtime.h's C++ forms (cudaMallocAsync with a
// pool, cudaMallocFromPoolAsync<T>), run kernels on two streams ordered
// by an event, free, and destroy the pool with an allocation still live.
#include "check.h"

#include <cstdint>

__global__ void fill(float *a, float *b, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n) {
      a[i] = (float)i;
      b[i] = 2.0f * (float)i;
   }
}

__global__ void add(const float *a, const float *b, float *c, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      c[i] = a[i] + b[i];
}

int
main()
{
   check_bound_to_cuvk();
   int supported = 0;
   CHECK_CUDA(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
   CHECK(supported == 1);

   cudaMemPoolProps props = {};
   props.allocType = cudaMemAllocationTypePinned;
   props.handleTypes = cudaMemHandleTypeNone;
   props.location.type = cudaMemLocationTypeDevice;
   props.location.id = 0;
   cudaMemPool_t pool;
   CHECK_CUDA(cudaMemPoolCreate(&pool, &props));
   uint64_t threshold = UINT64_MAX;
   CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));

   const int n = 1 << 16;
   cudaStream_t s1, s2;
   cudaEvent_t filled;
   CHECK_CUDA(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
   CHECK_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
   CHECK_CUDA(cudaEventCreateWithFlags(&filled, cudaEventDisableTiming));

   float *a = nullptr, *b = nullptr, *c = nullptr, *kept = nullptr;
   CHECK_CUDA(cudaMallocAsync(&a, n * sizeof(float), pool, s1));
   CHECK_CUDA(cudaMallocFromPoolAsync(&b, n * sizeof(float), pool, s1));
   CHECK_CUDA(cudaMallocFromPoolAsync(&c, n * sizeof(float), pool, s2));
   CHECK_CUDA(cudaMallocFromPoolAsync(&kept, sizeof(float), pool, s2));
   fill<<<n / 256, 256, 0, s1>>>(a, b, n);
   CHECK_CUDA(cudaEventRecord(filled, s1));
   CHECK_CUDA(cudaStreamWaitEvent(s2, filled, 0));
   add<<<n / 256, 256, 0, s2>>>(a, b, c, n);
   CHECK_CUDA(cudaFreeAsync(a, s2));
   CHECK_CUDA(cudaFreeAsync(b, s2));
   float *host = (float *)std::malloc(n * sizeof(float));
   CHECK_CUDA(cudaMemcpyAsync(host, c, n * sizeof(float), cudaMemcpyDeviceToHost, s2));
   CHECK_CUDA(cudaMemcpyAsync(kept, c + 7, sizeof(float), cudaMemcpyDeviceToDevice, s2));
   CHECK_CUDA(cudaFreeAsync(c, s2));
   CHECK_CUDA(cudaStreamSynchronize(s2));
   int bad = 0;
   for (int i = 0; i < n; i++)
      bad += host[i] != 3.0f * (float)i;
   CHECK(bad == 0);

   unsigned long long used = 1;
   CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
   CHECK(used == 256);

   // Destroyed with kept live: the memory stays until freed.
   CHECK_CUDA(cudaMemPoolDestroy(pool));
   float back = 0;
   CHECK_CUDA(cudaMemcpy(&back, kept, sizeof(float), cudaMemcpyDeviceToHost));
   CHECK(back == 21.0f);
   CHECK_CUDA(cudaFree(kept));

   CHECK_CUDA(cudaEventDestroy(filled));
   CHECK_CUDA(cudaStreamDestroy(s1));
   CHECK_CUDA(cudaStreamDestroy(s2));
   std::free(host);
   return check_finish("mem_pool");
}
