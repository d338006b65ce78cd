/*
 * The runtime names NVIDIA's libcudart.so.13 exports that cuvk does not
 * implement (src/runtime/unsupported.c, registration.c).
 *
 *   runtime.unsupported.every_entry: each generated entry point returns
 *      cudaErrorNotSupported, leaves it as the thread's last error and
 *      logs exactly one line, which names the call.
 *   runtime.unsupported.nvcc_startup: the calls nvcc's host code makes
 *      before main() (crt/host_runtime.h), in its order, let the program
 *      start (a non-NULL handle, one log line each, no last error), and
 *      the launch that follows fails cleanly: <<<...>>> is
 *      __cudaPushCallConfiguration, which returns nonzero so the kernel
 *      stub is skipped, and cudaGetLastError() says cudaErrorNotSupported.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dlvsym, dladdr, RTLD_DEFAULT */
#endif
#include "rt_test.h"

#include <dlfcn.h>

/* The generated list, as prototypes and a table.  cuvk's headers declare
 * none of these names; unsupported.c defines each without parameters. */
#define CUVK_RT_UNSUPPORTED(name) extern cudaError_t name(void);
#include "unsupported_list.h"
#undef CUVK_RT_UNSUPPORTED

static const struct {
   const char *name;
   cudaError_t (*fn)(void);
} unsupported[] = {
#define CUVK_RT_UNSUPPORTED(name) { #name, name },
#include "unsupported_list.h"
#undef CUVK_RT_UNSUPPORTED
};

/* cuvk logs to stderr: while capturing, fd 2 is a temporary file. */
static FILE *capture_file;
static int capture_saved = -1;

static void
capture_begin(void)
{
   fflush(stderr);
   capture_file = tmpfile();
   RT_REQUIRE(capture_file);
   capture_saved = dup(2);
   RT_REQUIRE(capture_saved >= 0);
   RT_REQUIRE(dup2(fileno(capture_file), 2) == 2);
}

/* Ends a capture; checks that cuvk logged exactly one line and that it
 * names the call, and copies what was caught to the real stderr. */
static void
capture_expect_one_line(const char *name)
{
   char line[1024];
   unsigned lines = 0, naming = 0;

   fflush(stderr);
   dup2(capture_saved, 2);
   close(capture_saved);
   rewind(capture_file);
   while (fgets(line, sizeof(line), capture_file)) {
      fputs(line, stderr);
      if (strncmp(line, "cuvk: ", 6) != 0)
         continue;
      lines++;
      /* The name followed by something that cannot continue it. */
      const char *at = strstr(line, name);
      if (at && (at[strlen(name)] == ':' || at[strlen(name)] == '('))
         naming++;
   }
   fclose(capture_file);
   RT_CHECK_MSG(lines == 1 && naming == 1, "%s: %u log lines, %u naming the call (want 1)", name,
                lines, naming);
}

static void
unsupported_every_entry(void)
{
   /* Initialised first, so that the log holds the calls' lines only. */
   int count = 0;
   RT_REQUIRE_OK(cudaGetDeviceCount(&count));
   RT_CHECK(RT_ARRAY_SIZE(unsupported) > 100);
   for (size_t i = 0; i < RT_ARRAY_SIZE(unsupported); i++) {
      capture_begin();
      cudaError_t err = unsupported[i].fn();
      capture_expect_one_line(unsupported[i].name);
      RT_CHECK_MSG(err == cudaErrorNotSupported, "%s returned %d", unsupported[i].name, (int)err);
      RT_CHECK_MSG(cudaGetLastError() == cudaErrorNotSupported, "%s left no last error",
                   unsupported[i].name);
   }
   printf("%zu unsupported entry points checked\n", RT_ARRAY_SIZE(unsupported));
}

/* NVIDIA's prototypes (crt/host_runtime.h, crt/device_functions.h). */
struct t_dim3 {
   unsigned x, y, z;
};
typedef void **(*register_fatbin_fn)(void *);
typedef void (*handle_fn)(void **);
typedef void (*register_function_fn)(void **, const char *, char *, const char *, int, void *,
                                     void *, void *, void *, int *);
typedef void (*register_var_fn)(void **, char *, char *, const char *, int, size_t, int, int);
typedef unsigned (*push_fn)(struct t_dim3, struct t_dim3, size_t, void *);
typedef cudaError_t (*pop_fn)(struct t_dim3 *, struct t_dim3 *, size_t *, void **);
typedef cudaError_t (*launch_fn)(const void *, struct t_dim3, struct t_dim3, void **, size_t,
                                 cudaStream_t);

static void *
entry(const char *name)
{
   void *p = dlsym(RTLD_DEFAULT, name);
   RT_CHECK_MSG(p, "%s is not exported", name);
   if (!p)
      rt_abort_case();
   return p;
}

static void
unsupported_nvcc_startup(void)
{
   /* What a fatbinary wrapper and a kernel's host stub would be; cuvk
    * reads neither. */
   static const unsigned fatbin_wrapper[6] = { 0x466243b1, 1 };
   static char kernel_stub, device_var;
   int count = 0;

   RT_REQUIRE_OK(cudaGetDeviceCount(&count));

   capture_begin();
   void **handle = ((register_fatbin_fn)entry("__cudaRegisterFatBinary"))((void *)fatbin_wrapper);
   capture_expect_one_line("__cudaRegisterFatBinary");
   RT_CHECK(handle != NULL);

   capture_begin();
   ((register_function_fn)entry("__cudaRegisterFunction"))(handle, &kernel_stub, &kernel_stub,
                                                           "_Z6kernelPf", -1, NULL, NULL, NULL,
                                                           NULL, NULL);
   capture_expect_one_line("__cudaRegisterFunction");

   capture_begin();
   ((register_var_fn)entry("__cudaRegisterVar"))(handle, &device_var, "table", "table", 0, 4, 1, 0);
   capture_expect_one_line("__cudaRegisterVar");

   capture_begin();
   ((handle_fn)entry("__cudaRegisterFatBinaryEnd"))(handle);
   capture_expect_one_line("__cudaRegisterFatBinaryEnd");

   /* Start-up leaves no error behind for the program's first check. */
   RT_CHECK_OK(cudaGetLastError());

   /* kernel<<<4, 64>>>(...) */
   struct t_dim3 grid = { 4, 1, 1 }, block = { 64, 1, 1 };
   capture_begin();
   unsigned pushed = ((push_fn)entry("__cudaPushCallConfiguration"))(grid, block, 0, NULL);
   capture_expect_one_line("__cudaPushCallConfiguration");
   RT_CHECK_MSG(pushed != 0, "__cudaPushCallConfiguration returned 0: the stub would launch");
   RT_CHECK_ERR(cudaErrorNotSupported, cudaGetLastError());

   /* A stub reached some other way pops, then launches: both fail. */
   size_t shmem = 0;
   void *stream = NULL;
   capture_begin();
   cudaError_t err = ((pop_fn)entry("__cudaPopCallConfiguration"))(&grid, &block, &shmem, &stream);
   capture_expect_one_line("__cudaPopCallConfiguration");
   RT_CHECK_ERR(cudaErrorNotSupported, err);
   capture_begin();
   err = ((launch_fn)entry("cudaLaunchKernel"))(&kernel_stub, grid, block, NULL, 0, NULL);
   capture_expect_one_line("cudaLaunchKernel");
   RT_CHECK_ERR(cudaErrorNotSupported, err);
   RT_CHECK_ERR(cudaErrorNotSupported, cudaGetLastError());

   /* And the program still runs: memory works after all this. */
   void *dev = NULL;
   RT_CHECK_OK(cudaMalloc(&dev, 4096));
   RT_CHECK_OK(cudaFree(dev));

   /* atexit(__cudaUnregisterBinaryUtil) */
   capture_begin();
   ((handle_fn)entry("__cudaUnregisterFatBinary"))(handle);
   capture_expect_one_line("__cudaUnregisterFatBinary");
   RT_CHECK_OK(cudaGetLastError());
}

static const struct rt_case cases[] = {
   RT_CASE("runtime.unsupported.every_entry", unsupported_every_entry),
   RT_CASE("runtime.unsupported.nvcc_startup", unsupported_nvcc_startup),
};

RT_MAIN(cases)
