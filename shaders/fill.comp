#version 460
/*
 * Fills `height` rows of `width` bytes with a 32-bit pattern laid out as it
 * would be at 4-aligned addresses, so 8-, 16- and 32-bit fills all reduce to
 * the same loop.  Body units are 16-byte uvec4 stores; the unaligned head and
 * tail are written byte by byte, each byte taken from the pattern at its
 * address modulo 4.
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
   cuvk_fill_params p;
};

layout(buffer_reference, std430, buffer_reference_align = 16) buffer Vec4Ref { uvec4 v; };
layout(buffer_reference, std430, buffer_reference_align = 1) buffer ByteRef { uint8_t v[]; };

void
store_byte(uint64_t addr)
{
   uint shift = uint(addr & 3ul) * 8u;
   ByteRef(addr).v[0] = uint8_t((p.pattern >> shift) & 0xffu);
}

void
main()
{
   uint threads_x = gl_NumWorkGroups.x * CUVK_SHADER_LOCAL_SIZE;
   uint tid = gl_GlobalInvocationID.x;
   uvec4 value = uvec4(p.pattern);

   for (uint row = gl_WorkGroupID.y; row < p.height; row += gl_NumWorkGroups.y) {
      uint64_t dst = p.dst + uint64_t(row) * p.dst_pitch;
      uint head = min(uint((16ul - (dst & 15ul)) & 15ul), p.width);
      uint units = (p.width - head) / 16u;
      uint tail_start = head + units * 16u;

      if (tid < head)
         store_byte(dst + tid);
      if (tid < p.width - tail_start)
         store_byte(dst + tail_start + tid);

      uint64_t body = dst + head;
      for (uint u = tid; u < units; u += threads_x)
         Vec4Ref(body + uint64_t(u) * 16ul).v = value;
   }
}
