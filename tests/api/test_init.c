/*
 * api.init.*: what works before cuInit (error names, the driver version)
 * and what must not (everything else), cuInit's flags, and the error-name
 * tables for every CUresult the header declares.
 *
 * cuInit is process-wide, so these cases run without the harness's
 * setup: each is a process of its own that starts uninitialised.
 */
#include "api_test.h"

#include <limits.h>
#include <pthread.h>

static const struct {
   CUresult code;
   const char *name;
} every_result[] = {
#define API_RESULT(x) { x, #x },
#include "api_result_list.h"
#undef API_RESULT
};

static bool
is_known_result(int code)
{
   for (size_t i = 0; i < API_ARRAY_SIZE(every_result); i++)
      if ((int)every_result[i].code == code)
         return true;
   return false;
}

/* A sample of entry points from every area, each with arguments that are
 * otherwise valid, so the only thing wrong is the missing cuInit. */
static void
init_not_initialized(void)
{
   const CUresult want = CUDA_ERROR_NOT_INITIALIZED;
   uint8_t host[64] = { 0 };
   char name[64];
   int count = -1, value = -1, active = -1;
   unsigned flags = 0;
   size_t bytes = 0, total = 0;
   CUdevice dev = -1;
   CUcontext ctx = NULL;
   CUdeviceptr dptr = 0;
   CUuuid uuid;
   CUstream stream = NULL;
   CUevent event = NULL;
   void *p = NULL;

   API_CHECK_RES(want, cuDeviceGetCount(&count));
   API_CHECK(count == -1 || count == 0);
   API_CHECK_RES(want, cuDeviceGet(&dev, 0));
   API_CHECK_RES(want, cuDeviceGetName(name, sizeof(name), 0));
   API_CHECK_RES(want, cuDeviceGetUuid(&uuid, 0));
   API_CHECK_RES(want, cuDeviceTotalMem(&bytes, 0));
   API_CHECK_RES(want, cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
   API_CHECK_RES(want, cuDeviceGetPCIBusId(name, sizeof(name), 0));
   API_CHECK_RES(want, cuDevicePrimaryCtxRetain(&ctx, 0));
   API_CHECK_RES(want, cuDevicePrimaryCtxRelease(0));
   API_CHECK_RES(want, cuDevicePrimaryCtxGetState(0, &flags, &active));
   API_CHECK_RES(want, cuCtxCreate(&ctx, NULL, 0, 0));
   API_CHECK_RES(want, cuCtxGetCurrent(&ctx));
   API_CHECK_RES(want, cuCtxSetCurrent(NULL));
   API_CHECK_RES(want, cuCtxPopCurrent(&ctx));
   API_CHECK_RES(want, cuCtxSynchronize());
   API_CHECK_RES(want, cuMemGetInfo(&bytes, &total));
   API_CHECK_RES(want, cuMemAlloc(&dptr, 4096));
   API_CHECK_RES(want, cuMemFree(0x10000));
   API_CHECK_RES(want, cuMemAllocHost(&p, 4096));
   API_CHECK_RES(want, cuMemHostRegister(host, sizeof(host), 0));
   API_CHECK_RES(want, cuMemcpyHtoD(0x10000, host, sizeof(host)));
   API_CHECK_RES(want, cuMemsetD8(0x10000, 0, 16));
   API_CHECK_RES(want, cuStreamCreate(&stream, 0));
   API_CHECK_RES(want, cuStreamSynchronize(NULL));
   API_CHECK_RES(want, cuEventCreate(&event, 0));
   API_CHECK_RES(want, cuPointerGetAttribute(&value, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, 0x10000));
   API_CHECK_RES(want, cuMemGetAddressRange(&dptr, &bytes, 0x10000));

   /* Outputs stay untouched. */
   API_CHECK(dev == -1);
   API_CHECK(dptr == 0);
   API_CHECK(p == NULL);
   API_CHECK(stream == NULL);
   API_CHECK(event == NULL);

   /* And none of it got in the way of initialising afterwards. */
   API_CHECK_CU(cuInit(0));
   API_CHECK_CU(cuDeviceGetCount(&count));
   API_CHECK(count >= 1);
}

static void
init_flags_nonzero(void)
{
   int count = -1;

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuInit(1));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuInit(0x80000000u));
   /* A rejected cuInit initialises nothing. */
   API_CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGetCount(&count));

   API_CHECK_CU(cuInit(0));
   API_CHECK_CU(cuDeviceGetCount(&count));
   API_CHECK(count >= 1);
   /* Flags are still checked once initialised. */
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuInit(2));
}

static void
init_repeated(void)
{
   for (int i = 0; i < 5; i++)
      API_CHECK_CU(cuInit(0));
}

#define INIT_THREADS 8

static pthread_barrier_t init_barrier;

static void *
init_thread(void *arg)
{
   CUresult *res = arg;
   int count = 0;

   pthread_barrier_wait(&init_barrier);
   *res = cuInit(0);
   if (*res == CUDA_SUCCESS)
      *res = cuDeviceGetCount(&count);
   if (*res == CUDA_SUCCESS && count < 1)
      *res = CUDA_ERROR_NO_DEVICE;
   return NULL;
}

/* Threads racing to be the first cuInit all see success and a device. */
static void
init_concurrent(void)
{
   pthread_t threads[INIT_THREADS];
   CUresult results[INIT_THREADS];

   pthread_barrier_init(&init_barrier, NULL, INIT_THREADS);
   for (int i = 0; i < INIT_THREADS; i++)
      API_REQUIRE(pthread_create(&threads[i], NULL, init_thread, &results[i]) == 0);
   for (int i = 0; i < INIT_THREADS; i++) {
      pthread_join(threads[i], NULL);
      API_CHECK_MSG(results[i] == CUDA_SUCCESS, "thread %d: %s", i, api_result_name(results[i]));
   }
   pthread_barrier_destroy(&init_barrier);
}

static void
init_driver_version(void)
{
   int version = 0;

   /* Needs no cuInit. */
   API_CHECK_CU(cuDriverGetVersion(&version));
   API_CHECK_MSG(version >= CUDA_VERSION, "driver version %d is older than the header's %d",
                 version, CUDA_VERSION);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDriverGetVersion(NULL));

   int again = 0;
   API_CHECK_CU(cuInit(0));
   API_CHECK_CU(cuDriverGetVersion(&again));
   API_CHECK(again == version);
}

static void
check_error_names(void)
{
   for (size_t i = 0; i < API_ARRAY_SIZE(every_result); i++) {
      CUresult code = every_result[i].code;
      const char *name = NULL, *str = NULL;

      if (!API_CHECK_CU(cuGetErrorName(code, &name)) ||
          !API_CHECK_CU(cuGetErrorString(code, &str)))
         continue;
      API_CHECK_MSG(name && strcmp(name, every_result[i].name) == 0,
                    "cuGetErrorName(%d) is \"%s\", want \"%s\"", (int)code,
                    name ? name : "(null)", every_result[i].name);
      API_CHECK_MSG(str && str[0] != '\0', "cuGetErrorString(%s) is %s", every_result[i].name,
                    str ? "empty" : "NULL");
   }
}

/* Error names need no cuInit; the same answers after it. */
static void
init_error_names(void)
{
   check_error_names();
   API_CHECK_CU(cuInit(0));
   check_error_names();
   printf("%zu CUresult codes named\n", API_ARRAY_SIZE(every_result));
}

static void
init_error_unknown(void)
{
   const int probes[] = { -1, 9, 33, 35, 99, 103, 199, 227, 403, 501, 601, 722, 813, 917, 998, 1000,
                          12345, INT_MAX, INT_MIN };
   int tested = 0;

   for (size_t i = 0; i < API_ARRAY_SIZE(probes); i++) {
      /* A newer header may have given one of these a meaning. */
      if (is_known_result(probes[i]))
         continue;
      const char *name = "untouched", *str = "untouched";
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGetErrorName((CUresult)probes[i], &name));
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGetErrorString((CUresult)probes[i], &str));
      API_CHECK_MSG(name == NULL, "cuGetErrorName(%d) left *pStr = %p, want NULL", probes[i],
                    (const void *)name);
      API_CHECK_MSG(str == NULL, "cuGetErrorString(%d) left *pStr = %p, want NULL", probes[i],
                    (const void *)str);
      tested++;
   }
   API_CHECK(tested > 10);

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGetErrorName(CUDA_SUCCESS, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGetErrorString(CUDA_ERROR_INVALID_VALUE, NULL));
}

static const struct api_case cases[] = {
   API_CASE_NOINIT("api.init.not_initialized", init_not_initialized),
   API_CASE_NOINIT("api.init.flags_nonzero", init_flags_nonzero),
   API_CASE_NOINIT("api.init.repeated", init_repeated),
   API_CASE_NOINIT("api.init.concurrent", init_concurrent),
   API_CASE_NOINIT("api.init.driver_version", init_driver_version),
   API_CASE_NOINIT("api.init.error_names", init_error_names),
   API_CASE_NOINIT("api.init.error_unknown", init_error_unknown),
};

API_MAIN(cases)
