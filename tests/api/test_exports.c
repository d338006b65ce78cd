/*
 * The cheap calls programs make at start-up (compute capability, legacy
 * properties, LUID, limits, cache and shared memory configuration, API
 * version, context ids and flags), the unsupported entry points that make
 * up the rest of NVIDIA's export list, and cuGetProcAddress's version
 * rules.  Expected values and error codes are NVIDIA's driver's, measured
 * on an H100 (driver 580.159.04); docs/api-coverage.md lists them.
 */
#include "api_test.h"

#include <dlfcn.h>
#include <fcntl.h>

static int
attr(CUdevice_attribute a)
{
   int v = -1;
   API_CHECK_CU(cuDeviceGetAttribute(&v, a, api_dev));
   return v;
}

static void
exports_compute_capability(void)
{
   int major = -1, minor = -1;

   API_CHECK_CU(cuDeviceComputeCapability(&major, &minor, api_dev));
   API_CHECK(major == attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR));
   API_CHECK(minor == attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceComputeCapability(NULL, &minor, api_dev));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceComputeCapability(&major, NULL, api_dev));
   API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceComputeCapability(&major, &minor, 99));
}

static void
exports_device_properties(void)
{
   CUdevprop p;

   memset(&p, 0xcc, sizeof(p));
   API_CHECK_CU(cuDeviceGetProperties(&p, api_dev));
   API_CHECK(p.maxThreadsPerBlock == attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
   API_CHECK(p.maxThreadsPerBlock > 0);
   API_CHECK(p.maxThreadsDim[0] == attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X));
   API_CHECK(p.maxThreadsDim[1] == attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y));
   API_CHECK(p.maxThreadsDim[2] == attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z));
   API_CHECK(p.maxGridSize[0] == attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X));
   API_CHECK(p.maxGridSize[1] == attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y));
   API_CHECK(p.maxGridSize[2] == attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z));
   API_CHECK(p.sharedMemPerBlock == attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
   API_CHECK(p.totalConstantMemory == attr(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY));
   API_CHECK(p.SIMDWidth == attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE));
   API_CHECK(p.memPitch == attr(CU_DEVICE_ATTRIBUTE_MAX_PITCH));
   API_CHECK(p.regsPerBlock == attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK));
   API_CHECK(p.clockRate == attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE));
   API_CHECK(p.textureAlign == attr(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetProperties(NULL, api_dev));
   API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetProperties(&p, 99));
}

static void
exports_luid(void)
{
   char luid[8];
   unsigned mask = 0xdeadu;

   /* Linux drivers report no LUID: NOT_SUPPORTED, and nothing written. */
   CUresult res = cuDeviceGetLuid(luid, &mask, api_dev);
   API_CHECK_MSG(res == CUDA_ERROR_NOT_SUPPORTED || res == CUDA_SUCCESS, "cuDeviceGetLuid: %s",
                 api_result_name(res));
   if (res == CUDA_ERROR_NOT_SUPPORTED)
      API_CHECK(mask == 0xdeadu);
   else
      API_CHECK(mask != 0);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetLuid(NULL, &mask, api_dev));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetLuid(luid, NULL, api_dev));
   API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetLuid(luid, &mask, 99));
}

static void
exports_can_access_peer(void)
{
   int can = 7;

   API_CHECK_CU(cuDeviceCanAccessPeer(&can, api_dev, api_dev));
   API_CHECK(can == 0);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceCanAccessPeer(NULL, api_dev, api_dev));
   API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceCanAccessPeer(&can, api_dev, 99));
}

static void
exports_limits(void)
{
   static const struct { CUlimit limit; size_t value; } defaults[] = {
      { CU_LIMIT_STACK_SIZE, 1024 },
      { CU_LIMIT_PRINTF_FIFO_SIZE, 8650752 },
      { CU_LIMIT_MALLOC_HEAP_SIZE, 8 << 20 },
      { CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, 2048 },
      { CU_LIMIT_MAX_L2_FETCH_GRANULARITY, 64 },
      { CU_LIMIT_PERSISTING_L2_CACHE_SIZE, 0 },
      { CU_LIMIT_CIG_ENABLED, 0 },
   };
   size_t v;

   for (unsigned i = 0; i < API_ARRAY_SIZE(defaults); i++) {
      v = 12345;
      API_CHECK_CU(cuCtxGetLimit(&v, defaults[i].limit));
      API_CHECK_MSG(v == defaults[i].value, "limit %d: %zu, expected %zu", (int)defaults[i].limit, v,
                    defaults[i].value);
   }
   API_CHECK_CU(cuCtxGetLimit(&v, CU_LIMIT_SHMEM_SIZE));
   API_CHECK(v == (size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));

   /* Set and read back; the stack size in 16-byte steps. */
   API_CHECK_CU(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 1000));
   API_CHECK_CU(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
   API_CHECK(v == 1008);
   API_CHECK_CU(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 64 << 20));
   API_CHECK_CU(cuCtxGetLimit(&v, CU_LIMIT_MALLOC_HEAP_SIZE));
   API_CHECK(v == 64 << 20);
   API_CHECK_CU(cuCtxSetLimit(CU_LIMIT_MAX_L2_FETCH_GRANULARITY, 128));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxSetLimit(CU_LIMIT_MAX_L2_FETCH_GRANULARITY, 129));
   API_CHECK_CU(cuCtxGetLimit(&v, CU_LIMIT_MAX_L2_FETCH_GRANULARITY));
   API_CHECK(v == 128);

   /* What NVIDIA's driver refuses, and how. */
   API_CHECK_RES(CUDA_ERROR_UNSUPPORTED_LIMIT, cuCtxGetLimit(&v, CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH));
   API_CHECK_RES(CUDA_ERROR_UNSUPPORTED_LIMIT, cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH, 5));
   API_CHECK_RES(CUDA_ERROR_UNSUPPORTED_LIMIT, cuCtxGetLimit(&v, CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED));
   API_CHECK_RES(CUDA_ERROR_NOT_PERMITTED, cuCtxSetLimit(CU_LIMIT_SHMEM_SIZE, 1000));
   API_CHECK_RES(CUDA_ERROR_NOT_PERMITTED, cuCtxSetLimit(CU_LIMIT_CIG_ENABLED, 1));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxGetLimit(&v, CU_LIMIT_MAX));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxGetLimit(&v, (CUlimit)100));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxSetLimit((CUlimit)-1, 1));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxGetLimit(NULL, CU_LIMIT_STACK_SIZE));

   /* Per context: a new context starts from the defaults. */
   CUcontext other;
   API_REQUIRE_CU(cuCtxCreate(&other, NULL, 0, api_dev));
   API_CHECK_CU(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
   API_CHECK(v == 1024);
   API_CHECK_CU(cuCtxDestroy(other));
   API_CHECK_CU(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
   API_CHECK(v == 1008);
}

static void
exports_limits_no_context(void)
{
   size_t v;

   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 2048));
   CUfunc_cache c;
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetCacheConfig(&c));
   unsigned ver;
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetApiVersion(NULL, &ver));
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxSetFlags(0));
}

static void
exports_cache_and_shared_config(void)
{
   CUfunc_cache c = (CUfunc_cache)9;
   CUsharedconfig s = (CUsharedconfig)9;

   API_CHECK_CU(cuCtxGetCacheConfig(&c));
   API_CHECK(c == CU_FUNC_CACHE_PREFER_NONE);
   API_CHECK_CU(cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_L1));
   API_CHECK_CU(cuCtxGetCacheConfig(&c));
   API_CHECK(c == CU_FUNC_CACHE_PREFER_L1);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxSetCacheConfig((CUfunc_cache)7));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxGetCacheConfig(NULL));

   API_CHECK_CU(cuCtxGetSharedMemConfig(&s));
   API_CHECK(s == CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE);
   API_CHECK_CU(cuCtxSetSharedMemConfig(CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE));
   API_CHECK_CU(cuCtxGetSharedMemConfig(&s));
   API_CHECK(s == CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxSetSharedMemConfig((CUsharedconfig)5));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxGetSharedMemConfig(NULL));
}

static void
exports_api_version_and_id(void)
{
   unsigned ver = 0;
   unsigned long long id = 0, id_current = 0, id_other = 0;
   CUcontext other;

   API_CHECK_CU(cuCtxGetApiVersion(NULL, &ver));
   API_CHECK(ver == 3020);
   API_CHECK_CU(cuCtxGetApiVersion(api_ctx, &ver));
   API_CHECK(ver == 3020);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxGetApiVersion(api_ctx, NULL));

   API_CHECK_CU(cuCtxGetId(api_ctx, &id));
   API_CHECK_CU(cuCtxGetId(NULL, &id_current));
   API_CHECK(id == id_current && id != 0);
   API_REQUIRE_CU(cuCtxCreate(&other, NULL, 0, api_dev));
   API_CHECK_CU(cuCtxGetId(other, &id_other));
   API_CHECK(id_other != id && id_other != 0);
   API_CHECK_CU(cuCtxDestroy(other));
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetId(other, &id_other));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxGetId(api_ctx, NULL));
}

static void
exports_set_flags(void)
{
   unsigned flags = 99;
   CUcontext ctx;

   API_REQUIRE_CU(cuCtxCreate(&ctx, NULL, CU_CTX_MAP_HOST, api_dev));
   API_CHECK_CU(cuCtxSetFlags(CU_CTX_SCHED_BLOCKING_SYNC));
   API_CHECK_CU(cuCtxGetFlags(&flags));
   API_CHECK(flags == (CU_CTX_SCHED_BLOCKING_SYNC | CU_CTX_MAP_HOST));
   /* Settable flags are replaced; MAP_HOST is fixed at creation. */
   API_CHECK_CU(cuCtxSetFlags(CU_CTX_SYNC_MEMOPS));
   API_CHECK_CU(cuCtxGetFlags(&flags));
   API_CHECK(flags == (CU_CTX_SYNC_MEMOPS | CU_CTX_MAP_HOST));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxSetFlags(0x1000));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxSetFlags(CU_CTX_SCHED_SPIN | CU_CTX_SCHED_YIELD));
   API_CHECK_CU(cuCtxGetFlags(&flags));
   API_CHECK(flags == (CU_CTX_SYNC_MEMOPS | CU_CTX_MAP_HOST));
   API_CHECK_CU(cuCtxDestroy(ctx));
}

static void
exports_context_v2_calls(void)
{
   CUdevice dev = -1;
   CUcontext other;

   API_CHECK_CU(cuCtxGetDevice_v2(&dev, NULL));
   API_CHECK(dev == api_dev);
   API_REQUIRE_CU(cuCtxCreate(&other, NULL, 0, api_dev));
   API_CHECK_CU(cuCtxPopCurrent(NULL));
   dev = -1;
   API_CHECK_CU(cuCtxGetDevice_v2(&dev, other));
   API_CHECK(dev == api_dev);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxGetDevice_v2(NULL, other));
   API_CHECK_CU(cuCtxSynchronize_v2(other));
   API_CHECK_CU(cuCtxSynchronize_v2(NULL));
   API_CHECK_CU(cuCtxDestroy(other));
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetDevice_v2(&dev, other));
   API_CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxSynchronize_v2(other));
}

static void
exports_exec_affinity_support(void)
{
   int pi = 7;

   API_CHECK_CU(cuDeviceGetExecAffinitySupport(&pi, CU_EXEC_AFFINITY_TYPE_SM_COUNT, api_dev));
   API_CHECK(pi == 0);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE,
                 cuDeviceGetExecAffinitySupport(NULL, CU_EXEC_AFFINITY_TYPE_SM_COUNT, api_dev));
   API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE,
                 cuDeviceGetExecAffinitySupport(&pi, CU_EXEC_AFFINITY_TYPE_SM_COUNT, 99));
}

static void
exports_stream_queries(void)
{
   CUstream s1, s2;
   CUcontext ctx = NULL;
   CUgreenCtx green = (CUgreenCtx)1;
   CUdevice dev = -1;
   unsigned long long id1 = 0, id2 = 0, id_null = 0, id_legacy = 0, id_pt = 0;

   API_REQUIRE_CU(cuStreamCreate(&s1, 0));
   API_REQUIRE_CU(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));

   API_CHECK_CU(cuStreamGetCtx(s1, &ctx));
   API_CHECK(ctx == api_ctx);
   ctx = NULL;
   API_CHECK_CU(cuStreamGetCtx(NULL, &ctx));
   API_CHECK(ctx == api_ctx);
   ctx = NULL;
   API_CHECK_CU(cuStreamGetCtx(CU_STREAM_LEGACY, &ctx));
   API_CHECK(ctx == api_ctx);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamGetCtx(s1, NULL));
   ctx = NULL;
   API_CHECK_CU(cuStreamGetCtx_v2(s2, &ctx, &green));
   API_CHECK(ctx == api_ctx && green == NULL);
   API_CHECK_CU(cuStreamGetCtx_v2(s2, NULL, &green));
   API_CHECK_CU(cuStreamGetCtx_v2(s2, &ctx, NULL));

   API_CHECK_CU(cuStreamGetId(s1, &id1));
   API_CHECK_CU(cuStreamGetId(s2, &id2));
   API_CHECK_CU(cuStreamGetId(NULL, &id_null));
   API_CHECK_CU(cuStreamGetId(CU_STREAM_LEGACY, &id_legacy));
   API_CHECK_CU(cuStreamGetId(CU_STREAM_PER_THREAD, &id_pt));
   API_CHECK(id1 != 0 && id2 != 0 && id1 != id2);
   /* The calling thread's per-thread default stream is a stream of its
    * own, the same one each time. */
   unsigned long long id_pt_again = 0;
   API_CHECK_CU(cuStreamGetId(CU_STREAM_PER_THREAD, &id_pt_again));
   API_CHECK(id_pt != 0 && id_pt == id_pt_again && id_pt != id_legacy && id_pt != id1 && id_pt != id2);
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
   /* Stream 0 is the per-thread stream in this build. */
   API_CHECK(id_null == id_pt && id_null != id1 && id_null != id2);
#else
   API_CHECK(id_null == id_legacy && id_null != id1 && id_null != id2);
#endif
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamGetId(s1, NULL));

   API_CHECK_CU(cuStreamGetDevice(s1, &dev));
   API_CHECK(dev == api_dev);
   dev = -1;
   API_CHECK_CU(cuStreamGetDevice(NULL, &dev));
   API_CHECK(dev == api_dev);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamGetDevice(s1, NULL));

   API_CHECK_CU(cuStreamDestroy(s2));
   /* NVIDIA's driver crashes on a destroyed stream; cuvk answers. */
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamGetCtx(s2, &ctx));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamGetId(s2, &id2));
   /* A new stream never reuses an id. */
   API_REQUIRE_CU(cuStreamCreate(&s2, 0));
   unsigned long long id3 = 0;
   API_CHECK_CU(cuStreamGetId(s2, &id3));
   API_CHECK(id3 != id1 && id3 != id2 && id3 != id_null);
   API_CHECK_CU(cuStreamDestroy(s2));
   API_CHECK_CU(cuStreamDestroy(s1));
}

static void
exports_event_record_with_flags(void)
{
   CUstream s;
   CUevent e;
   CUdeviceptr d;
   unsigned char host[4096], back[4096];

   API_REQUIRE_CU(cuStreamCreate(&s, 0));
   API_REQUIRE_CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
   API_REQUIRE_CU(cuMemAlloc(&d, sizeof(host)));
   memset(host, 0xa5, sizeof(host));
   API_CHECK_CU(cuMemcpyHtoDAsync(d, host, sizeof(host), s));
   API_CHECK_CU(cuEventRecordWithFlags(e, s, 0));
   API_CHECK_CU(cuEventSynchronize(e));
   API_CHECK_CU(cuEventQuery(e));
   API_CHECK_CU(cuMemcpyDtoH(back, d, sizeof(back)));
   API_CHECK_BYTES(back, host, sizeof(back), "after the recorded event");
   API_CHECK_RES(CUDA_ERROR_ILLEGAL_STATE, cuEventRecordWithFlags(e, s, CU_EVENT_RECORD_EXTERNAL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuEventRecordWithFlags(e, s, 2));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventRecordWithFlags(NULL, s, 0));
   API_CHECK_CU(cuMemFree(d));
   API_CHECK_CU(cuEventDestroy(e));
   API_CHECK_CU(cuStreamDestroy(s));
}

/* ---- Unsupported entry points ---- */

typedef CUresult (*any_call)(void);

/* Calls fn with stderr redirected to a file and returns the lines that
 * mention name. */
static int
call_counting_log_lines(any_call fn, const char *name, CUresult *res)
{
   char path[] = "/tmp/cuvk-exports-XXXXXX";
   int fd = mkstemp(path), saved = dup(2), count = 0;
   char line[1024];

   API_REQUIRE(fd >= 0 && saved >= 0);
   unlink(path);
   fflush(stderr);
   dup2(fd, 2);
   *res = fn();
   fflush(stderr);
   dup2(saved, 2);
   close(saved);

   FILE *f = fdopen(fd, "r");
   API_REQUIRE(f);
   rewind(f);
   while (fgets(line, sizeof(line), f)) {
      fputs(line, stderr); /* keep the log visible */
      if (strstr(line, name))
         count++;
   }
   fclose(f);
   return count;
}

static void
exports_unsupported_sample(void)
{
   /* One of each area, the names loaders insist on among them. */
   static const char *const names[] = {
      "cuLibraryGetManaged", "cuLaunchCooperativeKernel", "cuTexRefCreate",
      "cuGraphClone", "cuMemDiscardBatchAsync", "cuIpcGetMemHandle", "cuGLGetDevices_v2",
      "cuGraphicsGLRegisterImage", "cuStreamBeginCaptureToGraph_ptsz", "cuProfilerStart",
      "cuGetExportTable",
   };
   void *self = dlopen("libcuvk.so.0", RTLD_NOW | RTLD_NOLOAD);

   API_REQUIRE(self);
   for (unsigned i = 0; i < API_ARRAY_SIZE(names); i++) {
      any_call fn = (any_call)dlsym(self, names[i]);
      CUresult res;

      if (!API_CHECK_MSG(fn, "%s is not exported", names[i]))
         continue;
      int lines = call_counting_log_lines(fn, names[i], &res);
      API_CHECK_MSG(res == CUDA_ERROR_NOT_SUPPORTED, "%s returned %s", names[i], api_result_name(res));
      API_CHECK_MSG(lines == 1, "%s logged %d lines naming it, expected 1", names[i], lines);
   }
   dlclose(self);
}

/* ---- cuGetProcAddress ---- */

static void *
self_symbol(const char *name)
{
   void *self = dlopen("libcuvk.so.0", RTLD_NOW | RTLD_NOLOAD);
   void *p = self ? dlsym(self, name) : NULL;
   if (self)
      dlclose(self);
   return p;
}

static void
check_proc(const char *name, int version, cuuint64_t flags, const char *symbol)
{
   void *fn = NULL;
   CUdriverProcAddressQueryResult status = (CUdriverProcAddressQueryResult)9;

   API_CHECK_CU(cuGetProcAddress(name, &fn, version, flags, &status));
   API_CHECK_MSG(fn && fn == self_symbol(symbol), "cuGetProcAddress(%s, %d, %llu) is not %s", name,
                 version, (unsigned long long)flags, symbol);
   API_CHECK(status == CU_GET_PROC_ADDRESS_SUCCESS);
}

static void
exports_proc_address_versions(void)
{
   void *fn;
   CUdriverProcAddressQueryResult status;

   check_proc("cuMemAlloc", 13000, 0, "cuMemAlloc_v2");
   check_proc("cuMemAlloc", 3000, 0, "cuMemAlloc");
   check_proc("cuCtxCreate", 12080, 0, "cuCtxCreate_v4");
   check_proc("cuCtxCreate", 11040, 0, "cuCtxCreate_v3");
   check_proc("cuCtxCreate", 11030, 0, "cuCtxCreate_v2");
   check_proc("cuEventElapsedTime", 12000, 0, "cuEventElapsedTime");
   check_proc("cuEventElapsedTime", 12080, 0, "cuEventElapsedTime_v2");
   check_proc("cuMemcpyHtoD", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, "cuMemcpyHtoD_v2_ptds");
   check_proc("cuMemcpyHtoD", 13000, CU_GET_PROC_ADDRESS_LEGACY_STREAM, "cuMemcpyHtoD_v2");
   check_proc("cuStreamQuery", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, "cuStreamQuery_ptsz");
   check_proc("cuStreamBeginCapture", 13000, 0, "cuStreamBeginCapture_v2");
   check_proc("cuStreamBeginCapture", 10000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
              "cuStreamBeginCapture_ptsz");
   /* Unsupported calls are found like any other. */
   check_proc("cuGraphicsResourceGetMappedPointer", 13000, 0, "cuGraphicsResourceGetMappedPointer_v2");
   check_proc("cuGraphClone", 13000, 0, "cuGraphClone");
   check_proc("cuDeviceComputeCapability", 13000, 0, "cuDeviceComputeCapability");
   check_proc("cuStreamGetCtx", 12050, 0, "cuStreamGetCtx_v2");
   check_proc("cuCtxGetDevice", 12090, 0, "cuCtxGetDevice");
   check_proc("cuCtxGetDevice", 13000, 0, "cuCtxGetDevice_v2");
   check_proc("cuStreamGetCtx", 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, "cuStreamGetCtx_ptsz");

   /* Newer than the caller's CUDA: cuMemAllocAsync came with 11.2. */
   fn = (void *)1;
   API_CHECK_RES(CUDA_ERROR_NOT_FOUND, cuGetProcAddress("cuMemAllocAsync", &fn, 11000, 0, &status));
   API_CHECK(fn == NULL && status == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
   API_CHECK_RES(CUDA_ERROR_NOT_FOUND, cuGetProcAddress("cuNoSuchCall", &fn, 13000, 0, &status));
   API_CHECK(fn == NULL && status == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
   API_CHECK_RES(CUDA_ERROR_NOT_FOUND, cuGetProcAddress("cuMemAlloc_v2", &fn, 13000, 0, &status));
   API_CHECK(status == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGetProcAddress(NULL, &fn, 13000, 0, &status));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGetProcAddress("cuMemAlloc", NULL, 13000, 0, &status));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGetProcAddress("cuMemAlloc", &fn, 13000, 4, &status));
}

static const struct api_case cases[] = {
   API_CASE("api.exports.compute_capability", exports_compute_capability),
   API_CASE("api.exports.device_properties", exports_device_properties),
   API_CASE("api.exports.luid", exports_luid),
   API_CASE("api.exports.can_access_peer", exports_can_access_peer),
   API_CASE("api.exports.limits", exports_limits),
   API_CASE_BARE("api.exports.no_context", exports_limits_no_context),
   API_CASE("api.exports.cache_and_shared_config", exports_cache_and_shared_config),
   API_CASE("api.exports.api_version_and_id", exports_api_version_and_id),
   API_CASE("api.exports.set_flags", exports_set_flags),
   API_CASE("api.exports.context_v2_calls", exports_context_v2_calls),
   API_CASE("api.exports.exec_affinity_support", exports_exec_affinity_support),
   API_CASE("api.exports.stream_queries", exports_stream_queries),
   API_CASE("api.exports.event_record_with_flags", exports_event_record_with_flags),
   API_CASE("api.exports.unsupported_sample", exports_unsupported_sample),
   API_CASE("api.exports.proc_address_versions", exports_proc_address_versions),
};

API_MAIN(cases)
