#include "util/lz4.h"

#include <string.h>

/* A length of 15 in the token goes on in the bytes that follow: each adds
 * up to 255, and a byte below 255 ends it. */
static bool
read_length(const uint8_t **ip, const uint8_t *end, size_t *len)
{
   uint8_t b;
   do {
      if (*ip >= end)
         return false;
      b = *(*ip)++;
      if (*len > SIZE_MAX - b)
         return false;
      *len += b;
   } while (b == 255);
   return true;
}

bool
cuvk_lz4_decode_block(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len, size_t *out_len)
{
   const uint8_t *ip = src, *iend = src + src_len;
   size_t op = 0;

   /* A block is sequences of: token (literal length, match length),
    * literals, a 16-bit little-endian offset back into the output and the
    * match.  The last sequence has literals only. */
   while (ip < iend) {
      uint8_t token = *ip++;
      size_t lit = token >> 4;
      if (lit == 15 && !read_length(&ip, iend, &lit))
         return false;
      if (lit > (size_t)(iend - ip) || lit > dst_len - op)
         return false;
      memcpy(dst + op, ip, lit);
      ip += lit;
      op += lit;
      if (ip == iend)
         break;

      if (iend - ip < 2)
         return false;
      size_t offset = (size_t)ip[0] | (size_t)ip[1] << 8;
      ip += 2;
      if (offset == 0 || offset > op)
         return false;
      size_t match = token & 15;
      if (match == 15 && !read_length(&ip, iend, &match))
         return false;
      match += 4;
      if (match > dst_len - op)
         return false;
      /* The match may overlap what it writes (offset < length repeats a
       * pattern), so it is copied forward byte by byte. */
      for (size_t i = 0; i < match; i++, op++)
         dst[op] = dst[op - offset];
   }
   *out_len = op;
   return true;
}
