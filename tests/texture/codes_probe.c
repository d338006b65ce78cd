/*
 * codes_probe: the error codes of texture, surface and pitched-memory
 * calls whose answers cuvk chose from NVIDIA's documentation rather than
 * measured (docs/textures.md's rules, docs/api-coverage.md's pitched
 * memory rows).  One run on real CUDA settles them all; the same binary
 * runs on cuvk, where texture.codes compares its output with the codes
 * cuvk documents (codes_expected.txt).  tests/common/codes_harness.h says
 * how a probe runs and what it prints; the '#' lines of this one add the
 * device's texture limits and the pitches the allocators chose.
 *
 * Each case makes its own arrays and memory, makes its one call, and
 * everything it made is freed before the next (cuvk and CUDA answer
 * texture calls without sticky errors; the runtime's last error is
 * cleared after every case).  Cases that hand a destroyed handle to the
 * library, or a pitch or pointer that a library checking less than cuvk
 * could crash on, run forked.
 */
#include "codes_harness.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The entry points, looked up at run time ------------------------- */

#define DRIVER_CALLS(X)                                                        \
   X(cuMemAlloc)                                                               \
   X(cuMemAllocPitch)                                                          \
   X(cuMemFree)                                                                \
   X(cuMemcpy2D)                                                               \
   X(cuMemsetD2D8)                                                             \
   X(cuArray3DCreate)                                                          \
   X(cuArrayDestroy)                                                           \
   X(cuMipmappedArrayCreate)                                                   \
   X(cuMipmappedArrayDestroy)                                                  \
   X(cuTexObjectCreate)                                                        \
   X(cuTexObjectDestroy)                                                       \
   X(cuSurfObjectCreate)                                                       \
   X(cuSurfObjectDestroy)

#define RUNTIME_CALLS(X)                                                       \
   X(cudaMalloc)                                                               \
   X(cudaMallocPitch)                                                          \
   X(cudaMalloc3D)                                                             \
   X(cudaMallocArray)                                                          \
   X(cudaFreeArray)                                                            \
   X(cudaMemcpy2D)                                                             \
   X(cudaMemcpy2DAsync)                                                        \
   X(cudaMemcpy2DToArray)                                                      \
   X(cudaMemcpy2DFromArray)                                                    \
   X(cudaMemcpy2DFromArrayAsync)                                               \
   X(cudaMemcpy2DToArrayAsync)                                                 \
   X(cudaMemcpyToArray)                                                        \
   X(cudaMemcpyFromArray)                                                      \
   X(cudaMemcpyFromArrayAsync)                                                 \
   X(cudaMemset2D)                                                             \
   X(cudaMemset3D)                                                             \
   X(cudaMemset3DAsync)                                                        \
   X(cudaDeviceSynchronize)                                                    \
   X(cudaCreateTextureObject)                                                  \
   X(cudaDestroyTextureObject)                                                 \
   X(cudaCreateSurfaceObject)                                                  \
   X(cudaDestroySurfaceObject)

/* cudaMemcpyToArray and its twins are deprecated, and probed all the same. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
DRIVER_CALLS(CODES_STATIC_POINTER)
RUNTIME_CALLS(CODES_STATIC_POINTER)
#pragma GCC diagnostic pop

static void
look_up(void)
{
   DRIVER_CALLS(CODES_LOOK_UP_DRIVER)
   RUNTIME_CALLS(CODES_LOOK_UP_RUNTIME)
}

/* ---- Set-up that must work, and what each case made ------------------- */

#define MAX_HELD 16
static struct {
   CUarray arrays[MAX_HELD];
   CUmipmappedArray mipmaps[MAX_HELD];
   CUdeviceptr memory[MAX_HELD];
   CUtexObject textures[MAX_HELD];
   CUsurfObject surfaces[MAX_HELD];
   void *rt_memory[MAX_HELD];
   cudaArray_t rt_arrays[MAX_HELD];
   cudaTextureObject_t rt_textures[MAX_HELD];
   cudaSurfaceObject_t rt_surfaces[MAX_HELD];
   unsigned n_arrays, n_mipmaps, n_memory, n_textures, n_surfaces;
   unsigned n_rt_memory, n_rt_arrays, n_rt_textures, n_rt_surfaces;
} held;

#define HOLD(list, count, value) CODES_HOLD(held.list, held.count, value)

/* Frees what the case made, newest first (objects before their arrays). */
static void
release_held(void)
{
   while (held.n_textures)
      CALL(cuTexObjectDestroy)(held.textures[--held.n_textures]);
   while (held.n_surfaces)
      CALL(cuSurfObjectDestroy)(held.surfaces[--held.n_surfaces]);
   while (held.n_rt_textures)
      CALL(cudaDestroyTextureObject)(held.rt_textures[--held.n_rt_textures]);
   while (held.n_rt_surfaces)
      CALL(cudaDestroySurfaceObject)(held.rt_surfaces[--held.n_rt_surfaces]);
   while (held.n_arrays)
      CALL(cuArrayDestroy)(held.arrays[--held.n_arrays]);
   while (held.n_mipmaps)
      CALL(cuMipmappedArrayDestroy)(held.mipmaps[--held.n_mipmaps]);
   while (held.n_memory)
      CALL(cuMemFree)(held.memory[--held.n_memory]);
   while (held.n_rt_arrays)
      CALL(cudaFreeArray)(held.rt_arrays[--held.n_rt_arrays]);
   while (held.n_rt_memory)
      CALL(cudaFree)(held.rt_memory[--held.n_rt_memory]);
}

static CUarray
make_array(size_t w, size_t h, size_t d, CUarray_format format, unsigned channels, unsigned flags)
{
   CUDA_ARRAY3D_DESCRIPTOR desc = { w, h, d, format, channels, flags };
   CUarray a = NULL;
   NEED(CALL(cuArray3DCreate)(&a, &desc));
   HOLD(arrays, n_arrays, a);
   return a;
}

static CUmipmappedArray
make_mipmap(size_t w, size_t h, CUarray_format format, unsigned levels)
{
   CUDA_ARRAY3D_DESCRIPTOR desc = { w, h, 0, format, 1, 0 };
   CUmipmappedArray m = NULL;
   NEED(CALL(cuMipmappedArrayCreate)(&m, &desc, levels));
   HOLD(mipmaps, n_mipmaps, m);
   return m;
}

/* One MiB of device memory: room for every memory texture below. */
static CUdeviceptr
make_memory(void)
{
   CUdeviceptr p = 0;
   NEED(CALL(cuMemAlloc)(&p, 1 << 20));
   HOLD(memory, n_memory, p);
   return p;
}

static void *
make_rt_memory(size_t size)
{
   void *p = NULL;
   NEED(CALL(cudaMalloc)(&p, size));
   HOLD(rt_memory, n_rt_memory, p);
   return p;
}

static cudaArray_t
make_rt_array(size_t w, size_t h, unsigned flags)
{
   struct cudaChannelFormatDesc desc = { 8, 0, 0, 0, cudaChannelFormatKindUnsigned };
   cudaArray_t a = NULL;
   NEED(CALL(cudaMallocArray)(&a, &desc, w, h, flags));
   HOLD(rt_arrays, n_rt_arrays, a);
   return a;
}

static int
attribute(CUdevice_attribute attr)
{
   CUdevice dev;
   int value = 0;
   NEED(CALL(cuDeviceGet)(&dev, 0));
   NEED(CALL(cuDeviceGetAttribute)(&value, attr, dev));
   return value;
}

/* ---- Descriptions ------------------------------------------------------ */

/* A resource description of type, everything else zero. */
static CUDA_RESOURCE_DESC
res_of(CUresourcetype type)
{
   CUDA_RESOURCE_DESC rd;
   memset(&rd, 0, sizeof(rd));
   rd.resType = type;
   return rd;
}

static CUDA_RESOURCE_DESC
array_res(CUarray a)
{
   CUDA_RESOURCE_DESC rd = res_of(CU_RESOURCE_TYPE_ARRAY);
   rd.res.array.hArray = a;
   return rd;
}

static CUDA_RESOURCE_DESC
mipmap_res(CUmipmappedArray m)
{
   CUDA_RESOURCE_DESC rd = res_of(CU_RESOURCE_TYPE_MIPMAPPED_ARRAY);
   rd.res.mipmap.hMipmappedArray = m;
   return rd;
}

static CUDA_RESOURCE_DESC
linear_res(CUdeviceptr p, CUarray_format format, unsigned channels, size_t bytes)
{
   CUDA_RESOURCE_DESC rd = res_of(CU_RESOURCE_TYPE_LINEAR);
   rd.res.linear.devPtr = p;
   rd.res.linear.format = format;
   rd.res.linear.numChannels = channels;
   rd.res.linear.sizeInBytes = bytes;
   return rd;
}

/* Pitched memory of 16 x 16 texels, its pitch the device's pitch
 * alignment times as many as a row of 16 four-channel floats needs. */
static CUDA_RESOURCE_DESC
pitch_res(CUdeviceptr p, CUarray_format format, unsigned channels)
{
   size_t align = (size_t)attribute(CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT);
   CUDA_RESOURCE_DESC rd = res_of(CU_RESOURCE_TYPE_PITCH2D);
   rd.res.pitch2D.devPtr = p;
   rd.res.pitch2D.format = format;
   rd.res.pitch2D.numChannels = channels;
   rd.res.pitch2D.width = 16;
   rd.res.pitch2D.height = 16;
   rd.res.pitch2D.pitchInBytes = (16 * 16 + align - 1) / align * align;
   return rd;
}

/* The arrays most cases take: 8 x 8 one-channel floats, depth d (layers
 * or faces) and flags as given. */
static CUDA_RESOURCE_DESC
float_array_res(size_t d, unsigned flags)
{
   return array_res(make_array(8, 8, d, CU_AD_FORMAT_FLOAT, 1, flags));
}

/* The mipmapped array most cases take: 16 x 16 floats, 3 levels. */
static CUDA_RESOURCE_DESC
float_mipmap_res(void)
{
   return mipmap_res(make_mipmap(16, 16, CU_AD_FORMAT_FLOAT, 3));
}

/* The handle of an 8 x 8 float array made and destroyed again: the case
 * hands the library a stale handle, so nothing is held. */
static CUarray
destroyed_array(unsigned flags)
{
   CUDA_ARRAY3D_DESCRIPTOR desc = { 8, 8, 0, CU_AD_FORMAT_FLOAT, 1, flags };
   CUarray a = NULL;
   NEED(CALL(cuArray3DCreate)(&a, &desc));
   NEED(CALL(cuArrayDestroy)(a));
   return a;
}

static CUDA_TEXTURE_DESC
tex_desc(CUfilter_mode filter, unsigned flags)
{
   CUDA_TEXTURE_DESC td;
   memset(&td, 0, sizeof(td));
   for (int i = 0; i < 3; i++)
      td.addressMode[i] = CU_TR_ADDRESS_MODE_CLAMP;
   td.filterMode = filter;
   td.flags = flags;
   return td;
}

static CUDA_RESOURCE_VIEW_DESC
view_desc(CUresourceViewFormat format, size_t width, size_t height)
{
   CUDA_RESOURCE_VIEW_DESC vd;
   memset(&vd, 0, sizeof(vd));
   vd.format = format;
   vd.width = width;
   vd.height = height;
   return vd;
}

/* The case's call: an object made is held so that it is destroyed after. */
static int
tex_create(const CUDA_RESOURCE_DESC *rd, const CUDA_TEXTURE_DESC *td, const CUDA_RESOURCE_VIEW_DESC *vd)
{
   CUtexObject t = 0;
   CUresult res = CALL(cuTexObjectCreate)(&t, rd, td, vd);
   if (res == CUDA_SUCCESS)
      HOLD(textures, n_textures, t);
   return (int)res;
}

/* tex_create of rd with tex_desc(filter, flags) and no view: most cases. */
static int
tex_create_plain(CUDA_RESOURCE_DESC rd, CUfilter_mode filter, unsigned flags)
{
   CUDA_TEXTURE_DESC td = tex_desc(filter, flags);
   return tex_create(&rd, &td, NULL);
}

static int
surf_create(CUDA_RESOURCE_DESC rd)
{
   CUsurfObject s = 0;
   CUresult res = CALL(cuSurfObjectCreate)(&s, &rd);
   if (res == CUDA_SUCCESS)
      HOLD(surfaces, n_surfaces, s);
   return (int)res;
}

/* ---- Driver cases: texture objects over arrays ------------------------- */

static int tex_array_ok(void) { return tex_create_plain(float_array_res(0, 0), CU_TR_FILTER_MODE_POINT, 0); }
static int tex_array_null(void) { return tex_create_plain(array_res(NULL), CU_TR_FILTER_MODE_POINT, 0); }
static int tex_array_destroyed(void)
{
   return tex_create_plain(array_res(destroyed_array(0)), CU_TR_FILTER_MODE_POINT, 0);
}

static int
tex_mipmap_destroyed(void)
{
   CUDA_ARRAY3D_DESCRIPTOR desc = { 8, 8, 0, CU_AD_FORMAT_FLOAT, 1, 0 };
   CUmipmappedArray m = NULL;
   NEED(CALL(cuMipmappedArrayCreate)(&m, &desc, 2));
   NEED(CALL(cuMipmappedArrayDestroy)(m));
   return tex_create_plain(mipmap_res(m), CU_TR_FILTER_MODE_POINT, CU_TRSF_NORMALIZED_COORDINATES);
}

static int
tex_array_res_flags(void)
{
   CUDA_RESOURCE_DESC rd = float_array_res(0, 0);
   rd.flags = 1;
   return tex_create_plain(rd, CU_TR_FILTER_MODE_POINT, 0);
}

static int
tex_array_bad_address_mode(void)
{
   CUDA_RESOURCE_DESC rd = float_array_res(0, 0);
   CUDA_TEXTURE_DESC td = tex_desc(CU_TR_FILTER_MODE_POINT, 0);
   td.addressMode[1] = (CUaddress_mode)7;
   return tex_create(&rd, &td, NULL);
}

static int tex_array_bad_filter_mode(void) { return tex_create_plain(float_array_res(0, 0), (CUfilter_mode)2, 0); }

/* 0x80 is the bit after CU_TRSF_SEAMLESS_CUBEMAP, the last one defined. */
static int tex_array_unknown_flag(void)
{
   return tex_create_plain(float_array_res(0, 0), CU_TR_FILTER_MODE_POINT, 0x80);
}

/* Seamless cubemap filtering of 8 x 8 floats of depth d and flags. */
static int
tex_seamless(size_t d, unsigned flags)
{
   return tex_create_plain(float_array_res(d, flags), CU_TR_FILTER_MODE_POINT,
                           CU_TRSF_SEAMLESS_CUBEMAP | CU_TRSF_NORMALIZED_COORDINATES);
}
static int tex_array_seamless(void) { return tex_seamless(0, 0); }
static int tex_array_layered_seamless(void) { return tex_seamless(6, CUDA_ARRAY3D_LAYERED); }
static int tex_cube_seamless_ok(void) { return tex_seamless(6, CUDA_ARRAY3D_CUBEMAP); }

static int
tex_layered_cube(void)
{
   return tex_create_plain(float_array_res(12, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED), CU_TR_FILTER_MODE_POINT,
                           CU_TRSF_NORMALIZED_COORDINATES);
}

/* An 8 x 8 array of format sampled with filter and flags: point sampling
 * in CUDA's default read mode (8/16-bit integers as normalised floats),
 * linear filtering of integers read as the element type (flag
 * READ_AS_INTEGER) or as normalised floats. */
static int
tex_array(CUarray_format format, unsigned channels, CUfilter_mode filter, unsigned flags)
{
   return tex_create_plain(array_res(make_array(8, 8, 0, format, channels, 0)), filter, flags);
}
static int tex_array_u8_point_ok(void) { return tex_array(CU_AD_FORMAT_UNSIGNED_INT8, 1, CU_TR_FILTER_MODE_POINT, 0); }
static int tex_array_s8x2_point_ok(void) { return tex_array(CU_AD_FORMAT_SIGNED_INT8, 2, CU_TR_FILTER_MODE_POINT, 0); }
static int tex_array_s16_point_ok(void) { return tex_array(CU_AD_FORMAT_SIGNED_INT16, 1, CU_TR_FILTER_MODE_POINT, 0); }
static int tex_array_u8_linear(void) { return tex_array(CU_AD_FORMAT_UNSIGNED_INT8, 1, CU_TR_FILTER_MODE_LINEAR, 0); }
static int tex_array_u8_linear_int(void)
{
   return tex_array(CU_AD_FORMAT_UNSIGNED_INT8, 1, CU_TR_FILTER_MODE_LINEAR, CU_TRSF_READ_AS_INTEGER);
}
static int tex_array_u32_linear(void) { return tex_array(CU_AD_FORMAT_UNSIGNED_INT32, 1, CU_TR_FILTER_MODE_LINEAR, 0); }
static int tex_array_f32_linear_ok(void) { return tex_array(CU_AD_FORMAT_FLOAT, 1, CU_TR_FILTER_MODE_LINEAR, 0); }
static int tex_array_101010_2_ok(void)
{
   return tex_array(CU_AD_FORMAT_UNORM_INT_101010_2, 4, CU_TR_FILTER_MODE_POINT, 0);
}

/* A border colour that is none of Vulkan's three fixed ones, over rd. */
static int
tex_border_colour(CUDA_RESOURCE_DESC rd)
{
   CUDA_TEXTURE_DESC td = tex_desc(CU_TR_FILTER_MODE_POINT, 0);
   td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_BORDER;
   td.borderColor[0] = 0.5f;
   return tex_create(&rd, &td, NULL);
}
static int tex_array_border_colour(void) { return tex_border_colour(float_array_res(0, 0)); }

static int
tex_mipmap_ok(void)
{
   return tex_create_plain(float_mipmap_res(), CU_TR_FILTER_MODE_POINT, CU_TRSF_NORMALIZED_COORDINATES);
}
static int tex_mipmap_unnormalised(void) { return tex_create_plain(float_mipmap_res(), CU_TR_FILTER_MODE_POINT, 0); }

/* Linear mipmap filtering of 32-bit integers, the array of one level. */
static int
tex_mipmap_u32_linear_mip(void)
{
   CUDA_RESOURCE_DESC rd = mipmap_res(make_mipmap(16, 16, CU_AD_FORMAT_UNSIGNED_INT32, 1));
   CUDA_TEXTURE_DESC td = tex_desc(CU_TR_FILTER_MODE_POINT, CU_TRSF_NORMALIZED_COORDINATES);
   td.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
   return tex_create(&rd, &td, NULL);
}

static int
tex_mipmap_nan(int which)
{
   CUDA_RESOURCE_DESC rd = float_mipmap_res();
   CUDA_TEXTURE_DESC td = tex_desc(CU_TR_FILTER_MODE_POINT, CU_TRSF_NORMALIZED_COORDINATES);
   td.maxMipmapLevelClamp = 2;
   if (which == 0)
      td.mipmapLevelBias = NAN;
   else if (which == 1)
      td.minMipmapLevelClamp = NAN;
   else
      td.maxMipmapLevelClamp = NAN;
   return tex_create(&rd, &td, NULL);
}
static int tex_mipmap_nan_bias(void) { return tex_mipmap_nan(0); }
static int tex_mipmap_nan_min_clamp(void) { return tex_mipmap_nan(1); }
static int tex_mipmap_nan_max_clamp(void) { return tex_mipmap_nan(2); }

/* Resource views of a 16x16 float mipmapped array of 3 levels. */
static int
tex_view(int which)
{
   CUDA_RESOURCE_DESC rd = float_mipmap_res();
   CUDA_TEXTURE_DESC td = tex_desc(CU_TR_FILTER_MODE_POINT, CU_TRSF_NORMALIZED_COORDINATES);
   CUDA_RESOURCE_VIEW_DESC vd = view_desc(CU_RES_VIEW_FORMAT_SINT_1X32, 16, 16);
   vd.lastMipmapLevel = 2;
   if (which == 1)
      vd.format = CU_RES_VIEW_FORMAT_FLOAT_2X32;
   else if (which == 2)
      vd.lastMipmapLevel = 3;
   else if (which == 3)
      vd.width = 8;
   else if (which == 4)
      vd.format = (CUresourceViewFormat)0x7f;
   else if (which == 5)
      vd.lastLayer = 1;
   return tex_create(&rd, &td, &vd);
}
static int tex_view_valid(void) { return tex_view(0); }
static int tex_view_texel_size(void) { return tex_view(1); }
static int tex_view_levels_past(void) { return tex_view(2); }
static int tex_view_width(void) { return tex_view(3); }
static int tex_view_bad_format(void) { return tex_view(4); }
static int tex_view_layers_past(void) { return tex_view(5); }

/* A view of one-channel floats, width x height texels, over rd. */
static int
tex_float_view(CUDA_RESOURCE_DESC rd, size_t width, size_t height)
{
   CUDA_TEXTURE_DESC td = tex_desc(CU_TR_FILTER_MODE_POINT, 0);
   CUDA_RESOURCE_VIEW_DESC vd = view_desc(CU_RES_VIEW_FORMAT_FLOAT_1X32, width, height);
   return tex_create(&rd, &td, &vd);
}

/* ---- Driver cases: texture objects over linear memory ------------------ */

static int
tex_linear(CUarray_format format, unsigned channels, CUfilter_mode filter, unsigned flags)
{
   return tex_create_plain(linear_res(make_memory(), format, channels, 4096), filter, flags);
}

#define LINEAR_FILTER_CASES(X)                                                 \
   X(u8, CU_AD_FORMAT_UNSIGNED_INT8)                                           \
   X(s8, CU_AD_FORMAT_SIGNED_INT8)                                             \
   X(u16, CU_AD_FORMAT_UNSIGNED_INT16)                                         \
   X(s16, CU_AD_FORMAT_SIGNED_INT16)                                           \
   X(u32, CU_AD_FORMAT_UNSIGNED_INT32)                                         \
   X(s32, CU_AD_FORMAT_SIGNED_INT32)

#define LINEAR_FILTER_FUNCTIONS(suffix, format)                                \
   static int tex_linear_##suffix##_linear(void)                               \
   {                                                                           \
      return tex_linear(format, 1, CU_TR_FILTER_MODE_LINEAR, 0);               \
   }                                                                           \
   static int tex_linear_##suffix##_linear_int(void)                           \
   {                                                                           \
      return tex_linear(format, 1, CU_TR_FILTER_MODE_LINEAR, CU_TRSF_READ_AS_INTEGER); \
   }                                                                           \
   static int tex_linear_##suffix##_point_int(void)                            \
   {                                                                           \
      return tex_linear(format, 1, CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER); \
   }
LINEAR_FILTER_CASES(LINEAR_FILTER_FUNCTIONS)
#undef LINEAR_FILTER_FUNCTIONS

static int tex_linear_f32_ok(void) { return tex_linear(CU_AD_FORMAT_FLOAT, 1, CU_TR_FILTER_MODE_POINT, 0); }
static int tex_linear_f32_linear_ok(void) { return tex_linear(CU_AD_FORMAT_FLOAT, 4, CU_TR_FILTER_MODE_LINEAR, 0); }
static int tex_linear_seamless(void)
{
   return tex_linear(CU_AD_FORMAT_FLOAT, 1, CU_TR_FILTER_MODE_POINT, CU_TRSF_SEAMLESS_CUBEMAP);
}
static int tex_linear_101010_2(void)
{
   return tex_linear(CU_AD_FORMAT_UNORM_INT_101010_2, 4, CU_TR_FILTER_MODE_POINT, 0);
}
static int tex_linear_bc1(void) { return tex_linear(CU_AD_FORMAT_BC1_UNORM, 4, CU_TR_FILTER_MODE_POINT, 0); }
static int tex_linear_three_channels(void) { return tex_linear(CU_AD_FORMAT_FLOAT, 3, CU_TR_FILTER_MODE_POINT, 0); }

static int tex_linear_view(void)
{
   return tex_float_view(linear_res(make_memory(), CU_AD_FORMAT_FLOAT, 1, 4096), 1024, 0);
}

static int
tex_linear_geometry(int which)
{
   CUdeviceptr p = make_memory();
   size_t align = (size_t)attribute(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT);
   size_t max = (size_t)attribute(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH);
   CUDA_RESOURCE_DESC rd = linear_res(p, CU_AD_FORMAT_FLOAT, 1, 4096);
   if (which == 0)
      rd.res.linear.devPtr = 0;
   else if (which == 1)
      rd.res.linear.devPtr = p + align / 2;
   else if (which == 2)
      rd.res.linear.sizeInBytes = 0;
   else if (which == 3)
      rd.res.linear.sizeInBytes = 2; /* less than a texel */
   else if (which == 4)
      rd.res.linear.sizeInBytes = max * 4; /* the largest, past the allocation */
   else if (which == 5)
      rd.res.linear.sizeInBytes = (max + 1) * 4;
   else if (which == 6)
      rd.res.linear.sizeInBytes = 4094; /* not a whole number of texels */
   else if (which == 7)
      rd.res.linear.sizeInBytes = (1 << 20) + 4096; /* past the allocation */
   return tex_create_plain(rd, CU_TR_FILTER_MODE_POINT, 0);
}
static int tex_linear_null_ptr(void) { return tex_linear_geometry(0); }
static int tex_linear_unaligned_ptr(void) { return tex_linear_geometry(1); }
static int tex_linear_size0(void) { return tex_linear_geometry(2); }
static int tex_linear_size_under_texel(void) { return tex_linear_geometry(3); }
static int tex_linear_max_width(void) { return tex_linear_geometry(4); }
static int tex_linear_past_max_width(void) { return tex_linear_geometry(5); }
static int tex_linear_partial_texel(void) { return tex_linear_geometry(6); }
static int tex_linear_past_allocation(void) { return tex_linear_geometry(7); }

/* ---- Driver cases: texture objects over pitched memory ----------------- */

static int
tex_pitch(CUarray_format format, unsigned channels, CUfilter_mode filter, unsigned flags)
{
   return tex_create_plain(pitch_res(make_memory(), format, channels), filter, flags);
}
static int tex_pitch_f32_ok(void) { return tex_pitch(CU_AD_FORMAT_FLOAT, 1, CU_TR_FILTER_MODE_POINT, 0); }
static int tex_pitch_f32_linear_ok(void) { return tex_pitch(CU_AD_FORMAT_FLOAT, 4, CU_TR_FILTER_MODE_LINEAR, 0); }
static int tex_pitch_u8_linear(void) { return tex_pitch(CU_AD_FORMAT_UNSIGNED_INT8, 1, CU_TR_FILTER_MODE_LINEAR, 0); }
static int tex_pitch_u8_linear_int(void)
{
   return tex_pitch(CU_AD_FORMAT_UNSIGNED_INT8, 1, CU_TR_FILTER_MODE_LINEAR, CU_TRSF_READ_AS_INTEGER);
}
static int tex_pitch_u16_linear_int(void)
{
   return tex_pitch(CU_AD_FORMAT_UNSIGNED_INT16, 1, CU_TR_FILTER_MODE_LINEAR, CU_TRSF_READ_AS_INTEGER);
}
static int tex_pitch_u32_linear(void) { return tex_pitch(CU_AD_FORMAT_UNSIGNED_INT32, 1, CU_TR_FILTER_MODE_LINEAR, 0); }
static int tex_pitch_s32_linear_int(void)
{
   return tex_pitch(CU_AD_FORMAT_SIGNED_INT32, 1, CU_TR_FILTER_MODE_LINEAR, CU_TRSF_READ_AS_INTEGER);
}
static int tex_pitch_seamless(void)
{
   return tex_pitch(CU_AD_FORMAT_FLOAT, 1, CU_TR_FILTER_MODE_POINT,
                    CU_TRSF_SEAMLESS_CUBEMAP | CU_TRSF_NORMALIZED_COORDINATES);
}
static int tex_pitch_101010_2(void) { return tex_pitch(CU_AD_FORMAT_UNORM_INT_101010_2, 4, CU_TR_FILTER_MODE_POINT, 0); }
static int tex_pitch_bc1(void) { return tex_pitch(CU_AD_FORMAT_BC1_UNORM, 4, CU_TR_FILTER_MODE_POINT, 0); }

static int tex_pitch_border_colour(void) { return tex_border_colour(pitch_res(make_memory(), CU_AD_FORMAT_FLOAT, 1)); }
static int tex_pitch_view(void) { return tex_float_view(pitch_res(make_memory(), CU_AD_FORMAT_FLOAT, 1), 16, 16); }

static int
tex_pitch_geometry(int which)
{
   CUdeviceptr p = make_memory();
   size_t align = (size_t)attribute(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT);
   size_t pitch_align = (size_t)attribute(CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT);
   CUDA_RESOURCE_DESC rd = pitch_res(p, CU_AD_FORMAT_FLOAT, 1);
   if (which == 0) {
      rd.res.pitch2D.devPtr = 0;
   } else if (which == 1) {
      rd.res.pitch2D.devPtr = p + align / 2;
   } else if (which == 2) {
      rd.res.pitch2D.width = 0;
   } else if (which == 3) {
      rd.res.pitch2D.height = 0;
   } else if (which == 4) {
      /* Room for the row, not a multiple of the alignment. */
      rd.res.pitch2D.pitchInBytes = 2 * pitch_align + pitch_align / 2;
   } else if (which == 5) {
      /* On the alignment, less than a row. */
      rd.res.pitch2D.pitchInBytes = pitch_align;
      rd.res.pitch2D.width = pitch_align / 4 + 1;
   } else if (which == 6) {
      size_t max = (size_t)attribute(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH);
      rd.res.pitch2D.pitchInBytes = (max / pitch_align + 1) * pitch_align;
      rd.res.pitch2D.height = 1;
   } else if (which == 7) {
      size_t max = (size_t)attribute(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH);
      rd.res.pitch2D.width = max + 1;
      rd.res.pitch2D.height = 1;
      rd.res.pitch2D.pitchInBytes = ((max + 1) * 4 + pitch_align - 1) / pitch_align * pitch_align;
   } else if (which == 8) {
      size_t max = (size_t)attribute(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT);
      rd.res.pitch2D.height = max + 1;
   } else if (which == 9) {
      rd.res.pitch2D.height = (1 << 20) / rd.res.pitch2D.pitchInBytes + 1; /* past the allocation */
   }
   return tex_create_plain(rd, CU_TR_FILTER_MODE_POINT, 0);
}
static int tex_pitch_null_ptr(void) { return tex_pitch_geometry(0); }
static int tex_pitch_unaligned_ptr(void) { return tex_pitch_geometry(1); }
static int tex_pitch_width0(void) { return tex_pitch_geometry(2); }
static int tex_pitch_height0(void) { return tex_pitch_geometry(3); }
static int tex_pitch_unaligned_pitch(void) { return tex_pitch_geometry(4); }
static int tex_pitch_pitch_under_row(void) { return tex_pitch_geometry(5); }
static int tex_pitch_past_max_pitch(void) { return tex_pitch_geometry(6); }
static int tex_pitch_past_max_width(void) { return tex_pitch_geometry(7); }
static int tex_pitch_past_max_height(void) { return tex_pitch_geometry(8); }
static int tex_pitch_past_allocation(void) { return tex_pitch_geometry(9); }

/* ---- Driver cases: surface objects ------------------------------------- */

static int surf_array_ok(void) { return surf_create(float_array_res(0, CUDA_ARRAY3D_SURFACE_LDST)); }
static int surf_array_destroyed(void) { return surf_create(array_res(destroyed_array(CUDA_ARRAY3D_SURFACE_LDST))); }
static int surf_array_null(void) { return surf_create(array_res(NULL)); }
static int surf_array_no_ldst(void) { return surf_create(float_array_res(0, 0)); }

static int
surf_array_res_flags(void)
{
   CUDA_RESOURCE_DESC rd = float_array_res(0, CUDA_ARRAY3D_SURFACE_LDST);
   rd.flags = 2;
   return surf_create(rd);
}

static int surf_linear(void) { return surf_create(linear_res(make_memory(), CU_AD_FORMAT_FLOAT, 1, 4096)); }
static int surf_pitch(void) { return surf_create(pitch_res(make_memory(), CU_AD_FORMAT_FLOAT, 1)); }

static int
surf_mipmap(void)
{
   CUDA_ARRAY3D_DESCRIPTOR desc = { 16, 16, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SURFACE_LDST };
   CUmipmappedArray m = NULL;
   NEED(CALL(cuMipmappedArrayCreate)(&m, &desc, 2));
   HOLD(mipmaps, n_mipmaps, m);
   return surf_create(mipmap_res(m));
}

/* ---- Driver cases: pitched memory -------------------------------------- */

static int
alloc_pitch(size_t width, size_t height, unsigned element)
{
   CUdeviceptr p = 0;
   size_t pitch = 0;
   CUresult res = CALL(cuMemAllocPitch)(&p, &pitch, width, height, element);
   if (res == CUDA_SUCCESS && p)
      HOLD(memory, n_memory, p);
   return (int)res;
}
static int mem_alloc_pitch_ok(void) { return alloc_pitch(37, 5, 4); }
static int mem_alloc_pitch_element3(void) { return alloc_pitch(37, 5, 3); }
static int mem_alloc_pitch_element32(void) { return alloc_pitch(37, 5, 32); }
static int mem_alloc_pitch_width0(void) { return alloc_pitch(0, 5, 4); }
static int mem_alloc_pitch_height0(void) { return alloc_pitch(37, 0, 4); }

static int
mem_alloc_pitch_null(void)
{
   size_t pitch;
   return (int)CALL(cuMemAllocPitch)(NULL, &pitch, 37, 5, 4);
}

static int
mem_copy_2d(int which)
{
   CUdeviceptr d = make_memory();
   static unsigned char host[4096];
   CUDA_MEMCPY2D c;
   memset(&c, 0, sizeof(c));
   c.srcMemoryType = CU_MEMORYTYPE_HOST;
   c.srcHost = host;
   c.srcPitch = 64;
   c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
   c.dstDevice = d;
   c.dstPitch = 512;
   c.WidthInBytes = 64;
   c.Height = 4;
   if (which == 1)
      c.srcPitch = 32;
   else if (which == 2)
      c.dstPitch = 32;
   return (int)CALL(cuMemcpy2D)(&c);
}
static int mem_copy_2d_ok(void) { return mem_copy_2d(0); }
static int mem_copy_2d_src_pitch_under_width(void) { return mem_copy_2d(1); }
static int mem_copy_2d_dst_pitch_under_width(void) { return mem_copy_2d(2); }

static int mem_memset_d2d8_ok(void) { return (int)CALL(cuMemsetD2D8)(make_memory(), 512, 7, 64, 4); }
static int mem_memset_d2d8_pitch_under_width(void) { return (int)CALL(cuMemsetD2D8)(make_memory(), 32, 7, 64, 4); }

/* ---- Runtime cases: pitched memory ------------------------------------- */

static int
rt_malloc_pitch(size_t width, size_t height, bool null_ptr, bool null_pitch)
{
   void *p = NULL;
   size_t pitch = 0;
   cudaError_t err = CALL(cudaMallocPitch)(null_ptr ? NULL : &p, null_pitch ? NULL : &pitch, width, height);
   if (err == cudaSuccess && p)
      HOLD(rt_memory, n_rt_memory, p);
   if (err == cudaSuccess && (width == 0 || height == 0))
      printf("# %s: pointer %s, pitch %zu\n", codes_running, p ? "not NULL" : "NULL", pitch);
   return (int)err;
}
static int rt_malloc_pitch_ok(void) { return rt_malloc_pitch(37, 5, false, false); }
static int rt_malloc_pitch_width0(void) { return rt_malloc_pitch(0, 5, false, false); }
static int rt_malloc_pitch_height0(void) { return rt_malloc_pitch(37, 0, false, false); }
static int rt_malloc_pitch_null_ptr(void) { return rt_malloc_pitch(37, 5, true, false); }
static int rt_malloc_pitch_null_pitch(void) { return rt_malloc_pitch(37, 5, false, true); }

static int
rt_malloc_3d(struct cudaExtent e, bool null)
{
   struct cudaPitchedPtr p;
   memset(&p, 0, sizeof(p));
   cudaError_t err = CALL(cudaMalloc3D)(null ? NULL : &p, e);
   if (err == cudaSuccess && p.ptr)
      HOLD(rt_memory, n_rt_memory, p.ptr);
   if (err == cudaSuccess && !null && (e.width == 0 || e.height == 0 || e.depth == 0))
      printf("# %s: pointer %s, pitch %zu, xsize %zu, ysize %zu\n", codes_running, p.ptr ? "not NULL" : "NULL", p.pitch,
             p.xsize, p.ysize);
   return (int)err;
}
static int rt_malloc_3d_ok(void) { return rt_malloc_3d((struct cudaExtent){ 100, 9, 5 }, false); }
static int rt_malloc_3d_null(void) { return rt_malloc_3d((struct cudaExtent){ 1, 1, 1 }, true); }
static int rt_malloc_3d_depth0(void) { return rt_malloc_3d((struct cudaExtent){ 100, 9, 0 }, false); }

/* A pitched allocation of 64 x 8 bytes and a 64 x 8 array of uchar, for
 * the copies. */
static void *
rt_pitched(size_t *pitch)
{
   void *d = NULL;
   NEED(CALL(cudaMallocPitch)(&d, pitch, 64, 8));
   HOLD(rt_memory, n_rt_memory, d);
   return d;
}

static unsigned char rt_host[8192];

static int
rt_copy(int which)
{
   size_t pitch = 0;
   void *d = rt_pitched(&pitch);
   cudaArray_t arr = make_rt_array(64, 8, 0);
   unsigned char *host = rt_host;
   switch (which) {
   case 0: return (int)CALL(cudaMemcpy2D)(d, pitch, host, 64, 64, 8, cudaMemcpyHostToDevice);
   case 1: return (int)CALL(cudaMemcpy2D)(d, 32, host, 64, 64, 2, cudaMemcpyHostToDevice);
   case 2: return (int)CALL(cudaMemcpy2D)(host, 64, d, 32, 64, 2, cudaMemcpyDeviceToHost);
   case 3: return (int)CALL(cudaMemcpy2DAsync)(d, pitch, host, 10, 64, 2, cudaMemcpyHostToDevice, 0);
   case 4: return (int)CALL(cudaMemcpy2DToArray)(arr, 0, 0, host, 16, 32, 2, cudaMemcpyHostToDevice);
   case 5: return (int)CALL(cudaMemcpy2DFromArrayAsync)(host, 16, arr, 0, 0, 32, 2, cudaMemcpyDeviceToHost, 0);
   case 6: return (int)CALL(cudaMemcpy2D)(d, pitch, host, (size_t)1 << 40, 64, 2, cudaMemcpyHostToDevice);
   case 7: return (int)CALL(cudaMemcpy2D)(d, pitch, host, 64, 64, 2, (enum cudaMemcpyKind)7);
   case 8: return (int)CALL(cudaMemcpy2DAsync)(d, pitch, host, 64, 64, 2, (enum cudaMemcpyKind)-1, 0);
   case 9: return (int)CALL(cudaMemcpy2DToArrayAsync)(arr, 0, 0, host, 64, 64, 2, (enum cudaMemcpyKind)5, 0);
   case 10: return (int)CALL(cudaMemcpyToArray)(arr, 0, 0, host, 64, (enum cudaMemcpyKind)9);
   case 11: return (int)CALL(cudaMemcpyFromArrayAsync)(host, arr, 0, 0, 64, (enum cudaMemcpyKind)9, 0);
   case 12: return (int)CALL(cudaMemcpy2D)(NULL, pitch, host, 64, 64, 2, cudaMemcpyHostToDevice);
   case 13: return (int)CALL(cudaMemcpy2D)(d, pitch, NULL, 64, 64, 2, cudaMemcpyDefault);
   case 14: return (int)CALL(cudaMemcpy2D)(host, 64, host + 1024, 64, 64, 2, cudaMemcpyDeviceToHost);
   case 15: return (int)CALL(cudaMemcpy2D)(d, pitch, host, 64, 64, 9, cudaMemcpyHostToDevice);
   case 16: return (int)CALL(cudaMemcpyToArray)(arr, 10, 7, host, 60, cudaMemcpyHostToDevice);
   case 17: return (int)CALL(cudaMemcpyFromArray)(host, arr, 0, 8, 1, cudaMemcpyDeviceToHost);
   case 18: return (int)CALL(cudaMemcpyToArray)(arr, 64, 0, host, 1, cudaMemcpyHostToDevice);
   case 19: return (int)CALL(cudaMemcpy2D)(NULL, 0, NULL, 0, 0, 5, cudaMemcpyHostToDevice);
   case 20: return (int)CALL(cudaMemcpy2D)(NULL, 0, NULL, 0, 5, 0, cudaMemcpyDeviceToHost);
   case 21: return (int)CALL(cudaMemcpyToArray)(arr, 0, 0, NULL, 0, cudaMemcpyHostToDevice);
   case 22: return (int)CALL(cudaMemcpy2DToArray)(arr, 0, 0, host, 64, 64, 8, cudaMemcpyHostToDevice);
   case 23: return (int)CALL(cudaMemcpyToArray)(arr, 10, 7, host, 54, cudaMemcpyHostToDevice);
   case 24: return (int)CALL(cudaMemcpy2DToArray)(arr, 0, 0, host, 64, 64, 9, cudaMemcpyHostToDevice);
   case 25: return (int)CALL(cudaMemcpy2DFromArray)(host, 64, arr, 1, 0, 64, 1, cudaMemcpyDeviceToHost);
   case 26: return (int)CALL(cudaMemcpy2D)(host, 64, d, pitch, 64, 2, cudaMemcpyHostToDevice);
   default: break;
   }
   return -1;
}
static int rt_memcpy_2d_ok(void) { return rt_copy(0); }
static int rt_memcpy_2d_dpitch_under_width(void) { return rt_copy(1); }
static int rt_memcpy_2d_spitch_under_width(void) { return rt_copy(2); }
static int rt_memcpy_2d_async_spitch_under_width(void) { return rt_copy(3); }
static int rt_memcpy_2d_to_array_spitch_under_width(void) { return rt_copy(4); }
static int rt_memcpy_2d_from_array_async_dpitch_under_width(void) { return rt_copy(5); }
static int rt_memcpy_2d_spitch_huge(void) { return rt_copy(6); }
static int rt_memcpy_2d_kind7(void) { return rt_copy(7); }
static int rt_memcpy_2d_async_kind_minus1(void) { return rt_copy(8); }
static int rt_memcpy_2d_to_array_async_kind5(void) { return rt_copy(9); }
static int rt_memcpy_to_array_kind9(void) { return rt_copy(10); }
static int rt_memcpy_from_array_async_kind9(void) { return rt_copy(11); }
static int rt_memcpy_2d_null_dst(void) { return rt_copy(12); }
static int rt_memcpy_2d_null_src_default(void) { return rt_copy(13); }
static int rt_memcpy_2d_host_as_device(void) { return rt_copy(14); }
static int rt_memcpy_2d_past_allocation(void) { return rt_copy(15); }
static int rt_memcpy_to_array_past_end(void) { return rt_copy(16); }
static int rt_memcpy_from_array_row_past_end(void) { return rt_copy(17); }
static int rt_memcpy_to_array_column_past_end(void) { return rt_copy(18); }
static int rt_memcpy_2d_empty_width(void) { return rt_copy(19); }
static int rt_memcpy_2d_empty_height(void) { return rt_copy(20); }
static int rt_memcpy_to_array_empty(void) { return rt_copy(21); }
static int rt_memcpy_2d_to_array_ok(void) { return rt_copy(22); }
static int rt_memcpy_to_array_to_the_end_ok(void) { return rt_copy(23); }
static int rt_memcpy_2d_to_array_rows_past_end(void) { return rt_copy(24); }
static int rt_memcpy_2d_from_array_columns_past_end(void) { return rt_copy(25); }
static int rt_memcpy_2d_device_as_host(void) { return rt_copy(26); }

static int
rt_fill(int which)
{
   size_t pitch = 0;
   void *d = rt_pitched(&pitch);
   struct cudaPitchedPtr p = { d, pitch, 64, 2 };
   switch (which) {
   case 0: return (int)CALL(cudaMemset2D)(d, pitch, 0, 64, 8);
   case 1: return (int)CALL(cudaMemset2D)(d, 16, 0, 64, 2);
   case 2: return (int)CALL(cudaMemset2D)(NULL, pitch, 0, 64, 2);
   case 3: return (int)CALL(cudaMemset2D)(NULL, 0, 0, 0, 3);
   case 4: return (int)CALL(cudaMemset3D)(p, 0, (struct cudaExtent){ 64, 2, 4 });
   case 5: return (int)CALL(cudaMemset3D)(p, 0, (struct cudaExtent){ 64, 3, 2 });
   case 6:
      p.pitch = 8;
      return (int)CALL(cudaMemset3DAsync)(p, 0, (struct cudaExtent){ 64, 2, 1 }, 0);
   case 7:
      return (int)CALL(cudaMemset3D)((struct cudaPitchedPtr){ NULL, 0, 0, 0 }, 0, (struct cudaExtent){ 4, 4, 0 });
   case 8: return (int)CALL(cudaMemset2D)(d, 16, 0, 64, 1);
   case 9: return (int)CALL(cudaMemset2D)(d, pitch, 0, 64, 9);
   default: break;
   }
   return -1;
}
static int rt_memset_2d_ok(void) { return rt_fill(0); }
static int rt_memset_2d_pitch_under_width(void) { return rt_fill(1); }
static int rt_memset_2d_null(void) { return rt_fill(2); }
static int rt_memset_2d_empty(void) { return rt_fill(3); }
static int rt_memset_3d_ok(void) { return rt_fill(4); }
static int rt_memset_3d_ysize_under_height(void) { return rt_fill(5); }
static int rt_memset_3d_async_pitch_under_width(void) { return rt_fill(6); }
static int rt_memset_3d_empty_depth(void) { return rt_fill(7); }
static int rt_memset_2d_pitch_under_width_one_row(void) { return rt_fill(8); }
static int rt_memset_2d_past_allocation(void) { return rt_fill(9); }

/* ---- Runtime cases: texture and surface objects ------------------------ */

static struct cudaTextureDesc
rt_tex_desc(enum cudaTextureFilterMode filter, enum cudaTextureReadMode read)
{
   struct cudaTextureDesc td;
   memset(&td, 0, sizeof(td));
   for (int i = 0; i < 3; i++)
      td.addressMode[i] = cudaAddressModeClamp;
   td.filterMode = filter;
   td.readMode = read;
   return td;
}

static int
rt_tex_create(const struct cudaResourceDesc *rd, const struct cudaTextureDesc *td)
{
   cudaTextureObject_t t = 0;
   cudaError_t err = CALL(cudaCreateTextureObject)(&t, rd, td, NULL);
   if (err == cudaSuccess)
      HOLD(rt_textures, n_rt_textures, t);
   return (int)err;
}

/* A resource description of type, everything else zero. */
static struct cudaResourceDesc
rt_res_of(enum cudaResourceType type)
{
   struct cudaResourceDesc rd;
   memset(&rd, 0, sizeof(rd));
   rd.resType = type;
   return rd;
}

/* An 8 x 8 array of uchar with flags, held; or, where destroy, made and
 * freed again, a stale handle the library is handed. */
static struct cudaResourceDesc
rt_array_res(bool destroy, unsigned flags)
{
   struct cudaResourceDesc rd = rt_res_of(cudaResourceTypeArray);
   if (destroy) {
      struct cudaChannelFormatDesc desc = { 8, 0, 0, 0, cudaChannelFormatKindUnsigned };
      cudaArray_t a = NULL;
      NEED(CALL(cudaMallocArray)(&a, &desc, 8, 8, flags));
      NEED(CALL(cudaFreeArray)(a));
      rd.res.array.array = a;
   } else {
      rd.res.array.array = make_rt_array(8, 8, flags);
   }
   return rd;
}

static int
rt_tex_array(bool destroy)
{
   struct cudaResourceDesc rd = rt_array_res(destroy, 0);
   struct cudaTextureDesc td = rt_tex_desc(cudaFilterModePoint, cudaReadModeElementType);
   return rt_tex_create(&rd, &td);
}
static int rt_tex_array_ok(void) { return rt_tex_array(false); }
static int rt_tex_array_destroyed(void) { return rt_tex_array(true); }

static int
rt_tex_linear(struct cudaChannelFormatDesc desc, enum cudaTextureFilterMode filter, enum cudaTextureReadMode read)
{
   struct cudaResourceDesc rd = rt_res_of(cudaResourceTypeLinear);
   rd.res.linear.devPtr = make_rt_memory(4096);
   rd.res.linear.desc = desc;
   rd.res.linear.sizeInBytes = 4096;
   struct cudaTextureDesc td = rt_tex_desc(filter, read);
   return rt_tex_create(&rd, &td);
}
static const struct cudaChannelFormatDesc rt_u8 = { 8, 0, 0, 0, cudaChannelFormatKindUnsigned };
static const struct cudaChannelFormatDesc rt_u32 = { 32, 0, 0, 0, cudaChannelFormatKindUnsigned };
static const struct cudaChannelFormatDesc rt_f32 = { 32, 0, 0, 0, cudaChannelFormatKindFloat };
static const struct cudaChannelFormatDesc rt_none = { 0, 0, 0, 0, cudaChannelFormatKindNone };
static int rt_tex_linear_ok(void) { return rt_tex_linear(rt_f32, cudaFilterModePoint, cudaReadModeElementType); }
static int rt_tex_linear_u8_linear(void)
{
   return rt_tex_linear(rt_u8, cudaFilterModeLinear, cudaReadModeNormalizedFloat);
}
static int rt_tex_linear_u8_linear_int(void)
{
   return rt_tex_linear(rt_u8, cudaFilterModeLinear, cudaReadModeElementType);
}
static int rt_tex_linear_u32_linear(void)
{
   return rt_tex_linear(rt_u32, cudaFilterModeLinear, cudaReadModeNormalizedFloat);
}
static int rt_tex_linear_no_format(void) { return rt_tex_linear(rt_none, cudaFilterModePoint, cudaReadModeElementType); }
static int rt_tex_linear_bad_read_mode(void)
{
   return rt_tex_linear(rt_f32, cudaFilterModePoint, (enum cudaTextureReadMode)5);
}

static int
rt_surf_array(bool destroy, unsigned flags)
{
   struct cudaResourceDesc rd = rt_array_res(destroy, flags);
   cudaSurfaceObject_t s = 0;
   cudaError_t err = CALL(cudaCreateSurfaceObject)(&s, &rd);
   if (err == cudaSuccess)
      HOLD(rt_surfaces, n_rt_surfaces, s);
   return (int)err;
}
static int rt_surf_array_ok(void) { return rt_surf_array(false, cudaArraySurfaceLoadStore); }
static int rt_surf_array_destroyed(void) { return rt_surf_array(true, cudaArraySurfaceLoadStore); }
static int rt_surf_array_no_ldst(void) { return rt_surf_array(false, 0); }

/* ---- The cases, in the order they print -------------------------------- */

static const struct codes_case cases[] = {
   DRV("tex.array.ok", tex_array_ok),
   DRV("tex.array.null", tex_array_null),
   DRV_FORKED("tex.array.destroyed", tex_array_destroyed),
   DRV("tex.array.res_flags", tex_array_res_flags),
   DRV("tex.array.bad_address_mode", tex_array_bad_address_mode),
   DRV("tex.array.bad_filter_mode", tex_array_bad_filter_mode),
   DRV("tex.array.unknown_flag", tex_array_unknown_flag),
   DRV("tex.array.seamless_not_cube", tex_array_seamless),
   DRV("tex.array.seamless_layered", tex_array_layered_seamless),
   DRV("tex.cube.seamless.ok", tex_cube_seamless_ok),
   DRV("tex.cube.layered", tex_layered_cube),
   DRV("tex.array.u8.point.ok", tex_array_u8_point_ok),
   DRV("tex.array.s8x2.point.ok", tex_array_s8x2_point_ok),
   DRV("tex.array.s16.point.ok", tex_array_s16_point_ok),
   DRV("tex.array.u8.linear_filter", tex_array_u8_linear),
   DRV("tex.array.u8.linear_filter_int", tex_array_u8_linear_int),
   DRV("tex.array.u32.linear_filter", tex_array_u32_linear),
   DRV("tex.array.f32.linear_filter.ok", tex_array_f32_linear_ok),
   DRV("tex.array.101010_2.ok", tex_array_101010_2_ok),
   DRV("tex.array.border_colour_half", tex_array_border_colour),
   DRV("tex.mipmap.ok", tex_mipmap_ok),
   DRV_FORKED("tex.mipmap.destroyed", tex_mipmap_destroyed),
   DRV("tex.mipmap.unnormalised", tex_mipmap_unnormalised),
   DRV("tex.mipmap.u32.linear_mip_filter_one_level", tex_mipmap_u32_linear_mip),
   DRV("tex.mipmap.nan_bias", tex_mipmap_nan_bias),
   DRV("tex.mipmap.nan_min_clamp", tex_mipmap_nan_min_clamp),
   DRV("tex.mipmap.nan_max_clamp", tex_mipmap_nan_max_clamp),
   DRV("tex.view.valid", tex_view_valid),
   DRV("tex.view.texel_size", tex_view_texel_size),
   DRV("tex.view.levels_past", tex_view_levels_past),
   DRV("tex.view.width", tex_view_width),
   DRV("tex.view.bad_format", tex_view_bad_format),
   DRV("tex.view.layers_past", tex_view_layers_past),

   DRV("tex.linear.f32.ok", tex_linear_f32_ok),
   DRV("tex.linear.f32x4.linear_filter.ok", tex_linear_f32_linear_ok),
#define LINEAR_FILTER_ENTRIES(suffix, format)                                  \
   DRV("tex.linear." #suffix ".linear_filter", tex_linear_##suffix##_linear),  \
   DRV("tex.linear." #suffix ".linear_filter_int", tex_linear_##suffix##_linear_int), \
   DRV("tex.linear." #suffix ".point_int", tex_linear_##suffix##_point_int),
   LINEAR_FILTER_CASES(LINEAR_FILTER_ENTRIES)
#undef LINEAR_FILTER_ENTRIES
   DRV("tex.linear.seamless", tex_linear_seamless),
   DRV("tex.linear.101010_2", tex_linear_101010_2),
   DRV("tex.linear.bc1", tex_linear_bc1),
   DRV("tex.linear.three_channels", tex_linear_three_channels),
   DRV("tex.linear.view", tex_linear_view),
   DRV("tex.linear.null_ptr", tex_linear_null_ptr),
   DRV("tex.linear.unaligned_ptr", tex_linear_unaligned_ptr),
   DRV("tex.linear.size0", tex_linear_size0),
   DRV("tex.linear.size_under_texel", tex_linear_size_under_texel),
   DRV("tex.linear.partial_texel", tex_linear_partial_texel),
   DRV("tex.linear.max_width", tex_linear_max_width),
   DRV("tex.linear.past_max_width", tex_linear_past_max_width),
   DRV("tex.linear.past_allocation", tex_linear_past_allocation),

   DRV("tex.pitch2d.f32.ok", tex_pitch_f32_ok),
   DRV("tex.pitch2d.f32x4.linear_filter.ok", tex_pitch_f32_linear_ok),
   DRV("tex.pitch2d.u8.linear_filter", tex_pitch_u8_linear),
   DRV("tex.pitch2d.u8.linear_filter_int", tex_pitch_u8_linear_int),
   DRV("tex.pitch2d.u16.linear_filter_int", tex_pitch_u16_linear_int),
   DRV("tex.pitch2d.u32.linear_filter", tex_pitch_u32_linear),
   DRV("tex.pitch2d.s32.linear_filter_int", tex_pitch_s32_linear_int),
   DRV("tex.pitch2d.seamless", tex_pitch_seamless),
   DRV("tex.pitch2d.101010_2", tex_pitch_101010_2),
   DRV("tex.pitch2d.bc1", tex_pitch_bc1),
   DRV("tex.pitch2d.border_colour_half", tex_pitch_border_colour),
   DRV("tex.pitch2d.view", tex_pitch_view),
   DRV("tex.pitch2d.null_ptr", tex_pitch_null_ptr),
   DRV("tex.pitch2d.unaligned_ptr", tex_pitch_unaligned_ptr),
   DRV("tex.pitch2d.width0", tex_pitch_width0),
   DRV("tex.pitch2d.height0", tex_pitch_height0),
   DRV("tex.pitch2d.unaligned_pitch", tex_pitch_unaligned_pitch),
   DRV("tex.pitch2d.pitch_under_row", tex_pitch_pitch_under_row),
   DRV("tex.pitch2d.past_max_pitch", tex_pitch_past_max_pitch),
   DRV("tex.pitch2d.past_max_width", tex_pitch_past_max_width),
   DRV("tex.pitch2d.past_max_height", tex_pitch_past_max_height),
   DRV("tex.pitch2d.past_allocation", tex_pitch_past_allocation),

   DRV("surf.array.ok", surf_array_ok),
   DRV_FORKED("surf.array.destroyed", surf_array_destroyed),
   DRV("surf.array.null", surf_array_null),
   DRV("surf.array.no_ldst", surf_array_no_ldst),
   DRV("surf.array.res_flags", surf_array_res_flags),
   DRV("surf.linear", surf_linear),
   DRV("surf.pitch2d", surf_pitch),
   DRV("surf.mipmap", surf_mipmap),

   DRV("mem.alloc_pitch.ok", mem_alloc_pitch_ok),
   DRV("mem.alloc_pitch.element3", mem_alloc_pitch_element3),
   DRV("mem.alloc_pitch.element32", mem_alloc_pitch_element32),
   DRV("mem.alloc_pitch.width0", mem_alloc_pitch_width0),
   DRV("mem.alloc_pitch.height0", mem_alloc_pitch_height0),
   DRV("mem.alloc_pitch.null", mem_alloc_pitch_null),
   DRV("mem.copy_2d.ok", mem_copy_2d_ok),
   DRV("mem.copy_2d.src_pitch_under_width", mem_copy_2d_src_pitch_under_width),
   DRV("mem.copy_2d.dst_pitch_under_width", mem_copy_2d_dst_pitch_under_width),
   DRV("mem.memset_d2d8.ok", mem_memset_d2d8_ok),
   DRV("mem.memset_d2d8.pitch_under_width", mem_memset_d2d8_pitch_under_width),

   RT("rt.malloc_pitch.ok", rt_malloc_pitch_ok),
   RT("rt.malloc_pitch.width0", rt_malloc_pitch_width0),
   RT("rt.malloc_pitch.height0", rt_malloc_pitch_height0),
   RT("rt.malloc_pitch.null_ptr", rt_malloc_pitch_null_ptr),
   RT("rt.malloc_pitch.null_pitch", rt_malloc_pitch_null_pitch),
   RT("rt.malloc_3d.ok", rt_malloc_3d_ok),
   RT("rt.malloc_3d.null", rt_malloc_3d_null),
   RT("rt.malloc_3d.depth0", rt_malloc_3d_depth0),
   RT("rt.memcpy_2d.ok", rt_memcpy_2d_ok),
   RT("rt.memcpy_2d.dpitch_under_width", rt_memcpy_2d_dpitch_under_width),
   RT("rt.memcpy_2d.spitch_under_width", rt_memcpy_2d_spitch_under_width),
   RT("rt.memcpy_2d_async.spitch_under_width", rt_memcpy_2d_async_spitch_under_width),
   RT("rt.memcpy_2d_to_array.spitch_under_width", rt_memcpy_2d_to_array_spitch_under_width),
   RT("rt.memcpy_2d_from_array_async.dpitch_under_width", rt_memcpy_2d_from_array_async_dpitch_under_width),
   RT_FORKED("rt.memcpy_2d.spitch_2_40", rt_memcpy_2d_spitch_huge),
   RT("rt.memcpy_2d.kind_7", rt_memcpy_2d_kind7),
   RT("rt.memcpy_2d_async.kind_minus_1", rt_memcpy_2d_async_kind_minus1),
   RT("rt.memcpy_2d_to_array_async.kind_5", rt_memcpy_2d_to_array_async_kind5),
   RT("rt.memcpy_to_array.kind_9", rt_memcpy_to_array_kind9),
   RT("rt.memcpy_from_array_async.kind_9", rt_memcpy_from_array_async_kind9),
   RT("rt.memcpy_2d.null_dst", rt_memcpy_2d_null_dst),
   RT("rt.memcpy_2d.null_src_default", rt_memcpy_2d_null_src_default),
   RT_FORKED("rt.memcpy_2d.host_as_device", rt_memcpy_2d_host_as_device),
   RT_FORKED("rt.memcpy_2d.device_as_host", rt_memcpy_2d_device_as_host),
   RT("rt.memcpy_2d.past_allocation", rt_memcpy_2d_past_allocation),
   RT("rt.memcpy_2d.empty_width", rt_memcpy_2d_empty_width),
   RT("rt.memcpy_2d.empty_height", rt_memcpy_2d_empty_height),
   RT("rt.memcpy_2d_to_array.ok", rt_memcpy_2d_to_array_ok),
   RT("rt.memcpy_2d_to_array.rows_past_end", rt_memcpy_2d_to_array_rows_past_end),
   RT("rt.memcpy_2d_from_array.columns_past_end", rt_memcpy_2d_from_array_columns_past_end),
   RT("rt.memcpy_to_array.to_the_end.ok", rt_memcpy_to_array_to_the_end_ok),
   RT("rt.memcpy_to_array.past_end", rt_memcpy_to_array_past_end),
   RT("rt.memcpy_from_array.row_past_end", rt_memcpy_from_array_row_past_end),
   RT("rt.memcpy_to_array.column_past_end", rt_memcpy_to_array_column_past_end),
   RT("rt.memcpy_to_array.empty", rt_memcpy_to_array_empty),
   RT("rt.memset_2d.ok", rt_memset_2d_ok),
   RT("rt.memset_2d.pitch_under_width", rt_memset_2d_pitch_under_width),
   RT("rt.memset_2d.pitch_under_width_one_row", rt_memset_2d_pitch_under_width_one_row),
   RT("rt.memset_2d.null", rt_memset_2d_null),
   RT("rt.memset_2d.past_allocation", rt_memset_2d_past_allocation),
   RT("rt.memset_2d.empty", rt_memset_2d_empty),
   RT("rt.memset_3d.ok", rt_memset_3d_ok),
   RT("rt.memset_3d.ysize_under_height", rt_memset_3d_ysize_under_height),
   RT("rt.memset_3d_async.pitch_under_width", rt_memset_3d_async_pitch_under_width),
   RT("rt.memset_3d.empty_depth", rt_memset_3d_empty_depth),

   RT("rt.tex.array.ok", rt_tex_array_ok),
   RT_FORKED("rt.tex.array.destroyed", rt_tex_array_destroyed),
   RT("rt.tex.linear.ok", rt_tex_linear_ok),
   RT("rt.tex.linear.u8.linear_filter", rt_tex_linear_u8_linear),
   RT("rt.tex.linear.u8.linear_filter_int", rt_tex_linear_u8_linear_int),
   RT("rt.tex.linear.u32.linear_filter", rt_tex_linear_u32_linear),
   RT("rt.tex.linear.no_format", rt_tex_linear_no_format),
   RT("rt.tex.linear.bad_read_mode", rt_tex_linear_bad_read_mode),
   RT("rt.surf.array.ok", rt_surf_array_ok),
   RT_FORKED("rt.surf.array.destroyed", rt_surf_array_destroyed),
   RT("rt.surf.array.no_ldst", rt_surf_array_no_ldst),
};

static void
print_limits(void)
{
   static const struct {
      CUdevice_attribute attr;
      const char *name;
   } limits[] = {
      { CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, "TEXTURE_ALIGNMENT" },
      { CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, "TEXTURE_PITCH_ALIGNMENT" },
      { CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH, "MAXIMUM_TEXTURE1D_LINEAR_WIDTH" },
      { CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH, "MAXIMUM_TEXTURE2D_LINEAR_WIDTH" },
      { CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT, "MAXIMUM_TEXTURE2D_LINEAR_HEIGHT" },
      { CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH, "MAXIMUM_TEXTURE2D_LINEAR_PITCH" },
      { CU_DEVICE_ATTRIBUTE_MAX_PITCH, "MAX_PITCH" },
   };
   for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++)
      printf("# %s %d\n", limits[i].name, attribute(limits[i].attr));

   /* The pitches the allocators choose. */
   static const size_t widths[] = { 1, 37, 512, 513 };
   for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
      CUdeviceptr p = 0;
      void *rp = NULL;
      size_t pitch = 0, rt_pitch = 0;
      if (CALL(cuMemAllocPitch)(&p, &pitch, widths[i], 3, 4) == CUDA_SUCCESS)
         CALL(cuMemFree)(p);
      if (CALL(cudaMallocPitch)(&rp, &rt_pitch, widths[i], 3) == cudaSuccess)
         CALL(cudaFree)(rp);
      printf("# pitch of width %zu: cuMemAllocPitch %zu, cudaMallocPitch %zu\n", widths[i], pitch, rt_pitch);
   }
}

static const struct codes_probe probe = {
   "codes_probe", cases, CODES_COUNT(cases), look_up, print_limits, release_held,
};

int
main(int argc, char **argv)
{
   return codes_probe_main(&probe, argc, argv);
}
