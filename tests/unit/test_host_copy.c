/*
 * unit.util.host_copy: the copy pool (src/util/host_copy.h) moves exactly
 * the bytes of a box, no more, for random shapes, pitches, offsets and
 * thread counts; several callers at once (one gets the pool, the others
 * copy alone); pools made and destroyed in a loop; and the throughput of
 * one thread against the pool, printed.
 */
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include "unit_test.h"
#include "util/host_copy.h"

static void
fill(uint8_t *p, size_t n, uint64_t seed)
{
   uint64_t s = seed;
   size_t i = 0;
   for (; i + 8 <= n; i += 8) {
      uint64_t v = unit_rand_r(&s);
      memcpy(p + i, &v, 8);
   }
   for (; i < n; i++)
      p[i] = (uint8_t)unit_rand_r(&s);
}

/* A random box inside a source and destination of size bytes each, with
 * the reference result applied to want. */
static bool
random_box(uint64_t *rng, uint8_t *dst, const uint8_t *src, uint8_t *want, size_t size,
           struct cuvk_host_copy *c)
{
   uint64_t shape = unit_rand_r(rng) % 4;
   uint64_t width = 1 + unit_rand_r(rng) % (shape == 0 ? size / 2 : 64 << 10);
   uint64_t rows = shape == 0 ? 1 : 1 + unit_rand_r(rng) % 64;
   uint64_t slices = shape < 2 ? 1 : 1 + unit_rand_r(rng) % 8;
   uint64_t dpitch = width + (shape == 3 ? 0 : unit_rand_r(rng) % 300);
   uint64_t spitch = width + (shape == 3 ? 0 : unit_rand_r(rng) % 300);
   uint64_t dslice = dpitch * rows + unit_rand_r(rng) % 1000;
   uint64_t sslice = spitch * rows + unit_rand_r(rng) % 1000;
   uint64_t dext = (slices - 1) * dslice + (rows - 1) * dpitch + width;
   uint64_t sext = (slices - 1) * sslice + (rows - 1) * spitch + width;
   if (dext > size || sext > size)
      return false;
   uint64_t doff = unit_rand_r(rng) % (size - dext + 1), soff = unit_rand_r(rng) % (size - sext + 1);
   *c = (struct cuvk_host_copy){
      .dst = dst + doff,
      .src = src + soff,
      .width = width,
      .rows = rows,
      .slices = slices,
      .dst_pitch = dpitch,
      .dst_slice = dslice,
      .src_pitch = spitch,
      .src_slice = sslice,
   };
   for (uint64_t z = 0; z < slices; z++)
      for (uint64_t y = 0; y < rows; y++)
         memcpy(want + doff + z * dslice + y * dpitch, src + soff + z * sslice + y * spitch, width);
   return true;
}

static void
test_random_boxes(void)
{
   const size_t size = 24u << 20;
   uint8_t *src = malloc(size), *dst = malloc(size), *want = malloc(size);
   uint64_t rng = unit_rand();
   unsigned parallel = 0, copies = 0;

   fill(src, size, 1);
   fill(dst, size, 2);
   memcpy(want, dst, size);
   for (unsigned threads = 1; threads <= 5; threads++) {
      struct cuvk_copy_pool *pool = cuvk_copy_pool_create(threads);
      UNIT_CHECK(pool != NULL);
      for (unsigned i = 0; i < 60; i++) {
         struct cuvk_host_copy c;
         if (!random_box(&rng, dst, src, want, size, &c))
            continue;
         parallel += cuvk_copy_pool_run(pool, &c);
         copies++;
      }
      UNIT_CHECK(memcmp(dst, want, size) == 0);
      cuvk_copy_pool_destroy(pool);
   }
   printf("random boxes: %u copies, %u on several threads\n", copies, parallel);
   UNIT_CHECK(parallel > 0);
   free(src);
   free(dst);
   free(want);
}

/* Sizes around the thresholds, at odd offsets, through the process-wide
 * pool (cuvk_host_memcpy), with guard bytes on both sides. */
static void
test_sizes(void)
{
   static const size_t sizes[] = { 0, 1, 63, 64, 65, CUVK_HOST_COPY_PARALLEL_MIN - 1,
                                   CUVK_HOST_COPY_PARALLEL_MIN, CUVK_HOST_COPY_PARALLEL_MIN + 1,
                                   (1u << 20) + 7, (8u << 20) + 13, (33u << 20) + 1 };
   const size_t cap = (33u << 20) + 1 + 256;
   uint8_t *src = malloc(cap), *dst = malloc(cap), *want = malloc(cap);

   fill(src, cap, 3);
   for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
      for (size_t off = 0; off < 3; off++) {
         size_t so = off * 17 % 64, dof = 64 + off * 5;
         fill(dst, cap, 4 + i);
         memcpy(want, dst, cap);
         memcpy(want + dof, src + so, sizes[i]);
         cuvk_host_memcpy(dst + dof, src + so, sizes[i]);
         UNIT_CHECK(memcmp(dst, want, cap) == 0);
      }
   }
   free(src);
   free(dst);
   free(want);
}

struct caller {
   pthread_t thread;
   struct cuvk_copy_pool *pool;
   uint8_t *src, *dst;
   size_t size;
   unsigned rounds;
   bool ok;
};

static void *
caller_main(void *data)
{
   struct caller *c = data;
   c->ok = true;
   for (unsigned r = 0; r < c->rounds; r++) {
      memset(c->dst, 0, c->size);
      struct cuvk_host_copy copy = { .dst = c->dst, .src = c->src, .width = c->size, .rows = 1, .slices = 1 };
      cuvk_copy_pool_run(c->pool, &copy);
      c->ok &= memcmp(c->dst, c->src, c->size) == 0;
   }
   return NULL;
}

static void
test_concurrent_callers(void)
{
   struct cuvk_copy_pool *pool = cuvk_copy_pool_create(3);
   struct caller callers[4];

   for (unsigned i = 0; i < 4; i++) {
      callers[i] = (struct caller){ .pool = pool, .size = (2u << 20) + i * 4099, .rounds = 40 };
      callers[i].src = malloc(callers[i].size);
      callers[i].dst = malloc(callers[i].size);
      fill(callers[i].src, callers[i].size, 10 + i);
      pthread_create(&callers[i].thread, NULL, caller_main, &callers[i]);
   }
   for (unsigned i = 0; i < 4; i++) {
      pthread_join(callers[i].thread, NULL);
      UNIT_CHECK(callers[i].ok);
      free(callers[i].src);
      free(callers[i].dst);
   }
   cuvk_copy_pool_destroy(pool);
}

static void
test_create_destroy(void)
{
   uint8_t *src = malloc(1u << 20), *dst = malloc(1u << 20);
   fill(src, 1u << 20, 5);
   for (unsigned i = 0; i < 200; i++) {
      struct cuvk_copy_pool *pool = cuvk_copy_pool_create(1 + i % 4);
      UNIT_CHECK(pool != NULL);
      if (i % 3 == 0) {
         memset(dst, 0, 1u << 20);
         struct cuvk_host_copy c = { .dst = dst, .src = src, .width = 1u << 20, .rows = 1, .slices = 1 };
         cuvk_copy_pool_run(pool, &c);
         UNIT_CHECK(memcmp(dst, src, 1u << 20) == 0);
      }
      cuvk_copy_pool_destroy(pool);
   }
   free(src);
   free(dst);
}

static void
test_throughput(void)
{
   const size_t size = 64u << 20;
   uint8_t *src = malloc(size), *dst = malloc(size);
   fill(src, size, 6);
   memset(dst, 0, size);
   for (unsigned threads = 1; threads <= 4; threads *= 2) {
      struct cuvk_copy_pool *pool = cuvk_copy_pool_create(threads);
      struct cuvk_host_copy c = { .dst = dst, .src = src, .width = size, .rows = 1, .slices = 1 };
      cuvk_copy_pool_run(pool, &c);
      double best = 1e9;
      for (unsigned r = 0; r < 5; r++) {
         double t0 = unit_now();
         cuvk_copy_pool_run(pool, &c);
         double t = unit_now() - t0;
         if (t < best)
            best = t;
      }
      printf("64 MiB, %u thread(s): %.2f GB/s (best of 5)\n", threads, size / best * 1e-9);
      cuvk_copy_pool_destroy(pool);
   }
   UNIT_CHECK(memcmp(dst, src, size) == 0);
   free(src);
   free(dst);
}

int
main(void)
{
   unit_seed();
   test_random_boxes();
   test_sizes();
   test_concurrent_callers();
   test_create_destroy();
   test_throughput();
   return unit_report("unit.util.host_copy");
}
