/*
 * Modules: cuModuleLoad*, cuModuleUnload, cuModuleGetFunction,
 * cuModuleGetGlobal, and the function attribute and occupancy calls.
 */
#include "cuda_api/module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/kernel_abi.h"
#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuda_api/fatbin.h"
#include "cuda_api/memory.h"
#include "cuda_api/module_cache.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

/* CUDA's own figure for the PTX and binary versions it reports: cuvk
 * runs what it compiled itself, so both say the newest PTX it reads. */
#define REPORTED_VERSION 90

static CUresult
cc_error(const struct cuvk_cc_error *err, const char *entry, const char *what)
{
   CUresult res = err->status == CUVK_CC_NO_MEMORY   ? CUDA_ERROR_OUT_OF_MEMORY
                  : err->status == CUVK_CC_UNSUPPORTED ? CUDA_ERROR_NOT_SUPPORTED
                                                       : CUDA_ERROR_INVALID_PTX;
   return cuvk_error(res, "%s: %s: PTX line %u: %s", entry, what, err->line, err->message);
}

/* Lays out the module's variables in one allocation, each at its
 * alignment, followed by the table of their CUdeviceptrs; fills them on
 * the host (initial bytes, then relocations) and copies it all over.
 * __managed__ variables (.attribute(.managed)) go to a managed
 * allocation of their own instead, written in place, since the host
 * reaches them through the same pointer as kernels; kernels find them
 * through the table like any other variable. */
static CUresult
module_globals(struct cuvk_module *mod, const char *entry)
{
   size_t n = cuvk_cc_module_global_count(mod->cc);
   CUresult res = CUDA_SUCCESS;

   mod->global_count = n;
   if (n == 0)
      return CUDA_SUCCESS;
   mod->global_ptrs = calloc(n, sizeof(*mod->global_ptrs));
   uint64_t *offsets = calloc(n, sizeof(*offsets));
   if (!mod->global_ptrs || !offsets) {
      free(offsets);
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %zu globals", entry, n);
   }
   uint64_t size = 0, managed_size = 0;
   for (size_t i = 0; i < n; i++) {
      const struct cuvk_cc_global *g = cuvk_cc_module_global(mod->cc, i);
      uint64_t align = g->align && CUVK_IS_POW2(g->align) ? CUVK_MAX(g->align, 16u) : 16u;
      uint64_t *end = g->is_managed ? &managed_size : &size;
      if (g->is_extern)
         cuvk_logw("%s: %s is declared extern and no module defines it here: it gets %llu zero bytes of "
                   "its own", entry, g->name, (unsigned long long)g->size);
      *end = CUVK_ALIGN_UP(*end, align);
      offsets[i] = *end;
      *end += g->size ? g->size : 1;
   }
   uint64_t table = CUVK_ALIGN_UP(size, 16u);
   size = table + n * sizeof(uint64_t);

   uint8_t *host = calloc(1, size);
   if (!host) {
      free(offsets);
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %llu bytes of globals", entry,
                        (unsigned long long)size);
   }
   res = cuMemAlloc_v2(&mod->globals, size);
   if (res != CUDA_SUCCESS)
      goto out;
   if (managed_size) {
      res = cuMemAllocManaged(&mod->managed, managed_size, CU_MEM_ATTACH_GLOBAL);
      if (res != CUDA_SUCCESS)
         goto out;
      /* The heap reuses freed blocks: cleared, so that variables
       * without an initialiser start at zero, as in CUDA. */
      memset((void *)(uintptr_t)mod->managed, 0, managed_size);
   }
   for (size_t i = 0; i < n; i++) {
      const struct cuvk_cc_global *g = cuvk_cc_module_global(mod->cc, i);
      mod->global_ptrs[i] = (g->is_managed ? mod->managed : mod->globals) + offsets[i];
   }
   for (size_t i = 0; i < n; i++) {
      const struct cuvk_cc_global *g = cuvk_cc_module_global(mod->cc, i);
      /* A managed variable's bytes are host memory: written in place. */
      uint8_t *dst = g->is_managed ? (uint8_t *)(uintptr_t)mod->global_ptrs[i] : host + offsets[i];
      if (g->init)
         memcpy(dst, g->init, g->size);
      for (size_t r = 0; r < g->reloc_count; r++) {
         const struct cuvk_cc_reloc *rl = &g->relocs[r];
         uint64_t value = rl->var < n ? mod->global_ptrs[rl->var] + rl->addend : 0;
         if (rl->var >= n || (rl->size != 4 && rl->size != 8) || rl->offset + rl->size > g->size) {
            res = cuvk_error(CUDA_ERROR_INVALID_PTX, "%s: %s has a relocation the loader cannot apply", entry,
                             g->name);
            goto out;
         }
         memcpy(dst + rl->offset, &value, rl->size); /* little-endian, as PTX's targets */
      }
      memcpy(host + table + i * sizeof(uint64_t), &mod->global_ptrs[i], sizeof(uint64_t));
   }
   res = cuMemcpyHtoD_v2(mod->globals, host, size);
   if (res != CUDA_SUCCESS)
      goto out;
   struct cuvk_mem_span span;
   if (!cuvk_mem_resolve(mod->globals + table, &span)) {
      res = cuvk_error(CUDA_ERROR_UNKNOWN, "%s: the globals' memory vanished", entry);
      goto out;
   }
   mod->table_address = span.address;
out:
   free(host);
   free(offsets);
   return res;
}

static void
module_free(struct cuvk_module *mod)
{
   /* Builds under way use the module: they end first. */
   cuvk_module_ahead_finish(mod);
   cuvk_list_for_each_entry_safe(struct cuvk_function, f, &mod->functions, link) {
      cuvk_list_del(&f->link);
      cuvk_function_destroy(f);
   }
   cuvk_cc_module_destroy(mod->cc);
   pthread_mutex_destroy(&mod->lock);
   free(mod->global_ptrs);
   free(mod);
}

/* Deferred: the GPU is done with every launch of the module's kernels. */
static void
module_release_now(struct cuvk_context *ctx, void *data)
{
   (void)ctx;
   module_free(data);
}

/* The last reference is gone: after cuModuleUnload, once no call that
 * found the module or one of its functions live is still using it.
 * Launches already recorded keep the pipelines through the deferral. */
static void
module_handle_free(struct cuvk_object *obj)
{
   struct cuvk_module *mod = cuvk_container_of(obj, struct cuvk_module, base);
   struct cuvk_context *ctx = mod->ctx;
   /* The memory waits for queued work by itself; pipelines and shaders
    * wait below. */
   if (mod->globals)
      cuMemFree_v2(mod->globals);
   if (mod->managed)
      cuMemFree_v2(mod->managed);
   pthread_mutex_lock(&ctx->lock);
   cuvk_list_del(&mod->link);
   mod->release.fn = module_release_now;
   mod->release.data = mod;
   cuvk_submit_defer(ctx, &mod->release);
   pthread_mutex_unlock(&ctx->lock);
}

CUresult
cuvk_module_load_in(struct cuvk_context *ctx, const void *image, size_t size, const char *entry,
                    struct cuvk_module **out)
{
   struct cuvk_cc_error err;
   char *ptx = NULL;
   size_t len;
   uint32_t arch;
   CUresult res = cuvk_launch_fault(ctx);
   if (res != CUDA_SUCCESS)
      return res;
   res = cuvk_image_ptx(image, size, entry, &ptx, &len, &arch);
   if (res != CUDA_SUCCESS)
      return res;

   struct cuvk_module *mod = calloc(1, sizeof(*mod));
   if (!mod) {
      free(ptx);
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
   }
   mod->ctx = ctx;
   mod->cached = cuvk_module_cache_hash_ptx(ptx, len, mod->ptx_hash);
   pthread_mutex_init(&mod->lock, NULL);
   cuvk_list_init(&mod->functions);
   cuvk_list_init(&mod->link);
   if (!cuvk_cc_module_create(ptx, len, &mod->cc, &err)) {
      res = cc_error(&err, entry, "the PTX does not load");
      goto fail;
   }
   res = cuvk_launch_init(ctx);
   if (res != CUDA_SUCCESS)
      goto fail;
   res = module_globals(mod, entry);
   if (res != CUDA_SUCCESS)
      goto fail;
   res = cuvk_module_ahead_init(mod, &ptx, len);
   if (res != CUDA_SUCCESS)
      goto fail;
   free(ptx);

   cuvk_object_add_in(&mod->base, CUVK_OBJECT_MODULE, module_handle_free, &ctx->base);
   pthread_mutex_lock(&ctx->lock);
   cuvk_list_addtail(&mod->link, &ctx->modules);
   pthread_mutex_unlock(&ctx->lock);
   cuvk_logd("%s: %zu kernels, %zu globals", entry, cuvk_cc_module_kernel_count(mod->cc), mod->global_count);
   *out = mod;
   return CUDA_SUCCESS;

fail:
   if (mod->globals)
      cuMemFree_v2(mod->globals);
   if (mod->managed)
      cuMemFree_v2(mod->managed);
   module_free(mod);
   free(ptx);
   return res;
}

static CUresult
module_load(const void *image, size_t size, const char *entry, CUmodule *out)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   CUresult res = cuvk_context_current(entry, &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!out)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: module is NULL", entry);
   return cuvk_module_load_in(ctx, image, size, entry, (struct cuvk_module **)out);
}

CUVK_EXPORT CUresult CUDAAPI
cuModuleLoadData(CUmodule *module, const void *image)
{
   return module_load(image, SIZE_MAX, "cuModuleLoadData", module);
}

CUVK_EXPORT CUresult CUDAAPI
cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
   return module_load(fatCubin, SIZE_MAX, "cuModuleLoadFatBinary", module);
}

CUVK_EXPORT CUresult CUDAAPI
cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options,
                   void **optionValues)
{
   CUresult res = cuvk_driver_check("cuModuleLoadDataEx");
   if (res != CUDA_SUCCESS)
      return res;
   if (numOptions && (!options || !optionValues))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuModuleLoadDataEx: %u options without their arrays",
                        numOptions);
   /* JIT options tune NVIDIA's code generator; cuvk's has no such knobs,
    * so they are accepted.  The log buffers are answered with empty logs
    * (sizes to 0) so a caller printing them prints nothing stale. */
   for (unsigned i = 0; i < numOptions; i++) {
      switch (options[i]) {
      case CU_JIT_INFO_LOG_BUFFER:
      case CU_JIT_ERROR_LOG_BUFFER:
         if (optionValues[i])
            *(char *)optionValues[i] = '\0';
         break;
      case CU_JIT_WALL_TIME:
         *(float *)&optionValues[i] = 0.0f;
         break;
      case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
      case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
      case CU_JIT_MAX_REGISTERS:
      case CU_JIT_THREADS_PER_BLOCK:
      case CU_JIT_OPTIMIZATION_LEVEL:
      case CU_JIT_TARGET_FROM_CUCONTEXT:
      case CU_JIT_TARGET:
      case CU_JIT_FALLBACK_STRATEGY:
      case CU_JIT_GENERATE_DEBUG_INFO:
      case CU_JIT_LOG_VERBOSE:
      case CU_JIT_GENERATE_LINE_INFO:
      case CU_JIT_CACHE_MODE:
      case CU_JIT_FAST_COMPILE:
      case CU_JIT_POSITION_INDEPENDENT_CODE:
      case CU_JIT_MIN_CTA_PER_SM:
      case CU_JIT_MAX_THREADS_PER_BLOCK:
      case CU_JIT_OVERRIDE_DIRECTIVE_VALUES:
      case CU_JIT_SPLIT_COMPILE:
         break;
      default:
         if ((unsigned)options[i] >= CU_JIT_NUM_OPTIONS)
            return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuModuleLoadDataEx: option %d is unknown",
                              (int)options[i]);
         cuvk_logw("cuModuleLoadDataEx: option %d has no effect in cuvk", (int)options[i]);
         break;
      }
   }
   if (numOptions) {
      for (unsigned i = 0; i < numOptions; i++)
         if (options[i] == CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES || options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
            optionValues[i] = (void *)(uintptr_t)0;
   }
   return module_load(image, SIZE_MAX, "cuModuleLoadDataEx", module);
}

CUresult
cuvk_module_read_file(const char *path, const char *entry, char **out, size_t *size_out)
{
   FILE *f = fopen(path, "rbe");
   if (!f)
      return cuvk_error(CUDA_ERROR_FILE_NOT_FOUND, "%s: cannot open %s", entry, path);
   char *data = NULL;
   size_t size = 0, cap = 0;
   for (;;) {
      if (size == cap) {
         cap = cap ? cap * 2 : 1 << 16;
         char *grown = realloc(data, cap + 1);
         if (!grown) {
            free(data);
            fclose(f);
            return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory reading %s", entry, path);
         }
         data = grown;
      }
      size_t got = fread(data + size, 1, cap - size, f);
      size += got;
      if (got == 0)
         break;
   }
   bool failed = ferror(f);
   fclose(f);
   if (failed) {
      free(data);
      return cuvk_error(CUDA_ERROR_FILE_NOT_FOUND, "%s: reading %s failed", entry, path);
   }
   data[size] = 0; /* text files end in a nul for the parser */
   *out = data;
   *size_out = size;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuModuleLoad(CUmodule *module, const char *fname)
{
   CUresult res = cuvk_driver_check("cuModuleLoad");
   if (res != CUDA_SUCCESS)
      return res;
   if (!fname)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuModuleLoad: fname is NULL");
   char *data;
   size_t size;
   res = cuvk_module_read_file(fname, "cuModuleLoad", &data, &size);
   if (res != CUDA_SUCCESS)
      return res;
   res = module_load(data, size + 1, "cuModuleLoad", module);
   free(data);
   return res;
}

/* A live module, with a reference (module_put): INVALID_HANDLE
 * otherwise. */
static CUresult
module_lookup(CUmodule hmod, const char *entry, struct cuvk_module **out)
{
   CUresult res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_object *obj = cuvk_object_get(hmod, CUVK_OBJECT_MODULE);
   if (!obj)
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "%s: %p is not a loaded module", entry, (void *)hmod);
   *out = cuvk_container_of(obj, struct cuvk_module, base);
   return CUDA_SUCCESS;
}

static void
module_put(struct cuvk_module *mod)
{
   cuvk_object_put(&mod->base);
}

CUVK_EXPORT CUresult CUDAAPI
cuModuleUnload(CUmodule hmod)
{
   struct cuvk_module *mod;
   CUresult res = module_lookup(hmod, "cuModuleUnload", &mod);
   if (res != CUDA_SUCCESS)
      return res;
   if (mod->library)
      res = cuvk_error(CUDA_ERROR_NOT_PERMITTED, "cuModuleUnload: %p belongs to a library; cuLibraryUnload "
                       "unloads it", (void *)hmod);
   else if (!cuvk_module_unload(mod))
      res = cuvk_error(CUDA_ERROR_INVALID_HANDLE, "cuModuleUnload: %p was unloaded meanwhile", (void *)hmod);
   module_put(mod);
   return res;
}

bool
cuvk_module_unload(struct cuvk_module *mod)
{
   /* CUDA prints kernels' output at unload too; this module's format
    * strings must still be there, so its kernels must have run. */
   if (cuvk_printf_started(mod->ctx))
      (void)cuvk_submit_wait_idle(mod->ctx);
   /* Its functions leave the table first: their references are the
    * module's (object.h), so none may be found once the table's
    * reference to the module goes.  unloaded stops cuModuleGetFunction
    * entering new ones. */
   pthread_mutex_lock(&mod->lock);
   bool first = !mod->unloaded;
   mod->unloaded = true;
   cuvk_list_for_each_entry(struct cuvk_function, f, &mod->functions, link)
      cuvk_object_remove(&f->base);
   pthread_mutex_unlock(&mod->lock);
   /* Its kernels stop being built ahead now, not when the last launch
    * that uses it has run. */
   cuvk_module_ahead_stop(mod);
   return first && cuvk_object_release(&mod->base);
}

void
cuvk_module_release_context(struct cuvk_context *ctx)
{
   /* The GPU is idle; the globals' memory goes with the context's other
    * allocations. */
   cuvk_list_for_each_entry_safe(struct cuvk_module, mod, &ctx->modules, link) {
      cuvk_library_module_gone(mod);
      cuvk_list_for_each_entry(struct cuvk_function, f, &mod->functions, link)
         cuvk_object_remove(&f->base);
      cuvk_object_remove(&mod->base);
      cuvk_list_del(&mod->link);
      module_free(mod);
   }
}

void
cuvk_function_destroy(struct cuvk_function *f)
{
   VkDevice vk = f->mod->ctx->vk;
   for (uint32_t i = 0; i < f->pipeline_count; i++)
      vkDestroyPipeline(vk, f->pipelines[i].pipeline, NULL);
   free(f->pipelines);
   if (f->shader)
      vkDestroyShaderModule(vk, f->shader, NULL);
   free(f->k.words);
   free(f->cached_params);
   free(f);
}

CUresult
cuvk_function_make_shader(struct cuvk_function *f, const char *entry)
{
   struct cuvk_context *ctx = f->mod->ctx;
   VkShaderModuleCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
      .codeSize = f->k.word_count * sizeof(uint32_t),
      .pCode = f->k.words,
   };
   VkResult vr = vkCreateShaderModule(ctx->vk, &info, NULL, &f->shader);
   free(f->k.words);
   f->k.words = NULL;
   if (vr != VK_SUCCESS) {
      f->shader = VK_NULL_HANDLE;
      cuvk_loge("%s: %s: the driver refused its SPIR-V", entry, f->k.name);
      return cuvk_vk_error(vr, "vkCreateShaderModule");
   }
   uint32_t limit = ctx->dev->props.limits.maxComputeSharedMemorySize;
   f->max_dynamic_shared = (int)(limit - CUVK_MIN(f->k.static_shared_bytes, limit));
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
   struct cuvk_module *mod;
   struct cuvk_cc_error err;
   CUresult res = module_lookup(hmod, "cuModuleGetFunction", &mod);
   if (res != CUDA_SUCCESS)
      return res;
   if (!hfunc || !name) {
      module_put(mod);
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuModuleGetFunction: NULL argument");
   }

   pthread_mutex_lock(&mod->lock);
   if (mod->unloaded) {
      res = cuvk_error(CUDA_ERROR_INVALID_HANDLE, "cuModuleGetFunction: %p was unloaded meanwhile", (void *)hmod);
      goto out;
   }
   cuvk_list_for_each_entry(struct cuvk_function, f, &mod->functions, link) {
      if (strcmp(f->k.name, name) == 0) {
         *hfunc = (CUfunction)f;
         goto out;
      }
   }
   const char *known = NULL;
   size_t index = 0;
   for (size_t i = 0; i < cuvk_cc_module_kernel_count(mod->cc) && !known; i++) {
      if (strcmp(cuvk_cc_module_kernel_name(mod->cc, i), name) == 0) {
         known = cuvk_cc_module_kernel_name(mod->cc, i);
         index = i;
      }
   }
   if (!known) {
      res = cuvk_error(CUDA_ERROR_NOT_FOUND, "cuModuleGetFunction: the module has no kernel %s", name);
      goto out;
   }
   /* Built ahead by a worker (module_ahead.c), or being built: waits for
    * it, with the module's lock let go meanwhile. */
   struct cuvk_function *f = cuvk_module_ahead_take(mod, index);
   if (mod->unloaded) {
      if (f)
         cuvk_function_destroy(f);
      res = cuvk_error(CUDA_ERROR_INVALID_HANDLE, "cuModuleGetFunction: %p was unloaded meanwhile", (void *)hmod);
      goto out;
   }
   if (f)
      goto enter;
   f = calloc(1, sizeof(*f));
   if (!f) {
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuModuleGetFunction: out of host memory");
      goto out;
   }
   f->mod = mod;
   /* Translated now, so a kernel the compiler refuses fails here and
    * its module's other kernels are unaffected; or read from the disk
    * cache, where an earlier process translated it for this device. */
   uint8_t key[32];
   bool hit = false;
   if (mod->cached) {
      cuvk_module_cache_key(mod->ctx, mod->ptx_hash, name, key);
      hit = cuvk_module_cache_get(key, &f->k, &f->cached_params);
      f->k.name = known;
   }
   if (!hit) {
      if (!cuvk_cc_compile_kernel(mod->cc, name, &mod->ctx->kernel_target, &f->k, &err)) {
         res = cc_error(&err, "cuModuleGetFunction", name);
         free(f);
         goto out;
      }
      if (mod->cached)
         cuvk_module_cache_put(key, &f->k);
   }
   cuvk_logd("cuModuleGetFunction: %s %s", name, hit ? "read from the disk cache" : "translated");
   res = cuvk_function_make_shader(f, "cuModuleGetFunction");
   if (res != CUDA_SUCCESS) {
      cuvk_function_destroy(f);
      goto out;
   }
enter:
   cuvk_object_add_owned(&f->base, CUVK_OBJECT_FUNCTION, &mod->base);
   cuvk_list_addtail(&f->link, &mod->functions);
   *hfunc = (CUfunction)f;
out:
   pthread_mutex_unlock(&mod->lock);
   module_put(mod);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
   struct cuvk_module *mod;
   CUresult res = module_lookup(hmod, "cuModuleGetGlobal", &mod);
   if (res != CUDA_SUCCESS)
      return res;
   if (!name) {
      module_put(mod);
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuModuleGetGlobal: name is NULL");
   }
   bool found = false;
   for (size_t i = 0; i < mod->global_count && !found; i++) {
      const struct cuvk_cc_global *g = cuvk_cc_module_global(mod->cc, i);
      if (strcmp(g->name, name) == 0) {
         if (dptr)
            *dptr = mod->global_ptrs[i];
         if (bytes)
            *bytes = g->size;
         found = true;
      }
   }
   if (!found)
      res = cuvk_error(CUDA_ERROR_NOT_FOUND, "cuModuleGetGlobal: the module has no variable %s", name);
   module_put(mod);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuModuleGetGlobal(CUdeviceptr_v1 *dptr, unsigned int *bytes, CUmodule hmod, const char *name)
{
   CUdeviceptr p;
   size_t n;
   CUresult res = cuModuleGetGlobal_v2(&p, &n, hmod, name);
   if (res != CUDA_SUCCESS)
      return res;
   if (p > UINT32_MAX || n > UINT32_MAX)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuModuleGetGlobal: 0x%llx does not fit the 32-bit legacy call",
                        (unsigned long long)p);
   if (dptr)
      *dptr = (CUdeviceptr_v1)p;
   if (bytes)
      *bytes = (unsigned int)n;
   return CUDA_SUCCESS;
}

CUresult
cuvk_function_get(CUfunction hfunc, const char *entry, struct cuvk_function **out)
{
   CUresult res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;
   if (hfunc && cuvk_object_is(hfunc, CUVK_OBJECT_KERNEL)) {
      /* A CUkernel cast to CUfunction, as CUDA allows: its function in
       * the current context. */
      struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
      struct cuvk_function *f;
      res = cuvk_context_current(entry, &ctx);
      if (res == CUDA_SUCCESS)
         res = cuvk_kernel_function((CUkernel)hfunc, ctx, entry, &f);
      if (res != CUDA_SUCCESS)
         return res;
      hfunc = (CUfunction)f;
   }
   struct cuvk_object *obj = cuvk_object_get(hfunc, CUVK_OBJECT_FUNCTION);
   if (!obj)
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "%s: %p is not a live function", entry, (void *)hfunc);
   *out = cuvk_container_of(obj, struct cuvk_function, base);
   return CUDA_SUCCESS;
}

void
cuvk_function_put(struct cuvk_function *f)
{
   cuvk_object_put(&f->base);
}

/* The most threads a block of f may have: the device's limit, CUDA's
 * 1024, and the kernel's .maxntid / .reqntid. */
static uint32_t
function_max_threads(const struct cuvk_function *f)
{
   const VkPhysicalDeviceLimits *l = &f->mod->ctx->dev->props.limits;
   uint32_t max = CUVK_MIN(l->maxComputeWorkGroupInvocations, 1024u);
   if (f->k.maxntid[0]) {
      uint64_t n = (uint64_t)f->k.maxntid[0] * CUVK_MAX(f->k.maxntid[1], 1u) * CUVK_MAX(f->k.maxntid[2], 1u);
      max = (uint32_t)CUVK_MIN((uint64_t)max, n);
   }
   if (f->k.reqntid[0]) {
      uint64_t n = (uint64_t)f->k.reqntid[0] * CUVK_MAX(f->k.reqntid[1], 1u) * CUVK_MAX(f->k.reqntid[2], 1u);
      max = (uint32_t)CUVK_MIN((uint64_t)max, n);
   }
   return max;
}

static CUresult
func_get_attribute(struct cuvk_function *f, int *pi, CUfunction_attribute attrib)
{
   if (!pi)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuFuncGetAttribute: pi is NULL");
   switch (attrib) {
   case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
      *pi = (int)function_max_threads(f);
      return CUDA_SUCCESS;
   case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
      *pi = (int)f->k.static_shared_bytes;
      return CUDA_SUCCESS;
   case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: {
      /* .const variables live with the module's globals. */
      uint64_t n = 0;
      for (size_t i = 0; i < f->mod->global_count; i++) {
         const struct cuvk_cc_global *g = cuvk_cc_module_global(f->mod->cc, i);
         n += g->is_const ? g->size : 0;
      }
      *pi = (int)CUVK_MIN(n, (uint64_t)INT32_MAX);
      return CUDA_SUCCESS;
   }
   case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
      *pi = (int)f->k.local_bytes;
      return CUDA_SUCCESS;
   case CU_FUNC_ATTRIBUTE_NUM_REGS:
      /* A Vulkan driver does not say how many registers it gave a
       * shader; 0 keeps occupancy calculators from dividing by a made-up
       * figure. */
      *pi = 0;
      return CUDA_SUCCESS;
   case CU_FUNC_ATTRIBUTE_PTX_VERSION:
   case CU_FUNC_ATTRIBUTE_BINARY_VERSION:
      *pi = REPORTED_VERSION;
      return CUDA_SUCCESS;
   case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA:
      *pi = 0;
      return CUDA_SUCCESS;
   case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      *pi = __atomic_load_n(&f->max_dynamic_shared, __ATOMIC_RELAXED);
      return CUDA_SUCCESS;
   case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
      *pi = -1;
      return CUDA_SUCCESS;
   case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET:
   case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
   case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
   case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
   case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
   case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
      *pi = 0;
      return CUDA_SUCCESS;
   default:
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuFuncGetAttribute: attribute %d is unknown", (int)attrib);
   }
}

CUVK_EXPORT CUresult CUDAAPI
cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
   struct cuvk_function *f;
   CUresult res = cuvk_function_get(hfunc, "cuFuncGetAttribute", &f);
   if (res != CUDA_SUCCESS)
      return res;
   res = func_get_attribute(f, pi, attrib);
   cuvk_function_put(f);
   return res;
}

CUresult
cuvk_param_info(const struct cuvk_cc_param *params, uint32_t count, size_t index, size_t *offset, size_t *size,
                const char *entry)
{
   if (!offset)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: paramOffset is NULL", entry);
   if (index >= count)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: parameter %zu of a kernel with %u", entry, index, count);
   *offset = params[index].offset;
   if (size)
      *size = params[index].size;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
   struct cuvk_function *f;
   CUresult res = cuvk_function_get(func, "cuFuncGetParamInfo", &f);
   if (res != CUDA_SUCCESS)
      return res;
   res = cuvk_param_info(f->k.params, f->k.param_count, paramIndex, paramOffset, paramSize,
                         "cuFuncGetParamInfo");
   cuvk_function_put(f);
   return res;
}

static CUresult
func_set_attribute(struct cuvk_function *f, CUfunction_attribute attrib, int value)
{
   uint32_t limit = f->mod->ctx->dev->props.limits.maxComputeSharedMemorySize;
   switch (attrib) {
   case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      if (value < 0 || (uint64_t)value + f->k.static_shared_bytes > limit)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuFuncSetAttribute: %d bytes of dynamic shared memory "
                           "and %u static exceed the device's %u", value, f->k.static_shared_bytes, limit);
      __atomic_store_n(&f->max_dynamic_shared, value, __ATOMIC_RELAXED);
      return CUDA_SUCCESS;
   case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
      /* A hint about the L1/shared split, which Vulkan does not expose. */
      if (value < -1 || value > 100)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuFuncSetAttribute: carveout %d is not -1..100", value);
      return CUDA_SUCCESS;
   default:
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuFuncSetAttribute: attribute %d cannot be set", (int)attrib);
   }
}

CUVK_EXPORT CUresult CUDAAPI
cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
{
   struct cuvk_function *f;
   CUresult res = cuvk_function_get(hfunc, "cuFuncSetAttribute", &f);
   if (res != CUDA_SUCCESS)
      return res;
   res = func_set_attribute(f, attrib, value);
   cuvk_function_put(f);
   return res;
}

static CUresult
func_set_cache_config(struct cuvk_function *f, CUfunc_cache config)
{
   if ((unsigned)config > CU_FUNC_CACHE_PREFER_EQUAL)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuFuncSetCacheConfig: %d is not a cache preference",
                        (int)config);
   /* A preference, kept and never acted on (Vulkan has no such knob). */
   __atomic_store_n(&f->cache_config, config, __ATOMIC_RELAXED);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config)
{
   struct cuvk_function *f;
   CUresult res = cuvk_function_get(hfunc, "cuFuncSetCacheConfig", &f);
   if (res != CUDA_SUCCESS)
      return res;
   res = func_set_cache_config(f, config);
   cuvk_function_put(f);
   return res;
}

/* Blocks of block_size threads with dynamic_shared bytes each that fit on
 * one "multiprocessor" at once.  Vulkan tells nothing of how a driver
 * packs workgroups, so the figure comes from the limits it does state:
 * shared memory per workgroup (one workgroup's worth per multiprocessor,
 * as the limit is per workgroup) and CUDA's 2048 threads per
 * multiprocessor. */
static int
blocks_per_sm(const struct cuvk_function *f, int block_size, size_t dynamic_shared)
{
   const VkPhysicalDeviceLimits *l = &f->mod->ctx->dev->props.limits;
   if (block_size <= 0 || (uint32_t)block_size > function_max_threads(f))
      return 0;
   uint64_t shared = (uint64_t)f->k.static_shared_bytes + dynamic_shared;
   if (shared > l->maxComputeSharedMemorySize)
      return 0;
   int by_threads = 2048 / block_size;
   int by_shared = shared ? (int)(l->maxComputeSharedMemorySize / shared) : INT32_MAX;
   return CUVK_MAX(CUVK_MIN(by_threads, by_shared), 1);
}

static CUresult
occupancy_max_active_blocks(struct cuvk_function *f, int *numBlocks, int blockSize, size_t dynamicSMemSize,
                            unsigned int flags)
{
   if (!numBlocks || flags > 1)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuOccupancyMaxActiveBlocksPerMultiprocessor: NULL output "
                        "or flags 0x%x", flags);
   *numBlocks = blocks_per_sm(f, blockSize, dynamicSMemSize);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func, int blockSize,
                                                     size_t dynamicSMemSize, unsigned int flags)
{
   struct cuvk_function *f;
   CUresult res = cuvk_function_get(func, "cuOccupancyMaxActiveBlocksPerMultiprocessor", &f);
   if (res != CUDA_SUCCESS)
      return res;
   res = occupancy_max_active_blocks(f, numBlocks, blockSize, dynamicSMemSize, flags);
   cuvk_function_put(f);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize,
                                            size_t dynamicSMemSize)
{
   return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

static CUresult
occupancy_max_potential_block_size(struct cuvk_function *f, int *minGridSize, int *blockSize,
                                   CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize,
                                   int blockSizeLimit, unsigned int flags)
{
   if (!minGridSize || !blockSize || flags > 1 || blockSizeLimit < 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuOccupancyMaxPotentialBlockSize: NULL output, flags 0x%x "
                        "or limit %d", flags, blockSizeLimit);
   int max = (int)function_max_threads(f);
   if (blockSizeLimit > 0)
      max = CUVK_MIN(max, blockSizeLimit);
   uint32_t warp = CUVK_MAX(f->mod->ctx->dev->subgroup.subgroupSize, 1u);
   int best_threads = 0, best_size = 0;
   /* CUDA's search: every multiple of the warp size, largest first, keeps
    * the one that keeps the most threads busy. */
   for (int size = max - max % (int)warp; size > 0; size -= (int)warp) {
      size_t shared = blockSizeToDynamicSMemSize ? blockSizeToDynamicSMemSize(size) : dynamicSMemSize;
      int blocks = blocks_per_sm(f, size, shared);
      if (blocks * size > best_threads) {
         best_threads = blocks * size;
         best_size = size;
      }
   }
   if (best_size == 0 && max > 0 && blocks_per_sm(f, max, blockSizeToDynamicSMemSize ?
                                                  blockSizeToDynamicSMemSize(max) : dynamicSMemSize)) {
      best_size = max;
      best_threads = max;
   }
   int sms = 1;
   cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, f->mod->ctx->dev->ordinal);
   *blockSize = best_size;
   *minGridSize = best_size ? sms * (best_threads / best_size) : 0;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, CUfunction func,
                                          CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize,
                                          int blockSizeLimit, unsigned int flags)
{
   struct cuvk_function *f;
   CUresult res = cuvk_function_get(func, "cuOccupancyMaxPotentialBlockSize", &f);
   if (res != CUDA_SUCCESS)
      return res;
   res = occupancy_max_potential_block_size(f, minGridSize, blockSize, blockSizeToDynamicSMemSize, dynamicSMemSize,
                                            blockSizeLimit, flags);
   cuvk_function_put(f);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                 CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize,
                                 int blockSizeLimit)
{
   return cuOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, func, blockSizeToDynamicSMemSize,
                                                    dynamicSMemSize, blockSizeLimit, 0);
}
