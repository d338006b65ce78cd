/*
 * The Vulkan side of the array tests: an application that exports images
 * to CUDA.
 *
 * Protocol, as the Vulkan specification prescribes for a resource shared
 * with another API: the image lives in VK_IMAGE_LAYOUT_GENERAL; whenever
 * CUDA may touch it, it is released to VK_QUEUE_FAMILY_EXTERNAL, and every
 * Vulkan command that uses it acquires it back first and releases it again
 * after.  Work on the two sides is ordered by host waits.
 *
 * Uses Vulkan only (no cuda.h), so the program built against NVIDIA's
 * cuda.h shares it.
 */
#ifndef CUVK_TESTS_ARRAY_VK_H
#define CUVK_TESTS_ARRAY_VK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vk_harness.h"

struct avk {
   struct vkh h;
   VkCommandPool pool;
   VkCommandBuffer cmd;
   VkFence fence;
   /* Host-visible staging for the image copies, grown on demand. */
   VkBuffer staging;
   VkDeviceMemory staging_memory;
   VkDeviceSize staging_size;
   void *staging_map;
};

struct avk_image {
   VkImageCreateInfo info;      /* as created (pNext cleared) */
   VkImage image;
   VkDeviceMemory memory;
   VkDeviceSize allocation_size;
   VkDeviceSize offset;         /* where the image is bound */
   bool dedicated;
   unsigned elem_size;          /* bytes per texel (per block for BC) */
   unsigned block;              /* texels per block side */
   int fd;                      /* exported fd, -1 once handed over */
};

bool avk_init(struct avk *v, const char *name);
/* Returns the number of validation messages of the exporter's instance. */
unsigned avk_finish(struct avk *v);

/* Bytes per texel (or 4x4 block) of the color formats the tests use; 0 for
 * others. */
void avk_format_size(VkFormat format, unsigned *elem_size, unsigned *block);

/* True when the device can make an exportable optimal image of info. */
bool avk_image_supported(struct avk *v, const VkImageCreateInfo *info);

/*
 * Creates an exportable image from info (usage gets TRANSFER_SRC|DST; its
 * pNext chain goes to vkCreateImage, out->info keeps none),
 * in memory of its own (dedicated: a dedicated allocation; otherwise
 * bound at `offset` into a larger allocation), moves it to GENERAL,
 * releases it to the external queue family and exports the memory's fd.
 */
bool avk_image_create(struct avk *v, const VkImageCreateInfo *info, bool dedicated, VkDeviceSize offset,
                      struct avk_image *out);
void avk_image_destroy(struct avk *v, struct avk_image *img);

/* A level's size in texels and its byte size packed tightly (rows of
 * blocks for BC, all layers or slices). */
void avk_level_extent(const struct avk_image *img, uint32_t level, VkExtent3D *extent, uint32_t *layers);
size_t avk_level_size(const struct avk_image *img, uint32_t level);

/* Writes or reads a whole level, packed tightly (layer or slice after
 * layer or slice), through a staging buffer: acquire, copy, release. */
bool avk_write_level(struct avk *v, struct avk_image *img, uint32_t level, const void *data);
bool avk_read_level(struct avk *v, struct avk_image *img, uint32_t level, void *data);

#endif
