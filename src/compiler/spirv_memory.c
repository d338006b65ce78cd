/*
 * PTX's state spaces in SPIR-V (kernel_abi.h is the contract with the
 * launch code):
 *
 *   .global, .const   CUdeviceptrs, translated at every access by one
 *                     function per module (page table, then the host
 *                     ranges, else a fault redirected to scratch), then
 *                     reached as PhysicalStorageBuffer pointers;
 *   .param            a kernel's parameters: the parameter block, at the
 *                     push constants' device address; a .func's
 *                     parameters, return values and call slots: bytes of
 *                     the local array;
 *   .shared           one Workgroup array of uint, static variables first,
 *                     dynamic shared memory (SpecId 3 bytes) after;
 *   .local            one Private array of uint per invocation;
 *   generic           the windows of kernel_abi.h tell shared and local
 *                     addresses from global ones.
 *
 * The shared and local arrays are addressed by byte: an 8- or 16-bit
 * access reads the word holding it and shifts, a 64-bit one takes two
 * words.  A sub-word store to shared memory is an atomic AND clearing its
 * bytes and an atomic OR setting them, so two threads storing to
 * different bytes of one word never undo each other's store (CUDA
 * guarantees that; a read-modify-write would lose one).
 *
 * 64-bit atomics on shared memory cannot be two 32-bit ones.  Where the
 * target has shared_atomic_int64 (VK_KHR_workgroup_memory_explicit_layout)
 * and the kernel has such an atomic, the array is member 0 of a Block and
 * a second Block, an array of u64 decorated Aliased like the first, views
 * the same bytes: 64-bit atomics, loads and stores go through it (PTX
 * aligns them to 8 bytes), everything else through the words as before.
 * Only those kernels change, so every other kernel's shared memory stays
 * the plain array that every driver has.
 */
#include "compiler/spirv_emit.h"

#include "compiler/ir_passes.h"

#include <string.h>

enum space {
   SPACE_GLOBAL,   /* a CUdeviceptr, translated */
   SPACE_DEVICE,   /* a Vulkan device address (the parameter block) */
   SPACE_SHARED,
   SPACE_LOCAL,
   SPACE_GENERIC,
};

static uint64_t
align_up(uint64_t v, uint64_t a)
{
   return a ? (v + a - 1) / a * a : v;
}

/* ---- layout ---- */

static void
set_offset(struct cuvk_spirv_emitter *e, const struct cuvk_ir_var *v, uint64_t offset)
{
   /* Stored plus one, since 0 means "not laid out". */
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_VAR_OFFSET, 0, (uintptr_t)v, 0, (uint32_t)offset + 1);
}

static bool
get_offset(struct cuvk_spirv_emitter *e, const struct cuvk_ir_var *v, uint32_t *offset)
{
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_VAR_OFFSET, 0, (uintptr_t)v, 0);
   *offset = id - 1;
   return id != 0;
}

static bool
place(struct cuvk_spirv_emitter *e, const struct cuvk_ir_var *v, uint32_t *end, const char *what)
{
   uint64_t at = align_up(*end, v->align ? v->align : 1);
   /* Words hold everything, so every variable starts on one: loads of
    * whole words then never straddle two variables' padding. */
   at = align_up(at, 4);
   if (at + v->size > UINT32_MAX / 2)
      return cuvk_cc_fail(e->err, CUVK_CC_UNSUPPORTED, v->line, 0, "%s: %s memory too large",
                          v->name, what);
   set_offset(e, v, at);
   *end = (uint32_t)align_up(at + v->size, 4);
   return true;
}

static bool
is_kernel_param(const struct cuvk_spirv_emitter *e, const struct cuvk_ir_var *v, size_t *index)
{
   for (size_t i = 0; i < e->kernel->param_count; i++)
      if (e->kernel->params[i] == v) {
         *index = i;
         return true;
      }
   return false;
}

void
cuvk_spirv_layout_module(struct cuvk_spirv_emitter *e)
{
   uint32_t global_index = 0;

   for (size_t i = 0; i < e->module->var_count; i++) {
      const struct cuvk_ir_var *v = e->module->vars[i];
      switch (v->space) {
      case PTX_SPACE_GLOBAL:
      case PTX_SPACE_CONST:
         /* Its index in the globals table (compiler.c lists them in the
          * same order). */
         set_offset(e, v, global_index++);
         break;
      default:
         /* Module-scope .shared variables are laid out when a function
          * of the kernel names one (cuvk_spirv_layout_function), so a
          * kernel's shared size counts only its own, as CUDA's does. */
         break;
      }
   }
}

/* Whether in is a 64-bit atom or red that may reach shared memory: on
 * .shared, or on a generic address. */
static bool
is_shared_atomic64(const struct cuvk_ir_instr *in)
{
   enum cuvk_spirv_kind kind;
   unsigned bits;

   if (in->op != PTX_OP_ATOM && in->op != PTX_OP_RED)
      return false;
   enum ptx_modifier space = cuvk_spirv_mod_of_class(in, PTX_MODC_SPACE);
   if (space != PTX_MOD_SHARED && space != PTX_MOD_SHARED_CTA && space != PTX_MOD_COUNT)
      return false;
   enum ptx_modifier t = cuvk_spirv_type_mod(in, 0);
   return t != PTX_MOD_COUNT && cuvk_spirv_ptx_kind(t, &kind, &bits) && bits == 64;
}

static bool
use_module_shared(struct cuvk_spirv_emitter *e, const struct cuvk_ir_value *v)
{
   uint32_t at;
   const struct cuvk_ir_var *var = v->var;

   if ((v->kind != CUVK_IR_VAL_VAR && v->kind != CUVK_IR_VAL_ADDR) || !var ||
       var->space != PTX_SPACE_SHARED)
      return true;
   if (var->unsized) {
      e->dynamic_shared = true;
      return true;
   }
   if (get_offset(e, var, &at))
      return true;
   return place(e, var, &e->static_shared_bytes, "shared");
}

bool
cuvk_spirv_layout_function(struct cuvk_spirv_emitter *e, const struct cuvk_ir_function *f)
{
   size_t index;

   /* The module's .shared variables f names, and a word for bar.red. */
   for (unsigned b = 0; b < f->block_count; b++) {
      cuvk_list_for_each_entry(struct cuvk_ir_instr, in, &f->blocks[b]->instrs, link) {
         if ((in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER) &&
             cuvk_spirv_has_mod(in, PTX_MOD_RED) && !e->bar_red_offset) {
            e->static_shared_bytes = (uint32_t)align_up(e->static_shared_bytes, 4);
            e->bar_red_offset = e->static_shared_bytes + 1;
            e->static_shared_bytes += 4;
         }
         /* Decided before any function is emitted: the shared array's
          * form is fixed when its first access declares it. */
         if (e->target->shared_atomic_int64 && is_shared_atomic64(in))
            e->shared64 = true;
         for (unsigned i = 0; i < in->src_count; i++)
            if (!use_module_shared(e, &in->src[i]))
               return false;
         for (unsigned i = 0; i < in->dst_count; i++)
            if (!use_module_shared(e, &in->dst[i]))
               return false;
      }
   }

   for (size_t i = 0; i < f->var_count; i++) {
      const struct cuvk_ir_var *v = f->vars[i];
      if (v->space == PTX_SPACE_SHARED) {
         if (v->unsized)
            e->dynamic_shared = true;
         else if (!place(e, v, &e->static_shared_bytes, "shared"))
            return false;
      } else if (v->space == PTX_SPACE_LOCAL ||
                 (v->space == PTX_SPACE_PARAM && !v->is_param)) {
         /* Parameters and return values are placed below, once. */
         if (!place(e, v, &e->local_bytes, "local"))
            return false;
      }
   }
   for (size_t i = 0; i < f->param_count; i++) {
      const struct cuvk_ir_var *v = f->params[i];
      if (!v)
         continue;
      if (f == e->kernel && is_kernel_param(e, v, &index))
         set_offset(e, v, e->params[index].offset);
      else if (!place(e, v, &e->local_bytes, "local"))
         return false;
   }
   for (size_t i = 0; i < f->ret_count; i++)
      if (f->rets[i] && !place(e, f->rets[i], &e->local_bytes, "local"))
         return false;
   return true;
}

/* ---- the arrays ---- */

static uint32_t
shared_var(struct cuvk_spirv_emitter *e)
{
   if (e->shared_var)
      return e->shared_var;
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   /* Exactly the bytes the kernel has, rounded up to words: a launch with
    * all of the device's shared memory must fit (a word more than that
    * is a module Vulkan refuses).  An array cannot be empty, so none
    * becomes one word. */
   uint32_t words = (e->dynamic_shared_offset + 3) / 4;
   uint32_t length;
   if (e->dynamic_shared) {
      uint32_t spec = cuvk_spirv_read_special(
         e, &(struct cuvk_ir_value){ .kind = CUVK_IR_VAL_SPECIAL,
                                     .special = CUVK_IR_SPECIAL_DYNAMIC_SMEM_SIZE });
      uint32_t plus3 = cuvk_spirv_id(&e->b), quarter = cuvk_spirv_id(&e->b);
      uint32_t sum = cuvk_spirv_id(&e->b), empty = cuvk_spirv_id(&e->b);
      length = cuvk_spirv_id(&e->b);
      cuvk_spirv_global(e, SpvOpSpecConstantOp, u32, plus3, SpvOpIAdd, spec,
                        cuvk_spirv_const_u32(e, 3));
      cuvk_spirv_global(e, SpvOpSpecConstantOp, u32, quarter, SpvOpUDiv, plus3,
                        cuvk_spirv_const_u32(e, 4));
      cuvk_spirv_global(e, SpvOpSpecConstantOp, u32, sum, SpvOpIAdd, quarter,
                        cuvk_spirv_const_u32(e, words));
      cuvk_spirv_global(e, SpvOpSpecConstantOp, cuvk_spirv_type_bool(e), empty, SpvOpIEqual, sum,
                        cuvk_spirv_const_u32(e, 0));
      cuvk_spirv_global(e, SpvOpSpecConstantOp, u32, length, SpvOpSelect, empty,
                        cuvk_spirv_const_u32(e, 1), sum);
   } else {
      length = cuvk_spirv_const_u32(e, words ? words : 1);
   }
   uint32_t array = cuvk_spirv_id(&e->b);
   cuvk_spirv_global(e, SpvOpTypeArray, array, u32, length);
   if (!e->shared64) {
      e->shared_var = cuvk_spirv_global_var(e, SpvStorageClassWorkgroup, array);
      cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_DEBUG, SpvOpName, &e->shared_var, 1, "cuvk_shared",
                          NULL, 0);
      return e->shared_var;
   }

   /* The 64-bit view: as many u64 as whole pairs of words, so it never
    * asks for more memory than the words (a launch may use all of it);
    * an 8-byte-aligned atomic lies in a whole pair.  One at least, as
    * arrays cannot be empty. */
   uint32_t length64;
   if (e->dynamic_shared) {
      uint32_t half = cuvk_spirv_id(&e->b), empty = cuvk_spirv_id(&e->b);
      length64 = cuvk_spirv_id(&e->b);
      cuvk_spirv_global(e, SpvOpSpecConstantOp, u32, half, SpvOpUDiv, length,
                        cuvk_spirv_const_u32(e, 2));
      cuvk_spirv_global(e, SpvOpSpecConstantOp, cuvk_spirv_type_bool(e), empty, SpvOpIEqual, half,
                        cuvk_spirv_const_u32(e, 0));
      cuvk_spirv_global(e, SpvOpSpecConstantOp, u32, length64, SpvOpSelect, empty,
                        cuvk_spirv_const_u32(e, 1), half);
   } else {
      length64 = cuvk_spirv_const_u32(e, words / 2 ? words / 2 : 1);
   }
   uint32_t array64 = cuvk_spirv_id(&e->b);
   cuvk_spirv_global(e, SpvOpTypeArray, array64, cuvk_spirv_type_uint(e, 64), length64);
   cuvk_spirv_capability(e, SpvCapabilityWorkgroupMemoryExplicitLayoutKHR);
   cuvk_spirv_extension(e, "SPV_KHR_workgroup_memory_explicit_layout");
   const uint32_t arrays[2] = { array, array64 }, strides[2] = { 4, 8 };
   uint32_t vars[2];
   for (unsigned i = 0; i < 2; i++) {
      uint32_t block = cuvk_spirv_id(&e->b);
      cuvk_spirv_global(e, SpvOpTypeStruct, block, arrays[i]);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, arrays[i],
                    SpvDecorationArrayStride, strides[i]);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, block, SpvDecorationBlock);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpMemberDecorate, block, 0,
                    SpvDecorationOffset, 0);
      vars[i] = cuvk_spirv_global_var(e, SpvStorageClassWorkgroup, block);
      /* The extension's rule for more than one Block in Workgroup
       * storage: they alias, and say so. */
      cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, vars[i], SpvDecorationAliased);
   }
   e->shared_var = vars[0];
   e->shared64_var = vars[1];
   cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_DEBUG, SpvOpName, &e->shared_var, 1, "cuvk_shared",
                       NULL, 0);
   cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_DEBUG, SpvOpName, &e->shared64_var, 1, "cuvk_shared64",
                       NULL, 0);
   return e->shared_var;
}

/* A pointer to element index (u32) of the shared memory's view of bits
 * (32: the words; 64: the aliased u64, which only exists with shared64). */
static uint32_t
shared_elem_ptr(struct cuvk_spirv_emitter *e, unsigned bits, uint32_t index)
{
   uint32_t var = shared_var(e);
   uint32_t ptr = cuvk_spirv_type_pointer(e, SpvStorageClassWorkgroup,
                                          cuvk_spirv_type_uint(e, bits));
   if (bits == 64)
      var = e->shared64_var;
   if (!e->shared64)
      return cuvk_spirv_val(e, SpvOpAccessChain, ptr, var, index);
   return cuvk_spirv_val(e, SpvOpAccessChain, ptr, var, cuvk_spirv_const_u32(e, 0), index);
}

static uint32_t
local_var(struct cuvk_spirv_emitter *e)
{
   if (e->local_var)
      return e->local_var;
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   uint32_t array = cuvk_spirv_type_array(e, u32, cuvk_spirv_const_u32(e, e->local_bytes / 4 + 1));
   e->local_var = cuvk_spirv_global_var(e, SpvStorageClassPrivate, array);
   cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_DEBUG, SpvOpName, &e->local_var, 1, "cuvk_local",
                       NULL, 0);
   return e->local_var;
}

/* A pointer to the word at byte offset off (u32) of the space's array. */
static uint32_t
word_ptr(struct cuvk_spirv_emitter *e, enum space sp, uint32_t off, unsigned word_delta)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   uint32_t index = cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, off,
                                   cuvk_spirv_const_u32(e, 2));
   if (word_delta)
      index = cuvk_spirv_val(e, SpvOpIAdd, u32, index, cuvk_spirv_const_u32(e, word_delta));
   if (sp == SPACE_SHARED)
      return shared_elem_ptr(e, 32, index);
   return cuvk_spirv_val(e, SpvOpAccessChain,
                         cuvk_spirv_type_pointer(e, SpvStorageClassPrivate, u32), local_var(e),
                         index);
}

/* A pointer to the u64 at byte offset off (u32, a multiple of 8) of the
 * shared memory's 64-bit view. */
static uint32_t
shared64_ptr(struct cuvk_spirv_emitter *e, uint32_t off)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   return shared_elem_ptr(e, 64, cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, off,
                                                cuvk_spirv_const_u32(e, 3)));
}

static uint32_t
sub_word_shift(struct cuvk_spirv_emitter *e, uint32_t off)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   uint32_t low = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, off, cuvk_spirv_const_u32(e, 3));
   return cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32, low, cuvk_spirv_const_u32(e, 3));
}

/* Loads bits (8..64) at byte offset off of the shared or local array, as
 * a uint of that width. */
static uint32_t
array_load(struct cuvk_spirv_emitter *e, enum space sp, uint32_t off, unsigned bits,
           bool is_volatile)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   uint32_t access = is_volatile ? SpvMemoryAccessVolatileMask : SpvMemoryAccessMaskNone;
   /* One access where a 64-bit view exists: a load racing a 64-bit
    * atomic then never sees half of its result. */
   if (bits == 64 && sp == SPACE_SHARED && e->shared64)
      return cuvk_spirv_val(e, SpvOpLoad, cuvk_spirv_type_uint(e, 64), shared64_ptr(e, off),
                            access);
   uint32_t word = cuvk_spirv_val(e, SpvOpLoad, u32, word_ptr(e, sp, off, 0), access);

   if (bits == 32)
      return word;
   if (bits == 64) {
      uint32_t u64 = cuvk_spirv_type_uint(e, 64);
      uint32_t hi = cuvk_spirv_val(e, SpvOpLoad, u32, word_ptr(e, sp, off, 1), access);
      uint32_t vec = cuvk_spirv_val(e, SpvOpCompositeConstruct, cuvk_spirv_type_vector(e, u32, 2),
                                    word, hi);
      return cuvk_spirv_val(e, SpvOpBitcast, u64, vec);
   }
   uint32_t shifted = cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, word, sub_word_shift(e, off));
   return cuvk_spirv_val(e, SpvOpUConvert, cuvk_spirv_type_uint(e, bits), shifted);
}

static void
array_store(struct cuvk_spirv_emitter *e, enum space sp, uint32_t off, uint32_t value,
            unsigned bits, bool is_volatile)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   uint32_t access = is_volatile ? SpvMemoryAccessVolatileMask : SpvMemoryAccessMaskNone;

   if (bits == 32) {
      cuvk_spirv_do(e, SpvOpStore, word_ptr(e, sp, off, 0), value, access);
      return;
   }
   if (bits == 64 && sp == SPACE_SHARED && e->shared64) {
      cuvk_spirv_do(e, SpvOpStore, shared64_ptr(e, off), value, access);
      return;
   }
   if (bits == 64) {
      uint32_t vec = cuvk_spirv_val(e, SpvOpBitcast, cuvk_spirv_type_vector(e, u32, 2), value);
      cuvk_spirv_do(e, SpvOpStore, word_ptr(e, sp, off, 0),
                    cuvk_spirv_val(e, SpvOpCompositeExtract, u32, vec, 0), access);
      cuvk_spirv_do(e, SpvOpStore, word_ptr(e, sp, off, 1),
                    cuvk_spirv_val(e, SpvOpCompositeExtract, u32, vec, 1), access);
      return;
   }
   uint32_t shift = sub_word_shift(e, off);
   uint32_t mask = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32,
                                  cuvk_spirv_const_u32(e, bits == 8 ? 0xffu : 0xffffu), shift);
   uint32_t bits_in = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32,
                                     cuvk_spirv_val(e, SpvOpUConvert, u32, value), shift);
   uint32_t ptr = word_ptr(e, sp, off, 0);
   if (sp == SPACE_SHARED) {
      /* Two atomics: other threads' bytes of the word survive. */
      uint32_t scope = cuvk_spirv_const_u32(e, SpvScopeWorkgroup);
      uint32_t none = cuvk_spirv_const_u32(e, SpvMemorySemanticsMaskNone);
      cuvk_spirv_val(e, SpvOpAtomicAnd, u32, ptr, scope, none,
                     cuvk_spirv_val(e, SpvOpNot, u32, mask));
      cuvk_spirv_val(e, SpvOpAtomicOr, u32, ptr, scope, none, bits_in);
      return;
   }
   /* Local memory is the invocation's own. */
   uint32_t word = cuvk_spirv_val(e, SpvOpLoad, u32, ptr, access);
   word = cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, word, cuvk_spirv_val(e, SpvOpNot, u32, mask));
   word = cuvk_spirv_val(e, SpvOpBitwiseOr, u32, word, bits_in);
   cuvk_spirv_do(e, SpvOpStore, ptr, word, access);
}

uint32_t
cuvk_spirv_shared_word(struct cuvk_spirv_emitter *e, uint32_t byte_offset)
{
   return shared_elem_ptr(e, 32, cuvk_spirv_const_u32(e, byte_offset / 4));
}

void
cuvk_spirv_local_copy(struct cuvk_spirv_emitter *e, uint32_t to, uint32_t from, uint32_t bytes)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   uint32_t to32 = cuvk_spirv_val(e, SpvOpUConvert, u32, to);
   uint32_t from32 = cuvk_spirv_val(e, SpvOpUConvert, u32, from);
   /* Slots are laid out on words, so whole words copy them. */
   for (uint32_t w = 0; w < (bytes + 3) / 4; w++) {
      uint32_t v = cuvk_spirv_val(e, SpvOpLoad, u32, word_ptr(e, SPACE_LOCAL, from32, w));
      cuvk_spirv_do(e, SpvOpStore, word_ptr(e, SPACE_LOCAL, to32, w), v);
   }
}

/* ---- device addresses ---- */

static void
need_storage_width(struct cuvk_spirv_emitter *e, unsigned bits)
{
   if (bits == 8)
      cuvk_spirv_capability(e, SpvCapabilityStorageBuffer8BitAccess);
   else if (bits == 16)
      cuvk_spirv_capability(e, SpvCapabilityStorageBuffer16BitAccess);
}

static uint32_t
device_ptr(struct cuvk_spirv_emitter *e, uint32_t addr, uint32_t type)
{
   return cuvk_spirv_val(e, SpvOpConvertUToPtr,
                         cuvk_spirv_type_pointer(e, SpvStorageClassPhysicalStorageBuffer, type),
                         addr);
}

static uint32_t
device_load(struct cuvk_spirv_emitter *e, uint32_t addr, uint32_t type, unsigned bytes,
            bool is_volatile)
{
   uint32_t access = SpvMemoryAccessAlignedMask |
                     (is_volatile ? SpvMemoryAccessVolatileMask : 0);
   return cuvk_spirv_val(e, SpvOpLoad, type, device_ptr(e, addr, type), access, bytes);
}

static void
device_store(struct cuvk_spirv_emitter *e, uint32_t addr, uint32_t type, uint32_t value,
             unsigned bytes, bool is_volatile)
{
   uint32_t access = SpvMemoryAccessAlignedMask |
                     (is_volatile ? SpvMemoryAccessVolatileMask : 0);
   cuvk_spirv_do(e, SpvOpStore, device_ptr(e, addr, type), value, access, bytes);
}

static uint32_t
add64(struct cuvk_spirv_emitter *e, uint32_t a, uint64_t k)
{
   if (!k)
      return a;
   return cuvk_spirv_val(e, SpvOpIAdd, cuvk_spirv_type_uint(e, 64), a, cuvk_spirv_const_u64(e, k));
}

void
cuvk_spirv_store_fault(struct cuvk_spirv_emitter *e, enum cuvk_kernel_fault kind)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   device_store(e, cuvk_spirv_push_load(e, 6), u32, cuvk_spirv_const_u32(e, kind), 4, false);
}

uint32_t
cuvk_spirv_device_load(struct cuvk_spirv_emitter *e, uint32_t addr, uint32_t type, unsigned bytes)
{
   return device_load(e, addr, type, bytes, false);
}

void
cuvk_spirv_device_store(struct cuvk_spirv_emitter *e, uint32_t addr, uint32_t type, uint32_t value,
                        unsigned bytes)
{
   device_store(e, addr, type, value, bytes, false);
}


static uint32_t
helper_begin_control_id(struct cuvk_spirv_emitter *e, struct cuvk_spirv_helper *h, uint32_t id, uint32_t ret,
                        const uint32_t *params, unsigned count, uint32_t *param_ids, uint32_t control)
{
   memset(h, 0, sizeof(*h));
   h->saved = e->cur;
   e->cur = &h->words;
   h->id = id;
   cuvk_spirv_do(e, SpvOpFunction, ret, h->id, control,
                 cuvk_spirv_type_function(e, ret, params, count));
   for (unsigned i = 0; i < count; i++)
      param_ids[i] = cuvk_spirv_val(e, SpvOpFunctionParameter, params[i]);
   return h->id;
}

static uint32_t
helper_begin_control(struct cuvk_spirv_emitter *e, struct cuvk_spirv_helper *h, uint32_t ret,
                     const uint32_t *params, unsigned count, uint32_t *param_ids,
                     uint32_t control)
{
   return helper_begin_control_id(e, h, cuvk_spirv_id(&e->b), ret, params, count, param_ids, control);
}

static uint32_t
helper_begin(struct cuvk_spirv_emitter *e, struct cuvk_spirv_helper *h, uint32_t ret,
             const uint32_t *params, unsigned count, uint32_t *param_ids)
{
   return helper_begin_control(e, h, ret, params, count, param_ids, SpvFunctionControlMaskNone);
}

static void
helper_end(struct cuvk_spirv_emitter *e, struct cuvk_spirv_helper *h, const char *name)
{
   cuvk_spirv_do(e, SpvOpFunctionEnd);
   cuvk_spirv_append(&e->b, CUVK_SPIRV_FUNCTIONS, &h->words);
   cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_DEBUG, SpvOpName, &h->id, 1, name, NULL, 0);
   e->cur = h->saved;
}

static uint32_t
label(struct cuvk_spirv_emitter *e, uint32_t id)
{
   cuvk_spirv_do(e, SpvOpLabel, id);
   return id;
}

/*
 * u64 cuvk_translate(u64 addr, u64 bytes): the device address of a
 * CUdeviceptr access of bytes bytes, per kernel_abi.h.  Page table first
 * (one load), then a binary search of the host ranges; anything else
 * sets the fault word and returns an address in the scratch bytes after
 * it, at fault + 16 + addr % 224, which keeps accesses of up to 16 bytes
 * aligned as they were and inside the 4 + 256 bytes the launch code
 * provides.
 */
static uint32_t
translate_fn(struct cuvk_spirv_emitter *e)
{
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_HELPER, 1, 0, 0);
   if (id)
      return id;

   uint32_t u32 = cuvk_spirv_type_uint(e, 32), u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t t_bool = cuvk_spirv_type_bool(e);
   uint32_t params[2] = { u64, u64 }, p[2];
   struct cuvk_spirv_helper h;
   id = helper_begin(e, &h, u64, params, 2, p);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_HELPER, 1, 0, 0, id);
   uint32_t addr = p[0], bytes = p[1];

   uint32_t l_entry = cuvk_spirv_id(&e->b), l_va = cuvk_spirv_id(&e->b);
   uint32_t l_hit = cuvk_spirv_id(&e->b), l_va_end = cuvk_spirv_id(&e->b);
   uint32_t l_search = cuvk_spirv_id(&e->b);
   uint32_t l_head = cuvk_spirv_id(&e->b), l_cond = cuvk_spirv_id(&e->b);
   uint32_t l_body = cuvk_spirv_id(&e->b), l_below = cuvk_spirv_id(&e->b);
   uint32_t l_not_below = cuvk_spirv_id(&e->b), l_above = cuvk_spirv_id(&e->b);
   uint32_t l_found = cuvk_spirv_id(&e->b), l_inner_merge = cuvk_spirv_id(&e->b);
   uint32_t l_outer_merge = cuvk_spirv_id(&e->b), l_continue = cuvk_spirv_id(&e->b);
   uint32_t l_fault = cuvk_spirv_id(&e->b);
   uint32_t ptr_fn_u32 = cuvk_spirv_type_pointer(e, SpvStorageClassFunction, u32);

   label(e, l_entry);
   uint32_t lo = cuvk_spirv_id(&e->b), hi = cuvk_spirv_id(&e->b);
   cuvk_spirv_do(e, SpvOpVariable, ptr_fn_u32, lo, SpvStorageClassFunction);
   cuvk_spirv_do(e, SpvOpVariable, ptr_fn_u32, hi, SpvStorageClassFunction);
   uint32_t off = cuvk_spirv_val(e, SpvOpISub, u64, addr, cuvk_spirv_push_load(e, 3));
   uint32_t in_va = cuvk_spirv_val(e, SpvOpULessThan, t_bool, off, cuvk_spirv_push_load(e, 4));
   cuvk_spirv_do(e, SpvOpSelectionMerge, l_va_end, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranchConditional, in_va, l_va, l_va_end);

   label(e, l_va);
   uint32_t page = cuvk_spirv_val(e, SpvOpShiftRightLogical, u64, off,
                                  cuvk_spirv_const_u64(e, CUVK_KERNEL_PAGE_SHIFT));
   uint32_t entry_addr = cuvk_spirv_val(e, SpvOpIAdd, u64, cuvk_spirv_push_load(e, 2),
                                        cuvk_spirv_val(e, SpvOpShiftLeftLogical, u64, page,
                                                       cuvk_spirv_const_u64(e, 3)));
   uint32_t entry = device_load(e, entry_addr, u64, 8, false);
   uint32_t mapped = cuvk_spirv_val(e, SpvOpINotEqual, t_bool, entry, cuvk_spirv_const_u64(e, 0));
   uint32_t l_va_inner = cuvk_spirv_id(&e->b);
   cuvk_spirv_do(e, SpvOpSelectionMerge, l_va_inner, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranchConditional, mapped, l_hit, l_va_inner);
   label(e, l_hit);
   cuvk_spirv_do(e, SpvOpReturnValue, cuvk_spirv_val(e, SpvOpIAdd, u64, addr, entry));
   label(e, l_va_inner);
   cuvk_spirv_do(e, SpvOpBranch, l_va_end);

   label(e, l_va_end);
   cuvk_spirv_do(e, SpvOpStore, lo, cuvk_spirv_const_u32(e, 0));
   cuvk_spirv_do(e, SpvOpStore, hi, cuvk_spirv_push_load(e, 7));
   uint32_t last = cuvk_spirv_val(e, SpvOpIAdd, u64, addr, bytes);
   uint32_t ranges = cuvk_spirv_push_load(e, 5);
   cuvk_spirv_do(e, SpvOpBranch, l_search);
   label(e, l_search);
   cuvk_spirv_do(e, SpvOpBranch, l_head);

   label(e, l_head);
   cuvk_spirv_do(e, SpvOpLoopMerge, l_fault, l_continue, SpvLoopControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranch, l_cond);
   label(e, l_cond);
   uint32_t lo_v = cuvk_spirv_val(e, SpvOpLoad, u32, lo);
   uint32_t hi_v = cuvk_spirv_val(e, SpvOpLoad, u32, hi);
   uint32_t more = cuvk_spirv_val(e, SpvOpULessThan, t_bool, lo_v, hi_v);
   cuvk_spirv_do(e, SpvOpBranchConditional, more, l_body, l_fault);

   label(e, l_body);
   uint32_t mid = cuvk_spirv_val(e, SpvOpShiftRightLogical, u32,
                                 cuvk_spirv_val(e, SpvOpIAdd, u32, lo_v, hi_v),
                                 cuvk_spirv_const_u32(e, 1));
   uint32_t rec = cuvk_spirv_val(e, SpvOpIAdd, u64, ranges,
                                 cuvk_spirv_val(e, SpvOpIMul, u64,
                                                cuvk_spirv_val(e, SpvOpUConvert, u64, mid),
                                                cuvk_spirv_const_u64(e, 24)));
   uint32_t start = device_load(e, rec, u64, 8, false);
   uint32_t below = cuvk_spirv_val(e, SpvOpULessThan, t_bool, addr, start);
   cuvk_spirv_do(e, SpvOpSelectionMerge, l_outer_merge, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranchConditional, below, l_below, l_not_below);
   label(e, l_below);
   cuvk_spirv_do(e, SpvOpStore, hi, mid);
   cuvk_spirv_do(e, SpvOpBranch, l_outer_merge);
   label(e, l_not_below);
   uint32_t end = device_load(e, add64(e, rec, 8), u64, 8, false);
   /* The whole access must lie in the range; ranges are disjoint, so one
    * that ends past it is no match anywhere. */
   uint32_t above = cuvk_spirv_val(e, SpvOpUGreaterThan, t_bool, last, end);
   cuvk_spirv_do(e, SpvOpSelectionMerge, l_inner_merge, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranchConditional, above, l_above, l_found);
   label(e, l_above);
   cuvk_spirv_do(e, SpvOpStore, lo, cuvk_spirv_val(e, SpvOpIAdd, u32, mid,
                                                   cuvk_spirv_const_u32(e, 1)));
   cuvk_spirv_do(e, SpvOpBranch, l_inner_merge);
   label(e, l_found);
   uint32_t delta = device_load(e, add64(e, rec, 16), u64, 8, false);
   cuvk_spirv_do(e, SpvOpReturnValue, cuvk_spirv_val(e, SpvOpIAdd, u64, addr, delta));
   label(e, l_inner_merge);
   cuvk_spirv_do(e, SpvOpBranch, l_outer_merge);
   label(e, l_outer_merge);
   cuvk_spirv_do(e, SpvOpBranch, l_continue);
   label(e, l_continue);
   cuvk_spirv_do(e, SpvOpBranch, l_head);

   label(e, l_fault);
   uint32_t fault = cuvk_spirv_push_load(e, 6);
   device_store(e, fault, u32, cuvk_spirv_const_u32(e, CUVK_KERNEL_FAULT_ADDRESS), 4, false);
   uint32_t spot = cuvk_spirv_val(e, SpvOpUMod, u64, addr,
                                  cuvk_spirv_const_u64(e, CUVK_KERNEL_SCRATCH_SIZE - 32));
   cuvk_spirv_do(e, SpvOpReturnValue, add64(e, cuvk_spirv_val(e, SpvOpIAdd, u64, fault, spot), 16));
   helper_end(e, &h, "cuvk_translate");
   return id;
}

/*
 * u64 cuvk_translate_span(u64 addr, u64 bytes, u64vec3 span): with span
 * = (base, size, delta), addr + delta where addr is inside the span (kernel_abi.h),
 * else cuvk_translate.  Two integer operations and a branch on values the
 * kernel loaded once, in place of the page table's dependent load; marked
 * Inline, since the fast path is smaller than a call.
 */
static uint32_t
translate_span_fn(struct cuvk_spirv_emitter *e)
{
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_HELPER, 4, 0, 0);
   if (id)
      return id;
   uint32_t tr = translate_fn(e);
   uint32_t u64 = cuvk_spirv_type_uint(e, 64), t_bool = cuvk_spirv_type_bool(e);
   uint32_t params[3] = { u64, u64, cuvk_spirv_type_vector(e, u64, 3) }, p[3];
   struct cuvk_spirv_helper h;
   id = helper_begin_control(e, &h, u64, params, 3, p, SpvFunctionControlInlineMask);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_HELPER, 4, 0, 0, id);

   uint32_t l_fast = cuvk_spirv_id(&e->b), l_slow = cuvk_spirv_id(&e->b);
   uint32_t l_merge = cuvk_spirv_id(&e->b);
   label(e, cuvk_spirv_id(&e->b));
   uint32_t base = cuvk_spirv_val(e, SpvOpCompositeExtract, u64, p[2], 0);
   uint32_t size = cuvk_spirv_val(e, SpvOpCompositeExtract, u64, p[2], 1);
   uint32_t off = cuvk_spirv_val(e, SpvOpISub, u64, p[0], base);
   uint32_t inside = cuvk_spirv_val(e, SpvOpULessThan, t_bool, off, size);
   cuvk_spirv_do(e, SpvOpSelectionMerge, l_merge, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranchConditional, inside, l_fast, l_slow);
   label(e, l_fast);
   cuvk_spirv_do(e, SpvOpReturnValue,
                 cuvk_spirv_val(e, SpvOpIAdd, u64, p[0],
                                cuvk_spirv_val(e, SpvOpCompositeExtract, u64, p[2], 2)));
   label(e, l_slow);
   cuvk_spirv_do(e, SpvOpReturnValue, cuvk_spirv_val(e, SpvOpFunctionCall, u64, tr, p[0], p[1]));
   label(e, l_merge);
   cuvk_spirv_do(e, SpvOpUnreachable);
   helper_end(e, &h, "cuvk_translate_span");
   return id;
}

static uint32_t
translate(struct cuvk_spirv_emitter *e, uint32_t addr, unsigned bytes)
{
   uint32_t u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t w = e->access_word;
   if (w != CUVK_IR_NO_WORD && e->span_ids && e->span_ids[w][0]) {
      return cuvk_spirv_val(e, SpvOpFunctionCall, u64, translate_span_fn(e), addr,
                            cuvk_spirv_const_u64(e, bytes), e->span_ids[w][0]);
   }
   return cuvk_spirv_val(e, SpvOpFunctionCall, u64, translate_fn(e), addr,
                         cuvk_spirv_const_u64(e, bytes));
}

/* ---- spans ---- */

static bool
is_global_access(const struct cuvk_ir_instr *in)
{
   if (in->op != PTX_OP_LD && in->op != PTX_OP_LDU && in->op != PTX_OP_ST &&
       in->op != PTX_OP_ATOM && in->op != PTX_OP_RED)
      return false;
   enum ptx_modifier m = cuvk_spirv_mod_of_class(in, PTX_MODC_SPACE);
   return m == PTX_MOD_GLOBAL || m == PTX_MOD_CONST;
}

/* The span word in's address register came from, or CUVK_IR_NO_WORD. */
static uint32_t
access_word(const struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   if (!e->param_word || e->func != e->kernel || !in->src_count || !is_global_access(in))
      return CUVK_IR_NO_WORD;
   const struct cuvk_ir_value *a = &in->src[0];
   if (a->kind != CUVK_IR_VAL_ADDR || !a->has_reg || a->reg > e->kernel->reg_count)
      return CUVK_IR_NO_WORD;
   uint32_t w = e->param_word[a->reg];
   return w < CUVK_KERNEL_SPAN_COUNT(e->param_bytes) ? w : CUVK_IR_NO_WORD;
}

bool
cuvk_spirv_spans_begin(struct cuvk_spirv_emitter *e, const struct cuvk_ir_function *f)
{
   uint32_t count = CUVK_KERNEL_SPAN_COUNT(e->param_bytes);
   uint32_t *offsets;

   e->access_word = CUVK_IR_NO_WORD;
   if (!count)
      return true;
   offsets = cuvk_arena_array(&e->arena, f->param_count + 1, sizeof(*offsets));
   e->span_ids = cuvk_arena_array(&e->arena, count, sizeof(*e->span_ids));
   if (!offsets || !e->span_ids)
      return cuvk_cc_fail(e->err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory emitting SPIR-V");
   for (size_t i = 0; i < f->param_count; i++)
      offsets[i] = e->params[i].offset;
   e->param_word = cuvk_ir_param_pointers(f, offsets, &e->arena);
   if (!e->param_word)
      return cuvk_cc_fail(e->err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory emitting SPIR-V");

   uint32_t u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t spans = 0;
   for (unsigned b = 0; b < f->block_count; b++) {
      cuvk_list_for_each_entry(struct cuvk_ir_instr, in, &f->blocks[b]->instrs, link) {
         uint32_t w = access_word(e, in);
         if (w == CUVK_IR_NO_WORD || e->span_ids[w][0])
            continue;
         /* Loaded here, in the entry block, so they dominate every use. */
         if (!spans)
            spans = add64(e, cuvk_spirv_push_load(e, 0), CUVK_KERNEL_SPANS_OFFSET(e->param_bytes));
         uint32_t at = add64(e, spans, (uint64_t)w * sizeof(struct cuvk_kernel_span));
         uint32_t base = device_load(e, at, u64, 8, false);
         uint32_t size = device_load(e, add64(e, at, 8), u64, 8, false);
         uint32_t delta = device_load(e, add64(e, at, 16), u64, 8, false);
         e->span_ids[w][0] = cuvk_spirv_val(e, SpvOpCompositeConstruct,
                                            cuvk_spirv_type_vector(e, u64, 3), base, size, delta);
      }
   }
   return true;
}

/* ---- variables and addresses ---- */

uint32_t
cuvk_spirv_var_address(struct cuvk_spirv_emitter *e, const struct cuvk_ir_var *var,
                       uint64_t offset)
{
   uint32_t at;

   if (var->space == PTX_SPACE_SHARED && var->unsized)
      return cuvk_spirv_const_u64(e, e->dynamic_shared_offset + offset);
   if (!get_offset(e, var, &at)) {
      cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, NULL, "variable %s is not reachable here",
                      var->name);
      return cuvk_spirv_const_u64(e, 0);
   }
   switch (var->space) {
   case PTX_SPACE_GLOBAL:
   case PTX_SPACE_CONST: {
      /* The globals table holds each variable's CUdeviceptr. */
      uint32_t slot = add64(e, cuvk_spirv_push_load(e, 1), (uint64_t)at * 8);
      return add64(e, device_load(e, slot, cuvk_spirv_type_uint(e, 64), 8, false), offset);
   }
   default:
      return cuvk_spirv_const_u64(e, at + offset);
   }
}

/* The space an instruction's modifiers name, for the variable or register
 * its address operand uses. */
static bool
instr_space(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
            const struct cuvk_ir_value *addr, enum space *sp)
{
   enum ptx_modifier m = cuvk_spirv_mod_of_class(in, PTX_MODC_SPACE);
   size_t index;

   switch (m) {
   case PTX_MOD_GLOBAL:
   case PTX_MOD_CONST:
      *sp = SPACE_GLOBAL;
      return true;
   case PTX_MOD_SHARED:
   case PTX_MOD_SHARED_CTA:
      *sp = SPACE_SHARED;
      return true;
   case PTX_MOD_LOCAL:
      *sp = SPACE_LOCAL;
      return true;
   case PTX_MOD_PARAM:
   case PTX_MOD_PARAM_ENTRY:
   case PTX_MOD_PARAM_FUNC:
      /* A kernel's parameters are the parameter block; a .func's and the
       * call slots are local bytes. */
      if (addr->kind == CUVK_IR_VAL_ADDR && addr->var)
         *sp = is_kernel_param(e, addr->var, &index) ? SPACE_DEVICE : SPACE_LOCAL;
      else
         *sp = e->func == e->kernel ? SPACE_DEVICE : SPACE_LOCAL;
      return true;
   case PTX_MOD_COUNT:
      *sp = SPACE_GENERIC;
      return true;
   default:
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "state space %s is not translated",
                             ptx_modifier_table[m].name);
   }
}

/* The address an [base+offset] operand names, u64: a CUdeviceptr, a
 * device address (parameter block), an offset (shared, local), or a
 * generic address. */
static uint32_t
operand_address(struct cuvk_spirv_emitter *e, const struct cuvk_ir_value *v, enum space sp)
{
   uint32_t u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t addr;

   if (v->kind != CUVK_IR_VAL_ADDR) {
      cuvk_spirv_fail(e, CUVK_CC_INVALID, NULL, "expected an address operand");
      return cuvk_spirv_const_u64(e, 0);
   }
   if (v->has_reg) {
      struct cuvk_ir_value r = { .kind = CUVK_IR_VAL_REG, .reg = v->reg };
      addr = add64(e, cuvk_spirv_read(e, &r, CUVK_SPIRV_UINT, 64), v->imm);
      if (sp == SPACE_DEVICE)
         addr = cuvk_spirv_val(e, SpvOpIAdd, u64, cuvk_spirv_push_load(e, 0), addr);
   } else if (v->var) {
      addr = cuvk_spirv_var_address(e, v->var, v->imm);
      if (sp == SPACE_DEVICE)
         addr = cuvk_spirv_val(e, SpvOpIAdd, u64, cuvk_spirv_push_load(e, 0), addr);
   } else {
      addr = cuvk_spirv_const_u64(e, v->imm);
   }
   return addr;
}

/* ---- generic accesses ---- */

static uint32_t
window_offset(struct cuvk_spirv_emitter *e, uint32_t addr, uint64_t window, uint32_t *inside)
{
   uint32_t u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t off = cuvk_spirv_val(e, SpvOpISub, u64, addr, cuvk_spirv_const_u64(e, window));
   *inside = cuvk_spirv_val(e, SpvOpULessThan, cuvk_spirv_type_bool(e), off,
                            cuvk_spirv_const_u64(e, CUVK_KERNEL_WINDOW_SIZE));
   return off;
}

/* uN cuvk_generic_loadN(u64 addr) and void cuvk_generic_storeN(u64 addr,
 * uN value): the window decides the space. */
static uint32_t
generic_fn(struct cuvk_spirv_emitter *e, bool store, unsigned bits, bool is_volatile)
{
   uint32_t key = 2 + store;
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_HELPER, key, bits, is_volatile);
   if (id)
      return id;
   uint32_t tr = translate_fn(e);
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t tn = cuvk_spirv_type_uint(e, bits);
   uint32_t params[2] = { u64, tn }, p[2];
   struct cuvk_spirv_helper h;
   id = helper_begin(e, &h, store ? cuvk_spirv_type_void(e) : tn, params, store ? 2 : 1, p);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_HELPER, key, bits, is_volatile, id);

   uint32_t l_shared = cuvk_spirv_id(&e->b), l_not_shared = cuvk_spirv_id(&e->b);
   uint32_t l_local = cuvk_spirv_id(&e->b), l_global = cuvk_spirv_id(&e->b);
   label(e, cuvk_spirv_id(&e->b));
   uint32_t in_shared, in_local;
   uint32_t off = window_offset(e, p[0], CUVK_KERNEL_SHARED_WINDOW, &in_shared);
   cuvk_spirv_do(e, SpvOpSelectionMerge, l_not_shared, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranchConditional, in_shared, l_shared, l_not_shared);
   label(e, l_shared);
   uint32_t off32 = cuvk_spirv_val(e, SpvOpUConvert, u32, off);
   if (store) {
      array_store(e, SPACE_SHARED, off32, p[1], bits, is_volatile);
      cuvk_spirv_do(e, SpvOpReturn);
   } else {
      cuvk_spirv_do(e, SpvOpReturnValue, array_load(e, SPACE_SHARED, off32, bits, is_volatile));
   }
   label(e, l_not_shared);
   off = window_offset(e, p[0], CUVK_KERNEL_LOCAL_WINDOW, &in_local);
   cuvk_spirv_do(e, SpvOpSelectionMerge, l_global, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranchConditional, in_local, l_local, l_global);
   label(e, l_local);
   off32 = cuvk_spirv_val(e, SpvOpUConvert, u32, off);
   if (store) {
      array_store(e, SPACE_LOCAL, off32, p[1], bits, is_volatile);
      cuvk_spirv_do(e, SpvOpReturn);
   } else {
      cuvk_spirv_do(e, SpvOpReturnValue, array_load(e, SPACE_LOCAL, off32, bits, is_volatile));
   }
   label(e, l_global);
   need_storage_width(e, bits);
   uint32_t dev = cuvk_spirv_val(e, SpvOpFunctionCall, u64, tr, p[0],
                                 cuvk_spirv_const_u64(e, bits / 8));
   if (store) {
      device_store(e, dev, tn, p[1], bits / 8, is_volatile);
      cuvk_spirv_do(e, SpvOpReturn);
   } else {
      cuvk_spirv_do(e, SpvOpReturnValue, device_load(e, dev, tn, bits / 8, is_volatile));
   }
   helper_end(e, &h, store ? "cuvk_generic_store" : "cuvk_generic_load");
   return id;
}

/* ---- ld and st ---- */

/* The element type of ld/st/atom: kind and bits; b128 and f16x2 are
 * refused. */
static bool
access_type(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
            enum cuvk_spirv_kind *kind, unsigned *bits)
{
   enum ptx_modifier t = cuvk_spirv_type_mod(in, 0);
   if (t == PTX_MOD_COUNT || !cuvk_spirv_ptx_kind(t, kind, bits) || *kind == CUVK_SPIRV_BOOL ||
       *bits < 8)
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "%s of type %s is not translated",
                             ptx_opcode_table[in->op].name,
                             t == PTX_MOD_COUNT ? "(none)" : ptx_modifier_table[t].name);
   return true;
}

/* Loads one element of bits at address addr of space sp, as a uint. */
static uint32_t
load_bits(struct cuvk_spirv_emitter *e, enum space sp, uint32_t addr, unsigned bits,
          bool is_volatile, bool translated)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), tn = cuvk_spirv_type_uint(e, bits);
   switch (sp) {
   case SPACE_GLOBAL:
   case SPACE_DEVICE:
      need_storage_width(e, bits);
      if (sp == SPACE_GLOBAL && !translated)
         addr = translate(e, addr, bits / 8);
      return device_load(e, addr, tn, bits / 8, is_volatile);
   case SPACE_SHARED:
   case SPACE_LOCAL:
      return array_load(e, sp, cuvk_spirv_val(e, SpvOpUConvert, u32, addr), bits, is_volatile);
   default:
      return cuvk_spirv_val(e, SpvOpFunctionCall, tn, generic_fn(e, false, bits, is_volatile),
                            addr);
   }
}

static void
store_bits(struct cuvk_spirv_emitter *e, enum space sp, uint32_t addr, uint32_t value,
           unsigned bits, bool is_volatile, bool translated)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), tn = cuvk_spirv_type_uint(e, bits);
   switch (sp) {
   case SPACE_GLOBAL:
   case SPACE_DEVICE:
      need_storage_width(e, bits);
      if (sp == SPACE_GLOBAL && !translated)
         addr = translate(e, addr, bits / 8);
      device_store(e, addr, tn, value, bits / 8, is_volatile);
      return;
   case SPACE_SHARED:
   case SPACE_LOCAL:
      array_store(e, sp, cuvk_spirv_val(e, SpvOpUConvert, u32, addr), value, bits, is_volatile);
      return;
   default:
      cuvk_spirv_val(e, SpvOpFunctionCall, cuvk_spirv_type_void(e),
                     generic_fn(e, true, bits, is_volatile), addr, value);
   }
}

static int
lower_ld_st(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, bool store)
{
   enum cuvk_spirv_kind kind;
   unsigned bits;
   enum space sp;
   unsigned lanes = 1;
   const struct cuvk_ir_value *addr_v = &in->src[0];

   if (!access_type(e, in, &kind, &bits))
      return -1;
   if (cuvk_spirv_has_mod(in, PTX_MOD_V2))
      lanes = 2;
   else if (cuvk_spirv_has_mod(in, PTX_MOD_V4))
      lanes = 4;
   else if (cuvk_spirv_has_mod(in, PTX_MOD_V8))
      lanes = 8;
   unsigned values = store ? in->src_count - 1 : in->dst_count;
   if (in->src_count < 1 || values != lanes)
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "expected %u values", lanes) ? 1 : -1;
   if (!instr_space(e, in, addr_v, &sp))
      return -1;
   /* .relaxed/.acquire/.release with a scope are atomic accesses in PTX's
    * memory model; .volatile is relaxed at system scope, which a Volatile
    * access gives for the values cuvk's kernels see. */
   enum ptx_modifier sem = cuvk_spirv_mod_of_class(in, PTX_MODC_SEM);
   bool is_volatile = sem == PTX_MOD_VOLATILE || sem == PTX_MOD_RELAXED ||
                      sem == PTX_MOD_ACQUIRE || sem == PTX_MOD_RELEASE;
   if (sem == PTX_MOD_MMIO)
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, ".mmio accesses are not translated")
                ? 1 : -1;
   if ((sem == PTX_MOD_ACQUIRE || sem == PTX_MOD_RELEASE) && lanes != 1)
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "vector accesses cannot be %s",
                             ptx_modifier_table[sem].name) ? 1 : -1;
   uint32_t fence_sem = SpvMemorySemanticsUniformMemoryMask |
                        SpvMemorySemanticsWorkgroupMemoryMask;
   uint32_t fence_scope = cuvk_spirv_has_mod(in, PTX_MOD_CTA) ? SpvScopeWorkgroup : SpvScopeDevice;
   /* A release store orders what came before it: a release fence, then
    * the store; an acquire load the reverse. */
   if (sem == PTX_MOD_RELEASE)
      cuvk_spirv_do(e, SpvOpMemoryBarrier, cuvk_spirv_const_u32(e, fence_scope),
                    cuvk_spirv_const_u32(e, fence_sem | SpvMemorySemanticsReleaseMask));

   uint32_t addr = operand_address(e, addr_v, sp);
   unsigned bytes = bits / 8;
   bool translated = false;
   if (sp == SPACE_GLOBAL) {
      e->access_word = access_word(e, in);
      addr = translate(e, addr, bytes * lanes);
      e->access_word = CUVK_IR_NO_WORD;
      translated = true;
   }
   for (unsigned i = 0; i < lanes && !e->failed; i++) {
      uint32_t at = add64(e, addr, (uint64_t)i * bytes);
      if (store) {
         const struct cuvk_ir_value *v = &in->src[1 + i];
         uint32_t value = cuvk_spirv_read(e, v, kind == CUVK_SPIRV_SINT ? CUVK_SPIRV_UINT : kind,
                                          bits);
         if (kind == CUVK_SPIRV_FLOAT)
            value = cuvk_spirv_val(e, SpvOpBitcast, cuvk_spirv_type_uint(e, bits), value);
         store_bits(e, sp, at, value, bits, is_volatile, translated);
      } else {
         uint32_t value = load_bits(e, sp, at, bits, is_volatile, translated);
         if (in->dst[i].kind == CUVK_IR_VAL_NONE)
            continue;
         if (kind == CUVK_SPIRV_FLOAT)
            value = cuvk_spirv_val(e, SpvOpBitcast, cuvk_spirv_type_float(e, bits), value);
         cuvk_spirv_write(e, &in->dst[i], value, kind, bits);
      }
   }
   if (sem == PTX_MOD_ACQUIRE)
      cuvk_spirv_do(e, SpvOpMemoryBarrier, cuvk_spirv_const_u32(e, fence_scope),
                    cuvk_spirv_const_u32(e, fence_sem | SpvMemorySemanticsAcquireMask));
   return e->failed ? -1 : 1;
}

/* ---- cvta, isspacep ---- */

static int
lower_cvta(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   enum ptx_modifier m = cuvk_spirv_mod_of_class(in, PTX_MODC_SPACE);
   enum ptx_modifier t = cuvk_spirv_type_mod(in, 0);
   unsigned bits = t == PTX_MOD_U32 ? 32 : 64;
   bool to = cuvk_spirv_has_mod(in, PTX_MOD_TO);
   uint64_t window = 0;
   uint32_t u64 = cuvk_spirv_type_uint(e, 64);

   if (in->dst_count != 1 || in->src_count != 1)
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "cvta takes two operands") ? 1 : -1;
   switch (m) {
   case PTX_MOD_GLOBAL:
   case PTX_MOD_CONST:
      /* Generic global addresses are CUdeviceptrs already. */
      break;
   case PTX_MOD_SHARED:
   case PTX_MOD_SHARED_CTA:
      window = CUVK_KERNEL_SHARED_WINDOW;
      break;
   case PTX_MOD_LOCAL:
      window = CUVK_KERNEL_LOCAL_WINDOW;
      break;
   default:
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "cvta%s is not translated",
                             m == PTX_MOD_COUNT ? "" : ptx_modifier_table[m].name) ? 1 : -1;
   }
   uint32_t a = cuvk_spirv_read(e, &in->src[0], CUVK_SPIRV_UINT, 64);
   if (window)
      a = cuvk_spirv_val(e, to ? SpvOpISub : SpvOpIAdd, u64, a, cuvk_spirv_const_u64(e, window));
   cuvk_spirv_write(e, &in->dst[0], cuvk_spirv_convert(e, a, CUVK_SPIRV_UINT, 64,
                                                       CUVK_SPIRV_UINT, bits),
                    CUVK_SPIRV_UINT, bits);
   return e->failed ? -1 : 1;
}

static int
lower_isspacep(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   enum ptx_modifier m = cuvk_spirv_mod_of_class(in, PTX_MODC_SPACE);
   uint32_t a = cuvk_spirv_read(e, &in->src[0], CUVK_SPIRV_UINT, 64);
   uint32_t t_bool = cuvk_spirv_type_bool(e);
   uint32_t in_shared, in_local, r;

   window_offset(e, a, CUVK_KERNEL_SHARED_WINDOW, &in_shared);
   window_offset(e, a, CUVK_KERNEL_LOCAL_WINDOW, &in_local);
   switch (m) {
   case PTX_MOD_SHARED:
   case PTX_MOD_SHARED_CTA: r = in_shared; break;
   case PTX_MOD_LOCAL: r = in_local; break;
   case PTX_MOD_GLOBAL:
      r = cuvk_spirv_val(e, SpvOpLogicalNot, t_bool,
                         cuvk_spirv_val(e, SpvOpLogicalOr, t_bool, in_shared, in_local));
      break;
   default:
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "isspacep of this space is not "
                             "translated") ? 1 : -1;
   }
   cuvk_spirv_write(e, &in->dst[0], r, CUVK_SPIRV_BOOL, 1);
   return e->failed ? -1 : 1;
}

/* ---- atomics ---- */

/* One atom/red: the operation, its type, and its ordering. */
struct atomic {
   enum ptx_modifier op;          /* .add .min ... .cas, or .and .or .xor */
   enum cuvk_spirv_kind kind;
   unsigned bits;
   bool is_float;
   bool cta;                      /* .cta scope */
   enum ptx_modifier sem;         /* .relaxed (or none) .acquire .release .acq_rel */
   /* f16, f16x2, bf16, bf16x2 and cas.b16: the atomic works on the
    * 32-bit word that holds the value (bits 32, kind uint), b is the
    * operand in its lanes' places (cas: compare | new << 16) and c the
    * mask of the lanes it changes. */
   bool half;
   bool bf;                       /* half: bf16 lanes */
};

static uint32_t
atomic_semantics(const struct atomic *a, bool shared)
{
   uint32_t storage = shared ? SpvMemorySemanticsWorkgroupMemoryMask
                             : SpvMemorySemanticsUniformMemoryMask;
   switch (a->sem) {
   case PTX_MOD_ACQUIRE: return SpvMemorySemanticsAcquireMask | storage;
   case PTX_MOD_RELEASE: return SpvMemorySemanticsReleaseMask | storage;
   case PTX_MOD_ACQ_REL: return SpvMemorySemanticsAcquireReleaseMask | storage;
   default: return SpvMemorySemanticsMaskNone;   /* atom's default is .relaxed */
   }
}

/* The value an atomic leaves in memory, from the old one (all uint bits
 * of the width): what a compare-and-swap loop and local memory compute. */
static uint32_t
atomic_combine(struct cuvk_spirv_emitter *e, const struct atomic *a, uint32_t old, uint32_t b,
               uint32_t c)
{
   unsigned bits = a->bits;
   uint32_t tn = cuvk_spirv_type_uint(e, bits), t_bool = cuvk_spirv_type_bool(e);
   uint32_t one = cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, bits, 1);
   uint32_t zero = cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, bits, 0);
   bool s = a->kind == CUVK_SPIRV_SINT;

   if (a->half && a->op == PTX_MOD_CAS) {
      uint32_t sh = cuvk_spirv_val(e, SpvOpSelect, tn,
                                   cuvk_spirv_val(e, SpvOpIEqual, t_bool, c,
                                                  cuvk_spirv_const_u32(e, 0xffff)),
                                   cuvk_spirv_const_u32(e, 0), cuvk_spirv_const_u32(e, 16));
      uint32_t m16 = cuvk_spirv_const_u32(e, 0xffff);
      uint32_t lane = cuvk_spirv_val(e, SpvOpBitwiseAnd, tn,
                                     cuvk_spirv_val(e, SpvOpShiftRightLogical, tn, old, sh), m16);
      uint32_t hit = cuvk_spirv_val(e, SpvOpIEqual, t_bool, lane,
                                    cuvk_spirv_val(e, SpvOpBitwiseAnd, tn, b, m16));
      uint32_t put = cuvk_spirv_val(e, SpvOpShiftLeftLogical, tn,
                                    cuvk_spirv_val(e, SpvOpShiftRightLogical, tn, b,
                                                   cuvk_spirv_const_u32(e, 16)), sh);
      uint32_t next = cuvk_spirv_val(e, SpvOpBitwiseOr, tn,
                                     cuvk_spirv_val(e, SpvOpBitwiseAnd, tn, old,
                                                    cuvk_spirv_val(e, SpvOpNot, tn, c)), put);
      return cuvk_spirv_val(e, SpvOpSelect, tn, hit, next, old);
   }
   if (a->half) {
      enum ptx_opcode op = a->op == PTX_MOD_MIN ? PTX_OP_MIN
                           : a->op == PTX_MOD_MAX ? PTX_OP_MAX : PTX_OP_ADD;
      uint32_t r = cuvk_spirv_packed_op(e, op, a->bf, old, b);
      return cuvk_spirv_val(e, SpvOpBitwiseOr, tn, cuvk_spirv_val(e, SpvOpBitwiseAnd, tn, r, c),
                            cuvk_spirv_val(e, SpvOpBitwiseAnd, tn, old,
                                           cuvk_spirv_val(e, SpvOpNot, tn, c)));
   }
   switch (a->op) {
   case PTX_MOD_ADD:
      if (a->is_float) {
         uint32_t tf = cuvk_spirv_type_float(e, bits);
         uint32_t sum = cuvk_spirv_val(e, SpvOpFAdd, tf, cuvk_spirv_val(e, SpvOpBitcast, tf, old),
                                       cuvk_spirv_val(e, SpvOpBitcast, tf, b));
         return cuvk_spirv_val(e, SpvOpBitcast, tn, sum);
      }
      return cuvk_spirv_val(e, SpvOpIAdd, tn, old, b);
   case PTX_MOD_MIN:
      return cuvk_spirv_val(e, SpvOpSelect, tn,
                            cuvk_spirv_val(e, s ? SpvOpSLessThan : SpvOpULessThan, t_bool, b, old),
                            b, old);
   case PTX_MOD_MAX:
      return cuvk_spirv_val(e, SpvOpSelect, tn,
                            cuvk_spirv_val(e, s ? SpvOpSGreaterThan : SpvOpUGreaterThan, t_bool,
                                           b, old),
                            b, old);
   case PTX_MOD_AND: return cuvk_spirv_val(e, SpvOpBitwiseAnd, tn, old, b);
   case PTX_MOD_OR: return cuvk_spirv_val(e, SpvOpBitwiseOr, tn, old, b);
   case PTX_MOD_XOR: return cuvk_spirv_val(e, SpvOpBitwiseXor, tn, old, b);
   case PTX_MOD_EXCH: return b;
   case PTX_MOD_CAS:
      return cuvk_spirv_val(e, SpvOpSelect, tn, cuvk_spirv_val(e, SpvOpIEqual, t_bool, old, b), c,
                            old);
   case PTX_MOD_INC:
      /* (old >= b) ? 0 : old + 1 */
      return cuvk_spirv_val(e, SpvOpSelect, tn,
                            cuvk_spirv_val(e, SpvOpUGreaterThanEqual, t_bool, old, b), zero,
                            cuvk_spirv_val(e, SpvOpIAdd, tn, old, one));
   default: {
      /* dec: (old == 0 || old > b) ? b : old - 1 */
      uint32_t wrap = cuvk_spirv_val(e, SpvOpLogicalOr, t_bool,
                                     cuvk_spirv_val(e, SpvOpIEqual, t_bool, old, zero),
                                     cuvk_spirv_val(e, SpvOpUGreaterThan, t_bool, old, b));
      return cuvk_spirv_val(e, SpvOpSelect, tn, wrap, b, cuvk_spirv_val(e, SpvOpISub, tn, old, one));
   }
   }
}

/* uN cuvk_atomic_loop(ptr, uN b, uN c): a compare-and-swap loop for what
 * the device has no atomic instruction for (inc and dec with PTX's
 * wrapping rules, float adds without VK_EXT_shader_atomic_float, and
 * half-precision atomics and cas.b16 on their word, c the lanes' mask).
 * ptr is a device address (u64) or a shared element index (u32): of the
 * words, or for 64 bits of the 64-bit view. */
static uint32_t
cas_fn(struct cuvk_spirv_emitter *e, const struct atomic *a, bool shared)
{
   uint32_t key_a = 16 + a->op * 4 + shared * 2 + a->is_float;
   uint64_t key_b = a->bits | (uint64_t)a->half << 8 | (uint64_t)a->bf << 9;
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_HELPER, key_a, key_b, 0);
   if (id)
      return id;
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t tn = cuvk_spirv_type_uint(e, a->bits), t_bool = cuvk_spirv_type_bool(e);
   uint32_t params[3] = { shared ? u32 : u64, tn, tn }, p[3];
   struct cuvk_spirv_helper h;
   id = helper_begin(e, &h, tn, params, 3, p);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_HELPER, key_a, key_b, 0, id);

   uint32_t l_entry = cuvk_spirv_id(&e->b), l_head = cuvk_spirv_id(&e->b);
   uint32_t l_body = cuvk_spirv_id(&e->b), l_cont = cuvk_spirv_id(&e->b);
   uint32_t l_done = cuvk_spirv_id(&e->b);
   label(e, l_entry);
   uint32_t ptr = shared ? shared_elem_ptr(e, a->bits, p[0]) : device_ptr(e, p[0], tn);
   uint32_t scope = cuvk_spirv_const_u32(e, shared ? SpvScopeWorkgroup : SpvScopeDevice);
   uint32_t none = cuvk_spirv_const_u32(e, SpvMemorySemanticsMaskNone);
   uint32_t first = cuvk_spirv_val(e, SpvOpAtomicLoad, tn, ptr, scope, none);
   cuvk_spirv_do(e, SpvOpBranch, l_head);
   /* The value a lane returns is the loop header's phi, not a value of
    * the body: on lavapipe (Mesa 22.3's llvmpipe) a body value used after
    * the loop holds, in every lane, what the last lane to leave computed,
    * so a lane whose CAS swapped early returned a later lane's word (a
    * 16-bit CAS then reported its own success as a failure and nvcc's loop
    * around it added again: 63 for 32).  The phi is written only by lanes
    * still looping.  A failed CAS's result is the word to try next. */
   label(e, l_head);
   uint32_t old = cuvk_spirv_id(&e->b), got = cuvk_spirv_id(&e->b);
   cuvk_spirv_do(e, SpvOpPhi, tn, old, first, l_entry, got, l_cont);
   cuvk_spirv_do(e, SpvOpLoopMerge, l_done, l_cont, SpvLoopControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranch, l_body);
   label(e, l_body);
   uint32_t next = atomic_combine(e, a, old, p[1], p[2]);
   cuvk_spirv_emit_op(e, SpvOpAtomicCompareExchange,
                      (const uint32_t[]){ tn, got, ptr, scope, none, none, next, old }, 8);
   uint32_t swapped = cuvk_spirv_val(e, SpvOpIEqual, t_bool, got, old);
   cuvk_spirv_do(e, SpvOpBranchConditional, swapped, l_done, l_cont);
   label(e, l_cont);
   cuvk_spirv_do(e, SpvOpBranch, l_head);
   label(e, l_done);
   cuvk_spirv_do(e, SpvOpReturnValue, old);
   helper_end(e, &h, "cuvk_atomic_loop");
   return id;
}

/* The atomic at addr of space sp (global: a CUdeviceptr; shared, local:
 * an offset, u64), with b and c as uint bits; returns the old value as
 * uint bits. */
static uint32_t
atomic_apply(struct cuvk_spirv_emitter *e, const struct atomic *a, enum space sp, uint32_t addr,
             uint32_t b, uint32_t c)
{
   unsigned bits = a->bits;
   uint32_t tn = cuvk_spirv_type_uint(e, bits), u32 = cuvk_spirv_type_uint(e, 32);
   bool shared = sp == SPACE_SHARED;

   if (sp == SPACE_LOCAL) {
      /* Nobody else sees local memory: a read-modify-write is atomic. */
      uint32_t off = cuvk_spirv_val(e, SpvOpUConvert, u32, addr);
      uint32_t old = array_load(e, SPACE_LOCAL, off, bits, false);
      array_store(e, SPACE_LOCAL, off, atomic_combine(e, a, old, b, c), bits, false);
      return old;
   }
   if (shared && bits == 64 && !e->shared64) {
      /* Only reached through a generic address (lower_atomic refuses
       * .shared ones): no 64-bit atomics on an array of words, so the
       * launch reports a trap instead of a racy result. */
      cuvk_spirv_store_fault(e, CUVK_KERNEL_FAULT_TRAP);
      return cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, 64, 0);
   }
   uint32_t ptr, where;
   if (shared) {
      /* The element of the view of the atomic's width. */
      uint32_t off = cuvk_spirv_val(e, SpvOpUConvert, u32, addr);
      where = cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, off,
                             cuvk_spirv_const_u32(e, bits == 64 ? 3 : 2));
      ptr = shared_elem_ptr(e, bits, where);
      if (bits == 64)
         cuvk_spirv_capability(e, SpvCapabilityInt64Atomics);
   } else {
      where = translate(e, addr, bits / 8);
      ptr = device_ptr(e, where, tn);
   }
   uint32_t scope = cuvk_spirv_const_u32(e, a->cta || shared ? SpvScopeWorkgroup : SpvScopeDevice);
   uint32_t sem = cuvk_spirv_const_u32(e, atomic_semantics(a, shared));
   SpvOp sop;

   /* half: a loop even for cas.b16, whose compare covers only its lane. */
   if (a->half)
      return cuvk_spirv_val(e, SpvOpFunctionCall, tn, cas_fn(e, a, shared), where, b, c);

   switch (a->op) {
   case PTX_MOD_ADD:
      if (!a->is_float) {
         sop = SpvOpAtomicIAdd;
         break;
      }
      if (!shared && ((bits == 32 && e->target->atomic_float32_add) ||
                      (bits == 64 && e->target->atomic_float64_add))) {
         uint32_t tf = cuvk_spirv_type_float(e, bits);
         cuvk_spirv_capability(e, bits == 32 ? SpvCapabilityAtomicFloat32AddEXT
                                             : SpvCapabilityAtomicFloat64AddEXT);
         cuvk_spirv_extension(e, "SPV_EXT_shader_atomic_float_add");
         uint32_t old = cuvk_spirv_val(e, SpvOpAtomicFAddEXT, tf, device_ptr(e, where, tf), scope,
                                       sem, cuvk_spirv_val(e, SpvOpBitcast, tf, b));
         return cuvk_spirv_val(e, SpvOpBitcast, tn, old);
      }
      return cuvk_spirv_val(e, SpvOpFunctionCall, tn, cas_fn(e, a, shared), where, b, c);
   case PTX_MOD_MIN:
      sop = a->kind == CUVK_SPIRV_SINT ? SpvOpAtomicSMin : SpvOpAtomicUMin;
      break;
   case PTX_MOD_MAX:
      sop = a->kind == CUVK_SPIRV_SINT ? SpvOpAtomicSMax : SpvOpAtomicUMax;
      break;
   case PTX_MOD_AND: sop = SpvOpAtomicAnd; break;
   case PTX_MOD_OR: sop = SpvOpAtomicOr; break;
   case PTX_MOD_XOR: sop = SpvOpAtomicXor; break;
   case PTX_MOD_EXCH: sop = SpvOpAtomicExchange; break;
   case PTX_MOD_CAS:
      return cuvk_spirv_val(e, SpvOpAtomicCompareExchange, tn, ptr, scope, sem, sem, c, b);
   default:   /* inc, dec */
      return cuvk_spirv_val(e, SpvOpFunctionCall, tn, cas_fn(e, a, shared), where, b, c);
   }
   return cuvk_spirv_val(e, sop, tn, ptr, scope, sem, b);
}

/* uN cuvk_atomic_generic(u64 addr, uN b, uN c): the windows decide the
 * space, as for generic loads and stores. */
static uint32_t
atomic_generic_fn(struct cuvk_spirv_emitter *e, const struct atomic *a)
{
   uint32_t key_a = 256 + a->op;
   uint64_t key_b = (uint64_t)a->bits | (uint64_t)a->kind << 8 | (uint64_t)a->is_float << 12 |
                    (uint64_t)a->cta << 13 | (uint64_t)a->sem << 16 | (uint64_t)a->half << 32 |
                    (uint64_t)a->bf << 33;
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_HELPER, key_a, key_b, 0);
   if (id)
      return id;
   translate_fn(e);
   uint32_t u64 = cuvk_spirv_type_uint(e, 64), tn = cuvk_spirv_type_uint(e, a->bits);
   uint32_t params[3] = { u64, tn, tn }, p[3];
   struct cuvk_spirv_helper h;
   id = helper_begin(e, &h, tn, params, 3, p);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_HELPER, key_a, key_b, 0, id);

   uint32_t l_shared = cuvk_spirv_id(&e->b), l_not_shared = cuvk_spirv_id(&e->b);
   uint32_t l_local = cuvk_spirv_id(&e->b), l_global = cuvk_spirv_id(&e->b);
   uint32_t in_shared, in_local;
   label(e, cuvk_spirv_id(&e->b));
   uint32_t off = window_offset(e, p[0], CUVK_KERNEL_SHARED_WINDOW, &in_shared);
   cuvk_spirv_do(e, SpvOpSelectionMerge, l_not_shared, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranchConditional, in_shared, l_shared, l_not_shared);
   label(e, l_shared);
   cuvk_spirv_do(e, SpvOpReturnValue, atomic_apply(e, a, SPACE_SHARED, off, p[1], p[2]));
   label(e, l_not_shared);
   off = window_offset(e, p[0], CUVK_KERNEL_LOCAL_WINDOW, &in_local);
   cuvk_spirv_do(e, SpvOpSelectionMerge, l_global, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranchConditional, in_local, l_local, l_global);
   label(e, l_local);
   cuvk_spirv_do(e, SpvOpReturnValue, atomic_apply(e, a, SPACE_LOCAL, off, p[1], p[2]));
   label(e, l_global);
   cuvk_spirv_do(e, SpvOpReturnValue, atomic_apply(e, a, SPACE_GLOBAL, p[0], p[1], p[2]));
   helper_end(e, &h, "cuvk_atomic_generic");
   return id;
}

/* atom/red .add (.noftz), .min, .max on f16, f16x2, bf16, bf16x2 (what
 * cuda_fp16.h's and cuda_bf16.h's atomicAdd write), and atom.cas.b16
 * (their emulation below sm_90, and atomicCAS on unsigned short): Vulkan
 * has no 16-bit atomics, so a compare-and-swap loop on the 32-bit word
 * that holds the value, which changes only the value's lanes; float lanes
 * round as the packed instructions round. */
static int
lower_atomic_half(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, bool red,
                  enum ptx_modifier type)
{
   const struct cuvk_cc_target *tg = e->target;
   struct atomic a = { .bits = 32, .kind = CUVK_SPIRV_UINT, .half = true };
   const struct cuvk_ir_value *addr_v = &in->src[0];
   bool x2 = type == PTX_MOD_F16X2 || type == PTX_MOD_BF16X2;
   bool is_int = type == PTX_MOD_B16 || type == PTX_MOD_U16 || type == PTX_MOD_S16;
   enum space sp;

   a.bf = type == PTX_MOD_BF16 || type == PTX_MOD_BF16X2;
   a.op = cuvk_spirv_mod_of_class(in, PTX_MODC_ATOMOP);
   a.sem = cuvk_spirv_mod_of_class(in, PTX_MODC_SEM);
   a.cta = cuvk_spirv_has_mod(in, PTX_MOD_CTA);
   /* lower_atomic sends only cas of the integer types here. */
   if (!is_int && a.op != PTX_MOD_ADD && a.op != PTX_MOD_MIN && a.op != PTX_MOD_MAX)
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "atomic %s on %s is not translated",
                             a.op == PTX_MOD_COUNT ? "(none)" : ptx_modifier_table[a.op].name,
                             ptx_modifier_table[type].name) ? 1 : -1;
   if (in->src_count != (is_int ? 3u : 2u) || (!red && in->dst_count != 1) ||
       (red && in->dst_count != 0))
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "wrong operands") ? 1 : -1;
   if (cuvk_spirv_has_mod(in, PTX_MOD_V2) || cuvk_spirv_has_mod(in, PTX_MOD_V4) ||
       cuvk_spirv_has_mod(in, PTX_MOD_V8))
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "vector atomics are not translated")
                ? 1 : -1;
   if (!instr_space(e, in, addr_v, &sp))
      return -1;
   if (sp != SPACE_GLOBAL && sp != SPACE_SHARED && sp != SPACE_GENERIC)
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "atomics on this space are not "
                             "translated") ? 1 : -1;
   if (!x2 && !tg->int16)
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "%s atomics need shaderInt16",
                             ptx_modifier_table[type].name) ? 1 : -1;
   if (a.bf && a.op == PTX_MOD_ADD && (!tg->float64 || !tg->int64))
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "%s atomic add needs shaderFloat64 and "
                             "shaderInt64 to round", ptx_modifier_table[type].name) ? 1 : -1;
   if (a.bf && !tg->float64)
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "%s atomics need shaderFloat64",
                             ptx_modifier_table[type].name) ? 1 : -1;

   uint32_t u32 = cuvk_spirv_type_uint(e, 32), u64 = cuvk_spirv_type_uint(e, 64);
   uint32_t addr = operand_address(e, addr_v, sp);
   uint32_t b = cuvk_spirv_read(e, &in->src[1], CUVK_SPIRV_UINT, x2 ? 32 : 16), mask, shift = 0;
   if (x2) {
      mask = cuvk_spirv_const_u32(e, 0xffffffffu);
   } else {
      /* The lane of the word: PTX's f16 atomics are 2-byte aligned. */
      uint32_t low = cuvk_spirv_val(e, SpvOpUConvert, u32, addr);
      shift = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32,
                             cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, low,
                                            cuvk_spirv_const_u32(e, 2)),
                             cuvk_spirv_const_u32(e, 3));
      b = cuvk_spirv_val(e, SpvOpUConvert, u32, b);
      if (is_int) {
         uint32_t c = cuvk_spirv_read(e, &in->src[2], CUVK_SPIRV_UINT, 16);
         c = cuvk_spirv_val(e, SpvOpUConvert, u32, c);
         b = cuvk_spirv_val(e, SpvOpBitwiseOr, u32, b,
                            cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32, c,
                                           cuvk_spirv_const_u32(e, 16)));
      } else {
         b = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32, b, shift);
      }
      mask = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32, cuvk_spirv_const_u32(e, 0xffff), shift);
      addr = cuvk_spirv_val(e, SpvOpBitwiseAnd, u64, addr, cuvk_spirv_const_u64(e, ~3ull));
   }
   uint32_t old;
   if (sp == SPACE_GENERIC) {
      old = cuvk_spirv_val(e, SpvOpFunctionCall, u32, atomic_generic_fn(e, &a), addr, b, mask);
   } else {
      if (sp == SPACE_GLOBAL)
         e->access_word = access_word(e, in);
      old = atomic_apply(e, &a, sp, addr, b, mask);
      e->access_word = CUVK_IR_NO_WORD;
   }
   if (!red) {
      if (x2)
         cuvk_spirv_write(e, &in->dst[0], old, CUVK_SPIRV_UINT, 32);
      else
         cuvk_spirv_write(e, &in->dst[0],
                          cuvk_spirv_val(e, SpvOpUConvert, cuvk_spirv_type_uint(e, 16),
                                         cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, old,
                                                        shift)),
                          CUVK_SPIRV_UINT, 16);
   }
   return e->failed ? -1 : 1;
}

static int
lower_atomic(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, bool red)
{
   struct atomic a = { 0 };
   enum space sp;
   const struct cuvk_ir_value *addr_v = &in->src[0];

   enum ptx_modifier type = cuvk_spirv_type_mod(in, 0);
   if (type == PTX_MOD_F16 || type == PTX_MOD_F16X2 || type == PTX_MOD_BF16 ||
       type == PTX_MOD_BF16X2 ||
       ((type == PTX_MOD_B16 || type == PTX_MOD_U16 || type == PTX_MOD_S16) &&
        cuvk_spirv_mod_of_class(in, PTX_MODC_ATOMOP) == PTX_MOD_CAS))
      return lower_atomic_half(e, in, red, type);
   a.op = cuvk_spirv_mod_of_class(in, PTX_MODC_ATOMOP);
   if (a.op == PTX_MOD_COUNT)
      a.op = cuvk_spirv_mod_of_class(in, PTX_MODC_BOOLOP);
   a.sem = cuvk_spirv_mod_of_class(in, PTX_MODC_SEM);
   a.cta = cuvk_spirv_has_mod(in, PTX_MOD_CTA);
   if (!access_type(e, in, &a.kind, &a.bits) || !instr_space(e, in, addr_v, &sp))
      return -1;
   a.is_float = a.kind == CUVK_SPIRV_FLOAT;
   unsigned want = a.op == PTX_MOD_CAS ? 3 : 2;
   if (in->src_count != want || (!red && in->dst_count != 1) || (red && in->dst_count != 0))
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "wrong operands") ? 1 : -1;
   switch (a.op) {
   case PTX_MOD_ADD: case PTX_MOD_MIN: case PTX_MOD_MAX: case PTX_MOD_AND: case PTX_MOD_OR:
   case PTX_MOD_XOR: case PTX_MOD_EXCH: case PTX_MOD_CAS: case PTX_MOD_INC: case PTX_MOD_DEC:
      break;
   default:
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "atomic operation %s is not translated",
                             a.op == PTX_MOD_COUNT ? "(none)" : ptx_modifier_table[a.op].name)
                ? 1 : -1;
   }
   if (sp != SPACE_GLOBAL && sp != SPACE_SHARED && sp != SPACE_GENERIC)
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "atomics on this space are not "
                             "translated") ? 1 : -1;
   if (a.bits != 32 && a.bits != 64)
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "%u-bit atomics are not translated",
                             a.bits) ? 1 : -1;
   if (a.bits == 64 && sp == SPACE_SHARED && !e->shared64)
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "64-bit shared memory atomics need "
                             "VK_KHR_workgroup_memory_explicit_layout and "
                             "shaderSharedInt64Atomics (without them shared memory is an array "
                             "of 32-bit words)") ? 1 : -1;
   if (a.is_float && a.op != PTX_MOD_ADD && a.op != PTX_MOD_EXCH)
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "float atomic %s is not translated",
                             ptx_modifier_table[a.op].name) ? 1 : -1;
   if ((a.op == PTX_MOD_INC || a.op == PTX_MOD_DEC) && a.bits != 32)
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "inc and dec are 32-bit") ? 1 : -1;
   if (a.bits == 64 && sp != SPACE_SHARED) {
      if (!e->target->atomic_int64 && !(a.is_float && e->target->atomic_float64_add))
         return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "the device has no 64-bit atomics "
                                "(shaderBufferInt64Atomics)") ? 1 : -1;
      if (e->target->atomic_int64)
         cuvk_spirv_capability(e, SpvCapabilityInt64Atomics);
   }
   if (cuvk_spirv_has_mod(in, PTX_MOD_V2) || cuvk_spirv_has_mod(in, PTX_MOD_V4))
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "vector atomics are not translated")
                ? 1 : -1;
   /* exch of a float moves bits: an integer exchange. */
   if (a.is_float && a.op == PTX_MOD_EXCH)
      a.is_float = false;

   uint32_t tn = cuvk_spirv_type_uint(e, a.bits);
   uint32_t addr = operand_address(e, addr_v, sp);
   enum cuvk_spirv_kind rk = a.kind == CUVK_SPIRV_FLOAT ? CUVK_SPIRV_UINT : a.kind;
   uint32_t b = cuvk_spirv_read(e, &in->src[1], a.kind, a.bits);
   uint32_t c = 0;
   if (a.kind == CUVK_SPIRV_FLOAT)
      b = cuvk_spirv_val(e, SpvOpBitcast, tn, b);
   if (a.op == PTX_MOD_CAS) {
      c = cuvk_spirv_read(e, &in->src[2], a.kind, a.bits);
      if (a.kind == CUVK_SPIRV_FLOAT)
         c = cuvk_spirv_val(e, SpvOpBitcast, tn, c);
   } else {
      c = cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, a.bits, 0);
   }
   uint32_t old;
   if (sp == SPACE_GENERIC)
      old = cuvk_spirv_val(e, SpvOpFunctionCall, tn, atomic_generic_fn(e, &a), addr, b, c);
   else {
      if (sp == SPACE_GLOBAL)
         e->access_word = access_word(e, in);
      old = atomic_apply(e, &a, sp, addr, b, c);
      e->access_word = CUVK_IR_NO_WORD;
   }
   if (!red) {
      if (a.kind == CUVK_SPIRV_FLOAT)
         cuvk_spirv_write(e, &in->dst[0],
                          cuvk_spirv_val(e, SpvOpBitcast, cuvk_spirv_type_float(e, a.bits), old),
                          a.kind, a.bits);
      else
         cuvk_spirv_write(e, &in->dst[0], old, rk, a.bits);
   }
   return e->failed ? -1 : 1;
}

int
cuvk_spirv_lower_memory(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   switch (in->op) {
   case PTX_OP_LD:
   case PTX_OP_LDU:
      return lower_ld_st(e, in, false);
   case PTX_OP_ST:
      return lower_ld_st(e, in, true);
   case PTX_OP_ATOM:
      return lower_atomic(e, in, false);
   case PTX_OP_RED:
      return lower_atomic(e, in, true);
   case PTX_OP_CVTA:
      return lower_cvta(e, in);
   case PTX_OP_ISSPACEP:
      return lower_isspacep(e, in);
   default:
      return 0;
   }
}

/* ---- for other lowerings (spirv_printf.c) ---- */

uint32_t
cuvk_spirv_generic_load(struct cuvk_spirv_emitter *e, uint32_t addr, unsigned bits)
{
   return load_bits(e, SPACE_GENERIC, addr, bits, false, false);
}

uint32_t
cuvk_spirv_local_load(struct cuvk_spirv_emitter *e, uint32_t offset, unsigned bits)
{
   return load_bits(e, SPACE_LOCAL, offset, bits, false, false);
}

void
cuvk_spirv_local_store(struct cuvk_spirv_emitter *e, uint32_t offset, uint32_t value,
                       unsigned bits)
{
   store_bits(e, SPACE_LOCAL, offset, value, bits, false, false);
}

uint32_t
cuvk_spirv_helper_begin(struct cuvk_spirv_emitter *e, struct cuvk_spirv_helper *h, uint32_t ret,
                        const uint32_t *params, unsigned count, uint32_t *param_ids)
{
   return helper_begin(e, h, ret, params, count, param_ids);
}

void
cuvk_spirv_helper_begin_id(struct cuvk_spirv_emitter *e, struct cuvk_spirv_helper *h, uint32_t id, uint32_t ret,
                           const uint32_t *params, unsigned count, uint32_t *param_ids)
{
   helper_begin_control_id(e, h, id, ret, params, count, param_ids, SpvFunctionControlMaskNone);
}

void
cuvk_spirv_helper_end(struct cuvk_spirv_emitter *e, struct cuvk_spirv_helper *h, const char *name)
{
   helper_end(e, h, name);
}
