/*
 * cuGetProcAddress: entry points by name, the way libraries that load
 * libcuda.so.1 at run time find them.  The name a caller asks for is the
 * plain one ("cuMemAlloc"); which exported symbol answers depends on the
 * CUDA version the caller was built for and on whether it wants the
 * per-thread default stream forms.  Every name NVIDIA's driver exports is
 * found, the ones cuvk does not implement included (unsupported.c): a
 * caller gets the same entry point as from dlsym.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

#include "util/error.h"
#include "util/log.h"
#include "util/macros.h"

/* Every symbol NVIDIA's libcuda.so.1 exports, by the name a caller asks
 * for, oldest version first: the symbol a caller built for CUDA version v
 * gets is the newest whose version is not above v, and its per-thread
 * default stream form is the entry of the same name whose symbol is that
 * symbol plus "_ptds" or "_ptsz".  Generated from nvidia_exports.txt. */
static const struct proc_entry {
   const char *name;
   int since;
   const char *symbol;
   bool per_thread;
} proc_table[] = {
#include "proc_table.h"
};

static int
proc_entry_cmp(const void *key, const void *elem)
{
   return strcmp(key, ((const struct proc_entry *)elem)->name);
}

/* Looks a symbol up in this library only, never in whatever else the
 * process loaded (a real libcuda among it). */
static void *
proc_lookup(const char *symbol)
{
   static void *self;
   Dl_info info;

   if (!self) {
      if (!dladdr((void *)proc_lookup, &info) || !info.dli_fname)
         return NULL;
      void *handle = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
      if (!handle)
         return NULL;
      __atomic_store_n(&self, handle, __ATOMIC_RELEASE);
   }
   return dlsym(__atomic_load_n(&self, __ATOMIC_ACQUIRE), symbol);
}

static CUresult
proc_not_found(const char *symbol, int cuda_version, CUdriverProcAddressQueryResult *status,
               CUdriverProcAddressQueryResult why)
{
   if (status)
      *status = why;
   cuvk_logd("cuGetProcAddress: %s (CUDA %d): %s", symbol, cuda_version,
             why == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT ? "newer than the caller's CUDA"
                                                               : "not provided by cuvk");
   return CUDA_ERROR_NOT_FOUND;
}

CUVK_EXPORT CUresult CUDAAPI
cuGetProcAddress_v2(const char *symbol, void **pfn, int cuda_version, cuuint64_t flags,
                    CUdriverProcAddressQueryResult *status)
{
   if (!symbol || !pfn)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGetProcAddress: NULL symbol or pfn");
   if (flags & ~(cuuint64_t)(CU_GET_PROC_ADDRESS_LEGACY_STREAM | CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM))
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuGetProcAddress: unknown flags 0x%llx",
                        (unsigned long long)flags);
   *pfn = NULL;

   /* The table is sorted by name: find the first entry of the name. */
   const struct proc_entry *e = bsearch(symbol, proc_table, CUVK_ARRAY_SIZE(proc_table),
                                        sizeof(proc_table[0]), proc_entry_cmp);
   if (!e)
      return proc_not_found(symbol, cuda_version, status, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
   while (e > proc_table && strcmp(e[-1].name, symbol) == 0)
      e--;
   const struct proc_entry *end = e;
   while (end < proc_table + CUVK_ARRAY_SIZE(proc_table) && strcmp(end->name, symbol) == 0)
      end++;

   const struct proc_entry *pick = NULL;
   for (const struct proc_entry *p = e; p < end; p++)
      if (!p->per_thread && p->since <= cuda_version)
         pick = p;
   if (!pick)
      return proc_not_found(symbol, cuda_version, status, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);

   const char *name = pick->symbol;
   if (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) {
      size_t len = strlen(pick->symbol);
      for (const struct proc_entry *p = e; p < end; p++) {
         if (p->per_thread && strncmp(p->symbol, pick->symbol, len) == 0 &&
             (strcmp(p->symbol + len, "_ptds") == 0 || strcmp(p->symbol + len, "_ptsz") == 0))
            name = p->symbol;
      }
   }

   /* A name another branch implements may not be in this build yet. */
   if (!(*pfn = proc_lookup(name)))
      return proc_not_found(symbol, cuda_version, status, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
   if (status)
      *status = CU_GET_PROC_ADDRESS_SUCCESS;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuGetProcAddress(const char *symbol, void **pfn, int cuda_version, cuuint64_t flags)
{
   return cuGetProcAddress_v2(symbol, pfn, cuda_version, flags, NULL);
}
