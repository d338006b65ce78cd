/*
 * Sparse backing of a virtual memory reservation.
 *
 * On a device whose reservations may be sparse (util/device_policy.h), the
 * first cuMemMap into a reservation creates one VkBuffer with sparse
 * residency over the whole range, on the mapping context's device.  Each
 * mapping binds its handle's memory into that buffer at its offset, so
 * the mapped ranges are one buffer with one run of device addresses and a
 * copy or fill across a seam is one command.  Mappings from another
 * context, of memory the buffer cannot bind, or of memory shared with
 * buffers outside cuvk (exportable or imported: see vmm.c) keep their own
 * buffers and are split at seams as on devices without sparse binding.
 *
 * Bindings go through the context's queue in order with its other work
 * (cuvk_submit_bind_sparse): a mapping is bound before any later command
 * runs, an unmapping waits for every earlier command.
 */
#ifndef CUVK_API_VMM_SPARSE_H
#define CUVK_API_VMM_SPARSE_H

#include <stdbool.h>
#include <stdint.h>
#include <cuda.h>
#include <vulkan/vulkan.h>

#include "cuda_api/submit.h"
#include "mem/block_heap.h"

struct cuvk_context;

struct cuvk_vmm_sparse {
   /* The buffer and its device address, for the range map's mappings to
    * point at; it has no memory of its own and belongs to no heap. */
   struct cuvk_mem_block block;
   struct cuvk_context *ctx;
   uint32_t type_bits;           /* memory types it can bind */
   VkDeviceSize alignment;       /* of bindings' offsets and sizes */
   struct cuvk_deferred release;
};

/* Creates the sparse buffer for a reservation of size bytes on ctx's
 * device.  Fails (with a log line, and no error for the caller to pass
 * on: the mapping then keeps its own buffer) when the device cannot hold
 * one that large. */
CUresult cuvk_vmm_sparse_create(struct cuvk_context *ctx, uint64_t size, struct cuvk_vmm_sparse **out);

/* Whether memory of type_index on ctx can be bound at offset..+size. */
bool cuvk_vmm_sparse_accepts(const struct cuvk_vmm_sparse *sp, const struct cuvk_context *ctx,
                             uint32_t type_index, uint64_t offset, uint64_t size);

/* Binds memory (VK_NULL_HANDLE: unbinds) at offset..+size of the buffer,
 * ordered with the context's work.  Takes the context lock. */
CUresult cuvk_vmm_sparse_bind(struct cuvk_vmm_sparse *sp, const VkSparseMemoryBind *binds, uint32_t count);

/* Destroys the buffer once the GPU is done with everything recorded so
 * far.  Takes the context lock. */
void cuvk_vmm_sparse_destroy(struct cuvk_vmm_sparse *sp);

/* Destroys it at once: the context is being destroyed, its GPU idle. */
void cuvk_vmm_sparse_destroy_now(struct cuvk_vmm_sparse *sp);

#endif
