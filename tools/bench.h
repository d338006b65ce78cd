/*
 * cuvk-bench: shared declarations.
 *
 *    cuvk_bench.c    options, sizes, the timing loop and the benchmarks
 *    bench_cuda.c    a CUDA driver-API library reached through dlsym:
 *                    cuvk, and optionally NVIDIA's real libcuda
 *    bench_vulkan.c  the tool's own VkDevice: vkCmdCopyBuffer and
 *                    vkCmdFillBuffer as the driver's baseline, and the
 *                    exporter for the import benchmark
 *    bench_report.c  results, the readable table and the JSON
 */
#ifndef CUVK_TOOLS_BENCH_H
#define CUVK_TOOLS_BENCH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cuda.h>
#include <vulkan/vulkan.h>

#include "tool_util.h"

/* ---- CUDA driver-API libraries ---- */

/*
 * One implementation of the driver API, every entry point looked up with
 * dlsym on the library's own handle.  cuvk and NVIDIA's libcuda export the
 * same names, so nothing of the second library may ever be resolved by
 * the dynamic linker's global scope: it is opened RTLD_LOCAL|RTLD_DEEPBIND
 * and reached only through these pointers.  The versioned names (_v2) are
 * looked up explicitly, as cuda.h's renaming macros would have linked
 * them.
 */
struct bench_cu {
   const char *label;
   char path[PATH_MAX];
   void *handle;
   CUdevice device;
   CUcontext context;
   bool started;

   CUresult (*Init)(unsigned int flags);
   CUresult (*DriverGetVersion)(int *version);
   CUresult (*GetErrorName)(CUresult error, const char **name);
   CUresult (*DeviceGetCount)(int *count);
   CUresult (*DeviceGet)(CUdevice *device, int ordinal);
   CUresult (*DeviceGetName)(char *name, int len, CUdevice device);
   CUresult (*DeviceGetUuid)(CUuuid *uuid, CUdevice device);
   CUresult (*DeviceTotalMem)(size_t *bytes, CUdevice device);
   CUresult (*DevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice device);
   CUresult (*DevicePrimaryCtxRelease)(CUdevice device);
   CUresult (*CtxSetCurrent)(CUcontext ctx);
   CUresult (*CtxSynchronize)(void);
   CUresult (*MemAlloc)(CUdeviceptr *dptr, size_t size);
   CUresult (*MemFree)(CUdeviceptr dptr);
   CUresult (*MemAllocHost)(void **pp, size_t size);
   CUresult (*MemFreeHost)(void *p);
   CUresult (*MemcpyHtoD)(CUdeviceptr dst, const void *src, size_t size);
   CUresult (*MemcpyDtoH)(void *dst, CUdeviceptr src, size_t size);
   CUresult (*MemcpyDtoD)(CUdeviceptr dst, CUdeviceptr src, size_t size);
   CUresult (*MemsetD32)(CUdeviceptr dst, unsigned int value, size_t count);

   /* NULL where the library does not export them (yet). */
   CUresult (*ImportExternalMemory)(CUexternalMemory *ext,
                                    const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *desc);
   CUresult (*ExternalMemoryGetMappedBuffer)(CUdeviceptr *dptr, CUexternalMemory ext,
                                             const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *desc);
   CUresult (*DestroyExternalMemory)(CUexternalMemory ext);
   CUresult (*MemGetAllocationGranularity)(size_t *granularity, const CUmemAllocationProp *prop,
                                           CUmemAllocationGranularity_flags option);
   CUresult (*MemAddressReserve)(CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr,
                                 unsigned long long flags);
   CUresult (*MemAddressFree)(CUdeviceptr ptr, size_t size);
   CUresult (*MemCreate)(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop,
                         unsigned long long flags);
   CUresult (*MemRelease)(CUmemGenericAllocationHandle handle);
   CUresult (*MemMap)(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                      unsigned long long flags);
   CUresult (*MemUnmap)(CUdeviceptr ptr, size_t size);
   CUresult (*MemSetAccess)(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count);
   CUresult (*StreamCreate)(CUstream *stream, unsigned int flags);
   CUresult (*StreamDestroy)(CUstream stream);
   CUresult (*StreamSynchronize)(CUstream stream);
   CUresult (*MemcpyHtoDAsync)(CUdeviceptr dst, const void *src, size_t size, CUstream stream);
   CUresult (*MemcpyDtoHAsync)(void *dst, CUdeviceptr src, size_t size, CUstream stream);
   CUresult (*MemcpyDtoDAsync)(CUdeviceptr dst, CUdeviceptr src, size_t size, CUstream stream);
   CUresult (*ImportExternalSemaphore)(CUexternalSemaphore *sem,
                                       const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *desc);
   CUresult (*SignalExternalSemaphoresAsync)(const CUexternalSemaphore *sems,
                                             const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *params,
                                             unsigned int count, CUstream stream);
   CUresult (*WaitExternalSemaphoresAsync)(const CUexternalSemaphore *sems,
                                           const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *params,
                                           unsigned int count, CUstream stream);
   CUresult (*DestroyExternalSemaphore)(CUexternalSemaphore sem);
   CUresult (*ModuleLoadData)(CUmodule *module, const void *image);
   CUresult (*ModuleUnload)(CUmodule module);
   CUresult (*ModuleGetFunction)(CUfunction *func, CUmodule module, const char *name);
   CUresult (*LaunchKernel)(CUfunction f, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                            unsigned block_x, unsigned block_y, unsigned block_z, unsigned shared_bytes,
                            CUstream stream, void **params, void **extra);
};

/* Opens the library at path (RTLD_NOW|RTLD_LOCAL|RTLD_DEEPBIND), or, with
 * path NULL, takes the libcuvk this program is linked against.  False with
 * the reason in err when it or a required symbol is missing. */
bool bench_cu_load(struct bench_cu *cu, const char *label, const char *path, char *err, size_t len);

/* cuInit, the device (by UUID when uuid is not NULL and a device has it,
 * else by ordinal), its primary context made current. */
bool bench_cu_start(struct bench_cu *cu, int ordinal, const uint8_t *uuid, char *err, size_t len);
void bench_cu_stop(struct bench_cu *cu);

/* True on CUDA_SUCCESS; otherwise prints "<label>: <what>: <error name>". */
bool bench_cu_ok(const struct bench_cu *cu, CUresult r, const char *what);

bool bench_cu_has_import(const struct bench_cu *cu);
/* Streams and the four external semaphore calls. */
bool bench_cu_has_semaphores(const struct bench_cu *cu);
bool bench_cu_has_vmm(const struct bench_cu *cu);
/* cuModuleLoadData, cuModuleUnload, cuModuleGetFunction, cuLaunchKernel. */
bool bench_cu_has_kernels(const struct bench_cu *cu);

/* ---- The tool's own Vulkan device ---- */

struct bench_vk {
   struct tool_vk_instance vi;
   VkPhysicalDevice pdev;
   VkPhysicalDeviceProperties props;
   VkPhysicalDeviceMemoryProperties mem;
   VkDevice device;
   uint32_t queue_family;
   VkQueue queue;
   VkCommandPool pool;
   VkCommandBuffer cmd;
   VkFence fence;
   /* The empty compute pipeline (bench_vk_record_empty_dispatch). */
   VkPipelineLayout empty_layout;
   VkPipeline empty_pipeline;
   /* The timeline semaphore of bench_vk_submit_timeline_wait, made at
    * its first call, and its last signalled value. */
   VkSemaphore timeline;
   uint64_t timeline_value;
   bool has_timeline;        /* the timelineSemaphore feature is on */
   bool can_export;
   bool export_dedicated_only;
   PFN_vkGetMemoryFdKHR GetMemoryFdKHR;
   /* VK_KHR_external_semaphore_fd and timeline semaphores are on, and
    * binary and timeline semaphores export OPAQUE_FD (on lavapipe only
    * with VK_LAYER_CUVK_interop). */
   bool can_export_semaphores;
   PFN_vkGetSemaphoreFdKHR GetSemaphoreFdKHR;
};

enum bench_vk_memory {
   /* Device-local: the buffers of the DtoD and memset baselines. */
   BENCH_VK_DEVICE,
   /* Host-visible, cached where possible, mapped: Vulkan's pinned memory. */
   BENCH_VK_STAGING,
};

struct bench_vk_buffer {
   VkBuffer buffer;
   VkDeviceMemory memory;
   VkDeviceSize size;
   VkDeviceSize allocation_size;
   uint32_t memory_type;
   bool dedicated;
   void *map;
};

/* The physical device whose deviceUUID is uuid (the first when NULL), a
 * VkDevice with one queue of the family cuvk would pick, a command buffer
 * and a fence that every measurement reuses. */
bool bench_vk_init(struct bench_vk *vk, const uint8_t *uuid, char *err, size_t len);
void bench_vk_finish(struct bench_vk *vk);

bool bench_vk_buffer_create(struct bench_vk *vk, VkDeviceSize size, enum bench_vk_memory where,
                            bool exportable, struct bench_vk_buffer *out);
void bench_vk_buffer_destroy(struct bench_vk *vk, struct bench_vk_buffer *b);

/* Record the one command buffer anew with a copy or a fill (and the
 * barrier that makes a staging buffer's contents visible to the host). */
bool bench_vk_record_copy(struct bench_vk *vk, const struct bench_vk_buffer *src, VkDeviceSize src_offset,
                          const struct bench_vk_buffer *dst, VkDeviceSize dst_offset, VkDeviceSize size);
bool bench_vk_record_fill(struct bench_vk *vk, const struct bench_vk_buffer *dst, VkDeviceSize size,
                          uint32_t value);

/* Record the one command buffer anew with one dispatch of a 1x1x1
 * compute shader that does nothing (the kernel table's empty launch);
 * the pipeline is made at the first call and kept. */
bool bench_vk_record_empty_dispatch(struct bench_vk *vk);

/* Submits the recorded command buffer and waits for its fence. */
bool bench_vk_submit_wait(struct bench_vk *vk);

/* The empty dispatch and the barrier cuvk ends a batch with (which
 * orders later work after it and makes its writes visible to the host),
 * recorded anew; one_time as cuvk's batches are.  Without host_read the
 * barrier leaves the host out (stage and access), to price that part. */
bool bench_vk_record_empty_dispatch_barriers(struct bench_vk *vk, bool one_time, bool host_read);

/* Submits the recorded command buffer with a timeline semaphore signal
 * and no fence, as cuvk does, and waits for the value on the host:
 * polling vkGetSemaphoreCounterValue on a GPU, vkWaitSemaphores on a CPU
 * device.  The two halves apart: the submit, and the wait for it. */
bool bench_vk_submit_timeline_wait(struct bench_vk *vk);
bool bench_vk_submit_timeline(struct bench_vk *vk);
bool bench_vk_timeline_wait(struct bench_vk *vk);

/* A new OPAQUE_FD of an exportable buffer's memory; -1 on failure. */
/* The driver's own import cycle of fd (an export of b): import into a
 * new buffer on the tool's device, bind, then destroy and free; fd is
 * the driver's afterwards, whatever happens. */
bool bench_vk_import_cycle(struct bench_vk *vk, const struct bench_vk_buffer *b, int fd);
int bench_vk_export_fd(struct bench_vk *vk, const struct bench_vk_buffer *b);

/* A binary or timeline semaphore, exportable as OPAQUE_FD when asked. */
bool bench_vk_semaphore_create(struct bench_vk *vk, bool timeline, bool exportable, VkSemaphore *out);
/* A new OPAQUE_FD of an exportable semaphore; -1 on failure. */
int bench_vk_semaphore_fd(struct bench_vk *vk, VkSemaphore sem);
/* An empty batch on the queue: waits on wait (when not null) and signals
 * signal (when not null), values for timelines; fence may be null. */
bool bench_vk_submit_semaphores(struct bench_vk *vk, VkSemaphore wait, uint64_t wait_value,
                                VkSemaphore signal, uint64_t signal_value, VkFence fence);

/* ---- Results ---- */

enum bench_impl {
   BENCH_IMPL_CUVK,
   BENCH_IMPL_CUDA,
   BENCH_IMPL_VULKAN,
   BENCH_IMPL_HOST,
   BENCH_IMPL_COUNT,
};

extern const char *const bench_impl_names[BENCH_IMPL_COUNT];

enum bench_kind {
   /* Rows are sizes; the figure is GB/s. */
   BENCH_KIND_BANDWIDTH,
   /* Rows are labelled operations; the figure is microseconds. */
   BENCH_KIND_LATENCY,
};

struct bench_result {
   bool valid;
   double median_s;
   double min_s;
   unsigned samples;
   unsigned reps;
   /* GPU clocks read right after the timed runs; 0 where unknown.  And
    * NVML's reasons the clocks were held below their maximum then
    * (nvmlClocksEventReasons bits), where NVML tells. */
   unsigned sm_mhz, mem_mhz;
   bool has_clock_reasons;
   unsigned long long clock_reasons;
};

/* NVML, where present (bench_clock.c). */
struct bench_clock {
   void *lib;
   void *device;
   void *get_clock;
   void *get_reasons;
   void *shutdown;
};

bool bench_clock_open(struct bench_clock *c, const char *uuid);
void bench_clock_read(const struct bench_clock *c, struct bench_result *out);
/* The names of the set reason bits, at most max of them, and the bits
 * without a name. */
void bench_clock_reason_names(unsigned long long reasons, const char **names, unsigned max,
                              unsigned *count, unsigned long long *unknown);
void bench_clock_close(struct bench_clock *c);

#define BENCH_MAX_ROWS 40
#define BENCH_MAX_NOTES 8
#define BENCH_NOTE_LEN 256

struct bench_row {
   uint64_t size;
   /* In a latency table, the bytes one run moves through device memory,
    * which gives the row a bandwidth too; 0 when it has none. */
   uint64_t bytes;
   char label[64];
   /* The implementations the row measures, as bits of enum bench_impl;
    * 0 for all the table shows.  A row of one implementation's steps
    * (the kernel table's Vulkan rows) says so in the JSON, "measures". */
   unsigned impls;
   struct bench_result r[BENCH_IMPL_COUNT];
};

struct bench_table {
   const char *id;
   const char *title;
   enum bench_kind kind;
   /* Bytes a bandwidth figure counts per byte of size: 2 for a copy that
    * reads and writes device memory. */
   unsigned bytes_factor;
   const char *counted;
   /* What each column measures ("vkCmdCopyBuffer"); NULL: not run. */
   const char *impl_what[BENCH_IMPL_COUNT];
   char notes[BENCH_MAX_NOTES][BENCH_NOTE_LEN];
   unsigned note_count;
   unsigned row_count;
   struct bench_row rows[BENCH_MAX_ROWS];
};

#define BENCH_MAX_TABLES 16

struct bench_report {
   char device_name[256];
   char device_uuid[37];
   char vulkan_driver[2 * VK_MAX_DRIVER_INFO_SIZE + 8];
   char cuvk_lib[PATH_MAX];
   char cuda_lib[PATH_MAX];
   char cuda_device_name[256];
   uint64_t max_size;
   double min_time_s;
   double warmup_s;
   bool cuda_first;
   bool quick;
   char notes[BENCH_MAX_NOTES][BENCH_NOTE_LEN];
   unsigned note_count;
   bool has_impl[BENCH_IMPL_COUNT];
   unsigned table_count;
   struct bench_table tables[BENCH_MAX_TABLES];
};

void bench_report_note(struct bench_report *rep, const char *fmt, ...)
   __attribute__((format(printf, 2, 3)));
void bench_table_note(struct bench_table *t, const char *fmt, ...)
   __attribute__((format(printf, 2, 3)));

/* Bandwidth in GB/s (10^9 bytes a second) of a row's result; NaN for a
 * latency row without bytes. */
double bench_gbps(const struct bench_table *t, const struct bench_row *row, enum bench_impl impl);

void bench_report_print_header(const struct bench_report *rep, FILE *f);
void bench_report_print_table(const struct bench_report *rep, const struct bench_table *t, FILE *f);
void bench_report_write_json(const struct bench_report *rep, FILE *f);

#endif
