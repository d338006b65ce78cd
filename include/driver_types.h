/*
 * cuvk: the types of the CUDA runtime API.
 *
 * The subset of the runtime's types that cuvk's cuda_runtime_api.h needs:
 * result codes, devices and their properties, memory, streams, events and
 * external memory.  A program built against NVIDIA's driver_types.h must
 * run unchanged on libcuvk, so every name, value, tag and layout below is
 * that of NVIDIA's CUDA 13.0 header (tests/abi compares them); the text is
 * our own.
 *
 * The runtime spells its aggregates as tags (struct cudaDeviceProp, enum
 * cudaMemcpyKind) rather than typedefs, and C code has to do the same; C++
 * code may drop the keyword.  Handles are pointers to the same struct tags
 * the driver API uses where NVIDIA shares them (a cudaStream_t is a
 * CUstream), so the two APIs can be mixed.
 */
#ifndef __DRIVER_TYPES_H__
#define __DRIVER_TYPES_H__

#include <limits.h>
#include <stddef.h>

/* ---- Flags ---- */

/* cudaHostAlloc */
#define cudaHostAllocDefault        0x00
#define cudaHostAllocPortable       0x01  /* pinned for every context */
#define cudaHostAllocMapped         0x02  /* mapped into the device's address space */
#define cudaHostAllocWriteCombined  0x04

/* cudaMallocManaged */
#define cudaMemAttachGlobal         0x01
#define cudaMemAttachHost           0x02
#define cudaMemAttachSingle         0x04

/* cudaHostRegister */
#define cudaHostRegisterDefault     0x00
#define cudaHostRegisterPortable    0x01
#define cudaHostRegisterMapped      0x02
#define cudaHostRegisterIoMemory    0x04
#define cudaHostRegisterReadOnly    0x08

/* cudaStreamCreateWithFlags */
#define cudaStreamDefault           0x00
#define cudaStreamNonBlocking       0x01  /* no implicit sync with the legacy stream */

/* Special streams: the process-wide legacy default stream, and the calling
 * thread's own default stream. */
#define cudaStreamLegacy            ((cudaStream_t)0x1)
#define cudaStreamPerThread         ((cudaStream_t)0x2)

/* cudaEventCreateWithFlags */
#define cudaEventDefault            0x00
#define cudaEventBlockingSync       0x01
#define cudaEventDisableTiming      0x02
#define cudaEventInterprocess       0x04  /* needs cudaEventDisableTiming */

/* cudaEventRecordWithFlags and cudaStreamWaitEvent (graph capture only) */
#define cudaEventRecordDefault      0x00
#define cudaEventRecordExternal     0x01
#define cudaEventWaitDefault        0x00
#define cudaEventWaitExternal       0x01

/* Array creation flags (also cudaExternalMemoryMipmappedArrayDesc.flags) */
#define cudaArrayDefault            0x00
#define cudaArrayLayered            0x01
#define cudaArraySurfaceLoadStore   0x02
#define cudaArrayCubemap            0x04
#define cudaArrayTextureGather      0x08
#define cudaArrayColorAttachment    0x20
#define cudaArraySparse             0x40
#define cudaArrayDeferredMapping    0x80

/* Device ordinals with a special meaning. */
#define cudaCpuDeviceId             ((int)-1)
#define cudaInvalidDeviceId         ((int)-2)

/* cudaExternalMemoryHandleDesc.flags: a dedicated allocation (Vulkan:
 * allocated with VkMemoryDedicatedAllocateInfo). */
#define cudaExternalMemoryDedicated 0x1

/* ---- Result codes ---- */

enum cudaError {
   cudaSuccess = 0,
   cudaErrorInvalidValue = 1,
   cudaErrorMemoryAllocation = 2,
   cudaErrorInitializationError = 3,
   cudaErrorCudartUnloading = 4,
   cudaErrorProfilerDisabled = 5,
   cudaErrorProfilerNotInitialized = 6,
   cudaErrorProfilerAlreadyStarted = 7,
   cudaErrorProfilerAlreadyStopped = 8,
   cudaErrorInvalidConfiguration = 9,
   cudaErrorInvalidPitchValue = 12,
   cudaErrorInvalidSymbol = 13,
   cudaErrorInvalidHostPointer = 16,
   cudaErrorInvalidDevicePointer = 17,
   cudaErrorInvalidTexture = 18,
   cudaErrorInvalidTextureBinding = 19,
   cudaErrorInvalidChannelDescriptor = 20,
   cudaErrorInvalidMemcpyDirection = 21,
   cudaErrorAddressOfConstant = 22,
   cudaErrorTextureFetchFailed = 23,
   cudaErrorTextureNotBound = 24,
   cudaErrorSynchronizationError = 25,
   cudaErrorInvalidFilterSetting = 26,
   cudaErrorInvalidNormSetting = 27,
   cudaErrorMixedDeviceExecution = 28,
   cudaErrorNotYetImplemented = 31,
   cudaErrorMemoryValueTooLarge = 32,
   cudaErrorStubLibrary = 34,
   cudaErrorInsufficientDriver = 35,
   cudaErrorCallRequiresNewerDriver = 36,
   cudaErrorInvalidSurface = 37,
   cudaErrorDuplicateVariableName = 43,
   cudaErrorDuplicateTextureName = 44,
   cudaErrorDuplicateSurfaceName = 45,
   cudaErrorDevicesUnavailable = 46,
   cudaErrorIncompatibleDriverContext = 49,
   cudaErrorMissingConfiguration = 52,
   cudaErrorPriorLaunchFailure = 53,
   cudaErrorLaunchMaxDepthExceeded = 65,
   cudaErrorLaunchFileScopedTex = 66,
   cudaErrorLaunchFileScopedSurf = 67,
   cudaErrorSyncDepthExceeded = 68,
   cudaErrorLaunchPendingCountExceeded = 69,
   cudaErrorInvalidDeviceFunction = 98,

   cudaErrorNoDevice = 100,
   cudaErrorInvalidDevice = 101,
   cudaErrorDeviceNotLicensed = 102,
   cudaErrorSoftwareValidityNotEstablished = 103,
   cudaErrorStartupFailure = 127,

   cudaErrorInvalidKernelImage = 200,
   cudaErrorDeviceUninitialized = 201,
   cudaErrorMapBufferObjectFailed = 205,
   cudaErrorUnmapBufferObjectFailed = 206,
   cudaErrorArrayIsMapped = 207,
   cudaErrorAlreadyMapped = 208,
   cudaErrorNoKernelImageForDevice = 209,
   cudaErrorAlreadyAcquired = 210,
   cudaErrorNotMapped = 211,
   cudaErrorNotMappedAsArray = 212,
   cudaErrorNotMappedAsPointer = 213,
   cudaErrorECCUncorrectable = 214,
   cudaErrorUnsupportedLimit = 215,
   cudaErrorDeviceAlreadyInUse = 216,
   cudaErrorPeerAccessUnsupported = 217,
   cudaErrorInvalidPtx = 218,
   cudaErrorInvalidGraphicsContext = 219,
   cudaErrorNvlinkUncorrectable = 220,
   cudaErrorJitCompilerNotFound = 221,
   cudaErrorUnsupportedPtxVersion = 222,
   cudaErrorJitCompilationDisabled = 223,
   cudaErrorUnsupportedExecAffinity = 224,
   cudaErrorUnsupportedDevSideSync = 225,
   cudaErrorContained = 226,

   cudaErrorInvalidSource = 300,
   cudaErrorFileNotFound = 301,
   cudaErrorSharedObjectSymbolNotFound = 302,
   cudaErrorSharedObjectInitFailed = 303,
   cudaErrorOperatingSystem = 304,

   cudaErrorInvalidResourceHandle = 400,
   cudaErrorIllegalState = 401,
   cudaErrorLossyQuery = 402,

   cudaErrorSymbolNotFound = 500,

   cudaErrorNotReady = 600,

   cudaErrorIllegalAddress = 700,
   cudaErrorLaunchOutOfResources = 701,
   cudaErrorLaunchTimeout = 702,
   cudaErrorLaunchIncompatibleTexturing = 703,
   cudaErrorPeerAccessAlreadyEnabled = 704,
   cudaErrorPeerAccessNotEnabled = 705,
   cudaErrorSetOnActiveProcess = 708,
   cudaErrorContextIsDestroyed = 709,
   cudaErrorAssert = 710,
   cudaErrorTooManyPeers = 711,
   cudaErrorHostMemoryAlreadyRegistered = 712,
   cudaErrorHostMemoryNotRegistered = 713,
   cudaErrorHardwareStackError = 714,
   cudaErrorIllegalInstruction = 715,
   cudaErrorMisalignedAddress = 716,
   cudaErrorInvalidAddressSpace = 717,
   cudaErrorInvalidPc = 718,
   cudaErrorLaunchFailure = 719,
   cudaErrorCooperativeLaunchTooLarge = 720,
   cudaErrorTensorMemoryLeak = 721,

   cudaErrorNotPermitted = 800,
   cudaErrorNotSupported = 801,
   cudaErrorSystemNotReady = 802,
   cudaErrorSystemDriverMismatch = 803,
   cudaErrorCompatNotSupportedOnDevice = 804,
   cudaErrorMpsConnectionFailed = 805,
   cudaErrorMpsRpcFailure = 806,
   cudaErrorMpsServerNotReady = 807,
   cudaErrorMpsMaxClientsReached = 808,
   cudaErrorMpsMaxConnectionsReached = 809,
   cudaErrorMpsClientTerminated = 810,
   cudaErrorCdpNotSupported = 811,
   cudaErrorCdpVersionMismatch = 812,

   cudaErrorStreamCaptureUnsupported = 900,
   cudaErrorStreamCaptureInvalidated = 901,
   cudaErrorStreamCaptureMerge = 902,
   cudaErrorStreamCaptureUnmatched = 903,
   cudaErrorStreamCaptureUnjoined = 904,
   cudaErrorStreamCaptureIsolation = 905,
   cudaErrorStreamCaptureImplicit = 906,
   cudaErrorCapturedEvent = 907,
   cudaErrorStreamCaptureWrongThread = 908,
   cudaErrorTimeout = 909,
   cudaErrorGraphExecUpdateFailure = 910,
   cudaErrorExternalDevice = 911,
   cudaErrorInvalidClusterSize = 912,
   cudaErrorFunctionNotLoaded = 913,
   cudaErrorInvalidResourceType = 914,
   cudaErrorInvalidResourceConfiguration = 915,

   cudaErrorUnknown = 999,
   /* Not a result: the base of internal API failure codes. */
   cudaErrorApiFailureBase = 10000
};

typedef enum cudaError cudaError_t;

/* ---- Arrays and their formats ---- */

enum cudaChannelFormatKind {
   cudaChannelFormatKindSigned = 0,
   cudaChannelFormatKindUnsigned = 1,
   cudaChannelFormatKindFloat = 2,
   cudaChannelFormatKindNone = 3,
   cudaChannelFormatKindNV12 = 4,
   cudaChannelFormatKindUnsignedNormalized8X1 = 5,
   cudaChannelFormatKindUnsignedNormalized8X2 = 6,
   cudaChannelFormatKindUnsignedNormalized8X4 = 7,
   cudaChannelFormatKindUnsignedNormalized16X1 = 8,
   cudaChannelFormatKindUnsignedNormalized16X2 = 9,
   cudaChannelFormatKindUnsignedNormalized16X4 = 10,
   cudaChannelFormatKindSignedNormalized8X1 = 11,
   cudaChannelFormatKindSignedNormalized8X2 = 12,
   cudaChannelFormatKindSignedNormalized8X4 = 13,
   cudaChannelFormatKindSignedNormalized16X1 = 14,
   cudaChannelFormatKindSignedNormalized16X2 = 15,
   cudaChannelFormatKindSignedNormalized16X4 = 16,
   cudaChannelFormatKindUnsignedBlockCompressed1 = 17,
   cudaChannelFormatKindUnsignedBlockCompressed1SRGB = 18,
   cudaChannelFormatKindUnsignedBlockCompressed2 = 19,
   cudaChannelFormatKindUnsignedBlockCompressed2SRGB = 20,
   cudaChannelFormatKindUnsignedBlockCompressed3 = 21,
   cudaChannelFormatKindUnsignedBlockCompressed3SRGB = 22,
   cudaChannelFormatKindUnsignedBlockCompressed4 = 23,
   cudaChannelFormatKindSignedBlockCompressed4 = 24,
   cudaChannelFormatKindUnsignedBlockCompressed5 = 25,
   cudaChannelFormatKindSignedBlockCompressed5 = 26,
   cudaChannelFormatKindUnsignedBlockCompressed6H = 27,
   cudaChannelFormatKindSignedBlockCompressed6H = 28,
   cudaChannelFormatKindUnsignedBlockCompressed7 = 29,
   cudaChannelFormatKindUnsignedBlockCompressed7SRGB = 30,
   cudaChannelFormatKindUnsignedNormalized1010102 = 31
};

/* Bits per channel (x, y, z, w; 0 for an absent channel) and their kind. */
struct cudaChannelFormatDesc {
   int x;
   int y;
   int z;
   int w;
   enum cudaChannelFormatKind f;
};

/* Opaque array handles. */
struct cudaArray;
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;

struct cudaMipmappedArray;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
typedef const struct cudaMipmappedArray *cudaMipmappedArray_const_t;

/* Width (elements for arrays, bytes for linear memory), height, depth. */
struct cudaExtent {
   size_t width;
   size_t height;
   size_t depth;
};

/* ---- Texture and surface objects ---- */

/* 64-bit values kernels receive; the driver's CUtexObject and CUsurfObject. */
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;

enum cudaResourceType {
   cudaResourceTypeArray = 0x00,
   cudaResourceTypeMipmappedArray = 0x01,
   cudaResourceTypeLinear = 0x02,
   cudaResourceTypePitch2D = 0x03
};

/* The driver's CUresourceViewFormat, value for value. */
enum cudaResourceViewFormat {
   cudaResViewFormatNone = 0x00,
   cudaResViewFormatUnsignedChar1 = 0x01,
   cudaResViewFormatUnsignedChar2 = 0x02,
   cudaResViewFormatUnsignedChar4 = 0x03,
   cudaResViewFormatSignedChar1 = 0x04,
   cudaResViewFormatSignedChar2 = 0x05,
   cudaResViewFormatSignedChar4 = 0x06,
   cudaResViewFormatUnsignedShort1 = 0x07,
   cudaResViewFormatUnsignedShort2 = 0x08,
   cudaResViewFormatUnsignedShort4 = 0x09,
   cudaResViewFormatSignedShort1 = 0x0a,
   cudaResViewFormatSignedShort2 = 0x0b,
   cudaResViewFormatSignedShort4 = 0x0c,
   cudaResViewFormatUnsignedInt1 = 0x0d,
   cudaResViewFormatUnsignedInt2 = 0x0e,
   cudaResViewFormatUnsignedInt4 = 0x0f,
   cudaResViewFormatSignedInt1 = 0x10,
   cudaResViewFormatSignedInt2 = 0x11,
   cudaResViewFormatSignedInt4 = 0x12,
   cudaResViewFormatHalf1 = 0x13,
   cudaResViewFormatHalf2 = 0x14,
   cudaResViewFormatHalf4 = 0x15,
   cudaResViewFormatFloat1 = 0x16,
   cudaResViewFormatFloat2 = 0x17,
   cudaResViewFormatFloat4 = 0x18,
   cudaResViewFormatUnsignedBlockCompressed1 = 0x19,
   cudaResViewFormatUnsignedBlockCompressed2 = 0x1a,
   cudaResViewFormatUnsignedBlockCompressed3 = 0x1b,
   cudaResViewFormatUnsignedBlockCompressed4 = 0x1c,
   cudaResViewFormatSignedBlockCompressed4 = 0x1d,
   cudaResViewFormatUnsignedBlockCompressed5 = 0x1e,
   cudaResViewFormatSignedBlockCompressed5 = 0x1f,
   cudaResViewFormatUnsignedBlockCompressed6H = 0x20,
   cudaResViewFormatSignedBlockCompressed6H = 0x21,
   cudaResViewFormatUnsignedBlockCompressed7 = 0x22
};

/* What a texture or surface reads: resType picks the member of res. */
struct cudaResourceDesc {
   enum cudaResourceType resType;
   union {
      struct {
         cudaArray_t array;
      } array;
      struct {
         cudaMipmappedArray_t mipmap;
      } mipmap;
      struct {
         void *devPtr;
         struct cudaChannelFormatDesc desc;
         size_t sizeInBytes;
      } linear;
      struct {
         void *devPtr;
         struct cudaChannelFormatDesc desc;
         size_t width;                   /* elements */
         size_t height;
         size_t pitchInBytes;
      } pitch2D;
      struct {
         int reserved[32];
      } reserved;
   } res;
   unsigned int flags;                   /* must be 0 */
};

struct cudaResourceViewDesc {
   enum cudaResourceViewFormat format;
   size_t width;
   size_t height;
   size_t depth;
   unsigned int firstMipmapLevel;
   unsigned int lastMipmapLevel;
   unsigned int firstLayer;
   unsigned int lastLayer;
   unsigned int reserved[16];
};

enum cudaTextureAddressMode {
   cudaAddressModeWrap = 0,
   cudaAddressModeClamp = 1,
   cudaAddressModeMirror = 2,
   cudaAddressModeBorder = 3
};

enum cudaTextureFilterMode {
   cudaFilterModePoint = 0,
   cudaFilterModeLinear = 1
};

/* ElementType: 8/16-bit integers read as integers; NormalizedFloat: as
 * floats in [0, 1] or [-1, 1]. */
enum cudaTextureReadMode {
   cudaReadModeElementType = 0,
   cudaReadModeNormalizedFloat = 1
};

/* How a texture is sampled: the driver's CUDA_TEXTURE_DESC with its flags
 * spelled out as fields. */
struct cudaTextureDesc {
   enum cudaTextureAddressMode addressMode[3];
   enum cudaTextureFilterMode filterMode;
   enum cudaTextureReadMode readMode;
   int sRGB;
   float borderColor[4];
   int normalizedCoords;
   unsigned int maxAnisotropy;
   enum cudaTextureFilterMode mipmapFilterMode;
   float mipmapLevelBias;
   float minMipmapLevelClamp;
   float maxMipmapLevelClamp;
   int disableTrilinearOptimization;
   int seamlessCubemap;
};

/* ---- Memory ---- */

enum cudaMemoryType {
   cudaMemoryTypeUnregistered = 0,  /* pageable host memory CUDA does not know */
   cudaMemoryTypeHost = 1,
   cudaMemoryTypeDevice = 2,
   cudaMemoryTypeManaged = 3
};

/* Managed memory hints (the driver's CUmem_advise, CUmem_range_attribute,
 * CUmemLocationType and CUmemLocation). */
enum cudaMemoryAdvise {
   cudaMemAdviseSetReadMostly = 1,
   cudaMemAdviseUnsetReadMostly = 2,
   cudaMemAdviseSetPreferredLocation = 3,
   cudaMemAdviseUnsetPreferredLocation = 4,
   cudaMemAdviseSetAccessedBy = 5,
   cudaMemAdviseUnsetAccessedBy = 6
};

enum cudaMemRangeAttribute {
   cudaMemRangeAttributeReadMostly = 1,
   cudaMemRangeAttributePreferredLocation = 2,
   cudaMemRangeAttributeAccessedBy = 3,
   cudaMemRangeAttributeLastPrefetchLocation = 4,
   cudaMemRangeAttributePreferredLocationType = 5,
   cudaMemRangeAttributePreferredLocationId = 6,
   cudaMemRangeAttributeLastPrefetchLocationType = 7,
   cudaMemRangeAttributeLastPrefetchLocationId = 8
};

enum cudaMemLocationType {
   cudaMemLocationTypeInvalid = 0,
   cudaMemLocationTypeNone = 0,
   cudaMemLocationTypeDevice = 1,
   cudaMemLocationTypeHost = 2,
   cudaMemLocationTypeHostNuma = 3,
   cudaMemLocationTypeHostNumaCurrent = 4
};

struct cudaMemLocation {
   enum cudaMemLocationType type;
   int id;
};

/* Memory pools (the driver's CUmemAccess_flags, CUmemAccessDesc,
 * CUmemAllocationType, CUmemAllocationHandleType and CUmemPoolProps, by
 * value and layout). */
enum cudaMemAccessFlags {
   cudaMemAccessFlagsProtNone = 0,
   cudaMemAccessFlagsProtRead = 1,
   cudaMemAccessFlagsProtReadWrite = 3
};

struct cudaMemAccessDesc {
   struct cudaMemLocation location;
   enum cudaMemAccessFlags flags;
};

enum cudaMemAllocationType {
   cudaMemAllocationTypeInvalid = 0x0,
   cudaMemAllocationTypePinned = 0x1,
   cudaMemAllocationTypeManaged = 0x2,
   cudaMemAllocationTypeMax = 0x7FFFFFFF
};

enum cudaMemAllocationHandleType {
   cudaMemHandleTypeNone = 0x0,
   cudaMemHandleTypePosixFileDescriptor = 0x1,
   cudaMemHandleTypeWin32 = 0x2,
   cudaMemHandleTypeWin32Kmt = 0x4,
   cudaMemHandleTypeFabric = 0x8
};

#define cudaMemPoolCreateUsageHwDecompress 0x2

struct cudaMemPoolProps {
   enum cudaMemAllocationType allocType;
   enum cudaMemAllocationHandleType handleTypes;
   struct cudaMemLocation location;
   void *win32SecurityAttributes;
   size_t maxSize;
   unsigned short usage;
   unsigned char reserved[54];
};

struct cudaMemPoolPtrExportData {
   unsigned char reserved[64];
};

/* Direction of a copy.  cudaMemcpyDefault infers it from the pointers,
 * which unified addressing makes possible. */
/* cudaGetDriverEntryPoint: which default-stream flavour to look for, and
 * what the search found (the values of cuGetProcAddress's). */
enum cudaGetDriverEntryPointFlags {
   cudaEnableDefault = 0x0,
   cudaEnableLegacyStream = 0x1,
   cudaEnablePerThreadDefaultStream = 0x2,
};

enum cudaDriverEntryPointQueryResult {
   cudaDriverEntryPointSuccess = 0,
   cudaDriverEntryPointSymbolNotFound = 1,
   cudaDriverEntryPointVersionNotSufficent = 2,
};

enum cudaMemcpyKind {
   cudaMemcpyHostToHost = 0,
   cudaMemcpyHostToDevice = 1,
   cudaMemcpyDeviceToHost = 2,
   cudaMemcpyDeviceToDevice = 3,
   cudaMemcpyDefault = 4
};

/* What cudaPointerGetAttributes reports. */
struct cudaPointerAttributes {
   enum cudaMemoryType type;
   int device;            /* the device it was allocated or registered on */
   void *devicePointer;   /* NULL if the device cannot address it */
   void *hostPointer;     /* NULL if the host cannot address it */
   long reserved[8];
};

/* ---- Devices ---- */

enum cudaComputeMode {
   cudaComputeModeDefault = 0,
   cudaComputeModeExclusive = 1,
   cudaComputeModeProhibited = 2,
   cudaComputeModeExclusiveProcess = 3
};

/* cudaDeviceSetLimit / cudaDeviceGetLimit; the values of CUlimit. */
enum cudaLimit {
   cudaLimitStackSize = 0x00,
   cudaLimitPrintfFifoSize = 0x01,
   cudaLimitMallocHeapSize = 0x02,
   cudaLimitDevRuntimeSyncDepth = 0x03,
   cudaLimitDevRuntimePendingLaunchCount = 0x04,
   cudaLimitMaxL2FetchGranularity = 0x05,
   cudaLimitPersistingL2CacheSize = 0x06
};

/* cudaDeviceGetAttribute; each has the value of the driver API's
 * CU_DEVICE_ATTRIBUTE_* of the same meaning. */
enum cudaDeviceAttr {
   cudaDevAttrMaxThreadsPerBlock = 1,
   cudaDevAttrMaxBlockDimX = 2,
   cudaDevAttrMaxBlockDimY = 3,
   cudaDevAttrMaxBlockDimZ = 4,
   cudaDevAttrMaxGridDimX = 5,
   cudaDevAttrMaxGridDimY = 6,
   cudaDevAttrMaxGridDimZ = 7,
   cudaDevAttrMaxSharedMemoryPerBlock = 8,
   cudaDevAttrTotalConstantMemory = 9,
   cudaDevAttrWarpSize = 10,
   cudaDevAttrMaxPitch = 11,
   cudaDevAttrMaxRegistersPerBlock = 12,
   cudaDevAttrClockRate = 13,
   cudaDevAttrTextureAlignment = 14,
   cudaDevAttrGpuOverlap = 15,
   cudaDevAttrMultiProcessorCount = 16,
   cudaDevAttrKernelExecTimeout = 17,
   cudaDevAttrIntegrated = 18,
   cudaDevAttrCanMapHostMemory = 19,
   cudaDevAttrComputeMode = 20,
   cudaDevAttrMaxTexture1DWidth = 21,
   cudaDevAttrMaxTexture2DWidth = 22,
   cudaDevAttrMaxTexture2DHeight = 23,
   cudaDevAttrMaxTexture3DWidth = 24,
   cudaDevAttrMaxTexture3DHeight = 25,
   cudaDevAttrMaxTexture3DDepth = 26,
   cudaDevAttrMaxTexture2DLayeredWidth = 27,
   cudaDevAttrMaxTexture2DLayeredHeight = 28,
   cudaDevAttrMaxTexture2DLayeredLayers = 29,
   cudaDevAttrSurfaceAlignment = 30,
   cudaDevAttrConcurrentKernels = 31,
   cudaDevAttrEccEnabled = 32,
   cudaDevAttrPciBusId = 33,
   cudaDevAttrPciDeviceId = 34,
   cudaDevAttrTccDriver = 35,
   cudaDevAttrMemoryClockRate = 36,
   cudaDevAttrGlobalMemoryBusWidth = 37,
   cudaDevAttrL2CacheSize = 38,
   cudaDevAttrMaxThreadsPerMultiProcessor = 39,
   cudaDevAttrAsyncEngineCount = 40,
   cudaDevAttrUnifiedAddressing = 41,
   cudaDevAttrMaxTexture1DLayeredWidth = 42,
   cudaDevAttrMaxTexture1DLayeredLayers = 43,
   cudaDevAttrMaxTexture2DGatherWidth = 45,
   cudaDevAttrMaxTexture2DGatherHeight = 46,
   cudaDevAttrMaxTexture3DWidthAlt = 47,
   cudaDevAttrMaxTexture3DHeightAlt = 48,
   cudaDevAttrMaxTexture3DDepthAlt = 49,
   cudaDevAttrPciDomainId = 50,
   cudaDevAttrTexturePitchAlignment = 51,
   cudaDevAttrMaxTextureCubemapWidth = 52,
   cudaDevAttrMaxTextureCubemapLayeredWidth = 53,
   cudaDevAttrMaxTextureCubemapLayeredLayers = 54,
   cudaDevAttrMaxSurface1DWidth = 55,
   cudaDevAttrMaxSurface2DWidth = 56,
   cudaDevAttrMaxSurface2DHeight = 57,
   cudaDevAttrMaxSurface3DWidth = 58,
   cudaDevAttrMaxSurface3DHeight = 59,
   cudaDevAttrMaxSurface3DDepth = 60,
   cudaDevAttrMaxSurface1DLayeredWidth = 61,
   cudaDevAttrMaxSurface1DLayeredLayers = 62,
   cudaDevAttrMaxSurface2DLayeredWidth = 63,
   cudaDevAttrMaxSurface2DLayeredHeight = 64,
   cudaDevAttrMaxSurface2DLayeredLayers = 65,
   cudaDevAttrMaxSurfaceCubemapWidth = 66,
   cudaDevAttrMaxSurfaceCubemapLayeredWidth = 67,
   cudaDevAttrMaxSurfaceCubemapLayeredLayers = 68,
   cudaDevAttrMaxTexture1DLinearWidth = 69,
   cudaDevAttrMaxTexture2DLinearWidth = 70,
   cudaDevAttrMaxTexture2DLinearHeight = 71,
   cudaDevAttrMaxTexture2DLinearPitch = 72,
   cudaDevAttrMaxTexture2DMipmappedWidth = 73,
   cudaDevAttrMaxTexture2DMipmappedHeight = 74,
   cudaDevAttrComputeCapabilityMajor = 75,
   cudaDevAttrComputeCapabilityMinor = 76,
   cudaDevAttrMaxTexture1DMipmappedWidth = 77,
   cudaDevAttrStreamPrioritiesSupported = 78,
   cudaDevAttrGlobalL1CacheSupported = 79,
   cudaDevAttrLocalL1CacheSupported = 80,
   cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
   cudaDevAttrMaxRegistersPerMultiprocessor = 82,
   cudaDevAttrManagedMemory = 83,
   cudaDevAttrIsMultiGpuBoard = 84,
   cudaDevAttrMultiGpuBoardGroupID = 85,
   cudaDevAttrHostNativeAtomicSupported = 86,
   cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
   cudaDevAttrPageableMemoryAccess = 88,
   cudaDevAttrConcurrentManagedAccess = 89,
   cudaDevAttrComputePreemptionSupported = 90,
   cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
   cudaDevAttrReserved92 = 92,
   cudaDevAttrReserved93 = 93,
   cudaDevAttrReserved94 = 94,
   cudaDevAttrCooperativeLaunch = 95,
   cudaDevAttrReserved96 = 96,
   cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
   cudaDevAttrCanFlushRemoteWrites = 98,
   cudaDevAttrHostRegisterSupported = 99,
   cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
   cudaDevAttrDirectManagedMemAccessFromHost = 101,
   cudaDevAttrMaxBlocksPerMultiprocessor = 106,
   cudaDevAttrMaxPersistingL2CacheSize = 108,
   cudaDevAttrMaxAccessPolicyWindowSize = 109,
   cudaDevAttrReservedSharedMemoryPerBlock = 111,
   cudaDevAttrSparseCudaArraySupported = 112,
   cudaDevAttrHostRegisterReadOnlySupported = 113,
   cudaDevAttrTimelineSemaphoreInteropSupported = 114,
   cudaDevAttrMemoryPoolsSupported = 115,
   cudaDevAttrGPUDirectRDMASupported = 116,
   cudaDevAttrGPUDirectRDMAFlushWritesOptions = 117,
   cudaDevAttrGPUDirectRDMAWritesOrdering = 118,
   cudaDevAttrMemoryPoolSupportedHandleTypes = 119,
   cudaDevAttrClusterLaunch = 120,
   cudaDevAttrDeferredMappingCudaArraySupported = 121,
   cudaDevAttrReserved122 = 122,
   cudaDevAttrReserved123 = 123,
   cudaDevAttrReserved124 = 124,
   cudaDevAttrIpcEventSupport = 125,
   cudaDevAttrMemSyncDomainCount = 126,
   cudaDevAttrReserved127 = 127,
   cudaDevAttrReserved128 = 128,
   cudaDevAttrReserved129 = 129,
   cudaDevAttrNumaConfig = 130,
   cudaDevAttrNumaId = 131,
   cudaDevAttrReserved132 = 132,
   cudaDevAttrMpsEnabled = 133,
   cudaDevAttrHostNumaId = 134,
   cudaDevAttrD3D12CigSupported = 135,
   cudaDevAttrVulkanCigSupported = 138,
   cudaDevAttrGpuPciDeviceId = 139,
   cudaDevAttrGpuPciSubsystemId = 140,
   cudaDevAttrReserved141 = 141,
   cudaDevAttrHostNumaMemoryPoolsSupported = 142,
   cudaDevAttrHostNumaMultinodeIpcSupported = 143,
   cudaDevAttrHostMemoryPoolsSupported = 144,
   cudaDevAttrReserved145 = 145,
   cudaDevAttrOnlyPartialHostNativeAtomicSupported = 147,
   cudaDevAttrMax
};

/* The device UUID, shared with the driver API's cuda.h (whichever header
 * comes first defines it). */
#ifndef CU_UUID_HAS_BEEN_DEFINED
#define CU_UUID_HAS_BEEN_DEFINED
struct CUuuid_st {
   char bytes[16];
};
typedef struct CUuuid_st CUuuid;
#endif
typedef struct CUuuid_st cudaUUID_t;

/*
 * cudaGetDeviceProperties.  This is CUDA 13.0's layout, which dropped
 * fields that CUDA 12 had (clockRate, deviceOverlap, computeMode,
 * memoryClockRate, ...: cudaDeviceGetAttribute still answers them), so
 * every offset past maxGridSize differs from CUDA 12's struct.
 */
struct cudaDeviceProp {
   char name[256];
   cudaUUID_t uuid;
   char luid[8];                        /* Windows only */
   unsigned int luidDeviceNodeMask;     /* Windows only */
   size_t totalGlobalMem;
   size_t sharedMemPerBlock;
   int regsPerBlock;
   int warpSize;
   size_t memPitch;
   int maxThreadsPerBlock;
   int maxThreadsDim[3];
   int maxGridSize[3];
   size_t totalConstMem;
   int major;
   int minor;
   size_t textureAlignment;
   size_t texturePitchAlignment;
   int multiProcessorCount;
   int integrated;
   int canMapHostMemory;
   int maxTexture1D;
   int maxTexture1DMipmap;
   int maxTexture2D[2];
   int maxTexture2DMipmap[2];
   int maxTexture2DLinear[3];           /* width, height, pitch */
   int maxTexture2DGather[2];
   int maxTexture3D[3];
   int maxTexture3DAlt[3];
   int maxTextureCubemap;
   int maxTexture1DLayered[2];
   int maxTexture2DLayered[3];
   int maxTextureCubemapLayered[2];
   int maxSurface1D;
   int maxSurface2D[2];
   int maxSurface3D[3];
   int maxSurface1DLayered[2];
   int maxSurface2DLayered[3];
   int maxSurfaceCubemap;
   int maxSurfaceCubemapLayered[2];
   size_t surfaceAlignment;
   int concurrentKernels;
   int ECCEnabled;
   int pciBusID;
   int pciDeviceID;
   int pciDomainID;
   int tccDriver;
   int asyncEngineCount;
   int unifiedAddressing;
   int memoryBusWidth;
   int l2CacheSize;
   int persistingL2CacheMaxSize;
   int maxThreadsPerMultiProcessor;
   int streamPrioritiesSupported;
   int globalL1CacheSupported;
   int localL1CacheSupported;
   size_t sharedMemPerMultiprocessor;
   int regsPerMultiprocessor;
   int managedMemory;
   int isMultiGpuBoard;
   int multiGpuBoardGroupID;
   int hostNativeAtomicSupported;
   int pageableMemoryAccess;
   int concurrentManagedAccess;
   int computePreemptionSupported;
   int canUseHostPointerForRegisteredMem;
   int cooperativeLaunch;
   size_t sharedMemPerBlockOptin;
   int pageableMemoryAccessUsesHostPageTables;
   int directManagedMemAccessFromHost;
   int maxBlocksPerMultiProcessor;
   int accessPolicyMaxWindowSize;
   size_t reservedSharedMemPerBlock;
   int hostRegisterSupported;
   int sparseCudaArraySupported;
   int hostRegisterReadOnlySupported;
   int timelineSemaphoreInteropSupported;
   int memoryPoolsSupported;
   int gpuDirectRDMASupported;
   unsigned int gpuDirectRDMAFlushWritesOptions;
   int gpuDirectRDMAWritesOrdering;
   unsigned int memoryPoolSupportedHandleTypes;
   int deferredMappingCudaArraySupported;
   int ipcEventSupported;
   int clusterLaunch;
   int unifiedFunctionPointers;
   int deviceNumaConfig;
   int deviceNumaId;
   int mpsEnabled;
   int hostNumaId;
   unsigned int gpuPciDeviceID;         /* device ID << 16 | vendor ID */
   unsigned int gpuPciSubsystemID;
   int hostNumaMultinodeIpcSupported;
   int reserved[56];
};

/* ---- External memory ---- */

enum cudaExternalMemoryHandleType {
   cudaExternalMemoryHandleTypeOpaqueFd = 1,
   cudaExternalMemoryHandleTypeOpaqueWin32 = 2,
   cudaExternalMemoryHandleTypeOpaqueWin32Kmt = 3,
   cudaExternalMemoryHandleTypeD3D12Heap = 4,
   cudaExternalMemoryHandleTypeD3D12Resource = 5,
   cudaExternalMemoryHandleTypeD3D11Resource = 6,
   cudaExternalMemoryHandleTypeD3D11ResourceKmt = 7,
   cudaExternalMemoryHandleTypeNvSciBuf = 8
};

/* cudaImportExternalMemory: the same layout as the driver API's
 * CUDA_EXTERNAL_MEMORY_HANDLE_DESC. */
struct cudaExternalMemoryHandleDesc {
   enum cudaExternalMemoryHandleType type;
   union {
      int fd;                           /* OpaqueFd */
      struct {
         void *handle;
         const void *name;
      } win32;
      const void *nvSciBufObject;
   } handle;
   unsigned long long size;
   unsigned int flags;                  /* cudaExternalMemoryDedicated */
   unsigned int reserved[16];
};

/* cudaExternalMemoryGetMappedBuffer */
struct cudaExternalMemoryBufferDesc {
   unsigned long long offset;
   unsigned long long size;
   unsigned int flags;                  /* must be 0 */
   unsigned int reserved[16];
};

/* A mipmapped array over external memory. */
struct cudaExternalMemoryMipmappedArrayDesc {
   unsigned long long offset;
   struct cudaChannelFormatDesc formatDesc;
   struct cudaExtent extent;
   unsigned int flags;                  /* cudaArray* */
   unsigned int numLevels;
   unsigned int reserved[16];
};

/* ---- External semaphores ---- */

enum cudaExternalSemaphoreHandleType {
   cudaExternalSemaphoreHandleTypeOpaqueFd = 1,
   cudaExternalSemaphoreHandleTypeOpaqueWin32 = 2,
   cudaExternalSemaphoreHandleTypeOpaqueWin32Kmt = 3,
   cudaExternalSemaphoreHandleTypeD3D12Fence = 4,
   cudaExternalSemaphoreHandleTypeD3D11Fence = 5,
   cudaExternalSemaphoreHandleTypeNvSciSync = 6,
   cudaExternalSemaphoreHandleTypeKeyedMutex = 7,
   cudaExternalSemaphoreHandleTypeKeyedMutexKmt = 8,
   cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd = 9,
   cudaExternalSemaphoreHandleTypeTimelineSemaphoreWin32 = 10
};

/* Signal/wait params flags, meaningful for NvSciSync only. */
#define cudaExternalSemaphoreSignalSkipNvSciBufMemSync 0x01
#define cudaExternalSemaphoreWaitSkipNvSciBufMemSync 0x02

/* cudaImportExternalSemaphore: the layout of the driver API's
 * CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC. */
struct cudaExternalSemaphoreHandleDesc {
   enum cudaExternalSemaphoreHandleType type;
   union {
      int fd;                           /* OpaqueFd, TimelineSemaphoreFd */
      struct {
         void *handle;
         const void *name;
      } win32;
      const void *nvSciSyncObj;
   } handle;
   unsigned int flags;                  /* must be 0 */
   unsigned int reserved[16];
};

struct cudaExternalSemaphoreSignalParams {
   struct {
      struct {
         unsigned long long value;      /* timeline semaphores */
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
};

struct cudaExternalSemaphoreWaitParams {
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
};

/* ---- Kernels ---- */

/* A launch's grid or block extent, every member given (NVIDIA's C++
 * constructors, which default missing extents to 1, come with nvcc's own
 * headers, which is what <<<...>>> code is compiled with). */
struct dim3 {
   unsigned int x, y, z;
};
typedef struct dim3 dim3;

/* The driver's CUfunction (one kernel loaded in one context), and the
 * context-independent kernel handle cudaGetKernel gives. */
typedef struct CUfunc_st *cudaFunction_t;
typedef struct CUkern_st *cudaKernel_t;

/* cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags */
#define cudaOccupancyDefault                0x00
#define cudaOccupancyDisableCachingOverride 0x01

/* cudaFuncGetAttributes: the driver's CU_FUNC_ATTRIBUTE_* figures. */
struct cudaFuncAttributes {
   size_t sharedSizeBytes;          /* static shared memory */
   size_t constSizeBytes;
   size_t localSizeBytes;           /* per thread */
   int maxThreadsPerBlock;
   int numRegs;
   int ptxVersion;
   int binaryVersion;
   int cacheModeCA;
   int maxDynamicSharedSizeBytes;
   int preferredShmemCarveout;
   int clusterDimMustBeSet;
   int requiredClusterWidth;
   int requiredClusterHeight;
   int requiredClusterDepth;
   int clusterSchedulingPolicyPreference;
   int nonPortableClusterSizeAllowed;
   int reserved[16];
};

/* cudaFuncSetAttribute; the values are the driver's
 * CU_FUNC_ATTRIBUTE_* numbers for the same settings. */
enum cudaFuncAttribute {
   cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
   cudaFuncAttributePreferredSharedMemoryCarveout = 9,
   cudaFuncAttributeClusterDimMustBeSet = 10,
   cudaFuncAttributeRequiredClusterWidth = 11,
   cudaFuncAttributeRequiredClusterHeight = 12,
   cudaFuncAttributeRequiredClusterDepth = 13,
   cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
   cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
   cudaFuncAttributeMax
};

/* cudaFuncSetCacheConfig (a preference Vulkan has no knob for). */
enum cudaFuncCache {
   cudaFuncCachePreferNone = 0,
   cudaFuncCachePreferShared = 1,
   cudaFuncCachePreferL1 = 2,
   cudaFuncCachePreferEqual = 3
};

/* ---- Handles ---- */

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
/* The driver API's CUmemoryPool. */
typedef struct CUmemPoolHandle_st *cudaMemPool_t;

/* Memory pool attributes: the driver's CU_MEMPOOL_ATTR_* values; the
 * Reuse* ones are int, the rest unsigned long long. */
enum cudaMemPoolAttr {
   cudaMemPoolReuseFollowEventDependencies = 0x1,
   cudaMemPoolReuseAllowOpportunistic = 0x2,
   cudaMemPoolReuseAllowInternalDependencies = 0x3,
   cudaMemPoolAttrReleaseThreshold = 0x4,
   cudaMemPoolAttrReservedMemCurrent = 0x5,
   cudaMemPoolAttrReservedMemHigh = 0x6,
   cudaMemPoolAttrUsedMemCurrent = 0x7,
   cudaMemPoolAttrUsedMemHigh = 0x8
};
/* NVIDIA's tag; the object is the driver API's CUexternalMemory, whose
 * tag (CUextMemory_st) differs, so passing one as the other needs a cast. */
typedef struct CUexternalMemory_st *cudaExternalMemory_t;
/* The driver API's CUexternalSemaphore under NVIDIA's runtime tag. */
typedef struct CUexternalSemaphore_st *cudaExternalSemaphore_t;

#if defined(_WIN32)
#define CUDART_CB __stdcall
#else
#define CUDART_CB
#endif

/* cudaLaunchHostFunc */
typedef void (CUDART_CB *cudaHostFn_t)(void *userData);

/* ---- Graphs and stream capture ---- */

/* The driver API's CUgraph, CUgraphNode and CUgraphExec: the same struct
 * tags, so the two APIs' handles are one. */
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;

/* What a node does: the driver's CU_GRAPH_NODE_TYPE_* numbers (the
 * driver's batch memory operation, 0x0c, has no runtime name). */
enum cudaGraphNodeType {
   cudaGraphNodeTypeKernel = 0x00,
   cudaGraphNodeTypeMemcpy = 0x01,
   cudaGraphNodeTypeMemset = 0x02,
   cudaGraphNodeTypeHost = 0x03,
   cudaGraphNodeTypeGraph = 0x04,
   cudaGraphNodeTypeEmpty = 0x05,
   cudaGraphNodeTypeWaitEvent = 0x06,
   cudaGraphNodeTypeEventRecord = 0x07,
   cudaGraphNodeTypeExtSemaphoreSignal = 0x08,
   cudaGraphNodeTypeExtSemaphoreWait = 0x09,
   cudaGraphNodeTypeMemAlloc = 0x0a,
   cudaGraphNodeTypeMemFree = 0x0b,
   cudaGraphNodeTypeConditional = 0x0d,
   cudaGraphNodeTypeCount
};

/* An edge's kind (cudaGraphEdgeData.type); only the default, with both
 * ports 0, is an ordinary dependency. */
typedef enum cudaGraphDependencyType_enum {
   cudaGraphDependencyTypeDefault = 0,
   cudaGraphDependencyTypeProgrammatic = 1
} cudaGraphDependencyType;

/* What an edge carries, the driver's CUgraphEdgeData; all zero for a
 * plain dependency. */
typedef struct cudaGraphEdgeData_st {
   unsigned char from_port;
   unsigned char to_port;
   unsigned char type;        /* cudaGraphDependencyType */
   unsigned char reserved[5]; /* zero */
} cudaGraphEdgeData;

/* A kernel node's outgoing ports (cudaGraphEdgeData.from_port). */
#define cudaGraphKernelNodePortDefault 0
#define cudaGraphKernelNodePortProgrammatic 1
#define cudaGraphKernelNodePortLaunchCompletion 2

/* cudaGraphInstantiate's flags: the driver's CUDA_GRAPH_INSTANTIATE_FLAG_*. */
enum cudaGraphInstantiateFlags {
   cudaGraphInstantiateFlagAutoFreeOnLaunch = 1,
   cudaGraphInstantiateFlagUpload = 2,
   cudaGraphInstantiateFlagDeviceLaunch = 4,
   cudaGraphInstantiateFlagUseNodePriority = 8
};

/* A kernel node: func is the kernel's host stub (or a cudaKernel_t), the
 * arguments as cudaLaunchKernel takes them (kernelParams) or packed
 * (extra, the driver's CU_LAUNCH_PARAM_* list). */
struct cudaKernelNodeParams {
   void *func;
   dim3 gridDim;
   dim3 blockDim;
   unsigned int sharedMemBytes;
   void **kernelParams;
   void **extra;
};

/* A memset node: height rows of width elements of elementSize (1, 2 or
 * 4) bytes each, pitch bytes apart; the driver's CUDA_MEMSET_NODE_PARAMS
 * with a pointer for dst. */
struct cudaMemsetParams {
   void *dst;
   size_t pitch;
   unsigned int value;
   unsigned int elementSize;
   size_t width;
   size_t height;
};

/* A host node, the driver's CUDA_HOST_NODE_PARAMS. */
struct cudaHostNodeParams {
   cudaHostFn_t fn;
   void *userData;
};

/* cudaStreamIsCapturing, the driver's CUstreamCaptureStatus. */
enum cudaStreamCaptureStatus {
   cudaStreamCaptureStatusNone = 0,
   cudaStreamCaptureStatusActive = 1,
   cudaStreamCaptureStatusInvalidated = 2  /* failed, not yet ended */
};

/* Which calls a capture forbids to other threads and to its own (the
 * driver's CUstreamCaptureMode). */
enum cudaStreamCaptureMode {
   cudaStreamCaptureModeGlobal = 0,
   cudaStreamCaptureModeThreadLocal = 1,
   cudaStreamCaptureModeRelaxed = 2
};

/* ---- Extensible launches (cudaLaunchKernelExC) ---- */

/* The driver's CUlaunchAttribute* under the runtime's names: the same
 * numbers, members and 64-byte value, so cuvk hands them on as they are. */
enum cudaAccessProperty {
   cudaAccessPropertyNormal = 0,
   cudaAccessPropertyStreaming = 1,
   cudaAccessPropertyPersisting = 2
};

struct cudaAccessPolicyWindow {
   void *base_ptr;
   size_t num_bytes;
   float hitRatio;
   enum cudaAccessProperty hitProp;
   enum cudaAccessProperty missProp;
};

enum cudaSynchronizationPolicy {
   cudaSyncPolicyAuto = 1,
   cudaSyncPolicySpin = 2,
   cudaSyncPolicyYield = 3,
   cudaSyncPolicyBlockingSync = 4
};

enum cudaClusterSchedulingPolicy {
   cudaClusterSchedulingPolicyDefault = 0,
   cudaClusterSchedulingPolicySpread = 1,
   cudaClusterSchedulingPolicyLoadBalancing = 2
};

typedef enum cudaLaunchMemSyncDomain {
   cudaLaunchMemSyncDomainDefault = 0,
   cudaLaunchMemSyncDomainRemote = 1
} cudaLaunchMemSyncDomain;

typedef struct cudaLaunchMemSyncDomainMap_st {
   unsigned char default_;
   unsigned char remote;
} cudaLaunchMemSyncDomainMap;

typedef struct CUgraphDeviceUpdatableNode_st *cudaGraphDeviceNode_t;

typedef enum cudaLaunchAttributeID {
   cudaLaunchAttributeIgnore = 0,
   cudaLaunchAttributeAccessPolicyWindow = 1,
   cudaLaunchAttributeCooperative = 2,
   cudaLaunchAttributeSynchronizationPolicy = 3,
   cudaLaunchAttributeClusterDimension = 4,
   cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
   cudaLaunchAttributeProgrammaticStreamSerialization = 6,
   cudaLaunchAttributeProgrammaticEvent = 7,
   cudaLaunchAttributePriority = 8,
   cudaLaunchAttributeMemSyncDomainMap = 9,
   cudaLaunchAttributeMemSyncDomain = 10,
   cudaLaunchAttributePreferredClusterDimension = 11,
   cudaLaunchAttributeLaunchCompletionEvent = 12,
   cudaLaunchAttributeDeviceUpdatableKernelNode = 13,
   cudaLaunchAttributePreferredSharedMemoryCarveout = 14,
   cudaLaunchAttributeNvlinkUtilCentricScheduling = 16
} cudaLaunchAttributeID;

typedef union cudaLaunchAttributeValue {
   char pad[64];
   struct cudaAccessPolicyWindow accessPolicyWindow;
   int cooperative;
   enum cudaSynchronizationPolicy syncPolicy;
   struct {
      unsigned int x;
      unsigned int y;
      unsigned int z;
   } clusterDim;
   enum cudaClusterSchedulingPolicy clusterSchedulingPolicyPreference;
   int programmaticStreamSerializationAllowed;
   struct {
      cudaEvent_t event;
      int flags;
      int triggerAtBlockStart;
   } programmaticEvent;
   int priority;
   cudaLaunchMemSyncDomainMap memSyncDomainMap;
   cudaLaunchMemSyncDomain memSyncDomain;
   struct {
      unsigned int x;
      unsigned int y;
      unsigned int z;
   } preferredClusterDim;
   struct {
      cudaEvent_t event;
      int flags;
   } launchCompletionEvent;
   struct {
      int deviceUpdatable;
      cudaGraphDeviceNode_t devNode;
   } deviceUpdatableKernelNode;
   unsigned int sharedMemCarveout;
   unsigned int nvlinkUtilCentricScheduling;
} cudaLaunchAttributeValue;

typedef struct cudaLaunchAttribute_st {
   cudaLaunchAttributeID id;
   char pad[8 - sizeof(cudaLaunchAttributeID)];
   cudaLaunchAttributeValue val;
} cudaLaunchAttribute;

typedef struct cudaLaunchConfig_st {
   dim3 gridDim;
   dim3 blockDim;
   size_t dynamicSmemBytes;         /* per block */
   cudaStream_t stream;
   cudaLaunchAttribute *attrs;      /* may be NULL when numAttrs is 0 */
   unsigned int numAttrs;
} cudaLaunchConfig_t;

#endif
