/*
 * The PTX instruction table: one row per opcode, and one row per dotted
 * modifier an instruction may carry.  This is the only place that lists
 * them; the parser checks every instruction against it (operand counts,
 * known modifiers) and later stages switch on the enums.
 *
 * Operand counts are the range the PTX ISA allows for any form of the
 * opcode (bar.red d, a{, b}, {!}c has four, its first written even though
 * bar is NO_DEST: the emitter reads bar.red's d from the sources) (a guard predicate is not an operand; a vector {a, b} or a pair
 * p|q counts as one).  A -1 maximum means "any number" (call).
 *
 * Modifiers are spelled once even where opcodes give them different
 * meanings: .lo is "unsigned lower" on setp and "low half" on mul, .min an
 * atomic operation on atom and a reduction on redux.  Their meaning is the
 * opcode's business; the table only names them.
 */
#ifndef CUVK_COMPILER_PTX_OPCODES_H
#define CUVK_COMPILER_PTX_OPCODES_H

#include <stdbool.h>
#include <stddef.h>

/* Flags of an opcode. */
#define PTX_OPF_BRANCH     (1u << 0)   /* transfers control: bra, call, ret, exit */
#define PTX_OPF_ENDS_BLOCK (1u << 1)   /* nothing after it in the block runs: bra, ret, exit, trap */
#define PTX_OPF_MEMORY     (1u << 2)   /* reads or writes memory through an address operand */
#define PTX_OPF_SYNC       (1u << 3)   /* barrier, fence, warp-synchronous: never moved or duplicated */
#define PTX_OPF_NO_DEST    (1u << 4)   /* the first operand is not written */

/*       enum name   text         min max  flags */
#define PTX_OPCODES(X)                                                          \
   X(ABS,          "abs",          2, 2,  0)                                    \
   X(ACTIVEMASK,   "activemask",   1, 1,  PTX_OPF_SYNC)                         \
   X(ADD,          "add",          3, 3,  0)                                    \
   X(ADDC,         "addc",         3, 3,  0)                                    \
   X(ALLOCA,       "alloca",       2, 3,  0)                                    \
   X(AND,          "and",          3, 3,  0)                                    \
   X(ATOM,         "atom",         3, 5,  PTX_OPF_MEMORY)                       \
   X(BAR,          "bar",          0, 4,  PTX_OPF_SYNC | PTX_OPF_NO_DEST)       \
   X(BARRIER,      "barrier",      0, 4,  PTX_OPF_SYNC | PTX_OPF_NO_DEST)       \
   X(BFE,          "bfe",          4, 4,  0)                                    \
   X(BFI,          "bfi",          5, 5,  0)                                    \
   X(BFIND,        "bfind",        2, 2,  0)                                    \
   X(BMSK,         "bmsk",         3, 3,  0)                                    \
   X(BRA,          "bra",          1, 1,  PTX_OPF_BRANCH | PTX_OPF_ENDS_BLOCK | PTX_OPF_NO_DEST) \
   X(BREV,         "brev",         2, 2,  0)                                    \
   X(BRX,          "brx",          2, 2,  PTX_OPF_BRANCH | PTX_OPF_ENDS_BLOCK | PTX_OPF_NO_DEST) \
   X(BRKPT,        "brkpt",        0, 0,  PTX_OPF_NO_DEST)                      \
   X(CALL,         "call",         1, -1, PTX_OPF_BRANCH | PTX_OPF_NO_DEST)     \
   X(CLZ,          "clz",          2, 2,  0)                                    \
   X(CNOT,         "cnot",         2, 2,  0)                                    \
   X(COPYSIGN,     "copysign",     3, 3,  0)                                    \
   X(COS,          "cos",          2, 2,  0)                                    \
   X(CP,           "cp",           0, 5,  PTX_OPF_MEMORY | PTX_OPF_NO_DEST)     \
   X(CVT,          "cvt",          2, 4,  0)                                    \
   X(CVTA,         "cvta",         2, 2,  0)                                    \
   X(DIV,          "div",          3, 3,  0)                                    \
   X(DP2A,         "dp2a",         4, 4,  0)                                    \
   X(DP4A,         "dp4a",         4, 4,  0)                                    \
   X(ELECT,        "elect",        1, 2,  PTX_OPF_SYNC)                         \
   X(EX2,          "ex2",          2, 2,  0)                                    \
   X(EXIT,         "exit",         0, 0,  PTX_OPF_BRANCH | PTX_OPF_ENDS_BLOCK | PTX_OPF_NO_DEST) \
   X(FENCE,        "fence",        0, 0,  PTX_OPF_SYNC | PTX_OPF_NO_DEST)       \
   X(FMA,          "fma",          4, 4,  0)                                    \
   X(FNS,          "fns",          4, 4,  0)                                    \
   X(ISSPACEP,     "isspacep",     2, 2,  0)                                    \
   X(LD,           "ld",           2, 3,  PTX_OPF_MEMORY)                       \
   X(LDU,          "ldu",          2, 2,  PTX_OPF_MEMORY)                       \
   X(LG2,          "lg2",          2, 2,  0)                                    \
   X(LOP3,         "lop3",         5, 5,  0)                                    \
   X(MAD,          "mad",          4, 4,  0)                                    \
   X(MAD24,        "mad24",        4, 4,  0)                                    \
   X(MADC,         "madc",         4, 4,  0)                                    \
   X(MATCH,        "match",        3, 3,  PTX_OPF_SYNC)                         \
   X(MAX,          "max",          3, 4,  0)                                    \
   X(MEMBAR,       "membar",       0, 0,  PTX_OPF_SYNC | PTX_OPF_NO_DEST)       \
   X(MIN,          "min",          3, 4,  0)                                    \
   X(MOV,          "mov",          2, 2,  0)                                    \
   X(MUL,          "mul",          3, 3,  0)                                    \
   X(MUL24,        "mul24",        3, 3,  0)                                    \
   X(NANOSLEEP,    "nanosleep",    1, 1,  PTX_OPF_NO_DEST)                      \
   X(NEG,          "neg",          2, 2,  0)                                    \
   X(NOT,          "not",          2, 2,  0)                                    \
   X(OR,           "or",           3, 3,  0)                                    \
   X(POPC,         "popc",         2, 2,  0)                                    \
   X(PREFETCH,     "prefetch",     1, 1,  PTX_OPF_NO_DEST)                      \
   X(PREFETCHU,    "prefetchu",    1, 1,  PTX_OPF_NO_DEST)                      \
   X(PRMT,         "prmt",         4, 4,  0)                                    \
   X(RCP,          "rcp",          2, 2,  0)                                    \
   X(RED,          "red",          2, 3,  PTX_OPF_MEMORY | PTX_OPF_NO_DEST)     \
   X(REDUX,        "redux",        3, 3,  PTX_OPF_SYNC)                         \
   X(REM,          "rem",          3, 3,  0)                                    \
   X(RET,          "ret",          0, 0,  PTX_OPF_BRANCH | PTX_OPF_ENDS_BLOCK | PTX_OPF_NO_DEST) \
   X(RSQRT,        "rsqrt",        2, 2,  0)                                    \
   X(SAD,          "sad",          4, 4,  0)                                    \
   X(SELP,         "selp",         4, 4,  0)                                    \
   X(SET,          "set",          3, 4,  0)                                    \
   X(SETP,         "setp",         3, 4,  0)                                    \
   X(SHF,          "shf",          4, 4,  0)                                    \
   X(SHFL,         "shfl",         4, 5,  PTX_OPF_SYNC)                         \
   X(SHL,          "shl",          3, 3,  0)                                    \
   X(SHR,          "shr",          3, 3,  0)                                    \
   X(SIN,          "sin",          2, 2,  0)                                    \
   X(SLCT,         "slct",         4, 4,  0)                                    \
   X(SQRT,         "sqrt",         2, 2,  0)                                    \
   X(ST,           "st",           2, 3,  PTX_OPF_MEMORY | PTX_OPF_NO_DEST)     \
   X(STACKRESTORE, "stackrestore", 1, 1,  PTX_OPF_NO_DEST)                      \
   X(STACKSAVE,    "stacksave",    1, 1,  0)                                    \
   X(SUB,          "sub",          3, 3,  0)                                    \
   X(SUBC,         "subc",         3, 3,  0)                                    \
   X(SULD,         "suld",         2, 2,  PTX_OPF_MEMORY)                       \
   X(SUQ,          "suq",          2, 2,  0)                                    \
   X(SUST,         "sust",         2, 2,  PTX_OPF_MEMORY | PTX_OPF_NO_DEST)     \
   X(SZEXT,        "szext",        3, 3,  0)                                    \
   X(TANH,         "tanh",         2, 2,  0)                                    \
   X(TESTP,        "testp",        2, 2,  0)                                    \
   X(TEX,          "tex",          2, 4,  PTX_OPF_MEMORY)                       \
   X(TLD4,         "tld4",         2, 4,  PTX_OPF_MEMORY)                       \
   X(TRAP,         "trap",         0, 0,  PTX_OPF_ENDS_BLOCK | PTX_OPF_NO_DEST) \
   X(TXQ,          "txq",          2, 2,  0)                                    \
   X(VABSDIFF2,    "vabsdiff2",    4, 4,  0)                                    \
   X(VABSDIFF4,    "vabsdiff4",    4, 4,  0)                                    \
   X(VADD2,        "vadd2",        4, 4,  0)                                    \
   X(VADD4,        "vadd4",        4, 4,  0)                                    \
   X(VAVRG2,       "vavrg2",       4, 4,  0)                                    \
   X(VAVRG4,       "vavrg4",       4, 4,  0)                                    \
   X(VMAX2,        "vmax2",        4, 4,  0)                                    \
   X(VMAX4,        "vmax4",        4, 4,  0)                                    \
   X(VMIN2,        "vmin2",        4, 4,  0)                                    \
   X(VMIN4,        "vmin4",        4, 4,  0)                                    \
   X(VOTE,         "vote",         2, 3,  PTX_OPF_SYNC)                         \
   X(VSUB2,        "vsub2",        4, 4,  0)                                    \
   X(VSUB4,        "vsub4",        4, 4,  0)                                    \
   X(XOR,          "xor",          3, 3,  0)

enum ptx_opcode {
#define PTX_OP_ENUM(e, text, mn, mx, flags) PTX_OP_##e,
   PTX_OPCODES(PTX_OP_ENUM)
#undef PTX_OP_ENUM
   PTX_OP_COUNT,
};

struct ptx_opcode_info {
   const char *name;
   int min_operands, max_operands;
   unsigned flags;
};

extern const struct ptx_opcode_info ptx_opcode_table[PTX_OP_COUNT];

/* The opcode named by name (len bytes), or PTX_OP_COUNT. */
enum ptx_opcode ptx_opcode_lookup(const char *name, size_t len);

/*
 * Modifier classes, so that later stages can ask "which type", "which
 * state space", "which comparison" without listing modifiers again.
 */
enum ptx_mod_class {
   PTX_MODC_TYPE,
   PTX_MODC_SPACE,
   PTX_MODC_ROUND,
   PTX_MODC_CMP,       /* setp/set comparisons */
   PTX_MODC_BOOLOP,    /* .and .or .xor of setp/set/vote/atom: meaning by opcode */
   PTX_MODC_ATOMOP,    /* atom/red operations other than the boolean ones */
   PTX_MODC_SEM,       /* memory ordering */
   PTX_MODC_SCOPE,
   PTX_MODC_VEC,
   PTX_MODC_CACHE,     /* cache operators and eviction hints: performance only */
   PTX_MODC_MODE,      /* everything else: .ftz .sat .approx .wide .uni .sync ... */
   PTX_MODC_GEOM,      /* texture and surface geometry: .1d .2d .3d .a1d .a2d .cube ... */
   PTX_MODC_QUERY,     /* what txq and suq ask: .width .height .depth ... */
};

/* Type kinds of PTX_MODC_TYPE modifiers. */
enum ptx_type_kind {
   PTX_TK_NONE,
   PTX_TK_B,           /* untyped bits */
   PTX_TK_U,
   PTX_TK_S,
   PTX_TK_F,
   PTX_TK_BF,          /* bfloat16 */
   PTX_TK_PRED,
};

/*      enum name       text              class            type kind  bits */
#define PTX_MODIFIERS(X)                                                        \
   X(B8,              ".b8",            PTX_MODC_TYPE,   PTX_TK_B,    8)         \
   X(B16,             ".b16",           PTX_MODC_TYPE,   PTX_TK_B,    16)        \
   X(B32,             ".b32",           PTX_MODC_TYPE,   PTX_TK_B,    32)        \
   X(B64,             ".b64",           PTX_MODC_TYPE,   PTX_TK_B,    64)        \
   X(B128,            ".b128",          PTX_MODC_TYPE,   PTX_TK_B,    128)       \
   X(U8,              ".u8",            PTX_MODC_TYPE,   PTX_TK_U,    8)         \
   X(U16,             ".u16",           PTX_MODC_TYPE,   PTX_TK_U,    16)        \
   X(U32,             ".u32",           PTX_MODC_TYPE,   PTX_TK_U,    32)        \
   X(U64,             ".u64",           PTX_MODC_TYPE,   PTX_TK_U,    64)        \
   X(S8,              ".s8",            PTX_MODC_TYPE,   PTX_TK_S,    8)         \
   X(S16,             ".s16",           PTX_MODC_TYPE,   PTX_TK_S,    16)        \
   X(S32,             ".s32",           PTX_MODC_TYPE,   PTX_TK_S,    32)        \
   X(S64,             ".s64",           PTX_MODC_TYPE,   PTX_TK_S,    64)        \
   X(F16,             ".f16",           PTX_MODC_TYPE,   PTX_TK_F,    16)        \
   X(F16X2,           ".f16x2",         PTX_MODC_TYPE,   PTX_TK_F,    32)        \
   X(BF16,            ".bf16",          PTX_MODC_TYPE,   PTX_TK_BF,   16)        \
   X(BF16X2,          ".bf16x2",        PTX_MODC_TYPE,   PTX_TK_BF,   32)        \
   X(F32,             ".f32",           PTX_MODC_TYPE,   PTX_TK_F,    32)        \
   X(F64,             ".f64",           PTX_MODC_TYPE,   PTX_TK_F,    64)        \
   X(PRED,            ".pred",          PTX_MODC_TYPE,   PTX_TK_PRED, 1)         \
   X(GLOBAL,          ".global",        PTX_MODC_SPACE,  PTX_TK_NONE, 0)         \
   X(SHARED,          ".shared",        PTX_MODC_SPACE,  PTX_TK_NONE, 0)         \
   X(SHARED_CTA,      ".shared::cta",   PTX_MODC_SPACE,  PTX_TK_NONE, 0)         \
   X(SHARED_CLUSTER,  ".shared::cluster", PTX_MODC_SPACE, PTX_TK_NONE, 0)        \
   X(LOCAL,           ".local",         PTX_MODC_SPACE,  PTX_TK_NONE, 0)         \
   X(CONST,           ".const",         PTX_MODC_SPACE,  PTX_TK_NONE, 0)         \
   X(PARAM,           ".param",         PTX_MODC_SPACE,  PTX_TK_NONE, 0)         \
   X(PARAM_ENTRY,     ".param::entry",  PTX_MODC_SPACE,  PTX_TK_NONE, 0)         \
   X(PARAM_FUNC,      ".param::func",   PTX_MODC_SPACE,  PTX_TK_NONE, 0)         \
   X(RN,              ".rn",            PTX_MODC_ROUND,  PTX_TK_NONE, 0)         \
   X(RZ,              ".rz",            PTX_MODC_ROUND,  PTX_TK_NONE, 0)         \
   X(RM,              ".rm",            PTX_MODC_ROUND,  PTX_TK_NONE, 0)         \
   X(RP,              ".rp",            PTX_MODC_ROUND,  PTX_TK_NONE, 0)         \
   X(RNA,             ".rna",           PTX_MODC_ROUND,  PTX_TK_NONE, 0)         \
   X(RS,              ".rs",            PTX_MODC_ROUND,  PTX_TK_NONE, 0)         \
   X(RNI,             ".rni",           PTX_MODC_ROUND,  PTX_TK_NONE, 0)         \
   X(RZI,             ".rzi",           PTX_MODC_ROUND,  PTX_TK_NONE, 0)         \
   X(RMI,             ".rmi",           PTX_MODC_ROUND,  PTX_TK_NONE, 0)         \
   X(RPI,             ".rpi",           PTX_MODC_ROUND,  PTX_TK_NONE, 0)         \
   X(EQ,              ".eq",            PTX_MODC_CMP,    PTX_TK_NONE, 0)         \
   X(NE,              ".ne",            PTX_MODC_CMP,    PTX_TK_NONE, 0)         \
   X(LT,              ".lt",            PTX_MODC_CMP,    PTX_TK_NONE, 0)         \
   X(LE,              ".le",            PTX_MODC_CMP,    PTX_TK_NONE, 0)         \
   X(GT,              ".gt",            PTX_MODC_CMP,    PTX_TK_NONE, 0)         \
   X(GE,              ".ge",            PTX_MODC_CMP,    PTX_TK_NONE, 0)         \
   X(LO,              ".lo",            PTX_MODC_CMP,    PTX_TK_NONE, 0)         \
   X(LS,              ".ls",            PTX_MODC_CMP,    PTX_TK_NONE, 0)         \
   X(HI,              ".hi",            PTX_MODC_CMP,    PTX_TK_NONE, 0)         \
   X(HS,              ".hs",            PTX_MODC_CMP,    PTX_TK_NONE, 0)         \
   X(EQU,             ".equ",           PTX_MODC_CMP,    PTX_TK_NONE, 0)         \
   X(NEU,             ".neu",           PTX_MODC_CMP,    PTX_TK_NONE, 0)         \
   X(LTU,             ".ltu",           PTX_MODC_CMP,    PTX_TK_NONE, 0)         \
   X(LEU,             ".leu",           PTX_MODC_CMP,    PTX_TK_NONE, 0)         \
   X(GTU,             ".gtu",           PTX_MODC_CMP,    PTX_TK_NONE, 0)         \
   X(GEU,             ".geu",           PTX_MODC_CMP,    PTX_TK_NONE, 0)         \
   X(NUM,             ".num",           PTX_MODC_CMP,    PTX_TK_NONE, 0)         \
   X(NAN,             ".nan",           PTX_MODC_CMP,    PTX_TK_NONE, 0)         \
   X(AND,             ".and",           PTX_MODC_BOOLOP, PTX_TK_NONE, 0)         \
   X(OR,              ".or",            PTX_MODC_BOOLOP, PTX_TK_NONE, 0)         \
   X(XOR,             ".xor",           PTX_MODC_BOOLOP, PTX_TK_NONE, 0)         \
   X(ADD,             ".add",           PTX_MODC_ATOMOP, PTX_TK_NONE, 0)         \
   X(INC,             ".inc",           PTX_MODC_ATOMOP, PTX_TK_NONE, 0)         \
   X(DEC,             ".dec",           PTX_MODC_ATOMOP, PTX_TK_NONE, 0)         \
   X(EXCH,            ".exch",          PTX_MODC_ATOMOP, PTX_TK_NONE, 0)         \
   X(CAS,             ".cas",           PTX_MODC_ATOMOP, PTX_TK_NONE, 0)         \
   X(MIN,             ".min",           PTX_MODC_ATOMOP, PTX_TK_NONE, 0)         \
   X(MAX,             ".max",           PTX_MODC_ATOMOP, PTX_TK_NONE, 0)         \
   X(POPC,            ".popc",          PTX_MODC_ATOMOP, PTX_TK_NONE, 0)         \
   X(WEAK,            ".weak",          PTX_MODC_SEM,    PTX_TK_NONE, 0)         \
   X(VOLATILE,        ".volatile",      PTX_MODC_SEM,    PTX_TK_NONE, 0)         \
   X(RELAXED,         ".relaxed",       PTX_MODC_SEM,    PTX_TK_NONE, 0)         \
   X(ACQUIRE,         ".acquire",       PTX_MODC_SEM,    PTX_TK_NONE, 0)         \
   X(RELEASE,         ".release",       PTX_MODC_SEM,    PTX_TK_NONE, 0)         \
   X(ACQ_REL,         ".acq_rel",       PTX_MODC_SEM,    PTX_TK_NONE, 0)         \
   X(SC,              ".sc",            PTX_MODC_SEM,    PTX_TK_NONE, 0)         \
   X(MMIO,            ".mmio",          PTX_MODC_SEM,    PTX_TK_NONE, 0)         \
   X(CTA,             ".cta",           PTX_MODC_SCOPE,  PTX_TK_NONE, 0)         \
   X(CLUSTER,         ".cluster",       PTX_MODC_SCOPE,  PTX_TK_NONE, 0)         \
   X(GPU,             ".gpu",           PTX_MODC_SCOPE,  PTX_TK_NONE, 0)         \
   X(SYS,             ".sys",           PTX_MODC_SCOPE,  PTX_TK_NONE, 0)         \
   X(GL,              ".gl",            PTX_MODC_SCOPE,  PTX_TK_NONE, 0)         \
   X(V2,              ".v2",            PTX_MODC_VEC,    PTX_TK_NONE, 2)         \
   X(V4,              ".v4",            PTX_MODC_VEC,    PTX_TK_NONE, 4)         \
   X(V8,              ".v8",            PTX_MODC_VEC,    PTX_TK_NONE, 8)         \
   X(CA,              ".ca",            PTX_MODC_CACHE,  PTX_TK_NONE, 0)         \
   X(CG,              ".cg",            PTX_MODC_CACHE,  PTX_TK_NONE, 0)         \
   X(CS,              ".cs",            PTX_MODC_CACHE,  PTX_TK_NONE, 0)         \
   X(LU,              ".lu",            PTX_MODC_CACHE,  PTX_TK_NONE, 0)         \
   X(CV,              ".cv",            PTX_MODC_CACHE,  PTX_TK_NONE, 0)         \
   X(WB,              ".wb",            PTX_MODC_CACHE,  PTX_TK_NONE, 0)         \
   X(WT,              ".wt",            PTX_MODC_CACHE,  PTX_TK_NONE, 0)         \
   X(NC,              ".nc",            PTX_MODC_CACHE,  PTX_TK_NONE, 0)         \
   X(L1_EVICT_NORMAL, ".L1::evict_normal", PTX_MODC_CACHE, PTX_TK_NONE, 0)      \
   X(L1_EVICT_UNCHANGED, ".L1::evict_unchanged", PTX_MODC_CACHE, PTX_TK_NONE, 0) \
   X(L1_EVICT_FIRST,  ".L1::evict_first", PTX_MODC_CACHE, PTX_TK_NONE, 0)        \
   X(L1_EVICT_LAST,   ".L1::evict_last", PTX_MODC_CACHE, PTX_TK_NONE, 0)         \
   X(L1_NO_ALLOCATE,  ".L1::no_allocate", PTX_MODC_CACHE, PTX_TK_NONE, 0)        \
   X(L2_EVICT_FIRST,  ".L2::evict_first", PTX_MODC_CACHE, PTX_TK_NONE, 0)        \
   X(L2_EVICT_LAST,   ".L2::evict_last", PTX_MODC_CACHE, PTX_TK_NONE, 0)         \
   X(L2_EVICT_NORMAL, ".L2::evict_normal", PTX_MODC_CACHE, PTX_TK_NONE, 0)      \
   X(L2_CACHE_HINT,   ".L2::cache_hint", PTX_MODC_CACHE, PTX_TK_NONE, 0)         \
   X(L2_64B,          ".L2::64B",       PTX_MODC_CACHE,  PTX_TK_NONE, 0)         \
   X(L2_128B,         ".L2::128B",      PTX_MODC_CACHE,  PTX_TK_NONE, 0)         \
   X(L2_256B,         ".L2::256B",      PTX_MODC_CACHE,  PTX_TK_NONE, 0)         \
   X(L1,              ".L1",            PTX_MODC_CACHE,  PTX_TK_NONE, 0)         \
   X(L2,              ".L2",            PTX_MODC_CACHE,  PTX_TK_NONE, 0)         \
   X(FTZ,             ".ftz",           PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(SAT,             ".sat",           PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(SATFINITE,       ".satfinite",     PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(RELU,            ".relu",          PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(APPROX,          ".approx",        PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(FULL,            ".full",          PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(WIDE,            ".wide",          PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(CC,              ".cc",            PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(UNI,             ".uni",           PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(SYNC,            ".sync",          PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(ALIGNED,         ".aligned",       PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(ARRIVE,          ".arrive",        PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(RED,             ".red",           PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(WARP,            ".warp",          PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(TO,              ".to",            PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(UP,              ".up",            PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(DOWN,            ".down",          PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(BFLY,            ".bfly",          PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(IDX,             ".idx",           PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(ALL,             ".all",           PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(ANY,             ".any",           PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(BALLOT,          ".ballot",        PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(SHIFTAMT,        ".shiftamt",      PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(L,               ".l",             PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(R,               ".r",             PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(G,               ".g",             PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(A,               ".a",             PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(WRAP,            ".wrap",          PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(CLAMP,           ".clamp",         PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(F4E,             ".f4e",           PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(B4E,             ".b4e",           PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(RC8,             ".rc8",           PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(ECL,             ".ecl",           PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(ECR,             ".ecr",           PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(RC16,            ".rc16",          PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(NAN_MINMAX,      ".NaN",           PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(XORSIGN,         ".xorsign",       PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(ABS,             ".abs",           PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(NOFTZ,           ".noftz",         PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(INFINITE,        ".infinite",      PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(NORMAL,          ".normal",        PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(SUBNORMAL,       ".subnormal",     PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(NOTANUMBER,      ".notanumber",    PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(NUMBER,          ".number",        PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(FINITE,          ".finite",        PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(ASYNC,           ".async",         PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(COMMIT_GROUP,    ".commit_group",  PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(WAIT_GROUP,      ".wait_group",    PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(WAIT_ALL,        ".wait_all",      PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(PROXY,           ".proxy",         PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(ALIAS,           ".alias",         PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(PACK,            ".pack",          PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(NOINC,           ".noinc",         PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(GEOM_1D,         ".1d",            PTX_MODC_GEOM,   PTX_TK_NONE, 0)         \
   X(GEOM_2D,         ".2d",            PTX_MODC_GEOM,   PTX_TK_NONE, 0)         \
   X(GEOM_3D,         ".3d",            PTX_MODC_GEOM,   PTX_TK_NONE, 0)         \
   X(GEOM_A1D,        ".a1d",           PTX_MODC_GEOM,   PTX_TK_NONE, 0)         \
   X(GEOM_A2D,        ".a2d",           PTX_MODC_GEOM,   PTX_TK_NONE, 0)         \
   X(GEOM_CUBE,       ".cube",          PTX_MODC_GEOM,   PTX_TK_NONE, 0)         \
   X(GEOM_ACUBE,      ".acube",         PTX_MODC_GEOM,   PTX_TK_NONE, 0)         \
   X(GEOM_2DMS,       ".2dms",          PTX_MODC_GEOM,   PTX_TK_NONE, 0)         \
   X(GEOM_A2DMS,      ".a2dms",         PTX_MODC_GEOM,   PTX_TK_NONE, 0)         \
   X(LEVEL,           ".level",         PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(GRAD,            ".grad",          PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(BASE,            ".base",          PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(SU_B,            ".b",             PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(SU_P,            ".p",             PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(TRAP,            ".trap",          PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(ZERO,            ".zero",          PTX_MODC_MODE,   PTX_TK_NONE, 0)         \
   X(Q_WIDTH,         ".width",         PTX_MODC_QUERY,  PTX_TK_NONE, 0)         \
   X(Q_HEIGHT,        ".height",        PTX_MODC_QUERY,  PTX_TK_NONE, 0)         \
   X(Q_DEPTH,         ".depth",         PTX_MODC_QUERY,  PTX_TK_NONE, 0)         \
   X(Q_CHANNEL_DATA_TYPE, ".channel_data_type", PTX_MODC_QUERY, PTX_TK_NONE, 0)   \
   X(Q_CHANNEL_ORDER, ".channel_order", PTX_MODC_QUERY,  PTX_TK_NONE, 0)         \
   X(Q_NORMALIZED_COORDS, ".normalized_coords", PTX_MODC_QUERY, PTX_TK_NONE, 0)   \
   X(Q_FILTER_MODE,   ".filter_mode",   PTX_MODC_QUERY,  PTX_TK_NONE, 0)         \
   X(Q_ADDR_MODE_0,   ".addr_mode_0",   PTX_MODC_QUERY,  PTX_TK_NONE, 0)         \
   X(Q_ADDR_MODE_1,   ".addr_mode_1",   PTX_MODC_QUERY,  PTX_TK_NONE, 0)         \
   X(Q_ADDR_MODE_2,   ".addr_mode_2",   PTX_MODC_QUERY,  PTX_TK_NONE, 0)         \
   X(Q_ARRAY_SIZE,    ".array_size",    PTX_MODC_QUERY,  PTX_TK_NONE, 0)         \
   X(Q_NUM_MIPMAP_LEVELS, ".num_mipmap_levels", PTX_MODC_QUERY, PTX_TK_NONE, 0)   \
   X(Q_NUM_SAMPLES,   ".num_samples",   PTX_MODC_QUERY,  PTX_TK_NONE, 0)

enum ptx_modifier {
#define PTX_MOD_ENUM(e, text, cls, tk, bits) PTX_MOD_##e,
   PTX_MODIFIERS(PTX_MOD_ENUM)
#undef PTX_MOD_ENUM
   PTX_MOD_COUNT,
};

struct ptx_modifier_info {
   const char *name;            /* with the dot */
   enum ptx_mod_class cls;
   enum ptx_type_kind type_kind;
   unsigned bits;               /* types: width in bits; vectors: lanes */
};

extern const struct ptx_modifier_info ptx_modifier_table[PTX_MOD_COUNT];

/* The modifier spelled name (len bytes, with its dot), or PTX_MOD_COUNT. */
enum ptx_modifier ptx_modifier_lookup(const char *name, size_t len);

static inline bool
ptx_modifier_is_type(enum ptx_modifier m)
{
   return m < PTX_MOD_COUNT && ptx_modifier_table[m].cls == PTX_MODC_TYPE;
}

#endif
