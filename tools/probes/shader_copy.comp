#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer Src { uvec4 s[]; } src;
layout(set = 0, binding = 1) writeonly buffer Dst { uvec4 d[]; } dst;
layout(push_constant) uniform P { uint count; uint stride; } p;
void main()
{
   for (uint i = gl_GlobalInvocationID.x; i < p.count; i += p.stride)
      dst.d[i] = src.s[i];
}
