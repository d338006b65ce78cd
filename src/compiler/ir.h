/*
 * The compiler's IR: functions made of basic blocks joined into a
 * control-flow graph, over typed virtual registers.
 *
 * It sits between the parsed PTX and SPIR-V and keeps PTX's semantics
 * exactly: operations are PTX's opcodes with their modifiers kept whole
 * (decoding .rn or .ftz is the job of the instruction lowering, which
 * must honour every one), registers are PTX's (mutable, not SSA: PTX
 * assigns a register in many places and the structurizer and SPIR-V
 * emitter decide how to carry values), and addresses are base plus byte
 * offset.  What the IR adds is what PTX leaves implicit: blocks with one
 * terminator each, explicit successors and predecessors, resolved names
 * (a register operand is an index, a variable operand a pointer to the
 * variable, a branch target a block), special registers told apart from
 * ordinary ones, and initialised data laid out as bytes.
 *
 * Everything lives in the module's arena; nothing is freed alone.
 */
#ifndef CUVK_COMPILER_IR_H
#define CUVK_COMPILER_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/arena.h"
#include "compiler/diag.h"
#include "compiler/ptx.h"
#include "util/list.h"

/* Register types: the width and class PTX's register declaration gives.
 * Signedness is not a register property in PTX; it is the operation's. */
enum cuvk_ir_type {
   CUVK_IR_PRED,
   CUVK_IR_B8,
   CUVK_IR_B16,
   CUVK_IR_B32,
   CUVK_IR_B64,
   CUVK_IR_B128,
   CUVK_IR_F16,
   CUVK_IR_F16X2,
   CUVK_IR_BF16,
   CUVK_IR_BF16X2,
   CUVK_IR_F32,
   CUVK_IR_F64,
   CUVK_IR_TYPE_COUNT,
};

/* Special registers (PTX ISA "Special Registers"); the ones with .x .y .z
 * take a component. */
#define CUVK_IR_SPECIALS(X)            \
   X(TID,           "%tid",           3) \
   X(NTID,          "%ntid",          3) \
   X(CTAID,         "%ctaid",         3) \
   X(NCTAID,        "%nctaid",        3) \
   X(LANEID,        "%laneid",        0) \
   X(WARPID,        "%warpid",        0) \
   X(NWARPID,       "%nwarpid",       0) \
   X(SMID,          "%smid",          0) \
   X(NSMID,         "%nsmid",         0) \
   X(GRIDID,        "%gridid",        0) \
   X(LANEMASK_EQ,   "%lanemask_eq",   0) \
   X(LANEMASK_LE,   "%lanemask_le",   0) \
   X(LANEMASK_LT,   "%lanemask_lt",   0) \
   X(LANEMASK_GE,   "%lanemask_ge",   0) \
   X(LANEMASK_GT,   "%lanemask_gt",   0) \
   X(CLOCK,         "%clock",         0) \
   X(CLOCK_HI,      "%clock_hi",      0) \
   X(CLOCK64,       "%clock64",       0) \
   X(GLOBALTIMER,   "%globaltimer",   0) \
   X(GLOBALTIMER_LO, "%globaltimer_lo", 0) \
   X(GLOBALTIMER_HI, "%globaltimer_hi", 0) \
   X(DYNAMIC_SMEM_SIZE, "%dynamic_smem_size", 0) \
   X(TOTAL_SMEM_SIZE, "%total_smem_size", 0) \
   X(WARPSZ,        "WARP_SZ",        0)

enum cuvk_ir_special {
#define CUVK_IR_SPECIAL_ENUM(e, name, comps) CUVK_IR_SPECIAL_##e,
   CUVK_IR_SPECIALS(CUVK_IR_SPECIAL_ENUM)
#undef CUVK_IR_SPECIAL_ENUM
   CUVK_IR_SPECIAL_COUNT,
};

struct cuvk_ir_function;
struct cuvk_ir_block;

/* A variable: module scope (.global, .const, .shared) or a function's
 * (.local, .shared, .param: kernel parameters, return values, and the
 * argument slots of calls). */
struct cuvk_ir_var {
   const char *name;
   unsigned line;
   enum ptx_space space;
   enum ptx_linkage linkage;
   enum ptx_modifier elem_type;  /* the declared PTX type */
   uint64_t size;                /* bytes; 0 for unsized (dynamic shared) */
   unsigned align;               /* bytes, at least the element's */
   bool unsized;
   bool managed;                 /* .global .attribute(.managed) */
   bool is_param;                /* a parameter (or return value) of its function */
   unsigned index;               /* in its list */
   uint8_t *init;                /* size bytes, or NULL when uninitialised */
   struct cuvk_ir_reloc *relocs; /* addresses inside init */
   size_t reloc_count;
};

/* An address stored in initialised data: at byte offset, the address of
 * var plus addend, size bytes wide (4 or 8). */
struct cuvk_ir_reloc {
   uint64_t offset;
   struct cuvk_ir_var *var;
   struct cuvk_ir_function *func;    /* a function's address instead of a variable's */
   uint64_t addend;
   unsigned size;
   bool generic;
};

enum cuvk_ir_value_kind {
   CUVK_IR_VAL_NONE,     /* the sink "_" */
   CUVK_IR_VAL_REG,      /* reg */
   CUVK_IR_VAL_IMM,      /* imm: integer two's complement, or float bits */
   CUVK_IR_VAL_SPECIAL,  /* special + component */
   CUVK_IR_VAL_VAR,      /* the address of var, plus imm */
   CUVK_IR_VAL_FUNC,     /* a function (call target) */
   CUVK_IR_VAL_ADDR,     /* memory operand [base + imm]: base is reg, var or neither */
};

enum cuvk_ir_imm_kind {
   CUVK_IR_IMM_INT,
   CUVK_IR_IMM_F32,
   CUVK_IR_IMM_F64,
};

struct cuvk_ir_value {
   enum cuvk_ir_value_kind kind;
   enum cuvk_ir_imm_kind imm_kind;
   bool negated;                 /* !%p */
   bool has_reg;                 /* ADDR: the base is reg */
   uint32_t reg;
   enum cuvk_ir_special special;
   uint8_t component;            /* 0..3 for .x .. .w */
   uint64_t imm;
   struct cuvk_ir_var *var;
   struct cuvk_ir_function *func;
};

struct cuvk_ir_instr {
   struct cuvk_list link;        /* in the block */
   unsigned line;                /* in the PTX text */
   enum ptx_opcode op;
   enum ptx_modifier mods[PTX_MAX_MODIFIERS];
   unsigned mod_count;
   bool guarded;                 /* runs only where guard (a PRED register) says */
   bool guard_negated;
   uint32_t guard;
   struct cuvk_ir_value *dst;    /* written: registers, or for call the return slots */
   unsigned dst_count;
   struct cuvk_ir_value *src;
   unsigned src_count;
};

enum cuvk_ir_term {
   CUVK_IR_TERM_NONE,      /* only while a block is being built */
   CUVK_IR_TERM_BR,        /* succ[0] */
   CUVK_IR_TERM_CBR,       /* cond ? succ[0] : succ[1] */
   CUVK_IR_TERM_SWITCH,    /* brx.idx: succ[cond_value] */
   CUVK_IR_TERM_RET,       /* return from the function, or the kernel's end */
   CUVK_IR_TERM_EXIT,      /* the thread ends */
   CUVK_IR_TERM_TRAP,      /* the kernel aborts */
   CUVK_IR_TERM_UNREACHABLE, /* control never gets here: the merge block the
                              * structurizer gives a construct whose paths
                              * never meet again, and blocks it cut off */
};

struct cuvk_ir_block {
   unsigned index;               /* in function->blocks */
   const char *label;            /* the PTX label that starts it, or NULL */
   unsigned line;
   struct cuvk_list instrs;      /* of cuvk_ir_instr */
   enum cuvk_ir_term term;
   unsigned term_line;
   bool uniform;                 /* bra.uni: every thread takes the same way */
   struct cuvk_ir_value cond;    /* CBR: a PRED register (maybe negated); SWITCH: the index */
   struct cuvk_ir_block **succs;
   unsigned succ_count;
   struct cuvk_ir_block **preds;
   unsigned pred_count, pred_cap;
};

struct cuvk_ir_reg {
   const char *name;
   enum cuvk_ir_type type;
};

struct cuvk_ir_function {
   struct cuvk_ir_module *module;
   const char *name;
   unsigned line;
   unsigned index;
   bool is_entry;
   bool has_body;
   bool noreturn;
   enum ptx_linkage linkage;
   unsigned maxntid[3], reqntid[3], minnctapersm;
   struct cuvk_ir_var **params;     /* .param variables, or NULL where a .reg parameter */
   uint32_t *param_regs;            /* .reg parameters' registers (UINT32_MAX for .param) */
   size_t param_count;
   struct cuvk_ir_var **rets;
   uint32_t *ret_regs;
   size_t ret_count;
   struct cuvk_ir_var **vars;       /* .local, .shared and call-slot .param */
   size_t var_count, var_cap;
   struct cuvk_ir_reg *regs;
   uint32_t reg_count, reg_cap;
   struct cuvk_ir_block **blocks;   /* blocks[0] is the entry and has no predecessors */
   unsigned block_count, block_cap;
};

struct cuvk_ir_module {
   struct cuvk_arena arena;
   unsigned ptx_version_major, ptx_version_minor;
   const char *target;
   struct cuvk_ir_var **vars;
   size_t var_count, var_cap;
   struct cuvk_ir_function **funcs;
   size_t func_count, func_cap;
};

/* Module and function lifetime. */
struct cuvk_ir_module *cuvk_ir_module_create(void);
void cuvk_ir_module_destroy(struct cuvk_ir_module *module);

/* Lowers a parsed module (ptx_to_ir.c).  NULL with err set on an
 * unresolved name, a mistyped operand, or a construct not supported. */
struct cuvk_ir_module *cuvk_ptx_to_ir(const struct ptx_module *ptx, struct cuvk_cc_error *err);

/* Checks the invariants every pass may rely on (ir_validate.c); false with
 * err naming the function, block and instruction. */
bool cuvk_ir_validate(const struct cuvk_ir_module *module, struct cuvk_cc_error *err);

/* The module as text, for tests and debugging (ir_print.c); malloc'ed,
 * NULL when out of memory. */
char *cuvk_ir_print(const struct cuvk_ir_module *module);

/* Small helpers. */
const char *cuvk_ir_type_name(enum cuvk_ir_type type);
unsigned cuvk_ir_type_bits(enum cuvk_ir_type type);
const char *cuvk_ir_special_name(enum cuvk_ir_special special);
unsigned cuvk_ir_special_components(enum cuvk_ir_special special);
/* The register type a PTX type modifier declares; CUVK_IR_TYPE_COUNT when
 * it declares none (.b128 is kept, a .v4 is four registers). */
enum cuvk_ir_type cuvk_ir_type_of_ptx(enum ptx_modifier type);
/* Bytes of a PTX type modifier (.pred: 1, as in memory). */
unsigned cuvk_ptx_type_bytes(enum ptx_modifier type);

#endif
