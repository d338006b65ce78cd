/*
 * The choices cuvk makes for a Vulkan physical device from its properties
 * and the environment alone: which memory types back device and pinned
 * host memory, which commands copies and fills use, and whether virtual
 * memory reservations get a sparse buffer.  cuvk-info links
 * this too, so what it reports is what cuvk does.
 */
#ifndef CUVK_UTIL_DEVICE_POLICY_H
#define CUVK_UTIL_DEVICE_POLICY_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

/* Device memory: a type the host can also map when it spans the largest
 * device-local heap (lavapipe's only type, a GPU's resizable BAR: small
 * transfers then skip the GPU), else the first device-local type;
 * CUVK_DEVICE_MEMORY=local rules out host-visible ones.  Pinned host
 * memory: host-visible and coherent, cached where possible.  UINT32_MAX
 * where there is none. */
void cuvk_policy_memory_types(const VkPhysicalDeviceMemoryProperties *mem, uint32_t *device_type,
                              uint32_t *host_type);

/* Whether copies between device addresses are vkCmdCopyBuffer rather than
 * cuvk's copy shader, and in *why what decided it.
 * CUVK_COPY_ENGINE=compute|transfer overrides. */
bool cuvk_policy_transfer_engine(VkPhysicalDeviceType type, const char **why);

/* Whether a fill's 4-aligned body is vkCmdFillBuffer rather than cuvk's
 * fill shader, and in *why what decided it.
 * CUVK_FILL_ENGINE=compute|transfer overrides. */
bool cuvk_policy_fill_transfer(VkPhysicalDeviceType type, const char **why);

/* Device allocations at least this large may get memory of their own
 * that differs from the device type (cuvk_policy_bulk_memory). */
#define CUVK_POLICY_BULK_MIN_SIZE (256ull << 20)

/* Whether device allocations of at least CUVK_POLICY_BULK_MIN_SIZE get
 * exportable (OPAQUE_FD) device-local memory, allocated without naming a
 * dedicated buffer, instead of the device memory type, and in *why what
 * decided it.  On NVIDIA's driver that memory fills 9% faster than the
 * device type and copies compressible data up to half again as fast,
 * while its allocations lose the host mapping of the device type.
 * CUVK_BULK_MEMORY=exportable|plain overrides. */
bool cuvk_policy_bulk_memory(VkDriverId driver, const char **why);

/* Whether a cuMemAddressReserve range may be backed by one sparse VkBuffer
 * on this device, its mappings bound into it with vkQueueBindSparse, so a
 * copy or fill across a seam is one command.  Needs sparseBinding and
 * sparseResidencyBuffer and a sparse-binding bit on the queue family cuvk
 * uses.  CUVK_VMM_SPARSE=0 turns it off.  *why says what decided it. */
bool cuvk_policy_sparse_reservations(VkPhysicalDevice pdev, uint32_t queue_family, const char **why);

/* Whether cuMemHostRegister may try to import read-only pages
 * (CU_MEMHOSTREGISTER_READ_ONLY), and in *why what decided it.  NVIDIA's
 * driver refuses them, and worse, a refused import leaves the rest of
 * that host mapping unimportable for the process (measured on an H100,
 * driver 580.159: after it, a writable 2-page registration of the same
 * mapping failed with VK_ERROR_OUT_OF_DEVICE_MEMORY while fresh mappings
 * still imported), so cuvk does not ask there. */
bool cuvk_policy_read_only_host_import(VkDriverId driver, const char **why);

/* Whether an opaque fd that tells no size (no record of its export, not a
 * memfd) may have its size found by trial imports (src/mem/import_size.h),
 * and in *why what decided it.  Only where a driver was measured to refuse
 * every size above the allocation's: NVIDIA's (H100, driver 580.159.04). */
bool cuvk_policy_import_size_probe(VkDriverId driver, const char **why);

/* Whether contexts enable samplerAnisotropy where the device has it, and
 * in *why what decided it.  Not on Mesa's llvmpipe (lavapipe 22.3 with
 * LLVM 15): compiling a kernel while an anisotropic sampler is bound
 * crashes in LLVM (ConstantVector::get, texture.kernel.anisotropy). */
bool cuvk_policy_sampler_anisotropy(VkDriverId driver, const char **why);

/* Whether native timeline semaphores are signalled by the host when the
 * context has nothing outstanding, and waited for by the host until the
 * context records more (src/cuda_api/external_semaphore_held.c), and in
 * *why what decided it.  CUVK_HOST_SEMAPHORE_OPS=0 sends every signal and
 * wait through the queue. */
bool cuvk_policy_host_semaphore_ops(const char **why);

/* How a copy between pageable host memory and memory of the GPU moves.
 * CUVK_PAGEABLE_PATH=staged|import overrides; unset (or auto) is
 * CUVK_PAGEABLE_AUTO. */
enum cuvk_pageable_path {
   /* Through the GPU memory's own mapping when it is cached host memory
    * (lavapipe), else through the staging ring. */
   CUVK_PAGEABLE_AUTO,
   /* Always through the staging ring (for measuring it on lavapipe, and
    * its tests). */
   CUVK_PAGEABLE_STAGED,
   /* The caller's pages imported for the copy's duration with
    * VK_EXT_external_memory_host, and one GPU copy; staged where the
    * driver refuses them. */
   CUVK_PAGEABLE_IMPORT,
};

/* CUVK_PAGEABLE_PATH, and in *why what decided it. */
enum cuvk_pageable_path cuvk_policy_pageable_path(const char **why);

/* Most lanes a context has: CUVK_LANES's, the high-priority lane and
 * the transfer lanes. */
#define CUVK_MAX_LANES 12u
/* Most lanes CUVK_LANES asks for. */
#define CUVK_MAX_LANES_WANTED 8u
/* Lanes a context has by default on a device whose compute family offers
 * several queues: the legacy stream and the three streams of an interop
 * pipeline (upload, process, read back) each on a queue of their own.
 * More lanes buy nothing until a program runs more streams than that at
 * once, and each costs a timeline, a command pool and one more wait in
 * every legacy-stream submission. */
#define CUVK_DEFAULT_LANES 4u
/* Transfer lanes at most: two, so that an upload on one stream and a
 * download on another reach two copy engines (PCIe is full duplex). */
#define CUVK_MAX_TRANSFER_LANES 2u

/* How a context's lanes map onto queues, decided from the device before
 * the VkDevice exists (context.c creates the queues it names). */
struct cuvk_lane_plan {
   uint32_t lane_count;
   uint32_t queue_count;      /* every queue, of either family */
   uint32_t queue_family[CUVK_MAX_LANES];
   uint32_t queue_index[CUVK_MAX_LANES];  /* within its family */
   float queue_priority[CUVK_MAX_LANES];
   uint32_t lane_queue[CUVK_MAX_LANES];   /* each lane's queue */
   /* The lane streams of priority below 0 record on (UINT32_MAX: none,
    * they share the others'); it is never given out round robin. */
   uint32_t high_lane;
   /* Lanes for copies between pinned host memory and device memory:
    * transfer_lane_count of them from transfer_lane on (UINT32_MAX:
    * none), on the copy-engine family or, with CUVK_TRANSFER_LANES=
    * compute, on the compute family (what lavapipe can test). */
   uint32_t transfer_lane;
   uint32_t transfer_lane_count;
   const char *transfer_why;
   /* Lanes share queues: see struct cuvk_submit. */
   bool virtual_lanes;
   /* The resident command ring's queue (cuvk_policy_ring_queue;
    * UINT32_MAX: no ring), and whether lanes submit to it too. */
   uint32_t ring_queue;
   bool ring_shared;
};

/* Fills plan for a context on a device whose compute family (the one
 * cuvk uses) has family_queues queues and whose copy-engine family
 * transfer_family (UINT32_MAX: none) has transfer_queues:
 * - CUVK_LANES=N lanes (1 to CUVK_MAX_LANES_WANTED), else
 *   CUVK_DEFAULT_LANES where the family has several queues and 1 where
 *   it has one;
 * - a lane of its own, on a queue of higher priority, for streams of
 *   priority below 0 where the family has a queue to spare, or where
 *   lanes share queues anyway (CUVK_LANES on lavapipe, so the routing
 *   runs there);
 * - up to CUVK_MAX_TRANSFER_LANES transfer lanes on the copy-engine
 *   family where there is one; CUVK_TRANSFER_LANES=0 turns them off and
 *   =compute puts them on the compute family, sharing its queues where
 *   none is spare. */
void cuvk_policy_lanes(uint32_t family, uint32_t family_queues, uint32_t transfer_family,
                       uint32_t transfer_queues, struct cuvk_lane_plan *plan);

/* Whether a context gets a resident command ring, and in *why what
 * decided it: only when CUVK_RING=1 asks, on a device with memory both
 * device-local and host-visible (bar_memory), on a queue of its own where
 * one is spare and else sharing lane 0's (so lavapipe's one queue runs
 * the ring's code in the tests).  Never by default: on NVIDIA's driver
 * the resident dispatch keeps every other VkDevice's work off the GPU,
 * another process's or this one's (the application's own, in interop),
 * for as long as it stays (docs/design.md). */
bool cuvk_policy_ring(bool bar_memory, const char **why);

/* The memory type the ring's command lives in: device-local, host-visible
 * and coherent (bar_memory above is whether there is one); UINT32_MAX
 * where the device has none. */
uint32_t cuvk_policy_ring_memory_type(const VkPhysicalDeviceMemoryProperties *mem);

/* Places a context's ring in plan (after cuvk_policy_lanes): a queue of
 * family of its own where the family has one spare, else lane 0's queue,
 * which submissions then take it off first (cuda_api/ring.h). */
void cuvk_policy_ring_queue(struct cuvk_lane_plan *plan, uint32_t family, uint32_t family_queues);

/* The distinct queue families of plan's queues, at most two, in out;
 * returns their count.  Buffers the transfer lanes use are
 * VK_SHARING_MODE_CONCURRENT over them when there are two. */
uint32_t cuvk_policy_lane_families(const struct cuvk_lane_plan *plan, uint32_t out[2]);

/* Worker threads that translate a module's kernels and build their
 * pipelines ahead of their first launch (util/work_pool.h), and in *why
 * what decided it: the CPUs online less one (the launching thread builds
 * too), at most CUVK_POLICY_COMPILE_THREADS_MAX, since a driver's
 * compiler is CPU-bound and the cold start of a program with many
 * kernels is mostly that compiler.  CUVK_COMPILE_THREADS=N overrides;
 * 0 turns building ahead off. */
#define CUVK_POLICY_COMPILE_THREADS_MAX 16u
unsigned cuvk_policy_compile_threads(const char **why);

/* Whether those workers also make each kernel's pipeline for the launched
 * shape, and in *why what decided it.  Yes on GPUs, where the driver
 * compiles the kernel to machine code in vkCreateComputePipelines (most
 * of a cold start on NVIDIA).  No on CPU devices: lavapipe compiles a
 * compute shader's machine code at its first dispatch, on its queue's
 * thread, so a pipeline made ahead saves little there, and a pipeline
 * made on one thread and destroyed on another reaches lavapipe's queue
 * thread through a futex lock ThreadSanitizer cannot see (reported as a
 * race between lavapipe's own malloc and free).
 * CUVK_COMPILE_PIPELINES=0|1 overrides. */
bool cuvk_policy_pipelines_ahead(VkPhysicalDeviceType type, const char **why);

#endif
