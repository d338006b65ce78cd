/*
 * The test stand-in for the emitter's half of spirv_lower.h (see
 * alu_emitter.c): one kernel of straight-line ALU code to a SPIR-V module.
 */
#ifndef CUVK_TESTS_ALU_EMITTER_H
#define CUVK_TESTS_ALU_EMITTER_H

#include "compiler/ir.h"
#include "compiler/spirv_lower.h"

/* Instructions the lowering does not take (it answers 0: ld, st, mov,
 * ...) are left out instead of failing. */
#define ALU_EMIT_SKIP_OTHERS 1u
/* Registers live in a storage buffer (set 0, binding 0) for a runner:
 * invocation i's register r is the 64-bit little-endian slot
 * words[(i * reg_count + r) * 2 ..], read before the first instruction
 * (in its register's width: low bits, predicates nonzero) and written
 * back after the last (zero-extended; predicates 0 or 1). */
#define ALU_EMIT_IO 2u

/* Lowers every instruction of m's first kernel through
 * cuvk_spirv_lower_alu.  Returns the words (free them) or NULL with err
 * set; *lowered counts the instructions lowered. */
uint32_t *alu_emit(const struct cuvk_ir_module *m, const struct cuvk_cc_target *target,
                   unsigned flags, size_t *count, unsigned *lowered,
                   struct cuvk_cc_error *err);

#endif
