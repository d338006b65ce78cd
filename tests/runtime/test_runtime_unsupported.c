/*
 * The runtime names NVIDIA's libcudart.so.13 exports that cuvk does not
 * implement (src/runtime/unsupported.c, registration.c).
 *
 *   runtime.unsupported.every_entry: each generated entry point returns
 *      cudaErrorNotSupported, leaves it as the thread's last error and
 *      logs exactly one line, which names the call.
 *   runtime.registration.calls: the calls nvcc's host code makes
 *      (crt/host_runtime.h) by hand, in its order: registration is quiet
 *      and reads nothing, <<<...>>>'s configuration goes through the
 *      push/pop pair, a fatbinary with no container fails at its first
 *      launch (not before) without crashing, and once unregistered its
 *      kernel and variable are unknown.
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

/* Ends a capture; checks that cuvk logged nothing. */
static void
capture_expect_silence(const char *what)
{
   char line[1024];
   unsigned lines = 0;

   fflush(stderr);
   dup2(capture_saved, 2);
   close(capture_saved);
   rewind(capture_file);
   while (fgets(line, sizeof(line), capture_file)) {
      fputs(line, stderr);
      lines += strncmp(line, "cuvk: ", 6) == 0;
   }
   fclose(capture_file);
   RT_CHECK_MSG(lines == 0, "%s: %u log lines, want none", what, lines);
}

/* NVIDIA's prototypes (crt/host_runtime.h, crt/device_functions.h). */
typedef void **(*register_fatbin_fn)(void *);
typedef void (*handle_fn)(void **);
typedef void (*register_function_fn)(void **, const char *, char *, const char *, int, void *,
                                     void *, void *, void *, int *);
typedef void (*register_var_fn)(void **, char *, char *, const char *, int, size_t, int, int);
typedef unsigned (*push_fn)(dim3, dim3, size_t, void *);
typedef cudaError_t (*pop_fn)(dim3 *, dim3 *, size_t *, void **);

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
registration_calls(void)
{
   /* A fatbinary wrapper (magic, version 1) whose container pointer is
    * NULL, and a kernel's host stub and a variable's shadow: registration
    * reads none of them. */
   static const uint64_t fatbin_wrapper[3] = { 0x00000001466243b1ull, 0, 0 };
   static const unsigned not_a_wrapper[6] = { 0x12345678u, 1 };
   static char kernel_stub, device_var, unknown;
   int count = 0;
   size_t size = 0;

   RT_REQUIRE_OK(cudaGetDeviceCount(&count));

   /* In nvcc's order; quiet, and no error for the program's first check. */
   capture_begin();
   void **handle = ((register_fatbin_fn)entry("__cudaRegisterFatBinary"))((void *)fatbin_wrapper);
   ((register_function_fn)entry("__cudaRegisterFunction"))(handle, &kernel_stub, "_Z6kernelPf",
                                                           "_Z6kernelPf", -1, NULL, NULL, NULL,
                                                           NULL, NULL);
   ((register_var_fn)entry("__cudaRegisterVar"))(handle, &device_var, "table", "table", 0, 4, 1, 0);
   ((handle_fn)entry("__cudaRegisterFatBinaryEnd"))(handle);
   capture_expect_silence("registration");
   RT_CHECK(handle != NULL);
   RT_CHECK_OK(cudaGetLastError());

   /* Something that is not nvcc's wrapper is refused, with one line. */
   capture_begin();
   void **refused = ((register_fatbin_fn)entry("__cudaRegisterFatBinary"))((void *)not_a_wrapper);
   capture_expect_one_line("__cudaRegisterFatBinary");
   RT_CHECK(refused == NULL);

   /* kernel<<<dim3(4, 2), 64, 128, stream>>>: pushed, then popped by the
    * stub as it was pushed; a second pop has nothing to give. */
   dim3 grid = { 4, 2, 1 }, block = { 64, 1, 1 }, g2 = { 0, 0, 0 }, b2 = { 0, 0, 0 };
   size_t shmem = 0;
   void *stream = NULL;
   RT_CHECK(((push_fn)entry("__cudaPushCallConfiguration"))(grid, block, 128, (void *)0x1234) == 0);
   RT_CHECK_OK(((pop_fn)entry("__cudaPopCallConfiguration"))(&g2, &b2, &shmem, &stream));
   RT_CHECK(g2.x == 4 && g2.y == 2 && g2.z == 1 && b2.x == 64 && b2.y == 1 && b2.z == 1);
   RT_CHECK(shmem == 128 && stream == (void *)0x1234);
   RT_CHECK_ERR(cudaErrorMissingConfiguration,
                ((pop_fn)entry("__cudaPopCallConfiguration"))(&g2, &b2, &shmem, &stream));
   RT_CHECK_ERR(cudaErrorMissingConfiguration, cudaGetLastError());

   /* The first launch is where the fatbinary is read: this one has no
    * container, which fails cleanly, as the variable's lookup does. */
   cudaError_t err = cudaLaunchKernel(&kernel_stub, grid, block, NULL, 0, NULL);
   RT_CHECK_MSG(err != cudaSuccess && err != cudaErrorInvalidResourceHandle, "launch: %d", (int)err);
   RT_CHECK_ERR(err, cudaGetLastError());
   err = cudaGetSymbolSize(&size, &device_var);
   RT_CHECK_MSG(err != cudaSuccess && err != cudaErrorInvalidSymbol, "symbol: %d", (int)err);
   (void)cudaGetLastError();

   /* What nobody registered. */
   RT_CHECK_ERR(cudaErrorInvalidResourceHandle, cudaLaunchKernel(&unknown, grid, block, NULL, 0, NULL));
   RT_CHECK_ERR(cudaErrorInvalidSymbol, cudaGetSymbolSize(&size, &unknown));
   RT_CHECK_ERR(cudaErrorInvalidSymbol, cudaGetLastError());

   /* And the program still runs: memory works after all this. */
   void *dev = NULL;
   RT_CHECK_OK(cudaMalloc(&dev, 4096));
   RT_CHECK_OK(cudaFree(dev));

   /* atexit(__cudaUnregisterBinaryUtil): the kernel and variable are
    * forgotten. */
   capture_begin();
   ((handle_fn)entry("__cudaUnregisterFatBinary"))(handle);
   capture_expect_silence("__cudaUnregisterFatBinary");
   RT_CHECK_OK(cudaGetLastError());
   RT_CHECK_ERR(cudaErrorInvalidResourceHandle, cudaLaunchKernel(&kernel_stub, grid, block, NULL, 0, NULL));
   RT_CHECK_ERR(cudaErrorInvalidSymbol, cudaGetSymbolSize(&size, &device_var));
   (void)cudaGetLastError();
}

static const struct rt_case cases[] = {
   RT_CASE("runtime.unsupported.every_entry", unsupported_every_entry),
   RT_CASE("runtime.registration.calls", registration_calls),
};

RT_MAIN(cases)
