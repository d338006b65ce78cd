/*
 * The layer's one lookup structure: an intrusive chained hash table from
 * (kind, scope, key) to a node embedded in the layer's own state.
 *
 * Instances and devices are keyed by their loader dispatch key (scope
 * NULL); images, buffers and memory by their handle within their device
 * (scope: the device's state), because non-dispatchable handles are only
 * unique per device.
 *
 * The nodes live in state allocated with the application's allocation
 * callbacks; only the bucket array is the table's own.  It starts in the
 * table itself, so inserting never fails, grows with malloc when chains get
 * long (staying put if that fails) and returns to the inline array when the
 * table empties.  Callers serialise access (layer_lock()).
 */
#ifndef CUVK_LAYER_TABLE_H
#define CUVK_LAYER_TABLE_H

#include <stdint.h>

#define LAYER_TABLE_INLINE_BUCKETS 64

struct layer_node {
   struct layer_node *next;
   uint64_t key;
   const void *scope;
   uint32_t kind;
};

struct layer_table {
   struct layer_node **buckets;  /* NULL: the inline array */
   uint32_t bucket_count;        /* 0: the inline array */
   uint32_t count;
   struct layer_node *inline_buckets[LAYER_TABLE_INLINE_BUCKETS];
};

/* n's kind, scope and key must be set; a node is in at most one table. */
void layer_table_insert(struct layer_table *t, struct layer_node *n);

struct layer_node *layer_table_find(struct layer_table *t, uint32_t kind,
                                    const void *scope, uint64_t key);

/* Unlinks n, which must be in t. */
void layer_table_remove(struct layer_table *t, struct layer_node *n);

#endif
