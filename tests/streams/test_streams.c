/*
 * streams.*: the ordering rules CUDA defines between streams, each on its
 * own, with long producer work on one stream and a dependent consumer on
 * another, and a randomised stress checked against a sequential model.
 *
 * Every case checks bytes: the producer writes a value the consumer's
 * result can only hold if the consumer ran after it.  Where cuvk records
 * every stream into one submission order the rules hold by construction;
 * these cases are what must stay green once streams run side by side
 * (docs/design.md, "Streams side by side"), and each would fail with old
 * bytes if the rule it names were dropped.
 *
 * STREAMS_OMIT_ORDER=1 leaves out what orders each consumer after its
 * producer (the event wait, the blocking flag, the synchronisation): run
 * on a driver whose streams overlap (NVIDIA's libcuda), every data case
 * then fails with old bytes, which shows that each case depends on its
 * rule.  It proves nothing on a device that runs streams one after
 * the other.
 *
 * Built twice: plain, and with CUDA_API_PER_THREAD_DEFAULT_STREAM
 * (streams.ptds.*), where stream 0 in every call is the calling thread's
 * default stream through the _ptsz/_ptds entry points.
 */
#include "api_test.h"

#include <pthread.h>

#ifdef STREAMS_HAVE_XSEM
#include "util/xsem.h"
#endif

#if defined(__SANITIZE_THREAD__)
#define STREAMS_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define STREAMS_TSAN 1
#endif
#endif
#ifndef STREAMS_TSAN
#define STREAMS_TSAN 0
#endif

/* Large enough that on lavapipe a copy or fill of it takes milliseconds,
 * so a consumer that does not wait starts while the producer still runs. */
#define BIG (32 * API_MIB)
#define WORDS (BIG / 4)

/* STREAMS_OMIT_ORDER: see above. */
static bool
omit_order(void)
{
   const char *v = getenv("STREAMS_OMIT_ORDER");
   return v && *v && strcmp(v, "0") != 0;
}

static CUresult
order_wait(CUstream s, CUevent e)
{
   return omit_order() ? CUDA_SUCCESS : cuStreamWaitEvent(s, e, 0);
}

/* The flags of a stream that is meant to synchronise with the legacy
 * stream. */
static unsigned
blocking_flags(void)
{
   return omit_order() ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT;
}

static void
fill_words(uint32_t *p, size_t bytes, uint32_t value)
{
   for (size_t i = 0; i < bytes / 4; i++)
      p[i] = value;
}

/* A producer chain that takes a while on stream s and leaves dst holding
 * value: several full-size fills, then a copy from pinned memory that
 * holds value.  A consumer that overtakes it sees an earlier fill's
 * value or the previous contents. */
static void
produce(CUdeviceptr dst, CUdeviceptr scratch, uint32_t *pinned, uint32_t value, CUstream s)
{
   fill_words(pinned, BIG, value);
   for (uint32_t i = 0; i < 4; i++)
      API_CHECK_CU(cuMemsetD32Async(scratch, 0xdead0000u + i, WORDS, s));
   API_CHECK_CU(cuMemsetD32Async(dst, 0xbad00000u, WORDS, s));
   API_CHECK_CU(cuMemcpyDtoDAsync(dst, scratch, BIG, s));
   API_CHECK_CU(cuMemcpyHtoDAsync(dst, pinned, BIG, s));
}

struct bufs {
   CUdeviceptr x, y, scratch;
   uint32_t *in, *out;
};

static void
bufs_create(struct bufs *b)
{
   API_REQUIRE_CU(cuMemAlloc(&b->x, BIG));
   API_REQUIRE_CU(cuMemAlloc(&b->y, BIG));
   API_REQUIRE_CU(cuMemAlloc(&b->scratch, BIG));
   API_REQUIRE_CU(cuMemAllocHost((void **)&b->in, BIG));
   API_REQUIRE_CU(cuMemAllocHost((void **)&b->out, BIG));
   API_REQUIRE_CU(cuMemsetD32(b->x, 0, WORDS));
   API_REQUIRE_CU(cuMemsetD32(b->y, 0, WORDS));
   memset(b->out, 0, BIG);
   /* A memset of device memory may return before it is done, and the
    * cases' non-blocking streams are not ordered after the legacy
    * stream: without this, the zeroing could land after a producer
    * (it does with CUVK_LANES=4). */
   API_REQUIRE_CU(cuCtxSynchronize());
}

static void
bufs_destroy(struct bufs *b)
{
   API_CHECK_CU(cuMemFree(b->x));
   API_CHECK_CU(cuMemFree(b->y));
   API_CHECK_CU(cuMemFree(b->scratch));
   API_CHECK_CU(cuMemFreeHost(b->in));
   API_CHECK_CU(cuMemFreeHost(b->out));
}

/* cuStreamWaitEvent: B's copy of x waits for A's producer, through an
 * event only (both streams non-blocking). */
static void
wait_event_producer_consumer(void)
{
   struct bufs b;
   CUstream a, c;
   CUevent e;

   bufs_create(&b);
   API_REQUIRE_CU(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&c, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
   for (uint32_t round = 0; round < 3; round++) {
      const uint32_t v = 0x0a000000u + round;
      produce(b.x, b.scratch, b.in, v, a);
      API_CHECK_CU(cuEventRecord(e, a));
      API_CHECK_CU(order_wait(c, e));
      API_CHECK_CU(cuMemcpyDtoDAsync(b.y, b.x, BIG, c));
      API_CHECK_CU(cuMemcpyDtoHAsync(b.out, b.y, BIG, c));
      API_CHECK_CU(cuStreamSynchronize(c));
      API_CHECK_WORDS(b.out, BIG, v, "consumer after cuStreamWaitEvent");
      /* A's pinned source may be rewritten only once A is done. */
      API_CHECK_CU(cuStreamSynchronize(a));
   }
   API_CHECK_CU(cuEventDestroy(e));
   API_CHECK_CU(cuStreamDestroy(a));
   API_CHECK_CU(cuStreamDestroy(c));
   bufs_destroy(&b);
}

/* A wait takes the event's state at the call: recording the event again
 * afterwards (on an idle stream, so it completes at once) must not
 * release the waiting stream early. */
static void
wait_event_rerecord_after_wait(void)
{
   struct bufs b;
   CUstream a, c, idle;
   CUevent e;

   bufs_create(&b);
   API_REQUIRE_CU(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&c, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&idle, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
   produce(b.x, b.scratch, b.in, 0x0b0b0b0bu, a);
   API_CHECK_CU(cuEventRecord(e, a));
   API_CHECK_CU(order_wait(c, e));
   API_CHECK_CU(cuEventRecord(e, idle));
   API_CHECK_CU(cuMemcpyDtoHAsync(b.out, b.x, BIG, c));
   API_CHECK_CU(cuStreamSynchronize(c));
   API_CHECK_WORDS(b.out, BIG, 0x0b0b0b0bu, "consumer after the event was recorded again");
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_CU(cuEventDestroy(e));
   API_CHECK_CU(cuStreamDestroy(a));
   API_CHECK_CU(cuStreamDestroy(c));
   API_CHECK_CU(cuStreamDestroy(idle));
   bufs_destroy(&b);
}

/* An event never recorded is complete: waiting for it is no wait. */
static void
wait_event_unrecorded(void)
{
   struct bufs b;
   CUstream c;
   CUevent e;

   bufs_create(&b);
   API_REQUIRE_CU(cuStreamCreate(&c, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuEventCreate(&e, 0));
   API_CHECK_CU(cuStreamWaitEvent(c, e, 0));
   API_CHECK_CU(cuMemsetD32Async(b.x, 0x0c0c0c0cu, WORDS, c));
   API_CHECK_CU(cuMemcpyDtoHAsync(b.out, b.x, BIG, c));
   API_CHECK_CU(cuStreamSynchronize(c));
   API_CHECK_WORDS(b.out, BIG, 0x0c0c0c0cu, "work after a wait for an unrecorded event");
   API_CHECK_CU(cuEventQuery(e));
   API_CHECK_CU(cuEventDestroy(e));
   API_CHECK_CU(cuStreamDestroy(c));
   bufs_destroy(&b);
}

/* The legacy default stream waits for every blocking stream's earlier
 * work, and every blocking stream waits for the legacy stream's earlier
 * work, with no event.  In the ptds build stream 0 is the per-thread
 * stream, so this names CU_STREAM_LEGACY. */
static void
legacy_implicit_sync(void)
{
   struct bufs b;
   CUstream blocking;

   bufs_create(&b);
   API_REQUIRE_CU(cuStreamCreate(&blocking, blocking_flags()));

   /* blocking stream -> legacy stream */
   produce(b.x, b.scratch, b.in, 0x1e9a0001u, blocking);
   API_CHECK_CU(cuMemcpyDtoDAsync(b.y, b.x, BIG, CU_STREAM_LEGACY));
   API_CHECK_CU(cuMemcpyDtoHAsync(b.out, b.y, BIG, CU_STREAM_LEGACY));
   API_CHECK_CU(cuStreamSynchronize(CU_STREAM_LEGACY));
   API_CHECK_WORDS(b.out, BIG, 0x1e9a0001u, "legacy stream after a blocking stream");

   /* legacy stream -> blocking stream */
   API_CHECK_CU(cuStreamSynchronize(blocking));
   produce(b.x, b.scratch, b.in, 0x1e9a0002u, CU_STREAM_LEGACY);
   API_CHECK_CU(cuMemcpyDtoDAsync(b.y, b.x, BIG, blocking));
   API_CHECK_CU(cuMemcpyDtoHAsync(b.out, b.y, BIG, blocking));
   API_CHECK_CU(cuStreamSynchronize(blocking));
   API_CHECK_WORDS(b.out, BIG, 0x1e9a0002u, "blocking stream after the legacy stream");

   /* Through the legacy stream between two blocking streams: A's work,
    * a legacy fill of other memory, then B. */
   CUstream other;
   API_REQUIRE_CU(cuStreamCreate(&other, blocking_flags()));
   API_CHECK_CU(cuCtxSynchronize());
   produce(b.x, b.scratch, b.in, 0x1e9a0003u, blocking);
   API_CHECK_CU(cuMemsetD32Async(b.scratch, 0x5c5c5c5cu, WORDS, CU_STREAM_LEGACY));
   API_CHECK_CU(cuMemcpyDtoHAsync(b.out, b.x, BIG, other));
   API_CHECK_CU(cuStreamSynchronize(other));
   API_CHECK_WORDS(b.out, BIG, 0x1e9a0003u, "blocking stream after legacy work that followed another");

   API_CHECK_CU(cuStreamDestroy(other));
   API_CHECK_CU(cuStreamDestroy(blocking));
   bufs_destroy(&b);
}

/* The legacy stream's synchronisation also covers the whole of a blocking
 * stream's work: cuStreamSynchronize(legacy) returns with it done. */
static void
legacy_synchronize_covers_blocking(void)
{
   struct bufs b;
   CUstream blocking;

   bufs_create(&b);
   API_REQUIRE_CU(cuStreamCreate(&blocking, blocking_flags()));
   produce(b.x, b.scratch, b.in, 0x1e9a0011u, blocking);
   API_CHECK_CU(cuMemcpyDtoHAsync(b.out, b.x, BIG, blocking));
   /* An empty legacy step after it, then the legacy stream's sync. */
   API_CHECK_CU(cuMemsetD32Async(b.y, 1, 1, CU_STREAM_LEGACY));
   API_CHECK_CU(cuStreamSynchronize(CU_STREAM_LEGACY));
   API_CHECK_WORDS(b.out, BIG, 0x1e9a0011u, "blocking stream's work once the legacy stream synchronised");
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_CU(cuStreamDestroy(blocking));
   bufs_destroy(&b);
}

/* A non-blocking stream is exempt from the legacy stream's implicit
 * synchronisation; what orders it is an event, which must then hold. */
static void
non_blocking_with_event(void)
{
   struct bufs b;
   CUstream nb;
   CUevent e;
   unsigned flags = 99;

   bufs_create(&b);
   API_REQUIRE_CU(cuStreamCreate(&nb, CU_STREAM_NON_BLOCKING));
   API_CHECK_CU(cuStreamGetFlags(nb, &flags));
   API_CHECK(flags == CU_STREAM_NON_BLOCKING);
   API_REQUIRE_CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));

   produce(b.x, b.scratch, b.in, 0x40b10c00u, CU_STREAM_LEGACY);
   API_CHECK_CU(cuEventRecord(e, CU_STREAM_LEGACY));
   API_CHECK_CU(order_wait(nb, e));
   API_CHECK_CU(cuMemcpyDtoHAsync(b.out, b.x, BIG, nb));
   API_CHECK_CU(cuStreamSynchronize(nb));
   API_CHECK_WORDS(b.out, BIG, 0x40b10c00u, "non-blocking stream after an event of the legacy stream");

   /* The other way: the legacy stream waits for the non-blocking one. */
   API_CHECK_CU(cuCtxSynchronize());
   produce(b.x, b.scratch, b.in, 0x40b10c01u, nb);
   API_CHECK_CU(cuEventRecord(e, nb));
   API_CHECK_CU(order_wait(CU_STREAM_LEGACY, e));
   API_CHECK_CU(cuMemcpyDtoHAsync(b.out, b.x, BIG, CU_STREAM_LEGACY));
   API_CHECK_CU(cuStreamSynchronize(CU_STREAM_LEGACY));
   API_CHECK_WORDS(b.out, BIG, 0x40b10c01u, "legacy stream after an event of a non-blocking stream");
   API_CHECK_CU(cuCtxSynchronize());

   API_CHECK_CU(cuEventDestroy(e));
   API_CHECK_CU(cuStreamDestroy(nb));
   bufs_destroy(&b);
}

/* CU_STREAM_PER_THREAD: in order within itself, synchronised with the
 * legacy stream like a blocking stream, and one per thread: two threads'
 * chains each hold. */
struct ptds_thread {
   struct bufs *b;
   uint32_t value;
   int failures;
};

static void *
ptds_thread_main(void *arg)
{
   struct ptds_thread *t = arg;
   unsigned before = cuvk_test_failures();

   if (cuCtxSetCurrent(api_ctx) != CUDA_SUCCESS) {
      t->failures = 1;
      return NULL;
   }
   produce(t->b->x, t->b->scratch, t->b->in, t->value, CU_STREAM_PER_THREAD);
   API_CHECK_CU(cuMemcpyDtoDAsync(t->b->y, t->b->x, BIG, CU_STREAM_PER_THREAD));
   API_CHECK_CU(cuMemcpyDtoHAsync(t->b->out, t->b->y, BIG, CU_STREAM_PER_THREAD));
   API_CHECK_CU(cuStreamSynchronize(CU_STREAM_PER_THREAD));
   API_CHECK_WORDS(t->b->out, BIG, t->value, "a thread's per-thread stream chain");
   t->failures = (int)(cuvk_test_failures() - before);
   return NULL;
}

static void
per_thread_stream(void)
{
   struct bufs b[2];
   struct ptds_thread t[2];
   pthread_t th[2];

   for (int i = 0; i < 2; i++) {
      bufs_create(&b[i]);
      t[i] = (struct ptds_thread){ .b = &b[i], .value = 0x97d50000u + (uint32_t)i };
   }
   for (int i = 0; i < 2; i++)
      API_REQUIRE(pthread_create(&th[i], NULL, ptds_thread_main, &t[i]) == 0);
   for (int i = 0; i < 2; i++) {
      pthread_join(th[i], NULL);
      API_CHECK_MSG(t[i].failures == 0, "thread %d failed", i);
   }

   /* The legacy stream and this thread's per-thread stream, both ways. */
   produce(b[0].x, b[0].scratch, b[0].in, 0x97d50010u, CU_STREAM_LEGACY);
   API_CHECK_CU(cuMemcpyDtoHAsync(b[0].out, b[0].x, BIG, CU_STREAM_PER_THREAD));
   API_CHECK_CU(cuStreamSynchronize(CU_STREAM_PER_THREAD));
   API_CHECK_WORDS(b[0].out, BIG, 0x97d50010u, "per-thread stream after the legacy stream");
   produce(b[0].x, b[0].scratch, b[0].in, 0x97d50011u, CU_STREAM_PER_THREAD);
   API_CHECK_CU(cuMemcpyDtoHAsync(b[0].out, b[0].x, BIG, CU_STREAM_LEGACY));
   API_CHECK_CU(cuStreamSynchronize(CU_STREAM_LEGACY));
   API_CHECK_WORDS(b[0].out, BIG, 0x97d50011u, "legacy stream after the per-thread stream");

   /* Stream 0 (legacy in the plain build, per-thread in the ptds one)
    * and the legacy stream by name: ordered both ways either way. */
   produce(b[1].x, b[1].scratch, b[1].in, 0x97d50012u, 0);
   API_CHECK_CU(cuMemcpyDtoHAsync(b[1].out, b[1].x, BIG, CU_STREAM_LEGACY));
   API_CHECK_CU(cuStreamSynchronize(CU_STREAM_LEGACY));
   API_CHECK_WORDS(b[1].out, BIG, 0x97d50012u, "the legacy stream after stream 0");
   API_CHECK_CU(cuCtxSynchronize());

   for (int i = 0; i < 2; i++)
      bufs_destroy(&b[i]);
}

/* Whether lanes share a queue and submit lazily (CUVK_LANES above the
 * device's queues, as on lavapipe): work of one lane then stays in its
 * open batch until something waits for it, so a stream that does not
 * wait for another's work runs before it, which makes independence
 * visible in bytes.  Elsewhere either order is right. */
static bool
lanes_lazy(void)
{
   /* Lanes are lazy only where they share a queue: CUVK_LANES above one
    * on a device with one queue, lavapipe.  On a GPU each lane has a
    * queue and submits at once, and the producer may well be done before
    * the reader copies. */
   const char *v = getenv("CUVK_LANES");
   char name[256] = "";
   if (!v || atoi(v) <= 1 || cuDeviceGetName(name, sizeof(name), api_dev) != CUDA_SUCCESS)
      return false;
   return strstr(name, "llvmpipe") != NULL;
}

/* Per-thread default streams are streams of their own: thread A's
 * producer on its per-thread stream does not order thread B's read on
 * B's per-thread stream (CUDA orders per-thread streams only with the
 * legacy stream), and each thread's stream has its own id. */
struct ptsz_pair {
   struct bufs *b;
   pthread_barrier_t *produced, *read;
   unsigned long long id;
   int failures;
};

static void *
ptsz_producer_main(void *arg)
{
   struct ptsz_pair *p = arg;
   unsigned before = cuvk_test_failures();

   if (cuCtxSetCurrent(api_ctx) == CUDA_SUCCESS) {
      API_CHECK_CU(cuStreamGetId(CU_STREAM_PER_THREAD, &p->id));
      /* Device work only: a copy from pinned memory would go to a
       * transfer lane (CUVK_TRANSFER_LANES), whose wait for this lane
       * submits it early. */
      for (uint32_t i = 0; i < 4; i++)
         API_CHECK_CU(cuMemsetD32Async(p->b->scratch, 0x97d5a000u + 3 - i, WORDS, CU_STREAM_PER_THREAD));
      API_CHECK_CU(cuMemsetD32Async(p->b->x, 0xbad00000u, WORDS, CU_STREAM_PER_THREAD));
      API_CHECK_CU(cuMemcpyDtoDAsync(p->b->x, p->b->scratch, BIG, CU_STREAM_PER_THREAD));
   } else {
      API_CHECK_MSG(false, "cuCtxSetCurrent in the producer thread");
   }
   pthread_barrier_wait(p->produced);
   pthread_barrier_wait(p->read);
   /* Its own chain still holds once the other thread is done. */
   API_CHECK_CU(cuMemcpyDtoHAsync(p->b->in, p->b->x, BIG, CU_STREAM_PER_THREAD));
   API_CHECK_CU(cuStreamSynchronize(CU_STREAM_PER_THREAD));
   API_CHECK_WORDS(p->b->in, BIG, 0x97d5a000u, "the producer thread's own chain");
   p->failures = (int)(cuvk_test_failures() - before);
   return NULL;
}

static void *
ptsz_reader_main(void *arg)
{
   struct ptsz_pair *p = arg;
   unsigned before = cuvk_test_failures();

   pthread_barrier_wait(p->produced);
   if (cuCtxSetCurrent(api_ctx) == CUDA_SUCCESS) {
      API_CHECK_CU(cuStreamGetId(CU_STREAM_PER_THREAD, &p->id));
      API_CHECK_CU(cuMemcpyDtoHAsync(p->b->out, p->b->x, BIG, CU_STREAM_PER_THREAD));
      API_CHECK_CU(cuStreamSynchronize(CU_STREAM_PER_THREAD));
   } else {
      API_CHECK_MSG(false, "cuCtxSetCurrent in the reader thread");
   }
   pthread_barrier_wait(p->read);
   p->failures = (int)(cuvk_test_failures() - before);
   return NULL;
}

static void
per_thread_independent(void)
{
   struct bufs b;
   pthread_barrier_t produced, read;
   struct ptsz_pair pa, pb;
   pthread_t ta, tb;
   unsigned long long legacy_id = 0, own_id = 0;

   bufs_create(&b);
   API_REQUIRE(pthread_barrier_init(&produced, NULL, 2) == 0);
   API_REQUIRE(pthread_barrier_init(&read, NULL, 2) == 0);
   pa = (struct ptsz_pair){ .b = &b, .produced = &produced, .read = &read };
   pb = pa;
   API_REQUIRE(pthread_create(&ta, NULL, ptsz_producer_main, &pa) == 0);
   API_REQUIRE(pthread_create(&tb, NULL, ptsz_reader_main, &pb) == 0);
   pthread_join(ta, NULL);
   pthread_join(tb, NULL);
   API_CHECK_MSG(pa.failures == 0 && pb.failures == 0, "thread failures: %d, %d", pa.failures, pb.failures);
   API_CHECK_CU(cuCtxSynchronize());
   if (lanes_lazy()) {
      /* The reader's copy ran before the producer's open batch was
       * submitted: it read what bufs_create left. */
      API_CHECK_WORDS(b.out, BIG, 0, "a per-thread stream's read that did not wait for another thread's");
   }

   API_CHECK_CU(cuStreamGetId(CU_STREAM_LEGACY, &legacy_id));
   API_CHECK_CU(cuStreamGetId(CU_STREAM_PER_THREAD, &own_id));
   API_CHECK_MSG(pa.id && pb.id && pa.id != pb.id && pa.id != legacy_id && pb.id != legacy_id &&
                 own_id != legacy_id && own_id != pa.id && own_id != pb.id,
                 "per-thread stream ids %llu, %llu and this thread's %llu, legacy %llu", pa.id, pb.id,
                 own_id, legacy_id);
   unsigned flags = 99;
   API_CHECK_CU(cuStreamGetFlags(CU_STREAM_PER_THREAD, &flags));
   API_CHECK_MSG(flags == 0, "the per-thread stream's flags are 0x%x, not blocking", flags);
   API_CHECK(cuStreamDestroy(CU_STREAM_PER_THREAD) == CUDA_ERROR_INVALID_HANDLE);

   pthread_barrier_destroy(&produced);
   pthread_barrier_destroy(&read);
   bufs_destroy(&b);
}

/* Many short-lived threads each using their per-thread stream: each gets
 * a stream that goes when it exits (LeakSanitizer in the address mode
 * checks nothing stays behind), and each one's chain holds. */
#define PTSZ_SHORT_THREADS 48
#define PTSZ_SHORT_WORDS 1024

struct ptsz_short {
   CUdeviceptr d;
   uint32_t *out;
   uint32_t value;
   int failures;
};

static void *
ptsz_short_main(void *arg)
{
   struct ptsz_short *s = arg;
   unsigned before = cuvk_test_failures();

   if (cuCtxSetCurrent(api_ctx) == CUDA_SUCCESS) {
      API_CHECK_CU(cuMemsetD32Async(s->d, s->value, PTSZ_SHORT_WORDS, CU_STREAM_PER_THREAD));
      API_CHECK_CU(cuMemcpyDtoHAsync(s->out, s->d, PTSZ_SHORT_WORDS * 4, CU_STREAM_PER_THREAD));
      API_CHECK_CU(cuStreamSynchronize(CU_STREAM_PER_THREAD));
      API_CHECK_WORDS(s->out, PTSZ_SHORT_WORDS * 4, s->value, "a short thread's per-thread chain");
   } else {
      API_CHECK_MSG(false, "cuCtxSetCurrent in a short thread");
   }
   s->failures = (int)(cuvk_test_failures() - before);
   return NULL;
}

static void
per_thread_short_threads(void)
{
   struct ptsz_short s[4];
   CUdeviceptr d;
   uint32_t *out;

   API_REQUIRE_CU(cuMemAlloc(&d, 4 * PTSZ_SHORT_WORDS * 4));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out, 4 * PTSZ_SHORT_WORDS * 4));
   /* Four at a time, each on its own quarter. */
   for (int round = 0; round < PTSZ_SHORT_THREADS / 4; round++) {
      pthread_t th[4];
      for (int i = 0; i < 4; i++) {
         s[i] = (struct ptsz_short){
            .d = d + (CUdeviceptr)i * PTSZ_SHORT_WORDS * 4,
            .out = out + i * PTSZ_SHORT_WORDS,
            .value = 0x5e000000u + (uint32_t)(round * 4 + i),
         };
         API_REQUIRE(pthread_create(&th[i], NULL, ptsz_short_main, &s[i]) == 0);
      }
      for (int i = 0; i < 4; i++) {
         pthread_join(th[i], NULL);
         API_CHECK_MSG(s[i].failures == 0, "round %d thread %d failed", round, i);
      }
   }
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_CU(cuMemFree(d));
   API_CHECK_CU(cuMemFreeHost(out));
}

/* cuCtxSynchronize waits for every stream: several producers on several
 * streams, each ending in a copy to pinned memory the host then reads. */
static void
ctx_synchronize_all_streams(void)
{
   enum { N = 4 };
   struct bufs b[N];
   CUstream s[N];

   for (int i = 0; i < N; i++) {
      bufs_create(&b[i]);
      API_REQUIRE_CU(cuStreamCreate(&s[i], i & 1 ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT));
   }
   for (int i = 0; i < N; i++) {
      produce(b[i].x, b[i].scratch, b[i].in, 0xc7c50000u + (uint32_t)i, s[i]);
      API_CHECK_CU(cuMemcpyDtoHAsync(b[i].out, b[i].x, BIG, s[i]));
   }
   if (!omit_order())
      API_CHECK_CU(cuCtxSynchronize());
   for (int i = 0; i < N; i++) {
      API_CHECK_WORDS(b[i].out, BIG, 0xc7c50000u + (uint32_t)i, "a stream's result after cuCtxSynchronize");
      API_CHECK_CU(cuCtxSynchronize());
      API_CHECK_CU(cuStreamQuery(s[i]));
      API_CHECK_CU(cuStreamDestroy(s[i]));
      bufs_destroy(&b[i]);
   }
}

/* cuStreamSynchronize waits for that stream's work, the host then reads
 * it; and a second stream's synchronisation does not disturb it. */
static void
stream_synchronize_one(void)
{
   struct bufs b[2];
   CUstream s[2];

   for (int i = 0; i < 2; i++) {
      bufs_create(&b[i]);
      API_REQUIRE_CU(cuStreamCreate(&s[i], CU_STREAM_NON_BLOCKING));
   }
   for (uint32_t round = 0; round < 3; round++) {
      for (int i = 0; i < 2; i++) {
         produce(b[i].x, b[i].scratch, b[i].in, 0x5e5e0000u + round * 2 + (uint32_t)i, s[i]);
         API_CHECK_CU(cuMemcpyDtoHAsync(b[i].out, b[i].x, BIG, s[i]));
      }
      for (int i = 1; i >= 0; i--) {
         if (!omit_order())
            API_CHECK_CU(cuStreamSynchronize(s[i]));
         API_CHECK_WORDS(b[i].out, BIG, 0x5e5e0000u + round * 2 + (uint32_t)i, "after cuStreamSynchronize");
      }
   }
   API_CHECK_CU(cuCtxSynchronize());
   for (int i = 0; i < 2; i++) {
      API_CHECK_CU(cuStreamDestroy(s[i]));
      bufs_destroy(&b[i]);
   }
}

/* Timing events on two streams: the end event, recorded on B after B
 * waited for the start's stream, is not earlier than the start; and
 * cuEventSynchronize on it means B's work is done. */
static void
event_timing_across_streams(void)
{
   struct bufs b;
   CUstream a, c;
   CUevent start, mid, end;
   float ms = -1;

   bufs_create(&b);
   API_REQUIRE_CU(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&c, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuEventCreate(&start, 0));
   API_REQUIRE_CU(cuEventCreate(&mid, 0));
   API_REQUIRE_CU(cuEventCreate(&end, 0));

   API_CHECK_CU(cuEventRecord(start, a));
   produce(b.x, b.scratch, b.in, 0x7e7e7e7eu, a);
   API_CHECK_CU(cuEventRecord(mid, a));
   API_CHECK_CU(order_wait(c, mid));
   API_CHECK_CU(cuMemcpyDtoHAsync(b.out, b.x, BIG, c));
   API_CHECK_CU(cuEventRecord(end, c));
   API_CHECK_CU(cuEventSynchronize(end));
   API_CHECK_WORDS(b.out, BIG, 0x7e7e7e7eu, "consumer once its stream's event completed");
   API_CHECK_CU(cuEventSynchronize(mid));
   API_CHECK_CU(cuEventElapsedTime(&ms, start, mid));
   API_CHECK_MSG(ms > 0, "producer took %f ms", (double)ms);
   float total = -1;
   API_CHECK_CU(cuEventElapsedTime(&total, start, end));
   API_CHECK_MSG(total >= ms, "start to end %f ms, start to mid %f ms", (double)total, (double)ms);
   printf("producer %.3f ms, producer + consumer %.3f ms\n", (double)ms, (double)total);

   API_CHECK_CU(cuEventDestroy(start));
   API_CHECK_CU(cuEventDestroy(mid));
   API_CHECK_CU(cuEventDestroy(end));
   API_CHECK_CU(cuStreamDestroy(a));
   API_CHECK_CU(cuStreamDestroy(c));
   bufs_destroy(&b);
}

/* Host functions run in their stream's order: after the producer's copy
 * to pinned memory (they read it), before the next command (it reads
 * what they wrote); another stream that waits for an event after the
 * host function sees its writes too. */
struct host_step {
   uint32_t *read;
   uint32_t *write;
   uint32_t expect;
   uint32_t value;
   size_t bad;
   int ran;
};

static void CUDA_CB
host_step_run(void *data)
{
   struct host_step *h = data;

   h->bad = api_count_not(h->read, BIG, h->expect);
   fill_words(h->write, BIG, h->value);
   __atomic_store_n(&h->ran, 1, __ATOMIC_RELEASE);
}

static void
host_function_order(void)
{
   struct bufs b;
   CUstream a, c;
   CUevent e;
   uint32_t *mid;

   bufs_create(&b);
   API_REQUIRE_CU(cuMemAllocHost((void **)&mid, BIG));
   API_REQUIRE_CU(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&c, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));

   struct host_step h = { .read = b.out, .write = mid, .expect = 0x40570001u, .value = 0x40570002u };
   produce(b.x, b.scratch, b.in, 0x40570001u, a);
   API_CHECK_CU(cuMemcpyDtoHAsync(b.out, b.x, BIG, a));
   API_CHECK_CU(cuLaunchHostFunc(a, host_step_run, &h));
   API_CHECK_CU(cuEventRecord(e, a));
   API_CHECK_CU(order_wait(c, e));
   API_CHECK_CU(cuMemcpyHtoDAsync(b.y, mid, BIG, c));
   API_CHECK_CU(cuMemcpyDtoHAsync(b.out, b.y, BIG, c));
   API_CHECK_CU(cuStreamSynchronize(c));
   API_CHECK(omit_order() || __atomic_load_n(&h.ran, __ATOMIC_ACQUIRE) == 1);
   API_CHECK_MSG(h.bad == 0, "the host function saw %zu words the producer had not written", h.bad);
   API_CHECK_WORDS(b.out, BIG, 0x40570002u, "another stream after the host function");
   API_CHECK_CU(cuCtxSynchronize());

   API_CHECK_CU(cuEventDestroy(e));
   API_CHECK_CU(cuStreamDestroy(a));
   API_CHECK_CU(cuStreamDestroy(c));
   API_CHECK_CU(cuMemFreeHost(mid));
   bufs_destroy(&b);
}

/* Memory freed while another stream still reads it stays valid until
 * that work is done: allocations made right after (which could take the
 * freed memory) are filled with something else meanwhile. */
static void
free_while_in_use(void)
{
   struct bufs b;
   CUstream a, c, d;
   CUevent e;
   CUdeviceptr victim, fresh[4];

   bufs_create(&b);
   API_REQUIRE_CU(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&c, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&d, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
   API_REQUIRE_CU(cuMemAlloc(&victim, BIG));

   produce(victim, b.scratch, b.in, 0xf4eef4eeu, a);
   API_CHECK_CU(cuEventRecord(e, a));
   API_CHECK_CU(order_wait(c, e));
   /* A long read of victim on c, behind a fill of its own. */
   API_CHECK_CU(cuMemsetD32Async(b.y, 0, WORDS, c));
   API_CHECK_CU(cuMemcpyDtoDAsync(b.y, victim, BIG, c));
   API_CHECK_CU(cuMemcpyDtoHAsync(b.out, b.y, BIG, c));
   API_CHECK_CU(cuMemFree(victim));
   for (int i = 0; i < 4; i++) {
      API_REQUIRE_CU(cuMemAlloc(&fresh[i], BIG));
      API_CHECK_CU(cuMemsetD32Async(fresh[i], 0x0badf00du, WORDS, d));
   }
   API_CHECK_CU(cuStreamSynchronize(c));
   API_CHECK_WORDS(b.out, BIG, 0xf4eef4eeu, "a read of memory freed while the read was queued");
   API_CHECK_CU(cuCtxSynchronize());
   for (int i = 0; i < 4; i++)
      API_CHECK_CU(cuMemFree(fresh[i]));

   API_CHECK_CU(cuEventDestroy(e));
   API_CHECK_CU(cuStreamDestroy(a));
   API_CHECK_CU(cuStreamDestroy(c));
   API_CHECK_CU(cuStreamDestroy(d));
   bufs_destroy(&b);
}

/* VMM: an unmap after queued work that reads the mapping lets that work
 * finish on the old mapping, and a new mapping at the same address is
 * seen by work queued after the map. */
static void
vmm_map_unmap_order(void)
{
   struct bufs b;
   CUstream a, c;
   CUevent e;
   size_t gran = 0;
   CUmemAllocationProp prop = {
      .type = CU_MEM_ALLOCATION_TYPE_PINNED,
      .location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = api_dev },
   };
   CUmemAccessDesc access = {
      .location = prop.location,
      .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
   };

   bufs_create(&b);
   API_REQUIRE_CU(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
   API_REQUIRE(gran > 0 && BIG % gran == 0);
   API_REQUIRE_CU(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&c, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));

   CUdeviceptr va = 0;
   CUmemGenericAllocationHandle h1, h2;
   API_REQUIRE_CU(cuMemAddressReserve(&va, BIG, 0, 0, 0));
   API_REQUIRE_CU(cuMemCreate(&h1, BIG, &prop, 0));
   API_REQUIRE_CU(cuMemCreate(&h2, BIG, &prop, 0));
   API_REQUIRE_CU(cuMemMap(va, BIG, 0, h1, 0));
   API_REQUIRE_CU(cuMemSetAccess(va, BIG, &access, 1));

   produce(va, b.scratch, b.in, 0x7a7a0001u, a);
   API_CHECK_CU(cuEventRecord(e, a));
   API_CHECK_CU(order_wait(c, e));
   API_CHECK_CU(cuMemcpyDtoDAsync(b.y, va, BIG, c));
   API_CHECK_CU(cuMemcpyDtoHAsync(b.out, b.y, BIG, c));
   API_CHECK_CU(cuMemUnmap(va, BIG));
   API_CHECK_CU(cuMemRelease(h1));
   API_CHECK_CU(cuStreamSynchronize(c));
   API_CHECK_WORDS(b.out, BIG, 0x7a7a0001u, "a read queued before the unmap");

   API_CHECK_CU(cuMemMap(va, BIG, 0, h2, 0));
   API_CHECK_CU(cuMemSetAccess(va, BIG, &access, 1));
   API_CHECK_CU(cuMemsetD32Async(va, 0x7a7a0002u, WORDS, a));
   API_CHECK_CU(cuEventRecord(e, a));
   API_CHECK_CU(order_wait(c, e));
   API_CHECK_CU(cuMemcpyDtoHAsync(b.out, va, BIG, c));
   API_CHECK_CU(cuStreamSynchronize(c));
   API_CHECK_WORDS(b.out, BIG, 0x7a7a0002u, "work queued after the new mapping");

   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_CU(cuMemUnmap(va, BIG));
   API_CHECK_CU(cuMemRelease(h2));
   API_CHECK_CU(cuMemAddressFree(va, BIG));
   API_CHECK_CU(cuEventDestroy(e));
   API_CHECK_CU(cuStreamDestroy(a));
   API_CHECK_CU(cuStreamDestroy(c));
   bufs_destroy(&b);
}

/* Priorities are accepted over the whole range and each prioritised
 * stream still orders its own work and honours events. */
static void
priorities_order(void)
{
   int least = 0, greatest = 0;
   struct bufs b;
   CUstream lo, hi;
   CUevent e;

   API_REQUIRE_CU(cuCtxGetStreamPriorityRange(&least, &greatest));
   bufs_create(&b);
   API_REQUIRE_CU(cuStreamCreateWithPriority(&lo, CU_STREAM_NON_BLOCKING, least));
   API_REQUIRE_CU(cuStreamCreateWithPriority(&hi, CU_STREAM_NON_BLOCKING, greatest));
   API_REQUIRE_CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
   /* The high-priority stream waits for the low one's producer. */
   produce(b.x, b.scratch, b.in, 0x9a1a0001u, lo);
   API_CHECK_CU(cuEventRecord(e, lo));
   API_CHECK_CU(order_wait(hi, e));
   API_CHECK_CU(cuMemcpyDtoHAsync(b.out, b.x, BIG, hi));
   API_CHECK_CU(cuStreamSynchronize(hi));
   API_CHECK_WORDS(b.out, BIG, 0x9a1a0001u, "high-priority consumer of a low-priority producer");
   API_CHECK_CU(cuCtxSynchronize());
   /* And the other way: the low-priority stream waits for the high one. */
   produce(b.x, b.scratch, b.in, 0x9a1a0002u, hi);
   API_CHECK_CU(cuEventRecord(e, hi));
   API_CHECK_CU(order_wait(lo, e));
   API_CHECK_CU(cuMemcpyDtoHAsync(b.out, b.x, BIG, lo));
   API_CHECK_CU(cuStreamSynchronize(lo));
   API_CHECK_WORDS(b.out, BIG, 0x9a1a0002u, "low-priority consumer of a high-priority producer");
   API_CHECK_CU(cuCtxSynchronize());
   /* Priorities are clamped into the range, as CUDA does. */
   int p = 1;
   API_CHECK_CU(cuStreamGetPriority(hi, &p));
   API_CHECK_MSG(p == greatest, "high stream priority %d, range %d .. %d", p, least, greatest);
   CUstream past;
   API_CHECK_CU(cuStreamCreateWithPriority(&past, CU_STREAM_NON_BLOCKING, greatest - 10));
   API_CHECK_CU(cuStreamGetPriority(past, &p));
   API_CHECK_MSG(p == greatest, "priority %d clamped to %d, want %d", greatest - 10, p, greatest);
   API_CHECK_CU(cuStreamDestroy(past));
   API_CHECK_CU(cuEventDestroy(e));
   API_CHECK_CU(cuStreamDestroy(lo));
   API_CHECK_CU(cuStreamDestroy(hi));
   bufs_destroy(&b);
}

/* A kernel fault on one stream is the context's: once it is known, every
 * synchronisation reports it, another stream's included, and the kernel
 * before it on a healthy pointer was a producer another stream waited for
 * through an event. */
static const char poke_ptx[] =
   ".version 8.0\n.target sm_75\n.address_size 64\n"
   ".visible .entry poke(.param .u64 p, .param .u32 v)\n"
   "{\n"
   "   .reg .b32 %r<2>;\n"
   "   .reg .b64 %rd<2>;\n"
   "   ld.param.u64 %rd1, [p];\n"
   "   ld.param.u32 %r1, [v];\n"
   "   st.global.u32 [%rd1], %r1;\n"
   "   ret;\n"
   "}\n";

static void
fault_seen_by_every_stream(void)
{
   CUdevice dev;
   CUcontext ctx;
   CUmodule mod;
   CUfunction poke;
   CUstream a, c;
   CUevent e;
   CUdeviceptr x, wild = (CUdeviceptr)0x10000;
   uint32_t *out;

   API_REQUIRE_CU(cuDeviceGet(&dev, 0));
   API_REQUIRE_CU(cuDevicePrimaryCtxRetain(&ctx, dev));
   API_REQUIRE_CU(cuCtxSetCurrent(ctx));
   API_REQUIRE_CU(cuModuleLoadData(&mod, poke_ptx));
   API_REQUIRE_CU(cuModuleGetFunction(&poke, mod, "poke"));
   API_REQUIRE_CU(cuMemAlloc(&x, BIG));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out, BIG));
   API_REQUIRE_CU(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&c, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));

   /* A healthy kernel as the producer: a fill, then the kernel writes
    * the first word. */
   uint32_t v = 0xfa017001u;
   API_CHECK_CU(cuMemsetD32Async(x, 0x5a5a5a5au, WORDS, a));
   void *params[] = { &x, &v };
   API_CHECK_CU(cuLaunchKernel(poke, 1, 1, 1, 1, 1, 1, 0, a, params, NULL));
   API_CHECK_CU(cuEventRecord(e, a));
   API_CHECK_CU(order_wait(c, e));
   API_CHECK_CU(cuMemcpyDtoHAsync(out, x, BIG, c));
   API_CHECK_CU(cuStreamSynchronize(c));
   API_CHECK_MSG(out[0] == v, "the kernel's word: 0x%08x", out[0]);
   API_CHECK_WORDS(out + 1, BIG - 4, 0x5a5a5a5au, "the fill before the kernel");

   /* Now a fault on a, healthy work on c. */
   void *wild_params[] = { &wild, &v };
   API_CHECK_CU(cuLaunchKernel(poke, 1, 1, 1, 1, 1, 1, 0, a, wild_params, NULL));
   API_CHECK_CU(cuMemsetD32Async(x, 1, WORDS, c));
   API_CHECK_RES(CUDA_ERROR_ILLEGAL_ADDRESS, cuStreamSynchronize(a));
   API_CHECK_RES(CUDA_ERROR_ILLEGAL_ADDRESS, cuStreamSynchronize(c));
   API_CHECK_RES(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
   API_CHECK_RES(CUDA_ERROR_ILLEGAL_ADDRESS, cuLaunchKernel(poke, 1, 1, 1, 1, 1, 1, 0, c, params, NULL));
   API_CHECK_RES(CUDA_ERROR_ILLEGAL_ADDRESS, cuMemsetD32Async(x, 2, WORDS, c));

   /* Only destroying the context clears it, as on CUDA. */
   API_CHECK_CU(cuDevicePrimaryCtxReset(dev));
}

/* Reads the word at src and writes it plus one at dst: a kernel that
 * reads what came before it. */
static const char bump_ptx[] =
   ".version 8.0\n.target sm_75\n.address_size 64\n"
   ".visible .entry bump(.param .u64 src, .param .u64 dst)\n"
   "{\n"
   "   .reg .b32 %r<3>;\n"
   "   .reg .b64 %rd<3>;\n"
   "   ld.param.u64 %rd1, [src];\n"
   "   ld.param.u64 %rd2, [dst];\n"
   "   ld.global.u32 %r1, [%rd1];\n"
   "   add.u32 %r2, %r1, 1;\n"
   "   st.global.u32 [%rd2], %r2;\n"
   "   ret;\n"
   "}\n";

struct late_reader {
   volatile uint32_t *word;
   uint32_t seen;
};

/* Runs late on purpose: an operation queued after it that did not wait
 * for it would land first. */
static void CUDA_CB
late_reader_run(void *data)
{
   struct late_reader *r = data;
   struct timespec ts = { 0, 20 * 1000 * 1000 };
   nanosleep(&ts, NULL);
   __atomic_store_n(&r->seen, r->word[0], __ATOMIC_RELEASE);
}

/* Small copies and fills, which cuvk does on the host when the context is
 * idle (docs/design.md, "Small operations on the host"), keep their
 * place in stream order: on an idle context, *Async ones read by a
 * kernel on another stream through an event; after a host function
 * still to run; behind a busy producer on their own stream, on another
 * stream through an event, and on the legacy stream behind a blocking
 * stream (named: a per-thread default stream has no such order). */
static void
host_op_order(void)
{
   struct bufs b;
   CUmodule mod;
   CUfunction bump;
   CUstream a, c, blocking;
   CUevent e;
   CUdeviceptr out_d, pinned_d;
   uint32_t *pinned, small[1024];

   bufs_create(&b);
   API_REQUIRE_CU(cuModuleLoadData(&mod, bump_ptx));
   API_REQUIRE_CU(cuModuleGetFunction(&bump, mod, "bump"));
   API_REQUIRE_CU(cuMemAlloc(&out_d, 4096));
   API_REQUIRE_CU(cuMemAllocHost((void **)&pinned, 4096));
   API_REQUIRE_CU(cuMemHostGetDevicePointer(&pinned_d, pinned, 0));
   API_REQUIRE_CU(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&c, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&blocking, blocking_flags()));
   API_REQUIRE_CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));

   /* Idle: a fill and a copy on a, then a kernel on c that reads the
    * copy's first word. */
   API_CHECK_CU(cuMemsetD32Async(b.x, 0x05e70001u, 1024, a));
   API_CHECK_CU(cuMemcpyDtoDAsync(b.y, b.x, 4096, a));
   API_CHECK_CU(cuEventRecord(e, a));
   API_CHECK_CU(order_wait(c, e));
   void *params[] = { &b.y, &out_d };
   API_CHECK_CU(cuLaunchKernel(bump, 1, 1, 1, 1, 1, 1, 0, c, params, NULL));
   API_CHECK_CU(cuStreamSynchronize(c));
   API_CHECK_CU(cuMemcpyDtoH(small, out_d, 4));
   API_CHECK_MSG(small[0] == 0x05e70002u, "the kernel read 0x%08x - 1 after the host's copy", small[0] - 1);
   API_CHECK_CU(cuEventSynchronize(e));
   API_CHECK_CU(cuStreamQuery(a));
   API_CHECK_CU(cuMemcpyDtoH(small, b.y, sizeof(small)));
   API_CHECK_WORDS(small, sizeof(small), 0x05e70001u, "a small copy of a small fill");

   /* After a host function that has yet to run: the fill waits for it. */
   pinned[0] = 0x05e70003u;
   struct late_reader r = { .word = pinned };
   API_CHECK_CU(cuLaunchHostFunc(a, late_reader_run, &r));
   API_CHECK_CU(cuMemsetD32Async(pinned_d, 0x05e70004u, 1, a));
   API_CHECK_CU(cuStreamSynchronize(a));
   API_CHECK_MSG(__atomic_load_n(&r.seen, __ATOMIC_ACQUIRE) == 0x05e70003u,
                 "the host function saw 0x%08x: the fill queued after it ran first", r.seen);
   API_CHECK_MSG(pinned[0] == 0x05e70004u, "the fill after the host function left 0x%08x", pinned[0]);

   /* Behind a producer on the same stream, and on another stream that
    * waits for it. */
   produce(b.x, b.scratch, b.in, 0x05e70005u, a);
   API_CHECK_CU(cuMemsetD32Async(b.x, 0x05e70006u, 1024, a));
   API_CHECK_CU(cuEventRecord(e, a));
   API_CHECK_CU(order_wait(c, e));
   API_CHECK_CU(cuMemcpyDtoDAsync(b.x + 4096, b.x, 4096, c));
   API_CHECK_CU(cuStreamSynchronize(c));
   API_CHECK_CU(cuStreamSynchronize(a));
   API_CHECK_CU(cuMemcpyDtoH(b.out, b.x, BIG));
   API_CHECK_WORDS(b.out, 8192, 0x05e70006u, "small fill and copy after a producer");
   API_CHECK_WORDS(b.out + 2048, BIG - 8192, 0x05e70005u, "the producer's bytes");

   /* The legacy stream behind a blocking stream. */
   produce(b.y, b.scratch, b.in, 0x05e70007u, blocking);
   API_CHECK_CU(cuMemsetD32Async(b.y, 0x05e70008u, 1024, CU_STREAM_LEGACY));
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_CU(cuMemcpyDtoH(b.out, b.y, BIG));
   API_CHECK_WORDS(b.out, 4096, 0x05e70008u, "a legacy small fill after a blocking stream's producer");
   API_CHECK_WORDS(b.out + 1024, BIG - 4096, 0x05e70007u, "the blocking stream's bytes");

   API_CHECK_CU(cuEventDestroy(e));
   API_CHECK_CU(cuStreamDestroy(a));
   API_CHECK_CU(cuStreamDestroy(c));
   API_CHECK_CU(cuStreamDestroy(blocking));
   API_CHECK_CU(cuMemFreeHost(pinned));
   API_CHECK_CU(cuMemFree(out_d));
   API_CHECK_CU(cuModuleUnload(mod));
   bufs_destroy(&b);
}

/* Synchronous copies and fills of device memory, which cuvk may run on
 * its command ring when the context is idle (docs/design.md, "A resident
 * command ring"), keep the legacy stream's order: read through an event
 * by a kernel on a non-blocking stream, behind a blocking stream's
 * producer, around kernels on the legacy stream (each a submission,
 * which takes the ring off a queue it shares), and beside a non-blocking
 * stream's producer they are not ordered with.  streams.ring_on.* runs
 * it with the ring on (tests/streams/meson.build). */
static void
ring_order(void)
{
   struct bufs b;
   CUmodule mod;
   CUfunction bump;
   CUstream a, blocking;
   CUevent e;
   CUdeviceptr out_d;
   uint32_t small[1024];

   bufs_create(&b);
   API_REQUIRE_CU(cuModuleLoadData(&mod, bump_ptx));
   API_REQUIRE_CU(cuModuleGetFunction(&bump, mod, "bump"));
   API_REQUIRE_CU(cuMemAlloc(&out_d, 4096));
   API_REQUIRE_CU(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&blocking, blocking_flags()));
   API_REQUIRE_CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));

   /* Idle: a fill and a copy, then a kernel on a that waits for them. */
   API_CHECK_CU(cuMemsetD32(b.x, 0x21a60001u, 1024));
   API_CHECK_CU(cuMemcpyDtoD(b.y, b.x, 4096));
   API_CHECK_CU(cuEventRecord(e, CU_STREAM_LEGACY));
   API_CHECK_CU(order_wait(a, e));
   void *params[] = { &b.y, &out_d };
   API_CHECK_CU(cuLaunchKernel(bump, 1, 1, 1, 1, 1, 1, 0, a, params, NULL));
   API_CHECK_CU(cuStreamSynchronize(a));
   API_CHECK_CU(cuMemcpyDtoH(small, out_d, 4));
   API_CHECK_MSG(small[0] == 0x21a60002u, "the kernel read 0x%08x - 1 after a synchronous copy", small[0] - 1);
   API_CHECK_CU(cuEventSynchronize(e));
   API_CHECK_CU(cuMemcpyDtoH(small, b.y, sizeof(small)));
   API_CHECK_WORDS(small, sizeof(small), 0x21a60001u, "a synchronous copy of a synchronous fill");

   /* Behind a blocking stream's producer: the legacy stream waits for it. */
   produce(b.x, b.scratch, b.in, 0x21a60003u, blocking);
   API_CHECK_CU(cuMemsetD32(b.x, 0x21a60004u, 1024));
   API_CHECK_CU(cuMemcpyDtoD(b.x + 4096, b.x, 4096));
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_CU(cuMemcpyDtoH(b.out, b.x, BIG));
   API_CHECK_WORDS(b.out, 8192, 0x21a60004u, "synchronous fill and copy after a blocking producer");
   API_CHECK_WORDS(b.out + 2048, BIG - 8192, 0x21a60003u, "the blocking producer's bytes");

   /* Around kernels on the legacy stream, each reading the fill before
    * it, its result copied on by the next synchronous copy. */
   for (uint32_t i = 0; i < 16; i++) {
      API_CHECK_CU(cuMemsetD32(b.y, 0x21a60100u + i, 1024));
      API_CHECK_CU(cuLaunchKernel(bump, 1, 1, 1, 1, 1, 1, 0, CU_STREAM_LEGACY, params, NULL));
      API_CHECK_CU(cuMemcpyDtoD(b.y + 8192, out_d, 4));
      API_CHECK_CU(cuMemcpyDtoH(small, b.y + 8192, 4));
      API_CHECK_MSG(small[0] == 0x21a60101u + i, "round %u: the copy after the kernel read 0x%08x", i, small[0]);
   }

   /* Beside a non-blocking stream's producer: neither waits for the
    * other, both land. */
   produce(b.scratch, b.x, b.in, 0x21a60005u, a);
   for (uint32_t i = 0; i < 8; i++) {
      API_CHECK_CU(cuMemsetD32(b.y, 0x21a60200u + i, 1024));
      API_CHECK_CU(cuMemcpyDtoD(b.y + 4096, b.y, 4096));
   }
   API_CHECK_CU(cuCtxSynchronize());
   API_CHECK_CU(cuMemcpyDtoH(b.out, b.scratch, BIG));
   API_CHECK_WORDS(b.out, BIG, 0x21a60005u, "the non-blocking producer's bytes");
   API_CHECK_CU(cuMemcpyDtoH(small, b.y + 4096, sizeof(small)));
   API_CHECK_WORDS(small, sizeof(small), 0x21a60207u, "the last synchronous copy beside a producer");

   API_CHECK_CU(cuEventDestroy(e));
   API_CHECK_CU(cuStreamDestroy(a));
   API_CHECK_CU(cuStreamDestroy(blocking));
   API_CHECK_CU(cuMemFree(out_d));
   API_CHECK_CU(cuModuleUnload(mod));
   bufs_destroy(&b);
}

#ifdef STREAMS_HAVE_XSEM
/* External semaphores order streams too: A signals a timeline semaphore
 * after its producer, B waits for it before its consumer; no event, no
 * blocking stream.  The semaphore is an xsem, what VK_LAYER_CUVK_interop
 * gives an application on lavapipe, made here directly; the host also
 * waits for the signal and then finds A's copy to pinned memory done. */
static void
external_semaphore_order(void)
{
   struct bufs b;
   CUstream a, c;
   struct cuvk_xsem *x = NULL;
   CUexternalSemaphore sem = NULL;

   bufs_create(&b);
   API_REQUIRE_CU(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&c, CU_STREAM_NON_BLOCKING));
   API_REQUIRE(cuvk_xsem_create(CUVK_XSEM_TIMELINE, 0, &x) == 0);
   CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC desc = {
      .type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD,
   };
   desc.handle.fd = cuvk_xsem_export_fd(x);
   API_REQUIRE(desc.handle.fd >= 0);
   API_REQUIRE_CU(cuImportExternalSemaphore(&sem, &desc));

   for (uint64_t round = 1; round <= 3; round++) {
      const uint32_t v = 0xe5e50000u + (uint32_t)round;
      CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp;
      CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp;
      memset(&sp, 0, sizeof(sp));
      memset(&wp, 0, sizeof(wp));
      sp.params.fence.value = round;
      wp.params.fence.value = round;

      produce(b.x, b.scratch, b.in, v, a);
      uint32_t *seen = b.out;
      API_CHECK_CU(cuMemcpyDtoHAsync(seen, b.x, BIG, a));
      API_CHECK_CU(cuSignalExternalSemaphoresAsync(&sem, &sp, 1, a));
      if (!omit_order())
         API_CHECK_CU(cuWaitExternalSemaphoresAsync(&sem, &wp, 1, c));
      API_CHECK_CU(cuMemcpyDtoDAsync(b.y, b.x, BIG, c));
      /* The host, as the semaphore's other user, sees A's copy once the
       * signal arrives.  Not under TSan: the test and cuvk map the xsem's
       * shared page at two addresses, so TSan cannot pair cuvk's release
       * with this acquire and reports every word as a race (the GPU-side
       * check below still runs). */
      API_CHECK(cuvk_xsem_wait(x, round, 20000000000ull));
      if (!STREAMS_TSAN)
         API_CHECK_WORDS(seen, BIG, v, "pinned memory when the signal arrived");
      API_CHECK_CU(cuStreamSynchronize(c));
      API_CHECK_CU(cuMemcpyDtoH(b.out, b.y, BIG));
      API_CHECK_WORDS(b.out, BIG, v, "consumer after the external semaphore wait");
      API_CHECK_CU(cuCtxSynchronize());
   }

   API_CHECK_CU(cuDestroyExternalSemaphore(sem));
   cuvk_xsem_destroy(x);
   API_CHECK_CU(cuStreamDestroy(a));
   API_CHECK_CU(cuStreamDestroy(c));
   bufs_destroy(&b);
}
#endif

/* ---- Randomised stress ----
 *
 * Streams (the legacy stream, blocking and non-blocking ones) run random
 * fills, device-to-device copies and copies to and from pinned memory on
 * a few device buffers.  Before each operation the generator orders it
 * after every earlier conflicting access on another stream (a write after
 * any access, a read after a write): by cuStreamWaitEvent on an event
 * recorded on that stream, or by nothing when the legacy stream's
 * implicit synchronisation already orders the two (legacy and blocking).
 * The program is then free of races under CUDA's rules, so its result is
 * the result of running the operations one by one in program order,
 * which the host computes alongside and compares at the end.  Extra
 * random event waits and synchronisations are mixed in. */

#define STRESS_BUFS 6
#define STRESS_WORDS (256 * 1024)        /* 1 MiB per buffer */
#define STRESS_STREAMS 6                 /* stream 0 is the legacy one */
#define STRESS_OPS 1500

struct stress {
   CUstream s[STRESS_STREAMS];
   bool blocking[STRESS_STREAMS];
   CUevent events[STRESS_STREAMS];
   CUdeviceptr dev[STRESS_BUFS];
   uint32_t *host[STRESS_BUFS];          /* pinned, written by DtoH */
   uint32_t *src[STRESS_BUFS];           /* pinned, read by HtoD */
   uint32_t *model_dev[STRESS_BUFS];
   uint32_t *model_host[STRESS_BUFS];
   /* Hazard tracking: index 0..STRESS_BUFS-1 device, then host. */
   int last_writer[2 * STRESS_BUFS];
   uint32_t readers[2 * STRESS_BUFS];    /* streams that read since the write */
   unsigned waits, implicit;
};

static bool
stress_implicitly_ordered(const struct stress *st, int a, int b)
{
   return a == b || (a == 0 && st->blocking[b]) || (b == 0 && st->blocking[a]);
}

/* Orders stream s after stream other's work so far. */
static void
stress_order(struct stress *st, int s, int other)
{
   if (stress_implicitly_ordered(st, s, other)) {
      if (s != other)
         st->implicit++;
      return;
   }
   API_CHECK_CU(cuEventRecord(st->events[other], st->s[other]));
   API_CHECK_CU(order_wait(st->s[s], st->events[other]));
   st->waits++;
}

static void
stress_read(struct stress *st, int s, int res)
{
   if (st->last_writer[res] >= 0)
      stress_order(st, s, st->last_writer[res]);
   st->readers[res] |= 1u << s;
}

static void
stress_write(struct stress *st, int s, int res)
{
   if (st->last_writer[res] >= 0)
      stress_order(st, s, st->last_writer[res]);
   for (int r = 0; r < STRESS_STREAMS; r++)
      if (st->readers[res] & (1u << r))
         stress_order(st, s, r);
   st->last_writer[res] = s;
   st->readers[res] = 0;
}

/* Whether a fill or copy on stream s goes through the synchronous call
 * (small, so that cuvk may do it on the host or its command ring): half
 * of the legacy stream's, by v's low bit, where that call is the legacy
 * stream's (not in a per-thread default stream build). */
static bool
stress_sync_call(int s, uint32_t v)
{
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
   (void)s;
   (void)v;
   return false;
#else
   return s == 0 && (v & 1);
#endif
}

static void
streams_stress(void)
{
   struct stress st;
   uint64_t seed = 0x5eed0001;
   const char *env = getenv("CUVK_STREAMS_SEED");
   const size_t bytes = STRESS_WORDS * 4;

   if (env)
      seed = strtoull(env, NULL, 0);
   printf("seed 0x%" PRIx64 " (CUVK_STREAMS_SEED replays it)\n", seed);
   memset(&st, 0, sizeof(st));
   uint64_t rng = seed;

   st.s[0] = CU_STREAM_LEGACY;
   st.blocking[0] = true;
   for (int i = 1; i < STRESS_STREAMS; i++) {
      st.blocking[i] = i % 2 == 1;
      API_REQUIRE_CU(cuStreamCreate(&st.s[i], st.blocking[i] ? blocking_flags() : CU_STREAM_NON_BLOCKING));
   }
   for (int i = 0; i < STRESS_STREAMS; i++)
      API_REQUIRE_CU(cuEventCreate(&st.events[i], CU_EVENT_DISABLE_TIMING));
   for (int i = 0; i < STRESS_BUFS; i++) {
      API_REQUIRE_CU(cuMemAlloc(&st.dev[i], bytes));
      API_REQUIRE_CU(cuMemAllocHost((void **)&st.host[i], bytes));
      API_REQUIRE_CU(cuMemAllocHost((void **)&st.src[i], bytes));
      st.model_dev[i] = api_xmalloc(bytes);
      st.model_host[i] = api_xmalloc(bytes);
      api_fill_random(st.src[i], bytes, seed + (uint64_t)i);
      api_fill_random(st.model_dev[i], bytes, seed * 3 + (uint64_t)i);
      memcpy(st.model_host[i], st.model_dev[i], bytes);
      memcpy(st.host[i], st.model_host[i], bytes);
      API_REQUIRE_CU(cuMemcpyHtoD(st.dev[i], st.model_dev[i], bytes));
   }
   for (int r = 0; r < 2 * STRESS_BUFS; r++)
      st.last_writer[r] = -1;

   for (int op = 0; op < STRESS_OPS; op++) {
      int s = (int)(api_rand(&rng) % STRESS_STREAMS);
      int d = (int)(api_rand(&rng) % STRESS_BUFS);
      int x = (int)(api_rand(&rng) % STRESS_BUFS);
      size_t w0 = api_rand(&rng) % STRESS_WORDS;
      size_t n = 1 + api_rand(&rng) % (STRESS_WORDS - w0);
      uint32_t v = (uint32_t)api_rand(&rng);

      switch (api_rand(&rng) % 8) {
      case 0:
      case 1: /* fill */
         stress_write(&st, s, d);
         if (stress_sync_call(s, v)) {
            n = 1 + n % 4096;
            API_CHECK_CU(cuMemsetD32(st.dev[d] + w0 * 4, v, n));
         } else {
            API_CHECK_CU(cuMemsetD32Async(st.dev[d] + w0 * 4, v, n, st.s[s]));
         }
         for (size_t i = 0; i < n; i++)
            st.model_dev[d][w0 + i] = v;
         break;
      case 2:
      case 3: /* device to device, never overlapping */
         if (x == d)
            x = (x + 1) % STRESS_BUFS;
         stress_read(&st, s, x);
         stress_write(&st, s, d);
         if (stress_sync_call(s, v)) {
            n = 1 + n % 4096;
            API_CHECK_CU(cuMemcpyDtoD(st.dev[d] + w0 * 4, st.dev[x] + w0 * 4, n * 4));
         } else {
            API_CHECK_CU(cuMemcpyDtoDAsync(st.dev[d] + w0 * 4, st.dev[x] + w0 * 4, n * 4, st.s[s]));
         }
         memcpy(st.model_dev[d] + w0, st.model_dev[x] + w0, n * 4);
         break;
      case 4: /* host to device: the pinned sources never change */
         stress_write(&st, s, d);
         API_CHECK_CU(cuMemcpyHtoDAsync(st.dev[d] + w0 * 4, st.src[x] + w0, n * 4, st.s[s]));
         memcpy(st.model_dev[d] + w0, st.src[x] + w0, n * 4);
         break;
      case 5: /* device to host */
         stress_read(&st, s, x);
         stress_write(&st, s, STRESS_BUFS + d);
         API_CHECK_CU(cuMemcpyDtoHAsync(st.host[d] + w0, st.dev[x] + w0 * 4, n * 4, st.s[s]));
         memcpy(st.model_host[d] + w0, st.model_dev[x] + w0, n * 4);
         break;
      case 6: { /* an extra wait nobody needs, or a query */
         int o = (int)(api_rand(&rng) % STRESS_STREAMS);
         API_CHECK_CU(cuEventRecord(st.events[o], st.s[o]));
         API_CHECK_CU(cuStreamWaitEvent(st.s[s], st.events[o], 0));
         CUresult q = cuStreamQuery(st.s[o]);
         API_CHECK_MSG(q == CUDA_SUCCESS || q == CUDA_ERROR_NOT_READY, "cuStreamQuery: %s",
                       api_result_name(q));
         break;
      }
      case 7: /* now and then, synchronise a stream and check a host copy */
         if (api_rand(&rng) % 8 == 0) {
            API_CHECK_CU(cuStreamSynchronize(st.s[s]));
            /* Host buffers this stream wrote last are final now. */
            for (int i = 0; i < STRESS_BUFS; i++)
               if (st.last_writer[STRESS_BUFS + i] == s)
                  API_CHECK_BYTES(st.host[i], st.model_host[i], bytes,
                                  "op %d: host buffer %d after stream %d synchronised", op, i, s);
         }
         break;
      }
      if (cuvk_test_failures() > 0)
         break;
   }
   API_CHECK_CU(cuCtxSynchronize());
   printf("%u event waits, %u orders left to the legacy stream\n", st.waits, st.implicit);
   for (int i = 0; i < STRESS_BUFS; i++) {
      API_CHECK_BYTES(st.host[i], st.model_host[i], bytes, "host buffer %d", i);
      API_CHECK_DEVICE(st.dev[i], st.model_dev[i], bytes, "device buffer %d", i);
   }

   for (int i = 0; i < STRESS_BUFS; i++) {
      API_CHECK_CU(cuMemFree(st.dev[i]));
      API_CHECK_CU(cuMemFreeHost(st.host[i]));
      API_CHECK_CU(cuMemFreeHost(st.src[i]));
      free(st.model_dev[i]);
      free(st.model_host[i]);
   }
   for (int i = 0; i < STRESS_STREAMS; i++) {
      API_CHECK_CU(cuEventDestroy(st.events[i]));
      if (i)
         API_CHECK_CU(cuStreamDestroy(st.s[i]));
   }
}

/* ---- The stream-ordered allocator ---- */

static void CUDA_CB
sleep_20ms(void *data)
{
   struct timespec ts = { 0, 20 * 1000 * 1000 };
   (void)data;
   nanosleep(&ts, NULL);
}

#define POOL_STREAMS 3
#define POOL_ROUNDS 6
#define POOL_BYTES (4 * API_MIB)

/* Allocations made and freed with cuMemAllocAsync/cuMemFreeAsync on
 * three streams, round after round, each used by a fill, a kernel and a
 * copy queued between its allocation and its free: every round's free is
 * queued long before its work runs, and later rounds' allocations (any
 * stream's) must not get that memory until the work is done. */
static void
mempool_order_run(CUmemoryPool pool)
{
   CUmodule mod;
   CUfunction bump;
   CUstream s[POOL_STREAMS];
   uint32_t *out;

   API_REQUIRE_CU(cuModuleLoadData(&mod, bump_ptx));
   API_REQUIRE_CU(cuModuleGetFunction(&bump, mod, "bump"));
   API_REQUIRE_CU(cuMemAllocHost((void **)&out, POOL_STREAMS * POOL_ROUNDS * 4));
   memset(out, 0, POOL_STREAMS * POOL_ROUNDS * 4);
   for (int i = 0; i < POOL_STREAMS; i++)
      API_REQUIRE_CU(cuStreamCreate(&s[i], i == 0 ? CU_STREAM_DEFAULT : CU_STREAM_NON_BLOCKING));
   /* The first stream starts late, so its whole queue is pending. */
   API_CHECK_CU(cuLaunchHostFunc(s[0], sleep_20ms, NULL));

   for (int r = 0; r < POOL_ROUNDS; r++) {
      for (int i = 0; i < POOL_STREAMS; i++) {
         CUdeviceptr src = 0, dst = 0;
         uint32_t v = 0x9000000u + (uint32_t)(r * 16 + i) * 0x100u;
         if (pool)
            API_REQUIRE_CU(cuMemAllocFromPoolAsync(&src, POOL_BYTES, pool, s[i]));
         else
            API_REQUIRE_CU(cuMemAllocAsync(&src, POOL_BYTES, s[i]));
         API_REQUIRE_CU(cuMemAllocAsync(&dst, 256, s[i]));
         API_CHECK_CU(cuMemsetD32Async(dst, 0, 64, s[i]));
         API_CHECK_CU(cuMemsetD32Async(src, v, POOL_BYTES / 4, s[i]));
         void *params[] = { &src, &dst };
         API_CHECK_CU(cuLaunchKernel(bump, 1, 1, 1, 1, 1, 1, 0, s[i], params, NULL));
         API_CHECK_CU(cuMemcpyDtoHAsync(&out[r * POOL_STREAMS + i], dst, 4, s[i]));
         API_CHECK_CU(cuMemFreeAsync(src, s[i]));
         API_CHECK_CU(cuMemFreeAsync(dst, s[i]));
      }
   }
   for (int i = 0; i < POOL_STREAMS; i++)
      API_CHECK_CU(cuStreamSynchronize(s[i]));
   for (int r = 0; r < POOL_ROUNDS; r++)
      for (int i = 0; i < POOL_STREAMS; i++) {
         uint32_t v = 0x9000000u + (uint32_t)(r * 16 + i) * 0x100u;
         API_CHECK_MSG(out[r * POOL_STREAMS + i] == v + 1, "round %d, stream %d: 0x%08x, want 0x%08x", r, i,
                       out[r * POOL_STREAMS + i], v + 1);
      }

   for (int i = 0; i < POOL_STREAMS; i++)
      API_CHECK_CU(cuStreamDestroy(s[i]));
   API_CHECK_CU(cuMemFreeHost(out));
   API_CHECK_CU(cuModuleUnload(mod));
}

static void
mempool_order(void)
{
   mempool_order_run(NULL);
}

/* The same through a pool of the program's own, both ways: src from it
 * by cuMemAllocFromPoolAsync, dst by cuMemAllocAsync with the pool made
 * the device's current one.  The pool is destroyed right after, while
 * the last frees may not yet be released (it then goes with them). */
static void
mempool_order_created_pool(void)
{
   CUmemPoolProps props;
   CUmemoryPool pool, def;
   cuuint64_t used = 1;

   memset(&props, 0, sizeof(props));
   props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
   props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
   API_REQUIRE_CU(cuDeviceGetDefaultMemPool(&def, 0));
   API_REQUIRE_CU(cuMemPoolCreate(&pool, &props));
   API_REQUIRE_CU(cuDeviceSetMemPool(0, pool));
   mempool_order_run(pool);
   API_CHECK_CU(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &used));
   API_CHECK_MSG(used == 0, "the pool counts %llu bytes after every free", (unsigned long long)used);
   API_CHECK_CU(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &used));
   API_CHECK_MSG(used >= POOL_BYTES + 256, "the pool's high mark is %llu", (unsigned long long)used);
   API_CHECK_CU(cuMemPoolDestroy(pool));
   API_CHECK_CU(cuDeviceSetMemPool(0, def));
}

/* cuMemFreeAsync while another stream's earlier work still reads the
 * memory: freed on the reading stream itself, on a third stream ordered
 * after the read through an event (both as CUDA defines), and on a
 * third stream with no order at all, which CUDA leaves undefined and
 * cuvk keeps safe (its free waits for every stream's earlier work).  New
 * async allocations are filled meanwhile; the reads must see the
 * producer's bytes. */
static void
mempool_free_while_in_use(void)
{
   struct bufs b;
   CUstream a, c, d;
   CUevent e, read_done;
   CUdeviceptr victim[3], fresh[4];
   uint32_t *outs[3];

   bufs_create(&b);
   API_REQUIRE_CU(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&c, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuStreamCreate(&d, CU_STREAM_NON_BLOCKING));
   API_REQUIRE_CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
   API_REQUIRE_CU(cuEventCreate(&read_done, CU_EVENT_DISABLE_TIMING));
   outs[0] = b.out;
   API_REQUIRE_CU(cuMemAllocHost((void **)&outs[1], BIG));
   API_REQUIRE_CU(cuMemAllocHost((void **)&outs[2], BIG));
   for (int k = 0; k < 3; k++) {
      memset(outs[k], 0, BIG);
      API_REQUIRE_CU(cuMemAllocAsync(&victim[k], BIG, a));
      produce(victim[k], b.scratch, b.in, 0xa110c000u + (uint32_t)k, a);
      /* produce's pinned source is rewritten next round: wait for it. */
      API_CHECK_CU(cuStreamSynchronize(a));
   }
   API_CHECK_CU(cuEventRecord(e, a));
   API_CHECK_CU(order_wait(c, e));
   /* The reads start late and take long. */
   API_CHECK_CU(cuLaunchHostFunc(c, sleep_20ms, NULL));
   for (int k = 0; k < 3; k++) {
      API_CHECK_CU(cuMemsetD32Async(b.y, 0, WORDS, c));
      API_CHECK_CU(cuMemcpyDtoDAsync(b.y, victim[k], BIG, c));
      API_CHECK_CU(cuMemcpyDtoHAsync(outs[k], b.y, BIG, c));
   }
   API_CHECK_CU(cuEventRecord(read_done, c));
   API_CHECK_CU(cuMemFreeAsync(victim[0], c));
   API_CHECK_CU(order_wait(d, read_done));
   API_CHECK_CU(cuMemFreeAsync(victim[1], d));
   API_CHECK_CU(cuMemFreeAsync(victim[2], a));
   for (int i = 0; i < 4; i++) {
      API_REQUIRE_CU(cuMemAllocAsync(&fresh[i], BIG, i % 2 ? d : a));
      API_CHECK_CU(cuMemsetD32Async(fresh[i], 0x0badf00du, WORDS, i % 2 ? d : a));
   }
   API_CHECK_CU(cuStreamSynchronize(c));
   for (int k = 0; k < 3; k++)
      API_CHECK_WORDS(outs[k], BIG, 0xa110c000u + (uint32_t)k, "a read of memory freed async while it was queued");
   API_CHECK_CU(cuCtxSynchronize());
   for (int i = 0; i < 4; i++)
      API_CHECK_CU(cuMemFreeAsync(fresh[i], c));
   API_CHECK_CU(cuCtxSynchronize());

   API_CHECK_CU(cuMemFreeHost(outs[1]));
   API_CHECK_CU(cuMemFreeHost(outs[2]));
   API_CHECK_CU(cuEventDestroy(e));
   API_CHECK_CU(cuEventDestroy(read_done));
   API_CHECK_CU(cuStreamDestroy(a));
   API_CHECK_CU(cuStreamDestroy(c));
   API_CHECK_CU(cuStreamDestroy(d));
   bufs_destroy(&b);
}

static const struct api_case cases[] = {
   API_CASE("streams.wait_event.producer_consumer", wait_event_producer_consumer),
   API_CASE("streams.wait_event.rerecord_after_wait", wait_event_rerecord_after_wait),
   API_CASE("streams.wait_event.unrecorded", wait_event_unrecorded),
   API_CASE("streams.legacy.implicit_sync", legacy_implicit_sync),
   API_CASE("streams.legacy.synchronize_covers_blocking", legacy_synchronize_covers_blocking),
   API_CASE("streams.non_blocking.event_orders", non_blocking_with_event),
   API_CASE("streams.per_thread.order", per_thread_stream),
   API_CASE("streams.per_thread.independent", per_thread_independent),
   API_CASE("streams.per_thread.short_threads", per_thread_short_threads),
   API_CASE("streams.sync.ctx_all_streams", ctx_synchronize_all_streams),
   API_CASE("streams.sync.stream_one", stream_synchronize_one),
   API_CASE("streams.event.timing_across_streams", event_timing_across_streams),
   API_CASE("streams.host_func.order", host_function_order),
   API_CASE("streams.free.while_in_use", free_while_in_use),
   API_CASE("streams.vmm.map_unmap_order", vmm_map_unmap_order),
   API_CASE("streams.priority.order", priorities_order),
   API_CASE("streams.host_op.order", host_op_order),
   API_CASE("streams.ring.order", ring_order),
   API_CASE_BARE("streams.fault.every_stream", fault_seen_by_every_stream),
#ifdef STREAMS_HAVE_XSEM
   API_CASE("streams.external_semaphore.order", external_semaphore_order),
#endif
   API_CASE("streams.mempool.order", mempool_order),
   API_CASE("streams.mempool.created_pool", mempool_order_created_pool),
   API_CASE("streams.mempool.free_while_in_use", mempool_free_while_in_use),
   API_CASE("streams.stress.random", streams_stress),
};

API_MAIN(cases)
