#version 450
// simple_vulkan.cu: a point's colour is its vertex's height, exactly (a
// flat float into an R32_SFLOAT attachment), so the host compares pixels
// with its own heights.
layout(location = 0) flat in float v_height;
layout(location = 0) out float color;

void main()
{
   color = v_height;
}
