/*
 * A cache of blobs on disk, keyed by 32-byte content hashes (as Mesa's
 * shader cache): what cuvk translated once, later processes read back.
 *
 * Where: $CUVK_CACHE_DIR, else $XDG_CACHE_HOME/cuvk, else ~/.cache/cuvk;
 * off when CUVK_CACHE_DISABLE or CUDA_CACHE_DISABLE is 1 (or no directory
 * can be named).  Size: CUVK_CACHE_MAX_SIZE bytes (K, M, G suffixes;
 * default 256M); past it, the least recently used entries go.  The
 * environment is read at every call, so a program (or cuvk-bench) may
 * change it between loads.
 *
 * Each entry is one file, <dir>/<2 hex>/<62 hex>: a header with its key,
 * its length and a checksum, then the blob.  Writers write a temporary
 * file and rename it into place, so readers in other processes see a
 * whole entry or none; an entry that is short, altered or not cuvk's
 * fails its checks, is removed and reads as a miss.  Nothing here fails
 * loudly: a cache that cannot be read or written is a slower cuvk, with a
 * debug log line.
 */
#ifndef CUVK_UTIL_DISK_CACHE_H
#define CUVK_UTIL_DISK_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CUVK_DISK_CACHE_KEY_SIZE 32

/* Whether the environment turns the cache on (and names a directory). */
bool cuvk_disk_cache_enabled(void);

/* The blob stored under key, malloc'ed, or NULL (a miss). */
void *cuvk_disk_cache_get(const uint8_t key[CUVK_DISK_CACHE_KEY_SIZE], size_t *size);

/* Stores size bytes under key, replacing what was there, then trims the
 * cache to its size bound. */
void cuvk_disk_cache_put(const uint8_t key[CUVK_DISK_CACHE_KEY_SIZE], const void *data, size_t size);

#endif
