/*
 * External semaphores and host functions through cuvk's driver API.
 *
 * The exporting side here is an xsem (src/util/xsem.h) the test makes
 * itself: the semaphore VK_LAYER_CUVK_interop hands an application on a
 * driver without exportable semaphores, with the host playing the
 * application's queue (cuvk_xsem_signal where the queue would signal,
 * cuvk_xsem_wait where it would wait).  What CUDA does in between is
 * checked through pinned host memory, which the host reads the moment it
 * sees a signal, with no CUDA synchronisation: a signal that came before
 * the work it follows shows as old bytes.  The work is a fill of many
 * megabytes, long enough on lavapipe for that to be seen.
 */
#include "api_test.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/stat.h>

#include "util/xsem.h"

/* Big enough that a fill takes milliseconds on lavapipe. */
#define SEM_FILL_SIZE (32u << 20)
#define SEM_TIMEOUT_NS 20000000000ull

static int
sem_fd(enum cuvk_xsem_type type, uint64_t initial, struct cuvk_xsem **out)
{
   API_REQUIRE(cuvk_xsem_create(type, initial, out) == 0);
   int fd = cuvk_xsem_export_fd(*out);
   API_REQUIRE(fd >= 0);
   return fd;
}

static CUexternalSemaphore
sem_import(enum cuvk_xsem_type type, struct cuvk_xsem **out)
{
   CUexternalSemaphore sem = NULL;
   CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC desc = {
      .type = type == CUVK_XSEM_TIMELINE ? CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD
                                         : CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD,
   };
   desc.handle.fd = sem_fd(type, 0, out);
   struct stat given, now;
   API_REQUIRE(fstat(desc.handle.fd, &given) == 0);
   API_REQUIRE_CU(cuImportExternalSemaphore(&sem, &desc));
   /* A successful import owns the fd and has closed it.  Another thread
    * (destroy_use_race's, a driver's) may have been given the same number
    * since, for a file of its own: only the same file still there is
    * wrong. */
   bool same_file = fstat(desc.handle.fd, &now) == 0 && now.st_dev == given.st_dev && now.st_ino == given.st_ino;
   API_CHECK_MSG(!same_file, "fd %d was left open by a successful import", desc.handle.fd);
   return sem;
}

static CUresult
sem_signal(CUexternalSemaphore sem, uint64_t value, CUstream stream)
{
   CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS p;
   memset(&p, 0, sizeof(p));
   p.params.fence.value = value;
   return cuSignalExternalSemaphoresAsync(&sem, &p, 1, stream);
}

static CUresult
sem_wait(CUexternalSemaphore sem, uint64_t value, CUstream stream)
{
   CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS p;
   memset(&p, 0, sizeof(p));
   p.params.fence.value = value;
   return cuWaitExternalSemaphoresAsync(&sem, &p, 1, stream);
}

static bool
sem_all_bytes(const uint8_t *p, size_t n, uint8_t v)
{
   for (size_t i = 0; i < n; i += 4096)
      if (p[i] != v)
         return false;
   return p[n - 1] == v;
}

/* ---- bad input ------------------------------------------------------------ */

static void
invalid_import_arguments(void)
{
   struct cuvk_xsem *x;
   CUexternalSemaphore sem = NULL;
   CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC desc = { .type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD };
   desc.handle.fd = sem_fd(CUVK_XSEM_BINARY, 0, &x);

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(NULL, &desc));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(&sem, NULL));
   desc.type = 0;
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(&sem, &desc));
   desc.type = 99;
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(&sem, &desc));
   desc.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
   desc.flags = 1;
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(&sem, &desc));
   desc.flags = 0;

   static const CUexternalSemaphoreHandleType unsupported[] = {
      CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32,
      CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT,
      CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE,
      CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_FENCE,
      CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_NVSCISYNC,
      CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX,
      CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX_KMT,
      CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_WIN32,
   };
   for (size_t i = 0; i < API_ARRAY_SIZE(unsupported); i++) {
      CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC w = { .type = unsupported[i] };
      API_CHECK_RES(CUDA_ERROR_NOT_SUPPORTED, cuImportExternalSemaphore(&sem, &w));
   }

   /* cuvk can tell a timeline xsem from a binary one and refuses the
    * mismatch (NVIDIA accepts it unchecked). */
   desc.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuImportExternalSemaphore(&sem, &desc));

   /* Every failure left the fd with the caller. */
   API_CHECK(fcntl(desc.handle.fd, F_GETFD) >= 0);
   close(desc.handle.fd);
   cuvk_xsem_destroy(x);
}

static void
invalid_import_bad_fds(void)
{
   CUexternalSemaphore sem = NULL;
   int pipe_fds[2];
   API_REQUIRE(pipe(pipe_fds) == 0);
   int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
   API_REQUIRE(null_fd >= 0);
   int file_fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
   API_REQUIRE(file_fd >= 0);
   int before = api_fd_count();

   const int fds[] = { -1, pipe_fds[0], pipe_fds[1], null_fd, file_fd };
   for (size_t i = 0; i < API_ARRAY_SIZE(fds); i++) {
      for (int t = 0; t < 2; t++) {
         CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC desc = {
            .type = t ? CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD
                      : CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD,
         };
         desc.handle.fd = fds[i];
         API_CHECK_RES(CUDA_ERROR_UNKNOWN, cuImportExternalSemaphore(&sem, &desc));
         if (fds[i] >= 0)
            API_CHECK_MSG(fcntl(fds[i], F_GETFD) >= 0, "fd %d was closed by a failed import", fds[i]);
      }
   }
   API_CHECK_MSG(api_fd_count() == before, "%d fds open, %d before", api_fd_count(), before);
   close(pipe_fds[0]);
   close(pipe_fds[1]);
   close(null_fd);
   close(file_fd);
}

static void
invalid_signal_wait(void)
{
   struct cuvk_xsem *x;
   CUexternalSemaphore sem = sem_import(CUVK_XSEM_TIMELINE, &x);
   CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp;
   CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp;
   memset(&sp, 0, sizeof(sp));
   memset(&wp, 0, sizeof(wp));
   sp.params.fence.value = 1;
   wp.params.fence.value = 1;

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuSignalExternalSemaphoresAsync(NULL, &sp, 1, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuSignalExternalSemaphoresAsync(&sem, NULL, 1, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuSignalExternalSemaphoresAsync(&sem, &sp, 0, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuWaitExternalSemaphoresAsync(NULL, &wp, 1, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuWaitExternalSemaphoresAsync(&sem, NULL, 1, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuWaitExternalSemaphoresAsync(&sem, &wp, 0, NULL));
   sp.flags = 1;
   wp.flags = 2;
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuSignalExternalSemaphoresAsync(&sem, &sp, 1, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuWaitExternalSemaphoresAsync(&sem, &wp, 1, NULL));
   sp.flags = 0;
   wp.flags = 0;

   /* A destroyed stream: real CUDA crashes; cuvk names the stream. */
   CUstream stream;
   API_REQUIRE_CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamDestroy(stream));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuSignalExternalSemaphoresAsync(&sem, &sp, 1, stream));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuWaitExternalSemaphoresAsync(&sem, &wp, 1, stream));

   /* Nothing was enqueued by the failures: the value is still free. */
   API_CHECK_CU(cuSignalExternalSemaphoresAsync(&sem, &sp, 1, NULL));
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK(cuvk_xsem_wait(x, 1, SEM_TIMEOUT_NS));

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDestroyExternalSemaphore(NULL));
   API_CHECK_CU(cuDestroyExternalSemaphore(sem));
   /* Destroyed: every call says so instead of crashing. */
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDestroyExternalSemaphore(sem));
   sp.params.fence.value = 2;
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuSignalExternalSemaphoresAsync(&sem, &sp, 1, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuWaitExternalSemaphoresAsync(&sem, &wp, 1, NULL));
   cuvk_xsem_destroy(x);
}

static void
invalid_timeline_backwards(void)
{
   struct cuvk_xsem *x;
   CUexternalSemaphore sem = sem_import(CUVK_XSEM_TIMELINE, &x);

   API_CHECK_CU(sem_signal(sem, 10, NULL));
   /* Enqueued 10: 4 and 10 would move the counter back or nowhere. */
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, sem_signal(sem, 4, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, sem_signal(sem, 10, NULL));
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK(cuvk_xsem_wait(x, 10, SEM_TIMEOUT_NS));
   /* Signalled by the other side meanwhile. */
   cuvk_xsem_signal(x, 20);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, sem_signal(sem, 15, NULL));

   /* In one call, one entry after another. */
   CUexternalSemaphore sems[2] = { sem, sem };
   CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS p[2];
   memset(p, 0, sizeof(p));
   p[0].params.fence.value = 30;
   p[1].params.fence.value = 30;
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuSignalExternalSemaphoresAsync(sems, p, 2, NULL));
   p[1].params.fence.value = 31;
   API_CHECK_CU(cuSignalExternalSemaphoresAsync(sems, p, 2, NULL));
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK(cuvk_xsem_wait(x, 31, SEM_TIMEOUT_NS));
   API_CHECK(cuvk_xsem_value(x) == 31);

   API_CHECK_CU(cuDestroyExternalSemaphore(sem));
   cuvk_xsem_destroy(x);
}

static void
attribute(void)
{
   int v = -1;
   API_CHECK_CU(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED, api_dev));
   API_CHECK(v == 1);
}

/* ---- CUDA waits ----------------------------------------------------------- */

/* The host signals; until then the fill after the wait must not run. */
static void
host_signal_unblocks_wait(enum cuvk_xsem_type type)
{
   struct cuvk_xsem *x;
   CUexternalSemaphore sem = sem_import(type, &x);
   uint8_t *host;
   CUstream stream;
   API_REQUIRE_CU(cuMemAllocHost((void **)&host, SEM_FILL_SIZE));
   memset(host, 0x11, SEM_FILL_SIZE);
   API_REQUIRE_CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));

   API_CHECK_CU(sem_wait(sem, 1, stream));
   API_CHECK_CU(cuMemsetD8Async((CUdeviceptr)(uintptr_t)host, 0x22, SEM_FILL_SIZE, stream));
   usleep(100000);
   API_CHECK_RES(CUDA_ERROR_NOT_READY, cuStreamQuery(stream));
   API_CHECK_MSG(sem_all_bytes(host, SEM_FILL_SIZE, 0x11), "the fill ran before the semaphore was signalled");

   cuvk_xsem_signal(x, 1);
   API_CHECK_CU(cuStreamSynchronize(stream));
   API_CHECK(sem_all_bytes(host, SEM_FILL_SIZE, 0x22));

   API_CHECK_CU(cuStreamDestroy(stream));
   API_CHECK_CU(cuDestroyExternalSemaphore(sem));
   API_CHECK_CU(cuMemFreeHost(host));
   cuvk_xsem_destroy(x);
}

static void
timeline_host_signal_unblocks_wait(void)
{
   host_signal_unblocks_wait(CUVK_XSEM_TIMELINE);
}

static void
binary_host_signal_unblocks_wait(void)
{
   host_signal_unblocks_wait(CUVK_XSEM_BINARY);
}

/* ---- CUDA signals --------------------------------------------------------- */

/* The host sees the signal only once the fill before it is complete. */
static void
cuda_signal_host_sees(enum cuvk_xsem_type type)
{
   struct cuvk_xsem *x;
   CUexternalSemaphore sem = sem_import(type, &x);
   uint8_t *host;
   API_REQUIRE_CU(cuMemAllocHost((void **)&host, SEM_FILL_SIZE));

   for (unsigned round = 1; round <= 3; round++) {
      memset(host, 0, SEM_FILL_SIZE);
      API_CHECK_CU(cuMemsetD8Async((CUdeviceptr)(uintptr_t)host, (uint8_t)round, SEM_FILL_SIZE, NULL));
      API_CHECK_CU(sem_signal(sem, round * 5, NULL));
      uint64_t want = type == CUVK_XSEM_TIMELINE ? round * 5 : round;
      API_CHECK(cuvk_xsem_wait(x, want, SEM_TIMEOUT_NS));
      /* No CUDA synchronisation: the signal alone orders the read. */
      API_CHECK_MSG(sem_all_bytes(host, SEM_FILL_SIZE, (uint8_t)round),
                    "round %u: the signal came before the fill finished", round);
   }
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_CU(cuDestroyExternalSemaphore(sem));
   API_CHECK_CU(cuMemFreeHost(host));
   cuvk_xsem_destroy(x);
}

/* A signal is part of its stream's work: once a synchronising call
 * returns, the exporter's side sees it without waiting. */
static void
cuda_signal_seen_after_sync(enum cuvk_xsem_type type)
{
   struct cuvk_xsem *x;
   CUexternalSemaphore sem = sem_import(type, &x);
   CUdeviceptr dev;
   API_REQUIRE_CU(cuMemAlloc(&dev, 4096));
   unsigned late = 0;
   for (unsigned i = 1; i <= 300; i++) {
      API_CHECK_CU(cuMemsetD32Async(dev, i, 1024, NULL));
      API_CHECK_CU(sem_signal(sem, i, NULL));
      API_CHECK_CU(i & 1 ? cuCtxSynchronize() : cuStreamSynchronize(NULL));
      if (cuvk_xsem_value(x) < i)
         late++;
   }
   API_CHECK_MSG(late == 0, "%u of 300 signals were not visible when the synchronising call returned", late);
   API_CHECK_CU(cuMemFree(dev));
   API_CHECK_CU(cuDestroyExternalSemaphore(sem));
   cuvk_xsem_destroy(x);
}

/* The same with no GPU work at all, in a context of its own whose streams
 * never submitted: the signal follows nothing, yet is queued for the host
 * thread.  Synchronising calls passed it by (it named no point to wait
 * for) and returned before the thread had signalled and dropped its
 * reference, so the exporter saw an old value and the import's fd was
 * still open (the cause of xsem.fd_hygiene's failures under load). */
static void
cuda_signal_seen_after_idle_sync(enum cuvk_xsem_type type)
{
   CUcontext ctx;
   CUctxCreateParams params;
   memset(&params, 0, sizeof(params));
   API_REQUIRE_CU(cuCtxCreate(&ctx, &params, 0, api_dev));
   int before = api_fd_count();
   unsigned late = 0, open_fds = 0;
   for (unsigned i = 1; i <= 300; i++) {
      struct cuvk_xsem *x;
      CUexternalSemaphore sem = sem_import(type, &x);
      API_CHECK_CU(sem_signal(sem, i, NULL));
      API_CHECK_CU(cuDestroyExternalSemaphore(sem));
      API_CHECK_CU(i & 1 ? cuCtxSynchronize() : cuStreamSynchronize(NULL));
      if (cuvk_xsem_value(x) < (type == CUVK_XSEM_TIMELINE ? i : 1))
         late++;
      /* Only the exporter's own xsem is left. */
      if (api_fd_count() != before + 1)
         open_fds++;
      cuvk_xsem_destroy(x);
   }
   API_CHECK_MSG(late == 0, "%u of 300 signals were not visible when the synchronising call returned", late);
   API_CHECK_MSG(open_fds == 0, "%u of 300 imports' fds were still open after the synchronising call",
                 open_fds);
   API_CHECK_CU(cuCtxDestroy(ctx));
}

static void
timeline_cuda_signal_seen_after_idle_sync(void)
{
   cuda_signal_seen_after_idle_sync(CUVK_XSEM_TIMELINE);
}

static void
binary_cuda_signal_seen_after_idle_sync(void)
{
   cuda_signal_seen_after_idle_sync(CUVK_XSEM_BINARY);
}

static void
timeline_cuda_signal_seen_after_sync(void)
{
   cuda_signal_seen_after_sync(CUVK_XSEM_TIMELINE);
}

static void
binary_cuda_signal_seen_after_sync(void)
{
   cuda_signal_seen_after_sync(CUVK_XSEM_BINARY);
}

static void
timeline_cuda_signal_host_sees(void)
{
   cuda_signal_host_sees(CUVK_XSEM_TIMELINE);
}

static void
binary_cuda_signal_host_sees(void)
{
   cuda_signal_host_sees(CUVK_XSEM_BINARY);
}

/* ---- ping-pong -------------------------------------------------------------- */

#define PING_PONG_ROUNDS 1000u

struct pong {
   enum cuvk_xsem_type type;
   struct cuvk_xsem *a, *b;
   volatile uint8_t *host;
   unsigned bad;
};

/* The "application": waits for CUDA's signal of A, checks what CUDA wrote,
 * writes its own byte and signals B. */
static void *
pong_main(void *data)
{
   struct pong *p = data;
   for (unsigned i = 1; i <= PING_PONG_ROUNDS; i++) {
      if (!cuvk_xsem_wait(p->a, i, SEM_TIMEOUT_NS)) {
         p->bad++;
         break;
      }
      if (p->host[0] != (uint8_t)i)
         p->bad++;
      p->host[1] = (uint8_t)i;
      cuvk_xsem_signal(p->b, i);
   }
   return NULL;
}

static void
ping_pong(enum cuvk_xsem_type type)
{
   struct pong p = { .type = type };
   CUexternalSemaphore a = sem_import(type, &p.a);
   CUexternalSemaphore b = sem_import(type, &p.b);
   uint8_t *host;
   API_REQUIRE_CU(cuMemAllocHost((void **)&host, 4096));
   memset(host, 0, 4096);
   p.host = host;
   CUdeviceptr dev;
   API_REQUIRE_CU(cuMemAlloc(&dev, 4096));

   pthread_t thread;
   API_REQUIRE(pthread_create(&thread, NULL, pong_main, &p) == 0);
   double t0 = api_now();
   /* All rounds go in at once: nothing here blocks. */
   for (unsigned i = 1; i <= PING_PONG_ROUNDS; i++) {
      API_CHECK_CU(cuMemsetD8Async((CUdeviceptr)(uintptr_t)host, (uint8_t)i, 1, NULL));
      API_CHECK_CU(sem_signal(a, i, NULL));
      API_CHECK_CU(sem_wait(b, i, NULL));
      /* What the application wrote reaches device memory only after it
       * signalled B. */
      API_CHECK_CU(cuMemcpyAsync(dev + i % 4096, (CUdeviceptr)(uintptr_t)(host + 1), 1, NULL));
   }
   double queued = api_now() - t0;
   API_CHECK_CU(cuCtxSynchronize());
   pthread_join(thread, NULL);
   printf("%u rounds: queued in %.1f ms, done in %.1f ms (%.1f us a round)\n", PING_PONG_ROUNDS,
          queued * 1e3, (api_now() - t0) * 1e3, (api_now() - t0) * 1e6 / PING_PONG_ROUNDS);
   API_CHECK_MSG(p.bad == 0, "%u rounds saw CUDA's byte missing", p.bad);

   uint8_t got[4096], want[4096];
   memset(want, 0, sizeof(want));
   API_CHECK_CU(cuMemcpyDtoH(got, dev, sizeof(got)));
   for (unsigned i = 1; i <= PING_PONG_ROUNDS; i++)
      want[i % 4096] = (uint8_t)i;
   API_CHECK_BYTES(got + 1, want + 1, PING_PONG_ROUNDS, "bytes the application wrote, copied by CUDA");

   API_CHECK_CU(cuMemFree(dev));
   API_CHECK_CU(cuMemFreeHost(host));
   API_CHECK_CU(cuDestroyExternalSemaphore(a));
   API_CHECK_CU(cuDestroyExternalSemaphore(b));
   cuvk_xsem_destroy(p.a);
   cuvk_xsem_destroy(p.b);
}

static void
timeline_ping_pong(void)
{
   ping_pong(CUVK_XSEM_TIMELINE);
}

static void
binary_ping_pong(void)
{
   ping_pong(CUVK_XSEM_BINARY);
}

/* ---- several at once, never signalled, hygiene ----------------------------- */

static void
several_in_one_call(void)
{
   struct cuvk_xsem *x[3];
   CUexternalSemaphore sems[3] = {
      sem_import(CUVK_XSEM_TIMELINE, &x[0]),
      sem_import(CUVK_XSEM_BINARY, &x[1]),
      sem_import(CUVK_XSEM_TIMELINE, &x[2]),
   };
   CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp[3];
   CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp[3];
   memset(wp, 0, sizeof(wp));
   memset(sp, 0, sizeof(sp));
   wp[0].params.fence.value = 3;
   wp[2].params.fence.value = 7;
   uint8_t *host;
   API_REQUIRE_CU(cuMemAllocHost((void **)&host, SEM_FILL_SIZE));
   memset(host, 0, SEM_FILL_SIZE);

   API_CHECK_CU(cuWaitExternalSemaphoresAsync(sems, wp, 3, NULL));
   API_CHECK_CU(cuMemsetD8Async((CUdeviceptr)(uintptr_t)host, 0x5a, SEM_FILL_SIZE, NULL));
   sp[0].params.fence.value = 10;
   sp[2].params.fence.value = 20;
   API_CHECK_CU(cuSignalExternalSemaphoresAsync(sems, sp, 3, NULL));

   /* Each signal alone is not enough; the last one releases the wait. */
   cuvk_xsem_signal(x[2], 7);
   cuvk_xsem_signal(x[0], 2);
   usleep(50000);
   API_CHECK_RES(CUDA_ERROR_NOT_READY, cuStreamQuery(NULL));
   cuvk_xsem_signal(x[1], 0);
   usleep(50000);
   API_CHECK_RES(CUDA_ERROR_NOT_READY, cuStreamQuery(NULL));
   API_CHECK(sem_all_bytes(host, SEM_FILL_SIZE, 0));
   cuvk_xsem_signal(x[0], 3);

   API_CHECK(cuvk_xsem_wait(x[0], 10, SEM_TIMEOUT_NS));
   API_CHECK(cuvk_xsem_wait(x[1], 2, SEM_TIMEOUT_NS));
   API_CHECK(cuvk_xsem_wait(x[2], 20, SEM_TIMEOUT_NS));
   API_CHECK(sem_all_bytes(host, SEM_FILL_SIZE, 0x5a));
   API_CHECK_CU(cuCtxSynchronize());
   for (int i = 0; i < 3; i++) {
      API_CHECK_CU(cuDestroyExternalSemaphore(sems[i]));
      cuvk_xsem_destroy(x[i]);
   }
   API_CHECK_CU(cuMemFreeHost(host));
}

/* A wait nobody signals hangs the stream, as in CUDA; destroying the
 * context still returns, and the work behind the wait is dropped. */
static void
never_signalled(void)
{
   CUcontext ctx;
   CUctxCreateParams params;
   memset(&params, 0, sizeof(params));
   API_REQUIRE_CU(cuCtxCreate(&ctx, &params, 0, api_dev));
   struct cuvk_xsem *x;
   CUexternalSemaphore sem = sem_import(CUVK_XSEM_BINARY, &x);
   CUdeviceptr dev;
   API_REQUIRE_CU(cuMemAlloc(&dev, 1 << 20));

   API_CHECK_CU(sem_wait(sem, 0, NULL));
   API_CHECK_CU(cuMemsetD8Async(dev, 1, 1 << 20, NULL));
   usleep(50000);
   API_CHECK_RES(CUDA_ERROR_NOT_READY, cuStreamQuery(NULL));
   /* The semaphore may go first: the queued wait keeps what it needs. */
   API_CHECK_CU(cuDestroyExternalSemaphore(sem));
   double t0 = api_now();
   API_CHECK_CU(cuCtxDestroy(ctx));
   printf("cuCtxDestroy returned after %.1f ms\n", (api_now() - t0) * 1e3);
   cuvk_xsem_destroy(x);
}

static void
fd_hygiene(void)
{
   int before = api_fd_count();
   for (unsigned i = 0; i < 2000; i++) {
      struct cuvk_xsem *x;
      CUexternalSemaphore sem = sem_import(i & 1 ? CUVK_XSEM_TIMELINE : CUVK_XSEM_BINARY, &x);
      if (i % 100 == 0)
         API_CHECK_CU(sem_signal(sem, 1, NULL));
      API_CHECK_CU(cuDestroyExternalSemaphore(sem));
      cuvk_xsem_destroy(x);
   }
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_MSG(api_fd_count() == before, "%d fds open, %d before", api_fd_count(), before);
}

/* A semaphore destroyed while the GPU is still busy is freed once the
 * batch before it completes; a synchronising call must free it even when
 * another call (here the second destroy) already saw the counter pass
 * that batch.  Before that rule cuCtxSynchronize returned with the
 * import's fd still open, and xsem.fd_hygiene failed now and then. */
static void
destroyed_closed_by_sync(void)
{
   CUdeviceptr dev;
   API_REQUIRE_CU(cuMemAlloc(&dev, 16 << 20));
   API_CHECK_CU(cuCtxSynchronize());
   int before = api_fd_count();
   struct cuvk_xsem *x1, *x2;
   CUexternalSemaphore s1 = sem_import(CUVK_XSEM_TIMELINE, &x1);
   for (int i = 0; i < 4; i++)
      API_CHECK_CU(cuMemsetD8Async(dev, (unsigned char)i, 16 << 20, NULL));
   API_CHECK_CU(sem_signal(s1, 1, NULL));
   API_CHECK_CU(cuDestroyExternalSemaphore(s1));
   /* The signal arrived: the GPU is past the batch s1's free waits for. */
   API_CHECK(cuvk_xsem_wait(x1, 1, SEM_TIMEOUT_NS));
   CUexternalSemaphore s2 = sem_import(CUVK_XSEM_BINARY, &x2);
   API_CHECK_CU(cuDestroyExternalSemaphore(s2));
   cuvk_xsem_destroy(x1);
   cuvk_xsem_destroy(x2);
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_MSG(api_fd_count() == before, "%d fds open after cuCtxSynchronize, %d before",
                 api_fd_count(), before);
   API_CHECK_CU(cuMemFree(dev));
}

/* ---- waits the host holds, signals the host makes --------------------------
 *
 * With CUVK_HOST_SEMAPHORE_OPS on (the default), a wait on a timeline or
 * emulated semaphore is held on the host until the context records more,
 * and a signal on an idle context is made by the host at once
 * (src/cuda_api/external_semaphore_held.c).  These cases check that
 * every way of depending on a held wait still waits for it; the meson
 * file runs them with the policy off too.
 */

struct sem_late_signal {
   struct cuvk_xsem *x;
   uint64_t value;
   unsigned delay_us;
};

static void *
sem_late_signal_main(void *data)
{
   struct sem_late_signal *l = data;
   usleep(l->delay_us);
   cuvk_xsem_signal(l->x, l->value);
   return NULL;
}

/* Stream A waits; an event recorded after the wait orders stream B's
 * fill after it, and a synchronisation of either returns only once the
 * semaphore is signalled. */
static void
held_event_orders_other_stream(void)
{
   struct cuvk_xsem *x;
   CUexternalSemaphore sem = sem_import(CUVK_XSEM_TIMELINE, &x);
   uint8_t *host;
   CUstream a, b;
   CUevent ev;
   API_REQUIRE_CU(cuMemAllocHost((void **)&host, SEM_FILL_SIZE));
   memset(host, 0x11, SEM_FILL_SIZE);
   API_REQUIRE_CU(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));

   API_CHECK_CU(sem_wait(sem, 3, a));
   API_CHECK_CU(cuEventRecord(ev, a));
   API_CHECK_CU(cuStreamWaitEvent(b, ev, 0));
   API_CHECK_CU(cuMemsetD8Async((CUdeviceptr)(uintptr_t)host, 0x22, SEM_FILL_SIZE, b));
   usleep(100000);
   API_CHECK_RES(CUDA_ERROR_NOT_READY, cuStreamQuery(a));
   API_CHECK_RES(CUDA_ERROR_NOT_READY, cuEventQuery(ev));
   API_CHECK_RES(CUDA_ERROR_NOT_READY, cuStreamQuery(b));
   API_CHECK_MSG(sem_all_bytes(host, SEM_FILL_SIZE, 0x11), "stream b's fill ran before the semaphore was signalled");

   cuvk_xsem_signal(x, 3);
   API_CHECK_CU(cuStreamSynchronize(b));
   API_CHECK(sem_all_bytes(host, SEM_FILL_SIZE, 0x22));
   API_CHECK_CU(cuEventSynchronize(ev));
   API_CHECK_CU(cuStreamQuery(a));

   API_CHECK_CU(cuEventDestroy(ev));
   API_CHECK_CU(cuStreamDestroy(a));
   API_CHECK_CU(cuStreamDestroy(b));
   API_CHECK_CU(cuDestroyExternalSemaphore(sem));
   API_CHECK_CU(cuMemFreeHost(host));
   cuvk_xsem_destroy(x);
}

/* A wait and nothing after it: cuStreamQuery says NOT_READY until the
 * signal, and cuStreamSynchronize, the legacy stream's and
 * cuCtxSynchronize return only after it, with the value reached. */
static void
held_sync_blocks_until_signal(enum cuvk_xsem_type type)
{
   struct cuvk_xsem *x;
   CUexternalSemaphore sem = sem_import(type, &x);
   CUstream s;
   API_REQUIRE_CU(cuStreamCreate(&s, 0));

   for (unsigned round = 1; round <= 3; round++) {
      CUstream on = round == 2 ? NULL : s;
      API_CHECK_CU(sem_wait(sem, round, on));
      API_CHECK_RES(CUDA_ERROR_NOT_READY, cuStreamQuery(on));
      struct sem_late_signal late = { x, round, 50000 };
      pthread_t t;
      API_REQUIRE(pthread_create(&t, NULL, sem_late_signal_main, &late) == 0);
      if (round == 3)
         API_CHECK_CU(cuCtxSynchronize());
      else
         API_CHECK_CU(cuStreamSynchronize(on));
      API_CHECK_MSG(cuvk_xsem_value(x) >= round, "round %u: the synchronisation returned before the signal",
                    round);
      pthread_join(t, NULL);
      API_CHECK_CU(cuStreamQuery(on));
   }
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuDestroyExternalSemaphore(sem));
   cuvk_xsem_destroy(x);
}

static void
held_timeline_sync_blocks_until_signal(void)
{
   held_sync_blocks_until_signal(CUVK_XSEM_TIMELINE);
}

static void
held_binary_sync_blocks_until_signal(void)
{
   held_sync_blocks_until_signal(CUVK_XSEM_BINARY);
}

/* The semaphore and the stream are destroyed while a wait on them is
 * held: the wait still holds up the context's later work, and a
 * synchronisation after the signal returns with every fd closed. */
static void
held_destroy_first(void)
{
   API_CHECK_CU(cuCtxSynchronize());
   int before = api_fd_count();
   struct cuvk_xsem *x;
   CUexternalSemaphore sem = sem_import(CUVK_XSEM_TIMELINE, &x);
   uint8_t *host;
   CUstream s;
   API_REQUIRE_CU(cuMemAllocHost((void **)&host, SEM_FILL_SIZE));
   memset(host, 0x11, SEM_FILL_SIZE);
   API_REQUIRE_CU(cuStreamCreate(&s, 0));

   API_CHECK_CU(sem_wait(sem, 7, s));
   API_CHECK_CU(cuDestroyExternalSemaphore(sem));
   API_CHECK_CU(cuMemsetD8Async((CUdeviceptr)(uintptr_t)host, 0x33, SEM_FILL_SIZE, s));
   API_CHECK_CU(cuStreamDestroy(s));
   usleep(100000);
   API_CHECK_MSG(sem_all_bytes(host, SEM_FILL_SIZE, 0x11), "the fill ran before the semaphore was signalled");
   cuvk_xsem_signal(x, 7);
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK(sem_all_bytes(host, SEM_FILL_SIZE, 0x33));
   cuvk_xsem_destroy(x);
   API_CHECK_CU(cuMemFreeHost(host));
   API_CHECK_MSG(api_fd_count() == before, "%d fds open, %d before", api_fd_count(), before);
}

/* A small fill after a held wait, on an otherwise idle context: small
 * enough for the host to do at once (src/cuda_api/transfer.c), it must
 * still wait for the semaphore. */
static void
held_small_op_waits(void)
{
   struct cuvk_xsem *x;
   CUexternalSemaphore sem = sem_import(CUVK_XSEM_TIMELINE, &x);
   uint32_t *host;
   API_REQUIRE_CU(cuMemAllocHost((void **)&host, 256));
   memset(host, 0, 256);
   API_CHECK_CU(cuCtxSynchronize());

   API_CHECK_CU(sem_wait(sem, 1, NULL));
   API_CHECK_CU(cuMemsetD32Async((CUdeviceptr)(uintptr_t)host, 0x5eed, 64, NULL));
   usleep(50000);
   API_CHECK_MSG(host[0] == 0 && host[63] == 0, "the small fill ran before the semaphore was signalled");
   cuvk_xsem_signal(x, 1);
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK(host[0] == 0x5eed && host[63] == 0x5eed);

   API_CHECK_CU(cuDestroyExternalSemaphore(sem));
   API_CHECK_CU(cuMemFreeHost(host));
   cuvk_xsem_destroy(x);
}

/* On an idle context a signal needs no GPU: with the policy on, the
 * exporter sees it when the call returns; after queued work, only once
 * that work is done (the fill's bytes are there). */
static void
host_signal_idle(void)
{
   const char *policy = getenv("CUVK_HOST_SEMAPHORE_OPS");
   bool on_host = !policy || strcmp(policy, "0") != 0;
   struct cuvk_xsem *x;
   CUexternalSemaphore sem = sem_import(CUVK_XSEM_TIMELINE, &x);
   uint8_t *host;
   API_REQUIRE_CU(cuMemAllocHost((void **)&host, SEM_FILL_SIZE));

   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_CU(sem_signal(sem, 1, NULL));
   if (on_host)
      API_CHECK_MSG(cuvk_xsem_value(x) == 1, "a signal on an idle context was not made at once");
   API_CHECK(cuvk_xsem_wait(x, 1, SEM_TIMEOUT_NS));

   memset(host, 0, SEM_FILL_SIZE);
   API_CHECK_CU(cuMemsetD8Async((CUdeviceptr)(uintptr_t)host, 0x44, SEM_FILL_SIZE, NULL));
   API_CHECK_CU(sem_signal(sem, 2, NULL));
   API_CHECK(cuvk_xsem_wait(x, 2, SEM_TIMEOUT_NS));
   API_CHECK_MSG(sem_all_bytes(host, SEM_FILL_SIZE, 0x44), "the signal came before the fill finished");

   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_CU(cuDestroyExternalSemaphore(sem));
   API_CHECK_CU(cuMemFreeHost(host));
   cuvk_xsem_destroy(x);
}

/* One thread imports and destroys semaphores; others signal and wait on
 * whichever was imported last, live or already destroyed.  The calls
 * found a semaphore in the object table and read it afterwards, so a
 * destroy in between freed it under them (under --sanitize=address a
 * heap-use-after-free); each call now holds a reference, so it finishes
 * on the live semaphore or is told the handle is gone. */
struct sem_destroy_race {
   CUcontext ctx;
   CUexternalSemaphore _Atomic latest;
   atomic_ullong next_value;
   atomic_bool stop;
   pthread_barrier_t start;
};

static void *
sem_destroy_churn(void *data)
{
   struct sem_destroy_race *r = data;
   API_CHECK_CU(cuCtxSetCurrent(r->ctx));
   pthread_barrier_wait(&r->start);
   double end = api_now() + 2.0;
   while (api_now() < end && !cuvk_test_failures()) {
      struct cuvk_xsem *x;
      CUexternalSemaphore sem = sem_import(CUVK_XSEM_TIMELINE, &x);
      atomic_store(&r->latest, sem);
      API_CHECK_CU(cuDestroyExternalSemaphore(sem));
      cuvk_xsem_destroy(x);
   }
   atomic_store(&r->stop, true);
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

static void *
sem_destroy_user(void *data)
{
   struct sem_destroy_race *r = data;
   API_CHECK_CU(cuCtxSetCurrent(r->ctx));
   pthread_barrier_wait(&r->start);
   for (unsigned i = 0; !atomic_load(&r->stop); i++) {
      CUexternalSemaphore sem = atomic_load(&r->latest);
      if (!sem)
         continue;
      /* Values from one counter never go backwards on one thread, but
       * two threads may submit theirs out of order: INVALID_VALUE is
       * also what a timeline signalled backwards gets.  A wait for 0 is
       * satisfied from the start, so nothing is left blocked.  Most
       * rounds name the semaphore many times with flags the call refuses
       * after reading each entry: nothing is queued, so a destroy frees
       * it at once, and a read after that shows. */
      enum { COPIES = 62 }; /* the most one call takes: a wider window */
      CUexternalSemaphore copies[COPIES];
      CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS bad[COPIES];
      memset(bad, 0, sizeof(bad));
      for (unsigned k = 0; k < COPIES; k++)
         copies[k] = sem;
      bad[COPIES - 1].flags = 1;
      CUresult s = i % 16 ? cuSignalExternalSemaphoresAsync(copies, bad, COPIES, NULL)
                         : sem_signal(sem, atomic_fetch_add(&r->next_value, 1) + 1, NULL);
      CUresult w = i % 16 ? CUDA_SUCCESS : sem_wait(sem, 0, NULL);
      API_CHECK_MSG((s == CUDA_SUCCESS || s == CUDA_ERROR_INVALID_VALUE) &&
                       (w == CUDA_SUCCESS || w == CUDA_ERROR_INVALID_VALUE),
                    "on a semaphore being destroyed: signal %d, wait %d", (int)s, (int)w);
   }
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   return NULL;
}

static void
destroy_use_race(void)
{
   enum { USERS = 3 };
   struct sem_destroy_race r = { .ctx = api_ctx };
   pthread_t threads[1 + USERS];
   pthread_barrier_init(&r.start, NULL, 1 + USERS);
   API_REQUIRE(pthread_create(&threads[0], NULL, sem_destroy_churn, &r) == 0);
   for (int i = 1; i <= USERS; i++)
      API_REQUIRE(pthread_create(&threads[i], NULL, sem_destroy_user, &r) == 0);
   for (int i = 0; i <= USERS; i++)
      pthread_join(threads[i], NULL);
   pthread_barrier_destroy(&r.start);
   API_CHECK_CU(cuCtxSetCurrent(api_ctx));
   API_CHECK_CU(cuCtxSynchronize());
}

/* ---- host functions ----------------------------------------------------------- */

struct host_fn_state {
   uint8_t *host;
   uint8_t seen;
   unsigned calls;
   CUstream stream;
   CUresult status;
   CUstream got_stream;
};

static void CUDA_CB
host_fn(void *data)
{
   struct host_fn_state *s = data;
   /* Runs after the fill before it; later work must wait for this. */
   s->seen = s->host[SEM_FILL_SIZE - 1];
   usleep(50000);
   s->host[0] = 0x77;
   s->calls++;
}

static void CUDA_CB
host_callback(CUstream stream, CUresult status, void *data)
{
   struct host_fn_state *s = data;
   s->got_stream = stream;
   s->status = status;
   host_fn(data);
}

static void
host_func_order(bool callback)
{
   struct host_fn_state s = { 0 };
   CUdeviceptr dev;
   API_REQUIRE_CU(cuMemAllocHost((void **)&s.host, SEM_FILL_SIZE));
   API_REQUIRE_CU(cuMemAlloc(&dev, 16));
   memset(s.host, 0, SEM_FILL_SIZE);
   API_REQUIRE_CU(cuStreamCreate(&s.stream, 0));

   API_CHECK_CU(cuMemsetD8Async((CUdeviceptr)(uintptr_t)s.host, 0x33, SEM_FILL_SIZE, s.stream));
   if (callback)
      API_CHECK_CU(cuStreamAddCallback(s.stream, host_callback, &s, 0));
   else
      API_CHECK_CU(cuLaunchHostFunc(s.stream, host_fn, &s));
   /* Copies the byte the function writes, so must come after it. */
   API_CHECK_CU(cuMemcpyAsync(dev, (CUdeviceptr)(uintptr_t)s.host, 1, s.stream));
   API_CHECK_CU(cuStreamSynchronize(s.stream));

   uint8_t got = 0;
   API_CHECK_CU(cuMemcpyDtoH(&got, dev, 1));
   API_CHECK(s.calls == 1);
   API_CHECK_MSG(s.seen == 0x33, "the host function ran before the fill (saw 0x%02x)", s.seen);
   API_CHECK_MSG(got == 0x77, "work after the host function did not wait for it (copied 0x%02x)", got);
   if (callback) {
      API_CHECK(s.status == CUDA_SUCCESS);
      API_CHECK(s.got_stream == s.stream);
   }
   API_CHECK_CU(cuStreamDestroy(s.stream));
   API_CHECK_CU(cuMemFree(dev));
   API_CHECK_CU(cuMemFreeHost(s.host));
}

static void
host_func_launch(void)
{
   host_func_order(false);
}

static void
host_func_callback(void)
{
   host_func_order(true);
}

static void CUDA_CB
count_fn(void *data)
{
   unsigned *n = data;
   (*n)++;
}

static void CUDA_CB
atomic_count_fn(void *data)
{
   __atomic_add_fetch((unsigned *)data, 1, __ATOMIC_RELAXED);
}

static void CUDA_CB
host_callback_count(CUstream stream, CUresult status, void *data)
{
   atomic_count_fn(data);
}

static void
host_func_many(void)
{
   unsigned n = 0;
   for (unsigned i = 0; i < 500; i++)
      API_CHECK_CU(cuLaunchHostFunc(NULL, count_fn, &n));
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_MSG(n == 500, "%u of 500 host functions ran", n);
}

/* The host queue's worker frees an op once it has run it, which can be
 * before the call that queued it returns: cuLaunchHostFunc read the op's
 * gate value after queueing it (found by fuzz_api; under
 * --sanitize=address a heap-use-after-free within a few hundred calls).
 * Back-to-back calls keep the worker running, so that it takes each op
 * the moment it is queued. */
static void
host_func_worker_frees_op(void)
{
   CUstream stream;
   API_REQUIRE_CU(cuStreamCreate(&stream, 0));
   unsigned n = 0;
   enum { CALLS = 8000 };
   for (unsigned i = 0; i < CALLS; i++) {
      if (i % 2)
         API_CHECK_CU(cuStreamAddCallback(stream, host_callback_count, &n, 0));
      else
         API_CHECK_CU(cuLaunchHostFunc(stream, atomic_count_fn, &n));
   }
   API_CHECK_CU(cuStreamSynchronize(stream));
   API_CHECK_MSG(__atomic_load_n(&n, __ATOMIC_RELAXED) == CALLS, "%u of %u host functions ran",
                 __atomic_load_n(&n, __ATOMIC_RELAXED), (unsigned)CALLS);
   API_CHECK_CU(cuStreamDestroy(stream));
}

static void CUDA_CB
slow_flag_fn(void *data)
{
   usleep(200000);
   __atomic_store_n((int *)data, 1, __ATOMIC_RELEASE);
}

/* A host function is part of its stream's work: the synchronising calls
 * return only once it has returned, even with nothing queued after it. */
static void
host_func_sync_waits(void)
{
   CUstream stream;
   API_REQUIRE_CU(cuStreamCreate(&stream, 0));
   int flag = 0;
   API_CHECK_CU(cuLaunchHostFunc(stream, slow_flag_fn, &flag));
   API_CHECK_CU(cuStreamSynchronize(stream));
   API_CHECK_MSG(__atomic_load_n(&flag, __ATOMIC_ACQUIRE) == 1,
                 "cuStreamSynchronize returned before the host function did");
   flag = 0;
   API_CHECK_CU(cuLaunchHostFunc(stream, slow_flag_fn, &flag));
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_MSG(__atomic_load_n(&flag, __ATOMIC_ACQUIRE) == 1,
                 "cuCtxSynchronize returned before the host function did");
   flag = 0;
   CUevent ev;
   API_REQUIRE_CU(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
   API_CHECK_CU(cuLaunchHostFunc(stream, slow_flag_fn, &flag));
   API_CHECK_CU(cuEventRecord(ev, stream));
   API_CHECK_CU(cuEventSynchronize(ev));
   API_CHECK_MSG(__atomic_load_n(&flag, __ATOMIC_ACQUIRE) == 1,
                 "cuEventSynchronize returned before the host function did");
   API_CHECK_CU(cuEventDestroy(ev));
   API_CHECK_CU(cuStreamDestroy(stream));
}

static void
host_func_invalid(void)
{
   int dummy = 0;
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchHostFunc(NULL, NULL, &dummy));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamAddCallback(NULL, NULL, &dummy, 0));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamAddCallback(NULL, host_callback, &dummy, 1));
   CUstream stream;
   API_REQUIRE_CU(cuStreamCreate(&stream, 0));
   API_REQUIRE_CU(cuStreamDestroy(stream));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLaunchHostFunc(stream, count_fn, &dummy));
   API_CHECK(dummy == 0);
}

static const struct api_case cases[] = {
   API_CASE("external_semaphore.invalid.import_arguments", invalid_import_arguments),
   API_CASE("external_semaphore.invalid.import_bad_fds", invalid_import_bad_fds),
   API_CASE("external_semaphore.invalid.signal_wait", invalid_signal_wait),
   API_CASE("external_semaphore.invalid.timeline_backwards", invalid_timeline_backwards),
   API_CASE("external_semaphore.attribute", attribute),
   API_CASE("external_semaphore.xsem.timeline.host_signal_unblocks_wait", timeline_host_signal_unblocks_wait),
   API_CASE("external_semaphore.xsem.binary.host_signal_unblocks_wait", binary_host_signal_unblocks_wait),
   API_CASE("external_semaphore.xsem.timeline.cuda_signal_host_sees", timeline_cuda_signal_host_sees),
   API_CASE("external_semaphore.xsem.binary.cuda_signal_host_sees", binary_cuda_signal_host_sees),
   API_CASE("external_semaphore.xsem.timeline.signal_seen_after_sync", timeline_cuda_signal_seen_after_sync),
   API_CASE("external_semaphore.xsem.binary.signal_seen_after_sync", binary_cuda_signal_seen_after_sync),
   API_CASE("external_semaphore.xsem.timeline.signal_seen_after_idle_sync",
            timeline_cuda_signal_seen_after_idle_sync),
   API_CASE("external_semaphore.xsem.binary.signal_seen_after_idle_sync", binary_cuda_signal_seen_after_idle_sync),
   API_CASE("external_semaphore.xsem.timeline.ping_pong", timeline_ping_pong),
   API_CASE("external_semaphore.xsem.binary.ping_pong", binary_ping_pong),
   API_CASE("external_semaphore.xsem.several_in_one_call", several_in_one_call),
   API_CASE("external_semaphore.xsem.never_signalled", never_signalled),
   API_CASE("external_semaphore.xsem.held.event_orders_other_stream", held_event_orders_other_stream),
   API_CASE("external_semaphore.xsem.held.timeline_sync_blocks_until_signal", held_timeline_sync_blocks_until_signal),
   API_CASE("external_semaphore.xsem.held.binary_sync_blocks_until_signal", held_binary_sync_blocks_until_signal),
   API_CASE("external_semaphore.xsem.held.destroy_first", held_destroy_first),
   API_CASE("external_semaphore.xsem.held.small_op_waits", held_small_op_waits),
   API_CASE("external_semaphore.xsem.host_signal_idle", host_signal_idle),
   API_CASE("external_semaphore.xsem.fd_hygiene", fd_hygiene),
   API_CASE("external_semaphore.xsem.destroyed_closed_by_sync", destroyed_closed_by_sync),
   API_CASE("external_semaphore.xsem.destroy_use_race", destroy_use_race),
   API_CASE("host_func.launch.order", host_func_launch),
   API_CASE("host_func.callback.order", host_func_callback),
   API_CASE("host_func.launch.many", host_func_many),
   API_CASE("host_func.launch.worker_frees_op", host_func_worker_frees_op),
   API_CASE("host_func.sync_waits", host_func_sync_waits),
   API_CASE("host_func.invalid", host_func_invalid),
};

API_MAIN(cases)
