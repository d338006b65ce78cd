/*
 * api.device.*: device enumeration and properties, checked against what
 * the test's own Vulkan instance reports for the same device.
 */
#include "api_test.h"

#include <ctype.h>
#include <vulkan/vulkan.h>

/* The test's own view of Vulkan: each physical device's UUID, name and
 * whether it reports its PCI address. */
struct vk_view {
   VkInstance instance;
   uint32_t count;
   VkPhysicalDevice pdevs[16];
   VkPhysicalDeviceIDProperties ids[16];
   VkPhysicalDeviceProperties props[16];
   bool pci_bus_info[16];
};

static bool
vk_view_init(struct vk_view *v)
{
   memset(v, 0, sizeof(*v));
   VkApplicationInfo app = {
      .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
      .pApplicationName = "cuvk api.device",
      .apiVersion = VK_API_VERSION_1_2,
   };
   VkInstanceCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
      .pApplicationInfo = &app,
   };
   VkResult vr = vkCreateInstance(&info, NULL, &v->instance);
   if (vr != VK_SUCCESS) {
      api_report(__FILE__, __LINE__, "vkCreateInstance: VkResult %d", (int)vr);
      v->instance = VK_NULL_HANDLE;
      return false;
   }

   v->count = API_ARRAY_SIZE(v->pdevs);
   vr = vkEnumeratePhysicalDevices(v->instance, &v->count, v->pdevs);
   API_CHECK(vr == VK_SUCCESS || vr == VK_INCOMPLETE);

   for (uint32_t i = 0; i < v->count; i++) {
      v->ids[i] = (VkPhysicalDeviceIDProperties){
         .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES,
      };
      VkPhysicalDeviceProperties2 props2 = {
         .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
         .pNext = &v->ids[i],
      };
      vkGetPhysicalDeviceProperties2(v->pdevs[i], &props2);
      v->props[i] = props2.properties;

      uint32_t ext_count = 0;
      vkEnumerateDeviceExtensionProperties(v->pdevs[i], NULL, &ext_count, NULL);
      VkExtensionProperties *exts = api_xmalloc(sizeof(*exts) * (ext_count + 1));
      vkEnumerateDeviceExtensionProperties(v->pdevs[i], NULL, &ext_count, exts);
      for (uint32_t e = 0; e < ext_count; e++)
         if (strcmp(exts[e].extensionName, VK_EXT_PCI_BUS_INFO_EXTENSION_NAME) == 0)
            v->pci_bus_info[i] = true;
      free(exts);
   }
   return true;
}

static void
vk_view_finish(struct vk_view *v)
{
   if (v->instance)
      vkDestroyInstance(v->instance, NULL);
}

/* The Vulkan device whose deviceUUID is the CUDA device's UUID, or -1. */
static int
vk_view_find(const struct vk_view *v, CUdevice dev)
{
   CUuuid uuid;
   int found = -1;

   if (!API_CHECK_CU(cuDeviceGetUuid(&uuid, dev)))
      return -1;
   for (uint32_t i = 0; i < v->count; i++) {
      if (memcmp(uuid.bytes, v->ids[i].deviceUUID, VK_UUID_SIZE) == 0) {
         API_CHECK_MSG(found < 0, "CUDA device %d's UUID matches Vulkan devices %d and %u", dev,
                       found, i);
         if (found < 0)
            found = (int)i;
      }
   }
   return found;
}

static void
device_count(void)
{
   int count = 0;

   API_CHECK_CU(cuDeviceGetCount(&count));
   API_CHECK(count >= 1);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetCount(NULL));

   for (int i = 0; i < count; i++) {
      CUdevice dev = -1;
      API_CHECK_CU(cuDeviceGet(&dev, i));
      API_CHECK(dev == i);
   }
}

static void
device_get_out_of_range(void)
{
   int count = 0;
   CUdevice dev = 12345;

   API_REQUIRE_CU(cuDeviceGetCount(&count));
   API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGet(&dev, count));
   API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGet(&dev, count + 1000));
   API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGet(&dev, -1));
   API_CHECK(dev == 12345);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGet(NULL, 0));

   /* Every call taking a CUdevice checks it. */
   char name[64];
   size_t bytes;
   int value;
   CUuuid uuid;
   API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetName(name, sizeof(name), count));
   API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetUuid(&uuid, count));
   API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceTotalMem(&bytes, -1));
   API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE,
                 cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_WARP_SIZE, count));
   API_CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxRetain(&api_ctx, count));
}

static void
device_name(void)
{
   struct vk_view v;
   char name[256], shorter[4];

   memset(name, 0x7f, sizeof(name));
   API_REQUIRE_CU(cuDeviceGetName(name, sizeof(name), api_dev));
   API_REQUIRE(memchr(name, '\0', sizeof(name)) != NULL);
   API_CHECK(strlen(name) > 0);
   printf("device 0: %s\n", name);

   /* A short buffer gets a terminated prefix. */
   memset(shorter, 0x7f, sizeof(shorter));
   API_CHECK_CU(cuDeviceGetName(shorter, sizeof(shorter), api_dev));
   API_CHECK(memchr(shorter, '\0', sizeof(shorter)) != NULL);
   API_CHECK(strncmp(shorter, name, strlen(shorter)) == 0);

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetName(NULL, 64, api_dev));

   /* The name is the Vulkan device's. */
   if (vk_view_init(&v)) {
      int i = vk_view_find(&v, api_dev);
      API_CHECK(i >= 0);
      if (i >= 0)
         API_CHECK_MSG(strcmp(name, v.props[i].deviceName) == 0, "name \"%s\", Vulkan says \"%s\"",
                       name, v.props[i].deviceName);
      vk_view_finish(&v);
   }
}

/* Interop code pairs its VkPhysicalDevice with a CUDA device by UUID:
 * every CUDA device must match exactly one Vulkan device. */
static void
device_uuid_matches_vulkan(void)
{
   struct vk_view v;
   int count = 0;

   API_REQUIRE_CU(cuDeviceGetCount(&count));
   API_REQUIRE(vk_view_init(&v));
   API_CHECK((uint32_t)count <= v.count);
   for (int d = 0; d < count; d++) {
      CUuuid a, b;
      API_CHECK_CU(cuDeviceGetUuid(&a, d));
      API_CHECK_CU(cuDeviceGetUuid(&b, d));
      API_CHECK(memcmp(a.bytes, b.bytes, sizeof(a.bytes)) == 0);
      int i = vk_view_find(&v, d);
      API_CHECK_MSG(i >= 0, "CUDA device %d's UUID matches no Vulkan device", d);
      for (int e = 0; e < d; e++) {
         CUuuid other;
         API_CHECK_CU(cuDeviceGetUuid(&other, e));
         API_CHECK_MSG(memcmp(a.bytes, other.bytes, sizeof(a.bytes)) != 0,
                       "devices %d and %d share a UUID", d, e);
      }
   }
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetUuid(NULL, 0));
   vk_view_finish(&v);
}

static void
device_total_mem(void)
{
   size_t total = 0, free_bytes = 0, ctx_total = 0;

   API_CHECK_CU(cuDeviceTotalMem(&total, api_dev));
   API_CHECK(total > 0);
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceTotalMem(NULL, api_dev));

   /* cuMemGetInfo's total is the same memory. */
   API_CHECK_CU(cuMemGetInfo(&free_bytes, &ctx_total));
   API_CHECK_MSG(ctx_total == total, "cuMemGetInfo total %zu, cuDeviceTotalMem %zu", ctx_total, total);
   API_CHECK(free_bytes <= ctx_total);
   printf("total %zu MiB, free %zu MiB\n", total >> 20, free_bytes >> 20);
}

static void
device_attributes(void)
{
   static const CUdevice_attribute positive[] = {
      CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z,
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z,
      CU_DEVICE_ATTRIBUTE_WARP_SIZE,
      CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
      CU_DEVICE_ATTRIBUTE_MAX_PITCH,
      CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT,
      CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING,
      CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY,
   };
   int value;

   for (size_t i = 0; i < API_ARRAY_SIZE(positive); i++) {
      value = -1;
      API_CHECK_CU(cuDeviceGetAttribute(&value, positive[i], api_dev));
      API_CHECK_MSG(value > 0, "attribute %d is %d, want > 0", (int)positive[i], value);
   }

   /* Unified addressing is what makes pinned pointers valid device
    * pointers; cuvk promises it. */
   API_CHECK_CU(cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, api_dev));
   API_CHECK(value == 1);

   /* CUDA's grid limits on every device: launches split larger grids
    * than the Vulkan device dispatches at once (kernel.saxpy.big_grid). */
   API_CHECK_CU(cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, api_dev));
   API_CHECK_MSG(value == 2147483647, "MAX_GRID_DIM_X is %d", value);
   API_CHECK_CU(cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, api_dev));
   API_CHECK_MSG(value == 65535, "MAX_GRID_DIM_Y is %d", value);

   int threads = 0, dim_x = 0;
   API_CHECK_CU(cuDeviceGetAttribute(&threads, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, api_dev));
   API_CHECK_CU(cuDeviceGetAttribute(&dim_x, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, api_dev));
   API_CHECK(dim_x <= threads);

   /* Every attribute the header names answers; the value need not be
    * meaningful on Vulkan but must be there. */
   for (int a = 1; a < CU_DEVICE_ATTRIBUTE_MAX; a++) {
      value = 0x5a5a5a5a;
      API_CHECK_MSG(cuDeviceGetAttribute(&value, (CUdevice_attribute)a, api_dev) == CUDA_SUCCESS,
                    "attribute %d is not answered", a);
   }

   const int unknown[] = { 0, -1, CU_DEVICE_ATTRIBUTE_MAX, 100000 };
   for (size_t i = 0; i < API_ARRAY_SIZE(unknown); i++) {
      value = 0x5a5a5a5a;
      API_CHECK_RES(CUDA_ERROR_INVALID_VALUE,
                    cuDeviceGetAttribute(&value, (CUdevice_attribute)unknown[i], api_dev));
   }
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE,
                 cuDeviceGetAttribute(NULL, CU_DEVICE_ATTRIBUTE_WARP_SIZE, api_dev));
}

/* A string when the Vulkan device reports its PCI address, else
 * CUDA_ERROR_NOT_SUPPORTED (lavapipe has no VK_EXT_pci_bus_info). */
static void
device_pci_bus_id(void)
{
   struct vk_view v;
   char id[64];

   API_REQUIRE(vk_view_init(&v));
   int i = vk_view_find(&v, api_dev);
   API_REQUIRE(i >= 0);

   memset(id, 0, sizeof(id));
   CUresult res = cuDeviceGetPCIBusId(id, sizeof(id), api_dev);
   if (!v.pci_bus_info[i]) {
      API_CHECK_RES(CUDA_ERROR_NOT_SUPPORTED, res);
      printf("no %s: NOT_SUPPORTED, as expected\n", VK_EXT_PCI_BUS_INFO_EXTENSION_NAME);
   } else if (API_CHECK_CU(res)) {
      unsigned domain, bus, slot, function;
      printf("PCI bus id %s\n", id);
      API_CHECK_MSG(sscanf(id, "%x:%x:%x.%x", &domain, &bus, &slot, &function) == 4,
                    "\"%s\" is not domain:bus:device.function", id);
      for (const char *c = id; *c; c++)
         API_CHECK_MSG(!islower((unsigned char)*c), "\"%s\" is not upper case, as CUDA's", id);

      /* It names this device back. */
      CUdevice back = -1;
      API_CHECK_CU(cuDeviceGetByPCIBusId(&back, id));
      API_CHECK(back == api_dev);

      /* A short buffer still gets a terminated string. */
      char shorter[6];
      memset(shorter, 0x7f, sizeof(shorter));
      API_CHECK_CU(cuDeviceGetPCIBusId(shorter, sizeof(shorter), api_dev));
      API_CHECK(memchr(shorter, '\0', sizeof(shorter)) != NULL);
   }
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetPCIBusId(NULL, 64, api_dev));

   CUdevice dev = 77;
   API_CHECK(cuDeviceGetByPCIBusId(&dev, "not a bus id") != CUDA_SUCCESS);
   API_CHECK(dev == 77);
   vk_view_finish(&v);
}

static const struct api_case cases[] = {
   API_CASE_BARE("api.device.count", device_count),
   API_CASE_BARE("api.device.get_out_of_range", device_get_out_of_range),
   API_CASE_BARE("api.device.name", device_name),
   API_CASE_BARE("api.device.uuid_matches_vulkan", device_uuid_matches_vulkan),
   API_CASE("api.device.total_mem", device_total_mem),
   API_CASE_BARE("api.device.attributes", device_attributes),
   API_CASE_BARE("api.device.pci_bus_id", device_pci_bus_id),
};

API_MAIN(cases)
