/*
 * Decoder of LZ4's block format (no frame): what NVIDIA's fatbin container
 * holds in an entry compressed for speed (nvcc -Xfatbin
 * -compress-mode=speed).  Written against the format's published
 * description; only decoding is needed.
 */
#ifndef CUVK_UTIL_LZ4_H
#define CUVK_UTIL_LZ4_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decodes the block src[0, src_len) into dst, which has room for dst_len
 * bytes.  Returns false for a malformed block: one that reads past its
 * end, writes past dst_len, or refers back before the output's start.
 * On success *out_len is the decoded size (at most dst_len). */
bool cuvk_lz4_decode_block(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                           size_t *out_len);

#endif
