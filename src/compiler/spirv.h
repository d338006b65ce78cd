/*
 * The SPIR-V emitter: one kernel of an IR module to a SPIR-V 1.5 module
 * for Vulkan 1.2 compute (Shader capability, PhysicalStorageBuffer64
 * addressing), whose entry point has the kernel's name, with the frame
 * kernel_abi.h describes: the push constant block, the block shape and
 * the dynamic shared size as specialization constants (SpecId 0-3), and
 * memory reached as that header says.  The kernel and every .func it
 * calls go through the guard pass and the structurizer first, in place,
 * so the module is the caller's to change.
 *
 * What cannot be translated is refused with CUVK_CC_UNSUPPORTED naming
 * the instruction and its PTX line (docs/compiler.md lists what).
 */
#ifndef CUVK_COMPILER_SPIRV_H
#define CUVK_COMPILER_SPIRV_H

#include <stddef.h>
#include <stdint.h>

#include "compiler/compiler.h"
#include "compiler/ir.h"

/* What the launch side needs to know of the translated kernel beyond its
 * parameters. */
struct cuvk_spirv_kernel_info {
   uint32_t static_shared_bytes;   /* .shared variables (and the padding
                                    * before dynamic shared memory) */
   bool dynamic_shared;
   uint32_t local_bytes;           /* .local and .func .param bytes per thread */
   bool uses_printf;
   bool uses_textures;             /* cuvk_cc_kernel.uses_textures */
   uint64_t tex_bindings;          /* cuvk_cc_kernel.tex_bindings */
};

/* *words is malloc'ed (free it), *word_count its length in words; info
 * may be NULL. */
bool cuvk_spirv_emit_kernel(struct cuvk_ir_module *module, const char *kernel,
                            const struct cuvk_cc_target *target,
                            struct cuvk_spirv_kernel_info *info, uint32_t **words,
                            size_t *word_count, struct cuvk_cc_error *err);

/* Where each of f's parameters goes in the parameter block: at the next
 * multiple of its alignment, as CUDA lays them out; out has
 * f->param_count entries, *bytes is the block's size. */
void cuvk_spirv_param_layout(const struct cuvk_ir_function *f, struct cuvk_cc_param *out,
                             uint32_t *bytes);

#endif
