/*
 * A recursive-descent parser over the token array of ptx_lex.c.
 *
 * Every read goes through peek/next, which stop at the EOF token, so no
 * input, however truncated, reads past the end; every failure records the
 * first error with the offending token's place and unwinds by returning
 * false.  Nesting (scopes, initialiser braces) is bounded so hostile input
 * cannot exhaust the stack.
 */
#include "compiler/ptx.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ptx_lex.h"

#define PTX_MAX_NESTING 64

struct parser {
   struct ptx_module *m;
   struct cuvk_arena *arena;
   const struct ptx_token *tok;
   size_t pos, count;
   struct cuvk_cc_error *err;
};

static const struct ptx_token *
peek(const struct parser *p)
{
   return &p->tok[p->pos];
}

static const struct ptx_token *
peek_at(const struct parser *p, size_t ahead)
{
   size_t i = p->pos + ahead;
   return &p->tok[i < p->count ? i : p->count];
}

static const struct ptx_token *
next(struct parser *p)
{
   const struct ptx_token *t = &p->tok[p->pos];
   if (p->pos < p->count)
      p->pos++;
   return t;
}

/* A short description of a token for messages: its text, or "end of input". */
static void
describe(const struct ptx_token *t, char *buf, size_t size)
{
   if (t->kind == PTX_TOK_EOF)
      snprintf(buf, size, "end of input");
   else if (t->kind == PTX_TOK_STRING)
      snprintf(buf, size, "a string");
   else
      snprintf(buf, size, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->text);
}

static bool __attribute__((format(printf, 3, 4)))
fail_at(struct parser *p, const struct ptx_token *t, const char *fmt, ...)
{
   char msg[200];
   va_list ap;

   va_start(ap, fmt);
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);
   return cuvk_cc_fail(p->err, CUVK_CC_INVALID, t->line, t->column, "%s", msg);
}

static bool
fail_expected(struct parser *p, const char *what)
{
   char found[64];

   describe(peek(p), found, sizeof(found));
   return fail_at(p, peek(p), "expected %s, found %s", what, found);
}

static bool
no_memory(struct parser *p)
{
   return cuvk_cc_fail(p->err, CUVK_CC_NO_MEMORY, peek(p)->line, peek(p)->column,
                       "out of memory parsing PTX");
}

static bool
accept_punct(struct parser *p, char c)
{
   if (ptx_tok_punct(peek(p), c)) {
      next(p);
      return true;
   }
   return false;
}

static bool
expect_punct(struct parser *p, char c)
{
   char what[8] = { '\'', c, '\'', 0 };

   if (accept_punct(p, c))
      return true;
   return fail_expected(p, what);
}

static bool
accept_dot(struct parser *p, const char *name)
{
   if (ptx_tok_is(peek(p), PTX_TOK_DOTNAME, name)) {
      next(p);
      return true;
   }
   return false;
}

static const char *
dup_token(struct parser *p, const struct ptx_token *t)
{
   const char *s = cuvk_arena_strndup(p->arena, t->text, t->len);
   if (!s)
      no_memory(p);
   return s;
}

static bool
expect_ident(struct parser *p, const char *what, const char **out)
{
   if (peek(p)->kind != PTX_TOK_IDENT)
      return fail_expected(p, what);
   *out = dup_token(p, next(p));
   return *out != NULL;
}

/* An unsigned integer that must fit limit. */
static bool
expect_uint(struct parser *p, const char *what, uint64_t limit, uint64_t *out)
{
   const struct ptx_token *t = peek(p);

   if (t->kind != PTX_TOK_INT)
      return fail_expected(p, what);
   if (t->u > limit)
      return fail_at(p, t, "%s %llu is too large", what, (unsigned long long)t->u);
   *out = next(p)->u;
   return true;
}

static bool
expect_u32(struct parser *p, const char *what, unsigned *out)
{
   uint64_t v = 0;

   if (!expect_uint(p, what, UINT32_MAX, &v))
      return false;
   *out = (unsigned)v;
   return true;
}

/* Skips the rest of a debug directive: .loc and .file end at the end of
 * their line and take no semicolon. */
static void
skip_line(struct parser *p, unsigned line)
{
   while (peek(p)->kind != PTX_TOK_EOF && peek(p)->line == line)
      next(p);
}

/* .section name { ... }: DWARF that nvcc writes with -G; balanced braces. */
static bool
skip_section(struct parser *p)
{
   unsigned depth = 0;

   while (peek(p)->kind != PTX_TOK_EOF && !ptx_tok_punct(peek(p), '{'))
      next(p);
   do {
      const struct ptx_token *t = next(p);
      if (t->kind == PTX_TOK_EOF)
         return fail_at(p, t, "unterminated .section");
      if (ptx_tok_punct(t, '{'))
         depth++;
      else if (ptx_tok_punct(t, '}'))
         depth--;
   } while (depth > 0);
   return true;
}

/* Skips a directive the parser reads over wherever it appears; true when
 * the current token was one. */
static bool
skip_debug(struct parser *p, bool *ok)
{
   const struct ptx_token *t = peek(p);

   *ok = true;
   if (ptx_tok_is(t, PTX_TOK_DOTNAME, ".loc") || ptx_tok_is(t, PTX_TOK_DOTNAME, ".file")) {
      next(p);
      skip_line(p, t->line);
      return true;
   }
   if (ptx_tok_is(t, PTX_TOK_DOTNAME, ".section")) {
      *ok = skip_section(p);
      return true;
   }
   return false;
}

/* ---- declarations ---------------------------------------------------- */

static enum ptx_space
space_of(const struct ptx_token *t)
{
   static const struct { const char *name; enum ptx_space space; } spaces[] = {
      { ".reg", PTX_SPACE_REG }, { ".global", PTX_SPACE_GLOBAL },
      { ".const", PTX_SPACE_CONST }, { ".shared", PTX_SPACE_SHARED },
      { ".local", PTX_SPACE_LOCAL }, { ".param", PTX_SPACE_PARAM },
   };
   for (unsigned i = 0; i < sizeof(spaces) / sizeof(spaces[0]); i++)
      if (ptx_tok_is(t, PTX_TOK_DOTNAME, spaces[i].name))
         return spaces[i].space;
   return PTX_SPACE_NONE;
}

static enum ptx_linkage
linkage_of(const struct ptx_token *t)
{
   if (ptx_tok_is(t, PTX_TOK_DOTNAME, ".visible"))
      return PTX_LINK_VISIBLE;
   if (ptx_tok_is(t, PTX_TOK_DOTNAME, ".extern"))
      return PTX_LINK_EXTERN;
   if (ptx_tok_is(t, PTX_TOK_DOTNAME, ".weak"))
      return PTX_LINK_WEAK;
   if (ptx_tok_is(t, PTX_TOK_DOTNAME, ".common"))
      return PTX_LINK_COMMON;
   return PTX_LINK_NONE;
}

static bool
parse_align(struct parser *p, unsigned *align)
{
   const struct ptx_token *t = peek(p);

   if (!expect_u32(p, "an alignment", align))
      return false;
   if (!*align || (*align & (*align - 1)))
      return fail_at(p, t, "alignment %u is not a power of two", *align);
   return true;
}

struct init_list {
   struct ptx_init *items;
   size_t count, cap;
};

static bool
push_init(struct parser *p, struct init_list *l, struct ptx_init item)
{
   if (!cuvk_arena_push(p->arena, l->items, l->count, l->cap))
      return no_memory(p);
   l->items[l->count++] = item;
   return true;
}

/* One initialiser element or a braced list of them. */
static bool
parse_init(struct parser *p, struct init_list *l, unsigned depth)
{
   const struct ptx_token *t = peek(p);

   if (depth > PTX_MAX_NESTING)
      return fail_at(p, t, "initialiser nested too deeply");
   if (accept_punct(p, '{')) {
      if (accept_punct(p, '}'))
         return true;
      do {
         if (!parse_init(p, l, depth + 1))
            return false;
      } while (accept_punct(p, ','));
      return expect_punct(p, '}');
   }

   struct ptx_init item = { 0 };
   bool negative = accept_punct(p, '-');
   t = peek(p);
   switch (t->kind) {
   case PTX_TOK_INT:
      item.kind = PTX_INIT_INT;
      item.value = negative ? (uint64_t)0 - t->u : t->u;
      next(p);
      return push_init(p, l, item);
   case PTX_TOK_F32:
   case PTX_TOK_F64:
      item.kind = t->kind == PTX_TOK_F32 ? PTX_INIT_F32 : PTX_INIT_F64;
      item.value = t->u;
      if (negative)
         item.value ^= t->kind == PTX_TOK_F32 ? UINT64_C(1) << 31 : UINT64_C(1) << 63;
      next(p);
      return push_init(p, l, item);
   case PTX_TOK_IDENT:
      if (negative)
         return fail_at(p, t, "a symbol's address cannot be negated");
      item.kind = PTX_INIT_SYMBOL;
      if (ptx_tok_is(t, PTX_TOK_IDENT, "generic") && ptx_tok_punct(peek_at(p, 1), '(')) {
         next(p);
         next(p);
         item.generic = true;
         if (!expect_ident(p, "a symbol", &item.symbol) || !expect_punct(p, ')'))
            return false;
      } else if (!(item.symbol = dup_token(p, next(p)))) {
         return false;
      }
      if (accept_punct(p, '+')) {
         uint64_t off;
         if (!expect_uint(p, "an offset", INT64_MAX, &off))
            return false;
         item.value = off;
      }
      return push_init(p, l, item);
   default:
      return fail_expected(p, "an initialiser value");
   }
}

/*
 * After the space: [.align N] [.ptr .space .align N] [.vN] .type name
 * [<N>] [dims] [= init], with the modifiers in any order, as nvcc writes
 * `.shared .align 4 .b8` and others write `.align 4 .shared`.
 */
static bool
parse_decl_rest(struct parser *p, struct ptx_decl *d, bool allow_init)
{
   d->vec = 1;
   d->type = PTX_MOD_COUNT;
   for (;;) {
      const struct ptx_token *t = peek(p);
      if (t->kind != PTX_TOK_DOTNAME)
         break;
      if (accept_dot(p, ".align")) {
         if (!parse_align(p, d->is_ptr ? &d->ptr_align : &d->align))
            return false;
         continue;
      }
      if (accept_dot(p, ".ptr")) {
         d->is_ptr = true;
         continue;
      }
      if (accept_dot(p, ".attribute")) {
         /* .attribute(.managed) marks a __managed__ variable, which the
          * loader places in managed memory; .unified(...) names a
          * variable shared with other devices' modules, which cuvk has
          * no use for and refuses by name. */
         const struct ptx_token *a;
         if (d->space != PTX_SPACE_GLOBAL)
            return fail_at(p, t, ".attribute applies to .global variables only");
         if (!expect_punct(p, '('))
            return false;
         a = peek(p);
         if (!accept_dot(p, ".managed")) {
            if (a->kind == PTX_TOK_DOTNAME)
               return cuvk_cc_fail(p->err, CUVK_CC_UNSUPPORTED, a->line, a->column,
                                   "variable attribute %.*s is not supported", (int)a->len, a->text);
            return fail_expected(p, "a variable attribute (.managed)");
         }
         d->managed = true;
         if (!expect_punct(p, ')'))
            return false;
         continue;
      }
      if (d->is_ptr && space_of(t) != PTX_SPACE_NONE) {
         d->ptr_space = space_of(t);
         next(p);
         continue;
      }
      enum ptx_modifier m = ptx_modifier_lookup(t->text, t->len);
      if (m != PTX_MOD_COUNT && ptx_modifier_table[m].cls == PTX_MODC_VEC) {
         d->vec = ptx_modifier_table[m].bits;
         next(p);
         continue;
      }
      if (ptx_modifier_is_type(m)) {
         if (d->type != PTX_MOD_COUNT)
            return fail_at(p, t, "a declaration takes one type");
         d->type = m;
         next(p);
         continue;
      }
      if (ptx_tok_is(t, PTX_TOK_DOTNAME, ".texref") ||
          ptx_tok_is(t, PTX_TOK_DOTNAME, ".samplerref") ||
          ptx_tok_is(t, PTX_TOK_DOTNAME, ".surfref"))
         return cuvk_cc_fail(p->err, CUVK_CC_UNSUPPORTED, t->line, t->column,
                             "%.*s variables are not supported", (int)t->len, t->text);
      char found[64];
      describe(t, found, sizeof(found));
      return fail_at(p, t, "unexpected %s in a declaration", found);
   }
   if (d->type == PTX_MOD_COUNT)
      return fail_expected(p, "a type (.b32, .f32, ...)");

   const struct ptx_token *name = peek(p);
   if (name->kind != PTX_TOK_IDENT)
      return fail_expected(p, "a name");
   d->line = name->line;
   d->column = name->column;
   if (!(d->name = dup_token(p, next(p))))
      return false;

   if (ptx_tok_punct(peek(p), '<')) {
      if (d->space != PTX_SPACE_REG)
         return fail_at(p, peek(p), "only .reg declarations take a <N> range");
      next(p);
      if (!expect_u32(p, "a register count", &d->reg_range) || !expect_punct(p, '>'))
         return false;
   }
   while (ptx_tok_punct(peek(p), '[')) {
      const struct ptx_token *open = next(p);
      if (d->dims == sizeof(d->dim) / sizeof(d->dim[0]))
         return fail_at(p, open, "too many array dimensions");
      if (accept_punct(p, ']')) {
         if (d->dims != 0)
            return fail_at(p, open, "only the first array dimension may be unsized");
         d->unsized = true;
         d->dim[d->dims++] = 0;
         continue;
      }
      if (!expect_uint(p, "an array size", UINT32_MAX, &d->dim[d->dims]) ||
          !expect_punct(p, ']'))
         return false;
      d->dims++;
   }

   if (ptx_tok_punct(peek(p), '=')) {
      const struct ptx_token *eq = next(p);
      if (!allow_init)
         return fail_at(p, eq, "this declaration cannot have an initialiser");
      struct init_list l = { 0 };
      if (!parse_init(p, &l, 0))
         return false;
      d->init = l.items;
      d->init_count = l.count;
      d->has_init = true;
   }
   return true;
}

/* A declaration statement: [linkage] .space rest { , name... } ; — the
 * comma form (.reg .b32 %a, %b;) gives one decl per name. */
typedef bool (*decl_sink)(struct parser *p, void *ctx, const struct ptx_decl *d);

static bool
parse_var_decl(struct parser *p, enum ptx_linkage linkage, decl_sink sink, void *ctx,
               bool in_function)
{
   const struct ptx_token *t = peek(p);
   struct ptx_decl d = { .linkage = linkage };

   d.space = space_of(t);
   if (d.space == PTX_SPACE_NONE)
      return fail_expected(p, "a state space");
   if (d.space == PTX_SPACE_REG && !in_function)
      return fail_at(p, t, ".reg declarations belong in a function");
   next(p);
   bool allow_init = d.space == PTX_SPACE_GLOBAL || d.space == PTX_SPACE_CONST;
   if (!parse_decl_rest(p, &d, allow_init))
      return false;
   if (!sink(p, ctx, &d))
      return false;
   while (accept_punct(p, ',')) {
      const struct ptx_token *name = peek(p);
      struct ptx_decl more = d;
      more.reg_range = 0;
      more.dims = 0;
      more.unsized = false;
      more.init = NULL;
      more.init_count = 0;
      more.has_init = false;
      if (name->kind != PTX_TOK_IDENT)
         return fail_expected(p, "a name");
      more.line = name->line;
      more.column = name->column;
      if (!(more.name = dup_token(p, next(p))))
         return false;
      if (ptx_tok_punct(peek(p), '<')) {
         if (more.space != PTX_SPACE_REG)
            return fail_at(p, peek(p), "only .reg declarations take a <N> range");
         next(p);
         if (!expect_u32(p, "a register count", &more.reg_range) || !expect_punct(p, '>'))
            return false;
      }
      if (!sink(p, ctx, &more))
         return false;
   }
   return expect_punct(p, ';');
}

/* ---- functions --------------------------------------------------------- */

struct decl_list {
   struct ptx_decl *items;
   size_t count, cap;
};

static bool
push_decl(struct parser *p, struct decl_list *l, const struct ptx_decl *d)
{
   if (!cuvk_arena_push(p->arena, l->items, l->count, l->cap))
      return no_memory(p);
   l->items[l->count++] = *d;
   return true;
}

/* ( .param .u64 a, .reg .b32 b, ... ) */
static bool
parse_param_list(struct parser *p, struct decl_list *l)
{
   if (!expect_punct(p, '('))
      return false;
   if (accept_punct(p, ')'))
      return true;
   do {
      const struct ptx_token *t = peek(p);
      struct ptx_decl d = { 0 };
      d.space = space_of(t);
      if (d.space != PTX_SPACE_PARAM && d.space != PTX_SPACE_REG)
         return fail_expected(p, "a .param or .reg parameter");
      next(p);
      if (!parse_decl_rest(p, &d, false) || !push_decl(p, l, &d))
         return false;
   } while (accept_punct(p, ','));
   return expect_punct(p, ')');
}

/* .maxntid 128, 1, 1 and its like; up to three numbers. */
static bool
parse_dims3(struct parser *p, unsigned out[3])
{
   unsigned n = 0;

   do {
      if (n == 3)
         return fail_at(p, peek(p), "at most three dimensions");
      if (!expect_u32(p, "a thread count", &out[n++]))
         return false;
   } while (accept_punct(p, ','));
   while (n < 3)
      out[n++] = 1;
   return true;
}

struct stmt_list {
   struct ptx_stmt *items;
   size_t count, cap;
};

static struct ptx_stmt *
new_stmt(struct parser *p, struct stmt_list *l, enum ptx_stmt_kind kind,
         const struct ptx_token *at)
{
   if (!cuvk_arena_push(p->arena, l->items, l->count, l->cap)) {
      no_memory(p);
      return NULL;
   }
   struct ptx_stmt *s = &l->items[l->count++];
   memset(s, 0, sizeof(*s));
   s->kind = kind;
   s->line = at->line;
   s->column = at->column;
   return s;
}

static bool
sink_stmt_decl(struct parser *p, void *ctx, const struct ptx_decl *d)
{
   struct stmt_list *l = ctx;
   struct ptx_token at = { .line = d->line, .column = d->column };
   struct ptx_stmt *s = new_stmt(p, l, PTX_STMT_DECL, &at);

   if (!s)
      return false;
   s->decl = *d;
   return true;
}

/* ---- operands ---------------------------------------------------------- */

static bool parse_operand(struct parser *p, struct ptx_operand *o, unsigned depth);

struct opnd_list {
   struct ptx_operand *items;
   size_t count, cap;
};

static struct ptx_operand *
push_operand(struct parser *p, struct opnd_list *l)
{
   if (!cuvk_arena_push(p->arena, l->items, l->count, l->cap)) {
      no_memory(p);
      return NULL;
   }
   struct ptx_operand *o = &l->items[l->count++];
   memset(o, 0, sizeof(*o));
   return o;
}

/* {a, b} or (a, b): a list of operands up to close. */
static bool
parse_operand_group(struct parser *p, struct ptx_operand *o, char close, unsigned depth)
{
   struct opnd_list l = { 0 };

   if (!accept_punct(p, close)) {
      do {
         struct ptx_operand *e = push_operand(p, &l);
         if (!e || !parse_operand(p, e, depth + 1))
            return false;
      } while (accept_punct(p, ','));
      char what[8] = { '\'', close, '\'', 0 };
      if (!accept_punct(p, close))
         return fail_expected(p, what);
   }
   if (l.count > UINT32_MAX)
      return fail_at(p, peek(p), "too many operands");
   o->elems = l.items;
   o->elem_count = (unsigned)l.count;
   return true;
}

/* +N, -N or +-N after a name; returns the signed offset. */
static bool
parse_offset(struct parser *p, uint64_t *offset)
{
   *offset = 0;
   if (!ptx_tok_punct(peek(p), '+') && !ptx_tok_punct(peek(p), '-'))
      return true;
   bool negative = next(p)->text[0] == '-';
   if (!negative && accept_punct(p, '-'))
      negative = true;
   uint64_t v;
   if (!expect_uint(p, "an offset", (uint64_t)INT64_MAX + (negative ? 1 : 0), &v))
      return false;
   *offset = negative ? (uint64_t)0 - v : v;
   return true;
}

/* A name with its optional .x component. */
static bool
parse_name(struct parser *p, struct ptx_operand *o)
{
   const struct ptx_token *t = next(p);

   o->kind = PTX_OPND_NAME;
   if (!(o->name = dup_token(p, t)))
      return false;
   const struct ptx_token *c = peek(p);
   if (c->kind == PTX_TOK_DOTNAME && !c->space_before) {
      if (c->len == 2 && strchr("xyzw", c->text[1])) {
         o->component = c->text[1];
         next(p);
      } else {
         char found[64];
         describe(c, found, sizeof(found));
         return fail_at(p, c, "unexpected %s after an operand", found);
      }
   }
   return true;
}

static bool
parse_operand(struct parser *p, struct ptx_operand *o, unsigned depth)
{
   const struct ptx_token *t = peek(p);

   o->line = t->line;
   o->column = t->column;
   if (depth > 4)
      return fail_at(p, t, "operand nested too deeply");

   if (accept_punct(p, '[')) {
      o->kind = PTX_OPND_ADDR;
      if (peek(p)->kind == PTX_TOK_IDENT) {
         if (!(o->name = dup_token(p, next(p))) || !parse_offset(p, &o->value))
            return false;
         /* Texture and surface instructions: [handle, {coordinates}].
          * The coordinates become the operand's elements.  The
          * independent form [texture, sampler, {...}] is refused. */
         if (accept_punct(p, ',')) {
            const struct ptx_token *c = peek(p);
            if (!accept_punct(p, '{'))
               return cuvk_cc_fail(p->err, CUVK_CC_UNSUPPORTED, c->line, c->column,
                                   "a separate sampler operand (texmode_independent) is not supported");
            if (!parse_operand_group(p, o, '}', depth))
               return false;
            if (o->elem_count == 0 || o->elem_count > 4)
               return fail_at(p, c, "a coordinate vector has 1 to 4 elements");
         }
      } else {
         const struct ptx_token *n = peek(p);
         if (n->kind != PTX_TOK_INT)
            return fail_expected(p, "a register, a variable or an address");
         o->value = next(p)->u;
      }
      return expect_punct(p, ']');
   }
   if (accept_punct(p, '{')) {
      o->kind = PTX_OPND_VEC;
      if (!parse_operand_group(p, o, '}', depth))
         return false;
      if (o->elem_count == 0)
         return fail_at(p, t, "empty vector operand");
      return true;
   }
   if (accept_punct(p, '(')) {
      o->kind = PTX_OPND_LIST;
      return parse_operand_group(p, o, ')', depth);
   }
   if (accept_punct(p, '!')) {
      if (peek(p)->kind != PTX_TOK_IDENT)
         return fail_expected(p, "a predicate after '!'");
      if (!parse_name(p, o))
         return false;
      o->negated = true;
      return true;
   }

   bool negative = accept_punct(p, '-');
   t = peek(p);
   switch (t->kind) {
   case PTX_TOK_INT:
      o->kind = PTX_OPND_INT;
      o->value = negative ? (uint64_t)0 - t->u : t->u;
      next(p);
      return true;
   case PTX_TOK_F32:
   case PTX_TOK_F64:
      o->kind = t->kind == PTX_TOK_F32 ? PTX_OPND_F32 : PTX_OPND_F64;
      o->value = t->u;
      if (negative)
         o->value ^= t->kind == PTX_TOK_F32 ? UINT64_C(1) << 31 : UINT64_C(1) << 63;
      next(p);
      return true;
   case PTX_TOK_IDENT:
      if (negative)
         return fail_at(p, t, "'-' applies to immediates only; use neg");
      if (!parse_name(p, o))
         return false;
      if (ptx_tok_punct(peek(p), '|')) {
         /* setp's and shfl's two destinations, p|q. */
         next(p);
         struct ptx_operand *pair = cuvk_arena_array(p->arena, 2, sizeof(*pair));
         if (!pair)
            return no_memory(p);
         pair[0] = *o;
         pair[1].line = peek(p)->line;
         pair[1].column = peek(p)->column;
         if (peek(p)->kind != PTX_TOK_IDENT)
            return fail_expected(p, "a predicate after '|'");
         if (!parse_name(p, &pair[1]))
            return false;
         o->kind = PTX_OPND_PAIR;
         o->name = NULL;
         o->component = 0;
         o->elems = pair;
         o->elem_count = 2;
         return true;
      }
      /* sym+4 as a value (mov.u64 %rd, sym+4). */
      return parse_offset(p, &o->value);
   default:
      return fail_expected(p, "an operand");
   }
}

/* ---- instructions ------------------------------------------------------ */

static bool
parse_instr(struct parser *p, struct stmt_list *l)
{
   const struct ptx_token *start = peek(p);
   const char *guard = NULL;
   bool guard_negated = false;

   if (accept_punct(p, '@')) {
      guard_negated = accept_punct(p, '!');
      if (peek(p)->kind != PTX_TOK_IDENT)
         return fail_expected(p, "a predicate after '@'");
      if (!(guard = dup_token(p, next(p))))
         return false;
   }

   const struct ptx_token *opt = peek(p);
   if (opt->kind != PTX_TOK_IDENT)
      return fail_expected(p, "an instruction");
   enum ptx_opcode op = ptx_opcode_lookup(opt->text, opt->len);
   if (op == PTX_OP_COUNT)
      return cuvk_cc_fail(p->err, CUVK_CC_UNSUPPORTED, opt->line, opt->column,
                          "unknown or unsupported instruction '%.*s'",
                          (int)(opt->len > 40 ? 40 : opt->len), opt->text);
   next(p);

   struct ptx_stmt *s = new_stmt(p, l, PTX_STMT_INSTR, start);
   if (!s)
      return false;
   struct ptx_instr *in = &s->instr;
   in->op = op;
   in->guard = guard;
   in->guard_negated = guard_negated;

   /* Modifiers are the dotted words glued to the opcode. */
   while (peek(p)->kind == PTX_TOK_DOTNAME && !peek(p)->space_before) {
      const struct ptx_token *m = next(p);
      enum ptx_modifier mod = ptx_modifier_lookup(m->text, m->len);
      if (mod == PTX_MOD_COUNT)
         return cuvk_cc_fail(p->err, CUVK_CC_UNSUPPORTED, m->line, m->column,
                             "unknown or unsupported modifier '%.*s' on %s",
                             (int)(m->len > 40 ? 40 : m->len), m->text,
                             ptx_opcode_table[op].name);
      if (in->mod_count == PTX_MAX_MODIFIERS)
         return fail_at(p, m, "too many modifiers on %s", ptx_opcode_table[op].name);
      in->mods[in->mod_count++] = mod;
   }

   struct opnd_list ops = { 0 };
   if (!ptx_tok_punct(peek(p), ';')) {
      do {
         struct ptx_operand *o = push_operand(p, &ops);
         if (!o || !parse_operand(p, o, 0))
            return false;
      } while (accept_punct(p, ','));
   }
   if (!expect_punct(p, ';'))
      return false;

   const struct ptx_opcode_info *info = &ptx_opcode_table[op];
   if ((int)ops.count < info->min_operands ||
       (info->max_operands >= 0 && (int)ops.count > info->max_operands))
      return fail_at(p, opt, "%s takes %d to %d operands, not %zu", info->name,
                     info->min_operands, info->max_operands, ops.count);
   in->ops = ops.items;
   in->op_count = (unsigned)ops.count;
   return true;
}

/* label: .branchtargets a, b, c; */
static bool
parse_branchtargets(struct parser *p, struct stmt_list *l, const struct ptx_token *at,
                    const char *label)
{
   struct ptx_stmt *s = new_stmt(p, l, PTX_STMT_BRANCHTARGETS, at);
   const char **targets = NULL;
   size_t count = 0, cap = 0;

   if (!s)
      return false;
   do {
      if (!cuvk_arena_push(p->arena, targets, count, cap))
         return no_memory(p);
      if (!expect_ident(p, "a label", &targets[count]))
         return false;
      count++;
   } while (accept_punct(p, ','));
   s->branchtargets.label = label;
   s->branchtargets.targets = targets;
   s->branchtargets.count = count;
   return expect_punct(p, ';');
}

static bool
parse_pragma(struct parser *p, const char **out)
{
   const struct ptx_token *t = peek(p);

   if (t->kind != PTX_TOK_STRING)
      return fail_expected(p, "a string after .pragma");
   if (!(*out = dup_token(p, next(p))))
      return false;
   /* .pragma "a", "b"; is allowed; nvcc writes one string. */
   while (accept_punct(p, ',')) {
      if (peek(p)->kind != PTX_TOK_STRING)
         return fail_expected(p, "a string");
      next(p);
   }
   return expect_punct(p, ';');
}

/* The statements between a function's braces; the opening one is read. */
static bool
parse_body(struct parser *p, struct ptx_function *f)
{
   struct stmt_list l = { 0 };
   unsigned depth = 0;

   for (;;) {
      const struct ptx_token *t = peek(p);
      bool ok;

      if (t->kind == PTX_TOK_EOF)
         return fail_at(p, t, "end of input inside the body of %s", f->name);
      if (skip_debug(p, &ok)) {
         if (!ok)
            return false;
         continue;
      }
      if (ptx_tok_punct(t, '}')) {
         next(p);
         if (depth == 0)
            break;
         depth--;
         if (!new_stmt(p, &l, PTX_STMT_CLOSE, t))
            return false;
         continue;
      }
      if (ptx_tok_punct(t, '{')) {
         if (++depth > PTX_MAX_NESTING)
            return fail_at(p, t, "scopes nested too deeply");
         next(p);
         if (!new_stmt(p, &l, PTX_STMT_OPEN, t))
            return false;
         continue;
      }
      if (t->kind == PTX_TOK_IDENT && ptx_tok_punct(peek_at(p, 1), ':')) {
         const char *label = dup_token(p, next(p));
         next(p);
         if (!label)
            return false;
         if (accept_dot(p, ".branchtargets")) {
            if (!parse_branchtargets(p, &l, t, label))
               return false;
            continue;
         }
         if (ptx_tok_is(peek(p), PTX_TOK_DOTNAME, ".callprototype") ||
             ptx_tok_is(peek(p), PTX_TOK_DOTNAME, ".calltargets"))
            return cuvk_cc_fail(p->err, CUVK_CC_UNSUPPORTED, peek(p)->line,
                                peek(p)->column, "indirect calls (%.*s) are not supported",
                                (int)peek(p)->len, peek(p)->text);
         struct ptx_stmt *s = new_stmt(p, &l, PTX_STMT_LABEL, t);
         if (!s)
            return false;
         s->label = label;
         continue;
      }
      if (t->kind == PTX_TOK_DOTNAME) {
         if (accept_dot(p, ".pragma")) {
            struct ptx_stmt *s = new_stmt(p, &l, PTX_STMT_PRAGMA, t);
            if (!s || !parse_pragma(p, &s->pragma))
               return false;
            continue;
         }
         if (space_of(t) != PTX_SPACE_NONE) {
            if (!parse_var_decl(p, PTX_LINK_NONE, sink_stmt_decl, &l, true))
               return false;
            continue;
         }
         if (linkage_of(t) != PTX_LINK_NONE) {
            /* .extern .shared inside a function is legal PTX too. */
            enum ptx_linkage link = linkage_of(next(p));
            if (!parse_var_decl(p, link, sink_stmt_decl, &l, true))
               return false;
            continue;
         }
         char found[64];
         describe(t, found, sizeof(found));
         return fail_at(p, t, "unexpected directive %s in a function body", found);
      }
      if (!parse_instr(p, &l))
         return false;
   }
   f->body = l.items;
   f->body_count = l.count;
   return true;
}

struct module_lists {
   struct decl_list vars;
   struct ptx_function *funcs;
   size_t func_count, func_cap;
};

/* [linkage] .entry|.func ... after the linkage has been read. */
static bool
parse_function(struct parser *p, struct module_lists *ml, enum ptx_linkage linkage)
{
   const struct ptx_token *kw = next(p);
   bool is_entry = ptx_tok_is(kw, PTX_TOK_DOTNAME, ".entry");

   if (!cuvk_arena_push(p->arena, ml->funcs, ml->func_count, ml->func_cap))
      return no_memory(p);
   struct ptx_function *f = &ml->funcs[ml->func_count];
   memset(f, 0, sizeof(*f));
   f->is_entry = is_entry;
   f->linkage = linkage;

   struct decl_list rets = { 0 }, params = { 0 };
   if (!is_entry && ptx_tok_punct(peek(p), '(')) {
      if (!parse_param_list(p, &rets))
         return false;
   }
   const struct ptx_token *name = peek(p);
   if (!expect_ident(p, "a function name", &f->name))
      return false;
   f->line = name->line;
   f->column = name->column;
   if (ptx_tok_punct(peek(p), '(') && !parse_param_list(p, &params))
      return false;
   f->params = params.items;
   f->param_count = params.count;
   f->rets = rets.items;
   f->ret_count = rets.count;

   const char **pragmas = NULL;
   size_t pragma_cap = 0;
   for (;;) {
      const struct ptx_token *t = peek(p);
      bool ok;
      if (skip_debug(p, &ok)) {
         if (!ok)
            return false;
         continue;
      }
      if (t->kind != PTX_TOK_DOTNAME)
         break;
      next(p);
      if (ptx_tok_is(t, PTX_TOK_DOTNAME, ".maxntid")) {
         if (!parse_dims3(p, f->maxntid))
            return false;
      } else if (ptx_tok_is(t, PTX_TOK_DOTNAME, ".reqntid")) {
         if (!parse_dims3(p, f->reqntid))
            return false;
      } else if (ptx_tok_is(t, PTX_TOK_DOTNAME, ".minnctapersm") ||
                 ptx_tok_is(t, PTX_TOK_DOTNAME, ".maxnctapersm")) {
         unsigned v = 0;
         if (!expect_u32(p, "a block count", &v))
            return false;
         /* .maxnctapersm is a deprecated hint with no use here. */
         if (ptx_tok_is(t, PTX_TOK_DOTNAME, ".minnctapersm"))
            f->minnctapersm = v;
      } else if (ptx_tok_is(t, PTX_TOK_DOTNAME, ".maxnreg")) {
         if (!expect_u32(p, "a register count", &f->maxnreg))
            return false;
      } else if (ptx_tok_is(t, PTX_TOK_DOTNAME, ".noreturn")) {
         f->noreturn = true;
      } else if (ptx_tok_is(t, PTX_TOK_DOTNAME, ".pragma")) {
         if (!cuvk_arena_push(p->arena, pragmas, f->pragma_count, pragma_cap))
            return no_memory(p);
         if (!parse_pragma(p, &pragmas[f->pragma_count]))
            return false;
         f->pragma_count++;
      } else if (ptx_tok_is(t, PTX_TOK_DOTNAME, ".explicitcluster") ||
                 ptx_tok_is(t, PTX_TOK_DOTNAME, ".reqnctapercluster") ||
                 ptx_tok_is(t, PTX_TOK_DOTNAME, ".maxclusterrank")) {
         return cuvk_cc_fail(p->err, CUVK_CC_UNSUPPORTED, t->line, t->column,
                             "thread block clusters (%.*s) are not supported",
                             (int)t->len, t->text);
      } else {
         char found[64];
         describe(t, found, sizeof(found));
         return fail_at(p, t, "unexpected %s after the parameters of %s", found, f->name);
      }
   }
   f->pragmas = pragmas;

   if (accept_punct(p, ';')) {
      f->has_body = false;
   } else if (accept_punct(p, '{')) {
      f->has_body = true;
      if (linkage == PTX_LINK_EXTERN)
         return fail_at(p, name, ".extern function %s cannot have a body", f->name);
      if (!parse_body(p, f))
         return false;
   } else {
      return fail_expected(p, "'{' or ';'");
   }
   ml->func_count++;
   return true;
}

static bool
sink_module_var(struct parser *p, void *ctx, const struct ptx_decl *d)
{
   struct module_lists *ml = ctx;

   if (d->space == PTX_SPACE_LOCAL || d->space == PTX_SPACE_PARAM) {
      /* Both are legal at module scope in old PTX; nvcc 12+ never writes
       * them, and they would have no storage class in the IR. */
      return cuvk_cc_fail(p->err, CUVK_CC_UNSUPPORTED, d->line, d->column,
                          "module-scope %s variable %s is not supported",
                          ptx_space_name(d->space), d->name);
   }
   return push_decl(p, &ml->vars, d);
}

/* .version, .target and .address_size open every module, in this order. */
static bool
parse_header(struct parser *p)
{
   struct ptx_module *m = p->m;
   bool ok;

   while (skip_debug(p, &ok))
      if (!ok)
         return false;
   if (!accept_dot(p, ".version"))
      return fail_expected(p, ".version");
   const struct ptx_token *v = peek(p);
   /* "9.0" lexes as a float; its text has the two numbers. */
   if (v->kind != PTX_TOK_F64 || v->len > 8)
      return fail_expected(p, "a version such as 9.0");
   char buf[16];
   memcpy(buf, v->text, v->len);
   buf[v->len] = '\0';
   if (sscanf(buf, "%u.%u", &m->version_major, &m->version_minor) != 2)
      return fail_expected(p, "a version such as 9.0");
   next(p);
   if (m->version_major < 1 || m->version_major > 9)
      return cuvk_cc_fail(p->err, CUVK_CC_UNSUPPORTED, v->line, v->column,
                          "PTX ISA version %u.%u is not supported (1.0 to 9.x are)",
                          m->version_major, m->version_minor);

   while (skip_debug(p, &ok))
      if (!ok)
         return false;
   if (!accept_dot(p, ".target"))
      return fail_expected(p, ".target");
   do {
      const struct ptx_token *t = peek(p);
      if (t->kind != PTX_TOK_IDENT)
         return fail_expected(p, "a target such as sm_75");
      next(p);
      if (ptx_tok_is(t, PTX_TOK_IDENT, "debug"))
         m->target_debug = true;
      else if (ptx_tok_is(t, PTX_TOK_IDENT, "map_f64_to_f32"))
         m->target_map_f64_to_f32 = true;
      else if (ptx_tok_is(t, PTX_TOK_IDENT, "texmode_independent"))
         m->target_texmode_independent = true;
      else if (ptx_tok_is(t, PTX_TOK_IDENT, "texmode_unified"))
         m->target_texmode_independent = false;
      else if (t->len > 3 && (strncmp(t->text, "sm_", 3) == 0 ||
                              strncmp(t->text, "compute_", 8) == 0)) {
         if (!m->target && !(m->target = dup_token(p, t)))
            return false;
      } else
         return fail_at(p, t, "unknown target '%.*s'", (int)(t->len > 40 ? 40 : t->len),
                        t->text);
   } while (accept_punct(p, ','));
   if (!m->target)
      return fail_at(p, peek(p), ".target names no sm_ architecture");

   m->address_size = 32;
   while (skip_debug(p, &ok))
      if (!ok)
         return false;
   if (accept_dot(p, ".address_size")) {
      const struct ptx_token *t = peek(p);
      if (!expect_u32(p, "an address size", &m->address_size))
         return false;
      if (m->address_size != 32 && m->address_size != 64)
         return fail_at(p, t, "address size must be 32 or 64");
   }
   if (m->address_size != 64)
      return cuvk_cc_fail(p->err, CUVK_CC_UNSUPPORTED, peek(p)->line, peek(p)->column,
                          "32-bit PTX (.address_size 32) is not supported");
   return true;
}

static bool
parse_module(struct parser *p)
{
   struct module_lists ml = { 0 };

   if (!parse_header(p))
      return false;
   for (;;) {
      const struct ptx_token *t = peek(p);
      bool ok;
      if (t->kind == PTX_TOK_EOF)
         break;
      if (skip_debug(p, &ok)) {
         if (!ok)
            return false;
         continue;
      }
      if (t->kind != PTX_TOK_DOTNAME)
         return fail_expected(p, "a directive");
      if (accept_dot(p, ".pragma")) {
         const char *ignored;
         if (!parse_pragma(p, &ignored))
            return false;
         continue;
      }
      if (ptx_tok_is(t, PTX_TOK_DOTNAME, ".alias"))
         return cuvk_cc_fail(p->err, CUVK_CC_UNSUPPORTED, t->line, t->column,
                             ".alias is not supported");
      enum ptx_linkage link = linkage_of(t);
      if (link != PTX_LINK_NONE)
         next(p);
      t = peek(p);
      if (ptx_tok_is(t, PTX_TOK_DOTNAME, ".entry") || ptx_tok_is(t, PTX_TOK_DOTNAME, ".func")) {
         if (!parse_function(p, &ml, link))
            return false;
      } else if (space_of(t) != PTX_SPACE_NONE) {
         if (!parse_var_decl(p, link, sink_module_var, &ml, false))
            return false;
      } else {
         char found[64];
         describe(t, found, sizeof(found));
         return fail_at(p, t, "unexpected %s at module scope", found);
      }
   }
   p->m->vars = ml.vars.items;
   p->m->var_count = ml.vars.count;
   p->m->funcs = ml.funcs;
   p->m->func_count = ml.func_count;
   return true;
}

struct ptx_module *
ptx_parse(const char *text, size_t len, struct cuvk_cc_error *err)
{
   struct ptx_module *m = calloc(1, sizeof(*m));
   struct ptx_tokens toks;

   memset(err, 0, sizeof(*err));
   if (!m) {
      cuvk_cc_fail(err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory parsing PTX");
      return NULL;
   }
   cuvk_arena_init(&m->arena);
   if (!ptx_lex(text, len, &m->arena, &toks, err))
      goto fail;

   struct parser p = {
      .m = m, .arena = &m->arena, .tok = toks.tok, .count = toks.count, .err = err,
   };
   if (!parse_module(&p))
      goto fail;

   /* Names must outlive the text: the lexer's tokens point into it, and
    * every name kept was copied by dup_token.  The tokens go with the
    * arena. */
   return m;

fail:
   ptx_module_destroy(m);
   return NULL;
}

void
ptx_module_destroy(struct ptx_module *module)
{
   if (!module)
      return;
   cuvk_arena_finish(&module->arena);
   free(module);
}

bool
ptx_instr_has(const struct ptx_instr *instr, enum ptx_modifier mod)
{
   for (unsigned i = 0; i < instr->mod_count; i++)
      if (instr->mods[i] == mod)
         return true;
   return false;
}

enum ptx_modifier
ptx_instr_type(const struct ptx_instr *instr, unsigned n)
{
   for (unsigned i = 0; i < instr->mod_count; i++)
      if (ptx_modifier_is_type(instr->mods[i]) && n-- == 0)
         return instr->mods[i];
   return PTX_MOD_COUNT;
}

enum ptx_modifier
ptx_instr_mod_of(const struct ptx_instr *instr, enum ptx_mod_class cls)
{
   for (unsigned i = 0; i < instr->mod_count; i++)
      if (ptx_modifier_table[instr->mods[i]].cls == cls)
         return instr->mods[i];
   return PTX_MOD_COUNT;
}

const char *
ptx_space_name(enum ptx_space space)
{
   switch (space) {
   case PTX_SPACE_NONE: return "generic";
   case PTX_SPACE_REG: return ".reg";
   case PTX_SPACE_GLOBAL: return ".global";
   case PTX_SPACE_CONST: return ".const";
   case PTX_SPACE_SHARED: return ".shared";
   case PTX_SPACE_LOCAL: return ".local";
   case PTX_SPACE_PARAM: return ".param";
   }
   return "?";
}
