/*
 * Module images: what cuModuleLoadData, cuModuleLoadFatBinary and
 * cuModuleLoad receive, reduced to the PTX text cuvk compiles.
 *
 * An image is PTX text (nul-terminated), NVIDIA's fatbin container (magic
 * 0xBA55ED50), the wrapper nvcc puts around one in a host program (magic
 * 0x466243B1, pointing at the container), or a cubin (ELF).  A container
 * holds entries, each a header and a payload: PTX (kind 1) or SASS ELF
 * (kind 2), for one architecture, with the payload as it is, LZ4-compressed
 * (flag 0x2000: nvcc -Xfatbin -compress-mode=speed) or Zstd-compressed
 * (flag 0x8000: nvcc 13's default for PTX).  The layout facts come from
 * looking at nvcc 13.0's output; fatbin.c names each field it reads.  cuvk runs
 * PTX only, so of a container's entries it takes the PTX for the highest
 * architecture (the newest instructions nvcc was asked for).
 */
#ifndef CUVK_API_FATBIN_H
#define CUVK_API_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

#define CUVK_FATBIN_MAGIC 0xba55ed50u
#define CUVK_FATBIN_WRAPPER_MAGIC 0x466243b1u

/* Finds the PTX of image.  size is the bytes the image has, or SIZE_MAX
 * when the caller does not know (CUDA's in-memory loads pass no size: the
 * container's header gives it, and text ends at its nul).  entry names the
 * API call for log lines.  On success *ptx is malloc'ed, nul-terminated
 * text of *len bytes (the nul not counted) and *arch the architecture it
 * was written for (0 for bare text).
 *
 * Errors: CUDA_ERROR_INVALID_VALUE for a NULL image, CUDA_ERROR_INVALID_IMAGE
 * for a container that is malformed or whose payload does not decompress
 * and for binary data that is neither, CUDA_ERROR_NOT_SUPPORTED for a cubin
 * or a container with SASS only (logged with how to build with PTX),
 * CUDA_ERROR_NO_BINARY_FOR_GPU for an empty container,
 * CUDA_ERROR_OUT_OF_MEMORY. */
CUresult cuvk_image_ptx(const void *image, size_t size, const char *entry, char **ptx, size_t *len,
                        uint32_t *arch);

#endif
