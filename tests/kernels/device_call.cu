// A non-inlined device function with arguments and a return value passed
// through .param slots, reading a local array of its caller through a
// generic pointer.
__device__ __noinline__ int
poly(int x, const int *coef, int n)
{
   int acc = 0;
   for (int i = n - 1; i >= 0; i--)
      acc = acc * x + coef[i];
   return acc;
}

extern "C" __global__ void
eval_poly(const int *xs, int *out, int n)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   int coef[4] = {3, -1, 2, t & 7};
   if (t < n)
      out[t] = poly(xs[t], coef, 4);
}
