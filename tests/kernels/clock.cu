// clock64() and clock() read in a loop, for module.kernel.clock64
// (tests/module/test_module.c): each thread counts the reads that went
// back, and writes how far its clock moved over the loop.  cuvk reads
// VK_KHR_shader_clock's subgroup clock where the device has it.
extern "C" __global__ void
clock_loop(unsigned long long *elapsed, unsigned *backwards, float *sink, int iters)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   long long first = clock64(), prev = first;
   unsigned back = 0;
   float acc = (float)i;
   for (int k = 0; k < iters; k++) {
      acc = acc * 1.0001f + 0.5f;
      long long now = clock64();
      back += now < prev;
      prev = now;
   }
   // clock() is the low half of the same counter: read, so it translates.
   unsigned lo = (unsigned)clock();
   elapsed[i] = (unsigned long long)(prev - first);
   backwards[i] = back;
   sink[i] = acc + (float)(lo & 1);
}
