/*
 * Memory pools of the stream-ordered allocator: each device's default
 * pool (embedded in its cuvk_device), the pools programs create, which
 * pool is a device's current one, and the attributes and access programs
 * read and set.  cuMemAllocAsync, cuMemAllocFromPoolAsync and
 * cuMemFreeAsync themselves live in memory.c, beside cuMemAlloc and
 * cuMemFree, whose machinery they share.
 *
 * A pool keeps no memory of its own (driver.h says why), so the release
 * threshold and the reuse flags are kept and reported but change
 * nothing, and cuMemPoolTrimTo has nothing to give back: what a pool
 * reserves is live allocations and frees the GPU may not have passed
 * yet, both of which CUDA counts as outstanding too.  A created pool is
 * therefore little more than its counts, its device and maxSize.
 *
 * Handles are checked against the devices' default pools and the list
 * of live created pools, never dereferenced first, so a stale or made-up
 * handle is CUDA_ERROR_INVALID_VALUE and not a crash.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_api/driver.h"
#include "cuda_api/memory.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

/* One lock for every pool's counts, references and the list of handles,
 * and for the devices' current pools: they change once per allocation
 * and free, a few instructions each. */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cuvk_list created_pools = { &created_pools, &created_pools };

/* The device whose default pool p is, or NULL.  Lock not needed: the
 * devices do not change after cuInit. */
static struct cuvk_device *
default_pool_device(const void *p)
{
   for (int i = 0; i < cuvk_driver.device_count; i++)
      if ((const void *)&cuvk_driver.devices[i].pool == p)
         return &cuvk_driver.devices[i];
   return NULL;
}

struct cuvk_device *
cuvk_mem_pool_device(const struct cuvk_mem_pool *pool)
{
   return pool->dev ? pool->dev : default_pool_device(pool);
}

/* The live pool a handle names, or NULL.  Lock held. */
static struct cuvk_mem_pool *
pool_find_locked(CUmemoryPool handle)
{
   struct cuvk_device *dev = default_pool_device(handle);
   if (dev)
      return &dev->pool;
   cuvk_list_for_each_entry(struct cuvk_mem_pool, pool, &created_pools, link)
      if ((CUmemoryPool)pool == handle)
         return pool;
   return NULL;
}

/* Drops a reference of a created pool; the last one frees it.  Lock
 * held. */
static void
pool_unref_locked(struct cuvk_mem_pool *pool)
{
   if (!pool->dev)
      return;
   if (--pool->refs == 0)
      free(pool);
}

CUresult
cuvk_mem_pool_get(CUmemoryPool handle, const char *entry, struct cuvk_mem_pool **out)
{
   CUresult res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;
   pthread_mutex_lock(&pool_lock);
   struct cuvk_mem_pool *pool = pool_find_locked(handle);
   if (pool && pool->dev)
      pool->refs++;
   pthread_mutex_unlock(&pool_lock);
   if (!pool)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %p is not a memory pool (destroyed?)", entry,
                        (void *)handle);
   *out = pool;
   return CUDA_SUCCESS;
}

struct cuvk_mem_pool *
cuvk_mem_pool_get_current(struct cuvk_device *dev)
{
   pthread_mutex_lock(&pool_lock);
   struct cuvk_mem_pool *pool = dev->current_pool ? dev->current_pool : &dev->pool;
   if (pool->dev)
      pool->refs++;
   pthread_mutex_unlock(&pool_lock);
   return pool;
}

void
cuvk_mem_pool_put(struct cuvk_mem_pool *pool)
{
   pthread_mutex_lock(&pool_lock);
   pool_unref_locked(pool);
   pthread_mutex_unlock(&pool_lock);
}

CUresult
cuvk_mem_pool_allocated(struct cuvk_mem_pool *pool, uint64_t bytes, const char *what)
{
   pthread_mutex_lock(&pool_lock);
   if (pool->max_size && (bytes > pool->max_size || pool->reserved > pool->max_size - bytes)) {
      uint64_t reserved = pool->reserved, max_size = pool->max_size;
      pthread_mutex_unlock(&pool_lock);
      if (!what)
         return CUDA_ERROR_OUT_OF_MEMORY;
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY,
                        "%s: %llu bytes more would take the pool past its maxSize (%llu of %llu reserved)",
                        what, (unsigned long long)bytes, (unsigned long long)reserved,
                        (unsigned long long)max_size);
   }
   pool->used += bytes;
   pool->reserved += bytes;
   if (pool->used > pool->used_high)
      pool->used_high = pool->used;
   if (pool->reserved > pool->reserved_high)
      pool->reserved_high = pool->reserved;
   pthread_mutex_unlock(&pool_lock);
   return CUDA_SUCCESS;
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
   pool_unref_locked(pool);
   pthread_mutex_unlock(&pool_lock);
}

/* ---- Creating and destroying pools ---- */

/* Checks cuMemPoolCreate's properties.  The codes: INVALID_VALUE, which
 * CUDA documents for what its header says must be so (PINNED, zeroed
 * reserved bytes, no Windows attributes, not HOST_NUMA_CURRENT);
 * NOT_SUPPORTED where CUDA has the feature and cuvk does not (the
 * documented code for that, though which CUDA answers for each was not
 * measured). */
static CUresult
pool_props_check(const CUmemPoolProps *props)
{
   static const unsigned char zeros[sizeof(props->reserved)];

   switch (props->allocType) {
   case CU_MEM_ALLOCATION_TYPE_PINNED:
      break;
   case CU_MEM_ALLOCATION_TYPE_MANAGED:
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "cuMemPoolCreate: managed memory pools are not supported");
   default:
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolCreate: allocation type %d is not PINNED",
                        (int)props->allocType);
   }

   switch (props->location.type) {
   case CU_MEM_LOCATION_TYPE_DEVICE:
      if (props->location.id < 0 || props->location.id >= cuvk_driver.device_count)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolCreate: device %d does not exist",
                           props->location.id);
      break;
   case CU_MEM_LOCATION_TYPE_HOST:
   case CU_MEM_LOCATION_TYPE_HOST_NUMA:
      /* CU_DEVICE_ATTRIBUTE_HOST_MEMORY_POOLS_SUPPORTED is 0. */
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "cuMemPoolCreate: pools of host memory are not supported");
   default:
      /* HOST_NUMA_CURRENT among them, as CUDA documents. */
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolCreate: location type %d cannot hold a pool",
                        (int)props->location.type);
   }

   unsigned types = (unsigned)props->handleTypes;
   if (types & ~(unsigned)(CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR | CU_MEM_HANDLE_TYPE_WIN32 |
                           CU_MEM_HANDLE_TYPE_WIN32_KMT | CU_MEM_HANDLE_TYPE_FABRIC))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolCreate: unknown handle types 0x%x", types);
   if (types & (CU_MEM_HANDLE_TYPE_WIN32 | CU_MEM_HANDLE_TYPE_WIN32_KMT))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolCreate: Windows handle types 0x%x on Linux",
                        types);
   /* Sharing a pool means every allocation of it exportable, and the
    * other process importing the pool's memory and finding each pointer
    * in it: the context's heap blocks are neither. */
   if (types)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED,
                        "cuMemPoolCreate: pools that can be shared (handle types 0x%x) are not supported", types);
   /* Real CUDA on Linux ignores the Windows security attributes and usage
    * bits it does not name (H100, tests/api/mempool_codes_probe.c); so
    * does cuvk, saying so. */
   if (props->win32SecurityAttributes)
      cuvk_logi("cuMemPoolCreate: win32SecurityAttributes ignored on Linux");
   if (props->usage & CU_MEM_POOL_CREATE_USAGE_HW_DECOMPRESS)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "cuMemPoolCreate: decompression pools are not supported");
   if (props->usage)
      cuvk_logi("cuMemPoolCreate: usage 0x%x has no meaning here; ignored", (unsigned)props->usage);
   if (memcmp(props->reserved, zeros, sizeof(zeros)) != 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolCreate: reserved bytes must be 0");
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemPoolCreate(CUmemoryPool *pool_out, const CUmemPoolProps *props)
{
   CUresult res = cuvk_driver_check("cuMemPoolCreate");
   if (res != CUDA_SUCCESS)
      return res;
   if (!pool_out || !props)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolCreate: NULL %s", pool_out ? "props" : "pool");
   res = pool_props_check(props);
   if (res != CUDA_SUCCESS)
      return res;

   struct cuvk_mem_pool *pool = calloc(1, sizeof(*pool));
   if (!pool)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuMemPoolCreate: out of host memory");
   pool->dev = &cuvk_driver.devices[props->location.id];
   pool->max_size = props->maxSize;
   pool->refs = 1;
   pthread_mutex_lock(&pool_lock);
   cuvk_list_addtail(&pool->link, &created_pools);
   pthread_mutex_unlock(&pool_lock);
   *pool_out = (CUmemoryPool)pool;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemPoolDestroy(CUmemoryPool handle)
{
   CUresult res = cuvk_driver_check("cuMemPoolDestroy");
   if (res != CUDA_SUCCESS)
      return res;

   pthread_mutex_lock(&pool_lock);
   struct cuvk_mem_pool *pool = pool_find_locked(handle);
   if (!pool || !pool->dev) {
      pthread_mutex_unlock(&pool_lock);
      /* CUDA documents that a default pool cannot be destroyed, and
       * INVALID_VALUE as the call's one error. */
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolDestroy: %p is %s", (void *)handle,
                        pool ? "a device's default pool, which cannot be destroyed" : "not a memory pool");
   }
   /* The handle dies now; the pool itself once its allocations are all
    * released (their references), as CUDA documents. */
   cuvk_list_del(&pool->link);
   if (pool->dev->current_pool == pool)
      pool->dev->current_pool = NULL;
   if (pool->refs > 1)
      cuvk_logd("cuMemPoolDestroy: pool %p goes once %llu bytes are released", (void *)pool,
                (unsigned long long)pool->reserved);
   pool_unref_locked(pool);
   pthread_mutex_unlock(&pool_lock);
   return CUDA_SUCCESS;
}

/* ---- Default and current pools ---- */

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
   struct cuvk_device *dev = &cuvk_driver.devices[device];
   pthread_mutex_lock(&pool_lock);
   *pool = (CUmemoryPool)(dev->current_pool ? dev->current_pool : &dev->pool);
   pthread_mutex_unlock(&pool_lock);
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

   pthread_mutex_lock(&pool_lock);
   struct cuvk_mem_pool *pool = pool_find_locked(handle);
   /* Another device's pool is not local to this one: CUDA asks for a
    * pool whose location is the device. */
   if (!pool || cuvk_mem_pool_device(pool) != dev) {
      pthread_mutex_unlock(&pool_lock);
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceSetMemPool: %p is not a pool of device %d",
                        (void *)handle, device);
   }
   /* The current pool holds no reference: cuMemPoolDestroy puts the
    * default one back in its place. */
   dev->current_pool = pool == &dev->pool ? NULL : pool;
   pthread_mutex_unlock(&pool_lock);
   return CUDA_SUCCESS;
}

/* The device a CUmemLocation of a pinned device pool names, for the
 * CUDA 13 location-based calls; NOT_SUPPORTED for the host and managed
 * pools cuvk does not have. */
static CUresult
location_device(const CUmemLocation *location, CUmemAllocationType type, const char *entry,
                struct cuvk_device **out)
{
   CUresult res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;
   if (!location)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: location is NULL", entry);
   if (type == CU_MEM_ALLOCATION_TYPE_MANAGED)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: managed memory pools are not supported", entry);
   if (type != CU_MEM_ALLOCATION_TYPE_PINNED)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: allocation type %d", entry, (int)type);
   if (location->type == CU_MEM_LOCATION_TYPE_HOST || location->type == CU_MEM_LOCATION_TYPE_HOST_NUMA)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: pools of host memory are not supported", entry);
   if (location->type != CU_MEM_LOCATION_TYPE_DEVICE)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: location type %d", entry, (int)location->type);
   if (location->id < 0 || location->id >= cuvk_driver.device_count)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: device %d does not exist", entry, location->id);
   *out = &cuvk_driver.devices[location->id];
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemGetDefaultMemPool(CUmemoryPool *pool_out, CUmemLocation *location, CUmemAllocationType type)
{
   struct cuvk_device *dev;
   CUresult res = location_device(location, type, "cuMemGetDefaultMemPool", &dev);
   if (res != CUDA_SUCCESS)
      return res;
   return cuDeviceGetDefaultMemPool(pool_out, dev->ordinal);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemGetMemPool(CUmemoryPool *pool, CUmemLocation *location, CUmemAllocationType type)
{
   struct cuvk_device *dev;
   CUresult res = location_device(location, type, "cuMemGetMemPool", &dev);
   if (res != CUDA_SUCCESS)
      return res;
   return cuDeviceGetMemPool(pool, dev->ordinal);
}

CUVK_EXPORT CUresult CUDAAPI
cuMemSetMemPool(CUmemLocation *location, CUmemAllocationType type, CUmemoryPool pool)
{
   struct cuvk_device *dev;
   CUresult res = location_device(location, type, "cuMemSetMemPool", &dev);
   if (res != CUDA_SUCCESS)
      return res;
   return cuDeviceSetMemPool(dev->ordinal, pool);
}

/* ---- Attributes ---- */

CUVK_EXPORT CUresult CUDAAPI
cuMemPoolGetAttribute(CUmemoryPool handle, CUmemPool_attribute attr, void *value)
{
   struct cuvk_mem_pool *pool;
   CUresult res = cuvk_mem_pool_get(handle, "cuMemPoolGetAttribute", &pool);
   if (res != CUDA_SUCCESS)
      return res;
   if (!value) {
      cuvk_mem_pool_put(pool);
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolGetAttribute: value is NULL");
   }

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
   pool_unref_locked(pool);
   pthread_mutex_unlock(&pool_lock);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemPoolSetAttribute(CUmemoryPool handle, CUmemPool_attribute attr, void *value)
{
   struct cuvk_mem_pool *pool;
   CUresult res = cuvk_mem_pool_get(handle, "cuMemPoolSetAttribute", &pool);
   if (res != CUDA_SUCCESS)
      return res;
   if (!value) {
      cuvk_mem_pool_put(pool);
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolSetAttribute: value is NULL");
   }

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
   pool_unref_locked(pool);
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
   CUresult res = cuvk_mem_pool_get(handle, "cuMemPoolTrimTo", &pool);
   if (res == CUDA_SUCCESS)
      cuvk_mem_pool_put(pool);
   return res;
}

/* ---- Access from devices ---- */

/*
 * A pool's memory is reachable from its own device, read-write, and
 * from nothing else: cuvk's devices are separate Vulkan devices that do
 * not share memory (cuvk has no peer access).  So the one change of
 * access that can succeed is none to a device that has none; granting
 * another device access is NOT_SUPPORTED, and taking the pool's own
 * device's access away is INVALID_VALUE (CUDA documents that a pool is
 * always accessible from its own device, and INVALID_VALUE as the call's
 * only error beside NOT_INITIALIZED).
 */
CUVK_EXPORT CUresult CUDAAPI
cuMemPoolSetAccess(CUmemoryPool handle, const CUmemAccessDesc *map, size_t count)
{
   struct cuvk_mem_pool *pool;
   CUresult res = cuvk_mem_pool_get(handle, "cuMemPoolSetAccess", &pool);
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_device *own = cuvk_mem_pool_device(pool);
   cuvk_mem_pool_put(pool);
   /* The codes below are real CUDA's (H100, tests/api/mempool_codes_probe.c):
    * a NULL map is refused even for no entries; another location type
    * than a device is NOT_SUPPORTED, a device that does not exist
    * INVALID_DEVICE; the pool's own device keeps read-write, and asking
    * it for no access is INVALID_DEVICE, for read-only NOT_SUPPORTED. */
   if (!map)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolSetAccess: map is NULL (%zu entries)", count);

   /* All entries are checked before any takes effect (none has an effect
    * that could be undone anyway). */
   for (size_t i = 0; i < count; i++) {
      const CUmemAccessDesc *d = &map[i];
      if (d->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
         return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "cuMemPoolSetAccess: entry %zu: location type %d is "
                           "not a device", i, (int)d->location.type);
      if (d->flags != CU_MEM_ACCESS_FLAGS_PROT_NONE && d->flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
          d->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolSetAccess: entry %zu: flags 0x%x", i,
                           (unsigned)d->flags);
      if (d->location.id < 0 || d->location.id >= cuvk_driver.device_count)
         return cuvk_error(CUDA_ERROR_INVALID_DEVICE, "cuMemPoolSetAccess: entry %zu: device %d does not "
                           "exist", i, d->location.id);
      bool is_own = &cuvk_driver.devices[d->location.id] == own;
      if (is_own && d->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
         return cuvk_error(d->flags == CU_MEM_ACCESS_FLAGS_PROT_NONE ? CUDA_ERROR_INVALID_DEVICE
                                                                     : CUDA_ERROR_NOT_SUPPORTED,
                           "cuMemPoolSetAccess: device %d's access to its own pool is read-write and cannot "
                           "change", d->location.id);
      if (!is_own && d->flags != CU_MEM_ACCESS_FLAGS_PROT_NONE)
         return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "cuMemPoolSetAccess: device %d cannot reach device "
                           "%d's memory (no peer access)", d->location.id, own->ordinal);
   }
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool handle, CUmemLocation *location)
{
   struct cuvk_mem_pool *pool;
   CUresult res = cuvk_mem_pool_get(handle, "cuMemPoolGetAccess", &pool);
   if (res != CUDA_SUCCESS)
      return res;
   struct cuvk_device *own = cuvk_mem_pool_device(pool);
   cuvk_mem_pool_put(pool);
   if (!flags || !location)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolGetAccess: NULL %s", flags ? "location" : "flags");
   switch (location->type) {
   case CU_MEM_LOCATION_TYPE_DEVICE:
      if (location->id < 0 || location->id >= cuvk_driver.device_count)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolGetAccess: device %d does not exist",
                           location->id);
      *flags = &cuvk_driver.devices[location->id] == own ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE
                                                         : CU_MEM_ACCESS_FLAGS_PROT_NONE;
      return CUDA_SUCCESS;
   case CU_MEM_LOCATION_TYPE_HOST:
   case CU_MEM_LOCATION_TYPE_HOST_NUMA:
      /* Device memory: the host reaches it only through copies. */
      *flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
      return CUDA_SUCCESS;
   default:
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemPoolGetAccess: location type %d",
                        (int)location->type);
   }
}
