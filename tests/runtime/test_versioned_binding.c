/*
 * runtime.nvidia_binary.versioned_binding: a program linked at build
 * time against NVIDIA's real libcudart.so.13, run with cuvk's drop-in
 * first on LD_LIBRARY_PATH.  NVIDIA's runtime defines the symbol version
 * libcudart.so.13 and the link recorded it on every runtime symbol this
 * program uses, so the dynamic linker binds them only to a library that
 * defines that version (one with versions but not this one is refused;
 * one with none draws a warning): run_quiet.py fails on either message.
 * Here the program checks that its calls land in cuvk (the library that
 * defines cudaMalloc@libcudart.so.13 is libcuvk.so.0) and work: a
 * cudaMalloc/cudaMemcpy round trip, and an unsupported call answering
 * cudaErrorNotSupported.
 *
 * Built with NVIDIA's headers; nothing of cuvk's.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dlvsym, dladdr, RTLD_DEFAULT */
#endif
#include <cuda_runtime_api.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond)                                                            \
   do {                                                                        \
      if (!(cond)) {                                                           \
         fprintf(stderr, "FAIL: %s:%d: %s\n", __FILE__, __LINE__, #cond);      \
         failures++;                                                           \
      }                                                                        \
   } while (0)

int
main(void)
{
   enum { SIZE = 1 << 20 };
   Dl_info info;
   void *sym = dlvsym(RTLD_DEFAULT, "cudaMalloc", "libcudart.so.13");

   CHECK(sym != NULL);
   if (sym && dladdr(sym, &info) && info.dli_fname) {
      char *real = realpath(info.dli_fname, NULL);
      const char *base = real ? strrchr(real, '/') : NULL;
      printf("cudaMalloc@libcudart.so.13 is defined in %s (%s)\n", info.dli_fname,
             real ? real : "?");
      CHECK(base && strncmp(base + 1, "libcuvk.so", 10) == 0);
      free(real);
   } else {
      CHECK(!"dladdr(cudaMalloc)");
   }

   int count = 0;
   CHECK(cudaGetDeviceCount(&count) == cudaSuccess && count >= 1);

   unsigned char *in = malloc(SIZE), *out = calloc(1, SIZE);
   void *dev = NULL;
   CHECK(in && out);
   if (!in || !out)
      return 1;
   for (int i = 0; i < SIZE; i++)
      in[i] = (unsigned char)(i * 7 + (i >> 11));
   CHECK(cudaMalloc(&dev, SIZE) == cudaSuccess);
   CHECK(cudaMemcpy(dev, in, SIZE, cudaMemcpyHostToDevice) == cudaSuccess);
   CHECK(cudaMemcpy(out, dev, SIZE, cudaMemcpyDeviceToHost) == cudaSuccess);
   CHECK(memcmp(in, out, SIZE) == 0);
   CHECK(cudaFree(dev) == cudaSuccess);

   /* A call cuvk does not implement (OpenGL interop), through the same
    * versioned binding. */
   CHECK(cudaGraphicsUnregisterResource(NULL) == cudaErrorNotSupported);
   CHECK(cudaGetLastError() == cudaErrorNotSupported);

   free(in);
   free(out);
   printf("%s\n", failures ? "FAIL" : "pass");
   return failures ? 1 : 0;
}
