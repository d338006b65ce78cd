/*
 * Push constants shared by the C side and the GLSL compute shaders.
 *
 * Every copy and fill addresses memory through buffer device addresses, so
 * no descriptor is bound and no storage-buffer range limit (128 MiB on
 * lavapipe) applies.  Both shaders walk a 2D region: `height` rows of
 * `width` bytes, each row `pitch` bytes after the previous one, which makes
 * a 1D operation the height == 1 case and lets pitched copies and fills be
 * one dispatch instead of one per row.
 */
#ifndef CUVK_SHADER_PARAMS_H
#define CUVK_SHADER_PARAMS_H

#ifdef VULKAN
#define CUVK_U64 uint64_t
#define CUVK_U32 uint
#else
#include <stdint.h>
#define CUVK_U64 uint64_t
#define CUVK_U32 uint32_t
#endif

/* How the copy shader reads its source once the destination is 16-byte
 * aligned; uniform across a dispatch because src - dst is. */
#define CUVK_COPY_SRC_ALIGN16 0u
#define CUVK_COPY_SRC_ALIGN4 1u
#define CUVK_COPY_SRC_UNALIGNED 2u

#define CUVK_SHADER_LOCAL_SIZE 256u

struct cuvk_copy_params {
   CUVK_U64 src;        /* device address of row 0 */
   CUVK_U64 dst;
   CUVK_U64 src_pitch;  /* bytes between rows */
   CUVK_U64 dst_pitch;
   CUVK_U32 width;      /* bytes per row */
   CUVK_U32 height;
   CUVK_U32 src_mode;   /* CUVK_COPY_SRC_*; only meaningful when all rows agree */
   CUVK_U32 pad;
};

struct cuvk_fill_params {
   CUVK_U64 dst;
   CUVK_U64 dst_pitch;
   CUVK_U32 width;      /* bytes per row */
   CUVK_U32 height;
   CUVK_U32 pattern;    /* value of the 4 bytes at any 4-aligned address */
   CUVK_U32 pad;
};

#endif
