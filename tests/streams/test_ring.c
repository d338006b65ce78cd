/*
 * The command ring's own life (docs/design.md, "A resident command
 * ring"), run with CUVK_RING=1 and CUVK_HOST_OP_MAX=0 so that lavapipe
 * takes the ring too (tests/streams/meson.build):
 *
 * - ring.random: random synchronous fills of each width and copies, at
 *   random places and sizes (some the ring takes, some it leaves to a
 *   recorded command: unaligned, too large, overlapping), checked against
 *   a host model after every few;
 * - ring.idle_exit: operations with pauses longer than the ring's idle
 *   spell (CUVK_RING_IDLE_US), so it leaves its queue and comes back;
 * - ring.context_destroy: contexts destroyed while their ring is on its
 *   queue, which must neither hang nor leave a Vulkan object behind (the
 *   validation layer reports one at the device's destruction).
 */
#include "api_test.h"

#define RING_BYTES (256 * API_KIB)

struct ring_model {
   CUdeviceptr dev;
   uint8_t *model;
   uint8_t *back;
};

static void
ring_model_check(struct ring_model *m, const char *when, int op)
{
   API_CHECK_CU(cuMemcpyDtoH(m->back, m->dev, RING_BYTES));
   for (size_t i = 0; i < RING_BYTES; i++) {
      if (m->back[i] != m->model[i]) {
         API_CHECK_MSG(false, "%s %d: byte %zu is 0x%02x, the model has 0x%02x", when, op, i, m->back[i],
                       m->model[i]);
         api_abort_case();
      }
   }
}

static void
ring_random(void)
{
   struct ring_model m;
   uint64_t rng = 0x21a6cafe;

   API_REQUIRE_CU(cuMemAlloc(&m.dev, RING_BYTES));
   m.model = api_xmalloc(RING_BYTES);
   m.back = api_xmalloc(RING_BYTES);
   api_fill_random(m.model, RING_BYTES, 7);
   API_REQUIRE_CU(cuMemcpyHtoD(m.dev, m.model, RING_BYTES));

   for (int op = 0; op < 1500; op++) {
      /* Mostly small and 4-aligned, which is what the ring takes. */
      bool aligned = api_rand(&rng) % 4 != 0;
      size_t n = 1 + api_rand(&rng) % (api_rand(&rng) % 8 == 0 ? RING_BYTES / 2 : 4096);
      size_t dst = api_rand(&rng) % (RING_BYTES - n + 1);
      size_t src = api_rand(&rng) % (RING_BYTES - n + 1);
      uint32_t v = (uint32_t)api_rand(&rng);
      if (aligned) {
         n = API_MAX(n & ~(size_t)3, 4);
         dst &= ~(size_t)3;
         src &= ~(size_t)3;
      }
      switch (api_rand(&rng) % 4) {
      case 0:
         API_CHECK_CU(cuMemsetD8(m.dev + dst, (unsigned char)v, n));
         memset(m.model + dst, (int)(v & 0xff), n);
         break;
      case 1:
         dst &= ~(size_t)1;
         n = API_MAX(n / 2, 1);
         API_CHECK_CU(cuMemsetD16(m.dev + dst, (unsigned short)v, n));
         for (size_t i = 0; i < n; i++)
            memcpy(m.model + dst + 2 * i, &v, 2);
         break;
      case 2:
         dst &= ~(size_t)3;
         n = API_MAX(n / 4, 1);
         if (dst + 4 * n > RING_BYTES)
            n = (RING_BYTES - dst) / 4;
         API_CHECK_CU(cuMemsetD32(m.dev + dst, v, n));
         for (size_t i = 0; i < n; i++)
            memcpy(m.model + dst + 4 * i, &v, 4);
         break;
      default:
         /* Ranges that overlap are memmove's, which cuvk defines. */
         API_CHECK_CU(cuMemcpyDtoD(m.dev + dst, m.dev + src, n));
         memmove(m.model + dst, m.model + src, n);
         break;
      }
      if (op % 50 == 49)
         ring_model_check(&m, "after operation", op);
   }
   ring_model_check(&m, "at the end, after operation", 1500);

   API_CHECK_CU(cuMemFree(m.dev));
   free(m.model);
   free(m.back);
}

static void
ring_idle_exit(void)
{
   CUdeviceptr d;
   uint32_t back[1024];

   API_REQUIRE_CU(cuMemAlloc(&d, 2 * sizeof(back)));
   for (uint32_t round = 0; round < 6; round++) {
      API_CHECK_CU(cuMemsetD32(d, 0x1d1e0000u + round, 1024));
      API_CHECK_CU(cuMemcpyDtoD(d + sizeof(back), d, sizeof(back)));
      API_CHECK_CU(cuMemcpyDtoH(back, d + sizeof(back), sizeof(back)));
      API_CHECK_WORDS(back, sizeof(back), 0x1d1e0000u + round, "a copy of a fill after a pause");
      /* Longer than the idle spell meson sets. */
      struct timespec ts = { 0, 20 * 1000 * 1000 };
      nanosleep(&ts, NULL);
   }
   API_CHECK_CU(cuMemFree(d));
}

static void
ring_context_destroy(void)
{
   CUdevice dev;
   API_REQUIRE_CU(cuDeviceGet(&dev, 0));
   for (int i = 0; i < 8; i++) {
      CUcontext ctx;
      CUdeviceptr d;
      uint32_t back[64];
      API_REQUIRE_CU(cuCtxCreate(&ctx, NULL, 0, dev));
      API_CHECK_CU(cuMemAlloc(&d, 4096));
      API_CHECK_CU(cuMemsetD32(d, 0xc0de0000u + (uint32_t)i, 1024));
      API_CHECK_CU(cuMemcpyDtoH(back, d, sizeof(back)));
      API_CHECK_WORDS(back, sizeof(back), 0xc0de0000u + (uint32_t)i, "a fill before the destroy");
      /* Half the contexts go with their memory still allocated. */
      if (i % 2)
         API_CHECK_CU(cuMemFree(d));
      API_CHECK_CU(cuCtxDestroy(ctx));
   }
}

static const struct api_case cases[] = {
   API_CASE("ring.random", ring_random),
   API_CASE("ring.idle_exit", ring_idle_exit),
   API_CASE_BARE("ring.context_destroy", ring_context_destroy),
};

API_MAIN(cases)
