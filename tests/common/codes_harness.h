/*
 * codes_harness: the part the error-code probes share
 * (tests/texture/codes_probe.c, tests/api/mempool_codes_probe.c,
 * tests/graph/graph_codes_probe.c).
 *
 * A probe is a program built against NVIDIA's cuda.h and
 * cuda_runtime_api.h and linked to nothing CUDA: the harness dlopens the
 * libcuda.so.1 and libcudart.so.13 the dynamic loader finds first
 * (LD_LIBRARY_PATH), so the same binary asks cuvk here and NVIDIA's
 * libraries on a GPU machine, and prints which answered.  Each case makes
 * one call with bad (or, for controls, good) input and the harness prints
 *
 *    case-name code CODE_NAME
 *
 * which tests/common/check_codes.py compares with a table of the codes
 * cuvk documents; a line of the output on real CUDA replaces a table line
 * as it is.  Lines starting with '#' are information.  Cases whose name
 * ends in ".ok" are controls (valid calls that must give 0 everywhere);
 * the exit status is 1 when one did not, 2 when the probe could not run.
 *
 * Cases that could crash a library checking less than cuvk (destroyed or
 * made-up handles, NULL outputs) are marked forked: each runs in a child
 * forked before the parent loads CUDA at all, so a crash costs that case
 * only and prints code -1000 - signal (KILLED_BY_SIGNAL; -1014, SIGALRM,
 * for a child that took more than a minute).  --fork runs
 * every case so; NAME arguments run only the cases whose names start
 * with one of them.
 *
 * codes_harness.c is compiled into each probe (it must see NVIDIA's
 * headers, as the probe does), beside a table and three hooks:
 *
 *    static const struct codes_case cases[] = { DRV("x.ok", x_ok), ... };
 *    static const struct codes_probe probe = {
 *       "mempool_codes_probe", cases, CODES_COUNT(cases), look_up, print_info, release,
 *    };
 *    int main(int argc, char **argv) { return codes_probe_main(&probe, argc, argv); }
 */
#ifndef CUVK_TESTS_CODES_HARNESS_H
#define CUVK_TESTS_CODES_HARNESS_H

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>

#if !defined(CU_TRSF_SEAMLESS_CUBEMAP) || !defined(CUDA_VERSION)
#error "the codes probes are compiled against NVIDIA's cuda.h"
#endif

/* The names NVIDIA's headers map the calls to (cuMemAlloc is
 * cuMemAlloc_v2), so a symbol's string is taken after macro expansion. */
#define CODES_STR_(x) #x
#define CODES_STR(x) CODES_STR_(x)

/* Appends value to a probe's array of objects a case holds (released
 * when the case ends), count its length so far; a case that holds more
 * than the array has room for is a setup failure. */
#define CODES_HOLD(array, count, value)                                        \
   do {                                                                        \
      if ((count) == sizeof(array) / sizeof((array)[0]))                      \
         codes_setup_fail("more objects held than " CODES_STR(array) " has room for"); \
      (array)[(count)++] = (value);                                            \
   } while (0)

/* The calls the harness makes itself; probes CALL them too. */
#define CODES_DRIVER_CALLS(X)                                                  \
   X(cuInit)                                                                   \
   X(cuDriverGetVersion)                                                       \
   X(cuGetErrorName)                                                           \
   X(cuDeviceGet)                                                              \
   X(cuDeviceGetName)                                                          \
   X(cuDeviceGetAttribute)                                                     \
   X(cuDevicePrimaryCtxRetain)                                                 \
   X(cuDevicePrimaryCtxRelease)                                                \
   X(cuCtxSetCurrent)                                                          \
   X(cuCtxSynchronize)

#define CODES_RUNTIME_CALLS(X)                                                 \
   X(cudaRuntimeGetVersion)                                                    \
   X(cudaGetErrorName)                                                         \
   X(cudaGetLastError)                                                         \
   X(cudaSetDevice)                                                            \
   X(cudaFree)

/* p_fn: the looked-up entry point of fn, called as CALL(fn)(...). */
#define CODES_EXTERN_POINTER(fn) extern __typeof__(&fn) p_##fn;
CODES_DRIVER_CALLS(CODES_EXTERN_POINTER)
CODES_RUNTIME_CALLS(CODES_EXTERN_POINTER)
#define CALL(fn) p_##fn

/* A probe's own entry points: CODES_STATIC_POINTER over its lists at
 * file scope, CODES_LOOK_UP_DRIVER / _RUNTIME over them in its look_up
 * hook (which runs after both libraries are open). */
#define CODES_STATIC_POINTER(fn) static __typeof__(&fn) p_##fn;
#define CODES_LOOK_UP_DRIVER(fn)                                               \
   p_##fn = (__typeof__(p_##fn))codes_find_symbol(codes_cuda, "libcuda.so.1", CODES_STR(fn));
#define CODES_LOOK_UP_RUNTIME(fn)                                              \
   p_##fn = (__typeof__(p_##fn))codes_find_symbol(codes_cudart, "libcudart.so.13", CODES_STR(fn));

extern void *codes_cuda;   /* libcuda.so.1 */
extern void *codes_cudart; /* libcudart.so.13 */

/* The symbol, or the probe exits with 2 naming it. */
void *codes_find_symbol(void *lib, const char *library, const char *name);

/* Device 0 and its primary context, current on the probe's thread while
 * the cases run. */
extern CUdevice codes_device;
extern CUcontext codes_primary;

/* The case running, for '#' lines. */
extern const char *codes_running;

/* A set-up call that must succeed: when it does not, the case cannot
 * make its call, prints code -1 SETUP_FAILED and the reason as a '#'
 * line instead (a longjmp out of the case, after which the release hook
 * frees what the case held). */
void codes_need(int code, const char *what);
#define NEED(call) codes_need((int)(call), #call)

/* Leaves the case as a failed set-up, with a '#' line saying why. */
void codes_setup_fail(const char *why);

struct codes_case {
   const char *name;
   int (*run)(void); /* makes the one call, returns its code */
   bool runtime;     /* the code is a cudaError_t, not a CUresult */
   bool forked;      /* might crash a library that checks less than cuvk */
};

#define DRV(name, fn) { name, fn, false, false }
#define RT(name, fn) { name, fn, true, false }
#define DRV_FORKED(name, fn) { name, fn, false, true }
#define RT_FORKED(name, fn) { name, fn, true, true }

#define CODES_COUNT(array) (sizeof(array) / sizeof((array)[0]))

struct codes_probe {
   const char *program; /* for messages */
   const struct codes_case *cases;
   size_t count;
   void (*look_up)(void);    /* the probe's own entry points */
   void (*print_info)(void); /* '#' lines once, after the device's; or NULL */
   void (*release)(void);    /* frees what a case held, after every case */
};

/* Runs the selected cases as the command line asks; the exit status. */
int codes_probe_main(const struct codes_probe *probe, int argc, char **argv);

#endif
