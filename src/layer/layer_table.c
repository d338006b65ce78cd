#include "layer/layer_table.h"

#include <stdbool.h>
#include <stdlib.h>

static struct layer_node **
table_buckets(struct layer_table *t, uint32_t *count)
{
   if (t->buckets) {
      *count = t->bucket_count;
      return t->buckets;
   }
   *count = LAYER_TABLE_INLINE_BUCKETS;
   return t->inline_buckets;
}

/* Bucket counts are powers of two; the mix spreads handles that are
 * aligned pointers or small integers alike. */
static uint32_t
table_hash(uint32_t kind, const void *scope, uint64_t key, uint32_t bucket_count)
{
   uint64_t h = key ^ ((uint64_t)(uintptr_t)scope * 0x9e3779b97f4a7c15ull) ^ kind;
   h ^= h >> 33;
   h *= 0xff51afd7ed558ccdull;
   h ^= h >> 33;
   h *= 0xc4ceb9fe1a85ec53ull;
   h ^= h >> 33;
   return (uint32_t)h & (bucket_count - 1);
}

static void
table_rehash(struct layer_table *t, struct layer_node **to, uint32_t to_count)
{
   uint32_t from_count;
   struct layer_node **from = table_buckets(t, &from_count);

   for (uint32_t i = 0; i < from_count; i++) {
      struct layer_node *n = from[i];
      while (n) {
         struct layer_node *next = n->next;
         uint32_t b = table_hash(n->kind, n->scope, n->key, to_count);
         n->next = to[b];
         to[b] = n;
         n = next;
      }
      from[i] = NULL;
   }
}

static void
table_grow(struct layer_table *t)
{
   uint32_t count;
   table_buckets(t, &count);

   uint32_t new_count = count * 4;
   struct layer_node **to = calloc(new_count, sizeof(*to));
   if (!to)
      return;  /* longer chains, still correct */

   table_rehash(t, to, new_count);
   free(t->buckets);
   t->buckets = to;
   t->bucket_count = new_count;
}

void
layer_table_insert(struct layer_table *t, struct layer_node *n)
{
   uint32_t count;
   table_buckets(t, &count);
   if (t->count >= count * 2)
      table_grow(t);

   struct layer_node **buckets = table_buckets(t, &count);
   uint32_t b = table_hash(n->kind, n->scope, n->key, count);
   n->next = buckets[b];
   buckets[b] = n;
   t->count++;
}

struct layer_node *
layer_table_find(struct layer_table *t, uint32_t kind, const void *scope, uint64_t key)
{
   uint32_t count;
   struct layer_node **buckets = table_buckets(t, &count);

   for (struct layer_node *n = buckets[table_hash(kind, scope, key, count)]; n; n = n->next) {
      if (n->key == key && n->scope == scope && n->kind == kind)
         return n;
   }
   return NULL;
}

void
layer_table_remove(struct layer_table *t, struct layer_node *n)
{
   uint32_t count;
   struct layer_node **buckets = table_buckets(t, &count);
   struct layer_node **link = &buckets[table_hash(n->kind, n->scope, n->key, count)];

   while (*link && *link != n)
      link = &(*link)->next;
   if (!*link)
      return;
   *link = n->next;
   n->next = NULL;
   t->count--;

   /* An empty table holds no memory of its own. */
   if (t->count == 0 && t->buckets) {
      free(t->buckets);
      t->buckets = NULL;
      t->bucket_count = 0;
   }
}
