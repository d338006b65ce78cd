/*
 * The PTX lexer: text in, an array of tokens out.
 *
 * Tokens keep their place (line, column) for error messages and whether
 * white space came before them, because PTX's grammar depends on it in one
 * spot: `ld.global.u32` is one opcode with two modifiers and `%tid.x` one
 * register with a component, while `.reg .b32` are two directives.  The
 * lexer does not know which words are opcodes or directives; the parser
 * does.
 */
#ifndef CUVK_COMPILER_PTX_LEX_H
#define CUVK_COMPILER_PTX_LEX_H

#include <stddef.h>
#include <stdint.h>

#include "compiler/arena.h"
#include "compiler/diag.h"

enum ptx_token_kind {
   PTX_TOK_EOF = 0,
   PTX_TOK_IDENT,      /* foo, %r1, $L__BB0_2, _ */
   PTX_TOK_DOTNAME,    /* .reg, .u32, .shared::cta, .L2::evict_last; text includes the dot */
   PTX_TOK_INT,        /* 12, 0x1f, 017, 0b101, 7U; value in u */
   PTX_TOK_F32,        /* 0f3F800000; bits in u */
   PTX_TOK_F64,        /* 0d3FF0000000000000 or 1.5, 1e-3; bits in u */
   PTX_TOK_STRING,     /* "text", without the quotes */
   PTX_TOK_PUNCT,      /* one of , ; : { } [ ] ( ) + - < > @ ! | = */
};

struct ptx_token {
   enum ptx_token_kind kind;
   const char *text;        /* into the source (STRING: after the quote) */
   unsigned len;
   unsigned line, column;   /* 1-based */
   unsigned space_before : 1;
   uint64_t u;
};

struct ptx_tokens {
   struct ptx_token *tok;   /* count tokens, then one EOF */
   size_t count;
};

/* Splits src (len bytes, need not be NUL-terminated) into tokens allocated
 * in arena.  Comments are dropped.  Returns false with err set on a
 * character PTX has no use for, an unterminated string or comment, or a
 * malformed number. */
bool ptx_lex(const char *src, size_t len, struct cuvk_arena *arena,
             struct ptx_tokens *out, struct cuvk_cc_error *err);

static inline bool
ptx_tok_is(const struct ptx_token *t, enum ptx_token_kind kind, const char *text)
{
   size_t i;

   if (t->kind != kind)
      return false;
   for (i = 0; i < t->len; i++)
      if (text[i] != t->text[i])
         return false;
   return text[i] == '\0';
}

static inline bool
ptx_tok_punct(const struct ptx_token *t, char c)
{
   return t->kind == PTX_TOK_PUNCT && t->text[0] == c;
}

#endif
