/*
 * Host work in stream order: a per-context worker thread.
 *
 * Some stream operations are done by the host, not the GPU: host
 * functions (cuLaunchHostFunc, cuStreamAddCallback), and the two halves of
 * an emulated external semaphore (src/util/xsem.h), whose wait must be
 * turned into something a GPU queue can wait for and whose signal must be
 * carried out once the GPU reaches it.  Each such operation is an op: wait
 * for a precondition (the context's submission timeline reaching a value,
 * or an emulated semaphore reaching one), run a function, then signal the
 * next value of the context's gate, a timeline semaphore only this worker
 * signals, which the GPU work recorded after the op waits for
 * (cuvk_submit_semaphores).  So nothing in an *Async call blocks the host.
 *
 * Ops run one at a time in the order they were queued.  With one
 * submission timeline per context that order never deadlocks: an op's
 * precondition never depends on an op queued after it.
 */
#ifndef CUVK_API_HOST_QUEUE_H
#define CUVK_API_HOST_QUEUE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <cuda.h>
#include <vulkan/vulkan.h>

#include "util/list.h"

struct cuvk_context;

struct cuvk_host_op {
   struct cuvk_list link;
   /* Precondition: the context's submission timeline reaches `after` (0:
    * none), then, if set, wait(data, timeout_ns) returns true; it blocks up
    * to timeout_ns, and is called again while it returns false. */
   uint64_t after;
   bool (*wait)(void *data, uint64_t timeout_ns);
   /* Then: fn(data, abandoned), where abandoned says the precondition was
    * given up (context teardown) rather than met. */
   void (*fn)(void *data, bool abandoned);
   void *data;
   /* Then: the gate reaches this value (0: no gate). */
   uint64_t gate;
};

struct cuvk_host_queue {
   pthread_mutex_t lock;
   pthread_cond_t cond;
   pthread_cond_t done;             /* broadcast when an op finishes */
   struct cuvk_list ops;            /* cuvk_host_op, oldest first */
   bool running;                    /* thread started */
   bool stop;                       /* exit once ops is empty */
   bool abandon;                    /* op->wait preconditions pass at once */
   bool give_up;                    /* timeline waits pass at once too */
   pthread_t thread;
   VkSemaphore gate;
   uint64_t gate_next;              /* last gate value handed out; ctx lock */
};

CUresult cuvk_host_queue_init(struct cuvk_context *ctx);

/* Stops the worker once its ops are done (joins it). */
void cuvk_host_queue_stop(struct cuvk_context *ctx);

/* cuvk_host_queue_stop, then destroys the gate (the GPU must be idle). */
void cuvk_host_queue_finish(struct cuvk_context *ctx);

/* The gate value the next op will signal.  ctx lock held, and the op is
 * queued under the same hold, so gate values are signalled in order. */
uint64_t cuvk_host_queue_next_gate(struct cuvk_context *ctx);

/* Queues op (malloc'ed; the worker frees it) and starts the worker if
 * needed.  ctx lock held. */
CUresult cuvk_host_queue_push(struct cuvk_context *ctx, struct cuvk_host_op *op);

/* True when no op is queued or running (an op stays queued until it has
 * run): a host signal made now cannot overtake one queued earlier.
 * Takes the queue's lock; ctx lock may be held. */
bool cuvk_host_queue_is_empty(struct cuvk_context *ctx);

/* Blocks until every op whose precondition is the submission timeline at
 * or below value has run, and every op with no precondition and no gate
 * (a semaphore signal after work already done), whatever value is
 * (returns at once when none is queued).  For the
 * synchronising calls: the GPU reaching value is not enough when the host
 * still has to carry out what followed it.  Takes the queue's lock; call
 * it without the context lock. */
void cuvk_host_queue_wait_through(struct cuvk_context *ctx, uint64_t value);

/* Context teardown: waits on emulated semaphores are given up, so the GPU
 * work behind them can drain.  With give_up, waits for the submission
 * timeline are given up too (the GPU is stuck on a native semaphore and
 * the context is being leaked). */
void cuvk_host_queue_abandon(struct cuvk_context *ctx, bool give_up);

#endif
