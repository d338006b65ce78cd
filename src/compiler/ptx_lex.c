/*
 * PTX tokens follow the PTX ISA's "Syntax" chapter: identifiers start with
 * a letter or one of _ $ % and go on with letters, digits, _ and $;
 * directives and modifiers are a dot and such a word (nvcc 12+ also writes
 * scoped modifiers such as .shared::cta and .L2::cache_hint, and .L2::128B,
 * whose word starts with a digit); integers are decimal, hex, octal or
 * binary with an optional U; floats are either hex images of their bits,
 * 0f (8 digits, f32) and 0d (16 digits, f64), or decimal literals, which
 * PTX reads as f64.
 */
#include "compiler/ptx_lex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lexer {
   const char *src, *end, *p;
   unsigned line;
   const char *line_start;
   struct cuvk_arena *arena;
   struct cuvk_cc_error *err;
   struct ptx_token *tok;
   size_t count, cap;
};

static bool
is_ident_start(char c)
{
   return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}

static bool
is_ident_char(char c)
{
   return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
          c == '_' || c == '$';
}

static bool
is_digit(char c)
{
   return c >= '0' && c <= '9';
}

static int
hex_value(char c)
{
   if (c >= '0' && c <= '9')
      return c - '0';
   if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
   if (c >= 'A' && c <= 'F')
      return c - 'A' + 10;
   return -1;
}

static unsigned
column_of(const struct lexer *lx, const char *at)
{
   return (unsigned)(at - lx->line_start) + 1;
}

static bool
lex_fail(struct lexer *lx, const char *at, const char *what)
{
   return cuvk_cc_fail(lx->err, CUVK_CC_INVALID, lx->line, column_of(lx, at), "%s", what);
}

/* Skips blanks, new lines and comments; false on an unterminated comment. */
static bool
skip_space(struct lexer *lx)
{
   while (lx->p < lx->end) {
      char c = *lx->p;
      if (c == '\n') {
         lx->line++;
         lx->line_start = ++lx->p;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
         lx->p++;
      } else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '/') {
         while (lx->p < lx->end && *lx->p != '\n')
            lx->p++;
      } else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '*') {
         const char *start = lx->p;
         unsigned start_line = lx->line;
         const char *start_line_start = lx->line_start;
         lx->p += 2;
         for (;;) {
            if (lx->p + 1 >= lx->end) {
               lx->line = start_line;
               lx->line_start = start_line_start;
               return lex_fail(lx, start, "unterminated /* comment");
            }
            if (lx->p[0] == '*' && lx->p[1] == '/')
               break;
            if (*lx->p == '\n') {
               lx->line++;
               lx->line_start = lx->p + 1;
            }
            lx->p++;
         }
         lx->p += 2;
      } else {
         break;
      }
   }
   return true;
}

/* Reads a number at lx->p into t. */
static bool
lex_number(struct lexer *lx, struct ptx_token *t)
{
   const char *s = lx->p, *e = lx->end;

   /* 0f / 0d: the bits of a float in hex. */
   if (e - s >= 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
      unsigned digits = (s[1] == 'f' || s[1] == 'F') ? 8 : 16;
      uint64_t bits = 0;
      const char *q = s + 2;
      for (unsigned i = 0; i < digits; i++, q++) {
         int v = q < e ? hex_value(*q) : -1;
         if (v < 0)
            return lex_fail(lx, s, digits == 8 ? "0f float needs 8 hex digits"
                                               : "0d float needs 16 hex digits");
         bits = bits << 4 | (uint64_t)v;
      }
      if (q < e && is_ident_char(*q))
         return lex_fail(lx, s, "hex float has too many digits");
      t->kind = digits == 8 ? PTX_TOK_F32 : PTX_TOK_F64;
      t->u = bits;
      lx->p = q;
      return true;
   }

   /* A decimal float: digits with a dot or an exponent. */
   const char *q = s;
   while (q < e && is_digit(*q))
      q++;
   bool is_float = false;
   if (q + 1 < e && *q == '.' && is_digit(q[1])) {
      is_float = true;
      q++;
      while (q < e && is_digit(*q))
         q++;
   }
   if (q < e && (*q == 'e' || *q == 'E')) {
      const char *r = q + 1;
      if (r < e && (*r == '+' || *r == '-'))
         r++;
      if (r < e && is_digit(*r)) {
         is_float = true;
         q = r;
         while (q < e && is_digit(*q))
            q++;
      }
   }
   if (is_float) {
      char buf[64];
      size_t n = (size_t)(q - s);
      if (n >= sizeof(buf))
         return lex_fail(lx, s, "float literal too long");
      memcpy(buf, s, n);
      buf[n] = '\0';
      double d = strtod(buf, NULL);
      memcpy(&t->u, &d, sizeof(d));
      t->kind = PTX_TOK_F64;
      lx->p = q;
      return true;
   }

   /* Integers. */
   unsigned base = 10;
   q = s;
   if (e - s >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
      base = 16;
      q += 2;
   } else if (e - s >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
      base = 2;
      q += 2;
   } else if (s[0] == '0' && e - s >= 2 && is_digit(s[1])) {
      base = 8;
      q += 1;
   }
   uint64_t v = 0;
   const char *digits_start = q;
   for (; q < e; q++) {
      int d = hex_value(*q);
      if (d < 0 || (unsigned)d >= base)
         break;
      if (v > (UINT64_MAX - (uint64_t)d) / base)
         return lex_fail(lx, s, "integer literal does not fit 64 bits");
      v = v * base + (uint64_t)d;
   }
   if (q == digits_start)
      return lex_fail(lx, s, "malformed integer literal");
   if (q < e && (*q == 'U' || *q == 'u'))
      q++;
   if (q < e && is_ident_char(*q))
      return lex_fail(lx, q, "malformed number");
   t->kind = PTX_TOK_INT;
   t->u = v;
   lx->p = q;
   return true;
}

bool
ptx_lex(const char *src, size_t len, struct cuvk_arena *arena,
        struct ptx_tokens *out, struct cuvk_cc_error *err)
{
   struct lexer lx = {
      .src = src, .end = src + len, .p = src, .line = 1, .line_start = src,
      .arena = arena, .err = err,
   };

   for (;;) {
      const char *before = lx.p;
      if (!skip_space(&lx))
         return false;
      if (!cuvk_arena_push(arena, lx.tok, lx.count, lx.cap))
         return cuvk_cc_fail(err, CUVK_CC_NO_MEMORY, 0, 0, "out of memory lexing PTX");
      struct ptx_token *t = &lx.tok[lx.count];
      memset(t, 0, sizeof(*t));
      t->text = lx.p;
      t->line = lx.line;
      t->column = column_of(&lx, lx.p);
      t->space_before = lx.p != before || lx.p == src;
      if (lx.p >= lx.end) {
         t->kind = PTX_TOK_EOF;
         break;
      }

      char c = *lx.p;
      if (c == '\0') {
         return lex_fail(&lx, lx.p, "NUL byte in PTX text");
      } else if (is_ident_start(c)) {
         lx.p++;
         while (lx.p < lx.end && is_ident_char(*lx.p))
            lx.p++;
         /* A lone % is no register. */
         if (c == '%' && lx.p == t->text + 1)
            return lex_fail(&lx, t->text, "'%' without a register name");
         t->kind = PTX_TOK_IDENT;
      } else if (c == '.' && lx.p + 1 < lx.end && (is_ident_char(lx.p[1]))) {
         lx.p++;
         while (lx.p < lx.end) {
            if (is_ident_char(*lx.p)) {
               lx.p++;
            } else if (lx.p + 2 < lx.end && lx.p[0] == ':' && lx.p[1] == ':' &&
                       is_ident_char(lx.p[2])) {
               lx.p += 2;
            } else {
               break;
            }
         }
         t->kind = PTX_TOK_DOTNAME;
      } else if (is_digit(c)) {
         if (!lex_number(&lx, t))
            return false;
      } else if (c == '"') {
         const char *s = ++lx.p;
         while (lx.p < lx.end && *lx.p != '"' && *lx.p != '\n') {
            if (*lx.p == '\\' && lx.p + 1 < lx.end && lx.p[1] != '\n')
               lx.p++;
            lx.p++;
         }
         if (lx.p >= lx.end || *lx.p != '"')
            return lex_fail(&lx, s - 1, "unterminated string");
         t->kind = PTX_TOK_STRING;
         t->text = s;
         t->len = (unsigned)(lx.p - s);
         lx.p++;
         lx.count++;
         continue;
      } else if (strchr(",;:{}[]()+-<>@!|=", c)) {
         lx.p++;
         t->kind = PTX_TOK_PUNCT;
      } else {
         char what[64];
         if (c >= 0x20 && c < 0x7f)
            snprintf(what, sizeof(what), "unexpected character '%c'", c);
         else
            snprintf(what, sizeof(what), "unexpected byte 0x%02x", (unsigned char)c);
         return lex_fail(&lx, lx.p, what);
      }
      if ((size_t)(lx.p - t->text) > UINT32_MAX)
         return lex_fail(&lx, t->text, "token too long");
      t->len = (unsigned)(lx.p - t->text);
      lx.count++;
   }
   out->tok = lx.tok;
   out->count = lx.count;
   return true;
}
