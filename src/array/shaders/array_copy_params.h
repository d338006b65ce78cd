/*
 * Push constants of the array copy shaders (image_copy.comp), shared by C
 * and GLSL like shaders/cuvk_shader_params.h.
 *
 * The shader moves a box of texels between a storage image view of an
 * unsigned format as wide as the image's texels (r32ui, rg32ui, rgba32ui)
 * and a buffer reached through its device address, one invocation per
 * texel: the bits go through unchanged whatever the image's own format.
 */
#ifndef CUVK_ARRAY_COPY_PARAMS_H
#define CUVK_ARRAY_COPY_PARAMS_H

#ifdef VULKAN
#define CUVK_U64 uint64_t
#define CUVK_U32 uint
#define CUVK_I32 int
#else
#include <stdint.h>
#define CUVK_U64 uint64_t
#define CUVK_U32 uint32_t
#define CUVK_I32 int32_t
#endif

#define CUVK_ARRAY_COPY_LOCAL_X 16u
#define CUVK_ARRAY_COPY_LOCAL_Y 8u

struct cuvk_array_copy_params {
   CUVK_U64 address;   /* the box's first texel in the buffer */
   CUVK_U64 pitch;     /* bytes between rows */
   CUVK_U64 slice;     /* bytes between slices (3D) or layers */
   CUVK_I32 x, y, z;   /* the box's origin: texel, row, slice or layer */
   CUVK_U32 width, height, depth;
};

#endif
