/*
 * What the array cases share: element sizes of CUDA formats, arrays with a
 * host model of their contents, linear memory of every kind, and box
 * copies applied to models.
 */
#ifndef CUVK_TESTS_ARRAY_UTIL_H
#define CUVK_TESTS_ARRAY_UTIL_H

#include "array_test.h"

/* Bytes per element (per 4x4 block for BC) and block side of a CUDA
 * format with a channel count; 0 when CUDA does not define the pair. */
static inline unsigned
au_elem_size(CUarray_format f, unsigned ch, unsigned *block)
{
   *block = 1;
   unsigned c = ch == 1 || ch == 2 || ch == 4 ? ch : 0;
   switch (f) {
   case CU_AD_FORMAT_UNSIGNED_INT8: case CU_AD_FORMAT_SIGNED_INT8: return c;
   case CU_AD_FORMAT_UNSIGNED_INT16: case CU_AD_FORMAT_SIGNED_INT16: case CU_AD_FORMAT_HALF: return 2 * c;
   case CU_AD_FORMAT_UNSIGNED_INT32: case CU_AD_FORMAT_SIGNED_INT32: case CU_AD_FORMAT_FLOAT: return 4 * c;
   case CU_AD_FORMAT_UNORM_INT8X1: case CU_AD_FORMAT_SNORM_INT8X1: return ch == 1 ? 1 : 0;
   case CU_AD_FORMAT_UNORM_INT8X2: case CU_AD_FORMAT_SNORM_INT8X2: return ch == 2 ? 2 : 0;
   case CU_AD_FORMAT_UNORM_INT8X4: case CU_AD_FORMAT_SNORM_INT8X4: return ch == 4 ? 4 : 0;
   case CU_AD_FORMAT_UNORM_INT16X1: case CU_AD_FORMAT_SNORM_INT16X1: return ch == 1 ? 2 : 0;
   case CU_AD_FORMAT_UNORM_INT16X2: case CU_AD_FORMAT_SNORM_INT16X2: return ch == 2 ? 4 : 0;
   case CU_AD_FORMAT_UNORM_INT16X4: case CU_AD_FORMAT_SNORM_INT16X4: return ch == 4 ? 8 : 0;
   case CU_AD_FORMAT_UNORM_INT_101010_2: return ch == 4 ? 4 : 0;
   case CU_AD_FORMAT_BC1_UNORM: case CU_AD_FORMAT_BC1_UNORM_SRGB:
      *block = 4; return ch == 4 ? 8 : 0;
   case CU_AD_FORMAT_BC2_UNORM: case CU_AD_FORMAT_BC2_UNORM_SRGB: case CU_AD_FORMAT_BC3_UNORM:
   case CU_AD_FORMAT_BC3_UNORM_SRGB: case CU_AD_FORMAT_BC7_UNORM: case CU_AD_FORMAT_BC7_UNORM_SRGB:
      *block = 4; return ch == 4 ? 16 : 0;
   case CU_AD_FORMAT_BC4_UNORM: case CU_AD_FORMAT_BC4_SNORM:
      *block = 4; return ch == 1 ? 8 : 0;
   case CU_AD_FORMAT_BC5_UNORM: case CU_AD_FORMAT_BC5_SNORM:
      *block = 4; return ch == 2 ? 16 : 0;
   case CU_AD_FORMAT_BC6H_UF16: case CU_AD_FORMAT_BC6H_SF16:
      *block = 4; return ch == 3 ? 16 : 0;
   default:
      return 0;
   }
}

/* An array and a host model of what it holds, in copy units: slices of
 * rows of row_bytes (rows of blocks for BC). */
struct au_array {
   CUarray handle;
   size_t elem;
   size_t row_bytes, rows, slices;
   uint8_t *model;
};

static inline size_t
au_array_bytes(const struct au_array *a)
{
   return a->row_bytes * a->rows * a->slices;
}

/* Describes an existing array handle (its model starts unknown: zeros). */
static inline bool
au_array_wrap(struct au_array *a, CUarray handle)
{
   CUDA_ARRAY3D_DESCRIPTOR d;
   unsigned block;
   memset(a, 0, sizeof(*a));
   a->handle = handle;
   if (cuArray3DGetDescriptor(&d, handle) != CUDA_SUCCESS)
      return false;
   a->elem = au_elem_size(d.Format, d.NumChannels, &block);
   a->row_bytes = (d.Width + block - 1) / block * a->elem;
   a->rows = d.Height ? (d.Height + block - 1) / block : 1;
   a->slices = d.Depth ? d.Depth : 1;
   a->model = calloc(1, au_array_bytes(a) ? au_array_bytes(a) : 1);
   return a->elem != 0 && a->model;
}

static inline CUresult
au_array_create(struct au_array *a, size_t w, size_t h, size_t d, CUarray_format f, unsigned ch,
                unsigned flags)
{
   CUDA_ARRAY3D_DESCRIPTOR desc = { w, h, d, f, ch, flags };
   CUarray handle;
   memset(a, 0, sizeof(*a));
   CUresult res = cuArray3DCreate(&handle, &desc);
   if (res != CUDA_SUCCESS)
      return res;
   if (!au_array_wrap(a, handle)) {
      cuArrayDestroy(handle);
      return CUDA_ERROR_UNKNOWN;
   }
   return CUDA_SUCCESS;
}

static inline void
au_array_free(struct au_array *a, bool destroy)
{
   if (destroy && a->handle)
      AT_OK(cuArrayDestroy(a->handle));
   free(a->model);
   memset(a, 0, sizeof(*a));
}

/* A 3D copy descriptor between an array box and tightly packed host memory. */
static inline CUDA_MEMCPY3D
au_copy_array_host(const struct au_array *a, void *host, bool to_array)
{
   CUDA_MEMCPY3D p;
   memset(&p, 0, sizeof(p));
   if (to_array) {
      p.srcMemoryType = CU_MEMORYTYPE_HOST;
      p.srcHost = host;
      p.srcPitch = a->row_bytes;
      p.srcHeight = a->rows;
      p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
      p.dstArray = a->handle;
   } else {
      p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
      p.srcArray = a->handle;
      p.dstMemoryType = CU_MEMORYTYPE_HOST;
      p.dstHost = host;
      p.dstPitch = a->row_bytes;
      p.dstHeight = a->rows;
   }
   p.WidthInBytes = a->row_bytes;
   p.Height = a->rows;
   p.Depth = a->slices;
   return p;
}

/* Fills the whole array with random bytes (model too). */
static inline void
au_array_randomize(struct au_array *a)
{
   at_fill_random(a->model, au_array_bytes(a));
   CUDA_MEMCPY3D p = au_copy_array_host(a, a->model, true);
   AT_OK(cuMemcpy3D(&p));
}

/* Reads the whole array back and compares it with the model. */
static inline bool
au_array_check(const struct au_array *a, const char *what)
{
   size_t n = au_array_bytes(a);
   uint8_t *got = at_malloc(n);
   memset(got, 0xcd, n);
   CUDA_MEMCPY3D p = au_copy_array_host(a, got, false);
   AT_OK(cuMemcpy3D(&p));
   bool ok = AT_COMPARE(what, got, a->model, n);
   free(got);
   return ok;
}

/* ---- Linear memory of every kind ---- */

enum au_kind {
   AU_PAGEABLE,
   AU_PINNED,          /* cuMemAllocHost */
   AU_REGISTERED,      /* cuMemHostRegister of malloc'd memory */
   AU_DEVICE,
   AU_UNIFIED_HOST,    /* CU_MEMORYTYPE_UNIFIED naming pageable host memory */
   AU_UNIFIED_DEVICE,  /* CU_MEMORYTYPE_UNIFIED naming device memory */
   AU_KIND_COUNT,
};

static const char *const au_kind_names[] = {
   "pageable", "pinned", "registered", "device", "unified_host", "unified_device",
};

struct au_linear {
   enum au_kind kind;
   size_t size;
   uint8_t *host;
   CUdeviceptr dev;
   uint8_t *model;
};

static inline void
au_linear_alloc(struct au_linear *l, enum au_kind kind, size_t size)
{
   memset(l, 0, sizeof(*l));
   l->kind = kind;
   l->size = size;
   l->model = at_malloc(size);
   at_fill_random(l->model, size);
   switch (kind) {
   case AU_PAGEABLE:
   case AU_UNIFIED_HOST:
      l->host = at_malloc(size);
      break;
   case AU_PINNED:
      AT_OK(cuMemAllocHost((void **)&l->host, size));
      break;
   case AU_REGISTERED:
      l->host = aligned_alloc(4096, (size + 4095) / 4096 * 4096);
      AT_OK(cuMemHostRegister(l->host, (size + 4095) / 4096 * 4096, 0));
      break;
   case AU_DEVICE:
   case AU_UNIFIED_DEVICE:
      AT_OK(cuMemAlloc(&l->dev, size));
      break;
   default:
      break;
   }
   if (l->host)
      memcpy(l->host, l->model, size);
   else
      AT_OK(cuMemcpyHtoD(l->dev, l->model, size));
}

static inline void
au_linear_free(struct au_linear *l)
{
   switch (l->kind) {
   case AU_PAGEABLE:
   case AU_UNIFIED_HOST:
      free(l->host);
      break;
   case AU_PINNED:
      AT_OK(cuMemFreeHost(l->host));
      break;
   case AU_REGISTERED:
      AT_OK(cuMemHostUnregister(l->host));
      free(l->host);
      break;
   default:
      AT_OK(cuMemFree(l->dev));
      break;
   }
   free(l->model);
}

static inline bool
au_linear_check(const struct au_linear *l, const char *what)
{
   uint8_t *got = at_malloc(l->size);
   if (l->host) {
      AT_OK(cuCtxSynchronize());
      memcpy(got, l->host, l->size);
   } else {
      AT_OK(cuMemcpyDtoH(got, l->dev, l->size));
   }
   bool ok = AT_COMPARE(what, got, l->model, l->size);
   free(got);
   return ok;
}

/* One side of a copy descriptor. */
struct au_side {
   CUmemorytype type;
   const void *host;
   CUdeviceptr dev;
   CUarray array;
   size_t x, y, z, pitch, height;
};

static inline struct au_side
au_linear_side(const struct au_linear *l, size_t x, size_t y, size_t z, size_t pitch, size_t height)
{
   struct au_side s = { .x = x, .y = y, .z = z, .pitch = pitch, .height = height };
   switch (l->kind) {
   case AU_PAGEABLE: case AU_PINNED: case AU_REGISTERED:
      s.type = CU_MEMORYTYPE_HOST;
      s.host = l->host;
      break;
   case AU_DEVICE:
      s.type = CU_MEMORYTYPE_DEVICE;
      s.dev = l->dev;
      break;
   case AU_UNIFIED_HOST:
      s.type = CU_MEMORYTYPE_UNIFIED;
      s.dev = (CUdeviceptr)(uintptr_t)l->host;
      break;
   default:
      s.type = CU_MEMORYTYPE_UNIFIED;
      s.dev = l->dev;
      break;
   }
   return s;
}

static inline struct au_side
au_array_side(const struct au_array *a, size_t x, size_t y, size_t z)
{
   return (struct au_side){ .type = CU_MEMORYTYPE_ARRAY, .array = a->handle, .x = x, .y = y, .z = z };
}

static inline CUDA_MEMCPY3D
au_copy3d(const struct au_side *dst, const struct au_side *src, size_t w, size_t h, size_t d)
{
   CUDA_MEMCPY3D p;
   memset(&p, 0, sizeof(p));
   p.srcXInBytes = src->x;
   p.srcY = src->y;
   p.srcZ = src->z;
   p.srcMemoryType = src->type;
   p.srcHost = src->host;
   p.srcDevice = src->dev;
   p.srcArray = src->array;
   p.srcPitch = src->pitch;
   p.srcHeight = src->height;
   p.dstXInBytes = dst->x;
   p.dstY = dst->y;
   p.dstZ = dst->z;
   p.dstMemoryType = dst->type;
   p.dstHost = (void *)dst->host;
   p.dstDevice = dst->dev;
   p.dstArray = dst->array;
   p.dstPitch = dst->pitch;
   p.dstHeight = dst->height;
   p.WidthInBytes = w;
   p.Height = h;
   p.Depth = d;
   return p;
}

static inline CUDA_MEMCPY2D
au_copy2d(const struct au_side *dst, const struct au_side *src, size_t w, size_t h)
{
   CUDA_MEMCPY2D p;
   memset(&p, 0, sizeof(p));
   p.srcXInBytes = src->x;
   p.srcY = src->y;
   p.srcMemoryType = src->type;
   p.srcHost = src->host;
   p.srcDevice = src->dev;
   p.srcArray = src->array;
   p.srcPitch = src->pitch;
   p.dstXInBytes = dst->x;
   p.dstY = dst->y;
   p.dstMemoryType = dst->type;
   p.dstHost = (void *)dst->host;
   p.dstDevice = dst->dev;
   p.dstArray = dst->array;
   p.dstPitch = dst->pitch;
   p.WidthInBytes = w;
   p.Height = h;
   return p;
}

/* Applies a box copy to models: each model is (base, pitch, slice pitch)
 * with the box's first byte at (x, y, z). */
struct au_model {
   uint8_t *base;
   size_t pitch, slice;
   size_t x, y, z;
};

static inline void
au_model_copy(const struct au_model *dst, const struct au_model *src, size_t w, size_t h, size_t d)
{
   /* Through a copy of the source box, so an overlapping copy reads what
    * was there before (which is what cuvk gives). */
   uint8_t *tmp = at_malloc(w * h * d);
   for (size_t k = 0; k < d; k++)
      for (size_t j = 0; j < h; j++)
         memcpy(tmp + (k * h + j) * w, src->base + (src->z + k) * src->slice + (src->y + j) * src->pitch + src->x,
                w);
   for (size_t k = 0; k < d; k++)
      for (size_t j = 0; j < h; j++)
         memcpy(dst->base + (dst->z + k) * dst->slice + (dst->y + j) * dst->pitch + dst->x,
                tmp + (k * h + j) * w, w);
   free(tmp);
}

static inline struct au_model
au_array_model(const struct au_array *a, size_t x, size_t y, size_t z)
{
   return (struct au_model){ a->model, a->row_bytes, a->row_bytes * a->rows, x, y, z };
}

static inline struct au_model
au_linear_model(const struct au_linear *l, size_t x, size_t y, size_t z, size_t pitch, size_t height)
{
   return (struct au_model){ l->model, pitch, pitch * height, x, y, z };
}

#endif
