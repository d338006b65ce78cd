#include "mem/va_space.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"
#include "util/vma_heap.h"

/* Device addresses are host addresses inside the reservation, and a useful
 * reservation needs far more than a 32-bit address space. */
_Static_assert(sizeof(void *) == 8, "cuvk needs a 64-bit host address space");

static struct {
   /* Guards heap and the reservation itself. */
   pthread_mutex_t lock;
   struct cuvk_vma_heap heap;
   /* Written once, under lock, before ready is set; read without a lock
    * after ready is seen set. */
   uint64_t start;
   uint64_t size;
   atomic_bool ready;
} va = {
   .lock = PTHREAD_MUTEX_INITIALIZER,
};

static CUresult
va_reserve_locked(uint64_t wanted_size)
{
   uint64_t size = wanted_size ? wanted_size : CUVK_MEM_VA_DEFAULT_SIZE;
   uint64_t floor = CUVK_MIN(size, CUVK_MEM_VA_MIN_SIZE);
   uint64_t base, skip;
   void *map;

   for (;;) {
      map = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (map != MAP_FAILED)
         break;
      if (size / 2 < floor)
         return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY,
                           "cannot reserve even %#llx bytes of host address space for device addresses",
                           (unsigned long long)size);
      size /= 2;
   }
   base = (uint64_t)(uintptr_t)map;

   /* With vm.mmap_min_addr at 0 the kernel may hand out page 0; address 0
    * is the null CUdeviceptr, so that page stays out of the heap. */
   skip = base == 0 ? (uint64_t)sysconf(_SC_PAGESIZE) : 0;

   if (!cuvk_vma_heap_init(&va.heap, base + skip, size - skip)) {
      munmap(map, size);
      return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of memory setting up the device address space");
   }

   if (size < wanted_size)
      cuvk_logw("device address space is %#llx bytes, less than the %#llx wanted",
                (unsigned long long)size, (unsigned long long)wanted_size);
   cuvk_logi("device address space [%#llx, +%#llx)", (unsigned long long)base,
             (unsigned long long)size);

   va.start = base + skip;
   va.size = size - skip;
   atomic_store_explicit(&va.ready, true, memory_order_release);
   return CUDA_SUCCESS;
}

CUresult
cuvk_mem_va_init(uint64_t wanted_size)
{
   CUresult res = CUDA_SUCCESS;

   pthread_mutex_lock(&va.lock);
   if (!atomic_load_explicit(&va.ready, memory_order_relaxed))
      res = va_reserve_locked(wanted_size);
   pthread_mutex_unlock(&va.lock);
   return res;
}

bool
cuvk_mem_va_contains(uint64_t addr)
{
   if (!atomic_load_explicit(&va.ready, memory_order_acquire))
      return false;
   /* One unsigned compare: addresses below start wrap to huge offsets. */
   return addr - va.start < va.size;
}

void
cuvk_mem_va_get_bounds(uint64_t *start, uint64_t *size)
{
   if (atomic_load_explicit(&va.ready, memory_order_acquire)) {
      *start = va.start;
      *size = va.size;
   } else {
      *start = 0;
      *size = 0;
   }
}

CUresult
cuvk_mem_va_alloc(uint64_t size, uint64_t alignment, uint64_t hint, uint64_t *addr)
{
   CUresult res = CUDA_SUCCESS;
   uint64_t at;

   if (!addr)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "device address allocation: no output pointer");
   if (size == 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "device address allocation: size is 0");
   if (alignment == 0)
      alignment = 1;
   if (!CUVK_IS_POW2(alignment))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE,
                        "device address allocation: alignment %#llx is not a power of two",
                        (unsigned long long)alignment);

   pthread_mutex_lock(&va.lock);
   if (!atomic_load_explicit(&va.ready, memory_order_relaxed)) {
      res = va_reserve_locked(0);
      if (res != CUDA_SUCCESS)
         goto out;
   }

   if (hint != 0 && (hint & (alignment - 1)) == 0 &&
       cuvk_vma_heap_alloc_addr(&va.heap, hint, size)) {
      at = hint;
   } else if (!cuvk_vma_heap_alloc(&va.heap, size, alignment, &at)) {
      res = cuvk_error(CUDA_ERROR_OUT_OF_MEMORY,
                       "device address space exhausted: no %#llx bytes aligned to %#llx among %#llx free (largest hole %#llx)",
                       (unsigned long long)size, (unsigned long long)alignment,
                       (unsigned long long)cuvk_vma_heap_free_size(&va.heap),
                       (unsigned long long)cuvk_vma_heap_largest_free(&va.heap));
      goto out;
   }
   *addr = at;

out:
   pthread_mutex_unlock(&va.lock);
   return res;
}

void
cuvk_mem_va_free(uint64_t addr, uint64_t size)
{
   assert(cuvk_mem_va_contains(addr));

   pthread_mutex_lock(&va.lock);
   cuvk_vma_heap_free(&va.heap, addr, size);
   pthread_mutex_unlock(&va.lock);
}
