/*
 * Modules, their kernels, and launches.
 *
 * A module (module.c) is PTX parsed by the compiler (compiler/compiler.h)
 * plus its module-scope variables, allocated as device memory at load with
 * their initial bytes and relocations, and a table of their CUdeviceptrs
 * that kernels read (compiler/kernel_abi.h).  A kernel is translated to
 * SPIR-V at its first cuModuleGetFunction, or read from the disk cache
 * (module_cache.h); what the compiler refuses fails there, and the
 * module's other kernels still load.  A library (library.c) is a module
 * image loaded into each context that needs it, as a module marked with
 * its library.
 *
 * A launch (launch.c) records dispatches into the context's open batch like
 * any command: a pipeline per (kernel, block shape, dynamic shared bytes),
 * built once and kept; the parameter block and a snapshot of the host
 * ranges written into a host-visible ring of the context; push constants
 * per kernel_abi.h; grids beyond maxComputeWorkGroupCount split into
 * several dispatches.  Kernels reach memory through the context's page
 * table (mem/page_table.h); an access outside every allocation sets the
 * context's fault word, and once the work has run the context answers
 * CUDA_ERROR_ILLEGAL_ADDRESS from then on (CUDA_ERROR_LAUNCH_FAILED where
 * a kernel ran into lavapipe's loop limit).
 */
#ifndef CUVK_API_MODULE_H
#define CUVK_API_MODULE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <cuda.h>
#include <vulkan/vulkan.h>

#include "compiler/compiler.h"
#include "cuda_api/object.h"
#include "cuda_api/submit.h"
#include "util/list.h"

struct cuvk_context;
struct cuvk_library;
struct cuvk_mem_page_table;

struct cuvk_module {
   struct cuvk_object base;
   struct cuvk_context *ctx;
   struct cuvk_list link;           /* in ctx->modules, under its lock */
   pthread_mutex_t lock;            /* cc and functions */
   struct cuvk_cc_module *cc;
   CUdeviceptr globals;             /* the variables, then the table; 0: none */
   CUdeviceptr managed;             /* the __managed__ variables; 0: none */
   VkDeviceAddress table_address;   /* device address of the table */
   CUdeviceptr *global_ptrs;        /* each variable's CUdeviceptr */
   size_t global_count;
   struct cuvk_list functions;
   bool unloaded;                   /* cuModuleUnload has begun; under lock */
   struct cuvk_deferred release;
   struct cuvk_library *library;    /* the library that loaded it here, or NULL */
   bool cached;                     /* the disk cache is on: ptx_hash is set */
   uint8_t ptx_hash[32];            /* SHA-256 of the PTX (module_cache.h) */
   /* Building ahead (module_ahead.c): the PTX, kept for workers' own
    * parses of it, and their state; NULL when the pool is off or the
    * module has one kernel. */
   char *ptx;
   size_t ptx_len;
   struct cuvk_module_ahead *ahead;
};

/* A kernel's pipeline for one launch shape. */
struct cuvk_kernel_pipeline {
   uint32_t block[3];
   uint32_t dynamic_shared;
   bool tex_memory;              /* CUVK_KERNEL_SPEC_TEX_MEMORY */
   bool tex_scale;               /* CUVK_KERNEL_SPEC_TEX_SCALE */
   bool tex_convert;             /* CUVK_KERNEL_SPEC_TEX_CONVERT */
   VkPipeline pipeline;
};

struct cuvk_function {
   struct cuvk_object base;
   struct cuvk_module *mod;
   struct cuvk_list link;           /* in mod->functions */
   struct cuvk_cc_kernel k;         /* k.words freed once the shader is made */
   VkShaderModule shader;
   /* cuFuncSetAttribute / cuFuncSetCacheConfig; read at launch. */
   int max_dynamic_shared;
   CUfunc_cache cache_config;
   /* The generation of its CUkernel's attributes last applied (library.c). */
   uint32_t kernel_attr_gen;
   struct cuvk_cc_param *cached_params;   /* k.params, when k came from the disk cache */
   /* Pipelines by launch shape; under the context's lock. */
   struct cuvk_kernel_pipeline *pipelines;
   uint32_t pipeline_count;
   uint32_t pipeline_capacity;
};

/* ---- Building ahead (module_ahead.c) ----
 *
 * At the first launch of a kernel of a module, the module's other kernels
 * are translated (or read from the disk cache) on the compile pool
 * (util/work_pool.h), each gets its shader module and a pipeline for the
 * shape just launched, outside every lock but the module's, briefly.
 * cuModuleGetFunction then takes a kernel built ahead as it is, waits for
 * one being built, and builds one nobody has started itself. */

/* Sets up mod's state (mod->ptx set, mod->lock made); takes ptx (NULL
 * from then on in the caller's hands).  Building ahead stays off for the
 * module when the pool is off or the module has a single kernel. */
CUresult cuvk_module_ahead_init(struct cuvk_module *mod, char **ptx, size_t len);

/* At a launch of a kernel of mod with this shape: starts building the
 * others, the first time.  No lock held. */
void cuvk_module_ahead_start(struct cuvk_module *mod, const uint32_t block[3], uint32_t dynamic_shared);

/* Under mod->lock, from cuModuleGetFunction, for kernel index: waits
 * for its build if a worker has it; returns the function built ahead
 * (now the caller's to enter), or NULL when the caller builds it (nobody
 * did, or the build failed: the caller's own reports why).  Either way,
 * no worker takes the kernel from then on. */
struct cuvk_function *cuvk_module_ahead_take(struct cuvk_module *mod, size_t index);

/* Cancels what is queued and waits for builds under way; kernels built
 * and never asked for are destroyed.  No lock held; idempotent. */
void cuvk_module_ahead_stop(struct cuvk_module *mod);
/* Stops and frees the state (module_free). */
void cuvk_module_ahead_finish(struct cuvk_module *mod);

/* Makes f's shader module from f->k (and frees f->k.words) and sets what
 * follows from k.  No lock needed. */
CUresult cuvk_function_make_shader(struct cuvk_function *f, const char *entry);

/* A pipeline of f for this shape, made now and not entered in
 * f->pipelines; f's kernel has no texture bindings.  No lock needed: the
 * pipeline cache is internally synchronised. */
CUresult cuvk_launch_pipeline_create(struct cuvk_context *ctx, const struct cuvk_function *f,
                                     const uint32_t block[3], uint32_t dynamic_shared, VkPipeline *out);

/* The launch state of a context (launch.c). */
struct cuvk_launch;

/* Makes ctx's launch state (and its page table) if it has none yet.
 * Context lock not held. */
CUresult cuvk_launch_init(struct cuvk_context *ctx);

/* Destroys it; the GPU is idle and every module is gone. */
void cuvk_launch_finish(struct cuvk_context *ctx);

/* mod is going: launches' kept command buffers that bind its pipelines
 * are recorded anew before their next use (launch.c).  Lock held. */
void cuvk_launch_forget_module(struct cuvk_context *ctx, const struct cuvk_module *mod);

/* The pipeline layout every kernel of ctx uses (launch state made). */
VkPipelineLayout cuvk_launch_layout(struct cuvk_context *ctx);

/* CUDA_ERROR_ILLEGAL_ADDRESS (CUDA_ERROR_LAUNCH_FAILED for lavapipe's
 * loop limit, CUVK_KERNEL_FAULT_LOOP_LIMIT), logged once, when a kernel
 * of ctx has faulted in work that has completed; the error first recorded
 * from then on; CUDA_SUCCESS otherwise.  Lock-free:
 * any thread, lock held or not. */
CUresult cuvk_launch_fault(struct cuvk_context *ctx);
/* Writes ctx's pipeline cache to the disk cache when pipelines were made
 * since the last write and a write is due (launch.c says when).  Called
 * after synchronisations; context lock not held. */
void cuvk_launch_cache_checkpoint(struct cuvk_context *ctx);
/* The context's sticky error (CUDA_ERROR_ILLEGAL_ADDRESS, or
 * CUDA_ERROR_LAUNCH_FAILED), with a log line naming entry, once the
 * context is known to have faulted (cuvk_launch_fault saw it): every call
 * that would queue work answers the sticky error, as on CUDA. */
CUresult cuvk_context_faulted(struct cuvk_context *ctx, const char *entry);

/* Host-visible, coherent memory with a device address, mapped (launch.c):
 * the launch data's kind of buffer, for the printf buffer. */
struct cuvk_launch_buffer;
CUresult cuvk_launch_buffer_create(struct cuvk_context *ctx, VkDeviceSize size, struct cuvk_launch_buffer **out,
                                   uint8_t **map, VkDeviceAddress *address);
void cuvk_launch_buffer_destroy(VkDevice vk, struct cuvk_launch_buffer *b);

/* Device printf (printf.c).  The printf buffer's device address for a
 * launch of a kernel that prints, recorded into the batch that completes
 * with value; made at the first such launch, CU_LIMIT_PRINTF_FIFO_SIZE
 * bytes.  Context lock held. */
CUresult cuvk_printf_launch(struct cuvk_context *ctx, uint64_t value, VkDeviceAddress *out);
/* Prints, in order, every complete record of work that has completed
 * (the synchronisations CUDA prints at); once no kernel that prints can
 * still run, empties the buffer.  Context lock not held. */
void cuvk_printf_flush(struct cuvk_context *ctx);
/* True once the buffer exists: its size can no longer change. */
bool cuvk_printf_started(struct cuvk_context *ctx);
/* Prints what is left and frees the buffer (GPU idle, teardown). */
void cuvk_printf_finish(struct cuvk_context *ctx);
/* Loads image (size bytes, or SIZE_MAX when unknown) as a module of ctx.
 * Context lock not held. */
CUresult cuvk_module_load_in(struct cuvk_context *ctx, const void *image, size_t size, const char *entry,
                             struct cuvk_module **out);

/* The whole file at path, nul-terminated (so that PTX text parses), in
 * *out (free it) and its size without the nul in *size; errors name
 * entry. */
CUresult cuvk_module_read_file(const char *path, const char *entry, char **out, size_t *size);

/* cuModuleUnload's work on a live module the caller holds a reference
 * to; false when another unload got there first. */
bool cuvk_module_unload(struct cuvk_module *mod);

/* cuLaunchKernel and its variants (launch.c); hfunc is a CUfunction or a
 * CUkernel. */
CUresult cuvk_launch_kernel(CUfunction hfunc, const uint32_t grid[3], const uint32_t block[3], uint32_t shared,
                            CUstream hstream, void **params, void **extra, const char *entry);

/* A kernel's parameter block: its size in bytes and its parameter count
 * (launch.c). */
void cuvk_launch_params_layout(const struct cuvk_function *f, uint32_t *bytes, uint32_t *count);
/* Lays the parameters out in block (the layout's size) from kernelParams
 * or extra, as a launch does, checked the same way; ptrs, when not NULL,
 * gets a pointer into block for each parameter. */
CUresult cuvk_launch_params_copy(const struct cuvk_function *f, void **params, void **extra, uint8_t *block,
                                 void **ptrs, const char *entry);

/* A CUkernel's function in ctx, its library loaded there on first use
 * (library.c).  No lock held. */
CUresult cuvk_kernel_function(CUkernel hkernel, struct cuvk_context *ctx, const char *entry,
                              struct cuvk_function **out);

/* cuFuncGetParamInfo / cuKernelGetParamInfo's answer from a kernel's
 * parameter layout: CUDA_ERROR_INVALID_VALUE for an index past the last
 * parameter or a NULL offset (size may be NULL). */
CUresult cuvk_param_info(const struct cuvk_cc_param *params, uint32_t count, size_t index, size_t *offset,
                         size_t *size, const char *entry);

/* Tells mod's library, if it has one, that mod is gone with its context
 * (library.c). */
void cuvk_library_module_gone(struct cuvk_module *mod);

/* Frees every module of a context being destroyed (GPU idle). */
void cuvk_module_release_context(struct cuvk_context *ctx);

/* Destroys f's pipelines, shader and memory (the GPU is done with them). */
void cuvk_function_destroy(struct cuvk_function *f);
/* The live function hfunc names, holding a reference to its module
 * until cuvk_function_put (not under the context's lock). */
CUresult cuvk_function_get(CUfunction hfunc, const char *entry, struct cuvk_function **out);
void cuvk_function_put(struct cuvk_function *f);

#endif
