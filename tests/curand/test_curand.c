/*
 * kernel.curand.*: curand's XORWOW generator from curand_kernel.h, built
 * by nvcc (tests/kernels/curand_xorwow.cu), run through cuvk and checked
 * against the same generator run here on the host (xorwow_host.h).
 *
 *    test_curand CASE CURAND_XORWOW.ptx
 */
#include <cuda.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_harness.h"
#include "xorwow_host.h"

/* ---- cases ---- */

static CUmodule mod;

/* 4 blocks of 32 threads, subsequence = thread, 8 of each kind a thread:
 * curand exactly; curand_uniform exactly (one fma both sides);
 * curand_normal within 2^-16 relative, since the device's __sincosf and
 * the host's sinf/cosf differ in their last bits. */
static void
case_xorwow(const mat160 *powers)
{
   CUfunction f;
   OK(cuModuleGetFunction(&f, mod, "xorwow"));
   const int threads = 128, per = 8, n = threads * per;
   unsigned long long seed = 0x123456789abcdefull, offset = 1000;
   CUdeviceptr raw, uni, nrm;
   OK(cuMemAlloc(&raw, n * 4));
   OK(cuMemAlloc(&uni, n * 4));
   OK(cuMemAlloc(&nrm, n * 4));
   int per_arg = per;
   void *params[] = {&seed, &offset, &raw, &uni, &nrm, &per_arg};
   OK(cuLaunchKernel(f, threads / 32, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
   uint32_t *h_raw = malloc(n * 4);
   float *h_uni = malloc(n * 4), *h_nrm = malloc(n * 4);
   OK(cuMemcpyDtoH(h_raw, raw, n * 4));
   OK(cuMemcpyDtoH(h_uni, uni, n * 4));
   OK(cuMemcpyDtoH(h_nrm, nrm, n * 4));
   unsigned bad_raw = 0, bad_uni = 0, bad_nrm = 0;
   for (int id = 0; id < threads; id++) {
      struct xorwow g;
      xorwow_init(&g, powers, seed, (uint64_t)id, offset);
      for (int k = 0; k < per; k++) {
         int i = id * per + k;
         uint32_t r = xorwow_next(&g);
         float u = uniform_of(xorwow_next(&g));
         float z = normal_next(&g);
         if (h_raw[i] != r && bad_raw++ < 5)
            fprintf(stderr, "thread %d draw %d: curand %08x, host %08x\n", id, k, h_raw[i], r);
         if (h_uni[i] != u && bad_uni++ < 5)
            fprintf(stderr, "thread %d draw %d: curand_uniform %.9g, host %.9g\n", id, k, h_uni[i], u);
         if (!(fabsf(h_nrm[i] - z) <= ldexpf(1.0f, -16) * fmaxf(1.0f, fabsf(z))) && bad_nrm++ < 5)
            fprintf(stderr, "thread %d draw %d: curand_normal %.9g, host %.9g\n", id, k, h_nrm[i], z);
      }
   }
   CHECK(bad_raw == 0);
   CHECK(bad_uni == 0);
   CHECK(bad_nrm == 0);
   free(h_raw);
   free(h_uni);
   free(h_nrm);
   OK(cuMemFree(raw));
   OK(cuMemFree(uni));
   OK(cuMemFree(nrm));
}

/* Subsequences and offsets far out: past curand's last precomputed
 * matrix, where its skip-ahead squares matrices in local memory. */
static void
case_far(const mat160 *powers)
{
   CUfunction f;
   OK(cuModuleGetFunction(&f, mod, "xorwow_far"));
   const int threads = 32, per = 4, n = threads * per;
   unsigned long long seed = 42, subsequence = (1ull << 62) + 12345, offset = (1ull << 63) + 777;
   CUdeviceptr raw;
   OK(cuMemAlloc(&raw, n * 4));
   int per_arg = per;
   void *params[] = {&seed, &subsequence, &offset, &raw, &per_arg};
   OK(cuLaunchKernel(f, 1, 1, 1, threads, 1, 1, 0, NULL, params, NULL));
   uint32_t h[128];
   OK(cuMemcpyDtoH(h, raw, n * 4));
   unsigned bad = 0;
   for (int t = 0; t < threads; t++) {
      struct xorwow g;
      xorwow_init(&g, powers, seed, subsequence + (uint64_t)t, offset);
      for (int k = 0; k < per; k++) {
         uint32_t r = xorwow_next(&g);
         if (h[t * per + k] != r && bad++ < 5)
            fprintf(stderr, "thread %d draw %d: curand %08x, host %08x\n", t, k, h[t * per + k], r);
      }
   }
   CHECK(bad == 0);
   OK(cuMemFree(raw));
}

int
main(int argc, char **argv)
{
   if (argc >= 2 && strcmp(argv[1], "--skip") == 0)
      cuvk_test_skip("%s", argc > 2 ? argv[2] : "");
   if (argc != 3) {
      fprintf(stderr, "usage: %s CASE CURAND_XORWOW.ptx\n", argv[0]);
      return 2;
   }
   /* 2^(67 + 63) steps at most: powers up to 2^130. */
   mat160 *powers = step_powers(131);
   drv_test_setup(NULL);
   char *ptx = drv_test_read_file(argv[2], NULL);
   OK(cuModuleLoadData(&mod, ptx));
   free(ptx);
   if (strcmp(argv[1], "kernel.curand.xorwow") == 0) {
      case_xorwow(powers);
   } else if (strcmp(argv[1], "kernel.curand.xorwow_far") == 0) {
      case_far(powers);
   } else {
      fprintf(stderr, "no case %s\n", argv[1]);
      return 2;
   }
   OK(cuModuleUnload(mod));
   drv_test_teardown();
   free(powers);
   return drv_test_exit(argv[1]);
}
