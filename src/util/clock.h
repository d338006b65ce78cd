/*
 * The one clock cuvk measures intervals with: CLOCK_MONOTONIC in
 * nanoseconds (spin limits, timeouts, traces, the pipeline cache's
 * write budget).
 */
#ifndef CUVK_UTIL_CLOCK_H
#define CUVK_UTIL_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t
cuvk_clock_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
