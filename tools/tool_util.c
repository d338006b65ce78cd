#include "tool_util.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- JSON ---- */

void
tool_json_init(struct tool_json *j, FILE *f)
{
   memset(j, 0, sizeof(*j));
   j->f = f;
}

static void
json_escaped(FILE *f, const char *s)
{
   fputc('"', f);
   for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
      switch (*p) {
      case '"': fputs("\\\"", f); break;
      case '\\': fputs("\\\\", f); break;
      case '\n': fputs("\\n", f); break;
      case '\r': fputs("\\r", f); break;
      case '\t': fputs("\\t", f); break;
      default:
         if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
         else
            fputc(*p, f);
      }
   }
   fputc('"', f);
}

/* Separator, newline and indent before an item, then its key. */
static void
json_item(struct tool_json *j, const char *key)
{
   if (j->depth > 0) {
      if (j->has_items[j->depth - 1])
         fputc(',', j->f);
      j->has_items[j->depth - 1] = true;
      fputc('\n', j->f);
      for (int i = 0; i < j->depth; i++)
         fputs("  ", j->f);
   }
   if (key) {
      json_escaped(j->f, key);
      fputs(": ", j->f);
   }
}

static void
json_open(struct tool_json *j, const char *key, char c)
{
   json_item(j, key);
   fputc(c, j->f);
   if (j->depth < TOOL_JSON_MAX_DEPTH)
      j->has_items[j->depth] = false;
   j->depth++;
}

static void
json_close(struct tool_json *j, char c)
{
   j->depth--;
   if (j->has_items[j->depth]) {
      fputc('\n', j->f);
      for (int i = 0; i < j->depth; i++)
         fputs("  ", j->f);
   }
   fputc(c, j->f);
   if (j->depth == 0)
      fputc('\n', j->f);
}

void
tool_json_object_begin(struct tool_json *j, const char *key)
{
   json_open(j, key, '{');
}

void
tool_json_object_end(struct tool_json *j)
{
   json_close(j, '}');
}

void
tool_json_array_begin(struct tool_json *j, const char *key)
{
   json_open(j, key, '[');
}

void
tool_json_array_end(struct tool_json *j)
{
   json_close(j, ']');
}

void
tool_json_string(struct tool_json *j, const char *key, const char *value)
{
   json_item(j, key);
   if (value)
      json_escaped(j->f, value);
   else
      fputs("null", j->f);
}

void
tool_json_int(struct tool_json *j, const char *key, int64_t value)
{
   json_item(j, key);
   fprintf(j->f, "%" PRId64, value);
}

void
tool_json_uint(struct tool_json *j, const char *key, uint64_t value)
{
   json_item(j, key);
   fprintf(j->f, "%" PRIu64, value);
}

void
tool_json_double(struct tool_json *j, const char *key, double value)
{
   json_item(j, key);
   if (isfinite(value))
      fprintf(j->f, "%.6g", value);
   else
      fputs("null", j->f);
}

void
tool_json_bool(struct tool_json *j, const char *key, bool value)
{
   json_item(j, key);
   fputs(value ? "true" : "false", j->f);
}

void
tool_json_null(struct tool_json *j, const char *key)
{
   json_item(j, key);
   fputs("null", j->f);
}

/* ---- Vulkan ---- */

static unsigned tool_vk_messages;

unsigned
tool_vk_message_count(void)
{
   return __atomic_load_n(&tool_vk_messages, __ATOMIC_RELAXED);
}

void
tool_vk_forget_messages(void)
{
   __atomic_store_n(&tool_vk_messages, 0, __ATOMIC_RELAXED);
}

static VKAPI_ATTR VkBool32 VKAPI_CALL
tool_vk_messenger_cb(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                     VkDebugUtilsMessageTypeFlagsEXT types,
                     const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
   const char *id = data->pMessageIdName ? data->pMessageIdName : "-";
   const char *msg = data->pMessage ? data->pMessage : "";

   /* The loader warns whenever VK_INSTANCE_LAYERS adds layers, which is
    * how the tools are meant to be run under validation. */
   if (severity == VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT &&
       types == VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT &&
       strcmp(id, "Loader Message") == 0 && strncmp(msg, "env var '", 9) == 0)
      return VK_FALSE;

   __atomic_add_fetch(&tool_vk_messages, 1, __ATOMIC_RELAXED);
   fprintf(stderr, "%s: Vulkan %s: [%s] %s\n", (const char *)user,
           severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning", id, msg);
   return VK_FALSE;
}

bool
tool_vk_has_extension(const VkExtensionProperties *exts, uint32_t count, const char *name)
{
   for (uint32_t i = 0; i < count; i++)
      if (strcmp(exts[i].extensionName, name) == 0)
         return true;
   return false;
}

VkExtensionProperties *
tool_vk_device_extensions(VkPhysicalDevice pdev, uint32_t *count)
{
   VkExtensionProperties *exts;

   *count = 0;
   if (vkEnumerateDeviceExtensionProperties(pdev, NULL, count, NULL) != VK_SUCCESS)
      return NULL;
   exts = calloc(*count ? *count : 1, sizeof(*exts));
   if (!exts)
      return NULL;
   if (vkEnumerateDeviceExtensionProperties(pdev, NULL, count, exts) != VK_SUCCESS) {
      free(exts);
      return NULL;
   }
   return exts;
}

static bool
instance_has_extension(const char *name)
{
   VkExtensionProperties *exts;
   uint32_t count = 0;
   bool found;

   if (vkEnumerateInstanceExtensionProperties(NULL, &count, NULL) != VK_SUCCESS || !count)
      return false;
   exts = calloc(count, sizeof(*exts));
   if (!exts)
      return false;
   found = vkEnumerateInstanceExtensionProperties(NULL, &count, exts) == VK_SUCCESS &&
           tool_vk_has_extension(exts, count, name);
   free(exts);
   return found;
}

VkResult
tool_vk_instance_create(struct tool_vk_instance *vi, const char *app_name)
{
   const char *extensions[1];
   uint32_t extension_count = 0;
   VkResult vr;

   memset(vi, 0, sizeof(*vi));
   vi->loader_version = VK_API_VERSION_1_0;
   vkEnumerateInstanceVersion(&vi->loader_version);
   vi->api_version = vi->loader_version >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;

   bool debug_utils = instance_has_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
   if (debug_utils)
      extensions[extension_count++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;

   /* Chained into the create info as well, so messages from
    * vkCreateInstance itself are seen. */
   VkDebugUtilsMessengerCreateInfoEXT messenger_info = {
      .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
      .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
      .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
      .pfnUserCallback = tool_vk_messenger_cb,
      .pUserData = (void *)app_name,
   };
   VkApplicationInfo app = {
      .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
      .pApplicationName = app_name,
      .pEngineName = "cuvk",
      .apiVersion = vi->api_version,
   };
   VkInstanceCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
      .pNext = debug_utils ? &messenger_info : NULL,
      .pApplicationInfo = &app,
      .enabledExtensionCount = extension_count,
      .ppEnabledExtensionNames = extensions,
   };
   vr = vkCreateInstance(&info, NULL, &vi->instance);
   if (vr != VK_SUCCESS)
      return vr;

   if (debug_utils) {
      PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)
         vkGetInstanceProcAddr(vi->instance, "vkCreateDebugUtilsMessengerEXT");
      if (create)
         create(vi->instance, &messenger_info, NULL, &vi->messenger);
   }
   return VK_SUCCESS;
}

void
tool_vk_instance_destroy(struct tool_vk_instance *vi)
{
   if (!vi->instance)
      return;
   if (vi->messenger) {
      PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)
         vkGetInstanceProcAddr(vi->instance, "vkDestroyDebugUtilsMessengerEXT");
      if (destroy)
         destroy(vi->instance, vi->messenger, NULL);
   }
   vkDestroyInstance(vi->instance, NULL);
   memset(vi, 0, sizeof(*vi));
}

const char *
tool_vk_result_name(VkResult r)
{
   switch (r) {
#define RESULT(x) case x: return #x
   RESULT(VK_SUCCESS);
   RESULT(VK_NOT_READY);
   RESULT(VK_TIMEOUT);
   RESULT(VK_INCOMPLETE);
   RESULT(VK_ERROR_OUT_OF_HOST_MEMORY);
   RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY);
   RESULT(VK_ERROR_INITIALIZATION_FAILED);
   RESULT(VK_ERROR_DEVICE_LOST);
   RESULT(VK_ERROR_MEMORY_MAP_FAILED);
   RESULT(VK_ERROR_LAYER_NOT_PRESENT);
   RESULT(VK_ERROR_EXTENSION_NOT_PRESENT);
   RESULT(VK_ERROR_FEATURE_NOT_PRESENT);
   RESULT(VK_ERROR_INCOMPATIBLE_DRIVER);
   RESULT(VK_ERROR_TOO_MANY_OBJECTS);
   RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED);
   RESULT(VK_ERROR_OUT_OF_POOL_MEMORY);
   RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE);
#undef RESULT
   default: return "VkResult(?)";
   }
}

const char *
tool_vk_device_type_name(VkPhysicalDeviceType type)
{
   switch (type) {
   case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
   case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
   case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
   case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
   default: return "other";
   }
}

/* ---- Formatting ---- */

void
tool_format_uuid(const uint8_t uuid[16], char out[37])
{
   char *p = out;
   for (int i = 0; i < 16; i++) {
      if (i == 4 || i == 6 || i == 8 || i == 10)
         *p++ = '-';
      p += sprintf(p, "%02x", uuid[i]);
   }
   *p = '\0';
}

void
tool_format_size(uint64_t bytes, char *out, size_t len)
{
   static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
   unsigned u = 0;
   double v = (double)bytes;

   while (u + 1 < TOOL_ARRAY_SIZE(units) && v >= 1024.0) {
      v /= 1024.0;
      u++;
   }
   if (v == (double)(uint64_t)v)
      snprintf(out, len, "%" PRIu64 " %s", (uint64_t)v, units[u]);
   else
      snprintf(out, len, "%.2f %s", v, units[u]);
}

bool
tool_parse_size(const char *text, uint64_t *out)
{
   char *end;
   unsigned shift = 0;

   if (!text || !isdigit((unsigned char)*text))
      return false;
   errno = 0;
   unsigned long long v = strtoull(text, &end, 10);
   if (errno == ERANGE)
      return false;
   switch (toupper((unsigned char)*end)) {
   case 'K': shift = 10; end++; break;
   case 'M': shift = 20; end++; break;
   case 'G': shift = 30; end++; break;
   default: break;
   }
   /* "64K", "64KB", "64KiB", "4096", "4096B" */
   if (shift && strcmp(end, "iB") == 0)
      end += 2;
   else if (toupper((unsigned char)*end) == 'B')
      end++;
   if (*end)
      return false;
   if (v > (UINT64_MAX >> shift))
      return false;
   *out = (uint64_t)v << shift;
   return true;
}
