// nvcc_programs.startup: start-up of a program with 200 kernels
// (startup_kernels.cu, written by gen_startup.py at build time).  It
// launches one kernel with <<<...>>>, waits for its result, then launches
// the other 199 and checks all 200 against the host's copies of their
// functions.  Registration before main must only record the kernels: the
// fatbin is loaded at the first launch, and each kernel is translated at
// its own first launch (or read from cuvk's disk cache).  startup.py
// runs it, checks that from cuvk's debug log, and measures it.
//
// It prints, on stdout, how long after the start it had main, the first
// result and all results.  The start is STARTUP_T0_NS when set
// (CLOCK_MONOTONIC nanoseconds, taken by startup.py just before it started
// this process, so the dynamic linker's work counts), else the first
// constructor of this program.  On stderr, "startup: first launch" and
// "startup: first result" mark where the first launch begins and ends
// among cuvk's log lines.
#include "check.h"
#include "startup_kernels.h"

#include <ctime>

#define FIRST 137
#define SEED 0x2a5f00d1u

static double
now_ms(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double t_first_ctor;
__attribute__((constructor(101))) static void
mark_start(void)
{
   t_first_ctor = now_ms();
}

static void
check_results(int k, const unsigned *got)
{
   const startup_kernel *sk = &startup_kernels[k];
   for (unsigned t = 0; t < STARTUP_THREADS; t++) {
      unsigned want = sk->host(SEED ^ t);
      if (got[t] != want) {
         std::fprintf(stderr, "FAIL: %s [%u] = 0x%08x, want 0x%08x\n", sk->name, t, got[t], want);
         check_failures++;
         return;
      }
   }
}

int
main()
{
   double t_main = now_ms();
   const char *t0_env = std::getenv("STARTUP_T0_NS");
   double t0 = t0_env ? std::strtoull(t0_env, nullptr, 10) / 1e6 : t_first_ctor;
   check_bound_to_cuvk();

   const size_t slot = STARTUP_THREADS * sizeof(unsigned);
   static unsigned h[STARTUP_KERNELS][STARTUP_THREADS];
   unsigned *d = nullptr;
   CHECK_CUDA(cudaMalloc(&d, STARTUP_KERNELS * slot));
   if (!d)
      return check_finish("startup");

   std::fprintf(stderr, "startup: first launch\n");
   startup_launch(FIRST, d + FIRST * STARTUP_THREADS, SEED, 0);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(h[FIRST], d + FIRST * STARTUP_THREADS, slot, cudaMemcpyDeviceToHost));
   double t_first = now_ms();
   std::fprintf(stderr, "startup: first result\n");
   check_results(FIRST, h[FIRST]);

   for (int k = 0; k < STARTUP_KERNELS; k++) {
      if (k != FIRST)
         startup_launch(k, d + k * STARTUP_THREADS, SEED, 0);
   }
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(h, d, STARTUP_KERNELS * slot, cudaMemcpyDeviceToHost));
   double t_all = now_ms();
   for (int k = 0; k < STARTUP_KERNELS; k++)
      check_results(k, h[k]);

   std::printf("startup: %d kernels, from %s: main_ms=%.3f first_ms=%.3f all_ms=%.3f\n", STARTUP_KERNELS,
               t0_env ? "exec" : "the first constructor", t_main - t0, t_first - t0, t_all - t0);
   CHECK_CUDA(cudaFree(d));
   return check_finish("startup");
}
