/*
 * Passes over the IR that prepare a function for the emitter, each in a
 * file of its own.
 */
#ifndef CUVK_COMPILER_IR_PASSES_H
#define CUVK_COMPILER_IR_PASSES_H

#include "compiler/ir.h"

/* ir_lower_guards.c: every guarded instruction other than a branch
 * (`@%p add ...`) becomes a cbr on the guard around a new block holding
 * the instruction alone, so that later stages never see a guard.  Runs of
 * instructions with the same guard share one block.  Idempotent (a
 * function without guards is left as it is). */
bool cuvk_ir_lower_guards(struct cuvk_ir_function *f, struct cuvk_cc_error *err);

/* ir_param_ptr.c: for each register of the kernel f (reg_count + 1
 * entries), the 8-byte word of the parameter block whose pointer value
 * the register was most likely computed from (ld.param, then cvta, add,
 * sub, mad), or CUVK_IR_NO_WORD.  param_offset[i] is the byte offset of
 * f->params[i] in the block.  A guess, ignoring control flow: the emitter
 * uses it only to pick which span to test an address against at run
 * time.  NULL when the arena is out of memory. */
#define CUVK_IR_NO_WORD UINT32_MAX
uint32_t *cuvk_ir_param_pointers(const struct cuvk_ir_function *f, const uint32_t *param_offset,
                                 struct cuvk_arena *arena);

/* ir_uniform.c: for each register of the kernel f (reg_count + 1
 * entries), whether it holds the same value in every thread of a launch
 * wherever it is read: a kernel parameter loaded once in the entry block,
 * or a copy of one made there.  Exact, not a guess: the emitter drops
 * non-uniform handling on its strength.  All false for a function that
 * is not a kernel; NULL when the arena is out of memory. */
bool *cuvk_ir_uniform_regs(const struct cuvk_ir_function *f, struct cuvk_arena *arena);

#endif
