/*
 * Mipmapped arrays over images a Vulkan application exports: Vulkan
 * writes a level and CUDA reads it, CUDA writes and Vulkan reads, round
 * trips through device memory, over the matrix of sizes, shapes, formats
 * and levels; cuda-samples' vulkanImageCUDA flow; and every bad
 * descriptor.
 *
 * Each case plays both sides in one process (array_vk.h): the exporter
 * has its own VkInstance and VkDevice, whose validation messages fail the
 * case at the end.
 */
#include "array_util.h"
#include "array_vk.h"

#include <cuda_runtime_api.h>

static struct avk vk;
static bool vk_up;

static void
vk_begin(const char *name)
{
   vk_up = avk_init(&vk, name);
   AT_CHECK(vk_up);
   if (!vk_up) {
      fprintf(stderr, "cannot set up the Vulkan exporter\n");
      exit(AT_FAIL);
   }
}

static void
vk_end(void)
{
   unsigned messages = avk_finish(&vk);
   if (messages)
      fprintf(stderr, "the exporter's instance saw %u validation message(s)\n", messages);
   AT_CHECK(messages == 0);
}

static VkImageCreateInfo
image_info(VkImageType type, VkFormat format, uint32_t w, uint32_t h, uint32_t d, uint32_t layers,
           uint32_t levels, VkImageCreateFlags flags)
{
   return (VkImageCreateInfo){
      .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
      .flags = flags,
      .imageType = type,
      .format = format,
      .extent = { w, h, d },
      .mipLevels = levels,
      .arrayLayers = layers,
      .samples = VK_SAMPLE_COUNT_1_BIT,
      .tiling = VK_IMAGE_TILING_OPTIMAL,
      .usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
      .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
   };
}

static CUresult
import_image(struct avk_image *img, CUexternalMemory *ext)
{
   CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc;
   memset(&desc, 0, sizeof(desc));
   desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
   desc.handle.fd = img->fd;
   desc.size = img->allocation_size;
   desc.flags = img->dedicated ? CUDA_EXTERNAL_MEMORY_DEDICATED : 0;
   CUresult res = cuImportExternalMemory(ext, &desc);
   if (res == CUDA_SUCCESS)
      img->fd = -1; /* CUDA owns it now */
   return res;
}

static CUresult
map_image(CUexternalMemory ext, uint64_t offset, const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned levels,
          CUmipmappedArray *mip)
{
   CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC desc;
   memset(&desc, 0, sizeof(desc));
   desc.offset = offset;
   desc.arrayDesc = *d;
   desc.numLevels = levels;
   return cuExternalMemoryGetMappedMipmappedArray(mip, ext, &desc);
}

/* One level both ways: Vulkan writes, CUDA reads into pitched pageable
 * memory; CUDA writes from pitched pinned memory, Vulkan reads; CUDA
 * copies it to pitched device memory and back out. */
static void
level_both_ways(struct avk_image *img, CUarray level, uint32_t l, const char *what)
{
   struct au_array a;
   AT_CHECK(au_array_wrap(&a, level));
   size_t n = au_array_bytes(&a);
   AT_CHECK(n == avk_level_size(img, l));
   if (n != avk_level_size(img, l)) {
      au_array_free(&a, false);
      return;
   }
   char msg[160];

   /* Vulkan -> CUDA */
   at_fill_random(a.model, n);
   AT_CHECK(avk_write_level(&vk, img, l, a.model));
   size_t pitch = a.row_bytes + 24, rows = a.rows + 1;
   struct au_linear host;
   au_linear_alloc(&host, AU_PAGEABLE, pitch * rows * a.slices);
   struct au_side as = au_array_side(&a, 0, 0, 0), hs = au_linear_side(&host, 0, 0, 0, pitch, rows);
   CUDA_MEMCPY3D p = au_copy3d(&hs, &as, a.row_bytes, a.rows, a.slices);
   AT_OK(cuMemcpy3D(&p));
   struct au_model am = au_array_model(&a, 0, 0, 0), hm = au_linear_model(&host, 0, 0, 0, pitch, rows);
   au_model_copy(&hm, &am, a.row_bytes, a.rows, a.slices);
   snprintf(msg, sizeof(msg), "%s level %u: CUDA reads what Vulkan wrote", what, l);
   au_linear_check(&host, msg);
   au_linear_free(&host);

   /* CUDA -> Vulkan */
   struct au_linear pin;
   au_linear_alloc(&pin, AU_PINNED, pitch * rows * a.slices);
   struct au_side ps = au_linear_side(&pin, 0, 0, 0, pitch, rows);
   p = au_copy3d(&as, &ps, a.row_bytes, a.rows, a.slices);
   AT_OK(cuMemcpy3D(&p));
   struct au_model pm = au_linear_model(&pin, 0, 0, 0, pitch, rows);
   au_model_copy(&am, &pm, a.row_bytes, a.rows, a.slices);
   AT_OK(cuCtxSynchronize());
   uint8_t *got = at_malloc(n);
   AT_CHECK(avk_read_level(&vk, img, l, got));
   snprintf(msg, sizeof(msg), "%s level %u: Vulkan reads what CUDA wrote", what, l);
   AT_COMPARE(msg, got, a.model, n);
   au_linear_free(&pin);

   /* Round trip through pitched device memory. */
   CUdeviceptr dev;
   size_t dpitch;
   AT_OK(cuMemAllocPitch(&dev, &dpitch, a.row_bytes, a.rows * a.slices, 4));
   struct au_linear dl = { .kind = AU_DEVICE, .dev = dev };
   struct au_side ds = au_linear_side(&dl, 0, 0, 0, dpitch, a.rows);
   p = au_copy3d(&ds, &as, a.row_bytes, a.rows, a.slices);
   AT_OK(cuMemcpy3D(&p));
   /* Array to device memory does not wait for the GPU (as in CUDA): done
    * before Vulkan may touch the image again. */
   AT_OK(cuCtxSynchronize());
   uint8_t *fresh = at_malloc(n);
   at_fill_random(fresh, n);
   AT_CHECK(avk_write_level(&vk, img, l, fresh));
   p = au_copy3d(&as, &ds, a.row_bytes, a.rows, a.slices);
   AT_OK(cuMemcpy3D(&p));
   AT_OK(cuCtxSynchronize());
   AT_CHECK(avk_read_level(&vk, img, l, got));
   snprintf(msg, sizeof(msg), "%s level %u: round trip through device memory", what, l);
   AT_COMPARE(msg, got, a.model, n);
   AT_OK(cuMemFree(dev));
   free(fresh);
   free(got);
   au_array_free(&a, false);
}

/* Exports an image, maps it, and runs every level both ways. */
static void
image_both_ways(const VkImageCreateInfo *info, const CUDA_ARRAY3D_DESCRIPTOR *desc, unsigned levels,
                bool dedicated, VkDeviceSize offset, const char *what)
{
   struct avk_image img;
   if (!avk_image_create(&vk, info, dedicated, offset, &img)) {
      AT_CHECK(!"exporting the image failed");
      return;
   }
   CUexternalMemory ext;
   CUmipmappedArray mip;
   AT_OK(import_image(&img, &ext));
   CUresult res = map_image(ext, img.offset, desc, levels, &mip);
   AT_OK(res);
   if (res == CUDA_SUCCESS) {
      for (unsigned l = 0; l < levels; l++) {
         CUarray level;
         AT_OK(cuMipmappedArrayGetLevel(&level, mip, l));
         level_both_ways(&img, level, l, what);
      }
      AT_OK(cuMipmappedArrayDestroy(mip));
   }
   AT_OK(cuDestroyExternalMemory(ext));
   AT_OK(cuCtxSynchronize());
   avk_image_destroy(&vk, &img);
}

static unsigned
full_chain(uint32_t w, uint32_t h, uint32_t d)
{
   uint32_t m = AT_MAX(AT_MAX(w, h), d);
   unsigned n = 1;
   while (m >>= 1)
      n++;
   return n;
}

/* ---- The matrix: widths x heights x depths x levels ---- */

static void
matrix(uint32_t w, uint32_t d)
{
   static const uint32_t heights[] = { 1, 4, 17 };
   vk_begin("array.external.matrix");
   for (size_t hi = 0; hi < AT_ARRAY_SIZE(heights); hi++) {
      uint32_t h = heights[hi];
      unsigned all = full_chain(w, h, d);
      unsigned level_counts[] = { 1, 2, all };
      for (size_t li = 0; li < 3; li++) {
         unsigned levels = level_counts[li];
         if (levels > all || (li == 2 && all <= 2))
            continue;
         VkImageCreateInfo info = image_info(d ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D,
                                             VK_FORMAT_R8G8B8A8_UINT, w, h, d ? d : 1, 1, levels, 0);
         CUDA_ARRAY3D_DESCRIPTOR desc = { w, h, d, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0 };
         char what[64];
         snprintf(what, sizeof(what), "%ux%ux%u, %u levels", w, h, d, levels);
         image_both_ways(&info, &desc, levels, (w + h + levels) % 2 == 0, 0, what);
      }
   }
   vk_end();
}

#define MATRIX(w, d) static void matrix_w##w##_d##d(void) { matrix(w, d); }
MATRIX(1, 0)
MATRIX(1, 4)
MATRIX(32, 0)
MATRIX(32, 4)
MATRIX(127, 0)
MATRIX(127, 4)
MATRIX(256, 0)
MATRIX(256, 4)

/* ---- Shapes ---- */

static void
shapes(void)
{
   vk_begin("array.external.shapes");
   struct {
      const char *what;
      VkImageCreateInfo info;
      CUDA_ARRAY3D_DESCRIPTOR desc;
      unsigned levels;
   } s[] = {
      { "1D", image_info(VK_IMAGE_TYPE_1D, VK_FORMAT_R32_SFLOAT, 100, 1, 1, 1, 4, 0),
        { 100, 0, 0, CU_AD_FORMAT_FLOAT, 1, 0 }, 4 },
      { "1D layered", image_info(VK_IMAGE_TYPE_1D, VK_FORMAT_R32_SFLOAT, 64, 1, 1, 5, 3, 0),
        { 64, 0, 5, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_LAYERED }, 3 },
      { "2D layered", image_info(VK_IMAGE_TYPE_2D, VK_FORMAT_R16G16_UINT, 37, 21, 1, 3, 3, 0),
        { 37, 21, 3, CU_AD_FORMAT_UNSIGNED_INT16, 2, CUDA_ARRAY3D_LAYERED }, 3 },
      { "cubemap", image_info(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 6, 5,
                              VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT),
        { 16, 16, 6, CU_AD_FORMAT_UNORM_INT8X4, 4, CUDA_ARRAY3D_CUBEMAP }, 5 },
      { "cubemap layered", image_info(VK_IMAGE_TYPE_2D, VK_FORMAT_R32G32B32A32_SFLOAT, 8, 8, 1, 12, 2,
                                      VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT),
        { 8, 8, 12, CU_AD_FORMAT_FLOAT, 4, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED }, 2 },
      { "3D", image_info(VK_IMAGE_TYPE_3D, VK_FORMAT_R16G16B16A16_SFLOAT, 12, 10, 9, 1, 4, 0),
        { 12, 10, 9, CU_AD_FORMAT_HALF, 4, 0 }, 4 },
   };
   for (size_t i = 0; i < AT_ARRAY_SIZE(s); i++) {
      image_both_ways(&s[i].info, &s[i].desc, s[i].levels, true, 0, s[i].what);
      image_both_ways(&s[i].info, &s[i].desc, s[i].levels, false, 0, s[i].what);
      /* With storage usage and a mutable format, a compute copy engine
       * reaches the image through a raw view. */
      VkImageCreateInfo storage = s[i].info;
      storage.flags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
      storage.usage |= VK_IMAGE_USAGE_STORAGE_BIT;
      if (avk_image_supported(&vk, &storage))
         image_both_ways(&storage, &s[i].desc, s[i].levels, true, 0, s[i].what);
   }
   vk_end();
}

/* An image bound at an offset into a larger, shared allocation. */
static void
suballocated(void)
{
   vk_begin("array.external.suballocated");
   VkImageCreateInfo info = image_info(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, 64, 48, 1, 1, 7, 0);
   CUDA_ARRAY3D_DESCRIPTOR desc = { 64, 48, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0 };
   image_both_ways(&info, &desc, 7, false, 65536, "suballocated at 64 KiB");
   image_both_ways(&info, &desc, 3, false, 4096, "suballocated at 4 KiB, 3 of 7 levels");
   vk_end();
}

/* Every CUDA format with a Vulkan image of the same element size. */
static void
formats(void)
{
   static const struct {
      CUarray_format f;
      unsigned ch;
      VkFormat vk;
   } pairs[] = {
      { CU_AD_FORMAT_UNSIGNED_INT8, 1, VK_FORMAT_R8_UINT },
      { CU_AD_FORMAT_UNSIGNED_INT8, 2, VK_FORMAT_R8G8_UINT },
      { CU_AD_FORMAT_UNSIGNED_INT8, 4, VK_FORMAT_R8G8B8A8_UINT },
      { CU_AD_FORMAT_SIGNED_INT8, 1, VK_FORMAT_R8_SINT },
      { CU_AD_FORMAT_SIGNED_INT8, 2, VK_FORMAT_R8G8_SINT },
      { CU_AD_FORMAT_SIGNED_INT8, 4, VK_FORMAT_R8G8B8A8_SINT },
      { CU_AD_FORMAT_UNSIGNED_INT16, 1, VK_FORMAT_R16_UINT },
      { CU_AD_FORMAT_UNSIGNED_INT16, 2, VK_FORMAT_R16G16_UINT },
      { CU_AD_FORMAT_UNSIGNED_INT16, 4, VK_FORMAT_R16G16B16A16_UINT },
      { CU_AD_FORMAT_SIGNED_INT16, 1, VK_FORMAT_R16_SINT },
      { CU_AD_FORMAT_SIGNED_INT16, 2, VK_FORMAT_R16G16_SINT },
      { CU_AD_FORMAT_SIGNED_INT16, 4, VK_FORMAT_R16G16B16A16_SINT },
      { CU_AD_FORMAT_UNSIGNED_INT32, 1, VK_FORMAT_R32_UINT },
      { CU_AD_FORMAT_UNSIGNED_INT32, 2, VK_FORMAT_R32G32_UINT },
      { CU_AD_FORMAT_UNSIGNED_INT32, 4, VK_FORMAT_R32G32B32A32_UINT },
      { CU_AD_FORMAT_SIGNED_INT32, 1, VK_FORMAT_R32_SINT },
      { CU_AD_FORMAT_SIGNED_INT32, 2, VK_FORMAT_R32G32_SINT },
      { CU_AD_FORMAT_SIGNED_INT32, 4, VK_FORMAT_R32G32B32A32_SINT },
      { CU_AD_FORMAT_HALF, 1, VK_FORMAT_R16_SFLOAT },
      { CU_AD_FORMAT_HALF, 2, VK_FORMAT_R16G16_SFLOAT },
      { CU_AD_FORMAT_HALF, 4, VK_FORMAT_R16G16B16A16_SFLOAT },
      { CU_AD_FORMAT_FLOAT, 1, VK_FORMAT_R32_SFLOAT },
      { CU_AD_FORMAT_FLOAT, 2, VK_FORMAT_R32G32_SFLOAT },
      { CU_AD_FORMAT_FLOAT, 4, VK_FORMAT_R32G32B32A32_SFLOAT },
      { CU_AD_FORMAT_UNORM_INT8X1, 1, VK_FORMAT_R8_UNORM },
      { CU_AD_FORMAT_UNORM_INT8X2, 2, VK_FORMAT_R8G8_UNORM },
      { CU_AD_FORMAT_UNORM_INT8X4, 4, VK_FORMAT_R8G8B8A8_UNORM },
      { CU_AD_FORMAT_UNORM_INT8X4, 4, VK_FORMAT_B8G8R8A8_UNORM },   /* same size, other order */
      { CU_AD_FORMAT_UNSIGNED_INT8, 4, VK_FORMAT_R8G8B8A8_SRGB },   /* vulkanImageCUDA's pair */
      { CU_AD_FORMAT_UNORM_INT16X1, 1, VK_FORMAT_R16_UNORM },
      { CU_AD_FORMAT_UNORM_INT16X2, 2, VK_FORMAT_R16G16_UNORM },
      { CU_AD_FORMAT_UNORM_INT16X4, 4, VK_FORMAT_R16G16B16A16_UNORM },
      { CU_AD_FORMAT_SNORM_INT8X1, 1, VK_FORMAT_R8_SNORM },
      { CU_AD_FORMAT_SNORM_INT8X2, 2, VK_FORMAT_R8G8_SNORM },
      { CU_AD_FORMAT_SNORM_INT8X4, 4, VK_FORMAT_R8G8B8A8_SNORM },
      { CU_AD_FORMAT_SNORM_INT16X1, 1, VK_FORMAT_R16_SNORM },
      { CU_AD_FORMAT_SNORM_INT16X2, 2, VK_FORMAT_R16G16_SNORM },
      { CU_AD_FORMAT_SNORM_INT16X4, 4, VK_FORMAT_R16G16B16A16_SNORM },
      { CU_AD_FORMAT_UNORM_INT_101010_2, 4, VK_FORMAT_A2B10G10R10_UNORM_PACK32 },
      { CU_AD_FORMAT_BC1_UNORM, 4, VK_FORMAT_BC1_RGBA_UNORM_BLOCK },
      { CU_AD_FORMAT_BC1_UNORM_SRGB, 4, VK_FORMAT_BC1_RGBA_SRGB_BLOCK },
      { CU_AD_FORMAT_BC2_UNORM, 4, VK_FORMAT_BC2_UNORM_BLOCK },
      { CU_AD_FORMAT_BC2_UNORM_SRGB, 4, VK_FORMAT_BC2_SRGB_BLOCK },
      { CU_AD_FORMAT_BC3_UNORM, 4, VK_FORMAT_BC3_UNORM_BLOCK },
      { CU_AD_FORMAT_BC3_UNORM_SRGB, 4, VK_FORMAT_BC3_SRGB_BLOCK },
      { CU_AD_FORMAT_BC4_UNORM, 1, VK_FORMAT_BC4_UNORM_BLOCK },
      { CU_AD_FORMAT_BC4_SNORM, 1, VK_FORMAT_BC4_SNORM_BLOCK },
      { CU_AD_FORMAT_BC5_UNORM, 2, VK_FORMAT_BC5_UNORM_BLOCK },
      { CU_AD_FORMAT_BC5_SNORM, 2, VK_FORMAT_BC5_SNORM_BLOCK },
      { CU_AD_FORMAT_BC6H_UF16, 3, VK_FORMAT_BC6H_UFLOAT_BLOCK },
      { CU_AD_FORMAT_BC6H_SF16, 3, VK_FORMAT_BC6H_SFLOAT_BLOCK },
      { CU_AD_FORMAT_BC7_UNORM, 4, VK_FORMAT_BC7_UNORM_BLOCK },
      { CU_AD_FORMAT_BC7_UNORM_SRGB, 4, VK_FORMAT_BC7_SRGB_BLOCK },
   };
   unsigned tested = 0;
   vk_begin("array.external.formats");
   for (size_t i = 0; i < AT_ARRAY_SIZE(pairs); i++) {
      /* 22x18: not whole blocks, so BC levels end in partial blocks. */
      VkImageCreateInfo info = image_info(VK_IMAGE_TYPE_2D, pairs[i].vk, 22, 18, 1, 1, 3, 0);
      if (!avk_image_supported(&vk, &info)) {
         printf("VkFormat %d: not exportable here, skipped\n", pairs[i].vk);
         continue;
      }
      CUDA_ARRAY3D_DESCRIPTOR desc = { 22, 18, 0, pairs[i].f, pairs[i].ch, 0 };
      char what[64];
      snprintf(what, sizeof(what), "format 0x%x x%u as VkFormat %d", pairs[i].f, pairs[i].ch, pairs[i].vk);
      image_both_ways(&info, &desc, 3, true, 0, what);
      tested++;
   }
   printf("%u of %zu format pairs tested\n", tested, AT_ARRAY_SIZE(pairs));
   AT_CHECK(tested > 0);
   vk_end();
}

/* ---- cuda-samples' vulkanImageCUDA ---- */

/* An R8G8B8A8_UNORM optimal image with its full mip chain, imported,
 * every level obtained, each level filled from the one above it by
 * array-to-array copies, and the whole chain read back by Vulkan; through
 * the driver API or, as the sample does, the runtime's. */
static void
image_flow(bool runtime)
{
   const uint32_t W = 256, H = 256, levels = 9;
   vk_begin("array.external.vulkan_image_cuda_flow");
   VkImageCreateInfo info = image_info(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, W, H, 1, 1, levels, 0);
   struct avk_image img;
   if (!avk_image_create(&vk, &info, true, 0, &img)) {
      AT_CHECK(!"exporting the image failed");
      vk_end();
      return;
   }
   /* The application uploads its texture into level 0. */
   uint8_t *model[9];
   for (uint32_t l = 0; l < levels; l++) {
      model[l] = at_malloc(avk_level_size(&img, l));
      at_fill_random(model[l], avk_level_size(&img, l));
   }
   AT_CHECK(avk_write_level(&vk, &img, 0, model[0]));

   CUexternalMemory ext = NULL;
   CUmipmappedArray mip = NULL;
   cudaExternalMemory_t rt_ext = NULL;
   cudaMipmappedArray_t rt_mip = NULL;
   CUarray level[9];
   cudaArray_t rt_level[9];
   if (runtime) {
      struct cudaExternalMemoryHandleDesc hd;
      memset(&hd, 0, sizeof(hd));
      hd.type = cudaExternalMemoryHandleTypeOpaqueFd;
      hd.handle.fd = img.fd;
      hd.size = img.allocation_size;
      hd.flags = cudaExternalMemoryDedicated;
      AT_CHECK(cudaImportExternalMemory(&rt_ext, &hd) == cudaSuccess);
      img.fd = -1;
      struct cudaExternalMemoryMipmappedArrayDesc md;
      memset(&md, 0, sizeof(md));
      md.formatDesc = (struct cudaChannelFormatDesc){ 8, 8, 8, 8, cudaChannelFormatKindUnsigned };
      md.extent = (struct cudaExtent){ W, H, 0 };
      md.numLevels = levels;
      AT_CHECK(cudaExternalMemoryGetMappedMipmappedArray(&rt_mip, rt_ext, &md) == cudaSuccess);
      for (uint32_t l = 0; l < levels; l++)
         AT_CHECK(cudaGetMipmappedArrayLevel(&rt_level[l], rt_mip, l) == cudaSuccess);
   } else {
      AT_OK(import_image(&img, &ext));
      CUDA_ARRAY3D_DESCRIPTOR desc = { W, H, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0 };
      AT_OK(map_image(ext, 0, &desc, levels, &mip));
      for (uint32_t l = 0; l < levels; l++)
         AT_OK(cuMipmappedArrayGetLevel(&level[l], mip, l));
   }

   /* Level l+1 takes the top-left quarter of level l. */
   for (uint32_t l = 0; l + 1 < levels; l++) {
      size_t w = AT_MAX(W >> (l + 1), 1u), h = AT_MAX(H >> (l + 1), 1u), pw = AT_MAX(W >> l, 1u);
      if (runtime) {
         AT_CHECK(cudaMemcpy2DArrayToArray(rt_level[l + 1], 0, 0, rt_level[l], 0, 0, w * 4, h,
                                           cudaMemcpyDeviceToDevice) == cudaSuccess);
      } else {
         CUDA_MEMCPY2D p;
         memset(&p, 0, sizeof(p));
         p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
         p.srcArray = level[l];
         p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
         p.dstArray = level[l + 1];
         p.WidthInBytes = w * 4;
         p.Height = h;
         AT_OK(cuMemcpy2D(&p));
      }
      for (size_t y = 0; y < h; y++)
         memcpy(model[l + 1] + y * w * 4, model[l] + y * pw * 4, w * 4);
   }
   AT_OK(cuCtxSynchronize());

   for (uint32_t l = 0; l < levels; l++) {
      size_t n = avk_level_size(&img, l);
      uint8_t *got = at_malloc(n);
      AT_CHECK(avk_read_level(&vk, &img, l, got));
      char what[64];
      snprintf(what, sizeof(what), "vulkanImageCUDA level %u read by Vulkan", l);
      AT_COMPARE(what, got, model[l], n);
      free(got);
      free(model[l]);
   }
   if (runtime) {
      AT_CHECK(cudaFreeMipmappedArray(rt_mip) == cudaSuccess);
      AT_CHECK(cudaDestroyExternalMemory(rt_ext) == cudaSuccess);
      AT_CHECK(cudaGetLastError() == cudaSuccess);
   } else {
      AT_OK(cuMipmappedArrayDestroy(mip));
      AT_OK(cuDestroyExternalMemory(ext));
   }
   avk_image_destroy(&vk, &img);
   vk_end();
}

static void
vulkan_image_cuda_flow(void)
{
   image_flow(false);
}

static void
vulkan_image_cuda_flow_runtime(void)
{
   image_flow(true);
}

/* An application's image without STORAGE usage (vulkanImageCUDA's:
 * transfer and sampled) still takes CUDA surfaces: the layer gives
 * exportable images the usage CUDA needs, and cuvk's image over the
 * import repeats it (docs/layer.md).  One the application made
 * MUTABLE_FORMAT without a format list is left alone (its views of any
 * format would inherit STORAGE): no surfaces there, NOT_SUPPORTED. */
static void
surfaces(void)
{
   vk_begin("array.external.surfaces");
   for (int mutable_format = 0; mutable_format < 2; mutable_format++) {
      VkImageCreateInfo info = image_info(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, 64, 32, 1, 1, 7,
                                          mutable_format ? VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT : 0);
      struct avk_image img;
      if (!avk_image_create(&vk, &info, true, 0, &img)) {
         AT_CHECK(!"exporting the image failed");
         continue;
      }
      CUexternalMemory ext;
      CUmipmappedArray mip;
      CUarray level;
      CUDA_ARRAY3D_DESCRIPTOR desc = { 64, 32, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, CUDA_ARRAY3D_SURFACE_LDST };
      AT_OK(import_image(&img, &ext));
      AT_OK(map_image(ext, 0, &desc, 7, &mip));
      AT_OK(cuMipmappedArrayGetLevel(&level, mip, 3));
      CUDA_RESOURCE_DESC rd;
      memset(&rd, 0, sizeof(rd));
      rd.resType = CU_RESOURCE_TYPE_ARRAY;
      rd.res.array.hArray = level;
      CUsurfObject surf = 0;
      AT_EXPECT(mutable_format ? CUDA_ERROR_NOT_SUPPORTED : CUDA_SUCCESS, cuSurfObjectCreate(&surf, &rd));
      if (surf)
         AT_OK(cuSurfObjectDestroy(surf));
      /* Textures in both read modes: the image's own format and its
       * integer twin. */
      for (int as_integer = 0; as_integer < 2; as_integer++) {
         CUDA_TEXTURE_DESC td;
         memset(&td, 0, sizeof(td));
         td.filterMode = CU_TR_FILTER_MODE_POINT;
         td.flags = as_integer ? CU_TRSF_READ_AS_INTEGER : 0;
         CUtexObject tex = 0;
         AT_OK(cuTexObjectCreate(&tex, &rd, &td, NULL));
         if (tex)
            AT_OK(cuTexObjectDestroy(tex));
      }
      AT_OK(cuMipmappedArrayDestroy(mip));
      AT_OK(cuDestroyExternalMemory(ext));
      avk_image_destroy(&vk, &img);
   }
   vk_end();
}

/* The import may go before its arrays; they keep it alive. */
static void
lifetime(void)
{
   vk_begin("array.external.lifetime");
   VkImageCreateInfo info = image_info(VK_IMAGE_TYPE_2D, VK_FORMAT_R32_UINT, 40, 40, 1, 1, 2, 0);
   CUDA_ARRAY3D_DESCRIPTOR desc = { 40, 40, 0, CU_AD_FORMAT_UNSIGNED_INT32, 1, 0 };
   for (int dedicated = 0; dedicated < 2; dedicated++) {
      struct avk_image img;
      AT_CHECK(avk_image_create(&vk, &info, dedicated, 0, &img));
      CUexternalMemory ext;
      CUmipmappedArray a, b;
      AT_OK(import_image(&img, &ext));
      AT_OK(map_image(ext, img.offset, &desc, 2, &a));
      AT_OK(map_image(ext, img.offset, &desc, 1, &b));
      AT_OK(cuDestroyExternalMemory(ext));
      CUarray level;
      AT_OK(cuMipmappedArrayGetLevel(&level, a, 1));
      level_both_ways(&img, level, 1, "after the import was destroyed");
      AT_OK(cuMipmappedArrayDestroy(a));
      AT_OK(cuMipmappedArrayGetLevel(&level, b, 0));
      level_both_ways(&img, level, 0, "second mapping of the same image");
      AT_OK(cuMipmappedArrayDestroy(b));
      AT_OK(cuCtxSynchronize());
      avk_image_destroy(&vk, &img);
   }
   vk_end();
}

/* Without cuvk's layer the image is built from the descriptor. */
static void
no_record(void)
{
   vk_begin("array.external.no_record");
   VkImageCreateInfo info = image_info(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UINT, 48, 30, 1, 1, 3, 0);
   CUDA_ARRAY3D_DESCRIPTOR desc = { 48, 30, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0 };
   image_both_ways(&info, &desc, 3, false, 0, "no record");

   struct avk_image img;
   AT_CHECK(avk_image_create(&vk, &info, false, 0, &img));
   CUexternalMemory ext;
   CUmipmappedArray mip;
   AT_OK(import_image(&img, &ext));
   /* Past the memory, misaligned, and more levels than the size has. */
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, map_image(ext, img.allocation_size - 1024, &desc, 3, &mip));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, map_image(ext, 4, &desc, 3, &mip));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, map_image(ext, 0, &desc, 7, &mip));
   AT_OK(cuDestroyExternalMemory(ext));
   avk_image_destroy(&vk, &img);

   /* A dedicated allocation cannot be mapped without the record. */
   AT_CHECK(avk_image_create(&vk, &info, true, 0, &img));
   AT_OK(import_image(&img, &ext));
   AT_EXPECT(CUDA_ERROR_NOT_SUPPORTED, map_image(ext, 0, &desc, 3, &mip));
   AT_OK(cuDestroyExternalMemory(ext));
   avk_image_destroy(&vk, &img);
   vk_end();
}

/* Every bad mipmapped-array descriptor, against a 64x32 RGBA8 image with
 * 5 of its 7 possible levels, dedicated and suballocated. */
static void
errors_external(void)
{
   vk_begin("array.errors.external");
   VkImageCreateInfo info = image_info(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, 64, 32, 1, 1, 5, 0);
   for (int dedicated = 0; dedicated < 2; dedicated++) {
      struct avk_image img;
      AT_CHECK(avk_image_create(&vk, &info, dedicated, dedicated ? 0 : 8192, &img));
      CUexternalMemory ext;
      CUmipmappedArray mip;
      AT_OK(import_image(&img, &ext));
      uint64_t off = img.offset;
      const CUDA_ARRAY3D_DESCRIPTOR good = { 64, 32, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0 };
      struct {
         const char *what;
         CUDA_ARRAY3D_DESCRIPTOR d;
         unsigned levels;
         uint64_t offset;
      } bad[] = {
         { "0 levels", good, 0, off },
         { "more levels than log2 + 1", good, 8, off },
         { "more levels than the image", good, 6, off },
         { "bogus format", { 64, 32, 0, (CUarray_format)0x42, 4, 0 }, 1, off },
         { "3 channels", { 64, 32, 0, CU_AD_FORMAT_UNSIGNED_INT8, 3, 0 }, 1, off },
         { "zero width", { 0, 32, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0 }, 1, off },
         { "wider than the image", { 128, 32, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0 }, 1, off },
         { "shorter than the image", { 64, 16, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0 }, 1, off },
         { "other element size", { 64, 32, 0, CU_AD_FORMAT_FLOAT, 4, 0 }, 1, off },
         { "3D over a 2D image", { 64, 32, 2, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0 }, 1, off },
         { "layered over a plain image", { 64, 32, 2, CU_AD_FORMAT_UNSIGNED_INT8, 4, CUDA_ARRAY3D_LAYERED },
           1, off },
         { "1D over a 2D image", { 64, 0, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0 }, 1, off },
         { "misaligned offset", good, 1, off + 4 },
         { "offset past the memory", good, 1, img.allocation_size },
         { "unknown flag", { 64, 32, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0x4000 }, 1, off },
      };
      for (size_t i = 0; i < AT_ARRAY_SIZE(bad); i++) {
         CUresult res = map_image(ext, bad[i].offset, &bad[i].d, bad[i].levels, &mip);
         if (res != CUDA_ERROR_INVALID_VALUE) {
            fprintf(stderr, "%s (%s): %s\n", bad[i].what, dedicated ? "dedicated" : "suballocated",
                    at_result_name(res));
            AT_CHECK(!"must be CUDA_ERROR_INVALID_VALUE");
            if (res == CUDA_SUCCESS)
               cuMipmappedArrayDestroy(mip);
         }
      }
      AT_EXPECT(CUDA_ERROR_INVALID_VALUE, map_image(NULL, off, &good, 1, &mip));
      AT_EXPECT(CUDA_ERROR_INVALID_VALUE, map_image(ext, off, &good, 1, NULL));
      AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedMipmappedArray(&mip, ext, NULL));
      /* The good one still works after all that. */
      AT_OK(map_image(ext, off, &good, 5, &mip));
      AT_OK(cuMipmappedArrayDestroy(mip));
      AT_OK(cuDestroyExternalMemory(ext));
      AT_EXPECT(CUDA_ERROR_INVALID_HANDLE, map_image(ext, off, &good, 1, &mip));
      avk_image_destroy(&vk, &img);
   }
   vk_end();
}

static const struct at_case cases[] = {
   AT_CASE("array.external.matrix.w1.d0", matrix_w1_d0),
   AT_CASE("array.external.matrix.w1.d4", matrix_w1_d4),
   AT_CASE("array.external.matrix.w32.d0", matrix_w32_d0),
   AT_CASE("array.external.matrix.w32.d4", matrix_w32_d4),
   AT_CASE("array.external.matrix.w127.d0", matrix_w127_d0),
   AT_CASE("array.external.matrix.w127.d4", matrix_w127_d4),
   AT_CASE("array.external.matrix.w256.d0", matrix_w256_d0),
   AT_CASE("array.external.matrix.w256.d4", matrix_w256_d4),
   AT_CASE("array.external.shapes", shapes),
   AT_CASE("array.external.suballocated", suballocated),
   AT_CASE("array.external.formats", formats),
   AT_CASE("array.external.vulkan_image_cuda_flow", vulkan_image_cuda_flow),
   AT_CASE("array.runtime.vulkan_image_cuda_flow", vulkan_image_cuda_flow_runtime),
   AT_CASE("array.external.surfaces", surfaces),
   AT_CASE("array.external.lifetime", lifetime),
   AT_CASE("array.external.no_record", no_record),
   AT_CASE("array.errors.external", errors_external),
};

AT_MAIN(cases)
