/*
 * The structurizer: makes a function's control-flow graph one that SPIR-V
 * accepts as structured control flow, and says where each construct's
 * merge and continue blocks are.
 *
 * PTX branches freely; SPIR-V for Vulkan requires every conditional branch
 * and every loop to declare where its paths meet (OpSelectionMerge,
 * OpLoopMerge), constructs that nest properly, and blocks in an order where
 * each comes after its dominators.  cuvk_ir_structurize reaches that in two
 * steps (design in docs/compiler.md, "The structurizer"):
 *
 *  1. the fast path, for graphs nvcc writes nearly always: loops from
 *     ir_loops.c, selections merged at their immediate post-dominator,
 *     without changing the graph beyond adding empty blocks where SPIR-V
 *     needs a block of its own (two constructs may not share a merge; a
 *     selection whose paths never meet again gets an unreachable merge);
 *  2. where that fails, the construction of Bahmann et al. (the one MLIR's
 *     CFGToSCF implements): loops get one entry, one latch and one exit,
 *     acyclic regions one exit, through new blocks that branch on a new
 *     selector register the original edges set.  Never one dispatcher loop
 *     around the function: a barrier keeps its place in every thread's
 *     path.
 *
 * Afterwards the function still validates (cuvk_ir_validate), and the
 * emitter walks structure.order, placing the merge instruction a header's
 * kind asks for just before the header's terminator.
 */
#ifndef CUVK_COMPILER_IR_STRUCTURE_H
#define CUVK_COMPILER_IR_STRUCTURE_H

#include "compiler/ir.h"
#include "compiler/ir_cfg.h"

enum cuvk_ir_construct {
   CUVK_IR_CONSTRUCT_NONE,       /* not a header: br, ret, exit, trap,
                                  * unreachable, a cbr that is a break or
                                  * continue of its loop, or a cbr whose two
                                  * targets are one block (emit a branch) */
   CUVK_IR_CONSTRUCT_SELECTION,  /* OpSelectionMerge merge[b] before cbr/switch */
   CUVK_IR_CONSTRUCT_LOOP,       /* OpLoopMerge merge[b] continue_target[b] */
};

struct cuvk_ir_structure {
   unsigned block_count;              /* of the function after structurizing */
   enum cuvk_ir_construct *kind;      /* per block */
   unsigned *merge;                   /* per header: its merge block, else CUVK_IR_NONE */
   unsigned *continue_target;         /* per loop header, else CUVK_IR_NONE */
   unsigned *order;                   /* the blocks to emit, in an order SPIR-V accepts,
                                       * the entry first: every block the entry
                                       * reaches, and the merges and continue
                                       * targets of their headers (a merge no path
                                       * reaches ends in CUVK_IR_TERM_UNREACHABLE);
                                       * blocks the entry does not reach are cut
                                       * off (UNREACHABLE, no successors) and left
                                       * out */
   unsigned order_count;
};

/* Restructures f in place where needed (new blocks, selector registers
 * %cuvk_selN of type b32 set by mov.u32 and tested by setp.eq.u32 into the
 * predicate %cuvk_selp0, and new terminators, all through ir_builder.h) and
 * fills *out, allocated in arena.  False with err set when out of memory or
 * when f cannot be structured (CUVK_CC_UNSUPPORTED naming the block and its
 * PTX line). */
bool cuvk_ir_structurize(struct cuvk_ir_function *f, struct cuvk_arena *arena,
                         struct cuvk_ir_structure *out, struct cuvk_cc_error *err);

/* Checks *s against SPIR-V's structured control-flow rules for f (the
 * rules spirv-val checks, on the IR): every conditional branch in a header
 * or a break/continue of its loop, merges that dominate nothing outside
 * their construct, constructs nested, back edges only from a loop's
 * continue construct to its header, order after dominators.  For tests
 * and debug builds; false with err naming the first rule broken. */
bool cuvk_ir_structure_check(const struct cuvk_ir_function *f, const struct cuvk_ir_structure *s,
                             struct cuvk_arena *arena, struct cuvk_cc_error *err);

#endif
