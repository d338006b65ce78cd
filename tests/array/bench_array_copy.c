/*
 * bench_array_copy: the measurement behind the array copy engine
 * (docs/arrays.md).
 *
 * Part 1, "engine": on the first Vulkan device, times the two ways cuvk
 * could move bytes between a buffer and an optimal-tiling image:
 *   transfer  vkCmdCopyBufferToImage / vkCmdCopyImageToBuffer
 *   compute   a shader, one invocation per texel, between a device address
 *             and a storage image viewed as r32ui / rgba32ui (raw bits)
 * for a 1024x512 RGBA8 level and a 4096x4096 RGBA32F one.  Each figure is
 * a batch of copies in one command buffer, barriers between, divided by
 * the batch size: device time per copy, submission cost spread out.
 *
 * Part 2, "cuda": with --cuda PATH (repeatable), dlopens that libcuda
 * (cuvk's drop-in, or NVIDIA's on a GPU machine) and times cuMemcpy2D
 * device -> array, pinned host -> array, pageable host -> array and
 * array -> device for the same two levels: a batch of copies on the
 * default stream, then one cuCtxSynchronize.
 *
 *    bench_array_copy [--quick] [--no-engine] [--cuda PATH]...
 *
 * Run without validation layers (VK_INSTANCE_LAYERS unset).
 */
#include <cuda.h>

#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vulkan/vulkan.h>

#include "bench_down.h"
#include "bench_down_wide.h"
#include "bench_up.h"
#include "bench_up_wide.h"

static bool quick;

static double
now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define VK(expr)                                                              \
   do {                                                                       \
      VkResult r_ = (expr);                                                   \
      if (r_ != VK_SUCCESS) {                                                 \
         fprintf(stderr, "%s:%d: %s: VkResult %d\n", __FILE__, __LINE__, #expr, r_); \
         exit(1);                                                             \
      }                                                                       \
   } while (0)

struct level {
   const char *name;
   VkFormat format, view_format;
   uint32_t width, height, elem;
   bool wide;
   CUarray_format cu_format;
   unsigned cu_channels;
};

static const struct level levels[] = {
   { "1024x512 RGBA8", VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32_UINT, 1024, 512, 4, false,
     CU_AD_FORMAT_UNSIGNED_INT8, 4 },
   { "4096x4096 RGBA32F", VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32G32B32A32_UINT, 4096, 4096, 16, true,
     CU_AD_FORMAT_FLOAT, 4 },
};

/* ---- Part 1: the engines on raw Vulkan ---- */

struct bvk {
   VkInstance instance;
   VkPhysicalDevice pdev;
   VkPhysicalDeviceProperties props;
   VkPhysicalDeviceMemoryProperties mem;
   VkDevice dev;
   VkQueue queue;
   uint32_t family;
   VkCommandPool pool;
   VkCommandBuffer cmd;
   VkFence fence;
};

static void
bvk_init(struct bvk *b)
{
   VkApplicationInfo app = {
      .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
      .pApplicationName = "bench_array_copy",
      .apiVersion = VK_API_VERSION_1_2,
   };
   VkInstanceCreateInfo ici = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app };
   VK(vkCreateInstance(&ici, NULL, &b->instance));
   uint32_t n = 1;
   VkResult r = vkEnumeratePhysicalDevices(b->instance, &n, &b->pdev);
   if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0) {
      fprintf(stderr, "no Vulkan device\n");
      exit(1);
   }
   vkGetPhysicalDeviceProperties(b->pdev, &b->props);
   vkGetPhysicalDeviceMemoryProperties(b->pdev, &b->mem);

   /* A family with compute; graphics too where there is one, as cuvk's
    * queue may be either. */
   uint32_t count = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(b->pdev, &count, NULL);
   VkQueueFamilyProperties fams[16];
   count = count > 16 ? 16 : count;
   vkGetPhysicalDeviceQueueFamilyProperties(b->pdev, &count, fams);
   b->family = UINT32_MAX;
   for (uint32_t i = 0; i < count && b->family == UINT32_MAX; i++)
      if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
         b->family = i;

   VkPhysicalDeviceVulkan12Features f12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
      .bufferDeviceAddress = VK_TRUE,
   };
   VkPhysicalDeviceFeatures2 f = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
      .pNext = &f12,
      .features = { .shaderInt64 = VK_TRUE },
   };
   float prio = 1.0f;
   VkDeviceQueueCreateInfo q = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
      .queueFamilyIndex = b->family,
      .queueCount = 1,
      .pQueuePriorities = &prio,
   };
   VkDeviceCreateInfo dci = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
      .pNext = &f,
      .queueCreateInfoCount = 1,
      .pQueueCreateInfos = &q,
   };
   VK(vkCreateDevice(b->pdev, &dci, NULL, &b->dev));
   vkGetDeviceQueue(b->dev, b->family, 0, &b->queue);
   VkCommandPoolCreateInfo pci = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
      .queueFamilyIndex = b->family,
   };
   VK(vkCreateCommandPool(b->dev, &pci, NULL, &b->pool));
   VkCommandBufferAllocateInfo cai = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .commandPool = b->pool,
      .commandBufferCount = 1,
   };
   VK(vkAllocateCommandBuffers(b->dev, &cai, &b->cmd));
   VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
   VK(vkCreateFence(b->dev, &fci, NULL, &b->fence));
}

static void
bvk_finish(struct bvk *b)
{
   vkDeviceWaitIdle(b->dev);
   vkDestroyFence(b->dev, b->fence, NULL);
   vkDestroyCommandPool(b->dev, b->pool, NULL);
   vkDestroyDevice(b->dev, NULL);
   vkDestroyInstance(b->instance, NULL);
}

static VkDeviceMemory
bvk_alloc(struct bvk *b, const VkMemoryRequirements *req, bool address)
{
   uint32_t type = UINT32_MAX;
   for (uint32_t i = 0; i < b->mem.memoryTypeCount && type == UINT32_MAX; i++)
      if ((req->memoryTypeBits & (1u << i)) &&
          (b->mem.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
         type = i;
   VkMemoryAllocateFlagsInfo flags = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
      .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
   };
   VkMemoryAllocateInfo ai = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .pNext = address ? &flags : NULL,
      .allocationSize = req->size,
      .memoryTypeIndex = type,
   };
   VkDeviceMemory m;
   VK(vkAllocateMemory(b->dev, &ai, NULL, &m));
   return m;
}

static VkPipeline
bvk_pipeline(struct bvk *b, VkPipelineLayout layout, const uint32_t *code, size_t size)
{
   VkShaderModuleCreateInfo mci = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
                                    .pCode = code };
   VkShaderModule module;
   VK(vkCreateShaderModule(b->dev, &mci, NULL, &module));
   VkComputePipelineCreateInfo ci = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                 .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = module, .pName = "main" },
      .layout = layout,
   };
   VkPipeline p;
   VK(vkCreateComputePipelines(b->dev, VK_NULL_HANDLE, 1, &ci, NULL, &p));
   vkDestroyShaderModule(b->dev, module, NULL);
   return p;
}

static void
barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to)
{
   VkImageMemoryBarrier ib = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
      .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                       VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
      .oldLayout = from,
      .newLayout = to,
      .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .image = image,
      .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
   };
   VkPipelineStageFlags st = VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
   vkCmdPipelineBarrier(cmd, st, st, 0, 0, NULL, 0, NULL, 1, &ib);
}

enum op { OP_TRANSFER_UP, OP_TRANSFER_DOWN, OP_COMPUTE_UP, OP_COMPUTE_DOWN };
static const char *const op_names[] = {
   "transfer  buffer->image", "transfer  image->buffer", "compute   buffer->image", "compute   image->buffer",
};

static void
engine_level(struct bvk *b, const struct level *lv)
{
   VkDeviceSize size = (VkDeviceSize)lv->width * lv->height * lv->elem;

   VkBufferCreateInfo bci = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = size,
      .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
   };
   VkBuffer buf;
   VK(vkCreateBuffer(b->dev, &bci, NULL, &buf));
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(b->dev, buf, &req);
   VkDeviceMemory bmem = bvk_alloc(b, &req, true);
   VK(vkBindBufferMemory(b->dev, buf, bmem, 0));
   VkBufferDeviceAddressInfo bai = { .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = buf };
   VkDeviceAddress addr = vkGetBufferDeviceAddress(b->dev, &bai);

   VkImageCreateInfo ici = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
      .flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT,
      .imageType = VK_IMAGE_TYPE_2D,
      .format = lv->format,
      .extent = { lv->width, lv->height, 1 },
      .mipLevels = 1,
      .arrayLayers = 1,
      .samples = VK_SAMPLE_COUNT_1_BIT,
      .tiling = VK_IMAGE_TILING_OPTIMAL,
      .usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_STORAGE_BIT,
   };
   VkImage img;
   VK(vkCreateImage(b->dev, &ici, NULL, &img));
   vkGetImageMemoryRequirements(b->dev, img, &req);
   VkDeviceMemory imem = bvk_alloc(b, &req, false);
   VK(vkBindImageMemory(b->dev, img, imem, 0));
   VkImageViewCreateInfo vci = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
      .image = img,
      .viewType = VK_IMAGE_VIEW_TYPE_2D,
      .format = lv->view_format,
      .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
   };
   VkImageView view;
   VK(vkCreateImageView(b->dev, &vci, NULL, &view));

   VkDescriptorSetLayoutBinding binding = {
      .binding = 0,
      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
      .descriptorCount = 1,
      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
   };
   VkDescriptorSetLayoutCreateInfo dlci = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 1, .pBindings = &binding };
   VkDescriptorSetLayout dsl;
   VK(vkCreateDescriptorSetLayout(b->dev, &dlci, NULL, &dsl));
   VkPushConstantRange pcr = { VK_SHADER_STAGE_COMPUTE_BIT, 0, 24 };
   VkPipelineLayoutCreateInfo plci = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .setLayoutCount = 1, .pSetLayouts = &dsl, .pushConstantRangeCount = 1, .pPushConstantRanges = &pcr,
   };
   VkPipelineLayout layout;
   VK(vkCreatePipelineLayout(b->dev, &plci, NULL, &layout));
   VkPipeline up = lv->wide ? bvk_pipeline(b, layout, bench_up_wide, sizeof(bench_up_wide))
                            : bvk_pipeline(b, layout, bench_up, sizeof(bench_up));
   VkPipeline down = lv->wide ? bvk_pipeline(b, layout, bench_down_wide, sizeof(bench_down_wide))
                              : bvk_pipeline(b, layout, bench_down, sizeof(bench_down));
   VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1 };
   VkDescriptorPoolCreateInfo dpci = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps };
   VkDescriptorPool dpool;
   VK(vkCreateDescriptorPool(b->dev, &dpci, NULL, &dpool));
   VkDescriptorSetAllocateInfo dsai = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = dpool, .descriptorSetCount = 1,
      .pSetLayouts = &dsl };
   VkDescriptorSet set;
   VK(vkAllocateDescriptorSets(b->dev, &dsai, &set));
   VkDescriptorImageInfo dii = { .imageView = view, .imageLayout = VK_IMAGE_LAYOUT_GENERAL };
   VkWriteDescriptorSet w = {
      .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .descriptorCount = 1,
      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, .pImageInfo = &dii };
   vkUpdateDescriptorSets(b->dev, 1, &w, 0, NULL);

   struct {
      uint64_t address;
      uint32_t pitch, width, height;
   } pc = { addr, lv->width, lv->width, lv->height };

   unsigned batch = size > (64u << 20) ? (quick ? 2 : 4) : (quick ? 8 : 32);
   for (int op = 0; op < 4; op++) {
      double best = 1e30;
      for (int rep = 0; rep < 3; rep++) {
         VkCommandBufferBeginInfo begin = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
         VK(vkResetCommandBuffer(b->cmd, 0));
         VK(vkBeginCommandBuffer(b->cmd, &begin));
         barrier(b->cmd, img, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
         VkBufferImageCopy region = {
            .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
            .imageExtent = { lv->width, lv->height, 1 },
         };
         for (unsigned i = 0; i < batch; i++) {
            switch (op) {
            case OP_TRANSFER_UP:
               barrier(b->cmd, img, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
               vkCmdCopyBufferToImage(b->cmd, buf, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
               barrier(b->cmd, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL);
               break;
            case OP_TRANSFER_DOWN:
               barrier(b->cmd, img, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
               vkCmdCopyImageToBuffer(b->cmd, img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buf, 1, &region);
               barrier(b->cmd, img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL);
               break;
            default:
               vkCmdBindPipeline(b->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, op == OP_COMPUTE_UP ? up : down);
               vkCmdBindDescriptorSets(b->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
               vkCmdPushConstants(b->cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pc), &pc);
               vkCmdDispatch(b->cmd, (lv->width + 15) / 16, (lv->height + 15) / 16, 1);
               barrier(b->cmd, img, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL);
               break;
            }
         }
         VK(vkEndCommandBuffer(b->cmd));
         VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                             .pCommandBuffers = &b->cmd };
         VK(vkResetFences(b->dev, 1, &b->fence));
         double t0 = now();
         VK(vkQueueSubmit(b->queue, 1, &si, b->fence));
         VK(vkWaitForFences(b->dev, 1, &b->fence, VK_TRUE, UINT64_MAX));
         double t = (now() - t0) / batch;
         if (t < best)
            best = t;
      }
      printf("engine  %-18s %-24s %10.1f us  %8.2f GB/s\n", lv->name, op_names[op], best * 1e6,
             size / best / 1e9);
   }

   vkDestroyPipeline(b->dev, up, NULL);
   vkDestroyPipeline(b->dev, down, NULL);
   vkDestroyPipelineLayout(b->dev, layout, NULL);
   vkDestroyDescriptorPool(b->dev, dpool, NULL);
   vkDestroyDescriptorSetLayout(b->dev, dsl, NULL);
   vkDestroyImageView(b->dev, view, NULL);
   vkDestroyImage(b->dev, img, NULL);
   vkFreeMemory(b->dev, imem, NULL);
   vkDestroyBuffer(b->dev, buf, NULL);
   vkFreeMemory(b->dev, bmem, NULL);
}

/* ---- Part 2: cuMemcpy2D through a libcuda ---- */

struct cu {
   CUresult (*Init)(unsigned);
   CUresult (*DeviceGet)(CUdevice *, int);
   CUresult (*DeviceGetName)(char *, int, CUdevice);
   CUresult (*PrimaryCtxRetain)(CUcontext *, CUdevice);
   CUresult (*PrimaryCtxRelease)(CUdevice);
   CUresult (*CtxSetCurrent)(CUcontext);
   CUresult (*CtxSynchronize)(void);
   CUresult (*MemAlloc)(CUdeviceptr *, size_t);
   CUresult (*MemFree)(CUdeviceptr);
   CUresult (*MemAllocHost)(void **, size_t);
   CUresult (*MemFreeHost)(void *);
   CUresult (*Array3DCreate)(CUarray *, const CUDA_ARRAY3D_DESCRIPTOR *);
   CUresult (*ArrayDestroy)(CUarray);
   CUresult (*Memcpy2D)(const CUDA_MEMCPY2D *);
};

static bool
cu_load(const char *path, struct cu *cu)
{
   void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
   if (!lib) {
      fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
      return false;
   }
#define SYM(field, name)                                        \
   if (!(*(void **)&cu->field = dlsym(lib, name))) {            \
      fprintf(stderr, "%s: no %s\n", path, name);               \
      return false;                                             \
   }
   SYM(Init, "cuInit");
   SYM(DeviceGet, "cuDeviceGet");
   SYM(DeviceGetName, "cuDeviceGetName");
   SYM(PrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
   SYM(PrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
   SYM(CtxSetCurrent, "cuCtxSetCurrent");
   SYM(CtxSynchronize, "cuCtxSynchronize");
   SYM(MemAlloc, "cuMemAlloc_v2");
   SYM(MemFree, "cuMemFree_v2");
   SYM(MemAllocHost, "cuMemAllocHost_v2");
   SYM(MemFreeHost, "cuMemFreeHost");
   SYM(Array3DCreate, "cuArray3DCreate_v2");
   SYM(ArrayDestroy, "cuArrayDestroy");
   SYM(Memcpy2D, "cuMemcpy2D_v2");
#undef SYM
   return true;
}

#define CU(expr)                                                                   \
   do {                                                                            \
      CUresult r_ = (expr);                                                        \
      if (r_ != CUDA_SUCCESS) {                                                    \
         fprintf(stderr, "%s:%d: %s: CUresult %d\n", __FILE__, __LINE__, #expr, (int)r_); \
         exit(1);                                                                  \
      }                                                                            \
   } while (0)

static void
cuda_level(struct cu *cu, const char *tag, const struct level *lv)
{
   size_t row = (size_t)lv->width * lv->elem, size = row * lv->height;
   CUDA_ARRAY3D_DESCRIPTOR ad = { lv->width, lv->height, 0, lv->cu_format, lv->cu_channels, 0 };
   CUarray array;
   CUdeviceptr dev;
   void *pinned, *pageable = malloc(size);
   memset(pageable, 1, size);
   CU(cu->Array3DCreate(&array, &ad));
   CU(cu->MemAlloc(&dev, size));
   CU(cu->MemAllocHost(&pinned, size));

   static const char *const names[] = {
      "device -> array", "pinned -> array", "pageable -> array", "array -> device",
   };
   unsigned batch = size > (64u << 20) ? (quick ? 2 : 8) : (quick ? 20 : 200);
   for (int op = 0; op < 4; op++) {
      CUDA_MEMCPY2D p;
      memset(&p, 0, sizeof(p));
      p.WidthInBytes = row;
      p.Height = lv->height;
      if (op < 3) {
         p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
         p.dstArray = array;
         p.srcPitch = row;
         p.srcMemoryType = op == 0 ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
         p.srcDevice = dev;
         p.srcHost = op == 1 ? pinned : pageable;
      } else {
         p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
         p.srcArray = array;
         p.dstMemoryType = CU_MEMORYTYPE_DEVICE;
         p.dstDevice = dev;
         p.dstPitch = row;
      }
      double best = 1e30;
      for (int rep = 0; rep < 3; rep++) {
         CU(cu->Memcpy2D(&p));
         CU(cu->CtxSynchronize());
         double t0 = now();
         for (unsigned i = 0; i < batch; i++)
            CU(cu->Memcpy2D(&p));
         CU(cu->CtxSynchronize());
         double t = (now() - t0) / batch;
         if (t < best)
            best = t;
      }
      printf("cuda    %-18s %-10s %-17s %10.1f us  %8.2f GB/s\n", lv->name, tag, names[op], best * 1e6,
             size / best / 1e9);
   }
   CU(cu->ArrayDestroy(array));
   CU(cu->MemFree(dev));
   CU(cu->MemFreeHost(pinned));
   free(pageable);
}

static void
cuda_bench(const char *path)
{
   struct cu cu;
   CUdevice dev;
   CUcontext ctx;
   char name[256] = "";
   if (!cu_load(path, &cu))
      exit(1);
   CU(cu.Init(0));
   CU(cu.DeviceGet(&dev, 0));
   CU(cu.DeviceGetName(name, sizeof(name), dev));
   CU(cu.PrimaryCtxRetain(&ctx, dev));
   CU(cu.CtxSetCurrent(ctx));
   const char *tag = strstr(path, "cuda-dropin") || strstr(path, "cuvk") ? "cuvk" : "libcuda";
   printf("# %s: %s (%s)\n", tag, path, name);
   for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
      cuda_level(&cu, tag, &levels[i]);
   CU(cu.PrimaryCtxRelease(dev));
}

int
main(int argc, char **argv)
{
   bool engine = true;
   const char *libs[4];
   int nlibs = 0;

   for (int i = 1; i < argc; i++) {
      if (strcmp(argv[i], "--quick") == 0)
         quick = true;
      else if (strcmp(argv[i], "--no-engine") == 0)
         engine = false;
      else if (strcmp(argv[i], "--cuda") == 0 && i + 1 < argc && nlibs < 4)
         libs[nlibs++] = argv[++i];
      else {
         fprintf(stderr, "usage: %s [--quick] [--no-engine] [--cuda PATH]...\n", argv[0]);
         return 2;
      }
   }
   if (engine) {
      struct bvk b;
      bvk_init(&b);
      printf("# engine: %s\n", b.props.deviceName);
      for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
         engine_level(&b, &levels[i]);
      bvk_finish(&b);
   }
   for (int i = 0; i < nlibs; i++)
      cuda_bench(libs[i]);
   return 0;
}
