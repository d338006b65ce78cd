/*
 * The SPIR-V emitter: the module frame every kernel shares (kernel_abi.h:
 * push constants, specialization constants, built-ins), one SPIR-V
 * function per PTX function reached from the kernel, structured control
 * flow from the structurizer's answer, and the instructions that are
 * neither arithmetic nor memory (barriers, fences, calls, warps).
 *
 * Instructions go through a table of lowerings, the first that knows an
 * instruction wins: the emitter's memory lowering, the arithmetic of
 * spirv_lower_alu.c once it exists, and the emitter's own stopgap of a
 * few arithmetic instructions (spirv_lower_basic.c).
 */
#include "compiler/spirv_emit.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir_builder.h"
#include "compiler/ir_cfg.h"

/* Vulkan 1.2 consumes SPIR-V up to 1.5, in which physical storage
 * buffer addressing is core. */
#define CUVK_SPIRV_VERSION 0x00010500u

/* ---- modifiers ---- */

bool
cuvk_spirv_has_mod(const struct cuvk_ir_instr *in, enum ptx_modifier m)
{
   for (unsigned i = 0; i < in->mod_count; i++)
      if (in->mods[i] == m)
         return true;
   return false;
}

enum ptx_modifier
cuvk_spirv_type_mod(const struct cuvk_ir_instr *in, unsigned n)
{
   for (unsigned i = 0; i < in->mod_count; i++)
      if (ptx_modifier_is_type(in->mods[i]) && n-- == 0)
         return in->mods[i];
   return PTX_MOD_COUNT;
}

enum ptx_modifier
cuvk_spirv_mod_of_class(const struct cuvk_ir_instr *in, enum ptx_mod_class c)
{
   for (unsigned i = 0; i < in->mod_count; i++)
      if (in->mods[i] < PTX_MOD_COUNT && ptx_modifier_table[in->mods[i]].cls == c)
         return in->mods[i];
   return PTX_MOD_COUNT;
}

bool
cuvk_spirv_ptx_kind(enum ptx_modifier type, enum cuvk_spirv_kind *kind, unsigned *bits)
{
   if (!ptx_modifier_is_type(type))
      return false;
   const struct ptx_modifier_info *m = &ptx_modifier_table[type];
   switch (m->type_kind) {
   case PTX_TK_B:
   case PTX_TK_U: *kind = CUVK_SPIRV_UINT; break;
   case PTX_TK_S: *kind = CUVK_SPIRV_SINT; break;
   case PTX_TK_F:
      /* f16x2 is bits in a register. */
      *kind = type == PTX_MOD_F16X2 ? CUVK_SPIRV_UINT : CUVK_SPIRV_FLOAT;
      break;
   case PTX_TK_BF: *kind = CUVK_SPIRV_UINT; break;
   case PTX_TK_PRED: *kind = CUVK_SPIRV_BOOL; break;
   default: return false;
   }
   *bits = m->bits;
   return m->bits <= 64;
}

/* ---- the frame ---- */

static const uint32_t push_offsets[] = {
   offsetof(struct cuvk_kernel_push, params),
   offsetof(struct cuvk_kernel_push, globals),
   offsetof(struct cuvk_kernel_push, page_table),
   offsetof(struct cuvk_kernel_push, va_base),
   offsetof(struct cuvk_kernel_push, va_size),
   offsetof(struct cuvk_kernel_push, host_ranges),
   offsetof(struct cuvk_kernel_push, fault),
   offsetof(struct cuvk_kernel_push, host_range_count),
   offsetof(struct cuvk_kernel_push, grid_base[0]),
   offsetof(struct cuvk_kernel_push, grid_base[1]),
   offsetof(struct cuvk_kernel_push, grid_base[2]),
   offsetof(struct cuvk_kernel_push, nctaid[0]),
   offsetof(struct cuvk_kernel_push, nctaid[1]),
   offsetof(struct cuvk_kernel_push, nctaid[2]),
   offsetof(struct cuvk_kernel_push, reserved),
   offsetof(struct cuvk_kernel_push, printf_buffer),
   offsetof(struct cuvk_kernel_push, tex_records),
   offsetof(struct cuvk_kernel_push, surf_records),
};
#define PUSH_MEMBERS (sizeof(push_offsets) / sizeof(push_offsets[0]))
#define PUSH_U64_MEMBERS 7

/* The first PUSH_U64_MEMBERS members and those from printf_buffer on are
 * 64-bit. */
static unsigned
push_bits(unsigned member)
{
   return member < PUSH_U64_MEMBERS || member >= CUVK_SPIRV_PUSH_PRINTF_BUFFER ? 64 : 32;
}

/* The push constant block, declared on first use: members in
 * kernel_abi.h's order, each at its offsetof. */
static uint32_t
push_var(struct cuvk_spirv_emitter *e)
{
   if (e->push_var)
      return e->push_var;
   uint32_t members[PUSH_MEMBERS];
   for (unsigned i = 0; i < PUSH_MEMBERS; i++)
      members[i] = cuvk_spirv_type_uint(e, push_bits(i));
   uint32_t block = cuvk_spirv_id(&e->b);
   uint32_t head[1] = { block };
   cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_GLOBALS, SpvOpTypeStruct, head, 1, NULL, members,
                       PUSH_MEMBERS);
   cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, block, SpvDecorationBlock);
   for (unsigned i = 0; i < PUSH_MEMBERS; i++)
      cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpMemberDecorate, block, i,
                    SpvDecorationOffset, push_offsets[i]);
   cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_DEBUG, SpvOpName, &block, 1, "cuvk_kernel_push", NULL,
                       0);
   e->push_var = cuvk_spirv_global_var(e, SpvStorageClassPushConstant, block);
   return e->push_var;
}

uint32_t
cuvk_spirv_push_load(struct cuvk_spirv_emitter *e, unsigned member)
{
   uint32_t type = cuvk_spirv_type_uint(e, push_bits(member));
   uint32_t ptr = cuvk_spirv_val(e, SpvOpAccessChain,
                                 cuvk_spirv_type_pointer(e, SpvStorageClassPushConstant, type),
                                 push_var(e), cuvk_spirv_const_u32(e, member));
   return cuvk_spirv_val(e, SpvOpLoad, type, ptr);
}

static uint32_t
builtin(struct cuvk_spirv_emitter *e, uint32_t *slot, SpvBuiltIn which, bool vector)
{
   if (!*slot) {
      uint32_t u32 = cuvk_spirv_type_uint(e, 32);
      *slot = cuvk_spirv_global_var(e, SpvStorageClassInput,
                                    vector ? cuvk_spirv_type_vector(e, u32, 3) : u32);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, *slot, SpvDecorationBuiltIn,
                    which);
   }
   return *slot;
}

static uint32_t
builtin_component(struct cuvk_spirv_emitter *e, uint32_t *slot, SpvBuiltIn which, unsigned c)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   uint32_t v = cuvk_spirv_val(e, SpvOpLoad, cuvk_spirv_type_vector(e, u32, 3),
                               builtin(e, slot, which, true));
   return cuvk_spirv_val(e, SpvOpCompositeExtract, u32, v, c);
}

/* SpecId 3: bytes of dynamic shared memory. */
static uint32_t
spec_dynamic_shared(struct cuvk_spirv_emitter *e)
{
   if (!e->spec_dynamic_shared) {
      e->spec_dynamic_shared = cuvk_spirv_id(&e->b);
      cuvk_spirv_global(e, SpvOpSpecConstant, cuvk_spirv_type_uint(e, 32),
                        e->spec_dynamic_shared, 0);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, e->spec_dynamic_shared,
                    SpvDecorationSpecId, CUVK_KERNEL_SPEC_DYNAMIC_SHARED);
   }
   return e->spec_dynamic_shared;
}

/* The workgroup size as three specialization constants behind the
 * WorkgroupSize built-in, so one module serves every block shape. */
static void
frame_begin(struct cuvk_spirv_emitter *e)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);

   cuvk_spirv_capability(e, SpvCapabilityShader);
   cuvk_spirv_capability(e, SpvCapabilityPhysicalStorageBufferAddresses);
   cuvk_spirv_op(&e->b, CUVK_SPIRV_MEMORY_MODEL, SpvOpMemoryModel,
                 SpvAddressingModelPhysicalStorageBuffer64, SpvMemoryModelGLSL450);
   e->main_fn = cuvk_spirv_id(&e->b);
   for (unsigned i = 0; i < 3; i++) {
      e->spec_size[i] = cuvk_spirv_id(&e->b);
      cuvk_spirv_global(e, SpvOpSpecConstant, u32, e->spec_size[i], 1);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, e->spec_size[i],
                    SpvDecorationSpecId, CUVK_KERNEL_SPEC_BLOCK_X + i);
   }
   e->wg_size = cuvk_spirv_id(&e->b);
   cuvk_spirv_global(e, SpvOpSpecConstantComposite, cuvk_spirv_type_vector(e, u32, 3),
                     e->wg_size, e->spec_size[0], e->spec_size[1], e->spec_size[2]);
   cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, e->wg_size, SpvDecorationBuiltIn,
                 SpvBuiltInWorkgroupSize);
}

static void
frame_end(struct cuvk_spirv_emitter *e)
{
   /* SPIR-V 1.4+ lists every global variable the entry point uses. */
   cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_ENTRY_POINTS, SpvOpEntryPoint,
                       (const uint32_t[]){ SpvExecutionModelGLCompute, e->main_fn }, 2,
                       e->kernel->name, e->interface, (unsigned)e->interface_count);
   cuvk_spirv_op(&e->b, CUVK_SPIRV_EXECUTION_MODES, SpvOpExecutionMode, e->main_fn,
                 SpvExecutionModeLocalSize, 1, 1, 1);
   /* PTX keeps subnormals unless an instruction says .ftz (the lowering
    * flushes those by itself), so ask for them to be kept: float
    * controls are core in SPIR-V 1.4. */
   const struct cuvk_cc_target *t = e->target;
   const struct { bool on; uint32_t bits; } denorm[] = {
      { t->denorm_preserve_f16 && t->float16, 16 },
      { t->denorm_preserve_f32, 32 },
      { t->denorm_preserve_f64 && t->float64, 64 },
   };
   for (unsigned i = 0; i < 3; i++) {
      if (!denorm[i].on)
         continue;
      cuvk_spirv_capability(e, SpvCapabilityDenormPreserve);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_EXECUTION_MODES, SpvOpExecutionMode, e->main_fn,
                    SpvExecutionModeDenormPreserve, denorm[i].bits);
   }
   cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_DEBUG, SpvOpName, &e->main_fn, 1, e->kernel->name,
                       NULL, 0);
}

/* ---- special registers ---- */

static uint32_t
lane_id(struct cuvk_spirv_emitter *e)
{
   /* Where warps are subgroups, the lane is the subgroup's, so that
    * shuffles and %laneid agree.  Elsewhere (no warp instruction is
    * translated there) CUDA's rule: warps by the linear thread index,
    * which is what LocalInvocationIndex is. */
   if (e->target->subgroup_size == 32)
      return cuvk_spirv_subgroup_lane(e);
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   uint32_t idx = cuvk_spirv_val(e, SpvOpLoad, u32,
                                 builtin(e, &e->builtin_local_index,
                                         SpvBuiltInLocalInvocationIndex, false));
   return cuvk_spirv_val(e, SpvOpBitwiseAnd, u32, idx, cuvk_spirv_const_u32(e, 31));
}

uint32_t
cuvk_spirv_read_special(struct cuvk_spirv_emitter *e, const struct cuvk_ir_value *v)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   unsigned c = v->component;

   if (cuvk_ir_special_components(v->special) && c > 2) {
      cuvk_spirv_fail(e, CUVK_CC_INVALID, NULL, "%s has no component %u",
                      cuvk_ir_special_name(v->special), c);
      return cuvk_spirv_const_u32(e, 0);
   }
   switch (v->special) {
   case CUVK_IR_SPECIAL_TID:
      return builtin_component(e, &e->builtin_local_id, SpvBuiltInLocalInvocationId, c);
   case CUVK_IR_SPECIAL_NTID:
      return cuvk_spirv_val(e, SpvOpCompositeExtract, u32, e->wg_size, c);
   case CUVK_IR_SPECIAL_CTAID:
      /* A grid wider than one dispatch runs as several; grid_base is the
       * first workgroup's %ctaid. */
      return cuvk_spirv_val(e, SpvOpIAdd, u32,
                            builtin_component(e, &e->builtin_wg_id, SpvBuiltInWorkgroupId, c),
                            cuvk_spirv_push_load(e, 8 + c));
   case CUVK_IR_SPECIAL_NCTAID:
      return cuvk_spirv_push_load(e, 11 + c);
   case CUVK_IR_SPECIAL_LANEID:
      return lane_id(e);
   case CUVK_IR_SPECIAL_WARPID: {
      if (e->target->subgroup_size == 32)
         return cuvk_spirv_subgroup_id(e);
      uint32_t idx = cuvk_spirv_val(e, SpvOpLoad, u32,
                                    builtin(e, &e->builtin_local_index,
                                            SpvBuiltInLocalInvocationIndex, false));
      return cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, idx, cuvk_spirv_const_u32(e, 5));
   }
   case CUVK_IR_SPECIAL_NWARPID: {
      uint32_t n = cuvk_spirv_val(e, SpvOpIMul, u32,
                                  cuvk_spirv_val(e, SpvOpIMul, u32, e->spec_size[0],
                                                 e->spec_size[1]),
                                  e->spec_size[2]);
      n = cuvk_spirv_val(e, SpvOpIAdd, u32, n, cuvk_spirv_const_u32(e, 31));
      return cuvk_spirv_val(e, SpvOpShiftRightLogical, u32, n, cuvk_spirv_const_u32(e, 5));
   }
   case CUVK_IR_SPECIAL_WARPSZ:
      return cuvk_spirv_const_u32(e, 32);
   case CUVK_IR_SPECIAL_LANEMASK_EQ:
   case CUVK_IR_SPECIAL_LANEMASK_LE:
   case CUVK_IR_SPECIAL_LANEMASK_LT:
   case CUVK_IR_SPECIAL_LANEMASK_GE:
   case CUVK_IR_SPECIAL_LANEMASK_GT: {
      uint32_t eq = cuvk_spirv_val(e, SpvOpShiftLeftLogical, u32, cuvk_spirv_const_u32(e, 1),
                                   lane_id(e));
      uint32_t lt = cuvk_spirv_val(e, SpvOpISub, u32, eq, cuvk_spirv_const_u32(e, 1));
      uint32_t le = cuvk_spirv_val(e, SpvOpBitwiseOr, u32, lt, eq);
      switch (v->special) {
      case CUVK_IR_SPECIAL_LANEMASK_EQ: return eq;
      case CUVK_IR_SPECIAL_LANEMASK_LT: return lt;
      case CUVK_IR_SPECIAL_LANEMASK_LE: return le;
      case CUVK_IR_SPECIAL_LANEMASK_GE: return cuvk_spirv_val(e, SpvOpNot, u32, lt);
      default: return cuvk_spirv_val(e, SpvOpNot, u32, le);
      }
   }
   case CUVK_IR_SPECIAL_SMID:
      /* cuvk reports one multiprocessor's worth of placement: every block
       * runs "on" SM 0 of 1, which keeps smid < nsmid true. */
      return cuvk_spirv_const_u32(e, 0);
   case CUVK_IR_SPECIAL_NSMID:
      return cuvk_spirv_const_u32(e, 1);
   case CUVK_IR_SPECIAL_DYNAMIC_SMEM_SIZE:
      return spec_dynamic_shared(e);
   case CUVK_IR_SPECIAL_TOTAL_SMEM_SIZE:
      return cuvk_spirv_val(e, SpvOpIAdd, u32, spec_dynamic_shared(e),
                            cuvk_spirv_const_u32(e, e->dynamic_shared_offset));
   case CUVK_IR_SPECIAL_CLOCK:
   case CUVK_IR_SPECIAL_CLOCK_HI:
   case CUVK_IR_SPECIAL_CLOCK64:
      if (e->target->shader_clock) {
         /* A counter of the subgroup's, as %clock is the SM's: only
          * differences taken on one thread mean anything, as in CUDA. */
         cuvk_spirv_capability(e, SpvCapabilityShaderClockKHR);
         cuvk_spirv_extension(e, "SPV_KHR_shader_clock");
         uint32_t u64 = cuvk_spirv_type_uint(e, 64);
         uint32_t t = cuvk_spirv_val(e, SpvOpReadClockKHR, u64,
                                     cuvk_spirv_const_u32(e, SpvScopeSubgroup));
         if (v->special == CUVK_IR_SPECIAL_CLOCK64)
            return t;
         if (v->special == CUVK_IR_SPECIAL_CLOCK_HI)
            t = cuvk_spirv_val(e, SpvOpShiftRightLogical, u64, t, cuvk_spirv_const_u64(e, 32));
         return cuvk_spirv_val(e, SpvOpUConvert, u32, t);
      }
      cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, NULL, "special register %s needs "
                      "VK_KHR_shader_clock, which the device does not offer",
                      cuvk_ir_special_name(v->special));
      return v->special == CUVK_IR_SPECIAL_CLOCK64 ? cuvk_spirv_const_u64(e, 0)
                                                   : cuvk_spirv_const_u32(e, 0);
   default:
      /* %globaltimer counts nanoseconds, which no Vulkan clock does;
       * %gridid has no meaning cuvk keeps. */
      cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, NULL, "special register %s is not translated",
                      cuvk_ir_special_name(v->special));
      return v->special == CUVK_IR_SPECIAL_CLOCK64 || v->special == CUVK_IR_SPECIAL_GLOBALTIMER
                ? cuvk_spirv_const_u64(e, 0)
                : cuvk_spirv_const_u32(e, 0);
   }
}

/* ---- instructions the emitter owns ---- */

static void
workgroup_barrier(struct cuvk_spirv_emitter *e)
{
   cuvk_spirv_do(e, SpvOpControlBarrier, cuvk_spirv_const_u32(e, SpvScopeWorkgroup),
                 cuvk_spirv_const_u32(e, SpvScopeWorkgroup),
                 cuvk_spirv_const_u32(e, SpvMemorySemanticsAcquireReleaseMask |
                                            SpvMemorySemanticsWorkgroupMemoryMask));
}

/* bar.red.popc.u32 d, 0, p / bar.red.and.pred / bar.red.or.pred
 * (__syncthreads_count, _and, _or): a barrier that also combines a
 * predicate over the block, through one shared word: every thread sets
 * it to the operation's identity, a barrier, each adds or combines its
 * predicate atomically, a barrier, each reads the result, and a last
 * barrier so nobody sets the word again before all have read it. */
static int
lower_barrier_red(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   bool popc = cuvk_spirv_has_mod(in, PTX_MOD_POPC);
   bool and = cuvk_spirv_has_mod(in, PTX_MOD_AND);
   bool or = cuvk_spirv_has_mod(in, PTX_MOD_OR);

   /* bar is NO_DEST in the opcode table, so bar.red's destination d is
    * the first source: d, barrier, {thread count,} predicate. */
   if (in->dst_count != 0 || in->src_count != 3 || (popc + and + or) != 1 ||
       !e->bar_red_offset || in->src[0].kind != CUVK_IR_VAL_REG)
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "this form of bar.red is not "
                             "translated (only barrier 0 of the whole block)") ? 1 : -1;
   if (!(in->src[1].kind == CUVK_IR_VAL_IMM && in->src[1].imm == 0))
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "only barrier 0 of the whole block "
                             "is translated") ? 1 : -1;
   uint32_t p = cuvk_spirv_read(e, &in->src[2], CUVK_SPIRV_BOOL, 1);
   uint32_t bit = cuvk_spirv_val(e, SpvOpSelect, u32, p, cuvk_spirv_const_u32(e, 1),
                                 cuvk_spirv_const_u32(e, 0));
   uint32_t scope = cuvk_spirv_const_u32(e, SpvScopeWorkgroup);
   uint32_t none = cuvk_spirv_const_u32(e, SpvMemorySemanticsMaskNone);
   uint32_t word = cuvk_spirv_shared_word(e, e->bar_red_offset - 1);
   cuvk_spirv_do(e, SpvOpStore, word, cuvk_spirv_const_u32(e, and ? 1 : 0));
   workgroup_barrier(e);
   cuvk_spirv_val(e, popc ? SpvOpAtomicIAdd : and ? SpvOpAtomicAnd : SpvOpAtomicOr, u32, word,
                  scope, none, bit);
   workgroup_barrier(e);
   uint32_t r = cuvk_spirv_val(e, SpvOpLoad, u32, word);
   workgroup_barrier(e);
   if (popc)
      cuvk_spirv_write(e, &in->src[0], r, CUVK_SPIRV_UINT, 32);
   else
      cuvk_spirv_write(e, &in->src[0],
                       cuvk_spirv_val(e, SpvOpINotEqual, cuvk_spirv_type_bool(e), r,
                                      cuvk_spirv_const_u32(e, 0)),
                       CUVK_SPIRV_BOOL, 1);
   return e->failed ? -1 : 1;
}

static int
lower_barrier(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   /* bar.sync a / barrier.sync a / bar.sync a, b: the whole block waits;
    * a thread count (b) or a barrier other than 0 has no Vulkan form. */
   if (cuvk_spirv_has_mod(in, PTX_MOD_WARP)) {
      /* bar.warp.sync: the warp (a subgroup) waits for itself. */
      if (e->target->subgroup_size != 32)
         return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "bar.warp.sync needs 32-wide "
                                "subgroups (the device's are %u wide)",
                                e->target->subgroup_size) ? 1 : -1;
      cuvk_spirv_do(e, SpvOpControlBarrier, cuvk_spirv_const_u32(e, SpvScopeSubgroup),
                    cuvk_spirv_const_u32(e, SpvScopeSubgroup),
                    cuvk_spirv_const_u32(e, SpvMemorySemanticsAcquireReleaseMask |
                                               SpvMemorySemanticsWorkgroupMemoryMask |
                                               SpvMemorySemanticsUniformMemoryMask));
      return 1;
   }
   if (cuvk_spirv_has_mod(in, PTX_MOD_RED))
      return lower_barrier_red(e, in);
   if (cuvk_spirv_has_mod(in, PTX_MOD_ARRIVE))
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "bar.arrive is not translated")
                ? 1 : -1;
   if (in->src_count > 1 ||
       (in->src_count == 1 && !(in->src[0].kind == CUVK_IR_VAL_IMM && in->src[0].imm == 0)))
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "only barrier 0 of the whole block "
                             "is translated") ? 1 : -1;
   cuvk_spirv_do(e, SpvOpControlBarrier, cuvk_spirv_const_u32(e, SpvScopeWorkgroup),
                 cuvk_spirv_const_u32(e, SpvScopeWorkgroup),
                 cuvk_spirv_const_u32(e, SpvMemorySemanticsAcquireReleaseMask |
                                            SpvMemorySemanticsWorkgroupMemoryMask));
   return 1;
}

static int
lower_fence(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   /* membar.cta / fence.*.cta order the block's view; .gl, .gpu and .sys
    * the device's (cuvk has no other agent inside a kernel's run). */
   bool cta = cuvk_spirv_has_mod(in, PTX_MOD_CTA);
   uint32_t sem = SpvMemorySemanticsAcquireReleaseMask | SpvMemorySemanticsUniformMemoryMask |
                  SpvMemorySemanticsWorkgroupMemoryMask;
   if (cuvk_spirv_has_mod(in, PTX_MOD_PROXY) || cuvk_spirv_has_mod(in, PTX_MOD_ALIAS))
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "proxy fences are not translated")
                ? 1 : -1;
   cuvk_spirv_do(e, SpvOpMemoryBarrier,
                 cuvk_spirv_const_u32(e, cta ? SpvScopeWorkgroup : SpvScopeDevice),
                 cuvk_spirv_const_u32(e, sem));
   return 1;
}

static uint32_t function_id(struct cuvk_spirv_emitter *e, const struct cuvk_ir_function *f);

static int
lower_call(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   const struct cuvk_ir_function *callee = in->src_count ? in->src[0].func : NULL;

   if (!callee || in->src[0].kind != CUVK_IR_VAL_FUNC)
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "call without a function") ? 1 : -1;
   if (strcmp(callee->name, "vprintf") == 0 && !callee->has_body)
      return cuvk_spirv_lower_printf(e, in);
   if (!callee->has_body)
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "%s has no body in this module (calls "
                             "across modules are not linked)", callee->name) ? 1 : -1;
   if (callee->param_count + 1 != in->src_count || callee->ret_count != in->dst_count)
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "call of %s with the wrong operands",
                             callee->name) ? 1 : -1;
   /* Arguments and return values live in .param slots, which the emitter
    * keeps in the local array: copy the caller's slots into the callee's
    * parameters, call, copy the return values back. */
   for (size_t i = 0; i < callee->param_count; i++) {
      const struct cuvk_ir_value *a = &in->src[i + 1];
      const struct cuvk_ir_var *p = callee->params[i];
      if (!p || a->kind != CUVK_IR_VAL_VAR || a->var->space != PTX_SPACE_PARAM)
         return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "call of %s: only .param "
                                "arguments are translated", callee->name) ? 1 : -1;
      uint32_t to = cuvk_spirv_var_address(e, p, 0);
      uint32_t from = cuvk_spirv_var_address(e, a->var, a->imm);
      cuvk_spirv_local_copy(e, to, from, (uint32_t)(p->size < a->var->size ? p->size
                                                                            : a->var->size));
   }
   cuvk_spirv_val(e, SpvOpFunctionCall, cuvk_spirv_type_void(e), function_id(e, callee));
   for (size_t i = 0; i < callee->ret_count; i++) {
      const struct cuvk_ir_value *d = &in->dst[i];
      const struct cuvk_ir_var *r = callee->rets[i];
      if (!r || d->kind != CUVK_IR_VAL_VAR || d->var->space != PTX_SPACE_PARAM)
         return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "call of %s: only .param return "
                                "values are translated", callee->name) ? 1 : -1;
      cuvk_spirv_local_copy(e, cuvk_spirv_var_address(e, d->var, d->imm),
                            cuvk_spirv_var_address(e, r, 0),
                            (uint32_t)(r->size < d->var->size ? r->size : d->var->size));
   }
   return e->failed ? -1 : 1;
}

static int
lower_frame(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   switch (in->op) {
   case PTX_OP_BAR:
   case PTX_OP_BARRIER:
      return lower_barrier(e, in);
   case PTX_OP_MEMBAR:
   case PTX_OP_FENCE:
      return lower_fence(e, in);
   case PTX_OP_CALL:
      return lower_call(e, in);
   case PTX_OP_PREFETCH:
   case PTX_OP_PREFETCHU:
   case PTX_OP_NANOSLEEP:
      /* Hints: doing nothing is a correct implementation. */
      return 1;
   case PTX_OP_SHFL:
   case PTX_OP_VOTE:
   case PTX_OP_MATCH:
   case PTX_OP_ACTIVEMASK:
   case PTX_OP_REDUX:
   case PTX_OP_ELECT:
      if (e->target->subgroup_size != 32)
         return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, in, "warp instruction %s needs "
                                "32-wide subgroups (the device's are %u wide)",
                                ptx_opcode_table[in->op].name, e->target->subgroup_size)
                   ? 1 : -1;
      return cuvk_spirv_lower_warp(e, in);
   default:
      return 0;
   }
}

/* The lowerings, first match wins: the emitter's own instructions, then
 * spirv_lower_alu.c's arithmetic, then the emitter's basic lowering for
 * what that leaves (mov, which spirv_lower.h leaves to the emitter). */
static int (*const lowerings[])(struct cuvk_spirv_emitter *, const struct cuvk_ir_instr *) = {
   lower_frame,
   cuvk_spirv_lower_texture,
   cuvk_spirv_lower_memory,
   cuvk_spirv_lower_alu,
   cuvk_spirv_lower_basic,
};

static bool
lower_instr(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in)
{
   e->instr = in;
   if (in->guarded)
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, in, "guarded instruction reached the emitter");
   int r = 0;
   for (size_t i = 0; i < sizeof(lowerings) / sizeof(lowerings[0]) && r == 0; i++)
      r = lowerings[i](e, in);
   if (r == 0) {
      char mods[96] = "";
      size_t at = 0;
      for (unsigned i = 0; i < in->mod_count && at + 24 < sizeof(mods); i++)
         if (in->mods[i] < PTX_MOD_COUNT)
            at += (size_t)snprintf(mods + at, sizeof(mods) - at, "%s",
                                   ptx_modifier_table[in->mods[i]].name);
      e->failed = true;
      return cuvk_cc_fail(e->err, CUVK_CC_UNSUPPORTED, in->line, 0,
                          "%s: instruction %s%s is not translated", e->func->name,
                          ptx_opcode_table[in->op].name, mods);
   }
   e->instr = NULL;
   return r > 0 && !e->failed;
}

/* ---- lavapipe's loop limit ---- */

/*
 * llvmpipe (lavapipe) gives each invocation vector (a SIMD batch of 8
 * lanes, one subgroup there) one budget for the passes through all its
 * loops together, Mesa's LP_MAX_TGSI_LOOP_ITERATIONS (65535), and once it
 * is spent ends every loop, silently, whatever the lanes' conditions say.
 * cuvk cannot lift it, so where target->loop_limit is set the kernel
 * counts and fails the launch instead (CUVK_KERNEL_FAULT_LOOP_LIMIT,
 * CUDA_ERROR_LAUNCH_FAILED):
 *
 *   - a Private (module-scope: .func calls are inlined by the driver and
 *     share the vector's budget) uint32 counter, 0 at the kernel's entry;
 *   - +1 at every execution of a loop header: its back edges plus one per
 *     entry (a lane counts the passes it is active in);
 *   - at each loop's merge block (where lavapipe's cut sends the lanes),
 *     cuvk_loop_check: the counter becomes the subgroup's maximum of it
 *     (OpGroupNonUniformUMax, Reduce, over the active lanes), so the lanes
 *     agree on the vector's passes, and a count of loop_limit or more
 *     stores the fault.
 *
 * Measured on Mesa 22.3 against the same kernels without the count
 * (tests/kernels/loop_limit.cu and a nested pair): one loop runs 65536
 * passes in full and is cut at the next, two loops one after the other
 * 65535 together, an outer loop of 16 passes each (its own and 15 of an
 * inner loop) 4096 outer passes.  Every cut launch failed; a launch within
 * a pass or two of the budget fails too (it counts 65535 or 65536), which
 * nothing short of lavapipe's exact bookkeeping would avoid.
 *
 * Gaps: a kernel whose lanes split between two loops on the two sides of
 * a branch can pass the limit uncounted (the vector runs both sides and
 * lavapipe counts both loops, each lane counts only its own), and so can a
 * lane that leaves a loop by returning while the others stay in it; the
 * loops of cuvk's own helpers (address translation's binary search over
 * host ranges, CAS loops, printf's copy, the textures' uniform-index loop)
 * are not counted; a loop the driver unrolls costs lavapipe nothing and is
 * still counted here, which can fail a launch close to the limit that
 * lavapipe would have run in full.  (Watching the cut itself, a flag set
 * on the back edge and cleared at the header, does not work: by SPIR-V's
 * rules the flag is always clear at the merge, and the driver folds it
 * so; it caught nothing.)
 */
static uint32_t
loop_counter_var(struct cuvk_spirv_emitter *e)
{
   if (!e->loop_counter) {
      uint32_t u32 = cuvk_spirv_type_uint(e, 32);
      e->loop_counter = cuvk_spirv_global_var(e, SpvStorageClassPrivate, u32);
      cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_DEBUG, SpvOpName, &e->loop_counter, 1,
                          "cuvk_loop_passes", NULL, 0);
   }
   return e->loop_counter;
}

/* One more pass: at a loop header. */
static void
loop_count(struct cuvk_spirv_emitter *e)
{
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), var = loop_counter_var(e);
   uint32_t n = cuvk_spirv_val(e, SpvOpLoad, u32, var);
   n = cuvk_spirv_val(e, SpvOpIAdd, u32, n, cuvk_spirv_const_u32(e, 1));
   cuvk_spirv_do(e, SpvOpStore, var, n);
}

/* A call of cuvk_loop_check, whose body loop_check_finish writes. */
static void
loop_check(struct cuvk_spirv_emitter *e)
{
   if (!e->target->loop_limit)
      return;
   if (!e->loop_check_fn)
      e->loop_check_fn = cuvk_spirv_id(&e->b);
   cuvk_spirv_val(e, SpvOpFunctionCall, cuvk_spirv_type_void(e), e->loop_check_fn);
}

/* cuvk_loop_check, once every function is emitted.  It is called only at
 * a loop's merge, and a loop's header, which counts, comes before. */
static void
loop_check_finish(struct cuvk_spirv_emitter *e)
{
   if (!e->loop_check_fn)
      return;
   struct cuvk_spirv_words words = {0}, *saved = e->cur;
   uint32_t t_void = cuvk_spirv_type_void(e);
   e->cur = &words;
   cuvk_spirv_do(e, SpvOpFunction, t_void, e->loop_check_fn, SpvFunctionControlMaskNone,
                 cuvk_spirv_type_function(e, t_void, NULL, 0));
   cuvk_spirv_do(e, SpvOpLabel, cuvk_spirv_id(&e->b));
   uint32_t u32 = cuvk_spirv_type_uint(e, 32), var = loop_counter_var(e);
   uint32_t l_fault = cuvk_spirv_id(&e->b), l_done = cuvk_spirv_id(&e->b);
   cuvk_spirv_capability(e, SpvCapabilityGroupNonUniformArithmetic);
   uint32_t n = cuvk_spirv_val(e, SpvOpLoad, u32, var);
   n = cuvk_spirv_val(e, SpvOpGroupNonUniformUMax, u32, cuvk_spirv_const_u32(e, SpvScopeSubgroup),
                      SpvGroupOperationReduce, n);
   cuvk_spirv_do(e, SpvOpStore, var, n);
   uint32_t over = cuvk_spirv_val(e, SpvOpUGreaterThanEqual, cuvk_spirv_type_bool(e), n,
                                  cuvk_spirv_const_u32(e, e->target->loop_limit));
   cuvk_spirv_do(e, SpvOpSelectionMerge, l_done, SpvSelectionControlMaskNone);
   cuvk_spirv_do(e, SpvOpBranchConditional, over, l_fault, l_done);
   cuvk_spirv_do(e, SpvOpLabel, l_fault);
   cuvk_spirv_store_fault(e, CUVK_KERNEL_FAULT_LOOP_LIMIT);
   cuvk_spirv_do(e, SpvOpBranch, l_done);
   cuvk_spirv_do(e, SpvOpLabel, l_done);
   cuvk_spirv_do(e, SpvOpReturn);
   cuvk_spirv_do(e, SpvOpFunctionEnd);
   cuvk_spirv_append(&e->b, CUVK_SPIRV_FUNCTIONS, &words);
   cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_DEBUG, SpvOpName, &e->loop_check_fn, 1, "cuvk_loop_check",
                       NULL, 0);
   e->cur = saved;
}

/* ---- functions and control flow ---- */

static uint32_t
function_id(struct cuvk_spirv_emitter *e, const struct cuvk_ir_function *f)
{
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_FUNC, 0, (uintptr_t)f, 0);
   if (id)
      return id;
   id = f == e->kernel ? e->main_fn : cuvk_spirv_id(&e->b);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_FUNC, 0, (uintptr_t)f, 0, id);
   if (f != e->kernel) {
      if (cuvk_arena_push(&e->arena, e->pending, e->pending_count, e->pending_cap))
         e->pending[e->pending_count++] = f;
      else
         e->b.failed = true;
   }
   return id;
}

/* The structurizer's answer for f, in the emitter's arena; f changes in
 * place (new blocks, selector registers). */
static bool
structure_function(struct cuvk_spirv_emitter *e, struct cuvk_ir_function *f)
{
   return cuvk_ir_structurize(f, &e->arena, &e->structure, e->err);
}

static void
emit_merge(struct cuvk_spirv_emitter *e, unsigned block)
{
   const struct cuvk_ir_structure *s = &e->structure;

   if (s->kind[block] == CUVK_IR_CONSTRUCT_SELECTION)
      cuvk_spirv_do(e, SpvOpSelectionMerge, e->labels[s->merge[block]],
                    SpvSelectionControlMaskNone);
   else if (s->kind[block] == CUVK_IR_CONSTRUCT_LOOP)
      cuvk_spirv_do(e, SpvOpLoopMerge, e->labels[s->merge[block]],
                    e->labels[s->continue_target[block]], SpvLoopControlMaskNone);
}

static void
emit_terminator(struct cuvk_spirv_emitter *e, const struct cuvk_ir_block *b)
{
   switch (b->term) {
   case CUVK_IR_TERM_BR:
      emit_merge(e, b->index);
      cuvk_spirv_do(e, SpvOpBranch, e->labels[b->succs[0]->index]);
      break;
   case CUVK_IR_TERM_CBR: {
      if (b->succs[0] == b->succs[1] && e->structure.kind[b->index] == CUVK_IR_CONSTRUCT_NONE) {
         /* Both ways lead to one block: no construct, a plain branch. */
         cuvk_spirv_do(e, SpvOpBranch, e->labels[b->succs[0]->index]);
         break;
      }
      uint32_t cond = cuvk_spirv_read(e, &b->cond, CUVK_SPIRV_BOOL, 1);
      emit_merge(e, b->index);
      cuvk_spirv_do(e, SpvOpBranchConditional, cond, e->labels[b->succs[0]->index],
                    e->labels[b->succs[1]->index]);
      break;
   }
   case CUVK_IR_TERM_SWITCH: {
      /* brx.idx: an index out of the table is undefined in PTX; it takes
       * the first target here. */
      uint32_t sel = cuvk_spirv_read(e, &b->cond, CUVK_SPIRV_UINT, 32);
      uint32_t ops[2 + 2 * 256];
      unsigned n = 0;
      if (b->succ_count > 256) {
         cuvk_cc_fail(e->err, CUVK_CC_UNSUPPORTED, b->term_line, 0,
                      "%s: brx.idx with more than 256 targets", e->func->name);
         e->failed = true;
         return;
      }
      emit_merge(e, b->index);
      ops[n++] = sel;
      ops[n++] = e->labels[b->succs[0]->index];
      for (unsigned i = 1; i < b->succ_count; i++) {
         ops[n++] = i;
         ops[n++] = e->labels[b->succs[i]->index];
      }
      cuvk_spirv_emit_op(e, SpvOpSwitch, ops, n);
      break;
   }
   case CUVK_IR_TERM_EXIT:
      if (e->func != e->kernel) {
         cuvk_cc_fail(e->err, CUVK_CC_UNSUPPORTED, b->term_line, 0,
                      "%s: exit inside a .func is not translated", e->func->name);
         e->failed = true;
         return;
      }
      cuvk_spirv_do(e, SpvOpReturn);
      break;
   case CUVK_IR_TERM_RET:
      cuvk_spirv_do(e, SpvOpReturn);
      break;
   case CUVK_IR_TERM_UNREACHABLE:
      cuvk_spirv_do(e, SpvOpUnreachable);
      break;
   case CUVK_IR_TERM_TRAP:
      /* The fault word tells the launch code; the thread stops here (a
       * .func's caller goes on, but the launch reports the trap). */
      cuvk_spirv_store_fault(e, CUVK_KERNEL_FAULT_TRAP);
      cuvk_spirv_do(e, SpvOpReturn);
      break;
   default:
      cuvk_cc_fail(e->err, CUVK_CC_INVALID, b->line, 0, "%s: block without a terminator",
                   e->func->name);
      e->failed = true;
   }
}

static bool
emit_function(struct cuvk_spirv_emitter *e, const struct cuvk_ir_function *cf)
{
   /* The structurizer and the guard pass change the function: the module
    * is the caller's to give (compiler.c owns it). */
   struct cuvk_ir_function *f = (struct cuvk_ir_function *)cf;
   uint32_t fn = function_id(e, f);

   e->func = f;
   e->instr = NULL;
   e->carry_var = 0;
   memset(&e->fvars, 0, sizeof(e->fvars));
   memset(&e->body, 0, sizeof(e->body));
   e->cur = &e->body;
   if (!f->has_body || f->block_count == 0)
      return cuvk_cc_fail(e->err, CUVK_CC_INVALID, f->line, 0, "%s has no body", f->name);
   if (f->param_regs)
      for (size_t i = 0; i < f->param_count; i++)
         if (f->param_regs[i] != UINT32_MAX)
            return cuvk_cc_fail(e->err, CUVK_CC_UNSUPPORTED, f->line, 0,
                                "%s: .reg parameters are not translated", f->name);
   if (!cuvk_ir_lower_guards(f, e->err) || !structure_function(e, f))
      return false;

   const struct cuvk_ir_structure *s = &e->structure;
   e->reg_vars = cuvk_arena_array(&e->arena, f->reg_count + 1, sizeof(*e->reg_vars));
   e->labels = cuvk_arena_array(&e->arena, s->block_count, sizeof(*e->labels));
   if (!e->reg_vars || !e->labels || s->order_count == 0)
      return cuvk_cc_fail(e->err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory emitting SPIR-V");
   for (unsigned i = 0; i < s->block_count; i++)
      e->labels[i] = cuvk_spirv_id(&e->b);

   if (f == e->kernel && !cuvk_spirv_spans_begin(e, f))
      return false;
   e->uniform_regs = NULL;
   if (f == e->kernel && !(e->uniform_regs = cuvk_ir_uniform_regs(f, &e->arena)))
      return cuvk_cc_fail(e->err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory emitting SPIR-V");
   /* Lavapipe's loop limit: which blocks are a loop's merge. */
   bool *loop_merge = NULL;
   if (e->target->loop_limit) {
      if (!(loop_merge = cuvk_arena_array(&e->arena, s->block_count, sizeof(*loop_merge))))
         return cuvk_cc_fail(e->err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory emitting SPIR-V");
      for (unsigned i = 0; i < s->block_count; i++)
         if (s->kind[i] == CUVK_IR_CONSTRUCT_LOOP && s->merge[i] < s->block_count)
            loop_merge[s->merge[i]] = true;
      if (f == e->kernel)
         cuvk_spirv_do(e, SpvOpStore, loop_counter_var(e), cuvk_spirv_const_u32(e, 0));
   }
   for (unsigned i = 0; i < s->order_count && !e->failed; i++) {
      const struct cuvk_ir_block *b = f->blocks[s->order[i]];
      if (i > 0)
         cuvk_spirv_do(e, SpvOpLabel, e->labels[b->index]);
      if (loop_merge && loop_merge[b->index])
         loop_check(e);
      if (loop_merge && s->kind[b->index] == CUVK_IR_CONSTRUCT_LOOP)
         loop_count(e);
      cuvk_list_for_each_entry(struct cuvk_ir_instr, in, &b->instrs, link) {
         if (!lower_instr(e, in))
            break;
      }
      if (!e->failed)
         emit_terminator(e, b);
   }
   if (e->failed || cuvk_cc_failed(e->err))
      return false;

   uint32_t t_void = cuvk_spirv_type_void(e);
   cuvk_spirv_op(&e->b, CUVK_SPIRV_FUNCTIONS, SpvOpFunction, t_void, fn,
                 SpvFunctionControlMaskNone, cuvk_spirv_type_function(e, t_void, NULL, 0));
   cuvk_spirv_op(&e->b, CUVK_SPIRV_FUNCTIONS, SpvOpLabel, e->labels[s->order[0]]);
   cuvk_spirv_append(&e->b, CUVK_SPIRV_FUNCTIONS, &e->fvars);
   cuvk_spirv_append(&e->b, CUVK_SPIRV_FUNCTIONS, &e->body);
   cuvk_spirv_op0(&e->b, CUVK_SPIRV_FUNCTIONS, SpvOpFunctionEnd);
   cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_DEBUG, SpvOpName, &fn, 1, f->name, NULL, 0);
   e->func = NULL;
   return true;
}

/* Every function the kernel calls, directly or not; SPIR-V has no
 * recursion, so a cycle is refused here, naming the function. */
static bool
check_calls(struct cuvk_spirv_emitter *e, const struct cuvk_ir_function *kernel)
{
   size_t n = e->module->func_count;
   uint8_t *state = cuvk_arena_array(&e->arena, n, 1);   /* 0 new, 1 on stack, 2 done */
   const struct cuvk_ir_function **stack = cuvk_arena_array(&e->arena, n + 1, sizeof(*stack));
   unsigned *next = cuvk_arena_array(&e->arena, n + 1, sizeof(*next));
   size_t depth = 0;

   if (!state || !stack || !next)
      return cuvk_cc_fail(e->err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory emitting SPIR-V");
   stack[depth] = kernel;
   next[depth++] = 0;
   state[kernel->index] = 1;
   if (!cuvk_spirv_layout_function(e, kernel))
      return false;
   while (depth) {
      const struct cuvk_ir_function *f = stack[depth - 1];
      const struct cuvk_ir_function *callee = NULL;
      /* next[] counts calls already followed, over all blocks. */
      unsigned k = 0;
      for (unsigned bi = 0; bi < f->block_count && !callee; bi++) {
         cuvk_list_for_each_entry(struct cuvk_ir_instr, in, &f->blocks[bi]->instrs, link) {
            if (in->op != PTX_OP_CALL || !in->src_count || in->src[0].kind != CUVK_IR_VAL_FUNC)
               continue;
            if (k++ == next[depth - 1]) {
               callee = in->src[0].func;
               break;
            }
         }
      }
      if (!callee) {
         state[f->index] = 2;
         depth--;
         continue;
      }
      next[depth - 1]++;
      if (state[callee->index] == 1)
         return cuvk_cc_fail(e->err, CUVK_CC_UNSUPPORTED, callee->line, 0,
                             "%s calls itself (recursion has no SPIR-V form)", callee->name);
      if (state[callee->index] == 0 && callee->has_body) {
         state[callee->index] = 1;
         if (!cuvk_spirv_layout_function(e, callee))
            return false;
         stack[depth] = callee;
         next[depth++] = 0;
      }
   }
   return true;
}

void
cuvk_spirv_param_layout(const struct cuvk_ir_function *f, struct cuvk_cc_param *out,
                        uint32_t *bytes)
{
   uint64_t at = 0;

   for (size_t i = 0; i < f->param_count; i++) {
      const struct cuvk_ir_var *p = f->params[i];
      uint32_t align = p && p->align ? p->align : 1;
      uint64_t size = p ? p->size : 0;
      at = (at + align - 1) / align * align;
      out[i] = (struct cuvk_cc_param){ .offset = (uint32_t)at, .size = (uint32_t)size,
                                       .align = align };
      at += size;
   }
   *bytes = (uint32_t)at;
}

bool
cuvk_spirv_emit_kernel(struct cuvk_ir_module *module, const char *kernel,
                       const struct cuvk_cc_target *target, struct cuvk_spirv_kernel_info *info,
                       uint32_t **words, size_t *word_count, struct cuvk_cc_error *err)
{
   const struct cuvk_ir_function *f = NULL;

   memset(err, 0, sizeof(*err));
   *words = NULL;
   *word_count = 0;
   if (info)
      memset(info, 0, sizeof(*info));
   for (size_t i = 0; i < module->func_count; i++)
      if (module->funcs[i]->is_entry && strcmp(module->funcs[i]->name, kernel) == 0)
         f = module->funcs[i];
   if (!f)
      return cuvk_cc_fail(err, CUVK_CC_INVALID, 0, 0, "no kernel named %s", kernel);
   if (!f->has_body || f->block_count == 0)
      return cuvk_cc_fail(err, CUVK_CC_INVALID, f->line, 0, "kernel %s has no body", kernel);
   if (!target->int64)
      return cuvk_cc_fail(err, CUVK_CC_UNSUPPORTED, f->line, 0,
                          "kernel %s: the device has no 64-bit integers (shaderInt64), which "
                          "every address needs", kernel);

   struct cuvk_spirv_emitter *e = calloc(1, sizeof(*e));
   if (!e)
      return cuvk_cc_fail(err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory emitting SPIR-V");
   cuvk_arena_init(&e->arena);
   cuvk_spirv_builder_init(&e->b, &e->arena, CUVK_SPIRV_VERSION);
   e->module = module;
   e->kernel = f;
   e->target = target;
   e->err = err;

   bool ok = false;
   uint32_t param_bytes;
   struct cuvk_cc_param *params = cuvk_arena_array(&e->arena, f->param_count + 1,
                                                   sizeof(*params));
   if (!params) {
      cuvk_cc_fail(err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory emitting SPIR-V");
      goto out;
   }
   cuvk_spirv_param_layout(f, params, &param_bytes);
   e->params = params;
   e->param_bytes = param_bytes;
   e->access_word = CUVK_IR_NO_WORD;
   frame_begin(e);
   cuvk_spirv_layout_module(e);
   if (!check_calls(e, f))
      goto out;
   /* Dynamic shared memory starts after the static variables, aligned for
    * any type; the padding counts as static, so the launch code's sum of
    * the two is what the array holds. */
   e->dynamic_shared_offset = (e->static_shared_bytes + 15) / 16 * 16;
   if (e->dynamic_shared)
      e->static_shared_bytes = e->dynamic_shared_offset;
   if (e->static_shared_bytes > target->max_shared_bytes && target->max_shared_bytes) {
      cuvk_cc_fail(err, CUVK_CC_UNSUPPORTED, f->line, 0,
                   "kernel %s: %u bytes of static shared memory, the device has %u", kernel,
                   e->static_shared_bytes, target->max_shared_bytes);
      goto out;
   }
   if (!emit_function(e, f))
      goto out;
   for (size_t i = 0; i < e->pending_count; i++)
      if (!emit_function(e, e->pending[i]))
         goto out;
   if (!cuvk_spirv_texture_finish(e))
      goto out;
   loop_check_finish(e);
   frame_end(e);
   if (e->failed || cuvk_cc_failed(err))
      goto out;
   if (!cuvk_spirv_finish(&e->b, words, word_count)) {
      cuvk_cc_fail(err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory emitting SPIR-V");
      goto out;
   }
   if (info) {
      info->static_shared_bytes = e->static_shared_bytes;
      info->dynamic_shared = e->dynamic_shared;
      info->local_bytes = e->local_bytes;
      info->uses_printf = e->uses_printf;
      info->tex_bindings = e->tex_bindings;
      info->uses_textures = e->uses_textures;
   }
   ok = true;
out:
   if (!ok && !cuvk_cc_failed(err))
      cuvk_cc_fail(err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory emitting SPIR-V");
   cuvk_arena_finish(&e->arena);
   free(e);
   return ok;
}
