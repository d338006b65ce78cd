/*
 * Bad input, with the exact codes real CUDA returns (see "Real CUDA's
 * behaviour" in the design notes): never a crash, and a failed import
 * never takes the caller's fd.
 */
#include "interop_flow.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define BAD_SIZE 65536

enum bad_case {
   BAD_IMPORT_NULL_ARGUMENTS,
   BAD_IMPORT_UNKNOWN_HANDLE_TYPE,
   BAD_IMPORT_UNKNOWN_FLAGS,
   BAD_IMPORT_SIZE_ZERO,
   BAD_IMPORT_WINDOWS_HANDLE_TYPES,
   BAD_IMPORT_NVSCIBUF,
   BAD_IMPORT_DMABUF_FD,
   BAD_IMPORT_BAD_FDS,
   BAD_IMPORT_DECLARED_SIZE_LARGER,
   BAD_IMPORT_DECLARED_SIZE_SMALLER,
   BAD_MAP_NULL_ARGUMENTS,
   BAD_MAP_FLAGS,
   BAD_MAP_SIZE_ZERO,
   BAD_MAP_PAST_THE_END,
   BAD_MAP_OFFSET_OVERFLOW,
   BAD_DESTROY_NULL,
};

/* Imports with desc, expecting want; a failed import must leave the fd
 * it was given open.  An unexpected success is undone. */
static void
expect_import_(const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *desc, int owned_fd, CUresult want,
               const char *file, int line, const char *what)
{
   CUexternalMemory ext = NULL;
   CUresult got = cuImportExternalMemory(&ext, desc);

   itest_cu_expect_(file, line, what, got, want);
   if (got == CUDA_SUCCESS) {
      cuDestroyExternalMemory(ext);
      return;
   }
   if (owned_fd >= 0 && !itest_fd_is_open(owned_fd))
      itest_failf(file, line, "%s: the failed import closed fd %d", what, owned_fd);
}
#define expect_import(desc, fd, want, what) \
   expect_import_((desc), (fd), (want), __FILE__, __LINE__, (what))

static CUDA_EXTERNAL_MEMORY_HANDLE_DESC
opaque_fd_desc(int fd, unsigned long long size, unsigned flags)
{
   CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc;
   memset(&desc, 0, sizeof(desc));
   desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
   desc.handle.fd = fd;
   desc.size = size;
   desc.flags = flags;
   return desc;
}

/* After the failures, the untouched fd still imports, and is then gone. */
static void
good_import(struct flow *f)
{
   CUexternalMemory ext = NULL;
   CUdeviceptr map = 0;
   int fd = f->fd;

   if (!ITEST_CU(itest_import(fd, f->e.allocation_size, 0, &ext)))
      return;
   f->fd = -1;
   if (itest_fd_is_open(fd))
      ITEST_FAILF("fd %d is still open after a successful import", fd);
   if (ITEST_CU(itest_map(ext, f->e.target_offset, f->e.target_size, &map))) {
      itest_cu_check(map, f->tm, f->e.target_size, "a good import after the bad ones");
      ITEST_CU(cuMemFree(map));
   }
   ITEST_CU(cuDestroyExternalMemory(ext));
}

static int
bad_import(struct flow *f, const struct itest_case *c)
{
   const int fd = f->fd;
   const unsigned long long size = f->e.allocation_size;
   CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc = opaque_fd_desc(fd, size, 0);
   CUexternalMemory ext = NULL;

   switch (c->variant) {
   case BAD_IMPORT_NULL_ARGUMENTS:
      ITEST_CU_EXPECT(cuImportExternalMemory(NULL, &desc), CUDA_ERROR_INVALID_VALUE);
      ITEST_CU_EXPECT(cuImportExternalMemory(&ext, NULL), CUDA_ERROR_INVALID_VALUE);
      ITEST_CU_EXPECT(cuImportExternalMemory(NULL, NULL), CUDA_ERROR_INVALID_VALUE);
      if (!itest_fd_is_open(fd))
         ITEST_FAILF("an import with a NULL argument closed fd %d", fd);
      break;

   case BAD_IMPORT_UNKNOWN_HANDLE_TYPE: {
      static const int types[] = { 0, 10, 99, 0x7fffffff, -1 };
      for (unsigned i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
         char what[64];
         snprintf(what, sizeof(what), "an import of handle type %d", types[i]);
         desc.type = (CUexternalMemoryHandleType)types[i];
         expect_import(&desc, fd, CUDA_ERROR_INVALID_VALUE, what);
      }
      break;
   }

   case BAD_IMPORT_UNKNOWN_FLAGS: {
      static const unsigned flags[] = { 0x2, 0x4, 0x3, 0x100, 0x80000000u };
      for (unsigned i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
         char what[64];
         snprintf(what, sizeof(what), "an import with flags 0x%x", flags[i]);
         desc.flags = flags[i];
         expect_import(&desc, fd, CUDA_ERROR_INVALID_VALUE, what);
      }
      break;
   }

   case BAD_IMPORT_SIZE_ZERO:
      desc.size = 0;
      expect_import(&desc, fd, CUDA_ERROR_INVALID_VALUE, "an import of 0 bytes");
      desc.flags = CUDA_EXTERNAL_MEMORY_DEDICATED;
      expect_import(&desc, fd, CUDA_ERROR_INVALID_VALUE, "a dedicated import of 0 bytes");
      break;

   case BAD_IMPORT_WINDOWS_HANDLE_TYPES: {
      /* The fd sits where the union's win32.handle starts: a build that
       * took it for an fd would show in the fd check. */
      static const CUexternalMemoryHandleType types[] = {
         CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32,
         CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT,
         CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP,
         CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE,
         CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE,
         CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT,
      };
      for (unsigned i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
         char what[64];
         snprintf(what, sizeof(what), "an import of Windows handle type %d", (int)types[i]);
         desc.type = types[i];
         expect_import(&desc, fd, CUDA_ERROR_NOT_SUPPORTED, what);
      }
      break;
   }

   case BAD_IMPORT_NVSCIBUF: {
      static int not_an_nvscibuf;
      desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_NVSCIBUF;
      desc.handle.nvSciBufObject = &not_an_nvscibuf;
      expect_import(&desc, -1, CUDA_ERROR_NOT_SUPPORTED, "an NvSciBuf import");
      break;
   }

   case BAD_IMPORT_DMABUF_FD: {
      /* Only a device without dma-buf import refuses the type itself. */
      uint32_t count = 0;
      bool dma_buf = false;
      vkEnumerateDeviceExtensionProperties(f->t.vk.physical_device, NULL, &count, NULL);
      VkExtensionProperties *exts = calloc(count ? count : 1, sizeof(*exts));
      if (exts &&
          vkEnumerateDeviceExtensionProperties(f->t.vk.physical_device, NULL, &count, exts) == VK_SUCCESS) {
         for (uint32_t i = 0; i < count; i++)
            dma_buf |= strcmp(exts[i].extensionName, VK_EXT_EXTERNAL_MEMORY_DMA_BUF_EXTENSION_NAME) == 0;
      }
      free(exts);
      if (dma_buf)
         return itest_skip("%s imports dma-bufs; this case checks the refusal of a device that does not",
                           f->t.vk.properties.deviceName);
      desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD;
      expect_import(&desc, fd, CUDA_ERROR_NOT_SUPPORTED, "a DMABUF_FD import without dma-buf support");
      break;
   }

   case BAD_IMPORT_BAD_FDS: {
      int closed = dup(fd);
      int pipe_fds[2] = { -1, -1 }, sock_fds[2] = { -1, -1 };
      close(closed);
      if (pipe(pipe_fds) != 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, sock_fds) != 0) {
         ITEST_FAILF("cannot make a pipe and a socket");
         break;
      }
      const struct {
         int fd;
         const char *what;
      } bad[] = {
         { -1, "an import of fd -1" },
         { closed, "an import of a closed fd" },
         { 1 << 20, "an import of fd 1<<20" },
         { pipe_fds[0], "an import of a pipe's read end" },
         { pipe_fds[1], "an import of a pipe's write end" },
         { sock_fds[0], "an import of a socket" },
      };
      for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
         for (unsigned flags = 0; flags <= CUDA_EXTERNAL_MEMORY_DEDICATED; flags++) {
            CUDA_EXTERNAL_MEMORY_HANDLE_DESC d = opaque_fd_desc(bad[i].fd, BAD_SIZE, flags);
            expect_import(&d, bad[i].fd == closed || bad[i].fd < 0 || bad[i].fd == 1 << 20 ? -1 : bad[i].fd,
                          CUDA_ERROR_INVALID_VALUE, bad[i].what);
         }
      }
      for (int i = 0; i < 2; i++) {
         close(pipe_fds[i]);
         close(sock_fds[i]);
      }
      break;
   }
   }

   good_import(f);
   return ITEST_PASS;
}

/* A declared size larger than the allocation: real CUDA imports it and
 * refuses mappings past the real end.  With the layer, cuvk knows the real
 * size and does the same. */
static int
bad_declared_size_larger(struct flow *f)
{
   CUexternalMemory ext = NULL;
   CUdeviceptr map = 0;
   const unsigned long long real = f->e.allocation_size;
   const int fd = f->fd;

   CUresult res = itest_import(fd, real + 65536, 0, &ext);
   if (!f->t.layer_on) {
      /* Without the record cuvk imports the declared size, which the
       * driver may refuse (lavapipe checks it against the memfd). */
      if (res == CUDA_SUCCESS) {
         f->fd = -1;
         if (ITEST_CU(itest_map(ext, 0, real, &map))) {
            itest_cu_check(map, f->model, f->e.model_size, "a mapping of the real size");
            ITEST_CU(cuMemFree(map));
         }
         ITEST_CU(cuDestroyExternalMemory(ext));
      } else {
         fprintf(stderr, "note: without the layer the import of a declared size larger than the "
                 "allocation fails (%d); real CUDA imports it\n", (int)res);
         if (!itest_fd_is_open(fd))
            ITEST_FAILF("the failed import closed fd %d", fd);
      }
      return ITEST_PASS;
   }

   if (!ITEST_CU(res))
      return ITEST_PASS;
   f->fd = -1;
   if (itest_fd_is_open(fd))
      ITEST_FAILF("fd %d is still open after a successful import", fd);
   if (ITEST_CU(itest_map(ext, 0, real, &map))) {
      itest_cu_check(map, f->model, f->e.model_size, "a mapping of the real size");
      ITEST_CU(cuMemFree(map));
   }
   map = 0;
   ITEST_CU_EXPECT(itest_map(ext, real - 1, 2, &map), CUDA_ERROR_INVALID_VALUE);
   ITEST_CU_EXPECT(itest_map(ext, real, 1, &map), CUDA_ERROR_INVALID_VALUE);
   ITEST_CU_EXPECT(itest_map(ext, 0, real + 65536, &map), CUDA_ERROR_INVALID_VALUE);
   ITEST_CU_EXPECT(itest_map(ext, real + 4096, 4096, &map), CUDA_ERROR_INVALID_VALUE);
   ITEST_CU(cuDestroyExternalMemory(ext));
   return ITEST_PASS;
}

/* A declared size smaller than the allocation (cuda-samples' simpleVulkan
 * declares its buffer's size): the import is that big, mappings past it
 * fail. */
static int
bad_declared_size_smaller(struct flow *f)
{
   CUexternalMemory ext = NULL;
   CUdeviceptr map = 0;
   const unsigned long long declared = f->e.allocation_size - 4096 - 100;

   if (!ITEST_CU(itest_import(f->fd, declared, 0, &ext)))
      return ITEST_PASS;
   f->fd = -1;
   if (ITEST_CU(itest_map(ext, 0, declared, &map))) {
      itest_cu_check(map, f->model, declared, "a mapping of the declared size");
      ITEST_CU(cuMemFree(map));
   }
   map = 0;
   ITEST_CU_EXPECT(itest_map(ext, declared - 1, 2, &map), CUDA_ERROR_INVALID_VALUE);
   ITEST_CU_EXPECT(itest_map(ext, 0, f->e.allocation_size, &map), CUDA_ERROR_INVALID_VALUE);
   ITEST_CU(cuDestroyExternalMemory(ext));
   return ITEST_PASS;
}

static int
bad_map(struct flow *f, const struct itest_case *c)
{
   CUexternalMemory ext = NULL;
   CUdeviceptr map = 0;
   const unsigned long long size = f->e.allocation_size;
   CUDA_EXTERNAL_MEMORY_BUFFER_DESC desc;

   if (!ITEST_CU(itest_import(f->fd, size, 0, &ext)))
      return ITEST_PASS;
   f->fd = -1;

   struct bad_range {
      unsigned long long offset, size;
      unsigned flags;
   };
   const struct bad_range flags[] = {
      { 0, 4096, 1 }, { 0, 4096, 2 }, { 0, 4096, 0x80000000u },
   };
   const struct bad_range size_zero[] = {
      { 0, 0, 0 }, { 4096, 0, 0 }, { size, 0, 0 },
   };
   const struct bad_range past_the_end[] = {
      { size - 1, 2, 0 }, { size, 1, 0 }, { 0, size + 1, 0 }, { size + 4096, 4096, 0 },
   };
   /* Ranges whose end wraps around 2^64 into the import. */
   const struct bad_range overflow[] = {
      { UINT64_MAX, 1, 0 },
      { UINT64_MAX - 7, 16, 0 },
      { 1, UINT64_MAX, 0 },
      { 16, UINT64_MAX - 15, 0 },
      { UINT64_MAX, UINT64_MAX, 0 },
   };
   const struct bad_range *bad = NULL;
   unsigned count = 0;

#define BAD_RANGES(array) \
   do {                   \
      bad = (array);      \
      count = sizeof(array) / sizeof((array)[0]); \
   } while (0)
   switch (c->variant) {
   case BAD_MAP_NULL_ARGUMENTS:
      memset(&desc, 0, sizeof(desc));
      desc.size = 4096;
      ITEST_CU_EXPECT(cuExternalMemoryGetMappedBuffer(NULL, ext, &desc), CUDA_ERROR_INVALID_VALUE);
      ITEST_CU_EXPECT(cuExternalMemoryGetMappedBuffer(&map, NULL, &desc), CUDA_ERROR_INVALID_VALUE);
      ITEST_CU_EXPECT(cuExternalMemoryGetMappedBuffer(&map, ext, NULL), CUDA_ERROR_INVALID_VALUE);
      break;
   case BAD_MAP_FLAGS:
      BAD_RANGES(flags);
      break;
   case BAD_MAP_SIZE_ZERO:
      BAD_RANGES(size_zero);
      break;
   case BAD_MAP_PAST_THE_END:
      BAD_RANGES(past_the_end);
      break;
   default:
      BAD_RANGES(overflow);
      break;
   }
#undef BAD_RANGES
   for (unsigned i = 0; i < count; i++) {
      memset(&desc, 0, sizeof(desc));
      desc.offset = bad[i].offset;
      desc.size = bad[i].size;
      desc.flags = bad[i].flags;
      map = 0;
      CUresult got = cuExternalMemoryGetMappedBuffer(&map, ext, &desc);
      if (!itest_cu_expect_(__FILE__, __LINE__, "cuExternalMemoryGetMappedBuffer", got,
                            CUDA_ERROR_INVALID_VALUE))
         fprintf(stderr, "   (offset %llu, size %llu, flags 0x%x, import of %llu bytes)\n",
                 bad[i].offset, bad[i].size, bad[i].flags, size);
      if (got == CUDA_SUCCESS)
         cuMemFree(map);
   }

   /* The handle is none the worse. */
   map = 0;
   if (ITEST_CU(itest_map(ext, f->e.target_offset, f->e.target_size, &map))) {
      itest_cu_check(map, f->tm, f->e.target_size, "a good mapping after the bad ones");
      ITEST_CU(cuMemFree(map));
   }
   ITEST_CU(cuDestroyExternalMemory(ext));
   return ITEST_PASS;
}

static int
case_bad(const struct itest_case *c)
{
   struct flow f;

   if (c->variant == BAD_DESTROY_NULL) {
      struct itest t;
      if (itest_init(&t, c->name, true))
         ITEST_CU_EXPECT(cuDestroyExternalMemory(NULL), CUDA_ERROR_INVALID_VALUE);
      return itest_status(ITEST_PASS, itest_finish(&t));
   }

   int status = flow_begin(&f, c, BAD_SIZE, FLOW_EXPORT);
   if (status != ITEST_PASS)
      return flow_end(&f, status);
   switch (c->variant) {
   case BAD_IMPORT_DECLARED_SIZE_LARGER:
      status = bad_declared_size_larger(&f);
      break;
   case BAD_IMPORT_DECLARED_SIZE_SMALLER:
      status = bad_declared_size_smaller(&f);
      break;
   case BAD_MAP_NULL_ARGUMENTS:
   case BAD_MAP_FLAGS:
   case BAD_MAP_SIZE_ZERO:
   case BAD_MAP_PAST_THE_END:
   case BAD_MAP_OFFSET_OVERFLOW:
      status = bad_map(&f, c);
      break;
   default:
      status = bad_import(&f, c);
      break;
   }
   return flow_end(&f, status);
}

void
itest_register_invalid_cases(void)
{
   static const char *const names[] = {
      [BAD_IMPORT_NULL_ARGUMENTS] = "import.null_arguments",
      [BAD_IMPORT_UNKNOWN_HANDLE_TYPE] = "import.unknown_handle_type",
      [BAD_IMPORT_UNKNOWN_FLAGS] = "import.unknown_flags",
      [BAD_IMPORT_SIZE_ZERO] = "import.size_zero",
      [BAD_IMPORT_WINDOWS_HANDLE_TYPES] = "import.windows_handle_types",
      [BAD_IMPORT_NVSCIBUF] = "import.nvscibuf",
      [BAD_IMPORT_DMABUF_FD] = "import.dmabuf_fd",
      [BAD_IMPORT_BAD_FDS] = "import.bad_fds",
      [BAD_IMPORT_DECLARED_SIZE_LARGER] = "import.declared_size_larger",
      [BAD_IMPORT_DECLARED_SIZE_SMALLER] = "import.declared_size_smaller",
      [BAD_MAP_NULL_ARGUMENTS] = "map.null_arguments",
      [BAD_MAP_FLAGS] = "map.flags",
      [BAD_MAP_SIZE_ZERO] = "map.size_zero",
      [BAD_MAP_PAST_THE_END] = "map.past_the_end",
      [BAD_MAP_OFFSET_OVERFLOW] = "map.offset_overflow",
      [BAD_DESTROY_NULL] = "destroy.null",
   };
   for (int i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++) {
      struct itest_case c = {
         .run = case_bad,
         .variant = i,
         /* Non-dedicated memory: the target sits at an offset, and a
          * declared size can exceed the allocation. */
         .dedicated = false,
         .memory = ITEST_HOST_VISIBLE,
         .portable = true,
      };
      snprintf(c.name, sizeof(c.name), "external_memory.invalid.%s", names[i]);
      itest_add_case(&c);
   }
}
