/*
 * module.fatbin: what the module loader takes PTX from
 * (src/cuda_api/fatbin.h).  Containers built here (plain, LZ4 and Zstd
 * PTX, SASS only, empty, malformed, wrapped) and, where nvcc is there,
 * the fatbins nvcc 13 writes for tests/kernels/vector_add.cu: its default,
 * uncompressed, LZ4, SASS only and two PTX architectures, each checked
 * against nvcc -ptx's text for the same kernel.
 *
 *    module_fatbin [REF.ptx default plain lz4 sass two_ptx]
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <zstd.h>

#include "cuda_api/fatbin.h"
#include "unit_test.h"

static const char test_ptx[] =
   ".version 9.0\n.target sm_75\n.address_size 64\n\n.visible .entry k()\n{\n\tret;\n}\n";

static void
put16(uint8_t *p, uint16_t v)
{
   p[0] = (uint8_t)v;
   p[1] = (uint8_t)(v >> 8);
}

static void
put32(uint8_t *p, uint32_t v)
{
   put16(p, (uint16_t)v);
   put16(p + 2, (uint16_t)(v >> 16));
}

static void
put64(uint8_t *p, uint64_t v)
{
   put32(p, (uint32_t)v);
   put32(p + 4, (uint32_t)(v >> 32));
}

/* Appends an entry of kind for arch with payload (stored as given, padded
 * to 8) to the container in buf at *len, updating its header. */
static void
add_entry(uint8_t *buf, size_t *len, uint16_t kind, uint32_t arch, uint64_t flags, const void *payload,
          uint32_t size, uint64_t data_size)
{
   uint8_t *e = buf + *len;
   uint32_t padded = (size + 7) & ~7u;
   memset(e, 0, 80 + padded);
   put16(e, kind);
   put16(e + 2, 0x0101);
   put32(e + 4, 80);
   put64(e + 8, padded);
   put32(e + 0x10, (flags & 0xa000) ? size : 0);
   put16(e + 0x18, 0);
   put16(e + 0x1a, 9);
   put32(e + 0x1c, arch);
   put64(e + 0x28, flags | 0x11);
   put64(e + 0x38, data_size);
   memcpy(e + 80, payload, size);
   *len += 80 + padded;
   put64(buf + 8, *len - 16);
}

static size_t
start_container(uint8_t *buf)
{
   memset(buf, 0, 16);
   put32(buf, CUVK_FATBIN_MAGIC);
   put16(buf + 4, 1);
   put16(buf + 6, 16);
   return 16;
}

static CUresult
extract(const void *image, size_t size, char **ptx, uint32_t *arch)
{
   size_t len;
   CUresult res = cuvk_image_ptx(image, size, "module.fatbin", ptx, &len, arch);
   if (res == CUDA_SUCCESS)
      UNIT_CHECK(strlen(*ptx) == len);
   return res;
}

static void
test_built(void)
{
   static uint8_t buf[1 << 16];
   char *ptx;
   uint32_t arch;
   size_t n = sizeof(test_ptx); /* with its nul, as nvcc stores it */

   /* Plain, for two architectures: the higher one wins whichever comes
    * first. */
   size_t len = start_container(buf);
   char ptx90[sizeof(test_ptx)];
   memcpy(ptx90, test_ptx, sizeof(test_ptx));
   memcpy(strstr(ptx90, "sm_75"), "sm_90", 5);
   add_entry(buf, &len, 1, 90, 0, ptx90, (uint32_t)n, 0);
   add_entry(buf, &len, 1, 75, 0, test_ptx, (uint32_t)n, 0);
   add_entry(buf, &len, 2, 75, 0, "\x7f" "ELF....", 8, 0);
   UNIT_CHECK(extract(buf, len, &ptx, &arch) == CUDA_SUCCESS && arch == 90 && strcmp(ptx, ptx90) == 0);
   free(ptx);
   /* The size is not needed for a container in memory. */
   UNIT_CHECK(extract(buf, SIZE_MAX, &ptx, &arch) == CUDA_SUCCESS && arch == 90);
   free(ptx);

   /* Zstd. */
   uint8_t z[512];
   size_t zn = ZSTD_compress(z, sizeof(z), test_ptx, n, 3);
   UNIT_CHECK(!ZSTD_isError(zn));
   len = start_container(buf);
   add_entry(buf, &len, 1, 75, 0x8000, z, (uint32_t)zn, n);
   UNIT_CHECK(extract(buf, len, &ptx, &arch) == CUDA_SUCCESS && strcmp(ptx, test_ptx) == 0);
   free(ptx);
   /* ... with its uncompressed size wrong, or its data damaged. */
   put64(buf + 16 + 0x38, n + 1);
   UNIT_CHECK(extract(buf, len, &ptx, &arch) == CUDA_ERROR_INVALID_IMAGE);
   put64(buf + 16 + 0x38, n);
   buf[16 + 80] ^= 0xff;
   UNIT_CHECK(extract(buf, len, &ptx, &arch) == CUDA_ERROR_INVALID_IMAGE);

   /* LZ4: one run of literals (a 15 in the token, then the rest). */
   uint8_t l[512];
   l[0] = 0xf0;
   l[1] = (uint8_t)(n - 15);
   memcpy(l + 2, test_ptx, n);
   len = start_container(buf);
   add_entry(buf, &len, 1, 75, 0x2000, l, (uint32_t)n + 2, n);
   UNIT_CHECK(extract(buf, len, &ptx, &arch) == CUDA_SUCCESS && strcmp(ptx, test_ptx) == 0);
   free(ptx);
   l[1] = 0xff; /* literals past the end of the block */
   len = start_container(buf);
   add_entry(buf, &len, 1, 75, 0x2000, l, (uint32_t)n + 2, n);
   UNIT_CHECK(extract(buf, len, &ptx, &arch) == CUDA_ERROR_INVALID_IMAGE);
   /* Both compressions at once, and an absurd size. */
   len = start_container(buf);
   add_entry(buf, &len, 1, 75, 0xa000, z, (uint32_t)zn, n);
   UNIT_CHECK(extract(buf, len, &ptx, &arch) == CUDA_ERROR_INVALID_IMAGE);
   len = start_container(buf);
   add_entry(buf, &len, 1, 75, 0x8000, z, (uint32_t)zn, UINT64_C(1) << 40);
   UNIT_CHECK(extract(buf, len, &ptx, &arch) == CUDA_ERROR_INVALID_IMAGE);

   /* SASS only; empty. */
   len = start_container(buf);
   add_entry(buf, &len, 2, 75, 0, "\x7f" "ELF....", 8, 0);
   add_entry(buf, &len, 2, 90, 0, "\x7f" "ELF....", 8, 0);
   UNIT_CHECK(extract(buf, len, &ptx, &arch) == CUDA_ERROR_NOT_SUPPORTED);
   len = start_container(buf);
   UNIT_CHECK(extract(buf, len, &ptx, &arch) == CUDA_ERROR_NO_BINARY_FOR_GPU);

   /* Malformed: cut short, a body larger than the image, an entry header
    * too small or running past the end, a compressed size past the
    * payload, a bad version. */
   len = start_container(buf);
   add_entry(buf, &len, 1, 75, 0, test_ptx, (uint32_t)n, 0);
   UNIT_CHECK(extract(buf, 10, &ptx, &arch) == CUDA_ERROR_INVALID_IMAGE);
   UNIT_CHECK(extract(buf, len - 8, &ptx, &arch) == CUDA_ERROR_INVALID_IMAGE);
   put32(buf + 16 + 4, 32);
   UNIT_CHECK(extract(buf, len, &ptx, &arch) == CUDA_ERROR_INVALID_IMAGE);
   put32(buf + 16 + 4, 0x7fffffff);
   UNIT_CHECK(extract(buf, len, &ptx, &arch) == CUDA_ERROR_INVALID_IMAGE);
   put32(buf + 16 + 4, 80);
   put64(buf + 16 + 8, UINT64_C(1) << 62);
   UNIT_CHECK(extract(buf, len, &ptx, &arch) == CUDA_ERROR_INVALID_IMAGE);
   len = start_container(buf);
   add_entry(buf, &len, 1, 75, 0x8000, z, (uint32_t)zn, n);
   put32(buf + 16 + 0x10, 4096);
   UNIT_CHECK(extract(buf, len, &ptx, &arch) == CUDA_ERROR_INVALID_IMAGE);
   put16(buf + 4, 2);
   UNIT_CHECK(extract(buf, len, &ptx, &arch) == CUDA_ERROR_INVALID_IMAGE);

   /* The wrapper nvcc puts in host programs points at the container. */
   len = start_container(buf);
   add_entry(buf, &len, 1, 75, 0, test_ptx, (uint32_t)n, 0);
   struct {
      int magic, version;
      const void *data;
      void *name;
   } wrapper = {(int)CUVK_FATBIN_WRAPPER_MAGIC, 1, buf, NULL};
   UNIT_CHECK(extract(&wrapper, SIZE_MAX, &ptx, &arch) == CUDA_SUCCESS && strcmp(ptx, test_ptx) == 0);
   free(ptx);
   wrapper.data = test_ptx;
   UNIT_CHECK(extract(&wrapper, SIZE_MAX, &ptx, &arch) == CUDA_ERROR_INVALID_IMAGE);

   /* Bare text, a cubin, binary garbage, nothing. */
   UNIT_CHECK(extract(test_ptx, SIZE_MAX, &ptx, &arch) == CUDA_SUCCESS && arch == 0 &&
              strcmp(ptx, test_ptx) == 0);
   free(ptx);
   UNIT_CHECK(extract("\x7f" "ELF\x02\x01\x01", SIZE_MAX, &ptx, &arch) == CUDA_ERROR_NOT_SUPPORTED);
   UNIT_CHECK(extract("\x01\x02\x03\x04garbage", SIZE_MAX, &ptx, &arch) == CUDA_ERROR_INVALID_IMAGE);
   UNIT_CHECK(extract("", SIZE_MAX, &ptx, &arch) == CUDA_ERROR_INVALID_IMAGE);
   UNIT_CHECK(extract(NULL, SIZE_MAX, &ptx, &arch) == CUDA_ERROR_INVALID_VALUE);
}

static uint8_t *
read_file(const char *path, size_t *size)
{
   FILE *f = fopen(path, "rb");
   if (!f) {
      perror(path);
      return NULL;
   }
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   uint8_t *data = malloc((size_t)n + 1);
   if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
      free(data);
      data = NULL;
   }
   fclose(f);
   if (data) {
      data[n] = 0;
      *size = (size_t)n;
   }
   return data;
}

/* nvcc leaves comments out of the PTX it puts in a fatbin and collapses
 * its white space; compare what is left: each line without its comment,
 * runs of blanks as one space, empty lines dropped. */
static void
normalise(char *s)
{
   char *out = s;
   bool in_comment = false, blank = false, line_start = true;
   for (char *p = s; *p; p++) {
      if (*p == '\n') {
         if (!line_start)
            *out++ = '\n';
         in_comment = blank = false;
         line_start = true;
         continue;
      }
      if (in_comment || (p[0] == '/' && p[1] == '/')) {
         in_comment = true;
         continue;
      }
      if (*p == ' ' || *p == '\t') {
         blank = !line_start;
         continue;
      }
      if (blank)
         *out++ = ' ';
      blank = line_start = false;
      *out++ = *p;
   }
   *out = 0;
}

static void
test_nvcc(char **argv)
{
   size_t ref_size;
   char *ref = (char *)read_file(argv[1], &ref_size);
   UNIT_CHECK(ref);
   if (!ref)
      return;
   normalise(ref);
   static const struct {
      const char *name;
      CUresult res;
      uint32_t arch;
   } want[] = {
      {"default", CUDA_SUCCESS, 75},
      {"plain", CUDA_SUCCESS, 75},
      {"lz4", CUDA_SUCCESS, 75},
      {"sass", CUDA_ERROR_NOT_SUPPORTED, 0},
      {"two_ptx", CUDA_SUCCESS, 90},
   };
   for (unsigned i = 0; i < 5; i++) {
      size_t size;
      uint8_t *bin = read_file(argv[2 + i], &size);
      UNIT_CHECK(bin);
      if (!bin)
         continue;
      char *ptx = NULL;
      uint32_t arch = 0;
      CUresult res = extract(bin, size, &ptx, &arch);
      printf("%s: %zu bytes -> %d, sm_%u, %zu bytes of PTX\n", want[i].name, size, res, arch,
             ptx ? strlen(ptx) : 0);
      UNIT_CHECK(res == want[i].res && arch == want[i].arch);
      if (ptx && want[i].arch == 75) {
         normalise(ptx);
         UNIT_CHECK(strcmp(ptx, ref) == 0);
      }
      if (ptx && want[i].arch == 90)
         UNIT_CHECK(strstr(ptx, ".target sm_90") != NULL);
      free(ptx);
      /* In memory, without the size. */
      ptx = NULL;
      UNIT_CHECK(extract(bin, SIZE_MAX, &ptx, &arch) == want[i].res);
      free(ptx);

      /* Damaged copies: anything may come back, nothing may crash or
       * leak (the sanitizer runs check). */
      uint8_t *copy = malloc(size);
      for (unsigned t = 0; t < 300; t++) {
         memcpy(copy, bin, size);
         for (unsigned k = 0; k < 1 + t % 4; k++)
            copy[unit_rand_below(t % 2 ? size : (size < 200 ? size : 200))] = (uint8_t)unit_rand();
         ptx = NULL;
         if (extract(copy, size, &ptx, &arch) == CUDA_SUCCESS)
            UNIT_CHECK(ptx != NULL);
         free(ptx);
      }
      free(copy);
      free(bin);
   }
   free(ref);
}

int
main(int argc, char **argv)
{
   unit_seed();
   test_built();
   if (argc == 7)
      test_nvcc(argv);
   int res = unit_report("module.fatbin");
   if (res == 0 && argc != 7) {
      printf("nvcc's fatbins not built (no nvcc): skipped that part\n");
      return 77;
   }
   return res;
}
