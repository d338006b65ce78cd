/*
 * The disk cache (disk_cache.h says what it promises).
 */
#include "util/disk_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"

#define ENTRY_MAGIC "CUVKDC01"
#define DEFAULT_MAX_SIZE (256ull << 20)
/* No blob cuvk stores comes near this; a bigger file is not an entry. */
#define MAX_ENTRY_SIZE (256ull << 20)
/* Temporary files of writers that died are removed after this long. */
#define STALE_TMP_SECONDS 3600

struct entry_header {
   char magic[8];
   uint8_t key[CUVK_DISK_CACHE_KEY_SIZE];
   uint64_t size;                 /* of the blob that follows */
   uint64_t checksum;             /* of key and blob */
};

static bool
env_is_one(const char *name)
{
   const char *v = getenv(name);
   return v && strcmp(v, "1") == 0;
}

/* The cache directory into buf; false when the cache is off. */
static bool
cache_dir(char *buf, size_t size)
{
   if (env_is_one("CUVK_CACHE_DISABLE") || env_is_one("CUDA_CACHE_DISABLE"))
      return false;
   const char *dir = getenv("CUVK_CACHE_DIR");
   int n;
   if (dir && *dir) {
      n = snprintf(buf, size, "%s", dir);
   } else if ((dir = getenv("XDG_CACHE_HOME")) && *dir == '/') {
      n = snprintf(buf, size, "%s/cuvk", dir);
   } else if ((dir = getenv("HOME")) && *dir) {
      n = snprintf(buf, size, "%s/.cache/cuvk", dir);
   } else {
      return false;
   }
   return n > 0 && (size_t)n < size;
}

bool
cuvk_disk_cache_enabled(void)
{
   char dir[4096];
   return cache_dir(dir, sizeof(dir));
}

static uint64_t
max_size(void)
{
   const char *v = getenv("CUVK_CACHE_MAX_SIZE");
   if (!v || !*v)
      return DEFAULT_MAX_SIZE;
   char *end;
   unsigned long long n = strtoull(v, &end, 10);
   switch (*end) {
   case 'K': case 'k': n <<= 10; break;
   case 'M': case 'm': n <<= 20; break;
   case 'G': case 'g': n <<= 30; break;
   default: break;
   }
   return n;
}

static uint64_t
checksum(const uint8_t *key, const void *data, size_t size)
{
   /* FNV-1a, 64-bit: a corrupt or cut entry, not an attacker, is what it
    * has to catch. */
   uint64_t h = 0xcbf29ce484222325ull;
   for (size_t i = 0; i < CUVK_DISK_CACHE_KEY_SIZE; i++)
      h = (h ^ key[i]) * 0x100000001b3ull;
   const uint8_t *p = data;
   for (size_t i = 0; i < size; i++)
      h = (h ^ p[i]) * 0x100000001b3ull;
   return h;
}

static bool
entry_path(const uint8_t *key, char *path, size_t size, char *dir, size_t dir_size, size_t *dir_len)
{
   if (!cache_dir(dir, dir_size))
      return false;
   char hex[2 * CUVK_DISK_CACHE_KEY_SIZE + 1];
   for (unsigned i = 0; i < CUVK_DISK_CACHE_KEY_SIZE; i++)
      snprintf(hex + 2 * i, 3, "%02x", key[i]);
   *dir_len = strlen(dir);
   int n = snprintf(path, size, "%s/%.2s/%s", dir, hex, hex + 2);
   return n > 0 && (size_t)n < size;
}

void *
cuvk_disk_cache_get(const uint8_t key[CUVK_DISK_CACHE_KEY_SIZE], size_t *size)
{
   char dir[4096], path[4096 + 80];
   size_t dir_len;
   if (!entry_path(key, path, sizeof(path), dir, sizeof(dir), &dir_len))
      return NULL;
   int fd = open(path, O_RDONLY | O_CLOEXEC);
   if (fd < 0)
      return NULL;
   struct stat st;
   struct entry_header h;
   uint8_t *data = NULL;
   const char *why = NULL;
   if (fstat(fd, &st) != 0 || (uint64_t)st.st_size < sizeof(h) || (uint64_t)st.st_size > MAX_ENTRY_SIZE) {
      why = "its size is wrong";
      goto bad;
   }
   if (pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) || memcmp(h.magic, ENTRY_MAGIC, 8) != 0) {
      why = "it is not a cuvk cache entry";
      goto bad;
   }
   if (memcmp(h.key, key, CUVK_DISK_CACHE_KEY_SIZE) != 0) {
      why = "it holds another key";
      goto bad;
   }
   if (h.size != (uint64_t)st.st_size - sizeof(h)) {
      why = "it is truncated or too long";
      goto bad;
   }
   data = malloc(h.size ? h.size : 1);
   if (!data) {
      close(fd);
      return NULL;
   }
   if (pread(fd, data, h.size, sizeof(h)) != (ssize_t)h.size) {
      why = "it cannot be read";
      goto bad;
   }
   if (checksum(key, data, h.size) != h.checksum) {
      why = "its checksum does not match";
      goto bad;
   }
   close(fd);
   /* Reads refresh the time eviction goes by. */
   utimensat(AT_FDCWD, path, NULL, 0);
   *size = h.size;
   return data;

bad:
   cuvk_logw("disk cache: %s is dropped: %s", path, why);
   free(data);
   close(fd);
   unlink(path);
   return NULL;
}

struct file {
   char *path;
   uint64_t size;
   struct timespec mtime;
};

static int
older_first(const void *a, const void *b)
{
   const struct file *x = a, *y = b;
   if (x->mtime.tv_sec != y->mtime.tv_sec)
      return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
   if (x->mtime.tv_nsec != y->mtime.tv_nsec)
      return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
   return 0;
}

/* Removes the least recently used entries until the cache is within 90%
 * of its bound (some room, so the next write does not trim again), and
 * temporary files their writers left behind; returns the bytes left. */
static uint64_t
trim(const char *dir, uint64_t limit)
{
   uint64_t total = 0;
   struct file *files = NULL;
   size_t count = 0, cap = 0;
   DIR *top = opendir(dir);
   if (!top)
      return 0;
   time_t now = time(NULL);
   struct dirent *d;
   while ((d = readdir(top))) {
      if (strlen(d->d_name) != 2 || d->d_name[0] == '.')
         continue;
      char sub[4096 + 8];
      snprintf(sub, sizeof(sub), "%s/%s", dir, d->d_name);
      DIR *in = opendir(sub);
      if (!in)
         continue;
      struct dirent *e;
      while ((e = readdir(in))) {
         if (e->d_name[0] == '.')
            continue;
         char path[4096 + 300];
         snprintf(path, sizeof(path), "%s/%s", sub, e->d_name);
         struct stat st;
         if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
         if (strstr(e->d_name, ".tmp.")) {
            if (now - st.st_mtim.tv_sec > STALE_TMP_SECONDS)
               unlink(path);
            continue;
         }
         total += (uint64_t)st.st_size;
         if (count == cap) {
            cap = cap ? cap * 2 : 64;
            struct file *grown = realloc(files, cap * sizeof(*grown));
            if (!grown)
               break;
            files = grown;
         }
         files[count].path = strdup(path);
         if (!files[count].path)
            break;
         files[count].size = (uint64_t)st.st_size;
         files[count].mtime = st.st_mtim;
         count++;
      }
      closedir(in);
   }
   closedir(top);
   if (total > limit) {
      qsort(files, count, sizeof(*files), older_first);
      uint64_t target = limit / 10 * 9;
      size_t removed = 0;
      for (size_t i = 0; i < count && total > target; i++) {
         if (unlink(files[i].path) == 0 || errno == ENOENT) {
            total -= files[i].size;
            removed++;
         }
      }
      cuvk_logd("disk cache: %zu entries removed to stay within %llu bytes", removed, (unsigned long long)limit);
   }
   for (size_t i = 0; i < count; i++)
      free(files[i].path);
   free(files);
   return total;
}

/* What this process knows of the cache's size, so that a write need not
 * list the whole cache: a stat per entry on every write made the 200
 * writes of a cold start with 200 kernels a third of its time on
 * lavapipe, and grows with the cache.  The cache is listed (and trimmed)
 * at this process's first write, and again only when its writes since
 * may have taken it past the bound, or the folder or bound changed;
 * other processes' writes meanwhile count from that listing on. */
static pthread_mutex_t size_lock = PTHREAD_MUTEX_INITIALIZER;
static char size_dir[4096];
static uint64_t size_limit, size_estimate;
static bool size_known;

static void
account(const char *dir, uint64_t bytes)
{
   uint64_t limit = max_size();
   pthread_mutex_lock(&size_lock);
   if (!size_known || size_limit != limit || strcmp(size_dir, dir) != 0 || size_estimate + bytes > limit) {
      size_estimate = trim(dir, limit);
      size_limit = limit;
      snprintf(size_dir, sizeof(size_dir), "%s", dir);
      size_known = true;
   } else {
      size_estimate += bytes;
   }
   pthread_mutex_unlock(&size_lock);
}

void
cuvk_disk_cache_put(const uint8_t key[CUVK_DISK_CACHE_KEY_SIZE], const void *data, size_t size)
{
   char dir[4096], path[4096 + 80], tmp[4096 + 160];
   size_t dir_len;
   if (!entry_path(key, path, sizeof(path), dir, sizeof(dir), &dir_len))
      return;
   if (size > MAX_ENTRY_SIZE - sizeof(struct entry_header) || size + sizeof(struct entry_header) > max_size())
      return;
   /* The directory and its two-hex subdirectory, parents first. */
   char *slash = path + dir_len;
   for (char *p = path + 1; p <= slash; p++) {
      if (*p != '/')
         continue;
      *p = '\0';
      mkdir(path, 0755);
      *p = '/';
   }
   char *last = strrchr(path, '/');
   *last = '\0';
   mkdir(path, 0755);
   *last = '/';

   static unsigned counter;
   unsigned n = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   snprintf(tmp, sizeof(tmp), "%s.tmp.%ld.%u.%ld", path, (long)getpid(), n, (long)ts.tv_nsec);
   int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
   if (fd < 0) {
      cuvk_logd("disk cache: cannot write %s: %s", tmp, strerror(errno));
      return;
   }
   struct entry_header h;
   memset(&h, 0, sizeof(h));
   memcpy(h.magic, ENTRY_MAGIC, 8);
   memcpy(h.key, key, CUVK_DISK_CACHE_KEY_SIZE);
   h.size = size;
   h.checksum = checksum(key, data, size);
   bool ok = write(fd, &h, sizeof(h)) == (ssize_t)sizeof(h);
   const uint8_t *p = data;
   for (size_t left = size; ok && left;) {
      ssize_t w = write(fd, p, left);
      if (w <= 0) {
         ok = false;
         break;
      }
      p += w;
      left -= (size_t)w;
   }
   ok = close(fd) == 0 && ok;
   /* rename replaces atomically: a reader opens the old entry or the
    * new one, never half of this. */
   if (!ok || rename(tmp, path) != 0) {
      cuvk_logd("disk cache: cannot write %s: %s", path, strerror(errno));
      unlink(tmp);
      return;
   }
   account(dir, size + sizeof(h));
}
