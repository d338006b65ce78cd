/*
 * The disk cache (src/util/disk_cache.h) and SHA-256 (src/util/sha256.h):
 * FIPS 180-4's test vectors; store and read back; misses; entries cut
 * short, altered or replaced by other bytes, which must read as misses and
 * be removed; the switches that turn the cache off; the directory's
 * fallbacks; the size bound; and processes writing and reading the same
 * entries at once.
 */
#include <dirent.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit_test.h"
#include "util/disk_cache.h"
#include "util/sha256.h"

static char root[256];

static void
hex(const uint8_t *h, char *out)
{
   for (int i = 0; i < 32; i++)
      sprintf(out + 2 * i, "%02x", h[i]);
}

static void
test_sha256(void)
{
   uint8_t h[32];
   char s[65];
   cuvk_sha256("abc", 3, h);
   hex(h, s);
   UNIT_CHECK(strcmp(s, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") == 0);
   cuvk_sha256("", 0, h);
   hex(h, s);
   UNIT_CHECK(strcmp(s, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855") == 0);
   const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
   cuvk_sha256(two, strlen(two), h);
   hex(h, s);
   UNIT_CHECK(strcmp(s, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1") == 0);
   /* A million 'a's, fed in uneven pieces. */
   static char a[1000000];
   memset(a, 'a', sizeof(a));
   struct cuvk_sha256 st;
   cuvk_sha256_init(&st);
   size_t done = 0, step = 1;
   while (done < sizeof(a)) {
      size_t n = step < sizeof(a) - done ? step : sizeof(a) - done;
      cuvk_sha256_update(&st, a + done, n);
      done += n;
      step = step * 3 % 1000 + 1;
   }
   cuvk_sha256_final(&st, h);
   hex(h, s);
   UNIT_CHECK(strcmp(s, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0") == 0);
}

static void
key_of(unsigned n, uint8_t key[32])
{
   cuvk_sha256(&n, sizeof(n), key);
}

static void
entry_file(const char *dir, const uint8_t key[32], char *path)
{
   char s[65];
   hex(key, s);
   sprintf(path, "%s/%.2s/%s", dir, s, s + 2);
}

static size_t
count_entries(const char *dir)
{
   size_t n = 0;
   DIR *top = opendir(dir);
   struct dirent *d;
   while (top && (d = readdir(top))) {
      if (d->d_name[0] == '.')
         continue;
      char sub[512];
      snprintf(sub, sizeof(sub), "%s/%s", dir, d->d_name);
      DIR *in = opendir(sub);
      struct dirent *e;
      while (in && (e = readdir(in)))
         n += e->d_name[0] != '.' && !strstr(e->d_name, ".tmp.");
      if (in)
         closedir(in);
   }
   if (top)
      closedir(top);
   return n;
}

static void
test_basic(void)
{
   char dir[300], path[512];
   snprintf(dir, sizeof(dir), "%s/basic", root);
   setenv("CUVK_CACHE_DIR", dir, 1);
   UNIT_CHECK(cuvk_disk_cache_enabled());
   uint8_t key[32], other[32];
   key_of(1, key);
   key_of(2, other);
   size_t size = 1;
   UNIT_CHECK(cuvk_disk_cache_get(key, &size) == NULL);

   char blob[5000];
   for (size_t i = 0; i < sizeof(blob); i++)
      blob[i] = (char)(i * 7);
   cuvk_disk_cache_put(key, blob, sizeof(blob));
   void *got = cuvk_disk_cache_get(key, &size);
   UNIT_CHECK(got && size == sizeof(blob) && memcmp(got, blob, size) == 0);
   free(got);
   UNIT_CHECK(cuvk_disk_cache_get(other, &size) == NULL);
   /* Replacing an entry. */
   cuvk_disk_cache_put(key, "short", 5);
   got = cuvk_disk_cache_get(key, &size);
   UNIT_CHECK(got && size == 5 && memcmp(got, "short", 5) == 0);
   free(got);
   cuvk_disk_cache_put(key, blob, sizeof(blob));

   /* One byte of the blob flipped: a miss, and the entry is gone. */
   entry_file(dir, key, path);
   FILE *f = fopen(path, "r+b");
   UNIT_CHECK(f != NULL);
   fseek(f, 100, SEEK_SET);
   int c = fgetc(f);
   fseek(f, 100, SEEK_SET);
   fputc(c ^ 0x20, f);
   fclose(f);
   UNIT_CHECK(cuvk_disk_cache_get(key, &size) == NULL);
   struct stat st;
   UNIT_CHECK(stat(path, &st) != 0);

   /* Cut short. */
   cuvk_disk_cache_put(key, blob, sizeof(blob));
   UNIT_CHECK(truncate(path, 3000) == 0);
   UNIT_CHECK(cuvk_disk_cache_get(key, &size) == NULL);
   /* Cut inside the header, and empty. */
   cuvk_disk_cache_put(key, blob, sizeof(blob));
   UNIT_CHECK(truncate(path, 10) == 0);
   UNIT_CHECK(cuvk_disk_cache_get(key, &size) == NULL);
   cuvk_disk_cache_put(key, blob, sizeof(blob));
   UNIT_CHECK(truncate(path, 0) == 0);
   UNIT_CHECK(cuvk_disk_cache_get(key, &size) == NULL);
   /* Another key's entry under this key's name. */
   char opath[512];
   cuvk_disk_cache_put(other, blob, sizeof(blob));
   entry_file(dir, other, opath);
   UNIT_CHECK(rename(opath, path) == 0);
   UNIT_CHECK(cuvk_disk_cache_get(key, &size) == NULL);
   /* Not an entry at all. */
   f = fopen(path, "wb");
   fputs("this is not a cache entry, though it is long enough to have a header in it", f);
   fclose(f);
   UNIT_CHECK(cuvk_disk_cache_get(key, &size) == NULL);
   /* And written again, good as new. */
   cuvk_disk_cache_put(key, blob, sizeof(blob));
   got = cuvk_disk_cache_get(key, &size);
   UNIT_CHECK(got && size == sizeof(blob) && memcmp(got, blob, size) == 0);
   free(got);

   /* An empty blob is an entry too. */
   cuvk_disk_cache_put(other, "", 0);
   got = cuvk_disk_cache_get(other, &size);
   UNIT_CHECK(got && size == 0);
   free(got);
}

static void
test_switches(void)
{
   char dir[300];
   snprintf(dir, sizeof(dir), "%s/switches", root);
   setenv("CUVK_CACHE_DIR", dir, 1);
   uint8_t key[32];
   size_t size;
   key_of(3, key);
   const char *names[] = {"CUVK_CACHE_DISABLE", "CUDA_CACHE_DISABLE"};
   for (int i = 0; i < 2; i++) {
      setenv(names[i], "1", 1);
      UNIT_CHECK(!cuvk_disk_cache_enabled());
      cuvk_disk_cache_put(key, "x", 1);
      UNIT_CHECK(count_entries(dir) == 0);
      unsetenv(names[i]);
   }
   cuvk_disk_cache_put(key, "x", 1);
   UNIT_CHECK(count_entries(dir) == 1);
   setenv("CUDA_CACHE_DISABLE", "1", 1);
   UNIT_CHECK(cuvk_disk_cache_get(key, &size) == NULL);
   setenv("CUDA_CACHE_DISABLE", "0", 1);
   void *got = cuvk_disk_cache_get(key, &size);
   UNIT_CHECK(got != NULL);
   free(got);
   unsetenv("CUDA_CACHE_DISABLE");

   /* Without CUVK_CACHE_DIR: $XDG_CACHE_HOME/cuvk, then ~/.cache/cuvk. */
   unsetenv("CUVK_CACHE_DIR");
   char xdg[300], home[300], want[400];
   snprintf(xdg, sizeof(xdg), "%s/xdg", root);
   snprintf(home, sizeof(home), "%s/home", root);
   setenv("XDG_CACHE_HOME", xdg, 1);
   cuvk_disk_cache_put(key, "x", 1);
   snprintf(want, sizeof(want), "%s/cuvk", xdg);
   UNIT_CHECK(count_entries(want) == 1);
   unsetenv("XDG_CACHE_HOME");
   setenv("HOME", home, 1);
   cuvk_disk_cache_put(key, "x", 1);
   snprintf(want, sizeof(want), "%s/.cache/cuvk", home);
   UNIT_CHECK(count_entries(want) == 1);
}

static void
test_bound(void)
{
   char dir[300];
   snprintf(dir, sizeof(dir), "%s/bound", root);
   setenv("CUVK_CACHE_DIR", dir, 1);
   setenv("CUVK_CACHE_MAX_SIZE", "64K", 1);
   static char blob[4000];
   uint8_t key[32];
   size_t size;
   for (unsigned i = 0; i < 40; i++) {
      key_of(100 + i, key);
      memset(blob, (int)i, sizeof(blob));
      cuvk_disk_cache_put(key, blob, sizeof(blob));
      /* Distinct times, so the oldest are the first written. */
      if (i == 0) {
         void *got = cuvk_disk_cache_get(key, &size);
         free(got);
      }
      usleep(2000);
   }
   size_t n = count_entries(dir);
   /* 64 KiB holds 16 entries of ~4 KiB; trimming leaves 90%. */
   UNIT_CHECK(n >= 10 && n <= 16);
   key_of(139, key);
   void *got = cuvk_disk_cache_get(key, &size);
   UNIT_CHECK(got != NULL);
   free(got);
   key_of(101, key);
   UNIT_CHECK(cuvk_disk_cache_get(key, &size) == NULL);
   /* A blob larger than the whole bound is not stored. */
   setenv("CUVK_CACHE_MAX_SIZE", "1K", 1);
   key_of(999, key);
   cuvk_disk_cache_put(key, blob, sizeof(blob));
   UNIT_CHECK(cuvk_disk_cache_get(key, &size) == NULL);
   unsetenv("CUVK_CACHE_MAX_SIZE");
}

/* Eight processes put and get the same 16 keys, each blob filled with its
 * key's number: every read must be whole and right. */
static void
test_processes(void)
{
   char dir[300];
   snprintf(dir, sizeof(dir), "%s/processes", root);
   setenv("CUVK_CACHE_DIR", dir, 1);
   pid_t pids[8];
   for (int p = 0; p < 8; p++) {
      pids[p] = fork();
      if (pids[p] == 0) {
         int bad = 0;
         static char blob[20000];
         for (unsigned round = 0; round < 30; round++) {
            unsigned k = (round * 5 + (unsigned)p) % 16;
            uint8_t key[32];
            size_t size;
            key_of(1000 + k, key);
            memset(blob, (int)k, sizeof(blob));
            cuvk_disk_cache_put(key, blob, sizeof(blob));
            for (unsigned j = 0; j < 16; j++) {
               key_of(1000 + j, key);
               unsigned char *got = cuvk_disk_cache_get(key, &size);
               if (!got)
                  continue;
               if (size != sizeof(blob))
                  bad++;
               for (size_t i = 0; i < size && !bad; i++)
                  bad += got[i] != j;
               free(got);
            }
         }
         _exit(bad ? 1 : 0);
      }
   }
   for (int p = 0; p < 8; p++) {
      int status = 0;
      UNIT_CHECK(waitpid(pids[p], &status, 0) == pids[p]);
      UNIT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
   }
   UNIT_CHECK(count_entries(dir) == 16);
}

int
main(void)
{
   snprintf(root, sizeof(root), "/tmp/cuvk-disk-cache-XXXXXX");
   if (!mkdtemp(root)) {
      perror("mkdtemp");
      return 1;
   }
   unsetenv("CUVK_CACHE_DISABLE");
   unsetenv("CUDA_CACHE_DISABLE");
   unsetenv("CUVK_CACHE_MAX_SIZE");
   test_sha256();
   test_basic();
   test_switches();
   test_bound();
   test_processes();
   char cmd[300];
   snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
   if (system(cmd) != 0)
      fprintf(stderr, "could not remove %s\n", root);
   printf("disk cache: %s\n", unit_failure_count() ? "FAILED" : "ok");
   return unit_failure_count() ? 1 : 0;
}
