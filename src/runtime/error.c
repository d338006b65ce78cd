/*
 * Runtime result codes: the per-thread last error, the driver-to-runtime
 * mapping, and the names and descriptions cudaGetErrorName and
 * cudaGetErrorString return.
 */
#include "runtime/runtime.h"

#include <stdarg.h>
#include <stdio.h>

#include "util/log.h"
#include "util/macros.h"

/* The runtime keeps one last error per host thread. */
static _Thread_local cudaError_t rt_last_error = cudaSuccess;

/*
 * Driver result -> runtime result, for every CUresult.  Wherever both APIs
 * have a condition they give it the same number (the names differ:
 * CUDA_ERROR_INVALID_HANDLE is cudaErrorInvalidResourceHandle), so most
 * rows map a code to itself; each pair was checked against NVIDIA's
 * headers by name.  The two driver codes the runtime has no name for
 * become cudaErrorUnknown.  In driver-code order.
 */
static const struct {
   CUresult cu;
   cudaError_t rt;
} rt_result_map[] = {
   { CUDA_SUCCESS, cudaSuccess },
   { CUDA_ERROR_INVALID_VALUE, cudaErrorInvalidValue },
   { CUDA_ERROR_OUT_OF_MEMORY, cudaErrorMemoryAllocation },
   { CUDA_ERROR_NOT_INITIALIZED, cudaErrorInitializationError },
   { CUDA_ERROR_DEINITIALIZED, cudaErrorCudartUnloading },
   { CUDA_ERROR_PROFILER_DISABLED, cudaErrorProfilerDisabled },
   { CUDA_ERROR_PROFILER_NOT_INITIALIZED, cudaErrorProfilerNotInitialized },
   { CUDA_ERROR_PROFILER_ALREADY_STARTED, cudaErrorProfilerAlreadyStarted },
   { CUDA_ERROR_PROFILER_ALREADY_STOPPED, cudaErrorProfilerAlreadyStopped },
   { CUDA_ERROR_STUB_LIBRARY, cudaErrorStubLibrary },
   { CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER, cudaErrorCallRequiresNewerDriver },
   { CUDA_ERROR_DEVICE_UNAVAILABLE, cudaErrorDevicesUnavailable },
   { CUDA_ERROR_NO_DEVICE, cudaErrorNoDevice },
   { CUDA_ERROR_INVALID_DEVICE, cudaErrorInvalidDevice },
   { CUDA_ERROR_DEVICE_NOT_LICENSED, cudaErrorDeviceNotLicensed },
   { CUDA_ERROR_INVALID_IMAGE, cudaErrorInvalidKernelImage },
   { CUDA_ERROR_INVALID_CONTEXT, cudaErrorDeviceUninitialized },
   { CUDA_ERROR_CONTEXT_ALREADY_CURRENT, cudaErrorUnknown },
   { CUDA_ERROR_MAP_FAILED, cudaErrorMapBufferObjectFailed },
   { CUDA_ERROR_UNMAP_FAILED, cudaErrorUnmapBufferObjectFailed },
   { CUDA_ERROR_ARRAY_IS_MAPPED, cudaErrorArrayIsMapped },
   { CUDA_ERROR_ALREADY_MAPPED, cudaErrorAlreadyMapped },
   { CUDA_ERROR_NO_BINARY_FOR_GPU, cudaErrorNoKernelImageForDevice },
   { CUDA_ERROR_ALREADY_ACQUIRED, cudaErrorAlreadyAcquired },
   { CUDA_ERROR_NOT_MAPPED, cudaErrorNotMapped },
   { CUDA_ERROR_NOT_MAPPED_AS_ARRAY, cudaErrorNotMappedAsArray },
   { CUDA_ERROR_NOT_MAPPED_AS_POINTER, cudaErrorNotMappedAsPointer },
   { CUDA_ERROR_ECC_UNCORRECTABLE, cudaErrorECCUncorrectable },
   { CUDA_ERROR_UNSUPPORTED_LIMIT, cudaErrorUnsupportedLimit },
   { CUDA_ERROR_CONTEXT_ALREADY_IN_USE, cudaErrorDeviceAlreadyInUse },
   { CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, cudaErrorPeerAccessUnsupported },
   { CUDA_ERROR_INVALID_PTX, cudaErrorInvalidPtx },
   { CUDA_ERROR_INVALID_GRAPHICS_CONTEXT, cudaErrorInvalidGraphicsContext },
   { CUDA_ERROR_NVLINK_UNCORRECTABLE, cudaErrorNvlinkUncorrectable },
   { CUDA_ERROR_JIT_COMPILER_NOT_FOUND, cudaErrorJitCompilerNotFound },
   { CUDA_ERROR_UNSUPPORTED_PTX_VERSION, cudaErrorUnsupportedPtxVersion },
   { CUDA_ERROR_JIT_COMPILATION_DISABLED, cudaErrorJitCompilationDisabled },
   { CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY, cudaErrorUnsupportedExecAffinity },
   { CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC, cudaErrorUnsupportedDevSideSync },
   { CUDA_ERROR_CONTAINED, cudaErrorContained },
   { CUDA_ERROR_INVALID_SOURCE, cudaErrorInvalidSource },
   { CUDA_ERROR_FILE_NOT_FOUND, cudaErrorFileNotFound },
   { CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND, cudaErrorSharedObjectSymbolNotFound },
   { CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, cudaErrorSharedObjectInitFailed },
   { CUDA_ERROR_OPERATING_SYSTEM, cudaErrorOperatingSystem },
   { CUDA_ERROR_INVALID_HANDLE, cudaErrorInvalidResourceHandle },
   { CUDA_ERROR_ILLEGAL_STATE, cudaErrorIllegalState },
   { CUDA_ERROR_LOSSY_QUERY, cudaErrorLossyQuery },
   { CUDA_ERROR_NOT_FOUND, cudaErrorSymbolNotFound },
   { CUDA_ERROR_NOT_READY, cudaErrorNotReady },
   { CUDA_ERROR_ILLEGAL_ADDRESS, cudaErrorIllegalAddress },
   { CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, cudaErrorLaunchOutOfResources },
   { CUDA_ERROR_LAUNCH_TIMEOUT, cudaErrorLaunchTimeout },
   { CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING, cudaErrorLaunchIncompatibleTexturing },
   { CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, cudaErrorPeerAccessAlreadyEnabled },
   { CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, cudaErrorPeerAccessNotEnabled },
   { CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE, cudaErrorSetOnActiveProcess },
   { CUDA_ERROR_CONTEXT_IS_DESTROYED, cudaErrorContextIsDestroyed },
   { CUDA_ERROR_ASSERT, cudaErrorAssert },
   { CUDA_ERROR_TOO_MANY_PEERS, cudaErrorTooManyPeers },
   { CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, cudaErrorHostMemoryAlreadyRegistered },
   { CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, cudaErrorHostMemoryNotRegistered },
   { CUDA_ERROR_HARDWARE_STACK_ERROR, cudaErrorHardwareStackError },
   { CUDA_ERROR_ILLEGAL_INSTRUCTION, cudaErrorIllegalInstruction },
   { CUDA_ERROR_MISALIGNED_ADDRESS, cudaErrorMisalignedAddress },
   { CUDA_ERROR_INVALID_ADDRESS_SPACE, cudaErrorInvalidAddressSpace },
   { CUDA_ERROR_INVALID_PC, cudaErrorInvalidPc },
   { CUDA_ERROR_LAUNCH_FAILED, cudaErrorLaunchFailure },
   { CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, cudaErrorCooperativeLaunchTooLarge },
   { CUDA_ERROR_TENSOR_MEMORY_LEAK, cudaErrorTensorMemoryLeak },
   { CUDA_ERROR_NOT_PERMITTED, cudaErrorNotPermitted },
   { CUDA_ERROR_NOT_SUPPORTED, cudaErrorNotSupported },
   { CUDA_ERROR_SYSTEM_NOT_READY, cudaErrorSystemNotReady },
   { CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, cudaErrorSystemDriverMismatch },
   { CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE, cudaErrorCompatNotSupportedOnDevice },
   { CUDA_ERROR_MPS_CONNECTION_FAILED, cudaErrorMpsConnectionFailed },
   { CUDA_ERROR_MPS_RPC_FAILURE, cudaErrorMpsRpcFailure },
   { CUDA_ERROR_MPS_SERVER_NOT_READY, cudaErrorMpsServerNotReady },
   { CUDA_ERROR_MPS_MAX_CLIENTS_REACHED, cudaErrorMpsMaxClientsReached },
   { CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED, cudaErrorMpsMaxConnectionsReached },
   { CUDA_ERROR_MPS_CLIENT_TERMINATED, cudaErrorMpsClientTerminated },
   { CUDA_ERROR_CDP_NOT_SUPPORTED, cudaErrorCdpNotSupported },
   { CUDA_ERROR_CDP_VERSION_MISMATCH, cudaErrorCdpVersionMismatch },
   { CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cudaErrorStreamCaptureUnsupported },
   { CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cudaErrorStreamCaptureInvalidated },
   { CUDA_ERROR_STREAM_CAPTURE_MERGE, cudaErrorStreamCaptureMerge },
   { CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, cudaErrorStreamCaptureUnmatched },
   { CUDA_ERROR_STREAM_CAPTURE_UNJOINED, cudaErrorStreamCaptureUnjoined },
   { CUDA_ERROR_STREAM_CAPTURE_ISOLATION, cudaErrorStreamCaptureIsolation },
   { CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, cudaErrorStreamCaptureImplicit },
   { CUDA_ERROR_CAPTURED_EVENT, cudaErrorCapturedEvent },
   { CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, cudaErrorStreamCaptureWrongThread },
   { CUDA_ERROR_TIMEOUT, cudaErrorTimeout },
   { CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, cudaErrorGraphExecUpdateFailure },
   { CUDA_ERROR_EXTERNAL_DEVICE, cudaErrorExternalDevice },
   { CUDA_ERROR_INVALID_CLUSTER_SIZE, cudaErrorInvalidClusterSize },
   { CUDA_ERROR_FUNCTION_NOT_LOADED, cudaErrorFunctionNotLoaded },
   { CUDA_ERROR_INVALID_RESOURCE_TYPE, cudaErrorInvalidResourceType },
   { CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION, cudaErrorInvalidResourceConfiguration },
   { CUDA_ERROR_KEY_ROTATION, cudaErrorUnknown },
   { CUDA_ERROR_UNKNOWN, cudaErrorUnknown },
};

cudaError_t
cuvk_rt_from_cu(CUresult res)
{
   if (cuvk_likely(res == CUDA_SUCCESS))
      return cudaSuccess;
   /* Only failures get here; a scan of a hundred rows is nothing next to
    * what failed. */
   for (size_t i = 0; i < CUVK_ARRAY_SIZE(rt_result_map); i++) {
      if (rt_result_map[i].cu == res)
         return rt_result_map[i].rt;
   }
   cuvk_loge("driver result %d has no runtime equivalent; reporting cudaErrorUnknown", (int)res);
   return cudaErrorUnknown;
}

cudaError_t
cuvk_rt_return(cudaError_t err)
{
   if (cuvk_unlikely(err != cudaSuccess && err != cudaErrorNotReady))
      rt_last_error = err;
   return err;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaGetLastError(void)
{
   cudaError_t err = rt_last_error;
   rt_last_error = cudaSuccess;
   return err;
}

CUVK_EXPORT cudaError_t CUDARTAPI
cudaPeekAtLastError(void)
{
   return rt_last_error;
}

/* Every runtime result with its name and our description of it. */
static const struct {
   cudaError_t code;
   const char *name;
   const char *string;
} rt_error_table[] = {
#define E(code, text) { code, #code, text }
   E(cudaSuccess, "no error"),
   E(cudaErrorInvalidValue, "an argument is out of its valid range"),
   E(cudaErrorMemoryAllocation, "out of memory"),
   E(cudaErrorInitializationError, "the CUDA driver could not be initialized"),
   E(cudaErrorCudartUnloading, "the runtime is shutting down"),
   E(cudaErrorProfilerDisabled, "the profiler is disabled for this run"),
   E(cudaErrorProfilerNotInitialized, "the profiler was not initialized"),
   E(cudaErrorProfilerAlreadyStarted, "the profiler is already running"),
   E(cudaErrorProfilerAlreadyStopped, "the profiler is already stopped"),
   E(cudaErrorInvalidConfiguration, "the launch configuration is invalid for this device"),
   E(cudaErrorInvalidPitchValue, "the pitch is out of its valid range"),
   E(cudaErrorInvalidSymbol, "the symbol is not a valid device symbol"),
   E(cudaErrorInvalidHostPointer, "the host pointer is invalid"),
   E(cudaErrorInvalidDevicePointer, "the device pointer is invalid"),
   E(cudaErrorInvalidTexture, "the texture is invalid"),
   E(cudaErrorInvalidTextureBinding, "the texture binding is invalid"),
   E(cudaErrorInvalidChannelDescriptor, "the channel descriptor is invalid"),
   E(cudaErrorInvalidMemcpyDirection, "the copy direction is not a cudaMemcpyKind"),
   E(cudaErrorAddressOfConstant, "the address of a constant variable was taken"),
   E(cudaErrorTextureFetchFailed, "a texture fetch failed"),
   E(cudaErrorTextureNotBound, "the texture is not bound"),
   E(cudaErrorSynchronizationError, "synchronization failed"),
   E(cudaErrorInvalidFilterSetting, "the filter setting is invalid for this texture"),
   E(cudaErrorInvalidNormSetting, "the normalization setting is invalid for this texture"),
   E(cudaErrorMixedDeviceExecution, "device and emulated code were mixed"),
   E(cudaErrorNotYetImplemented, "the function is not implemented"),
   E(cudaErrorMemoryValueTooLarge, "the value is too large for device memory"),
   E(cudaErrorStubLibrary, "a stub library was loaded instead of a real driver"),
   E(cudaErrorInsufficientDriver, "the installed driver is older than this runtime"),
   E(cudaErrorCallRequiresNewerDriver, "this call needs a newer driver"),
   E(cudaErrorInvalidSurface, "the surface is invalid"),
   E(cudaErrorDuplicateVariableName, "two device variables have the same name"),
   E(cudaErrorDuplicateTextureName, "two textures have the same name"),
   E(cudaErrorDuplicateSurfaceName, "two surfaces have the same name"),
   E(cudaErrorDevicesUnavailable, "the devices are busy or unavailable right now"),
   E(cudaErrorIncompatibleDriverContext, "the current driver context is not usable by the runtime"),
   E(cudaErrorMissingConfiguration, "the launch was not configured"),
   E(cudaErrorPriorLaunchFailure, "an earlier launch failed"),
   E(cudaErrorLaunchMaxDepthExceeded, "the launch is nested too deeply"),
   E(cudaErrorLaunchFileScopedTex, "device code used a file-scoped texture"),
   E(cudaErrorLaunchFileScopedSurf, "device code used a file-scoped surface"),
   E(cudaErrorSyncDepthExceeded, "device-side synchronization is nested too deeply"),
   E(cudaErrorLaunchPendingCountExceeded, "too many device-side launches are pending"),
   E(cudaErrorInvalidDeviceFunction, "the function cannot run on this device"),
   E(cudaErrorNoDevice, "no usable device was found"),
   E(cudaErrorInvalidDevice, "the device ordinal does not name a usable device"),
   E(cudaErrorDeviceNotLicensed, "the device lacks a license for this operation"),
   E(cudaErrorSoftwareValidityNotEstablished, "the software's integrity could not be verified"),
   E(cudaErrorStartupFailure, "the runtime failed to start"),
   E(cudaErrorInvalidKernelImage, "the device code image is invalid"),
   E(cudaErrorDeviceUninitialized, "there is no valid context for this call"),
   E(cudaErrorMapBufferObjectFailed, "mapping the buffer failed"),
   E(cudaErrorUnmapBufferObjectFailed, "unmapping the buffer failed"),
   E(cudaErrorArrayIsMapped, "the array is mapped and cannot be destroyed"),
   E(cudaErrorAlreadyMapped, "the resource is already mapped"),
   E(cudaErrorNoKernelImageForDevice, "no device code fits this device"),
   E(cudaErrorAlreadyAcquired, "the resource has already been acquired"),
   E(cudaErrorNotMapped, "the resource is not mapped"),
   E(cudaErrorNotMappedAsArray, "the mapped resource cannot be used as an array"),
   E(cudaErrorNotMappedAsPointer, "the mapped resource cannot be used as a pointer"),
   E(cudaErrorECCUncorrectable, "an uncorrectable ECC error was detected"),
   E(cudaErrorUnsupportedLimit, "the device does not support this limit"),
   E(cudaErrorDeviceAlreadyInUse, "the device is already in use by another thread"),
   E(cudaErrorPeerAccessUnsupported, "peer access between these devices is not supported"),
   E(cudaErrorInvalidPtx, "compiling the PTX failed"),
   E(cudaErrorInvalidGraphicsContext, "the graphics API context is invalid"),
   E(cudaErrorNvlinkUncorrectable, "an uncorrectable NVLink error was detected"),
   E(cudaErrorJitCompilerNotFound, "the PTX JIT compiler is not available"),
   E(cudaErrorUnsupportedPtxVersion, "the PTX was built for a newer toolchain than the driver knows"),
   E(cudaErrorJitCompilationDisabled, "JIT compilation has been disabled"),
   E(cudaErrorUnsupportedExecAffinity, "the requested execution affinity is not supported"),
   E(cudaErrorUnsupportedDevSideSync, "device-side synchronization is not supported by this code"),
   E(cudaErrorContained, "an error in a device partition was contained there"),
   E(cudaErrorInvalidSource, "the device kernel source is invalid"),
   E(cudaErrorFileNotFound, "the file was not found"),
   E(cudaErrorSharedObjectSymbolNotFound, "a shared object symbol could not be resolved"),
   E(cudaErrorSharedObjectInitFailed, "a shared object failed to initialize"),
   E(cudaErrorOperatingSystem, "an operating system call failed"),
   E(cudaErrorInvalidResourceHandle, "the handle is invalid or of the wrong type"),
   E(cudaErrorIllegalState, "the resource is not in a state that allows this operation"),
   E(cudaErrorLossyQuery, "the answer would lose information"),
   E(cudaErrorSymbolNotFound, "the named symbol was not found"),
   E(cudaErrorNotReady, "the work has not completed yet"),
   E(cudaErrorIllegalAddress, "device code accessed an illegal address"),
   E(cudaErrorLaunchOutOfResources, "the launch needs more resources than the device has"),
   E(cudaErrorLaunchTimeout, "the device work ran past the timeout and was stopped"),
   E(cudaErrorLaunchIncompatibleTexturing, "the launch used an incompatible texturing mode"),
   E(cudaErrorPeerAccessAlreadyEnabled, "peer access is already enabled"),
   E(cudaErrorPeerAccessNotEnabled, "peer access has not been enabled"),
   E(cudaErrorSetOnActiveProcess, "the setting cannot change once the device is active"),
   E(cudaErrorContextIsDestroyed, "the context has been destroyed"),
   E(cudaErrorAssert, "a device-side assert failed"),
   E(cudaErrorTooManyPeers, "too many peer devices are mapped"),
   E(cudaErrorHostMemoryAlreadyRegistered, "the host memory is already registered"),
   E(cudaErrorHostMemoryNotRegistered, "the host memory is not registered"),
   E(cudaErrorHardwareStackError, "the device call stack overflowed or was corrupted"),
   E(cudaErrorIllegalInstruction, "device code executed an illegal instruction"),
   E(cudaErrorMisalignedAddress, "device code used a misaligned address"),
   E(cudaErrorInvalidAddressSpace, "device code used an address in the wrong address space"),
   E(cudaErrorInvalidPc, "device code jumped to an invalid program counter"),
   E(cudaErrorLaunchFailure, "device work failed; the context is unusable"),
   E(cudaErrorCooperativeLaunchTooLarge, "the cooperative launch has more blocks than can run at once"),
   E(cudaErrorTensorMemoryLeak, "a kernel exited without freeing its tensor memory"),
   E(cudaErrorNotPermitted, "the operation is not permitted"),
   E(cudaErrorNotSupported, "the operation is not supported on this device or driver"),
   E(cudaErrorSystemNotReady, "the system is not ready for GPU work"),
   E(cudaErrorSystemDriverMismatch, "the user-mode and kernel-mode drivers do not match"),
   E(cudaErrorCompatNotSupportedOnDevice, "forward compatibility is not supported on this device"),
   E(cudaErrorMpsConnectionFailed, "connecting to the MPS server failed"),
   E(cudaErrorMpsRpcFailure, "a call to the MPS server failed"),
   E(cudaErrorMpsServerNotReady, "the MPS server is not ready"),
   E(cudaErrorMpsMaxClientsReached, "the MPS server has no room for more clients"),
   E(cudaErrorMpsMaxConnectionsReached, "the MPS server has no room for more connections"),
   E(cudaErrorMpsClientTerminated, "the MPS client was terminated by the server"),
   E(cudaErrorCdpNotSupported, "dynamic parallelism is not supported here"),
   E(cudaErrorCdpVersionMismatch, "the dynamic parallelism versions do not match"),
   E(cudaErrorStreamCaptureUnsupported, "the operation is not allowed while the stream is capturing"),
   E(cudaErrorStreamCaptureInvalidated, "the stream capture was invalidated by an earlier error"),
   E(cudaErrorStreamCaptureMerge, "two independent captures would be merged"),
   E(cudaErrorStreamCaptureUnmatched, "the capture was not started in this stream"),
   E(cudaErrorStreamCaptureUnjoined, "a forked capture was not joined back to its origin stream"),
   E(cudaErrorStreamCaptureIsolation, "the dependency would cross the capture boundary"),
   E(cudaErrorStreamCaptureImplicit, "the operation would sync implicitly with a capturing stream"),
   E(cudaErrorCapturedEvent, "the operation is not allowed on an event from a capture"),
   E(cudaErrorStreamCaptureWrongThread, "the capture was started by another thread"),
   E(cudaErrorTimeout, "the wait timed out"),
   E(cudaErrorGraphExecUpdateFailure, "the executable graph could not be updated in place"),
   E(cudaErrorExternalDevice, "an external device reported an error"),
   E(cudaErrorInvalidClusterSize, "the cluster size is invalid"),
   E(cudaErrorFunctionNotLoaded, "the function has not been loaded"),
   E(cudaErrorInvalidResourceType, "the resource type is invalid for this operation"),
   E(cudaErrorInvalidResourceConfiguration, "the resource configuration is invalid"),
   E(cudaErrorUnknown, "an unknown internal error occurred"),
   E(cudaErrorApiFailureBase, "the base of internal API failure codes"),
#undef E
};

/* What both calls return for a code that is not a cudaError_t, as real
 * CUDA does. */
static const char rt_unrecognized[] = "unrecognized error code";

CUVK_EXPORT const char *CUDARTAPI
cudaGetErrorName(cudaError_t error)
{
   for (size_t i = 0; i < CUVK_ARRAY_SIZE(rt_error_table); i++) {
      if (rt_error_table[i].code == error)
         return rt_error_table[i].name;
   }
   return rt_unrecognized;
}

CUVK_EXPORT const char *CUDARTAPI
cudaGetErrorString(cudaError_t error)
{
   for (size_t i = 0; i < CUVK_ARRAY_SIZE(rt_error_table); i++) {
      if (rt_error_table[i].code == error)
         return rt_error_table[i].string;
   }
   return rt_unrecognized;
}

cudaError_t
cuvk_rt_error_at(cudaError_t err, const char *file, int line, const char *fmt, ...)
{
   char msg[768];
   va_list ap;

   va_start(ap, fmt);
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);
   cuvk_log_msg(CUVK_LOG_ERROR, file, line, "%s (%s)", msg, cudaGetErrorName(err));
   return err;
}
