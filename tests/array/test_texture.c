/*
 * Texture and surface objects through the driver API: creation over every
 * kind of resource, the descriptions read back as given, handles that
 * stay apart (texture vs surface, destroyed, from another context), the
 * arrays they keep alive, and bad input.  What kernels read through them
 * is tested in tests/kernels.
 */
#include "array_test.h"

#include <unistd.h>

static CUDA_TEXTURE_DESC
tex_desc(CUaddress_mode mode, CUfilter_mode filter, unsigned flags)
{
   CUDA_TEXTURE_DESC td;
   memset(&td, 0, sizeof(td));
   td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
   td.filterMode = filter;
   td.flags = flags;
   return td;
}

static CUDA_RESOURCE_DESC
array_res(CUarray a)
{
   CUDA_RESOURCE_DESC rd;
   memset(&rd, 0, sizeof(rd));
   rd.resType = CU_RESOURCE_TYPE_ARRAY;
   rd.res.array.hArray = a;
   return rd;
}

static CUarray
make_array(size_t w, size_t h, size_t d, CUarray_format f, unsigned ch, unsigned flags)
{
   CUDA_ARRAY3D_DESCRIPTOR desc = {w, h, d, f, ch, flags};
   CUarray a = NULL;
   AT_OK(cuArray3DCreate(&a, &desc));
   return a;
}

/* Every shape, format class and sampling state makes a texture whose
 * descriptions read back unchanged. */
static void
create_kinds(void)
{
   struct {
      size_t w, h, d;
      CUarray_format f;
      unsigned ch, flags;
      CUfilter_mode filter;
      CUaddress_mode mode;
      unsigned tflags;
   } cases[] = {
      {64, 0, 0, CU_AD_FORMAT_FLOAT, 1, 0, CU_TR_FILTER_MODE_LINEAR, CU_TR_ADDRESS_MODE_CLAMP, 0},
      {64, 32, 0, CU_AD_FORMAT_FLOAT, 4, 0, CU_TR_FILTER_MODE_LINEAR, CU_TR_ADDRESS_MODE_WRAP,
       CU_TRSF_NORMALIZED_COORDINATES},
      {64, 32, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0, CU_TR_FILTER_MODE_LINEAR, CU_TR_ADDRESS_MODE_MIRROR,
       CU_TRSF_NORMALIZED_COORDINATES},
      {64, 32, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0, CU_TR_FILTER_MODE_POINT, CU_TR_ADDRESS_MODE_BORDER,
       CU_TRSF_READ_AS_INTEGER},
      {64, 32, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0, CU_TR_FILTER_MODE_LINEAR, CU_TR_ADDRESS_MODE_CLAMP,
       CU_TRSF_SRGB | CU_TRSF_NORMALIZED_COORDINATES},
      {16, 16, 0, CU_AD_FORMAT_SIGNED_INT16, 2, 0, CU_TR_FILTER_MODE_LINEAR, CU_TR_ADDRESS_MODE_CLAMP, 0},
      {16, 16, 0, CU_AD_FORMAT_SIGNED_INT32, 1, 0, CU_TR_FILTER_MODE_POINT, CU_TR_ADDRESS_MODE_CLAMP, 0},
      {16, 16, 0, CU_AD_FORMAT_HALF, 2, 0, CU_TR_FILTER_MODE_LINEAR, CU_TR_ADDRESS_MODE_CLAMP, 0},
      {16, 16, 8, CU_AD_FORMAT_FLOAT, 1, 0, CU_TR_FILTER_MODE_LINEAR, CU_TR_ADDRESS_MODE_WRAP,
       CU_TRSF_NORMALIZED_COORDINATES},
      {16, 0, 4, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_LAYERED, CU_TR_FILTER_MODE_POINT, CU_TR_ADDRESS_MODE_CLAMP, 0},
      {16, 16, 4, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_LAYERED, CU_TR_FILTER_MODE_POINT, CU_TR_ADDRESS_MODE_CLAMP, 0},
      {16, 16, 6, CU_AD_FORMAT_FLOAT, 4, CUDA_ARRAY3D_CUBEMAP, CU_TR_FILTER_MODE_LINEAR, CU_TR_ADDRESS_MODE_CLAMP,
       CU_TRSF_NORMALIZED_COORDINATES},
   };
   for (size_t i = 0; i < AT_ARRAY_SIZE(cases); i++) {
      CUarray a = make_array(cases[i].w, cases[i].h, cases[i].d, cases[i].f, cases[i].ch, cases[i].flags);
      CUDA_RESOURCE_DESC rd = array_res(a);
      CUDA_TEXTURE_DESC td = tex_desc(cases[i].mode, cases[i].filter, cases[i].tflags);
      td.maxAnisotropy = 1;
      CUtexObject t = 0;
      CUresult res = cuTexObjectCreate(&t, &rd, &td, NULL);
      if (res != CUDA_SUCCESS) {
         fprintf(stderr, "case %zu\n", i);
         AT_OK(res);
         AT_OK(cuArrayDestroy(a));
         continue;
      }
      AT_CHECK(t != 0);
      CUDA_RESOURCE_DESC rd2;
      CUDA_TEXTURE_DESC td2;
      memset(&rd2, 0xab, sizeof(rd2));
      memset(&td2, 0xab, sizeof(td2));
      AT_OK(cuTexObjectGetResourceDesc(&rd2, t));
      AT_OK(cuTexObjectGetTextureDesc(&td2, t));
      AT_CHECK(rd2.resType == CU_RESOURCE_TYPE_ARRAY && rd2.res.array.hArray == a && rd2.flags == 0);
      AT_CHECK(memcmp(&td2, &td, sizeof(td)) == 0);
      AT_OK(cuTexObjectDestroy(t));
      AT_OK(cuArrayDestroy(a));
   }
}

/* Linear and pitched memory: records only, checked like CUDA checks. */
static void
create_memory(void)
{
   CUdeviceptr p;
   AT_OK(cuMemAlloc(&p, 1 << 20));
   CUDA_RESOURCE_DESC rd;
   memset(&rd, 0, sizeof(rd));
   rd.resType = CU_RESOURCE_TYPE_LINEAR;
   rd.res.linear.devPtr = p;
   rd.res.linear.format = CU_AD_FORMAT_FLOAT;
   rd.res.linear.numChannels = 1;
   rd.res.linear.sizeInBytes = 4096;
   CUDA_TEXTURE_DESC td = tex_desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
   CUtexObject t = 0;
   AT_OK(cuTexObjectCreate(&t, &rd, &td, NULL));
   CUDA_RESOURCE_DESC rd2;
   AT_OK(cuTexObjectGetResourceDesc(&rd2, t));
   AT_CHECK(rd2.resType == CU_RESOURCE_TYPE_LINEAR && rd2.res.linear.devPtr == p &&
            rd2.res.linear.sizeInBytes == 4096 && rd2.res.linear.numChannels == 1);
   AT_OK(cuTexObjectDestroy(t));

   CUtexObject bad;
   rd.res.linear.devPtr = p + 4; /* not on the texture alignment */
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&bad, &rd, &td, NULL));
   rd.res.linear.devPtr = p;
   /* An empty texture: real CUDA takes it (tests/texture/codes_cuda_h100.txt). */
   rd.res.linear.sizeInBytes = 0;
   AT_OK(cuTexObjectCreate(&bad, &rd, &td, NULL));
   AT_OK(cuTexObjectDestroy(bad));
   rd.res.linear.sizeInBytes = 4096;
   rd.res.linear.numChannels = 3;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&bad, &rd, &td, NULL));
   rd.res.linear.numChannels = 1;
   rd.res.linear.format = CU_AD_FORMAT_SIGNED_INT32;
   td.filterMode = CU_TR_FILTER_MODE_LINEAR;
   /* Taken as real CUDA takes it, sampled as point (codes_cuda_h100.txt). */
   AT_OK(cuTexObjectCreate(&bad, &rd, &td, NULL));
   AT_OK(cuTexObjectDestroy(bad));
   td.filterMode = CU_TR_FILTER_MODE_POINT;

   memset(&rd, 0, sizeof(rd));
   rd.resType = CU_RESOURCE_TYPE_PITCH2D;
   rd.res.pitch2D.devPtr = p;
   rd.res.pitch2D.format = CU_AD_FORMAT_UNSIGNED_INT8;
   rd.res.pitch2D.numChannels = 4;
   rd.res.pitch2D.width = 100;
   rd.res.pitch2D.height = 50;
   rd.res.pitch2D.pitchInBytes = 512;
   AT_OK(cuTexObjectCreate(&t, &rd, &td, NULL));
   AT_OK(cuTexObjectGetResourceDesc(&rd2, t));
   AT_CHECK(rd2.resType == CU_RESOURCE_TYPE_PITCH2D && rd2.res.pitch2D.pitchInBytes == 512 &&
            rd2.res.pitch2D.width == 100 && rd2.res.pitch2D.height == 50);
   AT_OK(cuTexObjectDestroy(t));
   rd.res.pitch2D.pitchInBytes = 256; /* below the row: 400 bytes */
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&bad, &rd, &td, NULL));
   AT_OK(cuMemFree(p));
}

/* A texture over a whole mipmapped array and over one of its levels, and
 * surfaces over levels (the vulkanImageCUDA pattern). */
static void
mipmapped(void)
{
   CUDA_ARRAY3D_DESCRIPTOR desc = {64, 64, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, CUDA_ARRAY3D_SURFACE_LDST};
   CUmipmappedArray m;
   AT_OK(cuMipmappedArrayCreate(&m, &desc, 7));
   CUDA_RESOURCE_DESC rd;
   memset(&rd, 0, sizeof(rd));
   rd.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
   rd.res.mipmap.hMipmappedArray = m;
   CUDA_TEXTURE_DESC td = tex_desc(CU_TR_ADDRESS_MODE_WRAP, CU_TR_FILTER_MODE_LINEAR, CU_TRSF_NORMALIZED_COORDINATES);
   td.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
   td.maxMipmapLevelClamp = 6;
   CUtexObject whole;
   AT_OK(cuTexObjectCreate(&whole, &rd, &td, NULL));
   CUDA_RESOURCE_DESC rd2;
   AT_OK(cuTexObjectGetResourceDesc(&rd2, whole));
   AT_CHECK(rd2.resType == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY && rd2.res.mipmap.hMipmappedArray == m);

   CUtexObject tex[7];
   CUsurfObject surf[7];
   for (unsigned l = 0; l < 7; l++) {
      CUarray level;
      AT_OK(cuMipmappedArrayGetLevel(&level, m, l));
      CUDA_RESOURCE_DESC lr = array_res(level);
      AT_OK(cuTexObjectCreate(&tex[l], &lr, &td, NULL));
      AT_OK(cuSurfObjectCreate(&surf[l], &lr));
      AT_OK(cuSurfObjectGetResourceDesc(&rd2, surf[l]));
      AT_CHECK(rd2.resType == CU_RESOURCE_TYPE_ARRAY && rd2.res.array.hArray == level);
   }
   /* Destroying the mipmapped array first is allowed (CUDA leaves it
    * undefined what the objects then read); the objects keep the image
    * until they go. */
   AT_OK(cuMipmappedArrayDestroy(m));
   for (unsigned l = 0; l < 7; l++) {
      AT_OK(cuTexObjectDestroy(tex[l]));
      AT_OK(cuSurfObjectDestroy(surf[l]));
   }
   AT_OK(cuTexObjectDestroy(whole));
}

/* Handles: a texture handle is no surface, a destroyed one is dead even
 * when its slot is reused, and 0 or garbage is refused. */
static void
handles(void)
{
   CUarray a = make_array(32, 32, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SURFACE_LDST);
   CUDA_RESOURCE_DESC rd = array_res(a), rd2;
   CUDA_TEXTURE_DESC td = tex_desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0), td2;
   CUtexObject t1, t2;
   CUsurfObject s1;
   AT_OK(cuTexObjectCreate(&t1, &rd, &td, NULL));
   AT_OK(cuSurfObjectCreate(&s1, &rd));
   AT_CHECK(t1 != s1);
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuSurfObjectGetResourceDesc(&rd2, t1));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetResourceDesc(&rd2, s1));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuSurfObjectDestroy(t1));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectDestroy(s1));
   AT_OK(cuTexObjectDestroy(t1));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectDestroy(t1));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetTextureDesc(&td2, t1));
   /* The slot comes back with a new generation. */
   AT_OK(cuTexObjectCreate(&t2, &rd, &td, NULL));
   AT_CHECK(t2 != t1);
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetTextureDesc(&td2, t1));
   AT_OK(cuTexObjectGetTextureDesc(&td2, t2));
   CUDA_RESOURCE_VIEW_DESC vd;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetResourceViewDesc(&vd, t2)); /* made without a view */
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetResourceViewDesc(NULL, t2));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectDestroy(0));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectDestroy(0x1234567ull));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuSurfObjectDestroy(~0ull));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetResourceDesc(NULL, t2));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetTextureDesc(NULL, t2));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuSurfObjectGetResourceDesc(NULL, s1));

   /* Another context's handle is not this one's. */
   CUcontext other;
   AT_OK(cuCtxCreate(&other, NULL, 0, at_dev));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetTextureDesc(&td2, t2));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectDestroy(t2));
   AT_OK(cuCtxDestroy(other));
   AT_OK(cuCtxSetCurrent(at_ctx));

   /* The array goes first; the objects still destroy cleanly. */
   AT_OK(cuArrayDestroy(a));
   AT_OK(cuTexObjectDestroy(t2));
   AT_OK(cuSurfObjectDestroy(s1));

   /* Objects left alive go with their context (the validation layer
    * reports any view or sampler left behind). */
   a = make_array(8, 8, 0, CU_AD_FORMAT_FLOAT, 1, 0);
   rd = array_res(a);
   AT_OK(cuCtxCreate(&other, NULL, 0, at_dev));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t1, &rd, &td, NULL)); /* another context's array */
   CUarray b = make_array(8, 8, 0, CU_AD_FORMAT_FLOAT, 1, 0);
   rd = array_res(b);
   AT_OK(cuTexObjectCreate(&t1, &rd, &td, NULL));
   AT_OK(cuCtxDestroy(other));
   AT_OK(cuCtxSetCurrent(at_ctx));
   AT_OK(cuArrayDestroy(a));
}

/* Bad descriptions, each with CUDA's answer. */
static void
errors(void)
{
   CUarray a = make_array(32, 32, 0, CU_AD_FORMAT_UNSIGNED_INT32, 1, 0);
   CUDA_RESOURCE_DESC rd = array_res(a);
   CUDA_TEXTURE_DESC td = tex_desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
   CUtexObject t;
   CUsurfObject s;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(NULL, &rd, &td, NULL));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, NULL, &td, NULL));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &rd, NULL, NULL));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(NULL, &rd));
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&s, NULL));
   rd.flags = 1;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &rd, &td, NULL));
   rd.flags = 0;
   rd.resType = (CUresourcetype)9;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &rd, &td, NULL));
   rd.resType = CU_RESOURCE_TYPE_ARRAY;
   td.addressMode[1] = (CUaddress_mode)7;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &rd, &td, NULL));
   td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
   td.filterMode = (CUfilter_mode)2;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &rd, &td, NULL));
   /* 32-bit integers read as integers with a linear filter: taken (as
    * real CUDA takes it), sampled as point. */
   td.filterMode = CU_TR_FILTER_MODE_LINEAR;
   AT_OK(cuTexObjectCreate(&t, &rd, &td, NULL));
   AT_OK(cuTexObjectDestroy(t));
   td.filterMode = CU_TR_FILTER_MODE_POINT;
   td.flags = 0x1000;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &rd, &td, NULL));
   td.flags = 0;
   /* A surface needs SURFACE_LDST and an array. */
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&s, &rd));
   CUDA_RESOURCE_DESC lin;
   memset(&lin, 0, sizeof(lin));
   lin.resType = CU_RESOURCE_TYPE_LINEAR;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&s, &lin));
   /* Dead or NULL arrays. */
   rd.res.array.hArray = NULL;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &rd, &td, NULL));
   AT_OK(cuArrayDestroy(a));
   rd.res.array.hArray = a;
   AT_EXPECT(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &rd, &td, NULL));
   /* Border colours Vulkan has no fixed colour for: made through
    * VK_EXT_custom_border_color, which lavapipe has (a device without it
    * refuses them, unit.cuda_api.texture_desc; texture.kernel.border_colours
    * reads them). */
   a = make_array(8, 8, 0, CU_AD_FORMAT_FLOAT, 1, 0);
   rd.res.array.hArray = a;
   td = tex_desc(CU_TR_ADDRESS_MODE_BORDER, CU_TR_FILTER_MODE_POINT, 0);
   td.borderColor[0] = 0.5f;
   AT_OK(cuTexObjectCreate(&t, &rd, &td, NULL));
   AT_OK(cuTexObjectDestroy(t));
   td.borderColor[0] = 1;
   td.borderColor[1] = 1;
   td.borderColor[2] = 1;
   td.borderColor[3] = 1;
   AT_OK(cuTexObjectCreate(&t, &rd, &td, NULL));
   AT_OK(cuTexObjectDestroy(t));
   AT_OK(cuArrayDestroy(a));
}

/* Runs a call with stderr in a file; the lines cuvk logged meanwhile are
 * counted (and echoed, so the log stays visible). */
#define AT_EXPECT_LOGGED(want, call)                                            \
   do {                                                                        \
      char at_path_[] = "/tmp/cuvk-texval-XXXXXX";                             \
      int at_fd_ = mkstemp(at_path_), at_saved_ = dup(2), at_lines_ = 0;       \
      AT_CHECK(at_fd_ >= 0 && at_saved_ >= 0);                                 \
      unlink(at_path_);                                                        \
      fflush(stderr);                                                          \
      dup2(at_fd_, 2);                                                         \
      AT_EXPECT(want, call);                                                   \
      fflush(stderr);                                                          \
      dup2(at_saved_, 2);                                                      \
      close(at_saved_);                                                        \
      FILE *at_f_ = fdopen(at_fd_, "r");                                       \
      char at_line_[1024];                                                     \
      rewind(at_f_);                                                           \
      while (fgets(at_line_, sizeof(at_line_), at_f_)) {                      \
         fputs(at_line_, stderr);                                              \
         at_lines_ += !strncmp(at_line_, "cuvk: ", 6);                         \
      }                                                                        \
      fclose(at_f_);                                                           \
      if (at_lines_ != 1)                                                      \
         cuvk_test_report(__FILE__, __LINE__, "%s logged %d lines, expected 1", #call, at_lines_); \
   } while (0)

static int
attribute(CUdevice_attribute attr)
{
   CUdevice dev;
   int value = 0;
   AT_OK(cuCtxGetDevice(&dev));
   AT_OK(cuDeviceGetAttribute(&value, attr, dev));
   return value;
}

/* The rules that only one of cuvk's two validators had before
 * texture.c moved onto texture_desc.c's (docs/textures.md, "Rules"):
 * each bad call gets CUDA's code and logs one line, and what it looked
 * up is let go (the arrays are destroyed after; the validation layer
 * reports any Vulkan object left at the context's end). */
static void
rules(void)
{
   CUtexObject t;
   CUsurfObject s;

   /* A mipmapped array with texel coordinates: CUDA's documentation
    * forbids it, real CUDA takes it (tests/texture/codes_cuda_h100.txt). */
   CUDA_ARRAY3D_DESCRIPTOR md = {32, 32, 0, CU_AD_FORMAT_FLOAT, 1, 0};
   CUmipmappedArray m;
   AT_OK(cuMipmappedArrayCreate(&m, &md, 4));
   CUDA_RESOURCE_DESC mr;
   memset(&mr, 0, sizeof(mr));
   mr.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
   mr.res.mipmap.hMipmappedArray = m;
   CUDA_TEXTURE_DESC td = tex_desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
   AT_OK(cuTexObjectCreate(&t, &mr, &td, NULL));
   AT_OK(cuTexObjectDestroy(t));
   td.flags = CU_TRSF_NORMALIZED_COORDINATES;
   AT_OK(cuTexObjectCreate(&t, &mr, &td, NULL));
   AT_OK(cuTexObjectDestroy(t));

   /* Resource views: checked (INVALID_VALUE for a bad one); a good one
    * is not supported yet. */
   CUDA_RESOURCE_VIEW_DESC vd;
   memset(&vd, 0, sizeof(vd));
   vd.format = CU_RES_VIEW_FORMAT_FLOAT_1X32;
   vd.width = 32;
   vd.height = 32;
   vd.firstMipmapLevel = 1;
   vd.lastMipmapLevel = 4; /* levels 0..3 */
   AT_EXPECT_LOGGED(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &mr, &td, &vd));
   vd.lastMipmapLevel = 3;
   vd.format = CU_RES_VIEW_FORMAT_FLOAT_2X32; /* 8 bytes a texel, the array's are 4 */
   AT_EXPECT_LOGGED(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &mr, &td, &vd));
   vd.format = CU_RES_VIEW_FORMAT_SINT_1X32;
   vd.width = 16; /* not the array's */
   AT_EXPECT_LOGGED(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &mr, &td, &vd));
   vd.width = 32;
   vd.lastLayer = 1; /* no layers */
   AT_EXPECT_LOGGED(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &mr, &td, &vd));
   vd.lastLayer = 0;
   vd.format = (CUresourceViewFormat)0x7f;
   AT_EXPECT_LOGGED(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &mr, &td, &vd));
   vd.format = CU_RES_VIEW_FORMAT_SINT_1X32;
   AT_OK(cuTexObjectCreate(&t, &mr, &td, &vd));
   CUDA_RESOURCE_VIEW_DESC vd2;
   memset(&vd2, 0xa5, sizeof(vd2));
   AT_OK(cuTexObjectGetResourceViewDesc(&vd2, t));
   AT_CHECK(memcmp(&vd2, &vd, sizeof(vd)) == 0);
   AT_OK(cuTexObjectDestroy(t));

   /* A block-compressed view of 32-bit words is valid CUDA with no
    * Vulkan form. */
   CUDA_ARRAY3D_DESCRIPTOR wd = {8, 8, 0, CU_AD_FORMAT_UNSIGNED_INT32, 2, 0};
   CUarray words;
   AT_OK(cuArray3DCreate(&words, &wd));
   CUDA_RESOURCE_DESC wr;
   memset(&wr, 0, sizeof(wr));
   wr.resType = CU_RESOURCE_TYPE_ARRAY;
   wr.res.array.hArray = words;
   memset(&vd, 0, sizeof(vd));
   vd.format = CU_RES_VIEW_FORMAT_UNSIGNED_BC1;
   vd.width = 32;
   vd.height = 32;
   AT_EXPECT_LOGGED(CUDA_ERROR_NOT_SUPPORTED, cuTexObjectCreate(&t, &wr, &td, &vd));
   AT_OK(cuArrayDestroy(words));

   /* Linear mipmap filtering of integers read as integers, even with one
    * level. */
   CUDA_ARRAY3D_DESCRIPTOR id = {16, 16, 0, CU_AD_FORMAT_UNSIGNED_INT32, 1, 0};
   CUmipmappedArray mi;
   AT_OK(cuMipmappedArrayCreate(&mi, &id, 1));
   CUDA_RESOURCE_DESC mir = mr;
   mir.res.mipmap.hMipmappedArray = mi;
   td.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
   AT_OK(cuTexObjectCreate(&t, &mir, &td, NULL));
   AT_OK(cuTexObjectDestroy(t));
   td.mipmapFilterMode = CU_TR_FILTER_MODE_POINT;
   AT_OK(cuTexObjectCreate(&t, &mir, &td, NULL));
   AT_OK(cuTexObjectDestroy(t));
   AT_OK(cuMipmappedArrayDestroy(mi));

   /* A destroyed mipmapped array is INVALID_VALUE, as a destroyed array
    * (real CUDA crashes on it), and a NULL one. */
   AT_OK(cuMipmappedArrayDestroy(m));
   AT_EXPECT_LOGGED(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &mr, &td, NULL));
   mr.res.mipmap.hMipmappedArray = NULL;
   AT_EXPECT_LOGGED(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &mr, &td, NULL));

   /* CU_TRSF_SEAMLESS_CUBEMAP only on cubemaps. */
   CUarray plain = make_array(8, 8, 0, CU_AD_FORMAT_FLOAT, 1, 0);
   CUarray cube = make_array(8, 8, 6, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_CUBEMAP);
   CUDA_RESOURCE_DESC rd = array_res(plain);
   td = tex_desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT,
                 CU_TRSF_SEAMLESS_CUBEMAP | CU_TRSF_NORMALIZED_COORDINATES);
   AT_EXPECT_LOGGED(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &rd, &td, NULL));
   rd = array_res(cube);
   AT_OK(cuTexObjectCreate(&t, &rd, &td, NULL));
   AT_OK(cuTexObjectDestroy(t));

   /* A border colour Vulkan lacks matters only where a coordinate the
    * texture has is in border mode; there it takes a custom border
    * colour, which lavapipe has (the refusal without one is
    * unit.cuda_api.texture_desc's). */
   rd = array_res(plain);
   td = tex_desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
   td.addressMode[2] = CU_TR_ADDRESS_MODE_BORDER;
   td.borderColor[0] = 0.5f;
   AT_OK(cuTexObjectCreate(&t, &rd, &td, NULL));
   AT_OK(cuTexObjectDestroy(t));
   td.addressMode[1] = CU_TR_ADDRESS_MODE_BORDER;
   AT_OK(cuTexObjectCreate(&t, &rd, &td, NULL));
   AT_OK(cuTexObjectDestroy(t));
   td = tex_desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, CU_TRSF_SEAMLESS_CUBEMAP);

   /* Memory resources. */
   CUdeviceptr p;
   AT_OK(cuMemAlloc(&p, 1 << 20));
   CUDA_RESOURCE_DESC lin;
   memset(&lin, 0, sizeof(lin));
   lin.resType = CU_RESOURCE_TYPE_LINEAR;
   lin.res.linear.devPtr = p;
   lin.res.linear.format = CU_AD_FORMAT_FLOAT;
   lin.res.linear.numChannels = 1;
   lin.res.linear.sizeInBytes = 4096;
   AT_EXPECT_LOGGED(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &lin, &td, NULL)); /* seamless */
   td.flags = 0;
   /* A view of memory, and one more element than the device reports. */
   AT_EXPECT_LOGGED(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &lin, &td, &vd));
   size_t max_1d = (size_t)attribute(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH);
   lin.res.linear.sizeInBytes = max_1d * 4;
   AT_OK(cuTexObjectCreate(&t, &lin, &td, NULL));
   AT_OK(cuTexObjectDestroy(t));
   /* Past the width limit: real CUDA takes it too. */
   lin.res.linear.sizeInBytes = (max_1d + 1) * 4;
   AT_OK(cuTexObjectCreate(&t, &lin, &td, NULL));
   AT_OK(cuTexObjectDestroy(t));
   lin.res.linear.sizeInBytes = 4096;
   /* 10-10-10-2 is a format of memory textures (kernels decode it). */
   lin.res.linear.format = CU_AD_FORMAT_UNORM_INT_101010_2;
   lin.res.linear.numChannels = 4;
   AT_OK(cuTexObjectCreate(&t, &lin, &td, NULL));
   AT_OK(cuTexObjectDestroy(t));

   CUDA_RESOURCE_DESC pr;
   memset(&pr, 0, sizeof(pr));
   pr.resType = CU_RESOURCE_TYPE_PITCH2D;
   pr.res.pitch2D.devPtr = p;
   pr.res.pitch2D.format = CU_AD_FORMAT_UNSIGNED_INT8;
   pr.res.pitch2D.numChannels = 1;
   pr.res.pitch2D.width = (size_t)attribute(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH);
   pr.res.pitch2D.height = 1;
   pr.res.pitch2D.pitchInBytes = (pr.res.pitch2D.width + 511) / 512 * 512;
   AT_OK(cuTexObjectCreate(&t, &pr, &td, NULL));
   AT_OK(cuTexObjectDestroy(t));
   pr.res.pitch2D.width++;
   pr.res.pitch2D.pitchInBytes += 512;
   AT_EXPECT_LOGGED(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &pr, &td, NULL));
   pr.res.pitch2D.width = 16;
   pr.res.pitch2D.height = (size_t)attribute(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT) + 1;
   pr.res.pitch2D.pitchInBytes = 512;
   AT_EXPECT_LOGGED(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &pr, &td, NULL));
   pr.res.pitch2D.height = 1;
   /* A pitch over the device's, on the alignment. */
   size_t max_pitch = (size_t)attribute(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH);
   pr.res.pitch2D.pitchInBytes = (max_pitch / 512 + 1) * 512;
   AT_EXPECT_LOGGED(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &pr, &td, NULL));
   pr.res.pitch2D.pitchInBytes = 512;
   pr.res.pitch2D.devPtr = 0;
   AT_EXPECT_LOGGED(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &pr, &td, NULL));
   pr.res.pitch2D.devPtr = p;
   pr.res.pitch2D.format = CU_AD_FORMAT_BC1_UNORM;
   pr.res.pitch2D.numChannels = 4;
   AT_EXPECT_LOGGED(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&t, &pr, &td, NULL));
   /* The linear filter of integers on linear memory is taken, as real
    * CUDA takes it. */
   lin.res.linear.format = CU_AD_FORMAT_SIGNED_INT16;
   lin.res.linear.numChannels = 1;
   td.filterMode = CU_TR_FILTER_MODE_LINEAR;
   td.flags = CU_TRSF_READ_AS_INTEGER;
   AT_OK(cuTexObjectCreate(&t, &lin, &td, NULL));
   AT_OK(cuTexObjectDestroy(t));
   td.flags = 0; /* read as normalised floats: filtered */
   AT_OK(cuTexObjectCreate(&t, &lin, &td, NULL));
   AT_OK(cuTexObjectDestroy(t));

   /* Surfaces: an array made with SURFACE_LDST only, and a destroyed one
    * is INVALID_HANDLE. */
   AT_EXPECT_LOGGED(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&s, &lin));
   rd = array_res(plain);
   AT_EXPECT_LOGGED(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&s, &rd));
   rd.flags = 2;
   AT_EXPECT_LOGGED(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&s, &rd));
   CUarray ldst = make_array(8, 8, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SURFACE_LDST);
   rd = array_res(ldst);
   AT_OK(cuSurfObjectCreate(&s, &rd));
   AT_OK(cuSurfObjectDestroy(s));
   AT_OK(cuArrayDestroy(ldst));
   AT_EXPECT_LOGGED(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&s, &rd));

   AT_OK(cuMemFree(p));
   AT_OK(cuArrayDestroy(plain));
   AT_OK(cuArrayDestroy(cube));
}

/* Slots run out at the device's count and come back when freed. */
static void
slots(void)
{
   CUarray a = make_array(4, 4, 0, CU_AD_FORMAT_FLOAT, 1, 0);
   CUDA_RESOURCE_DESC rd = array_res(a);
   CUDA_TEXTURE_DESC td = tex_desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
   CUtexObject t[8192];
   unsigned n = 0;
   CUresult res = CUDA_SUCCESS;
   while (n < AT_ARRAY_SIZE(t) && (res = cuTexObjectCreate(&t[n], &rd, &td, NULL)) == CUDA_SUCCESS)
      n++;
   printf("%u texture slots\n", n);
   AT_CHECK(n >= 8 && n < AT_ARRAY_SIZE(t));
   AT_EXPECT(CUDA_ERROR_OUT_OF_MEMORY, res);
   AT_OK(cuTexObjectDestroy(t[n / 2]));
   AT_OK(cuTexObjectCreate(&t[n / 2], &rd, &td, NULL));
   for (unsigned i = 0; i < n; i++)
      AT_OK(cuTexObjectDestroy(t[i]));
   AT_OK(cuArrayDestroy(a));
}

static const struct at_case cases[] = {
   AT_CASE("texture.object.kinds", create_kinds),
   AT_CASE("texture.object.memory", create_memory),
   AT_CASE("texture.object.mipmapped", mipmapped),
   AT_CASE("texture.object.handles", handles),
   AT_CASE("texture.object.errors", errors),
   AT_CASE("texture.object.rules", rules),
   AT_CASE("texture.object.slots", slots),
};

AT_MAIN(cases)
