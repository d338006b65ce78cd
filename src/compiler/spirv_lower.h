/*
 * What instruction lowering sees of the SPIR-V emitter: types, constants,
 * instructions appended to the function being emitted, and PTX operands
 * read and written as SPIR-V values.  The emitter (spirv_emit*.c) owns
 * the module frame, registers, memory, special registers and control
 * flow; spirv_lower_alu.c lowers arithmetic, comparison, conversion and
 * bit instructions through this interface alone.
 *
 * Conventions:
 *   - integers are one SPIR-V type per width, declared unsigned; signed
 *     operations (OpSDiv, OpSConvert, SAbs ...) run on them as SPIR-V
 *     allows, so no bitcast is ever needed between signed and unsigned;
 *   - a PTX register is stored in its declared width and class (pred:
 *     bool; b8..b64: uint of that width; f16: half; f32: float; f64:
 *     double; f16x2, bf16, bf16x2: the bits as uint); reading it as
 *     another class of the same width is a bitcast, as a narrower width
 *     takes its low bits, and writing a narrower value extends it (sign
 *     extension for CUVK_SPIRV_SINT, zero otherwise), which is PTX's rule
 *     for registers wider than an instruction's type;
 *   - guards are gone before lowering (a pass turns a guarded instruction
 *     into a branch around it), so a lowering never sees one.
 */
#ifndef CUVK_COMPILER_SPIRV_LOWER_H
#define CUVK_COMPILER_SPIRV_LOWER_H

#include <spirv/unified1/GLSL.std.450.h>

#include "compiler/compiler.h"
#include "compiler/ir.h"
#include "compiler/spirv_builder.h"

enum cuvk_spirv_kind {
   CUVK_SPIRV_UINT,   /* .u and .b types */
   CUVK_SPIRV_SINT,   /* .s types: same SPIR-V type as UINT, sign-extended on write */
   CUVK_SPIRV_FLOAT,
   CUVK_SPIRV_BOOL,   /* .pred */
};

struct cuvk_spirv_emitter;

/* Types, declared once each (requesting Int8/Int16/Int64/Float16/Float64
 * capabilities as used).  bits: 8, 16, 32, 64 (floats 16, 32, 64). */
uint32_t cuvk_spirv_type_bool(struct cuvk_spirv_emitter *e);
uint32_t cuvk_spirv_type_uint(struct cuvk_spirv_emitter *e, unsigned bits);
uint32_t cuvk_spirv_type_float(struct cuvk_spirv_emitter *e, unsigned bits);
uint32_t cuvk_spirv_type_of(struct cuvk_spirv_emitter *e, enum cuvk_spirv_kind kind,
                            unsigned bits);
uint32_t cuvk_spirv_type_vector(struct cuvk_spirv_emitter *e, uint32_t component, unsigned n);
/* A struct of two members (for OpIAddCarry, OpUMulExtended and friends). */
uint32_t cuvk_spirv_type_pair(struct cuvk_spirv_emitter *e, uint32_t a, uint32_t b);

/* Constants, declared once each.  const_bits: an integer or float of the
 * kind and width, from its bit pattern. */
uint32_t cuvk_spirv_const_bits(struct cuvk_spirv_emitter *e, enum cuvk_spirv_kind kind,
                               unsigned bits, uint64_t value);
uint32_t cuvk_spirv_const_bool(struct cuvk_spirv_emitter *e, bool value);

void cuvk_spirv_capability(struct cuvk_spirv_emitter *e, SpvCapability cap);
void cuvk_spirv_extension(struct cuvk_spirv_emitter *e, const char *name);

/* Appends an instruction with a result to the current block and returns
 * the result's id; cuvk_spirv_val(e, SpvOpIAdd, type, a, b). */
uint32_t cuvk_spirv_emit_value(struct cuvk_spirv_emitter *e, SpvOp op, uint32_t type,
                               const uint32_t *operands, unsigned count);
#define cuvk_spirv_val(e, op, type, ...)                                         \
   cuvk_spirv_emit_value((e), (op), (type), (const uint32_t[]){ __VA_ARGS__ },    \
                         sizeof((const uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t))
/* An extended instruction of GLSL.std.450. */
uint32_t cuvk_spirv_emit_glsl(struct cuvk_spirv_emitter *e, enum GLSLstd450 inst, uint32_t type,
                              const uint32_t *operands, unsigned count);
#define cuvk_spirv_glsl(e, inst, type, ...)                                      \
   cuvk_spirv_emit_glsl((e), (inst), (type), (const uint32_t[]){ __VA_ARGS__ },   \
                        sizeof((const uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t))
/* Decorates a result (e.g. NoContraction, FPRoundingMode). */
void cuvk_spirv_decorate(struct cuvk_spirv_emitter *e, uint32_t id, SpvDecoration dec,
                         const uint32_t *literals, unsigned count);

/* Reads operand v (register, immediate or special register) as a value
 * of kind and bits, following the conventions above.  An immediate takes
 * the kind and width asked for (PTX immediates have no type of their
 * own): integers truncated, an f64 immediate rounded to f32 when f32 is
 * asked, as ptxas does. */
uint32_t cuvk_spirv_read(struct cuvk_spirv_emitter *e, const struct cuvk_ir_value *v,
                         enum cuvk_spirv_kind kind, unsigned bits);
/* Writes value (of kind and bits) to destination v, a register or the
 * sink "_" (then nothing is written). */
void cuvk_spirv_write(struct cuvk_spirv_emitter *e, const struct cuvk_ir_value *v,
                      uint32_t value, enum cuvk_spirv_kind kind, unsigned bits);

/* The target being compiled for. */
const struct cuvk_cc_target *cuvk_spirv_target(const struct cuvk_spirv_emitter *e);

/* Records an error (the first one wins) and returns false. */
bool cuvk_spirv_fail(struct cuvk_spirv_emitter *e, enum cuvk_cc_status status,
                     const struct cuvk_ir_instr *in, const char *fmt, ...);

/* The carry flag of add.cc/addc/sub.cc/subc/mad.cc/madc: a hidden
 * function-scope variable (a uint32 0 or 1), created on first use. */
uint32_t cuvk_spirv_read_carry(struct cuvk_spirv_emitter *e);
void cuvk_spirv_write_carry(struct cuvk_spirv_emitter *e, uint32_t value_u32);

/* Lowering of arithmetic, comparison, selection, conversion and bit
 * instructions (spirv_lower_alu.c).  Returns 1 when in was lowered, 0
 * when it is not such an instruction (the emitter tries its own), -1 on
 * error (recorded through cuvk_spirv_fail). */
int cuvk_spirv_lower_alu(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in);

/* Lane by lane f16x2 (bf false) or bf16x2 add, min or max (op
 * PTX_OP_ADD, _MIN, _MAX, no modifiers) of two 32-bit words of lanes,
 * rounded as the packed instructions round (spirv_lower_float.c), with
 * no control flow: what the compare-and-swap loops of half-precision
 * atomics combine.  bf needs shaderFloat64 and shaderInt64 for add. */
uint32_t cuvk_spirv_packed_op(struct cuvk_spirv_emitter *e, enum ptx_opcode op, bool bf,
                              uint32_t a, uint32_t b);

/* The bits (a uint32, high half 0) of f32 value x rounded to f16 to
 * nearest even, worked out on the integer bits as cvt.rn.f16.f32 is
 * (spirv_lower_float.c): what sust.p stores in a half surface. */
uint32_t cuvk_spirv_f32_to_f16_bits(struct cuvk_spirv_emitter *e, uint32_t x);

#endif
