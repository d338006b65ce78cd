/*
 * The translation of texture and surface instructions (spirv_texture.c):
 * every kernel of tests/kernels/texture.cu through spirv-val for a
 * lavapipe-like and an NVIDIA-like target, the bindings each declares,
 * and what is refused: forms not translated, devices without texture
 * descriptors, kernels needing more bindings than a stage may have.
 *
 *    test_spirv_texture SPIRV_VAL TEXTURE_PTX
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compiler/compiler.h"
#include "compiler/kernel_abi.h"
#include "compiler_test.h"
#include "unit_test.h"

#define HEADER ".version 9.0\n.target sm_75\n.address_size 64\n"

static const char *spirv_val;

/* lavapipe's limits: 32 samplers and 64 storage images a stage, so 16
 * slots each (cuvk_texture_target). */
static const struct cuvk_cc_target lavapipe = {
   .subgroup_size = 8,
   .int8 = true, .int16 = true, .int64 = true,
   .float16 = true, .float64 = true,
   .atomic_int64 = true, .atomic_float32_add = true,
   .max_shared_bytes = 32768,
   .tex_slots = 16, .surf_slots = 16,
   .max_sampled_descriptors = 32, .max_storage_descriptors = 64,
};

static const struct cuvk_cc_target nvidia = {
   .subgroup_size = 32,
   .int8 = true, .int16 = true, .int64 = true,
   .float16 = true, .float64 = true,
   .atomic_int64 = true, .atomic_float32_add = true, .atomic_float64_add = true,
   .max_shared_bytes = 49152,
   .tex_slots = 4096, .surf_slots = 4096,
   .max_sampled_descriptors = 1048576, .max_storage_descriptors = 1048576,
   .tex_nonuniform = true, .surf_nonuniform = true,
};

static bool
validate(const char *name, const uint32_t *words, size_t count)
{
   char path[] = "/tmp/cuvk-spirv-tex-XXXXXX";
   int fd = mkstemp(path);
   if (fd < 0)
      return false;
   bool written = write(fd, words, count * 4) == (ssize_t)(count * 4);
   close(fd);
   if (!written) {
      unlink(path);
      return false;
   }
   pid_t pid = fork();
   if (pid == 0) {
      execl(spirv_val, spirv_val, "--target-env", "vulkan1.2", path, (char *)NULL);
      _exit(127);
   }
   int status = -1;
   if (pid > 0)
      waitpid(pid, &status, 0);
   bool ok = pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
   if (!ok)
      fprintf(stderr, "%s: spirv-val refused the module, kept in %s\n", name, path);
   else
      unlink(path);
   return ok;
}

/* The bindings each kernel of texture.cu must declare. */
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
   };
   for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
      if (strcmp(table[i].kernel, name) == 0)
         return table[i].bindings;
   return UINT64_MAX;
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
      if (!cuvk_cc_compile_kernel(m, name, t, &k, &err)) {
         compiler_test_print_error(where, &err);
         UNIT_CHECK(!"a texture kernel was refused");
         continue;
      }
      UNIT_CHECK(validate(where, k.words, k.word_count));
      uint64_t want = expected_bindings(name);
      if (k.tex_bindings != want) {
         fprintf(stderr, "%s: bindings 0x%llx, expected 0x%llx\n", where, (unsigned long long)k.tex_bindings,
                 (unsigned long long)want);
         UNIT_CHECK(!"wrong bindings");
      }
      printf("%s: %zu words, valid, bindings 0x%llx\n", where, k.word_count, (unsigned long long)k.tex_bindings);
      free(k.words);
      count++;
   }
   UNIT_CHECK(count == 20);
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
   expect_refused("layered cubemap", &lavapipe,
                  "\ttex.acube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1, %f5, %f6, %f7}];\n", 10, ".acube");
   expect_refused("cube surface", &lavapipe, "\tsuld.b.cube.b32.trap {%r1}, [%rd1, {%r2, %r3, %r4, %r4}];\n", 10,
                  ".cube");
   expect_refused("cube gradients", &lavapipe,
                  "\ttex.grad.cube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6, %f7, %f8}], "
                  "{%f9, %f10, %f11, %f11}, {%f9, %f10, %f11, %f11};\n",
                  10, "tex.grad.cube");
   expect_refused("formatted store", &lavapipe, "\tsust.p.2d.b32.trap [%rd1, {%r1, %r2}], {%r3};\n", 10,
                  "formatted");
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

int
main(int argc, char **argv)
{
   if (argc < 2 || strcmp(argv[1], "-") == 0) {
      printf("skipped: spirv-val not found (Debian package spirv-tools)\n");
      return 77;
   }
   spirv_val = argv[1];
   refusals();
   if (argc > 2) {
      kernels(argv[2], &lavapipe);
      kernels(argv[2], &nvidia);
   } else {
      printf("texture.cu's PTX not available (no nvcc): refusals only\n");
   }
   return unit_report("compiler.spirv.texture");
}
