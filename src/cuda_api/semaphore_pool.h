/*
 * Recycled VkSemaphores for native external semaphore imports.
 *
 * On NVIDIA's driver (580, measured on an H100 by a probe) creating a
 * timeline VkSemaphore costs about 244 us and destroying one 68 us, while
 * importing an fd into a semaphore that exists costs 100 us.  An
 * application that imports a semaphore per frame (FFmpeg's hwcontext
 * does) pays the creation every time; a cuDestroyExternalSemaphore
 * therefore gives its VkSemaphore back here once the GPU is done with it,
 * and the next import of the same kind replaces its payload
 * (vkImportSemaphoreFdKHR replaces whatever the semaphore held).
 */
#ifndef CUVK_CUDA_API_SEMAPHORE_POOL_H
#define CUVK_CUDA_API_SEMAPHORE_POOL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

/* Kept per kind; more are destroyed. */
#define CUVK_SEMAPHORE_POOL_SIZE 16u

struct cuvk_semaphore_pool {
   pthread_mutex_t lock;
   VkDevice device;
   /* [0] binary, [1] timeline */
   VkSemaphore free[2][CUVK_SEMAPHORE_POOL_SIZE];
   uint32_t count[2];
};

void cuvk_semaphore_pool_init(struct cuvk_semaphore_pool *pool, VkDevice device);

/* Destroys every semaphore kept. */
void cuvk_semaphore_pool_finish(struct cuvk_semaphore_pool *pool);

/* A semaphore of the kind: a kept one, else a new one.  Its payload is
 * whatever it last held: the caller imports over it. */
VkResult cuvk_semaphore_pool_get(struct cuvk_semaphore_pool *pool, bool timeline, VkSemaphore *out);

/* Takes back a semaphore no pending GPU work names any more. */
void cuvk_semaphore_pool_put(struct cuvk_semaphore_pool *pool, bool timeline, VkSemaphore semaphore);

#endif
