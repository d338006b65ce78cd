/*
 * external_semaphore.*.vulkan_kernel_vulkan: a CUDA kernel between two
 * Vulkan submissions, as NVIDIA's simpleVulkan runs one.  Vulkan writes
 * the exported buffer and signals; CUDA waits, runs a kernel (nvcc's PTX
 * of tests/kernels/interop_transform.cu, whose path the build gives as
 * ITEST_TRANSFORM_PTX) that reads it and writes a second exported and
 * imported buffer, and signals; Vulkan waits, copies the second buffer
 * out, and every byte is checked against the host's transform.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interop_semaphore.h"

#define WORDS (DATA_SIZE / 4)

static uint32_t
transform(uint32_t in, uint32_t i)
{
   return (in * 2654435761u) ^ (i + 0x9e3779b9u);
}

static char *
read_ptx(const char *path)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *text = n > 0 ? malloc((size_t)n + 1) : NULL;
   if (text && fread(text, 1, (size_t)n, f) == (size_t)n) {
      text[n] = 0;
   } else {
      free(text);
      text = NULL;
   }
   fclose(f);
   return text;
}

int
stest_kernel_between(struct stest *s, bool timeline)
{
#ifndef ITEST_TRANSFORM_PTX
   (void)s;
   (void)timeline;
   fprintf(stderr, "SKIP: built without nvcc, no kernel to run\n");
   return ITEST_SKIP;
#else
   struct itest_export out = {0};
   CUexternalMemory out_ext = NULL;
   CUdeviceptr out_ptr = 0;
   VkSemaphore to_cuda = VK_NULL_HANDLE, to_vulkan = VK_NULL_HANDLE;
   CUexternalSemaphore cu_to_cuda = NULL, cu_to_vulkan = NULL;
   CUmodule mod = NULL;
   CUfunction fn;
   CUstream stream = NULL;
   uint8_t *in = malloc(DATA_SIZE), *got = malloc(DATA_SIZE), *want = malloc(DATA_SIZE);
   char *ptx = read_ptx(ITEST_TRANSFORM_PTX);
   if (!in || !got || !want || !ptx) {
      ITEST_FAILF("out of memory, or %s unreadable", ITEST_TRANSFORM_PTX);
      goto out;
   }
   if (itest_export_create(&s->it, DATA_SIZE, true, ITEST_HOST_VISIBLE, &out) != VK_SUCCESS)
      goto out;
   int fd = itest_export_fd(&s->it, &out);
   if (fd < 0)
      goto out;
   if (!ITEST_CU(itest_import(fd, out.allocation_size, 0, &out_ext))) {
      close(fd);
      goto out;
   }
   if (!ITEST_CU(itest_map(out_ext, 0, DATA_SIZE, &out_ptr)) ||
       !stest_semaphore_share(s, timeline, &to_cuda, &cu_to_cuda) ||
       !stest_semaphore_share(s, timeline, &to_vulkan, &cu_to_vulkan) ||
       !ITEST_CU(cuModuleLoadData(&mod, ptx)) ||
       !ITEST_CU(cuModuleGetFunction(&fn, mod, "interop_transform")) ||
       !ITEST_CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING)))
      goto out;
   VkCommandBuffer produce = stest_cmd_alloc(s), readback = stest_cmd_alloc(s);

   for (uint32_t round = 1; round <= 3; round++) {
      itest_pattern(in, DATA_SIZE, 0x7a4b0000u + round);
      for (uint32_t i = 0; i < WORDS; i++) {
         uint32_t w;
         memcpy(&w, in + i * 4, 4);
         w = transform(w, i);
         memcpy(want + i * 4, &w, 4);
      }
      if (!vkh_write(&s->it.vk, s->staging_mem, 0, in, DATA_SIZE)) {
         ITEST_FAILF("writing the staging pattern");
         break;
      }
      /* Vulkan: the long producer into the first buffer, then a signal. */
      stest_cmd_start(produce);
      stest_record_vulkan_producer(s, produce);
      VKH_CHECK_VK(vkEndCommandBuffer(produce));
      struct stest_sem_op sig = { to_cuda, round };
      if (!stest_submit_batch(s, produce, NULL, 0, &sig, 1, VK_NULL_HANDLE))
         break;

      /* CUDA: wait, the kernel, signal; all in stream order. */
      CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wait_params;
      memset(&wait_params, 0, sizeof(wait_params));
      wait_params.params.fence.value = round;
      if (!s->omit_wait &&
          !ITEST_CU(cuWaitExternalSemaphoresAsync(&cu_to_cuda, &wait_params, 1, stream)))
         break;
      CUdeviceptr src = s->dptr;
      unsigned n = WORDS;
      void *params[] = { &src, &out_ptr, &n };
      if (!ITEST_CU(cuLaunchKernel(fn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, stream, params, NULL)))
         break;
      CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS signal_params;
      memset(&signal_params, 0, sizeof(signal_params));
      signal_params.params.fence.value = round;
      if (!ITEST_CU(cuSignalExternalSemaphoresAsync(&cu_to_vulkan, &signal_params, 1, stream)))
         break;

      /* Vulkan: wait, copy the second buffer out, read it on the host. */
      stest_cmd_start(readback);
      VkBufferCopy region = { .size = DATA_SIZE };
      vkCmdCopyBuffer(readback, out.target, s->readback, 1, &region);
      VkMemoryBarrier to_host = {
         .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
         .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
         .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
      };
      vkCmdPipelineBarrier(readback, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                           &to_host, 0, NULL, 0, NULL);
      VKH_CHECK_VK(vkEndCommandBuffer(readback));
      struct stest_sem_op wait = { to_vulkan, round };
      if (!stest_submit_batch(s, readback, &wait, s->omit_wait ? 0 : 1, NULL, 0, s->fence) ||
          !stest_fence_wait(s) || !vkh_read(&s->it.vk, s->readback_mem, 0, got, DATA_SIZE))
         break;
      char what[80];
      snprintf(what, sizeof(what), "round %u: what Vulkan read of the kernel's output", round);
      itest_check_bytes(got, want, DATA_SIZE, what);
      /* The producer's command buffer is re-recorded next round. */
      ITEST_CU(cuStreamSynchronize(stream));
      VKH_CHECK_VK(vkQueueWaitIdle(s->it.vk.queue));
   }

out:
   if (stream)
      ITEST_CU(cuStreamSynchronize(stream));
   if (s->it.vk.device)
      vkDeviceWaitIdle(s->it.vk.device);
   if (stream)
      ITEST_CU(cuStreamDestroy(stream));
   if (mod)
      ITEST_CU(cuModuleUnload(mod));
   if (cu_to_cuda)
      ITEST_CU(cuDestroyExternalSemaphore(cu_to_cuda));
   if (cu_to_vulkan)
      ITEST_CU(cuDestroyExternalSemaphore(cu_to_vulkan));
   if (to_cuda)
      vkDestroySemaphore(s->it.vk.device, to_cuda, NULL);
   if (to_vulkan)
      vkDestroySemaphore(s->it.vk.device, to_vulkan, NULL);
   if (out_ptr)
      ITEST_CU(cuMemFree(out_ptr));
   if (out_ext)
      ITEST_CU(cuDestroyExternalMemory(out_ext));
   itest_export_destroy(&s->it, &out);
   free(ptx);
   free(in);
   free(got);
   free(want);
   return ITEST_PASS;
#endif
}
