/*
 * A parsed PTX module: what the text says, checked against the grammar and
 * the instruction table, with names not yet resolved (a register, a
 * variable and a label are all "names" here; ptx_to_ir.c tells them
 * apart).  Everything lives in the module's arena.
 *
 * Parsed: .version, .target, .address_size; .visible/.extern/.weak/.common
 * .entry and .func with parameters and return parameters, declarations and
 * bodies; variables in .global/.const/.shared/.local/.param/.reg with
 * alignment, vectors, array sizes (unsized [] included), register ranges
 * %r<N> and initialisers (numbers and symbol addresses, nested braces
 * flattened); .maxntid/.reqntid/.minnctapersm/.maxnreg/.noreturn and
 * .pragma; labels, guards @p/@!p, instructions with modifiers and operands
 * (registers, %tid.x, immediates, [base+offset], {a, b}, p|q, call lists);
 * nested { } scopes; .branchtargets.  Debug information (.loc, .file,
 * .section) is read over and dropped.
 */
#ifndef CUVK_COMPILER_PTX_H
#define CUVK_COMPILER_PTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/arena.h"
#include "compiler/diag.h"
#include "compiler/ptx_opcodes.h"

/* The most modifiers one instruction may carry; nvcc's longest forms
 * (ld.relaxed.gpu.global.L1::no_allocate.L2::256B.v4.u32) use 7. */
#define PTX_MAX_MODIFIERS 12

enum ptx_linkage {
   PTX_LINK_NONE,
   PTX_LINK_VISIBLE,
   PTX_LINK_EXTERN,
   PTX_LINK_WEAK,
   PTX_LINK_COMMON,
};

enum ptx_space {
   PTX_SPACE_NONE,
   PTX_SPACE_REG,
   PTX_SPACE_GLOBAL,
   PTX_SPACE_CONST,
   PTX_SPACE_SHARED,
   PTX_SPACE_LOCAL,
   PTX_SPACE_PARAM,
};

enum ptx_init_kind {
   PTX_INIT_INT,
   PTX_INIT_F32,       /* value holds the bits */
   PTX_INIT_F64,       /* value holds the bits */
   PTX_INIT_SYMBOL,    /* the address of symbol, plus value as a byte offset */
};

/* One element of an initialiser; nested braces are flattened in order. */
struct ptx_init {
   enum ptx_init_kind kind;
   bool generic;           /* generic(symbol) */
   const char *symbol;
   uint64_t value;
};

struct ptx_decl {
   const char *name;
   unsigned line, column;
   enum ptx_space space;
   enum ptx_linkage linkage;
   enum ptx_modifier type;     /* a PTX_MODC_TYPE modifier */
   unsigned vec;               /* 1, 2, 4 or 8 lanes */
   unsigned align;             /* bytes; 0 when not given */
   unsigned reg_range;         /* %r<17>: 17 registers %r0..%r16; 0 for one */
   unsigned dims;              /* array dimensions, 0 for a scalar */
   bool unsized;               /* the first dimension is [] */
   uint64_t dim[4];
   struct ptx_init *init;
   size_t init_count;
   bool has_init;
   bool managed;               /* .attribute(.managed): a __managed__ variable */
   /* Kernel parameters: .ptr .global .align 16 */
   bool is_ptr;
   enum ptx_space ptr_space;
   unsigned ptr_align;
};

enum ptx_operand_kind {
   PTX_OPND_NAME,     /* register, variable, function or label; plus offset */
   PTX_OPND_INT,      /* value, two's complement */
   PTX_OPND_F32,      /* value holds the bits */
   PTX_OPND_F64,      /* value holds the bits */
   PTX_OPND_ADDR,     /* [name + offset] or [offset] (name NULL) */
   PTX_OPND_VEC,      /* {a, b, c, d}; elements are NAMEs (or _) or immediates */
   PTX_OPND_PAIR,     /* p|q */
   PTX_OPND_LIST,     /* (a, b): call arguments and return values */
};

struct ptx_operand {
   enum ptx_operand_kind kind;
   unsigned line, column;
   const char *name;
   char component;            /* 'x' .. 'w' for %tid.x, else 0 */
   bool negated;              /* !%p */
   uint64_t value;            /* immediates; NAME and ADDR: signed offset */
   struct ptx_operand *elems; /* VEC, PAIR, LIST */
   unsigned elem_count;
};

struct ptx_instr {
   enum ptx_opcode op;
   enum ptx_modifier mods[PTX_MAX_MODIFIERS];
   unsigned mod_count;
   const char *guard;         /* predicate register, or NULL */
   bool guard_negated;
   struct ptx_operand *ops;
   unsigned op_count;
};

enum ptx_stmt_kind {
   PTX_STMT_INSTR,
   PTX_STMT_LABEL,
   PTX_STMT_DECL,
   PTX_STMT_OPEN,           /* { : a nested scope begins */
   PTX_STMT_CLOSE,          /* } */
   PTX_STMT_PRAGMA,
   PTX_STMT_BRANCHTARGETS,  /* label: .branchtargets a, b, ...; */
};

struct ptx_stmt {
   enum ptx_stmt_kind kind;
   unsigned line, column;
   union {
      struct ptx_instr instr;
      const char *label;
      struct ptx_decl decl;
      const char *pragma;
      struct {
         const char *label;
         const char **targets;
         size_t count;
      } branchtargets;
   };
};

struct ptx_function {
   const char *name;
   unsigned line, column;
   bool is_entry;
   bool noreturn;
   enum ptx_linkage linkage;
   struct ptx_decl *params;
   size_t param_count;
   struct ptx_decl *rets;
   size_t ret_count;
   unsigned maxntid[3], reqntid[3];    /* 0 where not given */
   unsigned minnctapersm, maxnreg;
   const char **pragmas;
   size_t pragma_count;
   bool has_body;
   struct ptx_stmt *body;
   size_t body_count;
};

struct ptx_module {
   struct cuvk_arena arena;
   unsigned version_major, version_minor;
   const char *target;          /* sm_75, sm_90a, ... */
   bool target_debug;
   bool target_map_f64_to_f32;
   bool target_texmode_independent;
   unsigned address_size;       /* 32 or 64; 32 when not given, as the ISA says */
   struct ptx_decl *vars;       /* module-scope variables */
   size_t var_count;
   struct ptx_function *funcs;
   size_t func_count;
};

/*
 * Parses len bytes of PTX text (no terminating NUL needed).  Returns the
 * module, or NULL with err set (line and column of the offending token);
 * never crashes on any input.  The text is copied where needed, so it may
 * be freed afterwards.
 */
struct ptx_module *ptx_parse(const char *text, size_t len, struct cuvk_cc_error *err);
void ptx_module_destroy(struct ptx_module *module);

/* Helpers for the stages after parsing. */
bool ptx_instr_has(const struct ptx_instr *instr, enum ptx_modifier mod);
/* The n-th type modifier of instr (cvt.f32.s32: 0 is .f32, 1 is .s32), or
 * PTX_MOD_COUNT. */
enum ptx_modifier ptx_instr_type(const struct ptx_instr *instr, unsigned n);
/* The first modifier of class cls, or PTX_MOD_COUNT. */
enum ptx_modifier ptx_instr_mod_of(const struct ptx_instr *instr, enum ptx_mod_class cls);
const char *ptx_space_name(enum ptx_space space);

#endif
