#include "mem/range_map.h"

#include <assert.h>

#include "util/error.h"
#include "util/macros.h"

static inline struct cuvk_mem_range *
range_from_node(struct cuvk_rb_node *node)
{
   return node ? cuvk_container_of(node, struct cuvk_mem_range, node) : NULL;
}

CUresult
cuvk_mem_range_map_init(struct cuvk_mem_range_map *map)
{
   pthread_rwlockattr_t attr;
   int err;

   cuvk_rb_tree_init(&map->tree);

   /* Lookups run on every launch and copy while frees are rare, so with
    * glibc's default reader preference a steady stream of lookups could
    * hold a free off forever; make waiting writers go first. */
   err = pthread_rwlockattr_init(&attr);
   if (err)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "range map: cannot create lock attributes (%d)", err);
   pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
   err = pthread_rwlock_init(&map->lock, &attr);
   pthread_rwlockattr_destroy(&attr);
   if (err)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "range map: cannot create lock (%d)", err);
   return CUDA_SUCCESS;
}

void
cuvk_mem_range_map_finish(struct cuvk_mem_range_map *map)
{
   assert(cuvk_rb_tree_is_empty(&map->tree));
   pthread_rwlock_destroy(&map->lock);
}

void
cuvk_mem_range_map_read_lock(struct cuvk_mem_range_map *map)
{
   pthread_rwlock_rdlock(&map->lock);
}

void
cuvk_mem_range_map_read_unlock(struct cuvk_mem_range_map *map)
{
   pthread_rwlock_unlock(&map->lock);
}

void
cuvk_mem_range_map_write_lock(struct cuvk_mem_range_map *map)
{
   pthread_rwlock_wrlock(&map->lock);
}

void
cuvk_mem_range_map_write_unlock(struct cuvk_mem_range_map *map)
{
   pthread_rwlock_unlock(&map->lock);
}

struct cuvk_mem_range *
cuvk_mem_range_map_lookup_locked(struct cuvk_mem_range_map *map, uint64_t addr)
{
   /* Ranges never overlap, so only the last one starting at or before addr
    * can contain it. */
   struct cuvk_mem_range *range = range_from_node(cuvk_rb_tree_floor(&map->tree, addr));

   return range && addr - range->start < range->size ? range : NULL;
}

struct cuvk_mem_range *
cuvk_mem_range_map_lookup_next_locked(struct cuvk_mem_range_map *map, uint64_t addr)
{
   return range_from_node(cuvk_rb_tree_ceil(&map->tree, addr));
}

bool
cuvk_mem_range_map_insert_locked(struct cuvk_mem_range_map *map, struct cuvk_mem_range *range)
{
   struct cuvk_mem_range *prev, *next;

   assert(range->size > 0);
   if (range->size == 0 || range->size > UINT64_MAX - range->start)
      return false;

   prev = range_from_node(cuvk_rb_tree_floor(&map->tree, range->start));
   if (prev && range->start - prev->start < prev->size)
      return false;
   next = range_from_node(cuvk_rb_tree_ceil(&map->tree, range->start));
   if (next && next->start - range->start < range->size)
      return false;

   /* Cannot collide: a range at the same start was refused above. */
   return cuvk_rb_tree_insert(&map->tree, &range->node, range->start);
}

void
cuvk_mem_range_map_remove_locked(struct cuvk_mem_range_map *map, struct cuvk_mem_range *range)
{
   assert(cuvk_rb_tree_search(&map->tree, range->start) == &range->node);
   cuvk_rb_tree_remove(&map->tree, &range->node);
}

bool
cuvk_mem_range_map_insert(struct cuvk_mem_range_map *map, struct cuvk_mem_range *range)
{
   bool inserted;

   cuvk_mem_range_map_write_lock(map);
   inserted = cuvk_mem_range_map_insert_locked(map, range);
   cuvk_mem_range_map_write_unlock(map);
   return inserted;
}

void
cuvk_mem_range_map_remove(struct cuvk_mem_range_map *map, struct cuvk_mem_range *range)
{
   cuvk_mem_range_map_write_lock(map);
   cuvk_mem_range_map_remove_locked(map, range);
   cuvk_mem_range_map_write_unlock(map);
}

/* Runs fn on range, if any, under the read lock the caller took. */
static bool
range_map_visit(struct cuvk_mem_range *range, cuvk_mem_range_fn fn, void *data)
{
   if (!range)
      return false;
   return fn ? fn(range, data) : true;
}

bool
cuvk_mem_range_map_find(struct cuvk_mem_range_map *map, uint64_t addr,
                        cuvk_mem_range_fn fn, void *data)
{
   bool found;

   cuvk_mem_range_map_read_lock(map);
   found = range_map_visit(cuvk_mem_range_map_lookup_locked(map, addr), fn, data);
   cuvk_mem_range_map_read_unlock(map);
   return found;
}

bool
cuvk_mem_range_map_find_next(struct cuvk_mem_range_map *map, uint64_t addr,
                             cuvk_mem_range_fn fn, void *data)
{
   bool found;

   cuvk_mem_range_map_read_lock(map);
   found = range_map_visit(cuvk_mem_range_map_lookup_next_locked(map, addr), fn, data);
   cuvk_mem_range_map_read_unlock(map);
   return found;
}
