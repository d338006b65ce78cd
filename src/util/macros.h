#ifndef CUVK_UTIL_MACROS_H
#define CUVK_UTIL_MACROS_H

#include <stddef.h>

/* Marks a public CUDA entry point; everything else stays hidden. */
#define CUVK_EXPORT __attribute__((visibility("default")))

#define CUVK_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define CUVK_MIN(a, b) ((a) < (b) ? (a) : (b))
#define CUVK_MAX(a, b) ((a) > (b) ? (a) : (b))
#define CUVK_ALIGN_UP(v, a) (((v) + (a) - 1) / (a) * (a))
#define CUVK_IS_POW2(v) ((v) != 0 && ((v) & ((v) - 1)) == 0)

#define cuvk_container_of(ptr, type, member) \
   ((type *)((char *)(ptr) - offsetof(type, member)))

#define cuvk_likely(x) __builtin_expect(!!(x), 1)
#define cuvk_unlikely(x) __builtin_expect(!!(x), 0)

#endif
