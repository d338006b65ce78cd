/*
 * Memory pools of the stream-ordered allocator: each device's default
 * pool (struct cuvk_mem_pool in driver.h), which is also its current one,
 * and the attributes programs read and set on it.  cuMemAllocAsync and
 * cuMemFreeAsync themselves live in memory.c, beside cuMemAlloc and
 * cuMemFree, whose machinery they share.
 *
 * The pool keeps no memory of its own (driver.h says why), so the
 * release threshold and the reuse flags are kept and reported but change
 * nothing, and cuMemPoolTrimTo has nothing to give back: what the pool
 * reserves is live allocations and frees the GPU may not have passed
 * yet, both of which CUDA counts as outstanding too.
 */
#include <pthread.h>
#include <string.h>

#include "cuda_api/driver.h"
#include "cuda_api/memory.h"
#include "util/error.h"
#include "util/macros.h"

/* One lock for every device's counts: they change once per allocation
 * and free, a few instructions each. */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

void
cuvk_mem_pool_allocated(struct cuvk_mem_pool *pool, uint64_t bytes)
{
   pthread_mutex_lock(&pool_lock);
   pool->used += bytes;
   pool->reserved += bytes;
   if (pool->used > pool->used_high)
      pool->used_high = pool->used;
   if (pool->reserved > pool->reserved_high)
      pool->reserved_high = pool->reserved;
   pthread_mutex_unlock(&pool_lock);
}

void
cuvk_mem_pool_freed(struct cuvk_mem_pool *pool, uint64_t bytes)
{
   pthread_mutex_lock(&pool_lock);
   pool->used -= bytes;
   pthread_mutex_unlock(&pool_lock);
}

void
cuvk_mem_pool_released(struct cuvk_mem_pool *pool, uint64_t bytes)
{
   pthread_mutex_lock(&pool_lock);
   pool->reserved -= bytes;
   pthread_mutex_unlock(&pool_lock);
}

/* The device whose pool a handle is, or NULL: the only pools there are
 * the devices' default ones. */
static struct cuvk_device *
pool_device(CUmemoryPool handle)
{
   for (int i = 0; i < cuvk_driver.device_count; i++)
      if ((CUmemoryPool)&cuvk_driver.devices[i].pool == handle)
         return &cuvk_driver.devices[i];
   return NULL;
}

static CUresult
pool_lookup(CUmemoryPool handle, const char *entry, struct cuvk_mem_pool **out)
{
   CUresult res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_device *dev = pool_device(handle);
   if (!dev)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %p is not a memory pool", entry, (void *)handle);
   *out = &dev->pool;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice device)
{
   struct cuvk_device *dev;
   CUresult res = cuvk_device_get(device, "cuDeviceGetDefaultMemPool", &dev);
   if (res != CUDA_SUCCESS)
      return res;
   if (!pool_out)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetDefaultMemPool: pool_out is NULL");
   *pool_out = (CUmemoryPool)&dev->pool;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice device)
{
   CUresult res = cuvk_driver_check("cuDeviceGetMemPool");
   if (res != CUDA_SUCCESS)
      return res;
   if (!pool)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetMemPool: pool is NULL");
   /* CUDA documents INVALID_VALUE, not INVALID_DEVICE, for this call. */
   if (device < 0 || device >= cuvk_driver.device_count)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetMemPool: device %d does not exist", device);
   *pool = (CUmemoryPool)&cuvk_driver.devices[device].pool;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuDeviceSetMemPool(CUdevice device, CUmemoryPool handle)
{
   CUresult res = cuvk_driver_check("cuDeviceSetMemPool");
   if (res != CUDA_SUCCESS)
      return res;
   if (device < 0 || device >= cuvk_driver.device_count)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceSetMemPool: device %d does not exist", device);
   struct cuvk_device *dev = &cuvk_driver.devices[device];
   /* The default pool is the only pool there is, so setting it is all
    * that can succeed; another device's pool is not local to this one. */
   if ((CUmemoryPool)&dev->pool != handle)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceSetMemPool: %p is not a pool of device %d",
                        (void *)handle, device);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemPoolGetAttribute(CUmemoryPool handle, CUmemPool_attribute attr, void *value)
{
   struct cuvk_mem_pool *pool;
   CUresult res = pool_lookup(handle, "cuMemPoolGetAttribute", &pool);
   if (res != CUDA_SUCCESS)
      return res;
   if (!value)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolGetAttribute: value is NULL");

   pthread_mutex_lock(&pool_lock);
   switch (attr) {
   case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
   case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
   case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
      *(int *)value = !pool->reuse_off[attr - CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES];
      break;
   case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
      *(cuuint64_t *)value = pool->release_threshold;
      break;
   case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
      *(cuuint64_t *)value = pool->reserved;
      break;
   case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
      *(cuuint64_t *)value = pool->reserved_high;
      break;
   case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
      *(cuuint64_t *)value = pool->used;
      break;
   case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
      *(cuuint64_t *)value = pool->used_high;
      break;
   default:
      res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolGetAttribute: unknown attribute %d", (int)attr);
      break;
   }
   pthread_mutex_unlock(&pool_lock);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemPoolSetAttribute(CUmemoryPool handle, CUmemPool_attribute attr, void *value)
{
   struct cuvk_mem_pool *pool;
   CUresult res = pool_lookup(handle, "cuMemPoolSetAttribute", &pool);
   if (res != CUDA_SUCCESS)
      return res;
   if (!value)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolSetAttribute: value is NULL");

   pthread_mutex_lock(&pool_lock);
   switch (attr) {
   case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
   case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
   case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
      pool->reuse_off[attr - CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES] = *(int *)value == 0;
      break;
   case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
      pool->release_threshold = *(cuuint64_t *)value;
      break;
   /* The high watermarks may only be reset, to where the count is now. */
   case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
      if (*(cuuint64_t *)value != 0)
         res = cuvk_error(CUDA_ERROR_INVALID_VALUE,
                          "cuMemPoolSetAttribute: RESERVED_MEM_HIGH can only be reset (to 0)");
      else
         pool->reserved_high = pool->reserved;
      break;
   case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
      if (*(cuuint64_t *)value != 0)
         res = cuvk_error(CUDA_ERROR_INVALID_VALUE,
                          "cuMemPoolSetAttribute: USED_MEM_HIGH can only be reset (to 0)");
      else
         pool->used_high = pool->used;
      break;
   case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
   case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
      res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolSetAttribute: attribute %d is read-only",
                       (int)attr);
      break;
   default:
      res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolSetAttribute: unknown attribute %d", (int)attr);
      break;
   }
   pthread_mutex_unlock(&pool_lock);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemPoolTrimTo(CUmemoryPool handle, size_t min_bytes_to_keep)
{
   struct cuvk_mem_pool *pool;
   (void)min_bytes_to_keep;
   /* Nothing to give back: the pool caches no freed memory (see the top
    * of this file), the bytes go back to the context's heap by
    * themselves once the GPU has passed their free. */
   return pool_lookup(handle, "cuMemPoolTrimTo", &pool);
}
