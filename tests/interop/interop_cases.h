/*
 * The table of interop test cases.
 *
 * Each case has a dotted name in the manner of VK-GL-CTS; meson registers
 * every one twice, with the interop layer on and off, by appending
 * .layer_on/.layer_off (see meson.build, whose list a test compares with
 * --list).  The executable runs one case by name:
 *
 *    test_interop --list
 *    test_interop external_memory.opaque_fd.dedicated.buffer.host_visible.cuda_reads_vulkan.map_write
 *
 * and re-executes itself with --child NAME FD for the half of a case that
 * must run in another process.
 */
#ifndef CUVK_TESTS_INTEROP_CASES_H
#define CUVK_TESTS_INTEROP_CASES_H

#include <stdbool.h>

#include "interop_harness.h"

struct itest_case;

/* Returns ITEST_PASS, ITEST_FAIL or ITEST_SKIP. */
typedef int (*itest_case_fn)(const struct itest_case *c);
/* The --child half of a case; sock is the fd the parent passed. */
typedef int (*itest_child_fn)(const struct itest_case *c, int sock);

struct itest_case {
   char name[192];
   itest_case_fn run;
   itest_child_fn child;
   /* Parameters; what they mean is up to run. */
   bool dedicated;
   enum itest_memory memory;
   int variant;
   /* Real CUDA behaves the same here, so the nvidia_header build runs it
    * as part of external_memory.nvidia_header.flow. */
   bool portable;
};

/* Adds a copy of *c to the table. */
void itest_add_case(const struct itest_case *c);

/*
 * Adds external_memory.opaque_fd.{dedicated,suballocated}.buffer.
 * {host_visible,device_only}.SUFFIX, or only the host_visible ones with
 * host_only (what needs vkMapMemory of the exported memory).
 */
void itest_add_buffer_cases(const char *suffix, itest_case_fn run, itest_child_fn child,
                            int variant, bool portable, bool host_only);

/* Registration, one function per source file. */
void itest_register_flow_cases(void);
void itest_register_lifetime_cases(void);
void itest_register_invalid_cases(void);

/* Combines a case's own status with itest_finish's. */
int itest_status(int status, int finish_status);

/* Prints why a case skips and returns ITEST_SKIP. */
int itest_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The path this executable was started as, for --child. */
extern const char *itest_self_path;

#endif
