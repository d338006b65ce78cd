/*
 * Host memory copies spread over a few threads.
 *
 * One CPU thread does not saturate a server's memory: on the H200 machine
 * a lone memcpy into a staging buffer reached 13 GB/s (design notes),
 * below the 50+ GB/s a GPU copy moves over PCIe, so a pageable transfer,
 * which the CPU must copy through staging, is bound by that one thread.
 * A copy pool splits a large copy into pieces that a few worker threads
 * and the calling thread take in turn; the caller returns once every
 * piece is done.  Small copies, and any copy that finds the pool busy
 * with another caller's, run on the calling thread alone.
 *
 * The process-wide pool has CUVK_STAGING_THREADS threads copying (the
 * caller counted), default the smaller of 4 and the CPUs online; its
 * workers start at the first large copy and stop when the library is
 * unloaded.  Every function may be called from any thread.
 */
#ifndef CUVK_UTIL_HOST_COPY_H
#define CUVK_UTIL_HOST_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A 3D box of bytes: slices of rows of width bytes, each side laid out by
 * its own row pitch and slice pitch.  The two sides must not overlap. */
struct cuvk_host_copy {
   uint8_t *dst;
   const uint8_t *src;
   uint64_t width;
   uint64_t rows;
   uint64_t slices;
   uint64_t dst_pitch, dst_slice;
   uint64_t src_pitch, src_slice;
};

/* Copies below this many bytes stay on the calling thread: waking the
 * workers costs more than they would save. */
#define CUVK_HOST_COPY_PARALLEL_MIN (512u << 10)

struct cuvk_copy_pool;

/* A pool of threads - 1 workers (threads copying, the caller counted);
 * NULL when out of memory or threads cannot be started. */
struct cuvk_copy_pool *cuvk_copy_pool_create(unsigned threads);
void cuvk_copy_pool_destroy(struct cuvk_copy_pool *pool);

/* Copies the box on the pool's threads when it is large and the pool is
 * free, else on the calling thread.  Returns whether workers took part
 * (for tests). */
bool cuvk_copy_pool_run(struct cuvk_copy_pool *pool, const struct cuvk_host_copy *copy);

/* CUVK_STAGING_THREADS, read once: threads a large host copy runs on. */
unsigned cuvk_host_copy_threads(void);

/* The box through the process-wide pool. */
void cuvk_host_copy(const struct cuvk_host_copy *copy);

/* n contiguous bytes through the process-wide pool; the two ranges must
 * not overlap. */
void cuvk_host_memcpy(void *dst, const void *src, size_t n);

#endif
