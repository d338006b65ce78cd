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

/* The resident command ring (cuda_api/ring.c, docs/design.md "A resident
 * command ring").  The host writes a command's fields, then seq; every
 * workgroup of the ring's one dispatch sees seq change, does its share
 * and counts itself in arrived; the last one writes done = seq.  The
 * GPU's words sit CUVK_RING_STATUS_OFFSET bytes in, away from the line
 * the host writes. */
#define CUVK_RING_OP_EXIT 0u
#define CUVK_RING_OP_FILL 1u
#define CUVK_RING_OP_COPY 2u
#define CUVK_RING_STATUS_OFFSET 256u
/* Empty polls after which the dispatch leaves by itself: a backstop for
 * the host's own idle exit, not the way it normally ends. */
#define CUVK_RING_POLLS (1u << 22)

struct cuvk_ring_command {
   CUVK_U32 seq;        /* written last: a new value is a new command */
   CUVK_U32 op;         /* CUVK_RING_OP_* */
   CUVK_U32 pattern;    /* a fill's value of the 4 bytes at any 4-aligned address */
   CUVK_U32 base;       /* the seq the dispatch starts after, written before it is submitted */
   CUVK_U64 dst;        /* device addresses; 4-aligned, as is size */
   CUVK_U64 src;
   CUVK_U64 size;       /* bytes */
   CUVK_U64 pad;
};

struct cuvk_ring_push {
   CUVK_U64 control;    /* device address of the cuvk_ring_command */
};

#endif
