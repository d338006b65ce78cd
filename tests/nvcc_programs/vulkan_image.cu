// The vulkanImageCUDA flow, written here: Vulkan makes an RGBA8 image with
// a full mip chain in exportable memory (optimal tiling, the usage such an
// application gives it: transfer source and destination, sampled; no
// storage), uploads a pattern to level 0 and blits the other levels from
// it, keeps a copy of every level and hands the image to CUDA with a
// semaphore.  CUDA maps the memory as a mipmapped array, makes a texture
// object per level and a surface object per level (the surfaces kept in
// device memory, so kernels load their handles), runs a 3x3 box filter on
// every level (textures of the image in, surfaces of a CUDA mipmapped
// array out), writes the result back into the image through its surfaces
// and signals Vulkan, which reads every level back.  Every texel of every
// level is checked against a box filter computed here from Vulkan's copy.
//
//    nvcc_vulkan_image [SIZE [PASSES]]
//
// SIZE: the image's width and height (default 128; lavapipe's 16 surface
// slots hold two per level up to 128).  PASSES: how many times the box
// filter pass is timed (cudaEvent; default 1); the time of one pass over
// all levels is printed, to compare cuvk with NVIDIA's runtime running
// the same binary.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "check.h"
#include "vk_app.h"

static const char *const NAME = "nvcc_programs.vulkan_image";

// ---- CUDA ----

// One level: a 3x3 box over clamped neighbours, rounded to nearest, read
// through the level's texture (element type, point, clamp, texel
// coordinates) and written through a surface loaded from memory.
__global__ void
box_filter(cudaTextureObject_t tex, const cudaSurfaceObject_t *surfs, int level, int w, int h)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y * blockDim.y + threadIdx.y;
   if (x >= w || y >= h)
      return;
   unsigned r = 0, g = 0, b = 0, a = 0;
   for (int dy = -1; dy <= 1; dy++) {
      for (int dx = -1; dx <= 1; dx++) {
         uchar4 t = tex2D<uchar4>(tex, x + dx + 0.5f, y + dy + 0.5f);
         r += t.x;
         g += t.y;
         b += t.z;
         a += t.w;
      }
   }
   uchar4 out = make_uchar4((r + 4) / 9, (g + 4) / 9, (b + 4) / 9, (a + 4) / 9);
   surf2Dwrite(out, surfs[level], x * 4, y);
}

// Copies one level between two surfaces, both loaded from memory.
__global__ void
write_back(const cudaSurfaceObject_t *from, const cudaSurfaceObject_t *to, int level, int w, int h)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x;
   int y = blockIdx.y * blockDim.y + threadIdx.y;
   if (x >= w || y >= h)
      return;
   uchar4 v;
   surf2Dread(&v, from[level], x * 4, y);
   surf2Dwrite(v, to[level], x * 4, y);
}

// ---- host ----

static unsigned
level_dim(unsigned size, unsigned level)
{
   unsigned d = size >> level;
   return d ? d : 1;
}

static void
pattern(std::vector<uint8_t> &px, unsigned size)
{
   px.resize((size_t)size * size * 4);
   for (unsigned y = 0; y < size; y++) {
      for (unsigned x = 0; x < size; x++) {
         uint8_t *p = &px[((size_t)y * size + x) * 4];
         p[0] = (uint8_t)(x * 7 + y * 3);
         p[1] = (uint8_t)(x ^ y);
         p[2] = (uint8_t)((x * y) >> 3);
         p[3] = (uint8_t)(255 - ((x + 2 * y) & 127));
      }
   }
}

// The box filter of one level (w x h RGBA8 at in) into out.
static void
host_box(const uint8_t *in, unsigned w, unsigned h, uint8_t *out)
{
   for (unsigned y = 0; y < h; y++) {
      for (unsigned x = 0; x < w; x++) {
         for (unsigned c = 0; c < 4; c++) {
            unsigned sum = 0;
            for (int dy = -1; dy <= 1; dy++) {
               for (int dx = -1; dx <= 1; dx++) {
                  int sx = (int)x + dx, sy = (int)y + dy;
                  sx = sx < 0 ? 0 : sx >= (int)w ? (int)w - 1 : sx;
                  sy = sy < 0 ? 0 : sy >= (int)h ? (int)h - 1 : sy;
                  sum += in[((size_t)sy * w + sx) * 4 + c];
               }
            }
            out[((size_t)y * w + x) * 4 + c] = (uint8_t)((sum + 4) / 9);
         }
      }
   }
}

static VkImageMemoryBarrier
image_barrier(VkImage image, uint32_t level, uint32_t levels, VkImageLayout from, VkImageLayout to,
              VkAccessFlags src, VkAccessFlags dst)
{
   VkImageMemoryBarrier b = {};
   b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
   b.srcAccessMask = src;
   b.dstAccessMask = dst;
   b.oldLayout = from;
   b.newLayout = to;
   b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
   b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
   b.image = image;
   b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, level, levels, 0, 1};
   return b;
}

// Every level, packed, into buffer (a TRANSFER_SRC_OPTIMAL image).
static void
copy_levels_out(VkCommandBuffer cmd, VkImage image, unsigned size, unsigned levels, VkBuffer buffer)
{
   std::vector<VkBufferImageCopy> regions(levels);
   VkDeviceSize offset = 0;
   for (unsigned l = 0; l < levels; l++) {
      unsigned d = level_dim(size, l);
      VkBufferImageCopy r = {};
      r.bufferOffset = offset;
      r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
      r.imageExtent = {d, d, 1};
      regions[l] = r;
      offset += (VkDeviceSize)d * d * 4;
   }
   vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, levels, regions.data());
}

int
main(int argc, char **argv)
{
   check_bound_to_cuvk();
   unsigned size = argc > 1 ? (unsigned)std::atoi(argv[1]) : 128;
   unsigned passes = argc > 2 ? (unsigned)std::atoi(argv[2]) : 1;
   if (size < 1 || size > 16384 || passes < 1) {
      std::fprintf(stderr, "usage: %s [SIZE [PASSES]]\n", argv[0]);
      return 2;
   }
   unsigned levels = 1;
   while ((size >> levels) != 0)
      levels++;
   VkDeviceSize chain_bytes = 0;
   for (unsigned l = 0; l < levels; l++)
      chain_bytes += (VkDeviceSize)level_dim(size, l) * level_dim(size, l) * 4;

   vk_app app;
   if (!vk_app_init(&app, "vulkan_image")) {
      check_failures++;
      vk_app_finish(&app);
      return check_finish(NAME);
   }
   int dev = vk_app_cuda_device(&app);
   CHECK(dev >= 0);
   if (dev >= 0)
      CHECK_CUDA(cudaSetDevice(dev));

   // ---- Vulkan: the image, exportable, in memory of its own ----
   VkExternalMemoryImageCreateInfo ext_info = {};
   ext_info.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO;
   ext_info.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
   VkImageCreateInfo image_info = {};
   image_info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
   image_info.pNext = &ext_info;
   image_info.imageType = VK_IMAGE_TYPE_2D;
   image_info.format = VK_FORMAT_R8G8B8A8_UNORM;
   image_info.extent = {size, size, 1};
   image_info.mipLevels = levels;
   image_info.arrayLayers = 1;
   image_info.samples = VK_SAMPLE_COUNT_1_BIT;
   image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
   image_info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
   image_info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
   image_info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
   VkImage image = VK_NULL_HANDLE;
   CHECK_VK(vkCreateImage(app.device, &image_info, nullptr, &image));

   VkMemoryDedicatedRequirements dedicated_req = {};
   dedicated_req.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS;
   VkMemoryRequirements2 req2 = {};
   req2.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2;
   req2.pNext = &dedicated_req;
   VkImageMemoryRequirementsInfo2 req_info = {};
   req_info.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2;
   req_info.image = image;
   vkGetImageMemoryRequirements2(app.device, &req_info, &req2);
   const VkMemoryRequirements &req = req2.memoryRequirements;
   bool dedicated = dedicated_req.requiresDedicatedAllocation;

   VkMemoryDedicatedAllocateInfo dedicated_info = {};
   dedicated_info.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO;
   dedicated_info.image = image;
   VkExportMemoryAllocateInfo export_info = {};
   export_info.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO;
   export_info.pNext = dedicated ? &dedicated_info : nullptr;
   export_info.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
   VkMemoryAllocateInfo alloc = {};
   alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
   alloc.pNext = &export_info;
   alloc.allocationSize = req.size;
   int type = vk_app_memory_type(&app, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
   CHECK(type >= 0);
   alloc.memoryTypeIndex = type < 0 ? 0 : (uint32_t)type;
   VkDeviceMemory memory = VK_NULL_HANDLE;
   CHECK_VK(vkAllocateMemory(app.device, &alloc, nullptr, &memory));
   CHECK_VK(vkBindImageMemory(app.device, image, memory, 0));

   std::vector<uint8_t> level0;
   pattern(level0, size);
   vk_app_buffer staging, before, after;
   VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
   vk_app_buffer_create(&app, level0.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, host, false, &staging);
   vk_app_buffer_create(&app, chain_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, host, false, &before);
   vk_app_buffer_create(&app, chain_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, host, false, &after);
   void *map = nullptr;
   CHECK_VK(vkMapMemory(app.device, staging.memory, 0, VK_WHOLE_SIZE, 0, &map));
   if (map)
      std::memcpy(map, level0.data(), level0.size());

   VkSemaphore vk_to_cuda = vk_app_semaphore_create(&app);
   VkSemaphore cuda_to_vk = vk_app_semaphore_create(&app);

   // Upload, build the mips, keep a copy of every level, and hand the
   // image over in GENERAL to the external queue family.
   VkCommandBuffer cmd = vk_app_command_buffer(&app);
   VkImageMemoryBarrier b = image_barrier(image, 0, levels, VK_IMAGE_LAYOUT_UNDEFINED,
                                          VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT);
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                        nullptr, 1, &b);
   VkBufferImageCopy up = {};
   up.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   up.imageExtent = {size, size, 1};
   vkCmdCopyBufferToImage(cmd, staging.buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &up);
   for (unsigned l = 1; l <= levels; l++) {
      b = image_barrier(image, l - 1, 1, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                        VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT);
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                           nullptr, 1, &b);
      if (l == levels)
         break;
      int src = (int)level_dim(size, l - 1), dst = (int)level_dim(size, l);
      VkImageBlit blit = {};
      blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l - 1, 0, 1};
      blit.srcOffsets[1] = {src, src, 1};
      blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
      blit.dstOffsets[1] = {dst, dst, 1};
      vkCmdBlitImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                     1, &blit, VK_FILTER_LINEAR);
   }
   copy_levels_out(cmd, image, size, levels, before.buffer);
   b = image_barrier(image, 0, levels, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL,
                     VK_ACCESS_TRANSFER_READ_BIT, 0);
   b.srcQueueFamilyIndex = app.family;
   b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_EXTERNAL;
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr,
                        0, nullptr, 1, &b);
   VkFence built = vk_app_fence(&app);
   vk_app_submit(&app, cmd, VK_NULL_HANDLE, 0, vk_to_cuda, built);

   // ---- CUDA: the memory, the mipmapped array, objects per level ----
   VkMemoryGetFdInfoKHR fd_info = {};
   fd_info.sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR;
   fd_info.memory = memory;
   fd_info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
   int fd = -1;
   CHECK_VK(app.GetMemoryFdKHR(app.device, &fd_info, &fd));
   cudaExternalMemoryHandleDesc mem_desc = {};
   mem_desc.type = cudaExternalMemoryHandleTypeOpaqueFd;
   mem_desc.handle.fd = fd;
   mem_desc.size = req.size;
   mem_desc.flags = dedicated ? cudaExternalMemoryDedicated : 0;
   cudaExternalMemory_t ext_mem = nullptr;
   cudaError_t err = cudaImportExternalMemory(&ext_mem, &mem_desc);
   EXPECT_ERR(err, cudaSuccess);
   if (err != cudaSuccess)
      close(fd);

   cudaExternalMemoryMipmappedArrayDesc mip_desc = {};
   mip_desc.offset = 0;
   mip_desc.formatDesc = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
   mip_desc.extent = make_cudaExtent(size, size, 0);
   mip_desc.flags = cudaArraySurfaceLoadStore;
   mip_desc.numLevels = levels;
   cudaMipmappedArray_t image_mips = nullptr, temp_mips = nullptr;
   if (ext_mem)
      CHECK_CUDA(cudaExternalMemoryGetMappedMipmappedArray(&image_mips, ext_mem, &mip_desc));
   CHECK_CUDA(cudaMallocMipmappedArray(&temp_mips, &mip_desc.formatDesc, mip_desc.extent, levels,
                                       cudaArraySurfaceLoadStore));

   std::vector<cudaTextureObject_t> textures(levels, 0);
   std::vector<cudaSurfaceObject_t> image_surfs(levels, 0), temp_surfs(levels, 0);
   for (unsigned l = 0; l < levels && image_mips && temp_mips; l++) {
      cudaArray_t level = nullptr, temp_level = nullptr;
      CHECK_CUDA(cudaGetMipmappedArrayLevel(&level, image_mips, l));
      CHECK_CUDA(cudaGetMipmappedArrayLevel(&temp_level, temp_mips, l));
      cudaResourceDesc res = {};
      res.resType = cudaResourceTypeArray;
      res.res.array.array = level;
      cudaTextureDesc tex = {};
      tex.addressMode[0] = tex.addressMode[1] = cudaAddressModeClamp;
      tex.filterMode = cudaFilterModePoint;
      tex.readMode = cudaReadModeElementType;
      tex.normalizedCoords = 0;
      CHECK_CUDA(cudaCreateTextureObject(&textures[l], &res, &tex, nullptr));
      CHECK_CUDA(cudaCreateSurfaceObject(&image_surfs[l], &res));
      res.res.array.array = temp_level;
      CHECK_CUDA(cudaCreateSurfaceObject(&temp_surfs[l], &res));
   }
   cudaSurfaceObject_t *d_image_surfs = nullptr, *d_temp_surfs = nullptr;
   CHECK_CUDA(cudaMalloc(&d_image_surfs, levels * sizeof(cudaSurfaceObject_t)));
   CHECK_CUDA(cudaMalloc(&d_temp_surfs, levels * sizeof(cudaSurfaceObject_t)));
   CHECK_CUDA(cudaMemcpy(d_image_surfs, image_surfs.data(), levels * sizeof(cudaSurfaceObject_t),
                         cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(d_temp_surfs, temp_surfs.data(), levels * sizeof(cudaSurfaceObject_t),
                         cudaMemcpyHostToDevice));

   cudaExternalSemaphore_t cu_vk_to_cuda = vk_app_cuda_semaphore(&app, vk_to_cuda);
   cudaExternalSemaphore_t cu_cuda_to_vk = vk_app_cuda_semaphore(&app, cuda_to_vk);
   cudaStream_t stream = nullptr;
   CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
   cudaEvent_t start = nullptr, stop = nullptr;
   CHECK_CUDA(cudaEventCreate(&start));
   CHECK_CUDA(cudaEventCreate(&stop));

   // ---- CUDA: wait for Vulkan, filter every level, write back, signal ----
   bool ready = check_failures == 0;
   if (ready) {
      cudaExternalSemaphoreWaitParams wait = {};
      cudaExternalSemaphoreSignalParams signal = {};
      CHECK_CUDA(cudaWaitExternalSemaphoresAsync(&cu_vk_to_cuda, &wait, 1, stream));
      dim3 block(16, 16);
      auto pass = [&]() {
         for (unsigned l = 0; l < levels; l++) {
            unsigned d = level_dim(size, l);
            dim3 grid((d + 15) / 16, (d + 15) / 16);
            box_filter<<<grid, block, 0, stream>>>(textures[l], d_temp_surfs, (int)l, (int)d, (int)d);
         }
      };
      // The first pass translates the kernel on cuvk: not timed.
      pass();
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaStreamSynchronize(stream));
      CHECK_CUDA(cudaEventRecord(start, stream));
      for (unsigned i = 0; i < passes; i++)
         pass();
      CHECK_CUDA(cudaEventRecord(stop, stream));
      CHECK_CUDA(cudaGetLastError());
      for (unsigned l = 0; l < levels; l++) {
         unsigned d = level_dim(size, l);
         dim3 grid((d + 15) / 16, (d + 15) / 16);
         write_back<<<grid, block, 0, stream>>>(d_temp_surfs, d_image_surfs, (int)l, (int)d, (int)d);
      }
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaSignalExternalSemaphoresAsync(&cu_cuda_to_vk, &signal, 1, stream));
      CHECK_CUDA(cudaEventSynchronize(stop));
      float ms = 0;
      CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
      std::printf("vulkan_image: box filter over %ux%u, %u levels: %.4f ms per pass (%u passes)\n", size, size,
                  levels, ms / passes, passes);
   }

   // ---- Vulkan: take the image back, read every level ----
   vk_app_fence_wait(&app, built);
   if (ready) {
      cmd = vk_app_command_buffer(&app);
      b = image_barrier(image, 0, levels, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, 0,
                        VK_ACCESS_TRANSFER_READ_BIT);
      b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_EXTERNAL;
      b.dstQueueFamilyIndex = app.family;
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
                           0, nullptr, 1, &b);
      copy_levels_out(cmd, image, size, levels, after.buffer);
      VkFence read = vk_app_fence(&app);
      vk_app_submit(&app, cmd, cuda_to_vk, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_NULL_HANDLE, read);
      vk_app_fence_wait(&app, read);
      vkDestroyFence(app.device, read, nullptr);

      const uint8_t *was = nullptr, *now = nullptr;
      void *p = nullptr;
      CHECK_VK(vkMapMemory(app.device, before.memory, 0, VK_WHOLE_SIZE, 0, &p));
      was = (const uint8_t *)p;
      CHECK_VK(vkMapMemory(app.device, after.memory, 0, VK_WHOLE_SIZE, 0, &p));
      now = (const uint8_t *)p;
      if (was && now) {
         CHECK(std::memcmp(was, level0.data(), level0.size()) == 0);
         std::vector<uint8_t> want(level0.size());
         size_t offset = 0;
         unsigned bad = 0;
         for (unsigned l = 0; l < levels; l++) {
            unsigned d = level_dim(size, l);
            host_box(was + offset, d, d, want.data());
            for (size_t i = 0; i < (size_t)d * d * 4; i++) {
               if (now[offset + i] != want[i] && bad++ < 8)
                  std::fprintf(stderr, "FAIL: level %u texel (%zu, %zu) channel %zu: %u, want %u\n", l,
                               (i / 4) % d, (i / 4) / d, i % 4, now[offset + i], want[i]);
            }
            offset += (size_t)d * d * 4;
         }
         if (bad) {
            std::fprintf(stderr, "FAIL: %u texel channels differ from the host box filter\n", bad);
            check_failures++;
         }
      }
   }

   // ---- teardown ----
   CHECK_CUDA(cudaDeviceSynchronize());
   for (unsigned l = 0; l < levels; l++) {
      if (textures[l])
         CHECK_CUDA(cudaDestroyTextureObject(textures[l]));
      if (image_surfs[l])
         CHECK_CUDA(cudaDestroySurfaceObject(image_surfs[l]));
      if (temp_surfs[l])
         CHECK_CUDA(cudaDestroySurfaceObject(temp_surfs[l]));
   }
   CHECK_CUDA(cudaFree(d_image_surfs));
   CHECK_CUDA(cudaFree(d_temp_surfs));
   CHECK_CUDA(cudaEventDestroy(start));
   CHECK_CUDA(cudaEventDestroy(stop));
   CHECK_CUDA(cudaStreamDestroy(stream));
   if (temp_mips)
      CHECK_CUDA(cudaFreeMipmappedArray(temp_mips));
   if (image_mips)
      CHECK_CUDA(cudaFreeMipmappedArray(image_mips));
   if (ext_mem)
      CHECK_CUDA(cudaDestroyExternalMemory(ext_mem));
   if (cu_vk_to_cuda)
      CHECK_CUDA(cudaDestroyExternalSemaphore(cu_vk_to_cuda));
   if (cu_cuda_to_vk)
      CHECK_CUDA(cudaDestroyExternalSemaphore(cu_cuda_to_vk));
   vkDestroyFence(app.device, built, nullptr);
   vkDestroySemaphore(app.device, vk_to_cuda, nullptr);
   vkDestroySemaphore(app.device, cuda_to_vk, nullptr);
   vk_app_buffer_destroy(&app, &staging);
   vk_app_buffer_destroy(&app, &before);
   vk_app_buffer_destroy(&app, &after);
   vkDestroyImage(app.device, image, nullptr);
   vkFreeMemory(app.device, memory, nullptr);
   vk_app_finish(&app);
   return check_finish(NAME);
}
