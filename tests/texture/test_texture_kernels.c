/*
 * texture.kernel.*: kernels of tests/kernels/texture.cu reading texture
 * objects and reading and writing surface objects through the driver API,
 * each result checked against a reference the test computes: point and
 * linear filtering (CUDA's weights have 8 bits of fraction, so linear
 * results are compared within a 256th of the neighbours' spread), every
 * address mode, normalised and unnormalised coordinates, element-type and
 * normalised-float reads, a level of a mipmapped array, handles loaded
 * from device memory, surfaces with each boundary mode, txq and suq.
 *
 *    test_texture_kernels CASE TEXTURE.ptx
 */
#include <cuda.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_harness.h"

/* Why the case could not run on this device (exit 77), or NULL. */
static const char *skipped;

static CUmodule mod;

static CUfunction
kernel(const char *name)
{
   CUfunction f = NULL;
   OK(cuModuleGetFunction(&f, mod, name));
   return f;
}

/* Copies d layers of h rows of row bytes, packed in host memory, into
 * array a from up, or, with up NULL, out of a into down: with cuMemcpy2D
 * where d is 0, else cuMemcpy3D. */
static void
copy_array(CUarray a, const void *up, void *down, size_t row, size_t h, size_t d)
{
   CUDA_MEMCPY3D c = {0};
   c.srcMemoryType = up ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_ARRAY;
   c.srcHost = up;
   c.srcArray = up ? NULL : a;
   c.srcPitch = up ? row : 0;
   c.srcHeight = up ? h : 0;
   c.dstMemoryType = up ? CU_MEMORYTYPE_ARRAY : CU_MEMORYTYPE_HOST;
   c.dstArray = up ? a : NULL;
   c.dstHost = down;
   c.dstPitch = up ? 0 : row;
   c.dstHeight = up ? 0 : h;
   c.WidthInBytes = row;
   c.Height = h;
   c.Depth = d;
   if (d) {
      OK(cuMemcpy3D(&c));
      return;
   }
   /* The same copy without the third dimension. */
   CUDA_MEMCPY2D c2 = {
      .srcMemoryType = c.srcMemoryType, .srcHost = c.srcHost, .srcArray = c.srcArray, .srcPitch = c.srcPitch,
      .dstMemoryType = c.dstMemoryType, .dstHost = c.dstHost, .dstArray = c.dstArray, .dstPitch = c.dstPitch,
      .WidthInBytes = row, .Height = h,
   };
   OK(cuMemcpy2D(&c2));
}

static CUarray
array2d(unsigned w, unsigned h, CUarray_format f, unsigned ch, unsigned flags, const void *data, size_t elem)
{
   CUDA_ARRAY3D_DESCRIPTOR d = {w, h, 0, f, ch, flags};
   CUarray a = NULL;
   OK(cuArray3DCreate(&a, &d));
   copy_array(a, data, NULL, w * elem, h, 0);
   return a;
}

static CUDA_RESOURCE_DESC
array_res(CUarray a)
{
   CUDA_RESOURCE_DESC rd = {0};
   rd.resType = CU_RESOURCE_TYPE_ARRAY;
   rd.res.array.hArray = a;
   return rd;
}

static CUsurfObject
surface(CUarray a)
{
   CUDA_RESOURCE_DESC rd = array_res(a);
   CUsurfObject s = 0;
   OK(cuSurfObjectCreate(&s, &rd));
   return s;
}

/* A mipmapped array of 16 x 16 RGBA floats and 5 levels, each texel of
 * level l holding l * 10 + its channel. */
static CUmipmappedArray
mipmap5(void)
{
   CUDA_ARRAY3D_DESCRIPTOR d = {16, 16, 0, CU_AD_FORMAT_FLOAT, 4, 0};
   CUmipmappedArray m;
   OK(cuMipmappedArrayCreate(&m, &d, 5));
   for (unsigned l = 0; l < 5; l++) {
      unsigned n = 16 >> l;
      float *px = malloc(sizeof(float) * 4 * n * n);
      for (unsigned i = 0; i < 4 * n * n; i++)
         px[i] = (float)(l * 10 + i % 4);
      CUarray level;
      OK(cuMipmappedArrayGetLevel(&level, m, l));
      copy_array(level, px, NULL, n * 16, n, 0);
      free(px);
   }
   return m;
}

/* Point sampling of texels and levels of rd (through view vd where not
 * NULL), levels up to max_level. */
static CUtexObject
point_texture(const CUDA_RESOURCE_DESC *rd, unsigned flags, float max_level, const CUDA_RESOURCE_VIEW_DESC *vd)
{
   CUDA_TEXTURE_DESC td = {0};
   td.filterMode = CU_TR_FILTER_MODE_POINT;
   td.mipmapFilterMode = CU_TR_FILTER_MODE_POINT;
   td.flags = flags;
   td.maxMipmapLevelClamp = max_level;
   CUtexObject t = 0;
   OK(cuTexObjectCreate(&t, rd, &td, vd));
   return t;
}

static CUDA_RESOURCE_DESC
mipmap_res(CUmipmappedArray m)
{
   CUDA_RESOURCE_DESC rd = {0};
   rd.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
   rd.res.mipmap.hMipmappedArray = m;
   return rd;
}

static CUtexObject
texture(CUarray a, CUaddress_mode mode, CUfilter_mode filter, unsigned flags)
{
   CUDA_RESOURCE_DESC rd = array_res(a);
   CUDA_TEXTURE_DESC td = {0};
   td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
   td.filterMode = filter;
   td.flags = flags;
   CUtexObject t = 0;
   OK(cuTexObjectCreate(&t, &rd, &td, NULL));
   return t;
}

static void
launch(CUfunction f, unsigned gx, unsigned gy, unsigned bx, void **args)
{
   OK(cuLaunchKernel(f, gx, gy, 1, bx, 1, 1, 0, NULL, args, NULL));
   OK(cuCtxSynchronize());
}

/* ---- results against references ---- */

/* The shape of a grid of results as the kernels write them: ch channels
 * a texel, w texels a row, h rows a layer (0: a row of texels, printed
 * [x]; else (x, y)), layers of them (0 or 1: one, not printed); x0 is
 * added to each x printed, for results that start before the texture. */
struct grid {
   int ch, w, h, layers, x0;
};

static size_t
grid_size(const struct grid *g)
{
   return (size_t)g->ch * g->w * (g->h ? g->h : 1) * (g->layers ? g->layers : 1);
}

/* A result passes within abs + rel * |reference| of its reference, plus
 * each[i] where each is given (tolerances that vary by texel). */
struct tol {
   double abs, rel;
   const double *each;
};

static const struct tol EXACT = {0, 0, NULL};

/* How many mismatches of one comparison are printed; the rest are
 * counted. */
#define SHOWN 5

/* Mismatch number bad (from 0) of a comparison, at value i of grid g:
 * the first few are printed, the case (what), where, then the values as
 * fmt writes them. */
static void __attribute__((format(printf, 5, 6)))
mismatch(const char *what, const struct grid *g, unsigned bad, size_t i, const char *fmt, ...)
{
   if (bad >= SHOWN)
      return;
   int c = (int)(i % (size_t)g->ch);
   i /= (size_t)g->ch;
   int x = (int)(i % (size_t)g->w) + g->x0;
   i /= (size_t)g->w;
   int y = g->h ? (int)(i % (size_t)g->h) : 0;
   int layer = g->h ? (int)(i / (size_t)g->h) : (int)i;
   fprintf(stderr, "%s:", what);
   if (g->layers > 1)
      fprintf(stderr, " layer %d", layer);
   if (g->h)
      fprintf(stderr, " (%d, %d)", x, y);
   else
      fprintf(stderr, " [%d]", x);
   if (g->ch > 1)
      fprintf(stderr, ".%d", c);
   va_list args;
   va_start(args, fmt);
   vfprintf(stderr, fmt, args);
   va_end(args);
}

/* The end of a comparison with bad mismatches. */
static void
compared(const char *what, const struct grid *g, unsigned bad)
{
   if (bad)
      cuvk_test_report(__FILE__, __LINE__, "%s: %u of %zu values differ", what, bad, grid_size(g));
}

/* Float results against their references within t; fmt (printf's) names
 * the case in what is printed. */
static void __attribute__((format(printf, 5, 6)))
expect_floats(const struct grid *g, const float *got, const double *want, struct tol t, const char *fmt, ...)
{
   char what[160];
   va_list args;
   va_start(args, fmt);
   vsnprintf(what, sizeof(what), fmt, args);
   va_end(args);
   unsigned bad = 0;
   for (size_t i = 0; i < grid_size(g); i++) {
      double tol = t.abs + t.rel * fabs(want[i]) + (t.each ? t.each[i] : 0.0);
      /* Written so that a NaN fails. */
      if (!(fabs(got[i] - want[i]) <= tol)) {
         if (tol > 0)
            mismatch(what, g, bad++, i, " = %.9g, expected %.9g within %.3g\n", got[i], want[i], tol);
         else
            mismatch(what, g, bad++, i, " = %.9g, expected %.9g\n", got[i], want[i]);
      }
   }
   compared(what, g, bad);
}

/* Float results that must equal the texels ref, in g's shape. */
static void
expect_texels(const struct grid *g, const float *got, const float *ref, const char *what)
{
   double *want = malloc(sizeof(double) * grid_size(g));
   for (size_t i = 0; i < grid_size(g); i++)
      want[i] = ref[i];
   expect_floats(g, got, want, EXACT, "%s", what);
   free(want);
}

/* Integer results of size bytes each (1, 2 or 4: little-endian, as the
 * host), the bits compared with their references. */
static void __attribute__((format(printf, 5, 6)))
expect_uints(const struct grid *g, const void *got, unsigned size, const uint32_t *want, const char *fmt, ...)
{
   char what[160];
   va_list args;
   va_start(args, fmt);
   vsnprintf(what, sizeof(what), fmt, args);
   va_end(args);
   unsigned bad = 0;
   for (size_t i = 0; i < grid_size(g); i++) {
      uint32_t have = 0;
      memcpy(&have, (const uint8_t *)got + i * size, size);
      if (have != want[i])
         mismatch(what, g, bad++, i, " = 0x%x, expected 0x%x\n", have, want[i]);
   }
   compared(what, g, bad);
}

/* A texel index along one axis of n for texel coordinate x (floor of it)
 * under CUDA's address modes, or -1 for the border. */
static int
address(int i, int n, CUaddress_mode mode)
{
   switch (mode) {
   case CU_TR_ADDRESS_MODE_WRAP:
      return ((i % n) + n) % n;
   case CU_TR_ADDRESS_MODE_MIRROR: {
      int p = ((i % (2 * n)) + 2 * n) % (2 * n);
      return p < n ? p : 2 * n - 1 - p;
   }
   case CU_TR_ADDRESS_MODE_BORDER:
      return i < 0 || i >= n ? -1 : i;
   default:
      return i < 0 ? 0 : i >= n ? n - 1 : i;
   }
}

#define W 8
#define H 6

/* The W x H RGBA results of most cases. */
static const struct grid texels4 = {.ch = 4, .w = W, .h = H};

/* tex2d_float4's results of RGBA8 texels px read as normalised floats. */
static void
expect_unorm8x4(const float got[H][W][4], const uint8_t px[H][W][4], const char *what)
{
   double want[H][W][4];
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         for (int c = 0; c < 4; c++)
            want[y][x][c] = px[y][x][c] / 255.0f;
   expect_floats(&texels4, &got[0][0][0], &want[0][0][0], (struct tol){.abs = 1e-6}, "%s", what);
}

static float src4[H][W][4];

static void
fill_src(void)
{
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         for (int c = 0; c < 4; c++)
            src4[y][x][c] = (float)(y * 100 + x * 10 + c) + 0.25f;
}

#define PITCH 512

static CUdeviceptr
pitched(const void *data, size_t row, unsigned h)
{
   CUdeviceptr p = 0;
   OK(cuMemAlloc(&p, (size_t)PITCH * h));
   OK(cuMemsetD8(p, 0xa5, (size_t)PITCH * h));
   CUDA_MEMCPY2D c = {0};
   c.srcMemoryType = CU_MEMORYTYPE_HOST;
   c.srcHost = data;
   c.srcPitch = row;
   c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
   c.dstDevice = p;
   c.dstPitch = PITCH;
   c.WidthInBytes = row;
   c.Height = h;
   OK(cuMemcpy2D(&c));
   return p;
}

static CUtexObject
texture_pitch2d(CUdeviceptr p, unsigned w, unsigned h, CUarray_format f, unsigned ch, CUaddress_mode mode,
                CUfilter_mode filter, unsigned flags, const float border[4])
{
   CUDA_RESOURCE_DESC rd = {0};
   rd.resType = CU_RESOURCE_TYPE_PITCH2D;
   rd.res.pitch2D.devPtr = p;
   rd.res.pitch2D.format = f;
   rd.res.pitch2D.numChannels = ch;
   rd.res.pitch2D.width = w;
   rd.res.pitch2D.height = h;
   rd.res.pitch2D.pitchInBytes = PITCH;
   CUDA_TEXTURE_DESC td = {0};
   td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
   td.filterMode = filter;
   td.flags = flags;
   if (border)
      memcpy(td.borderColor, border, sizeof(td.borderColor));
   CUtexObject t = 0;
   OK(cuTexObjectCreate(&t, &rd, &td, NULL));
   return t;
}

/* W x H texels of format f, ch channels, in an array or in pitched
 * memory: the cases that sample both alike. */
struct texels {
   CUarray array;
   CUdeviceptr pitched;
   CUarray_format f;
   unsigned ch;
};

/* The texels of data (rows of W texels of elem bytes) in pitched memory
 * where pitch, else in an array. */
static struct texels
texels_make(bool pitch, CUarray_format f, unsigned ch, const void *data, size_t elem)
{
   struct texels s = {.f = f, .ch = ch};
   if (pitch)
      s.pitched = pitched(data, W * elem, H);
   else
      s.array = array2d(W, H, f, ch, 0, data, elem);
   return s;
}

/* A point-sampling texture of s, clamping, with flags. */
static CUtexObject
texels_texture(const struct texels *s, unsigned flags)
{
   if (s->pitched)
      return texture_pitch2d(s->pitched, W, H, s->f, s->ch, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, flags,
                             NULL);
   return texture(s->array, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, flags);
}

static void
texels_free(struct texels *s)
{
   if (s->pitched)
      OK(cuMemFree(s->pitched));
   if (s->array)
      OK(cuArrayDestroy(s->array));
   *s = (struct texels){0};
}

/* What kernel name (tex2d_uchar4, tex2d_int: arguments t, out, w, h)
 * reads from each of the W x H texels of t: size bytes. */
static void
sample_raw(const char *name, CUtexObject t, void *got, size_t size)
{
   int w = W, h = H;
   CUdeviceptr out;
   OK(cuMemAlloc(&out, size));
   void *args[] = {&t, &out, &w, &h};
   launch(kernel(name), W, H, 1, args);
   OK(cuMemcpyDtoH(got, out, size));
   OK(cuMemFree(out));
}

/* What tex2d_float4 reads at the centre of each of the W x H texels of
 * t. */
static void
sample_float4(CUtexObject t, float got[H][W][4])
{
   int w = W, h = H;
   float scale = 1, shift = 0.5f;
   CUdeviceptr out;
   OK(cuMemAlloc(&out, sizeof(float) * 4 * W * H));
   void *args[] = {&t, &out, &w, &h, &scale, &shift};
   launch(kernel("tex2d_float4"), W, H, 1, args);
   OK(cuMemcpyDtoH(got, out, sizeof(float) * 4 * W * H));
   OK(cuMemFree(out));
}

/* 8-bit RGBA texels as integers and as normalised floats, and 32-bit
 * signed integers, point-sampled from an array or, where pitch, pitched
 * memory. */
static void
read_modes(bool pitch)
{
   uint8_t px[H][W][4];
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         for (int c = 0; c < 4; c++)
            px[y][x][c] = (uint8_t)(y * 40 + x * 7 + c * 50);
   struct texels s = texels_make(pitch, CU_AD_FORMAT_UNSIGNED_INT8, 4, px, 4);
   CUtexObject t = texels_texture(&s, CU_TRSF_READ_AS_INTEGER);
   uint8_t got8[H][W][4];
   sample_raw("tex2d_uchar4", t, got8, sizeof(got8));
   CHECK(memcmp(got8, px, sizeof(px)) == 0);
   OK(cuTexObjectDestroy(t));

   t = texels_texture(&s, 0);
   float gotf[H][W][4];
   sample_float4(t, gotf);
   expect_unorm8x4(gotf, px, "normalised");
   OK(cuTexObjectDestroy(t));
   texels_free(&s);

   int32_t ints[H][W];
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         ints[y][x] = (y - 3) * 1000003 + x * -7;
   s = texels_make(pitch, CU_AD_FORMAT_SIGNED_INT32, 1, ints, 4);
   t = texels_texture(&s, 0);
   int32_t goti[H][W];
   sample_raw("tex2d_int", t, goti, sizeof(goti));
   CHECK(memcmp(goti, ints, sizeof(ints)) == 0);
   OK(cuTexObjectDestroy(t));
   texels_free(&s);
}

/* The W x H RGBA float texels of src4 as an array or as pitched memory,
 * sampled with each texture description. */
static struct texels src_texels;

/* Pitched memory's border colour (the array's is transparent black;
 * .border_colours gives arrays others). */
static const float pitch_border[4] = {100.0f, 101.0f, 102.0f, 103.0f};

static CUtexObject
src_texture(CUaddress_mode mode, CUfilter_mode filter, unsigned flags)
{
   if (src_texels.pitched)
      return texture_pitch2d(src_texels.pitched, W, H, CU_AD_FORMAT_FLOAT, 4, mode, filter, flags, pitch_border);
   return texture(src_texels.array, mode, filter, flags);
}

static float
src_texel(int x, int y, int c, CUaddress_mode mode)
{
   int ix = address(x, W, mode), iy = address(y, H, mode);
   if (ix < 0 || iy < 0)
      return src_texels.pitched ? pitch_border[c] : 0.0f;
   return src4[iy][ix][c];
}

static void
src_make(bool pitch)
{
   fill_src();
   src_texels = texels_make(pitch, CU_AD_FORMAT_FLOAT, 4, src4, 16);
}

/* The sweep of point_modes and pitch2d_linear: tex2d_float4 over the
 * source texture (pitched where pitch) with filter, 3W x 3H results, for
 * each address mode with normalised coordinates (wrap, clamp, mirror,
 * border) and unnormalised ones (clamp, border).  The kernel samples at
 * (x * scale + shift, y * scale + shift) for result (x, y), scale and
 * shift being the texel coordinates given divided by W where normalised;
 * reference fills in what each result should be, checked within tol. */
typedef void reference_fn(CUaddress_mode mode, bool normalized, float scale, float shift, double *want);

static void
sweep_modes(bool pitch, CUfilter_mode filter, float texel_scale, float texel_shift, struct tol tol,
            reference_fn *reference)
{
   src_make(pitch);
   CUfunction f = kernel("tex2d_float4");
   const struct grid g = {.ch = 4, .w = 3 * W, .h = 3 * H};
   float *out_h = malloc(sizeof(float) * grid_size(&g));
   double *want = malloc(sizeof(double) * grid_size(&g));
   CUdeviceptr out;
   OK(cuMemAlloc(&out, sizeof(float) * grid_size(&g)));
   CUaddress_mode modes[] = {CU_TR_ADDRESS_MODE_WRAP, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_ADDRESS_MODE_MIRROR,
                             CU_TR_ADDRESS_MODE_BORDER};
   for (unsigned m = 0; m < 4; m++) {
      for (int normalized = 1; normalized >= 0; normalized--) {
         if (!normalized && m != 1 && m != 3)
            continue;
         CUtexObject t = src_texture(modes[m], filter, normalized ? CU_TRSF_NORMALIZED_COORDINATES : 0);
         int w = g.w, h = g.h;
         /* y uses the same scale: the grid is square in texels only when
          * normalised per axis, so y is checked through its own axis. */
         float scale = normalized ? texel_scale / W : texel_scale;
         float shift = normalized ? texel_shift / W : texel_shift;
         void *args[] = {&t, &out, &w, &h, &scale, &shift};
         launch(f, g.w, g.h, 1, args);
         OK(cuMemcpyDtoH(out_h, out, sizeof(float) * grid_size(&g)));
         /* Unnormalised coordinates have clamp or border only. */
         CUaddress_mode am = normalized || modes[m] == CU_TR_ADDRESS_MODE_BORDER ? modes[m]
                                                                                : CU_TR_ADDRESS_MODE_CLAMP;
         reference(am, normalized, scale, shift, want);
         expect_floats(&g, out_h, want, tol, "mode %u normalized %d", m, normalized);
         OK(cuTexObjectDestroy(t));
      }
   }
   OK(cuMemFree(out));
   free(out_h);
   free(want);
   texels_free(&src_texels);
}

/* Point filtering: the texel the coordinate is in. */
static void
point_reference(CUaddress_mode mode, bool normalized, float scale, float shift, double *want)
{
   for (int y = 0; y < 3 * H; y++) {
      for (int x = 0; x < 3 * W; x++) {
         /* The kernel uses x * scale + shift for both axes. */
         float u = x * scale + shift, v = y * scale + shift;
         int tx = (int)floorf(normalized ? u * W : u), ty = (int)floorf(normalized ? v * H : v);
         for (int c = 0; c < 4; c++)
            want[(y * 3 * W + x) * 4 + c] = src_texel(tx, ty, c, mode);
      }
   }
}

/* tex2D<float4> over every address mode, point filtering, normalised
 * coordinates reaching outside [0, 1) on both sides; and unnormalised
 * ones with clamp.  Result (x, y) samples texel (x - W) + 0.5 (the
 * centre of texel x - W), so x covers -W .. 2W - 1. */
static void
point_modes(bool pitch)
{
   sweep_modes(pitch, CU_TR_FILTER_MODE_POINT, 1.0f, -W + 0.5f, EXACT, point_reference);
}

static void
case_point_modes(void)
{
   point_modes(false);
}

/* Bilinear filtering at fractional positions, unnormalised, clamp:
 * compared within CUDA's precision. */
static void
case_linear(void)
{
   fill_src();
   CUarray a = array2d(W, H, CU_AD_FORMAT_FLOAT, 4, 0, src4, 16);
   CUfunction f = kernel("tex2d_float4");
   CUtexObject t = texture(a, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, 0);
   int w = W, h = H;
   float scale = 0.75f, shift = 0.8f;
   CUdeviceptr out;
   float out_h[H][W][4];
   OK(cuMemAlloc(&out, sizeof(out_h)));
   void *args[] = {&t, &out, &w, &h, &scale, &shift};
   launch(f, W, H, 1, args);
   OK(cuMemcpyDtoH(out_h, out, sizeof(out_h)));
   double want[H][W][4], tol[H][W][4];
   for (int y = 0; y < H; y++) {
      for (int x = 0; x < W; x++) {
         float u = x * scale + shift - 0.5f, v = y * scale + shift - 0.5f;
         int i = (int)floorf(u), j = (int)floorf(v);
         float a_ = u - i, b_ = v - j;
         for (int c = 0; c < 4; c++) {
            float t00 = src_texel(i, j, c, CU_TR_ADDRESS_MODE_CLAMP);
            float t10 = src_texel(i + 1, j, c, CU_TR_ADDRESS_MODE_CLAMP);
            float t01 = src_texel(i, j + 1, c, CU_TR_ADDRESS_MODE_CLAMP);
            float t11 = src_texel(i + 1, j + 1, c, CU_TR_ADDRESS_MODE_CLAMP);
            want[y][x][c] = (1 - a_) * (1 - b_) * t00 + a_ * (1 - b_) * t10 + (1 - a_) * b_ * t01 + a_ * b_ * t11;
            /* 8 bits of fraction in each weight: an error of up to a
             * 256th of the spread along each axis, plus rounding. */
            float spread = fabsf(t10 - t00) + fabsf(t01 - t00) + fabsf(t11 - t01) + fabsf(t11 - t10);
            tol[y][x][c] = spread / 256.0f + 1e-3f;
         }
      }
   }
   expect_floats(&texels4, &out_h[0][0][0], &want[0][0][0], (struct tol){.each = &tol[0][0][0]}, "linear");
   OK(cuTexObjectDestroy(t));
   OK(cuMemFree(out));
   OK(cuArrayDestroy(a));
}

/* read_modes over arrays; 8- and 16-bit integers of one and two
 * channels as normalised floats; a float2 array's missing channels. */
static void
case_read_modes(void)
{
   read_modes(false);
   CUarray a;
   CUtexObject t;
   float gotf[H][W][4];
   double want[H][W][4];

   /* One- and two-byte texels as normalised floats, CUDA's default read
    * mode: the texture views the array's R8_UINT or R16_SINT image as
    * R8_UNORM or R16_SNORM, which the image must allow. */
   uint8_t gray[H][W];
   int16_t s16[H][W];
   for (int y = 0; y < H; y++) {
      for (int x = 0; x < W; x++) {
         gray[y][x] = (uint8_t)(y * 31 + x * 17);
         s16[y][x] = (int16_t)((y - H / 2) * 9001 + x * 1234);
      }
   }
   s16[0][0] = INT16_MIN; /* -32768 reads -1, as -32767 does */
   for (int pass = 0; pass < 2; pass++) {
      a = pass == 0 ? array2d(W, H, CU_AD_FORMAT_UNSIGNED_INT8, 1, 0, gray, 1)
                    : array2d(W, H, CU_AD_FORMAT_SIGNED_INT16, 1, 0, s16, 2);
      t = texture(a, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
      sample_float4(t, gotf);
      for (int y = 0; y < H; y++) {
         for (int x = 0; x < W; x++) {
            float red = pass == 0 ? gray[y][x] / 255.0f : fmaxf(s16[y][x] / 32767.0f, -1.0f);
            for (int c = 0; c < 4; c++)
               want[y][x][c] = c == 0 ? red : 0.0f;
         }
      }
      expect_floats(&texels4, &gotf[0][0][0], &want[0][0][0], (struct tol){.abs = 1e-6}, "%s",
                    pass == 0 ? "uchar" : "short");
      OK(cuTexObjectDestroy(t));
      OK(cuArrayDestroy(a));
   }

   /* 1- and 2-byte texels read as normalised floats (a UNORM or SNORM
    * view of the array's integer image): u8 x1, s8 x2, s16 x1.  Missing
    * channels read 0. */
   {
      static const struct {
         CUarray_format f;
         unsigned ch, bytes;
         bool is_signed;
      } narrow[] = {
         {CU_AD_FORMAT_UNSIGNED_INT8, 1, 1, false},
         {CU_AD_FORMAT_SIGNED_INT8, 2, 1, true},
         {CU_AD_FORMAT_SIGNED_INT16, 1, 2, true},
      };
      for (unsigned k = 0; k < sizeof(narrow) / sizeof(narrow[0]); k++) {
         unsigned ch = narrow[k].ch, bytes = narrow[k].bytes;
         uint8_t raw[H][W][4];
         for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
               for (unsigned b = 0; b < ch * bytes; b++)
                  raw[y][x][b] = (uint8_t)(y * 37 + x * 11 + b * 101 + k);
         /* Packed rows of the array's texels. */
         uint8_t packed[H * W * 4];
         for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
               memcpy(&packed[(y * W + x) * ch * bytes], raw[y][x], ch * bytes);
         a = array2d(W, H, narrow[k].f, ch, 0, packed, ch * bytes);
         t = texture(a, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
         sample_float4(t, gotf);
         for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
               for (unsigned c = 0; c < 4; c++) {
                  float v = 0.0f;
                  if (c < ch) {
                     const uint8_t *b = &raw[y][x][c * bytes];
                     if (bytes == 1)
                        v = narrow[k].is_signed ? fmaxf((int8_t)b[0] / 127.0f, -1.0f) : b[0] / 255.0f;
                     else
                        v = fmaxf((int16_t)(b[0] | b[1] << 8) / 32767.0f, -1.0f);
                  }
                  want[y][x][c] = v;
               }
            }
         }
         expect_floats(&texels4, &gotf[0][0][0], &want[0][0][0], (struct tol){.abs = 1e-6}, "format 0x%x x%u",
                       narrow[k].f, ch);
         OK(cuTexObjectDestroy(t));
         OK(cuArrayDestroy(a));
      }
   }

   /* Channels a format lacks read 0, alpha too (CUDA on an H100). */
   float two[H][W][2];
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         for (int c = 0; c < 2; c++)
            two[y][x][c] = (float)(y * 10 + x) + 0.5f * (float)c;
   a = array2d(W, H, CU_AD_FORMAT_FLOAT, 2, 0, two, 8);
   t = texture(a, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
   sample_float4(t, gotf);
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         for (int c = 0; c < 4; c++)
            want[y][x][c] = c < 2 ? two[y][x][c] : 0.0f;
   expect_floats(&texels4, &gotf[0][0][0], &want[0][0][0], EXACT, "float2");
   OK(cuTexObjectDestroy(t));
   OK(cuArrayDestroy(a));
}

/* Handles loaded from a device array, different across the lanes of a
 * subgroup: the uniform-index loop. */
static void
case_handles_in_memory(void)
{
   enum { N = 3, WIDTH = 16 };
   float rows[N][WIDTH];
   CUarray a[N];
   CUtexObject t[N];
   for (int i = 0; i < N; i++) {
      for (int x = 0; x < WIDTH; x++)
         rows[i][x] = (float)(i * 1000 + x);
      a[i] = array2d(WIDTH, 1, CU_AD_FORMAT_FLOAT, 1, 0, rows[i], 4);
      t[i] = texture(a[i], CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
   }
   CUdeviceptr handles, out;
   OK(cuMemAlloc(&handles, sizeof(t)));
   OK(cuMemcpyHtoD(handles, t, sizeof(t)));
   OK(cuMemAlloc(&out, 64 * sizeof(float)));
   int count = N, w = WIDTH;
   void *args[] = {&handles, &count, &out, &w};
   OK(cuLaunchKernel(kernel("tex2d_many"), 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL));
   OK(cuCtxSynchronize());
   float got[64];
   OK(cuMemcpyDtoH(got, out, sizeof(got)));
   for (int x = 0; x < 64; x++)
      CHECK(got[x] == rows[x % N][x % WIDTH]);
   for (int i = 0; i < N; i++) {
      OK(cuTexObjectDestroy(t[i]));
      OK(cuArrayDestroy(a[i]));
   }
   OK(cuMemFree(handles));
   OK(cuMemFree(out));
}

/* tex2DLod on a mipmapped array whose levels hold different values. */
static void
case_mip_level(void)
{
   CUmipmappedArray m = mipmap5();
   CUDA_RESOURCE_DESC rd = mipmap_res(m);
   CUtexObject t = point_texture(&rd, CU_TRSF_NORMALIZED_COORDINATES, 4, NULL);
   CUdeviceptr out;
   OK(cuMemAlloc(&out, sizeof(float) * 4 * 4 * 4));
   /* tex2DLod with the level, then tex2DGrad with gradients of 2^l
    * texels of level 0 (LOD l). */
   for (unsigned l = 0; l < 10; l++) {
      int w = 4, h = 4;
      float level = (float)(l % 5);
      if (l >= 5)
         level = ldexpf(1.0f, (int)(l - 5)) / 16.0f;
      void *args[] = {&t, &out, &w, &h, &level};
      launch(kernel(l < 5 ? "tex2d_lod" : "tex2d_grad"), 4, 4, 1, args);
      float got[4 * 4 * 4];
      double want[4 * 4 * 4];
      OK(cuMemcpyDtoH(got, out, sizeof(got)));
      for (unsigned i = 0; i < 64; i++)
         want[i] = (float)(l % 5 * 10 + i % 4);
      expect_floats(&(struct grid){.ch = 4, .w = 4, .h = 4}, got, want, EXACT, "level %u", l);
   }
   OK(cuTexObjectDestroy(t));
   OK(cuMemFree(out));
   OK(cuMipmappedArrayDestroy(m));
}

/* Surfaces: RGBA8 texels through uchar4, floats with clamp and zero
 * boundary modes from handles in device memory, float4 in place; and the
 * extents txq and suq report. */
static void
case_surfaces(void)
{
   uint8_t px[H][W][4], got[H][W][4];
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         for (int c = 0; c < 4; c++)
            px[y][x][c] = (uint8_t)(y * 31 + x * 5 + c * 60);
   CUarray src = array2d(W, H, CU_AD_FORMAT_UNSIGNED_INT8, 4, CUDA_ARRAY3D_SURFACE_LDST, px, 4);
   CUarray dst = array2d(W, H, CU_AD_FORMAT_UNSIGNED_INT8, 4, CUDA_ARRAY3D_SURFACE_LDST, px, 4);
   CUsurfObject s_src = surface(src), s_dst = surface(dst);
   int w = W, h = H;
   void *args[] = {&s_src, &s_dst, &w, &h};
   launch(kernel("surf2d_copy"), W, H, 1, args);
   copy_array(dst, NULL, got, W * 4, H, 0);
   uint32_t want[H][W][4];
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         for (int k = 0; k < 4; k++)
            want[y][x][k] = k == 0 ? 255 - px[y][x][k] : px[y][x][k];
   expect_uints(&texels4, got, 1, &want[0][0][0], "surface copy");

   /* txq/suq: the texture's and the surface's extents. */
   CUtexObject t = texture(src, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER);
   CUdeviceptr q;
   OK(cuMemAlloc(&q, 16));
   void *qargs[] = {&t, &s_dst, &q};
   launch(kernel("tex_query"), 1, 1, 1, qargs);
   unsigned dims[4];
   OK(cuMemcpyDtoH(dims, q, sizeof(dims)));
   CHECK(dims[0] == W && dims[1] == H && dims[2] == W && dims[3] == H);
   OK(cuMemFree(q));
   OK(cuTexObjectDestroy(t));
   OK(cuSurfObjectDestroy(s_src));
   OK(cuSurfObjectDestroy(s_dst));
   OK(cuArrayDestroy(src));
   OK(cuArrayDestroy(dst));

   /* Floats shifted by dx texels: clamp repeats the edge, zero reads 0
    * and drops the write. */
   float fs[H][W], fd[H][W];
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         fs[y][x] = (float)(y * W + x + 1);
   memset(fd, 0, sizeof(fd));
   CUarray fa = array2d(W, H, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SURFACE_LDST, fs, 4);
   CUarray fb = array2d(W, H, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SURFACE_LDST, fd, 4);
   CUsurfObject sv[2] = {surface(fa), surface(fb)};
   CUdeviceptr handles, out;
   OK(cuMemAlloc(&handles, sizeof(sv)));
   OK(cuMemcpyHtoD(handles, sv, sizeof(sv)));
   OK(cuMemAlloc(&out, sizeof(float) * W * H));
   int dx = 3;
   void *margs[] = {&handles, &out, &w, &h, &dx};
   launch(kernel("surf2d_modes"), W, H, 1, margs);
   float res[H][W], written[H][W];
   OK(cuMemcpyDtoH(res, out, sizeof(res)));
   copy_array(fb, NULL, written, W * 4, H, 0);
   double want_res[H][W], want_written[H][W];
   for (int y = 0; y < H; y++) {
      for (int x = 0; x < W; x++) {
         int sx = x + dx;
         float clamped = fs[y][sx < W ? sx : W - 1];
         float zero = sx < W ? fs[y][sx] : 0.0f;
         want_res[y][x] = clamped + 1000.0f * zero;
         /* Written at x + dx where inside: the clamped read of x; the
          * first dx texels are left as they were, 0. */
         if (sx < W)
            want_written[y][sx] = clamped;
         if (x < dx)
            want_written[y][x] = 0.0f;
      }
   }
   const struct grid g1 = {.ch = 1, .w = W, .h = H};
   expect_floats(&g1, &res[0][0], &want_res[0][0], EXACT, "modes");
   expect_floats(&g1, &written[0][0], &want_written[0][0], EXACT, "written");
   OK(cuSurfObjectDestroy(sv[0]));
   OK(cuSurfObjectDestroy(sv[1]));
   OK(cuArrayDestroy(fa));
   OK(cuArrayDestroy(fb));
   OK(cuMemFree(handles));
   OK(cuMemFree(out));
}

/* ---- linear and pitched memory (the kernel reads them itself) ---- */

static void
case_pitch2d_point_modes(void)
{
   point_modes(true);
}

/* One kernel sampling arrays and pitched memory in turn: its pipeline is
 * specialised without the memory path while no texture over memory is
 * alive (CUVK_KERNEL_SPEC_TEX_MEMORY), and must get the path once one is,
 * and sample arrays right with it too. */
static void
case_specialised(void)
{
   point_modes(false);
   point_modes(true);
   point_modes(false);
   /* An array sampled while a texture over memory is alive. */
   float zeros[4 * W * H] = {0};
   CUdeviceptr p = pitched(zeros, sizeof(float) * 4 * W, H);
   CUtexObject other = texture_pitch2d(p, W, H, CU_AD_FORMAT_FLOAT, 4, CU_TR_ADDRESS_MODE_CLAMP,
                                       CU_TR_FILTER_MODE_POINT, 0, NULL);
   point_modes(false);
   OK(cuTexObjectDestroy(other));
   OK(cuMemFree(p));
}

/* One kernel sampling with float texel coordinates, first textures whose
 * samplers take them as they are (single-level arrays), then one whose
 * coordinates the kernel scales (a mipmapped array without normalised
 * coordinates): the pipeline made while no such texture was alive leaves
 * the scaling out (CUVK_KERNEL_SPEC_TEX_SCALE), and must be made again. */
static void
case_specialised_scale(void)
{
   point_modes(false);
   fill_src();
   CUDA_ARRAY3D_DESCRIPTOR d = {W, H, 0, CU_AD_FORMAT_FLOAT, 4, 0};
   CUmipmappedArray m;
   OK(cuMipmappedArrayCreate(&m, &d, 2));
   CUarray level;
   OK(cuMipmappedArrayGetLevel(&level, m, 0));
   CUDA_MEMCPY2D c = {0};
   c.srcMemoryType = CU_MEMORYTYPE_HOST;
   c.srcHost = src4;
   c.srcPitch = sizeof(src4[0]);
   c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
   c.dstArray = level;
   c.WidthInBytes = sizeof(src4[0]);
   c.Height = H;
   OK(cuMemcpy2D(&c));
   CUDA_RESOURCE_DESC rd = {0};
   rd.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
   rd.res.mipmap.hMipmappedArray = m;
   CUDA_TEXTURE_DESC td = {0};
   td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
   td.filterMode = CU_TR_FILTER_MODE_POINT;
   td.mipmapFilterMode = CU_TR_FILTER_MODE_POINT;
   td.maxMipmapLevelClamp = 1;
   CUtexObject t;
   OK(cuTexObjectCreate(&t, &rd, &td, NULL));

   const int OW = 3 * W, OH = 3 * H;
   float *got = malloc(sizeof(float) * 4 * OW * OH);
   CUdeviceptr out;
   OK(cuMemAlloc(&out, sizeof(float) * 4 * OW * OH));
   int w = OW, h = OH;
   float scale = 1.0f, shift = -W + 0.5f;
   void *args[] = {&t, &out, &w, &h, &scale, &shift};
   launch(kernel("tex2d_float4"), OW, OH, 1, args);
   OK(cuMemcpyDtoH(got, out, sizeof(float) * 4 * OW * OH));
   unsigned bad = 0;
   for (int y = 0; y < OH; y++) {
      for (int x = 0; x < OW; x++) {
         int tx = address(x - W, W, CU_TR_ADDRESS_MODE_CLAMP), ty = address(y - W, H, CU_TR_ADDRESS_MODE_CLAMP);
         for (int k = 0; k < 4; k++) {
            float want = src4[ty][tx][k];
            if (got[(y * OW + x) * 4 + k] != want && bad++ < 5)
               fprintf(stderr, "scaled texel coordinates: (%d, %d).%d = %g, expected %g\n", x, y, k,
                       got[(y * OW + x) * 4 + k], want);
         }
      }
   }
   CHECK(bad == 0);
   free(got);
   OK(cuMemFree(out));
   OK(cuTexObjectDestroy(t));
   OK(cuMipmappedArrayDestroy(m));
}

/* What CUDA takes though its documentation forbids it (measured on an
 * H100, tests/texture/codes_cuda_h100.txt), sampled as cuvk defines:
 * linear filtering of integers read as integers samples the nearest
 * texel, over an array and over pitched memory; an empty texture over
 * linear memory reads 0 everywhere. */
static void
case_cuda_takes(void)
{
   int32_t ints[H][W];
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         ints[y][x] = y * 1000 + x * 17 - 40;
   int w = W, h = H;
   float shift = 0.9f;
   CUdeviceptr out;
   OK(cuMemAlloc(&out, sizeof(int32_t) * W * H));
   int32_t got[H][W];
   CUarray a = array2d(W, H, CU_AD_FORMAT_SIGNED_INT32, 1, 0, ints, 4);
   CUdeviceptr p = pitched(ints, sizeof(ints[0]), H);
   for (int pass = 0; pass < 2; pass++) {
      CUtexObject t = pass ? texture_pitch2d(p, W, H, CU_AD_FORMAT_SIGNED_INT32, 1, CU_TR_ADDRESS_MODE_CLAMP,
                                             CU_TR_FILTER_MODE_LINEAR, 0, NULL)
                           : texture(a, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, 0);
      void *args[] = {&t, &out, &w, &h, &shift};
      launch(kernel("tex2d_int_shift"), W, H, 1, args);
      OK(cuMemcpyDtoH(got, out, sizeof(got)));
      /* Texel coordinate x + 0.9 is in texel x: the nearest texel's value. */
      CHECK(memcmp(got, ints, sizeof(ints)) == 0);
      OK(cuTexObjectDestroy(t));
   }
   OK(cuArrayDestroy(a));
   OK(cuMemFree(p));

   CUdeviceptr lin;
   OK(cuMemAlloc(&lin, 4096));
   CUDA_RESOURCE_DESC rd = {0};
   rd.resType = CU_RESOURCE_TYPE_LINEAR;
   rd.res.linear.devPtr = lin;
   rd.res.linear.format = CU_AD_FORMAT_SIGNED_INT32;
   rd.res.linear.numChannels = 4;
   rd.res.linear.sizeInBytes = 0;
   CUDA_TEXTURE_DESC td = {0};
   CUtexObject t = 0;
   OK(cuTexObjectCreate(&t, &rd, &td, NULL));
   int n = 32, off = -4;
   CUdeviceptr out4;
   OK(cuMemAlloc(&out4, 16 * 32));
   OK(cuMemsetD8(out4, 0x5a, 16 * 32));
   void *fargs[] = {&t, &out4, &n, &off};
   launch(kernel("fetch_i4"), 32, 1, 32, fargs);
   int32_t got4[32][4], zeros[32][4] = {{0}};
   OK(cuMemcpyDtoH(got4, out4, sizeof(got4)));
   CHECK(memcmp(got4, zeros, sizeof(zeros)) == 0);
   OK(cuTexObjectDestroy(t));
   OK(cuMemFree(out4));
   OK(cuMemFree(lin));
   OK(cuMemFree(out));
}

/* CUDA's weight: the fraction in 8 bits, rounded to nearest (measured on
 * an H100, docs/textures.md). */
static float
weight(float frac)
{
   return floorf(frac * 256.0f + 0.5f) / 256.0f;
}

/* CUDA's bilinear filtering with quantised weights. */
static void
linear_reference(CUaddress_mode mode, bool normalized, float scale, float shift, double *want)
{
   for (int y = 0; y < 3 * H; y++) {
      for (int x = 0; x < 3 * W; x++) {
         /* As the kernel computes them (nvcc contracts into an fma). */
         float u = fmaf((float)x, scale, shift), v = fmaf((float)y, scale, shift);
         if (normalized) {
            u *= W;
            v *= H;
         }
         u -= 0.5f;
         v -= 0.5f;
         float fu = floorf(u), fv = floorf(v);
         float a = weight(u - fu), b = weight(v - fv);
         int i = (int)fu, j = (int)fv;
         for (int c = 0; c < 4; c++) {
            float t00 = src_texel(i, j, c, mode), t10 = src_texel(i + 1, j, c, mode);
            float t01 = src_texel(i, j + 1, c, mode), t11 = src_texel(i + 1, j + 1, c, mode);
            want[(y * 3 * W + x) * 4 + c] =
               (1 - a) * (1 - b) * t00 + a * (1 - b) * t10 + (1 - a) * b * t01 + a * b * t11;
         }
      }
   }
}

/* Bilinear filtering of pitched memory with each address mode,
 * normalised (wrap, mirror, border, clamp) and not (clamp, border), at
 * positions off the 1/256 grid (texel steps of 0.61 from -W - 0.3: every
 * fraction, both sides of the texture), against CUDA's formula with
 * quantised weights. */
static void
case_pitch2d_linear(void)
{
   sweep_modes(true, CU_TR_FILTER_MODE_LINEAR, 0.61f, -W - 0.3f, (struct tol){.abs = 1e-5, .rel = 1e-5},
               linear_reference);
}

static void
case_pitch2d_read_modes(void)
{
   read_modes(true);
}

static float
half_to_float(uint16_t h)
{
   int e = h >> 10 & 0x1f, m = h & 0x3ff;
   float v = e == 0 ? ldexpf((float)m, -24) : ldexpf((float)(m | 0x400), e - 25);
   return h & 0x8000 ? -v : v;
}

/* tex1Dfetch over linear memory of each classic format, channel count
 * and read mode, 8 indices past each end (0 there), channels the format
 * lacks 0 (as CUDA measured on an H100: alpha too). */
static void
case_fetch_linear(void)
{
   enum { N = 100, OUTSIDE = 8, THREADS = N + 2 * OUTSIDE };
   static const struct {
      CUarray_format fmt;
      unsigned ch, flags;
      char result;   /* 'f' float4, 'i' int4, 'u' uint4 */
   } forms[] = {
      {CU_AD_FORMAT_FLOAT, 1, 0, 'f'},
      {CU_AD_FORMAT_FLOAT, 2, 0, 'f'},
      {CU_AD_FORMAT_FLOAT, 4, 0, 'f'},
      {CU_AD_FORMAT_HALF, 4, 0, 'f'},
      {CU_AD_FORMAT_HALF, 1, 0, 'f'},
      {CU_AD_FORMAT_UNSIGNED_INT8, 4, 0, 'f'},
      {CU_AD_FORMAT_UNSIGNED_INT8, 4, CU_TRSF_READ_AS_INTEGER, 'u'},
      {CU_AD_FORMAT_SIGNED_INT8, 2, 0, 'f'},
      {CU_AD_FORMAT_SIGNED_INT8, 1, CU_TRSF_READ_AS_INTEGER, 'i'},
      {CU_AD_FORMAT_UNSIGNED_INT16, 1, 0, 'f'},
      {CU_AD_FORMAT_UNSIGNED_INT16, 2, CU_TRSF_READ_AS_INTEGER, 'u'},
      {CU_AD_FORMAT_SIGNED_INT16, 4, 0, 'f'},
      {CU_AD_FORMAT_SIGNED_INT16, 4, CU_TRSF_READ_AS_INTEGER, 'i'},
      {CU_AD_FORMAT_UNSIGNED_INT32, 2, 0, 'u'},
      {CU_AD_FORMAT_SIGNED_INT32, 1, 0, 'i'},
      {CU_AD_FORMAT_SIGNED_INT32, 4, 0, 'i'},
   };
   uint8_t bytes[N * 16];
   uint32_t seed = 12345;
   for (size_t i = 0; i < sizeof(bytes); i++) {
      seed = seed * 1103515245u + 12345u;
      bytes[i] = (uint8_t)(seed >> 16);
   }
   CUdeviceptr data, out;
   OK(cuMemAlloc(&data, sizeof(bytes)));
   OK(cuMemAlloc(&out, THREADS * 16));
   for (size_t k = 0; k < sizeof(forms) / sizeof(forms[0]); k++) {
      CUarray_format fmt = forms[k].fmt;
      unsigned ch = forms[k].ch;
      unsigned esize = fmt == CU_AD_FORMAT_UNSIGNED_INT8 || fmt == CU_AD_FORMAT_SIGNED_INT8       ? 1
                       : fmt == CU_AD_FORMAT_UNSIGNED_INT16 || fmt == CU_AD_FORMAT_SIGNED_INT16 ||
                               fmt == CU_AD_FORMAT_HALF                                             ? 2
                                                                                                    : 4;
      /* Floats and halves that are numbers: their exponents kept off
       * all-ones. */
      uint8_t tex[N * 16];
      memcpy(tex, bytes, sizeof(tex));
      for (unsigned i = 0; i < N * ch; i++) {
         if (fmt == CU_AD_FORMAT_FLOAT)
            tex[4 * i + 3] &= 0xbf;
         if (fmt == CU_AD_FORMAT_HALF)
            tex[2 * i + 1] &= 0xbf;
      }
      OK(cuMemcpyHtoD(data, tex, N * ch * esize));
      CUDA_RESOURCE_DESC rd = {0};
      rd.resType = CU_RESOURCE_TYPE_LINEAR;
      rd.res.linear.devPtr = data;
      rd.res.linear.format = fmt;
      rd.res.linear.numChannels = ch;
      rd.res.linear.sizeInBytes = N * ch * esize;
      CUDA_TEXTURE_DESC td = {0};
      td.flags = forms[k].flags;
      CUtexObject t;
      OK(cuTexObjectCreate(&t, &rd, &td, NULL));
      int n = THREADS, shift = -OUTSIDE;
      void *args[] = {&t, &out, &n, &shift};
      const char *name = forms[k].result == 'f' ? "fetch_f4" : forms[k].result == 'i' ? "fetch_i4" : "fetch_u4";
      launch(kernel(name), 1, 1, THREADS, args);
      uint32_t got[THREADS][4], want_bits[THREADS][4];
      double want_floats[THREADS][4];
      OK(cuMemcpyDtoH(got, out, sizeof(got)));
      for (int x = 0; x < THREADS; x++) {
         int i = x - OUTSIDE;
         for (unsigned c = 0; c < 4; c++) {
            uint32_t want = 0;
            float wantf = 0.0f;
            if (i >= 0 && i < N && c < ch) {
               const uint8_t *b = tex + (i * ch + c) * esize;
               uint32_t u = b[0];
               if (esize >= 2)
                  u |= (uint32_t)b[1] << 8;
               if (esize == 4)
                  u |= (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
               int32_t s = esize == 1 ? (int8_t)u : esize == 2 ? (int16_t)u : (int32_t)u;
               switch (fmt) {
               case CU_AD_FORMAT_FLOAT:
                  memcpy(&wantf, &u, 4);
                  break;
               case CU_AD_FORMAT_HALF:
                  wantf = half_to_float((uint16_t)u);
                  break;
               case CU_AD_FORMAT_UNSIGNED_INT8:
               case CU_AD_FORMAT_UNSIGNED_INT16:
                  want = u;
                  wantf = (float)u / (esize == 1 ? 255.0f : 65535.0f);
                  break;
               case CU_AD_FORMAT_SIGNED_INT8:
               case CU_AD_FORMAT_SIGNED_INT16:
                  want = (uint32_t)s;
                  wantf = fmaxf((float)s / (esize == 1 ? 127.0f : 32767.0f), -1.0f);
                  break;
               default:
                  want = fmt == CU_AD_FORMAT_SIGNED_INT32 ? (uint32_t)s : u;
                  break;
               }
            }
            want_bits[x][c] = want;
            want_floats[x][c] = wantf;
         }
      }
      const struct grid g = {.ch = 4, .w = THREADS, .x0 = -OUTSIDE};
      if (forms[k].result == 'f') {
         float gotf[THREADS][4];
         memcpy(gotf, got, sizeof(gotf));
         expect_floats(&g, &gotf[0][0], &want_floats[0][0], (struct tol){.rel = 1e-6}, "format 0x%x x%u flags %u",
                       fmt, ch, forms[k].flags);
      } else {
         expect_uints(&g, got, 4, &want_bits[0][0], "format 0x%x x%u flags %u", fmt, ch, forms[k].flags);
      }
      OK(cuTexObjectDestroy(t));
   }
   OK(cuMemFree(data));
   OK(cuMemFree(out));
}

/* ---- CUDA 12's vector formats, 10-10-10-2 and sRGB over memory ---- */

/* sRGB to linear as Vulkan's _SRGB formats define it. */
static double
srgb_to_linear(double c)
{
   return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static bool
format_is_vector(CUarray_format f)
{
   return f >= CU_AD_FORMAT_UNORM_INT8X1 && f <= CU_AD_FORMAT_SNORM_INT16X4;
}

/* Bytes per texel of the formats these cases take. */
static unsigned
texel_bytes(CUarray_format f, unsigned ch)
{
   if (format_is_vector(f)) {
      unsigned k = f - CU_AD_FORMAT_UNORM_INT8X1;
      return (k / 3 % 2 ? 2 : 1) * ch;
   }
   if (f == CU_AD_FORMAT_UNORM_INT_101010_2)
      return 4;
   return (f == CU_AD_FORMAT_UNSIGNED_INT8 ? 1 : 2) * ch;   /* UNSIGNED_INT8, UNSIGNED_INT16 */
}

/* Channel c of the texel at t as a normalised-float read returns it, sRGB
 * converted where srgb (red, green and blue of 8-bit unsigned formats). */
static double
texel_float(CUarray_format f, unsigned ch, const uint8_t *t, unsigned c, bool srgb)
{
   if (c >= ch)
      return 0.0;
   if (f == CU_AD_FORMAT_UNORM_INT_101010_2) {
      uint32_t w = t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 | (uint32_t)t[3] << 24;
      return c < 3 ? (double)(w >> (10 * c) & 1023) / 1023.0 : (double)(w >> 30) / 3.0;
   }
   unsigned k = format_is_vector(f) ? f - CU_AD_FORMAT_UNORM_INT8X1 : f == CU_AD_FORMAT_UNSIGNED_INT8 ? 0 : 3;
   unsigned size = k / 3 % 2 ? 2 : 1;
   bool is_signed = k >= 6;
   uint32_t u = t[c * size];
   if (size == 2)
      u |= (uint32_t)t[c * size + 1] << 8;
   double v;
   if (is_signed) {
      int32_t s = size == 1 ? (int8_t)u : (int16_t)u;
      v = fmax((double)s / (size == 1 ? 127.0 : 32767.0), -1.0);
   } else {
      v = (double)u / (size == 1 ? 255.0 : 65535.0);
   }
   return srgb && c < 3 ? srgb_to_linear((float)v) : v;
}

static struct tol
close_to(bool srgb)
{
   /* Normalised values are one division, as exact as float (the
    * reference divides in double); sRGB takes pow, which drivers compute
    * approximately: lavapipe's stays within a few millionths. */
   return srgb ? (struct tol){.abs = 4e-6, .rel = 4e-6} : (struct tol){.rel = 1e-6};
}

/* tex1Dfetch over linear memory of every vector format (the channel
 * count implied by the format), 10-10-10-2, and 8-bit unsigned texels
 * with CU_TRSF_SRGB, against host decoding; the vectors read as
 * normalised floats even with CU_TRSF_READ_AS_INTEGER, sRGB converts
 * only normalised reads of 8-bit unsigned texels (an element read stays
 * the integers, signed and 16-bit formats are left alone). */
static void
case_fetch_linear_formats(void)
{
   enum { N = 256, OUTSIDE = 4, THREADS = N + 2 * OUTSIDE };
   static const struct {
      CUarray_format fmt;
      unsigned ch, flags;
   } forms[] = {
      {CU_AD_FORMAT_UNORM_INT8X1, 1, 0},
      {CU_AD_FORMAT_UNORM_INT8X2, 2, 0},
      {CU_AD_FORMAT_UNORM_INT8X4, 4, 0},
      {CU_AD_FORMAT_UNORM_INT16X1, 1, 0},
      {CU_AD_FORMAT_UNORM_INT16X2, 2, 0},
      {CU_AD_FORMAT_UNORM_INT16X4, 4, CU_TRSF_READ_AS_INTEGER},
      {CU_AD_FORMAT_SNORM_INT8X1, 1, 0},
      {CU_AD_FORMAT_SNORM_INT8X2, 2, CU_TRSF_READ_AS_INTEGER},
      {CU_AD_FORMAT_SNORM_INT8X4, 4, 0},
      {CU_AD_FORMAT_SNORM_INT16X1, 1, 0},
      {CU_AD_FORMAT_SNORM_INT16X2, 2, 0},
      {CU_AD_FORMAT_SNORM_INT16X4, 4, 0},
      {CU_AD_FORMAT_UNORM_INT_101010_2, 4, 0},
      {CU_AD_FORMAT_UNSIGNED_INT8, 4, CU_TRSF_SRGB},
      {CU_AD_FORMAT_UNSIGNED_INT8, 1, CU_TRSF_SRGB},
      {CU_AD_FORMAT_UNORM_INT8X2, 2, CU_TRSF_SRGB},
      {CU_AD_FORMAT_UNORM_INT8X4, 4, CU_TRSF_SRGB | CU_TRSF_READ_AS_INTEGER},
      {CU_AD_FORMAT_UNSIGNED_INT8, 4, CU_TRSF_SRGB | CU_TRSF_READ_AS_INTEGER},
      {CU_AD_FORMAT_SNORM_INT8X4, 4, CU_TRSF_SRGB},
      {CU_AD_FORMAT_UNSIGNED_INT16, 2, CU_TRSF_SRGB},
   };
   uint8_t bytes[N * 8];
   uint32_t seed = 777;
   for (size_t i = 0; i < sizeof(bytes); i++) {
      seed = seed * 1103515245u + 12345u;
      bytes[i] = (uint8_t)(seed >> 16);
   }
   /* Every 8-bit value somewhere, the extremes of each signed format
    * (-128 reads -1, as -127 does) among them. */
   for (size_t i = 0; i < 512; i++)
      bytes[i] = (uint8_t)(i * 7 + 3);
   double srgb_error = 0.0;
   CUdeviceptr data, out;
   OK(cuMemAlloc(&data, sizeof(bytes)));
   OK(cuMemcpyHtoD(data, bytes, sizeof(bytes)));
   OK(cuMemAlloc(&out, THREADS * 16));
   for (size_t k = 0; k < sizeof(forms) / sizeof(forms[0]); k++) {
      CUarray_format fmt = forms[k].fmt;
      unsigned ch = forms[k].ch, tsize = texel_bytes(fmt, ch);
      bool as_int = fmt == CU_AD_FORMAT_UNSIGNED_INT8 && (forms[k].flags & CU_TRSF_READ_AS_INTEGER);
      bool srgb = (forms[k].flags & CU_TRSF_SRGB) && !as_int &&
                  (fmt == CU_AD_FORMAT_UNSIGNED_INT8 || (fmt >= CU_AD_FORMAT_UNORM_INT8X1 &&
                                                         fmt <= CU_AD_FORMAT_UNORM_INT8X4));
      CUDA_RESOURCE_DESC rd = {0};
      rd.resType = CU_RESOURCE_TYPE_LINEAR;
      rd.res.linear.devPtr = data;
      rd.res.linear.format = fmt;
      rd.res.linear.numChannels = ch;
      rd.res.linear.sizeInBytes = N * tsize;
      CUDA_TEXTURE_DESC td = {0};
      td.flags = forms[k].flags;
      CUtexObject t;
      OK(cuTexObjectCreate(&t, &rd, &td, NULL));
      int n = THREADS, shift = -OUTSIDE;
      void *args[] = {&t, &out, &n, &shift};
      launch(kernel(as_int ? "fetch_u4" : "fetch_f4"), 1, 1, THREADS, args);
      uint32_t got[THREADS][4], want_bits[THREADS][4];
      float gotf[THREADS][4];
      double want_floats[THREADS][4];
      OK(cuMemcpyDtoH(got, out, sizeof(got)));
      memcpy(gotf, got, sizeof(gotf));
      for (int x = 0; x < THREADS; x++) {
         int i = x - OUTSIDE;
         bool in = i >= 0 && i < N;
         for (unsigned c = 0; c < 4; c++) {
            want_bits[x][c] = in && c < ch ? bytes[i * tsize + c] : 0;
            want_floats[x][c] = in ? texel_float(fmt, ch, bytes + i * tsize, c, srgb) : 0.0;
            if (srgb && fabs(gotf[x][c] - want_floats[x][c]) > srgb_error)
               srgb_error = fabs(gotf[x][c] - want_floats[x][c]);
         }
      }
      const struct grid g = {.ch = 4, .w = THREADS, .x0 = -OUTSIDE};
      if (as_int)
         expect_uints(&g, got, 4, &want_bits[0][0], "format 0x%x x%u flags %u", fmt, ch, forms[k].flags);
      else
         expect_floats(&g, &gotf[0][0], &want_floats[0][0], close_to(srgb), "format 0x%x x%u flags %u", fmt, ch,
                       forms[k].flags);
      OK(cuTexObjectDestroy(t));
   }
   /* For the record: how far this device's pow is from the exact value. */
   printf("largest sRGB error: %.3g\n", srgb_error);
   OK(cuMemFree(data));
   OK(cuMemFree(out));
}

/* tex2D over pitched memory of the vector formats, 10-10-10-2 and sRGB
 * texels, linear filtering with normalised coordinates in border mode
 * (so the border colour, which sRGB leaves as it is, is filtered in
 * too) and clamp mode, against CUDA's formula on the decoded (and, for
 * sRGB, converted: Vulkan and CUDA convert before filtering) texels. */
static void
case_pitch2d_formats(void)
{
   static const struct {
      CUarray_format fmt;
      unsigned ch, flags;
   } forms[] = {
      {CU_AD_FORMAT_UNORM_INT8X4, 4, CU_TRSF_SRGB},
      {CU_AD_FORMAT_UNSIGNED_INT8, 2, CU_TRSF_SRGB},
      {CU_AD_FORMAT_UNSIGNED_INT8, 4, 0},
      {CU_AD_FORMAT_UNORM_INT16X1, 1, 0},
      {CU_AD_FORMAT_SNORM_INT8X4, 4, 0},
      {CU_AD_FORMAT_SNORM_INT16X2, 2, 0},
      {CU_AD_FORMAT_UNORM_INT_101010_2, 4, 0},
   };
   static const float border[4] = {0.25f, 0.5f, 0.75f, 1.0f};
   const int OW = 3 * W, OH = 3 * H;
   uint8_t px[H][W * 8];
   uint32_t seed = 4242;
   for (int y = 0; y < H; y++) {
      for (int i = 0; i < W * 8; i++) {
         seed = seed * 1103515245u + 12345u;
         px[y][i] = (uint8_t)(seed >> 16);
      }
   }
   CUdeviceptr p = pitched(px, sizeof(px[0]), H);
   const struct grid g = {.ch = 4, .w = OW, .h = OH};
   float *out_h = malloc(sizeof(float) * grid_size(&g));
   double *want = malloc(sizeof(double) * grid_size(&g));
   CUdeviceptr out;
   OK(cuMemAlloc(&out, sizeof(float) * grid_size(&g)));
   CUfunction f = kernel("tex2d_float4");
   CUaddress_mode modes[] = {CU_TR_ADDRESS_MODE_BORDER, CU_TR_ADDRESS_MODE_CLAMP};
   for (size_t k = 0; k < sizeof(forms) / sizeof(forms[0]); k++) {
      for (unsigned m = 0; m < 2; m++) {
         CUarray_format fmt = forms[k].fmt;
         unsigned ch = forms[k].ch, tsize = texel_bytes(fmt, ch);
         bool srgb = (forms[k].flags & CU_TRSF_SRGB) != 0;
         CUtexObject t = texture_pitch2d(p, W, H, fmt, ch, modes[m], CU_TR_FILTER_MODE_LINEAR,
                                         forms[k].flags | CU_TRSF_NORMALIZED_COORDINATES, border);
         int w = OW, h = OH;
         float scale = 0.61f / W, shift = (-W - 0.3f) / W;
         void *args[] = {&t, &out, &w, &h, &scale, &shift};
         launch(f, OW, OH, 1, args);
         OK(cuMemcpyDtoH(out_h, out, sizeof(float) * grid_size(&g)));
         for (int y = 0; y < OH; y++) {
            for (int x = 0; x < OW; x++) {
               /* As the kernel computes them (nvcc contracts into an fma). */
               float u = fmaf((float)x, scale, shift), v = fmaf((float)y, scale, shift);
               u *= W;
               v *= H;
               u -= 0.5f;
               v -= 0.5f;
               float fu = floorf(u), fv = floorf(v);
               double a = weight(u - fu), b = weight(v - fv);
               int i = (int)fu, j = (int)fv;
               for (unsigned c = 0; c < 4; c++) {
                  double tx[4];
                  for (unsigned q = 0; q < 4; q++) {
                     int ix = address(i + (int)(q & 1), W, modes[m]), iy = address(j + (int)(q >> 1), H, modes[m]);
                     tx[q] = ix < 0 || iy < 0 ? (c < ch ? border[c] : 0.0)
                                              : texel_float(fmt, ch, &px[iy][ix * tsize], c, srgb);
                  }
                  want[(y * OW + x) * 4 + c] =
                     (1 - a) * (1 - b) * tx[0] + a * (1 - b) * tx[1] + (1 - a) * b * tx[2] + a * b * tx[3];
               }
            }
         }
         expect_floats(&g, out_h, want, (struct tol){.abs = 1e-5, .rel = 1e-5}, "format 0x%x x%u flags %u mode %u",
                       fmt, ch, forms[k].flags, m);
         OK(cuTexObjectDestroy(t));
      }
   }
   OK(cuMemFree(out));
   OK(cuMemFree(p));
   free(out_h);
   free(want);
}

/* ---- layered and cube geometries ---- */

static CUtexObject
texture3d_array(CUarray *out, unsigned w, unsigned h, unsigned d, unsigned flags, const float *data)
{
   CUDA_ARRAY3D_DESCRIPTOR desc = {w, h, d, CU_AD_FORMAT_FLOAT, 4, flags};
   OK(cuArray3DCreate(out, &desc));
   copy_array(*out, data, NULL, w * 16, h ? h : 1, d);
   return texture(*out, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
}

/* tex1DLayered and tex2DLayered at every texel of every layer. */
static void
case_layered(void)
{
   enum { LW = 8, LH = 4, LAYERS = 3 };
   static float px[LAYERS][LH][LW][4];
   for (int l = 0; l < LAYERS; l++)
      for (int y = 0; y < LH; y++)
         for (int x = 0; x < LW; x++)
            for (int c = 0; c < 4; c++)
               px[l][y][x][c] = (float)(l * 1000 + y * 100 + x * 10 + c);
   CUdeviceptr out;
   OK(cuMemAlloc(&out, sizeof(px)));
   static float got[LAYERS][LH][LW][4];

   /* 1D layered: row 0 of each layer. */
   static float row[LAYERS][LW][4];
   for (int l = 0; l < LAYERS; l++)
      memcpy(row[l], px[l][0], sizeof(row[l]));
   CUarray a;
   CUtexObject t = texture3d_array(&a, LW, 0, LAYERS, CUDA_ARRAY3D_LAYERED, &row[0][0][0]);
   int w = LW, h = LH, layers = LAYERS;
   void *args1[] = {&t, &out, &w, &layers};
   launch(kernel("tex1d_layered"), LAYERS, 1, LW, args1);
   OK(cuMemcpyDtoH(got, out, sizeof(row)));
   CHECK(memcmp(got, row, sizeof(row)) == 0);
   OK(cuTexObjectDestroy(t));
   OK(cuArrayDestroy(a));

   t = texture3d_array(&a, LW, LH, LAYERS, CUDA_ARRAY3D_LAYERED, &px[0][0][0][0]);
   void *args2[] = {&t, &out, &w, &h, &layers};
   OK(cuLaunchKernel(kernel("tex2d_layered"), LH, LAYERS, 1, LW, 1, 1, 0, NULL, args2, NULL));
   OK(cuCtxSynchronize());
   OK(cuMemcpyDtoH(got, out, sizeof(got)));
   expect_texels(&(struct grid){.ch = 4, .w = LW, .h = LH, .layers = LAYERS}, &got[0][0][0][0], &px[0][0][0][0],
                 "tex2DLayered");
   OK(cuTexObjectDestroy(t));
   OK(cuArrayDestroy(a));
   OK(cuMemFree(out));
}

/* The direction (scaled by 2.5: only the direction counts) through the
 * centre of texel (i, j) of face f of a cubemap cw texels wide: the
 * faces and their (s, t) axes as CUDA's programming guide tabulates
 * them. */
static void
cube_dir(int f, int i, int j, int cw, float d[3])
{
   float s = 2.0f * (i + 0.5f) / cw - 1.0f, t = 2.0f * (j + 0.5f) / cw - 1.0f;
   switch (f) {
   case 0: d[0] = 1; d[1] = -t; d[2] = -s; break;
   case 1: d[0] = -1; d[1] = -t; d[2] = s; break;
   case 2: d[0] = s; d[1] = 1; d[2] = t; break;
   case 3: d[0] = s; d[1] = -1; d[2] = -t; break;
   case 4: d[0] = s; d[1] = -t; d[2] = 1; break;
   default: d[0] = -s; d[1] = -t; d[2] = -1; break;
   }
   for (int c = 0; c < 3; c++)
      d[c] *= 2.5f;
}

/* texCubemap along directions through every texel centre of every face,
 * point-sampled. */
static void
case_cubemap(void)
{
   enum { CW = 4, N = 6 * CW * CW };
   static float px[6][CW][CW][4];
   static float dirs[N][4], got[N][4];
   for (int f = 0; f < 6; f++)
      for (int j = 0; j < CW; j++)
         for (int i = 0; i < CW; i++) {
            for (int c = 0; c < 4; c++)
               px[f][j][i][c] = (float)(f * 1000 + j * 100 + i * 10 + c);
            int k = (f * CW + j) * CW + i;
            cube_dir(f, i, j, CW, dirs[k]);
            dirs[k][3] = 0;
         }
   CUarray a;
   CUtexObject t = texture3d_array(&a, CW, CW, 6, CUDA_ARRAY3D_CUBEMAP, &px[0][0][0][0]);
   CUdeviceptr d_dirs, out;
   OK(cuMemAlloc(&d_dirs, sizeof(dirs)));
   OK(cuMemcpyHtoD(d_dirs, dirs, sizeof(dirs)));
   OK(cuMemAlloc(&out, sizeof(got)));
   int n = N;
   void *args[] = {&t, &d_dirs, &out, &n};
   launch(kernel("tex_cubemap"), 1, 1, N, args);
   OK(cuMemcpyDtoH(got, out, sizeof(got)));
   expect_texels(&(struct grid){.ch = 4, .w = CW, .h = CW, .layers = 6}, &got[0][0], &px[0][0][0][0],
                 "cube, layer = face");
   OK(cuTexObjectDestroy(t));
   OK(cuArrayDestroy(a));
   OK(cuMemFree(d_dirs));
   OK(cuMemFree(out));
}

/* texCubemapLayered through every texel centre of every face of each
 * cubemap of a layered cubemap array, point-sampled: the layer index
 * counts cubemaps, texel (i, j) of face f of cubemap q is layer 6q + f
 * of the array. */
static void
case_cubemap_layered(void)
{
   enum { CW = 4, CUBES = 3, N = CUBES * 6 * CW * CW };
   static float px[CUBES * 6][CW][CW][4];
   static float dirs[N][4], got[N][4];
   for (int l = 0; l < CUBES * 6; l++)
      for (int j = 0; j < CW; j++)
         for (int i = 0; i < CW; i++) {
            for (int c = 0; c < 4; c++)
               px[l][j][i][c] = (float)(l * 1000 + j * 100 + i * 10 + c);
            int k = (l * CW + j) * CW + i;
            cube_dir(l % 6, i, j, CW, dirs[k]);
            dirs[k][3] = (float)(l / 6);
         }
   CUarray a;
   CUtexObject t = texture3d_array(&a, CW, CW, CUBES * 6, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED,
                                   &px[0][0][0][0]);
   CUdeviceptr d_dirs, out;
   OK(cuMemAlloc(&d_dirs, sizeof(dirs)));
   OK(cuMemcpyHtoD(d_dirs, dirs, sizeof(dirs)));
   OK(cuMemAlloc(&out, sizeof(got)));
   int n = N;
   void *args[] = {&t, &d_dirs, &out, &n};
   launch(kernel("tex_cubemap_layered"), N / 32, 1, 32, args);
   OK(cuMemcpyDtoH(got, out, sizeof(got)));
   expect_texels(&(struct grid){.ch = 4, .w = CW, .h = CW, .layers = CUBES * 6}, &got[0][0], &px[0][0][0][0],
                 "layered cube, layer = 6 cube + face");
   OK(cuTexObjectDestroy(t));
   OK(cuArrayDestroy(a));
   OK(cuMemFree(d_dirs));
   OK(cuMemFree(out));
}

/* The level of detail of gradients gx, gy (direction space) at direction
 * d on a cubemap cw texels wide: log2 of the longer gradient carried
 * onto the face in texels of level 0, the isotropic formula of the 2D
 * tex.grad path on the face (spirv_texture.c's cube_grad_lod). */
static double
cube_lod(const float d[3], const float gx[3], const float gy[3], int cw)
{
   double a[3] = {fabs(d[0]), fabs(d[1]), fabs(d[2])};
   int m = a[2] >= a[1] && a[2] >= a[0] ? 2 : a[1] >= a[0] ? 1 : 0;
   int u = m == 0 ? 1 : 0, v = m == 2 ? 1 : 2;
   double rho = 0;
   const float *g[2] = {gx, gy};
   for (int k = 0; k < 2; k++) {
      double ratio = (double)g[k][m] / d[m];
      double du = (g[k][u] - d[u] * ratio) * cw / (2 * a[m]);
      double dv = (g[k][v] - d[v] * ratio) * cw / (2 * a[m]);
      rho = fmax(rho, sqrt(du * du + dv * dv));
   }
   return log2(rho);
}

/* texCubemapGrad and texCubemapLayeredGrad on a mipmapped (layered)
 * cubemap of 8x8 faces and 4 levels, point-sampled with nearest mipmap
 * filtering, along every texel centre of level 0: gradients of a fixed
 * shape, oblique to every face, scaled so that the level of detail is
 * -1, 0, 1.3, 2, 2.7 or 5 (levels 0, 0, 1, 2, 3, 3: Vulkan's nearest
 * level is ceil(lod + 0.5) - 1, clamped). */
static void
cubemap_grad(bool layered)
{
   enum { CW = 8, LEVELS = 4, MAX_LAYERS = 12 };
   const int layers = layered ? MAX_LAYERS : 6, n = layers * CW * CW;
   static float px[LEVELS][MAX_LAYERS][CW][CW][4];
   static float dirs[MAX_LAYERS * CW * CW][4], grads[MAX_LAYERS * CW * CW][2][4], got[MAX_LAYERS * CW * CW][4];
   static const double targets[6] = {-1.0, 0.0, 1.3, 2.0, 2.7, 5.0};
   static const int target_level[6] = {0, 0, 1, 2, 3, 3};
   static const float shape[2][3] = {{0.3f, -0.2f, 0.5f}, {-0.1f, 0.4f, 0.2f}};
   CUDA_ARRAY3D_DESCRIPTOR desc = {CW, CW, (size_t)layers, CU_AD_FORMAT_FLOAT, 4,
                                   CUDA_ARRAY3D_CUBEMAP | (layered ? CUDA_ARRAY3D_LAYERED : 0)};
   CUmipmappedArray m;
   OK(cuMipmappedArrayCreate(&m, &desc, LEVELS));
   for (int lv = 0; lv < LEVELS; lv++) {
      int w = CW >> lv;
      for (int l = 0; l < layers; l++)
         for (int j = 0; j < w; j++)
            for (int i = 0; i < w; i++)
               for (int c = 0; c < 4; c++)
                  px[lv][l][j][i][c] = (float)(lv * 100000 + l * 1000 + j * 100 + i * 10 + c);
      /* Level lv's texels packed w x w a layer. */
      static float packed[MAX_LAYERS * CW * CW * 4];
      for (int l = 0; l < layers; l++)
         for (int j = 0; j < w; j++)
            memcpy(&packed[((l * w + j) * w) * 4], px[lv][l][j], (size_t)w * 16);
      CUarray level;
      OK(cuMipmappedArrayGetLevel(&level, m, (unsigned)lv));
      copy_array(level, packed, NULL, (size_t)w * 16, (size_t)w, (size_t)layers);
   }
   int want_level[MAX_LAYERS * CW * CW];
   for (int l = 0; l < layers; l++)
      for (int j = 0; j < CW; j++)
         for (int i = 0; i < CW; i++) {
            int k = (l * CW + j) * CW + i;
            cube_dir(l % 6, i, j, CW, dirs[k]);
            dirs[k][3] = (float)(l / 6);
            double unit = cube_lod(dirs[k], shape[0], shape[1], CW);
            double scale = exp2(targets[k % 6] - unit);
            for (int g = 0; g < 2; g++) {
               for (int c = 0; c < 3; c++)
                  grads[k][g][c] = (float)(shape[g][c] * scale);
               grads[k][g][3] = 0;
            }
            want_level[k] = target_level[k % 6];
            /* The gradients as rounded to floats still give the level. */
            double lod = cube_lod(dirs[k], grads[k][0], grads[k][1], CW);
            CHECK(fabs(lod - targets[k % 6]) < 1e-4);
         }
   CUDA_RESOURCE_DESC rd = mipmap_res(m);
   CUtexObject t = point_texture(&rd, CU_TRSF_NORMALIZED_COORDINATES, LEVELS - 1, NULL);
   CUdeviceptr d_dirs, d_grads, out;
   OK(cuMemAlloc(&d_dirs, sizeof(dirs)));
   OK(cuMemcpyHtoD(d_dirs, dirs, sizeof(dirs)));
   OK(cuMemAlloc(&d_grads, sizeof(grads)));
   OK(cuMemcpyHtoD(d_grads, grads, sizeof(grads)));
   OK(cuMemAlloc(&out, sizeof(got)));
   int count = n;
   void *args[] = {&t, &d_dirs, &d_grads, &out, &count};
   launch(kernel(layered ? "tex_cubemap_layered_grad" : "tex_cubemap_grad"), (unsigned)n / 32, 1, 32, args);
   OK(cuMemcpyDtoH(got, out, sizeof(got)));
   /* Texel k of level 0 reads level target_level[k % 6]. */
   static double want[MAX_LAYERS * CW * CW][4];
   for (int l = 0; l < layers; l++)
      for (int j = 0; j < CW; j++)
         for (int i = 0; i < CW; i++) {
            int k = (l * CW + j) * CW + i, lv = want_level[k];
            for (int c = 0; c < 4; c++)
               want[k][c] = px[lv][l][j >> lv][i >> lv][c];
         }
   expect_floats(&(struct grid){.ch = 4, .w = CW, .h = CW, .layers = layers}, &got[0][0], &want[0][0], EXACT, "%s",
                 layered ? "layered cube grad" : "cube grad");
   OK(cuTexObjectDestroy(t));
   OK(cuMipmappedArrayDestroy(m));
   OK(cuMemFree(d_dirs));
   OK(cuMemFree(d_grads));
   OK(cuMemFree(out));
}

static void
case_cubemap_grad(void)
{
   cubemap_grad(false);
   cubemap_grad(true);
}

/* tex2Dgather of each component at the corner between four texels,
 * clamped at the edges: CUDA returns (i, j+1), (i+1, j+1), (i+1, j),
 * (i, j) (measured on an H100). */
static void
case_gather(void)
{
   fill_src();
   CUarray a = array2d(W, H, CU_AD_FORMAT_FLOAT, 4, CUDA_ARRAY3D_TEXTURE_GATHER, src4, 16);
   CUtexObject t = texture(a, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
   static float got[H][W][4][4];
   CUdeviceptr out;
   OK(cuMemAlloc(&out, sizeof(got)));
   int w = W, h = H;
   void *args[] = {&t, &out, &w, &h};
   launch(kernel("tex2d_gather"), W, H, 1, args);
   OK(cuMemcpyDtoH(got, out, sizeof(got)));
   static double want[H][W][4][4];
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         for (int c = 0; c < 4; c++) {
            /* The corner at (x + 1, y + 1) lies between texels x, x + 1
             * and y, y + 1. */
            const int dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};
            for (int k = 0; k < 4; k++)
               want[y][x][c][k] = src_texel(x + dx[k], y + dy[k], c, CU_TR_ADDRESS_MODE_CLAMP);
         }
   expect_floats(&(struct grid){.ch = 16, .w = W, .h = H}, &got[0][0][0][0], &want[0][0][0][0], EXACT,
                 "gather, channel = 4 component + texel");
   OK(cuTexObjectDestroy(t));
   OK(cuMemFree(out));
   OK(cuArrayDestroy(a));
}

/* surf2DLayeredread and surf2DLayeredwrite on every texel of every
 * layer of a layered surface. */
static void
case_layered_surface(void)
{
   enum { LW = 8, LH = 4, LAYERS = 3 };
   static float px[LAYERS][LH][LW], got[LAYERS][LH][LW];
   for (int l = 0; l < LAYERS; l++)
      for (int y = 0; y < LH; y++)
         for (int x = 0; x < LW; x++)
            px[l][y][x] = (float)(l * 1000 + y * 10 + x);
   CUDA_ARRAY3D_DESCRIPTOR d = {LW, LH, LAYERS, CU_AD_FORMAT_FLOAT, 1,
                                CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST};
   CUarray a;
   OK(cuArray3DCreate(&a, &d));
   copy_array(a, px, NULL, LW * 4, LH, LAYERS);
   CUsurfObject s = surface(a);
   int w = LW, h = LH, layers = LAYERS;
   void *args[] = {&s, &w, &h, &layers};
   OK(cuLaunchKernel(kernel("surf2d_layered"), LH, LAYERS, 1, LW, 1, 1, 0, NULL, args, NULL));
   OK(cuCtxSynchronize());
   copy_array(a, NULL, got, LW * 4, LH, LAYERS);
   static double want[LAYERS][LH][LW];
   for (int l = 0; l < LAYERS; l++)
      for (int y = 0; y < LH; y++)
         for (int x = 0; x < LW; x++)
            want[l][y][x] = 2.0f * px[l][y][x] + (float)l;
   expect_floats(&(struct grid){.ch = 1, .w = LW, .h = LH, .layers = LAYERS}, &got[0][0][0], &want[0][0][0], EXACT,
                 "surf2DLayered");
   OK(cuSurfObjectDestroy(s));
   OK(cuArrayDestroy(a));
}

/* ---- sust.p ---- */

enum pclass { P_UINT, P_SINT, P_HALF, P_FLOAT, P_UNORM, P_SNORM };

/* The channel value sust.p stores for 32-bit source element v, as the
 * PTX ISA defines the formatted store (f32 for UNORM, SNORM and float
 * formats, u32 and s32 for the integer ones; integers here are in the
 * channel's range), the bits of the channel. */
static uint32_t
formatted_channel(enum pclass cls, unsigned bits, uint32_t v)
{
   float f;
   memcpy(&f, &v, 4);
   uint32_t mask = bits == 32 ? 0xffffffffu : (1u << bits) - 1;
   float max = (float)(mask >> (cls == P_SNORM ? 1 : 0));
   switch (cls) {
   case P_HALF: {
      _Float16 h = (_Float16)f;
      uint16_t hb;
      memcpy(&hb, &h, 2);
      return hb;
   }
   case P_UNORM:
      return (uint32_t)nearbyintf(fminf(fmaxf(f, 0.0f), 1.0f) * max);
   case P_SNORM:
      return (uint32_t)(int32_t)nearbyintf(fminf(fmaxf(f, -1.0f), 1.0f) * max) & mask;
   default:
      return v & mask;
   }
}

/* sust.p.2d (.b32, .v2, .v4) on surfaces of each format class and texel
 * size (formats whose surfaces lavapipe can make: 2-byte texels of
 * other than R16_UINT are not storage there): every texel written from
 * n source values (n at least the channels; the
 * elements past the channels are ignored), read back and compared with
 * the ISA's conversion: floats as they are, halves rounded to nearest
 * even (overflow to infinity, subnormals kept), UNORM and SNORM clamped,
 * scaled and rounded to nearest even, integers in range as they are. */
static void
case_formatted_store(void)
{
   enum { FW = 8, FH = 4 };
   static const struct {
      CUarray_format f;
      unsigned ch, n, bits;
      enum pclass cls;
   } forms[] = {
      {CU_AD_FORMAT_FLOAT, 4, 4, 32, P_FLOAT},        {CU_AD_FORMAT_FLOAT, 1, 1, 32, P_FLOAT},
      {CU_AD_FORMAT_HALF, 4, 4, 16, P_HALF},          {CU_AD_FORMAT_HALF, 2, 2, 16, P_HALF},
      {CU_AD_FORMAT_UNSIGNED_INT8, 1, 1, 8, P_UINT},  {CU_AD_FORMAT_UNSIGNED_INT8, 4, 4, 8, P_UINT},
      {CU_AD_FORMAT_UNSIGNED_INT16, 1, 2, 16, P_UINT}, {CU_AD_FORMAT_UNSIGNED_INT16, 2, 2, 16, P_UINT},
      {CU_AD_FORMAT_UNSIGNED_INT32, 1, 1, 32, P_UINT}, {CU_AD_FORMAT_SIGNED_INT8, 4, 4, 8, P_SINT},
      {CU_AD_FORMAT_SIGNED_INT16, 2, 4, 16, P_SINT},  {CU_AD_FORMAT_SIGNED_INT32, 2, 2, 32, P_SINT},
      {CU_AD_FORMAT_UNORM_INT8X4, 4, 4, 8, P_UNORM},  {CU_AD_FORMAT_UNORM_INT16X2, 2, 4, 16, P_UNORM},
      {CU_AD_FORMAT_SNORM_INT8X4, 4, 4, 8, P_SNORM},  {CU_AD_FORMAT_SNORM_INT16X4, 4, 4, 16, P_SNORM},
   };
   /* Halves: ties to even both ways, the largest finite, overflow,
    * subnormals. */
   static const float halves[] = {1.0f, 1.00048828125f, 1.00146484375f, 65504.0f, 65520.0f, 1e-7f, 6.1e-5f,
                                  -2.5f, 3.14159f, -0.0f};
   CUfunction fn = NULL;
   CUresult r = cuModuleGetFunction(&fn, mod, "surf2d_formatted");
   if (r == CUDA_ERROR_NOT_SUPPORTED) {
      /* Five storage bindings of the context's surface slots: more than
       * lavapipe's 64 storage images a stage at 16 slots. */
      skipped = "sust.p needs the five storage bindings of a geometry, more than this device allows a stage";
      return;
   }
   OK(r);
   static uint32_t vals[FH][FW][4];
   CUdeviceptr d_vals;
   OK(cuMemAlloc(&d_vals, sizeof(vals)));
   uint32_t seed = 12345;
   for (size_t k = 0; k < sizeof(forms) / sizeof(forms[0]); k++) {
      unsigned esize = forms[k].bits / 8, tsize = esize * forms[k].ch;
      uint32_t max = forms[k].bits == 32 ? 0xffffffffu : (1u << forms[k].bits) - 1;
      for (int y = 0; y < FH; y++)
         for (int x = 0; x < FW; x++)
            for (int c = 0; c < 4; c++) {
               seed = seed * 1664525u + 1013904223u;
               uint32_t rnd = seed >> 8;
               float f;
               switch (forms[k].cls) {
               case P_UINT:
                  vals[y][x][c] = max == 0xffffffffu ? seed : rnd % (max + 1);
                  break;
               case P_SINT:
                  vals[y][x][c] = max == 0xffffffffu ? seed : (uint32_t)((int32_t)(rnd % (max + 1)) - (int32_t)(max / 2) - 1);
                  break;
               case P_HALF:
                  f = (x + c) % 2 ? halves[(y * FW + x + c) % 10] : (float)((int)(rnd % 20001) - 10000) / 37.0f;
                  memcpy(&vals[y][x][c], &f, 4);
                  break;
               case P_FLOAT:
                  f = (float)((int)(rnd % 20001) - 10000) / 7.0f;
                  memcpy(&vals[y][x][c], &f, 4);
                  break;
               case P_UNORM:
                  f = (float)(rnd % 2001) / 1000.0f - 0.5f;
                  memcpy(&vals[y][x][c], &f, 4);
                  break;
               case P_SNORM:
                  f = (float)(rnd % 3001) / 1000.0f - 1.5f;
                  memcpy(&vals[y][x][c], &f, 4);
                  break;
               }
            }
      OK(cuMemcpyHtoD(d_vals, vals, sizeof(vals)));
      static uint8_t init[FH][FW * 16], got[FH][FW * 16];
      memset(init, 0xa5, sizeof(init));
      CUarray a = array2d(FW, FH, forms[k].f, forms[k].ch, CUDA_ARRAY3D_SURFACE_LDST, init, tsize);
      CUsurfObject s = surface(a);
      int w = FW, h = FH, n = (int)forms[k].n;
      void *args[] = {&s, &d_vals, &w, &h, &n};
      launch(fn, 1, FH, FW, args);
      /* Packed rows: one value of esize bytes a channel. */
      copy_array(a, NULL, got, FW * tsize, FH, 0);
      static uint32_t want[FH * FW * 4];
      for (int y = 0; y < FH; y++)
         for (int x = 0; x < FW; x++)
            for (unsigned ch = 0; ch < forms[k].ch; ch++)
               want[(y * FW + x) * forms[k].ch + ch] = formatted_channel(forms[k].cls, forms[k].bits, vals[y][x][ch]);
      expect_uints(&(struct grid){.ch = (int)forms[k].ch, .w = FW, .h = FH}, got, esize, want,
                   "format 0x%x x%u, %u values", forms[k].f, forms[k].ch, forms[k].n);
      OK(cuSurfObjectDestroy(s));
      OK(cuArrayDestroy(a));
   }
   OK(cuMemFree(d_vals));
}

/* A texture over linear memory sampled by tex1D (float coordinates:
 * CUDA defines only tex1Dfetch there): not served, so the launch fails as
 * a fault does, rather than reading zeros. */
/* ---- resource views ---- */

/* Levels 1..3 of a five-level mipmapped array: tex2DLod's level 0 is
 * the view's first level and levels past the last read the last. */
static void
views_levels(void)
{
   CUmipmappedArray m = mipmap5();
   CUDA_RESOURCE_DESC rd = mipmap_res(m);
   CUDA_RESOURCE_VIEW_DESC vd = {0};
   vd.format = CU_RES_VIEW_FORMAT_FLOAT_4X32;
   vd.width = 16;
   vd.height = 16;
   vd.firstMipmapLevel = 1;
   vd.lastMipmapLevel = 3;
   CUtexObject t = point_texture(&rd, CU_TRSF_NORMALIZED_COORDINATES, 16, &vd);
   CUdeviceptr out;
   OK(cuMemAlloc(&out, sizeof(float) * 4 * 4 * 4));
   for (unsigned l = 0; l < 5; l++) {
      int w = 4, h = 4;
      float level = (float)l;
      unsigned want = l + 1 < 3 ? l + 1 : 3;
      void *args[] = {&t, &out, &w, &h, &level};
      launch(kernel("tex2d_lod"), 4, 4, 1, args);
      float got[4 * 4 * 4];
      double ref[4 * 4 * 4];
      OK(cuMemcpyDtoH(got, out, sizeof(got)));
      for (unsigned i = 0; i < 64; i++)
         ref[i] = (float)(want * 10 + i % 4);
      expect_floats(&(struct grid){.ch = 4, .w = 4, .h = 4}, got, ref, EXACT, "view level %u (level %u)", l, want);
   }
   OK(cuTexObjectDestroy(t));
   OK(cuMemFree(out));
   OK(cuMipmappedArrayDestroy(m));
}

/* Layers 1..2 of a four-layer 2D array: the view's layer 0 is the
 * array's layer 1. */
static void
views_layers(void)
{
   enum { LW = 8, LH = 4, LAYERS = 4 };
   static float px[LAYERS][LH][LW][4], got[2][LH][LW][4];
   for (int l = 0; l < LAYERS; l++)
      for (int y = 0; y < LH; y++)
         for (int x = 0; x < LW; x++)
            for (int c = 0; c < 4; c++)
               px[l][y][x][c] = (float)(l * 1000 + y * 100 + x * 10 + c);
   CUarray a;
   CUtexObject plain = texture3d_array(&a, LW, LH, LAYERS, CUDA_ARRAY3D_LAYERED, &px[0][0][0][0]);
   OK(cuTexObjectDestroy(plain));
   CUDA_RESOURCE_DESC rd = array_res(a);
   CUDA_RESOURCE_VIEW_DESC vd = {0};
   vd.format = CU_RES_VIEW_FORMAT_NONE;   /* the array's */
   vd.width = LW;
   vd.height = LH;
   vd.depth = LAYERS;
   vd.firstLayer = 1;
   vd.lastLayer = 2;
   CUtexObject t = point_texture(&rd, 0, 16, &vd);
   CUdeviceptr out;
   OK(cuMemAlloc(&out, sizeof(got)));
   int w = LW, h = LH, layers = 2;
   void *args[] = {&t, &out, &w, &h, &layers};
   OK(cuLaunchKernel(kernel("tex2d_layered"), LH, 2, 1, LW, 1, 1, 0, NULL, args, NULL));
   OK(cuCtxSynchronize());
   OK(cuMemcpyDtoH(got, out, sizeof(got)));
   expect_texels(&(struct grid){.ch = 4, .w = LW, .h = LH, .layers = 2}, &got[0][0][0][0], &px[1][0][0][0],
                 "view of layers 1..2");
   OK(cuTexObjectDestroy(t));
   OK(cuArrayDestroy(a));
   OK(cuMemFree(out));
}

static CUtexObject
format_view(CUarray a, CUresourceViewFormat format, unsigned w, unsigned h)
{
   CUDA_RESOURCE_DESC rd = array_res(a);
   CUDA_RESOURCE_VIEW_DESC vd = {0};
   vd.format = format;
   vd.width = w;
   vd.height = h;
   return point_texture(&rd, 0, 16, format ? &vd : NULL);
}

/* The same bytes read as another format of their size: RGBA8 texels as
 * 32-bit integers, 32-bit integers as four normalised bytes, single bytes
 * as signed normalised ones (and, without a view, as unsigned: the
 * 1-byte image is mutable too). */
static void
views_formats(void)
{
   uint8_t px[H][W][4];
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         for (int c = 0; c < 4; c++)
            px[y][x][c] = (uint8_t)(y * 40 + x * 7 + c * 50 + 3);

   CUarray a = array2d(W, H, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0, px, 4);
   CUtexObject t = format_view(a, CU_RES_VIEW_FORMAT_SINT_1X32, W, H);
   int32_t goti[H][W];
   sample_raw("tex2d_int", t, goti, sizeof(goti));
   CHECK(memcmp(goti, px, sizeof(goti)) == 0);   /* little-endian words of the bytes */
   OK(cuTexObjectDestroy(t));
   OK(cuArrayDestroy(a));

   a = array2d(W, H, CU_AD_FORMAT_SIGNED_INT32, 1, 0, px, 4);
   t = format_view(a, CU_RES_VIEW_FORMAT_UINT_4X8, W, H);
   float gotf[H][W][4];
   sample_float4(t, gotf);
   expect_unorm8x4(gotf, px, "UINT_4X8 view");
   OK(cuTexObjectDestroy(t));
   OK(cuArrayDestroy(a));

   uint8_t bytes[H][W];
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         bytes[y][x] = (uint8_t)(y * 45 + x * 17);
   a = array2d(W, H, CU_AD_FORMAT_UNSIGNED_INT8, 1, 0, bytes, 1);
   for (int signed_view = 0; signed_view < 2; signed_view++) {
      t = format_view(a, signed_view ? CU_RES_VIEW_FORMAT_SINT_1X8 : CU_RES_VIEW_FORMAT_NONE, W, H);
      sample_float4(t, gotf);
      double want[H][W][4];
      for (int y = 0; y < H; y++)
         for (int x = 0; x < W; x++) {
            float red = signed_view ? fmaxf((float)(int8_t)bytes[y][x] / 127.0f, -1.0f) : bytes[y][x] / 255.0f;
            for (int c = 0; c < 4; c++)
               want[y][x][c] = c ? 0.0f : red;
         }
      expect_floats(&texels4, &gotf[0][0][0], &want[0][0][0], (struct tol){.abs = 1e-6}, "%s",
                    signed_view ? "SINT_1X8 view" : "UINT8");
      OK(cuTexObjectDestroy(t));
   }
   OK(cuArrayDestroy(a));
}

static void
case_resource_views(void)
{
   views_levels();
   views_layers();
   views_formats();
}

static void
case_linear_memory_refused(void)
{
   CUdeviceptr p, out;
   OK(cuMemAlloc(&p, 4096));
   OK(cuMemsetD32(p, 0x3f800000u, 1024));
   OK(cuMemAlloc(&out, 64 * sizeof(float)));
   CUDA_RESOURCE_DESC rd = {0};
   rd.resType = CU_RESOURCE_TYPE_LINEAR;
   rd.res.linear.devPtr = p;
   rd.res.linear.format = CU_AD_FORMAT_FLOAT;
   rd.res.linear.numChannels = 1;
   rd.res.linear.sizeInBytes = 4096;
   CUDA_TEXTURE_DESC td = {0};
   CUtexObject t;
   OK(cuTexObjectCreate(&t, &rd, &td, NULL));
   int n = 64;
   float scale = 1.0f;
   void *args[] = {&t, &out, &n, &scale};
   OK(cuLaunchKernel(kernel("tex1d_float"), 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL));
   CUresult r = cuCtxSynchronize();
   CHECK(r == CUDA_ERROR_ILLEGAL_ADDRESS);
   /* The context is unusable now, as after any fault; its objects go
    * with it. */
   mod = NULL;
}

/* ---- Border colours Vulkan has no fixed colour for, and anisotropy ---- */

/* The (W + 2) x (H + 2) results of the border cases: result (x, y)
 * samples texel (x - 1, y - 1), a ring of border around the texture. */
#define BW (W + 2)
#define BH (H + 2)

/* A point-sampling texture of s in border mode with colour border,
 * normalised coordinates where normalized. */
static CUresult
border_texture(const struct texels *s, unsigned flags, const float border[4], CUtexObject *t)
{
   CUDA_RESOURCE_DESC rd = {0};
   if (s->pitched) {
      rd.resType = CU_RESOURCE_TYPE_PITCH2D;
      rd.res.pitch2D.devPtr = s->pitched;
      rd.res.pitch2D.format = s->f;
      rd.res.pitch2D.numChannels = s->ch;
      rd.res.pitch2D.width = W;
      rd.res.pitch2D.height = H;
      rd.res.pitch2D.pitchInBytes = PITCH;
   } else {
      rd = array_res(s->array);
   }
   CUDA_TEXTURE_DESC td = {0};
   td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = CU_TR_ADDRESS_MODE_BORDER;
   td.filterMode = CU_TR_FILTER_MODE_POINT;
   td.flags = flags;
   memcpy(td.borderColor, border, sizeof(td.borderColor));
   return cuTexObjectCreate(t, &rd, &td, NULL);
}

/* The texel result (x, y) of tex2d_float4 with scale and shift samples
 * (as point_reference finds it), or -1 in *tx for the border. */
static void
border_texel(int x, int y, bool normalized, float scale, float shift, int *tx, int *ty)
{
   float u = x * scale + shift, v = y * scale + shift;
   *tx = address((int)floorf(normalized ? u * W : u), W, CU_TR_ADDRESS_MODE_BORDER);
   *ty = address((int)floorf(normalized ? v * H : v), H, CU_TR_ADDRESS_MODE_BORDER);
   if (*tx < 0 || *ty < 0)
      *tx = *ty = -1;
}

/* tex2d_float4 over t (BW x BH results, normalised coordinates where
 * normalized), each result against texel(x, y, c) inside the texture
 * and the colour want outside. */
typedef double texel_fn(int x, int y, int c);

static void
expect_border_floats(CUtexObject t, bool normalized, texel_fn *texel, const double want[4], struct tol tol,
                     const char *what)
{
   const struct grid g = {.ch = 4, .w = BW, .h = BH, .x0 = -1};
   float got[BH][BW][4];
   double ref[BH][BW][4];
   int w = BW, h = BH;
   /* Unnormalised: the centre of texel x - 1; normalised: the same
    * along x, and y scaled alike (so rows sample texels H/W apart). */
   float scale = normalized ? 1.0f / W : 1.0f, shift = normalized ? -0.5f / W : -0.5f;
   CUdeviceptr out;
   OK(cuMemAlloc(&out, sizeof(got)));
   void *args[] = {&t, &out, &w, &h, &scale, &shift};
   launch(kernel("tex2d_float4"), BW, BH, 1, args);
   OK(cuMemcpyDtoH(got, out, sizeof(got)));
   OK(cuMemFree(out));
   for (int y = 0; y < BH; y++) {
      for (int x = 0; x < BW; x++) {
         int tx, ty;
         border_texel(x, y, normalized, scale, shift, &tx, &ty);
         for (int c = 0; c < 4; c++)
            ref[y][x][c] = tx < 0 ? want[c] : texel(tx, ty, c);
      }
   }
   expect_floats(&g, &got[0][0][0], &ref[0][0][0], tol, "%s, %snormalised", what, normalized ? "" : "un");
}

static unsigned border_ch;

static double
src4_texel(int x, int y, int c)
{
   return c < (int)border_ch ? src4[y][x][c] : 0.0;
}

static uint8_t border_px[H][W][4];
static bool border_srgb;

static double
unorm8_texel(int x, int y, int c)
{
   return texel_float(CU_AD_FORMAT_UNSIGNED_INT8, 4, border_px[y][x], (unsigned)c, border_srgb);
}

/* Float textures of 1, 2 and 4 channels, arrays and pitched memory, with
 * colours no fixed Vulkan colour is: the colour where coordinates leave
 * the texture, zero in the channels the format lacks (as CUDA reads
 * them, and as pitched memory does), normalised and unnormalised. */
static void
border_floats(void)
{
   static const float colours[][4] = {
      {0.5f, 0.5f, 0.5f, 0.5f},
      {0.5f, 0.25f, -3.0f, 7.5f},
      {-1e10f, 123.0f, 0.0f, 1.0f},
      /* Fixed colours once the missing channels are zero: (1, 0, 0, 0)
       * of one channel is opaque white, (0, 0, 0, 1) transparent black. */
      {1.0f, 1.0f, 1.0f, 1.0f},
      {0.0f, 0.0f, 0.0f, 1.0f},
   };
   static const unsigned channels[] = {4, 2, 1};
   fill_src();
   for (unsigned k = 0; k < 3; k++) {
      border_ch = channels[k];
      /* src4's first border_ch channels of each texel, packed. */
      float packed[H * W * 4];
      for (int y = 0; y < H; y++)
         for (int x = 0; x < W; x++)
            for (unsigned c = 0; c < border_ch; c++)
               packed[(y * W + x) * border_ch + c] = src4[y][x][c];
      for (int pitch = 0; pitch < 2; pitch++) {
         struct texels s = texels_make(pitch, CU_AD_FORMAT_FLOAT, border_ch, packed, 4 * border_ch);
         for (unsigned i = 0; i < sizeof(colours) / sizeof(colours[0]); i++) {
            double want[4];
            for (int c = 0; c < 4; c++)
               want[c] = c < (int)border_ch ? colours[i][c] : 0.0;
            for (int normalized = 0; normalized < 2; normalized++) {
               CUtexObject t;
               OK(border_texture(&s, normalized ? CU_TRSF_NORMALIZED_COORDINATES : 0, colours[i], &t));
               char what[96];
               snprintf(what, sizeof(what), "%s float x%u, colour %u", pitch ? "pitched" : "array", border_ch, i);
               expect_border_floats(t, normalized, src4_texel, want, EXACT, what);
               OK(cuTexObjectDestroy(t));
            }
         }
         texels_free(&s);
      }
   }
}

/* 8-bit unsigned RGBA read as normalised floats, and with CU_TRSF_SRGB:
 * CUDA gives the border colour as it is, after the texels' conversion
 * (the colour is not decoded from sRGB; NVIDIA's sampler rounds it to
 * the view's 8 bits, see the tolerance below). */
static void
border_unorm8(void)
{
   static const float colours[][4] = {
      {0.5f, 0.25f, 0.125f, 1.0f},
      {0.3f, 0.6f, 0.9f, 0.45f},
   };
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         for (int c = 0; c < 4; c++)
            border_px[y][x][c] = (uint8_t)(y * 40 + x * 7 + c * 50);
   struct texels s = texels_make(false, CU_AD_FORMAT_UNSIGNED_INT8, 4, border_px, 4);
   for (int srgb = 0; srgb < 2; srgb++) {
      border_srgb = srgb;
      /* NVIDIA's sampler keeps the border colour of an 8-bit view in
       * 8 bits (H100, 580.159: 0.3, 0.9 and 0.45 read as 76, 229 and 115
       * 255ths, 0.9 through an sRGB view as 0.89453125), so the colour
       * is allowed half a step, which still catches a texel one step
       * off; sRGB one and a half steps, since NVIDIA's decode of the
       * texels is one step off too (test_texture_import_views.c).
       * Whether real CUDA's colour comes back exact on the same sampler
       * is not measured. */
      struct tol tol = {.abs = srgb ? 1.5 / 255 : 0.51 / 255};
      for (unsigned i = 0; i < sizeof(colours) / sizeof(colours[0]); i++) {
         double want[4];
         for (int c = 0; c < 4; c++)
            want[c] = colours[i][c];
         for (int normalized = 0; normalized < 2; normalized++) {
            CUtexObject t;
            unsigned flags = (normalized ? CU_TRSF_NORMALIZED_COORDINATES : 0) | (srgb ? CU_TRSF_SRGB : 0);
            OK(border_texture(&s, flags, colours[i], &t));
            char what[64];
            snprintf(what, sizeof(what), "unorm8 x4%s, colour %u", srgb ? " sRGB" : "", i);
            expect_border_floats(t, normalized, unorm8_texel, want, tol, what);
            OK(cuTexObjectDestroy(t));
         }
      }
   }
   texels_free(&s);
}

/* Integers read as integers: the colour's values as integers, in the
 * channels the format has. */
static void
border_integers(void)
{
   enum { N = BW * BH };
   /* 8-bit unsigned RGBA. */
   uint8_t px[H][W][4];
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         for (int c = 0; c < 4; c++)
            px[y][x][c] = (uint8_t)(y * 30 + x * 3 + c * 60 + 1);
   struct texels s = texels_make(false, CU_AD_FORMAT_UNSIGNED_INT8, 4, px, 4);
   static const float colour[4] = {7.0f, 200.0f, 3.0f, 1.0f};
   CUtexObject t;
   OK(border_texture(&s, CU_TRSF_READ_AS_INTEGER, colour, &t));
   uint32_t got[BH][BW][4], want[BH][BW][4];
   int w = BW, h = BH;
   float shift = -0.5f;
   CUdeviceptr out;
   OK(cuMemAlloc(&out, sizeof(got)));
   void *args[] = {&t, &out, &w, &h, &shift};
   launch(kernel("tex2d_uint4_shift"), BW, BH, 1, args);
   OK(cuMemcpyDtoH(got, out, sizeof(got)));
   for (int y = 0; y < BH; y++)
      for (int x = 0; x < BW; x++)
         for (int c = 0; c < 4; c++)
            want[y][x][c] = x < 1 || y < 1 || x > W || y > H ? (uint32_t)colour[c] : px[y - 1][x - 1][c];
   const struct grid g4 = {.ch = 4, .w = BW, .h = BH, .x0 = -1};
   expect_uints(&g4, got, 4, &want[0][0][0], "uint8 x4 read as integers");
   OK(cuTexObjectDestroy(t));
   texels_free(&s);

   /* 32-bit signed, one channel: a negative colour; the others ignored. */
   int32_t ints[H][W];
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         ints[y][x] = (y - 3) * 1000003 + x * -7;
   s = texels_make(false, CU_AD_FORMAT_SIGNED_INT32, 1, ints, 4);
   static const float negative[4] = {-5.0f, 9.0f, 9.0f, 9.0f};
   OK(border_texture(&s, 0, negative, &t));
   int32_t goti[BH][BW];
   uint32_t wanti[BH][BW];
   launch(kernel("tex2d_int_shift"), BW, BH, 1, args);
   OK(cuMemcpyDtoH(goti, out, sizeof(goti)));
   for (int y = 0; y < BH; y++)
      for (int x = 0; x < BW; x++)
         wanti[y][x] = (uint32_t)(x < 1 || y < 1 || x > W || y > H ? -5 : ints[y - 1][x - 1]);
   const struct grid g1 = {.ch = 1, .w = BW, .h = BH, .x0 = -1};
   expect_uints(&g1, goti, 4, &wanti[0][0], "int32 x1");
   OK(cuTexObjectDestroy(t));
   texels_free(&s);
   OK(cuMemFree(out));
}

/* Border colours on arrays that Vulkan's three fixed colours cannot
 * give, sampled by kernels against the host's reference (VK_EXT_custom_
 * border_color); pitched memory alongside.  Skipped (77) on a device
 * without custom border colours, where such textures are refused with
 * CUDA_ERROR_NOT_SUPPORTED. */
static void
case_border_colours(void)
{
   struct texels probe = texels_make(false, CU_AD_FORMAT_FLOAT, 1, src4, 4);
   static const float half[4] = {0.5f, 0.5f, 0.5f, 0.5f};
   CUtexObject t;
   CUresult r = border_texture(&probe, 0, half, &t);
   texels_free(&probe);
   if (r == CUDA_ERROR_NOT_SUPPORTED) {
      skipped = "the device has no custom border colours";
      return;
   }
   OK(r);
   OK(cuTexObjectDestroy(t));
   border_floats();
   border_unorm8();
   border_integers();
}

/* What tex2d_float4 reads at texel (1, 1)'s centre: one result. */
static void
border_probe(CUtexObject t, float got[4])
{
   int w = 1, h = 1;
   float scale = 1.0f, shift = -0.5f;   /* texel -1: the border */
   CUdeviceptr out;
   OK(cuMemAlloc(&out, 4 * sizeof(float)));
   void *args[] = {&t, &out, &w, &h, &scale, &shift};
   launch(kernel("tex2d_float4"), 1, 1, 1, args);
   OK(cuMemcpyDtoH(got, out, 4 * sizeof(float)));
   OK(cuMemFree(out));
}

static void
expect_border(CUtexObject t, const float colour[4], const char *what)
{
   float got[4];
   border_probe(t, got);
   for (int c = 0; c < 4; c++) {
      if (got[c] != colour[c])
         cuvk_test_report(__FILE__, __LINE__, "%s: channel %d read %g, the border colour is %g", what, c,
                          got[c], colour[c]);
   }
}

/* Samplers with custom border colours under a limit of two
 * (CUVK_CUSTOM_BORDER_SAMPLERS=2, as meson.build sets it): textures of
 * one colour share a sampler, a third colour is refused with
 * CUDA_ERROR_OUT_OF_MEMORY, and it is taken once a sampler is gone. */
static void
case_border_sampler_limit(void)
{
   static const float c1[4] = {0.5f, 0.5f, 0.5f, 0.5f}, c2[4] = {0.25f, 0.5f, 0.75f, 1.0f},
                      c3[4] = {2.0f, 3.0f, 4.0f, 5.0f};
   fill_src();
   struct texels s = texels_make(false, CU_AD_FORMAT_FLOAT, 4, src4, 16);
   CUtexObject t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5 = 0;
   CUresult r = border_texture(&s, 0, c1, &t1);
   if (r == CUDA_ERROR_NOT_SUPPORTED) {
      skipped = "the device has no custom border colours";
      texels_free(&s);
      return;
   }
   OK(r);
   OK(border_texture(&s, 0, c2, &t2));
   /* c1 again, normalised coordinates: another sampler... */
   CHECK(border_texture(&s, CU_TRSF_NORMALIZED_COORDINATES, c1, &t3) == CUDA_ERROR_OUT_OF_MEMORY);
   /* ...c1 as t1 has it: t1's. */
   OK(border_texture(&s, 0, c1, &t3));
   CHECK(border_texture(&s, 0, c3, &t4) == CUDA_ERROR_OUT_OF_MEMORY);
   expect_border(t1, c1, "t1");
   expect_border(t2, c2, "t2");
   expect_border(t3, c1, "t3, sharing t1's sampler");
   /* Fixed colours need no such sampler. */
   static const float white[4] = {1.0f, 1.0f, 1.0f, 1.0f};
   OK(border_texture(&s, 0, white, &t5));
   expect_border(t5, white, "opaque white");
   OK(cuTexObjectDestroy(t5));

   /* t1 goes, t3 keeps the sampler: still two. */
   OK(cuTexObjectDestroy(t1));
   OK(cuCtxSynchronize());
   CHECK(border_texture(&s, 0, c3, &t4) == CUDA_ERROR_OUT_OF_MEMORY);
   expect_border(t3, c1, "t3 after t1 went");
   /* t2 goes once the work that sampled it is done. */
   OK(cuTexObjectDestroy(t2));
   OK(cuCtxSynchronize());
   OK(border_texture(&s, 0, c3, &t4));
   expect_border(t4, c3, "t4");
   OK(cuTexObjectDestroy(t3));
   OK(cuTexObjectDestroy(t4));
   texels_free(&s);
}

/* maxAnisotropy over a minified mipmapped array (mipmap5: every texel of
 * level l holds l * 10 + its channel), trilinear, through tex2DGrad: the
 * samplers are anisotropic (validation checks them against the device's
 * limits), an isotropic footprint reads what isotropic filtering does,
 * and a footprint 8 times longer than wide reads within the levels'
 * values.  tex.grad samples at an explicit level computed from the
 * gradients (docs/compiler.md), where Vulkan filters isotropically:
 * the values printed show which level each ratio read. */
static void
case_anisotropy(void)
{
   enum { N = 8 };
   CUmipmappedArray m = mipmap5();
   CUDA_RESOURCE_DESC rd = mipmap_res(m);
   static const unsigned ratios[] = {1, 4, 16};
   CUtexObject t[3];
   for (unsigned i = 0; i < 3; i++) {
      CUDA_TEXTURE_DESC td = {0};
      td.filterMode = CU_TR_FILTER_MODE_LINEAR;
      td.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
      td.flags = CU_TRSF_NORMALIZED_COORDINATES;
      td.maxMipmapLevelClamp = 4;
      td.maxAnisotropy = ratios[i];
      OK(cuTexObjectCreate(&t[i], &rd, &td, NULL));
      CUDA_TEXTURE_DESC back;
      OK(cuTexObjectGetTextureDesc(&back, t[i]));
      CHECK(back.maxAnisotropy == ratios[i]);
   }
   const struct grid g = {.ch = 4, .w = N, .h = N};
   float got[3][2][N][N][4];
   CUdeviceptr out;
   OK(cuMemAlloc(&out, sizeof(got[0][0])));
   /* Footprints in normalised units of the 16-texel level 0: 3 x 3
    * texels (level log2(3)), and 8 x 1 (level 3 without anisotropy). */
   static const float foot[2][2] = {{3.0f / 16, 3.0f / 16}, {8.0f / 16, 1.0f / 16}};
   for (unsigned i = 0; i < 3; i++) {
      for (unsigned f = 0; f < 2; f++) {
         int w = N, h = N;
         float gx = foot[f][0], gy = foot[f][1];
         void *args[] = {&t[i], &out, &w, &h, &gx, &gy};
         launch(kernel("tex2d_grad_aniso"), N, N, 1, args);
         OK(cuMemcpyDtoH(got[i][f], out, sizeof(got[i][f])));
      }
   }
   OK(cuMemFree(out));
   /* Isotropic footprint: every ratio reads the same, within a 40th of
    * a level (a driver's anisotropic path may approximate log2
    * differently). */
   double iso[N][N][4];
   for (int y = 0; y < N; y++)
      for (int x = 0; x < N; x++)
         for (int c = 0; c < 4; c++)
            iso[y][x][c] = got[0][0][y][x][c];
   for (unsigned i = 1; i < 3; i++)
      expect_floats(&g, &got[i][0][0][0][0], &iso[0][0][0], (struct tol){.abs = 0.25},
                    "isotropic footprint, maxAnisotropy %u", ratios[i]);
   /* Level log2(3) = 1.58: between levels 1 and 2, trilinear. */
   CHECK(iso[0][0][0] > 10.0 && iso[0][0][0] < 20.0);
   /* The long footprint: without anisotropy level 3; with it no coarser,
    * and within the levels' values. */
   unsigned bad = 0;
   for (int y = 0; y < N; y++) {
      for (int x = 0; x < N; x++) {
         for (int c = 0; c < 4; c++) {
            double iso_long = got[0][1][y][x][c];
            if (fabs(iso_long - (30.0 + c)) > 0.25 && bad++ < 8)
               fprintf(stderr, "(%d, %d) channel %d without anisotropy: %g, level 3 is %d\n", x, y, c, iso_long,
                       30 + c);
            for (unsigned i = 1; i < 3; i++) {
               double v = got[i][1][y][x][c];
               if (!(v >= c - 0.25 && v <= iso_long + 0.25) && bad++ < 8)
                  fprintf(stderr, "(%d, %d) channel %d, maxAnisotropy %u: %g, outside [%d, %g]\n", x, y, c,
                          ratios[i], v, c, iso_long);
            }
         }
      }
   }
   CHECK(bad == 0);
   printf("8 x 1 texel footprint, channel 0 (level l reads 10 l): %g without anisotropy, %g with 4, %g with 16\n",
          got[0][1][0][0][0], got[1][1][0][0][0], got[2][1][0][0][0]);
   for (unsigned i = 0; i < 3; i++)
      OK(cuTexObjectDestroy(t[i]));
   OK(cuMipmappedArrayDestroy(m));
}

static const struct drv_case cases[] = {
   {"texture.kernel.linear_memory_refused", case_linear_memory_refused},
   {"texture.kernel.point_modes", case_point_modes},
   {"texture.kernel.linear", case_linear},
   {"texture.kernel.read_modes", case_read_modes},
   {"texture.kernel.handles_in_memory", case_handles_in_memory},
   {"texture.kernel.mip_level", case_mip_level},
   {"texture.kernel.surfaces", case_surfaces},
   {"texture.kernel.fetch_linear", case_fetch_linear},
   {"texture.kernel.pitch2d_point_modes", case_pitch2d_point_modes},
   {"texture.kernel.specialised", case_specialised},
   {"texture.kernel.specialised_scale", case_specialised_scale},
   {"texture.kernel.cuda_takes", case_cuda_takes},
   {"texture.kernel.pitch2d_linear", case_pitch2d_linear},
   {"texture.kernel.pitch2d_read_modes", case_pitch2d_read_modes},
   {"texture.kernel.fetch_linear_formats", case_fetch_linear_formats},
   {"texture.kernel.pitch2d_formats", case_pitch2d_formats},
   {"texture.kernel.layered", case_layered},
   {"texture.kernel.cubemap", case_cubemap},
   {"texture.kernel.gather", case_gather},
   {"texture.kernel.layered_surface", case_layered_surface},
   {"texture.kernel.cubemap_layered", case_cubemap_layered},
   {"texture.kernel.cubemap_grad", case_cubemap_grad},
   {"texture.kernel.formatted_store", case_formatted_store},
   {"texture.kernel.resource_views", case_resource_views},
   {"texture.kernel.border_colours", case_border_colours},
   {"texture.kernel.border_sampler_limit", case_border_sampler_limit},
   {"texture.kernel.anisotropy", case_anisotropy},
};

int
main(int argc, char **argv)
{
   return drv_test_main(argc, argv, &(struct drv_program){
      .cases = cases,
      .count = sizeof(cases) / sizeof(cases[0]),
      .usage = "CASE TEXTURE.ptx",
      .module = &mod,
      .skipped = &skipped,
   });
}
