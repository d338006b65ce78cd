/*
 * What the external_semaphore.* application flows share
 * (interop_semaphore.c: buffers, the host, a child process;
 * interop_semaphore_image.c: image levels and FFmpeg's frame transfers).
 *
 * struct stest is the exporting Vulkan application with cuvk beside it:
 * one exported DATA_SIZE buffer that CUDA has imported and mapped at
 * dptr, host-visible staging and readback buffers, one command buffer and
 * one fence.
 */
#ifndef CUVK_TESTS_INTEROP_SEMAPHORE_H
#define CUVK_TESTS_INTEROP_SEMAPHORE_H

#include <stdbool.h>
#include <stdint.h>

#include "interop_harness.h"

#define DATA_SIZE (16u << 20)
/* Fills before the last write: enough that, on lavapipe under the
 * validation layer, the producer runs for tens of milliseconds. */
#define PRODUCER_FILLS 8
#define ONE_SECOND_NS 1000000000ull

struct stest {
   struct itest it;
   PFN_vkGetSemaphoreFdKHR GetSemaphoreFdKHR;
   VkCommandBuffer cmd;
   VkFence fence;
   /* The exported memory, imported by CUDA. */
   struct itest_export mem;
   CUexternalMemory ext_mem;
   CUdeviceptr dptr;
   /* A host-visible buffer, not exported, that Vulkan copies into. */
   VkBuffer readback;
   VkDeviceMemory readback_mem;
   /* Pattern in a host-visible staging buffer, the producer's last write. */
   VkBuffer staging;
   VkDeviceMemory staging_mem;
   /* ITEST_OMIT_WAIT=1: consumers leave their waits out. */
   bool omit_wait;
};

#define S_CHECK(cond)                                                  \
   do {                                                               \
      if (!(cond))                                                    \
         ITEST_FAILF("%s", #cond);                                    \
   } while (0)

/* The application's Vulkan side of a semaphore: the support query, an
 * exportable binary or timeline semaphore, vkGetSemaphoreFdKHR. */
bool stest_semaphore_exportable(struct stest *s, bool timeline);
VkSemaphore stest_semaphore_create(struct stest *s, bool timeline);
int stest_semaphore_export(struct stest *s, VkSemaphore sem);
/* cuImportExternalSemaphore of fd, which it owns on success (closed on
 * failure). */
CUexternalSemaphore stest_semaphore_import(int fd, bool timeline);
/* An exportable semaphore and cuvk's import of it. */
bool stest_semaphore_share(struct stest *s, bool timeline, VkSemaphore *vk, CUexternalSemaphore *cu);

/* One semaphore of a submit: the value is a timeline's, ignored for a
 * binary semaphore. */
struct stest_sem_op {
   VkSemaphore sem;
   uint64_t value;
};
/* vkQueueSubmit of one batch: cmd (none when VK_NULL_HANDLE), its waits
 * (at the transfer stage) and signals, and fence (may be null). */
bool stest_submit_batch(struct stest *s, VkCommandBuffer cmd, const struct stest_sem_op *waits,
                        uint32_t wait_count, const struct stest_sem_op *signals,
                        uint32_t signal_count, VkFence fence);

/* A command buffer from the case's pool (which may reset it), freed with
 * the pool; stest_cmd_start resets and begins one, stest_cmd_begin
 * s->cmd. */
VkCommandBuffer stest_cmd_alloc(struct stest *s);
VkCommandBuffer stest_cmd_start(VkCommandBuffer cmd);
VkCommandBuffer stest_cmd_begin(struct stest *s);
/* Transfer writes before later transfer reads and writes. */
void stest_transfer_barrier(VkCommandBuffer cmd);
/* Waits for s->fence and resets it. */
bool stest_fence_wait(struct stest *s);
/* PRODUCER_FILLS fills of the exported buffer, then the staging buffer
 * copied over it. */
void stest_record_vulkan_producer(struct stest *s, VkCommandBuffer cmd);
/* A host-visible DATA_SIZE buffer. */
VkBuffer stest_host_buffer(struct stest *s, VkDeviceMemory *mem);
/* PRODUCER_FILLS memsets of the mapped buffer on stream, then pattern
 * (pinned) copied over it. */
bool stest_cuda_producer(struct stest *s, const uint8_t *pattern, CUstream stream);

/* The cases of interop_semaphore_image.c. */
int stest_image_level(struct stest *s, bool timeline);
int stest_ffmpeg_nv12_to_cuda(struct stest *s, bool timeline);
int stest_ffmpeg_nv12_from_cuda(struct stest *s, bool timeline);
int stest_ffmpeg_p010_to_cuda(struct stest *s, bool timeline);
int stest_ffmpeg_p010_from_cuda(struct stest *s, bool timeline);
/* interop_semaphore_kernel.c: Vulkan, a CUDA kernel, Vulkan. */
int stest_kernel_between(struct stest *s, bool timeline);
int stest_ffmpeg_nv12_multiplanar_to_cuda(struct stest *s, bool timeline);
int stest_ffmpeg_nv12_multiplanar_from_cuda(struct stest *s, bool timeline);
int stest_ffmpeg_p010_multiplanar_to_cuda(struct stest *s, bool timeline);
int stest_ffmpeg_p010_multiplanar_from_cuda(struct stest *s, bool timeline);
int stest_ffmpeg_nv12_multiplanar_bad_mappings(struct stest *s, bool timeline);

#endif
