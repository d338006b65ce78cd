/*
 * compiler.alu.run: the lowered instructions run on the Vulkan device
 * (lavapipe in CI), every result compared with the host references of
 * alu_ref.h.  Each case is one PTX instruction (or a short chain) over
 * registers that the test emitter loads from and stores to a storage
 * buffer (alu_emitter.c, ALU_EMIT_IO), one invocation per input: edge
 * values (zeros, ones, extremes, NaN, infinities, subnormals, ties) and
 * seeded random ones.
 *
 * Exact: integer and bit instructions, comparisons, conversions and the
 * correctly rounded float instructions (.rn .rz .rm .rp arithmetic,
 * div, sqrt, rcp).  Within a bound: the .approx functions, each bound
 * written next to its check with its source.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alu_emitter.h"
#include "alu_ref.h"
#include "compiler/ptx.h"
#include "compiler_test.h"
#include "vk_harness.h"

#define HEADER ".version 8.0\n.target sm_90\n.address_size 64\n"
#define REGS                                                                   \
   "\t.reg .pred %p<8>;\n\t.reg .b16 %h<8>;\n\t.reg .b32 %r<16>;\n"             \
   "\t.reg .b64 %rd<16>;\n\t.reg .f32 %f<16>;\n\t.reg .f64 %fd<16>;\n"          \
   "\t.reg .f16 %hf<8>;\n\t.reg .b32 %or<80>;\n\t.reg .b64 %od<40>;\n"          \
   "\t.reg .b16 %oh<8>;\n\t.reg .f32 %of<64>;\n"
#define MAX_INV 8192

/* The device's float controls are filled in once it exists. */
static struct cuvk_cc_target full = {
   .subgroup_size = 8, .int8 = true, .int16 = true, .int64 = true, .float16 = true,
   .float64 = true, .atomic_int64 = true, .atomic_float32_add = true, .max_shared_bytes = 32768,
};

struct runner {
   struct vkh h;
   VkDescriptorSetLayout dsl;
   VkPipelineLayout layout;
   VkDescriptorPool pool;
   VkDescriptorSet set;
   VkCommandPool cmd_pool;
   VkCommandBuffer cmd;
   VkBuffer buf;
   VkDeviceMemory mem;
   VkDeviceSize size;
   uint32_t reg_count;
   char names[512][8];
   uint32_t *data;
   unsigned cases, invocations, failures;
};

static struct runner R;

static double
unit_now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
reg(const char *name)
{
   for (uint32_t i = 0; i < R.reg_count; i++)
      if (strcmp(R.names[i], name) == 0)
         return (int)i;
   fprintf(stderr, "no register %s\n", name);
   abort();
}

static uint64_t *
slot(unsigned inv, const char *name)
{
   return (uint64_t *)(R.data + ((size_t)inv * R.reg_count + (unsigned)reg(name)) * 2);
}

static struct cuvk_ir_module *
parse(const char *body)
{
   static char text[8192];
   struct cuvk_cc_error err;
   snprintf(text, sizeof(text), "%s%s\tret;\n}\n", HEADER ".visible .entry k()\n{\n" REGS, body);
   struct ptx_module *ptx = ptx_parse(text, strlen(text), &err);
   struct cuvk_ir_module *ir = ptx ? cuvk_ptx_to_ir(ptx, &err) : NULL;
   ptx_module_destroy(ptx);
   if (!ir)
      compiler_test_print_error(body, &err);
   return ir;
}

static bool
runner_init(void)
{
   VkPhysicalDeviceVulkan12Features f12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
      .shaderFloat16 = VK_TRUE,
      .shaderInt8 = VK_TRUE,
   };
   VkPhysicalDeviceFeatures2 f2 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
      .pNext = &f12,
      .features = { .shaderInt64 = VK_TRUE, .shaderFloat64 = VK_TRUE, .shaderInt16 = VK_TRUE },
   };
   struct vkh_options opt = { .device_pnext = &f2 };
   if (!vkh_init(&R.h, "compiler.alu.run", &opt))
      return false;
   VkPhysicalDeviceFloatControlsProperties float_controls = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES,
   };
   VkPhysicalDeviceProperties2 props2 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
      .pNext = &float_controls,
   };
   vkGetPhysicalDeviceProperties2(R.h.physical_device, &props2);
   full.denorm_preserve_f16 = float_controls.shaderDenormPreserveFloat16;
   full.denorm_preserve_f32 = float_controls.shaderDenormPreserveFloat32;
   full.denorm_preserve_f64 = float_controls.shaderDenormPreserveFloat64;

   struct cuvk_ir_module *ir = parse("");
   if (!ir)
      return false;
   const struct cuvk_ir_function *f = ir->funcs[0];
   R.reg_count = f->reg_count;
   for (uint32_t i = 0; i < f->reg_count && i < 512; i++)
      snprintf(R.names[i], sizeof(R.names[i]), "%s", f->regs[i].name);
   cuvk_ir_module_destroy(ir);

   VkDevice d = R.h.device;
   R.size = (VkDeviceSize)MAX_INV * R.reg_count * 8;
   R.data = calloc(1, R.size);
   VKH_CHECK(vkh_create_buffer(&R.h, R.size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0, &R.buf) ==
             VK_SUCCESS);
   VKH_CHECK(vkh_allocate_for_buffer(&R.h, R.buf, false, 0, &R.mem, NULL, NULL) == VK_SUCCESS);
   VKH_CHECK(vkBindBufferMemory(d, R.buf, R.mem, 0) == VK_SUCCESS);

   VkDescriptorSetLayoutBinding binding = {
      .binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1,
      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
   };
   VkDescriptorSetLayoutCreateInfo dsl = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .bindingCount = 1, .pBindings = &binding,
   };
   VKH_CHECK(vkCreateDescriptorSetLayout(d, &dsl, NULL, &R.dsl) == VK_SUCCESS);
   VkPipelineLayoutCreateInfo pl = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .setLayoutCount = 1, .pSetLayouts = &R.dsl,
   };
   VKH_CHECK(vkCreatePipelineLayout(d, &pl, NULL, &R.layout) == VK_SUCCESS);
   VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 };
   VkDescriptorPoolCreateInfo pool = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
      .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps,
   };
   VKH_CHECK(vkCreateDescriptorPool(d, &pool, NULL, &R.pool) == VK_SUCCESS);
   VkDescriptorSetAllocateInfo dsa = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
      .descriptorPool = R.pool, .descriptorSetCount = 1, .pSetLayouts = &R.dsl,
   };
   VKH_CHECK(vkAllocateDescriptorSets(d, &dsa, &R.set) == VK_SUCCESS);
   VkDescriptorBufferInfo bi = { R.buf, 0, VK_WHOLE_SIZE };
   VkWriteDescriptorSet w = {
      .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = R.set, .dstBinding = 0,
      .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &bi,
   };
   vkUpdateDescriptorSets(d, 1, &w, 0, NULL);
   VkCommandPoolCreateInfo cp = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
      .queueFamilyIndex = R.h.queue_family,
   };
   VKH_CHECK(vkCreateCommandPool(d, &cp, NULL, &R.cmd_pool) == VK_SUCCESS);
   VkCommandBufferAllocateInfo cba = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = R.cmd_pool,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1,
   };
   VKH_CHECK(vkAllocateCommandBuffers(d, &cba, &R.cmd) == VK_SUCCESS);
   return true;
}

static void
runner_finish(void)
{
   VkDevice d = R.h.device;
   if (d) {
      vkDeviceWaitIdle(d);
      vkDestroyCommandPool(d, R.cmd_pool, NULL);
      vkDestroyDescriptorPool(d, R.pool, NULL);
      vkDestroyPipelineLayout(d, R.layout, NULL);
      vkDestroyDescriptorSetLayout(d, R.dsl, NULL);
      vkDestroyBuffer(d, R.buf, NULL);
      vkFreeMemory(d, R.mem, NULL);
   }
   free(R.data);
}

/* Lowers body and runs it over n invocations of R.data, in place. */
static bool
run(const char *name, const char *body, unsigned n)
{
   struct cuvk_ir_module *ir = parse(body);
   struct cuvk_cc_error err;
   size_t count;
   VkDevice d = R.h.device;
   double t0 = unit_now_s();

   if (!ir) {
      VKH_CHECK(!"the snippet did not parse");
      return false;
   }
   uint32_t *words = alu_emit(ir, &full, ALU_EMIT_IO, &count, NULL, &err);
   cuvk_ir_module_destroy(ir);
   if (!words) {
      compiler_test_print_error(name, &err);
      VKH_CHECK(!"lowering failed");
      return false;
   }
   VkShaderModuleCreateInfo smi = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = count * 4, .pCode = words,
   };
   VkShaderModule sm;
   VkPipeline pipe = VK_NULL_HANDLE;
   bool ok = vkCreateShaderModule(d, &smi, NULL, &sm) == VK_SUCCESS;
   free(words);
   if (ok) {
      VkComputePipelineCreateInfo cpi = {
         .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
         .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                    .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = sm, .pName = "main" },
         .layout = R.layout,
      };
      ok = vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &cpi, NULL, &pipe) == VK_SUCCESS;
      vkDestroyShaderModule(d, sm, NULL);
   }
   ok = ok && vkh_write(&R.h, R.mem, 0, R.data, (size_t)n * R.reg_count * 8);
   if (ok) {
      VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
      vkBeginCommandBuffer(R.cmd, &bi);
      vkCmdBindPipeline(R.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
      vkCmdBindDescriptorSets(R.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, R.layout, 0, 1, &R.set, 0,
                              NULL);
      vkCmdDispatch(R.cmd, n, 1, 1);
      VkMemoryBarrier mb = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                             .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                             .dstAccessMask = VK_ACCESS_HOST_READ_BIT };
      vkCmdPipelineBarrier(R.cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                           0, 1, &mb, 0, NULL, 0, NULL);
      vkEndCommandBuffer(R.cmd);
      VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                          .pCommandBuffers = &R.cmd };
      ok = vkQueueSubmit(R.h.queue, 1, &si, VK_NULL_HANDLE) == VK_SUCCESS &&
           vkQueueWaitIdle(R.h.queue) == VK_SUCCESS;
   }
   ok = ok && vkh_read(&R.h, R.mem, 0, R.data, (size_t)n * R.reg_count * 8);
   if (pipe)
      vkDestroyPipeline(d, pipe, NULL);
   VKH_CHECK(ok);
   if (getenv("CUVK_ALU_RUN_VERBOSE"))
      printf("ran %s (%.1f s)\n", strchr(name, '\n') ? "" : name, unit_now_s() - t0);
   R.cases++;
   R.invocations += n;
   return ok;
}

/* Reports a mismatch (the first few of a case). */
static unsigned case_failures;

static void
mismatch(const char *name, unsigned inv, const uint64_t *in, unsigned nin, uint64_t got,
         uint64_t want)
{
   if (case_failures++ < 6) {
      fprintf(stderr, "%s: invocation %u inputs", name, inv);
      for (unsigned i = 0; i < nin; i++)
         fprintf(stderr, " %#llx", (unsigned long long)in[i]);
      fprintf(stderr, ": got %#llx, want %#llx\n", (unsigned long long)got,
              (unsigned long long)want);
   }
   R.failures++;
}

static uint64_t rng = 0x5eed2024;

static uint64_t
rnd(void)
{
   return cuvk_test_rand(&rng);
}

/* Integer inputs: edges first, then random. */
static uint64_t
int_input(unsigned inv, unsigned k, unsigned bits)
{
   static const uint64_t edge[] = { 0, 1, 2, 3, 5, 7, 8, 13, 31, 32, 33, 40, 63, 64, 255, 256,
                                    0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff,
                                    0xfffffffe, 0xfffffffb, 0x8000000000000000ull,
                                    0x7fffffffffffffffull, ~0ull, ~1ull, 0x123456789abcdef0ull };
   const unsigned ne = sizeof(edge) / sizeof(edge[0]);
   uint64_t v;
   if (k < 2 && inv < ne * ne)
      v = edge[k == 0 ? inv % ne : inv / ne];
   else if (rnd() & 1)
      v = rnd() >> (rnd() % 64);
   else
      v = rnd();
   return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

static int64_t
sx(uint64_t v, unsigned bits)
{
   return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}

/*
 * Integer cases: an instruction over up to 4 inputs into one output, the
 * expected value from ref_int.
 */
enum iop {
   I_ADD, I_SUB, I_MULLO, I_MULHI_U, I_MULHI_S, I_DIV_U, I_DIV_S, I_REM_U, I_REM_S, I_MIN_S,
   I_MAX_U, I_ADDSAT, I_SUBSAT, I_SHL, I_SHR_U, I_SHR_S, I_MUL24LO_U, I_MUL24HI_U, I_MUL24LO_S,
   I_MUL24HI_S, I_POPC, I_CLZ, I_BREV, I_BFIND_U, I_BFIND_S, I_BFIND_SA, I_CNOT, I_NOT, I_NEG,
   I_ABS, I_BFE_U, I_BFE_S, I_BFI, I_PRMT0, I_PRMT1, I_PRMT2, I_PRMT3, I_PRMT4, I_PRMT5, I_PRMT6,
   I_LOP3_E8, I_LOP3_96, I_LOP3_1, I_SHF_LW, I_SHF_LC, I_SHF_RW, I_SHF_RC, I_SAD_S, I_SAD_U,
   I_MADLO, I_MADHI_SAT, I_MULWIDE_S, I_MULWIDE_U, I_MADWIDE_S, I_BMSK_C, I_BMSK_W, I_SZEXT_CS,
   I_SZEXT_WS, I_SZEXT_CU, I_SZEXT_WU, I_FNS,
};

static uint64_t
ref_int(enum iop op, const uint64_t *x, unsigned bits)
{
   uint64_t m = bits >= 64 ? ~0ull : (1ull << bits) - 1;
   uint64_t a = x[0], b = x[1], c = x[2];
   switch (op) {
   case I_ADD: return (a + b) & m;
   case I_SUB: return (a - b) & m;
   case I_MULLO: return (a * b) & m;
   case I_MULHI_U:
      return bits == 64 ? (uint64_t)(((unsigned __int128)a * b) >> 64) : ((a * b) >> bits) & m;
   case I_MULHI_S:
      return bits == 64 ? (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64)
                        : (uint64_t)((sx(a, bits) * sx(b, bits)) >> bits) & m;
   case I_DIV_U: return ref_div(a, b, bits, false, false);
   case I_DIV_S: return ref_div(a, b, bits, true, false);
   case I_REM_U: return ref_div(a, b, bits, false, true);
   case I_REM_S: return ref_div(a, b, bits, true, true);
   case I_MIN_S: return (sx(a, bits) < sx(b, bits) ? a : b);
   case I_MAX_U: return a > b ? a : b;
   case I_ADDSAT: return (uint32_t)ref_sat_s32((int64_t)(int32_t)a + (int32_t)b);
   case I_SUBSAT: return (uint32_t)ref_sat_s32((int64_t)(int32_t)a - (int32_t)b);
   case I_SHL: return ref_shift(a, (uint32_t)b, bits, 0);
   case I_SHR_U: return ref_shift(a, (uint32_t)b, bits, 1);
   case I_SHR_S: return ref_shift(a, (uint32_t)b, bits, 2);
   case I_MUL24LO_U: return ref_mul24((uint32_t)a, (uint32_t)b, false, false);
   case I_MUL24HI_U: return ref_mul24((uint32_t)a, (uint32_t)b, false, true);
   case I_MUL24LO_S: return ref_mul24((uint32_t)a, (uint32_t)b, true, false);
   case I_MUL24HI_S: return ref_mul24((uint32_t)a, (uint32_t)b, true, true);
   case I_POPC: return (uint64_t)__builtin_popcountll(a);
   case I_CLZ: return a ? (uint64_t)(__builtin_clzll(a) - (64 - (int)bits)) : bits;
   case I_BREV: {
      uint64_t r = 0;
      for (unsigned i = 0; i < bits; i++)
         r |= ((a >> i) & 1) << (bits - 1 - i);
      return r;
   }
   case I_BFIND_U: return ref_bfind(a, bits, false, false);
   case I_BFIND_S: return ref_bfind(a, bits, true, false);
   case I_BFIND_SA: return ref_bfind(a, bits, false, true);
   case I_CNOT: return a == 0;
   case I_NOT: return ~a & m;
   case I_NEG: return (0 - a) & m;
   case I_ABS: return sx(a, bits) < 0 ? (0 - a) & m : a;
   case I_BFE_U: return ref_bfe(a, (uint32_t)b, (uint32_t)c, bits, false);
   case I_BFE_S: return ref_bfe(a, (uint32_t)b, (uint32_t)c, bits, true);
   case I_BFI: return ref_bfi(a, b, (uint32_t)c, (uint32_t)x[3], bits);
   case I_PRMT0: case I_PRMT1: case I_PRMT2: case I_PRMT3: case I_PRMT4: case I_PRMT5:
   case I_PRMT6:
      return ref_prmt((uint32_t)a, (uint32_t)b, (uint32_t)c, (int)(op - I_PRMT0));
   case I_LOP3_E8: return ref_lop3((uint32_t)a, (uint32_t)b, (uint32_t)c, 0xe8);
   case I_LOP3_96: return ref_lop3((uint32_t)a, (uint32_t)b, (uint32_t)c, 0x96);
   case I_LOP3_1: return ref_lop3((uint32_t)a, (uint32_t)b, (uint32_t)c, 0x01);
   case I_SHF_LW: return ref_shf((uint32_t)a, (uint32_t)b, (uint32_t)c, true, false);
   case I_SHF_LC: return ref_shf((uint32_t)a, (uint32_t)b, (uint32_t)c, true, true);
   case I_SHF_RW: return ref_shf((uint32_t)a, (uint32_t)b, (uint32_t)c, false, false);
   case I_SHF_RC: return ref_shf((uint32_t)a, (uint32_t)b, (uint32_t)c, false, true);
   case I_SAD_S:   /* the difference wraps, as it does on the GPU */
      return (c + (sx(a, bits) > sx(b, bits) ? a - b : b - a)) & m;
   case I_SAD_U: return (c + (a > b ? a - b : b - a)) & m;
   case I_MADLO: return (a * b + c) & m;
   case I_MADHI_SAT: {
      int64_t hi = ((int64_t)(int32_t)a * (int32_t)b) >> 32;
      return (uint32_t)ref_sat_s32(hi + (int32_t)c);
   }
   case I_MULWIDE_S: return (uint64_t)(sx(a, bits) * sx(b, bits));
   case I_MULWIDE_U: return a * b;
   case I_MADWIDE_S: return (uint64_t)(sx(a, bits) * sx(b, bits)) + c;
   case I_BMSK_C: return ref_bmsk((uint32_t)a, (uint32_t)b, true);
   case I_BMSK_W: return ref_bmsk((uint32_t)a, (uint32_t)b, false);
   case I_SZEXT_CS: return ref_szext((uint32_t)a, (uint32_t)b, true, true);
   case I_SZEXT_WS: return ref_szext((uint32_t)a, (uint32_t)b, false, true);
   case I_SZEXT_CU: return ref_szext((uint32_t)a, (uint32_t)b, true, false);
   case I_SZEXT_WU: return ref_szext((uint32_t)a, (uint32_t)b, false, false);
   case I_FNS: return ref_fns((uint32_t)a, (uint32_t)b, (int32_t)(uint32_t)c);
   }
   return 0;
}

/* One instruction of a batch: its text with %s for the destination, the
 * reference, the input registers and the destination's class. */
struct ispec {
   const char *fmt;
   enum iop op;
   unsigned bits;
   const char *in[4];
   char out;          /* 'r' b32, 'd' b64, 'h' b16 */
};

#define IN32 { "%r2", "%r3", "%r4", "%r5" }
#define IN64 { "%rd2", "%rd3", "%rd4", "%rd5" }

static const struct ispec ispecs[] = {
   { "add.u32 %s, %r2, %r3", I_ADD, 32, IN32, 'r' },
   { "sub.s32 %s, %r2, %r3", I_SUB, 32, IN32, 'r' },
   { "mul.lo.u32 %s, %r2, %r3", I_MULLO, 32, IN32, 'r' },
   { "mul.hi.u32 %s, %r2, %r3", I_MULHI_U, 32, IN32, 'r' },
   { "mul.hi.s32 %s, %r2, %r3", I_MULHI_S, 32, IN32, 'r' },
   { "div.u32 %s, %r2, %r3", I_DIV_U, 32, IN32, 'r' },
   { "div.s32 %s, %r2, %r3", I_DIV_S, 32, IN32, 'r' },
   { "rem.u32 %s, %r2, %r3", I_REM_U, 32, IN32, 'r' },
   { "rem.s32 %s, %r2, %r3", I_REM_S, 32, IN32, 'r' },
   { "min.s32 %s, %r2, %r3", I_MIN_S, 32, IN32, 'r' },
   { "max.u32 %s, %r2, %r3", I_MAX_U, 32, IN32, 'r' },
   { "add.sat.s32 %s, %r2, %r3", I_ADDSAT, 32, IN32, 'r' },
   { "sub.sat.s32 %s, %r2, %r3", I_SUBSAT, 32, IN32, 'r' },
   { "shl.b32 %s, %r2, %r6", I_SHL, 32, { "%r2", "%r6" }, 'r' },
   { "shr.u32 %s, %r2, %r6", I_SHR_U, 32, { "%r2", "%r6" }, 'r' },
   { "shr.s32 %s, %r2, %r6", I_SHR_S, 32, { "%r2", "%r6" }, 'r' },
   { "shr.s32 %s, %r2, %r3", I_SHR_S, 32, IN32, 'r' },
   { "mul24.lo.u32 %s, %r2, %r3", I_MUL24LO_U, 32, IN32, 'r' },
   { "mul24.hi.u32 %s, %r2, %r3", I_MUL24HI_U, 32, IN32, 'r' },
   { "mul24.lo.s32 %s, %r2, %r3", I_MUL24LO_S, 32, IN32, 'r' },
   { "mul24.hi.s32 %s, %r2, %r3", I_MUL24HI_S, 32, IN32, 'r' },
   { "popc.b32 %s, %r2", I_POPC, 32, IN32, 'r' },
   { "clz.b32 %s, %r2", I_CLZ, 32, IN32, 'r' },
   { "brev.b32 %s, %r2", I_BREV, 32, IN32, 'r' },
   { "bfind.u32 %s, %r2", I_BFIND_U, 32, IN32, 'r' },
   { "bfind.s32 %s, %r2", I_BFIND_S, 32, IN32, 'r' },
   { "bfind.shiftamt.u32 %s, %r2", I_BFIND_SA, 32, IN32, 'r' },
   { "cnot.b32 %s, %r2", I_CNOT, 32, IN32, 'r' },
   { "not.b32 %s, %r2", I_NOT, 32, IN32, 'r' },
   { "neg.s32 %s, %r2", I_NEG, 32, IN32, 'r' },
   { "abs.s32 %s, %r2", I_ABS, 32, IN32, 'r' },
   { "bfe.u32 %s, %r2, %r6, %r7", I_BFE_U, 32, { "%r2", "%r6", "%r7" }, 'r' },
   { "bfe.s32 %s, %r2, %r6, %r7", I_BFE_S, 32, { "%r2", "%r6", "%r7" }, 'r' },
   { "bfi.b32 %s, %r2, %r3, %r6, %r7", I_BFI, 32, { "%r2", "%r3", "%r6", "%r7" }, 'r' },
   { "prmt.b32 %s, %r2, %r3, %r4", I_PRMT0, 32, IN32, 'r' },
   { "prmt.b32.f4e %s, %r2, %r3, %r4", I_PRMT1, 32, IN32, 'r' },
   { "prmt.b32.b4e %s, %r2, %r3, %r4", I_PRMT2, 32, IN32, 'r' },
   { "prmt.b32.rc8 %s, %r2, %r3, %r4", I_PRMT3, 32, IN32, 'r' },
   { "prmt.b32.ecl %s, %r2, %r3, %r4", I_PRMT4, 32, IN32, 'r' },
   { "prmt.b32.ecr %s, %r2, %r3, %r4", I_PRMT5, 32, IN32, 'r' },
   { "prmt.b32.rc16 %s, %r2, %r3, %r4", I_PRMT6, 32, IN32, 'r' },
   { "lop3.b32 %s, %r2, %r3, %r4, 0xe8", I_LOP3_E8, 32, IN32, 'r' },
   { "lop3.b32 %s, %r2, %r3, %r4, 0x96", I_LOP3_96, 32, IN32, 'r' },
   { "lop3.b32 %s, %r2, %r3, %r4, 0x01", I_LOP3_1, 32, IN32, 'r' },
   { "shf.l.wrap.b32 %s, %r2, %r3, %r6", I_SHF_LW, 32, { "%r2", "%r3", "%r6" }, 'r' },
   { "shf.l.clamp.b32 %s, %r2, %r3, %r6", I_SHF_LC, 32, { "%r2", "%r3", "%r6" }, 'r' },
   { "shf.r.wrap.b32 %s, %r2, %r3, %r4", I_SHF_RW, 32, IN32, 'r' },
   { "shf.r.clamp.b32 %s, %r2, %r3, %r6", I_SHF_RC, 32, { "%r2", "%r3", "%r6" }, 'r' },
   { "sad.s32 %s, %r2, %r3, %r4", I_SAD_S, 32, IN32, 'r' },
   { "sad.u32 %s, %r2, %r3, %r4", I_SAD_U, 32, IN32, 'r' },
   { "mad.lo.s32 %s, %r2, %r3, %r4", I_MADLO, 32, IN32, 'r' },
   { "mad.hi.sat.s32 %s, %r2, %r3, %r4", I_MADHI_SAT, 32, IN32, 'r' },
   { "bmsk.clamp.b32 %s, %r6, %r7", I_BMSK_C, 32, { "%r6", "%r7" }, 'r' },
   { "bmsk.wrap.b32 %s, %r6, %r7", I_BMSK_W, 32, { "%r6", "%r7" }, 'r' },
   { "szext.clamp.s32 %s, %r2, %r6", I_SZEXT_CS, 32, { "%r2", "%r6" }, 'r' },
   { "szext.wrap.s32 %s, %r2, %r6", I_SZEXT_WS, 32, { "%r2", "%r6" }, 'r' },
   { "szext.clamp.u32 %s, %r2, %r7", I_SZEXT_CU, 32, { "%r2", "%r7" }, 'r' },
   { "szext.wrap.u32 %s, %r2, %r7", I_SZEXT_WU, 32, { "%r2", "%r7" }, 'r' },
   /* offsets of +-0..79 mostly, and bases past 31 (where PTX leaves it
    * undefined) as alu_ref.h's ref_fns says */
   { "fns.b32 %s, %r2, %r6, %r7", I_FNS, 32, { "%r2", "%r6", "%r7" }, 'r' },
   { "fns.b32 %s, %r2, %r7, %r8", I_FNS, 32, { "%r2", "%r7", "%r8" }, 'r' },
   { "add.s64 %s, %rd2, %rd3", I_ADD, 64, IN64, 'd' },
   { "mul.lo.u64 %s, %rd2, %rd3", I_MULLO, 64, IN64, 'd' },
   { "mul.hi.u64 %s, %rd2, %rd3", I_MULHI_U, 64, IN64, 'd' },
   { "mul.hi.s64 %s, %rd2, %rd3", I_MULHI_S, 64, IN64, 'd' },
   { "div.u64 %s, %rd2, %rd3", I_DIV_U, 64, IN64, 'd' },
   { "div.s64 %s, %rd2, %rd3", I_DIV_S, 64, IN64, 'd' },
   { "rem.u64 %s, %rd2, %rd3", I_REM_U, 64, IN64, 'd' },
   { "rem.s64 %s, %rd2, %rd3", I_REM_S, 64, IN64, 'd' },
   { "min.s64 %s, %rd2, %rd3", I_MIN_S, 64, IN64, 'd' },
   { "sad.s64 %s, %rd2, %rd3, %rd4", I_SAD_S, 64, IN64, 'd' },
   { "not.b64 %s, %rd2", I_NOT, 64, IN64, 'd' },
   { "abs.s64 %s, %rd2", I_ABS, 64, IN64, 'd' },
   { "brev.b64 %s, %rd2", I_BREV, 64, IN64, 'd' },
   { "popc.b64 %s, %rd2", I_POPC, 64, IN64, 'r' },
   { "clz.b64 %s, %rd2", I_CLZ, 64, IN64, 'r' },
   { "bfind.u64 %s, %rd2", I_BFIND_U, 64, IN64, 'r' },
   { "bfind.s64 %s, %rd2", I_BFIND_S, 64, IN64, 'r' },
   { "bfind.shiftamt.u64 %s, %rd2", I_BFIND_SA, 64, IN64, 'r' },
   { "shl.b64 %s, %rd2, %r6", I_SHL, 64, { "%rd2", "%r6" }, 'd' },
   { "shr.u64 %s, %rd2, %r6", I_SHR_U, 64, { "%rd2", "%r6" }, 'd' },
   { "shr.s64 %s, %rd2, %r6", I_SHR_S, 64, { "%rd2", "%r6" }, 'd' },
   { "bfe.s64 %s, %rd2, %r6, %r7", I_BFE_S, 64, { "%rd2", "%r6", "%r7" }, 'd' },
   { "bfe.u64 %s, %rd2, %r6, %r7", I_BFE_U, 64, { "%rd2", "%r6", "%r7" }, 'd' },
   { "bfi.b64 %s, %rd2, %rd3, %r6, %r7", I_BFI, 64, { "%rd2", "%rd3", "%r6", "%r7" }, 'd' },
   { "mul.wide.s32 %s, %r2, %r3", I_MULWIDE_S, 32, IN32, 'd' },
   { "mul.wide.u32 %s, %r2, %r3", I_MULWIDE_U, 32, IN32, 'd' },
   { "mad.wide.s32 %s, %r2, %r3, %rd4", I_MADWIDE_S, 32, { "%r2", "%r3", "%rd4" }, 'd' },
   { "div.s16 %s, %h2, %h3", I_DIV_S, 16, { "%h2", "%h3" }, 'h' },
   { "rem.u16 %s, %h2, %h3", I_REM_U, 16, { "%h2", "%h3" }, 'h' },
   { "mul.hi.s16 %s, %h2, %h3", I_MULHI_S, 16, { "%h2", "%h3" }, 'h' },
   { "shr.s16 %s, %h2, %r6", I_SHR_S, 16, { "%h2", "%r6" }, 'h' },
   { "mul.wide.u16 %s, %h2, %h3", I_MULWIDE_U, 16, { "%h2", "%h3" }, 'r' },
};

/* The register holding input name, masked to the width it is read at. */
static uint64_t
input_of(unsigned inv, const char *name, unsigned bits)
{
   uint64_t v = *slot(inv, name);
   if (name[1] == 'h')
      return v & 0xffff;
   if (name[1] == 'r' && name[2] != 'd')
      return v & 0xffffffffu;
   return bits >= 64 ? v : v;
}

static void
check_int(void)
{
   const unsigned n = 1024, count = sizeof(ispecs) / sizeof(ispecs[0]);
   static char body[16384];
   char outs[128][8];
   unsigned nr = 0, nd = 0, nh = 0;
   size_t len = 0;

   for (unsigned s = 0; s < count; s++) {
      char c = ispecs[s].out;
      snprintf(outs[s], sizeof(outs[s]), "%%o%c%u", c, c == 'r' ? nr++ : c == 'd' ? nd++ : nh++);
      /* The text is no printf format (it holds %r2): splice by hand. */
      const char *at = strstr(ispecs[s].fmt, "%s");
      len += (size_t)snprintf(body + len, sizeof(body) - len, "\t%.*s%s%s;\n",
                              (int)(at - ispecs[s].fmt), ispecs[s].fmt, outs[s], at + 2);
   }
   memset(R.data, 0, (size_t)n * R.reg_count * 8);
   for (unsigned i = 0; i < n; i++) {
      static const char *const r32[] = { "%r2", "%r3", "%r4", "%r5" };
      static const char *const r64[] = { "%rd2", "%rd3", "%rd4", "%rd5" };
      for (unsigned k = 0; k < 4; k++) {
         *slot(i, r32[k]) = int_input(i, k, 32);
         *slot(i, r64[k]) = int_input(i, k, 64);
      }
      *slot(i, "%h2") = int_input(i, 0, 16);
      *slot(i, "%h3") = int_input(i, 1, 16);
      /* Shift amounts and bit-field positions: mostly around the width. */
      *slot(i, "%r6") = (rnd() & 3) ? rnd() % 80 : (uint32_t)rnd();
      *slot(i, "%r7") = (rnd() & 3) ? rnd() % 80 : (uint32_t)rnd();
      /* fns's downward offsets: -79..0 mostly. */
      *slot(i, "%r8") = (rnd() & 3) ? 0u - (uint32_t)(rnd() % 80) : (uint32_t)rnd();
   }
   if (!run("integer batch", body, n))
      return;
   for (unsigned s = 0; s < count; s++) {
      const struct ispec *sp = &ispecs[s];
      unsigned obits = sp->out == 'r' ? 32 : sp->out == 'd' ? 64 : 16;
      uint64_t m = obits >= 64 ? ~0ull : (1ull << obits) - 1;
      case_failures = 0;
      for (unsigned i = 0; i < n; i++) {
         uint64_t x[4] = { 0 };
         for (unsigned k = 0; k < 4 && sp->in[k]; k++)
            x[k] = input_of(i, sp->in[k], sp->bits);
         uint64_t got = *slot(i, outs[s]) & m, want = ref_int(sp->op, x, sp->bits) & m;
         if (got != want)
            mismatch(sp->fmt, i, x, 4, got, want);
      }
   }

   /* Carry chains: a 96-bit add and subtract, a 64-bit multiply-add. */
   uint64_t in[MAX_INV][6];
   static const char *const cin[] = { "%r2", "%r3", "%r5", "%r6", "%r8", "%r9" };
   memset(R.data, 0, (size_t)n * R.reg_count * 8);
   for (unsigned i = 0; i < n; i++)
      for (unsigned k = 0; k < 6; k++)
         *slot(i, cin[k]) = in[i][k] = int_input(i, k, 32);
   const char *chain = "\tadd.cc.u32 %r1, %r2, %r3;\n\taddc.cc.u32 %r4, %r5, %r6;\n"
                       "\taddc.u32 %r7, %r8, %r9;\n"
                       "\tsub.cc.u32 %r10, %r2, %r3;\n\tsubc.cc.u32 %r11, %r5, %r6;\n"
                       "\tsubc.u32 %r12, %r8, %r9;\n"
                       "\tmad.lo.cc.u32 %r13, %r2, %r3, %r5;\n\tmadc.hi.u32 %r14, %r2, %r3, %r6;\n";
   if (run("carry chains", chain, n)) {
      case_failures = 0;
      for (unsigned i = 0; i < n; i++) {
         unsigned __int128 x = (unsigned __int128)in[i][4] << 64 | in[i][2] << 32 | in[i][0];
         unsigned __int128 y = (unsigned __int128)in[i][5] << 64 | in[i][3] << 32 | in[i][1];
         unsigned __int128 s = x + y, d = x - y;
         uint64_t m = in[i][0] * in[i][1] + (in[i][3] << 32 | in[i][2]);
         uint64_t got[8] = { *slot(i, "%r1"), *slot(i, "%r4"), *slot(i, "%r7"), *slot(i, "%r10"),
                             *slot(i, "%r11"), *slot(i, "%r12"), *slot(i, "%r13"),
                             *slot(i, "%r14") };
         uint64_t want[8] = { (uint32_t)s, (uint32_t)(s >> 32), (uint32_t)(s >> 64),
                              (uint32_t)d, (uint32_t)(d >> 32), (uint32_t)(d >> 64),
                              (uint32_t)m, (uint32_t)(m >> 32) };
         for (unsigned k = 0; k < 8; k++)
            if (got[k] != want[k])
               mismatch("carry chains", i, in[i], 6, got[k], want[k]);
      }
   }
}

/*
 * Floating point.
 */

/* f32 inputs: specials, subnormals, ties and random patterns. */
static uint32_t
f32_input(unsigned inv, unsigned k)
{
   static const uint32_t edge[] = {
      0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000,
      0xffc00001, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0xff7fffff,
      0x40000000, 0x40400000, 0x3f000000, 0x4b800001, 0x33800000, 0x3fffffff, 0x0c000000,
      0x72000000, 0x00400000, 0x4f000000, 0xcf000000, 0x5f800000,
   };
   const unsigned ne = sizeof(edge) / sizeof(edge[0]);
   if (k < 2 && inv < ne * ne)
      return edge[k == 0 ? inv % ne : inv / ne];
   uint64_t r = rnd();
   switch (r & 7) {
   case 0: return (uint32_t)(r >> 32) & 0x807fffffu;                    /* subnormal */
   case 1: return (uint32_t)(r >> 32) | 0x3f800000u;                    /* [1, 2) or so */
   case 2: return ((uint32_t)(r >> 32) & 0x83ffffffu) | 0x3c000000u;    /* near 1 */
   default: return (uint32_t)(r >> 32);
   }
}

static bool
same_f32(uint32_t got, uint32_t want)
{
   return got == want || (isnan(ref_bitsf(got)) && isnan(ref_bitsf(want)));
}

static uint32_t
flush32(uint32_t x)
{
   return (x & 0x7fffffffu) < 0x00800000u ? x & 0x80000000u : x;
}

/* Correctly rounded arithmetic in every mode, against the host FPU: one
 * batch of every operation, mode and .ftz over the same inputs. */
static void
check_f32_rounded(void)
{
   static const char *const modes[] = { "rn", "rz", "rm", "rp" };
   static const struct { const char *op; char c; unsigned nin; } ops[] = {
      { "add", '+', 2 }, { "sub", '-', 2 }, { "mul", '*', 2 }, { "fma", 'f', 3 },
      { "div", '/', 2 }, { "sqrt", 's', 1 }, { "rcp", 'r', 1 },
   };
   const unsigned n = 2048;
   static const char *const fin[] = { "%f2", "%f3", "%f4" };
   static uint32_t in[MAX_INV][3];
   struct { unsigned o; int m; bool ftz; } spec[64];
   unsigned ns = 0;
   static char body[8192];
   size_t len = 0;

   for (unsigned o = 0; o < sizeof(ops) / sizeof(ops[0]); o++)
      for (int m = 0; m < 4; m++)
         for (int ftz = 0; ftz < 2; ftz++) {
            if ((ftz && m != 1) || (ops[o].c == 'r' && m != 0 && !ftz && m != 1))
               continue;   /* .ftz once per operation (with .rz); rcp .rn and .rz */
            const char *args = ops[o].nin == 1 ? "%f2" : ops[o].nin == 2 ? "%f2, %f3"
                                                                         : "%f2, %f3, %f4";
            len += (size_t)snprintf(body + len, sizeof(body) - len, "\t%s.%s%s.f32 %%of%u, %s;\n",
                                    ops[o].op, modes[m], ftz ? ".ftz" : "", ns, args);
            spec[ns].o = o, spec[ns].m = m, spec[ns].ftz = ftz;
            ns++;
         }
   len += (size_t)snprintf(body + len, sizeof(body) - len, "\tdiv.full.f32 %%of%u, %%f2, %%f3;\n",
                           ns);
   memset(R.data, 0, (size_t)n * R.reg_count * 8);
   for (unsigned i = 0; i < n; i++)
      for (unsigned k = 0; k < 3; k++)
         *slot(i, fin[k]) = in[i][k] = f32_input(i, k);
   if (!run("rounded f32 batch", body, n))
      return;
   for (unsigned s = 0; s <= ns; s++) {
      bool is_full = s == ns;
      char out[8], name[64];
      snprintf(out, sizeof(out), "%%of%u", s);
      if (is_full)
         snprintf(name, sizeof(name), "div.full.f32");
      else
         snprintf(name, sizeof(name), "%s.%s%s.f32", ops[spec[s].o].op, modes[spec[s].m],
                  spec[s].ftz ? ".ftz" : "");
      case_failures = 0;
      for (unsigned i = 0; i < n; i++) {
         uint32_t a = in[i][0], b = in[i][1], c = in[i][2];
         bool ftz = !is_full && spec[s].ftz;
         char op = is_full ? '/' : ops[spec[s].o].c;
         int m = is_full ? 0 : spec[s].m;
         if (ftz)
            a = flush32(a), b = flush32(b), c = flush32(c);
         float fa = ref_bitsf(a), fb = ref_bitsf(b);
         if (op == 'r')
            op = '/', fb = fa, fa = 1.0f;
         uint32_t want = ref_fbits(ref_f32_op(op, fa, fb, ref_bitsf(c), m));
         if (ftz)
            want = flush32(want);
         uint32_t got = (uint32_t)*slot(i, out);
         if (!same_f32(got, want)) {
            uint64_t x[3] = { in[i][0], in[i][1], in[i][2] };
            mismatch(name, i, x, 3, got, want);
         }
      }
   }
}

/*
 * f64 in every rounding mode (add, sub, mul, div, fma, rcp, sqrt), against
 * the host's FPU under fesetround: specials, subnormals, overflows, exact
 * results and ties, cancellations of the fma against its own product,
 * products and quotients far outside the range where Dekker's split
 * works unscaled, and random bits.
 */
static double
f64_random(uint64_t r)
{
   switch (r & 7) {
   case 0: return ref_bitsd(rnd() & 0x800fffffffffffffull);                 /* subnormal */
   case 1: return ref_bitsd((rnd() & 0x800fffffffffffffull) | 0x3ff0000000000000ull);
   case 2: return ldexp(ref_bitsd((rnd() & 0x800fffffffffffffull) | 0x3ff0000000000000ull),
                        (int)(rnd() % 2100) - 1075);                         /* any binade */
   case 3: return ldexp((double)(int64_t)(rnd() >> 40), (int)(rnd() % 60) - 30); /* short */
   default: return ref_bitsd(rnd());
   }
}

static void
f64_inputs(unsigned i, double *a, double *b, double *c)
{
   static const double edge[] = {
      0.0, -0.0, 1.0, -1.0, 0x1.fffffffffffffp+1023, -0x1.fffffffffffffp+1023, 0x1p-1074,
      -0x1p-1074, 0x1p-1022, 0x1p+1023, 0x1.0000000000001p0, 0x1p-53, -0x1p-54, 3.0, INFINITY,
      -INFINITY, NAN, 0x1p-1000, 0x1p+1000, 1.5, 0x1.fffffffffffffp-1, 0x0.fffffffffffffp-1022,
   };
   const unsigned ne = sizeof(edge) / sizeof(edge[0]);
   *a = f64_random(rnd()), *b = f64_random(rnd()), *c = f64_random(rnd());
   if (i < ne * ne) {
      *a = edge[i % ne], *b = edge[i / ne];
      *c = edge[(i * 7) % ne];
      return;
   }
   double p = *a * *b;
   switch (i % 12) {
   case 0:   /* c cancels the rounded product: the fma is its error */
      *c = -p;
      break;
   case 1:   /* ... within a few ulps of it */
      *c = -p * (1 + ldexp((double)(int)(rnd() % 9) - 4, -52));
      break;
   case 2:   /* tiny products, subnormal results and cancellations there */
      *a = ldexp(ref_bitsd((rnd() & 0x800fffffffffffffull) | 0x3ff0000000000000ull),
                 -(int)(rnd() % 600) - 300);
      *b = ldexp(ref_bitsd((rnd() & 0x800fffffffffffffull) | 0x3ff0000000000000ull),
                 -(int)(rnd() % 600) - 300);
      *c = rnd() & 1 ? -*a * *b : ldexp(*c, -(int)(rnd() % 1100));
      break;
   case 3:   /* huge operands, results near overflow */
      *a = ldexp(ref_bitsd((rnd() & 0x800fffffffffffffull) | 0x3ff0000000000000ull),
                 1023 - (int)(rnd() % 40));
      *b = ldexp(ref_bitsd((rnd() & 0x800fffffffffffffull) | 0x3ff0000000000000ull),
                 (int)(rnd() % 6) - 3);
      *c = rnd() & 1 ? -*a * *b : ldexp(*c, (int)(rnd() % 200));
      break;
   case 4:   /* exact quotients, products and square roots */
      *b = ldexp((double)(rnd() >> 38), (int)(rnd() % 100) - 50);
      *a = *b * (double)(int)(rnd() % 2000 - 1000);
      *c = (double)(rnd() >> 38) * (double)(rnd() >> 38) * ldexp(1.0, 2 * (int)(rnd() % 60) - 60);
      break;
   case 5:   /* c far above or below the product */
      *c = ldexp(*c == 0 ? 1.0 : *c, (int)(rnd() % 3) == 0 ? 950 : -950);
      *a = ref_bitsd((rnd() & 0x800fffffffffffffull) | 0x3ff0000000000000ull);
      break;
   case 6:   /* halfway products: 27-bit operands */
      *a = (double)((rnd() >> 37) | 1) * ldexp(1.0, (int)(rnd() % 40) - 20);
      *b = (double)((rnd() >> 37) | 1) * ldexp(1.0, (int)(rnd() % 40) - 20);
      *c = ldexp(1.0, (int)(rnd() % 80) - 40) * (rnd() & 1 ? 1 : -1);
      break;
   default:
      break;
   }
}

static void
check_f64_rounded(void)
{
   static const char *const modes[] = { "rn", "rz", "rm", "rp" };
   static const int fe[] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
   static const char *const names[] = { "add", "sub", "mul", "div", "fma", "rcp", "sqrt" };
   const unsigned n = 2048;
   static uint64_t in[MAX_INV][3];
   static char body[2048];

   for (unsigned i = 0; i < n; i++) {
      double a, b, c;
      f64_inputs(i, &a, &b, &c);
      in[i][0] = ref_dbits(a), in[i][1] = ref_dbits(b), in[i][2] = ref_dbits(c);
   }
   for (int m = 0; m < 4; m++) {
      const char *md = modes[m];
      snprintf(body, sizeof(body),
               "\tadd.%s.f64 %%fd5, %%fd2, %%fd3;\n\tsub.%s.f64 %%fd6, %%fd2, %%fd3;\n"
               "\tmul.%s.f64 %%fd7, %%fd2, %%fd3;\n\tdiv.%s.f64 %%fd8, %%fd2, %%fd3;\n"
               "\tfma.%s.f64 %%fd9, %%fd2, %%fd3, %%fd4;\n\trcp.%s.f64 %%fd10, %%fd2;\n"
               "\tsqrt.%s.f64 %%fd11, %%fd2;\n", md, md, md, md, md, md, md);
      memset(R.data, 0, (size_t)n * R.reg_count * 8);
      for (unsigned i = 0; i < n; i++)
         for (unsigned k = 0; k < 3; k++) {
            static const char *const fin[] = { "%fd2", "%fd3", "%fd4" };
            *slot(i, fin[k]) = in[i][k];
         }
      char run_name[32];
      snprintf(run_name, sizeof(run_name), "f64 %s batch", md);
      if (!run(run_name, body, n))
         continue;
      case_failures = 0;
      for (unsigned i = 0; i < n; i++) {
         volatile double a = ref_bitsd(in[i][0]), b = ref_bitsd(in[i][1]), c = ref_bitsd(in[i][2]);
         volatile double one = 1.0;
         double want[7];
         int old = fegetround();
         fesetround(fe[m]);
         want[0] = a + b;
         want[1] = a - b;
         want[2] = a * b;
         want[3] = a / b;
         want[4] = fma(a, b, c);
         want[5] = one / a;
         want[6] = sqrt(a);
         fesetround(old);
         for (unsigned k = 0; k < 7; k++) {
            char reg[8], name[24];
            snprintf(reg, sizeof(reg), "%%fd%u", k + 5);
            uint64_t got = *slot(i, reg), w = ref_dbits(want[k]);
            if (got != w && !(isnan(ref_bitsd(got)) && isnan(want[k]))) {
               snprintf(name, sizeof(name), "%s.%s.f64", names[k], md);
               mismatch(name, i, in[i], 3, got, w);
            }
         }
      }
   }
}

/* min/max, abs/neg/copysign, testp, setp. */
static void
check_f32_misc(void)
{
   const unsigned n = 1024;
   uint32_t in[MAX_INV][2];
   static const char *const bodies[] = {
      "min.f32", "max.f32", "min.NaN.f32", "max.ftz.f32", "abs.f32", "neg.f32", "abs.ftz.f32",
      "copysign.f32", "add.sat.f32",
   };
   const unsigned nb = sizeof(bodies) / sizeof(bodies[0]);
   static char batch[2048];
   size_t blen = 0;
   for (unsigned bi = 0; bi < nb; bi++) {
      bool unary = strncmp(bodies[bi], "abs", 3) == 0 || strncmp(bodies[bi], "neg", 3) == 0;
      blen += (size_t)snprintf(batch + blen, sizeof(batch) - blen, "\t%s %%of%u, %s;\n", bodies[bi],
                               bi, unary ? "%f2" : "%f2, %f3");
   }
   memset(R.data, 0, (size_t)n * R.reg_count * 8);
   for (unsigned i = 0; i < n; i++) {
      *slot(i, "%f2") = in[i][0] = f32_input(i, 0);
      *slot(i, "%f3") = in[i][1] = f32_input(i, 1);
   }
   if (run("f32 misc batch", batch, n)) {
      for (unsigned bi = 0; bi < nb; bi++) {
         char out[8];
         snprintf(out, sizeof(out), "%%of%u", bi);
         case_failures = 0;
         for (unsigned i = 0; i < n; i++) {
            uint32_t a = in[i][0], b = in[i][1], want;
            switch (bi) {
            case 0: want = ref_fminmax(a, b, false, false); break;
            case 1: want = ref_fminmax(a, b, true, false); break;
            case 2: want = ref_fminmax(a, b, false, true); break;
            case 3: want = ref_fminmax(flush32(a), flush32(b), true, false); break;
            case 4: want = a & 0x7fffffffu; break;
            case 5: want = a ^ 0x80000000u; break;
            case 6: want = flush32(a) & 0x7fffffffu; break;
            case 7: want = (a & 0x80000000u) | (b & 0x7fffffffu); break;
            default: {
               float sum = ref_bitsf(a) + ref_bitsf(b);
               want = ref_fbits(sum > 0 ? (sum < 1 ? sum : 1.0f) : 0.0f);
               break;
            }
            }
            uint32_t got = (uint32_t)*slot(i, out);
            /* Exact bits, NaN payloads included, except where PTX only
             * says NaN (min/max of two NaNs, add). */
            bool ok = (bi <= 3 || bi == 8) ? same_f32(got, want) : got == want;
            if (!ok) {
               uint64_t x[2] = { a, b };
               mismatch(bodies[bi], i, x, 2, got, want);
            }
         }
      }
   }

   /* testp and every comparison, with .and/.or into p|q. */
   static const char *const cmps[] = { "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu",
                                       "ltu", "leu", "gtu", "geu", "num", "nan" };
   char body[1024];
   size_t len = 0;
   for (unsigned c = 0; c < 14; c++)
      len += (size_t)snprintf(body + len, sizeof(body) - len,
                              "\tsetp.%s.f32 %%p1|%%p2, %%f2, %%f3;\n\tselp.u32 %%r%u, 1, 0, %%p1;\n"
                              , cmps[c], c < 15 ? c + 1 : 15);
   memset(R.data, 0, (size_t)n * R.reg_count * 8);
   for (unsigned i = 0; i < n; i++) {
      *slot(i, "%f2") = in[i][0] = f32_input(i, 0);
      *slot(i, "%f3") = in[i][1] = f32_input(i, 1);
   }
   if (run("setp.f32", body, n)) {
      case_failures = 0;
      for (unsigned i = 0; i < n; i++) {
         float a = ref_bitsf(in[i][0]), b = ref_bitsf(in[i][1]);
         bool u = isnan(a) || isnan(b);
         bool want[14] = { a == b, !u && a != b, a < b, a <= b, a > b, a >= b, u || a == b,
                           a != b, u || a < b, u || a <= b, u || a > b, u || a >= b, !u, u };
         for (unsigned c = 0; c < 14; c++) {
            char r[16];
            snprintf(r, sizeof(r), "%%r%u", (c + 1) % 100);
            if ((*slot(i, r) & 1) != want[c]) {
               uint64_t x[2] = { in[i][0], in[i][1] };
               mismatch(cmps[c], i, x, 2, *slot(i, r), want[c]);
            }
         }
      }
   }
   static const char *const tests[] = { "finite", "infinite", "number", "notanumber", "normal",
                                        "subnormal" };
   len = 0;
   for (unsigned c = 0; c < 6; c++)
      len += (size_t)snprintf(body + len, sizeof(body) - len,
                              "\ttestp.%s.f32 %%p1, %%f2;\n\tselp.u32 %%r%u, 1, 0, %%p1;\n",
                              tests[c], c + 1);
   len += (size_t)snprintf(body + len, sizeof(body) - len,
                           "\tsetp.lt.and.f32 %%p1|%%p2, %%f2, %%f3, %%p3;\n"
                           "\tselp.u32 %%r7, 1, 0, %%p1;\n\tselp.u32 %%r8, 1, 0, %%p2;\n"
                           "\tsetp.ge.xor.s32 %%p4|%%p5, %%r9, %%r10, !%%p3;\n"
                           "\tselp.u32 %%r11, 1, 0, %%p4;\n\tselp.u32 %%r12, 1, 0, %%p5;\n");
   memset(R.data, 0, (size_t)n * R.reg_count * 8);
   for (unsigned i = 0; i < n; i++) {
      *slot(i, "%f2") = in[i][0] = f32_input(i, 0);
      *slot(i, "%f3") = in[i][1] = f32_input(i, 1);
      *slot(i, "%p3") = i & 1;
      *slot(i, "%r9") = in[i][0];
      *slot(i, "%r10") = in[i][1];
   }
   if (run("testp and bool ops", body, n)) {
      case_failures = 0;
      for (unsigned i = 0; i < n; i++) {
         float a = ref_bitsf(in[i][0]), b = ref_bitsf(in[i][1]);
         uint32_t m = in[i][0] & 0x7fffffffu;
         bool p3 = i & 1;
         bool lt = a < b, ge = (int32_t)in[i][0] >= (int32_t)in[i][1];
         bool want[12] = { isfinite(a), isinf(a), !isnan(a), isnan(a),
                           m == 0 || (m >= 0x00800000u && m < 0x7f800000u),
                           m != 0 && m < 0x00800000u, lt && p3, !lt && p3, 0, 0,
                           ge != !p3, !ge != !p3 };
         static const unsigned regs[] = { 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 11, 12 };
         for (unsigned c = 0; c < 12; c++) {
            if (!regs[c])
               continue;
            char r[16];
            snprintf(r, sizeof(r), "%%r%u", regs[c]);
            if ((*slot(i, r) & 1) != want[c]) {
               uint64_t x[2] = { in[i][0], in[i][1] };
               mismatch("testp/bool", i, x, 2, *slot(i, r), want[c]);
            }
         }
      }
   }
}

/* Conversions: three batches. */
static void
check_cvt(void)
{
   const unsigned n = 2048;
   static uint32_t in[MAX_INV];
   static const char *const irnd[] = { "rni", "rzi", "rmi", "rpi" };
   static const char *const modes[] = { "rn", "rz", "rm", "rp" };
   static const struct { const char *t; unsigned bits; bool sign; char cls; } ints[] = {
      { "s32", 32, true, 'r' }, { "u32", 32, false, 'r' }, { "s64", 64, true, 'd' },
      { "u64", 64, false, 'd' }, { "s16", 16, true, 'h' }, { "u8", 8, false, 'r' },
   };
   struct { unsigned t; int m; bool f64; char out[8]; } spec[64];
   unsigned ns = 0, nr = 0, nd = 0, nh = 0;
   static char body[8192];
   size_t len = (size_t)snprintf(body, sizeof(body), "\tcvt.f64.f32 %%fd2, %%f2;\n");

   /* float -> int, every rounding, f32 and f64 sources. */
   for (unsigned t = 0; t < sizeof(ints) / sizeof(ints[0]); t++)
      for (int m = 0; m < 4; m++)
         for (int f64 = 0; f64 < 2; f64++) {
            char c = ints[t].cls;
            snprintf(spec[ns].out, sizeof(spec[ns].out), "%%o%c%u", c,
                     c == 'r' ? nr++ : c == 'd' ? nd++ : nh++);
            len += (size_t)snprintf(body + len, sizeof(body) - len, "\tcvt.%s.%s.%s %s, %s;\n",
                                    irnd[m], ints[t].t, f64 ? "f64" : "f32", spec[ns].out,
                                    f64 ? "%fd2" : "%f2");
            spec[ns].t = t, spec[ns].m = m, spec[ns].f64 = f64;
            ns++;
         }
   memset(R.data, 0, (size_t)n * R.reg_count * 8);
   for (unsigned i = 0; i < n; i++) {
      uint32_t x = f32_input(i, 0);
      if (i % 3 == 0)   /* around the integer ranges' ends */
         x = (uint32_t)(0x4e800000u + (rnd() % 0x02000000u)) ^ (rnd() & 0x80000000u);
      else if (i % 3 == 1)
         x = (uint32_t)(0x3e000000u + (rnd() % 0x0c000000u)) ^ (rnd() & 0x80000000u);
      *slot(i, "%f2") = in[i] = x;
   }
   if (run("cvt float int batch", body, n)) {
      for (unsigned s = 0; s < ns; s++) {
         const unsigned t = spec[s].t;
         uint64_t mask = ints[t].bits == 64 ? ~0ull : (1ull << ints[t].bits) - 1;
         char name[48];
         snprintf(name, sizeof(name), "cvt.%s.%s.%s", irnd[spec[s].m], ints[t].t,
                  spec[s].f64 ? "f64" : "f32");
         case_failures = 0;
         for (unsigned i = 0; i < n; i++) {
            uint64_t want = ref_f2i(ref_bitsf(in[i]), ints[t].bits, ints[t].sign, spec[s].m,
                                    spec[s].f64) & mask;
            uint64_t got = *slot(i, spec[s].out) & mask;
            if (got != want) {
               uint64_t x = in[i];
               mismatch(name, i, &x, 1, got, want);
            }
         }
      }
   }

   /* f32 -> f16 in every mode and back; f32 -> bf16 and back. */
   len = 0;
   for (int m = 0; m < 4; m++)
      len += (size_t)snprintf(body + len, sizeof(body) - len,
                              "\tcvt.%s.f16.f32 %%hf%d, %%f2;\n\tcvt.f32.f16 %%of%d, %%hf%d;\n",
                              modes[m], m + 1, m, m + 1);
   len += (size_t)snprintf(body + len, sizeof(body) - len,
                           "\tcvt.rn.bf16.f32 %%h2, %%f2;\n\tcvt.rz.bf16.f32 %%h3, %%f2;\n"
                           "\tcvt.f32.bf16 %%f4, %%h2;\n");
   memset(R.data, 0, (size_t)n * R.reg_count * 8);
   for (unsigned i = 0; i < n; i++) {
      uint32_t x = f32_input(i, 0);
      if (i % 2)   /* the f16 range, subnormals and ties included */
         x = (uint32_t)(0x33000000u + (rnd() % 0x0c000000u)) ^ (rnd() & 0x80000000u);
      if (i % 4 == 1)
         x &= ~0x1fffu, x |= 0x1000u;   /* exact f16 ties */
      *slot(i, "%f2") = in[i] = x;
   }
   if (run("cvt f16 bf16 batch", body, n)) {
      case_failures = 0;
      for (unsigned i = 0; i < n; i++) {
         uint64_t x = in[i];
         for (int m = 0; m < 4; m++) {
            char hr[8], fr[8];
            snprintf(hr, sizeof(hr), "%%hf%d", m + 1);
            snprintf(fr, sizeof(fr), "%%of%d", m);
            uint16_t want = ref_f32_to_f16(in[i], m);
            uint16_t got = (uint16_t)*slot(i, hr);
            if (got != want)
               mismatch(modes[m], i, &x, 1, got, want);
#if defined(__FLT16_MAX__)
            _Float16 hw;
            memcpy(&hw, &want, 2);
            uint32_t back = ref_fbits((float)hw);
            if (!same_f32((uint32_t)*slot(i, fr), back))
               mismatch("cvt.f32.f16", i, &x, 1, *slot(i, fr), back);
#endif
         }
         uint16_t bn = ref_f32_to_bf16(in[i], false), bz = ref_f32_to_bf16(in[i], true);
         if ((uint16_t)*slot(i, "%h2") != bn)
            mismatch("cvt.rn.bf16.f32", i, &x, 1, *slot(i, "%h2"), bn);
         if ((uint16_t)*slot(i, "%h3") != bz)
            mismatch("cvt.rz.bf16.f32", i, &x, 1, *slot(i, "%h3"), bz);
         if (!same_f32((uint32_t)*slot(i, "%f4"), (uint32_t)bn << 16))
            mismatch("cvt.f32.bf16", i, &x, 1, *slot(i, "%f4"), (uint32_t)bn << 16);
      }
   }

   /* int -> f32, f64 -> f32, s64 -> f64 in every mode, against the host;
    * and int -> int with and without .sat. */
   static const int fe[] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
   static const char *const srcs[] = { "s32 %r2", "u32 %r2", "s64 %rd2", "u64 %rd2", "f64 %fd2" };
   len = 0;
   for (int m = 0; m < 4; m++) {
      for (unsigned k = 0; k < 5; k++) {
         char t[8];
         snprintf(t, sizeof(t), "%.3s", srcs[k]);
         len += (size_t)snprintf(body + len, sizeof(body) - len, "\tcvt.%s.f32.%s %%of%u, %s;\n",
                                 modes[m], t, m * 5 + k, srcs[k] + 4);
      }
      len += (size_t)snprintf(body + len, sizeof(body) - len, "\tcvt.%s.f64.s64 %%fd%d, %%rd2;\n",
                              modes[m], m + 3);
   }
   len += (size_t)snprintf(body + len, sizeof(body) - len,
            "\tcvt.s8.s32 %%or0, %%r2;\n\tcvt.sat.s8.s32 %%or1, %%r2;\n\tcvt.sat.u8.s32 %%or2, %%r2;\n"
            "\tcvt.sat.u32.s32 %%or3, %%r2;\n\tcvt.sat.s32.u32 %%or4, %%r2;\n"
            "\tcvt.sat.s32.s64 %%or5, %%rd2;\n\tcvt.sat.u16.u64 %%oh0, %%rd2;\n"
            "\tcvt.s64.s32 %%od0, %%r2;\n\tcvt.u64.u32 %%od1, %%r2;\n");
   static uint64_t v[MAX_INV];
   memset(R.data, 0, (size_t)n * R.reg_count * 8);
   for (unsigned i = 0; i < n; i++) {
      v[i] = int_input(i, 0, 64);
      if (i % 3 == 1)
         v[i] = rnd() >> (rnd() % 40);
      *slot(i, "%r2") = (uint32_t)v[i];
      *slot(i, "%rd2") = v[i];
      double d = ref_bitsd(rnd());
      if (i % 2)
         d = ldexp((double)(int64_t)rnd(), -(int)(rnd() % 200));
      *slot(i, "%fd2") = ref_dbits(d);
   }
   if (run("cvt to float batch", body, n)) {
      case_failures = 0;
      for (unsigned i = 0; i < n; i++) {
         for (int m = 0; m < 4; m++) {
            int old = fegetround();
            fesetround(fe[m]);
            volatile int32_t s32 = (int32_t)v[i];
            volatile uint32_t u32 = (uint32_t)v[i];
            volatile int64_t s64 = (int64_t)v[i];
            volatile uint64_t u64 = v[i];
            volatile double d = ref_bitsd(*slot(i, "%fd2"));
            uint32_t want[5] = { ref_fbits((float)s32), ref_fbits((float)u32),
                                 ref_fbits((float)s64), ref_fbits((float)u64), ref_fbits((float)d) };
            uint64_t want64 = ref_dbits((double)s64);
            fesetround(old);
            for (unsigned k = 0; k < 5; k++) {
               char r[16];
               snprintf(r, sizeof(r), "%%of%u", m * 5 + k);
               if (!same_f32((uint32_t)*slot(i, r), want[k])) {
                  uint64_t x[2] = { v[i], *slot(i, "%fd2") };
                  mismatch(srcs[k], i, x, 2, *slot(i, r), want[k]);
               }
            }
            char r[16];
            snprintf(r, sizeof(r), "%%fd%d", m + 3);
            if (*slot(i, r) != want64)
               mismatch("cvt.f64.s64", i, &v[i], 1, *slot(i, r), want64);
         }
         int32_t si = (int32_t)v[i];
         uint32_t u = (uint32_t)v[i];
         int64_t l = (int64_t)v[i];
         uint64_t want[9] = {
            (uint32_t)(int32_t)(int8_t)si, (uint32_t)(si > 127 ? 127 : si < -128 ? -128 : si),
            (uint32_t)(si > 255 ? 255 : si < 0 ? 0 : si), (uint32_t)(si < 0 ? 0 : si),
            u > 0x7fffffffu ? 0x7fffffffu : u,
            (uint32_t)(l > INT32_MAX ? INT32_MAX : l < INT32_MIN ? INT32_MIN : l),
            v[i] > 0xffff ? 0xffff : v[i], (uint64_t)(int64_t)si, u,
         };
         static const char *const regs[] = { "%or0", "%or1", "%or2", "%or3", "%or4", "%or5",
                                             "%oh0", "%od0", "%od1" };
         for (unsigned k = 0; k < 9; k++) {
            uint64_t mk = regs[k][2] == 'h' ? 0xffff : regs[k][2] == 'r' ? 0xffffffffu : ~0ull;
            if ((*slot(i, regs[k]) & mk) != want[k])
               mismatch(regs[k], i, &v[i], 1, *slot(i, regs[k]), want[k]);
         }
      }
   }
}

/* bf16 and integers (sm_90's cvt): bf16 to s32/u32/s64/u64/s16/u8 in
 * every integer rounding, and s32/u32/s64/u64/s16/u16 to bf16 in every
 * rounding, against ref_f2i and ref_int_to_bf16. */
static void
check_cvt_bf16_int(void)
{
   const unsigned n = 2048;
   static const char *const irnd[] = { "rni", "rzi", "rmi", "rpi" };
   static const char *const modes[] = { "rn", "rz", "rm", "rp" };
   static const struct { const char *t; unsigned bits; bool sign; const char *out; } to[] = {
      { "s32", 32, true, "%%or%u" }, { "u32", 32, false, "%%or%u" }, { "u8", 8, false, "%%or%u" },
      { "s64", 64, true, "%%od%u" }, { "u64", 64, false, "%%od%u" }, { "s16", 16, true, "%%oh%u" },
   };
   static const struct { const char *t; unsigned bits; bool sign; const char *src; } from[] = {
      { "s32", 32, true, "%r2" }, { "u32", 32, false, "%r2" }, { "s64", 64, true, "%rd2" },
      { "u64", 64, false, "%rd2" }, { "s16", 16, true, "%h3" }, { "u16", 16, false, "%h3" },
   };
   static uint16_t h[MAX_INV];
   static uint64_t v[MAX_INV];
   static char body[4096];
   char outs[6][4][8];
   unsigned nr = 0, nd = 0, nh = 0;
   size_t len = 0;

   for (unsigned t = 0; t < 6; t++)
      for (int m = 0; m < 4; m++) {
         unsigned idx = to[t].out[3] == 'r' ? nr++ : to[t].out[3] == 'd' ? nd++ : nh++;
         snprintf(outs[t][m], sizeof(outs[t][m]), to[t].out, idx);
         len += (size_t)snprintf(body + len, sizeof(body) - len, "\tcvt.%s.%s.bf16 %s, %%h2;\n",
                                 irnd[m], to[t].t, outs[t][m]);
      }
   for (unsigned i = 0; i < n; i++) {
      uint64_t r = rnd();
      /* Every exponent from 2^-8 to 2^70 (past every integer range),
       * halves among them; specials and random bits too. */
      h[i] = (uint16_t)((((r >> 8) % 79 + 119) << 7) | (r & 0x7f) | (r >> 63 ? 0x8000 : 0));
      if (i % 8 == 0)
         h[i] = (uint16_t)(r >> 17);
      if (i < 8) {
         static const uint16_t sp[] = { 0, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffff, 0x3f00, 0xbfc0 };
         h[i] = sp[i];
      }
   }
   memset(R.data, 0, (size_t)n * R.reg_count * 8);
   for (unsigned i = 0; i < n; i++)
      *slot(i, "%h2") = h[i];
   if (run("cvt bf16 to int batch", body, n)) {
      case_failures = 0;
      for (unsigned i = 0; i < n; i++)
         for (unsigned t = 0; t < 6; t++)
            for (int m = 0; m < 4; m++) {
               uint64_t mask = to[t].bits == 64 ? ~0ull : (1ull << to[t].bits) - 1;
               uint64_t want = ref_f2i(ref_bitsf((uint32_t)h[i] << 16), to[t].bits, to[t].sign, m,
                                       false) & mask;
               uint64_t got = *slot(i, outs[t][m]) & mask;
               if (got != want) {
                  char name[32];
                  uint64_t x = h[i];
                  snprintf(name, sizeof(name), "cvt.%s.%s.bf16", irnd[m], to[t].t);
                  mismatch(name, i, &x, 1, got, want);
               }
            }
   }

   for (unsigned i = 0; i < n; i++) {
      v[i] = int_input(i, 0, 64);
      if (i % 4 == 1)   /* short values with ties and sticky bits */
         v[i] = rnd() >> (rnd() % 64);
      else if (i % 4 == 2)
         v[i] = ((rnd() & 0x1ff) | 0x100) << (rnd() % 55) | (rnd() & 1 ? 0 : rnd() & 1);
      if (i % 8 == 3)
         v[i] = 0 - v[i];
   }
   for (int m = 0; m < 4; m++) {
      len = 0;
      for (unsigned k = 0; k < 6; k++)
         len += (size_t)snprintf(body + len, sizeof(body) - len, "\tcvt.%s.bf16.%s %%oh%u, %s;\n",
                                 modes[m], from[k].t, k, from[k].src);
      memset(R.data, 0, (size_t)n * R.reg_count * 8);
      for (unsigned i = 0; i < n; i++) {
         *slot(i, "%r2") = (uint32_t)v[i];
         *slot(i, "%rd2") = v[i];
         *slot(i, "%h3") = (uint16_t)v[i];
      }
      char rn[32];
      snprintf(rn, sizeof(rn), "cvt int to bf16 %s", modes[m]);
      if (!run(rn, body, n))
         continue;
      case_failures = 0;
      for (unsigned i = 0; i < n; i++)
         for (unsigned k = 0; k < 6; k++) {
            char reg[8];
            snprintf(reg, sizeof(reg), "%%oh%u", k);
            uint16_t want = ref_int_to_bf16(v[i], from[k].bits, from[k].sign, m);
            uint16_t got = (uint16_t)*slot(i, reg);
            if (got != want) {
               char name[32];
               snprintf(name, sizeof(name), "cvt.%s.bf16.%s", modes[m], from[k].t);
               mismatch(name, i, &v[i], 1, got, want);
            }
         }
   }
}

/*
 * f16 conversions and arithmetic near and below the f16 subnormal range,
 * for the target as the device describes it and again with
 * denorm_preserve_f16 false, which makes the lowering do every f16
 * conversion on the bits (what a device that flushes f16 subnormals,
 * NVIDIA's, gets); lavapipe then runs that path too.
 */
/* .sat on an f16 result: NaN and negatives to +0, above 1 to 1. */
static uint16_t
sat16(uint16_t h)
{
   return (h & 0x7fff) > 0x7c00 || (h & 0x8000) ? 0 : h >= 0x3c00 ? 0x3c00 : h;
}

static bool
same_f64(uint64_t got, uint64_t want)
{
   return got == want || (isnan(ref_bitsd(got)) && isnan(ref_bitsd(want)));
}

/* f32 inputs for f32 -> f16: around every f16 number of the subnormal and
 * first normal binades (each value and the midpoint to the next, 0 and 1
 * f32 ulp either side), then below the subnormals, around overflow, and
 * specials. */
static uint32_t
f16_edge_input(unsigned i)
{
   static const uint32_t special[] = { 0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                       0xffc00001u, 0x00000001u, 0x007fffffu, 0x00800000u,
                                       0x477fe000u, 0x477fefffu, 0x477ff000u, 0x477ff001u,
                                       0x477fffffu, 0x47800000u, 0x7f7fffffu, 0x33000000u,
                                       0x33000001u, 0x32ffffffu, 0x337fffffu, 0x33800000u };
   const unsigned ns = sizeof(special) / sizeof(special[0]);
   uint32_t sign = (i & 1) ? 0x80000000u : 0;
   unsigned j = i >> 1;
   if (j < 0x800 * 6) {
      unsigned k = j / 6, w = j % 6;
      /* k * 2^-24 (k < 0x800 covers both binades in quanta of 2^-24) */
      double v = ldexp(k, -24) + (w >= 3 ? ldexp(1, -25) : 0);
      uint32_t b = ref_fbits((float)v);
      b = w % 3 == 0 ? b : w % 3 == 1 ? b + 1 : (b ? b - 1 : 0);
      return b | sign;
   }
   j -= 0x800 * 6;
   if (j < ns)
      return special[j] ^ sign;
   /* Random: below the subnormals, in the f16 range, near overflow. */
   switch (rnd() % 3) {
   case 0: return (uint32_t)(0x2a000000u + rnd() % 0x09800000u) | sign;
   case 1: return (uint32_t)(0x33000000u + rnd() % 0x14800000u) | sign;
   default: return (uint32_t)(0x477f0000u + rnd() % 0x00200000u) | sign;
   }
}

static void
check_f16_target(const char *what)
{
   static const char *const modes[] = { "rn", "rz", "rm", "rp" };
   static char body[8192];
   static uint64_t in[MAX_INV][8];
   const unsigned n = MAX_INV;
   unsigned before = R.failures;
   size_t len;

   /* f16 -> f32, f64 and integers: all 65,536 patterns, 8 an invocation. */
   len = 0;
   for (unsigned k = 0; k < 8; k++)
      len += (size_t)snprintf(body + len, sizeof(body) - len,
                              "\tcvt.f32.f16 %%of%u, %%hf%u;\n\tcvt.f64.f16 %%od%u, %%hf%u;\n"
                              "\tcvt.rpi.s32.f16 %%or%u, %%hf%u;\n\tcvt.rmi.s32.f16 %%or%u, %%hf%u;\n",
                              k, k, k, k, k, k, k + 8, k);
   memset(R.data, 0, (size_t)n * R.reg_count * 8);
   for (unsigned i = 0; i < n; i++)
      for (unsigned k = 0; k < 8; k++) {
         char r[8];
         snprintf(r, sizeof(r), "%%hf%u", k);
         *slot(i, r) = in[i][k] = i * 8 + k;
      }
   if (run("f16 widen batch", body, n)) {
      case_failures = 0;
      for (unsigned i = 0; i < n; i++)
         for (unsigned k = 0; k < 8; k++) {
            double v = ref_f16_value((uint16_t)in[i][k]);
            char r[8];
            snprintf(r, sizeof(r), "%%of%u", k);
            if (!same_f32((uint32_t)*slot(i, r), ref_fbits((float)v)))
               mismatch("cvt.f32.f16", i, &in[i][k], 1, *slot(i, r), ref_fbits((float)v));
            snprintf(r, sizeof(r), "%%od%u", k);
            if (!same_f64(*slot(i, r), ref_dbits(v)))
               mismatch("cvt.f64.f16", i, &in[i][k], 1, *slot(i, r), ref_dbits(v));
            for (unsigned m = 0; m < 2; m++) {
               uint32_t want = (uint32_t)ref_f2i(v, 32, true, m ? 2 : 3, false);
               snprintf(r, sizeof(r), "%%or%u", k + 8 * m);
               if ((uint32_t)*slot(i, r) != want)
                  mismatch(m ? "cvt.rmi.s32.f16" : "cvt.rpi.s32.f16", i, &in[i][k], 1,
                           *slot(i, r), want);
            }
         }
   }

   /* f32 -> f16 and f64 -> f16 in every mode: 4 inputs an invocation,
    * their 16 results in %h0-7 and %oh0-7. */
   for (int f64 = 0; f64 < 2; f64++) {
      len = 0;
      for (unsigned k = 0; k < 4; k++)
         for (int m = 0; m < 4; m++) {
            unsigned o = k * 4 + (unsigned)m;
            len += (size_t)snprintf(body + len, sizeof(body) - len, "\tcvt.%s.f16.%s %%%s%u, %%%s%u;\n",
                                    modes[m], f64 ? "f64" : "f32", o < 8 ? "h" : "oh", o % 8,
                                    f64 ? "fd" : "f", k);
         }
      {
         memset(R.data, 0, (size_t)n * R.reg_count * 8);
         for (unsigned i = 0; i < n; i++)
            for (unsigned k = 0; k < 4; k++) {
               uint32_t x = f16_edge_input(i * 4 + k);
               char r[8];
               snprintf(r, sizeof(r), "%%%s%u", f64 ? "fd" : "f", k);
               if (f64) {
                  /* The f32 value, or it nudged by a bit far below f32's
                   * precision (the sticky part of the f64 path). */
                  uint64_t d = ref_dbits((double)ref_bitsf(x));
                  if ((rnd() & 1) && (d & 0x7ff0000000000000ull) != 0x7ff0000000000000ull &&
                      (d & 0x7fffffffffffffffull) != 0)
                     d += (rnd() & 1) ? 1 : (uint64_t)-1;
                  in[i][k] = d;
               } else {
                  in[i][k] = x;
               }
               *slot(i, r) = in[i][k];
            }
         if (!run(f64 ? "f64 to f16 batch" : "f32 to f16 batch", body, n))
            break;
         case_failures = 0;
         for (unsigned i = 0; i < n; i++)
            for (unsigned k = 0; k < 4; k++)
               for (int m = 0; m < 4; m++) {
                  unsigned o = k * 4 + (unsigned)m;
                  char r[8], name[24];
                  snprintf(r, sizeof(r), "%%%s%u", o < 8 ? "h" : "oh", o % 8);
                  uint16_t want = f64 ? ref_f64_to_f16(ref_bitsd(in[i][k]), m)
                                      : ref_f32_to_f16((uint32_t)in[i][k], m);
                  uint16_t got = (uint16_t)*slot(i, r);
                  snprintf(name, sizeof(name), "cvt.%s.f16.%s", modes[m], f64 ? "f64" : "f32");
                  if (got != want)
                     mismatch(name, i, &in[i][k], 1, got, want);
               }
      }
   }

   /* f16 arithmetic and comparisons on small numbers (computed through f32,
    * whose conversions are the ones above). */
   const char *arith = "\tadd.rn.f16 %h0, %hf0, %hf1;\n\tsub.f16 %h1, %hf0, %hf1;\n"
                       "\tmul.rn.f16 %h2, %hf0, %hf1;\n\tfma.rn.f16 %h3, %hf0, %hf1, %hf2;\n"
                       "\tmin.f16 %h4, %hf0, %hf1;\n\tmax.f16 %h5, %hf0, %hf1;\n"
                       "\tadd.rn.sat.f16 %h6, %hf0, %hf1;\n\tsetp.lt.f16 %p1, %hf0, %hf1;\n"
                       "\tcvt.rpi.f16.f16 %h7, %hf0;\n\tcvt.rn.f16.s32 %oh0, %r1;\n"
                       "\tcvt.rz.f16.s32 %oh1, %r1;\n\tcvt.rm.f16.s32 %oh2, %r1;\n"
                       "\tcvt.rp.f16.s32 %oh3, %r1;\n\tcvt.rn.sat.f16.u16 %oh4, %hf1;\n"
                       "\tcvt.rn.sat.f16.f32 %oh5, %f1;\n\tcvt.rm.sat.f16.f64 %oh6, %fd1;\n";
   memset(R.data, 0, (size_t)n * R.reg_count * 8);
   for (unsigned i = 0; i < n; i++)
      for (unsigned k = 0; k < 3; k++) {
         /* Mostly subnormal or just above; some larger for fma's product. */
         uint16_t h = (uint16_t)(rnd() % (k == 2 ? 0x0c00 : (i & 4) ? 0x3c00 : 0x0800));
         h |= (uint16_t)((rnd() & 1) << 15);
         char r[8];
         snprintf(r, sizeof(r), "%%hf%u", k);
         *slot(i, r) = in[i][k] = h;
      }
   for (unsigned i = 0; i < n; i++) {
      /* Integers to f16: around every power of two up to past 65,520. */
      int32_t v = (int32_t)(rnd() % 0x20000u) >> (rnd() % 17);
      *slot(i, "%r1") = in[i][3] = (uint32_t)((rnd() & 1) ? -v : v);
      *slot(i, "%f1") = in[i][4] = (i & 1) ? f16_edge_input(i) ^ 0x80000000u * (rnd() & 1)
                                           : (uint32_t)(0x3f000000u + rnd() % 0x01800000u);
      *slot(i, "%fd1") = in[i][5] = ref_dbits((double)ref_bitsf((uint32_t)in[i][4]) *
                                               (1 + 0x1p-40 * (double)(rnd() % 64)));
   }
   if (run("f16 arithmetic batch", arith, n)) {
      case_failures = 0;
      for (unsigned i = 0; i < n; i++) {
         double a = ref_f16_value((uint16_t)in[i][0]), b = ref_f16_value((uint16_t)in[i][1]);
         double c = ref_f16_value((uint16_t)in[i][2]);
         uint16_t ab = (uint16_t)in[i][0], bb = (uint16_t)in[i][1];
         uint16_t sum = ref_f64_to_f16(a + b, 0);
         /* An exact zero sum: +0 unless both are -0 (round to nearest). */
         if (a + b == 0)
            sum = (ab & bb & 0x8000) ? 0x8000 : 0;
         uint16_t diff = ref_f64_to_f16(a - b, 0);
         if (a - b == 0)
            diff = (ab & ~bb & 0x8000) ? 0x8000 : 0;
         uint16_t prod = ref_f64_to_f16(a * b, 0);
         if (a * b == 0)
            prod = (uint16_t)((ab ^ bb) & 0x8000);
         double fm = a * b + c;   /* exact in f64: 22-bit product, span < 53 bits */
         uint16_t fma = ref_f64_to_f16(fm, 0);
         if (fm == 0)
            fma = (a * b == 0 && c == 0 && signbit(a * b) && signbit(c)) ? 0x8000 : 0;
         bool lt = a < b;
         uint16_t mn = a < b || (a == b && (ab & 0x8000)) ? ab : bb;
         uint16_t mx = a > b || (a == b && !(ab & 0x8000)) ? ab : bb;
         uint16_t sat = (sum & 0x8000) ? 0 : sum >= 0x3c00 ? 0x3c00 : sum;
         double up = ceil(a);
         uint16_t ceilv = ref_f64_to_f16(up, 0);
         if (up == 0)
            ceilv = (uint16_t)(ab & 0x8000);
         int32_t iv = (int32_t)in[i][3];
         /* .sat on an integer source: [0, 1], so 0 or 1 (%hf1 read as u16). */
         uint16_t usat = bb == 0 ? 0 : 0x3c00;
         const struct { const char *r; uint64_t want; } want[] = {
            { "%h0", sum }, { "%h1", diff }, { "%h2", prod }, { "%h3", fma }, { "%h4", mn },
            { "%h5", mx }, { "%h6", sat }, { "%p1", lt }, { "%h7", ceilv },
            { "%oh0", ref_f64_to_f16(iv, 0) }, { "%oh1", ref_f64_to_f16(iv, 1) },
            { "%oh2", ref_f64_to_f16(iv, 2) }, { "%oh3", ref_f64_to_f16(iv, 3) },
            { "%oh4", usat },
            { "%oh5", sat16(ref_f32_to_f16((uint32_t)in[i][4], 0)) },
            { "%oh6", sat16(ref_f64_to_f16(ref_bitsd(in[i][5]), 2)) },
         };
         for (unsigned k = 0; k < sizeof(want) / sizeof(want[0]); k++)
            if ((*slot(i, want[k].r) & 0xffff) != want[k].want)
               mismatch(want[k].r, i, in[i], 3, *slot(i, want[k].r), want[k].want);
      }
   }
   printf("f16 (%s): %u mismatches\n", what, R.failures - before);
}

/* A 16-bit lane: specials, subnormals of both formats, random. */
static uint16_t
lane_input(void)
{
   static const uint16_t special[] = { 0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7f80, 0xff80, 0x7fc0,
                                       0x3c00, 0xbc00, 0x3f80, 0x0001, 0x8001, 0x03ff, 0x0400,
                                       0x7bff, 0x007f, 0x0080, 0x7f7f };
   switch (rnd() % 6) {
   case 0: return special[rnd() % (sizeof(special) / sizeof(special[0]))];
   case 1: return (uint16_t)((rnd() % 0x0800) | ((rnd() & 1) << 15));   /* f16 subnormal, small */
   case 2: return (uint16_t)((rnd() % 0x0100) | ((rnd() & 1) << 15));   /* bf16 subnormal, small */
   default: return (uint16_t)rnd();
   }
}

/* f16x2, bf16x2 and bf16 arithmetic and the packing conversions. */
static void
check_packed(void)
{
   static const struct { const char *text; enum ref_pop op; bool bf, x2; } ins[] = {
      { "add.rn.f16x2", P_ADD, false, true }, { "sub.f16x2", P_SUB, false, true },
      { "mul.rn.f16x2", P_MUL, false, true }, { "fma.rn.f16x2", P_FMA, false, true },
      { "min.f16x2", P_MIN, false, true }, { "max.f16x2", P_MAX, false, true },
      { "max.NaN.f16x2", P_MAXNAN, false, true }, { "neg.f16x2", P_NEG, false, true },
      { "abs.f16x2", P_ABS, false, true }, { "add.rn.sat.f16x2", P_ADDSAT, false, true },
      { "fma.rn.relu.f16x2", P_FMARELU, false, true },
      { "add.rn.bf16x2", P_ADD, true, true }, { "sub.rn.bf16x2", P_SUB, true, true },
      { "mul.rn.bf16x2", P_MUL, true, true }, { "fma.rn.bf16x2", P_FMA, true, true },
      { "min.bf16x2", P_MIN, true, true }, { "max.NaN.bf16x2", P_MAXNAN, true, true },
      { "neg.bf16x2", P_NEG, true, true }, { "abs.bf16x2", P_ABS, true, true },
      { "fma.rn.relu.bf16x2", P_FMARELU, true, true },
      { "add.rn.bf16", P_ADD, true, false }, { "mul.rn.bf16", P_MUL, true, false },
      { "fma.rn.bf16", P_FMA, true, false }, { "max.bf16", P_MAX, true, false },
   };
   const unsigned ni = sizeof(ins) / sizeof(ins[0]);
   const unsigned n = MAX_INV;
   static char body[8192];
   static uint32_t in[MAX_INV][5];
   size_t len = 0;
   unsigned nr = 0, nh = 0;
   char out[32][8];

   for (unsigned k = 0; k < ni; k++) {
      unsigned nsrc = ins[k].op == P_FMA || ins[k].op == P_FMARELU ? 3
                      : ins[k].op == P_NEG || ins[k].op == P_ABS ? 1 : 2;
      const char *s = ins[k].x2 ? "%r" : "%h";
      if (ins[k].x2)
         snprintf(out[k], sizeof(out[k]), "%%or%u", nr++);
      else
         snprintf(out[k], sizeof(out[k]), "%%oh%u", nh++);
      len += (size_t)snprintf(body + len, sizeof(body) - len, "\t%s %s, %s1", ins[k].text, out[k], s);
      for (unsigned i = 1; i < nsrc; i++)
         len += (size_t)snprintf(body + len, sizeof(body) - len, ", %s%u", s, i + 1);
      len += (size_t)snprintf(body + len, sizeof(body) - len, ";\n");
   }
   len += (size_t)snprintf(body + len, sizeof(body) - len,
                           "\tcvt.rn.f16x2.f32 %%or40, %%f1, %%f2;\n\tcvt.rz.f16x2.f32 %%or41, %%f1, %%f2;\n"
                           "\tcvt.rn.bf16x2.f32 %%or42, %%f1, %%f2;\n\tcvt.rz.bf16x2.f32 %%or43, %%f1, %%f2;\n");
   memset(R.data, 0, (size_t)n * R.reg_count * 8);
   for (unsigned i = 0; i < n; i++) {
      for (unsigned j = 0; j < 3; j++) {
         in[i][j] = (uint32_t)lane_input() | (uint32_t)lane_input() << 16;
         char r[8];
         snprintf(r, sizeof(r), "%%r%u", j + 1);
         *slot(i, r) = in[i][j];
         snprintf(r, sizeof(r), "%%h%u", j + 1);
         *slot(i, r) = in[i][j] & 0xffff;
      }
      for (unsigned j = 3; j < 5; j++) {
         in[i][j] = f16_edge_input(i * 2 + j - 3);
         if (i % 3 == 0)
            in[i][j] = (uint32_t)rnd();
         *slot(i, j == 3 ? "%f1" : "%f2") = in[i][j];
      }
   }
   if (!run("packed batch", body, n))
      return;
   unsigned before = R.failures;
   for (unsigned k = 0; k < ni; k++) {
      case_failures = 0;
      for (unsigned i = 0; i < n; i++) {
         uint32_t want = 0;
         for (unsigned lane = 0; lane < (ins[k].x2 ? 2u : 1u); lane++) {
            unsigned sh = lane * 16;
            want |= (uint32_t)ref_lane(ins[k].op, (uint16_t)(in[i][0] >> sh),
                                       (uint16_t)(in[i][1] >> sh), (uint16_t)(in[i][2] >> sh),
                                       ins[k].bf) << sh;
         }
         uint32_t got = (uint32_t)*slot(i, out[k]) & (ins[k].x2 ? 0xffffffffu : 0xffffu);
         if (got != want) {
            uint64_t x[3] = { in[i][0], in[i][1], in[i][2] };
            mismatch(ins[k].text, i, x, 3, got, want);
         }
      }
   }
   case_failures = 0;
   for (unsigned i = 0; i < n; i++) {
      uint32_t a = in[i][3], b = in[i][4];
      uint32_t want[4] = {
         (uint32_t)ref_f32_to_f16(a, 0) << 16 | ref_f32_to_f16(b, 0),
         (uint32_t)ref_f32_to_f16(a, 1) << 16 | ref_f32_to_f16(b, 1),
         (uint32_t)ref_f32_to_bf16(a, false) << 16 | ref_f32_to_bf16(b, false),
         (uint32_t)ref_f32_to_bf16(a, true) << 16 | ref_f32_to_bf16(b, true),
      };
      for (unsigned k = 0; k < 4; k++) {
         char r[8];
         snprintf(r, sizeof(r), "%%or%u", 40 + k);
         if ((uint32_t)*slot(i, r) != want[k]) {
            uint64_t x[2] = { a, b };
            mismatch(r, i, x, 2, *slot(i, r), want[k]);
         }
      }
   }
   printf("f16x2, bf16x2, bf16: %u instructions, %u mismatches\n", ni + 4, R.failures - before);
}

static void
check_f16(void)
{
   /* The compiler converts f16 on the bits whatever the device reports
    * (spirv_lower_float.c says why); where it reports f16 subnormals
    * preserved, the module also declares DenormPreserve 16, so that
    * target is checked, and the other one as well. */
   bool preserve = full.denorm_preserve_f16;
   check_f16_target(preserve ? "device preserves f16 subnormals (DenormPreserve 16): on the bits"
                             : "device may flush f16 subnormals: on the bits");
   if (preserve) {
      full.denorm_preserve_f16 = false;
      check_f16_target("without DenormPreserve 16: on the bits");
      full.denorm_preserve_f16 = true;
   }
   check_packed();
}

/* The .approx instructions, within PTX's documented bounds. */
static void
check_approx(void)
{
   const unsigned n = 2048;
   static const struct {
      const char *body;
      int fn;
      double lo, hi;        /* the input range the bound holds on */
      double rel, abs_err;  /* the bound: relative, or absolute */
   } cases[] = {
      /* PTX ISA: ex2.approx.f32 max relative error 2^-22 (full range) */
      { "\tex2.approx.f32 %f1, %f2;\n", 0, -120, 120, 0x1p-22, 0 },
      /* lg2.approx.f32: max absolute error 2^-22.6 for x in [0.5, 2]; relative 2^-22 elsewhere */
      { "\tlg2.approx.f32 %f1, %f2;\n", 1, 0x1p-100, 0x1p100, 0x1p-22, 0x1p-22 },
      /* sin/cos.approx.f32: max absolute error 2^-20.9 in [-pi, pi] */
      { "\tsin.approx.f32 %f1, %f2;\n", 2, -3.14159, 3.14159, 0, 0x1p-20 },
      { "\tcos.approx.f32 %f1, %f2;\n", 3, -3.14159, 3.14159, 0, 0x1p-20 },
      /* tanh.approx.f32: max relative error 2^-10.987 */
      { "\ttanh.approx.f32 %f1, %f2;\n", 4, -20, 20, 0x1.02p-11, 0 },
      /* the same near 0, log-uniform from the subnormals to 1, where a
       * device's Tanh from exponentials loses to cancellation */
      { "\ttanh.approx.f32 %f1, %f2;\n", 4, 0x1p-140, 1, 0x1.02p-11, 0 },
      /* rsqrt.approx.f32: max relative error 2^-22.9 */
      { "\trsqrt.approx.f32 %f1, %f2;\n", 5, 0x1p-149, 0x1p120, 0x1p-22, 0 },
      /* sqrt.approx.f32: max relative error 2^-23 */
      { "\tsqrt.approx.f32 %f1, %f2;\n", 6, 0x1p-120, 0x1p120, 0x1p-22, 0 },
      /* rcp.approx.f32: max 1 ulp (relative 2^-23) */
      { "\trcp.approx.f32 %f1, %f2;\n", 7, 0x1p-120, 0x1p120, 0x1p-22, 0 },
      /* div.approx.f32: max 2 ulp for |b| in [2^-126, 2^126] */
      { "\tdiv.approx.f32 %f1, %f3, %f2;\n", 8, 0x1p-60, 0x1p60, 0x1p-21, 0 },
   };
   const unsigned nc = sizeof(cases) / sizeof(cases[0]);
   static char batch[2048];
   size_t blen = 0;
   static uint32_t xs[16][MAX_INV];
   for (unsigned c = 0; c < nc; c++) {
      /* Case c reads %f(c + 2) (div: %f1 / %f(c + 2)) into %of(c). */
      const char *op = cases[c].body;
      char name[32];
      snprintf(name, sizeof(name), "%.*s", (int)strcspn(op + 1, " "), op + 1);
      if (cases[c].fn == 8)
         blen += (size_t)snprintf(batch + blen, sizeof(batch) - blen, "\t%s %%of%u, %%f1, %%f%u;\n",
                                  name, c, c + 2);
      else
         blen += (size_t)snprintf(batch + blen, sizeof(batch) - blen, "\t%s %%of%u, %%f%u;\n", name,
                                  c, c + 2);
   }
   memset(R.data, 0, (size_t)n * R.reg_count * 8);
   for (unsigned i = 0; i < n; i++) {
      *slot(i, "%f1") = ref_fbits(1.5f);
      for (unsigned c = 0; c < nc; c++) {
         double t = (double)(rnd() >> 11) / 9007199254740992.0;
         double x;
         if (cases[c].lo > 0)   /* log-uniform */
            x = exp2(log2(cases[c].lo) + t * (log2(cases[c].hi) - log2(cases[c].lo)));
         else
            x = cases[c].lo + t * (cases[c].hi - cases[c].lo);
         char r[16];
         snprintf(r, sizeof(r), "%%f%u", c + 2);
         *slot(i, r) = xs[c][i] = ref_fbits((float)x);
      }
   }
   if (run("approx batch", batch, n)) {
      for (unsigned c = 0; c < nc; c++) {
         case_failures = 0;
         double worst = 0;
         char out[8];
         snprintf(out, sizeof(out), "%%of%u", c);
         for (unsigned i = 0; i < n; i++) {
            double x = ref_bitsf(xs[c][i]), want;
            switch (cases[c].fn) {
            case 0: want = exp2(x); break;
            case 1: want = log2(x); break;
            case 2: want = sin(x); break;
            case 3: want = cos(x); break;
            case 4: want = tanh(x); break;
            case 5: want = 1 / sqrt(x); break;
            case 6: want = sqrt(x); break;
            case 7: want = 1 / x; break;
            default: want = 1.5 / x; break;
            }
            double got = ref_bitsf((uint32_t)*slot(i, out));
            double err = fabs(got - want);
            bool ok;
            if (cases[c].fn == 1 && x >= 0.5 && x <= 2)
               ok = err <= cases[c].abs_err, err = err / cases[c].abs_err;
            else if (cases[c].rel)
               ok = err <= cases[c].rel * fabs(want), err = err / (cases[c].rel * fabs(want));
            else
               ok = err <= cases[c].abs_err, err = err / cases[c].abs_err;
            if (isnan(got) || isnan(err))
               ok = false, err = 1e9;
            if (err > worst)
               worst = err;
            if (!ok) {
               uint64_t xx = xs[c][i];
               mismatch(cases[c].body, i, &xx, 1, *slot(i, out), ref_fbits((float)want));
            }
         }
         printf("%-34.*s worst error %.3f of the bound\n", (int)strlen(cases[c].body) - 2,
                cases[c].body + 1, worst);
      }
   }
   /* Special values PTX defines. */
   const char *body = "\tex2.approx.f32 %f1, %f2;\n\tlg2.approx.f32 %f3, %f2;\n"
                      "\trsqrt.approx.f32 %f4, %f2;\n\tsqrt.approx.f32 %f5, %f2;\n"
                      "\trcp.approx.f32 %f6, %f2;\n";
   static const uint32_t sp[] = { 0xff800000u, 0x00000000u, 0x80000000u, 0xbf800000u,
                                  0x7f800000u, 0x7fc00000u };
   static const uint32_t want[6][5] = {
      { 0, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x80000000 },              /* -inf */
      { 0x3f800000, 0xff800000, 0x7f800000, 0, 0x7f800000 },              /* +0 */
      { 0x3f800000, 0xff800000, 0xff800000, 0x80000000, 0xff800000 },     /* -0 */
      { 0x3f000000, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0xbf800000 },     /* -1 */
      { 0x7f800000, 0x7f800000, 0, 0x7f800000, 0 },                       /* +inf */
      { 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff },     /* NaN */
   };
   memset(R.data, 0, 6 * (size_t)R.reg_count * 8);
   for (unsigned i = 0; i < 6; i++)
      *slot(i, "%f2") = sp[i];
   if (run("approx specials", body, 6)) {
      static const char *const regs[] = { "%f1", "%f3", "%f4", "%f5", "%f6" };
      for (unsigned i = 0; i < 6; i++)
         for (unsigned k = 0; k < 5; k++) {
            uint32_t got = (uint32_t)*slot(i, regs[k]);
            if (!same_f32(got, want[i][k])) {
               uint64_t x = sp[i];
               mismatch(regs[k], i, &x, 1, got, want[i][k]);
            }
         }
   }
}

/* CUVK_ALU_RUN=int,rounded,f64,misc,cvt,approx,f16 picks families (all by
 * default), for a quicker run while working on one. */
static bool
family(const char *name)
{
   const char *only = getenv("CUVK_ALU_RUN");
   return !only || strstr(only, name);
}

int
main(void)
{
   setvbuf(stdout, NULL, _IOLBF, 0);
   if (!runner_init()) {
      runner_finish();
      return vkh_exit(vkh_finish(&R.h) + 1);
   }
   double t0 = unit_now_s();
   if (family("int"))
      check_int();
   if (family("rounded"))
      check_f32_rounded();
   if (family("f64"))
      check_f64_rounded();
   if (family("misc"))
      check_f32_misc();
   if (family("cvt")) {
      check_cvt();
      check_cvt_bf16_int();
   }
   if (family("approx"))
      check_approx();
   if (family("f16"))
      check_f16();
   printf("%.1f s\n", unit_now_s() - t0);
   printf("%u cases, %u invocations, %u mismatches\n", R.cases, R.invocations, R.failures);
   VKH_CHECK(R.failures == 0);
   runner_finish();
   return vkh_exit(vkh_finish(&R.h));
}
