/*
 * Work submission for one context.
 *
 * A context submits to lanes (struct cuvk_lane): each has a queue, a
 * timeline semaphore, an open batch (a pooled command buffer) and a list
 * of submitted batches.  Every stream is given a lane when it is created,
 * round robin, the legacy stream lane 0.  Within a lane, commands are
 * recorded in the order the host calls arrive with a full compute
 * barrier between them, so streams of one lane never overlap.  Between
 * lanes, CUDA's ordering rules (cuStreamWaitEvent, the legacy stream's
 * implicit synchronisation, sparse binding) are timeline waits in the
 * submissions (docs/design.md, "Streams side by side").  "Done when"
 * is a point: the lane in the top bits of a uint64_t, its timeline value
 * below.  Each lane has a VkQueue of its own where the compute family
 * offers enough (cuvk_submit_plan); where it does not (lavapipe has one
 * queue), lanes share queues, and CUVK_LANES=N makes N such lanes, which
 * exercises the cross-lane waits even on a device with one queue.
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

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <cuda.h>
#include <vulkan/vulkan.h>

#include "util/device_policy.h"
#include "util/list.h"

struct cuvk_context;
struct cuvk_ring;
struct cuvk_stream;

/* A point: the lane in the top 8 bits, a value of its timeline below.
 * Lane 0's points are its plain values, and 0 is "nothing", complete
 * from the start. */
#define CUVK_POINT_LANE_SHIFT 56
#define CUVK_POINT_VALUE_MASK ((UINT64_C(1) << CUVK_POINT_LANE_SHIFT) - 1)

static inline uint32_t
cuvk_point_lane(uint64_t point)
{
   return (uint32_t)(point >> CUVK_POINT_LANE_SHIFT);
}

static inline uint64_t
cuvk_point_value(uint64_t point)
{
   return point & CUVK_POINT_VALUE_MASK;
}

static inline uint64_t
cuvk_point(uint32_t lane, uint64_t value)
{
   return value ? ((uint64_t)lane << CUVK_POINT_LANE_SHIFT) | value : 0;
}

/* One value per lane: everything recorded up to a moment. */
struct cuvk_frontier {
   uint64_t value[CUVK_MAX_LANES];
};

typedef void (*cuvk_deferred_fn)(struct cuvk_context *ctx, void *data);

struct cuvk_deferred {
   struct cuvk_list link;
   cuvk_deferred_fn fn;
   void *data;
   VkDeviceSize bytes;     /* of device memory fn gives back (back-pressure) */
   /* Runs once every lane has passed this: whatever stream used what fn
    * frees is done, without tracking which. */
   struct cuvk_frontier frontier;
};

struct cuvk_batch {
   struct cuvk_list link;
   VkCommandBuffer cmd;
   uint64_t value;         /* timeline value signalled when it completes */
   uint32_t command_count;
   bool recorded;          /* a command was recorded (cuvk_submit_record) */
   bool begun;             /* cmd was begun: a step's (semaphores, sparse
                            * binding, a prerecorded buffer's) never is,
                            * and needs no reset when it retires */
};

/* A VkQueue of the context.  Lanes may share one (more lanes than the
 * family has queues), so calls on it take its lock: Vulkan wants every
 * vkQueue* call on one queue externally synchronised.  (Today every
 * submission also holds the context's lock; the queue's own lock keeps
 * that an implementation detail rather than a requirement.) */
struct cuvk_queue {
   VkQueue handle;
   uint32_t family;
   uint32_t index;            /* within the family */
   float priority;            /* pQueuePriorities: 1.0 for the high lane's */
   pthread_mutex_t lock;
   /* The command ring when it shares this queue (ring.h): it is stopped
    * before every submission here, which would otherwise queue behind a
    * dispatch that does not end. */
   struct cuvk_ring *ring;
};

/* What a context submits to: a queue (its own, or shared with other
 * lanes where the device has fewer), its own timeline, open batch and
 * pending list.  Commands of one lane are ordered by their barriers;
 * between lanes, only by the waits below. */
struct cuvk_lane {
   uint32_t index;
   struct cuvk_queue *queue;
   /* A transfer lane: copies only, its barriers name transfer stages
    * (its queue may have no compute stage). */
   bool transfer;
   VkCommandPool pool;
   VkSemaphore timeline;
   struct cuvk_batch *open;   /* recording, or NULL */
   struct cuvk_list pending;  /* submitted, oldest first */
   struct cuvk_list free;     /* completed, ready for reuse */
   uint64_t next_value;       /* value of the next batch to open */
   uint64_t last_submitted;   /* value of the newest submitted batch */
   uint64_t completed;        /* newest value known complete */
   uint32_t pending_count;    /* batches in pending */
   /* Values of each lane's timeline the next submission on this lane
    * waits for (0: none).  The lane's own entry is a step of its own a
    * batch is not ordered after by barriers: a sparse binding or a
    * semaphore wait (a wait blocks only its own batch). */
   uint64_t wait[CUVK_MAX_LANES];
   /* What submitted batches of this lane already waited for: a wait for
    * no more than this is implied by lane order. */
   uint64_t waited[CUVK_MAX_LANES];
   /* The newest value of blocking work on this lane (the legacy stream,
    * streams without CU_STREAM_NON_BLOCKING), which legacy stream work
    * on other lanes waits for. */
   uint64_t blocking;
};

/* CUVK_TRACE_SUBMIT: where the time of work the host waits for goes,
 * summed per phase between two waits and over the context's life
 * (submit.c prints them).  Everything but the wait is updated with the
 * context lock held. */
struct cuvk_submit_trace {
   unsigned level;            /* 0 off, 1 totals at teardown, 2 a line per wait */
   uint64_t record_start;     /* cuvk_submit_record's clock, 0 outside one */
   /* Since the last wait: */
   uint64_t record_ns;        /* cuvk_submit_record to cuvk_submit_commit's end */
   uint64_t submit_ns;        /* vkEndCommandBuffer + vkQueueSubmit, anywhere */
   uint64_t record_submit_ns; /* the part of submit_ns inside record_ns */
   uint32_t commands, submits, host_ops;
   /* The whole life: */
   uint64_t total_record_ns, total_record_submit_ns, total_submit_ns, total_wait_ns, total_after_ns;
   uint64_t total_commands, total_submits, total_waits, total_polls, total_blocks, total_host_ops;
   /* Waits with nothing recorded since the last (after host ops, or a
    * second synchronisation), kept apart so they do not dilute the
    * figures of waits for work. */
   uint64_t idle_waits, idle_wait_ns, idle_after_ns;
};

struct cuvk_submit {
   struct cuvk_queue queues[CUVK_MAX_LANES];
   uint32_t queue_count;
   struct cuvk_lane lanes[CUVK_MAX_LANES];
   uint32_t lane_count;
   /* Fewer VkQueues than lanes (CUVK_LANES on one queue): lanes submit
    * only when full or waited for, so work of two lanes reaches the
    * queue in another order than recorded, and a missing cross-lane wait
    * shows as wrong results instead of hiding behind the queue order. */
   bool virtual_lanes;
   uint32_t high_lane;        /* cuvk_lane_plan */
   uint32_t transfer_lane;    /* cuvk_lane_plan */
   uint32_t transfer_lane_count;
   uint32_t next_lane;        /* round robin for new streams */
   uint32_t next_transfer_lane; /* round robin over the transfer lanes */
   uint32_t current;          /* lane of the last cuvk_submit_record */
   uint32_t hold;             /* cuvk_submit_hold depth: no idle flushes */
   /* The newest command that used an array: array layouts are tracked
    * per image, not per lane, so array commands of different lanes
    * follow one another (docs/design.md, streams side by side). */
   uint64_t array_point;
   /* Work run once the frontier it was deferred at has passed, oldest
    * first (frontiers only grow, so the head is always the first due). */
   struct cuvk_list deferred;
   /* Memory freed by the host that waits for the GPU, and how much of
    * it an allocation tolerates before it waits
    * (cuvk_submit_throttle_frees). */
   VkDeviceSize deferred_bytes;
   VkDeviceSize deferred_limit;
   /* How long a wait polls the timeline before it blocks, in ns, with
    * the default (auto) scheduling flags: UINT64_MAX polls to the end
    * (CUVK_WAIT_SPIN_US, else submit.c's default for the device). */
   uint64_t auto_spin_ns;
   struct cuvk_submit_trace trace;
};

/* Takes the queues of ctx->lane_plan from ctx->vk and makes the lanes. */
CUresult cuvk_submit_init(struct cuvk_context *ctx);
void cuvk_submit_finish(struct cuvk_context *ctx);

/* The lane for a new stream: the high-priority lane for priority below 0
 * where there is one, else round robin over the other lanes (the legacy
 * stream is on lane 0).  Lock held. */
uint32_t cuvk_submit_pick_lane(struct cuvk_context *ctx, int priority);

/* Which of the transfer lanes a new stream's host copies use (round
 * robin, so two streams' copies reach two copy engines).  Lock held. */
uint32_t cuvk_submit_pick_transfer_lane(struct cuvk_context *ctx);

/* Whether ctx has transfer lanes (cuvk_policy_lanes). */
bool cuvk_submit_has_transfer_lanes(const struct cuvk_context *ctx);

/* Opens a batch on stream's lane if needed and returns its command
 * buffer, with a barrier recorded after the previous command and CUDA's
 * ordering of the stream against other lanes (legacy and blocking
 * streams, cuvk_submit_stream_wait) in place.  *point receives the point
 * the batch will signal, which the caller records as "done when". */
CUresult cuvk_submit_record(struct cuvk_context *ctx, struct cuvk_stream *stream, VkCommandBuffer *cmd,
                            uint64_t *point);

/* As cuvk_submit_record, on the stream's transfer lane where the context
 * has transfer lanes: for a vkCmdCopyBuffer between buffers of heaps
 * shared with the transfer family (pinned host memory and device
 * memory), nothing else.  The stream's next work on its own lane waits
 * for it, and it for the stream's earlier work and waits. */
CUresult cuvk_submit_record_transfer(struct cuvk_context *ctx, struct cuvk_stream *stream, VkCommandBuffer *cmd,
                                     uint64_t *point);

/* Command buffers recorded once and submitted again (launch.c's reused
 * launches, docs/design.md "A launch's command buffer, recorded once").
 *
 * cuvk_submit_alone orders stream's next work as cuvk_submit_record does
 * and says whether a command recorded now would be submitted alone at
 * once: nothing open on the stream's lane, no cuvk_submit_hold, nothing
 * of the lane in flight.  Then every earlier submission of the lane has
 * completed, so no command buffer of the lane's pool is pending, and the
 * caller may, before anything else is recorded, submit one with
 * cuvk_submit_prerecorded instead of recording into a batch.  Such a
 * buffer comes from cuvk_submit_cmd_alloc (the lane's pool: it goes with
 * the context, or earlier with cuvk_submit_cmd_free when not pending),
 * is recorded without ONE_TIME_SUBMIT, and ends with
 * cuvk_submit_record_end, the barrier every batch ends with.  *point
 * receives the point it signals.  Lock held for all. */
CUresult cuvk_submit_alone(struct cuvk_context *ctx, struct cuvk_stream *stream, bool *alone, uint32_t *lane);
CUresult cuvk_submit_cmd_alloc(struct cuvk_context *ctx, uint32_t lane, VkCommandBuffer *cmd);
void cuvk_submit_cmd_free(struct cuvk_context *ctx, uint32_t lane, VkCommandBuffer cmd);
void cuvk_submit_record_end(struct cuvk_context *ctx, uint32_t lane, VkCommandBuffer cmd);
CUresult cuvk_submit_prerecorded(struct cuvk_context *ctx, struct cuvk_stream *stream, uint32_t lane,
                                 VkCommandBuffer cmd, uint64_t *point);

/* Called after the command is recorded: submits now when the lane is
 * idle or the batch is full. */
CUresult cuvk_submit_commit(struct cuvk_context *ctx);

/* Between hold and release, commit submits only full batches; release
 * submits what the held calls recorded if the queue is idle.  Nests; a wait
 * still flushes what it waits for.  Release returns res, the held call's
 * own result, unless that is success and the submit fails.  Both take the
 * context lock; call them without it. */
void cuvk_submit_hold(struct cuvk_context *ctx);
CUresult cuvk_submit_release(struct cuvk_context *ctx, CUresult res);

/* Queues sparse buffer bindings (memory VK_NULL_HANDLE unbinds) on lane 0
 * after everything recorded so far on every lane and before everything
 * recorded later on any, as a step of lane 0's timeline: work deferred
 * after it runs once the binding has happened.  The host does not wait.
 * Lock held. */
CUresult cuvk_submit_bind_sparse(struct cuvk_context *ctx, const VkSparseBufferMemoryBindInfo *binds,
                                 uint32_t bind_count);

/* A semaphore and the value to wait for or signal (ignored for binary
 * semaphores). */
struct cuvk_submit_sem {
   VkSemaphore semaphore;
   uint64_t value;
};

/* Semaphore operations in stream's submission order, without blocking
 * the host.  The signals happen after everything recorded so far on the
 * stream's lane (they ride on the open batch's submit when there is one);
 * everything recorded later there runs after the waits.  The step takes
 * a value of the lane's timeline like a batch, which becomes the
 * stream's last point: a wait nobody signals leaves the stream not
 * ready.  Lock held. */
CUresult cuvk_submit_semaphores(struct cuvk_context *ctx, struct cuvk_stream *stream,
                                const struct cuvk_submit_sem *waits, uint32_t wait_count,
                                const struct cuvk_submit_sem *signals, uint32_t signal_count);

/* Sets stream->last_value to a point that covers everything recorded on
 * stream so far with what CUDA orders it after (events without timing),
 * and with submit, makes it reach the queue (for what the host waits
 * for without flushing: host functions, host signals).  Lock held. */
CUresult cuvk_submit_mark(struct cuvk_context *ctx, struct cuvk_stream *stream, bool submit);

/* Orders stream's later work after point (cuStreamWaitEvent): nothing
 * when point is on the stream's lane, else a wait in the next
 * submission of the lane.  Lock held. */
CUresult cuvk_submit_stream_wait(struct cuvk_context *ctx, struct cuvk_stream *stream, uint64_t point);

/* Submits the open batch of every lane, if any. */
CUresult cuvk_submit_flush(struct cuvk_context *ctx);

/* Runs node->fn(ctx, node->data) once everything recorded so far on
 * every lane has completed (at once when nothing is outstanding).  The
 * node is embedded in the caller's object, so deferring never fails; fn
 * runs with the context lock held and must not take it. */
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

/* The frontier now: every lane's newest recorded value.  Lock held. */
void cuvk_submit_frontier(struct cuvk_context *ctx, struct cuvk_frontier *out);

/* Whether every lane is known past frontier / point, from what the last
 * retire saw (no polling).  Lock held. */
bool cuvk_submit_frontier_passed(struct cuvk_context *ctx, const struct cuvk_frontier *frontier);
bool cuvk_submit_point_passed(struct cuvk_context *ctx, uint64_t point);

/* True when nothing recorded is outstanding on any lane; retires first.
 * Lock held. */
bool cuvk_submit_is_idle(struct cuvk_context *ctx);
/* Whether the host may do a stream's next operation itself, now, in
 * stream order: nothing recorded is outstanding on any lane, no wait is
 * held (external_semaphore_held.c) and no host op is queued, so whatever
 * the operation follows in any stream's order is done.  Lock held. */
bool cuvk_submit_host_turn(struct cuvk_context *ctx);

/* Blocks until point has completed, flushing first if it is in an open
 * batch.  Takes the context lock itself; must be called without it. */
CUresult cuvk_submit_wait(struct cuvk_context *ctx, uint64_t point);

/* Waits for everything recorded on ctx so far, on every lane.  Takes the
 * context lock itself; must be called without it. */
CUresult cuvk_submit_wait_idle(struct cuvk_context *ctx);

/* Non-blocking: flushes point's batch if still open, then polls. Takes
 * the context lock itself. */
CUresult cuvk_submit_is_done(struct cuvk_context *ctx, uint64_t point, bool *done);

/* As cuvk_submit_is_done for everything recorded on every lane. */
CUresult cuvk_submit_is_idle_done(struct cuvk_context *ctx, bool *done);

/* CUVK_TRACE_SUBMIT: counts an operation the host did itself instead of
 * recording it (a small copy or fill on an idle stream).  Lock held. */
static inline void
cuvk_submit_trace_host_op(struct cuvk_submit *s)
{
   s->trace.host_ops++;
}

/* Retires completed batches of every lane and runs deferred work whose
 * frontier passed; lock held. */
void cuvk_submit_retire(struct cuvk_context *ctx);

#endif
