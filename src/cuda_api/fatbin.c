#include "cuda_api/fatbin.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "util/error.h"
#include "util/log.h"
#include "util/lz4.h"
#include "util/macros.h"

/* The container's header: magic, version (1), the header's own size (where
 * the first entry starts) and the bytes of entries after it. */
#define HEADER_SIZE 16u
/* An entry's header, at least this long (nvcc 13 writes 64 for SASS and 80
 * for PTX); its own size field says where the payload starts. */
#define ENTRY_MIN_SIZE 64u

#define ENTRY_KIND_PTX 1u
#define ENTRY_KIND_ELF 2u

#define ENTRY_FLAG_LZ4 0x2000u
#define ENTRY_FLAG_ZSTD 0x8000u

/* No PTX comes near this; a larger "uncompressed size" is a corrupt
 * header, refused before anything is allocated for it. */
#define MAX_PTX_SIZE (UINT64_C(1) << 30)

static uint16_t
rd16(const uint8_t *p)
{
   return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t
rd32(const uint8_t *p)
{
   return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t
rd64(const uint8_t *p)
{
   return rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

/* An entry's header as nvcc 13.0 writes it (little-endian):
 *   0x00 u16 kind (1 PTX, 2 SASS ELF)     0x02 u16 version (0x0101)
 *   0x04 u32 header size                  0x08 u64 payload size (padded to 8)
 *   0x10 u32 compressed size (0: not)     0x18 u16 minor, 0x1a u16 major version
 *   0x1c u32 architecture (75: sm_75)     0x28 u64 flags (0x2000 LZ4, 0x8000 Zstd)
 *   0x38 u64 size before compression
 * The payload follows the header. */

/* One entry's header, decoded. */
struct entry {
   uint16_t kind;
   uint32_t arch;
   uint32_t version;          /* PTX ISA major * 100 + minor */
   uint64_t flags;
   const uint8_t *payload;
   uint64_t payload_size;     /* bytes stored, compressed or not */
   uint64_t data_size;        /* of the data before compression */
};

/* Copies text of at most max bytes, ending at its first nul, to a new
 * nul-terminated string. */
static CUresult
dup_text(const uint8_t *text, size_t max, char **out, size_t *len)
{
   size_t n = strnlen((const char *)text, max);
   char *s = malloc(n + 1);
   if (!s)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for %zu bytes of PTX", n);
   memcpy(s, text, n);
   s[n] = '\0';
   *out = s;
   *len = n;
   return CUDA_SUCCESS;
}

static CUresult
entry_ptx(const struct entry *e, const char *entry_name, char **out, size_t *len)
{
   bool lz4 = e->flags & ENTRY_FLAG_LZ4, zstd = e->flags & ENTRY_FLAG_ZSTD;

   if (!lz4 && !zstd)
      return dup_text(e->payload, e->payload_size, out, len);
   if (lz4 && zstd)
      return cuvk_error(CUDA_ERROR_INVALID_IMAGE, "%s: fatbin PTX entry for sm_%u says it is both LZ4 and "
                        "Zstd compressed", entry_name, e->arch);
   if (e->data_size == 0 || e->data_size > MAX_PTX_SIZE)
      return cuvk_error(CUDA_ERROR_INVALID_IMAGE, "%s: fatbin PTX entry for sm_%u claims %llu bytes "
                        "uncompressed", entry_name, e->arch, (unsigned long long)e->data_size);

   uint8_t *data = malloc(e->data_size + 1);
   if (!data)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory to decompress %llu bytes of PTX",
                        (unsigned long long)e->data_size);
   size_t got = 0;
   bool ok;
   const char *why = "";
   if (lz4) {
      ok = cuvk_lz4_decode_block(e->payload, e->payload_size, data, e->data_size, &got);
      why = "malformed LZ4 block";
   } else {
      size_t r = ZSTD_decompress(data, e->data_size, e->payload, e->payload_size);
      ok = !ZSTD_isError(r);
      why = ok ? "" : ZSTD_getErrorName(r);
      got = ok ? r : 0;
   }
   if (ok && got != e->data_size) {
      ok = false;
      why = "size differs from the entry's";
   }
   if (!ok) {
      free(data);
      return cuvk_error(CUDA_ERROR_INVALID_IMAGE, "%s: fatbin PTX entry for sm_%u does not decompress (%s)",
                        entry_name, e->arch, why);
   }
   data[got] = 0;
   CUresult res = dup_text(data, got, out, len);
   free(data);
   return res;
}

/* Walks the container at p (avail bytes may be read; SIZE_MAX: as many as
 * its header says), keeping the best PTX entry in *best and counting
 * SASS entries.  *used gets the container's size. */
static CUresult
scan_container(const uint8_t *p, size_t avail, const char *entry_name, struct entry *best, bool *have,
               unsigned *sass, uint32_t *sass_arch, size_t *used)
{
   if (avail < HEADER_SIZE)
      return cuvk_error(CUDA_ERROR_INVALID_IMAGE, "%s: fatbin of %zu bytes has no room for its header",
                        entry_name, avail);
   uint16_t version = rd16(p + 4), header_size = rd16(p + 6);
   uint64_t body = rd64(p + 8);
   if (version != 1 || header_size < HEADER_SIZE || header_size > avail)
      return cuvk_error(CUDA_ERROR_INVALID_IMAGE, "%s: fatbin version %u, header size %u: not a container "
                        "cuvk knows", entry_name, version, header_size);
   if (body > avail - header_size)
      return cuvk_error(CUDA_ERROR_INVALID_IMAGE, "%s: fatbin claims %llu bytes of entries, the image has %zu",
                        entry_name, (unsigned long long)body, avail - header_size);

   const uint8_t *e = p + header_size, *end = e + body;
   while (e < end) {
      if ((size_t)(end - e) < ENTRY_MIN_SIZE)
         return cuvk_error(CUDA_ERROR_INVALID_IMAGE, "%s: fatbin entry at offset %zu is cut short",
                           entry_name, (size_t)(e - p));
      uint32_t entry_size = rd32(e + 4);
      uint64_t stored = rd64(e + 8);
      if (entry_size < ENTRY_MIN_SIZE || entry_size > (size_t)(end - e) ||
          stored > (uint64_t)(end - e) - entry_size)
         return cuvk_error(CUDA_ERROR_INVALID_IMAGE, "%s: fatbin entry at offset %zu runs past the container "
                           "(header %u bytes, payload %llu)", entry_name, (size_t)(e - p), entry_size,
                           (unsigned long long)stored);
      struct entry cur = {
         .kind = rd16(e),
         .arch = rd32(e + 0x1c),
         .version = rd16(e + 0x1a) * 100u + rd16(e + 0x18),
         .flags = rd64(e + 0x28),
         .payload = e + entry_size,
         .payload_size = stored,
         .data_size = rd64(e + 0x38),
      };
      /* Compressed payloads are padded to 8 bytes; their exact size is
       * at 0x10. */
      uint32_t compressed = rd32(e + 0x10);
      if ((cur.flags & (ENTRY_FLAG_LZ4 | ENTRY_FLAG_ZSTD)) && compressed) {
         if (compressed > stored)
            return cuvk_error(CUDA_ERROR_INVALID_IMAGE, "%s: fatbin entry at offset %zu: %u compressed bytes "
                              "in a payload of %llu", entry_name, (size_t)(e - p), compressed,
                              (unsigned long long)stored);
         cur.payload_size = compressed;
      }
      if (cur.kind == ENTRY_KIND_PTX) {
         if (!*have || cur.arch > best->arch || (cur.arch == best->arch && cur.version > best->version))
            *best = cur;
         *have = true;
      } else {
         (*sass)++;
         if (cur.arch > *sass_arch)
            *sass_arch = cur.arch;
      }
      e += entry_size + stored;
   }
   *used = header_size + body;
   return CUDA_SUCCESS;
}

/* True when text (up to its nul, or max bytes) could be PTX: no bytes a
 * text file never has.  Garbage is then INVALID_IMAGE, as on CUDA, and
 * text that does not parse is left for the compiler (INVALID_PTX). */
static bool
looks_like_text(const uint8_t *p, size_t max)
{
   size_t n = strnlen((const char *)p, max);
   if (n == 0)
      return false;
   for (size_t i = 0; i < n && i < 4096; i++) {
      if (p[i] < 0x20 && p[i] != '\n' && p[i] != '\r' && p[i] != '\t' && p[i] != '\f' && p[i] != '\v')
         return false;
   }
   return true;
}

CUresult
cuvk_image_ptx(const void *image, size_t size, const char *entry_name, char **ptx, size_t *len, uint32_t *arch)
{
   const uint8_t *p = image;

   *ptx = NULL;
   *len = 0;
   *arch = 0;
   if (!image)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: image is NULL", entry_name);
   /* Every magic is four nonzero bytes; anything shorter up to its nul
    * can only be text (and reading four bytes of it could overrun). */
   if (strnlen((const char *)p, CUVK_MIN(size, 4)) < 4) {
      if (!looks_like_text(p, size))
         return cuvk_error(CUDA_ERROR_INVALID_IMAGE, "%s: an image of %zu bytes is neither PTX nor a fatbin",
                           entry_name, strnlen((const char *)p, CUVK_MIN(size, 4)));
      return dup_text(p, size, ptx, len);
   }

   uint32_t magic = rd32(p);
   if (magic == CUVK_FATBIN_WRAPPER_MAGIC) {
      /* { int magic, version; const unsigned long long *data; void *name; }
       * as nvcc places it in a host program: the container is elsewhere. */
      if (size < 16)
         return cuvk_error(CUDA_ERROR_INVALID_IMAGE, "%s: fatbin wrapper cut short", entry_name);
      const uint8_t *data;
      memcpy(&data, p + 8, sizeof(data));
      if (!data || rd32(data) != CUVK_FATBIN_MAGIC)
         return cuvk_error(CUDA_ERROR_INVALID_IMAGE, "%s: fatbin wrapper does not point at a fatbin", entry_name);
      p = data;
      size = SIZE_MAX;
      magic = CUVK_FATBIN_MAGIC;
   }

   if (magic == 0x464c457fu) /* "\x7fELF" */
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: the image is a cubin (SASS); cuvk runs PTX only: build "
                        "with PTX (nvcc -gencode arch=compute_XX,code=compute_XX, or -ptx)", entry_name);

   if (magic != CUVK_FATBIN_MAGIC) {
      if (!looks_like_text(p, size))
         return cuvk_error(CUDA_ERROR_INVALID_IMAGE, "%s: the image is neither PTX text nor a fatbin "
                           "(first word 0x%08x)", entry_name, magic);
      return dup_text(p, size, ptx, len);
   }

   /* One container, or (where the size is known, as for a file) several
    * back to back, as a linker may leave them. */
   struct entry best = {0};
   bool have = false;
   unsigned sass = 0;
   uint32_t sass_arch = 0;
   size_t off = 0;
   do {
      size_t used = 0;
      CUresult res = scan_container(p + off, size == SIZE_MAX ? SIZE_MAX : size - off, entry_name, &best, &have,
                                    &sass, &sass_arch, &used);
      if (res != CUDA_SUCCESS)
         return res;
      off += used;
   } while (size != SIZE_MAX && size - off >= HEADER_SIZE && rd32(p + off) == CUVK_FATBIN_MAGIC);

   if (!have && sass)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: the fatbin holds SASS only (%u entries, up to sm_%u); "
                        "cuvk runs PTX: build with PTX (nvcc -gencode arch=compute_%u,code=compute_%u)",
                        entry_name, sass, sass_arch, sass_arch, sass_arch);
   if (!have)
      return cuvk_error(CUDA_ERROR_NO_BINARY_FOR_GPU, "%s: the fatbin has no entries", entry_name);

   CUresult res = entry_ptx(&best, entry_name, ptx, len);
   if (res == CUDA_SUCCESS) {
      *arch = best.arch;
      cuvk_logd("%s: PTX %u.%u for sm_%u from the fatbin (%zu bytes%s)", entry_name, best.version / 100,
                best.version % 100, best.arch, *len,
                best.flags & ENTRY_FLAG_ZSTD ? ", Zstd" : best.flags & ENTRY_FLAG_LZ4 ? ", LZ4" : "");
   }
   return res;
}
