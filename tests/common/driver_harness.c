#include "driver_harness.h"

#include <stdio.h>
#include <stdlib.h>

CUcontext
drv_test_setup(CUdevice *dev_out)
{
   CUdevice dev = 0;
   CUcontext ctx = NULL;
   OK(cuInit(0));
   OK(cuDeviceGet(&dev, 0));
   OK(cuDevicePrimaryCtxRetain(&ctx, dev));
   OK(cuCtxSetCurrent(ctx));
   if (dev_out)
      *dev_out = dev;
   return ctx;
}

void
drv_test_teardown(void)
{
   CUdevice dev;
   OK(cuDeviceGet(&dev, 0));
   OK(cuDevicePrimaryCtxRelease(dev));
}

char *
drv_test_read_file(const char *path, size_t *size)
{
   FILE *f = fopen(path, "rb");
   if (!f) {
      perror(path);
      exit(CUVK_TEST_FAIL);
   }
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *data = n >= 0 ? malloc((size_t)n + 1) : NULL;
   if (!data || fread(data, 1, (size_t)n, f) != (size_t)n) {
      fprintf(stderr, "%s: cannot read\n", path);
      exit(CUVK_TEST_FAIL);
   }
   data[n] = 0;
   fclose(f);
   if (size)
      *size = (size_t)n;
   return data;
}

int
drv_test_exit(const char *case_name)
{
   unsigned n = cuvk_test_failures();
   if (n)
      printf("%s: FAILED (%u failures)\n", case_name, n);
   else
      printf("%s: ok\n", case_name);
   return n ? CUVK_TEST_FAIL : CUVK_TEST_PASS;
}
