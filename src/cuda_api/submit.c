#include "cuda_api/submit.h"

#include <assert.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuda_api/external_semaphore.h"
#include "cuda_api/host_queue.h"
#include "cuda_api/module.h"
#include "cuda_api/ring.h"
#include "util/clock.h"
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
/* A transfer lane's queue may have no compute stage (a copy-engine
 * family): its barriers name transfers only. */
static const VkPipelineStageFlags transfer_stages = VK_PIPELINE_STAGE_TRANSFER_BIT;
static const VkAccessFlags transfer_writes = VK_ACCESS_TRANSFER_WRITE_BIT;
static const VkAccessFlags transfer_access = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;

static struct cuvk_lane *
stream_lane(struct cuvk_context *ctx, const struct cuvk_stream *stream)
{
   return &ctx->submit.lanes[stream->lane];
}

static bool
stream_is_blocking(struct cuvk_context *ctx, const struct cuvk_stream *stream)
{
   return stream == &ctx->null_stream || !(stream->flags & CU_STREAM_NON_BLOCKING);
}

/* The newest value recorded on lane: the open batch, else the last
 * submitted one. */
static uint64_t
lane_last(const struct cuvk_lane *lane)
{
   return lane->open ? lane->open->value : lane->last_submitted;
}

/* Polls lane's counter into completed; touches no list. */
static void
lane_poll(struct cuvk_context *ctx, struct cuvk_lane *lane)
{
   uint64_t value;
   if (vkGetSemaphoreCounterValue(ctx->vk, lane->timeline, &value) == VK_SUCCESS)
      __atomic_store_n(&lane->completed, CUVK_MAX(lane->completed, value), __ATOMIC_RELAXED);
}

static CUresult
lane_init(struct cuvk_context *ctx, struct cuvk_lane *lane, uint32_t index, struct cuvk_queue *queue)
{
   VkResult vr;

   memset(lane, 0, sizeof(*lane));
   lane->index = index;
   lane->queue = queue;
   lane->next_value = 1;
   cuvk_list_init(&lane->pending);
   cuvk_list_init(&lane->free);

   VkCommandPoolCreateInfo pool_info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
      .queueFamilyIndex = queue->family,
   };
   vr = vkCreateCommandPool(ctx->vk, &pool_info, NULL, &lane->pool);
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
   vr = vkCreateSemaphore(ctx->vk, &sem_info, NULL, &lane->timeline);
   if (vr != VK_SUCCESS) {
      vkDestroyCommandPool(ctx->vk, lane->pool, NULL);
      return cuvk_vk_error(vr, "vkCreateSemaphore");
   }
   return CUDA_SUCCESS;
}

static void
lane_finish(struct cuvk_context *ctx, struct cuvk_lane *lane)
{
   cuvk_list_for_each_entry_safe(struct cuvk_batch, b, &lane->pending, link) {
      cuvk_list_del(&b->link);
      free(b);
   }
   lane->pending_count = 0;
   cuvk_list_for_each_entry_safe(struct cuvk_batch, b, &lane->free, link) {
      cuvk_list_del(&b->link);
      free(b);
   }
   vkDestroySemaphore(ctx->vk, lane->timeline, NULL);
   vkDestroyCommandPool(ctx->vk, lane->pool, NULL);
}

static void
queues_finish(struct cuvk_submit *s)
{
   for (uint32_t q = 0; q < s->queue_count; q++)
      pthread_mutex_destroy(&s->queues[q].lock);
   s->queue_count = 0;
}

/* Moves the round robin on to the next compute lane: the high lane is
 * given by priority, the transfer lanes by copy. */
static void
next_compute_lane(struct cuvk_submit *s)
{
   do
      s->next_lane = (s->next_lane + 1) % s->lane_count;
   while (s->next_lane == s->high_lane || (s->transfer_lane_count && s->next_lane >= s->transfer_lane));
}

/* How long a wait with the default scheduling flags polls before it
 * blocks.  On a GPU, 2 ms: long enough for a typical copy, and a host
 * ready the moment work ends keeps the GPU from clocking down between
 * operations (docs/design.md, copy engines).  On a CPU device nothing:
 * the polling core is one the driver's own threads need.
 * CUVK_WAIT_SPIN_US overrides, in microseconds; "max" polls to the end. */
static uint64_t
auto_spin_wanted(struct cuvk_context *ctx)
{
   uint64_t dflt = ctx->dev->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? 0 : SUBMIT_AUTO_SPIN_NS;
   const char *env = getenv("CUVK_WAIT_SPIN_US");
   if (!env || !*env)
      return dflt;
   if (strcmp(env, "max") == 0)
      return UINT64_MAX;
   char *end;
   unsigned long long us = strtoull(env, &end, 10);
   if (*end || us > UINT64_MAX / 1000) {
      cuvk_logw("CUVK_WAIT_SPIN_US=%s is not a number of microseconds or \"max\"; keeping %llu us", env,
                (unsigned long long)(dflt / 1000));
      return dflt;
   }
   return us * 1000;
}

/* CUVK_TRACE_SUBMIT: 1 prints the totals when the context goes, 2 also
 * a line per wait. */
static unsigned
trace_wanted(void)
{
   const char *env = getenv("CUVK_TRACE_SUBMIT");
   if (!env || !*env || strcmp(env, "0") == 0)
      return 0;
   if (strcmp(env, "1") == 0)
      return 1;
   if (strcmp(env, "2") == 0)
      return 2;
   cuvk_logw("CUVK_TRACE_SUBMIT=%s is not 0, 1 or 2; tracing off", env);
   return 0;
}

/* One wait's share of the trace, with what was recorded since the last;
 * lock held. */
static void
trace_wait_done(struct cuvk_context *ctx, uint64_t wait_ns, uint64_t polls, bool blocked, uint64_t after_ns)
{
   struct cuvk_submit_trace *t = &ctx->submit.trace;

   if (t->level >= 2)
      fprintf(stderr, "cuvk: trace: %u commands, %u submits, %u host ops: record %.2f us (submit %.2f us), "
              "wait %.2f us (%llu polls%s), after %.2f us\n", t->commands, t->submits, t->host_ops,
              (double)(t->record_ns - t->record_submit_ns) / 1e3, (double)t->submit_ns / 1e3,
              (double)wait_ns / 1e3, (unsigned long long)polls, blocked ? ", then blocked" : "",
              (double)after_ns / 1e3);
   t->total_host_ops += t->host_ops;
   if (t->commands == 0 && t->submits == 0) {
      t->idle_waits++;
      t->idle_wait_ns += wait_ns;
      t->idle_after_ns += after_ns;
   } else {
      t->total_record_ns += t->record_ns;
      t->total_record_submit_ns += t->record_submit_ns;
      t->total_submit_ns += t->submit_ns;
      t->total_wait_ns += wait_ns;
      t->total_after_ns += after_ns;
      t->total_commands += t->commands;
      t->total_submits += t->submits;
      t->total_waits++;
      t->total_polls += polls;
      t->total_blocks += blocked;
   }
   t->record_ns = t->submit_ns = t->record_submit_ns = 0;
   t->commands = t->submits = t->host_ops = 0;
}

static void
trace_print(struct cuvk_context *ctx)
{
   struct cuvk_submit_trace *t = &ctx->submit.trace;
   double waits = t->total_waits ? (double)t->total_waits : 1.0;

   t->total_record_ns += t->record_ns;
   t->total_record_submit_ns += t->record_submit_ns;
   t->total_submit_ns += t->submit_ns;
   t->total_commands += t->commands;
   t->total_submits += t->submits;
   t->total_host_ops += t->host_ops;
   double idle = t->idle_waits ? (double)t->idle_waits : 1.0;
   fprintf(stderr, "cuvk: trace: context totals: %llu commands, %llu submits, %llu waits for work "
           "(%llu blocked, %llu polls); per wait for work: record %.2f us, submit %.2f us, wait %.2f us, "
           "after %.2f us; %llu host ops, %llu waits with nothing recorded since the last: wait %.2f us, "
           "after %.2f us\n", (unsigned long long)t->total_commands, (unsigned long long)t->total_submits,
           (unsigned long long)t->total_waits, (unsigned long long)t->total_blocks,
           (unsigned long long)t->total_polls,
           (double)(t->total_record_ns - t->total_record_submit_ns) / 1e3 / waits,
           (double)t->total_submit_ns / 1e3 / waits, (double)t->total_wait_ns / 1e3 / waits,
           (double)t->total_after_ns / 1e3 / waits, (unsigned long long)t->total_host_ops,
           (unsigned long long)t->idle_waits, (double)t->idle_wait_ns / 1e3 / idle,
           (double)t->idle_after_ns / 1e3 / idle);
}

CUresult
cuvk_submit_init(struct cuvk_context *ctx)
{
   struct cuvk_submit *s = &ctx->submit;
   const struct cuvk_lane_plan *plan = &ctx->lane_plan;
   CUresult res;

   memset(s, 0, sizeof(*s));
   cuvk_list_init(&s->deferred);
   s->deferred_limit = CUVK_MIN(CUVK_MAX(ctx->dev->device_heap_size / 8, DEFERRED_LIMIT_MIN),
                                DEFERRED_LIMIT_MAX);
   for (uint32_t q = 0; q < plan->queue_count; q++) {
      struct cuvk_queue *queue = &s->queues[q];
      queue->family = plan->queue_family[q];
      queue->index = plan->queue_index[q];
      queue->priority = plan->queue_priority[q];
      vkGetDeviceQueue(ctx->vk, queue->family, queue->index, &queue->handle);
      pthread_mutex_init(&queue->lock, NULL);
      s->queue_count++;
   }
   s->lane_count = plan->lane_count;
   s->virtual_lanes = plan->virtual_lanes;
   s->high_lane = plan->high_lane;
   s->transfer_lane = plan->transfer_lane;
   s->transfer_lane_count = plan->transfer_lane_count;
   s->auto_spin_ns = auto_spin_wanted(ctx);
   s->trace.level = trace_wanted();
   /* The legacy stream has lane 0; new streams start after it. */
   s->next_lane = 0;
   next_compute_lane(s);
   for (uint32_t i = 0; i < s->lane_count; i++) {
      res = lane_init(ctx, &s->lanes[i], i, &s->queues[plan->lane_queue[i]]);
      s->lanes[i].transfer = s->transfer_lane_count && i >= s->transfer_lane;
      if (res != CUDA_SUCCESS) {
         while (i--)
            lane_finish(ctx, &s->lanes[i]);
         queues_finish(s);
         return res;
      }
   }
   if (s->lane_count > 1)
      cuvk_logd("%u lanes on %u queues%s: high-priority lane %d, %u transfer lanes (%s)", s->lane_count,
                s->queue_count, s->virtual_lanes ? " (some shared)" : "",
                s->high_lane == UINT32_MAX ? -1 : (int)s->high_lane, s->transfer_lane_count,
                plan->transfer_why);
   return CUDA_SUCCESS;
}

uint32_t
cuvk_submit_pick_lane(struct cuvk_context *ctx, int priority)
{
   struct cuvk_submit *s = &ctx->submit;
   if (priority < 0 && s->high_lane != UINT32_MAX)
      return s->high_lane;
   uint32_t lane = s->next_lane;
   next_compute_lane(s);
   return lane;
}

uint32_t
cuvk_submit_pick_transfer_lane(struct cuvk_context *ctx)
{
   struct cuvk_submit *s = &ctx->submit;
   return s->next_transfer_lane++;
}

/* vkQueueSubmit / vkQueueBindSparse under the queue's lock. */
static VkResult
queue_submit(struct cuvk_queue *queue, const VkSubmitInfo *submit)
{
   if (queue->ring)
      cuvk_ring_stop(queue->ring);
   pthread_mutex_lock(&queue->lock);
   VkResult vr = vkQueueSubmit(queue->handle, 1, submit, VK_NULL_HANDLE);
   pthread_mutex_unlock(&queue->lock);
   return vr;
}

static VkResult
queue_bind_sparse(struct cuvk_queue *queue, const VkBindSparseInfo *info)
{
   if (queue->ring)
      cuvk_ring_stop(queue->ring);
   pthread_mutex_lock(&queue->lock);
   VkResult vr = vkQueueBindSparse(queue->handle, 1, info, VK_NULL_HANDLE);
   pthread_mutex_unlock(&queue->lock);
   return vr;
}

static bool
deferred_due(struct cuvk_context *ctx, const struct cuvk_deferred *d)
{
   return cuvk_submit_frontier_passed(ctx, &d->frontier);
}

static void
deferred_run(struct cuvk_context *ctx, struct cuvk_deferred *d)
{
   ctx->submit.deferred_bytes -= d->bytes;
   d->bytes = 0;
   d->fn(ctx, d->data);
}

static void
lane_retire(struct cuvk_context *ctx, struct cuvk_lane *lane)
{
   if (cuvk_list_is_empty(&lane->pending))
      return;
   lane_poll(ctx, lane);
   cuvk_list_for_each_entry_safe(struct cuvk_batch, b, &lane->pending, link) {
      if (b->value > lane->completed)
         break;
      if (b->begun)
         vkResetCommandBuffer(b->cmd, 0);
      cuvk_list_del(&b->link);
      cuvk_list_add(&b->link, &lane->free);
      lane->pending_count--;
   }
}

void
cuvk_submit_retire(struct cuvk_context *ctx)
{
   struct cuvk_submit *s = &ctx->submit;

   for (uint32_t i = 0; i < s->lane_count; i++)
      lane_retire(ctx, &s->lanes[i]);
   /* Taken off the list before it runs: fn may defer more, which goes
    * to the tail. */
   while (!cuvk_list_is_empty(&s->deferred)) {
      struct cuvk_deferred *d = cuvk_list_first_entry(&s->deferred, struct cuvk_deferred, link);
      if (!deferred_due(ctx, d))
         break;
      cuvk_list_del(&d->link);
      deferred_run(ctx, d);
   }
}

void
cuvk_submit_finish(struct cuvk_context *ctx)
{
   struct cuvk_submit *s = &ctx->submit;

   cuvk_submit_flush(ctx);
   for (uint32_t i = 0; i < s->lane_count; i++) {
      struct cuvk_lane *lane = &s->lanes[i];
      if (lane->last_submitted > lane->completed) {
         VkSemaphoreWaitInfo wait = {
            .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
            .semaphoreCount = 1,
            .pSemaphores = &lane->timeline,
            .pValues = &lane->last_submitted,
         };
         vkWaitSemaphores(ctx->vk, &wait, UINT64_MAX);
      }
   }
   cuvk_submit_retire(ctx);

   /* Whatever is still listed waits for work that never ran (a failed
    * submit); it still has to release what it holds. */
   while (!cuvk_list_is_empty(&s->deferred)) {
      struct cuvk_deferred *d = cuvk_list_first_entry(&s->deferred, struct cuvk_deferred, link);
      cuvk_list_del(&d->link);
      deferred_run(ctx, d);
   }
   for (uint32_t i = 0; i < s->lane_count; i++)
      lane_finish(ctx, &s->lanes[i]);
   if (s->trace.level)
      trace_print(ctx);
   queues_finish(s);
}

/* A batch from the lane's free list, or a new one with its command
 * buffer. */
static CUresult
batch_get(struct cuvk_context *ctx, struct cuvk_lane *lane, struct cuvk_batch **out)
{
   struct cuvk_batch *batch;
   VkResult vr;

   if (!cuvk_list_is_empty(&lane->free)) {
      batch = cuvk_list_first_entry(&lane->free, struct cuvk_batch, link);
      cuvk_list_del(&batch->link);
   } else {
      batch = calloc(1, sizeof(*batch));
      if (!batch)
         return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for a batch");
      VkCommandBufferAllocateInfo info = {
         .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
         .commandPool = lane->pool,
         .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
         .commandBufferCount = 1,
      };
      vr = vkAllocateCommandBuffers(ctx->vk, &info, &batch->cmd);
      if (vr != VK_SUCCESS) {
         free(batch);
         return cuvk_vk_error(vr, "vkAllocateCommandBuffers");
      }
   }
   cuvk_list_init(&batch->link);
   batch->command_count = 0;
   batch->recorded = false;
   batch->begun = false;
   *out = batch;
   return CUDA_SUCCESS;
}

static CUresult
batch_open(struct cuvk_context *ctx, struct cuvk_lane *lane)
{
   struct cuvk_batch *batch;
   VkResult vr;

   CUresult res = batch_get(ctx, lane, &batch);
   if (res != CUDA_SUCCESS)
      return res;

   VkCommandBufferBeginInfo begin = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
   };
   vr = vkBeginCommandBuffer(batch->cmd, &begin);
   if (vr != VK_SUCCESS) {
      cuvk_list_add(&batch->link, &lane->free);
      return cuvk_vk_error(vr, "vkBeginCommandBuffer");
   }
   batch->begun = true;
   batch->value = lane->next_value++;
   lane->open = batch;
   return CUDA_SUCCESS;
}

/* Enters a submitted batch (or semaphore or sparse binding step) in the
 * lane's pending list.  When the submit failed, the GPU will never signal
 * its value: the host signals it so waiters do not hang, and the failure
 * is reported. */
static CUresult
batch_submitted(struct cuvk_context *ctx, struct cuvk_lane *lane, struct cuvk_batch *batch, VkResult vr,
                const char *what)
{
   cuvk_list_addtail(&batch->link, &lane->pending);
   lane->pending_count++;
   lane->last_submitted = batch->value;
   if (vr == VK_SUCCESS)
      return CUDA_SUCCESS;
   VkSemaphoreSignalInfo sig = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
      .semaphore = lane->timeline,
      .value = batch->value,
   };
   vkSignalSemaphore(ctx->vk, &sig);
   return cuvk_vk_error(vr, what);
}

/* Most semaphores a cuvk_submit_semaphores call carries, the submission's
 * own timeline included.  CUDA calls carry one or a few. */
#define SUBMIT_MAX_SEMAPHORES 64u

/* Appends lane's pending waits (other lanes' timelines and its own step)
 * to a wait list; returns the new count. */
static uint32_t
lane_take_waits(struct cuvk_context *ctx, struct cuvk_lane *lane, VkSemaphore *sems, uint64_t *values,
                VkPipelineStageFlags *stages, uint32_t count)
{
   struct cuvk_submit *s = &ctx->submit;
   for (uint32_t m = 0; m < s->lane_count; m++) {
      if (!lane->wait[m])
         continue;
      sems[count] = s->lanes[m].timeline;
      values[count] = lane->wait[m];
      stages[count] = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
      count++;
   }
   return count;
}

/* After a successful submit that carried the pending waits. */
static void
lane_waits_done(struct cuvk_context *ctx, struct cuvk_lane *lane)
{
   for (uint32_t m = 0; m < ctx->submit.lane_count; m++) {
      lane->waited[m] = CUVK_MAX(lane->waited[m], lane->wait[m]);
      lane->wait[m] = 0;
   }
}

/* The barrier every batch ends with: makes the batch's writes visible to
 * the host once it signals, for readers that map the memory, and to
 * every later command of the queue: a barrier's second scope is
 * everything later in submission order, later batches included, so the
 * first command of the lane's next batch needs no barrier of its own
 * (record_on). */
static void
record_end_barrier(const struct cuvk_lane *lane, VkCommandBuffer cmd)
{
   VkPipelineStageFlags stages = lane->transfer ? transfer_stages : work_stages;
   VkMemoryBarrier barrier = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = lane->transfer ? transfer_writes : work_writes,
      .dstAccessMask = (lane->transfer ? transfer_access : work_access) | VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(cmd, stages, stages | VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, NULL, 0, NULL);
}

/* Submits cmd, ended, on lane: it waits for what the lane's next
 * submission must wait for (other lanes, a step of its own), and signals
 * value on the lane's timeline after extra semaphores. */
static VkResult
lane_submit(struct cuvk_context *ctx, struct cuvk_lane *lane, VkCommandBuffer cmd, uint64_t value,
            const struct cuvk_submit_sem *signals, uint32_t signal_count)
{
   VkSemaphore signal_sems[SUBMIT_MAX_SEMAPHORES];
   uint64_t signal_values[SUBMIT_MAX_SEMAPHORES];
   VkSemaphore wait_sems[CUVK_MAX_LANES];
   uint64_t wait_values[CUVK_MAX_LANES];
   VkPipelineStageFlags wait_stages[CUVK_MAX_LANES];

   assert(signal_count < SUBMIT_MAX_SEMAPHORES);
   for (uint32_t i = 0; i < signal_count; i++) {
      signal_sems[i] = signals[i].semaphore;
      signal_values[i] = signals[i].value;
   }
   signal_sems[signal_count] = lane->timeline;
   signal_values[signal_count] = value;

   /* Waits for other lanes and for a step of this one (a sparse binding,
    * a semaphore wait); later batches of the lane are ordered after this
    * one's commands by their barriers. */
   uint32_t wait_count = lane_take_waits(ctx, lane, wait_sems, wait_values, wait_stages, 0);
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
      .commandBufferCount = 1,
      .pCommandBuffers = &cmd,
      .signalSemaphoreCount = signal_count + 1,
      .pSignalSemaphores = signal_sems,
   };
   VkResult vr = queue_submit(lane->queue, &submit);
   if (vr == VK_SUCCESS)
      lane_waits_done(ctx, lane);
   return vr;
}

/* CUVK_TRACE_SUBMIT: a submit that took the time since t0. */
static void
trace_submit(struct cuvk_context *ctx, uint64_t t0)
{
   if (!t0)
      return;
   uint64_t ns = cuvk_clock_ns() - t0;
   ctx->submit.trace.submit_ns += ns;
   if (ctx->submit.trace.record_start)
      ctx->submit.trace.record_submit_ns += ns;
   ctx->submit.trace.submits++;
}

/* Submits lane's open batch with extra semaphores to signal after its
 * commands (besides the timeline). */
static CUresult
batch_flush(struct cuvk_context *ctx, struct cuvk_lane *lane, const struct cuvk_submit_sem *signals,
            uint32_t signal_count)
{
   struct cuvk_batch *batch = lane->open;
   VkResult vr;

   if (!batch)
      return CUDA_SUCCESS;
   lane->open = NULL;
   record_end_barrier(lane, batch->cmd);

   uint64_t t0 = ctx->submit.trace.level ? cuvk_clock_ns() : 0;
   vr = vkEndCommandBuffer(batch->cmd);
   if (vr == VK_SUCCESS)
      vr = lane_submit(ctx, lane, batch->cmd, batch->value, signals, signal_count);
   trace_submit(ctx, t0);
   return batch_submitted(ctx, lane, batch, vr, "vkQueueSubmit");
}

CUresult
cuvk_submit_flush(struct cuvk_context *ctx)
{
   CUresult res = CUDA_SUCCESS;
   for (uint32_t i = 0; i < ctx->submit.lane_count; i++) {
      CUresult r = batch_flush(ctx, &ctx->submit.lanes[i], NULL, 0);
      if (res == CUDA_SUCCESS)
         res = r;
   }
   return res;
}

static bool
lane_has_waits(const struct cuvk_context *ctx, const struct cuvk_lane *lane)
{
   for (uint32_t m = 0; m < ctx->submit.lane_count; m++)
      if (lane->wait[m])
         return true;
   return false;
}

/* Makes lane's next submission wait for point of another lane.  The
 * batch holding point is submitted first: lanes that share a queue would
 * deadlock on a wait queued before its signal.  Lane's open batch goes
 * too when it holds commands, so that the wait delays only what comes
 * after it. */
static CUresult
lane_add_wait(struct cuvk_context *ctx, struct cuvk_lane *lane, uint64_t point)
{
   uint32_t m = cuvk_point_lane(point);
   uint64_t value = cuvk_point_value(point);
   CUresult res;

   if (!value || m == lane->index || m >= ctx->submit.lane_count)
      return CUDA_SUCCESS;
   struct cuvk_lane *src = &ctx->submit.lanes[m];
   if (value <= lane->waited[m] || value <= lane->wait[m])
      return CUDA_SUCCESS;
   lane_poll(ctx, src);
   if (value <= src->completed)
      return CUDA_SUCCESS;
   if (src->open && value >= src->open->value) {
      res = batch_flush(ctx, src, NULL, 0);
      if (res != CUDA_SUCCESS)
         return res;
   }
   if (lane->open && lane->open->command_count) {
      res = batch_flush(ctx, lane, NULL, 0);
      if (res != CUDA_SUCCESS)
         return res;
   }
   lane->wait[m] = value;
   return CUDA_SUCCESS;
}

/* CUDA's ordering of stream's next work on lane against other work, as
 * waits of lane: after the stream's own last work and what it was told to
 * wait for (cuStreamWaitEvent), both of which may be on another lane when
 * the stream records on a transfer lane and back; legacy stream work
 * waits for the blocking work of every other lane; a blocking stream's
 * work waits for the legacy stream's. */
static CUresult
stream_order(struct cuvk_context *ctx, struct cuvk_stream *stream, struct cuvk_lane *lane)
{
   struct cuvk_submit *s = &ctx->submit;
   /* Whatever comes next in the context is later work than every wait
    * the host holds (external_semaphore_held.c): those go first. */
   CUresult res = cuvk_held_waits_flush(ctx, ctx->held_wait_count);
   if (res != CUDA_SUCCESS)
      return res;

   if (s->lane_count == 1)
      return CUDA_SUCCESS;
   res = lane_add_wait(ctx, lane, stream->last_value);
   for (uint32_t m = 0; m < s->lane_count && res == CUDA_SUCCESS; m++)
      if (stream->waits[m])
         res = lane_add_wait(ctx, lane, cuvk_point(m, stream->waits[m]));
   if (res != CUDA_SUCCESS)
      return res;
   if (stream == &ctx->null_stream) {
      for (uint32_t m = 0; m < s->lane_count && res == CUDA_SUCCESS; m++)
         res = lane_add_wait(ctx, lane, cuvk_point(m, s->lanes[m].blocking));
   } else if (stream_is_blocking(ctx, stream)) {
      res = lane_add_wait(ctx, lane, ctx->null_stream.last_value);
   }
   return res;
}

CUresult
cuvk_submit_stream_wait(struct cuvk_context *ctx, struct cuvk_stream *stream, uint64_t point)
{
   CUresult res = cuvk_held_waits_flush(ctx, ctx->held_wait_count);
   if (res != CUDA_SUCCESS)
      return res;
   uint32_t m = cuvk_point_lane(point);
   /* Kept on the stream too: its next work may record on another lane
    * (a transfer lane), which must wait as well, for points of the
    * stream's own lane included (another stream's work there may follow
    * this stream's last). */
   if (m < ctx->submit.lane_count)
      stream->waits[m] = CUVK_MAX(stream->waits[m], cuvk_point_value(point));
   return lane_add_wait(ctx, stream_lane(ctx, stream), point);
}

static CUresult
record_on(struct cuvk_context *ctx, struct cuvk_stream *stream, struct cuvk_lane *lane,
          VkCommandBuffer *cmd, uint64_t *point);

CUresult
cuvk_submit_record(struct cuvk_context *ctx, struct cuvk_stream *stream, VkCommandBuffer *cmd,
                   uint64_t *point)
{
   return record_on(ctx, stream, stream_lane(ctx, stream), cmd, point);
}

bool
cuvk_submit_has_transfer_lanes(const struct cuvk_context *ctx)
{
   return ctx->submit.transfer_lane_count > 0;
}

CUresult
cuvk_submit_record_transfer(struct cuvk_context *ctx, struct cuvk_stream *stream, VkCommandBuffer *cmd,
                            uint64_t *point)
{
   struct cuvk_submit *s = &ctx->submit;
   if (!s->transfer_lane_count)
      return cuvk_submit_record(ctx, stream, cmd, point);
   return record_on(ctx, stream, &s->lanes[s->transfer_lane + stream->transfer_lane % s->transfer_lane_count],
                    cmd, point);
}

static CUresult
record_on(struct cuvk_context *ctx, struct cuvk_stream *stream, struct cuvk_lane *lane, VkCommandBuffer *cmd,
          uint64_t *point)
{
   CUresult res;

   if (ctx->submit.trace.level)
      ctx->submit.trace.record_start = cuvk_clock_ns();
   /* After a kernel's fault the context takes no more work (copies and
    * fills check before their host paths too). */
   res = cuvk_context_faulted(ctx, "queueing work");
   if (res != CUDA_SUCCESS)
      return res;
   res = stream_order(ctx, stream, lane);
   if (res != CUDA_SUCCESS)
      return res;
   if (!lane->open) {
      res = batch_open(ctx, lane);
      if (res != CUDA_SUCCESS)
         return res;
   }

   /* The barrier's first scope is everything earlier in submission order
    * on this queue, earlier batches included: this one barrier is what
    * orders every command after every previous one of the lane.  The
    * batch's first command needs none: the barrier that ended the lane's
    * previous batch (batch_flush) orders it, and nothing of the lane
    * comes before a lane's first batch. */
   if (lane->open->recorded) {
      VkMemoryBarrier barrier = {
         .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
         .srcAccessMask = lane->transfer ? transfer_writes : work_writes,
         .dstAccessMask = lane->transfer ? transfer_access : work_access,
      };
      VkPipelineStageFlags stages = lane->transfer ? transfer_stages : work_stages;
      vkCmdPipelineBarrier(lane->open->cmd, stages, stages, 0, 1, &barrier, 0, NULL, 0, NULL);
   }
   lane->open->recorded = true;

   if (stream_is_blocking(ctx, stream))
      lane->blocking = lane->open->value;
   ctx->submit.current = lane->index;
   *cmd = lane->open->cmd;
   *point = cuvk_point(lane->index, lane->open->value);
   return CUDA_SUCCESS;
}

CUresult
cuvk_submit_alone(struct cuvk_context *ctx, struct cuvk_stream *stream, bool *alone, uint32_t *lane_index)
{
   struct cuvk_submit *s = &ctx->submit;
   struct cuvk_lane *lane = stream_lane(ctx, stream);

   *alone = false;
   CUresult res = cuvk_context_faulted(ctx, "queueing work");
   if (res != CUDA_SUCCESS)
      return res;
   /* The stream's order first: it may submit the lane's open batch, and
    * the waits it adds go with whatever the lane submits next. */
   res = stream_order(ctx, stream, lane);
   if (res != CUDA_SUCCESS)
      return res;
   /* Alone: nothing recorded to go with, no held call gathering commands
    * into one submit, and nothing of the lane in flight, so every earlier
    * submission of the lane has completed (command buffers of the lane
    * included: none of them is pending).  Virtual lanes qualify too: the
    * command goes at once instead of at the next flush, with its
    * cross-lane waits in its submit as any batch's. */
   if (s->hold || lane->open || lane->transfer)
      return CUDA_SUCCESS;
   lane_retire(ctx, lane);
   if (!cuvk_list_is_empty(&lane->pending))
      return CUDA_SUCCESS;
   *alone = true;
   *lane_index = lane->index;
   return CUDA_SUCCESS;
}

CUresult
cuvk_submit_cmd_alloc(struct cuvk_context *ctx, uint32_t lane_index, VkCommandBuffer *cmd)
{
   VkCommandBufferAllocateInfo info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .commandPool = ctx->submit.lanes[lane_index].pool,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 1,
   };
   VkResult vr = vkAllocateCommandBuffers(ctx->vk, &info, cmd);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkAllocateCommandBuffers for a reused command buffer");
   return CUDA_SUCCESS;
}

void
cuvk_submit_cmd_free(struct cuvk_context *ctx, uint32_t lane_index, VkCommandBuffer cmd)
{
   vkFreeCommandBuffers(ctx->vk, ctx->submit.lanes[lane_index].pool, 1, &cmd);
}

void
cuvk_submit_record_end(struct cuvk_context *ctx, uint32_t lane_index, VkCommandBuffer cmd)
{
   record_end_barrier(&ctx->submit.lanes[lane_index], cmd);
}

CUresult
cuvk_submit_prerecorded(struct cuvk_context *ctx, struct cuvk_stream *stream, uint32_t lane_index,
                        VkCommandBuffer cmd, uint64_t *point)
{
   struct cuvk_submit *s = &ctx->submit;
   struct cuvk_lane *lane = &s->lanes[lane_index];
   struct cuvk_batch *step;

   assert(!lane->open && lane_index == stream->lane);
   /* A step like a semaphore operation's: it takes the lane's next value
    * and sits in the pending list, its own command buffer unused, so
    * retiring, deferred work and throttling see it as a batch. */
   CUresult res = batch_get(ctx, lane, &step);
   if (res != CUDA_SUCCESS)
      return res;
   step->value = lane->next_value++;
   uint64_t t0 = s->trace.level ? cuvk_clock_ns() : 0;
   VkResult vr = lane_submit(ctx, lane, cmd, step->value, NULL, 0);
   trace_submit(ctx, t0);
   if (t0)
      s->trace.commands++;
   if (stream_is_blocking(ctx, stream))
      lane->blocking = step->value;
   s->current = lane->index;
   *point = cuvk_point(lane->index, step->value);
   return batch_submitted(ctx, lane, step, vr, "vkQueueSubmit");
}

CUresult
cuvk_submit_semaphores(struct cuvk_context *ctx, struct cuvk_stream *stream,
                       const struct cuvk_submit_sem *waits, uint32_t wait_count,
                       const struct cuvk_submit_sem *signals, uint32_t signal_count)
{
   struct cuvk_lane *lane = stream_lane(ctx, stream);
   VkSemaphore wait_sems[SUBMIT_MAX_SEMAPHORES + CUVK_MAX_LANES], signal_sems[SUBMIT_MAX_SEMAPHORES];
   uint64_t wait_values[SUBMIT_MAX_SEMAPHORES + CUVK_MAX_LANES], signal_values[SUBMIT_MAX_SEMAPHORES];
   VkPipelineStageFlags wait_stages[SUBMIT_MAX_SEMAPHORES + CUVK_MAX_LANES];
   struct cuvk_batch *step;
   CUresult res;

   if (wait_count >= SUBMIT_MAX_SEMAPHORES || signal_count >= SUBMIT_MAX_SEMAPHORES)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%u waits and %u signals at once; cuvk takes up to %u of each",
                        wait_count, signal_count, SUBMIT_MAX_SEMAPHORES - 1);
   res = stream_order(ctx, stream, lane);
   if (res != CUDA_SUCCESS)
      return res;
   /* Signals alone go with the open batch's commands: no extra submit. */
   if (wait_count == 0 && lane->open) {
      res = batch_flush(ctx, lane, signals, signal_count);
      if (stream_is_blocking(ctx, stream))
         lane->blocking = lane->last_submitted;
      stream->last_value = cuvk_point(lane->index, lane->last_submitted);
      return res;
   }

   res = batch_flush(ctx, lane, NULL, 0);
   if (res != CUDA_SUCCESS)
      return res;
   res = batch_get(ctx, lane, &step);
   if (res != CUDA_SUCCESS)
      return res;
   step->value = lane->next_value++;

   for (uint32_t i = 0; i < wait_count; i++) {
      wait_sems[i] = waits[i].semaphore;
      wait_values[i] = waits[i].value;
      wait_stages[i] = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
   }
   /* Waits of the lane not yet carried (other lanes' points, a step of
    * its own): the step's signal must follow them too. */
   uint32_t all_waits = lane_take_waits(ctx, lane, wait_sems, wait_values, wait_stages, wait_count);
   for (uint32_t i = 0; i < signal_count; i++) {
      signal_sems[i] = signals[i].semaphore;
      signal_values[i] = signals[i].value;
   }
   signal_sems[signal_count] = lane->timeline;
   signal_values[signal_count] = step->value;

   /* No command buffer and no wait for earlier batches: a signal's first
    * synchronisation scope holds every signal earlier in the queue's
    * signal order, so these signals follow all earlier batches' work and
    * the timeline still rises in order.  A wait, though, blocks only this
    * batch: later batches of the lane wait for the step's value. */
   VkTimelineSemaphoreSubmitInfo timeline = {
      .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
      .waitSemaphoreValueCount = all_waits,
      .pWaitSemaphoreValues = wait_values,
      .signalSemaphoreValueCount = signal_count + 1,
      .pSignalSemaphoreValues = signal_values,
   };
   VkSubmitInfo submit = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .pNext = &timeline,
      .waitSemaphoreCount = all_waits,
      .pWaitSemaphores = wait_sems,
      .pWaitDstStageMask = wait_stages,
      .signalSemaphoreCount = signal_count + 1,
      .pSignalSemaphores = signal_sems,
   };
   VkResult vr = queue_submit(lane->queue, &submit);
   if (vr == VK_SUCCESS) {
      lane_waits_done(ctx, lane);
      if (all_waits)
         lane->wait[lane->index] = step->value;
   }
   if (stream_is_blocking(ctx, stream))
      lane->blocking = step->value;
   stream->last_value = cuvk_point(lane->index, step->value);
   return batch_submitted(ctx, lane, step, vr, "vkQueueSubmit");
}

CUresult
cuvk_submit_mark(struct cuvk_context *ctx, struct cuvk_stream *stream, bool submit)
{
   struct cuvk_lane *lane = stream_lane(ctx, stream);
   CUresult res = stream_order(ctx, stream, lane);
   if (res != CUDA_SUCCESS)
      return res;
   /* Waits still pending would not be behind the lane's last value: a
    * step carries them and gives a value that is. */
   if (lane_has_waits(ctx, lane))
      return cuvk_submit_semaphores(ctx, stream, NULL, 0, NULL, 0);
   if (submit)
      res = batch_flush(ctx, lane, NULL, 0);
   stream->last_value = cuvk_point(lane->index, lane_last(lane));
   return res;
}

CUresult
cuvk_submit_bind_sparse(struct cuvk_context *ctx, const VkSparseBufferMemoryBindInfo *binds,
                        uint32_t bind_count)
{
   struct cuvk_submit *s = &ctx->submit;
   struct cuvk_lane *lane = &s->lanes[0];
   VkSemaphore wait_sems[CUVK_MAX_LANES];
   uint64_t wait_values[CUVK_MAX_LANES];
   uint32_t wait_count = 0;
   struct cuvk_batch *step;

   /* What was recorded before goes first, so the binding can wait for
    * it, and so do the waits the host holds. */
   CUresult res = cuvk_held_waits_flush(ctx, ctx->held_wait_count);
   if (res == CUDA_SUCCESS)
      res = cuvk_submit_flush(ctx);
   if (res != CUDA_SUCCESS)
      return res;
   /* The binding takes a value of lane 0 like a batch and sits in its
    * pending list like one, its command buffer unused, so retiring passes
    * it and work deferred after it waits for it. */
   res = batch_get(ctx, lane, &step);
   if (res != CUDA_SUCCESS)
      return res;
   step->value = lane->next_value++;

   /* Signal values must rise in execution order, and an unbinding must
    * not pull memory from under earlier work: wait for all of it, on
    * every lane (the frontier). */
   for (uint32_t m = 0; m < s->lane_count; m++) {
      if (!s->lanes[m].last_submitted)
         continue;
      wait_sems[wait_count] = s->lanes[m].timeline;
      wait_values[wait_count] = s->lanes[m].last_submitted;
      wait_count++;
   }
   VkTimelineSemaphoreSubmitInfo timeline = {
      .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
      .waitSemaphoreValueCount = wait_count,
      .pWaitSemaphoreValues = wait_values,
      .signalSemaphoreValueCount = 1,
      .pSignalSemaphoreValues = &step->value,
   };
   VkBindSparseInfo info = {
      .sType = VK_STRUCTURE_TYPE_BIND_SPARSE_INFO,
      .pNext = &timeline,
      .waitSemaphoreCount = wait_count,
      .pWaitSemaphores = wait_sems,
      .bufferBindCount = bind_count,
      .pBufferBinds = binds,
      .signalSemaphoreCount = 1,
      .pSignalSemaphores = &lane->timeline,
   };
   VkResult vr = queue_bind_sparse(lane->queue, &info);
   if (vr == VK_SUCCESS) {
      /* Every lane's next submission waits for the binding; the lanes'
       * pending waits were carried by the flush above. */
      for (uint32_t m = 0; m < s->lane_count; m++)
         s->lanes[m].wait[0] = step->value;
   }
   return batch_submitted(ctx, lane, step, vr, "vkQueueBindSparse");
}

/* Submits lane's open batch when nothing else of the lane is in flight,
 * so it starts at once; otherwise it waits for company.  Virtual lanes
 * wait for a flush instead (struct cuvk_submit). */
static CUresult
flush_if_idle(struct cuvk_context *ctx, struct cuvk_lane *lane)
{
   if (ctx->submit.virtual_lanes)
      return CUDA_SUCCESS;
   lane_retire(ctx, lane);
   if (cuvk_list_is_empty(&lane->pending))
      return batch_flush(ctx, lane, NULL, 0);
   return CUDA_SUCCESS;
}

/* Waits, lock held, until at most SUBMIT_MAX_PENDING batches of lane are
 * in flight.  Holding the lock keeps other threads of the context from
 * queueing meanwhile, as they would have to wait too; nothing the GPU
 * waits for needs this lock (cross-context waits are host waits). */
static CUresult
throttle_pending(struct cuvk_context *ctx, struct cuvk_lane *lane)
{
   cuvk_submit_retire(ctx);
   while (lane->pending_count > SUBMIT_MAX_PENDING) {
      struct cuvk_batch *oldest = cuvk_list_first_entry(&lane->pending, struct cuvk_batch, link);
      VkSemaphoreWaitInfo wait = {
         .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
         .semaphoreCount = 1,
         .pSemaphores = &lane->timeline,
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
   struct cuvk_lane *lane = &s->lanes[s->current];
   CUresult res;

   lane->open->command_count++;
   if (lane->open->command_count >= BATCH_MAX_COMMANDS)
      res = batch_flush(ctx, lane, NULL, 0);
   else
      res = s->hold ? CUDA_SUCCESS : flush_if_idle(ctx, lane);
   if (res == CUDA_SUCCESS && lane->pending_count > SUBMIT_MAX_PENDING)
      res = throttle_pending(ctx, lane);
   if (s->trace.record_start) {
      s->trace.record_ns += cuvk_clock_ns() - s->trace.record_start;
      s->trace.record_start = 0;
      s->trace.commands++;
   }
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
   if (--s->hold == 0) {
      for (uint32_t i = 0; i < s->lane_count && flushed == CUDA_SUCCESS; i++)
         if (s->lanes[i].open)
            flushed = flush_if_idle(ctx, &s->lanes[i]);
   }
   pthread_mutex_unlock(&ctx->lock);
   return res != CUDA_SUCCESS ? res : flushed;
}

void
cuvk_submit_frontier(struct cuvk_context *ctx, struct cuvk_frontier *out)
{
   struct cuvk_submit *s = &ctx->submit;
   memset(out, 0, sizeof(*out));
   for (uint32_t i = 0; i < s->lane_count; i++)
      out->value[i] = lane_last(&s->lanes[i]);
}

bool
cuvk_submit_frontier_passed(struct cuvk_context *ctx, const struct cuvk_frontier *frontier)
{
   struct cuvk_submit *s = &ctx->submit;
   for (uint32_t i = 0; i < s->lane_count; i++)
      if (frontier->value[i] > s->lanes[i].completed)
         return false;
   return true;
}

bool
cuvk_submit_point_passed(struct cuvk_context *ctx, uint64_t point)
{
   uint32_t lane = cuvk_point_lane(point);
   assert(lane < ctx->submit.lane_count);
   return cuvk_point_value(point) <= ctx->submit.lanes[lane].completed;
}

bool
cuvk_submit_is_idle(struct cuvk_context *ctx)
{
   struct cuvk_frontier now;
   cuvk_submit_retire(ctx);
   cuvk_submit_frontier(ctx, &now);
   return cuvk_submit_frontier_passed(ctx, &now);
}

bool
cuvk_submit_host_turn(struct cuvk_context *ctx)
{
   return ctx->held_wait_count == 0 && cuvk_submit_is_idle(ctx) && cuvk_host_queue_is_empty(ctx);
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

   /* No retiring here: deferred work runs inside cuvk_submit_retire and
    * may defer more.  Polling the counters leaves the lists alone. */
   for (uint32_t i = 0; i < s->lane_count; i++)
      lane_poll(ctx, &s->lanes[i]);
   cuvk_submit_frontier(ctx, &node->frontier);
   if (cuvk_submit_frontier_passed(ctx, &node->frontier)) {
      node->bytes = 0;
      node->fn(ctx, node->data);
      return;
   }
   node->bytes = bytes;
   cuvk_list_addtail(&node->link, &s->deferred);
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
      uint64_t point = 0;
      if (s->deferred_bytes > s->deferred_limit && !cuvk_list_is_empty(&s->deferred)) {
         /* The oldest deferred work first: a lane it still waits for.
          * Each wait passes at least one lane of its frontier. */
         struct cuvk_deferred *d = cuvk_list_first_entry(&s->deferred, struct cuvk_deferred, link);
         for (uint32_t i = 0; i < s->lane_count && !point; i++)
            if (d->frontier.value[i] > s->lanes[i].completed)
               point = cuvk_point(i, d->frontier.value[i]);
      }
      pthread_mutex_unlock(&ctx->lock);
      if (point == 0)
         return CUDA_SUCCESS;
      CUresult res = cuvk_submit_wait(ctx, point);
      if (res != CUDA_SUCCESS)
         return res;
   }
}

CUresult
cuvk_submit_is_done(struct cuvk_context *ctx, uint64_t point, bool *done)
{
   struct cuvk_lane *lane = &ctx->submit.lanes[cuvk_point_lane(point)];
   uint64_t value = cuvk_point_value(point);
   CUresult res = CUDA_SUCCESS;

   assert(cuvk_point_lane(point) < ctx->submit.lane_count);
   pthread_mutex_lock(&ctx->lock);
   if (value > lane->completed) {
      if (lane->open && value >= lane->open->value)
         res = batch_flush(ctx, lane, NULL, 0);
      cuvk_submit_retire(ctx);
   }
   *done = value <= lane->completed;
   pthread_mutex_unlock(&ctx->lock);
   /* Work that is done may have faulted: a query reports it as a
    * synchronisation does (cuStreamQuery, cuEventQuery). */
   if (res == CUDA_SUCCESS && *done)
      res = cuvk_launch_fault(ctx);
   return res;
}

CUresult
cuvk_submit_is_idle_done(struct cuvk_context *ctx, bool *done)
{
   struct cuvk_frontier now;
   CUresult res = CUDA_SUCCESS;

   res = cuvk_held_waits_query(ctx, NULL, done);
   if (res != CUDA_SUCCESS || !*done)
      return res;
   pthread_mutex_lock(&ctx->lock);
   cuvk_submit_frontier(ctx, &now);
   pthread_mutex_unlock(&ctx->lock);
   for (uint32_t i = 0; i < ctx->submit.lane_count && *done && res == CUDA_SUCCESS; i++)
      res = cuvk_submit_is_done(ctx, cuvk_point(i, now.value[i]), done);
   return res;
}

/* What a wait did, for CUVK_TRACE_SUBMIT. */
struct wait_trace {
   uint64_t start, seen;      /* the wait's clock, 0 when not traced */
   uint64_t polls;
   bool blocked;
};

/* Blocks until the GPU has reached point. */
static CUresult
submit_wait_gpu(struct cuvk_context *ctx, uint64_t point, struct wait_trace *tr)
{
   struct cuvk_lane *lane = &ctx->submit.lanes[cuvk_point_lane(point)];
   uint64_t value = cuvk_point_value(point);
   CUresult res = CUDA_SUCCESS;
   VkResult vr;

   assert(cuvk_point_lane(point) < ctx->submit.lane_count);
   /* Reached already (another call polled the counter): still retire, so
    * that what was deferred behind it (a destroyed semaphore's fd, freed
    * memory) is gone when a synchronising call returns. */
   if (value <= __atomic_load_n(&lane->completed, __ATOMIC_RELAXED))
      goto done;

   pthread_mutex_lock(&ctx->lock);
   if (lane->open && value >= lane->open->value)
      res = batch_flush(ctx, lane, NULL, 0);
   pthread_mutex_unlock(&ctx->lock);
   if (res != CUDA_SUCCESS)
      return res;

   /* CUDA's scheduling flags: spin (the default "auto" spins a while
    * first, submit.h's auto_spin_ns), yield while polling, or block.
    * Spinning keeps the host ready to submit the next command the moment
    * this one completes, so a loop of GPU work leaves the GPU no idle
    * gaps to clock down in. */
   unsigned sched = ctx->flags & CU_CTX_SCHED_MASK;
   uint64_t spin_ns = sched == CU_CTX_SCHED_BLOCKING_SYNC ? 0 :
                      sched == CU_CTX_SCHED_SPIN || sched == CU_CTX_SCHED_YIELD ? UINT64_MAX :
                      ctx->submit.auto_spin_ns;
   if (spin_ns) {
      struct timespec t0, t;
      clock_gettime(CLOCK_MONOTONIC, &t0);
      for (;;) {
         uint64_t now_value;
         tr->polls++;
         if (vkGetSemaphoreCounterValue(ctx->vk, lane->timeline, &now_value) == VK_SUCCESS &&
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
      .pSemaphores = &lane->timeline,
      .pValues = &value,
   };
   tr->blocked = true;
   vr = vkWaitSemaphores(ctx->vk, &wait, UINT64_MAX);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkWaitSemaphores");

done:
   if (tr->start)
      tr->seen = cuvk_clock_ns();
   pthread_mutex_lock(&ctx->lock);
   cuvk_submit_retire(ctx);
   pthread_mutex_unlock(&ctx->lock);
   return CUDA_SUCCESS;
}

/* What follows a synchronisation once the GPU has reached what it waited
 * for: the caller must see host functions and emulated signals up to
 * points done (a signal visible to the exporter, a callback returned),
 * kernels' printf printed, and a fault of the work waited for reported,
 * as on CUDA (the wait and every later call fail). */
static CUresult
submit_wait_after(struct cuvk_context *ctx, const uint64_t *points, uint32_t count)
{
   bool nothing = false;
   for (uint32_t i = 0; i < count; i++) {
      /* Point 0 (an idle lane) stands for the ops with no precondition:
       * once is enough. */
      if (!points[i]) {
         if (nothing)
            continue;
         nothing = true;
      }
      cuvk_host_queue_wait_through(ctx, points[i]);
   }
   cuvk_printf_flush(ctx);
   CUresult res = cuvk_launch_fault(ctx);
   cuvk_launch_cache_checkpoint(ctx);
   return res;
}

static void
submit_wait_trace(struct cuvk_context *ctx, const struct wait_trace *tr)
{
   if (!tr->start)
      return;
   uint64_t end = cuvk_clock_ns();
   pthread_mutex_lock(&ctx->lock);
   trace_wait_done(ctx, tr->seen - tr->start, tr->polls, tr->blocked, end - tr->seen);
   pthread_mutex_unlock(&ctx->lock);
}

CUresult
cuvk_submit_wait(struct cuvk_context *ctx, uint64_t point)
{
   struct wait_trace tr = { .start = ctx->submit.trace.level ? cuvk_clock_ns() : 0 };
   CUresult res = submit_wait_gpu(ctx, point, &tr);
   if (res != CUDA_SUCCESS)
      return res;
   res = submit_wait_after(ctx, &point, 1);
   submit_wait_trace(ctx, &tr);
   return res;
}

CUresult
cuvk_submit_wait_idle(struct cuvk_context *ctx)
{
   struct cuvk_submit *s = &ctx->submit;
   struct cuvk_frontier now;
   uint64_t points[CUVK_MAX_LANES];
   /* Everything includes what waits the host holds. */
   CUresult res = cuvk_held_waits_wait(ctx, NULL);
   if (res != CUDA_SUCCESS)
      return res;

   /* One synchronisation, whatever the number of lanes: the GPU waits
    * for the lanes with work outstanding, then one retire, one printf
    * flush and one read of the fault word.  Waiting lane by lane with
    * cuvk_submit_wait did all of that once per lane (7 on an H100), the
    * fault word a read across the bus each time. */
   struct wait_trace tr = { .start = s->trace.level ? cuvk_clock_ns() : 0 };
   bool retired = false;
   pthread_mutex_lock(&ctx->lock);
   cuvk_submit_frontier(ctx, &now);
   pthread_mutex_unlock(&ctx->lock);
   for (uint32_t i = 0; i < s->lane_count; i++) {
      points[i] = cuvk_point(i, now.value[i]);
      if (now.value[i] > __atomic_load_n(&s->lanes[i].completed, __ATOMIC_RELAXED)) {
         res = submit_wait_gpu(ctx, points[i], &tr);
         if (res != CUDA_SUCCESS)
            return res;
         retired = true;
      }
   }
   if (!retired) {
      /* Still retire: what was deferred behind completed work (freed
       * memory, a destroyed semaphore's fd) is gone when a synchronising
       * call returns. */
      pthread_mutex_lock(&ctx->lock);
      cuvk_submit_retire(ctx);
      pthread_mutex_unlock(&ctx->lock);
      if (tr.start)
         tr.seen = cuvk_clock_ns();
   }
   res = submit_wait_after(ctx, points, s->lane_count);
   submit_wait_trace(ctx, &tr);
   return res;
}
