/*
 * Thread-safe map of non-overlapping address ranges to their owners.
 *
 * It resolves any CUdeviceptr, interior pointers included, to the
 * allocation (or mapping) holding it.  Owners embed a struct cuvk_mem_range
 * and recover themselves with cuvk_container_of; kind is the owner's to use
 * (typically which kind of owner embeds the range).
 *
 * Locking: one rwlock per map.  cuvk_mem_range_map_insert/remove take it for
 * writing, cuvk_mem_range_map_find/find_next for reading and run the
 * caller's callback under it, so the callback sees a range that no other
 * thread can remove until it returns: it copies what it needs out (or takes
 * a reference on the owner) and must not keep the range pointer afterwards.
 * A callback must not call into the same map, nor block on anything a
 * writer of the map may hold: the lock prefers writers, so even a nested
 * read lock deadlocks once a writer waits.  The *_locked functions are for
 * callers that hold the lock themselves (write lock for insert/remove,
 * either lock for lookups), e.g. to check and insert atomically.
 *
 * Every operation is O(log n) in the number of ranges.
 */
#ifndef CUVK_MEM_RANGE_MAP_H
#define CUVK_MEM_RANGE_MAP_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <cuda.h>

#include "util/rb_tree.h"

struct cuvk_mem_range {
   struct cuvk_rb_node node; /* keyed by start; owned by the map */
   uint64_t start;
   uint64_t size;
   uint32_t kind;
};

struct cuvk_mem_range_map {
   struct cuvk_rb_tree tree;
   pthread_rwlock_t lock;
};

/* Called with the read lock held.  Its return value becomes the return
 * value of the lookup, so it can also reject a range (say, one of the
 * wrong kind). */
typedef bool (*cuvk_mem_range_fn)(struct cuvk_mem_range *range, void *data);

/* Returns CUDA_ERROR_OUT_OF_MEMORY if the lock cannot be created. */
CUresult cuvk_mem_range_map_init(struct cuvk_mem_range_map *map);

/* The map must hold no ranges any more; the owners own them. */
void cuvk_mem_range_map_finish(struct cuvk_mem_range_map *map);

/* Links range, whose start, size (> 0) and kind the caller has set.  Returns
 * false, changing nothing, if it overlaps a range already in the map or
 * wraps past UINT64_MAX. */
bool cuvk_mem_range_map_insert(struct cuvk_mem_range_map *map, struct cuvk_mem_range *range);

/* Unlinks range, which must be in the map.  Once this returns no lookup
 * callback is using it, so the owner may free it. */
void cuvk_mem_range_map_remove(struct cuvk_mem_range_map *map, struct cuvk_mem_range *range);

/* Runs fn (may be NULL) on the range containing addr.  Returns false if no
 * range contains addr, else fn's result (true when fn is NULL). */
bool cuvk_mem_range_map_find(struct cuvk_mem_range_map *map, uint64_t addr,
                             cuvk_mem_range_fn fn, void *data);

/* Runs fn (may be NULL) on the first range starting at or after addr; a
 * range that merely contains addr does not count.  Returns like
 * cuvk_mem_range_map_find.  To walk a span crossing several ranges, find
 * the first with cuvk_mem_range_map_find and the rest with this from each
 * range's end. */
bool cuvk_mem_range_map_find_next(struct cuvk_mem_range_map *map, uint64_t addr,
                                  cuvk_mem_range_fn fn, void *data);

void cuvk_mem_range_map_read_lock(struct cuvk_mem_range_map *map);
void cuvk_mem_range_map_read_unlock(struct cuvk_mem_range_map *map);
void cuvk_mem_range_map_write_lock(struct cuvk_mem_range_map *map);
void cuvk_mem_range_map_write_unlock(struct cuvk_mem_range_map *map);

/* As the functions above, for a caller holding the write lock. */
bool cuvk_mem_range_map_insert_locked(struct cuvk_mem_range_map *map,
                                      struct cuvk_mem_range *range);
void cuvk_mem_range_map_remove_locked(struct cuvk_mem_range_map *map,
                                      struct cuvk_mem_range *range);

/* The range containing addr, or NULL; the caller holds either lock and uses
 * the result only while it does. */
struct cuvk_mem_range *cuvk_mem_range_map_lookup_locked(struct cuvk_mem_range_map *map,
                                                        uint64_t addr);

/* The first range starting at or after addr, or NULL; locking as above. */
struct cuvk_mem_range *cuvk_mem_range_map_lookup_next_locked(struct cuvk_mem_range_map *map,
                                                             uint64_t addr);

#endif
