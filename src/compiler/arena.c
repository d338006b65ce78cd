#include "compiler/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_CHUNK_SIZE (64 * 1024)
#define ARENA_ALIGN 16

struct cuvk_arena_chunk {
   struct cuvk_arena_chunk *next;
   size_t size;
   _Alignas(ARENA_ALIGN) unsigned char data[];
};

void
cuvk_arena_init(struct cuvk_arena *arena)
{
   arena->chunks = NULL;
   arena->used = 0;
   arena->total = 0;
}

void
cuvk_arena_finish(struct cuvk_arena *arena)
{
   struct cuvk_arena_chunk *c = arena->chunks;

   while (c) {
      struct cuvk_arena_chunk *next = c->next;
      free(c);
      c = next;
   }
   cuvk_arena_init(arena);
}

void *
cuvk_arena_alloc(struct cuvk_arena *arena, size_t size)
{
   size_t aligned = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);

   if (aligned < size)
      return NULL;
   if (!arena->chunks || arena->chunks->size - arena->used < aligned) {
      /* A request bigger than a chunk gets a chunk of its own, linked
       * behind the current one so the current one keeps filling. */
      size_t chunk = aligned > ARENA_CHUNK_SIZE / 4 ? aligned : ARENA_CHUNK_SIZE;
      if (chunk > SIZE_MAX - sizeof(struct cuvk_arena_chunk))
         return NULL;
      struct cuvk_arena_chunk *c = malloc(sizeof(*c) + chunk);
      if (!c)
         return NULL;
      c->size = chunk;
      arena->total += chunk;
      if (chunk != ARENA_CHUNK_SIZE && arena->chunks) {
         c->next = arena->chunks->next;
         arena->chunks->next = c;
         memset(c->data, 0, aligned);
         return c->data;
      }
      c->next = arena->chunks;
      arena->chunks = c;
      arena->used = 0;
   }
   void *p = arena->chunks->data + arena->used;
   arena->used += aligned;
   memset(p, 0, aligned);
   return p;
}

void *
cuvk_arena_array(struct cuvk_arena *arena, size_t count, size_t size)
{
   if (size && count > SIZE_MAX / size)
      return NULL;
   return cuvk_arena_alloc(arena, count * size);
}

char *
cuvk_arena_strndup(struct cuvk_arena *arena, const char *s, size_t len)
{
   char *d = cuvk_arena_alloc(arena, len + 1);

   if (d)
      memcpy(d, s, len);
   return d;
}

bool
cuvk_arena_grow(struct cuvk_arena *arena, void **array, size_t count,
                size_t *cap, size_t size)
{
   size_t new_cap = *cap ? *cap * 2 : 8;

   if (new_cap <= count)
      return false;
   void *n = cuvk_arena_array(arena, new_cap, size);
   if (!n)
      return false;
   if (count)
      memcpy(n, *array, count * size);
   *array = n;
   *cap = new_cap;
   return true;
}
