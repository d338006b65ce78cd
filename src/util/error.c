#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>

#include "util/log.h"
#include "util/macros.h"

/* Every CUresult with its name and our one-line description.  cuGetErrorName
 * and cuGetErrorString answer from here, so a code missing from this table
 * reads as unknown to the application. */
static const struct {
   CUresult code;
   const char *name;
   const char *string;
} result_table[] = {
#define R(code, text) { code, #code, text }
   R(CUDA_SUCCESS, "no error"),
   R(CUDA_ERROR_INVALID_VALUE, "an argument is out of its valid range"),
   R(CUDA_ERROR_OUT_OF_MEMORY, "out of memory"),
   R(CUDA_ERROR_NOT_INITIALIZED, "the driver has not been initialized with cuInit"),
   R(CUDA_ERROR_DEINITIALIZED, "the driver is shutting down"),
   R(CUDA_ERROR_PROFILER_DISABLED, "the profiler is disabled for this run"),
   R(CUDA_ERROR_PROFILER_NOT_INITIALIZED, "the profiler was not initialized"),
   R(CUDA_ERROR_PROFILER_ALREADY_STARTED, "the profiler is already running"),
   R(CUDA_ERROR_PROFILER_ALREADY_STOPPED, "the profiler is already stopped"),
   R(CUDA_ERROR_STUB_LIBRARY, "a stub library was loaded instead of a real driver"),
   R(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER, "this call needs a newer driver"),
   R(CUDA_ERROR_DEVICE_UNAVAILABLE, "the device is busy or unavailable right now"),
   R(CUDA_ERROR_NO_DEVICE, "no usable device was found"),
   R(CUDA_ERROR_INVALID_DEVICE, "the device ordinal does not name a usable device"),
   R(CUDA_ERROR_DEVICE_NOT_LICENSED, "the device lacks a license for this operation"),
   R(CUDA_ERROR_INVALID_IMAGE, "the device code image is invalid"),
   R(CUDA_ERROR_INVALID_CONTEXT, "there is no valid current context"),
   R(CUDA_ERROR_CONTEXT_ALREADY_CURRENT, "the context is already current"),
   R(CUDA_ERROR_MAP_FAILED, "mapping the resource failed"),
   R(CUDA_ERROR_UNMAP_FAILED, "unmapping the resource failed"),
   R(CUDA_ERROR_ARRAY_IS_MAPPED, "the array is mapped and cannot be destroyed"),
   R(CUDA_ERROR_ALREADY_MAPPED, "the resource is already mapped"),
   R(CUDA_ERROR_NO_BINARY_FOR_GPU, "no device code fits this device"),
   R(CUDA_ERROR_ALREADY_ACQUIRED, "the resource has already been acquired"),
   R(CUDA_ERROR_NOT_MAPPED, "the resource is not mapped"),
   R(CUDA_ERROR_NOT_MAPPED_AS_ARRAY, "the mapped resource cannot be used as an array"),
   R(CUDA_ERROR_NOT_MAPPED_AS_POINTER, "the mapped resource cannot be used as a pointer"),
   R(CUDA_ERROR_ECC_UNCORRECTABLE, "an uncorrectable ECC error was detected"),
   R(CUDA_ERROR_UNSUPPORTED_LIMIT, "the device does not support this limit"),
   R(CUDA_ERROR_CONTEXT_ALREADY_IN_USE, "the context is already in use by another thread"),
   R(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, "peer access between these devices is not supported"),
   R(CUDA_ERROR_INVALID_PTX, "compiling the PTX failed"),
   R(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT, "the graphics API context is invalid"),
   R(CUDA_ERROR_NVLINK_UNCORRECTABLE, "an uncorrectable NVLink error was detected"),
   R(CUDA_ERROR_JIT_COMPILER_NOT_FOUND, "the PTX JIT compiler is not available"),
   R(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "the PTX was built for a newer toolchain than the driver knows"),
   R(CUDA_ERROR_JIT_COMPILATION_DISABLED, "JIT compilation has been disabled"),
   R(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY, "the requested execution affinity is not supported"),
   R(CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC, "device-side synchronization is not supported by this code"),
   R(CUDA_ERROR_CONTAINED, "an error in a device partition was contained there"),
   R(CUDA_ERROR_INVALID_SOURCE, "the device kernel source is invalid"),
   R(CUDA_ERROR_FILE_NOT_FOUND, "the file was not found"),
   R(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND, "a shared object symbol could not be resolved"),
   R(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, "a shared object failed to initialize"),
   R(CUDA_ERROR_OPERATING_SYSTEM, "an operating system call failed"),
   R(CUDA_ERROR_INVALID_HANDLE, "the handle is invalid or of the wrong type"),
   R(CUDA_ERROR_ILLEGAL_STATE, "the resource is not in a state that allows this operation"),
   R(CUDA_ERROR_LOSSY_QUERY, "the answer would lose information"),
   R(CUDA_ERROR_NOT_FOUND, "the named symbol was not found"),
   R(CUDA_ERROR_NOT_READY, "the work has not completed yet"),
   R(CUDA_ERROR_ILLEGAL_ADDRESS, "device code accessed an illegal address"),
   R(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "the launch needs more resources than the device has"),
   R(CUDA_ERROR_LAUNCH_TIMEOUT, "the device work ran past the timeout and was stopped"),
   R(CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING, "the launch used an incompatible texturing mode"),
   R(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, "peer access is already enabled"),
   R(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, "peer access has not been enabled"),
   R(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE, "the primary context is already active"),
   R(CUDA_ERROR_CONTEXT_IS_DESTROYED, "the context has been destroyed"),
   R(CUDA_ERROR_ASSERT, "a device-side assert failed"),
   R(CUDA_ERROR_TOO_MANY_PEERS, "too many peer devices are mapped"),
   R(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "the host memory is already registered"),
   R(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "the host memory is not registered"),
   R(CUDA_ERROR_HARDWARE_STACK_ERROR, "the device call stack overflowed or was corrupted"),
   R(CUDA_ERROR_ILLEGAL_INSTRUCTION, "device code executed an illegal instruction"),
   R(CUDA_ERROR_MISALIGNED_ADDRESS, "device code used a misaligned address"),
   R(CUDA_ERROR_INVALID_ADDRESS_SPACE, "device code used an address in the wrong address space"),
   R(CUDA_ERROR_INVALID_PC, "device code jumped to an invalid program counter"),
   R(CUDA_ERROR_LAUNCH_FAILED, "device work failed; the context is unusable"),
   R(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "the cooperative launch has more blocks than can run at once"),
   R(CUDA_ERROR_TENSOR_MEMORY_LEAK, "a kernel exited without freeing its tensor memory"),
   R(CUDA_ERROR_NOT_PERMITTED, "the operation is not permitted"),
   R(CUDA_ERROR_NOT_SUPPORTED, "the operation is not supported on this device or driver"),
   R(CUDA_ERROR_SYSTEM_NOT_READY, "the system is not ready for GPU work"),
   R(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, "the user-mode and kernel-mode drivers do not match"),
   R(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE, "forward compatibility is not supported on this device"),
   R(CUDA_ERROR_MPS_CONNECTION_FAILED, "connecting to the MPS server failed"),
   R(CUDA_ERROR_MPS_RPC_FAILURE, "a call to the MPS server failed"),
   R(CUDA_ERROR_MPS_SERVER_NOT_READY, "the MPS server is not ready"),
   R(CUDA_ERROR_MPS_MAX_CLIENTS_REACHED, "the MPS server has no room for more clients"),
   R(CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED, "the MPS server has no room for more connections"),
   R(CUDA_ERROR_MPS_CLIENT_TERMINATED, "the MPS client was terminated by the server"),
   R(CUDA_ERROR_CDP_NOT_SUPPORTED, "dynamic parallelism is not supported here"),
   R(CUDA_ERROR_CDP_VERSION_MISMATCH, "the dynamic parallelism versions do not match"),
   R(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "the operation is not allowed while the stream is capturing"),
   R(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "the stream capture was invalidated by an earlier error"),
   R(CUDA_ERROR_STREAM_CAPTURE_MERGE, "two independent captures would be merged"),
   R(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, "the capture was not started in this stream"),
   R(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, "a forked capture was not joined back to its origin stream"),
   R(CUDA_ERROR_STREAM_CAPTURE_ISOLATION, "the dependency would cross the capture boundary"),
   R(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, "the operation would sync implicitly with a capturing stream"),
   R(CUDA_ERROR_CAPTURED_EVENT, "the operation is not allowed on an event from a capture"),
   R(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, "the capture was started by another thread"),
   R(CUDA_ERROR_TIMEOUT, "the wait timed out"),
   R(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, "the executable graph could not be updated in place"),
   R(CUDA_ERROR_EXTERNAL_DEVICE, "an external device reported an error"),
   R(CUDA_ERROR_INVALID_CLUSTER_SIZE, "the cluster size is invalid"),
   R(CUDA_ERROR_FUNCTION_NOT_LOADED, "the function has not been loaded"),
   R(CUDA_ERROR_INVALID_RESOURCE_TYPE, "the resource type is invalid for this operation"),
   R(CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION, "the resource configuration is invalid"),
   R(CUDA_ERROR_KEY_ROTATION, "work failed because of an encryption key rotation"),
   R(CUDA_ERROR_UNKNOWN, "an unknown internal error occurred"),
#undef R
};

/* VkResult names, for log lines.  Codes newer than the oldest Vulkan
 * headers we build against are given by value so the table compiles
 * everywhere. */
static const struct {
   int code;
   const char *name;
} vk_result_table[] = {
#define V(code) { code, #code }
   V(VK_SUCCESS),
   V(VK_NOT_READY),
   V(VK_TIMEOUT),
   V(VK_EVENT_SET),
   V(VK_EVENT_RESET),
   V(VK_INCOMPLETE),
   V(VK_ERROR_OUT_OF_HOST_MEMORY),
   V(VK_ERROR_OUT_OF_DEVICE_MEMORY),
   V(VK_ERROR_INITIALIZATION_FAILED),
   V(VK_ERROR_DEVICE_LOST),
   V(VK_ERROR_MEMORY_MAP_FAILED),
   V(VK_ERROR_LAYER_NOT_PRESENT),
   V(VK_ERROR_EXTENSION_NOT_PRESENT),
   V(VK_ERROR_FEATURE_NOT_PRESENT),
   V(VK_ERROR_INCOMPATIBLE_DRIVER),
   V(VK_ERROR_TOO_MANY_OBJECTS),
   V(VK_ERROR_FORMAT_NOT_SUPPORTED),
   V(VK_ERROR_FRAGMENTED_POOL),
   V(VK_ERROR_UNKNOWN),
   V(VK_ERROR_OUT_OF_POOL_MEMORY),
   V(VK_ERROR_INVALID_EXTERNAL_HANDLE),
   V(VK_ERROR_FRAGMENTATION),
   V(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS),
   V(VK_PIPELINE_COMPILE_REQUIRED),
   V(VK_ERROR_SURFACE_LOST_KHR),
   V(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR),
   V(VK_SUBOPTIMAL_KHR),
   V(VK_ERROR_OUT_OF_DATE_KHR),
   V(VK_ERROR_INCOMPATIBLE_DISPLAY_KHR),
   V(VK_ERROR_VALIDATION_FAILED_EXT),
   V(VK_ERROR_INVALID_SHADER_NV),
   V(VK_ERROR_IMAGE_USAGE_NOT_SUPPORTED_KHR),
   V(VK_ERROR_VIDEO_PICTURE_LAYOUT_NOT_SUPPORTED_KHR),
   V(VK_ERROR_VIDEO_PROFILE_OPERATION_NOT_SUPPORTED_KHR),
   V(VK_ERROR_VIDEO_PROFILE_FORMAT_NOT_SUPPORTED_KHR),
   V(VK_ERROR_VIDEO_PROFILE_CODEC_NOT_SUPPORTED_KHR),
   V(VK_ERROR_VIDEO_STD_VERSION_NOT_SUPPORTED_KHR),
   V(VK_ERROR_INVALID_DRM_FORMAT_MODIFIER_PLANE_LAYOUT_EXT),
   V(VK_ERROR_NOT_PERMITTED_KHR),
   V(VK_ERROR_FULL_SCREEN_EXCLUSIVE_MODE_LOST_EXT),
   V(VK_THREAD_IDLE_KHR),
   V(VK_THREAD_DONE_KHR),
   V(VK_OPERATION_DEFERRED_KHR),
   V(VK_OPERATION_NOT_DEFERRED_KHR),
   V(VK_ERROR_COMPRESSION_EXHAUSTED_EXT),
#undef V
   { -1000208000, "VK_ERROR_PRESENT_TIMING_QUEUE_FULL_EXT" },
   { -1000299000, "VK_ERROR_INVALID_VIDEO_STD_PARAMETERS_KHR" },
   { 1000482000, "VK_INCOMPATIBLE_SHADER_BINARY_EXT" },
   { 1000483000, "VK_PIPELINE_BINARY_MISSING_KHR" },
   { -1000483000, "VK_ERROR_NOT_ENOUGH_SPACE_KHR" },
};

const char *
cuvk_result_name(CUresult res)
{
   for (size_t i = 0; i < CUVK_ARRAY_SIZE(result_table); i++) {
      if (result_table[i].code == res)
         return result_table[i].name;
   }
   return NULL;
}

const char *
cuvk_result_string(CUresult res)
{
   for (size_t i = 0; i < CUVK_ARRAY_SIZE(result_table); i++) {
      if (result_table[i].code == res)
         return result_table[i].string;
   }
   return NULL;
}

const char *
cuvk_vk_result_name(VkResult vr)
{
   for (size_t i = 0; i < CUVK_ARRAY_SIZE(vk_result_table); i++) {
      if (vk_result_table[i].code == (int)vr)
         return vk_result_table[i].name;
   }
   return NULL;
}

CUresult
cuvk_error_at(CUresult res, const char *file, int line, const char *fmt, ...)
{
   char msg[768];
   const char *name;
   va_list ap;

   va_start(ap, fmt);
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);

   name = cuvk_result_name(res);
   if (name)
      cuvk_log_msg(CUVK_LOG_ERROR, file, line, "%s (%s)", msg, name);
   else
      cuvk_log_msg(CUVK_LOG_ERROR, file, line, "%s (CUresult %d)", msg, (int)res);
   return res;
}

CUresult
cuvk_vk_error_at(VkResult vr, const char *file, int line, const char *what)
{
   const char *name = cuvk_vk_result_name(vr);
   CUresult res;

   switch (vr) {
   case VK_ERROR_OUT_OF_HOST_MEMORY:
   case VK_ERROR_OUT_OF_DEVICE_MEMORY:
   case VK_ERROR_TOO_MANY_OBJECTS:
      res = CUDA_ERROR_OUT_OF_MEMORY;
      break;
   case VK_ERROR_INVALID_EXTERNAL_HANDLE:
      res = CUDA_ERROR_INVALID_VALUE;
      break;
   case VK_ERROR_DEVICE_LOST:
      /* Real CUDA reports a dead device as a failed launch: the context is
       * unusable from then on. */
      res = CUDA_ERROR_LAUNCH_FAILED;
      break;
   case VK_ERROR_FEATURE_NOT_PRESENT:
   case VK_ERROR_EXTENSION_NOT_PRESENT:
   case VK_ERROR_FORMAT_NOT_SUPPORTED:
      res = CUDA_ERROR_NOT_SUPPORTED;
      break;
   default:
      res = CUDA_ERROR_UNKNOWN;
      break;
   }

   if (name)
      cuvk_log_msg(CUVK_LOG_ERROR, file, line, "%s failed: %s", what, name);
   else
      cuvk_log_msg(CUVK_LOG_ERROR, file, line, "%s failed: VkResult %d", what, (int)vr);
   return res;
}
