/*
 * Which kernel parameter a pointer register came from.
 *
 * The launch code gives a kernel, for each 8-byte word of its parameter
 * block that holds a pointer into an allocation, the span around it that
 * one delta translates (kernel_abi.h, "spans").  An access through a
 * register computed from such a word then checks its address against the
 * span, loaded once, instead of reading the page table.  This pass finds
 * the word for each register: the usual shape nvcc writes is
 *
 *    ld.param.u64      %rd1, [k_param_2];
 *    cvta.to.global.u64 %rd4, %rd1;
 *    mul.wide.s32      %rd5, %r1, 4;
 *    add.s64           %rd6, %rd4, %rd5;
 *    ld.global.f32     %f1, [%rd6];
 *
 * The answer is a guess the emitter checks at run time (an address outside
 * the span takes the page table), so it only has to be right often, never
 * always: the analysis ignores control flow and looks at every definition
 * of a register at once.  A register's state only rises, from "nothing
 * seen" to "word w" to "several words" (which reads as none), so the
 * iteration ends after at most two changes per register.
 *
 *    ld.param (64-bit, a kernel parameter's word)   word of the load
 *    mov, cvta.global/.const (to or from generic)   the source's
 *    add                                            the operand that has one
 *    sub                                            the first operand's
 *    mad (.wide or .lo)                             the addend's
 *
 * Any other definition says nothing (a pointer loaded from memory, a
 * register that is no pointer at all): it neither sets nor spoils.
 */
#include "compiler/ir_passes.h"

#define SEEN_NONE 0u
#define SEEN_MANY UINT32_MAX   /* state = word + 1 otherwise */

static bool
has_mod(const struct cuvk_ir_instr *in, enum ptx_modifier m)
{
   for (unsigned i = 0; i < in->mod_count; i++)
      if (in->mods[i] == m)
         return true;
   return false;
}

static bool
is_64bit(const struct cuvk_ir_instr *in)
{
   return has_mod(in, PTX_MOD_U64) || has_mod(in, PTX_MOD_S64) || has_mod(in, PTX_MOD_B64);
}

static uint32_t
state_of(const uint32_t *state, uint32_t reg_count, const struct cuvk_ir_value *v)
{
   if (v->kind != CUVK_IR_VAL_REG || v->reg > reg_count)
      return SEEN_NONE;
   return state[v->reg];
}

/* The word a 64-bit ld.param of a kernel parameter reads, as a state. */
static uint32_t
param_load(const struct cuvk_ir_function *f, const uint32_t *param_offset,
           const struct cuvk_ir_instr *in)
{
   if (!(has_mod(in, PTX_MOD_PARAM) || has_mod(in, PTX_MOD_PARAM_ENTRY)) || !is_64bit(in) ||
       has_mod(in, PTX_MOD_V2) || has_mod(in, PTX_MOD_V4) || in->src_count != 1 ||
       in->dst_count != 1)
      return SEEN_NONE;
   const struct cuvk_ir_value *a = &in->src[0];
   if (a->kind != CUVK_IR_VAL_ADDR || a->has_reg || !a->var)
      return SEEN_NONE;
   for (size_t i = 0; i < f->param_count; i++) {
      if (f->params[i] != a->var)
         continue;
      uint64_t at = (uint64_t)param_offset[i] + a->imm;
      if (at % 8 || a->imm + 8 > a->var->size || at / 8 >= SEEN_MANY - 1)
         return SEEN_NONE;
      return (uint32_t)(at / 8) + 1;
   }
   return SEEN_NONE;
}

/* What in says about its destination. */
static uint32_t
contribution(const struct cuvk_ir_function *f, const uint32_t *param_offset,
             const uint32_t *state, const struct cuvk_ir_instr *in)
{
   uint32_t n = f->reg_count;
   uint32_t a, b;

   switch (in->op) {
   case PTX_OP_LD:
      return param_load(f, param_offset, in);
   case PTX_OP_MOV:
      return in->src_count == 1 ? state_of(state, n, &in->src[0]) : SEEN_NONE;
   case PTX_OP_CVTA:
      if (in->src_count != 1 || !(has_mod(in, PTX_MOD_GLOBAL) || has_mod(in, PTX_MOD_CONST)))
         return SEEN_NONE;
      return state_of(state, n, &in->src[0]);
   case PTX_OP_ADD:
      if (in->src_count != 2 || !is_64bit(in))
         return SEEN_NONE;
      a = state_of(state, n, &in->src[0]);
      b = state_of(state, n, &in->src[1]);
      return a != SEEN_NONE && a != SEEN_MANY ? a : b;
   case PTX_OP_SUB:
      return in->src_count == 2 && is_64bit(in) ? state_of(state, n, &in->src[0]) : SEEN_NONE;
   case PTX_OP_MAD:
      return in->src_count == 3 ? state_of(state, n, &in->src[2]) : SEEN_NONE;
   default:
      return SEEN_NONE;
   }
}

uint32_t *
cuvk_ir_param_pointers(const struct cuvk_ir_function *f, const uint32_t *param_offset,
                       struct cuvk_arena *arena)
{
   uint32_t *state = cuvk_arena_array(arena, (size_t)f->reg_count + 1, sizeof(*state));
   if (!state)
      return NULL;

   bool changed = true;
   while (changed) {
      changed = false;
      for (unsigned bi = 0; bi < f->block_count; bi++) {
         cuvk_list_for_each_entry(struct cuvk_ir_instr, in, &f->blocks[bi]->instrs, link) {
            if (in->dst_count != 1 || in->dst[0].kind != CUVK_IR_VAL_REG ||
                in->dst[0].reg > f->reg_count)
               continue;
            uint32_t c = contribution(f, param_offset, state, in);
            uint32_t *s = &state[in->dst[0].reg];
            if (c == SEEN_NONE || c == *s || *s == SEEN_MANY)
               continue;
            *s = *s == SEEN_NONE ? c : SEEN_MANY;
            changed = true;
         }
      }
   }
   for (uint32_t r = 0; r <= f->reg_count; r++)
      state[r] = state[r] == SEEN_NONE || state[r] == SEEN_MANY ? CUVK_IR_NO_WORD : state[r] - 1;
   return state;
}
