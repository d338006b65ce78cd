/*
 * The library the test manifest names for layer.record.*: the loader can
 * only dlopen a shared object, not the test executable that holds the
 * layer (a PIE cannot be dlopen'ed), so this shim forwards negotiation to
 * the executable's copy of the layer, which the executable exports
 * (export_dynamic).  Everything after negotiation calls straight into the
 * executable.
 */
#include <dlfcn.h>
#include <stdio.h>

#include <vulkan/vulkan.h>
#include <vulkan/vk_layer.h>

__attribute__((visibility("default"))) VKAPI_ATTR VkResult VKAPI_CALL
cuvk_layer_test_shim_NegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *p);

VKAPI_ATTR VkResult VKAPI_CALL
cuvk_layer_test_shim_NegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *p)
{
   PFN_vkNegotiateLoaderLayerInterfaceVersion negotiate = (PFN_vkNegotiateLoaderLayerInterfaceVersion)
      dlsym(RTLD_DEFAULT, "cuvk_layer_NegotiateLoaderLayerInterfaceVersion");

   if (!negotiate) {
      fprintf(stderr, "layer test shim: this executable does not export "
              "cuvk_layer_NegotiateLoaderLayerInterfaceVersion (link it with export_dynamic)\n");
      return VK_ERROR_INITIALIZATION_FAILED;
   }
   return negotiate(p);
}
