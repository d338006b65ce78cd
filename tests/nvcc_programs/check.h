// Shared by the nvcc_programs tests: each is an ordinary CUDA program,
// built with plain `nvcc -cudart=shared`, that checks its own results
// against host references and exits non-zero on the first mismatch.
#ifndef NVCC_PROGRAMS_CHECK_H
#define NVCC_PROGRAMS_CHECK_H

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <cuda_runtime.h>

static int check_failures;

// A runtime call that must return want.
#define EXPECT_ERR(call, want)                                                        \
   do {                                                                               \
      cudaError_t e_ = (call);                                                        \
      if (e_ != (want)) {                                                             \
         std::fprintf(stderr, "FAIL %s:%d: %s: %s, want %s\n", __FILE__, __LINE__,    \
                      #call, cudaGetErrorName(e_), cudaGetErrorName(want));           \
         check_failures++;                                                            \
      }                                                                               \
   } while (0)

#define CHECK_CUDA(call) EXPECT_ERR(call, cudaSuccess)

#define CHECK(cond)                                                                   \
   do {                                                                               \
      if (!(cond)) {                                                                  \
         std::fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);         \
         check_failures++;                                                            \
      }                                                                               \
   } while (0)

// The program is linked against NVIDIA's libcudart.so.13 (nvcc
// -cudart=shared); under test its runtime calls must land in cuvk's
// drop-in, whose file is libcuvk.so.0.
// Only where the test says so (NVCC_PROGRAMS_EXPECT_CUVK=1): the same
// programs also run on NVIDIA's own runtime.
static inline void
check_bound_to_cuvk(void)
{
   const char *want = std::getenv("NVCC_PROGRAMS_EXPECT_CUVK");
   if (!want || std::strcmp(want, "1") != 0)
      return;
   Dl_info info;
   void *sym = dlsym(RTLD_DEFAULT, "cudaLaunchKernel");
   if (!sym || !dladdr(sym, &info) || !info.dli_fname) {
      std::fprintf(stderr, "FAIL: cudaLaunchKernel not found\n");
      check_failures++;
      return;
   }
   char *real = realpath(info.dli_fname, nullptr);
   const char *base = real ? std::strrchr(real, '/') : nullptr;
   if (!base || std::strncmp(base + 1, "libcuvk.so", 10) != 0) {
      std::fprintf(stderr, "FAIL: cudaLaunchKernel comes from %s (%s), not cuvk\n", info.dli_fname,
                   real ? real : "?");
      check_failures++;
   }
   std::free(real);
}

static inline int
check_finish(const char *name)
{
   CHECK_CUDA(cudaDeviceSynchronize());
   std::printf("%s: %s\n", name, check_failures ? "FAIL" : "pass");
   return check_failures ? 1 : 0;
}

#endif
