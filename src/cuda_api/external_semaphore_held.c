/*
 * Waits on imported semaphores that the host holds instead of submitting.
 *
 * A cuWaitExternalSemaphoresAsync on native timeline semaphores, or on
 * the layer's emulated ones (util/xsem.h), only has
 * to order what the stream does next.  Until the stream (or any other
 * stream of the context) records more, nothing on the GPU depends on it,
 * so cuvk keeps it on the host: the next recording in the context submits
 * it as an ordinary wait first, and a synchronisation that finds it still
 * held waits for the semaphore on the host.  A wait followed by a
 * synchronisation then costs one vkWaitSemaphores on the semaphore itself
 * instead of a queue submission, a GPU-side wait and a wake-up through
 * the lane's timeline (docs/semaphores.md has the figures).
 *
 * Lifetime: a held wait names its stream and semaphore without a
 * reference.  Destroying either submits the held waits first (under the
 * context lock, as they are taken), so the GPU then holds what it needs
 * and the deferred free waits for it.  A host wait outside the lock
 * counts itself in sem->host_waiters; a semaphore released meanwhile is
 * freed by the last such waiter instead.
 */
#include <stdlib.h>

#include "cuda_api/context.h"
#include "cuda_api/external_semaphore.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"
#include "util/xsem.h"

/* Most waits one synchronisation collects; more are waited in rounds. */
#define HELD_WAIT_BATCH 64u

struct cuvk_held_wait {
   struct cuvk_list link;        /* in ctx->held_waits */
   struct cuvk_stream *stream;
   struct cuvk_external_semaphore *sem;
   uint64_t value;
};

bool
cuvk_held_waits_add(struct cuvk_context *ctx, struct cuvk_stream *stream,
                    struct cuvk_external_semaphore *const *sems, const uint64_t *values, unsigned n)
{
   struct cuvk_held_wait *waits[64];

   if (n > CUVK_ARRAY_SIZE(waits))
      return false;
   for (unsigned i = 0; i < n; i++) {
      waits[i] = malloc(sizeof(*waits[i]));
      if (!waits[i]) {
         for (unsigned j = 0; j < i; j++)
            free(waits[j]);
         return false;
      }
   }
   for (unsigned i = 0; i < n; i++) {
      waits[i]->stream = stream;
      waits[i]->sem = sems[i];
      /* An emulated binary wait's number, taken now that it will happen. */
      waits[i]->value = values[i] || sems[i]->timeline ? values[i] : cuvk_xsem_enqueue_wait(sems[i]->xsem);
      cuvk_list_addtail(&waits[i]->link, &ctx->held_waits);
   }
   ctx->held_wait_count += n;
   return true;
}

CUresult
cuvk_held_waits_submit(struct cuvk_context *ctx)
{
   struct cuvk_list list;
   CUresult res = CUDA_SUCCESS;

   /* Take them all first: the submissions below must not come back here. */
   cuvk_list_init(&list);
   cuvk_list_for_each_entry_safe(struct cuvk_held_wait, w, &ctx->held_waits, link) {
      cuvk_list_del(&w->link);
      cuvk_list_addtail(&w->link, &list);
   }
   ctx->held_wait_count = 0;

   while (!cuvk_list_is_empty(&list)) {
      struct cuvk_held_wait *first = cuvk_list_first_entry(&list, struct cuvk_held_wait, link);
      struct cuvk_stream *stream = first->stream;
      struct cuvk_external_semaphore *sems[HELD_WAIT_BATCH];
      uint64_t values[HELD_WAIT_BATCH];
      uint32_t count = 0;

      /* One step per stream and round, in the order they were held. */
      cuvk_list_for_each_entry_safe(struct cuvk_held_wait, w, &list, link) {
         if (w->stream != stream || count == HELD_WAIT_BATCH)
            continue;
         sems[count] = w->sem;
         values[count] = w->value;
         count++;
         cuvk_list_del(&w->link);
         free(w);
      }
      CUresult r = cuvk_external_semaphore_wait_submit(ctx, stream, sems, values, count);
      if (r != CUDA_SUCCESS) {
         cuvk_loge("cuWaitExternalSemaphoresAsync: a held wait on %u semaphores could not be submitted; "
                   "the stream's later work does not wait for it", count);
         if (res == CUDA_SUCCESS)
            res = r;
      }
   }
   return res;
}

/* Whether sem has reached value; the host's view, no blocking. */
static bool
held_wait_reached(struct cuvk_context *ctx, const struct cuvk_held_wait *w)
{
   if (w->sem->xsem)
      return cuvk_xsem_value(w->sem->xsem) >= w->value;
   uint64_t now = 0;
   return vkGetSemaphoreCounterValue(ctx->vk, w->sem->semaphore, &now) == VK_SUCCESS && now >= w->value;
}

void
cuvk_held_waits_drop(struct cuvk_context *ctx)
{
   cuvk_list_for_each_entry_safe(struct cuvk_held_wait, w, &ctx->held_waits, link) {
      cuvk_list_del(&w->link);
      free(w);
   }
   ctx->held_wait_count = 0;
}

/* Drops the held waits of stream (NULL: any) whose semaphore has reached
 * the value; true when none of them is left.  Lock held. */
static bool
held_waits_retire(struct cuvk_context *ctx, struct cuvk_stream *stream)
{
   bool done = true;

   cuvk_list_for_each_entry_safe(struct cuvk_held_wait, w, &ctx->held_waits, link) {
      if (stream && w->stream != stream)
         continue;
      if (held_wait_reached(ctx, w)) {
         cuvk_list_del(&w->link);
         ctx->held_wait_count--;
         free(w);
      } else {
         done = false;
      }
   }
   return done;
}

CUresult
cuvk_held_waits_query(struct cuvk_context *ctx, struct cuvk_stream *stream, bool *done)
{
   pthread_mutex_lock(&ctx->lock);
   *done = ctx->held_wait_count == 0 || held_waits_retire(ctx, stream);
   pthread_mutex_unlock(&ctx->lock);
   return CUDA_SUCCESS;
}

/* Blocks until sem reaches value. */
static VkResult
held_wait_block(struct cuvk_context *ctx, struct cuvk_external_semaphore *sem, uint64_t value)
{
   if (sem->xsem)
      return cuvk_xsem_wait(sem->xsem, value, CUVK_XSEM_WAIT_FOREVER) ? VK_SUCCESS : VK_TIMEOUT;
   VkSemaphoreWaitInfo info = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
      .semaphoreCount = 1,
      .pSemaphores = &sem->semaphore,
      .pValues = &value,
   };
   return vkWaitSemaphores(ctx->vk, &info, UINT64_MAX);
}

CUresult
cuvk_held_waits_wait(struct cuvk_context *ctx, struct cuvk_stream *stream)
{
   for (;;) {
      struct cuvk_external_semaphore *sems[HELD_WAIT_BATCH];
      uint64_t values[HELD_WAIT_BATCH];
      uint32_t count = 0;

      pthread_mutex_lock(&ctx->lock);
      if (ctx->held_wait_count == 0 || held_waits_retire(ctx, stream)) {
         pthread_mutex_unlock(&ctx->lock);
         return CUDA_SUCCESS;
      }
      cuvk_list_for_each_entry(struct cuvk_held_wait, w, &ctx->held_waits, link) {
         if ((stream && w->stream != stream) || count == HELD_WAIT_BATCH)
            continue;
         sems[count] = w->sem;
         values[count] = w->value;
         w->sem->host_waiters++;
         count++;
      }
      pthread_mutex_unlock(&ctx->lock);

      /* As a wait on the GPU would, this waits for as long as it takes:
       * a semaphore nobody signals hangs the synchronisation, as on CUDA.
       * One at a time: all must be reached, in any order. */
      VkResult vr = VK_SUCCESS;
      for (uint32_t i = 0; i < count && vr == VK_SUCCESS; i++)
         vr = held_wait_block(ctx, sems[i], values[i]);

      pthread_mutex_lock(&ctx->lock);
      for (uint32_t i = 0; i < count; i++)
         cuvk_external_semaphore_unwait(ctx, sems[i]);
      pthread_mutex_unlock(&ctx->lock);
      if (vr != VK_SUCCESS)
         return cuvk_error(vr == VK_ERROR_DEVICE_LOST ? CUDA_ERROR_LAUNCH_FAILED : CUDA_ERROR_UNKNOWN,
                           "synchronising: waiting for %u imported semaphores failed (VkResult %d)", count, vr);
   }
}
