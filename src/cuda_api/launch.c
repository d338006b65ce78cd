/*
 * Kernel launches: cuLaunchKernel and its per-thread-stream twin, and the
 * launch state of a context (module.h says how a launch works).
 */
#include "cuda_api/module.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "array/array.h"
#include "compiler/kernel_abi.h"
#include "cuda_api/context.h"
#include "cuda_api/graph.h"
#include "cuda_api/driver.h"
#include "cuda_api/memory.h"
#include "cuda_api/module_cache.h"
#include "cuda_api/texture.h"
#include "mem/block_heap.h"
#include "mem/page_table.h"
#include "util/clock.h"
#include "util/disk_cache.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

/* Per-launch data (parameter block, host ranges) is carved from chunks of
 * host-visible memory; a chunk is reused once every batch that used it
 * has completed. */
#define CHUNK_SIZE (256u << 10)
#define DATA_ALIGN 16u

/* Reused launches (docs/design.md, "A launch's command buffer, recorded
 * once"): how many recorded command buffers a context keeps, and the
 * bytes of launch data each has a slot of (parameters, spans, host
 * ranges; a launch needing more is recorded as usual). */
#define REUSE_ENTRIES 16u
#define REUSE_SLOT_SIZE 4096u

/* CUDA's grid limits: x up to 2^31 - 1, y and z up to 65535. */
#define GRID_MAX_X 0x7fffffffu
#define GRID_MAX_YZ 65535u

struct chunk {
   struct cuvk_list link;
   VkDeviceMemory memory;
   VkBuffer buffer;
   VkDeviceAddress address;
   uint8_t *map;
   VkDeviceSize size;
   VkDeviceSize used;
   uint64_t last_value;     /* newest batch that reads it */
   /* Every lane's newest work when it filled: launches of several
    * lanes read it (submit.h). */
   struct cuvk_frontier frontier;
};

/* A launch's command buffer, kept to be submitted again for the same
 * launch: the dispatch reads its parameters from the entry's slot, whose
 * address its push constants hold, so a launch with other arguments
 * rewrites the slot and submits the same buffer. */
struct reuse_entry {
   const struct cuvk_module *mod;  /* whose pipeline it binds; NULL: recorded for nothing */
   VkPipeline pipeline;
   uint32_t lane;                  /* the lane it was recorded for, whose pool cmd is of */
   VkCommandBuffer cmd;            /* VK_NULL_HANDLE until first used */
   struct cuvk_kernel_push push;   /* as recorded */
   uint64_t point;                 /* its last submission (0: none): busy until passed */
   uint64_t used;                  /* when last submitted, for replacing the oldest */
};

struct cuvk_launch {
   VkPipelineLayout layout;
   VkPipelineCache cache;
   struct cuvk_mem_page_table *page_table;
   struct chunk *fault;     /* the fault word and its scratch bytes */
   struct chunk *current;
   struct cuvk_list retired; /* oldest first */
   bool fault_logged;
   bool no_spans;           /* CUVK_KERNEL_SPANS=0: every span empty */
   /* The pipeline cache on disk (cuvk_launch_cache_checkpoint): pipelines
    * made since it was last written, when that was and what it cost. */
   pthread_mutex_t cache_lock;
   uint32_t cache_dirty;
   uint64_t cache_saved_ns, cache_save_cost_ns;
   size_t cache_saved_size;  /* the cache's size when read or last written */
   /* Reused launches (CUVK_LAUNCH_REUSE=0 turns them off): the entries,
    * their slots (made at first use), and counts for the debug log. */
   bool reuse_off;
   struct chunk *reuse_slots;
   struct reuse_entry reuse[REUSE_ENTRIES];
   uint64_t reuse_tick;
   uint64_t reuse_submits, reuse_records;
};

static void
chunk_destroy(VkDevice vk, struct chunk *c)
{
   if (!c)
      return;
   vkUnmapMemory(vk, c->memory);
   vkDestroyBuffer(vk, c->buffer, NULL);
   vkFreeMemory(vk, c->memory, NULL);
   free(c);
}

/* Host-visible, coherent memory with a device address.  Launch data is
 * device-local too where the device has such a type, since every thread
 * reads it; what the host reads after each synchronisation (host_read:
 * the fault word) is host-cached where it can be, since device-local
 * host-visible memory is, on a discrete GPU, a read across the bus each
 * time, and the GPU writes it only when a kernel faults. */
static CUresult
chunk_create(struct cuvk_context *ctx, VkDeviceSize size, bool host_read, struct chunk **out)
{
   const VkPhysicalDeviceMemoryProperties *props = &ctx->dev->mem;
   struct chunk *c = calloc(1, sizeof(*c));
   VkResult vr;
   CUresult res;
   if (!c)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for launch data");
   c->size = size;
   VkBufferCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = size,
      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   vr = vkCreateBuffer(ctx->vk, &info, NULL, &c->buffer);
   if (vr != VK_SUCCESS) {
      free(c);
      return cuvk_vk_error(vr, "vkCreateBuffer for launch data");
   }
   VkMemoryRequirements reqs;
   vkGetBufferMemoryRequirements(ctx->vk, c->buffer, &reqs);
   const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
   vr = VK_ERROR_OUT_OF_DEVICE_MEMORY;
   for (unsigned pass = 0; pass < 2 && vr != VK_SUCCESS; pass++) {
      VkMemoryPropertyFlags first = host_read ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT
                                              : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
      VkMemoryPropertyFlags want = pass == 0 ? host | first : host;
      for (uint32_t i = 0; i < props->memoryTypeCount && vr != VK_SUCCESS; i++) {
         if ((reqs.memoryTypeBits & (1u << i)) && (props->memoryTypes[i].propertyFlags & want) == want)
            vr = cuvk_mem_allocate(ctx->vk, reqs.size, i, NULL, &c->memory);
      }
   }
   if (vr != VK_SUCCESS) {
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "no host-visible memory for %llu bytes of launch data",
                       (unsigned long long)size);
      goto fail_buffer;
   }
   void *map;
   vr = vkBindBufferMemory(ctx->vk, c->buffer, c->memory, 0);
   if (vr == VK_SUCCESS)
      vr = vkMapMemory(ctx->vk, c->memory, 0, VK_WHOLE_SIZE, 0, &map);
   if (vr != VK_SUCCESS) {
      res = cuvk_vk_error(vr, "binding or mapping launch data");
      goto fail_memory;
   }
   c->map = map;
   c->address = vkGetBufferDeviceAddress(ctx->vk, &(VkBufferDeviceAddressInfo){
      .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
      .buffer = c->buffer,
   });
   cuvk_list_init(&c->link);
   *out = c;
   return CUDA_SUCCESS;

fail_memory:
   vkFreeMemory(ctx->vk, c->memory, NULL);
fail_buffer:
   vkDestroyBuffer(ctx->vk, c->buffer, NULL);
   free(c);
   return res;
}

/* A chunk is what module.h calls a launch buffer. */
struct cuvk_launch_buffer {
   struct chunk c;
};

CUresult
cuvk_launch_buffer_create(struct cuvk_context *ctx, VkDeviceSize size, struct cuvk_launch_buffer **out,
                          uint8_t **map, VkDeviceAddress *address)
{
   struct chunk *c;
   CUresult res = chunk_create(ctx, size, false, &c);
   if (res != CUDA_SUCCESS)
      return res;
   *map = c->map;
   *address = c->address;
   *out = (struct cuvk_launch_buffer *)c;
   return CUDA_SUCCESS;
}

void
cuvk_launch_buffer_destroy(VkDevice vk, struct cuvk_launch_buffer *b)
{
   chunk_destroy(vk, b ? &b->c : NULL);
}

CUresult
cuvk_launch_init(struct cuvk_context *ctx)
{
   struct cuvk_mem_page_table *pt;
   CUresult res = cuvk_mem_page_table_get(ctx, &pt);
   if (res != CUDA_SUCCESS)
      return res;

   pthread_mutex_lock(&ctx->lock);
   if (ctx->launch)
      goto out;
   struct cuvk_launch *l = calloc(1, sizeof(*l));
   if (!l) {
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for the launch state");
      goto out;
   }
   l->page_table = pt;
   cuvk_list_init(&l->retired);
   /* For measuring what spans save: kernels then reach every pointer
    * through the page table. */
   const char *spans = getenv("CUVK_KERNEL_SPANS");
   l->no_spans = spans && strcmp(spans, "0") == 0;
   const char *reuse = getenv("CUVK_LAUNCH_REUSE");
   l->reuse_off = reuse && strcmp(reuse, "0") == 0;
   VkPushConstantRange range = {
      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
      .size = sizeof(struct cuvk_kernel_push),
   };
   VkPipelineLayoutCreateInfo layout_info = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .pushConstantRangeCount = 1,
      .pPushConstantRanges = &range,
   };
   VkResult vr = vkCreatePipelineLayout(ctx->vk, &layout_info, NULL, &l->layout);
   if (vr != VK_SUCCESS) {
      res = cuvk_vk_error(vr, "vkCreatePipelineLayout for kernels");
      goto fail;
   }
   vr = cuvk_module_cache_pipeline_create(ctx, &l->cache);
   if (vr != VK_SUCCESS) {
      res = cuvk_vk_error(vr, "vkCreatePipelineCache");
      goto fail;
   }
   /* The fault word at a 16-byte aligned address, then the scratch bytes
    * faulting accesses land in (kernel_abi.h). */
   res = chunk_create(ctx, 16 + CUVK_KERNEL_SCRATCH_SIZE + 16, true, &l->fault);
   if (res != CUDA_SUCCESS)
      goto fail;
   memset(l->fault->map, 0, l->fault->size);
   pthread_mutex_init(&l->cache_lock, NULL);
   (void)vkGetPipelineCacheData(ctx->vk, l->cache, &l->cache_saved_size, NULL);
   ctx->launch = l;
   goto out;

fail:
   if (l->cache)
      vkDestroyPipelineCache(ctx->vk, l->cache, NULL);
   if (l->layout)
      vkDestroyPipelineLayout(ctx->vk, l->layout, NULL);
   free(l);
out:
   pthread_mutex_unlock(&ctx->lock);
   return res;
}

void
cuvk_launch_finish(struct cuvk_context *ctx)
{
   struct cuvk_launch *l = ctx->launch;
   if (!l)
      return;
   cuvk_list_for_each_entry_safe(struct chunk, c, &l->retired, link)
      chunk_destroy(ctx->vk, c);
   chunk_destroy(ctx->vk, l->current);
   chunk_destroy(ctx->vk, l->fault);
   /* The entries' command buffers went with the lanes' pools
    * (cuvk_submit_finish, which comes first). */
   chunk_destroy(ctx->vk, l->reuse_slots);
   if (l->reuse_submits)
      cuvk_logd("reused launches: %llu submitted, %llu of them recorded for it",
                (unsigned long long)l->reuse_submits, (unsigned long long)l->reuse_records);
   if (__atomic_load_n(&l->cache_dirty, __ATOMIC_RELAXED))
      cuvk_module_cache_pipeline_save(ctx, l->cache, &l->cache_saved_size);
   pthread_mutex_destroy(&l->cache_lock);
   vkDestroyPipelineCache(ctx->vk, l->cache, NULL);
   vkDestroyPipelineLayout(ctx->vk, l->layout, NULL);
   free(l);
   ctx->launch = NULL;
}

VkPipelineLayout
cuvk_launch_layout(struct cuvk_context *ctx)
{
   return ctx->launch->layout;
}

CUresult
cuvk_context_faulted(struct cuvk_context *ctx, const char *entry)
{
   CUresult sticky = __atomic_load_n(&ctx->fault_error, __ATOMIC_ACQUIRE);
   if (sticky == CUDA_SUCCESS)
      return CUDA_SUCCESS;
   return cuvk_error(sticky, "%s: a kernel of this context faulted earlier; it takes no "
                     "more work until it is destroyed", entry);
}

CUresult
cuvk_launch_fault(struct cuvk_context *ctx)
{
   CUresult sticky = __atomic_load_n(&ctx->fault_error, __ATOMIC_ACQUIRE);
   if (sticky != CUDA_SUCCESS)
      return sticky;
   struct cuvk_launch *l = __atomic_load_n(&ctx->launch, __ATOMIC_ACQUIRE);
   if (!l)
      return CUDA_SUCCESS;
   /* Read only after the work that may have written it completed (the
    * callers have waited); a word set by work still running is seen by
    * the next synchronisation. */
   uint32_t word = __atomic_load_n((uint32_t *)l->fault->map, __ATOMIC_ACQUIRE);
   if (word == CUVK_KERNEL_FAULT_NONE)
      return CUDA_SUCCESS;
   /* Lavapipe's loop limit (kernel_abi.h, CUVK_KERNEL_FAULT_LOOP_LIMIT):
    * nothing illegal happened, the results are incomplete; CUDA's
    * "unspecified launch failure", sticky as well. */
   CUresult want = word == CUVK_KERNEL_FAULT_LOOP_LIMIT ? CUDA_ERROR_LAUNCH_FAILED : CUDA_ERROR_ILLEGAL_ADDRESS;
   CUresult expected = CUDA_SUCCESS;
   if (__atomic_compare_exchange_n(&ctx->fault_error, &expected, want, false, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE)) {
      if (word == CUVK_KERNEL_FAULT_LOOP_LIMIT)
         cuvk_loge("a kernel ran into lavapipe's loop limit (%u iterations of all its loops together per "
                   "invocation vector, Mesa's LP_MAX_TGSI_LOOP_ITERATIONS): lavapipe ended its loops early, "
                   "so its results are incomplete; the context is unusable from now on "
                   "(CUDA_ERROR_LAUNCH_FAILED)", ctx->kernel_target.loop_limit);
      else
         cuvk_loge("a kernel %s; the context is unusable from now on (CUDA_ERROR_ILLEGAL_ADDRESS), as on CUDA",
                   word == CUVK_KERNEL_FAULT_TRAP ? "trapped"
                   : word == CUVK_KERNEL_FAULT_UNSUPPORTED
                      ? "sampled a texture in a way cuvk does not serve (docs/textures.md: tex1D on linear "
                        "memory, tld4 on memory, a geometry other than the resource's, a format kernels cannot "
                        "read from memory, a conversion whose binding did not fit the kernel's stage)"
                      : "accessed memory outside every allocation");
      return want;
   }
   /* Another thread recorded it first: its error stands. */
   return expected;
}

/* bytes of launch data from the ring, for work that completes with value.
 * Context lock held. */
static CUresult
launch_data(struct cuvk_context *ctx, VkDeviceSize bytes, uint64_t value, uint8_t **map,
            VkDeviceAddress *address)
{
   struct cuvk_launch *l = ctx->launch;
   bytes = CUVK_ALIGN_UP(bytes ? bytes : DATA_ALIGN, DATA_ALIGN);
   struct chunk *c = l->current;
   if (!c || c->size - c->used < bytes) {
      if (c) {
         cuvk_submit_frontier(ctx, &c->frontier);
         cuvk_list_addtail(&c->link, &l->retired);
      }
      l->current = NULL;
      cuvk_submit_retire(ctx);
      struct chunk *oldest = cuvk_list_is_empty(&l->retired) ? NULL :
         cuvk_list_first_entry(&l->retired, struct chunk, link);
      if (oldest && cuvk_submit_frontier_passed(ctx, &oldest->frontier) && oldest->size >= bytes) {
         cuvk_list_del(&oldest->link);
         c = oldest;
      } else {
         CUresult res = chunk_create(ctx, CUVK_MAX((VkDeviceSize)CHUNK_SIZE, bytes), false, &c);
         if (res != CUDA_SUCCESS)
            return res;
      }
      c->used = 0;
      l->current = c;
   }
   *map = c->map + c->used;
   *address = c->address + c->used;
   c->used += bytes;
   c->last_value = value;
   return CUDA_SUCCESS;
}

/* Most programs never destroy their context: they synchronise and exit,
 * and at exit no Vulkan call is safe (registration.c says why), so a
 * cache written only at context destroy would never reach the disk and
 * every run would compile every kernel again.  The cache is written at
 * synchronisations instead, when pipelines were made since the last
 * write, but not within ten times the last write's cost of it: a
 * program that compiles and synchronises in a loop spends at most about
 * a tenth of its time writing the cache, and what it compiled after the
 * last write is written at the next synchronisation that is due, or at
 * context destroy. */
void
cuvk_launch_cache_checkpoint(struct cuvk_context *ctx)
{
   struct cuvk_launch *l = __atomic_load_n(&ctx->launch, __ATOMIC_ACQUIRE);
   if (!l || !__atomic_load_n(&l->cache_dirty, __ATOMIC_RELAXED) || !cuvk_disk_cache_enabled())
      return;
   /* One writer at a time; a thread that finds another writing leaves it
    * to that one rather than wait. */
   if (pthread_mutex_trylock(&l->cache_lock) != 0)
      return;
   uint64_t start = cuvk_clock_ns();
   if (l->cache_saved_ns && start - l->cache_saved_ns < 10 * l->cache_save_cost_ns) {
      pthread_mutex_unlock(&l->cache_lock);
      return;
   }
   uint32_t dirty = __atomic_exchange_n(&l->cache_dirty, 0, __ATOMIC_RELAXED);
   if (cuvk_module_cache_pipeline_save(ctx, l->cache, &l->cache_saved_size)) {
      uint64_t end = cuvk_clock_ns();
      l->cache_saved_ns = end;
      l->cache_save_cost_ns = end - start;
      cuvk_logd("disk cache: pipeline cache written after %u new pipelines, in %.2f ms", dirty,
                (double)(end - start) / 1e6);
   }
   pthread_mutex_unlock(&l->cache_lock);
}

static CUresult
pipeline_make(struct cuvk_context *ctx, const struct cuvk_function *f, const uint32_t block[3],
              uint32_t dynamic_shared, bool tex_memory, bool tex_scale, bool tex_convert, VkPipeline *out)
{
   /* A kernel without textures has no constants 4 to 6: Vulkan ignores
    * the entries. */
   uint32_t spec[7] = {block[0], block[1], block[2], dynamic_shared, tex_memory ? VK_TRUE : VK_FALSE,
                       tex_scale ? VK_TRUE : VK_FALSE, tex_convert ? VK_TRUE : VK_FALSE};
   VkSpecializationMapEntry entries[7];
   for (uint32_t i = 0; i < 7; i++)
      entries[i] = (VkSpecializationMapEntry){.constantID = i, .offset = i * 4, .size = 4};
   _Static_assert(CUVK_KERNEL_SPEC_BLOCK_X == 0 && CUVK_KERNEL_SPEC_DYNAMIC_SHARED == 3 &&
                     CUVK_KERNEL_SPEC_TEX_MEMORY == 4 && CUVK_KERNEL_SPEC_TEX_SCALE == 5 &&
                     CUVK_KERNEL_SPEC_TEX_CONVERT == 6, "spec ids");
   VkSpecializationInfo spec_info = {
      .mapEntryCount = 7,
      .pMapEntries = entries,
      .dataSize = sizeof(spec),
      .pData = spec,
   };
   VkPipelineLayout layout = ctx->launch->layout;
   if (f->k.tex_bindings) {
      layout = cuvk_texture_layout(ctx, f->k.tex_bindings);
      if (!layout)
         return CUDA_ERROR_OUT_OF_MEMORY;
   }
   VkComputePipelineCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {
         .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_COMPUTE_BIT,
         .module = f->shader,
         .pName = f->k.name,
         .pSpecializationInfo = &spec_info,
      },
      .layout = layout,
   };
   VkResult vr = vkCreateComputePipelines(ctx->vk, ctx->launch->cache, 1, &info, NULL, out);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkCreateComputePipelines for a kernel");
   __atomic_add_fetch(&ctx->launch->cache_dirty, 1, __ATOMIC_RELAXED);
   return CUDA_SUCCESS;
}

CUresult
cuvk_launch_pipeline_create(struct cuvk_context *ctx, const struct cuvk_function *f, const uint32_t block[3],
                            uint32_t dynamic_shared, VkPipeline *out)
{
   if (f->k.tex_bindings)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "a kernel's pipeline with textures is made at its launch");
   return pipeline_make(ctx, f, block, dynamic_shared, false, false, false, out);
}

/* f's pipeline for this shape, made at first use.  Context lock held. */
static CUresult
launch_pipeline(struct cuvk_context *ctx, struct cuvk_function *f, const uint32_t block[3],
                uint32_t dynamic_shared, VkPipeline *out)
{
   /* Kernels that sample are specialised for the textures alive now: a
    * texture over memory made later gets a pipeline of its own. */
   bool tex_memory = f->k.uses_textures && cuvk_texture_memory_live(ctx);
   bool tex_scale = f->k.uses_textures && cuvk_texture_scaling_live(ctx);
   bool tex_convert = f->k.uses_textures && cuvk_texture_convert_live(ctx);
   for (uint32_t i = 0; i < f->pipeline_count; i++) {
      const struct cuvk_kernel_pipeline *p = &f->pipelines[i];
      if (p->block[0] == block[0] && p->block[1] == block[1] && p->block[2] == block[2] &&
          p->dynamic_shared == dynamic_shared && p->tex_memory == tex_memory && p->tex_scale == tex_scale &&
          p->tex_convert == tex_convert) {
         *out = p->pipeline;
         return CUDA_SUCCESS;
      }
   }
   if (f->pipeline_count == f->pipeline_capacity) {
      uint32_t cap = f->pipeline_capacity ? f->pipeline_capacity * 2 : 4;
      struct cuvk_kernel_pipeline *grown = realloc(f->pipelines, cap * sizeof(*grown));
      if (!grown)
         return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for a pipeline");
      f->pipelines = grown;
      f->pipeline_capacity = cap;
   }
   VkPipeline pipeline;
   CUresult res = pipeline_make(ctx, f, block, dynamic_shared, tex_memory, tex_scale, tex_convert, &pipeline);
   if (res != CUDA_SUCCESS)
      return res;
   f->pipelines[f->pipeline_count++] = (struct cuvk_kernel_pipeline){
      .block = {block[0], block[1], block[2]},
      .dynamic_shared = dynamic_shared,
      .tex_memory = tex_memory,
      .tex_scale = tex_scale,
      .tex_convert = tex_convert,
      .pipeline = pipeline,
   };
   *out = pipeline;
   return CUDA_SUCCESS;
}

/* The parameter bytes, from kernelParams or from extra's buffer. */
static CUresult
launch_params(const struct cuvk_function *f, void **params, void **extra, uint8_t *block, const char *entry)
{
   const struct cuvk_cc_kernel *k = &f->k;
   memset(block, 0, k->param_bytes);
   if (extra) {
      const void *buffer = NULL;
      size_t size = 0;
      bool have_size = false;
      for (unsigned i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
         if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) {
            buffer = extra[i + 1];
         } else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) {
            if (!extra[i + 1])
               return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: extra's buffer size pointer is NULL", entry);
            size = *(const size_t *)extra[i + 1];
            have_size = true;
         } else {
            return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: extra key %p is unknown", entry, extra[i]);
         }
      }
      if (params)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: both kernelParams and extra are given", entry);
      if (k->param_bytes && (!buffer || !have_size))
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: extra lacks the buffer pointer or its size", entry);
      if (have_size && size < k->param_bytes)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s takes %u bytes of parameters, the buffer "
                           "has %zu", entry, k->name, k->param_bytes, size);
      if (k->param_bytes)
         memcpy(block, buffer, k->param_bytes);
      return CUDA_SUCCESS;
   }
   if (k->param_count && !params)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s takes %u parameters and kernelParams is "
                        "NULL", entry, k->name, k->param_count);
   for (uint32_t i = 0; i < k->param_count; i++) {
      if (!params[i])
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: parameter %u of %s is NULL", entry, i, k->name);
      memcpy(block + k->params[i].offset, params[i], k->params[i].size);
   }
   return CUDA_SUCCESS;
}

void
cuvk_launch_params_layout(const struct cuvk_function *f, uint32_t *bytes, uint32_t *count)
{
   *bytes = f->k.param_bytes;
   *count = f->k.param_count;
}

CUresult
cuvk_launch_params_copy(const struct cuvk_function *f, void **params, void **extra, uint8_t *block, void **ptrs,
                        const char *entry)
{
   CUresult res = launch_params(f, params, extra, block, entry);
   if (res != CUDA_SUCCESS)
      return res;
   for (uint32_t i = 0; ptrs && i < f->k.param_count; i++)
      ptrs[i] = block + f->k.params[i].offset;
   return CUDA_SUCCESS;
}

/* The parameter block and its spans at data: built in host memory first,
 * since data may be write-combined memory, slow to read back. */
static CUresult
launch_spans(const struct cuvk_function *f, struct cuvk_launch *l, void **params, void **extra, uint8_t *data,
             VkDeviceSize spans_at, uint32_t span_count, const char *entry)
{
   uint64_t small[64];
   uint64_t *block = f->k.param_bytes <= sizeof(small) ? small : malloc(f->k.param_bytes);
   if (!block)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for %u bytes of parameters", f->k.param_bytes);
   CUresult res = launch_params(f, params, extra, (uint8_t *)block, entry);
   if (res == CUDA_SUCCESS) {
      struct cuvk_kernel_span spans[CUVK_KERNEL_SPAN_WORDS] = {{0}};
      if (!l->no_spans)
         cuvk_mem_page_table_spans(l->page_table, block, span_count, spans);
      memcpy(data, block, f->k.param_bytes);
      memcpy(data + spans_at, spans, span_count * sizeof(spans[0]));
   }
   if (block != small)
      free(block);
   return res;
}

void
cuvk_launch_forget_module(struct cuvk_context *ctx, const struct cuvk_module *mod)
{
   struct cuvk_launch *l = ctx->launch;
   if (!l)
      return;
   /* The entries' buffers stay, to be recorded anew: one still pending
    * keeps its point, and the pipeline it binds lives until that passed
    * (the module's release is deferred). */
   for (uint32_t i = 0; i < REUSE_ENTRIES; i++)
      if (l->reuse[i].mod == mod)
         l->reuse[i].mod = NULL;
}

/* Whether a launch may be served by a reused command buffer: kernels
 * with textures, surfaces or printf take per-launch state (descriptor
 * sets, the printf buffer of the batch), and a grid cut into several
 * dispatches is left to the usual path. */
static bool
reuse_fits(const struct cuvk_launch *l, const struct cuvk_function *f, const uint32_t grid[3],
           const VkPhysicalDeviceLimits *lim)
{
   return !l->reuse_off && !f->k.uses_textures && !f->k.tex_bindings && !f->k.uses_printf &&
          grid[0] <= lim->maxComputeWorkGroupCount[0] && grid[1] <= lim->maxComputeWorkGroupCount[1] &&
          grid[2] <= lim->maxComputeWorkGroupCount[2];
}

/* The entry for this launch on lane: the one recorded for it, else the
 * oldest of those not in flight; NULL when every other one is.  An entry
 * of the lane is never in flight here (cuvk_submit_alone). */
static struct reuse_entry *
reuse_pick(struct cuvk_context *ctx, struct cuvk_launch *l, const struct cuvk_module *mod, VkPipeline pipeline,
           uint32_t lane, const uint32_t grid[3])
{
   struct reuse_entry *oldest = NULL;
   for (uint32_t i = 0; i < REUSE_ENTRIES; i++) {
      struct reuse_entry *e = &l->reuse[i];
      bool idle = !e->point || cuvk_submit_point_passed(ctx, e->point);
      if (!idle)
         continue;
      if (e->mod == mod && e->pipeline == pipeline && e->lane == lane && e->push.nctaid[0] == grid[0] &&
          e->push.nctaid[1] == grid[1] && e->push.nctaid[2] == grid[2])
         return e;
      if (!oldest || e->used < oldest->used)
         oldest = e;
   }
   return oldest;
}

/* Records e->cmd for the launch push describes, on lane. */
static CUresult
reuse_record(struct cuvk_context *ctx, struct reuse_entry *e, VkPipeline pipeline, uint32_t lane,
             const struct cuvk_kernel_push *push)
{
   struct cuvk_launch *l = ctx->launch;
   CUresult res;

   e->mod = NULL;
   if (e->cmd && e->lane != lane) {
      cuvk_submit_cmd_free(ctx, e->lane, e->cmd);
      e->cmd = VK_NULL_HANDLE;
   }
   if (!e->cmd) {
      res = cuvk_submit_cmd_alloc(ctx, lane, &e->cmd);
      if (res != CUDA_SUCCESS)
         return res;
   }
   e->lane = lane;
   /* Not ONE_TIME_SUBMIT: submitted again, never while pending (no
    * SIMULTANEOUS_USE).  The pool resets the buffer as it begins. */
   VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   VkResult vr = vkBeginCommandBuffer(e->cmd, &begin);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkBeginCommandBuffer for a reused launch");
   vkCmdBindPipeline(e->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   vkCmdPushConstants(e->cmd, l->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(*push), push);
   vkCmdDispatch(e->cmd, push->nctaid[0], push->nctaid[1], push->nctaid[2]);
   cuvk_submit_record_end(ctx, lane, e->cmd);
   vr = vkEndCommandBuffer(e->cmd);
   if (vr != VK_SUCCESS)
      return cuvk_vk_error(vr, "vkEndCommandBuffer for a reused launch");
   e->pipeline = pipeline;
   e->push = *push;
   l->reuse_records++;
   return CUDA_SUCCESS;
}

/* A launch that goes alone to an idle lane (the empty launch and
 * synchronise of issue 13, any launch the host waits for before the
 * next): its parameters go to a slot of a kept command buffer, which is
 * submitted again when the launch is the same as the one it was recorded
 * for (kernel and shape, lane, and push constants: the page table's
 * place and the number of host ranges), else recorded for this launch.
 * *done false: the launch is left to the usual path (not alone, no free
 * entry, too much launch data); nothing was recorded.  Lock held. */
static CUresult
launch_reused(struct cuvk_context *ctx, struct cuvk_function *f, VkPipeline pipeline, const uint32_t grid[3],
              struct cuvk_stream *stream, void **params, void **extra, bool *done, const char *entry)
{
   struct cuvk_launch *l = ctx->launch;
   struct cuvk_mem_page_table *pt = l->page_table;
   uint32_t lane;
   bool alone;

   *done = false;
   CUresult res = cuvk_submit_alone(ctx, stream, &alone, &lane);
   if (res != CUDA_SUCCESS || !alone)
      return res;
   uint32_t span_count = CUVK_KERNEL_SPAN_COUNT(f->k.param_bytes);
   VkDeviceSize spans_at = CUVK_KERNEL_SPANS_OFFSET(f->k.param_bytes);
   VkDeviceSize params_size = CUVK_ALIGN_UP(spans_at + span_count * sizeof(struct cuvk_kernel_span), DATA_ALIGN);
   if (params_size >= REUSE_SLOT_SIZE)
      return CUDA_SUCCESS;
   struct reuse_entry *e = reuse_pick(ctx, l, f->mod, pipeline, lane, grid);
   if (!e)
      return CUDA_SUCCESS;
   if (!l->reuse_slots) {
      /* Without it the usual path serves every launch. */
      if (chunk_create(ctx, REUSE_ENTRIES * REUSE_SLOT_SIZE, false, &l->reuse_slots) != CUDA_SUCCESS) {
         cuvk_logw("no memory for reused launches' parameters; every launch is recorded");
         l->reuse_off = true;
         return CUDA_SUCCESS;
      }
   }
   /* The slot is free: its entry is not in flight. */
   VkDeviceSize slot = (VkDeviceSize)(e - l->reuse) * REUSE_SLOT_SIZE;
   uint8_t *data = l->reuse_slots->map + slot;
   VkDeviceAddress address = l->reuse_slots->address + slot;
   uint32_t room = (uint32_t)((REUSE_SLOT_SIZE - params_size) / sizeof(struct cuvk_kernel_host_range));
   uint32_t got = cuvk_mem_page_table_host_ranges(pt, (struct cuvk_kernel_host_range *)(data + params_size), room);
   if (got > room)
      return CUDA_SUCCESS;
   res = launch_spans(f, l, params, extra, data, spans_at, span_count, entry);
   if (res != CUDA_SUCCESS)
      return res;

   struct cuvk_kernel_push push = {
      .params = address,
      .globals = f->mod->table_address,
      .page_table = pt->address,
      .va_base = pt->va_base,
      .va_size = pt->va_size,
      .host_ranges = address + params_size,
      .fault = l->fault->address,
      .host_range_count = got,
      .nctaid = {grid[0], grid[1], grid[2]},
   };
   /* Everything the buffer holds is the pipeline and these bytes: equal,
    * it is this launch. */
   if (e->mod != f->mod || e->pipeline != pipeline || e->lane != lane || memcmp(&e->push, &push, sizeof(push))) {
      res = reuse_record(ctx, e, pipeline, lane, &push);
      if (res != CUDA_SUCCESS)
         return res;
      e->mod = f->mod;
   }
   uint64_t point;
   res = cuvk_submit_prerecorded(ctx, stream, lane, e->cmd, &point);
   e->point = point;
   e->used = ++l->reuse_tick;
   l->reuse_submits++;
   stream->last_value = point;
   *done = true;
   return res;
}

static CUresult
launch_function(struct cuvk_function *f, const uint32_t grid[3], const uint32_t block[3], uint32_t shared,
                CUstream hstream, void **params, void **extra, const char *entry)
{
   CUresult res;
   struct cuvk_context *ctx = f->mod->ctx;
   const VkPhysicalDeviceLimits *lim = &ctx->dev->props.limits;

   if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0 || grid[0] > GRID_MAX_X || grid[1] > GRID_MAX_YZ ||
       grid[2] > GRID_MAX_YZ)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: grid %ux%ux%u is empty or too large", entry, grid[0],
                        grid[1], grid[2]);
   uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
   if (threads == 0 || block[0] > lim->maxComputeWorkGroupSize[0] || block[1] > lim->maxComputeWorkGroupSize[1] ||
       block[2] > lim->maxComputeWorkGroupSize[2])
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: block %ux%ux%u is empty or exceeds the device's %ux%ux%u",
                        entry, block[0], block[1], block[2], lim->maxComputeWorkGroupSize[0],
                        lim->maxComputeWorkGroupSize[1], lim->maxComputeWorkGroupSize[2]);
   uint32_t max_threads = CUVK_MIN(lim->maxComputeWorkGroupInvocations, 1024u);
   if (threads > max_threads)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %llu threads in a block, at most %u", entry,
                        (unsigned long long)threads, max_threads);
   if (f->k.reqntid[0] && (block[0] != f->k.reqntid[0] || block[1] != CUVK_MAX(f->k.reqntid[1], 1u) ||
                           block[2] != CUVK_MAX(f->k.reqntid[2], 1u)))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %s requires blocks of %ux%ux%u (.reqntid)", entry,
                        f->k.name, f->k.reqntid[0], CUVK_MAX(f->k.reqntid[1], 1u), CUVK_MAX(f->k.reqntid[2], 1u));
   if ((uint64_t)shared + f->k.static_shared_bytes > lim->maxComputeSharedMemorySize ||
       shared > (uint32_t)__atomic_load_n(&f->max_dynamic_shared, __ATOMIC_RELAXED))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "%s: %u bytes of dynamic shared memory (and %u static) exceed "
                        "the kernel's limit", entry, shared, f->k.static_shared_bytes);

   struct cuvk_stream *stream CUVK_HELD_STREAM = NULL;
   res = cuvk_stream_resolve_any(ctx, hstream, entry, &stream);
   if (res != CUDA_SUCCESS)
      return res;
   if (cuvk_stream_capturing(stream)) {
      const CUDA_KERNEL_NODE_PARAMS node = {
         .func = (CUfunction)f,
         .gridDimX = grid[0], .gridDimY = grid[1], .gridDimZ = grid[2],
         .blockDimX = block[0], .blockDimY = block[1], .blockDimZ = block[2],
         .sharedMemBytes = shared,
         .kernelParams = params,
         .extra = extra,
      };
      return cuvk_capture_add(stream, CU_GRAPH_NODE_TYPE_KERNEL, cuvk_graph_init_kernel, &node, entry);
   }
   /* The sticky error only: the fault word is read where work is known
    * complete (synchronisations and queries), not at every launch, where
    * on a GPU it is a read across the bus and can only see work that
    * already ended. */
   res = cuvk_context_faulted(ctx, entry);
   if (res != CUDA_SUCCESS)
      return res;
   if (f->k.uses_textures) {
      res = cuvk_texture_prepare(ctx, f->k.tex_bindings, entry);
      if (res != CUDA_SUCCESS)
         return res;
   }

   /* The module's other kernels start building while this one's
    * pipeline is made below. */
   cuvk_module_ahead_start(f->mod, block, shared);

   struct cuvk_launch *l = ctx->launch;
   struct cuvk_mem_page_table *pt = l->page_table;
   VkCommandBuffer cmd;
   uint64_t value;
   /* Images over imported memory under the kernel's textures and
    * surfaces: acquired from the external queue family around the
    * dispatch, as copies do (layout.c). */
   struct cuvk_array_image *ext_local[8], **ext_imgs = ext_local;
   unsigned ext_count = 0;
   pthread_mutex_lock(&ctx->lock);
   VkPipeline pipeline = VK_NULL_HANDLE;
   res = launch_pipeline(ctx, f, block, shared, &pipeline);
   if (res != CUDA_SUCCESS)
      goto out;
   if (reuse_fits(l, f, grid, lim)) {
      bool done;
      res = launch_reused(ctx, f, pipeline, grid, stream, params, extra, &done, entry);
      if (res != CUDA_SUCCESS || done)
         goto out;
   }
   if (f->k.uses_textures) {
      ext_count = cuvk_texture_external_images(ctx, f->k.tex_bindings, ext_imgs, CUVK_ARRAY_SIZE(ext_local));
      if (ext_count > CUVK_ARRAY_SIZE(ext_local)) {
         ext_imgs = malloc(sizeof(*ext_imgs) * ext_count);
         if (!ext_imgs) {
            ext_imgs = ext_local;
            ext_count = 0;
            res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the imported images", entry);
            goto out;
         }
         ext_count = cuvk_texture_external_images(ctx, f->k.tex_bindings, ext_imgs, ext_count);
      }
      /* Ownership moves like layouts do: after the last array command
       * of any lane (submit.h, array_point). */
      if (ext_count)
         res = cuvk_submit_stream_wait(ctx, stream, ctx->submit.array_point);
      if (res != CUDA_SUCCESS)
         goto out;
   }
   res = cuvk_submit_record(ctx, stream, &cmd, &value);
   if (res != CUDA_SUCCESS)
      goto out;
   if (ext_count) {
      ctx->submit.array_point = value;
      cuvk_array_images_ownership(ctx, cmd, ext_imgs, ext_count, true);
   }

   /* The host ranges as they are now: the list only changes while no
    * work that could see the change is recorded, but a thread may add a
    * range between the count and the copy, so copy until it fits. */
   uint32_t count = cuvk_mem_page_table_host_ranges(pt, NULL, 0), got;
   uint8_t *data;
   VkDeviceAddress address;
   /* The parameter block, its spans (kernel_abi.h), the host ranges. */
   uint32_t span_count = CUVK_KERNEL_SPAN_COUNT(f->k.param_bytes);
   VkDeviceSize spans_at = CUVK_KERNEL_SPANS_OFFSET(f->k.param_bytes);
   VkDeviceSize params_size = CUVK_ALIGN_UP(spans_at + span_count * sizeof(struct cuvk_kernel_span), DATA_ALIGN);
   for (;;) {
      VkDeviceSize bytes = params_size + (VkDeviceSize)(count + 4) * sizeof(struct cuvk_kernel_host_range);
      res = launch_data(ctx, bytes, value, &data, &address);
      if (res != CUDA_SUCCESS)
         goto commit;
      got = cuvk_mem_page_table_host_ranges(pt, (struct cuvk_kernel_host_range *)(data + params_size),
                                            count + 4);
      if (got <= count + 4)
         break;
      count = got;
   }
   res = launch_spans(f, l, params, extra, data, spans_at, span_count, entry);
   if (res != CUDA_SUCCESS)
      goto commit;
   VkDeviceAddress printf_buffer = 0;
   if (f->k.uses_printf) {
      res = cuvk_printf_launch(ctx, value, &printf_buffer);
      if (res != CUDA_SUCCESS)
         goto commit;
   }

   struct cuvk_kernel_push push = {
      .params = address,
      .globals = f->mod->table_address,
      .page_table = pt->address,
      .va_base = pt->va_base,
      .va_size = pt->va_size,
      .host_ranges = address + params_size,
      .fault = l->fault->address,
      .host_range_count = got,
      .nctaid = {grid[0], grid[1], grid[2]},
      .printf_buffer = printf_buffer,
   };
   if (f->k.uses_textures) {
      res = cuvk_texture_bind(ctx, f->k.tex_bindings, cmd, &push);
      if (res != CUDA_SUCCESS)
         goto commit;
   }
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   /* Grids beyond what one dispatch may have are cut into several, each
    * told where it starts. */
   const uint32_t *maxg = lim->maxComputeWorkGroupCount;
   for (uint32_t z = 0; z < grid[2]; z += maxg[2]) {
      for (uint32_t y = 0; y < grid[1]; y += maxg[1]) {
         for (uint32_t x = 0; x < grid[0]; x += maxg[0]) {
            push.grid_base[0] = x;
            push.grid_base[1] = y;
            push.grid_base[2] = z;
            vkCmdPushConstants(cmd, l->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
            vkCmdDispatch(cmd, CUVK_MIN(maxg[0], grid[0] - x), CUVK_MIN(maxg[1], grid[1] - y),
                          CUVK_MIN(maxg[2], grid[2] - z));
            if (grid[0] - x <= maxg[0])
               break;
         }
         if (grid[1] - y <= maxg[1])
            break;
      }
      if (grid[2] - z <= maxg[2])
         break;
   }
   stream->last_value = value;
commit:
   if (ext_count)
      cuvk_array_images_ownership(ctx, cmd, ext_imgs, ext_count, false);
   /* A command buffer with a barrier and nothing else is harmless; the
    * batch goes either way. */
   {
      CUresult r = cuvk_submit_commit(ctx);
      res = res != CUDA_SUCCESS ? res : r;
   }
out:
   pthread_mutex_unlock(&ctx->lock);
   if (ext_imgs != ext_local)
      free(ext_imgs);
   return res;
}

/* The function's reference keeps its module (pipelines, shader) alive
 * through the recording; the recorded work keeps it after, through the
 * module's deferred release. */
CUresult
cuvk_launch_kernel(CUfunction hfunc, const uint32_t grid[3], const uint32_t block[3], uint32_t shared,
                   CUstream hstream, void **params, void **extra, const char *entry)
{
   struct cuvk_function *f;
   CUresult res = cuvk_driver_check(entry);
   if (res != CUDA_SUCCESS)
      return res;
   if (hfunc && cuvk_object_is(hfunc, CUVK_OBJECT_KERNEL)) {
      /* A CUkernel runs in the stream's context (the current one for the
       * default streams). */
      struct cuvk_context *kctx = NULL;
      struct cuvk_stream *kstream CUVK_HELD_STREAM = NULL;
      res = cuvk_stream_lookup_any(hstream, entry, &kctx, &kstream);
      if (res == CUDA_SUCCESS)
         res = cuvk_kernel_function((CUkernel)hfunc, kctx, entry, &f);
      if (res != CUDA_SUCCESS)
         return res;
      hfunc = (CUfunction)f;
   }
   res = cuvk_function_get(hfunc, entry, &f);
   if (res != CUDA_SUCCESS)
      return res;
   res = launch_function(f, grid, block, shared, hstream, params, extra, entry);
   cuvk_function_put(f);
   return res;
}

CUVK_EXPORT CUresult CUDAAPI
cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
               unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes,
               CUstream hStream, void **kernelParams, void **extra)
{
   const uint32_t grid[3] = {gridDimX, gridDimY, gridDimZ};
   const uint32_t block[3] = {blockDimX, blockDimY, blockDimZ};
   return cuvk_launch_kernel(f, grid, block, sharedMemBytes, hStream, kernelParams, extra, "cuLaunchKernel");
}

CUVK_EXPORT CUresult CUDAAPI
cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                    unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                    unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
   const uint32_t grid[3] = {gridDimX, gridDimY, gridDimZ};
   const uint32_t block[3] = {blockDimX, blockDimY, blockDimZ};
   /* The legacy default stream means the per-thread one here; cuvk's
    * streams are ordered alike, so both are the context's default. */
   return cuvk_launch_kernel(f, grid, block, sharedMemBytes, hStream ? hStream : CU_STREAM_PER_THREAD,
                             kernelParams, extra, "cuLaunchKernel_ptsz");
}
