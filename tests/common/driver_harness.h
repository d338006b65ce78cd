/*
 * What the driver-API test programs share (tests/module/test_module.c and
 * test_library.c, tests/printf/test_printf.c, tests/curand/test_curand.c,
 * tests/texture/test_texture_kernels.c and test_texture_import_views.c):
 * checks counted in the case harness's one failure count, the primary
 * context of device 0 made current and released, a kernel file read
 * whole, the case's exit status, and (drv_test_main) the whole main of a
 * table of cases over one kernel file.
 *
 * driver_harness.c is compiled into each program rather than linked from
 * a library: some are built twice, against cuvk's cuda.h and against
 * NVIDIA's, and it must see the same header as the program.
 *
 *    int main(int argc, char **argv)
 *    {
 *       drv_test_setup(NULL);
 *       char *ptx = drv_test_read_file(argv[2], NULL);
 *       ...  OK(cuModuleLoadData(&mod, ptx));  CHECK(x == 3);  ...
 *       drv_test_teardown();
 *       return drv_test_exit(argv[1]);
 *    }
 */
#ifndef CUVK_TESTS_DRIVER_HARNESS_H
#define CUVK_TESTS_DRIVER_HARNESS_H

#include <stdbool.h>
#include <stddef.h>

#include <cuda.h>

#include "case_harness.h"

#define CHECK(cond)                                                                   \
   do {                                                                               \
      if (!(cond))                                                                    \
         cuvk_test_report(__FILE__, __LINE__, "check failed: %s", #cond);            \
   } while (0)

#define CHECK_CU(expr, want)                                                          \
   do {                                                                               \
      CUresult r_ = (expr);                                                           \
      if (r_ != (want))                                                               \
         cuvk_test_report(__FILE__, __LINE__, "%s gave %d, expected %d", #expr,       \
                          (int)r_, (int)(want));                                      \
   } while (0)

#define OK(expr) CHECK_CU(expr, CUDA_SUCCESS)

/* cuInit, then device 0's primary context retained and made current;
 * the device through *dev where dev is not NULL. */
CUcontext drv_test_setup(CUdevice *dev);

/* Releases what drv_test_setup retained. */
void drv_test_teardown(void);

/* The whole file, with a NUL after it; *size (if size is not NULL) its
 * length.  Exits the process, failed, when it cannot be read. */
char *drv_test_read_file(const char *path, size_t *size);

/* Prints "CASE: ok" or "CASE: FAILED (N failures)" and returns the exit
 * status. */
int drv_test_exit(const char *case_name);

/* A program of cases that share one kernel file, run as
 *    exe CASE KERNEL.ptx     the case, in device 0's primary context with
 *                            the file loaded into *module
 *    exe --skip REASON       prints the reason, exits 77
 * The case may set *module to NULL (after a fault, when the context
 * took it), and *skipped (where skipped is not NULL) to why it could not
 * run on this device: exit 77 where nothing failed. */
struct drv_case {
   const char *name;
   void (*run)(void);
};

struct drv_program {
   const struct drv_case *cases;
   size_t count;
   const char *usage;              /* the arguments: "CASE TEXTURE.ptx" */
   CUmodule *module;
   const char *const *skipped;
   /* Before cuInit, with the case's name, or NULL: false fails the case. */
   bool (*before)(const char *name);
   /* After the primary context's release, or NULL. */
   void (*after)(void);
};

int drv_test_main(int argc, char **argv, const struct drv_program *p);

#endif
