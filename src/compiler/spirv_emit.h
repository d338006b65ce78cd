/*
 * The SPIR-V emitter's state, shared by its files (spirv_emit.c: the
 * module frame, functions and control flow; spirv_values.c: types,
 * constants, registers and the value API of spirv_lower.h;
 * spirv_memory.c: state spaces, the address translation of
 * kernel_abi.h, atomics; spirv_lower_basic.c: mov, which spirv_lower.h
 * leaves to the emitter).  Instruction lowering outside the emitter sees
 * only spirv_lower.h.
 */
#ifndef CUVK_COMPILER_SPIRV_EMIT_H
#define CUVK_COMPILER_SPIRV_EMIT_H

#include "compiler/ir_passes.h"
#include "compiler/ir_structure.h"
#include "compiler/kernel_abi.h"
#include "compiler/spirv.h"
#include "compiler/spirv_lower.h"

/* What the caches key on: a tag and up to three numbers. */
enum cuvk_spirv_key {
   CUVK_SPIRV_KEY_TYPE_INT = 1,
   CUVK_SPIRV_KEY_TYPE_FLOAT,
   CUVK_SPIRV_KEY_TYPE_VECTOR,
   CUVK_SPIRV_KEY_TYPE_PAIR,
   CUVK_SPIRV_KEY_TYPE_POINTER,
   CUVK_SPIRV_KEY_TYPE_ARRAY,
   CUVK_SPIRV_KEY_TYPE_FUNCTION,   /* a: return, b: param count, c: the params, 3 at most, packed */
   CUVK_SPIRV_KEY_CONST,           /* a: type, b: bits */
   CUVK_SPIRV_KEY_HELPER,          /* a helper function: a: its kind, b, c: its parameters */
   CUVK_SPIRV_KEY_VAR_OFFSET,      /* b: an IR variable's address: its byte offset */
   CUVK_SPIRV_KEY_FUNC,            /* b: an IR function's address: its SPIR-V function */
};

struct cuvk_spirv_cache_slot {
   uint32_t tag, a;
   uint64_t b, c;
   uint32_t id;
};

struct cuvk_spirv_cache {
   struct cuvk_spirv_cache_slot *slots;   /* open addressing, tag 0 = empty */
   size_t cap, count;
};

/* Distinct sample forms of one kernel with a conversion path, at most. */
#define CUVK_SPIRV_MAX_TEX_CONVERTS 64u

struct cuvk_spirv_emitter {
   struct cuvk_arena arena;
   struct cuvk_spirv_builder b;
   struct cuvk_ir_module *module;
   const struct cuvk_ir_function *kernel;
   const struct cuvk_cc_target *target;
   struct cuvk_cc_error *err;
   struct cuvk_spirv_cache cache;

   uint32_t t_void, t_bool;
   uint32_t caps[32];
   unsigned cap_count;
   const char *exts[8];
   unsigned ext_count;
   uint32_t glsl;                    /* the GLSL.std.450 import, 0 until used */
   uint32_t *interface;              /* global variables, for OpEntryPoint */
   size_t interface_count, interface_cap;

   /* The frame (kernel_abi.h), each made on first use. */
   uint32_t main_fn;
   uint32_t push_var;
   uint32_t wg_size, spec_size[3], spec_dynamic_shared;
   uint32_t builtin_local_id, builtin_wg_id, builtin_local_index;
   uint32_t builtin_subgroup_lane, builtin_subgroup_id;

   /* Memory: byte offsets of .shared and .local/.param variables in one
    * Workgroup and one Private array of uint. */
   uint32_t shared_var, local_var;
   /* Where the target has shared_atomic_int64 and the kernel or a
    * function it calls has a 64-bit atomic that may reach shared memory:
    * the shared array is a Block (word i at member 0, index i) and
    * shared64_var an Aliased Block of u64 over the same bytes, for 64-bit
    * atomics, loads and stores (spirv_memory.c). */
   bool shared64;
   uint32_t shared64_var;
   uint32_t static_shared_bytes, dynamic_shared_offset;
   bool dynamic_shared;
   uint32_t local_bytes;
   uint32_t bar_red_offset;          /* a shared word for bar.red, plus one; 0: none */
   const struct cuvk_cc_param *params;   /* the kernel's parameter block */
   uint32_t param_bytes;
   /* Spans (kernel_abi.h): per register of the kernel, the parameter word
    * its pointer came from (ir_param_ptr.c); per word, the id of its span
    * (base, size, delta) as a u64vec3 loaded at the kernel's start, in
    * [0] (0: none);
    * and the word the global access being lowered tests, or
    * CUVK_IR_NO_WORD. */
   const uint32_t *param_word;
   /* Per register of the kernel: the same in every thread of the launch
    * (ir_uniform.c); NULL outside the kernel's own function. */
   const bool *uniform_regs;
   uint32_t (*span_ids)[3];
   uint32_t access_word;
   bool uses_printf;
   /* Bindings of set CUVK_KERNEL_TEX_SET declared (spirv_texture.c). */
   uint64_t tex_bindings;
   bool uses_textures;
   /* Sample helpers' conversion paths (CUVK_KERNEL_HANDLE_CONVERT),
    * called by id and emitted once the kernel's own bindings are all
    * declared (cuvk_spirv_texture_finish), so the bindings they add
    * never take the room of one an instruction needs. */
   struct cuvk_spirv_tex_convert {
      uint32_t id;
      const struct cuvk_ir_instr *in;
      uint8_t dim, ncoords, type;
      bool int_coords, grad, uniform;
      int8_t gather;
   } tex_converts[CUVK_SPIRV_MAX_TEX_CONVERTS];
   unsigned tex_convert_count;

   /* Functions called from the kernel, emitted after it. */
   const struct cuvk_ir_function **pending;
   size_t pending_count, pending_cap;

   /* The function being emitted. */
   const struct cuvk_ir_function *func;
   struct cuvk_ir_structure structure;
   uint32_t *reg_vars;               /* per register: its OpVariable, 0 until used */
   uint32_t *labels;                 /* per block */
   struct cuvk_spirv_words fvars;    /* the function's OpVariables */
   struct cuvk_spirv_words body;
   struct cuvk_spirv_words *cur;     /* where instructions go */
   uint32_t carry_var;
   const struct cuvk_ir_instr *instr;   /* being lowered, for errors */
   bool failed;

   /* Lavapipe's loop limit (cuvk_cc_target.loop_limit, spirv_emit.c):
    * the Private counter of loop passes and the function that checks it
    * (each 0 until made). */
   uint32_t loop_counter, loop_check_fn;
};

/* Cache lookup: the id stored under the key, or 0; and storing one. */
uint32_t cuvk_spirv_cache_get(struct cuvk_spirv_emitter *e, uint32_t tag, uint32_t a,
                              uint64_t b, uint64_t c);
void cuvk_spirv_cache_put(struct cuvk_spirv_emitter *e, uint32_t tag, uint32_t a, uint64_t b,
                          uint64_t c, uint32_t id);

/* An instruction without a result, into the current stream. */
void cuvk_spirv_emit_op(struct cuvk_spirv_emitter *e, SpvOp op, const uint32_t *operands,
                        unsigned count);
#define cuvk_spirv_do(e, op, ...)                                                \
   cuvk_spirv_emit_op((e), (op), (const uint32_t[]){ __VA_ARGS__ },              \
                      sizeof((const uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t))
/* A global (types, constants, variables). */
#define cuvk_spirv_global(e, op, ...)                                            \
   cuvk_spirv_op(&(e)->b, CUVK_SPIRV_GLOBALS, (op), __VA_ARGS__)

uint32_t cuvk_spirv_type_void(struct cuvk_spirv_emitter *e);
uint32_t cuvk_spirv_type_pointer(struct cuvk_spirv_emitter *e, SpvStorageClass sc,
                                 uint32_t pointee);
uint32_t cuvk_spirv_type_array(struct cuvk_spirv_emitter *e, uint32_t element, uint32_t length_id);
uint32_t cuvk_spirv_type_function(struct cuvk_spirv_emitter *e, uint32_t ret,
                                  const uint32_t *params, unsigned count);
uint32_t cuvk_spirv_const_u32(struct cuvk_spirv_emitter *e, uint32_t value);
uint32_t cuvk_spirv_const_u64(struct cuvk_spirv_emitter *e, uint64_t value);

/* A module-scope variable listed in the entry point's interface. */
uint32_t cuvk_spirv_global_var(struct cuvk_spirv_emitter *e, SpvStorageClass sc, uint32_t type);
/* A Function variable of the function being emitted. */
uint32_t cuvk_spirv_function_var(struct cuvk_spirv_emitter *e, uint32_t type);

/* Value conversions between (kind, bits) pairs, by the register rules of
 * spirv_lower.h: same width other class a bitcast, narrower the low bits,
 * wider an extension (sign extension when from is SINT). */
uint32_t cuvk_spirv_convert(struct cuvk_spirv_emitter *e, uint32_t value,
                            enum cuvk_spirv_kind from, unsigned from_bits,
                            enum cuvk_spirv_kind to, unsigned to_bits);
/* The kind and bits a register of type t is stored as; false for types
 * that have no storage (b128). */
bool cuvk_spirv_reg_kind(enum cuvk_ir_type t, enum cuvk_spirv_kind *kind, unsigned *bits);

/* Special registers and frame values (spirv_emit.c). */
uint32_t cuvk_spirv_read_special(struct cuvk_spirv_emitter *e, const struct cuvk_ir_value *v);
uint32_t cuvk_spirv_push_load(struct cuvk_spirv_emitter *e, unsigned member);

/* Memory (spirv_memory.c).  The address of a variable as its space
 * names it (u64): a CUdeviceptr for .global and .const, an offset for
 * .shared, .local and .param. */
uint32_t cuvk_spirv_var_address(struct cuvk_spirv_emitter *e, const struct cuvk_ir_var *var,
                                uint64_t offset);
/* ld, st, atom, red, cvta, and the memory side of call; 1 lowered, 0 not
 * such an instruction, -1 failed. */
int cuvk_spirv_lower_memory(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in);
/* Lays out .shared and .local/.param variables of f (once per function). */
bool cuvk_spirv_layout_function(struct cuvk_spirv_emitter *e, const struct cuvk_ir_function *f);
void cuvk_spirv_layout_module(struct cuvk_spirv_emitter *e);
/* A pointer to the shared word at a constant byte offset. */
uint32_t cuvk_spirv_shared_word(struct cuvk_spirv_emitter *e, uint32_t byte_offset);
/* Copies bytes between two places of the local array (call arguments). */
void cuvk_spirv_local_copy(struct cuvk_spirv_emitter *e, uint32_t to, uint32_t from,
                           uint32_t bytes);
/* Loads through a generic address (u64), and loads and stores at a byte
 * offset (u64) of the local array; values are uints of bits (8..64). */
uint32_t cuvk_spirv_generic_load(struct cuvk_spirv_emitter *e, uint32_t addr, unsigned bits);
uint32_t cuvk_spirv_local_load(struct cuvk_spirv_emitter *e, uint32_t offset, unsigned bits);
void cuvk_spirv_local_store(struct cuvk_spirv_emitter *e, uint32_t offset, uint32_t value,
                            unsigned bits);

/* The kernel f's spans (kernel_abi.h): finds which parameter word each
 * global access's address came from and loads those words' spans into
 * the current stream, which must be f's entry block. */
bool cuvk_spirv_spans_begin(struct cuvk_spirv_emitter *e, const struct cuvk_ir_function *f);
/* Stores kind into the fault word. */
void cuvk_spirv_store_fault(struct cuvk_spirv_emitter *e, enum cuvk_kernel_fault kind);

/* The push constant members holding the printf buffer's address and
 * the texture and surface records'. */
#define CUVK_SPIRV_PUSH_PRINTF_BUFFER 15
#define CUVK_SPIRV_PUSH_TEX_RECORDS 16
#define CUVK_SPIRV_PUSH_SURF_RECORDS 17

/* A load or store through a buffer device address (u64), bytes aligned. */
uint32_t cuvk_spirv_device_load(struct cuvk_spirv_emitter *e, uint32_t addr, uint32_t type,
                                unsigned bytes);
void cuvk_spirv_device_store(struct cuvk_spirv_emitter *e, uint32_t addr, uint32_t type,
                             uint32_t value, unsigned bytes);

/* A helper function of the module, emitted into its own stream between
 * begin (which makes it current and returns its id) and end. */
struct cuvk_spirv_helper {
   struct cuvk_spirv_words words;
   struct cuvk_spirv_words *saved;
   uint32_t id;
};
uint32_t cuvk_spirv_helper_begin(struct cuvk_spirv_emitter *e, struct cuvk_spirv_helper *h,
                                 uint32_t ret, const uint32_t *params, unsigned count,
                                 uint32_t *param_ids);
/* The same for a function whose id was taken (and called) before. */
void cuvk_spirv_helper_begin_id(struct cuvk_spirv_emitter *e, struct cuvk_spirv_helper *h, uint32_t id,
                                uint32_t ret, const uint32_t *params, unsigned count, uint32_t *param_ids);
void cuvk_spirv_helper_end(struct cuvk_spirv_emitter *e, struct cuvk_spirv_helper *h,
                           const char *name);

/* tex, suld, sust, txq, suq (spirv_texture.c); same return values as
 * cuvk_spirv_lower_alu. */
int cuvk_spirv_lower_texture(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in);
/* Emits what the texture lowering left for the end of the kernel (the
 * conversion paths); false when compilation failed. */
bool cuvk_spirv_texture_finish(struct cuvk_spirv_emitter *e);

/* A call of vprintf (spirv_printf.c): 1 lowered, -1 failed. */
int cuvk_spirv_lower_printf(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in);

/* Warp instructions on 32-wide subgroups (spirv_warp.c); same return
 * values.  The subgroup built-ins, as %laneid and %warpid there. */
int cuvk_spirv_lower_warp(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in);
uint32_t cuvk_spirv_subgroup_lane(struct cuvk_spirv_emitter *e);
uint32_t cuvk_spirv_subgroup_id(struct cuvk_spirv_emitter *e);

/* The emitter's own lowering of mov, plain and vector
 * (spirv_lower_basic.c); same return values as cuvk_spirv_lower_alu. */
int cuvk_spirv_lower_basic(struct cuvk_spirv_emitter *e, const struct cuvk_ir_instr *in);

/* Modifier queries on an instruction. */
bool cuvk_spirv_has_mod(const struct cuvk_ir_instr *in, enum ptx_modifier m);
/* The instruction's n-th type modifier (0 first), or PTX_MOD_COUNT. */
enum ptx_modifier cuvk_spirv_type_mod(const struct cuvk_ir_instr *in, unsigned n);
enum ptx_modifier cuvk_spirv_mod_of_class(const struct cuvk_ir_instr *in, enum ptx_mod_class c);
/* A PTX type modifier as a (kind, bits) pair; false for types without one. */
bool cuvk_spirv_ptx_kind(enum ptx_modifier type, enum cuvk_spirv_kind *kind, unsigned *bits);

#endif
