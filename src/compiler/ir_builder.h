/*
 * The only way passes create IR: blocks, registers, variables,
 * instructions and edges, each allocated in the module's arena.  Every
 * call can run out of memory and says so (NULL, false or UINT32_MAX);
 * callers turn that into one "out of memory" error.
 */
#ifndef CUVK_COMPILER_IR_BUILDER_H
#define CUVK_COMPILER_IR_BUILDER_H

#include "compiler/ir.h"

#define CUVK_IR_NO_REG UINT32_MAX

struct cuvk_ir_function *cuvk_ir_function_create(struct cuvk_ir_module *m, const char *name);

/* A block not yet placed in the function's order... */
struct cuvk_ir_block *cuvk_ir_block_new(struct cuvk_ir_function *f, const char *label);
/* ...and placing it last; the index is its place. */
bool cuvk_ir_block_place(struct cuvk_ir_function *f, struct cuvk_ir_block *b);
/* Both at once. */
struct cuvk_ir_block *cuvk_ir_block_create(struct cuvk_ir_function *f, const char *label);

uint32_t cuvk_ir_reg_create(struct cuvk_ir_function *f, const char *name, enum cuvk_ir_type type);

/* A variable of the module (f NULL) or of f. */
struct cuvk_ir_var *cuvk_ir_var_create(struct cuvk_ir_module *m, struct cuvk_ir_function *f,
                                       const char *name, enum ptx_space space);

/* An instruction with room for dst_count and src_count values (zeroed,
 * kind NONE), not yet in a block. */
struct cuvk_ir_instr *cuvk_ir_instr_create(struct cuvk_ir_module *m, enum ptx_opcode op,
                                           unsigned dst_count, unsigned src_count);

static inline void
cuvk_ir_block_append(struct cuvk_ir_block *b, struct cuvk_ir_instr *instr)
{
   cuvk_list_addtail(&instr->link, &b->instrs);
}

/* Terminators; the block must have none yet. */
bool cuvk_ir_set_br(struct cuvk_ir_module *m, struct cuvk_ir_block *b, struct cuvk_ir_block *to);
bool cuvk_ir_set_cbr(struct cuvk_ir_module *m, struct cuvk_ir_block *b, struct cuvk_ir_value cond,
                     struct cuvk_ir_block *if_true, struct cuvk_ir_block *if_false);
bool cuvk_ir_set_switch(struct cuvk_ir_module *m, struct cuvk_ir_block *b,
                        struct cuvk_ir_value index, struct cuvk_ir_block **targets,
                        unsigned count);
void cuvk_ir_set_end(struct cuvk_ir_block *b, enum cuvk_ir_term term);

/* Recomputes every block's predecessors from the successors, in block
 * order (a block reached twice from one block, cbr p, B, B, lists it
 * twice, as the edges are two). */
bool cuvk_ir_compute_preds(struct cuvk_ir_function *f);

static inline struct cuvk_ir_value
cuvk_ir_reg_value(uint32_t reg)
{
   return (struct cuvk_ir_value){ .kind = CUVK_IR_VAL_REG, .reg = reg };
}

#endif
