/* util/device_policy.c's lane plan (cuvk_policy_lanes) for the devices
 * lavapipe cannot be: a GPU with many compute queues and a copy-engine
 * family, one with a few queues, and the test settings (CUVK_LANES,
 * CUVK_TRANSFER_LANES) on a device of one queue.  What each plan must
 * hold: every lane on a queue of the plan, queues numbered densely within
 * their family, the high lane and the transfer lanes where they should
 * be, and two queue families (so concurrent sharing of the heaps) exactly
 * when transfer lanes sit on the copy-engine family. */
#include <string.h>

#include "unit_test.h"
#include "util/device_policy.h"

/* What holds for any plan. */
static void
check_plan_shape(const struct cuvk_lane_plan *p)
{
   UNIT_CHECK(p->lane_count >= 1 && p->lane_count <= CUVK_MAX_LANES);
   UNIT_CHECK(p->queue_count >= 1 && p->queue_count <= p->lane_count);
   for (uint32_t i = 0; i < p->lane_count; i++)
      UNIT_CHECK(p->lane_queue[i] < p->queue_count);
   /* Queue indices within each family are 0, 1, 2, ... in order. */
   for (uint32_t q = 0; q < p->queue_count; q++) {
      uint32_t before = 0;
      for (uint32_t r = 0; r < q; r++)
         before += p->queue_family[r] == p->queue_family[q];
      UNIT_CHECK(p->queue_index[q] == before);
   }
   /* Lanes share a queue exactly when the plan says so. */
   bool shared = false;
   for (uint32_t i = 0; i < p->lane_count; i++)
      for (uint32_t j = i + 1; j < p->lane_count; j++)
         shared |= p->lane_queue[i] == p->lane_queue[j];
   UNIT_CHECK(shared == p->virtual_lanes);
   /* Lane 0 (the legacy stream's, the sparse-binding one) is a compute
    * lane on the compute family's first queue. */
   UNIT_CHECK(p->lane_queue[0] == 0 && p->queue_index[0] == 0);
   UNIT_CHECK(p->high_lane != 0 && p->transfer_lane != 0);
   if (p->transfer_lane != UINT32_MAX)
      UNIT_CHECK(p->transfer_lane + p->transfer_lane_count == p->lane_count);
   UNIT_CHECK(p->transfer_why != NULL);
}

int
main(void)
{
   struct cuvk_lane_plan p;
   uint32_t families[2];

   unsetenv("CUVK_LANES");
   unsetenv("CUVK_TRANSFER_LANES");

   /* A GPU: 16 compute queues in family 2, 2 copy-engine queues in 1. */
   cuvk_policy_lanes(2, 16, 1, 2, &p);
   check_plan_shape(&p);
   UNIT_CHECK(p.lane_count == CUVK_DEFAULT_LANES + 1 + 2);
   UNIT_CHECK(!p.virtual_lanes);
   UNIT_CHECK(p.high_lane == CUVK_DEFAULT_LANES);
   UNIT_CHECK(p.queue_priority[p.lane_queue[p.high_lane]] > p.queue_priority[0]);
   UNIT_CHECK(p.transfer_lane == CUVK_DEFAULT_LANES + 1 && p.transfer_lane_count == 2);
   for (uint32_t t = 0; t < p.transfer_lane_count; t++)
      UNIT_CHECK(p.queue_family[p.lane_queue[p.transfer_lane + t]] == 1);
   for (uint32_t i = 0; i < p.transfer_lane; i++)
      UNIT_CHECK(p.queue_family[p.lane_queue[i]] == 2);
   UNIT_CHECK(cuvk_policy_lane_families(&p, families) == 2);
   UNIT_CHECK(families[0] == 2 && families[1] == 1);

   /* The same with transfer lanes off: one family, so exclusive sharing. */
   setenv("CUVK_TRANSFER_LANES", "0", 1);
   cuvk_policy_lanes(2, 16, 1, 2, &p);
   check_plan_shape(&p);
   UNIT_CHECK(p.transfer_lane == UINT32_MAX && p.transfer_lane_count == 0);
   UNIT_CHECK(cuvk_policy_lane_families(&p, families) == 1);
   unsetenv("CUVK_TRANSFER_LANES");

   /* One copy-engine queue: one transfer lane. */
   cuvk_policy_lanes(0, 8, 1, 1, &p);
   check_plan_shape(&p);
   UNIT_CHECK(p.transfer_lane_count == 1);

   /* Four compute queues, no copy engine: four lanes, none spare for a
    * high lane, no transfer lanes. */
   cuvk_policy_lanes(0, 4, UINT32_MAX, 0, &p);
   check_plan_shape(&p);
   UNIT_CHECK(p.lane_count == 4 && p.queue_count == 4 && !p.virtual_lanes);
   UNIT_CHECK(p.high_lane == UINT32_MAX && p.transfer_lane == UINT32_MAX);

   /* lavapipe: one queue, one lane, as before lanes. */
   cuvk_policy_lanes(0, 1, UINT32_MAX, 0, &p);
   check_plan_shape(&p);
   UNIT_CHECK(p.lane_count == 1 && p.queue_count == 1 && !p.virtual_lanes);
   UNIT_CHECK(p.high_lane == UINT32_MAX && p.transfer_lane == UINT32_MAX);

   /* The test settings on one queue: every lane shares it. */
   setenv("CUVK_LANES", "4", 1);
   setenv("CUVK_TRANSFER_LANES", "compute", 1);
   cuvk_policy_lanes(0, 1, UINT32_MAX, 0, &p);
   check_plan_shape(&p);
   UNIT_CHECK(p.lane_count == 4 + 1 + 2 && p.queue_count == 1 && p.virtual_lanes);
   UNIT_CHECK(p.high_lane == 4 && p.transfer_lane == 5);
   UNIT_CHECK(cuvk_policy_lane_families(&p, families) == 1);

   /* CUVK_LANES=8 with everything: the most lanes there can be. */
   setenv("CUVK_LANES", "8", 1);
   setenv("CUVK_TRANSFER_LANES", "1", 1);
   cuvk_policy_lanes(2, 16, 1, 2, &p);
   check_plan_shape(&p);
   UNIT_CHECK(p.lane_count == 8 + 1 + 2 && !p.virtual_lanes);

   /* A bad value keeps the default. */
   setenv("CUVK_LANES", "99", 1);
   cuvk_policy_lanes(2, 16, 1, 2, &p);
   check_plan_shape(&p);
   UNIT_CHECK(p.lane_count == CUVK_DEFAULT_LANES + 1 + 2);

   return unit_report("unit.util.lane_plan");
}
