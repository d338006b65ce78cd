/*
 * xsem_bridge: moves progress between xsems (xsem.h) and one VkDevice's
 * timeline semaphores, on threads of its own, so that nobody who enqueues
 * an operation ever blocks.
 *
 *  - forward:  when a timeline reaches a value, signal an xsem;
 *  - backward: when an xsem reaches a value, host-signal a timeline;
 *  - when:     when a timeline reaches a value, call a function.
 *
 * Forward and when operations are served by waiter threads, each waiting
 * on one timeline at a time with a single-semaphore vkWaitSemaphores (a
 * wait-any over several semaphores spins on Mesa's common timeline code,
 * lavapipe's included, so it is never used).  A waiter takes the lowest
 * pending value of its timeline; a lower value enqueued while it waits is
 * served when that wait returns, or at the latest after
 * CUVK_XSEM_BRIDGE_RECHECK_NS.  Waiters are started as distinct timelines
 * get pending operations (up to CUVK_XSEM_BRIDGE_MAX_WAITERS) and parked
 * when they have none.
 *
 * Backward operations are served by one thread that sleeps on every
 * pending xsem's futex word at once (futex_waitv, Linux 5.16) and on a
 * doorbell rung when operations are added.  On older kernels it polls
 * every CUVK_XSEM_BRIDGE_POLL_NS.
 *
 * The caller owns the timelines: before destroying one that was given to
 * the bridge, call cuvk_xsem_bridge_forget, which drops its pending
 * operations and returns once no bridge thread touches it.
 */
#ifndef CUVK_UTIL_XSEM_BRIDGE_H
#define CUVK_UTIL_XSEM_BRIDGE_H

#include <stdint.h>

#include <vulkan/vulkan.h>

#include "util/xsem.h"

#define CUVK_XSEM_BRIDGE_MAX_WAITERS 32
#define CUVK_XSEM_BRIDGE_RECHECK_NS 50000000ull   /* 50 ms */
#define CUVK_XSEM_BRIDGE_POLL_NS 200000ull        /* 200 us, without futex_waitv */

/* The entry points the bridge calls, the caller's own: the layer passes the
 * next layer's, cuvk its device's.  For a device whose timeline semaphores
 * come from VK_KHR_timeline_semaphore, the KHR functions.  CreateSemaphore
 * and DestroySemaphore are not called by this version; they may be NULL. */
struct cuvk_xsem_bridge_vk {
   VkDevice device;
   PFN_vkWaitSemaphores WaitSemaphores;
   PFN_vkSignalSemaphore SignalSemaphore;
   PFN_vkGetSemaphoreCounterValue GetSemaphoreCounterValue;
   PFN_vkCreateSemaphore CreateSemaphore;
   PFN_vkDestroySemaphore DestroySemaphore;
};

struct cuvk_xsem_bridge;

/* 0 or -errno.  Starts no thread yet: threads start with the first
 * operations that need them. */
int cuvk_xsem_bridge_create(const struct cuvk_xsem_bridge_vk *vk, struct cuvk_xsem_bridge **out);

/* Stops and joins every thread.  A pending forward or when operation whose
 * timeline has already reached its value completes (on the caller's
 * thread); the others are abandoned: their xsem references are dropped,
 * nothing is signalled, and `when` operations get their abandon function
 * called (if they gave one).  NULL is ignored.  The timelines must still
 * exist. */
void cuvk_xsem_bridge_destroy(struct cuvk_xsem_bridge *b);

/* When `timeline` (a timeline semaphore of b's device) reaches `value`:
 * cuvk_xsem_signal(s, v).  Holds a reference on s until then.  0 or
 * -errno (-ENOMEM, -EAGAIN when no thread could be started). */
int cuvk_xsem_bridge_forward(struct cuvk_xsem_bridge *b, VkSemaphore timeline, uint64_t value,
                             struct cuvk_xsem *s, uint64_t v);

/* When s reaches v: vkSignalSemaphore(timeline, value), unless the
 * timeline already has that value.  The bridge must be the only one to
 * signal `timeline` (the device may only wait on it), and the caller maps
 * xsem values to timeline values monotonically, so that a timeline value
 * is reached only once every operation at or below it is satisfied.  When
 * several operations on one timeline are ready together, the highest value
 * is signalled once.  0 or -errno. */
int cuvk_xsem_bridge_backward(struct cuvk_xsem_bridge *b, struct cuvk_xsem *s, uint64_t v,
                              VkSemaphore timeline, uint64_t value);

/* When `timeline` reaches `value`: fn(data) on a bridge thread.  fn must
 * not call back into the bridge's destroy.  0 or -errno. */
int cuvk_xsem_bridge_when(struct cuvk_xsem_bridge *b, VkSemaphore timeline, uint64_t value,
                          void (*fn)(void *data), void *data);

/* Like cuvk_xsem_bridge_when; if the operation is dropped instead
 * (cuvk_xsem_bridge_forget of its timeline, cuvk_xsem_bridge_destroy, a
 * lost device), abandon(data) is called instead of fn, so data can be
 * freed.  abandon may be NULL. */
int cuvk_xsem_bridge_when_or_abandon(struct cuvk_xsem_bridge *b, VkSemaphore timeline,
                                     uint64_t value, void (*fn)(void *data),
                                     void (*abandon)(void *data), void *data);

/* Settles every pending operation that names `timeline` (as the timeline
 * of forward/when, or the target of backward) and returns once no bridge
 * thread uses it, so the caller may destroy it.  Forward and when
 * operations the timeline has already reached complete on the caller's
 * thread (an application destroys a semaphore as soon as its last batch
 * is done, maybe before a waiter saw it); the rest are abandoned as in
 * cuvk_xsem_bridge_destroy.  Returns at once when no thread is waiting on
 * it; otherwise within CUVK_XSEM_BRIDGE_RECHECK_NS. */
void cuvk_xsem_bridge_forget(struct cuvk_xsem_bridge *b, VkSemaphore timeline);

/* Pending operations (tests and diagnostics). */
unsigned cuvk_xsem_bridge_pending(struct cuvk_xsem_bridge *b);

#endif
