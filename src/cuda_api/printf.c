/*
 * Device printf, the host's half: the context's printf buffer
 * (compiler/kernel_abi.h says its layout) and the printing of its
 * records at the synchronisations CUDA prints at.
 *
 * Kernels append records; the host prints them in the order they were
 * reserved, each once, and keeps a read cursor.  Records of work still
 * running may be half written (their size word is still 0), so printing
 * stops at the first such record and goes on from there at the next
 * synchronisation.  The buffer is linear, not circular: head only goes
 * back to 0 when the host has printed everything and no kernel that
 * prints is queued or running (checked under the context lock, which
 * every launch holds while it records), so nothing can write while it is
 * emptied.  What does not fit until then is dropped, as CUDA drops what
 * does not fit its FIFO, and the log says so once per context.
 *
 * Nothing in a record is trusted: sizes are checked against the buffer,
 * argument reads against the record, and strings (%s, the format) are
 * read through cuvk's allocations with their bounds.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/kernel_abi.h"
#include "compiler/printf_format.h"
#include "cuda_api/context.h"
#include "cuda_api/memory.h"
#include "cuda_api/module.h"
#include "util/error.h"
#include "util/log.h"

/* The longest string a %s or a format may print, so a string without a
 * nul in a large allocation stays bounded. */
#define STRING_MAX (64u << 10)

struct cuvk_printf {
   struct cuvk_launch_buffer *buffer;
   uint8_t *map;
   VkDeviceAddress address;
   uint32_t capacity;        /* bytes of records */
   uint32_t read;            /* offset of the next record to print */
   uint64_t last_value;      /* newest work that may print */
   bool overflow_logged;
};

CUresult
cuvk_printf_launch(struct cuvk_context *ctx, uint64_t value, VkDeviceAddress *out)
{
   struct cuvk_printf *p = ctx->printf_fifo;
   if (!p) {
      size_t limit = __atomic_load_n(&ctx->limits[CU_LIMIT_PRINTF_FIFO_SIZE], __ATOMIC_RELAXED);
      /* The head counts bytes in 32 bits and stays below 2^31 plus one
       * record per racing thread. */
      if (limit > (1u << 30))
         limit = 1u << 30;
      if (limit < 4096)
         limit = 4096;
      p = calloc(1, sizeof(*p));
      if (!p)
         return cuvk_error(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory for the printf buffer");
      p->capacity = (uint32_t)limit & ~7u;
      CUresult res = cuvk_launch_buffer_create(ctx, CUVK_KERNEL_PRINTF_HEADER + p->capacity, &p->buffer,
                                               &p->map, &p->address);
      if (res != CUDA_SUCCESS) {
         free(p);
         return res;
      }
      memset(p->map, 0, CUVK_KERNEL_PRINTF_HEADER + p->capacity);
      uint32_t cap = p->capacity;
      memcpy(p->map + 4, &cap, 4);
      __atomic_store_n(&ctx->printf_fifo, p, __ATOMIC_RELEASE);
   }
   p->last_value = value;
   *out = p->address;
   return CUDA_SUCCESS;
}

bool
cuvk_printf_started(struct cuvk_context *ctx)
{
   return __atomic_load_n(&ctx->printf_fifo, __ATOMIC_ACQUIRE) != NULL;
}

/* Output collected for one flush, written with one fwrite. */
struct out {
   char *text;
   size_t len, cap;
   bool failed;
};

static void
out_append(struct out *o, const char *s, size_t n)
{
   if (o->failed || !n)
      return;
   if (o->len + n > o->cap) {
      size_t cap = o->cap ? o->cap : 4096;
      while (cap < o->len + n)
         cap *= 2;
      char *grown = realloc(o->text, cap);
      if (!grown) {
         o->failed = true;
         return;
      }
      o->text = grown;
      o->cap = cap;
   }
   memcpy(o->text + o->len, s, n);
   o->len += n;
}

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
static void
out_printf(struct out *o, const char *fmt, ...)
{
   va_list ap, ap2;
   va_start(ap, fmt);
   va_copy(ap2, ap);
   char small[256];
   int n = vsnprintf(small, sizeof(small), fmt, ap);
   if (n >= 0 && (size_t)n < sizeof(small)) {
      out_append(o, small, (size_t)n);
   } else if (n >= 0) {
      char *big = malloc((size_t)n + 1);
      if (big) {
         vsnprintf(big, (size_t)n + 1, fmt, ap2);
         out_append(o, big, (size_t)n);
         free(big);
      } else {
         o->failed = true;
      }
   }
   va_end(ap2);
   va_end(ap);
}
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* A string at the CUdeviceptr addr: through the allocation's host view,
 * else from a module variable's initial bytes (device-local memory the
 * host cannot map holds a module's strings as they were loaded).  Returns
 * a malloc'ed copy of at most STRING_MAX bytes, or NULL. */
static char *
device_string(struct cuvk_context *ctx, uint64_t addr)
{
   const uint8_t *src = NULL;
   uint64_t avail = 0;
   struct cuvk_mem_span span;
   if (addr && cuvk_mem_resolve(addr, &span) && span.map) {
      src = span.map;
      avail = span.avail;
   } else if (addr) {
      cuvk_list_for_each_entry(struct cuvk_module, mod, &ctx->modules, link) {
         for (size_t i = 0; i < mod->global_count && !src; i++) {
            const struct cuvk_cc_global *g = cuvk_cc_module_global(mod->cc, i);
            if (g->init && addr >= mod->global_ptrs[i] && addr - mod->global_ptrs[i] < g->size) {
               src = g->init + (addr - mod->global_ptrs[i]);
               avail = g->size - (addr - mod->global_ptrs[i]);
            }
         }
      }
   }
   if (!src)
      return NULL;
   size_t n = avail < STRING_MAX ? (size_t)avail : STRING_MAX;
   const uint8_t *nul = memchr(src, 0, n);
   if (nul)
      n = (size_t)(nul - src);
   char *s = malloc(n + 1);
   if (!s)
      return NULL;
   memcpy(s, src, n);
   s[n] = 0;
   return s;
}

/* Reads size bytes of the arguments at *off (aligned to size first);
 * false past their end. */
static bool
arg_read(const uint8_t *args, uint32_t bytes, uint32_t *off, unsigned size, uint64_t *value)
{
   uint32_t at = (*off + size - 1) / size * size;
   if (at > bytes || bytes - at < size)
      return false;
   if (size == 4) {
      uint32_t v;
      memcpy(&v, args + at, 4);
      *value = v;
   } else {
      memcpy(value, args + at, 8);
   }
   *off = at + size;
   return true;
}

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
/* One conversion with the host's printf: the format's flags, width and
 * precision as written, the length modifier the argument's size needs,
 * the conversion; '*' values first. */
static void
print_conv(struct out *o, const char *fmt, const struct cuvk_printf_conv *c, const int *stars,
           uint64_t value, const char *str)
{
   char spec[96];
   size_t n = c->spec_end - c->start;
   if (n > sizeof(spec) - 8) {
      out_append(o, fmt + c->start, c->end - c->start);
      return;
   }
   memcpy(spec, fmt + c->start, n);
   if (c->arg == CUVK_PRINTF_ARG_INT && c->size == 8) {
      spec[n++] = 'l';
      spec[n++] = 'l';
   } else if (c->arg == CUVK_PRINTF_ARG_INT && c->conv != 'c') {
      /* h and hh narrow the int as the device's printf would. */
      for (size_t i = c->spec_end; i < c->end - 1 && n < sizeof(spec) - 4; i++)
         if (fmt[i] == 'h')
            spec[n++] = 'h';
   }
   spec[n++] = c->conv;
   spec[n] = 0;

#define CONV(v)                                                                    \
   do {                                                                            \
      if (c->stars == 2)                                                           \
         out_printf(o, spec, stars[0], stars[1], v);                               \
      else if (c->stars == 1)                                                      \
         out_printf(o, spec, stars[0], v);                                         \
      else                                                                         \
         out_printf(o, spec, v);                                                   \
   } while (0)
   double d;
   switch (c->arg) {
   case CUVK_PRINTF_ARG_INT:
      if (c->size == 8)
         CONV((long long)value);
      else
         CONV((int)(uint32_t)value);
      break;
   case CUVK_PRINTF_ARG_DOUBLE:
      memcpy(&d, &value, 8);
      CONV(d);
      break;
   case CUVK_PRINTF_ARG_STRING:
      CONV(str);
      break;
   case CUVK_PRINTF_ARG_POINTER:
      CONV((void *)(uintptr_t)value);
      break;
   default:
      break;
   }
#undef CONV
}
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* One record: its format from device memory, its arguments from args. */
static void
print_record(struct cuvk_context *ctx, struct out *o, uint64_t format, const uint8_t *args,
             uint32_t arg_bytes)
{
   char *fmt = device_string(ctx, format);
   if (!fmt) {
      cuvk_logw("printf: a kernel's format string at 0x%" PRIx64 " is in no allocation; "
                "its record is skipped", format);
      return;
   }
   size_t len = strlen(fmt), pos = 0, text = 0;
   uint32_t off = 0;
   struct cuvk_printf_conv c;
   while (cuvk_printf_next(fmt, len, &pos, &c)) {
      out_append(o, fmt + text, c.start - text);
      text = c.end;
      if (c.conv == '%') {
         out_append(o, "%", 1);
         continue;
      }
      if (!c.conv) {
         out_append(o, fmt + c.start, c.end - c.start);
         continue;
      }
      int stars[2] = {0, 0};
      uint64_t value = 0;
      bool ok = true;
      for (unsigned s = 0; s < c.stars && ok; s++) {
         uint64_t v;
         ok = arg_read(args, arg_bytes, &off, 4, &v);
         stars[s] = (int)(uint32_t)v;
      }
      ok = ok && arg_read(args, arg_bytes, &off, c.size, &value);
      if (!ok) {
         /* The record is shorter than its format says: the device's bytes
          * are not what this format describes. */
         out_append(o, "<missing argument>", 18);
         continue;
      }
      char *str = NULL;
      if (c.arg == CUVK_PRINTF_ARG_STRING) {
         str = value ? device_string(ctx, value) : NULL;
         if (!str) {
            print_conv(o, fmt, &c, stars, 0, value ? "<bad string>" : "(null)");
            continue;
         }
      }
      print_conv(o, fmt, &c, stars, value, str);
      free(str);
   }
   out_append(o, fmt + text, len - text);
   free(fmt);
}

/* Prints complete records from p->read on; the context lock is held. */
static void
print_records(struct cuvk_context *ctx, struct cuvk_printf *p, struct out *o)
{
   uint32_t head = __atomic_load_n((uint32_t *)p->map, __ATOMIC_ACQUIRE);
   uint32_t end = head < p->capacity ? head : p->capacity;
   uint8_t *data = p->map + CUVK_KERNEL_PRINTF_HEADER;

   while (p->read < end && end - p->read >= CUVK_KERNEL_PRINTF_RECORD) {
      uint8_t *rec = data + p->read;
      uint32_t size = __atomic_load_n((uint32_t *)rec, __ATOMIC_ACQUIRE);
      if (size == 0)
         break; /* still being written */
      uint32_t arg_bytes;
      uint64_t format;
      memcpy(&arg_bytes, rec + 4, 4);
      memcpy(&format, rec + 8, 8);
      if (size % 8 || size < CUVK_KERNEL_PRINTF_RECORD || size > end - p->read ||
          arg_bytes > size - CUVK_KERNEL_PRINTF_RECORD) {
         cuvk_loge("printf: a record at offset %u of the printf buffer is damaged (size %u, %u "
                   "argument bytes); the rest of the buffer is not printed", p->read, size, arg_bytes);
         p->read = end;
         break;
      }
      print_record(ctx, o, format, rec + CUVK_KERNEL_PRINTF_RECORD, arg_bytes);
      p->read += size;
   }
   /* A full buffer (head stops growing there) may have dropped records. */
   if (head >= p->capacity && !p->overflow_logged) {
      p->overflow_logged = true;
      cuvk_logw("printf: kernels filled the %u bytes of the printf buffer "
                "(CU_LIMIT_PRINTF_FIFO_SIZE) between synchronisations; what did not fit was "
                "dropped, as on CUDA", p->capacity);
   }
   /* Empty again once nothing that prints can still run (a record left
    * unprinted then is one that did not fit): every launch records under
    * the lock held here, so none starts meanwhile. */
   /* Launches of every lane print here: with several lanes, "nothing
    * can still run" is the frontier, not the newest launch's point. */
   struct cuvk_frontier now;
   cuvk_submit_frontier(ctx, &now);
   bool quiet = ctx->submit.lane_count == 1 ? cuvk_submit_point_passed(ctx, p->last_value) :
                cuvk_submit_frontier_passed(ctx, &now);
   if (quiet) {
      memset(data, 0, end);
      __atomic_store_n((uint32_t *)p->map, 0, __ATOMIC_RELEASE);
      p->read = 0;
   }
}

void
cuvk_printf_flush(struct cuvk_context *ctx)
{
   struct cuvk_printf *p = __atomic_load_n(&ctx->printf_fifo, __ATOMIC_ACQUIRE);
   if (!p)
      return;
   struct out o = {0};
   pthread_mutex_lock(&ctx->lock);
   cuvk_submit_retire(ctx);
   print_records(ctx, p, &o);
   /* Written under the lock, so two threads' flushes keep their order. */
   if (o.len) {
      fwrite(o.text, 1, o.len, stdout);
      fflush(stdout);
   }
   pthread_mutex_unlock(&ctx->lock);
   if (o.failed)
      cuvk_loge("printf: out of host memory formatting kernels' output; some was not printed");
   free(o.text);
}

void
cuvk_printf_finish(struct cuvk_context *ctx)
{
   struct cuvk_printf *p = ctx->printf_fifo;
   if (!p)
      return;
   cuvk_printf_flush(ctx);
   cuvk_launch_buffer_destroy(ctx->vk, p->buffer);
   free(p);
   ctx->printf_fifo = NULL;
}
