/*
 * Data crossing between Vulkan and CUDA: every way each side writes,
 * read by the other; mappings at odd offsets and overlapping; several
 * imports of one allocation; images as the exported object.
 */
#include "interop_flow.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the common frame --------------------------------------------------- */

int
flow_begin(struct flow *f, const struct itest_case *c, VkDeviceSize size, enum flow_steps steps)
{
   memset(f, 0, sizeof(*f));
   f->fd = -1;
   if (!itest_init(&f->t, c->name, true))
      return ITEST_FAIL;

   VkResult res = itest_export_create(&f->t, size, c->dedicated, c->memory, &f->e);
   if (res == VK_ERROR_FEATURE_NOT_PRESENT)
      return itest_skip("%s has no device-local memory type without host access",
                        f->t.vk.properties.deviceName);
   if (res != VK_SUCCESS)
      return ITEST_FAIL;

   f->model = malloc(f->e.model_size);
   if (!f->model) {
      ITEST_FAILF("out of memory");
      return ITEST_FAIL;
   }
   f->tm = f->model + f->e.target_offset;
   itest_pattern(f->model, f->e.model_size, 1);
   if (!itest_vk_write(&f->t, &f->e, 0, f->model, f->e.model_size)) {
      ITEST_FAILF("writing the starting pattern through Vulkan failed");
      return ITEST_FAIL;
   }

   f->fd = itest_export_fd(&f->t, &f->e);
   if (f->fd < 0)
      return ITEST_FAIL;
   if (steps == FLOW_EXPORT)
      return ITEST_PASS;

   int fd = f->fd;
   if (!ITEST_CU(itest_import(fd, f->e.allocation_size,
                              c->dedicated ? CUDA_EXTERNAL_MEMORY_DEDICATED : 0, &f->ext)))
      return ITEST_FAIL;
   /* A successful import owns the fd. */
   f->fd = -1;
   if (itest_fd_is_open(fd))
      ITEST_FAILF("fd %d is still open after a successful import", fd);
   if (!ITEST_CU(itest_map(f->ext, f->e.target_offset, f->e.target_size, &f->map)))
      return ITEST_FAIL;
   return ITEST_PASS;
}

int
flow_end(struct flow *f, int status)
{
   if (f->map)
      ITEST_CU(cuMemFree(f->map));
   if (f->ext)
      ITEST_CU(cuDestroyExternalMemory(f->ext));
   if (f->fd >= 0)
      close(f->fd);
   itest_export_destroy(&f->t, &f->e);
   free(f->model);
   return itest_status(status, itest_finish(&f->t));
}

void
flow_model_write(struct flow *f, size_t offset, const void *data, size_t size)
{
   memcpy(f->tm + offset, data, size);
}

/* ---- Vulkan writes, CUDA reads ------------------------------------------ */

enum vulkan_writer {
   VULKAN_MAP_WRITE,
   VULKAN_COPY_BUFFER,
   VULKAN_FILL_BUFFER,
};

static bool
vulkan_write(struct flow *f, enum vulkan_writer writer, uint8_t *data)
{
   const size_t n = f->e.target_size;
   uint8_t word[4];

   switch (writer) {
   case VULKAN_MAP_WRITE:
      /* Two overlapping writes at odd offsets, through vkMapMemory. */
      itest_pattern(data, n, 11);
      flow_model_write(f, 1, data, n - 4);
      if (!vkh_write(&f->t.vk, f->e.memory, f->e.target_offset + 1, data, n - 4))
         return false;
      itest_pattern(data, 4099, 12);
      flow_model_write(f, n / 2 + 3, data, 4099);
      return vkh_write(&f->t.vk, f->e.memory, f->e.target_offset + n / 2 + 3, data, 4099);

   case VULKAN_COPY_BUFFER: {
      /* One vkCmdCopyBuffer, three regions, none 4-byte aligned. */
      itest_pattern(data, n, 13);
      const struct itest_region regions[] = {
         { .offset = 3, .data = data, .size = 4099 },
         { .offset = 8193, .data = data + 5000, .size = 30001 },
         { .offset = n - 1000, .data = data + 40000, .size = 999 },
      };
      for (unsigned i = 0; i < 3; i++)
         flow_model_write(f, regions[i].offset, regions[i].data, regions[i].size);
      return itest_vk_copy_into(&f->t, f->e.target, regions, 3);
   }

   case VULKAN_FILL_BUFFER: {
      /* vkCmdFillBuffer ranges are 4-byte aligned; the last one runs to
       * the end of the buffer with VK_WHOLE_SIZE. */
      const struct {
         VkDeviceSize offset, size;
         uint32_t value;
      } fills[] = {
         { 4, 4000, 0xa5c3f00du },
         { 8192, (n - 8192 - 64) & ~(VkDeviceSize)3, 0x01020304u },
         { n - 12, VK_WHOLE_SIZE, 0xfeedfaceu },
      };
      for (unsigned i = 0; i < 3; i++) {
         VkDeviceSize size = fills[i].size == VK_WHOLE_SIZE ? n - fills[i].offset : fills[i].size;
         itest_model_fill32(word, fills[i].value, 1);
         for (VkDeviceSize b = 0; b < size; b++)
            f->tm[fills[i].offset + b] = word[b % 4];
         if (!itest_vk_fill(&f->t, f->e.target, fills[i].offset, fills[i].size, fills[i].value))
            return false;
      }
      return true;
   }
   }
   return false;
}

static int
case_cuda_reads_vulkan(const struct itest_case *c)
{
   struct flow f;
   uint8_t *data = NULL, *expect = NULL;
   CUdeviceptr tmp = 0;
   int status = flow_begin(&f, c, FLOW_SIZE, FLOW_IMPORT_AND_MAP);
   if (status != ITEST_PASS)
      return flow_end(&f, status);

   const size_t n = f.e.target_size;
   data = malloc(n);
   expect = malloc(n + 64);
   if (!data || !expect) {
      ITEST_FAILF("out of memory");
      goto out;
   }
   if (!vulkan_write(&f, c->variant, data)) {
      ITEST_FAILF("the Vulkan write failed");
      goto out;
   }

   /* Straight to the host: all of it, then a piece at an odd offset. */
   itest_cu_check(f.map, f.tm, n, "cuMemcpyDtoH of the whole mapping");
   itest_cu_check(f.map + 7, f.tm + 7, 1001, "cuMemcpyDtoH at an odd offset");

   /* Through device memory of CUDA's own, with guard bytes either side. */
   if (!ITEST_CU(cuMemAlloc(&tmp, n + 64)) || !ITEST_CU(cuMemsetD8(tmp, 0xee, n + 64)) ||
       !ITEST_CU(cuMemcpyDtoD(tmp + 32, f.map, n)))
      goto out;
   memset(expect, 0xee, n + 64);
   memcpy(expect + 32, f.tm, n);
   itest_cu_check(tmp, expect, n + 64, "cuMemcpyDtoD into cuMemAlloc memory, then cuMemcpyDtoH");
   if (!ITEST_CU(cuMemcpyDtoD(tmp + 1, f.map + 3, 5000)))
      goto out;
   memcpy(expect + 1, f.tm + 3, 5000);
   itest_cu_check(tmp, expect, n + 64, "cuMemcpyDtoD at odd offsets");

   /* CUDA only read: the memory must be exactly as Vulkan left it. */
   ITEST_CU(cuCtxSynchronize());
   itest_vk_check(&f.t, &f.e, f.model, "the memory after CUDA read it");

out:
   if (tmp)
      ITEST_CU(cuMemFree(tmp));
   free(data);
   free(expect);
   return flow_end(&f, status);
}

/* ---- CUDA writes, Vulkan reads ------------------------------------------ */

enum cuda_writer {
   CUDA_MEMCPY_HTOD,
   CUDA_MEMCPY_DTOD,
   CUDA_MEMSET_D8,
   CUDA_MEMSET_D16,
   CUDA_MEMSET_D32,
   CUDA_ASYNC_STREAM,
};

static bool
cuda_write(struct flow *f, enum cuda_writer writer, uint8_t *data)
{
   const size_t n = f->e.target_size;
   const CUdeviceptr m = f->map;
   bool ok = false;

   switch (writer) {
   case CUDA_MEMCPY_HTOD:
      itest_pattern(data, n, 21);
      flow_model_write(f, 5, data, n - 16);
      flow_model_write(f, n - 1, data + 100, 1);
      return ITEST_CU(cuMemcpyHtoD(m + 5, data, n - 16)) &&
             ITEST_CU(cuMemcpyHtoD(m + n - 1, data + 100, 1));

   case CUDA_MEMCPY_DTOD: {
      CUdeviceptr src;
      itest_pattern(data, n, 22);
      if (!ITEST_CU(cuMemAlloc(&src, n)))
         return false;
      flow_model_write(f, 7, data + 1, n - 20);
      flow_model_write(f, 0, data + 3, 2);
      ok = ITEST_CU(cuMemcpyHtoD(src, data, n)) && ITEST_CU(cuMemcpyDtoD(m + 7, src + 1, n - 20)) &&
           ITEST_CU(cuMemcpyDtoD(m, src + 3, 2));
      ITEST_CU(cuMemFree(src));
      return ok;
   }

   case CUDA_MEMSET_D8:
      memset(f->tm + 3, 0x5a, n - 10);
      f->tm[n - 1] = 0xc3;
      return ITEST_CU(cuMemsetD8(m + 3, 0x5a, n - 10)) && ITEST_CU(cuMemsetD8(m + n - 1, 0xc3, 1));

   case CUDA_MEMSET_D16:
      itest_model_fill16(f->tm + 2, 0xbeef, (n - 8) / 2);
      itest_model_fill16(f->tm + n - 2, 0x1234, 1);
      return ITEST_CU(cuMemsetD16(m + 2, 0xbeef, (n - 8) / 2)) &&
             ITEST_CU(cuMemsetD16(m + n - 2, 0x1234, 1));

   case CUDA_MEMSET_D32:
      itest_model_fill32(f->tm + 4, 0xdeadbeefu, (n - 12) / 4);
      itest_model_fill32(f->tm + n - 4, 0x0badcafeu, 1);
      return ITEST_CU(cuMemsetD32(m + 4, 0xdeadbeefu, (n - 12) / 4)) &&
             ITEST_CU(cuMemsetD32(m + n - 4, 0x0badcafeu, 1));

   case CUDA_ASYNC_STREAM: {
      /* One stream, in order: the DtoD reads what the HtoD wrote. */
      CUstream stream;
      uint8_t back[4000];
      itest_pattern(data, 5000, 23);
      if (!ITEST_CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING)))
         return false;
      ok = ITEST_CU(cuMemcpyHtoDAsync(m + 1, data, 5000, stream)) &&
           ITEST_CU(cuMemsetD32Async(m + 8192, 0x11223344u, 1000, stream)) &&
           ITEST_CU(cuMemsetD16Async(m + 16386, 0x5566, 777, stream)) &&
           ITEST_CU(cuMemsetD8Async(m + 20001, 0x77, 333, stream)) &&
           ITEST_CU(cuMemcpyDtoDAsync(m + 40003, m + 1, 4000, stream)) &&
           ITEST_CU(cuMemcpyDtoHAsync(back, m + 40003, 4000, stream)) &&
           ITEST_CU(cuStreamSynchronize(stream));
      ITEST_CU(cuStreamDestroy(stream));
      flow_model_write(f, 1, data, 5000);
      itest_model_fill32(f->tm + 8192, 0x11223344u, 1000);
      itest_model_fill16(f->tm + 16386, 0x5566, 777);
      memset(f->tm + 20001, 0x77, 333);
      flow_model_write(f, 40003, data, 4000);
      if (ok)
         ok = itest_check_bytes(back, data, 4000, "cuMemcpyDtoHAsync after cuMemcpyDtoDAsync");
      return ok;
   }
   }
   return false;
}

static int
case_vulkan_reads_cuda(const struct itest_case *c)
{
   struct flow f;
   uint8_t *data = NULL;
   int status = flow_begin(&f, c, FLOW_SIZE, FLOW_IMPORT_AND_MAP);
   if (status != ITEST_PASS)
      return flow_end(&f, status);

   data = malloc(f.e.target_size);
   if (!data) {
      ITEST_FAILF("out of memory");
      goto out;
   }
   if (!cuda_write(&f, c->variant, data))
      goto out;
   /* Writes may still run on the device (memsets, and HtoD from pageable
    * memory, return early): Vulkan reads after the context is idle. */
   if (!ITEST_CU(cuCtxSynchronize()))
      goto out;
   itest_cu_check(f.map, f.tm, f.e.target_size, "CUDA reading back what it wrote");
   itest_vk_check(&f.t, &f.e, f.model, "Vulkan reading what CUDA wrote");

out:
   free(data);
   return flow_end(&f, status);
}

/* ---- mappings at offsets ------------------------------------------------ */

static int
case_map_offsets(const struct itest_case *c)
{
   struct flow f;
   CUdeviceptr ptrs[6] = { 0 }, all = 0;
   uint8_t *data = NULL;
   int status = flow_begin(&f, c, FLOW_SIZE, FLOW_IMPORT_AND_MAP);
   if (status != ITEST_PASS)
      return flow_end(&f, status);

   /* Pieces that tile the target: 0, 1, 3, 4096 + 7, near the end, and
    * its last byte. */
   const size_t n = f.e.target_size;
   const struct {
      size_t offset, size;
   } pieces[6] = {
      { 0, 1 }, { 1, 2 }, { 3, 4096 + 4 }, { 4096 + 7, n - 4096 - 7 - 13 }, { n - 13, 12 }, { n - 1, 1 },
   };
   data = malloc(n);
   if (!data) {
      ITEST_FAILF("out of memory");
      goto out;
   }

   for (unsigned i = 0; i < 6; i++) {
      unsigned long long offset = f.e.target_offset + pieces[i].offset;
      if (!ITEST_CU(itest_map(f.ext, offset, pieces[i].size, &ptrs[i])))
         goto out;
      /* Like CUDA's, mapped pointers keep the offset's alignment. */
      if (ptrs[i] % 256 != offset % 256)
         ITEST_FAILF("the mapping at offset %llu is at 0x%llx: alignment lost", offset,
                     (unsigned long long)ptrs[i]);
   }

   /* CUDA writes through each piece; Vulkan sees them all in place. */
   for (unsigned i = 0; i < 6; i++) {
      itest_pattern(data, pieces[i].size, 100 + i);
      flow_model_write(&f, pieces[i].offset, data, pieces[i].size);
      if (!ITEST_CU(cuMemcpyHtoD(ptrs[i], data, pieces[i].size)))
         goto out;
   }
   ITEST_CU(cuCtxSynchronize());
   itest_vk_check(&f.t, &f.e, f.model, "Vulkan reading what CUDA wrote through six mappings");
   itest_cu_check(f.map, f.tm, n, "the whole mapping after writes through the pieces");

   /* Vulkan writes everything; each piece reads its part. */
   itest_pattern(data, n, 110);
   flow_model_write(&f, 0, data, n);
   if (!itest_vk_write(&f.t, &f.e, f.e.target_offset, data, n))
      goto out;
   for (unsigned i = 0; i < 6; i++)
      itest_cu_check(ptrs[i], f.tm + pieces[i].offset, pieces[i].size, "a piece reading Vulkan's write");

   /* A mapping of the whole import, beyond the target buffer too. */
   if (!ITEST_CU(itest_map(f.ext, 0, f.e.allocation_size, &all)))
      goto out;
   itest_cu_check(all, f.model, f.e.model_size, "a mapping of the whole import");

out:
   for (unsigned i = 0; i < 6; i++) {
      if (ptrs[i])
         ITEST_CU(cuMemFree(ptrs[i]));
   }
   if (all)
      ITEST_CU(cuMemFree(all));
   free(data);
   return flow_end(&f, status);
}

/* ---- overlapping mappings ----------------------------------------------- */

static int
case_overlapping_mappings(const struct itest_case *c)
{
   struct flow f;
   CUdeviceptr b = 0, cm = 0;
   uint8_t *data = NULL;
   int status = flow_begin(&f, c, FLOW_SIZE, FLOW_IMPORT_AND_MAP);
   if (status != ITEST_PASS)
      return flow_end(&f, status);

   /* A is the whole target (f.map); B and C overlap it, not each other. */
   const size_t n = f.e.target_size;
   const size_t b_off = 4099, b_size = 65536;
   const size_t c_off = n / 2 + 1, c_size = n - c_off;
   data = malloc(n);
   if (!data) {
      ITEST_FAILF("out of memory");
      goto out;
   }
   if (!ITEST_CU(itest_map(f.ext, f.e.target_offset + b_off, b_size, &b)) ||
       !ITEST_CU(itest_map(f.ext, f.e.target_offset + c_off, c_size, &cm)))
      goto out;

   /* Write through B, read through A. */
   itest_pattern(data, b_size, 31);
   flow_model_write(&f, b_off, data, b_size);
   if (!ITEST_CU(cuMemcpyHtoD(b, data, b_size)))
      goto out;
   itest_cu_check(f.map, f.tm, n, "A after a write through B");

   /* Write through A across B's start, read through B. */
   memset(f.tm + 4000, 0x3c, 200);
   if (!ITEST_CU(cuMemsetD8(f.map + 4000, 0x3c, 200)))
      goto out;
   itest_cu_check(b, f.tm + b_off, b_size, "B after a fill through A");

   /* Copy from B into C, read through A and C. */
   memmove(f.tm + c_off + 10, f.tm + b_off + 20, 3000);
   if (!ITEST_CU(cuMemcpyDtoD(cm + 10, b + 20, 3000)))
      goto out;
   itest_cu_check(f.map, f.tm, n, "A after a copy from B into C");
   itest_cu_check(cm, f.tm + c_off, c_size, "C after a copy from B into C");

   ITEST_CU(cuCtxSynchronize());
   itest_vk_check(&f.t, &f.e, f.model, "Vulkan after writes through overlapping mappings");

out:
   if (b)
      ITEST_CU(cuMemFree(b));
   if (cm)
      ITEST_CU(cuMemFree(cm));
   free(data);
   return flow_end(&f, status);
}

/* ---- several imports of one allocation ---------------------------------- */

#define DUP_COUNT 5

static int
case_import_dups(const struct itest_case *c)
{
   struct flow f;
   CUexternalMemory ext[DUP_COUNT] = { 0 };
   CUdeviceptr m[DUP_COUNT] = { 0 };
   int fds[DUP_COUNT];
   uint8_t *data = NULL;
   int status = flow_begin(&f, c, FLOW_SIZE, FLOW_EXPORT);
   if (status != ITEST_PASS)
      return flow_end(&f, status);

   /* The exported fd, two dups, one received over a socket, and a second
    * export of the same memory.  Each import owns its own. */
   fds[0] = f.fd;
   fds[1] = dup(f.fd);
   fds[2] = fcntl(f.fd, F_DUPFD_CLOEXEC, 100);
   fds[3] = itest_pass_fd_to_self(f.fd);
   fds[4] = itest_export_fd(&f.t, &f.e);
   f.fd = -1;
   for (unsigned i = 1; i < DUP_COUNT; i++) {
      if (fds[i] < 0)
         ITEST_FAILF("cannot make fd copy %u", i);
   }

   const size_t n = f.e.target_size;
   for (unsigned i = 0; i < DUP_COUNT; i++) {
      if (fds[i] < 0)
         continue;
      if (!ITEST_CU(itest_import(fds[i], f.e.allocation_size,
                                 c->dedicated ? CUDA_EXTERNAL_MEMORY_DEDICATED : 0, &ext[i]))) {
         close(fds[i]);
         continue;
      }
      if (itest_fd_is_open(fds[i]))
         ITEST_FAILF("fd copy %u (%d) is still open after its import", i, fds[i]);
      ITEST_CU(itest_map(ext[i], f.e.target_offset, n, &m[i]));
   }
   for (unsigned i = 0; i < DUP_COUNT; i++) {
      if (!m[i])
         goto out;
   }
   data = malloc(n);
   if (!data) {
      ITEST_FAILF("out of memory");
      goto out;
   }

   /* Written through one import, read through the others. */
   itest_pattern(data, n, 41);
   flow_model_write(&f, 0, data, n);
   if (!ITEST_CU(cuMemcpyHtoD(m[0], data, n)))
      goto out;
   for (unsigned i = 1; i < DUP_COUNT; i++)
      itest_cu_check(m[i], f.tm, n, "an import reading another import's write");

   memset(f.tm + 777, 0x42, 3333);
   if (!ITEST_CU(cuMemsetD8(m[3] + 777, 0x42, 3333)))
      goto out;
   itest_cu_check(m[0], f.tm, n, "the first import reading the fourth's fill");

   /* Destroyed out of order.  Each mapping outlives its import's handle:
    * written through after the destroy, read through an import still
    * alive, then freed. */
   static const unsigned order[DUP_COUNT] = { 2, 0, 4, 3, 1 };
   for (unsigned k = 0; k < DUP_COUNT; k++) {
      unsigned i = order[k];
      CUdeviceptr reader = k + 1 < DUP_COUNT ? m[order[k + 1]] : m[i];
      ITEST_CU(cuDestroyExternalMemory(ext[i]));
      ext[i] = NULL;
      memset(f.tm + 100 * k, 0x50 + k, 64);
      ITEST_CU(cuMemsetD8(m[i] + 100 * k, (unsigned char)(0x50 + k), 64));
      itest_cu_check(reader, f.tm, n, "an import reading a write through a destroyed one's mapping");
      ITEST_CU(cuMemFree(m[i]));
      m[i] = 0;
   }
   ITEST_CU(cuCtxSynchronize());
   itest_vk_check(&f.t, &f.e, f.model, "Vulkan after writes through five imports");

out:
   for (unsigned i = 0; i < DUP_COUNT; i++) {
      if (m[i])
         ITEST_CU(cuMemFree(m[i]));
      if (ext[i])
         ITEST_CU(cuDestroyExternalMemory(ext[i]));
   }
   free(data);
   return flow_end(&f, status);
}

/* ---- images ------------------------------------------------------------- */

/*
 * A dedicated allocation of an image: the import re-creates the image
 * (layer on) and succeeds; Vulkan allows no buffer on memory dedicated to
 * an image, so cuvk refuses a mapped buffer with CUDA_ERROR_NOT_SUPPORTED.
 * Without the layer cuvk cannot tell this memory from a buffer's: it
 * imports it with a dedicated buffer (an import that differs from the
 * export, which no validation layer can see across two devices and which
 * lavapipe accepts), and the mapping shows the image's bytes.
 */
static int
case_dedicated_image(const struct itest_case *c)
{
   struct itest t;
   VkImage image = VK_NULL_HANDLE;
   VkDeviceMemory memory = VK_NULL_HANDLE;
   VkDeviceSize size = 0;
   CUexternalMemory ext = NULL;
   CUdeviceptr map = 0;
   uint8_t *model = NULL;
   int fd = -1;
   int status = ITEST_PASS;

   if (!itest_init(&t, c->name, true)) {
      status = ITEST_FAIL;
      goto out;
   }
   VkImageCreateInfo info = vkh_image_info_2d(VK_FORMAT_R8G8B8A8_UNORM, 128, 64, 1, 1,
                                              VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                              VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                              VK_IMAGE_USAGE_SAMPLED_BIT);
   VKH_CHECK_VK(vkh_create_image(&t.vk, &info, VKH_OPAQUE_FD, &image));
   uint32_t type = 0;
   VKH_CHECK_VK(vkh_allocate_for_image(&t.vk, image, true, VKH_OPAQUE_FD, &memory, &size, &type));
   if (!memory)
      goto out;
   VKH_CHECK_VK(vkBindImageMemory(t.vk.device, image, memory, 0));

   /* The image's memory holds a pattern the mapping can be checked with
    * (optimal tiling only rearranges texels; the bytes are the memory's). */
   model = malloc(size);
   if (!model) {
      ITEST_FAILF("out of memory");
      goto out;
   }
   itest_pattern(model, size, 51);
   bool host_visible = t.vk.memory_properties.memoryTypes[type].propertyFlags &
                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
   if (host_visible && !vkh_write(&t.vk, memory, 0, model, size))
      ITEST_FAILF("writing the image's memory failed");

   fd = itest_export_fd(&t, &(struct itest_export){ .memory = memory });
   if (fd < 0)
      goto out;
   if (!ITEST_CU(itest_import(fd, size, CUDA_EXTERNAL_MEMORY_DEDICATED, &ext)))
      goto out;
   if (itest_fd_is_open(fd))
      ITEST_FAILF("fd %d is still open after a successful import", fd);
   fd = -1;

   if (t.layer_on) {
      ITEST_CU_EXPECT(itest_map(ext, 0, size, &map), CUDA_ERROR_NOT_SUPPORTED);
      ITEST_CU_EXPECT(itest_map(ext, 256, 4096, &map), CUDA_ERROR_NOT_SUPPORTED);
      map = 0;
   } else if (ITEST_CU(itest_map(ext, 0, size, &map)) && host_visible) {
      itest_cu_check(map, model, size, "a buffer mapping of an image's memory (no layer)");
   }

out:
   if (map)
      ITEST_CU(cuMemFree(map));
   if (ext)
      ITEST_CU(cuDestroyExternalMemory(ext));
   if (fd >= 0)
      close(fd);
   if (image)
      vkDestroyImage(t.vk.device, image, NULL);
   if (memory)
      vkFreeMemory(t.vk.device, memory, NULL);
   free(model);
   return itest_status(status, itest_finish(&t));
}

/*
 * One allocation, not dedicated: an image bound at an offset, a buffer
 * further on, untouched bytes before, between and after.  CUDA maps the
 * buffer's part; everything else must stay as it was.
 */
static int
case_image_and_buffer(const struct itest_case *c)
{
   struct itest t;
   VkImage image = VK_NULL_HANDLE;
   VkBuffer buffer = VK_NULL_HANDLE;
   VkDeviceMemory memory = VK_NULL_HANDLE;
   CUexternalMemory ext = NULL;
   CUdeviceptr map = 0, all = 0;
   uint8_t *model = NULL, *data = NULL, *got = NULL;
   int fd = -1;
   int status = ITEST_PASS;
   const VkDeviceSize buf_size = 40000 + 12;

   if (!itest_init(&t, c->name, true)) {
      status = ITEST_FAIL;
      goto out;
   }
   VkImageCreateInfo info = vkh_image_info_2d(VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 1, 1,
                                              VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                              VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                              VK_IMAGE_USAGE_SAMPLED_BIT);
   VKH_CHECK_VK(vkh_create_image(&t.vk, &info, VKH_OPAQUE_FD, &image));
   VKH_CHECK_VK(vkh_create_buffer(&t.vk, buf_size, ITEST_BUFFER_USAGE, VKH_OPAQUE_FD, &buffer));
   if (!image || !buffer)
      goto out;

   VkMemoryRequirements img_req, buf_req;
   vkGetImageMemoryRequirements(t.vk.device, image, &img_req);
   vkGetBufferMemoryRequirements(t.vk.device, buffer, &buf_req);
   const VkDeviceSize img_off = ITEST_ALIGN(8192 + 512, img_req.alignment);
   const VkDeviceSize buf_off = ITEST_ALIGN(img_off + img_req.size + 1000, buf_req.alignment);
   const VkDeviceSize total = ITEST_ALIGN(buf_off + buf_req.size + 4096, 4096);
   int type = itest_memory_type(&t, img_req.memoryTypeBits & buf_req.memoryTypeBits,
                                ITEST_HOST_VISIBLE);
   if (type < 0) {
      status = itest_skip("no host-visible memory type takes both an image and a buffer");
      goto out;
   }
   VKH_CHECK_VK(vkh_allocate(&t.vk, total, (uint32_t)type, VKH_OPAQUE_FD, VK_NULL_HANDLE,
                             VK_NULL_HANDLE, &memory));
   if (!memory)
      goto out;

   model = malloc(total);
   data = malloc(buf_size);
   got = malloc(total);
   if (!model || !data || !got) {
      ITEST_FAILF("out of memory");
      goto out;
   }
   itest_pattern(model, total, 61);
   if (!vkh_write(&t.vk, memory, 0, model, total))
      ITEST_FAILF("writing the starting pattern failed");
   VKH_CHECK_VK(vkBindImageMemory(t.vk.device, image, memory, img_off));
   VKH_CHECK_VK(vkBindBufferMemory(t.vk.device, buffer, memory, buf_off));

   fd = itest_export_fd(&t, &(struct itest_export){ .memory = memory });
   if (fd < 0 || !ITEST_CU(itest_import(fd, total, 0, &ext)))
      goto out;
   fd = -1;
   if (!ITEST_CU(itest_map(ext, buf_off, buf_size, &map)))
      goto out;

   itest_pattern(data, buf_size, 62);
   if (c->variant == 0) {
      /* Vulkan writes the buffer; CUDA reads it and everything around. */
      struct itest_region region = { .offset = 0, .data = data, .size = buf_size };
      memcpy(model + buf_off, data, buf_size);
      if (!itest_vk_copy_into(&t, buffer, &region, 1))
         goto out;
      itest_cu_check(map, model + buf_off, buf_size, "CUDA reading the buffer's part");
      if (ITEST_CU(itest_map(ext, 0, total, &all)))
         itest_cu_check(all, model, total, "CUDA reading the whole allocation");
   } else {
      /* CUDA writes the buffer's part; Vulkan reads the whole allocation. */
      memcpy(model + buf_off + 1, data, buf_size - 2);
      itest_model_fill32(model + buf_off + 4096, 0x600dd00du, 1000);
      if (!ITEST_CU(cuMemcpyHtoD(map + 1, data, buf_size - 2)) ||
          !ITEST_CU(cuMemsetD32(map + 4096, 0x600dd00du, 1000)) || !ITEST_CU(cuCtxSynchronize()))
         goto out;
      if (!vkh_read(&t.vk, memory, 0, got, total))
         ITEST_FAILF("reading the memory through Vulkan failed");
      else
         itest_check_bytes(got, model, total, "Vulkan reading the allocation after CUDA's writes");
   }

out:
   if (all)
      ITEST_CU(cuMemFree(all));
   if (map)
      ITEST_CU(cuMemFree(map));
   if (ext)
      ITEST_CU(cuDestroyExternalMemory(ext));
   if (fd >= 0)
      close(fd);
   if (buffer)
      vkDestroyBuffer(t.vk.device, buffer, NULL);
   if (image)
      vkDestroyImage(t.vk.device, image, NULL);
   if (memory)
      vkFreeMemory(t.vk.device, memory, NULL);
   free(model);
   free(data);
   free(got);
   return itest_status(status, itest_finish(&t));
}

/* ---- registration ------------------------------------------------------- */

void
itest_register_flow_cases(void)
{
   static const char *const vulkan_writers[] = {
      [VULKAN_MAP_WRITE] = "map_write",
      [VULKAN_COPY_BUFFER] = "copy_buffer",
      [VULKAN_FILL_BUFFER] = "fill_buffer",
   };
   static const char *const cuda_writers[] = {
      [CUDA_MEMCPY_HTOD] = "memcpy_htod",
      [CUDA_MEMCPY_DTOD] = "memcpy_dtod",
      [CUDA_MEMSET_D8] = "memset_d8",
      [CUDA_MEMSET_D16] = "memset_d16",
      [CUDA_MEMSET_D32] = "memset_d32",
      [CUDA_ASYNC_STREAM] = "async_stream",
   };
   char suffix[96];

   for (int i = 0; i < (int)(sizeof(vulkan_writers) / sizeof(vulkan_writers[0])); i++) {
      snprintf(suffix, sizeof(suffix), "cuda_reads_vulkan.%s", vulkan_writers[i]);
      itest_add_buffer_cases(suffix, case_cuda_reads_vulkan, NULL, i, true, i == VULKAN_MAP_WRITE);
   }
   for (int i = 0; i < (int)(sizeof(cuda_writers) / sizeof(cuda_writers[0])); i++) {
      snprintf(suffix, sizeof(suffix), "vulkan_reads_cuda.%s", cuda_writers[i]);
      itest_add_buffer_cases(suffix, case_vulkan_reads_cuda, NULL, i, true, false);
   }
   itest_add_buffer_cases("map_offsets", case_map_offsets, NULL, 0, true, false);
   itest_add_buffer_cases("overlapping_mappings", case_overlapping_mappings, NULL, 0, true, false);
   itest_add_buffer_cases("import_dups", case_import_dups, NULL, 0, true, false);

   /* cuvk-specific: real CUDA maps image memory as a buffer. */
   itest_add_case(&(struct itest_case){
      .name = "external_memory.opaque_fd.dedicated.image.mapped_buffer_not_supported",
      .run = case_dedicated_image,
      .dedicated = true,
   });
   itest_add_case(&(struct itest_case){
      .name = "external_memory.opaque_fd.suballocated.image_and_buffer.host_visible.cuda_reads_vulkan",
      .run = case_image_and_buffer,
      .variant = 0,
      .portable = true,
   });
   itest_add_case(&(struct itest_case){
      .name = "external_memory.opaque_fd.suballocated.image_and_buffer.host_visible.vulkan_reads_cuda",
      .run = case_image_and_buffer,
      .variant = 1,
      .portable = true,
   });
}
