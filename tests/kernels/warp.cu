// Warp-level primitives: shuffles of every mode, ballot, all, any and
// activemask.  A plain kernel shares the module, so a device without
// 32-wide subgroups refuses only the warp kernel and still loads the
// other.
extern "C" __global__ void
warp_sum(const int *in, int *out, unsigned *ballots)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   int v = in[t];
   for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
   unsigned b = __ballot_sync(0xffffffffu, in[t] > 0);
   int x = __shfl_sync(0xffffffffu, in[t], 3);
   int y = __shfl_xor_sync(0xffffffffu, in[t], 1);
   int z = __shfl_up_sync(0xffffffffu, in[t], 2);
   if (__all_sync(0xffffffffu, x > -1000) || __any_sync(__activemask(), y < 0))
      z += 1000;
   out[t] = z;
   if ((threadIdx.x & 31) == 0) {
      out[gridDim.x * blockDim.x + t / 32] = v;
      ballots[t / 32] = b;
   }
}

extern "C" __global__ void
plain_copy(const int *in, int *out)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   out[t] = in[t];
}
