/*
 * Translated kernels run on the device (lavapipe in CI) through
 * kernel_runner.h, each result checked against a reference computed here.
 *
 *    test_kernel_run CASE [KERNEL.ptx]
 *
 * Cases named after a kernel of tests/kernels take nvcc's PTX of it (a
 * kernel the compiler refuses as unsupported makes the case skip, 77,
 * naming the instruction, while the structurizer and the ALU lowering
 * are not merged); the others are PTX written here, each aimed at one part of the emitter
 * (shared memory and barriers, sub-word shared stores, atomics, calls,
 * local and generic memory, the fault word).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alu_ref.h"
#include "compiler_test.h"
#include "kernel_runner.h"

#define HEADER COMPILER_TEST_PTX_HEADER

static unsigned failures;
/* A kernel the compiler refuses as unsupported (the structurizer or the
 * ALU lowering not merged yet): the case says skipped, naming it, unless
 * something else failed. */
static bool skipped;

#define CHECK(cond)                                                              \
   do {                                                                          \
      if (!(cond)) {                                                             \
         fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
         failures++;                                                             \
      }                                                                          \
   } while (0)

/* Runs kernel and checks the fault word is expected; false when it did
 * not run. */
static bool
run(struct kr *r, const char *kernel, uint32_t grid, uint32_t block, uint32_t dyn,
    const struct kr_arg *args, unsigned n, uint32_t expected_fault)
{
   uint32_t fault;
   enum cuvk_cc_status status;
   const uint32_t g[3] = { grid, 1, 1 }, b[3] = { block, 1, 1 };

   if (!kr_run(r, kernel, g, b, dyn, args, n, &fault, &status)) {
      if (status == CUVK_CC_UNSUPPORTED)
         skipped = true;
      else
         failures++;
      return false;
   }
   if (fault != expected_fault) {
      fprintf(stderr, "%s: fault word %u, expected %u\n", kernel, fault, expected_fault);
      failures++;
   }
   return true;
}

/* Loads PTX written here; a failure fails the case. */
static bool
load_text(struct kr *r, const char *text, size_t len)
{
   if (kr_load(r, text, len))
      return true;
   failures++;
   return false;
}

/* ---- cases written here ---- */

/* y[i] = 3 * x[i] + i over 2 blocks, no branch: the frame, parameters,
 * specials, global loads and stores. */
static const char scale_ptx[] =
   HEADER ".visible .entry scale(.param .u64 x, .param .u64 y)\n{\n"
   "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<6>;\n"
   "\tld.param.u64 %rd1, [x];\n\tld.param.u64 %rd2, [y];\n"
   "\tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %ntid.x;\n\tmov.u32 %r3, %tid.x;\n"
   "\tmad.lo.s32 %r4, %r1, %r2, %r3;\n\tmul.wide.s32 %rd3, %r4, 4;\n"
   "\tadd.s64 %rd4, %rd1, %rd3;\n\tld.global.u32 %r5, [%rd4];\n"
   "\tmul.lo.s32 %r6, %r5, 3;\n\tadd.s32 %r7, %r6, %r4;\n"
   "\tadd.s64 %rd5, %rd2, %rd3;\n\tst.global.u32 [%rd5], %r7;\n\tret;\n}\n";

static void
case_scale(struct kr *r)
{
   enum { N = 64 };
   struct kr_buffer *x = kr_alloc(r, N * 4), *y = kr_alloc(r, N * 4);
   CHECK(x && y);
   if (!x || !y || !load_text(r, scale_ptx, sizeof(scale_ptx) - 1))
      return;
   for (int i = 0; i < N; i++)
      ((int32_t *)x->map)[i] = i * 7 - 100;
   if (!run(r, "scale", 2, N / 2, 0, (struct kr_arg[]){ KR_ARG(x->addr), KR_ARG(y->addr) }, 2, 0))
      return;
   for (int i = 0; i < N; i++)
      CHECK(((int32_t *)y->map)[i] == 3 * (i * 7 - 100) + i);
}

/* A wild pointer: the fault word says so, and no buffer changes. */
static void
case_fault(struct kr *r)
{
   struct kr_buffer *x = kr_alloc(r, 256), *y = kr_alloc(r, 256);
   CHECK(x && y);
   if (!x || !y || !load_text(r, scale_ptx, sizeof(scale_ptx) - 1))
      return;
   memset(y->map, 0x5a, 256);
   memset(x->map, 0x11, 256);
   /* Far below every buffer, and just past the end of x. */
   uint64_t wild = 0x1000;
   if (!run(r, "scale", 1, 8, 0, (struct kr_arg[]){ KR_ARG(x->addr), KR_ARG(wild) }, 2, 1))
      return;
   for (int i = 0; i < 256; i++)
      CHECK(((uint8_t *)y->map)[i] == 0x5a && ((uint8_t *)x->map)[i] == 0x11);
   uint64_t past = x->addr + x->size - 4 * 8 + 4;   /* thread 7 reads past x's end */
   if (!run(r, "scale", 1, 8, 0, (struct kr_arg[]){ KR_ARG(past), KR_ARG(y->addr) }, 2, 1))
      return;
   /* Threads 0..6 read x and wrote y; thread 7's read faulted. */
   for (int i = 0; i < 7; i++)
      CHECK(((int32_t *)y->map)[i] == 3 * 0x11111111 + i);
}

/* The page table path of the translation: a made-up cuvk address space
 * of three 2 MiB pages at 2^44 (no host address falls there), page 0
 * mapped to one buffer, page 2 to another, page 1 unmapped (entry 0). */
static void
case_page_table(struct kr *r)
{
   enum { N = 64 };
   const uint64_t base = UINT64_C(1) << 44, page = UINT64_C(1) << 21;
   struct kr_buffer *x = kr_alloc(r, N * 4), *y = kr_alloc(r, N * 4);
   struct kr_buffer *table = kr_alloc(r, 3 * 8);
   CHECK(x && y && table);
   if (!x || !y || !table || !load_text(r, scale_ptx, sizeof(scale_ptx) - 1))
      return;
   uint64_t *entries = table->map;
   entries[0] = x->addr - base;                 /* device = addr + entry */
   entries[1] = 0;
   entries[2] = y->addr - 8 - (base + 2 * page);  /* page 2, from byte 8 on, is y */
   r->page_table = table->addr;
   r->va_base = base;
   r->va_size = 3 * page;
   for (int i = 0; i < N; i++)
      ((int32_t *)x->map)[i] = 1000 - i;
   uint64_t xa = base, ya = base + 2 * page + 8;
   if (!run(r, "scale", 2, N / 2, 0, (struct kr_arg[]){ KR_ARG(xa), KR_ARG(ya) }, 2, 0))
      return;
   for (int i = 0; i < N; i++)
      CHECK(((int32_t *)y->map)[i] == 3 * (1000 - i) + i);
   /* The unmapped page faults, and nothing is written. */
   memset(y->map, 0, N * 4);
   uint64_t hole = base + page + 64;
   if (!run(r, "scale", 1, 8, 0, (struct kr_arg[]){ KR_ARG(xa), KR_ARG(hole) }, 2, 1))
      return;
   for (int i = 0; i < N; i++)
      CHECK(((int32_t *)y->map)[i] == 0);
   /* Past the space's end: neither the table nor a host range. */
   uint64_t past = base + 3 * page;
   run(r, "scale", 1, 8, 0, (struct kr_arg[]){ KR_ARG(past), KR_ARG(ya) }, 2, 1);
   r->page_table = r->va_base = r->va_size = 0;
}

/* %clock64 and %clock where the device has VK_KHR_shader_clock: a
 * thread's second reading is not before its first. */
static const char clock_ptx[] =
   HEADER ".visible .entry clk(.param .u64 out)\n{\n"
   "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<8>;\n"
   "\tld.param.u64 %rd1, [out];\n\tmov.u64 %rd2, %clock64;\n"
   "\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 16;\n\tadd.s64 %rd4, %rd1, %rd3;\n"
   "\tld.global.u64 %rd5, [%rd4];\n\tst.global.u64 [%rd4], %rd2;\n"
   "\tmov.u64 %rd6, %clock64;\n\tmov.u32 %r2, %clock;\n\tmov.u32 %r3, %clock_hi;\n"
   "\tst.global.u64 [%rd4+8], %rd6;\n\tret;\n}\n";

static void
case_clock(struct kr *r)
{
   enum { N = 32 };
   struct kr_buffer *out = kr_alloc(r, N * 16);
   CHECK(out != NULL);
   if (!out || !load_text(r, clock_ptx, sizeof(clock_ptx) - 1))
      return;
   printf("VK_KHR_shader_clock's subgroup clock: %s\n", r->target.shader_clock ? "yes" : "no");
   if (!r->target.shader_clock) {
      uint32_t fault;
      enum cuvk_cc_status status;
      const uint32_t g[3] = { 1, 1, 1 }, b[3] = { N, 1, 1 };
      CHECK(!kr_run(r, "clk", g, b, 0, (struct kr_arg[]){ KR_ARG(out->addr) }, 1, &fault,
                    &status));
      CHECK(status == CUVK_CC_UNSUPPORTED);
      return;
   }
   if (!run(r, "clk", 1, N, 0, (struct kr_arg[]){ KR_ARG(out->addr) }, 1, 0))
      return;
   const uint64_t *t = out->map;
   for (int i = 0; i < N; i++)
      CHECK(t[2 * i + 1] >= t[2 * i]);
}

/* trap: the fault word says so; what came before it is done, what comes
 * after is not (exit ends the thread in the same way, without a fault). */
static const char trap_ptx[] =
   HEADER ".visible .entry trapper(.param .u64 out, .param .u32 mode)\n{\n"
   "\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
   "\tld.param.u64 %rd1, [out];\n\tld.param.u32 %r1, [mode];\n"
   "\tst.global.u32 [%rd1], 1;\n\tsetp.eq.u32 %p1, %r1, 0;\n"
   "\t@%p1 exit;\n\ttrap;\n\tst.global.u32 [%rd1+4], 2;\n\tret;\n}\n";

static void
case_trap(struct kr *r)
{
   struct kr_buffer *out = kr_alloc(r, 8);
   CHECK(out != NULL);
   if (!out || !load_text(r, trap_ptx, sizeof(trap_ptx) - 1))
      return;
   uint32_t mode = 0;
   if (run(r, "trapper", 1, 4, 0, (struct kr_arg[]){ KR_ARG(out->addr), KR_ARG(mode) }, 2, 0))
      CHECK(((uint32_t *)out->map)[0] == 1 && ((uint32_t *)out->map)[1] == 0);
   mode = 1;
   memset(out->map, 0, 8);
   if (run(r, "trapper", 1, 4, 0, (struct kr_arg[]){ KR_ARG(out->addr), KR_ARG(mode) }, 2, 2))
      CHECK(((uint32_t *)out->map)[0] == 1 && ((uint32_t *)out->map)[1] == 0);
}

/* bar.red (__syncthreads_count, _and, _or), twice in a row. */
static const char bar_red_ptx[] =
   HEADER ".visible .entry redbar(.param .u64 out)\n{\n"
   "\t.reg .pred %p<5>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
   "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\tand.b32 %r2, %r1, 3;\n"
   "\tsetp.eq.u32 %p1, %r2, 0;\n\tbar.red.popc.u32 %r3, 0, %p1;\n"
   "\tbar.red.popc.u32 %r7, 0, !%p1;\n"
   "\tbar.red.and.pred %p2, 0, %p1;\n\tsetp.lt.u32 %p3, %r1, 1000;\n"
   "\tbar.red.and.pred %p3, 0, %p3;\n\tbar.red.or.pred %p4, 0, %p1;\n"
   "\tmul.wide.u32 %rd2, %r1, 20;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
   "\tst.global.u32 [%rd3], %r3;\n\tst.global.u32 [%rd3+16], %r7;\n"
   "\tselp.u32 %r4, 1, 0, %p2;\n\tst.global.u32 [%rd3+4], %r4;\n"
   "\tselp.u32 %r5, 1, 0, %p3;\n\tst.global.u32 [%rd3+8], %r5;\n"
   "\tselp.u32 %r6, 1, 0, %p4;\n\tst.global.u32 [%rd3+12], %r6;\n\tret;\n}\n";

static void
case_bar_red(struct kr *r)
{
   enum { BLOCK = 96 };
   struct kr_buffer *out = kr_alloc(r, BLOCK * 20);
   CHECK(out != NULL);
   if (!out || !load_text(r, bar_red_ptx, sizeof(bar_red_ptx) - 1))
      return;
   if (!run(r, "redbar", 2, BLOCK, 0, (struct kr_arg[]){ KR_ARG(out->addr) }, 1, 0))
      return;
   const uint32_t *o = out->map;
   for (int t = 0; t < BLOCK; t++) {
      CHECK(o[5 * t] == BLOCK / 4);
      CHECK(o[5 * t + 4] == BLOCK - BLOCK / 4);
      CHECK(o[5 * t + 1] == 0 && o[5 * t + 2] == 1 && o[5 * t + 3] == 1);
   }
}

/* Shared memory through a barrier: out[i] = in[block_end - 1 - i], with a
 * static array, a dynamic one, and byte stores from neighbouring threads
 * into the same words. */
static const char shared_ptx[] =
   HEADER ".extern .shared .align 4 .b8 dyn[];\n"
   ".visible .entry rev(.param .u64 in, .param .u64 out, .param .u64 bytes)\n{\n"
   "\t.shared .align 4 .b8 tile[256];\n"
   "\t.reg .b16 %h<2>;\n\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<10>;\n"
   "\tld.param.u64 %rd1, [in];\n\tld.param.u64 %rd2, [out];\n\tld.param.u64 %rd9, [bytes];\n"
   "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ntid.x;\n\tmov.u32 %r3, %ctaid.x;\n"
   "\tmad.lo.s32 %r4, %r3, %r2, %r1;\n\tmul.wide.u32 %rd3, %r4, 4;\n"
   "\tadd.s64 %rd4, %rd1, %rd3;\n\tld.global.u32 %r5, [%rd4];\n"
   "\tshl.b32 %r6, %r1, 2;\n\tmov.u32 %r7, tile;\n\tadd.s32 %r8, %r7, %r6;\n"
   "\tst.shared.u32 [%r8], %r5;\n"
   "\tmov.u32 %r9, dyn;\n\tadd.s32 %r10, %r9, %r1;\n\tcvt.u16.u32 %h1, %r4;\n"
   "\tst.shared.u8 [%r10], %h1;\n"
   "\tbar.sync 0;\n"
   "\tsub.s32 %r11, %r2, %r1;\n\tsub.s32 %r11, %r11, 1;\n\tshl.b32 %r11, %r11, 2;\n"
   "\tadd.s32 %r11, %r7, %r11;\n\tld.shared.u32 %r5, [%r11];\n"
   "\tadd.s64 %rd5, %rd2, %rd3;\n\tst.global.u32 [%rd5], %r5;\n"
   /* Thread t also copies the dynamic word t/4 (bytes 4(t/4)..) out. */
   "\tshr.u32 %r6, %r1, 2;\n\tshl.b32 %r6, %r6, 2;\n\tadd.s32 %r6, %r9, %r6;\n"
   "\tld.shared.u32 %r5, [%r6];\n\tadd.s64 %rd6, %rd9, %rd3;\n\tst.global.u32 [%rd6], %r5;\n"
   "\tret;\n}\n";

static void
case_shared(struct kr *r)
{
   enum { BLOCK = 64, GRID = 2, N = BLOCK * GRID };
   struct kr_buffer *in = kr_alloc(r, N * 4), *out = kr_alloc(r, N * 4);
   struct kr_buffer *bytes = kr_alloc(r, N * 4);
   CHECK(in && out && bytes);
   if (!in || !out || !bytes || !load_text(r, shared_ptx, sizeof(shared_ptx) - 1))
      return;
   for (int i = 0; i < N; i++)
      ((uint32_t *)in->map)[i] = 0x1000u + (uint32_t)i * 3;
   if (!run(r, "rev", GRID, BLOCK, BLOCK,
            (struct kr_arg[]){ KR_ARG(in->addr), KR_ARG(out->addr), KR_ARG(bytes->addr) }, 3, 0))
      return;
   for (int b = 0; b < GRID; b++) {
      for (int t = 0; t < BLOCK; t++) {
         int i = b * BLOCK + t;
         CHECK(((uint32_t *)out->map)[i] == 0x1000u + (uint32_t)(b * BLOCK + BLOCK - 1 - t) * 3);
         /* The word holding bytes 4(t/4)..+3, each byte its thread's
          * global index's low byte. */
         uint32_t w = 0;
         for (int k = 0; k < 4; k++)
            w |= (uint32_t)(uint8_t)(b * BLOCK + (t / 4) * 4 + k) << (8 * k);
         CHECK(((uint32_t *)bytes->map)[i] == w);
      }
   }
}

/* The register rules of spirv_lower.h on the device: loads and writes
 * narrower than the register extend (sign for .s), reads narrower than
 * the register take the low bits, a same-width read of another class is
 * the bits, a predicate read as a number is 1 or 0, immediates take the
 * instruction's width (an f64 literal in an f32 add is rounded). */
static const char values_ptx[] =
   HEADER ".visible .entry values(.param .u64 in, .param .u64 out)\n{\n"
   "\t.reg .pred %p<3>;\n\t.reg .b16 %h<4>;\n\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<12>;\n"
   "\t.reg .f32 %f<4>;\n\t.reg .f64 %fd<2>;\n"
   "\tld.param.u64 %rd1, [in];\n\tld.param.u64 %rd2, [out];\n"
   "\tld.global.s8 %r1, [%rd1];\n\tst.global.u32 [%rd2], %r1;\n"          /* 0: sign */
   "\tld.global.u8 %r2, [%rd1];\n\tst.global.u32 [%rd2+4], %r2;\n"        /* 1: zero */
   "\tld.global.s16 %rd3, [%rd1+2];\n\tst.global.u64 [%rd2+8], %rd3;\n"   /* 2,3 */
   "\tld.global.u16 %rd4, [%rd1+2];\n\tst.global.u64 [%rd2+16], %rd4;\n"  /* 4,5 */
   "\tld.global.u32 %r3, [%rd1+4];\n\tmov.b32 %f1, %r3;\n"
   "\tadd.f32 %f2, %f1, 0d3FF0000000000000;\n\tst.global.f32 [%rd2+24], %f2;\n" /* 6 */
   "\tmov.b32 %r4, %f2;\n\tst.global.u32 [%rd2+28], %r4;\n"              /* 7 */
   "\tst.global.u8 [%rd2+32], %r3;\n"                                       /* 8: low byte */
   "\tld.global.u32 %r5, [%rd1+8];\n\tsetp.lt.s32 %p1|%p2, %r5, 0;\n"
   "\tselp.u32 %r6, 1, 0, %p1;\n\tst.global.u32 [%rd2+36], %r6;\n"       /* 9 */
   "\tselp.u32 %r6, 1, 0, %p2;\n\tst.global.u32 [%rd2+40], %r6;\n"       /* 10 */
   "\tadd.s32 %r7, %r5, -7;\n\tst.global.u32 [%rd2+44], %r7;\n"          /* 11 */
   "\tcvt.s64.s32 %rd5, %r5;\n\tst.global.u64 [%rd2+48], %rd5;\n"        /* 12,13 */
   "\tcvt.u64.u32 %rd6, %r5;\n\tst.global.u64 [%rd2+56], %rd6;\n"        /* 14,15 */
   "\tcvt.u16.u32 %h1, %r5;\n\tcvt.s32.s16 %r8, %h1;\n\tst.global.u32 [%rd2+64], %r8;\n" /* 16 */
   "\tshr.s32 %r9, %r5, 40;\n\tst.global.u32 [%rd2+68], %r9;\n"          /* 17: clamped */
   "\tshl.b32 %r9, %r5, 33;\n\tst.global.u32 [%rd2+72], %r9;\n"          /* 18: 0 */
   "\tmov.b64 %rd7, 0d4000000000000000;\n\tst.global.u64 [%rd2+80], %rd7;\n" /* 20,21 */
   "\tmul.wide.u32 %rd8, %r5, %r5;\n\tst.global.u64 [%rd2+88], %rd8;\n"  /* 22,23 */
   "\tmul.wide.s32 %rd9, %r5, 3;\n\tst.global.u64 [%rd2+96], %rd9;\n"    /* 24,25 */
   "\tret;\n}\n";

static void
case_values(struct kr *r)
{
   struct kr_buffer *in = kr_alloc(r, 16), *out = kr_alloc(r, 26 * 4);
   CHECK(in && out);
   if (!in || !out || !load_text(r, values_ptx, sizeof(values_ptx) - 1))
      return;
   uint8_t *i8 = in->map;
   i8[0] = 0xf0;                       /* -16 as s8 */
   uint16_t h = 0x8001;
   memcpy(i8 + 2, &h, 2);
   float f = 2.5f;
   memcpy(i8 + 4, &f, 4);
   int32_t neg = -123456;
   memcpy(i8 + 8, &neg, 4);
   if (!run(r, "values", 1, 1, 0, (struct kr_arg[]){ KR_ARG(in->addr), KR_ARG(out->addr) }, 2, 0))
      return;
   const uint8_t *o = out->map;
   uint32_t u;
   uint64_t q;
   float g;
   memcpy(&u, o, 4);
   CHECK(u == 0xfffffff0u);
   memcpy(&u, o + 4, 4);
   CHECK(u == 0xf0u);
   memcpy(&q, o + 8, 8);
   CHECK(q == 0xffffffffffff8001ull);
   memcpy(&q, o + 16, 8);
   CHECK(q == 0x8001ull);
   memcpy(&g, o + 24, 4);
   CHECK(g == 3.5f);
   memcpy(&u, o + 28, 4);
   memcpy(&g, &u, 4);
   CHECK(g == 3.5f);
   uint32_t f_bits;
   memcpy(&f_bits, &f, 4);
   CHECK(o[32] == (f_bits & 0xff));
   memcpy(&u, o + 36, 4);
   CHECK(u == 1);
   memcpy(&u, o + 40, 4);
   CHECK(u == 0);
   memcpy(&u, o + 44, 4);
   CHECK((int32_t)u == neg - 7);
   memcpy(&q, o + 48, 8);
   CHECK((int64_t)q == neg);
   memcpy(&q, o + 56, 8);
   CHECK(q == (uint32_t)neg);
   memcpy(&u, o + 64, 4);
   CHECK((int32_t)u == (int16_t)(uint16_t)neg);
   memcpy(&u, o + 68, 4);
   CHECK(u == 0xffffffffu);
   memcpy(&u, o + 72, 4);
   CHECK(u == 0);
   memcpy(&q, o + 80, 8);
   CHECK(q == 0x4000000000000000ull);
   memcpy(&q, o + 88, 8);
   CHECK(q == (uint64_t)(uint32_t)neg * (uint32_t)neg);
   memcpy(&q, o + 96, 8);
   CHECK((int64_t)q == (int64_t)neg * 3);
}

/* Atomics: a global counter, a global max, f32 and f64 sums, inc with a
 * wrap, cas and exch, and a shared counter written back. */
static const char atomic_ptx[] =
   HEADER ".visible .entry atomics(.param .u64 p)\n{\n"
   "\t.shared .align 4 .b8 cnt[8];\n"
   "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n\t.reg .f32 %f<3>;\n\t.reg .f64 %fd<3>;\n"
   "\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n"
   /* Shared memory starts undefined, as in CUDA: every thread clears the
    * counters before the barrier. */
   "\tst.shared.u32 [cnt], 0;\n\tst.shared.u32 [cnt+4], 0;\n\tbar.sync 0;\n"
   "\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n\tmad.lo.s32 %r4, %r2, %r3, %r1;\n"
   "\tatom.global.add.u32 %r5, [%rd1], 1;\n"
   "\tatom.global.max.s32 %r5, [%rd1+4], %r4;\n"
   "\tcvt.rn.f32.s32 %f1, %r4;\n\tatom.global.add.f32 %f2, [%rd1+8], %f1;\n"
   "\tcvt.rn.f64.s32 %fd1, %r4;\n\tatom.global.add.f64 %fd2, [%rd1+16], %fd1;\n"
   "\tatom.global.inc.u32 %r5, [%rd1+24], 9;\n"
   "\tatom.global.cas.b32 %r5, [%rd1+28], 0, 77;\n"
   "\tatom.global.add.u64 %rd2, [%rd1+32], 4294967296;\n"
   "\tatom.global.dec.u32 %r5, [%rd1+40], 1000;\n"
   "\tatom.shared.add.u32 %r6, [cnt], 2;\n"
   "\tatom.shared.add.f32 %f2, [cnt+4], 0f3F000000;\n"
   "\tbar.sync 0;\n"
   "\tld.shared.u32 %r7, [cnt];\n\tshl.b32 %r2, %r2, 3;\n\tcvt.u64.u32 %rd3, %r2;\n"
   "\tadd.s64 %rd3, %rd1, %rd3;\n\tst.global.u32 [%rd3+48], %r7;\n"
   "\tld.shared.f32 %f1, [cnt+4];\n\tst.global.f32 [%rd3+52], %f1;\n"
   "\tret;\n}\n";

static void
case_atomics(struct kr *r)
{
   enum { BLOCK = 32, GRID = 4, N = BLOCK * GRID };
   struct kr_buffer *p = kr_alloc(r, 48 + 8 * GRID);
   CHECK(p != NULL);
   if (!p || !load_text(r, atomic_ptx, sizeof(atomic_ptx) - 1))
      return;
   uint8_t *m = p->map;
   int32_t minus = -5;
   memcpy(m + 4, &minus, 4);
   uint32_t dec_start = 500;
   memcpy(m + 40, &dec_start, 4);
   if (!run(r, "atomics", GRID, BLOCK, 0, (struct kr_arg[]){ KR_ARG(p->addr) }, 1, 0))
      return;
   uint32_t u;
   int32_t s;
   float f;
   double d;
   uint64_t q;
   memcpy(&u, m, 4);
   CHECK(u == N);
   memcpy(&s, m + 4, 4);
   CHECK(s == N - 1);
   memcpy(&f, m + 8, 4);
   CHECK(f == (float)(N * (N - 1) / 2));   /* exact: small integers */
   memcpy(&d, m + 16, 8);
   CHECK(d == (double)(N * (N - 1) / 2));
   memcpy(&u, m + 24, 4);
   CHECK(u == N % 10);                      /* inc wraps after 9 */
   memcpy(&u, m + 28, 4);
   CHECK(u == 77);
   memcpy(&q, m + 32, 8);
   CHECK(q == (uint64_t)N << 32);
   memcpy(&u, m + 40, 4);
   CHECK(u == 500 - N);
   for (int b = 0; b < GRID; b++) {
      memcpy(&u, m + 48 + 8 * b, 4);
      CHECK(u == 2 * BLOCK);
      memcpy(&f, m + 52 + 8 * b, 4);
      CHECK(f == 0.5f * BLOCK);
   }
}

/* Atomics on generic addresses: shared (cvta.shared), global, 64-bit
 * global, and a local array's word (a plain read-modify-write). */
static const char generic_atomic_ptx[] =
   HEADER ".visible .entry gatom(.param .u64 p)\n{\n"
   "\t.shared .align 4 .b8 sh[8];\n\t.local .align 4 .b8 loc[8];\n"
   "\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<8>;\n"
   "\tld.param.u64 %rd1, [p];\n\tst.shared.u32 [sh], 0;\n\tbar.sync 0;\n"
   "\tmov.u64 %rd2, sh;\n\tcvta.shared.u64 %rd3, %rd2;\n"
   "\tatom.add.u32 %r1, [%rd3], 3;\n"
   "\tatom.add.u32 %r2, [%rd1], 1;\n"
   "\tatom.add.u64 %rd4, [%rd1+8], 5;\n"
   "\tmov.u32 %r3, %tid.x;\n\tatom.max.u32 %r4, [%rd1+16], %r3;\n"
   "\tmov.u64 %rd5, loc;\n\tcvta.local.u64 %rd6, %rd5;\n\tst.local.u32 [loc], 10;\n"
   "\tatom.add.u32 %r4, [%rd6], %r3;\n\tld.local.u32 %r5, [loc];\n"
   "\tbar.sync 0;\n"
   "\tld.shared.u32 %r1, [sh];\n\tatom.add.u32 %r2, [%rd1+4], %r1;\n"
   "\tatom.add.u32 %r2, [%rd1+20], %r5;\n"
   "\tret;\n}\n";

static void
case_generic_atomics(struct kr *r)
{
   enum { BLOCK = 32, GRID = 3, N = BLOCK * GRID };
   struct kr_buffer *p = kr_alloc(r, 24);
   CHECK(p != NULL);
   if (!p || !load_text(r, generic_atomic_ptx, sizeof(generic_atomic_ptx) - 1))
      return;
   if (!run(r, "gatom", GRID, BLOCK, 0, (struct kr_arg[]){ KR_ARG(p->addr) }, 1, 0))
      return;
   uint32_t u[6];
   memcpy(u, p->map, 24);
   CHECK(u[0] == N);
   CHECK(u[1] == N * 3 * BLOCK);              /* every thread adds its block's total */
   CHECK(((uint64_t)u[3] << 32 | u[2]) == 5ull * N);
   CHECK(u[4] == BLOCK - 1);
   /* Each thread's local word went from 10 to 10 + tid. */
   CHECK(u[5] == GRID * (10 * BLOCK + BLOCK * (BLOCK - 1) / 2));
}

/* A .func call with arguments and a return value, local memory through
 * generic addresses, and a module global read through the globals
 * table. */
static const char call_ptx[] =
   HEADER ".global .align 4 .u32 bias[2] = {1000, 2000};\n"
   ".func (.param .b32 ret) mix(.param .b32 a, .param .b32 b)\n{\n"
   "\t.local .align 4 .b8 tmp[16];\n"
   "\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<3>;\n"
   "\tld.param.u32 %r1, [a];\n\tld.param.u32 %r2, [b];\n"
   "\tmov.u64 %rd1, tmp;\n\tcvta.local.u64 %rd2, %rd1;\n"
   "\tst.u32 [%rd2+4], %r1;\n\tst.local.u32 [tmp+8], %r2;\n"
   "\tld.local.u32 %r3, [tmp+4];\n\tld.u32 %r4, [%rd2+8];\n"
   "\tmul.lo.s32 %r5, %r3, %r4;\n\tld.global.u32 %r3, [bias+4];\n"
   "\tadd.s32 %r5, %r5, %r3;\n\tst.param.b32 [ret], %r5;\n\tret;\n}\n"
   ".visible .entry caller(.param .u64 out)\n{\n"
   "\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<4>;\n"
   "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\tadd.s32 %r2, %r1, 3;\n"
   "\t{\n\t.param .b32 p0;\n\tst.param.b32 [p0], %r1;\n\t.param .b32 p1;\n"
   "\tst.param.b32 [p1], %r2;\n\t.param .b32 r0;\n"
   "\tcall.uni (r0), mix, (p0, p1);\n\tld.param.b32 %r3, [r0];\n\t}\n"
   "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
   "\tst.global.u32 [%rd3], %r3;\n\tret;\n}\n";

static void
case_call(struct kr *r)
{
   enum { N = 32 };
   struct kr_buffer *out = kr_alloc(r, N * 4);
   CHECK(out != NULL);
   if (!out || !load_text(r, call_ptx, sizeof(call_ptx) - 1))
      return;
   if (!run(r, "caller", 1, N, 0, (struct kr_arg[]){ KR_ARG(out->addr) }, 1, 0))
      return;
   for (int i = 0; i < N; i++)
      CHECK(((uint32_t *)out->map)[i] == (uint32_t)(i * (i + 3) + 2000));
}

/* ---- nvcc's kernels ---- */

static const char *ptx_path;
/* The PTX was compiled with --use_fast_math: approximate results are
 * checked within PTX's bounds instead of exactly. */
static bool fast_math;

/* The distance between |x| and the next float up. */
static float
ulpf(float x)
{
   x = fabsf(x);
   return nextafterf(x, INFINITY) - x;
}

static bool
load_file(struct kr *r)
{
   size_t len;
   char *text = ptx_path ? compiler_test_read(ptx_path, &len) : NULL;
   if (!text) {
      fprintf(stderr, "cannot read %s\n", ptx_path ? ptx_path : "(no PTX given)");
      failures++;
      return false;
   }
   bool ok = kr_load(r, text, len);
   free(text);
   if (!ok)
      failures++;
   return ok;
}

static void
case_vector_add(struct kr *r)
{
   enum { N = 1000, BLOCK = 128 };
   struct kr_buffer *a = kr_alloc(r, N * 4), *b = kr_alloc(r, N * 4), *c = kr_alloc(r, N * 4 + 64);
   CHECK(a && b && c);
   if (!a || !b || !c || !load_file(r))
      return;
   for (int i = 0; i < N; i++) {
      ((float *)a->map)[i] = (float)i * 0.5f;
      ((float *)b->map)[i] = 1.0f / (float)(i + 1);
   }
   memset((uint8_t *)c->map + N * 4, 0x77, 64);
   int n = N;
   if (!run(r, "vector_add", (N + BLOCK - 1) / BLOCK, BLOCK, 0,
            (struct kr_arg[]){ KR_ARG(a->addr), KR_ARG(b->addr), KR_ARG(c->addr), KR_ARG(n) }, 4,
            0))
      return;
   for (int i = 0; i < N; i++)
      CHECK(((float *)c->map)[i] == (float)i * 0.5f + 1.0f / (float)(i + 1));
   /* The bounds check held: nothing past n. */
   for (int i = 0; i < 64; i++)
      CHECK(((uint8_t *)c->map)[N * 4 + i] == 0x77);
}

/* tests/kernels/wide_access.cu: 32-byte structs copied through the
 * kernel, one ld/st.global.v8.f32, .v4.f64 or .v4.u64 each for sm_100
 * (two 16-byte accesses for sm_75).  A refusal fails here: these are
 * plain loads and stores, whatever target nvcc wrote. */
static void
case_wide_access(struct kr *r)
{
   enum { N = 777, BLOCK = 64, GUARD = 64 };
   struct kr_buffer *buf[8];
   for (int k = 0; k < 8; k++) {
      buf[k] = kr_alloc(r, N * 32 + GUARD);
      CHECK(buf[k] != NULL);
      if (!buf[k])
         return;
      CHECK(buf[k]->addr % 32 == 0);
   }
   if (!load_file(r))
      return;
   float *a = buf[0]->map;
   double *c = buf[2]->map, *e = buf[4]->map;
   int64_t *g = buf[6]->map;
   for (int i = 0; i < N * 8; i++)
      a[i] = (float)(i % 1013) * 0.37f - 100.0f;
   for (int i = 0; i < N * 4; i++) {
      c[i] = (double)i * 1.0000001 - 3.5;
      e[i] = 1.0 / (double)(i + 1);
      g[i] = (int64_t)(0x0123456789abcdefull * (uint64_t)(i + 1));
   }
   for (int k = 1; k < 8; k += 2)
      memset(buf[k]->map, 0x77, N * 32 + GUARD);
   int n = N;
   struct kr_arg args[9];
   for (int k = 0; k < 8; k++)
      args[k] = KR_ARG(buf[k]->addr);
   args[8] = KR_ARG(n);
   if (!run(r, "wide_access", (N + BLOCK - 1) / BLOCK, BLOCK, 0, args, 9, 0)) {
      if (skipped)
         failures++;
      skipped = false;
      return;
   }
   const float *b = buf[1]->map;
   const double *d = buf[3]->map, *f = buf[5]->map;
   const int64_t *h = buf[7]->map;
   for (int i = 0; i < N * 8; i++)
      CHECK(b[i] == a[i] * 2.0f + (float)(i % 8));
   for (int i = 0; i < N * 4; i++) {
      CHECK(d[i] == c[i] + 1.0);
      double fe = i % 4 == 0 ? e[i] * 3.0 : i % 4 == 3 ? e[i] - 1.0 : e[i];
      CHECK(f[i] == fe);
      uint64_t gu = (uint64_t)g[i];
      uint64_t he = i % 4 == 0 ? gu + 1 : i % 4 == 1 ? gu ^ 5 : i % 4 == 2 ? gu << 1 : 0 - gu;
      CHECK((uint64_t)h[i] == he);
   }
   /* Nothing past element n - 1 was written. */
   for (int k = 1; k < 8; k += 2)
      for (int i = 0; i < GUARD; i++)
         CHECK(((uint8_t *)buf[k]->map)[N * 32 + i] == 0x77);
}

static void
case_saxpy(struct kr *r)
{
   enum { N = 3000 };
   struct kr_buffer *x = kr_alloc(r, N * 4), *y = kr_alloc(r, N * 4);
   CHECK(x && y);
   if (!x || !y || !load_file(r))
      return;
   for (int i = 0; i < N; i++) {
      ((float *)x->map)[i] = (float)(i % 17) - 3.0f;
      ((float *)y->map)[i] = (float)i * 0.25f;
   }
   unsigned long long n = N;
   float a = 1.5f;
   /* 4 blocks of 64: the grid-stride loop goes round 12 times. */
   if (!run(r, "saxpy", 4, 64, 0,
            (struct kr_arg[]){ KR_ARG(n), KR_ARG(a), KR_ARG(x->addr), KR_ARG(y->addr) }, 4, 0))
      return;
   for (int i = 0; i < N; i++) {
      float want = fmaf(a, (float)(i % 17) - 3.0f, (float)i * 0.25f);
      float plain = a * ((float)(i % 17) - 3.0f) + (float)i * 0.25f;
      float got = ((float *)y->map)[i];
      CHECK(got == want || got == plain);
   }
}

static void
case_reduce(struct kr *r)
{
   enum { BLOCK = 128, GRID = 6, N = BLOCK * GRID * 2 - 37 };
   struct kr_buffer *in = kr_alloc(r, N * 4), *out = kr_alloc(r, GRID * 4);
   struct kr_buffer *iin = kr_alloc(r, N * 4), *lout = kr_alloc(r, GRID * 2 * 8);
   CHECK(in && out && iin && lout);
   if (!in || !out || !iin || !lout || !load_file(r))
      return;
   for (int i = 0; i < N; i++) {
      ((float *)in->map)[i] = (float)(i % 13);   /* sums stay exact */
      ((int32_t *)iin->map)[i] = i * 3 - 1000;
   }
   unsigned n = N;
   if (run(r, "reduce_sum", GRID, BLOCK, 0,
           (struct kr_arg[]){ KR_ARG(in->addr), KR_ARG(out->addr), KR_ARG(n) }, 3, 0)) {
      for (int b = 0; b < GRID; b++) {
         float want = 0;
         for (int i = b * BLOCK * 2; i < (b + 1) * BLOCK * 2 && i < N; i++)
            want += (float)(i % 13);
         CHECK(((float *)out->map)[b] == want);
      }
   }
   int ni = N;
   const int grid2 = (N + BLOCK - 1) / BLOCK;
   if (run(r, "reduce_dynamic", (uint32_t)grid2, BLOCK, BLOCK * 8,
           (struct kr_arg[]){ KR_ARG(iin->addr), KR_ARG(lout->addr), KR_ARG(ni) }, 3, 0)) {
      for (int b = 0; b < grid2; b++) {
         long long want = 0;
         for (int i = b * BLOCK; i < (b + 1) * BLOCK && i < N; i++)
            want += i * 3 - 1000;
         CHECK(((long long *)lout->map)[b] == want);
      }
   }
   /* All of the device's shared memory as the dynamic part: the module's
    * array must be exactly that, or Vulkan refuses the pipeline (it was
    * a word more once, which the validation layer flagged). */
   memset(lout->map, 0, GRID * 2 * 8);
   if (run(r, "reduce_dynamic", (uint32_t)grid2, BLOCK, r->target.max_shared_bytes,
           (struct kr_arg[]){ KR_ARG(iin->addr), KR_ARG(lout->addr), KR_ARG(ni) }, 3, 0)) {
      for (int b = 0; b < grid2; b++) {
         long long want = 0;
         for (int i = b * BLOCK; i < (b + 1) * BLOCK && i < N; i++)
            want += i * 3 - 1000;
         CHECK(((long long *)lout->map)[b] == want);
      }
   }
}

static void
case_loops(struct kr *r)
{
   enum { N = 200 };
   struct kr_buffer *keys = kr_alloc(r, N * 4), *found = kr_alloc(r, N * 4);
   struct kr_buffer *out = kr_alloc(r, N * 4);
   CHECK(keys && found && out);
   if (!keys || !found || !out || !load_file(r))
      return;
   for (int i = 0; i < N; i++)
      ((int32_t *)keys->map)[i] = (i * 37) % 23 - 4;
   int n = N, wanted = 9;
   if (run(r, "first_match", (N + 63) / 64, 64, 0,
           (struct kr_arg[]){ KR_ARG(keys->addr), KR_ARG(n), KR_ARG(wanted), KR_ARG(found->addr) },
           4, 0)) {
      for (int t = 0; t < N; t++) {
         int hit = -1;
         for (int i = t; i < N; i += 7) {
            int k = ((int32_t *)keys->map)[i];
            if (k < 0)
               continue;
            if (k == wanted) {
               hit = i;
               break;
            }
         }
         CHECK(((int32_t *)found->map)[t] == hit);
      }
   }
   if (run(r, "classify", (N + 63) / 64, 64, 0,
           (struct kr_arg[]){ KR_ARG(keys->addr), KR_ARG(out->addr), KR_ARG(n) }, 3, 0)) {
      const int32_t *in = keys->map;
      for (int t = 0; t < N; t++) {
         float table[16];
         for (int i = 0; i < 16; i++)
            table[i] = i * 0.5f + (float)in[(t + i) % N];
         float want;
         switch (in[t] & 3) {
         case 0: want = table[in[t] & 15]; break;
         case 1: want = -table[(in[t] >> 4) & 15]; break;
         case 2: want = sqrtf(fabsf(table[3])) / (float)(t + 1); break;
         default: want = 1.0e-3f; break;
         }
         float got = ((float *)out->map)[t];
         if ((in[t] & 3) == 2 && fast_math)
            /* --use_fast_math: sqrt.approx (PTX bounds it by 2^-22
             * relative error here) and div.approx (2 ulp), so allow 4 ulp. */
            CHECK(fabsf(got - want) <= 4.0f * ulpf(want));
         else
            CHECK(got == want);
      }
   }
}

static void
case_histogram(struct kr *r)
{
   enum { N = 2000, BLOCK = 64, GRID = 4 };
   struct kr_buffer *data = kr_alloc(r, N), *bins = kr_alloc(r, 256 * 4);
   struct kr_buffer *total = kr_alloc(r, 8), *fsum = kr_alloc(r, 4), *imax = kr_alloc(r, 4);
   struct kr_buffer *dsum = kr_alloc(r, 8);
   CHECK(data && bins && total && fsum && imax && dsum);
   if (!data || !bins || !total || !fsum || !imax || !dsum || !load_file(r))
      return;
   uint8_t *d = data->map;
   for (int i = 0; i < N; i++)
      d[i] = (uint8_t)((i * 131 + 7) % 251);
   int n = N;
   if (!run(r, "histogram", GRID, BLOCK, 0,
            (struct kr_arg[]){ KR_ARG(data->addr), KR_ARG(n), KR_ARG(bins->addr),
                               KR_ARG(total->addr), KR_ARG(fsum->addr), KR_ARG(imax->addr),
                               KR_ARG(dsum->addr) },
            7, 0))
      return;
   static const unsigned weights[4] = { 1, 2, 3, 5 };
   unsigned want[64] = { 0 };
   unsigned long long want_total = 0;
   double want_d = 0;
   float want_f = 0;
   int want_max = 0;
   for (int i = 0; i < N; i++) {
      want[d[i] & 63] += weights[d[i] & 3];
      want_d += d[i] * ((i & 1) ? 2.0 : 0.5);
      want_f += (float)d[i];
      want_max = d[i] > want_max ? d[i] : want_max;
   }
   const uint32_t *b = bins->map;
   for (int i = 0; i < 64; i++) {
      want_total += want[i];
      /* Each block adds its own bins. */
      CHECK(b[i] == want[i]);
      CHECK(b[64 + i] == 1);
   }
   CHECK(*(unsigned long long *)total->map == want_total);
   CHECK(*(int32_t *)imax->map == want_max);
   CHECK(fabs(*(double *)dsum->map - want_d) < 1e-6);
   /* Integers below 2^24 add exactly in any order. */
   CHECK(*(float *)fsum->map == want_f);
   CHECK(b[192] == 0xffffffffu);
}

static void
case_device_call(struct kr *r)
{
   enum { N = 100 };
   struct kr_buffer *xs = kr_alloc(r, N * 4), *out = kr_alloc(r, N * 4 + 16);
   CHECK(xs && out);
   if (!xs || !out || !load_file(r))
      return;
   for (int i = 0; i < N; i++)
      ((int32_t *)xs->map)[i] = i % 11 - 5;
   int n = N;
   if (!run(r, "eval_poly", (N + 31) / 32, 32, 0,
            (struct kr_arg[]){ KR_ARG(xs->addr), KR_ARG(out->addr), KR_ARG(n) }, 3, 0))
      return;
   for (int t = 0; t < N; t++) {
      int x = t % 11 - 5, coef[4] = { 3, -1, 2, t & 7 }, acc = 0;
      for (int i = 3; i >= 0; i--)
         acc = acc * x + coef[i];
      CHECK(((int32_t *)out->map)[t] == acc);
   }
}

/* Warp primitives where the device's subgroups are 32 wide; elsewhere
 * the warp kernel is refused naming shfl, and the plain kernel of the
 * same module still runs. */
static void
case_warp(struct kr *r)
{
   enum { BLOCK = 64, GRID = 2, N = BLOCK * GRID, WARPS = N / 32 };
   struct kr_buffer *in = kr_alloc(r, N * 4), *out = kr_alloc(r, (N + WARPS) * 4);
   struct kr_buffer *ballots = kr_alloc(r, WARPS * 4);
   CHECK(in && out && ballots);
   if (!in || !out || !ballots || !load_file(r))
      return;
   int32_t *iv = in->map;
   for (int i = 0; i < N; i++)
      iv[i] = (i * 29) % 17 - 5;
   if (run(r, "plain_copy", GRID, BLOCK, 0,
           (struct kr_arg[]){ KR_ARG(in->addr), KR_ARG(out->addr) }, 2, 0))
      for (int i = 0; i < N; i++)
         CHECK(((int32_t *)out->map)[i] == iv[i]);
   if (r->target.subgroup_size != 32) {
      uint32_t fault;
      enum cuvk_cc_status status;
      const uint32_t g[3] = { GRID, 1, 1 }, b[3] = { BLOCK, 1, 1 };
      CHECK(!kr_run(r, "warp_sum", g, b, 0,
                    (struct kr_arg[]){ KR_ARG(in->addr), KR_ARG(out->addr),
                                       KR_ARG(ballots->addr) },
                    3, &fault, &status));
      CHECK(status == CUVK_CC_UNSUPPORTED);
      printf("warp_sum refused on %u-wide subgroups, as it must be\n", r->target.subgroup_size);
      return;
   }
   if (!run(r, "warp_sum", GRID, BLOCK, 0,
            (struct kr_arg[]){ KR_ARG(in->addr), KR_ARG(out->addr), KR_ARG(ballots->addr) }, 3,
            0))
      return;
   const int32_t *o = out->map;
   for (int w = 0; w < WARPS; w++) {
      int32_t sum = 0;
      uint32_t ball = 0;
      bool any_neg = false;
      for (int l = 0; l < 32; l++) {
         sum += iv[w * 32 + l];
         ball |= (uint32_t)(iv[w * 32 + l] > 0) << l;
         any_neg |= iv[(w * 32 + l) ^ 1] < 0;
      }
      bool all = iv[w * 32 + 3] > -1000;
      for (int l = 0; l < 32; l++) {
         int t = w * 32 + l;
         int32_t z = l >= 2 ? iv[t - 2] : iv[t];
         if (all || any_neg)
            z += 1000;
         CHECK(o[t] == z);
      }
      CHECK(o[N + w] == sum);
      CHECK(((uint32_t *)ballots->map)[w] == ball);
   }
}

/* Every compare-and-swap loop under contention, checked by the old values
 * each thread gets back: atomics run one after another, so a counter's
 * old values must be exactly the values it passed through, each once (a
 * success reported as a failure, or a write that nobody saw as its own,
 * shows as a missing or repeated value).  32 global counters, 32 threads
 * each: nvcc's loop around atom.cas.b16 and f16 add on neighbouring
 * 16-bit counters (gid & 31: the lanes of a subgroup on both halves of
 * words), inc, dec, f32, f64 and f16x2 add ((gid >> 3) & 31: a
 * subgroup's 8 lanes on one counter); 8 shared counters in each block, 16
 * threads each, likewise: cas.b16 and f16 add (tid & 7), inc, dec and
 * f32 add (a CAS loop on shared memory; (tid >> 3) & 7).  Olds go to
 * olds[op * N + gid], the shared counters' final words to
 * sout[ctaid * 32 + k].  Last, nvcc's cas.b16 loop again through
 * generic addresses (global gid & 31, shared tid & 7).  Global f32 add is OpAtomicFAddEXT where the
 * device has it (lavapipe), a loop elsewhere. */
static const char cas_loops_ptx[] =
   HEADER ".visible .entry cas_loops(.param .u64 g, .param .u64 olds, .param .u64 sout)\n{\n"
   "\t.shared .align 8 .b8 sm[144];\n"
   "\t.reg .pred %p<4>;\n\t.reg .b16 %rs<8>;\n\t.reg .b32 %r<20>;\n\t.reg .b64 %rd<20>;\n"
   "\t.reg .f32 %f<2>;\n\t.reg .f64 %fd<2>;\n"
   "\tld.param.u64 %rd1, [g];\n\tld.param.u64 %rd2, [olds];\n\tld.param.u64 %rd3, [sout];\n"
   "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
   "\tmad.lo.s32 %r4, %r2, %r3, %r1;\n\tmov.u32 %r5, %nctaid.x;\n\tmul.lo.s32 %r6, %r5, %r3;\n"
   "\tmul.wide.u32 %rd11, %r6, 4;\n\tmov.u32 %r14, sm;\n"
   /* Shared words 12..19 (the dec counters) start at 1000, the rest 0. */
   "\tsetp.lt.u32 %p1, %r1, 36;\n\t@!%p1 bra $INIT_DONE;\n"
   "\tsetp.ge.u32 %p2, %r1, 12;\n\tsetp.lt.u32 %p3, %r1, 20;\n\tand.pred %p2, %p2, %p3;\n"
   "\tselp.u32 %r7, 1000, 0, %p2;\n\tshl.b32 %r8, %r1, 2;\n\tadd.s32 %r9, %r14, %r8;\n"
   "\tst.shared.u32 [%r9], %r7;\n"
   "$INIT_DONE:\n\tbar.sync 0;\n"
   /* Global: nvcc's atomicCAS loop on an unsigned short. */
   "\tand.b32 %r10, %r4, 31;\n\tmul.wide.u32 %rd12, %r10, 2;\n\tadd.s64 %rd12, %rd1, %rd12;\n"
   "\tld.volatile.global.u16 %rs1, [%rd12];\n"
   "$G16:\n\tadd.s16 %rs2, %rs1, 1;\n\tatom.global.cas.b16 %rs3, [%rd12], %rs1, %rs2;\n"
   "\tsetp.ne.s16 %p1, %rs1, %rs3;\n\tmov.u16 %rs1, %rs3;\n\t@%p1 bra $G16;\n"
   "\tcvt.u32.u16 %r11, %rs1;\n\tmul.wide.u32 %rd13, %r4, 4;\n\tadd.s64 %rd13, %rd2, %rd13;\n"
   "\tst.global.u32 [%rd13], %r11;\n"
   "\tshr.u32 %r18, %r4, 3;\n\tand.b32 %r18, %r18, 31;\n"
   "\tmul.wide.u32 %rd14, %r18, 4;\n\tadd.s64 %rd15, %rd1, %rd14;\n"
   "\tatom.global.inc.u32 %r11, [%rd15+64], 1000;\n"
   "\tadd.s64 %rd13, %rd13, %rd11;\n\tst.global.u32 [%rd13], %r11;\n"
   "\tatom.global.dec.u32 %r11, [%rd15+192], 1000;\n"
   "\tadd.s64 %rd13, %rd13, %rd11;\n\tst.global.u32 [%rd13], %r11;\n"
   "\tatom.global.add.f32 %f1, [%rd15+320], 0f3F800000;\n"
   "\tadd.s64 %rd13, %rd13, %rd11;\n\tst.global.f32 [%rd13], %f1;\n"
   "\tmul.wide.u32 %rd16, %r18, 8;\n\tadd.s64 %rd16, %rd1, %rd16;\n"
   "\tatom.global.add.f64 %fd1, [%rd16+448], 0d3FF0000000000000;\n"
   "\tcvt.rn.f32.f64 %f1, %fd1;\n\tadd.s64 %rd13, %rd13, %rd11;\n\tst.global.f32 [%rd13], %f1;\n"
   "\tmov.b16 %rs4, 0x3C00;\n\tatom.global.add.noftz.f16 %rs5, [%rd12+704], %rs4;\n"
   "\tcvt.u32.u16 %r11, %rs5;\n\tadd.s64 %rd13, %rd13, %rd11;\n\tst.global.u32 [%rd13], %r11;\n"
   "\tmov.b32 %r12, 0x40003C00;\n\tatom.global.add.noftz.f16x2 %r11, [%rd15+768], %r12;\n"
   "\tadd.s64 %rd13, %rd13, %rd11;\n\tst.global.u32 [%rd13], %r11;\n"
   /* Shared. */
   "\tand.b32 %r13, %r1, 7;\n\tshl.b32 %r15, %r13, 1;\n\tadd.s32 %r15, %r14, %r15;\n"
   "\tld.volatile.shared.u16 %rs1, [%r15];\n"
   "$S16:\n\tadd.s16 %rs2, %rs1, 1;\n\tatom.shared.cas.b16 %rs3, [%r15], %rs1, %rs2;\n"
   "\tsetp.ne.s16 %p1, %rs1, %rs3;\n\tmov.u16 %rs1, %rs3;\n\t@%p1 bra $S16;\n"
   "\tcvt.u32.u16 %r11, %rs1;\n\tadd.s64 %rd13, %rd13, %rd11;\n\tst.global.u32 [%rd13], %r11;\n"
   "\tshr.u32 %r19, %r1, 3;\n\tand.b32 %r19, %r19, 7;\n"
   "\tshl.b32 %r16, %r19, 2;\n\tadd.s32 %r16, %r14, %r16;\n"
   "\tatom.shared.inc.u32 %r11, [%r16+16], 1000;\n"
   "\tadd.s64 %rd13, %rd13, %rd11;\n\tst.global.u32 [%rd13], %r11;\n"
   "\tatom.shared.dec.u32 %r11, [%r16+48], 1000;\n"
   "\tadd.s64 %rd13, %rd13, %rd11;\n\tst.global.u32 [%rd13], %r11;\n"
   "\tatom.shared.add.f32 %f1, [%r16+80], 0f3F800000;\n"
   "\tadd.s64 %rd13, %rd13, %rd11;\n\tst.global.f32 [%rd13], %f1;\n"
   "\tatom.shared.add.noftz.f16 %rs5, [%r15+112], %rs4;\n"
   "\tcvt.u32.u16 %r11, %rs5;\n\tadd.s64 %rd13, %rd13, %rd11;\n\tst.global.u32 [%rd13], %r11;\n"
   /* cas.b16 through generic addresses, into global and shared memory. */
   "\tcvta.global.u64 %rd19, %rd12;\n\tadd.s64 %rd19, %rd19, 896;\n"
   "\tld.volatile.u16 %rs1, [%rd19];\n"
   "$X16:\n\tadd.s16 %rs2, %rs1, 1;\n\tatom.cas.b16 %rs3, [%rd19], %rs1, %rs2;\n"
   "\tsetp.ne.s16 %p1, %rs1, %rs3;\n\tmov.u16 %rs1, %rs3;\n\t@%p1 bra $X16;\n"
   "\tcvt.u32.u16 %r11, %rs1;\n\tadd.s64 %rd13, %rd13, %rd11;\n\tst.global.u32 [%rd13], %r11;\n"
   "\tmov.u64 %rd17, sm;\n\tcvta.shared.u64 %rd17, %rd17;\n\tmul.wide.u32 %rd18, %r13, 2;\n"
   "\tadd.s64 %rd17, %rd17, %rd18;\n\tadd.s64 %rd17, %rd17, 128;\n"
   "\tld.volatile.u16 %rs1, [%rd17];\n"
   "$Y16:\n\tadd.s16 %rs2, %rs1, 1;\n\tatom.cas.b16 %rs3, [%rd17], %rs1, %rs2;\n"
   "\tsetp.ne.s16 %p1, %rs1, %rs3;\n\tmov.u16 %rs1, %rs3;\n\t@%p1 bra $Y16;\n"
   "\tcvt.u32.u16 %r11, %rs1;\n\tadd.s64 %rd13, %rd13, %rd11;\n\tst.global.u32 [%rd13], %r11;\n"
   "\tbar.sync 0;\n"
   "\tsetp.lt.u32 %p1, %r1, 32;\n\t@!%p1 bra $END;\n"
   "\tshl.b32 %r8, %r1, 2;\n\tadd.s32 %r9, %r14, %r8;\n\tld.shared.u32 %r11, [%r9];\n"
   "\tshl.b32 %r17, %r2, 5;\n\tadd.s32 %r17, %r17, %r1;\n\tmul.wide.u32 %rd18, %r17, 4;\n"
   "\tadd.s64 %rd18, %rd3, %rd18;\n\tst.global.u32 [%rd18], %r11;\n"
   "$END:\n\tret;\n}\n";

static int
cmp_u32(const void *a, const void *b)
{
   uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
   return x < y ? -1 : x > y;
}

/* The f16 bits of a small non-negative integer (exact below 2048). */
static uint32_t
f16_of_int(uint32_t k)
{
   if (!k)
      return 0;
   unsigned e = 31 - __builtin_clz(k);
   return (e + 15) << 10 | ((k << (10 - e)) & 0x3ff);
}

static uint32_t
f32_bits_of_int(uint32_t k)
{
   float f = (float)k;
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

/* The k-th value counter kind op passes through. */
static uint32_t
cas_loop_value(int op, uint32_t k)
{
   switch (op) {
   case 2: case 9: return 1000 - k;                          /* dec */
   case 3: case 4: case 10: return f32_bits_of_int(k);       /* f32, f64 (as f32) */
   case 5: case 11: return f16_of_int(k);
   case 6: return f16_of_int(k) | f16_of_int(2 * k) << 16;   /* f16x2: (1, 2) a step */
   default: return k;                                        /* cas.b16, inc */
   }
}

static void
case_cas_loops(struct kr *r)
{
   enum { GRID = 8, BLOCK = 128, N = GRID * BLOCK, OPS = 14 };
   static const char *const names[OPS] = {
      "global cas.b16", "global inc", "global dec", "global add.f32", "global add.f64",
      "global add.f16", "global add.f16x2", "shared cas.b16", "shared inc", "shared dec",
      "shared add.f32", "shared add.f16", "generic (global) cas.b16", "generic (shared) cas.b16",
   };
   struct kr_buffer *g = kr_alloc(r, 960), *olds = kr_alloc(r, OPS * N * 4);
   struct kr_buffer *sout = kr_alloc(r, GRID * 32 * 4);
   CHECK(g && olds && sout);
   if (!g || !olds || !sout || !load_text(r, cas_loops_ptx, sizeof(cas_loops_ptx) - 1))
      return;
   memset(g->map, 0, 960);
   for (int i = 0; i < 32; i++)
      ((uint32_t *)g->map)[48 + i] = 1000;
   if (!run(r, "cas_loops", GRID, BLOCK, 0,
            (struct kr_arg[]){ KR_ARG(g->addr), KR_ARG(olds->addr), KR_ARG(sout->addr) }, 3, 0))
      return;
   const uint32_t *o = olds->map;
   unsigned bad = 0;
   for (int op = 0; op < OPS; op++) {
      bool shared = op >= 7 && op != 12;
      unsigned wrong = 0;
      /* The 16-bit ones: neighbouring lanes on neighbouring counters;
       * the others: a subgroup's lanes on one counter. */
      bool half = op == 0 || op == 5 || op == 7 || op >= 11;
      int groups = shared ? GRID * 8 : 32, per = shared ? BLOCK / 8 : N / 32;
      for (int grp = 0; grp < groups; grp++) {
         uint32_t got[128], want[128];
         int n = 0;
         for (int t = 0; t < N; t++) {
            int slot = half ? t : t >> 3;
            if (shared)
               slot = half ? t % BLOCK : t % BLOCK >> 3;
            bool mine = shared ? t / BLOCK == grp / 8 && (slot & 7) == grp % 8
                               : (slot & 31) == grp;
            if (mine && n < 128)
               got[n++] = o[op * N + t];
         }
         CHECK(n == per);
         for (int k = 0; k < per; k++)
            want[k] = cas_loop_value(op, k);
         qsort(got, n, 4, cmp_u32);
         qsort(want, per, 4, cmp_u32);
         if (n != per || memcmp(got, want, per * 4)) {
            if (bad++ < 8)
               fprintf(stderr, "%s, counter %d: the old values are not its %d steps\n",
                       names[op], grp, per);
            wrong++;
            failures++;
         }
      }
      if (wrong)
         fprintf(stderr, "%s: %u of %d counters' old values wrong\n", names[op], wrong, groups);
   }
   /* Final counters. */
   const uint8_t *gm = g->map;
   for (int s = 0; s < 32; s++) {
      uint16_t h;
      uint32_t u;
      double d;
      memcpy(&h, gm + s * 2, 2);
      CHECK(h == 32);
      memcpy(&h, gm + 896 + s * 2, 2);
      CHECK(h == 32);
      memcpy(&u, gm + 64 + s * 4, 4);
      CHECK(u == 32);
      memcpy(&u, gm + 192 + s * 4, 4);
      CHECK(u == 1000 - 32);
      memcpy(&u, gm + 320 + s * 4, 4);
      CHECK(u == f32_bits_of_int(32));
      memcpy(&d, gm + 448 + s * 8, 8);
      CHECK(d == 32.0);
      memcpy(&h, gm + 704 + s * 2, 2);
      CHECK(h == f16_of_int(32));
      memcpy(&u, gm + 768 + s * 4, 4);
      CHECK(u == cas_loop_value(6, 32));
   }
   const uint32_t *so = sout->map;
   for (int b = 0; b < GRID; b++) {
      for (int w = 0; w < 32; w++) {
         uint32_t want = w < 4 ? 16u | 16u << 16 : w < 12 ? 16 : w < 20 ? 1000 - 16
                         : w < 28 ? f32_bits_of_int(16) : f16_of_int(16) | f16_of_int(16) << 16;
         CHECK(so[b * 32 + w] == want);
      }
   }
}

/* half_atomics.cu: every sum is of quarters small enough to be exact in
 * its format in any order (f16: below 512, bf16: below 64 for quarters,
 * 128 for halves), so the results are exact whatever the threads' order,
 * and each lane must hold its own sum. */
static void
case_half_atomics(struct kr *r)
{
   enum { N = 1024, BLOCK = 128, GRID = 4 };
   struct kr_buffer *vals = kr_alloc(r, N * 4), *h = kr_alloc(r, 16 * 2), *h2 = kr_alloc(r, 8 * 4);
   struct kr_buffer *b = kr_alloc(r, 32 * 2), *b2 = kr_alloc(r, 16 * 4), *d = kr_alloc(r, 4 * 8);
   struct kr_buffer *fs = kr_alloc(r, 16 * 2);
   struct kr_buffer *fs2 = kr_alloc(r, 8 * 4);
   CHECK(vals && h && h2 && b && b2 && d && fs && fs2);
   if (!vals || !h || !h2 || !b || !b2 || !d || !fs || !fs2 || !load_file(r))
      return;
   int32_t *v = vals->map;
   for (int i = 0; i < N; i++)
      v[i] = (i * 7 + i / 5) % 4;
   int n = N;
   if (!run(r, "half_atomics", GRID, BLOCK, 0,
            (struct kr_arg[]){ KR_ARG(vals->addr), KR_ARG(n), KR_ARG(h->addr), KR_ARG(h2->addr),
                               KR_ARG(b->addr), KR_ARG(b2->addr), KR_ARG(d->addr),
                               KR_ARG(fs->addr), KR_ARG(fs2->addr) },
            9, 0))
      return;
   double wh[16] = { 0 }, wh2[8][2] = { { 0 } }, wb[32] = { 0 }, wb2[16][2] = { { 0 } };
   double wd[4] = { 0 }, ws[16] = { 0 }, ws2[8][2] = { { 0 } };
   for (int i = 0; i < N; i++) {
      double f = v[i] * 0.25;
      wh[i & 15] += f;
      wh2[i & 7][0] += f;
      wh2[i & 7][1] -= f;
      wb[i & 31] += f;
      wb2[i & 15][0] += f;
      wb2[i & 15][1] += 2 * f;
      wd[i & 3] += v[i] * 0.125;
      ws[i & 15] += f;
      ws2[i & 7][0] -= f;
      ws2[i & 7][1] += f;
   }
   const uint16_t *hv = h->map, *bv = b->map, *fv = fs->map;
   const uint32_t *h2v = h2->map, *b2v = b2->map, *f2v = fs2->map;
   for (int i = 0; i < 32; i++)
      CHECK(ref_bf16_value(bv[i]) == wb[i]);
   for (int i = 0; i < 16; i++) {
      CHECK(ref_f16_value(hv[i]) == wh[i]);
      CHECK(ref_f16_value(fv[i]) == ws[i]);
      CHECK(ref_bf16_value((uint16_t)b2v[i]) == wb2[i][0]);
      CHECK(ref_bf16_value((uint16_t)(b2v[i] >> 16)) == wb2[i][1]);
   }
   for (int i = 0; i < 8; i++) {
      CHECK(ref_f16_value((uint16_t)h2v[i]) == wh2[i][0]);
      CHECK(ref_f16_value((uint16_t)(h2v[i] >> 16)) == wh2[i][1]);
      CHECK(ref_f16_value((uint16_t)f2v[i]) == ws2[i][0]);
      CHECK(ref_f16_value((uint16_t)(f2v[i] >> 16)) == ws2[i][1]);
   }
   for (int i = 0; i < 4; i++)
      CHECK(((double *)d->map)[i] == wd[i]);
}

/* One lane comparison as PTX defines it: ordered operators false and
 * unordered ones true when either lane is NaN. */
static bool
lane_cmp(double x, double y, const char *op)
{
   bool nan = isnan(x) || isnan(y), u = op[2] == 'u';
   if (nan)
      return u;
   switch (op[0] == 'l' ? (op[1] == 't' ? 0 : 1) : op[0] == 'g' ? (op[1] == 't' ? 2 : 3)
                        : op[0] == 'e' ? 4 : 5) {
   case 0: return x < y;
   case 1: return x <= y;
   case 2: return x > y;
   case 3: return x >= y;
   case 4: return x == y;
   default: return x != y;
   }
}

/* Both lanes of a pair: t each lane's true bits, 0 for false. */
static uint32_t
pair_cmp(uint32_t a, uint32_t b, bool bf, const char *op, uint32_t t)
{
   uint32_t r = 0;
   for (int l = 0; l < 2; l++) {
      uint16_t x = (uint16_t)(a >> 16 * l), y = (uint16_t)(b >> 16 * l);
      double xv = bf ? ref_bf16_value(x) : ref_f16_value(x);
      double yv = bf ? ref_bf16_value(y) : ref_f16_value(y);
      if (lane_cmp(xv, yv, op))
         r |= t << 16 * l;
   }
   return r;
}

/* half_compare.cu's twelve comparisons over lanes of every class: zeros
 * of both signs, subnormals, normals, infinities, NaNs, equal pairs. */
static void
case_half_compare(struct kr *r)
{
   enum { N = 4096, BLOCK = 128 };
   struct kr_buffer *a = kr_alloc(r, N * 4), *b = kr_alloc(r, N * 4), *out = kr_alloc(r, N * 48);
   CHECK(a && b && out);
   if (!a || !b || !out || !load_file(r))
      return;
   static const uint16_t specials[] = { 0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x3c00, 0xbc00,
                                        0x7c00, 0xfc00, 0x7e00, 0xfc01, 0x7f80, 0xff80, 0x7fc0,
                                        0x3f80, 0x0080 };
   uint32_t *av = a->map, *bv = b->map, seed = 12345;
   for (int i = 0; i < N; i++) {
      uint16_t l[4];
      for (int k = 0; k < 4; k++) {
         seed = seed * 1103515245u + 12345u;
         l[k] = (seed >> 8) & 1 ? specials[(seed >> 12) % 16] : (uint16_t)(seed >> 16);
      }
      if (i % 5 == 0)
         l[2] = l[0];   /* equal lanes */
      av[i] = l[0] | (uint32_t)l[1] << 16;
      bv[i] = l[2] | (uint32_t)l[3] << 16;
   }
   int n = N;
   if (!run(r, "half_compare", N / BLOCK, BLOCK, 0,
            (struct kr_arg[]){ KR_ARG(a->addr), KR_ARG(b->addr), KR_ARG(out->addr), KR_ARG(n) },
            4, 0))
      return;
   const uint32_t *o = out->map;
   unsigned bad = 0;
   for (int i = 0; i < N && bad < 10; i++) {
      uint32_t x = av[i], y = bv[i];
      uint32_t want[12] = {
         pair_cmp(x, y, false, "lt", 0x3c00),
         pair_cmp(x, y, false, "eq", 1) == 0x10001,
         pair_cmp(x, x, false, "nau", 0x3c00) /* NaN: unordered with itself */,
         pair_cmp(x, y, false, "gtu", 0x3c00),
         pair_cmp(x, y, false, "le", 0xffff),
         pair_cmp(x, y, false, "neu", 0xffff),
         pair_cmp(x, y, false, "gt", 1) == 0x10001,
         pair_cmp(x, y, true, "lt", 0x3f80),
         pair_cmp(x, y, true, "geu", 0x3f80),
         lane_cmp(ref_bf16_value((uint16_t)x), ref_bf16_value((uint16_t)(y >> 16)), "le"),
         pair_cmp(x, y, true, "eq", 0xffff),
         pair_cmp(x, y, true, "ne", 1) == 0x10001,
      };
      for (int k = 0; k < 12; k++) {
         if (o[i * 12 + k] != want[k] && bad++ < 10)
            fprintf(stderr, "half_compare: %d: %08x %08x: result %d is %08x, expected %08x\n",
                    i, x, y, k, o[i * 12 + k], want[k]);
      }
   }
   CHECK(bad == 0);
}

/* 64-bit atomics on shared memory (shared_atomic_int64: the aliased
 * 64-bit view), every thread of a block on one counter per operation, so
 * a 64-bit atomic done as two 32-bit halves or a torn load shows: the
 * adds step by 0x100000001 from just below 2^32 (the low word carries
 * into the high one), min and max get values of both signs (an unsigned
 * min and a signed max pick different ones).  Counters in s (static):
 * add.u64, add.f64 (a CAS loop), nvcc's atomicCAS loop, exch, min.u64,
 * max.s64, and, or (a bit each), xor, red.add.u64 in a .func, a 32-bit atomic and a
 * 32-bit word beside them, a one-shot cas.b64, red.add.f64; in dyn
 * (dynamic): add.u64 and min.s64 on generic addresses.  Olds go to
 * olds[row * N + gid], the block's final words to sout[ctaid * 16 + k]. */
static const char shared64_ptx[] =
   HEADER ".extern .shared .align 16 .b8 dyn[];\n"
   ".func addf(.param .b32 off)\n{\n\t.reg .b32 %r<2>;\n"
   "\tld.param.u32 %r1, [off];\n\tred.shared.add.u64 [%r1], 7;\n\tret;\n}\n"
   ".visible .entry shared64(.param .u64 olds, .param .u64 sout)\n{\n"
   "\t.shared .align 8 .b8 s[104];\n"
   "\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<40>;\n\t.reg .f64 %fd<3>;\n"
   "\tld.param.u64 %rd1, [olds];\n\tld.param.u64 %rd2, [sout];\n"
   "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
   "\tmad.lo.s32 %r4, %r2, %r3, %r1;\n\tmov.u32 %r5, %nctaid.x;\n\tmul.lo.s32 %r6, %r5, %r3;\n"
   "\tmul.wide.u32 %rd3, %r6, 8;\n\tmul.wide.u32 %rd4, %r4, 8;\n\tadd.s64 %rd5, %rd1, %rd4;\n"
   "\tsetp.ne.s32 %p1, %r1, 0;\n\t@%p1 bra $INIT_DONE;\n"
   "\tst.shared.u64 [s], 4294967280;\n\tst.shared.u64 [s+8], 0;\n"
   "\tst.shared.u64 [s+16], 4294967288;\n\tst.shared.u64 [s+24], 1311768464867721216;\n"
   "\tst.shared.u64 [s+32], 0xffffffffffffffff;\n\tst.shared.u64 [s+40], 0x8000000000000000;\n"
   "\tst.shared.u64 [s+48], 0xffffffffffffffff;\n\tst.shared.u64 [s+56], 0;\n\tst.shared.u64 [s+64], 0;\n"
   "\tst.shared.u64 [s+72], 0;\n\tst.shared.u32 [s+80], 0;\n\tst.shared.u32 [s+84], 1431655765;\n"
   "\tst.shared.u64 [s+88], 0;\n\tst.shared.u64 [s+96], 0;\n"
   "\tst.shared.u64 [dyn], 4294967295;\n\tst.shared.u64 [dyn+8], 0;\n"
   "$INIT_DONE:\n\tbar.sync 0;\n"
   /* %rd14 = tid + 1, %rd15 = (tid + 1) * 0x100000001,
    * %rd19 = (tid - 63) * 0x100000003 (signed). */
   "\tcvt.u64.u32 %rd14, %r1;\n\tadd.s64 %rd14, %rd14, 1;\n"
   "\tmul.lo.s64 %rd15, %rd14, 4294967297;\n"
   "\tsub.s64 %rd19, %rd14, 64;\n\tmul.lo.s64 %rd19, %rd19, 4294967299;\n"
   /* row 0: add.u64 */
   "\tatom.shared.add.u64 %rd10, [s], 4294967297;\n"
   "\tst.global.u64 [%rd5], %rd10;\n\tadd.s64 %rd5, %rd5, %rd3;\n"
   /* row 1: add.f64 */
   "\tatom.shared.add.f64 %fd1, [s+8], 0d3FF0000000000000;\n"
   "\tst.global.f64 [%rd5], %fd1;\n\tadd.s64 %rd5, %rd5, %rd3;\n"
   /* row 2: nvcc's atomicCAS loop */
   "\tld.volatile.shared.u64 %rd11, [s+16];\n"
   "$CAS:\n\tadd.s64 %rd12, %rd11, 4294967297;\n"
   "\tatom.shared.cas.b64 %rd13, [s+16], %rd11, %rd12;\n"
   "\tsetp.ne.s64 %p2, %rd11, %rd13;\n\tmov.u64 %rd11, %rd13;\n\t@%p2 bra $CAS;\n"
   "\tst.global.u64 [%rd5], %rd11;\n\tadd.s64 %rd5, %rd5, %rd3;\n"
   /* row 3: exch */
   "\tatom.shared.exch.b64 %rd16, [s+24], %rd15;\n"
   "\tst.global.u64 [%rd5], %rd16;\n\tadd.s64 %rd5, %rd5, %rd3;\n"
   /* rows 4, 5: min.u64, max.s64 */
   "\tatom.shared.min.u64 %rd17, [s+32], %rd19;\n"
   "\tst.global.u64 [%rd5], %rd17;\n\tadd.s64 %rd5, %rd5, %rd3;\n"
   "\tatom.shared.max.s64 %rd18, [s+40], %rd19;\n"
   "\tst.global.u64 [%rd5], %rd18;\n\tadd.s64 %rd5, %rd5, %rd3;\n"
   /* and, or, xor of bit (tid * 5) % 64 */
   "\tmul.lo.s32 %r8, %r1, 5;\n\tand.b32 %r8, %r8, 63;\n\tmov.u64 %rd21, 1;\n"
   "\tshl.b64 %rd20, %rd21, %r8;\n\tnot.b64 %rd22, %rd20;\n"
   "\tatom.shared.and.b64 %rd23, [s+48], %rd22;\n"
   "\tatom.shared.or.b64 %rd23, [s+56], %rd20;\n"
   "\tred.shared.xor.b64 [s+64], %rd15;\n"
   /* a .func's red on s+72; a 32-bit atomic beside */
   "\tmov.u32 %r9, s;\n\tadd.s32 %r10, %r9, 72;\n"
   "\t{\n\t.param .b32 a;\n\tst.param.b32 [a], %r10;\n\tcall.uni addf, (a);\n\t}\n"
   "\tatom.shared.add.u32 %r11, [s+80], 1;\n"
   /* row 6: a one-shot cas.b64: one thread wins */
   "\tatom.shared.cas.b64 %rd24, [s+88], 0, %rd15;\n"
   "\tst.global.u64 [%rd5], %rd24;\n\tadd.s64 %rd5, %rd5, %rd3;\n"
   "\tred.shared.add.f64 [s+96], 0d3FF8000000000000;\n"
   /* rows 7, 8: generic add.u64 and min.s64 in dynamic shared memory */
   "\tmov.u64 %rd25, dyn;\n\tcvta.shared.u64 %rd26, %rd25;\n"
   "\tatom.add.u64 %rd27, [%rd26], 4294967297;\n"
   "\tst.global.u64 [%rd5], %rd27;\n\tadd.s64 %rd5, %rd5, %rd3;\n"
   "\tatom.min.s64 %rd28, [%rd26+8], %rd19;\n"
   "\tst.global.u64 [%rd5], %rd28;\n"
   "\tbar.sync 0;\n"
   /* Finals: threads 0..12 the words of s, 13 and 14 those of dyn. */
   "\tsetp.ge.u32 %p1, %r1, 15;\n\t@%p1 bra $END;\n"
   "\tsetp.ge.u32 %p3, %r1, 13;\n\tshl.b32 %r12, %r1, 3;\n\tadd.s32 %r13, %r9, %r12;\n"
   "\tmov.u32 %r14, dyn;\n\tadd.s32 %r14, %r14, %r12;\n\tsub.s32 %r14, %r14, 104;\n"
   "\tselp.b32 %r15, %r14, %r13, %p3;\n\tld.shared.u64 %rd30, [%r15];\n"
   "\tshl.b32 %r7, %r2, 4;\n\tadd.s32 %r7, %r7, %r1;\n\tmul.wide.u32 %rd31, %r7, 8;\n"
   "\tadd.s64 %rd31, %rd2, %rd31;\n\tst.global.u64 [%rd31], %rd30;\n"
   "$END:\n\tret;\n}\n";

static int
cmp_u64(const void *a, const void *b)
{
   uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
   return x < y ? -1 : x > y;
}

/* The n values in got, sorted, are those of want, sorted. */
static bool
same_values(uint64_t *got, uint64_t *want, int n)
{
   qsort(got, n, 8, cmp_u64);
   qsort(want, n, 8, cmp_u64);
   return memcmp(got, want, n * 8) == 0;
}

static void
case_shared64(struct kr *r)
{
   enum { GRID = 4, BLOCK = 128, N = GRID * BLOCK, ROWS = 9, FINALS = 15 };
   static const char *const rows[ROWS] = {
      "add.u64", "add.f64", "atomicCAS loop", "exch.b64", "min.u64", "max.s64",
      "one-shot cas.b64", "generic add.u64", "generic min.s64",
   };
   const uint64_t step = 0x100000001ull;

   if (!r->target.shared_atomic_int64)
      printf("compiler.run.shared64: the device lacks VK_KHR_workgroup_memory_explicit_layout "
             "or shaderSharedInt64Atomics: the compiler must refuse the kernel\n");
   struct kr_buffer *olds = kr_alloc(r, ROWS * N * 8), *sout = kr_alloc(r, GRID * 16 * 8);
   CHECK(olds && sout);
   if (!olds || !sout || !load_text(r, shared64_ptx, sizeof(shared64_ptx) - 1))
      return;
   bool ran = run(r, "shared64", GRID, BLOCK, 16,
                  (struct kr_arg[]){ KR_ARG(olds->addr), KR_ARG(sout->addr) }, 2, 0);
   if (!r->target.shared_atomic_int64) {
      /* Refused as unsupported (run() marked the case skipped), never run
       * on 32-bit words. */
      CHECK(!ran && skipped);
      return;
   }
   if (!ran)
      return;

   /* What each thread of a block brings, and the finals they make. */
   uint64_t v15[BLOCK], v19[BLOCK];
   uint64_t and_v = ~0ull, or_v = 0, xor_v = 0, umin = ~0ull, gmin = 0;
   int64_t smax = INT64_MIN;
   for (int t = 0; t < BLOCK; t++) {
      v15[t] = (uint64_t)(t + 1) * step;
      v19[t] = (uint64_t)((int64_t)(t + 1 - 64) * (int64_t)0x100000003ll);
      uint64_t bit = 1ull << (t * 5 % 64);
      and_v &= ~bit;
      or_v |= bit;
      xor_v ^= v15[t];
      umin = v19[t] < umin ? v19[t] : umin;
      smax = (int64_t)v19[t] > smax ? (int64_t)v19[t] : smax;
      gmin = (int64_t)v19[t] < (int64_t)gmin ? v19[t] : gmin;
   }
   const uint64_t *o = olds->map, *f = sout->map;
   unsigned bad = 0;
   for (int b = 0; b < GRID; b++) {
      const uint64_t *fb = f + b * 16;
      double d;
      uint64_t want_final[FINALS] = {
         0xfffffff0ull + BLOCK * step, 0, 0xfffffff8ull + BLOCK * step, 0, umin,
         (uint64_t)smax, and_v, or_v, xor_v, 7ull * BLOCK,
         (uint64_t)0x55555555 << 32 | BLOCK, 0, 0, 0xffffffffull + BLOCK * step, gmin,
      };
      d = BLOCK;
      memcpy(&want_final[1], &d, 8);
      d = 1.5 * BLOCK;
      memcpy(&want_final[12], &d, 8);
      want_final[3] = fb[3];     /* exch and the one-shot cas: checked with their olds */
      want_final[11] = fb[11];
      for (int k = 0; k < FINALS; k++)
         if (fb[k] != want_final[k]) {
            fprintf(stderr, "block %d: final word %d is %#llx, expected %#llx\n", b, k,
                    (unsigned long long)fb[k], (unsigned long long)want_final[k]);
            failures++;
         }

      for (int row = 0; row < ROWS; row++) {
         uint64_t got[BLOCK + 1], want[BLOCK + 1];
         int n = BLOCK;
         bool ok = true;
         for (int t = 0; t < BLOCK; t++)
            got[t] = o[row * N + b * BLOCK + t];
         for (int k = 0; k < BLOCK; k++) {
            switch (row) {
            case 0: want[k] = 0xfffffff0ull + k * step; break;
            case 1: d = k; memcpy(&want[k], &d, 8); break;
            case 2: want[k] = 0xfffffff8ull + k * step; break;
            case 7: want[k] = 0xffffffffull + k * step; break;
            default: want[k] = 0; break;
            }
         }
         switch (row) {
         case 3:
            /* The olds and the final are the first value and every
             * thread's, once each. */
            got[BLOCK] = fb[3];
            want[0] = 0x1234567800000000ull;
            for (int t = 0; t < BLOCK; t++)
               want[t + 1] = v15[t];
            n = BLOCK + 1;
            break;
         case 4: case 5: case 8:
            /* Each old is the first value or a thread's, and never past
             * the final in the operation's order. */
            for (int t = 0; t < BLOCK && ok; t++) {
               uint64_t first = row == 4 ? ~0ull : row == 5 ? 1ull << 63 : 0;
               bool known = got[t] == first;
               for (int u = 0; u < BLOCK && !known; u++)
                  known = got[t] == v19[u];
               ok = known && (row == 4 ? got[t] >= umin
                              : row == 5 ? (int64_t)got[t] <= smax
                                         : (int64_t)got[t] >= (int64_t)gmin);
            }
            break;
         case 6:
            /* One thread saw 0 and stored its value; the rest saw that. */
            int zeros = 0;
            for (int t = 0; t < BLOCK; t++)
               zeros += got[t] == 0;
            ok = zeros == 1;
            for (int t = 0; t < BLOCK; t++) {
               want[t] = fb[11];
               if (got[t] == 0) {
                  want[t] = 0;
                  ok = ok && fb[11] == v15[t];
               }
            }
            break;
         }
         if (row != 4 && row != 5 && row != 8)
            ok = ok && same_values(got, want, n);
         if (!ok) {
            if (bad++ < 8)
               fprintf(stderr, "block %d: %s: the old values are wrong\n", b, rows[row]);
            failures++;
         }
      }
   }
}

static const struct {
   const char *name;
   void (*run)(struct kr *r);
} cases[] = {
   { "scale", case_scale },
   { "fault", case_fault },
   { "values", case_values },
   { "trap", case_trap },
   { "bar_red", case_bar_red },
   { "clock", case_clock },
   { "page_table", case_page_table },
   { "shared", case_shared },
   { "atomics", case_atomics },
   { "call", case_call },
   { "generic_atomics", case_generic_atomics },
   { "cas_loops", case_cas_loops },
   { "shared64", case_shared64 },
   { "vector_add", case_vector_add },
   { "saxpy", case_saxpy },
   { "reduce_shared", case_reduce },
   { "loop_break", case_loops },
   { "histogram", case_histogram },
   { "device_call", case_device_call },
   { "warp", case_warp },
   { "half_atomics", case_half_atomics },
   { "half_compare", case_half_compare },
   { "wide_access", case_wide_access },
};

int
main(int argc, char **argv)
{
   if (argc < 2) {
      fprintf(stderr, "usage: test_kernel_run CASE [KERNEL.ptx]\n");
      return 1;
   }
   ptx_path = argc > 2 ? argv[2] : NULL;
   fast_math = ptx_path && strstr(ptx_path, "fast_math");
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      if (strcmp(cases[i].name, argv[1]) != 0)
         continue;
      char name[96];
      struct kr r;
      snprintf(name, sizeof(name), "compiler.run.%s", argv[1]);
      if (!kr_init(&r, name)) {
         kr_finish(&r);
         return 1;
      }
      cases[i].run(&r);
      unsigned messages = kr_finish(&r);
      if (messages || failures) {
         fprintf(stderr, "%s: %u failed checks, %u validation messages\n", name, failures,
                 messages);
         return 1;
      }
      if (skipped) {
         printf("skipped: %s: a kernel is refused as unsupported (above)\n", name);
         return 77;
      }
      printf("%s: passed\n", name);
      return 0;
   }
   fprintf(stderr, "no case %s\n", argv[1]);
   return 1;
}
