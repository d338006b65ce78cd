/*
 * vma_heap against a brute-force model: one byte per address of a small
 * heap says whether it is allocated.  Random allocations (with random
 * alignments), fixed-address allocations and frees run against both, with
 * the heap's own validator, its free size and its largest hole compared to
 * the model after every step.  malloc is wrapped (-Wl,--wrap=malloc) so
 * that some steps fail their node allocation, which must leave the heap as
 * it was.  A last part times 100k live allocations in a large heap.
 */
#include <stdbool.h>
#include <string.h>

#include "unit_test.h"
#include "util/vma_heap.h"

void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);

static bool malloc_fail_armed;
static bool malloc_failed;

/* Fails the first malloc after malloc_fail_armed is set. */
void *
__wrap_malloc(size_t size)
{
   if (malloc_fail_armed) {
      malloc_fail_armed = false;
      malloc_failed = true;
      return NULL;
   }
   return __real_malloc(size);
}

#define MODEL_START UINT64_C(0x100000)
#define MODEL_SIZE 8192
#define MODEL_OPS 60000

struct live {
   uint64_t addr;
   uint64_t size;
};

static uint8_t model_used[MODEL_SIZE];
static uint64_t model_free;
static struct live model_live[MODEL_SIZE];
static unsigned model_live_count;

static bool
model_range_free(uint64_t addr, uint64_t size)
{
   if (addr < MODEL_START || addr >= MODEL_START + MODEL_SIZE ||
       size > MODEL_START + MODEL_SIZE - addr)
      return false;
   for (uint64_t i = 0; i < size; i++)
      if (model_used[addr - MODEL_START + i])
         return false;
   return true;
}

static void
model_mark(uint64_t addr, uint64_t size, bool used)
{
   for (uint64_t i = 0; i < size; i++) {
      UNIT_CHECK(model_used[addr - MODEL_START + i] != used);
      model_used[addr - MODEL_START + i] = used;
   }
   model_free = used ? model_free - size : model_free + size;
}

static uint64_t
model_largest_run(void)
{
   uint64_t best = 0, run = 0;

   for (unsigned i = 0; i < MODEL_SIZE; i++) {
      run = model_used[i] ? 0 : run + 1;
      if (run > best)
         best = run;
   }
   return best;
}

static void
model_add_live(uint64_t addr, uint64_t size)
{
   model_mark(addr, size, true);
   model_live[model_live_count++] = (struct live){ addr, size };
}

static uint64_t
random_size(void)
{
   uint64_t r = unit_rand_below(100);

   if (r < 70)
      return 1 + unit_rand_below(64);
   if (r < 95)
      return 1 + unit_rand_below(512);
   return 1 + unit_rand_below(2048);
}

static uint64_t
random_alignment(void)
{
   /* Mostly small alignments, as real requests, with some large ones that
    * make the heap skip misaligned holes. */
   return UINT64_C(1) << (unit_rand_below(4) ? unit_rand_below(5) : unit_rand_below(11));
}

/* Arms a malloc failure for the next step now and then. */
static void
maybe_arm_malloc_failure(void)
{
   malloc_failed = false;
   malloc_fail_armed = unit_rand_below(50) == 0;
}

static void
check_against_model(const struct cuvk_vma_heap *heap)
{
   UNIT_CHECK(cuvk_vma_heap_validate(heap));
   UNIT_CHECK(cuvk_vma_heap_free_size(heap) == model_free);
   UNIT_CHECK(cuvk_vma_heap_largest_free(heap) == model_largest_run());
   UNIT_CHECK(cuvk_vma_heap_is_empty(heap) == (model_free == MODEL_SIZE));
}

static void
test_random_vs_model(void)
{
   struct cuvk_vma_heap heap;
   unsigned allocs = 0, fixed = 0, frees = 0, injected = 0;

   UNIT_CHECK(cuvk_vma_heap_init(&heap, MODEL_START, MODEL_SIZE));
   memset(model_used, 0, sizeof(model_used));
   model_free = MODEL_SIZE;
   model_live_count = 0;

   for (unsigned op = 0; op < MODEL_OPS && !unit_failure_count(); op++) {
      /* Fill, churn, drain: the heap goes from empty to fragmented and full
       * and back. */
      unsigned alloc_pct = op < MODEL_OPS / 3 ? 60 : op < 2 * MODEL_OPS / 3 ? 50 : 35;
      unsigned r = (unsigned)unit_rand_below(100);

      if (r < alloc_pct) {
         uint64_t size = random_size(), alignment = random_alignment();
         uint64_t addr = 0;
         bool ok;

         maybe_arm_malloc_failure();
         ok = cuvk_vma_heap_alloc(&heap, size, alignment, &addr);
         malloc_fail_armed = false;
         if (ok) {
            UNIT_CHECK(addr % alignment == 0);
            UNIT_CHECK(model_range_free(addr, size));
            model_add_live(addr, size);
            allocs++;
         } else if (malloc_failed) {
            injected++;
         } else {
            /* The documented guarantee: failure means no hole could have
             * taken the request at any alignment. */
            UNIT_CHECK(model_largest_run() < size + alignment - 1);
         }
      } else if (r < alloc_pct + 10) {
         uint64_t addr = MODEL_START - 64 + unit_rand_below(MODEL_SIZE + 128);
         uint64_t size = random_size();
         bool expect = model_range_free(addr, size);
         bool ok;

         maybe_arm_malloc_failure();
         ok = cuvk_vma_heap_alloc_addr(&heap, addr, size);
         malloc_fail_armed = false;
         if (malloc_failed) {
            UNIT_CHECK(!ok);
            injected++;
         } else {
            UNIT_CHECK(ok == expect);
         }
         if (ok) {
            model_add_live(addr, size);
            fixed++;
         }
      } else if (model_live_count > 0) {
         unsigned i = (unsigned)unit_rand_below(model_live_count);
         struct live l = model_live[i];

         cuvk_vma_heap_free(&heap, l.addr, l.size);
         model_mark(l.addr, l.size, false);
         model_live[i] = model_live[--model_live_count];
         frees++;
      }

      check_against_model(&heap);
   }
   printf("model: %u allocs, %u fixed-address allocs, %u frees, %u injected malloc failures\n",
          allocs, fixed, frees, injected);

   /* Everything freed must merge back into the one hole it started as. */
   while (model_live_count > 0) {
      struct live l = model_live[--model_live_count];
      cuvk_vma_heap_free(&heap, l.addr, l.size);
      model_mark(l.addr, l.size, false);
   }
   check_against_model(&heap);
   UNIT_CHECK(cuvk_vma_heap_is_empty(&heap));
   UNIT_CHECK(cuvk_vma_heap_largest_free(&heap) == MODEL_SIZE);
   cuvk_vma_heap_finish(&heap);
}

static void
test_fixed_addresses(void)
{
   struct cuvk_vma_heap heap;
   uint64_t addr;

   UNIT_CHECK(cuvk_vma_heap_init(&heap, 0x1000, 0x1000));

   /* Out of bounds on either side, straddling either edge, wrapping. */
   UNIT_CHECK(!cuvk_vma_heap_alloc_addr(&heap, 0x0, 0x10));
   UNIT_CHECK(!cuvk_vma_heap_alloc_addr(&heap, 0xff0, 0x20));
   UNIT_CHECK(!cuvk_vma_heap_alloc_addr(&heap, 0x1ff0, 0x20));
   UNIT_CHECK(!cuvk_vma_heap_alloc_addr(&heap, 0x2000, 0x10));
   UNIT_CHECK(!cuvk_vma_heap_alloc_addr(&heap, UINT64_MAX - 0xf, 0x20));
   UNIT_CHECK(cuvk_vma_heap_is_empty(&heap));

   /* The whole heap, then nothing else fits. */
   UNIT_CHECK(cuvk_vma_heap_alloc_addr(&heap, 0x1000, 0x1000));
   UNIT_CHECK(cuvk_vma_heap_free_size(&heap) == 0);
   UNIT_CHECK(cuvk_vma_heap_largest_free(&heap) == 0);
   UNIT_CHECK(!cuvk_vma_heap_alloc(&heap, 1, 1, &addr));
   cuvk_vma_heap_free(&heap, 0x1000, 0x1000);
   UNIT_CHECK(cuvk_vma_heap_is_empty(&heap));

   /* Middle, then overlaps of it refused, then neighbours accepted. */
   UNIT_CHECK(cuvk_vma_heap_alloc_addr(&heap, 0x1800, 0x100));
   UNIT_CHECK(!cuvk_vma_heap_alloc_addr(&heap, 0x1800, 0x100));
   UNIT_CHECK(!cuvk_vma_heap_alloc_addr(&heap, 0x17ff, 0x2));
   UNIT_CHECK(!cuvk_vma_heap_alloc_addr(&heap, 0x18ff, 0x2));
   UNIT_CHECK(!cuvk_vma_heap_alloc_addr(&heap, 0x1700, 0x300));
   UNIT_CHECK(cuvk_vma_heap_alloc_addr(&heap, 0x1700, 0x100));
   UNIT_CHECK(cuvk_vma_heap_alloc_addr(&heap, 0x1900, 0x100));
   UNIT_CHECK(cuvk_vma_heap_validate(&heap));
   UNIT_CHECK(cuvk_vma_heap_free_size(&heap) == 0x1000 - 0x300);
   UNIT_CHECK(cuvk_vma_heap_largest_free(&heap) == 0x700);

   /* Freeing the middle last must merge both sides back into one hole. */
   cuvk_vma_heap_free(&heap, 0x1700, 0x100);
   cuvk_vma_heap_free(&heap, 0x1900, 0x100);
   UNIT_CHECK(cuvk_vma_heap_largest_free(&heap) == 0x800);
   cuvk_vma_heap_free(&heap, 0x1800, 0x100);
   UNIT_CHECK(cuvk_vma_heap_validate(&heap));
   UNIT_CHECK(cuvk_vma_heap_is_empty(&heap));
   UNIT_CHECK(cuvk_vma_heap_largest_free(&heap) == 0x1000);
   cuvk_vma_heap_finish(&heap);
}

/* Many misaligned holes of exactly the requested size: the heap must give
 * up on them after a few tries and take a hole that fits at any alignment. */
static void
test_misaligned_holes(void)
{
   struct cuvk_vma_heap heap;
   uint64_t addr;

   UNIT_CHECK(cuvk_vma_heap_init(&heap, 0, 0x2000));
   UNIT_CHECK(cuvk_vma_heap_alloc_addr(&heap, 0, 0x1000));
   /* Holes [32k + 1, 32k + 17) for k < 64, each 16 bytes at an odd start. */
   for (uint64_t k = 0; k < 64; k++)
      cuvk_vma_heap_free(&heap, 32 * k + 1, 16);
   UNIT_CHECK(cuvk_vma_heap_validate(&heap));

   UNIT_CHECK(cuvk_vma_heap_alloc(&heap, 16, 16, &addr));
   UNIT_CHECK(addr % 16 == 0 && addr >= 0x1000);
   /* With no alignment the smallest hole is the best fit. */
   UNIT_CHECK(cuvk_vma_heap_alloc(&heap, 16, 1, &addr));
   UNIT_CHECK(addr < 0x1000 && addr % 32 == 1);
   UNIT_CHECK(cuvk_vma_heap_validate(&heap));
   cuvk_vma_heap_finish(&heap);
}

/* A heap ending at the very top of the address space, where careless
 * alignment arithmetic overflows. */
static void
test_top_of_space(void)
{
   struct cuvk_vma_heap heap;
   uint64_t start = UINT64_MAX - 0xffff, addr;

   UNIT_CHECK(cuvk_vma_heap_init(&heap, start, 0xffff));
   UNIT_CHECK(!cuvk_vma_heap_alloc(&heap, 16, UINT64_C(1) << 20, &addr));
   UNIT_CHECK(!cuvk_vma_heap_alloc(&heap, 16, UINT64_C(1) << 63, &addr));
   UNIT_CHECK(cuvk_vma_heap_alloc(&heap, 16, 0x10000, &addr) && addr == start);
   UNIT_CHECK(cuvk_vma_heap_alloc_addr(&heap, UINT64_MAX - 0x10, 0x10));
   UNIT_CHECK(!cuvk_vma_heap_alloc(&heap, 0xffff, 1, &addr));
   UNIT_CHECK(cuvk_vma_heap_alloc(&heap, 0xffff - 0x20, 1, &addr) && addr == start + 16);
   UNIT_CHECK(cuvk_vma_heap_free_size(&heap) == 0);
   cuvk_vma_heap_free(&heap, start, 16);
   cuvk_vma_heap_free(&heap, UINT64_MAX - 0x10, 0x10);
   cuvk_vma_heap_free(&heap, start + 16, 0xffff - 0x20);
   UNIT_CHECK(cuvk_vma_heap_validate(&heap) && cuvk_vma_heap_is_empty(&heap));
   cuvk_vma_heap_finish(&heap);

   UNIT_CHECK(cuvk_vma_heap_init(&heap, 0x1000, 0));
   UNIT_CHECK(cuvk_vma_heap_is_empty(&heap));
   UNIT_CHECK(!cuvk_vma_heap_alloc(&heap, 1, 1, &addr));
   UNIT_CHECK(cuvk_vma_heap_largest_free(&heap) == 0);
   cuvk_vma_heap_finish(&heap);
}

static void
shuffle(struct live *v, unsigned n)
{
   for (unsigned i = n - 1; i > 0; i--) {
      unsigned j = (unsigned)unit_rand_below(i + 1);
      struct live t = v[i];
      v[i] = v[j];
      v[j] = t;
   }
}

static void
test_100k(void)
{
   enum { N = 100000 };
   struct live *v = malloc(2 * N * sizeof(*v));
   struct cuvk_vma_heap heap;
   unsigned n = 0;
   double t0, t1, t2, t3, t4;

   UNIT_CHECK(cuvk_vma_heap_init(&heap, UINT64_C(1) << 32, UINT64_C(1) << 44));

   t0 = unit_now();
   for (unsigned i = 0; i < N; i++, n++) {
      v[n].size = 4096 * (1 + unit_rand_below(256));
      UNIT_CHECK(cuvk_vma_heap_alloc(&heap, v[n].size, 4096 << unit_rand_below(5), &v[n].addr));
   }
   /* Free a random half, so the heap holds ~50k holes, then allocate
    * another 100k into them: 150k live ranges at the end. */
   t1 = unit_now();
   shuffle(v, n);
   for (unsigned i = 0; i < N / 2; i++) {
      struct live l = v[--n];
      cuvk_vma_heap_free(&heap, l.addr, l.size);
   }
   for (unsigned i = 0; i < N; i++, n++) {
      v[n].size = 4096 * (1 + unit_rand_below(256)) - unit_rand_below(4096);
      UNIT_CHECK(cuvk_vma_heap_alloc(&heap, v[n].size, UINT64_C(256) << unit_rand_below(9),
                                     &v[n].addr));
   }
   t2 = unit_now();
   UNIT_CHECK(cuvk_vma_heap_validate(&heap));
   shuffle(v, n);
   t3 = unit_now();
   while (n > 0) {
      struct live l = v[--n];
      cuvk_vma_heap_free(&heap, l.addr, l.size);
   }
   t4 = unit_now();
   UNIT_CHECK(cuvk_vma_heap_validate(&heap) && cuvk_vma_heap_is_empty(&heap));

   printf("100k: %d allocs %.1f ms; %d frees + %d allocs into the holes %.1f ms; "
          "%d frees %.1f ms; %.0f ns per operation\n",
          N, (t1 - t0) * 1e3, N / 2, N, (t2 - t1) * 1e3, 3 * N / 2, (t4 - t3) * 1e3,
          (t2 - t0 + t4 - t3) * 1e9 / (4.0 * N));
   cuvk_vma_heap_finish(&heap);
   free(v);
}

int
main(void)
{
   unit_seed();
   test_fixed_addresses();
   test_misaligned_holes();
   test_top_of_space();
   test_random_vs_model();
   test_100k();
   return unit_report("unit.util.vma_heap");
}
