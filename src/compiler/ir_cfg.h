/*
 * Analyses of a function's control-flow graph, one file each:
 * dominance (ir_dominance.c: dominators and post-dominators), natural
 * loops (ir_loops.c) and reducibility (ir_reducible.c).  They are what the
 * structurizer needs: where a selection's branches meet again (the
 * immediate post-dominator), which edges close loops, and whether the
 * graph needs the general construction at all.
 *
 * Results are arrays indexed by block index, allocated in an arena the
 * caller owns (an analysis arena, dropped when the CFG changes), and say
 * CUVK_IR_NONE where a block has no answer (unreachable blocks, the root).
 * Nothing here recurses on the graph: kernels with thousands of blocks
 * cannot exhaust the stack.
 */
#ifndef CUVK_COMPILER_IR_CFG_H
#define CUVK_COMPILER_IR_CFG_H

#include "compiler/ir.h"

#define CUVK_IR_NONE UINT32_MAX

struct cuvk_ir_domtree {
   unsigned block_count;
   bool post;               /* post-dominators: the root is a virtual exit */
   unsigned root;           /* entry block, or block_count for the virtual exit */
   unsigned *idom;          /* per block: the immediate (post-)dominator, or NONE */
   unsigned *order;         /* reverse postorder of the reached blocks */
   unsigned order_count;
   unsigned *order_index;   /* per block: its place in order, or NONE when not reached */
};

/* Dominators from the entry (Cooper, Harvey and Kennedy's iterative
 * algorithm over reverse postorder).  Blocks the entry cannot reach have
 * idom NONE and dominate nothing. */
bool cuvk_ir_dominators(const struct cuvk_ir_function *f, struct cuvk_arena *arena,
                        struct cuvk_ir_domtree *out);

/* Post-dominators: dominators of the reversed graph, rooted at a virtual
 * exit (index block_count) that every ret, exit and trap block flows to.
 * A block from which no exit is reachable (an endless loop) has ipdom
 * NONE; a block whose ipdom is the virtual exit has ipdom block_count. */
bool cuvk_ir_post_dominators(const struct cuvk_ir_function *f, struct cuvk_arena *arena,
                             struct cuvk_ir_domtree *out);

/* True when a (post-)dominates b; every reached block dominates itself. */
bool cuvk_ir_dominates(const struct cuvk_ir_domtree *dom, unsigned a, unsigned b);

struct cuvk_ir_loop {
   unsigned header;
   unsigned *blocks;        /* the body, header first, in block order after it */
   unsigned block_count;
   unsigned *latches;       /* sources of the back edges into header */
   unsigned latch_count;
   unsigned exit_edges;     /* edges from the body to outside it */
   unsigned parent;         /* the innermost enclosing loop, or NONE */
   unsigned depth;          /* 1 for an outermost loop */
};

struct cuvk_ir_loops {
   struct cuvk_ir_loop *loops;   /* outer loops before the loops they contain */
   unsigned count;
   unsigned *innermost;          /* per block: its innermost loop, or NONE */
};

/* Natural loops: one per header, the union of the bodies of its back
 * edges (edges whose target dominates their source).  A cycle entered
 * other than through one header (an irreducible graph) is no natural loop
 * and is not listed: check cuvk_ir_is_reducible first. */
bool cuvk_ir_find_loops(const struct cuvk_ir_function *f, const struct cuvk_ir_domtree *dom,
                        struct cuvk_arena *arena, struct cuvk_ir_loops *out);

/* Whether every cycle of the reachable graph is entered through one block
 * that dominates it: every retreating edge of a depth-first walk is a back
 * edge.  When it is not, *from -> *to is a retreating edge whose target
 * does not dominate its source.  False only when out of memory. */
bool cuvk_ir_is_reducible(const struct cuvk_ir_function *f, const struct cuvk_ir_domtree *dom,
                          struct cuvk_arena *arena, bool *reducible, unsigned *from,
                          unsigned *to);

#endif
