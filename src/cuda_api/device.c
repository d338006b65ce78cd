/*
 * cuDevice*: CUDA devices are the Vulkan physical devices cuInit kept.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cuda_api/driver.h"
#include "util/error.h"
#include "util/macros.h"

CUVK_EXPORT CUresult CUDAAPI
cuDeviceGetCount(int *count)
{
   CUresult res = cuvk_driver_check("cuDeviceGetCount");
   if (res != CUDA_SUCCESS)
      return res;
   if (!count)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetCount: count is NULL");
   *count = cuvk_driver.device_count;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuDeviceGet(CUdevice *device, int ordinal)
{
   struct cuvk_device *dev;
   CUresult res = cuvk_driver_check("cuDeviceGet");
   if (res != CUDA_SUCCESS)
      return res;
   if (!device)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceGet: device is NULL");
   res = cuvk_device_get(ordinal, "cuDeviceGet", &dev);
   if (res != CUDA_SUCCESS)
      return res;
   *device = dev->ordinal;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuDeviceGetName(char *name, int len, CUdevice device)
{
   struct cuvk_device *dev;
   CUresult res = cuvk_device_get(device, "cuDeviceGetName", &dev);
   if (res != CUDA_SUCCESS)
      return res;
   if (!name || len <= 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetName: NULL name or length %d", len);
   snprintf(name, (size_t)len, "%s", dev->props.deviceName);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice device)
{
   struct cuvk_device *dev;
   CUresult res = cuvk_device_get(device, "cuDeviceGetUuid", &dev);
   if (res != CUDA_SUCCESS)
      return res;
   if (!uuid)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetUuid: uuid is NULL");
   /* The Vulkan deviceUUID, so interop code matching its VkPhysicalDevice
    * to a CUDA device by UUID finds the same device. */
   _Static_assert(sizeof(uuid->bytes) == VK_UUID_SIZE, "CUuuid is 16 bytes");
   memcpy(uuid->bytes, dev->id.deviceUUID, VK_UUID_SIZE);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuDeviceTotalMem_v2(size_t *bytes, CUdevice device)
{
   struct cuvk_device *dev;
   CUresult res = cuvk_device_get(device, "cuDeviceTotalMem", &dev);
   if (res != CUDA_SUCCESS)
      return res;
   if (!bytes)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceTotalMem: bytes is NULL");
   *bytes = dev->device_heap_size;
   return CUDA_SUCCESS;
}

static int
clamp_int(uint64_t v)
{
   return v > INT32_MAX ? INT32_MAX : (int)v;
}

/* Attributes with a meaning on Vulkan come from its limits; the CUDA-only
 * ones (clock rates, compute capability, ...) have no Vulkan source and
 * read 0, which is also what CUDA reports for an absent feature. */
static int
device_attribute(const struct cuvk_device *dev, CUdevice_attribute attrib)
{
   const VkPhysicalDeviceLimits *l = &dev->props.limits;

   switch (attrib) {
   case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
      return clamp_int(l->maxComputeWorkGroupInvocations);
   case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
      return clamp_int(l->maxComputeWorkGroupSize[0]);
   case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
      return clamp_int(l->maxComputeWorkGroupSize[1]);
   case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z:
      return clamp_int(l->maxComputeWorkGroupSize[2]);
   /* CUDA's own grid limits: a launch splits a grid beyond the device's
    * maxComputeWorkGroupCount into several dispatches (launch.c). */
   case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
      return INT32_MAX;
   case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
   case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
      return 65535;
   case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
   case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
      return clamp_int(l->maxComputeSharedMemorySize);
   case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY:
      return clamp_int(l->maxUniformBufferRange);
   case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
      return clamp_int(dev->subgroup.subgroupSize);
   case CU_DEVICE_ATTRIBUTE_MAX_PITCH:
      return INT32_MAX;
   case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT:
   case CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT:
      return 256;
   case CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT:
      return 512;
   case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
      /* Programs size grids by it.  Vulkan has no portable core count:
       * NVIDIA's and AMD's drivers give theirs through an extension
       * (driver.c), a CPU device has its threads, and elsewhere 1 keeps
       * code that divides by it working. */
      if (dev->sm_count)
         return clamp_int(dev->sm_count);
      if (dev->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)
         return clamp_int((uint64_t)CUVK_MAX(sysconf(_SC_NPROCESSORS_ONLN), 1L));
      return 1;
   case CU_DEVICE_ATTRIBUTE_INTEGRATED:
      return dev->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ||
             dev->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
   case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY:
   case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
   case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
   case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED:
   case CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED:
   /* Timeline semaphores import natively where the driver exports them,
    * and through VK_LAYER_CUVK_interop's xsems everywhere else. */
   case CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED:
      return 1;
   /* Managed memory is pinned host memory (docs/design.md): the host may
    * touch it only while no kernel runs, as on CUDA devices without
    * concurrentManagedAccess, so that and the pageable-access attributes
    * stay 0. */
   case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY:
      return 1;
   /* cuMemPoolCreate and the stream-ordered allocator (mempool.c).  No
    * pool can be shared, so MEMPOOL_SUPPORTED_HANDLE_TYPES stays 0, and
    * no pool holds host memory (HOST_MEMORY_POOLS_SUPPORTED 0). */
   case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED:
      return 1;
   case CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED:
   case CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM:
      return dev->has_external_memory_host;
   case CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED:
      return dev->read_only_host_import;
   case CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED:
      return dev->has_dma_buf;
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH:
      return clamp_int(l->maxImageDimension1D);
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT:
      return clamp_int(l->maxImageDimension2D);
   /* Linear textures are read through texel buffers (tex1Dfetch). */
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH:
      return clamp_int(l->maxTexelBufferElements);
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT:
      return clamp_int(l->maxImageDimension2D);
   /* A row of the widest texture of the widest texel (16 bytes). */
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH:
      return clamp_int((uint64_t)l->maxImageDimension2D * 16);
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH:
      return clamp_int(l->maxImageDimension3D);
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH:
      return clamp_int(l->maxImageDimensionCube);
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS:
      return clamp_int(l->maxImageArrayLayers);
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS:
   case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS:
      return clamp_int(l->maxImageArrayLayers / 6 * 6);
   case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID:
      return dev->has_pci_bus_info ? (int)dev->pci.pciBus : 0;
   case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID:
      return dev->has_pci_bus_info ? (int)dev->pci.pciDevice : 0;
   case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID:
      return dev->has_pci_bus_info ? (int)dev->pci.pciDomain : 0;
   case CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID:
      return (int)((dev->props.deviceID << 16) | dev->props.vendorID);
   default:
      return 0;
   }
}

CUVK_EXPORT CUresult CUDAAPI
cuDeviceGetAttribute(int *value, CUdevice_attribute attrib, CUdevice device)
{
   struct cuvk_device *dev;
   CUresult res = cuvk_device_get(device, "cuDeviceGetAttribute", &dev);
   if (res != CUDA_SUCCESS)
      return res;
   if (!value)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetAttribute: value is NULL");
   if ((int)attrib <= 0 || attrib >= CU_DEVICE_ATTRIBUTE_MAX)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetAttribute: %d is not a device attribute",
                        (int)attrib);
   *value = device_attribute(dev, attrib);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuDeviceGetPCIBusId(char *pci_bus_id, int len, CUdevice device)
{
   struct cuvk_device *dev;
   CUresult res = cuvk_device_get(device, "cuDeviceGetPCIBusId", &dev);
   if (res != CUDA_SUCCESS)
      return res;
   if (!pci_bus_id || len <= 0)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetPCIBusId: NULL buffer or length %d", len);
   if (!dev->has_pci_bus_info)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED,
                        "cuDeviceGetPCIBusId: %s does not report its PCI address (no VK_EXT_pci_bus_info)",
                        dev->props.deviceName);
   snprintf(pci_bus_id, (size_t)len, "%08X:%02X:%02X.%X", dev->pci.pciDomain, dev->pci.pciBus,
            dev->pci.pciDevice, dev->pci.pciFunction);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuDeviceGetByPCIBusId(CUdevice *device, const char *pci_bus_id)
{
   unsigned domain = 0, bus, slot, function = 0;
   CUresult res = cuvk_driver_check("cuDeviceGetByPCIBusId");
   if (res != CUDA_SUCCESS)
      return res;
   if (!device || !pci_bus_id)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetByPCIBusId: NULL argument");

   /* Accepts [domain]:[bus]:[device].[function] and [bus]:[device].[function]. */
   if (sscanf(pci_bus_id, "%x:%x:%x.%x", &domain, &bus, &slot, &function) != 4) {
      domain = 0;
      if (sscanf(pci_bus_id, "%x:%x.%x", &bus, &slot, &function) != 3)
         return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetByPCIBusId: cannot parse \"%s\"",
                           pci_bus_id);
   }
   for (int i = 0; i < cuvk_driver.device_count; i++) {
      const struct cuvk_device *dev = &cuvk_driver.devices[i];
      if (dev->has_pci_bus_info && dev->pci.pciDomain == domain && dev->pci.pciBus == bus &&
          dev->pci.pciDevice == slot && dev->pci.pciFunction == function) {
         *device = dev->ordinal;
         return CUDA_SUCCESS;
      }
   }
   return cuvk_error(CUDA_ERROR_INVALID_DEVICE, "cuDeviceGetByPCIBusId: no device at %s", pci_bus_id);
}

CUVK_EXPORT CUresult CUDAAPI
cuDeviceComputeCapability(int *major, int *minor, CUdevice device)
{
   struct cuvk_device *dev;
   CUresult res = cuvk_device_get(device, "cuDeviceComputeCapability", &dev);
   if (res != CUDA_SUCCESS)
      return res;
   if (!major || !minor)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceComputeCapability: NULL major or minor");
   /* The same numbers as the attributes, so the two ways of asking agree. */
   *major = device_attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
   *minor = device_attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuDeviceGetProperties(CUdevprop *prop, CUdevice device)
{
   struct cuvk_device *dev;
   CUresult res = cuvk_device_get(device, "cuDeviceGetProperties", &dev);
   if (res != CUDA_SUCCESS)
      return res;
   if (!prop)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetProperties: prop is NULL");
   /* Each field is its attribute, as in NVIDIA's driver. */
   prop->maxThreadsPerBlock = device_attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
   prop->maxThreadsDim[0] = device_attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
   prop->maxThreadsDim[1] = device_attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
   prop->maxThreadsDim[2] = device_attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
   prop->maxGridSize[0] = device_attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
   prop->maxGridSize[1] = device_attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
   prop->maxGridSize[2] = device_attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
   prop->sharedMemPerBlock = device_attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
   prop->totalConstantMemory = device_attribute(dev, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
   prop->SIMDWidth = device_attribute(dev, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
   prop->memPitch = device_attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_PITCH);
   prop->regsPerBlock = device_attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
   prop->clockRate = device_attribute(dev, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
   prop->textureAlign = device_attribute(dev, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT);
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuDeviceGetLuid(char *luid, unsigned int *node_mask, CUdevice device)
{
   struct cuvk_device *dev;
   CUresult res = cuvk_device_get(device, "cuDeviceGetLuid", &dev);
   if (res != CUDA_SUCCESS)
      return res;
   if (!luid || !node_mask)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetLuid: NULL luid or deviceNodeMask");
   /* A LUID exists on Windows only; Vulkan says whether it has one, and
    * NVIDIA's Linux driver answers CUDA_ERROR_NOT_SUPPORTED (measured). */
   if (!dev->id.deviceLUIDValid)
      return cuvk_error(CUDA_ERROR_NOT_SUPPORTED, "cuDeviceGetLuid: %s has no LUID",
                        dev->props.deviceName);
   _Static_assert(VK_LUID_SIZE == 8, "CUDA's LUID is 8 bytes");
   memcpy(luid, dev->id.deviceLUID, VK_LUID_SIZE);
   *node_mask = dev->id.deviceNodeMask;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuDeviceCanAccessPeer(int *can_access, CUdevice device, CUdevice peer)
{
   struct cuvk_device *dev, *peer_dev;
   CUresult res = cuvk_device_get(device, "cuDeviceCanAccessPeer", &dev);
   if (res != CUDA_SUCCESS)
      return res;
   res = cuvk_device_get(peer, "cuDeviceCanAccessPeer", &peer_dev);
   if (res != CUDA_SUCCESS)
      return res;
   if (!can_access)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceCanAccessPeer: canAccessPeer is NULL");
   /* Each context is its own VkDevice, so no two share memory; a device
    * is not its own peer in CUDA either (measured: 0). */
   *can_access = 0;
   return CUDA_SUCCESS;
}

CUVK_EXPORT CUresult CUDAAPI
cuDeviceGetExecAffinitySupport(int *pi, CUexecAffinityType type, CUdevice device)
{
   struct cuvk_device *dev;
   CUresult res = cuvk_device_get(device, "cuDeviceGetExecAffinitySupport", &dev);
   if (res != CUDA_SUCCESS)
      return res;
   if (!pi)
      return cuvk_error(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetExecAffinitySupport: pi is NULL");
   /* cuCtxCreate refuses execution-affinity parameters, so no type is
    * supported; NVIDIA's driver also answers 0 (for SM counts, without
    * MPS) and accepts types it does not know. */
   (void)type;
   *pi = 0;
   return CUDA_SUCCESS;
}
