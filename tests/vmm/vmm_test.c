#include "vmm_test.h"

#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

CUdevice vmm_dev;
CUcontext vmm_ctx;

const char *
vmm_result_name(CUresult res)
{
   const char *name = NULL;

   if (cuGetErrorName(res, &name) != CUDA_SUCCESS || !name)
      return "(unknown CUresult)";
   return name;
}

bool
vmm_check_result(const char *file, int line, const char *expr, CUresult expected, CUresult got)
{
   if (got == expected)
      return true;
   vmm_report(file, line, "%s: expected %s (%d), got %s (%d)", expr, vmm_result_name(expected),
              (int)expected, vmm_result_name(got), (int)got);
   return false;
}

void *
vmm_xmalloc(size_t n)
{
   void *p = malloc(n ? n : 1);

   VMM_REQUIRE(p != NULL);
   return p;
}

void
vmm_fill_random(void *p, size_t n, uint64_t seed)
{
   uint8_t *b = p;
   uint64_t state = seed;
   size_t i = 0;

   for (; i + 8 <= n; i += 8) {
      uint64_t v = cuvk_test_rand(&state);
      memcpy(b + i, &v, 8);
   }
   if (i < n) {
      uint64_t v = cuvk_test_rand(&state);
      memcpy(b + i, &v, n - i);
   }
}

double
vmm_now(void)
{
   struct timespec ts;

   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int
vmm_fd_count(void)
{
   DIR *dir = opendir("/proc/self/fd");
   struct dirent *e;
   int count = 0;

   if (!dir)
      return -1;
   while ((e = readdir(dir)))
      if (e->d_name[0] != '.')
         count++;
   closedir(dir);
   return count - 1; /* the directory stream's own */
}

CUmemAllocationProp
vmm_prop(CUdevice dev, bool exportable)
{
   CUmemAllocationProp prop;

   memset(&prop, 0, sizeof(prop));
   prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
   prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
   prop.location.id = dev;
   if (exportable)
      prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
   return prop;
}

CUmemAccessDesc
vmm_rw_access(CUdevice dev)
{
   CUmemAccessDesc desc;

   memset(&desc, 0, sizeof(desc));
   desc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
   desc.location.id = dev;
   desc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
   return desc;
}

/* ---- The model ---- */

void
vmm_model_init(struct vmm_model *m, CUdeviceptr base, size_t size)
{
   m->base = base;
   m->size = size;
   m->bytes = vmm_xmalloc(size);
   memset(m->bytes, 0, size);
}

void
vmm_model_finish(struct vmm_model *m)
{
   free(m->bytes);
   m->bytes = NULL;
}

CUresult
vmm_model_memset_d32(struct vmm_model *m, size_t off, uint32_t value, size_t count)
{
   VMM_REQUIRE(off + count * 4 <= m->size);
   CUresult res = cuMemsetD32(m->base + off, value, count);
   if (res == CUDA_SUCCESS) {
      for (size_t i = 0; i < count; i++)
         memcpy(m->bytes + off + i * 4, &value, 4);
   }
   return res;
}

CUresult
vmm_model_memset_d8(struct vmm_model *m, size_t off, uint8_t value, size_t count)
{
   VMM_REQUIRE(off + count <= m->size);
   CUresult res = cuMemsetD8(m->base + off, value, count);
   if (res == CUDA_SUCCESS)
      memset(m->bytes + off, value, count);
   return res;
}

CUresult
vmm_model_htod_random(struct vmm_model *m, size_t off, size_t n, uint64_t seed)
{
   VMM_REQUIRE(off + n <= m->size);
   uint8_t *src = vmm_xmalloc(n);
   vmm_fill_random(src, n, seed);
   CUresult res = cuMemcpyHtoD(m->base + off, src, n);
   if (res == CUDA_SUCCESS)
      memcpy(m->bytes + off, src, n);
   free(src);
   return res;
}

CUresult
vmm_model_dtod(struct vmm_model *m, size_t dst_off, size_t src_off, size_t n)
{
   VMM_REQUIRE(dst_off + n <= m->size && src_off + n <= m->size);
   CUresult res = cuMemcpyDtoD(m->base + dst_off, m->base + src_off, n);
   if (res == CUDA_SUCCESS)
      memmove(m->bytes + dst_off, m->bytes + src_off, n);
   return res;
}

bool
vmm_model_check_at(const char *file, int line, const struct vmm_model *m, size_t off, size_t n,
                   const char *what)
{
   VMM_REQUIRE(off + n <= m->size);
   uint8_t *got = vmm_xmalloc(n);
   bool ok = vmm_check_result(file, line, "cuMemcpyDtoH(readback)", CUDA_SUCCESS,
                              cuMemcpyDtoH(got, m->base + off, n));
   if (ok)
      ok = cuvk_test_check_bytes(file, line, got, m->bytes + off, n, "%s", what);
   free(got);
   return ok;
}

/* ---- The runner ---- */

static int
vmm_run_case(const void *p)
{
   const struct vmm_case *c = p;
   double t0 = vmm_now();

   printf("%s ...\n", c->name);
   fflush(stdout);
   if (c->setup == VMM_SETUP_CONTEXT) {
      VMM_REQUIRE_CU(cuInit(0));
      VMM_REQUIRE_CU(cuDeviceGet(&vmm_dev, 0));
      VMM_REQUIRE_CU(cuDevicePrimaryCtxRetain(&vmm_ctx, vmm_dev));
      VMM_REQUIRE_CU(cuCtxSetCurrent(vmm_ctx));
   }
   c->run();
   if (c->setup == VMM_SETUP_CONTEXT) {
      /* The last release destroys the context's VkDevice: validation
       * reports there whatever cuvk left behind, and
       * CUVK_VALIDATION_FATAL makes that an abort. */
      VMM_CHECK_CU(cuCtxSetCurrent(NULL));
      VMM_CHECK_CU(cuDevicePrimaryCtxRelease(vmm_dev));
      vmm_ctx = NULL;
   }
   unsigned failed = vmm_failure_count();
   printf("%s: %s (%.3f s)\n", c->name, failed ? "FAIL" : "pass", vmm_now() - t0);
   fflush(stdout);
   return failed ? VMM_EXIT_FAIL : VMM_EXIT_PASS;
}

_Static_assert(offsetof(struct vmm_case, name) == 0, "the shared harness finds names first");

int
vmm_main(int argc, char **argv, const struct cuvk_test_table *cases)
{
   return cuvk_test_main(argc, argv, cases, vmm_run_case, NULL);
}
