/*
 * A CUDA driver-API program built the way a user's would be: against
 * NVIDIA's own cuda.h, linked with -lcuda, and run on cuvk's drop-in
 * libcuda.so.1.  If a type, a constant or a versioned symbol name of our
 * header differed from NVIDIA's, this program would fail to link, or
 * pass wrong arguments and fail its checks.
 *
 * It runs the foundation's whole "done when" flow in one process, each
 * step a case of api_test.h's harness (run with no arguments, in order):
 * errors before cuInit, every error name NVIDIA's header declares,
 * devices, contexts, memory, copies in every direction with unaligned
 * ranges and a 300 MiB copy, fills, streams and events, and the error
 * codes of misuse.
 *
 * Only NVIDIA's cuda.h may be on the include path (meson.build makes
 * sure); the #error below catches a build that picked up ours.
 */
#include "api_test.h"

#include <sys/mman.h>

/* Macros of NVIDIA's header that cuvk's does not define (kernel launch
 * parameters): their presence shows which cuda.h this is. */
#if !defined(CU_LAUNCH_PARAM_END) || !defined(CU_TRSF_READ_AS_INTEGER)
#error "nvidia_abi_program.c must be compiled against NVIDIA's cuda.h, not cuvk's"
#endif

static const struct {
   CUresult code;
   const char *name;
} nvidia_results[] = {
#define API_RESULT(x) { x, #x },
#include "api_nvidia_result_list.h"
#undef API_RESULT
};

/* ---- Before cuInit ---- */

static void
flow_before_init(void)
{
   const CUresult want = CUDA_ERROR_NOT_INITIALIZED;
   uint8_t host[16];
   int count = 0;
   CUdevice dev;
   CUdeviceptr d;
   CUcontext ctx;
   CUstream s;
   CUevent e;
   void *p;
   size_t free_bytes, total;

   API_CHECK_RES(want, cuDeviceGetCount(&count));
   API_CHECK_RES(want, cuDeviceGet(&dev, 0));
   API_CHECK_RES(want, cuDevicePrimaryCtxRetain(&ctx, 0));
   API_CHECK_RES(want, cuCtxGetCurrent(&ctx));
   API_CHECK_RES(want, cuMemAlloc(&d, 256));
   API_CHECK_RES(want, cuMemAllocHost(&p, 256));
   API_CHECK_RES(want, cuMemGetInfo(&free_bytes, &total));
   API_CHECK_RES(want, cuMemcpyHtoD(0x1000, host, sizeof(host)));
   API_CHECK_RES(want, cuMemsetD32(0x1000, 0, 4));
   API_CHECK_RES(want, cuStreamCreate(&s, 0));
   API_CHECK_RES(want, cuEventCreate(&e, 0));

   int version = 0;
   API_CHECK_CU(cuDriverGetVersion(&version));
   API_CHECK_MSG(version >= CUDA_VERSION, "driver %d, header %d", version, CUDA_VERSION);

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuInit(1));
   API_CHECK_RES(want, cuDeviceGetCount(&count));
   API_CHECK_CU(cuInit(0));
   API_CHECK_CU(cuInit(0));
   API_CHECK_CU(cuDeviceGetCount(&count));
   API_CHECK(count >= 1);
}

/* cuvk names every result code NVIDIA's header declares. */
static void
flow_error_names(void)
{
   for (size_t i = 0; i < API_ARRAY_SIZE(nvidia_results); i++) {
      const char *name = NULL, *str = NULL;
      if (!API_CHECK_MSG(cuGetErrorName(nvidia_results[i].code, &name) == CUDA_SUCCESS && name,
                         "cuGetErrorName(%s) failed", nvidia_results[i].name))
         continue;
      API_CHECK_MSG(strcmp(name, nvidia_results[i].name) == 0, "%s is named \"%s\"",
                    nvidia_results[i].name, name);
      API_CHECK_MSG(cuGetErrorString(nvidia_results[i].code, &str) == CUDA_SUCCESS && str && *str,
                    "cuGetErrorString(%s)", nvidia_results[i].name);
   }
   printf("%zu result codes of NVIDIA's header named\n", API_ARRAY_SIZE(nvidia_results));

   const char *str = "untouched";
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGetErrorName((CUresult)12345, &str));
   API_CHECK(str == NULL);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGetErrorString((CUresult)12345, &str));
}

/* ---- Devices and contexts ---- */

static void
flow_devices(void)
{
   int count = 0, value = 0;
   CUdevice dev = -1;
   char name[256];
   CUuuid uuid;
   size_t total = 0;

   API_REQUIRE_CU(cuDeviceGetCount(&count));
   API_CHECK(count >= 1);
   API_CHECK_CU(cuDeviceGet(&dev, 0));
   API_CHECK(dev == 0);
   API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGet(&dev, count));
   API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGet(&dev, -1));

   API_CHECK_CU(cuDeviceGetName(name, sizeof(name), 0));
   API_CHECK(strlen(name) > 0);
   memset(&uuid, 0, sizeof(uuid));
   API_CHECK_CU(cuDeviceGetUuid(&uuid, 0));
   bool nonzero = false;
   for (int i = 0; i < 16; i++)
      nonzero |= uuid.bytes[i] != 0;
   API_CHECK(nonzero);
   API_CHECK_CU(cuDeviceTotalMem(&total, 0));
   API_CHECK(total > 0);
   printf("device 0: %s, %zu MiB\n", name, total >> 20);

   API_CHECK_CU(cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
   API_CHECK(value > 0);
   API_CHECK_CU(cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 0));
   API_CHECK(value > 0);
   API_CHECK_CU(cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 0));
   API_CHECK(value == 1);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetAttribute(&value, (CUdevice_attribute)0, 0));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE,
                 cuDeviceGetAttribute(&value, (CUdevice_attribute)100000, 0));

   char bus[64];
   CUresult res = cuDeviceGetPCIBusId(bus, sizeof(bus), 0);
   API_CHECK_MSG(res == CUDA_SUCCESS || res == CUDA_ERROR_NOT_SUPPORTED, "cuDeviceGetPCIBusId: %s",
                 api_result_name(res));
}

static void
flow_contexts(void)
{
   CUcontext primary = NULL, created = NULL, cur = NULL;
   unsigned flags = 0;
   int active = -1;
   CUdevice dev = -1;

   API_CHECK_CU(cuDevicePrimaryCtxGetState(0, &flags, &active));
   API_CHECK(active == 0);
   API_REQUIRE_CU(cuDevicePrimaryCtxRetain(&primary, 0));
   API_CHECK_CU(cuDevicePrimaryCtxGetState(0, &flags, &active));
   API_CHECK(active == 1);
   API_CHECK_CU(cuCtxSetCurrent(primary));
   API_CHECK_CU(cuCtxGetDevice(&dev));
   API_CHECK(dev == 0);

#if CUDA_VERSION >= 13000
   API_REQUIRE_CU(cuCtxCreate(&created, NULL, 0, 0));
#else
   API_REQUIRE_CU(cuCtxCreate(&created, 0, 0));
#endif
   API_CHECK_CU(cuCtxGetCurrent(&cur));
   API_CHECK(cur == created);
   API_CHECK_CU(cuCtxPopCurrent(&cur));
   API_CHECK(cur == created);
   API_CHECK_CU(cuCtxGetCurrent(&cur));
   API_CHECK(cur == primary);
   API_CHECK_CU(cuCtxPushCurrent(created));
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_CU(cuCtxDestroy(created));
   API_CHECK_CU(cuCtxGetCurrent(&cur));
   API_CHECK(cur == primary);

   API_CHECK_CU(cuCtxSetCurrent(NULL));
   API_CHECK_CU(cuDevicePrimaryCtxRelease(0));
   API_CHECK_CU(cuDevicePrimaryCtxGetState(0, &flags, &active));
   API_CHECK(active == 0);
}

/* ---- Memory ---- */

static void
flow_memory(void)
{
   CUdeviceptr d = 0, base = 0;
   size_t size = 0, free_bytes = 0, total = 0;
   void *pinned = NULL;
   unsigned mem_type = 0;

   API_CHECK_CU(cuMemGetInfo(&free_bytes, &total));
   API_CHECK(total > 0 && free_bytes <= total);

   API_REQUIRE_CU(cuMemAlloc(&d, 1000));
   API_CHECK(d % 256 == 0);
   API_CHECK_CU(cuMemGetAddressRange(&base, &size, d + 999));
   API_CHECK(base == d && size == 1000);
   API_CHECK_CU(cuPointerGetAttribute(&mem_type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d));
   API_CHECK(mem_type == CU_MEMORYTYPE_DEVICE);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFree(d + 4));
   API_CHECK_CU(cuMemFree(d));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFree(d));
   API_CHECK_RES(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, &size, d));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemAlloc(&d, 0));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemAlloc(NULL, 16));

   API_REQUIRE_CU(cuMemAllocHost(&pinned, 1 << 20));
   API_CHECK_CU(cuPointerGetAttribute(&mem_type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                      (CUdeviceptr)(uintptr_t)pinned));
   API_CHECK(mem_type == CU_MEMORYTYPE_HOST);
   API_CHECK_CU(cuMemFreeHost(pinned));

   uint8_t *reg = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   API_REQUIRE(reg != MAP_FAILED);
   API_CHECK_CU(cuMemHostRegister(reg + 3, 100000, 0));
   CUdeviceptr dp = 0;
   API_CHECK_CU(cuMemHostGetDevicePointer(&dp, reg + 3, 0));
   API_CHECK(dp != 0);
   API_CHECK_RES(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, cuMemHostRegister(reg + 3, 10, 0));
   API_CHECK_CU(cuMemHostUnregister(reg + 3));
   API_CHECK_RES(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, cuMemHostUnregister(reg + 3));
   munmap(reg, 1 << 20);
}

/* ---- Copies ---- */

enum flow_fn { FLOW_HTOD, FLOW_DTOH, FLOW_DTOD, FLOW_MEMCPY };

static CUresult
flow_copy_call(enum flow_fn fn, bool async, CUdeviceptr dst, CUdeviceptr src, size_t n,
               CUstream s)
{
   void *hdst = (void *)(uintptr_t)dst;
   const void *hsrc = (const void *)(uintptr_t)src;

   switch (fn) {
   case FLOW_HTOD:
      return async ? cuMemcpyHtoDAsync(dst, hsrc, n, s) : cuMemcpyHtoD(dst, hsrc, n);
   case FLOW_DTOH:
      return async ? cuMemcpyDtoHAsync(hdst, src, n, s) : cuMemcpyDtoH(hdst, src, n);
   case FLOW_DTOD:
      return async ? cuMemcpyDtoDAsync(dst, src, n, s) : cuMemcpyDtoD(dst, src, n);
   case FLOW_MEMCPY:
      return async ? cuMemcpyAsync(dst, src, n, s) : cuMemcpy(dst, src, n);
   }
   return CUDA_ERROR_UNKNOWN;
}

/* Unaligned copies of every size class at destination offsets 0..17,
 * each against one of the source offsets 0..17, with the destination and
 * the bytes after it checked against a host image. */
static void
flow_copy_matrix(const char *label, enum flow_fn fn, enum api_mem_kind dst_kind,
                 enum api_mem_kind src_kind, bool async)
{
   static const size_t sizes[] = { 1, 3, 15, 16, 17, 4095, 65537, API_MIB + 3 };
   const size_t max = API_MIB + 3, src_size = 2048 + 18 + max, dst_size = 18 + max + 64;
   uint8_t *src_img = api_xmalloc(src_size), *dst_img = api_xmalloc(dst_size);
   uint8_t *got = api_xmalloc(dst_size);
   struct api_buf src, dst;
   CUstream s = NULL;
   unsigned iter = 0;

   api_buf_create(&src, src_kind, src_size);
   api_buf_create(&dst, dst_kind, dst_size);
   api_fill_random(src_img, src_size, 11);
   api_fill_random(dst_img, dst_size, 12);
   api_buf_write(&src, 0, src_img, src_size);
   api_buf_write(&dst, 0, dst_img, dst_size);
   if (async)
      API_REQUIRE_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));

   for (size_t si = 0; si < API_ARRAY_SIZE(sizes); si++) {
      for (size_t doff = 0; doff < 18; doff++) {
         size_t soff = (doff * 5 + si) % 18;
         size_t src_at = (iter++ % 8) * 256 + soff;
         size_t n = sizes[si];
         if (!API_CHECK_MSG(flow_copy_call(fn, async, api_buf_ptr(&dst, doff),
                                           api_buf_ptr(&src, src_at), n, s) == CUDA_SUCCESS,
                            "%s: dst+%zu <- src+%zu, %zu bytes", label, doff, src_at, n))
            continue;
         if (s)
            API_CHECK_CU(cuStreamSynchronize(s));
         memcpy(dst_img + doff, src_img + src_at, n);
         size_t window = API_MIN(dst_size, doff + n + 64);
         api_buf_read(&dst, 0, got, window);
         if (!API_CHECK_BYTES(got, dst_img, window, "%s: dst+%zu <- src+%zu, %zu bytes", label,
                              doff, src_at, n))
            memcpy(dst_img, got, window);
      }
   }
   if (s)
      API_CHECK_CU(cuStreamDestroy(s));
   api_buf_destroy(&src);
   api_buf_destroy(&dst);
   free(src_img);
   free(dst_img);
   free(got);
}

static void
flow_copies(void)
{
   static const enum api_mem_kind kinds[] = { API_MEM_DEVICE, API_MEM_PINNED, API_MEM_PAGEABLE };
   char label[64];

   flow_copy_matrix("cuMemcpyHtoD", FLOW_HTOD, API_MEM_DEVICE, API_MEM_PAGEABLE, false);
   flow_copy_matrix("cuMemcpyHtoD pinned", FLOW_HTOD, API_MEM_DEVICE, API_MEM_PINNED, false);
   flow_copy_matrix("cuMemcpyDtoH", FLOW_DTOH, API_MEM_PAGEABLE, API_MEM_DEVICE, false);
   flow_copy_matrix("cuMemcpyDtoH pinned", FLOW_DTOH, API_MEM_PINNED, API_MEM_DEVICE, false);
   flow_copy_matrix("cuMemcpyDtoD", FLOW_DTOD, API_MEM_DEVICE, API_MEM_DEVICE, false);
   flow_copy_matrix("cuMemcpyHtoDAsync", FLOW_HTOD, API_MEM_DEVICE, API_MEM_PINNED, true);
   flow_copy_matrix("cuMemcpyDtoHAsync", FLOW_DTOH, API_MEM_PINNED, API_MEM_DEVICE, true);
   flow_copy_matrix("cuMemcpyDtoDAsync", FLOW_DTOD, API_MEM_DEVICE, API_MEM_DEVICE, true);
   for (size_t i = 0; i < API_ARRAY_SIZE(kinds); i++) {
      for (size_t j = 0; j < API_ARRAY_SIZE(kinds); j++) {
         snprintf(label, sizeof(label), "cuMemcpy %s to %s", api_mem_kind_names[kinds[j]],
                  api_mem_kind_names[kinds[i]]);
         flow_copy_matrix(label, FLOW_MEMCPY, kinds[i], kinds[j], false);
         snprintf(label, sizeof(label), "cuMemcpyAsync %s to %s", api_mem_kind_names[kinds[j]],
                  api_mem_kind_names[kinds[i]]);
         flow_copy_matrix(label, FLOW_MEMCPY, kinds[i], kinds[j], true);
      }
   }
}

static void
flow_large_copy(void)
{
   const size_t size = 300 * API_MIB;
   uint8_t *in = api_xmalloc(size), *out = api_xmalloc(size);
   CUdeviceptr a = 0, b = 0;

   api_fill_random(in, size, 300);
   API_REQUIRE_CU(cuMemAlloc(&a, size));
   API_REQUIRE_CU(cuMemAlloc(&b, size));
   double t0 = api_now();
   API_CHECK_CU(cuMemcpyHtoD(a, in, size));
   API_CHECK_CU(cuMemcpyDtoD(b, a, size));
   API_CHECK_CU(cuMemcpyDtoH(out, b, size));
   printf("300 MiB HtoD, DtoD, DtoH in %.3f s\n", api_now() - t0);
   API_CHECK_BYTES(out, in, size, "300 MiB through two allocations");
   API_CHECK_CU(cuMemFree(a));
   API_CHECK_CU(cuMemFree(b));
   free(in);
   free(out);
}

/* ---- Fills ---- */

static void
flow_fills(void)
{
   static const size_t counts[] = { 1, 3, 17, 4095, 65537, API_MIB + 3 };
   const size_t size = 18 * 4 + (API_MIB + 3) * 4 + 64;
   uint8_t *img = api_xmalloc(size), *got = api_xmalloc(size);
   CUdeviceptr d = 0;
   CUstream s = NULL;
   uint64_t rng = 5;

   API_REQUIRE_CU(cuMemAlloc(&d, size));
   API_REQUIRE_CU(cuStreamCreate(&s, 0));
   api_fill_random(img, size, 13);
   API_REQUIRE_CU(cuMemcpyHtoD(d, img, size));

   for (unsigned elem = 1; elem <= 4; elem *= 2) {
      for (int async = 0; async < 2; async++) {
         for (size_t ci = 0; ci < API_ARRAY_SIZE(counts); ci++) {
            for (size_t e = 0; e < 18; e += 1 + ci % 3) {
               const size_t off = e * elem, n = counts[ci];
               uint32_t v = (uint32_t)api_rand(&rng);
               CUresult res;
               CUstream st = async ? s : NULL;
               if (elem == 1)
                  res = async ? cuMemsetD8Async(d + off, (unsigned char)v, n, st) :
                                cuMemsetD8(d + off, (unsigned char)v, n);
               else if (elem == 2)
                  res = async ? cuMemsetD16Async(d + off, (unsigned short)v, n, st) :
                                cuMemsetD16(d + off, (unsigned short)v, n);
               else
                  res = async ? cuMemsetD32Async(d + off, v, n, st) : cuMemsetD32(d + off, v, n);
               if (!API_CHECK_MSG(res == CUDA_SUCCESS, "D%u fill +%zu x%zu: %s", elem * 8, off, n,
                                  api_result_name(res)))
                  continue;
               if (async)
                  API_CHECK_CU(cuStreamSynchronize(s));
               for (size_t i = 0; i < n; i++)
                  for (unsigned b = 0; b < elem; b++)
                     img[off + i * elem + b] = (uint8_t)(v >> (8 * b));
               size_t window = API_MIN(size, off + n * elem + 64);
               API_CHECK_CU(cuMemcpyDtoH(got, d, window));
               if (!API_CHECK_BYTES(got, img, window, "D%u%s fill +%zu x%zu", elem * 8,
                                    async ? "Async" : "", off, n))
                  memcpy(img, got, window);
            }
         }
      }
   }

   /* 2D, a pitch wider than the rows: the gaps keep their bytes. */
   const size_t pitch = 4 * 1000 + 36, w = 1000, h = 9;
   for (unsigned elem = 1; elem <= 4; elem *= 2) {
      uint32_t v = (uint32_t)api_rand(&rng);
      CUresult res;
      if (elem == 1)
         res = cuMemsetD2D8(d + 4, pitch, (unsigned char)v, w, h);
      else if (elem == 2)
         res = cuMemsetD2D16Async(d + 4, pitch, (unsigned short)v, w, h, s);
      else
         res = cuMemsetD2D32(d + 4, pitch, v, w, h);
      API_CHECK_CU(res);
      API_CHECK_CU(cuStreamSynchronize(s));
      for (size_t r = 0; r < h; r++)
         for (size_t i = 0; i < w; i++)
            for (unsigned b = 0; b < elem; b++)
               img[4 + r * pitch + i * elem + b] = (uint8_t)(v >> (8 * b));
      size_t window = 4 + (h - 1) * pitch + w * elem + 64;
      API_CHECK_CU(cuMemcpyDtoH(got, d, window));
      if (!API_CHECK_BYTES(got, img, window, "2D D%u fill", elem * 8))
         memcpy(img, got, window);
   }

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD16(d + 1, 0, 4));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(d + 2, 0, 4));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD32Async(d + 3, 0, 4, s));

   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFree(d));
   free(img);
   free(got);
}

/* ---- Streams and events ---- */

static void
flow_streams_events(void)
{
   const size_t size = 16 * API_MIB;
   CUdeviceptr a = 0, b = 0;
   uint32_t *in = NULL, *out = NULL;
   CUstream s1 = NULL, s2 = NULL;
   CUevent start = NULL, stop = NULL, untimed = NULL, fresh = NULL;
   float ms = -1;
   int least = 0, greatest = 0, prio = 0;

   API_REQUIRE_CU(cuMemAlloc(&a, size));
   API_REQUIRE_CU(cuMemAlloc(&b, size));
   API_REQUIRE_CU(cuMemAllocHost((void **)&in, size));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out, size));
   API_CHECK_CU(cuCtxGetStreamPriorityRange(&least, &greatest));
   API_REQUIRE_CU(cuStreamCreateWithPriority(&s1, CU_STREAM_NON_BLOCKING, greatest));
   API_CHECK_CU(cuStreamGetPriority(s1, &prio));
   API_CHECK(prio == greatest);
   API_REQUIRE_CU(cuStreamCreate(&s2, 0));
   API_REQUIRE_CU(cuEventCreate(&start, 0));
   API_REQUIRE_CU(cuEventCreate(&stop, CU_EVENT_BLOCKING_SYNC));
   API_REQUIRE_CU(cuEventCreate(&untimed, CU_EVENT_DISABLE_TIMING));
   API_REQUIRE_CU(cuEventCreate(&fresh, 0));

   for (size_t i = 0; i < size / 4; i++)
      in[i] = (uint32_t)i * 2654435761u;
   API_CHECK_CU(cuEventRecord(start, s1));
   API_CHECK_CU(cuMemcpyHtoDAsync(a, in, size, s1));
   API_CHECK_CU(cuEventRecord(untimed, s1));
   API_CHECK_CU(cuStreamWaitEvent(s2, untimed, 0));
   API_CHECK_CU(cuMemcpyDtoDAsync(b, a, size, s2));
   API_CHECK_CU(cuMemcpyDtoHAsync(out, b, size, s2));
   API_CHECK_CU(cuEventRecord(stop, s2));
   CUresult q = cuEventQuery(stop);
   API_CHECK(q == CUDA_SUCCESS || q == CUDA_ERROR_NOT_READY);
   API_CHECK_CU(cuEventSynchronize(stop));
   API_CHECK_CU(cuStreamQuery(s2));
   API_CHECK_BYTES(out, in, size, "HtoD on one stream, DtoD and DtoH on another after an event");

   API_CHECK_CU(cuEventElapsedTime(&ms, start, stop));
   API_CHECK(ms >= 0);
   printf("elapsed %.3f ms\n", ms);
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&ms, start, untimed));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&ms, start, fresh));

   /* The legacy stream after a blocking stream. */
   API_CHECK_CU(cuMemsetD32Async(a, 0x600df00d, size / 4, s2));
   API_CHECK_CU(cuMemcpyDtoHAsync(out, a, size, NULL));
   API_CHECK_CU(cuStreamSynchronize(NULL));
   size_t bad = 0;
   for (size_t i = 0; i < size / 4; i++)
      bad += out[i] != 0x600df00d;
   API_CHECK_MSG(bad == 0, "%zu words: legacy stream ran before the blocking stream's fill", bad);

   API_CHECK_CU(cuEventDestroy(start));
   API_CHECK_CU(cuEventDestroy(stop));
   API_CHECK_CU(cuEventDestroy(untimed));
   API_CHECK_CU(cuEventDestroy(fresh));
   API_CHECK_CU(cuStreamDestroy(s1));
   API_CHECK_CU(cuStreamDestroy(s2));
   API_CHECK_CU(cuMemFreeHost(in));
   API_CHECK_CU(cuMemFreeHost(out));
   API_CHECK_CU(cuMemFree(a));
   API_CHECK_CU(cuMemFree(b));
}

/* ---- Misuse ---- */

static void
flow_errors(void)
{
   uint8_t host[4096];
   CUdeviceptr d = 0;
   CUstream s = NULL;

   /* One allocation well away from any other, so running past its end
    * reaches no other allocation. */
   API_REQUIRE_CU(cuMemAlloc(&d, 70 * API_MIB));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(d + 70 * API_MIB - 100, host, 101));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(host, d + 70 * API_MIB - 1, 2));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(d + 70 * API_MIB - 8, d, 9));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD8(d + 70 * API_MIB - 8, 0, 9));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(0, host, 16));

   API_REQUIRE_CU(cuStreamCreate(&s, 0));
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamQuery(s));
   API_CHECK_CU(cuMemFree(d));

   CUcontext ctx = NULL;
   API_CHECK_CU(cuCtxSetCurrent(NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuMemAlloc(&d, 16));
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxSynchronize());
   API_CHECK_CU(cuCtxSetCurrent(api_ctx));
   API_CHECK_CU(cuCtxGetCurrent(&ctx));
   API_CHECK(ctx == api_ctx);
}

static const struct api_case cases[] = {
   API_CASE_NOINIT("before_init", flow_before_init),
   API_CASE_BARE("error_names", flow_error_names),
   API_CASE_BARE("devices", flow_devices),
   API_CASE_BARE("contexts", flow_contexts),
   API_CASE("memory", flow_memory),
   API_CASE("copies", flow_copies),
   API_CASE("large_copy", flow_large_copy),
   API_CASE("fills", flow_fills),
   API_CASE("streams_events", flow_streams_events),
   API_CASE("errors", flow_errors),
};

API_MAIN(cases)
