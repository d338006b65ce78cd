/*
 * IR lifetime, the builder (ir_builder.h) and the small tables.
 */
#include "compiler/ir.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/ir_builder.h"

struct cuvk_ir_module *
cuvk_ir_module_create(void)
{
   struct cuvk_ir_module *m = calloc(1, sizeof(*m));

   if (m)
      cuvk_arena_init(&m->arena);
   return m;
}

void
cuvk_ir_module_destroy(struct cuvk_ir_module *module)
{
   if (!module)
      return;
   cuvk_arena_finish(&module->arena);
   free(module);
}

struct cuvk_ir_function *
cuvk_ir_function_create(struct cuvk_ir_module *m, const char *name)
{
   struct cuvk_ir_function *f;

   if (!cuvk_arena_push(&m->arena, m->funcs, m->func_count, m->func_cap) ||
       !(f = cuvk_arena_alloc(&m->arena, sizeof(*f))))
      return NULL;
   f->module = m;
   f->name = name;
   f->index = (unsigned)m->func_count;
   m->funcs[m->func_count++] = f;
   return f;
}

struct cuvk_ir_block *
cuvk_ir_block_new(struct cuvk_ir_function *f, const char *label)
{
   struct cuvk_ir_block *b = cuvk_arena_alloc(&f->module->arena, sizeof(*b));

   if (!b)
      return NULL;
   b->label = label;
   b->index = UINT32_MAX;
   cuvk_list_init(&b->instrs);
   return b;
}

bool
cuvk_ir_block_place(struct cuvk_ir_function *f, struct cuvk_ir_block *b)
{
   size_t count = f->block_count, cap = f->block_cap;

   if (!cuvk_arena_push(&f->module->arena, f->blocks, count, cap))
      return false;
   f->block_cap = (unsigned)cap;
   b->index = f->block_count;
   f->blocks[f->block_count++] = b;
   return true;
}

struct cuvk_ir_block *
cuvk_ir_block_create(struct cuvk_ir_function *f, const char *label)
{
   struct cuvk_ir_block *b = cuvk_ir_block_new(f, label);

   if (!b || !cuvk_ir_block_place(f, b))
      return NULL;
   return b;
}

uint32_t
cuvk_ir_reg_create(struct cuvk_ir_function *f, const char *name, enum cuvk_ir_type type)
{
   size_t count = f->reg_count, cap = f->reg_cap;

   if (f->reg_count >= UINT32_MAX - 1 ||
       !cuvk_arena_push(&f->module->arena, f->regs, count, cap))
      return CUVK_IR_NO_REG;
   f->reg_cap = (uint32_t)cap;
   f->regs[f->reg_count].name = name;
   f->regs[f->reg_count].type = type;
   return f->reg_count++;
}

struct cuvk_ir_var *
cuvk_ir_var_create(struct cuvk_ir_module *m, struct cuvk_ir_function *f, const char *name,
                   enum ptx_space space)
{
   struct cuvk_ir_var *v = cuvk_arena_alloc(&m->arena, sizeof(*v));

   if (!v)
      return NULL;
   v->name = name;
   v->space = space;
   if (f) {
      if (!cuvk_arena_push(&m->arena, f->vars, f->var_count, f->var_cap))
         return NULL;
      v->index = (unsigned)f->var_count;
      f->vars[f->var_count++] = v;
   } else {
      if (!cuvk_arena_push(&m->arena, m->vars, m->var_count, m->var_cap))
         return NULL;
      v->index = (unsigned)m->var_count;
      m->vars[m->var_count++] = v;
   }
   return v;
}

struct cuvk_ir_instr *
cuvk_ir_instr_create(struct cuvk_ir_module *m, enum ptx_opcode op, unsigned dst_count,
                     unsigned src_count)
{
   struct cuvk_ir_instr *in = cuvk_arena_alloc(&m->arena, sizeof(*in));

   if (!in)
      return NULL;
   in->op = op;
   if (dst_count && !(in->dst = cuvk_arena_array(&m->arena, dst_count, sizeof(*in->dst))))
      return NULL;
   if (src_count && !(in->src = cuvk_arena_array(&m->arena, src_count, sizeof(*in->src))))
      return NULL;
   in->dst_count = dst_count;
   in->src_count = src_count;
   return in;
}

static bool
set_succs(struct cuvk_ir_module *m, struct cuvk_ir_block *b, enum cuvk_ir_term term,
          struct cuvk_ir_block **succs, unsigned count)
{
   b->succs = cuvk_arena_array(&m->arena, count, sizeof(*b->succs));
   if (!b->succs)
      return false;
   memcpy(b->succs, succs, count * sizeof(*succs));
   b->succ_count = count;
   b->term = term;
   return true;
}

bool
cuvk_ir_set_br(struct cuvk_ir_module *m, struct cuvk_ir_block *b, struct cuvk_ir_block *to)
{
   return set_succs(m, b, CUVK_IR_TERM_BR, &to, 1);
}

bool
cuvk_ir_set_cbr(struct cuvk_ir_module *m, struct cuvk_ir_block *b, struct cuvk_ir_value cond,
                struct cuvk_ir_block *if_true, struct cuvk_ir_block *if_false)
{
   struct cuvk_ir_block *s[2] = { if_true, if_false };

   b->cond = cond;
   return set_succs(m, b, CUVK_IR_TERM_CBR, s, 2);
}

bool
cuvk_ir_set_switch(struct cuvk_ir_module *m, struct cuvk_ir_block *b, struct cuvk_ir_value index,
                   struct cuvk_ir_block **targets, unsigned count)
{
   b->cond = index;
   return set_succs(m, b, CUVK_IR_TERM_SWITCH, targets, count);
}

void
cuvk_ir_set_end(struct cuvk_ir_block *b, enum cuvk_ir_term term)
{
   b->term = term;
   b->succs = NULL;
   b->succ_count = 0;
}

bool
cuvk_ir_compute_preds(struct cuvk_ir_function *f)
{
   struct cuvk_arena *arena = &f->module->arena;

   for (unsigned i = 0; i < f->block_count; i++) {
      f->blocks[i]->pred_count = 0;
   }
   for (unsigned i = 0; i < f->block_count; i++) {
      struct cuvk_ir_block *b = f->blocks[i];
      for (unsigned s = 0; s < b->succ_count; s++) {
         struct cuvk_ir_block *t = b->succs[s];
         size_t count = t->pred_count, cap = t->pred_cap;
         if (!cuvk_arena_push(arena, t->preds, count, cap))
            return false;
         t->pred_cap = (unsigned)cap;
         t->preds[t->pred_count++] = b;
      }
   }
   return true;
}

static const char *const type_names[CUVK_IR_TYPE_COUNT] = {
   [CUVK_IR_PRED] = "pred", [CUVK_IR_B8] = "b8", [CUVK_IR_B16] = "b16",
   [CUVK_IR_B32] = "b32", [CUVK_IR_B64] = "b64", [CUVK_IR_B128] = "b128",
   [CUVK_IR_F16] = "f16", [CUVK_IR_F16X2] = "f16x2", [CUVK_IR_BF16] = "bf16",
   [CUVK_IR_BF16X2] = "bf16x2", [CUVK_IR_F32] = "f32", [CUVK_IR_F64] = "f64",
};

static const unsigned type_bits[CUVK_IR_TYPE_COUNT] = {
   [CUVK_IR_PRED] = 1, [CUVK_IR_B8] = 8, [CUVK_IR_B16] = 16, [CUVK_IR_B32] = 32,
   [CUVK_IR_B64] = 64, [CUVK_IR_B128] = 128, [CUVK_IR_F16] = 16, [CUVK_IR_F16X2] = 32,
   [CUVK_IR_BF16] = 16, [CUVK_IR_BF16X2] = 32, [CUVK_IR_F32] = 32, [CUVK_IR_F64] = 64,
};

const char *
cuvk_ir_type_name(enum cuvk_ir_type type)
{
   return type < CUVK_IR_TYPE_COUNT ? type_names[type] : "?";
}

unsigned
cuvk_ir_type_bits(enum cuvk_ir_type type)
{
   return type < CUVK_IR_TYPE_COUNT ? type_bits[type] : 0;
}

static const struct {
   const char *name;
   unsigned components;
} specials[CUVK_IR_SPECIAL_COUNT] = {
#define CUVK_IR_SPECIAL_ROW(e, n, c) [CUVK_IR_SPECIAL_##e] = { n, c },
   CUVK_IR_SPECIALS(CUVK_IR_SPECIAL_ROW)
#undef CUVK_IR_SPECIAL_ROW
};

const char *
cuvk_ir_special_name(enum cuvk_ir_special special)
{
   return special < CUVK_IR_SPECIAL_COUNT ? specials[special].name : "%?";
}

unsigned
cuvk_ir_special_components(enum cuvk_ir_special special)
{
   return special < CUVK_IR_SPECIAL_COUNT ? specials[special].components : 0;
}

enum cuvk_ir_type
cuvk_ir_type_of_ptx(enum ptx_modifier type)
{
   switch (type) {
   case PTX_MOD_PRED: return CUVK_IR_PRED;
   case PTX_MOD_B8: case PTX_MOD_U8: case PTX_MOD_S8: return CUVK_IR_B8;
   case PTX_MOD_B16: case PTX_MOD_U16: case PTX_MOD_S16: return CUVK_IR_B16;
   case PTX_MOD_B32: case PTX_MOD_U32: case PTX_MOD_S32: return CUVK_IR_B32;
   case PTX_MOD_B64: case PTX_MOD_U64: case PTX_MOD_S64: return CUVK_IR_B64;
   case PTX_MOD_B128: return CUVK_IR_B128;
   case PTX_MOD_F16: return CUVK_IR_F16;
   case PTX_MOD_F16X2: return CUVK_IR_F16X2;
   case PTX_MOD_BF16: return CUVK_IR_BF16;
   case PTX_MOD_BF16X2: return CUVK_IR_BF16X2;
   case PTX_MOD_F32: return CUVK_IR_F32;
   case PTX_MOD_F64: return CUVK_IR_F64;
   default: return CUVK_IR_TYPE_COUNT;
   }
}

unsigned
cuvk_ptx_type_bytes(enum ptx_modifier type)
{
   if (!ptx_modifier_is_type(type))
      return 0;
   if (type == PTX_MOD_PRED)
      return 1;
   return ptx_modifier_table[type].bits / 8;
}
