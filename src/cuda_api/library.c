/*
 * Libraries (CUDA 12+): cuLibrary* and cuKernel*.
 *
 * A library is a module image that belongs to no context.  cuvk keeps its
 * PTX and, as CUDA's lazy loading does, loads it into a context the first
 * time something there needs it (a function, a global, a launch), as an
 * ordinary module marked with its library.  A CUkernel names one entry
 * point of the library in every context; it resolves to that context's
 * CUfunction.  Attributes set on a kernel are kept with a generation
 * number and applied to each context's function the next time it is
 * resolved, so a later cuFuncSetAttribute on that function wins, as CUDA
 * documents.
 *
 * Lifetime: a library is counted (object.h), its kernels' references
 * being its own, so a call that found a library or kernel finishes on it
 * and cuLibraryUnload's work happens at the last reference: each
 * context's module is unloaded as cuModuleUnload would, unless that
 * context is being destroyed, whose teardown frees it.
 *
 * Locks: a library's lock is taken before a context's (a context is never
 * locked while a library's lock is wanted), and library_links, which
 * guards every library's loads and each module's library pointer, inside
 * both, so a context's teardown can drop its modules' links without
 * knowing whether their library is still there.
 */
#include "cuda_api/module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuda_api/fatbin.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

struct cuvk_kernel {
   struct cuvk_object base;
   struct cuvk_library *lib;
   const char *name;                /* in lib->names */
   const struct cuvk_cc_param *params;   /* in lib->params */
   uint32_t param_count;
   /* Set by cuKernelSetAttribute / cuKernelSetCacheConfig; under lib->lock. */
   uint32_t gen;                    /* 0: nothing set */
   int max_dynamic_shared;          /* -1: not set */
   int carveout;                    /* -2: not set */
   int cache_config;                /* -1: not set */
};

/* The library's module in one context. */
struct library_load {
   struct cuvk_list link;
   struct cuvk_context *ctx;
   struct cuvk_module *mod;
};

static pthread_mutex_t library_links = PTHREAD_MUTEX_INITIALIZER;

struct cuvk_library {
   struct cuvk_object base;
   pthread_mutex_t lock;           /* kernels' attributes; one load at a time */
   char *ptx;                       /* nul-terminated */
   size_t len;
   char *names;                     /* the kernels' names, back to back */
   struct cuvk_cc_param *params;    /* the kernels' parameters, back to back */
   struct cuvk_kernel *kernels;
   size_t kernel_count;
   struct cuvk_list loads;          /* library_load, under library_links */
};

/* A loaded library, with a reference (LIBRARY_HELD). */
static CUresult
library_lookup(CUlibrary hlib, const char *entry, struct cuvk_library **out)
{
   CUresult res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_object *obj = cuvk_object_get(hlib, CUVK_OBJECT_LIBRARY);
   if (!obj)
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "%s: %p is not a loaded library", entry, (void *)hlib);
   *out = cuvk_container_of(obj, struct cuvk_library, base);
   return CUDA_SUCCESS;
}

/* A kernel of a loaded library, with a reference to its library
 * (KERNEL_HELD). */
static CUresult
kernel_lookup(CUkernel hkernel, const char *entry, struct cuvk_kernel **out)
{
   CUresult res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_object *obj = cuvk_object_get(hkernel, CUVK_OBJECT_KERNEL);
   if (!obj)
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "%s: %p is not a kernel of a loaded library", entry,
                        (void *)hkernel);
   *out = cuvk_container_of(obj, struct cuvk_kernel, base);
   return CUDA_SUCCESS;
}

static void
library_put_held(struct cuvk_library **lib)
{
   if (*lib)
      cuvk_object_put(&(*lib)->base);
}

static void
kernel_put_held(struct cuvk_kernel **k)
{
   if (*k)
      cuvk_object_put(&(*k)->base);
}

/* The call's reference, dropped on every way out (as CUVK_HELD_CONTEXT). */
#define LIBRARY_HELD __attribute__((cleanup(library_put_held)))
#define KERNEL_HELD __attribute__((cleanup(kernel_put_held)))

static void
library_free(struct cuvk_library *lib)
{
   pthread_mutex_destroy(&lib->lock);
   free(lib->kernels);
   free(lib->names);
   free(lib->params);
   free(lib->ptx);
   free(lib);
}

/* Parses the PTX once, without a context, so a bad image fails at load
 * and the kernels are known before any context needs them. */
static CUresult
library_index(struct cuvk_library *lib, const char *entry)
{
   struct cuvk_cc_module *cc;
   struct cuvk_cc_error err;
   if (!cuvk_cc_module_create(lib->ptx, lib->len, &cc, &err)) {
      CUresult res = err.status == CUVK_CC_NO_MEMORY   ? CUDA_ERROR_OUT_OF_MEMORY
                     : err.status == CUVK_CC_UNSUPPORTED ? CUDA_ERROR_NOT_SUPPORTED
                                                         : CUDA_ERROR_INVALID_PTX;
      return cuvk_error(res, "%s: the PTX does not load: PTX line %u: %s", entry, err.line, err.message);
   }
   size_t n = cuvk_cc_module_kernel_count(cc), bytes = 0, params = 0;
   for (size_t i = 0; i < n; i++) {
      uint32_t count;
      bytes += strlen(cuvk_cc_module_kernel_name(cc, i)) + 1;
      cuvk_cc_module_kernel_params(cc, i, &count);
      params += count;
   }
   lib->kernels = calloc(n ? n : 1, sizeof(*lib->kernels));
   lib->names = malloc(bytes ? bytes : 1);
   lib->params = calloc(params ? params : 1, sizeof(*lib->params));
   if (!lib->kernels || !lib->names || !lib->params) {
      cuvk_cc_module_destroy(cc);
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %zu kernels", entry, n);
   }
   char *p = lib->names;
   struct cuvk_cc_param *param = lib->params;
   for (size_t i = 0; i < n; i++) {
      const char *name = cuvk_cc_module_kernel_name(cc, i);
      size_t l = strlen(name) + 1;
      uint32_t count;
      const struct cuvk_cc_param *kp = cuvk_cc_module_kernel_params(cc, i, &count);
      memcpy(p, name, l);
      if (count)
         memcpy(param, kp, count * sizeof(*param));
      lib->kernels[i] = (struct cuvk_kernel){
         .lib = lib,
         .name = p,
         .params = param,
         .param_count = count,
         .max_dynamic_shared = -1,
         .carveout = -2,
         .cache_config = -1,
      };
      p += l;
      param += count;
   }
   lib->kernel_count = n;
   cuvk_cc_module_destroy(cc);
   return CUDA_SUCCESS;
}

/* JIT options are hints to NVIDIA's code generator (cuModuleLoadDataEx
 * says which); library options are accepted for what they are: cuvk
 * always keeps its own copy of the image, and the host function table
 * serves cuLibraryGetUnifiedFunction / cuLibraryGetManaged, which cuvk
 * does not implement. */
static CUresult
library_options(const char *entry, CUjit_option *jit, void **jit_values, unsigned jit_count,
                CUlibraryOption *opts, void **values, unsigned count)
{
   if (jit_count && (!jit || !jit_values))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %u JIT options without their arrays", entry, jit_count);
   if (count && (!opts || !values))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %u library options without their arrays", entry, count);
   for (unsigned i = 0; i < jit_count; i++) {
      if ((unsigned)jit[i] >= CU_JIT_NUM_OPTIONS)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: JIT option %d is unknown", entry, (int)jit[i]);
   }
   for (unsigned i = 0; i < count; i++) {
      if ((unsigned)opts[i] >= CU_LIBRARY_NUM_OPTIONS)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: library option %d is unknown", entry, (int)opts[i]);
      if (opts[i] == CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE)
         cuvk_logd("%s: the host function and data table is not used (no unified functions in cuvk)", entry);
   }
   return CUDA_SUCCESS;
}

/* The last reference is gone: after cuLibraryUnload, once no call that
 * found the library or one of its kernels is still using it.  Each
 * context's module goes the way cuModuleUnload sends it (freed once that
 * context's queued work is done with it), but for a context being
 * destroyed: its teardown frees the module, and it must not find the
 * library, so every link is cut first. */
static void
library_last_put(struct cuvk_object *obj)
{
   struct cuvk_library *lib = cuvk_container_of(obj, struct cuvk_library, base);
   struct cuvk_list gone;
   cuvk_list_init(&gone);
   pthread_mutex_lock(&library_links);
   cuvk_list_for_each_entry_safe(struct library_load, l, &lib->loads, link) {
      cuvk_list_del(&l->link);
      l->mod->library = NULL;
      /* While the load is listed, its context's teardown has not passed
       * this module (cuvk_library_module_gone), so the module is there;
       * a reference keeps the context from starting one until the
       * unload is done, and fails when one has started. */
      if (cuvk_object_get(l->ctx, CUVK_OBJECT_CONTEXT))
         cuvk_list_addtail(&l->link, &gone);
      else
         free(l);
   }
   pthread_mutex_unlock(&library_links);
   cuvk_list_for_each_entry_safe(struct library_load, l, &gone, link) {
      cuvk_module_unload(l->mod);
      cuvk_context_put(l->ctx);
      free(l);
   }
   library_free(lib);
}

static CUresult
library_load(CUlibrary *out, const void *image, size_t size, const char *entry)
{
   char *ptx;
   size_t len;
   uint32_t arch;
   if (!out)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: library is NULL", entry);
   CUresult res = cuvk_image_ptx(image, size, entry, &ptx, &len, &arch);
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_library *lib = calloc(1, sizeof(*lib));
   if (!lib) {
      free(ptx);
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
   }
   pthread_mutex_init(&lib->lock, NULL);
   cuvk_list_init(&lib->loads);
   lib->ptx = ptx;
   lib->len = len;
   res = library_index(lib, entry);
   if (res != CUDA_SUCCESS) {
      library_free(lib);
      return res;
   }
   cuvk_object_add(&lib->base, CUVK_OBJECT_LIBRARY, library_last_put);
   for (size_t i = 0; i < lib->kernel_count; i++)
      cuvk_object_add_owned(&lib->kernels[i].base, CUVK_OBJECT_KERNEL, &lib->base);
   cuvk_logd("%s: %zu kernels", entry, lib->kernel_count);
   *out = (CUlibrary)lib;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions, void **jitOptionsValues,
                  unsigned int numJitOptions, CUlibraryOption *libraryOptions, void **libraryOptionValues,
                  unsigned int numLibraryOptions)
{
   CUresult res = cuvk_driver_check("cuLibraryLoadData");
   if (res == CUDA_SUCCESS)
      res = library_options("cuLibraryLoadData", jitOptions, jitOptionsValues, numJitOptions, libraryOptions,
                            libraryOptionValues, numLibraryOptions);
   if (res != CUDA_SUCCESS)
      return res;
   return library_load(library, code, SIZE_MAX, "cuLibraryLoadData");
}

CUVK_EXPORT CUresult CUDAAPI
cuLibraryLoadFromFile(CUlibrary *library, const char *fileName, CUjit_option *jitOptions, void **jitOptionsValues,
                      unsigned int numJitOptions, CUlibraryOption *libraryOptions, void **libraryOptionValues,
                      unsigned int numLibraryOptions)
{
   const char *entry = "cuLibraryLoadFromFile";
   CUresult res = cuvk_driver_check(entry);
   if (res == CUDA_SUCCESS)
      res = library_options(entry, jitOptions, jitOptionsValues, numJitOptions, libraryOptions,
                            libraryOptionValues, numLibraryOptions);
   if (res != CUDA_SUCCESS)
      return res;
   if (!fileName)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: fileName is NULL", entry);
   char *data;
   size_t size;
   res = cuvk_module_read_file(fileName, entry, &data, &size);
   if (res != CUDA_SUCCESS)
      return res;
   res = library_load(library, data, size + 1, entry);
   free(data);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuLibraryUnload(CUlibrary library)
{
   struct cuvk_library *lib;
   CUresult res = library_lookup(library, "cuLibraryUnload", &lib);
   if (res != CUDA_SUCCESS)
      return res;
   /* The kernels leave the table first: their references are the
    * library's, so none may be found once the table's reference goes. */
   pthread_mutex_lock(&lib->lock);
   bool first = cuvk_object_is(lib, CUVK_OBJECT_LIBRARY);
   if (first) {
      for (size_t i = 0; i < lib->kernel_count; i++)
         cuvk_object_remove(&lib->kernels[i].base);
      cuvk_object_release(&lib->base);
   }
   pthread_mutex_unlock(&lib->lock);
   cuvk_object_put(&lib->base);
   if (!first)
      return cuvk_error(CUDA_ERROR_INVALID_HANDLE, "cuLibraryUnload: %p was unloaded by another thread",
                        (void *)library);
   return CUDA_SUCCESS;
}

void
cuvk_library_module_gone(struct cuvk_module *mod)
{
   pthread_mutex_lock(&library_links);
   struct cuvk_library *lib = mod->library;
   if (lib) {
      cuvk_list_for_each_entry_safe(struct library_load, l, &lib->loads, link) {
         if (l->mod == mod) {
            cuvk_list_del(&l->link);
            free(l);
            break;
         }
      }
      mod->library = NULL;
   }
   pthread_mutex_unlock(&library_links);
}

/* lib's module in ctx, loaded now if it is not there yet.  lib->lock
 * held (one load at a time), and the caller holds lib and ctx, so neither
 * the library's last put nor ctx's teardown can take the module. */
static CUresult
library_module_locked(struct cuvk_library *lib, struct cuvk_context *ctx, const char *entry,
                      struct cuvk_module **out)
{
   struct cuvk_module *found = NULL;
   pthread_mutex_lock(&library_links);
   cuvk_list_for_each_entry(struct library_load, l, &lib->loads, link) {
      if (l->ctx == ctx) {
         found = l->mod;
         break;
      }
   }
   pthread_mutex_unlock(&library_links);
   if (found) {
      *out = found;
      return CUDA_SUCCESS;
   }
   struct library_load *l = calloc(1, sizeof(*l));
   if (!l)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory", entry);
   CUresult res = cuvk_module_load_in(ctx, lib->ptx, lib->len + 1, entry, &l->mod);
   if (res != CUDA_SUCCESS) {
      free(l);
      return res;
   }
   l->ctx = ctx;
   pthread_mutex_lock(&library_links);
   l->mod->library = lib;
   cuvk_list_addtail(&l->link, &lib->loads);
   pthread_mutex_unlock(&library_links);
   *out = l->mod;
   return CUDA_SUCCESS;
}

static CUresult
library_module(struct cuvk_library *lib, struct cuvk_context *ctx, const char *entry, struct cuvk_module **out)
{
   pthread_mutex_lock(&lib->lock);
   CUresult res = library_module_locked(lib, ctx, entry, out);
   pthread_mutex_unlock(&lib->lock);
   return res;
}

CUresult
cuvk_kernel_function(CUkernel hkernel, struct cuvk_context *ctx, const char *entry, struct cuvk_function **out)
{
   /* Callers that only checked the handle hold nothing yet: a library
    * unloaded meanwhile is a dead handle. */
   struct cuvk_kernel *k KERNEL_HELD = NULL;
   CUresult res = kernel_lookup(hkernel, entry, &k);
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_library *lib = k->lib;
   struct cuvk_module *mod;
   CUfunction hfunc;
   pthread_mutex_lock(&lib->lock);
   res = library_module_locked(lib, ctx, entry, &mod);
   if (res == CUDA_SUCCESS)
      res = cuModuleGetFunction(&hfunc, (CUmodule)mod, k->name);
   if (res != CUDA_SUCCESS)
      goto out;
   struct cuvk_function *f = (struct cuvk_function *)hfunc;
   if (f->kernel_attr_gen != k->gen) {
      if (k->max_dynamic_shared >= 0)
         res = cuFuncSetAttribute(hfunc, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k->max_dynamic_shared);
      if (res == CUDA_SUCCESS && k->cache_config >= 0)
         res = cuFuncSetCacheConfig(hfunc, (CUfunc_cache)k->cache_config);
      if (res != CUDA_SUCCESS)
         goto out;
      f->kernel_attr_gen = k->gen;
   }
   *out = f;
out:
   pthread_mutex_unlock(&lib->lock);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name)
{
   struct cuvk_library *lib LIBRARY_HELD = NULL;
   CUresult res = library_lookup(library, "cuLibraryGetKernel", &lib);
   if (res != CUDA_SUCCESS)
      return res;
   if (!pKernel || !name)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuLibraryGetKernel: NULL argument");
   for (size_t i = 0; i < lib->kernel_count; i++) {
      if (strcmp(lib->kernels[i].name, name) == 0) {
         *pKernel = (CUkernel)&lib->kernels[i];
         return CUDA_SUCCESS;
      }
   }
   return cuvk_error(CUDA_ERROR_NOT_FOUND, "cuLibraryGetKernel: the library has no kernel %s", name);
}

CUVK_EXPORT CUresult CUDAAPI
cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib)
{
   struct cuvk_library *l LIBRARY_HELD = NULL;
   CUresult res = library_lookup(lib, "cuLibraryGetKernelCount", &l);
   if (res != CUDA_SUCCESS)
      return res;
   if (!count)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuLibraryGetKernelCount: count is NULL");
   *count = (unsigned)l->kernel_count;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int numKernels, CUlibrary lib)
{
   struct cuvk_library *l LIBRARY_HELD = NULL;
   CUresult res = library_lookup(lib, "cuLibraryEnumerateKernels", &l);
   if (res != CUDA_SUCCESS)
      return res;
   if (!kernels || numKernels == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuLibraryEnumerateKernels: no array to fill");
   /* The first numKernels, in the image's order. */
   for (size_t i = 0; i < l->kernel_count && i < numKernels; i++)
      kernels[i] = (CUkernel)&l->kernels[i];
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuLibraryGetModule(CUmodule *pMod, CUlibrary library)
{
   struct cuvk_library *lib LIBRARY_HELD = NULL;
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   struct cuvk_module *mod;
   CUresult res = library_lookup(library, "cuLibraryGetModule", &lib);
   if (res == CUDA_SUCCESS)
      res = cuvk_context_current("cuLibraryGetModule", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!pMod)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuLibraryGetModule: pMod is NULL");
   res = library_module(lib, ctx, "cuLibraryGetModule", &mod);
   if (res == CUDA_SUCCESS)
      *pMod = (CUmodule)mod;
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name)
{
   struct cuvk_library *lib LIBRARY_HELD = NULL;
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   struct cuvk_module *mod;
   CUresult res = library_lookup(library, "cuLibraryGetGlobal", &lib);
   if (res == CUDA_SUCCESS)
      res = cuvk_context_current("cuLibraryGetGlobal", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!name)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuLibraryGetGlobal: name is NULL");
   res = library_module(lib, ctx, "cuLibraryGetGlobal", &mod);
   if (res != CUDA_SUCCESS)
      return res;
   return cuModuleGetGlobal_v2(dptr, bytes, (CUmodule)mod, name);
}

CUVK_EXPORT CUresult CUDAAPI
cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel)
{
   struct cuvk_kernel *k KERNEL_HELD = NULL;
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   struct cuvk_function *f;
   CUresult res = kernel_lookup(kernel, "cuKernelGetFunction", &k);
   if (res == CUDA_SUCCESS)
      res = cuvk_context_current("cuKernelGetFunction", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!pFunc)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuKernelGetFunction: pFunc is NULL");
   res = cuvk_kernel_function(kernel, ctx, "cuKernelGetFunction", &f);
   if (res == CUDA_SUCCESS)
      *pFunc = (CUfunction)f;
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel)
{
   struct cuvk_kernel *k KERNEL_HELD = NULL;
   CUresult res = kernel_lookup(kernel, "cuKernelGetLibrary", &k);
   if (res != CUDA_SUCCESS)
      return res;
   if (!pLib)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuKernelGetLibrary: pLib is NULL");
   *pLib = (CUlibrary)k->lib;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuKernelGetName(const char **name, CUkernel hfunc)
{
   if (!name || !hfunc)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuKernelGetName: NULL argument");
   struct cuvk_kernel *k KERNEL_HELD = NULL;
   CUresult res = kernel_lookup(hfunc, "cuKernelGetName", &k);
   if (res != CUDA_SUCCESS)
      return res;
   *name = k->name;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
   struct cuvk_kernel *k KERNEL_HELD = NULL;
   CUresult res = kernel_lookup(kernel, "cuKernelGetParamInfo", &k);
   if (res != CUDA_SUCCESS)
      return res;
   /* The layout is the library's, known since it was parsed: no context
    * needs to have the kernel. */
   return cuvk_param_info(k->params, k->param_count, paramIndex, paramOffset, paramSize,
                          "cuKernelGetParamInfo");
}

/* The current context, which must be on dev: a kernel's per-device
 * attributes are read through its function there.  cuvk does not make a
 * context for the query alone. */
static CUresult
kernel_context(const char *entry, CUdevice dev, struct cuvk_context **ctx)
{
   int count = 0;
   CUresult res = cuDeviceGetCount(&count);
   if (res != CUDA_SUCCESS)
      return res;
   if (dev < 0 || dev >= count)
      return cuvk_error(CUDA_ERROR_INVALID_DEVICE, "%s: device %d does not exist", entry, dev);
   res = cuvk_context_current(entry, ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if ((*ctx)->dev->ordinal != dev)
      return cuvk_error(CUDA_ERROR_INVALID_CONTEXT, "%s: the current context is on device %d, not %d", entry,
                        (*ctx)->dev->ordinal, dev);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev)
{
   struct cuvk_kernel *k KERNEL_HELD = NULL;
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   struct cuvk_function *f;
   CUresult res = kernel_lookup(kernel, "cuKernelGetAttribute", &k);
   if (res == CUDA_SUCCESS)
      res = kernel_context("cuKernelGetAttribute", dev, &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!pi)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuKernelGetAttribute: pi is NULL");
   res = cuvk_kernel_function(kernel, ctx, "cuKernelGetAttribute", &f);
   if (res != CUDA_SUCCESS)
      return res;
   /* What cuKernelSetAttribute set is what the kernel reports, even where
    * cuFuncSetAttribute has since changed the function. */
   pthread_mutex_lock(&k->lib->lock);
   int dyn = k->max_dynamic_shared, carveout = k->carveout;
   pthread_mutex_unlock(&k->lib->lock);
   if (attrib == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES && dyn >= 0) {
      *pi = dyn;
      return CUDA_SUCCESS;
   }
   if (attrib == CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT && carveout >= -1) {
      *pi = carveout;
      return CUDA_SUCCESS;
   }
   return cuFuncGetAttribute(pi, attrib, (CUfunction)f);
}

CUVK_EXPORT CUresult CUDAAPI
cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev)
{
   struct cuvk_kernel *k KERNEL_HELD = NULL;
   int count = 0;
   CUresult res = kernel_lookup(kernel, "cuKernelSetAttribute", &k);
   if (res == CUDA_SUCCESS)
      res = cuDeviceGetCount(&count);
   if (res != CUDA_SUCCESS)
      return res;
   if (dev < 0 || dev >= count)
      return cuvk_error(CUDA_ERROR_INVALID_DEVICE, "cuKernelSetAttribute: device %d does not exist", dev);
   int limit = 0;
   switch (attrib) {
   case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      res = cuDeviceGetAttribute(&limit, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev);
      if (res != CUDA_SUCCESS)
         return res;
      /* The kernel's static shared bytes count against the limit too;
       * that is checked when a context's function takes the value. */
      if (val < 0 || val > limit)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuKernelSetAttribute: %d bytes of dynamic shared memory, "
                           "the device has %d", val, limit);
      pthread_mutex_lock(&k->lib->lock);
      k->max_dynamic_shared = val;
      k->gen++;
      pthread_mutex_unlock(&k->lib->lock);
      return CUDA_SUCCESS;
   case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
      /* A hint about the L1/shared split, which Vulkan does not expose. */
      if (val < -1 || val > 100)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuKernelSetAttribute: carveout %d is not -1..100", val);
      pthread_mutex_lock(&k->lib->lock);
      k->carveout = val;
      pthread_mutex_unlock(&k->lib->lock);
      return CUDA_SUCCESS;
   default:
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuKernelSetAttribute: attribute %d cannot be set",
                        (int)attrib);
   }
}

CUVK_EXPORT CUresult CUDAAPI
cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev)
{
   struct cuvk_kernel *k KERNEL_HELD = NULL;
   int count = 0;
   CUresult res = kernel_lookup(kernel, "cuKernelSetCacheConfig", &k);
   if (res == CUDA_SUCCESS)
      res = cuDeviceGetCount(&count);
   if (res != CUDA_SUCCESS)
      return res;
   if (dev < 0 || dev >= count)
      return cuvk_error(CUDA_ERROR_INVALID_DEVICE, "cuKernelSetCacheConfig: device %d does not exist", dev);
   if ((unsigned)config > CU_FUNC_CACHE_PREFER_EQUAL)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuKernelSetCacheConfig: %d is not a cache preference",
                        (int)config);
   pthread_mutex_lock(&k->lib->lock);
   k->cache_config = (int)config;
   k->gen++;
   pthread_mutex_unlock(&k->lib->lock);
   return CUDA_SUCCESS;
}
