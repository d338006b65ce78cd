/*
 * Arrays cuvk creates itself: the format table, every shape and flag,
 * mipmapped arrays, every kind of copy, and every bad input.
 */
#include "array_util.h"

#include <cuda_runtime_api.h>

/* ---- Formats ---- */

static const CUarray_format all_formats[] = {
   CU_AD_FORMAT_UNSIGNED_INT8, CU_AD_FORMAT_UNSIGNED_INT16, CU_AD_FORMAT_UNSIGNED_INT32,
   CU_AD_FORMAT_SIGNED_INT8, CU_AD_FORMAT_SIGNED_INT16, CU_AD_FORMAT_SIGNED_INT32,
   CU_AD_FORMAT_HALF, CU_AD_FORMAT_FLOAT, CU_AD_FORMAT_UNORM_INT_101010_2,
   CU_AD_FORMAT_BC1_UNORM, CU_AD_FORMAT_BC1_UNORM_SRGB, CU_AD_FORMAT_BC2_UNORM,
   CU_AD_FORMAT_BC2_UNORM_SRGB, CU_AD_FORMAT_BC3_UNORM, CU_AD_FORMAT_BC3_UNORM_SRGB,
   CU_AD_FORMAT_BC4_UNORM, CU_AD_FORMAT_BC4_SNORM, CU_AD_FORMAT_BC5_UNORM, CU_AD_FORMAT_BC5_SNORM,
   CU_AD_FORMAT_BC6H_UF16, CU_AD_FORMAT_BC6H_SF16, CU_AD_FORMAT_BC7_UNORM, CU_AD_FORMAT_BC7_UNORM_SRGB,
   CU_AD_FORMAT_UNORM_INT8X1, CU_AD_FORMAT_UNORM_INT8X2, CU_AD_FORMAT_UNORM_INT8X4,
   CU_AD_FORMAT_UNORM_INT16X1, CU_AD_FORMAT_UNORM_INT16X2, CU_AD_FORMAT_UNORM_INT16X4,
   CU_AD_FORMAT_SNORM_INT8X1, CU_AD_FORMAT_SNORM_INT8X2, CU_AD_FORMAT_SNORM_INT8X4,
   CU_AD_FORMAT_SNORM_INT16X1, CU_AD_FORMAT_SNORM_INT16X2, CU_AD_FORMAT_SNORM_INT16X4,
};

static const CUarray_format video_formats[] = {
   CU_AD_FORMAT_NV12, CU_AD_FORMAT_P010, CU_AD_FORMAT_YUY2, CU_AD_FORMAT_AYUV,
};

/* Every (format, channels) pair CUDA defines makes an array whose bytes
 * go in and come out unchanged (block formats too: copies move blocks);
 * every pair it does not define is INVALID_VALUE. */
static void
format_table(void)
{
   unsigned made = 0, unsupported = 0;

   for (size_t i = 0; i < AT_ARRAY_SIZE(all_formats); i++) {
      for (unsigned ch = 0; ch <= 5; ch++) {
         unsigned block;
         unsigned elem = au_elem_size(all_formats[i], ch, &block);
         struct au_array a;
         CUresult res = au_array_create(&a, 37, 9, 0, all_formats[i], ch, 0);
         if (!elem) {
            if (res != CUDA_ERROR_INVALID_VALUE) {
               fprintf(stderr, "format 0x%x x%u: %s\n", all_formats[i], ch, at_result_name(res));
               AT_CHECK(!"an undefined (format, channels) pair must be INVALID_VALUE");
            }
            if (res == CUDA_SUCCESS)
               au_array_free(&a, true);
            continue;
         }
         if (res == CUDA_ERROR_NOT_SUPPORTED) {
            unsupported++;
            continue;
         }
         AT_OK(res);
         if (res != CUDA_SUCCESS)
            continue;
         made++;
         AT_CHECK(a.elem == elem);
         CUDA_ARRAY_DESCRIPTOR d2;
         AT_OK(cuArrayGetDescriptor(&d2, a.handle));
         AT_CHECK(d2.Width == 37 && d2.Height == 9 && d2.Format == all_formats[i] && d2.NumChannels == ch);
         au_array_randomize(&a);
         au_array_check(&a, "format round trip");
         au_array_free(&a, true);
      }
   }
   printf("%u (format, channels) pairs made, %u not supported by the device\n", made, unsupported);
   AT_CHECK(made > 0);

   for (size_t i = 0; i < AT_ARRAY_SIZE(video_formats); i++) {
      CUDA_ARRAY_DESCRIPTOR d = { 64, 64, video_formats[i], 1 };
      CUarray h;
      AT_EXPECT(CUDA_ERROR_NOT_SUPPORTED, cuArrayCreate(&h, &d));
   }
   CUDA_ARRAY_DESCRIPTOR bogus = { 64, 64, (CUarray_format)0x77, 1 };
   CUarray h;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuArrayCreate(&h, &bogus));
}

/* ---- Shapes ---- */

struct shape {
   const char *name;
   size_t w, h, d;
   unsigned flags;
};

static const struct shape shapes[] = {
   { "1d", 100, 0, 0, 0 },
   { "2d", 61, 23, 0, 0 },
   { "3d", 19, 13, 7, 0 },
   { "1d_layered", 50, 0, 5, CUDA_ARRAY3D_LAYERED },
   { "2d_layered", 21, 11, 4, CUDA_ARRAY3D_LAYERED },
   { "cubemap", 16, 16, 6, CUDA_ARRAY3D_CUBEMAP },
   { "cubemap_layered", 8, 8, 12, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED },
   { "2d_surface", 33, 17, 0, CUDA_ARRAY3D_SURFACE_LDST },
   { "2d_gather", 32, 32, 0, CUDA_ARRAY3D_TEXTURE_GATHER },
   { "2d_color_attachment", 40, 30, 0, CUDA_ARRAY3D_COLOR_ATTACHMENT },
   { "3d_surface", 9, 9, 9, CUDA_ARRAY3D_SURFACE_LDST },
};

/* Whole-array round trip, then a sub-box out to pitched device memory
 * and back into another place of the array. */
static void
create_shapes(void)
{
   for (size_t i = 0; i < AT_ARRAY_SIZE(shapes); i++) {
      const struct shape *s = &shapes[i];
      struct au_array a;
      CUresult res = au_array_create(&a, s->w, s->h, s->d, CU_AD_FORMAT_UNSIGNED_INT16, 2, s->flags);
      AT_OK(res);
      if (res != CUDA_SUCCESS)
         continue;
      CUDA_ARRAY3D_DESCRIPTOR d;
      AT_OK(cuArray3DGetDescriptor(&d, a.handle));
      AT_CHECK(d.Width == s->w && d.Height == s->h && d.Depth == s->d && d.Flags == s->flags);
      au_array_randomize(&a);
      au_array_check(&a, s->name);

      /* Box: 1 element in, a row down and a slice deep where there are. */
      size_t bx = a.elem, by = a.rows > 2 ? 1 : 0, bz = a.slices > 2 ? 1 : 0;
      size_t bw = a.row_bytes - 2 * a.elem, bh = a.rows - 2 * by, bd = a.slices - 2 * bz;
      struct au_linear dev;
      size_t pitch = a.row_bytes + 96, height = a.rows + 2;
      au_linear_alloc(&dev, AU_DEVICE, pitch * height * a.slices);
      struct au_side as = au_array_side(&a, bx, by, bz);
      struct au_side ls = au_linear_side(&dev, 8, 1, 0, pitch, height);
      CUDA_MEMCPY3D p = au_copy3d(&ls, &as, bw, bh, bd);
      AT_OK(cuMemcpy3D(&p));
      struct au_model lm = au_linear_model(&dev, 8, 1, 0, pitch, height);
      struct au_model am = au_array_model(&a, bx, by, bz);
      au_model_copy(&lm, &am, bw, bh, bd);
      au_linear_check(&dev, "box to device");

      /* Back, one element to the left and a row/slice up. */
      struct au_side as2 = au_array_side(&a, 0, 0, 0);
      p = au_copy3d(&as2, &ls, bw, bh, bd);
      AT_OK(cuMemcpy3D(&p));
      struct au_model am2 = au_array_model(&a, 0, 0, 0);
      au_model_copy(&am2, &lm, bw, bh, bd);
      au_array_check(&a, "box back into the array");
      au_linear_free(&dev);
      au_array_free(&a, true);
   }
}

/* ---- Mipmapped arrays ---- */

static void
mipmap_shape(size_t w, size_t h, size_t d, unsigned flags, unsigned levels)
{
   CUDA_ARRAY3D_DESCRIPTOR desc = { w, h, d, CU_AD_FORMAT_FLOAT, 1, flags };
   CUmipmappedArray mip;
   AT_OK(cuMipmappedArrayCreate(&mip, &desc, levels));
   struct au_array lv[16];
   CUarray first[16];

   for (unsigned l = 0; l < levels; l++) {
      CUarray level, again;
      AT_OK(cuMipmappedArrayGetLevel(&level, mip, l));
      AT_OK(cuMipmappedArrayGetLevel(&again, mip, l));
      AT_CHECK(level == again);
      first[l] = level;
      CUDA_ARRAY3D_DESCRIPTOR ld;
      AT_OK(cuArray3DGetDescriptor(&ld, level));
      AT_CHECK(ld.Width == AT_MAX(w >> l, 1));
      AT_CHECK(ld.Height == (h ? AT_MAX(h >> l, 1) : 0));
      AT_CHECK(ld.Depth == ((flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP)) ? d : d ? AT_MAX(d >> l, 1) : 0));
      AT_CHECK(ld.Format == CU_AD_FORMAT_FLOAT && ld.NumChannels == 1 && ld.Flags == flags);
      AT_CHECK(au_array_wrap(&lv[l], level));
      au_array_randomize(&lv[l]);
      /* A level belongs to its mipmapped array. */
      AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuArrayDestroy(level));
   }
   /* Writing one level left the others alone. */
   for (unsigned l = 0; l < levels; l++) {
      au_array_check(&lv[l], "mip level");
      au_array_free(&lv[l], false);
   }
   CUarray none;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayGetLevel(&none, mip, levels));
   AT_OK(cuMipmappedArrayDestroy(mip));
   /* Its levels went with it. */
   CUDA_ARRAY3D_DESCRIPTOR gone;
   AT_EXPECT(CUDA_ERROR_INVALID_HANDLE, cuArray3DGetDescriptor(&gone, first[0]));
   AT_EXPECT(CUDA_ERROR_INVALID_HANDLE, cuMipmappedArrayDestroy(mip));
}

static void
mipmap_local(void)
{
   mipmap_shape(67, 33, 0, 0, 7);
   mipmap_shape(16, 8, 4, 0, 5);
   mipmap_shape(40, 20, 3, CUDA_ARRAY3D_LAYERED, 3);
   mipmap_shape(64, 0, 0, 0, 7);
   mipmap_shape(8, 8, 6, CUDA_ARRAY3D_CUBEMAP, 4);
}

/* ---- Copies between every kind of memory ---- */

enum { KIND_ARRAY = AU_KIND_COUNT };

static const char *
kind_name(int k)
{
   return k == KIND_ARRAY ? "array" : au_kind_names[k];
}

/* A 2D copy with offsets and pitches larger than a row, from every kind
 * to every kind, checked against models of both sides. */
static void
copy_kinds(void)
{
   const size_t W = 53, H = 19, E = 4;            /* the array: 53x19 RGBA8 */
   const size_t pitch = W * E + 40, rows = H + 3; /* linear memory */
   const size_t cw = 30 * E, ch = 11;             /* the copy */

   for (int sk = 0; sk <= KIND_ARRAY; sk++) {
      for (int dk = 0; dk <= KIND_ARRAY; dk++) {
         struct au_array sa = { 0 }, da = { 0 };
         struct au_linear sl = { 0 }, dl = { 0 };
         struct au_side ss, ds;
         struct au_model sm, dm;
         char what[96];
         snprintf(what, sizeof(what), "%s to %s", kind_name(sk), kind_name(dk));

         if (sk == KIND_ARRAY) {
            AT_OK(au_array_create(&sa, W, H, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0));
            au_array_randomize(&sa);
            ss = au_array_side(&sa, 3 * E, 2, 0);
            sm = au_array_model(&sa, 3 * E, 2, 0);
         } else {
            au_linear_alloc(&sl, sk, pitch * rows);
            ss = au_linear_side(&sl, 7, 1, 0, pitch, 0);
            sm = au_linear_model(&sl, 7, 1, 0, pitch, rows);
         }
         if (dk == KIND_ARRAY) {
            AT_OK(au_array_create(&da, W, H, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0));
            au_array_randomize(&da);
            ds = au_array_side(&da, 9 * E, 5, 0);
            dm = au_array_model(&da, 9 * E, 5, 0);
         } else {
            au_linear_alloc(&dl, dk, pitch * rows);
            ds = au_linear_side(&dl, 12, 4, 0, pitch, 0);
            dm = au_linear_model(&dl, 12, 4, 0, pitch, rows);
         }

         CUDA_MEMCPY2D p = au_copy2d(&ds, &ss, cw, ch);
         CUresult res = cuMemcpy2D(&p);
         if (res != CUDA_SUCCESS)
            fprintf(stderr, "%s: %s\n", what, at_result_name(res));
         AT_OK(res);
         au_model_copy(&dm, &sm, cw, ch, 1);
         if (dk == KIND_ARRAY)
            au_array_check(&da, what);
         else
            au_linear_check(&dl, what);

         if (sk == KIND_ARRAY)
            au_array_free(&sa, true);
         else
            au_linear_free(&sl);
         if (dk == KIND_ARRAY)
            au_array_free(&da, true);
         else
            au_linear_free(&dl);
      }
   }
}

/* A 3D sub-box between a float4 3D array, pitched device memory, pageable
 * host memory with a larger pitch, and a layered array. */
static void
copy_subbox_3d(void)
{
   const size_t E = 16;
   struct au_array a, b;
   AT_OK(au_array_create(&a, 33, 17, 9, CU_AD_FORMAT_FLOAT, 4, 0));
   AT_OK(au_array_create(&b, 30, 20, 6, CU_AD_FORMAT_FLOAT, 4, CUDA_ARRAY3D_LAYERED));
   au_array_randomize(&a);
   au_array_randomize(&b);

   CUdeviceptr dptr;
   size_t dpitch;
   const size_t drows = 16, dslices = 6;
   AT_OK(cuMemAllocPitch(&dptr, &dpitch, 40 * E, drows * dslices, 16));
   struct au_linear dev = { .kind = AU_DEVICE, .dev = dptr, .size = dpitch * drows * dslices };
   dev.model = at_malloc(dev.size);
   at_fill_random(dev.model, dev.size);
   AT_OK(cuMemcpyHtoD(dptr, dev.model, dev.size));

   /* array a (3, 2, 1) 20x11x5 -> device (2 elements, 3, 1) */
   struct au_side as = au_array_side(&a, 3 * E, 2, 1);
   struct au_side ls = au_linear_side(&dev, 2 * E, 3, 1, dpitch, drows);
   CUDA_MEMCPY3D p = au_copy3d(&ls, &as, 20 * E, 11, 5);
   AT_OK(cuMemcpy3D(&p));
   struct au_model am = au_array_model(&a, 3 * E, 2, 1);
   struct au_model lm = au_linear_model(&dev, 2 * E, 3, 1, dpitch, drows);
   au_model_copy(&lm, &am, 20 * E, 11, 5);
   au_linear_check(&dev, "3D array box to pitched device memory");

   /* device -> layered array b (5, 6, 0) */
   struct au_side bs = au_array_side(&b, 5 * E, 6, 0);
   p = au_copy3d(&bs, &ls, 20 * E, 11, 5);
   AT_OK(cuMemcpy3D(&p));
   struct au_model bm = au_array_model(&b, 5 * E, 6, 0);
   au_model_copy(&bm, &lm, 20 * E, 11, 5);
   au_array_check(&b, "pitched device memory to layered array");

   /* array a box -> pageable host with a larger pitch and slice height */
   const size_t hp = 24 * E + 8, hh = 14;
   struct au_linear host;
   au_linear_alloc(&host, AU_PAGEABLE, hp * hh * 5);
   struct au_side hs = au_linear_side(&host, 8, 2, 0, hp, hh);
   p = au_copy3d(&hs, &as, 20 * E, 11, 5);
   AT_OK(cuMemcpy3D(&p));
   struct au_model hm = au_linear_model(&host, 8, 2, 0, hp, hh);
   au_model_copy(&hm, &am, 20 * E, 11, 5);
   au_linear_check(&host, "3D array box to pageable host memory");

   au_linear_free(&host);
   free(dev.model);
   AT_OK(cuMemFree(dptr));
   au_array_free(&a, true);
   au_array_free(&b, true);
}

/* Array to array: direct image copies and the ones that go through a
 * scratch buffer (different element sizes, overlap, 1D with 2D). */
static void
copy_array_to_array(void)
{
   struct au_array rgba8, r32f, rg32, a3d, layered, line;
   AT_OK(au_array_create(&rgba8, 64, 32, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0));
   AT_OK(au_array_create(&r32f, 48, 40, 0, CU_AD_FORMAT_FLOAT, 1, 0));
   AT_OK(au_array_create(&rg32, 20, 20, 0, CU_AD_FORMAT_UNSIGNED_INT32, 2, 0));
   AT_OK(au_array_create(&a3d, 16, 16, 8, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0));
   AT_OK(au_array_create(&layered, 16, 16, 8, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_LAYERED));
   AT_OK(au_array_create(&line, 200, 0, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0));
   struct au_array *all[] = { &rgba8, &r32f, &rg32, &a3d, &layered, &line };
   for (size_t i = 0; i < AT_ARRAY_SIZE(all); i++)
      au_array_randomize(all[i]);

   struct {
      struct au_array *dst, *src;
      size_t dx, dy, dz, sx, sy, sz, w, h, d;
   } cases[] = {
      { &r32f, &rgba8, 4, 3, 0, 8, 1, 0, 40 * 4, 20, 1 },     /* same size, other format */
      { &rg32, &rgba8, 8, 2, 0, 16, 4, 0, 64, 10, 1 },        /* 8- and 4-byte elements */
      { &rgba8, &rgba8, 4, 1, 0, 0, 0, 0, 50 * 4, 25, 1 },    /* overlapping, same array */
      { &layered, &a3d, 0, 2, 1, 4, 3, 2, 10 * 4, 9, 5 },     /* 3D to layered */
      { &a3d, &layered, 8, 1, 0, 0, 0, 0, 6 * 4, 12, 8 },     /* layered to 3D */
      { &line, &rgba8, 12, 0, 0, 0, 7, 0, 60 * 4, 1, 1 },     /* 2D row into a 1D array */
      { &rgba8, &line, 20, 30, 0, 400, 0, 0, 40 * 4, 1, 1 },  /* and back */
   };
   for (size_t i = 0; i < AT_ARRAY_SIZE(cases); i++) {
      struct au_side ds = au_array_side(cases[i].dst, cases[i].dx, cases[i].dy, cases[i].dz);
      struct au_side ss = au_array_side(cases[i].src, cases[i].sx, cases[i].sy, cases[i].sz);
      CUDA_MEMCPY3D p = au_copy3d(&ds, &ss, cases[i].w, cases[i].h, cases[i].d);
      AT_OK(cuMemcpy3D(&p));
      struct au_model dm = au_array_model(cases[i].dst, cases[i].dx, cases[i].dy, cases[i].dz);
      struct au_model sm = au_array_model(cases[i].src, cases[i].sx, cases[i].sy, cases[i].sz);
      au_model_copy(&dm, &sm, cases[i].w, cases[i].h, cases[i].d);
      char what[64];
      snprintf(what, sizeof(what), "array to array case %zu", i);
      au_array_check(cases[i].dst, what);
   }
   for (size_t i = 0; i < AT_ARRAY_SIZE(all); i++)
      au_array_free(all[i], true);
}

/* Device memory whose offset and pitch are not whole elements goes
 * through a scratch buffer; cuMemcpy2DUnaligned takes the same path. */
static void
copy_unaligned(void)
{
   const size_t E = 8;
   struct au_array a;
   AT_OK(au_array_create(&a, 45, 21, 0, CU_AD_FORMAT_HALF, 4, 0));
   au_array_randomize(&a);
   const size_t pitch = 45 * E + 13, rows = 22;
   struct au_linear dev;
   au_linear_alloc(&dev, AU_DEVICE, pitch * rows + 64);

   struct au_side as = au_array_side(&a, 2 * E, 1, 0);
   struct au_side ls = au_linear_side(&dev, 3, 2, 0, pitch, 0);
   CUDA_MEMCPY2D p = au_copy2d(&ls, &as, 40 * E, 19);
   AT_OK(cuMemcpy2D(&p));
   struct au_model lm = au_linear_model(&dev, 3, 2, 0, pitch, rows);
   struct au_model am = au_array_model(&a, 2 * E, 1, 0);
   au_model_copy(&lm, &am, 40 * E, 19, 1);
   au_linear_check(&dev, "array to unaligned device memory");

   at_fill_random(dev.model, dev.size);
   AT_OK(cuMemcpyHtoD(dev.dev, dev.model, dev.size));
   p = au_copy2d(&as, &ls, 40 * E, 19);
   AT_OK(cuMemcpy2DUnaligned(&p));
   au_model_copy(&am, &lm, 40 * E, 19, 1);
   au_array_check(&a, "unaligned device memory to array");

   au_linear_free(&dev);
   au_array_free(&a, true);
}

/* More than a staging slot of pageable memory, both ways, with a pitch. */
static void
copy_staged_large(void)
{
   const size_t W = 1024, H = 1024, E = 16, pitch = W * E + 48;
   struct au_array a;
   AT_OK(au_array_create(&a, W, H, 0, CU_AD_FORMAT_FLOAT, 4, 0));
   struct au_linear host;
   au_linear_alloc(&host, AU_PAGEABLE, pitch * H);
   struct au_side as = au_array_side(&a, 0, 0, 0);
   struct au_side hs = au_linear_side(&host, 0, 0, 0, pitch, 0);
   CUDA_MEMCPY2D p = au_copy2d(&as, &hs, W * E, H);
   AT_OK(cuMemcpy2D(&p));
   struct au_model am = au_array_model(&a, 0, 0, 0), hm = au_linear_model(&host, 0, 0, 0, pitch, H);
   au_model_copy(&am, &hm, W * E, H, 1);
   au_array_check(&a, "16 MiB through staging");

   at_fill_random(host.model, host.size);
   memcpy(host.host, host.model, host.size);
   p = au_copy2d(&hs, &as, W * E, H);
   AT_OK(cuMemcpy2D(&p));
   au_model_copy(&hm, &am, W * E, H, 1);
   au_linear_check(&host, "16 MiB back through staging");
   au_linear_free(&host);
   au_array_free(&a, true);
}

/* The 1D calls: byte ranges that start mid-row and cross slices. */
static void
copy_1d(void)
{
   struct au_array a, b;
   AT_OK(au_array_create(&a, 10, 6, 3, CU_AD_FORMAT_UNSIGNED_INT32, 1, 0));   /* 40-byte rows */
   AT_OK(au_array_create(&b, 12, 5, 4, CU_AD_FORMAT_UNSIGNED_INT32, 1, CUDA_ARRAY3D_LAYERED));
   au_array_randomize(&a);
   au_array_randomize(&b);
   size_t total = au_array_bytes(&a);
   CUstream stream;
   AT_OK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));

   /* Host -> array: offset 12 bytes into row 1, through two slices. */
   size_t off = 52, n = 40 * 8 + 28;
   uint8_t *host = at_malloc(total);
   at_fill_random(host, n);
   AT_OK(cuMemcpyHtoA(a.handle, off, host, n));
   memcpy(a.model + off, host, n);
   au_array_check(&a, "cuMemcpyHtoA");

   /* Array -> host, async on a stream. */
   memset(host, 0, total);
   AT_OK(cuMemcpyAtoHAsync(host, a.handle, 8, total - 16, stream));
   AT_OK(cuStreamSynchronize(stream));
   AT_COMPARE("cuMemcpyAtoHAsync", host, a.model + 8, total - 16);

   /* Device <-> array. */
   CUdeviceptr dev;
   AT_OK(cuMemAlloc(&dev, total));
   AT_OK(cuMemcpyAtoD(dev, a.handle, 0, total));
   AT_OK(cuMemcpyDtoH(host, dev, total));
   AT_COMPARE("cuMemcpyAtoD", host, a.model, total);
   at_fill_random(host, total);
   AT_OK(cuMemcpyHtoD(dev, host, total));
   AT_OK(cuMemcpyDtoA(a.handle, 40, dev + 4, total - 44));
   memcpy(a.model + 40, host + 4, total - 44);
   au_array_check(&a, "cuMemcpyDtoA");

   /* Array -> array with different row lengths. */
   AT_OK(cuMemcpyAtoA(b.handle, 20, a.handle, 36, 400));
   memcpy(b.model + 20, a.model + 36, 400);
   au_array_check(&b, "cuMemcpyAtoA");

   /* Async upload from pinned memory. */
   void *pinned;
   AT_OK(cuMemAllocHost(&pinned, total));
   at_fill_random(pinned, 160);
   AT_OK(cuMemcpyHtoAAsync(b.handle, 48, pinned, 160, stream));
   AT_OK(cuStreamSynchronize(stream));
   memcpy(b.model + 48, pinned, 160);
   au_array_check(&b, "cuMemcpyHtoAAsync");

   AT_OK(cuMemFreeHost(pinned));
   AT_OK(cuMemFree(dev));
   free(host);
   AT_OK(cuStreamDestroy(stream));
   au_array_free(&a, true);
   au_array_free(&b, true);
}

/* The async 2D and 3D forms on a stream, with pinned memory. */
static void
copy_async(void)
{
   CUstream stream;
   AT_OK(cuStreamCreate(&stream, 0));
   struct au_array a;
   AT_OK(au_array_create(&a, 31, 15, 5, CU_AD_FORMAT_UNSIGNED_INT8, 2, 0));
   const size_t E = 2, pitch = 64, rows = 16;
   struct au_linear pin;
   au_linear_alloc(&pin, AU_PINNED, pitch * rows * 5);
   struct au_side as = au_array_side(&a, 0, 0, 0), ps = au_linear_side(&pin, 0, 0, 0, pitch, rows);
   CUDA_MEMCPY3D p = au_copy3d(&as, &ps, 31 * E, 15, 5);
   AT_OK(cuMemcpy3DAsync(&p, stream));
   struct au_model am = au_array_model(&a, 0, 0, 0), pm = au_linear_model(&pin, 0, 0, 0, pitch, rows);
   au_model_copy(&am, &pm, 31 * E, 15, 5);

   /* 2D async reads back slice 0 into the pinned memory's second half. */
   struct au_side ps2 = au_linear_side(&pin, 0, 0, 0, pitch, rows);
   ps2.host = (const uint8_t *)pin.host + pitch * rows * 3;
   CUDA_MEMCPY2D p2 = au_copy2d(&ps2, &as, 31 * E, 15);
   AT_OK(cuMemcpy2DAsync(&p2, stream));
   AT_OK(cuStreamSynchronize(stream));
   struct au_model pm2 = { pin.model + pitch * rows * 3, pitch, pitch * rows, 0, 0, 0 };
   au_model_copy(&pm2, &am, 31 * E, 15, 1);
   au_linear_check(&pin, "async 3D upload and 2D download");
   au_array_check(&a, "async 3D upload");

   au_linear_free(&pin);
   au_array_free(&a, true);
   AT_OK(cuStreamDestroy(stream));
}

/* Pinned <-> array copies on one stream and the array's other users on
 * another, ordered only by events: with transfer lanes the pinned copies
 * run on a lane of their own (array.transfer_lanes.pinned_lanes), so a
 * missing wait between lanes shows as a wrong result. */
static void
copy_pinned_lanes(void)
{
   CUstream up, use;
   CUevent ev;
   AT_OK(cuStreamCreate(&up, CU_STREAM_NON_BLOCKING));
   AT_OK(cuStreamCreate(&use, CU_STREAM_NON_BLOCKING));
   AT_OK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
   struct au_array a;
   AT_OK(au_array_create(&a, 256, 96, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0));
   size_t total = au_array_bytes(&a);
   struct au_linear pin, dev;
   au_linear_alloc(&pin, AU_PINNED, total);
   au_linear_alloc(&dev, AU_DEVICE, total);

   for (int round = 0; round < 3; round++) {
      /* Pinned -> array on one stream; array -> device on the other. */
      at_fill_random(pin.host, total);
      memcpy(a.model, pin.host, total);
      CUDA_MEMCPY3D p = au_copy_array_host(&a, pin.host, true);
      AT_OK(cuMemcpy3DAsync(&p, up));
      AT_OK(cuEventRecord(ev, up));
      AT_OK(cuStreamWaitEvent(use, ev, 0));
      AT_OK(cuMemcpyAtoD(dev.dev, a.handle, 0, total));
      memcpy(dev.model, a.model, total);
      AT_OK(cuStreamSynchronize(use));
      if (!au_linear_check(&dev, "pinned -> array on one stream, array -> device on another"))
         break;

      /* A sub-box from device memory on one stream, then the whole array
       * back to pinned memory on the other. */
      struct au_side as = au_array_side(&a, 40, 10, 0), ds = au_linear_side(&dev, 8, 3, 0, 256 * 4, 96);
      CUDA_MEMCPY2D p2 = au_copy2d(&as, &ds, 100 * 4, 50);
      AT_OK(cuMemcpy2DAsync(&p2, use));
      struct au_model am = au_array_model(&a, 40, 10, 0), dm = au_linear_model(&dev, 8, 3, 0, 256 * 4, 96);
      au_model_copy(&am, &dm, 100 * 4, 50, 1);
      AT_OK(cuEventRecord(ev, use));
      AT_OK(cuStreamWaitEvent(up, ev, 0));
      memset(pin.host, 0xcd, total);
      p = au_copy_array_host(&a, pin.host, false);
      AT_OK(cuMemcpy3DAsync(&p, up));
      AT_OK(cuStreamSynchronize(up));
      if (!AT_COMPARE("device -> array on one stream, array -> pinned on another", pin.host, a.model, total))
         break;

      /* Both directions back to back on one stream, pitched. */
      struct au_side ps = au_linear_side(&pin, 12, 2, 0, 256 * 4, 96);
      as = au_array_side(&a, 20, 7, 0);
      p2 = au_copy2d(&as, &ps, 200 * 4, 80);
      AT_OK(cuMemcpy2DAsync(&p2, up));
      am = au_array_model(&a, 20, 7, 0);
      struct au_model pm = { pin.host, 256 * 4, 0, 12, 2, 0 };
      au_model_copy(&am, &pm, 200 * 4, 80, 1);
      uint8_t *back = at_malloc(total);
      p = au_copy_array_host(&a, back, false);
      AT_OK(cuMemcpy3DAsync(&p, up));
      AT_OK(cuStreamSynchronize(up));
      bool ok = AT_COMPARE("pinned -> array -> pageable on one stream", back, a.model, total);
      free(back);
      if (!ok)
         break;
   }

   au_linear_free(&pin);
   au_linear_free(&dev);
   au_array_free(&a, true);
   AT_OK(cuEventDestroy(ev));
   AT_OK(cuStreamDestroy(up));
   AT_OK(cuStreamDestroy(use));
}

/* ---- Bad inputs ---- */

static void
errors_create(void)
{
   CUarray h;
   CUmipmappedArray m;
   CUDA_ARRAY3D_DESCRIPTOR ok = { 16, 16, 0, CU_AD_FORMAT_FLOAT, 1, 0 };
   struct {
      CUDA_ARRAY3D_DESCRIPTOR d;
      CUresult want;
      const char *what;
   } bad[] = {
      { { 0, 16, 0, CU_AD_FORMAT_FLOAT, 1, 0 }, CUDA_ERROR_INVALID_VALUE, "zero width" },
      { { 16, 16, 0, CU_AD_FORMAT_FLOAT, 3, 0 }, CUDA_ERROR_INVALID_VALUE, "3 channels" },
      { { 16, 16, 0, CU_AD_FORMAT_FLOAT, 0, 0 }, CUDA_ERROR_INVALID_VALUE, "0 channels" },
      { { 16, 16, 0, CU_AD_FORMAT_UNORM_INT8X2, 4, 0 }, CUDA_ERROR_INVALID_VALUE, "X2 with 4 channels" },
      { { 16, 16, 0, (CUarray_format)0x33, 1, 0 }, CUDA_ERROR_INVALID_VALUE, "bogus format" },
      { { 16, 8, 6, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_CUBEMAP }, CUDA_ERROR_INVALID_VALUE, "cube w != h" },
      { { 16, 16, 5, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_CUBEMAP }, CUDA_ERROR_INVALID_VALUE, "cube depth 5" },
      { { 16, 16, 8, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED },
        CUDA_ERROR_INVALID_VALUE, "layered cube depth 8" },
      { { 16, 16, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_LAYERED }, CUDA_ERROR_INVALID_VALUE, "0 layers" },
      { { 16, 0, 4, CU_AD_FORMAT_FLOAT, 1, 0 }, CUDA_ERROR_INVALID_VALUE, "3D without height" },
      { { 16, 16, 0, CU_AD_FORMAT_FLOAT, 1, 0x1000 }, CUDA_ERROR_INVALID_VALUE, "unknown flag" },
      { { 16, 16, 4, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_TEXTURE_GATHER }, CUDA_ERROR_INVALID_VALUE,
        "gather on 3D" },
      { { 1u << 20, 16, 0, CU_AD_FORMAT_FLOAT, 1, 0 }, CUDA_ERROR_INVALID_VALUE, "too wide" },
      { { 16, 16, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_DEPTH_TEXTURE }, CUDA_ERROR_NOT_SUPPORTED, "depth" },
      { { 16, 16, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SPARSE }, CUDA_ERROR_NOT_SUPPORTED, "sparse" },
      { { 64, 64, 0, CU_AD_FORMAT_NV12, 1, 0 }, CUDA_ERROR_NOT_SUPPORTED, "NV12" },
   };
   for (size_t i = 0; i < AT_ARRAY_SIZE(bad); i++) {
      CUresult res = cuArray3DCreate(&h, &bad[i].d);
      if (res != bad[i].want) {
         fprintf(stderr, "cuArray3DCreate, %s: %s\n", bad[i].what, at_result_name(res));
         AT_CHECK(!"wrong result");
      }
      res = cuMipmappedArrayCreate(&m, &bad[i].d, 1);
      if (res != bad[i].want) {
         fprintf(stderr, "cuMipmappedArrayCreate, %s: %s\n", bad[i].what, at_result_name(res));
         AT_CHECK(!"wrong result");
      }
   }
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuArray3DCreate(NULL, &ok));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuArray3DCreate(&h, NULL));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuArrayCreate(&h, NULL));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayCreate(&m, &ok, 0));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayCreate(&m, &ok, 6)); /* 16x16: 5 levels */
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuArrayDestroy(NULL));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayDestroy(NULL));

   AT_OK(cuArray3DCreate(&h, &ok));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuArray3DGetDescriptor(NULL, h));
   AT_OK(cuArrayDestroy(h));
   AT_EXPECT(CUDA_ERROR_INVALID_HANDLE, cuArrayDestroy(h));
   CUDA_ARRAY3D_DESCRIPTOR d;
   AT_EXPECT(CUDA_ERROR_INVALID_HANDLE, cuArray3DGetDescriptor(&d, h));
   AT_EXPECT(CUDA_ERROR_INVALID_HANDLE, cuArrayDestroy((CUarray)&d));

   AT_OK(cuMipmappedArrayCreate(&m, &ok, 5));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayGetLevel(NULL, m, 0));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayGetLevel(&h, m, 5));
   AT_OK(cuMipmappedArrayGetLevel(&h, m, 4));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuArrayDestroy(h));
   AT_OK(cuMipmappedArrayDestroy(m));
}

/* A NULL host side of the 1D array copies, found by tests/fuzz: cuvk
 * stepped through it by pointer arithmetic before refusing it, undefined
 * behaviour that UBSan reports (run under -Db_sanitize=undefined to see
 * this case fail without the fix). */
static void
errors_copy_1d_null_host(void)
{
   struct au_array a;
   AT_OK(au_array_create(&a, 32, 16, 0, CU_AD_FORMAT_FLOAT, 1, 0));
   CUstream stream;
   AT_OK(cuStreamCreate(&stream, 0));

   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoA(a.handle, 0, NULL, 64));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoH(NULL, a.handle, 0, 64));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoAAsync(a.handle, 0, NULL, 64, stream));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoHAsync(NULL, a.handle, 0, 64, stream));
   /* Nothing to copy: nothing to refuse. */
   AT_OK(cuMemcpyHtoA(a.handle, 0, NULL, 0));

   AT_OK(cuStreamDestroy(stream));
   au_array_free(&a, true);
}

static void
errors_copy(void)
{
   struct au_array a;
   AT_OK(au_array_create(&a, 32, 16, 0, CU_AD_FORMAT_FLOAT, 1, 0));
   uint8_t host[8192];
   CUdeviceptr dev;
   AT_OK(cuMemAlloc(&dev, 4096));
   struct au_side as = au_array_side(&a, 0, 0, 0);
   struct au_side hs = { .type = CU_MEMORYTYPE_HOST, .host = host, .pitch = 256 };
   struct au_side ds = { .type = CU_MEMORYTYPE_DEVICE, .dev = dev, .pitch = 256 };
   CUDA_MEMCPY2D p;

   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(NULL));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(NULL));
   p = au_copy2d(&as, &hs, 64, 4);
   p.srcMemoryType = (CUmemorytype)0;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&p));
   p.srcMemoryType = (CUmemorytype)7;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&p));
   p = au_copy2d(&as, &hs, 64, 4);
   p.srcHost = NULL;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&p));
   p = au_copy2d(&as, &hs, 62, 4);                      /* width not whole floats */
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&p));
   p = au_copy2d(&as, &hs, 64, 4);
   p.dstXInBytes = 2;                                   /* x not whole floats */
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&p));
   p = au_copy2d(&as, &hs, 32 * 4, 4);
   p.dstXInBytes = 4;                                   /* one float past the row */
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&p));
   p = au_copy2d(&as, &hs, 64, 17);                     /* one row past the array */
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&p));
   p = au_copy2d(&as, &hs, 64, 4);
   p.srcPitch = 63;                                     /* pitch under the width */
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&p));
   p = au_copy2d(&as, &ds, 64, 16);                     /* device range past its end */
   p.srcY = 1;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&p));
   p = au_copy2d(&as, &ds, 64, 4);
   p.srcMemoryType = CU_MEMORYTYPE_HOST;                /* device pointer as host */
   p.srcHost = (const void *)(uintptr_t)dev;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&p));
   p = au_copy2d(&as, &ds, 64, 4);
   p.srcDevice = (CUdeviceptr)(uintptr_t)host;          /* host pointer as device */
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&p));

   CUDA_MEMCPY3D p3 = au_copy3d(&as, &hs, 64, 4, 1);
   p3.reserved0 = host;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&p3));
   p3 = au_copy3d(&as, &hs, 64, 4, 1);
   p3.dstLOD = 1;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&p3));
   p3 = au_copy3d(&as, &hs, 64, 4, 2);                  /* depth 2 of a 2D array */
   p3.srcHeight = 4;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&p3));
   p3 = au_copy3d(&as, &hs, 64, 4, 1);
   p3.dstZ = 1;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&p3));

   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoA(a.handle, 2, host, 64));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoA(a.handle, 0, host, 62));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoA(a.handle, 4, host, 32 * 16 * 4));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoH(host, NULL, 0, 4));

   CUarray stale = a.handle;
   au_array_free(&a, true);
   p = au_copy2d(&as, &hs, 64, 4);
   AT_EXPECT(CUDA_ERROR_INVALID_HANDLE, cuMemcpy2D(&p));
   AT_EXPECT(CUDA_ERROR_INVALID_HANDLE, cuMemcpyAtoH(host, stale, 0, 4));
   AT_OK(cuMemFree(dev));
}

/* ---- The runtime twins ---- */

#define RT_OK(call) AT_CHECK((call) == cudaSuccess)
#define RT_EXPECT(want, call)                                                       \
   do {                                                                             \
      cudaError_t rt_err_ = (call);                                                 \
      if (rt_err_ != (want)) {                                                      \
         fprintf(stderr, "%s gave %s\n", #call, cudaGetErrorName(rt_err_));          \
         AT_CHECK(!"wrong runtime result");                                         \
      }                                                                             \
   } while (0)

static void
runtime_arrays(void)
{
   const struct cudaChannelFormatDesc f4 = { 32, 32, 32, 32, cudaChannelFormatKindFloat };
   const struct cudaChannelFormatDesc u8x2 = { 8, 8, 0, 0, cudaChannelFormatKindUnsigned };
   cudaArray_t a, b, lvl;
   struct cudaChannelFormatDesc got;
   struct cudaExtent ext;
   unsigned flags;

   /* 2D: malloc, info, to and from host with pitches, array to array. */
   RT_OK(cudaMallocArray(&a, &u8x2, 70, 30, cudaArraySurfaceLoadStore));
   RT_OK(cudaArrayGetInfo(&got, &ext, &flags, a));
   AT_CHECK(got.x == 8 && got.y == 8 && got.z == 0 && got.w == 0 && got.f == cudaChannelFormatKindUnsigned);
   AT_CHECK(ext.width == 70 && ext.height == 30 && ext.depth == 0 && flags == cudaArraySurfaceLoadStore);
   /* The channel descriptions: built as given, read back from an array. */
   struct cudaChannelFormatDesc made = cudaCreateChannelDesc(8, 8, 0, 0, cudaChannelFormatKindUnsigned);
   AT_CHECK(!memcmp(&made, &u8x2, sizeof(made)));
   made = cudaCreateChannelDesc(10, 10, 10, 2, cudaChannelFormatKindUnsignedNormalized1010102);
   AT_CHECK(made.x == 10 && made.w == 2 && made.f == cudaChannelFormatKindUnsignedNormalized1010102);
   memset(&got, 0xff, sizeof(got));
   RT_OK(cudaGetChannelDesc(&got, a));
   AT_CHECK(!memcmp(&got, &u8x2, sizeof(got)));
   RT_EXPECT(cudaErrorInvalidValue, cudaGetChannelDesc(NULL, a));
   cudaGetLastError();
   const size_t row = 70 * 2, pitch = row + 30;
   uint8_t *src = at_malloc(pitch * 30), *dst = calloc(pitch, 30);
   at_fill_random(src, pitch * 30);
   RT_OK(cudaMemcpy2DToArray(a, 0, 0, src, pitch, row, 30, cudaMemcpyHostToDevice));
   RT_OK(cudaMallocArray(&b, &u8x2, 70, 30, 0));
   RT_OK(cudaMemcpy2DArrayToArray(b, 4, 2, a, 0, 0, row - 4, 28, cudaMemcpyDeviceToDevice));
   RT_OK(cudaMemcpy2DFromArray(dst, pitch, b, 4, 2, row - 4, 28, cudaMemcpyDeviceToHost));
   for (size_t y = 0; y < 28; y++)
      AT_COMPARE("cudaMemcpy2D*Array round trip", dst + y * pitch, src + y * pitch, row - 4);

   /* 3D: a sub-box through device memory, in elements. */
   cudaArray_t v;
   RT_OK(cudaMalloc3DArray(&v, &f4, (struct cudaExtent){ 12, 10, 6 }, 0));
   RT_OK(cudaArrayGetInfo(&got, &ext, NULL, v));
   AT_CHECK(got.x == 32 && got.w == 32 && got.f == cudaChannelFormatKindFloat && ext.depth == 6);
   float *host = at_malloc(12 * 10 * 6 * 16), *back = calloc(12 * 10 * 6, 16);
   at_fill_random(host, 12 * 10 * 6 * 16);
   struct cudaMemcpy3DParms p;
   memset(&p, 0, sizeof(p));
   p.srcPtr = (struct cudaPitchedPtr){ host, 12 * 16, 12, 10 };
   p.dstArray = v;
   p.extent = (struct cudaExtent){ 12, 10, 6 };
   p.kind = cudaMemcpyHostToDevice;
   RT_OK(cudaMemcpy3D(&p));
   void *dev;
   RT_OK(cudaMalloc(&dev, 12 * 10 * 6 * 16));
   memset(&p, 0, sizeof(p));
   p.srcArray = v;
   p.srcPos = (struct cudaPos){ 2, 1, 1 };
   p.dstPtr = (struct cudaPitchedPtr){ dev, 12 * 16, 12, 10 };
   p.dstPos = (struct cudaPos){ 16, 3, 2 };    /* bytes for linear memory */
   p.extent = (struct cudaExtent){ 9, 6, 3 };
   p.kind = cudaMemcpyDeviceToDevice;
   cudaStream_t s;
   RT_OK(cudaStreamCreate(&s));
   RT_OK(cudaMemcpy3DAsync(&p, s));
   RT_OK(cudaStreamSynchronize(s));
   RT_OK(cudaMemcpy(back, dev, 12 * 10 * 6 * 16, cudaMemcpyDeviceToHost));
   for (size_t z = 0; z < 3; z++)
      for (size_t y = 0; y < 6; y++)
         AT_COMPARE("cudaMemcpy3D sub-box", (uint8_t *)back + ((z + 2) * 10 + y + 3) * 192 + 16,
                    (uint8_t *)host + ((z + 1) * 10 + y + 1) * 192 + 32, 9 * 16);

   /* Mipmapped. */
   cudaMipmappedArray_t m;
   RT_OK(cudaMallocMipmappedArray(&m, &f4, (struct cudaExtent){ 32, 16, 0 }, 6, 0));
   RT_OK(cudaGetMipmappedArrayLevel(&lvl, m, 5));
   RT_OK(cudaArrayGetInfo(NULL, &ext, NULL, lvl));
   AT_CHECK(ext.width == 1 && ext.height == 1);
   RT_OK(cudaGetChannelDesc(&got, lvl));
   AT_CHECK(!memcmp(&got, &f4, sizeof(got)));
   RT_EXPECT(cudaErrorInvalidValue, cudaFreeArray(lvl));
   RT_EXPECT(cudaErrorInvalidValue, cudaGetMipmappedArrayLevel(&lvl, m, 6));
   RT_OK(cudaFreeMipmappedArray(m));

   /* Bad inputs. */
   const struct cudaChannelFormatDesc three = { 32, 32, 32, 0, cudaChannelFormatKindFloat };
   const struct cudaChannelFormatDesc odd = { 8, 16, 0, 0, cudaChannelFormatKindUnsigned };
   RT_EXPECT(cudaErrorInvalidChannelDescriptor, cudaMallocArray(&b, &three, 4, 4, 0));
   RT_EXPECT(cudaErrorInvalidChannelDescriptor, cudaMallocArray(&b, &odd, 4, 4, 0));
   RT_EXPECT(cudaErrorInvalidValue, cudaMallocArray(&b, &u8x2, 0, 4, 0));
   RT_EXPECT(cudaErrorInvalidMemcpyDirection,
             cudaMemcpy2DToArray(a, 0, 0, src, pitch, row, 30, (enum cudaMemcpyKind)9));
   RT_EXPECT(cudaErrorInvalidValue, cudaMemcpy2DToArray(a, 1, 0, src, pitch, row, 30, cudaMemcpyHostToDevice));
   RT_EXPECT(cudaErrorInvalidValue, cudaMemcpy3D(NULL));
   cudaGetLastError();
   RT_OK(cudaFreeArray(NULL));
   RT_OK(cudaFreeMipmappedArray(NULL));

   RT_OK(cudaStreamDestroy(s));
   RT_OK(cudaFree(dev));
   RT_OK(cudaFreeArray(a));
   RT_OK(cudaFreeArray(b));
   RT_OK(cudaFreeArray(v));
   free(src);
   free(dst);
   free(host);
   free(back);
}

static const struct at_case cases[] = {
   AT_CASE("array.format.table", format_table),
   AT_CASE("array.create.shapes", create_shapes),
   AT_CASE("array.mipmap.local", mipmap_local),
   AT_CASE("array.copy.kinds", copy_kinds),
   AT_CASE("array.copy.subbox_3d", copy_subbox_3d),
   AT_CASE("array.copy.array_to_array", copy_array_to_array),
   AT_CASE("array.copy.unaligned", copy_unaligned),
   AT_CASE("array.copy.staged_large", copy_staged_large),
   AT_CASE("array.copy.1d", copy_1d),
   AT_CASE("array.copy.async", copy_async),
   AT_CASE("array.copy.pinned_lanes", copy_pinned_lanes),
   AT_CASE("array.errors.create", errors_create),
   AT_CASE("array.errors.copy", errors_copy),
   AT_CASE("array.errors.copy_1d_null_host", errors_copy_1d_null_host),
   AT_CASE("array.runtime.arrays", runtime_arrays),
};

AT_MAIN(cases)
