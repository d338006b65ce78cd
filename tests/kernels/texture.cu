// Texture and surface objects in kernels: every fetch form the tests
// check against host references (tests/compiler/test_spirv_texture.c
// translates each kernel; the launch tests run them).

// tex2D with float coordinates: point or linear filtering, any address
// mode, normalised or not (the object decides).
extern "C" __global__ void tex2d_float4(cudaTextureObject_t t, float4 *out, int w, int h, float scale,
                                        float shift)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y;
   if (x >= w || y >= h)
      return;
   out[y * w + x] = tex2D<float4>(t, x * scale + shift, y * scale + shift);
}

// Element-type reads of 8-bit unsigned texels.
extern "C" __global__ void tex2d_uchar4(cudaTextureObject_t t, uchar4 *out, int w, int h)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y;
   if (x < w && y < h)
      out[y * w + x] = tex2D<uchar4>(t, x + 0.5f, y + 0.5f);
}

extern "C" __global__ void tex2d_int(cudaTextureObject_t t, int *out, int w, int h)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y;
   if (x < w && y < h)
      out[y * w + x] = tex2D<int>(t, x + 0.5f, y + 0.5f);
}

extern "C" __global__ void tex1d_float(cudaTextureObject_t t, float *out, int n, float scale)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   if (x < n)
      out[x] = tex1D<float>(t, x * scale);
}

extern "C" __global__ void tex3d_float(cudaTextureObject_t t, float *out, int w, int h, int d)
{
   int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
   if (x < w && y < h && z < d)
      out[(z * h + y) * w + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}

// A level of a mipmapped array through tex2DLod.
extern "C" __global__ void tex2d_lod(cudaTextureObject_t t, float4 *out, int w, int h, float level)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y;
   if (x < w && y < h)
      out[y * w + x] = tex2DLod<float4>(t, (x + 0.5f) / w, (y + 0.5f) / h, level);
}

// Handles loaded from a device array, differing between the threads of
// a warp.
extern "C" __global__ void tex2d_many(const cudaTextureObject_t *t, int count, float *out, int w)
{
   int x = threadIdx.x;
   cudaTextureObject_t mine = t[x % count];
   out[x] = tex2D<float>(mine, (x % w) + 0.5f, 0.5f);
}

extern "C" __global__ void tex_query(cudaTextureObject_t t, cudaSurfaceObject_t s, unsigned *out)
{
   unsigned v;
   out += 4 * threadIdx.x;
   asm("txq.width.b32 %0, [%1];" : "=r"(v) : "l"(t));
   out[0] = v;
   asm("txq.height.b32 %0, [%1];" : "=r"(v) : "l"(t));
   out[1] = v;
   asm("suq.width.b32 %0, [%1];" : "=r"(v) : "l"(s));
   out[2] = v;
   asm("suq.height.b32 %0, [%1];" : "=r"(v) : "l"(s));
   out[3] = v;
}

// Surfaces: raw texels in and out, the vulkanImageCUDA box filter's way
// (objects kept in a device array), each boundary mode.
extern "C" __global__ void surf2d_copy(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y;
   if (x < w && y < h) {
      uchar4 v = surf2Dread<uchar4>(src, x * 4, y);
      v.x = 255 - v.x;
      surf2Dwrite(v, dst, x * 4, y);
   }
}

extern "C" __global__ void surf2d_modes(const cudaSurfaceObject_t *s, float *out, int w, int h, int dx)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y;
   if (x < w && y < h) {
      float a = surf2Dread<float>(s[0], (x + dx) * 4, y, cudaBoundaryModeClamp);
      float b = surf2Dread<float>(s[0], (x + dx) * 4, y, cudaBoundaryModeZero);
      out[y * w + x] = a + 1000.0f * b;
      surf2Dwrite(a, s[1], (x + dx) * 4, y, cudaBoundaryModeZero);
   }
}

extern "C" __global__ void surf2d_float4(cudaSurfaceObject_t s, int w, int h)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y;
   if (x < w && y < h) {
      float4 v = surf2Dread<float4>(s, x * 16, y);
      surf2Dwrite(make_float4(v.w, v.z, v.y, v.x), s, x * 16, y);
   }
}

// tex1Dfetch on linear memory: integer indices, 0 outside, each read
// mode's result type.
extern "C" __global__ void fetch_f4(cudaTextureObject_t t, float4 *out, int n, int shift)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   if (x < n)
      out[x] = tex1Dfetch<float4>(t, x + shift);
}

extern "C" __global__ void fetch_i4(cudaTextureObject_t t, int4 *out, int n, int shift)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   if (x < n)
      out[x] = tex1Dfetch<int4>(t, x + shift);
}

extern "C" __global__ void fetch_u4(cudaTextureObject_t t, uint4 *out, int n, int shift)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   if (x < n)
      out[x] = tex1Dfetch<uint4>(t, x + shift);
}

// Layered textures: the layer an integer, the coordinates texel centres.
extern "C" __global__ void tex1d_layered(cudaTextureObject_t t, float4 *out, int w, int layers)
{
   int x = threadIdx.x, l = blockIdx.x;
   if (x < w && l < layers)
      out[l * w + x] = tex1DLayered<float4>(t, x + 0.5f, l);
}

extern "C" __global__ void tex2d_layered(cudaTextureObject_t t, float4 *out, int w, int h, int layers)
{
   int x = threadIdx.x, y = blockIdx.x, l = blockIdx.y;
   if (x < w && y < h && l < layers)
      out[(l * h + y) * w + x] = tex2DLayered<float4>(t, x + 0.5f, y + 0.5f, l);
}

// A cubemap sampled along the directions given.
extern "C" __global__ void tex_cubemap(cudaTextureObject_t t, const float4 *dirs, float4 *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n) {
      float4 d = dirs[i];
      out[i] = texCubemap<float4>(t, d.x, d.y, d.z);
   }
}

// tex2DGrad: the gradients choose the level of a mipmapped array.
extern "C" __global__ void tex2d_grad(cudaTextureObject_t t, float4 *out, int w, int h, float g)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y;
   if (x < w && y < h)
      out[y * w + x] = tex2DGrad<float4>(t, (x + 0.5f) / w, (y + 0.5f) / h, make_float2(g, 0.0f),
                                         make_float2(0.0f, g));
}

// tex2Dgather (tld4): one component of the four texels around (x, y).
extern "C" __global__ void tex2d_gather(cudaTextureObject_t t, float4 *out, int w, int h)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y;
   if (x < w && y < h) {
      float4 *o = out + 4 * (y * w + x);
      o[0] = tex2Dgather<float4>(t, x + 1.0f, y + 1.0f, 0);
      o[1] = tex2Dgather<float4>(t, x + 1.0f, y + 1.0f, 1);
      o[2] = tex2Dgather<float4>(t, x + 1.0f, y + 1.0f, 2);
      o[3] = tex2Dgather<float4>(t, x + 1.0f, y + 1.0f, 3);
   }
}

// A layered surface read and written in place: each layer's texels
// doubled plus the layer.
extern "C" __global__ void surf2d_layered(cudaSurfaceObject_t s, int w, int h, int layers)
{
   int x = threadIdx.x, y = blockIdx.x, l = blockIdx.y;
   if (x < w && y < h && l < layers) {
      float v = surf2DLayeredread<float>(s, x * 4, y, l);
      surf2DLayeredwrite(2.0f * v + l, s, x * 4, y, l);
   }
}

// A layered cubemap sampled along the directions given, in the layer
// given with each (the w component, an integer).
extern "C" __global__ void tex_cubemap_layered(cudaTextureObject_t t, const float4 *dirs, float4 *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n) {
      float4 d = dirs[i];
      out[i] = texCubemapLayered<float4>(t, d.x, d.y, d.z, (int)d.w);
   }
}

// texCubemapGrad: the gradients (direction space) choose the level of a
// mipmapped cubemap.
extern "C" __global__ void tex_cubemap_grad(cudaTextureObject_t t, const float4 *dirs, const float4 *grads,
                                            float4 *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n) {
      float4 d = dirs[i], gx = grads[2 * i], gy = grads[2 * i + 1];
      out[i] = texCubemapGrad<float4>(t, d.x, d.y, d.z, gx, gy);
   }
}

extern "C" __global__ void tex_cubemap_layered_grad(cudaTextureObject_t t, const float4 *dirs, const float4 *grads,
                                                    float4 *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n) {
      float4 d = dirs[i], gx = grads[2 * i], gy = grads[2 * i + 1];
      out[i] = texCubemapLayeredGrad<float4>(t, d.x, d.y, d.z, (int)d.w, gx, gy);
   }
}

// sust.p, the formatted store (no C++ call emits it: inline PTX): each
// texel gets n 32-bit values (floats, or integers, as the surface's
// format takes them), converted to the surface's format.
extern "C" __global__ void surf2d_formatted(cudaSurfaceObject_t s, const uint4 *vals, int w, int h, int n)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y;
   if (x >= w || y >= h)
      return;
   uint4 v = vals[y * w + x];
   if (n == 1)
      asm volatile("sust.p.2d.b32.trap [%0, {%1, %2}], {%3};" ::"l"(s), "r"(x), "r"(y), "r"(v.x) : "memory");
   else if (n == 2)
      asm volatile("sust.p.2d.v2.b32.trap [%0, {%1, %2}], {%3, %4};" ::"l"(s), "r"(x), "r"(y), "r"(v.x), "r"(v.y)
                   : "memory");
   else
      asm volatile("sust.p.2d.v4.b32.trap [%0, {%1, %2}], {%3, %4, %5, %6};" ::"l"(s), "r"(x), "r"(y), "r"(v.x),
                   "r"(v.y), "r"(v.z), "r"(v.w)
                   : "memory");
}

extern "C" __global__ void tex2d_int_shift(cudaTextureObject_t t, int *out, int w, int h, float shift)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y;
   if (x < w && y < h)
      out[y * w + x] = tex2D<int>(t, x + shift, y + shift);
}

// tex2D<uint4> at texel coordinates shifted by shift: integer reads
// outside the texture (border colours).
extern "C" __global__ void tex2d_uint4_shift(cudaTextureObject_t t, uint4 *out, int w, int h, float shift)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y;
   if (x < w && y < h)
      out[y * w + x] = tex2D<uint4>(t, x + shift, y + shift);
}

// tex2DGrad with a footprint of gx texels' width along x and gy along y
// (normalised): anisotropic where they differ.
extern "C" __global__ void tex2d_grad_aniso(cudaTextureObject_t t, float4 *out, int w, int h, float gx, float gy)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y;
   if (x < w && y < h)
      out[y * w + x] = tex2DGrad<float4>(t, (x + 0.5f) / w, (y + 0.5f) / h, make_float2(gx, 0.0f),
                                         make_float2(0.0f, gy));
}
