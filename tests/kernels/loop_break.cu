// Loops nvcc keeps as loops: a data-dependent break, a continue, an early
// return and a switch, plus a local array indexed at run time.
extern "C" __global__ void
first_match(const int *keys, int n, int wanted, int *found)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   if (t >= n)
      return;
   int hit = -1;
   for (int i = t; i < n; i += 7) {
      if (keys[i] < 0)
         continue;
      if (keys[i] == wanted) {
         hit = i;
         break;
      }
   }
   found[t] = hit;
}

extern "C" __global__ void
classify(const int *in, float *out, int n)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   if (t >= n)
      return;
   float table[16];
   for (int i = 0; i < 16; i++)
      table[i] = i * 0.5f + in[(t + i) % n];
   float r;
   switch (in[t] & 3) {
   case 0: r = table[in[t] & 15]; break;
   case 1: r = -table[(in[t] >> 4) & 15]; break;
   case 2: r = sqrtf(fabsf(table[3])) / (float)(t + 1); break;
   default: r = 1.0e-3f; break;
   }
   out[t] = r;
}
