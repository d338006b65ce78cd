/*
 * Pitched linear memory through the runtime: cudaMallocPitch and
 * cudaMalloc3D, 2D copies between every kind of memory at odd widths and
 * offsets, 2D and 3D fills, the array copies that take a pitch or a byte
 * count, their stream-ordered forms, and the errors CUDA documents for
 * bad input.  Every result is read back whole (padding included) and
 * compared with a host reference that applied the same operations.
 */
#include "rt_test.h"

#include <string.h>

/* The deprecated cudaMemcpyToArray/FromArray are what this file tests. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* Host reference of a 2D copy: height rows of width bytes. */
static void
ref_copy_2d(uint8_t *dst, size_t dpitch, const uint8_t *src, size_t spitch, size_t width, size_t height)
{
   for (size_t y = 0; y < height; y++)
      memmove(dst + y * dpitch, src + y * spitch, width);
}

static void
ref_set_2d(uint8_t *dst, size_t pitch, uint8_t v, size_t width, size_t height)
{
   for (size_t y = 0; y < height; y++)
      memset(dst + y * pitch, v, width);
}

/* The whole of a device allocation back to the host. */
static void
read_back(void *host, const void *dev, size_t size)
{
   RT_REQUIRE_OK(cudaMemcpy(host, dev, size, cudaMemcpyDeviceToHost));
}

static void
pitched_malloc(void)
{
   static const size_t widths[] = { 1, 37, 511, 512, 513, 1000, 4096 };
   int align = 0;
   RT_REQUIRE_OK(cudaDeviceGetAttribute(&align, cudaDevAttrTexturePitchAlignment, 0));
   RT_REQUIRE(align > 0);

   for (unsigned i = 0; i < RT_ARRAY_SIZE(widths); i++) {
      void *d = NULL;
      size_t pitch = 0, w = widths[i], h = 7;
      RT_REQUIRE_OK(cudaMallocPitch(&d, &pitch, w, h));
      RT_CHECK_MSG(d != NULL && pitch >= w && pitch % (size_t)align == 0,
                   "width %zu: pitch %zu (alignment %d)", w, pitch, align);
      /* Every byte of every row, padding included, is the program's. */
      uint8_t *in = malloc(pitch * h), *out = malloc(pitch * h);
      RT_REQUIRE(in && out);
      rt_fill_pattern(in, pitch * h, (unsigned)i);
      RT_CHECK_OK(cudaMemcpy(d, in, pitch * h, cudaMemcpyHostToDevice));
      read_back(out, d, pitch * h);
      RT_CHECK_BYTES(out, in, pitch * h, "pitched allocation %zu x %zu", w, h);
      free(in);
      free(out);
      RT_CHECK_OK(cudaFree(d));
   }

   struct cudaPitchedPtr p;
   struct cudaExtent e = { 100, 9, 5 };
   memset(&p, 0, sizeof(p));
   RT_REQUIRE_OK(cudaMalloc3D(&p, e));
   RT_CHECK(p.ptr != NULL && p.pitch >= 100 && p.pitch % (size_t)align == 0);
   RT_CHECK(p.xsize == 100 && p.ysize == 9);
   /* All depth * height rows are there. */
   size_t size = p.pitch * e.height * e.depth;
   uint8_t *buf = malloc(size);
   RT_REQUIRE(buf);
   RT_CHECK_OK(cudaMemset(p.ptr, 0x3c, size));
   read_back(buf, p.ptr, size);
   RT_CHECK(buf[0] == 0x3c && buf[size - 1] == 0x3c);
   free(buf);
   RT_CHECK_OK(cudaFree(p.ptr));
   RT_CHECK_OK(cudaGetLastError());
}

enum side { HOST_PAGEABLE, HOST_PINNED, DEVICE, SIDE_COUNT };
static const char *const side_names[SIDE_COUNT] = { "pageable", "pinned", "device" };

static void *
side_alloc(enum side s, size_t size)
{
   void *p = NULL;
   if (s == HOST_PAGEABLE)
      p = malloc(size);
   else if (s == HOST_PINNED)
      RT_CHECK_OK(cudaMallocHost(&p, size));
   else
      RT_CHECK_OK(cudaMalloc(&p, size));
   RT_REQUIRE(p != NULL);
   return p;
}

static void
side_free(enum side s, void *p)
{
   if (s == HOST_PAGEABLE)
      free(p);
   else if (s == HOST_PINNED)
      RT_CHECK_OK(cudaFreeHost(p));
   else
      RT_CHECK_OK(cudaFree(p));
}

static void
side_write(enum side s, void *p, const void *data, size_t size)
{
   if (s == DEVICE)
      RT_REQUIRE_OK(cudaMemcpy(p, data, size, cudaMemcpyHostToDevice));
   else
      memcpy(p, data, size);
}

static void
side_read(enum side s, void *data, const void *p, size_t size)
{
   if (s == DEVICE)
      read_back(data, p, size);
   else
      memcpy(data, p, size);
}

static enum cudaMemcpyKind
kind_of(enum side src, enum side dst)
{
   bool sd = src == DEVICE, dd = dst == DEVICE;
   return sd ? (dd ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost)
             : (dd ? cudaMemcpyHostToDevice : cudaMemcpyHostToHost);
}

/* Every pair of sides, with the kind that names them and with
 * cudaMemcpyDefault, at odd widths, pitches and offsets. */
static void
copy_2d(bool async)
{
   const size_t spitch = 131, dpitch = 203, rows = 14, size_s = spitch * rows, size_d = dpitch * rows;
   const size_t width = 37, height = 9, soff = 3 * spitch + 5, doff = 1 * dpitch + 17;
   cudaStream_t stream = NULL;
   uint8_t *sinit = malloc(size_s), *dinit = malloc(size_d), *want = malloc(size_d), *got = malloc(size_d);
   RT_REQUIRE(sinit && dinit && want && got);
   if (async)
      RT_REQUIRE_OK(cudaStreamCreate(&stream));

   for (int s = 0; s < SIDE_COUNT; s++) {
      for (int d = 0; d < SIDE_COUNT; d++) {
         for (int dflt = 0; dflt < 2; dflt++) {
            enum cudaMemcpyKind kind = dflt ? cudaMemcpyDefault : kind_of(s, d);
            void *src = side_alloc(s, size_s), *dst = side_alloc(d, size_d);
            unsigned seed = (unsigned)(s * 16 + d * 4 + dflt);
            rt_fill_pattern(sinit, size_s, seed);
            rt_fill_pattern(dinit, size_d, seed + 100);
            side_write(s, src, sinit, size_s);
            side_write(d, dst, dinit, size_d);

            memcpy(want, dinit, size_d);
            ref_copy_2d(want + doff, dpitch, sinit + soff, spitch, width, height);
            if (async) {
               RT_CHECK_OK(cudaMemcpy2DAsync((uint8_t *)dst + doff, dpitch, (uint8_t *)src + soff, spitch,
                                             width, height, kind, stream));
               RT_CHECK_OK(cudaStreamSynchronize(stream));
            } else {
               RT_CHECK_OK(cudaMemcpy2D((uint8_t *)dst + doff, dpitch, (uint8_t *)src + soff, spitch, width,
                                        height, kind));
            }
            side_read(d, got, dst, size_d);
            RT_CHECK_BYTES(got, want, size_d, "%s copy %s -> %s (kind %d)", async ? "async" : "sync",
                           side_names[s], side_names[d], (int)kind);
            side_free(s, src);
            side_free(d, dst);
         }
      }
   }
   if (async)
      RT_CHECK_OK(cudaStreamDestroy(stream));
   free(sinit);
   free(dinit);
   free(want);
   free(got);
   RT_CHECK_OK(cudaGetLastError());
}

static void
pitched_copy_2d(void)
{
   copy_2d(false);
}

static void
pitched_copy_2d_async(void)
{
   copy_2d(true);

   /* A chain on one stream, each step reading what the one before wrote:
    * host -> pitched -> pitched (another layout) -> host, then a fill of
    * part of the first, all queued before one synchronisation. */
   const size_t w = 45, h = 21;
   size_t pa, pb;
   void *a, *b;
   cudaStream_t s;
   uint8_t *in, *out, *want, *back, *back_want;
   RT_REQUIRE_OK(cudaStreamCreate(&s));
   RT_REQUIRE_OK(cudaMallocPitch(&a, &pa, w, h));
   RT_REQUIRE_OK(cudaMallocPitch(&b, &pb, w + 600, h));
   RT_REQUIRE_OK(cudaMallocHost((void **)&in, w * h));
   RT_REQUIRE_OK(cudaMallocHost((void **)&out, w * h));
   RT_REQUIRE_OK(cudaMallocHost((void **)&back, pa * h));
   want = malloc(w * h);
   back_want = malloc(pa * h);
   RT_REQUIRE(want && back_want);
   rt_fill_pattern(in, w * h, 7);
   memset(out, 0, w * h);
   RT_CHECK_OK(cudaMemsetAsync(a, 0, pa * h, s));
   RT_CHECK_OK(cudaMemcpy2DAsync(a, pa, in, w, w, h, cudaMemcpyHostToDevice, s));
   RT_CHECK_OK(cudaMemcpy2DAsync(b, pb, a, pa, w, h, cudaMemcpyDeviceToDevice, s));
   RT_CHECK_OK(cudaMemset2DAsync(a, pa, 0xe1, 10, 4, s));
   RT_CHECK_OK(cudaMemcpy2DAsync(out, w, b, pb, w, h, cudaMemcpyDefault, s));
   RT_CHECK_OK(cudaMemcpyAsync(back, a, pa * h, cudaMemcpyDeviceToHost, s));
   RT_CHECK_OK(cudaStreamSynchronize(s));
   memcpy(want, in, w * h);
   RT_CHECK_BYTES(out, want, w * h, "stream-ordered 2D copies");
   memset(back_want, 0, pa * h);
   ref_copy_2d(back_want, pa, in, w, w, h);
   ref_set_2d(back_want, pa, 0xe1, 10, 4);
   RT_CHECK_BYTES(back, back_want, pa * h, "fill after the copies that read it");

   free(want);
   free(back_want);
   RT_CHECK_OK(cudaFreeHost(in));
   RT_CHECK_OK(cudaFreeHost(out));
   RT_CHECK_OK(cudaFreeHost(back));
   RT_CHECK_OK(cudaFree(a));
   RT_CHECK_OK(cudaFree(b));
   RT_CHECK_OK(cudaStreamDestroy(s));
   RT_CHECK_OK(cudaGetLastError());
}

/* Fills touch the box they name and nothing else: not the padding past
 * each row's width, not the rows past the height, not other slices. */
static void
pitched_memset(void)
{
   const size_t w = 77, h = 13;
   size_t pitch;
   void *d;
   cudaStream_t s;
   RT_REQUIRE_OK(cudaStreamCreate(&s));
   RT_REQUIRE_OK(cudaMallocPitch(&d, &pitch, w, h));
   size_t size = pitch * h;
   uint8_t *want = malloc(size), *got = malloc(size);
   RT_REQUIRE(want && got);

   memset(want, 0x11, size);
   RT_CHECK_OK(cudaMemset(d, 0x11, size));
   RT_CHECK_OK(cudaMemset2D((uint8_t *)d + pitch + 3, pitch, 0x1a2, 41, 7));
   ref_set_2d(want + pitch + 3, pitch, 0xa2, 41, 7);
   RT_CHECK_OK(cudaMemset2DAsync((uint8_t *)d + 9 * pitch, pitch, 0x5c, w, 3, s));
   ref_set_2d(want + 9 * pitch, pitch, 0x5c, w, 3);
   /* One row: the pitch does not matter. */
   RT_CHECK_OK(cudaMemset2DAsync((uint8_t *)d + 12 * pitch + 1, 0, 0x77, 5, 1, s));
   ref_set_2d(want + 12 * pitch + 1, pitch, 0x77, 5, 1);
   RT_CHECK_OK(cudaStreamSynchronize(s));
   read_back(got, d, size);
   RT_CHECK_BYTES(got, want, size, "cudaMemset2D");
   RT_CHECK_OK(cudaFree(d));
   free(want);
   free(got);

   /* 3D: slices of ysize rows; boxes with height == ysize (rows evenly
    * spaced through the slices) and height < ysize (slice by slice). */
   struct cudaPitchedPtr p;
   struct cudaExtent e = { 50, 6, 4 };
   RT_REQUIRE_OK(cudaMalloc3D(&p, e));
   size = p.pitch * e.height * e.depth;
   const size_t slice = p.pitch * p.ysize;
   want = malloc(size);
   got = malloc(size);
   RT_REQUIRE(want && got);
   memset(want, 0x22, size);
   RT_CHECK_OK(cudaMemset(p.ptr, 0x22, size));

   struct cudaExtent whole_rows = { 33, 6, 2 };
   RT_CHECK_OK(cudaMemset3D(p, 0x90, whole_rows));
   for (size_t z = 0; z < 2; z++)
      ref_set_2d(want + z * slice, p.pitch, 0x90, 33, 6);

   struct cudaPitchedPtr inner = p;
   inner.ptr = (uint8_t *)p.ptr + slice + 2 * p.pitch + 7;
   struct cudaExtent part_rows = { 19, 3, 3 };
   RT_CHECK_OK(cudaMemset3DAsync(inner, 0x4f, part_rows, s));
   for (size_t z = 0; z < 3; z++)
      ref_set_2d(want + (z + 1) * slice + 2 * p.pitch + 7, p.pitch, 0x4f, 19, 3);
   RT_CHECK_OK(cudaStreamSynchronize(s));
   read_back(got, p.ptr, size);
   RT_CHECK_BYTES(got, want, size, "cudaMemset3D");

   RT_CHECK_OK(cudaFree(p.ptr));
   RT_CHECK_OK(cudaStreamDestroy(s));
   free(want);
   free(got);
   RT_CHECK_OK(cudaGetLastError());
}

/* A 2D array of 4-byte elements and every copy that takes a pitch or a
 * byte count into and out of it. */
static void
pitched_array_copies(void)
{
   const size_t w = 37, h = 13, row = w * 4, size = row * h;
   struct cudaChannelFormatDesc desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
   cudaArray_t arr;
   cudaStream_t s;
   size_t pitch;
   void *d;
   RT_REQUIRE_OK(cudaStreamCreate(&s));
   RT_REQUIRE_OK(cudaMallocArray(&arr, &desc, w, h, 0));
   RT_REQUIRE_OK(cudaMallocPitch(&d, &pitch, row, h));
   uint8_t *ref = malloc(size), *in = malloc(size), *got = malloc(size), *host = malloc(pitch * h);
   uint8_t *host_want = malloc(pitch * h);
   RT_REQUIRE(ref && in && got && host && host_want);

   /* The array, from pitched device memory whole, async. */
   rt_fill_pattern(in, size, 1);
   RT_CHECK_OK(cudaMemcpy2D(d, pitch, in, row, row, h, cudaMemcpyHostToDevice));
   RT_CHECK_OK(cudaMemcpy2DToArrayAsync(arr, 0, 0, d, pitch, row, h, cudaMemcpyDeviceToDevice, s));
   memcpy(ref, in, size);
   /* A box at an offset from pageable host memory, on the same stream. */
   rt_fill_pattern(in, size, 2);
   RT_CHECK_OK(cudaMemcpy2DToArrayAsync(arr, 3 * 4, 2, in + 5, 61, 9 * 4, 6, cudaMemcpyHostToDevice, s));
   ref_copy_2d(ref + 2 * row + 3 * 4, row, in + 5, 61, 9 * 4, 6);
   RT_CHECK_OK(cudaStreamSynchronize(s));
   RT_CHECK_OK(cudaMemcpy2DFromArray(got, row, arr, 0, 0, row, h, cudaMemcpyDeviceToHost));
   RT_CHECK_BYTES(got, ref, size, "cudaMemcpy2DToArrayAsync");

   /* Out of it into pitched device memory at an offset, async. */
   RT_CHECK_OK(cudaMemset(d, 0x6d, pitch * h));
   memset(host_want, 0x6d, pitch * h);
   RT_CHECK_OK(cudaMemcpy2DFromArrayAsync((uint8_t *)d + pitch + 8, pitch, arr, 4 * 4, 1, 20 * 4, 10,
                                          cudaMemcpyDefault, s));
   ref_copy_2d(host_want + pitch + 8, pitch, ref + row + 4 * 4, row, 20 * 4, 10);
   RT_CHECK_OK(cudaStreamSynchronize(s));
   read_back(host, d, pitch * h);
   RT_CHECK_BYTES(host, host_want, pitch * h, "cudaMemcpy2DFromArrayAsync");

   /* Byte counts that run on across rows: from the middle of row 3 over
    * three whole rows to the middle of row 7; and a short piece within
    * one row.  Offsets and counts are whole elements, as the array's
    * copies need. */
   const size_t x0 = 7 * 4, n = (row - x0) + 3 * row + 52;
   rt_fill_pattern(in, size, 3);
   RT_CHECK_OK(cudaMemcpyToArray(arr, x0, 3, in, n, cudaMemcpyHostToDevice));
   memcpy(ref + 3 * row + x0, in, n);
   RT_CHECK_OK(cudaMemcpyToArrayAsync(arr, 20, 11, in + 1000, 16, cudaMemcpyDefault, s));
   memcpy(ref + 11 * row + 20, in + 1000, 16);
   RT_CHECK_OK(cudaStreamSynchronize(s));
   RT_CHECK_OK(cudaMemcpyFromArray(got, arr, 0, 0, size, cudaMemcpyDeviceToHost));
   RT_CHECK_BYTES(got, ref, size, "cudaMemcpyToArray");

   memset(got, 0, size);
   RT_CHECK_OK(cudaMemcpyFromArrayAsync(d, arr, 12, 2, 3 * row + 4, cudaMemcpyDeviceToDevice, s));
   RT_CHECK_OK(cudaStreamSynchronize(s));
   read_back(got, d, 3 * row + 4);
   RT_CHECK_BYTES(got, ref + 2 * row + 12, 3 * row + 4, "cudaMemcpyFromArrayAsync");

   RT_CHECK_OK(cudaFreeArray(arr));
   RT_CHECK_OK(cudaFree(d));
   RT_CHECK_OK(cudaStreamDestroy(s));
   free(ref);
   free(in);
   free(got);
   free(host);
   free(host_want);
   RT_CHECK_OK(cudaGetLastError());
}

/* cudaMemcpyArrayToArray: byte counts that run on across rows of arrays
 * of different widths (pieces that end either side's row) and of equal
 * widths (whole rows at once), checked against host copies of both
 * arrays; then ranges past either array's end, which change nothing. */
static void
pitched_array_to_array(void)
{
   struct cudaChannelFormatDesc desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
   enum { AW = 40, AH = 12, BW = 24, BH = 20 };
   const size_t arow = AW * 4, brow = BW * 4, asize = arow * AH, bsize = brow * BH;
   cudaArray_t a, b, c;
   uint8_t *aref = malloc(asize), *bref = malloc(bsize), *cref = malloc(asize), *got = malloc(asize + bsize);
   RT_REQUIRE(aref && bref && cref && got);
   RT_REQUIRE_OK(cudaMallocArray(&a, &desc, AW, AH, 0));
   RT_REQUIRE_OK(cudaMallocArray(&b, &desc, BW, BH, 0));
   RT_REQUIRE_OK(cudaMallocArray(&c, &desc, AW, AH, 0));
   rt_fill_pattern(aref, asize, 11);
   rt_fill_pattern(bref, bsize, 12);
   rt_fill_pattern(cref, asize, 13);
   RT_CHECK_OK(cudaMemcpyToArray(a, 0, 0, aref, asize, cudaMemcpyHostToDevice));
   RT_CHECK_OK(cudaMemcpyToArray(b, 0, 0, bref, bsize, cudaMemcpyHostToDevice));
   RT_CHECK_OK(cudaMemcpyToArray(c, 0, 0, cref, asize, cudaMemcpyHostToDevice));

   /* Rows of 160 and 96 bytes, both starting mid-row. */
   const size_t n = 1000;
   RT_CHECK_OK(cudaMemcpyArrayToArray(b, 20, 3, a, 12, 2, n, cudaMemcpyDeviceToDevice));
   memcpy(bref + 3 * brow + 20, aref + 2 * arow + 12, n);
   RT_CHECK_OK(cudaMemcpyFromArray(got, b, 0, 0, bsize, cudaMemcpyDeviceToHost));
   RT_CHECK_BYTES(got, bref, bsize, "cudaMemcpyArrayToArray, widths 40 and 24");

   /* Equal widths: three whole rows and part of the next, then a piece
    * from mid-row with the default kind. */
   RT_CHECK_OK(cudaMemcpyArrayToArray(c, 0, 2, a, 0, 1, 3 * arow + 40, cudaMemcpyDefault));
   memcpy(cref + 2 * arow, aref + arow, 3 * arow + 40);
   RT_CHECK_OK(cudaMemcpyArrayToArray(c, 8, 9, b, 36, 0, 2 * arow, cudaMemcpyDeviceToDevice));
   memcpy(cref + 9 * arow + 8, bref + 36, 2 * arow);
   RT_CHECK_OK(cudaMemcpyFromArray(got, c, 0, 0, asize, cudaMemcpyDeviceToHost));
   RT_CHECK_BYTES(got, cref, asize, "cudaMemcpyArrayToArray, equal widths");

   /* Past the source's end, past the destination's, a kind outside the
    * enum; nothing to do is success. */
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemcpyArrayToArray(b, 0, 0, a, 0, AH - 1, arow + 4,
                                                                cudaMemcpyDeviceToDevice));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemcpyArrayToArray(b, 0, BH - 1, a, 0, 0, brow + 4,
                                                                cudaMemcpyDeviceToDevice));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemcpyArrayToArray(b, 0, 0, a, 0, AH, 4, cudaMemcpyDeviceToDevice));
   RT_CHECK_FAILS(cudaErrorInvalidMemcpyDirection,
                  cudaMemcpyArrayToArray(b, 0, 0, a, 0, 0, 4, (enum cudaMemcpyKind)9));
   RT_CHECK_OK(cudaMemcpyArrayToArray(b, 0, 0, a, 0, 0, 0, cudaMemcpyDeviceToDevice));
   RT_CHECK_OK(cudaMemcpyFromArray(got, b, 0, 0, bsize, cudaMemcpyDeviceToHost));
   RT_CHECK_BYTES(got, bref, bsize, "after the refused copies");

   RT_CHECK_OK(cudaFreeArray(a));
   RT_CHECK_OK(cudaFreeArray(b));
   RT_CHECK_OK(cudaFreeArray(c));
   free(aref);
   free(bref);
   free(cref);
   free(got);
   RT_CHECK_OK(cudaGetLastError());
}

static void
pitched_errors(void)
{
   void *d = NULL;
   size_t pitch = 0;
   uint8_t host[4096];
   cudaArray_t arr;
   struct cudaChannelFormatDesc desc = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
   RT_REQUIRE_OK(cudaMallocPitch(&d, &pitch, 64, 8));
   RT_REQUIRE_OK(cudaMallocArray(&arr, &desc, 64, 8, 0));

   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMallocPitch(NULL, &pitch, 64, 8));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMallocPitch(&d, NULL, 64, 8));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMalloc3D(NULL, (struct cudaExtent){ 1, 1, 1 }));

   /* A pitch that does not hold the row. */
   RT_CHECK_FAILS(cudaErrorInvalidPitchValue, cudaMemcpy2D(d, 32, host, 64, 64, 2, cudaMemcpyHostToDevice));
   RT_CHECK_FAILS(cudaErrorInvalidPitchValue, cudaMemcpy2D(host, 64, d, 32, 64, 2, cudaMemcpyDeviceToHost));
   RT_CHECK_FAILS(cudaErrorInvalidPitchValue,
                  cudaMemcpy2DAsync(d, pitch, host, 10, 64, 2, cudaMemcpyHostToDevice, 0));
   RT_CHECK_FAILS(cudaErrorInvalidPitchValue,
                  cudaMemcpy2DToArray(arr, 0, 0, host, 16, 32, 2, cudaMemcpyHostToDevice));
   RT_CHECK_FAILS(cudaErrorInvalidPitchValue,
                  cudaMemcpy2DFromArrayAsync(host, 16, arr, 0, 0, 32, 2, cudaMemcpyDeviceToHost, 0));
   /* Past the largest pitch the device takes. */
   RT_CHECK_FAILS(cudaErrorInvalidPitchValue,
                  cudaMemcpy2D(d, pitch, host, (size_t)1 << 40, 64, 2, cudaMemcpyHostToDevice));

   /* A kind outside the enum. */
   RT_CHECK_FAILS(cudaErrorInvalidMemcpyDirection,
                  cudaMemcpy2D(d, pitch, host, 64, 64, 2, (enum cudaMemcpyKind)7));
   RT_CHECK_FAILS(cudaErrorInvalidMemcpyDirection,
                  cudaMemcpy2DAsync(d, pitch, host, 64, 64, 2, (enum cudaMemcpyKind)-1, 0));
   RT_CHECK_FAILS(cudaErrorInvalidMemcpyDirection,
                  cudaMemcpy2DToArrayAsync(arr, 0, 0, host, 64, 64, 2, (enum cudaMemcpyKind)5, 0));
   RT_CHECK_FAILS(cudaErrorInvalidMemcpyDirection,
                  cudaMemcpyToArray(arr, 0, 0, host, 64, (enum cudaMemcpyKind)9));
   RT_CHECK_FAILS(cudaErrorInvalidMemcpyDirection,
                  cudaMemcpyFromArrayAsync(host, arr, 0, 0, 64, (enum cudaMemcpyKind)9, 0));

   /* NULL memory, and memory the kind calls device that is not. */
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemcpy2D(NULL, pitch, host, 64, 64, 2, cudaMemcpyHostToDevice));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemcpy2D(d, pitch, NULL, 64, 64, 2, cudaMemcpyDefault));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemcpy2D(host, 64, host + 1024, 64, 64, 2, cudaMemcpyDeviceToHost));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemset2D(NULL, pitch, 0, 64, 2));

   /* Past the end of the allocation or the array. */
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemcpy2D(d, pitch, host, 64, 64, 9, cudaMemcpyHostToDevice));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemcpyToArray(arr, 10, 7, host, 60, cudaMemcpyHostToDevice));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemcpyFromArray(host, arr, 0, 8, 1, cudaMemcpyDeviceToHost));
   /* A column offset past the row is a position in a later row, as
    * NVIDIA's runtime takes it (measured on an H100): byte 64 of row 0 of
    * 64-byte rows is row 1's first byte, and byte 130 of row 5 is row
    * 7's third. */
   uint8_t marks[2] = {0xc3, 0x5a}, marks_back[2] = {0, 0};
   RT_CHECK_OK(cudaMemcpyToArray(arr, 64, 0, &marks[0], 1, cudaMemcpyHostToDevice));
   RT_CHECK_OK(cudaMemcpyToArray(arr, 130, 5, &marks[1], 1, cudaMemcpyHostToDevice));
   RT_CHECK_OK(cudaMemcpyFromArray(&marks_back[0], arr, 0, 1, 1, cudaMemcpyDeviceToHost));
   RT_CHECK_OK(cudaMemcpyFromArray(&marks_back[1], arr, 2, 7, 1, cudaMemcpyDeviceToHost));
   RT_CHECK_BYTES(marks_back, marks, 2, "cudaMemcpyToArray past the row");
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemcpyToArray(arr, 64 * 8, 0, host, 1, cudaMemcpyHostToDevice));

   /* Fills: a pitch that does not hold the row once there are two rows;
    * slices shorter than the box. */
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemset2D(d, 16, 0, 64, 2));
   struct cudaPitchedPtr p = { d, pitch, 64, 2 };
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemset3D(p, 0, (struct cudaExtent){ 64, 3, 2 }));
   p.pitch = 8;
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemset3DAsync(p, 0, (struct cudaExtent){ 64, 2, 1 }, 0));

   /* Nothing to do is success, whatever the pointers. */
   RT_CHECK_OK(cudaMemcpy2D(NULL, 0, NULL, 0, 0, 5, cudaMemcpyHostToDevice));
   RT_CHECK_OK(cudaMemcpy2D(NULL, 0, NULL, 0, 5, 0, cudaMemcpyDeviceToHost));
   RT_CHECK_OK(cudaMemset2D(NULL, 0, 0, 0, 3));
   RT_CHECK_OK(cudaMemset3D((struct cudaPitchedPtr){ NULL, 0, 0, 0 }, 0, (struct cudaExtent){ 4, 4, 0 }));
   RT_CHECK_OK(cudaMemcpyToArray(arr, 0, 0, NULL, 0, cudaMemcpyHostToDevice));

   /* The valid calls after the failures are unaffected. */
   memset(host, 0x42, 64 * 8);
   RT_CHECK_OK(cudaMemcpy2D(d, pitch, host, 64, 64, 8, cudaMemcpyHostToDevice));
   uint8_t back[64 * 8];
   RT_CHECK_OK(cudaMemcpy2D(back, 64, d, pitch, 64, 8, cudaMemcpyDeviceToHost));
   RT_CHECK_BYTES(back, host, sizeof(back), "after the errors");

   RT_CHECK_OK(cudaFreeArray(arr));
   RT_CHECK_OK(cudaFree(d));
   RT_CHECK_OK(cudaGetLastError());
}

static const struct rt_case cases[] = {
   RT_CASE("runtime.pitched.malloc", pitched_malloc),
   RT_CASE("runtime.pitched.copy_2d", pitched_copy_2d),
   RT_CASE("runtime.pitched.copy_2d_async", pitched_copy_2d_async),
   RT_CASE("runtime.pitched.memset", pitched_memset),
   RT_CASE("runtime.pitched.array_copies", pitched_array_copies),
   RT_CASE("runtime.pitched.array_to_array", pitched_array_to_array),
   RT_CASE("runtime.pitched.errors", pitched_errors),
};

RT_MAIN(cases)
