/*
 * curand's XORWOW generator on the host, for the tests that check a
 * kernel's curand_kernel.h numbers (tests/curand, and the nvcc program
 * tests/nvcc_programs/simple_vulkan_mmap.cu): C, and C++ as nvcc's host
 * compiler takes it.
 *
 * It follows curand's documentation: xorwow (Marsaglia's xorshift of five
 * words plus a Weyl sequence d that adds 362437 a step), seeded as
 * curand_init does, where a subsequence is 2^67 steps.  The device skips
 * ahead with curand's precomputed matrices; the host raises the step's
 * matrix over GF(2) to powers of two by squaring, so the two share nothing
 * but the algorithm.
 */
#ifndef CUVK_TESTS_XORWOW_HOST_H
#define CUVK_TESTS_XORWOW_HOST_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
   mat160 *p = (mat160 *)malloc(count * sizeof(*p));
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

#endif
