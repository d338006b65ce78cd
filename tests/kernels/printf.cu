// Device printf (vprintf): every conversion, many threads and blocks, the
// return value, a buffer that overflows, and a kernel that prints and
// then faults.  tests/printf checks what they print.
#include <cstdio>

extern "C" __global__ void print_ids(int tag)
{
   printf("block %d thread %d tag %d\n", (int)blockIdx.x, (int)threadIdx.x, tag);
}

extern "C" __global__ void print_all(int i, unsigned u, long long ll, unsigned long long ull, double d,
                                     float f, char c, short h, const char *dev_str)
{
   printf("ints %d %i %u %x %X %o|%5d|%-5d|%05d|%+d|% d\n", i, i, u, u, u, u, i, i, i, i, i);
   printf("wide %lld %llu %llx %ld %lu|%hd %hhd %hu\n", ll, ull, ull, (long)ll, (unsigned long)ull, h,
          (signed char)i, (unsigned short)h);
   printf("floats %f %e %g %a %.3f %10.2e %G %E %F\n", d, d, d, d, d, d, (double)f, d, d);
   printf("strings %s|%10s|%-6s|%.2s|%c|%s|%c%c\n", "lit", "right", "left", "trunc", c, dev_str, 'o', 'k');
   printf("misc %p %%|%*d|%.*f|%-*.*s|\n", (void *)dev_str, 6, i, 2, d, 7, 3, "stars");
   printf("no arguments\n");
}

// Each thread stores what its printf calls returned.
extern "C" __global__ void print_count(int *out)
{
   int a = printf("count %d %f %s\n", (int)threadIdx.x, 2.5, "x");
   int b = printf("count none\n");
   out[threadIdx.x * 2] = a;
   out[threadIdx.x * 2 + 1] = b;
}

// n lines per thread, in a loop (the printf is inside a loop header).
extern "C" __global__ void print_flood(int n)
{
   int id = (int)(blockIdx.x * blockDim.x + threadIdx.x);
   for (int k = 0; k < n; k++)
      printf("flood %d %d\n", id, k);
}

extern "C" __global__ void print_fault(int *wild)
{
   printf("before %d\n", (int)threadIdx.x);
   if (threadIdx.x == 0)
      *wild = 1;
}
