/*
 * Runtime external memory: the runtime's descriptors converted to the
 * driver's, then cuImportExternalMemory and friends.
 *
 * A cudaExternalMemory_t is the driver's CUexternalMemory under NVIDIA's
 * other struct tag (CUexternalMemory_st, where cuda.h says CUextMemory_st),
 * so the handle is the same pointer, cast at this boundary.
 */
#include "runtime/runtime.h"

#include <stdint.h>
#include <string.h>

#include "util/macros.h"

/* The enums and flags share their values; the conversion below relies on
 * it rather than translating each one. */
_Static_assert((int)cudaExternalMemoryHandleTypeOpaqueFd == (int)CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD &&
               (int)cudaExternalMemoryHandleTypeOpaqueWin32 == (int)CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32 &&
               (int)cudaExternalMemoryHandleTypeOpaqueWin32Kmt == (int)CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT &&
               (int)cudaExternalMemoryHandleTypeD3D12Heap == (int)CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP &&
               (int)cudaExternalMemoryHandleTypeD3D12Resource == (int)CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE &&
               (int)cudaExternalMemoryHandleTypeD3D11Resource == (int)CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE &&
               (int)cudaExternalMemoryHandleTypeD3D11ResourceKmt == (int)CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT &&
               (int)cudaExternalMemoryHandleTypeNvSciBuf == (int)CU_EXTERNAL_MEMORY_HANDLE_TYPE_NVSCIBUF,
               "runtime and driver external memory handle types differ");
_Static_assert(cudaExternalMemoryDedicated == CUDA_EXTERNAL_MEMORY_DEDICATED,
               "runtime and driver dedicated flags differ");
_Static_assert(sizeof(((struct cudaExternalMemoryHandleDesc *)0)->handle) ==
               sizeof(((CUDA_EXTERNAL_MEMORY_HANDLE_DESC *)0)->handle),
               "runtime and driver handle unions differ");
_Static_assert(sizeof(((struct cudaExternalMemoryHandleDesc *)0)->reserved) ==
               sizeof(((CUDA_EXTERNAL_MEMORY_HANDLE_DESC *)0)->reserved),
               "runtime and driver reserved words differ");

CUVK_EXPORT cudaError_t CUDARTAPI
cudaImportExternalMemory(cudaExternalMemory_t *extMem_out,
                         const struct cudaExternalMemoryHandleDesc *memHandleDesc)
{
   CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc;
   CUexternalMemory ext;

   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   if (!extMem_out || !memHandleDesc)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaImportExternalMemory: NULL argument"));

   /* The handle union is copied whole: which member is meant depends on
    * the type, which the driver checks.  Reserved words go through too, so
    * the driver judges exactly what the program passed. */
   memset(&desc, 0, sizeof(desc));
   desc.type = (CUexternalMemoryHandleType)memHandleDesc->type;
   memcpy(&desc.handle, &memHandleDesc->handle, sizeof(desc.handle));
   desc.size = memHandleDesc->size;
   desc.flags = memHandleDesc->flags;
   memcpy(desc.reserved, memHandleDesc->reserved, sizeof(desc.reserved));

   CUresult res = cuImportExternalMemory(&ext, &desc);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_return_cu(res);
   *extMem_out = (cudaExternalMemory_t)ext;
   return cudaSuccess;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaExternalMemoryGetMappedBuffer(void **devPtr, cudaExternalMemory_t extMem,
                                  const struct cudaExternalMemoryBufferDesc *bufferDesc)
{
   CUDA_EXTERNAL_MEMORY_BUFFER_DESC desc;
   CUdeviceptr dptr;

   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   if (!devPtr || !bufferDesc)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue,
                                          "cudaExternalMemoryGetMappedBuffer: NULL argument"));

   memset(&desc, 0, sizeof(desc));
   desc.offset = bufferDesc->offset;
   desc.size = bufferDesc->size;
   desc.flags = bufferDesc->flags;
   memcpy(desc.reserved, bufferDesc->reserved, sizeof(desc.reserved));

   CUresult res = cuExternalMemoryGetMappedBuffer(&dptr, (CUexternalMemory)extMem, &desc);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_return_cu(res);
   /* Freed with cudaFree, like any device pointer. */
   *devPtr = (void *)(uintptr_t)dptr;
   return cudaSuccess;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaDestroyExternalMemory(cudaExternalMemory_t extMem)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuDestroyExternalMemory((CUexternalMemory)extMem));
}

/* ---- External semaphores ---- */

/* cudaExternalSemaphore_t is CUexternalSemaphore under NVIDIA's other tag
 * (CUexternalSemaphore_st; cuda.h says CUextSemaphore_st), and the
 * descriptors and parameters have the driver's layouts, which the ABI
 * tests hold both headers to. */
_Static_assert((int)cudaExternalSemaphoreHandleTypeOpaqueFd == (int)CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD &&
               (int)cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd ==
                  (int)CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD &&
               (int)cudaExternalSemaphoreHandleTypeTimelineSemaphoreWin32 ==
                  (int)CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_WIN32 &&
               (int)cudaExternalSemaphoreHandleTypeNvSciSync == (int)CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_NVSCISYNC,
               "runtime and driver external semaphore handle types differ");
_Static_assert(sizeof(struct cudaExternalSemaphoreHandleDesc) == sizeof(CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC),
               "runtime and driver semaphore descriptors differ");
_Static_assert(sizeof(struct cudaExternalSemaphoreSignalParams) == sizeof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS) &&
               sizeof(struct cudaExternalSemaphoreWaitParams) == sizeof(CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS),
               "runtime and driver semaphore parameters differ");

CUVK_EXPORT cudaError_t CUDARTAPI
cudaImportExternalSemaphore(cudaExternalSemaphore_t *extSem_out,
                            const struct cudaExternalSemaphoreHandleDesc *semHandleDesc)
{
   CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC desc;
   CUexternalSemaphore sem;

   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   if (!extSem_out || !semHandleDesc)
      return cuvk_rt_return(cuvk_rt_error(cudaErrorInvalidValue, "cudaImportExternalSemaphore: NULL argument"));

   memset(&desc, 0, sizeof(desc));
   desc.type = (CUexternalSemaphoreHandleType)semHandleDesc->type;
   memcpy(&desc.handle, &semHandleDesc->handle, sizeof(desc.handle));
   desc.flags = semHandleDesc->flags;
   memcpy(desc.reserved, semHandleDesc->reserved, sizeof(desc.reserved));

   CUresult res = cuImportExternalSemaphore(&sem, &desc);
   if (res != CUDA_SUCCESS)
      return cuvk_rt_return_cu(res);
   *extSem_out = (cudaExternalSemaphore_t)sem;
   return cudaSuccess;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaSignalExternalSemaphoresAsync(const cudaExternalSemaphore_t *extSemArray,
                                  const struct cudaExternalSemaphoreSignalParams *paramsArray,
                                  unsigned int numExtSems, cudaStream_t stream)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuSignalExternalSemaphoresAsync(
      (const CUexternalSemaphore *)extSemArray, (const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *)paramsArray,
      numExtSems, stream));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaWaitExternalSemaphoresAsync(const cudaExternalSemaphore_t *extSemArray,
                                const struct cudaExternalSemaphoreWaitParams *paramsArray,
                                unsigned int numExtSems, cudaStream_t stream)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuWaitExternalSemaphoresAsync(
      (const CUexternalSemaphore *)extSemArray, (const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *)paramsArray,
      numExtSems, stream));
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaDestroyExternalSemaphore(cudaExternalSemaphore_t extSem)
{
   cudaError_t err = cuvk_rt_context();
   if (err != cudaSuccess)
      return cuvk_rt_return(err);
   return cuvk_rt_return_cu(cuDestroyExternalSemaphore((CUexternalSemaphore)extSem));
}
