/*
 * The kernel page table (src/mem/page_table.h): page entries counted per
 * range, shared pages, refusals, the host range list, a random run checked
 * against a plain model, and a table in a real device's memory under the
 * validation layer.
 */
#include <string.h>

#include "mem/page_table.h"
#include "unit_test.h"
#include "vk_harness.h"

#define PAGE CUVK_KERNEL_PAGE_SIZE
#define BASE (UINT64_C(0x7f0000000000) + 12345) /* not page aligned on purpose */
#define SPAN (UINT64_C(64) * PAGE)

static void
test_pages(void)
{
   struct cuvk_mem_page_table *pt;
   UNIT_CHECK(cuvk_mem_page_table_create_host(BASE, SPAN, &pt) == CUDA_SUCCESS);
   /* The table starts on a page and covers the span's last byte. */
   UNIT_CHECK(pt->va_base == (BASE & ~(PAGE - 1)));
   UNIT_CHECK(pt->va_base + pt->va_size >= BASE + SPAN);
   UNIT_CHECK(pt->va_size % PAGE == 0);

   uint64_t a = pt->va_base + 4 * PAGE;
   UNIT_CHECK(cuvk_mem_page_table_entry(pt, a) == 0);
   /* Two sub-allocations of one block share page 4. */
   UNIT_CHECK(cuvk_mem_page_table_map(pt, a, 256, 0x1000) == CUDA_SUCCESS);
   UNIT_CHECK(cuvk_mem_page_table_map(pt, a + 4096, 3 * PAGE, 0x1000) == CUDA_SUCCESS);
   for (unsigned p = 4; p <= 7; p++)
      UNIT_CHECK(cuvk_mem_page_table_entry(pt, pt->va_base + p * PAGE + 77) == 0x1000);
   UNIT_CHECK(cuvk_mem_page_table_entry(pt, a - 1) == 0);
   UNIT_CHECK(cuvk_mem_page_table_entry(pt, a + 4 * PAGE) == 0);
   UNIT_CHECK(pt->mapped_pages == 4);
   /* The first range goes: its page still holds the second. */
   cuvk_mem_page_table_unmap(pt, a, 256);
   UNIT_CHECK(cuvk_mem_page_table_entry(pt, a) == 0x1000);
   cuvk_mem_page_table_unmap(pt, a + 4096, 3 * PAGE);
   for (unsigned p = 4; p <= 7; p++)
      UNIT_CHECK(cuvk_mem_page_table_entry(pt, pt->va_base + p * PAGE) == 0);
   UNIT_CHECK(pt->mapped_pages == 0);

   /* A range mapped again before the old one's release: the newer wins,
    * and the old one's release leaves it. */
   UNIT_CHECK(cuvk_mem_page_table_map(pt, a, PAGE, 0x1000) == CUDA_SUCCESS);
   UNIT_CHECK(cuvk_mem_page_table_map(pt, a, PAGE, 0x2000) == CUDA_SUCCESS);
   cuvk_mem_page_table_unmap(pt, a, PAGE);
   UNIT_CHECK(cuvk_mem_page_table_entry(pt, a) == 0x2000);
   cuvk_mem_page_table_unmap(pt, a, PAGE);
   UNIT_CHECK(cuvk_mem_page_table_entry(pt, a) == 0);

   /* Refusals change nothing. */
   UNIT_CHECK(cuvk_mem_page_table_map(pt, a, PAGE, 0) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_mem_page_table_map(pt, pt->va_base - 1, 2, 5) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_mem_page_table_map(pt, pt->va_base + pt->va_size - 1, 2, 5) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_mem_page_table_map(pt, a, 0, 5) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_mem_page_table_map(pt, UINT64_MAX - 10, 100, 5) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(pt->mapped_pages == 0);
   /* The last byte of the table is mappable. */
   UNIT_CHECK(cuvk_mem_page_table_map(pt, pt->va_base + pt->va_size - 1, 1, 9) == CUDA_SUCCESS);
   UNIT_CHECK(cuvk_mem_page_table_entry(pt, pt->va_base + pt->va_size - PAGE) == 9);
   cuvk_mem_page_table_unmap(pt, pt->va_base + pt->va_size - 1, 1);
   UNIT_CHECK(pt->mapped_pages == 0);
   cuvk_mem_page_table_destroy(pt);

   UNIT_CHECK(cuvk_mem_page_table_create_host(BASE, 0, &pt) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_mem_page_table_create_host(UINT64_MAX - PAGE, 2 * PAGE, &pt) == CUDA_ERROR_INVALID_VALUE);
}

static void
test_host_ranges(void)
{
   struct cuvk_mem_page_table *pt;
   struct cuvk_kernel_host_range out[64];
   UNIT_CHECK(cuvk_mem_page_table_create_host(BASE, SPAN, &pt) == CUDA_SUCCESS);
   UNIT_CHECK(cuvk_mem_page_table_host_ranges(pt, out, 64) == 0);

   UNIT_CHECK(cuvk_mem_page_table_add_host(pt, 0x5000, 0x1000, 1) == CUDA_SUCCESS);
   UNIT_CHECK(cuvk_mem_page_table_add_host(pt, 0x1000, 0x1000, 2) == CUDA_SUCCESS);
   UNIT_CHECK(cuvk_mem_page_table_add_host(pt, 0x3000, 0x2000, 0) == CUDA_SUCCESS); /* delta 0: fine here */
   /* Overlaps on either side, inside, and around are refused. */
   UNIT_CHECK(cuvk_mem_page_table_add_host(pt, 0x5fff, 0x10, 4) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_mem_page_table_add_host(pt, 0x0800, 0x1000, 4) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_mem_page_table_add_host(pt, 0x3100, 0x10, 4) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_mem_page_table_add_host(pt, 0x0000, 0x9000, 4) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_mem_page_table_add_host(pt, 0x9000, 0, 4) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_mem_page_table_add_host(pt, UINT64_MAX, 2, 4) == CUDA_ERROR_INVALID_VALUE);
   /* Touching neighbours are not overlaps. */
   UNIT_CHECK(cuvk_mem_page_table_add_host(pt, 0x2000, 0x1000, 5) == CUDA_SUCCESS);

   uint32_t n = cuvk_mem_page_table_host_ranges(pt, out, 64);
   UNIT_CHECK(n == 4);
   static const uint64_t starts[] = {0x1000, 0x2000, 0x3000, 0x5000};
   static const uint64_t ends[] = {0x2000, 0x3000, 0x5000, 0x6000};
   static const uint64_t deltas[] = {2, 5, 0, 1};
   for (uint32_t i = 0; i < n && i < 4; i++)
      UNIT_CHECK(out[i].start == starts[i] && out[i].end == ends[i] && out[i].delta == deltas[i]);
   /* Too little room: the count says so, the room is filled in order. */
   memset(out, 0, sizeof(out));
   UNIT_CHECK(cuvk_mem_page_table_host_ranges(pt, out, 2) == 4);
   UNIT_CHECK(out[1].start == 0x2000 && out[2].start == 0);

   UNIT_CHECK(!cuvk_mem_page_table_remove_host(pt, 0x2100));
   UNIT_CHECK(cuvk_mem_page_table_remove_host(pt, 0x2000));
   UNIT_CHECK(!cuvk_mem_page_table_remove_host(pt, 0x2000));
   UNIT_CHECK(cuvk_mem_page_table_host_ranges(pt, out, 64) == 3);
   UNIT_CHECK(out[1].start == 0x3000);

   /* Growth past the first capacity keeps the order. */
   for (uint64_t i = 0; i < 100; i++)
      UNIT_CHECK(cuvk_mem_page_table_add_host(pt, 0x100000 + (99 - i) * 0x100, 0x80, i) == CUDA_SUCCESS);
   struct cuvk_kernel_host_range big[128];
   n = cuvk_mem_page_table_host_ranges(pt, big, 128);
   UNIT_CHECK(n == 103);
   for (uint32_t i = 1; i < n && i < 128; i++)
      UNIT_CHECK(big[i - 1].end <= big[i].start);
   cuvk_mem_page_table_destroy(pt);
}

/* Random maps and unmaps of page-aligned "blocks" with sub-ranges inside,
 * against counts kept here. */
static void
test_random(void)
{
   enum { PAGES = 64, SLOTS = 200 };
   struct cuvk_mem_page_table *pt;
   UNIT_CHECK(cuvk_mem_page_table_create_host(0x40000000, PAGES * PAGE, &pt) == CUDA_SUCCESS);
   struct {
      bool live;
      uint64_t start, size, delta;
   } slot[SLOTS] = {0};
   unsigned refs[PAGES] = {0};
   uint64_t delta_of_page[PAGES];
   for (unsigned p = 0; p < PAGES; p++)
      delta_of_page[p] = 0x1000 * (p / 4 + 1); /* four-page "blocks" */

   for (unsigned it = 0; it < 20000; it++) {
      unsigned s = (unsigned)unit_rand_below(SLOTS);
      if (!slot[s].live) {
         unsigned block = (unsigned)unit_rand_below(PAGES / 4);
         uint64_t off = unit_rand_below(4 * PAGE - 1);
         uint64_t size = 1 + unit_rand_below(4 * PAGE - off);
         slot[s].start = pt->va_base + block * 4 * PAGE + off;
         slot[s].size = size;
         slot[s].delta = delta_of_page[block * 4];
         UNIT_CHECK(cuvk_mem_page_table_map(pt, slot[s].start, size, slot[s].delta) == CUDA_SUCCESS);
         slot[s].live = true;
         for (uint64_t p = (slot[s].start - pt->va_base) / PAGE;
              p <= (slot[s].start + size - 1 - pt->va_base) / PAGE; p++)
            refs[p]++;
      } else {
         cuvk_mem_page_table_unmap(pt, slot[s].start, slot[s].size);
         slot[s].live = false;
         for (uint64_t p = (slot[s].start - pt->va_base) / PAGE;
              p <= (slot[s].start + slot[s].size - 1 - pt->va_base) / PAGE; p++)
            refs[p]--;
      }
      if (it % 500 == 0) {
         uint64_t mapped = 0;
         for (unsigned p = 0; p < PAGES; p++) {
            uint64_t want = refs[p] ? delta_of_page[p] : 0;
            UNIT_CHECK(cuvk_mem_page_table_entry(pt, pt->va_base + p * PAGE + PAGE / 2) == want);
            mapped += refs[p] != 0;
         }
         UNIT_CHECK(pt->mapped_pages == mapped);
      }
   }
   cuvk_mem_page_table_destroy(pt);
}

/* A table in device memory: a buffer with a device address, zeroed, and
 * written through the host view. */
static void
test_device(void)
{
   VkPhysicalDeviceVulkan12Features f12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
      .bufferDeviceAddress = VK_TRUE,
   };
   struct vkh_options opt = { .device_pnext = &f12 };
   struct vkh h;
   if (!vkh_init(&h, "unit.mem.page_table", &opt)) {
      UNIT_CHECK(!"vkh_init");
      return;
   }
   struct cuvk_mem_page_table *pt;
   /* A terabyte, as the device address space is by default. */
   UNIT_CHECK(cuvk_mem_page_table_create(h.device, &h.memory_properties, UINT64_C(0x7e0000000000),
                                         UINT64_C(1) << 40, &pt) == CUDA_SUCCESS);
   UNIT_CHECK(pt->page_count == (UINT64_C(1) << 40) / PAGE);
   UNIT_CHECK(pt->address != 0 && pt->memory != VK_NULL_HANDLE);
   UNIT_CHECK(pt->entries[0] == 0 && pt->entries[pt->page_count - 1] == 0);
   UNIT_CHECK(cuvk_mem_page_table_map(pt, pt->va_base + 3 * PAGE, PAGE, 0xabc0) == CUDA_SUCCESS);
   UNIT_CHECK(pt->entries[3] == 0xabc0);
   cuvk_mem_page_table_unmap(pt, pt->va_base + 3 * PAGE, PAGE);
   UNIT_CHECK(pt->entries[3] == 0);
   cuvk_mem_page_table_destroy(pt);
   UNIT_CHECK(vkh_finish(&h) == 0);
}

/* Spans of parameter words (kernel_abi.h): runs of pages with one entry,
 * host ranges less their last access, nothing for anything else. */
static bool
span_is(const struct cuvk_kernel_span *s, uint64_t base, uint64_t size, uint64_t delta)
{
   return s->base == base && s->size == size && s->delta == delta;
}

static void
test_spans(void)
{
   struct cuvk_mem_page_table *pt;
   UNIT_CHECK(cuvk_mem_page_table_create_host(BASE, SPAN, &pt) == CUDA_SUCCESS);
   uint64_t p0 = pt->va_base;
   /* Pages 2-4 one buffer, 5 another right after it, 6-7 a third whose
    * memory follows the first's (the same delta), 9 alone. */
   UNIT_CHECK(cuvk_mem_page_table_map(pt, p0 + 2 * PAGE, 3 * PAGE, 0x10000) == CUDA_SUCCESS);
   UNIT_CHECK(cuvk_mem_page_table_map(pt, p0 + 5 * PAGE, PAGE, 0x20000) == CUDA_SUCCESS);
   UNIT_CHECK(cuvk_mem_page_table_map(pt, p0 + 6 * PAGE, 2 * PAGE, 0x10000) == CUDA_SUCCESS);
   UNIT_CHECK(cuvk_mem_page_table_map(pt, p0 + 9 * PAGE, 100, 0x30000) == CUDA_SUCCESS);
   UNIT_CHECK(cuvk_mem_page_table_add_host(pt, 0x1000, 0x2000, 0x500) == CUDA_SUCCESS);
   UNIT_CHECK(cuvk_mem_page_table_add_host(pt, 0x8000, 16, 0x600) == CUDA_SUCCESS);

   uint64_t words[] = {
      p0 + 3 * PAGE + 40,   /* the middle of the first buffer */
      p0 + 5 * PAGE,        /* the second */
      p0 + 7 * PAGE - 8,    /* the third */
      p0 + 9 * PAGE + 4096, /* page 9, past its range but in its page */
      p0 + 8 * PAGE,        /* unmapped */
      0x1800,               /* a host range */
      0x8004,               /* a host range smaller than an access */
      0x3000,               /* just past a host range */
      42,                   /* no pointer at all */
      p0 - 1,               /* below the table */
   };
   struct cuvk_kernel_span s[10];
   memset(s, 0xab, sizeof(s));
   cuvk_mem_page_table_spans(pt, words, 10, s);
   UNIT_CHECK(span_is(&s[0], p0 + 2 * PAGE, 3 * PAGE, 0x10000));
   UNIT_CHECK(span_is(&s[1], p0 + 5 * PAGE, PAGE, 0x20000));
   UNIT_CHECK(span_is(&s[2], p0 + 6 * PAGE, 2 * PAGE, 0x10000));
   UNIT_CHECK(span_is(&s[3], p0 + 9 * PAGE, PAGE, 0x30000));
   UNIT_CHECK(s[4].size == 0);
   UNIT_CHECK(span_is(&s[5], 0x1000, 0x2000 - (CUVK_KERNEL_SPAN_ACCESS - 1), 0x500));
   UNIT_CHECK(s[6].size == 0 && s[7].size == 0 && s[8].size == 0 && s[9].size == 0);

   /* Once page 5 goes, the two runs around it stay apart; once it comes
    * back with their delta, they are one. */
   cuvk_mem_page_table_unmap(pt, p0 + 5 * PAGE, PAGE);
   cuvk_mem_page_table_spans(pt, words, 1, s);
   UNIT_CHECK(span_is(&s[0], p0 + 2 * PAGE, 3 * PAGE, 0x10000));
   UNIT_CHECK(cuvk_mem_page_table_map(pt, p0 + 5 * PAGE, PAGE, 0x10000) == CUDA_SUCCESS);
   cuvk_mem_page_table_spans(pt, words, 1, s);
   UNIT_CHECK(span_is(&s[0], p0 + 2 * PAGE, 6 * PAGE, 0x10000));

   /* A long run is cut at CUVK_PAGE_TABLE_SPAN_PAGES on each side of the
    * word (the rest takes the page table), so a launch never walks far. */
   struct cuvk_mem_page_table *big;
   uint64_t pages = 3 * CUVK_PAGE_TABLE_SPAN_PAGES;
   UNIT_CHECK(cuvk_mem_page_table_create_host(BASE, pages * PAGE, &big) == CUDA_SUCCESS);
   UNIT_CHECK(cuvk_mem_page_table_map(big, big->va_base, pages * PAGE, 0x40000) == CUDA_SUCCESS);
   uint64_t mid = big->va_base + (pages / 2) * PAGE;
   cuvk_mem_page_table_spans(big, &mid, 1, s);
   UNIT_CHECK(span_is(&s[0], mid - CUVK_PAGE_TABLE_SPAN_PAGES * PAGE,
                      (2 * CUVK_PAGE_TABLE_SPAN_PAGES + 1) * PAGE, 0x40000));
   cuvk_mem_page_table_destroy(big);
   cuvk_mem_page_table_destroy(pt);
}

int
main(void)
{
   unit_seed();
   test_spans();
   test_pages();
   test_host_ranges();
   test_random();
   test_device();
   return unit_report("unit.mem.page_table");
}
