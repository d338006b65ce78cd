// nvcc_programs.managed_arrays: the usual first unified-memory program.
// Arrays from cudaMallocManaged are filled on the host, a kernel adds
// them, and after cudaDeviceSynchronize the host reads the result in
// place, with no copies; then a prefetch, advice, a kernel on a stream
// of its own reading what the host wrote after the first one, and what
// cudaPointerGetAttributes and the device properties say.
#include "check.h"

__global__ void add(const float *a, const float *b, float *c, int n)
{
   for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
      c[i] = a[i] + b[i];
}

__global__ void scale(float *c, float k, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      c[i] *= k;
}

int
main()
{
   check_bound_to_cuvk();
   cudaDeviceProp prop;
   CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
   CHECK(prop.managedMemory == 1);
   CHECK(prop.concurrentManagedAccess == 0);

   const int n = 1 << 18;
   float *a, *b, *c;
   CHECK_CUDA(cudaMallocManaged(&a, n * sizeof(float)));
   CHECK_CUDA(cudaMallocManaged(&b, n * sizeof(float)));
   CHECK_CUDA(cudaMallocManaged(&c, n * sizeof(float), cudaMemAttachHost));
   for (int i = 0; i < n; i++) {
      a[i] = (float)i;
      b[i] = 2.0f * (float)(n - i);
   }

   add<<<64, 256>>>(a, b, c, n);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   for (int i = 0; i < n; i++) {
      if (c[i] != a[i] + b[i]) {
         std::fprintf(stderr, "FAIL: c[%d] = %g, want %g\n", i, c[i], a[i] + b[i]);
         check_failures++;
         break;
      }
   }

   // The host writes again; a kernel on another stream sees it.
   for (int i = 0; i < n; i++)
      c[i] = (float)(i % 1000);
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
   cudaMemLocation dev = {};
   dev.type = cudaMemLocationTypeDevice;
   dev.id = 0;
   CHECK_CUDA(cudaMemAdvise(c, n * sizeof(float), cudaMemAdviseSetPreferredLocation, dev));
   CHECK_CUDA(cudaMemPrefetchAsync(c, n * sizeof(float), dev, 0, s));
   scale<<<(n + 255) / 256, 256, 0, s>>>(c, 3.0f, n);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaStreamSynchronize(s));
   for (int i = 0; i < n; i++) {
      if (c[i] != 3.0f * (float)(i % 1000)) {
         std::fprintf(stderr, "FAIL: after scale c[%d] = %g\n", i, c[i]);
         check_failures++;
         break;
      }
   }

   // A copy into managed memory and out of it, at the same pointers.
   float host[4] = {1.5f, 2.5f, 3.5f, 4.5f}, back[4] = {};
   CHECK_CUDA(cudaMemcpy(a + 10, host, sizeof(host), cudaMemcpyHostToDevice));
   CHECK(a[10] == 1.5f && a[13] == 4.5f);
   CHECK_CUDA(cudaMemcpy(back, a + 10, sizeof(back), cudaMemcpyDefault));
   CHECK(back[0] == 1.5f && back[3] == 4.5f);

   cudaPointerAttributes attr;
   CHECK_CUDA(cudaPointerGetAttributes(&attr, b + 5));
   CHECK(attr.type == cudaMemoryTypeManaged);
   CHECK(attr.hostPointer == (void *)(b + 5) && attr.devicePointer == (void *)(b + 5));

   EXPECT_ERR(cudaMallocManaged(&a, 0), cudaErrorInvalidValue);
   EXPECT_ERR(cudaMallocManaged(&a, 16, 0), cudaErrorInvalidValue);
   // Not sticky: the last error is read once and cleared.
   EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   CHECK_CUDA(cudaGetLastError());

   CHECK_CUDA(cudaStreamDestroy(s));
   CHECK_CUDA(cudaFree(c));
   CHECK_CUDA(cudaFree(b));
   CHECK_CUDA(cudaFree(a));
   return check_finish("managed_arrays");
}
