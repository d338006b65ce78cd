/*
 * Translated kernels and pipeline caches on disk (module_cache.h).
 */
#include "cuda_api/module_cache.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_api/context.h"
#include "cuda_api/driver.h"
#include "util/disk_cache.h"
#include "util/log.h"
#include "util/sha256.h"

/* Changes whenever an entry's layout does. */
#define KERNEL_ENTRY_VERSION 2u
#define PIPELINE_ENTRY_VERSION 1u

/* A field added to either struct changes what a translation depends on
 * or what an entry must hold: it has to be hashed (cache_key) or stored
 * (put/get) below, and these sizes updated. */
_Static_assert(sizeof(struct cuvk_cc_target) == 48, "hash the new cuvk_cc_target field in cache_key");
_Static_assert(sizeof(struct cuvk_cc_kernel) == 88, "store the new cuvk_cc_kernel field in the cache entry");

/* cuvk's build: the ELF build ID of the object this code is in, or,
 * without one, its size and time (a rebuilt library differs in both). */
struct build_id {
   uint8_t bytes[64];
   size_t len;
};

static int
find_build_id(struct dl_phdr_info *info, size_t size, void *data)
{
   (void)size;
   struct build_id *id = data;
   uintptr_t self = (uintptr_t)&find_build_id;
   bool mine = false;
   for (int i = 0; i < info->dlpi_phnum && !mine; i++) {
      const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
      uintptr_t start = info->dlpi_addr + ph->p_vaddr;
      mine = ph->p_type == PT_LOAD && self >= start && self < start + ph->p_memsz;
   }
   if (!mine)
      return 0;
   for (int i = 0; i < info->dlpi_phnum; i++) {
      const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type != PT_NOTE)
         continue;
      const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
      while (p + sizeof(ElfW(Nhdr)) <= end) {
         const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
         const uint8_t *name = p + sizeof(*n);
         const uint8_t *desc = name + ((n->n_namesz + 3) & ~3u);
         if (desc + n->n_descsz > end)
            break;
         if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && memcmp(name, "GNU", 4) == 0 &&
             n->n_descsz <= sizeof(id->bytes)) {
            memcpy(id->bytes, desc, n->n_descsz);
            id->len = n->n_descsz;
            return 1;
         }
         p = desc + ((n->n_descsz + 3) & ~3u);
      }
   }
   return 1;
}

static struct build_id the_build_id;
static pthread_once_t build_id_once = PTHREAD_ONCE_INIT;

static void
build_id_init(void)
{
   dl_iterate_phdr(find_build_id, &the_build_id);
   if (the_build_id.len == 0) {
      /* No build ID note: the library file's size and time instead. */
      Dl_info info;
      struct stat st;
      if (dladdr((void *)&build_id_init, &info) && info.dli_fname && stat(info.dli_fname, &st) == 0) {
         uint64_t v[3] = {(uint64_t)st.st_size, (uint64_t)st.st_mtim.tv_sec, (uint64_t)st.st_mtim.tv_nsec};
         memcpy(the_build_id.bytes, v, sizeof(v));
         the_build_id.len = sizeof(v);
      }
   }
}

static const struct build_id *
build_id(void)
{
   pthread_once(&build_id_once, build_id_init);
   return &the_build_id;
}

static void
hash_device(struct cuvk_sha256 *h, const struct cuvk_context *ctx)
{
   const VkPhysicalDeviceProperties *p = &ctx->dev->props;
   uint32_t ids[4] = {p->vendorID, p->deviceID, p->driverVersion, (uint32_t)ctx->dev->driver_id};
   cuvk_sha256_update(h, ids, sizeof(ids));
   cuvk_sha256_update(h, p->pipelineCacheUUID, VK_UUID_SIZE);
}

bool
cuvk_module_cache_hash_ptx(const char *ptx, size_t len, uint8_t out[32])
{
   if (!cuvk_disk_cache_enabled())
      return false;
   cuvk_sha256(ptx, len, out);
   return true;
}

void
cuvk_module_cache_key(const struct cuvk_context *ctx, const uint8_t ptx_hash[32], const char *name,
                      uint8_t key[32])
{
   const struct cuvk_cc_target *t = &ctx->kernel_target;
   const struct build_id *id = build_id();
   struct cuvk_sha256 h;
   uint32_t version = KERNEL_ENTRY_VERSION;
   cuvk_sha256_init(&h);
   cuvk_sha256_update(&h, "cuvk kernel", 12);
   cuvk_sha256_update(&h, &version, sizeof(version));
   cuvk_sha256_update(&h, id->bytes, id->len);
   cuvk_sha256_update(&h, ptx_hash, 32);
   cuvk_sha256_update(&h, name, strlen(name) + 1);
   hash_device(&h, ctx);
   /* The target field by field: padding bytes are not part of it. */
   uint32_t fields[] = {
      t->subgroup_size, t->int8, t->int16, t->int64, t->float16, t->float64, t->atomic_int64,
      t->atomic_float32_add, t->atomic_float64_add, t->max_shared_bytes, t->shader_clock,
      t->denorm_preserve_f16, t->denorm_preserve_f32, t->denorm_preserve_f64, t->fma_fused,
      t->tex_slots, t->surf_slots, t->max_sampled_descriptors, t->max_storage_descriptors,
      t->tex_nonuniform, t->surf_nonuniform, t->image_cube_array, t->shared_atomic_int64,
      t->loop_limit,
   };
   cuvk_sha256_update(&h, fields, sizeof(fields));
   cuvk_sha256_final(&h, key);
}

/* An entry: a header of 32-bit fields, the parameters, the SPIR-V. */
enum {
   F_VERSION,
   F_WORD_COUNT,
   F_PARAM_COUNT,
   F_PARAM_BYTES,
   F_STATIC_SHARED,
   F_DYNAMIC_SHARED,
   F_LOCAL_BYTES,
   F_REQNTID,
   F_MAXNTID = F_REQNTID + 3,
   F_USES_PRINTF = F_MAXNTID + 3,
   F_TEX_BINDINGS_LO,
   F_TEX_BINDINGS_HI,
   F_USES_TEXTURES,
   F_COUNT,
};

void
cuvk_module_cache_put(const uint8_t key[32], const struct cuvk_cc_kernel *k)
{
   size_t size = F_COUNT * 4 + (size_t)k->param_count * sizeof(struct cuvk_cc_param) + k->word_count * 4;
   uint32_t *e = malloc(size);
   if (!e)
      return;
   e[F_VERSION] = KERNEL_ENTRY_VERSION;
   e[F_WORD_COUNT] = (uint32_t)k->word_count;
   e[F_PARAM_COUNT] = k->param_count;
   e[F_PARAM_BYTES] = k->param_bytes;
   e[F_STATIC_SHARED] = k->static_shared_bytes;
   e[F_DYNAMIC_SHARED] = k->dynamic_shared;
   e[F_LOCAL_BYTES] = k->local_bytes;
   for (unsigned i = 0; i < 3; i++) {
      e[F_REQNTID + i] = k->reqntid[i];
      e[F_MAXNTID + i] = k->maxntid[i];
   }
   e[F_USES_PRINTF] = k->uses_printf;
   e[F_TEX_BINDINGS_LO] = (uint32_t)k->tex_bindings;
   e[F_TEX_BINDINGS_HI] = (uint32_t)(k->tex_bindings >> 32);
   e[F_USES_TEXTURES] = k->uses_textures;
   uint8_t *p = (uint8_t *)(e + F_COUNT);
   if (k->param_count)
      memcpy(p, k->params, k->param_count * sizeof(struct cuvk_cc_param));
   p += k->param_count * sizeof(struct cuvk_cc_param);
   memcpy(p, k->words, k->word_count * 4);
   cuvk_disk_cache_put(key, e, size);
   free(e);
}

bool
cuvk_module_cache_get(const uint8_t key[32], struct cuvk_cc_kernel *k, struct cuvk_cc_param **params)
{
   size_t size = 0;
   uint32_t *e = cuvk_disk_cache_get(key, &size);
   if (!e)
      return false;
   /* The checksum vouches for the bytes; the sizes are checked anyway
    * so no entry can make cuvk read past it. */
   if (size < F_COUNT * 4 || e[F_VERSION] != KERNEL_ENTRY_VERSION || e[F_WORD_COUNT] == 0 ||
       (uint64_t)F_COUNT * 4 + (uint64_t)e[F_PARAM_COUNT] * sizeof(struct cuvk_cc_param) +
       (uint64_t)e[F_WORD_COUNT] * 4 != size) {
      cuvk_logw("disk cache: an entry of the right checksum has the wrong layout; ignored");
      free(e);
      return false;
   }
   size_t pbytes = e[F_PARAM_COUNT] * sizeof(struct cuvk_cc_param);
   uint32_t *words = malloc(e[F_WORD_COUNT] * 4u);
   struct cuvk_cc_param *ps = malloc(pbytes ? pbytes : 1);
   if (!words || !ps) {
      free(words);
      free(ps);
      free(e);
      return false;
   }
   const uint8_t *p = (const uint8_t *)(e + F_COUNT);
   memcpy(ps, p, pbytes);
   memcpy(words, p + pbytes, e[F_WORD_COUNT] * 4u);
   k->words = words;
   k->word_count = e[F_WORD_COUNT];
   k->params = ps;
   k->param_count = e[F_PARAM_COUNT];
   k->param_bytes = e[F_PARAM_BYTES];
   k->static_shared_bytes = e[F_STATIC_SHARED];
   k->dynamic_shared = e[F_DYNAMIC_SHARED] != 0;
   k->local_bytes = e[F_LOCAL_BYTES];
   for (unsigned i = 0; i < 3; i++) {
      k->reqntid[i] = e[F_REQNTID + i];
      k->maxntid[i] = e[F_MAXNTID + i];
   }
   k->uses_printf = e[F_USES_PRINTF] != 0;
   k->tex_bindings = e[F_TEX_BINDINGS_LO] | (uint64_t)e[F_TEX_BINDINGS_HI] << 32;
   k->uses_textures = e[F_USES_TEXTURES] != 0;
   *params = ps;
   free(e);
   return true;
}

static void
pipeline_key(const struct cuvk_context *ctx, uint8_t key[32])
{
   const struct build_id *id = build_id();
   struct cuvk_sha256 h;
   uint32_t version = PIPELINE_ENTRY_VERSION;
   cuvk_sha256_init(&h);
   cuvk_sha256_update(&h, "cuvk pipeline cache", 20);
   cuvk_sha256_update(&h, &version, sizeof(version));
   cuvk_sha256_update(&h, id->bytes, id->len);
   hash_device(&h, ctx);
   cuvk_sha256_final(&h, key);
}

VkResult
cuvk_module_cache_pipeline_create(const struct cuvk_context *ctx, VkPipelineCache *out)
{
   uint8_t key[32];
   size_t size = 0;
   void *data = NULL;
   if (cuvk_disk_cache_enabled()) {
      pipeline_key(ctx, key);
      data = cuvk_disk_cache_get(key, &size);
   }
   /* Vulkan's own header (length, version 1, vendor, device, UUID) must
    * match this device, or the data is not handed over at all. */
   const VkPhysicalDeviceProperties *p = &ctx->dev->props;
   uint32_t head[4];
   if (data && (size < 16 + VK_UUID_SIZE || (memcpy(head, data, 16), head[0] < 16 + VK_UUID_SIZE) ||
                head[1] != VK_PIPELINE_CACHE_HEADER_VERSION_ONE || head[2] != p->vendorID ||
                head[3] != p->deviceID || memcmp((uint8_t *)data + 16, p->pipelineCacheUUID, VK_UUID_SIZE))) {
      free(data);
      data = NULL;
      size = 0;
   }
   VkPipelineCacheCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
      .initialDataSize = data ? size : 0,
      .pInitialData = data,
   };
   VkResult vr = vkCreatePipelineCache(ctx->vk, &info, NULL, out);
   if (vr != VK_SUCCESS && data) {
      /* Data the driver will not take is no reason to fail. */
      info.initialDataSize = 0;
      info.pInitialData = NULL;
      vr = vkCreatePipelineCache(ctx->vk, &info, NULL, out);
   }
   if (data)
      cuvk_logd("disk cache: %zu bytes of pipeline cache read", size);
   free(data);
   return vr;
}

bool
cuvk_module_cache_pipeline_save(const struct cuvk_context *ctx, VkPipelineCache cache, size_t *saved_size)
{
   uint8_t key[32];
   size_t size = 0;
   if (!cuvk_disk_cache_enabled() || vkGetPipelineCacheData(ctx->vk, cache, &size, NULL) != VK_SUCCESS ||
       size == 0)
      return false;
   /* The same size as what was read or written last: the pipelines made
    * since were found in the cache (a warm run), or the driver keeps
    * nothing of them (lavapipe's cache is a header); rewriting the same
    * bytes would only cost time. */
   if (size == *saved_size)
      return false;
   bool written = false;
   void *data = malloc(size);
   if (data && vkGetPipelineCacheData(ctx->vk, cache, &size, data) == VK_SUCCESS) {
      pipeline_key(ctx, key);
      cuvk_disk_cache_put(key, data, size);
      *saved_size = size;
      written = true;
   }
   free(data);
   return written;
}
