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

#endif
