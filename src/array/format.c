/*
 * The format table of CUDA arrays.
 *
 * Integer formats map to the _UINT/_SINT Vulkan formats, HALF and FLOAT to
 * _SFLOAT, the normalised vectors to _UNORM/_SNORM, 10-10-10-2 to the
 * packed format whose red sits in the low bits (as in DXGI and CUDA), and
 * the block-compressed formats to their _BLOCK twins (BC1 keeps its 1-bit
 * alpha, so it is the RGBA variant).  CUDA's channel counts follow its
 * documentation: 1, 2 or 4 for the plain formats (never 3), and the count
 * each vector or BC format implies (BC6H is a 3-channel format).
 */
#include "array/format.h"

#include "cuda_api/driver.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

#define F(cu_, ch_, size_, block_, vk_, name_) \
   { CU_AD_FORMAT_##cu_, ch_, size_, block_, VK_FORMAT_##vk_, name_ }

static const struct cuvk_format format_table[] = {
   F(UNSIGNED_INT8, 1, 1, 1, R8_UINT, "UNSIGNED_INT8 x1"),
   F(UNSIGNED_INT8, 2, 2, 1, R8G8_UINT, "UNSIGNED_INT8 x2"),
   F(UNSIGNED_INT8, 4, 4, 1, R8G8B8A8_UINT, "UNSIGNED_INT8 x4"),
   F(UNSIGNED_INT16, 1, 2, 1, R16_UINT, "UNSIGNED_INT16 x1"),
   F(UNSIGNED_INT16, 2, 4, 1, R16G16_UINT, "UNSIGNED_INT16 x2"),
   F(UNSIGNED_INT16, 4, 8, 1, R16G16B16A16_UINT, "UNSIGNED_INT16 x4"),
   F(UNSIGNED_INT32, 1, 4, 1, R32_UINT, "UNSIGNED_INT32 x1"),
   F(UNSIGNED_INT32, 2, 8, 1, R32G32_UINT, "UNSIGNED_INT32 x2"),
   F(UNSIGNED_INT32, 4, 16, 1, R32G32B32A32_UINT, "UNSIGNED_INT32 x4"),
   F(SIGNED_INT8, 1, 1, 1, R8_SINT, "SIGNED_INT8 x1"),
   F(SIGNED_INT8, 2, 2, 1, R8G8_SINT, "SIGNED_INT8 x2"),
   F(SIGNED_INT8, 4, 4, 1, R8G8B8A8_SINT, "SIGNED_INT8 x4"),
   F(SIGNED_INT16, 1, 2, 1, R16_SINT, "SIGNED_INT16 x1"),
   F(SIGNED_INT16, 2, 4, 1, R16G16_SINT, "SIGNED_INT16 x2"),
   F(SIGNED_INT16, 4, 8, 1, R16G16B16A16_SINT, "SIGNED_INT16 x4"),
   F(SIGNED_INT32, 1, 4, 1, R32_SINT, "SIGNED_INT32 x1"),
   F(SIGNED_INT32, 2, 8, 1, R32G32_SINT, "SIGNED_INT32 x2"),
   F(SIGNED_INT32, 4, 16, 1, R32G32B32A32_SINT, "SIGNED_INT32 x4"),
   F(HALF, 1, 2, 1, R16_SFLOAT, "HALF x1"),
   F(HALF, 2, 4, 1, R16G16_SFLOAT, "HALF x2"),
   F(HALF, 4, 8, 1, R16G16B16A16_SFLOAT, "HALF x4"),
   F(FLOAT, 1, 4, 1, R32_SFLOAT, "FLOAT x1"),
   F(FLOAT, 2, 8, 1, R32G32_SFLOAT, "FLOAT x2"),
   F(FLOAT, 4, 16, 1, R32G32B32A32_SFLOAT, "FLOAT x4"),
   F(UNORM_INT8X1, 1, 1, 1, R8_UNORM, "UNORM_INT8X1"),
   F(UNORM_INT8X2, 2, 2, 1, R8G8_UNORM, "UNORM_INT8X2"),
   F(UNORM_INT8X4, 4, 4, 1, R8G8B8A8_UNORM, "UNORM_INT8X4"),
   F(UNORM_INT16X1, 1, 2, 1, R16_UNORM, "UNORM_INT16X1"),
   F(UNORM_INT16X2, 2, 4, 1, R16G16_UNORM, "UNORM_INT16X2"),
   F(UNORM_INT16X4, 4, 8, 1, R16G16B16A16_UNORM, "UNORM_INT16X4"),
   F(SNORM_INT8X1, 1, 1, 1, R8_SNORM, "SNORM_INT8X1"),
   F(SNORM_INT8X2, 2, 2, 1, R8G8_SNORM, "SNORM_INT8X2"),
   F(SNORM_INT8X4, 4, 4, 1, R8G8B8A8_SNORM, "SNORM_INT8X4"),
   F(SNORM_INT16X1, 1, 2, 1, R16_SNORM, "SNORM_INT16X1"),
   F(SNORM_INT16X2, 2, 4, 1, R16G16_SNORM, "SNORM_INT16X2"),
   F(SNORM_INT16X4, 4, 8, 1, R16G16B16A16_SNORM, "SNORM_INT16X4"),
   F(UNORM_INT_101010_2, 4, 4, 1, A2B10G10R10_UNORM_PACK32, "UNORM_INT_101010_2"),
   F(BC1_UNORM, 4, 8, 4, BC1_RGBA_UNORM_BLOCK, "BC1_UNORM"),
   F(BC1_UNORM_SRGB, 4, 8, 4, BC1_RGBA_SRGB_BLOCK, "BC1_UNORM_SRGB"),
   F(BC2_UNORM, 4, 16, 4, BC2_UNORM_BLOCK, "BC2_UNORM"),
   F(BC2_UNORM_SRGB, 4, 16, 4, BC2_SRGB_BLOCK, "BC2_UNORM_SRGB"),
   F(BC3_UNORM, 4, 16, 4, BC3_UNORM_BLOCK, "BC3_UNORM"),
   F(BC3_UNORM_SRGB, 4, 16, 4, BC3_SRGB_BLOCK, "BC3_UNORM_SRGB"),
   F(BC4_UNORM, 1, 8, 4, BC4_UNORM_BLOCK, "BC4_UNORM"),
   F(BC4_SNORM, 1, 8, 4, BC4_SNORM_BLOCK, "BC4_SNORM"),
   F(BC5_UNORM, 2, 16, 4, BC5_UNORM_BLOCK, "BC5_UNORM"),
   F(BC5_SNORM, 2, 16, 4, BC5_SNORM_BLOCK, "BC5_SNORM"),
   F(BC6H_UF16, 3, 16, 4, BC6H_UFLOAT_BLOCK, "BC6H_UF16"),
   F(BC6H_SF16, 3, 16, 4, BC6H_SFLOAT_BLOCK, "BC6H_SF16"),
   F(BC7_UNORM, 4, 16, 4, BC7_UNORM_BLOCK, "BC7_UNORM"),
   F(BC7_UNORM_SRGB, 4, 16, 4, BC7_SRGB_BLOCK, "BC7_UNORM_SRGB"),
};

#undef F

/* Formats CUDA defines for video surfaces: several planes or subsampled
 * pairs of pixels, which no single Vulkan color format holds. */
static const CUarray_format video_formats[] = {
   CU_AD_FORMAT_P010, CU_AD_FORMAT_P016, CU_AD_FORMAT_NV16, CU_AD_FORMAT_P210,
   CU_AD_FORMAT_P216, CU_AD_FORMAT_YUY2, CU_AD_FORMAT_Y210, CU_AD_FORMAT_Y216,
   CU_AD_FORMAT_AYUV, CU_AD_FORMAT_Y410, CU_AD_FORMAT_NV12, CU_AD_FORMAT_Y416,
   CU_AD_FORMAT_Y444_PLANAR8, CU_AD_FORMAT_Y444_PLANAR10,
   CU_AD_FORMAT_YUV444_8bit_SemiPlanar, CU_AD_FORMAT_YUV444_16bit_SemiPlanar,
};

unsigned
cuvk_format_count(void)
{
   return CUVK_ARRAY_SIZE(format_table);
}

const struct cuvk_format *
cuvk_format_get(unsigned index)
{
   return index < CUVK_ARRAY_SIZE(format_table) ? &format_table[index] : NULL;
}

CUresult
cuvk_format_lookup(CUarray_format format, unsigned channels, const char *entry,
                   const struct cuvk_format **out)
{
   bool known = false;

   for (unsigned i = 0; i < CUVK_ARRAY_SIZE(format_table); i++) {
      if (format_table[i].cu != format)
         continue;
      known = true;
      if (format_table[i].channels == channels) {
         *out = &format_table[i];
         return CUDA_SUCCESS;
      }
   }
   if (known)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: format 0x%x does not come with %u channels",
                        entry, (unsigned)format, channels);
   for (unsigned i = 0; i < CUVK_ARRAY_SIZE(video_formats); i++) {
      if (video_formats[i] == format)
         return cuvk_error(CUDA_ERROR_NOT_SUPPORTED,
                           "%s: format 0x%x is a video (YUV) layout, which cuvk's arrays do not support",
                           entry, (unsigned)format);
   }
   return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: 0x%x is not a CUarray_format", entry, (unsigned)format);
}

CUresult
cuvk_format_check_device(const struct cuvk_device *dev, const struct cuvk_format *fmt,
                         VkFormatFeatureFlags features, const char *entry)
{
   VkFormatProperties props;
   VkFormatFeatureFlags need = features | VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
                               VK_FORMAT_FEATURE_TRANSFER_DST_BIT;

   vkGetPhysicalDeviceFormatProperties(dev->pdev, fmt->vk, &props);
   if ((props.optimalTilingFeatures & need) != need)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED,
                        "%s: %s cannot make CU_AD_FORMAT_%s arrays (VkFormat %d lacks features 0x%x)",
                        entry, dev->props.deviceName, fmt->name, (int)fmt->vk,
                        need & ~props.optimalTilingFeatures);
   return CUDA_SUCCESS;
}

/* Runs of consecutive VkFormat values with one size, from VK_FORMAT_R4G4_
 * UNORM_PACK8 (1) to VK_FORMAT_BC7_SRGB_BLOCK (146).  Depth and stencil
 * formats (124 to 130) are left out: copies of them need an aspect CUDA
 * cannot name. */
static const struct {
   VkFormat first, last;
   uint8_t elem_size, block;
} vk_format_sizes[] = {
   { VK_FORMAT_R4G4_UNORM_PACK8, VK_FORMAT_R4G4_UNORM_PACK8, 1, 1 },
   { VK_FORMAT_R4G4B4A4_UNORM_PACK16, VK_FORMAT_A1R5G5B5_UNORM_PACK16, 2, 1 },
   { VK_FORMAT_R8_UNORM, VK_FORMAT_R8_SRGB, 1, 1 },
   { VK_FORMAT_R8G8_UNORM, VK_FORMAT_R8G8_SRGB, 2, 1 },
   { VK_FORMAT_R8G8B8_UNORM, VK_FORMAT_B8G8R8_SRGB, 3, 1 },
   { VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_A2B10G10R10_SINT_PACK32, 4, 1 },
   { VK_FORMAT_R16_UNORM, VK_FORMAT_R16_SFLOAT, 2, 1 },
   { VK_FORMAT_R16G16_UNORM, VK_FORMAT_R16G16_SFLOAT, 4, 1 },
   { VK_FORMAT_R16G16B16_UNORM, VK_FORMAT_R16G16B16_SFLOAT, 6, 1 },
   { VK_FORMAT_R16G16B16A16_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT, 8, 1 },
   { VK_FORMAT_R32_UINT, VK_FORMAT_R32_SFLOAT, 4, 1 },
   { VK_FORMAT_R32G32_UINT, VK_FORMAT_R32G32_SFLOAT, 8, 1 },
   { VK_FORMAT_R32G32B32_UINT, VK_FORMAT_R32G32B32_SFLOAT, 12, 1 },
   { VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_SFLOAT, 16, 1 },
   { VK_FORMAT_R64_UINT, VK_FORMAT_R64_SFLOAT, 8, 1 },
   { VK_FORMAT_R64G64_UINT, VK_FORMAT_R64G64_SFLOAT, 16, 1 },
   { VK_FORMAT_R64G64B64_UINT, VK_FORMAT_R64G64B64_SFLOAT, 24, 1 },
   { VK_FORMAT_R64G64B64A64_UINT, VK_FORMAT_R64G64B64A64_SFLOAT, 32, 1 },
   { VK_FORMAT_B10G11R11_UFLOAT_PACK32, VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, 4, 1 },
   { VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC1_RGBA_SRGB_BLOCK, 8, 4 },
   { VK_FORMAT_BC2_UNORM_BLOCK, VK_FORMAT_BC3_SRGB_BLOCK, 16, 4 },
   { VK_FORMAT_BC4_UNORM_BLOCK, VK_FORMAT_BC4_SNORM_BLOCK, 8, 4 },
   { VK_FORMAT_BC5_UNORM_BLOCK, VK_FORMAT_BC7_SRGB_BLOCK, 16, 4 },
};

void
cuvk_vk_format_size(VkFormat format, unsigned *elem_size, unsigned *block)
{
   *elem_size = 0;
   *block = 1;
   for (unsigned i = 0; i < CUVK_ARRAY_SIZE(vk_format_sizes); i++) {
      if (format >= vk_format_sizes[i].first && format <= vk_format_sizes[i].last) {
         *elem_size = vk_format_sizes[i].elem_size;
         *block = vk_format_sizes[i].block;
         return;
      }
   }
}

/* Channel families: one row a channel layout, one column a kind
 * (enum cuvk_channel_kind). */
#define FAM(p, srgb, sfloat)                                                                              \
   { VK_FORMAT_##p##_UINT, VK_FORMAT_##p##_SINT, VK_FORMAT_##p##_UNORM, VK_FORMAT_##p##_SNORM, srgb, sfloat }
#define NONE VK_FORMAT_UNDEFINED
#define FAM32(p) { VK_FORMAT_##p##_UINT, VK_FORMAT_##p##_SINT, NONE, NONE, NONE, VK_FORMAT_##p##_SFLOAT }
static const struct {
   uint8_t channels, bits;
   VkFormat kinds[CUVK_CHANNEL_KIND_COUNT];
} channel_families[] = {
   { 1, 8, FAM(R8, VK_FORMAT_R8_SRGB, NONE) },
   { 2, 8, FAM(R8G8, VK_FORMAT_R8G8_SRGB, NONE) },
   { 4, 8, FAM(R8G8B8A8, VK_FORMAT_R8G8B8A8_SRGB, NONE) },
   { 1, 16, FAM(R16, NONE, VK_FORMAT_R16_SFLOAT) },
   { 2, 16, FAM(R16G16, NONE, VK_FORMAT_R16G16_SFLOAT) },
   { 4, 16, FAM(R16G16B16A16, NONE, VK_FORMAT_R16G16B16A16_SFLOAT) },
   { 1, 32, FAM32(R32) },
   { 2, 32, FAM32(R32G32) },
   { 4, 32, FAM32(R32G32B32A32) },
};
#undef FAM
#undef FAM32
#undef NONE

static int
channel_family(VkFormat format, enum cuvk_channel_kind *kind)
{
   for (unsigned i = 0; i < CUVK_ARRAY_SIZE(channel_families); i++)
      for (unsigned k = 0; k < CUVK_CHANNEL_KIND_COUNT; k++)
         if (format != VK_FORMAT_UNDEFINED && channel_families[i].kinds[k] == format) {
            *kind = (enum cuvk_channel_kind)k;
            return (int)i;
         }
   return -1;
}

bool
cuvk_vk_format_channels(VkFormat format, enum cuvk_channel_kind *kind, unsigned *channels, unsigned *bits)
{
   int f = channel_family(format, kind);
   if (f < 0)
      return false;
   *channels = channel_families[f].channels;
   *bits = channel_families[f].bits;
   return true;
}

VkFormat
cuvk_vk_format_with_kind(VkFormat format, enum cuvk_channel_kind kind)
{
   enum cuvk_channel_kind own;
   int f = channel_family(format, &own);
   return f < 0 || kind >= CUVK_CHANNEL_KIND_COUNT ? VK_FORMAT_UNDEFINED : channel_families[f].kinds[kind];
}

/* The pairs of block-compressed formats Vulkan lets view each other
 * (one compatibility class): what a BC resource view of a BC array is. */
static const VkFormat bc_twins[][2] = {
   { VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_FORMAT_BC1_RGBA_SRGB_BLOCK },
   { VK_FORMAT_BC2_UNORM_BLOCK, VK_FORMAT_BC2_SRGB_BLOCK },
   { VK_FORMAT_BC3_UNORM_BLOCK, VK_FORMAT_BC3_SRGB_BLOCK },
   { VK_FORMAT_BC4_UNORM_BLOCK, VK_FORMAT_BC4_SNORM_BLOCK },
   { VK_FORMAT_BC5_UNORM_BLOCK, VK_FORMAT_BC5_SNORM_BLOCK },
   { VK_FORMAT_BC6H_UFLOAT_BLOCK, VK_FORMAT_BC6H_SFLOAT_BLOCK },
   { VK_FORMAT_BC7_UNORM_BLOCK, VK_FORMAT_BC7_SRGB_BLOCK },
};

unsigned
cuvk_vk_format_view_list(VkFormat format, VkFormat *out, unsigned max)
{
   unsigned n = 0, elem, block;
   if (max)
      out[n++] = format;
   cuvk_vk_format_size(format, &elem, &block);
   if (block > 1) {
      for (unsigned i = 0; i < CUVK_ARRAY_SIZE(bc_twins); i++)
         for (unsigned j = 0; j < 2; j++)
            if (bc_twins[i][j] == format && n < max)
               out[n++] = bc_twins[i][!j];
      return n;
   }
   for (unsigned i = 0; i < CUVK_ARRAY_SIZE(channel_families); i++) {
      if (channel_families[i].channels * channel_families[i].bits / 8u != elem)
         continue;
      for (unsigned k = 0; k < CUVK_CHANNEL_KIND_COUNT; k++) {
         VkFormat f = channel_families[i].kinds[k];
         if (f != VK_FORMAT_UNDEFINED && f != format && n < max)
            out[n++] = f;
      }
   }
   return n;
}

/* The Vulkan spec's "Plane Format Compatibility" table: for each
 * multi-planar YCbCr format, the single-plane format each plane is
 * compatible with and how much smaller than the image each plane is.
 * Planes after the first of a 4:2:0 image are half as wide and half as
 * high, of a 4:2:2 image half as wide, of a 4:4:4 image as large. */
#define P1(f) VK_FORMAT_##f
#define YCBCR3(vk, fmt, wd, hd) \
   { VK_FORMAT_##vk, 3, { P1(fmt), P1(fmt), P1(fmt) }, { 1, wd, wd }, { 1, hd, hd } }
#define YCBCR2(vk, fmt1, fmt2, wd, hd) \
   { VK_FORMAT_##vk, 2, { P1(fmt1), P1(fmt2), VK_FORMAT_UNDEFINED }, { 1, wd, 1 }, { 1, hd, 1 } }

static const struct cuvk_vk_planes plane_table[] = {
   YCBCR3(G8_B8_R8_3PLANE_420_UNORM, R8_UNORM, 2, 2),
   YCBCR2(G8_B8R8_2PLANE_420_UNORM, R8_UNORM, R8G8_UNORM, 2, 2),
   YCBCR3(G8_B8_R8_3PLANE_422_UNORM, R8_UNORM, 2, 1),
   YCBCR2(G8_B8R8_2PLANE_422_UNORM, R8_UNORM, R8G8_UNORM, 2, 1),
   YCBCR3(G8_B8_R8_3PLANE_444_UNORM, R8_UNORM, 1, 1),
   YCBCR3(G10X6_B10X6_R10X6_3PLANE_420_UNORM_3PACK16, R10X6_UNORM_PACK16, 2, 2),
   YCBCR2(G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16, R10X6_UNORM_PACK16, R10X6G10X6_UNORM_2PACK16, 2, 2),
   YCBCR3(G10X6_B10X6_R10X6_3PLANE_422_UNORM_3PACK16, R10X6_UNORM_PACK16, 2, 1),
   YCBCR2(G10X6_B10X6R10X6_2PLANE_422_UNORM_3PACK16, R10X6_UNORM_PACK16, R10X6G10X6_UNORM_2PACK16, 2, 1),
   YCBCR3(G10X6_B10X6_R10X6_3PLANE_444_UNORM_3PACK16, R10X6_UNORM_PACK16, 1, 1),
   YCBCR3(G12X4_B12X4_R12X4_3PLANE_420_UNORM_3PACK16, R12X4_UNORM_PACK16, 2, 2),
   YCBCR2(G12X4_B12X4R12X4_2PLANE_420_UNORM_3PACK16, R12X4_UNORM_PACK16, R12X4G12X4_UNORM_2PACK16, 2, 2),
   YCBCR3(G12X4_B12X4_R12X4_3PLANE_422_UNORM_3PACK16, R12X4_UNORM_PACK16, 2, 1),
   YCBCR2(G12X4_B12X4R12X4_2PLANE_422_UNORM_3PACK16, R12X4_UNORM_PACK16, R12X4G12X4_UNORM_2PACK16, 2, 1),
   YCBCR3(G12X4_B12X4_R12X4_3PLANE_444_UNORM_3PACK16, R12X4_UNORM_PACK16, 1, 1),
   YCBCR3(G16_B16_R16_3PLANE_420_UNORM, R16_UNORM, 2, 2),
   YCBCR2(G16_B16R16_2PLANE_420_UNORM, R16_UNORM, R16G16_UNORM, 2, 2),
   YCBCR3(G16_B16_R16_3PLANE_422_UNORM, R16_UNORM, 2, 1),
   YCBCR2(G16_B16R16_2PLANE_422_UNORM, R16_UNORM, R16G16_UNORM, 2, 1),
   YCBCR3(G16_B16_R16_3PLANE_444_UNORM, R16_UNORM, 1, 1),
   /* Vulkan 1.3 (VK_EXT_ycbcr_2plane_444_formats). */
   YCBCR2(G8_B8R8_2PLANE_444_UNORM, R8_UNORM, R8G8_UNORM, 1, 1),
   YCBCR2(G10X6_B10X6R10X6_2PLANE_444_UNORM_3PACK16, R10X6_UNORM_PACK16, R10X6G10X6_UNORM_2PACK16, 1, 1),
   YCBCR2(G12X4_B12X4R12X4_2PLANE_444_UNORM_3PACK16, R12X4_UNORM_PACK16, R12X4G12X4_UNORM_2PACK16, 1, 1),
   YCBCR2(G16_B16R16_2PLANE_444_UNORM, R16_UNORM, R16G16_UNORM, 1, 1),
};

#undef YCBCR2
#undef YCBCR3
#undef P1

const struct cuvk_vk_planes *
cuvk_vk_format_planes(VkFormat format)
{
   for (unsigned i = 0; i < CUVK_ARRAY_SIZE(plane_table); i++) {
      if (plane_table[i].format == format)
         return &plane_table[i];
   }
   return NULL;
}

unsigned
cuvk_vk_plane_format_count(void)
{
   return CUVK_ARRAY_SIZE(plane_table);
}

const struct cuvk_vk_planes *
cuvk_vk_plane_format_get(unsigned index)
{
   return index < CUVK_ARRAY_SIZE(plane_table) ? &plane_table[index] : NULL;
}

void
cuvk_vk_plane_format_size(VkFormat format, unsigned *elem_size)
{
   unsigned block;
   switch (format) {
   case VK_FORMAT_R10X6_UNORM_PACK16:
   case VK_FORMAT_R12X4_UNORM_PACK16:
      *elem_size = 2;
      return;
   case VK_FORMAT_R10X6G10X6_UNORM_2PACK16:
   case VK_FORMAT_R12X4G12X4_UNORM_2PACK16:
      *elem_size = 4;
      return;
   default:
      cuvk_vk_format_size(format, elem_size, &block);
      return;
   }
}
