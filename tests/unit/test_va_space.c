/*
 * mem/va_space through its public API only: concurrent first init, host
 * pointers never inside the space, alignment, hints, address 0, errors, and
 * free and reuse down to taking the whole space in one allocation.
 */
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>

#include "mem/va_space.h"
#include "unit_test.h"

#define WANTED (UINT64_C(64) << 30)
#define INIT_THREADS 8

struct range {
   uint64_t addr;
   uint64_t size;
};

static void *
init_thread(void *arg)
{
   uint64_t *bounds = arg;

   UNIT_CHECK(cuvk_mem_va_init(WANTED) == CUDA_SUCCESS);
   cuvk_mem_va_get_bounds(&bounds[0], &bounds[1]);
   return NULL;
}

static void
test_init(void)
{
   pthread_t threads[INIT_THREADS];
   uint64_t bounds[INIT_THREADS][2];
   uint64_t start, size;
   int local = 0;

   cuvk_mem_va_get_bounds(&start, &size);
   UNIT_CHECK(start == 0 && size == 0);
   UNIT_CHECK(!cuvk_mem_va_contains((uint64_t)(uintptr_t)&local));

   /* Racing first calls must reserve once and agree on the result. */
   for (int i = 0; i < INIT_THREADS; i++)
      UNIT_CHECK(pthread_create(&threads[i], NULL, init_thread, bounds[i]) == 0);
   for (int i = 0; i < INIT_THREADS; i++)
      pthread_join(threads[i], NULL);
   cuvk_mem_va_get_bounds(&start, &size);
   for (int i = 0; i < INIT_THREADS; i++)
      UNIT_CHECK(bounds[i][0] == start && bounds[i][1] == size);
   UNIT_CHECK(start != 0);
   UNIT_CHECK(size >= CUVK_MEM_VA_MIN_SIZE && size <= WANTED);
   printf("space [%#" PRIx64 ", +%#" PRIx64 ")\n", start, size);

   /* Later inits change nothing, whatever they ask. */
   UNIT_CHECK(cuvk_mem_va_init(UINT64_C(1) << 30) == CUDA_SUCCESS);
   UNIT_CHECK(cuvk_mem_va_init(0) == CUDA_SUCCESS);
   {
      uint64_t s2, z2;
      cuvk_mem_va_get_bounds(&s2, &z2);
      UNIT_CHECK(s2 == start && z2 == size);
   }
   UNIT_CHECK(cuvk_mem_va_contains(start) && cuvk_mem_va_contains(start + size - 1));
   UNIT_CHECK(!cuvk_mem_va_contains(start - 1) && !cuvk_mem_va_contains(start + size));
   UNIT_CHECK(!cuvk_mem_va_contains(0));
}

static void
check_host_pointer(const void *p, size_t len)
{
   uint64_t a = (uint64_t)(uintptr_t)p;

   UNIT_CHECK(!cuvk_mem_va_contains(a));
   if (len)
      UNIT_CHECK(!cuvk_mem_va_contains(a + len - 1));
}

/* Whatever the host hands out lies outside the space. */
static void
test_host_pointers(void)
{
   enum { MALLOCS = 1000, MAPS = 8 };
   static void *ptrs[MALLOCS];
   void *maps[MAPS];
   size_t map_size = (size_t)1 << 30;
   int local = 0;

   check_host_pointer(&local, sizeof(local));
   check_host_pointer((const void *)(uintptr_t)test_host_pointers, 1);
   check_host_pointer("a string literal", 1);
   check_host_pointer(ptrs, sizeof(ptrs));

   for (int i = 0; i < MALLOCS; i++) {
      /* Up to 4 MiB, so glibc's mmap threshold is crossed too. */
      size_t len = (size_t)1 << unit_rand_below(23);
      ptrs[i] = malloc(len);
      UNIT_CHECK(ptrs[i] != NULL);
      check_host_pointer(ptrs[i], len);
   }
   for (int i = 0; i < MAPS; i++) {
      maps[i] = mmap(NULL, map_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                     -1, 0);
      UNIT_CHECK(maps[i] != MAP_FAILED);
      if (maps[i] != MAP_FAILED)
         check_host_pointer(maps[i], map_size);
   }
   for (int i = 0; i < MAPS; i++)
      if (maps[i] != MAP_FAILED)
         munmap(maps[i], map_size);
   for (int i = 0; i < MALLOCS; i++)
      free(ptrs[i]);
}

static int
compare_ranges(const void *a, const void *b)
{
   const struct range *ra = a, *rb = b;

   return ra->addr < rb->addr ? -1 : ra->addr > rb->addr;
}

static void
test_alloc(void)
{
   enum { N = 2000 };
   static struct range ranges[N];
   uint64_t start, size, addr, total = 0;

   cuvk_mem_va_get_bounds(&start, &size);

   for (int i = 0; i < N; i++) {
      uint64_t alignment = UINT64_C(1) << unit_rand_below(22);

      ranges[i].size = 1 + unit_rand_below(UINT64_C(4) << 20);
      ranges[i].addr = 0;
      UNIT_CHECK(cuvk_mem_va_alloc(ranges[i].size, alignment, 0, &ranges[i].addr) == CUDA_SUCCESS);
      UNIT_CHECK(ranges[i].addr != 0);
      UNIT_CHECK(ranges[i].addr % alignment == 0);
      UNIT_CHECK(cuvk_mem_va_contains(ranges[i].addr));
      UNIT_CHECK(cuvk_mem_va_contains(ranges[i].addr + ranges[i].size - 1));
      total += ranges[i].size;
   }
   qsort(ranges, N, sizeof(ranges[0]), compare_ranges);
   for (int i = 1; i < N; i++)
      UNIT_CHECK(ranges[i - 1].addr + ranges[i - 1].size <= ranges[i].addr);

   /* The host still cannot land in a space that is now partly used. */
   test_host_pointers();

   /* A hint is honoured where that range is free: free one, ask for it back. */
   {
      struct range r = ranges[N / 2];

      cuvk_mem_va_free(r.addr, r.size);
      UNIT_CHECK(cuvk_mem_va_alloc(r.size, 1, r.addr, &addr) == CUDA_SUCCESS);
      UNIT_CHECK(addr == r.addr);
   }
   /* ...and ignored, not failed, where it is taken, misaligned or outside. */
   {
      struct range r = ranges[N / 3];
      uint64_t misaligned = start + size / 2 + 1;
      int local = 0;

      UNIT_CHECK(cuvk_mem_va_alloc(r.size, 1, r.addr, &addr) == CUDA_SUCCESS);
      UNIT_CHECK(addr != r.addr && addr != 0);
      cuvk_mem_va_free(addr, r.size);

      UNIT_CHECK(cuvk_mem_va_alloc(4096, 4096, misaligned, &addr) == CUDA_SUCCESS);
      UNIT_CHECK(addr != misaligned && addr % 4096 == 0);
      cuvk_mem_va_free(addr, 4096);

      UNIT_CHECK(cuvk_mem_va_alloc(64, 1, (uint64_t)(uintptr_t)&local, &addr) == CUDA_SUCCESS);
      UNIT_CHECK(cuvk_mem_va_contains(addr));
      cuvk_mem_va_free(addr, 64);
   }

   /* Errors. */
   UNIT_CHECK(cuvk_mem_va_alloc(0, 1, 0, &addr) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_mem_va_alloc(64, 3, 0, &addr) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_mem_va_alloc(64, 1, 0, NULL) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_mem_va_alloc(size, 1, 0, &addr) == CUDA_ERROR_OUT_OF_MEMORY);

   /* Free everything; then the space is whole again: one allocation takes
    * all of it, at its start (the hint), and a second one fails. */
   for (int i = 0; i < N; i++)
      cuvk_mem_va_free(ranges[i].addr, ranges[i].size);
   UNIT_CHECK(cuvk_mem_va_alloc(size, 1, start, &addr) == CUDA_SUCCESS);
   UNIT_CHECK(addr == start);
   UNIT_CHECK(cuvk_mem_va_alloc(1, 1, 0, &addr) == CUDA_ERROR_OUT_OF_MEMORY);
   cuvk_mem_va_free(start, size);

   /* Reuse: freed space is handed out again. */
   UNIT_CHECK(cuvk_mem_va_alloc(UINT64_C(1) << 20, UINT64_C(1) << 20, 0, &addr) == CUDA_SUCCESS);
   cuvk_mem_va_free(addr, UINT64_C(1) << 20);
   {
      uint64_t again;
      UNIT_CHECK(cuvk_mem_va_alloc(UINT64_C(1) << 20, UINT64_C(1) << 20, 0, &again) == CUDA_SUCCESS);
      UNIT_CHECK(again == addr);
      cuvk_mem_va_free(again, UINT64_C(1) << 20);
   }
   printf("%d allocations of %#" PRIx64 " bytes in all\n", N, total);
}

int
main(void)
{
   unit_seed();
   test_init();
   test_host_pointers();
   test_alloc();
   return unit_report("unit.mem.va_space");
}
