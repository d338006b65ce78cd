/*
 * Imported external semaphores (CUexternalSemaphore).
 *
 * Two kinds, chosen at import from what the fd is:
 *
 *  - native: a Vulkan OPAQUE_FD semaphore the driver exported
 *    (VK_KHR_external_semaphore_fd on both sides, NVIDIA's case), imported
 *    into the context's own VkDevice and waited on and signalled directly
 *    by cuvk's submits;
 *  - emulated: an xsem (src/util/xsem.h), what VK_LAYER_CUVK_interop hands
 *    the application on drivers that cannot export semaphores (lavapipe).
 *    The context's host queue (host_queue.h) carries progress across: a
 *    wait becomes a gate value the GPU waits for and the worker signals
 *    once the xsem gets there, a signal an xsem signal the worker makes
 *    once the GPU gets there.
 *
 * Either way a signal happens after all earlier work of the stream and a
 * wait holds back all later work (cuvk_submit_semaphores), and no call
 * blocks the host.
 */
#ifndef CUVK_API_EXTERNAL_SEMAPHORE_H
#define CUVK_API_EXTERNAL_SEMAPHORE_H

#include <stdbool.h>
#include <stdint.h>
#include <cuda.h>
#include <vulkan/vulkan.h>

#include "cuda_api/object.h"
#include "cuda_api/submit.h"
#include "util/list.h"

struct cuvk_context;
struct cuvk_xsem;

struct cuvk_external_semaphore {
   struct cuvk_object base;
   struct cuvk_context *ctx;
   struct cuvk_list link;        /* in ctx->external_semaphores */
   bool timeline;
   VkSemaphore semaphore;        /* native, else VK_NULL_HANDLE */
   struct cuvk_xsem *xsem;       /* emulated, else NULL */
   /* Timeline: the highest value signalled through cuvk (native; the xsem
    * keeps its own). */
   uint64_t max_signal;
   /* Host waits on it in progress outside the context lock (held waits,
    * external_semaphore_held.c), and whether its last reference went
    * meanwhile: the last of those waits then frees it.  Lock held. */
   uint32_t host_waiters;
   bool released;
   struct cuvk_deferred release;
};

/* Context teardown, after cuvk_host_queue_abandon: waits (up to a bound)
 * for GPU work held back by waits on native semaphores.  False when it is
 * still stuck: nobody will ever signal them, and the GPU cannot be made
 * idle, so the context's Vulkan objects must be leaked. */
bool cuvk_external_semaphore_settle(struct cuvk_context *ctx);

/* Frees the semaphores of a context being destroyed (GPU idle); with
 * leak, only takes them out of the handle table. */
void cuvk_external_semaphore_release_context(struct cuvk_context *ctx, bool leak);

/* Submits a wait on each sems[i] for values[i] on stream's lane (emulated
 * binary semaphores: values[i] is the wait's number, 0 to take one now).
 * Lock held. */
CUresult cuvk_external_semaphore_wait_submit(struct cuvk_context *ctx, struct cuvk_stream *stream,
                                            struct cuvk_external_semaphore *const *sems,
                                            const uint64_t *values, unsigned n);

/* A host wait on sem is over; frees it when it was released meanwhile.
 * Lock held. */
void cuvk_external_semaphore_unwait(struct cuvk_context *ctx, struct cuvk_external_semaphore *sem);

/*
 * Held waits (external_semaphore_held.c): a wait on native timeline
 * semaphores kept on the host until the context records more work.
 */

/* Holds stream's wait for each sems[i] to reach values[i] (native
 * timeline or emulated semaphores; an emulated binary one takes its wait
 * number here, values[i] 0); false (and nothing held) when out of host
 * memory.  Lock held. */
bool cuvk_held_waits_add(struct cuvk_context *ctx, struct cuvk_stream *stream,
                         struct cuvk_external_semaphore *const *sems, const uint64_t *values, unsigned n);
/* Submits every held wait on its stream's lane, before the work about to
 * be recorded.  Lock held. */
CUresult cuvk_held_waits_submit(struct cuvk_context *ctx);
/* What submit.c calls before it records anything. */
static inline CUresult
cuvk_held_waits_flush(struct cuvk_context *ctx, uint32_t count)
{
   return count ? cuvk_held_waits_submit(ctx) : CUDA_SUCCESS;
}
/* Drops every held wait unsubmitted (context teardown).  Lock held. */
void cuvk_held_waits_drop(struct cuvk_context *ctx);
/* Whether the held waits of stream (NULL: of every stream) are over, and
 * blocking until they are.  Take the lock themselves. */
CUresult cuvk_held_waits_query(struct cuvk_context *ctx, struct cuvk_stream *stream, bool *done);
CUresult cuvk_held_waits_wait(struct cuvk_context *ctx, struct cuvk_stream *stream);

#endif
