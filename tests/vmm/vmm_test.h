/*
 * The virtual-memory suite's harness: a table of named cases, checks that
 * print file:line and the CUresult's name and keep going, and a host model
 * of device memory that every fill and copy is replayed on, so one
 * readback checks every byte.  Failures, byte comparisons and the command
 * line are the shared tests/common/case_harness.h.
 *
 * Only names that NVIDIA's cuda.h declares too are used here and in the
 * cases: test_vmm.c is also built against NVIDIA's header (with
 * VMM_NVIDIA_HEADER defined) and linked against cuvk's libcuda.so.1 alone.
 *
 * An executable runs as `exe CASE` (how meson runs each case as a test of
 * its own), `exe --list`, `exe --expect NAME...` (fails unless the table
 * holds exactly those names, so meson.build and the table cannot drift
 * apart), or `exe --skip REASON` (prints the reason, exits 77).
 */
#ifndef CUVK_TESTS_VMM_TEST_H
#define CUVK_TESTS_VMM_TEST_H

#include <cuda.h>

#include "case_harness.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VMM_EXIT_PASS CUVK_TEST_PASS
#define VMM_EXIT_FAIL CUVK_TEST_FAIL

#define VMM_MIB ((size_t)1 << 20)
#define VMM_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

enum vmm_setup {
   /* cuInit, device 0's primary context current; released at the end,
    * which destroys the VkDevice where validation reports leaks. */
   VMM_SETUP_CONTEXT,
   /* Nothing at all: the case forks before cuInit or manages it itself. */
   VMM_SETUP_NONE,
};

struct vmm_case {
   const char *name;
   void (*run)(void);
   enum vmm_setup setup;
};

#define VMM_CASE(name, fn) { name, fn, VMM_SETUP_CONTEXT }
#define VMM_CASE_NOINIT(name, fn) { name, fn, VMM_SETUP_NONE }

/* Set up by VMM_SETUP_CONTEXT. */
extern CUdevice vmm_dev;
extern CUcontext vmm_ctx;

int vmm_main(int argc, char **argv, const struct cuvk_test_table *cases);

/* ---- Checks ---- */

#define vmm_report cuvk_test_report
#define vmm_failure_count cuvk_test_failures
#define vmm_abort_case cuvk_test_abort_case
const char *vmm_result_name(CUresult res);
bool vmm_check_result(const char *file, int line, const char *expr, CUresult expected, CUresult got);

#define VMM_CHECK(cond)                                                        \
   do {                                                                        \
      if (!(cond))                                                             \
         vmm_report(__FILE__, __LINE__, "check failed: %s", #cond);            \
   } while (0)

#define VMM_CHECK_MSG(cond, ...)                                               \
   do {                                                                        \
      if (!(cond))                                                             \
         vmm_report(__FILE__, __LINE__, __VA_ARGS__);                          \
   } while (0)

#define VMM_REQUIRE(cond)                                                      \
   do {                                                                        \
      if (!(cond)) {                                                           \
         vmm_report(__FILE__, __LINE__, "requirement failed: %s", #cond);      \
         vmm_abort_case();                                                     \
      }                                                                        \
   } while (0)

/* The code a call must return; the call is spelled out in the report. */
#define VMM_EXPECT(expected, call)                                             \
   vmm_check_result(__FILE__, __LINE__, #call, (expected), (call))

#define VMM_CHECK_CU(call) VMM_EXPECT(CUDA_SUCCESS, call)

#define VMM_REQUIRE_CU(call)                                                   \
   do {                                                                        \
      if (!VMM_CHECK_CU(call))                                                 \
         vmm_abort_case();                                                     \
   } while (0)

#define VMM_CHECK_BYTES(got, want, n, what)                                    \
   cuvk_test_check_bytes(__FILE__, __LINE__, (got), (want), (n), "%s", (what))

/* ---- Helpers ---- */

void *vmm_xmalloc(size_t n);
void vmm_fill_random(void *p, size_t n, uint64_t seed);
double vmm_now(void);
/* Open file descriptors of the process. */
int vmm_fd_count(void);

/* A pinned device allocation property for device dev; exportable adds
 * requestedHandleTypes POSIX_FILE_DESCRIPTOR. */
CUmemAllocationProp vmm_prop(CUdevice dev, bool exportable);
/* The access descriptor that makes a range readable and writable by dev. */
CUmemAccessDesc vmm_rw_access(CUdevice dev);

/*
 * A host copy of a span of device addresses: every fill and copy a case
 * makes goes to the device and to the model, and vmm_model_check reads
 * the device back and compares every byte.
 */
struct vmm_model {
   CUdeviceptr base;
   size_t size;
   uint8_t *bytes;
};

void vmm_model_init(struct vmm_model *m, CUdeviceptr base, size_t size);
void vmm_model_finish(struct vmm_model *m);
/* Each returns the call's result; the model changes only on success. */
CUresult vmm_model_memset_d32(struct vmm_model *m, size_t off, uint32_t value, size_t count);
CUresult vmm_model_memset_d8(struct vmm_model *m, size_t off, uint8_t value, size_t count);
CUresult vmm_model_htod_random(struct vmm_model *m, size_t off, size_t n, uint64_t seed);
CUresult vmm_model_dtod(struct vmm_model *m, size_t dst_off, size_t src_off, size_t n);
/* Reads [off, off + n) back with cuMemcpyDtoH and compares. */
bool vmm_model_check_at(const char *file, int line, const struct vmm_model *m, size_t off, size_t n,
                        const char *what);
#define VMM_MODEL_CHECK(m, off, n, what) vmm_model_check_at(__FILE__, __LINE__, (m), (off), (n), (what))

#endif
