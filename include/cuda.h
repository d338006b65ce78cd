/*
 * cuvk: the CUDA driver API, implemented on Vulkan.
 *
 * This header declares the part of the driver API that cuvk provides.  A
 * program built against NVIDIA's cuda.h must run unchanged on libcuvk, so
 * every type, constant and symbol name below matches NVIDIA's CUDA 13.0
 * header bit for bit (tests/abi checks this against the real header).  The
 * text is our own; only the facts (names, values, layouts) are shared.
 *
 * Versioned symbols.  Many entry points changed signature over the years
 * and NVIDIA kept the old ones for old binaries: the plain name is the
 * oldest version, and this header renames calls to the current one
 * (cuMemAlloc -> cuMemAlloc_v2).  Defining CUDA_API_PER_THREAD_DEFAULT_STREAM
 * further renames calls that use the default stream to their _ptds/_ptsz
 * forms.  An implementation file defines __CUDA_API_VERSION_INTERNAL before
 * including this header: then the renames are dropped again at the end, and
 * every symbol (plain legacy, _vN, _ptds, _ptsz) is declared under its own
 * name so that each can be defined.
 */
#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__

#include <stddef.h>
#include <stdint.h>

/* The API version this header describes: 13.0. */
#define CUDA_VERSION 13000

#if defined(_WIN32)
#define CUDAAPI __stdcall
#else
#define CUDAAPI
#endif

#if defined(_WIN32)
#define CUDA_CB __stdcall
#else
#define CUDA_CB
#endif

typedef uint32_t cuuint32_t;
typedef uint64_t cuuint64_t;

/*
 * Per-thread default stream.  __CUDA_API_PTDS names a synchronous call,
 * __CUDA_API_PTSZ one that takes a stream; both add the per-thread suffix
 * when the program asked for it (and always for the implementation, which
 * must see every symbol).
 */
#if defined(__CUDA_API_VERSION_INTERNAL) || defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define __CUDA_API_PER_THREAD_DEFAULT_STREAM
#define __CUDA_API_PTDS(api) api ## _ptds
#define __CUDA_API_PTSZ(api) api ## _ptsz
#else
#define __CUDA_API_PTDS(api) api
#define __CUDA_API_PTSZ(api) api
#endif

/* ---- Current versions of renamed entry points (CUDA 13.0) ---- */

/* Devices and primary contexts */
#define cuDeviceGetUuid             cuDeviceGetUuid_v2
#define cuDeviceTotalMem            cuDeviceTotalMem_v2
#define cuDevicePrimaryCtxRelease   cuDevicePrimaryCtxRelease_v2
#define cuDevicePrimaryCtxReset     cuDevicePrimaryCtxReset_v2
#define cuDevicePrimaryCtxSetFlags  cuDevicePrimaryCtxSetFlags_v2

/* Modules */
#define cuModuleGetGlobal           cuModuleGetGlobal_v2
#define cuLinkCreate                cuLinkCreate_v2
#define cuLinkAddData               cuLinkAddData_v2
#define cuLinkAddFile               cuLinkAddFile_v2

/* Contexts */
#define cuCtxCreate                 cuCtxCreate_v4
#define cuCtxDestroy                cuCtxDestroy_v2
#define cuCtxPushCurrent            cuCtxPushCurrent_v2
#define cuCtxPopCurrent             cuCtxPopCurrent_v2

/* Allocation */
#define cuMemGetInfo                cuMemGetInfo_v2
#define cuMemAlloc                  cuMemAlloc_v2
#define cuMemAllocPitch             cuMemAllocPitch_v2
#define cuMemFree                   cuMemFree_v2
#define cuMemGetAddressRange        cuMemGetAddressRange_v2
#define cuMemAllocHost              cuMemAllocHost_v2
#define cuMemHostGetDevicePointer   cuMemHostGetDevicePointer_v2
#define cuMemHostRegister           cuMemHostRegister_v2

/* Managed memory hints: CUmemLocation forms */
#define cuMemAdvise                 cuMemAdvise_v2
#define cuMemPrefetchAsync          __CUDA_API_PTSZ(cuMemPrefetchAsync_v2)

/* Copies and fills: size_t sizes, plus per-thread stream forms */
#define cuMemcpyHtoD                __CUDA_API_PTDS(cuMemcpyHtoD_v2)
#define cuMemcpyDtoH                __CUDA_API_PTDS(cuMemcpyDtoH_v2)
#define cuMemcpyDtoD                __CUDA_API_PTDS(cuMemcpyDtoD_v2)
#define cuMemcpyHtoDAsync           __CUDA_API_PTSZ(cuMemcpyHtoDAsync_v2)
#define cuMemcpyDtoHAsync           __CUDA_API_PTSZ(cuMemcpyDtoHAsync_v2)
#define cuMemcpyDtoDAsync           __CUDA_API_PTSZ(cuMemcpyDtoDAsync_v2)
#define cuMemsetD8                  __CUDA_API_PTDS(cuMemsetD8_v2)
#define cuMemsetD16                 __CUDA_API_PTDS(cuMemsetD16_v2)
#define cuMemsetD32                 __CUDA_API_PTDS(cuMemsetD32_v2)
#define cuMemsetD2D8                __CUDA_API_PTDS(cuMemsetD2D8_v2)
#define cuMemsetD2D16               __CUDA_API_PTDS(cuMemsetD2D16_v2)
#define cuMemsetD2D32               __CUDA_API_PTDS(cuMemsetD2D32_v2)

/* Arrays and the copies that reach them */
#define cuArrayCreate               cuArrayCreate_v2
#define cuArrayGetDescriptor        cuArrayGetDescriptor_v2
#define cuArray3DCreate             cuArray3DCreate_v2
#define cuArray3DGetDescriptor      cuArray3DGetDescriptor_v2
#define cuMemcpyDtoA                __CUDA_API_PTDS(cuMemcpyDtoA_v2)
#define cuMemcpyAtoD                __CUDA_API_PTDS(cuMemcpyAtoD_v2)
#define cuMemcpyHtoA                __CUDA_API_PTDS(cuMemcpyHtoA_v2)
#define cuMemcpyAtoH                __CUDA_API_PTDS(cuMemcpyAtoH_v2)
#define cuMemcpyAtoA                __CUDA_API_PTDS(cuMemcpyAtoA_v2)
#define cuMemcpyHtoAAsync           __CUDA_API_PTSZ(cuMemcpyHtoAAsync_v2)
#define cuMemcpyAtoHAsync           __CUDA_API_PTSZ(cuMemcpyAtoHAsync_v2)
#define cuMemcpy2D                  __CUDA_API_PTDS(cuMemcpy2D_v2)
#define cuMemcpy2DUnaligned         __CUDA_API_PTDS(cuMemcpy2DUnaligned_v2)
#define cuMemcpy2DAsync             __CUDA_API_PTSZ(cuMemcpy2DAsync_v2)
#define cuMemcpy3D                  __CUDA_API_PTDS(cuMemcpy3D_v2)
#define cuMemcpy3DAsync             __CUDA_API_PTSZ(cuMemcpy3DAsync_v2)

/* Streams and events */
#define cuStreamDestroy             cuStreamDestroy_v2
#define cuEventDestroy              cuEventDestroy_v2
#define cuEventElapsedTime          cuEventElapsedTime_v2

/* Entry-point lookup */
#define cuGetProcAddress            cuGetProcAddress_v2

/* Graphs and stream capture */
#define cuStreamBeginCapture        __CUDA_API_PTSZ(cuStreamBeginCapture_v2)
#define cuStreamGetCaptureInfo      __CUDA_API_PTSZ(cuStreamGetCaptureInfo_v3)
#define cuGraphInstantiate          cuGraphInstantiateWithFlags
#define cuGraphAddKernelNode        cuGraphAddKernelNode_v2
#define cuGraphKernelNodeGetParams  cuGraphKernelNodeGetParams_v2
#define cuGraphGetEdges             cuGraphGetEdges_v2
#define cuGraphNodeGetDependencies  cuGraphNodeGetDependencies_v2
#define cuGraphNodeGetDependentNodes cuGraphNodeGetDependentNodes_v2
#define cuGraphAddDependencies      cuGraphAddDependencies_v2

/* Calls whose only other version is the per-thread default stream one. */
#if defined(__CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define cuMemcpy                    __CUDA_API_PTDS(cuMemcpy)
#define cuMemcpyAsync               __CUDA_API_PTSZ(cuMemcpyAsync)
#define cuMemsetD8Async             __CUDA_API_PTSZ(cuMemsetD8Async)
#define cuMemsetD16Async            __CUDA_API_PTSZ(cuMemsetD16Async)
#define cuMemsetD32Async            __CUDA_API_PTSZ(cuMemsetD32Async)
#define cuMemsetD2D8Async           __CUDA_API_PTSZ(cuMemsetD2D8Async)
#define cuMemsetD2D16Async          __CUDA_API_PTSZ(cuMemsetD2D16Async)
#define cuMemsetD2D32Async          __CUDA_API_PTSZ(cuMemsetD2D32Async)
#define cuStreamQuery               __CUDA_API_PTSZ(cuStreamQuery)
#define cuStreamSynchronize         __CUDA_API_PTSZ(cuStreamSynchronize)
#define cuStreamWaitEvent           __CUDA_API_PTSZ(cuStreamWaitEvent)
#define cuStreamGetFlags            __CUDA_API_PTSZ(cuStreamGetFlags)
#define cuStreamGetPriority         __CUDA_API_PTSZ(cuStreamGetPriority)
#define cuEventRecord               __CUDA_API_PTSZ(cuEventRecord)
#define cuEventRecordWithFlags      __CUDA_API_PTSZ(cuEventRecordWithFlags)
#define cuStreamGetCtx              __CUDA_API_PTSZ(cuStreamGetCtx)
#define cuStreamGetCtx_v2           __CUDA_API_PTSZ(cuStreamGetCtx_v2)
#define cuStreamGetId               __CUDA_API_PTSZ(cuStreamGetId)
#define cuStreamGetDevice           __CUDA_API_PTSZ(cuStreamGetDevice)
#define cuStreamAddCallback         __CUDA_API_PTSZ(cuStreamAddCallback)
#define cuLaunchHostFunc            __CUDA_API_PTSZ(cuLaunchHostFunc)
#define cuLaunchKernel              __CUDA_API_PTSZ(cuLaunchKernel)
#define cuLaunchKernelEx            __CUDA_API_PTSZ(cuLaunchKernelEx)
#define cuSignalExternalSemaphoresAsync __CUDA_API_PTSZ(cuSignalExternalSemaphoresAsync)
#define cuWaitExternalSemaphoresAsync __CUDA_API_PTSZ(cuWaitExternalSemaphoresAsync)
#define cuStreamEndCapture          __CUDA_API_PTSZ(cuStreamEndCapture)
#define cuStreamIsCapturing         __CUDA_API_PTSZ(cuStreamIsCapturing)
#define cuGraphLaunch               __CUDA_API_PTSZ(cuGraphLaunch)
#define cuMemAllocAsync             __CUDA_API_PTSZ(cuMemAllocAsync)
#define cuMemFreeAsync              __CUDA_API_PTSZ(cuMemFreeAsync)
#define cuMemAllocFromPoolAsync     __CUDA_API_PTSZ(cuMemAllocFromPoolAsync)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Handles and basic types ---- */

/* Device addresses are as wide as host pointers. */
#if defined(_WIN64) || defined(__LP64__)
typedef unsigned long long CUdeviceptr_v2;
#else
typedef unsigned int CUdeviceptr_v2;
#endif
typedef CUdeviceptr_v2 CUdeviceptr;

/* A device is an ordinal. */
typedef int CUdevice_v1;
typedef CUdevice_v1 CUdevice;

/* Opaque objects; the struct tags match NVIDIA's so C++ code that names
 * them (struct CUstream_st) keeps working. */
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUarray_st *CUarray;
typedef struct CUmipmappedArray_st *CUmipmappedArray;
typedef struct CUevent_st *CUevent;
typedef struct CUstream_st *CUstream;
typedef struct CUextMemory_st *CUexternalMemory;
typedef struct CUextSemaphore_st *CUexternalSemaphore;
typedef struct CUgreenCtx_st *CUgreenCtx;
/* A memory pool of the stream-ordered allocator. */
typedef struct CUmemPoolHandle_st *CUmemoryPool;

/* Texture and surface objects are 64-bit values, not pointers: kernels
 * receive them as parameters or load them from memory. */
typedef unsigned long long CUtexObject_v1;
typedef CUtexObject_v1 CUtexObject;
typedef unsigned long long CUsurfObject_v1;
typedef CUsurfObject_v1 CUsurfObject;

/* A physical allocation of the virtual-memory API. */
typedef unsigned long long CUmemGenericAllocationHandle_v1;
typedef CUmemGenericAllocationHandle_v1 CUmemGenericAllocationHandle;

/* Shared with the runtime API headers, hence the guard. */
#ifndef CU_UUID_HAS_BEEN_DEFINED
#define CU_UUID_HAS_BEEN_DEFINED
typedef struct CUuuid_st {
   char bytes[16];
} CUuuid;
#endif

/* Special stream handles: the legacy (process-wide, synchronising) default
 * stream, and the calling thread's own default stream. */
#define CU_STREAM_LEGACY     ((CUstream)0x1)
#define CU_STREAM_PER_THREAD ((CUstream)0x2)

/* Device ordinals with a special meaning (memory locations, advice). */
#define CU_DEVICE_CPU     ((CUdevice)-1)
#define CU_DEVICE_INVALID ((CUdevice)-2)

/* ---- Result codes ---- */

typedef enum cudaError_enum {
   CUDA_SUCCESS = 0,
   CUDA_ERROR_INVALID_VALUE = 1,
   CUDA_ERROR_OUT_OF_MEMORY = 2,
   CUDA_ERROR_NOT_INITIALIZED = 3,
   CUDA_ERROR_DEINITIALIZED = 4,
   CUDA_ERROR_PROFILER_DISABLED = 5,
   CUDA_ERROR_PROFILER_NOT_INITIALIZED = 6,
   CUDA_ERROR_PROFILER_ALREADY_STARTED = 7,
   CUDA_ERROR_PROFILER_ALREADY_STOPPED = 8,
   CUDA_ERROR_STUB_LIBRARY = 34,
   CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER = 36,
   CUDA_ERROR_DEVICE_UNAVAILABLE = 46,

   CUDA_ERROR_NO_DEVICE = 100,
   CUDA_ERROR_INVALID_DEVICE = 101,
   CUDA_ERROR_DEVICE_NOT_LICENSED = 102,

   CUDA_ERROR_INVALID_IMAGE = 200,
   CUDA_ERROR_INVALID_CONTEXT = 201,
   CUDA_ERROR_CONTEXT_ALREADY_CURRENT = 202,
   CUDA_ERROR_MAP_FAILED = 205,
   CUDA_ERROR_UNMAP_FAILED = 206,
   CUDA_ERROR_ARRAY_IS_MAPPED = 207,
   CUDA_ERROR_ALREADY_MAPPED = 208,
   CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
   CUDA_ERROR_ALREADY_ACQUIRED = 210,
   CUDA_ERROR_NOT_MAPPED = 211,
   CUDA_ERROR_NOT_MAPPED_AS_ARRAY = 212,
   CUDA_ERROR_NOT_MAPPED_AS_POINTER = 213,
   CUDA_ERROR_ECC_UNCORRECTABLE = 214,
   CUDA_ERROR_UNSUPPORTED_LIMIT = 215,
   CUDA_ERROR_CONTEXT_ALREADY_IN_USE = 216,
   CUDA_ERROR_PEER_ACCESS_UNSUPPORTED = 217,
   CUDA_ERROR_INVALID_PTX = 218,
   CUDA_ERROR_INVALID_GRAPHICS_CONTEXT = 219,
   CUDA_ERROR_NVLINK_UNCORRECTABLE = 220,
   CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221,
   CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
   CUDA_ERROR_JIT_COMPILATION_DISABLED = 223,
   CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY = 224,
   CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC = 225,
   CUDA_ERROR_CONTAINED = 226,

   CUDA_ERROR_INVALID_SOURCE = 300,
   CUDA_ERROR_FILE_NOT_FOUND = 301,
   CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND = 302,
   CUDA_ERROR_SHARED_OBJECT_INIT_FAILED = 303,
   CUDA_ERROR_OPERATING_SYSTEM = 304,

   CUDA_ERROR_INVALID_HANDLE = 400,
   CUDA_ERROR_ILLEGAL_STATE = 401,
   CUDA_ERROR_LOSSY_QUERY = 402,

   CUDA_ERROR_NOT_FOUND = 500,

   CUDA_ERROR_NOT_READY = 600,

   CUDA_ERROR_ILLEGAL_ADDRESS = 700,
   CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
   CUDA_ERROR_LAUNCH_TIMEOUT = 702,
   CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING = 703,
   CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704,
   CUDA_ERROR_PEER_ACCESS_NOT_ENABLED = 705,
   CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE = 708,
   CUDA_ERROR_CONTEXT_IS_DESTROYED = 709,
   CUDA_ERROR_ASSERT = 710,
   CUDA_ERROR_TOO_MANY_PEERS = 711,
   CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
   CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED = 713,
   CUDA_ERROR_HARDWARE_STACK_ERROR = 714,
   CUDA_ERROR_ILLEGAL_INSTRUCTION = 715,
   CUDA_ERROR_MISALIGNED_ADDRESS = 716,
   CUDA_ERROR_INVALID_ADDRESS_SPACE = 717,
   CUDA_ERROR_INVALID_PC = 718,
   CUDA_ERROR_LAUNCH_FAILED = 719,
   CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720,
   CUDA_ERROR_TENSOR_MEMORY_LEAK = 721,

   CUDA_ERROR_NOT_PERMITTED = 800,
   CUDA_ERROR_NOT_SUPPORTED = 801,
   CUDA_ERROR_SYSTEM_NOT_READY = 802,
   CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803,
   CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804,
   CUDA_ERROR_MPS_CONNECTION_FAILED = 805,
   CUDA_ERROR_MPS_RPC_FAILURE = 806,
   CUDA_ERROR_MPS_SERVER_NOT_READY = 807,
   CUDA_ERROR_MPS_MAX_CLIENTS_REACHED = 808,
   CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED = 809,
   CUDA_ERROR_MPS_CLIENT_TERMINATED = 810,
   CUDA_ERROR_CDP_NOT_SUPPORTED = 811,
   CUDA_ERROR_CDP_VERSION_MISMATCH = 812,

   CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900,
   CUDA_ERROR_STREAM_CAPTURE_INVALIDATED = 901,
   CUDA_ERROR_STREAM_CAPTURE_MERGE = 902,
   CUDA_ERROR_STREAM_CAPTURE_UNMATCHED = 903,
   CUDA_ERROR_STREAM_CAPTURE_UNJOINED = 904,
   CUDA_ERROR_STREAM_CAPTURE_ISOLATION = 905,
   CUDA_ERROR_STREAM_CAPTURE_IMPLICIT = 906,
   CUDA_ERROR_CAPTURED_EVENT = 907,
   CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD = 908,
   CUDA_ERROR_TIMEOUT = 909,
   CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE = 910,
   CUDA_ERROR_EXTERNAL_DEVICE = 911,
   CUDA_ERROR_INVALID_CLUSTER_SIZE = 912,
   CUDA_ERROR_FUNCTION_NOT_LOADED = 913,
   CUDA_ERROR_INVALID_RESOURCE_TYPE = 914,
   CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION = 915,
   CUDA_ERROR_KEY_ROTATION = 916,

   CUDA_ERROR_UNKNOWN = 999
} CUresult;

/* ---- Device properties ---- */

typedef enum CUdevice_attribute_enum {
   CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
   CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
   CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
   CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
   CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
   CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
   CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
   CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
   CU_DEVICE_ATTRIBUTE_SHARED_MEMORY_PER_BLOCK = 8,            /* old name */
   CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY = 9,
   CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
   CU_DEVICE_ATTRIBUTE_MAX_PITCH = 11,
   CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
   CU_DEVICE_ATTRIBUTE_REGISTERS_PER_BLOCK = 12,               /* old name */
   CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
   CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT = 14,
   CU_DEVICE_ATTRIBUTE_GPU_OVERLAP = 15,
   CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
   CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT = 17,
   CU_DEVICE_ATTRIBUTE_INTEGRATED = 18,
   CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY = 19,
   CU_DEVICE_ATTRIBUTE_COMPUTE_MODE = 20,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH = 21,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH = 22,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT = 23,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH = 24,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT = 25,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH = 26,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH = 27,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT = 28,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS = 29,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_WIDTH = 27,     /* old name */
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_HEIGHT = 28,    /* old name */
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_NUMSLICES = 29, /* old name */
   CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT = 30,
   CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS = 31,
   CU_DEVICE_ATTRIBUTE_ECC_ENABLED = 32,
   CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
   CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34,
   CU_DEVICE_ATTRIBUTE_TCC_DRIVER = 35,
   CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
   CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
   CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
   CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
   CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT = 40,
   CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING = 41,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH = 42,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS = 43,
   CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER = 44,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH = 45,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT = 46,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE = 47,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE = 48,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE = 49,
   CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50,
   CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT = 51,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH = 52,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH = 53,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS = 54,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH = 55,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH = 56,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT = 57,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH = 58,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT = 59,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH = 60,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH = 61,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS = 62,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH = 63,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT = 64,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS = 65,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH = 66,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH = 67,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS = 68,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH = 69,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH = 70,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT = 71,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH = 72,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH = 73,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT = 74,
   CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
   CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
   CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH = 77,
   CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED = 78,
   CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED = 79,
   CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED = 80,
   CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
   CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR = 82,
   CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83,
   CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD = 84,
   CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID = 85,
   CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED = 86,
   CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO = 87,
   CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS = 88,
   CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS = 89,
   CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED = 90,
   CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM = 91,
   CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1 = 92,
   CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1 = 93,
   CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1 = 94,
   CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH = 95,
   CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH = 96,
   CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
   CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES = 98,
   CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED = 99,
   CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES = 100,
   CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST = 101,
   CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED = 102, /* old name */
   CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 102,
   CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED = 103,
   CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED = 104,
   CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED = 105,
   CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR = 106,
   CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED = 107,
   CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE = 108,
   CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE = 109,
   CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED = 110,
   CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK = 111,
   CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED = 112,
   CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED = 113,
   CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED = 114,
   CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115,
   CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED = 116,
   CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS = 117,
   CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING = 118,
   CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES = 119,
   CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH = 120,
   CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED = 121,
   CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS = 122,
   CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR = 123,
   CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED = 124,
   CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED = 125,
   CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT = 126,
   CU_DEVICE_ATTRIBUTE_TENSOR_MAP_ACCESS_SUPPORTED = 127,
   CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED = 128,
   CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS = 129,
   CU_DEVICE_ATTRIBUTE_NUMA_CONFIG = 130,
   CU_DEVICE_ATTRIBUTE_NUMA_ID = 131,
   CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED = 132,
   CU_DEVICE_ATTRIBUTE_MPS_ENABLED = 133,
   CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID = 134,
   CU_DEVICE_ATTRIBUTE_D3D12_CIG_SUPPORTED = 135,
   CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK = 136,
   CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_MAXIMUM_LENGTH = 137,
   CU_DEVICE_ATTRIBUTE_VULKAN_CIG_SUPPORTED = 138,
   CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID = 139,
   CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID = 140,
   CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 141,
   CU_DEVICE_ATTRIBUTE_HOST_NUMA_MEMORY_POOLS_SUPPORTED = 142,
   CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED = 143,
   CU_DEVICE_ATTRIBUTE_HOST_MEMORY_POOLS_SUPPORTED = 144,
   CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 145,
   CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED = 146,
   CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED = 147,
   CU_DEVICE_ATTRIBUTE_MAX = 148
} CUdevice_attribute;

/* Value of CU_DEVICE_ATTRIBUTE_COMPUTE_MODE. */
typedef enum CUcomputemode_enum {
   CU_COMPUTEMODE_DEFAULT = 0,
   CU_COMPUTEMODE_PROHIBITED = 2,
   CU_COMPUTEMODE_EXCLUSIVE_PROCESS = 3
} CUcomputemode;

/* Value of CU_DEVICE_ATTRIBUTE_NUMA_CONFIG. */
typedef enum CUdeviceNumaConfig_enum {
   CU_DEVICE_NUMA_CONFIG_NONE = 0,
   CU_DEVICE_NUMA_CONFIG_NUMA_NODE = 1
} CUdeviceNumaConfig;

/* ---- Contexts ---- */

typedef enum CUctx_flags_enum {
   CU_CTX_SCHED_AUTO = 0x00,
   CU_CTX_SCHED_SPIN = 0x01,
   CU_CTX_SCHED_YIELD = 0x02,
   CU_CTX_SCHED_BLOCKING_SYNC = 0x04,
   CU_CTX_BLOCKING_SYNC = 0x04,        /* old name of SCHED_BLOCKING_SYNC */
   CU_CTX_SCHED_MASK = 0x07,
   CU_CTX_MAP_HOST = 0x08,
   CU_CTX_LMEM_RESIZE_TO_MAX = 0x10,
   CU_CTX_COREDUMP_ENABLE = 0x20,
   CU_CTX_USER_COREDUMP_ENABLE = 0x40,
   CU_CTX_SYNC_MEMOPS = 0x80,
   CU_CTX_FLAGS_MASK = 0xff
} CUctx_flags;

/* Execution-affinity (SM partitioning) requests for cuCtxCreate. */
typedef enum CUexecAffinityType_enum {
   CU_EXEC_AFFINITY_TYPE_SM_COUNT = 0,
   CU_EXEC_AFFINITY_TYPE_MAX = 1
} CUexecAffinityType;

typedef struct CUexecAffinitySmCount_st {
   unsigned int val;
} CUexecAffinitySmCount_v1;
typedef CUexecAffinitySmCount_v1 CUexecAffinitySmCount;

typedef struct CUexecAffinityParam_st {
   CUexecAffinityType type;
   union {
      CUexecAffinitySmCount smCount;
   } param;
} CUexecAffinityParam_v1;
typedef CUexecAffinityParam_v1 CUexecAffinityParam;

/* Shared-context ("CIG") data for cuCtxCreate. */
typedef enum CUcigDataType_enum {
   CIG_DATA_TYPE_D3D12_COMMAND_QUEUE = 0x1,
   CIG_DATA_TYPE_NV_BLOB = 0x2
} CUcigDataType;

typedef struct CUctxCigParam_st {
   CUcigDataType sharedDataType;
   void *sharedData;
} CUctxCigParam;

/* Optional extras of cuCtxCreate (_v4); NULL asks for none. */
typedef struct CUctxCreateParams_st {
   CUexecAffinityParam *execAffinityParams;
   int numExecAffinityParams;
   CUctxCigParam *cigParams;
} CUctxCreateParams;

/* ---- Streams and events ---- */

typedef enum CUstream_flags_enum {
   CU_STREAM_DEFAULT = 0x0,
   CU_STREAM_NON_BLOCKING = 0x1       /* no implicit sync with the legacy stream */
} CUstream_flags;

typedef enum CUevent_flags_enum {
   CU_EVENT_DEFAULT = 0x0,
   CU_EVENT_BLOCKING_SYNC = 0x1,
   CU_EVENT_DISABLE_TIMING = 0x2,
   CU_EVENT_INTERPROCESS = 0x4
} CUevent_flags;

typedef enum CUevent_sched_flags_enum {
   CU_EVENT_SCHED_AUTO = 0x00,
   CU_EVENT_SCHED_SPIN = 0x01,
   CU_EVENT_SCHED_YIELD = 0x02,
   CU_EVENT_SCHED_BLOCKING_SYNC = 0x04
} CUevent_sched_flags;

typedef enum CUevent_record_flags_enum {
   CU_EVENT_RECORD_DEFAULT = 0x0,
   CU_EVENT_RECORD_EXTERNAL = 0x1
} CUevent_record_flags;

typedef enum CUevent_wait_flags_enum {
   CU_EVENT_WAIT_DEFAULT = 0x0,
   CU_EVENT_WAIT_EXTERNAL = 0x1
} CUevent_wait_flags;

/* ---- Memory ---- */

typedef enum CUmemorytype_enum {
   CU_MEMORYTYPE_HOST = 0x01,
   CU_MEMORYTYPE_DEVICE = 0x02,
   CU_MEMORYTYPE_ARRAY = 0x03,
   CU_MEMORYTYPE_UNIFIED = 0x04
} CUmemorytype;

typedef enum CUpointer_attribute_enum {
   CU_POINTER_ATTRIBUTE_CONTEXT = 1,
   CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
   CU_POINTER_ATTRIBUTE_DEVICE_POINTER = 3,
   CU_POINTER_ATTRIBUTE_HOST_POINTER = 4,
   CU_POINTER_ATTRIBUTE_P2P_TOKENS = 5,
   CU_POINTER_ATTRIBUTE_SYNC_MEMOPS = 6,
   CU_POINTER_ATTRIBUTE_BUFFER_ID = 7,
   CU_POINTER_ATTRIBUTE_IS_MANAGED = 8,
   CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
   CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE = 10,
   CU_POINTER_ATTRIBUTE_RANGE_START_ADDR = 11,
   CU_POINTER_ATTRIBUTE_RANGE_SIZE = 12,
   CU_POINTER_ATTRIBUTE_MAPPED = 13,
   CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES = 14,
   CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE = 15,
   CU_POINTER_ATTRIBUTE_ACCESS_FLAGS = 16,
   CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE = 17,
   CU_POINTER_ATTRIBUTE_MAPPING_SIZE = 18,
   CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR = 19,
   CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID = 20,
   CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE = 21
} CUpointer_attribute;

/* Result of CU_POINTER_ATTRIBUTE_P2P_TOKENS. */
typedef struct CUDA_POINTER_ATTRIBUTE_P2P_TOKENS_st {
   unsigned long long p2pToken;
   unsigned int vaSpaceToken;
} CUDA_POINTER_ATTRIBUTE_P2P_TOKENS_v1;
typedef CUDA_POINTER_ATTRIBUTE_P2P_TOKENS_v1 CUDA_POINTER_ATTRIBUTE_P2P_TOKENS;

/* Result of CU_POINTER_ATTRIBUTE_ACCESS_FLAGS. */
typedef enum CUDA_POINTER_ATTRIBUTE_ACCESS_FLAGS_enum {
   CU_POINTER_ATTRIBUTE_ACCESS_FLAG_NONE = 0x0,
   CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READ = 0x1,
   CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE = 0x3
} CUDA_POINTER_ATTRIBUTE_ACCESS_FLAGS;

/* Flags of cuMemHostAlloc. */
#define CU_MEMHOSTALLOC_PORTABLE      0x01
#define CU_MEMHOSTALLOC_DEVICEMAP     0x02
#define CU_MEMHOSTALLOC_WRITECOMBINED 0x04

/* Flags of cuMemHostRegister. */
#define CU_MEMHOSTREGISTER_PORTABLE   0x01
#define CU_MEMHOSTREGISTER_DEVICEMAP  0x02
#define CU_MEMHOSTREGISTER_IOMEMORY   0x04
#define CU_MEMHOSTREGISTER_READ_ONLY  0x08

/* Element formats of CUDA arrays. */
typedef enum CUarray_format_enum {
   CU_AD_FORMAT_UNSIGNED_INT8 = 0x01,
   CU_AD_FORMAT_UNSIGNED_INT16 = 0x02,
   CU_AD_FORMAT_UNSIGNED_INT32 = 0x03,
   CU_AD_FORMAT_SIGNED_INT8 = 0x08,
   CU_AD_FORMAT_SIGNED_INT16 = 0x09,
   CU_AD_FORMAT_SIGNED_INT32 = 0x0a,
   CU_AD_FORMAT_HALF = 0x10,
   CU_AD_FORMAT_FLOAT = 0x20,
   CU_AD_FORMAT_UNORM_INT_101010_2 = 0x50,
   /* block-compressed */
   CU_AD_FORMAT_BC1_UNORM = 0x91,
   CU_AD_FORMAT_BC1_UNORM_SRGB = 0x92,
   CU_AD_FORMAT_BC2_UNORM = 0x93,
   CU_AD_FORMAT_BC2_UNORM_SRGB = 0x94,
   CU_AD_FORMAT_BC3_UNORM = 0x95,
   CU_AD_FORMAT_BC3_UNORM_SRGB = 0x96,
   CU_AD_FORMAT_BC4_UNORM = 0x97,
   CU_AD_FORMAT_BC4_SNORM = 0x98,
   CU_AD_FORMAT_BC5_UNORM = 0x99,
   CU_AD_FORMAT_BC5_SNORM = 0x9a,
   CU_AD_FORMAT_BC6H_UF16 = 0x9b,
   CU_AD_FORMAT_BC6H_SF16 = 0x9c,
   CU_AD_FORMAT_BC7_UNORM = 0x9d,
   CU_AD_FORMAT_BC7_UNORM_SRGB = 0x9e,
   /* video (YUV) layouts */
   CU_AD_FORMAT_P010 = 0x9f,
   CU_AD_FORMAT_P016 = 0xa1,
   CU_AD_FORMAT_NV16 = 0xa2,
   CU_AD_FORMAT_P210 = 0xa3,
   CU_AD_FORMAT_P216 = 0xa4,
   CU_AD_FORMAT_YUY2 = 0xa5,
   CU_AD_FORMAT_Y210 = 0xa6,
   CU_AD_FORMAT_Y216 = 0xa7,
   CU_AD_FORMAT_AYUV = 0xa8,
   CU_AD_FORMAT_Y410 = 0xa9,
   CU_AD_FORMAT_NV12 = 0xb0,
   CU_AD_FORMAT_Y416 = 0xb1,
   CU_AD_FORMAT_Y444_PLANAR8 = 0xb2,
   CU_AD_FORMAT_Y444_PLANAR10 = 0xb3,
   CU_AD_FORMAT_YUV444_8bit_SemiPlanar = 0xb4,
   CU_AD_FORMAT_YUV444_16bit_SemiPlanar = 0xb5,
   /* normalized vectors */
   CU_AD_FORMAT_UNORM_INT8X1 = 0xc0,
   CU_AD_FORMAT_UNORM_INT8X2 = 0xc1,
   CU_AD_FORMAT_UNORM_INT8X4 = 0xc2,
   CU_AD_FORMAT_UNORM_INT16X1 = 0xc3,
   CU_AD_FORMAT_UNORM_INT16X2 = 0xc4,
   CU_AD_FORMAT_UNORM_INT16X4 = 0xc5,
   CU_AD_FORMAT_SNORM_INT8X1 = 0xc6,
   CU_AD_FORMAT_SNORM_INT8X2 = 0xc7,
   CU_AD_FORMAT_SNORM_INT8X4 = 0xc8,
   CU_AD_FORMAT_SNORM_INT16X1 = 0xc9,
   CU_AD_FORMAT_SNORM_INT16X2 = 0xca,
   CU_AD_FORMAT_SNORM_INT16X4 = 0xcb,
   CU_AD_FORMAT_MAX = 0x7fffffff
} CUarray_format;

typedef struct CUDA_ARRAY_DESCRIPTOR_st {
   size_t Width;
   size_t Height;
   CUarray_format Format;
   unsigned int NumChannels;
} CUDA_ARRAY_DESCRIPTOR_v2;
typedef CUDA_ARRAY_DESCRIPTOR_v2 CUDA_ARRAY_DESCRIPTOR;

typedef struct CUDA_ARRAY3D_DESCRIPTOR_st {
   size_t Width;
   size_t Height;
   size_t Depth;                       /* 0 for 1D and 2D arrays */
   CUarray_format Format;
   unsigned int NumChannels;
   unsigned int Flags;                 /* CUDA_ARRAY3D_* */
} CUDA_ARRAY3D_DESCRIPTOR_v2;
typedef CUDA_ARRAY3D_DESCRIPTOR_v2 CUDA_ARRAY3D_DESCRIPTOR;

/* CUDA_ARRAY3D_DESCRIPTOR.Flags */
#define CUDA_ARRAY3D_LAYERED             0x01
#define CUDA_ARRAY3D_2DARRAY             0x01  /* old name of LAYERED */
#define CUDA_ARRAY3D_SURFACE_LDST        0x02
#define CUDA_ARRAY3D_CUBEMAP             0x04
#define CUDA_ARRAY3D_TEXTURE_GATHER      0x08
#define CUDA_ARRAY3D_DEPTH_TEXTURE       0x10
#define CUDA_ARRAY3D_COLOR_ATTACHMENT    0x20
#define CUDA_ARRAY3D_SPARSE              0x40
#define CUDA_ARRAY3D_DEFERRED_MAPPING    0x80
#define CUDA_ARRAY3D_VIDEO_ENCODE_DECODE 0x100

/* 2D copy: the *MemoryType field of each side picks which of its
 * Host/Device/Array fields is used. */
typedef struct CUDA_MEMCPY2D_st {
   size_t srcXInBytes;
   size_t srcY;
   CUmemorytype srcMemoryType;
   const void *srcHost;
   CUdeviceptr srcDevice;
   CUarray srcArray;
   size_t srcPitch;

   size_t dstXInBytes;
   size_t dstY;
   CUmemorytype dstMemoryType;
   void *dstHost;
   CUdeviceptr dstDevice;
   CUarray dstArray;
   size_t dstPitch;

   size_t WidthInBytes;
   size_t Height;
} CUDA_MEMCPY2D_v2;
typedef CUDA_MEMCPY2D_v2 CUDA_MEMCPY2D;

/* 3D copy; reserved0/reserved1 must be NULL. */
typedef struct CUDA_MEMCPY3D_st {
   size_t srcXInBytes;
   size_t srcY;
   size_t srcZ;
   size_t srcLOD;
   CUmemorytype srcMemoryType;
   const void *srcHost;
   CUdeviceptr srcDevice;
   CUarray srcArray;
   void *reserved0;
   size_t srcPitch;
   size_t srcHeight;

   size_t dstXInBytes;
   size_t dstY;
   size_t dstZ;
   size_t dstLOD;
   CUmemorytype dstMemoryType;
   void *dstHost;
   CUdeviceptr dstDevice;
   CUarray dstArray;
   void *reserved1;
   size_t dstPitch;
   size_t dstHeight;

   size_t WidthInBytes;
   size_t Height;
   size_t Depth;
} CUDA_MEMCPY3D_v2;
typedef CUDA_MEMCPY3D_v2 CUDA_MEMCPY3D;

/* ---- Texture and surface objects ---- */

typedef enum CUresourcetype_enum {
   CU_RESOURCE_TYPE_ARRAY = 0x00,
   CU_RESOURCE_TYPE_MIPMAPPED_ARRAY = 0x01,
   CU_RESOURCE_TYPE_LINEAR = 0x02,
   CU_RESOURCE_TYPE_PITCH2D = 0x03
} CUresourcetype;

typedef enum CUaddress_mode_enum {
   CU_TR_ADDRESS_MODE_WRAP = 0,
   CU_TR_ADDRESS_MODE_CLAMP = 1,
   CU_TR_ADDRESS_MODE_MIRROR = 2,
   CU_TR_ADDRESS_MODE_BORDER = 3
} CUaddress_mode;

typedef enum CUfilter_mode_enum {
   CU_TR_FILTER_MODE_POINT = 0,
   CU_TR_FILTER_MODE_LINEAR = 1
} CUfilter_mode;

/* CUDA_TEXTURE_DESC.flags */
#define CU_TRSF_READ_AS_INTEGER                0x01
#define CU_TRSF_NORMALIZED_COORDINATES         0x02
#define CU_TRSF_SRGB                           0x10
#define CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION 0x20
#define CU_TRSF_SEAMLESS_CUBEMAP               0x40

typedef enum CUresourceViewFormat_enum {
   CU_RES_VIEW_FORMAT_NONE = 0x00,
   CU_RES_VIEW_FORMAT_UINT_1X8 = 0x01,
   CU_RES_VIEW_FORMAT_UINT_2X8 = 0x02,
   CU_RES_VIEW_FORMAT_UINT_4X8 = 0x03,
   CU_RES_VIEW_FORMAT_SINT_1X8 = 0x04,
   CU_RES_VIEW_FORMAT_SINT_2X8 = 0x05,
   CU_RES_VIEW_FORMAT_SINT_4X8 = 0x06,
   CU_RES_VIEW_FORMAT_UINT_1X16 = 0x07,
   CU_RES_VIEW_FORMAT_UINT_2X16 = 0x08,
   CU_RES_VIEW_FORMAT_UINT_4X16 = 0x09,
   CU_RES_VIEW_FORMAT_SINT_1X16 = 0x0a,
   CU_RES_VIEW_FORMAT_SINT_2X16 = 0x0b,
   CU_RES_VIEW_FORMAT_SINT_4X16 = 0x0c,
   CU_RES_VIEW_FORMAT_UINT_1X32 = 0x0d,
   CU_RES_VIEW_FORMAT_UINT_2X32 = 0x0e,
   CU_RES_VIEW_FORMAT_UINT_4X32 = 0x0f,
   CU_RES_VIEW_FORMAT_SINT_1X32 = 0x10,
   CU_RES_VIEW_FORMAT_SINT_2X32 = 0x11,
   CU_RES_VIEW_FORMAT_SINT_4X32 = 0x12,
   CU_RES_VIEW_FORMAT_FLOAT_1X16 = 0x13,
   CU_RES_VIEW_FORMAT_FLOAT_2X16 = 0x14,
   CU_RES_VIEW_FORMAT_FLOAT_4X16 = 0x15,
   CU_RES_VIEW_FORMAT_FLOAT_1X32 = 0x16,
   CU_RES_VIEW_FORMAT_FLOAT_2X32 = 0x17,
   CU_RES_VIEW_FORMAT_FLOAT_4X32 = 0x18,
   CU_RES_VIEW_FORMAT_UNSIGNED_BC1 = 0x19,
   CU_RES_VIEW_FORMAT_UNSIGNED_BC2 = 0x1a,
   CU_RES_VIEW_FORMAT_UNSIGNED_BC3 = 0x1b,
   CU_RES_VIEW_FORMAT_UNSIGNED_BC4 = 0x1c,
   CU_RES_VIEW_FORMAT_SIGNED_BC4 = 0x1d,
   CU_RES_VIEW_FORMAT_UNSIGNED_BC5 = 0x1e,
   CU_RES_VIEW_FORMAT_SIGNED_BC5 = 0x1f,
   CU_RES_VIEW_FORMAT_UNSIGNED_BC6H = 0x20,
   CU_RES_VIEW_FORMAT_SIGNED_BC6H = 0x21,
   CU_RES_VIEW_FORMAT_UNSIGNED_BC7 = 0x22
} CUresourceViewFormat;

/* What a texture or surface reads: resType picks the member of res. */
typedef struct CUDA_RESOURCE_DESC_st {
   CUresourcetype resType;
   union {
      struct {
         CUarray hArray;
      } array;
      struct {
         CUmipmappedArray hMipmappedArray;
      } mipmap;
      struct {
         CUdeviceptr devPtr;
         CUarray_format format;
         unsigned int numChannels;
         size_t sizeInBytes;
      } linear;
      struct {
         CUdeviceptr devPtr;
         CUarray_format format;
         unsigned int numChannels;
         size_t width;                   /* elements */
         size_t height;
         size_t pitchInBytes;
      } pitch2D;
      struct {
         int reserved[32];
      } reserved;
   } res;
   unsigned int flags;                   /* must be 0 */
} CUDA_RESOURCE_DESC_v1;
typedef CUDA_RESOURCE_DESC_v1 CUDA_RESOURCE_DESC;

/* How a texture is sampled. */
typedef struct CUDA_TEXTURE_DESC_st {
   CUaddress_mode addressMode[3];
   CUfilter_mode filterMode;
   unsigned int flags;                   /* CU_TRSF_* */
   unsigned int maxAnisotropy;
   CUfilter_mode mipmapFilterMode;
   float mipmapLevelBias;
   float minMipmapLevelClamp;
   float maxMipmapLevelClamp;
   float borderColor[4];
   int reserved[12];
} CUDA_TEXTURE_DESC_v1;
typedef CUDA_TEXTURE_DESC_v1 CUDA_TEXTURE_DESC;

/* A reinterpretation or subrange of an array or mipmapped array. */
typedef struct CUDA_RESOURCE_VIEW_DESC_st {
   CUresourceViewFormat format;
   size_t width;
   size_t height;
   size_t depth;
   unsigned int firstMipmapLevel;
   unsigned int lastMipmapLevel;
   unsigned int firstLayer;
   unsigned int lastLayer;
   unsigned int reserved[16];
} CUDA_RESOURCE_VIEW_DESC_v1;
typedef CUDA_RESOURCE_VIEW_DESC_v1 CUDA_RESOURCE_VIEW_DESC;

/* ---- External memory ---- */

typedef enum CUexternalMemoryHandleType_enum {
   CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD = 1,
   CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32 = 2,
   CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT = 3,
   CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP = 4,
   CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE = 5,
   CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE = 6,
   CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT = 7,
   CU_EXTERNAL_MEMORY_HANDLE_TYPE_NVSCIBUF = 8,
   CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD = 9
} CUexternalMemoryHandleType;

/* CUDA_EXTERNAL_MEMORY_HANDLE_DESC.flags: the memory is a dedicated
 * allocation (Vulkan: imported with VkMemoryDedicatedAllocateInfo). */
#define CUDA_EXTERNAL_MEMORY_DEDICATED 0x1

typedef struct CUDA_EXTERNAL_MEMORY_HANDLE_DESC_st {
   CUexternalMemoryHandleType type;
   union {
      int fd;                          /* OPAQUE_FD, DMABUF_FD */
      struct {
         void *handle;
         const void *name;
      } win32;
      const void *nvSciBufObject;
   } handle;
   unsigned long long size;
   unsigned int flags;
   unsigned int reserved[16];
} CUDA_EXTERNAL_MEMORY_HANDLE_DESC_v1;
typedef CUDA_EXTERNAL_MEMORY_HANDLE_DESC_v1 CUDA_EXTERNAL_MEMORY_HANDLE_DESC;

typedef struct CUDA_EXTERNAL_MEMORY_BUFFER_DESC_st {
   unsigned long long offset;
   unsigned long long size;
   unsigned int flags;
   unsigned int reserved[16];
} CUDA_EXTERNAL_MEMORY_BUFFER_DESC_v1;
typedef CUDA_EXTERNAL_MEMORY_BUFFER_DESC_v1 CUDA_EXTERNAL_MEMORY_BUFFER_DESC;

typedef struct CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC_st {
   unsigned long long offset;
   CUDA_ARRAY3D_DESCRIPTOR arrayDesc;
   unsigned int numLevels;
   unsigned int reserved[16];
} CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC_v1;
typedef CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC_v1 CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC;

/* ---- External semaphores ---- */

typedef enum CUexternalSemaphoreHandleType_enum {
   CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD = 1,
   CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32 = 2,
   CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT = 3,
   CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE = 4,
   CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_FENCE = 5,
   CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_NVSCISYNC = 6,
   CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX = 7,
   CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX_KMT = 8,
   CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD = 9,
   CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_WIN32 = 10
} CUexternalSemaphoreHandleType;

/* Signal/wait params flags, meaningful for NvSciSync only. */
#define CUDA_EXTERNAL_SEMAPHORE_SIGNAL_SKIP_NVSCIBUF_MEMSYNC 0x01
#define CUDA_EXTERNAL_SEMAPHORE_WAIT_SKIP_NVSCIBUF_MEMSYNC 0x02

typedef struct CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC_st {
   CUexternalSemaphoreHandleType type;
   union {
      int fd;                          /* OPAQUE_FD, TIMELINE_SEMAPHORE_FD */
      struct {
         void *handle;
         const void *name;
      } win32;
      const void *nvSciSyncObj;
   } handle;
   unsigned int flags;
   unsigned int reserved[16];
} CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC_v1;
typedef CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC_v1 CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC;

typedef struct CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS_st {
   struct {
      struct {
         unsigned long long value;     /* timeline semaphores, fences */
      } fence;
      union {
         void *fence;
         unsigned long long reserved;
      } nvSciSync;
      struct {
         unsigned long long key;
      } keyedMutex;
      unsigned int reserved[12];
   } params;
   unsigned int flags;
   unsigned int reserved[16];
} CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS_v1;
typedef CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS_v1 CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS;

typedef struct CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS_st {
   struct {
      struct {
         unsigned long long value;
      } fence;
      union {
         void *fence;
         unsigned long long reserved;
      } nvSciSync;
      struct {
         unsigned long long key;
         unsigned int timeoutMs;
      } keyedMutex;
      unsigned int reserved[10];
   } params;
   unsigned int flags;
   unsigned int reserved[16];
} CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS_v1;
typedef CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS_v1 CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS;

/* ---- Host functions in streams ---- */

typedef void (CUDA_CB *CUhostFn)(void *userData);
typedef void (CUDA_CB *CUstreamCallback)(CUstream hStream, CUresult status, void *userData);

/* ---- Virtual memory management ---- */

/* OS handle kinds a physical allocation can be exported as (a bit mask). */
typedef enum CUmemAllocationHandleType_enum {
   CU_MEM_HANDLE_TYPE_NONE = 0x0,
   CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR = 0x1,
   CU_MEM_HANDLE_TYPE_WIN32 = 0x2,
   CU_MEM_HANDLE_TYPE_WIN32_KMT = 0x4,
   CU_MEM_HANDLE_TYPE_FABRIC = 0x8,
   CU_MEM_HANDLE_TYPE_MAX = 0x7fffffff
} CUmemAllocationHandleType;

typedef enum CUmemAccess_flags_enum {
   CU_MEM_ACCESS_FLAGS_PROT_NONE = 0x0,
   CU_MEM_ACCESS_FLAGS_PROT_READ = 0x1,
   CU_MEM_ACCESS_FLAGS_PROT_READWRITE = 0x3,
   CU_MEM_ACCESS_FLAGS_PROT_MAX = 0x7fffffff
} CUmemAccess_flags;

/* Memory pool attributes; the REUSE_* ones are int, the rest cuuint64_t. */
typedef enum CUmemPool_attribute_enum {
   CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES = 1,
   CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC = 2,
   CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES = 3,
   CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4,
   CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT = 5,
   CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH = 6,
   CU_MEMPOOL_ATTR_USED_MEM_CURRENT = 7,
   CU_MEMPOOL_ATTR_USED_MEM_HIGH = 8
} CUmemPool_attribute;

typedef enum CUmemLocationType_enum {
   CU_MEM_LOCATION_TYPE_INVALID = 0x0,
   CU_MEM_LOCATION_TYPE_NONE = 0x0,
   CU_MEM_LOCATION_TYPE_DEVICE = 0x1,
   CU_MEM_LOCATION_TYPE_HOST = 0x2,
   CU_MEM_LOCATION_TYPE_HOST_NUMA = 0x3,
   CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT = 0x4,
   CU_MEM_LOCATION_TYPE_MAX = 0x7fffffff
} CUmemLocationType;

typedef enum CUmemAllocationType_enum {
   CU_MEM_ALLOCATION_TYPE_INVALID = 0x0,
   CU_MEM_ALLOCATION_TYPE_PINNED = 0x1,
   CU_MEM_ALLOCATION_TYPE_MANAGED = 0x2,
   CU_MEM_ALLOCATION_TYPE_MAX = 0x7fffffff
} CUmemAllocationType;

typedef enum CUmemAllocationGranularity_flags_enum {
   CU_MEM_ALLOC_GRANULARITY_MINIMUM = 0x0,
   CU_MEM_ALLOC_GRANULARITY_RECOMMENDED = 0x1
} CUmemAllocationGranularity_flags;

typedef enum CUmemAllocationCompType_enum {
   CU_MEM_ALLOCATION_COMP_NONE = 0x0,
   CU_MEM_ALLOCATION_COMP_GENERIC = 0x1
} CUmemAllocationCompType;

/* Handle kinds for exporting an address range (dma-buf). */
typedef enum CUmemRangeHandleType_enum {
   CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD = 0x1,
   CU_MEM_RANGE_HANDLE_TYPE_MAX = 0x7fffffff
} CUmemRangeHandleType;

/* CUmemAllocationProp.allocFlags.usage */
#define CU_MEM_CREATE_USAGE_TILE_POOL     0x1
#define CU_MEM_CREATE_USAGE_HW_DECOMPRESS 0x2

/* cuMemAllocManaged's flags. */
typedef enum CUmemAttach_flags_enum {
   CU_MEM_ATTACH_GLOBAL = 0x1,
   CU_MEM_ATTACH_HOST = 0x2,
   CU_MEM_ATTACH_SINGLE = 0x4
} CUmemAttach_flags;

typedef enum CUmem_advise_enum {
   CU_MEM_ADVISE_SET_READ_MOSTLY = 1,
   CU_MEM_ADVISE_UNSET_READ_MOSTLY = 2,
   CU_MEM_ADVISE_SET_PREFERRED_LOCATION = 3,
   CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION = 4,
   CU_MEM_ADVISE_SET_ACCESSED_BY = 5,
   CU_MEM_ADVISE_UNSET_ACCESSED_BY = 6
} CUmem_advise;

typedef enum CUmem_range_attribute_enum {
   CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY = 1,
   CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION = 2,
   CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY = 3,
   CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION = 4,
   CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE = 5,
   CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID = 6,
   CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE = 7,
   CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID = 8
} CUmem_range_attribute;

typedef struct CUmemLocation_st {
   CUmemLocationType type;
   int id;                             /* device ordinal or NUMA node */
} CUmemLocation_v1;
typedef CUmemLocation_v1 CUmemLocation;

typedef struct CUmemAllocationProp_st {
   CUmemAllocationType type;
   CUmemAllocationHandleType requestedHandleTypes;
   CUmemLocation location;
   void *win32HandleMetaData;
   struct {
      unsigned char compressionType;   /* CUmemAllocationCompType */
      unsigned char gpuDirectRDMACapable;
      unsigned short usage;            /* CU_MEM_CREATE_USAGE_* */
      unsigned char reserved[4];
   } allocFlags;
} CUmemAllocationProp_v1;
typedef CUmemAllocationProp_v1 CUmemAllocationProp;

typedef struct CUmemAccessDesc_st {
   CUmemLocation location;
   CUmemAccess_flags flags;
} CUmemAccessDesc_v1;
typedef CUmemAccessDesc_v1 CUmemAccessDesc;

/* CUmemPoolProps.usage */
#define CU_MEM_POOL_CREATE_USAGE_HW_DECOMPRESS 0x2

/* What cuMemPoolCreate makes: where the pool's memory lives, which
 * handles it can be shared through, at most how much it may hold. */
typedef struct CUmemPoolProps_st {
   CUmemAllocationType allocType;           /* CU_MEM_ALLOCATION_TYPE_PINNED */
   CUmemAllocationHandleType handleTypes;
   CUmemLocation location;
   void *win32SecurityAttributes;           /* NULL except with Windows handles */
   size_t maxSize;                          /* 0: no limit of the pool's own */
   unsigned short usage;                    /* CU_MEM_POOL_CREATE_USAGE_* */
   unsigned char reserved[54];              /* zero */
} CUmemPoolProps_v1;
typedef CUmemPoolProps_v1 CUmemPoolProps;

/* What cuMemPoolExportPointer writes for another process. */
typedef struct CUmemPoolPtrExportData_st {
   unsigned char reserved[64];
} CUmemPoolPtrExportData_v1;
typedef CUmemPoolPtrExportData_v1 CUmemPoolPtrExportData;

/* ---- Entry-point lookup ---- */

/* cuGetProcAddress flags: which default-stream flavour to return. */
typedef enum CUdriverProcAddress_flags_enum {
   CU_GET_PROC_ADDRESS_DEFAULT = 0,
   CU_GET_PROC_ADDRESS_LEGACY_STREAM = 1 << 0,
   CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM = 1 << 1
} CUdriverProcAddress_flags;

typedef enum CUdriverProcAddressQueryResult_enum {
   CU_GET_PROC_ADDRESS_SUCCESS = 0,
   CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
   CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2
} CUdriverProcAddressQueryResult;

/* Legacy device properties (cuDeviceGetProperties). */
typedef struct CUdevprop_st {
   int maxThreadsPerBlock;
   int maxThreadsDim[3];
   int maxGridSize[3];
   int sharedMemPerBlock;
   int totalConstantMemory;
   int SIMDWidth;
   int memPitch;
   int regsPerBlock;
   int clockRate;
   int textureAlign;
} CUdevprop_v1;
typedef CUdevprop_v1 CUdevprop;

/* Context limits (cuCtxSetLimit, cuCtxGetLimit). */
typedef enum CUlimit_enum {
   CU_LIMIT_STACK_SIZE = 0x00,
   CU_LIMIT_PRINTF_FIFO_SIZE = 0x01,
   CU_LIMIT_MALLOC_HEAP_SIZE = 0x02,
   CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH = 0x03,
   CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT = 0x04,
   CU_LIMIT_MAX_L2_FETCH_GRANULARITY = 0x05,
   CU_LIMIT_PERSISTING_L2_CACHE_SIZE = 0x06,
   CU_LIMIT_SHMEM_SIZE = 0x07,
   CU_LIMIT_CIG_ENABLED = 0x08,
   CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED = 0x09,
   CU_LIMIT_MAX
} CUlimit;

/* L1 / shared memory preference (cuCtxSetCacheConfig). */
typedef enum CUfunc_cache_enum {
   CU_FUNC_CACHE_PREFER_NONE = 0x00,
   CU_FUNC_CACHE_PREFER_SHARED = 0x01,
   CU_FUNC_CACHE_PREFER_L1 = 0x02,
   CU_FUNC_CACHE_PREFER_EQUAL = 0x03
} CUfunc_cache;

/* What cuFuncGetAttribute reports and cuFuncSetAttribute sets. */
typedef enum CUfunction_attribute_enum {
   CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
   CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
   CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,
   CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
   CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
   CU_FUNC_ATTRIBUTE_PTX_VERSION = 5,
   CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6,
   CU_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7,
   CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
   CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
   CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET = 10,
   CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH = 11,
   CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT = 12,
   CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH = 13,
   CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14,
   CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 15,
   CU_FUNC_ATTRIBUTE_MAX
} CUfunction_attribute;

/* Options of cuModuleLoadDataEx (PTX JIT options). */
typedef enum CUjit_option_enum {
   CU_JIT_MAX_REGISTERS = 0,
   CU_JIT_THREADS_PER_BLOCK = 1,
   CU_JIT_WALL_TIME = 2,
   CU_JIT_INFO_LOG_BUFFER = 3,
   CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
   CU_JIT_ERROR_LOG_BUFFER = 5,
   CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
   CU_JIT_OPTIMIZATION_LEVEL = 7,
   CU_JIT_TARGET_FROM_CUCONTEXT = 8,
   CU_JIT_TARGET = 9,
   CU_JIT_FALLBACK_STRATEGY = 10,
   CU_JIT_GENERATE_DEBUG_INFO = 11,
   CU_JIT_LOG_VERBOSE = 12,
   CU_JIT_GENERATE_LINE_INFO = 13,
   CU_JIT_CACHE_MODE = 14,
   CU_JIT_NEW_SM3X_OPT = 15,
   CU_JIT_FAST_COMPILE = 16,
   CU_JIT_GLOBAL_SYMBOL_NAMES = 17,
   CU_JIT_GLOBAL_SYMBOL_ADDRESSES = 18,
   CU_JIT_GLOBAL_SYMBOL_COUNT = 19,
   CU_JIT_LTO = 20,
   CU_JIT_FTZ = 21,
   CU_JIT_PREC_DIV = 22,
   CU_JIT_PREC_SQRT = 23,
   CU_JIT_FMA = 24,
   CU_JIT_REFERENCED_KERNEL_NAMES = 25,
   CU_JIT_REFERENCED_KERNEL_COUNT = 26,
   CU_JIT_REFERENCED_VARIABLE_NAMES = 27,
   CU_JIT_REFERENCED_VARIABLE_COUNT = 28,
   CU_JIT_OPTIMIZE_UNUSED_DEVICE_VARIABLES = 29,
   CU_JIT_POSITION_INDEPENDENT_CODE = 30,
   CU_JIT_MIN_CTA_PER_SM = 31,
   CU_JIT_MAX_THREADS_PER_BLOCK = 32,
   CU_JIT_OVERRIDE_DIRECTIVE_VALUES = 33,
   CU_JIT_SPLIT_COMPILE = 34,
   CU_JIT_NUM_OPTIONS
} CUjit_option;

/* cuLaunchKernel's `extra`: a list of key, value pairs ending in END. */
#define CU_LAUNCH_PARAM_END_AS_INT 0x00
#define CU_LAUNCH_PARAM_END ((void *)CU_LAUNCH_PARAM_END_AS_INT)
#define CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT 0x01
#define CU_LAUNCH_PARAM_BUFFER_POINTER ((void *)CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT)
#define CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT 0x02
#define CU_LAUNCH_PARAM_BUFFER_SIZE ((void *)CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT)

/* cuOccupancyMaxPotentialBlockSize's dynamic shared memory per block size. */
typedef size_t(CUDAAPI *CUoccupancyB2DSize)(int blockSize);

/* ---- Libraries, kernels, linking and extensible launches (CUDA 12+) ---- */

/* A library is loaded once and used from any context; a kernel is one of
 * its entry points, valid in every context (cuLaunchKernel takes it cast
 * to CUfunction). */
typedef struct CUlib_st *CUlibrary;
typedef struct CUkern_st *CUkernel;
typedef struct CUlinkState_st *CUlinkState;
typedef struct CUgraphDeviceUpdatableNode_st *CUgraphDeviceNode;

/* What cuLinkAddData is handed. */
typedef enum CUjitInputType_enum {
   CU_JIT_INPUT_CUBIN = 0,
   CU_JIT_INPUT_PTX = 1,
   CU_JIT_INPUT_FATBINARY = 2,
   CU_JIT_INPUT_OBJECT = 3,
   CU_JIT_INPUT_LIBRARY = 4,
   CU_JIT_INPUT_NVVM = 5,
   CU_JIT_NUM_INPUT_TYPES = 6
} CUjitInputType;

/* Options of cuLibraryLoadData. */
typedef enum CUlibraryOption_enum {
   CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE = 0,
   CU_LIBRARY_BINARY_IS_PRESERVED = 1,
   CU_LIBRARY_NUM_OPTIONS
} CUlibraryOption;

/* L2 persistence hints. */
typedef enum CUaccessProperty_enum {
   CU_ACCESS_PROPERTY_NORMAL = 0,
   CU_ACCESS_PROPERTY_STREAMING = 1,
   CU_ACCESS_PROPERTY_PERSISTING = 2
} CUaccessProperty;

typedef struct CUaccessPolicyWindow_st {
   void *base_ptr;
   size_t num_bytes;
   float hitRatio;
   CUaccessProperty hitProp;
   CUaccessProperty missProp;
} CUaccessPolicyWindow_v1;
typedef CUaccessPolicyWindow_v1 CUaccessPolicyWindow;

typedef enum CUsynchronizationPolicy_enum {
   CU_SYNC_POLICY_AUTO = 1,
   CU_SYNC_POLICY_SPIN = 2,
   CU_SYNC_POLICY_YIELD = 3,
   CU_SYNC_POLICY_BLOCKING_SYNC = 4
} CUsynchronizationPolicy;

typedef enum CUclusterSchedulingPolicy_enum {
   CU_CLUSTER_SCHEDULING_POLICY_DEFAULT = 0,
   CU_CLUSTER_SCHEDULING_POLICY_SPREAD = 1,
   CU_CLUSTER_SCHEDULING_POLICY_LOAD_BALANCING = 2
} CUclusterSchedulingPolicy;

typedef enum CUlaunchMemSyncDomain_enum {
   CU_LAUNCH_MEM_SYNC_DOMAIN_DEFAULT = 0,
   CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE = 1
} CUlaunchMemSyncDomain;

typedef struct CUlaunchMemSyncDomainMap_st {
   unsigned char default_;
   unsigned char remote;
} CUlaunchMemSyncDomainMap;

/* cuLaunchKernelEx's attributes. */
typedef enum CUlaunchAttributeID_enum {
   CU_LAUNCH_ATTRIBUTE_IGNORE = 0,
   CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW = 1,
   CU_LAUNCH_ATTRIBUTE_COOPERATIVE = 2,
   CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY = 3,
   CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4,
   CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 5,
   CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6,
   CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT = 7,
   CU_LAUNCH_ATTRIBUTE_PRIORITY = 8,
   CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP = 9,
   CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN = 10,
   CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION = 11,
   CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT = 12,
   CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE = 13,
   CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 14,
   CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING = 16
#if defined(__CUDA_API_VERSION_INTERNAL)
   , CU_LAUNCH_ATTRIBUTE_MAX
#endif
} CUlaunchAttributeID;

/* One attribute's value: 64 bytes whatever member is used. */
typedef union CUlaunchAttributeValue_union {
   char pad[64];
   CUaccessPolicyWindow accessPolicyWindow;
   int cooperative;
   CUsynchronizationPolicy syncPolicy;
   struct {
      unsigned int x;
      unsigned int y;
      unsigned int z;
   } clusterDim;
   CUclusterSchedulingPolicy clusterSchedulingPolicyPreference;
   int programmaticStreamSerializationAllowed;
   struct {
      CUevent event;
      int flags;
      int triggerAtBlockStart;
   } programmaticEvent;
   struct {
      CUevent event;
      int flags;
   } launchCompletionEvent;
   int priority;
   CUlaunchMemSyncDomainMap memSyncDomainMap;
   CUlaunchMemSyncDomain memSyncDomain;
   struct {
      unsigned int x;
      unsigned int y;
      unsigned int z;
   } preferredClusterDim;
   struct {
      int deviceUpdatable;
      CUgraphDeviceNode devNode;
   } deviceUpdatableKernelNode;
   unsigned int sharedMemCarveout;
   unsigned int nvlinkUtilCentricScheduling;
} CUlaunchAttributeValue;

typedef struct CUlaunchAttribute_st {
   CUlaunchAttributeID id;
   char pad[8 - sizeof(CUlaunchAttributeID)];
   CUlaunchAttributeValue value;
} CUlaunchAttribute;

typedef struct CUlaunchConfig_st {
   unsigned int gridDimX;
   unsigned int gridDimY;
   unsigned int gridDimZ;
   unsigned int blockDimX;
   unsigned int blockDimY;
   unsigned int blockDimZ;
   unsigned int sharedMemBytes;
   CUstream hStream;
   CUlaunchAttribute *attrs;
   unsigned int numAttrs;
} CUlaunchConfig;

/* Shared memory bank size (cuCtxSetSharedMemConfig; deprecated). */
typedef enum CUsharedconfig_enum {
   CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE = 0x00,
   CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE = 0x01,
   CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE = 0x02
} CUsharedconfig;

/* ==== Functions ==== */

/* ---- Graphs and stream capture ---- */

typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphNode_st *CUgraphNode;
typedef struct CUgraphExec_st *CUgraphExec;

typedef enum CUgraphNodeType_enum {
   CU_GRAPH_NODE_TYPE_KERNEL = 0,
   CU_GRAPH_NODE_TYPE_MEMCPY = 1,
   CU_GRAPH_NODE_TYPE_MEMSET = 2,
   CU_GRAPH_NODE_TYPE_HOST = 3,
   CU_GRAPH_NODE_TYPE_GRAPH = 4,
   CU_GRAPH_NODE_TYPE_EMPTY = 5,
   CU_GRAPH_NODE_TYPE_WAIT_EVENT = 6,
   CU_GRAPH_NODE_TYPE_EVENT_RECORD = 7,
   CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL = 8,
   CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT = 9,
   CU_GRAPH_NODE_TYPE_MEM_ALLOC = 10,
   CU_GRAPH_NODE_TYPE_MEM_FREE = 11,
   CU_GRAPH_NODE_TYPE_BATCH_MEM_OP = 12,
   CU_GRAPH_NODE_TYPE_CONDITIONAL = 13,
} CUgraphNodeType;

/* What an edge carries; only the default type, both ports 0, is the
 * plain dependency. */
typedef enum CUgraphDependencyType_enum {
   CU_GRAPH_DEPENDENCY_TYPE_DEFAULT = 0,
   CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC = 1,
} CUgraphDependencyType;

typedef struct CUgraphEdgeData_st {
   unsigned char from_port;
   unsigned char to_port;
   unsigned char type;        /* CUgraphDependencyType */
   unsigned char reserved[5];
} CUgraphEdgeData;

/* The kernel node of CUDA 10 to 11 (cuGraphAddKernelNode); _v2 adds the
 * CUkernel and context of CUDA 12. */
typedef struct CUDA_KERNEL_NODE_PARAMS_st {
   CUfunction func;
   unsigned int gridDimX;
   unsigned int gridDimY;
   unsigned int gridDimZ;
   unsigned int blockDimX;
   unsigned int blockDimY;
   unsigned int blockDimZ;
   unsigned int sharedMemBytes;
   void **kernelParams;
   void **extra;
} CUDA_KERNEL_NODE_PARAMS_v1;

typedef struct CUDA_KERNEL_NODE_PARAMS_v2_st {
   CUfunction func;
   unsigned int gridDimX;
   unsigned int gridDimY;
   unsigned int gridDimZ;
   unsigned int blockDimX;
   unsigned int blockDimY;
   unsigned int blockDimZ;
   unsigned int sharedMemBytes;
   void **kernelParams;
   void **extra;
   CUkernel kern;             /* used instead of func when set */
   CUcontext ctx;             /* kern's context; NULL: the current one */
} CUDA_KERNEL_NODE_PARAMS_v2;
typedef CUDA_KERNEL_NODE_PARAMS_v2 CUDA_KERNEL_NODE_PARAMS;

/* A 2D fill of 1-, 2- or 4-byte elements; width in elements. */
typedef struct CUDA_MEMSET_NODE_PARAMS_st {
   CUdeviceptr dst;
   size_t pitch;
   unsigned int value;
   unsigned int elementSize;
   size_t width;
   size_t height;
} CUDA_MEMSET_NODE_PARAMS_v1;
typedef CUDA_MEMSET_NODE_PARAMS_v1 CUDA_MEMSET_NODE_PARAMS;

typedef struct CUDA_HOST_NODE_PARAMS_st {
   CUhostFn fn;
   void *userData;
} CUDA_HOST_NODE_PARAMS_v1;
typedef CUDA_HOST_NODE_PARAMS_v1 CUDA_HOST_NODE_PARAMS;

typedef enum CUgraphInstantiate_flags_enum {
   CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH = 1,
   CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD = 2,
   CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH = 4,
   CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY = 8,
} CUgraphInstantiate_flags;

typedef enum CUstreamCaptureStatus_enum {
   CU_STREAM_CAPTURE_STATUS_NONE = 0,
   CU_STREAM_CAPTURE_STATUS_ACTIVE = 1,
   CU_STREAM_CAPTURE_STATUS_INVALIDATED = 2,
} CUstreamCaptureStatus;

/* Which calls other threads' (and the capturing thread's own) captures
 * forbid: global and thread-local forbid the unsafe ones, relaxed none. */
typedef enum CUstreamCaptureMode_enum {
   CU_STREAM_CAPTURE_MODE_GLOBAL = 0,
   CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1,
   CU_STREAM_CAPTURE_MODE_RELAXED = 2,
} CUstreamCaptureMode;

/* Errors */
CUresult CUDAAPI cuGetErrorName(CUresult error, const char **pStr);
CUresult CUDAAPI cuGetErrorString(CUresult error, const char **pStr);

/* Initialization and version */
CUresult CUDAAPI cuInit(unsigned int Flags);
CUresult CUDAAPI cuDriverGetVersion(int *driverVersion);

/* Devices */
CUresult CUDAAPI cuDeviceGetCount(int *count);
CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal);
CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev);
CUresult CUDAAPI cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUresult CUDAAPI cuDeviceTotalMem(size_t *bytes, CUdevice dev);
CUresult CUDAAPI cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev);
CUresult CUDAAPI cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev);
CUresult CUDAAPI cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId);
CUresult CUDAAPI cuDeviceComputeCapability(int *major, int *minor, CUdevice dev);
CUresult CUDAAPI cuDeviceGetProperties(CUdevprop *prop, CUdevice dev);
CUresult CUDAAPI cuDeviceGetLuid(char *luid, unsigned int *deviceNodeMask, CUdevice dev);
CUresult CUDAAPI cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev);
CUresult CUDAAPI cuDeviceGetExecAffinitySupport(int *pi, CUexecAffinityType type, CUdevice dev);

/* Primary contexts */
CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev);
CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev);
CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev);
CUresult CUDAAPI cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active);
CUresult CUDAAPI cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags);

/* Contexts */
CUresult CUDAAPI cuCtxCreate(CUcontext *pctx, CUctxCreateParams *ctxCreateParams,
                             unsigned int flags, CUdevice dev);
CUresult CUDAAPI cuCtxDestroy(CUcontext ctx);
CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx);
CUresult CUDAAPI cuCtxPopCurrent(CUcontext *pctx);
CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx);
CUresult CUDAAPI cuCtxGetCurrent(CUcontext *pctx);
CUresult CUDAAPI cuCtxGetDevice(CUdevice *device);
CUresult CUDAAPI cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx);
CUresult CUDAAPI cuCtxGetFlags(unsigned int *flags);
CUresult CUDAAPI cuCtxSetFlags(unsigned int flags);
CUresult CUDAAPI cuCtxGetId(CUcontext ctx, unsigned long long *ctxId);
CUresult CUDAAPI cuCtxGetApiVersion(CUcontext ctx, unsigned int *version);
CUresult CUDAAPI cuCtxSynchronize(void);
CUresult CUDAAPI cuCtxSynchronize_v2(CUcontext ctx);
CUresult CUDAAPI cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
CUresult CUDAAPI cuCtxSetLimit(CUlimit limit, size_t value);
CUresult CUDAAPI cuCtxGetLimit(size_t *pvalue, CUlimit limit);
CUresult CUDAAPI cuCtxGetCacheConfig(CUfunc_cache *pconfig);
CUresult CUDAAPI cuCtxSetCacheConfig(CUfunc_cache config);
CUresult CUDAAPI cuCtxGetSharedMemConfig(CUsharedconfig *pConfig);
CUresult CUDAAPI cuCtxSetSharedMemConfig(CUsharedconfig config);

/* Device memory */
CUresult CUDAAPI cuMemGetInfo(size_t *free, size_t *total);
CUresult CUDAAPI cuMemAlloc(CUdeviceptr *dptr, size_t bytesize);
CUresult CUDAAPI cuMemAllocPitch(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes,
                                 size_t Height, unsigned int ElementSizeBytes);
CUresult CUDAAPI cuMemFree(CUdeviceptr dptr);
CUresult CUDAAPI cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr);

/* Host memory */
CUresult CUDAAPI cuMemAllocHost(void **pp, size_t bytesize);
CUresult CUDAAPI cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags);
CUresult CUDAAPI cuMemFreeHost(void *p);
CUresult CUDAAPI cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p, unsigned int Flags);
CUresult CUDAAPI cuMemHostGetFlags(unsigned int *pFlags, void *p);
CUresult CUDAAPI cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags);

/* Managed memory */
CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags);
CUresult CUDAAPI cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUmemLocation location,
                                    unsigned int flags, CUstream hStream);
CUresult CUDAAPI cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUmemLocation location);
CUresult CUDAAPI cuMemRangeGetAttribute(void *data, size_t dataSize, CUmem_range_attribute attribute,
                                        CUdeviceptr devPtr, size_t count);
CUresult CUDAAPI cuMemHostUnregister(void *p);

/* Pointers */
CUresult CUDAAPI cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr);
CUresult CUDAAPI cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes, void **data,
                                        CUdeviceptr ptr);
CUresult CUDAAPI cuPointerSetAttribute(const void *value, CUpointer_attribute attribute, CUdeviceptr ptr);

/* Copies */
CUresult CUDAAPI cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount);
CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount);
CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
                                   CUstream hStream);
CUresult CUDAAPI cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount,
                                   CUstream hStream);
CUresult CUDAAPI cuMemcpyDtoDAsync(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                   CUstream hStream);

/* Copies that reach arrays.  An offset into an array counts bytes through
 * its rows in order; the 2D and 3D forms take any mix of host, device,
 * unified and array memory on either side. */
CUresult CUDAAPI cuMemcpyDtoA(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice,
                              size_t ByteCount);
CUresult CUDAAPI cuMemcpyAtoD(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset,
                              size_t ByteCount);
CUresult CUDAAPI cuMemcpyHtoA(CUarray dstArray, size_t dstOffset, const void *srcHost,
                              size_t ByteCount);
CUresult CUDAAPI cuMemcpyAtoH(void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount);
CUresult CUDAAPI cuMemcpyAtoA(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset,
                              size_t ByteCount);
CUresult CUDAAPI cuMemcpyHtoAAsync(CUarray dstArray, size_t dstOffset, const void *srcHost,
                                   size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyAtoHAsync(void *dstHost, CUarray srcArray, size_t srcOffset,
                                   size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpy2D(const CUDA_MEMCPY2D *pCopy);
CUresult CUDAAPI cuMemcpy2DUnaligned(const CUDA_MEMCPY2D *pCopy);
CUresult CUDAAPI cuMemcpy2DAsync(const CUDA_MEMCPY2D *pCopy, CUstream hStream);
CUresult CUDAAPI cuMemcpy3D(const CUDA_MEMCPY3D *pCopy);
CUresult CUDAAPI cuMemcpy3DAsync(const CUDA_MEMCPY3D *pCopy, CUstream hStream);

/* Fills */
CUresult CUDAAPI cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N);
CUresult CUDAAPI cuMemsetD16(CUdeviceptr dstDevice, unsigned short us, size_t N);
CUresult CUDAAPI cuMemsetD32(CUdeviceptr dstDevice, unsigned int ui, size_t N);
CUresult CUDAAPI cuMemsetD2D8(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc,
                              size_t Width, size_t Height);
CUresult CUDAAPI cuMemsetD2D16(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us,
                               size_t Width, size_t Height);
CUresult CUDAAPI cuMemsetD2D32(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui,
                               size_t Width, size_t Height);
CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N,
                                 CUstream hStream);
CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N,
                                  CUstream hStream);
CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N,
                                  CUstream hStream);
CUresult CUDAAPI cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc,
                                   size_t Width, size_t Height, CUstream hStream);
CUresult CUDAAPI cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us,
                                    size_t Width, size_t Height, CUstream hStream);
CUresult CUDAAPI cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui,
                                    size_t Width, size_t Height, CUstream hStream);

/* Arrays and mipmapped arrays */
CUresult CUDAAPI cuArrayCreate(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *pAllocateArray);
CUresult CUDAAPI cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR *pArrayDescriptor, CUarray hArray);
CUresult CUDAAPI cuArrayDestroy(CUarray hArray);
CUresult CUDAAPI cuArray3DCreate(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pAllocateArray);
CUresult CUDAAPI cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR *pArrayDescriptor, CUarray hArray);
CUresult CUDAAPI cuMipmappedArrayCreate(CUmipmappedArray *pHandle,
                                        const CUDA_ARRAY3D_DESCRIPTOR *pMipmappedArrayDesc,
                                        unsigned int numMipmapLevels);
CUresult CUDAAPI cuMipmappedArrayGetLevel(CUarray *pLevelArray, CUmipmappedArray hMipmappedArray,
                                          unsigned int level);
CUresult CUDAAPI cuMipmappedArrayDestroy(CUmipmappedArray hMipmappedArray);

/* Texture and surface objects */
CUresult CUDAAPI cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
                                   const CUDA_TEXTURE_DESC *pTexDesc,
                                   const CUDA_RESOURCE_VIEW_DESC *pResViewDesc);
CUresult CUDAAPI cuTexObjectDestroy(CUtexObject texObject);
CUresult CUDAAPI cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject);
CUresult CUDAAPI cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc, CUtexObject texObject);
CUresult CUDAAPI cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *pResViewDesc,
                                                CUtexObject texObject);
CUresult CUDAAPI cuSurfObjectCreate(CUsurfObject *pSurfObject, const CUDA_RESOURCE_DESC *pResDesc);
CUresult CUDAAPI cuSurfObjectDestroy(CUsurfObject surfObject);
CUresult CUDAAPI cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc, CUsurfObject surfObject);

/* Streams */
CUresult CUDAAPI cuStreamCreate(CUstream *phStream, unsigned int Flags);
CUresult CUDAAPI cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority);
CUresult CUDAAPI cuStreamGetPriority(CUstream hStream, int *priority);
CUresult CUDAAPI cuStreamGetFlags(CUstream hStream, unsigned int *flags);
CUresult CUDAAPI cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags);
CUresult CUDAAPI cuStreamQuery(CUstream hStream);
CUresult CUDAAPI cuStreamSynchronize(CUstream hStream);
CUresult CUDAAPI cuStreamDestroy(CUstream hStream);
CUresult CUDAAPI cuStreamGetCtx(CUstream hStream, CUcontext *pctx);
CUresult CUDAAPI cuStreamGetCtx_v2(CUstream hStream, CUcontext *pCtx, CUgreenCtx *pGreenCtx);
CUresult CUDAAPI cuStreamGetId(CUstream hStream, unsigned long long *streamId);
CUresult CUDAAPI cuStreamGetDevice(CUstream hStream, CUdevice *device);

/* Events */
CUresult CUDAAPI cuEventCreate(CUevent *phEvent, unsigned int Flags);
CUresult CUDAAPI cuEventRecord(CUevent hEvent, CUstream hStream);
CUresult CUDAAPI cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags);
CUresult CUDAAPI cuEventQuery(CUevent hEvent);
CUresult CUDAAPI cuEventSynchronize(CUevent hEvent);
CUresult CUDAAPI cuEventDestroy(CUevent hEvent);
CUresult CUDAAPI cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd);

/* External memory */
CUresult CUDAAPI cuImportExternalMemory(CUexternalMemory *extMem_out,
                                        const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *memHandleDesc);
CUresult CUDAAPI cuExternalMemoryGetMappedBuffer(CUdeviceptr *devPtr, CUexternalMemory extMem,
                                                 const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *bufferDesc);
CUresult CUDAAPI cuExternalMemoryGetMappedMipmappedArray(
   CUmipmappedArray *mipmap, CUexternalMemory extMem,
   const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *mipmapDesc);
CUresult CUDAAPI cuDestroyExternalMemory(CUexternalMemory extMem);

/* External semaphores */
CUresult CUDAAPI cuImportExternalSemaphore(CUexternalSemaphore *extSem_out,
                                           const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *semHandleDesc);
CUresult CUDAAPI cuSignalExternalSemaphoresAsync(const CUexternalSemaphore *extSemArray,
                                                 const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray,
                                                 unsigned int numExtSems, CUstream stream);
CUresult CUDAAPI cuWaitExternalSemaphoresAsync(const CUexternalSemaphore *extSemArray,
                                               const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray,
                                               unsigned int numExtSems, CUstream stream);
CUresult CUDAAPI cuDestroyExternalSemaphore(CUexternalSemaphore extSem);

/* Host functions, run in stream order */
CUresult CUDAAPI cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData);

/* Modules (PTX, or fatbins with PTX) and their kernels */
CUresult CUDAAPI cuModuleLoad(CUmodule *module, const char *fname);
CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *image);
CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                                    CUjit_option *options, void **optionValues);
CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin);
CUresult CUDAAPI cuModuleUnload(CUmodule hmod);
CUresult CUDAAPI cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name);
CUresult CUDAAPI cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name);
CUresult CUDAAPI cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc);
CUresult CUDAAPI cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value);
CUresult CUDAAPI cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config);
CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize,
                                                             size_t dynamicSMemSize);
CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func,
                                                                      int blockSize, size_t dynamicSMemSize,
                                                                      unsigned int flags);
CUresult CUDAAPI cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                                  CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                  size_t dynamicSMemSize, int blockSizeLimit);
CUresult CUDAAPI cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, CUfunction func,
                                                           CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                           size_t dynamicSMemSize, int blockSizeLimit,
                                                           unsigned int flags);
CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                void **kernelParams, void **extra);
CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams,
                                  void **extra);

/* Libraries and their kernels: loaded once, usable in every context */
CUresult CUDAAPI cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                                   void **jitOptionsValues, unsigned int numJitOptions,
                                   CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                   unsigned int numLibraryOptions);
CUresult CUDAAPI cuLibraryLoadFromFile(CUlibrary *library, const char *fileName, CUjit_option *jitOptions,
                                       void **jitOptionsValues, unsigned int numJitOptions,
                                       CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                       unsigned int numLibraryOptions);
CUresult CUDAAPI cuLibraryUnload(CUlibrary library);
CUresult CUDAAPI cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name);
CUresult CUDAAPI cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib);
CUresult CUDAAPI cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int numKernels, CUlibrary lib);
CUresult CUDAAPI cuLibraryGetModule(CUmodule *pMod, CUlibrary library);
CUresult CUDAAPI cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name);
CUresult CUDAAPI cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel);
CUresult CUDAAPI cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel);
CUresult CUDAAPI cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev);
CUresult CUDAAPI cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev);
CUresult CUDAAPI cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev);
CUresult CUDAAPI cuKernelGetName(const char **name, CUkernel hfunc);
/* Where parameter paramIndex lies in the kernel's parameter block and how
 * big it is (paramSize may be NULL). */
CUresult CUDAAPI cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t *paramOffset, size_t *paramSize);
CUresult CUDAAPI cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset, size_t *paramSize);

/* Linking PTX into one image cuModuleLoadData takes */
CUresult CUDAAPI cuLinkCreate(unsigned int numOptions, CUjit_option *options, void **optionValues,
                              CUlinkState *stateOut);
CUresult CUDAAPI cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size,
                               const char *name, unsigned int numOptions, CUjit_option *options,
                               void **optionValues);
CUresult CUDAAPI cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path,
                               unsigned int numOptions, CUjit_option *options, void **optionValues);
CUresult CUDAAPI cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut);
CUresult CUDAAPI cuLinkDestroy(CUlinkState state);
CUresult CUDAAPI cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData,
                                     unsigned int flags);

/* The stream-ordered allocator: each device's default pool and the pools
 * programs create. */
CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream);
CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream);
CUresult CUDAAPI cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool,
                                         CUstream hStream);
CUresult CUDAAPI cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *poolProps);
CUresult CUDAAPI cuMemPoolDestroy(CUmemoryPool pool);
CUresult CUDAAPI cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev);
CUresult CUDAAPI cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev);
CUresult CUDAAPI cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool);
CUresult CUDAAPI cuMemGetDefaultMemPool(CUmemoryPool *pool_out, CUmemLocation *location,
                                        CUmemAllocationType type);
CUresult CUDAAPI cuMemGetMemPool(CUmemoryPool *pool, CUmemLocation *location, CUmemAllocationType type);
CUresult CUDAAPI cuMemSetMemPool(CUmemLocation *location, CUmemAllocationType type, CUmemoryPool pool);
CUresult CUDAAPI cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value);
CUresult CUDAAPI cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value);
CUresult CUDAAPI cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep);
CUresult CUDAAPI cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map, size_t count);
CUresult CUDAAPI cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool memPool, CUmemLocation *location);

/* Virtual memory: reserve address ranges, create physical allocations, map
 * them in, set access, share them as file descriptors. */
CUresult CUDAAPI cuMemGetAllocationGranularity(size_t *granularity, const CUmemAllocationProp *prop,
                                               CUmemAllocationGranularity_flags option);
CUresult CUDAAPI cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr,
                                     unsigned long long flags);
CUresult CUDAAPI cuMemAddressFree(CUdeviceptr ptr, size_t size);
CUresult CUDAAPI cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size,
                             const CUmemAllocationProp *prop, unsigned long long flags);
CUresult CUDAAPI cuMemRelease(CUmemGenericAllocationHandle handle);
CUresult CUDAAPI cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle, void *addr);
CUresult CUDAAPI cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp *prop,
                                                        CUmemGenericAllocationHandle handle);
CUresult CUDAAPI cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                          unsigned long long flags);
CUresult CUDAAPI cuMemUnmap(CUdeviceptr ptr, size_t size);
CUresult CUDAAPI cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count);
CUresult CUDAAPI cuMemGetAccess(unsigned long long *flags, const CUmemLocation *location, CUdeviceptr ptr);
CUresult CUDAAPI cuMemExportToShareableHandle(void *shareableHandle, CUmemGenericAllocationHandle handle,
                                              CUmemAllocationHandleType handleType,
                                              unsigned long long flags);
CUresult CUDAAPI cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle, void *osHandle,
                                                CUmemAllocationHandleType shHandleType);

/* Entry-point lookup */
CUresult CUDAAPI cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion,
                                  cuuint64_t flags, CUdriverProcAddressQueryResult *symbolStatus);

/* Graphs */
CUresult CUDAAPI cuGraphCreate(CUgraph *phGraph, unsigned int flags);
CUresult CUDAAPI cuGraphDestroy(CUgraph hGraph);
CUresult CUDAAPI cuGraphAddKernelNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                      size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS *nodeParams);
CUresult CUDAAPI cuGraphAddMemcpyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                      size_t numDependencies, const CUDA_MEMCPY3D *copyParams, CUcontext ctx);
CUresult CUDAAPI cuGraphAddMemsetNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                      size_t numDependencies, const CUDA_MEMSET_NODE_PARAMS *memsetParams,
                                      CUcontext ctx);
CUresult CUDAAPI cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                    size_t numDependencies, const CUDA_HOST_NODE_PARAMS *nodeParams);
CUresult CUDAAPI cuGraphAddEmptyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                     size_t numDependencies);
CUresult CUDAAPI cuGraphAddEventRecordNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                           const CUgraphNode *dependencies, size_t numDependencies,
                                           CUevent event);
CUresult CUDAAPI cuGraphAddEventWaitNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                         size_t numDependencies, CUevent event);
CUresult CUDAAPI cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                        const CUgraphEdgeData *edgeData, size_t numDependencies);
CUresult CUDAAPI cuGraphDestroyNode(CUgraphNode hNode);
CUresult CUDAAPI cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes);
CUresult CUDAAPI cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode *rootNodes, size_t *numRootNodes);
CUresult CUDAAPI cuGraphGetEdges(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *edgeData,
                                 size_t *numEdges);
CUresult CUDAAPI cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType *type);
CUresult CUDAAPI cuGraphNodeGetDependencies(CUgraphNode hNode, CUgraphNode *dependencies,
                                            CUgraphEdgeData *edgeData, size_t *numDependencies);
CUresult CUDAAPI cuGraphNodeGetDependentNodes(CUgraphNode hNode, CUgraphNode *dependentNodes,
                                              CUgraphEdgeData *edgeData, size_t *numDependentNodes);
CUresult CUDAAPI cuGraphKernelNodeGetParams(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS *nodeParams);
CUresult CUDAAPI cuGraphMemcpyNodeGetParams(CUgraphNode hNode, CUDA_MEMCPY3D *nodeParams);
CUresult CUDAAPI cuGraphMemsetNodeGetParams(CUgraphNode hNode, CUDA_MEMSET_NODE_PARAMS *nodeParams);
CUresult CUDAAPI cuGraphHostNodeGetParams(CUgraphNode hNode, CUDA_HOST_NODE_PARAMS *nodeParams);
CUresult CUDAAPI cuGraphEventRecordNodeGetEvent(CUgraphNode hNode, CUevent *event_out);
CUresult CUDAAPI cuGraphEventWaitNodeGetEvent(CUgraphNode hNode, CUevent *event_out);
CUresult CUDAAPI cuGraphInstantiate(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags);
CUresult CUDAAPI cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream);
CUresult CUDAAPI cuGraphExecDestroy(CUgraphExec hGraphExec);

/* Stream capture */
CUresult CUDAAPI cuStreamBeginCapture(CUstream hStream, CUstreamCaptureMode mode);
CUresult CUDAAPI cuStreamEndCapture(CUstream hStream, CUgraph *phGraph);
CUresult CUDAAPI cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus);
CUresult CUDAAPI cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                        cuuint64_t *id_out, CUgraph *graph_out,
                                        const CUgraphNode **dependencies_out,
                                        const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out);
CUresult CUDAAPI cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode);

#if defined(__CUDA_API_VERSION_INTERNAL)
/*
 * The implementation's view.  Above, each prototype was declared under the
 * name its macro selects (_vN, and _ptds/_ptsz since the internal build
 * always turns those on).  Now drop the renames and declare the remaining
 * symbols: the non-per-thread _v2 copies and the legacy plain names.  The
 * legacy ones take 32-bit sizes and device addresses.
 */
#undef cuDeviceGetUuid
#undef cuDeviceTotalMem
#undef cuDevicePrimaryCtxRelease
#undef cuDevicePrimaryCtxReset
#undef cuDevicePrimaryCtxSetFlags
#undef cuModuleGetGlobal
#undef cuCtxCreate
#undef cuCtxDestroy
#undef cuCtxPushCurrent
#undef cuCtxPopCurrent
#undef cuMemGetInfo
#undef cuMemAlloc
#undef cuMemAllocPitch
#undef cuMemFree
#undef cuMemGetAddressRange
#undef cuMemAllocHost
#undef cuMemHostGetDevicePointer
#undef cuMemHostRegister
#undef cuMemAdvise
#undef cuMemPrefetchAsync
#undef cuMemcpyHtoD
#undef cuMemcpyDtoH
#undef cuMemcpyDtoD
#undef cuMemcpyHtoDAsync
#undef cuMemcpyDtoHAsync
#undef cuMemcpyDtoDAsync
#undef cuMemsetD8
#undef cuMemsetD16
#undef cuMemsetD32
#undef cuMemsetD2D8
#undef cuMemsetD2D16
#undef cuMemsetD2D32
#undef cuArrayCreate
#undef cuArrayGetDescriptor
#undef cuArray3DCreate
#undef cuArray3DGetDescriptor
#undef cuMemcpyDtoA
#undef cuMemcpyAtoD
#undef cuMemcpyHtoA
#undef cuMemcpyAtoH
#undef cuMemcpyAtoA
#undef cuMemcpyHtoAAsync
#undef cuMemcpyAtoHAsync
#undef cuMemcpy2D
#undef cuMemcpy2DUnaligned
#undef cuMemcpy2DAsync
#undef cuMemcpy3D
#undef cuMemcpy3DAsync
#undef cuStreamDestroy
#undef cuEventDestroy
#undef cuEventElapsedTime
#undef cuGetProcAddress
#undef cuMemcpy
#undef cuMemcpyAsync
#undef cuMemsetD8Async
#undef cuMemsetD16Async
#undef cuMemsetD32Async
#undef cuMemsetD2D8Async
#undef cuMemsetD2D16Async
#undef cuMemsetD2D32Async
#undef cuStreamQuery
#undef cuStreamSynchronize
#undef cuStreamWaitEvent
#undef cuStreamGetFlags
#undef cuStreamGetPriority
#undef cuEventRecord
#undef cuEventRecordWithFlags
#undef cuStreamGetCtx
#undef cuStreamGetCtx_v2
#undef cuStreamGetId
#undef cuStreamGetDevice
#undef cuStreamAddCallback
#undef cuLaunchHostFunc
#undef cuLaunchKernel
#undef cuLaunchKernelEx
#undef cuLinkCreate
#undef cuLinkAddData
#undef cuLinkAddFile
#undef cuSignalExternalSemaphoresAsync
#undef cuWaitExternalSemaphoresAsync
#undef cuMemAllocAsync
#undef cuMemFreeAsync
#undef cuMemAllocFromPoolAsync
#undef cuStreamBeginCapture
#undef cuStreamGetCaptureInfo
#undef cuStreamEndCapture
#undef cuStreamIsCapturing
#undef cuGraphLaunch
#undef cuGraphInstantiate
#undef cuGraphAddKernelNode
#undef cuGraphKernelNodeGetParams
#undef cuGraphGetEdges
#undef cuGraphNodeGetDependencies
#undef cuGraphNodeGetDependentNodes
#undef cuGraphAddDependencies

/* 32-bit device address of the oldest ABI. */
typedef unsigned int CUdeviceptr_v1;

typedef struct CUDA_ARRAY_DESCRIPTOR_v1_st {
   unsigned int Width;
   unsigned int Height;
   CUarray_format Format;
   unsigned int NumChannels;
} CUDA_ARRAY_DESCRIPTOR_v1;

typedef struct CUDA_ARRAY3D_DESCRIPTOR_v1_st {
   unsigned int Width;
   unsigned int Height;
   unsigned int Depth;
   CUarray_format Format;
   unsigned int NumChannels;
   unsigned int Flags;
} CUDA_ARRAY3D_DESCRIPTOR_v1;

typedef struct CUDA_MEMCPY2D_v1_st {
   unsigned int srcXInBytes;
   unsigned int srcY;
   CUmemorytype srcMemoryType;
   const void *srcHost;
   CUdeviceptr_v1 srcDevice;
   CUarray srcArray;
   unsigned int srcPitch;

   unsigned int dstXInBytes;
   unsigned int dstY;
   CUmemorytype dstMemoryType;
   void *dstHost;
   CUdeviceptr_v1 dstDevice;
   CUarray dstArray;
   unsigned int dstPitch;

   unsigned int WidthInBytes;
   unsigned int Height;
} CUDA_MEMCPY2D_v1;

typedef struct CUDA_MEMCPY3D_v1_st {
   unsigned int srcXInBytes;
   unsigned int srcY;
   unsigned int srcZ;
   unsigned int srcLOD;
   CUmemorytype srcMemoryType;
   const void *srcHost;
   CUdeviceptr_v1 srcDevice;
   CUarray srcArray;
   void *reserved0;
   unsigned int srcPitch;
   unsigned int srcHeight;

   unsigned int dstXInBytes;
   unsigned int dstY;
   unsigned int dstZ;
   unsigned int dstLOD;
   CUmemorytype dstMemoryType;
   void *dstHost;
   CUdeviceptr_v1 dstDevice;
   CUarray dstArray;
   void *reserved1;
   unsigned int dstPitch;
   unsigned int dstHeight;

   unsigned int WidthInBytes;
   unsigned int Height;
   unsigned int Depth;
} CUDA_MEMCPY3D_v1;

/* Older context creation: no parameters (plain and _v2), then affinity
 * parameters (_v3). */
CUresult CUDAAPI cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUresult CUDAAPI cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUresult CUDAAPI cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams,
                                unsigned int flags, CUdevice dev);

/* Same signature as _v2; the versions differ in behaviour only. */
CUresult CUDAAPI cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev);
CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev);
CUresult CUDAAPI cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags);
CUresult CUDAAPI cuCtxDestroy(CUcontext ctx);
CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx);
CUresult CUDAAPI cuCtxPopCurrent(CUcontext *pctx);
CUresult CUDAAPI cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags);
CUresult CUDAAPI cuStreamDestroy(CUstream hStream);
CUresult CUDAAPI cuEventDestroy(CUevent hEvent);
CUresult CUDAAPI cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd);

/* The managed-memory hints before CUmemLocation, which named a device
 * (CU_DEVICE_CPU for the host), and the CUmemLocation prefetch on the
 * legacy default stream. */
CUresult CUDAAPI cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream);
CUresult CUDAAPI cuMemPrefetchAsync_ptsz(CUdeviceptr devPtr, size_t count, CUdevice dstDevice,
                                         CUstream hStream);
CUresult CUDAAPI cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location,
                                       unsigned int flags, CUstream hStream);
CUresult CUDAAPI cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device);

/* 32-bit sizes and addresses. */
CUresult CUDAAPI cuDeviceTotalMem(unsigned int *bytes, CUdevice dev);
CUresult CUDAAPI cuMemGetInfo(unsigned int *free, unsigned int *total);
CUresult CUDAAPI cuMemAlloc(CUdeviceptr_v1 *dptr, unsigned int bytesize);
CUresult CUDAAPI cuModuleGetGlobal(CUdeviceptr_v1 *dptr, unsigned int *bytes, CUmodule hmod, const char *name);
CUresult CUDAAPI cuMemAllocPitch(CUdeviceptr_v1 *dptr, unsigned int *pPitch,
                                 unsigned int WidthInBytes, unsigned int Height,
                                 unsigned int ElementSizeBytes);
CUresult CUDAAPI cuMemFree(CUdeviceptr_v1 dptr);
CUresult CUDAAPI cuMemGetAddressRange(CUdeviceptr_v1 *pbase, unsigned int *psize,
                                      CUdeviceptr_v1 dptr);
CUresult CUDAAPI cuMemAllocHost(void **pp, unsigned int bytesize);
CUresult CUDAAPI cuMemHostGetDevicePointer(CUdeviceptr_v1 *pdptr, void *p, unsigned int Flags);
CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr_v1 dstDevice, const void *srcHost,
                              unsigned int ByteCount);
CUresult CUDAAPI cuMemcpyDtoH(void *dstHost, CUdeviceptr_v1 srcDevice, unsigned int ByteCount);
CUresult CUDAAPI cuMemcpyDtoD(CUdeviceptr_v1 dstDevice, CUdeviceptr_v1 srcDevice,
                              unsigned int ByteCount);
CUresult CUDAAPI cuMemcpyHtoDAsync(CUdeviceptr_v1 dstDevice, const void *srcHost,
                                   unsigned int ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr_v1 srcDevice,
                                   unsigned int ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyDtoDAsync(CUdeviceptr_v1 dstDevice, CUdeviceptr_v1 srcDevice,
                                   unsigned int ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemsetD8(CUdeviceptr_v1 dstDevice, unsigned char uc, unsigned int N);
CUresult CUDAAPI cuMemsetD16(CUdeviceptr_v1 dstDevice, unsigned short us, unsigned int N);
CUresult CUDAAPI cuMemsetD32(CUdeviceptr_v1 dstDevice, unsigned int ui, unsigned int N);
CUresult CUDAAPI cuMemsetD2D8(CUdeviceptr_v1 dstDevice, unsigned int dstPitch, unsigned char uc,
                              unsigned int Width, unsigned int Height);
CUresult CUDAAPI cuMemsetD2D16(CUdeviceptr_v1 dstDevice, unsigned int dstPitch,
                               unsigned short us, unsigned int Width, unsigned int Height);
CUresult CUDAAPI cuMemsetD2D32(CUdeviceptr_v1 dstDevice, unsigned int dstPitch, unsigned int ui,
                               unsigned int Width, unsigned int Height);
CUresult CUDAAPI cuMemcpyDtoA(CUarray dstArray, unsigned int dstOffset, CUdeviceptr_v1 srcDevice,
                              unsigned int ByteCount);
CUresult CUDAAPI cuMemcpyAtoD(CUdeviceptr_v1 dstDevice, CUarray srcArray, unsigned int srcOffset,
                              unsigned int ByteCount);
CUresult CUDAAPI cuMemcpyHtoA(CUarray dstArray, unsigned int dstOffset, const void *srcHost,
                              unsigned int ByteCount);
CUresult CUDAAPI cuMemcpyAtoH(void *dstHost, CUarray srcArray, unsigned int srcOffset,
                              unsigned int ByteCount);
CUresult CUDAAPI cuMemcpyAtoA(CUarray dstArray, unsigned int dstOffset, CUarray srcArray,
                              unsigned int srcOffset, unsigned int ByteCount);
CUresult CUDAAPI cuMemcpyHtoAAsync(CUarray dstArray, unsigned int dstOffset, const void *srcHost,
                                   unsigned int ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyAtoHAsync(void *dstHost, CUarray srcArray, unsigned int srcOffset,
                                   unsigned int ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpy2D(const CUDA_MEMCPY2D_v1 *pCopy);
CUresult CUDAAPI cuMemcpy2DUnaligned(const CUDA_MEMCPY2D_v1 *pCopy);
CUresult CUDAAPI cuMemcpy2DAsync(const CUDA_MEMCPY2D_v1 *pCopy, CUstream hStream);
CUresult CUDAAPI cuMemcpy3D(const CUDA_MEMCPY3D_v1 *pCopy);
CUresult CUDAAPI cuMemcpy3DAsync(const CUDA_MEMCPY3D_v1 *pCopy, CUstream hStream);
CUresult CUDAAPI cuArrayCreate(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR_v1 *pAllocateArray);
CUresult CUDAAPI cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR_v1 *pArrayDescriptor, CUarray hArray);
CUresult CUDAAPI cuArray3DCreate(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR_v1 *pAllocateArray);
CUresult CUDAAPI cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR_v1 *pArrayDescriptor, CUarray hArray);

/* The _v2 copies and fills on the legacy default stream (above they were
 * declared as their _ptds/_ptsz forms). */
CUresult CUDAAPI cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount);
CUresult CUDAAPI cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost,
                                      size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount,
                                      CUstream hStream);
CUresult CUDAAPI cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                                      size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N);
CUresult CUDAAPI cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N);
CUresult CUDAAPI cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N);
CUresult CUDAAPI cuMemsetD2D8_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc,
                                 size_t Width, size_t Height);
CUresult CUDAAPI cuMemsetD2D16_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us,
                                  size_t Width, size_t Height);
CUresult CUDAAPI cuMemsetD2D32_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui,
                                  size_t Width, size_t Height);
CUresult CUDAAPI cuMemcpyDtoA_v2(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice,
                                 size_t ByteCount);
CUresult CUDAAPI cuMemcpyAtoD_v2(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset,
                                 size_t ByteCount);
CUresult CUDAAPI cuMemcpyHtoA_v2(CUarray dstArray, size_t dstOffset, const void *srcHost,
                                 size_t ByteCount);
CUresult CUDAAPI cuMemcpyAtoH_v2(void *dstHost, CUarray srcArray, size_t srcOffset,
                                 size_t ByteCount);
CUresult CUDAAPI cuMemcpyAtoA_v2(CUarray dstArray, size_t dstOffset, CUarray srcArray,
                                 size_t srcOffset, size_t ByteCount);
CUresult CUDAAPI cuMemcpyHtoAAsync_v2(CUarray dstArray, size_t dstOffset, const void *srcHost,
                                      size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpyAtoHAsync_v2(void *dstHost, CUarray srcArray, size_t srcOffset,
                                      size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy);
CUresult CUDAAPI cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *pCopy);
CUresult CUDAAPI cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream);
CUresult CUDAAPI cuMemcpy3D_v2(const CUDA_MEMCPY3D *pCopy);
CUresult CUDAAPI cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *pCopy, CUstream hStream);

/* Legacy-default-stream versions of the calls that only have a per-thread
 * variant. */
CUresult CUDAAPI cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount);
CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream);
CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N,
                                 CUstream hStream);
CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N,
                                  CUstream hStream);
CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N,
                                  CUstream hStream);
CUresult CUDAAPI cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc,
                                   size_t Width, size_t Height, CUstream hStream);
CUresult CUDAAPI cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us,
                                    size_t Width, size_t Height, CUstream hStream);
CUresult CUDAAPI cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui,
                                    size_t Width, size_t Height, CUstream hStream);
CUresult CUDAAPI cuStreamGetPriority(CUstream hStream, int *priority);
CUresult CUDAAPI cuStreamGetFlags(CUstream hStream, unsigned int *flags);
CUresult CUDAAPI cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags);
CUresult CUDAAPI cuStreamQuery(CUstream hStream);
CUresult CUDAAPI cuStreamSynchronize(CUstream hStream);
CUresult CUDAAPI cuEventRecord(CUevent hEvent, CUstream hStream);
CUresult CUDAAPI cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags);
CUresult CUDAAPI cuStreamGetCtx(CUstream hStream, CUcontext *pctx);
CUresult CUDAAPI cuStreamGetCtx_v2(CUstream hStream, CUcontext *pCtx, CUgreenCtx *pGreenCtx);
CUresult CUDAAPI cuStreamGetId(CUstream hStream, unsigned long long *streamId);
CUresult CUDAAPI cuStreamGetDevice(CUstream hStream, CUdevice *device);
CUresult CUDAAPI cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void *userData,
                                     unsigned int flags);
CUresult CUDAAPI cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData);
CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                void **kernelParams, void **extra);
CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams,
                                  void **extra);
/* The CUDA 5.5 linker entry points; same signatures as _v2. */
CUresult CUDAAPI cuLinkCreate(unsigned int numOptions, CUjit_option *options, void **optionValues,
                              CUlinkState *stateOut);
CUresult CUDAAPI cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size,
                               const char *name, unsigned int numOptions, CUjit_option *options,
                               void **optionValues);
CUresult CUDAAPI cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path,
                               unsigned int numOptions, CUjit_option *options, void **optionValues);
CUresult CUDAAPI cuSignalExternalSemaphoresAsync(const CUexternalSemaphore *extSemArray,
                                                 const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray,
                                                 unsigned int numExtSems, CUstream stream);
CUresult CUDAAPI cuWaitExternalSemaphoresAsync(const CUexternalSemaphore *extSemArray,
                                               const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray,
                                               unsigned int numExtSems, CUstream stream);
CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream);
CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream);
CUresult CUDAAPI cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool,
                                         CUstream hStream);

/* Graphs and stream capture: the versions before CUDA 12.3's edge data
 * and 12.0's kernel-node CUkernel, and the legacy-stream names. */
CUresult CUDAAPI cuStreamBeginCapture(CUstream hStream);
CUresult CUDAAPI cuStreamBeginCapture_ptsz(CUstream hStream);
CUresult CUDAAPI cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode);
CUresult CUDAAPI cuStreamEndCapture(CUstream hStream, CUgraph *phGraph);
CUresult CUDAAPI cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus);
CUresult CUDAAPI cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                        cuuint64_t *id_out);
CUresult CUDAAPI cuStreamGetCaptureInfo_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                             cuuint64_t *id_out);
CUresult CUDAAPI cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                           cuuint64_t *id_out, CUgraph *graph_out,
                                           const CUgraphNode **dependencies_out, size_t *numDependencies_out);
CUresult CUDAAPI cuStreamGetCaptureInfo_v2_ptsz(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                                cuuint64_t *id_out, CUgraph *graph_out,
                                                const CUgraphNode **dependencies_out,
                                                size_t *numDependencies_out);
CUresult CUDAAPI cuStreamGetCaptureInfo_v3(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                           cuuint64_t *id_out, CUgraph *graph_out,
                                           const CUgraphNode **dependencies_out,
                                           const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out);
CUresult CUDAAPI cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream);
CUresult CUDAAPI cuGraphInstantiate(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                                    char *logBuffer, size_t bufferSize);
CUresult CUDAAPI cuGraphInstantiate_v2(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                                       char *logBuffer, size_t bufferSize);
CUresult CUDAAPI cuGraphAddKernelNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                      size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams);
CUresult CUDAAPI cuGraphKernelNodeGetParams(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams);
CUresult CUDAAPI cuGraphGetEdges(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to, size_t *numEdges);
CUresult CUDAAPI cuGraphNodeGetDependencies(CUgraphNode hNode, CUgraphNode *dependencies,
                                            size_t *numDependencies);
CUresult CUDAAPI cuGraphNodeGetDependentNodes(CUgraphNode hNode, CUgraphNode *dependentNodes,
                                              size_t *numDependentNodes);
CUresult CUDAAPI cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to,
                                        size_t numDependencies);

/* Lookup without the symbol status. */
CUresult CUDAAPI cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion,
                                  cuuint64_t flags);

#elif defined(__CUDA_API_PER_THREAD_DEFAULT_STREAM)
/*
 * A program built for the per-thread default stream gets per-thread
 * entry points from cuGetProcAddress too, unless its flags ask for a
 * flavour explicitly.  This wrapper lives in the program, not in libcuda.
 */
static inline CUresult
cuGetProcAddress_v2_ptsz(const char *symbol, void **funcPtr, int driverVersion,
                         cuuint64_t flags, CUdriverProcAddressQueryResult *symbolStatus)
{
   const cuuint64_t flavours = CU_GET_PROC_ADDRESS_LEGACY_STREAM |
                               CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
   if (!(flags & flavours))
      flags |= CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
   return cuGetProcAddress_v2(symbol, funcPtr, driverVersion, flags, symbolStatus);
}
#define cuGetProcAddress_v2 cuGetProcAddress_v2_ptsz
#endif

#ifdef __cplusplus
}
#endif

#endif /* __cuda_cuda_h__ */
