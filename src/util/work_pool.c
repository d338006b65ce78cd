#include "util/work_pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/device_policy.h"
#include "util/log.h"

struct work_pool {
   pthread_mutex_t lock;
   pthread_cond_t wake;   /* workers: work queued, or stop */
   struct cuvk_list queue;
   bool stop;
   unsigned started;
   pthread_t *workers;
   pid_t pid;             /* of the process that started them */
};

static pthread_once_t threads_once = PTHREAD_ONCE_INIT;
static unsigned threads_setting;

static void
threads_read(void)
{
   const char *why;
   threads_setting = cuvk_policy_compile_threads(&why);
   cuvk_logd("compile pool: %u threads (%s)", threads_setting, why);
}

unsigned
cuvk_work_threads(void)
{
   pthread_once(&threads_once, threads_read);
   return threads_setting;
}

static void *
worker_main(void *data)
{
   struct work_pool *pool = data;

   pthread_mutex_lock(&pool->lock);
   for (;;) {
      while (!pool->stop && cuvk_list_is_empty(&pool->queue))
         pthread_cond_wait(&pool->wake, &pool->lock);
      if (pool->stop)
         break;
      struct cuvk_work *w = cuvk_list_first_entry(&pool->queue, struct cuvk_work, link);
      cuvk_list_del(&w->link);
      w->queued = false;
      pthread_mutex_unlock(&pool->lock);
      /* w may be freed by its owner once run returns: not touched after. */
      w->run(w);
      pthread_mutex_lock(&pool->lock);
   }
   pthread_mutex_unlock(&pool->lock);
   return NULL;
}

static pthread_once_t pool_once = PTHREAD_ONCE_INIT;
static struct work_pool *the_pool;

static void pool_at_exit(void);

static void
pool_create(void)
{
   unsigned n = cuvk_work_threads();
   if (n == 0)
      return;
   struct work_pool *pool = calloc(1, sizeof(*pool));
   pthread_t *workers = calloc(n, sizeof(*workers));
   if (!pool || !workers) {
      free(pool);
      free(workers);
      return;
   }
   pthread_mutex_init(&pool->lock, NULL);
   pthread_cond_init(&pool->wake, NULL);
   cuvk_list_init(&pool->queue);
   pool->workers = workers;
   pool->pid = getpid();
   for (unsigned i = 0; i < n; i++) {
      int err = pthread_create(&pool->workers[i], NULL, worker_main, pool);
      if (err) {
         cuvk_logw("compile pool: starting worker %u of %u failed (%s); going on with %u", i + 1, n,
                   strerror(err), i);
         break;
      }
      pool->started++;
   }
   the_pool = pool;
   if (atexit(pool_at_exit) != 0)
      cuvk_logw("compile pool: cannot stop the workers at exit");
}

/* Stops the workers and drops what is still queued, running each dropped
 * item with dropped set so that an owner counting its items (a module
 * waits for its own before it goes) sees them end.  Called at exit and at
 * the library's unload, whichever comes first; the pool's memory stays
 * until the unload, since other threads may still submit (and are told
 * no) meanwhile. */
static void
pool_shutdown(struct work_pool *pool)
{
   pthread_mutex_lock(&pool->lock);
   bool first = !pool->stop;
   __atomic_store_n(&pool->stop, true, __ATOMIC_RELAXED);
   pthread_cond_broadcast(&pool->wake);
   pthread_mutex_unlock(&pool->lock);
   if (!first)
      return;
   for (unsigned i = 0; i < pool->started; i++)
      pthread_join(pool->workers[i], NULL);
   pthread_mutex_lock(&pool->lock);
   while (!cuvk_list_is_empty(&pool->queue)) {
      struct cuvk_work *w = cuvk_list_first_entry(&pool->queue, struct cuvk_work, link);
      cuvk_list_del(&w->link);
      w->queued = false;
      w->dropped = true;
      pthread_mutex_unlock(&pool->lock);
      w->run(w);
      pthread_mutex_lock(&pool->lock);
   }
   pthread_mutex_unlock(&pool->lock);
}

/* At exit the workers must be joined before the libraries they call into
 * (the Vulkan driver, LLVM) run their destructors: a worker still
 * compiling while LLVM's statics are torn down crashed a program that
 * exited with kernels left to build (nvcc_programs.many_kernels).
 * Registered when the pool starts, so it runs before the destructors of
 * every library loaded until then. */
static void
pool_at_exit(void)
{
   if (the_pool && getpid() == the_pool->pid)
      pool_shutdown(the_pool);
}

/* The workers stop with the library too: a worker asleep in code that
 * dlclose unmapped would crash the process when woken. */
__attribute__((destructor)) static void
pool_destroy(void)
{
   struct work_pool *pool = the_pool;
   if (!pool || getpid() != pool->pid)
      return;
   pool_shutdown(pool);
   the_pool = NULL;
   pthread_cond_destroy(&pool->wake);
   pthread_mutex_destroy(&pool->lock);
   free(pool->workers);
   free(pool);
}

bool
cuvk_work_submit(struct cuvk_work *work)
{
   pthread_once(&pool_once, pool_create);
   struct work_pool *pool = the_pool;
   /* A forked child has the pool's memory but none of its threads. */
   if (!pool || pool->started == 0 || getpid() != pool->pid)
      return false;
   pthread_mutex_lock(&pool->lock);
   bool ok = !pool->stop;
   if (ok) {
      work->queued = true;
      work->dropped = false;
      cuvk_list_addtail(&work->link, &pool->queue);
      pthread_cond_signal(&pool->wake);
   }
   pthread_mutex_unlock(&pool->lock);
   return ok;
}

bool
cuvk_work_stopping(void)
{
   struct work_pool *pool = the_pool;
   return pool && __atomic_load_n(&pool->stop, __ATOMIC_RELAXED);
}

bool
cuvk_work_cancel(struct cuvk_work *work)
{
   struct work_pool *pool = the_pool;
   if (!pool)
      return false;
   pthread_mutex_lock(&pool->lock);
   bool was = work->queued;
   if (was) {
      cuvk_list_del(&work->link);
      work->queued = false;
   }
   pthread_mutex_unlock(&pool->lock);
   return was;
}
