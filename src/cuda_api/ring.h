/*
 * The resident command ring: small synchronous fills and copies without
 * a vkQueueSubmit (docs/design.md, "A resident command ring").
 *
 * One dispatch of shaders/ring.comp stays on a queue and polls a command
 * in memory that is device-local and host-visible; the host writes a
 * command there and spins until the dispatch writes back its sequence
 * number.  On NVIDIA's driver that round trip takes a few microseconds
 * where a submission and its wait take some fourteen.
 *
 * The ring takes an operation only when the context is idle (transfer.c's
 * host_op_begin: nothing recorded is outstanding on any lane, no host op
 * or held wait is queued) and finishes it before the call returns, as the
 * host path does: then nothing in flight needs ordering against it and
 * nothing submitted later can start before it is done, so it needs no
 * place in any stream's order.  Only device memory is a target: in host
 * memory the GPU's caches would hide the host's stores from the shader.
 *
 * Only where CUVK_RING=1 asks (util/device_policy.h): while the dispatch
 * is on its queue, NVIDIA's driver runs no other VkDevice's work.
 *
 * The dispatch is submitted by the first operation that wants it and
 * leaves its queue after an idle spell (a worker thread posts the exit),
 * so an idle process holds no GPU core.  Where the ring shares lane 0's
 * queue (CUVK_RING=1 on a device with one queue), every submission to
 * that queue stops it first.
 *
 * Locking: cuvk_ring_run is called with the context lock held; the ring
 * has its own lock, below the context's and the queue's.
 */
#ifndef CUVK_API_RING_H
#define CUVK_API_RING_H

#include <stdbool.h>
#include <stdint.h>
#include <cuda.h>
#include <vulkan/vulkan.h>

struct cuvk_context;
struct cuvk_ring;

/* Makes ctx->ring where ctx->lane_plan placed one (NULL otherwise), after
 * cuvk_submit_init; its command lives in cuvk_policy_ring_memory_type's
 * memory, which the plan's placing it implies.  Failing to make it is not an error: the context
 * runs without, and the log says why. */
void cuvk_ring_init(struct cuvk_context *ctx);

/* Stops the ring, ends its worker and frees it; before the context waits
 * for its device to go idle, which it never would with the ring on it. */
void cuvk_ring_finish(struct cuvk_context *ctx);

/* Takes the ring off its queue and waits until it has left.  Safe to call
 * on a stopped ring. */
void cuvk_ring_stop(struct cuvk_ring *ring);

/* Whether ctx's ring would take a fill (src 0) or a copy of size bytes
 * between these device addresses: 4-byte aligned, not past the ring's
 * size limit, a copy's two ranges apart. */
bool cuvk_ring_takes(const struct cuvk_context *ctx, VkDeviceAddress dst, VkDeviceAddress src,
                     uint64_t size);

/* Runs the fill (src 0, the pattern of 4 bytes) or copy on the ring and
 * waits for it.  Context lock held and the context idle (see above).
 * False when the ring could not take it (never started, or left its
 * queue without doing it): nothing was written, and the caller records
 * the operation instead.  A ring that failed once is not used again. */
bool cuvk_ring_run(struct cuvk_context *ctx, VkDeviceAddress dst, VkDeviceAddress src, uint64_t size,
                   uint32_t pattern);

#endif
