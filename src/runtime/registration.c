/*
 * The calls nvcc's generated host code makes into the runtime
 * (crt/host_runtime.h, crt/device_functions.h): before main(), one
 * __cudaRegisterFatBinary per translation unit with device code, then
 * __cudaRegisterFunction / __cudaRegisterVar / __cudaRegisterManagedVar
 * for each kernel and variable in it, __cudaRegisterFatBinaryEnd, and an
 * atexit handler that calls __cudaUnregisterFatBinary; for each
 * `kernel<<<grid, block, shared, stream>>>(args)`,
 * __cudaPushCallConfiguration, then in the kernel's host stub
 * __cudaPopCallConfiguration, __cudaGetKernel (once per stub) and
 * __cudaLaunchKernel.
 *
 * Registration only records: the fatbin wrapper's address and, for each
 * kernel and variable, its host address and device name.  Nothing is
 * parsed or translated, and no device is touched, until a kernel of that
 * fatbin is launched or one of its symbols looked up (rt_fatbin_module):
 * then the fatbin's PTX is loaded as a module into the calling thread's
 * current context, once per context, and each kernel is translated at
 * its own first use.  A program with hundreds of kernels so starts as
 * fast as one with none, and a kernel that is never launched costs
 * nothing.
 *
 * The parameters are NVIDIA's (crt/host_runtime.h, fact of its ABI).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_api/context.h"
#include "cuda_api/fatbin.h"
#include "runtime/runtime.h"
#include "util/log.h"
#include "util/macros.h"
#include "util/rb_tree.h"

/* One context's copy of a fatbin: the module loaded from it and each
 * kernel's function, filled at the kernel's first use.  Records are only
 * ever added, at the head, so readers walk the list without a lock; a
 * record whose context is gone is never matched again (context ids are
 * unique in the process) and is freed with the fatbin. */
struct rt_loaded {
   struct rt_loaded *next;
   unsigned long long ctx_id;
   CUmodule mod;
   uint32_t kernel_count;
   CUfunction funcs[];
};

struct cuvk_rt_fatbin {
   const void *wrapper;       /* the program's __fatDeviceText */
   struct cuvk_list link;     /* in rt_fatbins */
   struct cuvk_list kernels;  /* struct cuvk_rt_kernel, by registration order */
   struct cuvk_list vars;     /* struct cuvk_rt_var */
   uint32_t kernel_count;
   uint32_t var_count;
   bool has_managed;
   pthread_mutex_t load_lock; /* one module load at a time */
   struct rt_loaded *loaded;  /* atomic head */
};

/* Every registered fatbin, and the host addresses of their kernels and
 * variables (and the kernels' own handles), under rt_reg_lock. */
static pthread_rwlock_t rt_reg_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct cuvk_list rt_fatbins = {&rt_fatbins, &rt_fatbins};
static struct cuvk_rb_tree rt_kernels_by_host;
static struct cuvk_rb_tree rt_kernel_handles;
static struct cuvk_rb_tree rt_vars_by_host;
static bool rt_reg_ready;

static void
rt_reg_init_locked(void)
{
   if (!rt_reg_ready) {
      cuvk_rb_tree_init(&rt_kernels_by_host);
      cuvk_rb_tree_init(&rt_kernel_handles);
      cuvk_rb_tree_init(&rt_vars_by_host);
      rt_reg_ready = true;
   }
}

/* The fatbin a handle from __cudaRegisterFatBinary names, or NULL. */
static struct cuvk_rt_fatbin *
rt_fatbin_from_handle(void **handle, const char *entry)
{
   struct cuvk_rt_fatbin *found = NULL;
   if (handle) {
      pthread_rwlock_rdlock(&rt_reg_lock);
      cuvk_list_for_each_entry(struct cuvk_rt_fatbin, fb, &rt_fatbins, link) {
         if ((void **)fb == handle) {
            found = fb;
            break;
         }
      }
      pthread_rwlock_unlock(&rt_reg_lock);
   }
   if (!found)
      cuvk_loge("%s: %p is not a registered fatbinary handle", entry, (void *)handle);
   return found;
}

CUVK_EXPORT void **CUDARTAPI __cudaRegisterFatBinary(void *fatCubin);
CUVK_EXPORT void **CUDARTAPI
__cudaRegisterFatBinary(void *fatCubin)
{
   /* The wrapper nvcc writes: { int magic, version; const unsigned long
    * long *data; void *filename_or_fatbins; } (fatbinary_section.h).
    * Only the magic is checked now; the container is read at first use. */
   if (!fatCubin || *(const uint32_t *)fatCubin != CUVK_FATBIN_WRAPPER_MAGIC) {
      cuvk_loge("__cudaRegisterFatBinary(%p): not an nvcc fatbinary wrapper (magic 0x%08x); this "
                "translation unit's kernels will not launch", fatCubin,
                fatCubin ? *(const uint32_t *)fatCubin : 0u);
      return NULL;
   }
   struct cuvk_rt_fatbin *fb = calloc(1, sizeof(*fb));
   if (!fb) {
      cuvk_loge("__cudaRegisterFatBinary: out of host memory");
      return NULL;
   }
   fb->wrapper = fatCubin;
   cuvk_list_init(&fb->kernels);
   cuvk_list_init(&fb->vars);
   pthread_mutex_init(&fb->load_lock, NULL);
   pthread_rwlock_wrlock(&rt_reg_lock);
   rt_reg_init_locked();
   cuvk_list_addtail(&fb->link, &rt_fatbins);
   pthread_rwlock_unlock(&rt_reg_lock);
   cuvk_logd("__cudaRegisterFatBinary(%p): handle %p", fatCubin, (void *)fb);
   /* The generated code keeps this and hands it back to every call
    * below; it only needs to be unique and not NULL. */
   return (void **)fb;
}

CUVK_EXPORT void CUDARTAPI __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
CUVK_EXPORT void CUDARTAPI
__cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
   /* Nothing to finish: each kernel and variable was entered as it came. */
   struct cuvk_rt_fatbin *fb = rt_fatbin_from_handle(fatCubinHandle, "__cudaRegisterFatBinaryEnd");
   if (fb)
      cuvk_logd("fatbinary %p: %u kernels, %u variables registered", (void *)fb, fb->kernel_count,
             fb->var_count);
}

/* Forgets fb's modules without unloading them.  Unregistration runs from
 * atexit, after the destructors of every library loaded since the
 * program's constructors ran: the Vulkan loader's layers (the validation
 * layer's state, for one) may be gone by then, so no Vulkan call is safe.
 * The modules stay with their contexts and are freed with them
 * (cudaDeviceReset, cuDevicePrimaryCtxReset, or the process's end);
 * nothing in them points into the program, whose fatbin they copied. */
static void
rt_fatbin_forget_modules(struct cuvk_rt_fatbin *fb)
{
   struct rt_loaded *l = __atomic_load_n(&fb->loaded, __ATOMIC_ACQUIRE);
   while (l) {
      struct rt_loaded *next = l->next;
      free(l);
      l = next;
   }
   fb->loaded = NULL;
}

CUVK_EXPORT void CUDARTAPI __cudaUnregisterFatBinary(void **fatCubinHandle);
CUVK_EXPORT void CUDARTAPI
__cudaUnregisterFatBinary(void **fatCubinHandle)
{
   struct cuvk_rt_fatbin *fb = rt_fatbin_from_handle(fatCubinHandle, "__cudaUnregisterFatBinary");
   if (!fb)
      return;
   pthread_rwlock_wrlock(&rt_reg_lock);
   cuvk_list_del(&fb->link);
   cuvk_list_for_each_entry_safe(struct cuvk_rt_kernel, k, &fb->kernels, link) {
      cuvk_rb_tree_remove(&rt_kernels_by_host, &k->host_node);
      cuvk_rb_tree_remove(&rt_kernel_handles, &k->handle_node);
      free(k);
   }
   cuvk_list_for_each_entry_safe(struct cuvk_rt_var, v, &fb->vars, link) {
      cuvk_rb_tree_remove(&rt_vars_by_host, &v->host_node);
      free(v);
   }
   pthread_rwlock_unlock(&rt_reg_lock);
   rt_fatbin_forget_modules(fb);
   pthread_mutex_destroy(&fb->load_lock);
   free(fb);
}

/* Enters node under the host address key; false (logged) when another
 * kernel or variable has it. */
static bool
rt_insert_host(struct cuvk_rb_tree *tree, struct cuvk_rb_node *node, const void *host, const char *entry,
               const char *name)
{
   if (!host || !cuvk_rb_tree_insert(tree, node, (uint64_t)(uintptr_t)host)) {
      cuvk_loge("%s(%s): host address %p is NULL or registered already", entry, name, host);
      return false;
   }
   return true;
}

/* A copy of name with room for the rest of an entry of size bytes;
 * NULL when out of memory. */
static void *
rt_alloc_named(size_t size, size_t name_offset, const char *name)
{
   size_t len = strlen(name);
   char *p = calloc(1, size + len + 1);
   if (p) {
      memcpy(p + size, name, len + 1);
      *(char **)(p + name_offset) = p + size;
   }
   return p;
}

CUVK_EXPORT void CUDARTAPI __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun,
                                                  char *deviceFun, const char *deviceName,
                                                  int thread_limit, void *tid, void *bid,
                                                  void *bDim, void *gDim, int *wSize);
CUVK_EXPORT void CUDARTAPI
__cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                       const char *deviceName, int thread_limit, void *tid, void *bid,
                       void *bDim, void *gDim, int *wSize)
{
   (void)deviceName, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
   struct cuvk_rt_fatbin *fb = rt_fatbin_from_handle(fatCubinHandle, "__cudaRegisterFunction");
   /* deviceFun is the kernel's name in the PTX (mangled); deviceName is
    * the same text as nvcc spells it in the stub. */
   if (!fb)
      return;
   if (!deviceFun) {
      cuvk_loge("__cudaRegisterFunction: no name for host function %p", (void *)hostFun);
      return;
   }
   struct cuvk_rt_kernel *k = rt_alloc_named(sizeof(*k), offsetof(struct cuvk_rt_kernel, name), deviceFun);
   if (!k) {
      cuvk_loge("__cudaRegisterFunction(%s): out of host memory", deviceFun);
      return;
   }
   k->fatbin = fb;
   k->host = hostFun;
   pthread_rwlock_wrlock(&rt_reg_lock);
   if (!rt_insert_host(&rt_kernels_by_host, &k->host_node, hostFun, "__cudaRegisterFunction", deviceFun)) {
      pthread_rwlock_unlock(&rt_reg_lock);
      free(k);
      return;
   }
   cuvk_rb_tree_insert(&rt_kernel_handles, &k->handle_node, (uint64_t)(uintptr_t)k);
   k->index = fb->kernel_count++;
   cuvk_list_addtail(&k->link, &fb->kernels);
   pthread_rwlock_unlock(&rt_reg_lock);
}

static void
rt_register_var(void **fatCubinHandle, const void *host, const char *deviceName, size_t size, int constant,
                bool managed, const char *entry)
{
   struct cuvk_rt_fatbin *fb = rt_fatbin_from_handle(fatCubinHandle, entry);
   if (!fb)
      return;
   if (!deviceName) {
      cuvk_loge("%s: no name for host variable %p", entry, host);
      return;
   }
   struct cuvk_rt_var *v = rt_alloc_named(sizeof(*v), offsetof(struct cuvk_rt_var, name), deviceName);
   if (!v) {
      cuvk_loge("%s(%s): out of host memory", entry, deviceName);
      return;
   }
   v->fatbin = fb;
   v->host = host;
   v->size = size;
   v->constant = constant != 0;
   v->managed = managed;
   pthread_rwlock_wrlock(&rt_reg_lock);
   if (!rt_insert_host(&rt_vars_by_host, &v->host_node, host, entry, deviceName)) {
      pthread_rwlock_unlock(&rt_reg_lock);
      free(v);
      return;
   }
   fb->var_count++;
   fb->has_managed |= managed;
   cuvk_list_addtail(&v->link, &fb->vars);
   pthread_rwlock_unlock(&rt_reg_lock);
}

CUVK_EXPORT void CUDARTAPI __cudaRegisterVar(void **fatCubinHandle, char *hostVar,
                                             char *deviceAddress, const char *deviceName,
                                             int ext, size_t size, int constant, int global);
CUVK_EXPORT void CUDARTAPI
__cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress, const char *deviceName,
                  int ext, size_t size, int constant, int global)
{
   /* deviceAddress is the variable's name again; ext and global say
    * how it was declared, which the module's PTX says too. */
   (void)deviceAddress, (void)ext, (void)global;
   rt_register_var(fatCubinHandle, hostVar, deviceName, size, constant, false, "__cudaRegisterVar");
}

/* A __managed__ variable: nvcc turns the host's view of it into a
 * pointer (hostVarPtrAddress), which host code reads only after
 * __cudaInitModule.  The module loader places the variable in managed
 * memory; when the fatbin's module loads, the pointer is aimed at it
 * (rt_managed_bind), so host code and kernels share its bytes. */
CUVK_EXPORT void CUDARTAPI __cudaRegisterManagedVar(void **fatCubinHandle,
                                                    void **hostVarPtrAddress,
                                                    char *deviceAddress,
                                                    const char *deviceName, int ext,
                                                    size_t size, int constant, int global);
CUVK_EXPORT void CUDARTAPI
__cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                         const char *deviceName, int ext, size_t size, int constant, int global)
{
   (void)deviceAddress, (void)ext, (void)global;
   if (!hostVarPtrAddress) {
      cuvk_loge("__cudaRegisterManagedVar(%s): no host pointer", deviceName ? deviceName : "(null)");
      return;
   }
   rt_register_var(fatCubinHandle, hostVarPtrAddress, deviceName, size, constant, true,
                   "__cudaRegisterManagedVar");
}

/* NVIDIA's has no public prototype (CUPTI names it): a host variable of
 * a library; registering nothing is all cuvk can do. */
CUVK_EXPORT void CUDARTAPI __cudaRegisterHostVar(void);
CUVK_EXPORT void CUDARTAPI
__cudaRegisterHostVar(void)
{
   cuvk_logw("__cudaRegisterHostVar: not supported by cuvk");
}

/* ---- Lookups and lazy loading ------------------------------------------ */

cudaError_t
cuvk_rt_kernel_find(const void *func, const char *entry, struct cuvk_rt_kernel **out)
{
   struct cuvk_rt_kernel *k = NULL;
   pthread_rwlock_rdlock(&rt_reg_lock);
   if (rt_reg_ready) {
      struct cuvk_rb_node *n = cuvk_rb_tree_search(&rt_kernels_by_host, (uint64_t)(uintptr_t)func);
      if (n) {
         k = cuvk_container_of(n, struct cuvk_rt_kernel, host_node);
      } else {
         n = cuvk_rb_tree_search(&rt_kernel_handles, (uint64_t)(uintptr_t)func);
         if (n)
            k = cuvk_container_of(n, struct cuvk_rt_kernel, handle_node);
      }
   }
   pthread_rwlock_unlock(&rt_reg_lock);
   /* Kernels live until their fatbin is unregistered at exit, so k stays
    * valid after the lock. */
   if (!k)
      return cuvk_rt_error(cudaErrorInvalidResourceHandle, "%s: %p is not a registered kernel", entry, func);
   *out = k;
   return cudaSuccess;
}

cudaError_t
cuvk_rt_var_find(const void *symbol, const char *entry, struct cuvk_rt_var **out)
{
   struct cuvk_rt_var *v = NULL;
   pthread_rwlock_rdlock(&rt_reg_lock);
   if (rt_reg_ready) {
      struct cuvk_rb_node *n = cuvk_rb_tree_search(&rt_vars_by_host, (uint64_t)(uintptr_t)symbol);
      if (n)
         v = cuvk_container_of(n, struct cuvk_rt_var, host_node);
   }
   pthread_rwlock_unlock(&rt_reg_lock);
   if (!v)
      return cuvk_rt_error(cudaErrorInvalidSymbol, "%s: %p is not a registered __device__ or __constant__ "
                           "variable", entry, symbol);
   *out = v;
   return cudaSuccess;
}

/* Aims the host pointers of fb's __managed__ variables at their memory
 * in mod.  A pointer already at a live managed allocation (the module of
 * another context) is left alone: the host sees one copy of each
 * variable, that of the first context to load it, as CUDA's single
 * managed copy would be.  A pointer whose context is gone (after
 * cudaDeviceReset) moves to the new one. */
static void
rt_managed_bind(struct cuvk_rt_fatbin *fb, CUmodule mod, const char *entry)
{
   cuvk_list_for_each_entry(struct cuvk_rt_var, v, &fb->vars, link) {
      if (!v->managed)
         continue;
      void **host = (void **)v->host;
      unsigned int is_managed = 0;
      if (*host && cuPointerGetAttribute(&is_managed, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                         (CUdeviceptr)(uintptr_t)*host) == CUDA_SUCCESS && is_managed)
         continue;
      CUdeviceptr dptr = 0;
      size_t size = 0;
      CUresult res = cuModuleGetGlobal_v2(&dptr, &size, mod, v->name);
      if (res != CUDA_SUCCESS) {
         cuvk_loge("%s: the module has no __managed__ variable %s", entry, v->name);
         continue;
      }
      *host = (void *)(uintptr_t)dptr;
   }
}

/* fb's module in the calling thread's current context, loaded now if
 * this is the first use there. */
static cudaError_t
rt_fatbin_loaded(struct cuvk_rt_fatbin *fb, const char *entry, struct rt_loaded **out)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return err;
   CUcontext cur = NULL;
   CUresult res = cuCtxGetCurrent(&cur);
   if (res != CUDA_SUCCESS || !cur)
      return res != CUDA_SUCCESS ? cuvk_rt_from_cu(res)
                                 : cuvk_rt_error(cudaErrorDeviceUninitialized, "%s: no current context", entry);
   /* Through the driver, which holds the context while it reads it: a
    * destroy on another thread may be under way. */
   unsigned long long id = 0;
   res = cuCtxGetId(cur, &id);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_from_cu(res);

   for (struct rt_loaded *l = __atomic_load_n(&fb->loaded, __ATOMIC_ACQUIRE); l; l = l->next) {
      if (l->ctx_id == id) {
         *out = l;
         return cudaSuccess;
      }
   }
   pthread_mutex_lock(&fb->load_lock);
   struct rt_loaded *l;
   for (l = fb->loaded; l; l = l->next) {
      if (l->ctx_id == id)
         goto out;
   }
   /* Registration is over before any code that could get here runs
    * (it happens in the program's constructors), so the count is final. */
   uint32_t kernels = fb->kernel_count;
   l = calloc(1, sizeof(*l) + kernels * sizeof(l->funcs[0]));
   if (!l) {
      err = cuvk_rt_error(cudaErrorMemoryAllocation, "%s: out of host memory", entry);
      goto out;
   }
   res = cuModuleLoadFatBinary(&l->mod, fb->wrapper);
   if (res != CUDA_SUCCESS) {
      free(l);
      l = NULL;
      /* A fatbin with no PTX for cuvk to translate is, to the program,
       * one without an image for this device. */
      err = res == CUDA_ERROR_NOT_SUPPORTED || res == CUDA_ERROR_NO_BINARY_FOR_GPU
               ? cudaErrorNoKernelImageForDevice : cuvk_rt_from_cu(res);
      cuvk_loge("%s: the fatbinary %p does not load: %s", entry, fb->wrapper, cudaGetErrorName(err));
      goto out;
   }
   l->ctx_id = id;
   l->kernel_count = kernels;
   if (fb->has_managed)
      rt_managed_bind(fb, l->mod, entry);
   l->next = fb->loaded;
   __atomic_store_n(&fb->loaded, l, __ATOMIC_RELEASE);
   cuvk_logd("%s: fatbinary %p loaded in context %llu", entry, fb->wrapper, id);
out:
   pthread_mutex_unlock(&fb->load_lock);
   if (l)
      *out = l;
   return err;
}

/* Called the first time host code touches one of the translation
 * unit's __managed__ variables (nvcc's __nv_init_managed_rt), and once
 * only: the answer is kept.  Loads the fatbin's module in the current
 * context, which aims the variables' host pointers at their managed
 * memory.  Where that fails (logged) the pointers get zeroed host memory,
 * so host code that touches them does not crash; kernels of the unit
 * fail to launch with the load's error. */
CUVK_EXPORT char CUDARTAPI __cudaInitModule(void **fatCubinHandle);
CUVK_EXPORT char CUDARTAPI
__cudaInitModule(void **fatCubinHandle)
{
   struct cuvk_rt_fatbin *fb = rt_fatbin_from_handle(fatCubinHandle, "__cudaInitModule");
   struct rt_loaded *l;
   if (!fb)
      return 0;
   if (!fb->has_managed || rt_fatbin_loaded(fb, "__cudaInitModule", &l) == cudaSuccess)
      return 1;
   pthread_mutex_lock(&fb->load_lock);
   cuvk_list_for_each_entry(struct cuvk_rt_var, v, &fb->vars, link) {
      void **host = (void **)v->host;
      if (v->managed && !*host)
         /* Left for the program's lifetime: host code may read it as
          * late as its static destructors. */
         *host = calloc(1, v->size ? v->size : 1);
   }
   pthread_mutex_unlock(&fb->load_lock);
   return 1;
}

cudaError_t
cuvk_rt_kernel_function(struct cuvk_rt_kernel *k, const char *entry, CUfunction *out)
{
   struct rt_loaded *l;
   cudaError_t err = rt_fatbin_loaded(k->fatbin, entry, &l);
   if (err != cudaSuccess)
      return err;
   if (k->index >= l->kernel_count)
      return cuvk_rt_error(cudaErrorInvalidDeviceFunction, "%s: %s was registered after its module loaded",
                           entry, k->name);
   CUfunction f = __atomic_load_n(&l->funcs[k->index], __ATOMIC_ACQUIRE);
   if (!f) {
      /* Two threads may both get here; the module hands both the same
       * function. */
      CUresult res = cuModuleGetFunction(&f, l->mod, k->name);
      if (res != CUDA_SUCCESS)
         return res == CUDA_ERROR_NOT_FOUND
                   ? cuvk_rt_error(cudaErrorInvalidDeviceFunction, "%s: the module has no kernel %s", entry,
                                   k->name)
                   : cuvk_rt_from_cu(res);
      __atomic_store_n(&l->funcs[k->index], f, __ATOMIC_RELEASE);
   }
   *out = f;
   return cudaSuccess;
}

cudaError_t
cuvk_rt_function(const void *func, const char *entry, CUfunction *out)
{
   struct cuvk_rt_kernel *k;
   cudaError_t err = cuvk_rt_kernel_find(func, entry, &k);
   if (err != cudaSuccess)
      return err;
   return cuvk_rt_kernel_function(k, entry, out);
}

cudaError_t
cuvk_rt_var_address(const void *symbol, const char *entry, CUdeviceptr *dptr, size_t *size)
{
   struct cuvk_rt_var *v;
   struct rt_loaded *l;
   cudaError_t err = cuvk_rt_var_find(symbol, entry, &v);
   if (err != cudaSuccess)
      return err;
   err = rt_fatbin_loaded(v->fatbin, entry, &l);
   if (err != cudaSuccess)
      return err;
   CUresult res = cuModuleGetGlobal_v2(dptr, size, l->mod, v->name);
   if (res != CUDA_SUCCESS)
      return res == CUDA_ERROR_NOT_FOUND
                ? cuvk_rt_error(cudaErrorInvalidSymbol, "%s: the module has no variable %s", entry, v->name)
                : cuvk_rt_from_cu(res);
   return cudaSuccess;
}

/* ---- <<<...>>> ---------------------------------------------------------- */

/* `kernel<<<g, b, s, st>>>(args)` compiles to
 *    __cudaPushCallConfiguration(g, b, s, st) ? (void)0 : kernel(args);
 * and the host stub kernel() pops the configuration before launching.
 * The arguments are evaluated between the two, and may launch kernels
 * of their own, so the configurations form a stack, one per thread. */
#define RT_CALL_STACK_DEPTH 16u

struct rt_call_config {
   dim3 grid, block;
   size_t shared;
   cudaStream_t stream;
};

static _Thread_local struct rt_call_config rt_call_stack[RT_CALL_STACK_DEPTH];
static _Thread_local unsigned rt_call_depth;

/* Returns 0 (go on to the stub) or nonzero (skip the launch).  NVIDIA's
 * header gives the last two parameters defaults, so they are always
 * passed. */
CUVK_EXPORT unsigned CUDARTAPI __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                                           struct CUstream_st *stream);
CUVK_EXPORT unsigned CUDARTAPI
__cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, struct CUstream_st *stream)
{
   if (rt_call_depth >= RT_CALL_STACK_DEPTH) {
      cuvk_rt_return(cuvk_rt_error(cudaErrorNotSupported, "__cudaPushCallConfiguration: launches nested "
                                   "%u deep in their own arguments", rt_call_depth));
      return 1;
   }
   rt_call_stack[rt_call_depth++] = (struct rt_call_config){gridDim, blockDim, sharedMem, stream};
   return 0;
}

CUVK_EXPORT cudaError_t CUDARTAPI __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                                             void *stream);
CUVK_EXPORT cudaError_t CUDARTAPI
__cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream)
{
   /* Called from a stub that was called directly rather than through
    * <<<>>>: there is nothing to launch with. */
   if (rt_call_depth == 0)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorMissingConfiguration, "__cudaPopCallConfiguration: "
                                          "a kernel's host stub was called without <<<...>>>"));
   const struct rt_call_config *c = &rt_call_stack[--rt_call_depth];
   *gridDim = c->grid;
   *blockDim = c->block;
   *sharedMem = c->shared;
   *(cudaStream_t *)stream = c->stream;
   return cudaSuccess;
}

/* The stub asks once for its kernel's handle and keeps it (0 on error,
 * which __cudaLaunchKernel then refuses).  Lazy like the rest: the
 * handle is the registration record, context-free. */
CUVK_EXPORT cudaError_t CUDARTAPI __cudaGetKernel(cudaKernel_t *kernel, const void *func);
CUVK_EXPORT cudaError_t CUDARTAPI
__cudaGetKernel(cudaKernel_t *kernel, const void *func)
{
   struct cuvk_rt_kernel *k;
   if (!kernel)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "__cudaGetKernel: kernel is NULL"));
   cudaError_t err = cuvk_rt_kernel_find(func, "__cudaGetKernel", &k);
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   *kernel = (cudaKernel_t)k;
   return cudaSuccess;
}

static cudaError_t
rt_stub_launch(cudaKernel_t kernel, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream,
               const char *entry)
{
   CUfunction f;
   cudaError_t err = cuvk_rt_function(kernel, entry, &f);
   if (err != cudaSuccess)
      return err;
   return cuvk_rt_launch(f, grid, block, args, shared, stream, entry);
}

CUVK_EXPORT cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                                     void **args, size_t sharedMem, cudaStream_t stream);
CUVK_EXPORT cudaError_t CUDARTAPI
__cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                   cudaStream_t stream)
{
   return cuvk_rt_return(rt_stub_launch(kernel, gridDim, blockDim, args, sharedMem, stream,
                                        "__cudaLaunchKernel"));
}

/* Built with --default-stream per-thread: 0 is the thread's own stream. */
CUVK_EXPORT cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                                          void **args, size_t sharedMem, cudaStream_t stream);
CUVK_EXPORT cudaError_t CUDARTAPI
__cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                        cudaStream_t stream)
{
   return cuvk_rt_return(rt_stub_launch(kernel, gridDim, blockDim, args, sharedMem,
                                        stream ? stream : cudaStreamPerThread, "__cudaLaunchKernel_ptsz"));
}
