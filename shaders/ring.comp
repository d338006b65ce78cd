#version 460
/*
 * The resident command ring (docs/design.md, "A resident command ring"):
 * one dispatch that stays on its queue and runs the fills and copies the
 * host writes into a command word in device memory the host maps, so a
 * small synchronous operation pays no vkQueueSubmit.
 *
 * Invocation 0 of each workgroup polls seq; the workgroup then takes its
 * grid-stride share of the command, and the last workgroup to finish
 * (counted in arrived) writes done.  Memory is reached through coherent
 * references: the dispatch outlives the work of other queues, so a load
 * must not be served from a cache that saw an earlier value.
 *
 * The dispatch may end at any point between commands, and the host then
 * submits it again (ring.c): after CUVK_RING_POLLS empty polls, and on
 * llvmpipe whenever its loop limiter cuts a loop short (gallivm ends every
 * loop of an invocation once their back edges together pass 65535).  So
 * nothing counts on a loop running to its end: a workgroup that finds
 * its share cut short leaves without counting itself, and done is
 * written only for a command every workgroup finished.  A command the
 * dispatch left undone is run again whole by the next, which is sound
 * because the ring only takes fills and copies between ranges apart.
 */
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require

#include "cuvk_shader_params.h"

layout(local_size_x = CUVK_SHADER_LOCAL_SIZE) in;

layout(push_constant, std430) uniform Push {
   cuvk_ring_push p;
};

layout(buffer_reference, std430, buffer_reference_align = 16) coherent volatile buffer Command {
   cuvk_ring_command c;
};
layout(buffer_reference, std430, buffer_reference_align = 4) coherent volatile buffer Status {
   uint done;
   uint arrived;
};
layout(buffer_reference, std430, buffer_reference_align = 16) coherent buffer Vec4Ref { uvec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer UintRef { uint v[]; };

shared uint s_seq, s_op, s_pattern;
shared bool s_cut;
shared uint64_t s_dst, s_src, s_size;

void
main()
{
   Command cmd = Command(p.control);
   Status status = Status(p.control + CUVK_RING_STATUS_OFFSET);
   uint lane = gl_LocalInvocationIndex;
   uint first = gl_WorkGroupID.x * CUVK_SHADER_LOCAL_SIZE + lane;
   uint stride = gl_NumWorkGroups.x * CUVK_SHADER_LOCAL_SIZE;
   uint last = cmd.c.base;

   for (;;) {
      if (lane == 0u) {
         uint s = cmd.c.seq;
         for (uint i = 0u; s == last && i < CUVK_RING_POLLS; i++)
            s = cmd.c.seq;
         memoryBarrierBuffer();
         s_seq = s;
         s_op = cmd.c.op;
         s_pattern = cmd.c.pattern;
         s_dst = cmd.c.dst;
         s_src = cmd.c.src;
         s_size = cmd.c.size;
         s_cut = false;
      }
      barrier();
      uint seq = s_seq, op = s_op;
      if (seq == last || op == CUVK_RING_OP_EXIT)
         return;
      uint64_t dst = s_dst, src = s_src, size = s_size;
      bool copy = op == CUVK_RING_OP_COPY;

      /* Separate loops: a fill must not load through its null source. */
      bool whole;
      if (((dst | (copy ? src : 0ul) | size) & 15ul) == 0ul) {
         Vec4Ref d = Vec4Ref(dst);
         uint units = uint(size / 16ul);
         uint u = first;
         if (copy) {
            Vec4Ref s = Vec4Ref(src);
            for (; u < units; u += stride)
               d.v[u] = s.v[u];
         } else {
            uvec4 value = uvec4(s_pattern);
            for (; u < units; u += stride)
               d.v[u] = value;
         }
         whole = u >= units;
      } else {
         UintRef d = UintRef(dst);
         uint words = uint(size / 4ul);
         uint w = first;
         if (copy) {
            UintRef s = UintRef(src);
            for (; w < words; w += stride)
               d.v[w] = s.v[w];
         } else {
            uint value = s_pattern;
            for (; w < words; w += stride)
               d.v[w] = value;
         }
         whole = w >= words;
      }
      if (!whole)
         s_cut = true;
      memoryBarrierBuffer();
      barrier();
      if (s_cut)
         return;
      if (lane == 0u && atomicAdd(status.arrived, 1u) == gl_NumWorkGroups.x - 1u) {
         status.arrived = 0u;
         memoryBarrierBuffer();
         status.done = seq;
      }
      last = seq;
   }
}
