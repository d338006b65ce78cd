/*
 * cuda_api/texture_desc.c: every field of a texture or surface plan and
 * every description CUDA rejects, first on described arrays (no device),
 * then on real array handles of device 0 (NULL, live, destroyed, levels).
 */
#include <math.h>
#include <string.h>

#include "array/array.h"
#include "array/format.h"
#include "cuda_api/driver.h"
#include "cuda_api/texture_desc.h"
#include "unit_test.h"

static const struct cuvk_tex_desc_limits limits = {
   .texture_alignment = 256,
   .pitch_alignment = 512,
   .max_1d_linear = 1 << 20,
   .max_2d_linear = { 16384, 16384, 16384 * 16 },
   .max_anisotropy = 16.0f,
   .max_lod_bias = 4.0f,
   .custom_border_color = true,
};

static struct cuvk_tex_source
source(CUarray_format format, unsigned channels, size_t w, size_t h, size_t d, unsigned flags,
       uint32_t levels)
{
   struct cuvk_tex_source src = {
      .desc = { .Width = w, .Height = h, .Depth = d, .Format = format, .NumChannels = channels, .Flags = flags },
      .levels = levels,
   };
   if (cuvk_format_lookup(format, channels, "test", &src.format) != CUDA_SUCCESS)
      src.format = NULL;
   return src;
}

static CUDA_RESOURCE_DESC
array_res(void)
{
   CUDA_RESOURCE_DESC res = { .resType = CU_RESOURCE_TYPE_ARRAY };
   res.res.array.hArray = (CUarray)0x1000;   /* never looked up by plan_build */
   return res;
}

static CUDA_TEXTURE_DESC
tex_desc(CUfilter_mode filter, unsigned flags)
{
   return (CUDA_TEXTURE_DESC){ .filterMode = filter, .flags = flags };
}

static CUresult
build(const CUDA_RESOURCE_DESC *res, const CUDA_TEXTURE_DESC *tex, const CUDA_RESOURCE_VIEW_DESC *view,
      const struct cuvk_tex_source *src, struct cuvk_tex_plan *plan)
{
   memset(plan, 0xa5, sizeof(*plan));
   return cuvk_tex_plan_build(res, tex, view, src, &limits, plan);
}

static bool
near(float a, float b)
{
   return fabsf(a - b) <= 1e-6f * fmaxf(1.0f, fabsf(b));
}

static void
test_bad_descriptions(void)
{
   struct cuvk_tex_source src = source(CU_AD_FORMAT_FLOAT, 1, 64, 32, 0, 0, 1);
   CUDA_RESOURCE_DESC res = array_res();
   CUDA_TEXTURE_DESC tex = tex_desc(CU_TR_FILTER_MODE_POINT, 0);
   struct cuvk_tex_plan plan;

   UNIT_CHECK(build(NULL, &tex, NULL, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(build(&res, NULL, NULL, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_tex_plan_build(&res, &tex, NULL, &src, NULL, &plan) == CUDA_ERROR_INVALID_VALUE);

   CUDA_RESOURCE_DESC bad = res;
   bad.resType = (CUresourcetype)7;
   UNIT_CHECK(build(&bad, &tex, NULL, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   bad = res;
   bad.flags = 1;
   UNIT_CHECK(build(&bad, &tex, NULL, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(build(&res, &tex, NULL, NULL, &plan) == CUDA_ERROR_INVALID_VALUE);

   CUDA_TEXTURE_DESC t = tex;
   t.addressMode[2] = (CUaddress_mode)4;
   UNIT_CHECK(build(&res, &t, NULL, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   t = tex;
   t.filterMode = (CUfilter_mode)2;
   UNIT_CHECK(build(&res, &t, NULL, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   t = tex;
   t.mipmapFilterMode = (CUfilter_mode)2;
   UNIT_CHECK(build(&res, &t, NULL, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   t = tex;
   t.flags = 0x4;
   UNIT_CHECK(build(&res, &t, NULL, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   t = tex;
   t.maxMipmapLevelClamp = NAN;
   UNIT_CHECK(build(&res, &t, NULL, &src, &plan) == CUDA_SUCCESS);
   t = tex;
   t.flags = CU_TRSF_SEAMLESS_CUBEMAP;
   UNIT_CHECK(build(&res, &t, NULL, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
}

static void
test_linear(void)
{
   CUDA_RESOURCE_DESC res = { .resType = CU_RESOURCE_TYPE_LINEAR };
   res.res.linear.devPtr = 0x10000;
   res.res.linear.format = CU_AD_FORMAT_FLOAT;
   res.res.linear.numChannels = 2;
   res.res.linear.sizeInBytes = 4096 + 5;
   /* Linear memory is never filtered nor addressed: the sampler is
    * nearest and clamped whatever the description says. */
   CUDA_TEXTURE_DESC tex = tex_desc(CU_TR_FILTER_MODE_LINEAR, 0);
   tex.addressMode[0] = CU_TR_ADDRESS_MODE_WRAP;
   struct cuvk_tex_plan plan;

   UNIT_CHECK(build(&res, &tex, NULL, NULL, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.kind == CU_RESOURCE_TYPE_LINEAR);
   UNIT_CHECK(plan.address == 0x10000 && plan.size == 4101);
   UNIT_CHECK(!plan.array && !plan.mipmap);
   UNIT_CHECK(plan.texel_size == 8 && plan.extent.width == 512 && plan.extent.height == 1);
   UNIT_CHECK(plan.view_format == VK_FORMAT_R32G32_SFLOAT && plan.sampled == CUVK_TEX_SAMPLED_FLOAT);
   UNIT_CHECK(plan.view_type == VK_IMAGE_VIEW_TYPE_1D && plan.coords == 1);
   UNIT_CHECK(plan.sampler.magFilter == VK_FILTER_NEAREST);
   UNIT_CHECK(plan.sampler.addressModeU == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
   UNIT_CHECK(plan.coord_scale[0] == 1.0f);

   CUDA_RESOURCE_DESC r = res;
   r.res.linear.format = CU_AD_FORMAT_UNSIGNED_INT8;
   r.res.linear.numChannels = 4;
   tex.flags = CU_TRSF_READ_AS_INTEGER;
   /* A linear filter over integers read as integers: taken, as real CUDA
    * takes it (tests/texture/codes_cuda_h100.txt), and sampled as point. */
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_SUCCESS);
   tex.filterMode = CU_TR_FILTER_MODE_POINT;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.view_format == VK_FORMAT_R8G8B8A8_UINT && plan.sampled == CUVK_TEX_SAMPLED_UINT);
   tex.filterMode = CU_TR_FILTER_MODE_LINEAR;
   tex.flags = 0;
   r.res.linear.format = CU_AD_FORMAT_SIGNED_INT32;
   r.res.linear.numChannels = 1;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_SUCCESS);
   /* 10-10-10-2 and the UNORM/SNORM vectors are read as normalised
    * floats (kernels decode them from memory), whatever the flags say;
    * sRGB converts only where the read is a normalised float of 8-bit
    * unsigned texels. */
   r.res.linear.format = CU_AD_FORMAT_UNORM_INT_101010_2;
   r.res.linear.numChannels = 4;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.sampled == CUVK_TEX_SAMPLED_FLOAT && !plan.srgb);
   r.res.linear.format = CU_AD_FORMAT_UNORM_INT8X4;
   tex.flags = CU_TRSF_SRGB | CU_TRSF_READ_AS_INTEGER;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.sampled == CUVK_TEX_SAMPLED_FLOAT && plan.srgb);
   r.res.linear.format = CU_AD_FORMAT_SNORM_INT8X4;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.sampled == CUVK_TEX_SAMPLED_FLOAT && !plan.srgb);
   r.res.linear.format = CU_AD_FORMAT_UNSIGNED_INT8;
   tex.flags = CU_TRSF_SRGB;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.sampled == CUVK_TEX_SAMPLED_FLOAT && plan.srgb);
   tex.flags = CU_TRSF_SRGB | CU_TRSF_READ_AS_INTEGER;
   tex.filterMode = CU_TR_FILTER_MODE_POINT;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.sampled == CUVK_TEX_SAMPLED_UINT && !plan.srgb);
   tex.flags = 0;
   tex.filterMode = CU_TR_FILTER_MODE_LINEAR;

   r = res;
   r.res.linear.devPtr = 0;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_ERROR_INVALID_VALUE);
   r.res.linear.devPtr = 0x10080;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_ERROR_INVALID_VALUE);
   r = res;
   r.res.linear.sizeInBytes = 7;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_SUCCESS);
   r.res.linear.sizeInBytes = (size_t)8 << 20;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_SUCCESS);
   r.res.linear.sizeInBytes += 8;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_SUCCESS);
   r = res;
   r.res.linear.numChannels = 3;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_ERROR_INVALID_VALUE);
   r.res.linear.format = (CUarray_format)0x77;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_ERROR_INVALID_VALUE);
   r = res;
   r.res.linear.format = CU_AD_FORMAT_BC1_UNORM;
   r.res.linear.numChannels = 4;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_ERROR_INVALID_VALUE);

   CUDA_RESOURCE_VIEW_DESC view = { .width = 512 };
   UNIT_CHECK(build(&res, &tex, &view, NULL, &plan) == CUDA_ERROR_INVALID_VALUE);
}

static void
test_pitch2d(void)
{
   CUDA_RESOURCE_DESC res = { .resType = CU_RESOURCE_TYPE_PITCH2D };
   res.res.pitch2D.devPtr = 0x20000;
   res.res.pitch2D.format = CU_AD_FORMAT_HALF;
   res.res.pitch2D.numChannels = 4;
   res.res.pitch2D.width = 100;
   res.res.pitch2D.height = 50;
   res.res.pitch2D.pitchInBytes = 1024;
   CUDA_TEXTURE_DESC tex = tex_desc(CU_TR_FILTER_MODE_LINEAR, 0);
   tex.addressMode[0] = CU_TR_ADDRESS_MODE_WRAP;
   tex.addressMode[1] = CU_TR_ADDRESS_MODE_MIRROR;
   struct cuvk_tex_plan plan;

   UNIT_CHECK(build(&res, &tex, NULL, NULL, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.kind == CU_RESOURCE_TYPE_PITCH2D && plan.address == 0x20000 && plan.pitch == 1024);
   UNIT_CHECK(plan.extent.width == 100 && plan.extent.height == 50 && plan.extent.depth == 1);
   UNIT_CHECK(plan.texel_size == 8 && plan.view_format == VK_FORMAT_R16G16B16A16_SFLOAT);
   UNIT_CHECK(plan.view_type == VK_IMAGE_VIEW_TYPE_2D && plan.coords == 2);
   UNIT_CHECK(plan.sampler.magFilter == VK_FILTER_LINEAR && plan.sampler.minFilter == VK_FILTER_LINEAR);
   /* Texel coordinates: wrap and mirror become clamp, as CUDA does, and
    * the kernel scales the coordinates. */
   UNIT_CHECK(plan.sampler.addressModeU == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
   UNIT_CHECK(plan.sampler.addressModeV == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
   UNIT_CHECK(!plan.sampler.unnormalizedCoordinates);
   UNIT_CHECK(near(plan.coord_scale[0], 1.0f / 100) && near(plan.coord_scale[1], 1.0f / 50));
   UNIT_CHECK(plan.coord_scale[2] == 1.0f);
   UNIT_CHECK(plan.sampler.minLod == 0 && plan.sampler.maxLod == 0);

   tex.flags = CU_TRSF_NORMALIZED_COORDINATES;
   UNIT_CHECK(build(&res, &tex, NULL, NULL, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.sampler.addressModeU == VK_SAMPLER_ADDRESS_MODE_REPEAT);
   UNIT_CHECK(plan.sampler.addressModeV == VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT);
   UNIT_CHECK(plan.coord_scale[0] == 1.0f && plan.coord_scale[1] == 1.0f);

   CUDA_RESOURCE_DESC r = res;
   r.res.pitch2D.devPtr = 0x20040;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_ERROR_INVALID_VALUE);
   r = res;
   r.res.pitch2D.pitchInBytes = 1000;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_ERROR_INVALID_VALUE);
   r.res.pitch2D.pitchInBytes = 512;   /* under a row of 800 bytes */
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_SUCCESS);
   r.res.pitch2D.pitchInBytes = 16384 * 16 + 512;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_ERROR_INVALID_VALUE);
   r = res;
   r.res.pitch2D.width = 0;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_SUCCESS);
   r = res;
   r.res.pitch2D.height = 16385;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_ERROR_INVALID_VALUE);
   r = res;
   r.res.pitch2D.devPtr = 0;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_ERROR_INVALID_VALUE);

   /* Integers read as integers cannot be filtered. */
   r = res;
   r.res.pitch2D.format = CU_AD_FORMAT_UNSIGNED_INT16;
   tex.flags = CU_TRSF_READ_AS_INTEGER;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_SUCCESS);
   tex.filterMode = CU_TR_FILTER_MODE_POINT;
   UNIT_CHECK(build(&r, &tex, NULL, NULL, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.view_format == VK_FORMAT_R16G16B16A16_UINT && plan.sampled == CUVK_TEX_SAMPLED_UINT);
}

struct read_case {
   CUarray_format format;
   unsigned channels;
   unsigned flags;
   VkFormat view;
   enum cuvk_tex_sampled sampled;
   bool normalized;
   bool srgb;
   bool linear_ok;
};

static void
test_read_modes(void)
{
   static const struct read_case cases[] = {
      { CU_AD_FORMAT_UNSIGNED_INT8, 4, 0, VK_FORMAT_R8G8B8A8_UNORM, CUVK_TEX_SAMPLED_FLOAT, true, false, true },
      { CU_AD_FORMAT_UNSIGNED_INT8, 4, CU_TRSF_SRGB, VK_FORMAT_R8G8B8A8_SRGB, CUVK_TEX_SAMPLED_FLOAT, true, true, true },
      { CU_AD_FORMAT_UNSIGNED_INT8, 1, CU_TRSF_SRGB, VK_FORMAT_R8_SRGB, CUVK_TEX_SAMPLED_FLOAT, true, true, true },
      { CU_AD_FORMAT_UNSIGNED_INT8, 4, CU_TRSF_READ_AS_INTEGER, VK_FORMAT_R8G8B8A8_UINT, CUVK_TEX_SAMPLED_UINT, false, false, false },
      { CU_AD_FORMAT_SIGNED_INT8, 2, 0, VK_FORMAT_R8G8_SNORM, CUVK_TEX_SAMPLED_FLOAT, true, false, true },
      { CU_AD_FORMAT_SIGNED_INT8, 2, CU_TRSF_SRGB, VK_FORMAT_R8G8_SNORM, CUVK_TEX_SAMPLED_FLOAT, true, false, true },
      { CU_AD_FORMAT_UNSIGNED_INT16, 1, 0, VK_FORMAT_R16_UNORM, CUVK_TEX_SAMPLED_FLOAT, true, false, true },
      { CU_AD_FORMAT_SIGNED_INT16, 4, 0, VK_FORMAT_R16G16B16A16_SNORM, CUVK_TEX_SAMPLED_FLOAT, true, false, true },
      { CU_AD_FORMAT_SIGNED_INT16, 4, CU_TRSF_READ_AS_INTEGER, VK_FORMAT_R16G16B16A16_SINT, CUVK_TEX_SAMPLED_SINT, false, false, false },
      /* 32-bit integers are never promoted, whatever the flags say. */
      { CU_AD_FORMAT_UNSIGNED_INT32, 1, 0, VK_FORMAT_R32_UINT, CUVK_TEX_SAMPLED_UINT, false, false, false },
      { CU_AD_FORMAT_SIGNED_INT32, 2, 0, VK_FORMAT_R32G32_SINT, CUVK_TEX_SAMPLED_SINT, false, false, false },
      { CU_AD_FORMAT_HALF, 2, CU_TRSF_READ_AS_INTEGER, VK_FORMAT_R16G16_SFLOAT, CUVK_TEX_SAMPLED_FLOAT, false, false, true },
      { CU_AD_FORMAT_FLOAT, 4, CU_TRSF_SRGB, VK_FORMAT_R32G32B32A32_SFLOAT, CUVK_TEX_SAMPLED_FLOAT, false, false, true },
      { CU_AD_FORMAT_UNORM_INT8X4, 4, CU_TRSF_SRGB, VK_FORMAT_R8G8B8A8_SRGB, CUVK_TEX_SAMPLED_FLOAT, true, true, true },
      { CU_AD_FORMAT_SNORM_INT16X1, 1, CU_TRSF_READ_AS_INTEGER, VK_FORMAT_R16_SNORM, CUVK_TEX_SAMPLED_FLOAT, true, false, true },
      { CU_AD_FORMAT_UNORM_INT_101010_2, 4, 0, VK_FORMAT_A2B10G10R10_UNORM_PACK32, CUVK_TEX_SAMPLED_FLOAT, true, false, true },
      { CU_AD_FORMAT_BC1_UNORM, 4, 0, VK_FORMAT_BC1_RGBA_UNORM_BLOCK, CUVK_TEX_SAMPLED_FLOAT, true, false, true },
      { CU_AD_FORMAT_BC1_UNORM, 4, CU_TRSF_SRGB, VK_FORMAT_BC1_RGBA_SRGB_BLOCK, CUVK_TEX_SAMPLED_FLOAT, true, true, true },
      { CU_AD_FORMAT_BC7_UNORM_SRGB, 4, 0, VK_FORMAT_BC7_SRGB_BLOCK, CUVK_TEX_SAMPLED_FLOAT, true, true, true },
      { CU_AD_FORMAT_BC6H_SF16, 3, 0, VK_FORMAT_BC6H_SFLOAT_BLOCK, CUVK_TEX_SAMPLED_FLOAT, false, false, true },
   };
   CUDA_RESOURCE_DESC res = array_res();
   struct cuvk_tex_plan plan;

   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      const struct read_case *c = &cases[i];
      struct cuvk_tex_source src = source(c->format, c->channels, 64, 64, 0, 0, 1);
      UNIT_CHECK(src.format != NULL);
      CUDA_TEXTURE_DESC tex = tex_desc(CU_TR_FILTER_MODE_POINT, c->flags);
      CUresult r = build(&res, &tex, NULL, &src, &plan);
      UNIT_CHECK(r == CUDA_SUCCESS);
      if (r != CUDA_SUCCESS)
         continue;
      if (plan.view_format != c->view || plan.sampled != c->sampled || plan.normalized_read != c->normalized ||
          plan.srgb != c->srgb)
         fprintf(stderr, "read case %u: view %d sampled %d normalized %d srgb %d\n", i, plan.view_format,
                 plan.sampled, plan.normalized_read, plan.srgb);
      UNIT_CHECK(plan.view_format == c->view);
      UNIT_CHECK(plan.sampled == c->sampled);
      UNIT_CHECK(plan.normalized_read == c->normalized);
      UNIT_CHECK(plan.srgb == c->srgb);
      UNIT_CHECK(plan.format == src.format && plan.texel_size == src.format->elem_size);
      tex.filterMode = CU_TR_FILTER_MODE_LINEAR;
      r = build(&res, &tex, NULL, &src, &plan);
      UNIT_CHECK(r == CUDA_SUCCESS && plan.point_only == !c->linear_ok);
   }
}

struct dim_case {
   size_t w, h, d;
   unsigned flags;
   VkImageViewType type;
   unsigned coords;
   uint32_t layers;
   VkExtent3D extent;
};

static void
test_dimensions(void)
{
   static const struct dim_case cases[] = {
      { 100, 0, 0, 0, VK_IMAGE_VIEW_TYPE_1D, 1, 1, { 100, 1, 1 } },
      { 100, 40, 0, 0, VK_IMAGE_VIEW_TYPE_2D, 2, 1, { 100, 40, 1 } },
      { 100, 40, 8, 0, VK_IMAGE_VIEW_TYPE_3D, 3, 1, { 100, 40, 8 } },
      { 100, 0, 5, CUDA_ARRAY3D_LAYERED, VK_IMAGE_VIEW_TYPE_1D_ARRAY, 1, 5, { 100, 1, 1 } },
      { 100, 40, 5, CUDA_ARRAY3D_LAYERED, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 2, 5, { 100, 40, 1 } },
      { 32, 32, 6, CUDA_ARRAY3D_CUBEMAP, VK_IMAGE_VIEW_TYPE_CUBE, 3, 6, { 32, 32, 1 } },
      { 32, 32, 18, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED, VK_IMAGE_VIEW_TYPE_CUBE_ARRAY, 3, 18, { 32, 32, 1 } },
   };
   CUDA_RESOURCE_DESC res = array_res();
   struct cuvk_tex_plan plan;

   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      const struct dim_case *c = &cases[i];
      struct cuvk_tex_source src = source(CU_AD_FORMAT_FLOAT, 1, c->w, c->h, c->d, c->flags, 1);
      CUDA_TEXTURE_DESC tex = tex_desc(CU_TR_FILTER_MODE_LINEAR, 0);
      for (unsigned a = 0; a < 3; a++)
         tex.addressMode[a] = CU_TR_ADDRESS_MODE_BORDER;
      UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
      UNIT_CHECK(plan.kind == CU_RESOURCE_TYPE_ARRAY);
      UNIT_CHECK(plan.view_type == c->type);
      UNIT_CHECK(plan.coords == c->coords);
      UNIT_CHECK(plan.base_layer == 0 && plan.layer_count == c->layers);
      UNIT_CHECK(plan.base_level == 0 && plan.level_count == 1);
      UNIT_CHECK(plan.extent.width == c->extent.width && plan.extent.height == c->extent.height &&
                 plan.extent.depth == c->extent.depth);
      bool cube = c->flags & CUDA_ARRAY3D_CUBEMAP;
      /* One level of a 1D or 2D image: the sampler takes texel
       * coordinates, and nothing is scaled. */
      bool texel = c->type == VK_IMAGE_VIEW_TYPE_1D || c->type == VK_IMAGE_VIEW_TYPE_2D;
      UNIT_CHECK(plan.texel_coords == texel);
      UNIT_CHECK(plan.sampler.unnormalizedCoordinates == (texel ? VK_TRUE : VK_FALSE));
      if (texel)
         UNIT_CHECK(plan.sampler.minLod == 0.0f && plan.sampler.maxLod == 0.0f && !plan.sampler.anisotropyEnable);
      const uint32_t ext[3] = { c->extent.width, c->extent.height, c->extent.depth };
      for (unsigned a = 0; a < 3; a++) {
         float want = !cube && !texel && a < c->coords ? 1.0f / (float)ext[a] : 1.0f;
         UNIT_CHECK(near(plan.coord_scale[a], want));
      }
      /* Cube maps ignore address modes (seamless faces); the rest keep
       * the border. */
      VkSamplerAddressMode want_mode =
         cube ? VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE : VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
      UNIT_CHECK(plan.sampler.addressModeU == want_mode);
      tex.flags = CU_TRSF_SEAMLESS_CUBEMAP;
      UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == (cube ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE));
   }

   /* A level of a mipmapped array is an array at that image level. */
   struct cuvk_tex_source src = source(CU_AD_FORMAT_FLOAT, 1, 16, 16, 0, 0, 1);
   src.level = 2;
   CUDA_TEXTURE_DESC tex = tex_desc(CU_TR_FILTER_MODE_POINT, 0);
   UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.base_level == 2 && plan.level_count == 1 && plan.extent.width == 16);
}

static void
test_sampler(void)
{
   struct cuvk_tex_source src = source(CU_AD_FORMAT_FLOAT, 4, 64, 64, 0, 0, 1);
   CUDA_RESOURCE_DESC res = array_res();
   CUDA_TEXTURE_DESC tex = tex_desc(CU_TR_FILTER_MODE_LINEAR, CU_TRSF_NORMALIZED_COORDINATES);
   tex.addressMode[0] = CU_TR_ADDRESS_MODE_WRAP;
   tex.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
   tex.addressMode[2] = CU_TR_ADDRESS_MODE_MIRROR;
   struct cuvk_tex_plan plan;

   UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.sampler.sType == VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO && !plan.sampler.pNext);
   UNIT_CHECK(plan.sampler.addressModeU == VK_SAMPLER_ADDRESS_MODE_REPEAT);
   UNIT_CHECK(plan.sampler.addressModeV == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
   UNIT_CHECK(plan.sampler.addressModeW == VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT);
   UNIT_CHECK(plan.sampler.mipmapMode == VK_SAMPLER_MIPMAP_MODE_NEAREST);
   UNIT_CHECK(!plan.sampler.anisotropyEnable && !plan.sampler.compareEnable);
   UNIT_CHECK(!plan.sampler.unnormalizedCoordinates && !plan.custom_border);
   UNIT_CHECK(plan.coord_scale[0] == 1.0f && plan.coord_scale[1] == 1.0f);

   /* Anisotropy: clamped to [1, 16] and the device's limit, linear
    * filters only. */
   tex.maxAnisotropy = 8;
   UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.sampler.anisotropyEnable && plan.sampler.maxAnisotropy == 8.0f);
   tex.maxAnisotropy = 64;
   UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.sampler.anisotropyEnable && plan.sampler.maxAnisotropy == 16.0f);
   struct cuvk_tex_desc_limits few = limits;
   few.max_anisotropy = 4.0f;
   UNIT_CHECK(cuvk_tex_plan_build(&res, &tex, NULL, &src, &few, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.sampler.anisotropyEnable && plan.sampler.maxAnisotropy == 4.0f);
   few.max_anisotropy = 0;
   UNIT_CHECK(cuvk_tex_plan_build(&res, &tex, NULL, &src, &few, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(!plan.sampler.anisotropyEnable);
   tex.filterMode = CU_TR_FILTER_MODE_POINT;
   UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(!plan.sampler.anisotropyEnable && plan.sampler.magFilter == VK_FILTER_NEAREST);
   tex.maxAnisotropy = 1;
   tex.filterMode = CU_TR_FILTER_MODE_LINEAR;
   UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(!plan.sampler.anisotropyEnable);

   /* Mipmap settings are ignored for a plain array. */
   tex.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
   tex.maxMipmapLevelClamp = 5;
   tex.mipmapLevelBias = 1;
   UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.sampler.mipmapMode == VK_SAMPLER_MIPMAP_MODE_NEAREST);
   UNIT_CHECK(plan.sampler.maxLod == 0 && plan.sampler.mipLodBias == 0);
}

static void
test_border(void)
{
   struct cuvk_tex_source src = source(CU_AD_FORMAT_UNSIGNED_INT8, 4, 64, 64, 0, 0, 1);
   CUDA_RESOURCE_DESC res = array_res();
   CUDA_TEXTURE_DESC tex = tex_desc(CU_TR_FILTER_MODE_POINT, CU_TRSF_NORMALIZED_COORDINATES);
   tex.addressMode[0] = CU_TR_ADDRESS_MODE_BORDER;
   tex.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
   struct cuvk_tex_plan plan;

   /* Standard colours need no extension. */
   UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.sampler.addressModeU == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
   UNIT_CHECK(plan.sampler.borderColor == VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK && !plan.custom_border);
   for (unsigned c = 0; c < 4; c++)
      tex.borderColor[c] = 1.0f;
   UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.sampler.borderColor == VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE && !plan.custom_border);

   /* Any other colour: custom where the device has it... */
   tex.borderColor[0] = 1.0f;
   tex.borderColor[1] = 0.25f;
   tex.borderColor[2] = 0.0f;
   tex.borderColor[3] = 1.0f;
   UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.custom_border && plan.sampler.borderColor == VK_BORDER_COLOR_FLOAT_CUSTOM_EXT);
   UNIT_CHECK(plan.border.sType == VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT);
   UNIT_CHECK(plan.border.format == VK_FORMAT_R8G8B8A8_UNORM);
   UNIT_CHECK(plan.border.customBorderColor.float32[1] == 0.25f);

   /* ...else not supported (a near colour would read wrong values);
    * pitched memory has no sampler, and the kernel reads any colour. */
   struct cuvk_tex_desc_limits plain = limits;
   plain.custom_border_color = false;
   UNIT_CHECK(cuvk_tex_plan_build(&res, &tex, NULL, &src, &plain, &plan) == CUDA_ERROR_NOT_SUPPORTED);
   CUDA_RESOURCE_DESC pitched = { .resType = CU_RESOURCE_TYPE_PITCH2D };
   pitched.res.pitch2D.devPtr = 0x10000;
   pitched.res.pitch2D.format = CU_AD_FORMAT_UNSIGNED_INT8;
   pitched.res.pitch2D.numChannels = 4;
   pitched.res.pitch2D.width = 64;
   pitched.res.pitch2D.height = 64;
   pitched.res.pitch2D.pitchInBytes = 512;
   UNIT_CHECK(cuvk_tex_plan_build(&pitched, &tex, NULL, NULL, &plain, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(!plan.custom_border);

   /* Integer textures: integer border colours. */
   tex.flags |= CU_TRSF_READ_AS_INTEGER;
   UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.custom_border && plan.sampler.borderColor == VK_BORDER_COLOR_INT_CUSTOM_EXT);
   UNIT_CHECK(plan.border.format == VK_FORMAT_R8G8B8A8_UINT);
   UNIT_CHECK(plan.border.customBorderColor.uint32[0] == 1 && plan.border.customBorderColor.uint32[1] == 0);
   tex.borderColor[0] = 0;
   tex.borderColor[1] = 0;
   tex.borderColor[3] = 1;
   UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(!plan.custom_border && plan.sampler.borderColor == VK_BORDER_COLOR_INT_OPAQUE_BLACK);

   /* customBorderColorWithoutFormat: the colour names no format. */
   struct cuvk_tex_desc_limits no_format = limits;
   no_format.custom_border_without_format = true;
   tex.borderColor[1] = 200;
   UNIT_CHECK(cuvk_tex_plan_build(&res, &tex, NULL, &src, &no_format, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.custom_border && plan.border.format == VK_FORMAT_UNDEFINED);
   UNIT_CHECK(plan.border.customBorderColor.uint32[1] == 200);
   /* Integer colours clamp to the type's range, NaN reads 0. */
   tex.borderColor[0] = -7;
   tex.borderColor[1] = 1e20f;
   tex.borderColor[2] = NAN;
   UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.border.customBorderColor.uint32[0] == 0 &&
              plan.border.customBorderColor.uint32[1] == UINT32_MAX && plan.border.customBorderColor.uint32[2] == 0);
   struct cuvk_tex_source sint = source(CU_AD_FORMAT_SIGNED_INT32, 4, 64, 64, 0, 0, 1);
   tex.borderColor[1] = -1e20f;
   UNIT_CHECK(build(&res, &tex, NULL, &sint, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.border.customBorderColor.int32[0] == -7 && plan.border.customBorderColor.int32[1] == INT32_MIN);

   /* The channels a format lacks read 0, border included: the colour is
    * compared and given with them zeroed, so (0, 0, 0, 1) of one channel
    * is transparent black, (1, 1, 1, 1) white, and a custom colour has
    * zeros there. */
   struct cuvk_tex_source one = source(CU_AD_FORMAT_FLOAT, 1, 64, 64, 0, 0, 1);
   struct cuvk_tex_source two = source(CU_AD_FORMAT_HALF, 2, 64, 64, 0, 0, 1);
   tex = tex_desc(CU_TR_FILTER_MODE_POINT, 0);
   tex.addressMode[0] = CU_TR_ADDRESS_MODE_BORDER;
   tex.borderColor[3] = 1;
   UNIT_CHECK(cuvk_tex_plan_build(&res, &tex, NULL, &one, &plain, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(!plan.custom_border && plan.sampler.borderColor == VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK);
   tex.borderColor[0] = tex.borderColor[1] = tex.borderColor[2] = 1;
   UNIT_CHECK(cuvk_tex_plan_build(&res, &tex, NULL, &one, &plain, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(!plan.custom_border && plan.sampler.borderColor == VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE);
   tex.borderColor[1] = 0.5f;
   UNIT_CHECK(cuvk_tex_plan_build(&res, &tex, NULL, &one, &plain, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(cuvk_tex_plan_build(&res, &tex, NULL, &two, &plain, &plan) == CUDA_ERROR_NOT_SUPPORTED);
   UNIT_CHECK(build(&res, &tex, NULL, &two, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.custom_border && plan.border.format == VK_FORMAT_R16G16_SFLOAT);
   UNIT_CHECK(plan.border.customBorderColor.float32[0] == 1 && plan.border.customBorderColor.float32[1] == 0.5f &&
              plan.border.customBorderColor.float32[2] == 0 && plan.border.customBorderColor.float32[3] == 0);

   /* A border on a dimension the texture does not have needs no colour. */
   struct cuvk_tex_source line = source(CU_AD_FORMAT_FLOAT, 1, 64, 0, 0, 0, 1);
   tex = tex_desc(CU_TR_FILTER_MODE_POINT, 0);
   tex.addressMode[1] = CU_TR_ADDRESS_MODE_BORDER;
   tex.borderColor[0] = 0.5f;
   UNIT_CHECK(build(&res, &tex, NULL, &line, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(!plan.custom_border && plan.sampler.addressModeU == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
}

static void
test_mipmapped(void)
{
   struct cuvk_tex_source src = source(CU_AD_FORMAT_UNSIGNED_INT8, 4, 256, 128, 0, 0, 9);
   CUDA_RESOURCE_DESC res = { .resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY };
   res.res.mipmap.hMipmappedArray = (CUmipmappedArray)0x2000;
   CUDA_TEXTURE_DESC tex = tex_desc(CU_TR_FILTER_MODE_LINEAR, CU_TRSF_NORMALIZED_COORDINATES);
   tex.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
   tex.mipmapLevelBias = 0.5f;
   tex.minMipmapLevelClamp = 1.0f;
   tex.maxMipmapLevelClamp = 7.5f;
   struct cuvk_tex_plan plan;

   UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.kind == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY);
   UNIT_CHECK(plan.base_level == 0 && plan.level_count == 9);
   UNIT_CHECK(plan.extent.width == 256 && plan.extent.height == 128);
   UNIT_CHECK(plan.sampler.mipmapMode == VK_SAMPLER_MIPMAP_MODE_LINEAR);
   UNIT_CHECK(plan.sampler.mipLodBias == 0.5f && plan.sampler.minLod == 1.0f && plan.sampler.maxLod == 7.5f);

   /* Bias clamped to the device's limit, clamps kept in order. */
   tex.mipmapLevelBias = -9.0f;
   tex.minMipmapLevelClamp = 3.0f;
   tex.maxMipmapLevelClamp = 2.0f;
   UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.sampler.mipLodBias == -4.0f && plan.sampler.minLod == 3.0f && plan.sampler.maxLod == 3.0f);

   /* A view of levels 2..5: LOD 0 is level 2, and its extent. */
   CUDA_RESOURCE_VIEW_DESC view = { .width = 256, .height = 128, .firstMipmapLevel = 2, .lastMipmapLevel = 5 };
   UNIT_CHECK(build(&res, &tex, &view, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.base_level == 2 && plan.level_count == 4);
   UNIT_CHECK(plan.extent.width == 64 && plan.extent.height == 32);
   UNIT_CHECK(plan.has_view && plan.view.lastMipmapLevel == 5);
   view.lastMipmapLevel = 9;
   UNIT_CHECK(build(&res, &tex, &view, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   view.lastMipmapLevel = 1;
   UNIT_CHECK(build(&res, &tex, &view, &src, &plan) == CUDA_ERROR_INVALID_VALUE);

   /* Texel coordinates on mipmapped arrays: CUDA's documentation
    * forbids them, real CUDA takes them (codes_cuda_h100.txt). */
   tex.flags = 0;
   UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
   /* Integers read as integers with a linear mip filter: taken, point. */
   tex.flags = CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_READ_AS_INTEGER;
   tex.filterMode = CU_TR_FILTER_MODE_POINT;
   UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
   tex.mipmapFilterMode = CU_TR_FILTER_MODE_POINT;
   UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.sampled == CUVK_TEX_SAMPLED_UINT);
}

static void
test_views(void)
{
   CUDA_RESOURCE_DESC res = array_res();
   CUDA_TEXTURE_DESC tex = tex_desc(CU_TR_FILTER_MODE_POINT, 0);
   struct cuvk_tex_plan plan;

   /* Same bytes, another type. */
   struct cuvk_tex_source src = source(CU_AD_FORMAT_UNSIGNED_INT32, 1, 64, 32, 0, 0, 1);
   CUDA_RESOURCE_VIEW_DESC view = { .format = CU_RES_VIEW_FORMAT_FLOAT_1X32, .width = 64, .height = 32 };
   UNIT_CHECK(build(&res, &tex, &view, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.view_format == VK_FORMAT_R32_SFLOAT && plan.sampled == CUVK_TEX_SAMPLED_FLOAT);
   UNIT_CHECK(plan.format->cu == CU_AD_FORMAT_FLOAT);
   view.format = CU_RES_VIEW_FORMAT_UINT_4X8;
   UNIT_CHECK(build(&res, &tex, &view, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.view_format == VK_FORMAT_R8G8B8A8_UNORM && plan.texel_size == 4);
   view.format = CU_RES_VIEW_FORMAT_NONE;
   UNIT_CHECK(build(&res, &tex, &view, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.view_format == VK_FORMAT_R32_UINT);

   /* Another size, an unknown format, another extent. */
   view.format = CU_RES_VIEW_FORMAT_FLOAT_2X32;
   UNIT_CHECK(build(&res, &tex, &view, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   view.format = (CUresourceViewFormat)0x40;
   UNIT_CHECK(build(&res, &tex, &view, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   view.format = CU_RES_VIEW_FORMAT_FLOAT_1X32;
   view.width = 32;
   UNIT_CHECK(build(&res, &tex, &view, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   view.width = 64;
   view.depth = 1;
   UNIT_CHECK(build(&res, &tex, &view, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   view.depth = 0;
   view.lastLayer = 1;
   UNIT_CHECK(build(&res, &tex, &view, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   view.lastLayer = 0;
   view.lastMipmapLevel = 1;
   UNIT_CHECK(build(&res, &tex, &view, &src, &plan) == CUDA_ERROR_INVALID_VALUE);

   /* Block-compressed views: CUDA's rules checked, then refused as
    * Vulkan cannot view words as blocks. */
   struct cuvk_tex_source words = source(CU_AD_FORMAT_UNSIGNED_INT32, 2, 16, 16, 0, 0, 1);
   CUDA_RESOURCE_VIEW_DESC bc = { .format = CU_RES_VIEW_FORMAT_UNSIGNED_BC1, .width = 64, .height = 64 };
   UNIT_CHECK(build(&res, &tex, &bc, &words, &plan) == CUDA_ERROR_NOT_SUPPORTED);
   bc.width = 16;
   UNIT_CHECK(build(&res, &tex, &bc, &words, &plan) == CUDA_ERROR_INVALID_VALUE);
   bc.width = 64;
   bc.format = CU_RES_VIEW_FORMAT_UNSIGNED_BC7;
   UNIT_CHECK(build(&res, &tex, &bc, &words, &plan) == CUDA_ERROR_INVALID_VALUE);
   struct cuvk_tex_source bytes = source(CU_AD_FORMAT_UNSIGNED_INT8, 4, 16, 16, 0, 0, 1);
   bc.format = CU_RES_VIEW_FORMAT_UNSIGNED_BC1;
   UNIT_CHECK(build(&res, &tex, &bc, &bytes, &plan) == CUDA_ERROR_INVALID_VALUE);
   /* A compressed view of a compressed array: within its family only. */
   struct cuvk_tex_source srgb_blocks = source(CU_AD_FORMAT_BC1_UNORM_SRGB, 4, 16, 16, 0, 0, 1);
   CUDA_RESOURCE_VIEW_DESC same = { .format = CU_RES_VIEW_FORMAT_UNSIGNED_BC1, .width = 16, .height = 16 };
   UNIT_CHECK(build(&res, &tex, &same, &srgb_blocks, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.view_format == VK_FORMAT_BC1_RGBA_UNORM_BLOCK && !plan.srgb && plan.extent.width == 16);
   same.format = CU_RES_VIEW_FORMAT_UNSIGNED_BC4;
   UNIT_CHECK(build(&res, &tex, &same, &srgb_blocks, &plan) == CUDA_ERROR_INVALID_VALUE);
   /* An uncompressed view of a compressed array is not CUDA's either. */
   struct cuvk_tex_source blocks = source(CU_AD_FORMAT_BC1_UNORM, 4, 16, 16, 0, 0, 1);
   CUDA_RESOURCE_VIEW_DESC raw = { .format = CU_RES_VIEW_FORMAT_UINT_2X32, .width = 16, .height = 16 };
   UNIT_CHECK(build(&res, &tex, &raw, &blocks, &plan) == CUDA_ERROR_INVALID_VALUE);

   /* Layers of a layered array, and cubemaps of a layered cubemap. */
   struct cuvk_tex_source layered = source(CU_AD_FORMAT_FLOAT, 1, 8, 8, 10, CUDA_ARRAY3D_LAYERED, 1);
   CUDA_RESOURCE_VIEW_DESC lv = { .width = 8, .height = 8, .depth = 10, .firstLayer = 3, .lastLayer = 6 };
   UNIT_CHECK(build(&res, &tex, &lv, &layered, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.base_layer == 3 && plan.layer_count == 4 && plan.view_type == VK_IMAGE_VIEW_TYPE_2D_ARRAY);
   lv.lastLayer = 10;
   UNIT_CHECK(build(&res, &tex, &lv, &layered, &plan) == CUDA_ERROR_INVALID_VALUE);
   lv.firstLayer = 7;
   lv.lastLayer = 6;
   UNIT_CHECK(build(&res, &tex, &lv, &layered, &plan) == CUDA_ERROR_INVALID_VALUE);
   struct cuvk_tex_source cubes =
      source(CU_AD_FORMAT_FLOAT, 1, 8, 8, 18, CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP, 1);
   CUDA_RESOURCE_VIEW_DESC cv = { .width = 8, .height = 8, .depth = 18, .firstLayer = 1, .lastLayer = 2 };
   UNIT_CHECK(build(&res, &tex, &cv, &cubes, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.base_layer == 6 && plan.layer_count == 12);
   cv.lastLayer = 3;
   UNIT_CHECK(build(&res, &tex, &cv, &cubes, &plan) == CUDA_ERROR_INVALID_VALUE);
}

static void
test_get_descs(void)
{
   struct cuvk_tex_source src = source(CU_AD_FORMAT_FLOAT, 1, 64, 32, 0, 0, 1);
   CUDA_RESOURCE_DESC res = array_res();
   CUDA_TEXTURE_DESC tex = tex_desc(CU_TR_FILTER_MODE_LINEAR, CU_TRSF_NORMALIZED_COORDINATES);
   tex.addressMode[1] = CU_TR_ADDRESS_MODE_MIRROR;
   tex.maxAnisotropy = 3;
   tex.borderColor[2] = 0.75f;
   CUDA_RESOURCE_VIEW_DESC view = { .format = CU_RES_VIEW_FORMAT_FLOAT_1X32, .width = 64, .height = 32 };
   struct cuvk_tex_plan plan;
   CUDA_RESOURCE_DESC res_out;
   CUDA_TEXTURE_DESC tex_out;
   CUDA_RESOURCE_VIEW_DESC view_out;

   UNIT_CHECK(build(&res, &tex, NULL, &src, &plan) == CUDA_SUCCESS);
   cuvk_tex_plan_resource_desc(&plan, &res_out);
   cuvk_tex_plan_texture_desc(&plan, &tex_out);
   UNIT_CHECK(!memcmp(&res_out, &res, sizeof(res)));
   UNIT_CHECK(!memcmp(&tex_out, &tex, sizeof(tex)));
   UNIT_CHECK(cuvk_tex_plan_view_desc(&plan, &view_out) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(build(&res, &tex, &view, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(cuvk_tex_plan_view_desc(&plan, &view_out) == CUDA_SUCCESS);
   UNIT_CHECK(!memcmp(&view_out, &view, sizeof(view)));
}

static void
test_surfaces(void)
{
   static const struct {
      CUarray_format format;
      unsigned channels;
      VkFormat storage;
   } formats[] = {
      { CU_AD_FORMAT_UNSIGNED_INT8, 1, VK_FORMAT_R8_UINT },
      { CU_AD_FORMAT_SIGNED_INT8, 2, VK_FORMAT_R16_UINT },
      { CU_AD_FORMAT_HALF, 2, VK_FORMAT_R32_UINT },
      { CU_AD_FORMAT_UNSIGNED_INT8, 4, VK_FORMAT_R32_UINT },
      { CU_AD_FORMAT_FLOAT, 2, VK_FORMAT_R32G32_UINT },
      { CU_AD_FORMAT_FLOAT, 4, VK_FORMAT_R32G32B32A32_UINT },
   };
   CUDA_RESOURCE_DESC res = array_res();
   struct cuvk_surf_plan plan;
   CUDA_RESOURCE_DESC out;

   for (unsigned i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
      struct cuvk_tex_source src =
         source(formats[i].format, formats[i].channels, 40, 20, 0, CUDA_ARRAY3D_SURFACE_LDST, 1);
      UNIT_CHECK(cuvk_surf_plan_build(&res, &src, &plan) == CUDA_SUCCESS);
      UNIT_CHECK(plan.storage_format == formats[i].storage);
      UNIT_CHECK(plan.texel_size == src.format->elem_size && plan.format == src.format);
      UNIT_CHECK(plan.view_type == VK_IMAGE_VIEW_TYPE_2D && plan.layer_count == 1);
      UNIT_CHECK(plan.extent.width == 40 && plan.extent.height == 20 && plan.extent.depth == 1);
      UNIT_CHECK(!plan.array && plan.level == 0);
      cuvk_surf_plan_resource_desc(&plan, &out);
      UNIT_CHECK(!memcmp(&out, &res, sizeof(res)));
   }

   struct cuvk_tex_source src = source(CU_AD_FORMAT_FLOAT, 1, 40, 0, 0, CUDA_ARRAY3D_SURFACE_LDST, 1);
   UNIT_CHECK(cuvk_surf_plan_build(&res, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.view_type == VK_IMAGE_VIEW_TYPE_1D && plan.extent.height == 1);
   src = source(CU_AD_FORMAT_FLOAT, 1, 40, 20, 7, CUDA_ARRAY3D_SURFACE_LDST, 1);
   UNIT_CHECK(cuvk_surf_plan_build(&res, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.view_type == VK_IMAGE_VIEW_TYPE_3D && plan.extent.depth == 7 && plan.layer_count == 1);
   src = source(CU_AD_FORMAT_FLOAT, 1, 40, 0, 7, CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_LAYERED, 1);
   UNIT_CHECK(cuvk_surf_plan_build(&res, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.view_type == VK_IMAGE_VIEW_TYPE_1D_ARRAY && plan.layer_count == 7);
   src = source(CU_AD_FORMAT_FLOAT, 1, 16, 16, 12,
                CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP, 1);
   src.level = 3;
   UNIT_CHECK(cuvk_surf_plan_build(&res, &src, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.view_type == VK_IMAGE_VIEW_TYPE_2D_ARRAY && plan.layer_count == 12 && plan.level == 3);

   /* Without SURFACE_LDST, block-compressed, other resource kinds. */
   src = source(CU_AD_FORMAT_FLOAT, 1, 40, 20, 0, 0, 1);
   UNIT_CHECK(cuvk_surf_plan_build(&res, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   src = source(CU_AD_FORMAT_BC1_UNORM, 4, 16, 16, 0, CUDA_ARRAY3D_SURFACE_LDST, 1);
   UNIT_CHECK(cuvk_surf_plan_build(&res, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   src = source(CU_AD_FORMAT_FLOAT, 1, 40, 20, 0, CUDA_ARRAY3D_SURFACE_LDST, 1);
   CUDA_RESOURCE_DESC other = { .resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY };
   UNIT_CHECK(cuvk_surf_plan_build(&other, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   other.resType = CU_RESOURCE_TYPE_LINEAR;
   UNIT_CHECK(cuvk_surf_plan_build(&other, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   other = res;
   other.flags = 2;
   UNIT_CHECK(cuvk_surf_plan_build(&other, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_surf_plan_build(NULL, &src, &plan) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_surf_plan_build(&res, NULL, &plan) == CUDA_ERROR_INVALID_VALUE);
}

/* Real handles: NULL arrays are INVALID_VALUE, destroyed ones
 * INVALID_HANDLE (texture.object.errors), a plan keeps
 * its array alive past cuArrayDestroy, and levels name their image level. */
static void
test_handles(void)
{
   CUdevice dev;
   CUcontext ctx;
   if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS) {
      printf("no device: handle cases skipped\n");
      return;
   }
   UNIT_CHECK(cuDevicePrimaryCtxRetain(&ctx, dev) == CUDA_SUCCESS);
   UNIT_CHECK(cuCtxSetCurrent(ctx) == CUDA_SUCCESS);

   struct cuvk_device *vdev;
   UNIT_CHECK(cuvk_device_get(dev, "test", &vdev) == CUDA_SUCCESS);
   struct cuvk_tex_desc_limits lim;
   cuvk_tex_desc_limits_init(vdev, &lim);
   UNIT_CHECK(lim.texture_alignment == 256 && lim.pitch_alignment == 512);
   UNIT_CHECK(lim.max_1d_linear > 0 && lim.max_2d_linear[0] > 0 && lim.max_2d_linear[2] > 0);

   CUDA_ARRAY3D_DESCRIPTOR d = {
      .Width = 32, .Height = 16, .Format = CU_AD_FORMAT_FLOAT, .NumChannels = 1,
      .Flags = CUDA_ARRAY3D_SURFACE_LDST,
   };
   CUarray array;
   UNIT_CHECK(cuArray3DCreate(&array, &d) == CUDA_SUCCESS);
   CUDA_RESOURCE_DESC res = { .resType = CU_RESOURCE_TYPE_ARRAY };
   CUDA_TEXTURE_DESC tex = tex_desc(CU_TR_FILTER_MODE_LINEAR, 0);
   struct cuvk_tex_plan plan;
   struct cuvk_surf_plan surf;

   UNIT_CHECK(cuvk_tex_desc_check(&res, &tex, NULL, &lim, &plan) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_surf_desc_check(&res, &surf) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_tex_desc_check(NULL, &tex, NULL, &lim, &plan) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_surf_desc_check(NULL, &surf) == CUDA_ERROR_INVALID_VALUE);
   res.res.array.hArray = array;
   UNIT_CHECK(cuvk_tex_desc_check(&res, &tex, NULL, &lim, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.array == (struct cuvk_array *)array && !plan.mipmap);
   UNIT_CHECK(plan.extent.width == 32 && plan.view_format == VK_FORMAT_R32_SFLOAT);
   UNIT_CHECK(cuvk_surf_desc_check(&res, &surf) == CUDA_SUCCESS);
   UNIT_CHECK(surf.array == (struct cuvk_array *)array && surf.storage_format == VK_FORMAT_R32_UINT);
   /* A failed check holds nothing. */
   CUDA_TEXTURE_DESC bad = tex;
   bad.flags = 0x80;
   UNIT_CHECK(cuvk_tex_desc_check(&res, &bad, NULL, &lim, &plan) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(plan.array == (struct cuvk_array *)array);

   UNIT_CHECK(cuArrayDestroy(array) == CUDA_SUCCESS);
   struct cuvk_tex_plan dead;
   UNIT_CHECK(cuvk_tex_desc_check(&res, &tex, NULL, &lim, &dead) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuvk_surf_desc_check(&res, &(struct cuvk_surf_plan){ 0 }) == CUDA_ERROR_INVALID_VALUE);
   /* The plans still hold the image: their finish frees it. */
   UNIT_CHECK(plan.array->img != NULL);
   cuvk_tex_plan_finish(&plan);
   cuvk_surf_plan_finish(&surf);
   UNIT_CHECK(!plan.array && !surf.array);

   d.Flags = 0;
   CUmipmappedArray mip;
   CUarray level;
   UNIT_CHECK(cuMipmappedArrayCreate(&mip, &d, 3) == CUDA_SUCCESS);
   UNIT_CHECK(cuMipmappedArrayGetLevel(&level, mip, 1) == CUDA_SUCCESS);
   CUDA_RESOURCE_DESC mres = { .resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY };
   mres.res.mipmap.hMipmappedArray = mip;
   tex.flags = CU_TRSF_NORMALIZED_COORDINATES;
   UNIT_CHECK(cuvk_tex_desc_check(&mres, &tex, NULL, &lim, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.mipmap == (struct cuvk_mipmapped_array *)mip && plan.level_count == 3);
   cuvk_tex_plan_finish(&plan);
   CUDA_RESOURCE_DESC lres = { .resType = CU_RESOURCE_TYPE_ARRAY };
   lres.res.array.hArray = level;
   UNIT_CHECK(cuvk_tex_desc_check(&lres, &tex, NULL, &lim, &plan) == CUDA_SUCCESS);
   UNIT_CHECK(plan.base_level == 1 && plan.level_count == 1 && plan.extent.width == 16 &&
              plan.extent.height == 8);
   /* No SURFACE_LDST on this one. */
   UNIT_CHECK(cuvk_surf_desc_check(&lres, &surf) == CUDA_ERROR_INVALID_VALUE);
   UNIT_CHECK(cuMipmappedArrayDestroy(mip) == CUDA_SUCCESS);
   cuvk_tex_plan_finish(&plan);
   UNIT_CHECK(cuvk_tex_desc_check(&mres, &tex, NULL, &lim, &plan) == CUDA_ERROR_INVALID_VALUE);

   UNIT_CHECK(cuDevicePrimaryCtxRelease(dev) == CUDA_SUCCESS);
}

/* The format lists of mutable arrays (cuvk_vk_format_view_list): the
 * array's own format first, only formats of its texel size, each once,
 * within the image's room; for uncompressed formats the raw unsigned
 * view of copies and surfaces and every kind of the format's own family
 * (the read modes); the families round-trip. */
static void
test_view_lists(void)
{
   static const VkFormat raw[17] = {
      [1] = VK_FORMAT_R8_UINT, [2] = VK_FORMAT_R16_UINT, [4] = VK_FORMAT_R32_UINT,
      [8] = VK_FORMAT_R32G32_UINT, [16] = VK_FORMAT_R32G32B32A32_UINT,
   };
   for (unsigned i = 0; i < cuvk_format_count(); i++) {
      const struct cuvk_format *f = cuvk_format_get(i);
      if (f->vk == VK_FORMAT_UNDEFINED)
         continue;
      VkFormat list[64];
      unsigned n = cuvk_vk_format_view_list(f->vk, list, 64);
      UNIT_CHECK(n >= 1 && n <= CUVK_ARRAY_MAX_VIEW_FORMATS && list[0] == f->vk);
      unsigned elem, block;
      cuvk_vk_format_size(f->vk, &elem, &block);
      bool has_raw = false;
      for (unsigned j = 0; j < n; j++) {
         unsigned e2, b2;
         cuvk_vk_format_size(list[j], &e2, &b2);
         UNIT_CHECK(e2 == elem && b2 == block);
         for (unsigned k = 0; k < j; k++)
            UNIT_CHECK(list[k] != list[j]);
         has_raw |= block == 1 && list[j] == raw[elem];
      }
      if (block == 1)
         UNIT_CHECK(has_raw);
      else
         UNIT_CHECK(n == 2);
      enum cuvk_channel_kind kind;
      unsigned channels, bits;
      if (!cuvk_vk_format_channels(f->vk, &kind, &channels, &bits))
         continue;
      UNIT_CHECK(channels == f->channels && channels * bits / 8 == elem);
      UNIT_CHECK(cuvk_vk_format_with_kind(f->vk, kind) == f->vk);
      for (unsigned k = 0; k < CUVK_CHANNEL_KIND_COUNT; k++) {
         VkFormat twin = cuvk_vk_format_with_kind(f->vk, (enum cuvk_channel_kind)k);
         bool listed = false;
         for (unsigned j = 0; j < n; j++)
            listed |= list[j] == twin;
         UNIT_CHECK(twin == VK_FORMAT_UNDEFINED || listed);
      }
   }
   /* Formats in no family. */
   enum cuvk_channel_kind kind;
   unsigned channels, bits;
   UNIT_CHECK(!cuvk_vk_format_channels(VK_FORMAT_B8G8R8A8_UNORM, &kind, &channels, &bits));
   UNIT_CHECK(!cuvk_vk_format_channels(VK_FORMAT_A2B10G10R10_UNORM_PACK32, &kind, &channels, &bits));
   UNIT_CHECK(!cuvk_vk_format_channels(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, &kind, &channels, &bits));
   UNIT_CHECK(cuvk_vk_format_with_kind(VK_FORMAT_R16_UINT, CUVK_CHANNEL_SRGB) == VK_FORMAT_UNDEFINED);
   UNIT_CHECK(cuvk_vk_format_with_kind(VK_FORMAT_R8G8B8A8_UNORM, CUVK_CHANNEL_UINT) == VK_FORMAT_R8G8B8A8_UINT);
}

int
main(void)
{
   test_bad_descriptions();
   test_linear();
   test_pitch2d();
   test_read_modes();
   test_dimensions();
   test_sampler();
   test_border();
   test_mipmapped();
   test_views();
   test_get_descs();
   test_surfaces();
   test_handles();
   test_view_lists();
   unsigned failures = unit_failure_count();
   printf("%s: %u failure(s)\n", failures ? "FAIL" : "PASS", failures);
   return failures ? 1 : 0;
}
