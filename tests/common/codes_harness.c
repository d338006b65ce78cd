/*
 * codes_harness: loading the libraries, running each case in this
 * process or a forked child, printing its line, and the command line
 * (codes_harness.h says what a probe is).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "codes_harness.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CODES_DEFINE_POINTER(fn) __typeof__(&fn) p_##fn;
CODES_DRIVER_CALLS(CODES_DEFINE_POINTER)
CODES_RUNTIME_CALLS(CODES_DEFINE_POINTER)
#undef CODES_DEFINE_POINTER

void *codes_cuda;
void *codes_cudart;
CUdevice codes_device;
CUcontext codes_primary;
const char *codes_running;

static const struct codes_probe *probe;
static jmp_buf setup_failed;

/* What a case gave when it could not make its call, or its process died. */
#define CODES_SETUP_FAILED (-1)
#define CODES_SIGNAL_BASE (-1000)

/* How long a forked case may take, its library's start-up included. */
#define CODES_CHILD_SECONDS 60

/* The libraries and the device are named once, by the first process that
 * loads them: a forked child when the first case is forked, else this
 * one.  The parent knows a child printed them since the child's output
 * precedes what the parent prints next. */
static bool info_printed;

static void *
open_library(const char *name)
{
   void *lib = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
   if (!lib) {
      fprintf(stderr, "%s: dlopen(%s): %s\n", probe->program, name, dlerror());
      exit(2);
   }
   return lib;
}

void *
codes_find_symbol(void *lib, const char *library, const char *name)
{
   void *sym = dlsym(lib, name);
   if (!sym) {
      fprintf(stderr, "%s: %s has no %s\n", probe->program, library, name);
      exit(2);
   }
   return sym;
}

static void
print_origin(const char *library, void *sym)
{
   Dl_info info;
   if (!info_printed && dladdr(sym, &info) && info.dli_fname)
      printf("# %s: %s\n", library, info.dli_fname);
}

static void
load_libraries(void)
{
   codes_cuda = open_library("libcuda.so.1");
   codes_cudart = open_library("libcudart.so.13");
   CODES_DRIVER_CALLS(CODES_LOOK_UP_DRIVER)
   CODES_RUNTIME_CALLS(CODES_LOOK_UP_RUNTIME)
   probe->look_up();
   print_origin("libcuda.so.1", (void *)p_cuInit);
   print_origin("libcudart.so.13", (void *)p_cudaRuntimeGetVersion);
}

void
codes_setup_fail(const char *why)
{
   printf("# %s: %s\n", codes_running, why);
   longjmp(setup_failed, 1);
}

void
codes_need(int code, const char *what)
{
   if (code != 0) {
      printf("# %s: set-up %s gave %d\n", codes_running, what, code);
      longjmp(setup_failed, 1);
   }
}

/* Loads the libraries, makes device 0's primary context current and
 * starts the runtime on it; the first process to do so prints the
 * libraries, the device and the probe's information. */
static void
init_cuda(void)
{
   load_libraries();
   int driver = 0, runtime = 0;
   char name[256] = "";
   if (CALL(cuInit)(0) != CUDA_SUCCESS || CALL(cuDeviceGet)(&codes_device, 0) != CUDA_SUCCESS ||
       CALL(cuDevicePrimaryCtxRetain)(&codes_primary, codes_device) != CUDA_SUCCESS ||
       CALL(cuCtxSetCurrent)(codes_primary) != CUDA_SUCCESS || CALL(cudaSetDevice)(0) != cudaSuccess ||
       CALL(cudaFree)(NULL) != cudaSuccess) {
      fprintf(stderr, "%s: no device 0 to probe\n", probe->program);
      exit(2);
   }
   if (info_printed)
      return;
   CALL(cuDriverGetVersion)(&driver);
   CALL(cudaRuntimeGetVersion)(&runtime);
   CALL(cuDeviceGetName)(name, sizeof(name), codes_device);
   printf("# device 0: %s, driver API %d, runtime %d\n", name, driver, runtime);
   if (probe->print_info) {
      codes_running = "information";
      if (!setjmp(setup_failed))
         probe->print_info();
   }
   info_printed = true;
}

static void
finish_cuda(void)
{
   CALL(cuDevicePrimaryCtxRelease)(codes_device);
}

static const char *
code_name(const struct codes_case *c, int code)
{
   const char *name = NULL;
   if (code == CODES_SETUP_FAILED)
      return "SETUP_FAILED";
   if (code <= CODES_SIGNAL_BASE)
      return "KILLED_BY_SIGNAL";
   if (c->runtime)
      name = CALL(cudaGetErrorName)((cudaError_t)code);
   else if (CALL(cuGetErrorName)((CUresult)code, &name) != CUDA_SUCCESS)
      name = NULL;
   return name ? name : "UNKNOWN";
}

/* Runs one case in this process and prints its line. */
static int
run_case(const struct codes_case *c)
{
   volatile int code = CODES_SETUP_FAILED; /* set between setjmp and longjmp */
   codes_running = c->name;
   if (!setjmp(setup_failed))
      code = c->run();
   printf("%s %d %s\n", c->name, code, code_name(c, code));
   fflush(stdout);
   /* The release hook may fail a set-up too; what it left is lost. */
   if (!setjmp(setup_failed))
      probe->release();
   /* Nothing a case does may leave an error behind for the next. */
   CUresult sync = CALL(cuCtxSynchronize)();
   if (sync != CUDA_SUCCESS)
      printf("# after %s: cuCtxSynchronize gave %d\n", c->name, (int)sync);
   CALL(cudaGetLastError)();
   return code;
}

/* Runs one case in a child that loads CUDA for itself; the parent has
 * not, so the fork is safe. */
static int
run_forked(const struct codes_case *c)
{
   fflush(stdout);
   pid_t pid = fork();
   if (pid < 0) {
      perror("fork");
      exit(2);
   }
   if (pid == 0) {
      /* A library that hangs on the case costs it too: SIGALRM, printed
       * as a signal like a crash. */
      alarm(CODES_CHILD_SECONDS);
      init_cuda();
      int code = run_case(c);
      finish_cuda();
      fflush(stdout);
      _exit(code == 0 ? 0 : 1);
   }
   info_printed = true;
   int status = 0;
   while (waitpid(pid, &status, 0) < 0)
      ;
   if (WIFSIGNALED(status)) {
      int code = CODES_SIGNAL_BASE - WTERMSIG(status);
      printf("%s %d %s\n", c->name, code, code_name(c, code));
      return code;
   }
   if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) {
      printf("%s %d SETUP_FAILED\n", c->name, CODES_SETUP_FAILED);
      return CODES_SETUP_FAILED;
   }
   return WEXITSTATUS(status) == 0 ? 0 : 1;
}

static bool
is_control(const char *name)
{
   size_t n = strlen(name);
   return n >= 3 && !strcmp(name + n - 3, ".ok");
}

static bool
selected(const char *name, int argc, char **argv, int first)
{
   if (first >= argc)
      return true;
   for (int i = first; i < argc; i++)
      if (!strncmp(name, argv[i], strlen(argv[i])))
         return true;
   return false;
}

int
codes_probe_main(const struct codes_probe *p, int argc, char **argv)
{
   bool fork_all = false;
   int first = 1;
   probe = p;
   if (argc > 1 && !strcmp(argv[1], "--fork")) {
      fork_all = true;
      first = 2;
   }
   if (argc > first && (!strcmp(argv[first], "--help") || !strcmp(argv[first], "-h"))) {
      printf("usage: %s [--fork] [CASE-PREFIX...]\n", argv[0]);
      return 0;
   }
   setvbuf(stdout, NULL, _IOLBF, 0);

   int *codes = calloc(probe->count, sizeof(int));
   if (!codes)
      return 2;

   /* Forked cases first, while this process has not loaded CUDA. */
   for (size_t i = 0; i < probe->count; i++)
      if ((fork_all || probe->cases[i].forked) && selected(probe->cases[i].name, argc, argv, first))
         codes[i] = run_forked(&probe->cases[i]);

   bool in_process = false;
   for (size_t i = 0; i < probe->count; i++)
      in_process |= !fork_all && !probe->cases[i].forked && selected(probe->cases[i].name, argc, argv, first);
   if (in_process) {
      init_cuda();
      for (size_t i = 0; i < probe->count; i++)
         if (!fork_all && !probe->cases[i].forked && selected(probe->cases[i].name, argc, argv, first))
            codes[i] = run_case(&probe->cases[i]);
      finish_cuda();
   }

   int ran = 0, controls = 0, failed_controls = 0;
   for (size_t i = 0; i < probe->count; i++) {
      if (!selected(probe->cases[i].name, argc, argv, first))
         continue;
      ran++;
      if (is_control(probe->cases[i].name)) {
         controls++;
         if (codes[i] != 0) {
            failed_controls++;
            printf("# control %s gave %d: the probe is broken here\n", probe->cases[i].name, codes[i]);
         }
      }
   }
   printf("# %d cases, %d controls, %d controls failed\n", ran, controls, failed_controls);
   free(codes);
   return failed_controls ? 1 : 0;
}
