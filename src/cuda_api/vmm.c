/*
 * Virtual memory management: cuMemAddressReserve, cuMemCreate, cuMemMap
 * and the calls around them.
 *
 * A reservation is a range of cuvk's device address space with nothing
 * behind it.  cuMemCreate makes one VkDeviceMemory (exportable as an
 * OPAQUE_FD when asked) with a buffer over it.  cuMemMap enters a range of
 * the reservation in the range map, pointing at that buffer, so mapped
 * addresses are ordinary device memory for every copy and fill; a copy
 * that crosses from one mapping into the next is split at the seam by the
 * transfer engine.  On devices with sparse residency for buffers the
 * reservation gets one sparse VkBuffer at its first mapping and the
 * mappings point into it instead, bound with vkQueueBindSparse, so the
 * seams vanish on the device too (vmm_sparse.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuda_api/memory.h"
#include "cuda_api/vmm_sparse.h"
#include "mem/block_heap.h"
#include "mem/import_size.h"
#include "mem/registry.h"
#include "mem/va_space.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"
#include "util/rb_tree.h"

/* CUDA's granularity on current GPUs; a multiple of what any Vulkan
 * device needs for a buffer binding, so code tuned for CUDA's value keeps
 * working. */
#define VMM_GRANULARITY (2ull << 20)

struct vmm_handle {
   struct cuvk_object base;
   struct cuvk_context *ctx;
   struct cuvk_list link;       /* in ctx->vmm_handles */
   CUmemAllocationProp prop;
   size_t size;
   uint32_t type_index;
   struct cuvk_mem_block *block;
   bool exportable;
   bool exported;
   /* Memory a buffer outside cuvk may alias (exportable or imported):
    * never bound into a sparse buffer (see reservation_sparse). */
   bool shared;
   /* The memory lives while either count is nonzero: cuMemRelease drops
    * a handle reference, cuMemUnmap a mapping.  The handle is in the
    * object table exactly while handle_refs is nonzero, and both change
    * together under vmm_lock: whoever takes the second count to zero
    * owns h from then on and frees it, so nobody may touch h after
    * dropping a count unless that drop was the last.  call_refs counts
    * the calls that found the handle live and still read h (handle_get):
    * a cuMemRelease on another thread meanwhile leaves h to the last of
    * them. */
   unsigned handle_refs;
   unsigned map_refs;
   unsigned call_refs;
   unsigned sparse_maps;        /* of map_refs, those through a sparse buffer */
   struct cuvk_deferred release;
};

struct vmm_reservation {
   struct cuvk_rb_node node;    /* keyed by start */
   uint64_t size;
   /* Made at the first mapping on a device with sparse reservations;
    * NULL before, and for good once making it failed. */
   struct cuvk_vmm_sparse *sparse;
   bool sparse_failed;
};

/* Guards the reservations and every handle's counts. */
static pthread_mutex_t vmm_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cuvk_rb_tree vmm_reservations;

static struct vmm_reservation *
reservation_containing(uint64_t ptr, uint64_t size)
{
   struct cuvk_rb_node *node = cuvk_rb_tree_floor(&vmm_reservations, ptr);
   if (!node)
      return NULL;
   struct vmm_reservation *r = cuvk_container_of(node, struct vmm_reservation, node);
   if (ptr - node->key >= r->size || size > r->size - (ptr - node->key))
      return NULL;
   return r;
}

static void
handle_free(struct cuvk_context *ctx, void *data)
{
   struct vmm_handle *h = data;
   cuvk_mem_block_destroy(h->block);
   free(h);
}

/* The memory goes once the GPU is done with it. */
static void
handle_destroy(struct vmm_handle *h, bool ctx_locked)
{
   struct cuvk_context *ctx = h->ctx;

   if (h->exported)
      cuvk_mem_registry_forget_owner(h);
   if (!ctx_locked)
      pthread_mutex_lock(&ctx->lock);
   cuvk_list_del(&h->link);
   h->release.fn = handle_free;
   h->release.data = h;
   /* Memory cuMemCreate made is what later allocations wait to get back. */
   cuvk_submit_defer_bytes(ctx, &h->release, h->block->budget ? h->size : 0);
   if (!ctx_locked)
      pthread_mutex_unlock(&ctx->lock);
}

/* Drops a mapping's reference.  Mapping releases run as deferred work,
 * under the context lock. */
static void
handle_unmap(struct vmm_handle *h, bool sparse)
{
   pthread_mutex_lock(&vmm_lock);
   if (sparse)
      h->sparse_maps--;
   bool last = --h->map_refs == 0 && h->handle_refs == 0 && h->call_refs == 0;
   pthread_mutex_unlock(&vmm_lock);
   if (last)
      handle_destroy(h, true);
}

void
cuvk_vmm_release_context(struct cuvk_context *ctx)
{
   /* Reservations outlive contexts; a later mapping from another
    * context may give one a new sparse buffer. */
   pthread_mutex_lock(&vmm_lock);
   for (struct cuvk_rb_node *n = cuvk_rb_tree_first(&vmm_reservations); n; n = cuvk_rb_tree_next(n)) {
      struct vmm_reservation *r = cuvk_container_of(n, struct vmm_reservation, node);
      if (r->sparse && r->sparse->ctx == ctx) {
         cuvk_vmm_sparse_destroy_now(r->sparse);
         r->sparse = NULL;
      }
   }
   pthread_mutex_unlock(&vmm_lock);

   cuvk_list_for_each_entry_safe(struct vmm_handle, h, &ctx->vmm_handles, link) {
      pthread_mutex_lock(&vmm_lock);
      if (h->handle_refs)
         cuvk_object_remove(&h->base);
      pthread_mutex_unlock(&vmm_lock);
      if (h->exported)
         cuvk_mem_registry_forget_owner(h);
      cuvk_list_del(&h->link);
      handle_free(ctx, h);
   }
}

/* The live handle, counted in call_refs until handle_put, with a
 * reference to its context (a context being destroyed frees its handles
 * once no call holds it, and its handles are dead to later calls). */
static CUresult
handle_get(CUmemGenericAllocationHandle handle, const char *entry, struct vmm_handle **out)
{
   struct vmm_handle *h = (struct vmm_handle *)(uintptr_t)handle;
   pthread_mutex_lock(&vmm_lock);
   bool live = handle && cuvk_object_is(h, CUVK_OBJECT_VMM_HANDLE) &&
               cuvk_object_get(h->ctx, CUVK_OBJECT_CONTEXT);
   if (live)
      h->call_refs++;
   pthread_mutex_unlock(&vmm_lock);
   if (!live)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: 0x%llx is not a live allocation handle", entry,
                        (unsigned long long)handle);
   *out = h;
   return CUDA_SUCCESS;
}

/* Not under the context's lock: the last count takes it. */
static void
handle_put(struct vmm_handle *h)
{
   struct cuvk_context *ctx = h->ctx;
   pthread_mutex_lock(&vmm_lock);
   bool last = --h->call_refs == 0 && h->handle_refs == 0 && h->map_refs == 0;
   pthread_mutex_unlock(&vmm_lock);
   if (last)
      handle_destroy(h, false);
   cuvk_context_put(ctx);
}

static CUresult
check_prop(const CUmemAllocationProp *prop, const char *entry)
{
   struct cuvk_device *dev;

   if (!prop)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: prop is NULL", entry);
   if (prop->type != CU_MEM_ALLOCATION_TYPE_PINNED)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: allocation type %d is not PINNED", entry, (int)prop->type);
   if (prop->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: location type %d is not a device", entry,
                        (int)prop->location.type);
   CUresult res = cuvk_device_get(prop->location.id, entry, &dev);
   if (res != CUDA_SUCCESS)
      return res;
   unsigned types = (unsigned)prop->requestedHandleTypes;
   if (types & ~(unsigned)(CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR | CU_MEM_HANDLE_TYPE_WIN32 |
                           CU_MEM_HANDLE_TYPE_WIN32_KMT | CU_MEM_HANDLE_TYPE_FABRIC))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: unknown handle types 0x%x", entry, types);
   if (types & ~(unsigned)CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "%s: only POSIX file descriptor handles are supported "
                        "(asked for 0x%x)", entry, types);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemGetAllocationGranularity(size_t *granularity, const CUmemAllocationProp *prop,
                              CUmemAllocationGranularity_flags option)
{
   CUresult res = cuvk_driver_check("cuMemGetAllocationGranularity");
   if (res != CUDA_SUCCESS)
      return res;
   if (!granularity)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemGetAllocationGranularity: granularity is NULL");
   if (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM && option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemGetAllocationGranularity: unknown option %d", (int)option);
   res = check_prop(prop, "cuMemGetAllocationGranularity");
   if (res != CUDA_SUCCESS)
      return res;
   *granularity = VMM_GRANULARITY;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr,
                    unsigned long long flags)
{
   struct vmm_reservation *r;
   uint64_t start;
   CUresult res = cuvk_driver_check("cuMemAddressReserve");
   if (res != CUDA_SUCCESS)
      return res;
   if (!ptr)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemAddressReserve: ptr is NULL");
   if (flags != 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemAddressReserve: flags must be 0");
   if (size == 0 || size % VMM_GRANULARITY)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "cuMemAddressReserve: size %zu is not a nonzero multiple of the granularity %llu",
                        size, VMM_GRANULARITY);
   /* Any power of two is accepted (CUDA takes 4 KiB as readily as 2 MiB);
    * reservations are never less aligned than the granularity. */
   if (alignment != 0 && !CUVK_IS_POW2(alignment))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemAddressReserve: alignment %zu is not a power of two",
                        alignment);
   alignment = CUVK_MAX(alignment, (size_t)VMM_GRANULARITY);
   if (addr % VMM_GRANULARITY)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "cuMemAddressReserve: address hint 0x%llx is not aligned to the granularity",
                        (unsigned long long)addr);

   r = calloc(1, sizeof(*r));
   if (!r)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuMemAddressReserve: out of host memory");
   /* A hint that is taken is ignored, as CUDA does. */
   res = cuvk_mem_va_alloc(size, alignment, addr % alignment ? 0 : addr, &start);
   if (res != CUDA_SUCCESS) {
      free(r);
      return res;
   }
   r->size = size;
   pthread_mutex_lock(&vmm_lock);
   cuvk_rb_tree_insert(&vmm_reservations, &r->node, start);
   pthread_mutex_unlock(&vmm_lock);
   *ptr = start;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
   struct cuvk_mem_range_map *map = cuvk_mem_ranges();
   CUresult res = cuvk_driver_check("cuMemAddressFree");
   if (res != CUDA_SUCCESS)
      return res;

   /* The range map's lock comes before vmm_lock, the order
    * cuMemRetainAllocationHandle takes them in (ThreadSanitizer found
    * this call taking them the other way round). */
   cuvk_mem_range_map_read_lock(map);
   pthread_mutex_lock(&vmm_lock);
   struct cuvk_rb_node *node = cuvk_rb_tree_search(&vmm_reservations, ptr);
   struct vmm_reservation *r = node ? cuvk_container_of(node, struct vmm_reservation, node) : NULL;
   if (!r || r->size != size) {
      pthread_mutex_unlock(&vmm_lock);
      cuvk_mem_range_map_read_unlock(map);
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "cuMemAddressFree: 0x%llx+%zu is not a reservation from cuMemAddressReserve",
                        (unsigned long long)ptr, size);
   }
   struct cuvk_mem_range *mapped = cuvk_mem_range_map_lookup_next_locked(map, ptr);
   if (mapped && mapped->start < ptr + size) {
      pthread_mutex_unlock(&vmm_lock);
      cuvk_mem_range_map_read_unlock(map);
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemAddressFree: 0x%llx+%zu still has mappings; "
                        "cuMemUnmap them first", (unsigned long long)ptr, size);
   }
   cuvk_rb_tree_remove(&vmm_reservations, &r->node);
   pthread_mutex_unlock(&vmm_lock);
   cuvk_mem_range_map_read_unlock(map);
   if (r->sparse)
      cuvk_vmm_sparse_destroy(r->sparse);
   cuvk_mem_va_free(ptr, size);
   free(r);
   return CUDA_SUCCESS;
}

static CUresult
handle_create(struct cuvk_context *ctx, VkDeviceMemory memory, uint32_t type_index, size_t size,
              bool exportable, bool shared, bool counted, const CUmemAllocationProp *prop,
              CUmemGenericAllocationHandle *out)
{
   struct cuvk_device *dev = ctx->dev;
   struct vmm_handle *h = NULL;
   CUresult res;

   h = calloc(1, sizeof(*h));
   if (!h) {
      vkFreeMemory(ctx->vk, memory, NULL);
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for an allocation handle");
   }
   VkMemoryPropertyFlags type_flags = dev->mem.memoryTypes[type_index].propertyFlags;
   bool host_visible = type_flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
   /* The handle's own buffer is made for the memory's handle type; an
    * external buffer would not take private memory of the BAR type. */
   res = cuvk_mem_block_wrap(ctx->vk, memory, VK_NULL_HANDLE, size, host_visible,
                             shared ? VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT : 0, &h->block);
   if (res != CUDA_SUCCESS) {
      vkFreeMemory(ctx->vk, memory, NULL);
      free(h);
      return res;
   }
   h->block->cached = type_flags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
   if (counted) {
      /* The block gives the bytes back to the budget when destroyed; set
       * before the handle is published, so no thread sees it without. */
      h->block->budget = &dev->budget;
      h->block->type_index = type_index;
   }
   h->ctx = ctx;
   h->prop = *prop;
   h->size = size;
   h->type_index = type_index;
   h->exportable = exportable;
   h->shared = shared;
   h->handle_refs = 1;
   pthread_mutex_lock(&ctx->lock);
   cuvk_list_addtail(&h->link, &ctx->vmm_handles);
   pthread_mutex_unlock(&ctx->lock);
   cuvk_object_add(&h->base, CUVK_OBJECT_VMM_HANDLE, NULL);
   *out = (CUmemGenericAllocationHandle)(uintptr_t)h;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop,
            unsigned long long flags)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   VkDeviceMemory memory;
   CUresult res = cuvk_context_current("cuMemCreate", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!handle)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemCreate: handle is NULL");
   if (flags != 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemCreate: flags must be 0");
   res = check_prop(prop, "cuMemCreate");
   if (res != CUDA_SUCCESS)
      return res;
   if (size == 0 || size % VMM_GRANULARITY)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "cuMemCreate: size %zu is not a nonzero multiple of the granularity %llu",
                        size, VMM_GRANULARITY);
   /* Exportable memory takes a type an OPAQUE_FD buffer can bind (on
    * NVIDIA not the host-visible BAR type); memory that stays in cuvk
    * takes cuMemAlloc's type, whatever the device policy chose. */
   bool exportable = prop->requestedHandleTypes & CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
   uint32_t type_index = exportable ? ctx->opaque_fd_type_index : ctx->dev->device_type_index;
   if (size > cuvk_device_max_allocation(ctx->dev, type_index))
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuMemCreate: %zu bytes exceed the largest allocation "
                        "the device allows", size);
   if (prop->location.id != ctx->dev->ordinal)
      return cuvk_error(CUDA_ERROR_INVALID_DEVICE,
                        "cuMemCreate: the current context is on device %d, not %d", ctx->dev->ordinal,
                        prop->location.id);

   VkExportMemoryAllocateInfo export_info = {
      .sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO,
      .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
   };
   /* Counted against the device's heap like cuMemAlloc's blocks: out of
    * memory only once frees waiting for the GPU are back. */
   struct cuvk_mem_budget *budget = &ctx->dev->budget;
   res = cuvk_mem_reserve(ctx, type_index, size, "cuMemCreate");
   if (res != CUDA_SUCCESS)
      return res;
   VkResult vr = cuvk_mem_allocate(ctx->vk, size, type_index, exportable ? &export_info : NULL,
                                   &memory);
   if (vr != VK_SUCCESS) {
      cuvk_mem_budget_unreserve(budget, type_index, size);
      return cuvk_vk_error(vr, "cuMemCreate: vkAllocateMemory");
   }
   res = handle_create(ctx, memory, type_index, size, exportable, exportable, true, prop, handle);
   if (res != CUDA_SUCCESS)
      cuvk_mem_budget_unreserve(budget, type_index, size);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemRelease(CUmemGenericAllocationHandle handle)
{
   struct vmm_handle *h = (struct vmm_handle *)(uintptr_t)handle;
   CUresult res = cuvk_driver_check("cuMemRelease");
   if (res != CUDA_SUCCESS)
      return res;

   /* Looked up, counted down and taken out of the object table in one
    * hold of vmm_lock.  Once the lock is dropped, a mapping's deferred
    * release (run by any thread that retires a batch) may free h, and a
    * cuMemRetainAllocationHandle may bring it back to life: issue 15
    * found the table entry removed after the unlock, from freed memory
    * or from under a handle just revived. */
   pthread_mutex_lock(&vmm_lock);
   if (!handle || !cuvk_object_is(h, CUVK_OBJECT_VMM_HANDLE)) {
      pthread_mutex_unlock(&vmm_lock);
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemRelease: 0x%llx is not a live allocation handle",
                        (unsigned long long)handle);
   }
   /* Mapped memory lives on until its last cuMemUnmap, but the handle
    * itself is gone: later calls with it fail. */
   bool dead_handle = --h->handle_refs == 0;
   if (dead_handle)
      cuvk_object_remove(&h->base);
   bool last = dead_handle && h->map_refs == 0 && h->call_refs == 0;
   pthread_mutex_unlock(&vmm_lock);

   if (last)
      handle_destroy(h, false);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp *prop, CUmemGenericAllocationHandle handle)
{
   struct vmm_handle *h = NULL;
   CUresult res = cuvk_driver_check("cuMemGetAllocationPropertiesFromHandle");
   if (res == CUDA_SUCCESS)
      res = handle_get(handle, "cuMemGetAllocationPropertiesFromHandle", &h);
   if (res != CUDA_SUCCESS)
      return res;
   if (prop)
      *prop = h->prop;
   else
      res = cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemGetAllocationPropertiesFromHandle: prop is NULL");
   handle_put(h);
   return res;
}

static bool
mapping_handle(struct cuvk_mem_range *range, void *data)
{
   struct cuvk_mem_alloc *alloc = cuvk_container_of(range, struct cuvk_mem_alloc, range);
   if (range->kind != CUVK_MEM_VMM)
      return false;
   struct vmm_handle *h = alloc->owner;
   pthread_mutex_lock(&vmm_lock);
   /* A released handle of a live mapping comes back to life, as the same
    * value, good for exactly one more release. */
   if (h->handle_refs++ == 0)
      cuvk_object_add(&h->base, CUVK_OBJECT_VMM_HANDLE, NULL);
   pthread_mutex_unlock(&vmm_lock);
   *(struct vmm_handle **)data = h;
   return true;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle, void *addr)
{
   struct vmm_handle *h = NULL;
   CUresult res = cuvk_driver_check("cuMemRetainAllocationHandle");
   if (res != CUDA_SUCCESS)
      return res;
   if (!handle)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemRetainAllocationHandle: handle is NULL");
   if (!cuvk_mem_range_map_find(cuvk_mem_ranges(), (uint64_t)(uintptr_t)addr, mapping_handle, &h))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemRetainAllocationHandle: %p is not mapped with cuMemMap",
                        addr);
   *handle = (CUmemGenericAllocationHandle)(uintptr_t)h;
   return CUDA_SUCCESS;
}

static void
mapping_release(struct cuvk_mem_alloc *alloc)
{
   struct vmm_handle *h = alloc->owner;
   handle_unmap(h, alloc->block != h->block);
}

/* The sparse buffer a mapping of h at offset into r goes into, made at
 * the reservation's first mapping; NULL where the mapping keeps the
 * handle's own buffer.  vmm_lock held.
 *
 * Two buffers over the same memory agree on its bytes only when created
 * alike: on an H200, bytes an application's Vulkan wrote through its own
 * buffer over exported memory read back stale through a sparse buffer
 * over the same memory, where cuvk's plain buffer saw them.  So memory
 * that leaves cuvk (exportable) or comes from outside (imported) keeps
 * plain buffers, and a handle is never reached through both kinds at
 * once. */
static struct cuvk_vmm_sparse *
reservation_sparse(struct vmm_reservation *r, const struct vmm_handle *h, uint64_t offset,
                   uint64_t *sparse_offset)
{
   struct cuvk_context *ctx = h->ctx;

   if (!ctx->dev->sparse_reservations || h->shared || h->map_refs > h->sparse_maps)
      return NULL;
   if (!r->sparse && !r->sparse_failed) {
      if (cuvk_vmm_sparse_create(ctx, r->size, &r->sparse) != CUDA_SUCCESS) {
         r->sparse_failed = true;
         cuvk_logi("reservation 0x%llx+%llu keeps one buffer per mapping; copies split at its seams",
                   (unsigned long long)r->node.key, (unsigned long long)r->size);
      }
   }
   if (!r->sparse || !cuvk_vmm_sparse_accepts(r->sparse, ctx, h->type_index, offset, h->size))
      return NULL;
   *sparse_offset = offset;
   return r->sparse;
}

/* Moves every mapping in [ptr, ptr + size) from the range map to dead;
 * the caller has checked that they lie wholly inside.  Write lock held. */
static void
mappings_take_locked(struct cuvk_mem_range_map *map, uint64_t ptr, uint64_t size, struct cuvk_list *dead)
{
   uint64_t end = ptr + size;
   struct cuvk_mem_range *r = cuvk_mem_range_map_lookup_locked(map, ptr);
   if (!r)
      r = cuvk_mem_range_map_lookup_next_locked(map, ptr);
   while (r && r->start < end) {
      struct cuvk_mem_range *next = cuvk_mem_range_map_lookup_next_locked(map, r->start + r->size);
      struct cuvk_mem_alloc *alloc = cuvk_container_of(r, struct cuvk_mem_alloc, range);
      cuvk_mem_range_map_remove_locked(map, r);
      cuvk_list_addtail(&alloc->release.link, dead);
      r = next;
   }
}

/* Unbinds the mappings among dead that live in sparse (when not NULL),
 * then releases them all: their memory goes once the GPU has done the
 * work recorded before and the unbinding. */
static CUresult
mappings_release(struct cuvk_vmm_sparse *sparse, struct cuvk_list *dead)
{
   VkSparseMemoryBind binds[16];
   uint32_t count = 0;
   CUresult res = CUDA_SUCCESS;

   cuvk_list_for_each_entry(struct cuvk_mem_alloc, alloc, dead, release.link) {
      if (!sparse || alloc->block != &sparse->block)
         continue;
      binds[count++] = (VkSparseMemoryBind){
         .resourceOffset = alloc->offset,
         .size = alloc->range.size,
         .memory = VK_NULL_HANDLE,
      };
      if (count == CUVK_ARRAY_SIZE(binds)) {
         CUresult r = cuvk_vmm_sparse_bind(sparse, binds, count);
         res = res != CUDA_SUCCESS ? res : r;
         count = 0;
      }
   }
   if (count) {
      CUresult r = cuvk_vmm_sparse_bind(sparse, binds, count);
      res = res != CUDA_SUCCESS ? res : r;
   }

   cuvk_list_for_each_entry_safe(struct cuvk_mem_alloc, alloc, dead, release.link) {
      cuvk_list_del(&alloc->release.link);
      cuvk_mem_alloc_release(alloc);
   }
   return res;
}

static CUresult map_handle(CUdeviceptr ptr, size_t size, size_t offset, struct vmm_handle *h,
                           CUmemGenericAllocationHandle handle);

CUVK_EXPORT CUresult CUDAAPI
cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
         unsigned long long flags)
{
   struct vmm_handle *h = NULL;
   CUresult res = cuvk_driver_check("cuMemMap");
   if (res != CUDA_SUCCESS)
      return res;
   if (flags != 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemMap: flags must be 0");
   if (handle == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemMap: handle is 0");
   res = handle_get(handle, "cuMemMap", &h);
   if (res != CUDA_SUCCESS)
      return res;
   /* A mapping made counts in map_refs; the call's count goes after. */
   res = map_handle(ptr, size, offset, h, handle);
   handle_put(h);
   return res;
}

static CUresult
map_handle(CUdeviceptr ptr, size_t size, size_t offset, struct vmm_handle *h, CUmemGenericAllocationHandle handle)
{
   struct cuvk_mem_alloc *alloc;
   CUresult res;

   /* Codes as real CUDA gives them (measured on an H200, driver 580):
    * an offset into the handle or a size other than the handle's is
    * NOT_SUPPORTED; a bad address or size is INVALID_VALUE. */
   if (offset != 0)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "cuMemMap: offset %zu into the handle; only 0 is supported",
                        offset);
   if (size == 0 || size % VMM_GRANULARITY || ptr % VMM_GRANULARITY)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemMap: 0x%llx+%zu is empty or not aligned to the "
                        "granularity", (unsigned long long)ptr, size);
   if (size != h->size)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "cuMemMap: size %zu, the handle has %zu bytes; "
                        "a mapping is the whole handle", size, h->size);
   struct cuvk_vmm_sparse *sparse = NULL;
   uint64_t sparse_offset = 0;
   pthread_mutex_lock(&vmm_lock);
   struct vmm_reservation *r = reservation_containing(ptr, size);
   if (r)
      sparse = reservation_sparse(r, h, ptr - r->node.key, &sparse_offset);
   bool kind_clash = r && !sparse && h->sparse_maps > 0;
   pthread_mutex_unlock(&vmm_lock);
   if (!r)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemMap: 0x%llx+%zu is not inside one reservation",
                        (unsigned long long)ptr, size);
   if (kind_clash)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "cuMemMap: handle 0x%llx is mapped through a sparse "
                        "reservation and 0x%llx+%zu cannot be one (another context's, or out of sparse "
                        "address space); unmap it there first", (unsigned long long)handle,
                        (unsigned long long)ptr, size);

   alloc = calloc(1, sizeof(*alloc));
   if (!alloc)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "cuMemMap: out of host memory");
   alloc->ctx = h->ctx;
   /* In a sparse reservation the mapping is a window of the reservation's
    * buffer; otherwise it is the handle's own buffer. */
   alloc->block = sparse ? &sparse->block : h->block;
   alloc->offset = sparse_offset;
   alloc->range.kind = CUVK_MEM_VMM;
   alloc->range.start = ptr;
   alloc->range.size = size;
   alloc->owner = h;
   alloc->on_release = mapping_release;

   pthread_mutex_lock(&vmm_lock);
   h->map_refs++;
   if (sparse)
      h->sparse_maps++;
   pthread_mutex_unlock(&vmm_lock);
   res = cuvk_mem_alloc_publish(alloc);
   if (res != CUDA_SUCCESS) {
      pthread_mutex_lock(&vmm_lock);
      h->map_refs--;
      if (sparse)
         h->sparse_maps--;
      pthread_mutex_unlock(&vmm_lock);
      free(alloc);
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemMap: 0x%llx+%zu overlaps a mapped range",
                        (unsigned long long)ptr, size);
   }

   /* Bound only once the range is known to be free: binding over a live
    * mapping would pull its memory from under it. */
   if (sparse) {
      VkSparseMemoryBind bind = {
         .resourceOffset = sparse_offset,
         .size = size,
         .memory = h->block->memory,
      };
      res = cuvk_vmm_sparse_bind(sparse, &bind, 1);
      if (res != CUDA_SUCCESS) {
         struct cuvk_mem_range_map *map = cuvk_mem_ranges();
         struct cuvk_list dead;
         cuvk_list_init(&dead);
         cuvk_mem_range_map_write_lock(map);
         mappings_take_locked(map, ptr, size, &dead);
         cuvk_mem_range_map_write_unlock(map);
         mappings_release(NULL, &dead);
         return res;
      }
   }
   return CUDA_SUCCESS;
}

/* Checks that [ptr, ptr + size) is a run of whole cuMemMap ranges: no
 * hole, and no range sticking out at either end.  Range map lock held. */
static bool
mappings_cover(struct cuvk_mem_range_map *map, uint64_t ptr, uint64_t size)
{
   uint64_t end = ptr + size;
   for (uint64_t addr = ptr; addr < end;) {
      struct cuvk_mem_range *r = cuvk_mem_range_map_lookup_locked(map, addr);
      if (!r || r->kind != CUVK_MEM_VMM)
         return false;
      if (r->start != addr || r->size > end - addr)
         return false;
      addr = r->start + r->size;
   }
   return true;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemUnmap(CUdeviceptr ptr, size_t size)
{
   struct cuvk_mem_range_map *map = cuvk_mem_ranges();
   struct cuvk_list dead;
   CUresult res = cuvk_driver_check("cuMemUnmap");
   if (res != CUDA_SUCCESS)
      return res;
   if (size == 0 || ptr + size < ptr)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemUnmap: empty or wrapping range");
   pthread_mutex_lock(&vmm_lock);
   struct vmm_reservation *resv = reservation_containing(ptr, size);
   struct cuvk_vmm_sparse *sparse = resv ? resv->sparse : NULL;
   pthread_mutex_unlock(&vmm_lock);
   if (!resv)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemUnmap: 0x%llx+%zu is not inside one reservation",
                        (unsigned long long)ptr, size);

   /* Every mapping the range touches must lie wholly inside it; reserved
    * addresses with nothing mapped are fine, as in CUDA (an allocator
    * may unmap its whole reservation at teardown). */
   uint64_t end = ptr + size;
   cuvk_mem_range_map_write_lock(map);
   struct cuvk_mem_range *first = cuvk_mem_range_map_lookup_locked(map, ptr);
   if (!first)
      first = cuvk_mem_range_map_lookup_next_locked(map, ptr);
   for (struct cuvk_mem_range *r = first; r && r->start < end;
        r = cuvk_mem_range_map_lookup_next_locked(map, r->start + r->size)) {
      if (r->kind != CUVK_MEM_VMM || r->start < ptr || r->start + r->size > end) {
         cuvk_mem_range_map_write_unlock(map);
         return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                           "cuMemUnmap: 0x%llx+%zu cuts the mapping at 0x%llx+%llu", (unsigned long long)ptr,
                           size, (unsigned long long)r->start, (unsigned long long)r->size);
      }
   }
   /* One call may span several mappings: take them all out under one
    * lock, unbind and release them after. */
   cuvk_list_init(&dead);
   mappings_take_locked(map, ptr, size, &dead);
   cuvk_mem_range_map_write_unlock(map);
   return mappings_release(sparse, &dead);
}

static CUresult
check_access_desc(const CUmemAccessDesc *d, const char *entry)
{
   if (d->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: location type %d is not a device", entry,
                        (int)d->location.type);
   /* CUDA answers an unknown device here with INVALID_VALUE. */
   if (d->location.id < 0 || d->location.id >= cuvk_driver.device_count)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: device %d does not exist", entry, d->location.id);
   if (d->flags != CU_MEM_ACCESS_FLAGS_PROT_NONE && d->flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
       d->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: unknown access flags %d", entry, (int)d->flags);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count)
{
   struct cuvk_mem_range_map *map = cuvk_mem_ranges();
   CUresult res = cuvk_driver_check("cuMemSetAccess");
   if (res != CUDA_SUCCESS)
      return res;
   if (!desc || count == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemSetAccess: no access descriptors");
   if (size == 0 || ptr + size < ptr)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemSetAccess: empty or wrapping range");
   for (size_t i = 0; i < count; i++) {
      res = check_access_desc(&desc[i], "cuMemSetAccess");
      if (res != CUDA_SUCCESS)
         return res;
   }

   cuvk_mem_range_map_write_lock(map);
   if (!mappings_cover(map, ptr, size)) {
      cuvk_mem_range_map_write_unlock(map);
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemSetAccess: 0x%llx+%zu is not a run of whole mappings",
                        (unsigned long long)ptr, size);
   }
   for (uint64_t addr = ptr; addr < ptr + size;) {
      struct cuvk_mem_range *r = cuvk_mem_range_map_lookup_locked(map, addr);
      struct cuvk_mem_alloc *alloc = cuvk_container_of(r, struct cuvk_mem_alloc, range);
      /* Memory lives in one VkDevice: its own device's entry is what
       * counts; other devices have no path to it in cuvk. */
      for (size_t i = 0; i < count; i++)
         if (desc[i].location.id == alloc->ctx->dev->ordinal)
            alloc->access_flags = desc[i].flags;
      addr = r->start + r->size;
   }
   cuvk_mem_range_map_write_unlock(map);

   for (size_t i = 0; i < count; i++) {
      if (desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_NONE && cuvk_driver.device_count > 1)
         cuvk_log_once(CUVK_LOG_WARN, "cuMemSetAccess: access from other devices (peer access) is not "
                       "supported by cuvk; only the owning device's entry takes effect");
   }
   return CUDA_SUCCESS;
}

struct access_query {
   int device;
   unsigned long long flags;
};

static bool
mapping_access(struct cuvk_mem_range *range, void *data)
{
   struct cuvk_mem_alloc *alloc = cuvk_container_of(range, struct cuvk_mem_alloc, range);
   struct access_query *q = data;
   if (range->kind != CUVK_MEM_VMM)
      return false;
   q->flags = q->device == alloc->ctx->dev->ordinal ? alloc->access_flags : CU_MEM_ACCESS_FLAGS_PROT_NONE;
   return true;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemGetAccess(unsigned long long *flags, const CUmemLocation *location, CUdeviceptr ptr)
{
   struct cuvk_device *dev;
   CUresult res = cuvk_driver_check("cuMemGetAccess");
   if (res != CUDA_SUCCESS)
      return res;
   if (!flags || !location)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemGetAccess: NULL argument");
   if (location->type != CU_MEM_LOCATION_TYPE_DEVICE)
      return cuvk_error(CUDA_ERROR_INVALID_DEVICE, "cuMemGetAccess: location type %d is not a device",
                        (int)location->type);
   res = cuvk_device_get(location->id, "cuMemGetAccess", &dev);
   if (res != CUDA_SUCCESS)
      return res;
   struct access_query q = { .device = location->id };
   if (!cuvk_mem_range_map_find(cuvk_mem_ranges(), ptr, mapping_access, &q))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemGetAccess: 0x%llx is not mapped with cuMemMap",
                        (unsigned long long)ptr);
   *flags = q.flags;
   return CUDA_SUCCESS;
}

static CUresult export_handle(void *shareable, struct vmm_handle *h, CUmemAllocationHandleType type,
                              unsigned long long flags);

CUVK_EXPORT CUresult CUDAAPI
cuMemExportToShareableHandle(void *shareable, CUmemGenericAllocationHandle handle,
                             CUmemAllocationHandleType type, unsigned long long flags)
{
   struct vmm_handle *h = NULL;
   CUresult res = cuvk_driver_check("cuMemExportToShareableHandle");
   if (res == CUDA_SUCCESS)
      res = handle_get(handle, "cuMemExportToShareableHandle", &h);
   if (res != CUDA_SUCCESS)
      return res;
   res = export_handle(shareable, h, type, flags);
   handle_put(h);
   return res;
}

static CUresult
export_handle(void *shareable, struct vmm_handle *h, CUmemAllocationHandleType type, unsigned long long flags)
{
   if (!shareable)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemExportToShareableHandle: shareableHandle is NULL");
   if (flags != 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemExportToShareableHandle: flags must be 0");
   if (type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
      return cuvk_error(type == CU_MEM_HANDLE_TYPE_WIN32 || type == CU_MEM_HANDLE_TYPE_WIN32_KMT ||
                        type == CU_MEM_HANDLE_TYPE_FABRIC ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_VALUE,
                        "cuMemExportToShareableHandle: handle type %d; only POSIX file descriptors", (int)type);
   if (!h->exportable)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemExportToShareableHandle: the allocation was not "
                        "created with requestedHandleTypes POSIX_FILE_DESCRIPTOR");

   struct cuvk_context *ctx = h->ctx;
   int fd = -1;
   VkMemoryGetFdInfoKHR info = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR,
      .memory = h->block->memory,
      .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
   };
   VkResult vr = ctx->GetMemoryFdKHR(ctx->vk, &info, &fd);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "cuMemExportToShareableHandle: vkGetMemoryFdKHR");

   /* Record the export as the layer would, so an importer in this process
    * (cuvk or, through the layer's lookups, anyone) knows size and type. */
   struct cuvk_mem_export_record *rec = calloc(1, sizeof(*rec));
   if (rec) {
      rec->has_uuids = true;
      memcpy(rec->device_uuid, ctx->dev->id.deviceUUID, VK_UUID_SIZE);
      memcpy(rec->driver_uuid, ctx->dev->id.driverUUID, VK_UUID_SIZE);
      rec->allocation_size = h->size;
      rec->memory_type_index = ctx->opaque_fd_type_index;
      rec->memory_flags = ctx->dev->mem.memoryTypes[rec->memory_type_index].propertyFlags;
      rec->allocate_flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
      rec->handle_types = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
      rec->dedicated = CUVK_MEM_DEDICATED_NONE;
      if (cuvk_mem_registry_register_fd(fd, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, h, rec))
         h->exported = true;
      free(rec);
   }
   *(int *)shareable = fd;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle, void *os_handle,
                               CUmemAllocationHandleType type)
{
   struct cuvk_context *ctx CUVK_HELD_CONTEXT = NULL;
   struct cuvk_mem_export_record rec;
   VkDeviceMemory memory;
   CUresult res = cuvk_context_current("cuMemImportFromShareableHandle", &ctx);
   if (res != CUDA_SUCCESS)
      return res;
   if (!handle)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemImportFromShareableHandle: handle is NULL");
   if (type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
      return cuvk_error(type == CU_MEM_HANDLE_TYPE_WIN32 || type == CU_MEM_HANDLE_TYPE_WIN32_KMT ||
                        type == CU_MEM_HANDLE_TYPE_FABRIC ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_VALUE,
                        "cuMemImportFromShareableHandle: handle type %d; only POSIX file descriptors", (int)type);

   /* The fd travels in the pointer argument, as CUDA defines it. */
   int fd = (int)(intptr_t)os_handle;
   struct stat st;
   if (fd < 0 || fcntl(fd, F_GETFD) < 0 || fstat(fd, &st) != 0 || S_ISFIFO(st.st_mode) ||
       S_ISSOCK(st.st_mode) || S_ISDIR(st.st_mode))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemImportFromShareableHandle: %d is not exported memory", fd);

   VkDeviceSize size;
   uint32_t type_index = ctx->opaque_fd_type_index;
   if (cuvk_mem_registry_lookup_fd(fd, &rec)) {
      if (rec.has_uuids && memcmp(rec.device_uuid, ctx->dev->id.deviceUUID, VK_UUID_SIZE) != 0)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                           "cuMemImportFromShareableHandle: fd %d was exported by another device", fd);
      size = rec.allocation_size;
      type_index = rec.memory_type_index;
   } else {
      /* Without a record the size is what the file says, where it says
       * anything (memfds and dma-bufs do). */
      /* A memfd may carry a driver's bookkeeping past the allocation
       * (lavapipe's does); allocations are whole granules, so round down. */
      off_t end = S_ISREG(st.st_mode) ? st.st_size : 0;
      size = (VkDeviceSize)CUVK_MAX(end, 0) / VMM_GRANULARITY * VMM_GRANULARITY;
      /* NVIDIA's fds tell nothing; its driver's imports do
       * (src/mem/import_size.h). */
      uint32_t heap = ctx->dev->mem.memoryTypes[type_index].heapIndex;
      if (size == 0 && ctx->dev->import_size_probe &&
          !cuvk_mem_probe_import_size(ctx->vk, fd, type_index, VMM_GRANULARITY,
                                      ctx->dev->mem.memoryHeaps[heap].size, &size))
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemImportFromShareableHandle: fd %d does not import "
                           "as %s memory", fd, ctx->dev->props.deviceName);
      if (size == 0)
         return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "cuMemImportFromShareableHandle: fd %d does not tell "
                           "its size and no export of it was recorded in this process", fd);
   }
   if (size % VMM_GRANULARITY)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuMemImportFromShareableHandle: fd %d holds %llu bytes, not a "
                        "multiple of the granularity", fd, (unsigned long long)size);

   /* CUDA leaves the fd with the caller: import a dup. */
   int dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
   if (dup_fd < 0)
      return cuvk_error(CUDA_ERROR_OPERATING_SYSTEM, "cuMemImportFromShareableHandle: dup failed: %s",
                        strerror(errno));
   VkImportMemoryFdInfoKHR import = {
      .sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR,
      .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
      .fd = dup_fd,
   };
   VkResult vr = cuvk_mem_allocate(ctx->vk, size, type_index, &import, &memory);
   if (vr != VK_SUCCESS) {
      close(dup_fd);
      return cuvk_vk_error(vr, "cuMemImportFromShareableHandle: vkAllocateMemory");
   }

   CUmemAllocationProp prop = {
      .type = CU_MEM_ALLOCATION_TYPE_PINNED,
      .requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
      .location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = ctx->dev->ordinal },
   };
   /* Imported memory was not allocated for export here, so it cannot be
    * exported again (docs/api-coverage.md). */
   return handle_create(ctx, memory, type_index, size, false, true, false, &prop, handle);
}
