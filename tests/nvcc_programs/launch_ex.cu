// nvcc_programs.launch_ex: cudaLaunchKernelEx, the C++ template that
// nvcc's programs call (cuda_runtime.h turns it into cudaLaunchKernelExC),
// with a 1x1x1 cluster attribute, a priority hint and a kernel using
// dynamic shared memory raised through cudaFuncSetAttribute; then
// cudaLaunchKernelExC itself, bad
// configurations, and cudaFuncGetParamInfo's parameter layout.
#include "check.h"

#define PER_THREAD 16

// Each thread fills PER_THREAD floats of dynamic shared memory; after
// the barrier it sums the ones its mirror thread in the block wrote.
__global__ void mirror_sum(const float *in, float *out, int n, float scale)
{
   extern __shared__ float s[];
   int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
   float v = i < n ? in[i] : 0.0f;
   for (int j = 0; j < PER_THREAD; j++)
      s[t * PER_THREAD + j] = v * (float)j;
   __syncthreads();
   int m = blockDim.x - 1 - t;
   float sum = 0.0f;
   for (int j = 0; j < PER_THREAD; j++)
      sum += s[m * PER_THREAD + j];
   if (i < n)
      out[i] = scale * sum;
}

static int
check_out(const float *in, const float *out, int n, int block, float scale, int line)
{
   int bad = 0;
   for (int i = 0; i < n; i++) {
      int b = i / block, t = i % block, m = b * block + (block - 1 - t);
      float v = m < n ? in[m] : 0.0f;
      float want = scale * v * (float)(PER_THREAD * (PER_THREAD - 1) / 2);
      if (out[i] != want) {
         if (bad++ < 5)
            std::fprintf(stderr, "FAIL line %d: out[%d] = %g, want %g\n", line, i, out[i], want);
      }
   }
   if (bad)
      check_failures++;
   return bad;
}

int
main()
{
   check_bound_to_cuvk();
   const int n = 5000, block = 256;
   const size_t shared = (size_t)block * PER_THREAD * sizeof(float);   // 16 KiB
   float *h_in = (float *)std::malloc(n * sizeof(float));
   float *h_out = (float *)std::malloc(n * sizeof(float));
   for (int i = 0; i < n; i++)
      h_in[i] = (float)(i % 97) - 40.0f;
   float *d_in, *d_out;
   CHECK_CUDA(cudaMalloc(&d_in, n * sizeof(float)));
   CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(float)));
   CHECK_CUDA(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaFuncSetAttribute(mirror_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));

   cudaStream_t stream;
   CHECK_CUDA(cudaStreamCreate(&stream));
   cudaLaunchAttribute attrs[2];
   attrs[0].id = cudaLaunchAttributeClusterDimension;
   attrs[0].val.clusterDim.x = 1;
   attrs[0].val.clusterDim.y = 1;
   attrs[0].val.clusterDim.z = 1;
   attrs[1].id = cudaLaunchAttributePriority;
   attrs[1].val.priority = 0;
   cudaLaunchConfig_t config = {};
   config.gridDim = dim3((n + block - 1) / block);
   config.blockDim = dim3(block);
   config.dynamicSmemBytes = shared;
   config.stream = stream;
   config.attrs = attrs;
   config.numAttrs = 2;

   // The C++ template: arguments by value, converted to the kernel's types.
   CHECK_CUDA(cudaLaunchKernelEx(&config, mirror_sum, (const float *)d_in, d_out, n, 2.0f));
   CHECK_CUDA(cudaStreamSynchronize(stream));
   CHECK_CUDA(cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
   check_out(h_in, h_out, n, block, 2.0f, __LINE__);

   // cudaLaunchKernelExC with an argument array, a cluster attribute
   // only, and an event recorded after it.  (A launch completion event
   // attribute is not used: CUDA 13 on an H100, driver 580.159.04,
   // answered cudaErrorNotSupported for it on both kinds of stream.)
   cudaEvent_t done;
   CHECK_CUDA(cudaEventCreate(&done));
   cudaLaunchConfig_t config2 = config;
   config2.numAttrs = 1;
   const float *in_arg = d_in;
   int n_arg = n;
   float scale = -0.5f;
   void *args[] = {&in_arg, &d_out, &n_arg, &scale};
   CHECK_CUDA(cudaLaunchKernelExC(&config2, (const void *)mirror_sum, args));
   CHECK_CUDA(cudaEventRecord(done, stream));
   CHECK_CUDA(cudaEventSynchronize(done));
   CHECK_CUDA(cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
   check_out(h_in, h_out, n, block, -0.5f, __LINE__);

   // Without attributes, a block shape the device refuses, as for
   // cudaLaunchKernel; the error is not sticky.
   cudaLaunchConfig_t bad = config;
   bad.attrs = nullptr;
   bad.numAttrs = 0;
   bad.blockDim = dim3(4096);
   EXPECT_ERR(cudaLaunchKernelExC(&bad, (const void *)mirror_sum, args), cudaErrorInvalidValue);
   EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   bad.blockDim = dim3(block);
   bad.gridDim = dim3(0);
   EXPECT_ERR(cudaLaunchKernelExC(&bad, (const void *)mirror_sum, args), cudaErrorInvalidValue);
   EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   bad.gridDim = config.gridDim;
   scale = 3.0f;
   CHECK_CUDA(cudaLaunchKernelExC(&bad, (const void *)mirror_sum, args));
   CHECK_CUDA(cudaStreamSynchronize(stream));
   CHECK_CUDA(cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
   check_out(h_in, h_out, n, block, 3.0f, __LINE__);

   // mirror_sum(const float *, float *, int, float): each parameter at
   // its natural alignment; an index past the last is refused.
   static const size_t want_offset[4] = {0, 8, 16, 20}, want_size[4] = {8, 8, 4, 4};
   for (size_t i = 0; i < 4; i++) {
      size_t off = 99, size = 99;
      CHECK_CUDA(cudaFuncGetParamInfo((const void *)mirror_sum, i, &off, &size));
      CHECK(off == want_offset[i] && size == want_size[i]);
   }
   size_t off, size;
   EXPECT_ERR(cudaFuncGetParamInfo((const void *)mirror_sum, 4, &off, &size), cudaErrorInvalidValue);
   (void)cudaGetLastError();   // whatever the query left, cleared before check_finish

   CHECK_CUDA(cudaEventDestroy(done));
   CHECK_CUDA(cudaStreamDestroy(stream));
   CHECK_CUDA(cudaFree(d_in));
   CHECK_CUDA(cudaFree(d_out));
   std::free(h_in);
   std::free(h_out);
   return check_finish("launch_ex");
}
