#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) coherent volatile buffer Ring {
   uint seq; uint cmd; uint offset; uint count; uint value; uint done; uint check;
} ring;
layout(set = 0, binding = 1) coherent buffer Data { uint d[]; } data;
shared uint s_seq, s_cmd, s_off, s_cnt, s_val;
void main()
{
   uint last = 0u;
   for (;;) {
      if (gl_LocalInvocationIndex == 0u) {
         uint s;
         do { s = ring.seq; } while (s == last);
         memoryBarrierBuffer();
         s_seq = s; s_cmd = ring.cmd; s_off = ring.offset; s_cnt = ring.count; s_val = ring.value;
      }
      memoryBarrierShared();
      barrier();
      uint seq = s_seq;
      if (s_cmd == 0u)
         break;
      for (uint i = gl_LocalInvocationIndex; i < s_cnt; i += 256u)
         data.d[s_off + i] = s_val;
      memoryBarrierBuffer();
      barrier();
      if (gl_LocalInvocationIndex == 0u) {
         ring.check = data.d[s_off + s_cnt - 1u];
         memoryBarrierBuffer();
         ring.done = seq;
      }
      last = seq;
      barrier();
   }
}
