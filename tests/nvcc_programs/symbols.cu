// nvcc_programs.symbols: __constant__ and __device__ variables, with
// their initial values, written and read with cudaMemcpyToSymbol /
// FromSymbol (plain and Async, with offsets), their addresses and sizes,
// kernels reading and writing them, and the errors real CUDA gives for a
// bad symbol, a range past the variable and a wrong direction.
#include "check.h"

__constant__ float coeffs[8];
__constant__ int bias = 7;
__device__ int counters[4] = {1, 2, 3, 4};
__device__ unsigned long long total;

__global__ void apply(const float *in, float *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n) {
      out[i] = in[i] * coeffs[i % 8] + bias;
      atomicAdd(&total, 1ull);
   }
   if (i < 4)
      counters[i] += 10 * (i + 1);
}

int
main()
{
   check_bound_to_cuvk();
   const int n = 1000;
   float host_in[n], host_out[n];
   for (int i = 0; i < n; i++)
      host_in[i] = (float)(i % 97) - 40.0f;

   // Initial values, before anything was written.
   int got_bias = 0, got_counters[4] = {0};
   CHECK_CUDA(cudaMemcpyFromSymbol(&got_bias, bias, sizeof(int)));
   CHECK(got_bias == 7);
   CHECK_CUDA(cudaMemcpyFromSymbol(got_counters, counters, sizeof(got_counters)));
   for (int i = 0; i < 4; i++)
      CHECK(got_counters[i] == i + 1);

   // Writes, whole and at an offset.
   float c[8] = {1, 2, 3, 4, 5, 6, 7, 8};
   CHECK_CUDA(cudaMemcpyToSymbol(coeffs, c, sizeof(c)));
   float tail[2] = {-1.5f, 0.25f};
   CHECK_CUDA(cudaMemcpyToSymbol(coeffs, tail, sizeof(tail), 6 * sizeof(float)));
   c[6] = tail[0];
   c[7] = tail[1];
   int new_bias = -3;
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
   CHECK_CUDA(cudaMemcpyToSymbolAsync(bias, &new_bias, sizeof(int), 0, cudaMemcpyHostToDevice, s));
   unsigned long long zero = 0;
   CHECK_CUDA(cudaMemcpyToSymbol(total, &zero, sizeof(zero)));

   size_t size = 0;
   CHECK_CUDA(cudaGetSymbolSize(&size, coeffs));
   CHECK(size == sizeof(c));
   CHECK_CUDA(cudaGetSymbolSize(&size, total));
   CHECK(size == sizeof(unsigned long long));
   void *addr = nullptr;
   CHECK_CUDA(cudaGetSymbolAddress(&addr, counters));
   CHECK(addr != nullptr);

   float *din, *dout;
   CHECK_CUDA(cudaMalloc(&din, sizeof(host_in)));
   CHECK_CUDA(cudaMalloc(&dout, sizeof(host_out)));
   CHECK_CUDA(cudaMemcpy(din, host_in, sizeof(host_in), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaStreamSynchronize(s));
   apply<<<(n + 127) / 128, 128>>>(din, dout, n);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(host_out, dout, sizeof(host_out), cudaMemcpyDeviceToHost));
   for (int i = 0; i < n; i++) {
      float want = host_in[i] * c[i % 8] + new_bias;
      if (host_out[i] != want) {
         std::fprintf(stderr, "FAIL: out[%d] = %g, want %g\n", i, host_out[i], want);
         check_failures++;
         break;
      }
   }

   // The kernel's writes, through the symbol and through its address.
   unsigned long long got_total = 0;
   CHECK_CUDA(cudaMemcpyFromSymbolAsync(&got_total, total, sizeof(got_total), 0, cudaMemcpyDeviceToHost, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK(got_total == (unsigned long long)n);
   int via_addr[4] = {0};
   CHECK_CUDA(cudaMemcpy(via_addr, addr, sizeof(via_addr), cudaMemcpyDeviceToHost));
   int second;
   CHECK_CUDA(cudaMemcpyFromSymbol(&second, counters, sizeof(int), sizeof(int)));
   for (int i = 0; i < 4; i++)
      CHECK(via_addr[i] == i + 1 + 10 * (i + 1));
   CHECK(second == 2 + 20);

   // Device to device, both ways.
   int *dtmp;
   CHECK_CUDA(cudaMalloc(&dtmp, sizeof(int) * 4));
   CHECK_CUDA(cudaMemcpyFromSymbol(dtmp, counters, sizeof(int) * 4, 0, cudaMemcpyDeviceToDevice));
   CHECK_CUDA(cudaMemcpyToSymbol(counters, dtmp, sizeof(int) * 2, 2 * sizeof(int), cudaMemcpyDeviceToDevice));
   CHECK_CUDA(cudaMemcpyFromSymbol(via_addr, counters, sizeof(via_addr)));
   CHECK(via_addr[0] == 11 && via_addr[1] == 22 && via_addr[2] == 11 && via_addr[3] == 22);

   // Errors.
   int not_a_symbol = 0;
   EXPECT_ERR(cudaMemcpyToSymbol(not_a_symbol, &new_bias, sizeof(int)), cudaErrorInvalidSymbol);
   EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidSymbol);
   EXPECT_ERR(cudaGetSymbolAddress(&addr, not_a_symbol), cudaErrorInvalidSymbol);
   EXPECT_ERR(cudaMemcpyToSymbol(coeffs, c, sizeof(c), sizeof(float)), cudaErrorInvalidValue);
   EXPECT_ERR(cudaMemcpyFromSymbol(c, coeffs, sizeof(c) + 4), cudaErrorInvalidValue);
   EXPECT_ERR(cudaMemcpyToSymbol(bias, &new_bias, sizeof(int), 0, cudaMemcpyDeviceToHost),
              cudaErrorInvalidMemcpyDirection);
   EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidMemcpyDirection);
   CHECK_CUDA(cudaGetLastError());

   CHECK_CUDA(cudaStreamDestroy(s));
   CHECK_CUDA(cudaFree(dtmp));
   CHECK_CUDA(cudaFree(din));
   CHECK_CUDA(cudaFree(dout));
   return check_finish("symbols");
}
