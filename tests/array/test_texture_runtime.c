/*
 * The runtime's texture and surface objects (cudaCreateTextureObject and
 * its twins, src/runtime/texture.c): descriptions converted to the
 * driver's and back, so every Get* returns what Create got, over arrays,
 * mipmapped arrays with a view, linear and pitched memory; and the
 * runtime's answers to bad input.  The driver calls underneath are tested
 * in test_texture.c; kernels reading through the objects in tests/kernels
 * and tests/nvcc_programs.
 */
#include "array_test.h"

#include <cuda_runtime_api.h>

#define RT_EXPECT(want, call)                                                       \
   do {                                                                             \
      cudaError_t rt_err_ = (call);                                                 \
      if (rt_err_ != (want))                                                        \
         cuvk_test_report(__FILE__, __LINE__, "%s gave %s, expected %s", #call,     \
                          cudaGetErrorName(rt_err_), cudaGetErrorName(want));       \
   } while (0)
#define RT_OK(call) RT_EXPECT(cudaSuccess, call)

static struct cudaTextureDesc
rt_tex_desc(enum cudaTextureAddressMode mode, enum cudaTextureFilterMode filter,
            enum cudaTextureReadMode read, int normalized)
{
   struct cudaTextureDesc td;
   memset(&td, 0, sizeof(td));
   td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
   td.filterMode = filter;
   td.readMode = read;
   td.normalizedCoords = normalized;
   return td;
}

/* The texture description's fields all come back as given. */
static bool
tex_desc_equal(const struct cudaTextureDesc *a, const struct cudaTextureDesc *b)
{
   return a->addressMode[0] == b->addressMode[0] && a->addressMode[1] == b->addressMode[1] &&
          a->addressMode[2] == b->addressMode[2] && a->filterMode == b->filterMode &&
          a->readMode == b->readMode && !!a->sRGB == !!b->sRGB &&
          !memcmp(a->borderColor, b->borderColor, sizeof(a->borderColor)) &&
          !!a->normalizedCoords == !!b->normalizedCoords && a->maxAnisotropy == b->maxAnisotropy &&
          a->mipmapFilterMode == b->mipmapFilterMode && a->mipmapLevelBias == b->mipmapLevelBias &&
          a->minMipmapLevelClamp == b->minMipmapLevelClamp &&
          a->maxMipmapLevelClamp == b->maxMipmapLevelClamp &&
          !!a->disableTrilinearOptimization == !!b->disableTrilinearOptimization &&
          !!a->seamlessCubemap == !!b->seamlessCubemap;
}

/* Arrays: textures in each read mode and a surface, read back. */
static void
objects_array(void)
{
   const struct cudaChannelFormatDesc u8x4 = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
   cudaArray_t a;
   RT_OK(cudaMallocArray(&a, &u8x4, 64, 32, cudaArraySurfaceLoadStore));

   struct cudaResourceDesc rd, rd2;
   memset(&rd, 0, sizeof(rd));
   rd.resType = cudaResourceTypeArray;
   rd.res.array.array = a;

   struct cudaTextureDesc modes[] = {
      rt_tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 1),
      rt_tex_desc(cudaAddressModeWrap, cudaFilterModePoint, cudaReadModeElementType, 1),
      rt_tex_desc(cudaAddressModeBorder, cudaFilterModePoint, cudaReadModeElementType, 0),
      rt_tex_desc(cudaAddressModeMirror, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 1),
   };
   modes[3].sRGB = 1;
   modes[3].disableTrilinearOptimization = 1;
   modes[3].maxAnisotropy = 4;
   for (size_t i = 0; i < AT_ARRAY_SIZE(modes); i++) {
      cudaTextureObject_t t = 0;
      RT_OK(cudaCreateTextureObject(&t, &rd, &modes[i], NULL));
      AT_CHECK(t != 0);
      struct cudaTextureDesc td2;
      memset(&td2, 0xab, sizeof(td2));
      memset(&rd2, 0xab, sizeof(rd2));
      RT_OK(cudaGetTextureObjectTextureDesc(&td2, t));
      RT_OK(cudaGetTextureObjectResourceDesc(&rd2, t));
      if (!tex_desc_equal(&td2, &modes[i]))
         cuvk_test_report(__FILE__, __LINE__, "texture description %zu changed on the way back", i);
      AT_CHECK(rd2.resType == cudaResourceTypeArray && rd2.res.array.array == a && rd2.flags == 0);
      RT_OK(cudaDestroyTextureObject(t));
      /* Gone: every call on it now fails as CUDA's. */
      RT_EXPECT(cudaErrorInvalidValue, cudaGetTextureObjectResourceDesc(&rd2, t));
      RT_EXPECT(cudaErrorInvalidValue, cudaDestroyTextureObject(t));
   }

   cudaSurfaceObject_t s = 0;
   RT_OK(cudaCreateSurfaceObject(&s, &rd));
   AT_CHECK(s != 0);
   memset(&rd2, 0xab, sizeof(rd2));
   RT_OK(cudaGetSurfaceObjectResourceDesc(&rd2, s));
   AT_CHECK(rd2.resType == cudaResourceTypeArray && rd2.res.array.array == a);
   /* A surface is not a texture, and the reverse. */
   RT_EXPECT(cudaErrorInvalidValue, cudaDestroyTextureObject(s));
   RT_OK(cudaDestroySurfaceObject(s));
   RT_EXPECT(cudaErrorInvalidValue, cudaGetSurfaceObjectResourceDesc(&rd2, s));
   cudaGetLastError();
   RT_OK(cudaFreeArray(a));
}

/* A mipmapped array, read back, with and without a resource view (a
 * texture made without one has no view to read back). */
static void
objects_mipmapped(void)
{
   const struct cudaChannelFormatDesc f1 = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
   cudaMipmappedArray_t m;
   RT_OK(cudaMallocMipmappedArray(&m, &f1, (struct cudaExtent){ 64, 64, 0 }, 7, 0));
   struct cudaResourceDesc rd, rd2;
   memset(&rd, 0, sizeof(rd));
   rd.resType = cudaResourceTypeMipmappedArray;
   rd.res.mipmap.mipmap = m;
   struct cudaTextureDesc td =
      rt_tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 1);
   td.mipmapFilterMode = cudaFilterModeLinear;
   td.maxMipmapLevelClamp = 4;
   struct cudaResourceViewDesc vd, vd2;
   memset(&vd, 0, sizeof(vd));
   vd.format = cudaResViewFormatFloat1;
   vd.width = 64;
   vd.height = 64;
   vd.firstMipmapLevel = 1;
   vd.lastMipmapLevel = 5;
   cudaTextureObject_t t;
   RT_OK(cudaCreateTextureObject(&t, &rd, &td, &vd));
   memset(&vd2, 0xa5, sizeof(vd2));
   RT_OK(cudaGetTextureObjectResourceViewDesc(&vd2, t));
   AT_CHECK(vd2.format == vd.format && vd2.width == vd.width && vd2.height == vd.height && vd2.depth == 0 &&
            vd2.firstMipmapLevel == 1 && vd2.lastMipmapLevel == 5 && vd2.firstLayer == 0 && vd2.lastLayer == 0);
   RT_OK(cudaDestroyTextureObject(t));
   RT_OK(cudaCreateTextureObject(&t, &rd, &td, NULL));
   RT_OK(cudaGetTextureObjectResourceDesc(&rd2, t));
   AT_CHECK(rd2.resType == cudaResourceTypeMipmappedArray && rd2.res.mipmap.mipmap == m);
   struct cudaTextureDesc td2;
   RT_OK(cudaGetTextureObjectTextureDesc(&td2, t));
   AT_CHECK(tex_desc_equal(&td2, &td));
   RT_EXPECT(cudaErrorInvalidValue, cudaGetTextureObjectResourceViewDesc(&vd2, t));
   cudaGetLastError();
   RT_OK(cudaDestroyTextureObject(t));
   RT_OK(cudaFreeMipmappedArray(m));
}

/* Linear and pitched memory name their format with a channel
 * description, which comes back as given. */
static void
objects_memory(void)
{
   void *dev;
   RT_OK(cudaMalloc(&dev, 64 * 1024));
   struct cudaResourceDesc rd, rd2;
   memset(&rd, 0, sizeof(rd));
   rd.resType = cudaResourceTypeLinear;
   rd.res.linear.devPtr = dev;
   rd.res.linear.desc = cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindSigned);
   rd.res.linear.sizeInBytes = 4096;
   struct cudaTextureDesc td =
      rt_tex_desc(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
   cudaTextureObject_t t;
   RT_OK(cudaCreateTextureObject(&t, &rd, &td, NULL));
   memset(&rd2, 0xab, sizeof(rd2));
   RT_OK(cudaGetTextureObjectResourceDesc(&rd2, t));
   AT_CHECK(rd2.resType == cudaResourceTypeLinear && rd2.res.linear.devPtr == dev &&
            rd2.res.linear.sizeInBytes == 4096 &&
            !memcmp(&rd2.res.linear.desc, &rd.res.linear.desc, sizeof(rd.res.linear.desc)));
   RT_OK(cudaDestroyTextureObject(t));

   memset(&rd, 0, sizeof(rd));
   rd.resType = cudaResourceTypePitch2D;
   rd.res.pitch2D.devPtr = dev;
   rd.res.pitch2D.desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
   rd.res.pitch2D.width = 100;
   rd.res.pitch2D.height = 20;
   rd.res.pitch2D.pitchInBytes = 512;
   td = rt_tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0);
   RT_OK(cudaCreateTextureObject(&t, &rd, &td, NULL));
   memset(&rd2, 0xab, sizeof(rd2));
   RT_OK(cudaGetTextureObjectResourceDesc(&rd2, t));
   AT_CHECK(rd2.resType == cudaResourceTypePitch2D && rd2.res.pitch2D.devPtr == dev &&
            rd2.res.pitch2D.width == 100 && rd2.res.pitch2D.height == 20 &&
            rd2.res.pitch2D.pitchInBytes == 512 &&
            !memcmp(&rd2.res.pitch2D.desc, &rd.res.pitch2D.desc, sizeof(rd.res.pitch2D.desc)));
   RT_OK(cudaDestroyTextureObject(t));

   /* Three 8-bit channels name no CUDA format. */
   rd.res.pitch2D.desc = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
   RT_EXPECT(cudaErrorInvalidChannelDescriptor, cudaCreateTextureObject(&t, &rd, &td, NULL));
   cudaGetLastError();
   RT_OK(cudaFree(dev));
}

static void
errors(void)
{
   const struct cudaChannelFormatDesc f1 = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
   cudaArray_t a;
   RT_OK(cudaMallocArray(&a, &f1, 16, 16, 0));
   struct cudaResourceDesc rd;
   memset(&rd, 0, sizeof(rd));
   rd.resType = cudaResourceTypeArray;
   rd.res.array.array = a;
   struct cudaTextureDesc td = rt_tex_desc(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
   cudaTextureObject_t t;
   cudaSurfaceObject_t s;
   struct cudaTextureDesc td2;
   struct cudaResourceViewDesc vd2;

   RT_EXPECT(cudaErrorInvalidValue, cudaCreateTextureObject(NULL, &rd, &td, NULL));
   RT_EXPECT(cudaErrorInvalidValue, cudaCreateTextureObject(&t, NULL, &td, NULL));
   RT_EXPECT(cudaErrorInvalidValue, cudaCreateTextureObject(&t, &rd, NULL, NULL));
   /* The error stays as the last error until read. */
   RT_EXPECT(cudaErrorInvalidValue, cudaGetLastError());
   RT_OK(cudaGetLastError());
   td.readMode = (enum cudaTextureReadMode)5;
   RT_EXPECT(cudaErrorInvalidValue, cudaCreateTextureObject(&t, &rd, &td, NULL));
   td.readMode = cudaReadModeElementType;
   td.addressMode[2] = (enum cudaTextureAddressMode)9;
   RT_EXPECT(cudaErrorInvalidValue, cudaCreateTextureObject(&t, &rd, &td, NULL));
   td.addressMode[2] = cudaAddressModeClamp;
   rd.resType = (enum cudaResourceType)7;
   RT_EXPECT(cudaErrorInvalidValue, cudaCreateTextureObject(&t, &rd, &td, NULL));
   RT_EXPECT(cudaErrorInvalidValue, cudaCreateSurfaceObject(&s, &rd));
   rd.resType = cudaResourceTypeArray;
   rd.flags = 1;
   RT_EXPECT(cudaErrorInvalidValue, cudaCreateTextureObject(&t, &rd, &td, NULL));
   rd.flags = 0;
   /* No surface without cudaArraySurfaceLoadStore. */
   RT_EXPECT(cudaErrorInvalidValue, cudaCreateSurfaceObject(&s, &rd));
   RT_EXPECT(cudaErrorInvalidValue, cudaCreateSurfaceObject(NULL, &rd));
   RT_EXPECT(cudaErrorInvalidValue, cudaCreateSurfaceObject(&s, NULL));
   /* Handles that never were, and NULL results. */
   RT_EXPECT(cudaErrorInvalidValue, cudaDestroyTextureObject(0));
   RT_EXPECT(cudaErrorInvalidValue, cudaDestroySurfaceObject(0x1234));
   RT_EXPECT(cudaErrorInvalidValue, cudaGetTextureObjectTextureDesc(&td2, 0));
   RT_EXPECT(cudaErrorInvalidValue, cudaGetTextureObjectResourceViewDesc(&vd2, 0));
   RT_OK(cudaCreateTextureObject(&t, &rd, &td, NULL));
   RT_EXPECT(cudaErrorInvalidValue, cudaGetTextureObjectResourceDesc(NULL, t));
   RT_EXPECT(cudaErrorInvalidValue, cudaGetTextureObjectTextureDesc(NULL, t));
   RT_EXPECT(cudaErrorInvalidValue, cudaGetTextureObjectResourceViewDesc(NULL, t));
   RT_EXPECT(cudaErrorInvalidValue, cudaGetSurfaceObjectResourceDesc(NULL, t));
   RT_OK(cudaDestroyTextureObject(t));
   cudaGetLastError();
   RT_OK(cudaFreeArray(a));
}

static const struct at_case cases[] = {
   AT_CASE("texture.runtime.array", objects_array),
   AT_CASE("texture.runtime.mipmapped", objects_mipmapped),
   AT_CASE("texture.runtime.memory", objects_memory),
   AT_CASE("texture.runtime.errors", errors),
};

AT_MAIN(cases)
