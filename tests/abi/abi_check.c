/*
 * Compares the ABI dumps of our cuda.h with those of NVIDIA's, view by view
 * (plain, per-thread default stream, implementation-internal) and language
 * by language (C; C++ adds signatures and tags).  Prints every difference
 * and fails on any; exits 77 (skipped) when NVIDIA's header was not there
 * to compare with, after checking that our own dumps build and run.
 *
 * "abi_check --print" prints our rows instead, to see what is compared.
 *
 * Built once per header: ABI_PREFIX names the dumps (abi_ by default,
 * which gives abi_ours_plain_c, ...) and ABI_HEADER what they dumped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"

#ifndef ABI_HAVE_NVIDIA
#error "build with -DABI_HAVE_NVIDIA=0 or 1"
#endif
#ifndef ABI_HAVE_CXX
#error "build with -DABI_HAVE_CXX=0 or 1"
#endif

#ifndef ABI_PREFIX
#define ABI_PREFIX abi_
#endif
#ifndef ABI_HEADER
#define ABI_HEADER "cuda.h"
#endif
/* ABI_FN(ours, plain, c) is the dump function abi_ours_plain_c. */
#define ABI_FN__(p, w, v, l) p##w##_##v##_##l
#define ABI_FN_(p, w, v, l) ABI_FN__(p, w, v, l)
#define ABI_FN(w, v, l) ABI_FN_(ABI_PREFIX, w, v, l)

#define ABI_CAP 8192

/* X(view, language) for every dump the build made. */
#if ABI_HAVE_CXX
#define ABI_DUMPS(X) X(plain, c) X(ptds, c) X(internal, c) X(plain, cpp) X(ptds, cpp) X(internal, cpp)
#else
#define ABI_DUMPS(X) X(plain, c) X(ptds, c) X(internal, c)
#endif

#define DECLARE_OURS(v, l) size_t ABI_FN(ours, v, l)(struct abi_row *rows, size_t cap);
ABI_DUMPS(DECLARE_OURS)
#if ABI_HAVE_NVIDIA
#define DECLARE_NVIDIA(v, l) size_t ABI_FN(nvidia, v, l)(struct abi_row *rows, size_t cap);
ABI_DUMPS(DECLARE_NVIDIA)
#endif

struct dump {
   const char *label;
   abi_dump_fn ours;
   abi_dump_fn nvidia;
};

static const struct dump dumps[] = {
#if ABI_HAVE_NVIDIA
#define ENTRY(v, l) { #v "/" #l, ABI_FN(ours, v, l), ABI_FN(nvidia, v, l) },
#else
#define ENTRY(v, l) { #v "/" #l, ABI_FN(ours, v, l), NULL },
#endif
   ABI_DUMPS(ENTRY)
#undef ENTRY
};

static size_t
run_dump(const char *label, const char *who, abi_dump_fn fn, struct abi_row *rows)
{
   size_t n = fn(rows, ABI_CAP);
   if (n > ABI_CAP) {
      fprintf(stderr, "%s: %s dump has %zu rows, more than ABI_CAP (%d)\n", label, who, n,
              ABI_CAP);
      exit(1);
   }
   return n;
}

static void
print_row(const char *who, const struct abi_row *row)
{
   if (row->text)
      printf("      %-7s \"%s\"\n", who, row->text);
   else
      printf("      %-7s %lld (0x%llx)\n", who, row->value, (unsigned long long)row->value);
}

static int
rows_equal(const struct abi_row *a, const struct abi_row *b)
{
   if (a->text || b->text)
      return a->text && b->text && strcmp(a->text, b->text) == 0;
   return a->value == b->value;
}

/* Returns the number of differences. */
static unsigned
compare(const struct dump *d, struct abi_row *ours, struct abi_row *nv)
{
   size_t n_ours = run_dump(d->label, "our", d->ours, ours);
   size_t n_nv = run_dump(d->label, "NVIDIA's", d->nvidia, nv);
   unsigned diffs = 0;
   char *matched = calloc(n_nv ? n_nv : 1, 1);

   for (size_t i = 0; i < n_ours; i++) {
      size_t j;
      for (j = 0; j < n_nv; j++) {
         if (!matched[j] && strcmp(ours[i].key, nv[j].key) == 0)
            break;
      }
      if (j == n_nv) {
         printf("  [%s] %s: only in our dump\n", d->label, ours[i].key);
         diffs++;
         continue;
      }
      matched[j] = 1;
      if (!rows_equal(&ours[i], &nv[j])) {
         printf("  [%s] %s differs:\n", d->label, ours[i].key);
         print_row("ours", &ours[i]);
         print_row("NVIDIA", &nv[j]);
         diffs++;
      }
   }
   for (size_t j = 0; j < n_nv; j++) {
      if (!matched[j]) {
         printf("  [%s] %s: only in NVIDIA's dump\n", d->label, nv[j].key);
         diffs++;
      }
   }
   free(matched);

   printf("%-13s %zu rows, %u difference%s\n", d->label, n_ours, diffs, diffs == 1 ? "" : "s");
   return diffs;
}

int
main(int argc, char **argv)
{
   struct abi_row *ours = calloc(ABI_CAP, sizeof(*ours));
   struct abi_row *nv = calloc(ABI_CAP, sizeof(*nv));
   unsigned diffs = 0;

   if (!ours || !nv)
      return 1;

   if (argc > 1 && strcmp(argv[1], "--print") == 0) {
      for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++) {
         size_t n = run_dump(dumps[i].label, "our", dumps[i].ours, ours);
         for (size_t j = 0; j < n; j++) {
            printf("[%s] %s\n", dumps[i].label, ours[j].key);
            print_row("ours", &ours[j]);
         }
      }
      return 0;
   }

   if (!ABI_HAVE_NVIDIA) {
      /* Still run our dumps: they prove the header builds in every view. */
      for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++)
         printf("%-13s %zu rows (ours only)\n", dumps[i].label,
                run_dump(dumps[i].label, "our", dumps[i].ours, ours));
      printf("SKIP: %s\n", argc > 1 ? argv[1] : "NVIDIA's " ABI_HEADER " is not available");
      return 77;
   }
   if (!ABI_HAVE_CXX)
      printf("note: no C++ compiler, so function signatures and tags are not compared\n");

   for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++)
      diffs += compare(&dumps[i], ours, nv);

   free(ours);
   free(nv);
   if (diffs) {
      printf("FAIL: %u difference%s from NVIDIA's " ABI_HEADER "\n", diffs, diffs == 1 ? "" : "s");
      return 1;
   }
   printf("OK: our " ABI_HEADER " matches NVIDIA's for everything its ABI list names\n");
   return 0;
}
