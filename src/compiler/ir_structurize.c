/*
 * The structurizer (ir_structure.h; design in docs/compiler.md, "The
 * structurizer").
 *
 * One construction, in two phases, that leaves an already structured
 * graph (nvcc's, nearly always) as it is apart from empty blocks, and
 * restructures the rest after Bahmann, Reissmann, Jahre and Meyer (2015):
 *
 *  1. Cycles, outermost first.  Every strongly connected component of the
 *     graph (back edges of loops already done left out) becomes a loop
 *     with one header, one continue block holding the only back edge, and
 *     one merge block that every exit goes to.  A reducible loop keeps its
 *     header; a cycle with several entries (irreducible) gets a new header
 *     that dispatches to the entry taken.  A loop whose exits go to
 *     several blocks gets a merge block that dispatches to them.  Then the
 *     component's inside, without the back edge, is searched for the loops
 *     it nests.
 *  2. Branches, in reverse postorder, so a construct is done before the
 *     ones inside it.  A branch's arms are the blocks its exclusive
 *     successors dominate; the blocks the arms leave to (other than the
 *     innermost loop's merge and continue target, which are breaks and
 *     continues) are its continuation points.  One continuation point is
 *     the merge (or an empty block before it, when it is taken already or
 *     the branch does not dominate it); none gives an unreachable merge;
 *     several a new merge block that dispatches to them.
 *
 * A dispatch reads a selector register of its own (b32, one per
 * dispatching block), which a `mov` on each edge into it sets: in the
 * edge's source block when that ends in `br`, else in a new block on the
 * edge.  Two values dispatch with `setp.eq.u32` and `cbr`, more with
 * `switch`.  Each selector belongs to one block, so a value set on the
 * way into a dispatch survives the dispatches it passes through first;
 * and no dispatch loops around more than its own construct, so a barrier
 * keeps its place in the order every thread walks.
 *
 * Every change recomputes predecessors and dominators before the next
 * decision: simple, exact, and cheap at the few hundred blocks of a
 * kernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir_builder.h"
#include "compiler/ir_structure.h"

#define NONE CUVK_IR_NONE

struct loop_info {
   unsigned header, cont, merge, parent;
};

struct structurizer {
   struct cuvk_ir_function *f;
   struct cuvk_ir_module *m;
   struct cuvk_cc_error *err;
   struct cuvk_arena scratch;       /* dominators; dropped at every change */
   bool scratch_live;
   uint32_t selp;                   /* the predicate of two-way dispatches */
   unsigned selectors;              /* selector registers made so far */

   /* Per block, grown with the function. */
   unsigned cap;
   unsigned *loop_of;               /* innermost loop, or NONE */
   enum cuvk_ir_construct *kind;
   unsigned *merge, *cont;
   bool *handled;                   /* its branch has been given its construct */
   bool *taken;                     /* the merge or continue target of a header */
   unsigned *owner;                 /* that header */
   bool *mark;                      /* scratch membership */

   struct loop_info *loops;
   unsigned loop_count, loop_cap;
};

static bool
no_memory(struct structurizer *s)
{
   return cuvk_cc_fail(s->err, CUVK_CC_NO_MEMORY, s->f->line, 0,
                       "out of memory structurizing %s", s->f->name);
}

static bool
grow(void **p, size_t count, size_t size)
{
   void *q = realloc(*p, count * size);

   if (!q)
      return false;
   *p = q;
   return true;
}

/* Makes the per-block arrays cover every block of the function. */
static bool
ensure(struct structurizer *s)
{
   unsigned n = s->f->block_count;

   if (n <= s->cap)
      return true;
   unsigned cap = s->cap ? s->cap : 16;
   while (cap < n)
      cap *= 2;
   if (!grow((void **)&s->loop_of, cap, sizeof(unsigned)) ||
       !grow((void **)&s->kind, cap, sizeof(enum cuvk_ir_construct)) ||
       !grow((void **)&s->merge, cap, sizeof(unsigned)) ||
       !grow((void **)&s->cont, cap, sizeof(unsigned)) ||
       !grow((void **)&s->handled, cap, sizeof(bool)) ||
       !grow((void **)&s->taken, cap, sizeof(bool)) ||
       !grow((void **)&s->owner, cap, sizeof(unsigned)) ||
       !grow((void **)&s->mark, cap, sizeof(bool)))
      return no_memory(s);
   for (unsigned i = s->cap; i < cap; i++) {
      s->loop_of[i] = NONE;
      s->kind[i] = CUVK_IR_CONSTRUCT_NONE;
      s->merge[i] = NONE;
      s->cont[i] = NONE;
      s->handled[i] = false;
      s->taken[i] = false;
      s->owner[i] = NONE;
      s->mark[i] = false;
   }
   s->cap = cap;
   return true;
}

static struct cuvk_ir_block *
new_block(struct structurizer *s, unsigned loop, unsigned line)
{
   struct cuvk_ir_block *b = cuvk_ir_block_create(s->f, NULL);

   if (!b) {
      no_memory(s);
      return NULL;
   }
   b->line = b->term_line = line;
   if (!ensure(s))
      return NULL;
   s->loop_of[b->index] = loop;
   return b;
}

static uint32_t
new_reg(struct structurizer *s, const char *prefix, unsigned number, enum cuvk_ir_type type)
{
   char name[48];
   int len = snprintf(name, sizeof(name), "%%cuvk_%s%u", prefix, number);
   char *copy = cuvk_arena_strndup(&s->m->arena, name, (size_t)len);
   uint32_t reg = copy ? cuvk_ir_reg_create(s->f, copy, type) : CUVK_IR_NO_REG;

   if (reg == CUVK_IR_NO_REG)
      no_memory(s);
   return reg;
}

static bool
append_mov(struct structurizer *s, struct cuvk_ir_block *b, uint32_t reg, unsigned value)
{
   struct cuvk_ir_instr *in = cuvk_ir_instr_create(s->m, PTX_OP_MOV, 1, 1);

   if (!in)
      return no_memory(s);
   in->line = b->term_line ? b->term_line : b->line;
   in->mods[in->mod_count++] = PTX_MOD_U32;
   in->dst[0] = cuvk_ir_reg_value(reg);
   in->src[0] = (struct cuvk_ir_value){ .kind = CUVK_IR_VAL_IMM, .imm = value };
   cuvk_ir_block_append(b, in);
   return true;
}

/* Makes b branch on selector reg to targets[reg's value]: cbr on
 * setp.eq.u32 for two, switch for more, br for one. */
static bool
set_dispatch(struct structurizer *s, struct cuvk_ir_block *b, uint32_t reg,
             struct cuvk_ir_block **targets, unsigned count)
{
   if (count == 1)
      return cuvk_ir_set_br(s->m, b, targets[0]) || no_memory(s);
   if (count > 2)
      return cuvk_ir_set_switch(s->m, b, cuvk_ir_reg_value(reg), targets, count) ||
             no_memory(s);
   if (s->selp == CUVK_IR_NO_REG &&
       (s->selp = new_reg(s, "selp", 0, CUVK_IR_PRED)) == CUVK_IR_NO_REG)
      return false;
   struct cuvk_ir_instr *in = cuvk_ir_instr_create(s->m, PTX_OP_SETP, 1, 2);
   if (!in)
      return no_memory(s);
   in->line = b->line;
   in->mods[in->mod_count++] = PTX_MOD_EQ;
   in->mods[in->mod_count++] = PTX_MOD_U32;
   in->dst[0] = cuvk_ir_reg_value(s->selp);
   in->src[0] = cuvk_ir_reg_value(reg);
   in->src[1] = (struct cuvk_ir_value){ .kind = CUVK_IR_VAL_IMM, .imm = 0 };
   cuvk_ir_block_append(b, in);
   return cuvk_ir_set_cbr(s->m, b, cuvk_ir_reg_value(s->selp), targets[0], targets[1]) ||
          no_memory(s);
}

static uint32_t
new_selector(struct structurizer *s)
{
   return new_reg(s, "sel", s->selectors++, CUVK_IR_B32);
}

/* Sends every edge u -> from to to instead; with a selector, the edge
 * sets reg = value on the way: in u when u ends in br, else in a new
 * block on the edge, which belongs to loop. */
static bool
route(struct structurizer *s, struct cuvk_ir_block *u, struct cuvk_ir_block *from,
      struct cuvk_ir_block *to, uint32_t reg, unsigned value, unsigned loop)
{
   bool has = false;

   for (unsigned k = 0; k < u->succ_count; k++)
      has |= u->succs[k] == from;
   if (!has)
      return true;
   struct cuvk_ir_block *via = to;
   if (reg != CUVK_IR_NO_REG) {
      if (u->term == CUVK_IR_TERM_BR) {
         if (!append_mov(s, u, reg, value))
            return false;
      } else {
         unsigned line = u->term_line ? u->term_line : u->line;
         if (!(via = new_block(s, loop, line)) || !append_mov(s, via, reg, value) ||
             !cuvk_ir_set_br(s->m, via, to))
            return via ? no_memory(s) : false;
      }
   }
   for (unsigned k = 0; k < u->succ_count; k++)
      if (u->succs[k] == from)
         u->succs[k] = via;
   return true;
}

static bool
refresh(struct structurizer *s, struct cuvk_ir_domtree *dom)
{
   if (!cuvk_ir_compute_preds(s->f))
      return no_memory(s);
   if (!dom)
      return true;
   if (s->scratch_live)
      cuvk_arena_finish(&s->scratch);
   cuvk_arena_init(&s->scratch);
   s->scratch_live = true;
   return cuvk_ir_dominators(s->f, &s->scratch, dom) || no_memory(s);
}

/* --- Phase 1: cycles ---------------------------------------------------- */

static bool
is_back_edge(const struct structurizer *s, unsigned u, unsigned v)
{
   return s->kind[v] == CUVK_IR_CONSTRUCT_LOOP && s->cont[v] == u;
}

struct region {
   unsigned *blocks;
   unsigned count;
   unsigned loop;        /* the loop whose inside it is, or NONE */
};

struct regions {
   struct region *items;
   unsigned count, cap;
};

static bool
push_region(struct structurizer *s, struct regions *w, unsigned *blocks, unsigned count,
            unsigned loop)
{
   if (w->count == w->cap) {
      unsigned cap = w->cap ? w->cap * 2 : 8;
      if (!grow((void **)&w->items, cap, sizeof(*w->items))) {
         free(blocks);
         return no_memory(s);
      }
      w->cap = cap;
   }
   w->items[w->count++] = (struct region){ blocks, count, loop };
   return true;
}

/* Tarjan's strongly connected components of the region's blocks, without
 * recursion; comp[b] numbers them.  Returns the number, or UINT32_MAX when
 * out of memory. */
static unsigned
find_sccs(struct structurizer *s, const struct region *r, unsigned *comp)
{
   unsigned n = s->f->block_count;
   unsigned *index = malloc(n * sizeof(unsigned)), *low = malloc(n * sizeof(unsigned));
   unsigned *stack = malloc(n * sizeof(unsigned)), *call = malloc(n * sizeof(unsigned));
   unsigned *next = malloc(n * sizeof(unsigned));
   bool *on = calloc(n, sizeof(bool));
   unsigned comps = UINT32_MAX;

   if (!index || !low || !stack || !call || !next || !on) {
      no_memory(s);
      goto out;
   }
   for (unsigned i = 0; i < n; i++) {
      index[i] = NONE;
      comp[i] = NONE;
   }
   comps = 0;
   unsigned counter = 0, sp = 0;
   for (unsigned ri = 0; ri < r->count; ri++) {
      unsigned root = r->blocks[ri];
      if (index[root] != NONE)
         continue;
      unsigned depth = 0;
      call[depth] = root;
      next[depth++] = 0;
      index[root] = low[root] = counter++;
      stack[sp++] = root;
      on[root] = true;
      while (depth) {
         unsigned v = call[depth - 1];
         const struct cuvk_ir_block *b = s->f->blocks[v];
         if (next[depth - 1] < b->succ_count) {
            unsigned w = b->succs[next[depth - 1]++]->index;
            if (!s->mark[w] || is_back_edge(s, v, w))
               continue;
            if (index[w] == NONE) {
               index[w] = low[w] = counter++;
               stack[sp++] = w;
               on[w] = true;
               call[depth] = w;
               next[depth++] = 0;
            } else if (on[w] && index[w] < low[v]) {
               low[v] = index[w];
            }
            continue;
         }
         if (low[v] == index[v]) {
            unsigned w;
            do {
               w = stack[--sp];
               on[w] = false;
               comp[w] = comps;
            } while (w != v);
            comps++;
         }
         depth--;
         if (depth && low[v] < low[call[depth - 1]])
            low[call[depth - 1]] = low[v];
      }
   }
out:
   free(index);
   free(low);
   free(stack);
   free(call);
   free(next);
   free(on);
   return comps;
}

struct edge {
   struct cuvk_ir_block *from, *to;
};

static int
compare_unsigned(const void *a, const void *b)
{
   unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
   return x < y ? -1 : x > y;
}

/* Turns the strongly connected component scc (marked in s->mark) into a
 * loop of the parent loop; its inside goes on the work list. */
static bool
make_loop(struct structurizer *s, unsigned *scc, unsigned count, unsigned parent,
          struct regions *work)
{
   struct cuvk_ir_function *f = s->f;
   unsigned *entries = malloc(count * sizeof(unsigned));
   struct edge *exits = NULL;
   unsigned *targets = NULL, *inside = NULL;
   struct cuvk_ir_block **tb = NULL;
   unsigned entry_count = 0, exit_count = 0, exit_cap = 0, target_count = 0;
   bool ok = false;

   if (!entries || !refresh(s, NULL))
      goto out;
   qsort(scc, count, sizeof(unsigned), compare_unsigned);
   for (unsigned i = 0; i < count; i++) {
      const struct cuvk_ir_block *b = f->blocks[scc[i]];
      for (unsigned k = 0; k < b->pred_count; k++)
         if (!s->mark[b->preds[k]->index]) {
            entries[entry_count++] = scc[i];
            break;
         }
      for (unsigned k = 0; k < b->succ_count; k++) {
         if (s->mark[b->succs[k]->index])
            continue;
         if (exit_count == exit_cap) {
            exit_cap = exit_cap ? exit_cap * 2 : 8;
            if (!grow((void **)&exits, exit_cap, sizeof(*exits))) {
               no_memory(s);
               goto out;
            }
         }
         exits[exit_count++] = (struct edge){ f->blocks[scc[i]], b->succs[k] };
      }
   }

   unsigned loop = s->loop_count;
   if (loop == s->loop_cap) {
      s->loop_cap = s->loop_cap ? s->loop_cap * 2 : 8;
      if (!grow((void **)&s->loops, s->loop_cap, sizeof(*s->loops))) {
         no_memory(s);
         goto out;
      }
   }
   s->loop_count++;
   s->loops[loop] = (struct loop_info){ NONE, NONE, NONE, parent };
   for (unsigned i = 0; i < count; i++)
      s->loop_of[scc[i]] = loop;
   unsigned first_new = f->block_count;
   unsigned line = f->blocks[entries[0]]->line;

   /* The header: the one entry, or a new block that dispatches to the
    * entry taken, which every edge into an entry sets. */
   struct cuvk_ir_block *header;
   uint32_t entry_sel = CUVK_IR_NO_REG;
   if (entry_count == 1) {
      header = f->blocks[entries[0]];
   } else {
      if (!(tb = malloc(entry_count * sizeof(*tb))))
         goto oom;
      for (unsigned i = 0; i < entry_count; i++)
         tb[i] = f->blocks[entries[i]];
      if ((entry_sel = new_selector(s)) == CUVK_IR_NO_REG ||
          !(header = new_block(s, loop, line)) ||
          !set_dispatch(s, header, entry_sel, tb, entry_count))
         goto out;
      for (unsigned i = 0; i < entry_count; i++) {
         struct cuvk_ir_block *e = tb[i];
         for (unsigned k = 0; k < e->pred_count; k++)
            if (!s->mark[e->preds[k]->index] &&
                !route(s, e->preds[k], e, header, entry_sel, i, parent))
               goto out;
      }
   }

   /* The continue block: the latch itself where there is one that ends in
    * br, else a new block that every edge back to an entry goes to. */
   unsigned repeats = 0;
   struct cuvk_ir_block *latch = NULL;
   for (unsigned i = 0; i < count; i++) {
      struct cuvk_ir_block *b = f->blocks[scc[i]];
      for (unsigned k = 0; k < b->succ_count; k++) {
         for (unsigned e = 0; e < entry_count; e++)
            if (b->succs[k]->index == entries[e]) {
               repeats++;
               latch = b;
            }
      }
   }
   struct cuvk_ir_block *cont;
   if (entry_count == 1 && repeats == 1 && latch->term == CUVK_IR_TERM_BR && latch != header) {
      cont = latch;
   } else {
      if (!(cont = new_block(s, loop, line)) || !cuvk_ir_set_br(s->m, cont, header))
         goto oom_if;
      for (unsigned i = 0; i < count; i++) {
         struct cuvk_ir_block *b = f->blocks[scc[i]];
         for (unsigned e = 0; e < entry_count; e++)
            if (!route(s, b, f->blocks[entries[e]], cont, entry_sel, e, loop))
               goto out;
      }
   }

   /* The merge: the one exit target where only the loop reaches it and no
    * other header has it, else a new block, dispatching where the exits
    * go to several blocks; none (an endless loop) gives an unreachable
    * one. */
   if (!(targets = malloc((exit_count ? exit_count : 1) * sizeof(unsigned))))
      goto oom;
   for (unsigned i = 0; i < exit_count; i++) {
      bool listed = false;
      for (unsigned t = 0; t < target_count; t++)
         listed |= targets[t] == exits[i].to->index;
      if (!listed)
         targets[target_count++] = exits[i].to->index;
   }
   qsort(targets, target_count, sizeof(unsigned), compare_unsigned);
   struct cuvk_ir_block *merge;
   if (target_count == 0) {
      if (!(merge = new_block(s, parent, line)))
         goto out;
      cuvk_ir_set_end(merge, CUVK_IR_TERM_UNREACHABLE);
   } else {
      struct cuvk_ir_block *t0 = f->blocks[targets[0]];
      bool own = target_count == 1 && !s->taken[t0->index];
      for (unsigned k = 0; own && k < t0->pred_count; k++)
         own = t0->preds[k]->index < s->cap && s->mark[t0->preds[k]->index];
      if (own) {
         merge = t0;
      } else {
         uint32_t sel = CUVK_IR_NO_REG;
         free(tb);
         if (!(tb = malloc(target_count * sizeof(*tb))))
            goto oom;
         for (unsigned t = 0; t < target_count; t++)
            tb[t] = f->blocks[targets[t]];
         if ((target_count > 1 && (sel = new_selector(s)) == CUVK_IR_NO_REG) ||
             !(merge = new_block(s, parent, line)) ||
             !set_dispatch(s, merge, sel, tb, target_count))
            goto out;
         for (unsigned i = 0; i < exit_count; i++) {
            unsigned t = 0;
            while (tb[t] != exits[i].to)
               t++;
            if (!route(s, exits[i].from, exits[i].to, merge, sel, t, loop))
               goto out;
         }
      }
   }

   s->kind[header->index] = CUVK_IR_CONSTRUCT_LOOP;
   s->merge[header->index] = merge->index;
   s->cont[header->index] = cont->index;
   s->taken[merge->index] = true;
   s->taken[cont->index] = true;
   s->owner[merge->index] = header->index;
   s->owner[cont->index] = header->index;
   s->loops[loop] = (struct loop_info){ header->index, cont->index, merge->index, parent };

   /* The inside: the component and the blocks made in it, where the next
    * round looks for nested loops. */
   unsigned made = f->block_count - first_new;
   if (!(inside = malloc((count + made) * sizeof(unsigned))))
      goto oom;
   memcpy(inside, scc, count * sizeof(unsigned));
   unsigned inside_count = count;
   for (unsigned i = first_new; i < f->block_count; i++)
      if (s->loop_of[i] == loop)
         inside[inside_count++] = i;
   ok = push_region(s, work, inside, inside_count, loop);
   inside = NULL;
   goto out;

oom_if:
   if (cont)
      goto oom;
   goto out;
oom:
   no_memory(s);
out:
   free(entries);
   free(exits);
   free(targets);
   free(tb);
   free(inside);
   return ok;
}

static bool
structure_cycles(struct structurizer *s, const struct cuvk_ir_domtree *dom)
{
   struct regions work = { 0 };
   unsigned *comp = NULL, *all = malloc((dom->order_count ? dom->order_count : 1) *
                                        sizeof(unsigned));
   bool ok = false;

   if (!all)
      return no_memory(s);
   memcpy(all, dom->order, dom->order_count * sizeof(unsigned));
   if (!push_region(s, &work, all, dom->order_count, NONE))
      return false;
   while (work.count) {
      struct region r = work.items[--work.count];
      unsigned comps;

      free(comp);
      if (!(comp = malloc(s->f->block_count * sizeof(unsigned)))) {
         free(r.blocks);
         no_memory(s);
         goto out;
      }
      memset(s->mark, 0, s->cap * sizeof(bool));
      for (unsigned i = 0; i < r.count; i++)
         s->mark[r.blocks[i]] = true;
      if ((comps = find_sccs(s, &r, comp)) == UINT32_MAX) {
         free(r.blocks);
         goto out;
      }
      /* A component is a cycle when it has two blocks or a block that
       * branches to itself. */
      unsigned *size = calloc(comps ? comps : 1, sizeof(unsigned));
      bool *cyclic = calloc(comps ? comps : 1, sizeof(bool));
      if (!size || !cyclic) {
         free(size);
         free(cyclic);
         free(r.blocks);
         no_memory(s);
         goto out;
      }
      for (unsigned i = 0; i < r.count; i++) {
         unsigned b = r.blocks[i];
         size[comp[b]]++;
         for (unsigned k = 0; k < s->f->blocks[b]->succ_count; k++)
            cyclic[comp[b]] |= s->f->blocks[b]->succs[k]->index == b && !is_back_edge(s, b, b);
      }
      bool failed = false;
      for (unsigned c = 0; c < comps && !failed; c++) {
         if (size[c] < 2 && !cyclic[c])
            continue;
         unsigned *scc = malloc(size[c] * sizeof(unsigned)), count = 0;
         if (!scc) {
            failed = !no_memory(s);
            break;
         }
         for (unsigned i = 0; i < r.count; i++)
            if (comp[r.blocks[i]] == c)
               scc[count++] = r.blocks[i];
         memset(s->mark, 0, s->cap * sizeof(bool));
         for (unsigned i = 0; i < count; i++)
            s->mark[scc[i]] = true;
         failed = !make_loop(s, scc, count, r.loop, &work);
         free(scc);
      }
      free(size);
      free(cyclic);
      free(r.blocks);
      if (failed)
         goto out;
   }
   ok = true;
out:
   for (unsigned i = 0; i < work.count; i++)
      free(work.items[i].blocks);
   free(work.items);
   free(comp);
   return ok;
}

/* --- Phase 2: branches -------------------------------------------------- */

static bool
is_branch(const struct cuvk_ir_block *b)
{
   if (b->term == CUVK_IR_TERM_SWITCH)
      return true;
   return b->term == CUVK_IR_TERM_CBR && b->succs[0] != b->succs[1];
}

/* Moves the header's branch into a new block after it, so that the loop
 * header holds only the loop's merge instruction and the branch becomes
 * a selection of its own. */
static bool
split_header(struct structurizer *s, struct cuvk_ir_block *h)
{
   struct cuvk_ir_block *b = new_block(s, s->loop_of[h->index], h->term_line);

   if (!b)
      return false;
   b->term = h->term;
   b->cond = h->cond;
   b->uniform = h->uniform;
   b->succs = h->succs;
   b->succ_count = h->succ_count;
   h->uniform = false;
   return cuvk_ir_set_br(s->m, h, b) || no_memory(s);
}

struct cont_edges {
   struct edge *items;
   unsigned count, cap;
};

/* Gives branch block b its construct; false when out of memory.  *again
 * when the graph was only prepared and b must be looked at once more. */
static bool
make_selection(struct structurizer *s, const struct cuvk_ir_domtree *dom,
               struct cuvk_ir_block *b, bool *again)
{
   struct cuvk_ir_function *f = s->f;
   unsigned loop = s->loop_of[b->index];
   unsigned lmerge = loop == NONE ? NONE : s->loops[loop].merge;
   unsigned lcont = loop == NONE ? NONE : s->loops[loop].cont;
   unsigned line = b->term_line ? b->term_line : b->line;

   *again = false;
   if (loop != NONE && s->loops[loop].header == b->index) {
      s->handled[b->index] = true;
      if (b->term == CUVK_IR_TERM_CBR &&
          (b->succs[0]->index == lmerge || b->succs[1]->index == lmerge ||
           b->succs[0]->index == lcont || b->succs[1]->index == lcont))
         return true;
      return split_header(s, b);
   }
   if (b->term == CUVK_IR_TERM_CBR) {
      for (unsigned k = 0; k < 2; k++)
         if (b->succs[k]->index == lmerge || b->succs[k]->index == lcont) {
            /* A break or continue of its loop: no construct of its own. */
            s->handled[b->index] = true;
            return true;
         }
   } else {
      /* A switch's targets are its cases or its merge: a break or
       * continue goes through a case block of its own. */
      bool changed = false;
      for (unsigned k = 0; k < b->succ_count; k++) {
         struct cuvk_ir_block *t = b->succs[k];
         if (t->index != lmerge && t->index != lcont)
            continue;
         struct cuvk_ir_block *c = new_block(s, loop, line);
         if (!c || !cuvk_ir_set_br(s->m, c, t))
            return c ? no_memory(s) : false;
         for (unsigned j = k; j < b->succ_count; j++)
            if (b->succs[j] == t)
               b->succs[j] = c;
         changed = true;
      }
      if (changed) {
         *again = true;
         return true;
      }
   }

   /* The arms: the blocks each exclusive successor dominates; the edges
    * that leave them, breaks and continues aside, go to the continuation
    * points. */
   unsigned n = f->block_count;
   unsigned *stack = malloc(n * sizeof(unsigned)), *points = malloc(n * sizeof(unsigned));
   unsigned *arms = malloc(n * sizeof(unsigned));
   bool *seen = calloc(n, sizeof(bool));
   struct cont_edges ce = { 0 };
   struct cuvk_ir_block **tb = NULL;
   unsigned point_count = 0, sp = 0, arm_count = 0;
   bool continues = false, ok = false;

   if (!stack || !points || !arms || !seen)
      goto oom;
   for (unsigned k = 0; k < b->succ_count; k++) {
      struct cuvk_ir_block *t = b->succs[k];
      /* A merge of another construct is that construct's, never an arm. */
      bool exclusive = !s->taken[t->index];
      for (unsigned j = 0; j < t->pred_count && exclusive; j++)
         exclusive = t->preds[j] == b || is_back_edge(s, t->preds[j]->index, t->index);
      for (unsigned a = 0; a < arm_count && exclusive; a++)
         exclusive = arms[a] != t->index;
      if (exclusive)
         arms[arm_count++] = t->index;
   }
   seen[b->index] = true;
   stack[sp++] = b->index;
   while (sp) {
      struct cuvk_ir_block *u = f->blocks[stack[--sp]];
      for (unsigned k = 0; k < u->succ_count; k++) {
         struct cuvk_ir_block *t = u->succs[k];
         unsigned ti = t->index;
         if (ti == lmerge)
            continue;
         if (ti == lcont) {
            continues = true;
            continue;
         }
         /* Inside an arm: dominated by its first block, and no merge of
          * a construct around this one. */
         bool inside = false;
         for (unsigned a = 0; a < arm_count && !inside; a++)
            inside = cuvk_ir_dominates(dom, arms[a], ti) &&
                     (!s->taken[ti] || cuvk_ir_dominates(dom, arms[a], s->owner[ti]));
         if (inside) {
            if (!seen[ti]) {
               seen[ti] = true;
               stack[sp++] = ti;
            }
            continue;
         }
         if (ce.count == ce.cap) {
            ce.cap = ce.cap ? ce.cap * 2 : 8;
            if (!grow((void **)&ce.items, ce.cap, sizeof(*ce.items)))
               goto oom;
         }
         ce.items[ce.count++] = (struct edge){ u, t };
         bool listed = false;
         for (unsigned p = 0; p < point_count; p++)
            listed |= points[p] == ti;
         if (!listed)
            points[point_count++] = ti;
      }
   }
   /* In the order of the graph, so the result does not depend on the walk. */
   for (unsigned i = 1; i < point_count; i++)
      for (unsigned j = i; j > 0 && dom->order_index[points[j]] < dom->order_index[points[j - 1]];
           j--) {
         unsigned t = points[j];
         points[j] = points[j - 1];
         points[j - 1] = t;
      }

   struct cuvk_ir_block *merge;
   if (point_count == 0 && continues) {
      /* Every path continues the loop (or breaks): merge in a block before
       * the continue target, which is no merge of its own. */
      struct cuvk_ir_block *c = f->blocks[lcont];
      if (!(merge = new_block(s, loop, line)) || !cuvk_ir_set_br(s->m, merge, c))
         goto fail_oom;
      for (unsigned i = 0; i < n; i++)
         if (seen[i] && !route(s, f->blocks[i], c, merge, CUVK_IR_NO_REG, 0, loop))
            goto out;
   } else if (point_count == 0) {
      /* The paths never meet again: an unreachable merge. */
      if (!(merge = new_block(s, loop, line)))
         goto out;
      cuvk_ir_set_end(merge, CUVK_IR_TERM_UNREACHABLE);
   } else if (point_count == 1 && !s->taken[points[0]] &&
              cuvk_ir_dominates(dom, b->index, points[0])) {
      merge = f->blocks[points[0]];
   } else {
      uint32_t sel = CUVK_IR_NO_REG;
      if (!(tb = malloc(point_count * sizeof(*tb))))
         goto oom;
      for (unsigned p = 0; p < point_count; p++)
         tb[p] = f->blocks[points[p]];
      if ((point_count > 1 && (sel = new_selector(s)) == CUVK_IR_NO_REG) ||
          !(merge = new_block(s, loop, line)) ||
          !set_dispatch(s, merge, sel, tb, point_count))
         goto out;
      for (unsigned i = 0; i < ce.count; i++) {
         unsigned p = 0;
         while (tb[p] != ce.items[i].to)
            p++;
         if (!route(s, ce.items[i].from, ce.items[i].to, merge, sel, p, loop))
            goto out;
      }
   }
   s->kind[b->index] = CUVK_IR_CONSTRUCT_SELECTION;
   s->merge[b->index] = merge->index;
   s->taken[merge->index] = true;
   s->owner[merge->index] = b->index;
   s->handled[b->index] = true;
   ok = true;
   goto out;

fail_oom:
   if (!merge)
      goto out;
oom:
   no_memory(s);
out:
   free(stack);
   free(points);
   free(arms);
   free(seen);
   free(ce.items);
   free(tb);
   return ok;
}

static bool
structure_branches(struct structurizer *s)
{
   struct cuvk_ir_domtree dom;
   /* Each round gives one branch its construct or prepares it; a bound
    * far above what the construction needs turns a bug into an error
    * instead of a hang. */
   size_t rounds = 0, limit = 64 + 16 * (size_t)s->f->block_count * (s->f->block_count + 4);

   for (;;) {
      if (!refresh(s, &dom))
         return false;
      struct cuvk_ir_block *b = NULL;
      for (unsigned i = 0; i < dom.order_count && !b; i++) {
         struct cuvk_ir_block *c = s->f->blocks[dom.order[i]];
         if (!s->handled[c->index] && is_branch(c))
            b = c;
      }
      if (!b)
         return true;
      if (++rounds > limit)
         return cuvk_cc_fail(s->err, CUVK_CC_UNSUPPORTED, b->term_line, 0,
                             "%s: the structurizer did not finish at bb%u", s->f->name,
                             b->index);
      bool again;
      if (!make_selection(s, &dom, b, &again))
         return false;
   }
}

/* --- The result --------------------------------------------------------- */

/* Depth first from the entry, a header's merge and continue target taken
 * before its successors, so that in reverse postorder a construct's blocks
 * come after its header and before its merge. */
static bool
fill_order(struct structurizer *s, struct cuvk_arena *arena, struct cuvk_ir_structure *out)
{
   const struct cuvk_ir_function *f = s->f;
   unsigned n = f->block_count;
   unsigned *node = malloc(n * sizeof(unsigned)), *next = malloc(n * sizeof(unsigned));
   unsigned *post = malloc(n * sizeof(unsigned));
   bool *seen = calloc(n, sizeof(bool));
   unsigned depth = 0, done = 0;
   bool ok = false;

   if (!node || !next || !post || !seen)
      goto out;
   node[depth] = 0;
   next[depth++] = 0;
   seen[0] = true;
   while (depth) {
      unsigned v = node[depth - 1], k = next[depth - 1]++, w = NONE;
      const struct cuvk_ir_block *b = f->blocks[v];
      if (k == 0)
         w = s->merge[v];
      else if (k == 1)
         w = s->cont[v];
      else if (k - 2 < b->succ_count)
         w = b->succs[k - 2]->index;
      else {
         post[done++] = v;
         depth--;
         continue;
      }
      if (w != NONE && !seen[w]) {
         seen[w] = true;
         node[depth] = w;
         next[depth++] = 0;
      }
   }
   if (!(out->order = cuvk_arena_array(arena, done, sizeof(unsigned))))
      goto out;
   for (unsigned i = 0; i < done; i++)
      out->order[i] = post[done - 1 - i];
   out->order_count = done;
   ok = true;
out:
   free(node);
   free(next);
   free(post);
   free(seen);
   return ok || no_memory(s);
}

bool
cuvk_ir_structurize(struct cuvk_ir_function *f, struct cuvk_arena *arena,
                    struct cuvk_ir_structure *out, struct cuvk_cc_error *err)
{
   struct structurizer s = { .f = f, .m = f->module, .err = err, .selp = CUVK_IR_NO_REG };
   struct cuvk_ir_domtree dom;
   bool ok = false;

   memset(out, 0, sizeof(*out));
   if (f->block_count == 0)
      return true;
   if (!ensure(&s) || !refresh(&s, &dom))
      goto out;
   /* Blocks nothing reaches never run: cut their edges, so they neither
    * enter cycles nor count as predecessors. */
   bool cut = false;
   for (unsigned i = 0; i < f->block_count; i++)
      if (dom.order_index[i] == NONE && f->blocks[i]->succ_count) {
         cuvk_ir_set_end(f->blocks[i], CUVK_IR_TERM_UNREACHABLE);
         cut = true;
      }
   if ((cut && !refresh(&s, &dom)) || !structure_cycles(&s, &dom) ||
       !structure_branches(&s) || !refresh(&s, NULL))
      goto out;

   unsigned n = f->block_count;
   out->block_count = n;
   out->kind = cuvk_arena_array(arena, n, sizeof(*out->kind));
   out->merge = cuvk_arena_array(arena, n, sizeof(unsigned));
   out->continue_target = cuvk_arena_array(arena, n, sizeof(unsigned));
   if (!out->kind || !out->merge || !out->continue_target) {
      no_memory(&s);
      goto out;
   }
   memcpy(out->kind, s.kind, n * sizeof(*out->kind));
   memcpy(out->merge, s.merge, n * sizeof(unsigned));
   memcpy(out->continue_target, s.cont, n * sizeof(unsigned));
   ok = fill_order(&s, arena, out);
out:
   if (s.scratch_live)
      cuvk_arena_finish(&s.scratch);
   free(s.loop_of);
   free(s.kind);
   free(s.merge);
   free(s.cont);
   free(s.handled);
   free(s.taken);
   free(s.owner);
   free(s.mark);
   free(s.loops);
   return ok;
}
