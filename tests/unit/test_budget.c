/*
 * mem/budget without a device: size parsing for CUVK_DEVICE_HEAP_LIMIT,
 * and per-heap limits, the cap, reserve and unreserve, and threads
 * reserving together never passing the limit.
 */
#include <pthread.h>
#include <string.h>

#include "mem/budget.h"
#include "unit_test.h"

#define MIB (UINT64_C(1) << 20)

static void
test_parse(void)
{
   static const struct {
      const char *text;
      VkDeviceSize want; /* 0: rejected */
   } cases[] = {
      { "512M", 512 * MIB }, { "512MiB", 512 * MIB }, { "512mb", 512 * MIB }, { "2G", 2048 * MIB },
      { "1T", UINT64_C(1) << 40 }, { "4096", 4096 }, { "64k", 64 << 10 }, { "0", 0 }, { "", 0 },
      { "M", 0 }, { "-1", 0 }, { "12X", 0 }, { "12Mx", 0 }, { " 5", 0 },
      { "99999999999999999999", 0 }, { "17179869184T", 0 },
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      VkDeviceSize got = 0;
      bool ok = cuvk_mem_parse_size(cases[i].text, &got);
      if (ok != (cases[i].want != 0) || (ok && got != cases[i].want)) {
         fprintf(stderr, "parse \"%s\": %s %llu, want %llu\n", cases[i].text, ok ? "got" : "rejected",
                 (unsigned long long)got, (unsigned long long)cases[i].want);
         UNIT_CHECK(false);
      }
   }
   UNIT_CHECK(!cuvk_mem_parse_size(NULL, &(VkDeviceSize){0}));
}

/* Two heaps, three types: 0 and 1 in heap 0 (1 GiB), 2 in heap 1. */
static void
props(VkPhysicalDeviceMemoryProperties *mem)
{
   memset(mem, 0, sizeof(*mem));
   mem->memoryHeapCount = 2;
   mem->memoryHeaps[0].size = 1024 * MIB;
   mem->memoryHeaps[1].size = 4096 * MIB;
   mem->memoryTypeCount = 3;
   mem->memoryTypes[0].heapIndex = 0;
   mem->memoryTypes[1].heapIndex = 0;
   mem->memoryTypes[2].heapIndex = 1;
}

static void
test_limits(void)
{
   VkPhysicalDeviceMemoryProperties mem;
   struct cuvk_mem_budget b;
   VkDeviceSize avail, limit;

   props(&mem);
   cuvk_mem_budget_init(&b, VK_NULL_HANDLE, &mem, false, 0, 256 * MIB);
   cuvk_mem_budget_query(&b, 0, &avail, &limit);
   UNIT_CHECK(limit == 256 * MIB && avail == 256 * MIB);
   cuvk_mem_budget_query(&b, 1, &avail, &limit);
   UNIT_CHECK(limit == 4096 * MIB && avail == 4096 * MIB);

   /* Both types of heap 0 draw on the one limit. */
   UNIT_CHECK(cuvk_mem_budget_reserve(&b, 0, 200 * MIB, "test") == CUDA_SUCCESS);
   UNIT_CHECK(cuvk_mem_budget_reserve(&b, 1, 64 * MIB, NULL) == CUDA_ERROR_OUT_OF_MEMORY);
   UNIT_CHECK(cuvk_mem_budget_reserve(&b, 1, 56 * MIB, "test") == CUDA_SUCCESS);
   cuvk_mem_budget_query(&b, 0, &avail, &limit);
   UNIT_CHECK(avail == 0);
   UNIT_CHECK(cuvk_mem_budget_reserve(&b, 2, 4096 * MIB, "test") == CUDA_SUCCESS);
   UNIT_CHECK(cuvk_mem_budget_reserve(&b, 2, 1, NULL) == CUDA_ERROR_OUT_OF_MEMORY);
   cuvk_mem_budget_unreserve(&b, 0, 56 * MIB);
   cuvk_mem_budget_unreserve(&b, 1, 200 * MIB);
   cuvk_mem_budget_unreserve(&b, 2, 4096 * MIB);
   cuvk_mem_budget_query(&b, 0, &avail, &limit);
   UNIT_CHECK(avail == 256 * MIB);
   cuvk_mem_budget_finish(&b);

   /* A cap above the heap's size leaves the size. */
   cuvk_mem_budget_init(&b, VK_NULL_HANDLE, &mem, false, 0, 8192 * MIB);
   cuvk_mem_budget_query(&b, 0, &avail, &limit);
   UNIT_CHECK(limit == 1024 * MIB);
   cuvk_mem_budget_finish(&b);
}

#define THREADS 8
#define ROUNDS 20000

static void *
reserve_thread(void *data)
{
   struct cuvk_mem_budget *b = data;

   for (int i = 0; i < ROUNDS; i++) {
      if (cuvk_mem_budget_reserve(b, 0, 3 * MIB, NULL) == CUDA_SUCCESS) {
         pthread_mutex_lock(&b->lock);
         UNIT_CHECK(b->used[0] <= b->limit[0]);
         pthread_mutex_unlock(&b->lock);
         cuvk_mem_budget_unreserve(b, 0, 3 * MIB);
      }
   }
   return NULL;
}

/* 8 threads, 3 MiB each, 10 MiB limit: never more than the limit held
 * (at most 3 at a time), and the books balance at the end. */
static void
test_threads(void)
{
   VkPhysicalDeviceMemoryProperties mem;
   struct cuvk_mem_budget b;
   pthread_t threads[THREADS];
   VkDeviceSize avail, limit;

   props(&mem);
   cuvk_mem_budget_init(&b, VK_NULL_HANDLE, &mem, false, 0, 10 * MIB);
   for (int i = 0; i < THREADS; i++)
      UNIT_CHECK(pthread_create(&threads[i], NULL, reserve_thread, &b) == 0);
   for (int i = 0; i < THREADS; i++)
      pthread_join(threads[i], NULL);
   cuvk_mem_budget_query(&b, 0, &avail, &limit);
   UNIT_CHECK(avail == 10 * MIB);
   UNIT_CHECK(b.used[0] == 0);
   cuvk_mem_budget_finish(&b);
}

int
main(void)
{
   test_parse();
   test_limits();
   test_threads();
   return unit_report("unit.mem.budget");
}
