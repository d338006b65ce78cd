/*
 * The CUDA runtime API (cuda_runtime_api.h) on top of cuvk's driver API.
 *
 * The runtime adds three things to the driver: implicit initialisation
 * (the first call that needs a device makes the current device's primary
 * context current, see device.c), a per-thread "last error" that
 * every call updates, and its own result codes, which share the driver's
 * numbers wherever both have the condition.
 *
 * Every entry point returns through cuvk_rt_return(), which records the
 * result as the thread's last error (cudaErrorNotReady excepted: it is a
 * state, not an error, and real CUDA does not record it either).
 */
#ifndef CUVK_API_RUNTIME_H
#define CUVK_API_RUNTIME_H

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/list.h"
#include "util/rb_tree.h"

/* The runtime result for a driver result. */
cudaError_t cuvk_rt_from_cu(CUresult res);

/* Records err as the calling thread's last error unless it is success or
 * cudaErrorNotReady; returns it. */
cudaError_t cuvk_rt_return(cudaError_t err);

/* cuvk_rt_return(cuvk_rt_from_cu(res)). */
static inline cudaError_t
cuvk_rt_return_cu(CUresult res)
{
   return cuvk_rt_return(cuvk_rt_from_cu(res));
}

/* Logs a runtime-only error (one the driver never reports, such as an
 * invalid copy direction) with file and line, and evaluates to err. */
cudaError_t cuvk_rt_error_at(cudaError_t err, const char *file, int line, const char *fmt, ...)
   __attribute__((format(printf, 4, 5)));
#define cuvk_rt_error(err, ...) cuvk_rt_error_at((err), __FILE__, __LINE__, __VA_ARGS__)

/* Initialises the driver once (cuInit); cudaSuccess or the reason it
 * cannot run (cudaErrorNoDevice, ...). */
cudaError_t cuvk_rt_init(void);

/* Makes sure the calling thread has a live current context: the one it
 * has, or else the primary context of its current device, retained and
 * made current.  What nearly every runtime call does first. */
cudaError_t cuvk_rt_context(void);

/* ---- Channel descriptions (array.c) ---- */

/* The driver's format and channel count for a runtime channel description:
 * cudaErrorInvalidValue (NULL) or cudaErrorInvalidChannelDescriptor
 * (logged, naming entry) when it names none. */
cudaError_t cuvk_rt_format_from_desc(const struct cudaChannelFormatDesc *d, const char *entry,
                                     CUarray_format *format, unsigned *channels);

/* The channel description of a driver format (cudaArrayGetInfo,
 * cudaGetChannelDesc). */
struct cudaChannelFormatDesc cuvk_rt_desc_from_format(CUarray_format format, unsigned channels);

/* The driver's copy for a runtime 3D copy (array.c): each side an array
 * (position and extent in its elements) or pitched memory, the memory
 * types from the kind.  Logged, naming entry, for a copy CUDA refuses
 * before it runs: cudaErrorInvalidValue for p NULL or a side with both or
 * neither of an array and a pointer, cudaErrorInvalidMemcpyDirection for
 * a kind outside the enum, a dead array's error for a dead array.  Needs
 * the calling thread's context (cuvk_rt_context) for the arrays.  What
 * cudaMemcpy3D(Async) run and what a graph's memcpy node holds. */
cudaError_t cuvk_rt_memcpy3d_desc(const struct cudaMemcpy3DParms *p, const char *entry, CUDA_MEMCPY3D *out);

/* ---- Kernels and variables nvcc registered (registration.c) ---- */

struct cuvk_rt_fatbin;

struct cuvk_rt_kernel {
   struct cuvk_rb_node host_node;   /* keyed by the host stub's address */
   struct cuvk_rb_node handle_node; /* keyed by this struct: its cudaKernel_t */
   struct cuvk_list link;           /* in its fatbin */
   struct cuvk_rt_fatbin *fatbin;
   const void *host;
   uint32_t index;                  /* in its fatbin, registration order */
   char *name;                      /* in the PTX */
};

struct cuvk_rt_var {
   struct cuvk_rb_node host_node;   /* keyed by the host shadow's address */
   struct cuvk_list link;
   struct cuvk_rt_fatbin *fatbin;
   const void *host;
   size_t size;
   bool constant;
   bool managed;
   char *name;
};

/* The kernel func names: its host stub's address or its cudaKernel_t;
 * cudaErrorInvalidResourceHandle (logged) when it is neither, as CUDA 13
 * says (it takes the address for a cudaKernel_t). */
cudaError_t cuvk_rt_kernel_find(const void *func, const char *entry, struct cuvk_rt_kernel **out);

/* The variable at host address symbol; cudaErrorInvalidSymbol otherwise. */
cudaError_t cuvk_rt_var_find(const void *symbol, const char *entry, struct cuvk_rt_var **out);

/* k loaded in the calling thread's context (made current as every
 * runtime call does): its module loaded at the fatbin's first use there,
 * the kernel translated at its own. */
cudaError_t cuvk_rt_kernel_function(struct cuvk_rt_kernel *k, const char *entry, CUfunction *out);

/* cuvk_rt_kernel_find + cuvk_rt_kernel_function. */
cudaError_t cuvk_rt_function(const void *func, const char *entry, CUfunction *out);

/* The variable's device address and size in the calling thread's
 * context, loading its module there at first use. */
cudaError_t cuvk_rt_var_address(const void *symbol, const char *entry, CUdeviceptr *dptr, size_t *size);

/* The runtime's checks of a launch configuration for f, as cudaLaunchKernel
 * makes them (cudaErrorInvalidValue for a bad grid, block or shared
 * size; cudaErrorInvalidResourceHandle for a function no longer loaded),
 * logged naming entry.  Also what a graph's kernel node is checked
 * against when added. */
cudaError_t cuvk_rt_launch_check(CUfunction f, dim3 grid, dim3 block, size_t shared, const char *entry);

/* Launches f with the runtime's checks of the configuration
 * (cudaErrorInvalidValue for a bad grid or block, as CUDA 13). */
cudaError_t cuvk_rt_launch(CUfunction f, dim3 grid, dim3 block, void **args, size_t shared,
                           cudaStream_t stream, const char *entry);

#endif
