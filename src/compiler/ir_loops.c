/*
 * Natural loops.  An edge t -> h whose target dominates its source is a
 * back edge, h a loop header; the loop's body is h and every block that
 * reaches a latch t without passing through h, found by walking
 * predecessors backwards from the latches.  All back edges into one header
 * make one loop, as nvcc's `continue` gives a second latch to the same
 * loop.  Bodies of two headers are either nested or disjoint in a
 * reducible graph, so nesting follows from body size: a loop's parent is
 * the smallest other loop that contains its header.
 */
#include <string.h>

#include "compiler/ir_cfg.h"

bool
cuvk_ir_find_loops(const struct cuvk_ir_function *f, const struct cuvk_ir_domtree *dom,
                   struct cuvk_arena *arena, struct cuvk_ir_loops *out)
{
   unsigned n = f->block_count;

   memset(out, 0, sizeof(*out));
   out->innermost = cuvk_arena_array(arena, n ? n : 1, sizeof(unsigned));
   if (!out->innermost)
      return false;
   for (unsigned i = 0; i < n; i++)
      out->innermost[i] = CUVK_IR_NONE;

   /* Headers in reverse postorder, so an outer loop's header (which
    * dominates the inner one's) comes first. */
   struct cuvk_ir_loop *loops = cuvk_arena_array(arena, n ? n : 1, sizeof(*loops));
   bool *in_body = cuvk_arena_array(arena, n ? n : 1, sizeof(bool));
   unsigned *work = cuvk_arena_array(arena, n ? n : 1, sizeof(unsigned));
   if (!loops || !in_body || !work)
      return false;

   unsigned count = 0;
   for (unsigned oi = 0; oi < dom->order_count; oi++) {
      unsigned h = dom->order[oi];
      const struct cuvk_ir_block *hb = f->blocks[h];
      unsigned latches = 0;
      for (unsigned k = 0; k < hb->pred_count; k++)
         latches += cuvk_ir_dominates(dom, h, hb->preds[k]->index);
      if (!latches)
         continue;

      struct cuvk_ir_loop *loop = &loops[count];
      loop->header = h;
      loop->parent = CUVK_IR_NONE;
      loop->latches = cuvk_arena_array(arena, latches, sizeof(unsigned));
      if (!loop->latches)
         return false;

      memset(in_body, 0, n * sizeof(bool));
      in_body[h] = true;
      unsigned top = 0, size = 1;
      for (unsigned k = 0; k < hb->pred_count; k++) {
         unsigned t = hb->preds[k]->index;
         if (!cuvk_ir_dominates(dom, h, t))
            continue;
         bool listed = false;
         for (unsigned j = 0; j < loop->latch_count; j++)
            listed |= loop->latches[j] == t;
         if (!listed)
            loop->latches[loop->latch_count++] = t;
         if (!in_body[t]) {
            in_body[t] = true;
            size++;
            work[top++] = t;
         }
      }
      while (top) {
         const struct cuvk_ir_block *b = f->blocks[work[--top]];
         for (unsigned k = 0; k < b->pred_count; k++) {
            unsigned p = b->preds[k]->index;
            /* Unreachable predecessors are no part of any loop. */
            if (in_body[p] || dom->order_index[p] == CUVK_IR_NONE)
               continue;
            in_body[p] = true;
            size++;
            work[top++] = p;
         }
      }

      loop->blocks = cuvk_arena_array(arena, size, sizeof(unsigned));
      if (!loop->blocks)
         return false;
      loop->blocks[loop->block_count++] = h;
      for (unsigned i = 0; i < n; i++)
         if (in_body[i] && i != h)
            loop->blocks[loop->block_count++] = i;
      for (unsigned i = 0; i < loop->block_count; i++) {
         const struct cuvk_ir_block *b = f->blocks[loop->blocks[i]];
         for (unsigned k = 0; k < b->succ_count; k++)
            loop->exit_edges += !in_body[b->succs[k]->index];
      }
      count++;
   }

   /* Nesting: outer loops come first (their headers dominate, so precede
    * in reverse postorder), so the last earlier loop whose body holds a
    * header is its innermost enclosing loop. */
   for (unsigned i = 0; i < count; i++) {
      for (unsigned j = i; j-- > 0;) {
         bool holds = false;
         for (unsigned k = 0; k < loops[j].block_count && !holds; k++)
            holds = loops[j].blocks[k] == loops[i].header;
         if (holds) {
            loops[i].parent = j;
            break;
         }
      }
      loops[i].depth = loops[i].parent == CUVK_IR_NONE ? 1 : loops[loops[i].parent].depth + 1;
      /* Later (inner) loops overwrite earlier ones: innermost wins. */
      for (unsigned k = 0; k < loops[i].block_count; k++)
         out->innermost[loops[i].blocks[k]] = i;
   }
   out->loops = loops;
   out->count = count;
   return true;
}
