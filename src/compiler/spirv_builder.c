#include "compiler/spirv_builder.h"

#include <stdlib.h>
#include <string.h>

void
cuvk_spirv_builder_init(struct cuvk_spirv_builder *b, struct cuvk_arena *arena,
                        uint32_t version)
{
   memset(b, 0, sizeof(*b));
   b->arena = arena;
   b->version = version;
   b->next_id = 1;   /* 0 is no id */
}

static void
put(struct cuvk_spirv_builder *b, struct cuvk_spirv_words *w, uint32_t word)
{
   if (b->failed)
      return;
   if (!cuvk_arena_push(b->arena, w->words, w->count, w->cap)) {
      b->failed = true;
      return;
   }
   w->words[w->count++] = word;
}

void
cuvk_spirv_emit_str(struct cuvk_spirv_builder *b, enum cuvk_spirv_section s, SpvOp op,
                    const uint32_t *head, unsigned head_count, const char *str,
                    const uint32_t *tail, unsigned tail_count)
{
   cuvk_spirv_emit_str_to(b, &b->sections[s], op, head, head_count, str, tail, tail_count);
}

void
cuvk_spirv_emit_str_to(struct cuvk_spirv_builder *b, struct cuvk_spirv_words *w, SpvOp op,
                       const uint32_t *head, unsigned head_count, const char *str,
                       const uint32_t *tail, unsigned tail_count)
{
   size_t len = str ? strlen(str) : 0;
   size_t str_words = str ? len / 4 + 1 : 0;   /* the nul always fits */
   size_t total = 1 + head_count + str_words + tail_count;

   /* The word count is the high 16 bits of the first word. */
   if (total > 0xffff) {
      b->failed = true;
      return;
   }
   put(b, w, (uint32_t)total << SpvWordCountShift | ((uint32_t)op & SpvOpCodeMask));
   for (unsigned i = 0; i < head_count; i++)
      put(b, w, head[i]);
   for (size_t i = 0; i < str_words; i++) {
      uint32_t word = 0;
      for (size_t k = 0; k < 4; k++) {
         size_t at = i * 4 + k;
         if (at < len)
            word |= (uint32_t)(uint8_t)str[at] << (8 * k);
      }
      put(b, w, word);
   }
   for (unsigned i = 0; i < tail_count; i++)
      put(b, w, tail[i]);
}

void
cuvk_spirv_emit(struct cuvk_spirv_builder *b, enum cuvk_spirv_section s, SpvOp op,
                const uint32_t *operands, unsigned count)
{
   cuvk_spirv_emit_str(b, s, op, operands, count, NULL, NULL, 0);
}

void
cuvk_spirv_emit_to(struct cuvk_spirv_builder *b, struct cuvk_spirv_words *w, SpvOp op,
                   const uint32_t *operands, unsigned count)
{
   cuvk_spirv_emit_str_to(b, w, op, operands, count, NULL, NULL, 0);
}

void
cuvk_spirv_append(struct cuvk_spirv_builder *b, enum cuvk_spirv_section s,
                  const struct cuvk_spirv_words *from)
{
   for (size_t i = 0; i < from->count; i++)
      put(b, &b->sections[s], from->words[i]);
}

bool
cuvk_spirv_finish(struct cuvk_spirv_builder *b, uint32_t **words, size_t *count)
{
   size_t total = 5;

   *words = NULL;
   *count = 0;
   if (b->failed)
      return false;
   for (unsigned s = 0; s < CUVK_SPIRV_SECTION_COUNT; s++)
      total += b->sections[s].count;
   uint32_t *out = malloc(total * sizeof(*out));
   if (!out)
      return false;
   out[0] = SpvMagicNumber;
   out[1] = b->version;
   out[2] = 0;              /* generator: none registered with Khronos */
   out[3] = b->next_id;     /* bound: every id is below it */
   out[4] = 0;              /* schema */
   size_t at = 5;
   for (unsigned s = 0; s < CUVK_SPIRV_SECTION_COUNT; s++) {
      if (b->sections[s].count)
         memcpy(out + at, b->sections[s].words, b->sections[s].count * sizeof(*out));
      at += b->sections[s].count;
   }
   *words = out;
   *count = total;
   return true;
}
