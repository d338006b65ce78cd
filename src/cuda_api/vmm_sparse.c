#include "cuda_api/vmm_sparse.h"

#include <stdlib.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

/* sparseAddressSpaceSize bounds the sum of all sparse resources of a
 * device, not each one: count what cuvk's buffers take. */
static pthread_mutex_t sparse_space_lock = PTHREAD_MUTEX_INITIALIZER;

static bool
sparse_space_take(struct cuvk_device *dev, uint64_t size)
{
   bool ok;
   pthread_mutex_lock(&sparse_space_lock);
   ok = size <= dev->props.limits.sparseAddressSpaceSize - dev->sparse_space_used;
   if (ok)
      dev->sparse_space_used += size;
   pthread_mutex_unlock(&sparse_space_lock);
   return ok;
}

static void
sparse_space_give(struct cuvk_device *dev, uint64_t size)
{
   pthread_mutex_lock(&sparse_space_lock);
   dev->sparse_space_used -= size;
   pthread_mutex_unlock(&sparse_space_lock);
}

CUresult
cuvk_vmm_sparse_create(struct cuvk_context *ctx, uint64_t size, struct cuvk_vmm_sparse **out)
{
   struct cuvk_device *dev = ctx->dev;
   struct cuvk_vmm_sparse *sp;
   CUresult res;
   VkResult vr;

   if (!sparse_space_take(dev, size))
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "no sparse address space left for a %llu-byte reservation "
                        "(the device has %llu in all)", (unsigned long long)size,
                        (unsigned long long)dev->props.limits.sparseAddressSpaceSize);

   sp = calloc(1, sizeof(*sp));
   if (!sp) {
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for a sparse reservation");
      goto fail_space;
   }

   /* Only memory that never leaves cuvk is bound here (vmm.c), so the
    * buffer needs no external handle types. */
   VkBufferCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .flags = VK_BUFFER_CREATE_SPARSE_BINDING_BIT | VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT,
      .size = size,
      .usage = CUVK_MEM_BLOCK_USAGE,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   vr = vkCreateBuffer(ctx->vk, &info, NULL, &sp->block.buffer);
   if (vr != VK_SUCCESS) {
      res = cuvk_vk_error(vr, "vkCreateBuffer for a sparse reservation");
      goto fail_alloc;
   }

   VkMemoryRequirements reqs;
   vkGetBufferMemoryRequirements(ctx->vk, sp->block.buffer, &reqs);
   VkBufferDeviceAddressInfo addr_info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
      .buffer = sp->block.buffer,
   };
   sp->block.address = vkGetBufferDeviceAddress(ctx->vk, &addr_info);
   sp->block.vk = ctx->vk;
   sp->block.size = size;
   sp->block.dedicated = true;
   cuvk_list_init(&sp->block.link);
   sp->ctx = ctx;
   sp->type_bits = reqs.memoryTypeBits;
   sp->alignment = reqs.alignment ? reqs.alignment : 1;
   cuvk_logd("reservation of %llu bytes backed by a sparse buffer at device address 0x%llx "
             "(binding alignment %llu, memory types 0x%x)", (unsigned long long)size,
             (unsigned long long)sp->block.address, (unsigned long long)sp->alignment, sp->type_bits);
   *out = sp;
   return CUDA_SUCCESS;

fail_alloc:
   free(sp);
fail_space:
   sparse_space_give(dev, size);
   return res;
}

bool
cuvk_vmm_sparse_accepts(const struct cuvk_vmm_sparse *sp, const struct cuvk_context *ctx,
                        uint32_t type_index, uint64_t offset, uint64_t size)
{
   return sp->ctx == ctx && (sp->type_bits & (1u << type_index)) && offset % sp->alignment == 0 &&
          size % sp->alignment == 0 && offset <= sp->block.size && size <= sp->block.size - offset;
}

CUresult
cuvk_vmm_sparse_bind(struct cuvk_vmm_sparse *sp, const VkSparseMemoryBind *binds, uint32_t count)
{
   struct cuvk_context *ctx = sp->ctx;
   VkSparseBufferMemoryBindInfo info = {
      .buffer = sp->block.buffer,
      .bindCount = count,
      .pBinds = binds,
   };

   pthread_mutex_lock(&ctx->lock);
   CUresult res = cuvk_submit_bind_sparse(ctx, &info, 1);
   pthread_mutex_unlock(&ctx->lock);
   return res;
}

void
cuvk_vmm_sparse_destroy_now(struct cuvk_vmm_sparse *sp)
{
   vkDestroyBuffer(sp->ctx->vk, sp->block.buffer, NULL);
   sparse_space_give(sp->ctx->dev, sp->block.size);
   free(sp);
}

static void
sparse_destroy_deferred(struct cuvk_context *ctx, void *data)
{
   (void)ctx;
   cuvk_vmm_sparse_destroy_now(data);
}

void
cuvk_vmm_sparse_destroy(struct cuvk_vmm_sparse *sp)
{
   struct cuvk_context *ctx = sp->ctx;

   pthread_mutex_lock(&ctx->lock);
   sp->release.fn = sparse_destroy_deferred;
   sp->release.data = sp;
   cuvk_submit_defer(ctx, &sp->release);
   pthread_mutex_unlock(&ctx->lock);
}
