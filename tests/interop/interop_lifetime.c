/*
 * Who lets go first: the exporter before CUDA, the import handle before
 * its mappings and after; an fd crossing into another process; fds not
 * leaking over many cycles; the layer stacked with validation both ways.
 */
#include "interop_flow.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- lifetimes ---------------------------------------------------------- */

enum lifetime_variant {
   EXPORTER_FREES_FIRST,
   EXPORTER_FREES_BEFORE_IMPORT,
   DESTROY_BEFORE_FREE,
   FREE_BEFORE_DESTROY,
   CONTEXT_RELEASED_FIRST,
};

/* After the import and mapping, the exporter destroys its buffers and
 * frees the memory: the import keeps the payload alive. */
static int
case_exporter_frees_first(const struct itest_case *c)
{
   struct flow f;
   CUdeviceptr later = 0;
   int status = flow_begin(&f, c, FLOW_SIZE, FLOW_IMPORT_AND_MAP);
   if (status != ITEST_PASS)
      return flow_end(&f, status);
   const size_t n = f.e.target_size;

   itest_export_destroy(&f.t, &f.e);
   itest_cu_check(f.map, f.tm, n, "CUDA reading after the exporter freed the memory");

   itest_model_fill32(f.tm + 4, 0x77777777u, 100);
   if (!ITEST_CU(cuMemsetD32(f.map + 4, 0x77777777u, 100)))
      goto out;
   itest_cu_check(f.map, f.tm, n, "CUDA writing after the exporter freed the memory");

   /* New mappings still work. */
   if (ITEST_CU(itest_map(f.ext, f.e.target_offset + 1, 1000, &later)))
      itest_cu_check(later, f.tm + 1, 1000, "a mapping made after the exporter freed the memory");

out:
   if (later)
      ITEST_CU(cuMemFree(later));
   return flow_end(&f, status);
}

/* The exporter frees the memory and keeps only the fd, which holds the
 * payload; with the layer on, its record went with vkFreeMemory, so this
 * is the layer-less import either way. */
static int
case_exporter_frees_before_import(const struct itest_case *c)
{
   struct flow f;
   int status = flow_begin(&f, c, FLOW_SIZE, FLOW_EXPORT);
   if (status != ITEST_PASS)
      return flow_end(&f, status);
   const size_t n = f.e.target_size;

   itest_export_destroy(&f.t, &f.e);
   int fd = f.fd;
   if (!ITEST_CU(itest_import(fd, f.e.allocation_size,
                              c->dedicated ? CUDA_EXTERNAL_MEMORY_DEDICATED : 0, &f.ext)))
      goto out;
   f.fd = -1;
   if (itest_fd_is_open(fd))
      ITEST_FAILF("fd %d is still open after a successful import", fd);
   if (!ITEST_CU(itest_map(f.ext, f.e.target_offset, n, &f.map)))
      goto out;
   itest_cu_check(f.map, f.tm, n, "CUDA reading memory the exporter freed before the import");
   memset(f.tm + 9, 0x99, 999);
   if (ITEST_CU(cuMemsetD8(f.map + 9, 0x99, 999)))
      itest_cu_check(f.map, f.tm, n, "CUDA writing memory the exporter freed before the import");

out:
   return flow_end(&f, status);
}

/* cuDestroyExternalMemory with live mappings: they stay valid until
 * cuMemFree, as in CUDA. */
static int
case_destroy_before_free(const struct itest_case *c)
{
   struct flow f;
   CUdeviceptr part = 0;
   uint8_t data[10000];
   int status = flow_begin(&f, c, FLOW_SIZE, FLOW_IMPORT_AND_MAP);
   if (status != ITEST_PASS)
      return flow_end(&f, status);
   const size_t n = f.e.target_size;

   if (!ITEST_CU(itest_map(f.ext, f.e.target_offset + 100, 5000, &part)))
      goto out;
   if (!ITEST_CU(cuDestroyExternalMemory(f.ext)))
      goto out;
   f.ext = NULL;

   itest_pattern(data, sizeof(data), 81);
   flow_model_write(&f, 50, data, sizeof(data));
   if (!ITEST_CU(cuMemcpyHtoD(f.map + 50, data, sizeof(data))))
      goto out;
   itest_cu_check(part, f.tm + 100, 5000, "a mapping of a destroyed import");
   itest_cu_check(f.map, f.tm, n, "another mapping of a destroyed import");
   ITEST_CU(cuCtxSynchronize());
   itest_vk_check(&f.t, &f.e, f.model, "Vulkan after writes through a destroyed import's mapping");

   /* Freeing one mapping leaves the other working. */
   ITEST_CU(cuMemFree(part));
   part = 0;
   memset(f.tm + n - 300, 0x1d, 299);
   if (ITEST_CU(cuMemsetD8(f.map + n - 300, 0x1d, 299)) && ITEST_CU(cuCtxSynchronize())) {
      itest_cu_check(f.map, f.tm, n, "the last mapping of a destroyed import");
      itest_vk_check(&f.t, &f.e, f.model, "Vulkan after the last mapping's write");
   }

out:
   if (part)
      ITEST_CU(cuMemFree(part));
   return flow_end(&f, status);
}

/* cuMemFree of every mapping first, then new mappings, then the destroy. */
static int
case_free_before_destroy(const struct itest_case *c)
{
   struct flow f;
   CUdeviceptr part = 0, again = 0;
   uint8_t data[1000];
   int status = flow_begin(&f, c, FLOW_SIZE, FLOW_IMPORT_AND_MAP);
   if (status != ITEST_PASS)
      return flow_end(&f, status);
   const size_t n = f.e.target_size;

   if (!ITEST_CU(itest_map(f.ext, f.e.target_offset + 3, sizeof(data), &part)))
      goto out;
   ITEST_CU(cuMemFree(f.map));
   f.map = 0;

   itest_pattern(data, sizeof(data), 91);
   flow_model_write(&f, 3, data, sizeof(data));
   if (!ITEST_CU(cuMemcpyHtoD(part, data, sizeof(data))))
      goto out;
   itest_cu_check(part, f.tm + 3, sizeof(data), "a mapping after another one was freed");
   ITEST_CU(cuMemFree(part));
   part = 0;

   /* No mapping left; the handle still maps. */
   if (!ITEST_CU(itest_map(f.ext, f.e.target_offset, n, &again)))
      goto out;
   itest_cu_check(again, f.tm, n, "a new mapping after all were freed");
   ITEST_CU(cuMemFree(again));
   again = 0;
   ITEST_CU(cuCtxSynchronize());
   itest_vk_check(&f.t, &f.e, f.model, "Vulkan after the mappings were freed");

out:
   if (part)
      ITEST_CU(cuMemFree(part));
   if (again)
      ITEST_CU(cuMemFree(again));
   return flow_end(&f, status);
}

/* The context goes (its primary context's last release) with the import
 * and mapping still live: as in CUDA, they go with it, the exporter's
 * memory keeps what CUDA wrote, and a new context imports it again. */
static int
case_context_released_first(const struct itest_case *c)
{
   struct flow f;
   CUexternalMemory ext = NULL;
   CUdeviceptr map = 0;
   int status = flow_begin(&f, c, FLOW_SIZE, FLOW_IMPORT_AND_MAP);
   if (status != ITEST_PASS)
      return flow_end(&f, status);
   const size_t n = f.e.target_size;

   memset(f.tm + 10, 0xab, 1000);
   if (!ITEST_CU(cuMemsetD8(f.map + 10, 0xab, 1000)) || !ITEST_CU(cuCtxSynchronize()))
      goto out;
   ITEST_CU(cuCtxSetCurrent(NULL));
   ITEST_CU(cuDevicePrimaryCtxRelease(f.t.cu_device));
   f.t.have_cuda = false;
   f.map = 0;
   f.ext = NULL;
   itest_vk_check(&f.t, &f.e, f.model, "Vulkan after the context went with the import");

   if (!ITEST_CU(cuDevicePrimaryCtxRetain(&f.t.cu_context, f.t.cu_device)))
      goto out;
   f.t.have_cuda = true;
   if (!ITEST_CU(cuCtxSetCurrent(f.t.cu_context)))
      goto out;
   int fd = itest_export_fd(&f.t, &f.e);
   if (fd < 0)
      goto out;
   if (!ITEST_CU(itest_import(fd, f.e.allocation_size,
                              c->dedicated ? CUDA_EXTERNAL_MEMORY_DEDICATED : 0, &ext))) {
      close(fd);
      goto out;
   }
   if (ITEST_CU(itest_map(ext, f.e.target_offset, n, &map)))
      itest_cu_check(map, f.tm, n, "a new context importing the memory again");

out:
   if (map)
      ITEST_CU(cuMemFree(map));
   if (ext)
      ITEST_CU(cuDestroyExternalMemory(ext));
   return flow_end(&f, status);
}

static int
case_lifetime(const struct itest_case *c)
{
   switch (c->variant) {
   case EXPORTER_FREES_FIRST:
      return case_exporter_frees_first(c);
   case EXPORTER_FREES_BEFORE_IMPORT:
      return case_exporter_frees_before_import(c);
   case DESTROY_BEFORE_FREE:
      return case_destroy_before_free(c);
   case FREE_BEFORE_DESTROY:
      return case_free_before_destroy(c);
   case CONTEXT_RELEASED_FIRST:
      return case_context_released_first(c);
   }
   return ITEST_FAIL;
}

/* ---- an fd sent to another process -------------------------------------- */

/* What the parent sends along with the fd. */
struct socket_msg {
   uint8_t device_uuid[VK_UUID_SIZE];
   uint64_t allocation_size;
   uint64_t target_offset;
   uint64_t target_size;
   uint64_t model_size;
   uint32_t dedicated;
};

/* The child's writes, applied to a model of the target's bytes: a
 * cuMemsetD32 over the first half, a pattern over most of the second. */
#define SOCKET_FILL 0x13579bdfu
static size_t
socket_fill_count(size_t n)
{
   return n / 8;
}

static void
socket_child_writes(uint8_t *tm, size_t n, uint8_t *data)
{
   itest_model_fill32(tm, SOCKET_FILL, socket_fill_count(n));
   itest_pattern(data, n / 2 - 8, 71);
   memcpy(tm + n / 2 + 4, data, n / 2 - 8);
}

/*
 * The child, started by exec with nothing of the parent's Vulkan or CUDA:
 * receives the fd, imports it (no layer record exists in this process, so
 * cuvk takes its layer-less path), checks it reads the parent's starting
 * pattern, writes its own, and reports.
 */
static int
child_send_over_socket(const struct itest_case *c, int sock)
{
   struct socket_msg msg;
   CUdevice dev = -1;
   CUcontext ctx = NULL;
   CUexternalMemory ext = NULL;
   CUdeviceptr map = 0;
   uint8_t *model = NULL, *data = NULL;
   char result = 'F';

   int fd = itest_recv_fd(sock, &msg, sizeof(msg));
   if (fd < 0) {
      /* The parent closed the socket without sending: it skipped or
       * failed, and says so itself. */
      fprintf(stderr, "child: the parent sent no fd\n");
      close(sock);
      return ITEST_SKIP;
   }

   int count = 0;
   if (!ITEST_CU(cuInit(0)) || !ITEST_CU(cuDeviceGetCount(&count)))
      goto out;
   for (int i = 0; i < count && dev < 0; i++) {
      CUdevice d;
      CUuuid uuid;
      if (ITEST_CU(cuDeviceGet(&d, i)) && ITEST_CU(cuDeviceGetUuid(&uuid, d)) &&
          memcmp(uuid.bytes, msg.device_uuid, VK_UUID_SIZE) == 0)
         dev = d;
   }
   if (dev < 0) {
      ITEST_FAILF("child: no CUDA device has the parent's deviceUUID");
      goto out;
   }
   if (!ITEST_CU(cuDevicePrimaryCtxRetain(&ctx, dev)) || !ITEST_CU(cuCtxSetCurrent(ctx)))
      goto out;

   if (!ITEST_CU(itest_import(fd, msg.allocation_size,
                              msg.dedicated ? CUDA_EXTERNAL_MEMORY_DEDICATED : 0, &ext)))
      goto out;
   if (itest_fd_is_open(fd))
      ITEST_FAILF("child: fd %d is still open after a successful import", fd);
   fd = -1;
   const size_t n = msg.target_size;
   if (!ITEST_CU(itest_map(ext, msg.target_offset, n, &map)))
      goto out;

   model = malloc(msg.model_size);
   data = malloc(n);
   if (!model || !data) {
      ITEST_FAILF("child: out of memory");
      goto out;
   }
   itest_pattern(model, msg.model_size, 1);
   uint8_t *tm = model + msg.target_offset;
   itest_cu_check(map, tm, n, "child: reading the parent's pattern");

   socket_child_writes(tm, n, data);
   if (ITEST_CU(cuMemsetD32(map, SOCKET_FILL, socket_fill_count(n))) &&
       ITEST_CU(cuMemcpyHtoD(map + n / 2 + 4, data, n / 2 - 8)) && ITEST_CU(cuCtxSynchronize()))
      itest_cu_check(map, tm, n, "child: reading back its own writes");

out:
   if (map)
      ITEST_CU(cuMemFree(map));
   if (ext)
      ITEST_CU(cuDestroyExternalMemory(ext));
   if (ctx) {
      ITEST_CU(cuCtxSynchronize());
      ITEST_CU(cuDevicePrimaryCtxRelease(dev));
   }
   if (fd >= 0)
      close(fd);
   free(model);
   free(data);
   if (!vkh_failure_count())
      result = 'K';
   if (send(sock, &result, 1, MSG_NOSIGNAL) != 1)
      ITEST_FAILF("child: cannot report to the parent");
   close(sock);
   return vkh_failure_count() ? ITEST_FAIL : ITEST_PASS;
}

static int
case_send_over_socket(const struct itest_case *c)
{
   struct flow f;
   int sv[2];
   char sock_arg[16];

   /* The child starts before this process touches Vulkan or CUDA, and
    * re-executes this program, so it inherits neither. */
   if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
      ITEST_FAILF("socketpair: %s", strerror(errno));
      return ITEST_FAIL;
   }
   pid_t pid = fork();
   if (pid < 0) {
      ITEST_FAILF("fork: %s", strerror(errno));
      close(sv[0]);
      close(sv[1]);
      return ITEST_FAIL;
   }
   if (pid == 0) {
      /* dup() clears FD_CLOEXEC: this copy survives the exec. */
      int child_sock = dup(sv[1]);
      snprintf(sock_arg, sizeof(sock_arg), "%d", child_sock);
      execl(itest_self_path, itest_self_path, "--child", c->name, sock_arg, (char *)NULL);
      _exit(127);
   }
   close(sv[1]);

   int status = flow_begin(&f, c, FLOW_SIZE, FLOW_EXPORT);
   if (status != ITEST_PASS)
      goto out;

   struct socket_msg msg = {
      .allocation_size = f.e.allocation_size,
      .target_offset = f.e.target_offset,
      .target_size = f.e.target_size,
      .model_size = f.e.model_size,
      .dedicated = c->dedicated,
   };
   memcpy(msg.device_uuid, f.t.vk.device_uuid, VK_UUID_SIZE);
   if (!itest_send_fd(sv[0], f.fd, &msg, sizeof(msg))) {
      ITEST_FAILF("sending the fd: %s", strerror(errno));
      goto out;
   }
   /* The child holds the payload now through its own copy. */
   close(f.fd);
   f.fd = -1;

   char result = 0;
   ssize_t got;
   do {
      got = recv(sv[0], &result, 1, 0);
   } while (got < 0 && errno == EINTR);
   if (got != 1 || result != 'K')
      ITEST_FAILF("the child reported %s", got == 1 ? "a failure" : "nothing");

   uint8_t *data = malloc(f.e.target_size);
   if (data) {
      socket_child_writes(f.tm, f.e.target_size, data);
      free(data);
      itest_vk_check(&f.t, &f.e, f.model, "the parent reading the child's writes through Vulkan");
   }

out:
   close(sv[0]);
   int wstatus = 0;
   if (waitpid(pid, &wstatus, 0) != pid)
      ITEST_FAILF("waitpid: %s", strerror(errno));
   else if (status == ITEST_PASS && (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0))
      ITEST_FAILF("the child ended with %s %d", WIFEXITED(wstatus) ? "status" : "signal",
                  WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : WTERMSIG(wstatus));
   return flow_end(&f, status);
}

/* ---- fd hygiene --------------------------------------------------------- */

#define HYGIENE_WARMUP 2
#define HYGIENE_CYCLES 200

/* One export, import, map, use, free, destroy and free again. */
static bool
hygiene_cycle(struct itest *t, unsigned i)
{
   struct itest_export e;
   CUexternalMemory ext = NULL;
   CUdeviceptr map = 0;
   uint8_t want[16], got[16];
   bool dedicated = i % 2 == 0;
   bool ok = false;

   if (itest_export_create(t, 65536, dedicated, ITEST_HOST_VISIBLE, &e) != VK_SUCCESS)
      return false;
   int fd = itest_export_fd(t, &e);
   if (fd < 0)
      goto out;
   if (!ITEST_CU(itest_import(fd, e.allocation_size, dedicated ? CUDA_EXTERNAL_MEMORY_DEDICATED : 0,
                              &ext))) {
      close(fd);
      goto out;
   }
   if (!ITEST_CU(itest_map(ext, e.target_offset, e.target_size, &map)) ||
       !ITEST_CU(cuMemsetD8(map + i, (unsigned char)i, sizeof(want))) ||
       !ITEST_CU(cuMemcpyDtoH(got, map + i, sizeof(got))))
      goto out;
   memset(want, (unsigned char)i, sizeof(want));
   ok = itest_check_bytes(got, want, sizeof(got), "a fill read back");

out:
   if (map && !ITEST_CU(cuMemFree(map)))
      ok = false;
   if (ext && !ITEST_CU(cuDestroyExternalMemory(ext)))
      ok = false;
   itest_export_destroy(t, &e);
   return ok;
}

static int
case_fd_hygiene(const struct itest_case *c)
{
   struct itest t;
   int status = ITEST_PASS;
   int before = -1;

   if (!itest_init(&t, c->name, true))
      return itest_status(ITEST_FAIL, itest_finish(&t));

   /* The first rounds may open what lives as long as the context or the
    * driver (a pool, a cache): not a leak. */
   for (unsigned i = 0; i < HYGIENE_WARMUP + HYGIENE_CYCLES; i++) {
      if (i == HYGIENE_WARMUP) {
         ITEST_CU(cuCtxSynchronize());
         before = itest_count_fds();
      }
      if (!hygiene_cycle(&t, i)) {
         ITEST_FAILF("cycle %u failed; stopping", i);
         break;
      }
   }
   ITEST_CU(cuCtxSynchronize());
   int after = itest_count_fds();
   if (before < 0 || after != before)
      ITEST_FAILF("%d fds open before %d export/import cycles, %d after", before, HYGIENE_CYCLES,
                  after);
   else
      fprintf(stderr, "%d fds open before and after %d export/import cycles\n", before,
              HYGIENE_CYCLES);
   return itest_status(status, itest_finish(&t));
}

/* ---- registration ------------------------------------------------------- */

void
itest_register_lifetime_cases(void)
{
   static const char *const lifetimes[] = {
      [EXPORTER_FREES_FIRST] = "lifetime.exporter_frees_first",
      [EXPORTER_FREES_BEFORE_IMPORT] = "lifetime.exporter_frees_before_import",
      [DESTROY_BEFORE_FREE] = "lifetime.destroy_before_free",
      [FREE_BEFORE_DESTROY] = "lifetime.free_before_destroy",
      [CONTEXT_RELEASED_FIRST] = "lifetime.context_released_first",
   };
   for (int i = 0; i < (int)(sizeof(lifetimes) / sizeof(lifetimes[0])); i++)
      itest_add_buffer_cases(lifetimes[i], case_lifetime, NULL, i, true, false);
   itest_add_buffer_cases("send_over_socket", case_send_over_socket, child_send_over_socket, 0,
                          true, false);
   itest_add_case(&(struct itest_case){
      .name = "external_memory.opaque_fd.fd_hygiene",
      .run = case_fd_hygiene,
   });
}
