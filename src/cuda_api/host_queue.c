/*
 * The per-context worker of host_queue.h.
 */
#include "cuda_api/host_queue.h"

#include <stdlib.h>

#include "cuda_api/context.h"
#include "util/error.h"
#include "util/log.h"

/* How long one blocking wait of the worker lasts before it looks at the
 * teardown flags again.  Only teardown waits for it: progress wakes the
 * worker at once. */
#define HOST_QUEUE_POLL_NS 20000000ull

CUresult
cuvk_host_queue_init(struct cuvk_context *ctx)
{
   struct cuvk_host_queue *q = &ctx->host_queue;

   pthread_mutex_init(&q->lock, NULL);
   pthread_cond_init(&q->cond, NULL);
   pthread_cond_init(&q->done, NULL);
   cuvk_list_init(&q->ops);
   q->running = false;
   q->stop = false;
   q->abandon = false;
   q->give_up = false;
   q->gate_next = 0;

   VkSemaphoreTypeCreateInfo type_info = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
      .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
      .initialValue = 0,
   };
   VkSemaphoreCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
      .pNext = &type_info,
   };
   VkResult vr = vkCreateSemaphore(ctx->vk, &info, NULL, &q->gate);
   if (vr != VK_SUCCESS) {
      pthread_cond_destroy(&q->done);
      pthread_cond_destroy(&q->cond);
      pthread_mutex_destroy(&q->lock);
      return cuvk_vk_error(vr, "vkCreateSemaphore (host queue gate)");
   }
   return CUDA_SUCCESS;
}

/* Blocks until the submission timeline reaches value; false when the
 * queue was told to give up first. */
static bool
host_queue_wait_timeline(struct cuvk_context *ctx, uint64_t value)
{
   struct cuvk_host_queue *q = &ctx->host_queue;
   /* value is a point (submit.h): a value of its lane's timeline. */
   uint64_t lane_value = cuvk_point_value(value);
   VkSemaphoreWaitInfo wait = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
      .semaphoreCount = 1,
      .pSemaphores = &ctx->submit.lanes[cuvk_point_lane(value)].timeline,
      .pValues = &lane_value,
   };
   for (;;) {
      VkResult vr = vkWaitSemaphores(ctx->vk, &wait, HOST_QUEUE_POLL_NS);
      if (vr == VK_SUCCESS)
         return true;
      if (vr != VK_TIMEOUT) {
         cuvk_vk_error(vr, "host queue: vkWaitSemaphores");
         return false;
      }
      if (__atomic_load_n(&q->give_up, __ATOMIC_ACQUIRE))
         return false;
   }
}

static void
host_queue_run(struct cuvk_context *ctx, struct cuvk_host_op *op)
{
   struct cuvk_host_queue *q = &ctx->host_queue;
   bool met = true;

   if (op->after)
      met = host_queue_wait_timeline(ctx, op->after);
   while (met && op->wait && !op->wait(op->data, HOST_QUEUE_POLL_NS)) {
      if (__atomic_load_n(&q->abandon, __ATOMIC_ACQUIRE))
         met = false;
   }
   if (op->fn)
      op->fn(op->data, !met);
   if (op->gate) {
      VkSemaphoreSignalInfo signal = {
         .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
         .semaphore = q->gate,
         .value = op->gate,
      };
      VkResult vr = vkSignalSemaphore(ctx->vk, &signal);
      if (vr != VK_SUCCESS)
         cuvk_vk_error(vr, "host queue: vkSignalSemaphore");
   }
}

static void *
host_queue_main(void *data)
{
   struct cuvk_context *ctx = data;
   struct cuvk_host_queue *q = &ctx->host_queue;

   pthread_mutex_lock(&q->lock);
   for (;;) {
      while (cuvk_list_is_empty(&q->ops) && !q->stop)
         pthread_cond_wait(&q->cond, &q->lock);
      if (cuvk_list_is_empty(&q->ops))
         break;
      struct cuvk_host_op *op = cuvk_list_first_entry(&q->ops, struct cuvk_host_op, link);
      /* Ops queued meanwhile go behind it; the op itself stays listed
       * until done, so teardown sees the queue busy. */
      pthread_mutex_unlock(&q->lock);
      host_queue_run(ctx, op);
      pthread_mutex_lock(&q->lock);
      cuvk_list_del(&op->link);
      free(op);
      pthread_cond_broadcast(&q->done);
   }
   pthread_mutex_unlock(&q->lock);
   return NULL;
}

uint64_t
cuvk_host_queue_next_gate(struct cuvk_context *ctx)
{
   return ++ctx->host_queue.gate_next;
}

CUresult
cuvk_host_queue_push(struct cuvk_context *ctx, struct cuvk_host_op *op)
{
   struct cuvk_host_queue *q = &ctx->host_queue;

   pthread_mutex_lock(&q->lock);
   if (!q->running) {
      int err = pthread_create(&q->thread, NULL, host_queue_main, ctx);
      if (err != 0) {
         pthread_mutex_unlock(&q->lock);
         return cuvk_error(CUDA_ERROR_OPERATING_SYSTEM, "cannot start the host function thread (error %d)", err);
      }
      q->running = true;
   }
   cuvk_list_addtail(&op->link, &q->ops);
   pthread_cond_signal(&q->cond);
   pthread_mutex_unlock(&q->lock);
   return CUDA_SUCCESS;
}

bool
cuvk_host_queue_is_empty(struct cuvk_context *ctx)
{
   struct cuvk_host_queue *q = &ctx->host_queue;

   pthread_mutex_lock(&q->lock);
   bool empty = cuvk_list_is_empty(&q->ops);
   pthread_mutex_unlock(&q->lock);
   return empty;
}

void
cuvk_host_queue_wait_through(struct cuvk_context *ctx, uint64_t value)
{
   struct cuvk_host_queue *q = &ctx->host_queue;

   pthread_mutex_lock(&q->lock);
   for (;;) {
      bool busy = false;
      cuvk_list_for_each_entry(struct cuvk_host_op, op, &q->ops, link) {
         /* Points of one lane only compare with each other.  An op with
          * no precondition (after point 0: its stream's lane had nothing
          * outstanding, or the host did the stream's work, transfer.c)
          * follows no GPU work, so it comes before any point: without
          * this an emulated signal on an idle stream was still queued,
          * its xsem reference and fd held, when cuCtxSynchronize
          * returned.  Host functions and waits, which may take long, are
          * left to the GPU step behind their gate. */
         bool free_op = !op->after && !op->wait && !op->gate;
         if (free_op || (op->after && cuvk_point_lane(op->after) == cuvk_point_lane(value) &&
                         op->after <= value)) {
            busy = true;
            break;
         }
      }
      /* Without a worker nothing would ever finish them; teardown
       * (cuvk_host_queue_finish) settles them instead. */
      if (!busy || !q->running)
         break;
      pthread_cond_wait(&q->done, &q->lock);
   }
   pthread_mutex_unlock(&q->lock);
}

void
cuvk_host_queue_abandon(struct cuvk_context *ctx, bool give_up)
{
   struct cuvk_host_queue *q = &ctx->host_queue;

   __atomic_store_n(&q->abandon, true, __ATOMIC_RELEASE);
   if (give_up)
      __atomic_store_n(&q->give_up, true, __ATOMIC_RELEASE);
}

void
cuvk_host_queue_stop(struct cuvk_context *ctx)
{
   struct cuvk_host_queue *q = &ctx->host_queue;

   pthread_mutex_lock(&q->lock);
   q->stop = true;
   pthread_cond_signal(&q->cond);
   bool running = q->running;
   q->running = false;
   pthread_mutex_unlock(&q->lock);
   if (running)
      pthread_join(q->thread, NULL);
}

void
cuvk_host_queue_finish(struct cuvk_context *ctx)
{
   struct cuvk_host_queue *q = &ctx->host_queue;

   cuvk_host_queue_stop(ctx);

   /* Ops queued but never started (no worker ran them) still own data. */
   cuvk_list_for_each_entry_safe(struct cuvk_host_op, op, &q->ops, link) {
      cuvk_list_del(&op->link);
      if (op->fn)
         op->fn(op->data, true);
      free(op);
   }
   vkDestroySemaphore(ctx->vk, q->gate, NULL);
   pthread_cond_destroy(&q->done);
   pthread_cond_destroy(&q->cond);
   pthread_mutex_destroy(&q->lock);
}
