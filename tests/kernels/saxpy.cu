// y = a * x + y over a grid-stride loop, so one launch covers any n.
extern "C" __global__ void
saxpy(unsigned long long n, float a, const float *x, float *y)
{
   for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
        i += (unsigned long long)blockDim.x * gridDim.x)
      y[i] = a * x[i] + y[i];
}
