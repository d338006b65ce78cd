// The kernel of the launch-overhead benchmark: it does nothing.
extern "C" __global__ void
empty(void)
{
}
