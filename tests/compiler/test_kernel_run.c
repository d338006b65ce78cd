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
#include <string.h>

#include "compiler_test.h"
#include "kernel_runner.h"

#define HEADER ".version 9.0\n.target sm_75\n.address_size 64\n"

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
   if (!x || !y || !kr_load(r, scale_ptx, sizeof(scale_ptx) - 1))
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
   if (!x || !y || !kr_load(r, scale_ptx, sizeof(scale_ptx) - 1))
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
   if (!in || !out || !bytes || !kr_load(r, shared_ptx, sizeof(shared_ptx) - 1))
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
   if (!p || !kr_load(r, atomic_ptx, sizeof(atomic_ptx) - 1))
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
   if (!p || !kr_load(r, generic_atomic_ptx, sizeof(generic_atomic_ptx) - 1))
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
   if (!out || !kr_load(r, call_ptx, sizeof(call_ptx) - 1))
      return;
   if (!run(r, "caller", 1, N, 0, (struct kr_arg[]){ KR_ARG(out->addr) }, 1, 0))
      return;
   for (int i = 0; i < N; i++)
      CHECK(((uint32_t *)out->map)[i] == (uint32_t)(i * (i + 3) + 2000));
}

/* ---- nvcc's kernels ---- */

static const char *ptx_path;

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
         CHECK(((float *)out->map)[t] == want);
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

static const struct {
   const char *name;
   void (*run)(struct kr *r);
} cases[] = {
   { "scale", case_scale },
   { "fault", case_fault },
   { "shared", case_shared },
   { "atomics", case_atomics },
   { "call", case_call },
   { "generic_atomics", case_generic_atomics },
   { "vector_add", case_vector_add },
   { "saxpy", case_saxpy },
   { "reduce_shared", case_reduce },
   { "loop_break", case_loops },
   { "histogram", case_histogram },
   { "device_call", case_device_call },
};

int
main(int argc, char **argv)
{
   if (argc < 2) {
      fprintf(stderr, "usage: test_kernel_run CASE [KERNEL.ptx]\n");
      return 1;
   }
   ptx_path = argc > 2 ? argv[2] : NULL;
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
