/*
 * kernel.curand.*: curand's XORWOW generator from curand_kernel.h, built
 * by nvcc (tests/kernels/curand_xorwow.cu), run through cuvk and checked
 * against the same generator run here on the host.
 *
 * The host generator follows curand's documentation: xorwow (Marsaglia's
 * xorshift of five words plus a Weyl sequence d that adds 362437 a step),
 * seeded as curand_init does, where a subsequence is 2^67 steps.  The
 * device skips ahead with curand's precomputed matrices; the host raises
 * the step's matrix over GF(2) to powers of two by squaring, so the two
 * share nothing but the algorithm.
 *
 *    test_curand CASE CURAND_XORWOW.ptx
 */
#include <cuda.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned failures;

#define CHECK(cond)                                                                   \
   do {                                                                               \
      if (!(cond)) {                                                                  \
         fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
         failures++;                                                                  \
      }                                                                               \
   } while (0)

#define OK(expr)                                                                      \
   do {                                                                               \
      CUresult r_ = (expr);                                                           \
      if (r_ != CUDA_SUCCESS) {                                                       \
         fprintf(stderr, "%s:%d: %s gave %d\n", __FILE__, __LINE__, #expr, (int)r_);  \
         failures++;                                                                  \
      }                                                                               \
   } while (0)

/* ---- the host's XORWOW ---- */

struct xorwow {
   uint32_t v[5];
   uint32_t d;
   int have_extra;
   float extra;
};

/* The five-word state as a vector of 160 bits; a matrix as its 160
 * columns. */
typedef struct {
   uint32_t w[5];
} vec160;
typedef struct {
   vec160 col[160];
} mat160;

static vec160
step_vec(vec160 s)
{
   uint32_t t = s.w[0] ^ (s.w[0] >> 2);
   vec160 r = {{s.w[1], s.w[2], s.w[3], s.w[4], 0}};
   r.w[4] = (s.w[4] ^ (s.w[4] << 4)) ^ (t ^ (t << 1));
   return r;
}

static vec160
mat_apply(const mat160 *m, vec160 x)
{
   vec160 r = {{0}};
   for (unsigned j = 0; j < 160; j++) {
      if (!((x.w[j / 32] >> (j % 32)) & 1))
         continue;
      for (unsigned k = 0; k < 5; k++)
         r.w[k] ^= m->col[j].w[k];
   }
   return r;
}

/* powers[b] = M^(2^b), for b < count. */
static mat160 *
step_powers(unsigned count)
{
   mat160 *p = malloc(count * sizeof(*p));
   if (!p)
      exit(1);
   for (unsigned j = 0; j < 160; j++) {
      vec160 e = {{0}};
      e.w[j / 32] = 1u << (j % 32);
      p[0].col[j] = step_vec(e);
   }
   for (unsigned b = 1; b < count; b++)
      for (unsigned j = 0; j < 160; j++)
         p[b].col[j] = mat_apply(&p[b - 1], p[b - 1].col[j]);
   return p;
}

/* Skips n * 2^shift steps of the xorshift part. */
static void
skip(struct xorwow *g, const mat160 *powers, uint64_t n, unsigned shift)
{
   vec160 s;
   memcpy(s.w, g->v, sizeof(s.w));
   for (unsigned b = 0; b < 64; b++)
      if ((n >> b) & 1)
         s = mat_apply(&powers[b + shift], s);
   memcpy(g->v, s.w, sizeof(s.w));
}

static void
xorwow_init(struct xorwow *g, const mat160 *powers, uint64_t seed, uint64_t subsequence, uint64_t offset)
{
   /* curand_init's seeding (constants from curand_kernel.h). */
   uint32_t s0 = (uint32_t)seed ^ 0xaad26b49u;
   uint32_t s1 = (uint32_t)(seed >> 32) ^ 0xf7dcefddu;
   uint32_t t0 = 1099087573u * s0, t1 = 2591861531u * s1;
   g->d = 6615241u + t1 + t0;
   g->v[0] = 123456789u + t0;
   g->v[1] = 362436069u ^ t0;
   g->v[2] = 521288629u + t1;
   g->v[3] = 88675123u ^ t1;
   g->v[4] = 5783321u + t0;
   /* A subsequence is 2^67 steps; d moves by 362437 * 2^67, 0 mod 2^32. */
   skip(g, powers, subsequence, 67);
   skip(g, powers, offset, 0);
   g->d += 362437u * (uint32_t)offset;
   g->have_extra = 0;
}

static uint32_t
xorwow_next(struct xorwow *g)
{
   vec160 s;
   memcpy(s.w, g->v, sizeof(s.w));
   s = step_vec(s);
   memcpy(g->v, s.w, sizeof(s.w));
   g->d += 362437u;
   return g->v[4] + g->d;
}

/* curand's float scale (curand_globals.h): close to, not exactly, 2^-32. */
#define INV_2POW32 2.3283064e-10f
#define INV_2POW32_2PI (2.3283064e-10f * 6.2831855f)

static float
uniform_of(uint32_t x)
{
   /* nvcc contracts x * a + b to one fma. */
   return fmaf((float)x, INV_2POW32, INV_2POW32 / 2.0f);
}

/* Box-Muller, two values a pair, as curand_normal. */
static float
normal_next(struct xorwow *g)
{
   if (g->have_extra) {
      g->have_extra = 0;
      return g->extra;
   }
   uint32_t x = xorwow_next(g), y = xorwow_next(g);
   float u = uniform_of(x);
   float v = fmaf((float)y, INV_2POW32_2PI, INV_2POW32_2PI / 2.0f);
   float s = sqrtf(-2.0f * logf(u));
   g->extra = cosf(v) * s;
   g->have_extra = 1;
   return sinf(v) * s;
}

/* ---- cases ---- */

static CUmodule mod;

static char *
read_file(const char *path)
{
   FILE *f = fopen(path, "rb");
   if (!f) {
      perror(path);
      exit(1);
   }
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *data = malloc((size_t)n + 1);
   if (!data || fread(data, 1, (size_t)n, f) != (size_t)n)
      exit(1);
   data[n] = 0;
   fclose(f);
   return data;
}

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
   if (argc >= 2 && strcmp(argv[1], "--skip") == 0) {
      printf("skipped: %s\n", argc > 2 ? argv[2] : "");
      return 77;
   }
   if (argc != 3) {
      fprintf(stderr, "usage: %s CASE CURAND_XORWOW.ptx\n", argv[0]);
      return 2;
   }
   /* 2^(67 + 63) steps at most: powers up to 2^130. */
   mat160 *powers = step_powers(131);
   CUdevice dev;
   CUcontext ctx;
   OK(cuInit(0));
   OK(cuDeviceGet(&dev, 0));
   OK(cuDevicePrimaryCtxRetain(&ctx, dev));
   OK(cuCtxSetCurrent(ctx));
   char *ptx = read_file(argv[2]);
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
   OK(cuDevicePrimaryCtxRelease(dev));
   free(powers);
   if (failures)
      fprintf(stderr, "%s: %u failures\n", argv[1], failures);
   return failures ? 1 : 0;
}
