/*
 * SHA-256 (FIPS 180-4), for content keys that must not collide: the disk
 * cache names translated kernels by the hash of what they came from.
 */
#ifndef CUVK_UTIL_SHA256_H
#define CUVK_UTIL_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define CUVK_SHA256_SIZE 32

struct cuvk_sha256 {
   uint32_t state[8];
   uint64_t bytes;
   uint8_t block[64];
   size_t used;
};

void cuvk_sha256_init(struct cuvk_sha256 *h);
void cuvk_sha256_update(struct cuvk_sha256 *h, const void *data, size_t size);
void cuvk_sha256_final(struct cuvk_sha256 *h, uint8_t out[CUVK_SHA256_SIZE]);

/* One buffer's hash. */
void cuvk_sha256(const void *data, size_t size, uint8_t out[CUVK_SHA256_SIZE]);

#endif
