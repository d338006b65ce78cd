#include "util/host_copy.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/log.h"
#include "util/macros.h"

/* Pieces are at least this large, and a copy is cut into up to
 * PIECES_PER_THREAD per thread, so that a worker that wakes late finds
 * the rest already shared out instead of holding the caller up. */
#define PIECE_MIN (128u << 10)
#define PIECES_PER_THREAD 4u
/* Most threads CUVK_STAGING_THREADS may ask for. */
#define THREADS_MAX 64u
#define THREADS_DEFAULT 4u

struct cuvk_copy_pool {
   unsigned threads;          /* copying, the caller counted */
   unsigned started;          /* workers running */
   pthread_t *workers;
   pid_t pid;                 /* of the process that started them */

   /* One copy at a time: a caller that finds it taken copies alone. */
   pthread_mutex_t job_lock;

   pthread_mutex_t lock;
   pthread_cond_t wake;       /* workers: a job opened, or stop */
   pthread_cond_t idle;       /* caller: pieces done, workers out */
   bool stop;
   bool open;                 /* workers may join the job */
   uint64_t generation;       /* of the newest job */
   unsigned active;           /* workers inside the job */
   struct cuvk_host_copy job;
   uint64_t total;            /* bytes of the job */
   uint64_t piece;            /* bytes per piece, the last one shorter */
   unsigned pieces;
   unsigned next;             /* atomic: next piece to take */
   unsigned done;             /* atomic: pieces finished */
};

/* Copies bytes [begin, end) of the box, counted as if it were packed
 * (row after row, slice after slice). */
static void
copy_range(const struct cuvk_host_copy *c, uint64_t begin, uint64_t end)
{
   uint64_t slice_bytes = c->width * c->rows;
   while (begin < end) {
      uint64_t z = begin / slice_bytes, in_slice = begin % slice_bytes;
      uint64_t y = in_slice / c->width, x = in_slice % c->width;
      uint64_t n = CUVK_MIN(c->width - x, end - begin);
      memcpy(c->dst + z * c->dst_slice + y * c->dst_pitch + x,
             c->src + z * c->src_slice + y * c->src_pitch + x, n);
      begin += n;
   }
}

static void
copy_serial(const struct cuvk_host_copy *c)
{
   /* Contiguous on both sides: one memcpy, whatever the shape. */
   if ((c->rows == 1 || (c->dst_pitch == c->width && c->src_pitch == c->width)) &&
       (c->slices == 1 || (c->dst_slice == c->width * c->rows && c->src_slice == c->width * c->rows))) {
      memcpy(c->dst, c->src, c->width * c->rows * c->slices);
      return;
   }
   copy_range(c, 0, c->width * c->rows * c->slices);
}

/* Takes pieces of the open job until none are left; job is this thread's
 * copy of it. */
static void
take_pieces(struct cuvk_copy_pool *pool, const struct cuvk_host_copy *job, uint64_t total,
            uint64_t piece, unsigned pieces)
{
   for (;;) {
      unsigned i = __atomic_fetch_add(&pool->next, 1, __ATOMIC_RELAXED);
      if (i >= pieces)
         return;
      uint64_t begin = (uint64_t)i * piece;
      copy_range(job, begin, CUVK_MIN(begin + piece, total));
      /* Release: the caller that sees the count reads bytes after it. */
      if (__atomic_add_fetch(&pool->done, 1, __ATOMIC_ACQ_REL) == pieces) {
         pthread_mutex_lock(&pool->lock);
         pthread_cond_broadcast(&pool->idle);
         pthread_mutex_unlock(&pool->lock);
      }
   }
}

static void *
worker_main(void *data)
{
   struct cuvk_copy_pool *pool = data;
   uint64_t seen = 0;

   pthread_mutex_lock(&pool->lock);
   for (;;) {
      while (!pool->stop && !(pool->open && pool->generation != seen))
         pthread_cond_wait(&pool->wake, &pool->lock);
      if (pool->stop)
         break;
      seen = pool->generation;
      /* The job is copied: the caller's own description of it is gone
       * once it returns, which may be before this worker takes a piece. */
      struct cuvk_host_copy job = pool->job;
      uint64_t total = pool->total, piece = pool->piece;
      unsigned pieces = pool->pieces;
      pool->active++;
      pthread_mutex_unlock(&pool->lock);

      take_pieces(pool, &job, total, piece, pieces);

      pthread_mutex_lock(&pool->lock);
      if (--pool->active == 0)
         pthread_cond_broadcast(&pool->idle);
   }
   pthread_mutex_unlock(&pool->lock);
   return NULL;
}

struct cuvk_copy_pool *
cuvk_copy_pool_create(unsigned threads)
{
   struct cuvk_copy_pool *pool = calloc(1, sizeof(*pool));
   if (!pool)
      return NULL;
   pool->threads = CUVK_MAX(threads, 1u);
   pool->workers = calloc(pool->threads, sizeof(*pool->workers));
   if (!pool->workers)
      goto fail_pool;
   pthread_mutex_init(&pool->job_lock, NULL);
   pthread_mutex_init(&pool->lock, NULL);
   pthread_cond_init(&pool->wake, NULL);
   pthread_cond_init(&pool->idle, NULL);
   pool->pid = getpid();

   for (unsigned i = 0; i + 1 < pool->threads; i++) {
      int err = pthread_create(&pool->workers[i], NULL, worker_main, pool);
      if (err) {
         cuvk_logw("host copies: starting worker %u of %u failed (%s); copying with %u threads", i + 1,
                   pool->threads - 1, strerror(err), i + 1);
         break;
      }
      pool->started++;
   }
   return pool;

fail_pool:
   free(pool);
   return NULL;
}

void
cuvk_copy_pool_destroy(struct cuvk_copy_pool *pool)
{
   if (!pool)
      return;
   pthread_mutex_lock(&pool->lock);
   pool->stop = true;
   pthread_cond_broadcast(&pool->wake);
   pthread_mutex_unlock(&pool->lock);
   for (unsigned i = 0; i < pool->started; i++)
      pthread_join(pool->workers[i], NULL);
   pthread_cond_destroy(&pool->idle);
   pthread_cond_destroy(&pool->wake);
   pthread_mutex_destroy(&pool->lock);
   pthread_mutex_destroy(&pool->job_lock);
   free(pool->workers);
   free(pool);
}

bool
cuvk_copy_pool_run(struct cuvk_copy_pool *pool, const struct cuvk_host_copy *copy)
{
   uint64_t total = copy->width * copy->rows * copy->slices;

   if (total == 0)
      return false;
   /* A forked child has the pool's memory but none of its threads. */
   if (!pool || pool->started == 0 || total < CUVK_HOST_COPY_PARALLEL_MIN || getpid() != pool->pid ||
       pthread_mutex_trylock(&pool->job_lock) != 0) {
      copy_serial(copy);
      return false;
   }

   unsigned threads = pool->started + 1;
   uint64_t pieces = CUVK_MIN((uint64_t)threads * PIECES_PER_THREAD, total / PIECE_MIN);
   pieces = CUVK_MAX(pieces, (uint64_t)threads);
   /* Pieces start on cache-line boundaries of the packed stream. */
   uint64_t piece = CUVK_ALIGN_UP((total + pieces - 1) / pieces, 64);
   pieces = (total + piece - 1) / piece;

   pthread_mutex_lock(&pool->lock);
   pool->job = *copy;
   pool->total = total;
   pool->piece = piece;
   pool->pieces = (unsigned)pieces;
   __atomic_store_n(&pool->next, 0, __ATOMIC_RELAXED);
   __atomic_store_n(&pool->done, 0, __ATOMIC_RELAXED);
   pool->generation++;
   pool->open = true;
   pthread_cond_broadcast(&pool->wake);
   pthread_mutex_unlock(&pool->lock);

   take_pieces(pool, copy, total, piece, (unsigned)pieces);

   pthread_mutex_lock(&pool->lock);
   while (__atomic_load_n(&pool->done, __ATOMIC_ACQUIRE) < pieces)
      pthread_cond_wait(&pool->idle, &pool->lock);
   /* Every byte is copied; the next job must not start while a worker
    * still holds this one's piece counter in its hands. */
   pool->open = false;
   while (pool->active)
      pthread_cond_wait(&pool->idle, &pool->lock);
   pthread_mutex_unlock(&pool->lock);
   pthread_mutex_unlock(&pool->job_lock);
   return true;
}

static pthread_once_t threads_once = PTHREAD_ONCE_INIT;
static unsigned threads_setting;

static void
threads_read(void)
{
   long cpus = sysconf(_SC_NPROCESSORS_ONLN);
   threads_setting = (unsigned)CUVK_MIN((long)THREADS_DEFAULT, CUVK_MAX(cpus, 1L));

   const char *env = getenv("CUVK_STAGING_THREADS");
   if (!env || !*env)
      return;
   char *end;
   errno = 0;
   unsigned long n = strtoul(env, &end, 10);
   if (errno || *end || n < 1 || n > THREADS_MAX) {
      cuvk_logw("CUVK_STAGING_THREADS=%s is not a number of threads from 1 to %u; using %u", env, THREADS_MAX,
                threads_setting);
      return;
   }
   threads_setting = (unsigned)n;
}

unsigned
cuvk_host_copy_threads(void)
{
   pthread_once(&threads_once, threads_read);
   return threads_setting;
}

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static struct cuvk_copy_pool *global_pool;

static void
global_create(void)
{
   if (cuvk_host_copy_threads() > 1)
      global_pool = cuvk_copy_pool_create(cuvk_host_copy_threads());
}

/* The workers stop with the library: a worker left asleep in code that
 * dlclose unmapped would crash the process when woken. */
__attribute__((destructor)) static void
global_destroy(void)
{
   if (global_pool && getpid() == global_pool->pid)
      cuvk_copy_pool_destroy(global_pool);
   global_pool = NULL;
}

void
cuvk_host_copy(const struct cuvk_host_copy *copy)
{
   if (copy->width * copy->rows * copy->slices < CUVK_HOST_COPY_PARALLEL_MIN) {
      copy_serial(copy);
      return;
   }
   pthread_once(&global_once, global_create);
   cuvk_copy_pool_run(global_pool, copy);
}

void
cuvk_host_memcpy(void *dst, const void *src, size_t n)
{
   struct cuvk_host_copy c = {
      .dst = dst,
      .src = src,
      .width = n,
      .rows = 1,
      .slices = 1,
   };
   cuvk_host_copy(&c);
}
