/*
 * libFuzzer target: each input is a sequence of cuvk API calls with
 * hostile arguments (fuzz_ops.h says how bytes become calls).
 *
 * What it may find: crashes, sanitizer reports (ASan, UBSan), leaks
 * (LeakSanitizer, per input), hangs (libFuzzer's -timeout).  It checks no
 * return codes: bad arguments must give an error, and which one the
 * normal suites check.
 *
 * The harness keeps a table of every handle cuvk gave it, live and dead,
 * so that destroyed handles of each kind (contexts, streams, events,
 * external memory and semaphores, arrays, mipmapped arrays, VMM handles
 * and ranges, device pointers) come back as arguments; cuvk must recognise them
 * through its object table and refuse them.  Pointers cuvk never handed
 * out are out of scope, and so is host memory that is not there: the
 * host side of a copy is always inside memory the harness owns (or NULL),
 * since cuvk cannot know the size of a caller's host buffer.
 *
 * At the end of each input the harness destroys everything it created,
 * ignoring the results, so whatever LeakSanitizer reports is cuvk's.
 *
 * Nothing generated can legitimately block forever: every wait on an
 * external semaphore is on one whose exporting side the harness holds,
 * and the harness signals it there right before or after the call; host
 * functions sleep 25 ms at most; there are no stream memory operations;
 * and an event that was never recorded is complete.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "fuzz_ops.h"
#include "util/xsem.h"
#include "vk_harness.h"

/*
 * Every fault of issue 15 is fixed, and every call that reached one is
 * generated: overlapping copies (also a pinned or registered host buffer
 * named once by its device address and once by its host address),
 * device sizes above the heap.  cuMemHostRegister of memory that is not
 * there is not generated, only because the harness owns all host memory
 * it names.  Sizes between 1 MiB and the device's memory are left out
 * only because filling them makes an input slow.
 */

#define MAX_OPS 64
#define POOL 12

/* The largest device allocation the harness asks for on purpose; a copy
 * of more than DEV_INVALID bytes can never be valid on the device side. */
#define MAX_ALLOC (1u << 20)
/* Above every device range the harness can make valid, VMM reservations
 * (at most 8 granules of 2 MiB on lavapipe) included. */
#define DEV_INVALID ((uint64_t)64 << 20)
/* The harness's pageable host buffer: every host pointer of a copy lies
 * in it (or in live pinned memory), with the copy's bytes inside. */
#define HOST_SIZE (MAX_ALLOC * 2)

/* ---- input decoding -------------------------------------------------- */

struct fz {
   const uint8_t *p;
   size_t n;
};

static uint8_t
u8(struct fz *f)
{
   if (!f->n)
      return 0;
   f->n--;
   return *f->p++;
}

static uint16_t
u16(struct fz *f)
{
   uint16_t v = u8(f);
   return (uint16_t)(v | (uint16_t)u8(f) << 8);
}

static uint32_t
u32(struct fz *f)
{
   uint32_t v = u16(f);
   return v | (uint32_t)u16(f) << 16;
}

static const uint64_t huge_sizes[] = {
   UINT64_MAX, UINT64_MAX - 4095, (uint64_t)1 << 63, (uint64_t)1 << 44, (uint64_t)1 << 62,
   UINT64_MAX / 2 + 1,
};

/* A size around `natural` (an allocation's size, say): zero, one, exact,
 * off by one, small, odd, a power of two, huge, or random below it. */
static uint64_t
pick_size(struct fz *f, uint64_t natural)
{
   switch (u8(f) % 11) {
   case 0: return 0;
   case 1: return 1;
   case 2: return natural;
   case 3: return natural + 1;
   case 4: return natural ? natural - 1 : 0;
   case 5: return u8(f);
   case 6: return (uint64_t)u16(f) | 1;
   case 7: return (uint64_t)1 << (u8(f) % 21);
   case 8: return huge_sizes[u8(f) % (sizeof(huge_sizes) / sizeof(huge_sizes[0]))];
   case 9: return natural ? u32(f) % natural : 0;
   default: return (uint64_t)4 << (u8(f) % 12);
   }
}

/* A pinned host allocation's size: below MAX_ALLOC or huge; pinned
 * memory is not bounded by the device's heap everywhere. */
static uint64_t
pick_host_size(struct fz *f)
{
   uint64_t s = pick_size(f, 4096);
   if (s > MAX_ALLOC && s < ((uint64_t)1 << 44))
      s = MAX_ALLOC;
   return s;
}

/* cuDeviceTotalMem of the device. */
static uint64_t dev_total;

/* An allocation size: below MAX_ALLOC, or more than the device has
 * (which must fail), from just past its total to huge. */
static uint64_t
pick_alloc_size(struct fz *f)
{
   uint64_t s = pick_size(f, 4096);
   if (u8(f) % 16 == 0)
      s = dev_total + 1 + (uint64_t)u16(f) * 4096 * 1024;
   if (s > MAX_ALLOC && s <= dev_total)
      s = MAX_ALLOC;
   return s;
}

/* ---- the handle table ------------------------------------------------ */

enum dptr_kind {
   DPTR_ALLOC,     /* cuMemAlloc, cuMemAllocPitch: cuMemFree */
   DPTR_EXT,       /* cuExternalMemoryGetMappedBuffer: cuMemFree */
   DPTR_RESERVED,  /* cuMemAddressReserve: cuMemAddressFree */
   DPTR_HOST,      /* device pointer of pinned or registered memory */
};

struct slot {
   uint64_t h;
   uint64_t size;
   uint64_t aux;  /* context index, or owner */
   int kind;
   bool live;
};

struct pool {
   struct slot s[POOL];
   unsigned n;
};

enum {
   P_CTX,       /* created contexts (the primary is apart) */
   P_STREAM,
   P_EVENT,
   P_DPTR,
   P_PINNED,
   P_REG,       /* registrations: h = host pointer */
   P_EXT,
   P_ARRAY,     /* kind 1: a level of a mipmapped array (not destroyed) */
   P_MIPMAP,
   P_VMM,       /* CUmemGenericAllocationHandle */
   P_MAPPING,   /* cuMemMap ranges: h = address */
   P_FD,        /* fds the harness holds (closed at the end) */
   P_SEM,       /* imported semaphores: kind = timeline, aux = exporter id */
   P_SEMSRC,    /* the harness's exporters: kind = enum semsrc_kind, aux =
                 * id, size = highest value known signalled or enqueued */
   P_COUNT
};

struct state {
   struct pool pool[P_COUNT];
   CUdevice dev;
   CUcontext primary;
   int primary_retains;  /* beyond the harness's own one */
   int pushes;
   /* Calls that create a VkDevice (a context, the primary's return after
    * a release or reset) take a third of a second on lavapipe, a hundred
    * times any other input; one per input keeps the fuzzer fast. */
   int devices;
};

static struct state S;

static void hf_quiesce(void);

static uint8_t *host_buf;
static bool ready;

/* The exporter: Vulkan memory exported as OPAQUE_FD, whose fds the
 * inputs import.  With VK_LAYER_CUVK_interop in VK_INSTANCE_LAYERS the
 * layer records each export, as in the interop suite's layer_on runs. */
static struct vkh vk;
static bool have_vk;
static VkDeviceMemory exp_buffer_mem, exp_image_mem;
static VkBuffer exp_buffer;
static VkImage exp_image;
static VkDeviceSize exp_buffer_size, exp_image_size;

/* Some handle of the pool, live or dead, or 0: a dead one is what makes
 * the call hostile. */
static struct slot *
pick(struct fz *f, int p)
{
   struct pool *pl = &S.pool[p];
   unsigned i = u8(f) % (pl->n + 1);
   return i < pl->n ? &pl->s[i] : NULL;
}

static struct slot *
pick_live(struct fz *f, int p)
{
   struct pool *pl = &S.pool[p];
   unsigned live = 0;
   for (unsigned i = 0; i < pl->n; i++)
      live += pl->s[i].live;
   if (!live)
      return NULL;
   unsigned k = u8(f) % live;
   for (unsigned i = 0; i < pl->n; i++)
      if (pl->s[i].live && k-- == 0)
         return &pl->s[i];
   return NULL;
}

static bool
pool_has_room(int p)
{
   struct pool *pl = &S.pool[p];
   if (pl->n < POOL)
      return true;
   for (unsigned i = 0; i < pl->n; i++)
      if (!pl->s[i].live)
         return true;
   return false;
}

/* Enters a new live handle.  A dead entry with the same value now names
 * the new object (cuvk reused the memory), so it is dropped. */
static struct slot *
pool_add(int p, uint64_t h, uint64_t size, int kind, uint64_t aux)
{
   struct pool *pl = &S.pool[p];
   for (unsigned i = 0; i < pl->n; i++)
      if (!pl->s[i].live && pl->s[i].h == h)
         pl->s[i] = pl->s[--pl->n];
   struct slot *s = NULL;
   if (pl->n < POOL) {
      s = &pl->s[pl->n++];
   } else {
      for (unsigned i = 0; i < pl->n && !s; i++)
         if (!pl->s[i].live)
            s = &pl->s[i];
   }
   if (!s)
      abort(); /* callers check pool_has_room first */
   *s = (struct slot){ .h = h, .size = size, .kind = kind, .aux = aux, .live = true };
   return s;
}

static void
pool_remove_value(int p, uint64_t h)
{
   struct pool *pl = &S.pool[p];
   for (unsigned i = 0; i < pl->n;)
      if (pl->s[i].h == h)
         pl->s[i] = pl->s[--pl->n];
      else
         i++;
}

static void
kill_value(int p, uint64_t h)
{
   struct pool *pl = &S.pool[p];
   for (unsigned i = 0; i < pl->n; i++)
      if (pl->s[i].live && pl->s[i].h == h)
         pl->s[i].live = false;
}

/* A context went away (destroyed, reset or released): pinned memory it
 * held may be freed with it.  The harness no longer uses such memory as a
 * host buffer (that would be its own use-after-free), nor its device
 * pointers; it still frees it at the end, which cuvk must refuse quietly
 * if the memory is gone. */
static void
contexts_changed(void)
{
   struct pool *pl = &S.pool[P_PINNED];
   for (unsigned i = 0; i < pl->n; i++)
      pl->s[i].kind = 1;
   pl = &S.pool[P_DPTR];
   for (unsigned i = 0; i < pl->n;)
      if (pl->s[i].kind == DPTR_HOST)
         pl->s[i] = pl->s[--pl->n];
      else
         i++;
}

/* ---- argument choices ------------------------------------------------ */

static CUcontext
pick_ctx(struct fz *f)
{
   uint8_t b = u8(f);
   if (b % 4 == 0)
      return S.primary;
   if (b % 4 == 1)
      return NULL;
   struct slot *s = pick(f, P_CTX);
   return s ? (CUcontext)(uintptr_t)s->h : S.primary;
}

static CUstream
pick_stream(struct fz *f)
{
   switch (u8(f) % 5) {
   case 0: return NULL;
   case 1: return CU_STREAM_LEGACY;
   case 2: return CU_STREAM_PER_THREAD;
   default: {
      struct slot *s = pick(f, P_STREAM);
      return s ? (CUstream)(uintptr_t)s->h : NULL;
   }
   }
}

static CUevent
pick_event(struct fz *f)
{
   struct slot *s = pick(f, P_EVENT);
   return s ? (CUevent)(uintptr_t)s->h : NULL;
}

/* A device pointer: an allocation's base, interior, end or past it, of
 * a live or freed allocation, or 0.  *avail is how many bytes follow it
 * in the allocation (0 when dead or outside). */
static CUdeviceptr
pick_dptr(struct fz *f, uint64_t *avail)
{
   struct slot *s = pick(f, P_DPTR);
   *avail = 0;
   if (!s)
      return 0;
   uint64_t off;
   switch (u8(f) % 6) {
   case 0: case 1: off = 0; break;
   case 2: off = s->size ? u32(f) % s->size : 0; break;
   case 3: off = s->size; break;
   case 4: off = s->size + 1 + u8(f); break;
   default: off = (uint64_t)u8(f) * 4; break;
   }
   if (s->live && off <= s->size)
      *avail = s->size - off;
   return s->h + off;
}

/* A host pointer the harness owns, with *avail bytes after it, or NULL. */
static void *
pick_host(struct fz *f, uint64_t *avail)
{
   uint8_t b = u8(f);
   if (b % 8 == 0) {
      *avail = 0;
      return NULL;
   }
   if (b % 8 == 1) {
      struct slot *s = pick_live(f, P_PINNED);
      if (s && s->kind == 0) {
         uint64_t off = s->size ? u16(f) % s->size : 0;
         *avail = s->size - off;
         return (uint8_t *)(uintptr_t)s->h + off;
      }
   }
   uint64_t off = (b % 8 == 2) ? 0 : u32(f) % HOST_SIZE;
   *avail = HOST_SIZE - off;
   return host_buf + off;
}

/* The host side of a transfer of n bytes: a pointer that has them, or
 * NULL when it has not (which cuvk must refuse).  A transfer too large
 * for any device range keeps its pointer: cuvk must refuse the device
 * side before it touches the host. */
static void *
host_for(void *p, uint64_t avail, uint64_t n)
{
   if (n <= avail || n > DEV_INVALID)
      return p;
   return NULL;
}


/* ---- fds -------------------------------------------------------------- */

static int
hold_fd(int fd)
{
   if (fd >= 0) {
      if (!pool_has_room(P_FD)) {
         close(fd);
         return -1;
      }
      pool_add(P_FD, (uint64_t)fd, 0, 0, 0);
   }
   return fd;
}

static void
release_fd(int fd)
{
   /* cuvk took it (a successful import): no longer the harness's. */
   pool_remove_value(P_FD, (uint64_t)fd);
}

/* An fd for an import: real exports and every kind of wrong one. */
static int
pick_fd(struct fz *f, int *is_image)
{
   *is_image = 0;
   switch (u8(f) % 10) {
   case 0: case 1: case 2:
      return have_vk ? hold_fd(vkh_get_memory_fd(&vk, exp_buffer_mem, VKH_OPAQUE_FD)) : -1;
   case 3: case 4:
      *is_image = 1;
      return have_vk ? hold_fd(vkh_get_memory_fd(&vk, exp_image_mem, VKH_OPAQUE_FD)) : -1;
   case 5: return -1;
   case 6: {
      /* A number that was an fd a moment ago. */
      int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
      if (fd >= 0)
         close(fd);
      return fd;
   }
   case 7: {
      int p[2];
      if (pipe2(p, O_CLOEXEC) != 0)
         return -1;
      hold_fd(p[1]);
      return hold_fd(p[0]);
   }
   case 8: return hold_fd(open("/dev/null", O_RDWR | O_CLOEXEC));
   default: {
      /* A regular file, empty or of a few pages. */
      FILE *t = tmpfile();
      if (!t)
         return -1;
      int fd = hold_fd(fcntl(fileno(t), F_DUPFD_CLOEXEC, 0));
      fclose(t);
      if (fd >= 0 && u8(f) & 1)
         (void)!ftruncate(fd, 16384);
      return fd;
   }
   }
}

/* ---- formats and descriptors ----------------------------------------- */

static const CUarray_format formats[] = {
   CU_AD_FORMAT_UNSIGNED_INT8, CU_AD_FORMAT_UNSIGNED_INT16, CU_AD_FORMAT_UNSIGNED_INT32,
   CU_AD_FORMAT_SIGNED_INT8, CU_AD_FORMAT_HALF, CU_AD_FORMAT_FLOAT,
   CU_AD_FORMAT_UNORM_INT_101010_2, CU_AD_FORMAT_BC1_UNORM, CU_AD_FORMAT_BC7_UNORM,
   CU_AD_FORMAT_NV12, CU_AD_FORMAT_P010, CU_AD_FORMAT_UNORM_INT8X4, CU_AD_FORMAT_SNORM_INT16X2,
   (CUarray_format)0, (CUarray_format)7, (CUarray_format)0x7fffffff,
};

static size_t
pick_dim(struct fz *f)
{
   static const size_t dims[] = { 0, 1, 2, 3, 7, 16, 33, 64, 100, 255, 16384, 65536, 1u << 20, SIZE_MAX };
   uint8_t b = u8(f);
   if (b & 0x80)
      return 1 + b % 40;
   return dims[b % (sizeof(dims) / sizeof(dims[0]))];
}

static void
pick_array3d(struct fz *f, CUDA_ARRAY3D_DESCRIPTOR *d)
{
   d->Width = pick_dim(f);
   d->Height = pick_dim(f);
   d->Depth = u8(f) & 1 ? pick_dim(f) : 0;
   d->Format = formats[u8(f) % (sizeof(formats) / sizeof(formats[0]))];
   d->NumChannels = u8(f) % 6;
   static const unsigned flags[] = { 0, 0, CUDA_ARRAY3D_SURFACE_LDST, CUDA_ARRAY3D_LAYERED,
                                     CUDA_ARRAY3D_CUBEMAP, CUDA_ARRAY3D_SPARSE,
                                     CUDA_ARRAY3D_DEFERRED_MAPPING, 0x80000000u };
   d->Flags = flags[u8(f) % 8];
}

/* Descriptors whose images would not fit the host: libFuzzer's malloc
 * limit would report lavapipe's allocation rather than cuvk's missing
 * check.  A dimension over the device's limit is kept (cuvk must refuse
 * it); a product of allowed ones that is too large is not generated. */
static bool
array_too_big(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
   uint64_t w = d->Width ? d->Width : 1, h = d->Height ? d->Height : 1;
   uint64_t z = d->Depth ? d->Depth : 1;
   if (w > 16384 || h > 16384 || z > 16384)
      return false;
   return w * h * z * 16 > (64u << 20);
}

/* ---- operations ------------------------------------------------------- */

static void
op_ctx(struct fz *f, int op)
{
   CUcontext c = NULL;
   switch (op) {
   case FZ_CTX_CREATE: {
      /* A context is a VkDevice: few of them. */
      if (S.pool[P_CTX].n >= 3 && !pool_has_room(P_CTX))
         return;
      if (S.devices++)
         return;
      static const unsigned flags[] = { 0, CU_CTX_SCHED_SPIN, CU_CTX_SCHED_YIELD, 0x8, 0x40, 0xffffffffu };
      unsigned fl = flags[u8(f) % 6];
      CUdevice dev = u8(f) % 8 == 0 ? 7 : S.dev;
      if (cuCtxCreate(&c, NULL, fl, dev) == CUDA_SUCCESS)
         pool_add(P_CTX, (uintptr_t)c, 0, 0, 0);
      /* cuCtxCreate makes the new context current: as often as not, go
       * back, so the primary sees the most calls. */
      if (u8(f) & 1)
         cuCtxSetCurrent(S.primary);
      break;
   }
   case FZ_CTX_DESTROY: {
      hf_quiesce();
      uint8_t b = u8(f);
      struct slot *s = pick(f, P_CTX);
      c = b % 8 == 0 ? S.primary : s ? (CUcontext)(uintptr_t)s->h : NULL;
      if (cuCtxDestroy(c) == CUDA_SUCCESS) {
         contexts_changed();
         if (s && c == (CUcontext)(uintptr_t)s->h)
            s->live = false;
      }
      break;
   }
   case FZ_CTX_SET_CURRENT:
      cuCtxSetCurrent(pick_ctx(f));
      break;
   case FZ_CTX_PUSH:
      if (S.pushes < 8 && cuCtxPushCurrent(pick_ctx(f)) == CUDA_SUCCESS)
         S.pushes++;
      break;
   case FZ_CTX_POP:
      if (cuCtxPopCurrent(u8(f) & 1 ? &c : NULL) == CUDA_SUCCESS && S.pushes > 0)
         S.pushes--;
      break;
   case FZ_CTX_QUERY: {
      unsigned flags;
      int lo, hi;
      CUdevice d;
      switch (u8(f) % 6) {
      case 0: cuCtxGetCurrent(&c); break;
      case 1: cuCtxGetDevice(u8(f) & 1 ? &d : NULL); break;
      case 2: cuCtxGetFlags(u8(f) & 1 ? &flags : NULL); break;
      case 3: cuCtxSynchronize(); break;
      case 4: cuCtxGetStreamPriorityRange(u8(f) & 1 ? &lo : NULL, u8(f) & 1 ? &hi : NULL); break;
      default: cuCtxGetCurrent(NULL); break;
      }
      break;
   }
   }
}

static void
op_primary(struct fz *f)
{
   unsigned flags;
   int active;
   CUcontext c;
   CUdevice dev = u8(f) % 8 == 0 ? -1 : S.dev;
   switch (u8(f) % 6) {
   case 0:
      if (S.primary_retains < 4 && cuDevicePrimaryCtxRetain(&c, dev) == CUDA_SUCCESS) {
         S.primary_retains++;
         S.primary = c;
      }
      break;
   case 1:
      /* Releasing the harness's own reference too is allowed: the
       * primary then goes inactive, and the end of the input retains it
       * again. */
      if (S.devices++)
         return;
      hf_quiesce();
      if (cuDevicePrimaryCtxRelease(dev) == CUDA_SUCCESS) {
         S.primary_retains--;
         contexts_changed();
      }
      break;
   case 2:
      if (S.devices++)
         return;
      hf_quiesce();
      if (cuDevicePrimaryCtxReset(dev) == CUDA_SUCCESS) {
         /* cuvk drops every reference, the harness's own too. */
         S.primary_retains = -1;
         contexts_changed();
      }
      break;
   case 3:
      cuDevicePrimaryCtxSetFlags(dev, u8(f) & 1 ? 0 : u32(f));
      break;
   case 4:
      cuDevicePrimaryCtxGetState(dev, u8(f) & 1 ? &flags : NULL, u8(f) & 1 ? &active : NULL);
      break;
   default:
      cuDevicePrimaryCtxRetain(NULL, dev);
      break;
   }
}

static void
op_mem(struct fz *f, int op)
{
   CUdeviceptr d = 0;
   uint64_t avail;
   switch (op) {
   case FZ_MEM_ALLOC: {
      if (!pool_has_room(P_DPTR))
         return;
      uint64_t size = pick_alloc_size(f);
      if (u8(f) % 16 == 0) {
         cuMemAlloc(NULL, size);
         return;
      }
      if (cuMemAlloc(&d, size) == CUDA_SUCCESS)
         pool_add(P_DPTR, d, size, DPTR_ALLOC, 0);
      break;
   }
   case FZ_MEM_ALLOC_PITCH: {
      if (!pool_has_room(P_DPTR))
         return;
      size_t pitch = 0;
      size_t w = pick_size(f, 256), h = pick_size(f, 16);
      unsigned elem = u8(f) % 20;
      uint64_t bytes;
      if (__builtin_mul_overflow((uint64_t)w, (uint64_t)h, &bytes))
         bytes = UINT64_MAX;
      /* Rows are padded to a pitch: keep the total under MAX_ALLOC by
       * a margin, or far beyond any heap. */
      if (bytes > MAX_ALLOC / 4 && bytes < ((uint64_t)1 << 44))
         return;
      if (cuMemAllocPitch(&d, u8(f) % 8 ? &pitch : NULL, w, h, elem) == CUDA_SUCCESS)
         pool_add(P_DPTR, d, (uint64_t)pitch * h, DPTR_ALLOC, 0);
      break;
   }
   case FZ_MEM_FREE: {
      d = pick_dptr(f, &avail);
      struct slot *s = NULL;
      for (unsigned i = 0; i < S.pool[P_DPTR].n; i++)
         if (S.pool[P_DPTR].s[i].h == d && S.pool[P_DPTR].s[i].live)
            s = &S.pool[P_DPTR].s[i];
      if (cuMemFree(d) == CUDA_SUCCESS && s && (s->kind == DPTR_ALLOC || s->kind == DPTR_EXT))
         s->live = false;
      break;
   }
   case FZ_MEM_QUERY: {
      uint8_t which = u8(f);
      d = pick_dptr(f, &avail);
      CUdeviceptr base;
      size_t size, fr, tot;
      uint64_t val[4];
      switch (which % 5) {
      case 0: cuMemGetAddressRange(u8(f) & 1 ? &base : NULL, u8(f) & 1 ? &size : NULL, d); break;
      case 1: cuMemGetInfo(u8(f) & 1 ? &fr : NULL, u8(f) & 1 ? &tot : NULL); break;
      case 2: cuPointerGetAttribute(u8(f) % 8 ? val : NULL, (CUpointer_attribute)(u8(f) % 24), d); break;
      case 3: {
         uint64_t ha;
         void *hp = pick_host(f, &ha);
         cuPointerGetAttribute(val, (CUpointer_attribute)(u8(f) % 24), (CUdeviceptr)(uintptr_t)hp);
         break;
      }
      default: {
         struct slot *s = pick(f, P_PINNED);
         if (s)
            cuPointerGetAttribute(val, (CUpointer_attribute)(u8(f) % 24), s->h);
         break;
      }
      }
      break;
   }
   }
}

static void
op_host(struct fz *f, int op)
{
   switch (op) {
   case FZ_HOST_ALLOC: {
      if (!pool_has_room(P_PINNED))
         return;
      uint8_t which = u8(f);
      uint64_t size = pick_host_size(f);
      unsigned flags = u8(f) % 4 == 0 ? u32(f) : u8(f) % 8;
      void *p = NULL;
      CUresult r;
      if (which % 2)
         r = cuMemAllocHost(which % 16 == 1 ? NULL : &p, size);
      else
         r = cuMemHostAlloc(which % 16 == 2 ? NULL : &p, size, flags);
      if (r == CUDA_SUCCESS && p)
         pool_add(P_PINNED, (uintptr_t)p, size, 0, 0);
      break;
   }
   case FZ_HOST_FREE: {
      uint8_t which = u8(f);
      struct slot *s = pick(f, P_PINNED);
      void *p = s ? (void *)(uintptr_t)s->h : NULL;
      switch (which % 4) {
      case 0: {
         unsigned flags;
         cuMemHostGetFlags(u8(f) & 1 ? &flags : NULL, p);
         break;
      }
      case 1: {
         CUdeviceptr d;
         unsigned flags = u8(f) % 4 == 0 ? 1 : 0;
         if (cuMemHostGetDevicePointer(&d, p, flags) == CUDA_SUCCESS && s && s->live && s->kind == 0 &&
             pool_has_room(P_DPTR))
            pool_add(P_DPTR, d, s->size, DPTR_HOST, s->h);
         break;
      }
      default:
         if (cuMemFreeHost(p) == CUDA_SUCCESS && s && s->live) {
            s->live = false;
            /* Its device pointer names freed host memory now: a copy
             * through it would read the harness's dangling pointer, so
             * it leaves the table. */
            for (unsigned i = 0; i < S.pool[P_DPTR].n;)
               if (S.pool[P_DPTR].s[i].kind == DPTR_HOST && S.pool[P_DPTR].s[i].aux == s->h)
                  S.pool[P_DPTR].s[i] = S.pool[P_DPTR].s[--S.pool[P_DPTR].n];
               else
                  i++;
         }
         break;
      }
      break;
   }
   case FZ_HOST_REGISTER: {
      if (!pool_has_room(P_REG))
         return;
      uint64_t off = u8(f) % 4 == 0 ? (uint64_t)(u8(f) % 8) * 4096 : u32(f) % HOST_SIZE;
      uint64_t size = pick_size(f, 4096);
      /* Fault 3 aside, the range stays inside the buffer the harness
       * owns; a range past it would be memory cuvk cannot know about. */
      if (size > HOST_SIZE - off && size <= DEV_INVALID * 4)
         size = HOST_SIZE - off;
      static const unsigned flags[] = { 0, CU_MEMHOSTREGISTER_PORTABLE, CU_MEMHOSTREGISTER_DEVICEMAP,
                                        CU_MEMHOSTREGISTER_IOMEMORY, CU_MEMHOSTREGISTER_READ_ONLY,
                                        0x10, 0xffffffffu, 0 };
      void *p = u8(f) % 16 == 0 ? NULL : host_buf + off;
      if (cuMemHostRegister(p, size, flags[u8(f) % 8]) == CUDA_SUCCESS && p) {
         pool_add(P_REG, (uintptr_t)p, size, 0, 0);
         CUdeviceptr d;
         if (pool_has_room(P_DPTR) && cuMemHostGetDevicePointer(&d, p, 0) == CUDA_SUCCESS)
            pool_add(P_DPTR, d, size, DPTR_HOST, (uintptr_t)p);
      }
      break;
   }
   case FZ_HOST_UNREGISTER: {
      struct slot *s = pick(f, P_REG);
      void *p = s ? (void *)(uintptr_t)s->h : (u8(f) & 1 ? host_buf : NULL);
      if (cuMemHostUnregister(p) == CUDA_SUCCESS && s) {
         s->live = false;
         for (unsigned i = 0; i < S.pool[P_DPTR].n;)
            if (S.pool[P_DPTR].s[i].kind == DPTR_HOST && S.pool[P_DPTR].s[i].aux == s->h)
               S.pool[P_DPTR].s[i] = S.pool[P_DPTR].s[--S.pool[P_DPTR].n];
            else
               i++;
      }
      break;
   }
   }
}

static CUarray
pick_array(struct fz *f)
{
   struct slot *s = pick(f, P_ARRAY);
   return s ? (CUarray)(uintptr_t)s->h : NULL;
}

static void
op_copy(struct fz *f)
{
   uint8_t kind = u8(f);
   CUstream st = pick_stream(f);
   bool async = kind & 0x80;
   uint64_t da, sa, ha;
   CUdeviceptr d, s;
   void *h;
   uint64_t n;

   switch (kind % 8) {
   case 0: /* HtoD */
      d = pick_dptr(f, &da);
      h = pick_host(f, &ha);
      n = pick_size(f, da);
      h = host_for(h, ha, n);
      if (async)
         cuMemcpyHtoDAsync(d, h, n, st);
      else
         cuMemcpyHtoD(d, h, n);
      break;
   case 1: /* DtoH */
      s = pick_dptr(f, &sa);
      h = pick_host(f, &ha);
      n = pick_size(f, sa);
      h = host_for(h, ha, n);
      if (async)
         cuMemcpyDtoHAsync(h, s, n, st);
      else
         cuMemcpyDtoH(h, s, n);
      break;
   case 2: /* DtoD */
      d = pick_dptr(f, &da);
      s = pick_dptr(f, &sa);
      n = pick_size(f, sa < da ? sa : da);
      if (async)
         cuMemcpyDtoDAsync(d, s, n, st);
      else
         cuMemcpyDtoD(d, s, n);
      break;
   case 3: { /* unified: any side device or host */
      bool dh = u8(f) & 1, sh = u8(f) & 1;
      if (dh)
         d = (uintptr_t)pick_host(f, &da);
      else
         d = pick_dptr(f, &da);
      if (sh)
         s = (uintptr_t)pick_host(f, &sa);
      else
         s = pick_dptr(f, &sa);
      n = pick_size(f, sa < da ? sa : da);
      if (dh)
         d = (uintptr_t)host_for((void *)(uintptr_t)d, da, n);
      if (sh)
         s = (uintptr_t)host_for((void *)(uintptr_t)s, sa, n);
      if (dh && sh && n > DEV_INVALID)
         return; /* two host sides: nothing for cuvk to refuse */
      if (async)
         cuMemcpyAsync(d, s, n, st);
      else
         cuMemcpy(d, s, n);
      break;
   }
   case 4: { /* HtoA, AtoH */
      CUarray a = pick_array(f);
      size_t off = pick_size(f, 256);
      h = pick_host(f, &ha);
      n = pick_size(f, 4096);
      h = host_for(h, ha, n);
      if (kind & 0x10) {
         if (async)
            cuMemcpyHtoAAsync(a, off, h, n, st);
         else
            cuMemcpyHtoA(a, off, h, n);
      } else {
         if (async)
            cuMemcpyAtoHAsync(h, a, off, n, st);
         else
            cuMemcpyAtoH(h, a, off, n);
      }
      break;
   }
   case 5: { /* DtoA, AtoD */
      CUarray a = pick_array(f);
      size_t off = pick_size(f, 256);
      d = pick_dptr(f, &da);
      n = pick_size(f, da);
      if (kind & 0x10)
         cuMemcpyDtoA(a, off, d, n);
      else
         cuMemcpyAtoD(d, a, off, n);
      break;
   }
   case 6: { /* AtoA */
      CUarray a = pick_array(f), b = pick_array(f);
      size_t ao = pick_size(f, 256), bo = pick_size(f, 256);
      n = pick_size(f, 4096);
      cuMemcpyAtoA(a, ao, b, bo, n);
      break;
   }
   default: { /* a pinned pointer as the device side of DtoD */
      struct slot *p = pick_live(f, P_PINNED);
      d = pick_dptr(f, &da);
      if (!p || p->kind != 0)
         return;
      n = pick_size(f, p->size);
      if (n > p->size && n <= DEV_INVALID)
         n = p->size;
      if (kind & 0x10)
         cuMemcpyDtoD(d, p->h, n);
      else
         cuMemcpyDtoD(p->h, d, n);
      break;
   }
   }
}

static void
op_memset(struct fz *f)
{
   uint8_t kind = u8(f);
   CUstream st = pick_stream(f);
   uint64_t da;
   CUdeviceptr d = pick_dptr(f, &da);
   uint32_t v = u32(f);
   if (kind % 2 == 0) {
      uint64_t n = pick_size(f, da);
      switch ((kind / 2) % 6) {
      case 0: cuMemsetD8(d, (unsigned char)v, n); break;
      case 1: cuMemsetD16(d, (unsigned short)v, n); break;
      case 2: cuMemsetD32(d, v, n); break;
      case 3: cuMemsetD8Async(d, (unsigned char)v, n, st); break;
      case 4: cuMemsetD16Async(d, (unsigned short)v, n, st); break;
      default: cuMemsetD32Async(d, v, n, st); break;
      }
   } else {
      size_t pitch = pick_size(f, 256), w = pick_size(f, 64), h = pick_size(f, 16);
      switch ((kind / 2) % 6) {
      case 0: cuMemsetD2D8(d, pitch, (unsigned char)v, w, h); break;
      case 1: cuMemsetD2D16(d, pitch, (unsigned short)v, w, h); break;
      case 2: cuMemsetD2D32(d, pitch, v, w, h); break;
      case 3: cuMemsetD2D8Async(d, pitch, (unsigned char)v, w, h, st); break;
      case 4: cuMemsetD2D16Async(d, pitch, (unsigned short)v, w, h, st); break;
      default: cuMemsetD2D32Async(d, pitch, v, w, h, st); break;
      }
   }
}

/* The bytes a pitched host region of this geometry spans; UINT64_MAX on
 * overflow. */
static uint64_t
host_span(uint64_t x, uint64_t y, uint64_t z, uint64_t pitch, uint64_t rows, uint64_t w,
          uint64_t h, uint64_t depth)
{
   if (!w || !h || !depth)
      return 0;
   uint64_t last_row, t, off;
   if (__builtin_add_overflow(z, depth - 1, &t) || __builtin_mul_overflow(t, rows, &t) ||
       __builtin_add_overflow(t, y + h - 1 < y ? UINT64_MAX : y + h - 1, &last_row) ||
       __builtin_mul_overflow(last_row, pitch, &off) || __builtin_add_overflow(off, x, &off) ||
       __builtin_add_overflow(off, w, &off))
      return UINT64_MAX;
   return off;
}

enum side { SIDE_HOST, SIDE_DEVICE, SIDE_ARRAY, SIDE_BAD };

static void
pick_side(struct fz *f, enum side *k, const void **host, uint64_t *havail, CUdeviceptr *dev,
          CUarray *arr, CUmemorytype *type)
{
   static const CUmemorytype types[] = { CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_ARRAY,
                                         CU_MEMORYTYPE_UNIFIED, (CUmemorytype)0, (CUmemorytype)9 };
   uint8_t b = u8(f) % 6;
   uint64_t da;
   *type = types[b];
   *host = NULL;
   *dev = 0;
   *arr = NULL;
   *havail = 0;
   switch (b) {
   case 0: *k = SIDE_HOST; *host = pick_host(f, havail); break;
   case 1: case 3: *k = SIDE_DEVICE; *dev = pick_dptr(f, &da); break;
   case 2: *k = SIDE_ARRAY; *arr = pick_array(f); break;
   default: *k = SIDE_BAD; break;
   }
}

static void
op_copy_2d3d(struct fz *f)
{
   uint8_t kind = u8(f);
   CUstream st = pick_stream(f);
   enum side sk, dk;
   const void *sh, *dh;
   uint64_t sha, dha;
   CUDA_MEMCPY3D c;
   memset(&c, 0, sizeof(c));
   pick_side(f, &sk, &sh, &sha, &c.srcDevice, &c.srcArray, &c.srcMemoryType);
   pick_side(f, &dk, &dh, &dha, &c.dstDevice, &c.dstArray, &c.dstMemoryType);
   c.srcXInBytes = pick_size(f, 16);
   c.srcY = pick_size(f, 4);
   c.srcPitch = pick_size(f, 256);
   c.dstXInBytes = pick_size(f, 16);
   c.dstY = pick_size(f, 4);
   c.dstPitch = pick_size(f, 256);
   c.WidthInBytes = pick_size(f, 64);
   c.Height = pick_size(f, 8);
   bool three = kind & 1;
   if (three) {
      c.srcZ = u8(f) % 4;
      c.dstZ = u8(f) % 4;
      c.srcHeight = pick_size(f, 8);
      c.dstHeight = pick_size(f, 8);
      c.Depth = pick_size(f, 2);
      c.srcLOD = u8(f) % 8 == 0;
      c.dstLOD = u8(f) % 8 == 0;
   } else {
      c.srcHeight = 1;
      c.dstHeight = 1;
      c.Depth = 1;
   }
   /* A host side that would not hold the copy is NULL (cuvk must refuse
    * it); one that is a unified (pinned) pointer counts as host too. */
   /* The span is over-estimated (a pitch below the width, or fewer rows
    * per slice than rows, count as the width and the rows), so that
    * however cuvk reads such a geometry it stays in the harness's buffer;
    * an over-estimate only makes the pointer NULL more often. */
#define FZ_MAX(a, b) ((a) > (b) ? (a) : (b))
   uint64_t span = host_span(c.srcXInBytes, c.srcY, c.srcZ, FZ_MAX(c.srcPitch, c.WidthInBytes),
                             three ? FZ_MAX(c.srcHeight, c.Height) : 1, c.WidthInBytes, c.Height, c.Depth);
   if (sk == SIDE_HOST && span > sha)
      sh = NULL;
   span = host_span(c.dstXInBytes, c.dstY, c.dstZ, FZ_MAX(c.dstPitch, c.WidthInBytes),
                    three ? FZ_MAX(c.dstHeight, c.Height) : 1, c.WidthInBytes, c.Height, c.Depth);
   if (dk == SIDE_HOST && span > dha)
      dh = NULL;
   c.srcHost = sh;
   c.dstHost = (void *)dh;
   if (three) {
      if (kind & 2)
         cuMemcpy3DAsync(u8(f) % 16 ? &c : NULL, st);
      else
         cuMemcpy3D(u8(f) % 16 ? &c : NULL);
   } else {
      CUDA_MEMCPY2D c2 = {
         .srcXInBytes = c.srcXInBytes, .srcY = c.srcY, .srcMemoryType = c.srcMemoryType,
         .srcHost = c.srcHost, .srcDevice = c.srcDevice, .srcArray = c.srcArray, .srcPitch = c.srcPitch,
         .dstXInBytes = c.dstXInBytes, .dstY = c.dstY, .dstMemoryType = c.dstMemoryType,
         .dstHost = c.dstHost, .dstDevice = c.dstDevice, .dstArray = c.dstArray, .dstPitch = c.dstPitch,
         .WidthInBytes = c.WidthInBytes, .Height = c.Height,
      };
      switch ((kind >> 1) % 3) {
      case 0: cuMemcpy2D(u8(f) % 16 ? &c2 : NULL); break;
      case 1: cuMemcpy2DUnaligned(&c2); break;
      default: cuMemcpy2DAsync(&c2, st); break;
      }
   }
}

static void
op_array(struct fz *f, int op)
{
   CUarray a = NULL;
   if (op == FZ_ARRAY_CREATE) {
      if (!pool_has_room(P_ARRAY))
         return;
      CUDA_ARRAY3D_DESCRIPTOR d;
      pick_array3d(f, &d);
      if (array_too_big(&d))
         return;
      CUresult r;
      if (u8(f) & 1) {
         CUDA_ARRAY_DESCRIPTOR d2 = { .Width = d.Width, .Height = d.Height, .Format = d.Format,
                                      .NumChannels = d.NumChannels };
         r = cuArrayCreate(u8(f) % 16 ? &a : NULL, u8(f) % 16 ? &d2 : NULL);
      } else {
         r = cuArray3DCreate(u8(f) % 16 ? &a : NULL, u8(f) % 16 ? &d : NULL);
      }
      if (r == CUDA_SUCCESS && a)
         pool_add(P_ARRAY, (uintptr_t)a, 0, 0, 0);
      return;
   }
   uint8_t which = u8(f);
   struct slot *s = pick(f, P_ARRAY);
   a = s ? (CUarray)(uintptr_t)s->h : NULL;
   CUDA_ARRAY_DESCRIPTOR d2;
   CUDA_ARRAY3D_DESCRIPTOR d3;
   switch (which % 3) {
   case 0: cuArrayGetDescriptor(u8(f) % 8 ? &d2 : NULL, a); break;
   case 1: cuArray3DGetDescriptor(u8(f) % 8 ? &d3 : NULL, a); break;
   default:
      /* Destroying a mipmapped array's level is hostile too: cuvk must
       * refuse it, the level belongs to its mipmapped array. */
      if (cuArrayDestroy(a) == CUDA_SUCCESS && s)
         s->live = false;
      break;
   }
}

static void
op_mipmap(struct fz *f, int op)
{
   CUmipmappedArray m = NULL;
   if (op == FZ_MIPMAP_CREATE) {
      if (!pool_has_room(P_MIPMAP))
         return;
      CUDA_ARRAY3D_DESCRIPTOR d;
      pick_array3d(f, &d);
      if (array_too_big(&d))
         return;
      unsigned levels = u8(f) % 21;
      if (cuMipmappedArrayCreate(u8(f) % 16 ? &m : NULL, u8(f) % 16 ? &d : NULL, levels) == CUDA_SUCCESS &&
          m)
         pool_add(P_MIPMAP, (uintptr_t)m, 0, 0, 0);
      return;
   }
   uint8_t which = u8(f);
   struct slot *s = pick(f, P_MIPMAP);
   m = s ? (CUmipmappedArray)(uintptr_t)s->h : NULL;
   if (which % 3 == 2) {
      if (cuMipmappedArrayDestroy(m) == CUDA_SUCCESS && s) {
         s->live = false;
         /* Its levels went with it. */
         for (unsigned i = 0; i < S.pool[P_ARRAY].n; i++)
            if (S.pool[P_ARRAY].s[i].kind == 1 && S.pool[P_ARRAY].s[i].aux == s->h)
               S.pool[P_ARRAY].s[i].live = false;
      }
      return;
   }
   CUarray level = NULL;
   unsigned l = u8(f) % 24;
   if (which % 3 == 1 && u8(f) % 8 == 0) {
      cuMipmappedArrayGetLevel(NULL, m, l);
      return;
   }
   if (cuMipmappedArrayGetLevel(&level, m, l) == CUDA_SUCCESS && level && s && pool_has_room(P_ARRAY))
      pool_add(P_ARRAY, (uintptr_t)level, 0, 1, s->h);
}

static void
op_stream(struct fz *f, int op)
{
   CUstream st = NULL;
   if (op == FZ_STREAM_CREATE) {
      if (!pool_has_room(P_STREAM))
         return;
      unsigned flags = u8(f) % 4 == 0 ? u32(f) : u8(f) % 2;
      CUresult r;
      if (u8(f) & 1)
         r = cuStreamCreate(u8(f) % 16 ? &st : NULL, flags);
      else
         r = cuStreamCreateWithPriority(&st, flags, (int)(int8_t)u8(f));
      if (r == CUDA_SUCCESS && st)
         pool_add(P_STREAM, (uintptr_t)st, 0, 0, 0);
      return;
   }
   uint8_t which = u8(f);
   struct slot *s = NULL;
   if (which & 0x80) {
      s = pick(f, P_STREAM);
      st = s ? (CUstream)(uintptr_t)s->h : NULL;
   } else {
      st = pick_stream(f);
   }
   unsigned flags;
   int prio;
   switch (which % 5) {
   case 0: cuStreamQuery(st); break;
   case 1: cuStreamSynchronize(st); break;
   case 2: cuStreamGetFlags(st, u8(f) % 8 ? &flags : NULL); break;
   case 3: cuStreamGetPriority(st, u8(f) % 8 ? &prio : NULL); break;
   default:
      if (cuStreamDestroy(st) == CUDA_SUCCESS)
         kill_value(P_STREAM, (uintptr_t)st);
      break;
   }
}

static void
op_event(struct fz *f, int op)
{
   CUevent e = NULL;
   if (op == FZ_EVENT_CREATE) {
      if (!pool_has_room(P_EVENT))
         return;
      static const unsigned flags[] = { 0, CU_EVENT_BLOCKING_SYNC, CU_EVENT_DISABLE_TIMING,
                                        CU_EVENT_INTERPROCESS, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING,
                                        0x80, 0xffffffffu, 0 };
      if (cuEventCreate(u8(f) % 16 ? &e : NULL, flags[u8(f) % 8]) == CUDA_SUCCESS && e)
         pool_add(P_EVENT, (uintptr_t)e, 0, 0, 0);
      return;
   }
   uint8_t which = u8(f);
   e = pick_event(f);
   float ms;
   switch (which % 6) {
   case 0: case 1: cuEventRecord(e, pick_stream(f)); break;
   case 2: cuEventQuery(e); break;
   case 3: cuEventSynchronize(e); break;
   case 4: cuEventElapsedTime(u8(f) % 8 ? &ms : NULL, e, pick_event(f)); break;
   default:
      if (cuEventDestroy(e) == CUDA_SUCCESS)
         kill_value(P_EVENT, (uintptr_t)e);
      break;
   }
}

static void
op_ext(struct fz *f, int op)
{
   switch (op) {
   case FZ_EXT_IMPORT: {
      if (!pool_has_room(P_EXT))
         return;
      int is_image;
      int fd = pick_fd(f, &is_image);
      CUDA_EXTERNAL_MEMORY_HANDLE_DESC d;
      memset(&d, 0, sizeof(d));
      static const CUexternalMemoryHandleType types[] = {
         CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD, CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD,
         CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD, CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD,
         CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32, (CUexternalMemoryHandleType)0,
         (CUexternalMemoryHandleType)8, (CUexternalMemoryHandleType)0x7fffffff,
      };
      d.type = types[u8(f) % 8];
      d.handle.fd = fd;
      uint64_t natural = is_image ? exp_image_size : exp_buffer_size;
      d.size = u8(f) % 3 ? natural : pick_size(f, natural);
      uint8_t fl = u8(f);
      d.flags = fl % 4 == 0 ? u32(f) : (is_image ? CUDA_EXTERNAL_MEMORY_DEDICATED : 0) ^ (fl % 4 == 1);
      if (u8(f) % 16 == 0)
         d.reserved[u8(f) % 16] = 1;
      CUexternalMemory ext = NULL;
      uint8_t nul = u8(f) % 16;
      if (cuImportExternalMemory(nul == 0 ? NULL : &ext, nul == 1 ? NULL : &d) == CUDA_SUCCESS && ext) {
         /* The import owns the fd now. */
         release_fd(fd);
         pool_add(P_EXT, (uintptr_t)ext, d.size, is_image, 0);
      }
      break;
   }
   case FZ_EXT_MAP_BUFFER: {
      if (!pool_has_room(P_DPTR))
         return;
      struct slot *s = pick(f, P_EXT);
      CUexternalMemory ext = s ? (CUexternalMemory)(uintptr_t)s->h : NULL;
      uint64_t sz = s ? s->size : 4096;
      CUDA_EXTERNAL_MEMORY_BUFFER_DESC d;
      memset(&d, 0, sizeof(d));
      d.offset = u8(f) % 2 ? 0 : pick_size(f, sz);
      d.size = u8(f) % 2 ? sz - (d.offset < sz ? d.offset : sz) : pick_size(f, sz);
      d.flags = u8(f) % 8 == 0 ? 1 : 0;
      if (u8(f) % 16 == 0)
         d.reserved[u8(f) % 16] = 7;
      CUdeviceptr p = 0;
      uint8_t nul = u8(f) % 16;
      if (cuExternalMemoryGetMappedBuffer(nul == 0 ? NULL : &p, ext, nul == 1 ? NULL : &d) == CUDA_SUCCESS)
         pool_add(P_DPTR, p, d.size, DPTR_EXT, 0);
      break;
   }
   case FZ_EXT_MAP_MIPMAP: {
      if (!pool_has_room(P_MIPMAP))
         return;
      struct slot *s = pick(f, P_EXT);
      CUexternalMemory ext = s ? (CUexternalMemory)(uintptr_t)s->h : NULL;
      CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC d;
      memset(&d, 0, sizeof(d));
      if (u8(f) % 2) {
         /* The exported image itself, which is what a correct caller
          * describes, with one field spoiled now and then. */
         d.arrayDesc.Width = 64;
         d.arrayDesc.Height = 64;
         d.arrayDesc.Format = CU_AD_FORMAT_UNSIGNED_INT8;
         d.arrayDesc.NumChannels = 4;
         d.arrayDesc.Flags = CUDA_ARRAY3D_SURFACE_LDST;
         d.numLevels = 4;
         switch (u8(f) % 8) {
         case 0: d.numLevels = u8(f) % 12; break;
         case 1: d.arrayDesc.Format = formats[u8(f) % (sizeof(formats) / sizeof(formats[0]))]; break;
         case 2: d.arrayDesc.Width = pick_dim(f); break;
         case 3: d.offset = pick_size(f, 4096); break;
         case 4: d.arrayDesc.Depth = pick_dim(f); break;
         default: break;
         }
      } else {
         pick_array3d(f, &d.arrayDesc);
         d.numLevels = u8(f) % 21;
         d.offset = u8(f) % 2 ? 0 : pick_size(f, 4096);
         if (array_too_big(&d.arrayDesc))
            return;
      }
      if (u8(f) % 16 == 0)
         d.reserved[u8(f) % 16] = 1;
      CUmipmappedArray m = NULL;
      uint8_t nul = u8(f) % 16;
      if (cuExternalMemoryGetMappedMipmappedArray(nul == 0 ? NULL : &m, ext, nul == 1 ? NULL : &d) ==
             CUDA_SUCCESS && m)
         pool_add(P_MIPMAP, (uintptr_t)m, 0, 0, 0);
      break;
   }
   case FZ_EXT_DESTROY: {
      struct slot *s = pick(f, P_EXT);
      CUexternalMemory ext = s ? (CUexternalMemory)(uintptr_t)s->h : NULL;
      if (cuDestroyExternalMemory(ext) == CUDA_SUCCESS)
         kill_value(P_EXT, (uintptr_t)ext);
      break;
   }
   }
}

static void
pick_prop(struct fz *f, CUmemAllocationProp *prop)
{
   memset(prop, 0, sizeof(*prop));
   prop->type = CU_MEM_ALLOCATION_TYPE_PINNED;
   prop->location.type = CU_MEM_LOCATION_TYPE_DEVICE;
   prop->location.id = S.dev;
   switch (u8(f) % 10) {
   case 0: prop->requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR; break;
   case 1: prop->requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR; break;
   case 2: prop->type = (CUmemAllocationType)(u8(f) % 4); break;
   case 3: prop->location.type = (CUmemLocationType)(u8(f) % 6); break;
   case 4: prop->location.id = (int)(int8_t)u8(f); break;
   case 5: prop->requestedHandleTypes = (CUmemAllocationHandleType)(u8(f) % 16); break;
   case 6: prop->allocFlags.compressionType = u8(f) % 2; prop->allocFlags.usage = u8(f) % 4; break;
   default: break;
   }
}

static uint64_t vmm_granularity = 4096;

static void
op_vmm(struct fz *f, int op)
{
   switch (op) {
   case FZ_VMM_RESERVE: {
      if (!pool_has_room(P_DPTR))
         return;
      uint64_t size = u8(f) % 3 ? vmm_granularity * (1 + u8(f) % 8) : pick_size(f, vmm_granularity);
      if (size > 8 * vmm_granularity && size < ((uint64_t)1 << 44))
         size = 8 * vmm_granularity;
      static const uint64_t aligns[] = { 0, 0, 4096, 65536, 3, (uint64_t)1 << 40 };
      uint64_t align = aligns[u8(f) % 6];
      CUdeviceptr hint = 0;
      if (u8(f) % 4 == 0) {
         uint64_t a;
         hint = pick_dptr(f, &a);
      }
      CUdeviceptr p = 0;
      if (cuMemAddressReserve(u8(f) % 16 ? &p : NULL, size, align, hint, u8(f) % 8 ? 0 : 1) ==
             CUDA_SUCCESS && p)
         pool_add(P_DPTR, p, size, DPTR_RESERVED, 0);
      break;
   }
   case FZ_VMM_ADDRESS_FREE: {
      uint64_t a;
      CUdeviceptr p = pick_dptr(f, &a);
      struct slot *s = NULL;
      for (unsigned i = 0; i < S.pool[P_DPTR].n; i++)
         if (S.pool[P_DPTR].s[i].h == p && S.pool[P_DPTR].s[i].live)
            s = &S.pool[P_DPTR].s[i];
      uint64_t size = u8(f) % 2 && s ? s->size : pick_size(f, s ? s->size : 4096);
      if (cuMemAddressFree(p, size) == CUDA_SUCCESS && s && s->kind == DPTR_RESERVED)
         s->live = false;
      break;
   }
   case FZ_VMM_CREATE: {
      if (!pool_has_room(P_VMM))
         return;
      CUmemAllocationProp prop;
      pick_prop(f, &prop);
      uint64_t size = u8(f) % 3 ? vmm_granularity * (1 + u8(f) % 2) : pick_size(f, vmm_granularity);
      if (size > 2 * vmm_granularity && size < ((uint64_t)1 << 44))
         size = 2 * vmm_granularity;
      CUmemGenericAllocationHandle h = 0;
      uint8_t b = u8(f);
      if (cuMemCreate(b % 16 ? &h : NULL, size, b % 16 == 1 ? NULL : &prop, b % 32 == 2 ? 1 : 0) ==
          CUDA_SUCCESS)
         pool_add(P_VMM, h, size, 0, 0);
      break;
   }
   case FZ_VMM_HANDLE_OP: {
      uint8_t which = u8(f);
      struct slot *s = pick(f, P_VMM);
      CUmemGenericAllocationHandle h = s ? s->h : 0;
      switch (which % 4) {
      case 0: {
         CUmemAllocationProp prop;
         cuMemGetAllocationPropertiesFromHandle(u8(f) % 8 ? &prop : NULL, h);
         break;
      }
      case 1: {
         /* Retain through an address: a mapping's, or anything. */
         uint64_t a;
         struct slot *m = pick(f, P_MAPPING);
         CUdeviceptr p = m ? m->h + (u8(f) % 2 ? 0 : u16(f)) : pick_dptr(f, &a);
         CUmemGenericAllocationHandle r = 0;
         if (cuMemRetainAllocationHandle(&r, (void *)(uintptr_t)p) == CUDA_SUCCESS) {
            /* One more reference to an existing handle: released at the
             * end like any handle (the value may repeat in the pool). */
            if (pool_has_room(P_VMM))
               pool_add(P_VMM, r, 0, 0, 0);
            else
               cuMemRelease(r);
         }
         break;
      }
      default:
         if (cuMemRelease(h) == CUDA_SUCCESS && s)
            s->live = false;
         break;
      }
      break;
   }
   case FZ_VMM_MAP: {
      if (!pool_has_room(P_MAPPING))
         return;
      uint64_t a;
      CUdeviceptr p = pick_dptr(f, &a);
      struct slot *h = pick(f, P_VMM);
      uint64_t hsize = h ? h->size : vmm_granularity;
      uint64_t size = u8(f) % 2 ? hsize : pick_size(f, hsize);
      uint64_t off = u8(f) % 2 ? 0 : pick_size(f, hsize);
      if (cuMemMap(p, size, off, h ? h->h : 0, u8(f) % 16 ? 0 : 1) == CUDA_SUCCESS)
         pool_add(P_MAPPING, p, size, 0, 0);
      break;
   }
   case FZ_VMM_UNMAP: {
      struct slot *m = pick(f, P_MAPPING);
      uint64_t a;
      CUdeviceptr p = m ? m->h : pick_dptr(f, &a);
      uint64_t size = m && u8(f) % 2 ? m->size : pick_size(f, m ? m->size : vmm_granularity);
      if (cuMemUnmap(p, size) == CUDA_SUCCESS && m && size == m->size)
         m->live = false;
      break;
   }
   case FZ_VMM_ACCESS: {
      uint8_t which = u8(f);
      struct slot *m = pick(f, P_MAPPING);
      uint64_t a;
      CUdeviceptr p = m ? m->h : pick_dptr(f, &a);
      if (which % 2) {
         unsigned long long flags;
         CUmemLocation loc = { CU_MEM_LOCATION_TYPE_DEVICE, S.dev };
         if (u8(f) % 4 == 0)
            loc.type = (CUmemLocationType)(u8(f) % 6);
         cuMemGetAccess(u8(f) % 8 ? &flags : NULL, u8(f) % 8 ? &loc : NULL, p);
         break;
      }
      uint64_t size = m && u8(f) % 2 ? m->size : pick_size(f, m ? m->size : vmm_granularity);
      CUmemAccessDesc d[2];
      for (int i = 0; i < 2; i++) {
         d[i].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
         d[i].location.id = S.dev;
         d[i].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
         switch (u8(f) % 6) {
         case 0: d[i].flags = (CUmemAccess_flags)(u8(f) % 5); break;
         case 1: d[i].location.type = (CUmemLocationType)(u8(f) % 6); break;
         case 2: d[i].location.id = (int)(int8_t)u8(f); break;
         default: break;
         }
      }
      /* count never exceeds the array: a longer count is the caller reading
       * past its own array, not cuvk's to catch. */
      cuMemSetAccess(p, size, u8(f) % 16 ? d : NULL, u8(f) % 3);
      break;
   }
   case FZ_VMM_SHARE: {
      uint8_t which = u8(f);
      if (which % 2 == 0) {
         struct slot *s = pick(f, P_VMM);
         int fd = -1;
         static const CUmemAllocationHandleType types[] = {
            CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
            CU_MEM_HANDLE_TYPE_NONE, CU_MEM_HANDLE_TYPE_WIN32, CU_MEM_HANDLE_TYPE_FABRIC,
            (CUmemAllocationHandleType)0x7fffffff,
         };
         CUmemAllocationHandleType t = types[u8(f) % 6];
         /* Only the fd type writes an int; a Win32 or fabric handle is
          * bigger, so the harness gives room for one. */
         uint64_t out[8] = { 0 };
         void *where = u8(f) % 16 ? (void *)out : NULL;
         if (cuMemExportToShareableHandle(where, s ? s->h : 0, t, u8(f) % 8 ? 0 : 1) == CUDA_SUCCESS &&
             t == CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) {
            memcpy(&fd, out, sizeof(fd));
            hold_fd(fd);
         }
      } else {
         if (!pool_has_room(P_VMM))
            return;
         int fd, is_image;
         /* An fd exported by cuMemExportToShareableHandle, when the
          * harness holds one, or any of the usual ones. */
         struct slot *held = u8(f) % 2 ? pick_live(f, P_FD) : NULL;
         fd = held ? (int)held->h : pick_fd(f, &is_image);
         CUmemGenericAllocationHandle h = 0;
         CUmemAllocationHandleType t = u8(f) % 4 ? CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
                                                 : (CUmemAllocationHandleType)(u8(f) % 8);
         /* The fd travels by value, cast to a pointer, as CUDA has it. */
         if (cuMemImportFromShareableHandle(u8(f) % 16 ? &h : NULL, (void *)(uintptr_t)fd, t) ==
             CUDA_SUCCESS) {
            /* The handle's size, so that a later cuMemMap can name all
             * of it: what the fd holds (a memfd on lavapipe, which may
             * hold a little more), in whole granules. */
            off_t end = lseek(fd, 0, SEEK_END);
            uint64_t size = end > 0 ? (uint64_t)end : 0;
            pool_add(P_VMM, h, size - size % vmm_granularity, 0, 0);
         }
      }
      break;
   }
   }
}

static void
op_misc(struct fz *f)
{
   const char *str;
   char name[64];
   int v;
   size_t sz;
   CUdevice d;
   CUuuid uuid;
   CUresult code = (CUresult)(u8(f) % 4 ? u16(f) % 1000 : u32(f));
   CUdevice dev = u8(f) % 8 == 0 ? (CUdevice)(int8_t)u8(f) : S.dev;
   switch (u8(f) % 10) {
   case 0: cuGetErrorName(code, u8(f) % 8 ? &str : NULL); break;
   case 1: cuGetErrorString(code, u8(f) % 8 ? &str : NULL); break;
   case 2: cuDeviceGetName(u8(f) % 8 ? name : NULL, (int)(u8(f) % 80) - 8, dev); break;
   case 3: cuDeviceGetAttribute(u8(f) % 8 ? &v : NULL, (CUdevice_attribute)(int)(u16(f) % 200) , dev); break;
   case 4: cuDeviceTotalMem(u8(f) % 8 ? &sz : NULL, dev); break;
   case 5: cuDeviceGetUuid(u8(f) % 8 ? &uuid : NULL, dev); break;
   case 6: cuDeviceGetPCIBusId(u8(f) % 8 ? name : NULL, (int)(u8(f) % 80) - 8, dev); break;
   case 7: {
      static const char *ids[] = { "0000:00:00.0", "", "zz", "0000:ff:1f.7", NULL };
      cuDeviceGetByPCIBusId(u8(f) % 8 ? &d : NULL, ids[u8(f) % 5]);
      break;
   }
   case 8: cuDeviceGet(u8(f) % 8 ? &d : NULL, (int)(int8_t)u8(f)); break;
   default: {
      CUmemAllocationProp prop;
      pick_prop(f, &prop);
      cuMemGetAllocationGranularity(u8(f) % 8 ? &sz : NULL, u8(f) % 16 ? &prop : NULL, u8(f) % 3);
      break;
   }
   }
}

/* The runtime API's twins, on the same handles: cuvk's runtime is a
 * layer over its driver API, with its own argument checks and its own
 * mapping of copy kinds to directions. */
static void
op_runtime(struct fz *f)
{
   uint8_t which = u8(f);
   uint64_t da, sa;
   switch (which % 12) {
   case 0: {
      if (!pool_has_room(P_DPTR))
         return;
      uint64_t size = pick_alloc_size(f);
      void *p = NULL;
      if (cudaMalloc(u8(f) % 16 ? &p : NULL, size) == cudaSuccess && p)
         pool_add(P_DPTR, (uintptr_t)p, size, DPTR_ALLOC, 0);
      break;
   }
   case 1: {
      CUdeviceptr d = pick_dptr(f, &da);
      struct slot *s = NULL;
      for (unsigned i = 0; i < S.pool[P_DPTR].n; i++)
         if (S.pool[P_DPTR].s[i].h == d && S.pool[P_DPTR].s[i].live)
            s = &S.pool[P_DPTR].s[i];
      if (cudaFree((void *)(uintptr_t)d) == cudaSuccess && s && (s->kind == DPTR_ALLOC || s->kind == DPTR_EXT))
         s->live = false;
      break;
   }
   case 2: case 3: {
      /* Each side host or device, and a kind that may not match them. */
      bool dh = u8(f) & 1, sh = u8(f) & 1;
      uint64_t d = dh ? (uintptr_t)pick_host(f, &da) : pick_dptr(f, &da);
      uint64_t s = sh ? (uintptr_t)pick_host(f, &sa) : pick_dptr(f, &sa);
      uint64_t n = pick_size(f, sa < da ? sa : da);
      if (dh)
         d = (uintptr_t)host_for((void *)(uintptr_t)d, da, n);
      if (sh)
         s = (uintptr_t)host_for((void *)(uintptr_t)s, sa, n);
      if (dh && sh && n > DEV_INVALID)
         return;
      enum cudaMemcpyKind kind = (enum cudaMemcpyKind)(u8(f) % 7);
      if (which % 12 == 2)
         cudaMemcpy((void *)(uintptr_t)d, (const void *)(uintptr_t)s, n, kind);
      else
         cudaMemcpyAsync((void *)(uintptr_t)d, (const void *)(uintptr_t)s, n, kind, pick_stream(f));
      break;
   }
   case 4: {
      CUdeviceptr d = pick_dptr(f, &da);
      uint64_t n = pick_size(f, da);
      int v = (int)u32(f);
      if (u8(f) & 1)
         cudaMemset((void *)(uintptr_t)d, v, n);
      else
         cudaMemsetAsync((void *)(uintptr_t)d, v, n, pick_stream(f));
      break;
   }
   case 5: {
      struct cudaPointerAttributes attr;
      uint64_t a;
      void *p = u8(f) & 1 ? (void *)(uintptr_t)pick_dptr(f, &a) : pick_host(f, &a);
      cudaPointerGetAttributes(u8(f) % 8 ? &attr : NULL, p);
      break;
   }
   case 6: {
      if (!pool_has_room(P_STREAM))
         return;
      cudaStream_t st = NULL;
      if (cudaStreamCreateWithFlags(&st, u8(f) % 4 ? u8(f) % 2 : u32(f)) == cudaSuccess && st)
         pool_add(P_STREAM, (uintptr_t)st, 0, 0, 0);
      break;
   }
   case 7: {
      if (!pool_has_room(P_EVENT))
         return;
      cudaEvent_t e = NULL;
      if (cudaEventCreateWithFlags(&e, u8(f) % 4 ? u8(f) % 4 : u32(f)) == cudaSuccess && e)
         pool_add(P_EVENT, (uintptr_t)e, 0, 0, 0);
      break;
   }
   case 8: {
      cudaStream_t st = pick_stream(f);
      if (u8(f) & 1) {
         if (cudaStreamDestroy(st) == cudaSuccess)
            kill_value(P_STREAM, (uintptr_t)st);
      } else {
         cudaEvent_t e = pick_event(f);
         switch (u8(f) % 4) {
         case 0: cudaEventRecord(e, st); break;
         case 1: cudaStreamWaitEvent(st, e, 0); break;
         case 2: cudaStreamSynchronize(st); break;
         default:
            if (cudaEventDestroy(e) == cudaSuccess)
               kill_value(P_EVENT, (uintptr_t)e);
            break;
         }
      }
      break;
   }
   case 9: {
      struct slot *s = pick(f, P_ARRAY);
      cudaArray_t a = s ? (cudaArray_t)(uintptr_t)s->h : NULL;
      struct cudaChannelFormatDesc desc;
      struct cudaExtent ext;
      unsigned flags;
      if (u8(f) & 1) {
         cudaArrayGetInfo(u8(f) % 8 ? &desc : NULL, u8(f) % 8 ? &ext : NULL, u8(f) % 8 ? &flags : NULL, a);
      } else if (cudaFreeArray(a) == cudaSuccess && s) {
         s->live = false;
      }
      break;
   }
   case 10: {
      struct slot *s = pick(f, P_MIPMAP);
      cudaMipmappedArray_t m = s ? (cudaMipmappedArray_t)(uintptr_t)s->h : NULL;
      cudaArray_t level = NULL;
      if (u8(f) & 1) {
         if (cudaGetMipmappedArrayLevel(&level, m, u8(f) % 24) == cudaSuccess && level && s &&
             pool_has_room(P_ARRAY))
            pool_add(P_ARRAY, (uintptr_t)level, 0, 1, s->h);
      } else if (cudaFreeMipmappedArray(m) == cudaSuccess && s) {
         s->live = false;
         for (unsigned i = 0; i < S.pool[P_ARRAY].n; i++)
            if (S.pool[P_ARRAY].s[i].kind == 1 && S.pool[P_ARRAY].s[i].aux == s->h)
               S.pool[P_ARRAY].s[i].live = false;
      }
      break;
   }
   default: {
      size_t fr, tot;
      switch (u8(f) % 5) {
      case 0: cudaGetLastError(); break;
      case 1: cudaPeekAtLastError(); break;
      case 2: cudaDeviceSynchronize(); break;
      case 3: cudaMemGetInfo(u8(f) & 1 ? &fr : NULL, &tot); break;
      default: {
         struct slot *s = pick(f, P_EXT);
         cudaExternalMemory_t ext = s ? (cudaExternalMemory_t)(uintptr_t)s->h : NULL;
         if (cudaDestroyExternalMemory(ext) == cudaSuccess)
            kill_value(P_EXT, (uintptr_t)ext);
         break;
      }
      }
      break;
   }
   }
}

/* ---- external semaphores ---------------------------------------------- */

/* The exporting side of each imported semaphore is the harness's own: an
 * xsem it made (src/util/xsem.h, what VK_LAYER_CUVK_interop hands out on
 * lavapipe) or a Vulkan semaphore of its exporter device exported with
 * vkGetSemaphoreFdKHR (the layer's xsem, or the driver's own semaphore
 * where it exports them).  Every wait the harness gives cuvk is on a
 * semaphore whose exporter it still holds, and right before or after the
 * call it signals the exporter far enough to satisfy it: a wait nobody
 * signals would hang the stream, and the harness with it at the next
 * synchronising call, which CUDA allows and the fuzzer would report. */
enum semsrc_kind {
   SEMSRC_XSEM_BINARY,
   SEMSRC_XSEM_TIMELINE,
   SEMSRC_VK_BINARY,
   SEMSRC_VK_TIMELINE,
};

static bool have_vk_semaphores;
static PFN_vkGetSemaphoreFdKHR get_semaphore_fd;
/* Exporters are named by a number that is never reused, since an xsem's
 * or VkSemaphore's value may be once it is destroyed. */
static uint64_t semsrc_next_id;

static bool
semsrc_timeline(const struct slot *src)
{
   return src->kind == SEMSRC_XSEM_TIMELINE || src->kind == SEMSRC_VK_TIMELINE;
}

static struct slot *
semsrc_find(uint64_t id)
{
   struct pool *pl = &S.pool[P_SEMSRC];
   for (unsigned i = 0; i < pl->n; i++)
      if (pl->s[i].live && pl->s[i].aux == id)
         return &pl->s[i];
   return NULL;
}

/* The exporter of an imported semaphore, if it is still there. */
static struct slot *
sem_source(const struct slot *sem)
{
   return sem && sem->aux ? semsrc_find(sem->aux) : NULL;
}

/* The highest value the timeline has or is known to be signalled to. */
static uint64_t
semsrc_value(struct slot *src)
{
   if (src->kind == SEMSRC_XSEM_TIMELINE)
      return cuvk_xsem_pending_max((struct cuvk_xsem *)(uintptr_t)src->h);
   if (src->kind == SEMSRC_VK_TIMELINE) {
      uint64_t now = 0;
      vkGetSemaphoreCounterValue(vk.device, (VkSemaphore)(uintptr_t)src->h, &now);
      return now > src->size ? now : src->size;
   }
   return 0;
}

/* The application's signal: a timeline to v (no lower), a binary one
 * once more. */
static void
semsrc_signal(struct slot *src, uint64_t v)
{
   switch (src->kind) {
   case SEMSRC_XSEM_BINARY:
   case SEMSRC_XSEM_TIMELINE:
      cuvk_xsem_signal((struct cuvk_xsem *)(uintptr_t)src->h, v);
      break;
   case SEMSRC_VK_BINARY: {
      VkSemaphore sem = (VkSemaphore)(uintptr_t)src->h;
      VkSubmitInfo submit = {
         .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
         .signalSemaphoreCount = 1,
         .pSignalSemaphores = &sem,
      };
      if (vkQueueSubmit(vk.queue, 1, &submit, VK_NULL_HANDLE) != VK_SUCCESS)
         abort(); /* the wait it was for would never end */
      break;
   }
   default: {
      uint64_t now = 0;
      vkGetSemaphoreCounterValue(vk.device, (VkSemaphore)(uintptr_t)src->h, &now);
      if (v > now) {
         VkSemaphoreSignalInfo info = {
            .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
            .semaphore = (VkSemaphore)(uintptr_t)src->h,
            .value = v,
         };
         if (vkSignalSemaphore(vk.device, &info) != VK_SUCCESS)
            abort();
      }
      break;
   }
   }
   if (v > src->size)
      src->size = v;
}

static void
semsrc_destroy(struct slot *src)
{
   if (src->kind == SEMSRC_XSEM_BINARY || src->kind == SEMSRC_XSEM_TIMELINE)
      cuvk_xsem_destroy((struct cuvk_xsem *)(uintptr_t)src->h);
   else
      vkDestroySemaphore(vk.device, (VkSemaphore)(uintptr_t)src->h, NULL);
   src->live = false;
}

/* A new exporter of the kind; NULL when there is no room or no way. */
static struct slot *
semsrc_create(enum semsrc_kind kind)
{
   if (!pool_has_room(P_SEMSRC))
      return NULL;
   uint64_t h;
   if (kind == SEMSRC_XSEM_BINARY || kind == SEMSRC_XSEM_TIMELINE) {
      struct cuvk_xsem *x;
      if (cuvk_xsem_create(kind == SEMSRC_XSEM_TIMELINE ? CUVK_XSEM_TIMELINE : CUVK_XSEM_BINARY, 0, &x) != 0)
         return NULL;
      h = (uintptr_t)x;
   } else {
      if (!have_vk_semaphores)
         return NULL;
      VkSemaphoreTypeCreateInfo type = {
         .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
         .semaphoreType = kind == SEMSRC_VK_TIMELINE ? VK_SEMAPHORE_TYPE_TIMELINE : VK_SEMAPHORE_TYPE_BINARY,
      };
      VkExportSemaphoreCreateInfo export_info = {
         .sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO,
         .pNext = &type,
         .handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT,
      };
      VkSemaphoreCreateInfo info = {
         .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
         .pNext = &export_info,
      };
      VkSemaphore sem;
      if (vkCreateSemaphore(vk.device, &info, NULL, &sem) != VK_SUCCESS)
         return NULL;
      h = (uint64_t)(uintptr_t)sem;
   }
   return pool_add(P_SEMSRC, h, 0, kind, ++semsrc_next_id);
}

/* A new fd of the exporter's semaphore (held by the harness until an
 * import takes it). */
static int
semsrc_export(struct slot *src)
{
   int fd = -1;
   if (src->kind == SEMSRC_XSEM_BINARY || src->kind == SEMSRC_XSEM_TIMELINE) {
      fd = cuvk_xsem_export_fd((struct cuvk_xsem *)(uintptr_t)src->h);
   } else {
      VkSemaphoreGetFdInfoKHR info = {
         .sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR,
         .semaphore = (VkSemaphore)(uintptr_t)src->h,
         .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT,
      };
      if (get_semaphore_fd(vk.device, &info, &fd) != VK_SUCCESS)
         fd = -1;
   }
   return hold_fd(fd);
}

static void
op_sem_import(struct fz *f)
{
   if (!pool_has_room(P_SEM))
      return;
   uint8_t source = u8(f) % 8;
   struct slot *src = NULL;
   int fd, is_image;
   if (source < 4) {
      src = semsrc_create((enum semsrc_kind)source);
   } else if (source == 4) {
      /* A second import of an exporter: two handles, one semaphore. */
      src = pick_live(f, P_SEMSRC);
   }
   if (source <= 4)
      fd = src ? semsrc_export(src) : -1;
   else
      fd = pick_fd(f, &is_image); /* memory exports and every wrong fd */

   static const CUexternalSemaphoreHandleType types[] = {
      CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT,
      CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_FENCE,
      CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_NVSCISYNC, CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX,
      CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX_KMT,
      CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_WIN32, (CUexternalSemaphoreHandleType)0,
      (CUexternalSemaphoreHandleType)11, (CUexternalSemaphoreHandleType)0x7fffffff,
   };
   bool timeline = src && semsrc_timeline(src);
   uint8_t t = u8(f);
   CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d;
   memset(&d, 0, sizeof(d));
   if (t % 8 < 5)
      d.type = timeline ? CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD
                        : CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
   else if (t % 8 < 7)
      d.type = timeline ? CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD
                        : CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;
   else
      d.type = types[(t / 8) % (sizeof(types) / sizeof(types[0]))];
   d.handle.fd = fd;
   d.flags = u8(f) % 8 == 0 ? u32(f) : 0;
   uint8_t how = u8(f) % 16;
   if (how == 3)
      d.reserved[u8(f) % 16] = 1; /* CUDA does not look at them */
   CUexternalSemaphore sem = NULL;
   CUresult r;
   if (how == 2) {
      r = (CUresult)cudaImportExternalSemaphore((cudaExternalSemaphore_t *)&sem,
                                                (const struct cudaExternalSemaphoreHandleDesc *)&d);
   } else {
      r = cuImportExternalSemaphore(how == 0 ? NULL : &sem, how == 1 ? NULL : &d);
   }
   if (r == CUDA_SUCCESS && sem) {
      /* cuvk owns (and has closed) the fd now. */
      release_fd(fd);
      /* An entry of the same value names a semaphore cuvk destroyed
       * (with its context, say) and reused the memory of. */
      pool_remove_value(P_SEM, (uintptr_t)sem);
      pool_add(P_SEM, (uintptr_t)sem, 0, timeline, src ? src->aux : 0);
   }
}

/* A timeline value around the exporter's: the next ones, the same,
 * backwards, zero, random, and rarely the very top (after which nothing
 * can signal the semaphore higher). */
static uint64_t
pick_timeline_value(struct fz *f, uint64_t now)
{
   switch (u8(f) % 8) {
   case 0: case 7: return now + 1;
   case 1: return now + 1 + u8(f);
   case 2: return now;
   case 3: return now ? now - 1 : 0;
   case 4: return 0;
   case 5: return u32(f);
   default: return u8(f) % 32 == 0 ? UINT64_MAX : now + 2;
   }
}

#define SEM_ARRAY 256

static void
op_sem_signal_wait(struct fz *f, bool wait)
{
   static const unsigned counts[] = { 0, 1, 1, 1, 1, 2, 3, 4, 62, 63, 200, 8 };
   unsigned n = counts[u8(f) % (sizeof(counts) / sizeof(counts[0]))];
   /* Up to 8 entries come from the input; more repeat them, each round a
    * step higher so that a call's timeline values can still rise. */
   CUexternalSemaphore sems[SEM_ARRAY];
   struct slot *slots[8];
   union {
      CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS signal[SEM_ARRAY];
      CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wait[SEM_ARRAY];
   } params;
   memset(&params, 0, sizeof(params));
   uint64_t values[8];
   unsigned flags[8];
   unsigned k = n < 8 ? n : 8;
   for (unsigned i = 0; i < k; i++) {
      slots[i] = pick(f, P_SEM);
      struct slot *src = sem_source(slots[i]);
      values[i] = pick_timeline_value(f, src ? semsrc_value(src) : 0);
      flags[i] = u8(f) % 16 == 0 ? 1u << (u8(f) % 32) : 0;
   }
   for (unsigned i = 0; i < n; i++) {
      struct slot *s = slots[i % k];
      uint64_t v = values[i % k] + i / k;
      sems[i] = s ? (CUexternalSemaphore)(uintptr_t)s->h : NULL;
      if (wait) {
         params.wait[i].params.fence.value = v;
         params.wait[i].flags = flags[i % k];
      } else {
         params.signal[i].params.fence.value = v;
         params.signal[i].flags = flags[i % k];
      }
   }
   CUstream st = pick_stream(f);
   uint8_t nul = u8(f) % 16;
   bool runtime = u8(f) % 4 == 0;
   bool signal_first = wait && (u8(f) & 1);

   /* A wait the harness could not end is not made: one on an imported
    * semaphore whose exporter is gone, or whose import the harness
    * cannot trace (none should have succeeded). */
   if (wait) {
      for (unsigned i = 0; i < k; i++)
         if (slots[i] && slots[i]->live && !sem_source(slots[i]))
            return;
   }

   /* Satisfies the call's waits from the exporters' side, entry by
    * entry: one signal per binary wait, the value for a timeline. */
   bool satisfy = wait && n > 0 && n <= 62 && nul > 1;
#define SATISFY()                                                               \
   do {                                                                         \
      for (unsigned i = 0; satisfy && i < n; i++) {                             \
         struct slot *src = sem_source(slots[i % k]);                           \
         if (src)                                                               \
            semsrc_signal(src, params.wait[i].params.fence.value);              \
      }                                                                         \
   } while (0)
   if (signal_first)
      SATISFY();

   const CUexternalSemaphore *arr = nul == 0 ? NULL : sems;
   CUresult r;
   if (wait) {
      const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *p = nul == 1 ? NULL : params.wait;
      if (runtime)
         r = (CUresult)cudaWaitExternalSemaphoresAsync((const cudaExternalSemaphore_t *)arr,
                                                       (const struct cudaExternalSemaphoreWaitParams *)p, n, st);
      else
         r = cuWaitExternalSemaphoresAsync(arr, p, n, st);
   } else {
      const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *p = nul == 1 ? NULL : params.signal;
      if (runtime)
         r = (CUresult)cudaSignalExternalSemaphoresAsync((const cudaExternalSemaphore_t *)arr,
                                                         (const struct cudaExternalSemaphoreSignalParams *)p, n,
                                                         st);
      else
         r = cuSignalExternalSemaphoresAsync(arr, p, n, st);
   }
   if (!signal_first)
      SATISFY();
#undef SATISFY
   if (!wait && r == CUDA_SUCCESS) {
      /* What cuvk enqueued counts for the values picked next. */
      for (unsigned i = 0; i < n; i++) {
         struct slot *src = sem_source(slots[i % k]);
         if (src && params.signal[i].params.fence.value > src->size)
            src->size = params.signal[i].params.fence.value;
      }
   }
}

static void
op_sem_destroy(struct fz *f)
{
   uint8_t which = u8(f);
   if (which % 8 == 7) {
      /* The exporter goes; cuvk's imports keep the semaphore. */
      struct slot *src = pick_live(f, P_SEMSRC);
      if (src)
         semsrc_destroy(src);
      return;
   }
   struct slot *s = pick(f, P_SEM);
   CUexternalSemaphore sem = s ? (CUexternalSemaphore)(uintptr_t)s->h : NULL;
   CUresult r;
   if (which % 8 == 6)
      r = (CUresult)cudaDestroyExternalSemaphore((cudaExternalSemaphore_t)sem);
   else
      r = cuDestroyExternalSemaphore(sem);
   if (r == CUDA_SUCCESS && s)
      kill_value(P_SEM, s->h);
}

/* ---- host functions ---------------------------------------------------- */

/* What a host function does, in a record of its own: it may run after
 * the input that queued it has moved on, so nothing of the input's stack
 * is left to it.  A record is reused once its function has run. */
enum hf_behaviour {
   HF_COUNT,        /* returns at once */
   HF_LATE,         /* sleeps, so that later work waits for it */
   HF_QUERY,        /* calls cuvk: queries that do not wait on a stream */
   HF_LATE_QUERY,
};

struct hf_record {
   atomic_bool busy;
   int behaviour;
   unsigned sleep_us;
   CUstream stream;     /* possibly destroyed by the time it runs */
   CUevent event;
   CUdeviceptr dptr;
};

#define HF_RECORDS 64
static struct hf_record hf_records[HF_RECORDS];
static atomic_uint hf_runs;

/* Waits until no host function that calls cuvk is pending.  Called
 * before the harness destroys a context, and at the end of an input:
 * destroying a context frees its objects whatever calls are using them
 * (a use of a handle while its context is destroyed, undefined in CUDA).
 * Events, like every handle but contexts, are reference counted (a call
 * that found one live finishes on it; api.thread.event_destroy_use), and
 * a destroyed stream stays a stream of its context until the context
 * goes (api.thread.stream_destroy_query), so destroying either needs no
 * wait.  Host functions are never dropped here (no semaphore the GPU
 * waits on stays unsignalled), so this ends. */
static void
hf_quiesce(void)
{
   for (unsigned waited = 0;; waited++) {
      bool pending = false;
      for (unsigned i = 0; i < HF_RECORDS && !pending; i++)
         pending = atomic_load(&hf_records[i].busy) &&
                   (hf_records[i].behaviour == HF_QUERY || hf_records[i].behaviour == HF_LATE_QUERY);
      if (!pending)
         return;
      if (waited == 30000) {
         fprintf(stderr, "fuzz_api: a host function that calls cuvk has not run in 30 s\n");
         abort();
      }
      struct timespec ts = { 0, 1000000 };
      nanosleep(&ts, NULL);
   }
}

static void
hf_body(struct hf_record *r, CUstream st)
{
   if (r->behaviour == HF_LATE || r->behaviour == HF_LATE_QUERY) {
      struct timespec ts = { 0, (long)r->sleep_us * 1000 };
      nanosleep(&ts, NULL);
   }
   if (r->behaviour == HF_QUERY || r->behaviour == HF_LATE_QUERY) {
      /* What a host function may reasonably do: ask, not wait.  CUDA
       * forbids API calls in host functions; cuvk must still not crash
       * or deadlock on these, on a thread with no current context. */
      const char *str;
      int v;
      CUcontext c;
      uint64_t attr;
      cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &str);
      cuDriverGetVersion(&v);
      cuCtxGetCurrent(&c);
      cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, S.dev);
      cuStreamQuery(r->stream);
      cuStreamQuery(st);
      cuEventQuery(r->event);
      cuPointerGetAttribute(&attr, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, r->dptr);
   }
   atomic_fetch_add(&hf_runs, 1);
   atomic_store(&r->busy, false);
}

static void CUDA_CB
hf_fn(void *data)
{
   hf_body(data, NULL);
}

static void CUDA_CB
hf_callback(CUstream st, CUresult status, void *data)
{
   (void)status;
   hf_body(data, st);
}

static void CUDART_CB
hf_rt_callback(cudaStream_t st, cudaError_t status, void *data)
{
   (void)status;
   hf_body(data, st);
}

static void
op_host_func(struct fz *f)
{
   uint8_t api = u8(f);
   bool null_fn = u8(f) % 16 == 0;
   CUstream st = pick_stream(f);
   uint8_t b = u8(f);
   uint64_t avail;
   struct hf_record *r = NULL;
   for (unsigned i = 0; i < HF_RECORDS && !r; i++) {
      bool expected = false;
      if (atomic_compare_exchange_strong(&hf_records[i].busy, &expected, true))
         r = &hf_records[i];
   }
   if (!r)
      return;
   r->behaviour = b % 4;
   r->sleep_us = (unsigned)(b / 4) * 400; /* up to 25 ms */
   r->stream = pick_stream(f);
   r->event = pick_event(f);
   r->dptr = pick_dptr(f, &avail);
   unsigned flags = u8(f) % 8 == 0 ? u32(f) : 0;

   CUresult res;
   switch (api % 4) {
   case 0: res = cuLaunchHostFunc(st, null_fn ? NULL : hf_fn, r); break;
   case 1: res = cuStreamAddCallback(st, null_fn ? NULL : hf_callback, r, flags); break;
   case 2: res = (CUresult)cudaLaunchHostFunc(st, null_fn ? NULL : hf_fn, r); break;
   default: res = (CUresult)cudaStreamAddCallback(st, null_fn ? NULL : hf_rt_callback, r, flags); break;
   }
   if (res != CUDA_SUCCESS)
      atomic_store(&r->busy, false);
   /* Sometimes the caller waits for it straight away. */
   switch (u8(f) % 4) {
   case 0: cuStreamSynchronize(st); break;
   case 1: cuStreamQuery(st); break;
   default: break;
   }
}

/* ---- cuGetProcAddress --------------------------------------------------- */

/* NVIDIA's exports that cuvk answers CUDA_ERROR_NOT_SUPPORTED: each takes
 * no arguments in cuvk and may be called with none. */
#define CUVK_UNSUPPORTED(name) #name,
static const char *const unsupported_names[] = {
#include "unsupported_list.h"
};
#undef CUVK_UNSUPPORTED
static void *unsupported_fns[sizeof(unsupported_names) / sizeof(unsupported_names[0])];
static size_t unsupported_count;

static int
ptr_cmp(const void *a, const void *b)
{
   uintptr_t x = (uintptr_t) * (void *const *)a, y = (uintptr_t) * (void *const *)b;
   return x < y ? -1 : x > y;
}

static bool
is_unsupported_fn(void *fn)
{
   return bsearch(&fn, unsupported_fns, unsupported_count, sizeof(void *), ptr_cmp) != NULL;
}

/* Entry points the harness knows how to call: what cuGetProcAddress
 * returns is called only when it is one of these symbols (by address),
 * with that symbol's own prototype. */
enum proc_sig {
   SIG_INT_OUT,      /* CUresult (int *) */
   SIG_ERROR_NAME,   /* CUresult (CUresult, const char **) */
   SIG_CTX_OUT,      /* CUresult (CUcontext *) */
   SIG_VOID,         /* CUresult (void) */
   SIG_CTX,          /* CUresult (CUcontext) */
   SIG_DEV_OUT,      /* CUresult (CUdevice *) */
   SIG_DEV_OUT_CTX,  /* CUresult (CUdevice *, CUcontext) */
   SIG_STREAM,       /* CUresult (CUstream) */
   SIG_EVENT,        /* CUresult (CUevent) */
   SIG_MEM_INFO,     /* CUresult (size_t *, size_t *); v1: unsigned int * */
   SIG_ATTRIBUTE,    /* CUresult (int *, CUdevice_attribute, CUdevice) */
   SIG_TOTAL_MEM,    /* CUresult (size_t *, CUdevice); v1: unsigned int * */
   SIG_STREAM_FLAGS, /* CUresult (CUstream, unsigned *) */
   SIG_INIT,         /* CUresult (unsigned) */
   SIG_DEVICE_GET,   /* CUresult (CUdevice *, int) */
   SIG_PROC,         /* cuGetProcAddress */
   SIG_PROC_V2,      /* cuGetProcAddress_v2 */
};

static struct proc_known {
   const char *symbol;
   enum proc_sig sig;
   void *fn;
} proc_known[] = {
   { "cuDriverGetVersion", SIG_INT_OUT }, { "cuDeviceGetCount", SIG_INT_OUT },
   { "cuGetErrorName", SIG_ERROR_NAME }, { "cuGetErrorString", SIG_ERROR_NAME },
   { "cuCtxGetCurrent", SIG_CTX_OUT }, { "cuCtxSynchronize", SIG_VOID },
   { "cuCtxSynchronize_v2", SIG_CTX }, { "cuCtxGetDevice", SIG_DEV_OUT },
   { "cuCtxGetDevice_v2", SIG_DEV_OUT_CTX }, { "cuStreamQuery", SIG_STREAM },
   { "cuStreamQuery_ptsz", SIG_STREAM }, { "cuStreamSynchronize", SIG_STREAM },
   { "cuStreamSynchronize_ptsz", SIG_STREAM }, { "cuEventQuery", SIG_EVENT },
   { "cuMemGetInfo", SIG_MEM_INFO }, { "cuMemGetInfo_v2", SIG_MEM_INFO },
   { "cuDeviceGetAttribute", SIG_ATTRIBUTE }, { "cuDeviceTotalMem", SIG_TOTAL_MEM },
   { "cuDeviceTotalMem_v2", SIG_TOTAL_MEM }, { "cuStreamGetFlags", SIG_STREAM_FLAGS },
   { "cuStreamGetFlags_ptsz", SIG_STREAM_FLAGS }, { "cuInit", SIG_INIT },
   { "cuDeviceGet", SIG_DEVICE_GET }, { "cuGetProcAddress", SIG_PROC },
   { "cuGetProcAddress_v2", SIG_PROC_V2 },
};

/* Names a caller asks for: the plain names of the entries above and of
 * calls the harness does not make through the result. */
static const char *const proc_names[] = {
   "cuDriverGetVersion", "cuDeviceGetCount", "cuGetErrorName", "cuGetErrorString", "cuCtxGetCurrent",
   "cuCtxSynchronize", "cuCtxGetDevice", "cuStreamQuery", "cuStreamSynchronize", "cuEventQuery",
   "cuMemGetInfo", "cuDeviceGetAttribute", "cuDeviceTotalMem", "cuStreamGetFlags", "cuInit", "cuDeviceGet",
   "cuGetProcAddress", "cuMemAlloc", "cuMemcpyHtoDAsync", "cuLaunchHostFunc", "cuImportExternalSemaphore",
   "cuMemcpy3DPeerAsync", "cuStreamAddCallback", "cuCtxCreate", "cudaMalloc", "cuMemAlloc_v2",
   "cuStreamQuery_ptsz", "cuGraphLaunch", "cuLaunchKernel",
};

/* The first cuGetProcAddress (cuda.h names _v2 by the plain name). */
static CUresult (*proc_v1)(const char *, void **, int, cuuint64_t);

static void
proc_setup(void)
{
   proc_v1 = (CUresult(*)(const char *, void **, int, cuuint64_t))dlsym(RTLD_DEFAULT, "cuGetProcAddress");
   for (size_t i = 0; i < sizeof(unsupported_names) / sizeof(unsupported_names[0]); i++) {
      void *fn = dlsym(RTLD_DEFAULT, unsupported_names[i]);
      if (fn)
         unsupported_fns[unsupported_count++] = fn;
   }
   qsort(unsupported_fns, unsupported_count, sizeof(void *), ptr_cmp);
   for (size_t i = 0; i < sizeof(proc_known) / sizeof(proc_known[0]); i++) {
      void *fn = dlsym(RTLD_DEFAULT, proc_known[i].symbol);
      /* One cuvk does not implement takes no arguments, whatever NVIDIA's
       * prototype says: it is called as the unsupported ones are. */
      proc_known[i].fn = fn && !is_unsupported_fn(fn) ? fn : NULL;
   }
}

/* Calls fn, an entry point cuGetProcAddress returned, if the harness knows
 * its prototype; arguments from the input. */
static void
proc_call(struct fz *f, void *fn)
{
   if (is_unsupported_fn(fn)) {
      ((CUresult(*)(void))fn)();
      return;
   }
   const struct proc_known *k = NULL;
   for (size_t i = 0; i < sizeof(proc_known) / sizeof(proc_known[0]) && !k; i++)
      if (proc_known[i].fn == fn)
         k = &proc_known[i];
   if (!k)
      return;
   bool nul = u8(f) % 8 == 0;
   int v;
   const char *str;
   CUcontext c;
   CUdevice d;
   size_t a[2];
   unsigned flags;
   void *pfn;
   switch (k->sig) {
   case SIG_INT_OUT: ((CUresult(*)(int *))fn)(nul ? NULL : &v); break;
   case SIG_ERROR_NAME:
      ((CUresult(*)(CUresult, const char **))fn)((CUresult)u16(f), nul ? NULL : &str);
      break;
   case SIG_CTX_OUT: ((CUresult(*)(CUcontext *))fn)(nul ? NULL : &c); break;
   case SIG_VOID: ((CUresult(*)(void))fn)(); break;
   case SIG_CTX: ((CUresult(*)(CUcontext))fn)(pick_ctx(f)); break;
   case SIG_DEV_OUT: ((CUresult(*)(CUdevice *))fn)(nul ? NULL : &d); break;
   case SIG_DEV_OUT_CTX: ((CUresult(*)(CUdevice *, CUcontext))fn)(nul ? NULL : &d, pick_ctx(f)); break;
   case SIG_STREAM: ((CUresult(*)(CUstream))fn)(pick_stream(f)); break;
   case SIG_EVENT: ((CUresult(*)(CUevent))fn)(pick_event(f)); break;
   case SIG_MEM_INFO: ((CUresult(*)(size_t *, size_t *))fn)(nul ? NULL : &a[0], &a[1]); break;
   case SIG_ATTRIBUTE:
      ((CUresult(*)(int *, CUdevice_attribute, CUdevice))fn)(nul ? NULL : &v,
                                                            (CUdevice_attribute)(u8(f) % 150), S.dev);
      break;
   case SIG_TOTAL_MEM: ((CUresult(*)(size_t *, CUdevice))fn)(nul ? NULL : &a[0], S.dev); break;
   case SIG_STREAM_FLAGS:
      ((CUresult(*)(CUstream, unsigned *))fn)(pick_stream(f), nul ? NULL : &flags);
      break;
   case SIG_INIT: ((CUresult(*)(unsigned))fn)(u8(f) % 4 ? 0 : u32(f)); break;
   case SIG_DEVICE_GET: ((CUresult(*)(CUdevice *, int))fn)(nul ? NULL : &d, (int)(int8_t)u8(f)); break;
   case SIG_PROC:
      ((CUresult(*)(const char *, void **, int, cuuint64_t))fn)("cuInit", nul ? NULL : &pfn, 13000, 0);
      break;
   case SIG_PROC_V2: {
      CUdriverProcAddressQueryResult q;
      ((CUresult(*)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *))fn)(
         "cuMemAlloc", nul ? NULL : &pfn, 12000, 0, &q);
      break;
   }
   }
}

static void
op_proc_address(struct fz *f)
{
   static const char *const suffixes[] = { "_v2", "_v3", "_ptds", "_ptsz", "_v2_ptds", "x", "" };
   static const int versions[] = { 0, -1, 1000, 2000, 2020, 3000, 3020, 4000, 6000, 7000, 10000, 11030,
                                    12000, 12080, 13000, 13010, INT32_MAX, INT32_MIN };
   static const cuuint64_t flag_menu[] = {
      CU_GET_PROC_ADDRESS_DEFAULT, CU_GET_PROC_ADDRESS_LEGACY_STREAM,
      CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, 3, 4, (cuuint64_t)1 << 63,
   };
   char name[64];
   const char *symbol = name;
   uint8_t kind = u8(f) % 8;
   switch (kind) {
   case 0: case 1:
      symbol = proc_names[u8(f) % (sizeof(proc_names) / sizeof(proc_names[0]))];
      break;
   case 2:
      symbol = unsupported_names[u16(f) % (sizeof(unsupported_names) / sizeof(unsupported_names[0]))];
      break;
   case 3: {
      const char *base = proc_names[u8(f) % (sizeof(proc_names) / sizeof(proc_names[0]))];
      uint8_t s = u8(f);
      snprintf(name, sizeof(name), "%s%s", base, suffixes[s % (sizeof(suffixes) / sizeof(suffixes[0]))]);
      if (s & 0x80)
         name[strlen(name) - 1] = '\0'; /* one character short */
      break;
   }
   case 4: {
      /* Bytes of the input, NULs and all. */
      unsigned len = u8(f) % 48;
      for (unsigned i = 0; i < len; i++)
         name[i] = (char)u8(f);
      name[len] = '\0';
      break;
   }
   case 5: symbol = NULL; break;
   case 6: symbol = ""; break;
   default: {
      /* A long name: no entry is longer than a few dozen characters. */
      memset(name, 'c', sizeof(name) - 1);
      name[sizeof(name) - 1] = '\0';
      break;
   }
   }
   uint8_t vb = u8(f);
   int version = vb & 0x80 ? (int)u32(f) : versions[vb % (sizeof(versions) / sizeof(versions[0]))];
   uint8_t fb = u8(f);
   cuuint64_t flags = fb % 16 == 15 ? ((cuuint64_t)u32(f) << 32 | u32(f))
                                    : flag_menu[fb % (sizeof(flag_menu) / sizeof(flag_menu[0]))];
   uint8_t how = u8(f);
   void *fn = NULL;
   CUdriverProcAddressQueryResult status;
   CUresult r;
   void **out = how % 16 < 3 && how % 16 ? NULL : &fn;
   if (how % 2 && proc_v1)
      r = proc_v1(symbol, out, version, flags);
   else
      r = cuGetProcAddress_v2(symbol, out, version, flags, how % 8 == 4 ? NULL : &status);
   if (r == CUDA_SUCCESS && out && (how & 0x10) && fn)
      proc_call(f, fn);
   /* And NVIDIA's exports cuvk lacks, directly: each must refuse. */
   if (how & 0x20) {
      size_t i = u16(f) % (unsupported_count ? unsupported_count : 1);
      if (unsupported_count)
         ((CUresult(*)(void))unsupported_fns[i])();
   }
}

/* ---- per input -------------------------------------------------------- */

/* Destroys everything the input created, whatever state it left cuvk in;
 * results are ignored (an object may already be gone with its context). */
static void
cleanup(void)
{
   CUcontext c;
   hf_quiesce();
   /* What the input pushed comes off; the primary is made current below
    * whatever else the input did to the stack. */
   for (; S.pushes > 0; S.pushes--)
      cuCtxPopCurrent(&c);
   /* The primary comes back first: the objects below are destroyed in
    * whatever context is current, and an input may have released it. */
   while (S.primary_retains < 0) {
      if (cuDevicePrimaryCtxRetain(&c, S.dev) != CUDA_SUCCESS)
         abort();
      S.primary = c;
      S.primary_retains++;
   }
   /* cuDevicePrimaryCtxReset leaves the primary unretained in cuvk: the
    * harness's own reference went with it. */
   unsigned flags;
   int active = 0;
   cuDevicePrimaryCtxGetState(S.dev, &flags, &active);
   if (!active) {
      if (cuDevicePrimaryCtxRetain(&c, S.dev) != CUDA_SUCCESS)
         abort();
      S.primary = c;
      S.primary_retains = 0;
   }
   cuCtxSetCurrent(S.primary);

   struct pool *pl;
   pl = &S.pool[P_MAPPING];
   for (unsigned i = 0; i < pl->n; i++)
      if (pl->s[i].live)
         cuMemUnmap(pl->s[i].h, pl->s[i].size);
   pl = &S.pool[P_VMM];
   for (unsigned i = 0; i < pl->n; i++)
      if (pl->s[i].live)
         cuMemRelease(pl->s[i].h);
   pl = &S.pool[P_DPTR];
   for (unsigned i = 0; i < pl->n; i++) {
      if (!pl->s[i].live)
         continue;
      if (pl->s[i].kind == DPTR_ALLOC || pl->s[i].kind == DPTR_EXT)
         cuMemFree(pl->s[i].h);
      else if (pl->s[i].kind == DPTR_RESERVED)
         cuMemAddressFree(pl->s[i].h, pl->s[i].size);
   }
   pl = &S.pool[P_ARRAY];
   for (unsigned i = 0; i < pl->n; i++)
      if (pl->s[i].live && pl->s[i].kind == 0)
         cuArrayDestroy((CUarray)(uintptr_t)pl->s[i].h);
   pl = &S.pool[P_MIPMAP];
   for (unsigned i = 0; i < pl->n; i++)
      if (pl->s[i].live)
         cuMipmappedArrayDestroy((CUmipmappedArray)(uintptr_t)pl->s[i].h);
   pl = &S.pool[P_EXT];
   for (unsigned i = 0; i < pl->n; i++)
      if (pl->s[i].live)
         cuDestroyExternalMemory((CUexternalMemory)(uintptr_t)pl->s[i].h);
   pl = &S.pool[P_SEM];
   for (unsigned i = 0; i < pl->n; i++)
      if (pl->s[i].live)
         cuDestroyExternalSemaphore((CUexternalSemaphore)(uintptr_t)pl->s[i].h);
   pl = &S.pool[P_EVENT];
   for (unsigned i = 0; i < pl->n; i++)
      if (pl->s[i].live)
         cuEventDestroy((CUevent)(uintptr_t)pl->s[i].h);
   pl = &S.pool[P_STREAM];
   for (unsigned i = 0; i < pl->n; i++)
      if (pl->s[i].live)
         cuStreamDestroy((CUstream)(uintptr_t)pl->s[i].h);
   pl = &S.pool[P_PINNED];
   for (unsigned i = 0; i < pl->n; i++)
      if (pl->s[i].live)
         cuMemFreeHost((void *)(uintptr_t)pl->s[i].h);
   pl = &S.pool[P_REG];
   for (unsigned i = 0; i < pl->n; i++)
      if (pl->s[i].live)
         cuMemHostUnregister((void *)(uintptr_t)pl->s[i].h);
   pl = &S.pool[P_CTX];
   for (unsigned i = 0; i < pl->n; i++)
      if (pl->s[i].live)
         cuCtxDestroy((CUcontext)(uintptr_t)pl->s[i].h);
   while (S.primary_retains > 0) {
      cuDevicePrimaryCtxRelease(S.dev);
      S.primary_retains--;
   }
   cuCtxSetCurrent(S.primary);
   /* Deferred frees run once the GPU is done with them. */
   cuCtxSynchronize();

   /* Every host function has run now (or was dropped with its context):
    * the records are free again. */
   for (unsigned i = 0; i < HF_RECORDS; i++)
      atomic_store(&hf_records[i].busy, false);
   /* The exporters go last: cuvk's imports hold references of their own,
    * and the harness's signals on its queue must be done. */
   pl = &S.pool[P_SEMSRC];
   if (have_vk)
      vkQueueWaitIdle(vk.queue);
   for (unsigned i = 0; i < pl->n; i++)
      if (pl->s[i].live)
         semsrc_destroy(&pl->s[i]);

   pl = &S.pool[P_FD];
   for (unsigned i = 0; i < pl->n; i++)
      close((int)pl->s[i].h);

   CUdevice dev = S.dev;
   CUcontext primary = S.primary;
   memset(&S, 0, sizeof(S));
   S.dev = dev;
   S.primary = primary;
}

/* At exit the harness's own references go, so that cuvk destroys its
 * devices before LeakSanitizer's last look: lavapipe keeps pointers to a
 * live pipeline's memory where LeakSanitizer does not see them, and
 * reports them as leaked while the VkDevice exists. */
static void
teardown(void)
{
   cuDevicePrimaryCtxRelease(S.dev);
   if (have_vk) {
      vkDestroyBuffer(vk.device, exp_buffer, NULL);
      vkDestroyImage(vk.device, exp_image, NULL);
      vkFreeMemory(vk.device, exp_buffer_mem, NULL);
      vkFreeMemory(vk.device, exp_image_mem, NULL);
      vkh_finish(&vk);
   }
   free(host_buf);
}

/* Whether the exporter device can export semaphores of the kind as
 * OPAQUE_FD (with VK_LAYER_CUVK_interop on lavapipe, as xsems). */
static bool
semaphores_exportable(bool timeline)
{
   VkSemaphoreTypeCreateInfo type = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
      .semaphoreType = timeline ? VK_SEMAPHORE_TYPE_TIMELINE : VK_SEMAPHORE_TYPE_BINARY,
   };
   VkPhysicalDeviceExternalSemaphoreInfo info = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO,
      .pNext = &type,
      .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT,
   };
   VkExternalSemaphoreProperties props = { .sType = VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES };
   vkGetPhysicalDeviceExternalSemaphoreProperties(vk.physical_device, &info, &props);
   return props.externalSemaphoreFeatures & VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT;
}

static void
setup(void)
{
   /* cuInit can be called only once per process: the primary context,
    * one reference held by the harness, lives across inputs. */
   if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&S.dev, 0) != CUDA_SUCCESS ||
       cuDevicePrimaryCtxRetain(&S.primary, S.dev) != CUDA_SUCCESS ||
       cuCtxSetCurrent(S.primary) != CUDA_SUCCESS) {
      fprintf(stderr, "fuzz_api: cuvk did not initialise\n");
      abort();
   }
   CUmemAllocationProp prop = { .type = CU_MEM_ALLOCATION_TYPE_PINNED,
                                .location = { CU_MEM_LOCATION_TYPE_DEVICE, S.dev } };
   size_t g = 0;
   if (cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) == CUDA_SUCCESS && g)
      vmm_granularity = g;
   size_t total = 0;
   if (cuDeviceTotalMem(&total, S.dev) != CUDA_SUCCESS || total == 0)
      abort();
   dev_total = total;

   if (posix_memalign((void **)&host_buf, 4096, HOST_SIZE) != 0)
      abort();
   atexit(teardown);
   memset(host_buf, 0x5a, HOST_SIZE);

   proc_setup();

   /* The exporter.  Without it the fd imports still run, with bad fds
    * only, and the semaphores are xsems the harness makes. */
   if (getenv("CUVK_FUZZ_NO_EXPORTER"))
      return;
   static const char *const semaphore_extensions[] = { VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME };
   static VkPhysicalDeviceVulkan12Features features12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
      .timelineSemaphore = VK_TRUE,
   };
   const struct vkh_options with_semaphores = {
      .device_extensions = semaphore_extensions,
      .device_extension_count = 1,
      .device_pnext = &features12,
   };
   if (vkh_init(&vk, "fuzz_api", &with_semaphores)) {
      get_semaphore_fd = (PFN_vkGetSemaphoreFdKHR)vkGetDeviceProcAddr(vk.device, "vkGetSemaphoreFdKHR");
      have_vk_semaphores = get_semaphore_fd && semaphores_exportable(false) && semaphores_exportable(true);
   } else if (!vkh_init(&vk, "fuzz_api", NULL)) {
      return;
   }
   have_vk = true;
   exp_buffer_size = 1 << 20;
   if (vkh_create_buffer(&vk, exp_buffer_size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                         VKH_OPAQUE_FD, &exp_buffer) != VK_SUCCESS ||
       vkh_allocate_for_buffer(&vk, exp_buffer, false, VKH_OPAQUE_FD, &exp_buffer_mem, &exp_buffer_size,
                               NULL) != VK_SUCCESS)
      abort();
   VkImageCreateInfo info = vkh_image_info_2d(VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 4, 1,
                                              VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                                 VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT);
   if (vkh_create_image(&vk, &info, VKH_OPAQUE_FD, &exp_image) != VK_SUCCESS ||
       vkh_allocate_for_image(&vk, exp_image, true, VKH_OPAQUE_FD, &exp_image_mem, &exp_image_size, NULL) !=
          VK_SUCCESS)
      abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Before the first input, so that what setup allocates for good is never
 * counted against an input by the leak check. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
   setup();
   ready = true;
   return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   if (!ready) {
      setup();
      ready = true;
   }
   struct fz f = { data, size };
   for (int i = 0; i < MAX_OPS && f.n; i++) {
      int op = u8(&f) % FZ_OP_COUNT;
      switch (op) {
      case FZ_CTX_CREATE: case FZ_CTX_DESTROY: case FZ_CTX_SET_CURRENT: case FZ_CTX_PUSH:
      case FZ_CTX_POP: case FZ_CTX_QUERY:
         op_ctx(&f, op);
         break;
      case FZ_PRIMARY: op_primary(&f); break;
      case FZ_MEM_ALLOC: case FZ_MEM_ALLOC_PITCH: case FZ_MEM_FREE: case FZ_MEM_QUERY:
         op_mem(&f, op);
         break;
      case FZ_HOST_ALLOC: case FZ_HOST_FREE: case FZ_HOST_REGISTER: case FZ_HOST_UNREGISTER:
         op_host(&f, op);
         break;
      case FZ_COPY: op_copy(&f); break;
      case FZ_MEMSET: op_memset(&f); break;
      case FZ_COPY_2D3D: op_copy_2d3d(&f); break;
      case FZ_ARRAY_CREATE: case FZ_ARRAY_OP: op_array(&f, op); break;
      case FZ_MIPMAP_CREATE: case FZ_MIPMAP_OP: op_mipmap(&f, op); break;
      case FZ_STREAM_CREATE: case FZ_STREAM_OP: op_stream(&f, op); break;
      case FZ_EVENT_CREATE: case FZ_EVENT_OP: op_event(&f, op); break;
      case FZ_STREAM_WAIT_EVENT: {
         CUstream st = pick_stream(&f);
         CUevent e = pick_event(&f);
         cuStreamWaitEvent(st, e, u8(&f) % 8 ? 0 : u32(&f));
         break;
      }
      case FZ_EXT_IMPORT: case FZ_EXT_MAP_BUFFER: case FZ_EXT_MAP_MIPMAP: case FZ_EXT_DESTROY:
         op_ext(&f, op);
         break;
      case FZ_VMM_RESERVE: case FZ_VMM_ADDRESS_FREE: case FZ_VMM_CREATE: case FZ_VMM_HANDLE_OP:
      case FZ_VMM_MAP: case FZ_VMM_UNMAP: case FZ_VMM_ACCESS: case FZ_VMM_SHARE:
         op_vmm(&f, op);
         break;
      case FZ_RUNTIME: op_runtime(&f); break;
      case FZ_SEM_IMPORT: op_sem_import(&f); break;
      case FZ_SEM_SIGNAL: op_sem_signal_wait(&f, false); break;
      case FZ_SEM_WAIT: op_sem_signal_wait(&f, true); break;
      case FZ_SEM_DESTROY: op_sem_destroy(&f); break;
      case FZ_HOST_FUNC: op_host_func(&f); break;
      case FZ_PROC_ADDRESS: op_proc_address(&f); break;
      default: op_misc(&f); break;
      }
   }
   cleanup();
   return 0;
}
