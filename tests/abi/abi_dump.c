/*
 * Dumps what abi_list.h names as seen through whichever cuda.h the include
 * path finds first (ours or NVIDIA's; the build decides), in the view the
 * build's -D flags select (plain, per-thread default stream, or internal).
 * Compiled as C++ too (abi_dump.cpp), which adds function and type
 * signatures through their mangled names.
 *
 * With -DABI_DUMP_RUNTIME the same is done for cuda_runtime_api.h (and the
 * driver_types.h it includes) with abi_list_runtime.h.
 */
#ifdef ABI_DUMP_RUNTIME
#include <cuda_runtime_api.h>
#else
#include <cuda.h>
#endif

#include <stdint.h>

#include "abi.h"

#ifndef ABI_DUMP_FN
#error "build with -DABI_DUMP_FN=<name>"
#endif

#ifdef __cplusplus
#include <typeinfo>
#define ABI_ALIGNOF(T) alignof(T)
extern "C" size_t ABI_DUMP_FN(struct abi_row *rows, size_t cap);
#else
#define ABI_ALIGNOF(T) _Alignof(T)
size_t ABI_DUMP_FN(struct abi_row *rows, size_t cap);
#endif

/* Expands x fully before turning it into a string. */
#define ABI_STR_(...) #__VA_ARGS__
#define ABI_XSTR(...) ABI_STR_(__VA_ARGS__)

#define ABI_ROW(k, v, t)                                 \
   do {                                                  \
      if (n < cap) {                                     \
         rows[n].key = (k);                              \
         rows[n].value = (long long)(v);                 \
         rows[n].text = (t);                             \
      }                                                  \
      n++;                                               \
   } while (0)

#define ABI_MEMBER_SIZE(T, m) sizeof(((T *)0)->m)

size_t
ABI_DUMP_FN(struct abi_row *rows, size_t cap)
{
   size_t n = 0;

#ifdef __cplusplus
#define ABI_TYPE(T)                                      \
   ABI_ROW("sizeof " #T, sizeof(T), NULL);               \
   ABI_ROW("alignof " #T, ABI_ALIGNOF(T), NULL);         \
   ABI_ROW("typeid " #T, 0, typeid(T).name());
#define ABI_FUNC(f)                                      \
   ABI_ROW("symbol " #f, 0, ABI_XSTR(f));                \
   ABI_ROW("signature " #f, 0, typeid(f).name());
#define ABI_SYMBOL(f)                                    \
   ABI_ROW("signature " #f, 0, typeid(f).name());
#else
#define ABI_TYPE(T)                                      \
   ABI_ROW("sizeof " #T, sizeof(T), NULL);               \
   ABI_ROW("alignof " #T, ABI_ALIGNOF(T), NULL);
#define ABI_FUNC(f)                                      \
   ABI_ROW("symbol " #f, 0, ABI_XSTR(f));
/* A C build can at least insist that the symbol is declared. */
#define ABI_SYMBOL(f)                                    \
   (void)&(f);                                           \
   ABI_ROW("declared " #f, 1, NULL);
#endif
#define ABI_FIELD(T, m)                                  \
   ABI_ROW("offsetof " #T "." #m, offsetof(T, m), NULL); \
   ABI_ROW("sizeof " #T "." #m, ABI_MEMBER_SIZE(T, m), NULL);
#define ABI_CONST(N)  ABI_ROW("value " #N, (N), NULL);
#define ABI_PTR(N)    ABI_ROW("value " #N, (uintptr_t)(N), NULL);
#define ABI_TEXT(N)   ABI_ROW("expansion " #N, 0, ABI_XSTR(N));

#ifdef ABI_DUMP_RUNTIME
#include "abi_list_runtime.h"
#else
#include "abi_list.h"
#endif

   return n;
}
