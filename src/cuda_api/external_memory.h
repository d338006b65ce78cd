/*
 * Imported external memory (CUexternalMemory).
 *
 * An import is one VkDeviceMemory in the context's own VkDevice, created
 * from the application's exported handle with the exporter's exact size,
 * memory type and dedicated object when the layer recorded them.  Mapped
 * buffers are ordinary allocations (CUVK_MEM_EXTERNAL) that keep the
 * import alive, so destroying the import while mappings live is fine, as
 * in CUDA.
 */
#ifndef CUVK_API_EXTERNAL_MEMORY_H
#define CUVK_API_EXTERNAL_MEMORY_H

#include <pthread.h>
#include <stdbool.h>
#include <cuda.h>
#include <vulkan/vulkan.h>

#include "cuda_api/object.h"
#include "cuda_api/submit.h"
#include "mem/registry.h"
#include "util/list.h"

struct cuvk_context;
struct cuvk_mem_block;

struct cuvk_external_memory {
   struct cuvk_object base;
   struct cuvk_context *ctx;
   struct cuvk_list link;        /* in ctx->external_memories */
   CUexternalMemoryHandleType type;
   unsigned flags;               /* CUDA_EXTERNAL_MEMORY_HANDLE_DESC.flags */
   VkDeviceSize size;            /* bytes a mapping may reach */
   bool has_record;
   struct cuvk_mem_export_record record;

   VkDeviceMemory memory;
   uint32_t memory_type;         /* of memory: the record's, or the guess */
   VkImage dedicated_image;      /* the exporter's image, re-created here */
   struct cuvk_mem_block *block; /* buffer over the memory; NULL when the
                                  * memory is dedicated to an image */
   unsigned refs;                /* the handle and each live mapping */
   bool handle_live;
   struct cuvk_deferred release;
};

/* The scratch VkDevice on which an OPAQUE_FD import without a record
 * tries memory types (external_memory_guess.c): made at the first such
 * import, kept while tries succeed, made anew after one fails.  Creating
 * a VkDevice per import cost NVIDIA's driver tens of milliseconds each,
 * seconds under load. */
struct cuvk_import_scratch {
   pthread_mutex_t lock;
   VkDevice vk;        /* VK_NULL_HANDLE until needed */
};

void cuvk_import_scratch_init(struct cuvk_import_scratch *scratch);
void cuvk_import_scratch_finish(struct cuvk_import_scratch *scratch);

/* The pNext chain that imports an fd: a duplicate of the caller's fd, so
 * that the caller's own stays untouched whatever fails after Vulkan took
 * the duplicate, and the object the memory is dedicated to, if any. */
struct cuvk_fd_import {
   VkImportMemoryFdInfoKHR import;
   VkMemoryDedicatedAllocateInfo dedicated;
};

/* Duplicates fd into imp; CUDA_ERROR_OPERATING_SYSTEM, logged with entry,
 * where dup fails. */
CUresult cuvk_fd_import_init(struct cuvk_fd_import *imp, int fd, VkExternalMemoryHandleTypeFlagBits type,
                             const char *entry);
/* The chain for vkAllocateMemory, dedicated to buffer or image where one
 * is given. */
const void *cuvk_fd_import_chain(struct cuvk_fd_import *imp, VkBuffer buffer, VkImage image);
/* After a successful vkAllocateMemory: Vulkan owns the duplicate. */
static inline void
cuvk_fd_import_taken(struct cuvk_fd_import *imp)
{
   imp->import.fd = -1;
}
/* Closes the duplicate unless Vulkan took it. */
void cuvk_fd_import_finish(struct cuvk_fd_import *imp);

/* Re-creates, on vk, the buffer an exported allocation is dedicated to
 * (with the usages cuvk's copies need added). */
VkResult cuvk_external_dedicated_buffer_create(VkDevice vk, const struct cuvk_mem_buffer_info *info,
                                               VkExternalMemoryHandleTypeFlagBits handle_type, VkBuffer *out);

/* The memory type an OPAQUE_FD fd without a record imports into, found
 * without risking the context's device (external_memory_guess.c);
 * dedicated_buffer is the buffer the import is dedicated to, or NULL. */
CUresult cuvk_external_memory_guess_type(struct cuvk_context *ctx, int fd, VkDeviceSize size,
                                         const struct cuvk_mem_buffer_info *dedicated_buffer,
                                         uint32_t *type_out);

/* Drops everything of a context being destroyed (GPU idle, mappings
 * already released). */
void cuvk_external_memory_release_context(struct cuvk_context *ctx);

/* The live import hext names, with a reference the caller drops with
 * cuvk_external_memory_put (not under the context's lock); error is the
 * code a dead handle gets, which differs between calls. */
CUresult cuvk_external_memory_get(CUexternalMemory hext, CUresult error, const char *entry,
                                  struct cuvk_external_memory **out);
void cuvk_external_memory_put(struct cuvk_external_memory *ext);

/* For the mipmapped arrays of src/array/, which hold a reference like a
 * mapped buffer does: drops one (ctx lock held). */
void cuvk_external_memory_unref_locked(struct cuvk_external_memory *ext);

/* The VkImageCreateInfo (with its pNext structures in the caller's
 * storage) that re-creates an image the layer recorded. */
void cuvk_external_image_create_info(const struct cuvk_mem_image_info *info, VkImageCreateInfo *ci,
                                     VkExternalMemoryImageCreateInfo *ext,
                                     VkImageFormatListCreateInfo *list,
                                     VkExternalMemoryHandleTypeFlagBits handle_type);

#endif
