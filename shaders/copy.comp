#version 460
/*
 * Copies `height` rows of `width` bytes between two device addresses.
 *
 * Each row is split into a head (bytes before the destination is 16-byte
 * aligned), a body of 16-byte units and a tail.  Body units are stored as
 * uvec4; they are loaded as uvec4, as four uints, or as five uints shifted
 * into place, depending on how the source is aligned relative to the
 * destination.  Invocations walk the units with a grid stride, so a bounded
 * dispatch covers any size.
 */
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_GOOGLE_include_directive : require

#include "cuvk_shader_params.h"

layout(local_size_x = CUVK_SHADER_LOCAL_SIZE) in;

layout(push_constant, std430) uniform Push {
   cuvk_copy_params p;
};

layout(buffer_reference, std430, buffer_reference_align = 16) buffer Vec4Ref { uvec4 v; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer UintRef { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 1) buffer ByteRef { uint8_t v[]; };

uvec4
load_unit(uint64_t addr)
{
   if (p.src_mode == CUVK_COPY_SRC_ALIGN16)
      return Vec4Ref(addr).v;

   if (p.src_mode == CUVK_COPY_SRC_ALIGN4) {
      UintRef s = UintRef(addr);
      return uvec4(s.v[0], s.v[1], s.v[2], s.v[3]);
   }

   /* Five aligned words cover the 16 unaligned bytes; funnel-shift them.
    * Rows differ in alignment, so this row may be aligned after all: a
    * shift by 32 below would be undefined. */
   uint shift = uint(addr & 3ul) * 8u;
   UintRef s = UintRef(addr & ~3ul);
   if (shift == 0u)
      return uvec4(s.v[0], s.v[1], s.v[2], s.v[3]);
   uint w0 = s.v[0], w1 = s.v[1], w2 = s.v[2], w3 = s.v[3], w4 = s.v[4];
   uint back = 32u - shift;
   return uvec4((w0 >> shift) | (w1 << back),
                (w1 >> shift) | (w2 << back),
                (w2 >> shift) | (w3 << back),
                (w3 >> shift) | (w4 << back));
}

void
main()
{
   uint threads_x = gl_NumWorkGroups.x * CUVK_SHADER_LOCAL_SIZE;
   uint tid = gl_GlobalInvocationID.x;

   for (uint row = gl_WorkGroupID.y; row < p.height; row += gl_NumWorkGroups.y) {
      uint64_t src = p.src + uint64_t(row) * p.src_pitch;
      uint64_t dst = p.dst + uint64_t(row) * p.dst_pitch;
      uint head = min(uint((16ul - (dst & 15ul)) & 15ul), p.width);
      uint units = (p.width - head) / 16u;
      uint tail_start = head + units * 16u;

      if (tid < head)
         ByteRef(dst).v[tid] = ByteRef(src).v[tid];
      if (tid < p.width - tail_start)
         ByteRef(dst).v[tail_start + tid] = ByteRef(src).v[tail_start + tid];

      uint64_t body_src = src + head;
      uint64_t body_dst = dst + head;
      for (uint u = tid; u < units; u += threads_x) {
         uint64_t off = uint64_t(u) * 16ul;
         Vec4Ref(body_dst + off).v = load_unit(body_src + off);
      }
   }
}
