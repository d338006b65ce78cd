/*
 * xsem: a semaphore that lives in one page of a sealed memfd, shared by
 * every process and device that holds its fd.
 *
 * It is what VK_LAYER_CUVK_interop hands out as the "opaque fd" of a
 * semaphore on a driver that cannot export semaphores (lavapipe), and what
 * cuvk's cuImportExternalSemaphore recognises.  Nothing here knows Vulkan:
 * xsem_bridge.h connects an xsem to a device's timeline semaphores.
 *
 * The page holds a counter and a futex word.  For a timeline xsem the
 * counter is the timeline value.  For a binary one it counts completed
 * signals, and two more counters number the signals and waits as they are
 * enqueued: the k-th enqueued wait is satisfied once k signals completed,
 * so each wait consumes exactly one signal, in whichever process either
 * was enqueued.
 *
 * Every function is thread-safe.  The page is mapped MAP_SHARED and all of
 * its fields are accessed atomically, so holders in several processes see
 * one state; waiters sleep on the futex word (non-private, since they may be
 * in other processes) and every change bumps it.
 *
 * An xsem is reference-counted so that a pending operation (the bridge's)
 * keeps it alive: cuvk_xsem_destroy is cuvk_xsem_unref.
 */
#ifndef CUVK_UTIL_XSEM_H
#define CUVK_UTIL_XSEM_H

#include <stdbool.h>
#include <stdint.h>

enum cuvk_xsem_type {
   CUVK_XSEM_BINARY = 1,
   CUVK_XSEM_TIMELINE = 2,
};

struct cuvk_xsem;

/* Infinite timeout for cuvk_xsem_wait. */
#define CUVK_XSEM_WAIT_FOREVER UINT64_MAX

/* A new xsem with its own memfd.  initial: the timeline's value, or for a
 * binary xsem the number of signals it starts with (0 or 1).  0 or -errno. */
int cuvk_xsem_create(enum cuvk_xsem_type type, uint64_t initial, struct cuvk_xsem **out);

/* Maps the xsem behind fd (which may come from another process).  Keeps a
 * duplicate of fd for itself: the caller still owns fd and closes it
 * (after success too).  -EINVAL when fd is not an xsem; 0 or -errno. */
int cuvk_xsem_import(int fd, struct cuvk_xsem **out);

/* Whether fd is an xsem's memfd: its seals can be read and its page starts
 * with the xsem header.  Reads only; never closes or keeps fd. */
bool cuvk_xsem_fd_is_xsem(int fd);

/* A new close-on-exec fd of the same memfd, owned by the caller; -errno. */
int cuvk_xsem_export_fd(struct cuvk_xsem *s);

struct cuvk_xsem *cuvk_xsem_ref(struct cuvk_xsem *s);
/* Drops a reference; the last one unmaps the page and closes the fd. */
void cuvk_xsem_unref(struct cuvk_xsem *s);
/* cuvk_xsem_unref, under the name the create/destroy pair reads best with.
 * NULL is ignored. */
void cuvk_xsem_destroy(struct cuvk_xsem *s);

enum cuvk_xsem_type cuvk_xsem_get_type(const struct cuvk_xsem *s);

/* Timeline: the counter.  Binary: the number of signals completed. */
uint64_t cuvk_xsem_value(const struct cuvk_xsem *s);

/* Binary: numbers a signal about to be enqueued (returns the new count of
 * enqueued signals: 1 for the first).  When it completes, call
 * cuvk_xsem_signal. */
uint64_t cuvk_xsem_enqueue_signal(struct cuvk_xsem *s);

/* Binary: numbers a wait about to be enqueued and returns the value it must
 * wait for (cuvk_xsem_wait / the bridge): the k-th wait waits for k. */
uint64_t cuvk_xsem_enqueue_wait(struct cuvk_xsem *s);

/* Binary: signals and waits enqueued so far (for diagnostics and tests). */
uint64_t cuvk_xsem_signals_enqueued(const struct cuvk_xsem *s);
uint64_t cuvk_xsem_waits_enqueued(const struct cuvk_xsem *s);

/* Timeline: reserves v as the next value to be signalled.  False, and
 * nothing changes, when v is not greater than every value signalled or
 * enqueued so far: Vulkan forbids a timeline from going backwards. */
bool cuvk_xsem_enqueue_timeline_signal(struct cuvk_xsem *s, uint64_t v);

/* Timeline: the highest value signalled or enqueued. */
uint64_t cuvk_xsem_pending_max(const struct cuvk_xsem *s);

/* Completes a signal and wakes every waiter.  Timeline: value = max(value,
 * v).  Binary: one more signal completed (v is ignored). */
void cuvk_xsem_signal(struct cuvk_xsem *s, uint64_t v);

/* Blocks until value >= v or timeout_ns passes (CUVK_XSEM_WAIT_FOREVER:
 * never).  True when the value was reached. */
bool cuvk_xsem_wait(struct cuvk_xsem *s, uint64_t v, uint64_t timeout_ns);

/* For the bridge, which sleeps on many xsems at once: the futex word's
 * address, and the word as it is now.  A sleeper reads the word, checks
 * the value, then sleeps while the word still holds what it read; a change
 * of value always changes the word afterwards.  Sleepers that want to be
 * woken bracket their sleep with cuvk_xsem_sleeper_add(s, +1 / -1). */
uint32_t *cuvk_xsem_futex_word(struct cuvk_xsem *s);
uint32_t cuvk_xsem_futex_seq(const struct cuvk_xsem *s);
void cuvk_xsem_sleeper_add(struct cuvk_xsem *s, int delta);

#endif
