/*
 * Which registers of a kernel hold one value for every thread of a
 * launch: the kernel's parameters, as nvcc loads them at its start.
 *
 * Texture and surface handles nearly always arrive as parameters
 *
 *    ld.param.u64   %rd1, [k_param_0];
 *    ...
 *    tex.2d.v4.u32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%f1, %f2}];
 *
 * and the emitter can then index the descriptor array with a dynamically
 * uniform index: no NonUniform decoration (NVIDIA's compiler keeps the
 * descriptor in its uniform path) and no loop making the index uniform
 * (devices without non-uniform indexing run the loop at every access).
 *
 * Unlike ir_param_ptr.c's guess, this answer must be right: a register
 * counts only when its one definition in the function is an ld.param of
 * one of the kernel's parameters, or a mov or cvta of a register that
 * counts, in the entry block, with no guard, and no instruction of the
 * entry block reads it before that definition.  The entry block runs once
 * in every thread before any branch, so every later read sees the value
 * it defined, which is the same in every thread.  A register written
 * anywhere else, twice, or by anything else does not count.
 */
#include "compiler/ir_passes.h"

static bool
defines_uniform(const struct cuvk_ir_function *f, const struct cuvk_ir_instr *in, const bool *uniform)
{
   if (in->guarded || in->dst_count != 1 || in->src_count != 1)
      return false;
   const struct cuvk_ir_value *s = &in->src[0];
   switch (in->op) {
   case PTX_OP_LD:
      /* ld.param [k_param_n]: the address of one of this kernel's
       * parameters, read as a whole from the launch's parameter block. */
      if (s->kind != CUVK_IR_VAL_ADDR || s->has_reg || !s->var || s->var->space != PTX_SPACE_PARAM)
         return false;
      for (size_t i = 0; i < f->param_count; i++)
         if (f->params[i] == s->var)
            return true;
      return false;
   case PTX_OP_MOV:
   case PTX_OP_CVTA:
      return s->kind == CUVK_IR_VAL_REG && !s->negated && uniform[s->reg];
   default:
      return false;
   }
}

static void
mark_reads(const struct cuvk_ir_instr *in, bool *read, uint32_t reg_count)
{
   for (unsigned i = 0; i < in->src_count; i++) {
      const struct cuvk_ir_value *v = &in->src[i];
      if ((v->kind == CUVK_IR_VAL_REG || (v->kind == CUVK_IR_VAL_ADDR && v->has_reg)) && v->reg <= reg_count)
         read[v->reg] = true;
   }
   if (in->guarded && in->guard <= reg_count)
      read[in->guard] = true;
}

bool *
cuvk_ir_uniform_regs(const struct cuvk_ir_function *f, struct cuvk_arena *arena)
{
   bool *uniform = cuvk_arena_array(arena, f->reg_count + 1, sizeof(*uniform));
   uint32_t *defs = cuvk_arena_array(arena, f->reg_count + 1, sizeof(*defs));
   if (!uniform || !defs)
      return NULL;
   if (!f->is_entry || f->block_count == 0)
      return uniform;

   /* Every register written more than once, or outside the entry block,
    * is out from the start. */
   for (unsigned b = 0; b < f->block_count; b++) {
      cuvk_list_for_each_entry(struct cuvk_ir_instr, in, &f->blocks[b]->instrs, link) {
         for (unsigned d = 0; d < in->dst_count; d++) {
            const struct cuvk_ir_value *v = &in->dst[d];
            if (v->kind == CUVK_IR_VAL_REG && v->reg <= f->reg_count)
               defs[v->reg] += b == 0 ? 1 : 2;
         }
      }
   }
   /* In order through the entry block: a definition counts when its
    * source does by then and nothing earlier read the register.  An
    * instruction's own reads come before its write. */
   bool *read = cuvk_arena_array(arena, f->reg_count + 1, sizeof(*read));
   if (!read)
      return NULL;
   cuvk_list_for_each_entry(struct cuvk_ir_instr, in, &f->blocks[0]->instrs, link) {
      mark_reads(in, read, f->reg_count);
      if (in->dst_count != 1 || in->dst[0].kind != CUVK_IR_VAL_REG)
         continue;
      uint32_t reg = in->dst[0].reg;
      if (reg <= f->reg_count && defs[reg] == 1 && !read[reg] && defines_uniform(f, in, uniform))
         uniform[reg] = true;
   }
   return uniform;
}
