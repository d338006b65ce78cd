/*
 * A stand-in for the SPIR-V emitter's side of spirv_lower.h, so that the
 * instruction lowering (spirv_lower_alu.c, spirv_lower_float.c) is tested
 * alone: straight-line kernels whose registers are Function variables,
 * every instruction handed to cuvk_spirv_lower_alu, the module checked by
 * spirv-val.  It follows the interface's conventions (register storage by
 * declared type, narrower reads take the low bits, narrower writes extend
 * by kind) and nothing more.  It was written before the emitter
 * (spirv_emit*.c) implemented the interface and stays because it isolates
 * the lowering: any register can be set and read back per invocation
 * (ALU_EMIT_IO), with no memory instructions, structurizer or kernel ABI
 * in the way.  compiler.run.alu_* test the same lowering through the real
 * emitter.
 *
 * Linked before libcuvk_compiler, so these definitions are the ones
 * spirv_lower_alu.o binds to.
 */
#include "alu_emitter.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/spirv_builder.h"

#define MAX_CONSTS 4096
#define MAX_PAIRS 16
#define MAX_CAPS 32

struct cuvk_spirv_emitter {
   struct cuvk_arena arena;
   struct cuvk_spirv_builder b;
   struct cuvk_cc_target target;
   struct cuvk_cc_error *err;
   uint32_t glsl;
   uint32_t t_bool, t_uint[65], t_float[65];
   struct { uint32_t a, b, id; } pairs[MAX_PAIRS], vecs[MAX_PAIRS];
   unsigned vec_count;
   unsigned pair_count;
   struct { enum cuvk_spirv_kind kind; unsigned bits; uint64_t v; uint32_t id; } consts[MAX_CONSTS];
   unsigned const_count;
   uint32_t c_true, c_false;
   SpvCapability caps[MAX_CAPS];
   unsigned cap_count;
   const struct cuvk_ir_function *f;
   uint32_t *reg_var;      /* per register: its Function variable */
   uint32_t carry_var;
   unsigned lowered;       /* instructions lowered */
};

void
cuvk_spirv_capability(struct cuvk_spirv_emitter *e, SpvCapability cap)
{
   for (unsigned i = 0; i < e->cap_count; i++)
      if (e->caps[i] == cap)
         return;
   if (e->cap_count < MAX_CAPS)
      e->caps[e->cap_count++] = cap;
   cuvk_spirv_op(&e->b, CUVK_SPIRV_CAPABILITIES, SpvOpCapability, cap);
}

void
cuvk_spirv_extension(struct cuvk_spirv_emitter *e, const char *name)
{
   cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_EXTENSIONS, SpvOpExtension, NULL, 0, name, NULL, 0);
}

uint32_t
cuvk_spirv_type_bool(struct cuvk_spirv_emitter *e)
{
   if (!e->t_bool) {
      e->t_bool = cuvk_spirv_id(&e->b);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_GLOBALS, SpvOpTypeBool, e->t_bool);
   }
   return e->t_bool;
}

uint32_t
cuvk_spirv_type_uint(struct cuvk_spirv_emitter *e, unsigned bits)
{
   if (!e->t_uint[bits]) {
      if (bits == 8)
         cuvk_spirv_capability(e, SpvCapabilityInt8);
      else if (bits == 16)
         cuvk_spirv_capability(e, SpvCapabilityInt16);
      else if (bits == 64)
         cuvk_spirv_capability(e, SpvCapabilityInt64);
      e->t_uint[bits] = cuvk_spirv_id(&e->b);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_GLOBALS, SpvOpTypeInt, e->t_uint[bits], bits, 0);
   }
   return e->t_uint[bits];
}

uint32_t
cuvk_spirv_type_float(struct cuvk_spirv_emitter *e, unsigned bits)
{
   if (!e->t_float[bits]) {
      if (bits == 16)
         cuvk_spirv_capability(e, SpvCapabilityFloat16);
      else if (bits == 64)
         cuvk_spirv_capability(e, SpvCapabilityFloat64);
      e->t_float[bits] = cuvk_spirv_id(&e->b);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_GLOBALS, SpvOpTypeFloat, e->t_float[bits], bits);
   }
   return e->t_float[bits];
}

uint32_t
cuvk_spirv_type_of(struct cuvk_spirv_emitter *e, enum cuvk_spirv_kind kind, unsigned bits)
{
   if (kind == CUVK_SPIRV_BOOL)
      return cuvk_spirv_type_bool(e);
   return kind == CUVK_SPIRV_FLOAT ? cuvk_spirv_type_float(e, bits) : cuvk_spirv_type_uint(e, bits);
}

uint32_t
cuvk_spirv_type_vector(struct cuvk_spirv_emitter *e, uint32_t component, unsigned n)
{
   for (unsigned i = 0; i < e->vec_count; i++)
      if (e->vecs[i].a == component && e->vecs[i].b == n)
         return e->vecs[i].id;
   uint32_t id = cuvk_spirv_id(&e->b);
   cuvk_spirv_op(&e->b, CUVK_SPIRV_GLOBALS, SpvOpTypeVector, id, component, n);
   if (e->vec_count < MAX_PAIRS)
      e->vecs[e->vec_count++] = (__typeof__(e->vecs[0])){ component, n, id };
   return id;
}

uint32_t
cuvk_spirv_type_pair(struct cuvk_spirv_emitter *e, uint32_t a, uint32_t b)
{
   for (unsigned i = 0; i < e->pair_count; i++)
      if (e->pairs[i].a == a && e->pairs[i].b == b)
         return e->pairs[i].id;
   uint32_t id = cuvk_spirv_id(&e->b);
   cuvk_spirv_op(&e->b, CUVK_SPIRV_GLOBALS, SpvOpTypeStruct, id, a, b);
   if (e->pair_count < MAX_PAIRS)
      e->pairs[e->pair_count++] = (__typeof__(e->pairs[0])){ a, b, id };
   return id;
}

uint32_t
cuvk_spirv_const_bits(struct cuvk_spirv_emitter *e, enum cuvk_spirv_kind kind, unsigned bits,
                      uint64_t value)
{
   if (kind == CUVK_SPIRV_SINT)
      kind = CUVK_SPIRV_UINT;
   if (kind == CUVK_SPIRV_BOOL)
      return cuvk_spirv_const_bool(e, value != 0);
   if (bits < 64)
      value &= (1ull << bits) - 1;
   for (unsigned i = 0; i < e->const_count; i++)
      if (e->consts[i].kind == kind && e->consts[i].bits == bits && e->consts[i].v == value)
         return e->consts[i].id;
   uint32_t type = cuvk_spirv_type_of(e, kind, bits);
   uint32_t id = cuvk_spirv_id(&e->b);
   if (bits == 64)
      cuvk_spirv_op(&e->b, CUVK_SPIRV_GLOBALS, SpvOpConstant, type, id, (uint32_t)value,
                    (uint32_t)(value >> 32));
   else
      cuvk_spirv_op(&e->b, CUVK_SPIRV_GLOBALS, SpvOpConstant, type, id, (uint32_t)value);
   if (e->const_count < MAX_CONSTS)
      e->consts[e->const_count++] = (__typeof__(e->consts[0])){ kind, bits, value, id };
   return id;
}

uint32_t
cuvk_spirv_const_bool(struct cuvk_spirv_emitter *e, bool value)
{
   uint32_t *c = value ? &e->c_true : &e->c_false;
   if (!*c) {
      *c = cuvk_spirv_id(&e->b);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_GLOBALS, value ? SpvOpConstantTrue : SpvOpConstantFalse,
                    cuvk_spirv_type_bool(e), *c);
   }
   return *c;
}

uint32_t
cuvk_spirv_emit_value(struct cuvk_spirv_emitter *e, SpvOp op, uint32_t type,
                      const uint32_t *operands, unsigned count)
{
   uint32_t words[16];
   uint32_t id = cuvk_spirv_id(&e->b);

   words[0] = type;
   words[1] = id;
   for (unsigned i = 0; i < count && i < 14; i++)
      words[2 + i] = operands[i];
   cuvk_spirv_emit(&e->b, CUVK_SPIRV_FUNCTIONS, op, words, count + 2);
   return id;
}

uint32_t
cuvk_spirv_emit_glsl(struct cuvk_spirv_emitter *e, enum GLSLstd450 inst, uint32_t type,
                     const uint32_t *operands, unsigned count)
{
   uint32_t words[8];

   words[0] = e->glsl;
   words[1] = inst;
   for (unsigned i = 0; i < count && i < 6; i++)
      words[2 + i] = operands[i];
   return cuvk_spirv_emit_value(e, SpvOpExtInst, type, words, count + 2);
}

void
cuvk_spirv_decorate(struct cuvk_spirv_emitter *e, uint32_t id, SpvDecoration dec,
                    const uint32_t *literals, unsigned count)
{
   uint32_t words[8] = { id, dec };
   for (unsigned i = 0; i < count && i < 6; i++)
      words[2 + i] = literals[i];
   cuvk_spirv_emit(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, words, count + 2);
}

const struct cuvk_cc_target *
cuvk_spirv_target(const struct cuvk_spirv_emitter *e)
{
   return &e->target;
}

bool
cuvk_spirv_fail(struct cuvk_spirv_emitter *e, enum cuvk_cc_status status,
                const struct cuvk_ir_instr *in, const char *fmt, ...)
{
   char msg[256];
   va_list ap;

   va_start(ap, fmt);
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);
   return cuvk_cc_fail(e->err, status, in ? in->line : 0, 0, "%s", msg);
}

/* The storage of a register: kind and width. */
static void
reg_storage(enum cuvk_ir_type t, enum cuvk_spirv_kind *kind, unsigned *bits)
{
   *bits = cuvk_ir_type_bits(t);
   switch (t) {
   case CUVK_IR_PRED: *kind = CUVK_SPIRV_BOOL; *bits = 1; break;
   case CUVK_IR_F16: case CUVK_IR_F32: case CUVK_IR_F64: *kind = CUVK_SPIRV_FLOAT; break;
   default: *kind = CUVK_SPIRV_UINT; break;
   }
}

static uint32_t
storage_type(struct cuvk_spirv_emitter *e, enum cuvk_ir_type t)
{
   enum cuvk_spirv_kind kind;
   unsigned bits;
   reg_storage(t, &kind, &bits);
   return cuvk_spirv_type_of(e, kind, bits);
}

/* Converts v between kinds and widths by the interface's rules. */
static uint32_t
convert(struct cuvk_spirv_emitter *e, uint32_t v, enum cuvk_spirv_kind from_kind,
        unsigned from_bits, enum cuvk_spirv_kind to_kind, unsigned to_bits, bool sign)
{
   if (from_kind == CUVK_SPIRV_BOOL || to_kind == CUVK_SPIRV_BOOL) {
      if (from_kind == to_kind)
         return v;
      if (to_kind == CUVK_SPIRV_BOOL) {
         uint32_t u = convert(e, v, from_kind, from_bits, CUVK_SPIRV_UINT, from_bits, false);
         return cuvk_spirv_val(e, SpvOpINotEqual, cuvk_spirv_type_bool(e), u,
                               cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, from_bits, 0));
      }
      uint32_t u = cuvk_spirv_val(e, SpvOpSelect, cuvk_spirv_type_uint(e, to_bits), v,
                                  cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, to_bits, 1),
                                  cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, to_bits, 0));
      return convert(e, u, CUVK_SPIRV_UINT, to_bits, to_kind, to_bits, false);
   }
   if (from_kind == CUVK_SPIRV_FLOAT)
      v = cuvk_spirv_val(e, SpvOpBitcast, cuvk_spirv_type_uint(e, from_bits), v);
   if (to_bits != from_bits)
      v = cuvk_spirv_val(e, to_bits > from_bits && sign ? SpvOpSConvert : SpvOpUConvert,
                         cuvk_spirv_type_uint(e, to_bits), v);
   if (to_kind == CUVK_SPIRV_FLOAT)
      v = cuvk_spirv_val(e, SpvOpBitcast, cuvk_spirv_type_float(e, to_bits), v);
   return v;
}

uint32_t
cuvk_spirv_read(struct cuvk_spirv_emitter *e, const struct cuvk_ir_value *v,
                enum cuvk_spirv_kind kind, unsigned bits)
{
   if (kind == CUVK_SPIRV_SINT)
      kind = CUVK_SPIRV_UINT;
   if (v->kind == CUVK_IR_VAL_REG) {
      enum cuvk_ir_type t = e->f->regs[v->reg].type;
      enum cuvk_spirv_kind sk;
      unsigned sb;
      reg_storage(t, &sk, &sb);
      uint32_t x = cuvk_spirv_val(e, SpvOpLoad, storage_type(e, t), e->reg_var[v->reg]);
      if (v->negated && sk == CUVK_SPIRV_BOOL)
         x = cuvk_spirv_val(e, SpvOpLogicalNot, cuvk_spirv_type_bool(e), x);
      return convert(e, x, sk, sb, kind, kind == CUVK_SPIRV_BOOL ? 1 : bits, false);
   }
   if (v->kind == CUVK_IR_VAL_IMM) {
      uint64_t x = v->imm;
      if (kind == CUVK_SPIRV_FLOAT) {
         if (v->imm_kind == CUVK_IR_IMM_F64 && bits == 32) {
            double d;
            memcpy(&d, &x, 8);
            float f = (float)d;
            uint32_t fb;
            memcpy(&fb, &f, 4);
            x = fb;
         } else if (v->imm_kind == CUVK_IR_IMM_F32 && bits == 64) {
            float f;
            uint32_t fb = (uint32_t)x;
            memcpy(&f, &fb, 4);
            double d = f;
            memcpy(&x, &d, 8);
         }
      }
      return cuvk_spirv_const_bits(e, kind, bits, x);
   }
   cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, NULL, "test emitter: operand kind %d", v->kind);
   return cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, 32, 0);
}

void
cuvk_spirv_write(struct cuvk_spirv_emitter *e, const struct cuvk_ir_value *v, uint32_t value,
                 enum cuvk_spirv_kind kind, unsigned bits)
{
   if (v->kind == CUVK_IR_VAL_NONE)
      return;
   if (v->kind != CUVK_IR_VAL_REG) {
      cuvk_spirv_fail(e, CUVK_CC_INVALID, NULL, "test emitter: write to a non-register");
      return;
   }
   enum cuvk_ir_type t = e->f->regs[v->reg].type;
   enum cuvk_spirv_kind sk;
   unsigned sb;
   reg_storage(t, &sk, &sb);
   uint32_t x = convert(e, value, kind == CUVK_SPIRV_SINT ? CUVK_SPIRV_UINT : kind,
                        kind == CUVK_SPIRV_BOOL ? 1 : bits, sk, sb, kind == CUVK_SPIRV_SINT);
   cuvk_spirv_op(&e->b, CUVK_SPIRV_FUNCTIONS, SpvOpStore, e->reg_var[v->reg], x);
}

uint32_t
cuvk_spirv_read_carry(struct cuvk_spirv_emitter *e)
{
   return cuvk_spirv_val(e, SpvOpLoad, cuvk_spirv_type_uint(e, 32), e->carry_var);
}

void
cuvk_spirv_write_carry(struct cuvk_spirv_emitter *e, uint32_t value_u32)
{
   cuvk_spirv_op(&e->b, CUVK_SPIRV_FUNCTIONS, SpvOpStore, e->carry_var, value_u32);
}

static uint32_t
pointer_to(struct cuvk_spirv_emitter *e, uint32_t type)
{
   uint32_t id = cuvk_spirv_id(&e->b);
   cuvk_spirv_op(&e->b, CUVK_SPIRV_GLOBALS, SpvOpTypePointer, id, SpvStorageClassFunction, type);
   return id;
}

/* Loads register r from its buffer slot (load) or stores it there. */
static void
io_reg(struct cuvk_spirv_emitter *e, uint32_t buf, uint32_t p_word, uint32_t base, uint32_t r,
       bool load)
{
   enum cuvk_spirv_kind sk;
   unsigned sb;
   uint32_t u32 = cuvk_spirv_type_uint(e, 32);
   uint32_t ptr[2];

   reg_storage(e->f->regs[r].type, &sk, &sb);
   for (unsigned i = 0; i < 2; i++) {
      uint32_t idx = cuvk_spirv_val(e, SpvOpIAdd, u32, base,
                                    cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, 32, r * 2 + i));
      ptr[i] = cuvk_spirv_val(e, SpvOpAccessChain, p_word, buf,
                              cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, 32, 0), idx);
   }
   if (load) {
      uint32_t lo = cuvk_spirv_val(e, SpvOpLoad, u32, ptr[0]), v;
      if (sb == 64) {
         uint32_t u64 = cuvk_spirv_type_uint(e, 64);
         uint32_t hi = cuvk_spirv_val(e, SpvOpLoad, u32, ptr[1]);
         v = cuvk_spirv_val(e, SpvOpBitwiseOr, u64, cuvk_spirv_val(e, SpvOpUConvert, u64, lo),
                            cuvk_spirv_val(e, SpvOpShiftLeftLogical, u64,
                                           cuvk_spirv_val(e, SpvOpUConvert, u64, hi),
                                           cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, 32, 32)));
         v = convert(e, v, CUVK_SPIRV_UINT, 64, sk, 64, false);
      } else {
         v = convert(e, lo, CUVK_SPIRV_UINT, 32, sk, sk == CUVK_SPIRV_BOOL ? 1 : sb, false);
      }
      cuvk_spirv_op(&e->b, CUVK_SPIRV_FUNCTIONS, SpvOpStore, e->reg_var[r], v);
      return;
   }
   uint32_t v = cuvk_spirv_val(e, SpvOpLoad, storage_type(e, e->f->regs[r].type), e->reg_var[r]);
   uint32_t lo, hi;
   if (sb == 64) {
      uint32_t u64 = cuvk_spirv_type_uint(e, 64);
      uint32_t x = convert(e, v, sk, 64, CUVK_SPIRV_UINT, 64, false);
      lo = cuvk_spirv_val(e, SpvOpUConvert, u32, x);
      hi = cuvk_spirv_val(e, SpvOpUConvert, u32,
                          cuvk_spirv_val(e, SpvOpShiftRightLogical, u64, x,
                                         cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, 32, 32)));
   } else {
      lo = convert(e, v, sk, sk == CUVK_SPIRV_BOOL ? 1 : sb, CUVK_SPIRV_UINT, 32, false);
      hi = cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, 32, 0);
   }
   cuvk_spirv_op(&e->b, CUVK_SPIRV_FUNCTIONS, SpvOpStore, ptr[0], lo);
   cuvk_spirv_op(&e->b, CUVK_SPIRV_FUNCTIONS, SpvOpStore, ptr[1], hi);
}

uint32_t *
alu_emit(const struct cuvk_ir_module *m, const struct cuvk_cc_target *target, unsigned flags,
         size_t *count, unsigned *lowered, struct cuvk_cc_error *err)
{
   struct cuvk_spirv_emitter *e = calloc(1, sizeof(*e));
   const struct cuvk_ir_function *f = NULL;
   uint32_t *words = NULL;

   memset(err, 0, sizeof(*err));
   *count = 0;
   for (size_t i = 0; i < m->func_count && !f; i++)
      if (m->funcs[i]->is_entry)
         f = m->funcs[i];
   if (!e || !f) {
      free(e);
      cuvk_cc_fail(err, CUVK_CC_INVALID, 0, 0, "test emitter: no kernel");
      return NULL;
   }
   cuvk_arena_init(&e->arena);
   cuvk_spirv_builder_init(&e->b, &e->arena, 0x00010500u);
   e->target = *target;
   e->err = err;
   e->f = f;
   e->reg_var = calloc(f->reg_count + 1, sizeof(uint32_t));

   cuvk_spirv_capability(e, SpvCapabilityShader);
   e->glsl = cuvk_spirv_id(&e->b);
   cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_EXT_IMPORTS, SpvOpExtInstImport, &e->glsl, 1,
                       "GLSL.std.450", NULL, 0);
   cuvk_spirv_op(&e->b, CUVK_SPIRV_MEMORY_MODEL, SpvOpMemoryModel, SpvAddressingModelLogical,
                 SpvMemoryModelGLSL450);
   uint32_t t_void = cuvk_spirv_id(&e->b), t_fn = cuvk_spirv_id(&e->b);
   uint32_t main_fn = cuvk_spirv_id(&e->b);
   bool io = flags & ALU_EMIT_IO;
   uint32_t buf = 0, gid = 0, p_word = 0;
   if (io) {
      /* struct { uint words[]; } at set 0, binding 0, and the invocation
       * index. */
      uint32_t u32 = cuvk_spirv_type_uint(e, 32);
      uint32_t arr = cuvk_spirv_id(&e->b), blk = cuvk_spirv_id(&e->b);
      uint32_t p_blk = cuvk_spirv_id(&e->b), v3 = cuvk_spirv_type_vector(e, u32, 3);
      uint32_t p_v3 = cuvk_spirv_id(&e->b);
      p_word = cuvk_spirv_id(&e->b);
      buf = cuvk_spirv_id(&e->b);
      gid = cuvk_spirv_id(&e->b);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_GLOBALS, SpvOpTypeRuntimeArray, arr, u32);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_GLOBALS, SpvOpTypeStruct, blk, arr);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_GLOBALS, SpvOpTypePointer, p_blk,
                    SpvStorageClassStorageBuffer, blk);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_GLOBALS, SpvOpTypePointer, p_word,
                    SpvStorageClassStorageBuffer, u32);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_GLOBALS, SpvOpTypePointer, p_v3, SpvStorageClassInput, v3);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_GLOBALS, SpvOpVariable, p_blk, buf,
                    SpvStorageClassStorageBuffer);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_GLOBALS, SpvOpVariable, p_v3, gid, SpvStorageClassInput);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, arr, SpvDecorationArrayStride, 4);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, blk, SpvDecorationBlock);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpMemberDecorate, blk, 0,
                    SpvDecorationOffset, 0);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, buf, SpvDecorationDescriptorSet, 0);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, buf, SpvDecorationBinding, 0);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, gid, SpvDecorationBuiltIn,
                    SpvBuiltInGlobalInvocationId);
      cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_ENTRY_POINTS, SpvOpEntryPoint,
                          (const uint32_t[]){ SpvExecutionModelGLCompute, main_fn }, 2, "main",
                          (const uint32_t[]){ buf, gid }, 2);
   } else {
      cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_ENTRY_POINTS, SpvOpEntryPoint,
                          (const uint32_t[]){ SpvExecutionModelGLCompute, main_fn }, 2, "main",
                          NULL, 0);
   }
   cuvk_spirv_op(&e->b, CUVK_SPIRV_EXECUTION_MODES, SpvOpExecutionMode, main_fn,
                 SpvExecutionModeLocalSize, 1, 1, 1);
   cuvk_spirv_op(&e->b, CUVK_SPIRV_GLOBALS, SpvOpTypeVoid, t_void);
   cuvk_spirv_op(&e->b, CUVK_SPIRV_GLOBALS, SpvOpTypeFunction, t_fn, t_void);
   cuvk_spirv_op(&e->b, CUVK_SPIRV_FUNCTIONS, SpvOpFunction, t_void, main_fn,
                 SpvFunctionControlMaskNone, t_fn);
   cuvk_spirv_op(&e->b, CUVK_SPIRV_FUNCTIONS, SpvOpLabel, cuvk_spirv_id(&e->b));

   /* Every register a Function variable, the carry flag one more. */
   for (uint32_t r = 0; r < f->reg_count; r++) {
      enum cuvk_ir_type t = f->regs[r].type;
      if (t == CUVK_IR_B128)
         continue;
      uint32_t ptr = pointer_to(e, storage_type(e, t));
      e->reg_var[r] = cuvk_spirv_id(&e->b);
      cuvk_spirv_op(&e->b, CUVK_SPIRV_FUNCTIONS, SpvOpVariable, ptr, e->reg_var[r],
                    SpvStorageClassFunction);
   }
   e->carry_var = cuvk_spirv_id(&e->b);
   cuvk_spirv_op(&e->b, CUVK_SPIRV_FUNCTIONS, SpvOpVariable,
                 pointer_to(e, cuvk_spirv_type_uint(e, 32)), e->carry_var,
                 SpvStorageClassFunction, cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, 32, 0));

   uint32_t base = 0;
   if (io) {
      uint32_t u32 = cuvk_spirv_type_uint(e, 32);
      uint32_t v = cuvk_spirv_val(e, SpvOpLoad, cuvk_spirv_type_vector(e, u32, 3), gid);
      uint32_t x = cuvk_spirv_val(e, SpvOpCompositeExtract, u32, v, 0);
      base = cuvk_spirv_val(e, SpvOpIMul, u32, x,
                            cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, 32, f->reg_count * 2));
      for (uint32_t r = 0; r < f->reg_count; r++)
         if (e->reg_var[r])
            io_reg(e, buf, p_word, base, r, true);
   }

   /* Straight-line code: the blocks' instructions in order. */
   for (unsigned bi = 0; bi < f->block_count && !cuvk_cc_failed(err); bi++) {
      cuvk_list_for_each_entry(struct cuvk_ir_instr, in, &f->blocks[bi]->instrs, link) {
         int r = cuvk_spirv_lower_alu(e, in);
         if (r == 0 && (flags & ALU_EMIT_SKIP_OTHERS))
            continue;
         if (r == 0)
            cuvk_cc_fail(err, CUVK_CC_UNSUPPORTED, in->line, 0,
                         "%s is not an instruction of the ALU lowering",
                         ptx_opcode_table[in->op].name);
         if (r != 1)
            break;
         e->lowered++;
      }
   }
   if (io)
      for (uint32_t r = 0; r < f->reg_count; r++)
         if (e->reg_var[r])
            io_reg(e, buf, p_word, base, r, false);
   cuvk_spirv_op0(&e->b, CUVK_SPIRV_FUNCTIONS, SpvOpReturn);
   cuvk_spirv_op0(&e->b, CUVK_SPIRV_FUNCTIONS, SpvOpFunctionEnd);

   if (!cuvk_cc_failed(err) && !cuvk_spirv_finish(&e->b, &words, count))
      cuvk_cc_fail(err, CUVK_CC_NO_MEMORY, 0, 0, "test emitter: out of memory");
   if (lowered)
      *lowered = e->lowered;
   cuvk_arena_finish(&e->arena);
   free(e->reg_var);
   free(e);
   return words;
}
