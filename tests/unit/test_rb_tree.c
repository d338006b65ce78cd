/*
 * rb_tree against a model: random inserts and removes over a small key
 * universe (so duplicates and removals of absent keys are frequent), with
 * the validator after every operation and the model answering search,
 * floor, ceil and in-order walks.  The universe is spread over the whole
 * uint64_t range so keys near 0 and UINT64_MAX are exercised too.
 */
#include <stdbool.h>
#include <string.h>

#include "unit_test.h"
#include "util/macros.h"
#include "util/rb_tree.h"

#define KEYS 1500
#define OPS 40000
#define STRIDE (UINT64_MAX / (KEYS - 1))

struct item {
   struct cuvk_rb_node node;
   unsigned index;
};

static struct item items[KEYS];
static bool present[KEYS];
static unsigned present_count;

static uint64_t
key_of(unsigned index)
{
   return (uint64_t)index * STRIDE;
}

static unsigned
index_of(const struct cuvk_rb_node *node)
{
   return cuvk_container_of(node, struct item, node)->index;
}

/* The model's answer for floor (dir < 0) or ceil (dir > 0), as an index,
 * or -1 for none. */
static int
model_bound(uint64_t key, int dir)
{
   if (dir < 0) {
      for (int i = KEYS - 1; i >= 0; i--)
         if (present[i] && key_of(i) <= key)
            return i;
   } else {
      for (int i = 0; i < KEYS; i++)
         if (present[i] && key_of(i) >= key)
            return i;
   }
   return -1;
}

static void
check_bound(const struct cuvk_rb_tree *tree, uint64_t key)
{
   struct cuvk_rb_node *fl = cuvk_rb_tree_floor(tree, key);
   struct cuvk_rb_node *ce = cuvk_rb_tree_ceil(tree, key);
   int mf = model_bound(key, -1), mc = model_bound(key, 1);

   UNIT_CHECK(fl ? (int)index_of(fl) == mf : mf < 0);
   UNIT_CHECK(ce ? (int)index_of(ce) == mc : mc < 0);
}

static void
check_walks(const struct cuvk_rb_tree *tree)
{
   struct cuvk_rb_node *n = cuvk_rb_tree_first(tree);

   for (unsigned i = 0; i < KEYS; i++) {
      if (!present[i])
         continue;
      UNIT_CHECK(n && index_of(n) == i);
      if (!n)
         return;
      n = cuvk_rb_tree_next(n);
   }
   UNIT_CHECK(n == NULL);

   n = cuvk_rb_tree_last(tree);
   for (int i = KEYS - 1; i >= 0; i--) {
      if (!present[i])
         continue;
      UNIT_CHECK(n && index_of(n) == (unsigned)i);
      if (!n)
         return;
      n = cuvk_rb_tree_prev(n);
   }
   UNIT_CHECK(n == NULL);
}

static void
test_random(void)
{
   struct cuvk_rb_tree tree;
   struct item dup;

   cuvk_rb_tree_init(&tree);
   memset(present, 0, sizeof(present));
   present_count = 0;
   for (unsigned i = 0; i < KEYS; i++)
      items[i].index = i;

   for (unsigned op = 0; op < OPS && !unit_failure_count(); op++) {
      unsigned i = (unsigned)unit_rand_below(KEYS);

      /* Grow, churn, then shrink, so the tree goes through empty, small
       * and nearly full. */
      unsigned insert_pct = op < OPS / 3 ? 70 : op < 2 * OPS / 3 ? 50 : 30;
      bool insert = unit_rand_below(100) < insert_pct;

      if (insert) {
         if (present[i]) {
            dup.index = i;
            UNIT_CHECK(!cuvk_rb_tree_insert(&tree, &dup.node, key_of(i)));
         } else {
            UNIT_CHECK(cuvk_rb_tree_insert(&tree, &items[i].node, key_of(i)));
            present[i] = true;
            present_count++;
         }
      } else if (present[i]) {
         cuvk_rb_tree_remove(&tree, &items[i].node);
         present[i] = false;
         present_count--;
      }

      UNIT_CHECK(cuvk_rb_tree_validate(&tree));
      UNIT_CHECK(cuvk_rb_tree_is_empty(&tree) == (present_count == 0));

      struct cuvk_rb_node *s = cuvk_rb_tree_search(&tree, key_of(i));
      UNIT_CHECK(present[i] ? s == &items[i].node : s == NULL);
      /* Between keys, on a key, and at both ends of the key space. */
      check_bound(&tree, unit_rand());
      check_bound(&tree, key_of((unsigned)unit_rand_below(KEYS)));
      if (op % 64 == 0) {
         check_bound(&tree, 0);
         check_bound(&tree, UINT64_MAX);
         check_walks(&tree);
      }
   }

   /* Removal while walking, as owners tearing down do. */
   for (struct cuvk_rb_node *n = cuvk_rb_tree_first(&tree), *next; n; n = next) {
      next = cuvk_rb_tree_next(n);
      cuvk_rb_tree_remove(&tree, n);
      present[index_of(n)] = false;
      present_count--;
      UNIT_CHECK(cuvk_rb_tree_validate(&tree));
   }
   UNIT_CHECK(present_count == 0);
   UNIT_CHECK(cuvk_rb_tree_is_empty(&tree));
   UNIT_CHECK(cuvk_rb_tree_first(&tree) == NULL && cuvk_rb_tree_last(&tree) == NULL);
}

/* Sorted insertion is the worst case of an unbalanced tree; here it must
 * stay valid and fast. */
static void
test_sequential(void)
{
   enum { N = 200000 };
   struct cuvk_rb_node *nodes = calloc(N, sizeof(*nodes));
   struct cuvk_rb_tree tree;
   double t0 = unit_now();

   cuvk_rb_tree_init(&tree);
   for (unsigned i = 0; i < N; i++)
      UNIT_CHECK(cuvk_rb_tree_insert(&tree, &nodes[i], i * UINT64_C(16)));
   UNIT_CHECK(cuvk_rb_tree_validate(&tree));
   for (unsigned i = 0; i < N; i++) {
      struct cuvk_rb_node *n = cuvk_rb_tree_floor(&tree, i * UINT64_C(16) + 7);
      UNIT_CHECK(n == &nodes[i]);
   }
   for (unsigned i = 0; i < N; i += 2)
      cuvk_rb_tree_remove(&tree, &nodes[i]);
   UNIT_CHECK(cuvk_rb_tree_validate(&tree));
   UNIT_CHECK(cuvk_rb_tree_ceil(&tree, 0) == &nodes[1]);
   UNIT_CHECK(cuvk_rb_tree_last(&tree) == &nodes[N - 1]);
   for (unsigned i = 1; i < N; i += 2)
      cuvk_rb_tree_remove(&tree, &nodes[i]);
   UNIT_CHECK(cuvk_rb_tree_is_empty(&tree));
   printf("sequential: %d inserts, lookups and removes in %.1f ms\n", N,
          (unit_now() - t0) * 1e3);
   free(nodes);
}

int
main(void)
{
   unit_seed();
   test_random();
   test_sequential();
   return unit_report("unit.util.rb_tree");
}
