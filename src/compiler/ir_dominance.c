/*
 * Dominators and post-dominators with the iterative algorithm of Cooper,
 * Harvey and Kennedy ("A Simple, Fast Dominance Algorithm", 2001): walk
 * the blocks in reverse postorder, set each block's immediate dominator to
 * the nearest common dominator of its processed predecessors, repeat until
 * nothing changes.  On the graphs compilers produce it converges in two or
 * three passes and beats Lengauer-Tarjan in practice, with a tenth of the
 * code.
 *
 * Both directions run the same code over an index graph: the CFG itself,
 * or the CFG reversed with a virtual exit node appended that the blocks
 * without successors lead to.
 */
#include <string.h>

#include "compiler/ir_cfg.h"

struct graph {
   unsigned n;                 /* nodes */
   unsigned root;
   const struct cuvk_ir_function *f;
   bool reversed;
   unsigned *exits;            /* reversed: the blocks with no successors */
   unsigned exit_count;
};

/* The k-th successor of node in the graph's direction, and their count. */
static unsigned
succ_count(const struct graph *g, unsigned node)
{
   if (!g->reversed)
      return g->f->blocks[node]->succ_count;
   if (node == g->root)
      return g->exit_count;
   return g->f->blocks[node]->pred_count;
}

static unsigned
succ_at(const struct graph *g, unsigned node, unsigned k)
{
   if (!g->reversed)
      return g->f->blocks[node]->succs[k]->index;
   if (node == g->root)
      return g->exits[k];
   return g->f->blocks[node]->preds[k]->index;
}

static unsigned
pred_count(const struct graph *g, unsigned node)
{
   if (!g->reversed)
      return g->f->blocks[node]->pred_count;
   /* Reversed: the predecessors are the CFG successors, plus the virtual
    * exit for blocks that end the function. */
   const struct cuvk_ir_block *b = g->f->blocks[node];
   return b->succ_count + (b->succ_count == 0);
}

static unsigned
pred_at(const struct graph *g, unsigned node, unsigned k)
{
   if (!g->reversed)
      return g->f->blocks[node]->preds[k]->index;
   const struct cuvk_ir_block *b = g->f->blocks[node];
   return b->succ_count == 0 ? g->root : b->succs[k]->index;
}

/* Reverse postorder of the nodes reached from the root, by an explicit
 * stack of (node, next successor to visit). */
static bool
reverse_postorder(const struct graph *g, struct cuvk_arena *arena, struct cuvk_ir_domtree *out)
{
   unsigned *stack_node = cuvk_arena_array(arena, g->n, sizeof(unsigned));
   unsigned *stack_next = cuvk_arena_array(arena, g->n, sizeof(unsigned));
   bool *seen = cuvk_arena_array(arena, g->n, sizeof(bool));
   unsigned *post = cuvk_arena_array(arena, g->n, sizeof(unsigned));
   unsigned depth = 0, done = 0;

   out->order_index = cuvk_arena_array(arena, g->n, sizeof(unsigned));
   if (!stack_node || !stack_next || !seen || !post || !out->order_index)
      return false;
   stack_node[depth] = g->root;
   stack_next[depth++] = 0;
   seen[g->root] = true;
   while (depth) {
      unsigned node = stack_node[depth - 1];
      if (stack_next[depth - 1] < succ_count(g, node)) {
         unsigned s = succ_at(g, node, stack_next[depth - 1]++);
         if (!seen[s]) {
            seen[s] = true;
            stack_node[depth] = s;
            stack_next[depth++] = 0;
         }
      } else {
         post[done++] = node;
         depth--;
      }
   }
   out->order = cuvk_arena_array(arena, done ? done : 1, sizeof(unsigned));
   if (!out->order)
      return false;
   for (unsigned i = 0; i < g->n; i++)
      out->order_index[i] = CUVK_IR_NONE;
   for (unsigned i = 0; i < done; i++) {
      out->order[i] = post[done - 1 - i];
      out->order_index[out->order[i]] = i;
   }
   out->order_count = done;
   return true;
}

static unsigned
intersect(const struct cuvk_ir_domtree *d, unsigned a, unsigned b)
{
   while (a != b) {
      while (d->order_index[a] > d->order_index[b])
         a = d->idom[a];
      while (d->order_index[b] > d->order_index[a])
         b = d->idom[b];
   }
   return a;
}

static bool
compute(const struct graph *g, struct cuvk_arena *arena, struct cuvk_ir_domtree *out)
{
   if (!reverse_postorder(g, arena, out))
      return false;
   out->idom = cuvk_arena_array(arena, g->n, sizeof(unsigned));
   if (!out->idom)
      return false;
   for (unsigned i = 0; i < g->n; i++)
      out->idom[i] = CUVK_IR_NONE;
   out->idom[g->root] = g->root;

   bool changed = true;
   while (changed) {
      changed = false;
      for (unsigned i = 1; i < out->order_count; i++) {
         unsigned b = out->order[i], new_idom = CUVK_IR_NONE;
         for (unsigned k = 0; k < pred_count(g, b); k++) {
            unsigned p = pred_at(g, b, k);
            if (out->idom[p] == CUVK_IR_NONE)
               continue;   /* not processed yet, or not reached */
            new_idom = new_idom == CUVK_IR_NONE ? p : intersect(out, p, new_idom);
         }
         if (new_idom != out->idom[b]) {
            out->idom[b] = new_idom;
            changed = true;
         }
      }
   }
   /* The root has no immediate dominator. */
   out->idom[g->root] = CUVK_IR_NONE;
   return true;
}

bool
cuvk_ir_dominators(const struct cuvk_ir_function *f, struct cuvk_arena *arena,
                   struct cuvk_ir_domtree *out)
{
   struct graph g = { .n = f->block_count, .root = 0, .f = f };

   memset(out, 0, sizeof(*out));
   out->block_count = f->block_count;
   out->root = 0;
   if (f->block_count == 0)
      return true;
   return compute(&g, arena, out);
}

bool
cuvk_ir_post_dominators(const struct cuvk_ir_function *f, struct cuvk_arena *arena,
                        struct cuvk_ir_domtree *out)
{
   struct graph g = { .n = f->block_count + 1, .root = f->block_count, .f = f,
                      .reversed = true };

   memset(out, 0, sizeof(*out));
   out->block_count = f->block_count;
   out->post = true;
   out->root = f->block_count;
   g.exits = cuvk_arena_array(arena, f->block_count + 1, sizeof(unsigned));
   if (!g.exits)
      return false;
   for (unsigned i = 0; i < f->block_count; i++)
      if (f->blocks[i]->succ_count == 0)
         g.exits[g.exit_count++] = i;
   return compute(&g, arena, out);
}

bool
cuvk_ir_dominates(const struct cuvk_ir_domtree *dom, unsigned a, unsigned b)
{
   unsigned n = dom->block_count + (dom->post ? 1 : 0);

   if (a >= n || b >= n || dom->order_index[a] == CUVK_IR_NONE ||
       dom->order_index[b] == CUVK_IR_NONE)
      return false;
   /* Walk up from b; a dominator comes earlier in reverse postorder, so
    * the walk can stop once it passes a's place. */
   while (b != a) {
      if (b == dom->root || dom->order_index[b] < dom->order_index[a])
         return false;
      b = dom->idom[b];
      if (b == CUVK_IR_NONE)
         return false;
   }
   return true;
}
