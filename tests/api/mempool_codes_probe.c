/*
 * mempool_codes_probe: the error codes of the memory pool and
 * stream-ordered allocator calls (cuMemPool*, cuMemAllocAsync,
 * cuMemAllocFromPoolAsync, cuMemFreeAsync, cuDevice{Get,Set}MemPool,
 * cuDeviceGetDefaultMemPool, CUDA 13's cuMem{Get,Set}MemPool and
 * cuMemGetDefaultMemPool, and the runtime's twins) given bad input.
 * cuvk took their codes from NVIDIA's documentation; one run of this
 * program on real CUDA measures them, and api.mempool.codes compares its
 * output on cuvk with the codes cuvk documents
 * (mempool_codes_expected.txt).  tests/common/codes_harness.h says how a
 * probe runs and what it prints.
 *
 * Each case makes the pools, streams, contexts and memory it needs, makes
 * its one call, and the release hook frees all of it and makes device
 * 0's default pool current again before the next case.  A case handing
 * the library a destroyed or NULL handle, a NULL output, or memory it
 * freed runs forked, as do those that could change the device's default
 * pool (destroying it, taking its device's access away) or the host's
 * current pool, so that a library that crashes or misbehaves on one
 * costs that case only.
 *
 * Device 0 is the only device the probe counts on: "another device" is
 * the first ordinal past cuDeviceGetCount, since the one-GPU machine the
 * probe runs on has no second device to own a pool.
 */
#include "codes_harness.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- The entry points, looked up at run time ------------------------- */

#define DRIVER_CALLS(X)                                                        \
   X(cuDeviceGetCount)                                                         \
   X(cuCtxCreate)                                                              \
   X(cuCtxDestroy)                                                             \
   X(cuStreamCreate)                                                           \
   X(cuStreamDestroy)                                                          \
   X(cuMemAlloc)                                                               \
   X(cuMemFree)                                                                \
   X(cuMemPoolCreate)                                                          \
   X(cuMemPoolDestroy)                                                         \
   X(cuMemPoolTrimTo)                                                          \
   X(cuMemPoolSetAttribute)                                                    \
   X(cuMemPoolGetAttribute)                                                    \
   X(cuMemPoolSetAccess)                                                       \
   X(cuMemPoolGetAccess)                                                       \
   X(cuMemPoolExportToShareableHandle)                                         \
   X(cuMemPoolImportFromShareableHandle)                                       \
   X(cuMemPoolExportPointer)                                                   \
   X(cuMemPoolImportPointer)                                                   \
   X(cuDeviceGetDefaultMemPool)                                                \
   X(cuDeviceGetMemPool)                                                       \
   X(cuDeviceSetMemPool)                                                       \
   X(cuMemGetDefaultMemPool)                                                   \
   X(cuMemGetMemPool)                                                          \
   X(cuMemSetMemPool)                                                          \
   X(cuMemAllocAsync)                                                          \
   X(cuMemAllocFromPoolAsync)                                                  \
   X(cuMemFreeAsync)

#define RUNTIME_CALLS(X)                                                       \
   X(cudaMalloc)                                                               \
   X(cudaMallocAsync)                                                          \
   X(cudaFreeAsync)                                                            \
   X(cudaMallocFromPoolAsync)                                                  \
   X(cudaMemPoolCreate)                                                        \
   X(cudaMemPoolDestroy)                                                       \
   X(cudaMemPoolSetAttribute)                                                  \
   X(cudaMemPoolSetAccess)                                                     \
   X(cudaMemPoolTrimTo)                                                        \
   X(cudaMemPoolExportToShareableHandle)                                       \
   X(cudaDeviceGetDefaultMemPool)                                              \
   X(cudaDeviceGetMemPool)                                                     \
   X(cudaDeviceSetMemPool)

DRIVER_CALLS(CODES_STATIC_POINTER)
RUNTIME_CALLS(CODES_STATIC_POINTER)

static void
look_up(void)
{
   DRIVER_CALLS(CODES_LOOK_UP_DRIVER)
   RUNTIME_CALLS(CODES_LOOK_UP_RUNTIME)
}

/* ---- What each case made ----------------------------------------------- */

#define MAX_HELD 8
static struct {
   /* Stream-ordered allocations, freed on their stream. */
   CUdeviceptr allocs[MAX_HELD];
   CUstream alloc_streams[MAX_HELD];
   CUdeviceptr memory[MAX_HELD]; /* cuMemAlloc's */
   void *rt_memory[MAX_HELD];    /* cudaMalloc's */
   CUstream streams[MAX_HELD];
   CUcontext contexts[MAX_HELD];
   CUmemoryPool pools[MAX_HELD];
   unsigned n_allocs, n_memory, n_rt_memory, n_streams, n_contexts, n_pools;
} held;

#define HOLD(list, count, value) CODES_HOLD(held.list, held.count, value)

static void
hold_alloc(CUdeviceptr p, CUstream s)
{
   if (held.n_allocs == MAX_HELD)
      codes_setup_fail("more than " CODES_STR(MAX_HELD) " allocations held");
   held.alloc_streams[held.n_allocs] = s;
   held.allocs[held.n_allocs++] = p;
}

/* Frees what the case made: the memory before the streams and contexts
 * it lives on, the pools last (a pool goes once its memory is freed);
 * the default pool is made current again first, since a case may have
 * made a pool it destroys current. */
static void
release_held(void)
{
   CALL(cuCtxSetCurrent)(codes_primary);
   CUmemoryPool def = NULL;
   if (CALL(cuDeviceGetDefaultMemPool)(&def, codes_device) == CUDA_SUCCESS)
      CALL(cuDeviceSetMemPool)(codes_device, def);
   while (held.n_allocs) {
      held.n_allocs--;
      CALL(cuMemFreeAsync)(held.allocs[held.n_allocs], held.alloc_streams[held.n_allocs]);
   }
   while (held.n_memory)
      CALL(cuMemFree)(held.memory[--held.n_memory]);
   while (held.n_rt_memory)
      CALL(cudaFree)(held.rt_memory[--held.n_rt_memory]);
   while (held.n_streams) {
      CUstream s = held.streams[--held.n_streams];
      CALL(cuStreamDestroy)(s);
   }
   while (held.n_contexts)
      CALL(cuCtxDestroy)(held.contexts[--held.n_contexts]);
   CALL(cuCtxSetCurrent)(codes_primary);
   while (held.n_pools)
      CALL(cuMemPoolDestroy)(held.pools[--held.n_pools]);
}

/* ---- Set-up ------------------------------------------------------------- */

static int
device_count(void)
{
   int n = 0;
   NEED(CALL(cuDeviceGetCount)(&n));
   return n;
}

/* A pinned pool on device 0, no handle types, no maxSize. */
static CUmemPoolProps
pool_props(void)
{
   CUmemPoolProps props;
   memset(&props, 0, sizeof(props));
   props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
   props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
   props.location.id = 0;
   return props;
}

static CUmemoryPool
make_pool_of(CUmemPoolProps props)
{
   CUmemoryPool pool = NULL;
   NEED(CALL(cuMemPoolCreate)(&pool, &props));
   HOLD(pools, n_pools, pool);
   return pool;
}

static CUmemoryPool make_pool(void) { return make_pool_of(pool_props()); }

static CUmemoryPool
default_pool(void)
{
   CUmemoryPool pool = NULL;
   NEED(CALL(cuDeviceGetDefaultMemPool)(&pool, codes_device));
   return pool;
}

/* A pool made and destroyed: a stale handle, nothing held. */
static CUmemoryPool
destroyed_pool(void)
{
   CUmemPoolProps props = pool_props();
   CUmemoryPool pool = NULL;
   NEED(CALL(cuMemPoolCreate)(&pool, &props));
   NEED(CALL(cuMemPoolDestroy)(pool));
   return pool;
}

static CUstream
make_stream(void)
{
   CUstream s = NULL;
   NEED(CALL(cuStreamCreate)(&s, CU_STREAM_NON_BLOCKING));
   HOLD(streams, n_streams, s);
   return s;
}

/* A stream of a second context on device 0, the primary context current
 * again afterwards. */
static CUstream
other_context_stream(void)
{
   CUcontext ctx = NULL;
   NEED(CALL(cuCtxCreate)(&ctx, NULL, 0, codes_device));
   HOLD(contexts, n_contexts, ctx);
   CUstream s = NULL;
   CUresult res = CALL(cuStreamCreate)(&s, CU_STREAM_NON_BLOCKING);
   if (res == CUDA_SUCCESS)
      HOLD(streams, n_streams, s);
   NEED(CALL(cuCtxSetCurrent)(codes_primary));
   NEED(res);
   return s;
}

/* A stream made and destroyed: a stale handle, nothing held. */
static CUstream
destroyed_stream(void)
{
   CUstream s = NULL;
   NEED(CALL(cuStreamCreate)(&s, CU_STREAM_NON_BLOCKING));
   NEED(CALL(cuStreamDestroy)(s));
   return s;
}

static CUdeviceptr
alloc_from(CUmemoryPool pool, CUstream s, size_t size)
{
   CUdeviceptr p = 0;
   NEED(CALL(cuMemAllocFromPoolAsync)(&p, size, pool, s));
   hold_alloc(p, s);
   return p;
}

static CUdeviceptr
mem_alloc(size_t size)
{
   CUdeviceptr p = 0;
   NEED(CALL(cuMemAlloc)(&p, size));
   HOLD(memory, n_memory, p);
   return p;
}

/* The case's call: what it allocated is held, on its stream. */
static int
alloc_async_held(size_t size, CUstream s)
{
   CUdeviceptr p = 0;
   CUresult res = CALL(cuMemAllocAsync)(&p, size, s);
   if (res == CUDA_SUCCESS && p)
      hold_alloc(p, s);
   return (int)res;
}

static int
alloc_from_pool_held(size_t size, CUmemoryPool pool, CUstream s)
{
   CUdeviceptr p = 0;
   CUresult res = CALL(cuMemAllocFromPoolAsync)(&p, size, pool, s);
   if (res == CUDA_SUCCESS && p)
      hold_alloc(p, s);
   return (int)res;
}

/* 2^62 bytes: more than any device has. */
#define HUGE_SIZE ((size_t)1 << 62)

/* ---- cuMemPoolCreate ---------------------------------------------------- */

/* The case's call: a pool made is held. */
static int
pool_create(CUmemPoolProps props)
{
   CUmemoryPool pool = NULL;
   CUresult res = CALL(cuMemPoolCreate)(&pool, &props);
   if (res == CUDA_SUCCESS)
      HOLD(pools, n_pools, pool);
   return (int)res;
}

static int create_ok(void) { return pool_create(pool_props()); }

static int
create_null_pool(void)
{
   CUmemPoolProps props = pool_props();
   return (int)CALL(cuMemPoolCreate)(NULL, &props);
}

static int
create_null_props(void)
{
   CUmemoryPool pool = NULL;
   CUresult res = CALL(cuMemPoolCreate)(&pool, NULL);
   if (res == CUDA_SUCCESS)
      HOLD(pools, n_pools, pool);
   return (int)res;
}

static int
create_alloc_type(CUmemAllocationType type)
{
   CUmemPoolProps props = pool_props();
   props.allocType = type;
   return pool_create(props);
}
static int create_alloc_type_invalid(void) { return create_alloc_type(CU_MEM_ALLOCATION_TYPE_INVALID); }
static int create_alloc_type_managed(void) { return create_alloc_type(CU_MEM_ALLOCATION_TYPE_MANAGED); }
static int create_alloc_type_7(void) { return create_alloc_type((CUmemAllocationType)7); }

static int
create_location(CUmemLocationType type, int id)
{
   CUmemPoolProps props = pool_props();
   props.location.type = type;
   props.location.id = id;
   return pool_create(props);
}
static int create_location_invalid(void) { return create_location(CU_MEM_LOCATION_TYPE_INVALID, 0); }
static int create_location_host(void) { return create_location(CU_MEM_LOCATION_TYPE_HOST, 0); }
static int create_location_host_numa(void) { return create_location(CU_MEM_LOCATION_TYPE_HOST_NUMA, 0); }
static int create_location_host_numa_current(void)
{
   return create_location(CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 0);
}
static int create_location_type_127(void) { return create_location((CUmemLocationType)127, 0); }
static int create_device_minus_1(void) { return create_location(CU_MEM_LOCATION_TYPE_DEVICE, -1); }
static int create_device_past_count(void) { return create_location(CU_MEM_LOCATION_TYPE_DEVICE, device_count()); }

static int
create_handle_types(unsigned types)
{
   CUmemPoolProps props = pool_props();
   props.handleTypes = (CUmemAllocationHandleType)types;
   return pool_create(props);
}
static int create_handle_posix_fd(void) { return create_handle_types(CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR); }
static int create_handle_fabric(void) { return create_handle_types(CU_MEM_HANDLE_TYPE_FABRIC); }
static int create_handle_win32(void) { return create_handle_types(CU_MEM_HANDLE_TYPE_WIN32); }
static int create_handle_win32_kmt(void) { return create_handle_types(CU_MEM_HANDLE_TYPE_WIN32_KMT); }
/* 0x10: the bit after FABRIC, the last type defined. */
static int create_handle_0x10(void) { return create_handle_types(0x10); }

/* Windows security attributes on Linux: a pointer to zeros, which a
 * library reading it finds harmless. */
static int
create_win32_attributes(void)
{
   static unsigned char attributes[64];
   CUmemPoolProps props = pool_props();
   props.win32SecurityAttributes = attributes;
   return pool_create(props);
}

static int
create_usage(unsigned short usage)
{
   CUmemPoolProps props = pool_props();
   props.usage = usage;
   return pool_create(props);
}
static int create_usage_hw_decompress(void) { return create_usage(CU_MEM_POOL_CREATE_USAGE_HW_DECOMPRESS); }
static int create_usage_0x80(void) { return create_usage(0x80); }

static int
create_reserved(void)
{
   CUmemPoolProps props = pool_props();
   props.reserved[0] = 1;
   return pool_create(props);
}

static int
create_max_size(size_t max_size)
{
   CUmemPoolProps props = pool_props();
   props.maxSize = max_size;
   return pool_create(props);
}
static int create_max_size_1(void) { return create_max_size(1); }
static int create_max_size_2m_ok(void) { return create_max_size((size_t)2 << 20); }

/* ---- cuMemPoolDestroy --------------------------------------------------- */

static int
destroy_ok(void)
{
   CUmemPoolProps props = pool_props();
   CUmemoryPool pool = NULL;
   NEED(CALL(cuMemPoolCreate)(&pool, &props));
   return (int)CALL(cuMemPoolDestroy)(pool);
}

static int destroy_default(void) { return (int)CALL(cuMemPoolDestroy)(default_pool()); }
static int destroy_twice(void) { return (int)CALL(cuMemPoolDestroy)(destroyed_pool()); }
static int destroy_null(void) { return (int)CALL(cuMemPoolDestroy)(NULL); }

/* Destroying the device's current pool. */
static int
destroy_current(void)
{
   CUmemPoolProps props = pool_props();
   CUmemoryPool pool = NULL;
   NEED(CALL(cuMemPoolCreate)(&pool, &props));
   CUresult res = CALL(cuDeviceSetMemPool)(codes_device, pool);
   if (res != CUDA_SUCCESS) {
      CALL(cuMemPoolDestroy)(pool);
      NEED(res);
   }
   return (int)CALL(cuMemPoolDestroy)(pool);
}

/* Destroying a pool with an allocation of it live: the allocation is
 * freed after, on its stream. */
static int
destroy_live_allocation(void)
{
   CUmemPoolProps props = pool_props();
   CUmemoryPool pool = NULL;
   NEED(CALL(cuMemPoolCreate)(&pool, &props));
   CUstream s = make_stream();
   CUdeviceptr p = 0;
   CUresult res = CALL(cuMemAllocFromPoolAsync)(&p, 4096, pool, s);
   if (res != CUDA_SUCCESS) {
      CALL(cuMemPoolDestroy)(pool);
      NEED(res);
   }
   hold_alloc(p, s);
   return (int)CALL(cuMemPoolDestroy)(pool);
}

/* ---- Default and current pools ----------------------------------------- */

static int
get_default(CUdevice dev)
{
   CUmemoryPool pool = NULL;
   return (int)CALL(cuDeviceGetDefaultMemPool)(&pool, dev);
}
static int get_default_ok(void) { return get_default(codes_device); }
static int get_default_null(void) { return (int)CALL(cuDeviceGetDefaultMemPool)(NULL, codes_device); }
static int get_default_past_count(void) { return get_default(device_count()); }
static int get_default_minus_1(void) { return get_default(-1); }

static int
get_current(CUdevice dev)
{
   CUmemoryPool pool = NULL;
   return (int)CALL(cuDeviceGetMemPool)(&pool, dev);
}
static int get_current_ok(void) { return get_current(codes_device); }
static int get_current_null(void) { return (int)CALL(cuDeviceGetMemPool)(NULL, codes_device); }
static int get_current_past_count(void) { return get_current(device_count()); }

static int set_current_ok(void) { return (int)CALL(cuDeviceSetMemPool)(codes_device, make_pool()); }
static int set_current_default_ok(void) { return (int)CALL(cuDeviceSetMemPool)(codes_device, default_pool()); }
static int set_current_null(void) { return (int)CALL(cuDeviceSetMemPool)(codes_device, NULL); }
static int set_current_destroyed(void) { return (int)CALL(cuDeviceSetMemPool)(codes_device, destroyed_pool()); }
/* The one "other device" a one-GPU machine has: an ordinal past the
 * count, given device 0's pool. */
static int set_current_past_count(void) { return (int)CALL(cuDeviceSetMemPool)(device_count(), make_pool()); }
static int set_current_minus_1(void) { return (int)CALL(cuDeviceSetMemPool)(-1, default_pool()); }

/* CUDA 13's calls by location. */
static CUmemLocation
location(CUmemLocationType type, int id)
{
   CUmemLocation loc = { type, id };
   return loc;
}

static int
mem_get_default(CUmemLocationType type, int id, CUmemAllocationType alloc_type)
{
   CUmemLocation loc = location(type, id);
   CUmemoryPool pool = NULL;
   return (int)CALL(cuMemGetDefaultMemPool)(&pool, &loc, alloc_type);
}
static int mem_get_default_ok(void)
{
   return mem_get_default(CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ALLOCATION_TYPE_PINNED);
}
static int mem_get_default_host(void)
{
   return mem_get_default(CU_MEM_LOCATION_TYPE_HOST, 0, CU_MEM_ALLOCATION_TYPE_PINNED);
}
static int mem_get_default_host_numa(void)
{
   return mem_get_default(CU_MEM_LOCATION_TYPE_HOST_NUMA, 0, CU_MEM_ALLOCATION_TYPE_PINNED);
}
static int mem_get_default_managed(void)
{
   return mem_get_default(CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ALLOCATION_TYPE_MANAGED);
}
static int mem_get_default_alloc_type_invalid(void)
{
   return mem_get_default(CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ALLOCATION_TYPE_INVALID);
}
static int mem_get_default_location_invalid(void)
{
   return mem_get_default(CU_MEM_LOCATION_TYPE_INVALID, 0, CU_MEM_ALLOCATION_TYPE_PINNED);
}
static int mem_get_default_past_count(void)
{
   return mem_get_default(CU_MEM_LOCATION_TYPE_DEVICE, device_count(), CU_MEM_ALLOCATION_TYPE_PINNED);
}
static int mem_get_default_null_location(void)
{
   CUmemoryPool pool = NULL;
   return (int)CALL(cuMemGetDefaultMemPool)(&pool, NULL, CU_MEM_ALLOCATION_TYPE_PINNED);
}

static int
mem_get_current_host(void)
{
   CUmemLocation loc = location(CU_MEM_LOCATION_TYPE_HOST, 0);
   CUmemoryPool pool = NULL;
   return (int)CALL(cuMemGetMemPool)(&pool, &loc, CU_MEM_ALLOCATION_TYPE_PINNED);
}

static int
mem_set_current(CUmemLocationType type, int id, CUmemAllocationType alloc_type)
{
   CUmemLocation loc = location(type, id);
   return (int)CALL(cuMemSetMemPool)(&loc, alloc_type, make_pool());
}
static int mem_set_current_ok(void)
{
   return mem_set_current(CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ALLOCATION_TYPE_PINNED);
}
/* A device pool made current for the host. */
static int mem_set_current_host(void)
{
   return mem_set_current(CU_MEM_LOCATION_TYPE_HOST, 0, CU_MEM_ALLOCATION_TYPE_PINNED);
}
static int mem_set_current_managed(void)
{
   return mem_set_current(CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ALLOCATION_TYPE_MANAGED);
}

/* ---- Attributes --------------------------------------------------------- */

static int
get_attribute(CUmemoryPool pool, int attr)
{
   cuuint64_t value = 0;
   return (int)CALL(cuMemPoolGetAttribute)(pool, (CUmemPool_attribute)attr, &value);
}
static int get_attr_ok(void) { return get_attribute(make_pool(), CU_MEMPOOL_ATTR_USED_MEM_CURRENT); }
static int get_attr_0(void) { return get_attribute(make_pool(), 0); }
static int get_attr_9(void) { return get_attribute(make_pool(), CU_MEMPOOL_ATTR_USED_MEM_HIGH + 1); }
static int get_attr_null_value(void)
{
   return (int)CALL(cuMemPoolGetAttribute)(make_pool(), CU_MEMPOOL_ATTR_USED_MEM_CURRENT, NULL);
}
static int get_attr_destroyed(void) { return get_attribute(destroyed_pool(), CU_MEMPOOL_ATTR_USED_MEM_CURRENT); }
static int get_attr_null_pool(void) { return get_attribute(NULL, CU_MEMPOOL_ATTR_USED_MEM_CURRENT); }

/* Sets attr of a new pool to value (a cuuint64_t, or an int for the
 * reuse flags). */
static int
set_attribute(int attr, cuuint64_t value)
{
   int flag = (int)value;
   void *p = attr >= CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES &&
                   attr <= CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES
                ? (void *)&flag
                : (void *)&value;
   return (int)CALL(cuMemPoolSetAttribute)(make_pool(), (CUmemPool_attribute)attr, p);
}
static int set_attr_threshold_ok(void) { return set_attribute(CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, UINT64_MAX); }
static int set_attr_reuse_0_ok(void) { return set_attribute(CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, 0); }
static int set_attr_reuse_2(void) { return set_attribute(CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, 2); }
static int set_attr_used_high_0_ok(void) { return set_attribute(CU_MEMPOOL_ATTR_USED_MEM_HIGH, 0); }
static int set_attr_used_high_1(void) { return set_attribute(CU_MEMPOOL_ATTR_USED_MEM_HIGH, 1); }
static int set_attr_reserved_high_0_ok(void) { return set_attribute(CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, 0); }
static int set_attr_reserved_high_1(void) { return set_attribute(CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, 1); }
static int set_attr_used_current(void) { return set_attribute(CU_MEMPOOL_ATTR_USED_MEM_CURRENT, 0); }
static int set_attr_reserved_current(void) { return set_attribute(CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, 0); }
static int set_attr_0(void) { return set_attribute(0, 0); }
static int set_attr_9(void) { return set_attribute(CU_MEMPOOL_ATTR_USED_MEM_HIGH + 1, 0); }
static int set_attr_null_value(void)
{
   return (int)CALL(cuMemPoolSetAttribute)(make_pool(), CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, NULL);
}
static int set_attr_destroyed(void)
{
   cuuint64_t value = 0;
   return (int)CALL(cuMemPoolSetAttribute)(destroyed_pool(), CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &value);
}

/* ---- cuMemPoolTrimTo ---------------------------------------------------- */

static int trim_ok(void) { return (int)CALL(cuMemPoolTrimTo)(make_pool(), 0); }
static int trim_default_ok(void) { return (int)CALL(cuMemPoolTrimTo)(default_pool(), 0); }
static int trim_destroyed(void) { return (int)CALL(cuMemPoolTrimTo)(destroyed_pool(), 0); }
static int trim_null(void) { return (int)CALL(cuMemPoolTrimTo)(NULL, 0); }

/* ---- Access ------------------------------------------------------------- */

static CUmemAccessDesc
access_desc(CUmemLocationType type, int id, CUmemAccess_flags flags)
{
   CUmemAccessDesc d;
   memset(&d, 0, sizeof(d));
   d.location.type = type;
   d.location.id = id;
   d.flags = flags;
   return d;
}

/* One entry, on a new pool of device 0. */
static int
set_access(CUmemLocationType type, int id, CUmemAccess_flags flags)
{
   CUmemAccessDesc d = access_desc(type, id, flags);
   return (int)CALL(cuMemPoolSetAccess)(make_pool(), &d, 1);
}
static int set_access_own_rw_ok(void)
{
   return set_access(CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
}
static int set_access_own_none(void)
{
   return set_access(CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_NONE);
}
static int set_access_own_read(void)
{
   return set_access(CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_READ);
}
static int set_access_flags_7(void) { return set_access(CU_MEM_LOCATION_TYPE_DEVICE, 0, (CUmemAccess_flags)7); }
static int set_access_host(void)
{
   return set_access(CU_MEM_LOCATION_TYPE_HOST, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
}
static int set_access_location_invalid(void)
{
   return set_access(CU_MEM_LOCATION_TYPE_INVALID, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
}
static int set_access_past_count(void)
{
   return set_access(CU_MEM_LOCATION_TYPE_DEVICE, device_count(), CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
}
static int set_access_past_count_none(void)
{
   return set_access(CU_MEM_LOCATION_TYPE_DEVICE, device_count(), CU_MEM_ACCESS_FLAGS_PROT_NONE);
}
static int
set_access_count_0(void)
{
   CUmemAccessDesc d = access_desc(CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_NONE);
   return (int)CALL(cuMemPoolSetAccess)(make_pool(), &d, 0);
}
static int set_access_null_count_0(void) { return (int)CALL(cuMemPoolSetAccess)(make_pool(), NULL, 0); }
static int set_access_null_count_1(void) { return (int)CALL(cuMemPoolSetAccess)(make_pool(), NULL, 1); }
static int
set_access_default_own_none(void)
{
   CUmemAccessDesc d = access_desc(CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_NONE);
   return (int)CALL(cuMemPoolSetAccess)(default_pool(), &d, 1);
}
static int
set_access_destroyed(void)
{
   CUmemAccessDesc d = access_desc(CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
   return (int)CALL(cuMemPoolSetAccess)(destroyed_pool(), &d, 1);
}

static int
get_access(CUmemLocationType type, int id)
{
   CUmemLocation loc = location(type, id);
   CUmemAccess_flags flags;
   return (int)CALL(cuMemPoolGetAccess)(&flags, make_pool(), &loc);
}
static int get_access_own_ok(void) { return get_access(CU_MEM_LOCATION_TYPE_DEVICE, 0); }
static int get_access_host(void) { return get_access(CU_MEM_LOCATION_TYPE_HOST, 0); }
static int get_access_location_invalid(void) { return get_access(CU_MEM_LOCATION_TYPE_INVALID, 0); }
static int get_access_past_count(void) { return get_access(CU_MEM_LOCATION_TYPE_DEVICE, device_count()); }
static int get_access_null_flags(void)
{
   CUmemLocation loc = location(CU_MEM_LOCATION_TYPE_DEVICE, 0);
   return (int)CALL(cuMemPoolGetAccess)(NULL, make_pool(), &loc);
}
static int get_access_null_location(void)
{
   CUmemAccess_flags flags;
   return (int)CALL(cuMemPoolGetAccess)(&flags, make_pool(), NULL);
}

/* ---- Sharing: export and import ----------------------------------------- */

/* A handle big enough for any type's (a fabric handle is 64 bytes). */
static int
export_handle(CUmemoryPool pool, unsigned type)
{
   unsigned char handle[64] = { 0 };
   return (int)CALL(cuMemPoolExportToShareableHandle)(handle, pool, (CUmemAllocationHandleType)type, 0);
}
static int export_none(void) { return export_handle(make_pool(), CU_MEM_HANDLE_TYPE_NONE); }
/* A pool made without handle types, exported as a file descriptor. */
static int export_posix_fd_unshareable(void)
{
   return export_handle(make_pool(), CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
}
static int export_destroyed(void) { return export_handle(destroyed_pool(), CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR); }

static int
import_handle(void *handle, unsigned type)
{
   CUmemoryPool pool = NULL;
   CUresult res = CALL(cuMemPoolImportFromShareableHandle)(&pool, handle, (CUmemAllocationHandleType)type, 0);
   if (res == CUDA_SUCCESS)
      HOLD(pools, n_pools, pool);
   return (int)res;
}
static int import_none(void) { return import_handle(NULL, CU_MEM_HANDLE_TYPE_NONE); }
/* A file descriptor is passed as the handle's value: -1, none. */
static int import_fd_minus_1(void)
{
   return import_handle((void *)(intptr_t)-1, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
}

static int
export_pointer(CUdeviceptr p)
{
   CUmemPoolPtrExportData data;
   memset(&data, 0, sizeof(data));
   return (int)CALL(cuMemPoolExportPointer)(&data, p);
}
static int export_pointer_mem_alloc(void) { return export_pointer(mem_alloc(4096)); }
static int export_pointer_unshareable(void) { return export_pointer(alloc_from(make_pool(), make_stream(), 4096)); }
static int export_pointer_null(void) { return export_pointer(0); }

/* Importing zeroed export data into a pool that cannot be shared. */
static int
import_pointer_unshareable(void)
{
   CUmemPoolPtrExportData data;
   memset(&data, 0, sizeof(data));
   CUdeviceptr p = 0;
   CUresult res = CALL(cuMemPoolImportPointer)(&p, make_pool(), &data);
   if (res == CUDA_SUCCESS && p)
      HOLD(memory, n_memory, p);
   return (int)res;
}

/* ---- cuMemAllocAsync ---------------------------------------------------- */

static int alloc_async_ok(void) { return alloc_async_held(4096, make_stream()); }
static int alloc_async_null_stream_ok(void) { return alloc_async_held(4096, NULL); }
static int alloc_async_size_0(void) { return alloc_async_held(0, make_stream()); }
static int alloc_async_huge(void) { return alloc_async_held(HUGE_SIZE, make_stream()); }
static int alloc_async_null_ptr(void) { return (int)CALL(cuMemAllocAsync)(NULL, 4096, make_stream()); }
static int alloc_async_destroyed_stream(void) { return alloc_async_held(4096, destroyed_stream()); }
static int alloc_async_other_context(void) { return alloc_async_held(4096, other_context_stream()); }
/* The legacy default stream with no context current. */
static int
alloc_async_no_context(void)
{
   NEED(CALL(cuCtxSetCurrent)(NULL));
   return alloc_async_held(4096, NULL);
}

/* ---- cuMemAllocFromPoolAsync -------------------------------------------- */

static int alloc_from_pool_ok(void) { return alloc_from_pool_held(4096, make_pool(), make_stream()); }
static int alloc_from_pool_default_ok(void) { return alloc_from_pool_held(4096, default_pool(), make_stream()); }
static int alloc_from_pool_size_0(void) { return alloc_from_pool_held(0, make_pool(), make_stream()); }
static int alloc_from_pool_huge(void) { return alloc_from_pool_held(HUGE_SIZE, make_pool(), make_stream()); }
static int alloc_from_pool_null_pool(void) { return alloc_from_pool_held(4096, NULL, make_stream()); }
static int alloc_from_pool_destroyed_pool(void) { return alloc_from_pool_held(4096, destroyed_pool(), make_stream()); }
static int alloc_from_pool_null_ptr(void)
{
   return (int)CALL(cuMemAllocFromPoolAsync)(NULL, 4096, make_pool(), make_stream());
}
static int alloc_from_pool_destroyed_stream(void)
{
   return alloc_from_pool_held(4096, make_pool(), destroyed_stream());
}
static int alloc_from_pool_other_context(void)
{
   return alloc_from_pool_held(4096, make_pool(), other_context_stream());
}
/* 4 MiB from a pool of maxSize 2 MiB. */
static int
alloc_from_pool_past_max_size(void)
{
   CUmemPoolProps props = pool_props();
   props.maxSize = (size_t)2 << 20;
   return alloc_from_pool_held((size_t)4 << 20, make_pool_of(props), make_stream());
}

/* ---- cuMemFreeAsync ----------------------------------------------------- */

static int
free_async_ok(void)
{
   CUstream s = make_stream();
   CUdeviceptr p = 0;
   NEED(CALL(cuMemAllocFromPoolAsync)(&p, 4096, make_pool(), s));
   return (int)CALL(cuMemFreeAsync)(p, s);
}

static int free_async_null(void) { return (int)CALL(cuMemFreeAsync)(0, make_stream()); }

/* cuMemAlloc's memory: held again when the free refuses it. */
static int
free_async_mem_alloc(void)
{
   CUstream s = make_stream();
   CUdeviceptr p = 0;
   NEED(CALL(cuMemAlloc)(&p, 4096));
   CUresult res = CALL(cuMemFreeAsync)(p, s);
   if (res != CUDA_SUCCESS)
      HOLD(memory, n_memory, p);
   return (int)res;
}

static int
free_async_twice(void)
{
   CUstream s = make_stream();
   CUdeviceptr p = 0;
   NEED(CALL(cuMemAllocFromPoolAsync)(&p, 4096, make_pool(), s));
   NEED(CALL(cuMemFreeAsync)(p, s));
   return (int)CALL(cuMemFreeAsync)(p, s);
}

/* 256 bytes into an allocation. */
static int
free_async_interior(void)
{
   CUstream s = make_stream();
   return (int)CALL(cuMemFreeAsync)(alloc_from(make_pool(), s, 4096) + 256, s);
}

/* Memory of the primary context freed on another context's stream. */
static int
free_async_other_context(void)
{
   CUstream s = make_stream();
   CUdeviceptr p = alloc_from(make_pool(), s, 4096);
   CUresult res = CALL(cuMemFreeAsync)(p, other_context_stream());
   if (res == CUDA_SUCCESS)
      held.n_allocs--; /* freed: not again */
   return (int)res;
}

static int
free_async_destroyed_stream(void)
{
   CUstream s = make_stream();
   CUdeviceptr p = alloc_from(make_pool(), s, 4096);
   CUresult res = CALL(cuMemFreeAsync)(p, destroyed_stream());
   if (res == CUDA_SUCCESS)
      held.n_allocs--; /* freed: not again */
   return (int)res;
}

/* ---- The runtime's ------------------------------------------------------ */

static int
rt_malloc_async(size_t size)
{
   void *p = NULL;
   cudaError_t err = CALL(cudaMallocAsync)(&p, size, 0);
   if (err == cudaSuccess && p)
      hold_alloc((CUdeviceptr)(uintptr_t)p, NULL);
   return (int)err;
}
static int rt_malloc_async_ok(void) { return rt_malloc_async(4096); }
static int rt_malloc_async_size_0(void) { return rt_malloc_async(0); }
static int rt_malloc_async_huge(void) { return rt_malloc_async(HUGE_SIZE); }
static int rt_malloc_async_null(void) { return (int)CALL(cudaMallocAsync)(NULL, 4096, 0); }

static int rt_free_async_null(void) { return (int)CALL(cudaFreeAsync)(NULL, 0); }

static int
rt_free_async_malloc(void)
{
   void *p = NULL;
   NEED(CALL(cudaMalloc)(&p, 4096));
   cudaError_t err = CALL(cudaFreeAsync)(p, 0);
   if (err != cudaSuccess)
      HOLD(rt_memory, n_rt_memory, p);
   return (int)err;
}

static int
rt_malloc_from_pool(size_t size, cudaMemPool_t pool)
{
   void *p = NULL;
   cudaError_t err = CALL(cudaMallocFromPoolAsync)(&p, size, pool, 0);
   if (err == cudaSuccess && p)
      hold_alloc((CUdeviceptr)(uintptr_t)p, NULL);
   return (int)err;
}
static int rt_malloc_from_pool_ok(void) { return rt_malloc_from_pool(4096, make_pool()); }
static int rt_malloc_from_pool_size_0(void) { return rt_malloc_from_pool(0, make_pool()); }
static int rt_malloc_from_pool_null_pool(void) { return rt_malloc_from_pool(4096, NULL); }

static int
rt_pool_create(CUmemPoolProps props)
{
   cudaMemPool_t pool = NULL;
   cudaError_t err = CALL(cudaMemPoolCreate)(&pool, (const struct cudaMemPoolProps *)&props);
   if (err == cudaSuccess)
      HOLD(pools, n_pools, pool);
   return (int)err;
}
static int rt_pool_create_ok(void) { return rt_pool_create(pool_props()); }
static int
rt_pool_create_managed(void)
{
   CUmemPoolProps props = pool_props();
   props.allocType = CU_MEM_ALLOCATION_TYPE_MANAGED;
   return rt_pool_create(props);
}
static int
rt_pool_create_past_count(void)
{
   CUmemPoolProps props = pool_props();
   props.location.id = device_count();
   return rt_pool_create(props);
}
static int
rt_pool_create_posix_fd(void)
{
   CUmemPoolProps props = pool_props();
   props.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
   return rt_pool_create(props);
}

static int rt_pool_destroy_default(void) { return (int)CALL(cudaMemPoolDestroy)(default_pool()); }
static int rt_pool_destroy_destroyed(void) { return (int)CALL(cudaMemPoolDestroy)(destroyed_pool()); }

static int
rt_get_default_past_count(void)
{
   cudaMemPool_t pool = NULL;
   return (int)CALL(cudaDeviceGetDefaultMemPool)(&pool, device_count());
}
static int
rt_get_current_past_count(void)
{
   cudaMemPool_t pool = NULL;
   return (int)CALL(cudaDeviceGetMemPool)(&pool, device_count());
}
static int rt_set_current_past_count(void) { return (int)CALL(cudaDeviceSetMemPool)(device_count(), make_pool()); }
static int rt_set_current_null(void) { return (int)CALL(cudaDeviceSetMemPool)(0, NULL); }

static int
rt_set_attr_used_current(void)
{
   cuuint64_t value = 0;
   return (int)CALL(cudaMemPoolSetAttribute)(make_pool(), cudaMemPoolAttrUsedMemCurrent, &value);
}
static int
rt_set_attr_0(void)
{
   cuuint64_t value = 0;
   return (int)CALL(cudaMemPoolSetAttribute)(make_pool(), (enum cudaMemPoolAttr)0, &value);
}

static int
rt_set_access_own_none(void)
{
   struct cudaMemAccessDesc d;
   memset(&d, 0, sizeof(d));
   d.location.type = cudaMemLocationTypeDevice;
   d.location.id = 0;
   d.flags = cudaMemAccessFlagsProtNone;
   return (int)CALL(cudaMemPoolSetAccess)(make_pool(), &d, 1);
}

static int rt_trim_destroyed(void) { return (int)CALL(cudaMemPoolTrimTo)(destroyed_pool(), 0); }

static int
rt_export_none(void)
{
   unsigned char handle[64] = { 0 };
   return (int)CALL(cudaMemPoolExportToShareableHandle)(handle, make_pool(), cudaMemHandleTypeNone, 0);
}

/* ---- The cases, in the order they print -------------------------------- */

static const struct codes_case cases[] = {
   DRV("pool.create.ok", create_ok),
   DRV_FORKED("pool.create.null_pool", create_null_pool),
   DRV_FORKED("pool.create.null_props", create_null_props),
   DRV("pool.create.alloc_type_invalid", create_alloc_type_invalid),
   DRV("pool.create.alloc_type_managed", create_alloc_type_managed),
   DRV("pool.create.alloc_type_7", create_alloc_type_7),
   DRV("pool.create.location_invalid", create_location_invalid),
   DRV("pool.create.location_host", create_location_host),
   DRV("pool.create.location_host_numa", create_location_host_numa),
   DRV("pool.create.location_host_numa_current", create_location_host_numa_current),
   DRV("pool.create.location_type_127", create_location_type_127),
   DRV("pool.create.device_minus_1", create_device_minus_1),
   DRV("pool.create.device_past_count", create_device_past_count),
   DRV("pool.create.handle_posix_fd", create_handle_posix_fd),
   DRV("pool.create.handle_fabric", create_handle_fabric),
   DRV("pool.create.handle_win32", create_handle_win32),
   DRV("pool.create.handle_win32_kmt", create_handle_win32_kmt),
   DRV("pool.create.handle_0x10", create_handle_0x10),
   DRV_FORKED("pool.create.win32_security_attributes", create_win32_attributes),
   DRV("pool.create.usage_hw_decompress", create_usage_hw_decompress),
   DRV("pool.create.usage_0x80", create_usage_0x80),
   DRV("pool.create.reserved_not_zero", create_reserved),
   DRV("pool.create.max_size_1", create_max_size_1),
   DRV("pool.create.max_size_2m.ok", create_max_size_2m_ok),

   DRV("pool.destroy.ok", destroy_ok),
   DRV_FORKED("pool.destroy.default", destroy_default),
   DRV_FORKED("pool.destroy.twice", destroy_twice),
   DRV_FORKED("pool.destroy.null", destroy_null),
   DRV_FORKED("pool.destroy.current", destroy_current),
   DRV_FORKED("pool.destroy.live_allocation", destroy_live_allocation),

   DRV("pool.get_default.ok", get_default_ok),
   DRV_FORKED("pool.get_default.null", get_default_null),
   DRV("pool.get_default.device_past_count", get_default_past_count),
   DRV("pool.get_default.device_minus_1", get_default_minus_1),
   DRV("pool.get_current.ok", get_current_ok),
   DRV_FORKED("pool.get_current.null", get_current_null),
   DRV("pool.get_current.device_past_count", get_current_past_count),
   DRV("pool.set_current.ok", set_current_ok),
   DRV("pool.set_current.default.ok", set_current_default_ok),
   DRV_FORKED("pool.set_current.null", set_current_null),
   DRV_FORKED("pool.set_current.destroyed", set_current_destroyed),
   DRV("pool.set_current.device_past_count", set_current_past_count),
   DRV("pool.set_current.device_minus_1", set_current_minus_1),
   DRV("pool.mem_get_default.ok", mem_get_default_ok),
   DRV("pool.mem_get_default.host", mem_get_default_host),
   DRV("pool.mem_get_default.host_numa", mem_get_default_host_numa),
   DRV("pool.mem_get_default.managed", mem_get_default_managed),
   DRV("pool.mem_get_default.alloc_type_invalid", mem_get_default_alloc_type_invalid),
   DRV("pool.mem_get_default.location_invalid", mem_get_default_location_invalid),
   DRV("pool.mem_get_default.device_past_count", mem_get_default_past_count),
   DRV_FORKED("pool.mem_get_default.null_location", mem_get_default_null_location),
   DRV("pool.mem_get_current.host", mem_get_current_host),
   DRV("pool.mem_set_current.ok", mem_set_current_ok),
   DRV_FORKED("pool.mem_set_current.device_pool_for_host", mem_set_current_host),
   DRV_FORKED("pool.mem_set_current.managed", mem_set_current_managed),

   DRV("pool.get_attr.ok", get_attr_ok),
   DRV("pool.get_attr.attr_0", get_attr_0),
   DRV("pool.get_attr.attr_9", get_attr_9),
   DRV_FORKED("pool.get_attr.null_value", get_attr_null_value),
   DRV_FORKED("pool.get_attr.destroyed", get_attr_destroyed),
   DRV_FORKED("pool.get_attr.null_pool", get_attr_null_pool),
   DRV("pool.set_attr.release_threshold.ok", set_attr_threshold_ok),
   DRV("pool.set_attr.reuse_0.ok", set_attr_reuse_0_ok),
   DRV("pool.set_attr.reuse_2", set_attr_reuse_2),
   DRV("pool.set_attr.used_high_0.ok", set_attr_used_high_0_ok),
   DRV("pool.set_attr.used_high_1", set_attr_used_high_1),
   DRV("pool.set_attr.reserved_high_0.ok", set_attr_reserved_high_0_ok),
   DRV("pool.set_attr.reserved_high_1", set_attr_reserved_high_1),
   DRV("pool.set_attr.used_current", set_attr_used_current),
   DRV("pool.set_attr.reserved_current", set_attr_reserved_current),
   DRV("pool.set_attr.attr_0", set_attr_0),
   DRV("pool.set_attr.attr_9", set_attr_9),
   DRV_FORKED("pool.set_attr.null_value", set_attr_null_value),
   DRV_FORKED("pool.set_attr.destroyed", set_attr_destroyed),

   DRV("pool.trim.ok", trim_ok),
   DRV("pool.trim.default.ok", trim_default_ok),
   DRV_FORKED("pool.trim.destroyed", trim_destroyed),
   DRV_FORKED("pool.trim.null", trim_null),

   DRV("pool.set_access.own_rw.ok", set_access_own_rw_ok),
   DRV("pool.set_access.own_none", set_access_own_none),
   DRV("pool.set_access.own_read", set_access_own_read),
   DRV_FORKED("pool.set_access.default_own_none", set_access_default_own_none),
   DRV("pool.set_access.flags_7", set_access_flags_7),
   DRV("pool.set_access.host", set_access_host),
   DRV("pool.set_access.location_invalid", set_access_location_invalid),
   DRV("pool.set_access.device_past_count", set_access_past_count),
   DRV("pool.set_access.device_past_count_none", set_access_past_count_none),
   DRV("pool.set_access.count_0", set_access_count_0),
   DRV("pool.set_access.null_map_count_0", set_access_null_count_0),
   DRV_FORKED("pool.set_access.null_map_count_1", set_access_null_count_1),
   DRV_FORKED("pool.set_access.destroyed", set_access_destroyed),
   DRV("pool.get_access.own.ok", get_access_own_ok),
   DRV("pool.get_access.host", get_access_host),
   DRV("pool.get_access.location_invalid", get_access_location_invalid),
   DRV("pool.get_access.device_past_count", get_access_past_count),
   DRV_FORKED("pool.get_access.null_flags", get_access_null_flags),
   DRV_FORKED("pool.get_access.null_location", get_access_null_location),

   DRV("pool.export.handle_none", export_none),
   DRV("pool.export.posix_fd_unshareable", export_posix_fd_unshareable),
   DRV_FORKED("pool.export.destroyed", export_destroyed),
   DRV_FORKED("pool.import.handle_none", import_none),
   DRV_FORKED("pool.import.fd_minus_1", import_fd_minus_1),
   DRV_FORKED("pool.export_pointer.mem_alloc", export_pointer_mem_alloc),
   DRV_FORKED("pool.export_pointer.unshareable", export_pointer_unshareable),
   DRV_FORKED("pool.export_pointer.null", export_pointer_null),
   DRV_FORKED("pool.import_pointer.unshareable", import_pointer_unshareable),

   DRV("async.alloc.ok", alloc_async_ok),
   DRV("async.alloc.null_stream.ok", alloc_async_null_stream_ok),
   DRV("async.alloc.size_0", alloc_async_size_0),
   DRV("async.alloc.huge", alloc_async_huge),
   DRV_FORKED("async.alloc.null_ptr", alloc_async_null_ptr),
   DRV_FORKED("async.alloc.destroyed_stream", alloc_async_destroyed_stream),
   DRV("async.alloc.other_context_stream", alloc_async_other_context),
   DRV_FORKED("async.alloc.no_context", alloc_async_no_context),
   DRV("async.alloc_from_pool.ok", alloc_from_pool_ok),
   DRV("async.alloc_from_pool.default.ok", alloc_from_pool_default_ok),
   DRV("async.alloc_from_pool.size_0", alloc_from_pool_size_0),
   DRV("async.alloc_from_pool.huge", alloc_from_pool_huge),
   DRV("async.alloc_from_pool.past_max_size", alloc_from_pool_past_max_size),
   DRV_FORKED("async.alloc_from_pool.null_pool", alloc_from_pool_null_pool),
   DRV_FORKED("async.alloc_from_pool.destroyed_pool", alloc_from_pool_destroyed_pool),
   DRV_FORKED("async.alloc_from_pool.null_ptr", alloc_from_pool_null_ptr),
   DRV_FORKED("async.alloc_from_pool.destroyed_stream", alloc_from_pool_destroyed_stream),
   DRV("async.alloc_from_pool.other_context_stream", alloc_from_pool_other_context),
   DRV("async.free.ok", free_async_ok),
   DRV("async.free.null", free_async_null),
   DRV("async.free.mem_alloc", free_async_mem_alloc),
   DRV("async.free.other_context_stream", free_async_other_context),
   DRV_FORKED("async.free.twice", free_async_twice),
   DRV_FORKED("async.free.interior", free_async_interior),
   DRV_FORKED("async.free.destroyed_stream", free_async_destroyed_stream),

   RT("rt.malloc_async.ok", rt_malloc_async_ok),
   RT("rt.malloc_async.size_0", rt_malloc_async_size_0),
   RT("rt.malloc_async.huge", rt_malloc_async_huge),
   RT_FORKED("rt.malloc_async.null", rt_malloc_async_null),
   RT("rt.free_async.null", rt_free_async_null),
   RT("rt.free_async.malloc", rt_free_async_malloc),
   RT("rt.malloc_from_pool.ok", rt_malloc_from_pool_ok),
   RT("rt.malloc_from_pool.size_0", rt_malloc_from_pool_size_0),
   RT_FORKED("rt.malloc_from_pool.null_pool", rt_malloc_from_pool_null_pool),
   RT("rt.pool_create.ok", rt_pool_create_ok),
   RT("rt.pool_create.alloc_type_managed", rt_pool_create_managed),
   RT("rt.pool_create.device_past_count", rt_pool_create_past_count),
   RT("rt.pool_create.handle_posix_fd", rt_pool_create_posix_fd),
   RT_FORKED("rt.pool_destroy.default", rt_pool_destroy_default),
   RT_FORKED("rt.pool_destroy.destroyed", rt_pool_destroy_destroyed),
   RT("rt.get_default.device_past_count", rt_get_default_past_count),
   RT("rt.get_current.device_past_count", rt_get_current_past_count),
   RT("rt.set_current.device_past_count", rt_set_current_past_count),
   RT_FORKED("rt.set_current.null", rt_set_current_null),
   RT("rt.set_attr.used_current", rt_set_attr_used_current),
   RT("rt.set_attr.attr_0", rt_set_attr_0),
   RT("rt.set_access.own_none", rt_set_access_own_none),
   RT_FORKED("rt.trim.destroyed", rt_trim_destroyed),
   RT("rt.export.handle_none", rt_export_none),
};

static const struct codes_probe probe = {
   "mempool_codes_probe", cases, CODES_COUNT(cases), look_up, NULL, release_held,
};

int
main(int argc, char **argv)
{
   return codes_probe_main(&probe, argc, argv);
}
