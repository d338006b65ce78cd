/*
 * Writes the seed inputs of tests/fuzz/corpus/: the flows of the normal
 * suites, spelled in fuzz_api's encoding (fuzz_ops.h), so that the fuzzer
 * starts from inputs that get far (an import that succeeds, a VMM range
 * that is mapped) and mutates from there.
 *
 *    fuzz_gen_corpus FOLDER     writes FOLDER/api/seed-* and FOLDER/preinit/seed-*
 *
 * Each step below notes the argument bytes it gives, in the order
 * fuzz_api.c reads them.  Indices pick a pool's entries in the order they
 * were created (dead ones included); 2 as a size class means "the
 * natural size" (an allocation's, the exporter's).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_ops.h"

struct seed {
   uint8_t b[512];
   size_t n;
};

static void
put(struct seed *s, int count, ...)
{
   va_list ap;
   va_start(ap, count);
   for (int i = 0; i < count; i++) {
      int v = va_arg(ap, int);
      if (s->n < sizeof(s->b))
         s->b[s->n++] = (uint8_t)v;
   }
   va_end(ap);
}

/* ---- steps: one operation each ----------------------------------------- */

/* cuMemAlloc of 4096 bytes (size class 2, not the "more than the
 * device has" choice, then a non-NULL output). */
static void alloc(struct seed *s) { put(s, 4, FZ_MEM_ALLOC, 2, 1, 1); }
/* cuMemFree of the idx-th device pointer. */
static void mfree(struct seed *s, int idx) { put(s, 3, FZ_MEM_FREE, idx, 0); }
/* Copies of a whole device range from and to the host buffer; async on
 * the default stream when async. */
static void htod(struct seed *s, int idx, int async) { put(s, 7, FZ_COPY, 0 | (async ? 0x80 : 0), 0, idx, 0, 2, 2); }
static void dtoh(struct seed *s, int idx, int async) { put(s, 7, FZ_COPY, 1 | (async ? 0x80 : 0), 0, idx, 0, 2, 2); }
static void dtod(struct seed *s, int d, int src) { put(s, 8, FZ_COPY, 2, 0, d, 0, src, 0, 2); }
/* cuMemsetD8 of a whole range; on the first created stream when async. */
static void
memset8(struct seed *s, int idx, int async)
{
   if (async)
      put(s, 10, FZ_MEMSET, 6, 3, 0, idx, 0, 0x5a, 0, 0, 0);
   else
      put(s, 9, FZ_MEMSET, 0, 0, idx, 0, 0x5a, 0, 0, 0);
   put(s, 1, 2);
}
static void stream_create(struct seed *s) { put(s, 5, FZ_STREAM_CREATE, 1, 0, 1, 1); }
static void stream_sync(struct seed *s, int idx) { put(s, 3, FZ_STREAM_OP, 0x83, idx); }
static void stream_destroy(struct seed *s, int idx) { put(s, 3, FZ_STREAM_OP, 0x81, idx); }
static void event_create(struct seed *s) { put(s, 3, FZ_EVENT_CREATE, 1, 0); }
static void event_record(struct seed *s, int ev, int st) { put(s, 5, FZ_EVENT_OP, 0, ev, 3, st); }
static void event_query(struct seed *s, int ev) { put(s, 3, FZ_EVENT_OP, 2, ev); }
static void event_sync(struct seed *s, int ev) { put(s, 3, FZ_EVENT_OP, 3, ev); }
static void event_destroy(struct seed *s, int ev) { put(s, 3, FZ_EVENT_OP, 5, ev); }
static void wait_event(struct seed *s, int st, int ev) { put(s, 5, FZ_STREAM_WAIT_EVENT, 3, st, ev, 1); }
/* Imports of the exporter's buffer memory and dedicated image memory. */
static void import_buffer(struct seed *s) { put(s, 7, FZ_EXT_IMPORT, 0, 0, 1, 2, 1, 2); }
static void import_image(struct seed *s) { put(s, 7, FZ_EXT_IMPORT, 3, 0, 1, 2, 1, 2); }
/* The whole of the idx-th import as a buffer. */
static void map_buffer(struct seed *s, int idx) { put(s, 7, FZ_EXT_MAP_BUFFER, idx, 1, 1, 1, 1, 2); }
/* The exported image as a mipmapped array (64x64 RGBA8, 4 levels). */
static void map_mipmap(struct seed *s, int idx) { put(s, 6, FZ_EXT_MAP_MIPMAP, idx, 1, 7, 1, 2); }
static void ext_destroy(struct seed *s, int idx) { put(s, 2, FZ_EXT_DESTROY, idx); }
static void mip_level(struct seed *s, int m, int l) { put(s, 4, FZ_MIPMAP_OP, 0, m, l); }
static void mip_destroy(struct seed *s, int m) { put(s, 3, FZ_MIPMAP_OP, 2, m); }
/* 4096 bytes between the host buffer and an array. */
static void htoa(struct seed *s, int a) { put(s, 6, FZ_COPY, 0x14, 0, a, 0, 2); put(s, 1, 2); }
static void atoh(struct seed *s, int a) { put(s, 6, FZ_COPY, 0x04, 0, a, 0, 2); put(s, 1, 2); }
/* A 64x64 four-channel 8-bit array (cuArrayCreate). */
static void array_create(struct seed *s) { put(s, 10, FZ_ARRAY_CREATE, 7, 7, 0, 0, 4, 0, 1, 1, 1); }
static void array_destroy(struct seed *s, int a) { put(s, 3, FZ_ARRAY_OP, 2, a); }
static void array_desc(struct seed *s, int a) { put(s, 4, FZ_ARRAY_OP, 0, a, 1); }
/* Two granules of address space; two granules of memory (posix fd
 * shareable when shareable). */
static void vmm_reserve(struct seed *s) { put(s, 7, FZ_VMM_RESERVE, 1, 1, 0, 1, 1, 1); }
static void vmm_create(struct seed *s, int shareable) { put(s, 5, FZ_VMM_CREATE, shareable ? 0 : 9, 1, 1, 3); }
static void vmm_map(struct seed *s, int res, int h) { put(s, 7, FZ_VMM_MAP, res, 0, h, 1, 1, 1); }
static void vmm_access(struct seed *s, int m) { put(s, 8, FZ_VMM_ACCESS, 0, m, 1, 3, 3, 1, 1); }
static void vmm_unmap(struct seed *s, int m) { put(s, 3, FZ_VMM_UNMAP, m, 1); }
static void vmm_release(struct seed *s, int h) { put(s, 3, FZ_VMM_HANDLE_OP, 2, h); }
static void vmm_free(struct seed *s, int res) { put(s, 4, FZ_VMM_ADDRESS_FREE, res, 0, 1); }
static void vmm_export(struct seed *s, int h) { put(s, 6, FZ_VMM_SHARE, 0, h, 0, 1, 1); }
static void vmm_import(struct seed *s) { put(s, 6, FZ_VMM_SHARE, 1, 1, 0, 1, 1); }
/* cuMemRetainAllocationHandle at the m-th mapping's address. */
static void vmm_retain(struct seed *s, int m) { put(s, 5, FZ_VMM_HANDLE_OP, 1, 0, m, 1); }
static void ctx_create(struct seed *s) { put(s, 4, FZ_CTX_CREATE, 0, 1, 0); }
static void ctx_destroy(struct seed *s, int c) { put(s, 3, FZ_CTX_DESTROY, 1, c); }
static void ctx_push_primary(struct seed *s) { put(s, 2, FZ_CTX_PUSH, 0); }
static void ctx_pop(struct seed *s) { put(s, 2, FZ_CTX_POP, 1); }
static void ctx_sync(struct seed *s) { put(s, 2, FZ_CTX_QUERY, 3); }
static void set_current_primary(struct seed *s) { put(s, 2, FZ_CTX_SET_CURRENT, 0); }
static void host_alloc(struct seed *s) { put(s, 5, FZ_HOST_ALLOC, 3, 2, 1, 0); }
static void host_devptr(struct seed *s, int p) { put(s, 4, FZ_HOST_FREE, 1, p, 1); }
static void host_free(struct seed *s, int p) { put(s, 3, FZ_HOST_FREE, 3, p); }
static void host_register(struct seed *s) { put(s, 6, FZ_HOST_REGISTER, 0, 1, 2, 1, 0); }
static void host_unregister(struct seed *s, int r) { put(s, 2, FZ_HOST_UNREGISTER, r); }
static void primary_release(struct seed *s) { put(s, 3, FZ_PRIMARY, 1, 1); }
static void primary_retain(struct seed *s) { put(s, 3, FZ_PRIMARY, 1, 0); }
static void error_name(struct seed *s) { put(s, 7, FZ_MISC, 1, 1, 0, 1, 0, 1); }
/* The runtime API: cudaMalloc of 4096 bytes, cudaMemcpy of a whole range
 * (cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost), cudaMemset, cudaFree. */
static void rt_malloc(struct seed *s) { put(s, 5, FZ_RUNTIME, 0, 2, 1, 1); }
static void rt_htod(struct seed *s, int idx) { put(s, 9, FZ_RUNTIME, 2, 0, 1, idx, 0, 2, 2, 1); }
static void rt_dtoh(struct seed *s, int idx) { put(s, 9, FZ_RUNTIME, 2, 1, 0, 2, idx, 0, 2, 2); }
static void rt_memset(struct seed *s, int idx) { put(s, 10, FZ_RUNTIME, 4, idx, 0, 2, 0x11, 0, 0, 0, 1); }
static void rt_free(struct seed *s, int idx) { put(s, 4, FZ_RUNTIME, 1, idx, 0); }

/* External semaphores: an import of a new exporter of the kind (0 binary
 * xsem, 1 timeline xsem, 2 binary Vulkan semaphore, 3 timeline Vulkan
 * semaphore), of the natural handle type, flags 0, through the driver API
 * (how 4) or the runtime's (how 2). */
static void sem_import(struct seed *s, int kind, int how) { put(s, 5, FZ_SEM_IMPORT, kind, 0, 1, how); }
/* A second import of the idx-th live exporter. */
static void sem_reimport(struct seed *s, int idx) { put(s, 6, FZ_SEM_IMPORT, 4, idx, 0, 1, 4); }
/* An import of a bad fd: fdkind as pick_fd reads it (5 -1, 6 just
 * closed, 7 a pipe, 8 /dev/null, 9 a regular file, 0 a memory export). */
static void
sem_import_fd(struct seed *s, int fdkind, int type)
{
   put(s, 3, FZ_SEM_IMPORT, 5, fdkind);
   if (fdkind == 9)
      put(s, 1, 1);
   put(s, 3, type, 1, 4);
}
/* A signal or wait of one semaphore (the idx-th import), value chosen by
 * vsel (0 the next, 2 the same, 3 one back, 4 zero), on the default stream
 * or the st-th created one (st >= 0), driver API. */
static void
sem_op(struct seed *s, int op, int idx, int vsel, int st)
{
   put(s, 5, op, 1, idx, vsel, 1);
   if (st >= 0)
      put(s, 2, 3, st);
   else
      put(s, 1, 0);
   put(s, 2, 4, 1);
}
static void sem_signal(struct seed *s, int idx, int vsel, int st) { sem_op(s, FZ_SEM_SIGNAL, idx, vsel, st); }
/* The harness signals the exporter after the call, or before when first. */
static void
sem_wait(struct seed *s, int idx, int vsel, int st, int first)
{
   sem_op(s, FZ_SEM_WAIT, idx, vsel, st);
   put(s, 1, first);
}
static void sem_destroy(struct seed *s, int idx) { put(s, 3, FZ_SEM_DESTROY, 0, idx); }
/* A host function (api: 0 cuLaunchHostFunc, 1 cuStreamAddCallback, 2 and
 * 3 the runtime's) on the st-th created stream (or the default, st < 0);
 * behaviour b (0 returns, 1 late, 2 queries cuvk, 3 both; the sleep is
 * b / 4 * 400 us), no event or pointer, then sync (0 synchronise, 2 not). */
static void
host_func(struct seed *s, int api, int st, int b, int sync)
{
   put(s, 3, FZ_HOST_FUNC, api, 1);
   if (st >= 0)
      put(s, 2, 3, st);
   else
      put(s, 1, 0);
   put(s, 5, b, 0, 9, 9, 1);
   put(s, 1, sync);
}
/* cuGetProcAddress_v2 of proc_names[idx] (fuzz_api.c) for CUDA 13.0,
 * flags as given, then a call of the result with non-NULL outputs; the
 * caller adds the bytes of its other arguments. */
static void proc(struct seed *s, int idx, int flags) { put(s, 7, FZ_PROC_ADDRESS, 0, idx, 14, flags, 0x10, 1); }
/* The same by an unsupported name (index lo + 256 hi). */
static void proc_unsupported(struct seed *s, int lo, int hi) { put(s, 7, FZ_PROC_ADDRESS, 2, lo, hi, 14, 0, 0x30); put(s, 2, lo, hi); }

/* ---- the seeds: flows of the normal suites ------------------------------ */

static void
seed_memory(struct seed *s) /* api.copy.*, api.errors.free_twice, memcpy_unknown_pointer */
{
   alloc(s);
   alloc(s);
   htod(s, 0, 0);
   dtod(s, 1, 0);
   dtoh(s, 1, 0);
   memset8(s, 0, 0);
   mfree(s, 0);
   mfree(s, 0);    /* twice */
   htod(s, 0, 0);  /* into freed memory */
   dtoh(s, 1, 1);
}

static void
seed_stream_event(struct seed *s) /* api.stream.*, api.event.* */
{
   alloc(s);
   stream_create(s);
   event_create(s);
   memset8(s, 0, 1);
   event_record(s, 0, 0);
   wait_event(s, 0, 0);
   event_query(s, 0);
   event_sync(s, 0);
   stream_sync(s, 0);
   stream_destroy(s, 0);
   event_record(s, 0, 0); /* on a destroyed stream */
   event_destroy(s, 0);
   event_query(s, 0);     /* a destroyed event */
}

static void
seed_interop_buffer(struct seed *s) /* external_memory.cuda_reads_vulkan.* */
{
   import_buffer(s);
   map_buffer(s, 0);
   htod(s, 0, 0);
   dtoh(s, 0, 0);
   ext_destroy(s, 0);
   dtoh(s, 0, 0);      /* the mapping outlives the import */
   map_buffer(s, 0);   /* of a destroyed import */
   mfree(s, 0);
}

static void
seed_interop_image(struct seed *s) /* external_memory.image.*, array external */
{
   import_image(s);
   map_mipmap(s, 0);
   mip_level(s, 0, 0);
   htoa(s, 0);
   atoh(s, 0);
   mip_destroy(s, 0);
   atoh(s, 0);         /* a level of a destroyed mipmapped array */
   ext_destroy(s, 0);
}

static void
seed_vmm(struct seed *s) /* vmm.* */
{
   vmm_reserve(s);
   vmm_create(s, 0);
   vmm_map(s, 0, 0);
   vmm_access(s, 0);
   htod(s, 0, 0);
   dtoh(s, 0, 0);
   vmm_retain(s, 0);
   vmm_release(s, 0);
   vmm_unmap(s, 0);
   vmm_release(s, 1);
   htod(s, 0, 0);      /* unmapped */
   vmm_free(s, 0);
}

static void
seed_vmm_share(struct seed *s) /* vmm shareable fds */
{
   vmm_create(s, 1);
   vmm_export(s, 0);
   vmm_import(s);
   vmm_reserve(s);
   vmm_map(s, 0, 1);
   vmm_access(s, 0);
   htod(s, 0, 0);
   vmm_unmap(s, 0);
   vmm_release(s, 0);
   vmm_release(s, 1);
}

static void
seed_context(struct seed *s) /* api.context.* */
{
   ctx_create(s);
   alloc(s);
   stream_create(s);
   ctx_push_primary(s);
   alloc(s);
   dtod(s, 1, 0);      /* across contexts */
   ctx_pop(s);
   ctx_destroy(s, 0);  /* with live objects */
   htod(s, 0, 0);      /* memory of a destroyed context */
   stream_sync(s, 0);
   set_current_primary(s);
   ctx_sync(s);
}

static void
seed_array(struct seed *s) /* array.* */
{
   array_create(s);
   htoa(s, 0);
   atoh(s, 0);
   array_desc(s, 0);
   array_destroy(s, 0);
   array_desc(s, 0);
   atoh(s, 0);
}

static void
seed_host(struct seed *s) /* api.memory.host.*, register.* */
{
   host_alloc(s);
   host_devptr(s, 0);
   alloc(s);
   dtod(s, 1, 0);
   host_register(s);
   htod(s, 1, 1);
   host_unregister(s, 0);
   host_free(s, 0);
   host_free(s, 0);
}

static void
seed_primary(struct seed *s) /* api.context.primary.* */
{
   alloc(s);
   primary_release(s);
   alloc(s);
   primary_retain(s);
   set_current_primary(s);
   htod(s, 0, 0);
   error_name(s);
}

static void
seed_runtime(struct seed *s) /* runtime.* */
{
   rt_malloc(s);
   rt_htod(s, 0);
   rt_memset(s, 0);
   rt_dtoh(s, 0);
   rt_free(s, 0);
   rt_free(s, 0);     /* twice */
   rt_dtoh(s, 0);     /* from freed memory */
}

static void
seed_semaphore_xsem(struct seed *s) /* external_semaphore.xsem.* */
{
   sem_import(s, 0, 4);
   sem_import(s, 1, 4);
   stream_create(s);
   alloc(s);
   memset8(s, 0, 1);
   sem_signal(s, 0, 0, 0);
   sem_wait(s, 0, 0, 0, 0);
   sem_signal(s, 1, 0, 0);
   sem_wait(s, 1, 0, 0, 1);
   sem_signal(s, 1, 3, 0);   /* backwards */
   sem_wait(s, 1, 3, -1, 0); /* a value passed already */
   stream_sync(s, 0);
   sem_destroy(s, 0);
   sem_destroy(s, 0);        /* twice */
   sem_signal(s, 0, 0, 0);   /* destroyed */
   stream_destroy(s, 0);
   sem_wait(s, 1, 0, 0, 0);  /* on a destroyed stream */
   ctx_sync(s);
}

static void
seed_semaphore_vulkan(struct seed *s) /* external_semaphore.{opaque_fd.binary,timeline_fd}.* */
{
   sem_import(s, 2, 4);
   sem_import(s, 3, 2);      /* the runtime's import */
   sem_reimport(s, 0);
   stream_create(s);
   sem_wait(s, 0, 0, 0, 0);
   sem_signal(s, 2, 0, 0);   /* the second import of the same semaphore */
   sem_wait(s, 1, 0, 0, 1);
   sem_signal(s, 1, 0, -1);
   ctx_sync(s);
   sem_destroy(s, 1);
   sem_destroy(s, 0);
}

static void
seed_semaphore_bad(struct seed *s) /* external_semaphore.invalid.* */
{
   sem_import_fd(s, 5, 0);
   sem_import_fd(s, 6, 0);
   sem_import_fd(s, 7, 0);
   sem_import_fd(s, 8, 5);   /* the timeline type */
   sem_import_fd(s, 9, 0);
   sem_import_fd(s, 0, 0);   /* memory, not a semaphore */
   put(s, 5, FZ_SEM_IMPORT, 0, 7, 1, 4); /* a Windows type */
   put(s, 5, FZ_SEM_IMPORT, 0, 0, 1, 0); /* NULL output */
   put(s, 8, FZ_SEM_IMPORT, 1, 0, 0, 1, 0, 0, 0); put(s, 1, 4); /* flags 1 */
   sem_import(s, 1, 4);
   put(s, 5, FZ_SEM_SIGNAL, 0, 0, 4, 1);    /* no semaphores */
   put(s, 8, FZ_SEM_WAIT, 1, 0, 0, 1, 0, 0, 1); put(s, 1, 0); /* NULL arrays */
   put(s, 8, FZ_SEM_SIGNAL, 9, 0, 0, 1, 0, 4, 1); /* 63 semaphores */
}

static void
seed_host_func(struct seed *s) /* host_func.* */
{
   stream_create(s);
   alloc(s);
   memset8(s, 0, 1);
   host_func(s, 0, 0, 1 + 4 * 10, 2); /* late */
   host_func(s, 1, 0, 2, 2);          /* calls cuvk */
   host_func(s, 2, -1, 0, 0);
   host_func(s, 3, 0, 3 + 4 * 2, 0);
   stream_destroy(s, 0);
   host_func(s, 0, 0, 0, 2);          /* a destroyed stream */
   put(s, 3, FZ_HOST_FUNC, 0, 0);     /* NULL fn */
   put(s, 7, 0, 0, 0, 0, 9, 1, 2);
   ctx_sync(s);
}

static void
seed_proc_address(struct seed *s) /* api.exports.* */
{
   proc(s, 0, 0);            /* cuDriverGetVersion */
   proc(s, 7, 2);            /* cuStreamQuery, per-thread: cuStreamQuery_ptsz */
   put(s, 1, 0);             /* ... of the NULL stream */
   proc(s, 5, 0);            /* cuCtxSynchronize: cuCtxSynchronize_v2 for CUDA 13 */
   put(s, 1, 0);             /* ... of the primary */
   proc(s, 16, 0);           /* cuGetProcAddress itself */
   proc_unsupported(s, 0, 0);
   put(s, 7, FZ_PROC_ADDRESS, 3, 10, 2, 14, 0, 0); /* cuMemGetInfo_ptds */
   put(s, 5, FZ_PROC_ADDRESS, 5, 14, 0, 0);        /* NULL name */
   put(s, 6, FZ_PROC_ADDRESS, 0, 17, 1, 3, 3);     /* cuMemAlloc for CUDA -1, both flags, v1 */
}

static int
write_seed(const char *dir, const char *name, void (*fill)(struct seed *))
{
   struct seed s = { .n = 0 };
   fill(&s);
   char path[4096];
   snprintf(path, sizeof(path), "%s/seed-%s", dir, name);
   FILE *f = fopen(path, "wb");
   if (!f || fwrite(s.b, 1, s.n, f) != s.n || fclose(f) != 0) {
      fprintf(stderr, "fuzz_gen_corpus: cannot write %s: %s\n", path, strerror(errno));
      return 1;
   }
   return 0;
}

static void
preinit_all(struct seed *s)
{
   /* Every call of fuzz_preinit once, with pointers and without. */
   for (int i = 0; i < 36; i++)
      put(s, 2, i, i & 1 ? 0x01 : 0x0e);
}

int
main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: %s FOLDER\n", argv[0]);
      return 2;
   }
   char api[4096], pre[4096];
   snprintf(api, sizeof(api), "%s/api", argv[1]);
   snprintf(pre, sizeof(pre), "%s/preinit", argv[1]);
   mkdir(argv[1], 0777);
   mkdir(api, 0777);
   mkdir(pre, 0777);
   int bad = 0;
   bad |= write_seed(api, "memory", seed_memory);
   bad |= write_seed(api, "stream_event", seed_stream_event);
   bad |= write_seed(api, "interop_buffer", seed_interop_buffer);
   bad |= write_seed(api, "interop_image", seed_interop_image);
   bad |= write_seed(api, "vmm", seed_vmm);
   bad |= write_seed(api, "vmm_share", seed_vmm_share);
   bad |= write_seed(api, "context", seed_context);
   bad |= write_seed(api, "array", seed_array);
   bad |= write_seed(api, "host", seed_host);
   bad |= write_seed(api, "primary", seed_primary);
   bad |= write_seed(api, "runtime", seed_runtime);
   bad |= write_seed(api, "semaphore_xsem", seed_semaphore_xsem);
   bad |= write_seed(api, "semaphore_vulkan", seed_semaphore_vulkan);
   bad |= write_seed(api, "semaphore_bad", seed_semaphore_bad);
   bad |= write_seed(api, "host_func", seed_host_func);
   bad |= write_seed(api, "proc_address", seed_proc_address);
   bad |= write_seed(pre, "all", preinit_all);
   return bad;
}
