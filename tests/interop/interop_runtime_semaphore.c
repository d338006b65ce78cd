/*
 * external_semaphore.runtime.simple_vulkan.{timeline,binary}: the frame
 * loop of cuda-samples' simpleVulkan with its semaphores, through the
 * runtime API.
 *
 * The sample hands the vertex buffer to CUDA with one exportable
 * semaphore (Vulkan signals when it is done with the buffer, CUDA waits)
 * and back with another (CUDA signals when it has written the buffer,
 * Vulkan waits before it reads).  Here, per frame:
 *
 *  - Vulkan "renders" into the exported buffer: fills of the whole buffer
 *    and then a pattern from a staging buffer, and signals `ready`;
 *  - CUDA: cudaWaitExternalSemaphoresAsync(ready), transforms the buffer
 *    on a non-blocking stream with cudaMemcpyAsync (the first half over
 *    the second) and cudaMemsetAsync (the first MiB), then
 *    cudaSignalExternalSemaphoresAsync(done);
 *  - Vulkan waits for `done` in the submit that copies the buffer to a
 *    host-visible one, and the host checks every byte against a model.
 *
 * No host wait orders the two sides; only the semaphores do: with
 * ITEST_OMIT_WAIT=1 both waits are left out and the byte check fails.  The
 * semaphores come from vkGetSemaphoreFdKHR after the application checked
 * vkGetPhysicalDeviceExternalSemaphoreProperties: VK_LAYER_CUVK_interop's
 * on lavapipe, the driver's where it exports them.  Built against
 * include/cuda_runtime_api.h with NVIDIA's names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "vk_harness.h"

#define SIZE (16u << 20)
#define HALF (SIZE / 2)
#define CLEARED (1u << 20)
#define FRAMES 4
#define RENDER_FILLS 6

static bool
rt_check_(cudaError_t err, const char *expr, int line)
{
   if (err == cudaSuccess)
      return true;
   cuvk_test_report(__FILE__, line, "%s returned %s (%d)", expr, cudaGetErrorName(err), (int)err);
   return false;
}
#define RT_CHECK(expr) rt_check_((expr), #expr, __LINE__)

struct app {
   struct vkh h;
   bool timeline;
   VkCommandPool pool;
   VkCommandBuffer cmd;
   VkFence fence;
   VkBuffer vertex, staging, readback;
   VkDeviceMemory vertex_mem, staging_mem, readback_mem;
   VkSemaphore ready, done;
   PFN_vkGetSemaphoreFdKHR GetSemaphoreFdKHR;
};

static VkBuffer
host_buffer(struct app *a, VkDeviceMemory *mem)
{
   VkBuffer buf = VK_NULL_HANDLE;
   VKH_CHECK_VK(vkh_create_buffer(&a->h, SIZE,
                                  VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                  0, &buf));
   VKH_CHECK_VK(vkh_allocate_for_buffer(&a->h, buf, false, 0, mem, NULL, NULL));
   VKH_CHECK_VK(vkBindBufferMemory(a->h.device, buf, *mem, 0));
   return buf;
}

/* VulkanBaseApp::createExternalSemaphore. */
static VkSemaphore
create_semaphore(struct app *a)
{
   VkSemaphoreTypeCreateInfo type = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
      .semaphoreType = a->timeline ? VK_SEMAPHORE_TYPE_TIMELINE : VK_SEMAPHORE_TYPE_BINARY,
   };
   VkExportSemaphoreCreateInfo export_info = {
      .sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO,
      .pNext = &type,
      .handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT,
   };
   VkSemaphoreCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
      .pNext = &export_info,
   };
   VkSemaphore sem = VK_NULL_HANDLE;
   VKH_CHECK_VK(vkCreateSemaphore(a->h.device, &info, NULL, &sem));
   return sem;
}

/* SineWaveSimulation::importCudaExternalSemaphore. */
static cudaExternalSemaphore_t
import_semaphore(struct app *a, VkSemaphore sem)
{
   VkSemaphoreGetFdInfoKHR get = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR,
      .semaphore = sem,
      .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT,
   };
   struct cudaExternalSemaphoreHandleDesc desc;
   memset(&desc, 0, sizeof(desc));
   desc.type = a->timeline ? cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd
                           : cudaExternalSemaphoreHandleTypeOpaqueFd;
   desc.handle.fd = -1;
   VKH_CHECK_VK(a->GetSemaphoreFdKHR(a->h.device, &get, &desc.handle.fd));
   cudaExternalSemaphore_t ext = NULL;
   if (desc.handle.fd >= 0 && !RT_CHECK(cudaImportExternalSemaphore(&ext, &desc))) {
      close(desc.handle.fd);
      ext = NULL;
   }
   return ext;
}

static void
begin(struct app *a)
{
   VKH_CHECK_VK(vkResetCommandBuffer(a->cmd, 0));
   VkCommandBufferBeginInfo info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
   };
   VKH_CHECK_VK(vkBeginCommandBuffer(a->cmd, &info));
}

static bool
submit_and_wait(struct app *a, VkSemaphore wait, uint64_t wait_value, VkSemaphore signal,
                uint64_t signal_value)
{
   VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
   VkTimelineSemaphoreSubmitInfo values = {
      .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
      .waitSemaphoreValueCount = wait ? 1 : 0,
      .pWaitSemaphoreValues = &wait_value,
      .signalSemaphoreValueCount = signal ? 1 : 0,
      .pSignalSemaphoreValues = &signal_value,
   };
   VkSubmitInfo info = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .pNext = a->timeline ? &values : NULL,
      .waitSemaphoreCount = wait ? 1 : 0,
      .pWaitSemaphores = &wait,
      .pWaitDstStageMask = &stage,
      .commandBufferCount = 1,
      .pCommandBuffers = &a->cmd,
      .signalSemaphoreCount = signal ? 1 : 0,
      .pSignalSemaphores = &signal,
   };
   VKH_CHECK_VK(vkEndCommandBuffer(a->cmd));
   if (vkQueueSubmit(a->h.queue, 1, &info, a->fence) != VK_SUCCESS ||
       vkWaitForFences(a->h.device, 1, &a->fence, VK_TRUE, 60ull * 1000000000ull) != VK_SUCCESS) {
      vkh_fail(__FILE__, __LINE__, "a Vulkan submit failed or did not finish");
      return false;
   }
   VKH_CHECK_VK(vkResetFences(a->h.device, 1, &a->fence));
   return true;
}

/* Bytes with no short period. */
static void
pattern(uint8_t *dst, size_t size, uint32_t seed)
{
   uint32_t x = seed * 2654435761u + 1u;
   for (size_t i = 0; i < size; i++) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      dst[i] = (uint8_t)(x >> 11);
   }
}

static int
run(bool timeline)
{
   const char *name = timeline ? "external_semaphore.runtime.simple_vulkan.timeline"
                               : "external_semaphore.runtime.simple_vulkan.binary";
   static const char *const extensions[] = { VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME };
   VkPhysicalDeviceVulkan12Features features12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
      .timelineSemaphore = VK_TRUE,
   };
   struct vkh_options options = {
      .api_version = VK_API_VERSION_1_2,
      .device_extensions = extensions,
      .device_extension_count = 1,
      .device_pnext = &features12,
   };
   struct app a;
   memset(&a, 0, sizeof(a));
   a.timeline = timeline;
   cudaStream_t stream = NULL;
   cudaExternalMemory_t ext_mem = NULL;
   cudaExternalSemaphore_t cu_ready = NULL, cu_done = NULL;
   uint8_t *vertices = NULL;
   uint8_t *want = malloc(SIZE), *got = malloc(SIZE);
   const char *omit = getenv("ITEST_OMIT_WAIT");
   bool omit_wait = omit && strcmp(omit, "1") == 0;

   if (!want || !got || !vkh_init(&a.h, name, &options))
      return VKH_EXIT_FAIL;

   /* The sample's check before it creates exportable semaphores. */
   VkSemaphoreTypeCreateInfo type = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
      .semaphoreType = timeline ? VK_SEMAPHORE_TYPE_TIMELINE : VK_SEMAPHORE_TYPE_BINARY,
   };
   VkPhysicalDeviceExternalSemaphoreInfo sem_info = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO,
      .pNext = &type,
      .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT,
   };
   VkExternalSemaphoreProperties sem_props = { .sType = VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES };
   vkGetPhysicalDeviceExternalSemaphoreProperties(a.h.physical_device, &sem_info, &sem_props);
   if (!(sem_props.externalSemaphoreFeatures & VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT)) {
      fprintf(stderr, "SKIP: no exportable OPAQUE_FD semaphores\n");
      vkh_finish(&a.h);
      return VKH_EXIT_SKIP;
   }
   a.GetSemaphoreFdKHR =
      (PFN_vkGetSemaphoreFdKHR)vkGetDeviceProcAddr(a.h.device, "vkGetSemaphoreFdKHR");
   VKH_CHECK(a.GetSemaphoreFdKHR != NULL);

   VkCommandPoolCreateInfo pool_info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
      .queueFamilyIndex = a.h.queue_family,
   };
   VKH_CHECK_VK(vkCreateCommandPool(a.h.device, &pool_info, NULL, &a.pool));
   VkCommandBufferAllocateInfo alloc = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .commandPool = a.pool,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 1,
   };
   VKH_CHECK_VK(vkAllocateCommandBuffers(a.h.device, &alloc, &a.cmd));
   VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
   VKH_CHECK_VK(vkCreateFence(a.h.device, &fence_info, NULL, &a.fence));

   /* The CUDA device whose UUID is Vulkan's. */
   int count = 0, device = -1;
   if (!RT_CHECK(cudaGetDeviceCount(&count)))
      goto out;
   for (int dev = 0; dev < count && device < 0; dev++) {
      struct cudaDeviceProp prop;
      if (RT_CHECK(cudaGetDeviceProperties(&prop, dev)) &&
          memcmp(&prop.uuid, a.h.device_uuid, VK_UUID_SIZE) == 0)
         device = dev;
   }
   if (device < 0 || !RT_CHECK(cudaSetDevice(device)) ||
       !RT_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking))) {
      vkh_fail(__FILE__, __LINE__, "no CUDA device for the Vulkan device");
      goto out;
   }

   /* The vertex buffer, exported and imported. */
   VKH_CHECK_VK(vkh_create_buffer(&a.h, SIZE, VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                              VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                              VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                                  VKH_OPAQUE_FD, &a.vertex));
   VkDeviceSize allocation_size = 0;
   VKH_CHECK_VK(vkh_allocate_for_buffer(&a.h, a.vertex, false, VKH_OPAQUE_FD, &a.vertex_mem,
                                        &allocation_size, NULL));
   if (!a.vertex || !a.vertex_mem)
      goto out;
   VKH_CHECK_VK(vkBindBufferMemory(a.h.device, a.vertex, a.vertex_mem, 0));
   struct cudaExternalMemoryHandleDesc mem_desc;
   memset(&mem_desc, 0, sizeof(mem_desc));
   mem_desc.type = cudaExternalMemoryHandleTypeOpaqueFd;
   mem_desc.size = allocation_size;
   mem_desc.handle.fd = vkh_get_memory_fd(&a.h, a.vertex_mem, VKH_OPAQUE_FD);
   if (mem_desc.handle.fd < 0 || !RT_CHECK(cudaImportExternalMemory(&ext_mem, &mem_desc)))
      goto out;
   struct cudaExternalMemoryBufferDesc buf_desc;
   memset(&buf_desc, 0, sizeof(buf_desc));
   buf_desc.size = SIZE;
   if (!RT_CHECK(cudaExternalMemoryGetMappedBuffer((void **)&vertices, ext_mem, &buf_desc)))
      goto out;

   a.staging = host_buffer(&a, &a.staging_mem);
   a.readback = host_buffer(&a, &a.readback_mem);
   a.ready = create_semaphore(&a);
   a.done = create_semaphore(&a);
   if (!a.staging || !a.readback || !a.ready || !a.done)
      goto out;
   cu_ready = import_semaphore(&a, a.ready);
   cu_done = import_semaphore(&a, a.done);
   if (!cu_ready || !cu_done)
      goto out;

   for (uint32_t frame = 1; frame <= FRAMES; frame++) {
      /* Vulkan renders and signals ready. */
      pattern(want, SIZE, frame);
      if (!vkh_write(&a.h, a.staging_mem, 0, want, SIZE))
         vkh_fail(__FILE__, __LINE__, "writing the staging buffer");
      begin(&a);
      VkMemoryBarrier barrier = {
         .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
         .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
         .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
      };
      for (uint32_t i = 0; i < RENDER_FILLS; i++) {
         vkCmdFillBuffer(a.cmd, a.vertex, 0, SIZE, 0x11111111u * (i + 1));
         vkCmdPipelineBarrier(a.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                              0, 1, &barrier, 0, NULL, 0, NULL);
      }
      VkBufferCopy region = { .size = SIZE };
      vkCmdCopyBuffer(a.cmd, a.staging, a.vertex, 1, &region);
      VKH_CHECK_VK(vkEndCommandBuffer(a.cmd));
      VkTimelineSemaphoreSubmitInfo values = {
         .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
         .signalSemaphoreValueCount = 1,
         .pSignalSemaphoreValues = (const uint64_t[]){ frame },
      };
      VkSubmitInfo render = {
         .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
         .pNext = timeline ? &values : NULL,
         .commandBufferCount = 1,
         .pCommandBuffers = &a.cmd,
         .signalSemaphoreCount = 1,
         .pSignalSemaphores = &a.ready,
      };
      VKH_CHECK_VK(vkQueueSubmit(a.h.queue, 1, &render, a.fence));

      /* CUDA: wait, transform, signal.  No host wait in between. */
      struct cudaExternalSemaphoreWaitParams wait_params;
      memset(&wait_params, 0, sizeof(wait_params));
      wait_params.params.fence.value = frame;
      struct cudaExternalSemaphoreSignalParams signal_params;
      memset(&signal_params, 0, sizeof(signal_params));
      signal_params.params.fence.value = frame;
      if ((!omit_wait &&
           !RT_CHECK(cudaWaitExternalSemaphoresAsync(&cu_ready, &wait_params, 1, stream))) ||
          !RT_CHECK(cudaMemcpyAsync(vertices + HALF, vertices, HALF, cudaMemcpyDeviceToDevice,
                                    stream)) ||
          !RT_CHECK(cudaMemsetAsync(vertices, 0x5a, CLEARED, stream)) ||
          !RT_CHECK(cudaSignalExternalSemaphoresAsync(&cu_done, &signal_params, 1, stream)))
         break;
      memcpy(want + HALF, want, HALF);
      memset(want, 0x5a, CLEARED);

      /* The render's fence: the command buffer is re-recorded next. */
      if (vkWaitForFences(a.h.device, 1, &a.fence, VK_TRUE, 60ull * 1000000000ull) != VK_SUCCESS) {
         vkh_fail(__FILE__, __LINE__, "the render did not finish");
         break;
      }
      VKH_CHECK_VK(vkResetFences(a.h.device, 1, &a.fence));

      /* Vulkan waits for done and reads the buffer back. */
      begin(&a);
      vkCmdCopyBuffer(a.cmd, a.vertex, a.readback, 1, &region);
      VkMemoryBarrier to_host = {
         .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
         .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
         .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
      };
      vkCmdPipelineBarrier(a.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                           &to_host, 0, NULL, 0, NULL);
      if (!submit_and_wait(&a, omit_wait ? VK_NULL_HANDLE : a.done, frame, VK_NULL_HANDLE, 0) ||
          !vkh_read(&a.h, a.readback_mem, 0, got, SIZE))
         break;
      char what[64];
      snprintf(what, sizeof(what), "frame %u as Vulkan read it", frame);
      cuvk_test_check_bytes(__FILE__, __LINE__, got, want, SIZE, "%s", what);
   }

out:
   if (stream) {
      RT_CHECK(cudaStreamSynchronize(stream));
      RT_CHECK(cudaStreamDestroy(stream));
   }
   vkDeviceWaitIdle(a.h.device);
   if (cu_ready)
      RT_CHECK(cudaDestroyExternalSemaphore(cu_ready));
   if (cu_done)
      RT_CHECK(cudaDestroyExternalSemaphore(cu_done));
   if (vertices)
      RT_CHECK(cudaFree(vertices));
   if (ext_mem)
      RT_CHECK(cudaDestroyExternalMemory(ext_mem));
   if (a.ready)
      vkDestroySemaphore(a.h.device, a.ready, NULL);
   if (a.done)
      vkDestroySemaphore(a.h.device, a.done, NULL);
   VkBuffer buffers[] = { a.vertex, a.staging, a.readback };
   VkDeviceMemory memories[] = { a.vertex_mem, a.staging_mem, a.readback_mem };
   for (unsigned i = 0; i < 3; i++) {
      if (buffers[i])
         vkDestroyBuffer(a.h.device, buffers[i], NULL);
      if (memories[i])
         vkFreeMemory(a.h.device, memories[i], NULL);
   }
   if (a.fence)
      vkDestroyFence(a.h.device, a.fence, NULL);
   if (a.pool)
      vkDestroyCommandPool(a.h.device, a.pool, NULL);
   free(want);
   free(got);
   return vkh_exit(vkh_finish(&a.h));
}

int
main(int argc, char **argv)
{
   if (argc != 2 || (strcmp(argv[1], "timeline") != 0 && strcmp(argv[1], "binary") != 0)) {
      fprintf(stderr, "usage: %s timeline|binary\n", argv[0]);
      return VKH_EXIT_FAIL;
   }
   return run(strcmp(argv[1], "timeline") == 0);
}
