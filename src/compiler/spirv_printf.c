/*
 * Device printf: nvcc's call of vprintf(format, args) becomes an append
 * to the context's printf buffer (kernel_abi.h), which the host prints at
 * synchronisations (src/cuda_api/printf.c).
 *
 * nvcc passes the format as the generic address of a .global string of
 * the module and the arguments as the generic address of a packed struct
 * in local memory.  How many bytes that struct holds is in the format
 * alone, so the format must be known here: it is traced back from the
 * call's first argument slot through the st.param, cvta.global and mov of
 * the string (nvcc's code always has that shape for a literal format).
 * vprintf's result is the number of arguments, as CUDA's printf returns.
 * A format that is not a string of the module (a pointer a kernel got as
 * a parameter) is refused, naming the call.
 */
#include "compiler/spirv_emit.h"

#include <string.h>

#include "compiler/printf_format.h"

/* The block of f holding in. */
static const struct cuvk_ir_block *
block_of(const struct cuvk_ir_function *f, const struct cuvk_ir_instr *in)
{
   for (unsigned b = 0; b < f->block_count; b++) {
      cuvk_list_for_each_entry(struct cuvk_ir_instr, i, &f->blocks[b]->instrs, link)
         if (i == in)
            return f->blocks[b];
   }
   return NULL;
}

static bool
writes_reg(const struct cuvk_ir_instr *in, uint32_t reg)
{
   for (unsigned d = 0; d < in->dst_count; d++)
      if (in->dst[d].kind == CUVK_IR_VAL_REG && in->dst[d].reg == reg)
         return true;
   return false;
}

/* The instruction that last wrote reg before `before` in its block; else
 * the only instruction of f that writes reg, where there is one. */
static const struct cuvk_ir_instr *
writer_of(const struct cuvk_ir_function *f, const struct cuvk_ir_instr *before, uint32_t reg,
          const struct cuvk_ir_block **where)
{
   const struct cuvk_ir_block *b = block_of(f, before);
   const struct cuvk_ir_instr *last = NULL, *only = NULL;
   unsigned count = 0;
   if (b) {
      cuvk_list_for_each_entry(struct cuvk_ir_instr, i, &b->instrs, link) {
         if (i == before)
            break;
         if (writes_reg(i, reg) && !i->guarded)
            last = i;
      }
      if (last) {
         *where = b;
         return last;
      }
   }
   for (unsigned k = 0; k < f->block_count; k++) {
      cuvk_list_for_each_entry(struct cuvk_ir_instr, i, &f->blocks[k]->instrs, link) {
         if (writes_reg(i, reg)) {
            only = i;
            *where = f->blocks[k];
            count++;
         }
      }
   }
   return count == 1 && !only->guarded ? only : NULL;
}

/* The module variable and offset whose generic address v holds before
 * instruction at, following mov and cvta.global; false when it is not
 * one. */
static bool
trace_global(const struct cuvk_ir_function *f, const struct cuvk_ir_instr *at,
             const struct cuvk_ir_value *v, const struct cuvk_ir_var **var, uint64_t *offset,
             unsigned depth)
{
   if (v->kind == CUVK_IR_VAL_VAR) {
      if (v->var->space != PTX_SPACE_GLOBAL && v->var->space != PTX_SPACE_CONST)
         return false;
      *var = v->var;
      *offset = v->imm;
      return true;
   }
   if (v->kind != CUVK_IR_VAL_REG || depth > 8)
      return false;
   const struct cuvk_ir_block *b;
   const struct cuvk_ir_instr *w = writer_of(f, at, v->reg, &b);
   if (!w || w->src_count < 1 || w->dst_count != 1)
      return false;
   if (w->op == PTX_OP_MOV ||
       (w->op == PTX_OP_CVTA && !cuvk_spirv_has_mod(w, PTX_MOD_TO) &&
        (cuvk_spirv_has_mod(w, PTX_MOD_GLOBAL) || cuvk_spirv_has_mod(w, PTX_MOD_CONST))))
      return trace_global(f, w, &w->src[0], var, offset, depth + 1);
   return false;
}

/* The st.param that filled slot (a .param variable) before the call. */
static const struct cuvk_ir_instr *
slot_store(const struct cuvk_ir_function *f, const struct cuvk_ir_instr *call,
           const struct cuvk_ir_var *slot)
{
   const struct cuvk_ir_block *b = block_of(f, call);
   const struct cuvk_ir_instr *last = NULL;
   if (!b)
      return NULL;
   cuvk_list_for_each_entry(struct cuvk_ir_instr, i, &b->instrs, link) {
      if (i == call)
         break;
      if (i->op == PTX_OP_ST && i->src_count == 2 && i->src[0].kind == CUVK_IR_VAL_ADDR &&
          i->src[0].var == slot && !i->src[0].has_reg && i->src[0].imm == 0)
         last = i;
   }
   return last;
}

static uint32_t
label(struct cuvk_spirv_emitter *e, uint32_t id)
{
   cuvk_spirv_do(e, SpvOpLabel, id);
   return id;
}

static uint32_t
add64(struct cuvk_spirv_emitter *e, uint32_t a, uint32_t b)
{
   return cuvk_spirv_val(e, SpvOpIAdd, cuvk_spirv_type_uint(e, 64), a, b);
}

static void
store_u32(struct cuvk_spirv_emitter *e, uint32_t addr, uint32_t value)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   uint32_t ptr = cuvk_spirv_val(e, SpvOpConvertUToPtr,
                                 cuvk_spirv_type_pointer(e, SpvStorageClassPhysicalStorageBuffer,
                                                         u32), addr);
   cuvk_spirv_do(e, SpvOpStore, ptr, value, SpvMemoryAccessAlignedMask, 4);
}

/*
 * void cuvk_printf(u64 format, u64 args, u32 arg_bytes): reserves a record
 * in the printf buffer and fills it (kernel_abi.h).  A helper function of
 * its own, so the control flow it needs never splits a block of the
 * kernel (which may be a loop header).
 */
static uint32_t
printf_fn(struct cuvk_spirv_emitter *e)
{
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_HELPER, 1000, 0, 0);
   if (id)
      return id;
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t t_bool = cuvk_spirv_type_bool(e), t_void = cuvk_spirv_type_void(e);
   uint32_t params[3] = { u64, u64, u32 };
   uint32_t p_ptr = cuvk_spirv_type_pointer(e, SpvStorageClassPhysicalStorageBuffer, u32);
   uint32_t device = cuvk_spirv_const_u32(e, SpvScopeDevice);
   uint32_t relaxed = cuvk_spirv_const_u32(e, SpvMemorySemanticsMaskNone);
   uint32_t release = cuvk_spirv_const_u32(e, SpvMemorySemanticsReleaseMask |
                                                 SpvMemorySemanticsUniformMemoryMask);

   struct cuvk_spirv_words words = {0};
   struct cuvk_spirv_words *saved = e->cur;
   e->cur = &words;
   id = cuvk_spirv_id(&e->b);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_HELPER, 1000, 0, 0, id);
   cuvk_spirv_do(e, SpvOpFunction, t_void, id, SpvFunctionControlMaskNone,
                 cuvk_spirv_type_function(e, t_void, params, 3));
   uint32_t fmt = cuvk_spirv_val(e, SpvOpFunctionParameter, u64);
   uint32_t args = cuvk_spirv_val(e, SpvOpFunctionParameter, u64);
   uint32_t arg_bytes = cuvk_spirv_val(e, SpvOpFunctionParameter, u32);

   uint32_t l_entry = cuvk_spirv_id(&e->b), l_reserve = cuvk_spirv_id(&e->b);
   uint32_t l_write = cuvk_spirv_id(&e->b), l_head = cuvk_spirv_id(&e->b);
   uint32_t l_body = cuvk_spirv_id(&e->b), l_cont = cuvk_spirv_id(&e->b);
   uint32_t l_copied = cuvk_spirv_id(&e->b), l_reserved = cuvk_spirv_id(&e->b);
   uint32_t l_check = cuvk_spirv_id(&e->b), l_checked = cuvk_spirv_id(&e->b);
   uint32_t l_end = cuvk_spirv_id(&e->b);

   label(e, l_entry);
   uint32_t buf = cuvk_spirv_push_load(e, CUVK_SPIRV_PUSH_PRINTF_BUFFER);
   /* No buffer (a launcher that gives none): the record is dropped. */
   uint32_t have = cuvk_spirv_val(e, SpvOpINotEqual, t_bool, buf, cuvk_spirv_const_u64(e, 0));
   cuvk_spirv_do(e, SpvOpSelectionMerge, l_end, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranchConditional, have, l_check, l_end);

   label(e, l_check);
   uint32_t head_ptr = cuvk_spirv_val(e, SpvOpConvertUToPtr, p_ptr, buf);
   uint32_t cap_ptr = cuvk_spirv_val(e, SpvOpConvertUToPtr, p_ptr,
                                     add64(e, buf, cuvk_spirv_const_u64(e, 4)));
   /* Records are whole multiples of 8 bytes, so every one starts aligned
    * for the u64 format address. */
   uint32_t padded = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32,
                                    cuvk_spirv_val(e, SpvOpIAdd, u32, arg_bytes,
                                                   cuvk_spirv_const_u32(e, 7)),
                                    cuvk_spirv_const_u32(e, ~7u));
   uint32_t size = cuvk_spirv_val(e, SpvOpIAdd, u32, padded,
                                  cuvk_spirv_const_u32(e, CUVK_KERNEL_PRINTF_RECORD));
   uint32_t cap = cuvk_spirv_val(e, SpvOpLoad, u32, cap_ptr, SpvMemoryAccessAlignedMask, 4);
   uint32_t now = cuvk_spirv_val(e, SpvOpAtomicLoad, u32, head_ptr, device, relaxed);
   /* Once full, nobody adds to head any more, so it cannot wrap. */
   uint32_t room = cuvk_spirv_val(e, SpvOpULessThan, t_bool, now, cap);
   cuvk_spirv_do(e, SpvOpSelectionMerge, l_checked, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranchConditional, room, l_reserve, l_checked);

   label(e, l_reserve);
   uint32_t at = cuvk_spirv_val(e, SpvOpAtomicIAdd, u32, head_ptr, device, relaxed, size);
   uint32_t left = cuvk_spirv_val(e, SpvOpISub, u32, cap, at);
   uint32_t fits = cuvk_spirv_val(e, SpvOpLogicalAnd, t_bool,
                                  cuvk_spirv_val(e, SpvOpULessThan, t_bool, at, cap),
                                  cuvk_spirv_val(e, SpvOpULessThanEqual, t_bool, size, left));
   cuvk_spirv_do(e, SpvOpSelectionMerge, l_reserved, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranchConditional, fits, l_write, l_reserved);

   label(e, l_write);
   uint32_t rec = add64(e, buf, cuvk_spirv_val(e, SpvOpUConvert, u64, at));
   rec = add64(e, rec, cuvk_spirv_const_u64(e, CUVK_KERNEL_PRINTF_HEADER));
   store_u32(e, add64(e, rec, cuvk_spirv_const_u64(e, 4)), arg_bytes);
   uint32_t fmt_words = cuvk_spirv_val(e, SpvOpBitcast, cuvk_spirv_type_vector(e, u32, 2), fmt);
   store_u32(e, add64(e, rec, cuvk_spirv_const_u64(e, 8)),
             cuvk_spirv_val(e, SpvOpCompositeExtract, u32, fmt_words, 0));
   store_u32(e, add64(e, rec, cuvk_spirv_const_u64(e, 12)),
             cuvk_spirv_val(e, SpvOpCompositeExtract, u32, fmt_words, 1));
   cuvk_spirv_do(e, SpvOpBranch, l_head);

   /* The arguments, a word at a time through generic loads (they are in
    * local memory; the struct is 8-byte aligned).  The last word of an
    * odd count is padding and not read. */
   label(e, l_head);
   uint32_t i = cuvk_spirv_id(&e->b), next = cuvk_spirv_id(&e->b);
   cuvk_spirv_do(e, SpvOpPhi, u32, i, cuvk_spirv_const_u32(e, 0), l_write, next, l_cont);
   uint32_t arg_words = cuvk_spirv_val(e, SpvOpShiftRightLogical, u32,
                                       cuvk_spirv_val(e, SpvOpIAdd, u32, arg_bytes,
                                                      cuvk_spirv_const_u32(e, 3)),
                                       cuvk_spirv_const_u32(e, 2));
   uint32_t more = cuvk_spirv_val(e, SpvOpULessThan, t_bool, i, arg_words);
   cuvk_spirv_do(e, SpvOpLoopMerge, l_copied, l_cont, SpvLoopControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranchConditional, more, l_body, l_copied);

   label(e, l_body);
   uint32_t off = cuvk_spirv_val(e, SpvOpUConvert, u64,
                                 cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32, i,
                                                cuvk_spirv_const_u32(e, 2)));
   uint32_t word = cuvk_spirv_generic_load(e, add64(e, args, off), 32);
   store_u32(e, add64(e, add64(e, rec, cuvk_spirv_const_u64(e, CUVK_KERNEL_PRINTF_RECORD)), off),
             word);
   cuvk_spirv_do(e, SpvOpBranch, l_cont);

   label(e, l_cont);
   cuvk_spirv_emit_op(e, SpvOpIAdd, (const uint32_t[]){ u32, next, i,
                                                        cuvk_spirv_const_u32(e, 1) }, 4);
   cuvk_spirv_do(e, SpvOpBranch, l_head);

   label(e, l_copied);
   /* The size last, released: the host takes a record whose size is
    * still 0 as one being written. */
   cuvk_spirv_do(e, SpvOpMemoryBarrier, device, release);
   cuvk_spirv_do(e, SpvOpAtomicStore, cuvk_spirv_val(e, SpvOpConvertUToPtr, p_ptr, rec), device,
                 release, size);
   cuvk_spirv_do(e, SpvOpBranch, l_reserved);

   label(e, l_reserved);
   cuvk_spirv_do(e, SpvOpBranch, l_checked);

   label(e, l_checked);
   cuvk_spirv_do(e, SpvOpBranch, l_end);

   label(e, l_end);
   cuvk_spirv_do(e, SpvOpReturn);
   cuvk_spirv_do(e, SpvOpFunctionEnd);
   cuvk_spirv_append(&e->b, CUVK_SPIRV_FUNCTIONS, &words);
   cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_DEBUG, SpvOpName, &id, 1, "cuvk_printf", NULL, 0);
   e->cur = saved;
   return id;
}

int
cuvk_spirv_lower_printf(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   const struct cuvk_ir_function *f = e->func;
   if (in->src_count != 3 || in->src[1].kind != CUVK_IR_VAL_VAR ||
       in->src[2].kind != CUVK_IR_VAL_VAR || in->dst_count > 1)
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "vprintf: a call with other than two "
                             ".param arguments") ? 1 : -1;
   const struct cuvk_ir_instr *st = slot_store(f, in, in->src[1].var);
   const struct cuvk_ir_var *var = NULL;
   uint64_t offset = 0;
   if (!st || !trace_global(f, st, &st->src[1], &var, &offset, 0) || !var->init ||
       offset >= var->size)
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "vprintf: the format is not a string "
                             "of the module (a format only known at run time is not "
                             "translated)") ? 1 : -1;
   const char *fmt = (const char *)var->init + offset;
   size_t len = (size_t)(var->size - offset);
   if (!memchr(fmt, 0, len))
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "vprintf: the format %s has no "
                             "terminating nul", var->name) ? 1 : -1;
   unsigned count, bytes;
   cuvk_printf_layout(fmt, strlen(fmt), &count, &bytes);

   e->uses_printf = true;
   uint32_t fmt_addr = cuvk_spirv_var_address(e, var, offset);
   uint32_t args = cuvk_spirv_local_load(e, cuvk_spirv_var_address(e, in->src[2].var,
                                                                   in->src[2].imm), 64);
   /* No arguments: nvcc passes a null pointer, and nothing is read. */
   cuvk_spirv_val(e, SpvOpFunctionCall, cuvk_spirv_type_void(e), printf_fn(e), fmt_addr, args,
                  cuvk_spirv_const_u32(e, bytes));
   /* CUDA's printf returns the number of arguments it parsed. */
   if (in->dst_count == 1 && in->dst[0].kind == CUVK_IR_VAL_VAR)
      cuvk_spirv_local_store(e, cuvk_spirv_var_address(e, in->dst[0].var, in->dst[0].imm),
                             cuvk_spirv_const_u32(e, count), 32);
   return e->failed ? -1 : 1;
}
