/*
 * module.*: modules and launches through the public driver API only, as a
 * program built for CUDA would use them (built against NVIDIA's cuda.h
 * too where it is installed, linked only to cuvk's libcuda.so.1).  Kernels
 * are the .cu files of tests/kernels, compiled by nvcc at build time; every result is
 * checked against the same computation on the host.
 *
 *    test_module CASE VECTOR_ADD.ptx SAXPY.ptx DEFAULT.fatbin LZ4.fatbin SASS.fatbin
 *                [SHARED_ATOMICS64.ptx]
 */
#include <cuda.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_harness.h"

static const char *paths[6];

/* a + b = c over n elements in memory the caller gives, checked. */
static void
run_vector_add(CUfunction f, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, float *ha, float *hb, float *hc,
               int n, int host_mapped)
{
   for (int i = 0; i < n; i++) {
      ha[i] = (float)i * 0.5f;
      hb[i] = (float)(n - i);
   }
   if (!host_mapped) {
      OK(cuMemcpyHtoD(a, ha, n * sizeof(float)));
      OK(cuMemcpyHtoD(b, hb, n * sizeof(float)));
      OK(cuMemsetD32(c, 0, n));
   } else {
      memset(hc, 0, n * sizeof(float));
   }
   void *params[] = {&a, &b, &c, &n};
   unsigned block = 128, grid = (unsigned)(n + block - 1) / block;
   OK(cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, NULL, params, NULL));
   OK(cuCtxSynchronize());
   float *out = hc;
   if (!host_mapped) {
      out = calloc(n, sizeof(float));
      OK(cuMemcpyDtoH(out, c, n * sizeof(float)));
   }
   int bad = 0;
   for (int i = 0; i < n; i++)
      bad += out[i] != ha[i] + hb[i];
   if (bad)
      fprintf(stderr, "%d of %d sums wrong (first: %g, want %g)\n", bad, n, out[0], ha[0] + hb[0]);
   CHECK(bad == 0);
   if (!host_mapped)
      free(out);
}

static void
vector_add_module(CUmodule mod)
{
   CUfunction f;
   OK(cuModuleGetFunction(&f, mod, "vector_add"));
   int n = 10000;
   CUdeviceptr a, b, c;
   OK(cuMemAlloc(&a, n * sizeof(float)));
   OK(cuMemAlloc(&b, n * sizeof(float)));
   OK(cuMemAlloc(&c, n * sizeof(float)));
   float *ha = malloc(n * sizeof(float)), *hb = malloc(n * sizeof(float)), *hc = malloc(n * sizeof(float));
   run_vector_add(f, a, b, c, ha, hb, hc, n, 0);
   /* The extra form: the parameters as one buffer, laid out as the PTX
    * declares them (three pointers, an int). */
   struct {
      CUdeviceptr a, b, c;
      int n;
   } buf = {a, b, c, n};
   size_t size = sizeof(buf);
   void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
   OK(cuMemsetD32(c, 0, n));
   OK(cuLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, NULL, extra));
   OK(cuMemcpyDtoH(hc, c, n * sizeof(float)));
   int bad = 0;
   for (int i = 0; i < n; i++)
      bad += hc[i] != ha[i] + hb[i];
   CHECK(bad == 0);
   OK(cuMemFree(a));
   OK(cuMemFree(b));
   OK(cuMemFree(c));
   free(ha);
   free(hb);
   free(hc);
}

static void
case_ptx(void)
{
   drv_test_setup(NULL);
   char *ptx = drv_test_read_file(paths[0], NULL);
   CUmodule mod;
   OK(cuModuleLoadData(&mod, ptx));
   vector_add_module(mod);
   OK(cuModuleUnload(mod));
   /* The same through cuModuleLoadDataEx with log options, and from the
    * file. */
   char log[64] = "stale";
   CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
   void *vals[] = {log, (void *)(size_t)sizeof(log)};
   OK(cuModuleLoadDataEx(&mod, ptx, 2, opts, vals));
   CHECK(log[0] == 0);
   vector_add_module(mod);
   OK(cuModuleUnload(mod));
   OK(cuModuleLoad(&mod, paths[0]));
   vector_add_module(mod);
   OK(cuModuleUnload(mod));
   free(ptx);
   drv_test_teardown();
}

static void
case_fatbin(void)
{
   drv_test_setup(NULL);
   for (int i = 2; i <= 3; i++) {
      char *bin = drv_test_read_file(paths[i], NULL);
      CUmodule mod;
      OK(cuModuleLoadFatBinary(&mod, bin));
      vector_add_module(mod);
      OK(cuModuleUnload(mod));
      OK(cuModuleLoadData(&mod, bin));
      vector_add_module(mod);
      OK(cuModuleUnload(mod));
      free(bin);
   }
   drv_test_teardown();
}

static void
case_errors(void)
{
   drv_test_setup(NULL);
   CUmodule mod;
   CUfunction f;
   CHECK_CU(cuModuleLoadData(NULL, "x"), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuModuleLoadData(&mod, NULL), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuModuleLoadData(&mod, "\x01\x02\x03\x04\x05"), CUDA_ERROR_INVALID_IMAGE);
   CHECK_CU(cuModuleLoadData(&mod, ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k( {"),
            CUDA_ERROR_INVALID_PTX);
   CHECK_CU(cuModuleLoad(&mod, "/nonexistent/module.ptx"), CUDA_ERROR_FILE_NOT_FOUND);
   char *sass = drv_test_read_file(paths[4], NULL);
   CHECK_CU(cuModuleLoadFatBinary(&mod, sass), CUDA_ERROR_NOT_SUPPORTED);
   free(sass);

   char *ptx = drv_test_read_file(paths[0], NULL);
   OK(cuModuleLoadData(&mod, ptx));
   CHECK_CU(cuModuleGetFunction(&f, mod, "no_such_kernel"), CUDA_ERROR_NOT_FOUND);
   CHECK_CU(cuModuleGetFunction(&f, NULL, "vector_add"), CUDA_ERROR_INVALID_HANDLE);
   CHECK_CU(cuModuleGetFunction(NULL, mod, "vector_add"), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuModuleGetGlobal(NULL, NULL, mod, "nothing"), CUDA_ERROR_NOT_FOUND);
   OK(cuModuleGetFunction(&f, mod, "vector_add"));
   CUfunction again;
   OK(cuModuleGetFunction(&again, mod, "vector_add"));
   CHECK(again == f);

   int v = -1;
   OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
   CHECK(v > 0 && v <= 1024);
   OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
   CHECK(v == 0);
   OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f));
   CHECK(v > 0);
   int max_dyn = v;
   CHECK_CU(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, max_dyn + 1),
            CUDA_ERROR_INVALID_VALUE);
   OK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1024));
   OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f));
   CHECK(v == 1024);
   OK(cuFuncSetCacheConfig(f, CU_FUNC_CACHE_PREFER_SHARED));
   CHECK_CU(cuFuncGetAttribute(&v, (CUfunction_attribute)999, f), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, NULL), CUDA_ERROR_INVALID_HANDLE);
   int blocks = 0, min_grid = 0, block = 0;
   OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 128, 0));
   CHECK(blocks >= 1);
   OK(cuOccupancyMaxPotentialBlockSize(&min_grid, &block, f, NULL, 0, 0));
   CHECK(block > 0 && block <= 1024 && min_grid >= 1);

   CUdeviceptr p;
   OK(cuMemAlloc(&p, 4096));
   int n = 16;
   void *params[] = {&p, &p, &p, &n};
   CHECK_CU(cuLaunchKernel(f, 1, 1, 1, 2048, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuLaunchKernel(f, 1, 1, 1, 0, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuLaunchKernel(f, 0, 1, 1, 32, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 1 << 30, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 2048, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuLaunchKernel(NULL, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_HANDLE);
   OK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
   OK(cuCtxSynchronize());
   OK(cuModuleUnload(mod));
   CHECK_CU(cuModuleUnload(mod), CUDA_ERROR_INVALID_HANDLE);
   CHECK_CU(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_HANDLE);
   OK(cuMemFree(p));
   free(ptx);
   drv_test_teardown();
}

/* y = a x + y over a grid of more than 65,535 blocks, so the launch is
 * split into several dispatches. */
static void
case_saxpy_big_grid(void)
{
   drv_test_setup(NULL);
   char *ptx = drv_test_read_file(paths[1], NULL);
   CUmodule mod;
   CUfunction f;
   OK(cuModuleLoadData(&mod, ptx));
   OK(cuModuleGetFunction(&f, mod, "saxpy"));
   unsigned grid = 70000, block = 32;
   unsigned long long n = (unsigned long long)grid * block;
   float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float)), *out = malloc(n * sizeof(float));
   for (unsigned long long i = 0; i < n; i++) {
      x[i] = (float)(i % 1000);
      y[i] = (float)(i % 7);
   }
   CUdeviceptr dx, dy;
   OK(cuMemAlloc(&dx, n * sizeof(float)));
   OK(cuMemAlloc(&dy, n * sizeof(float)));
   OK(cuMemcpyHtoD(dx, x, n * sizeof(float)));
   OK(cuMemcpyHtoD(dy, y, n * sizeof(float)));
   float a = 2.5f;
   void *params[] = {&n, &a, &dx, &dy};
   OK(cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, NULL, params, NULL));
   OK(cuMemcpyDtoH(out, dy, n * sizeof(float)));
   unsigned long long bad = 0;
   for (unsigned long long i = 0; i < n; i++)
      bad += out[i] != fmaf(a, x[i], y[i]) && out[i] != a * x[i] + y[i];
   if (bad)
      fprintf(stderr, "%llu of %llu wrong\n", bad, n);
   CHECK(bad == 0);
   OK(cuMemFree(dx));
   OK(cuMemFree(dy));
   OK(cuModuleUnload(mod));
   free(x);
   free(y);
   free(out);
   free(ptx);
   drv_test_teardown();
}

/* count granules of VMM memory mapped side by side in one reservation,
 * readable and writable; *gran is the granule. */
static CUdeviceptr
map_side_by_side(CUmemGenericAllocationHandle *h, int count, size_t *gran)
{
   CUmemAllocationProp prop = {0};
   prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
   prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
   *gran = 0;
   OK(cuMemGetAllocationGranularity(gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
   CUdeviceptr base = 0;
   OK(cuMemAddressReserve(&base, count * *gran, 0, 0, 0));
   for (int i = 0; i < count; i++) {
      OK(cuMemCreate(&h[i], *gran, &prop, 0));
      OK(cuMemMap(base + i * *gran, *gran, 0, h[i], 0));
   }
   CUmemAccessDesc access = {{CU_MEM_LOCATION_TYPE_DEVICE, 0}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
   OK(cuMemSetAccess(base, count * *gran, &access, 1));
   return base;
}

static void
unmap_side_by_side(CUdeviceptr base, const CUmemGenericAllocationHandle *h, int count, size_t gran)
{
   OK(cuMemUnmap(base, count * gran));
   for (int i = 0; i < count; i++)
      OK(cuMemRelease(h[i]));
   OK(cuMemAddressFree(base, count * gran));
}

/* Pinned host memory and VMM mappings are reachable from kernels too. */
static void
case_memory_kinds(void)
{
   drv_test_setup(NULL);
   char *ptx = drv_test_read_file(paths[0], NULL);
   CUmodule mod;
   CUfunction f;
   OK(cuModuleLoadData(&mod, ptx));
   OK(cuModuleGetFunction(&f, mod, "vector_add"));
   int n = 5000;
   float *ha, *hb, *hc;
   OK(cuMemAllocHost((void **)&ha, n * sizeof(float)));
   OK(cuMemAllocHost((void **)&hb, n * sizeof(float)));
   OK(cuMemAllocHost((void **)&hc, n * sizeof(float)));
   CUdeviceptr a, b, c;
   OK(cuMemHostGetDevicePointer(&a, ha, 0));
   OK(cuMemHostGetDevicePointer(&b, hb, 0));
   OK(cuMemHostGetDevicePointer(&c, hc, 0));
   run_vector_add(f, a, b, c, ha, hb, hc, n, 1);

   /* Three handles mapped side by side in one reservation. */
   size_t gran;
   CUmemGenericAllocationHandle h[3];
   CUdeviceptr base = map_side_by_side(h, 3, &gran);
   float *hx = malloc(n * sizeof(float)), *hy = malloc(n * sizeof(float)), *hz = malloc(n * sizeof(float));
   run_vector_add(f, base, base + gran, base + 2 * gran, hx, hy, hz, n, 0);
   unmap_side_by_side(base, h, 3, gran);
   OK(cuMemFreeHost(ha));
   OK(cuMemFreeHost(hb));
   OK(cuMemFreeHost(hc));
   OK(cuModuleUnload(mod));
   free(hx);
   free(hy);
   free(hz);
   free(ptx);
   drv_test_teardown();
}

/* A pointer into no allocation: the launch runs, the process survives,
 * and the context answers CUDA_ERROR_ILLEGAL_ADDRESS from then on. */
static void
case_wild_pointer(void)
{
   drv_test_setup(NULL);
   char *ptx = drv_test_read_file(paths[0], NULL);
   CUmodule mod;
   CUfunction f;
   OK(cuModuleLoadData(&mod, ptx));
   OK(cuModuleGetFunction(&f, mod, "vector_add"));
   CUdeviceptr good;
   OK(cuMemAlloc(&good, 4096));
   CUdeviceptr wild = (CUdeviceptr)0x10000;
   int n = 256;
   void *params[] = {&good, &good, &wild, &n};
   CUevent ev;
   OK(cuEventCreate(&ev, 0));
   OK(cuLaunchKernel(f, 2, 1, 1, 128, 1, 1, 0, NULL, params, NULL));
   OK(cuEventRecord(ev, NULL));
   /* Queries report the fault once the work is done, as a
    * synchronisation does. */
   CUresult q;
   while ((q = cuEventQuery(ev)) == CUDA_ERROR_NOT_READY)
      ;
   CHECK_CU(q, CUDA_ERROR_ILLEGAL_ADDRESS);
   CHECK_CU(cuStreamQuery(NULL), CUDA_ERROR_ILLEGAL_ADDRESS);
   CHECK_CU(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
   CHECK_CU(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
   CHECK_CU(cuLaunchKernel(f, 2, 1, 1, 128, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_ILLEGAL_ADDRESS);
   /* Every call that queues work, not only launches. */
   CHECK_CU(cuMemsetD32(good, 0, 16), CUDA_ERROR_ILLEGAL_ADDRESS);
   CHECK_CU(cuMemsetD32Async(good, 0, 16, NULL), CUDA_ERROR_ILLEGAL_ADDRESS);
   CHECK_CU(cuMemcpyHtoD(good, &n, sizeof(n)), CUDA_ERROR_ILLEGAL_ADDRESS);
   free(ptx);
   /* Only destroying the context clears it, as on CUDA. */
   CUdevice dev;
   OK(cuDeviceGet(&dev, 0));
   OK(cuDevicePrimaryCtxReset(dev));
}

/* Load, launch, unload many times: nothing may pile up. */
static void
case_unload_loop(void)
{
   drv_test_setup(NULL);
   char *ptx = drv_test_read_file(paths[0], NULL);
   CUdeviceptr p;
   OK(cuMemAlloc(&p, 1024 * sizeof(float)));
   OK(cuMemsetD32(p, 0, 1024));
   int n = 1024;
   for (int i = 0; i < 40; i++) {
      CUmodule mod;
      CUfunction f;
      OK(cuModuleLoadData(&mod, ptx));
      OK(cuModuleGetFunction(&f, mod, "vector_add"));
      void *params[] = {&p, &p, &p, &n};
      OK(cuLaunchKernel(f, 8, 1, 1, 128, 1, 1, 0, NULL, params, NULL));
      OK(cuModuleUnload(mod));
   }
   OK(cuCtxSynchronize());
   OK(cuMemFree(p));
   free(ptx);
   drv_test_teardown();
}

/* Module-scope variables: allocated at load with their initial values
 * and relocations, reachable by cuModuleGetGlobal and from kernels. */
static const char globals_ptx[] =
   ".version 8.0\n.target sm_75\n.address_size 64\n"
   ".visible .global .align 4 .u32 counter = 5;\n"
   ".visible .global .align 8 .u64 where = counter;\n"
   ".visible .const .align 4 .u32 step = 3;\n"
   ".visible .entry bump(.param .u64 out)\n"
   "{\n"
   "   .reg .b32 %r<4>;\n"
   "   .reg .b64 %rd<4>;\n"
   "   ld.global.u32 %r1, [counter];\n"
   "   ld.const.u32 %r3, [step];\n"
   "   add.u32 %r2, %r1, %r3;\n"
   "   st.global.u32 [counter], %r2;\n"
   "   ld.param.u64 %rd1, [out];\n"
   "   ld.global.u64 %rd2, [where];\n"
   "   st.global.u64 [%rd1], %rd2;\n"
   "   ret;\n"
   "}\n";

static void
case_globals(void)
{
   drv_test_setup(NULL);
   CUmodule mod;
   CUfunction f;
   OK(cuModuleLoadData(&mod, globals_ptx));
   CUdeviceptr counter = 0, where = 0, out;
   size_t size = 0;
   OK(cuModuleGetGlobal(&counter, &size, mod, "counter"));
   CHECK(counter != 0 && size == 4);
   OK(cuModuleGetGlobal(&where, &size, mod, "where"));
   CHECK(size == 8);
   unsigned value = 0;
   unsigned long long addr = 0;
   OK(cuMemcpyDtoH(&value, counter, 4));
   CHECK(value == 5);
   OK(cuMemcpyDtoH(&addr, where, 8));
   CHECK(addr == counter);
   OK(cuModuleGetFunction(&f, mod, "bump"));
   OK(cuMemAlloc(&out, 8));
   void *params[] = {&out};
   OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
   OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
   OK(cuMemcpyDtoH(&value, counter, 4));
   CHECK(value == 11);
   OK(cuMemcpyDtoH(&addr, out, 8));
   CHECK(addr == counter);
   /* The host writes a variable; the kernel sees it. */
   value = 100;
   OK(cuMemcpyHtoD(counter, &value, 4));
   OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
   OK(cuMemcpyDtoH(&value, counter, 4));
   CHECK(value == 103);
   OK(cuMemFree(out));
   OK(cuModuleUnload(mod));
   drv_test_teardown();
}

/* __managed__ variables (.attribute(.managed)): managed memory, which the
 * host reads and writes in place at the address cuModuleGetGlobal gives,
 * initialised, zeroed where not, and reachable from kernels (through a
 * relocation too). */
static const char managed_ptx[] =
   ".version 8.0\n.target sm_75\n.address_size 64\n"
   ".visible .global .attribute(.managed) .align 4 .u32 hits = 7;\n"
   ".visible .global .attribute(.managed) .align 8 .b8 blank[24];\n"
   ".visible .global .align 8 .u64 hits_at = hits;\n"
   ".visible .entry bump()\n"
   "{\n"
   "   .reg .b32 %r<2>;\n"
   "   .reg .b64 %rd<3>;\n"
   "   ld.global.u64 %rd1, [hits_at];\n"
   "   atom.global.add.u32 %r1, [%rd1], 2;\n"
   "   st.global.u32 [blank+20], %r1;\n"
   "   ret;\n"
   "}\n";

static void
case_managed_globals(void)
{
   drv_test_setup(NULL);
   CUmodule mod;
   CUfunction f;
   OK(cuModuleLoadData(&mod, managed_ptx));
   CUdeviceptr hits = 0, blank = 0;
   size_t size = 0;
   OK(cuModuleGetGlobal(&hits, &size, mod, "hits"));
   CHECK(size == 4);
   OK(cuModuleGetGlobal(&blank, &size, mod, "blank"));
   CHECK(size == 24);
   unsigned is_managed = 0;
   OK(cuPointerGetAttribute(&is_managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, hits));
   CHECK(is_managed == 1);
   volatile unsigned *h = (volatile unsigned *)(uintptr_t)hits;
   const unsigned char *b = (const unsigned char *)(uintptr_t)blank;
   CHECK(*h == 7);
   for (int i = 0; i < 24; i++)
      CHECK(b[i] == 0);
   *h = 40;
   OK(cuModuleGetFunction(&f, mod, "bump"));
   OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
   OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
   OK(cuCtxSynchronize());
   CHECK(*h == 44);
   unsigned last = 0;
   memcpy(&last, b + 20, 4);
   CHECK(last == 42);
   OK(cuModuleUnload(mod));
   /* Unloading frees the variables with the module. */
   CHECK_CU(cuPointerGetAttribute(&is_managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, hits),
            CUDA_ERROR_INVALID_VALUE);
   drv_test_teardown();
}

/* Each thread writes its global x, y, z at its linear index, from
 * %ctaid, %ntid, %tid and %nctaid in all three dimensions. */
static const char grid_ptx[] =
   ".version 8.0\n.target sm_75\n.address_size 64\n"
   ".visible .entry where(.param .u64 out)\n"
   "{\n"
   "   .reg .b32 %r<20>;\n"
   "   .reg .b64 %rd<6>;\n"
   "   mov.u32 %r1, %ctaid.x;  mov.u32 %r2, %ntid.x;  mov.u32 %r3, %tid.x;\n"
   "   mad.lo.u32 %r4, %r1, %r2, %r3;\n"
   "   mov.u32 %r5, %ctaid.y;  mov.u32 %r6, %ntid.y;  mov.u32 %r7, %tid.y;\n"
   "   mad.lo.u32 %r8, %r5, %r6, %r7;\n"
   "   mov.u32 %r9, %ctaid.z;  mov.u32 %r10, %ntid.z; mov.u32 %r11, %tid.z;\n"
   "   mad.lo.u32 %r12, %r9, %r10, %r11;\n"
   "   mov.u32 %r13, %nctaid.x; mul.lo.u32 %r14, %r13, %r2;\n"
   "   mov.u32 %r15, %nctaid.y; mul.lo.u32 %r16, %r15, %r6;\n"
   "   mad.lo.u32 %r17, %r12, %r16, %r8;\n"
   "   mad.lo.u32 %r18, %r17, %r14, %r4;\n"
   "   shl.b32 %r19, %r8, 10;   or.b32 %r19, %r19, %r4;\n"
   "   shl.b32 %r10, %r12, 20;  or.b32 %r19, %r19, %r10;\n"
   "   ld.param.u64 %rd1, [out];\n"
   "   mul.wide.u32 %rd2, %r18, 4;\n"
   "   add.s64 %rd3, %rd1, %rd2;\n"
   "   st.global.u32 [%rd3], %r19;\n"
   "   ret;\n"
   "}\n";

static void
check_grid(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz)
{
   unsigned w = gx * bx, h = gy * by, d = gz * bz;
   size_t n = (size_t)w * h * d;
   CUdeviceptr out;
   OK(cuMemAlloc(&out, n * 4));
   OK(cuMemsetD32(out, 0xffffffffu, n));
   void *params[] = {&out};
   OK(cuLaunchKernel(f, gx, gy, gz, bx, by, bz, 0, NULL, params, NULL));
   unsigned *host = malloc(n * 4);
   OK(cuMemcpyDtoH(host, out, n * 4));
   size_t bad = 0;
   for (unsigned z = 0; z < d; z++)
      for (unsigned y = 0; y < h; y++)
         for (unsigned x = 0; x < w; x++)
            bad += host[((size_t)z * h + y) * w + x] != (x | y << 10 | z << 20);
   if (bad)
      fprintf(stderr, "grid %ux%ux%u block %ux%ux%u: %zu of %zu wrong\n", gx, gy, gz, bx, by, bz, bad, n);
   CHECK(bad == 0);
   free(host);
   OK(cuMemFree(out));
}

static void
case_grids(void)
{
   drv_test_setup(NULL);
   CUmodule mod;
   CUfunction f;
   OK(cuModuleLoadData(&mod, grid_ptx));
   OK(cuModuleGetFunction(&f, mod, "where"));
   check_grid(f, 3, 4, 5, 4, 2, 2);
   check_grid(f, 7, 9, 1, 8, 8, 1);
   /* x beyond one dispatch, with y: every piece is told where it starts. */
   check_grid(f, 70000, 2, 1, 1, 1, 1);
   OK(cuModuleUnload(mod));
   drv_test_teardown();
}

/* Arrays that cross the seam between two mappings of a reservation: each
 * page finds its own handle's memory. */
static void
case_vmm_seam(void)
{
   drv_test_setup(NULL);
   char *ptx = drv_test_read_file(paths[0], NULL);
   CUmodule mod;
   CUfunction f;
   OK(cuModuleLoadData(&mod, ptx));
   OK(cuModuleGetFunction(&f, mod, "vector_add"));
   size_t gran;
   CUmemGenericAllocationHandle h[4];
   CUdeviceptr base = map_side_by_side(h, 4, &gran);
   int n = (int)(gran / 4 / 2 + 3000);
   float *ha = malloc(n * sizeof(float)), *hb = malloc(n * sizeof(float)), *hc = malloc(n * sizeof(float));
   /* a over the 1st/2nd seam, b over the 2nd/3rd, c over the 3rd/4th. */
   run_vector_add(f, base + gran - 4096, base + 2 * gran - 8192, base + 3 * gran - 1024, ha, hb, hc, n, 0);
   unmap_side_by_side(base, h, 4, gran);
   OK(cuModuleUnload(mod));
   free(ha);
   free(hb);
   free(hc);
   free(ptx);
   drv_test_teardown();
}

/* Kernels whose accesses reach past the allocation their pointer
 * parameter names, and through pointers read from memory: the span of a
 * parameter (kernel_abi.h) covers only its own allocation, so these take
 * the page table and must still land on the right bytes. */
static const char span_ptx[] =
   ".version 8.0\n.target sm_75\n.address_size 64\n"
   /* dst[i] = src[i + off] for i < n */
   ".visible .entry gather(.param .u64 src, .param .u64 dst, .param .s64 off, .param .u32 n)\n"
   "{\n"
   "   .reg .pred %p<2>;\n"
   "   .reg .b32 %r<6>;\n"
   "   .reg .b64 %rd<12>;\n"
   "   ld.param.u64 %rd1, [src];\n"
   "   ld.param.u64 %rd2, [dst];\n"
   "   ld.param.s64 %rd3, [off];\n"
   "   ld.param.u32 %r1, [n];\n"
   "   mov.u32 %r2, %ctaid.x;  mov.u32 %r3, %ntid.x;  mov.u32 %r4, %tid.x;\n"
   "   mad.lo.s32 %r5, %r2, %r3, %r4;\n"
   "   setp.ge.u32 %p1, %r5, %r1;\n"
   "   @%p1 bra $done;\n"
   "   cvta.to.global.u64 %rd4, %rd1;\n"
   "   cvta.to.global.u64 %rd5, %rd2;\n"
   "   cvt.u64.u32 %rd6, %r5;\n"
   "   add.s64 %rd7, %rd6, %rd3;\n"
   "   shl.b64 %rd8, %rd7, 2;\n"
   "   add.s64 %rd9, %rd4, %rd8;\n"
   "   ld.global.u32 %r0, [%rd9];\n"
   "   mul.wide.u32 %rd10, %r5, 4;\n"
   "   add.s64 %rd11, %rd5, %rd10;\n"
   "   st.global.u32 [%rd11], %r0;\n"
   "$done:\n"
   "   ret;\n"
   "}\n"
   /* out[i] = *table[i] for i < n */
   ".visible .entry chase(.param .u64 table, .param .u64 out, .param .u32 n)\n"
   "{\n"
   "   .reg .pred %p<2>;\n"
   "   .reg .b32 %r<6>;\n"
   "   .reg .b64 %rd<8>;\n"
   "   ld.param.u64 %rd1, [table];\n"
   "   ld.param.u64 %rd2, [out];\n"
   "   ld.param.u32 %r1, [n];\n"
   "   mov.u32 %r5, %tid.x;\n"
   "   setp.ge.u32 %p1, %r5, %r1;\n"
   "   @%p1 bra $done;\n"
   "   mul.wide.u32 %rd3, %r5, 8;\n"
   "   add.s64 %rd4, %rd1, %rd3;\n"
   "   ld.global.u64 %rd5, [%rd4];\n"
   "   ld.global.u32 %r0, [%rd5];\n"
   "   mul.wide.u32 %rd6, %r5, 4;\n"
   "   add.s64 %rd7, %rd2, %rd6;\n"
   "   st.global.u32 [%rd7], %r0;\n"
   "$done:\n"
   "   ret;\n"
   "}\n";

/* gather over n words from src + off, checked against want(i + off). */
static void
check_gather(CUfunction f, CUdeviceptr src, long long off, unsigned n, CUdeviceptr dst,
             unsigned (*want)(long long), const char *what)
{
   OK(cuMemsetD32(dst, 0xdeadbeefu, n));
   void *params[] = {&src, &dst, &off, &n};
   OK(cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, params, NULL));
   unsigned *host = malloc(n * sizeof(unsigned));
   OK(cuMemcpyDtoH(host, dst, n * sizeof(unsigned)));
   unsigned bad = 0, first = 0;
   for (unsigned i = 0; i < n; i++) {
      if (host[i] != want(i + off) && !bad++)
         first = i;
   }
   if (bad)
      fprintf(stderr, "%s: %u of %u words wrong, first [%u] = 0x%x, want 0x%x\n", what, bad, n, first,
              host[first], want(first + off));
   CHECK(bad == 0);
   free(host);
}

/* Word i of the reservation in case_span_edges holds i ^ 0x5a5a0000. */
static unsigned
want_reservation(long long i)
{
   return (unsigned)i ^ 0x5a5a0000u;
}

static long long gran_words;

/* gather from the middle mapping, whose span ends at its seams. */
static unsigned
want_middle(long long i)
{
   return want_reservation(i + gran_words);
}

static unsigned
want_host(long long i)
{
   return (unsigned)i * 3u + 1u;
}

/* Registered memory in case_span_edges: HOST_WORDS words, read from a
 * pointer to its middle too. */
#define HOST_WORDS (3 * 4096 / 4)

static unsigned
want_host_middle(long long i)
{
   return want_host(i + HOST_WORDS / 2);
}

/* Pointer arithmetic past both ends of a parameter's allocation (VMM
 * seams on either side, so the neighbours are other memory), pointers
 * loaded from memory into device, VMM and registered host memory, and a
 * registered host range read to its last word. */
static void
case_span_edges(void)
{
   drv_test_setup(NULL);
   CUmodule mod;
   CUfunction gather, chase;
   OK(cuModuleLoadData(&mod, span_ptx));
   OK(cuModuleGetFunction(&gather, mod, "gather"));
   OK(cuModuleGetFunction(&chase, mod, "chase"));

   size_t gran;
   CUmemGenericAllocationHandle h[3];
   CUdeviceptr base = map_side_by_side(h, 3, &gran);
   gran_words = (long long)(gran / 4);
   size_t words = 3 * gran / 4;
   unsigned *fill = malloc(words * 4);
   for (size_t i = 0; i < words; i++)
      fill[i] = want_reservation((long long)i);
   OK(cuMemcpyHtoD(base, fill, words * 4));
   free(fill);
   CUdeviceptr dst;
   unsigned n = (unsigned)gran_words + 4096;
   OK(cuMemAlloc(&dst, n * 4));
   /* From 2048 words before the middle mapping to 2048 after it. */
   check_gather(gather, base + gran, -2048, n, dst, want_middle, "gather across both seams");
   /* Only below it, then only above it. */
   check_gather(gather, base + gran, -(long long)gran_words, 4096, dst, want_middle, "gather below");
   check_gather(gather, base + gran, gran_words, 4096, dst, want_middle, "gather above");

   /* Registered host memory, to its last word, and from a pointer into
    * its middle back to its start. */
   size_t host_words = HOST_WORDS;
   unsigned *host = aligned_alloc(4096, host_words * 4);
   for (size_t i = 0; i < host_words; i++)
      host[i] = want_host((long long)i);
   CUresult r = cuMemHostRegister(host, host_words * 4, 0);
   if (r == CUDA_SUCCESS) {
      CUdeviceptr hp;
      OK(cuMemHostGetDevicePointer(&hp, host, 0));
      check_gather(gather, hp, 0, (unsigned)host_words, dst, want_host, "gather from registered memory");
      check_gather(gather, hp + host_words * 2, -(long long)host_words / 2, (unsigned)host_words, dst,
                   want_host_middle, "gather from the middle of registered memory");
   } else {
      CHECK_CU(r, CUDA_ERROR_NOT_SUPPORTED);
      printf("cuMemHostRegister not supported: registered memory not tested\n");
   }

   /* Pointers from memory: into the reservation's three mappings, a
    * device allocation and the registered memory. */
   CUdeviceptr table, plain, out;
   OK(cuMemAlloc(&plain, 4096));
   OK(cuMemsetD32(plain, 0x12345678u, 1024));
   unsigned long long ptrs[6] = {base + 4, base + gran + 8, base + 3 * gran - 4, plain + 4092, plain, 0};
   unsigned want[6] = {want_reservation(1), want_reservation(gran_words + 2), want_reservation(3 * gran_words - 1),
                       0x12345678u, 0x12345678u, 0};
   unsigned count = 5;
   if (r == CUDA_SUCCESS) {
      OK(cuMemHostGetDevicePointer((CUdeviceptr *)&ptrs[5], host + host_words - 1, 0));
      want[5] = want_host((long long)host_words - 1);
      count = 6;
   }
   OK(cuMemAlloc(&table, sizeof(ptrs)));
   OK(cuMemAlloc(&out, sizeof(want)));
   OK(cuMemcpyHtoD(table, ptrs, sizeof(ptrs)));
   void *params[] = {&table, &out, &count};
   OK(cuLaunchKernel(chase, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
   unsigned got[6] = {0};
   OK(cuMemcpyDtoH(got, out, count * 4));
   for (unsigned i = 0; i < count; i++) {
      if (got[i] != want[i])
         fprintf(stderr, "chase: pointer %u read 0x%x, want 0x%x\n", i, got[i], want[i]);
      CHECK(got[i] == want[i]);
   }

   OK(cuMemFree(table));
   OK(cuMemFree(out));
   OK(cuMemFree(plain));
   OK(cuMemFree(dst));
   if (r == CUDA_SUCCESS)
      OK(cuMemHostUnregister(host));
   free(host);
   unmap_side_by_side(base, h, 3, gran);
   OK(cuModuleUnload(mod));
   drv_test_teardown();
}

/* A pointer computed from a good parameter but far outside its
 * allocation faults as a wild one does. */
static void
case_span_wild(void)
{
   drv_test_setup(NULL);
   CUmodule mod;
   CUfunction gather;
   OK(cuModuleLoadData(&mod, span_ptx));
   OK(cuModuleGetFunction(&gather, mod, "gather"));
   CUdeviceptr src, dst;
   OK(cuMemAlloc(&src, 4096));
   OK(cuMemAlloc(&dst, 4096));
   long long off = 1ll << 40;
   unsigned n = 64;
   void *params[] = {&src, &dst, &off, &n};
   OK(cuLaunchKernel(gather, 1, 1, 1, 64, 1, 1, 0, NULL, params, NULL));
   CHECK_CU(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
   CUdevice dev;
   OK(cuDeviceGet(&dev, 0));
   OK(cuDevicePrimaryCtxReset(dev));
}

/* One thread loads, uses and unloads a module; others use whichever
 * module and function it made last, loaded or already unloaded.  A call
 * that found the module or function in the object table read it after
 * the unload had freed it (under --sanitize=address, a use after free);
 * now a call holds a reference to the module, so it finishes on the
 * live one or is told the handle is gone. */
struct unload_race {
   CUcontext ctx;
   CUdeviceptr out;
   _Atomic(CUmodule) mod;
   _Atomic(CUfunction) fn;
   atomic_bool stop;
};

static void *
unload_race_user(void *data)
{
   struct unload_race *r = data;
   OK(cuCtxSetCurrent(r->ctx));
   while (!atomic_load(&r->stop)) {
      CUmodule mod = atomic_load(&r->mod);
      CUfunction fn = atomic_load(&r->fn);
      if (!mod || !fn)
         continue;
      CUfunction got;
      int attr;
      void *params[] = {&r->out};
      CUresult g = cuModuleGetFunction(&got, mod, "where");
      CUresult a = cuFuncGetAttribute(&attr, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn);
      CUresult l = cuLaunchKernel(fn, 1, 1, 1, 4, 2, 2, 0, NULL, params, NULL);
      CHECK((g == CUDA_SUCCESS || g == CUDA_ERROR_INVALID_HANDLE) &&
            (a == CUDA_SUCCESS || a == CUDA_ERROR_INVALID_HANDLE) &&
            (l == CUDA_SUCCESS || l == CUDA_ERROR_INVALID_HANDLE));
   }
   OK(cuCtxSetCurrent(NULL));
   return NULL;
}

static void
case_unload_race(void)
{
   enum { USERS = 3, ROUNDS = 40 };
   struct unload_race r = { .ctx = drv_test_setup(NULL) };
   pthread_t users[USERS];
   OK(cuMemAlloc(&r.out, 4096));
   for (int i = 0; i < USERS; i++)
      CHECK(pthread_create(&users[i], NULL, unload_race_user, &r) == 0);
   for (int i = 0; i < ROUNDS && !cuvk_test_failures(); i++) {
      CUmodule mod;
      CUfunction fn;
      OK(cuModuleLoadData(&mod, grid_ptx));
      OK(cuModuleGetFunction(&fn, mod, "where"));
      atomic_store(&r.fn, fn);
      atomic_store(&r.mod, mod);
      void *params[] = {&r.out};
      OK(cuLaunchKernel(fn, 1, 1, 1, 4, 2, 2, 0, NULL, params, NULL));
      OK(cuModuleUnload(mod));
   }
   atomic_store(&r.stop, true);
   for (int i = 0; i < USERS; i++)
      pthread_join(users[i], NULL);
   OK(cuCtxSynchronize());
   OK(cuMemFree(r.out));
   drv_test_teardown();
}


/* A module of AHEAD_KERNELS kernels, k<i> writing tid + i * 1000 at out's
 * word tid, and one, refused, that the compiler cannot translate: the
 * first launch of any starts the others building on the compile pool
 * (module_ahead.c), which an unload and a context destroy must stop
 * cleanly (no leak, no use after free: run under the sanitizers). */
#define AHEAD_KERNELS 48

static char *
ahead_ptx(void)
{
   size_t cap = 4096 + AHEAD_KERNELS * 512, len = 0;
   char *ptx = malloc(cap);
   len += (size_t)snprintf(ptx + len, cap - len, ".version 8.0\n.target sm_75\n.address_size 64\n");
   for (int i = 0; i < AHEAD_KERNELS; i++)
      len += (size_t)snprintf(ptx + len, cap - len,
                              ".visible .entry k%d(.param .u64 out)\n{\n"
                              "   .reg .b32 %%r<4>;\n   .reg .b64 %%rd<4>;\n"
                              "   ld.param.u64 %%rd1, [out];\n   mov.u32 %%r1, %%tid.x;\n"
                              "   mul.wide.u32 %%rd2, %%r1, 4;\n   add.s64 %%rd3, %%rd1, %%rd2;\n"
                              "   add.u32 %%r2, %%r1, %d;\n   st.global.u32 [%%rd3], %%r2;\n   ret;\n}\n",
                              i, i * 1000);
   /* A .reg parameter of an entry is not translated: refused. */
   len += (size_t)snprintf(ptx + len, cap - len,
                           ".visible .func (.reg .b32 r) twice(.reg .b32 a)\n{\n   add.u32 r, a, a;\n   ret;\n}\n"
                           ".visible .entry refused(.param .u64 out)\n{\n   .reg .b32 %%r<3>;\n"
                           "   mov.u32 %%r1, %%tid.x;\n   call (%%r2), twice, (%%r1);\n   ret;\n}\n");
   return ptx;
}

static void
ahead_check(CUfunction f, int i, unsigned block, CUdeviceptr out)
{
   void *params[] = {&out};
   OK(cuMemsetD32(out, 0xffffffffu, 256));
   OK(cuLaunchKernel(f, 1, 1, 1, block, 1, 1, 0, NULL, params, NULL));
   unsigned host[256];
   OK(cuMemcpyDtoH(host, out, sizeof(host)));
   int bad = 0;
   for (unsigned t = 0; t < 256; t++)
      bad += host[t] != (t < block ? t + (unsigned)i * 1000u : 0xffffffffu);
   if (bad)
      fprintf(stderr, "k%d, block %u: %d words wrong\n", i, block, bad);
   CHECK(bad == 0);
}

static void
case_ahead(void)
{
   /* Pipelines too, which the default leaves to the launch on lavapipe. */
   setenv("CUVK_COMPILE_PIPELINES", "1", 1);
   CUcontext primary = drv_test_setup(NULL);
   char *ptx = ahead_ptx();
   CUdeviceptr out;
   OK(cuMemAlloc(&out, 1024));
   char name[16];

   /* Every kernel, built ahead or not, with the launched shape and with
    * another; the refused one still says why. */
   CUmodule mod;
   CUfunction f;
   OK(cuModuleLoadData(&mod, ptx));
   OK(cuModuleGetFunction(&f, mod, "k7"));
   ahead_check(f, 7, 64, out);
   for (int i = 0; i < AHEAD_KERNELS; i++) {
      snprintf(name, sizeof(name), "k%d", i);
      OK(cuModuleGetFunction(&f, mod, name));
      ahead_check(f, i, 64, out);
      if (i % 5 == 0)
         ahead_check(f, i, 100, out);
   }
   CHECK(cuModuleGetFunction(&f, mod, "refused") == CUDA_ERROR_NOT_SUPPORTED);
   OK(cuModuleUnload(mod));

   /* Unloaded while the others are being built. */
   for (int round = 0; round < 6; round++) {
      OK(cuModuleLoadData(&mod, ptx));
      OK(cuModuleGetFunction(&f, mod, "k3"));
      ahead_check(f, 3, 32, out);
      if (round % 2) {
         OK(cuModuleGetFunction(&f, mod, "k40"));
         ahead_check(f, 40, 32, out);
      }
      OK(cuModuleUnload(mod));
   }
   OK(cuMemFree(out));

   /* A context destroyed while its module's kernels are being built. */
   CUdevice dev;
   OK(cuCtxGetDevice(&dev));
   for (int round = 0; round < 4; round++) {
      CUcontext ctx;
      OK(cuCtxCreate(&ctx, NULL, 0, dev));
      OK(cuMemAlloc(&out, 1024));
      OK(cuModuleLoadData(&mod, ptx));
      OK(cuModuleGetFunction(&f, mod, "k1"));
      ahead_check(f, 1, 16, out);
      OK(cuCtxDestroy(ctx));
   }
   OK(cuCtxSetCurrent(primary));
   free(ptx);
   drv_test_teardown();
}

static int
cmp_u64(const void *a, const void *b)
{
   unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
   return x < y ? -1 : x > y;
}

/* shared_atomics64.cu through the driver API: 64-bit atomics on shared
 * memory need VK_KHR_workgroup_memory_explicit_layout, which the context
 * enables where the device has it (NVIDIA); elsewhere (lavapipe 22.3)
 * cuModuleGetFunction refuses the kernel with NOT_SUPPORTED and the case
 * says skipped.  Every block's finals and the olds of its unsigned add
 * are checked exactly (compiler.run.shared_atomics64 does the same
 * without cuvk's driver). */
static void
case_shared_atomics64(void)
{
   enum { N = 600, BLOCK = 128, GRID = (N + BLOCK - 1) / BLOCK };
   if (!paths[5])
      cuvk_test_skip("no shared_atomics64.ptx given");
   drv_test_setup(NULL);
   char *ptx = drv_test_read_file(paths[5], NULL);
   CUmodule mod;
   CUfunction f;
   OK(cuModuleLoadData(&mod, ptx));
   CUresult r = cuModuleGetFunction(&f, mod, "shared_atomics64");
   if (r == CUDA_ERROR_NOT_SUPPORTED) {
      OK(cuModuleUnload(mod));
      free(ptx);
      drv_test_teardown();
      cuvk_test_skip("cuModuleGetFunction: NOT_SUPPORTED: the device has no "
                     "VK_KHR_workgroup_memory_explicit_layout for 64-bit shared atomics");
   }
   OK(r);
   double *x = malloc(N * sizeof(double));
   long long *k = malloc(N * sizeof(long long));
   unsigned long long *out = calloc(GRID * 10, 8), *olds = calloc(N, 8);
   for (int i = 0; i < N; i++) {
      x[i] = ((i * 37) % 401 - 200) * 0.25;
      k[i] = (long long)((i * 7919) % 1000 - 500) * 0x100000007ll + i;
   }
   CUdeviceptr dx, dk, dout, dolds;
   OK(cuMemAlloc(&dx, N * sizeof(double)));
   OK(cuMemAlloc(&dk, N * sizeof(long long)));
   OK(cuMemAlloc(&dout, GRID * 10 * 8));
   OK(cuMemAlloc(&dolds, N * 8));
   OK(cuMemcpyHtoD(dx, x, N * sizeof(double)));
   OK(cuMemcpyHtoD(dk, k, N * sizeof(long long)));
   int n = N;
   void *params[] = {&dx, &dk, &dout, &dolds, &n};
   OK(cuLaunchKernel(f, GRID, 1, 1, BLOCK, 1, 1, 0, NULL, params, NULL));
   OK(cuMemcpyDtoH(out, dout, GRID * 10 * 8));
   OK(cuMemcpyDtoH(olds, dolds, N * 8));
   const unsigned long long step = 0x100000001ull;
   for (int b = 0; b < GRID; b++) {
      int first = b * BLOCK, count = N - first < BLOCK ? N - first : BLOCK;
      const unsigned long long *o = out + b * 10;
      double dsum = 0, dmax = -1e300, d;
      unsigned long long umax = 0, band = ~0ull, bor = 0, bxor = 0;
      long long smin = 0;
      bool swapped_known = false;
      for (int i = first; i < first + count; i++) {
         unsigned long long u = (unsigned long long)k[i];
         dsum += x[i];
         dmax = x[i] > dmax ? x[i] : dmax;
         umax = u > umax ? u : umax;
         smin = k[i] < smin ? k[i] : smin;
         band &= ~(1ull << ((i * 5) & 63));
         bor |= 1ull << ((i * 7) & 63);
         bxor ^= u;
         swapped_known = swapped_known || o[8] == u;
      }
      memcpy(&d, &o[0], 8);
      CHECK(d == dsum);
      memcpy(&d, &o[1], 8);
      CHECK(d == dmax);
      CHECK(o[2] == 0xfffffff0ull + count * step);
      CHECK(o[3] == umax);
      CHECK((long long)o[4] == smin);
      CHECK(o[5] == band);
      CHECK(o[6] == bor);
      CHECK(o[7] == bxor);
      CHECK(swapped_known);
      /* The unsigned add's olds: each step once. */
      unsigned long long got[BLOCK];
      memcpy(got, olds + first, count * 8);
      qsort(got, count, 8, cmp_u64);
      int bad = 0;
      for (int t = 0; t < count; t++)
         bad += got[t] != 0xfffffff0ull + t * step;
      CHECK(bad == 0);
   }
   OK(cuMemFree(dx));
   OK(cuMemFree(dk));
   OK(cuMemFree(dout));
   OK(cuMemFree(dolds));
   OK(cuModuleUnload(mod));
   free(x);
   free(k);
   free(out);
   free(olds);
   free(ptx);
   drv_test_teardown();
}

static const struct {
   const char *name;
   void (*fn)(void);
} cases[] = {
   {"kernel.shared_atomics64", case_shared_atomics64},
   {"module.ahead", case_ahead},
   {"kernel.span_edges", case_span_edges},
   {"kernel.span_wild", case_span_wild},
   {"kernel.grids", case_grids},
   {"kernel.vmm_seam", case_vmm_seam},
   {"module.globals", case_globals},
   {"module.managed_globals", case_managed_globals},
   {"module.load.ptx", case_ptx},
   {"module.load.fatbin", case_fatbin},
   {"module.errors", case_errors},
   {"kernel.saxpy.big_grid", case_saxpy_big_grid},
   {"kernel.memory_kinds", case_memory_kinds},
   {"kernel.wild_pointer", case_wild_pointer},
   {"module.unload_loop", case_unload_loop},
   {"module.unload_race", case_unload_race},
};

int
main(int argc, char **argv)
{
   if (argc == 3 && strcmp(argv[1], "--skip") == 0)
      cuvk_test_skip("%s", argv[2]);
   if (argc != 7 && argc != 8) {
      fprintf(stderr, "usage: %s CASE VECTOR_ADD.ptx SAXPY.ptx DEFAULT.fatbin LZ4.fatbin SASS.fatbin "
              "[SHARED_ATOMICS64.ptx]\n", argv[0]);
      return 1;
   }
   for (int i = 0; i < argc - 2; i++)
      paths[i] = argv[2 + i];
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      if (strcmp(cases[i].name, argv[1]) == 0) {
         cases[i].fn();
         return drv_test_exit(argv[1]);
      }
   }
   fprintf(stderr, "no case %s\n", argv[1]);
   return 1;
}
