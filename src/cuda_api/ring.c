/*
 * The resident command ring of ring.h.
 */
#include "cuda_api/ring.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuda_api/pipeline.h"
#include "cuda_api/submit.h"
#include "cuvk_shader_params.h"
#include "mem/block_heap.h"
#include "ring_spv.h"
#include "util/device_policy.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

/* Defaults, each a setting (docs/environment.md), measured on an H100
 * (docs/design.md).  Workgroups: one per multiprocessor where the driver
 * says how many (132 there: a 16 MiB copy beat CUDA's, where 32 reached
 * 0.43 of it), else RING_GPU_GROUPS; one on a CPU device, where a
 * workgroup is a thread and more would wait on one another.  Size limit:
 * the largest size measured, where the ring still beat both a recorded
 * dispatch over the whole GPU and CUDA.  Idle spell: a millisecond or
 * two is many operations apart in a loop of small synchronous ones, and
 * nothing to a process that has stopped. */
#define RING_GPU_GROUPS 128u
#define RING_GPU_MAX_BYTES (16ull << 20)
#define RING_CPU_MAX_BYTES (64ull << 10)
#define RING_IDLE_US 2000ull
/* How long the host spins on the done word before it yields the CPU
 * between polls, and how often it asks whether the dispatch is still
 * there. */
#define RING_SPIN_NS 100000ull
#define RING_FENCE_POLLS 1024u
/* Dispatches one command may take: one that leaves it undone (ring.comp
 * says when) is followed by another, but not forever. */
#define RING_TRIES 4u

enum ring_state {
   RING_STOPPED,  /* not on its queue */
   RING_RUNNING,  /* submitted, taking commands */
   RING_EXITING,  /* told to leave; its fence not waited for yet */
};

struct cuvk_ring {
   struct cuvk_context *ctx;
   struct cuvk_queue *queue;
   bool shared;              /* lane 0's queue too */
   uint32_t groups;
   uint64_t max_bytes;
   uint64_t idle_ns;
   VkPipelineLayout layout;
   VkPipeline pipeline;
   VkCommandPool pool;
   VkCommandBuffer cmd;
   VkFence fence;
   struct cuvk_mem_block *block;
   volatile struct cuvk_ring_command *command;
   volatile uint32_t *done;
   volatile uint32_t *arrived;

   /* Everything below under lock. */
   bool made;                /* the Vulkan objects above exist */
   pthread_mutex_t lock;
   pthread_cond_t cond;      /* wakes the worker: started, or quit */
   pthread_t worker;
   bool worker_started;
   bool quit;
   enum ring_state state;
   bool fence_pending;       /* submitted with fence, not reset since */
   bool broken;
   uint32_t seq;             /* the newest command posted */
   uint64_t last_use_ns;
   uint64_t ops, starts, retries;
};

/* A positive whole number from the environment, or fallback. */
static uint64_t
env_count(const char *name, uint64_t fallback)
{
   const char *env = getenv(name);
   if (!env || !*env)
      return fallback;
   char *end;
   errno = 0;
   unsigned long long v = strtoull(env, &end, 10);
   if (errno || *end || v == 0) {
      cuvk_logw("%s=%s is not a positive number; using %llu", name, env, (unsigned long long)fallback);
      return fallback;
   }
   return v;
}

/* Stores to the command, then seq, where the device sees them: the
 * mapping may be write-combined, whose stores x86 reorders and holds in
 * its buffers unless fenced; a full fence orders and drains them. */
static void
ring_post(struct cuvk_ring *ring, uint32_t op, VkDeviceAddress dst, VkDeviceAddress src, uint64_t size,
          uint32_t pattern)
{
   volatile struct cuvk_ring_command *c = ring->command;
   c->op = op;
   c->pattern = pattern;
   c->dst = dst;
   c->src = src;
   c->size = size;
   atomic_thread_fence(memory_order_seq_cst);
   c->seq = ++ring->seq;
   atomic_thread_fence(memory_order_seq_cst);
}

/* Waits for the dispatch to leave and makes its fence reusable; lock
 * held.  False when the wait failed (the device is lost). */
static bool
ring_reap(struct cuvk_ring *ring)
{
   if (!ring->fence_pending)
      return true;
   VkResult vr = vkWaitForFences(ring->ctx->vk, 1, &ring->fence, VK_TRUE, UINT64_MAX);
   if (vr == VK_SUCCESS)
      vr = vkResetFences(ring->ctx->vk, 1, &ring->fence);
   if (vr != VK_SUCCESS) {
      cuvk_vk_error(vr, "vkWaitForFences (command ring)");
      return false;
   }
   ring->fence_pending = false;
   ring->state = RING_STOPPED;
   return true;
}

static void *ring_worker(void *data);
static CUresult ring_create_objects(struct cuvk_ring *ring);

/* Puts the dispatch on its queue; lock held.  It takes the commands
 * after base: the next one posted, or (base one less than the newest) the
 * one a dispatch before it left undone. */
static bool
ring_start(struct cuvk_ring *ring, uint32_t base)
{
   if (!ring_reap(ring))
      return false;
   ring->command->base = base;
   *ring->arrived = 0;
   atomic_thread_fence(memory_order_seq_cst);

   VkSubmitInfo submit = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .commandBufferCount = 1,
      .pCommandBuffers = &ring->cmd,
   };
   pthread_mutex_lock(&ring->queue->lock);
   VkResult vr = vkQueueSubmit(ring->queue->handle, 1, &submit, ring->fence);
   pthread_mutex_unlock(&ring->queue->lock);
   if (vr != VK_SUCCESS) {
      cuvk_vk_error(vr, "vkQueueSubmit (command ring)");
      return false;
   }
   ring->fence_pending = true;
   ring->state = RING_RUNNING;
   ring->starts++;
   if (!ring->worker_started) {
      if (pthread_create(&ring->worker, NULL, ring_worker, ring) != 0) {
         /* Without the worker nothing would ever end the dispatch. */
         cuvk_logw("command ring: no worker thread; stopping the ring");
         ring_post(ring, CUVK_RING_OP_EXIT, 0, 0, 0, 0);
         ring->state = RING_EXITING;
         ring_reap(ring);
         return false;
      }
      ring->worker_started = true;
   }
   pthread_cond_signal(&ring->cond);
   return true;
}

/* Ends the dispatch once it has sat idle for idle_ns. */
static void *
ring_worker(void *data)
{
   struct cuvk_ring *ring = data;

   pthread_mutex_lock(&ring->lock);
   while (!ring->quit) {
      if (ring->state != RING_RUNNING) {
         pthread_cond_wait(&ring->cond, &ring->lock);
         continue;
      }
      uint64_t due = ring->last_use_ns + ring->idle_ns;
      if (cuvk_clock_ns() >= due) {
         cuvk_logd("command ring: idle for %llu us; leaving its queue",
                   (unsigned long long)(ring->idle_ns / 1000));
         ring_post(ring, CUVK_RING_OP_EXIT, 0, 0, 0, 0);
         ring->state = RING_EXITING;
         continue;
      }
      struct timespec ts = { .tv_sec = (time_t)(due / 1000000000ull), .tv_nsec = (long)(due % 1000000000ull) };
      pthread_cond_timedwait(&ring->cond, &ring->lock, &ts);
   }
   pthread_mutex_unlock(&ring->lock);
   return NULL;
}

/* Spins until the dispatch reports seq done; lock held.  False when the
 * dispatch left its queue without doing it (it ended, or the device was
 * lost). */
static bool
ring_wait(struct cuvk_ring *ring, uint32_t seq)
{
   uint64_t start = cuvk_clock_ns();
   for (uint32_t polls = 1;; polls++) {
      if (__atomic_load_n(ring->done, __ATOMIC_ACQUIRE) == seq)
         return true;
      if (polls % RING_FENCE_POLLS == 0) {
         VkResult vr = vkGetFenceStatus(ring->ctx->vk, ring->fence);
         if (vr != VK_NOT_READY) {
            bool done = __atomic_load_n(ring->done, __ATOMIC_ACQUIRE) == seq;
            if (!done)
               cuvk_logd("command ring left its queue (%s) before command %u was done",
                         vr == VK_SUCCESS ? "ended" : cuvk_vk_result_name(vr), seq);
            return done;
         }
      }
      if (cuvk_clock_ns() - start > RING_SPIN_NS)
         sched_yield();
   }
}

bool
cuvk_ring_takes(const struct cuvk_context *ctx, VkDeviceAddress dst, VkDeviceAddress src, uint64_t size)
{
   const struct cuvk_ring *ring = ctx->ring;
   if (!ring || size == 0 || size > ring->max_bytes || ((dst | src | size) & 3))
      return false;
   /* A copy's ranges must be apart: the workgroups run in no order. */
   return !src || dst + size <= src || src + size <= dst;
}

bool
cuvk_ring_run(struct cuvk_context *ctx, VkDeviceAddress dst, VkDeviceAddress src, uint64_t size,
              uint32_t pattern)
{
   struct cuvk_ring *ring = ctx->ring;
   bool ok = false;

   pthread_mutex_lock(&ring->lock);
   if (ring->broken)
      goto out;
   /* Made at first use: most contexts never take this path, and a
    * pipeline costs a driver compile. */
   if (!ring->made) {
      if (ring_create_objects(ring) != CUDA_SUCCESS) {
         cuvk_logw("command ring: could not be made; recording from now on");
         ring->broken = true;
         goto out;
      }
      ring->made = true;
   }
   for (uint32_t attempt = 0; attempt < RING_TRIES && !ok; attempt++) {
      if (ring->state != RING_RUNNING && !ring_start(ring, attempt ? ring->seq - 1 : ring->seq))
         break;
      if (attempt == 0)
         ring_post(ring, src ? CUVK_RING_OP_COPY : CUVK_RING_OP_FILL, dst, src, size, pattern);
      ok = ring_wait(ring, ring->seq);
      if (!ok) {
         /* It left its queue: nothing of the command can happen now
          * but what the next dispatch does. */
         ring->state = RING_EXITING;
         if (!ring_reap(ring))
            break;
         ring->retries++;
      }
   }
   if (!ok) {
      cuvk_logw("command ring: command %u not done after %u dispatches; recording from now on", ring->seq,
                RING_TRIES);
      ring->broken = true;
      goto out;
   }
   ring->ops++;
   ring->last_use_ns = cuvk_clock_ns();
out:
   pthread_mutex_unlock(&ring->lock);
   return ok;
}

void
cuvk_ring_stop(struct cuvk_ring *ring)
{
   pthread_mutex_lock(&ring->lock);
   if (ring->state == RING_RUNNING) {
      ring_post(ring, CUVK_RING_OP_EXIT, 0, 0, 0, 0);
      ring->state = RING_EXITING;
   }
   ring_reap(ring);
   pthread_mutex_unlock(&ring->lock);
}

/* The pipeline, command buffer, fence and command memory; on failure
 * what was made stays for ring_destroy. */
static CUresult
ring_create_objects(struct cuvk_ring *ring)
{
   VkResult vr;
   CUresult res;

   res = cuvk_pipeline_create(ring->ctx, cuvk_ring_spv, sizeof(cuvk_ring_spv), sizeof(struct cuvk_ring_push),
                              &ring->layout, &ring->pipeline);
   if (res != CUDA_SUCCESS)
      return res;

   VkCommandPoolCreateInfo pool_info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .queueFamilyIndex = ring->queue->family,
   };
   vr = vkCreateCommandPool(ring->ctx->vk, &pool_info, NULL, &ring->pool);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkCreateCommandPool (command ring)");
   VkCommandBufferAllocateInfo cmd_info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .commandPool = ring->pool,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 1,
   };
   vr = vkAllocateCommandBuffers(ring->ctx->vk, &cmd_info, &ring->cmd);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkAllocateCommandBuffers (command ring)");
   VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
   vr = vkCreateFence(ring->ctx->vk, &fence_info, NULL, &ring->fence);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkCreateFence (command ring)");

   VkDeviceMemory memory;
   const VkDeviceSize bytes = 4096;
   vr = cuvk_mem_allocate(ring->ctx->vk, bytes, cuvk_policy_ring_memory_type(&ring->ctx->dev->mem), NULL, &memory);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkAllocateMemory (command ring)");
   res = cuvk_mem_block_wrap(ring->ctx->vk, memory, VK_NULL_HANDLE, bytes, true, 0, &ring->block);
   if (res != CUDA_SUCCESS) {
      vkFreeMemory(ring->ctx->vk, memory, NULL);
      return res;
   }
   if (!ring->block->map)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "command ring: its memory could not be mapped");
   memset(ring->block->map, 0, bytes);
   ring->command = (volatile struct cuvk_ring_command *)ring->block->map;
   ring->done = (volatile uint32_t *)(ring->block->map + CUVK_RING_STATUS_OFFSET);
   ring->arrived = ring->done + 1;

   /* Recorded once: every start submits the same dispatch. */
   VkCommandBufferBeginInfo begin = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
   vr = vkBeginCommandBuffer(ring->cmd, &begin);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkBeginCommandBuffer (command ring)");
   struct cuvk_ring_push push = { .control = ring->block->address };
   vkCmdBindPipeline(ring->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, ring->pipeline);
   vkCmdPushConstants(ring->cmd, ring->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
   vkCmdDispatch(ring->cmd, ring->groups, 1, 1);
   vr = vkEndCommandBuffer(ring->cmd);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkEndCommandBuffer (command ring)");
   return CUDA_SUCCESS;
}

static void
ring_destroy(struct cuvk_ring *ring)
{
   if (ring->block)
      cuvk_mem_block_destroy(ring->block);
   if (ring->fence)
      vkDestroyFence(ring->ctx->vk, ring->fence, NULL);
   if (ring->pool)
      vkDestroyCommandPool(ring->ctx->vk, ring->pool, NULL);
   if (ring->pipeline)
      vkDestroyPipeline(ring->ctx->vk, ring->pipeline, NULL);
   if (ring->layout)
      vkDestroyPipelineLayout(ring->ctx->vk, ring->layout, NULL);
   pthread_cond_destroy(&ring->cond);
   pthread_mutex_destroy(&ring->lock);
   free(ring);
}

void
cuvk_ring_init(struct cuvk_context *ctx)
{
   const struct cuvk_lane_plan *plan = &ctx->lane_plan;
   struct cuvk_device *dev = ctx->dev;

   ctx->ring = NULL;
   if (plan->ring_queue == UINT32_MAX)
      return;
   struct cuvk_ring *ring = calloc(1, sizeof(*ring));
   if (!ring) {
      cuvk_logw("command ring: out of host memory; running without");
      return;
   }
   bool cpu = dev->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
   ring->ctx = ctx;
   ring->queue = &ctx->submit.queues[plan->ring_queue];
   ring->shared = plan->ring_shared;
   uint64_t groups = env_count("CUVK_RING_GROUPS", dev->sm_count ? dev->sm_count : RING_GPU_GROUPS);
   ring->groups = cpu ? 1 : (uint32_t)CUVK_MIN(groups, (uint64_t)dev->props.limits.maxComputeWorkGroupCount[0]);
   ring->max_bytes = env_count("CUVK_RING_MAX", cpu ? RING_CPU_MAX_BYTES : RING_GPU_MAX_BYTES);
   ring->idle_ns = env_count("CUVK_RING_IDLE_US", RING_IDLE_US) * 1000ull;
   pthread_mutex_init(&ring->lock, NULL);
   pthread_condattr_t attr;
   pthread_condattr_init(&attr);
   pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
   pthread_cond_init(&ring->cond, &attr);
   pthread_condattr_destroy(&attr);
   if (ring->shared)
      ring->queue->ring = ring;
   ctx->ring = ring;
   cuvk_logd("command ring: queue %u of family %u%s, %u workgroups, up to %llu bytes, idle exit after %llu us",
             ring->queue->index, ring->queue->family, ring->shared ? " (lane 0's too)" : "", ring->groups,
             (unsigned long long)ring->max_bytes, (unsigned long long)(ring->idle_ns / 1000));
}

void
cuvk_ring_finish(struct cuvk_context *ctx)
{
   struct cuvk_ring *ring = ctx->ring;
   if (!ring)
      return;
   cuvk_ring_stop(ring);
   pthread_mutex_lock(&ring->lock);
   ring->quit = true;
   pthread_cond_signal(&ring->cond);
   bool joined = ring->worker_started;
   pthread_mutex_unlock(&ring->lock);
   if (joined)
      pthread_join(ring->worker, NULL);
   if (ring->ops)
      cuvk_logd("command ring ran %llu operations in %llu starts, %llu of them for a command left undone",
                (unsigned long long)ring->ops, (unsigned long long)ring->starts,
                (unsigned long long)ring->retries);
   if (ring->shared)
      ring->queue->ring = NULL;
   ctx->ring = NULL;
   ring_destroy(ring);
}
