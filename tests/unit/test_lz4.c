/*
 * The LZ4 block decoder (src/util/lz4.h): hand-made blocks, round trips
 * through a small greedy encoder written here from the format's
 * description (long literal and match lengths, overlapping matches), and
 * malformed or random blocks, which must be refused without reading or
 * writing out of bounds (run it under the sanitizers to see that).
 */
#include <string.h>

#include "unit_test.h"
#include "util/lz4.h"

/* Appends a length's continuation bytes (after the token's 15). */
static size_t
put_length(uint8_t *out, size_t o, size_t rest)
{
   while (rest >= 255) {
      out[o++] = 255;
      rest -= 255;
   }
   out[o++] = (uint8_t)rest;
   return o;
}

/* Greedy encoder: at each position the longest match of at least 4 bytes
 * among the last 64 KiB (found by brute force over a few candidates),
 * else a literal.  The last 5 bytes are always literals, as the format
 * asks of encoders. */
static size_t
encode(const uint8_t *in, size_t n, uint8_t *out)
{
   size_t o = 0, anchor = 0, i = 0;
   while (n > 5 && i < n - 5) {
      size_t best_len = 0, best_off = 0;
      size_t lo = i > 65535 ? i - 65535 : 0;
      for (size_t c = i; c-- > lo && i - c <= 4096;) {
         size_t l = 0;
         while (i + l < n - 5 && in[c + l] == in[i + l])
            l++;
         if (l > best_len) {
            best_len = l;
            best_off = i - c;
         }
      }
      if (best_len < 4) {
         i++;
         continue;
      }
      size_t lit = i - anchor, m = best_len - 4;
      out[o++] = (uint8_t)((lit < 15 ? lit : 15) << 4 | (m < 15 ? m : 15));
      if (lit >= 15)
         o = put_length(out, o, lit - 15);
      memcpy(out + o, in + anchor, lit);
      o += lit;
      out[o++] = (uint8_t)best_off;
      out[o++] = (uint8_t)(best_off >> 8);
      if (m >= 15)
         o = put_length(out, o, m - 15);
      i += best_len;
      anchor = i;
   }
   size_t lit = n - anchor;
   out[o++] = (uint8_t)((lit < 15 ? lit : 15) << 4);
   if (lit >= 15)
      o = put_length(out, o, lit - 15);
   memcpy(out + o, in + anchor, lit);
   return o + lit;
}

static void
test_hand_made(void)
{
   uint8_t out[64];
   size_t n;
   /* One literal '\n', then a match at offset 1 of 4 + 3: "\n" x 8, then
    * the literals "ab".  (nvcc's own PTX blocks begin like this.) */
   static const uint8_t b1[] = {0x13, '\n', 0x01, 0x00, 0x20, 'a', 'b'};
   UNIT_CHECK(cuvk_lz4_decode_block(b1, sizeof(b1), out, sizeof(out), &n));
   UNIT_CHECK(n == 10 && memcmp(out, "\n\n\n\n\n\n\n\nab", 10) == 0);
   /* Empty input and the empty block (one token, no literals). */
   UNIT_CHECK(cuvk_lz4_decode_block(b1, 0, out, sizeof(out), &n) && n == 0);
   static const uint8_t b2[] = {0x00};
   UNIT_CHECK(cuvk_lz4_decode_block(b2, 1, out, sizeof(out), &n) && n == 0);
   /* Output exactly the room there is, and one byte less of room. */
   UNIT_CHECK(cuvk_lz4_decode_block(b1, sizeof(b1), out, 10, &n) && n == 10);
   UNIT_CHECK(!cuvk_lz4_decode_block(b1, sizeof(b1), out, 9, &n));
   /* Malformed: offset 0, offset before the start, literals past the end,
    * an offset cut in half, a length whose continuation is missing. */
   static const uint8_t bad1[] = {0x10, 'x', 0x00, 0x00, 0x00};
   static const uint8_t bad2[] = {0x10, 'x', 0x02, 0x00, 0x00};
   static const uint8_t bad3[] = {0x50, 'x', 'y'};
   static const uint8_t bad4[] = {0x10, 'x', 0x01};
   static const uint8_t bad5[] = {0xf0};
   static const uint8_t bad6[] = {0x1f, 'x', 0x01, 0x00, 0xff};
   UNIT_CHECK(!cuvk_lz4_decode_block(bad1, sizeof(bad1), out, sizeof(out), &n));
   UNIT_CHECK(!cuvk_lz4_decode_block(bad2, sizeof(bad2), out, sizeof(out), &n));
   UNIT_CHECK(!cuvk_lz4_decode_block(bad3, sizeof(bad3), out, sizeof(out), &n));
   UNIT_CHECK(!cuvk_lz4_decode_block(bad4, sizeof(bad4), out, sizeof(out), &n));
   UNIT_CHECK(!cuvk_lz4_decode_block(bad5, sizeof(bad5), out, sizeof(out), &n));
   UNIT_CHECK(!cuvk_lz4_decode_block(bad6, sizeof(bad6), out, sizeof(out), &n));
}

static void
test_round_trips(void)
{
   enum { MAX = 70000 };
   uint8_t *in = malloc(MAX), *enc = malloc(MAX + MAX / 255 + 64), *dec = malloc(MAX);
   for (unsigned t = 0; t < 60; t++) {
      size_t n = t < 10 ? t : (size_t)unit_rand_below(t < 50 ? 3000 : MAX);
      /* Text-like data with repeats of several lengths, runs of one byte,
       * and plain noise, in the mix a PTX file has. */
      for (size_t i = 0; i < n;) {
         unsigned kind = (unsigned)unit_rand_below(3);
         size_t run = 1 + unit_rand_below(400);
         for (size_t k = 0; k < run && i < n; k++, i++) {
            if (kind == 0)
               in[i] = (uint8_t)('a' + unit_rand_below(4));
            else if (kind == 1)
               in[i] = ' ';
            else
               in[i] = i >= 37 ? in[i - 37] : (uint8_t)unit_rand();
         }
      }
      size_t e = encode(in, n, enc), got = 0;
      bool ok = cuvk_lz4_decode_block(enc, e, dec, n, &got);
      UNIT_CHECK(ok && got == n && memcmp(in, dec, n) == 0);
      /* Every strict prefix of the block either fails or decodes a
       * prefix of the data, never more. */
      size_t cut = e ? (size_t)unit_rand_below(e) : 0;
      if (cuvk_lz4_decode_block(enc, cut, dec, n, &got))
         UNIT_CHECK(got <= n && memcmp(in, dec, got) == 0);
   }
   free(in);
   free(enc);
   free(dec);
}

/* Random bytes: refused or decoded, within bounds either way. */
static void
test_garbage(void)
{
   uint8_t src[256], dst[512];
   size_t n;
   for (unsigned t = 0; t < 20000; t++) {
      size_t len = (size_t)unit_rand_below(sizeof(src));
      for (size_t i = 0; i < len; i++)
         src[i] = (uint8_t)unit_rand();
      if (cuvk_lz4_decode_block(src, len, dst, sizeof(dst), &n))
         UNIT_CHECK(n <= sizeof(dst));
   }
}

int
main(void)
{
   unit_seed();
   test_hand_made();
   test_round_trips();
   test_garbage();
   return unit_report("unit.util.lz4");
}
