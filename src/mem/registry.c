/*
 * The registry of exported allocations; see registry.h for what it keeps
 * and how an fd is identified.
 *
 * Owners are a singly linked list and exported handles a flat array: both
 * stay small (one entry per live export) and are only searched when an
 * allocation is exported, bound, freed or imported, never on a hot path.
 */
#include "mem/registry.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/kcmp.h>
#include <sys/syscall.h>
#endif
#endif

#include "util/log.h"

struct registry_owner {
   struct registry_owner *next;
   const void *key;
   struct cuvk_mem_export_record rec;
};

/* One exported handle: the identity it was registered with and what the
 * registry keeps open to compare against. */
struct registry_export {
   struct registry_owner *owner;
   VkExternalMemoryHandleTypeFlagBits handle_type;
#ifdef _WIN32
   HANDLE kept;  /* our duplicate of an NT handle, or the KMT value itself */
   bool is_nt;
#else
   dev_t dev;
   ino_t ino;
   int kept_fd;
#endif
};

static struct {
   pthread_mutex_t lock;
   struct registry_owner *owners;
   struct registry_export *exports;
   uint32_t export_count;
   uint32_t export_capacity;
} registry = {
   .lock = PTHREAD_MUTEX_INITIALIZER,
};

enum registry_same {
   REGISTRY_DIFFERENT,
   REGISTRY_SAME,
   REGISTRY_UNKNOWN,   /* the platform cannot tell */
};

static struct registry_owner *
registry_find_owner(const void *key)
{
   for (struct registry_owner *o = registry.owners; o; o = o->next) {
      if (o->key == key)
         return o;
   }
   return NULL;
}

/* Returns owner's entry, creating it with a copy of rec when new; NULL when
 * out of memory. */
static struct registry_owner *
registry_get_owner(const void *key, const struct cuvk_mem_export_record *rec)
{
   struct registry_owner *o = registry_find_owner(key);

   if (!o) {
      o = malloc(sizeof(*o));
      if (!o)
         return NULL;
      o->key = key;
      o->next = registry.owners;
      registry.owners = o;
   }
   o->rec = *rec;
   return o;
}

static struct registry_export *
registry_add_export(void)
{
   if (registry.export_count == registry.export_capacity) {
      uint32_t cap = registry.export_capacity ? registry.export_capacity * 2 : 8;
      struct registry_export *e = realloc(registry.exports, cap * sizeof(*e));
      if (!e)
         return NULL;
      registry.exports = e;
      registry.export_capacity = cap;
   }
   return &registry.exports[registry.export_count++];
}

static void registry_release_export(struct registry_export *e);

void
cuvk_mem_registry_update(const void *owner, const struct cuvk_mem_export_record *rec)
{
   pthread_mutex_lock(&registry.lock);
   struct registry_owner *o = registry_find_owner(owner);
   if (o)
      o->rec = *rec;
   pthread_mutex_unlock(&registry.lock);
}

void
cuvk_mem_registry_forget_owner(const void *owner)
{
   pthread_mutex_lock(&registry.lock);

   struct registry_owner **link = &registry.owners;
   while (*link && (*link)->key != owner)
      link = &(*link)->next;

   struct registry_owner *o = *link;
   if (o) {
      *link = o->next;

      /* Compact the export array in place, releasing the owner's entries. */
      uint32_t kept = 0;
      for (uint32_t i = 0; i < registry.export_count; i++) {
         if (registry.exports[i].owner == o)
            registry_release_export(&registry.exports[i]);
         else
            registry.exports[kept++] = registry.exports[i];
      }
      registry.export_count = kept;
      free(o);
   }

   /* With no export left, give everything back so that a program that frees
    * its exports ends with nothing allocated here. */
   if (!registry.owners) {
      free(registry.exports);
      registry.exports = NULL;
      registry.export_count = 0;
      registry.export_capacity = 0;
   }

   pthread_mutex_unlock(&registry.lock);
}

#ifndef _WIN32

static void
registry_release_export(struct registry_export *e)
{
   close(e->kept_fd);
}

/* Whether fd and kept refer to the same open file description. */
static enum registry_same
registry_compare_fds(int fd, int kept)
{
#if defined(__linux__) && defined(SYS_kcmp)
   pid_t pid = getpid();
   long r = syscall(SYS_kcmp, pid, pid, KCMP_FILE, fd, kept);

   if (r == 0)
      return REGISTRY_SAME;
   if (r > 0)
      return REGISTRY_DIFFERENT;
   /* Not built in, or refused by a seccomp policy or an LSM. */
   if (errno == ENOSYS || errno == EPERM || errno == EACCES) {
      cuvk_log_once(CUVK_LOG_INFO,
                    "kcmp(KCMP_FILE) is unavailable (%s); exported fds are told apart by inode only",
                    strerror(errno));
      return REGISTRY_UNKNOWN;
   }
   /* EBADF: fd was closed under us; it is no export. */
   return REGISTRY_DIFFERENT;
#else
   (void)fd;
   (void)kept;
   return REGISTRY_UNKNOWN;
#endif
}

/*
 * The export fd refers to, or NULL.  Called with the lock held; st is fd's
 * fstat.  With kcmp, the open file description decides.  Without it, the
 * inode decides, and only when every export with that inode belongs to one
 * owner.
 */
static struct registry_export *
registry_find_fd(int fd, const struct stat *st)
{
   struct registry_export *candidate = NULL;
   bool unknown = false, ambiguous = false;

   /* Newest first: an import usually follows its export closely. */
   for (uint32_t i = registry.export_count; i-- > 0;) {
      struct registry_export *e = &registry.exports[i];

      if (e->dev != st->st_dev || e->ino != st->st_ino)
         continue;

      switch (registry_compare_fds(fd, e->kept_fd)) {
      case REGISTRY_SAME:
         return e;
      case REGISTRY_DIFFERENT:
         break;
      case REGISTRY_UNKNOWN:
         unknown = true;
         if (!candidate)
            candidate = e;
         else if (candidate->owner != e->owner)
            ambiguous = true;
         break;
      }
   }

   if (unknown && candidate && !ambiguous)
      return candidate;
   if (unknown && ambiguous)
      cuvk_logw("fd %d: several exports share its inode and kcmp is unavailable; not guessing", fd);
   return NULL;
}

/*
 * At registration: the entry that already holds fd's file, or NULL.  Only a
 * certain match counts (without kcmp, a new entry costs one more dup, while
 * a wrong match would give one owner's fd to another); an entry of the same
 * owner and inode is as good as the same, since a lookup of either finds
 * that owner.
 */
static struct registry_export *
registry_find_registered(int fd, const struct stat *st, const struct registry_owner *o)
{
   for (uint32_t i = 0; i < registry.export_count; i++) {
      struct registry_export *e = &registry.exports[i];

      if (e->dev != st->st_dev || e->ino != st->st_ino)
         continue;
      enum registry_same same = registry_compare_fds(fd, e->kept_fd);
      if (same == REGISTRY_SAME || (same == REGISTRY_UNKNOWN && e->owner == o))
         return e;
   }
   return NULL;
}

/* Exports kept per allocation.  An application that exports the same
 * memory every frame would otherwise grow the registry (and the fds it
 * keeps) without bound, and on drivers whose fds share one inode (NVIDIA)
 * every lookup compares against every entry.  Imports use recent exports;
 * an older one evicted here imports without the record. */
#define REGISTRY_EXPORTS_PER_OWNER 4u

/* Drops the owner's oldest export once it has the most it may keep; lock
 * held.  Entries are in registration order. */
static void
registry_evict_oldest(const struct registry_owner *o)
{
   uint32_t count = 0, oldest = UINT32_MAX;

   for (uint32_t i = 0; i < registry.export_count; i++) {
      if (registry.exports[i].owner == o) {
         if (oldest == UINT32_MAX)
            oldest = i;
         count++;
      }
   }
   if (count < REGISTRY_EXPORTS_PER_OWNER)
      return;
#ifndef _WIN32
   close(registry.exports[oldest].kept_fd);
#endif
   memmove(&registry.exports[oldest], &registry.exports[oldest + 1],
           (registry.export_count - oldest - 1) * sizeof(registry.exports[0]));
   registry.export_count--;
}

bool
cuvk_mem_registry_register_fd(int fd, VkExternalMemoryHandleTypeFlagBits handle_type,
                              const void *owner, const struct cuvk_mem_export_record *rec)
{
   struct stat st;
   bool ok = false;

   if (fd < 0 || fstat(fd, &st) != 0) {
      cuvk_logw("exported fd %d cannot be identified (%s); it will import without the layer's record",
                fd, fd < 0 ? "negative" : strerror(errno));
      return false;
   }

   pthread_mutex_lock(&registry.lock);

   struct registry_owner *o = registry_get_owner(owner, rec);
   if (!o) {
      cuvk_logw("out of memory registering exported fd %d", fd);
      goto out;
   }

   /* A second vkGetMemoryFdKHR may hand back the same description (a
    * driver can return dups of one file); one kept dup is enough. */
   struct registry_export *e = registry_find_registered(fd, &st, o);
   if (e) {
      e->owner = o;
      e->handle_type = handle_type;
      ok = true;
      goto out;
   }

   registry_evict_oldest(o);
   e = registry_add_export();
   if (!e) {
      cuvk_logw("out of memory registering exported fd %d", fd);
      goto out;
   }

   int kept = fcntl(fd, F_DUPFD_CLOEXEC, 0);
   if (kept < 0) {
      cuvk_logw("cannot keep a duplicate of exported fd %d (%s); it will import without the layer's record",
                fd, strerror(errno));
      registry.export_count--;
      goto out;
   }

   e->owner = o;
   e->handle_type = handle_type;
   e->dev = st.st_dev;
   e->ino = st.st_ino;
   e->kept_fd = kept;
   ok = true;

out:
   pthread_mutex_unlock(&registry.lock);
   return ok;
}

bool
cuvk_mem_registry_lookup_fd(int fd, struct cuvk_mem_export_record *out)
{
   struct stat st;
   bool found = false;

   if (fd < 0 || fstat(fd, &st) != 0)
      return false;

   pthread_mutex_lock(&registry.lock);
   struct registry_export *e = registry_find_fd(fd, &st);
   if (e) {
      *out = e->owner->rec;
      out->exported_handle_type = e->handle_type;
      found = true;
   }
   pthread_mutex_unlock(&registry.lock);
   return found;
}

#else /* _WIN32 */

/* KMT handles are global share names, not references into the process's
 * handle table: they are compared by value and never duplicated or closed. */
static bool
registry_handle_is_nt(VkExternalMemoryHandleTypeFlagBits type)
{
   return type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_BIT ||
          type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_TEXTURE_BIT ||
          type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP_BIT ||
          type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE_BIT;
}

static void
registry_release_export(struct registry_export *e)
{
   if (e->is_nt)
      CloseHandle(e->kept);
}

/* An NT handle is the same export when it names the same kernel object;
 * CompareObjectHandles (Windows 10) says so for any two handles of it. */
static struct registry_export *
registry_find_handle(void *handle)
{
   for (uint32_t i = 0; i < registry.export_count; i++) {
      struct registry_export *e = &registry.exports[i];
      if (e->is_nt ? CompareObjectHandles(handle, e->kept) : handle == e->kept)
         return e;
   }
   return NULL;
}

bool
cuvk_mem_registry_register_win32_handle(void *handle, VkExternalMemoryHandleTypeFlagBits handle_type,
                                        const void *owner,
                                        const struct cuvk_mem_export_record *rec)
{
   bool ok = false;

   pthread_mutex_lock(&registry.lock);

   struct registry_owner *o = registry_get_owner(owner, rec);
   if (!o)
      goto out;

   struct registry_export *e = registry_find_handle(handle);
   if (e) {
      e->owner = o;
      e->handle_type = handle_type;
      ok = true;
      goto out;
   }

   e = registry_add_export();
   if (!e)
      goto out;

   e->is_nt = registry_handle_is_nt(handle_type);
   e->kept = handle;
   if (e->is_nt &&
       !DuplicateHandle(GetCurrentProcess(), handle, GetCurrentProcess(), &e->kept,
                        0, FALSE, DUPLICATE_SAME_ACCESS)) {
      registry.export_count--;
      goto out;
   }
   e->owner = o;
   e->handle_type = handle_type;
   ok = true;

out:
   if (!ok)
      cuvk_logw("cannot register exported handle %p; it will import without the layer's record",
                handle);
   pthread_mutex_unlock(&registry.lock);
   return ok;
}

bool
cuvk_mem_registry_lookup_win32_handle(void *handle, struct cuvk_mem_export_record *out)
{
   bool found = false;

   pthread_mutex_lock(&registry.lock);
   struct registry_export *e = registry_find_handle(handle);
   if (e) {
      *out = e->owner->rec;
      out->exported_handle_type = e->handle_type;
      found = true;
   }
   pthread_mutex_unlock(&registry.lock);
   return found;
}

#endif /* _WIN32 */
