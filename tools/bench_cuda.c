/*
 * A CUDA driver-API implementation reached through dlsym.
 *
 * cuvk-bench links libcuvk like any application, and compares it with a
 * second libcuda opened by path.  Both export cuInit, cuMemAlloc_v2, ...:
 * the second one is opened RTLD_LOCAL (its names stay out of the global
 * scope, so they never interpose on cuvk's) and RTLD_DEEPBIND (its own
 * calls between its entry points resolve inside itself first, never to
 * cuvk's copies), and every call goes through a pointer from dlsym on its
 * handle.  cuvk is called the same way, through the handle of the library
 * that holds the cuInit this program linked, so both columns of a table
 * run exactly the same code.
 */
#include "bench.h"

#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "tool_util.h"

struct bench_cu_symbol {
   const char *name;
   size_t offset;
   bool optional;
};

#define SYM(field, name) { name, offsetof(struct bench_cu, field), false }
#define OPT(field, name) { name, offsetof(struct bench_cu, field), true }

static const struct bench_cu_symbol bench_cu_symbols[] = {
   SYM(Init, "cuInit"),
   SYM(DriverGetVersion, "cuDriverGetVersion"),
   SYM(GetErrorName, "cuGetErrorName"),
   SYM(DeviceGetCount, "cuDeviceGetCount"),
   SYM(DeviceGet, "cuDeviceGet"),
   SYM(DeviceGetName, "cuDeviceGetName"),
   SYM(DeviceGetUuid, "cuDeviceGetUuid_v2"),
   SYM(DeviceTotalMem, "cuDeviceTotalMem_v2"),
   SYM(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
   SYM(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
   SYM(CtxSetCurrent, "cuCtxSetCurrent"),
   SYM(CtxSynchronize, "cuCtxSynchronize"),
   SYM(MemAlloc, "cuMemAlloc_v2"),
   SYM(MemFree, "cuMemFree_v2"),
   SYM(MemAllocHost, "cuMemAllocHost_v2"),
   SYM(MemFreeHost, "cuMemFreeHost"),
   SYM(MemcpyHtoD, "cuMemcpyHtoD_v2"),
   SYM(MemcpyDtoH, "cuMemcpyDtoH_v2"),
   SYM(MemcpyDtoD, "cuMemcpyDtoD_v2"),
   SYM(MemsetD32, "cuMemsetD32_v2"),
   OPT(ImportExternalMemory, "cuImportExternalMemory"),
   OPT(ExternalMemoryGetMappedBuffer, "cuExternalMemoryGetMappedBuffer"),
   OPT(DestroyExternalMemory, "cuDestroyExternalMemory"),
   OPT(MemGetAllocationGranularity, "cuMemGetAllocationGranularity"),
   OPT(MemAddressReserve, "cuMemAddressReserve"),
   OPT(MemAddressFree, "cuMemAddressFree"),
   OPT(MemCreate, "cuMemCreate"),
   OPT(MemRelease, "cuMemRelease"),
   OPT(MemMap, "cuMemMap"),
   OPT(MemUnmap, "cuMemUnmap"),
   OPT(MemSetAccess, "cuMemSetAccess"),
   OPT(StreamCreate, "cuStreamCreate"),
   OPT(StreamDestroy, "cuStreamDestroy_v2"),
   OPT(StreamSynchronize, "cuStreamSynchronize"),
   OPT(MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"),
   OPT(MemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"),
   OPT(MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"),
   OPT(ImportExternalSemaphore, "cuImportExternalSemaphore"),
   OPT(SignalExternalSemaphoresAsync, "cuSignalExternalSemaphoresAsync"),
   OPT(WaitExternalSemaphoresAsync, "cuWaitExternalSemaphoresAsync"),
   OPT(DestroyExternalSemaphore, "cuDestroyExternalSemaphore"),
   OPT(ModuleLoadData, "cuModuleLoadData"),
   OPT(ModuleUnload, "cuModuleUnload"),
   OPT(ModuleGetFunction, "cuModuleGetFunction"),
   OPT(LaunchKernel, "cuLaunchKernel"),
};

#undef SYM
#undef OPT

bool
bench_cu_load(struct bench_cu *cu, const char *label, const char *path, char *err, size_t len)
{
   memset(cu, 0, sizeof(*cu));
   cu->label = label;

   if (path) {
      cu->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
      if (!cu->handle) {
         snprintf(err, len, "cannot open %s: %s", path, dlerror());
         return false;
      }
   } else {
      /* The library the dynamic linker bound this program's cuInit to:
       * a reference to the symbol keeps the link from being dropped, and
       * RTLD_NOLOAD returns the handle of the copy already loaded. */
      Dl_info where;
      if (!dladdr((void *)&cuInit, &where) || !where.dli_fname) {
         snprintf(err, len, "cannot tell which library holds cuInit");
         return false;
      }
      path = where.dli_fname;
      cu->handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
      if (!cu->handle) {
         snprintf(err, len, "cannot reopen %s: %s", path, dlerror());
         return false;
      }
   }

   /* The file the handle really is, for the report. */
   struct link_map *map = NULL;
   if (dlinfo(cu->handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && map->l_name[0])
      path = map->l_name;
   if (!realpath(path, cu->path))
      snprintf(cu->path, sizeof(cu->path), "%s", path);

   for (size_t i = 0; i < TOOL_ARRAY_SIZE(bench_cu_symbols); i++) {
      const struct bench_cu_symbol *s = &bench_cu_symbols[i];
      void *fn = dlsym(cu->handle, s->name);
      if (!fn && !s->optional) {
         snprintf(err, len, "%s does not export %s", cu->path, s->name);
         dlclose(cu->handle);
         cu->handle = NULL;
         return false;
      }
      memcpy((char *)cu + s->offset, &fn, sizeof(fn));
   }
   return true;
}

bool
bench_cu_has_import(const struct bench_cu *cu)
{
   return cu->ImportExternalMemory && cu->ExternalMemoryGetMappedBuffer && cu->DestroyExternalMemory;
}

bool
bench_cu_has_semaphores(const struct bench_cu *cu)
{
   return cu->StreamCreate && cu->StreamDestroy && cu->StreamSynchronize &&
          cu->ImportExternalSemaphore && cu->SignalExternalSemaphoresAsync &&
          cu->WaitExternalSemaphoresAsync && cu->DestroyExternalSemaphore;
}

bool
bench_cu_has_vmm(const struct bench_cu *cu)
{
   return cu->MemGetAllocationGranularity && cu->MemAddressReserve && cu->MemAddressFree && cu->MemCreate &&
          cu->MemRelease && cu->MemMap && cu->MemUnmap && cu->MemSetAccess;
}

bool
bench_cu_has_kernels(const struct bench_cu *cu)
{
   return cu->ModuleLoadData && cu->ModuleUnload && cu->ModuleGetFunction && cu->LaunchKernel;
}

static const char *
bench_cu_error_name(const struct bench_cu *cu, CUresult r)
{
   const char *name = NULL;
   if (cu->GetErrorName(r, &name) != CUDA_SUCCESS || !name)
      return "unknown CUresult";
   return name;
}

bool
bench_cu_ok(const struct bench_cu *cu, CUresult r, const char *what)
{
   if (r == CUDA_SUCCESS)
      return true;
   fprintf(stderr, "cuvk-bench: %s: %s: %s (%d)\n", cu->label, what, bench_cu_error_name(cu, r), (int)r);
   return false;
}

bool
bench_cu_start(struct bench_cu *cu, int ordinal, const uint8_t *uuid, char *err, size_t len)
{
   CUresult r;
   int count = 0;

   r = cu->Init(0);
   if (r != CUDA_SUCCESS) {
      snprintf(err, len, "cuInit: %s", bench_cu_error_name(cu, r));
      return false;
   }
   r = cu->DeviceGetCount(&count);
   if (r != CUDA_SUCCESS || count == 0) {
      snprintf(err, len, "no CUDA device (%s)", bench_cu_error_name(cu, r));
      return false;
   }

   /* Real CUDA numbers devices in its own order; the device UUID names the
    * same GPU in both (NVIDIA's Vulkan deviceUUID is CUDA's UUID). */
   int chosen = -1;
   for (int i = 0; uuid && i < count && chosen < 0; i++) {
      CUuuid u;
      CUdevice d;
      if (cu->DeviceGet(&d, i) == CUDA_SUCCESS && cu->DeviceGetUuid(&u, d) == CUDA_SUCCESS &&
          memcmp(u.bytes, uuid, 16) == 0)
         chosen = i;
   }
   if (chosen < 0)
      chosen = ordinal;
   if (chosen >= count) {
      snprintf(err, len, "device %d does not exist (%d devices)", chosen, count);
      return false;
   }

   r = cu->DeviceGet(&cu->device, chosen);
   if (r == CUDA_SUCCESS)
      r = cu->DevicePrimaryCtxRetain(&cu->context, cu->device);
   if (r != CUDA_SUCCESS) {
      snprintf(err, len, "device %d: %s", chosen, bench_cu_error_name(cu, r));
      return false;
   }
   r = cu->CtxSetCurrent(cu->context);
   if (r != CUDA_SUCCESS) {
      cu->DevicePrimaryCtxRelease(cu->device);
      snprintf(err, len, "cuCtxSetCurrent: %s", bench_cu_error_name(cu, r));
      return false;
   }
   cu->started = true;
   return true;
}

void
bench_cu_stop(struct bench_cu *cu)
{
   /* The library stays loaded: NVIDIA's driver keeps threads and exit
    * handlers of its own, and unloading it under them is not safe. */
   if (!cu->started)
      return;
   cu->CtxSetCurrent(NULL);
   cu->DevicePrimaryCtxRelease(cu->device);
   cu->started = false;
}
