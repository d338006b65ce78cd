/*
 * Parsed PTX to IR: names resolved, blocks and edges made explicit,
 * variables laid out.
 *
 * Names live in one scoped table: module scope holds functions and
 * module variables; a function's scope its parameters and top-level
 * declarations; every { } inside a body opens one more (nvcc declares each
 * call's .param slots in one, reusing the names param0, param1, ...).
 * Entries are pushed onto their hash bucket's chain, so the innermost
 * declaration is found first, and a scope's entries are popped in reverse
 * order when it closes, which always finds them at the heads of their
 * chains.  Labels are function-wide and may be used before they appear,
 * so they live in a table of their own, filled before the body is walked.
 *
 * Blocks: a fresh entry block (so the entry never has predecessors, even
 * when the body starts with a label a loop branches back to), a block per
 * label, and a block after every branch.  A guarded branch becomes a
 * conditional branch to the target or the next instruction; a guarded
 * ret, exit or trap a conditional branch to a block that does only that.
 * A block that runs off its end branches to the next one; the body's end
 * returns.  Code after an unconditional branch with no label gets a block
 * no edge reaches; the analyses see that it is unreachable.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "compiler/ir.h"
#include "compiler/ir_builder.h"

/* The parser bounds nesting at 64; two more for the module and function. */
#define LOWER_MAX_SCOPES 68

enum sym_kind {
   SYM_REG,
   SYM_VAR,
   SYM_FUNC,
   SYM_BLOCK,
   SYM_TABLE,    /* .branchtargets */
};

struct sym {
   const char *name;
   uint32_t hash;
   enum sym_kind kind;
   struct sym *next;          /* in the bucket */
   union {
      uint32_t reg;
      struct cuvk_ir_var *var;
      struct cuvk_ir_function *func;
      struct cuvk_ir_block *block;
      struct {
         struct cuvk_ir_block **blocks;
         unsigned count;
      } table;
   };
};

struct symtab {
   struct sym **buckets;
   uint32_t mask;
   struct sym **stack;        /* in declaration order, for closing scopes */
   size_t depth, cap;
};

struct lower {
   const struct ptx_module *ptx;
   struct cuvk_ir_module *m;
   struct cuvk_arena *arena;
   struct cuvk_cc_error *err;
   struct symtab names;
   struct symtab labels;
   struct symtab seen;        /* every name the function declared, scopes ignored */
   /* The function being lowered. */
   struct cuvk_ir_function *f;
   struct cuvk_ir_block *cur;
   size_t scope_marks[LOWER_MAX_SCOPES];
   unsigned scope_depth;
};

static bool
no_memory(struct lower *l)
{
   return cuvk_cc_fail(l->err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory lowering PTX to IR");
}

static bool __attribute__((format(printf, 4, 5)))
fail(struct lower *l, enum cuvk_cc_status status, unsigned line, const char *fmt, ...)
{
   char msg[220];
   va_list ap;

   va_start(ap, fmt);
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);
   return cuvk_cc_fail(l->err, status, line, 0, "%s", msg);
}

/* ---- symbol tables ------------------------------------------------------ */

static uint32_t
hash_name(const char *s)
{
   uint32_t h = 2166136261u;   /* FNV-1a */

   for (; *s; s++)
      h = (h ^ (uint8_t)*s) * 16777619u;
   return h;
}

static bool
symtab_init(struct lower *l, struct symtab *t)
{
   t->mask = 1023;
   t->buckets = cuvk_arena_array(l->arena, t->mask + 1, sizeof(*t->buckets));
   t->stack = NULL;
   t->depth = t->cap = 0;
   return t->buckets != NULL || no_memory(l);
}

static struct sym *
symtab_find(const struct symtab *t, const char *name)
{
   uint32_t h = hash_name(name);

   for (struct sym *s = t->buckets[h & t->mask]; s; s = s->next)
      if (s->hash == h && strcmp(s->name, name) == 0)
         return s;
   return NULL;
}

/* Doubles the buckets when the table is as full as it is wide; the stack
 * keeps the order, so rehashing it in order keeps inner entries first. */
static bool
symtab_grow(struct lower *l, struct symtab *t)
{
   uint32_t mask = t->mask * 2 + 1;
   struct sym **b = cuvk_arena_array(l->arena, (size_t)mask + 1, sizeof(*b));

   if (!b)
      return no_memory(l);
   for (size_t i = 0; i < t->depth; i++) {
      struct sym *s = t->stack[i];
      s->next = b[s->hash & mask];
      b[s->hash & mask] = s;
   }
   t->buckets = b;
   t->mask = mask;
   return true;
}

/* Declares name in the innermost scope; NULL (error set) when it already
 * is declared there, or out of memory. */
static struct sym *
symtab_add(struct lower *l, struct symtab *t, const char *name, enum sym_kind kind,
           size_t scope_start, unsigned line)
{
   struct sym *old = symtab_find(t, name);

   if (old) {
      for (size_t i = scope_start; i < t->depth; i++) {
         if (t->stack[i] == old) {
            fail(l, CUVK_CC_INVALID, line, "%s is declared twice", name);
            return NULL;
         }
      }
   }
   if (t->depth > t->mask && !symtab_grow(l, t))
      return NULL;
   struct sym *s = cuvk_arena_alloc(l->arena, sizeof(*s));
   if (!s || !cuvk_arena_push(l->arena, t->stack, t->depth, t->cap)) {
      no_memory(l);
      return NULL;
   }
   s->name = name;
   s->hash = hash_name(name);
   s->kind = kind;
   s->next = t->buckets[s->hash & t->mask];
   t->buckets[s->hash & t->mask] = s;
   t->stack[t->depth++] = s;
   return s;
}

/* Forgets every entry declared since the stack was depth deep. */
static void
symtab_pop(struct symtab *t, size_t depth)
{
   while (t->depth > depth) {
      struct sym *s = t->stack[--t->depth];
      /* LIFO: s heads its chain. */
      t->buckets[s->hash & t->mask] = s->next;
   }
}

static size_t
scope_start(const struct lower *l)
{
   return l->scope_depth ? l->scope_marks[l->scope_depth - 1] : 0;
}

static bool
scope_open(struct lower *l, unsigned line)
{
   if (l->scope_depth == LOWER_MAX_SCOPES)
      return fail(l, CUVK_CC_INVALID, line, "scopes nested too deeply");
   l->scope_marks[l->scope_depth++] = l->names.depth;
   return true;
}

static void
scope_close(struct lower *l)
{
   symtab_pop(&l->names, l->scope_marks[--l->scope_depth]);
}

/* A copy of a name in the IR's arena: the IR outlives the parsed module. */
static const char *
ir_str(struct lower *l, const char *s)
{
   const char *d = cuvk_arena_strndup(l->arena, s, strlen(s));
   if (!d)
      no_memory(l);
   return d;
}

/* The name a function's register or variable gets in the IR: its PTX
 * name, suffixed with its index when the function declared that name
 * before in another scope (each call's param0 and temp_param_reg), so
 * that printed IR names everything once. */
static bool
ir_unique_name(struct lower *l, const char *name, uint32_t index, const char **out)
{
   if (!(*out = ir_str(l, name)))
      return false;
   if (symtab_find(&l->seen, name)) {
      size_t n = strlen(name) + 16;
      char *s = cuvk_arena_alloc(l->arena, n);
      if (!s)
         return no_memory(l);
      snprintf(s, n, "%s.%" PRIu32, name, index);
      *out = s;
      return true;
   }
   return symtab_add(l, &l->seen, name, SYM_REG, 0, 0) != NULL;
}

/* ---- variables ---------------------------------------------------------- */

static void
put_le(uint8_t *p, uint64_t v, unsigned bytes)
{
   for (unsigned i = 0; i < bytes; i++)
      p[i] = (uint8_t)(v >> (8 * i));
}

/* Writes one initialiser element of PTX type t (bytes wide) at p. */
static bool
init_element(struct lower *l, const struct ptx_decl *d, struct cuvk_ir_var *v, uint64_t offset,
             const struct ptx_init *it, unsigned bytes)
{
   enum ptx_type_kind tk = ptx_modifier_table[d->type].type_kind;
   uint8_t *p = v->init + offset;

   if (it->kind == PTX_INIT_SYMBOL) {
      struct sym *s = symtab_find(&l->names, it->symbol);
      if (bytes != 8 && bytes != 4)
         return fail(l, CUVK_CC_INVALID, d->line,
                     "%s: an address needs a 32- or 64-bit element", d->name);
      if (!s || (s->kind != SYM_VAR && s->kind != SYM_FUNC))
         return fail(l, CUVK_CC_INVALID, d->line, "%s: initialiser names unknown symbol %s",
                     d->name, it->symbol);
      size_t count = v->reloc_count;
      /* Relocations are few; grow one at a time through the arena. */
      struct cuvk_ir_reloc *r = cuvk_arena_array(l->arena, count + 1, sizeof(*r));
      if (!r)
         return no_memory(l);
      if (count)
         memcpy(r, v->relocs, count * sizeof(*r));
      r[count] = (struct cuvk_ir_reloc){
         .offset = offset, .addend = it->value, .size = bytes, .generic = it->generic,
         .var = s->kind == SYM_VAR ? s->var : NULL, .func = s->kind == SYM_FUNC ? s->func : NULL,
      };
      v->relocs = r;
      v->reloc_count = count + 1;
      return true;
   }

   if (tk == PTX_TK_F && (bytes == 4 || bytes == 8)) {
      double dv;
      if (it->kind == PTX_INIT_INT) {
         dv = (double)(int64_t)it->value;
      } else if (it->kind == PTX_INIT_F32) {
         float f;
         uint32_t b32 = (uint32_t)it->value;
         memcpy(&f, &b32, 4);
         dv = f;
      } else {
         memcpy(&dv, &it->value, 8);
      }
      if (bytes == 4) {
         /* An f32 image is copied as is (NaN payloads kept); others round. */
         uint32_t b32;
         if (it->kind == PTX_INIT_F32) {
            b32 = (uint32_t)it->value;
         } else {
            float f = (float)dv;
            memcpy(&b32, &f, 4);
         }
         put_le(p, b32, 4);
      } else {
         uint64_t b64;
         if (it->kind == PTX_INIT_F64)
            b64 = it->value;
         else
            memcpy(&b64, &dv, 8);
         put_le(p, b64, 8);
      }
      return true;
   }
   if (tk == PTX_TK_F || tk == PTX_TK_BF) {
      if (it->kind != PTX_INIT_INT)
         return fail(l, CUVK_CC_UNSUPPORTED, d->line,
                     "%s: initialisers of %s variables are not supported", d->name,
                     ptx_modifier_table[d->type].name);
      put_le(p, it->value, bytes);   /* the bits, as PTX writes half floats */
      return true;
   }
   if (tk == PTX_TK_PRED)
      return fail(l, CUVK_CC_INVALID, d->line, "%s: .pred variables take no initialiser",
                  d->name);
   if (it->kind != PTX_INIT_INT)
      return fail(l, CUVK_CC_INVALID, d->line, "%s: a float initialises an integer variable",
                  d->name);
   put_le(p, it->value, bytes);
   return true;
}

/* Size, alignment and initial bytes of a declared variable. */
static bool
layout_var(struct lower *l, const struct ptx_decl *d, struct cuvk_ir_var *v)
{
   unsigned tbytes = cuvk_ptx_type_bytes(d->type);
   uint64_t elem = (uint64_t)tbytes * d->vec;
   uint64_t count = 1;

   /* 1 TiB: far beyond any device, small enough that no product below
    * overflows. */
   const uint64_t limit = UINT64_C(1) << 40;
   for (unsigned i = d->unsized ? 1 : 0; i < d->dims; i++) {
      if (d->dim[i] == 0 || count > limit / d->dim[i])
         return fail(l, CUVK_CC_UNSUPPORTED, d->line, "%s: array size %s", d->name,
                     d->dim[i] ? "too large" : "zero");
      count *= d->dim[i];
   }
   v->line = d->line;
   v->linkage = d->linkage;
   v->managed = d->managed;
   v->elem_type = d->type;
   v->align = d->align ? d->align : (unsigned)elem;
   if (v->align < elem && d->vec > 1)
      v->align = (unsigned)elem;
   if (d->unsized) {
      if (!d->has_init) {
         v->unsized = true;
         v->size = 0;
         return true;
      }
      /* int x[] = {1, 2, 3}: the initialiser gives the first dimension. */
      uint64_t per_row = count * d->vec;
      uint64_t rows = (d->init_count + per_row - 1) / per_row;
      count *= rows ? rows : 1;
   }
   if (count > limit / elem)
      return fail(l, CUVK_CC_UNSUPPORTED, d->line, "%s: variable too large", d->name);
   v->size = count * elem;
   if (!d->has_init)
      return true;
   if ((uint64_t)d->init_count * tbytes > v->size)
      return fail(l, CUVK_CC_INVALID, d->line, "%s: %zu initialisers for %llu bytes",
                  d->name, d->init_count, (unsigned long long)v->size);
   v->init = cuvk_arena_alloc(l->arena, v->size);
   if (!v->init)
      return no_memory(l);
   for (size_t i = 0; i < d->init_count; i++)
      if (!init_element(l, d, v, i * tbytes, &d->init[i], tbytes))
         return false;
   return true;
}

/* ---- registers ---------------------------------------------------------- */

static bool
declare_reg(struct lower *l, const char *name, enum cuvk_ir_type type, unsigned line,
            uint32_t *out)
{
   const char *ir_name;
   if (!ir_unique_name(l, name, l->f->reg_count, &ir_name))
      return false;
   struct sym *s = symtab_add(l, &l->names, name, SYM_REG, scope_start(l), line);
   if (!s)
      return false;
   s->reg = cuvk_ir_reg_create(l->f, ir_name, type);
   if (s->reg == CUVK_IR_NO_REG)
      return no_memory(l);
   if (out)
      *out = s->reg;
   return true;
}

/* .reg declarations: %r<17> makes %r0 .. %r16. */
static bool
declare_regs(struct lower *l, const struct ptx_decl *d)
{
   enum cuvk_ir_type type = cuvk_ir_type_of_ptx(d->type);

   if (type == CUVK_IR_TYPE_COUNT)
      return fail(l, CUVK_CC_INVALID, d->line, "%s: no register type", d->name);
   if (d->vec > 1 || d->dims)
      return fail(l, CUVK_CC_UNSUPPORTED, d->line,
                  "%s: vector and array registers are not supported", d->name);
   if (d->reg_range == 0)
      return declare_reg(l, d->name, type, d->line, NULL);
   size_t n = strlen(d->name) + 12;
   for (unsigned i = 0; i < d->reg_range; i++) {
      char *name = cuvk_arena_alloc(l->arena, n);
      if (!name)
         return no_memory(l);
      snprintf(name, n, "%s%u", d->name, i);
      if (!declare_reg(l, name, type, d->line, NULL))
         return false;
   }
   return true;
}

static bool
declare_var(struct lower *l, struct cuvk_ir_function *f, const struct ptx_decl *d,
            struct cuvk_ir_var **out)
{
   const char *ir_name;
   if (f ? !ir_unique_name(l, d->name, (uint32_t)f->var_count, &ir_name)
         : !(ir_name = ir_str(l, d->name)))
      return false;
   struct cuvk_ir_var *v = cuvk_ir_var_create(l->m, f, ir_name, d->space);

   if (!v)
      return no_memory(l);
   struct sym *s = symtab_add(l, &l->names, d->name, SYM_VAR, scope_start(l), d->line);
   if (!s)
      return false;
   s->var = v;
   if (out)
      *out = v;
   return true;
}

/* ---- operands ----------------------------------------------------------- */

static bool
special_of(const char *name, enum cuvk_ir_special *out)
{
   for (unsigned i = 0; i < CUVK_IR_SPECIAL_COUNT; i++) {
      if (strcmp(cuvk_ir_special_name((enum cuvk_ir_special)i), name) == 0) {
         *out = (enum cuvk_ir_special)i;
         return true;
      }
   }
   return false;
}

static bool
lower_name(struct lower *l, const struct ptx_operand *o, struct cuvk_ir_value *v)
{
   if (strcmp(o->name, "_") == 0) {
      v->kind = CUVK_IR_VAL_NONE;
      return true;
   }
   struct sym *s = symtab_find(&l->names, o->name);
   enum cuvk_ir_special sp;
   if (!s && special_of(o->name, &sp)) {
      unsigned comps = cuvk_ir_special_components(sp);
      if (comps && !o->component)
         return fail(l, CUVK_CC_INVALID, o->line, "%s needs a component (.x, .y or .z)", o->name);
      if (!comps && o->component)
         return fail(l, CUVK_CC_INVALID, o->line, "%s takes no component", o->name);
      if (o->component == 'w')
         return fail(l, CUVK_CC_INVALID, o->line, "%s has no .w", o->name);
      v->kind = CUVK_IR_VAL_SPECIAL;
      v->special = sp;
      v->component = o->component ? (uint8_t)(o->component - 'x') : 0;
      return true;
   }
   if (!s)
      return fail(l, CUVK_CC_INVALID, o->line, "%s is not declared", o->name);
   if (o->component)
      return fail(l, CUVK_CC_UNSUPPORTED, o->line, "%s.%c: components of vector registers "
                  "are not supported", o->name, o->component);
   switch (s->kind) {
   case SYM_REG:
      if (o->value)
         return fail(l, CUVK_CC_INVALID, o->line, "%s: a register takes no offset", o->name);
      if (o->negated && l->f->regs[s->reg].type != CUVK_IR_PRED)
         return fail(l, CUVK_CC_INVALID, o->line, "!%s: '!' applies to predicates only",
                     o->name);
      v->kind = CUVK_IR_VAL_REG;
      v->reg = s->reg;
      v->negated = o->negated;
      return true;
   case SYM_VAR:
      v->kind = CUVK_IR_VAL_VAR;
      v->var = s->var;
      v->imm = o->value;
      break;
   case SYM_FUNC:
      v->kind = CUVK_IR_VAL_FUNC;
      v->func = s->func;
      break;
   default:
      return fail(l, CUVK_CC_INVALID, o->line, "%s is not a value", o->name);
   }
   if (o->negated)
      return fail(l, CUVK_CC_INVALID, o->line, "'!' applies to predicates only");
   return true;
}

/* The values an operand stands for: one, or a vector's, pair's or list's
 * elements, appended to vals. */
struct value_list {
   struct cuvk_ir_value *items;
   size_t count, cap;
};

static bool
lower_operand(struct lower *l, const struct ptx_operand *o, struct value_list *out)
{
   if (o->kind == PTX_OPND_VEC || o->kind == PTX_OPND_PAIR || o->kind == PTX_OPND_LIST) {
      for (unsigned i = 0; i < o->elem_count; i++) {
         if (o->elems[i].kind == PTX_OPND_VEC || o->elems[i].kind == PTX_OPND_LIST ||
             o->elems[i].kind == PTX_OPND_ADDR)
            return fail(l, CUVK_CC_INVALID, o->elems[i].line, "nested operand groups");
         if (!lower_operand(l, &o->elems[i], out))
            return false;
      }
      return true;
   }
   if (!cuvk_arena_push(l->arena, out->items, out->count, out->cap))
      return no_memory(l);
   struct cuvk_ir_value *v = &out->items[out->count++];
   memset(v, 0, sizeof(*v));
   switch (o->kind) {
   case PTX_OPND_NAME:
      return lower_name(l, o, v);
   case PTX_OPND_INT:
   case PTX_OPND_F32:
   case PTX_OPND_F64:
      v->kind = CUVK_IR_VAL_IMM;
      v->imm_kind = o->kind == PTX_OPND_INT ? CUVK_IR_IMM_INT :
                    o->kind == PTX_OPND_F32 ? CUVK_IR_IMM_F32 : CUVK_IR_IMM_F64;
      v->imm = o->value;
      return true;
   case PTX_OPND_ADDR:
      v->kind = CUVK_IR_VAL_ADDR;
      v->imm = o->value;
      if (o->name) {
         struct cuvk_ir_value base = { 0 };
         struct ptx_operand n = *o;
         n.kind = PTX_OPND_NAME;
         n.value = 0;
         if (!lower_name(l, &n, &base))
            return false;
         if (base.kind == CUVK_IR_VAL_REG) {
            v->has_reg = true;
            v->reg = base.reg;
         } else if (base.kind == CUVK_IR_VAL_VAR) {
            v->var = base.var;
         } else {
            return fail(l, CUVK_CC_INVALID, o->line, "[%s]: not an address", o->name);
         }
      }
      /* [handle, {coordinates}]: the handle register as the address, the
       * coordinates as the values after it. */
      if (o->elem_count) {
         if (!v->has_reg || v->imm)
            return fail(l, CUVK_CC_INVALID, o->line, "a texture or surface handle must be a register");
         struct ptx_operand coords = { .kind = PTX_OPND_VEC, .line = o->line,
                                       .elems = o->elems, .elem_count = o->elem_count };
         return lower_operand(l, &coords, out);
      }
      return true;
   default:
      return fail(l, CUVK_CC_INVALID, o->line, "unexpected operand");
   }
}

/* ---- instructions and blocks ------------------------------------------- */

static bool
guard_value(struct lower *l, const struct ptx_stmt *st, struct cuvk_ir_value *v)
{
   struct ptx_operand o = { .kind = PTX_OPND_NAME, .line = st->line, .name = st->instr.guard };

   memset(v, 0, sizeof(*v));
   if (!lower_name(l, &o, v))
      return false;
   if (v->kind != CUVK_IR_VAL_REG || l->f->regs[v->reg].type != CUVK_IR_PRED)
      return fail(l, CUVK_CC_INVALID, st->line, "guard %s is not a .pred register",
                  st->instr.guard);
   v->negated = st->instr.guard_negated;
   return true;
}

/* Starts a new block after the current one ended. */
static bool
open_block(struct lower *l, struct cuvk_ir_block *b, unsigned line)
{
   if (l->cur && l->cur->term == CUVK_IR_TERM_NONE && !cuvk_ir_set_br(l->m, l->cur, b))
      return no_memory(l);
   if (b->index == UINT32_MAX && !cuvk_ir_block_place(l->f, b))
      return no_memory(l);
   if (!b->line)
      b->line = line;
   l->cur = b;
   return true;
}

/* Where a guarded branch-like instruction falls through to. */
static struct cuvk_ir_block *
fallthrough_block(struct lower *l)
{
   struct cuvk_ir_block *b = cuvk_ir_block_new(l->f, NULL);
   if (!b)
      no_memory(l);
   return b;
}

static bool
lower_branch(struct lower *l, const struct ptx_stmt *st)
{
   const struct ptx_instr *in = &st->instr;
   struct cuvk_ir_block *b = l->cur, *target = NULL, *after = NULL;
   struct cuvk_ir_value cond;

   if (in->guard && !guard_value(l, st, &cond))
      return false;

   if (in->op == PTX_OP_BRA) {
      const struct ptx_operand *o = &in->ops[0];
      struct sym *s = o->kind == PTX_OPND_NAME ? symtab_find(&l->labels, o->name) : NULL;
      if (!s || s->kind != SYM_BLOCK)
         return fail(l, CUVK_CC_INVALID, st->line, "bra: %s is not a label of %s",
                     o->kind == PTX_OPND_NAME ? o->name : "operand", l->f->name);
      target = s->block;
   } else {
      /* ret, exit, trap and brx.idx end in a block of their own when
       * guarded, so that the guard is a plain two-way branch. */
      target = in->guard ? cuvk_ir_block_new(l->f, NULL) : b;
      if (!target)
         return no_memory(l);
      if (in->guard && !cuvk_ir_block_place(l->f, target))
         return no_memory(l);
      target->line = st->line;
      target->term_line = st->line;
      if (in->op == PTX_OP_BRX) {
         struct value_list idx = { 0 };
         const struct ptx_operand *t = &in->ops[1];
         struct sym *s = t->kind == PTX_OPND_NAME ? symtab_find(&l->labels, t->name) : NULL;
         if (!s || s->kind != SYM_TABLE)
            return fail(l, CUVK_CC_INVALID, st->line, "brx.idx: no .branchtargets table %s",
                        t->kind == PTX_OPND_NAME ? t->name : "");
         if (!lower_operand(l, &in->ops[0], &idx))
            return false;
         if (idx.count != 1 || (idx.items[0].kind != CUVK_IR_VAL_REG &&
                                idx.items[0].kind != CUVK_IR_VAL_IMM))
            return fail(l, CUVK_CC_INVALID, st->line, "brx.idx: the index must be a value");
         if (!cuvk_ir_set_switch(l->m, target, idx.items[0], s->table.blocks, s->table.count))
            return no_memory(l);
      } else {
         cuvk_ir_set_end(target, in->op == PTX_OP_RET ? CUVK_IR_TERM_RET :
                                 in->op == PTX_OP_EXIT ? CUVK_IR_TERM_EXIT : CUVK_IR_TERM_TRAP);
      }
      if (!in->guard) {
         l->cur = NULL;
         return true;
      }
   }

   b->term_line = st->line;
   b->uniform = ptx_instr_has(in, PTX_MOD_UNI);
   if (!in->guard) {
      if (!cuvk_ir_set_br(l->m, b, target))
         return no_memory(l);
      l->cur = NULL;
      return true;
   }
   if (!(after = fallthrough_block(l)))
      return false;
   if (!cuvk_ir_set_cbr(l->m, b, cond, target, after))
      return no_memory(l);
   l->cur = NULL;
   return open_block(l, after, st->line);
}

/* call (rets), func, (args); any of the lists may be absent. */
static bool
lower_call(struct lower *l, const struct ptx_stmt *st, struct cuvk_ir_instr **out)
{
   const struct ptx_instr *in = &st->instr;
   unsigned i = 0;
   const struct ptx_operand *rets = NULL, *args = NULL, *callee;

   if (in->ops[0].kind == PTX_OPND_LIST)
      rets = &in->ops[i++];
   if (i >= in->op_count || in->ops[i].kind != PTX_OPND_NAME)
      return fail(l, CUVK_CC_INVALID, st->line, "call: expected the function to call");
   callee = &in->ops[i++];
   if (i < in->op_count) {
      if (in->ops[i].kind != PTX_OPND_LIST)
         return fail(l, CUVK_CC_INVALID, st->line, "call: expected (arguments)");
      args = &in->ops[i++];
   }
   if (i < in->op_count)
      return fail(l, CUVK_CC_UNSUPPORTED, st->line, "indirect calls are not supported");

   struct sym *s = symtab_find(&l->names, callee->name);
   if (!s || s->kind != SYM_FUNC)
      return fail(l, CUVK_CC_UNSUPPORTED, st->line, "call: %s is not a function (indirect "
                  "calls are not supported)", callee->name);

   struct value_list d = { 0 }, a = { 0 };
   if (!cuvk_arena_push(l->arena, a.items, a.count, a.cap))
      return no_memory(l);
   a.items[a.count++] = (struct cuvk_ir_value){ .kind = CUVK_IR_VAL_FUNC, .func = s->func };
   if ((rets && !lower_operand(l, rets, &d)) || (args && !lower_operand(l, args, &a)))
      return false;
   if (d.count != s->func->ret_count || a.count - 1 != s->func->param_count)
      return fail(l, CUVK_CC_INVALID, st->line, "call: %s takes %zu arguments and %zu return "
                  "values, not %zu and %zu", s->func->name, s->func->param_count,
                  s->func->ret_count, a.count - 1, d.count);
   struct cuvk_ir_instr *ir = cuvk_ir_instr_create(l->m, PTX_OP_CALL, 0, 0);
   if (!ir)
      return no_memory(l);
   ir->dst = d.items;
   ir->dst_count = (unsigned)d.count;
   ir->src = a.items;
   ir->src_count = (unsigned)a.count;
   *out = ir;
   return true;
}

static bool
lower_instr(struct lower *l, const struct ptx_stmt *st)
{
   const struct ptx_instr *in = &st->instr;
   const struct ptx_opcode_info *info = &ptx_opcode_table[in->op];

   if (!l->cur) {
      /* Code after an unconditional branch, with no label: unreachable,
       * but it must still be valid, so it gets a block. */
      struct cuvk_ir_block *b = cuvk_ir_block_create(l->f, NULL);
      if (!b)
         return no_memory(l);
      b->line = st->line;
      l->cur = b;
   }
   if (in->op == PTX_OP_BRA || in->op == PTX_OP_RET || in->op == PTX_OP_EXIT ||
       in->op == PTX_OP_TRAP || in->op == PTX_OP_BRX)
      return lower_branch(l, st);

   struct cuvk_ir_instr *ir = NULL;
   if (in->op == PTX_OP_CALL) {
      if (!lower_call(l, st, &ir))
         return false;
   } else {
      struct value_list d = { 0 }, s = { 0 };
      unsigned first_src = 0;
      if (!(info->flags & PTX_OPF_NO_DEST) && in->op_count > 0) {
         if (!lower_operand(l, &in->ops[0], &d))
            return false;
         first_src = 1;
      }
      for (unsigned i = first_src; i < in->op_count; i++)
         if (!lower_operand(l, &in->ops[i], &s))
            return false;
      for (size_t i = 0; i < d.count; i++) {
         if (d.items[i].kind != CUVK_IR_VAL_REG && d.items[i].kind != CUVK_IR_VAL_NONE)
            return fail(l, CUVK_CC_INVALID, st->line, "%s: the destination must be a register",
                        info->name);
         /* The operand types of each opcode are the instruction lowering's
          * to check; setp's are checked here because the CFG's branch
          * conditions rely on predicates being predicates. */
         if (in->op == PTX_OP_SETP && d.items[i].kind == CUVK_IR_VAL_REG &&
             l->f->regs[d.items[i].reg].type != CUVK_IR_PRED)
            return fail(l, CUVK_CC_INVALID, st->line, "setp writes %s, which is no .pred register",
                        l->f->regs[d.items[i].reg].name);
      }
      if (!(ir = cuvk_ir_instr_create(l->m, in->op, 0, 0)))
         return no_memory(l);
      ir->dst = d.items;
      ir->dst_count = (unsigned)d.count;
      ir->src = s.items;
      ir->src_count = (unsigned)s.count;
   }
   ir->line = st->line;
   memcpy(ir->mods, in->mods, sizeof(ir->mods));
   ir->mod_count = in->mod_count;
   if (in->guard) {
      struct cuvk_ir_value g;
      if (!guard_value(l, st, &g))
         return false;
      ir->guarded = true;
      ir->guard = g.reg;
      ir->guard_negated = g.negated;
   }
   cuvk_ir_block_append(l->cur, ir);
   return true;
}

/* ---- functions ---------------------------------------------------------- */

static bool
declare_params(struct lower *l, struct cuvk_ir_function *f, const struct ptx_decl *decls,
               size_t count, struct cuvk_ir_var ***vars, uint32_t **regs)
{
   if (!count)
      return true;
   *vars = cuvk_arena_array(l->arena, count, sizeof(**vars));
   *regs = cuvk_arena_array(l->arena, count, sizeof(**regs));
   if (!*vars || !*regs)
      return no_memory(l);
   for (size_t i = 0; i < count; i++) {
      const struct ptx_decl *d = &decls[i];
      (*regs)[i] = CUVK_IR_NO_REG;
      if (d->space == PTX_SPACE_REG) {
         if (d->vec > 1 || d->dims || d->reg_range)
            return fail(l, CUVK_CC_UNSUPPORTED, d->line, "%s: vector .reg parameters are "
                        "not supported", d->name);
         if (!declare_reg(l, d->name, cuvk_ir_type_of_ptx(d->type), d->line, &(*regs)[i]))
            return false;
         continue;
      }
      struct cuvk_ir_var *v;
      if (!declare_var(l, f, d, &v) || !layout_var(l, d, v))
         return false;
      v->is_param = true;
      (*vars)[i] = v;
   }
   return true;
}

/* Labels and .branchtargets tables of a body, before it is walked. */
static bool
collect_labels(struct lower *l, const struct ptx_function *pf)
{
   symtab_pop(&l->labels, 0);
   for (size_t i = 0; i < pf->body_count; i++) {
      const struct ptx_stmt *st = &pf->body[i];
      if (st->kind != PTX_STMT_LABEL)
         continue;
      struct sym *s = symtab_add(l, &l->labels, st->label, SYM_BLOCK, 0, st->line);
      if (!s)
         return false;
      const char *label = ir_str(l, st->label);
      if (!label)
         return false;
      if (!(s->block = cuvk_ir_block_new(l->f, label)))
         return no_memory(l);
      s->block->line = st->line;
   }
   for (size_t i = 0; i < pf->body_count; i++) {
      const struct ptx_stmt *st = &pf->body[i];
      if (st->kind != PTX_STMT_BRANCHTARGETS)
         continue;
      struct sym *s = symtab_add(l, &l->labels, st->branchtargets.label, SYM_TABLE, 0,
                                 st->line);
      if (!s)
         return false;
      if (st->branchtargets.count > UINT32_MAX)
         return fail(l, CUVK_CC_INVALID, st->line, "branch table too long");
      s->table.count = (unsigned)st->branchtargets.count;
      s->table.blocks = cuvk_arena_array(l->arena, s->table.count, sizeof(*s->table.blocks));
      if (!s->table.blocks)
         return no_memory(l);
      for (size_t t = 0; t < st->branchtargets.count; t++) {
         struct sym *b = symtab_find(&l->labels, st->branchtargets.targets[t]);
         if (!b || b->kind != SYM_BLOCK)
            return fail(l, CUVK_CC_INVALID, st->line, ".branchtargets: %s is not a label",
                        st->branchtargets.targets[t]);
         s->table.blocks[t] = b->block;
      }
   }
   return true;
}

static bool
lower_body(struct lower *l, const struct ptx_function *pf)
{
   struct cuvk_ir_function *f = l->f;

   if (!collect_labels(l, pf))
      return false;
   struct cuvk_ir_block *entry = cuvk_ir_block_create(f, NULL);
   if (!entry)
      return no_memory(l);
   entry->line = pf->line;
   l->cur = entry;

   for (size_t i = 0; i < pf->body_count; i++) {
      const struct ptx_stmt *st = &pf->body[i];
      switch (st->kind) {
      case PTX_STMT_LABEL: {
         struct sym *s = symtab_find(&l->labels, st->label);
         if (!open_block(l, s->block, st->line))
            return false;
         break;
      }
      case PTX_STMT_DECL: {
         const struct ptx_decl *d = &st->decl;
         if (d->space == PTX_SPACE_REG) {
            if (!declare_regs(l, d))
               return false;
         } else {
            struct cuvk_ir_var *v;
            if (!declare_var(l, f, d, &v) || !layout_var(l, d, v))
               return false;
         }
         break;
      }
      case PTX_STMT_OPEN:
         if (!scope_open(l, st->line))
            return false;
         break;
      case PTX_STMT_CLOSE:
         if (l->scope_depth <= 2)
            return fail(l, CUVK_CC_INVALID, st->line, "unbalanced '}'");
         scope_close(l);
         break;
      case PTX_STMT_PRAGMA:
      case PTX_STMT_BRANCHTARGETS:
         break;
      case PTX_STMT_INSTR:
         if (!lower_instr(l, st))
            return false;
         break;
      }
   }
   if (l->cur && l->cur->term == CUVK_IR_TERM_NONE)
      cuvk_ir_set_end(l->cur, CUVK_IR_TERM_RET);
   /* A label that nothing follows still names a block. */
   for (size_t i = 0; i < l->labels.depth; i++) {
      struct sym *s = l->labels.stack[i];
      if (s->kind == SYM_BLOCK && s->block->index == UINT32_MAX) {
         if (!cuvk_ir_block_place(f, s->block))
            return no_memory(l);
         cuvk_ir_set_end(s->block, CUVK_IR_TERM_RET);
      }
   }
   if (!cuvk_ir_compute_preds(f))
      return no_memory(l);
   return true;
}

static bool
lower_function(struct lower *l, const struct ptx_function *pf, struct cuvk_ir_function *f)
{
   l->f = f;
   l->cur = NULL;
   symtab_pop(&l->seen, 0);
   if (!scope_open(l, pf->line))
      return false;
   if (!declare_params(l, f, pf->rets, pf->ret_count, &f->rets, &f->ret_regs) ||
       !declare_params(l, f, pf->params, pf->param_count, &f->params, &f->param_regs))
      return false;
   f->ret_count = pf->ret_count;
   f->param_count = pf->param_count;
   if (pf->has_body) {
      if (!scope_open(l, pf->line) || !lower_body(l, pf))
         return false;
      scope_close(l);
   }
   scope_close(l);
   return true;
}

/* A function's IR object, found by name when it was declared before (a
 * prototype, then the definition). */
static bool
declare_function(struct lower *l, const struct ptx_function *pf, struct cuvk_ir_function **out)
{
   struct sym *s = symtab_find(&l->names, pf->name);

   if (s) {
      if (s->kind != SYM_FUNC)
         return fail(l, CUVK_CC_INVALID, pf->line, "%s is declared twice", pf->name);
      if (s->func->has_body && pf->has_body)
         return fail(l, CUVK_CC_INVALID, pf->line, "%s is defined twice", pf->name);
      *out = s->func;
      return true;
   }
   const char *name = ir_str(l, pf->name);
   if (!name)
      return false;
   struct cuvk_ir_function *f = cuvk_ir_function_create(l->m, name);
   if (!f)
      return no_memory(l);
   if (!(s = symtab_add(l, &l->names, pf->name, SYM_FUNC, 0, pf->line)))
      return false;
   s->func = f;
   *out = f;
   return true;
}

struct cuvk_ir_module *
cuvk_ptx_to_ir(const struct ptx_module *ptx, struct cuvk_cc_error *err)
{
   struct lower l = { .ptx = ptx, .err = err };
   struct cuvk_ir_function **defs = NULL;

   memset(err, 0, sizeof(*err));
   l.m = cuvk_ir_module_create();
   if (!l.m) {
      cuvk_cc_fail(err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory lowering PTX to IR");
      return NULL;
   }
   l.arena = &l.m->arena;
   l.m->ptx_version_major = ptx->version_major;
   l.m->ptx_version_minor = ptx->version_minor;
   if (!(l.m->target = cuvk_arena_strndup(l.arena, ptx->target, strlen(ptx->target))))
      goto no_mem;
   if (!symtab_init(&l, &l.names) || !symtab_init(&l, &l.labels) ||
       !symtab_init(&l, &l.seen))
      goto fail;

   /* Module scope first: every function and variable, so that bodies and
    * initialisers may name them in any order. */
   defs = cuvk_arena_array(l.arena, ptx->func_count + 1, sizeof(*defs));
   if (!defs)
      goto no_mem;
   for (size_t i = 0; i < ptx->func_count; i++) {
      const struct ptx_function *pf = &ptx->funcs[i];
      struct cuvk_ir_function *f = NULL;
      if (!declare_function(&l, pf, &f))
         goto fail;
      defs[i] = f;
      if (pf->has_body || !f->has_body) {
         f->line = pf->line;
         f->is_entry = pf->is_entry;
         f->has_body = pf->has_body;
         f->noreturn = pf->noreturn;
         f->linkage = pf->linkage;
         memcpy(f->maxntid, pf->maxntid, sizeof(f->maxntid));
         memcpy(f->reqntid, pf->reqntid, sizeof(f->reqntid));
         f->minnctapersm = pf->minnctapersm;
      }
   }
   for (size_t i = 0; i < ptx->var_count; i++) {
      struct cuvk_ir_var *v;
      if (!declare_var(&l, NULL, &ptx->vars[i], &v))
         goto fail;
   }
   for (size_t i = 0; i < ptx->var_count; i++)
      if (!layout_var(&l, &ptx->vars[i], l.m->vars[i]))
         goto fail;

   /* Each function once: from its definition, or from its first
    * declaration when it has none (an .extern such as vprintf). */
   bool *done = cuvk_arena_array(l.arena, l.m->func_count + 1, sizeof(*done));
   if (!done)
      goto no_mem;
   for (size_t i = 0; i < ptx->func_count; i++) {
      const struct ptx_function *pf = &ptx->funcs[i];
      struct cuvk_ir_function *f = defs[i];
      if (done[f->index] || (!pf->has_body && f->has_body))
         continue;
      done[f->index] = true;
      if (!lower_function(&l, pf, f))
         goto fail;
   }
   return l.m;

no_mem:
   no_memory(&l);
fail:
   cuvk_ir_module_destroy(l.m);
   return NULL;
}
