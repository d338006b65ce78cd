/*
 * The invariants every pass may rely on, checked after lowering and (in
 * the tests) after every pass, in the spirit of nir_validate: a pass that
 * breaks the IR is caught where it did, not three passes later.
 *
 * Checked: blocks are numbered by their place; the entry has no
 * predecessors; every block has exactly one terminator, with the
 * successor count its kind needs, successors in the same function, and
 * predecessor lists that match the edges exactly; branch conditions and
 * guards are .pred registers; every register index is in range; branch
 * opcodes never appear as instructions; destinations are registers (or
 * _), a call's may be .param slots; setp writes predicates; a call's
 * first source is a function.
 */
#include <stdarg.h>
#include <stdio.h>

#include "compiler/ir.h"

struct validator {
   const struct cuvk_ir_function *f;
   const struct cuvk_ir_block *b;
   struct cuvk_cc_error *err;
};

static bool __attribute__((format(printf, 3, 4)))
invalid(struct validator *v, unsigned line, const char *fmt, ...)
{
   char msg[180];
   va_list ap;

   va_start(ap, fmt);
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);
   if (v->b)
      return cuvk_cc_fail(v->err, CUVK_CC_INVALID, line, 0, "IR of %s, bb%u: %s",
                          v->f->name, v->b->index, msg);
   return cuvk_cc_fail(v->err, CUVK_CC_INVALID, line, 0, "IR of %s: %s", v->f->name, msg);
}

static bool
reg_ok(struct validator *v, uint32_t reg, unsigned line)
{
   if (reg >= v->f->reg_count)
      return invalid(v, line, "register %u out of range (%u)", reg, v->f->reg_count);
   return true;
}

static bool
value_ok(struct validator *v, const struct cuvk_ir_value *val, unsigned line)
{
   switch (val->kind) {
   case CUVK_IR_VAL_NONE:
   case CUVK_IR_VAL_IMM:
      return true;
   case CUVK_IR_VAL_REG:
      if (!reg_ok(v, val->reg, line))
         return false;
      if (val->negated && v->f->regs[val->reg].type != CUVK_IR_PRED)
         return invalid(v, line, "'!' on %s, which is no predicate", v->f->regs[val->reg].name);
      return true;
   case CUVK_IR_VAL_SPECIAL:
      if (val->special >= CUVK_IR_SPECIAL_COUNT)
         return invalid(v, line, "unknown special register");
      if (val->component >= (cuvk_ir_special_components(val->special) ?
                             cuvk_ir_special_components(val->special) : 1))
         return invalid(v, line, "%s has no component %u", cuvk_ir_special_name(val->special),
                        val->component);
      return true;
   case CUVK_IR_VAL_VAR:
      return val->var ? true : invalid(v, line, "variable operand without a variable");
   case CUVK_IR_VAL_FUNC:
      return val->func ? true : invalid(v, line, "function operand without a function");
   case CUVK_IR_VAL_ADDR:
      if (val->has_reg && val->var)
         return invalid(v, line, "an address with both a register and a variable base");
      return !val->has_reg || reg_ok(v, val->reg, line);
   }
   return invalid(v, line, "value of unknown kind %d", (int)val->kind);
}

static bool
is_pred_reg(const struct validator *v, const struct cuvk_ir_value *val)
{
   return val->kind == CUVK_IR_VAL_REG && val->reg < v->f->reg_count &&
          v->f->regs[val->reg].type == CUVK_IR_PRED;
}

static bool
instr_ok(struct validator *v, const struct cuvk_ir_instr *in)
{
   unsigned line = in->line;

   if (in->op >= PTX_OP_COUNT)
      return invalid(v, line, "opcode %d out of range", (int)in->op);
   const struct ptx_opcode_info *info = &ptx_opcode_table[in->op];
   if (in->op == PTX_OP_BRA || in->op == PTX_OP_BRX || in->op == PTX_OP_RET ||
       in->op == PTX_OP_EXIT || in->op == PTX_OP_TRAP)
      return invalid(v, line, "%s as an instruction; it must be the block's terminator",
                     info->name);
   if (in->mod_count > PTX_MAX_MODIFIERS)
      return invalid(v, line, "%u modifiers", in->mod_count);
   for (unsigned i = 0; i < in->mod_count; i++)
      if (in->mods[i] >= PTX_MOD_COUNT)
         return invalid(v, line, "modifier %d out of range", (int)in->mods[i]);
   if (in->guarded) {
      if (!reg_ok(v, in->guard, line))
         return false;
      if (v->f->regs[in->guard].type != CUVK_IR_PRED)
         return invalid(v, line, "guard %s is not a predicate", v->f->regs[in->guard].name);
   }
   if ((in->dst_count && !in->dst) || (in->src_count && !in->src))
      return invalid(v, line, "operand count without operands");
   for (unsigned i = 0; i < in->dst_count; i++) {
      const struct cuvk_ir_value *d = &in->dst[i];
      bool slot = in->op == PTX_OP_CALL && d->kind == CUVK_IR_VAL_VAR;
      if (d->kind != CUVK_IR_VAL_REG && d->kind != CUVK_IR_VAL_NONE && !slot)
         return invalid(v, line, "%s writes something that is not a register", info->name);
      if (!value_ok(v, d, line))
         return false;
   }
   for (unsigned i = 0; i < in->src_count; i++)
      if (!value_ok(v, &in->src[i], line))
         return false;
   if (in->op == PTX_OP_SETP) {
      for (unsigned i = 0; i < in->dst_count; i++)
         if (in->dst[i].kind == CUVK_IR_VAL_REG && !is_pred_reg(v, &in->dst[i]))
            return invalid(v, line, "setp writes %s, which is no predicate",
                           v->f->regs[in->dst[i].reg].name);
   }
   if (in->op == PTX_OP_CALL && (in->src_count == 0 || in->src[0].kind != CUVK_IR_VAL_FUNC))
      return invalid(v, line, "call without a function to call");
   return true;
}

static unsigned
count_edges(const struct cuvk_ir_block *from, const struct cuvk_ir_block *to)
{
   unsigned n = 0;

   for (unsigned i = 0; i < from->succ_count; i++)
      n += from->succs[i] == to;
   return n;
}

static bool
block_ok(struct validator *v, const struct cuvk_ir_block *b)
{
   const struct cuvk_ir_function *f = v->f;
   unsigned line = b->term_line ? b->term_line : b->line;
   unsigned want;

   switch (b->term) {
   case CUVK_IR_TERM_BR:
      want = 1;
      break;
   case CUVK_IR_TERM_CBR:
      want = 2;
      if (!is_pred_reg(v, &b->cond))
         return invalid(v, line, "cbr's condition is not a predicate register");
      break;
   case CUVK_IR_TERM_SWITCH:
      want = b->succ_count ? b->succ_count : 1;
      if (b->cond.kind != CUVK_IR_VAL_REG && b->cond.kind != CUVK_IR_VAL_IMM)
         return invalid(v, line, "switch index is not a value");
      if (!value_ok(v, &b->cond, line))
         return false;
      break;
   case CUVK_IR_TERM_RET:
   case CUVK_IR_TERM_EXIT:
   case CUVK_IR_TERM_TRAP:
   case CUVK_IR_TERM_UNREACHABLE:
      want = 0;
      break;
   default:
      return invalid(v, line, "no terminator");
   }
   if (b->succ_count != want)
      return invalid(v, line, "%u successors where the terminator has %u", b->succ_count, want);
   for (unsigned i = 0; i < b->succ_count; i++) {
      const struct cuvk_ir_block *s = b->succs[i];
      if (!s || s->index >= f->block_count || f->blocks[s->index] != s)
         return invalid(v, line, "successor %u is not a block of the function", i);
   }
   for (unsigned i = 0; i < b->pred_count; i++) {
      const struct cuvk_ir_block *p = b->preds[i];
      if (!p || p->index >= f->block_count || f->blocks[p->index] != p)
         return invalid(v, line, "predecessor %u is not a block of the function", i);
      unsigned listed = 0;
      for (unsigned j = 0; j < b->pred_count; j++)
         listed += b->preds[j] == p;
      if (listed != count_edges(p, b))
         return invalid(v, line, "bb%u is listed %u times as a predecessor, has %u edges here",
                        p->index, listed, count_edges(p, b));
   }
   cuvk_list_for_each_entry(struct cuvk_ir_instr, in, &b->instrs, link)
      if (!instr_ok(v, in))
         return false;
   return true;
}

static bool
function_ok(struct validator *v)
{
   const struct cuvk_ir_function *f = v->f;

   if (!f->has_body)
      return f->block_count == 0 || invalid(v, f->line, "a declaration with blocks");
   if (f->block_count == 0)
      return invalid(v, f->line, "a body without blocks");
   for (unsigned i = 0; i < f->block_count; i++)
      if (!f->blocks[i] || f->blocks[i]->index != i)
         return invalid(v, f->line, "block %u is numbered wrongly", i);
   if (f->blocks[0]->pred_count)
      return invalid(v, f->line, "the entry block has predecessors");

   /* Every edge is seen from both ends: successors sum to predecessors. */
   size_t succs = 0, preds = 0;
   for (unsigned i = 0; i < f->block_count; i++) {
      succs += f->blocks[i]->succ_count;
      preds += f->blocks[i]->pred_count;
   }
   for (unsigned i = 0; i < f->block_count; i++) {
      v->b = f->blocks[i];
      if (!block_ok(v, f->blocks[i]))
         return false;
   }
   v->b = NULL;
   if (succs != preds)
      return invalid(v, f->line, "%zu edges leave blocks but %zu arrive", succs, preds);
   for (size_t i = 0; i < f->param_count; i++)
      if (!f->params[i] && !reg_ok(v, f->param_regs[i], f->line))
         return false;
   return true;
}

bool
cuvk_ir_validate(const struct cuvk_ir_module *module, struct cuvk_cc_error *err)
{
   struct validator v = { .err = err };

   for (size_t i = 0; i < module->func_count; i++) {
      v.f = module->funcs[i];
      v.b = NULL;
      if (!function_ok(&v))
         return false;
   }
   return true;
}
