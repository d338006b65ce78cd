/*
 * layer.registry.*: the export registry on its own, with memfds standing
 * in for exported memory and plain pointers for owners.
 *
 *  identity_kcmp: an fd is its open file description: dups and copies find
 *    their record, another description of the same inode (a reopen through
 *    /proc, as a driver whose exports share one anonymous inode would give)
 *    does not; owners, updates and forgetting.
 *  identity_without_kcmp: with kcmp refused by a seccomp filter (as in
 *    containers), the inode decides, and only when one owner has it.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fd_util.h"
#include "mem/registry.h"
#include "vk_harness.h"

static int owner_a, owner_b;

static struct cuvk_mem_export_record
record(VkDeviceSize size)
{
   struct cuvk_mem_export_record rec;
   memset(&rec, 0, sizeof(rec));
   rec.allocation_size = size;
   rec.handle_types = VKH_OPAQUE_FD;
   return rec;
}

/* 0 when fd finds nothing, else the allocation size of its record. */
static VkDeviceSize
found_size(int fd)
{
   struct cuvk_mem_export_record rec;
   return cuvk_mem_registry_lookup_fd(fd, &rec) ? rec.allocation_size : 0;
}

/* A second open file description of fd's file. */
static int
reopen(int fd)
{
   char path[64];
   snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
   return open(path, O_RDWR | O_CLOEXEC);
}

static int
identity_kcmp(void)
{
   int open_before = fd_util_list(NULL, 0);
   int a = memfd_create("export-a", MFD_CLOEXEC);
   int b = reopen(a);   /* same inode, another description */
   VKH_CHECK(a >= 0 && b >= 0);

   struct cuvk_mem_export_record rec_a = record(1000), rec_b = record(2000);
   VKH_CHECK(cuvk_mem_registry_register_fd(a, VKH_OPAQUE_FD, &owner_a, &rec_a));
   VKH_CHECK(cuvk_mem_registry_register_fd(b, VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT,
                                           &owner_b, &rec_b));
   /* One kept dup each. */
   VKH_CHECK(fd_util_list(NULL, 0) == open_before + 4);

   /* Registering a description again keeps no second dup. */
   int dup_a = dup(a);
   VKH_CHECK(cuvk_mem_registry_register_fd(dup_a, VKH_OPAQUE_FD, &owner_a, &rec_a));
   VKH_CHECK(fd_util_list(NULL, 0) == open_before + 5);

   VKH_CHECK(found_size(a) == 1000);
   VKH_CHECK(found_size(dup_a) == 1000);
   VKH_CHECK(found_size(b) == 2000);
   int passed_b = fd_util_pass_over_socket(b);
   VKH_CHECK(found_size(passed_b) == 2000);

   struct cuvk_mem_export_record out;
   VKH_CHECK(cuvk_mem_registry_lookup_fd(b, &out));
   VKH_CHECK(out.exported_handle_type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT);
   VKH_CHECK(cuvk_mem_registry_lookup_fd(a, &out));
   VKH_CHECK(out.exported_handle_type == VKH_OPAQUE_FD);

   /* A third description of the shared inode is no export. */
   int c = reopen(a);
   VKH_CHECK(c >= 0 && found_size(c) == 0);

   /* Updates replace the owner's record, whichever fd finds it. */
   rec_a.allocation_size = 1500;
   cuvk_mem_registry_update(&owner_a, &rec_a);
   VKH_CHECK(found_size(dup_a) == 1500);
   cuvk_mem_registry_update(&c, &rec_a);   /* unknown owner: nothing */
   VKH_CHECK(found_size(b) == 2000);

   /* Forgetting closes the owner's kept dup and leaves the other alone. */
   cuvk_mem_registry_forget_owner(&owner_a);
   VKH_CHECK(found_size(a) == 0);
   VKH_CHECK(found_size(b) == 2000);
   cuvk_mem_registry_forget_owner(&owner_a);   /* twice: nothing */
   cuvk_mem_registry_forget_owner(&owner_b);
   VKH_CHECK(found_size(passed_b) == 0);

   /* Not fds. */
   VKH_CHECK(!cuvk_mem_registry_register_fd(-1, VKH_OPAQUE_FD, &owner_a, &rec_a));
   VKH_CHECK(found_size(-1) == 0);
   VKH_CHECK(found_size(1000) == 0);
   cuvk_mem_registry_forget_owner(&owner_a);

   close(a);
   close(b);
   close(c);
   close(dup_a);
   close(passed_b);
   VKH_CHECK(fd_util_list(NULL, 0) == open_before);
   return vkh_failure_count() ? VKH_EXIT_FAIL : VKH_EXIT_PASS;
}

/* Makes kcmp fail with ENOSYS for the rest of the process. */
static bool
refuse_kcmp(void)
{
   struct sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_kcmp, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
   };
   struct sock_fprog prog = {
      .len = sizeof(filter) / sizeof(filter[0]),
      .filter = filter,
   };
   if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
       prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
      perror("seccomp");
      return false;
   }
   return syscall(SYS_kcmp, getpid(), getpid(), 0, 0, 0) == -1 && errno == ENOSYS;
}

static int
identity_without_kcmp(void)
{
   if (!refuse_kcmp())
      return VKH_EXIT_SKIP;

   int a = memfd_create("export-a", MFD_CLOEXEC);
   int other = memfd_create("export-other", MFD_CLOEXEC);
   VKH_CHECK(a >= 0 && other >= 0);
   struct cuvk_mem_export_record rec_a = record(1000), rec_b = record(2000);

   /* One owner per inode: the inode is enough. */
   VKH_CHECK(cuvk_mem_registry_register_fd(a, VKH_OPAQUE_FD, &owner_a, &rec_a));
   int dup_a = dup(a);
   VKH_CHECK(found_size(dup_a) == 1000);
   VKH_CHECK(found_size(other) == 0);

   /* Two owners on one inode: no guessing. */
   int b = reopen(a);
   VKH_CHECK(cuvk_mem_registry_register_fd(b, VKH_OPAQUE_FD, &owner_b, &rec_b));
   VKH_CHECK(found_size(dup_a) == 0);
   VKH_CHECK(found_size(b) == 0);

   cuvk_mem_registry_forget_owner(&owner_b);
   VKH_CHECK(found_size(dup_a) == 1000);
   cuvk_mem_registry_forget_owner(&owner_a);
   VKH_CHECK(found_size(dup_a) == 0);

   close(a);
   close(b);
   close(dup_a);
   close(other);
   return vkh_failure_count() ? VKH_EXIT_FAIL : VKH_EXIT_PASS;
}

int
main(int argc, char **argv)
{
   if (argc == 2 && strcmp(argv[1], "identity_kcmp") == 0)
      return identity_kcmp();
   if (argc == 2 && strcmp(argv[1], "identity_without_kcmp") == 0)
      return identity_without_kcmp();
   fprintf(stderr, "usage: %s identity_kcmp|identity_without_kcmp\n", argv[0]);
   return VKH_EXIT_FAIL;
}
