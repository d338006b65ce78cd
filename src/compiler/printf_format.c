/*
 * CUDA printf format strings (printf_format.h).
 */
#include "compiler/printf_format.h"

#include <string.h>

bool
cuvk_printf_next(const char *fmt, size_t len, size_t *pos, struct cuvk_printf_conv *c)
{
   size_t i = *pos;
   while (i < len && fmt[i] && fmt[i] != '%')
      i++;
   if (i >= len || !fmt[i])
      return false;
   memset(c, 0, sizeof(*c));
   c->start = i++;
   while (i < len && fmt[i] && strchr("-+ #0'", fmt[i]))
      i++;
   /* Width, then precision: digits or one '*' each. */
   for (unsigned part = 0; part < 2; part++) {
      if (part == 1) {
         if (i >= len || fmt[i] != '.')
            break;
         i++;
      }
      if (i < len && fmt[i] == '*') {
         c->stars++;
         i++;
      } else {
         while (i < len && fmt[i] >= '0' && fmt[i] <= '9')
            i++;
      }
   }
   c->spec_end = i;
   unsigned longs = 0;
   bool wide = false;
   while (i < len && fmt[i] && strchr("hlLqjzt", fmt[i])) {
      if (fmt[i] == 'l' || fmt[i] == 'L' || fmt[i] == 'q')
         longs++;
      if (fmt[i] == 'j' || fmt[i] == 'z' || fmt[i] == 't' || fmt[i] == 'q')
         wide = true;
      i++;
   }
   char ch = i < len ? fmt[i] : 0;
   if (ch)
      i++;
   c->end = i;
   *pos = i;
   switch (ch) {
   case '%':
      c->conv = '%';
      break;
   case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c':
      c->conv = ch;
      c->arg = CUVK_PRINTF_ARG_INT;
      /* long is 64 bits on the LP64 hosts nvcc compiles for. */
      c->size = (ch != 'c' && (longs || wide)) ? 8 : 4;
      break;
   case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
      c->conv = ch;
      c->arg = CUVK_PRINTF_ARG_DOUBLE;
      c->size = 8;
      break;
   case 's':
      c->conv = ch;
      c->arg = CUVK_PRINTF_ARG_STRING;
      c->size = 8;
      break;
   case 'p':
      c->conv = ch;
      c->arg = CUVK_PRINTF_ARG_POINTER;
      c->size = 8;
      break;
   default:
      /* Not a conversion: printed as it stands, taking nothing. */
      c->conv = 0;
      c->stars = 0;
      if (!ch)
         c->end = *pos = i;
      break;
   }
   return true;
}

void
cuvk_printf_layout(const char *fmt, size_t len, unsigned *count, unsigned *bytes)
{
   size_t pos = 0;
   unsigned n = 0, off = 0;
   struct cuvk_printf_conv c;
   while (cuvk_printf_next(fmt, len, &pos, &c)) {
      if (!c.size)
         continue;
      off += 4 * c.stars;
      off = (off + c.size - 1) / c.size * c.size;
      off += c.size;
      n++;
   }
   *count = n;
   *bytes = off;
}
