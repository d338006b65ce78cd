/*
 * Reducibility: a graph is reducible when every cycle is entered through
 * a single block that dominates it.  Equivalently (Hecht and Ullman), every
 * retreating edge of a depth-first walk from the entry, an edge to a block
 * still on the walk's stack, goes to a block that dominates its source.
 * nvcc's output is reducible in every sample measured (design notes); the
 * structurizer still has to handle the other case (Bahmann et al.'s
 * construction does), and this check tells it when.
 */
#include <string.h>

#include "compiler/ir_cfg.h"

bool
cuvk_ir_is_reducible(const struct cuvk_ir_function *f, const struct cuvk_ir_domtree *dom,
                     struct cuvk_arena *arena, bool *reducible, unsigned *from, unsigned *to)
{
   unsigned n = f->block_count;

   *reducible = true;
   *from = *to = CUVK_IR_NONE;
   if (n == 0)
      return true;
   unsigned *stack_node = cuvk_arena_array(arena, n, sizeof(unsigned));
   unsigned *stack_next = cuvk_arena_array(arena, n, sizeof(unsigned));
   /* 0: not seen, 1: on the stack, 2: finished */
   unsigned char *state = cuvk_arena_array(arena, n, 1);
   if (!stack_node || !stack_next || !state)
      return false;

   unsigned depth = 0;
   stack_node[depth] = 0;
   stack_next[depth++] = 0;
   state[0] = 1;
   while (depth) {
      unsigned node = stack_node[depth - 1];
      const struct cuvk_ir_block *b = f->blocks[node];
      if (stack_next[depth - 1] == b->succ_count) {
         state[node] = 2;
         depth--;
         continue;
      }
      unsigned s = b->succs[stack_next[depth - 1]++]->index;
      if (state[s] == 0) {
         state[s] = 1;
         stack_node[depth] = s;
         stack_next[depth++] = 0;
      } else if (state[s] == 1 && !cuvk_ir_dominates(dom, s, node)) {
         *reducible = false;
         *from = node;
         *to = s;
         return true;
      }
   }
   return true;
}
