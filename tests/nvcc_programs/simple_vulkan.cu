// nvcc_programs.simple_vulkan: the flow of NVIDIA's simpleVulkan sample,
// written afresh, offscreen.  Vulkan owns a vertex buffer and two binary
// semaphores, all exportable; CUDA imports them through the runtime API.
// Each frame CUDA waits on vk_to_cuda, a kernel writes a sine-wave height
// field (time moves on each frame) into the vertex buffer, CUDA signals
// cuda_to_vk; Vulkan waits on that before its vertex input, draws the
// mesh as points into an R32_SFLOAT image (a point's colour is its height,
// shaders/mesh_points.*), copies the image out and signals vk_to_cuda for
// the next frame.  The host queues every frame before it waits for any, so
// only the semaphores keep a kernel from overwriting heights a draw has
// not read yet, and each frame has a readback buffer of its own.  Every
// pixel is checked: a vertex's pixel against the host's height for that
// frame, every other pixel against the clear value.
#include "check.h"
#include "vk_app.h"

#include <cmath>
#include <ctime>
#include <unistd.h>

#include "mesh_points_frag.h"
#include "mesh_points_vert.h"

#define MESH_W 64u
#define MESH_H 48u
#define IMAGE_W (2 * MESH_W)
#define IMAGE_H (2 * MESH_H)
#define FRAMES 5
#define FREQ 4.0f
#define CLEAR_VALUE -4.0f

static float
frame_time(int frame)
{
   return 0.375f * (float)frame;
}

__global__ void
sine_wave(float *heights, unsigned width, unsigned height, float time)
{
   unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
   unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
   if (x >= width || y >= height)
      return;
   float u = (float)x / (float)width * 2.0f - 1.0f;
   float v = (float)y / (float)height * 2.0f - 1.0f;
   heights[y * width + x] = 0.5f * sinf(u * FREQ + time) * cosf(v * FREQ + time);
}

static float
host_height(unsigned x, unsigned y, float time)
{
   float u = (float)x / (float)MESH_W * 2.0f - 1.0f;
   float v = (float)y / (float)MESH_H * 2.0f - 1.0f;
   return 0.5f * std::sin(u * FREQ + time) * std::cos(v * FREQ + time);
}

struct mesh_pass {
   VkImage image;
   VkDeviceMemory image_memory;
   VkImageView view;
   VkRenderPass render_pass;
   VkFramebuffer framebuffer;
   VkShaderModule vert, frag;
   VkPipelineLayout layout;
   VkPipeline pipeline;
};

struct mesh_push {
   float image_size[2];
   int width;
};

static VkShaderModule
shader_module(vk_app *app, const uint32_t *code, size_t size)
{
   VkShaderModuleCreateInfo info = {};
   info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
   info.codeSize = size;
   info.pCode = code;
   VkShaderModule m = VK_NULL_HANDLE;
   CHECK_VK(vkCreateShaderModule(app->device, &info, nullptr, &m));
   return m;
}

static bool
mesh_pass_create(vk_app *app, mesh_pass *p)
{
   std::memset(p, 0, sizeof(*p));
   VkImageCreateInfo image_info = {};
   image_info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
   image_info.imageType = VK_IMAGE_TYPE_2D;
   image_info.format = VK_FORMAT_R32_SFLOAT;
   image_info.extent = {IMAGE_W, IMAGE_H, 1};
   image_info.mipLevels = 1;
   image_info.arrayLayers = 1;
   image_info.samples = VK_SAMPLE_COUNT_1_BIT;
   image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
   image_info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
   image_info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
   CHECK_VK(vkCreateImage(app->device, &image_info, nullptr, &p->image));
   if (!p->image)
      return false;
   VkMemoryRequirements req;
   vkGetImageMemoryRequirements(app->device, p->image, &req);
   int type = vk_app_memory_type(app, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
   CHECK(type >= 0);
   if (type < 0)
      return false;
   VkMemoryAllocateInfo alloc = {};
   alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
   alloc.allocationSize = req.size;
   alloc.memoryTypeIndex = (uint32_t)type;
   CHECK_VK(vkAllocateMemory(app->device, &alloc, nullptr, &p->image_memory));
   if (!p->image_memory)
      return false;
   CHECK_VK(vkBindImageMemory(app->device, p->image, p->image_memory, 0));

   VkImageViewCreateInfo view_info = {};
   view_info.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
   view_info.image = p->image;
   view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
   view_info.format = VK_FORMAT_R32_SFLOAT;
   view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
   CHECK_VK(vkCreateImageView(app->device, &view_info, nullptr, &p->view));

   VkAttachmentDescription attachment = {};
   attachment.format = VK_FORMAT_R32_SFLOAT;
   attachment.samples = VK_SAMPLE_COUNT_1_BIT;
   attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
   attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
   attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
   attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
   attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
   attachment.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
   VkAttachmentReference color_ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
   VkSubpassDescription subpass = {};
   subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
   subpass.colorAttachmentCount = 1;
   subpass.pColorAttachments = &color_ref;
   // The previous frame's copy reads the image this frame clears; this
   // frame's copy reads what the subpass wrote.
   VkSubpassDependency deps[2] = {};
   deps[0].srcSubpass = VK_SUBPASS_EXTERNAL;
   deps[0].dstSubpass = 0;
   deps[0].srcStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
   deps[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
   deps[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
   deps[1].srcSubpass = 0;
   deps[1].dstSubpass = VK_SUBPASS_EXTERNAL;
   deps[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
   deps[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
   deps[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
   deps[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
   VkRenderPassCreateInfo rp_info = {};
   rp_info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
   rp_info.attachmentCount = 1;
   rp_info.pAttachments = &attachment;
   rp_info.subpassCount = 1;
   rp_info.pSubpasses = &subpass;
   rp_info.dependencyCount = 2;
   rp_info.pDependencies = deps;
   CHECK_VK(vkCreateRenderPass(app->device, &rp_info, nullptr, &p->render_pass));

   VkFramebufferCreateInfo fb_info = {};
   fb_info.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
   fb_info.renderPass = p->render_pass;
   fb_info.attachmentCount = 1;
   fb_info.pAttachments = &p->view;
   fb_info.width = IMAGE_W;
   fb_info.height = IMAGE_H;
   fb_info.layers = 1;
   CHECK_VK(vkCreateFramebuffer(app->device, &fb_info, nullptr, &p->framebuffer));

   p->vert = shader_module(app, mesh_points_vert, sizeof(mesh_points_vert));
   p->frag = shader_module(app, mesh_points_frag, sizeof(mesh_points_frag));
   VkPushConstantRange push = {VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(mesh_push)};
   VkPipelineLayoutCreateInfo layout_info = {};
   layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
   layout_info.pushConstantRangeCount = 1;
   layout_info.pPushConstantRanges = &push;
   CHECK_VK(vkCreatePipelineLayout(app->device, &layout_info, nullptr, &p->layout));
   if (!p->view || !p->render_pass || !p->framebuffer || !p->vert || !p->frag || !p->layout)
      return false;

   VkPipelineShaderStageCreateInfo stages[2] = {};
   stages[0].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
   stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
   stages[0].module = p->vert;
   stages[0].pName = "main";
   stages[1].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
   stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
   stages[1].module = p->frag;
   stages[1].pName = "main";
   VkVertexInputBindingDescription binding = {0, sizeof(float), VK_VERTEX_INPUT_RATE_VERTEX};
   VkVertexInputAttributeDescription attribute = {0, 0, VK_FORMAT_R32_SFLOAT, 0};
   VkPipelineVertexInputStateCreateInfo vertex_input = {};
   vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
   vertex_input.vertexBindingDescriptionCount = 1;
   vertex_input.pVertexBindingDescriptions = &binding;
   vertex_input.vertexAttributeDescriptionCount = 1;
   vertex_input.pVertexAttributeDescriptions = &attribute;
   VkPipelineInputAssemblyStateCreateInfo assembly = {};
   assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
   assembly.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
   VkViewport viewport = {0.0f, 0.0f, (float)IMAGE_W, (float)IMAGE_H, 0.0f, 1.0f};
   VkRect2D scissor = {{0, 0}, {IMAGE_W, IMAGE_H}};
   VkPipelineViewportStateCreateInfo viewport_state = {};
   viewport_state.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
   viewport_state.viewportCount = 1;
   viewport_state.pViewports = &viewport;
   viewport_state.scissorCount = 1;
   viewport_state.pScissors = &scissor;
   VkPipelineRasterizationStateCreateInfo raster = {};
   raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
   raster.polygonMode = VK_POLYGON_MODE_FILL;
   raster.cullMode = VK_CULL_MODE_NONE;
   raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
   raster.lineWidth = 1.0f;
   VkPipelineMultisampleStateCreateInfo multisample = {};
   multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
   multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
   VkPipelineColorBlendAttachmentState blend_attachment = {};
   blend_attachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT;
   VkPipelineColorBlendStateCreateInfo blend = {};
   blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
   blend.attachmentCount = 1;
   blend.pAttachments = &blend_attachment;
   VkGraphicsPipelineCreateInfo pipeline_info = {};
   pipeline_info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
   pipeline_info.stageCount = 2;
   pipeline_info.pStages = stages;
   pipeline_info.pVertexInputState = &vertex_input;
   pipeline_info.pInputAssemblyState = &assembly;
   pipeline_info.pViewportState = &viewport_state;
   pipeline_info.pRasterizationState = &raster;
   pipeline_info.pMultisampleState = &multisample;
   pipeline_info.pColorBlendState = &blend;
   pipeline_info.layout = p->layout;
   pipeline_info.renderPass = p->render_pass;
   CHECK_VK(vkCreateGraphicsPipelines(app->device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr,
                                      &p->pipeline));
   return p->pipeline != VK_NULL_HANDLE;
}

static void
mesh_pass_destroy(vk_app *app, mesh_pass *p)
{
   vkDestroyPipeline(app->device, p->pipeline, nullptr);
   vkDestroyPipelineLayout(app->device, p->layout, nullptr);
   vkDestroyShaderModule(app->device, p->vert, nullptr);
   vkDestroyShaderModule(app->device, p->frag, nullptr);
   vkDestroyFramebuffer(app->device, p->framebuffer, nullptr);
   vkDestroyRenderPass(app->device, p->render_pass, nullptr);
   vkDestroyImageView(app->device, p->view, nullptr);
   vkDestroyImage(app->device, p->image, nullptr);
   vkFreeMemory(app->device, p->image_memory, nullptr);
}

// One frame's Vulkan work: clear, the mesh's points, the image copied
// into readback for the host.
static VkCommandBuffer
record_frame(vk_app *app, const mesh_pass *p, VkBuffer heights, VkBuffer readback)
{
   VkCommandBuffer cmd = vk_app_command_buffer(app);
   VkClearValue clear = {};
   clear.color.float32[0] = CLEAR_VALUE;
   VkRenderPassBeginInfo begin = {};
   begin.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
   begin.renderPass = p->render_pass;
   begin.framebuffer = p->framebuffer;
   begin.renderArea = {{0, 0}, {IMAGE_W, IMAGE_H}};
   begin.clearValueCount = 1;
   begin.pClearValues = &clear;
   vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p->pipeline);
   VkDeviceSize offset = 0;
   vkCmdBindVertexBuffers(cmd, 0, 1, &heights, &offset);
   mesh_push push = {{(float)IMAGE_W, (float)IMAGE_H}, (int)MESH_W};
   vkCmdPushConstants(cmd, p->layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(push), &push);
   vkCmdDraw(cmd, MESH_W * MESH_H, 1, 0, 0);
   vkCmdEndRenderPass(cmd);

   VkBufferImageCopy region = {};
   region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
   region.imageExtent = {IMAGE_W, IMAGE_H, 1};
   vkCmdCopyImageToBuffer(cmd, p->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
   VkBufferMemoryBarrier to_host = {};
   to_host.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
   to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
   to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
   to_host.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
   to_host.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
   to_host.buffer = readback;
   to_host.size = VK_WHOLE_SIZE;
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, nullptr, 1,
                        &to_host, 0, nullptr);
   return cmd;
}

static void
check_frame(vk_app *app, const vk_app_buffer *readback, int frame)
{
   void *mapped = nullptr;
   CHECK_VK(vkMapMemory(app->device, readback->memory, 0, VK_WHOLE_SIZE, 0, &mapped));
   if (!mapped)
      return;
   const float *pixels = (const float *)mapped;
   float time = frame_time(frame);
   unsigned bad = 0;
   for (unsigned py = 0; py < IMAGE_H; py++) {
      for (unsigned px = 0; px < IMAGE_W; px++) {
         float got = pixels[py * IMAGE_W + px];
         bool vertex = px % 2 == 0 && py % 2 == 0;
         float want = vertex ? host_height(px / 2, py / 2, time) : CLEAR_VALUE;
         // sinf and cosf on the device and the host may differ in their
         // last bits; the heights are within 0.5.
         bool ok = vertex ? std::fabs(got - want) <= 1e-5f : got == want;
         if (!ok && bad++ < 5)
            std::fprintf(stderr, "FAIL: frame %d pixel (%u, %u) = %.9g, want %.9g\n", frame, px, py, got,
                         want);
      }
   }
   if (bad) {
      std::fprintf(stderr, "FAIL: frame %d: %u of %u pixels wrong\n", frame, bad, IMAGE_W * IMAGE_H);
      check_failures++;
   }
   vkUnmapMemory(app->device, readback->memory);
}

int
main()
{
   check_bound_to_cuvk();
   vk_app app;
   mesh_pass pass = {};
   vk_app_buffer heights = {}, readback[FRAMES] = {};
   VkCommandBuffer frames[FRAMES] = {};
   VkFence fences[FRAMES] = {};
   VkSemaphore vk_to_cuda = VK_NULL_HANDLE, cuda_to_vk = VK_NULL_HANDLE;
   cudaExternalMemory_t ext_heights = nullptr;
   cudaExternalSemaphore_t cu_vk_to_cuda = nullptr, cu_cuda_to_vk = nullptr;
   float *d_heights = nullptr;
   cudaStream_t stream = nullptr;
   int device;

   if (!vk_app_init(&app, "simple_vulkan")) {
      check_failures++;
      goto out;
   }
   device = vk_app_cuda_device(&app);
   CHECK(device >= 0);
   if (device < 0)
      goto out;
   CHECK_CUDA(cudaSetDevice(device));
   CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

   if (!vk_app_buffer_create(&app, MESH_W * MESH_H * sizeof(float), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                             VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, true, &heights))
      goto out;
   for (int f = 0; f < FRAMES; f++) {
      if (!vk_app_buffer_create(&app, IMAGE_W * IMAGE_H * sizeof(float), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                false, &readback[f]))
         goto out;
      fences[f] = vk_app_fence(&app);
   }
   vk_to_cuda = vk_app_semaphore_create(&app);
   cuda_to_vk = vk_app_semaphore_create(&app);
   if (!vk_to_cuda || !cuda_to_vk || !mesh_pass_create(&app, &pass))
      goto out;

   {
      int fd = vk_app_buffer_fd(&app, &heights);
      if (fd < 0)
         goto out;
      cudaExternalMemoryHandleDesc desc = {};
      desc.type = cudaExternalMemoryHandleTypeOpaqueFd;
      desc.handle.fd = fd;
      desc.size = heights.allocation_size;
      cudaError_t err = cudaImportExternalMemory(&ext_heights, &desc);
      EXPECT_ERR(err, cudaSuccess);
      if (err != cudaSuccess) {
         close(fd);
         goto out;
      }
      cudaExternalMemoryBufferDesc buffer_desc = {};
      buffer_desc.size = MESH_W * MESH_H * sizeof(float);
      CHECK_CUDA(cudaExternalMemoryGetMappedBuffer((void **)&d_heights, ext_heights, &buffer_desc));
   }
   cu_vk_to_cuda = vk_app_cuda_semaphore(&app, vk_to_cuda);
   cu_cuda_to_vk = vk_app_cuda_semaphore(&app, cuda_to_vk);
   if (!d_heights || !cu_vk_to_cuda || !cu_cuda_to_vk)
      goto out;

   for (int f = 0; f < FRAMES; f++)
      frames[f] = record_frame(&app, &pass, heights.buffer, readback[f].buffer);

   {
      // Vulkan goes first, as the sample's does: a batch that only
      // signals lets CUDA's first wait through.
      vk_app_submit(&app, VK_NULL_HANDLE, VK_NULL_HANDLE, 0, vk_to_cuda, VK_NULL_HANDLE);
      struct timespec t0, t1;
      clock_gettime(CLOCK_MONOTONIC, &t0);
      cudaExternalSemaphoreWaitParams wait = {};
      cudaExternalSemaphoreSignalParams signal = {};
      dim3 block(16, 16), grid((MESH_W + 15) / 16, (MESH_H + 15) / 16);
      for (int f = 0; f < FRAMES; f++) {
         CHECK_CUDA(cudaWaitExternalSemaphoresAsync(&cu_vk_to_cuda, &wait, 1, stream));
         sine_wave<<<grid, block, 0, stream>>>(d_heights, MESH_W, MESH_H, frame_time(f));
         CHECK_CUDA(cudaGetLastError());
         CHECK_CUDA(cudaSignalExternalSemaphoresAsync(&cu_cuda_to_vk, &signal, 1, stream));
         vk_app_submit(&app, frames[f], cuda_to_vk, VK_PIPELINE_STAGE_VERTEX_INPUT_BIT, vk_to_cuda, fences[f]);
      }
      // The last frame's signal is taken too, so that both semaphores end
      // unsignalled with nothing pending.
      CHECK_CUDA(cudaWaitExternalSemaphoresAsync(&cu_vk_to_cuda, &wait, 1, stream));
      for (int f = 0; f < FRAMES; f++) {
         vk_app_fence_wait(&app, fences[f]);
         check_frame(&app, &readback[f], f);
      }
      CHECK_CUDA(cudaStreamSynchronize(stream));
      clock_gettime(CLOCK_MONOTONIC, &t1);
      std::printf("simple_vulkan: %d frames of a %ux%u mesh in %.1f ms\n", FRAMES, MESH_W, MESH_H,
                  (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
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
   if (d_heights)
      CHECK_CUDA(cudaFree(d_heights));
   if (ext_heights)
      CHECK_CUDA(cudaDestroyExternalMemory(ext_heights));
   if (app.device) {
      for (int f = 0; f < FRAMES; f++) {
         if (fences[f])
            vkDestroyFence(app.device, fences[f], nullptr);
         vk_app_buffer_destroy(&app, &readback[f]);
      }
      vkDestroySemaphore(app.device, vk_to_cuda, nullptr);
      vkDestroySemaphore(app.device, cuda_to_vk, nullptr);
      vk_app_buffer_destroy(&app, &heights);
      mesh_pass_destroy(&app, &pass);
   }
   vk_app_finish(&app);
   return check_finish("simple_vulkan");
}
