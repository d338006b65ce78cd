/*
 * Helpers shared by cuvk-info and cuvk-bench: a streaming JSON writer, a
 * Vulkan instance with a messenger that counts validation messages, and
 * small formatting functions.
 */
#ifndef CUVK_TOOLS_TOOL_UTIL_H
#define CUVK_TOOLS_TOOL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <vulkan/vulkan.h>

#define TOOL_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define TOOL_MIN(a, b) ((a) < (b) ? (a) : (b))
#define TOOL_MAX(a, b) ((a) > (b) ? (a) : (b))

#define TOOL_KIB ((uint64_t)1 << 10)
#define TOOL_MIB ((uint64_t)1 << 20)
#define TOOL_GIB ((uint64_t)1 << 30)

/*
 * JSON writer.  Objects and arrays nest up to TOOL_JSON_MAX_DEPTH; inside
 * an object every value takes a key, inside an array the key is NULL.
 * Output is indented two spaces a level, strings are escaped, and doubles
 * that are not finite are written as null (JSON has no NaN).
 */
#define TOOL_JSON_MAX_DEPTH 16

struct tool_json {
   FILE *f;
   int depth;
   bool has_items[TOOL_JSON_MAX_DEPTH];
};

void tool_json_init(struct tool_json *j, FILE *f);
void tool_json_object_begin(struct tool_json *j, const char *key);
void tool_json_object_end(struct tool_json *j);
void tool_json_array_begin(struct tool_json *j, const char *key);
void tool_json_array_end(struct tool_json *j);
void tool_json_string(struct tool_json *j, const char *key, const char *value);
void tool_json_int(struct tool_json *j, const char *key, int64_t value);
void tool_json_uint(struct tool_json *j, const char *key, uint64_t value);
void tool_json_double(struct tool_json *j, const char *key, double value);
void tool_json_bool(struct tool_json *j, const char *key, bool value);
void tool_json_null(struct tool_json *j, const char *key);

/*
 * A Vulkan instance for a tool: the highest of 1.3 and 1.2 the loader
 * offers, VK_EXT_debug_utils where present, with a messenger that prints
 * every warning and error and counts them.  Layers come from the
 * environment (VK_INSTANCE_LAYERS), as they do for cuvk's own instance,
 * so a run under the validation layer checks the tool's calls too.
 */
struct tool_vk_instance {
   VkInstance instance;
   VkDebugUtilsMessengerEXT messenger;
   uint32_t api_version;
   uint32_t loader_version;
};

VkResult tool_vk_instance_create(struct tool_vk_instance *vi, const char *app_name);
void tool_vk_instance_destroy(struct tool_vk_instance *vi);

/* Validation and loader warnings and errors seen so far, the loader's
 * note that VK_INSTANCE_LAYERS added layers excepted. */
unsigned tool_vk_message_count(void);

/* Drops the count: for the loader's errors of a vkCreateInstance that
 * found no driver, which a tool reports as "no device" instead. */
void tool_vk_forget_messages(void);

bool tool_vk_has_extension(const VkExtensionProperties *exts, uint32_t count, const char *name);

/* The device's extensions in a calloc'd array (free it); NULL on failure. */
VkExtensionProperties *tool_vk_device_extensions(VkPhysicalDevice pdev, uint32_t *count);

const char *tool_vk_result_name(VkResult r);
const char *tool_vk_device_type_name(VkPhysicalDeviceType type);

/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" into out (37 bytes). */
void tool_format_uuid(const uint8_t uuid[16], char out[37]);

/* "4 B", "64 KiB", "1.50 GiB": exact binary units where the size is a
 * whole number of them, two decimals otherwise. */
void tool_format_size(uint64_t bytes, char *out, size_t len);

/* Parses "4096", "64K", "64KiB", "256M", "1G" (binary units); false on
 * anything else. */
bool tool_parse_size(const char *text, uint64_t *out);

#endif
