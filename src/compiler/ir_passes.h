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

#endif
