/*
 * library.*, launch_ex.*, link.*: the CUDA 12 library and kernel calls,
 * cuLaunchKernelEx and its attributes, and the PTX linker, through the
 * public driver API only (built against NVIDIA's cuda.h too where it is
 * installed).  Every launch is checked against the host's arithmetic.
 *
 * The disk cache of translated kernels is checked from outside, as a
 * user would see it: what the cache directory holds, and what cuvk's
 * debug log says it did (translated, or read from the disk cache), in
 * child processes of this program that share one directory.
 *
 *    test_library CASE VECTOR_ADD.ptx DEFAULT.fatbin SASS.fatbin
 */
#include <cuda.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "driver_harness.h"

static const char *paths[3];

static CUdevice dev;

enum { N = 3000 };

/* Buffers for vector_add: a[i] = i/2, b[i] = N - i; c zeroed. */
struct vadd {
   CUdeviceptr a, b, c;
   int n;
   void *params[4];
};

static void
vadd_init(struct vadd *v)
{
   float *h = malloc(N * sizeof(float));
   v->n = N;
   OK(cuMemAlloc(&v->a, N * sizeof(float)));
   OK(cuMemAlloc(&v->b, N * sizeof(float)));
   OK(cuMemAlloc(&v->c, N * sizeof(float)));
   for (int i = 0; i < N; i++)
      h[i] = (float)i * 0.5f;
   OK(cuMemcpyHtoD(v->a, h, N * sizeof(float)));
   for (int i = 0; i < N; i++)
      h[i] = (float)(N - i);
   OK(cuMemcpyHtoD(v->b, h, N * sizeof(float)));
   OK(cuMemsetD32(v->c, 0, N));
   v->params[0] = &v->a;
   v->params[1] = &v->b;
   v->params[2] = &v->c;
   v->params[3] = &v->n;
   free(h);
}

/* Checks c and zeroes it for the next launch. */
static void
vadd_check(struct vadd *v, int line)
{
   float *h = malloc(N * sizeof(float));
   OK(cuCtxSynchronize());
   OK(cuMemcpyDtoH(h, v->c, N * sizeof(float)));
   int bad = 0;
   for (int i = 0; i < N; i++)
      bad += h[i] != (float)i * 0.5f + (float)(N - i);
   if (bad)
      fprintf(stderr, "line %d: %d of %d sums wrong (c[0] = %g)\n", line, bad, N, h[0]);
   CHECK(bad == 0);
   OK(cuMemsetD32(v->c, 0, N));
   free(h);
}

static void
vadd_fini(struct vadd *v)
{
   OK(cuMemFree(v->a));
   OK(cuMemFree(v->b));
   OK(cuMemFree(v->c));
}

static void
case_library(void)
{
   drv_test_setup(&dev);
   struct vadd v;
   vadd_init(&v);
   char *ptx = drv_test_read_file(paths[0], NULL);
   CUlibrary lib;
   OK(cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0));
   unsigned count = 0;
   OK(cuLibraryGetKernelCount(&count, lib));
   CHECK(count == 1);
   CUkernel k = NULL, listed = NULL;
   OK(cuLibraryEnumerateKernels(&listed, 1, lib));
   OK(cuLibraryGetKernel(&k, lib, "vector_add"));
   CHECK(k == listed);
   const char *name = NULL;
   OK(cuKernelGetName(&name, k));
   CHECK(name && strcmp(name, "vector_add") == 0);
   CUlibrary owner = NULL;
   OK(cuKernelGetLibrary(&owner, k));
   CHECK(owner == lib);
   CHECK_CU(cuLibraryGetKernel(&k, lib, "no_such_kernel"), CUDA_ERROR_NOT_FOUND);
   OK(cuLibraryGetKernel(&k, lib, "vector_add"));

   /* vector_add(const float *, const float *, float *, int): CUDA's
    * layout, each parameter at its own alignment, known before any
    * launch; an index past the last is INVALID_VALUE. */
   static const size_t want_offset[4] = {0, 8, 16, 24}, want_size[4] = {8, 8, 8, 4};
   for (size_t i = 0; i < 4; i++) {
      size_t off = 99, size = 99;
      OK(cuKernelGetParamInfo(k, i, &off, &size));
      CHECK(off == want_offset[i] && size == want_size[i]);
   }
   size_t off = 99, psize = 99;
   OK(cuKernelGetParamInfo(k, 3, &off, NULL));
   CHECK(off == 24);
   CHECK_CU(cuKernelGetParamInfo(k, 4, &off, &psize), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuKernelGetParamInfo(k, 0, NULL, &psize), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuKernelGetParamInfo(NULL, 0, &off, &psize), CUDA_ERROR_INVALID_HANDLE);

   /* A CUkernel cast to CUfunction launches, as in CUDA. */
   OK(cuLaunchKernel((CUfunction)k, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, v.params, NULL));
   vadd_check(&v, __LINE__);
   /* Its function in this context is the library module's. */
   CUfunction f = NULL, f2 = NULL;
   CUmodule mod = NULL;
   OK(cuKernelGetFunction(&f, k));
   OK(cuLibraryGetModule(&mod, lib));
   OK(cuModuleGetFunction(&f2, mod, "vector_add"));
   CHECK(f == f2);
   for (size_t i = 0; i < 4; i++) {
      size_t o = 99, sz = 99;
      OK(cuFuncGetParamInfo(f, i, &o, &sz));
      CHECK(o == want_offset[i] && sz == want_size[i]);
      OK(cuFuncGetParamInfo((CUfunction)k, i, &o, NULL));
      CHECK(o == want_offset[i]);
   }
   CHECK_CU(cuFuncGetParamInfo(f, 4, &off, &psize), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuFuncGetParamInfo(f, (size_t)-1, &off, NULL), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuFuncGetParamInfo(f, 0, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
   OK(cuLaunchKernel(f, (N + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, v.params, NULL));
   vadd_check(&v, __LINE__);
   CHECK_CU(cuModuleUnload(mod), CUDA_ERROR_NOT_PERMITTED);

   /* Attributes set on the kernel reach the function and read back. */
   int value = -1;
   OK(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1024, k, dev));
   OK(cuKernelGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k, dev));
   CHECK(value == 1024);
   OK(cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f));
   CHECK(value == 1024);
   OK(cuKernelGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k, dev));
   CHECK(value > 0);
   OK(cuKernelSetCacheConfig(k, CU_FUNC_CACHE_PREFER_SHARED, dev));
   CHECK_CU(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, -1, k, dev),
            CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_NUM_REGS, 1, k, dev), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuKernelSetCacheConfig(k, CU_FUNC_CACHE_PREFER_SHARED, 99), CUDA_ERROR_INVALID_DEVICE);

   /* A global of the library: vector_add has none. */
   CUdeviceptr g;
   size_t gsize;
   CHECK_CU(cuLibraryGetGlobal(&g, &gsize, lib, "nothing"), CUDA_ERROR_NOT_FOUND);

   /* A second context loads the library by itself; destroying it leaves
    * the library whole for the first. */
   CUcontext primary, second;
   OK(cuCtxGetCurrent(&primary));
   OK(cuCtxCreate(&second, NULL, 0, dev));
   {
      struct vadd v2;
      vadd_init(&v2);
      OK(cuLaunchKernel((CUfunction)k, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, v2.params, NULL));
      vadd_check(&v2, __LINE__);
      CUfunction f3 = NULL;
      OK(cuKernelGetFunction(&f3, k));
      CHECK(f3 && f3 != f);
      vadd_fini(&v2);
   }
   OK(cuCtxDestroy(second));
   OK(cuCtxSetCurrent(primary));
   OK(cuLaunchKernel((CUfunction)k, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, v.params, NULL));
   vadd_check(&v, __LINE__);

   OK(cuLibraryUnload(lib));
   CHECK_CU(cuLibraryUnload(lib), CUDA_ERROR_INVALID_HANDLE);
   CHECK_CU(cuKernelGetFunction(&f, k), CUDA_ERROR_INVALID_HANDLE);
   CHECK_CU(cuKernelGetParamInfo(k, 0, &off, &psize), CUDA_ERROR_INVALID_HANDLE);
   CHECK_CU(cuLaunchKernel((CUfunction)k, 1, 1, 1, 1, 1, 1, 0, NULL, v.params, NULL), CUDA_ERROR_INVALID_HANDLE);

   /* From a file, and from a fatbin; a SASS-only fatbin is refused. */
   OK(cuLibraryLoadFromFile(&lib, paths[0], NULL, NULL, 0, NULL, NULL, 0));
   OK(cuLibraryGetKernel(&k, lib, "vector_add"));
   OK(cuLaunchKernel((CUfunction)k, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, v.params, NULL));
   vadd_check(&v, __LINE__);
   OK(cuLibraryUnload(lib));
   char *fatbin = drv_test_read_file(paths[1], NULL);
   CUlibraryOption opt = CU_LIBRARY_BINARY_IS_PRESERVED;
   void *optval = (void *)(size_t)1;
   OK(cuLibraryLoadData(&lib, fatbin, NULL, NULL, 0, &opt, &optval, 1));
   OK(cuLibraryGetKernel(&k, lib, "vector_add"));
   OK(cuLaunchKernel((CUfunction)k, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, v.params, NULL));
   vadd_check(&v, __LINE__);
   OK(cuLibraryUnload(lib));
   char *sass = drv_test_read_file(paths[2], NULL);
   CHECK_CU(cuLibraryLoadData(&lib, sass, NULL, NULL, 0, NULL, NULL, 0), CUDA_ERROR_NOT_SUPPORTED);
   CHECK_CU(cuLibraryLoadData(&lib, "not ptx at all", NULL, NULL, 0, NULL, NULL, 0), CUDA_ERROR_INVALID_PTX);
   CHECK_CU(cuLibraryLoadData(NULL, ptx, NULL, NULL, 0, NULL, NULL, 0), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuLibraryGetKernelCount(&count, NULL), CUDA_ERROR_INVALID_HANDLE);
   CHECK_CU(cuLibraryLoadFromFile(&lib, "/nonexistent/cuvk.ptx", NULL, NULL, 0, NULL, NULL, 0),
            CUDA_ERROR_FILE_NOT_FOUND);
   free(sass);
   free(fatbin);
   free(ptx);
   vadd_fini(&v);
   drv_test_teardown();
}

static void
case_launch_ex(void)
{
   drv_test_setup(&dev);
   struct vadd v;
   vadd_init(&v);
   char *ptx = drv_test_read_file(paths[0], NULL);
   CUmodule mod;
   CUfunction f;
   OK(cuModuleLoadData(&mod, ptx));
   OK(cuModuleGetFunction(&f, mod, "vector_add"));
   CUstream stream;
   OK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
   CUevent done;
   OK(cuEventCreate(&done, CU_EVENT_DISABLE_TIMING));

   CUlaunchAttribute attrs[6];
   memset(attrs, 0, sizeof(attrs));
   attrs[0].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
   attrs[0].value.priority = 0;
   attrs[1].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
   attrs[1].value.programmaticStreamSerializationAllowed = 1;
   attrs[2].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
   attrs[2].value.clusterDim.x = 1;
   attrs[2].value.clusterDim.y = 1;
   attrs[2].value.clusterDim.z = 1;
   attrs[3].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT;
   attrs[3].value.programmaticEvent.event = done;
   attrs[4].id = CU_LAUNCH_ATTRIBUTE_IGNORE;
   attrs[5].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
   attrs[5].value.cooperative = 0;
   CUlaunchConfig cfg;
   memset(&cfg, 0, sizeof(cfg));
   cfg.gridDimX = (N + 127) / 128;
   cfg.gridDimY = cfg.gridDimZ = 1;
   cfg.blockDimX = 128;
   cfg.blockDimY = cfg.blockDimZ = 1;
   cfg.hStream = stream;
   cfg.attrs = attrs;
   cfg.numAttrs = 6;
   OK(cuLaunchKernelEx(&cfg, f, v.params, NULL));
   /* The event follows the kernel: once it completes the sums are there. */
   OK(cuEventSynchronize(done));
   {
      float first = 0;
      OK(cuMemcpyDtoH(&first, v.c + (N - 1) * sizeof(float), sizeof(float)));
      CHECK(first == (float)(N - 1) * 0.5f + 1.0f);
   }
   vadd_check(&v, __LINE__);

   /* The extra form and the default stream. */
   struct {
      CUdeviceptr a, b, c;
      int n;
   } buf = {v.a, v.b, v.c, v.n};
   size_t size = sizeof(buf);
   void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
   cfg.hStream = NULL;
   cfg.numAttrs = 0;
   cfg.attrs = NULL;
   OK(cuLaunchKernelEx(&cfg, f, NULL, extra));
   vadd_check(&v, __LINE__);

   /* What cuvk cannot honour is refused, and nothing runs. */
   cfg.attrs = attrs;
   cfg.numAttrs = 1;
   attrs[0].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
   attrs[0].value.cooperative = 1;
   CHECK_CU(cuLaunchKernelEx(&cfg, f, v.params, NULL), CUDA_ERROR_NOT_SUPPORTED);
   attrs[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
   attrs[0].value.clusterDim.x = 2;
   attrs[0].value.clusterDim.y = 1;
   attrs[0].value.clusterDim.z = 1;
   CHECK_CU(cuLaunchKernelEx(&cfg, f, v.params, NULL), CUDA_ERROR_NOT_SUPPORTED);
   attrs[0].id = (CUlaunchAttributeID)99;
   CHECK_CU(cuLaunchKernelEx(&cfg, f, v.params, NULL), CUDA_ERROR_INVALID_VALUE);
   cfg.attrs = NULL;
   CHECK_CU(cuLaunchKernelEx(&cfg, f, v.params, NULL), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuLaunchKernelEx(NULL, f, v.params, NULL), CUDA_ERROR_INVALID_VALUE);
   cfg.numAttrs = 0;
   CHECK_CU(cuLaunchKernelEx(&cfg, NULL, v.params, NULL), CUDA_ERROR_INVALID_HANDLE);
   {
      float h[4] = {1, 1, 1, 1};
      OK(cuCtxSynchronize());
      OK(cuMemcpyDtoH(h, v.c, sizeof(h)));
      CHECK(h[0] == 0 && h[3] == 0);
   }

   /* A library's kernel through cuLaunchKernelEx. */
   CUlibrary lib;
   CUkernel k;
   OK(cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0));
   OK(cuLibraryGetKernel(&k, lib, "vector_add"));
   cfg.hStream = stream;
   OK(cuLaunchKernelEx(&cfg, (CUfunction)k, v.params, NULL));
   vadd_check(&v, __LINE__);
   OK(cuLibraryUnload(lib));

   OK(cuEventDestroy(done));
   OK(cuStreamDestroy(stream));
   OK(cuModuleUnload(mod));
   free(ptx);
   vadd_fini(&v);
   drv_test_teardown();
}

/* Two PTX modules, each incomplete alone: the kernel reads a global and
 * calls a function the other defines. */
static const char link_main_ptx[] =
   ".version 8.0\n"
   ".target sm_75\n"
   ".address_size 64\n"
   "\n"
   "// declared here, defined in link_lib_ptx\n"
   ".extern .global .align 4 .u32 link_scale;\n"
   ".extern .func (.param .b32 func_retval0) link_add(\n"
   "   .param .b32 link_add_param_0\n"
   ");\n"
   "\n"
   ".visible .entry link_main(\n"
   "   .param .u64 link_main_param_0\n"
   ")\n"
   "{\n"
   "   .reg .b32 %r<6>;\n"
   "   .reg .b64 %rd<6>;\n"
   "   ld.param.u64 %rd1, [link_main_param_0];\n"
   "   cvta.to.global.u64 %rd2, %rd1;\n"
   "   mov.u32 %r1, %tid.x;\n"
   "   ld.global.u32 %r2, [link_scale];\n"
   "   mul.lo.s32 %r3, %r1, %r2;\n"
   "   {\n"
   "   .param .b32 param0;\n"
   "   st.param.b32 [param0], %r3;\n"
   "   .param .b32 retval0;\n"
   "   call.uni (retval0), link_add, (param0);\n"
   "   ld.param.b32 %r4, [retval0];\n"
   "   }\n"
   "   mul.wide.u32 %rd3, %r1, 4;\n"
   "   add.s64 %rd4, %rd2, %rd3;\n"
   "   st.global.u32 [%rd4], %r4;\n"
   "   ret;\n"
   "}\n";

static const char link_lib_ptx[] =
   ".version 9.0\n"
   ".target sm_75\n"
   ".address_size 64\n"
   "\n"
   ".visible .global .align 4 .u32 link_scale = 3;\n"
   "\n"
   ".visible .func (.param .b32 func_retval0) link_add(\n"
   "   .param .b32 link_add_param_0\n"
   ")\n"
   "{\n"
   "   .reg .b32 %r<3>;\n"
   "   ld.param.b32 %r1, [link_add_param_0];\n"
   "   add.s32 %r2, %r1, 7;\n"
   "   st.param.b32 [func_retval0], %r2;\n"
   "   ret;\n"
   "}\n";

/* link_lib_ptx's symbols again, .weak, with another scale and addend:
 * the visible definitions win over them, the first input's weak ones
 * over a later input's (NVIDIA's linker, measured on an H100). */
#define LINK_WEAK_PTX(scale, add)                                                   \
   ".version 8.0\n.target sm_75\n.address_size 64\n"                             \
   ".weak .global .align 4 .u32 link_scale = " #scale ";\n"                        \
   ".weak .func (.param .b32 func_retval0) link_add(\n"                            \
   "   .param .b32 link_add_param_0\n)\n{\n"                                       \
   "   .reg .b32 %r<3>;\n"                                                          \
   "   ld.param.b32 %r1, [link_add_param_0];\n"                                     \
   "   add.s32 %r2, %r1, " #add ";\n"                                               \
   "   st.param.b32 [func_retval0], %r2;\n"                                         \
   "   ret;\n}\n"
static const char link_weak5_ptx[] = LINK_WEAK_PTX(5, 11);
static const char link_weak2_ptx[] = LINK_WEAK_PTX(2, 13);

/* Runs link_main of image: out[i] = i * scale + add. */
static void
link_run_with(const void *image, unsigned scale, unsigned add, int line)
{
   CUmodule mod;
   CUfunction f;
   CUdeviceptr out;
   unsigned h[64];
   OK(cuModuleLoadData(&mod, image));
   OK(cuModuleGetFunction(&f, mod, "link_main"));
   OK(cuMemAlloc(&out, sizeof(h)));
   void *params[] = {&out};
   OK(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, params, NULL));
   OK(cuMemcpyDtoH(h, out, sizeof(h)));
   int bad = 0;
   for (unsigned i = 0; i < 64; i++)
      bad += h[i] != i * scale + add;
   if (bad)
      fprintf(stderr, "line %d: link: %d of 64 wrong (h[1] = %u, want %u)\n", line, bad, h[1], scale + add);
   CHECK(bad == 0);
   size_t bytes = 0;
   CUdeviceptr g;
   OK(cuModuleGetGlobal(&g, &bytes, mod, "link_scale"));
   CHECK(bytes == 4);
   OK(cuMemFree(out));
   OK(cuModuleUnload(mod));
}

static void
link_run(const void *image)
{
   link_run_with(image, 3, 7, __LINE__);
}

/* Links main with two more inputs and runs the result. */
static void
link_three(const char *b, size_t b_size, const char *c, size_t c_size, unsigned scale, unsigned add, int line)
{
   CUlinkState state;
   void *cubin = NULL;
   size_t size = 0;
   OK(cuLinkCreate(0, NULL, NULL, &state));
   OK(cuLinkAddData(state, CU_JIT_INPUT_PTX, (void *)link_main_ptx, sizeof(link_main_ptx), "main", 0, NULL,
                    NULL));
   OK(cuLinkAddData(state, CU_JIT_INPUT_PTX, (void *)b, b_size, "b", 0, NULL, NULL));
   OK(cuLinkAddData(state, CU_JIT_INPUT_PTX, (void *)c, c_size, "c", 0, NULL, NULL));
   OK(cuLinkComplete(state, &cubin, &size));
   if (cubin)
      link_run_with(cubin, scale, add, line);
   OK(cuLinkDestroy(state));
}

static void
case_link(void)
{
   drv_test_setup(&dev);
   CUlinkState state;
   void *cubin = NULL;
   size_t size = 0;
   char log[256] = "stale";
   CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
   void *vals[] = {log, (void *)(size_t)sizeof(log)};

   OK(cuLinkCreate(2, opts, vals, &state));
   CHECK(log[0] == 0);
   OK(cuLinkAddData(state, CU_JIT_INPUT_PTX, (void *)link_main_ptx, sizeof(link_main_ptx), "main", 0, NULL,
                    NULL));
   OK(cuLinkAddData(state, CU_JIT_INPUT_PTX, (void *)link_lib_ptx, sizeof(link_lib_ptx), "lib", 0, NULL, NULL));
   OK(cuLinkComplete(state, &cubin, &size));
   CHECK(cubin && size > 0);
   link_run(cubin);
   /* The linked image loads as a library too. */
   CUlibrary lib;
   OK(cuLibraryLoadData(&lib, cubin, NULL, NULL, 0, NULL, NULL, 0));
   OK(cuLibraryUnload(lib));
   OK(cuLinkDestroy(state));

   /* One input, from a file, a fatbin holding PTX. */
   OK(cuLinkCreate(0, NULL, NULL, &state));
   OK(cuLinkAddFile(state, CU_JIT_INPUT_FATBINARY, paths[1], 0, NULL, NULL));
   OK(cuLinkComplete(state, &cubin, &size));
   CUmodule mod;
   CUfunction f;
   OK(cuModuleLoadData(&mod, cubin));
   OK(cuModuleGetFunction(&f, mod, "vector_add"));
   OK(cuModuleUnload(mod));
   OK(cuLinkDestroy(state));

   /* .weak definitions: a visible one wins wherever it comes, the first
    * of two weak ones wins. */
   link_three(link_weak5_ptx, sizeof(link_weak5_ptx), link_lib_ptx, sizeof(link_lib_ptx), 3, 7, __LINE__);
   link_three(link_lib_ptx, sizeof(link_lib_ptx), link_weak5_ptx, sizeof(link_weak5_ptx), 3, 7, __LINE__);
   link_three(link_weak5_ptx, sizeof(link_weak5_ptx), link_weak2_ptx, sizeof(link_weak2_ptx), 5, 11, __LINE__);
   link_three(link_weak2_ptx, sizeof(link_weak2_ptx), link_weak5_ptx, sizeof(link_weak5_ptx), 2, 13, __LINE__);

   /* What does not link fails clearly: a symbol defined twice (refused
    * as the second input is added, CUDA_ERROR_INVALID_SOURCE and nvlink's
    * words, as on an H100), an input type cuvk has no reader for, a
    * SASS-only fatbin, nothing at all. */
   OK(cuLinkCreate(2, opts, vals, &state));
   OK(cuLinkAddData(state, CU_JIT_INPUT_PTX, (void *)link_lib_ptx, sizeof(link_lib_ptx), "lib", 0, NULL, NULL));
   CHECK_CU(cuLinkAddData(state, CU_JIT_INPUT_PTX, (void *)link_lib_ptx, sizeof(link_lib_ptx), "again", 0, NULL,
                          NULL), CUDA_ERROR_INVALID_SOURCE);
   CHECK(strstr(log, "Multiple definition of 'link_scale' in 'again', first defined in 'lib'") != NULL);
   CHECK_CU(cuLinkComplete(state, &cubin, &size), CUDA_ERROR_INVALID_SOURCE);
   CHECK_CU(cuLinkAddData(state, CU_JIT_INPUT_OBJECT, (void *)link_lib_ptx, sizeof(link_lib_ptx), "obj", 0,
                          NULL, NULL), CUDA_ERROR_NOT_SUPPORTED);
   char *sass = drv_test_read_file(paths[2], &size);
   CHECK_CU(cuLinkAddData(state, CU_JIT_INPUT_FATBINARY, sass, size, "sass", 0, NULL, NULL),
            CUDA_ERROR_NOT_SUPPORTED);
   free(sass);
   OK(cuLinkDestroy(state));
   OK(cuLinkCreate(0, NULL, NULL, &state));
   CHECK_CU(cuLinkComplete(state, &cubin, &size), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(cuLinkAddFile(state, CU_JIT_INPUT_PTX, "/nonexistent/x.ptx", 0, NULL, NULL),
            CUDA_ERROR_FILE_NOT_FOUND);
   OK(cuLinkDestroy(state));
   CHECK_CU(cuLinkDestroy(state), CUDA_ERROR_INVALID_HANDLE);
   drv_test_teardown();
}

static double
now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One thread loads vector_add as a library and unloads it; others take
 * its kernel, the kernel's function and attributes, and launch it, on
 * whichever library it loaded last, live or already unloaded.  Each call
 * holds the library it found until it returns; what it launched before
 * the unload completes.  Every answer is success or a dead handle. */
struct library_race {
   const char *ptx;
   CUcontext ctx;
   CUlibrary _Atomic latest;
   atomic_bool stop;
   atomic_uint bad;
   struct vadd *v;
};

static void *
library_race_unloader(void *data)
{
   struct library_race *r = data;
   OK(cuCtxSetCurrent(r->ctx));
   double end = now_s() + 2.0;
   while (now_s() < end && !cuvk_test_failures()) {
      CUlibrary lib;
      OK(cuLibraryLoadData(&lib, r->ptx, NULL, NULL, 0, NULL, NULL, 0));
      atomic_store(&r->latest, lib);
      CUkernel k;
      OK(cuLibraryGetKernel(&k, lib, "vector_add"));
      OK(cuLaunchKernel((CUfunction)k, 1, 1, 1, 32, 1, 1, 0, NULL, r->v->params, NULL));
      OK(cuLibraryUnload(lib));
   }
   atomic_store(&r->stop, true);
   return NULL;
}

static bool
race_ok(CUresult r)
{
   return r == CUDA_SUCCESS || r == CUDA_ERROR_INVALID_HANDLE;
}

static void *
library_race_user(void *data)
{
   struct library_race *r = data;
   OK(cuCtxSetCurrent(r->ctx));
   while (!atomic_load(&r->stop)) {
      CUlibrary lib = atomic_load(&r->latest);
      if (!lib)
         continue;
      CUkernel k = NULL;
      CUfunction f = NULL;
      unsigned count = 0;
      int regs = 0;
      CUresult g = cuLibraryGetKernel(&k, lib, "vector_add"), c = cuLibraryGetKernelCount(&count, lib);
      CUresult fn = CUDA_SUCCESS, a = CUDA_SUCCESS, l = CUDA_SUCCESS;
      if (g == CUDA_SUCCESS) {
         fn = cuKernelGetFunction(&f, k);
         a = cuKernelGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, k, dev);
         l = cuLaunchKernel((CUfunction)k, 1, 1, 1, 32, 1, 1, 0, NULL, r->v->params, NULL);
      }
      if (!race_ok(g) || !race_ok(c) || !race_ok(fn) || !race_ok(a) || !race_ok(l)) {
         fprintf(stderr, "on a library being unloaded: kernel %d, count %d, function %d, attribute %d, "
                 "launch %d\n", (int)g, (int)c, (int)fn, (int)a, (int)l);
         atomic_fetch_add(&r->bad, 1);
         break;
      }
   }
   OK(cuCtxSynchronize());
   return NULL;
}

static void
case_library_unload_race(void)
{
   enum { USERS = 3 };
   drv_test_setup(&dev);
   struct vadd v;
   vadd_init(&v);
   struct library_race r = { .ptx = drv_test_read_file(paths[0], NULL), .v = &v };
   OK(cuCtxGetCurrent(&r.ctx));
   pthread_t threads[1 + USERS];
   CHECK(pthread_create(&threads[0], NULL, library_race_unloader, &r) == 0);
   for (int i = 1; i <= USERS; i++)
      CHECK(pthread_create(&threads[i], NULL, library_race_user, &r) == 0);
   for (int i = 0; i <= USERS; i++)
      pthread_join(threads[i], NULL);
   CHECK(atomic_load(&r.bad) == 0);
   OK(cuCtxSynchronize());
   vadd_fini(&v);
   free((char *)r.ptx);
   drv_test_teardown();
}

/* One thread creates link states, adds an input and destroys them;
 * others add inputs to and complete whichever it made last.  Each call
 * holds the state it found, and calls on one state are ordered. */
struct link_race {
   CUlinkState _Atomic latest;
   atomic_bool stop;
   atomic_uint bad;
};

static void *
link_race_destroyer(void *data)
{
   struct link_race *r = data;
   double end = now_s() + 2.0;
   while (now_s() < end && !cuvk_test_failures()) {
      CUlinkState state;
      OK(cuLinkCreate(0, NULL, NULL, &state));
      atomic_store(&r->latest, state);
      OK(cuLinkAddData(state, CU_JIT_INPUT_PTX, (void *)link_lib_ptx, sizeof(link_lib_ptx), "lib", 0, NULL,
                       NULL));
      OK(cuLinkDestroy(state));
   }
   atomic_store(&r->stop, true);
   return NULL;
}

static void *
link_race_user(void *data)
{
   struct link_race *r = data;
   while (!atomic_load(&r->stop)) {
      CUlinkState state = atomic_load(&r->latest);
      if (!state)
         continue;
      void *cubin;
      size_t size;
      CUresult a = cuLinkAddData(state, CU_JIT_INPUT_PTX, (void *)link_main_ptx, sizeof(link_main_ptx), "main",
                                 0, NULL, NULL);
      CUresult c = cuLinkComplete(state, &cubin, &size);
      /* Complete may find the destroyer's input alone, or it with this
       * thread's (linked), or several of this thread's: a second input
       * defining the same visible symbol is refused at add, and the state
       * answers CUDA_ERROR_INVALID_SOURCE from then on, as NVIDIA's
       * linker does (link.ptx). */
      if (!(race_ok(a) || a == CUDA_ERROR_INVALID_SOURCE) ||
          !(race_ok(c) || c == CUDA_ERROR_INVALID_PTX || c == CUDA_ERROR_INVALID_VALUE ||
            c == CUDA_ERROR_INVALID_SOURCE)) {
         fprintf(stderr, "on a link state being destroyed: add %d, complete %d\n", (int)a, (int)c);
         atomic_fetch_add(&r->bad, 1);
         break;
      }
   }
   return NULL;
}

static void
case_link_destroy_race(void)
{
   enum { USERS = 3 };
   drv_test_setup(&dev);
   struct link_race r = { 0 };
   pthread_t threads[1 + USERS];
   CHECK(pthread_create(&threads[0], NULL, link_race_destroyer, &r) == 0);
   for (int i = 1; i <= USERS; i++)
      CHECK(pthread_create(&threads[i], NULL, link_race_user, &r) == 0);
   for (int i = 0; i <= USERS; i++)
      pthread_join(threads[i], NULL);
   CHECK(atomic_load(&r.bad) == 0);
   drv_test_teardown();
}

/* The child: load vector_add, run it, check it (exit status 0 when right). */
static void
case_cache_child(void)
{
   drv_test_setup(&dev);
   struct vadd v;
   vadd_init(&v);
   char *ptx = drv_test_read_file(paths[0], NULL);
   CUmodule mod;
   CUfunction f;
   OK(cuModuleLoadData(&mod, ptx));
   OK(cuModuleGetFunction(&f, mod, "vector_add"));
   OK(cuLaunchKernel(f, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, v.params, NULL));
   vadd_check(&v, __LINE__);
   OK(cuModuleUnload(mod));
   vadd_fini(&v);
   free(ptx);
   drv_test_teardown();
}

static char self[4096];

/* Starts this program's cache.child with the cache in dir (or disabled),
 * its log in log_path. */
static pid_t
spawn_child(const char *dir, bool disable, const char *log_path)
{
   pid_t pid = fork();
   if (pid != 0)
      return pid;
   setenv("CUVK_CACHE_DIR", dir, 1);
   if (disable)
      setenv("CUVK_CACHE_DISABLE", "1", 1);
   else
      unsetenv("CUVK_CACHE_DISABLE");
   unsetenv("CUDA_CACHE_DISABLE");
   setenv("CUVK_LOG", "debug", 1);
   int fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
   if (fd < 0 || dup2(fd, 2) < 0)
      _exit(2);
   execl(self, self, "cache.child", paths[0], paths[1], paths[2], (char *)NULL);
   _exit(3);
}

static int
wait_child(pid_t pid)
{
   int status = 0;
   if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
      return -1;
   return WEXITSTATUS(status);
}

/* How often the log says the kernel was translated, and read from the
 * disk cache. */
static void
log_counts(const char *log_path, int *translated, int *read)
{
   size_t size;
   char *log = drv_test_read_file(log_path, &size);
   *translated = *read = 0;
   for (char *p = log; (p = strstr(p, "vector_add translated")); p++)
      (*translated)++;
   for (char *p = log; (p = strstr(p, "vector_add read from the disk cache")); p++)
      (*read)++;
   free(log);
}

/* The cache's entry files, their paths into list (if given). */
static int
cache_entries(const char *dir, char list[][600], int max)
{
   int n = 0;
   DIR *top = opendir(dir);
   struct dirent *d;
   while (top && (d = readdir(top))) {
      if (d->d_name[0] == '.')
         continue;
      char sub[600];
      snprintf(sub, sizeof(sub), "%s/%s", dir, d->d_name);
      DIR *in = opendir(sub);
      struct dirent *e;
      while (in && (e = readdir(in))) {
         if (e->d_name[0] == '.' || strstr(e->d_name, ".tmp."))
            continue;
         if (list && n < max)
            snprintf(list[n], 600, "%.280s/%.280s", sub, e->d_name);
         n++;
      }
      if (in)
         closedir(in);
   }
   if (top)
      closedir(top);
   return n;
}

static void
case_cache_disk(void)
{
   char root[] = "/tmp/cuvk-cache-test-XXXXXX";
   if (!mkdtemp(root)) {
      cuvk_test_report(__FILE__, __LINE__, "mkdtemp: %s", strerror(errno));
      return;
   }
   char dir[128], off[128], log[128];
   snprintf(dir, sizeof(dir), "%s/cache", root);
   snprintf(off, sizeof(off), "%s/off", root);
   snprintf(log, sizeof(log), "%s/log", root);
   int translated, read;

   /* A miss: translated, and the entry written. */
   CHECK(wait_child(spawn_child(dir, false, log)) == 0);
   log_counts(log, &translated, &read);
   CHECK(translated == 1 && read == 0);
   int entries = cache_entries(dir, NULL, 0);
   CHECK(entries >= 1);
   /* A hit: read back, nothing new written. */
   CHECK(wait_child(spawn_child(dir, false, log)) == 0);
   log_counts(log, &translated, &read);
   CHECK(translated == 0 && read == 1);
   CHECK(cache_entries(dir, NULL, 0) == entries);

   /* Every entry damaged (cut short, then flipped bytes): a miss that
    * still computes right, and the entries are written anew. */
   char list[16][600];
   int n = cache_entries(dir, list, 16);
   for (int i = 0; i < n && i < 16; i++) {
      struct stat st;
      CHECK(stat(list[i], &st) == 0);
      CHECK(truncate(list[i], st.st_size / 2) == 0);
   }
   CHECK(wait_child(spawn_child(dir, false, log)) == 0);
   log_counts(log, &translated, &read);
   CHECK(translated == 1 && read == 0);
   n = cache_entries(dir, list, 16);
   for (int i = 0; i < n && i < 16; i++) {
      FILE *f = fopen(list[i], "r+b");
      CHECK(f != NULL);
      if (!f)
         continue;
      fseek(f, -8, SEEK_END);
      fputs("garbage!", f);
      fclose(f);
   }
   CHECK(wait_child(spawn_child(dir, false, log)) == 0);
   log_counts(log, &translated, &read);
   CHECK(translated == 1 && read == 0);
   CHECK(wait_child(spawn_child(dir, false, log)) == 0);
   log_counts(log, &translated, &read);
   CHECK(translated == 0 && read == 1);

   /* Disabled: translated, nothing written. */
   CHECK(wait_child(spawn_child(off, true, log)) == 0);
   log_counts(log, &translated, &read);
   CHECK(translated == 1 && read == 0);
   CHECK(cache_entries(off, NULL, 0) == 0);

   /* Processes at once on an empty cache: all right, the entries whole. */
   char shared[128], logs[6][128];
   snprintf(shared, sizeof(shared), "%s/shared", root);
   pid_t pids[6];
   for (int i = 0; i < 6; i++) {
      snprintf(logs[i], sizeof(logs[i]), "%s/log%d", root, i);
      pids[i] = spawn_child(shared, false, logs[i]);
   }
   for (int i = 0; i < 6; i++)
      CHECK(wait_child(pids[i]) == 0);
   CHECK(cache_entries(shared, NULL, 0) >= 1);
   CHECK(wait_child(spawn_child(shared, false, log)) == 0);
   log_counts(log, &translated, &read);
   CHECK(translated == 0 && read == 1);

   char cmd[200];
   snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
   if (system(cmd) != 0)
      fprintf(stderr, "could not remove %s\n", root);
}

static const struct {
   const char *name;
   void (*fn)(void);
} cases[] = {
   {"library.kernels", case_library},
   {"launch_ex.attributes", case_launch_ex},
   {"link.ptx", case_link},
   {"library.unload_race", case_library_unload_race},
   {"link.destroy_race", case_link_destroy_race},
   {"cache.disk", case_cache_disk},
   {"cache.child", case_cache_child},
};

int
main(int argc, char **argv)
{
   if (argc == 3 && strcmp(argv[1], "--skip") == 0)
      cuvk_test_skip("%s", argv[2]);
   if (argc != 5) {
      fprintf(stderr, "usage: %s CASE VECTOR_ADD.ptx DEFAULT.fatbin SASS.fatbin\n", argv[0]);
      return 1;
   }
   for (int i = 0; i < 3; i++)
      paths[i] = argv[2 + i];
   ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
   if (len > 0)
      self[len] = '\0';
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      if (strcmp(cases[i].name, argv[1]) == 0) {
         cases[i].fn();
         return drv_test_exit(argv[1]);
      }
   }
   fprintf(stderr, "no case %s\n", argv[1]);
   return 1;
}
