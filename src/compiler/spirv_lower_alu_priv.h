/*
 * What the files of the arithmetic lowering (spirv_lower_alu.c,
 * spirv_lower_float.c) share: decoding an instruction's modifiers, short
 * names for the emitter interface of spirv_lower.h, and the floating-point
 * helpers that the integer side needs too (conversions use both).
 *
 * Nothing here reaches past spirv_lower.h into the emitter.
 */
#ifndef CUVK_COMPILER_SPIRV_LOWER_ALU_PRIV_H
#define CUVK_COMPILER_SPIRV_LOWER_ALU_PRIV_H

#include "compiler/spirv_lower.h"

/* One PTX type as the lowering sees it: a SPIR-V kind and width. */
struct alu_type {
   enum ptx_modifier mod;        /* PTX_MOD_COUNT when absent */
   enum cuvk_spirv_kind kind;
   unsigned bits;
};

/* Rounding of a floating-point result. */
enum alu_round {
   ALU_RN,
   ALU_RZ,
   ALU_RM,
   ALU_RP,
};

/* Records an error through cuvk_spirv_fail and gives the lowering's -1. */
#define alu_refuse(e, status, in, ...) (cuvk_spirv_fail((e), (status), (in), __VA_ARGS__), -1)

bool alu_has(const struct cuvk_ir_instr *in, enum ptx_modifier mod);
/* The n-th type modifier of in, decoded; false when there is none. */
bool alu_type(const struct cuvk_ir_instr *in, unsigned n, struct alu_type *t);
/* "add.rz.f32" for messages (a static buffer per thread). */
const char *alu_name(const struct cuvk_ir_instr *in);

/* Refuses with UNSUPPORTED (naming the instruction) a type the target
 * cannot hold: f16 without shaderFloat16, f64 without shaderFloat64,
 * 8/16/64-bit integers without the matching feature, bf16 and packed
 * types outside conversions. */
bool alu_check_type(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
                    const struct alu_type *t);

/* Short forms. */
static inline uint32_t
alu_u(struct cuvk_spirv_emitter *e, unsigned bits)
{
   return cuvk_spirv_type_uint(e, bits);
}

static inline uint32_t
alu_f(struct cuvk_spirv_emitter *e, unsigned bits)
{
   return cuvk_spirv_type_float(e, bits);
}

static inline uint32_t
alu_b(struct cuvk_spirv_emitter *e)
{
   return cuvk_spirv_type_bool(e);
}

static inline uint32_t
alu_cu(struct cuvk_spirv_emitter *e, unsigned bits, uint64_t v)
{
   return cuvk_spirv_const_bits(e, CUVK_SPIRV_UINT, bits, v);
}

/* A float constant from its bit pattern. */
static inline uint32_t
alu_cf(struct cuvk_spirv_emitter *e, unsigned bits, uint64_t pattern)
{
   return cuvk_spirv_const_bits(e, CUVK_SPIRV_FLOAT, bits, pattern);
}

static inline uint32_t
alu_sel(struct cuvk_spirv_emitter *e, uint32_t type, uint32_t cond, uint32_t a, uint32_t b)
{
   return cuvk_spirv_val(e, SpvOpSelect, type, cond, a, b);
}

static inline uint32_t
alu_bitcast(struct cuvk_spirv_emitter *e, uint32_t type, uint32_t v)
{
   return cuvk_spirv_val(e, SpvOpBitcast, type, v);
}

/* Reads src[i] as kind/bits; predicates honour a "!" on the operand. */
uint32_t alu_read(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in, unsigned i,
                  enum cuvk_spirv_kind kind, unsigned bits);

/* Floating-point bit helpers (spirv_lower_float.c). */
uint64_t alu_fsign(unsigned bits);          /* the sign bit */
uint64_t alu_finf(unsigned bits);           /* +inf */
uint64_t alu_fmin_normal(unsigned bits);    /* smallest normal */
uint64_t alu_fnan(unsigned bits);           /* the canonical NaN PTX produces */
/* Flushes a subnormal to a zero of its sign (.ftz). */
uint32_t alu_flush(struct cuvk_spirv_emitter *e, uint32_t x, unsigned bits);
/* True when x is NaN (by its bits, so no driver may fold it away). */
uint32_t alu_isnan(struct cuvk_spirv_emitter *e, uint32_t x, unsigned bits);

/* Float lowering entry points (spirv_lower_float.c): 1 lowered, -1
 * refused (recorded). */
int alu_lower_float(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
                    const struct alu_type *t);
int alu_lower_cvt(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in);
/* f16x2, bf16 and bf16x2 add, sub, mul, fma, min, max, neg, abs, and the
 * ex2/tanh .approx of those and of f16, lane by lane on the bits
 * (spirv_lower_float.c). */
int alu_lower_packed(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
                     const struct alu_type *t);
/* The comparison cmp of two f16 (bf false) or bf16 lanes, each the low
 * 16 bits of a uint32, on their bits; .ftz flushes f16 lanes first. */
uint32_t alu_lane_compare(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
                          enum ptx_modifier cmp, uint32_t a, uint32_t b, bool bf);
/* Float comparison (setp/set/slct): ordered and unordered operators. */
uint32_t alu_fcompare(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in,
                      enum ptx_modifier cmp, uint32_t a, uint32_t b, unsigned bits);

#endif
