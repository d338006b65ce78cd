/*
 * api.stream.* and api.event.*: stream and event lifetimes, ordering of
 * asynchronous work on one stream, across streams through events, and
 * between the legacy default stream and blocking streams; timing.
 *
 * The asynchronous work is large (tens of MiB) so that on a real device
 * a missing dependency shows up as wrong data; the data is checked after
 * every chain.
 */
#include "api_test.h"

#define BIG (32 * API_MIB)

static void
stream_create_destroy(void)
{
   static const unsigned flag_sets[] = { CU_STREAM_DEFAULT, CU_STREAM_NON_BLOCKING };
   CUstream s = NULL;
   unsigned flags = 99;

   for (size_t i = 0; i < API_ARRAY_SIZE(flag_sets); i++) {
      API_REQUIRE_CU(cuStreamCreate(&s, flag_sets[i]));
      API_CHECK(s != NULL);
      API_CHECK_CU(cuStreamGetFlags(s, &flags));
      API_CHECK(flags == flag_sets[i]);
      API_CHECK_CU(cuStreamQuery(s));
      API_CHECK_CU(cuStreamSynchronize(s));
      API_CHECK_CU(cuStreamDestroy(s));
   }

   /* Many at once, all distinct. */
   CUstream many[64];
   for (int i = 0; i < 64; i++) {
      API_REQUIRE_CU(cuStreamCreate(&many[i], i & 1));
      for (int j = 0; j < i; j++)
         API_CHECK(many[i] != many[j]);
   }
   for (int i = 0; i < 64; i++)
      API_CHECK_CU(cuStreamDestroy(many[i]));

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamCreate(NULL, 0));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamCreate(&s, 0x4));
   API_CHECK_CU(cuStreamGetFlags(NULL, &flags));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamGetFlags(NULL, NULL));
}

static void
errors_stream_invalid_handle(void)
{
   CUstream s = NULL;
   unsigned flags;
   int priority;

   API_REQUIRE_CU(cuStreamCreate(&s, 0));
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamDestroy(s));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamQuery(s));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamSynchronize(s));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamGetFlags(s, &flags));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamGetPriority(s, &priority));
   /* The default streams cannot be destroyed. */
   API_CHECK(cuStreamDestroy(NULL) != CUDA_SUCCESS);
   API_CHECK(cuStreamDestroy(CU_STREAM_LEGACY) != CUDA_SUCCESS);
}

static void
stream_priorities(void)
{
   int least = 0, greatest = 0, got = 99;
   CUstream s = NULL;

   API_REQUIRE_CU(cuCtxGetStreamPriorityRange(&least, &greatest));
   printf("priorities %d (least) .. %d (greatest)\n", least, greatest);

   const int asks[] = { least, greatest, (least + greatest) / 2 };
   for (size_t i = 0; i < API_ARRAY_SIZE(asks); i++) {
      API_REQUIRE_CU(cuStreamCreateWithPriority(&s, CU_STREAM_NON_BLOCKING, asks[i]));
      API_CHECK_CU(cuStreamGetPriority(s, &got));
      API_CHECK_MSG(got == asks[i], "asked for priority %d, got %d", asks[i], got);
      unsigned flags = 0;
      API_CHECK_CU(cuStreamGetFlags(s, &flags));
      API_CHECK(flags == CU_STREAM_NON_BLOCKING);
      API_CHECK_CU(cuStreamDestroy(s));
   }

   /* Out of range is clamped, not refused. */
   API_REQUIRE_CU(cuStreamCreateWithPriority(&s, 0, greatest - 100));
   API_CHECK_CU(cuStreamGetPriority(s, &got));
   API_CHECK(got == greatest);
   API_CHECK_CU(cuStreamDestroy(s));
   API_REQUIRE_CU(cuStreamCreateWithPriority(&s, 0, least + 100));
   API_CHECK_CU(cuStreamGetPriority(s, &got));
   API_CHECK(got == least);
   API_CHECK_CU(cuStreamDestroy(s));

   /* A plain stream has the default priority. */
   API_REQUIRE_CU(cuStreamCreate(&s, 0));
   API_CHECK_CU(cuStreamGetPriority(s, &got));
   API_CHECK(got <= least && got >= greatest);
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamGetPriority(NULL, NULL));
}

/* Work queued on one stream runs in order: each step reads what the
 * previous one wrote. */
static void
stream_in_order(void)
{
   CUdeviceptr a = 0, b = 0, c = 0;
   uint32_t *in = NULL, *out = NULL;
   CUstream s = NULL;

   API_REQUIRE_CU(cuMemAlloc(&a, BIG));
   API_REQUIRE_CU(cuMemAlloc(&b, BIG));
   API_REQUIRE_CU(cuMemAlloc(&c, BIG));
   API_REQUIRE_CU(cuMemAllocHost((void **)&in, BIG));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out, BIG));
   API_REQUIRE_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));

   for (int round = 0; round < 4; round++) {
      const uint32_t v1 = 0x11110000u + (uint32_t)round, v2 = 0x22220000u + (uint32_t)round;
      for (size_t i = 0; i < BIG / 4; i++)
         in[i] = v1;
      API_CHECK_CU(cuMemcpyHtoDAsync(a, in, BIG, s));      /* a = v1 */
      API_CHECK_CU(cuMemcpyDtoDAsync(b, a, BIG, s));       /* b = v1 */
      API_CHECK_CU(cuMemsetD32Async(a, v2, BIG / 4, s));   /* a = v2 */
      API_CHECK_CU(cuMemcpyDtoDAsync(c, a, BIG, s));       /* c = v2 */
      API_CHECK_CU(cuMemsetD32Async(a, 0, BIG / 4, s));    /* a = 0 */
      API_CHECK_CU(cuMemcpyAsync(b + BIG / 2, c, BIG / 2, s)); /* b = v1 | v2 */
      API_CHECK_CU(cuMemcpyDtoHAsync(out, b, BIG, s));
      API_CHECK_CU(cuStreamSynchronize(s));
      API_CHECK_CU(cuStreamQuery(s));
      API_CHECK_WORDS(out, BIG / 2, v1, "first half of b");
      API_CHECK_WORDS((uint8_t *)out + BIG / 2, BIG / 2, v2, "second half of b");
      API_CHECK_CU(cuMemcpyDtoHAsync(out, a, BIG, s));
      API_CHECK_CU(cuStreamSynchronize(s));
      API_CHECK_WORDS(out, BIG, 0, "a");
   }

   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFreeHost(in));
   API_CHECK_CU(cuMemFreeHost(out));
   API_CHECK_CU(cuMemFree(a));
   API_CHECK_CU(cuMemFree(b));
   API_CHECK_CU(cuMemFree(c));
}

/* cuStreamQuery reports NOT_READY or SUCCESS while work runs, and
 * SUCCESS once it is done. */
static void
stream_query(void)
{
   CUdeviceptr a = 0;
   CUstream s = NULL;
   void *out = NULL;

   API_REQUIRE_CU(cuMemAlloc(&a, 4 * BIG));
   API_REQUIRE_CU(cuMemAllocHost(&out, 4 * BIG));
   API_REQUIRE_CU(cuStreamCreate(&s, 0));
   API_CHECK_CU(cuStreamQuery(s));

   for (int i = 0; i < 8; i++)
      API_CHECK_CU(cuMemsetD8Async(a, (unsigned char)i, 4 * BIG, s));
   API_CHECK_CU(cuMemcpyDtoHAsync(out, a, 4 * BIG, s));
   CUresult res = cuStreamQuery(s);
   API_CHECK_MSG(res == CUDA_SUCCESS || res == CUDA_ERROR_NOT_READY, "cuStreamQuery: %s",
                 api_result_name(res));
   printf("cuStreamQuery right after queueing: %s\n", api_result_name(res));

   /* Polling alone brings it to completion. */
   double t0 = api_now();
   while ((res = cuStreamQuery(s)) == CUDA_ERROR_NOT_READY && api_now() - t0 < 30)
      ;
   API_CHECK_CU(res);
   uint8_t *p = out;
   size_t bad = 0;
   for (size_t i = 0; i < 4 * BIG; i++)
      bad += p[i] != 7;
   API_CHECK_MSG(bad == 0, "%zu bytes wrong once cuStreamQuery said SUCCESS", bad);

   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFreeHost(out));
   API_CHECK_CU(cuMemFree(a));
}

/* Destroying a stream with work queued lets the work finish. */
static void
stream_destroy_pending(void)
{
   CUdeviceptr a = 0;
   CUstream s = NULL;
   uint32_t *out = NULL;

   API_REQUIRE_CU(cuMemAlloc(&a, BIG));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out, BIG));
   API_REQUIRE_CU(cuStreamCreate(&s, 0));
   API_CHECK_CU(cuMemsetD32Async(a, 0x5eed5eed, BIG / 4, s));
   API_CHECK_CU(cuMemcpyDtoHAsync(out, a, BIG, s));
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_WORDS(out, BIG, 0x5eed5eed, "work of a destroyed stream");
   API_CHECK_CU(cuMemFreeHost(out));
   API_CHECK_CU(cuMemFree(a));
}

/* Two streams, each with its own chain on its own memory, interleaved. */
static void
stream_two_streams(void)
{
   CUdeviceptr a[2], b[2];
   uint32_t *out[2];
   CUstream s[2];

   for (int i = 0; i < 2; i++) {
      API_REQUIRE_CU(cuMemAlloc(&a[i], BIG));
      API_REQUIRE_CU(cuMemAlloc(&b[i], BIG));
      API_REQUIRE_CU(cuMemAllocHost((void **)&out[i], BIG));
      API_REQUIRE_CU(cuStreamCreate(&s[i], i ? CU_STREAM_NON_BLOCKING : 0));
   }
   for (int round = 0; round < 3; round++) {
      for (int i = 0; i < 2; i++)
         API_CHECK_CU(cuMemsetD32Async(a[i], 0xa0000000u + (uint32_t)(round * 2 + i), BIG / 4, s[i]));
      for (int i = 0; i < 2; i++)
         API_CHECK_CU(cuMemcpyDtoDAsync(b[i], a[i], BIG, s[i]));
      for (int i = 0; i < 2; i++)
         API_CHECK_CU(cuMemcpyDtoHAsync(out[i], b[i], BIG, s[i]));
      for (int i = 1; i >= 0; i--) {
         API_CHECK_CU(cuStreamSynchronize(s[i]));
         API_CHECK_WORDS(out[i], BIG, 0xa0000000u + (uint32_t)(round * 2 + i), "stream's chain");
      }
   }
   for (int i = 0; i < 2; i++) {
      API_CHECK_CU(cuStreamDestroy(s[i]));
      API_CHECK_CU(cuMemFreeHost(out[i]));
      API_CHECK_CU(cuMemFree(a[i]));
      API_CHECK_CU(cuMemFree(b[i]));
   }
}

/* A dependency between streams, both ways, through events only (the
 * streams are non-blocking, so nothing else orders them). */
static void
stream_wait_event(void)
{
   CUdeviceptr a = 0, b = 0;
   uint32_t *out_a = NULL, *out_b = NULL;
   CUstream s1 = NULL, s2 = NULL;
   CUevent wrote_a = NULL, read_a = NULL;

   API_REQUIRE_CU(cuMemAlloc(&a, BIG));
   API_REQUIRE_CU(cuMemAlloc(&b, BIG));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out_a, BIG));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out_b, BIG));
   API_REQUIRE_CU(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuEventCreate(&wrote_a, CU_EVENT_DISABLE_TIMING));
   API_REQUIRE_CU(cuEventCreate(&read_a, 0));

   for (int round = 0; round < 3; round++) {
      const uint32_t first = 0x10101010u * (uint32_t)(round + 1), second = ~first;
      API_CHECK_CU(cuMemsetD32Async(a, first, BIG / 4, s1));
      API_CHECK_CU(cuEventRecord(wrote_a, s1));
      API_CHECK_CU(cuStreamWaitEvent(s2, wrote_a, 0));
      API_CHECK_CU(cuMemcpyDtoDAsync(b, a, BIG, s2));     /* b = first */
      API_CHECK_CU(cuEventRecord(read_a, s2));
      API_CHECK_CU(cuStreamWaitEvent(s1, read_a, 0));
      API_CHECK_CU(cuMemsetD32Async(a, second, BIG / 4, s1)); /* after the copy read a */
      API_CHECK_CU(cuMemcpyDtoHAsync(out_a, a, BIG, s1));
      API_CHECK_CU(cuMemcpyDtoHAsync(out_b, b, BIG, s2));
      API_CHECK_CU(cuStreamSynchronize(s1));
      API_CHECK_CU(cuStreamSynchronize(s2));
      API_CHECK_WORDS(out_b, BIG, first, "copy made after waiting for the first fill");
      API_CHECK_WORDS(out_a, BIG, second, "second fill");
   }

   /* Waiting for an event never recorded is a no-op. */
   CUevent never = NULL;
   API_REQUIRE_CU(cuEventCreate(&never, 0));
   API_CHECK_CU(cuStreamWaitEvent(s1, never, 0));
   API_CHECK_CU(cuStreamSynchronize(s1));
   /* The default stream may wait too. */
   API_CHECK_CU(cuStreamWaitEvent(NULL, read_a, 0));
   API_CHECK_CU(cuStreamSynchronize(NULL));

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamWaitEvent(s1, read_a, 0x2));
   API_CHECK_CU(cuEventDestroy(never));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamWaitEvent(s1, never, 0));

   API_CHECK_CU(cuEventDestroy(wrote_a));
   API_CHECK_CU(cuEventDestroy(read_a));
   API_CHECK_CU(cuStreamDestroy(s1));
   API_CHECK_CU(cuStreamDestroy(s2));
   API_CHECK_CU(cuMemFreeHost(out_a));
   API_CHECK_CU(cuMemFreeHost(out_b));
   API_CHECK_CU(cuMemFree(a));
   API_CHECK_CU(cuMemFree(b));
}

/* The legacy default stream waits for all earlier work of blocking
 * streams, and blocking streams' later work waits for it: with no events
 * at all, this chain across three streams is ordered. */
static void
stream_legacy_default(void)
{
   CUdeviceptr a = 0, b = 0;
   uint32_t *out_a = NULL, *out_b = NULL;
   CUstream blocking = NULL, other = NULL;

   API_REQUIRE_CU(cuMemAlloc(&a, BIG));
   API_REQUIRE_CU(cuMemAlloc(&b, BIG));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out_a, BIG));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out_b, BIG));
   API_REQUIRE_CU(cuStreamCreate(&blocking, CU_STREAM_DEFAULT));
   API_REQUIRE_CU(cuStreamCreate(&other, CU_STREAM_DEFAULT));

   const CUstream legacy_handles[] = { NULL, CU_STREAM_LEGACY };
   for (size_t h = 0; h < API_ARRAY_SIZE(legacy_handles); h++) {
      const CUstream legacy = legacy_handles[h];
      const uint32_t v1 = 0x01010101u * (uint32_t)(h + 1), v2 = ~v1;

      API_CHECK_CU(cuMemsetD32Async(a, v1, BIG / 4, blocking));  /* a = v1 */
      API_CHECK_CU(cuMemcpyDtoDAsync(b, a, BIG, legacy));        /* waits: b = v1 */
      API_CHECK_CU(cuMemsetD32Async(a, v2, BIG / 4, other));     /* waits for the copy */
      API_CHECK_CU(cuMemcpyDtoHAsync(out_b, b, BIG, blocking));
      API_CHECK_CU(cuMemcpyDtoHAsync(out_a, a, BIG, legacy));    /* waits for other */
      /* Synchronising the legacy stream covers the blocking streams'
       * earlier work too. */
      API_CHECK_CU(cuStreamSynchronize(legacy));
      API_CHECK_WORDS(out_b, BIG, v1, "copy on the legacy stream");
      API_CHECK_WORDS(out_a, BIG, v2, "fill on a blocking stream after the legacy stream");
   }

   API_CHECK_CU(cuStreamDestroy(blocking));
   API_CHECK_CU(cuStreamDestroy(other));
   API_CHECK_CU(cuMemFreeHost(out_a));
   API_CHECK_CU(cuMemFreeHost(out_b));
   API_CHECK_CU(cuMemFree(a));
   API_CHECK_CU(cuMemFree(b));
}

/* Synchronous copies are ordered after asynchronous work already queued
 * on any blocking stream. */
static void
stream_sync_after_async(void)
{
   CUdeviceptr a = 0;
   CUstream s = NULL;
   uint32_t *out = api_xmalloc(BIG);

   API_REQUIRE_CU(cuMemAlloc(&a, BIG));
   API_REQUIRE_CU(cuStreamCreate(&s, 0));
   for (int round = 0; round < 3; round++) {
      const uint32_t v = 0xfeed0000u + (uint32_t)round;
      API_CHECK_CU(cuMemsetD32Async(a, v, BIG / 4, s));
      API_CHECK_CU(cuMemcpyDtoH(out, a, BIG));
      API_CHECK_WORDS(out, BIG, v, "synchronous DtoH after an async fill");
      /* Small reads take cuvk's direct path; they must wait as well. */
      API_CHECK_CU(cuMemsetD32Async(a, ~v, BIG / 4, s));
      API_CHECK_CU(cuMemcpyDtoH(out, a + BIG - 64, 64));
      API_CHECK_WORDS(out, 64, ~v, "small synchronous DtoH after an async fill");
   }
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFree(a));
   free(out);
}

/* ---- Events ---- */

static void
event_create_destroy(void)
{
   static const unsigned flag_sets[] = {
      CU_EVENT_DEFAULT, CU_EVENT_BLOCKING_SYNC, CU_EVENT_DISABLE_TIMING,
      CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING,
   };
   CUevent e = NULL;

   for (size_t i = 0; i < API_ARRAY_SIZE(flag_sets); i++) {
      API_REQUIRE_CU(cuEventCreate(&e, flag_sets[i]));
      API_CHECK(e != NULL);
      /* Never recorded: complete. */
      API_CHECK_CU(cuEventQuery(e));
      API_CHECK_CU(cuEventSynchronize(e));
      API_CHECK_CU(cuEventDestroy(e));
   }

   /* More than one query pool's worth. */
   enum { MANY = 600 };
   CUevent *many = api_xmalloc(sizeof(*many) * MANY);
   for (int i = 0; i < MANY; i++) {
      API_REQUIRE_CU(cuEventCreate(&many[i], i % 3 == 0 ? CU_EVENT_DISABLE_TIMING : 0));
      API_CHECK_CU(cuEventRecord(many[i], NULL));
   }
   API_CHECK_CU(cuEventSynchronize(many[MANY - 1]));
   for (int i = 0; i < MANY; i++)
      API_CHECK_CU(cuEventDestroy(many[i]));
   free(many);

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuEventCreate(NULL, 0));
   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuEventCreate(&e, 0x80));
}

static void
errors_event_invalid_handle(void)
{
   CUevent e = NULL, other = NULL;
   float ms;

   API_REQUIRE_CU(cuEventCreate(&e, 0));
   API_REQUIRE_CU(cuEventCreate(&other, 0));
   API_CHECK_CU(cuEventRecord(other, NULL));
   API_CHECK_CU(cuEventDestroy(e));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventDestroy(e));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventRecord(e, NULL));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventQuery(e));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventSynchronize(e));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&ms, e, other));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&ms, other, e));
   API_CHECK_CU(cuEventDestroy(other));
}

static void
event_record_query_sync(void)
{
   CUdeviceptr a = 0;
   CUstream s = NULL;
   CUevent e = NULL;
   uint32_t *out = NULL;

   API_REQUIRE_CU(cuMemAlloc(&a, 4 * BIG));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out, 4 * BIG));
   API_REQUIRE_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuEventCreate(&e, CU_EVENT_BLOCKING_SYNC));

   for (int round = 0; round < 3; round++) {
      const uint32_t v = 0xe0e0e0e0u + (uint32_t)round;
      API_CHECK_CU(cuMemsetD32Async(a, v, BIG, s));
      API_CHECK_CU(cuMemcpyDtoHAsync(out, a, 4 * BIG, s));
      /* Recorded again on every round: the event tracks the newest. */
      API_CHECK_CU(cuEventRecord(e, s));
      CUresult res = cuEventQuery(e);
      API_CHECK_MSG(res == CUDA_SUCCESS || res == CUDA_ERROR_NOT_READY, "cuEventQuery: %s",
                    api_result_name(res));
      API_CHECK_CU(cuEventSynchronize(e));
      API_CHECK_CU(cuEventQuery(e));
      API_CHECK_WORDS(out, 4 * BIG, v, "work before the event, once it completed");
   }

   /* Polling alone brings it to completion. */
   API_CHECK_CU(cuMemsetD32Async(a, 1, BIG, s));
   API_CHECK_CU(cuEventRecord(e, s));
   CUresult res;
   double t0 = api_now();
   while ((res = cuEventQuery(e)) == CUDA_ERROR_NOT_READY && api_now() - t0 < 30)
      ;
   API_CHECK_CU(res);

   /* Recorded on the default stream. */
   API_CHECK_CU(cuMemsetD32Async(a, 2, BIG, NULL));
   API_CHECK_CU(cuEventRecord(e, NULL));
   API_CHECK_CU(cuEventSynchronize(e));
   API_CHECK_CU(cuMemcpyDtoH(out, a, 4 * BIG));
   API_CHECK_WORDS(out, 4 * BIG, 2, "default stream's work");

   API_CHECK_CU(cuEventDestroy(e));
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFreeHost(out));
   API_CHECK_CU(cuMemFree(a));
}

static void
event_elapsed_time(void)
{
   CUdeviceptr a = 0;
   CUstream s = NULL;
   CUevent start = NULL, mid = NULL, end = NULL;
   float ms = -1, first = -1, second = -1;

   API_REQUIRE_CU(cuMemAlloc(&a, 4 * BIG));
   API_REQUIRE_CU(cuStreamCreate(&s, 0));
   API_REQUIRE_CU(cuEventCreate(&start, 0));
   API_REQUIRE_CU(cuEventCreate(&mid, 0));
   API_REQUIRE_CU(cuEventCreate(&end, CU_EVENT_BLOCKING_SYNC));

   API_CHECK_CU(cuEventRecord(start, s));
   for (int i = 0; i < 4; i++)
      API_CHECK_CU(cuMemsetD32Async(a, (unsigned)i, BIG, s));
   API_CHECK_CU(cuEventRecord(mid, s));
   for (int i = 0; i < 4; i++)
      API_CHECK_CU(cuMemsetD8Async(a, (unsigned char)i, 4 * BIG, s));
   API_CHECK_CU(cuEventRecord(end, s));
   API_CHECK_CU(cuEventSynchronize(end));

   API_CHECK_CU(cuEventElapsedTime(&ms, start, end));
   API_CHECK_CU(cuEventElapsedTime(&first, start, mid));
   API_CHECK_CU(cuEventElapsedTime(&second, mid, end));
   printf("elapsed %.3f ms = %.3f + %.3f\n", ms, first, second);
   API_CHECK_MSG(ms >= 0 && ms < 60000, "elapsed %f ms", ms);
   API_CHECK(first >= 0 && second >= 0);
   API_CHECK_MSG(first + second <= ms * 1.01f + 0.01f, "%f + %f > %f", first, second, ms);
   /* Backwards is negative. */
   float back = 0;
   API_CHECK_CU(cuEventElapsedTime(&back, end, start));
   API_CHECK(back <= 0);
   /* The same event twice: zero. */
   float zero = -1;
   API_CHECK_CU(cuEventElapsedTime(&zero, mid, mid));
   API_CHECK(zero == 0);

   API_CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuEventElapsedTime(NULL, start, end));

   API_CHECK_CU(cuEventDestroy(start));
   API_CHECK_CU(cuEventDestroy(mid));
   API_CHECK_CU(cuEventDestroy(end));
   API_CHECK_CU(cuStreamDestroy(s));
   API_CHECK_CU(cuMemFree(a));
}

static void
errors_event_elapsed_timing_disabled(void)
{
   CUevent timed = NULL, untimed = NULL;
   float ms = 0;

   API_REQUIRE_CU(cuEventCreate(&timed, 0));
   API_REQUIRE_CU(cuEventCreate(&untimed, CU_EVENT_DISABLE_TIMING));
   API_CHECK_CU(cuEventRecord(timed, NULL));
   API_CHECK_CU(cuEventRecord(untimed, NULL));
   API_CHECK_CU(cuEventSynchronize(timed));
   API_CHECK_CU(cuEventSynchronize(untimed));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&ms, timed, untimed));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&ms, untimed, timed));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&ms, untimed, untimed));
   API_CHECK_CU(cuEventDestroy(timed));
   API_CHECK_CU(cuEventDestroy(untimed));
}

static void
errors_event_elapsed_not_recorded(void)
{
   CUevent recorded = NULL, fresh = NULL;
   float ms = 0;

   API_REQUIRE_CU(cuEventCreate(&recorded, 0));
   API_REQUIRE_CU(cuEventCreate(&fresh, 0));
   API_CHECK_CU(cuEventRecord(recorded, NULL));
   API_CHECK_CU(cuEventSynchronize(recorded));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&ms, recorded, fresh));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&ms, fresh, recorded));
   API_CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&ms, fresh, fresh));
   API_CHECK_CU(cuEventDestroy(recorded));
   API_CHECK_CU(cuEventDestroy(fresh));
}

/* An event of one context recorded on a stream of another is refused;
 * waiting on it from another context works. */
static void
event_across_contexts(void)
{
   CUcontext other = NULL;
   CUstream other_stream = NULL;
   CUevent e = NULL;
   CUdeviceptr a = 0, b = 0;
   uint32_t *out = api_xmalloc(BIG);

   API_REQUIRE_CU(cuMemAlloc(&a, BIG));
   API_REQUIRE_CU(cuEventCreate(&e, 0));
   API_REQUIRE_CU(cuCtxCreate(&other, NULL, 0, api_dev));
   API_REQUIRE_CU(cuStreamCreate(&other_stream, 0));
   API_REQUIRE_CU(cuMemAlloc(&b, BIG));
   API_CHECK(cuEventRecord(e, other_stream) != CUDA_SUCCESS);
   API_CHECK_CU(cuCtxPopCurrent(NULL));

   API_CHECK_CU(cuMemsetD32Async(a, 0xabcdef01, BIG / 4, NULL));
   API_CHECK_CU(cuEventRecord(e, NULL));
   API_CHECK_CU(cuCtxPushCurrent(other));
   API_CHECK_CU(cuStreamWaitEvent(other_stream, e, 0));
   API_CHECK_CU(cuMemsetD32Async(b, 0x12, BIG / 4, other_stream));
   API_CHECK_CU(cuStreamSynchronize(other_stream));
   API_CHECK_CU(cuCtxPopCurrent(NULL));
   /* Once the other context's stream is past the wait, the event is. */
   API_CHECK_CU(cuEventQuery(e));
   API_CHECK_CU(cuMemcpyDtoH(out, a, BIG));
   API_CHECK_WORDS(out, BIG, 0xabcdef01, "first context's fill");

   API_CHECK_CU(cuCtxDestroy(other));
   API_CHECK_CU(cuEventDestroy(e));
   API_CHECK_CU(cuMemFree(a));
   free(out);
}

static const struct api_case cases[] = {
   API_CASE("api.stream.create_destroy", stream_create_destroy),
   API_CASE("api.stream.priorities", stream_priorities),
   API_CASE("api.stream.in_order", stream_in_order),
   API_CASE("api.stream.query", stream_query),
   API_CASE("api.stream.destroy_pending", stream_destroy_pending),
   API_CASE("api.stream.two_streams", stream_two_streams),
   API_CASE("api.stream.wait_event", stream_wait_event),
   API_CASE("api.stream.legacy_default", stream_legacy_default),
   API_CASE("api.stream.sync_after_async", stream_sync_after_async),
   API_CASE("api.event.create_destroy", event_create_destroy),
   API_CASE("api.event.record_query_sync", event_record_query_sync),
   API_CASE("api.event.elapsed_time", event_elapsed_time),
   API_CASE("api.event.across_contexts", event_across_contexts),
   API_CASE("api.errors.stream_invalid_handle", errors_stream_invalid_handle),
   API_CASE("api.errors.event_invalid_handle", errors_event_invalid_handle),
   API_CASE("api.errors.event_elapsed_timing_disabled", errors_event_elapsed_timing_disabled),
   API_CASE("api.errors.event_elapsed_not_recorded", errors_event_elapsed_not_recorded),
};

API_MAIN(cases)
