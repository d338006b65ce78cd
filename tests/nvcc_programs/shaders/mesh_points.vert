#version 450
// simple_vulkan.cu: the height field CUDA wrote, one float a vertex of a
// mesh of mesh.width columns, drawn as points.  Vertex (i, j) lands on the
// centre of pixel (2i, 2j), so every vertex has a pixel of its own and the
// pixels between them show whether anything was drawn where it must not.
layout(location = 0) in float height;
layout(location = 0) flat out float v_height;

layout(push_constant) uniform Mesh {
   vec2 image_size;
   int width;
} mesh;

void main()
{
   int i = gl_VertexIndex % mesh.width;
   int j = gl_VertexIndex / mesh.width;
   vec2 pixel = vec2(2 * i, 2 * j) + 0.5;
   gl_Position = vec4(pixel / mesh.image_size * 2.0 - 1.0, 0.0, 1.0);
   gl_PointSize = 1.0;
   v_height = height;
}
