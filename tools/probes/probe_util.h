/*
 * What the raw-Vulkan probes share: the first physical device with its
 * memory types, a clock, the compute family, and buffers in a memory type
 * of given properties.  A probe stops at the first Vulkan error.
 */
#ifndef CUVK_PROBE_UTIL_H
#define CUVK_PROBE_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <vulkan/vulkan.h>

#define PROBE_CK(x)                                                            \
   do {                                                                        \
      VkResult r_ = (x);                                                       \
      if (r_) {                                                                \
         printf("%s: %d\n", #x, r_);                                           \
         exit(1);                                                              \
      }                                                                        \
   } while (0)

struct probe {
   VkInstance instance;
   VkPhysicalDevice pdev;
   VkPhysicalDeviceMemoryProperties mem;
};

/* A Vulkan 1.2 instance and its first physical device. */
static inline void
probe_init(struct probe *p)
{
   VkApplicationInfo app = { VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "probe", 1, "probe", 1, VK_API_VERSION_1_2 };
   VkInstanceCreateInfo ici = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app };
   PROBE_CK(vkCreateInstance(&ici, NULL, &p->instance));
   uint32_t n = 1;
   vkEnumeratePhysicalDevices(p->instance, &n, &p->pdev);
   vkGetPhysicalDeviceMemoryProperties(p->pdev, &p->mem);
}

static inline double
probe_now_us(void)
{
   struct timespec t;
   clock_gettime(CLOCK_MONOTONIC, &t);
   return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

/* The first family with all of want and none of avoid (0 if none), and
 * how many queues it has. */
static inline uint32_t
probe_family(const struct probe *p, VkQueueFlags want, VkQueueFlags avoid, uint32_t *queue_count)
{
   VkQueueFamilyProperties qf[16];
   uint32_t count = 16;
   vkGetPhysicalDeviceQueueFamilyProperties(p->pdev, &count, qf);
   for (uint32_t i = 0; i < count; i++) {
      if ((qf[i].queueFlags & want) == want && !(qf[i].queueFlags & avoid)) {
         *queue_count = qf[i].queueCount;
         return i;
      }
   }
   *queue_count = 1;
   return 0;
}

/* A memory type of bits with all of want and none of avoid; else one with
 * want alone; else 0. */
static inline uint32_t
probe_memory_type(const struct probe *p, uint32_t bits, VkMemoryPropertyFlags want, VkMemoryPropertyFlags avoid)
{
   const VkPhysicalDeviceMemoryProperties *m = &p->mem;
   for (uint32_t i = 0; i < m->memoryTypeCount; i++)
      if ((bits & (1u << i)) && (m->memoryTypes[i].propertyFlags & want) == want &&
          !(m->memoryTypes[i].propertyFlags & avoid))
         return i;
   for (uint32_t i = 0; i < m->memoryTypeCount; i++)
      if ((bits & (1u << i)) && (m->memoryTypes[i].propertyFlags & want) == want)
         return i;
   return 0;
}

/* A compute pipeline of code (code_size bytes of SPIR-V) whose one set
 * holds two storage buffers, bindings 0 and 1, with push_size bytes of
 * push constants (0: none). */
static inline void
probe_pipeline(VkDevice d, const uint32_t *code, size_t code_size, uint32_t push_size,
               VkDescriptorSetLayout *dsl, VkPipelineLayout *pl, VkPipeline *pipe)
{
   VkShaderModuleCreateInfo smi = { VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0, code_size, code };
   VkShaderModule sm;
   PROBE_CK(vkCreateShaderModule(d, &smi, NULL, &sm));
   VkDescriptorSetLayoutBinding binds[2] = {
      { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
      { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
   };
   VkDescriptorSetLayoutCreateInfo dli = { VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, NULL, 0, 2, binds };
   PROBE_CK(vkCreateDescriptorSetLayout(d, &dli, NULL, dsl));
   VkPushConstantRange pcr = { VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size };
   VkPipelineLayoutCreateInfo pli = { VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0, 1, dsl,
                                      push_size ? 1 : 0, push_size ? &pcr : NULL };
   PROBE_CK(vkCreatePipelineLayout(d, &pli, NULL, pl));
   VkComputePipelineCreateInfo cpi = { VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, NULL, 0,
                                       { VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0,
                                         VK_SHADER_STAGE_COMPUTE_BIT, sm, "main", NULL },
                                       *pl, VK_NULL_HANDLE, 0 };
   PROBE_CK(vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &cpi, NULL, pipe));
   vkDestroyShaderModule(d, sm, NULL);
}

/* A buffer of usage bound to memory of its own (probe_memory_type). */
static inline void
probe_buffer(const struct probe *p, VkDevice d, VkDeviceSize size, VkBufferUsageFlags usage,
             VkMemoryPropertyFlags want, VkMemoryPropertyFlags avoid, VkBuffer *b, VkDeviceMemory *m)
{
   VkBufferCreateInfo bi = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage };
   PROBE_CK(vkCreateBuffer(d, &bi, NULL, b));
   VkMemoryRequirements r;
   vkGetBufferMemoryRequirements(d, *b, &r);
   VkMemoryAllocateInfo ai = { VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, r.size,
                               probe_memory_type(p, r.memoryTypeBits, want, avoid) };
   PROBE_CK(vkAllocateMemory(d, &ai, NULL, m));
   PROBE_CK(vkBindBufferMemory(d, *b, *m, 0));
}

#endif
