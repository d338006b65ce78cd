/*
 * The SPIR-V emitter: one kernel of an IR module to a SPIR-V 1.5 module
 * for Vulkan 1.2 compute (Shader capability, PhysicalStorageBuffer64
 * addressing), whose entry point has the kernel's name.  The block shape
 * is left to the pipeline: the workgroup size is three specialization
 * constants (SpecId 0, 1, 2: x, y, z, each 1 by default) behind the
 * WorkgroupSize built-in, so one module serves every launch shape.
 *
 * First step: kernels that do nothing (every block reachable from the
 * entry holds no instruction and ends in br, ret or exit, with no cycle),
 * which is what the empty kernel of a launch-overhead benchmark is and
 * what proves the module's skeleton valid.  Anything else is refused with
 * CUVK_CC_UNSUPPORTED naming the first instruction and its PTX line; the
 * structurizer and instruction lowering will take it from there.
 */
#ifndef CUVK_COMPILER_SPIRV_H
#define CUVK_COMPILER_SPIRV_H

#include <stddef.h>
#include <stdint.h>

#include "compiler/ir.h"

/* *words is malloc'ed (free it), *word_count its length in words. */
bool cuvk_spirv_emit_kernel(const struct cuvk_ir_module *module, const char *kernel,
                            uint32_t **words, size_t *word_count, struct cuvk_cc_error *err);

#endif
