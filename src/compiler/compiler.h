/*
 * The PTX compiler's interface to the rest of cuvk: PTX text in, one
 * SPIR-V module per kernel out, with what the launch code needs to know
 * about each kernel.  The library holds no CUDA and no Vulkan state; the
 * module loader (src/cuda_api/module.c) describes the device in a
 * cuvk_cc_target and maps errors to CUDA's codes (INVALID ->
 * CUDA_ERROR_INVALID_PTX, UNSUPPORTED -> CUDA_ERROR_NOT_SUPPORTED,
 * NO_MEMORY -> CUDA_ERROR_OUT_OF_MEMORY), logging err's message and line.
 *
 * Kernels reach memory as kernel_abi.h describes.
 *
 * Threads: a cuvk_cc_module is not shared between threads while a call
 * on it runs; different modules are independent.
 */
#ifndef CUVK_COMPILER_COMPILER_H
#define CUVK_COMPILER_COMPILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/diag.h"

/* What the device offers, as far as translation depends on it. */
struct cuvk_cc_target {
   uint32_t subgroup_size;        /* 0 when unknown or not fixed: warp
                                   * instructions are refused */
   bool int8, int16, int64;       /* shaderInt8/16/64 (with 8/16-bit storage) */
   bool float16, float64;         /* shaderFloat16, shaderFloat64 */
   bool atomic_int64;             /* shaderBufferInt64Atomics (+ shared) */
   bool atomic_float32_add;       /* VK_EXT_shader_atomic_float, buffer + shared */
   bool atomic_float64_add;
   uint32_t max_shared_bytes;     /* maxComputeSharedMemorySize */
   bool shader_clock;             /* VK_KHR_shader_clock's shaderSubgroupClock:
                                   * %clock, %clock_hi, %clock64 (else refused) */
   /* shaderDenormPreserveFloat16/32/64: the module declares DenormPreserve
    * for the width, so subnormals survive as PTX requires without .ftz
    * (NVIDIA's driver flushes them otherwise; where the device cannot
    * preserve them, results near zero may differ from CUDA's). */
   bool denorm_preserve_f16, denorm_preserve_f32, denorm_preserve_f64;
   /* The device's GLSL Fma rounds once for f32 and f64, as NVIDIA's
    * FFMA and DFMA do: fma.rn and mad.rn are then one Fma.  Vulkan lets
    * Fma round twice (lavapipe's f64 Fma does), so where false they are
    * computed exactly in a wider format, some 80 instructions for f32. */
   bool fma_fused;
   /* Texture and surface objects (kernel_abi.h): the slots of the
    * context's two tables, each binding of set CUVK_KERNEL_TEX_SET an
    * array of that many descriptors; 0 refuses the instructions.  A
    * kernel needing more bindings than max_sampled_descriptors /
    * tex_slots (storage: max_storage_descriptors / surf_slots) is
    * refused too (maxPerStageDescriptorSamplers and SampledImages, and
    * StorageImages, are 32, 128 and 64 on lavapipe). */
   uint32_t tex_slots, surf_slots;
   uint32_t max_sampled_descriptors, max_storage_descriptors;
   /* shaderSampledImageArrayNonUniformIndexing and the storage one: the
    * index is decorated NonUniform instead of made uniform by a loop
    * (spirv_texture.c); the device must have the feature enabled. */
   bool tex_nonuniform, surf_nonuniform;
   /* imageCubeArray: tex.acube (layered cubemaps) samples a cube array
    * binding; without it the compiler refuses the geometry.  The device
    * must have the feature enabled. */
   bool image_cube_array;
   /* VK_KHR_workgroup_memory_explicit_layout's workgroupMemoryExplicitLayout
    * and shaderSharedInt64Atomics, both enabled: a kernel with 64-bit
    * atomics on shared memory declares it as a Block with an aliased
    * 64-bit view and runs them there; without it they are refused
    * (spirv_memory.c). */
   bool shared_atomic_int64;
   /* Lavapipe's loop limit (llvmpipe: Mesa's LP_MAX_TGSI_LOOP_ITERATIONS,
    * 65535): its invocation vectors count the iterations of all their
    * loops together and silently end every loop once the count runs out.
    * Non-zero: the kernel counts loop iterations itself and stores
    * CUVK_KERNEL_FAULT_LOOP_LIMIT when it reaches this many, so the
    * launch fails instead of returning incomplete results (spirv_emit.c,
    * docs/compiler.md "Lavapipe's loop limit").  0: no limit. */
   uint32_t loop_limit;
};

/* One parameter of a kernel: where its bytes go in the parameter block. */
struct cuvk_cc_param {
   uint32_t offset;
   uint32_t size;
   uint32_t align;
};

/* One module-scope variable (.global or .const) the loader allocates:
 * size bytes, filled from init (NULL: zeros), then each relocation's
 * address written at its offset. */
struct cuvk_cc_reloc {
   uint64_t offset;
   uint32_t var;                  /* index of the variable whose address ... */
   uint64_t addend;               /* ... plus this is stored */
   uint32_t size;                 /* 4 or 8 bytes */
};

struct cuvk_cc_global {
   const char *name;
   bool is_const;                 /* .const: read-only to kernels */
   bool is_extern;                /* declared, defined in another module */
   bool is_managed;               /* __managed__: placed in managed memory */
   uint64_t size;
   uint32_t align;
   const uint8_t *init;
   const struct cuvk_cc_reloc *relocs;
   size_t reloc_count;
};

struct cuvk_cc_kernel {
   const char *name;
   uint32_t *words;               /* SPIR-V, malloc'ed: free() it */
   size_t word_count;
   const struct cuvk_cc_param *params;   /* owned by the module */
   uint32_t param_count;
   uint32_t param_bytes;          /* size of the parameter block */
   uint32_t static_shared_bytes;  /* .shared variables, module and kernel scope */
   bool dynamic_shared;           /* declares extern .shared [] */
   uint32_t local_bytes;          /* .local per thread */
   uint32_t reqntid[3];           /* 0 when not given */
   uint32_t maxntid[3];
   bool uses_printf;
   /* Has texture or surface instructions: reads the records, so the
    * launch pushes their addresses (tex_bindings may still be 0: txq). */
   bool uses_textures;
   /* Bit b set: the kernel declares binding b of set CUVK_KERNEL_TEX_SET
    * (kernel_abi.h); 0 for a kernel without textures or surfaces. */
   uint64_t tex_bindings;
};

struct cuvk_cc_module;

/* Parses and lowers PTX (len bytes; a trailing nul is allowed).  Every
 * kernel and global is known afterwards; kernels are translated only
 * when cuvk_cc_compile_kernel asks, so a module with hundreds of kernels
 * loads fast. */
bool cuvk_cc_module_create(const char *ptx, size_t len, struct cuvk_cc_module **out,
                           struct cuvk_cc_error *err);
void cuvk_cc_module_destroy(struct cuvk_cc_module *m);

size_t cuvk_cc_module_kernel_count(const struct cuvk_cc_module *m);
const char *cuvk_cc_module_kernel_name(const struct cuvk_cc_module *m, size_t i);
/* Kernel i's parameter layout, the one cuvk_cc_compile_kernel reports,
 * known without translating the kernel (cuKernelGetParamInfo asks before
 * any context has it): *count parameters, NULL past the last kernel.
 * Owned by the module. */
const struct cuvk_cc_param *cuvk_cc_module_kernel_params(const struct cuvk_cc_module *m, size_t i,
                                                         uint32_t *count);
size_t cuvk_cc_module_global_count(const struct cuvk_cc_module *m);
const struct cuvk_cc_global *cuvk_cc_module_global(const struct cuvk_cc_module *m, size_t i);

/* Translates one kernel for target.  An instruction the target cannot run
 * (a warp instruction without a fixed 32-wide subgroup, f64 without
 * shaderFloat64) fails with CUVK_CC_UNSUPPORTED naming it and its line;
 * the module's other kernels are unaffected. */
bool cuvk_cc_compile_kernel(struct cuvk_cc_module *m, const char *name,
                            const struct cuvk_cc_target *target, struct cuvk_cc_kernel *out,
                            struct cuvk_cc_error *err);

#endif
