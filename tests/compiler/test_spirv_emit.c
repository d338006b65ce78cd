/*
 * The SPIR-V emitter through the library API (compiler.h): PTX snippets
 * written here and every kernel of tests/kernels (nvcc's output, plain
 * and --use_fast_math) compiled with cuvk_cc_compile_kernel for a target
 * like lavapipe, each module checked by Khronos's validator (spirv-val
 * --target-env vulkan1.2, from Debian's spirv-tools).  What the emitter
 * refuses must be refused with CUVK_CC_UNSUPPORTED naming the instruction
 * and its line; the test prints the list, which shrinks as the
 * structurizer and the instruction lowering land.
 *
 * test_spirv_emit SPIRV_VAL [KERNEL.ptx ...]: the test skips (exit 77)
 * when the build found no spirv-val.
 */
#include <string.h>

#include "compiler/compiler.h"
#include "compiler_test.h"
#include "unit_test.h"

#define HEADER COMPILER_TEST_PTX_HEADER

static const char *spirv_val;

static const struct cuvk_cc_target *const lavapipe = &compiler_test_lavapipe;
static const struct cuvk_cc_target *const nvidia = &compiler_test_nvidia;


/* Compiles kernel of text; the words (NULL on an error, then in err). */
static const struct cuvk_cc_target *target = lavapipe;

static uint32_t *
compile(const char *text, size_t len, const char *kernel, struct cuvk_cc_kernel *k,
        struct cuvk_cc_error *err)
{
   struct cuvk_cc_module *m;

   memset(k, 0, sizeof(*k));
   if (!cuvk_cc_module_create(text, len, &m, err))
      return NULL;
   bool ok = cuvk_cc_compile_kernel(m, kernel, target, k, err);
   cuvk_cc_module_destroy(m);
   /* k's name and params belonged to the module; only the words stay. */
   k->name = NULL;
   k->params = NULL;
   return ok ? k->words : NULL;
}

static void
expect_valid(const char *name, const char *text, const char *kernel)
{
   struct cuvk_cc_error err;
   struct cuvk_cc_kernel k;
   uint32_t *words = compile(text, strlen(text), kernel, &k, &err);

   if (!words) {
      compiler_test_print_error(name, &err);
      UNIT_CHECK(!"compilation failed");
      return;
   }
   UNIT_CHECK(k.word_count > 5 && words[0] == 0x07230203 && words[1] == 0x00010500);
   /* The entry point carries the kernel's name as a literal string. */
   UNIT_CHECK(memmem(words, k.word_count * 4, kernel, strlen(kernel) + 1) != NULL);
   UNIT_CHECK(compiler_test_spirv_val(spirv_val, name, words, k.word_count));
   printf("%s: %zu words, valid\n", name, k.word_count);
   free(words);
}

static void
expect_refused(const char *name, const char *text, const char *kernel,
               enum cuvk_cc_status status, unsigned line, const char *needle)
{
   struct cuvk_cc_error err;
   struct cuvk_cc_kernel k;
   uint32_t *words = compile(text, strlen(text), kernel, &k, &err);

   UNIT_CHECK(words == NULL && k.word_count == 0);
   free(words);
   if (err.status != status || err.line != line || !strstr(err.message, needle)) {
      fprintf(stderr, "%s: expected %s at line %u containing \"%s\", got:\n", name,
              cuvk_cc_status_name(status), line, needle);
      compiler_test_print_error(name, &err);
      UNIT_CHECK(!"wrong error");
   }
}

/* Every kernel of an nvcc PTX file: valid, or refused as unsupported
 * with a place.  Counts both. */
static void
check_file(const char *path, const struct cuvk_cc_target *t, unsigned *valid, unsigned *refused)
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
      UNIT_CHECK(!"nvcc's PTX did not load");
      free(text);
      return;
   }
   UNIT_CHECK(cuvk_cc_module_kernel_count(m) > 0);
   for (size_t i = 0; i < cuvk_cc_module_kernel_count(m); i++) {
      const char *name = cuvk_cc_module_kernel_name(m, i);
      struct cuvk_cc_kernel k;
      char where[512];
      snprintf(where, sizeof(where), "%s:%s (%u-wide)", path, name, t->subgroup_size);
      if (cuvk_cc_compile_kernel(m, name, t, &k, &err)) {
         UNIT_CHECK(compiler_test_spirv_val(spirv_val, where, k.words, k.word_count));
         UNIT_CHECK(strcmp(k.name, name) == 0);
         printf("%s: %zu words, valid\n", where, k.word_count);
         free(k.words);
         (*valid)++;
      } else {
         /* Refusals name what and where; INVALID would be a bug here
          * (nvcc's output is valid PTX). */
         printf("%s: refused: line %u: %s\n", where, err.line, err.message);
         UNIT_CHECK(err.status == CUVK_CC_UNSUPPORTED && err.line > 0);
         UNIT_CHECK(k.words == NULL);
         (*refused)++;
      }
   }
   /* Compiling again gives the same answer: the passes that change the
    * IR in place (guards, structure) are idempotent. */
   if (cuvk_cc_module_kernel_count(m) > 0) {
      const char *name = cuvk_cc_module_kernel_name(m, 0);
      struct cuvk_cc_kernel k;
      if (cuvk_cc_compile_kernel(m, name, t, &k, &err)) {
         UNIT_CHECK(compiler_test_spirv_val(spirv_val, path, k.words, k.word_count));
         free(k.words);
      }
   }
   cuvk_cc_module_destroy(m);
   free(text);
}

/* Straight-line kernels that touch each part of the frame and memory. */
static void
snippets(void)
{
   expect_valid("empty", HEADER ".visible .entry empty()\n{\n\tret;\n}\n", "empty");

   /* Parameters it never reads, a chain of branches, exit. */
   expect_valid("chain",
                HEADER ".visible .entry chain(.param .u64 p, .param .u32 n)\n"
                       "{\n\tbra $L_a;\n$L_b:\n\texit;\n$L_a:\n\tbra.uni $L_b;\n}\n",
                "chain");

   /* Special registers, parameters, global loads and stores of every
    * width, vectors, 64-bit arithmetic. */
   expect_valid("global",
                HEADER ".visible .entry g(.param .u64 p, .param .u32 n, .param .align 8 .b8 s[16])\n"
                       "{\n"
                       "\t.reg .b16 %h<3>;\n\t.reg .b32 %r<9>;\n\t.reg .b64 %rd<9>;\n"
                       "\t.reg .f32 %f<5>;\n\t.reg .f64 %fd<3>;\n\t.reg .pred %p<3>;\n"
                       "\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [n];\n"
                       "\tld.param.u64 %rd2, [s+8];\n"
                       "\tcvta.to.global.u64 %rd3, %rd1;\n"
                       "\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.y;\n\tmov.u32 %r4, %tid.z;\n"
                       "\tmov.u32 %r5, %nctaid.x;\n\tmov.u32 %r6, %laneid;\n\tmov.u32 %r7, %warpid;\n"
                       "\tmad.lo.s32 %r8, %r2, %r3, %r4;\n"
                       "\tmul.wide.s32 %rd4, %r8, 4;\n\tadd.s64 %rd5, %rd3, %rd4;\n"
                       "\tld.global.f32 %f1, [%rd5];\n\tadd.f32 %f2, %f1, 0f3F800000;\n"
                       "\tst.global.f32 [%rd5+4], %f2;\n"
                       "\tld.global.u8 %h1, [%rd5];\n\tld.global.s16 %r1, [%rd5+2];\n"
                       "\tst.global.u8 [%rd5+1], %h1;\n\tst.global.u16 [%rd5+2], %r1;\n"
                       "\tld.global.v2.u32 {%r2, %r3}, [%rd5];\n"
                       "\tld.global.v4.f32 {%f1, _, %f3, %f4}, [%rd5+16];\n"
                       "\tst.global.v4.f32 [%rd5+32], {%f1, %f2, %f3, %f4};\n"
                       "\tld.global.f64 %fd1, [%rd5+8];\n\tst.global.volatile.f64 [%rd5], %fd1;\n"
                       "\tld.volatile.global.u64 %rd6, [%rd2];\n"
                       "\tld.relaxed.gpu.global.u32 %r4, [%rd2];\n"
                       "\tst.release.gpu.global.u32 [%rd2], %r4;\n"
                       "\tld.acquire.gpu.global.u32 %r4, [%rd2];\n"
                       "\tsetp.ge.s32 %p1, %r8, %r1;\n\tsetp.lt.u64 %p2, %rd4, %rd5;\n"
                       "\tand.pred %p1, %p1, %p2;\n"
                       "\tselp.u32 %r5, 1, 2, %p1;\n\tst.global.u32 [%rd5], %r5;\n"
                       "\tmembar.gl;\n\tfence.acq_rel.cta;\n"
                       "\tret;\n}\n",
                "g");

   /* Shared memory (static, dynamic, module scope) and local memory,
    * sub-word accesses, generic addresses, barriers. */
   expect_valid("shared and local",
                HEADER ".shared .align 4 .b8 mod_sh[6];\n"
                       ".extern .shared .align 16 .b8 dyn[];\n"
                       ".visible .entry s(.param .u64 p)\n"
                       "{\n"
                       "\t.local .align 8 .b8 depot[40];\n"
                       "\t.shared .align 8 .b8 tile[64];\n"
                       "\t.reg .b16 %h<3>;\n\t.reg .b32 %r<9>;\n\t.reg .b64 %rd<9>;\n"
                       "\t.reg .f32 %f<3>;\n"
                       "\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 2;\n"
                       "\tmov.u32 %r3, tile;\n\tadd.s32 %r4, %r3, %r2;\n"
                       "\tst.shared.u32 [%r4], %r1;\n\tst.shared.u8 [mod_sh+1], %r1;\n"
                       "\tst.shared.u16 [dyn+2], %r1;\n\tst.shared.u64 [tile+8], %rd1;\n"
                       "\tbar.sync 0;\n"
                       "\tld.shared.u32 %r5, [%r4+4];\n\tld.shared.s8 %r6, [mod_sh+1];\n"
                       "\tld.shared.u64 %rd2, [tile+8];\n\tld.shared.f32 %f1, [dyn];\n"
                       "\tmov.u64 %rd3, depot;\n\tst.local.u32 [%rd3+4], %r5;\n"
                       "\tst.local.u8 [depot+9], %r6;\n\tld.local.u32 %r7, [depot+4];\n"
                       "\tst.local.v2.f32 [depot+16], {%f1, %f1};\n"
                       "\tcvta.local.u64 %rd4, %rd3;\n\tld.u32 %r8, [%rd4+4];\n"
                       "\tcvta.shared.u64 %rd5, %rd3;\n\tst.u16 [%rd5], %r8;\n"
                       "\tcvta.to.shared.u64 %rd6, %rd5;\n"
                       "\tld.param.u64 %rd7, [p];\n\tst.u32 [%rd7], %r8;\n"
                       "\tbarrier.sync 0;\n"
                       "\tret;\n}\n",
                "s");

   /* Atomics on global and shared memory. */
   expect_valid("atomics",
                HEADER ".visible .entry a(.param .u64 p)\n"
                       "{\n"
                       "\t.shared .align 4 .b8 sh[64];\n"
                       "\t.reg .b32 %r<9>;\n\t.reg .b64 %rd<5>;\n\t.reg .f32 %f<3>;\n"
                       "\t.reg .f64 %fd<3>;\n"
                       "\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n"
                       "\tatom.global.add.u32 %r2, [%rd1], %r1;\n"
                       "\tatom.global.max.s32 %r2, [%rd1+4], %r1;\n"
                       "\tatom.global.min.u32 %r2, [%rd1+4], %r1;\n"
                       "\tatom.global.cas.b32 %r3, [%rd1+8], 0, 1;\n"
                       "\tatom.global.exch.b32 %r3, [%rd1+8], %r2;\n"
                       "\tatom.global.or.b32 %r3, [%rd1+8], 4;\n"
                       "\tatom.global.inc.u32 %r3, [%rd1+8], 100;\n"
                       "\tatom.global.dec.u32 %r3, [%rd1+8], 100;\n"
                       "\tatom.global.add.u64 %rd2, [%rd1+16], %rd1;\n"
                       "\tatom.global.add.f32 %f1, [%rd1+24], 0f3F800000;\n"
                       "\tatom.global.add.f64 %fd1, [%rd1+32], 0d3FF0000000000000;\n"
                       "\tred.global.add.u32 [%rd1], 1;\n"
                       "\tatom.shared.add.u32 %r4, [sh], 1;\n"
                       "\tatom.shared.add.f32 %f2, [sh+4], 0f3F800000;\n"
                       "\tatom.shared.inc.u32 %r4, [sh+8], 9;\n"
                       "\tatom.acq_rel.gpu.global.xor.b32 %r4, [%rd1], 1;\n"
                       "\tatom.add.u32 %r4, [%rd1], 1;\n\tatom.cas.b64 %rd2, [%rd1], 1, 2;\n"
                       "\tatom.add.f32 %f1, [%rd1], 0f3F800000;\n\tatom.inc.u32 %r4, [%rd1], 5;\n"
                       "\tatom.exch.b64 %rd2, [%rd1], 7;\n\tred.add.u64 [%rd1], 7;\n"
                       "\tret;\n}\n",
                "a");

   /* A .func called with a parameter and a return value. */
   expect_valid("call",
                HEADER ".func (.param .b32 r) twice(.param .b32 x)\n"
                       "{\n\t.reg .b32 %r<3>;\n\tld.param.u32 %r1, [x];\n"
                       "\tadd.s32 %r2, %r1, %r1;\n\tst.param.b32 [r], %r2;\n\tret;\n}\n"
                       ".visible .entry c(.param .u64 p)\n"
                       "{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
                       "\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n"
                       "\t{\n\t.param .b32 a0;\n\tst.param.b32 [a0], %r1;\n"
                       "\t.param .b32 r0;\n\tcall.uni (r0), twice, (a0);\n"
                       "\tld.param.b32 %r2, [r0];\n\t}\n"
                       "\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n",
                "c");

   /* Module globals: their addresses come from the globals table. */
   expect_valid("globals",
                HEADER ".global .align 4 .u32 w[4] = {1, 2, 3, 5};\n"
                       ".const .align 8 .f64 scale[2] = {0d3FE0000000000000, 0d4000000000000000};\n"
                       ".global .align 8 .u64 ptrs[2] = {generic(w), w+8};\n"
                       ".visible .entry m(.param .u64 p)\n"
                       "{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<4>;\n\t.reg .f64 %fd<2>;\n"
                       "\tld.global.u32 %r1, [w+4];\n\tld.const.f64 %fd1, [scale+8];\n"
                       "\tmov.u64 %rd1, w;\n\tld.global.u64 %rd2, [ptrs];\n"
                       "\tld.param.u64 %rd3, [p];\n\tst.global.f64 [%rd3], %fd1;\n"
                       "\tst.global.u32 [%rd3+8], %r1;\n\tret;\n}\n",
                "m");

   /* Warp instructions on 32-wide subgroups. */
   target = nvidia;
   expect_valid("warps",
                HEADER ".visible .entry w(.param .u64 p)\n{\n"
                       "\t.reg .pred %p<4>;\n\t.reg .b32 %r<9>;\n\t.reg .b64 %rd<2>;\n"
                       "\tld.param.u64 %rd1, [p];\n\tld.global.u32 %r1, [%rd1];\n"
                       "\tshfl.sync.down.b32 %r2|%p1, %r1, 4, 31, -1;\n"
                       "\tshfl.sync.up.b32 %r2|%p1, %r1, 1, 0, -1;\n"
                       "\tshfl.sync.bfly.b32 %r2, %r1, 8, 31, -1;\n"
                       "\tshfl.sync.idx.b32 %r2, %r1, 3, 6175, -1;\n"
                       "\tsetp.gt.s32 %p2, %r1, 0;\n"
                       "\tvote.sync.ballot.b32 %r3, %p2, -1;\n\tvote.sync.all.pred %p3, %p2, -1;\n"
                       "\tvote.sync.any.pred %p3, !%p2, -1;\n\tvote.sync.uni.pred %p3, %p2, -1;\n"
                       "\tactivemask.b32 %r4;\n\tredux.sync.add.s32 %r5, %r1, -1;\n"
                       "\tredux.sync.max.u32 %r5, %r1, -1;\n\tmov.u32 %r6, %laneid;\n"
                       "\tmov.u32 %r7, %warpid;\n\tbar.warp.sync -1;\n"
                       "\tmatch.any.sync.b32 %r8, %r1, -1;\n"
                       "\tmatch.all.sync.b64 %r8|%p3, %rd1, %r4;\n\tmatch.all.sync.b32 %r8, %r1, %r4;\n"
                       "\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n",
                "w");

   /* 64-bit atomics on shared memory through the aliased 64-bit view
    * (shared_atomic_int64): every operation, f64 add as a CAS loop, red,
    * one on a generic address, one in a called .func, 64-bit loads and
    * stores beside 32- and 8-bit ones, bar.red's word; static shared
    * memory, and dynamic. */
   expect_valid("shared 64-bit atomics",
                HEADER ".func f(.param .b32 off)\n{\n\t.reg .b32 %r<2>;\n"
                       "\tld.param.u32 %r1, [off];\n\tred.shared.add.u64 [%r1], 7;\n\tret;\n}\n"
                       ".visible .entry s64(.param .u64 p)\n{\n"
                       "\t.shared .align 8 .b8 s[72];\n\t.reg .pred %p<2>;\n"
                       "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<8>;\n\t.reg .f64 %fd<2>;\n"
                       "\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n"
                       "\tatom.shared.add.u64 %rd2, [s], 1;\n"
                       "\tatom.shared.add.f64 %fd1, [s+8], 0d3FF0000000000000;\n"
                       "\tred.shared.add.f64 [s+8], %fd1;\n"
                       "\tatom.shared.cas.b64 %rd3, [s+16], %rd2, 5;\n"
                       "\tatom.shared.exch.b64 %rd3, [s+16], %rd2;\n"
                       "\tatom.shared.min.u64 %rd3, [s+24], %rd2;\n"
                       "\tatom.shared.max.s64 %rd3, [s+24], %rd3;\n"
                       "\tatom.shared.min.s64 %rd3, [s+24], %rd3;\n"
                       "\tatom.shared.max.u64 %rd3, [s+24], %rd3;\n"
                       "\tatom.shared.and.b64 %rd3, [s+32], %rd2;\n"
                       "\tatom.shared.or.b64 %rd3, [s+32], %rd3;\n"
                       "\tatom.shared.xor.b64 %rd3, [s+32], %rd3;\n"
                       "\tatom.acq_rel.cta.shared.add.u64 %rd3, [s+40], %rd3;\n"
                       "\tred.shared.add.u64 [s+40], %rd3;\n"
                       "\tmov.u64 %rd4, s;\n\tcvta.shared.u64 %rd5, %rd4;\n"
                       "\tatom.add.u64 %rd6, [%rd5+48], 1;\n"
                       "\tatom.shared.add.u32 %r2, [s+56], 1;\n"
                       "\tld.shared.u64 %rd7, [s+48];\n\tst.shared.u64 [s+64], %rd7;\n"
                       "\tld.volatile.shared.u64 %rd7, [s+64];\n\tst.shared.u8 [s+61], %r2;\n"
                       "\tsetp.ne.s32 %p1, %r1, 0;\n\tbar.red.popc.u32 %r3, 0, %p1;\n"
                       "\tmov.u32 %r3, s;\n"
                       "\t{\n\t.param .b32 a;\n\tst.param.b32 [a], %r3;\n\tcall.uni f, (a);\n\t}\n"
                       "\tst.global.u64 [%rd1], %rd7;\n\tret;\n}\n",
                "s64");
   expect_valid("dynamic shared 64-bit atomics",
                HEADER ".extern .shared .align 16 .b8 dyn[];\n"
                       ".visible .entry d64(.param .u64 p)\n{\n"
                       "\t.shared .align 4 .b8 w[12];\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<4>;\n"
                       "\tld.param.u64 %rd1, [p];\n\tst.shared.u32 [w+8], 3;\n"
                       "\tatom.shared.add.u64 %rd2, [dyn+8], 1;\n"
                       "\tatom.shared.cas.b64 %rd3, [dyn], %rd2, 2;\n"
                       "\tst.global.u64 [%rd1], %rd3;\n\tret;\n}\n",
                "d64");
   /* Only on a generic address: the same views (the atomic may land in
    * shared memory), though the kernel declares no shared variable. */
   expect_valid("generic 64-bit atomic",
                HEADER ".visible .entry g64(.param .u64 p)\n{\n\t.reg .b64 %rd<3>;\n"
                       "\tld.param.u64 %rd1, [p];\n\tatom.add.u64 %rd2, [%rd1], 1;\n"
                       "\tatom.exch.b64 %rd2, [%rd1], %rd2;\n\tret;\n}\n",
                "g64");
   target = lavapipe;

   /* A kernel's shared size counts the module's .shared variables it
    * names, not its neighbours'; the dynamic offset is aligned to 16. */
   {
      static const char two[] =
         HEADER ".shared .align 4 .b8 a[1000];\n.shared .align 8 .b8 b[24];\n"
                ".extern .shared .align 16 .b8 dyn[];\n"
                ".visible .entry ka()\n{\n\t.reg .b32 %r<2>;\n\tst.shared.u32 [a], 1;\n\tret;\n}\n"
                ".visible .entry kb()\n{\n\t.reg .b32 %r<2>;\n\tst.shared.u32 [b+4], 1;\n"
                "\tst.shared.u32 [dyn], 1;\n\tret;\n}\n";
      struct cuvk_cc_error err;
      struct cuvk_cc_kernel k;
      uint32_t *words = compile(two, sizeof(two) - 1, "ka", &k, &err);
      UNIT_CHECK(words && k.static_shared_bytes == 1000 && !k.dynamic_shared);
      UNIT_CHECK(words && compiler_test_spirv_val(spirv_val, "shared size ka", words, k.word_count));
      free(words);
      words = compile(two, sizeof(two) - 1, "kb", &k, &err);
      UNIT_CHECK(words && k.static_shared_bytes == 32 && k.dynamic_shared);
      UNIT_CHECK(words && compiler_test_spirv_val(spirv_val, "shared size kb", words, k.word_count));
      free(words);
   }

   /* What the library API says about kernels and globals: parameter
    * offsets at each one's alignment, launch bounds, the .global and .const
    * variables in module order with their bytes and relocations. */
   {
      static const char api[] =
         HEADER ".global .align 4 .u32 w[4] = {1, 2, 3, 5};\n"
                ".const .align 8 .f64 scale[2] = {0d3FE0000000000000, 0d4000000000000000};\n"
                ".shared .align 4 .b8 not_global[4];\n"
                ".global .align 8 .u64 ptrs[2] = {generic(w), w+8};\n"
                ".extern .global .align 4 .u32 elsewhere;\n"
                ".visible .entry k(.param .u32 a, .param .u64 b, .param .align 16 .b8 c[20],\n"
                "\t.param .u8 d)\n.reqntid 64, 2, 1\n{\n\tret;\n}\n"
                ".visible .entry m()\n.maxntid 256, 1, 1\n{\n\tret;\n}\n";
      struct cuvk_cc_module *m;
      struct cuvk_cc_error err;
      struct cuvk_cc_kernel k;
      UNIT_CHECK(cuvk_cc_module_create(api, sizeof(api), &m, &err));   /* with its nul */
      UNIT_CHECK(cuvk_cc_module_kernel_count(m) == 2);
      UNIT_CHECK(strcmp(cuvk_cc_module_kernel_name(m, 1), "m") == 0);
      UNIT_CHECK(cuvk_cc_module_kernel_name(m, 2) == NULL);
      UNIT_CHECK(cuvk_cc_module_global_count(m) == 4);
      const struct cuvk_cc_global *g0 = cuvk_cc_module_global(m, 0);
      const struct cuvk_cc_global *g1 = cuvk_cc_module_global(m, 1);
      const struct cuvk_cc_global *g2 = cuvk_cc_module_global(m, 2);
      const struct cuvk_cc_global *g3 = cuvk_cc_module_global(m, 3);
      UNIT_CHECK(cuvk_cc_module_global(m, 4) == NULL);
      UNIT_CHECK(strcmp(g0->name, "w") == 0 && !g0->is_const && g0->size == 16 &&
                 g0->align == 4 && g0->init && g0->init[12] == 5 && g0->reloc_count == 0);
      UNIT_CHECK(strcmp(g1->name, "scale") == 0 && g1->is_const && g1->size == 16 &&
                 g1->init && g1->init[15] == 0x40);
      UNIT_CHECK(strcmp(g2->name, "ptrs") == 0 && g2->reloc_count == 2 && g2->relocs &&
                 g2->relocs[0].offset == 0 && g2->relocs[0].var == 0 &&
                 g2->relocs[0].addend == 0 && g2->relocs[0].size == 8 &&
                 g2->relocs[1].offset == 8 && g2->relocs[1].var == 0 &&
                 g2->relocs[1].addend == 8 && g2->relocs[1].size == 8);
      UNIT_CHECK(strcmp(g3->name, "elsewhere") == 0 && g3->is_extern && g3->init == NULL);
      UNIT_CHECK(cuvk_cc_compile_kernel(m, "k", lavapipe, &k, &err));
      UNIT_CHECK(k.param_count == 4 && k.params[0].offset == 0 && k.params[0].size == 4 &&
                 k.params[1].offset == 8 && k.params[1].size == 8 && k.params[1].align == 8 &&
                 k.params[2].offset == 16 && k.params[2].size == 20 &&
                 k.params[2].align == 16 && k.params[3].offset == 36 && k.param_bytes == 37);
      UNIT_CHECK(k.reqntid[0] == 64 && k.reqntid[1] == 2 && k.reqntid[2] == 1);
      UNIT_CHECK(k.maxntid[0] == 0);
      /* The same layout without translating (cuKernelGetParamInfo). */
      uint32_t pcount = 99;
      const struct cuvk_cc_param *pp = cuvk_cc_module_kernel_params(m, 0, &pcount);
      UNIT_CHECK(pcount == 4 && pp && memcmp(pp, k.params, 4 * sizeof(*pp)) == 0);
      UNIT_CHECK(cuvk_cc_module_kernel_params(m, 1, &pcount) && pcount == 0);
      UNIT_CHECK(cuvk_cc_module_kernel_params(m, 2, &pcount) == NULL && pcount == 0);
      UNIT_CHECK(k.static_shared_bytes == 0 && k.local_bytes == 0);
      printf("k: reqntid %u %u %u maxntid %u shared %u local %u\n", k.reqntid[0], k.reqntid[1],
             k.reqntid[2], k.maxntid[0], k.static_shared_bytes, k.local_bytes);
      free(k.words);
      UNIT_CHECK(cuvk_cc_compile_kernel(m, "m", lavapipe, &k, &err));
      UNIT_CHECK(k.maxntid[0] == 256 && k.param_count == 0 && k.param_bytes == 0);
      free(k.words);
      UNIT_CHECK(!cuvk_cc_compile_kernel(m, "nope", lavapipe, &k, &err) &&
                 err.status == CUVK_CC_INVALID && k.words == NULL);
      cuvk_cc_module_destroy(m);
      /* Bad PTX: an error with its place, no module. */
      static const char bad[] = HEADER ".entry k(\n{\n";
      m = (struct cuvk_cc_module *)1;
      UNIT_CHECK(!cuvk_cc_module_create(bad, sizeof(bad) - 1, &m, &err) && m == NULL &&
                 err.status == CUVK_CC_INVALID && err.line > 0);
   }

   /* Refusals, with the instruction and its line. */
   expect_refused("unknown instruction",
                  HEADER ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tbrkpt;\n\tret;\n}\n",
                  "k", CUVK_CC_UNSUPPORTED, 7, "instruction brkpt is not translated");
   expect_refused("warp instruction",
                  HEADER ".entry k()\n{\n\t.reg .b32 %r<3>;\n"
                         "\tshfl.sync.idx.b32 %r1, %r2, 0, 31, -1;\n\tret;\n}\n",
                  "k", CUVK_CC_UNSUPPORTED, 7, "needs 32-wide subgroups");
   expect_refused("clock", HEADER ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %clock;\n"
                  "\tret;\n}\n", "k", CUVK_CC_UNSUPPORTED, 7, "%clock");
   expect_refused("64-bit shared atomics",
                  HEADER ".entry k()\n{\n\t.shared .align 8 .b8 s[8];\n\t.reg .b64 %rd<2>;\n"
                         "\tatom.shared.add.u64 %rd1, [s], 1;\n\tret;\n}\n",
                  "k", CUVK_CC_UNSUPPORTED, 8, "64-bit shared memory atomics");
   expect_refused("recursion",
                  HEADER ".func f()\n{\n\tcall.uni f, ();\n\tret;\n}\n"
                         ".entry k()\n{\n\tcall.uni f, ();\n\tret;\n}\n",
                  "k", CUVK_CC_UNSUPPORTED, 4, "recursion");
   expect_refused("function address",
                  HEADER ".func f()\n{\n\tret;\n}\n.entry k()\n{\n\t.reg .b64 %rd<2>;\n"
                         "\tmov.u64 %rd1, f;\n\tret;\n}\n",
                  "k", CUVK_CC_UNSUPPORTED, 11, "indirect calls");
   /* The argument bytes follow from the format: one the slot never got
    * from a string of the module is refused. */
   expect_refused("printf, format unknown",
                  HEADER ".extern .func (.param .b32 r) vprintf(.param .b64 a, .param .b64 b);\n"
                         ".entry k()\n{\n\t.param .b64 a;\n\t.param .b64 b;\n\t.param .b32 r;\n"
                         "\tcall.uni (r), vprintf, (a, b);\n\tret;\n}\n",
                  "k", CUVK_CC_UNSUPPORTED, 10, "vprintf: the format is not a string");
   expect_refused("printf, format from a parameter",
                  HEADER ".extern .func (.param .b32 r) vprintf(.param .b64 a, .param .b64 b);\n"
                         ".entry k(.param .u64 f)\n{\n\t.reg .b64 %rd<2>;\n\t.param .b64 a;\n"
                         "\t.param .b64 b;\n\t.param .b32 r;\n\tld.param.u64 %rd1, [f];\n"
                         "\tst.param.b64 [a], %rd1;\n\tst.param.b64 [b], 0;\n"
                         "\tcall.uni (r), vprintf, (a, b);\n\tret;\n}\n",
                  "k", CUVK_CC_UNSUPPORTED, 14, "vprintf: the format is not a string");
   expect_refused("no such kernel", HEADER ".visible .entry empty()\n{\n\tret;\n}\n", "full",
                  CUVK_CC_INVALID, 0, "no kernel named full");
   expect_refused("a .func is no kernel", HEADER ".func f()\n{\n\tret;\n}\n", "f",
                  CUVK_CC_INVALID, 0, "no kernel named f");
}

int
main(int argc, char **argv)
{
   if (argc < 2) {
      printf("skipped: spirv-val not found (Debian package spirv-tools)\n");
      return 77;
   }
   spirv_val = argv[1];

   snippets();

   unsigned valid = 0, refused = 0, wide_valid = 0, wide_refused = 0;
   for (int i = 2; i < argc; i++) {
      check_file(argv[i], lavapipe, &valid, &refused);
      check_file(argv[i], nvidia, &wide_valid, &wide_refused);
   }
   if (argc > 2)
      printf("nvcc's kernels: %u valid, %u refused (8-wide subgroups); %u valid, %u refused "
             "(32-wide)\n", valid, refused, wide_valid, wide_refused);
   else
      printf("nvcc's kernels not available; snippets only\n");
   return unit_report("compiler.spirv.emit");
}
