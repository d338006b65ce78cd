// nvcc_programs.many_kernels: a program with 200 kernels starts fast.
// Registration before main only records the kernels; the fatbin is
// loaded at the first launch and only the kernels launched are
// translated.  The program prints how long start-up took (from its first
// constructor to main, and from main to the first launch's results) and
// checks a few kernels' results, launched with <<<...>>> and by address.
#include "check.h"

#include <ctime>

#define NUM_KERNELS 200

template <int N> __global__ void kern(int *p)
{
   p[threadIdx.x] = N * 1000 + (int)threadIdx.x;
}

// Takes every kern<N>'s address, which instantiates (and so registers)
// all of them.
template <int N> struct table {
   static void fill(const void **t)
   {
      t[N - 1] = (const void *)kern<N - 1>;
      table<N - 1>::fill(t);
   }
};
template <> struct table<0> {
   static void fill(const void **) {}
};

static double
now_ms(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// Before the registration constructors of this file (default priority).
static double t_first_ctor;
__attribute__((constructor(101))) static void
mark_start(void)
{
   t_first_ctor = now_ms();
}

static bool
check_kernel(const int *h, int n, const char *how)
{
   for (int t = 0; t < 32; t++) {
      if (h[t] != n * 1000 + t) {
         std::fprintf(stderr, "FAIL: kern<%d> (%s) [%d] = %d\n", n, how, t, h[t]);
         check_failures++;
         return false;
      }
   }
   return true;
}

int
main()
{
   double t_main = now_ms();
   check_bound_to_cuvk();
   int *d, h[32];
   CHECK_CUDA(cudaMalloc(&d, sizeof(h)));
   kern<137><<<1, 32>>>(d);
   CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
   double t_first = now_ms();
   check_kernel(h, 137, "<<<>>>");

   const void *all[NUM_KERNELS];
   table<NUM_KERNELS>::fill(all);
   const int picks[] = {0, 1, 99, 137, 198, 199};
   for (int n : picks) {
      void *args[] = {&d};
      CHECK_CUDA(cudaLaunchKernel(all[n], dim3(1), dim3(32), args, 0, 0));
      CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
      check_kernel(h, n, "cudaLaunchKernel");
   }
   double t_more = now_ms();
   std::printf("many_kernels: %d kernels; constructors to main %.3f ms; main to first launch's results "
               "%.3f ms; %zu more launches %.3f ms\n", NUM_KERNELS, t_main - t_first_ctor, t_first - t_main,
               sizeof(picks) / sizeof(picks[0]), t_more - t_first);
   CHECK_CUDA(cudaFree(d));
   return check_finish("many_kernels");
}
