#include "cuda_api/submit.h"

#include <assert.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuda_api/host_queue.h"
#include "cuda_api/module.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

/* A batch this full is submitted even while the GPU is busy, so a long
 * stream of small commands still reaches the GPU in bounded chunks. */
#define BATCH_MAX_COMMANDS 64u

/* Back-pressure (docs/design.md, "Memory accounting and back-pressure").
 * A host that queues faster than the device runs would otherwise pile up
 * submitted batches, and with them every allocation freed behind them,
 * without bound.  Past this many submitted batches (up to 64 commands
 * each, so about a thousand commands in flight, the order of CUDA's own
 * queue depth) recording waits for the oldest. */
#define SUBMIT_MAX_PENDING 16u
/* Freed memory waiting for the GPU that an allocation tolerates before it
 * waits: an eighth of the device heap, at least 64 MiB, at most 1 GiB. */
#define DEFERRED_LIMIT_MIN (64ull << 20)
#define DEFERRED_LIMIT_MAX (1ull << 30)

/* How long a wait polls before it sleeps, with the default (auto)
 * scheduling flags: long enough to cover a typical copy, short enough not
 * to burn a core on a long wait. */
#define SUBMIT_AUTO_SPIN_NS 2000000ull

static const VkPipelineStageFlags work_stages =
   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
static const VkAccessFlags work_writes =
   VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
static const VkAccessFlags work_access =
   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
   VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;

CUresult
cuvk_submit_init(struct cuvk_context *ctx)
{
   struct cuvk_submit *s = &ctx->submit;
   VkResult vr;

   cuvk_list_init(&s->pending);
   cuvk_list_init(&s->free);
   s->open = NULL;
   s->next_value = 1;
   s->last_submitted = 0;
   s->completed = 0;
   s->hold = 0;
   s->bind_wait = 0;
   s->pending_count = 0;
   s->deferred_bytes = 0;
   s->deferred_limit = CUVK_MIN(CUVK_MAX(ctx->dev->device_heap_size / 8, DEFERRED_LIMIT_MIN),
                                DEFERRED_LIMIT_MAX);

   VkCommandPoolCreateInfo pool_info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
      .queueFamilyIndex = ctx->dev->queue_family,
   };
   vr = vkCreateCommandPool(ctx->vk, &pool_info, NULL, &s->pool);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkCreateCommandPool");

   VkSemaphoreTypeCreateInfo type_info = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
      .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
      .initialValue = 0,
   };
   VkSemaphoreCreateInfo sem_info = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
      .pNext = &type_info,
   };
   vr = vkCreateSemaphore(ctx->vk, &sem_info, NULL, &s->timeline);
   if (vr != VK_SUCCESS) {
      vkDestroyCommandPool(ctx->vk, s->pool, NULL);
      return cuvk_vk_error(vr, "vkCreateSemaphore");
   }
   return CUDA_SUCCESS;
}

static void
batch_run_deferred(struct cuvk_context *ctx, struct cuvk_batch *batch)
{
   ctx->submit.deferred_bytes -= batch->deferred_bytes;
   batch->deferred_bytes = 0;
   cuvk_list_for_each_entry_safe(struct cuvk_deferred, d, &batch->deferred, link) {
      cuvk_list_del(&d->link);
      d->fn(ctx, d->data);
   }
}

void
cuvk_submit_retire(struct cuvk_context *ctx)
{
   struct cuvk_submit *s = &ctx->submit;
   uint64_t value;

   if (cuvk_list_is_empty(&s->pending))
      return;
   if (vkGetSemaphoreCounterValue(ctx->vk, s->timeline, &value) == VK_SUCCESS)
      __atomic_store_n(&s->completed, CUVK_MAX(s->completed, value), __ATOMIC_RELAXED);

   cuvk_list_for_each_entry_safe(struct cuvk_batch, b, &s->pending, link) {
      if (b->value > s->completed)
         break;
      batch_run_deferred(ctx, b);
      vkResetCommandBuffer(b->cmd, 0);
      cuvk_list_del(&b->link);
      cuvk_list_add(&b->link, &s->free);
      s->pending_count--;
   }
}

void
cuvk_submit_finish(struct cuvk_context *ctx)
{
   struct cuvk_submit *s = &ctx->submit;

   cuvk_submit_flush(ctx);
   if (s->last_submitted > s->completed) {
      VkSemaphoreWaitInfo wait = {
         .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
         .semaphoreCount = 1,
         .pSemaphores = &s->timeline,
         .pValues = &s->last_submitted,
      };
      vkWaitSemaphores(ctx->vk, &wait, UINT64_MAX);
   }
   cuvk_submit_retire(ctx);

   /* Whatever is still listed never ran (a failed submit); its deferred
    * work still has to release what it holds. */
   cuvk_list_for_each_entry_safe(struct cuvk_batch, b, &s->pending, link) {
      batch_run_deferred(ctx, b);
      cuvk_list_del(&b->link);
      free(b);
   }
   s->pending_count = 0;
   cuvk_list_for_each_entry_safe(struct cuvk_batch, b, &s->free, link) {
      cuvk_list_del(&b->link);
      free(b);
   }
   vkDestroySemaphore(ctx->vk, s->timeline, NULL);
   vkDestroyCommandPool(ctx->vk, s->pool, NULL);
}

/* A batch from the free list, or a new one with its command buffer. */
static CUresult
batch_get(struct cuvk_context *ctx, struct cuvk_batch **out)
{
   struct cuvk_submit *s = &ctx->submit;
   struct cuvk_batch *batch;
   VkResult vr;

   if (!cuvk_list_is_empty(&s->free)) {
      batch = cuvk_list_first_entry(&s->free, struct cuvk_batch, link);
      cuvk_list_del(&batch->link);
   } else {
      batch = calloc(1, sizeof(*batch));
      if (!batch)
         return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for a batch");
      VkCommandBufferAllocateInfo info = {
         .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
         .commandPool = s->pool,
         .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
         .commandBufferCount = 1,
      };
      vr = vkAllocateCommandBuffers(ctx->vk, &info, &batch->cmd);
      if (vr != VK_SUCCESS) {
         free(batch);
         return cuvk_vk_error(vr, "vkAllocateCommandBuffers");
      }
   }
   cuvk_list_init(&batch->deferred);
   cuvk_list_init(&batch->link);
   batch->command_count = 0;
   batch->deferred_bytes = 0;
   *out = batch;
   return CUDA_SUCCESS;
}

static CUresult
batch_open(struct cuvk_context *ctx)
{
   struct cuvk_submit *s = &ctx->submit;
   struct cuvk_batch *batch;
   VkResult vr;

   CUresult res = batch_get(ctx, &batch);
   if (res != CUDA_SUCCESS)
      return res;

   VkCommandBufferBeginInfo begin = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
   };
   vr = vkBeginCommandBuffer(batch->cmd, &begin);
   if (vr != VK_SUCCESS) {
      cuvk_list_add(&batch->link, &s->free);
      return cuvk_vk_error(vr, "vkBeginCommandBuffer");
   }
   batch->value = s->next_value++;
   s->open = batch;
   return CUDA_SUCCESS;
}

CUresult
cuvk_submit_record(struct cuvk_context *ctx, VkCommandBuffer *cmd, uint64_t *value)
{
   struct cuvk_submit *s = &ctx->submit;
   CUresult res;

   if (!s->open) {
      res = batch_open(ctx);
      if (res != CUDA_SUCCESS)
         return res;
   }

   /* The barrier's first scope is everything earlier in submission order
    * on this queue, earlier batches included: this one barrier is what
    * orders every command after every previous one. */
   VkMemoryBarrier barrier = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = work_writes,
      .dstAccessMask = work_access,
   };
   vkCmdPipelineBarrier(s->open->cmd, work_stages, work_stages, 0, 1, &barrier, 0, NULL, 0, NULL);

   *cmd = s->open->cmd;
   *value = s->open->value;
   return CUDA_SUCCESS;
}

/* Enters a submitted batch (or sparse binding step) in the pending list.
 * When the submit failed, the GPU will never signal its value: the host
 * signals it so waiters do not hang, and the failure is reported. */
static CUresult
batch_submitted(struct cuvk_context *ctx, struct cuvk_batch *batch, VkResult vr, const char *what)
{
   struct cuvk_submit *s = &ctx->submit;

   cuvk_list_addtail(&batch->link, &s->pending);
   s->pending_count++;
   s->last_submitted = batch->value;
   if (vr == VK_SUCCESS)
      return CUDA_SUCCESS;
   VkSemaphoreSignalInfo sig = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
      .semaphore = s->timeline,
      .value = batch->value,
   };
   vkSignalSemaphore(ctx->vk, &sig);
   return cuvk_vk_error(vr, what);
}

/* Most semaphores a cuvk_submit_semaphores call carries, the submission's
 * own timeline included.  CUDA calls carry one or a few. */
#define SUBMIT_MAX_SEMAPHORES 64u

/* Submits the open batch with extra semaphores to signal after its
 * commands (besides the timeline). */
static CUresult
batch_flush(struct cuvk_context *ctx, const struct cuvk_submit_sem *signals, uint32_t signal_count)
{
   struct cuvk_submit *s = &ctx->submit;
   struct cuvk_batch *batch = s->open;
   VkSemaphore signal_sems[SUBMIT_MAX_SEMAPHORES];
   uint64_t signal_values[SUBMIT_MAX_SEMAPHORES];
   VkResult vr;

   if (!batch)
      return CUDA_SUCCESS;
   s->open = NULL;
   assert(signal_count < SUBMIT_MAX_SEMAPHORES);
   for (uint32_t i = 0; i < signal_count; i++) {
      signal_sems[i] = signals[i].semaphore;
      signal_values[i] = signals[i].value;
   }
   signal_sems[signal_count] = s->timeline;
   signal_values[signal_count] = batch->value;

   /* Make the batch's writes visible to the host once it signals, for
    * readers that map the memory. */
   VkMemoryBarrier barrier = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = work_writes,
      .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(batch->cmd, work_stages, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier,
                        0, NULL, 0, NULL);

   vr = vkEndCommandBuffer(batch->cmd);
   if (vr == VK_SUCCESS) {
      /* After a sparse binding this batch waits for it; later batches
       * are ordered after this one's commands by their barriers. */
      VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
      bool wait = s->bind_wait != 0;
      VkTimelineSemaphoreSubmitInfo timeline = {
         .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
         .waitSemaphoreValueCount = wait ? 1 : 0,
         .pWaitSemaphoreValues = &s->bind_wait,
         .signalSemaphoreValueCount = signal_count + 1,
         .pSignalSemaphoreValues = signal_values,
      };
      VkSubmitInfo submit = {
         .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
         .pNext = &timeline,
         .waitSemaphoreCount = wait ? 1 : 0,
         .pWaitSemaphores = &s->timeline,
         .pWaitDstStageMask = &wait_stage,
         .commandBufferCount = 1,
         .pCommandBuffers = &batch->cmd,
         .signalSemaphoreCount = signal_count + 1,
         .pSignalSemaphores = signal_sems,
      };
      vr = vkQueueSubmit(ctx->queue, 1, &submit, VK_NULL_HANDLE);
      if (vr == VK_SUCCESS)
         s->bind_wait = 0;
   }
   return batch_submitted(ctx, batch, vr, "vkQueueSubmit");
}

CUresult
cuvk_submit_flush(struct cuvk_context *ctx)
{
   return batch_flush(ctx, NULL, 0);
}

CUresult
cuvk_submit_semaphores(struct cuvk_context *ctx,
                       const struct cuvk_submit_sem *waits, uint32_t wait_count,
                       const struct cuvk_submit_sem *signals, uint32_t signal_count)
{
   struct cuvk_submit *s = &ctx->submit;
   VkSemaphore wait_sems[SUBMIT_MAX_SEMAPHORES], signal_sems[SUBMIT_MAX_SEMAPHORES];
   uint64_t wait_values[SUBMIT_MAX_SEMAPHORES], signal_values[SUBMIT_MAX_SEMAPHORES];
   VkPipelineStageFlags wait_stages[SUBMIT_MAX_SEMAPHORES];
   struct cuvk_batch *step;
   CUresult res;

   if (wait_count >= SUBMIT_MAX_SEMAPHORES || signal_count >= SUBMIT_MAX_SEMAPHORES)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%u waits and %u signals at once; cuvk takes up to %u of each",
                        wait_count, signal_count, SUBMIT_MAX_SEMAPHORES - 1);
   /* Signals alone go with the open batch's commands: no extra submit. */
   if (wait_count == 0 && s->open)
      return batch_flush(ctx, signals, signal_count);

   res = cuvk_submit_flush(ctx);
   if (res != CUDA_SUCCESS)
      return res;
   res = batch_get(ctx, &step);
   if (res != CUDA_SUCCESS)
      return res;
   step->value = s->next_value++;

   for (uint32_t i = 0; i < wait_count; i++) {
      wait_sems[i] = waits[i].semaphore;
      wait_values[i] = waits[i].value;
      wait_stages[i] = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
   }
   for (uint32_t i = 0; i < signal_count; i++) {
      signal_sems[i] = signals[i].semaphore;
      signal_values[i] = signals[i].value;
   }
   signal_sems[signal_count] = s->timeline;
   signal_values[signal_count] = step->value;

   /* No command buffer and no wait for earlier batches: a signal's first
    * synchronisation scope holds every signal earlier in the queue's
    * signal order, so these signals follow all earlier batches' work and
    * the timeline still rises in order.  A wait, though, blocks only this
    * batch: later batches wait for the step's value (bind_wait). */
   VkTimelineSemaphoreSubmitInfo timeline = {
      .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
      .waitSemaphoreValueCount = wait_count,
      .pWaitSemaphoreValues = wait_values,
      .signalSemaphoreValueCount = signal_count + 1,
      .pSignalSemaphoreValues = signal_values,
   };
   VkSubmitInfo submit = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .pNext = &timeline,
      .waitSemaphoreCount = wait_count,
      .pWaitSemaphores = wait_sems,
      .pWaitDstStageMask = wait_stages,
      .signalSemaphoreCount = signal_count + 1,
      .pSignalSemaphores = signal_sems,
   };
   VkResult vr = vkQueueSubmit(ctx->queue, 1, &submit, VK_NULL_HANDLE);
   if (vr == VK_SUCCESS && wait_count)
      s->bind_wait = step->value;
   return batch_submitted(ctx, step, vr, "vkQueueSubmit");
}

CUresult
cuvk_submit_bind_sparse(struct cuvk_context *ctx, const VkSparseBufferMemoryBindInfo *binds,
                        uint32_t bind_count)
{
   struct cuvk_submit *s = &ctx->submit;
   struct cuvk_batch *step;

   /* What was recorded before goes first, so the binding can wait for it. */
   CUresult res = cuvk_submit_flush(ctx);
   if (res != CUDA_SUCCESS)
      return res;
   /* The binding takes a timeline value like a batch and sits in the
    * pending list like one, its command buffer unused, so deferred work
    * (freeing unbound memory) attaches to it and retiring passes it. */
   res = batch_get(ctx, &step);
   if (res != CUDA_SUCCESS)
      return res;
   step->value = s->next_value++;

   /* Signal values must rise in execution order, and an unbinding must
    * not pull memory from under earlier work: wait for all of it. */
   bool wait = s->last_submitted != 0;
   VkTimelineSemaphoreSubmitInfo timeline = {
      .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
      .waitSemaphoreValueCount = wait ? 1 : 0,
      .pWaitSemaphoreValues = &s->last_submitted,
      .signalSemaphoreValueCount = 1,
      .pSignalSemaphoreValues = &step->value,
   };
   VkBindSparseInfo info = {
      .sType = VK_STRUCTURE_TYPE_BIND_SPARSE_INFO,
      .pNext = &timeline,
      .waitSemaphoreCount = wait ? 1 : 0,
      .pWaitSemaphores = &s->timeline,
      .bufferBindCount = bind_count,
      .pBufferBinds = binds,
      .signalSemaphoreCount = 1,
      .pSignalSemaphores = &s->timeline,
   };
   VkResult vr = vkQueueBindSparse(ctx->queue, 1, &info, VK_NULL_HANDLE);
   if (vr == VK_SUCCESS)
      s->bind_wait = step->value;
   return batch_submitted(ctx, step, vr, "vkQueueBindSparse");
}

/* Submits the open batch when nothing else is in flight, so it starts at
 * once; otherwise it waits for company. */
static CUresult
flush_if_idle(struct cuvk_context *ctx)
{
   cuvk_submit_retire(ctx);
   if (cuvk_list_is_empty(&ctx->submit.pending))
      return cuvk_submit_flush(ctx);
   return CUDA_SUCCESS;
}

/* Waits, lock held, until at most SUBMIT_MAX_PENDING batches are in
 * flight.  Holding the lock keeps other threads of the context from
 * queueing meanwhile, as they would have to wait too; nothing the GPU
 * waits for needs this lock (cross-context waits are host waits). */
static CUresult
throttle_pending(struct cuvk_context *ctx)
{
   struct cuvk_submit *s = &ctx->submit;

   cuvk_submit_retire(ctx);
   while (s->pending_count > SUBMIT_MAX_PENDING) {
      struct cuvk_batch *oldest = cuvk_list_first_entry(&s->pending, struct cuvk_batch, link);
      VkSemaphoreWaitInfo wait = {
         .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
         .semaphoreCount = 1,
         .pSemaphores = &s->timeline,
         .pValues = &oldest->value,
      };
      VkResult vr = vkWaitSemaphores(ctx->vk, &wait, UINT64_MAX);
      if (vr != VK_SUCCESS)
         return cuvk_vk_error(vr, "vkWaitSemaphores for queued work");
      cuvk_submit_retire(ctx);
   }
   return CUDA_SUCCESS;
}

CUresult
cuvk_submit_commit(struct cuvk_context *ctx)
{
   struct cuvk_submit *s = &ctx->submit;
   CUresult res;

   s->open->command_count++;
   if (s->open->command_count >= BATCH_MAX_COMMANDS)
      res = cuvk_submit_flush(ctx);
   else
      res = s->hold ? CUDA_SUCCESS : flush_if_idle(ctx);
   if (res == CUDA_SUCCESS && s->pending_count > SUBMIT_MAX_PENDING)
      res = throttle_pending(ctx);
   return res;
}

void
cuvk_submit_hold(struct cuvk_context *ctx)
{
   pthread_mutex_lock(&ctx->lock);
   ctx->submit.hold++;
   pthread_mutex_unlock(&ctx->lock);
}

CUresult
cuvk_submit_release(struct cuvk_context *ctx, CUresult res)
{
   struct cuvk_submit *s = &ctx->submit;
   CUresult flushed = CUDA_SUCCESS;

   pthread_mutex_lock(&ctx->lock);
   assert(s->hold > 0);
   if (--s->hold == 0 && s->open)
      flushed = flush_if_idle(ctx);
   pthread_mutex_unlock(&ctx->lock);
   return res != CUDA_SUCCESS ? res : flushed;
}

uint64_t
cuvk_submit_last_value(struct cuvk_context *ctx)
{
   struct cuvk_submit *s = &ctx->submit;
   return s->open ? s->open->value : s->last_submitted;
}

void
cuvk_submit_defer(struct cuvk_context *ctx, struct cuvk_deferred *node)
{
   cuvk_submit_defer_bytes(ctx, node, 0);
}

void
cuvk_submit_defer_bytes(struct cuvk_context *ctx, struct cuvk_deferred *node, VkDeviceSize bytes)
{
   struct cuvk_submit *s = &ctx->submit;
   uint64_t value;

   /* No retiring here: deferred work runs inside cuvk_submit_retire's
    * walk of the pending list and may defer more.  Polling the counter
    * leaves the lists alone. */
   if (vkGetSemaphoreCounterValue(ctx->vk, s->timeline, &value) == VK_SUCCESS)
      __atomic_store_n(&s->completed, CUVK_MAX(s->completed, value), __ATOMIC_RELAXED);

   if (cuvk_submit_last_value(ctx) <= s->completed) {
      node->fn(ctx, node->data);
      return;
   }
   /* The newest batch: open, else the last submitted, which is not the
    * one a running retire is walking (that one is complete). */
   struct cuvk_batch *batch = s->open ? s->open :
      cuvk_container_of(s->pending.prev, struct cuvk_batch, link);
   cuvk_list_addtail(&node->link, &batch->deferred);
   node->bytes = bytes;
   batch->deferred_bytes += bytes;
   s->deferred_bytes += bytes;
}

bool
cuvk_submit_has_deferred_frees(struct cuvk_context *ctx)
{
   return ctx->submit.deferred_bytes > 0;
}

CUresult
cuvk_submit_throttle_frees(struct cuvk_context *ctx)
{
   struct cuvk_submit *s = &ctx->submit;

   for (;;) {
      pthread_mutex_lock(&ctx->lock);
      cuvk_submit_retire(ctx);
      uint64_t value = 0;
      if (s->deferred_bytes > s->deferred_limit) {
         /* The oldest work first: each wait retires at least a batch. */
         if (!cuvk_list_is_empty(&s->pending))
            value = cuvk_list_first_entry(&s->pending, struct cuvk_batch, link)->value;
         else if (s->open)
            value = s->open->value;
      }
      pthread_mutex_unlock(&ctx->lock);
      if (value == 0)
         return CUDA_SUCCESS;
      CUresult res = cuvk_submit_wait(ctx, value);
      if (res != CUDA_SUCCESS)
         return res;
   }
}

CUresult
cuvk_submit_is_done(struct cuvk_context *ctx, uint64_t value, bool *done)
{
   struct cuvk_submit *s = &ctx->submit;
   CUresult res = CUDA_SUCCESS;

   pthread_mutex_lock(&ctx->lock);
   if (value > s->completed) {
      if (s->open && value >= s->open->value)
         res = cuvk_submit_flush(ctx);
      cuvk_submit_retire(ctx);
   }
   *done = value <= s->completed;
   pthread_mutex_unlock(&ctx->lock);
   /* Work that is done may have faulted: a query reports it as a
    * synchronisation does (cuStreamQuery, cuEventQuery). */
   if (res == CUDA_SUCCESS && *done)
      res = cuvk_launch_fault(ctx);
   return res;
}

/* Blocks until the GPU has reached value. */
static CUresult
submit_wait_gpu(struct cuvk_context *ctx, uint64_t value)
{
   struct cuvk_submit *s = &ctx->submit;
   CUresult res = CUDA_SUCCESS;
   VkResult vr;

   /* Reached already (another call polled the counter): still retire, so
    * that what was deferred behind it (a destroyed semaphore's fd, freed
    * memory) is gone when a synchronising call returns. */
   if (value <= __atomic_load_n(&s->completed, __ATOMIC_RELAXED))
      goto done;

   pthread_mutex_lock(&ctx->lock);
   if (s->open && value >= s->open->value)
      res = cuvk_submit_flush(ctx);
   pthread_mutex_unlock(&ctx->lock);
   if (res != CUDA_SUCCESS)
      return res;

   /* CUDA's scheduling flags: spin (the default "auto" spins a while
    * first), yield while polling, or block.  Spinning keeps the host
    * ready to submit the next command the moment this one completes, so a
    * loop of GPU work leaves the GPU no idle gaps to clock down in. */
   unsigned sched = ctx->flags & CU_CTX_SCHED_MASK;
   uint64_t spin_ns = sched == CU_CTX_SCHED_BLOCKING_SYNC ? 0 :
                      sched == CU_CTX_SCHED_SPIN || sched == CU_CTX_SCHED_YIELD ? UINT64_MAX :
                      /* On a CPU device the spinning core is one the
                       * driver's own threads need. */
                      ctx->dev->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? 0 :
                      SUBMIT_AUTO_SPIN_NS;
   if (spin_ns) {
      struct timespec t0, t;
      clock_gettime(CLOCK_MONOTONIC, &t0);
      for (;;) {
         uint64_t now_value;
         if (vkGetSemaphoreCounterValue(ctx->vk, s->timeline, &now_value) == VK_SUCCESS &&
             now_value >= value)
            goto done;
         if (sched == CU_CTX_SCHED_YIELD)
            sched_yield();
         clock_gettime(CLOCK_MONOTONIC, &t);
         uint64_t ns = (uint64_t)(t.tv_sec - t0.tv_sec) * 1000000000ull + (uint64_t)(t.tv_nsec - t0.tv_nsec);
         if (ns >= spin_ns)
            break;
      }
   }

   VkSemaphoreWaitInfo wait = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
      .semaphoreCount = 1,
      .pSemaphores = &s->timeline,
      .pValues = &value,
   };
   vr = vkWaitSemaphores(ctx->vk, &wait, UINT64_MAX);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkWaitSemaphores");

done:

   pthread_mutex_lock(&ctx->lock);
   cuvk_submit_retire(ctx);
   pthread_mutex_unlock(&ctx->lock);
   return CUDA_SUCCESS;
}

CUresult
cuvk_submit_wait(struct cuvk_context *ctx, uint64_t value)
{
   CUresult res = submit_wait_gpu(ctx, value);
   if (res != CUDA_SUCCESS)
      return res;
   /* Work up to value includes what the host does after the GPU reached
    * it: host functions and the signals of emulated semaphores.  A caller
    * that synchronised must see them done (a signal visible to the
    * exporter, a callback returned). */
   cuvk_host_queue_wait_through(ctx, value);
   /* Every synchronisation prints what kernels printf'ed, as CUDA does. */
   cuvk_printf_flush(ctx);
   /* A kernel that faulted in the work waited for makes the wait, and
    * every later one, fail as on CUDA. */
   return cuvk_launch_fault(ctx);
}

CUresult
cuvk_submit_wait_idle(struct cuvk_context *ctx)
{
   pthread_mutex_lock(&ctx->lock);
   uint64_t value = cuvk_submit_last_value(ctx);
   pthread_mutex_unlock(&ctx->lock);
   return cuvk_submit_wait(ctx, value);
}
