// nvcc_programs.simple_vulkan_mmap: the flow of NVIDIA's simpleVulkanMMAP
// sample, written afresh, offscreen.  Here CUDA owns the memory: the
// virtual memory calls (cuMemCreate with a POSIX fd as its shareable
// handle, cuMemAddressReserve, cuMemMap, cuMemSetAccess) make it, and
// cuMemExportToShareableHandle hands its fd to Vulkan, which imports it
// into a buffer.  A curand Monte Carlo kernel (points in the unit square,
// counting those inside the quarter circle) writes the points and the
// count into it; Vulkan waits on the kernel's semaphore and copies the
// whole buffer out; the host checks every point against curand's XORWOW
// run on the host (tests/curand/xorwow_host.h) and the count against its
// own count of those points.  Two rounds with different seeds, the
// semaphores going both ways, as simple_vulkan.cu has them.
#include "check.h"
#include "vk_app.h"

#include <cuda.h>
#include <curand_kernel.h>
#include <unistd.h>

#include "../curand/xorwow_host.h"

#define BLOCKS 8
#define THREADS 128
#define PER_THREAD 64
#define POINTS (BLOCKS * THREADS * PER_THREAD)
// The points, then the count.
#define COUNT_OFFSET (POINTS * sizeof(float2))
#define DATA_SIZE (COUNT_OFFSET + sizeof(unsigned))
#define ROUNDS 2

static const unsigned long long seeds[ROUNDS] = {0x5eed0001ull, 0x00c0ffee12345678ull};

// The test x*x + y*y <= 1 with one rounding the host repeats exactly.
__host__ __device__ static inline bool
inside_circle(float x, float y)
{
#ifdef __CUDA_ARCH__
   return __fmaf_rn(x, x, __fmul_rn(y, y)) <= 1.0f;
#else
   return fmaf(x, x, y * y) <= 1.0f;
#endif
}

__global__ void
monte_carlo_pi(float2 *points, unsigned *inside, unsigned long long seed)
{
   unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
   curandState state;
   curand_init(seed, id, 0, &state);
   unsigned count = 0;
   for (int k = 0; k < PER_THREAD; k++) {
      float x = curand_uniform(&state);
      float y = curand_uniform(&state);
      points[id * PER_THREAD + k] = make_float2(x, y);
      count += inside_circle(x, y);
   }
   atomicAdd(inside, count);
}

#define CHECK_CU(call) EXPECT_CU(call, CUDA_SUCCESS)
#define EXPECT_CU(call, want)                                                         \
   do {                                                                               \
      CUresult r_ = (call);                                                           \
      if (r_ != (want)) {                                                             \
         std::fprintf(stderr, "FAIL %s:%d: %s: CUresult %d, want %d\n", __FILE__,      \
                      __LINE__, #call, (int)r_, (int)(want));                         \
         check_failures++;                                                            \
      }                                                                               \
   } while (0)

// What Vulkan read of round's buffer, against the host's generator.
static void
check_round(const mat160 *powers, const unsigned char *data, int round)
{
   const float *got = (const float *)data;
   unsigned got_count;
   std::memcpy(&got_count, data + COUNT_OFFSET, sizeof(got_count));
   unsigned want_count = 0, bad = 0;
   for (unsigned id = 0; id < BLOCKS * THREADS; id++) {
      struct xorwow g;
      xorwow_init(&g, powers, seeds[round], id, 0);
      for (unsigned k = 0; k < PER_THREAD; k++) {
         float x = uniform_of(xorwow_next(&g));
         float y = uniform_of(xorwow_next(&g));
         want_count += inside_circle(x, y);
         unsigned i = id * PER_THREAD + k;
         if ((got[2 * i] != x || got[2 * i + 1] != y) && bad++ < 5)
            std::fprintf(stderr, "FAIL: round %d point %u = (%.9g, %.9g), want (%.9g, %.9g)\n", round, i,
                         got[2 * i], got[2 * i + 1], x, y);
      }
   }
   if (bad) {
      std::fprintf(stderr, "FAIL: round %d: %u of %u points wrong\n", round, bad, POINTS);
      check_failures++;
   }
   if (got_count != want_count) {
      std::fprintf(stderr, "FAIL: round %d: %u points inside the circle, want %u\n", round, got_count,
                   want_count);
      check_failures++;
   }
   double estimate = 4.0 * got_count / POINTS;
   std::printf("simple_vulkan_mmap: round %d: pi ~ %.5f from %u points\n", round, estimate, POINTS);
   CHECK(estimate > 3.1 && estimate < 3.2);
}

// Vulkan's buffer over the memory CUDA exported (fd), as the sample
// imports it: the first device-local type the buffer can have.
static bool
import_buffer(vk_app *app, int fd, VkDeviceSize size, vk_app_buffer *out)
{
   std::memset(out, 0, sizeof(*out));
   VkExternalMemoryBufferCreateInfo external = {};
   external.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO;
   external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
   VkBufferCreateInfo info = {};
   info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
   info.pNext = &external;
   info.size = DATA_SIZE;
   info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
   info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
   CHECK_VK(vkCreateBuffer(app->device, &info, nullptr, &out->buffer));
   if (!out->buffer) {
      close(fd);
      return false;
   }
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(app->device, out->buffer, &req);
   int type = vk_app_memory_type(app, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
   CHECK(type >= 0 && req.size <= size);
   if (type < 0 || req.size > size) {
      close(fd);
      return false;
   }
   VkImportMemoryFdInfoKHR import = {};
   import.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR;
   import.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
   import.fd = fd;
   VkMemoryAllocateInfo alloc = {};
   alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
   alloc.pNext = &import;
   alloc.allocationSize = size;
   alloc.memoryTypeIndex = (uint32_t)type;
   VkResult res = vkAllocateMemory(app->device, &alloc, nullptr, &out->memory);
   CHECK_VK(res);
   if (res != VK_SUCCESS) {
      close(fd);
      return false;
   }
   // The memory owns the fd now.
   out->allocation_size = size;
   CHECK_VK(vkBindBufferMemory(app->device, out->buffer, out->memory, 0));
   return true;
}

int
main()
{
   check_bound_to_cuvk();
   vk_app app;
   vk_app_buffer shared = {}, readback[ROUNDS] = {};
   VkCommandBuffer copies[ROUNDS] = {};
   VkFence fences[ROUNDS] = {};
   VkSemaphore vk_to_cuda = VK_NULL_HANDLE, cuda_to_vk = VK_NULL_HANDLE;
   cudaExternalSemaphore_t cu_vk_to_cuda = nullptr, cu_cuda_to_vk = nullptr;
   cudaStream_t stream = nullptr;
   CUmemGenericAllocationHandle handle = 0;
   bool have_handle = false, mapped = false;
   CUdeviceptr va = 0;
   size_t size = 0;
   int device, fd = -1;
   CUdevice cu_device;
   // curand_init's subsequences are 2^67 steps apart; the host skips to
   // subsequence id < 2^10 with powers of the step up to 2^76.
   mat160 *powers = step_powers(67 + 10);

   if (!vk_app_init(&app, "simple_vulkan_mmap")) {
      check_failures++;
      goto out;
   }
   device = vk_app_cuda_device(&app);
   CHECK(device >= 0);
   if (device < 0)
      goto out;
   CHECK_CUDA(cudaSetDevice(device));
   // The primary context, current from here on, for the driver's calls.
   CHECK_CUDA(cudaFree(nullptr));
   CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
   CHECK_CU(cuDeviceGet(&cu_device, device));

   {
      CUmemAllocationProp prop = {};
      prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
      prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
      prop.location.id = cu_device;
      prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
      size_t granularity = 0;
      CHECK_CU(cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
      if (!granularity)
         goto out;
      size = (DATA_SIZE + granularity - 1) / granularity * granularity;
      CUresult res = cuMemCreate(&handle, size, &prop, 0);
      EXPECT_CU(res, CUDA_SUCCESS);
      if (res != CUDA_SUCCESS)
         goto out;
      have_handle = true;
      CHECK_CU(cuMemAddressReserve(&va, size, granularity, 0, 0));
      if (!va)
         goto out;
      res = cuMemMap(va, size, 0, handle, 0);
      EXPECT_CU(res, CUDA_SUCCESS);
      if (res != CUDA_SUCCESS)
         goto out;
      mapped = true;
      CUmemAccessDesc access = {};
      access.location = prop.location;
      access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
      CHECK_CU(cuMemSetAccess(va, size, &access, 1));
      CHECK_CU(cuMemExportToShareableHandle(&fd, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
      if (fd < 0)
         goto out;
   }
   {
      // Vulkan's import owns the fd, on failure too (closed there).
      int import_fd = fd;
      fd = -1;
      if (!import_buffer(&app, import_fd, size, &shared))
         goto out;
   }
   for (int r = 0; r < ROUNDS; r++) {
      if (!vk_app_buffer_create(&app, DATA_SIZE, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                false, &readback[r]))
         goto out;
      fences[r] = vk_app_fence(&app);
      copies[r] = vk_app_command_buffer(&app);
      VkBufferCopy region = {0, 0, DATA_SIZE};
      vkCmdCopyBuffer(copies[r], shared.buffer, readback[r].buffer, 1, &region);
      VkMemoryBarrier to_host = {};
      to_host.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
      to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
      vkCmdPipelineBarrier(copies[r], VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                           &to_host, 0, nullptr, 0, nullptr);
   }
   vk_to_cuda = vk_app_semaphore_create(&app);
   cuda_to_vk = vk_app_semaphore_create(&app);
   if (!vk_to_cuda || !cuda_to_vk)
      goto out;
   cu_vk_to_cuda = vk_app_cuda_semaphore(&app, vk_to_cuda);
   cu_cuda_to_vk = vk_app_cuda_semaphore(&app, cuda_to_vk);
   if (!cu_vk_to_cuda || !cu_cuda_to_vk)
      goto out;

   {
      vk_app_submit(&app, VK_NULL_HANDLE, VK_NULL_HANDLE, 0, vk_to_cuda, VK_NULL_HANDLE);
      cudaExternalSemaphoreWaitParams wait = {};
      cudaExternalSemaphoreSignalParams signal = {};
      float2 *points = (float2 *)va;
      unsigned *inside = (unsigned *)(va + COUNT_OFFSET);
      for (int r = 0; r < ROUNDS; r++) {
         // Round r's kernel rewrites what round r - 1's copy reads.
         CHECK_CUDA(cudaWaitExternalSemaphoresAsync(&cu_vk_to_cuda, &wait, 1, stream));
         CHECK_CUDA(cudaMemsetAsync(inside, 0, sizeof(unsigned), stream));
         monte_carlo_pi<<<BLOCKS, THREADS, 0, stream>>>(points, inside, seeds[r]);
         CHECK_CUDA(cudaGetLastError());
         CHECK_CUDA(cudaSignalExternalSemaphoresAsync(&cu_cuda_to_vk, &signal, 1, stream));
         vk_app_submit(&app, copies[r], cuda_to_vk, VK_PIPELINE_STAGE_TRANSFER_BIT, vk_to_cuda, fences[r]);
      }
      CHECK_CUDA(cudaWaitExternalSemaphoresAsync(&cu_vk_to_cuda, &wait, 1, stream));
      for (int r = 0; r < ROUNDS; r++) {
         vk_app_fence_wait(&app, fences[r]);
         void *data = nullptr;
         CHECK_VK(vkMapMemory(app.device, readback[r].memory, 0, VK_WHOLE_SIZE, 0, &data));
         if (data) {
            check_round(powers, (const unsigned char *)data, r);
            vkUnmapMemory(app.device, readback[r].memory);
         }
      }
   }

out:
   if (stream) {
      CHECK_CUDA(cudaStreamSynchronize(stream));
      CHECK_CUDA(cudaStreamDestroy(stream));
   }
   if (app.device)
      vkDeviceWaitIdle(app.device);
   if (cu_vk_to_cuda)
      CHECK_CUDA(cudaDestroyExternalSemaphore(cu_vk_to_cuda));
   if (cu_cuda_to_vk)
      CHECK_CUDA(cudaDestroyExternalSemaphore(cu_cuda_to_vk));
   if (app.device) {
      for (int r = 0; r < ROUNDS; r++) {
         if (fences[r])
            vkDestroyFence(app.device, fences[r], nullptr);
         vk_app_buffer_destroy(&app, &readback[r]);
      }
      vkDestroySemaphore(app.device, vk_to_cuda, nullptr);
      vkDestroySemaphore(app.device, cuda_to_vk, nullptr);
      vk_app_buffer_destroy(&app, &shared);
   }
   if (fd >= 0)
      close(fd);
   if (mapped)
      CHECK_CU(cuMemUnmap(va, size));
   if (va)
      CHECK_CU(cuMemAddressFree(va, size));
   if (have_handle)
      CHECK_CU(cuMemRelease(handle));
   vk_app_finish(&app);
   std::free(powers);
   return check_finish("simple_vulkan_mmap");
}
