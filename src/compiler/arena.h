/*
 * A bump allocator: everything one parse or one IR function allocates lives
 * in an arena and goes with it in one call.  The compiler's data structures
 * are built once and dropped whole, so per-object frees would buy nothing,
 * and a parse that fails half way leaks nothing by construction, which is
 * what lets the robustness tests throw mutated input at it.
 *
 * Every allocation can fail (NULL); callers turn that into an "out of
 * memory" error, never a crash.
 */
#ifndef CUVK_COMPILER_ARENA_H
#define CUVK_COMPILER_ARENA_H

#include <stdbool.h>
#include <stddef.h>

struct cuvk_arena_chunk;

struct cuvk_arena {
   struct cuvk_arena_chunk *chunks;
   size_t used;         /* bytes taken in chunks, the newest */
   size_t total;        /* bytes of all chunks, for tests and statistics */
};

void cuvk_arena_init(struct cuvk_arena *arena);
void cuvk_arena_finish(struct cuvk_arena *arena);

/* Zeroed, aligned to 16 bytes. */
void *cuvk_arena_alloc(struct cuvk_arena *arena, size_t size);
void *cuvk_arena_array(struct cuvk_arena *arena, size_t count, size_t size);
char *cuvk_arena_strndup(struct cuvk_arena *arena, const char *s, size_t len);

/*
 * Grows *array (count elements of size bytes, capacity *cap) to hold at
 * least one more element, moving it to a bigger arena block when full.  The
 * old block is abandoned to the arena: doubling keeps the waste under the
 * final size.
 */
bool cuvk_arena_grow(struct cuvk_arena *arena, void **array, size_t count,
                     size_t *cap, size_t size);

/* Appends one element to a (items, count, cap) triple; false when out of
 * memory. */
#define cuvk_arena_push(arena, items, count, cap)                              \
   ((count) < (cap) ||                                                         \
    cuvk_arena_grow((arena), (void **)&(items), (count), &(cap), sizeof(*(items))))

#endif
