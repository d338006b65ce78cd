/*
 * The IR as text: what the tests compare and what a developer reads.
 * One line per variable, instruction and terminator; blocks are named
 * bbN by their index, with the PTX label they came from and their
 * predecessors in a comment, so the CFG can be read off the text.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir.h"

struct out {
   char *buf;
   size_t len, cap;
   bool failed;
};

static void __attribute__((format(printf, 2, 3)))
put(struct out *o, const char *fmt, ...)
{
   va_list ap;

   if (o->failed)
      return;
   for (;;) {
      size_t room = o->cap - o->len;
      va_start(ap, fmt);
      int n = vsnprintf(o->buf ? o->buf + o->len : NULL, room, fmt, ap);
      va_end(ap);
      if (n < 0) {
         o->failed = true;
         return;
      }
      if ((size_t)n < room) {
         o->len += (size_t)n;
         return;
      }
      size_t cap = o->cap ? o->cap * 2 : 4096;
      while (cap - o->len <= (size_t)n)
         cap *= 2;
      char *b = realloc(o->buf, cap);
      if (!b) {
         o->failed = true;
         return;
      }
      o->buf = b;
      o->cap = cap;
   }
}

static void
put_offset(struct out *o, uint64_t off)
{
   int64_t s = (int64_t)off;

   if (s > 0)
      put(o, "+%" PRId64, s);
   else if (s < 0)
      put(o, "-%" PRIu64, (uint64_t)0 - off);
}

static void
put_value(struct out *o, const struct cuvk_ir_function *f, const struct cuvk_ir_value *v)
{
   switch (v->kind) {
   case CUVK_IR_VAL_NONE:
      put(o, "_");
      break;
   case CUVK_IR_VAL_REG:
      put(o, "%s%s", v->negated ? "!" : "", f->regs[v->reg].name);
      break;
   case CUVK_IR_VAL_IMM:
      if (v->imm_kind == CUVK_IR_IMM_F32)
         put(o, "0f%08" PRIX32, (uint32_t)v->imm);
      else if (v->imm_kind == CUVK_IR_IMM_F64)
         put(o, "0d%016" PRIX64, v->imm);
      else
         put(o, "%" PRId64, (int64_t)v->imm);
      break;
   case CUVK_IR_VAL_SPECIAL:
      put(o, "%s", cuvk_ir_special_name(v->special));
      if (cuvk_ir_special_components(v->special))
         put(o, ".%c", "xyzw"[v->component & 3]);
      break;
   case CUVK_IR_VAL_VAR:
      put(o, "%s", v->var->name);
      put_offset(o, v->imm);
      break;
   case CUVK_IR_VAL_FUNC:
      put(o, "%s", v->func->name);
      break;
   case CUVK_IR_VAL_ADDR:
      put(o, "[");
      if (v->has_reg)
         put(o, "%s", f->regs[v->reg].name);
      else if (v->var)
         put(o, "%s", v->var->name);
      if (v->has_reg || v->var)
         put_offset(o, v->imm);
      else
         put(o, "%" PRIu64, v->imm);
      put(o, "]");
      break;
   }
}

static void
put_values(struct out *o, const struct cuvk_ir_function *f, const struct cuvk_ir_value *v,
           unsigned count)
{
   for (unsigned i = 0; i < count; i++) {
      put(o, "%s", i ? ", " : "");
      put_value(o, f, &v[i]);
   }
}

static void
put_var(struct out *o, const struct cuvk_ir_var *v, const char *indent)
{
   static const char *const linkage[] = { "", ".visible ", ".extern ", ".weak ", ".common " };

   put(o, "%s%s%s %s%s %s: ", indent, linkage[v->linkage], v->is_param ? "param" : "var",
       ptx_space_name(v->space), v->managed ? " managed" : "", v->name);
   if (v->unsized)
      put(o, "%s[] align %u", ptx_modifier_table[v->elem_type].name + 1, v->align);
   else
      put(o, "%" PRIu64 " bytes of %s align %u", v->size,
          ptx_modifier_table[v->elem_type].name + 1, v->align);
   if (v->init) {
      /* Trailing zeros are implied, so a 213 KB table prints its head. */
      uint64_t n = v->size;
      while (n > 0 && v->init[n - 1] == 0)
         n--;
      put(o, " =");
      if (n == 0)
         put(o, " zero");
      for (uint64_t i = 0; i < n && i < 32; i++)
         put(o, " %02x", v->init[i]);
      if (n > 32)
         put(o, " ...(%" PRIu64 " bytes)", n);
      for (size_t r = 0; r < v->reloc_count; r++) {
         const struct cuvk_ir_reloc *rl = &v->relocs[r];
         const char *target = rl->var ? rl->var->name : rl->func->name;
         put(o, " @%" PRIu64 "=", rl->offset);
         put(o, rl->generic ? "generic(&%s)" : "&%s", target);
         put_offset(o, rl->addend);
      }
   }
   put(o, "\n");
}

static void
put_block_ref(struct out *o, const struct cuvk_ir_block *b)
{
   put(o, "bb%u", b->index);
}

static void
put_block(struct out *o, const struct cuvk_ir_function *f, const struct cuvk_ir_block *b)
{
   put_block_ref(o, b);
   put(o, ":");
   if (b->label)
      put(o, " ; %s", b->label);
   put(o, b->label ? "," : " ;");
   if (b->pred_count == 0) {
      put(o, " no preds");
   } else {
      put(o, " preds");
      for (unsigned i = 0; i < b->pred_count; i++) {
         put(o, " ");
         put_block_ref(o, b->preds[i]);
      }
   }
   put(o, "\n");

   cuvk_list_for_each_entry(struct cuvk_ir_instr, in, &b->instrs, link) {
      put(o, "   ");
      if (in->guarded)
         put(o, "@%s%s ", in->guard_negated ? "!" : "", f->regs[in->guard].name);
      if (in->dst_count == 1) {
         put_value(o, f, &in->dst[0]);
         put(o, " = ");
      } else if (in->dst_count > 1) {
         put(o, "{");
         put_values(o, f, in->dst, in->dst_count);
         put(o, "} = ");
      }
      put(o, "%s", ptx_opcode_table[in->op].name);
      for (unsigned i = 0; i < in->mod_count; i++)
         put(o, "%s", ptx_modifier_table[in->mods[i]].name);
      if (in->src_count) {
         put(o, " ");
         put_values(o, f, in->src, in->src_count);
      }
      put(o, "\n");
   }

   put(o, "   ");
   switch (b->term) {
   case CUVK_IR_TERM_NONE:
      put(o, "(no terminator)");
      break;
   case CUVK_IR_TERM_BR:
      put(o, "br%s ", b->uniform ? ".uni" : "");
      put_block_ref(o, b->succs[0]);
      break;
   case CUVK_IR_TERM_CBR:
      put(o, "cbr%s ", b->uniform ? ".uni" : "");
      put_value(o, f, &b->cond);
      put(o, ", ");
      put_block_ref(o, b->succs[0]);
      put(o, ", ");
      put_block_ref(o, b->succs[1]);
      break;
   case CUVK_IR_TERM_SWITCH:
      put(o, "switch ");
      put_value(o, f, &b->cond);
      for (unsigned i = 0; i < b->succ_count; i++) {
         put(o, ", ");
         put_block_ref(o, b->succs[i]);
      }
      break;
   case CUVK_IR_TERM_RET:
      put(o, "ret");
      break;
   case CUVK_IR_TERM_EXIT:
      put(o, "exit");
      break;
   case CUVK_IR_TERM_TRAP:
      put(o, "trap");
      break;
   case CUVK_IR_TERM_UNREACHABLE:
      put(o, "unreachable");
      break;
   }
   put(o, "\n");
}

static void
put_function(struct out *o, const struct cuvk_ir_function *f)
{
   static const char *const linkage[] = { "", ".visible ", ".extern ", ".weak ", ".common " };

   put(o, "%s%s %s(", linkage[f->linkage], f->is_entry ? "entry" : "func", f->name);
   for (size_t i = 0; i < f->param_count; i++) {
      put(o, "%s", i ? ", " : "");
      if (f->params[i])
         put(o, "%s", f->params[i]->name);
      else
         put(o, "%s:%s", f->regs[f->param_regs[i]].name,
             cuvk_ir_type_name(f->regs[f->param_regs[i]].type));
   }
   put(o, ")");
   if (f->ret_count) {
      put(o, " -> (");
      for (size_t i = 0; i < f->ret_count; i++) {
         put(o, "%s", i ? ", " : "");
         if (f->rets[i])
            put(o, "%s", f->rets[i]->name);
         else
            put(o, "%s:%s", f->regs[f->ret_regs[i]].name,
                cuvk_ir_type_name(f->regs[f->ret_regs[i]].type));
      }
      put(o, ")");
   }
   if (!f->has_body) {
      put(o, ";\n");
      return;
   }
   put(o, "\n");
   if (f->maxntid[0])
      put(o, "   maxntid %u, %u, %u\n", f->maxntid[0], f->maxntid[1], f->maxntid[2]);
   if (f->reqntid[0])
      put(o, "   reqntid %u, %u, %u\n", f->reqntid[0], f->reqntid[1], f->reqntid[2]);
   for (size_t i = 0; i < f->param_count; i++)
      if (f->params[i])
         put_var(o, f->params[i], "   ");
   for (size_t i = 0; i < f->ret_count; i++)
      if (f->rets[i])
         put_var(o, f->rets[i], "   ");
   for (size_t i = 0; i < f->var_count; i++)
      if (!f->vars[i]->is_param)
         put_var(o, f->vars[i], "   ");

   /* Registers counted by type: the names are in the instructions. */
   unsigned count[CUVK_IR_TYPE_COUNT] = { 0 };
   for (uint32_t i = 0; i < f->reg_count; i++)
      count[f->regs[i].type]++;
   put(o, "   regs");
   for (unsigned t = 0; t < CUVK_IR_TYPE_COUNT; t++)
      if (count[t])
         put(o, " %s:%u", cuvk_ir_type_name((enum cuvk_ir_type)t), count[t]);
   put(o, "\n");
   for (unsigned i = 0; i < f->block_count; i++)
      put_block(o, f, f->blocks[i]);
}

char *
cuvk_ir_print(const struct cuvk_ir_module *module)
{
   struct out o = { 0 };

   put(&o, "; PTX %u.%u %s\n", module->ptx_version_major, module->ptx_version_minor,
       module->target);
   for (size_t i = 0; i < module->var_count; i++)
      put_var(&o, module->vars[i], "");
   for (size_t i = 0; i < module->func_count; i++)
      put_function(&o, module->funcs[i]);
   if (o.failed) {
      free(o.buf);
      return NULL;
   }
   return o.buf;
}
