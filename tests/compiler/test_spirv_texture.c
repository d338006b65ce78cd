/*
 * The translation of texture and surface instructions (spirv_texture.c):
 * every kernel of tests/kernels/texture.cu through spirv-val for a
 * lavapipe-like and an NVIDIA-like target, the bindings each declares,
 * and what is refused: forms not translated, devices without texture
 * descriptors, kernels needing more bindings than a stage may have; and
 * the two forms of descriptor indexing: the uniform-index loop without
 * the device's non-uniform indexing features, NonUniform with them.
 *
 *    test_spirv_texture SPIRV_VAL TEXTURE_PTX
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "compiler/compiler.h"
#include "compiler/kernel_abi.h"
#include "compiler_test.h"
#include "unit_test.h"

#define HEADER COMPILER_TEST_PTX_HEADER

static const char *spirv_val;

/* The shared targets with descriptor limits (main fills them): lavapipe's
 * 32 samplers and 64 storage images a stage, so 16 slots each
 * (cuvk_texture_target); NVIDIA's with non-uniform indexing
 * (compiler_test_nvidia). */
static struct cuvk_cc_target lavapipe, nvidia;


/* The bindings each kernel of texture.cu declares for its instructions
 * (with_conversions adds those of their conversion paths). */
static uint64_t
expected_bindings(const char *name)
{
   const uint64_t one = 1;
   struct {
      const char *kernel;
      uint64_t bindings;
   } table[] = {
      {"tex2d_float4", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_2D, CUVK_KERNEL_TEX_FLOAT)},
      {"tex2d_uchar4", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_2D, CUVK_KERNEL_TEX_UINT)},
      {"tex2d_int", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_2D, CUVK_KERNEL_TEX_SINT)},
      {"tex1d_float", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_1D, CUVK_KERNEL_TEX_FLOAT)},
      {"tex3d_float", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_3D, CUVK_KERNEL_TEX_FLOAT)},
      {"tex2d_lod", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_2D, CUVK_KERNEL_TEX_FLOAT)},
      {"tex2d_many", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_2D, CUVK_KERNEL_TEX_FLOAT)},
      {"tex_query", 0},
      {"surf2d_copy", one << CUVK_KERNEL_SURF_BINDING(CUVK_KERNEL_DIM_2D, 2)},
      {"surf2d_modes", one << CUVK_KERNEL_SURF_BINDING(CUVK_KERNEL_DIM_2D, 2)},
      {"surf2d_float4", one << CUVK_KERNEL_SURF_BINDING(CUVK_KERNEL_DIM_2D, 4)},
      /* tex1Dfetch: the 1D binding of its result type, whose
       * descriptors linear memory does not use. */
      {"fetch_f4", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_1D, CUVK_KERNEL_TEX_FLOAT)},
      {"fetch_i4", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_1D, CUVK_KERNEL_TEX_SINT)},
      {"fetch_u4", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_1D, CUVK_KERNEL_TEX_UINT)},
      {"tex1d_layered", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_1D_ARRAY, CUVK_KERNEL_TEX_FLOAT)},
      {"tex2d_layered", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_2D_ARRAY, CUVK_KERNEL_TEX_FLOAT)},
      {"tex_cubemap", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_CUBE, CUVK_KERNEL_TEX_FLOAT)},
      {"tex2d_grad", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_2D, CUVK_KERNEL_TEX_FLOAT)},
      {"tex2d_gather", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_2D, CUVK_KERNEL_TEX_FLOAT)},
      {"surf2d_layered", one << CUVK_KERNEL_SURF_BINDING(CUVK_KERNEL_DIM_2D_ARRAY, 2)},
      {"tex_cubemap_layered", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_CUBE_ARRAY, CUVK_KERNEL_TEX_FLOAT)},
      {"tex_cubemap_grad", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_CUBE, CUVK_KERNEL_TEX_FLOAT)},
      {"tex_cubemap_layered_grad", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_CUBE_ARRAY, CUVK_KERNEL_TEX_FLOAT)},
      /* sust.p: the store of each texel size, chosen by the format. */
      {"surf2d_formatted", ((one << CUVK_KERNEL_SURF_SIZE_COUNT) - 1) << CUVK_KERNEL_SURF_BINDING(CUVK_KERNEL_DIM_2D, 0)},
      {"tex2d_int_shift", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_2D, CUVK_KERNEL_TEX_SINT)},
      {"tex2d_uint4_shift", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_2D, CUVK_KERNEL_TEX_UINT)},
      {"tex2d_grad_aniso", one << CUVK_KERNEL_TEX_BINDING(CUVK_KERNEL_DIM_2D, CUVK_KERNEL_TEX_FLOAT)},
   };
   for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
      if (strcmp(table[i].kernel, name) == 0)
         return table[i].bindings;
   return UINT64_MAX;
}

/* The bindings the conversion paths of own's sampled bindings add
 * (docs/compiler.md): for each, the float, uint and sint bindings of
 * its dimension, in that order, while one more fits the stage. */
static uint64_t
with_conversions(uint64_t own, const struct cuvk_cc_target *t)
{
   const uint64_t one = 1;
   uint64_t sampled_mask = (one << CUVK_KERNEL_SURF_BINDING_BASE) - 1, all = own;
   for (uint32_t b = 0; b < CUVK_KERNEL_SURF_BINDING_BASE; b++) {
      if (!(own >> b & 1))
         continue;
      static const enum cuvk_kernel_tex_type views[3] = {CUVK_KERNEL_TEX_FLOAT, CUVK_KERNEL_TEX_UINT,
                                                         CUVK_KERNEL_TEX_SINT};
      for (unsigned v = 0; v < 3; v++) {
         uint32_t twin = CUVK_KERNEL_TEX_BINDING(b / CUVK_KERNEL_TEX_TYPE_COUNT, views[v]);
         unsigned used = (unsigned)__builtin_popcountll(all & sampled_mask);
         if (!(all >> twin & 1) && (uint64_t)(used + 1) * t->tex_slots <= t->max_sampled_descriptors)
            all |= one << twin;
      }
   }
   return all;
}

static void
kernels(const char *path, const struct cuvk_cc_target *t)
{
   size_t len;
   char *text = compiler_test_read(path, &len);
   struct cuvk_cc_module *m;
   struct cuvk_cc_error err;
   UNIT_CHECK(text != NULL);
   if (!text)
      return;
   if (!cuvk_cc_module_create(text, len, &m, &err)) {
      compiler_test_print_error(path, &err);
      UNIT_CHECK(!"texture.cu's PTX did not load");
      free(text);
      return;
   }
   unsigned count = 0;
   for (size_t i = 0; i < cuvk_cc_module_kernel_count(m); i++) {
      const char *name = cuvk_cc_module_kernel_name(m, i);
      struct cuvk_cc_kernel k;
      char where[256];
      snprintf(where, sizeof(where), "%s (%u slots)", name, t->tex_slots);
      bool too_many = strcmp(name, "surf2d_formatted") == 0 &&
                      CUVK_KERNEL_SURF_SIZE_COUNT * t->surf_slots > t->max_storage_descriptors;
      if (!cuvk_cc_compile_kernel(m, name, t, &k, &err)) {
         if (too_many && err.status == CUVK_CC_UNSUPPORTED && strstr(err.message, "needs 5 storage image")) {
            printf("%s: refused: %s\n", where, err.message);
            count++;
            continue;
         }
         compiler_test_print_error(where, &err);
         UNIT_CHECK(!"a texture kernel was refused");
         continue;
      }
      UNIT_CHECK(!too_many);
      UNIT_CHECK(compiler_test_spirv_val(spirv_val, where, k.words, k.word_count));
      uint64_t want = with_conversions(expected_bindings(name), t);
      if (k.tex_bindings != want) {
         fprintf(stderr, "%s: bindings 0x%llx, expected 0x%llx\n", where, (unsigned long long)k.tex_bindings,
                 (unsigned long long)want);
         UNIT_CHECK(!"wrong bindings");
      }
      printf("%s: %zu words, valid, bindings 0x%llx\n", where, k.word_count, (unsigned long long)k.tex_bindings);
      free(k.words);
      count++;
   }
   UNIT_CHECK(count == 27);
   cuvk_cc_module_destroy(m);
   free(text);
}

static void
expect_refused(const char *name, const struct cuvk_cc_target *t, const char *body, unsigned line,
               const char *needle)
{
   char text[2048];
   snprintf(text, sizeof(text),
            HEADER ".visible .entry k(.param .u64 h)\n{\n\t.reg .b64 %%rd<4>;\n\t.reg .f32 %%f<12>;\n"
                   "\t.reg .b32 %%r<12>;\n\tld.param.u64 %%rd1, [h];\n%s\tret;\n}\n",
            body);
   struct cuvk_cc_module *m;
   struct cuvk_cc_error err;
   if (!cuvk_cc_module_create(text, strlen(text), &m, &err)) {
      /* Refused by the parser: also fine, if it is the expected answer. */
      if (err.status != CUVK_CC_UNSUPPORTED || err.line != line || !strstr(err.message, needle)) {
         compiler_test_print_error(name, &err);
         UNIT_CHECK(!"wrong parse error");
      }
      return;
   }
   struct cuvk_cc_kernel k;
   bool ok = cuvk_cc_compile_kernel(m, "k", t, &k, &err);
   UNIT_CHECK(!ok);
   if (ok)
      free(k.words);
   else if (err.status != CUVK_CC_UNSUPPORTED || err.line != line || !strstr(err.message, needle)) {
      fprintf(stderr, "%s: expected UNSUPPORTED at line %u containing \"%s\", got:\n", name, line, needle);
      compiler_test_print_error(name, &err);
      UNIT_CHECK(!"wrong error");
   }
   cuvk_cc_module_destroy(m);
}

static void
refusals(void)
{
   /* Line 10 is the body's first instruction. */
   /* Layered cubemaps only where the device has imageCubeArray. */
   struct cuvk_cc_target no_cube_array = lavapipe;
   no_cube_array.image_cube_array = false;
   expect_refused("layered cubemap", &no_cube_array,
                  "\ttex.acube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1, %f5, %f6, %f7}];\n", 10,
                  ".acube) needs the device's imageCubeArray");
   expect_refused("cube surface", &lavapipe, "\tsuld.b.cube.b32.trap {%r1}, [%rd1, {%r2, %r3, %r4, %r4}];\n", 10,
                  ".cube");
   /* sust.p needs the five storage bindings of its geometry: 80
    * descriptors at 16 slots, past lavapipe's 64 a stage. */
   expect_refused("formatted store", &lavapipe, "\tsust.p.2d.b32.trap [%rd1, {%r1, %r2}], {%r3};\n", 10,
                  "needs 5 storage image bindings");
   expect_refused("formatted load", &lavapipe, "\tsuld.p.2d.v4.b32.trap {%r1, %r2, %r3, %r4}, [%rd1, {%r5, %r6}];\n",
                  10, "formatted load");
   expect_refused("independent sampler", &lavapipe,
                  "\ttex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, %rd2, {%f5, %f6}];\n", 10, "sampler");
   struct cuvk_cc_target none = lavapipe;
   none.tex_slots = 0;
   expect_refused("no descriptors", &none,
                  "\ttex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];\n", 10, "no sampled image");
   /* Three sampled bindings of 16 on a stage of 32 samplers. */
   expect_refused("too many bindings", &lavapipe,
                  "\ttex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];\n"
                  "\ttex.2d.v4.u32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%f5, %f6}];\n"
                  "\ttex.2d.v4.s32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%f5, %f6}];\n",
                  12, "needs 3 sampled image bindings");
}

/* What the descriptor indexing of a module looks like. */
struct indexing {
   unsigned loops;            /* OpLoopMerge */
   unsigned broadcasts;       /* OpGroupNonUniformBroadcastFirst */
   unsigned nonuniform;       /* OpDecorate ... NonUniform */
   bool cap_nonuniform, cap_sampled, cap_storage;
};

static struct indexing
indexing_of(const uint32_t *words, size_t count)
{
   struct indexing r = {0};
   for (size_t i = 5; i < count;) {
      unsigned op = words[i] & 0xffff, n = words[i] >> 16;
      if (n == 0 || i + n > count) {
         UNIT_CHECK(!"malformed SPIR-V");
         break;
      }
      if (op == SpvOpLoopMerge)
         r.loops++;
      else if (op == SpvOpGroupNonUniformBroadcastFirst)
         r.broadcasts++;
      else if (op == SpvOpDecorate && n == 3 && words[i + 2] == SpvDecorationNonUniform)
         r.nonuniform++;
      else if (op == SpvOpCapability && n == 2) {
         r.cap_nonuniform |= words[i + 1] == SpvCapabilityShaderNonUniform;
         r.cap_sampled |= words[i + 1] == SpvCapabilitySampledImageArrayNonUniformIndexing;
         r.cap_storage |= words[i + 1] == SpvCapabilityStorageImageArrayNonUniformIndexing;
      }
      i += n;
   }
   return r;
}

/*
 * One sample, one surface load and one surface store, each a helper,
 * for a target with and without each feature: a helper either loops
 * (the broadcast of the handle's two halves) or indexes non-uniformly
 * (the index, the pointer and the loaded descriptor decorated, and the
 * sampled image's image for its size query), never both, and the module
 * passes spirv-val either way.  A handle that is a kernel parameter
 * (uniform, ir_uniform.c) needs neither: plain indexing in every form.
 */
static void
forms(bool tex_nonuniform, bool surf_nonuniform, bool uniform)
{
   /* The handle from memory (it may differ between threads), or the
    * parameter itself. */
   static const char from_memory[] =
      HEADER ".visible .entry k(.param .u64 h)\n{\n\t.reg .b64 %rd<4>;\n\t.reg .f32 %f<12>;\n"
             "\t.reg .b32 %r<12>;\n\tld.param.u64 %rd2, [h];\n\tld.global.u64 %rd1, [%rd2];\n"
             "\ttex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];\n"
             "\tsuld.b.2d.b32.trap {%r1}, [%rd1, {%r2, %r3}];\n"
             "\tsust.b.2d.b32.trap [%rd1, {%r2, %r3}], {%r1};\n"
             "\tret;\n}\n";
   static const char param[] =
      HEADER ".visible .entry k(.param .u64 h)\n{\n\t.reg .b64 %rd<4>;\n\t.reg .f32 %f<12>;\n"
             "\t.reg .b32 %r<12>;\n\tld.param.u64 %rd1, [h];\n"
             "\ttex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];\n"
             "\tsuld.b.2d.b32.trap {%r1}, [%rd1, {%r2, %r3}];\n"
             "\tsust.b.2d.b32.trap [%rd1, {%r2, %r3}], {%r1};\n"
             "\tret;\n}\n";
   const char *text = uniform ? param : from_memory;
   struct cuvk_cc_target t = lavapipe;
   t.tex_nonuniform = tex_nonuniform;
   t.surf_nonuniform = surf_nonuniform;
   char where[80];
   snprintf(where, sizeof(where), "forms (tex %s, surf %s, %s handle)", tex_nonuniform ? "non-uniform" : "loop",
            surf_nonuniform ? "non-uniform" : "loop", uniform ? "uniform" : "loaded");
   struct cuvk_cc_module *m;
   struct cuvk_cc_error err;
   if (!cuvk_cc_module_create(text, strlen(text), &m, &err)) {
      compiler_test_print_error(where, &err);
      UNIT_CHECK(!"the forms kernel did not parse");
      return;
   }
   struct cuvk_cc_kernel k;
   if (!cuvk_cc_compile_kernel(m, "k", &t, &k, &err)) {
      compiler_test_print_error(where, &err);
      UNIT_CHECK(!"the forms kernel was refused");
      cuvk_cc_module_destroy(m);
      return;
   }
   UNIT_CHECK(compiler_test_spirv_val(spirv_val, where, k.words, k.word_count));
   struct indexing r = indexing_of(k.words, k.word_count);
   /* Three sample helpers: the instruction's, and the two its
    * conversion path calls (float and uint views: what fits lavapipe's
    * stage next to the float binding). */
   unsigned samples = 3;
   unsigned loops = uniform ? 0 : (tex_nonuniform ? 0 : samples) + (surf_nonuniform ? 0 : 2);
   unsigned decorated = uniform ? 0 : (tex_nonuniform ? 4 * samples : 0) + (surf_nonuniform ? 2 * 3 : 0);
   printf("%s: %u loops, %u broadcasts, %u NonUniform\n", where, r.loops, r.broadcasts, r.nonuniform);
   /* Each uniform-index loop broadcasts the handle's two halves; the
    * module's other loops (the page table's range search, for the
    * linear-memory path) are the same in every form. */
   static int other_loops[2] = {-1, -1};
   UNIT_CHECK(r.broadcasts == 2 * loops);
   UNIT_CHECK(r.loops >= loops);
   if (other_loops[uniform] < 0)
      other_loops[uniform] = (int)(r.loops - loops);
   UNIT_CHECK(r.loops - loops == (unsigned)other_loops[uniform]);
   UNIT_CHECK(r.nonuniform == decorated);
   UNIT_CHECK(r.cap_nonuniform == (!uniform && (tex_nonuniform || surf_nonuniform)));
   UNIT_CHECK(r.cap_sampled == (!uniform && tex_nonuniform));
   UNIT_CHECK(r.cap_storage == (!uniform && surf_nonuniform));
   free(k.words);
   cuvk_cc_module_destroy(m);
}

int
main(int argc, char **argv)
{
   if (argc < 2 || strcmp(argv[1], "-") == 0) {
      printf("skipped: spirv-val not found (Debian package spirv-tools)\n");
      return 77;
   }
   spirv_val = argv[1];
   lavapipe = compiler_test_lavapipe;
   lavapipe.tex_slots = lavapipe.surf_slots = 16;
   lavapipe.max_sampled_descriptors = 32;
   lavapipe.max_storage_descriptors = 64;
   nvidia = compiler_test_nvidia;
   nvidia.tex_slots = nvidia.surf_slots = 4096;
   nvidia.max_sampled_descriptors = nvidia.max_storage_descriptors = 1048576;
   refusals();
   for (int uniform = 0; uniform < 2; uniform++) {
      forms(false, false, uniform);
      forms(true, true, uniform);
      forms(true, false, uniform);
      forms(false, true, uniform);
   }
   if (argc > 2) {
      kernels(argv[2], &lavapipe);
      kernels(argv[2], &nvidia);
   } else {
      printf("texture.cu's PTX not available (no nvcc): refusals only\n");
   }
   return unit_report("compiler.spirv.texture");
}
