/*
 * SPIR-V's structured control-flow rules, checked on the IR and a
 * structure (ir_structure.h), so that a structurizer bug shows as the rule
 * it breaks and the block where, rather than as spirv-val's complaint
 * about a module three stages later.
 *
 * Dominance here is SPIR-V's structural dominance: the CFG plus an edge
 * from every header to its merge block and continue target, so that an
 * unreachable merge is dominated by its header and a loop's merge by the
 * loop's header, not by the selection that breaks to it.  With it:
 *
 *  - the order starts at the entry, lists each block once, holds every
 *    block the entry reaches (merges and continue targets included) and
 *    puts each after its immediate dominator;
 *  - merges and continue targets are blocks of the order, each the merge
 *    or continue target of one header only, strictly dominated by it;
 *  - a back edge (to a block that dominates its source) goes to a loop
 *    header from the loop's continue construct, one per loop;
 *  - a conditional branch is in a header, or one of its targets is the
 *    innermost loop's merge or continue target; a switch is in a header;
 *  - an edge that enters a construct enters it at its header (or a
 *    continue construct at its continue target), and one that leaves the
 *    innermost construct of its source goes to that construct's merge, or
 *    breaks to the innermost loop's merge, or continues its loop.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir_structure.h"

#define NONE CUVK_IR_NONE

struct checker {
   const struct cuvk_ir_function *f;
   const struct cuvk_ir_structure *s;
   struct cuvk_cc_error *err;
   unsigned n;
   unsigned *pos;          /* per block: its place in the order, or NONE */
   unsigned *idom;         /* structural immediate dominators */
   /* Constructs: header, entry (header or continue target), merge, kind. */
   unsigned *c_header, *c_entry, *c_merge, *c_size;
   bool *c_loop, *c_continue;
   unsigned c_count;
   bool *in;               /* c_count x n membership */
};

static bool __attribute__((format(printf, 3, 4)))
broken(struct checker *c, unsigned block, const char *fmt, ...)
{
   char msg[200];
   va_list ap;
   unsigned line = 0;

   va_start(ap, fmt);
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);
   if (block < c->f->block_count)
      line = c->f->blocks[block]->term_line ? c->f->blocks[block]->term_line
                                            : c->f->blocks[block]->line;
   return cuvk_cc_fail(c->err, CUVK_CC_INVALID, line, 0, "structure of %s: %s", c->f->name, msg);
}

/* The structural successors of v: merge, continue target, then the CFG's. */
static unsigned
ssucc_count(const struct checker *c, unsigned v)
{
   return 2 + c->f->blocks[v]->succ_count;
}

static unsigned
ssucc(const struct checker *c, unsigned v, unsigned k)
{
   if (k == 0)
      return c->s->kind[v] == CUVK_IR_CONSTRUCT_NONE ? NONE : c->s->merge[v];
   if (k == 1)
      return c->s->kind[v] == CUVK_IR_CONSTRUCT_LOOP ? c->s->continue_target[v] : NONE;
   return c->f->blocks[v]->succs[k - 2]->index;
}

static bool
dominates(const struct checker *c, unsigned a, unsigned b)
{
   if (c->pos[a] == NONE || c->pos[b] == NONE)
      return false;
   while (b != a) {
      if (b == 0 || c->idom[b] == NONE)
         return false;
      b = c->idom[b];
   }
   return true;
}

/* Cooper, Harvey and Kennedy over the order given, which must list
 * dominators first (checked afterwards against the result). */
static bool
structural_dominators(struct checker *c, struct cuvk_arena *arena)
{
   unsigned n = c->n;
   unsigned *rpo_index = cuvk_arena_array(arena, n, sizeof(unsigned));
   unsigned *rpo = cuvk_arena_array(arena, n, sizeof(unsigned));
   unsigned *stack = cuvk_arena_array(arena, n, sizeof(unsigned));
   unsigned *next = cuvk_arena_array(arena, n, sizeof(unsigned));
   bool *seen = cuvk_arena_array(arena, n, sizeof(bool));
   unsigned *post = cuvk_arena_array(arena, n, sizeof(unsigned));
   unsigned done = 0, depth = 0;

   c->idom = cuvk_arena_array(arena, n, sizeof(unsigned));
   if (!rpo_index || !rpo || !stack || !next || !seen || !post || !c->idom)
      return cuvk_cc_fail(c->err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory");
   stack[depth] = 0;
   next[depth++] = 0;
   seen[0] = true;
   while (depth) {
      unsigned v = stack[depth - 1];
      if (next[depth - 1] < ssucc_count(c, v)) {
         unsigned w = ssucc(c, v, next[depth - 1]++);
         if (w != NONE && !seen[w]) {
            seen[w] = true;
            stack[depth] = w;
            next[depth++] = 0;
         }
      } else {
         post[done++] = v;
         depth--;
      }
   }
   for (unsigned i = 0; i < n; i++) {
      rpo_index[i] = NONE;
      c->idom[i] = NONE;
   }
   for (unsigned i = 0; i < done; i++) {
      rpo[i] = post[done - 1 - i];
      rpo_index[rpo[i]] = i;
   }
   for (unsigned i = 0; i < n; i++)
      if (seen[i] && c->pos[i] == NONE)
         return broken(c, i, "bb%u is reached but not in the order", i);
   c->idom[0] = 0;
   bool changed = true;
   while (changed) {
      changed = false;
      for (unsigned i = 1; i < done; i++) {
         unsigned v = rpo[i], best = NONE;
         /* Predecessors in the structural graph: scan every reached block. */
         for (unsigned j = 0; j < done; j++) {
            unsigned p = rpo[j];
            if (c->idom[p] == NONE)
               continue;
            bool edge = false;
            for (unsigned k = 0; k < ssucc_count(c, p) && !edge; k++)
               edge = ssucc(c, p, k) == v;
            if (!edge)
               continue;
            if (best == NONE) {
               best = p;
               continue;
            }
            unsigned a = p, b = best;
            while (a != b) {
               while (rpo_index[a] > rpo_index[b])
                  a = c->idom[a];
               while (rpo_index[b] > rpo_index[a])
                  b = c->idom[b];
            }
            best = a;
         }
         if (best != c->idom[v]) {
            c->idom[v] = best;
            changed = true;
         }
      }
   }
   c->idom[0] = NONE;
   return true;
}

static bool
member(const struct checker *c, unsigned k, unsigned b)
{
   return c->in[(size_t)k * c->n + b];
}

/* The innermost construct holding b (the smallest), or NONE. */
static unsigned
innermost(const struct checker *c, unsigned b, bool loops_only)
{
   unsigned best = NONE;

   for (unsigned k = 0; k < c->c_count; k++) {
      if (!member(c, k, b) || (loops_only && (!c->c_loop[k] || c->c_continue[k])))
         continue;
      if (best == NONE || c->c_size[k] < c->c_size[best])
         best = k;
   }
   return best;
}

/* The loop whose continue construct holds b, or NONE. */
static unsigned
continue_of(const struct checker *c, unsigned b)
{
   unsigned best = NONE;

   for (unsigned k = 0; k < c->c_count; k++)
      if (c->c_continue[k] && member(c, k, b) &&
          (best == NONE || c->c_size[k] < c->c_size[best]))
         best = k;
   return best;
}

static bool
check(struct checker *c, struct cuvk_arena *arena)
{
   const struct cuvk_ir_function *f = c->f;
   const struct cuvk_ir_structure *s = c->s;
   unsigned n = c->n;

   if (s->block_count != n)
      return broken(c, NONE, "%u blocks in the structure, %u in the function", s->block_count, n);
   if (n == 0)
      return true;
   if (!s->kind || !s->merge || !s->continue_target || !s->order || s->order_count == 0)
      return broken(c, NONE, "an empty structure");
   if (s->order[0] != 0)
      return broken(c, NONE, "the order starts at bb%u, not the entry", s->order[0]);
   c->pos = cuvk_arena_array(arena, n, sizeof(unsigned));
   if (!c->pos)
      return cuvk_cc_fail(c->err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory");
   for (unsigned i = 0; i < n; i++)
      c->pos[i] = NONE;
   for (unsigned i = 0; i < s->order_count; i++) {
      unsigned b = s->order[i];
      if (b >= n || c->pos[b] != NONE)
         return broken(c, NONE, "order[%u] = %u is out of range or listed twice", i, b);
      c->pos[b] = i;
   }

   /* Headers, merges and continue targets. */
   unsigned *merge_of = cuvk_arena_array(arena, n, sizeof(unsigned));
   if (!merge_of)
      return cuvk_cc_fail(c->err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory");
   for (unsigned i = 0; i < n; i++)
      merge_of[i] = NONE;
   for (unsigned i = 0; i < s->order_count; i++) {
      unsigned b = s->order[i];
      enum cuvk_ir_construct kind = s->kind[b];
      unsigned m = s->merge[b], ct = s->continue_target[b];
      if (kind == CUVK_IR_CONSTRUCT_NONE) {
         if (m != NONE || ct != NONE)
            return broken(c, b, "bb%u is no header but has a merge or continue target", b);
         continue;
      }
      if (kind != CUVK_IR_CONSTRUCT_SELECTION && kind != CUVK_IR_CONSTRUCT_LOOP)
         return broken(c, b, "bb%u has construct kind %d", b, (int)kind);
      if (m >= n || c->pos[m] == NONE || m == b)
         return broken(c, b, "header bb%u has merge %u, which is no block of the order", b, m);
      if (merge_of[m] != NONE)
         return broken(c, b, "bb%u is the merge or continue target of both bb%u and bb%u", m,
                       merge_of[m], b);
      merge_of[m] = b;
      if (kind == CUVK_IR_CONSTRUCT_LOOP) {
         if (ct >= n || c->pos[ct] == NONE || ct == m)
            return broken(c, b, "loop header bb%u has continue target %u", b, ct);
         if (ct != b) {
            if (merge_of[ct] != NONE)
               return broken(c, b, "bb%u is the merge or continue target of both bb%u and bb%u",
                             ct, merge_of[ct], b);
            merge_of[ct] = b;
         }
      } else if (ct != NONE) {
         return broken(c, b, "selection header bb%u has a continue target", b);
      }
   }

   if (!structural_dominators(c, arena))
      return false;
   for (unsigned i = 1; i < s->order_count; i++) {
      unsigned b = s->order[i];
      if (c->idom[b] == NONE)
         return broken(c, b, "bb%u is in the order but not reached", b);
      if (c->pos[c->idom[b]] > i)
         return broken(c, b, "bb%u comes before its dominator bb%u", b, c->idom[b]);
   }

   /* Constructs: a selection's and a loop's blocks are those their header
    * dominates and their merge does not; a continue construct's those its
    * continue target dominates and the loop's merge does not. */
   unsigned max = 2 * s->order_count;
   c->c_header = cuvk_arena_array(arena, max, sizeof(unsigned));
   c->c_entry = cuvk_arena_array(arena, max, sizeof(unsigned));
   c->c_merge = cuvk_arena_array(arena, max, sizeof(unsigned));
   c->c_size = cuvk_arena_array(arena, max, sizeof(unsigned));
   c->c_loop = cuvk_arena_array(arena, max, sizeof(bool));
   c->c_continue = cuvk_arena_array(arena, max, sizeof(bool));
   c->in = cuvk_arena_array(arena, (size_t)max * n, sizeof(bool));
   if (!c->c_header || !c->c_entry || !c->c_merge || !c->c_size || !c->c_loop ||
       !c->c_continue || !c->in)
      return cuvk_cc_fail(c->err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory");
   for (unsigned i = 0; i < s->order_count; i++) {
      unsigned h = s->order[i];
      if (s->kind[h] == CUVK_IR_CONSTRUCT_NONE)
         continue;
      for (unsigned part = 0; part < (s->kind[h] == CUVK_IR_CONSTRUCT_LOOP ? 2u : 1u); part++) {
         unsigned k = c->c_count++;
         unsigned entry = part ? s->continue_target[h] : h;
         c->c_header[k] = h;
         c->c_entry[k] = entry;
         c->c_merge[k] = s->merge[h];
         c->c_loop[k] = s->kind[h] == CUVK_IR_CONSTRUCT_LOOP;
         c->c_continue[k] = part == 1;
         if (!dominates(c, h, s->merge[h]) || h == s->merge[h])
            return broken(c, h, "header bb%u does not dominate its merge bb%u", h, s->merge[h]);
         if (part && !dominates(c, h, entry))
            return broken(c, h, "loop header bb%u does not dominate its continue target bb%u", h,
                          entry);
         for (unsigned j = 0; j < s->order_count; j++) {
            unsigned b = s->order[j];
            if (dominates(c, entry, b) && !dominates(c, s->merge[h], b)) {
               c->in[(size_t)k * n + b] = true;
               c->c_size[k]++;
            }
         }
      }
   }

   /* Back edges and conditional branches. */
   unsigned *back_edges = cuvk_arena_array(arena, n, sizeof(unsigned));
   if (!back_edges)
      return cuvk_cc_fail(c->err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory");
   for (unsigned i = 0; i < s->order_count; i++) {
      unsigned u = s->order[i];
      const struct cuvk_ir_block *b = f->blocks[u];
      unsigned loop = innermost(c, u, true), cont_loop = continue_of(c, u);
      unsigned lmerge = loop == NONE ? NONE : c->c_merge[loop];
      unsigned lcont = loop == NONE ? NONE : s->continue_target[c->c_header[loop]];

      if (b->term == CUVK_IR_TERM_SWITCH && s->kind[u] == CUVK_IR_CONSTRUCT_NONE)
         return broken(c, u, "switch in bb%u, which is no header", u);
      if (b->term == CUVK_IR_TERM_CBR && b->succs[0] != b->succs[1] &&
          s->kind[u] == CUVK_IR_CONSTRUCT_NONE) {
         bool ok = false;
         for (unsigned k = 0; k < 2; k++) {
            unsigned t = b->succs[k]->index;
            ok |= t == lmerge || t == lcont;
            /* The back-edge block's branch: to the header or out. */
            ok |= cont_loop != NONE &&
                  (t == c->c_header[cont_loop] || t == c->c_merge[cont_loop]);
         }
         if (!ok)
            return broken(c, u, "conditional branch in bb%u, which is no header, "
                          "and neither target is a break or continue", u);
      }
      for (unsigned k = 0; k < b->succ_count; k++) {
         unsigned v = b->succs[k]->index;
         if (c->pos[v] == NONE)
            return broken(c, u, "bb%u branches to bb%u, which is not in the order", u, v);
         if (dominates(c, v, u)) {
            if (s->kind[v] != CUVK_IR_CONSTRUCT_LOOP)
               return broken(c, u, "back edge bb%u -> bb%u to a block that is no loop header",
                             u, v);
            if (!dominates(c, s->continue_target[v], u))
               return broken(c, u, "back edge bb%u -> bb%u from outside the continue construct",
                             u, v);
            if (++back_edges[v] > 1)
               return broken(c, u, "loop header bb%u has more than one back edge", v);
            continue;
         }
         if (c->pos[v] < c->pos[u])
            return broken(c, u, "edge bb%u -> bb%u goes back in the order but is no back edge",
                          u, v);
         for (unsigned kk = 0; kk < c->c_count; kk++)
            if (member(c, kk, v) && !member(c, kk, u) && v != c->c_entry[kk])
               return broken(c, u, "edge bb%u -> bb%u enters the construct of bb%u in the middle",
                             u, v, c->c_header[kk]);
         unsigned inner = innermost(c, u, false);
         if (inner == NONE || member(c, inner, v) || v == c->c_merge[inner])
            continue;
         if (v == lmerge || v == lcont)
            continue;
         if (cont_loop != NONE && v == c->c_merge[cont_loop])
            continue;
         return broken(c, u, "edge bb%u -> bb%u leaves the construct of bb%u other than to its "
                       "merge bb%u or as a break or continue", u, v, c->c_header[inner],
                       c->c_merge[inner]);
      }
   }
   for (unsigned i = 0; i < s->order_count; i++) {
      unsigned h = s->order[i];
      if (s->kind[h] == CUVK_IR_CONSTRUCT_LOOP && back_edges[h] == 0 &&
          f->blocks[s->continue_target[h]]->pred_count)
         return broken(c, h, "loop header bb%u has no back edge", h);
   }
   return true;
}

bool
cuvk_ir_structure_check(const struct cuvk_ir_function *f, const struct cuvk_ir_structure *s,
                        struct cuvk_arena *arena, struct cuvk_cc_error *err)
{
   struct checker c = { .f = f, .s = s, .err = err, .n = f->block_count };

   return check(&c, arena);
}
