/*
 * unit.util.xsem: the shared-page semaphore without Vulkan.  Sharing
 * through an exported fd, a /proc/self/fd reopen and SCM_RIGHTS to a forked
 * child; binary consume semantics; timeline refusal of values that do not
 * increase; wake latency; fd hygiene; what is and is not an xsem fd.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit_test.h"
#include "util/xsem.h"

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
   return n - 1;   /* opendir's own */
}

static bool
fd_is_open(int fd)
{
   return fcntl(fd, F_GETFD) != -1;
}

static void
test_create_export_import(void)
{
   struct cuvk_xsem *a, *b, *c;

   UNIT_CHECK(cuvk_xsem_create(CUVK_XSEM_TIMELINE, 5, &a) == 0);
   UNIT_CHECK(cuvk_xsem_get_type(a) == CUVK_XSEM_TIMELINE);
   UNIT_CHECK(cuvk_xsem_value(a) == 5);

   int fd = cuvk_xsem_export_fd(a);
   UNIT_CHECK(fd >= 0);
   UNIT_CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
   UNIT_CHECK(cuvk_xsem_fd_is_xsem(fd));
   UNIT_CHECK(cuvk_xsem_import(fd, &b) == 0);
   /* The import duplicates; the caller's fd stays its own. */
   UNIT_CHECK(fd_is_open(fd));
   UNIT_CHECK(cuvk_xsem_get_type(b) == CUVK_XSEM_TIMELINE);
   UNIT_CHECK(cuvk_xsem_value(b) == 5);

   /* A fresh open file description of the same memfd, as a process that
    * only knows the fd's number in another process's /proc would get. */
   char path[64];
   snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
   int reopened = open(path, O_RDWR | O_CLOEXEC);
   UNIT_CHECK(reopened >= 0);
   UNIT_CHECK(cuvk_xsem_import(reopened, &c) == 0);
   close(reopened);
   close(fd);

   cuvk_xsem_signal(a, 9);
   UNIT_CHECK(cuvk_xsem_value(b) == 9);
   UNIT_CHECK(cuvk_xsem_value(c) == 9);
   cuvk_xsem_signal(c, 12);
   UNIT_CHECK(cuvk_xsem_value(a) == 12);
   /* A timeline never goes backwards, whoever signals. */
   cuvk_xsem_signal(b, 3);
   UNIT_CHECK(cuvk_xsem_value(a) == 12);

   /* The importer outlives the creator. */
   cuvk_xsem_destroy(a);
   cuvk_xsem_signal(b, 13);
   UNIT_CHECK(cuvk_xsem_value(c) == 13);
   cuvk_xsem_destroy(b);
   cuvk_xsem_destroy(c);
   cuvk_xsem_destroy(NULL);
}

static void
test_not_xsem(void)
{
   struct cuvk_xsem *s = (struct cuvk_xsem *)0x1;
   int p[2];

   UNIT_CHECK(!cuvk_xsem_fd_is_xsem(-1));
   UNIT_CHECK(cuvk_xsem_import(-1, &s) == -EINVAL);
   UNIT_CHECK(pipe(p) == 0);
   UNIT_CHECK(!cuvk_xsem_fd_is_xsem(p[0]));
   UNIT_CHECK(cuvk_xsem_import(p[0], &s) == -EINVAL);
   UNIT_CHECK(fd_is_open(p[0]));
   close(p[0]);
   close(p[1]);

   int null = open("/dev/null", O_RDWR | O_CLOEXEC);
   UNIT_CHECK(!cuvk_xsem_fd_is_xsem(null));
   UNIT_CHECK(cuvk_xsem_import(null, &s) == -EINVAL);
   UNIT_CHECK(fd_is_open(null));
   close(null);

   /* A memfd of the right size and header but unsealed could shrink under
    * a mapping: refused. */
   struct cuvk_xsem *real;
   UNIT_CHECK(cuvk_xsem_create(CUVK_XSEM_BINARY, 0, &real) == 0);
   int real_fd = cuvk_xsem_export_fd(real);
   char page[4096];
   UNIT_CHECK(pread(real_fd, page, sizeof(page), 0) == (ssize_t)sizeof(page));
   int fake = memfd_create("not-xsem", MFD_CLOEXEC);
   UNIT_CHECK(write(fake, page, sizeof(page)) == (ssize_t)sizeof(page));
   UNIT_CHECK(!cuvk_xsem_fd_is_xsem(fake));
   UNIT_CHECK(cuvk_xsem_import(fake, &s) == -EINVAL);
   close(fake);

   /* Sealed but without the header (a zeroed page): refused. */
   int zero = memfd_create("zero", MFD_CLOEXEC | MFD_ALLOW_SEALING);
   UNIT_CHECK(ftruncate(zero, 4096) == 0);
   UNIT_CHECK(fcntl(zero, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) == 0);
   UNIT_CHECK(!cuvk_xsem_fd_is_xsem(zero));
   close(zero);

   close(real_fd);
   cuvk_xsem_destroy(real);
   UNIT_CHECK(s == (struct cuvk_xsem *)0x1);   /* never written on failure */
   UNIT_CHECK(cuvk_xsem_create((enum cuvk_xsem_type)7, 0, &s) == -EINVAL);
}

static void
test_binary_consume(void)
{
   struct cuvk_xsem *s, *peer;

   UNIT_CHECK(cuvk_xsem_create(CUVK_XSEM_BINARY, 0, &s) == 0);
   int fd = cuvk_xsem_export_fd(s);
   UNIT_CHECK(cuvk_xsem_import(fd, &peer) == 0);
   close(fd);

   /* Two waits enqueued on two holders: they are numbered across both. */
   uint64_t w1 = cuvk_xsem_enqueue_wait(s);
   uint64_t w2 = cuvk_xsem_enqueue_wait(peer);
   UNIT_CHECK(w1 == 1 && w2 == 2);
   UNIT_CHECK(!cuvk_xsem_wait(s, w1, 0));

   UNIT_CHECK(cuvk_xsem_enqueue_signal(peer) == 1);
   cuvk_xsem_signal(peer, 0);
   /* One signal satisfies exactly one wait. */
   UNIT_CHECK(cuvk_xsem_wait(s, w1, 0));
   UNIT_CHECK(!cuvk_xsem_wait(s, w2, 1000000));

   UNIT_CHECK(cuvk_xsem_enqueue_signal(s) == 2);
   cuvk_xsem_signal(s, 0);
   UNIT_CHECK(cuvk_xsem_wait(peer, w2, 0));
   UNIT_CHECK(cuvk_xsem_value(peer) == 2);
   UNIT_CHECK(cuvk_xsem_signals_enqueued(s) == 2);
   UNIT_CHECK(cuvk_xsem_waits_enqueued(s) == 2);

   /* A binary xsem created signalled counts that signal. */
   struct cuvk_xsem *pre;
   UNIT_CHECK(cuvk_xsem_create(CUVK_XSEM_BINARY, 1, &pre) == 0);
   UNIT_CHECK(cuvk_xsem_wait(pre, cuvk_xsem_enqueue_wait(pre), 0));
   UNIT_CHECK(!cuvk_xsem_wait(pre, cuvk_xsem_enqueue_wait(pre), 0));
   UNIT_CHECK(cuvk_xsem_enqueue_signal(pre) == 2);

   cuvk_xsem_destroy(pre);
   cuvk_xsem_destroy(peer);
   cuvk_xsem_destroy(s);
}

static void
test_timeline_monotonic(void)
{
   struct cuvk_xsem *s;

   UNIT_CHECK(cuvk_xsem_create(CUVK_XSEM_TIMELINE, 2, &s) == 0);
   UNIT_CHECK(!cuvk_xsem_enqueue_timeline_signal(s, 2));
   UNIT_CHECK(!cuvk_xsem_enqueue_timeline_signal(s, 1));
   UNIT_CHECK(cuvk_xsem_enqueue_timeline_signal(s, 5));
   UNIT_CHECK(cuvk_xsem_pending_max(s) == 5);
   UNIT_CHECK(!cuvk_xsem_enqueue_timeline_signal(s, 5));
   UNIT_CHECK(!cuvk_xsem_enqueue_timeline_signal(s, 4));
   UNIT_CHECK(cuvk_xsem_enqueue_timeline_signal(s, 6));
   UNIT_CHECK(cuvk_xsem_value(s) == 2);
   cuvk_xsem_signal(s, 6);
   UNIT_CHECK(cuvk_xsem_value(s) == 6);
   /* A host signal that was never enqueued still moves the bar. */
   cuvk_xsem_signal(s, 10);
   UNIT_CHECK(!cuvk_xsem_enqueue_timeline_signal(s, 8));
   UNIT_CHECK(cuvk_xsem_pending_max(s) == 10);
   UNIT_CHECK(cuvk_xsem_enqueue_timeline_signal(s, 11));
   UNIT_CHECK(cuvk_xsem_wait(s, 10, 0));
   UNIT_CHECK(!cuvk_xsem_wait(s, 11, 0));
   /* A timed-out wait takes about its timeout. */
   double t0 = unit_now();
   UNIT_CHECK(!cuvk_xsem_wait(s, 11, 20000000));
   double waited = unit_now() - t0;
   UNIT_CHECK(waited >= 0.019 && waited < 1.0);
   cuvk_xsem_destroy(s);
}

/* Sends fd over a unix socket. */
static bool
send_fd(int sock, int fd)
{
   char byte = 'x';
   struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
   union {
      char buf[CMSG_SPACE(sizeof(int))];
      struct cmsghdr align;
   } ctl;
   struct msghdr msg = {
      .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
   };
   struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
   c->cmsg_level = SOL_SOCKET;
   c->cmsg_type = SCM_RIGHTS;
   c->cmsg_len = CMSG_LEN(sizeof(int));
   memcpy(CMSG_DATA(c), &fd, sizeof(int));
   return sendmsg(sock, &msg, 0) == 1;
}

static int
recv_fd(int sock)
{
   char byte;
   struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
   union {
      char buf[CMSG_SPACE(sizeof(int))];
      struct cmsghdr align;
   } ctl;
   struct msghdr msg = {
      .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
   };
   if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != 1)
      return -1;
   struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
   if (!c || c->cmsg_type != SCM_RIGHTS)
      return -1;
   int fd;
   memcpy(&fd, CMSG_DATA(c), sizeof(int));
   return fd;
}

/* The child imports what it is sent, waits for the parent's timeline
 * value, signals its own, and signals the binary xsem twice; its exit
 * status says what went wrong. */
static int
child_main(int sock)
{
   struct cuvk_xsem *t, *bin;
   int fd = recv_fd(sock);
   int fd2 = recv_fd(sock);

   if (fd < 0 || fd2 < 0 || cuvk_xsem_import(fd, &t) || cuvk_xsem_import(fd2, &bin))
      return 10;
   close(fd);
   close(fd2);
   if (!cuvk_xsem_wait(t, 7, 5000000000ull))
      return 11;
   UNIT_CHECK(cuvk_xsem_enqueue_timeline_signal(t, 8));
   cuvk_xsem_signal(t, 8);
   for (int i = 0; i < 2; i++) {
      cuvk_xsem_enqueue_signal(bin);
      cuvk_xsem_signal(bin, 0);
   }
   cuvk_xsem_destroy(bin);
   cuvk_xsem_destroy(t);
   return unit_failure_count() ? 12 : 0;
}

static void
test_fork_scm_rights(void)
{
   struct cuvk_xsem *t, *bin;
   int sv[2];

   UNIT_CHECK(cuvk_xsem_create(CUVK_XSEM_TIMELINE, 0, &t) == 0);
   UNIT_CHECK(cuvk_xsem_create(CUVK_XSEM_BINARY, 0, &bin) == 0);
   UNIT_CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
   uint64_t w1 = cuvk_xsem_enqueue_wait(bin);
   uint64_t w2 = cuvk_xsem_enqueue_wait(bin);

   pid_t pid = fork();
   if (pid == 0) {
      close(sv[0]);
      _exit(child_main(sv[1]));
   }
   close(sv[1]);
   int fd = cuvk_xsem_export_fd(t), fd2 = cuvk_xsem_export_fd(bin);
   UNIT_CHECK(send_fd(sv[0], fd) && send_fd(sv[0], fd2));
   close(fd);
   close(fd2);

   UNIT_CHECK(cuvk_xsem_enqueue_timeline_signal(t, 7));
   cuvk_xsem_signal(t, 7);
   UNIT_CHECK(cuvk_xsem_wait(t, 8, 5000000000ull));
   UNIT_CHECK(cuvk_xsem_wait(bin, w1, 5000000000ull));
   UNIT_CHECK(cuvk_xsem_wait(bin, w2, 5000000000ull));
   /* The child's enqueued signal moved the shared bar. */
   UNIT_CHECK(!cuvk_xsem_enqueue_timeline_signal(t, 8));

   int status = -1;
   UNIT_CHECK(waitpid(pid, &status, 0) == pid);
   UNIT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
   if (!WIFEXITED(status) || WEXITSTATUS(status))
      fprintf(stderr, "child status %#x\n", status);
   close(sv[0]);
   cuvk_xsem_destroy(bin);
   cuvk_xsem_destroy(t);
}

struct latency_ctx {
   struct cuvk_xsem *s;
   int rounds;
   double *woke;           /* when the waiter saw round i */
   _Atomic int ready;
};

static void *
latency_waiter(void *arg)
{
   struct latency_ctx *c = arg;

   for (int i = 1; i <= c->rounds; i++) {
      atomic_store(&c->ready, i);
      if (!cuvk_xsem_wait(c->s, (uint64_t)i, 5000000000ull))
         return NULL;
      c->woke[i - 1] = unit_now();
   }
   return NULL;
}

static int
cmp_double(const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return x < y ? -1 : x > y;
}

/* Signal in this thread -> a thread asleep in cuvk_xsem_wait returns. */
static void
test_wake_latency(void)
{
   enum { ROUNDS = 1000 };
   static double woke[ROUNDS], signalled[ROUNDS], lat[ROUNDS];
   struct latency_ctx c = { .rounds = ROUNDS, .woke = woke };
   pthread_t th;

   UNIT_CHECK(cuvk_xsem_create(CUVK_XSEM_TIMELINE, 0, &c.s) == 0);
   UNIT_CHECK(pthread_create(&th, NULL, latency_waiter, &c) == 0);
   for (int i = 1; i <= ROUNDS; i++) {
      while (atomic_load(&c.ready) < i)
         ;
      /* Give the waiter time to fall asleep, so the wake is measured. */
      struct timespec nap = { 0, 50000 };
      nanosleep(&nap, NULL);
      signalled[i - 1] = unit_now();
      cuvk_xsem_signal(c.s, (uint64_t)i);
   }
   pthread_join(th, NULL);
   for (int i = 0; i < ROUNDS; i++)
      lat[i] = (woke[i] - signalled[i]) * 1e6;
   qsort(lat, ROUNDS, sizeof(lat[0]), cmp_double);
   printf("xsem wake latency: median %.1f us, p90 %.1f us (%d rounds)\n", lat[ROUNDS / 2],
          lat[ROUNDS * 9 / 10], ROUNDS);
   UNIT_CHECK(cuvk_xsem_value(c.s) == ROUNDS);
   /* Loose: a loaded two-core CI machine; the figure is printed. */
   UNIT_CHECK(lat[ROUNDS / 2] < 5000.0);
   cuvk_xsem_destroy(c.s);
}

struct hammer_ctx {
   struct cuvk_xsem *s;
   int count;
};

static void *
hammer(void *arg)
{
   struct hammer_ctx *c = arg;
   for (int i = 0; i < c->count; i++) {
      cuvk_xsem_enqueue_signal(c->s);
      cuvk_xsem_signal(c->s, 0);
   }
   return NULL;
}

static void
test_concurrent_binary(void)
{
   struct hammer_ctx c = { .count = 20000 };
   pthread_t th[4];

   UNIT_CHECK(cuvk_xsem_create(CUVK_XSEM_BINARY, 0, &c.s) == 0);
   for (int i = 0; i < 4; i++)
      UNIT_CHECK(pthread_create(&th[i], NULL, hammer, &c) == 0);
   UNIT_CHECK(cuvk_xsem_wait(c.s, 4 * 20000, 10000000000ull));
   for (int i = 0; i < 4; i++)
      pthread_join(th[i], NULL);
   UNIT_CHECK(cuvk_xsem_value(c.s) == 4 * 20000);
   UNIT_CHECK(cuvk_xsem_signals_enqueued(c.s) == 4 * 20000);
   cuvk_xsem_destroy(c.s);
}

static void
test_no_fd_leak(void)
{
   int before = count_fds();

   for (int i = 0; i < 10000; i++) {
      struct cuvk_xsem *s, *peer;
      if (cuvk_xsem_create(i & 1 ? CUVK_XSEM_TIMELINE : CUVK_XSEM_BINARY, 0, &s)) {
         UNIT_CHECK(!"create");
         break;
      }
      int fd = cuvk_xsem_export_fd(s);
      if (cuvk_xsem_import(fd, &peer) == 0) {
         cuvk_xsem_ref(peer);
         cuvk_xsem_unref(peer);
         cuvk_xsem_destroy(peer);
      } else {
         UNIT_CHECK(!"import");
      }
      close(fd);
      cuvk_xsem_destroy(s);
   }
   int after = count_fds();
   printf("open fds: %d before, %d after 10000 create/export/import/destroy\n", before, after);
   UNIT_CHECK(before == after);
}

int
main(void)
{
   test_create_export_import();
   test_not_xsem();
   test_binary_consume();
   test_timeline_monotonic();
   test_fork_scm_rights();
   test_wake_latency();
   test_concurrent_binary();
   test_no_fd_leak();
   return unit_report("unit.util.xsem");
}
