// nvcc_programs.threads: eight threads make their first launches at
// once, so the fatbin's module is loaded and its kernels translated while
// other threads ask for them; each thread uses the same kernel and one of
// its own, with its own configuration on the <<<...>>> stack, and checks
// its results.
#include "check.h"

#include <thread>
#include <vector>

#define THREADS 8

__global__ void shared_kernel(int *p, int v)
{
   p[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

template <int N> __global__ void own_kernel(int *p)
{
   p[blockIdx.x * blockDim.x + threadIdx.x] += N;
}

static void
launch_own(int t, int *d, int blocks)
{
   switch (t) {
#define OWN(n)                                  \
   case n:                                      \
      own_kernel<n><<<blocks, 64>>>(d);         \
      break;
      OWN(0) OWN(1) OWN(2) OWN(3) OWN(4) OWN(5) OWN(6) OWN(7)
#undef OWN
   }
}

static int thread_failures[THREADS];

static void
worker(int t)
{
   const int blocks = t + 1, n = blocks * 64;
   std::vector<int> h(n);
   int *d = nullptr;
   if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess) {
      thread_failures[t]++;
      return;
   }
   for (int round = 0; round < 3; round++) {
      shared_kernel<<<blocks, 64>>>(d, t * 100 + round);
      launch_own(t, d, blocks);
      if (cudaGetLastError() != cudaSuccess)
         thread_failures[t]++;
      if (cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess)
         thread_failures[t]++;
      for (int i = 0; i < n; i++) {
         if (h[i] != t * 100 + round + t) {
            std::fprintf(stderr, "FAIL: thread %d round %d [%d] = %d\n", t, round, i, h[i]);
            thread_failures[t]++;
            break;
         }
      }
   }
   cudaFree(d);
}

int
main()
{
   check_bound_to_cuvk();
   std::vector<std::thread> threads;
   for (int t = 0; t < THREADS; t++)
      threads.emplace_back(worker, t);
   for (auto &th : threads)
      th.join();
   for (int t = 0; t < THREADS; t++)
      check_failures += thread_failures[t];
   return check_finish("threads");
}
