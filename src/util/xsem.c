/*
 * xsem: see xsem.h.  The page layout below is shared between processes and
 * between builds of cuvk: change it only together with the version.
 */
#include "util/xsem.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/log.h"

#define XSEM_MAGIC 0x6d657378u   /* "xsem" in a little-endian dump */
#define XSEM_VERSION 1u
/* Only the header is ever touched; the memfd is a whole page so that a
 * mapping never reaches past its end. */
#define XSEM_MAP_SIZE 4096u

struct xsem_page {
   uint32_t magic;
   uint32_t version;
   uint32_t type;                  /* enum cuvk_xsem_type */
   _Atomic uint32_t futex;         /* bumped after every change of value */
   _Atomic uint64_t value;         /* timeline counter / binary signals completed */
   _Atomic uint64_t signal_seq;    /* binary: signals enqueued */
   _Atomic uint64_t wait_seq;      /* binary: waits enqueued */
   _Atomic uint64_t pending_max;   /* timeline: highest value signalled or enqueued */
   _Atomic uint32_t sleepers;      /* threads (any process) in FUTEX_WAIT on futex */
   uint32_t reserved;
};

_Static_assert(offsetof(struct xsem_page, value) == 16, "xsem page layout is shared");
_Static_assert(offsetof(struct xsem_page, sleepers) == 48, "xsem page layout is shared");
_Static_assert(sizeof(struct xsem_page) <= XSEM_MAP_SIZE, "xsem header fits its page");

struct cuvk_xsem {
   _Atomic uint32_t refs;
   int fd;
   enum cuvk_xsem_type type;
   struct xsem_page *page;
};

static long
xsem_futex(_Atomic uint32_t *word, int op, uint32_t val, const struct timespec *timeout)
{
   return syscall(SYS_futex, (uint32_t *)word, op, val, timeout, NULL, 0);
}

/* Shared by every process mapping the page, so the non-private ops. */
static void
xsem_wake(struct xsem_page *p)
{
   atomic_fetch_add(&p->futex, 1);
   /* The sleeper increments sleepers before it reads futex; with both
    * sides sequentially consistent, either it reads the bumped word and
    * does not sleep, or we read its increment and wake it. */
   if (atomic_load(&p->sleepers) != 0)
      xsem_futex(&p->futex, FUTEX_WAKE, INT_MAX, NULL);
}

static int
xsem_map(int fd, struct xsem_page **out)
{
   void *map = mmap(NULL, XSEM_MAP_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
   if (map == MAP_FAILED)
      return -errno;
   *out = map;
   return 0;
}

static int
xsem_wrap(int fd, struct xsem_page *page, struct cuvk_xsem **out)
{
   struct cuvk_xsem *s = calloc(1, sizeof(*s));
   if (!s)
      return -ENOMEM;
   atomic_init(&s->refs, 1);
   s->fd = fd;
   s->type = (enum cuvk_xsem_type)page->type;
   s->page = page;
   *out = s;
   return 0;
}

int
cuvk_xsem_create(enum cuvk_xsem_type type, uint64_t initial, struct cuvk_xsem **out)
{
   struct xsem_page *page = NULL;
   int ret;

   if (!out || (type != CUVK_XSEM_BINARY && type != CUVK_XSEM_TIMELINE))
      return -EINVAL;

   int fd = memfd_create("cuvk-xsem", MFD_CLOEXEC | MFD_ALLOW_SEALING);
   if (fd < 0)
      return -errno;
   long page_size = sysconf(_SC_PAGESIZE);
   off_t size = page_size > (long)XSEM_MAP_SIZE ? page_size : XSEM_MAP_SIZE;
   if (ftruncate(fd, size) != 0) {
      ret = -errno;
      goto fail_fd;
   }
   /* Sealed so that no holder can shrink it under another's mapping
    * (which would turn every access into SIGBUS) or grow it. */
   if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
      ret = -errno;
      goto fail_fd;
   }
   ret = xsem_map(fd, &page);
   if (ret)
      goto fail_fd;

   page->version = XSEM_VERSION;
   page->type = type;
   atomic_store(&page->value, initial);
   if (type == CUVK_XSEM_BINARY)
      atomic_store(&page->signal_seq, initial);
   else
      atomic_store(&page->pending_max, initial);
   /* Last, so that an importer that sees the magic sees the rest. */
   __atomic_store_n(&page->magic, XSEM_MAGIC, __ATOMIC_RELEASE);

   ret = xsem_wrap(fd, page, out);
   if (ret)
      goto fail_map;
   return 0;

fail_map:
   munmap(page, XSEM_MAP_SIZE);
fail_fd:
   close(fd);
   return ret;
}

/* The header as read through fd, without mapping. */
static bool
xsem_fd_header(int fd, struct xsem_page *hdr)
{
   struct stat st;

   if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < XSEM_MAP_SIZE)
      return false;
   int seals = fcntl(fd, F_GET_SEALS);
   if (seals < 0 || !(seals & F_SEAL_SHRINK))
      return false;
   if (pread(fd, hdr, sizeof(*hdr), 0) != (ssize_t)sizeof(*hdr))
      return false;
   return hdr->magic == XSEM_MAGIC && hdr->version == XSEM_VERSION &&
          (hdr->type == CUVK_XSEM_BINARY || hdr->type == CUVK_XSEM_TIMELINE);
}

bool
cuvk_xsem_fd_is_xsem(int fd)
{
   struct xsem_page hdr;
   return xsem_fd_header(fd, &hdr);
}

int
cuvk_xsem_import(int fd, struct cuvk_xsem **out)
{
   struct xsem_page hdr, *page = NULL;
   int ret;

   if (!out)
      return -EINVAL;
   if (!xsem_fd_header(fd, &hdr))
      return -EINVAL;

   int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
   if (own < 0)
      return -errno;
   ret = xsem_map(own, &page);
   if (ret)
      goto fail_fd;
   ret = xsem_wrap(own, page, out);
   if (ret)
      goto fail_map;
   return 0;

fail_map:
   munmap(page, XSEM_MAP_SIZE);
fail_fd:
   close(own);
   return ret;
}

int
cuvk_xsem_export_fd(struct cuvk_xsem *s)
{
   int fd = fcntl(s->fd, F_DUPFD_CLOEXEC, 0);
   return fd < 0 ? -errno : fd;
}

struct cuvk_xsem *
cuvk_xsem_ref(struct cuvk_xsem *s)
{
   atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
   return s;
}

void
cuvk_xsem_unref(struct cuvk_xsem *s)
{
   if (!s || atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1)
      return;
   munmap(s->page, XSEM_MAP_SIZE);
   close(s->fd);
   free(s);
}

void
cuvk_xsem_destroy(struct cuvk_xsem *s)
{
   cuvk_xsem_unref(s);
}

enum cuvk_xsem_type
cuvk_xsem_get_type(const struct cuvk_xsem *s)
{
   return s->type;
}

uint64_t
cuvk_xsem_value(const struct cuvk_xsem *s)
{
   return atomic_load(&s->page->value);
}

uint64_t
cuvk_xsem_enqueue_signal(struct cuvk_xsem *s)
{
   return atomic_fetch_add(&s->page->signal_seq, 1) + 1;
}

uint64_t
cuvk_xsem_enqueue_wait(struct cuvk_xsem *s)
{
   return atomic_fetch_add(&s->page->wait_seq, 1) + 1;
}

uint64_t
cuvk_xsem_signals_enqueued(const struct cuvk_xsem *s)
{
   return atomic_load(&s->page->signal_seq);
}

uint64_t
cuvk_xsem_waits_enqueued(const struct cuvk_xsem *s)
{
   return atomic_load(&s->page->wait_seq);
}

bool
cuvk_xsem_enqueue_timeline_signal(struct cuvk_xsem *s, uint64_t v)
{
   struct xsem_page *p = s->page;
   uint64_t max = atomic_load(&p->pending_max);

   do {
      if (v <= max || v <= atomic_load(&p->value))
         return false;
   } while (!atomic_compare_exchange_weak(&p->pending_max, &max, v));
   return true;
}

uint64_t
cuvk_xsem_pending_max(const struct cuvk_xsem *s)
{
   uint64_t max = atomic_load(&s->page->pending_max);
   uint64_t value = atomic_load(&s->page->value);
   return max > value ? max : value;
}

void
cuvk_xsem_signal(struct cuvk_xsem *s, uint64_t v)
{
   struct xsem_page *p = s->page;

   if (s->type == CUVK_XSEM_BINARY) {
      atomic_fetch_add(&p->value, 1);
   } else {
      uint64_t cur = atomic_load(&p->value);
      while (cur < v && !atomic_compare_exchange_weak(&p->value, &cur, v))
         ;
      if (cur >= v)
         return;   /* nothing changed: nobody to wake */
      /* A signal that was never enqueued (a host signal) still counts. */
      uint64_t max = atomic_load(&p->pending_max);
      while (max < v && !atomic_compare_exchange_weak(&p->pending_max, &max, v))
         ;
   }
   xsem_wake(p);
}

bool
cuvk_xsem_wait(struct cuvk_xsem *s, uint64_t v, uint64_t timeout_ns)
{
   struct xsem_page *p = s->page;

   if (atomic_load(&p->value) >= v)
      return true;
   if (timeout_ns == 0)
      return false;

   uint64_t deadline = timeout_ns == CUVK_XSEM_WAIT_FOREVER ? UINT64_MAX
                       : cuvk_clock_ns() + timeout_ns;
   bool reached = false;

   atomic_fetch_add(&p->sleepers, 1);
   for (;;) {
      uint32_t seq = atomic_load(&p->futex);
      if (atomic_load(&p->value) >= v) {
         reached = true;
         break;
      }
      struct timespec rel, *timeout = NULL;
      if (deadline != UINT64_MAX) {
         uint64_t now = cuvk_clock_ns();
         if (now >= deadline)
            break;
         uint64_t left = deadline - now;
         rel.tv_sec = (time_t)(left / 1000000000u);
         rel.tv_nsec = (long)(left % 1000000000u);
         timeout = &rel;
      }
      /* EAGAIN (the word moved), EINTR and ETIMEDOUT all loop back to the
       * checks above. */
      xsem_futex(&p->futex, FUTEX_WAIT, seq, timeout);
   }
   atomic_fetch_sub(&p->sleepers, 1);
   return reached;
}

uint32_t *
cuvk_xsem_futex_word(struct cuvk_xsem *s)
{
   return (uint32_t *)&s->page->futex;
}

uint32_t
cuvk_xsem_futex_seq(const struct cuvk_xsem *s)
{
   return atomic_load(&s->page->futex);
}

void
cuvk_xsem_sleeper_add(struct cuvk_xsem *s, int delta)
{
   if (delta > 0)
      atomic_fetch_add(&s->page->sleepers, (uint32_t)delta);
   else
      atomic_fetch_sub(&s->page->sleepers, (uint32_t)-delta);
}
