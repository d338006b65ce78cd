/*
 * Texture and surface objects (docs/textures.md).
 *
 * A context has two tables, one of texture slots and one of surface
 * slots; a CUtexObject or CUsurfObject names a slot and the generation
 * it had when the object was made (kernel_abi.h has the encoding), so a
 * destroyed or foreign handle is refused by the host calls, and a kernel
 * finds the descriptor from the value alone.
 *
 * A slot over an array or mipmapped array holds a VkImageView (sampled
 * for textures, a storage view of the unsigned format as wide as a texel
 * for surfaces), a VkSampler for textures, and a reference on the array
 * that keeps its image alive until the object is destroyed.  Every slot
 * has a record (struct cuvk_kernel_tex_record) in a host-visible buffer
 * kernels read through the push constants: linear and pitched memory
 * have no image and are served from it.
 *
 * The tables keep a version, bumped by every create and destroy, so the
 * launch code can tell when a descriptor set written earlier no longer
 * says what the slots hold.
 */
#ifndef CUVK_API_TEXTURE_H
#define CUVK_API_TEXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <cuda.h>
#include <vulkan/vulkan.h>

#include "compiler/kernel_abi.h"
#include "cuda_api/submit.h"
#include "cuda_api/texture_desc.h"
#include "util/list.h"

struct cuvk_context;
struct cuvk_object;
struct cuvk_array_image;
struct cuvk_launch_buffer;

struct cuvk_tex_slot {
   uint32_t generation;          /* of the object now or last in the slot */
   bool used;
   CUDA_RESOURCE_DESC res;
   CUDA_TEXTURE_DESC tex;        /* textures only */
   CUDA_RESOURCE_VIEW_DESC view_desc; /* textures made with a resource view */
   bool has_view;
   struct cuvk_object *resource; /* the array or mipmapped array referenced */
   VkImageView view;
   VkSampler sampler;            /* textures only */
   uint32_t binding;             /* of set CUVK_KERNEL_TEX_SET; UINT32_MAX: none */
};

struct cuvk_tex_table {
   bool surfaces;
   uint32_t slot_count;
   struct cuvk_tex_slot *slots;
   struct cuvk_launch_buffer *records_buffer;
   struct cuvk_kernel_tex_record *records;
   VkDeviceAddress records_address;
   uint64_t version;
   /* Live textures over linear or pitched memory: while there are none,
    * kernels are specialised without the code that reads them
    * (CUVK_KERNEL_SPEC_TEX_MEMORY). */
   uint32_t memory_objects;
   /* Live textures over images whose float texel coordinates kernels
    * scale (CUVK_KERNEL_SPEC_TEX_SCALE): while there are none, kernels
    * are specialised without the size query. */
   uint32_t scaled_objects;
   /* Live textures that convert what they sample (the view is of an
    * imported image's own format; CUVK_KERNEL_SPEC_TEX_CONVERT). */
   uint32_t convert_objects;
};

struct dummy;

struct cuvk_tex_tables {
   struct cuvk_tex_table tex, surf;
   /* What cuvk_tex_desc_check checks descriptions against (the device's
    * attributes), found once. */
   struct cuvk_tex_desc_limits limits;
   /* Launches (texture.c): a stand-in image per binding for slots
    * without an object, their sampler, and the layouts and current set
    * of each combination of bindings kernels use. */
   struct dummy *dummies;         /* CUVK_KERNEL_BINDING_COUNT of them */
   VkSampler dummy_sampler;
   struct cuvk_list binding_sets;
   /* Most samplers with a custom border colour alive at once: the
    * device's maxCustomBorderColorSamplers, or CUVK_CUSTOM_BORDER_SAMPLERS
    * where lower (docs/environment.md); 0 where the context has none. */
   uint32_t border_sampler_limit;
};

/* The slot counts for a device: what the compiler's target says (an
 * array of that many descriptors per binding; two sampled and four
 * storage bindings fit the device's per-stage limits). */
void cuvk_texture_target(const VkPhysicalDeviceLimits *limits, uint32_t *tex_slots, uint32_t *surf_slots);

/* At context teardown, after the deferred frees: the samplers with a
 * custom border colour that are left (none, where every object released
 * its own). */
void cuvk_texture_finish_samplers(struct cuvk_context *ctx);

/* Whether kernels launched now may meet textures over linear or pitched
 * memory (the value of CUVK_KERNEL_SPEC_TEX_MEMORY).  Lock held. */
bool cuvk_texture_memory_live(const struct cuvk_context *ctx);

/* Whether kernels launched now may meet textures whose texel coordinates
 * they scale (the value of CUVK_KERNEL_SPEC_TEX_SCALE).  Lock held. */
bool cuvk_texture_scaling_live(const struct cuvk_context *ctx);
/* Whether kernels launched now may meet textures that convert what they
 * sample (the value of CUVK_KERNEL_SPEC_TEX_CONVERT).  Lock held. */
bool cuvk_texture_convert_live(const struct cuvk_context *ctx);

/* Before a launch of a kernel that uses textures (context lock not
 * held): the tables, and the stand-in images of its bindings. */
CUresult cuvk_texture_prepare(struct cuvk_context *ctx, uint64_t bindings, const char *entry);

/* The pipeline layout of kernels with these bindings (not 0); prepared,
 * lock held.  VK_NULL_HANDLE when it cannot be made (logged). */
VkPipelineLayout cuvk_texture_layout(struct cuvk_context *ctx, uint64_t bindings);

/* Binds the set of the tables' current contents for a kernel with these
 * bindings into cmd (a new set when objects came or went since the last
 * one) and fills the records' addresses in push; prepared, lock held. */
CUresult cuvk_texture_bind(struct cuvk_context *ctx, uint64_t bindings, VkCommandBuffer cmd,
                           struct cuvk_kernel_push *push);

/* The distinct images over imported memory (cuvk_array_image.external)
 * that the objects of these bindings view, lock held: a launch acquires
 * them from the external queue family before its dispatch and releases
 * them after, as array copies do (any object of a bound table may be
 * reached through a handle the kernel loads from memory).  Fills up to
 * max, returns how many there are; duplicates past max may be counted. */
unsigned cuvk_texture_external_images(struct cuvk_context *ctx, uint64_t bindings,
                                      struct cuvk_array_image **imgs, unsigned max);

/* Frees every object of a context being destroyed (GPU idle), before its
 * arrays go. */
void cuvk_texture_release_context(struct cuvk_context *ctx);

#endif
