/*
 * The array issue's acceptance program, built against NVIDIA's cuda.h
 * (only its folder is on the include path) and linked with nothing but
 * -lcuda from cuvk's drop-in folder, as a user's program would be:
 *
 *  - Vulkan exports a 9-level RGBA8 image and writes a level; CUDA maps it
 *    and reads that level;
 *  - CUDA writes another level from pitched host memory; Vulkan reads it;
 *  - a 3D sub-box of a float array goes to the host;
 *  - every bad mipmapped-array descriptor gives CUDA_ERROR_INVALID_VALUE;
 *  - and neither side's Vulkan instance sees a validation message (cuvk's
 *    aborts under CUVK_VALIDATION_FATAL; the exporter's are counted).
 */
#include <cuda.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_vk.h"

static int failures;

#define CHECK(cond)                                                   \
   do {                                                               \
      if (!(cond)) {                                                  \
         fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #cond); \
         failures++;                                                  \
      }                                                               \
   } while (0)

#define EXPECT(want, call)                                                         \
   do {                                                                            \
      CUresult res_ = (call);                                                      \
      if (res_ != (want)) {                                                        \
         const char *name_ = NULL;                                                 \
         cuGetErrorName(res_, &name_);                                             \
         fprintf(stderr, "%s:%d: FAIL: %s gave %s (%d)\n", __FILE__, __LINE__, #call, \
                 name_ ? name_ : "?", (int)res_);                                  \
         failures++;                                                               \
      }                                                                            \
   } while (0)

static void
fill(uint8_t *p, size_t n, unsigned seed)
{
   for (size_t i = 0; i < n; i++)
      p[i] = (uint8_t)((i * 131 + seed * 17 + (i >> 8)) ^ seed);
}

static CUresult
map(CUexternalMemory ext, unsigned long long offset, size_t w, size_t h, CUarray_format f, unsigned ch,
    unsigned levels, CUmipmappedArray *out)
{
   CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC d;
   memset(&d, 0, sizeof(d));
   d.offset = offset;
   d.arrayDesc.Width = w;
   d.arrayDesc.Height = h;
   d.arrayDesc.Format = f;
   d.arrayDesc.NumChannels = ch;
   d.numLevels = levels;
   return cuExternalMemoryGetMappedMipmappedArray(out, ext, &d);
}

int
main(void)
{
   struct avk vk;
   CUdevice dev;
   CUcontext ctx;

   EXPECT(CUDA_SUCCESS, cuInit(0));
   EXPECT(CUDA_SUCCESS, cuDeviceGet(&dev, 0));
   EXPECT(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx, dev));
   EXPECT(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
   if (failures || !avk_init(&vk, "array.nvidia_header.done_when")) {
      fprintf(stderr, "setup failed\n");
      return 1;
   }

   /* The exported 9-level RGBA8 image; Vulkan writes level 3. */
   VkImageCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
      .imageType = VK_IMAGE_TYPE_2D,
      .format = VK_FORMAT_R8G8B8A8_UNORM,
      .extent = { 256, 256, 1 },
      .mipLevels = 9,
      .arrayLayers = 1,
      .samples = VK_SAMPLE_COUNT_1_BIT,
      .tiling = VK_IMAGE_TILING_OPTIMAL,
      .usage = VK_IMAGE_USAGE_SAMPLED_BIT,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
      .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
   };
   struct avk_image img;
   CHECK(avk_image_create(&vk, &info, true, 0, &img));
   uint8_t *level3 = malloc(32 * 32 * 4), *got = malloc(64 * 64 * 4);
   fill(level3, 32 * 32 * 4, 3);
   CHECK(avk_write_level(&vk, &img, 3, level3));

   CUDA_EXTERNAL_MEMORY_HANDLE_DESC hd;
   memset(&hd, 0, sizeof(hd));
   hd.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
   hd.handle.fd = img.fd;
   hd.size = img.allocation_size;
   hd.flags = CUDA_EXTERNAL_MEMORY_DEDICATED;
   CUexternalMemory ext;
   EXPECT(CUDA_SUCCESS, cuImportExternalMemory(&ext, &hd));
   CUmipmappedArray mip;
   EXPECT(CUDA_SUCCESS, map(ext, 0, 256, 256, CU_AD_FORMAT_UNSIGNED_INT8, 4, 9, &mip));
   CUarray a3, a2;
   EXPECT(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&a3, mip, 3));
   EXPECT(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&a2, mip, 2));

   /* CUDA reads the level Vulkan wrote. */
   CUDA_MEMCPY2D p;
   memset(&p, 0, sizeof(p));
   p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
   p.srcArray = a3;
   p.dstMemoryType = CU_MEMORYTYPE_HOST;
   p.dstHost = got;
   p.dstPitch = 32 * 4;
   p.WidthInBytes = 32 * 4;
   p.Height = 32;
   EXPECT(CUDA_SUCCESS, cuMemcpy2D(&p));
   CHECK(memcmp(got, level3, 32 * 32 * 4) == 0);

   /* CUDA writes level 2 from pitched host memory; Vulkan reads it. */
   const size_t pitch = 64 * 4 + 96;
   uint8_t *pitched = calloc(pitch, 64), *want = malloc(64 * 64 * 4);
   fill(want, 64 * 64 * 4, 2);
   for (size_t y = 0; y < 64; y++)
      memcpy(pitched + y * pitch, want + y * 64 * 4, 64 * 4);
   memset(&p, 0, sizeof(p));
   p.srcMemoryType = CU_MEMORYTYPE_HOST;
   p.srcHost = pitched;
   p.srcPitch = pitch;
   p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
   p.dstArray = a2;
   p.WidthInBytes = 64 * 4;
   p.Height = 64;
   EXPECT(CUDA_SUCCESS, cuMemcpy2D(&p));
   EXPECT(CUDA_SUCCESS, cuCtxSynchronize());
   CHECK(avk_read_level(&vk, &img, 2, got));
   CHECK(memcmp(got, want, 64 * 64 * 4) == 0);

   /* Every bad descriptor. */
   CUmipmappedArray bad;
   EXPECT(CUDA_ERROR_INVALID_VALUE, map(ext, 0, 256, 256, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0, &bad));
   EXPECT(CUDA_ERROR_INVALID_VALUE, map(ext, 0, 256, 256, CU_AD_FORMAT_UNSIGNED_INT8, 4, 10, &bad));
   EXPECT(CUDA_ERROR_INVALID_VALUE, map(ext, 0, 512, 512, CU_AD_FORMAT_UNSIGNED_INT8, 4, 10, &bad));
   EXPECT(CUDA_ERROR_INVALID_VALUE, map(ext, 0, 256, 256, (CUarray_format)0x42, 4, 9, &bad));
   EXPECT(CUDA_ERROR_INVALID_VALUE, map(ext, 0, 256, 256, CU_AD_FORMAT_UNSIGNED_INT8, 3, 9, &bad));
   EXPECT(CUDA_ERROR_INVALID_VALUE, map(ext, 0, 0, 256, CU_AD_FORMAT_UNSIGNED_INT8, 4, 9, &bad));
   EXPECT(CUDA_ERROR_INVALID_VALUE, map(ext, img.allocation_size, 256, 256, CU_AD_FORMAT_UNSIGNED_INT8, 4, 1,
                                        &bad));
   EXPECT(CUDA_ERROR_INVALID_VALUE, map(ext, 4, 256, 256, CU_AD_FORMAT_UNSIGNED_INT8, 4, 9, &bad));
   EXPECT(CUDA_ERROR_INVALID_VALUE, map(ext, 0, 256, 256, CU_AD_FORMAT_FLOAT, 4, 9, &bad));

   EXPECT(CUDA_SUCCESS, cuMipmappedArrayDestroy(mip));
   EXPECT(CUDA_SUCCESS, cuDestroyExternalMemory(ext));

   /* A 3D sub-box of a float array to the host. */
   CUDA_ARRAY3D_DESCRIPTOR ad;
   memset(&ad, 0, sizeof(ad));
   ad.Width = 32;
   ad.Height = 16;
   ad.Depth = 8;
   ad.Format = CU_AD_FORMAT_FLOAT;
   ad.NumChannels = 1;
   CUarray f3d;
   EXPECT(CUDA_SUCCESS, cuArray3DCreate(&f3d, &ad));
   float *vol = malloc(32 * 16 * 8 * sizeof(float));
   for (size_t i = 0; i < 32 * 16 * 8; i++)
      vol[i] = (float)i * 0.5f;
   CUDA_MEMCPY3D p3;
   memset(&p3, 0, sizeof(p3));
   p3.srcMemoryType = CU_MEMORYTYPE_HOST;
   p3.srcHost = vol;
   p3.srcPitch = 32 * sizeof(float);
   p3.srcHeight = 16;
   p3.dstMemoryType = CU_MEMORYTYPE_ARRAY;
   p3.dstArray = f3d;
   p3.WidthInBytes = 32 * sizeof(float);
   p3.Height = 16;
   p3.Depth = 8;
   EXPECT(CUDA_SUCCESS, cuMemcpy3D(&p3));

   const size_t bw = 10, bh = 7, bd = 4, hp = 16, hh = 9;
   float *box = calloc(hp * hh * bd, sizeof(float));
   memset(&p3, 0, sizeof(p3));
   p3.srcMemoryType = CU_MEMORYTYPE_ARRAY;
   p3.srcArray = f3d;
   p3.srcXInBytes = 4 * sizeof(float);
   p3.srcY = 3;
   p3.srcZ = 2;
   p3.dstMemoryType = CU_MEMORYTYPE_HOST;
   p3.dstHost = box;
   p3.dstPitch = hp * sizeof(float);
   p3.dstHeight = hh;
   p3.WidthInBytes = bw * sizeof(float);
   p3.Height = bh;
   p3.Depth = bd;
   EXPECT(CUDA_SUCCESS, cuMemcpy3D(&p3));
   for (size_t z = 0; z < bd; z++)
      for (size_t y = 0; y < bh; y++)
         for (size_t x = 0; x < bw; x++)
            CHECK(box[(z * hh + y) * hp + x] == vol[((z + 2) * 16 + y + 3) * 32 + x + 4]);
   EXPECT(CUDA_SUCCESS, cuArrayDestroy(f3d));

   avk_image_destroy(&vk, &img);
   unsigned messages = avk_finish(&vk);
   CHECK(messages == 0);
   EXPECT(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(dev));
   free(level3);
   free(got);
   free(pitched);
   free(want);
   free(vol);
   free(box);
   printf("array.nvidia_header.done_when: %s\n", failures ? "FAIL" : "pass");
   return failures ? 1 : 0;
}
