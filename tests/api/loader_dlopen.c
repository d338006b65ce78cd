/*
 * cuvk's libcuda.so.1 as programs that load the driver at run time see it:
 * dlopen from the drop-in folder, dlsym by name, call through pointers.
 * Nothing here links against libcuvk.
 *
 *   loader_dlopen ffmpeg LIBCUDA ELSEWHERE
 *      Every name FFmpeg's loader (nv-codec-headers, dynlink_loader.h,
 *      cuda_load_functions) requires on Linux must resolve, or the test
 *      fails, as FFmpeg would refuse the library.  Then FFmpeg's start-up
 *      sequence runs through the pointers, with a round trip of bytes.
 *   loader_dlopen every LIBCUDA EXPORTS ELSEWHERE
 *      Every symbol of nvidia_exports.txt resolves, and cuGetProcAddress
 *      and the runtime's cudaGetDriverEntryPointByVersion (the same
 *      library) return for its name, version and stream flavour the very
 *      same function.
 *
 * ELSEWHERE (src/cuda_api/exports_elsewhere.txt) names calls another
 * branch implements; while they are missing they are reported as
 * pending, not failed.
 */
#include <cuda.h>

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The names cuda_load_functions() loads with LOAD_SYMBOL (required) on
 * Linux, in its order; LOAD_SYMBOL_OPT ones are not listed. */
static const char *const ffmpeg_required[] = {
   "cuInit", "cuDriverGetVersion", "cuDeviceGetCount", "cuDeviceGet", "cuDeviceGetAttribute",
   "cuDeviceGetName", "cuDeviceComputeCapability", "cuCtxCreate_v2", "cuCtxGetCurrent",
   "cuCtxSetLimit", "cuCtxPushCurrent_v2", "cuCtxPopCurrent_v2", "cuCtxDestroy_v2",
   "cuMemAlloc_v2", "cuMemAllocPitch_v2", "cuMemAllocManaged", "cuMemsetD8Async", "cuMemFree_v2",
   "cuMemcpy", "cuMemcpyAsync", "cuMemcpy2D_v2", "cuMemcpy2DAsync_v2", "cuMemcpyHtoD_v2",
   "cuMemcpyHtoDAsync_v2", "cuMemcpyDtoH_v2", "cuMemcpyDtoHAsync_v2", "cuMemcpyDtoD_v2",
   "cuMemcpyDtoDAsync_v2", "cuGetErrorName", "cuGetErrorString", "cuCtxGetDevice",
   "cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRelease", "cuDevicePrimaryCtxSetFlags",
   "cuDevicePrimaryCtxGetState", "cuDevicePrimaryCtxReset", "cuStreamCreate", "cuStreamQuery",
   "cuStreamSynchronize", "cuStreamDestroy_v2", "cuStreamAddCallback", "cuStreamWaitEvent",
   "cuEventCreate", "cuEventDestroy_v2", "cuEventSynchronize", "cuEventQuery", "cuEventRecord",
   "cuLaunchKernel", "cuLinkCreate", "cuLinkAddData", "cuLinkComplete", "cuLinkDestroy",
   "cuModuleLoadData", "cuModuleUnload", "cuModuleGetFunction", "cuModuleGetGlobal",
   "cuTexObjectCreate", "cuTexObjectDestroy", "cuGLGetDevices_v2", "cuGraphicsGLRegisterImage",
   "cuGraphicsUnregisterResource", "cuGraphicsMapResources", "cuGraphicsUnmapResources",
   "cuGraphicsSubResourceGetMappedArray", "cuGraphicsResourceGetMappedPointer_v2",
   "cuArrayCreate_v2", "cuArray3DCreate_v2", "cuArrayDestroy",
};

static int failures;

#define FAIL(...)                                                              \
   do {                                                                        \
      fprintf(stderr, "FAIL: " __VA_ARGS__);                                   \
      fputc('\n', stderr);                                                     \
      failures++;                                                              \
   } while (0)

static char **
read_column(const char *path, int column, int *count)
{
   FILE *f = fopen(path, "r");
   char line[512];
   char **out = NULL;
   int n = 0, cap = 0;

   if (!f) {
      fprintf(stderr, "cannot open %s\n", path);
      exit(1);
   }
   while (fgets(line, sizeof(line), f)) {
      char *hash = strchr(line, '#'), *save = NULL, *tok;
      if (hash)
         *hash = '\0';
      tok = strtok_r(line, " \t\n", &save);
      for (int c = 0; tok && c < column; c++)
         tok = strtok_r(NULL, " \t\n", &save);
      if (!tok)
         continue;
      if (n == cap) {
         cap = cap ? cap * 2 : 64;
         out = realloc(out, sizeof(*out) * (size_t)cap);
      }
      out[n++] = strdup(tok);
   }
   fclose(f);
   *count = n;
   return out;
}

static void
free_column(char **column, int count)
{
   for (int i = 0; i < count; i++)
      free(column[i]);
   free(column);
}

static bool
listed(char **names, int count, const char *name)
{
   for (int i = 0; i < count; i++)
      if (strcmp(names[i], name) == 0)
         return true;
   return false;
}

static void *lib;
static char **elsewhere;
static int elsewhere_count;

/* dlsym; a missing name fails unless another branch owns it. */
static void *
load(const char *name)
{
   void *p = dlsym(lib, name);
   if (!p) {
      if (listed(elsewhere, elsewhere_count, name))
         printf("pending (implemented on another branch): %s\n", name);
      else
         FAIL("cannot load %s", name);
   }
   return p;
}

#define CALL(expr)                                                             \
   do {                                                                        \
      CUresult r_ = (expr);                                                    \
      if (r_ != CUDA_SUCCESS)                                                  \
         FAIL("%s: CUresult %d", #expr, (int)r_);                              \
   } while (0)

static int
run_ffmpeg(void)
{
   for (unsigned i = 0; i < sizeof(ffmpeg_required) / sizeof(ffmpeg_required[0]); i++)
      load(ffmpeg_required[i]);
   if (failures)
      return 1;

   /* hwcontext_cuda's device creation, then a frame-sized round trip. */
   CUresult (*init)(unsigned) = load("cuInit");
   CUresult (*driver_version)(int *) = load("cuDriverGetVersion");
   CUresult (*device_count)(int *) = load("cuDeviceGetCount");
   CUresult (*device_get)(CUdevice *, int) = load("cuDeviceGet");
   CUresult (*device_name)(char *, int, CUdevice) = load("cuDeviceGetName");
   CUresult (*compute_capability)(int *, int *, CUdevice) = load("cuDeviceComputeCapability");
   CUresult (*ctx_create)(CUcontext *, unsigned, CUdevice) = load("cuCtxCreate_v2");
   CUresult (*ctx_set_limit)(CUlimit, size_t) = load("cuCtxSetLimit");
   CUresult (*ctx_push)(CUcontext) = load("cuCtxPushCurrent_v2");
   CUresult (*ctx_pop)(CUcontext *) = load("cuCtxPopCurrent_v2");
   CUresult (*ctx_destroy)(CUcontext) = load("cuCtxDestroy_v2");
   CUresult (*mem_alloc)(CUdeviceptr *, size_t) = load("cuMemAlloc_v2");
   CUresult (*mem_free)(CUdeviceptr) = load("cuMemFree_v2");
   CUresult (*htod)(CUdeviceptr, const void *, size_t) = load("cuMemcpyHtoD_v2");
   CUresult (*dtoh)(void *, CUdeviceptr, size_t) = load("cuMemcpyDtoH_v2");
   CUresult (*stream_create)(CUstream *, unsigned) = load("cuStreamCreate");
   CUresult (*memset_async)(CUdeviceptr, unsigned char, size_t, CUstream) = load("cuMemsetD8Async");
   CUresult (*stream_sync)(CUstream) = load("cuStreamSynchronize");
   CUresult (*stream_destroy)(CUstream) = load("cuStreamDestroy_v2");
   CUresult (*module_load)(CUmodule *, const void *) = load("cuModuleLoadData");

   int version = 0, count = 0, major = -1, minor = -1;
   char name[256];
   CUdevice dev;
   CUcontext ctx, popped;
   CUdeviceptr ptr;
   CUstream stream;
   CUmodule module;
   enum { SIZE = 1 << 20 };
   unsigned char *in = malloc(SIZE), *out = malloc(SIZE);

   CALL(init(0));
   CALL(driver_version(&version));
   CALL(device_count(&count));
   if (count < 1) {
      FAIL("no device");
      return 1;
   }
   CALL(device_get(&dev, 0));
   CALL(device_name(name, sizeof(name), dev));
   CALL(compute_capability(&major, &minor, dev));
   printf("%s, driver %d, compute capability %d.%d\n", name, version, major, minor);
   CALL(ctx_create(&ctx, CU_CTX_SCHED_BLOCKING_SYNC, dev));
   CALL(ctx_set_limit(CU_LIMIT_STACK_SIZE, 4096));
   CALL(ctx_pop(&popped));
   if (popped != ctx)
      FAIL("cuCtxPopCurrent returned another context");

   CALL(ctx_push(ctx));
   for (int i = 0; i < SIZE; i++)
      in[i] = (unsigned char)(i * 7 + 3);
   CALL(mem_alloc(&ptr, SIZE));
   CALL(htod(ptr, in, SIZE));
   CALL(stream_create(&stream, 0));
   CALL(memset_async(ptr, 0x5a, 4096, stream));
   CALL(stream_sync(stream));
   CALL(dtoh(out, ptr, SIZE));
   memset(in, 0x5a, 4096);
   if (memcmp(in, out, SIZE) != 0)
      FAIL("the bytes read back differ from those written");
   /* FFmpeg's CUDA filters load PTX (tests/module runs real modules);
    * an empty image is refused as not being one. */
   if (module_load(&module, "") != CUDA_ERROR_INVALID_IMAGE)
      FAIL("cuModuleLoadData of an empty image did not return CUDA_ERROR_INVALID_IMAGE");
   CALL(stream_destroy(stream));
   CALL(mem_free(ptr));
   CALL(ctx_pop(&popped));
   CALL(ctx_destroy(ctx));
   free(in);
   free(out);
   return failures ? 1 : 0;
}

static int
run_every(const char *exports_path)
{
   int n, n_names, n_versions, n_pt;
   char **symbols = read_column(exports_path, 0, &n);
   char **names = read_column(exports_path, 1, &n_names);
   char **versions = read_column(exports_path, 2, &n_versions);
   char **pt = read_column(exports_path, 3, &n_pt);
   CUresult (*get_proc)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *) =
      load("cuGetProcAddress_v2");
   /* The runtime's flags and status have the driver's values. */
   int (*get_entry)(const char *, void **, unsigned int, unsigned long long, int *) =
      load("cudaGetDriverEntryPointByVersion");
   int found = 0;

   if (!get_entry)
      FAIL("cudaGetDriverEntryPointByVersion is not exported");
   if (!get_proc || n != n_names || n != n_versions || n != n_pt || n < 600) {
      FAIL("%s: %d rows", exports_path, n);
      goto out;
   }
   for (int i = 0; i < n; i++) {
      void *p = load(symbols[i]), *q = NULL;
      CUdriverProcAddressQueryResult status;
      if (!p)
         continue;
      found++;
      /* The symbol's own version picks it, unless a newer per-thread
       * entry of the same version exists (none does in CUDA 13.0). */
      cuuint64_t flags = strcmp(pt[i], "-") ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM
                                             : CU_GET_PROC_ADDRESS_LEGACY_STREAM;
      int version = atoi(versions[i]);
      /* A per-thread symbol is the per-thread form of the newest plain
       * one at its version; ask at that version. */
      CUresult res = get_proc(names[i], &q, version, flags, &status);
      if (res != CUDA_SUCCESS || q != p)
         FAIL("cuGetProcAddress(%s, %d, %s) gave %p (CUresult %d), dlsym(%s) %p", names[i], version,
              pt[i], q, (int)res, symbols[i], p);
      void *r = NULL;
      int rt_status = -1;
      int rt_res = get_entry ? get_entry(names[i], &r, (unsigned)version, flags, &rt_status) : -1;
      if (rt_res != 0 || r != p || rt_status != 0)
         FAIL("cudaGetDriverEntryPointByVersion(%s, %d, %s) gave %p (cudaError_t %d, status %d), "
              "dlsym(%s) %p", names[i], version, pt[i], r, rt_res, rt_status, symbols[i], p);
   }
   printf("%d of %d NVIDIA exports resolve, each also through cuGetProcAddress and "
          "cudaGetDriverEntryPointByVersion\n", found, n);
out:
   /* The lists are the test's own: freed, so LeakSanitizer's report in
    * the address mode is about cuvk alone. */
   free_column(symbols, n);
   free_column(names, n_names);
   free_column(versions, n_versions);
   free_column(pt, n_pt);
   return failures ? 1 : 0;
}

int
main(int argc, char **argv)
{
   if (argc < 4) {
      fprintf(stderr, "usage: %s ffmpeg LIBCUDA ELSEWHERE | every LIBCUDA EXPORTS ELSEWHERE\n", argv[0]);
      return 2;
   }
   lib = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
   if (!lib) {
      fprintf(stderr, "FAIL: dlopen %s: %s\n", argv[2], dlerror());
      return 1;
   }
   int rc = 2;
   if (strcmp(argv[1], "ffmpeg") == 0) {
      elsewhere = read_column(argv[3], 0, &elsewhere_count);
      rc = run_ffmpeg();
   } else if (strcmp(argv[1], "every") == 0 && argc == 5) {
      elsewhere = read_column(argv[4], 0, &elsewhere_count);
      rc = run_every(argv[3]);
   } else {
      fprintf(stderr, "unknown mode %s\n", argv[1]);
   }
   free_column(elsewhere, elsewhere_count);
   return rc;
}
