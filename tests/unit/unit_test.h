/*
 * The little the unit tests share: a check that counts failures instead of
 * aborting (so one run reports everything that is wrong), a seeded random
 * generator whose seed is printed (so a failure can be replayed with
 * CUVK_TEST_SEED), and a monotonic clock for the timings they print.
 */
#ifndef CUVK_TESTS_UNIT_TEST_H
#define CUVK_TESTS_UNIT_TEST_H

#include <inttypes.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static atomic_uint unit_failures;

#define UNIT_CHECK(cond)                                                      \
   do {                                                                       \
      if (!(cond)) {                                                          \
         fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
         atomic_fetch_add(&unit_failures, 1);                                 \
      }                                                                       \
   } while (0)

static inline unsigned
unit_failure_count(void)
{
   return atomic_load(&unit_failures);
}

static uint64_t unit_rng_state;

/* Seeds from CUVK_TEST_SEED, or a fixed value so runs are reproducible. */
static inline void
unit_seed(void)
{
   const char *env = getenv("CUVK_TEST_SEED");

   unit_rng_state = env ? strtoull(env, NULL, 0) : 0x5eed2024;
   printf("seed %#" PRIx64 " (set CUVK_TEST_SEED to replay)\n", unit_rng_state);
}

/* splitmix64: tiny, fast and good enough to drive test operations.  Not
 * thread-safe; threads use unit_rand_r with a state of their own. */
static inline uint64_t
unit_rand_r(uint64_t *state)
{
   uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

   z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
   z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
   return z ^ (z >> 31);
}

static inline uint64_t
unit_rand(void)
{
   return unit_rand_r(&unit_rng_state);
}

/* Uniform enough in [0, n) for test purposes; n > 0. */
static inline uint64_t
unit_rand_below(uint64_t n)
{
   return unit_rand() % n;
}

static inline double
unit_now(void)
{
   struct timespec ts;

   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Prints the verdict; its result is main's exit status. */
static inline int
unit_report(const char *name)
{
   unsigned failures = unit_failure_count();

   if (failures) {
      printf("%s: %u check(s) failed\n", name, failures);
      return 1;
   }
   printf("ok\n");
   return 0;
}

#endif
