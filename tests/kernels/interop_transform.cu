// The kernel between Vulkan and Vulkan (tests/interop, the
// external_semaphore.*.vulkan_kernel_vulkan cases): reads the buffer a
// Vulkan application wrote, writes the one it then reads.
extern "C" __global__ void interop_transform(const unsigned *in, unsigned *out, unsigned n)
{
   unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = (in[i] * 2654435761u) ^ (i + 0x9e3779b9u);
}
