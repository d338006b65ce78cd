#include "semaphore_pool.h"

void
cuvk_semaphore_pool_init(struct cuvk_semaphore_pool *pool, VkDevice device)
{
   pthread_mutex_init(&pool->lock, NULL);
   pool->device = device;
   pool->count[0] = pool->count[1] = 0;
}

void
cuvk_semaphore_pool_finish(struct cuvk_semaphore_pool *pool)
{
   for (unsigned kind = 0; kind < 2; kind++) {
      for (uint32_t i = 0; i < pool->count[kind]; i++)
         vkDestroySemaphore(pool->device, pool->free[kind][i], NULL);
      pool->count[kind] = 0;
   }
   pthread_mutex_destroy(&pool->lock);
}

VkResult
cuvk_semaphore_pool_get(struct cuvk_semaphore_pool *pool, bool timeline, VkSemaphore *out)
{
   pthread_mutex_lock(&pool->lock);
   if (pool->count[timeline]) {
      *out = pool->free[timeline][--pool->count[timeline]];
      pthread_mutex_unlock(&pool->lock);
      return VK_SUCCESS;
   }
   pthread_mutex_unlock(&pool->lock);

   VkSemaphoreTypeCreateInfo type_info = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
      .semaphoreType = timeline ? VK_SEMAPHORE_TYPE_TIMELINE : VK_SEMAPHORE_TYPE_BINARY,
   };
   VkSemaphoreCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
      .pNext = &type_info,
   };
   return vkCreateSemaphore(pool->device, &info, NULL, out);
}

void
cuvk_semaphore_pool_put(struct cuvk_semaphore_pool *pool, bool timeline, VkSemaphore semaphore)
{
   pthread_mutex_lock(&pool->lock);
   if (pool->count[timeline] < CUVK_SEMAPHORE_POOL_SIZE) {
      pool->free[timeline][pool->count[timeline]++] = semaphore;
      semaphore = VK_NULL_HANDLE;
   }
   pthread_mutex_unlock(&pool->lock);
   if (semaphore)
      vkDestroySemaphore(pool->device, semaphore, NULL);
}
