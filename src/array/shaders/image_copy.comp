#version 450
/*
 * Array copies on the compute engine: one invocation per texel of a box,
 * between a buffer (device address) and a storage image view of r32ui,
 * rg32ui or rgba32ui (WORDS 1, 2, 4), 1D-array, 2D-array or 3D (DIM 1, 2,
 * 3).  UPLOAD: buffer to image; otherwise image to buffer.  Texels are read
 * and written as 32-bit words, so the buffer side needs 4-byte alignment
 * only.
 */
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require

#include "array_copy_params.h"

layout(local_size_x = CUVK_ARRAY_COPY_LOCAL_X, local_size_y = CUVK_ARRAY_COPY_LOCAL_Y) in;

#if WORDS == 1
#define FORMAT r32ui
#elif WORDS == 2
#define FORMAT rg32ui
#else
#define FORMAT rgba32ui
#endif

#if DIM == 1
layout(set = 0, binding = 0, FORMAT) uniform uimage1DArray img;
#define COORD(p) ivec2((p).x, (p).z)
#elif DIM == 2
layout(set = 0, binding = 0, FORMAT) uniform uimage2DArray img;
#define COORD(p) ivec3(p)
#else
layout(set = 0, binding = 0, FORMAT) uniform uimage3D img;
#define COORD(p) ivec3(p)
#endif

layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words {
   uint w[];
};

layout(push_constant) uniform Params {
   cuvk_array_copy_params p;
};

void
main()
{
   uvec3 g = gl_GlobalInvocationID;
   if (g.x >= p.width || g.y >= p.height || g.z >= p.depth)
      return;
   Words b = Words(p.address + g.z * p.slice + g.y * p.pitch + uint64_t(g.x) * (WORDS * 4));
   ivec3 pos = ivec3(g) + ivec3(p.x, p.y, p.z);
#ifdef UPLOAD
   uvec4 v = uvec4(0);
   for (int i = 0; i < WORDS; i++)
      v[i] = b.w[i];
   imageStore(img, COORD(pos), v);
#else
   uvec4 v = imageLoad(img, COORD(pos));
   for (int i = 0; i < WORDS; i++)
      b.w[i] = v[i];
#endif
}
