/*
 * cuImportExternalSemaphore, cuSignalExternalSemaphoresAsync,
 * cuWaitExternalSemaphoresAsync and cuDestroyExternalSemaphore.
 */
#include "cuda_api/external_semaphore.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuda_api/host_queue.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"
#include "util/xsem.h"

/* How long context teardown waits for GPU work held back by a native
 * semaphore before it gives the context up. */
#define SETTLE_TIMEOUT_NS 1000000000ull

/* Most semaphores one signal or wait call takes (cuvk_submit_semaphores'
 * limit, less the gate). */
#define MAX_SEMAPHORES_PER_CALL 62u

static void
external_semaphore_free(struct cuvk_context *ctx, void *data)
{
   struct cuvk_external_semaphore *sem = data;

   /* The GPU is done with it (this runs deferred): the next import of
    * its kind can take it over. */
   if (sem->semaphore)
      cuvk_semaphore_pool_put(&ctx->semaphore_pool, sem->timeline, sem->semaphore);
   cuvk_xsem_destroy(sem->xsem);
   free(sem);
}

/* The last reference is gone: after cuDestroyExternalSemaphore, once no
 * call that found the semaphore live is still using it. */
static void
external_semaphore_release(struct cuvk_object *obj)
{
   struct cuvk_external_semaphore *sem = cuvk_container_of(obj, struct cuvk_external_semaphore, base);
   struct cuvk_context *ctx = sem->ctx;
   pthread_mutex_lock(&ctx->lock);
   cuvk_list_del(&sem->link);
   /* Held waits on it become submitted steps, which the deferred free
    * below then waits for like any other. */
   if (ctx->held_wait_count)
      (void)cuvk_held_waits_submit(ctx);
   /* Submitted steps may still name the Vulkan semaphore; host queue ops
    * hold their own references to an xsem. */
   sem->release.fn = external_semaphore_free;
   sem->release.data = sem;
   if (sem->host_waiters)
      sem->released = true;
   else
      cuvk_submit_defer(ctx, &sem->release);
   pthread_mutex_unlock(&ctx->lock);
}

void
cuvk_external_semaphore_unwait(struct cuvk_context *ctx, struct cuvk_external_semaphore *sem)
{
   if (--sem->host_waiters == 0 && sem->released)
      cuvk_submit_defer(ctx, &sem->release);
}

static void
semaphores_put(struct cuvk_external_semaphore **sems, unsigned n)
{
   for (unsigned i = 0; i < n; i++)
      cuvk_object_put(&sems[i]->base);
}

void
cuvk_external_semaphore_release_context(struct cuvk_context *ctx, bool leak)
{
   cuvk_list_for_each_entry_safe(struct cuvk_external_semaphore, sem, &ctx->external_semaphores, link) {
      cuvk_object_remove(&sem->base);
      cuvk_list_del(&sem->link);
      if (!leak)
         external_semaphore_free(ctx, sem);
   }
}

bool
cuvk_external_semaphore_settle(struct cuvk_context *ctx)
{
   pthread_mutex_lock(&ctx->lock);
   /* A point: the lane its wait is on is the one it can hold up. */
   uint64_t native = ctx->native_wait_value;
   struct cuvk_lane *lane = &ctx->submit.lanes[cuvk_point_lane(native)];
   uint64_t last = lane->last_submitted;
   pthread_mutex_unlock(&ctx->lock);
   if (!native)
      return true;

   VkSemaphoreWaitInfo wait = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
      .semaphoreCount = 1,
      .pSemaphores = &lane->timeline,
      .pValues = &last,
   };
   if (vkWaitSemaphores(ctx->vk, &wait, SETTLE_TIMEOUT_NS) == VK_SUCCESS)
      return true;
   /* Is it the native wait that holds things up, or only long work? */
   uint64_t value = 0;
   vkGetSemaphoreCounterValue(ctx->vk, lane->timeline, &value);
   if (value >= cuvk_point_value(native)) {
      vkWaitSemaphores(ctx->vk, &wait, UINT64_MAX);
      return true;
   }
   cuvk_loge("context teardown: the GPU still waits on an imported semaphore nobody signalled "
             "(step %llu, reached %llu); leaking the context's device",
             (unsigned long long)native, (unsigned long long)value);
   return false;
}

/* ---- import ------------------------------------------------------------- */

static CUresult
import_check_desc(const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *desc, bool *timeline)
{
   switch (desc->type) {
   case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD:
      *timeline = false;
      break;
   case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD:
      *timeline = true;
      break;
   case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32:
   case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT:
   case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE:
   case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_FENCE:
   case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX:
   case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX_KMT:
   case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_WIN32:
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED,
                        "cuImportExternalSemaphore: handle type %d is a Windows handle; this is a Linux build",
                        (int)desc->type);
   case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_NVSCISYNC:
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "cuImportExternalSemaphore: NvSciSync is not supported by cuvk");
   default:
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuImportExternalSemaphore: unknown handle type %d",
                        (int)desc->type);
   }
   if (desc->flags != 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuImportExternalSemaphore: flags must be 0, got 0x%x",
                        desc->flags);

   /* Real CUDA answers a bad fd with CUDA_ERROR_UNKNOWN. */
   int fd = desc->handle.fd;
   if (fd < 0 || fcntl(fd, F_GETFD) < 0)
      return cuvk_error(CUDA_ERROR_UNKNOWN, "cuImportExternalSemaphore: %d is not an open file descriptor", fd);
   return CUDA_SUCCESS;
}

/* What no driver exports as a semaphore (an xsem, a memfd, was ruled out
 * before: it is a regular file). */
static bool
fd_is_plainly_not_a_semaphore(int fd)
{
   struct stat st;
   return fstat(fd, &st) != 0 || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISDIR(st.st_mode) ||
          S_ISREG(st.st_mode);
}

/* The emulated kind: fd is an xsem. */
static CUresult
import_xsem(struct cuvk_external_semaphore *sem, int fd)
{
   int err = cuvk_xsem_import(fd, &sem->xsem);
   if (err < 0)
      return cuvk_error(CUDA_ERROR_UNKNOWN, "cuImportExternalSemaphore: mapping the semaphore of fd %d: %s",
                        fd, strerror(-err));
   enum cuvk_xsem_type type = cuvk_xsem_get_type(sem->xsem);
   if ((type == CUVK_XSEM_TIMELINE) != sem->timeline) {
      /* NVIDIA accepts the mismatch unchecked; cuvk can tell, and the
       * two kinds count differently, so it refuses. */
      cuvk_xsem_destroy(sem->xsem);
      sem->xsem = NULL;
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "cuImportExternalSemaphore: fd %d is a %s semaphore, imported as %s", fd,
                        type == CUVK_XSEM_TIMELINE ? "timeline" : "binary",
                        sem->timeline ? "TIMELINE_SEMAPHORE_FD" : "OPAQUE_FD (binary)");
   }
   return CUDA_SUCCESS;
}

/* The native kind: fd is the driver's own.  Imports a dup, so that on any
 * failure the caller's fd is untouched. */
static CUresult
import_native(struct cuvk_context *ctx, struct cuvk_external_semaphore *sem, int fd)
{
   VkResult vr;

   /* A recycled semaphore, whose old payload the import replaces, saves
    * most of an import's cost on NVIDIA (semaphore_pool.h). */
   vr = cuvk_semaphore_pool_get(&ctx->semaphore_pool, sem->timeline, &sem->semaphore);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "cuImportExternalSemaphore: vkCreateSemaphore");

   int dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
   if (dup_fd < 0) {
      vkDestroySemaphore(ctx->vk, sem->semaphore, NULL);
      sem->semaphore = VK_NULL_HANDLE;
      return cuvk_error(CUDA_ERROR_OPERATING_SYSTEM, "cuImportExternalSemaphore: dup of fd %d failed: %s",
                        fd, strerror(errno));
   }
   VkImportSemaphoreFdInfoKHR import = {
      .sType = VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_FD_INFO_KHR,
      .semaphore = sem->semaphore,
      .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT,
      .fd = dup_fd,
   };
   vr = ctx->ImportSemaphoreFdKHR(ctx->vk, &import);
   if (vr != VK_SUCCESS) {
      close(dup_fd); /* a failed import leaves the fd with us */
      /* Not back to the pool: what a failed import leaves is the
       * driver's business. */
      vkDestroySemaphore(ctx->vk, sem->semaphore, NULL);
      sem->semaphore = VK_NULL_HANDLE;
      cuvk_logw("cuImportExternalSemaphore: vkImportSemaphoreFdKHR: %s", cuvk_vk_result_name(vr));
      return cuvk_error(CUDA_ERROR_UNKNOWN, "cuImportExternalSemaphore: fd %d is not a semaphore %s can import",
                        fd, ctx->dev->props.deviceName);
   }
   if (sem->timeline)
      vkGetSemaphoreCounterValue(ctx->vk, sem->semaphore, &sem->max_signal);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuImportExternalSemaphore(CUexternalSemaphore *out, const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *desc)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   struct cuvk_external_semaphore *sem;
   bool timeline = false;

   CUresult res = cuvk_context_current("cuImportExternalSemaphore", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!out || !desc)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuImportExternalSemaphore: NULL %s",
                        !out ? "extSem_out" : "semHandleDesc");
   res = import_check_desc(desc, &timeline);
   if (res != CUDA_SUCCESS)
      return res;

   sem = calloc(1, sizeof(*sem));
   if (!sem)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuImportExternalSemaphore: out of host memory");
   sem->ctx = ctx;
   sem->timeline = timeline;

   int fd = desc->handle.fd;
   if (cuvk_xsem_fd_is_xsem(fd))
      res = import_xsem(sem, fd);
   else if (fd_is_plainly_not_a_semaphore(fd))
      res = cuvk_error(CUDA_ERROR_UNKNOWN,
                       "cuImportExternalSemaphore: fd %d is a pipe, socket, folder or file, not a semaphore", fd);
   else if (ctx->ImportSemaphoreFdKHR)
      res = import_native(ctx, sem, fd);
   else
      res = cuvk_error(CUDA_ERROR_UNKNOWN,
                       "cuImportExternalSemaphore: fd %d is no semaphore of VK_LAYER_CUVK_interop, and %s "
                       "cannot import Vulkan semaphores (no VK_KHR_external_semaphore_fd): enable the layer "
                       "in the exporting process", fd, ctx->dev->props.deviceName);
   if (res != CUDA_SUCCESS) {
      free(sem);
      return res;
   }

   /* Success: the handle is CUDA's now (CUDA closes it too). */
   close(fd);
   pthread_mutex_lock(&ctx->lock);
   cuvk_list_addtail(&sem->link, &ctx->external_semaphores);
   pthread_mutex_unlock(&ctx->lock);
   cuvk_object_add_in(&sem->base, CUVK_OBJECT_EXTERNAL_SEMAPHORE, external_semaphore_release, &ctx->base);
   *out = (CUexternalSemaphore)sem;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuDestroyExternalSemaphore(CUexternalSemaphore handle)
{
   CUresult res = cuvk_driver_check("cuDestroyExternalSemaphore");
   if (res != CUDA_SUCCESS)
      return res;
   if (!handle)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDestroyExternalSemaphore: extSem is NULL");
   struct cuvk_object *obj = cuvk_object_get(handle, CUVK_OBJECT_EXTERNAL_SEMAPHORE);
   if (!obj)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "cuDestroyExternalSemaphore: %p is not a live external semaphore (destroyed already?)",
                        (void *)handle);
   /* Later lookups fail from here; the semaphore goes with the last
    * reference, once calls that found it live have submitted. */
   if (!cuvk_object_release(obj))
      res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDestroyExternalSemaphore: %p was destroyed meanwhile",
                       (void *)handle);
   cuvk_object_put(obj);
   return res;
}

/* ---- signal and wait ------------------------------------------------------ */

/* One xsem operation for the host queue. */
struct xsem_op {
   struct cuvk_xsem *xsem;
   uint64_t value;
};

static void
xsem_op_signal(void *data, bool abandoned)
{
   struct xsem_op *op = data;
   if (!abandoned)
      cuvk_xsem_signal(op->xsem, op->value);
   cuvk_xsem_unref(op->xsem);
   free(op);
}

static bool
xsem_op_wait(void *data, uint64_t timeout_ns)
{
   struct xsem_op *op = data;
   return cuvk_xsem_wait(op->xsem, op->value, timeout_ns);
}

static void
xsem_op_release(void *data, bool abandoned)
{
   struct xsem_op *op = data;
   (void)abandoned;
   cuvk_xsem_unref(op->xsem);
   free(op);
}

/* Checks what signal and wait share, resolves the stream and takes a
 * reference to each semaphore (held; none on failure).  The stream's
 * reference is the caller's (CUVK_HELD_STREAM) either way. */
static CUresult
check_call(const CUexternalSemaphore *sems, const void *params, unsigned n, CUstream hstream,
           const char *entry, struct cuvk_context **ctx, struct cuvk_stream **stream,
           struct cuvk_external_semaphore **held)
{
   CUresult res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;
   if (!sems || !params)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: NULL %s", entry, !sems ? "extSemArray" : "paramsArray");
   if (n == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: numExtSems is 0", entry);
   if (n > MAX_SEMAPHORES_PER_CALL)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %u semaphores; cuvk takes up to %u in one call",
                        entry, n, MAX_SEMAPHORES_PER_CALL);
   res = cuvk_stream_lookup(hstream, entry, ctx, stream);
   if (res != CUDA_SUCCESS)
      return res;
   for (unsigned i = 0; i < n; i++) {
      struct cuvk_object *obj = cuvk_object_get(sems[i], CUVK_OBJECT_EXTERNAL_SEMAPHORE);
      if (!obj)
         res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: extSemArray[%u] (%p) is not a live external semaphore",
                          entry, i, (void *)sems[i]);
      else if (cuvk_container_of(obj, struct cuvk_external_semaphore, base)->ctx != *ctx)
         res = cuvk_error(CUDA_ERROR_INVALID_HANDLE,
                          "%s: extSemArray[%u] was imported in another context than the stream's", entry, i);
      if (res != CUDA_SUCCESS) {
         cuvk_object_put(obj);
         semaphores_put(held, i);
         return res;
      }
      held[i] = cuvk_container_of(obj, struct cuvk_external_semaphore, base);
   }
   return CUDA_SUCCESS;
}

/* A native semaphore may appear once per call: one Vulkan submit cannot
 * signal or wait on a binary semaphore twice. */
static CUresult
check_native_duplicates(struct cuvk_external_semaphore *const *sems, unsigned n, const char *entry)
{
   for (unsigned i = 0; i < n; i++) {
      if (!sems[i]->semaphore)
         continue;
      for (unsigned j = 0; j < i; j++)
         if (sems[j] == sems[i])
            return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: extSemArray[%u] and [%u] are the same semaphore",
                              entry, j, i);
   }
   return CUDA_SUCCESS;
}

/* Signals on a context with nothing outstanding (no work on any lane, no
 * held wait, no host op) happen now, from the host: everything the stream
 * could be ordered after is done, so the signal lands where a submitted
 * one would, and the application sees it without a queue submission's
 * round trip.  Native timelines take vkSignalSemaphore, emulated
 * semaphores what the host queue would have done; the host cannot signal
 * a native binary semaphore.  Lock held.  Returns how many of the n it
 * signalled: the caller submits the rest. */
static unsigned
signal_on_host(struct cuvk_context *ctx, struct cuvk_external_semaphore *const *sems,
               const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *params, unsigned n)
{
   if (!ctx->host_semaphore_ops || ctx->fault_error != CUDA_SUCCESS)
      return 0;
   for (unsigned i = 0; i < n; i++)
      if (sems[i]->semaphore && !sems[i]->timeline)
         return 0;
   if (!cuvk_submit_host_turn(ctx))
      return 0;
   for (unsigned i = 0; i < n; i++) {
      struct cuvk_external_semaphore *sem = sems[i];
      uint64_t value = params[i].params.fence.value;
      if (sem->xsem) {
         if (!sem->timeline)
            cuvk_xsem_enqueue_signal(sem->xsem);
         else if (!cuvk_xsem_enqueue_timeline_signal(sem->xsem, value))
            cuvk_logw("cuSignalExternalSemaphoresAsync: another process enqueued a signal to %llu or above "
                      "meanwhile; signalling anyway", (unsigned long long)value);
         cuvk_xsem_signal(sem->xsem, value);
         continue;
      }
      VkSemaphoreSignalInfo info = {
         .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
         .semaphore = sem->semaphore,
         .value = value,
      };
      /* The validation layers of Vulkan SDK 1.3.239 (Debian 12's) take
       * every read of an imported timeline's counter, and every host
       * signal of it, for a signal still pending that nothing retires,
       * and then flag the next host signal as not below it (03259).  The
       * probe in docs/semaphores.md shows it without cuvk: import,
       * vkGetSemaphoreCounterValue, vkSignalSemaphore(1). */
      cuvk_driver_quirk_begin("VUID-VkSemaphoreSignalInfo-value-03259", (uint64_t)sem->semaphore);
      VkResult vr = vkSignalSemaphore(ctx->vk, &info);
      cuvk_driver_quirk_end();
      if (vr != VK_SUCCESS) {
         cuvk_logw("cuSignalExternalSemaphoresAsync: vkSignalSemaphore failed (VkResult %d); "
                   "signalling through the queue instead", vr);
         return i;
      }
      sem->max_signal = value;
   }
   return n;
}

static CUresult
signal_locked(struct cuvk_context *ctx, struct cuvk_stream *stream, struct cuvk_external_semaphore **sems,
              const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *params, unsigned n)
{
   const char *entry = "cuSignalExternalSemaphoresAsync";
   struct cuvk_submit_sem native[MAX_SEMAPHORES_PER_CALL];
   struct cuvk_host_op *ops[MAX_SEMAPHORES_PER_CALL] = { 0 };
   uint32_t native_count = 0, op_count = 0;
   CUresult res = CUDA_SUCCESS;

   /* Timeline values must rise: above what the semaphore has and what is
    * enqueued already, this call's earlier entries included.  Checked
    * for all before anything is enqueued. */
   for (unsigned i = 0; i < n; i++) {
      struct cuvk_external_semaphore *sem = sems[i];
      if (!sem->timeline)
         continue;
      uint64_t v = params[i].params.fence.value;
      uint64_t floor;
      if (sem->xsem) {
         floor = CUVK_MAX(cuvk_xsem_pending_max(sem->xsem), cuvk_xsem_value(sem->xsem));
      } else {
         uint64_t now = 0;
         vkGetSemaphoreCounterValue(ctx->vk, sem->semaphore, &now);
         floor = CUVK_MAX(sem->max_signal, now);
      }
      for (unsigned j = 0; j < i; j++)
         if (sems[j] == sem)
            floor = CUVK_MAX(floor, params[j].params.fence.value);
      if (v <= floor)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                           "%s: timeline semaphore %p signalled to %llu, not above %llu that it has or is "
                           "signalled to already (Vulkan timelines cannot go backwards)",
                           entry, (void *)sem, (unsigned long long)v, (unsigned long long)floor);
   }

   unsigned on_host = signal_on_host(ctx, sems, params, n);
   if (on_host == n)
      return CUDA_SUCCESS;
   sems += on_host;
   params += on_host;
   n -= on_host;

   for (unsigned i = 0; i < n; i++) {
      if (!sems[i]->xsem)
         continue;
      ops[op_count] = calloc(1, sizeof(struct cuvk_host_op));
      struct xsem_op *data = malloc(sizeof(*data));
      if (!ops[op_count] || !data) {
         free(data);
         res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
         goto fail;
      }
      data->xsem = cuvk_xsem_ref(sems[i]->xsem);
      data->value = params[i].params.fence.value;
      ops[op_count]->fn = xsem_op_signal;
      ops[op_count]->data = data;
      op_count++;
   }

   for (unsigned i = 0; i < n; i++) {
      struct cuvk_external_semaphore *sem = sems[i];
      if (sem->semaphore) {
         native[native_count].semaphore = sem->semaphore;
         native[native_count].value = params[i].params.fence.value;
         native_count++;
         if (sem->timeline)
            sem->max_signal = params[i].params.fence.value;
      }
   }
   if (native_count)
      res = cuvk_submit_semaphores(ctx, stream, NULL, 0, native, native_count);
   else
      res = cuvk_submit_mark(ctx, stream, true);
   if (res != CUDA_SUCCESS)
      goto fail;

   /* The emulated signals happen on the host once the GPU is past
    * everything recorded so far. */
   uint64_t after = stream->last_value;
   for (unsigned i = 0, k = 0; i < n; i++) {
      struct cuvk_external_semaphore *sem = sems[i];
      if (!sem->xsem)
         continue;
      if (sem->timeline) {
         if (!cuvk_xsem_enqueue_timeline_signal(sem->xsem, params[i].params.fence.value))
            cuvk_logw("%s: another process enqueued a signal to %llu or above meanwhile; signalling anyway",
                      entry, (unsigned long long)params[i].params.fence.value);
      } else {
         cuvk_xsem_enqueue_signal(sem->xsem);
      }
      ops[k]->after = after;
      /* Cannot fail once the worker runs; if it cannot start, the op's
       * data is released unsignalled. */
      CUresult pushed = cuvk_host_queue_push(ctx, ops[k]);
      if (pushed != CUDA_SUCCESS) {
         ops[k]->fn(ops[k]->data, true);
         free(ops[k]);
         res = pushed;
      }
      ops[k++] = NULL;
   }
   return res;

fail:
   for (unsigned k = 0; k < op_count; k++) {
      if (ops[k]) {
         if (ops[k]->data)
            xsem_op_release(ops[k]->data, true);
         free(ops[k]);
      }
   }
   return res;
}

/* A wait on native timeline semaphores or on emulated ones is held on
 * the host until the context records more (external_semaphore_held.c);
 * the host cannot wait for a native binary semaphore.  Lock held; false
 * leaves the wait to the queue. */
static bool
hold_on_host(struct cuvk_context *ctx, struct cuvk_stream *stream, struct cuvk_external_semaphore *const *sems,
             const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *params, unsigned n)
{
   uint64_t values[MAX_SEMAPHORES_PER_CALL];

   if (!ctx->host_semaphore_ops || ctx->fault_error != CUDA_SUCCESS)
      return false;
   for (unsigned i = 0; i < n; i++) {
      if (sems[i]->semaphore && !sems[i]->timeline)
         return false;
      values[i] = sems[i]->timeline ? params[i].params.fence.value : 0;
   }
   return cuvk_held_waits_add(ctx, stream, sems, values, n);
}

CUresult
cuvk_external_semaphore_wait_submit(struct cuvk_context *ctx, struct cuvk_stream *stream,
                                    struct cuvk_external_semaphore *const *sems, const uint64_t *values,
                                    unsigned n)
{
   const char *entry = "cuWaitExternalSemaphoresAsync";
   struct cuvk_submit_sem waits[MAX_SEMAPHORES_PER_CALL + 1] = { 0 };
   struct cuvk_host_op *ops[MAX_SEMAPHORES_PER_CALL] = { 0 };
   uint32_t wait_count = 0, op_count = 0;
   bool has_native = false;
   CUresult res = CUDA_SUCCESS;

   for (unsigned i = 0; i < n; i++) {
      if (!sems[i]->xsem)
         continue;
      ops[op_count] = calloc(1, sizeof(struct cuvk_host_op));
      struct xsem_op *data = malloc(sizeof(*data));
      if (!ops[op_count] || !data) {
         free(data);
         res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
         goto fail;
      }
      data->xsem = cuvk_xsem_ref(sems[i]->xsem);
      data->value = values[i];
      ops[op_count]->wait = xsem_op_wait;
      ops[op_count]->fn = xsem_op_release;
      ops[op_count]->data = data;
      op_count++;
   }

   /* Nothing below fails before the ops are queued, so a binary wait's
    * number is only taken when the wait will happen. */
   uint64_t gate = 0;
   for (unsigned i = 0, k = 0; i < n; i++) {
      struct cuvk_external_semaphore *sem = sems[i];
      if (sem->semaphore) {
         waits[wait_count].semaphore = sem->semaphore;
         waits[wait_count].value = sem->timeline ? values[i] : 0;
         wait_count++;
         has_native = true;
         continue;
      }
      struct xsem_op *data = ops[k]->data;
      if (!sem->timeline && !data->value)
         data->value = cuvk_xsem_enqueue_wait(sem->xsem);
      gate = ops[k]->gate = cuvk_host_queue_next_gate(ctx);
      res = cuvk_host_queue_push(ctx, ops[k]);
      if (res != CUDA_SUCCESS) {
         /* The gate value was handed out: signal it anyway (the GPU
          * must not wait for a value nobody will signal). */
         cuvk_loge("%s: cannot queue the wait; it is skipped", entry);
         VkSemaphoreSignalInfo sig = {
            .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
            .semaphore = ctx->host_queue.gate,
            .value = gate,
         };
         vkSignalSemaphore(ctx->vk, &sig);
         xsem_op_release(ops[k]->data, true);
         free(ops[k]);
      }
      ops[k++] = NULL;
   }
   /* The worker signals gate values in order: the highest covers all. */
   if (gate) {
      waits[wait_count].semaphore = ctx->host_queue.gate;
      waits[wait_count].value = gate;
      wait_count++;
   }
   CUresult submitted = cuvk_submit_semaphores(ctx, stream, waits, wait_count, NULL, 0);
   if (submitted == CUDA_SUCCESS && has_native)
      ctx->native_wait_value = stream->last_value;
   return res != CUDA_SUCCESS ? res : submitted;

fail:
   for (unsigned k = 0; k < op_count; k++) {
      if (ops[k]) {
         if (ops[k]->data)
            xsem_op_release(ops[k]->data, true);
         free(ops[k]);
      }
   }
   return res;
}

static CUresult
wait_locked(struct cuvk_context *ctx, struct cuvk_stream *stream, struct cuvk_external_semaphore **sems,
            const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *params, unsigned n)
{
   uint64_t values[MAX_SEMAPHORES_PER_CALL];

   if (hold_on_host(ctx, stream, sems, params, n))
      return CUDA_SUCCESS;
   /* Binary emulated waits take their number once they cannot fail. */
   for (unsigned i = 0; i < n; i++)
      values[i] = sems[i]->timeline ? params[i].params.fence.value : 0;
   return cuvk_external_semaphore_wait_submit(ctx, stream, sems, values, n);
}

/* Every params entry's flags must be 0; the two params structs differ,
 * so the caller says where flags sits in its own. */
static CUresult
check_params_flags(const void *params, size_t stride, size_t flags_offset, unsigned n, const char *entry)
{
   for (unsigned i = 0; i < n; i++) {
      unsigned int flags;
      memcpy(&flags, (const char *)params + i * stride + flags_offset, sizeof(flags));
      if (flags != 0)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: paramsArray[%u].flags must be 0, got 0x%x", entry,
                           i, flags);
   }
   return CUDA_SUCCESS;
}

/* Everything signal and wait check before taking the context lock:
 * the arguments, each params entry's flags (flags_offset in a params
 * struct of stride bytes) and duplicated native semaphores. */
static CUresult
check_submission(const CUexternalSemaphore *sems, const void *params, size_t stride, size_t flags_offset,
                 unsigned n, CUstream hstream, const char *entry, struct cuvk_context **ctx,
                 struct cuvk_stream **stream, struct cuvk_external_semaphore **held)
{
   CUresult res = check_call(sems, params, n, hstream, entry, ctx, stream, held);
   if (res != CUDA_SUCCESS)
      return res;
   res = check_params_flags(params, stride, flags_offset, n, entry);
   if (res == CUDA_SUCCESS)
      res = check_native_duplicates(held, n, entry);
   if (res != CUDA_SUCCESS)
      semaphores_put(held, n);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuSignalExternalSemaphoresAsync(const CUexternalSemaphore *extSemArray,
                                const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray,
                                unsigned int numExtSems, CUstream hstream)
{
   const char *entry = "cuSignalExternalSemaphoresAsync";
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   /* References: a destroy on another thread takes effect after this
    * call, whose submission the deferred free then waits for. */
   struct cuvk_external_semaphore *held[MAX_SEMAPHORES_PER_CALL];

   CUresult res = check_submission(extSemArray, paramsArray, sizeof(*paramsArray), offsetof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS, flags),
                                   numExtSems, hstream, entry, &ctx, &stream, held);
   if (res != CUDA_SUCCESS)
      return res;

   pthread_mutex_lock(&ctx->lock);
   res = signal_locked(ctx, stream, held, paramsArray, numExtSems);
   pthread_mutex_unlock(&ctx->lock);
   semaphores_put(held, numExtSems);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuWaitExternalSemaphoresAsync(const CUexternalSemaphore *extSemArray,
                              const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray,
                              unsigned int numExtSems, CUstream hstream)
{
   const char *entry = "cuWaitExternalSemaphoresAsync";
   struct cuvk_context *ctx = NULL;
   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   /* References: a destroy on another thread takes effect after this
    * call, whose submission the deferred free then waits for. */
   struct cuvk_external_semaphore *held[MAX_SEMAPHORES_PER_CALL];

   CUresult res = check_submission(extSemArray, paramsArray, sizeof(*paramsArray), offsetof(CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS, flags),
                                   numExtSems, hstream, entry, &ctx, &stream, held);
   if (res != CUDA_SUCCESS)
      return res;

   pthread_mutex_lock(&ctx->lock);
   res = wait_locked(ctx, stream, held, paramsArray, numExtSems);
   pthread_mutex_unlock(&ctx->lock);
   semaphores_put(held, numExtSems);
   return res;
}
