// Long loops, for lavapipe's loop limit (docs/compiler.md, "Lavapipe's
// loop limit"): llvmpipe ends every loop of an invocation vector once all
// its loops together ran 65535 iterations, and cuvk fails such a launch
// instead of returning what the cut loops left.  The bounds differ between
// neighbouring threads so that the loop is no uniform one.

// m = n + (tid & 1) iterations of one loop.
extern "C" __global__ void
loop_count(unsigned *out, unsigned n)
{
   unsigned s = 0;
   unsigned m = n + (threadIdx.x & 1);
   for (unsigned i = 0; i < m; i++) {
      s += i & 7;
      if (s == 0xffffffffu)
         break;
   }
   out[threadIdx.x] = s;
}

// Two loops one after the other, m iterations each: the limit counts them
// together.
extern "C" __global__ void
loop_two(unsigned *out, unsigned n)
{
   unsigned s = 0;
   unsigned m = n + (threadIdx.x & 1);
   for (unsigned i = 0; i < m; i++) {
      s += i & 7;
      if (s == 0xffffffffu)
         break;
   }
   for (unsigned i = 0; i < m; i++) {
      s += i & 3;
      if (s == 0xfffffffeu)
         break;
   }
   out[threadIdx.x] = s;
}

// The same loop with a bound every thread shares.
extern "C" __global__ void
loop_uniform(unsigned *out, unsigned n)
{
   unsigned s = 0;
   for (unsigned i = 0; i < n; i++) {
      s += i & 7;
      if (s == 0xffffffffu)
         break;
   }
   out[threadIdx.x] = s;
}
