/*
 * texture.import_views.*: textures and surfaces over images a Vulkan
 * application exported without VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT (or
 * with a format list that leaves the needed format out), so that cuvk
 * cannot view them in the format a texture reads.  The texture then
 * views the image's own format and the kernel converts each sample
 * (docs/textures.md, "Imported images that cannot be viewed so"); each
 * read mode and resource view CUDA takes is checked against a host
 * reference of the texels Vulkan wrote, surfaces are written by a kernel
 * and read back by Vulkan, and linear filtering that a conversion cannot
 * do is refused with CUDA_ERROR_NOT_SUPPORTED.  Before the conversion,
 * every texture here but the plain-view controls was
 * CUDA_ERROR_NOT_SUPPORTED, and the format-list case made an image view
 * the validation layer rejects.
 *
 * Each case plays both sides in one process (tests/array/array_vk.h),
 * with cuvk's layer in front of the validation layer (fatal in cuvk's
 * instance; counted in the exporter's).
 *
 *    test_texture_import_views CASE TEXTURE_IMPORT.ptx
 */
#include <cuda.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_vk.h"
#include "driver_harness.h"

enum { W = 16, H = 8 };

static CUmodule mod;
static struct avk vk;

/* An image the exporter made and wrote, mapped as a one-level array. */
struct imported {
   struct avk_image img;
   CUexternalMemory ext;
   CUmipmappedArray mip;
   CUarray level;
   uint8_t data[H][W][16];       /* what Vulkan wrote, texel by texel */
   unsigned texel;               /* bytes */
};

/* Byte i of texel (x, y): a bijection of the texel's index scrambled
 * (times 37, odd), bytes 0 and 1 apart by 128, so that the first two
 * channels of 8-bit formats hold every value from 0 to 255 between
 * them (the sRGB round trip of every code is checked). */
static uint8_t
byte_at(int x, int y, int i, int seed)
{
   return (uint8_t)((((y * W + x) + 128 * (i & 1) + 64 * (i >> 1)) * 37 + seed) & 0xff);
}

/* Exports a W x H image of format with usage (plus TRANSFER) and flags,
 * and list (count formats) chained, writes its texels, imports it and
 * maps it as cf x ch with array_flags.  With no_record the exporter runs
 * without cuvk's layer (the env decides) and the memory is not
 * dedicated. */
static bool
import(VkFormat format, VkImageUsageFlags usage, VkImageCreateFlags flags, const VkFormat *list, uint32_t count,
       bool dedicated, CUarray_format cf, unsigned ch, unsigned array_flags, struct imported *out)
{
   memset(out, 0, sizeof(*out));
   VkImageFormatListCreateInfo list_info = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO,
      .viewFormatCount = count,
      .pViewFormats = list,
   };
   VkImageCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
      .pNext = count ? &list_info : NULL,
      .flags = flags,
      .imageType = VK_IMAGE_TYPE_2D,
      .format = format,
      .extent = {W, H, 1},
      .mipLevels = 1,
      .arrayLayers = 1,
      .samples = VK_SAMPLE_COUNT_1_BIT,
      .tiling = VK_IMAGE_TILING_OPTIMAL,
      .usage = usage,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
      .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
   };
   if (!avk_image_create(&vk, &info, dedicated, 0, &out->img)) {
      CHECK(!"exporting the image failed");
      return false;
   }
   out->texel = out->img.elem_size;
   uint8_t *packed = malloc((size_t)W * H * out->texel);
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         for (unsigned i = 0; i < out->texel; i++)
            packed[(y * W + x) * out->texel + i] = out->data[y][x][i] = byte_at(x, y, (int)i, 5);
   bool wrote = avk_write_level(&vk, &out->img, 0, packed);
   free(packed);
   CHECK(wrote);

   CUDA_EXTERNAL_MEMORY_HANDLE_DESC hd;
   memset(&hd, 0, sizeof(hd));
   hd.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
   hd.handle.fd = out->img.fd;
   hd.size = out->img.allocation_size;
   hd.flags = dedicated ? CUDA_EXTERNAL_MEMORY_DEDICATED : 0;
   OK(cuImportExternalMemory(&out->ext, &hd));
   out->img.fd = -1;
   CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC md;
   memset(&md, 0, sizeof(md));
   md.offset = out->img.offset;
   md.arrayDesc = (CUDA_ARRAY3D_DESCRIPTOR){W, H, 0, cf, ch, array_flags};
   md.numLevels = 1;
   OK(cuExternalMemoryGetMappedMipmappedArray(&out->mip, out->ext, &md));
   if (out->mip)
      OK(cuMipmappedArrayGetLevel(&out->level, out->mip, 0));
   return out->level != NULL;
}

static void
imported_free(struct imported *im)
{
   if (im->mip)
      OK(cuMipmappedArrayDestroy(im->mip));
   if (im->ext)
      OK(cuDestroyExternalMemory(im->ext));
   avk_image_destroy(&vk, &im->img);
}

/* cuTexObjectCreate over the array: clamp, texel coordinates, the
 * filter, flags and a resource view format (0: none). */
static CUresult
texture(const struct imported *im, CUfilter_mode filter, unsigned flags, CUresourceViewFormat view, CUtexObject *t)
{
   CUDA_RESOURCE_DESC rd;
   memset(&rd, 0, sizeof(rd));
   rd.resType = CU_RESOURCE_TYPE_ARRAY;
   rd.res.array.hArray = im->level;
   CUDA_TEXTURE_DESC td;
   memset(&td, 0, sizeof(td));
   td.filterMode = filter;
   td.flags = flags;
   CUDA_RESOURCE_VIEW_DESC vd;
   memset(&vd, 0, sizeof(vd));
   vd.format = view;
   vd.width = W;
   vd.height = H;
   *t = 0;
   return cuTexObjectCreate(t, &rd, &td, view ? &vd : NULL);
}

/* Runs kernel name (tex2d_f4, _u4, _i4: 16 bytes a texel out) over t. */
static void
sample(CUtexObject t, const char *name, uint32_t out[H][W][4])
{
   CUfunction f = NULL;
   OK(cuModuleGetFunction(&f, mod, name));
   CUdeviceptr d = 0;
   OK(cuMemAlloc(&d, sizeof(uint32_t) * H * W * 4));
   OK(cuMemsetD8(d, 0xcd, sizeof(uint32_t) * H * W * 4));
   int w = W, h = H;
   void *args[] = {&t, &d, &w, &h};
   OK(cuLaunchKernel(f, 1, H, 1, W, 1, 1, 0, NULL, args, NULL));
   OK(cuCtxSynchronize());
   OK(cuMemcpyDtoH(out, d, sizeof(uint32_t) * H * W * 4));
   OK(cuMemFree(d));
}

/* How the host reads channel c of a texel: the channel's bits as the
 * texture reads them. */
enum kind { K_UINT, K_SINT, K_UNORM, K_SNORM, K_SRGB, K_HALF };

static double
srgb_to_linear(double v)
{
   return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

static double
half_to_double(uint16_t h)
{
   int e = (h >> 10) & 0x1f, m = h & 0x3ff;
   double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
   return (h & 0x8000) ? -v : v;
}

/* Checks a sample of every texel: channels channels of bits bits read
 * as kind (the rest 0), floats within tol, integers exactly. */
static void
check_texels(const struct imported *im, const uint32_t got[H][W][4], unsigned channels, unsigned bits,
             enum kind kind, double tol, const char *what)
{
   unsigned bad = 0;
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         for (unsigned c = 0; c < 4; c++) {
            uint32_t raw = 0;
            for (unsigned b = 0; b < bits / 8 && c < channels; b++)
               raw |= (uint32_t)im->data[y][x][c * bits / 8 + b] << (8 * b);
            double max = bits == 8 ? 255.0 : 65535.0, smax = bits == 8 ? 127.0 : 32767.0;
            int32_t sext = bits == 8 ? (int8_t)raw : (int16_t)raw;
            bool is_float = kind != K_UINT && kind != K_SINT;
            double want = 0;
            switch (kind) {
            case K_UINT: want = raw; break;
            case K_SINT: want = sext; break;
            case K_UNORM: want = raw / max; break;
            case K_SNORM: want = fmax(sext / smax, -1.0); break;
            case K_SRGB: want = c < 3 ? srgb_to_linear(raw / 255.0) : raw / 255.0; break;
            case K_HALF: want = half_to_double((uint16_t)raw); break;
            }
            if (c >= channels)
               want = 0;
            double have;
            if (is_float) {
               float f;
               memcpy(&f, &got[y][x][c], 4);
               have = f;
            } else {
               have = kind == K_SINT ? (double)(int32_t)got[y][x][c] : (double)got[y][x][c];
            }
            /* Float results within tol, and a float's rounding at
             * least; NaN halves read NaN; half denormals may flush. */
            bool ok = is_float ? fabs(have - want) <= fmax(tol, 2e-7) || (isnan(want) && isnan(have)) ||
                                    (kind == K_HALF && fabs(want) < 0x1p-14 && have == 0)
                               : have == want;
            if (!ok && bad++ < 5)
               fprintf(stderr, "%s: texel (%d, %d) channel %u (bits 0x%x) = %.9g, expected %.9g\n", what, x, y, c,
                       raw, have, want);
         }
   if (bad)
      fprintf(stderr, "%s: %u wrong\n", what, bad);
   CHECK(bad == 0);
}

/* One texture of im read through kernel name and checked; or, with
 * want != CUDA_SUCCESS, its creation refused so. */
static void
read_case(const struct imported *im, CUfilter_mode filter, unsigned flags, CUresourceViewFormat view,
          CUresult want, const char *name, unsigned channels, unsigned bits, enum kind kind, double tol,
          const char *what)
{
   CUtexObject t;
   CUresult res = texture(im, filter, flags, view, &t);
   if (res != want)
      fprintf(stderr, "%s: cuTexObjectCreate gave %d, expected %d\n", what, (int)res, (int)want);
   CHECK(res == want);
   if (res != CUDA_SUCCESS)
      return;
   static uint32_t got[H][W][4];
   sample(t, name, got);
   check_texels(im, got, channels, bits, kind, tol, what);
   OK(cuTexObjectDestroy(t));
}

/* What a pow-based sRGB decode may differ from the exact one by
 * (lavapipe: 2.6e-7, see texture.kernel.fetch_linear_formats): the
 * kernel's, where a conversion decodes. */
#define SRGB_TOL 4e-6
/* The device's own decode of an _SRGB view: lavapipe's is off by up to
 * 9e-4 (0x71 reads 0.166023 for 0.165132), NVIDIA's (H100, linear
 * filtering) by up to 3.7e-3 (0xfb reads 0.9609375 for 0.9646862): about
 * one 8-bit step, which is what this allows. */
#define SRGB_HW_TOL (1.0 / 255.0)

/* An R8G8B8A8_UNORM image with a format list of its own format only
 * (no MUTABLE_FORMAT: the layer leaves such an image alone), mapped as
 * UNSIGNED_INT8 x4. */
static void
case_unorm_image(void)
{
   static const VkFormat own[] = {VK_FORMAT_R8G8B8A8_UNORM};
   struct imported im;
   if (import(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_SAMPLED_BIT, 0, own, 1, true, CU_AD_FORMAT_UNSIGNED_INT8, 4,
              0, &im)) {
      /* The image's own view: normalised floats, point and linear (at
       * texel centres linear filtering returns the texel). */
      read_case(&im, CU_TR_FILTER_MODE_POINT, 0, 0, CUDA_SUCCESS, "tex2d_f4", 4, 8, K_UNORM, 0, "unorm, default");
      read_case(&im, CU_TR_FILTER_MODE_LINEAR, 0, 0, CUDA_SUCCESS, "tex2d_f4", 4, 8, K_UNORM, 1e-6,
                "unorm, default, linear");
      /* Converted: integers from the UNORM view, exactly; CUDA's linear
       * filtering of integers samples the nearest texel. */
      read_case(&im, CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER, 0, CUDA_SUCCESS, "tex2d_u4", 4, 8, K_UINT, 0,
                "unorm, as integer");
      read_case(&im, CU_TR_FILTER_MODE_LINEAR, CU_TRSF_READ_AS_INTEGER, 0, CUDA_SUCCESS, "tex2d_u4", 4, 8, K_UINT,
                0, "unorm, as integer, linear (point)");
      /* sRGB from the UNORM view. */
      read_case(&im, CU_TR_FILTER_MODE_POINT, CU_TRSF_SRGB, 0, CUDA_SUCCESS, "tex2d_f4", 4, 8, K_SRGB, SRGB_TOL,
                "unorm, sRGB");
      read_case(&im, CU_TR_FILTER_MODE_LINEAR, CU_TRSF_SRGB, 0, CUDA_ERROR_NOT_SUPPORTED, NULL, 0, 0, K_UINT, 0,
                "unorm, sRGB, linear");
      /* Resource views of the signed twin: signed normalised floats
       * and signed integers from the same bytes. */
      read_case(&im, CU_TR_FILTER_MODE_POINT, 0, CU_RES_VIEW_FORMAT_SINT_4X8, CUDA_SUCCESS, "tex2d_f4", 4, 8, K_SNORM,
                1e-7, "unorm, SINT_4X8 view");
      read_case(&im, CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER, CU_RES_VIEW_FORMAT_SINT_4X8, CUDA_SUCCESS,
                "tex2d_i4", 4, 8, K_SINT, 0, "unorm, SINT_4X8 view, as integer");
      /* Border mode: transparent black converts to itself; another
       * colour would read through the conversion, and is refused. */
      for (int white = 0; white < 2; white++) {
         CUDA_RESOURCE_DESC rd;
         memset(&rd, 0, sizeof(rd));
         rd.resType = CU_RESOURCE_TYPE_ARRAY;
         rd.res.array.hArray = im.level;
         CUDA_TEXTURE_DESC td;
         memset(&td, 0, sizeof(td));
         td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_BORDER;
         td.flags = CU_TRSF_READ_AS_INTEGER;
         for (int c = 0; c < 4; c++)
            td.borderColor[c] = white ? 1.0f : 0.0f;
         CUtexObject t = 0;
         CHECK_CU(cuTexObjectCreate(&t, &rd, &td, NULL),
                  white ? CUDA_ERROR_NOT_SUPPORTED : CUDA_SUCCESS);
         if (t) {
            static uint32_t got[H][W][4];
            sample(t, "tex2d_u4", got);
            check_texels(&im, got, 4, 8, K_UINT, 0, "unorm, as integer, border");
            OK(cuTexObjectDestroy(t));
         }
      }
      /* A view whose channels differ (one 32-bit word): no conversion. */
      read_case(&im, CU_TR_FILTER_MODE_POINT, 0, CU_RES_VIEW_FORMAT_UINT_1X32, CUDA_ERROR_NOT_SUPPORTED, NULL, 0, 0,
                K_UINT, 0, "unorm, UINT_1X32 view");
   }
   imported_free(&im);
}

/* An R8G8B8A8_SRGB image (the layer cannot make it storable, so it
 * stays as made): its own view decodes; the UNORM and integer reads
 * encode back, exactly. */
static void
case_srgb_image(void)
{
   struct imported im;
   if (import(VK_FORMAT_R8G8B8A8_SRGB, VK_IMAGE_USAGE_SAMPLED_BIT, 0, NULL, 0, true, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0,
              &im)) {
      read_case(&im, CU_TR_FILTER_MODE_POINT, CU_TRSF_SRGB, 0, CUDA_SUCCESS, "tex2d_f4", 4, 8, K_SRGB, SRGB_HW_TOL,
                "srgb, sRGB");
      read_case(&im, CU_TR_FILTER_MODE_POINT, 0, 0, CUDA_SUCCESS, "tex2d_f4", 4, 8, K_UNORM, 0, "srgb, default");
      read_case(&im, CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER, 0, CUDA_SUCCESS, "tex2d_u4", 4, 8, K_UINT, 0,
                "srgb, as integer");
      read_case(&im, CU_TR_FILTER_MODE_LINEAR, 0, 0, CUDA_ERROR_NOT_SUPPORTED, NULL, 0, 0, K_UINT, 0,
                "srgb, default, linear");
   }
   imported_free(&im);
}

/* A surface over the import writes every texel's first `bytes` bytes
 * with surf2d_write_bytes' pattern; Vulkan reads the image back and every
 * byte is checked, and the model takes the new texels for the reads
 * that follow. */
static void
surface_write_check(struct imported *im, int bytes, int seed)
{
   CUDA_RESOURCE_DESC rd;
   memset(&rd, 0, sizeof(rd));
   rd.resType = CU_RESOURCE_TYPE_ARRAY;
   rd.res.array.hArray = im->level;
   CUsurfObject s = 0;
   OK(cuSurfObjectCreate(&s, &rd));
   CUfunction f = NULL;
   OK(cuModuleGetFunction(&f, mod, "surf2d_write_bytes"));
   int w = W, h = H;
   void *args[] = {&s, &w, &h, &bytes, &seed};
   OK(cuLaunchKernel(f, 1, H, 1, W, 1, 1, 0, NULL, args, NULL));
   OK(cuCtxSynchronize());
   if (s)
      OK(cuSurfObjectDestroy(s));
   static uint8_t back[H][W][4];
   CHECK(avk_read_level(&vk, &im->img, 0, back));
   const uint8_t *got = &back[0][0][0];
   unsigned bad = 0;
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         for (int i = 0; i < bytes; i++) {
            uint8_t want = (uint8_t)((x * 7 + y * 13 + i * 29 + seed) & 0xff);
            uint8_t have = got[(y * W + x) * bytes + i];
            if (have != want && bad++ < 5)
               fprintf(stderr, "surface texel (%d, %d) byte %d = %u, expected %u\n", x, y, i, have, want);
            im->data[y][x][i] = want;
         }
   CHECK(bad == 0);
}

/* An R8_UINT image with storage (its raw view is its own format, so the
 * layer adds no MUTABLE_FORMAT): normalised, sRGB and signed reads
 * convert; a surface writes it and Vulkan reads what it wrote. */
static void
case_uint_image(void)
{
   struct imported im;
   if (import(VK_FORMAT_R8_UINT, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT, 0, NULL, 0, true,
              CU_AD_FORMAT_UNSIGNED_INT8, 1, CUDA_ARRAY3D_SURFACE_LDST, &im)) {
      read_case(&im, CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER, 0, CUDA_SUCCESS, "tex2d_u4", 1, 8, K_UINT, 0,
                "uint, as integer");
      read_case(&im, CU_TR_FILTER_MODE_POINT, 0, 0, CUDA_SUCCESS, "tex2d_f4", 1, 8, K_UNORM, 0, "uint, default");
      read_case(&im, CU_TR_FILTER_MODE_POINT, CU_TRSF_SRGB, 0, CUDA_SUCCESS, "tex2d_f4", 1, 8, K_SRGB, SRGB_TOL,
                "uint, sRGB");
      read_case(&im, CU_TR_FILTER_MODE_LINEAR, 0, 0, CUDA_ERROR_NOT_SUPPORTED, NULL, 0, 0, K_UINT, 0,
                "uint, default, linear");
      read_case(&im, CU_TR_FILTER_MODE_POINT, 0, CU_RES_VIEW_FORMAT_SINT_1X8, CUDA_SUCCESS, "tex2d_f4", 1, 8, K_SNORM,
                1e-7, "uint, SINT_1X8 view");
      /* (Signed integers from the unsigned view would need a kernel
       * reading sint to sample the uint binding too: on lavapipe that
       * third binding does not fit, and such a launch faults, see
       * docs/textures.md.) */

      /* A surface writes every texel; Vulkan reads them back. */
      surface_write_check(&im, 1, 100);
      /* The textures read what the surface wrote. */
      read_case(&im, CU_TR_FILTER_MODE_POINT, 0, 0, CUDA_SUCCESS, "tex2d_f4", 1, 8, K_UNORM, 0,
                "uint, default, after the surface");
   }
   imported_free(&im);
}

/* Whether a kernel's stage fits three sampled bindings of cuvk's slot
 * count (cuvk_texture_target: half the per-stage sampled descriptors, at
 * most 256): room for every conversion path's bindings. */
static bool
three_bindings_fit(void)
{
   const VkPhysicalDeviceLimits *l = &vk.h.properties.limits;
   uint32_t sampled = l->maxPerStageDescriptorSamplers;
   if (l->maxPerStageDescriptorSampledImages < sampled)
      sampled = l->maxPerStageDescriptorSampledImages;
   if (l->maxPerStageResources < sampled)
      sampled = l->maxPerStageResources;
   uint32_t slots = sampled / 2 < 256 ? sampled / 2 : 256;
   return 3ull * slots <= sampled;
}

/* A kernel reading signed integers from an R8_UINT image through a
 * SINT_1X8 view needs the uint binding besides its sint one and the
 * float one its conversion path declares first: where the stage holds
 * three (NVIDIA) the texels read sign-extended; where it does not
 * (lavapipe: 32 samplers, 16 slots a binding) the launch fails with
 * CUDA_ERROR_ILLEGAL_ADDRESS rather than read the stand-in. */
static void
case_third_binding(void)
{
   struct imported im;
   if (import(VK_FORMAT_R8_UINT, VK_IMAGE_USAGE_SAMPLED_BIT, 0, NULL, 0, true, CU_AD_FORMAT_UNSIGNED_INT8, 1, 0,
              &im)) {
      bool fits = three_bindings_fit();
      printf("three sampled bindings %s the stage\n", fits ? "fit" : "do not fit");
      CUtexObject t = 0;
      OK(texture(&im, CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER, CU_RES_VIEW_FORMAT_SINT_1X8, &t));
      CUfunction f = NULL;
      OK(cuModuleGetFunction(&f, mod, "tex2d_i4"));
      CUdeviceptr d = 0;
      OK(cuMemAlloc(&d, sizeof(uint32_t) * H * W * 4));
      int w = W, h = H;
      void *args[] = {&t, &d, &w, &h};
      OK(cuLaunchKernel(f, 1, H, 1, W, 1, 1, 0, NULL, args, NULL));
      if (fits) {
         OK(cuCtxSynchronize());
         static uint32_t got[H][W][4];
         OK(cuMemcpyDtoH(got, d, sizeof(got)));
         check_texels(&im, got, 1, 8, K_SINT, 0, "uint, SINT_1X8 view, as integer");
         OK(cuMemFree(d));
         OK(cuTexObjectDestroy(t));
      } else {
         CHECK_CU(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
         /* The faulted context takes no more work: the primary
          * context's release frees the memory, the texture, the array
          * and the import. */
         im.mip = NULL;
         im.ext = NULL;
      }
   }
   imported_free(&im);
}

/* 16-bit channels: an R16G16_UINT image read as normalised floats and,
 * through a FLOAT_2X16 view, as halves. */
static void
case_uint16_image(void)
{
   struct imported im;
   if (import(VK_FORMAT_R16G16_UINT, VK_IMAGE_USAGE_SAMPLED_BIT, 0, (const VkFormat[]){VK_FORMAT_R16G16_UINT}, 1,
              true, CU_AD_FORMAT_UNSIGNED_INT16, 2, 0, &im)) {
      read_case(&im, CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER, 0, CUDA_SUCCESS, "tex2d_u4", 2, 16, K_UINT, 0,
                "uint16, as integer");
      read_case(&im, CU_TR_FILTER_MODE_POINT, 0, 0, CUDA_SUCCESS, "tex2d_f4", 2, 16, K_UNORM, 1e-7,
                "uint16, default");
      read_case(&im, CU_TR_FILTER_MODE_POINT, 0, CU_RES_VIEW_FORMAT_FLOAT_2X16, CUDA_SUCCESS, "tex2d_f4", 2, 16,
                K_HALF, 0, "uint16, FLOAT_2X16 view");
      read_case(&im, CU_TR_FILTER_MODE_POINT, 0, CU_RES_VIEW_FORMAT_SINT_2X16, CUDA_SUCCESS, "tex2d_f4", 2, 16,
                K_SNORM, 1e-7, "uint16, SINT_2X16 view");
   }
   imported_free(&im);
}

/* MUTABLE_FORMAT with a format list that names UNORM and sRGB: the sRGB
 * read views the image so (the list has it), the integer read, which
 * the list leaves out, converts. */
static void
case_format_list(void)
{
   static const VkFormat list[] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB};
   struct imported im;
   if (import(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_SAMPLED_BIT, VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT, list, 2, true,
              CU_AD_FORMAT_UNSIGNED_INT8, 4, 0, &im)) {
      read_case(&im, CU_TR_FILTER_MODE_LINEAR, CU_TRSF_SRGB, 0, CUDA_SUCCESS, "tex2d_f4", 4, 8, K_SRGB, SRGB_HW_TOL,
                "list, sRGB, linear");
      read_case(&im, CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER, 0, CUDA_SUCCESS, "tex2d_u4", 4, 8, K_UINT, 0,
                "list, as integer");
   }
   imported_free(&im);
}

/* Without cuvk's layer the image is made from the descriptor, as
 * R8G8B8A8_UINT without MUTABLE_FORMAT: normalised reads convert. */
static void
case_no_record(void)
{
   struct imported im;
   if (import(VK_FORMAT_R8G8B8A8_UINT, VK_IMAGE_USAGE_SAMPLED_BIT, 0, NULL, 0, false, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0,
              &im)) {
      read_case(&im, CU_TR_FILTER_MODE_POINT, 0, 0, CUDA_SUCCESS, "tex2d_f4", 4, 8, K_UNORM, 0, "no record, default");
      read_case(&im, CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER, 0, CUDA_SUCCESS, "tex2d_u4", 4, 8, K_UINT, 0,
                "no record, as integer");
   }
   imported_free(&im);
}

/* An R8G8B8A8_UNORM image made with transfer usage only, as
 * vulkanImageCUDA makes its texture: the layer widens it (SAMPLED,
 * STORAGE, MUTABLE_FORMAT) with a format list of exactly the formats
 * cuvk views it as (docs/layer.md), which the import repeats.  Every
 * read below goes through a view of its own format, none converts: the
 * linear sRGB and integer reads a conversion refuses are made, and
 * textures and a surface give the texels Vulkan wrote and reads back. */
static void
case_widened_image(void)
{
   struct imported im;
   if (import(VK_FORMAT_R8G8B8A8_UNORM, 0, 0, NULL, 0, true, CU_AD_FORMAT_UNSIGNED_INT8, 4,
              CUDA_ARRAY3D_SURFACE_LDST, &im)) {
      for (int pass = 0; pass < 2; pass++) {
         const char *when = pass ? ", after the surface" : "";
         char what[96];
#define READ(filter, flags, view, kernel, channels, bits, kind, tol, name)                             \
         snprintf(what, sizeof(what), "widened, %s%s", name, when);                                  \
         read_case(&im, filter, flags, view, CUDA_SUCCESS, kernel, channels, bits, kind, tol, what)
         READ(CU_TR_FILTER_MODE_POINT, 0, 0, "tex2d_f4", 4, 8, K_UNORM, 0, "default");
         READ(CU_TR_FILTER_MODE_LINEAR, 0, 0, "tex2d_f4", 4, 8, K_UNORM, 1e-6, "default, linear");
         READ(CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER, 0, "tex2d_u4", 4, 8, K_UINT, 0, "as integer");
         READ(CU_TR_FILTER_MODE_LINEAR, CU_TRSF_READ_AS_INTEGER, 0, "tex2d_u4", 4, 8, K_UINT, 0,
              "as integer, linear (point)");
         READ(CU_TR_FILTER_MODE_POINT, CU_TRSF_SRGB, 0, "tex2d_f4", 4, 8, K_SRGB, SRGB_HW_TOL, "sRGB");
         READ(CU_TR_FILTER_MODE_LINEAR, CU_TRSF_SRGB, 0, "tex2d_f4", 4, 8, K_SRGB, SRGB_HW_TOL, "sRGB, linear");
         READ(CU_TR_FILTER_MODE_POINT, 0, CU_RES_VIEW_FORMAT_SINT_4X8, "tex2d_f4", 4, 8, K_SNORM, 1e-7,
              "SINT_4X8 view");
         READ(CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER, CU_RES_VIEW_FORMAT_SINT_4X8, "tex2d_i4", 4, 8, K_SINT,
              0, "SINT_4X8 view, as integer");
         READ(CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER, CU_RES_VIEW_FORMAT_UINT_2X16, "tex2d_u4", 2, 16,
              K_UINT, 0, "UINT_2X16 view, as integer");
         READ(CU_TR_FILTER_MODE_POINT, 0, CU_RES_VIEW_FORMAT_UINT_2X16, "tex2d_f4", 2, 16, K_UNORM, 1e-7,
              "UINT_2X16 view");
#undef READ
         if (pass)
            break;

         /* A surface (the raw R32_UINT view) writes every texel; Vulkan
          * reads them back, and the textures read them next pass. */
         surface_write_check(&im, 4, 100);
      }
   }
   imported_free(&im);
}

static const struct drv_case cases[] = {
   {"texture.import_views.widened_image", case_widened_image},
   {"texture.import_views.widened_image.validation_first", case_widened_image},
   {"texture.import_views.unorm_image", case_unorm_image},
   {"texture.import_views.srgb_image", case_srgb_image},
   {"texture.import_views.uint_image", case_uint_image},
   {"texture.import_views.uint16_image", case_uint16_image},
   {"texture.import_views.format_list", case_format_list},
   {"texture.import_views.no_record", case_no_record},
   {"texture.import_views.third_binding", case_third_binding},
};

/* The exporter, before cuvk's context; its validation messages after it. */
static bool
exporter_init(const char *name)
{
   if (!avk_init(&vk, name)) {
      fprintf(stderr, "cannot set up the Vulkan exporter\n");
      return false;
   }
   return true;
}

static void
exporter_finish(void)
{
   unsigned messages = avk_finish(&vk);
   if (messages)
      fprintf(stderr, "the exporter's instance saw %u validation message(s)\n", messages);
   CHECK(messages == 0);
}

int
main(int argc, char **argv)
{
   return drv_test_main(argc, argv, &(struct drv_program){
      .cases = cases,
      .count = sizeof(cases) / sizeof(cases[0]),
      .usage = "CASE TEXTURE_IMPORT.ptx",
      .module = &mod,
      .before = exporter_init,
      .after = exporter_finish,
   });
}
