#include "interop_harness.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

bool
itest_layer_requested(void)
{
   const char *layers = getenv("VK_INSTANCE_LAYERS");
   return layers && strstr(layers, "VK_LAYER_CUVK_interop");
}

/* ---- CUDA --------------------------------------------------------------- */

static const char *
itest_cu_name(CUresult res)
{
   const char *name = NULL;
   if (cuGetErrorName(res, &name) != CUDA_SUCCESS || !name)
      return "(unknown)";
   return name;
}

bool
itest_cu_expect_(const char *file, int line, const char *expr, CUresult got, CUresult want)
{
   if (got == want)
      return true;
   itest_failf(file, line, "%s returned %s (%d), expected %s (%d)", expr, itest_cu_name(got),
               (int)got, itest_cu_name(want), (int)want);
   return false;
}

static bool
itest_cuda_init(struct itest *t)
{
   int count = 0;

   if (!ITEST_CU(cuInit(0)) || !ITEST_CU(cuDeviceGetCount(&count)))
      return false;

   /* The importer must be the exporter's device, found as CUDA
    * applications do: by UUID. */
   t->cu_device = -1;
   for (int i = 0; i < count && t->cu_device < 0; i++) {
      CUdevice dev;
      CUuuid uuid;
      if (!ITEST_CU(cuDeviceGet(&dev, i)) || !ITEST_CU(cuDeviceGetUuid(&uuid, dev)))
         return false;
      if (memcmp(uuid.bytes, t->vk.device_uuid, VK_UUID_SIZE) == 0)
         t->cu_device = dev;
   }
   if (t->cu_device < 0) {
      ITEST_FAILF("none of the %d CUDA devices has the deviceUUID of %s", count,
                  t->vk.properties.deviceName);
      return false;
   }
   if (!ITEST_CU(cuDevicePrimaryCtxRetain(&t->cu_context, t->cu_device)))
      return false;
   t->have_cuda = true;
   return ITEST_CU(cuCtxSetCurrent(t->cu_context));
}

bool
itest_init(struct itest *t, const char *name, bool with_cuda)
{
   return itest_init_options(t, name, with_cuda, NULL);
}

bool
itest_init_options(struct itest *t, const char *name, bool with_cuda,
                   const struct vkh_options *options)
{
   memset(t, 0, sizeof(*t));
   t->layer_on = itest_layer_requested();
   if (!vkh_init(&t->vk, name, options))
      return false;

   VkCommandPoolCreateInfo pool_info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
      .queueFamilyIndex = t->vk.queue_family,
   };
   VkResult res = vkCreateCommandPool(t->vk.device, &pool_info, NULL, &t->pool);
   if (res != VK_SUCCESS) {
      ITEST_FAILF("vkCreateCommandPool: %d", res);
      return false;
   }
   if (with_cuda && !itest_cuda_init(t))
      return false;
   return true;
}

int
itest_finish(struct itest *t)
{
   if (t->have_cuda) {
      ITEST_CU(cuCtxSynchronize());
      ITEST_CU(cuCtxSetCurrent(NULL));
      ITEST_CU(cuDevicePrimaryCtxRelease(t->cu_device));
      t->have_cuda = false;
   }
   if (t->pool) {
      vkDestroyCommandPool(t->vk.device, t->pool, NULL);
      t->pool = VK_NULL_HANDLE;
   }
   return vkh_exit(vkh_finish(&t->vk));
}

CUresult
itest_import(int fd, unsigned long long size, unsigned flags, CUexternalMemory *out)
{
   CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc;
   memset(&desc, 0, sizeof(desc));
   desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
   desc.handle.fd = fd;
   desc.size = size;
   desc.flags = flags;
   return cuImportExternalMemory(out, &desc);
}

CUresult
itest_map(CUexternalMemory ext, unsigned long long offset, unsigned long long size,
          CUdeviceptr *out)
{
   CUDA_EXTERNAL_MEMORY_BUFFER_DESC desc;
   memset(&desc, 0, sizeof(desc));
   desc.offset = offset;
   desc.size = size;
   return cuExternalMemoryGetMappedBuffer(out, ext, &desc);
}

bool
itest_cu_check_(CUdeviceptr ptr, const uint8_t *want, size_t size, const char *file, int line,
                const char *what)
{
   uint8_t *got = malloc(size ? size : 1);
   bool ok = false;

   if (!got) {
      itest_failf(file, line, "%s: out of memory", what);
      return false;
   }
   /* Whatever DtoH leaves unwritten must not match by chance. */
   for (size_t i = 0; i < size; i++)
      got[i] = (uint8_t)~want[i];
   CUresult res = cuMemcpyDtoH(got, ptr, size);
   if (res != CUDA_SUCCESS)
      itest_cu_expect_(file, line, "cuMemcpyDtoH", res, CUDA_SUCCESS);
   else
      ok = cuvk_test_check_bytes(file, line, got, want, size, "%s", what);
   free(got);
   return ok;
}

/* ---- data --------------------------------------------------------------- */

void
itest_pattern(uint8_t *dst, size_t size, uint32_t seed)
{
   /* xorshift32: never zero once started non-zero. */
   uint32_t x = seed * 2654435761u + 0x9e3779b9u;
   if (x == 0)
      x = 1;
   for (size_t i = 0; i < size; i++) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      dst[i] = (uint8_t)(x >> 11);
   }
}

void
itest_model_fill16(uint8_t *dst, uint16_t value, size_t count)
{
   for (size_t i = 0; i < count; i++) {
      dst[2 * i] = (uint8_t)value;
      dst[2 * i + 1] = (uint8_t)(value >> 8);
   }
}

void
itest_model_fill32(uint8_t *dst, uint32_t value, size_t count)
{
   for (size_t i = 0; i < count; i++) {
      for (int b = 0; b < 4; b++)
         dst[4 * i + b] = (uint8_t)(value >> (8 * b));
   }
}

/* ---- exporting ---------------------------------------------------------- */

int
itest_memory_type(const struct itest *t, uint32_t type_bits, enum itest_memory memory)
{
   const VkPhysicalDeviceMemoryProperties *props = &t->vk.memory_properties;

   if (memory == ITEST_DEVICE_ONLY) {
      for (uint32_t i = 0; i < props->memoryTypeCount; i++) {
         VkMemoryPropertyFlags f = props->memoryTypes[i].propertyFlags;
         if ((type_bits & (1u << i)) && (f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) &&
             !(f & (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_PROTECTED_BIT)))
            return (int)i;
      }
      return -1;
   }
   int type = vkh_find_memory_type(&t->vk, type_bits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
   if (type < 0)
      type = vkh_find_memory_type(&t->vk, type_bits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
   return type;
}

VkResult
itest_export_create(struct itest *t, VkDeviceSize size, bool dedicated, enum itest_memory memory,
                    struct itest_export *e)
{
   VkMemoryRequirements req;
   VkResult res;

   memset(e, 0, sizeof(*e));
   e->dedicated = dedicated;
   e->target_size = size;

   res = vkh_create_buffer(&t->vk, size, ITEST_BUFFER_USAGE, VKH_OPAQUE_FD, &e->target);
   if (res != VK_SUCCESS)
      goto fail;
   vkGetBufferMemoryRequirements(t->vk.device, e->target, &req);
   uint32_t type_bits = req.memoryTypeBits;

   if (dedicated) {
      e->allocation_size = req.size;
   } else {
      /* Something else first, so that the target is at an offset that is
       * neither 0 nor a large power of two. */
      e->target_offset = ITEST_ALIGN(3 * 4096 + 256, req.alignment);
      VkDeviceSize total = ITEST_ALIGN(e->target_offset + req.size + 4096 + 512, 4096);
      res = vkh_create_buffer(&t->vk, total, ITEST_BUFFER_USAGE, VKH_OPAQUE_FD, &e->whole);
      if (res != VK_SUCCESS)
         goto fail;
      VkMemoryRequirements whole_req;
      vkGetBufferMemoryRequirements(t->vk.device, e->whole, &whole_req);
      type_bits &= whole_req.memoryTypeBits;
      e->allocation_size = whole_req.size > total ? whole_req.size : total;
   }

   int type = itest_memory_type(t, type_bits, memory);
   if (type < 0) {
      res = VK_ERROR_FEATURE_NOT_PRESENT;
      goto fail;
   }
   e->type_index = (uint32_t)type;
   e->host_visible = t->vk.memory_properties.memoryTypes[type].propertyFlags &
                     VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;

   res = vkh_allocate(&t->vk, e->allocation_size, e->type_index, VKH_OPAQUE_FD, VK_NULL_HANDLE,
                      dedicated ? e->target : VK_NULL_HANDLE, &e->memory);
   if (res != VK_SUCCESS)
      goto fail;
   res = vkBindBufferMemory(t->vk.device, e->target, e->memory, e->target_offset);
   if (res == VK_SUCCESS && e->whole)
      res = vkBindBufferMemory(t->vk.device, e->whole, e->memory, 0);
   if (res != VK_SUCCESS)
      goto fail;

   if (dedicated)
      e->whole = e->target;
   e->model_size = dedicated && !e->host_visible ? e->target_size : e->allocation_size;
   return VK_SUCCESS;

fail:
   if (res != VK_ERROR_FEATURE_NOT_PRESENT)
      ITEST_FAILF("exporting a %s allocation: VkResult %d", dedicated ? "dedicated" : "suballocated",
                  res);
   itest_export_destroy(t, e);
   return res;
}

void
itest_export_destroy(struct itest *t, struct itest_export *e)
{
   if (e->whole && e->whole != e->target)
      vkDestroyBuffer(t->vk.device, e->whole, NULL);
   if (e->target)
      vkDestroyBuffer(t->vk.device, e->target, NULL);
   if (e->memory)
      vkFreeMemory(t->vk.device, e->memory, NULL);
   e->whole = VK_NULL_HANDLE;
   e->target = VK_NULL_HANDLE;
   e->memory = VK_NULL_HANDLE;
}

int
itest_export_fd(struct itest *t, const struct itest_export *e)
{
   int fd = vkh_get_memory_fd(&t->vk, e->memory, VKH_OPAQUE_FD);
   if (fd < 0)
      ITEST_FAILF("vkGetMemoryFdKHR failed");
   return fd;
}

/* ---- Vulkan access ------------------------------------------------------ */

struct itest_staging {
   VkBuffer buffer;
   VkDeviceMemory memory;
};

static bool
itest_staging_create(struct itest *t, VkDeviceSize size, struct itest_staging *s)
{
   memset(s, 0, sizeof(*s));
   if (vkh_create_buffer(&t->vk, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                       VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0, &s->buffer) != VK_SUCCESS ||
       vkh_allocate_for_buffer(&t->vk, s->buffer, false, 0, &s->memory, NULL, NULL) != VK_SUCCESS ||
       vkBindBufferMemory(t->vk.device, s->buffer, s->memory, 0) != VK_SUCCESS) {
      ITEST_FAILF("creating a %llu-byte staging buffer", (unsigned long long)size);
      return false;
   }
   return true;
}

static void
itest_staging_destroy(struct itest *t, struct itest_staging *s)
{
   if (s->buffer)
      vkDestroyBuffer(t->vk.device, s->buffer, NULL);
   if (s->memory)
      vkFreeMemory(t->vk.device, s->memory, NULL);
}

static VkCommandBuffer
itest_begin(struct itest *t)
{
   VkCommandBufferAllocateInfo alloc = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .commandPool = t->pool,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 1,
   };
   VkCommandBufferBeginInfo begin = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
   };
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   if (vkAllocateCommandBuffers(t->vk.device, &alloc, &cmd) != VK_SUCCESS ||
       vkBeginCommandBuffer(cmd, &begin) != VK_SUCCESS) {
      ITEST_FAILF("cannot record a command buffer");
      if (cmd)
         vkFreeCommandBuffers(t->vk.device, t->pool, 1, &cmd);
      return VK_NULL_HANDLE;
   }
   return cmd;
}

/* Ends cmd with a barrier that makes transfer writes visible to the host,
 * submits it and waits. */
static bool
itest_submit(struct itest *t, VkCommandBuffer cmd)
{
   VkMemoryBarrier barrier = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
      .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                        &barrier, 0, NULL, 0, NULL);
   bool ok = vkEndCommandBuffer(cmd) == VK_SUCCESS;
   VkSubmitInfo submit = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .commandBufferCount = 1,
      .pCommandBuffers = &cmd,
   };
   ok = ok && vkQueueSubmit(t->vk.queue, 1, &submit, VK_NULL_HANDLE) == VK_SUCCESS &&
        vkQueueWaitIdle(t->vk.queue) == VK_SUCCESS;
   vkFreeCommandBuffers(t->vk.device, t->pool, 1, &cmd);
   if (!ok)
      ITEST_FAILF("submitting to the exporter's queue failed");
   return ok;
}

bool
itest_vk_copy_into(struct itest *t, VkBuffer buffer, const struct itest_region *regions,
                   uint32_t count)
{
   struct itest_staging s;
   VkBufferCopy copies[8];
   VkDeviceSize total = 0;
   bool ok = false;

   if (count > 8)
      return false;
   for (uint32_t i = 0; i < count; i++) {
      copies[i] = (VkBufferCopy){ .srcOffset = total, .dstOffset = regions[i].offset,
                                  .size = regions[i].size };
      total += regions[i].size;
   }
   if (!itest_staging_create(t, total, &s))
      goto out;
   for (uint32_t i = 0; i < count; i++) {
      if (!vkh_write(&t->vk, s.memory, copies[i].srcOffset, regions[i].data, regions[i].size))
         goto out;
   }
   VkCommandBuffer cmd = itest_begin(t);
   if (!cmd)
      goto out;
   vkCmdCopyBuffer(cmd, s.buffer, buffer, count, copies);
   ok = itest_submit(t, cmd);
out:
   itest_staging_destroy(t, &s);
   return ok;
}

bool
itest_vk_fill(struct itest *t, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size,
              uint32_t value)
{
   VkCommandBuffer cmd = itest_begin(t);
   if (!cmd)
      return false;
   vkCmdFillBuffer(cmd, buffer, offset, size, value);
   return itest_submit(t, cmd);
}

bool
itest_vk_write(struct itest *t, const struct itest_export *e, VkDeviceSize offset,
               const void *data, size_t size)
{
   if (e->host_visible)
      return vkh_write(&t->vk, e->memory, offset, data, size);
   struct itest_region region = { .offset = offset, .data = data, .size = size };
   return itest_vk_copy_into(t, e->whole, &region, 1);
}

bool
itest_vk_read(struct itest *t, const struct itest_export *e, VkDeviceSize offset, void *data,
              size_t size)
{
   if (e->host_visible)
      return vkh_read(&t->vk, e->memory, offset, data, size);

   struct itest_staging s;
   bool ok = false;
   if (!itest_staging_create(t, size, &s))
      goto out;
   VkCommandBuffer cmd = itest_begin(t);
   if (!cmd)
      goto out;
   VkBufferCopy copy = { .srcOffset = offset, .dstOffset = 0, .size = size };
   vkCmdCopyBuffer(cmd, e->whole, s.buffer, 1, &copy);
   ok = itest_submit(t, cmd) && vkh_read(&t->vk, s.memory, 0, data, size);
out:
   itest_staging_destroy(t, &s);
   return ok;
}

bool
itest_vk_check_(struct itest *t, const struct itest_export *e, const uint8_t *model,
                const char *file, int line, const char *what)
{
   uint8_t *got = malloc(e->model_size);
   bool ok = false;

   if (!got) {
      itest_failf(file, line, "%s: out of memory", what);
      return false;
   }
   if (!itest_vk_read(t, e, 0, got, e->model_size))
      itest_failf(file, line, "%s: reading the memory through Vulkan failed", what);
   else
      ok = cuvk_test_check_bytes(file, line, got, model, e->model_size, "%s", what);
   free(got);
   return ok;
}

/* ---- file descriptors --------------------------------------------------- */

bool
itest_fd_is_open(int fd)
{
   return fcntl(fd, F_GETFD) != -1 || errno != EBADF;
}

int
itest_count_fds(void)
{
   DIR *dir = opendir("/proc/self/fd");
   int count = 0;

   if (!dir)
      return -1;
   for (struct dirent *entry; (entry = readdir(dir));) {
      if (entry->d_name[0] != '.' && atoi(entry->d_name) != dirfd(dir))
         count++;
   }
   closedir(dir);
   return count;
}

bool
itest_send_fd(int sock, int fd, const void *data, size_t size)
{
   union {
      struct cmsghdr hdr;
      char buf[CMSG_SPACE(sizeof(int))];
   } control;
   struct iovec iov = { .iov_base = (void *)data, .iov_len = size };
   struct msghdr msg = {
      .msg_iov = &iov,
      .msg_iovlen = 1,
      .msg_control = control.buf,
      .msg_controllen = sizeof(control.buf),
   };

   memset(&control, 0, sizeof(control));
   struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
   cmsg->cmsg_level = SOL_SOCKET;
   cmsg->cmsg_type = SCM_RIGHTS;
   cmsg->cmsg_len = CMSG_LEN(sizeof(int));
   memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));

   ssize_t n;
   do {
      n = sendmsg(sock, &msg, MSG_NOSIGNAL);
   } while (n < 0 && errno == EINTR);
   return n == (ssize_t)size;
}

int
itest_recv_fd(int sock, void *data, size_t size)
{
   union {
      struct cmsghdr hdr;
      char buf[CMSG_SPACE(sizeof(int))];
   } control;
   struct iovec iov = { .iov_base = data, .iov_len = size };
   struct msghdr msg = {
      .msg_iov = &iov,
      .msg_iovlen = 1,
      .msg_control = control.buf,
      .msg_controllen = sizeof(control.buf),
   };

   ssize_t n;
   do {
      n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
   } while (n < 0 && errno == EINTR);
   if (n != (ssize_t)size)
      return -1;
   struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
   if (!cmsg || cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS ||
       cmsg->cmsg_len != CMSG_LEN(sizeof(int)))
      return -1;
   int fd;
   memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
   return fd;
}

int
itest_pass_fd_to_self(int fd)
{
   int sv[2];
   char byte = 'x';
   int received = -1;

   if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
      return -1;
   if (itest_send_fd(sv[0], fd, &byte, 1))
      received = itest_recv_fd(sv[1], &byte, 1);
   close(sv[0]);
   close(sv[1]);
   return received;
}
