/*
 * mem/range_map: overlap rejection, interior lookups, walking across gaps
 * with find_next, the *_locked variants, and readers racing a writer that
 * inserts and removes (and poisons and frees) owners the whole time.
 */
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include "mem/range_map.h"
#include "unit_test.h"
#include "util/macros.h"

struct owner {
   struct cuvk_mem_range range;
   uint64_t check; /* a function of the range, to spot torn or freed owners */
};

static uint64_t
owner_check_value(const struct cuvk_mem_range *r)
{
   return (r->start * 31) ^ r->size ^ ((uint64_t)r->kind << 40) ^ UINT64_C(0x6a09e667f3bcc908);
}

static void
owner_init(struct owner *o, uint64_t start, uint64_t size, uint32_t kind)
{
   o->range.start = start;
   o->range.size = size;
   o->range.kind = kind;
   o->check = owner_check_value(&o->range);
}

/* What a lookup callback copies out. */
struct seen {
   uint64_t start;
   uint64_t size;
   uint32_t kind;
   bool accept;
};

static bool
copy_range(struct cuvk_mem_range *r, void *data)
{
   struct seen *s = data;

   s->start = r->start;
   s->size = r->size;
   s->kind = r->kind;
   return s->accept;
}

static void
test_basic(void)
{
   struct cuvk_mem_range_map map;
   struct owner a, b, c, d, bad;
   struct seen s = { .accept = true };

   UNIT_CHECK(cuvk_mem_range_map_init(&map) == CUDA_SUCCESS);

   owner_init(&a, 100, 100, 1);  /* [100, 200) */
   owner_init(&b, 300, 100, 2);  /* [300, 400) */
   UNIT_CHECK(cuvk_mem_range_map_insert(&map, &a.range));
   UNIT_CHECK(cuvk_mem_range_map_insert(&map, &b.range));

   /* Any overlap is refused: inside, across either edge, covering, same
    * start, and a range that would wrap. */
   owner_init(&bad, 150, 100, 9);
   UNIT_CHECK(!cuvk_mem_range_map_insert(&map, &bad.range));
   owner_init(&bad, 50, 51, 9);
   UNIT_CHECK(!cuvk_mem_range_map_insert(&map, &bad.range));
   owner_init(&bad, 399, 100, 9);
   UNIT_CHECK(!cuvk_mem_range_map_insert(&map, &bad.range));
   owner_init(&bad, 0, 1000, 9);
   UNIT_CHECK(!cuvk_mem_range_map_insert(&map, &bad.range));
   owner_init(&bad, 300, 1, 9);
   UNIT_CHECK(!cuvk_mem_range_map_insert(&map, &bad.range));
   owner_init(&bad, 120, 10, 9);
   UNIT_CHECK(!cuvk_mem_range_map_insert(&map, &bad.range));
   owner_init(&bad, UINT64_MAX - 5, 10, 9);
   UNIT_CHECK(!cuvk_mem_range_map_insert(&map, &bad.range));

   /* Touching is not overlapping. */
   owner_init(&c, 200, 100, 3);  /* [200, 300) fills the gap exactly */
   owner_init(&d, 1000, 10, 4);  /* [1000, 1010) after a gap */
   UNIT_CHECK(cuvk_mem_range_map_insert(&map, &c.range));
   UNIT_CHECK(cuvk_mem_range_map_insert(&map, &d.range));

   /* Interior and edge lookups. */
   UNIT_CHECK(cuvk_mem_range_map_find(&map, 100, copy_range, &s) && s.kind == 1);
   UNIT_CHECK(cuvk_mem_range_map_find(&map, 199, copy_range, &s) && s.kind == 1);
   UNIT_CHECK(cuvk_mem_range_map_find(&map, 200, copy_range, &s) && s.kind == 3);
   UNIT_CHECK(cuvk_mem_range_map_find(&map, 357, copy_range, &s) && s.kind == 2 &&
              s.start == 300 && s.size == 100);
   UNIT_CHECK(!cuvk_mem_range_map_find(&map, 99, copy_range, &s));
   UNIT_CHECK(!cuvk_mem_range_map_find(&map, 400, copy_range, &s));
   UNIT_CHECK(!cuvk_mem_range_map_find(&map, 0, copy_range, &s));
   UNIT_CHECK(!cuvk_mem_range_map_find(&map, UINT64_MAX, copy_range, &s));
   UNIT_CHECK(cuvk_mem_range_map_find(&map, 1009, NULL, NULL));
   /* The callback's verdict is the result. */
   s.accept = false;
   UNIT_CHECK(!cuvk_mem_range_map_find(&map, 150, copy_range, &s) && s.kind == 1);
   s.accept = true;

   /* find_next: the first range starting at or after addr. */
   UNIT_CHECK(cuvk_mem_range_map_find_next(&map, 0, copy_range, &s) && s.kind == 1);
   UNIT_CHECK(cuvk_mem_range_map_find_next(&map, 100, copy_range, &s) && s.kind == 1);
   UNIT_CHECK(cuvk_mem_range_map_find_next(&map, 101, copy_range, &s) && s.kind == 3);
   UNIT_CHECK(cuvk_mem_range_map_find_next(&map, 401, copy_range, &s) && s.kind == 4);
   UNIT_CHECK(!cuvk_mem_range_map_find_next(&map, 1001, copy_range, &s));

   /* Walking the span [150, 1005) as a copy across allocations would:
    * find for the first piece, find_next from each piece's end. */
   {
      static const uint32_t want[] = { 1, 3, 2, 4 };
      uint64_t addr = 150, end = 1005;
      unsigned pieces = 0;
      bool ok = cuvk_mem_range_map_find(&map, addr, copy_range, &s);

      while (ok && s.start < end) {
         UNIT_CHECK(pieces < CUVK_ARRAY_SIZE(want) && s.kind == want[pieces]);
         pieces++;
         addr = s.start + s.size;
         ok = cuvk_mem_range_map_find_next(&map, addr, copy_range, &s);
      }
      UNIT_CHECK(pieces == 4);
   }

   /* The locked variants, for a check-then-insert done atomically. */
   cuvk_mem_range_map_write_lock(&map);
   UNIT_CHECK(cuvk_mem_range_map_lookup_locked(&map, 250) == &c.range);
   UNIT_CHECK(cuvk_mem_range_map_lookup_locked(&map, 500) == NULL);
   UNIT_CHECK(cuvk_mem_range_map_lookup_next_locked(&map, 500) == &d.range);
   cuvk_mem_range_map_remove_locked(&map, &c.range);
   UNIT_CHECK(cuvk_mem_range_map_lookup_locked(&map, 250) == NULL);
   owner_init(&bad, 250, 20, 5);
   UNIT_CHECK(cuvk_mem_range_map_insert_locked(&map, &bad.range));
   UNIT_CHECK(cuvk_mem_range_map_lookup_locked(&map, 260) == &bad.range);
   cuvk_mem_range_map_write_unlock(&map);

   cuvk_mem_range_map_read_lock(&map);
   UNIT_CHECK(cuvk_mem_range_map_lookup_locked(&map, 269) == &bad.range);
   UNIT_CHECK(cuvk_mem_range_map_lookup_locked(&map, 270) == NULL);
   cuvk_mem_range_map_read_unlock(&map);

   cuvk_mem_range_map_remove(&map, &a.range);
   cuvk_mem_range_map_remove(&map, &b.range);
   cuvk_mem_range_map_remove(&map, &d.range);
   cuvk_mem_range_map_remove(&map, &bad.range);
   UNIT_CHECK(!cuvk_mem_range_map_find_next(&map, 0, NULL, NULL));
   cuvk_mem_range_map_finish(&map);
}

/* The racing part: each slot of SLOT_SPAN addresses holds at most one
 * owner, so the writer's inserts never overlap and readers know which slot
 * (kind) an address must resolve to. */
#define SLOTS 256
#define SLOT_SPAN UINT64_C(0x1000)
#define READERS 4
#define WRITER_OPS 200000

static struct cuvk_mem_range_map race_map;
static atomic_bool race_done;

struct probe {
   uint64_t addr;
   bool next;
};

/* Runs under the read lock: the owner must be intact and the right one. */
static bool
verify_range(struct cuvk_mem_range *r, void *data)
{
   const struct probe *p = data;
   const struct owner *o = cuvk_container_of(r, struct owner, range);

   UNIT_CHECK(o->check == owner_check_value(r));
   UNIT_CHECK(r->kind == r->start / SLOT_SPAN);
   if (p->next)
      UNIT_CHECK(r->start >= p->addr);
   else
      UNIT_CHECK(p->addr - r->start < r->size);
   return true;
}

struct reader {
   pthread_t thread;
   uint64_t rng;
   unsigned long lookups;
   unsigned long found;
};

static void *
reader_thread(void *arg)
{
   struct reader *rd = arg;

   while (!atomic_load_explicit(&race_done, memory_order_relaxed)) {
      struct probe p = { unit_rand_r(&rd->rng) % (SLOTS * SLOT_SPAN), false };

      rd->found += cuvk_mem_range_map_find(&race_map, p.addr, verify_range, &p);
      p.next = true;
      rd->found += cuvk_mem_range_map_find_next(&race_map, p.addr, verify_range, &p);
      rd->lookups += 2;
   }
   return NULL;
}

static void
test_race(void)
{
   static struct owner *slots[SLOTS];
   struct reader readers[READERS];
   unsigned long lookups = 0;
   double t0;

   UNIT_CHECK(cuvk_mem_range_map_init(&race_map) == CUDA_SUCCESS);
   atomic_store(&race_done, false);
   for (int i = 0; i < READERS; i++) {
      readers[i] = (struct reader){ .rng = unit_rand() };
      UNIT_CHECK(pthread_create(&readers[i].thread, NULL, reader_thread, &readers[i]) == 0);
   }

   t0 = unit_now();
   for (unsigned op = 0; op < WRITER_OPS; op++) {
      unsigned slot = (unsigned)unit_rand_below(SLOTS);
      struct owner *o = slots[slot];

      if (o) {
         cuvk_mem_range_map_remove(&race_map, &o->range);
         /* A reader still looking at it would now see garbage. */
         memset(o, 0xdd, sizeof(*o));
         free(o);
         slots[slot] = NULL;
      } else {
         uint64_t start = slot * SLOT_SPAN + unit_rand_below(SLOT_SPAN / 2);

         o = malloc(sizeof(*o));
         owner_init(o, start, 1 + unit_rand_below(SLOT_SPAN / 2), slot);
         UNIT_CHECK(cuvk_mem_range_map_insert(&race_map, &o->range));
         slots[slot] = o;
      }
   }
   atomic_store(&race_done, true);

   for (int i = 0; i < READERS; i++) {
      pthread_join(readers[i].thread, NULL);
      /* Every reader got to run against a populated map. */
      UNIT_CHECK(readers[i].found > 0);
      lookups += readers[i].lookups;
   }
   printf("race: %d writer ops against %d readers doing %lu lookups in %.0f ms\n",
          WRITER_OPS, READERS, lookups, (unit_now() - t0) * 1e3);

   for (unsigned slot = 0; slot < SLOTS; slot++) {
      if (slots[slot]) {
         cuvk_mem_range_map_remove(&race_map, &slots[slot]->range);
         free(slots[slot]);
         slots[slot] = NULL;
      }
   }
   cuvk_mem_range_map_finish(&race_map);
}

int
main(void)
{
   unit_seed();
   test_basic();
   test_race();
   return unit_report("unit.mem.range_map");
}
