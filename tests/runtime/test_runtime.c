/*
 * The runtime API's basic flows: implicit initialisation, devices and
 * their properties, the per-thread last error, memory of every kind,
 * copies in every direction, fills, streams and events.
 *
 * Where CUDA's documentation leaves a behaviour open, the expectation is
 * what real CUDA 13 did on an H200 (driver 580), so this file passes
 * against NVIDIA's libcudart as well as against cuvk.
 */
#include "rt_test.h"

#include <pthread.h>

#include "vk_harness.h"

#ifndef RT_ERROR_LIST
#define RT_ERROR_LIST "rt_error_list.h"
#endif

/* ---- Memory of each kind ---- */

enum rt_mem {
   RT_PAGEABLE,
   RT_PINNED,
   RT_DEVICE,
   RT_MEM_COUNT,
};

static const char *const rt_mem_names[RT_MEM_COUNT] = { "pageable", "pinned", "device" };

static void *
mem_alloc(enum rt_mem kind, size_t size)
{
   void *p = NULL;

   switch (kind) {
   case RT_PAGEABLE:
      p = malloc(size);
      break;
   case RT_PINNED:
      RT_CHECK_OK(cudaMallocHost(&p, size));
      break;
   case RT_DEVICE:
      RT_CHECK_OK(cudaMalloc(&p, size));
      break;
   default:
      break;
   }
   RT_REQUIRE(p != NULL);
   return p;
}

static void
mem_free(enum rt_mem kind, void *p)
{
   if (kind == RT_PAGEABLE)
      free(p);
   else if (kind == RT_PINNED)
      RT_CHECK_OK(cudaFreeHost(p));
   else
      RT_CHECK_OK(cudaFree(p));
}

/* Host access to memory of any kind, through the one path every kind
 * allows (cudaMemcpyDefault). */
static void
mem_write(void *dst, const void *src, size_t size)
{
   RT_REQUIRE_OK(cudaMemcpy(dst, src, size, cudaMemcpyDefault));
}

static void
mem_read(void *dst, const void *src, size_t size)
{
   RT_REQUIRE_OK(cudaMemcpy(dst, src, size, cudaMemcpyDefault));
}

/* What real CUDA accepts: a side the kind calls "device" must be memory
 * CUDA knows (device or pinned), a "host" side may be anything. */
static bool
kind_allows(enum cudaMemcpyKind kind, enum rt_mem dst, enum rt_mem src)
{
   switch (kind) {
   case cudaMemcpyHostToDevice:
      return dst != RT_PAGEABLE;
   case cudaMemcpyDeviceToHost:
      return src != RT_PAGEABLE;
   case cudaMemcpyDeviceToDevice:
      return dst != RT_PAGEABLE && src != RT_PAGEABLE;
   default:
      return true;
   }
}

/* ---- Initialisation and devices ---- */

static void
init_implicit(void)
{
   int dev = -1, version = 0;

   /* Nothing was called before: no error, device 0, and the first call
    * that needs a device sets everything up by itself. */
   RT_CHECK_OK(cudaPeekAtLastError());
   RT_CHECK_OK(cudaGetDevice(&dev));
   RT_CHECK(dev == 0);
   RT_CHECK_OK(cudaFree(NULL));
   RT_CHECK_OK(cudaDeviceSynchronize());

   RT_CHECK_OK(cudaDriverGetVersion(&version));
   RT_CHECK_MSG(version >= 13000, "driver version %d", version);
   RT_CHECK_OK(cudaRuntimeGetVersion(&version));
   RT_CHECK_MSG(version == CUDART_VERSION, "runtime version %d", version);

   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaGetDevice(NULL));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaGetDeviceCount(NULL));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaDriverGetVersion(NULL));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaRuntimeGetVersion(NULL));
}

static int
attr(enum cudaDeviceAttr a, int dev)
{
   int v = -12345;
   RT_CHECK_OK(cudaDeviceGetAttribute(&v, a, dev));
   return v;
}

static void
device_properties(void)
{
   int count = 0;

   RT_REQUIRE_OK(cudaGetDeviceCount(&count));
   RT_REQUIRE(count >= 1);

   for (int dev = 0; dev < count; dev++) {
      struct cudaDeviceProp p;
      memset(&p, 0x5a, sizeof(p));
      RT_REQUIRE_OK(cudaGetDeviceProperties(&p, dev));

      RT_CHECK(memchr(p.name, 0, sizeof(p.name)) != NULL);
      RT_CHECK(p.name[0] != 0);
      RT_CHECK(p.totalGlobalMem > 0);
      RT_CHECK(p.unifiedAddressing == 1);
      RT_CHECK(p.canMapHostMemory == 1);
      RT_CHECK(p.warpSize > 0 && p.warpSize == attr(cudaDevAttrWarpSize, dev));
      RT_CHECK(p.maxThreadsPerBlock > 0 && p.maxThreadsPerBlock == attr(cudaDevAttrMaxThreadsPerBlock, dev));
      RT_CHECK(p.maxThreadsDim[0] == attr(cudaDevAttrMaxBlockDimX, dev));
      RT_CHECK(p.maxThreadsDim[1] == attr(cudaDevAttrMaxBlockDimY, dev));
      RT_CHECK(p.maxThreadsDim[2] == attr(cudaDevAttrMaxBlockDimZ, dev));
      RT_CHECK(p.maxGridSize[0] == attr(cudaDevAttrMaxGridDimX, dev));
      RT_CHECK(p.maxGridSize[2] == attr(cudaDevAttrMaxGridDimZ, dev));
      RT_CHECK(p.sharedMemPerBlock == (size_t)attr(cudaDevAttrMaxSharedMemoryPerBlock, dev));
      RT_CHECK(p.totalConstMem == (size_t)attr(cudaDevAttrTotalConstantMemory, dev));
      RT_CHECK(p.major == attr(cudaDevAttrComputeCapabilityMajor, dev));
      RT_CHECK(p.minor == attr(cudaDevAttrComputeCapabilityMinor, dev));
      RT_CHECK(p.multiProcessorCount == attr(cudaDevAttrMultiProcessorCount, dev));
      RT_CHECK(p.integrated == attr(cudaDevAttrIntegrated, dev));
      RT_CHECK(p.pciBusID == attr(cudaDevAttrPciBusId, dev));
      RT_CHECK(p.pciDeviceID == attr(cudaDevAttrPciDeviceId, dev));
      RT_CHECK(p.pciDomainID == attr(cudaDevAttrPciDomainId, dev));
      RT_CHECK(p.maxTexture2D[0] == attr(cudaDevAttrMaxTexture2DWidth, dev));
      RT_CHECK(p.maxTexture3D[2] == attr(cudaDevAttrMaxTexture3DDepth, dev));
      RT_CHECK(p.maxSurfaceCubemapLayered[1] == attr(cudaDevAttrMaxSurfaceCubemapLayeredLayers, dev));
      RT_CHECK(p.streamPrioritiesSupported == attr(cudaDevAttrStreamPrioritiesSupported, dev));
      RT_CHECK(p.hostRegisterSupported == attr(cudaDevAttrHostRegisterSupported, dev));
      RT_CHECK(p.gpuPciDeviceID == (unsigned)attr(cudaDevAttrGpuPciDeviceId, dev));
      /* No LUID outside Windows.  (The reserved words are not checked:
       * cuvk zeroes them, real CUDA leaves them as they were.) */
      RT_CHECK(p.luidDeviceNodeMask == 0);

      RT_CHECK(attr(cudaDevAttrComputeMode, dev) == cudaComputeModeDefault);
      RT_CHECK(attr(cudaDevAttrUnifiedAddressing, dev) == 1);
      RT_CHECK(attr(cudaDevAttrCanMapHostMemory, dev) == 1);
   }

   struct cudaDeviceProp p;
   int v;
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaGetDeviceProperties(NULL, 0));
   RT_CHECK_FAILS(cudaErrorInvalidDevice, cudaGetDeviceProperties(&p, count));
   RT_CHECK_FAILS(cudaErrorInvalidDevice, cudaGetDeviceProperties(&p, -1));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)0, 0));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaDeviceGetAttribute(&v, cudaDevAttrMax, 0));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaDeviceGetAttribute(NULL, cudaDevAttrWarpSize, 0));
   RT_CHECK_FAILS(cudaErrorInvalidDevice, cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, count));
}

/* The UUID in cudaDeviceProp is the one Vulkan reports (deviceUUID), which
 * is how interop programs (simpleVulkan) find the CUDA device for their
 * VkPhysicalDevice. */
static void
device_uuid_matches_vulkan(void)
{
   struct vkh h;
   int count = 0, found = -1;

   if (!vkh_init(&h, "runtime.device.uuid_matches_vulkan", NULL)) {
      rt_report(__FILE__, __LINE__, "no Vulkan device to compare with");
      return;
   }
   RT_CHECK_OK(cudaGetDeviceCount(&count));
   for (int dev = 0; dev < count; dev++) {
      struct cudaDeviceProp p;
      RT_CHECK_OK(cudaGetDeviceProperties(&p, dev));
      if (memcmp(&p.uuid, h.device_uuid, VK_UUID_SIZE) == 0) {
         found = dev;
         RT_CHECK_MSG(strcmp(p.name, h.properties.deviceName) == 0, "name \"%s\", Vulkan says \"%s\"",
                      p.name, h.properties.deviceName);
      }
   }
   RT_CHECK_MSG(found >= 0, "no CUDA device has the UUID of Vulkan's %s", h.properties.deviceName);
   unsigned messages = vkh_finish(&h);
   RT_CHECK_MSG(messages == 0, "%u Vulkan validation messages", messages);
}

struct thread_device {
   cudaError_t peek;
   int device;
   cudaError_t get;
};

static void *
thread_device_fn(void *arg)
{
   struct thread_device *t = arg;
   t->peek = cudaPeekAtLastError();
   t->get = cudaGetDevice(&t->device);
   return NULL;
}

static void
device_set_get(void)
{
   int count = 0, dev = -1;

   RT_REQUIRE_OK(cudaGetDeviceCount(&count));
   RT_CHECK_FAILS(cudaErrorInvalidDevice, cudaSetDevice(count));
   RT_CHECK_FAILS(cudaErrorInvalidDevice, cudaSetDevice(-1));

   for (int d = count - 1; d >= 0; d--) {
      RT_CHECK_OK(cudaSetDevice(d));
      RT_CHECK_OK(cudaGetDevice(&dev));
      RT_CHECK(dev == d);
      void *p = NULL;
      RT_CHECK_OK(cudaMalloc(&p, 4096));
      struct cudaPointerAttributes a;
      RT_CHECK_OK(cudaPointerGetAttributes(&a, p));
      RT_CHECK(a.device == d);
      RT_CHECK_OK(cudaFree(p));
   }

   /* The current device and the last error belong to the thread: a new
    * thread starts on device 0 with no error, whatever this one did. */
   RT_CHECK_ERR(cudaErrorInvalidDevice, cudaSetDevice(count));
   struct thread_device t = { .device = -1 };
   pthread_t thread;
   RT_REQUIRE(pthread_create(&thread, NULL, thread_device_fn, &t) == 0);
   pthread_join(thread, NULL);
   RT_CHECK_ERR(cudaSuccess, t.peek);
   RT_CHECK_ERR(cudaSuccess, t.get);
   RT_CHECK(t.device == 0);
   RT_CHECK_ERR(cudaErrorInvalidDevice, cudaGetLastError());
}

/* ---- Errors ---- */

static void
error_last_error(void)
{
   int dev;

   RT_CHECK_OK(cudaPeekAtLastError());
   RT_CHECK_ERR(cudaErrorInvalidDevice, cudaSetDevice(-1));
   /* Peeking leaves it; a successful call leaves it too. */
   RT_CHECK_ERR(cudaErrorInvalidDevice, cudaPeekAtLastError());
   RT_CHECK_ERR(cudaErrorInvalidDevice, cudaPeekAtLastError());
   RT_CHECK_OK(cudaGetDevice(&dev));
   RT_CHECK_OK(cudaDeviceSynchronize());
   RT_CHECK_ERR(cudaErrorInvalidDevice, cudaPeekAtLastError());
   /* A later error replaces it; reading it clears it. */
   RT_CHECK_ERR(cudaErrorInvalidValue, cudaMalloc(NULL, 16));
   RT_CHECK_ERR(cudaErrorInvalidValue, cudaGetLastError());
   RT_CHECK_OK(cudaGetLastError());
   RT_CHECK_OK(cudaPeekAtLastError());

   /* Naming errors is no error. */
   RT_CHECK(cudaGetErrorName(cudaErrorInvalidValue) != NULL);
   RT_CHECK(cudaGetErrorString((cudaError_t)12345) != NULL);
   RT_CHECK_OK(cudaPeekAtLastError());

   /* cudaErrorNotReady is a state, not an error: queries return it
    * without recording it.  Whether the copy is still running when the
    * query comes depends on the machine, so the check is conditional. */
   cudaStream_t s;
   cudaEvent_t e;
   void *a, *b;
   size_t size = 64 * RT_MIB;
   RT_REQUIRE_OK(cudaStreamCreate(&s));
   RT_REQUIRE_OK(cudaEventCreate(&e));
   RT_REQUIRE_OK(cudaMalloc(&a, size));
   RT_REQUIRE_OK(cudaMalloc(&b, size));
   bool seen = false;
   for (int i = 0; i < 4 && !seen; i++) {
      RT_CHECK_OK(cudaMemcpyAsync(b, a, size, cudaMemcpyDeviceToDevice, s));
      RT_CHECK_OK(cudaMemcpyAsync(a, b, size, cudaMemcpyDeviceToDevice, s));
      RT_CHECK_OK(cudaEventRecord(e, s));
      cudaError_t q1 = cudaStreamQuery(s);
      cudaError_t q2 = cudaEventQuery(e);
      RT_CHECK(q1 == cudaSuccess || q1 == cudaErrorNotReady);
      RT_CHECK(q2 == cudaSuccess || q2 == cudaErrorNotReady);
      seen = q1 == cudaErrorNotReady || q2 == cudaErrorNotReady;
      RT_CHECK_OK(cudaPeekAtLastError());
      RT_CHECK_OK(cudaStreamSynchronize(s));
   }
   if (!seen)
      printf("note: every copy had finished before its query; cudaErrorNotReady not seen\n");
   RT_CHECK_OK(cudaStreamQuery(s));
   RT_CHECK_OK(cudaEventQuery(e));
   RT_CHECK_OK(cudaFree(a));
   RT_CHECK_OK(cudaFree(b));
   RT_CHECK_OK(cudaEventDestroy(e));
   RT_CHECK_OK(cudaStreamDestroy(s));
}

static const struct {
   cudaError_t code;
   const char *name;
} rt_all_errors[] = {
#define RT_ERROR(e) { e, #e },
#include RT_ERROR_LIST
#undef RT_ERROR
};

static void
error_names(void)
{
   static const char unrecognized[] = "unrecognized error code";

   RT_CHECK(RT_ARRAY_SIZE(rt_all_errors) > 100);
   for (size_t i = 0; i < RT_ARRAY_SIZE(rt_all_errors); i++) {
      const char *name = cudaGetErrorName(rt_all_errors[i].code);
      const char *string = cudaGetErrorString(rt_all_errors[i].code);
      RT_CHECK_MSG(name && strcmp(name, rt_all_errors[i].name) == 0, "cudaGetErrorName(%d) is \"%s\", not %s",
                   (int)rt_all_errors[i].code, name ? name : "(null)", rt_all_errors[i].name);
      RT_CHECK_MSG(string && string[0] && strcmp(string, unrecognized) != 0,
                   "cudaGetErrorString(%s) is \"%s\"", rt_all_errors[i].name, string ? string : "(null)");
   }

   /* Codes that are not cudaError_t values, including driver codes the
    * runtime has no name for. */
   const int bogus[] = { -1, 10, 202, 916, 1000, 10001, 12345 };
   for (size_t i = 0; i < RT_ARRAY_SIZE(bogus); i++) {
      const char *name = cudaGetErrorName((cudaError_t)bogus[i]);
      const char *string = cudaGetErrorString((cudaError_t)bogus[i]);
      RT_CHECK_MSG(name && strcmp(name, unrecognized) == 0, "cudaGetErrorName(%d) is \"%s\"", bogus[i],
                   name ? name : "(null)");
      RT_CHECK_MSG(string && strcmp(string, unrecognized) == 0, "cudaGetErrorString(%d) is \"%s\"",
                   bogus[i], string ? string : "(null)");
   }
   RT_CHECK_OK(cudaPeekAtLastError());
}

/* ---- Memory ---- */

/* cudaMallocAsync/cudaFreeAsync and the default pool through the
 * runtime: data through the memory in stream order, the pool's count,
 * mixing with cudaFree, and the runtime's codes for bad input. */
static void
memory_malloc_async(void)
{
   cudaStream_t s;
   cudaMemPool_t pool = NULL, cur = NULL;
   void *a = NULL, *b = (void *)1;
   unsigned long long used = 1;
   uint32_t back[256], want[256];

   RT_REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
   RT_CHECK_OK(cudaDeviceGetDefaultMemPool(&pool, 0));
   RT_CHECK_OK(cudaDeviceGetMemPool(&cur, 0));
   RT_CHECK(pool != NULL && cur == pool);
   RT_CHECK_OK(cudaDeviceSetMemPool(0, pool));
   RT_CHECK_OK(cudaMallocAsync(&a, sizeof(want), s));
   RT_CHECK_OK(cudaMallocAsync(&b, 0, s));
   RT_CHECK(b == NULL);
   RT_CHECK_OK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
   RT_CHECK(used == 1024);
   for (unsigned i = 0; i < 256; i++)
      want[i] = 0xa5000000u + i;
   RT_CHECK_OK(cudaMemcpyAsync(a, want, sizeof(want), cudaMemcpyHostToDevice, s));
   RT_CHECK_OK(cudaMemcpyAsync(back, a, sizeof(back), cudaMemcpyDeviceToHost, s));
   RT_CHECK_OK(cudaFreeAsync(a, s));
   RT_CHECK_OK(cudaFreeAsync(NULL, s));
   RT_CHECK_OK(cudaStreamSynchronize(s));
   RT_CHECK(memcmp(back, want, sizeof(want)) == 0);
   RT_CHECK_OK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
   RT_CHECK(used == 0);
   RT_CHECK_OK(cudaMemPoolTrimTo(pool, 0));
   RT_CHECK_OK(cudaMallocAsync(&a, 4096, cudaStreamPerThread));
   RT_CHECK_OK(cudaFree(a));
   RT_CHECK_OK(cudaMalloc(&a, 4096));
   RT_CHECK_OK(cudaFreeAsync(a, 0));
   RT_CHECK_ERR(cudaErrorInvalidValue, cudaFreeAsync(a, 0));
   RT_CHECK_ERR(cudaErrorInvalidValue, cudaMallocAsync(NULL, 16, s));
   RT_CHECK_ERR(cudaErrorInvalidValue, cudaMemPoolGetAttribute(NULL, cudaMemPoolAttrUsedMemCurrent, &used));
   used = 1;
   RT_CHECK_ERR(cudaErrorInvalidValue, cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &used));
   RT_CHECK_ERR(cudaErrorInvalidValue, cudaDeviceSetMemPool(0, NULL));
   cudaGetLastError();
   RT_CHECK_OK(cudaDeviceSynchronize());
   RT_CHECK_OK(cudaStreamDestroy(s));
}

/* cudaMemPoolCreate and the pool calls through the runtime: the device
 * property, allocation from the pool (also as the current pool), access,
 * destroy with an allocation live, and the runtime's codes. */
static void
memory_mem_pool(void)
{
   struct cudaMemPoolProps props;
   struct cudaDeviceProp prop;
   cudaMemPool_t pool = NULL, cur = NULL;
   cudaStream_t s;
   void *a = NULL, *b = (void *)1;
   unsigned long long used = 1;
   uint32_t back[256], want[256];

   RT_REQUIRE(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
   RT_CHECK(prop.memoryPoolsSupported == 1);
   RT_CHECK(prop.memoryPoolSupportedHandleTypes == 0);
   memset(&props, 0, sizeof(props));
   props.allocType = cudaMemAllocationTypePinned;
   props.handleTypes = cudaMemHandleTypeNone;
   props.location.type = cudaMemLocationTypeDevice;
   props.location.id = 0;
   RT_REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
   RT_REQUIRE(cudaMemPoolCreate(&pool, &props) == cudaSuccess);

   RT_CHECK_OK(cudaMallocFromPoolAsync(&a, sizeof(want), pool, s));
   RT_CHECK_OK(cudaMallocFromPoolAsync(&b, 0, pool, s));
   RT_CHECK(b == NULL);
   RT_CHECK_OK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
   RT_CHECK(used == 1024);
   for (unsigned i = 0; i < 256; i++)
      want[i] = 0x5a000000u + i;
   RT_CHECK_OK(cudaMemcpyAsync(a, want, sizeof(want), cudaMemcpyHostToDevice, s));
   RT_CHECK_OK(cudaMemcpyAsync(back, a, sizeof(back), cudaMemcpyDeviceToHost, s));
   RT_CHECK_OK(cudaStreamSynchronize(s));
   RT_CHECK(memcmp(back, want, sizeof(want)) == 0);

   struct cudaMemLocation loc = { cudaMemLocationTypeDevice, 0 };
   enum cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
   RT_CHECK_OK(cudaMemPoolGetAccess(&flags, pool, &loc));
   RT_CHECK(flags == cudaMemAccessFlagsProtReadWrite);
   struct cudaMemAccessDesc desc = { loc, cudaMemAccessFlagsProtReadWrite };
   RT_CHECK_OK(cudaMemPoolSetAccess(pool, &desc, 1));
   desc.flags = cudaMemAccessFlagsProtNone;
   RT_CHECK_ERR(cudaErrorInvalidDevice, cudaMemPoolSetAccess(pool, &desc, 1));   /* as real CUDA (H100) */

   /* As the current pool, cudaMallocAsync takes from it. */
   RT_CHECK_OK(cudaDeviceSetMemPool(0, pool));
   RT_CHECK_OK(cudaDeviceGetMemPool(&cur, 0));
   RT_CHECK(cur == pool);
   RT_CHECK_OK(cudaMemGetMemPool(&cur, &loc, cudaMemAllocationTypePinned));
   RT_CHECK(cur == pool);
   RT_CHECK_OK(cudaMallocAsync(&b, 4096, s));
   RT_CHECK_OK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
   RT_CHECK(used == 1024 + 4096);

   /* Destroyed with both live: the default pool is current again, the
    * memory stays until freed. */
   RT_CHECK_OK(cudaMemPoolDestroy(pool));
   RT_CHECK_OK(cudaMemGetDefaultMemPool(&cur, &loc, cudaMemAllocationTypePinned));
   cudaMemPool_t now = NULL;
   RT_CHECK_OK(cudaDeviceGetMemPool(&now, 0));
   RT_CHECK(now == cur);
   RT_CHECK_OK(cudaMemcpyAsync(back, a, sizeof(back), cudaMemcpyDeviceToHost, s));
   RT_CHECK_OK(cudaFreeAsync(a, s));
   RT_CHECK_OK(cudaFreeAsync(b, s));
   RT_CHECK_OK(cudaStreamSynchronize(s));
   RT_CHECK(memcmp(back, want, sizeof(want)) == 0);

   RT_CHECK_ERR(cudaErrorInvalidValue, cudaMemPoolDestroy(pool));
   RT_CHECK_ERR(cudaErrorInvalidValue, cudaMallocFromPoolAsync(&a, 16, pool, s));
   RT_CHECK_ERR(cudaErrorInvalidValue, cudaMallocFromPoolAsync(NULL, 16, cur, s));
   RT_CHECK_ERR(cudaErrorInvalidValue, cudaMemPoolDestroy(cur));
   RT_CHECK_ERR(cudaErrorInvalidValue, cudaMemPoolCreate(&pool, NULL));
   props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
   RT_CHECK_ERR(cudaErrorNotSupported, cudaMemPoolCreate(&pool, &props));
   cudaGetLastError();
   RT_CHECK_OK(cudaDeviceSynchronize());
   RT_CHECK_OK(cudaStreamDestroy(s));
}

static void
memory_malloc_free(void)
{
   void *p = (void *)0x1, *h = (void *)0x1;

   /* Size 0 allocates nothing and succeeds. */
   RT_CHECK_OK(cudaMalloc(&p, 0));
   RT_CHECK(p == NULL);
   RT_CHECK_OK(cudaMallocHost(&h, 0));
   RT_CHECK(h == NULL);
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMalloc(NULL, 16));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMallocHost(NULL, 16));

   RT_REQUIRE_OK(cudaMalloc(&p, RT_MIB));
   RT_CHECK(((uintptr_t)p & 255) == 0);
   RT_REQUIRE_OK(cudaMallocHost(&h, RT_MIB));
   RT_CHECK(((uintptr_t)h & 4095) == 0);

   /* Only the start of an allocation of the right kind frees it. */
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaFree((char *)p + 256));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaFree(h));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaFreeHost(p));
   char local[16];
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaFree(local));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaFreeHost(local));

   RT_CHECK_OK(cudaFree(p));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaFree(p));
   RT_CHECK_OK(cudaFreeHost(h));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaFreeHost(h));
   RT_CHECK_OK(cudaFree(NULL));
   RT_CHECK_OK(cudaFreeHost(NULL));
}

static void
copy_matrix(bool async)
{
   const size_t size = 64 * RT_KIB + 3;
   uint8_t *want = malloc(size), *got = malloc(size), *zero = calloc(1, size);
   cudaStream_t s = NULL;
   unsigned seed = 1;

   RT_REQUIRE(want && got && zero);
   if (async)
      RT_REQUIRE_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

   for (int k = cudaMemcpyHostToHost; k <= cudaMemcpyDefault; k++) {
      enum cudaMemcpyKind kind = (enum cudaMemcpyKind)k;
      for (int d = 0; d < RT_MEM_COUNT; d++) {
         for (int sk = 0; sk < RT_MEM_COUNT; sk++) {
            void *dst = mem_alloc((enum rt_mem)d, size);
            void *src = mem_alloc((enum rt_mem)sk, size);
            rt_fill_pattern(want, size, seed++);
            mem_write(src, want, size);
            mem_write(dst, zero, size);

            bool ok = kind_allows(kind, (enum rt_mem)d, (enum rt_mem)sk);
            cudaError_t expected = ok ? cudaSuccess : cudaErrorInvalidValue;
            cudaError_t err = async ? cudaMemcpyAsync(dst, src, size, kind, s)
                                    : cudaMemcpy(dst, src, size, kind);
            RT_CHECK_MSG(err == expected, "%s kind %d, %s to %s: got %s, expected %s",
                         async ? "cudaMemcpyAsync" : "cudaMemcpy", k, rt_mem_names[sk], rt_mem_names[d],
                         cudaGetErrorName(err), cudaGetErrorName(expected));
            RT_CHECK_ERR(expected, cudaGetLastError());
            if (async)
               RT_CHECK_OK(cudaStreamSynchronize(s));

            mem_read(got, dst, size);
            RT_CHECK_BYTES(got, ok ? want : zero, size, "kind %d, %s to %s", k, rt_mem_names[sk],
                           rt_mem_names[d]);
            mem_free((enum rt_mem)d, dst);
            mem_free((enum rt_mem)sk, src);
         }
      }
   }
   if (async)
      RT_CHECK_OK(cudaStreamDestroy(s));
   free(want);
   free(got);
   free(zero);
}

static void
memory_copy_kinds(void)
{
   copy_matrix(false);
}

static void
memory_copy_kinds_async(void)
{
   copy_matrix(true);
}

static void
memory_copy_errors(void)
{
   void *a, *b;
   char host[64];

   RT_REQUIRE_OK(cudaMalloc(&a, 4096));
   RT_REQUIRE_OK(cudaMalloc(&b, 4096));

   RT_CHECK_FAILS(cudaErrorInvalidMemcpyDirection, cudaMemcpy(a, b, 16, (enum cudaMemcpyKind)7));
   RT_CHECK_FAILS(cudaErrorInvalidMemcpyDirection, cudaMemcpy(a, b, 16, (enum cudaMemcpyKind)-1));
   RT_CHECK_FAILS(cudaErrorInvalidMemcpyDirection, cudaMemcpyAsync(a, b, 16, (enum cudaMemcpyKind)5, 0));
   /* Nothing to copy is success whatever the pointers and kind. */
   RT_CHECK_OK(cudaMemcpy(NULL, b, 0, cudaMemcpyDeviceToDevice));
   RT_CHECK_OK(cudaMemcpy(NULL, NULL, 0, (enum cudaMemcpyKind)9));
   RT_CHECK_OK(cudaMemcpyAsync(NULL, NULL, 0, cudaMemcpyDefault, 0));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemcpy(NULL, b, 16, cudaMemcpyDeviceToDevice));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemcpy(host, NULL, 16, cudaMemcpyDefault));

   RT_CHECK_OK(cudaFree(a));
   RT_CHECK_OK(cudaFree(b));
}

/* A copy that runs past the end of its allocation fails, even where
 * another allocation happens to follow it, and copies nothing. */
static void
memory_copy_past_end(void)
{
   const size_t size = 4096;
   uint8_t img[2][4096], got[4096], host[64];
   void *a, *b;

   RT_REQUIRE_OK(cudaMalloc(&a, size));
   RT_REQUIRE_OK(cudaMalloc(&b, size));
   rt_fill_pattern(img[0], size, 1);
   rt_fill_pattern(img[1], size, 2);
   mem_write(a, img[0], size);
   mem_write(b, img[1], size);
   memset(host, 0x99, sizeof(host));

   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemcpy((char *)a + size - 8, host, 16, cudaMemcpyHostToDevice));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemcpy((char *)b + size - 8, a, 16, cudaMemcpyDeviceToDevice));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemcpy(host, (char *)a + size - 8, 16, cudaMemcpyDefault));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemcpy(host, (char *)b + size - 8, 16, cudaMemcpyDeviceToHost));
   RT_CHECK_OK(cudaDeviceSynchronize());

   mem_read(got, a, size);
   RT_CHECK_BYTES(got, img[0], size, "first allocation");
   mem_read(got, b, size);
   RT_CHECK_BYTES(got, img[1], size, "second allocation");
   RT_CHECK_OK(cudaFree(a));
   RT_CHECK_OK(cudaFree(b));
}

static void
memory_default_streams(void)
{
   const size_t size = 8192;
   const cudaStream_t streams[] = { 0, cudaStreamLegacy, cudaStreamPerThread };
   uint8_t want[8192], got[8192];
   void *d;

   RT_REQUIRE_OK(cudaMalloc(&d, size));
   for (size_t i = 0; i < RT_ARRAY_SIZE(streams); i++) {
      rt_fill_pattern(want, size, (unsigned)i + 7);
      memset(got, 0, size);
      RT_CHECK_OK(cudaMemcpyAsync(d, want, size, cudaMemcpyHostToDevice, streams[i]));
      RT_CHECK_OK(cudaMemsetAsync((char *)d + 100, 0x42, 10, streams[i]));
      RT_CHECK_OK(cudaMemcpyAsync(got, d, size, cudaMemcpyDeviceToHost, streams[i]));
      RT_CHECK_OK(cudaStreamSynchronize(streams[i]));
      RT_CHECK_OK(cudaStreamQuery(streams[i]));
      memset(want + 100, 0x42, 10);
      RT_CHECK_BYTES(got, want, size, "default stream %zu", i);
   }
   RT_CHECK_OK(cudaFree(d));
}

static void
memory_memset(void)
{
   const size_t size = 16 * RT_KIB;
   uint8_t *want = malloc(size), *got = malloc(size);
   void *d, *h;
   cudaStream_t s;

   RT_REQUIRE(want && got);
   RT_REQUIRE_OK(cudaMalloc(&d, size));
   RT_REQUIRE_OK(cudaMallocHost(&h, size));
   RT_REQUIRE_OK(cudaStreamCreate(&s));

   /* The value is taken as an unsigned char. */
   RT_CHECK_OK(cudaMemset(d, 0x1ab, size));
   memset(want, 0xab, size);
   mem_read(got, d, size);
   RT_CHECK_BYTES(got, want, size, "cudaMemset of device memory");

   /* An unaligned piece in the middle, on a stream. */
   RT_CHECK_OK(cudaMemsetAsync((char *)d + 1001, 0x17, 3333, s));
   RT_CHECK_OK(cudaStreamSynchronize(s));
   memset(want + 1001, 0x17, 3333);
   mem_read(got, d, size);
   RT_CHECK_BYTES(got, want, size, "cudaMemsetAsync of part of device memory");

   /* Pinned memory is memory the device can address: it can be set. */
   RT_CHECK_OK(cudaMemset(h, 0x33, size));
   memset(want, 0x33, size);
   RT_CHECK_BYTES(h, want, size, "cudaMemset of pinned memory");

   /* Pageable memory cannot; nothing to set always can. */
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemset(got, 0, 16));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemset(NULL, 0, 16));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemset((char *)d + size - 8, 0, 16));
   RT_CHECK_OK(cudaMemset(NULL, 0, 0));
   RT_CHECK_OK(cudaMemsetAsync(NULL, 0, 0, s));

   RT_CHECK_OK(cudaStreamDestroy(s));
   RT_CHECK_OK(cudaFreeHost(h));
   RT_CHECK_OK(cudaFree(d));
   free(want);
   free(got);
}

static void
memory_host(void)
{
   void *h = NULL, *dp = NULL, *d = NULL;
   unsigned flags = 0;
   char local[64];

   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaHostAlloc(&h, 4096, 0x10));
   RT_REQUIRE_OK(cudaHostAlloc(&h, 64 * RT_KIB,
                               cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined));
   RT_CHECK_OK(cudaHostGetFlags(&flags, h));
   RT_CHECK_MSG(flags & cudaHostAllocMapped, "flags 0x%x", flags);

   /* Under unified addressing a pinned pointer is its own device pointer. */
   RT_CHECK_OK(cudaHostGetDevicePointer(&dp, h, 0));
   RT_CHECK(dp == h);
   RT_CHECK_OK(cudaHostGetDevicePointer(&dp, (char *)h + 100, 0));
   RT_CHECK(dp == (char *)h + 100);
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaHostGetDevicePointer(&dp, h, 1));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaHostGetDevicePointer(&dp, local, 0));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaHostGetDevicePointer(NULL, h, 0));
   RT_REQUIRE_OK(cudaMalloc(&d, 4096));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaHostGetDevicePointer(&dp, d, 0));
   RT_CHECK_OK(cudaFree(d));
   RT_CHECK_OK(cudaFreeHost(h));

   /* Registering pageable memory, where the device can. */
   if (!attr(cudaDevAttrHostRegisterSupported, 0)) {
      printf("note: device 0 cannot register host memory; cudaHostRegister not tested\n");
      return;
   }
   const size_t size = RT_MIB;
   uint8_t *mem = malloc(size), *want = malloc(size), *got = malloc(size);
   RT_REQUIRE(mem && want && got);
   RT_REQUIRE_OK(cudaHostRegister(mem, size, cudaHostRegisterDefault));
   RT_CHECK_FAILS(cudaErrorHostMemoryAlreadyRegistered, cudaHostRegister(mem, size, 0));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaHostRegister(want, size, 0x20));
   RT_CHECK_OK(cudaHostGetDevicePointer(&dp, mem, 0));
   RT_CHECK(dp == mem);

   /* Registered memory is device-side memory for cudaMemcpy's kinds. */
   RT_REQUIRE_OK(cudaMalloc(&d, size));
   rt_fill_pattern(want, size, 99);
   RT_CHECK_OK(cudaMemcpy(d, want, size, cudaMemcpyHostToDevice));
   RT_CHECK_OK(cudaMemcpy(mem, d, size, cudaMemcpyDeviceToDevice));
   RT_CHECK_BYTES(mem, want, size, "device to registered memory");
   RT_CHECK_OK(cudaMemset(mem, 0x71, 4096));
   memset(want, 0x71, 4096);
   RT_CHECK_BYTES(mem, want, size, "cudaMemset of registered memory");

   RT_CHECK_OK(cudaHostUnregister(mem));
   RT_CHECK_FAILS(cudaErrorHostMemoryNotRegistered, cudaHostUnregister(mem));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaHostUnregister(NULL));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaMemcpy(mem, d, size, cudaMemcpyDeviceToDevice));
   RT_CHECK_OK(cudaFree(d));
   free(mem);
   free(want);
   free(got);
}

static void
memory_pointer_attributes(void)
{
   struct cudaPointerAttributes a;
   char *pageable = malloc(256);
   void *h, *d;

   RT_REQUIRE(pageable);
   RT_REQUIRE_OK(cudaMallocHost(&h, 4096));
   RT_REQUIRE_OK(cudaMalloc(&d, 4096));

   /* Memory CUDA does not know is not an error. */
   memset(&a, 0x55, sizeof(a));
   RT_CHECK_OK(cudaPointerGetAttributes(&a, pageable));
   RT_CHECK(a.type == cudaMemoryTypeUnregistered);
   RT_CHECK(a.device == cudaInvalidDeviceId);
   RT_CHECK(a.devicePointer == NULL);
   RT_CHECK(a.hostPointer == pageable);

   memset(&a, 0x55, sizeof(a));
   RT_CHECK_OK(cudaPointerGetAttributes(&a, NULL));
   RT_CHECK(a.type == cudaMemoryTypeUnregistered);
   RT_CHECK(a.devicePointer == NULL && a.hostPointer == NULL);

   memset(&a, 0x55, sizeof(a));
   RT_CHECK_OK(cudaPointerGetAttributes(&a, (char *)h + 10));
   RT_CHECK(a.type == cudaMemoryTypeHost);
   RT_CHECK(a.device == 0);
   RT_CHECK(a.devicePointer == (char *)h + 10);
   RT_CHECK(a.hostPointer == (char *)h + 10);

   memset(&a, 0x55, sizeof(a));
   RT_CHECK_OK(cudaPointerGetAttributes(&a, (char *)d + 100));
   RT_CHECK(a.type == cudaMemoryTypeDevice);
   RT_CHECK(a.device == 0);
   RT_CHECK(a.devicePointer == (char *)d + 100);
   RT_CHECK(a.hostPointer == NULL);

   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaPointerGetAttributes(NULL, d));
   RT_CHECK_OK(cudaFree(d));
   RT_CHECK_OK(cudaFreeHost(h));
   free(pageable);
}

static void
memory_get_info(void)
{
   size_t free_bytes = 0, total = 0;
   void *d;

   RT_CHECK_OK(cudaMemGetInfo(&free_bytes, &total));
   RT_CHECK(total > 0 && free_bytes <= total);
   /* Either output may be left out. */
   RT_CHECK_OK(cudaMemGetInfo(NULL, &total));
   RT_CHECK_OK(cudaMemGetInfo(&free_bytes, NULL));
   RT_CHECK_OK(cudaMemGetInfo(NULL, NULL));

   struct cudaDeviceProp p;
   RT_CHECK_OK(cudaGetDeviceProperties(&p, 0));
   RT_CHECK(total == p.totalGlobalMem);

   RT_REQUIRE_OK(cudaMalloc(&d, 4 * RT_MIB));
   RT_CHECK_OK(cudaFree(d));
}

/* ---- Streams and events ---- */

static void
stream_basic(void)
{
   cudaStream_t s = NULL, nb = NULL, hi = NULL, lo = NULL;
   unsigned flags = 99;
   int least = 99, greatest = 99, prio = 99;

   RT_CHECK_OK(cudaStreamCreate(&s));
   RT_CHECK_OK(cudaStreamGetFlags(s, &flags));
   RT_CHECK(flags == cudaStreamDefault);
   RT_CHECK_OK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
   RT_CHECK_OK(cudaStreamGetFlags(nb, &flags));
   RT_CHECK(flags == cudaStreamNonBlocking);

   /* Priorities outside the range are clamped into it. */
   RT_CHECK_OK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
   RT_CHECK(greatest <= least);
   RT_CHECK_OK(cudaStreamCreateWithPriority(&hi, cudaStreamNonBlocking, greatest - 100));
   RT_CHECK_OK(cudaStreamGetPriority(hi, &prio));
   RT_CHECK(prio == greatest);
   RT_CHECK_OK(cudaStreamCreateWithPriority(&lo, 0, least + 100));
   RT_CHECK_OK(cudaStreamGetPriority(lo, &prio));
   RT_CHECK(prio == least);
   RT_CHECK_OK(cudaStreamGetPriority(0, &prio));
   RT_CHECK(prio == 0);

   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaStreamCreateWithFlags(&s, 0x4));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaStreamCreate(NULL));

   const cudaStream_t all[] = { s, nb, hi, lo, 0, cudaStreamLegacy, cudaStreamPerThread };
   for (size_t i = 0; i < RT_ARRAY_SIZE(all); i++) {
      RT_CHECK_OK(cudaStreamSynchronize(all[i]));
      RT_CHECK_OK(cudaStreamQuery(all[i]));
   }
   RT_CHECK_OK(cudaDeviceSynchronize());

   /* The special streams are not objects to destroy. */
   RT_CHECK_FAILS(cudaErrorInvalidResourceHandle, cudaStreamDestroy(NULL));
   RT_CHECK_FAILS(cudaErrorInvalidResourceHandle, cudaStreamDestroy(cudaStreamLegacy));
   RT_CHECK_FAILS(cudaErrorInvalidResourceHandle, cudaStreamDestroy(cudaStreamPerThread));

   RT_CHECK_OK(cudaStreamDestroy(s));
   RT_CHECK_OK(cudaStreamDestroy(nb));
   RT_CHECK_OK(cudaStreamDestroy(hi));
   RT_CHECK_OK(cudaStreamDestroy(lo));
}

static void
event_basic(void)
{
   cudaEvent_t a, b, untimed;
   cudaStream_t s;
   float ms = -1.0f;
   void *d;

   RT_REQUIRE_OK(cudaStreamCreate(&s));
   RT_REQUIRE_OK(cudaEventCreate(&a));
   RT_REQUIRE_OK(cudaEventCreateWithFlags(&b, cudaEventDefault));
   RT_REQUIRE_OK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming | cudaEventBlockingSync));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaEventCreateWithFlags(&a, 0x40));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaEventCreate(NULL));

   /* An event never recorded is complete but has no time. */
   RT_CHECK_OK(cudaEventQuery(a));
   RT_CHECK_OK(cudaEventSynchronize(a));
   RT_CHECK_FAILS(cudaErrorInvalidResourceHandle, cudaEventElapsedTime(&ms, a, b));

   RT_REQUIRE_OK(cudaMalloc(&d, 8 * RT_MIB));
   RT_CHECK_OK(cudaEventRecord(a, s));
   RT_CHECK_OK(cudaMemsetAsync(d, 1, 8 * RT_MIB, s));
   RT_CHECK_OK(cudaEventRecord(b, s));
   RT_CHECK_OK(cudaEventRecord(untimed, s));
   RT_CHECK_OK(cudaEventSynchronize(b));
   RT_CHECK_OK(cudaEventQuery(b));
   RT_CHECK_OK(cudaEventElapsedTime(&ms, a, b));
   RT_CHECK_MSG(ms >= 0.0f, "elapsed %f ms", (double)ms);
   RT_CHECK_OK(cudaEventSynchronize(untimed));
   RT_CHECK_FAILS(cudaErrorInvalidResourceHandle, cudaEventElapsedTime(&ms, a, untimed));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaEventElapsedTime(NULL, a, b));

   /* Recording on the default streams. */
   RT_CHECK_OK(cudaEventRecord(a, 0));
   RT_CHECK_OK(cudaEventRecord(b, cudaStreamPerThread));
   RT_CHECK_OK(cudaEventSynchronize(b));

   /* Waits: no flags, or cudaEventWaitExternal, which means something
    * only while a stream is being captured. */
   RT_CHECK_OK(cudaStreamWaitEvent(s, b, 0));
   RT_CHECK_OK(cudaStreamWaitEvent(0, b, cudaEventWaitDefault));
   RT_CHECK_FAILS(cudaErrorIllegalState, cudaStreamWaitEvent(s, b, cudaEventWaitExternal));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaStreamWaitEvent(s, b, 2));

   RT_CHECK_FAILS(cudaErrorInvalidResourceHandle, cudaEventRecord(NULL, s));
   RT_CHECK_FAILS(cudaErrorInvalidResourceHandle, cudaEventDestroy(NULL));

   RT_CHECK_OK(cudaStreamSynchronize(s));
   RT_CHECK_OK(cudaFree(d));
   RT_CHECK_OK(cudaEventDestroy(a));
   RT_CHECK_OK(cudaEventDestroy(b));
   RT_CHECK_OK(cudaEventDestroy(untimed));
   RT_CHECK_OK(cudaStreamDestroy(s));
}

/* Work split over two streams joined by an event lands in order. */
static void
stream_event_ordering(void)
{
   const size_t size = 4 * RT_MIB;
   uint8_t *want = malloc(size), *got = NULL;
   void *a, *b;
   cudaStream_t s1, s2;
   cudaEvent_t e;

   RT_REQUIRE(want);
   RT_REQUIRE_OK(cudaMallocHost((void **)&got, size));
   RT_REQUIRE_OK(cudaMalloc(&a, size));
   RT_REQUIRE_OK(cudaMalloc(&b, size));
   RT_REQUIRE_OK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
   RT_REQUIRE_OK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
   RT_REQUIRE_OK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));

   for (unsigned round = 0; round < 4; round++) {
      rt_fill_pattern(want, size, round + 50);
      memset(got, 0, size);
      RT_CHECK_OK(cudaMemcpyAsync(a, want, size, cudaMemcpyHostToDevice, s1));
      RT_CHECK_OK(cudaMemsetAsync(a, (int)round, 1000, s1));
      RT_CHECK_OK(cudaEventRecord(e, s1));
      RT_CHECK_OK(cudaStreamWaitEvent(s2, e, 0));
      RT_CHECK_OK(cudaMemcpyAsync(b, a, size, cudaMemcpyDeviceToDevice, s2));
      RT_CHECK_OK(cudaMemcpyAsync(got, b, size, cudaMemcpyDeviceToHost, s2));
      RT_CHECK_OK(cudaStreamSynchronize(s2));
      memset(want, (int)round, 1000);
      RT_CHECK_BYTES(got, want, size, "round %u", round);
   }

   RT_CHECK_OK(cudaEventDestroy(e));
   RT_CHECK_OK(cudaStreamDestroy(s1));
   RT_CHECK_OK(cudaStreamDestroy(s2));
   RT_CHECK_OK(cudaFree(a));
   RT_CHECK_OK(cudaFree(b));
   RT_CHECK_OK(cudaFreeHost(got));
   free(want);
}

/* ---- Device reset ---- */

static void
device_reset(void)
{
   const size_t size = 64 * RT_KIB;
   uint8_t *want = malloc(size), *got = malloc(size);
   void *d, *d2;
   cudaStream_t s;

   RT_REQUIRE(want && got);
   RT_REQUIRE_OK(cudaMalloc(&d, size));
   RT_REQUIRE_OK(cudaStreamCreate(&s));
   RT_CHECK_OK(cudaMemsetAsync(d, 0, size, s));

   /* Everything of the device goes; the next call starts afresh. */
   RT_CHECK_OK(cudaDeviceReset());
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaFree(d));
   RT_CHECK_OK(cudaDeviceReset());

   RT_REQUIRE_OK(cudaMalloc(&d2, size));
   rt_fill_pattern(want, size, 3);
   RT_CHECK_OK(cudaMemcpy(d2, want, size, cudaMemcpyHostToDevice));
   RT_CHECK_OK(cudaMemcpy(got, d2, size, cudaMemcpyDeviceToHost));
   RT_CHECK_BYTES(got, want, size, "after cudaDeviceReset");
   RT_CHECK_OK(cudaFree(d2));
   free(want);
   free(got);
}

static void
device_limits(void)
{
   size_t v = 0;

   RT_CHECK_OK(cudaDeviceGetLimit(&v, cudaLimitStackSize));
   RT_CHECK(v == 1024);
   RT_CHECK_OK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 << 20));
   RT_CHECK_OK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
   RT_CHECK(v == 32 << 20);
   RT_CHECK_FAILS(cudaErrorUnsupportedLimit, cudaDeviceGetLimit(&v, cudaLimitDevRuntimeSyncDepth));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 129));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaDeviceGetLimit(NULL, cudaLimitStackSize));
   RT_CHECK_FAILS(cudaErrorInvalidValue, cudaDeviceGetLimit(&v, (enum cudaLimit)100));
   /* The limits are the primary context's: a reset brings the defaults
    * back with the next one. */
   RT_CHECK_OK(cudaDeviceReset());
   RT_CHECK_OK(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
   RT_CHECK(v == 8 << 20);
}

/* ---- Threads ---- */

#define THREADS 4

struct worker {
   unsigned index;
   pthread_barrier_t *barrier;
   unsigned failures_before;
};

static void *
worker_fn(void *arg)
{
   struct worker *w = arg;
   const size_t size = 256 * RT_KIB + w->index;
   uint8_t *want = malloc(size), *got = NULL;
   cudaStream_t s;
   void *d;

   RT_REQUIRE(want);
   /* Odd threads leave an error behind; it stays theirs. */
   if (w->index & 1)
      RT_CHECK_ERR(cudaErrorInvalidDevice, cudaSetDevice(-1));
   pthread_barrier_wait(w->barrier);
   RT_CHECK_ERR((w->index & 1) ? cudaErrorInvalidDevice : cudaSuccess, cudaGetLastError());

   RT_REQUIRE_OK(cudaMallocHost((void **)&got, size));
   RT_REQUIRE_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
   for (unsigned i = 0; i < 16; i++) {
      RT_REQUIRE_OK(cudaMalloc(&d, size));
      rt_fill_pattern(want, size, w->index * 100 + i);
      RT_CHECK_OK(cudaMemcpyAsync(d, want, size, cudaMemcpyHostToDevice, s));
      RT_CHECK_OK(cudaMemcpyAsync(got, d, size, cudaMemcpyDeviceToHost, s));
      RT_CHECK_OK(cudaStreamSynchronize(s));
      RT_CHECK_BYTES(got, want, size, "thread %u round %u", w->index, i);
      RT_CHECK_OK(cudaFree(d));
   }
   RT_CHECK_OK(cudaStreamDestroy(s));
   RT_CHECK_OK(cudaFreeHost(got));
   free(want);
   return NULL;
}

static void
threads_concurrent(void)
{
   pthread_t threads[THREADS];
   struct worker workers[THREADS];
   pthread_barrier_t barrier;

   pthread_barrier_init(&barrier, NULL, THREADS);
   for (unsigned i = 0; i < THREADS; i++) {
      workers[i] = (struct worker){ .index = i, .barrier = &barrier };
      RT_REQUIRE(pthread_create(&threads[i], NULL, worker_fn, &workers[i]) == 0);
   }
   for (unsigned i = 0; i < THREADS; i++)
      pthread_join(threads[i], NULL);
   pthread_barrier_destroy(&barrier);
   /* None of the workers' errors is this thread's. */
   RT_CHECK_OK(cudaPeekAtLastError());
}

/* cudaGetDriverEntryPoint(ByVersion): the driver's calls by name, as
 * cuGetProcAddress finds them; what it does not find is no error. */
static void
device_driver_entry_point(void)
{
   typedef int (*driver_get_version_fn)(int *);
   enum cudaDriverEntryPointQueryResult status;
   void *fn = NULL, *legacy = NULL, *per_thread = NULL;
   int via_driver = 0, via_runtime = 0;

   status = (enum cudaDriverEntryPointQueryResult)-1;
   RT_CHECK_OK(cudaGetDriverEntryPointByVersion("cuDriverGetVersion", &fn, 13000,
                                                cudaEnableDefault, &status));
   RT_CHECK(status == cudaDriverEntryPointSuccess);
   RT_REQUIRE(fn != NULL);
   RT_CHECK(((driver_get_version_fn)fn)(&via_driver) == 0);
   RT_CHECK_OK(cudaDriverGetVersion(&via_runtime));
   RT_CHECK(via_driver == via_runtime && via_driver > 0);

   /* The older form, at the runtime's own version (deprecated in 13.0). */
   fn = NULL;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
   RT_CHECK_OK(cudaGetDriverEntryPoint("cuDriverGetVersion", &fn, cudaEnableDefault, &status));
#pragma GCC diagnostic pop
   RT_CHECK(fn != NULL && status == cudaDriverEntryPointSuccess);

   /* cuStreamQuery has a per-thread default stream form. */
   RT_CHECK_OK(cudaGetDriverEntryPointByVersion("cuStreamQuery", &legacy, 13000,
                                                cudaEnableLegacyStream, &status));
   RT_CHECK_OK(cudaGetDriverEntryPointByVersion("cuStreamQuery", &per_thread, 13000,
                                                cudaEnablePerThreadDefaultStream, &status));
   RT_CHECK(legacy != NULL && per_thread != NULL && legacy != per_thread);

   /* Not found: success, NULL and the reason. */
   fn = &fn;
   RT_CHECK_OK(cudaGetDriverEntryPointByVersion("cuNoSuchCall", &fn, 13000, cudaEnableDefault,
                                                &status));
   RT_CHECK(fn == NULL && status == cudaDriverEntryPointSymbolNotFound);
   /* cuMemCreate is CUDA 10.2's; asked for as 10.0. */
   fn = &fn;
   RT_CHECK_OK(cudaGetDriverEntryPointByVersion("cuMemCreate", &fn, 10000, cudaEnableDefault,
                                                &status));
   RT_CHECK(fn == NULL && status == cudaDriverEntryPointVersionNotSufficent);
   RT_CHECK_OK(cudaGetLastError());
}

static const struct rt_case cases[] = {
   RT_CASE("runtime.init.implicit", init_implicit),
   RT_CASE("runtime.device.properties", device_properties),
   RT_CASE("runtime.device.uuid_matches_vulkan", device_uuid_matches_vulkan),
   RT_CASE("runtime.device.set_get", device_set_get),
   RT_CASE("runtime.device.reset", device_reset),
   RT_CASE("runtime.device.limits", device_limits),
   RT_CASE("runtime.device.driver_entry_point", device_driver_entry_point),
   RT_CASE("runtime.error.last_error", error_last_error),
   RT_CASE("runtime.error.names", error_names),
   RT_CASE("runtime.memory.malloc_free", memory_malloc_free),
   RT_CASE("runtime.memory.malloc_async", memory_malloc_async),
   RT_CASE("runtime.memory.mem_pool", memory_mem_pool),
   RT_CASE("runtime.memory.copy_kinds", memory_copy_kinds),
   RT_CASE("runtime.memory.copy_kinds_async", memory_copy_kinds_async),
   RT_CASE("runtime.memory.copy_errors", memory_copy_errors),
   RT_CASE("runtime.memory.copy_past_end", memory_copy_past_end),
   RT_CASE("runtime.memory.default_streams", memory_default_streams),
   RT_CASE("runtime.memory.memset", memory_memset),
   RT_CASE("runtime.memory.host", memory_host),
   RT_CASE("runtime.memory.pointer_attributes", memory_pointer_attributes),
   RT_CASE("runtime.memory.get_info", memory_get_info),
   RT_CASE("runtime.stream.basic", stream_basic),
   RT_CASE("runtime.stream.event_ordering", stream_event_ordering),
   RT_CASE("runtime.event.basic", event_basic),
   RT_CASE("runtime.threads.concurrent", threads_concurrent),
};

RT_MAIN(cases)
