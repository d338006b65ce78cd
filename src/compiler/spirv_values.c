/*
 * The value side of the SPIR-V emitter (spirv_lower.h): types and
 * constants declared once each through one hash of keys, capabilities
 * and extensions recorded once, instructions appended to the function
 * being emitted, and PTX registers.
 *
 * Registers are one Function-storage OpVariable each, in the register's
 * declared width and class, loaded at every read and stored at every
 * write.  PTX registers are mutable and assigned on many paths; building
 * SSA here would repeat what every Vulkan driver's compiler does first
 * (mem2reg on Function variables), so the emitter leaves it to them.
 */
#include "compiler/spirv_emit.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- caches ---- */

static uint64_t
key_hash(uint32_t tag, uint32_t a, uint64_t b, uint64_t c)
{
   uint64_t h = 0x9e3779b97f4a7c15ull * (tag + 1);
   h ^= a + 0x7f4a7c159e3779b9ull + (h << 6) + (h >> 2);
   h ^= b + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
   h ^= c + 0x94d049bb133111ebull + (h << 6) + (h >> 2);
   h ^= h >> 31;
   return h * 0xbf58476d1ce4e5b9ull;
}

static struct cuvk_spirv_cache_slot *
cache_find(struct cuvk_spirv_cache *cache, uint32_t tag, uint32_t a, uint64_t b, uint64_t c)
{
   if (!cache->cap)
      return NULL;
   size_t mask = cache->cap - 1;
   for (size_t i = key_hash(tag, a, b, c) & mask;; i = (i + 1) & mask) {
      struct cuvk_spirv_cache_slot *s = &cache->slots[i];
      if (!s->tag || (s->tag == tag && s->a == a && s->b == b && s->c == c))
         return s;
   }
}

uint32_t
cuvk_spirv_cache_get(struct cuvk_spirv_emitter *e, uint32_t tag, uint32_t a, uint64_t b,
                     uint64_t c)
{
   struct cuvk_spirv_cache_slot *s = cache_find(&e->cache, tag, a, b, c);
   return s && s->tag ? s->id : 0;
}

void
cuvk_spirv_cache_put(struct cuvk_spirv_emitter *e, uint32_t tag, uint32_t a, uint64_t b,
                     uint64_t c, uint32_t id)
{
   struct cuvk_spirv_cache *cache = &e->cache;

   /* Kept at most half full, so probes stay short. */
   if ((cache->count + 1) * 2 > cache->cap) {
      size_t cap = cache->cap ? cache->cap * 2 : 256;
      struct cuvk_spirv_cache_slot *old = cache->slots;
      size_t old_cap = cache->cap;
      cache->slots = cuvk_arena_array(&e->arena, cap, sizeof(*cache->slots));
      if (!cache->slots) {
         cache->slots = old;
         e->b.failed = true;
         return;
      }
      cache->cap = cap;
      for (size_t i = 0; i < old_cap; i++)
         if (old[i].tag)
            *cache_find(cache, old[i].tag, old[i].a, old[i].b, old[i].c) = old[i];
   }
   struct cuvk_spirv_cache_slot *s = cache_find(cache, tag, a, b, c);
   if (!s->tag)
      cache->count++;
   *s = (struct cuvk_spirv_cache_slot){ tag, a, b, c, id };
}

/* ---- capabilities, instructions ---- */

void
cuvk_spirv_capability(struct cuvk_spirv_emitter *e, SpvCapability cap)
{
   for (unsigned i = 0; i < e->cap_count; i++)
      if (e->caps[i] == (uint32_t)cap)
         return;
   if (e->cap_count == sizeof(e->caps) / sizeof(e->caps[0])) {
      e->b.failed = true;
      return;
   }
   e->caps[e->cap_count++] = cap;
   cuvk_spirv_op(&e->b, CUVK_SPIRV_CAPABILITIES, SpvOpCapability, cap);
}

void
cuvk_spirv_extension(struct cuvk_spirv_emitter *e, const char *name)
{
   for (unsigned i = 0; i < e->ext_count; i++)
      if (strcmp(e->exts[i], name) == 0)
         return;
   if (e->ext_count == sizeof(e->exts) / sizeof(e->exts[0])) {
      e->b.failed = true;
      return;
   }
   e->exts[e->ext_count++] = name;
   cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_EXTENSIONS, SpvOpExtension, NULL, 0, name, NULL, 0);
}

void
cuvk_spirv_emit_op(struct cuvk_spirv_emitter *e, SpvOp op, const uint32_t *operands,
                   unsigned count)
{
   cuvk_spirv_emit_to(&e->b, e->cur, op, operands, count);
}

uint32_t
cuvk_spirv_emit_value(struct cuvk_spirv_emitter *e, SpvOp op, uint32_t type,
                      const uint32_t *operands, unsigned count)
{
   uint32_t id = cuvk_spirv_id(&e->b);
   uint32_t head[2] = { type, id };

   cuvk_spirv_emit_str_to(&e->b, e->cur, op, head, 2, NULL, operands, count);
   return id;
}

uint32_t
cuvk_spirv_emit_glsl(struct cuvk_spirv_emitter *e, enum GLSLstd450 inst, uint32_t type,
                     const uint32_t *operands, unsigned count)
{
   if (!e->glsl) {
      e->glsl = cuvk_spirv_id(&e->b);
      cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_EXT_IMPORTS, SpvOpExtInstImport, &e->glsl, 1,
                          "GLSL.std.450", NULL, 0);
   }
   uint32_t id = cuvk_spirv_id(&e->b);
   uint32_t head[4] = { type, id, e->glsl, inst };
   cuvk_spirv_emit_str_to(&e->b, e->cur, SpvOpExtInst, head, 4, NULL, operands, count);
   return id;
}

void
cuvk_spirv_decorate(struct cuvk_spirv_emitter *e, uint32_t id, SpvDecoration dec,
                    const uint32_t *literals, unsigned count)
{
   uint32_t head[2] = { id, dec };
   cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_ANNOTATIONS, SpvOpDecorate, head, 2, NULL, literals,
                       count);
}

const struct cuvk_cc_target *
cuvk_spirv_target(const struct cuvk_spirv_emitter *e)
{
   return e->target;
}

bool
cuvk_spirv_fail(struct cuvk_spirv_emitter *e, enum cuvk_cc_status status,
                const struct cuvk_ir_instr *in, const char *fmt, ...)
{
   char msg[200];
   va_list ap;

   e->failed = true;
   va_start(ap, fmt);
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);
   if (!in)
      in = e->instr;
   if (in)
      cuvk_cc_fail(e->err, status, in->line, 0, "%s: %s: %s", e->func ? e->func->name : "?",
                   ptx_opcode_table[in->op].name, msg);
   else
      cuvk_cc_fail(e->err, status, e->func ? e->func->line : 0, 0, "%s: %s",
                   e->func ? e->func->name : "?", msg);
   return false;
}

/* ---- types ---- */

uint32_t
cuvk_spirv_type_void(struct cuvk_spirv_emitter *e)
{
   if (!e->t_void) {
      e->t_void = cuvk_spirv_id(&e->b);
      cuvk_spirv_global(e, SpvOpTypeVoid, e->t_void);
   }
   return e->t_void;
}

uint32_t
cuvk_spirv_type_bool(struct cuvk_spirv_emitter *e)
{
   if (!e->t_bool) {
      e->t_bool = cuvk_spirv_id(&e->b);
      cuvk_spirv_global(e, SpvOpTypeBool, e->t_bool);
   }
   return e->t_bool;
}

/* The capability a width needs, and whether the target has it; a missing
 * one is an error of the instruction being lowered. */
static void
need_width(struct cuvk_spirv_emitter *e, bool is_float, unsigned bits)
{
   const struct cuvk_cc_target *t = e->target;
   bool ok = true;

   if (is_float) {
      if (bits == 16) {
         ok = t->float16;
         cuvk_spirv_capability(e, SpvCapabilityFloat16);
      } else if (bits == 64) {
         ok = t->float64;
         cuvk_spirv_capability(e, SpvCapabilityFloat64);
      }
   } else if (bits == 8) {
      ok = t->int8;
      cuvk_spirv_capability(e, SpvCapabilityInt8);
   } else if (bits == 16) {
      ok = t->int16;
      cuvk_spirv_capability(e, SpvCapabilityInt16);
   } else if (bits == 64) {
      ok = t->int64;
      cuvk_spirv_capability(e, SpvCapabilityInt64);
   }
   if (!ok)
      cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, NULL, "the device has no %u-bit %s", bits,
                      is_float ? "floats" : "integers");
}

uint32_t
cuvk_spirv_type_uint(struct cuvk_spirv_emitter *e, unsigned bits)
{
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_TYPE_INT, bits, 0, 0);
   if (id)
      return id;
   need_width(e, false, bits);
   id = cuvk_spirv_id(&e->b);
   cuvk_spirv_global(e, SpvOpTypeInt, id, bits, 0);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_TYPE_INT, bits, 0, 0, id);
   return id;
}

uint32_t
cuvk_spirv_type_float(struct cuvk_spirv_emitter *e, unsigned bits)
{
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_TYPE_FLOAT, bits, 0, 0);
   if (id)
      return id;
   need_width(e, true, bits);
   id = cuvk_spirv_id(&e->b);
   cuvk_spirv_global(e, SpvOpTypeFloat, id, bits);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_TYPE_FLOAT, bits, 0, 0, id);
   return id;
}

uint32_t
cuvk_spirv_type_of(struct cuvk_spirv_emitter *e, enum cuvk_spirv_kind kind, unsigned bits)
{
   switch (kind) {
   case CUVK_SPIRV_BOOL: return cuvk_spirv_type_bool(e);
   case CUVK_SPIRV_FLOAT: return cuvk_spirv_type_float(e, bits);
   default: return cuvk_spirv_type_uint(e, bits);
   }
}

/* A type made of two operands, declared once: vectors, pairs, pointers
 * and arrays differ only in their opcode and cache key. */
static uint32_t
type_of_two(struct cuvk_spirv_emitter *e, enum cuvk_spirv_key key, SpvOp op, uint32_t a, uint32_t b)
{
   uint32_t id = cuvk_spirv_cache_get(e, key, a, b, 0);
   if (id)
      return id;
   id = cuvk_spirv_id(&e->b);
   cuvk_spirv_global(e, op, id, a, b);
   cuvk_spirv_cache_put(e, key, a, b, 0, id);
   return id;
}

uint32_t
cuvk_spirv_type_vector(struct cuvk_spirv_emitter *e, uint32_t component, unsigned n)
{
   return type_of_two(e, CUVK_SPIRV_KEY_TYPE_VECTOR, SpvOpTypeVector, component, n);
}

uint32_t
cuvk_spirv_type_pair(struct cuvk_spirv_emitter *e, uint32_t a, uint32_t b)
{
   return type_of_two(e, CUVK_SPIRV_KEY_TYPE_PAIR, SpvOpTypeStruct, a, b);
}

uint32_t
cuvk_spirv_type_pointer(struct cuvk_spirv_emitter *e, SpvStorageClass sc, uint32_t pointee)
{
   return type_of_two(e, CUVK_SPIRV_KEY_TYPE_POINTER, SpvOpTypePointer, sc, pointee);
}

uint32_t
cuvk_spirv_type_array(struct cuvk_spirv_emitter *e, uint32_t element, uint32_t length_id)
{
   return type_of_two(e, CUVK_SPIRV_KEY_TYPE_ARRAY, SpvOpTypeArray, element, length_id);
}

uint32_t
cuvk_spirv_type_function(struct cuvk_spirv_emitter *e, uint32_t ret, const uint32_t *params,
                         unsigned count)
{
   uint64_t packed = 0;

   /* Ids fit 21 bits in any module this emitter makes (the bound of a
    * module is checked below), so three pack into one key word. */
   if (count > 3 || e->b.next_id >= (1u << 21)) {
      e->b.failed = true;
      return 0;
   }
   for (unsigned i = 0; i < count; i++)
      packed |= (uint64_t)params[i] << (21 * i);
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_TYPE_FUNCTION, ret, count, packed);
   if (id)
      return id;
   id = cuvk_spirv_id(&e->b);
   uint32_t head[2] = { id, ret };
   cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_GLOBALS, SpvOpTypeFunction, head, 2, NULL, params,
                       count);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_TYPE_FUNCTION, ret, count, packed, id);
   return id;
}

/* ---- constants ---- */

static uint32_t
constant(struct cuvk_spirv_emitter *e, uint32_t type, unsigned bits, uint64_t value)
{
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_CONST, type, value, 0);
   if (id)
      return id;
   id = cuvk_spirv_id(&e->b);
   if (bits == 64)
      cuvk_spirv_global(e, SpvOpConstant, type, id, (uint32_t)value, (uint32_t)(value >> 32));
   else
      cuvk_spirv_global(e, SpvOpConstant, type, id, (uint32_t)value);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_CONST, type, value, 0, id);
   return id;
}

uint32_t
cuvk_spirv_const_bits(struct cuvk_spirv_emitter *e, enum cuvk_spirv_kind kind, unsigned bits,
                      uint64_t value)
{
   if (kind == CUVK_SPIRV_BOOL)
      return cuvk_spirv_const_bool(e, value != 0);
   /* Literals narrower than 32 bits keep their high bits zero (SPIR-V
    * 2.2.1, for unsigned types and for floats). */
   if (bits < 64)
      value &= (UINT64_C(1) << bits) - 1;
   return constant(e, cuvk_spirv_type_of(e, kind, bits), bits, value);
}

uint32_t
cuvk_spirv_const_bool(struct cuvk_spirv_emitter *e, bool value)
{
   uint32_t type = cuvk_spirv_type_bool(e);
   uint32_t id = cuvk_spirv_cache_get(e, CUVK_SPIRV_KEY_CONST, type, value, 0);
   if (id)
      return id;
   id = cuvk_spirv_id(&e->b);
   cuvk_spirv_global(e, value ? SpvOpConstantTrue : SpvOpConstantFalse, type, id);
   cuvk_spirv_cache_put(e, CUVK_SPIRV_KEY_CONST, type, value, 0, id);
   return id;
}

uint32_t
cuvk_spirv_const_u32(struct cuvk_spirv_emitter *e, uint32_t value)
{
   return cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, 32, value);
}

uint32_t
cuvk_spirv_const_u64(struct cuvk_spirv_emitter *e, uint64_t value)
{
   return cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, 64, value);
}

/* ---- variables ---- */

uint32_t
cuvk_spirv_global_var(struct cuvk_spirv_emitter *e, SpvStorageClass sc, uint32_t type)
{
   uint32_t id = cuvk_spirv_id(&e->b);
   cuvk_spirv_global(e, SpvOpVariable, cuvk_spirv_type_pointer(e, sc, type), id, sc);
   if (cuvk_arena_push(&e->arena, e->interface, e->interface_count, e->interface_cap))
      e->interface[e->interface_count++] = id;
   else
      e->b.failed = true;
   return id;
}

uint32_t
cuvk_spirv_function_var(struct cuvk_spirv_emitter *e, uint32_t type)
{
   uint32_t id = cuvk_spirv_id(&e->b);
   uint32_t ptr = cuvk_spirv_type_pointer(e, SpvStorageClassFunction, type);
   cuvk_spirv_emit_to(&e->b, &e->fvars, SpvOpVariable,
                      (const uint32_t[]){ ptr, id, SpvStorageClassFunction }, 3);
   return id;
}

/* ---- conversions ---- */

bool
cuvk_spirv_reg_kind(enum cuvk_ir_type t, enum cuvk_spirv_kind *kind, unsigned *bits)
{
   switch (t) {
   case CUVK_IR_PRED: *kind = CUVK_SPIRV_BOOL; *bits = 1; return true;
   case CUVK_IR_B8: *kind = CUVK_SPIRV_UINT; *bits = 8; return true;
   case CUVK_IR_B16: *kind = CUVK_SPIRV_UINT; *bits = 16; return true;
   case CUVK_IR_B32: *kind = CUVK_SPIRV_UINT; *bits = 32; return true;
   case CUVK_IR_B64: *kind = CUVK_SPIRV_UINT; *bits = 64; return true;
   case CUVK_IR_F16: *kind = CUVK_SPIRV_FLOAT; *bits = 16; return true;
   case CUVK_IR_F32: *kind = CUVK_SPIRV_FLOAT; *bits = 32; return true;
   case CUVK_IR_F64: *kind = CUVK_SPIRV_FLOAT; *bits = 64; return true;
   case CUVK_IR_F16X2: *kind = CUVK_SPIRV_UINT; *bits = 32; return true;
   case CUVK_IR_BF16: *kind = CUVK_SPIRV_UINT; *bits = 16; return true;
   case CUVK_IR_BF16X2: *kind = CUVK_SPIRV_UINT; *bits = 32; return true;
   default: return false;
   }
}

uint32_t
cuvk_spirv_convert(struct cuvk_spirv_emitter *e, uint32_t value, enum cuvk_spirv_kind from,
                   unsigned from_bits, enum cuvk_spirv_kind to, unsigned to_bits)
{
   bool from_int = from == CUVK_SPIRV_UINT || from == CUVK_SPIRV_SINT;
   bool to_int = to == CUVK_SPIRV_UINT || to == CUVK_SPIRV_SINT;

   if (from == CUVK_SPIRV_BOOL && to == CUVK_SPIRV_BOOL)
      return value;
   if ((from_int && to_int) || (from == to)) {
      if (from_bits == to_bits)
         return value;
   }
   if (from == CUVK_SPIRV_BOOL) {
      /* A predicate as a number: 1 or 0 (PTX's selp/set give the same). */
      unsigned bits = to == CUVK_SPIRV_BOOL ? 32 : to_bits;
      uint32_t u = cuvk_spirv_val(e, SpvOpSelect, cuvk_spirv_type_uint(e, bits), value,
                                  cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, bits, 1),
                                  cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, bits, 0));
      return to == CUVK_SPIRV_FLOAT
                ? cuvk_spirv_val(e, SpvOpBitcast, cuvk_spirv_type_float(e, bits), u)
                : u;
   }
   /* As bits of from's width. */
   uint32_t u = value;
   if (from == CUVK_SPIRV_FLOAT)
      u = cuvk_spirv_val(e, SpvOpBitcast, cuvk_spirv_type_uint(e, from_bits), value);
   if (to == CUVK_SPIRV_BOOL)
      return cuvk_spirv_val(e, SpvOpINotEqual, cuvk_spirv_type_bool(e), u,
                            cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, from_bits, 0));
   if (to_bits < from_bits)
      u = cuvk_spirv_val(e, SpvOpUConvert, cuvk_spirv_type_uint(e, to_bits), u);
   else if (to_bits > from_bits)
      u = cuvk_spirv_val(e, from == CUVK_SPIRV_SINT ? SpvOpSConvert : SpvOpUConvert,
                         cuvk_spirv_type_uint(e, to_bits), u);
   if (to == CUVK_SPIRV_FLOAT)
      u = cuvk_spirv_val(e, SpvOpBitcast, cuvk_spirv_type_float(e, to_bits), u);
   return u;
}

/* 2^k for k within a double's normal exponents. */
static double
pow2(int k)
{
   uint64_t b = (uint64_t)(k + 1023) << 52;
   double d;
   memcpy(&d, &b, 8);
   return d;
}

/* d rounded to the nearest f16, ties to even, as its bits.  By hand, not
 * through _Float16: clang 14 (Debian 12's, which the fuzz build uses) has
 * no _Float16 on x86-64.  Checked against gcc's _Float16 on 20 million
 * doubles. */
static uint16_t
f16_bits(double d)
{
   uint64_t b;
   memcpy(&b, &d, 8);
   uint16_t sign = (uint16_t)((b >> 48) & 0x8000);
   int exp = (int)((b >> 52) & 0x7ff);
   if (exp == 0x7ff)
      return sign | ((b << 12) ? 0x7e00 : 0x7c00);
   /* |d| in units of the f16 ulp of its binade (subnormals share the
    * lowest one), so q < 2048 and its fraction is exact. */
   int e = exp - 1023 < -14 ? -14 : exp - 1023;
   if (e > 15)
      return sign | 0x7c00;
   double q = (d < 0 ? -d : d) * pow2(10 - e);
   uint32_t m = (uint32_t)q;
   double r = q - m;
   if (r > 0.5 || (r == 0.5 && (m & 1)))
      m++;
   if (m >= 2048) {
      m >>= 1;
      e++;
   }
   if (e > 15)
      return sign | 0x7c00;
   if (m < 1024)
      return sign | (uint16_t)m;
   return sign | (uint16_t)((e + 15) << 10) | (uint16_t)(m - 1024);
}

/* The bits an immediate has as kind and bits. */
static uint64_t
immediate_bits(const struct cuvk_ir_value *v, enum cuvk_spirv_kind kind, unsigned bits)
{
   if (kind == CUVK_SPIRV_FLOAT) {
      double d;
      if (v->imm_kind == CUVK_IR_IMM_F32) {
         float f;
         uint32_t u = (uint32_t)v->imm;
         memcpy(&f, &u, 4);
         if (bits == 32)
            return u;
         d = f;
      } else if (v->imm_kind == CUVK_IR_IMM_F64) {
         memcpy(&d, &v->imm, 8);
      } else {
         /* An integer where a float is wanted: its value. */
         d = (double)(int64_t)v->imm;
      }
      if (bits == 64) {
         uint64_t u;
         memcpy(&u, &d, 8);
         return u;
      }
      if (bits == 32) {
         float f = (float)d;
         uint32_t u;
         memcpy(&u, &f, 4);
         return u;
      }
      return f16_bits(d);
   }
   /* An f64 literal of a 32-bit instruction stands for its f32 image
    * (ptxas rounds it), else the bits as written. */
   if (v->imm_kind == CUVK_IR_IMM_F64 && bits <= 32) {
      double d;
      float f;
      uint32_t u;
      memcpy(&d, &v->imm, 8);
      f = (float)d;
      memcpy(&u, &f, 4);
      return u;
   }
   return v->imm;
}

static bool
check_reg(struct cuvk_spirv_emitter *e, uint32_t reg, enum cuvk_spirv_kind *kind, unsigned *bits)
{
   if (reg >= e->func->reg_count)
      return cuvk_spirv_fail(e, CUVK_CC_INVALID, NULL, "register %u out of range", reg);
   if (!cuvk_spirv_reg_kind(e->func->regs[reg].type, kind, bits))
      return cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, NULL, "%s registers (%s) are not translated",
                             cuvk_ir_type_name(e->func->regs[reg].type), e->func->regs[reg].name);
   return true;
}

static uint32_t
reg_var(struct cuvk_spirv_emitter *e, uint32_t reg, enum cuvk_spirv_kind kind, unsigned bits)
{
   if (!e->reg_vars[reg]) {
      uint32_t id = cuvk_spirv_function_var(e, cuvk_spirv_type_of(e, kind, bits));
      e->reg_vars[reg] = id;
      cuvk_spirv_emit_str(&e->b, CUVK_SPIRV_DEBUG, SpvOpName, &id, 1, e->func->regs[reg].name,
                          NULL, 0);
   }
   return e->reg_vars[reg];
}

uint32_t
cuvk_spirv_read(struct cuvk_spirv_emitter *e, const struct cuvk_ir_value *v,
                enum cuvk_spirv_kind kind, unsigned bits)
{
   if (kind == CUVK_SPIRV_BOOL)
      bits = 1;
   switch (v->kind) {
   case CUVK_IR_VAL_REG: {
      enum cuvk_spirv_kind rk;
      unsigned rb;
      if (!check_reg(e, v->reg, &rk, &rb))
         return cuvk_spirv_const_bits(e, kind, bits, 0);
      uint32_t value = cuvk_spirv_val(e, SpvOpLoad, cuvk_spirv_type_of(e, rk, rb),
                                      reg_var(e, v->reg, rk, rb));
      /* A narrower read takes the low bits; a wider one (which PTX
       * allows only in a few places) extends as the kind asked. */
      if (rk == CUVK_SPIRV_UINT && kind == CUVK_SPIRV_SINT)
         rk = CUVK_SPIRV_SINT;
      value = cuvk_spirv_convert(e, value, rk, rb, kind, bits);
      if (v->negated)
         value = cuvk_spirv_val(e, SpvOpLogicalNot, cuvk_spirv_type_bool(e), value);
      return value;
   }
   case CUVK_IR_VAL_IMM:
      return cuvk_spirv_const_bits(e, kind, bits, immediate_bits(v, kind, bits));
   case CUVK_IR_VAL_SPECIAL: {
      uint32_t value = cuvk_spirv_read_special(e, v);
      unsigned sb = v->special == CUVK_IR_SPECIAL_CLOCK64 ||
                          v->special == CUVK_IR_SPECIAL_GLOBALTIMER
                       ? 64 : 32;
      return cuvk_spirv_convert(e, value, CUVK_SPIRV_UINT, sb, kind, bits);
   }
   case CUVK_IR_VAL_VAR: {
      uint32_t value = cuvk_spirv_var_address(e, v->var, v->imm);
      return cuvk_spirv_convert(e, value, CUVK_SPIRV_UINT, 64, kind, bits);
   }
   case CUVK_IR_VAL_FUNC:
      cuvk_spirv_fail(e, CUVK_CC_UNSUPPORTED, NULL, "the address of function %s (indirect "
                      "calls) is not supported", v->func ? v->func->name : "?");
      return cuvk_spirv_const_bits(e, kind, bits, 0);
   default:
      cuvk_spirv_fail(e, CUVK_CC_INVALID, NULL, "operand is not a value");
      return cuvk_spirv_const_bits(e, kind, bits, 0);
   }
}

void
cuvk_spirv_write(struct cuvk_spirv_emitter *e, const struct cuvk_ir_value *v, uint32_t value,
                 enum cuvk_spirv_kind kind, unsigned bits)
{
   enum cuvk_spirv_kind rk;
   unsigned rb;

   if (kind == CUVK_SPIRV_BOOL)
      bits = 1;
   if (v->kind == CUVK_IR_VAL_NONE)
      return;
   if (v->kind != CUVK_IR_VAL_REG) {
      cuvk_spirv_fail(e, CUVK_CC_INVALID, NULL, "destination is not a register");
      return;
   }
   if (!check_reg(e, v->reg, &rk, &rb))
      return;
   value = cuvk_spirv_convert(e, value, kind, bits, rk, rb);
   cuvk_spirv_do(e, SpvOpStore, reg_var(e, v->reg, rk, rb), value);
}

/* ---- the carry flag ---- */

static uint32_t
carry_var(struct cuvk_spirv_emitter *e)
{
   if (!e->carry_var) {
      uint32_t u32 = cuvk_spirv_type_uint(e, 32);
      e->carry_var = cuvk_spirv_id(&e->b);
      cuvk_spirv_emit_to(&e->b, &e->fvars, SpvOpVariable,
                         (const uint32_t[]){ cuvk_spirv_type_pointer(e, SpvStorageClassFunction,
                                                                     u32),
                                             e->carry_var, SpvStorageClassFunction,
                                             cuvk_spirv_const_u32(e, 0) },
                         4);
   }
   return e->carry_var;
}

uint32_t
cuvk_spirv_read_carry(struct cuvk_spirv_emitter *e)
{
   return cuvk_spirv_val(e, SpvOpLoad, cuvk_spirv_type_uint(e, 32), carry_var(e));
}

void
cuvk_spirv_write_carry(struct cuvk_spirv_emitter *e, uint32_t value_u32)
{
   cuvk_spirv_do(e, SpvOpStore, carry_var(e), value_u32);
}
