/*
 * External memory through the runtime API, the way cuda-samples'
 * simpleVulkan does it: Vulkan allocates and exports a dedicated
 * allocation as an opaque fd, the runtime imports it with
 * cudaImportExternalMemory and maps a buffer over it, and both sides see
 * each other's writes.
 *
 * Runs with VK_LAYER_CUVK_interop in VK_INSTANCE_LAYERS, so cuvk imports
 * with the exporter's exact allocation parameters.
 */
#include "rt_test.h"

#include "vk_harness.h"

static void
interop_buffer_roundtrip(void)
{
   const VkDeviceSize size = 256 * 1024;
   struct vkh h;
   VkBuffer buffer = VK_NULL_HANDLE;
   VkDeviceMemory memory = VK_NULL_HANDLE;
   VkDeviceSize alloc_size = 0;
   uint8_t *want = malloc(size), *got = malloc(size);

   RT_REQUIRE(want && got);
   RT_REQUIRE(vkh_init(&h, "runtime.interop.buffer_roundtrip", NULL));
   RT_REQUIRE(vkh_create_buffer(&h, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                VKH_OPAQUE_FD, &buffer) == VK_SUCCESS);
   RT_REQUIRE(vkh_allocate_for_buffer(&h, buffer, true, VKH_OPAQUE_FD, &memory, &alloc_size, NULL) ==
              VK_SUCCESS);
   RT_REQUIRE(vkBindBufferMemory(h.device, buffer, memory, 0) == VK_SUCCESS);
   rt_fill_pattern(want, size, 17);
   RT_REQUIRE(vkh_write(&h, memory, 0, want, size));

   /* Pick the CUDA device that is the exporter's Vulkan device. */
   int count = 0, dev = -1;
   RT_REQUIRE_OK(cudaGetDeviceCount(&count));
   for (int d = 0; d < count; d++) {
      struct cudaDeviceProp p;
      RT_REQUIRE_OK(cudaGetDeviceProperties(&p, d));
      if (memcmp(&p.uuid, h.device_uuid, VK_UUID_SIZE) == 0)
         dev = d;
   }
   RT_REQUIRE(dev >= 0);
   RT_REQUIRE_OK(cudaSetDevice(dev));

   int fd = vkh_get_memory_fd(&h, memory, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT);
   RT_REQUIRE(fd >= 0);
   struct cudaExternalMemoryHandleDesc desc;
   memset(&desc, 0, sizeof(desc));
   desc.type = cudaExternalMemoryHandleTypeOpaqueFd;
   desc.handle.fd = fd;
   desc.size = size;
   desc.flags = cudaExternalMemoryDedicated;
   cudaExternalMemory_t ext = NULL;
   /* On success CUDA owns the fd. */
   RT_REQUIRE_OK(cudaImportExternalMemory(&ext, &desc));

   struct cudaExternalMemoryBufferDesc bdesc;
   memset(&bdesc, 0, sizeof(bdesc));
   bdesc.offset = 0;
   bdesc.size = size;
   void *ptr = NULL;
   RT_REQUIRE_OK(cudaExternalMemoryGetMappedBuffer(&ptr, ext, &bdesc));
   RT_REQUIRE(ptr != NULL);

   struct cudaPointerAttributes a;
   RT_CHECK_OK(cudaPointerGetAttributes(&a, ptr));
   RT_CHECK(a.type == cudaMemoryTypeDevice && a.device == dev);

   /* Vulkan's data, seen by CUDA. */
   RT_CHECK_OK(cudaMemcpy(got, ptr, size, cudaMemcpyDeviceToHost));
   RT_CHECK_BYTES(got, want, size, "what Vulkan wrote, read through CUDA");

   /* CUDA's writes, seen by Vulkan. */
   cudaStream_t s;
   RT_REQUIRE_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
   RT_CHECK_OK(cudaMemsetAsync((char *)ptr + 4096, 0xee, 8192, s));
   rt_fill_pattern(want + 100000, 5000, 18);
   RT_CHECK_OK(cudaMemcpyAsync((char *)ptr + 100000, want + 100000, 5000, cudaMemcpyHostToDevice, s));
   RT_CHECK_OK(cudaStreamSynchronize(s));
   memset(want + 4096, 0xee, 8192);
   RT_CHECK(vkh_read(&h, memory, 0, got, size));
   RT_CHECK_BYTES(got, want, size, "what CUDA wrote, read through Vulkan");

   RT_CHECK_OK(cudaStreamDestroy(s));
   RT_CHECK_OK(cudaFree(ptr));
   RT_CHECK_OK(cudaDestroyExternalMemory(ext));

   vkDestroyBuffer(h.device, buffer, NULL);
   vkFreeMemory(h.device, memory, NULL);
   unsigned messages = vkh_finish(&h);
   RT_CHECK_MSG(messages == 0, "%u Vulkan validation messages", messages);
   free(want);
   free(got);
}

static void
interop_errors(void)
{
   struct cudaExternalMemoryHandleDesc desc;
   struct cudaExternalMemoryBufferDesc bdesc;
   cudaExternalMemory_t ext = NULL;
   void *ptr = NULL;

   memset(&desc, 0, sizeof(desc));
   memset(&bdesc, 0, sizeof(bdesc));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaImportExternalMemory(NULL, &desc));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaImportExternalMemory(&ext, NULL));
   /* Type 0 is no handle type. */
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaImportExternalMemory(&ext, &desc));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaExternalMemoryGetMappedBuffer(&ptr, NULL, NULL));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaDestroyExternalMemory(NULL));
}

static const struct rt_case cases[] = {
   RT_CASE("runtime.interop.buffer_roundtrip", interop_buffer_roundtrip),
   RT_CASE("runtime.interop.errors", interop_errors),
};

RT_MAIN(cases)
