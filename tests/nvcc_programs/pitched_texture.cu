// nvcc_programs.pitched_texture: the usual way to feed a pitched
// texture.  cudaMallocPitch, cudaMemcpy2D from a tightly packed host
// image, a texture object over the pitched memory (point filtering,
// unnormalised coordinates) read with tex2D, every texel checked; then
// cudaMemset2D of a box and cudaMemcpy2D back, padding and all.
#include "check.h"

#include <vector>

__global__ void read_texels(cudaTextureObject_t tex, float *out, int w, int h)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y * blockDim.y + threadIdx.y;
   if (x < w && y < h)
      out[y * w + x] = tex2D<float>(tex, x + 0.5f, y + 0.5f);
}

__global__ void read_texels_uchar4(cudaTextureObject_t tex, uchar4 *out, int w, int h)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y * blockDim.y + threadIdx.y;
   if (x < w && y < h)
      out[y * w + x] = tex2D<uchar4>(tex, x + 0.5f, y + 0.5f);
}

static cudaTextureObject_t
make_texture(void *ptr, size_t pitch, int w, int h, cudaChannelFormatDesc desc)
{
   cudaResourceDesc res;
   std::memset(&res, 0, sizeof(res));
   res.resType = cudaResourceTypePitch2D;
   res.res.pitch2D.devPtr = ptr;
   res.res.pitch2D.desc = desc;
   res.res.pitch2D.width = w;
   res.res.pitch2D.height = h;
   res.res.pitch2D.pitchInBytes = pitch;
   cudaTextureDesc td;
   std::memset(&td, 0, sizeof(td));
   td.addressMode[0] = cudaAddressModeClamp;
   td.addressMode[1] = cudaAddressModeClamp;
   td.filterMode = cudaFilterModePoint;
   td.readMode = cudaReadModeElementType;
   td.normalizedCoords = 0;
   cudaTextureObject_t tex = 0;
   CHECK_CUDA(cudaCreateTextureObject(&tex, &res, &td, nullptr));
   return tex;
}

int
main()
{
   check_bound_to_cuvk();
   const int w = 123, h = 77;   // odd sizes: rows are padded to the pitch
   dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);

   // float texels.
   std::vector<float> img(w * h), got(w * h);
   for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
         img[y * w + x] = (float)(y * 1000 + x) * 0.25f;
   int align = 0;
   CHECK_CUDA(cudaDeviceGetAttribute(&align, cudaDevAttrTexturePitchAlignment, 0));
   float *dimg = nullptr, *dout = nullptr;
   size_t pitch = 0;
   CHECK_CUDA(cudaMallocPitch((void **)&dimg, &pitch, w * sizeof(float), h));
   CHECK(pitch >= w * sizeof(float) && align > 0 && pitch % align == 0);
   CHECK_CUDA(cudaMemcpy2D(dimg, pitch, img.data(), w * sizeof(float), w * sizeof(float), h,
                           cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMalloc(&dout, w * h * sizeof(float)));
   cudaTextureObject_t tex = make_texture(dimg, pitch, w, h, cudaCreateChannelDesc<float>());
   read_texels<<<grid, block>>>(tex, dout, w, h);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got.data(), dout, w * h * sizeof(float), cudaMemcpyDeviceToHost));
   int bad = 0;
   for (int i = 0; i < w * h; i++)
      if (got[i] != img[i] && bad++ < 5)
         std::fprintf(stderr, "float texel (%d,%d): %g, want %g\n", i % w, i / w, got[i], img[i]);
   CHECK(bad == 0);
   CHECK_CUDA(cudaDestroyTextureObject(tex));

   // uchar4 texels, the image written with cudaMemcpy2DAsync on a stream.
   std::vector<uchar4> img4(w * h), got4(w * h);
   for (int i = 0; i < w * h; i++)
      img4[i] = make_uchar4(i & 0xff, (i >> 8) & 0xff, (i * 7) & 0xff, 255 - (i & 0xff));
   uchar4 *dimg4 = nullptr, *dout4 = nullptr;
   size_t pitch4 = 0;
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
   CHECK_CUDA(cudaMallocPitch((void **)&dimg4, &pitch4, w * sizeof(uchar4), h));
   CHECK(pitch4 >= w * sizeof(uchar4) && pitch4 % align == 0);
   CHECK_CUDA(cudaMemcpy2DAsync(dimg4, pitch4, img4.data(), w * sizeof(uchar4), w * sizeof(uchar4), h,
                                cudaMemcpyHostToDevice, s));
   CHECK_CUDA(cudaMalloc(&dout4, w * h * sizeof(uchar4)));
   cudaTextureObject_t tex4 = make_texture(dimg4, pitch4, w, h, cudaCreateChannelDesc<uchar4>());
   read_texels_uchar4<<<grid, block, 0, s>>>(tex4, dout4, w, h);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpyAsync(got4.data(), dout4, w * h * sizeof(uchar4), cudaMemcpyDeviceToHost, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   bad = 0;
   for (int i = 0; i < w * h; i++) {
      const uchar4 a = got4[i], b = img4[i];
      if ((a.x != b.x || a.y != b.y || a.z != b.z || a.w != b.w) && bad++ < 5)
         std::fprintf(stderr, "uchar4 texel (%d,%d) differs\n", i % w, i / w);
   }
   CHECK(bad == 0);
   CHECK_CUDA(cudaDestroyTextureObject(tex4));

   // A fill of a box and the whole pitched image back, padding included:
   // the padding is still what the first copy left there (nothing).
   std::vector<unsigned char> before(pitch * h), after(pitch * h);
   CHECK_CUDA(cudaMemcpy(before.data(), dimg, pitch * h, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemset2D((char *)dimg + 3 * pitch + 8, pitch, 0x7f, 40, 20));
   CHECK_CUDA(cudaMemcpy2D(after.data(), pitch, dimg, pitch, pitch, h, cudaMemcpyDeviceToHost));
   for (int y = 3; y < 23; y++)
      std::memset(&before[y * pitch + 8], 0x7f, 40);
   CHECK(std::memcmp(before.data(), after.data(), pitch * h) == 0);

   CHECK_CUDA(cudaFree(dimg));
   CHECK_CUDA(cudaFree(dout));
   CHECK_CUDA(cudaFree(dimg4));
   CHECK_CUDA(cudaFree(dout4));
   CHECK_CUDA(cudaStreamDestroy(s));
   return check_finish("pitched_texture");
}
