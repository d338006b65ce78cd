/*
 * Building a module's kernels ahead of their first launch (module.h).
 *
 * A program built with nvcc launches each kernel through the runtime,
 * which loads the fatbin at the first launch and asks for each kernel at
 * its own first launch: translated one at a time, its pipeline compiled
 * by the driver one at a time under the context's lock.  On NVIDIA that
 * compile is most of a cold start.  So at the first launch of a kernel
 * of a module, the pool's workers take the module's other kernels in
 * turn: the disk cache entry, else a translation, then the shader module
 * and a pipeline for the shape just launched (most programs launch most
 * kernels with one shape; any other shape is built at its launch, as
 * before; no pipelines on CPU devices, cuvk_policy_pipelines_ahead).
 *
 * The compiler's module may not be used by two threads at once
 * (compiler.h: a translation changes the module's functions in place), so
 * each worker translates with a module of its own, parsed from the kept
 * PTX when it first misses the cache.  The number of workers on one
 * module is bounded so these parses stay within PARSE_BUDGET bytes of PTX.
 *
 * A library may hold thousands of kernels, most never launched: at most
 * UNCLAIMED_MAX kernels are built ahead and not yet asked for; each taken
 * lets a worker build one more.  So the host's memory holds a bounded
 * number of unused pipelines, and a program that uses the kernels still
 * gets them ahead.
 *
 * Slots go NONE -> BUSY (a worker builds it) -> BUILT -> TAKEN, or NONE
 * -> TAKEN (cuModuleGetFunction builds it itself), BUSY -> FAILED (the
 * caller then builds it itself, and reports what the compiler said).  All
 * under mod->lock; workers hold it only to take and hand back a kernel.
 */
#include "cuda_api/module.h"

#include <stdlib.h>
#include <string.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "cuda_api/module_cache.h"
#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"
#include "util/device_policy.h"
#include "util/work_pool.h"

#define UNCLAIMED_MAX 256u
/* Workers on one module at most (CUVK_COMPILE_THREADS allows 64). */
#define ITEMS_MAX 64u
#define PARSE_BUDGET (64u << 20)

enum slot {
   SLOT_NONE,
   SLOT_BUSY,
   SLOT_BUILT,
   SLOT_TAKEN,
   SLOT_FAILED,
};

struct ahead_item {
   struct cuvk_work work;
   struct cuvk_module *mod;
   bool used;                 /* queued or running; under mod->lock */
};

struct cuvk_module_ahead {
   pthread_cond_t cond;       /* a slot or active changed; with mod->lock */
   size_t count;
   uint8_t *state;
   struct cuvk_function **built;
   bool started;              /* atomic read outside the lock */
   bool cancel;
   bool pipelines;            /* cuvk_policy_pipelines_ahead */
   uint32_t block[3];
   uint32_t dynamic_shared;
   size_t next;               /* no NONE slot below it */
   unsigned unclaimed;        /* BUSY and BUILT */
   unsigned active;           /* items used */
   unsigned items_max;
   struct ahead_item items[ITEMS_MAX];
};

CUresult
cuvk_module_ahead_init(struct cuvk_module *mod, char **ptx, size_t len)
{
   size_t n = cuvk_cc_module_kernel_count(mod->cc);
   unsigned threads = cuvk_work_threads();
   if (n < 2 || threads == 0)
      return CUDA_SUCCESS;
   struct cuvk_module_ahead *a = calloc(1, sizeof(*a));
   if (!a)
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for a module's kernels");
   a->state = calloc(n, 1);
   a->built = calloc(n, sizeof(*a->built));
   if (!a->state || !a->built) {
      free(a->state);
      free(a->built);
      free(a);
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for a module's kernels");
   }
   a->count = n;
   const char *why;
   a->pipelines = cuvk_policy_pipelines_ahead(mod->ctx->dev->props.deviceType, &why);
   size_t by_budget = CUVK_MAX(PARSE_BUDGET / CUVK_MAX(len, (size_t)1), (size_t)1);
   a->items_max = (unsigned)CUVK_MIN(CUVK_MIN((size_t)threads, by_budget),
                                     (size_t)ITEMS_MAX);
   pthread_cond_init(&a->cond, NULL);
   mod->ahead = a;
   mod->ptx = *ptx;
   mod->ptx_len = len;
   *ptx = NULL;
   return CUDA_SUCCESS;
}

/* Kernel i of mod, built: the disk cache's entry or a translation with
 * *cc (parsed here at its first use), its shader, and a pipeline for the
 * launched shape where it fits.  NULL when anything fails: the caller's
 * own build then says why. */
static struct cuvk_function *
build(struct cuvk_module *mod, size_t i, struct cuvk_cc_module **cc)
{
   struct cuvk_module_ahead *a = mod->ahead;
   struct cuvk_context *ctx = mod->ctx;
   struct cuvk_cc_error err;
   memset(&err, 0, sizeof(err));
   const char *name = cuvk_cc_module_kernel_name(mod->cc, i);
   struct cuvk_function *f = calloc(1, sizeof(*f));
   if (!f)
      return NULL;
   f->mod = mod;
   uint8_t key[32];
   bool hit = false;
   if (mod->cached) {
      cuvk_module_cache_key(ctx, mod->ptx_hash, name, key);
      hit = cuvk_module_cache_get(key, &f->k, &f->cached_params);
   }
   if (!hit) {
      if (!*cc && !cuvk_cc_module_create(mod->ptx, mod->ptx_len, cc, &err))
         goto fail;
      if (!cuvk_cc_compile_kernel(*cc, name, &ctx->kernel_target, &f->k, &err))
         goto fail;
      /* The parameters live in this worker's module, gone with it: the
       * function keeps a copy, as for a disk cache entry. */
      size_t pbytes = f->k.param_count * sizeof(struct cuvk_cc_param);
      f->cached_params = malloc(pbytes ? pbytes : 1);
      if (!f->cached_params)
         goto fail;
      memcpy(f->cached_params, f->k.params, pbytes);
      f->k.params = f->cached_params;
      if (mod->cached)
         cuvk_module_cache_put(key, &f->k);
   }
   f->k.name = name;
   if (cuvk_function_make_shader(f, "building ahead") != CUDA_SUCCESS)
      goto fail;
   cuvk_logd("built ahead: %s %s", name, hit ? "read from the disk cache" : "translated");

   /* The launched shape, where this kernel may be launched with it. */
   const uint32_t *b = a->block;
   const struct cuvk_cc_kernel *k = &f->k;
   uint64_t threads = (uint64_t)b[0] * b[1] * b[2];
   uint64_t maxntid = k->maxntid[0] ? (uint64_t)k->maxntid[0] * CUVK_MAX(k->maxntid[1], 1u) *
                                      CUVK_MAX(k->maxntid[2], 1u) : UINT64_MAX;
   bool fits = a->pipelines && !k->tex_bindings && threads <= maxntid &&
               (!k->reqntid[0] || (b[0] == k->reqntid[0] && b[1] == CUVK_MAX(k->reqntid[1], 1u) &&
                                   b[2] == CUVK_MAX(k->reqntid[2], 1u))) &&
               (uint64_t)a->dynamic_shared + k->static_shared_bytes <=
               ctx->dev->props.limits.maxComputeSharedMemorySize &&
               a->dynamic_shared <= (uint32_t)f->max_dynamic_shared;
   VkPipeline pipeline;
   if (fits && cuvk_launch_pipeline_create(ctx, f, b, a->dynamic_shared, &pipeline) == CUDA_SUCCESS) {
      f->pipelines = malloc(4 * sizeof(*f->pipelines));
      if (!f->pipelines) {
         vkDestroyPipeline(ctx->vk, pipeline, NULL);
      } else {
         f->pipeline_capacity = 4;
         f->pipeline_count = 1;
         f->pipelines[0] = (struct cuvk_kernel_pipeline){
            .block = {b[0], b[1], b[2]},
            .dynamic_shared = a->dynamic_shared,
            .pipeline = pipeline,
         };
      }
   }
   return f;

fail:
   cuvk_logd("built ahead: %s not built (%s); left to its first use", name,
             cuvk_cc_failed(&err) ? err.message : "see above");
   cuvk_function_destroy(f);
   return NULL;
}

/* The next kernel nobody has started, or SIZE_MAX; mod->lock held. */
static size_t
next_slot(struct cuvk_module_ahead *a)
{
   while (a->next < a->count && a->state[a->next] != SLOT_NONE)
      a->next++;
   if (a->cancel || a->next == a->count || a->unclaimed >= UNCLAIMED_MAX)
      return SIZE_MAX;
   return a->next;
}

static void
item_run(struct cuvk_work *work)
{
   struct ahead_item *item = cuvk_container_of(work, struct ahead_item, work);
   struct cuvk_module *mod = item->mod;
   struct cuvk_module_ahead *a = mod->ahead;
   struct cuvk_cc_module *cc = NULL;

   pthread_mutex_lock(&mod->lock);
   /* A stopping pool (library unload) wants its workers back soon. */
   for (size_t i; !work->dropped && !cuvk_work_stopping() && (i = next_slot(a)) != SIZE_MAX;) {
      a->state[i] = SLOT_BUSY;
      a->unclaimed++;
      pthread_mutex_unlock(&mod->lock);
      struct cuvk_function *f = build(mod, i, &cc);
      pthread_mutex_lock(&mod->lock);
      if (f) {
         a->state[i] = SLOT_BUILT;
         a->built[i] = f;
      } else {
         a->state[i] = SLOT_FAILED;
         a->unclaimed--;
      }
      pthread_cond_broadcast(&a->cond);
   }
   item->used = false;
   a->active--;
   pthread_cond_broadcast(&a->cond);
   pthread_mutex_unlock(&mod->lock);
   cuvk_cc_module_destroy(cc);
}

/* Enough workers for what is left to build; mod->lock held. */
static void
kick(struct cuvk_module *mod)
{
   struct cuvk_module_ahead *a = mod->ahead;
   if (!a->started || a->cancel || mod->unloaded)
      return;
   size_t left = 0;
   for (size_t i = a->next; i < a->count && left < a->items_max; i++)
      left += a->state[i] == SLOT_NONE;
   left = CUVK_MIN(left, (size_t)(UNCLAIMED_MAX - CUVK_MIN(a->unclaimed, UNCLAIMED_MAX)));
   for (unsigned s = 0; s < a->items_max && a->active < left; s++) {
      struct ahead_item *item = &a->items[s];
      if (item->used)
         continue;
      item->mod = mod;
      item->work.run = item_run;
      if (!cuvk_work_submit(&item->work))
         return;
      item->used = true;
      a->active++;
   }
}

void
cuvk_module_ahead_start(struct cuvk_module *mod, const uint32_t block[3], uint32_t dynamic_shared)
{
   struct cuvk_module_ahead *a = mod->ahead;
   if (!a || __atomic_load_n(&a->started, __ATOMIC_ACQUIRE))
      return;
   pthread_mutex_lock(&mod->lock);
   if (!a->started) {
      memcpy(a->block, block, sizeof(a->block));
      a->dynamic_shared = dynamic_shared;
      __atomic_store_n(&a->started, true, __ATOMIC_RELEASE);
      kick(mod);
   }
   pthread_mutex_unlock(&mod->lock);
}

struct cuvk_function *
cuvk_module_ahead_take(struct cuvk_module *mod, size_t index)
{
   struct cuvk_module_ahead *a = mod->ahead;
   if (!a || index >= a->count)
      return NULL;
   /* Waits for this one build only: the others go on meanwhile. */
   while (a->state[index] == SLOT_BUSY)
      pthread_cond_wait(&a->cond, &mod->lock);
   struct cuvk_function *f = NULL;
   if (a->state[index] == SLOT_BUILT) {
      f = a->built[index];
      a->built[index] = NULL;
      a->unclaimed--;
   }
   a->state[index] = SLOT_TAKEN;
   if (f)
      kick(mod);
   return f;
}

static void
stop_locked(struct cuvk_module *mod)
{
   struct cuvk_module_ahead *a = mod->ahead;
   a->cancel = true;
   for (unsigned s = 0; s < a->items_max; s++) {
      if (a->items[s].used && cuvk_work_cancel(&a->items[s].work)) {
         a->items[s].used = false;
         a->active--;
      }
   }
   while (a->active)
      pthread_cond_wait(&a->cond, &mod->lock);
}

void
cuvk_module_ahead_stop(struct cuvk_module *mod)
{
   if (!mod->ahead)
      return;
   pthread_mutex_lock(&mod->lock);
   stop_locked(mod);
   pthread_mutex_unlock(&mod->lock);
}

void
cuvk_module_ahead_finish(struct cuvk_module *mod)
{
   struct cuvk_module_ahead *a = mod->ahead;
   if (a) {
      cuvk_module_ahead_stop(mod);
      /* Built and never asked for: never launched, so the GPU never
       * used them. */
      for (size_t i = 0; i < a->count; i++)
         if (a->built[i])
            cuvk_function_destroy(a->built[i]);
      pthread_cond_destroy(&a->cond);
      free(a->built);
      free(a->state);
      free(a);
      mod->ahead = NULL;
   }
   free(mod->ptx);
   mod->ptx = NULL;
}
