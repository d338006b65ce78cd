/*
 * A process-wide pool of background worker threads for work nobody is
 * waiting on yet: translating a module's kernels and building their
 * pipelines ahead of their first launch (src/cuda_api/module_ahead.c).
 *
 * Work items run in the order they were queued, each on one worker, with
 * no cuvk lock held.  An item still queued can be taken back
 * (cuvk_work_cancel); one that has started is the submitter's to wait
 * for.  The pool has CUVK_COMPILE_THREADS workers (default the CPUs online
 * less one, at most 16; 0 turns it off), started at the first
 * submission and stopped at exit (before other libraries' destructors)
 * or when the library is unloaded.  Every function
 * may be called from any thread.
 */
#ifndef CUVK_UTIL_WORK_POOL_H
#define CUVK_UTIL_WORK_POOL_H

#include <stdbool.h>

#include "util/list.h"

struct cuvk_work {
   void (*run)(struct cuvk_work *work);
   struct cuvk_list link; /* in the queue, under the pool's lock */
   bool queued;           /* under the pool's lock */
   /* Set when the pool stops (library unload) with the item still
    * queued: run is then called on the stopping thread to let its owner
    * account for it, and must do nothing else. */
   bool dropped;
};

/* CUVK_COMPILE_THREADS, read once: the pool's workers; 0 = no pool. */
unsigned cuvk_work_threads(void);

/* Queues work->run(work) for a worker (work->run set by the caller).
 * False, with nothing queued, when there is no pool (0 threads, threads
 * that do not start, a forked child): the caller does the work itself
 * when it needs it. */
bool cuvk_work_submit(struct cuvk_work *work);

/* True once the pool is stopping (the library is being unloaded): a
 * long-running item should return early. */
bool cuvk_work_stopping(void);

/* Takes work out of the queue if no worker has started it: true then,
 * and it will not run.  False when it has started (or ended). */
bool cuvk_work_cancel(struct cuvk_work *work);

#endif
