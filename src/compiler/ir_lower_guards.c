/*
 * Guards become control flow: `@%p inst` in block B turns into
 *
 *    B:     ...before...           cbr %p, G, T
 *    G:     inst (unguarded)        br T
 *    T:     ...after...            B's old terminator
 *
 * so that the structurizer sees the condition as a branch (SPIR-V has no
 * predicated instructions, and a select would still execute a load or a
 * store on the path PTX skips).  Consecutive instructions with the same
 * guard share one G, as long as none of them writes the guard register.
 */
#include "compiler/ir_passes.h"

#include "compiler/ir_builder.h"

static bool
writes_reg(const struct cuvk_ir_instr *in, uint32_t reg)
{
   for (unsigned i = 0; i < in->dst_count; i++)
      if (in->dst[i].kind == CUVK_IR_VAL_REG && in->dst[i].reg == reg)
         return true;
   return false;
}

static bool
no_memory(struct cuvk_cc_error *err)
{
   return cuvk_cc_fail(err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory lowering guards");
}

/* Splits b at its first guarded instruction; false on error, and *split
 * says whether there was one. */
static bool
split_block(struct cuvk_ir_function *f, struct cuvk_ir_block *b, bool *split,
            struct cuvk_cc_error *err)
{
   struct cuvk_ir_module *m = f->module;
   struct cuvk_ir_instr *first = NULL;

   *split = false;
   cuvk_list_for_each_entry(struct cuvk_ir_instr, in, &b->instrs, link) {
      if (in->guarded) {
         first = in;
         break;
      }
   }
   if (!first)
      return true;

   struct cuvk_ir_block *g = cuvk_ir_block_create(f, NULL);
   struct cuvk_ir_block *t = g ? cuvk_ir_block_create(f, NULL) : NULL;
   if (!t)
      return no_memory(err);
   g->line = t->line = first->line;
   g->term_line = first->line;

   /* The run of instructions under the same guard goes to g, the rest of
    * the block to t. */
   uint32_t guard = first->guard;
   bool negated = first->guard_negated;
   bool in_run = true;
   struct cuvk_list *pos = &first->link;
   while (pos != &b->instrs) {
      struct cuvk_list *next = pos->next;
      struct cuvk_ir_instr *in = cuvk_container_of(pos, struct cuvk_ir_instr, link);
      if (in_run && !(in->guarded && in->guard == guard && in->guard_negated == negated))
         in_run = false;
      cuvk_list_del(pos);
      if (in_run) {
         in->guarded = false;
         cuvk_ir_block_append(g, in);
         /* An instruction that writes the guard ends the run: what comes
          * after it sees the new value. */
         if (writes_reg(in, guard))
            in_run = false;
      } else {
         cuvk_ir_block_append(t, in);
      }
      pos = next;
   }

   /* t takes b's terminator and successors. */
   t->term = b->term;
   t->term_line = b->term_line;
   t->uniform = b->uniform;
   t->cond = b->cond;
   t->succs = b->succs;
   t->succ_count = b->succ_count;
   cuvk_ir_set_end(b, CUVK_IR_TERM_NONE);
   struct cuvk_ir_value cond = cuvk_ir_reg_value(guard);
   cond.negated = negated;
   if (!cuvk_ir_set_cbr(m, b, cond, g, t) || !cuvk_ir_set_br(m, g, t))
      return no_memory(err);
   b->term_line = first->line;
   b->uniform = false;
   *split = true;
   return true;
}

bool
cuvk_ir_lower_guards(struct cuvk_ir_function *f, struct cuvk_cc_error *err)
{
   bool changed = false;

   /* New blocks go last, so this loop reaches them too: a tail block may
    * hold the next guarded run. */
   for (unsigned i = 0; i < f->block_count; i++) {
      bool split;
      if (!split_block(f, f->blocks[i], &split, err))
         return false;
      changed |= split;
   }
   if (changed && !cuvk_ir_compute_preds(f))
      return no_memory(err);
   return true;
}
