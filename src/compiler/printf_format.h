/*
 * CUDA's device printf format strings, as both sides read them: the
 * compiler (spirv_printf.c) to know how many argument bytes a vprintf
 * call passes, and the host (src/cuda_api/printf.c) to print a record.
 * Both must agree byte for byte, so there is one parser.
 *
 * nvcc passes vprintf's arguments as a packed struct in local memory,
 * after C's default promotions: every integer of 32 bits or fewer (char,
 * short, int, %c) as 4 bytes, long, long long and size_t as 8, float as
 * double (8), strings and pointers as 8-byte addresses; each member
 * aligned to its size.  A '*' width or precision takes an int first.
 */
#ifndef CUVK_COMPILER_PRINTF_FORMAT_H
#define CUVK_COMPILER_PRINTF_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

enum cuvk_printf_arg {
   CUVK_PRINTF_ARG_NONE,     /* %% or a conversion printed as text */
   CUVK_PRINTF_ARG_INT,      /* d i u x X o c: size 4 or 8 */
   CUVK_PRINTF_ARG_DOUBLE,   /* f F e E g G a A */
   CUVK_PRINTF_ARG_STRING,   /* s: an address */
   CUVK_PRINTF_ARG_POINTER,  /* p */
};

struct cuvk_printf_conv {
   size_t start, end;        /* fmt[start] is '%', fmt[end - 1] the conversion */
   size_t spec_end;          /* flags, width and precision end here (before
                              * the length modifier) */
   enum cuvk_printf_arg arg;
   char conv;                /* the conversion character; 0: not one */
   unsigned size;            /* bytes of the argument: 0, 4 or 8 */
   unsigned stars;           /* '*' widths and precisions: an int each, first */
};

/* The next conversion of fmt (len bytes, no nul needed) at or after *pos,
 * advancing *pos past it; false when none is left.  Unknown conversions
 * (%n among them, which CUDA does not have) come back with conv 0 and
 * no argument. */
bool cuvk_printf_next(const char *fmt, size_t len, size_t *pos, struct cuvk_printf_conv *c);

/* How many arguments (conversions that take one) fmt names and how many
 * bytes nvcc's argument buffer for them holds. */
void cuvk_printf_layout(const char *fmt, size_t len, unsigned *count, unsigned *bytes);

#endif
