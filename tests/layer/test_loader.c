/*
 * layer.loader.negotiate_and_enumerate: the Vulkan loader finds
 * VK_LAYER_CUVK_interop through the build tree's manifest, loads the real
 * libcuvk.so by the manifest's "functions" name, and builds instance and
 * device through it and the validation layer; the layer's own entry points
 * answer as the loader interface requires.
 *
 * CUVK_TEST_LIBRARY (set by meson) is the built libcuvk.so; this program
 * does not link it, so finding it loaded proves the loader opened it.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vulkan/vk_layer.h>

#include "fd_util.h"
#include "vk_harness.h"

#define LAYER_NAME "VK_LAYER_CUVK_interop"
#define OTHER_NAME "VK_LAYER_CUVK_no_such_layer"

static bool
has_layer(const VkLayerProperties *props, uint32_t count, const char *name)
{
   for (uint32_t i = 0; i < count; i++) {
      if (strcmp(props[i].layerName, name) == 0)
         return true;
   }
   return false;
}

/* The queries the application makes; the loader answers them from the
 * manifest. */
static void
check_loader_enumeration(void)
{
   uint32_t count = 0;
   VKH_CHECK_VK(vkEnumerateInstanceLayerProperties(&count, NULL));
   VkLayerProperties *props = calloc(count ? count : 1, sizeof(*props));
   VKH_CHECK_VK(vkEnumerateInstanceLayerProperties(&count, props));
   VKH_CHECK(has_layer(props, count, LAYER_NAME));
   for (uint32_t i = 0; i < count; i++) {
      if (strcmp(props[i].layerName, LAYER_NAME) == 0)
         VKH_CHECK(props[i].implementationVersion == 1);
   }
   free(props);

   count = 99;
   VKH_CHECK(vkEnumerateInstanceExtensionProperties(LAYER_NAME, &count, NULL) == VK_SUCCESS);
   VKH_CHECK(count == 0);
   VKH_CHECK(vkEnumerateInstanceExtensionProperties(OTHER_NAME, &count, NULL) ==
             VK_ERROR_LAYER_NOT_PRESENT);
}

static void
check_device_enumeration(struct vkh *h)
{
   uint32_t count = 0;
   VKH_CHECK_VK(vkEnumerateDeviceLayerProperties(h->physical_device, &count, NULL));
   VkLayerProperties *props = calloc(count ? count : 1, sizeof(*props));
   VKH_CHECK_VK(vkEnumerateDeviceLayerProperties(h->physical_device, &count, props));
   VKH_CHECK(has_layer(props, count, LAYER_NAME));
   free(props);

   /* The layer's own: the external-semaphore extensions it provides
    * where the driver lacks them (docs/layer.md), from the manifest. */
   VkExtensionProperties own[4];
   count = 4;
   VKH_CHECK(vkEnumerateDeviceExtensionProperties(h->physical_device, LAYER_NAME, &count, own) ==
             VK_SUCCESS);
   VKH_CHECK(count == 2);
   VKH_CHECK(count >= 1 && strcmp(own[0].extensionName, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME) == 0);
   /* A device query for another layer's name never reaches a layer: the
    * Vulkan loader answers it from the manifests (1.3.239: VK_SUCCESS and
    * no extensions for an unknown name), so it is not checked here. */

   /* With no layer name the query reaches the driver through the layer. */
   count = 0;
   VKH_CHECK_VK(vkEnumerateDeviceExtensionProperties(h->physical_device, NULL, &count, NULL));
   VKH_CHECK(count > 0);
}

/* The layer is in the device's chain: an export leaves the registry's dup
 * of the fd open until the memory is freed. */
static void
check_layer_records(struct vkh *h)
{
   int type = vkh_find_memory_type(h, ~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
   VKH_CHECK(type >= 0);

   VkDeviceMemory memory;
   VKH_CHECK_VK(vkh_allocate(h, 65536, (uint32_t)type, VKH_OPAQUE_FD, VK_NULL_HANDLE,
                             VK_NULL_HANDLE, &memory));
   int before[FD_UTIL_MAX], kept = -1;
   int n_before = fd_util_list(before, FD_UTIL_MAX);
   int fd = vkh_get_memory_fd(h, memory, VKH_OPAQUE_FD);
   VKH_CHECK(fd >= 0);
   VKH_CHECK(fd_util_new_same_file(fd, before, n_before, &kept, 1) == 1);
   vkFreeMemory(h->device, memory, NULL);
   VKH_CHECK(kept >= 0 && !fd_util_is_open(kept));
   close(fd);
}

/* The exported negotiate function and what it hands out, called directly
 * as the loader does. */
static void
check_direct_interface(void *lib, struct vkh *h)
{
   PFN_vkNegotiateLoaderLayerInterfaceVersion negotiate = (PFN_vkNegotiateLoaderLayerInterfaceVersion)
      dlsym(lib, "cuvk_layer_NegotiateLoaderLayerInterfaceVersion");
   VKH_CHECK(negotiate != NULL);
   if (!negotiate)
      return;

   /* The symbol is the library's own, not found through a dependency... */
   Dl_info info;
   VKH_CHECK(dladdr((void *)negotiate, &info) && strstr(info.dli_fname, "libcuvk.so"));
   /* ...and the only one of the layer and the registry it exports. */
   VKH_CHECK(dlsym(lib, "layer_GetInstanceProcAddr") == NULL);
   VKH_CHECK(dlsym(lib, "layer_device_get") == NULL);
   VKH_CHECK(dlsym(lib, "cuvk_mem_registry_lookup_fd") == NULL);
   VKH_CHECK(dlsym(lib, "vkNegotiateLoaderLayerInterfaceVersion") == NULL);

   VkNegotiateLayerInterface ni = {
      .sType = LAYER_NEGOTIATE_INTERFACE_STRUCT,
      .loaderLayerInterfaceVersion = 1,
   };
   VKH_CHECK(negotiate(&ni) == VK_ERROR_INITIALIZATION_FAILED);
   ni.sType = LAYER_NEGOTIATE_UNINTIALIZED;
   ni.loaderLayerInterfaceVersion = 2;
   VKH_CHECK(negotiate(&ni) == VK_ERROR_INITIALIZATION_FAILED);

   ni.sType = LAYER_NEGOTIATE_INTERFACE_STRUCT;
   ni.loaderLayerInterfaceVersion = 7;
   VKH_CHECK(negotiate(&ni) == VK_SUCCESS);
   VKH_CHECK(ni.loaderLayerInterfaceVersion == 2);
   VKH_CHECK(ni.pfnGetInstanceProcAddr && ni.pfnGetDeviceProcAddr);
   VKH_CHECK(ni.pfnGetPhysicalDeviceProcAddr == NULL);
   if (!ni.pfnGetInstanceProcAddr || !ni.pfnGetDeviceProcAddr)
      return;

   PFN_vkGetInstanceProcAddr gipa = ni.pfnGetInstanceProcAddr;
   PFN_vkGetDeviceProcAddr gdpa = ni.pfnGetDeviceProcAddr;

   /* Global commands. */
   VKH_CHECK(gipa(NULL, "vkGetInstanceProcAddr") == (PFN_vkVoidFunction)gipa);
   VKH_CHECK(gipa(NULL, "vkCreateInstance") != NULL);
   VKH_CHECK(gipa(NULL, "vkCreateDevice") == NULL);
   VKH_CHECK(gipa(NULL, "vkNoSuchFunction") == NULL);

   PFN_vkEnumerateInstanceExtensionProperties enum_ext = (PFN_vkEnumerateInstanceExtensionProperties)
      gipa(NULL, "vkEnumerateInstanceExtensionProperties");
   PFN_vkEnumerateInstanceLayerProperties enum_layers = (PFN_vkEnumerateInstanceLayerProperties)
      gipa(NULL, "vkEnumerateInstanceLayerProperties");
   VKH_CHECK(enum_ext && enum_layers);
   if (enum_ext && enum_layers) {
      uint32_t count = 99;
      VKH_CHECK(enum_ext(LAYER_NAME, &count, NULL) == VK_SUCCESS && count == 0);
      VKH_CHECK(enum_ext(OTHER_NAME, &count, NULL) == VK_ERROR_LAYER_NOT_PRESENT);
      VKH_CHECK(enum_ext("VK_LAYER_KHRONOS_validation", &count, NULL) == VK_ERROR_LAYER_NOT_PRESENT);
      VKH_CHECK(enum_ext(NULL, &count, NULL) == VK_ERROR_LAYER_NOT_PRESENT);

      VkLayerProperties props[2];
      count = 0;
      VKH_CHECK(enum_layers(&count, NULL) == VK_SUCCESS && count == 1);
      count = 0;
      VKH_CHECK(enum_layers(&count, props) == VK_INCOMPLETE);
      count = 2;
      VKH_CHECK(enum_layers(&count, props) == VK_SUCCESS && count == 1);
      VKH_CHECK(strcmp(props[0].layerName, LAYER_NAME) == 0);
   }

   /* Instance commands of an instance the layer created (the loader hands
    * every layer the same dispatchable handles). */
   VKH_CHECK(gipa(h->instance, "vkDestroyInstance") != NULL);
   VKH_CHECK(gipa(h->instance, "vkCreateDevice") != NULL);
   VKH_CHECK(gipa(h->instance, "vkGetDeviceProcAddr") == (PFN_vkVoidFunction)gdpa);
   VKH_CHECK(gipa(h->instance, "vkGetPhysicalDeviceProperties") != NULL);
   VKH_CHECK(gipa(h->instance, "vkNoSuchFunction") == NULL);

   PFN_vkEnumerateDeviceExtensionProperties enum_dev_ext = (PFN_vkEnumerateDeviceExtensionProperties)
      gipa(h->instance, "vkEnumerateDeviceExtensionProperties");
   VKH_CHECK(enum_dev_ext != NULL);
   if (enum_dev_ext) {
      /* Only the layer's own name: any other is passed down the chain,
       * which expects the loader's internal physical-device handle, not the
       * application's that this test holds. */
      uint32_t count = 99;
      VKH_CHECK(enum_dev_ext(h->physical_device, LAYER_NAME, &count, NULL) == VK_SUCCESS &&
                count == 2);
      VkExtensionProperties one;
      count = 1;
      VKH_CHECK(enum_dev_ext(h->physical_device, LAYER_NAME, &count, &one) == VK_INCOMPLETE &&
                count == 1);
   }

   /* Device commands: intercepted where enabled, NULL where not. */
   VKH_CHECK(gdpa(h->device, "vkGetDeviceProcAddr") == (PFN_vkVoidFunction)gdpa);
   VKH_CHECK(gdpa(h->device, "vkDestroyDevice") != NULL);
   VKH_CHECK(gdpa(h->device, "vkAllocateMemory") != NULL);
   VKH_CHECK(gdpa(h->device, "vkGetMemoryFdKHR") != NULL);
   VKH_CHECK(gdpa(h->device, "vkCmdDispatch") != NULL);
   VKH_CHECK(gdpa(h->device, "vkGetImageDrmFormatModifierPropertiesEXT") == NULL);
   VKH_CHECK(gdpa(h->device, "vkGetMemoryHostPointerPropertiesEXT") == NULL);
   VKH_CHECK(gdpa(h->device, "vkNoSuchFunction") == NULL);
}

int
main(void)
{
   const char *path = getenv("CUVK_TEST_LIBRARY");
   if (!path) {
      fprintf(stderr, "CUVK_TEST_LIBRARY is not set\n");
      return VKH_EXIT_FAIL;
   }
   VKH_CHECK(dlopen(path, RTLD_NOW | RTLD_NOLOAD) == NULL);

   check_loader_enumeration();

   struct vkh h;
   if (!vkh_init(&h, "layer.loader.negotiate_and_enumerate", NULL))
      return VKH_EXIT_FAIL;

   /* The loader opened libcuvk.so and found its negotiate function by the
    * manifest's name: without it the layer would not be in the chain. */
   void *lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
   VKH_CHECK(lib != NULL);

   check_device_enumeration(&h);
   check_layer_records(&h);
   if (lib) {
      check_direct_interface(lib, &h);
      dlclose(lib);
   }
   return vkh_exit(vkh_finish(&h));
}
