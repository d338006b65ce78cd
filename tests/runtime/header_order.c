/*
 * cuda.h before cuda_runtime_api.h, the other order from
 * test_runtime_driver.c: either header may define the UUID type the two
 * share, and the other must take it as it is.
 */
#include <cuda.h>
#include <cuda_runtime_api.h>

int rt_header_order_check(void);

int
rt_header_order_check(void)
{
   cudaUUID_t uuid = { { 0 } };
   CUuuid *same = &uuid;
   cudaStream_t stream = (CUstream)0;

   return sizeof(*same) == 16 && stream == NULL;
}
