/*
 * xsem_bridge: see xsem_bridge.h.
 *
 * One mutex guards the operation lists and the threads' bookkeeping.  No
 * Vulkan call, xsem signal or callback runs with it held: threads take the
 * operations they complete off the lists first, so a caller enqueueing an
 * operation waits at most for a list update.
 */
#include "util/xsem_bridge.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/list.h"
#include "util/log.h"

#ifndef FUTEX_32
#define FUTEX_32 2
#endif
#ifndef FUTEX_WAITV_MAX
#define FUTEX_WAITV_MAX 128
struct futex_waitv {
   uint64_t val;
   uint64_t uaddr;
   uint32_t flags;
   uint32_t __reserved;
};
#endif
#ifndef SYS_futex_waitv
#define SYS_futex_waitv 449   /* the same number on every architecture */
#endif

enum bridge_op_kind {
   BRIDGE_OP_FORWARD,
   BRIDGE_OP_WHEN,
   BRIDGE_OP_BACKWARD,
};

struct bridge_op {
   struct cuvk_list link;
   enum bridge_op_kind kind;
   VkSemaphore timeline;
   uint64_t value;
   struct cuvk_xsem *s;            /* forward, backward: a reference */
   uint64_t v;
   void (*fn)(void *data);         /* when */
   void (*abandon)(void *data);
   void *data;
};

struct bridge_waiter {
   struct cuvk_list link;
   struct cuvk_xsem_bridge *b;
   pthread_t thread;
   VkSemaphore claimed;            /* the timeline it serves; VK_NULL_HANDLE when idle */
};

struct cuvk_xsem_bridge {
   struct cuvk_xsem_bridge_vk vk;

   pthread_mutex_t lock;
   pthread_cond_t work_cond;       /* idle waiters sleep here */
   pthread_cond_t done_cond;       /* cuvk_xsem_bridge_forget sleeps here */
   struct cuvk_list timeline_ops;  /* forward and when */
   struct cuvk_list xsem_ops;      /* backward */
   unsigned pending;
   bool stopping;

   struct cuvk_list waiters;
   unsigned waiter_count;
   unsigned idle_count;

   bool xsem_thread_started;
   bool xsem_busy;                 /* signalling timelines without the lock */
   pthread_t xsem_thread;
   _Atomic uint32_t doorbell;      /* private futex: new backward ops, stop */
   bool no_waitv;                  /* the kernel has no futex_waitv */
};

/* Bridge threads never run the application's signal handlers. */
static int
bridge_start_thread(pthread_t *thread, void *(*main)(void *), void *arg)
{
   sigset_t all, old;

   sigfillset(&all);
   pthread_sigmask(SIG_SETMASK, &all, &old);
   int ret = pthread_create(thread, NULL, main, arg);
   pthread_sigmask(SIG_SETMASK, &old, NULL);
   return ret;
}

static void
bridge_ring(struct cuvk_xsem_bridge *b)
{
   atomic_fetch_add(&b->doorbell, 1);
   syscall(SYS_futex, (uint32_t *)&b->doorbell, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* An operation that will never complete: drop what it holds. */
static void
bridge_op_abandon(struct bridge_op *op)
{
   if (op->s)
      cuvk_xsem_unref(op->s);
   if (op->kind == BRIDGE_OP_WHEN && op->abandon)
      op->abandon(op->data);
   free(op);
}

static void
bridge_abandon_list(struct cuvk_list *list)
{
   cuvk_list_for_each_entry_safe(struct bridge_op, op, list, link) {
      cuvk_list_del(&op->link);
      bridge_op_abandon(op);
   }
}

static void bridge_complete_timeline_ops(struct cuvk_list *done);

/* Operations taken off the lists by forget or destroy: a forward or when
 * operation whose timeline already got there completes (the caller may
 * destroy the timeline the moment its last batch is done, before a waiter
 * noticed); the rest are abandoned.  Without the lock. */
static void
bridge_settle_list(struct cuvk_xsem_bridge *b, struct cuvk_list *list)
{
   struct cuvk_list done;

   cuvk_list_init(&done);
   cuvk_list_for_each_entry_safe(struct bridge_op, op, list, link) {
      if (op->kind == BRIDGE_OP_BACKWARD)
         continue;
      uint64_t counter = 0;
      if (b->vk.GetSemaphoreCounterValue(b->vk.device, op->timeline, &counter) == VK_SUCCESS &&
          counter >= op->value) {
         cuvk_list_del(&op->link);
         cuvk_list_addtail(&op->link, &done);
      }
   }
   bridge_complete_timeline_ops(&done);
   bridge_abandon_list(list);
}

/* ---- forward and when: the waiters -------------------------------------- */

static bool
bridge_claimed(struct cuvk_xsem_bridge *b, VkSemaphore timeline)
{
   cuvk_list_for_each_entry(struct bridge_waiter, w, &b->waiters, link) {
      if (w->claimed == timeline)
         return true;
   }
   return false;
}

/* A timeline with pending operations that no waiter serves. */
static VkSemaphore
bridge_unclaimed_timeline(struct cuvk_xsem_bridge *b)
{
   cuvk_list_for_each_entry(struct bridge_op, op, &b->timeline_ops, link) {
      if (!bridge_claimed(b, op->timeline))
         return op->timeline;
   }
   return VK_NULL_HANDLE;
}

/* How many distinct timelines lack a waiter. */
static unsigned
bridge_unclaimed_count(struct cuvk_xsem_bridge *b)
{
   unsigned n = 0;

   cuvk_list_for_each_entry(struct bridge_op, op, &b->timeline_ops, link) {
      if (bridge_claimed(b, op->timeline))
         continue;
      bool seen = false;
      cuvk_list_for_each_entry(struct bridge_op, prev, &b->timeline_ops, link) {
         if (prev == op)
            break;
         if (prev->timeline == op->timeline) {
            seen = true;
            break;
         }
      }
      n += !seen;
   }
   return n;
}

static bool
bridge_min_value(struct cuvk_xsem_bridge *b, VkSemaphore timeline, uint64_t *out)
{
   bool found = false;

   cuvk_list_for_each_entry(struct bridge_op, op, &b->timeline_ops, link) {
      if (op->timeline == timeline && (!found || op->value < *out)) {
         *out = op->value;
         found = true;
      }
   }
   return found;
}

static void
bridge_complete_timeline_ops(struct cuvk_list *done)
{
   cuvk_list_for_each_entry_safe(struct bridge_op, op, done, link) {
      cuvk_list_del(&op->link);
      if (op->kind == BRIDGE_OP_FORWARD) {
         cuvk_xsem_signal(op->s, op->v);
         cuvk_xsem_unref(op->s);
      } else {
         op->fn(op->data);
      }
      free(op);
   }
}

/* With the lock held: serves w->claimed until it has no pending operation
 * (or the bridge stops), then releases it. */
static void
bridge_serve(struct cuvk_xsem_bridge *b, struct bridge_waiter *w)
{
   VkSemaphore timeline = w->claimed;
   uint64_t target;

   while (!b->stopping && bridge_min_value(b, timeline, &target)) {
      pthread_mutex_unlock(&b->lock);

      const VkSemaphoreWaitInfo info = {
         .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
         .semaphoreCount = 1,
         .pSemaphores = &timeline,
         .pValues = &target,
      };
      uint64_t counter = 0;
      VkResult res = b->vk.WaitSemaphores(b->vk.device, &info, CUVK_XSEM_BRIDGE_RECHECK_NS);
      if (res == VK_SUCCESS || res == VK_TIMEOUT)
         res = b->vk.GetSemaphoreCounterValue(b->vk.device, timeline, &counter);
      bool failed = res != VK_SUCCESS;
      if (failed)
         cuvk_loge("xsem bridge: waiting on timeline semaphore %#llx failed (VkResult %d): "
                   "its pending operations are dropped",
                   (unsigned long long)(uintptr_t)timeline, res);

      struct cuvk_list done, dropped;
      cuvk_list_init(&done);
      cuvk_list_init(&dropped);
      pthread_mutex_lock(&b->lock);
      cuvk_list_for_each_entry_safe(struct bridge_op, op, &b->timeline_ops, link) {
         if (op->timeline != timeline || (!failed && op->value > counter))
            continue;
         cuvk_list_del(&op->link);
         cuvk_list_addtail(&op->link, failed ? &dropped : &done);
         b->pending--;
      }
      if (!cuvk_list_is_empty(&done) || !cuvk_list_is_empty(&dropped)) {
         pthread_mutex_unlock(&b->lock);
         bridge_complete_timeline_ops(&done);
         bridge_abandon_list(&dropped);
         pthread_mutex_lock(&b->lock);
      }
   }
   w->claimed = VK_NULL_HANDLE;
   pthread_cond_broadcast(&b->done_cond);
}

static void *
bridge_waiter_main(void *arg)
{
   struct bridge_waiter *w = arg;
   struct cuvk_xsem_bridge *b = w->b;

   pthread_mutex_lock(&b->lock);
   while (!b->stopping) {
      VkSemaphore timeline = bridge_unclaimed_timeline(b);
      if (timeline == VK_NULL_HANDLE) {
         b->idle_count++;
         pthread_cond_wait(&b->work_cond, &b->lock);
         b->idle_count--;
         continue;
      }
      w->claimed = timeline;
      bridge_serve(b, w);
   }
   pthread_mutex_unlock(&b->lock);
   return NULL;
}

/* With the lock held, after a timeline operation was added: wake the idle
 * waiters, and start one more when they cannot cover every unserved
 * timeline.  Fails only when no waiter exists at all. */
static int
bridge_dispatch_waiters(struct cuvk_xsem_bridge *b)
{
   unsigned unclaimed = bridge_unclaimed_count(b);

   if (unclaimed == 0)
      return 0;
   if (b->idle_count)
      pthread_cond_broadcast(&b->work_cond);
   if (unclaimed <= b->idle_count || b->waiter_count >= CUVK_XSEM_BRIDGE_MAX_WAITERS)
      return 0;

   struct bridge_waiter *w = calloc(1, sizeof(*w));
   if (!w)
      return b->waiter_count ? 0 : -ENOMEM;
   w->b = b;
   int ret = bridge_start_thread(&w->thread, bridge_waiter_main, w);
   if (ret) {
      free(w);
      cuvk_logw("xsem bridge: cannot start a waiter thread (%d)", ret);
      return b->waiter_count ? 0 : -EAGAIN;
   }
   cuvk_list_addtail(&w->link, &b->waiters);
   b->waiter_count++;
   return 0;
}

/* ---- backward: the xsem thread ------------------------------------------ */

/* Signals each timeline once, to the highest value that is ready for it,
 * unless the timeline already has it. */
static void
bridge_signal_ready(struct cuvk_xsem_bridge *b, struct cuvk_list *ready)
{
   while (!cuvk_list_is_empty(ready)) {
      struct bridge_op *first = cuvk_list_first_entry(ready, struct bridge_op, link);
      VkSemaphore timeline = first->timeline;
      uint64_t value = 0;

      cuvk_list_for_each_entry_safe(struct bridge_op, op, ready, link) {
         if (op->timeline != timeline)
            continue;
         if (op->value > value)
            value = op->value;
         cuvk_list_del(&op->link);
         cuvk_xsem_unref(op->s);
         free(op);
      }

      uint64_t counter = 0;
      VkResult res = b->vk.GetSemaphoreCounterValue(b->vk.device, timeline, &counter);
      if (res == VK_SUCCESS && counter >= value)
         continue;
      if (res == VK_SUCCESS) {
         const VkSemaphoreSignalInfo info = {
            .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
            .semaphore = timeline,
            .value = value,
         };
         res = b->vk.SignalSemaphore(b->vk.device, &info);
      }
      if (res != VK_SUCCESS)
         cuvk_loge("xsem bridge: signalling timeline semaphore %#llx to %llu failed (VkResult %d)",
                   (unsigned long long)(uintptr_t)timeline, (unsigned long long)value, res);
   }
}

struct bridge_sleep_set {
   unsigned count;
   bool overflow;                                  /* more xsems than futex_waitv takes */
   struct cuvk_xsem *held[FUTEX_WAITV_MAX - 1];    /* one slot is the doorbell's */
   struct futex_waitv wv[FUTEX_WAITV_MAX];
};

/* Adds s to the set, reading its futex word before the caller checks its
 * value, and counts us as a sleeper first so that a signal in between
 * wakes us (see xsem.c). */
static void
bridge_sleep_on(struct bridge_sleep_set *set, struct cuvk_xsem *s)
{
   for (unsigned i = 0; i < set->count; i++) {
      if (set->held[i] == s)
         return;
   }
   if (set->count == CUVK_ARRAY_SIZE(set->held)) {
      set->overflow = true;
      return;
   }
   cuvk_xsem_sleeper_add(s, 1);
   set->held[set->count] = cuvk_xsem_ref(s);
   set->wv[set->count] = (struct futex_waitv){
      .val = cuvk_xsem_futex_seq(s),
      .uaddr = (uint64_t)(uintptr_t)cuvk_xsem_futex_word(s),
      .flags = FUTEX_32,
   };
   set->count++;
}

static void
bridge_sleep_release(struct bridge_sleep_set *set)
{
   for (unsigned i = 0; i < set->count; i++) {
      cuvk_xsem_sleeper_add(set->held[i], -1);
      cuvk_xsem_unref(set->held[i]);
   }
   set->count = 0;
   set->overflow = false;
}

static void
bridge_nap(uint64_t ns)
{
   struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u), .tv_nsec = (long)(ns % 1000000000u) };
   nanosleep(&ts, NULL);
}

/* Sleeps until a futex of the set or the doorbell moves. */
static void
bridge_sleep(struct cuvk_xsem_bridge *b, struct bridge_sleep_set *set, uint32_t bell)
{
   if (set->count == 0 && !set->overflow) {
      syscall(SYS_futex, (uint32_t *)&b->doorbell, FUTEX_WAIT_PRIVATE, bell, NULL, NULL, 0);
      return;
   }
   if (b->no_waitv) {
      bridge_nap(CUVK_XSEM_BRIDGE_POLL_NS);
      return;
   }

   struct timespec deadline, *timeout = NULL;
   if (set->overflow) {
      /* The xsems that did not fit are polled. */
      clock_gettime(CLOCK_MONOTONIC, &deadline);
      deadline.tv_nsec += (long)CUVK_XSEM_BRIDGE_POLL_NS;
      if (deadline.tv_nsec >= 1000000000) {
         deadline.tv_sec++;
         deadline.tv_nsec -= 1000000000;
      }
      timeout = &deadline;
   }
   set->wv[set->count] = (struct futex_waitv){
      .val = bell,
      .uaddr = (uint64_t)(uintptr_t)&b->doorbell,
      .flags = FUTEX_32 | FUTEX_PRIVATE_FLAG,
   };
   long r = syscall(SYS_futex_waitv, set->wv, set->count + 1, 0, timeout, CLOCK_MONOTONIC);
   if (r < 0 && errno == ENOSYS) {
      cuvk_logi("xsem bridge: no futex_waitv in this kernel; pending xsems are polled every %llu us",
                CUVK_XSEM_BRIDGE_POLL_NS / 1000);
      b->no_waitv = true;
   }
}

static void *
bridge_xsem_main(void *arg)
{
   struct cuvk_xsem_bridge *b = arg;
   struct bridge_sleep_set *set = calloc(1, sizeof(*set));

   if (!set) {
      cuvk_loge("xsem bridge: out of memory starting the xsem thread");
      return NULL;
   }

   pthread_mutex_lock(&b->lock);
   while (!b->stopping) {
      /* Read before the lists: an operation added after this rings it. */
      uint32_t bell = atomic_load(&b->doorbell);
      struct cuvk_list ready;
      cuvk_list_init(&ready);

      cuvk_list_for_each_entry_safe(struct bridge_op, op, &b->xsem_ops, link) {
         bridge_sleep_on(set, op->s);
         if (cuvk_xsem_value(op->s) >= op->v) {
            cuvk_list_del(&op->link);
            cuvk_list_addtail(&op->link, &ready);
            b->pending--;
         }
      }

      b->xsem_busy = !cuvk_list_is_empty(&ready);
      pthread_mutex_unlock(&b->lock);
      if (cuvk_list_is_empty(&ready)) {
         bridge_sleep(b, set, bell);
         bridge_sleep_release(set);
         pthread_mutex_lock(&b->lock);
      } else {
         bridge_sleep_release(set);
         bridge_signal_ready(b, &ready);
         pthread_mutex_lock(&b->lock);
         b->xsem_busy = false;
         pthread_cond_broadcast(&b->done_cond);
      }
   }
   pthread_mutex_unlock(&b->lock);
   free(set);
   return NULL;
}

/* ---- the API ------------------------------------------------------------ */

int
cuvk_xsem_bridge_create(const struct cuvk_xsem_bridge_vk *vk, struct cuvk_xsem_bridge **out)
{
   if (!vk || !out || !vk->device || !vk->WaitSemaphores || !vk->SignalSemaphore ||
       !vk->GetSemaphoreCounterValue)
      return -EINVAL;

   struct cuvk_xsem_bridge *b = calloc(1, sizeof(*b));
   if (!b)
      return -ENOMEM;
   b->vk = *vk;
   pthread_mutex_init(&b->lock, NULL);
   pthread_condattr_t attr;
   pthread_condattr_init(&attr);
   pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
   pthread_cond_init(&b->work_cond, &attr);
   pthread_cond_init(&b->done_cond, &attr);
   pthread_condattr_destroy(&attr);
   cuvk_list_init(&b->timeline_ops);
   cuvk_list_init(&b->xsem_ops);
   cuvk_list_init(&b->waiters);
   *out = b;
   return 0;
}

void
cuvk_xsem_bridge_destroy(struct cuvk_xsem_bridge *b)
{
   struct cuvk_list abandoned;

   if (!b)
      return;

   cuvk_list_init(&abandoned);
   pthread_mutex_lock(&b->lock);
   b->stopping = true;
   cuvk_list_for_each_entry_safe(struct bridge_op, op, &b->timeline_ops, link) {
      cuvk_list_del(&op->link);
      cuvk_list_addtail(&op->link, &abandoned);
   }
   cuvk_list_for_each_entry_safe(struct bridge_op, op, &b->xsem_ops, link) {
      cuvk_list_del(&op->link);
      cuvk_list_addtail(&op->link, &abandoned);
   }
   b->pending = 0;
   pthread_cond_broadcast(&b->work_cond);
   bool xsem_thread = b->xsem_thread_started;
   pthread_mutex_unlock(&b->lock);

   bridge_ring(b);
   if (xsem_thread)
      pthread_join(b->xsem_thread, NULL);
   /* Threads are only added under the lock while not stopping, so the
    * list is final. */
   cuvk_list_for_each_entry_safe(struct bridge_waiter, w, &b->waiters, link) {
      pthread_join(w->thread, NULL);
      cuvk_list_del(&w->link);
      free(w);
   }
   bridge_settle_list(b, &abandoned);

   pthread_cond_destroy(&b->done_cond);
   pthread_cond_destroy(&b->work_cond);
   pthread_mutex_destroy(&b->lock);
   free(b);
}

static int
bridge_add_timeline_op(struct cuvk_xsem_bridge *b, struct bridge_op *op)
{
   pthread_mutex_lock(&b->lock);
   if (b->stopping) {
      pthread_mutex_unlock(&b->lock);
      return -ESHUTDOWN;
   }
   cuvk_list_addtail(&op->link, &b->timeline_ops);
   b->pending++;
   int ret = bridge_dispatch_waiters(b);
   if (ret) {
      cuvk_list_del(&op->link);
      b->pending--;
   }
   pthread_mutex_unlock(&b->lock);
   return ret;
}

int
cuvk_xsem_bridge_forward(struct cuvk_xsem_bridge *b, VkSemaphore timeline, uint64_t value,
                         struct cuvk_xsem *s, uint64_t v)
{
   if (!b || !timeline || !s)
      return -EINVAL;
   struct bridge_op *op = calloc(1, sizeof(*op));
   if (!op)
      return -ENOMEM;
   *op = (struct bridge_op){
      .kind = BRIDGE_OP_FORWARD,
      .timeline = timeline,
      .value = value,
      .s = cuvk_xsem_ref(s),
      .v = v,
   };
   int ret = bridge_add_timeline_op(b, op);
   if (ret) {
      cuvk_xsem_unref(s);
      free(op);
   }
   return ret;
}

int
cuvk_xsem_bridge_when_or_abandon(struct cuvk_xsem_bridge *b, VkSemaphore timeline,
                                 uint64_t value, void (*fn)(void *data),
                                 void (*abandon)(void *data), void *data)
{
   if (!b || !timeline || !fn)
      return -EINVAL;
   struct bridge_op *op = calloc(1, sizeof(*op));
   if (!op)
      return -ENOMEM;
   *op = (struct bridge_op){
      .kind = BRIDGE_OP_WHEN,
      .timeline = timeline,
      .value = value,
      .fn = fn,
      .abandon = abandon,
      .data = data,
   };
   int ret = bridge_add_timeline_op(b, op);
   if (ret)
      free(op);
   return ret;
}

int
cuvk_xsem_bridge_when(struct cuvk_xsem_bridge *b, VkSemaphore timeline, uint64_t value,
                      void (*fn)(void *data), void *data)
{
   return cuvk_xsem_bridge_when_or_abandon(b, timeline, value, fn, NULL, data);
}

int
cuvk_xsem_bridge_backward(struct cuvk_xsem_bridge *b, struct cuvk_xsem *s, uint64_t v,
                          VkSemaphore timeline, uint64_t value)
{
   if (!b || !timeline || !s)
      return -EINVAL;
   struct bridge_op *op = calloc(1, sizeof(*op));
   if (!op)
      return -ENOMEM;
   *op = (struct bridge_op){
      .kind = BRIDGE_OP_BACKWARD,
      .timeline = timeline,
      .value = value,
      .s = cuvk_xsem_ref(s),
      .v = v,
   };

   pthread_mutex_lock(&b->lock);
   int ret = b->stopping ? -ESHUTDOWN : 0;
   if (!ret && !b->xsem_thread_started) {
      ret = -bridge_start_thread(&b->xsem_thread, bridge_xsem_main, b);
      b->xsem_thread_started = ret == 0;
      if (ret)
         cuvk_logw("xsem bridge: cannot start the xsem thread (%d)", -ret);
   }
   if (!ret) {
      cuvk_list_addtail(&op->link, &b->xsem_ops);
      b->pending++;
   }
   pthread_mutex_unlock(&b->lock);

   if (ret) {
      cuvk_xsem_unref(s);
      free(op);
      return ret;
   }
   bridge_ring(b);
   return 0;
}

void
cuvk_xsem_bridge_forget(struct cuvk_xsem_bridge *b, VkSemaphore timeline)
{
   struct cuvk_list dropped;

   if (!b || !timeline)
      return;

   cuvk_list_init(&dropped);
   pthread_mutex_lock(&b->lock);
   cuvk_list_for_each_entry_safe(struct bridge_op, op, &b->timeline_ops, link) {
      if (op->timeline == timeline) {
         cuvk_list_del(&op->link);
         cuvk_list_addtail(&op->link, &dropped);
         b->pending--;
      }
   }
   cuvk_list_for_each_entry_safe(struct bridge_op, op, &b->xsem_ops, link) {
      if (op->timeline == timeline) {
         cuvk_list_del(&op->link);
         cuvk_list_addtail(&op->link, &dropped);
         b->pending--;
      }
   }
   /* A waiter may still be inside vkWaitSemaphores on it, and the xsem
    * thread may be about to signal it. */
   while (bridge_claimed(b, timeline) || b->xsem_busy)
      pthread_cond_wait(&b->done_cond, &b->lock);
   pthread_mutex_unlock(&b->lock);

   bridge_settle_list(b, &dropped);
}

unsigned
cuvk_xsem_bridge_pending(struct cuvk_xsem_bridge *b)
{
   pthread_mutex_lock(&b->lock);
   unsigned n = b->pending;
   pthread_mutex_unlock(&b->lock);
   return n;
}
