/*
 * A SPIR-V module under construction: result ids, and one word stream per
 * section of the module's required layout (SPIR-V spec 2.4, "Logical
 * Layout of a Module"), so an emitter may add a type or a decoration at
 * any time and still produce the sections in order.  Opcodes and enums
 * come from Khronos's own spirv.h (Debian's spirv-headers), never from
 * numbers written here.
 */
#ifndef CUVK_COMPILER_SPIRV_BUILDER_H
#define CUVK_COMPILER_SPIRV_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <spirv/unified1/spirv.h>

#include "compiler/arena.h"

enum cuvk_spirv_section {
   CUVK_SPIRV_CAPABILITIES,
   CUVK_SPIRV_EXTENSIONS,
   CUVK_SPIRV_EXT_IMPORTS,
   CUVK_SPIRV_MEMORY_MODEL,
   CUVK_SPIRV_ENTRY_POINTS,
   CUVK_SPIRV_EXECUTION_MODES,
   CUVK_SPIRV_DEBUG,
   CUVK_SPIRV_ANNOTATIONS,
   CUVK_SPIRV_GLOBALS,          /* types, constants, global variables */
   CUVK_SPIRV_FUNCTIONS,
   CUVK_SPIRV_SECTION_COUNT,
};

struct cuvk_spirv_words {
   uint32_t *words;
   size_t count, cap;
};

struct cuvk_spirv_builder {
   struct cuvk_arena *arena;
   uint32_t version;            /* e.g. 0x00010500 for SPIR-V 1.5 */
   uint32_t next_id;
   bool failed;                 /* out of memory or an instruction too long */
   struct cuvk_spirv_words sections[CUVK_SPIRV_SECTION_COUNT];
};

void cuvk_spirv_builder_init(struct cuvk_spirv_builder *b, struct cuvk_arena *arena,
                             uint32_t version);

static inline uint32_t
cuvk_spirv_id(struct cuvk_spirv_builder *b)
{
   return b->next_id++;
}

/* Appends one instruction: opcode and count operand words. */
void cuvk_spirv_emit(struct cuvk_spirv_builder *b, enum cuvk_spirv_section s, SpvOp op,
                     const uint32_t *operands, unsigned count);

/* Appends one instruction whose operands are head, then the string str as
 * a literal (nul-terminated, padded to words), then tail. */
void cuvk_spirv_emit_str(struct cuvk_spirv_builder *b, enum cuvk_spirv_section s, SpvOp op,
                         const uint32_t *head, unsigned head_count, const char *str,
                         const uint32_t *tail, unsigned tail_count);

/* The same into a stream of the caller's (a function's variables and
 * body are written apart, since SPIR-V wants every OpVariable of a
 * function before its first instruction), appended to a section later. */
void cuvk_spirv_emit_to(struct cuvk_spirv_builder *b, struct cuvk_spirv_words *w, SpvOp op,
                        const uint32_t *operands, unsigned count);
void cuvk_spirv_emit_str_to(struct cuvk_spirv_builder *b, struct cuvk_spirv_words *w, SpvOp op,
                            const uint32_t *head, unsigned head_count, const char *str,
                            const uint32_t *tail, unsigned tail_count);
void cuvk_spirv_append(struct cuvk_spirv_builder *b, enum cuvk_spirv_section s,
                       const struct cuvk_spirv_words *from);

/* Operands as a list: cuvk_spirv_op(b, section, SpvOpTypeInt, id, 32, 0). */
#define cuvk_spirv_op(b, s, op, ...)                                           \
   cuvk_spirv_emit((b), (s), (op), (const uint32_t[]){ __VA_ARGS__ },          \
                   sizeof((const uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t))
#define cuvk_spirv_op0(b, s, op) cuvk_spirv_emit((b), (s), (op), NULL, 0)

/* The finished module: header and sections, malloc'ed.  False when the
 * builder failed. */
bool cuvk_spirv_finish(struct cuvk_spirv_builder *b, uint32_t **words, size_t *count);

#endif
