/*
 * GPU clocks next to each measurement, read through NVIDIA's NVML where
 * the machine has it (libnvidia-ml.so.1, opened at run time; elsewhere the
 * clocks are simply absent).  On an H200 whole tables of cuvk-bench ran at
 * a fraction of their usual speed from run to run; a clock taken with each
 * result says whether the GPU was in a low power state then.
 */
#include "bench.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* NVML's ABI: functions return 0 on success; clock types 1 = SM, 2 = memory. */
#define NVML_CLOCK_SM 1
#define NVML_CLOCK_MEM 2

typedef int (*nvml_init_fn)(void);
typedef int (*nvml_shutdown_fn)(void);
typedef int (*nvml_by_uuid_fn)(const char *uuid, void **device);
typedef int (*nvml_clock_fn)(void *device, int type, unsigned *mhz);
typedef int (*nvml_reasons_fn)(void *device, unsigned long long *reasons);

/* nvmlClocksEventReasons bits, as NVML's header numbers them. */
static const struct {
   unsigned long long bit;
   const char *name;
} reason_names[] = {
   { 0x1ull, "gpu_idle" },
   { 0x2ull, "applications_clocks_setting" },
   { 0x4ull, "sw_power_cap" },
   { 0x8ull, "hw_slowdown" },
   { 0x10ull, "sync_boost" },
   { 0x20ull, "sw_thermal_slowdown" },
   { 0x40ull, "hw_thermal_slowdown" },
   { 0x80ull, "hw_power_brake_slowdown" },
   { 0x100ull, "display_clock_setting" },
};

bool
bench_clock_open(struct bench_clock *c, const char *uuid)
{
   char nvml_uuid[64];

   memset(c, 0, sizeof(*c));
   if (!uuid || !uuid[0])
      return false;
   c->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
   if (!c->lib)
      return false;
   nvml_init_fn init = (nvml_init_fn)dlsym(c->lib, "nvmlInit_v2");
   nvml_by_uuid_fn by_uuid = (nvml_by_uuid_fn)dlsym(c->lib, "nvmlDeviceGetHandleByUUID");
   c->get_clock = dlsym(c->lib, "nvmlDeviceGetClockInfo");
   /* Renamed in NVML 12.5; the old name stays as an alias. */
   c->get_reasons = dlsym(c->lib, "nvmlDeviceGetCurrentClocksEventReasons");
   if (!c->get_reasons)
      c->get_reasons = dlsym(c->lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
   c->shutdown = dlsym(c->lib, "nvmlShutdown");
   if (!init || !by_uuid || !c->get_clock || !c->shutdown || init() != 0)
      goto fail;
   /* NVML names a GPU "GPU-" and the UUID Vulkan and CUDA report. */
   snprintf(nvml_uuid, sizeof(nvml_uuid), "GPU-%s", uuid);
   if (by_uuid(nvml_uuid, &c->device) != 0) {
      ((nvml_shutdown_fn)c->shutdown)();
      goto fail;
   }
   return true;

fail:
   dlclose(c->lib);
   memset(c, 0, sizeof(*c));
   return false;
}

void
bench_clock_read(const struct bench_clock *c, struct bench_result *out)
{
   nvml_clock_fn get = (nvml_clock_fn)c->get_clock;

   out->sm_mhz = out->mem_mhz = 0;
   out->has_clock_reasons = false;
   out->clock_reasons = 0;
   if (!c->device)
      return;
   if (get(c->device, NVML_CLOCK_SM, &out->sm_mhz) != 0)
      out->sm_mhz = 0;
   if (get(c->device, NVML_CLOCK_MEM, &out->mem_mhz) != 0)
      out->mem_mhz = 0;
   if (c->get_reasons)
      out->has_clock_reasons = ((nvml_reasons_fn)c->get_reasons)(c->device, &out->clock_reasons) == 0;
}

void
bench_clock_reason_names(unsigned long long reasons, const char **names, unsigned max, unsigned *count,
                         unsigned long long *unknown)
{
   *count = 0;
   for (size_t i = 0; i < sizeof(reason_names) / sizeof(reason_names[0]); i++) {
      if ((reasons & reason_names[i].bit) && *count < max) {
         names[(*count)++] = reason_names[i].name;
         reasons &= ~reason_names[i].bit;
      }
   }
   *unknown = reasons;
}

void
bench_clock_close(struct bench_clock *c)
{
   if (c->lib) {
      ((nvml_shutdown_fn)c->shutdown)();
      dlclose(c->lib);
   }
   memset(c, 0, sizeof(*c));
}
