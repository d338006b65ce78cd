// Textures and surfaces over images imported from Vulkan
// (tests/texture/test_texture_import_views.c): one texel per thread at
// its centre, as each result type, and a surface store of each width.

extern "C" __global__ void tex2d_f4(cudaTextureObject_t t, float4 *out, int w, int h)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y;
   if (x < w && y < h)
      out[y * w + x] = tex2D<float4>(t, x + 0.5f, y + 0.5f);
}

extern "C" __global__ void tex2d_u4(cudaTextureObject_t t, uint4 *out, int w, int h)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y;
   if (x < w && y < h)
      out[y * w + x] = tex2D<uint4>(t, x + 0.5f, y + 0.5f);
}

extern "C" __global__ void tex2d_i4(cudaTextureObject_t t, int4 *out, int w, int h)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y;
   if (x < w && y < h)
      out[y * w + x] = tex2D<int4>(t, x + 0.5f, y + 0.5f);
}

// tld4: the red component of the four texels around (x + 1, y + 1).
extern "C" __global__ void tex2d_gather_f4(cudaTextureObject_t t, float4 *out, int w, int h)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y;
   if (x < w && y < h)
      out[y * w + x] = tex2Dgather<float4>(t, x + 1.0f, y + 1.0f, 0);
}

// Each texel's bytes from its coordinates: byte i of texel (x, y) is
// (x * 7 + y * 13 + i * 29 + seed) & 0xff.
extern "C" __global__ void surf2d_write_bytes(cudaSurfaceObject_t s, int w, int h, int bytes, int seed)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y;
   if (x >= w || y >= h)
      return;
   unsigned v[4];
   for (int i = 0; i < 4; i++)
      v[i] = (x * 7 + y * 13 + i * 29 + seed) & 0xff;
   if (bytes == 1)
      surf2Dwrite((unsigned char)v[0], s, x, y);
   else if (bytes == 2)
      surf2Dwrite((unsigned short)(v[0] | v[1] << 8), s, x * 2, y);
   else
      surf2Dwrite(v[0] | v[1] << 8 | v[2] << 16 | v[3] << 24, s, x * 4, y);
}
