/*
 * api.fill.*: cuMemsetD8/D16/D32, their Async and 2D forms, with every
 * byte of the filled range and the bytes around it checked against a
 * host-side image.  api.errors.memset_*: fills cuvk must refuse, and
 * refuse without writing anything.
 */
#include "api_test.h"

struct fill_spec {
   unsigned elem;            /* 1, 2 or 4 bytes */
   bool async;
   enum api_mem_kind kind;   /* device, or pinned host memory (a valid
                              * device pointer under unified addressing) */
};

static CUresult
fill_call(const struct fill_spec *spec, CUdeviceptr dst, uint32_t value, size_t n, CUstream s)
{
   switch (spec->elem) {
   case 1:
      return spec->async ? cuMemsetD8Async(dst, (unsigned char)value, n, s) :
                           cuMemsetD8(dst, (unsigned char)value, n);
   case 2:
      return spec->async ? cuMemsetD16Async(dst, (unsigned short)value, n, s) :
                           cuMemsetD16(dst, (unsigned short)value, n);
   default:
      return spec->async ? cuMemsetD32Async(dst, value, n, s) : cuMemsetD32(dst, value, n);
   }
}

static CUresult
fill_2d_call(const struct fill_spec *spec, CUdeviceptr dst, size_t pitch, uint32_t value,
             size_t width, size_t height, CUstream s)
{
   switch (spec->elem) {
   case 1:
      return spec->async ? cuMemsetD2D8Async(dst, pitch, (unsigned char)value, width, height, s) :
                           cuMemsetD2D8(dst, pitch, (unsigned char)value, width, height);
   case 2:
      return spec->async ? cuMemsetD2D16Async(dst, pitch, (unsigned short)value, width, height, s) :
                           cuMemsetD2D16(dst, pitch, (unsigned short)value, width, height);
   default:
      return spec->async ? cuMemsetD2D32Async(dst, pitch, value, width, height, s) :
                           cuMemsetD2D32(dst, pitch, value, width, height);
   }
}

/* n elements of value, little-endian, into a host image. */
static void
image_fill(uint8_t *img, unsigned elem, uint32_t value, size_t n)
{
   uint8_t bytes[4] = { (uint8_t)value, (uint8_t)(value >> 8), (uint8_t)(value >> 16),
                        (uint8_t)(value >> 24) };

   if (elem == 1) {
      memset(img, bytes[0], n);
      return;
   }
   for (size_t i = 0; i < n; i++)
      memcpy(img + i * elem, bytes, elem);
}

/* A value whose bytes all differ, so a byte-swapped or shifted pattern
 * cannot pass. */
static uint32_t
fill_value(uint64_t *rng)
{
   uint32_t v;

   do
      v = (uint32_t)api_rand(rng);
   while ((v & 0xff) == ((v >> 8) & 0xff) || ((v >> 8) & 0xff) == ((v >> 16) & 0xff) ||
          ((v >> 16) & 0xff) == (v >> 24) || (v & 0xff) == (v >> 24));
   return v;
}

static const size_t fill_counts[] = { 1, 3, 15, 16, 17, 4095, 65537, API_MIB + 3 };
#define FILL_OFFSETS 18
#define FILL_GUARD 64

static void
fill_matrix(void)
{
   const struct fill_spec *spec = api_case_data;
   const size_t max = API_MIB + 3;
   const size_t size = (FILL_OFFSETS + max) * spec->elem + FILL_GUARD;
   uint8_t *img = api_xmalloc(size), *got = api_xmalloc(size);
   struct api_buf buf;
   CUstream stream = NULL;
   uint64_t rng = spec->elem * 1000 + spec->async;
   unsigned fills = 0;

   api_buf_create(&buf, spec->kind, size);
   api_fill_random(img, size, 5);
   api_buf_write(&buf, 0, img, size);
   if (spec->async)
      API_REQUIRE_CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));

   double t0 = api_now();
   for (size_t ci = 0; ci < API_ARRAY_SIZE(fill_counts); ci++) {
      const size_t n = fill_counts[ci];
      for (size_t e = 0; e < FILL_OFFSETS; e++) {
         const size_t off = e * spec->elem;
         uint32_t value = fill_value(&rng);

         CUresult res = fill_call(spec, api_buf_ptr(&buf, off), value, n, stream);
         if (!API_CHECK_MSG(res == CUDA_SUCCESS, "fill +%zu, %zu elements: %s", off, n,
                            api_result_name(res)))
            continue;
         if (stream)
            API_CHECK_CU(cuStreamSynchronize(stream));
         fills++;

         image_fill(img + off, spec->elem, value, n);
         size_t window = API_MIN(size, off + n * spec->elem + FILL_GUARD);
         api_buf_read(&buf, 0, got, window);
         if (!API_CHECK_BYTES(got, img, window, "fill +%zu, %zu elements of 0x%x", off, n, value))
            memcpy(img, got, window);
      }
   }
   printf("%u fills in %.3f s\n", fills, api_now() - t0);

   if (stream)
      API_CHECK_CU(cuStreamDestroy(stream));
   api_buf_destroy(&buf);
   free(img);
   free(got);
}

static void
fill_2d(void)
{
   static const size_t widths[] = { 1, 3, 17, 1000, 4097 };
   static const size_t heights[] = { 1, 2, 7, 33 };
   static const size_t offsets[] = { 0, 1, 3 };
   const struct fill_spec *spec = api_case_data;
   const size_t pads[] = { 0, spec->elem, 64, 509 * (size_t)spec->elem };
   const size_t size = (4097 * spec->elem + 509 * spec->elem) * 33 + 3 * spec->elem + FILL_GUARD;
   uint8_t *img = api_xmalloc(size), *got = api_xmalloc(size);
   struct api_buf buf;
   CUstream stream = NULL;
   uint64_t rng = spec->elem * 2000 + spec->async;
   unsigned fills = 0;

   api_buf_create(&buf, spec->kind, size);
   api_fill_random(img, size, 6);
   api_buf_write(&buf, 0, img, size);
   if (spec->async)
      API_REQUIRE_CU(cuStreamCreate(&stream, 0));

   for (size_t wi = 0; wi < API_ARRAY_SIZE(widths); wi++) {
      for (size_t hi = 0; hi < API_ARRAY_SIZE(heights); hi++) {
         for (size_t pi = 0; pi < API_ARRAY_SIZE(pads); pi++) {
            for (size_t oi = 0; oi < API_ARRAY_SIZE(offsets); oi++) {
               const size_t w = widths[wi], h = heights[hi];
               const size_t pitch = w * spec->elem + pads[pi];
               const size_t off = offsets[oi] * spec->elem;
               uint32_t value = fill_value(&rng);

               CUresult res = fill_2d_call(spec, api_buf_ptr(&buf, off), pitch, value, w, h, stream);
               if (!API_CHECK_MSG(res == CUDA_SUCCESS, "2D fill +%zu, %zux%zu pitch %zu: %s", off, w,
                                  h, pitch, api_result_name(res)))
                  continue;
               if (stream)
                  API_CHECK_CU(cuStreamSynchronize(stream));
               fills++;

               for (size_t r = 0; r < h; r++)
                  image_fill(img + off + r * pitch, spec->elem, value, w);
               size_t window = API_MIN(size, off + (h - 1) * pitch + w * spec->elem + FILL_GUARD);
               api_buf_read(&buf, 0, got, window);
               if (!API_CHECK_BYTES(got, img, window, "2D fill +%zu, %zux%zu pitch %zu of 0x%x", off,
                                    w, h, pitch, value))
                  memcpy(img, got, window);
            }
         }
      }
   }
   printf("%u 2D fills\n", fills);

   if (stream)
      API_CHECK_CU(cuStreamDestroy(stream));
   api_buf_destroy(&buf);
   free(img);
   free(got);
}

/* One 300 MiB fill of each width, every byte checked. */
static void
fill_large(void)
{
   const size_t size = 300 * API_MIB;
   uint8_t *got = api_xmalloc(size), *want = api_xmalloc(size);
   CUdeviceptr d = 0;

   API_REQUIRE_CU(cuMemAlloc(&d, size));
   API_CHECK_CU(cuMemsetD8(d, 0xa7, size));
   memset(want, 0xa7, size);
   API_CHECK_CU(cuMemcpyDtoH(got, d, size));
   API_CHECK_BYTES(got, want, size, "300 MiB cuMemsetD8");

   API_CHECK_CU(cuMemsetD16(d + 2, 0xb1b2, size / 2 - 2));
   image_fill(want + 2, 2, 0xb1b2, size / 2 - 2);
   API_CHECK_CU(cuMemcpyDtoH(got, d, size));
   API_CHECK_BYTES(got, want, size, "300 MiB cuMemsetD16 at +2");

   API_CHECK_CU(cuMemsetD32Async(d + 4, 0xc1c2c3c4, size / 4 - 2, NULL));
   image_fill(want + 4, 4, 0xc1c2c3c4, size / 4 - 2);
   API_CHECK_CU(cuMemcpyDtoH(got, d, size));
   API_CHECK_BYTES(got, want, size, "300 MiB cuMemsetD32Async at +4");

   API_CHECK_CU(cuMemFree(d));
   free(got);
   free(want);
}

static void
fill_zero_size(void)
{
   CUdeviceptr d = 0;
   uint8_t want[64];

   API_REQUIRE_CU(cuMemAlloc(&d, 64));
   api_fill_random(want, sizeof(want), 9);
   API_CHECK_CU(cuMemcpyHtoD(d, want, sizeof(want)));
   API_CHECK_CU(cuMemsetD8(d, 1, 0));
   API_CHECK_CU(cuMemsetD16(d, 1, 0));
   API_CHECK_CU(cuMemsetD32(d, 1, 0));
   API_CHECK_CU(cuMemsetD32Async(d, 1, 0, NULL));
   API_CHECK_CU(cuMemsetD2D8(d, 16, 1, 0, 4));
   API_CHECK_CU(cuMemsetD2D8(d, 16, 1, 16, 0));
   API_CHECK_DEVICE(d, want, sizeof(want), "after empty fills");
   API_CHECK_CU(cuMemFree(d));
}

/* ---- api.errors.memset_* ---- */

#define ERR_SIZE 1024

static CUdeviceptr
err_alloc(uint8_t *img, uint64_t seed)
{
   CUdeviceptr d = 0;

   API_REQUIRE_CU(cuMemAlloc(&d, ERR_SIZE));
   api_fill_random(img, ERR_SIZE, seed);
   API_REQUIRE_CU(cuMemcpyHtoD(d, img, ERR_SIZE));
   return d;
}

static void
errors_memset_d16_misaligned(void)
{
   uint8_t img[ERR_SIZE];
   CUdeviceptr d = err_alloc(img, 1);

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD16(d + 1, 0x1234, 8));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD16Async(d + 3, 0x1234, 8, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D16(d + 1, 64, 0x1234, 8, 4));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D16Async(d + 5, 64, 0x1234, 8, 4, NULL));
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_DEVICE(d, img, ERR_SIZE, "after refused fills");
   /* Two-byte aligned is enough. */
   API_CHECK_CU(cuMemsetD16(d + 2, 0x1234, 8));
   API_CHECK_CU(cuMemFree(d));
}

static void
errors_memset_d32_misaligned(void)
{
   uint8_t img[ERR_SIZE];
   CUdeviceptr d = err_alloc(img, 2);

   for (unsigned off = 1; off < 4; off++) {
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(d + off, 0x12345678, 8));
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD32Async(d + off, 0x12345678, 8, NULL));
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D32(d + off, 64, 0x12345678, 8, 4));
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE,
                    cuMemsetD2D32Async(d + off, 64, 0x12345678, 8, 4, NULL));
   }
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_DEVICE(d, img, ERR_SIZE, "after refused fills");
   API_CHECK_CU(cuMemsetD32(d + 4, 0x12345678, 8));
   API_CHECK_CU(cuMemFree(d));
}

static void
errors_memset_2d_pitch_too_small(void)
{
   uint8_t img[ERR_SIZE];
   CUdeviceptr d = err_alloc(img, 3);

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D8(d, 15, 1, 16, 2));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D16(d, 30, 1, 16, 2));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D32(d, 60, 1, 16, 2));
   API_CHECK_DEVICE(d, img, ERR_SIZE, "after refused fills");
   API_CHECK_CU(cuMemFree(d));
}

static void
errors_memset_past_end(void)
{
   uint8_t img[ERR_SIZE];
   CUdeviceptr d = err_alloc(img, 4);

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD8(d, 1, ERR_SIZE + 1));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD8(d + ERR_SIZE - 1, 1, 2));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD16(d + 2, 1, ERR_SIZE / 2));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(d, 1, ERR_SIZE / 4 + 1));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD32Async(d + 512, 1, ERR_SIZE / 8 + 1, NULL));
   /* 2D: the last row runs past the end. */
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D8(d, 256, 1, 200, 5));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D32(d + 8, 256, 1, 64, 4));
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_DEVICE(d, img, ERR_SIZE, "after refused fills");
   /* Exactly to the end is fine. */
   API_CHECK_CU(cuMemsetD8(d + 1, 1, ERR_SIZE - 1));
   API_CHECK_CU(cuMemsetD2D8(d, 256, 1, 256, 4));
   API_CHECK_CU(cuMemFree(d));
}

/* A fill running off one small allocation must not spill into the next,
 * even where the two are adjacent. */
static void
errors_memset_past_end_into_neighbour(void)
{
   enum { N = 8, SIZE = 256 };
   CUdeviceptr d[N];
   uint8_t img[N][SIZE];

   for (int i = 0; i < N; i++) {
      API_REQUIRE_CU(cuMemAlloc(&d[i], SIZE));
      api_fill_random(img[i], SIZE, (uint64_t)i + 20);
      API_REQUIRE_CU(cuMemcpyHtoD(d[i], img[i], SIZE));
   }
   for (int i = 0; i < N; i++) {
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD8(d[i], 0x55, SIZE + 1));
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(d[i] + SIZE - 4, 0x55, 2));
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D8(d[i], 128, 0x55, 128, 3));
   }
   API_CHECK_CU(cuCtxSynchronize());
   for (int i = 0; i < N; i++)
      API_CHECK_DEVICE(d[i], img[i], SIZE, "allocation %d", i);
   for (int i = 0; i < N; i++)
      API_CHECK_CU(cuMemFree(d[i]));
}

static void
errors_memset_unknown_pointer(void)
{
   CUdeviceptr freed = 0;
   uint8_t pageable[64];

   API_REQUIRE_CU(cuMemAlloc(&freed, 64));
   API_CHECK_CU(cuMemFree(freed));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD8(freed, 0, 64));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD32Async(freed, 0, 16, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD8(0, 0, 64));
   /* Pageable memory is not a device pointer. */
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD8((CUdeviceptr)(uintptr_t)pageable, 0, 64));
}

/* ---- The case table ---- */

#define SPEC(elem, async, kind) (&(const struct fill_spec){ elem, async, kind })
#define MATRIX(name, elem, async, kind) API_CASE_DATA(name, fill_matrix, SPEC(elem, async, kind))
#define TWO_D(name, elem, async) API_CASE_DATA(name, fill_2d, SPEC(elem, async, API_MEM_DEVICE))

static const struct api_case cases[] = {
   MATRIX("api.fill.d8.unaligned", 1, false, API_MEM_DEVICE),
   MATRIX("api.fill.d16.unaligned", 2, false, API_MEM_DEVICE),
   MATRIX("api.fill.d32.unaligned", 4, false, API_MEM_DEVICE),
   MATRIX("api.fill.d8_async.unaligned", 1, true, API_MEM_DEVICE),
   MATRIX("api.fill.d16_async.unaligned", 2, true, API_MEM_DEVICE),
   MATRIX("api.fill.d32_async.unaligned", 4, true, API_MEM_DEVICE),
   MATRIX("api.fill.d8.pinned", 1, false, API_MEM_PINNED),
   MATRIX("api.fill.d16_async.pinned", 2, true, API_MEM_PINNED),
   MATRIX("api.fill.d32.registered", 4, false, API_MEM_REGISTERED),
   TWO_D("api.fill.2d.d8", 1, false),
   TWO_D("api.fill.2d.d16", 2, false),
   TWO_D("api.fill.2d.d32", 4, false),
   TWO_D("api.fill.2d_async.d8", 1, true),
   TWO_D("api.fill.2d_async.d16", 2, true),
   TWO_D("api.fill.2d_async.d32", 4, true),
   API_CASE("api.fill.large", fill_large),
   API_CASE("api.fill.zero_size", fill_zero_size),
   API_CASE("api.errors.memset_d16_misaligned", errors_memset_d16_misaligned),
   API_CASE("api.errors.memset_d32_misaligned", errors_memset_d32_misaligned),
   API_CASE("api.errors.memset_2d_pitch_too_small", errors_memset_2d_pitch_too_small),
   API_CASE("api.errors.memset_past_end", errors_memset_past_end),
   API_CASE("api.errors.memset_past_end_into_neighbour", errors_memset_past_end_into_neighbour),
   API_CASE("api.errors.memset_unknown_pointer", errors_memset_unknown_pointer),
};

API_MAIN(cases)
