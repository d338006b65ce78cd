#include "driver_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int
drv_test_main(int argc, char **argv, const struct drv_program *p)
{
   if (argc >= 2 && strcmp(argv[1], "--skip") == 0)
      cuvk_test_skip("%s", argc > 2 ? argv[2] : "");
   if (argc != 3) {
      fprintf(stderr, "usage: %s %s\n", argv[0], p->usage);
      return 2;
   }
   const struct drv_case *c = NULL;
   for (size_t i = 0; i < p->count && !c; i++)
      if (strcmp(p->cases[i].name, argv[1]) == 0)
         c = &p->cases[i];
   if (!c) {
      fprintf(stderr, "no case %s\n", argv[1]);
      return 2;
   }
   if (p->before && !p->before(c->name))
      return CUVK_TEST_FAIL;
   drv_test_setup(NULL);
   char *ptx = drv_test_read_file(argv[2], NULL);
   OK(cuModuleLoadData(p->module, ptx));
   free(ptx);
   c->run();
   if (*p->module)
      OK(cuModuleUnload(*p->module));
   /* A faulted context still releases. */
   drv_test_teardown();
   if (p->after)
      p->after();
   if (p->skipped && *p->skipped && !cuvk_test_failures()) {
      printf("%s: skipped: %s\n", argv[1], *p->skipped);
      return CUVK_TEST_SKIP;
   }
   return drv_test_exit(argv[1]);
}
