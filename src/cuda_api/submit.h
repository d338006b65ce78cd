/*
 * Work submission for one context.
 *
 * All streams of a context record into one open batch (a pooled command
 * buffer) in the order the host calls arrive, with a full compute barrier
 * between commands.  Batches are submitted to the context's single queue
 * and signal increasing values on one timeline semaphore.  Since every
 * command is ordered after every earlier one, CUDA's stream rules (the
 * legacy default stream's implicit synchronisation included) hold by
 * construction; the price is that streams never overlap, which a CPU
 * driver gains nothing from anyway and which only matters on a GPU when a
 * single copy does not fill it.
 *
 * A batch is submitted at once when the queue is idle, so a lone command
 * starts without delay; while earlier work is running, commands accumulate
 * and go together at the next synchronisation point or when the batch is
 * full.  An API call that records several commands (a copy across two
 * mappings, a fill cut into dispatches) holds submission for its duration,
 * so its commands share one vkQueueSubmit: on an H200 each submit took
 * about 13 us to reach the GPU.  Nothing is created per command: command
 * buffers, the semaphore and the garbage lists are reused.
 *
 * Queued work is bounded: past SUBMIT_MAX_PENDING submitted batches a
 * commit waits for the oldest (submit.c), so a host that outruns the
 * device is held at a fixed distance ahead of it.
 *
 * Locking: every function here expects the context's lock held, except
 * cuvk_submit_wait, cuvk_submit_is_done, cuvk_submit_hold,
 * cuvk_submit_release and cuvk_submit_throttle_frees, which take it as
 * needed.
 */
#ifndef CUVK_API_SUBMIT_H
#define CUVK_API_SUBMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <cuda.h>
#include <vulkan/vulkan.h>

#include "util/list.h"

struct cuvk_context;

typedef void (*cuvk_deferred_fn)(struct cuvk_context *ctx, void *data);

struct cuvk_deferred {
   struct cuvk_list link;
   cuvk_deferred_fn fn;
   void *data;
   VkDeviceSize bytes;     /* of device memory fn gives back (back-pressure) */
};

struct cuvk_batch {
   struct cuvk_list link;
   VkCommandBuffer cmd;
   uint64_t value;         /* timeline value signalled when it completes */
   uint32_t command_count;
   struct cuvk_list deferred; /* cuvk_deferred run once it completes */
   VkDeviceSize deferred_bytes; /* sum of their bytes */
};

struct cuvk_submit {
   VkCommandPool pool;
   VkSemaphore timeline;
   struct cuvk_batch *open;   /* recording, or NULL */
   struct cuvk_list pending;  /* submitted, oldest first */
   struct cuvk_list free;     /* completed, ready for reuse */
   uint64_t next_value;       /* value of the next batch to open */
   uint64_t last_submitted;   /* value of the newest submitted batch */
   uint64_t completed;        /* newest value known complete */
   uint32_t hold;             /* cuvk_submit_hold depth: no idle flushes */
   uint32_t pending_count;    /* batches in pending */
   /* Memory freed by the host that waits for batches to complete, and
    * how much of it an allocation tolerates before it waits
    * (cuvk_submit_throttle_frees). */
   VkDeviceSize deferred_bytes;
   VkDeviceSize deferred_limit;
   /* A step the next submitted batch must wait for: a sparse binding
    * (command buffers are not ordered after vkQueueBindSparse by the queue
    * alone) or a semaphore wait (a wait blocks only its own batch). */
   uint64_t bind_wait;
};

CUresult cuvk_submit_init(struct cuvk_context *ctx);
void cuvk_submit_finish(struct cuvk_context *ctx);

/* Opens a batch if needed and returns its command buffer, with a barrier
 * recorded after the previous command.  *value receives the timeline value
 * the batch will signal, which the caller records as "done when". */
CUresult cuvk_submit_record(struct cuvk_context *ctx, VkCommandBuffer *cmd, uint64_t *value);

/* Called after the command is recorded: submits now when the queue is idle
 * or the batch is full. */
CUresult cuvk_submit_commit(struct cuvk_context *ctx);

/* Between hold and release, commit submits only full batches; release
 * submits what the held calls recorded if the queue is idle.  Nests; a wait
 * still flushes what it waits for.  Release returns res, the held call's
 * own result, unless that is success and the submit fails.  Both take the
 * context lock; call them without it. */
void cuvk_submit_hold(struct cuvk_context *ctx);
CUresult cuvk_submit_release(struct cuvk_context *ctx, CUresult res);

/* Queues sparse buffer bindings (memory VK_NULL_HANDLE unbinds) after
 * everything recorded so far and before everything recorded later, as a
 * step of the timeline of its own: work deferred after it runs once the
 * binding has happened.  The host does not wait.  Lock held. */
CUresult cuvk_submit_bind_sparse(struct cuvk_context *ctx, const VkSparseBufferMemoryBindInfo *binds,
                                 uint32_t bind_count);

/* A semaphore and the value to wait for or signal (ignored for binary
 * semaphores). */
struct cuvk_submit_sem {
   VkSemaphore semaphore;
   uint64_t value;
};

/* Semaphore operations in submission order, without blocking the host.
 * The signals happen after everything recorded so far (they ride on the
 * open batch's submit when there is one); everything recorded later runs
 * after the waits.  The step takes a timeline value like a batch, so
 * waiting for cuvk_submit_last_value() afterwards includes it: a wait
 * nobody signals leaves the stream not ready.  Lock held. */
CUresult cuvk_submit_semaphores(struct cuvk_context *ctx,
                                const struct cuvk_submit_sem *waits, uint32_t wait_count,
                                const struct cuvk_submit_sem *signals, uint32_t signal_count);

/* Submits the open batch, if any. */
CUresult cuvk_submit_flush(struct cuvk_context *ctx);

/* Runs node->fn(ctx, node->data) once everything recorded so far has
 * completed (at once when nothing is outstanding).  The node is embedded
 * in the caller's object, so deferring never fails; fn runs with the
 * context lock held and must not take it. */
void cuvk_submit_defer(struct cuvk_context *ctx, struct cuvk_deferred *node);

/* As cuvk_submit_defer, for work that frees bytes of device memory:
 * they count towards the deferred bytes an allocation waits to bring
 * under the limit (cuvk_submit_throttle_frees). */
void cuvk_submit_defer_bytes(struct cuvk_context *ctx, struct cuvk_deferred *node, VkDeviceSize bytes);

/* Back-pressure for allocations: while more than deferred_limit bytes of
 * freed memory wait for the GPU, retires what completed and waits for
 * the oldest outstanding work, so that freed memory comes back before
 * new memory is taken.  Takes the context lock itself; call it without. */
CUresult cuvk_submit_throttle_frees(struct cuvk_context *ctx);

/* True when freed memory still waits for the GPU; lock held. */
bool cuvk_submit_has_deferred_frees(struct cuvk_context *ctx);

/* The value of the newest recorded work: the open batch, else the last
 * submitted one.  Waiting for it waits for everything recorded so far. */
uint64_t cuvk_submit_last_value(struct cuvk_context *ctx);

/* Blocks until value has completed, flushing first if value is in the open
 * batch.  Takes the context lock itself; must be called without it. */
CUresult cuvk_submit_wait(struct cuvk_context *ctx, uint64_t value);

/* Waits for everything recorded on ctx so far.  Takes the context lock
 * itself; must be called without it. */
CUresult cuvk_submit_wait_idle(struct cuvk_context *ctx);

/* Non-blocking: flushes value's batch if still open, then polls. Takes
 * the context lock itself. */
CUresult cuvk_submit_is_done(struct cuvk_context *ctx, uint64_t value, bool *done);

/* Retires completed batches (runs their deferred work); lock held. */
void cuvk_submit_retire(struct cuvk_context *ctx);

#endif
