#include "fd_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/kcmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

int
fd_util_list(int *fds, int max)
{
   DIR *dir = opendir("/proc/self/fd");
   int count = 0;

   if (!dir)
      return -1;
   int self = dirfd(dir);
   for (struct dirent *e; (e = readdir(dir));) {
      if (e->d_name[0] == '.')
         continue;
      int fd = atoi(e->d_name);
      if (fd == self)
         continue;
      if (fds && count < max)
         fds[count] = fd;
      count++;
   }
   closedir(dir);
   return count;
}

bool
fd_util_is_open(int fd)
{
   return fcntl(fd, F_GETFD) != -1 || errno != EBADF;
}

int
fd_util_count_same_file(int fd)
{
   int fds[FD_UTIL_MAX];
   int n = fd_util_list(fds, FD_UTIL_MAX);
   int same = 0;
   pid_t pid = getpid();

   for (int i = 0; i < n && i < FD_UTIL_MAX; i++) {
      if (syscall(SYS_kcmp, pid, pid, KCMP_FILE, fd, fds[i]) == 0)
         same++;
   }
   return same;
}

int
fd_util_new_same_file(int fd, const int *before, int n_before, int *out, int max)
{
   int now[FD_UTIL_MAX];
   int n = fd_util_list(now, FD_UTIL_MAX);
   int found = 0;
   pid_t pid = getpid();

   for (int i = 0; i < n && i < FD_UTIL_MAX; i++) {
      bool old = false;
      for (int j = 0; j < n_before && !old; j++)
         old = before[j] == now[i];
      if (old || now[i] == fd || syscall(SYS_kcmp, pid, pid, KCMP_FILE, fd, now[i]) != 0)
         continue;
      if (found < max)
         out[found] = now[i];
      found++;
   }
   return found;
}

int
fd_util_pass_over_socket(int fd)
{
   int sv[2];
   int received = -1;

   if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
      return -1;

   char byte = 'x';
   union {
      struct cmsghdr align;
      char buf[CMSG_SPACE(sizeof(int))];
   } control;
   memset(&control, 0, sizeof(control));

   struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
   struct msghdr msg = {
      .msg_iov = &iov,
      .msg_iovlen = 1,
      .msg_control = control.buf,
      .msg_controllen = sizeof(control.buf),
   };
   struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
   cmsg->cmsg_level = SOL_SOCKET;
   cmsg->cmsg_type = SCM_RIGHTS;
   cmsg->cmsg_len = CMSG_LEN(sizeof(int));
   memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
   if (sendmsg(sv[0], &msg, 0) != 1)
      goto out;

   memset(&control, 0, sizeof(control));
   msg.msg_control = control.buf;
   msg.msg_controllen = sizeof(control.buf);
   if (recvmsg(sv[1], &msg, MSG_CMSG_CLOEXEC) != 1)
      goto out;
   cmsg = CMSG_FIRSTHDR(&msg);
   if (cmsg && cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS)
      memcpy(&received, CMSG_DATA(cmsg), sizeof(int));

out:
   close(sv[0]);
   close(sv[1]);
   return received;
}
