/*
 * external_memory.runtime.simple_vulkan: the runtime-API path of
 * cuda-samples' simpleVulkan (Samples/5_Domain_Specific/simpleVulkan),
 * minus the window and the kernel:
 *
 *  - the CUDA device is the one whose cudaDeviceProp::uuid is the Vulkan
 *    device's deviceUUID, skipping compute-prohibited devices;
 *  - a non-blocking stream;
 *  - the height buffer: exportable (OPAQUE_FD), not a dedicated
 *    allocation, device-local; imported with cudaExternalMemoryDedicated
 *    all the same and with the buffer's size rather than the allocation's,
 *    as the sample does; mapped whole with cudaExternalMemoryGetMappedBuffer;
 *  - Vulkan zeroes it through a staging buffer; CUDA writes the heights
 *    (here cudaMemsetAsync and cudaMemcpyAsync on the stream, where the
 *    sample launches its sine-wave kernel); Vulkan reads them back;
 *  - teardown in the sample's order: cudaStreamSynchronize, the exporter's
 *    buffer and memory, then cudaDestroyExternalMemory.  The sample never
 *    frees the mapped pointer; this test checks it still reads the heights
 *    after all that (a mapping lives until it is freed) and then frees it.
 *
 * It is built against include/cuda_runtime_api.h with NVIDIA's names and
 * signatures.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "vk_harness.h"

#define MESH_WIDTH 256
#define MESH_HEIGHT 128
#define VERTEX_COUNT (MESH_WIDTH * MESH_HEIGHT)

static bool
rt_check_(cudaError_t err, const char *expr, int line)
{
   if (err == cudaSuccess)
      return true;
   cuvk_test_report(__FILE__, line, "%s returned %s (%d)", expr, cudaGetErrorName(err), (int)err);
   return false;
}
#define RT_CHECK(expr) rt_check_((expr), #expr, __LINE__)
#define RT_SAME_BYTES(got, want, size, what)                                   \
   cuvk_test_check_bytes(__FILE__, __LINE__, (got), (want), (size), "%s", (what))

/* SineWaveSimulation::initCuda: the device Vulkan runs on, by UUID. */
static int
rt_pick_device(const uint8_t *vk_uuid)
{
   int count = 0;
   if (!RT_CHECK(cudaGetDeviceCount(&count)))
      return -1;
   for (int dev = 0; dev < count; dev++) {
      struct cudaDeviceProp prop;
      int mode = 0;
      if (!RT_CHECK(cudaGetDeviceProperties(&prop, dev)) ||
          !RT_CHECK(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, dev)))
         return -1;
      if (mode == cudaComputeModeProhibited)
         continue;
      if (memcmp(&prop.uuid, vk_uuid, VK_UUID_SIZE) == 0) {
         if (!RT_CHECK(cudaSetDevice(dev)))
            return -1;
         printf("CUDA device %d: %s\n", dev, prop.name);
         return dev;
      }
   }
   vkh_fail(__FILE__, __LINE__, "no CUDA device has the Vulkan device's UUID");
   return -1;
}

/* The sample's heights at time t, computed on the host. */
static void
rt_heights(float *h, float t)
{
   for (int y = 0; y < MESH_HEIGHT; y++) {
      for (int x = 0; x < MESH_WIDTH; x++) {
         float u = 2.0f * x / MESH_WIDTH - 1.0f;
         float v = 2.0f * y / MESH_HEIGHT - 1.0f;
         h[y * MESH_WIDTH + x] = 0.5f * sinf(u * 4.0f + t) * cosf(v * 4.0f + t);
      }
   }
}

/* vkCmdCopyBuffer between two buffers on the exporter's queue; waits. */
static bool
rt_copy(struct vkh *h, VkCommandPool pool, VkBuffer dst, VkBuffer src, VkDeviceSize size)
{
   VkCommandBufferAllocateInfo alloc = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .commandPool = pool,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 1,
   };
   VkCommandBufferBeginInfo begin = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
   };
   VkCommandBuffer cmd;
   if (vkAllocateCommandBuffers(h->device, &alloc, &cmd) != VK_SUCCESS)
      return false;
   vkBeginCommandBuffer(cmd, &begin);
   VkBufferCopy region = { .size = size };
   vkCmdCopyBuffer(cmd, src, dst, 1, &region);
   VkMemoryBarrier barrier = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
      .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                        &barrier, 0, NULL, 0, NULL);
   vkEndCommandBuffer(cmd);
   VkSubmitInfo submit = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .commandBufferCount = 1,
      .pCommandBuffers = &cmd,
   };
   bool ok = vkQueueSubmit(h->queue, 1, &submit, VK_NULL_HANDLE) == VK_SUCCESS &&
             vkQueueWaitIdle(h->queue) == VK_SUCCESS;
   vkFreeCommandBuffers(h->device, pool, 1, &cmd);
   return ok;
}

int
main(void)
{
   const VkDeviceSize size = VERTEX_COUNT * sizeof(float);
   struct vkh h;
   VkCommandPool pool = VK_NULL_HANDLE;
   VkBuffer height = VK_NULL_HANDLE, staging = VK_NULL_HANDLE;
   VkDeviceMemory height_memory = VK_NULL_HANDLE, staging_memory = VK_NULL_HANDLE;
   cudaStream_t stream = NULL;
   cudaExternalMemory_t ext = NULL;
   float *heights = NULL;
   float *want = malloc(size), *got = malloc(size), *zeros = calloc(1, size);

   if (!want || !got || !zeros) {
      fprintf(stderr, "out of memory\n");
      return VKH_EXIT_FAIL;
   }
   if (!vkh_init(&h, "external_memory.runtime.simple_vulkan", NULL))
      return VKH_EXIT_FAIL;
   VkCommandPoolCreateInfo pool_info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .queueFamilyIndex = h.queue_family,
   };
   VKH_CHECK_VK(vkCreateCommandPool(h.device, &pool_info, NULL, &pool));

   if (rt_pick_device(h.device_uuid) < 0 ||
       !RT_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)))
      goto out;

   /* VulkanBaseApp::createExternalBuffer: an exportable buffer, memory
    * allocated for export but not dedicated to it. */
   VKH_CHECK_VK(vkh_create_buffer(&h, size, VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                            VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                            VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                                  VKH_OPAQUE_FD, &height));
   if (!height)
      goto out;
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(h.device, height, &req);
   int type = vkh_find_memory_type(&h, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
   if (type < 0) {
      vkh_fail(__FILE__, __LINE__, "no device-local memory type for the height buffer");
      goto out;
   }
   VKH_CHECK_VK(vkh_allocate(&h, req.size, (uint32_t)type, VKH_OPAQUE_FD, VK_NULL_HANDLE,
                             VK_NULL_HANDLE, &height_memory));
   if (!height_memory)
      goto out;
   VKH_CHECK_VK(vkBindBufferMemory(h.device, height, height_memory, 0));

   /* importCudaExternalMemory. */
   struct cudaExternalMemoryHandleDesc mem_desc;
   memset(&mem_desc, 0, sizeof(mem_desc));
   mem_desc.type = cudaExternalMemoryHandleTypeOpaqueFd;
   mem_desc.size = size;
   mem_desc.flags |= cudaExternalMemoryDedicated;
   mem_desc.handle.fd = vkh_get_memory_fd(&h, height_memory, VKH_OPAQUE_FD);
   if (mem_desc.handle.fd < 0 || !RT_CHECK(cudaImportExternalMemory(&ext, &mem_desc)))
      goto out;
   struct cudaExternalMemoryBufferDesc buf_desc;
   memset(&buf_desc, 0, sizeof(buf_desc));
   buf_desc.offset = 0;
   buf_desc.size = size;
   buf_desc.flags = 0;
   if (!RT_CHECK(cudaExternalMemoryGetMappedBuffer((void **)&heights, ext, &buf_desc)))
      goto out;

   /* Vulkan sets the starting heights through a staging buffer. */
   VKH_CHECK_VK(vkh_create_buffer(&h, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                            VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0, &staging));
   if (!staging)
      goto out;
   VKH_CHECK_VK(vkh_allocate_for_buffer(&h, staging, false, 0, &staging_memory, NULL, NULL));
   if (!staging_memory)
      goto out;
   VKH_CHECK_VK(vkBindBufferMemory(h.device, staging, staging_memory, 0));
   if (!vkh_write(&h, staging_memory, 0, zeros, size) || !rt_copy(&h, pool, height, staging, size)) {
      vkh_fail(__FILE__, __LINE__, "zeroing the heights through Vulkan failed");
      goto out;
   }

   /* CUDA reads Vulkan's zeros, then writes a frame's heights. */
   if (!RT_CHECK(cudaMemcpy(got, heights, size, cudaMemcpyDeviceToHost)))
      goto out;
   RT_SAME_BYTES(got, zeros, size, "CUDA reading Vulkan's zeros");
   rt_heights(want, 0.25f);
   if (!RT_CHECK(cudaMemsetAsync(heights, 0x7f, size, stream)) ||
       !RT_CHECK(cudaMemcpyAsync(heights + 1, want + 1, size - 2 * sizeof(float),
                                 cudaMemcpyHostToDevice, stream)) ||
       !RT_CHECK(cudaMemset(heights, 0, sizeof(float))) ||
       !RT_CHECK(cudaStreamSynchronize(stream)))
      goto out;
   /* The memset's bytes stay in the last height; the first was zeroed. */
   want[0] = 0.0f;
   memset(&want[VERTEX_COUNT - 1], 0x7f, sizeof(float));
   if (!RT_CHECK(cudaDeviceSynchronize()))
      goto out;

   /* Vulkan reads them. */
   if (!rt_copy(&h, pool, staging, height, size) || !vkh_read(&h, staging_memory, 0, got, size))
      vkh_fail(__FILE__, __LINE__, "reading the heights through Vulkan failed");
   else
      RT_SAME_BYTES(got, want, size, "Vulkan reading CUDA's heights");

out:
   /* ~VulkanCudaSineWave. */
   if (stream)
      RT_CHECK(cudaStreamSynchronize(stream));
   if (staging)
      vkDestroyBuffer(h.device, staging, NULL);
   if (staging_memory)
      vkFreeMemory(h.device, staging_memory, NULL);
   if (height)
      vkDestroyBuffer(h.device, height, NULL);
   if (height_memory)
      vkFreeMemory(h.device, height_memory, NULL);
   if (ext)
      RT_CHECK(cudaDestroyExternalMemory(ext));

   /* Beyond the sample: the mapping outlived both frees. */
   if (heights) {
      if (RT_CHECK(cudaMemcpy(got, heights, size, cudaMemcpyDeviceToHost)))
         RT_SAME_BYTES(got, want, size, "the mapping after the sample's teardown");
      RT_CHECK(cudaFree(heights));
   }
   if (stream)
      RT_CHECK(cudaStreamDestroy(stream));
   if (pool)
      vkDestroyCommandPool(h.device, pool, NULL);
   free(want);
   free(got);
   free(zeros);
   return vkh_exit(vkh_finish(&h));
}
