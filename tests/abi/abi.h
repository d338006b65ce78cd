/*
 * One row of an ABI dump: abi_dump.c, compiled once against each cuda.h,
 * turns every abi_list.h entry into rows, and abi_check.c compares the two
 * sets row by row.
 */
#ifndef CUVK_TESTS_ABI_H
#define CUVK_TESTS_ABI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct abi_row {
   const char *key;   /* "sizeof CUDA_MEMCPY2D", "value CU_CTX_MAP_HOST", ... */
   long long value;   /* numbers; unused when text is set */
   const char *text;  /* expansions and mangled type names; NULL for numbers */
};

/* Each dump is a function filling at most cap rows and returning how many
 * it had; the name comes from -DABI_DUMP_FN=... */
typedef size_t (*abi_dump_fn)(struct abi_row *rows, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
