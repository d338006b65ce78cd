/*
 * Contexts, streams and events.
 *
 * A context owns a VkDevice with its compute queues, the copy and fill
 * pipelines, the submission state, a staging ring for pageable host
 * transfers and the timestamp queries of its events.  Streams and events
 * are light: a stream is a label plus "done when" value, an event a
 * timeline value plus an optional timestamp query.
 */
#ifndef CUVK_API_CONTEXT_H
#define CUVK_API_CONTEXT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <cuda.h>
#include <vulkan/vulkan.h>

#include "compiler/compiler.h"
#include "cuda_api/external_memory.h"
#include "cuda_api/graph.h"
#include "cuda_api/host_queue.h"
#include "cuda_api/object.h"
#include "cuda_api/semaphore_pool.h"
#include "cuda_api/submit.h"
#include "mem/block_heap.h"
#include "util/list.h"

struct cuvk_device;

struct cuvk_stream {
   struct cuvk_object base;
   struct cuvk_context *ctx;
   struct cuvk_list link;    /* in ctx->streams */
   unsigned flags;
   int priority;
   uint64_t last_value;      /* point: completes when all its work has */
   uint32_t lane;            /* the lane it records on (submit.h) */
   uint32_t transfer_lane;   /* which transfer lane its host copies use */
   /* Per lane, the newest value cuStreamWaitEvent made it wait for: work
    * it records on a transfer lane waits for these too (submit.c). */
   uint64_t waits[CUVK_MAX_LANES];
   unsigned long long id;    /* cuStreamGetId: unique in the process */
   /* The stream capture it takes part in, or NULL, and the nodes its next
    * captured operation depends on (stream_capture.c's lock). */
   struct cuvk_capture *capture;
   struct cuvk_graph_nodes capture_deps;
};

#define CUVK_QUERY_POOL_SIZE 256u

struct cuvk_query_pool {
   struct cuvk_list link;
   VkQueryPool pool;
   uint32_t used[CUVK_QUERY_POOL_SIZE / 32];
};

struct cuvk_event {
   struct cuvk_object base;
   struct cuvk_context *ctx;
   struct cuvk_list link;    /* in ctx->events */
   unsigned flags;
   uint64_t value;           /* 0: never recorded */
   struct cuvk_query_pool *qpool; /* NULL with CU_EVENT_DISABLE_TIMING */
   uint32_t query;
   /* Recorded on a capturing stream: the capture (by id, which outlives
    * it safely) and the nodes it stands for (stream_capture.c's lock). */
   uint64_t capture_id;
   struct cuvk_graph_nodes capture_deps;
};

/* Staging for pageable host memory: a ring of host-visible slots, each
 * reusable once the GPU work that read or wrote it has completed. */
#define CUVK_STAGING_SLOTS 4u
#define CUVK_STAGING_SLOT_SIZE (8u << 20)

struct cuvk_staging {
   pthread_mutex_t lock;     /* one pageable transfer at a time */
   VkDeviceMemory memory;
   VkBuffer buffer;
   VkDeviceAddress address;
   uint8_t *map;
   bool cached;
   uint64_t slot_value[CUVK_STAGING_SLOTS];
   unsigned next;
   /* Device memory an overlapping copy bounces through (transfer.c),
    * made at first need.  Guarded by the context's lock, not the ring's:
    * every command is ordered after the one before, so successive
    * copies reuse it without waiting. */
   VkDeviceMemory scratch_memory;
   VkBuffer scratch_buffer;
   VkDeviceAddress scratch_address;
};

/* The sampler features a context's VkDevice enables, where the physical
 * device has them (texture.c makes its samplers within them). */
struct cuvk_sampler_features {
   bool anisotropy;                     /* samplerAnisotropy */
   float max_anisotropy;                /* maxSamplerAnisotropy; 0 without */
   bool custom_border;                  /* VK_EXT_custom_border_color's customBorderColors */
   bool border_without_format;          /* customBorderColorWithoutFormat */
   bool border_swizzle;                 /* VK_EXT_border_color_swizzle's borderColorSwizzle */
   uint32_t max_custom_border_samplers; /* maxCustomBorderColorSamplers; 0 without */
};

struct cuvk_context {
   /* Counted: the table's reference and one per call using the context
    * (object.h).  Its free function only says the count drained; the
    * destroy that waits for that frees it. */
   struct cuvk_object base;
   pthread_mutex_t drain_lock;
   pthread_cond_t drain_cond;
   bool drained;               /* under drain_lock */
   struct cuvk_device *dev;
   unsigned flags;
   bool primary;

   VkDevice vk;
   /* Lanes and their queues (submit.h); the queues are created with the
    * device and live in submit. */
   struct cuvk_lane_plan lane_plan;
   /* The resident command ring (ring.h), or NULL. */
   struct cuvk_ring *ring;
   PFN_vkGetMemoryFdKHR GetMemoryFdKHR;
   PFN_vkGetMemoryHostPointerPropertiesEXT GetMemoryHostPointerPropertiesEXT;
   PFN_vkImportSemaphoreFdKHR ImportSemaphoreFdKHR;  /* NULL: no native imports */

   VkPipelineLayout copy_layout;
   VkPipeline copy_pipeline;
   VkPipelineLayout fill_layout;
   VkPipeline fill_pipeline;
   uint32_t max_groups_x;    /* grid-stride cap for dispatches */
   /* Memory types a buffer with OPAQUE_FD external memory can bind, and
    * the one cuvk uses for exportable and guessed-import memory (NVIDIA
    * excludes its BAR type from these). */
   uint32_t opaque_fd_type_bits;
   uint32_t opaque_fd_type_index;
   /* Copies use vkCmdCopyBuffer instead of the copy shader, and fills
    * vkCmdFillBuffer instead of the fill shader (see pipeline.c for
    * when). */
   bool transfer_engine;
   bool fill_transfer;
   /* Native timeline signals and waits may be done by the host
    * (external_semaphore_held.c, cuvk_policy_host_semaphore_ops). */
   bool host_semaphore_ops;

   /* Guards submission and the object lists below. */
   pthread_mutex_t lock;
   struct cuvk_submit submit;
   struct cuvk_stream null_stream; /* the legacy default stream */
   struct cuvk_list streams;
   /* Entries of the per-thread default streams made for this context
    * (stream_per_thread.c; guarded by that file's lock, not this one's). */
   struct cuvk_list per_thread_streams;
   struct cuvk_list events;
   struct cuvk_list query_pools;
   struct cuvk_list allocations;   /* cuvk_mem_alloc, for teardown */
   struct cuvk_list external_memories; /* cuvk_external_memory */
   struct cuvk_import_scratch import_scratch; /* external_memory_guess.c */
   struct cuvk_list arrays;            /* cuvk_array_image (src/array/) */
   struct cuvk_array_pipelines *array_pipelines; /* src/array/, made at first use */
   struct cuvk_list vmm_handles;   /* cuMemCreate / import handles */
   struct cuvk_list external_semaphores; /* cuvk_external_semaphore */
   struct cuvk_semaphore_pool semaphore_pool; /* VkSemaphores for native imports */
   /* The newest step that waits on a native imported semaphore: until it
    * completes, teardown cannot count on the GPU going idle. */
   uint64_t native_wait_value;
   /* Waits on native timeline semaphores not submitted yet
    * (external_semaphore_held.c), and how many. */
   struct cuvk_list held_waits;
   uint32_t held_wait_count;

   /* Host functions and emulated semaphores (host_queue.h). */
   struct cuvk_host_queue host_queue;

   /* Device allocations, and pinned host allocations (cuMemAllocHost). */
   struct cuvk_mem_heap device_heap;
   struct cuvk_mem_heap host_heap;

   struct cuvk_staging staging;

   /* Kernels: what the compiler may use on this device (set at creation),
    * the loaded modules (module.c) and the launch state (launch.c, made
    * at the first module load).  A kernel's out-of-bounds access makes
    * fault_error CUDA_ERROR_ILLEGAL_ADDRESS for good, as on CUDA;
    * lavapipe's loop limit (kernel_target.loop_limit) makes it
    * CUDA_ERROR_LAUNCH_FAILED, as sticky.  The first error recorded
    * stays. */
   struct cuvk_cc_target kernel_target;
   struct cuvk_list modules;
   struct cuvk_launch *launch;
   CUresult fault_error;
   /* Device printf's buffer (printf.c): made under the lock at the first
    * launch of a kernel that prints, NULL before. */
   struct cuvk_printf *printf_fifo;
   /* Texture and surface objects (texture.h): made at the first create,
    * NULL before; set under the lock, read with an acquire load. */
   struct cuvk_tex_tables *textures;
   struct cuvk_sampler_features samplers; /* set at creation */
   /* Samplers with a custom border colour, shared by the texture objects
    * that describe the same one and counted against
    * maxCustomBorderColorSamplers (texture.c).  A destroyed object's
    * sampler goes once the GPU is done with it, which may be after the
    * tables are freed: the list lives as long as the context. */
   pthread_mutex_t border_lock;
   struct cuvk_list border_samplers;
   uint32_t border_sampler_count;  /* under border_lock */

   /* How kernels reach memory (mem/page_table.h); made when the first
    * module is loaded, NULL before.  Set under the lock. */
   struct cuvk_mem_page_table *page_table;

   /* Settings that only kernels would read (context_settings.c): kept
    * and reported, never acted on.  Atomics, read and written from any
    * thread without the lock. */
   unsigned long long id;
   size_t limits[CU_LIMIT_MAX];
   CUfunc_cache cache_config;
};

CUresult cuvk_context_create(struct cuvk_device *dev, unsigned flags, bool primary,
                             struct cuvk_context **out);
/* Gives a new context its id and CUDA's default limits. */
void cuvk_context_settings_init(struct cuvk_context *ctx);

/* Drops a reference cuvk_context_current, cuvk_context_resolve or
 * cuvk_context_get took.  NULL is ignored. */
void cuvk_context_put(struct cuvk_context *ctx);
static inline void
cuvk_context_put_held(struct cuvk_context **ctx)
{
   cuvk_context_put(*ctx);
}

/* A call holds the context it works in for its whole duration, so a
 * destroy on another thread waits for it instead of freeing the context
 * under it; a variable declared with this attribute (GCC's and Clang's
 * cleanup) drops the reference on every way out of its scope, so no
 * early return leaks one and keeps that destroy waiting forever.  Declare
 * it NULL; only a lookup may assign it. */
#define CUVK_HELD_CONTEXT __attribute__((cleanup(cuvk_context_put_held)))

/* Whether hctx is a live primary context (read while holding it). */
bool cuvk_context_is_primary(CUcontext hctx);

/* Another reference to a context the caller holds already. */
void cuvk_context_get(struct cuvk_context *ctx);

/* A CUcontext argument: NULL is the calling thread's current context;
 * anything else must be a live context (CUDA_ERROR_INVALID_CONTEXT).
 * With a reference (CUVK_HELD_CONTEXT). */
CUresult cuvk_context_resolve(CUcontext hctx, const char *entry, struct cuvk_context **out);

/* The next stream id; ids are never reused. */
unsigned long long cuvk_stream_next_id(void);

/* Takes ctx out of the table, waits until no call holds it (held: the
 * caller's own reference, dropped here) and frees it with everything it
 * owns.  False, with nothing done, when another thread's destroy took it
 * out first. */
bool cuvk_context_destroy(struct cuvk_context *ctx, bool held);

/* The calling thread's current context, checked to be live, with a
 * reference (CUVK_HELD_CONTEXT): CUDA_ERROR_INVALID_CONTEXT when there is
 * none, CUDA_ERROR_CONTEXT_IS_DESTROYED when it was destroyed. */
CUresult cuvk_context_current(const char *entry, struct cuvk_context **out);

/* Makes ctx the current context if nothing is current (what the runtime
 * API does implicitly). */
void cuvk_context_set_current_if_none(struct cuvk_context *ctx);

/* Frees the virtual-memory handles of a context being destroyed. */
void cuvk_vmm_release_context(struct cuvk_context *ctx);

/* Drops ctx from the calling thread's stack when it is destroyed. */
void cuvk_context_unbind(struct cuvk_context *ctx);

/* Resolves a CUstream for ctx (held by the caller): NULL and
 * CU_STREAM_LEGACY are ctx's legacy stream, CU_STREAM_PER_THREAD the
 * calling thread's per-thread stream in ctx (made at first use).  The
 * stream comes with a reference, which holds ctx once more
 * (cuvk_stream_put, or CUVK_HELD_STREAM).  Call without ctx's lock. */
CUresult cuvk_stream_resolve(struct cuvk_context *ctx, CUstream hstream, const char *entry,
                             struct cuvk_stream **out);

/* For entry points given only a stream: the stream's context, or the
 * current one for the default streams.  The stream comes with a reference
 * that holds its context too (cuvk_stream_put, or CUVK_HELD_STREAM), so
 * ctx_out needs no put of its own. */
CUresult cuvk_stream_lookup(CUstream hstream, const char *entry, struct cuvk_context **ctx_out,
                            struct cuvk_stream **out);

/* Both of the above refuse a stream being captured into a graph with
 * CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, invalidating its capture, so that
 * no call runs work on one by mistake.  A call that captures its
 * operation, or may be made on a capturing stream, looks the stream up
 * with these and checks cuvk_stream_capturing itself (graph.h). */
CUresult cuvk_stream_resolve_any(struct cuvk_context *ctx, CUstream hstream, const char *entry,
                                 struct cuvk_stream **out);
CUresult cuvk_stream_lookup_any(CUstream hstream, const char *entry, struct cuvk_context **ctx_out,
                                struct cuvk_stream **out);

/* Drops the reference cuvk_stream_lookup or cuvk_stream_resolve took, and
 * with it the one to its context (a default stream holds only that).
 * NULL is ignored. */
void cuvk_stream_put(struct cuvk_stream *stream);
static inline void
cuvk_stream_put_held(struct cuvk_stream **stream)
{
   cuvk_stream_put(*stream);
}

/* A call holds what it looked up for its whole duration and no longer: a
 * variable declared with this attribute (GCC's and Clang's cleanup) drops
 * the reference on every way out of its scope, so no early return leaks
 * one.  Declare it NULL; only a lookup may assign it. */
#define CUVK_HELD_STREAM __attribute__((cleanup(cuvk_stream_put_held)))

/* Takes stream off ctx->streams and out of the table (a call holding it
 * finishes on it); ctx lock held. */
void cuvk_stream_destroy_locked(struct cuvk_stream *stream);
/* A new stream of ctx on the list of its streams, not yet in the object
 * table (cuvk_stream_enter).  Lock held. */
CUresult cuvk_stream_create_locked(struct cuvk_context *ctx, unsigned flags, int priority,
                                   struct cuvk_stream **out);
/* Enters a stream cuvk_stream_create_locked made in the object table,
 * counted and holding its context; without ctx's lock. */
void cuvk_stream_enter(struct cuvk_stream *stream);
/* The calling thread's per-thread default stream in ctx, made at its
 * first use: a blocking stream of its own, destroyed when the thread
 * exits or ctx is destroyed (stream_per_thread.c).  No reference is
 * taken: ctx, held by the caller, keeps it.  Without ctx's lock. */
CUresult cuvk_stream_per_thread(struct cuvk_context *ctx, const char *entry, struct cuvk_stream **out);
/* Forgets ctx's per-thread streams at its teardown, before its streams
 * go; without ctx's lock. */
void cuvk_stream_per_thread_release_context(struct cuvk_context *ctx);
/* Context teardown: the event goes at once, references or not. */
void cuvk_event_destroy_locked(struct cuvk_event *event);
/* The live event hevent names, with a reference the caller drops with
 * cuvk_event_put (never under the context's lock: the last one takes
 * it). */
/* cuEventCreate in ctx (flags checked and logged as cuEventCreate's). */
CUresult cuvk_event_create(struct cuvk_context *ctx, unsigned flags, struct cuvk_event **out);
CUresult cuvk_event_get(CUevent hevent, const char *entry, struct cuvk_event **out);
void cuvk_event_put(struct cuvk_event *event);

/* Whether the event has been recorded, and the timeline value it waits
 * for, read under the context's lock.  Takes the lock itself. */
bool cuvk_event_recorded(struct cuvk_event *event, uint64_t *value);

#endif
