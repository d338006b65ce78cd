#version 450
/*
 * The compute-shader candidate for array copies, for bench_array_copy.c:
 * one invocation per texel moves its bits between a buffer (through a
 * device address) and a storage image viewed as an unsigned format of the
 * same size (r32ui for 4-byte texels, rgba32ui for 16-byte ones), so any
 * format copies raw.  UPLOAD: buffer -> image; otherwise image -> buffer.
 */
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x = 16, local_size_y = 16) in;

#ifdef WIDE
#define TEXEL uvec4
#define TO_IMAGE(v) (v)
#define FROM_IMAGE(v) (v)
layout(set = 0, binding = 0, rgba32ui) uniform uimage2D img;
#else
#define TEXEL uint
#define TO_IMAGE(v) uvec4((v), 0u, 0u, 0u)
#define FROM_IMAGE(v) ((v).x)
layout(set = 0, binding = 0, r32ui) uniform uimage2D img;
#endif

layout(buffer_reference, std430, buffer_reference_align = 16) buffer Texels {
   TEXEL t[];
};

layout(push_constant) uniform Params {
   uint64_t address;
   uint pitch;    /* texels between rows */
   uint width;
   uint height;
} p;

void
main()
{
   uvec2 g = gl_GlobalInvocationID.xy;
   if (g.x >= p.width || g.y >= p.height)
      return;
   Texels b = Texels(p.address);
#ifdef UPLOAD
   imageStore(img, ivec2(g), TO_IMAGE(b.t[g.y * p.pitch + g.x]));
#else
   b.t[g.y * p.pitch + g.x] = FROM_IMAGE(imageLoad(img, ivec2(g)));
#endif
}
