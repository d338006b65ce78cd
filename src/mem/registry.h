/*
 * The registry of exported allocations: what VK_LAYER_CUVK_interop saw the
 * application do, looked up by the fd the application hands to
 * cuImportExternalMemory.
 *
 * Importing an OPAQUE_FD into a second VkDevice is only valid with the
 * exporter's exact allocationSize and memoryTypeIndex and, for a dedicated
 * allocation, an image or buffer created with identical parameters.  CUDA's
 * descriptors carry none of that, so the layer (src/layer/) records it from
 * the application's own Vulkan calls and the frontend (src/cuda_api/) reads
 * it back here.  Both halves live in libcuvk.so (libcuda.so.1 is a link to
 * the same file), so there is one registry per process.
 *
 * Records are owned: the layer registers each exported VkDeviceMemory under
 * an owner key (any pointer unique while the allocation lives; the layer
 * uses its own tracking struct for the allocation) and drops them all with
 * cuvk_mem_registry_forget_owner() at vkFreeMemory or vkDestroyDevice.  One
 * owner has one record and any number of exported fds.
 *
 * Identifying an fd.  The number means nothing: the importer may hold a
 * dup(), or a copy received over a unix socket, of the fd vkGetMemoryFdKHR
 * returned.  What those share is the open file description, so that is the
 * identity:
 *
 *  - At registration the registry keeps its own dup of the exported fd
 *    (F_DUPFD_CLOEXEC) and its fstat() (st_dev, st_ino).
 *  - At lookup it fstat()s the given fd, takes the entries with the same
 *    (st_dev, st_ino) and confirms one with kcmp(KCMP_FILE) against the
 *    kept dup: equal means the very same open file description.  The inode
 *    alone is not enough: lavapipe exports memfds (an inode per
 *    allocation), but a driver may hand out fds that all share one
 *    anonymous inode.
 *  - Where kcmp is unavailable (kernel without it, or a seccomp policy that
 *    refuses it: ENOSYS, EPERM, EACCES) the inode decides alone, and only
 *    when exactly one owner has that inode; otherwise the lookup fails
 *    rather than guess.
 *
 * Consequences of the kept dup, by design: each export costs the process one
 * extra fd (counted against RLIMIT_NOFILE) until its owner is forgotten, and
 * the exported payload stays alive at least that long even if the
 * application closed every fd it had; forgetting the owner closes the dup.
 * A file description re-opened through /proc/<pid>/fd/N is a different
 * description and is not found while kcmp works.
 *
 * All functions are thread-safe (one mutex).  The registry allocates with
 * malloc, not with the application's VkAllocationCallbacks: it is
 * process-wide and outlives any one instance.  It does no work at load and
 * frees everything it holds when its last owner is forgotten.
 */
#ifndef CUVK_MEM_REGISTRY_H
#define CUVK_MEM_REGISTRY_H

#include <stdbool.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

/* Caps of the fixed arrays in a record; a record says when it overflowed.
 * The view formats hold the list the layer gives the images it widens
 * (cuvk_vk_format_view_list, at most CUVK_ARRAY_MAX_VIEW_FORMATS). */
#define CUVK_MEM_MAX_VIEW_FORMATS 16
#define CUVK_MEM_MAX_DRM_PLANES 4
#define CUVK_MEM_MAX_BOUND_IMAGES 16
#define CUVK_MEM_MAX_BOUND_BUFFERS 16

enum cuvk_mem_dedicated_kind {
   CUVK_MEM_DEDICATED_NONE = 0,
   CUVK_MEM_DEDICATED_IMAGE,
   CUVK_MEM_DEDICATED_BUFFER,
};

/* Everything of a VkImageCreateInfo that an importer must repeat to create
 * an identical image.  Queue family indices are left out: they belong to
 * the exporting device and mean nothing to another one. */
struct cuvk_mem_image_info {
   VkImageCreateFlags flags;
   VkImageType image_type;
   VkFormat format;
   VkExtent3D extent;
   uint32_t mip_levels;
   uint32_t array_layers;
   VkSampleCountFlagBits samples;
   VkImageTiling tiling;
   VkImageUsageFlags usage;
   VkSharingMode sharing_mode;
   VkImageLayout initial_layout;

   /* VkExternalMemoryImageCreateInfo::handleTypes. */
   VkExternalMemoryHandleTypeFlags handle_types;

   /* VkImageFormatListCreateInfo, truncated to the cap (then
    * view_formats_truncated is set and the list must not be relied on). */
   uint32_t view_format_count;
   bool view_formats_truncated;
   VkFormat view_formats[CUVK_MEM_MAX_VIEW_FORMATS];

   /* For VK_IMAGE_TILING_DRM_FORMAT_MODIFIER_EXT: the modifier the image
    * was created with (explicit), or the one the driver chose from a list
    * (queried after creation).  Plane layouts only for the explicit form. */
   bool has_drm_format_modifier;
   uint64_t drm_format_modifier;
   uint32_t drm_plane_count;
   VkSubresourceLayout drm_plane_layouts[CUVK_MEM_MAX_DRM_PLANES];
};

/* Everything of a VkBufferCreateInfo that an importer must repeat. */
struct cuvk_mem_buffer_info {
   VkBufferCreateFlags flags;
   VkDeviceSize size;
   VkBufferUsageFlags usage;
   VkSharingMode sharing_mode;
   /* VkExternalMemoryBufferCreateInfo::handleTypes. */
   VkExternalMemoryHandleTypeFlags handle_types;
};

/* An image bound into the allocation.  plane_aspect is the
 * VkBindImagePlaneMemoryInfo aspect of a disjoint image, else 0. */
struct cuvk_mem_bound_image {
   VkDeviceSize offset;
   VkImageAspectFlagBits plane_aspect;
   struct cuvk_mem_image_info info;
};

struct cuvk_mem_bound_buffer {
   VkDeviceSize offset;
   struct cuvk_mem_buffer_info info;
};

/*
 * One exported allocation as the exporter made it.
 *
 * images[] and buffers[] list the live objects bound into the allocation
 * (a dedicated image or buffer appears there too, at offset 0, once bound),
 * in the order they were bound; destroying an object removes it.  Past the
 * caps, further bindings are dropped and bindings_truncated is set.
 */
struct cuvk_mem_export_record {
   /* VkPhysicalDeviceIDProperties of the exporting device; all zero when
    * the instance could not query them (then has_uuids is false).  An
    * OPAQUE_FD only imports where both match. */
   bool has_uuids;
   uint8_t device_uuid[VK_UUID_SIZE];
   uint8_t driver_uuid[VK_UUID_SIZE];

   VkDeviceSize allocation_size;
   uint32_t memory_type_index;
   /* propertyFlags of that memory type on the exporting device. */
   VkMemoryPropertyFlags memory_flags;
   /* VkMemoryAllocateFlagsInfo::flags, 0 when absent. */
   VkMemoryAllocateFlags allocate_flags;
   /* VkExportMemoryAllocateInfo::handleTypes. */
   VkExternalMemoryHandleTypeFlags handle_types;
   /* The handle type the looked-up fd was exported as (filled by
    * cuvk_mem_registry_lookup_fd from the registration). */
   VkExternalMemoryHandleTypeFlagBits exported_handle_type;

   /* VkMemoryDedicatedAllocateInfo.  dedicated_image.format is
    * VK_FORMAT_UNDEFINED (and dedicated_buffer.size 0) when the object was
    * not created for export and so was not tracked. */
   enum cuvk_mem_dedicated_kind dedicated;
   struct cuvk_mem_image_info dedicated_image;
   struct cuvk_mem_buffer_info dedicated_buffer;

   bool bindings_truncated;
   uint32_t image_count;
   struct cuvk_mem_bound_image images[CUVK_MEM_MAX_BOUND_IMAGES];
   uint32_t buffer_count;
   struct cuvk_mem_bound_buffer buffers[CUVK_MEM_MAX_BOUND_BUFFERS];
};

/* Replaces owner's record with *rec (a bind or destroy after the export),
 * keeping its exported handles.  Does nothing when owner has never been
 * registered. */
void cuvk_mem_registry_update(const void *owner, const struct cuvk_mem_export_record *rec);

/* Drops owner's record and closes what was kept for its exported handles.
 * Unknown owners are ignored. */
void cuvk_mem_registry_forget_owner(const void *owner);

#ifndef _WIN32
/*
 * Registers fd, just returned by vkGetMemoryFdKHR as handle_type, as an
 * export of owner, whose record becomes a copy of *rec (replacing the one
 * it had).  The registry keeps a CLOEXEC dup of fd; the caller keeps fd.
 * Registering the same open file description again is harmless.  Returns
 * false, logging why, when fd cannot be identified or duplicated or memory
 * runs out; the record is then not findable through fd.
 */
bool cuvk_mem_registry_register_fd(int fd, VkExternalMemoryHandleTypeFlagBits handle_type,
                                   const void *owner,
                                   const struct cuvk_mem_export_record *rec);

/*
 * Finds the record of the export fd refers to and copies it to *out (with
 * exported_handle_type set).  Returns false when fd is not a registered
 * export (or is not an open fd).  Call it before giving fd to
 * vkAllocateMemory, which takes ownership of it.
 */
bool cuvk_mem_registry_lookup_fd(int fd, struct cuvk_mem_export_record *out);
#else
/*
 * The same for vkGetMemoryWin32HandleKHR (handle is a HANDLE).  NT handles
 * are identified by the kernel object they name (CompareObjectHandles
 * against a kept DuplicateHandle, closed when the owner is forgotten); KMT
 * handles, which are global names, by value.  Not built on this project's
 * Linux CI.
 */
bool cuvk_mem_registry_register_win32_handle(void *handle,
                                             VkExternalMemoryHandleTypeFlagBits handle_type,
                                             const void *owner,
                                             const struct cuvk_mem_export_record *rec);
bool cuvk_mem_registry_lookup_win32_handle(void *handle, struct cuvk_mem_export_record *out);
#endif

#endif
