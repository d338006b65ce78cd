/*
 * unit.util.xsem_bridge: the bridge between xsems and a real VkDevice's
 * timeline semaphores (lavapipe in CI), under the validation layer.
 * forward, backward and when, from host signals and from queue
 * submissions; many timelines at once; forget and destroy with operations
 * pending; latency both ways; fd hygiene.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "unit_test.h"
#include "util/xsem.h"
#include "util/xsem_bridge.h"
#include "vk_harness.h"

static struct vkh h;
static struct cuvk_xsem_bridge_vk bvk;

static int
count_fds(void)
{
   int n = 0;
   DIR *d = opendir("/proc/self/fd");
   if (!d)
      return -1;
   for (struct dirent *e; (e = readdir(d));)
      n += e->d_name[0] != '.';
   closedir(d);
   return n - 1;
}

static VkSemaphore
timeline_create(uint64_t initial)
{
   VkSemaphoreTypeCreateInfo type = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
      .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
      .initialValue = initial,
   };
   VkSemaphoreCreateInfo info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type };
   VkSemaphore s = VK_NULL_HANDLE;
   VKH_CHECK_VK(vkCreateSemaphore(h.device, &info, NULL, &s));
   return s;
}

static void
host_signal(VkSemaphore s, uint64_t v)
{
   VkSemaphoreSignalInfo info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = s,
                                  .value = v };
   VKH_CHECK_VK(vkSignalSemaphore(h.device, &info));
}

static VkResult
host_wait(VkSemaphore s, uint64_t v, uint64_t timeout)
{
   VkSemaphoreWaitInfo info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                                .semaphoreCount = 1, .pSemaphores = &s, .pValues = &v };
   return vkWaitSemaphores(h.device, &info, timeout);
}

static uint64_t
counter(VkSemaphore s)
{
   uint64_t v = 0;
   VKH_CHECK_VK(vkGetSemaphoreCounterValue(h.device, s, &v));
   return v;
}

/* An empty batch that waits on wait=wv (if wait) and signals sig=sv. */
static void
submit(VkSemaphore wait, uint64_t wv, VkSemaphore sig, uint64_t sv)
{
   VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
   VkTimelineSemaphoreSubmitInfo tl = {
      .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
      .waitSemaphoreValueCount = wait ? 1 : 0,
      .pWaitSemaphoreValues = &wv,
      .signalSemaphoreValueCount = 1,
      .pSignalSemaphoreValues = &sv,
   };
   VkSubmitInfo info = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .pNext = &tl,
      .waitSemaphoreCount = wait ? 1 : 0,
      .pWaitSemaphores = &wait,
      .pWaitDstStageMask = &stage,
      .signalSemaphoreCount = 1,
      .pSignalSemaphores = &sig,
   };
   VKH_CHECK_VK(vkQueueSubmit(h.queue, 1, &info, VK_NULL_HANDLE));
}

static void
test_forward(struct cuvk_xsem_bridge *b)
{
   struct cuvk_xsem *x;
   VkSemaphore t = timeline_create(0);

   VKH_CHECK(cuvk_xsem_create(CUVK_XSEM_TIMELINE, 0, &x) == 0);
   /* Host signal of the timeline. */
   VKH_CHECK(cuvk_xsem_bridge_forward(b, t, 3, x, 7) == 0);
   VKH_CHECK(!cuvk_xsem_wait(x, 7, 20000000));
   host_signal(t, 3);
   VKH_CHECK(cuvk_xsem_wait(x, 7, 5000000000ull));

   /* A queue's signals; two operations on one timeline.  (Each value is
    * one a batch signals: the validation layer 1.3.239 reports a host wait
    * for a value between two pending signals as a timeout of its own.) */
   VKH_CHECK(cuvk_xsem_bridge_forward(b, t, 5, x, 9) == 0);
   VKH_CHECK(cuvk_xsem_bridge_forward(b, t, 6, x, 10) == 0);
   submit(VK_NULL_HANDLE, 0, t, 5);
   submit(VK_NULL_HANDLE, 0, t, 6);
   VKH_CHECK(cuvk_xsem_wait(x, 10, 5000000000ull));

   /* A binary xsem counts one signal per operation. */
   struct cuvk_xsem *bin;
   VKH_CHECK(cuvk_xsem_create(CUVK_XSEM_BINARY, 0, &bin) == 0);
   for (int i = 0; i < 3; i++)
      VKH_CHECK(cuvk_xsem_bridge_forward(b, t, 7 + i, bin, cuvk_xsem_enqueue_signal(bin)) == 0);
   for (int i = 0; i < 3; i++)
      submit(VK_NULL_HANDLE, 0, t, 7 + i);
   VKH_CHECK(cuvk_xsem_wait(bin, 3, 5000000000ull));
   usleep(20000);
   VKH_CHECK(cuvk_xsem_value(bin) == 3);

   /* Forgetting a timeline that already got there (an application
    * destroying a semaphore the moment its batch is done) still delivers
    * the signal, before forget returns. */
   for (int i = 0; i < 20; i++) {
      VKH_CHECK(cuvk_xsem_bridge_forward(b, t, 10 + i, x, 20 + i) == 0);
      host_signal(t, 10 + i);
      cuvk_xsem_bridge_forget(b, t);
      VKH_CHECK(cuvk_xsem_value(x) == (uint64_t)(20 + i));
   }

   VKH_CHECK_VK(vkQueueWaitIdle(h.queue));
   cuvk_xsem_bridge_forget(b, t);
   vkDestroySemaphore(h.device, t, NULL);
   cuvk_xsem_destroy(bin);
   cuvk_xsem_destroy(x);
}

static void
test_backward(struct cuvk_xsem_bridge *b)
{
   struct cuvk_xsem *x;
   VkSemaphore w = timeline_create(0);
   VkSemaphore done = timeline_create(0);

   VKH_CHECK(cuvk_xsem_create(CUVK_XSEM_TIMELINE, 0, &x) == 0);
   VKH_CHECK(cuvk_xsem_bridge_backward(b, x, 2, w, 4) == 0);
   VKH_CHECK(host_wait(w, 4, 20000000) == VK_TIMEOUT);
   cuvk_xsem_signal(x, 2);
   VKH_CHECK(host_wait(w, 4, 5000000000ull) == VK_SUCCESS);
   VKH_CHECK(counter(w) == 4);

   /* A queue waits on the bridged timeline before anything signals it. */
   submit(w, 6, done, 1);
   VKH_CHECK(cuvk_xsem_bridge_backward(b, x, 3, w, 6) == 0);
   VKH_CHECK(host_wait(done, 1, 20000000) == VK_TIMEOUT);
   cuvk_xsem_signal(x, 3);
   VKH_CHECK(host_wait(done, 1, 5000000000ull) == VK_SUCCESS);

   /* Ready together: one signal, the highest value. */
   VKH_CHECK(cuvk_xsem_bridge_backward(b, x, 5, w, 8) == 0);
   VKH_CHECK(cuvk_xsem_bridge_backward(b, x, 4, w, 7) == 0);
   cuvk_xsem_signal(x, 5);
   VKH_CHECK(host_wait(w, 8, 5000000000ull) == VK_SUCCESS);

   /* Already satisfied when enqueued. */
   VKH_CHECK(cuvk_xsem_bridge_backward(b, x, 1, w, 9) == 0);
   VKH_CHECK(host_wait(w, 9, 5000000000ull) == VK_SUCCESS);

   /* Binary: each wait consumes one signal. */
   struct cuvk_xsem *bin;
   VkSemaphore wb = timeline_create(0);
   VKH_CHECK(cuvk_xsem_create(CUVK_XSEM_BINARY, 0, &bin) == 0);
   uint64_t k1 = cuvk_xsem_enqueue_wait(bin), k2 = cuvk_xsem_enqueue_wait(bin);
   VKH_CHECK(cuvk_xsem_bridge_backward(b, bin, k1, wb, k1) == 0);
   VKH_CHECK(cuvk_xsem_bridge_backward(b, bin, k2, wb, k2) == 0);
   cuvk_xsem_enqueue_signal(bin);
   cuvk_xsem_signal(bin, 0);
   VKH_CHECK(host_wait(wb, 1, 5000000000ull) == VK_SUCCESS);
   VKH_CHECK(host_wait(wb, 2, 20000000) == VK_TIMEOUT);
   cuvk_xsem_enqueue_signal(bin);
   cuvk_xsem_signal(bin, 0);
   VKH_CHECK(host_wait(wb, 2, 5000000000ull) == VK_SUCCESS);

   VKH_CHECK_VK(vkQueueWaitIdle(h.queue));
   cuvk_xsem_bridge_forget(b, w);
   cuvk_xsem_bridge_forget(b, wb);
   vkDestroySemaphore(h.device, wb, NULL);
   vkDestroySemaphore(h.device, w, NULL);
   vkDestroySemaphore(h.device, done, NULL);
   cuvk_xsem_destroy(bin);
   cuvk_xsem_destroy(x);
}

static void
count_up(void *data)
{
   atomic_fetch_add((_Atomic int *)data, 1);
}

static void
count_abandon(void *data)
{
   atomic_fetch_add((_Atomic int *)data, 1000);
}

static void
test_when(struct cuvk_xsem_bridge *b)
{
   _Atomic int calls = 0;
   VkSemaphore t = timeline_create(0);

   VKH_CHECK(cuvk_xsem_bridge_when(b, t, 1, count_up, (void *)&calls) == 0);
   VKH_CHECK(cuvk_xsem_bridge_when(b, t, 2, count_up, (void *)&calls) == 0);
   VKH_CHECK(cuvk_xsem_bridge_when_or_abandon(b, t, 50, count_up, count_abandon,
                                              (void *)&calls) == 0);
   submit(VK_NULL_HANDLE, 0, t, 1);
   submit(VK_NULL_HANDLE, 0, t, 2);
   for (int i = 0; i < 5000 && atomic_load(&calls) < 2; i++)
      usleep(1000);
   VKH_CHECK(atomic_load(&calls) == 2);
   VKH_CHECK(cuvk_xsem_bridge_pending(b) == 1);
   VKH_CHECK_VK(vkQueueWaitIdle(h.queue));
   /* Forgotten: abandoned, never called. */
   double t0 = unit_now();
   cuvk_xsem_bridge_forget(b, t);
   printf("forget with a waiter blocked on the timeline: %.1f ms\n", (unit_now() - t0) * 1e3);
   VKH_CHECK(atomic_load(&calls) == 1002);
   VKH_CHECK(cuvk_xsem_bridge_pending(b) == 0);
   vkDestroySemaphore(h.device, t, NULL);
}

/* Many timelines pending at once, completed out of order. */
static void
test_many_timelines(struct cuvk_xsem_bridge *b)
{
   enum { N = 12 };
   VkSemaphore t[N];
   struct cuvk_xsem *x;

   VKH_CHECK(cuvk_xsem_create(CUVK_XSEM_BINARY, 0, &x) == 0);
   for (int i = 0; i < N; i++) {
      t[i] = timeline_create(0);
      VKH_CHECK(cuvk_xsem_bridge_forward(b, t[i], 1, x, cuvk_xsem_enqueue_signal(x)) == 0);
   }
   for (int i = N - 1; i >= 0; i--)
      host_signal(t[i], 1);
   VKH_CHECK(cuvk_xsem_wait(x, N, 5000000000ull));
   for (int i = 0; i < N; i++) {
      cuvk_xsem_bridge_forget(b, t[i]);
      vkDestroySemaphore(h.device, t[i], NULL);
   }
   cuvk_xsem_destroy(x);
}

struct lat_ctx {
   struct cuvk_xsem *x;
   VkSemaphore t;
   int rounds;
   double *seen;
   _Atomic int armed;
   bool backward;
};

static void *
lat_observer(void *arg)
{
   struct lat_ctx *c = arg;
   for (int i = 1; i <= c->rounds; i++) {
      atomic_store(&c->armed, i);
      bool ok = c->backward ? host_wait(c->t, (uint64_t)i, 5000000000ull) == VK_SUCCESS
                            : cuvk_xsem_wait(c->x, (uint64_t)i, 5000000000ull);
      if (!ok)
         return NULL;
      c->seen[i - 1] = unit_now();
   }
   return NULL;
}

static int
cmp_double(const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return x < y ? -1 : x > y;
}

/* forward: vkSignalSemaphore(t) -> the observer's cuvk_xsem_wait returns;
 * backward: cuvk_xsem_signal -> the observer's vkWaitSemaphores(t)
 * returns.  Each round's operation is enqueued before the observer waits,
 * as the layer's submits do. */
static void
test_latency(struct cuvk_xsem_bridge *b, bool backward)
{
   enum { ROUNDS = 1000 };
   static double seen[ROUNDS], sent[ROUNDS], lat[ROUNDS];
   struct lat_ctx c = { .rounds = ROUNDS, .seen = seen, .backward = backward };
   pthread_t th;

   VKH_CHECK(cuvk_xsem_create(CUVK_XSEM_TIMELINE, 0, &c.x) == 0);
   c.t = timeline_create(0);
   for (int i = 1; i <= ROUNDS; i++) {
      if (backward)
         VKH_CHECK(cuvk_xsem_bridge_backward(b, c.x, (uint64_t)i, c.t, (uint64_t)i) == 0);
      else
         VKH_CHECK(cuvk_xsem_bridge_forward(b, c.t, (uint64_t)i, c.x, (uint64_t)i) == 0);
   }
   VKH_CHECK(pthread_create(&th, NULL, lat_observer, &c) == 0);
   for (int i = 1; i <= ROUNDS; i++) {
      while (atomic_load(&c.armed) < i)
         ;
      struct timespec nap = { 0, 50000 };
      nanosleep(&nap, NULL);
      sent[i - 1] = unit_now();
      if (backward)
         cuvk_xsem_signal(c.x, (uint64_t)i);
      else
         host_signal(c.t, (uint64_t)i);
   }
   pthread_join(th, NULL);
   for (int i = 0; i < ROUNDS; i++)
      lat[i] = (seen[i] - sent[i]) * 1e6;
   qsort(lat, ROUNDS, sizeof(lat[0]), cmp_double);
   printf("bridge %s latency: median %.1f us, p90 %.1f us (%d rounds)\n",
          backward ? "backward (xsem signal -> vkWaitSemaphores)"
                   : "forward (vkSignalSemaphore -> xsem wait)",
          lat[ROUNDS / 2], lat[ROUNDS * 9 / 10], ROUNDS);
   VKH_CHECK(lat[ROUNDS / 2] < 10000.0);
   VKH_CHECK(cuvk_xsem_bridge_pending(b) == 0);
   cuvk_xsem_bridge_forget(b, c.t);
   vkDestroySemaphore(h.device, c.t, NULL);
   cuvk_xsem_destroy(c.x);
}

/* Destroying a bridge with every kind of operation pending: abandoned,
 * references dropped, threads joined, quickly. */
static void
test_destroy_pending(void)
{
   struct cuvk_xsem_bridge *b;
   struct cuvk_xsem *x;
   _Atomic int calls = 0;
   VkSemaphore t = timeline_create(0), w = timeline_create(0);

   VKH_CHECK(cuvk_xsem_bridge_create(&bvk, &b) == 0);
   VKH_CHECK(cuvk_xsem_create(CUVK_XSEM_TIMELINE, 0, &x) == 0);
   VKH_CHECK(cuvk_xsem_bridge_forward(b, t, 10, x, 1) == 0);
   VKH_CHECK(cuvk_xsem_bridge_backward(b, x, 10, w, 1) == 0);
   VKH_CHECK(cuvk_xsem_bridge_when_or_abandon(b, t, 10, count_up, count_abandon,
                                              (void *)&calls) == 0);
   /* Reached before the bridge goes: delivered by destroy. */
   VkSemaphore done = timeline_create(0);
   struct cuvk_xsem *y;
   VKH_CHECK(cuvk_xsem_create(CUVK_XSEM_TIMELINE, 0, &y) == 0);
   VKH_CHECK(cuvk_xsem_bridge_forward(b, done, 1, y, 5) == 0);
   host_signal(done, 1);
   VKH_CHECK(cuvk_xsem_bridge_pending(b) <= 4);
   usleep(10000);   /* let the threads block */
   double t0 = unit_now();
   cuvk_xsem_bridge_destroy(b);
   printf("destroy with 3 pending operations: %.1f ms\n", (unit_now() - t0) * 1e3);
   VKH_CHECK(atomic_load(&calls) == 1000);
   VKH_CHECK(cuvk_xsem_value(x) == 0);
   VKH_CHECK(cuvk_xsem_value(y) == 5);
   VKH_CHECK(counter(w) == 0);
   cuvk_xsem_destroy(y);
   vkDestroySemaphore(h.device, done, NULL);
   cuvk_xsem_destroy(x);   /* the last reference: the bridge dropped its own */
   vkDestroySemaphore(h.device, t, NULL);
   vkDestroySemaphore(h.device, w, NULL);
   cuvk_xsem_bridge_destroy(NULL);
}

static void
test_bad_args(struct cuvk_xsem_bridge *b)
{
   struct cuvk_xsem_bridge *none = NULL;
   struct cuvk_xsem_bridge_vk empty = { 0 };

   VKH_CHECK(cuvk_xsem_bridge_create(&empty, &none) == -EINVAL && none == NULL);
   VKH_CHECK(cuvk_xsem_bridge_forward(b, VK_NULL_HANDLE, 1, NULL, 1) == -EINVAL);
   VKH_CHECK(cuvk_xsem_bridge_backward(b, NULL, 1, VK_NULL_HANDLE, 1) == -EINVAL);
   VKH_CHECK(cuvk_xsem_bridge_when(b, VK_NULL_HANDLE, 1, NULL, NULL) == -EINVAL);
}

int
main(void)
{
   VkPhysicalDeviceVulkan12Features f12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
      .timelineSemaphore = VK_TRUE,
   };
   struct vkh_options opt = { .device_pnext = &f12 };
   int fds_before = count_fds();

   if (!vkh_init(&h, "unit.util.xsem_bridge", &opt))
      return VKH_EXIT_FAIL;
   bvk = (struct cuvk_xsem_bridge_vk){
      .device = h.device,
      .WaitSemaphores = vkWaitSemaphores,
      .SignalSemaphore = vkSignalSemaphore,
      .GetSemaphoreCounterValue = vkGetSemaphoreCounterValue,
      .CreateSemaphore = vkCreateSemaphore,
      .DestroySemaphore = vkDestroySemaphore,
   };

   struct cuvk_xsem_bridge *b;
   VKH_CHECK(cuvk_xsem_bridge_create(&bvk, &b) == 0);
   test_bad_args(b);
   test_forward(b);
   test_backward(b);
   test_when(b);
   test_many_timelines(b);
   test_latency(b, false);
   test_latency(b, true);
   VKH_CHECK(cuvk_xsem_bridge_pending(b) == 0);
   cuvk_xsem_bridge_destroy(b);
   test_destroy_pending();

   unsigned messages = vkh_finish(&h);
   int fds_after = count_fds();
   printf("open fds: %d before, %d after\n", fds_before, fds_after);
   VKH_CHECK(fds_before == fds_after);
   return vkh_exit(messages);
}
