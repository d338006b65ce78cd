// Control flow for the structurizer: loops that break out of two levels,
// return from inside nested loops, a switch that falls through inside a
// loop with barriers, a do-while with continue around a while, and a
// small state machine written with goto.  Every function must stay
// reducible (nvcc's output always has been, design notes).

// The first (row, column) of a matrix holding the value, or -1: a break
// out of both loops through goto, and an early return for bad input.
extern "C" __global__ void
find_2d(const int *m, int rows, int cols, int wanted, int *where)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   if (rows <= 0 || cols <= 0) {
      where[t] = -2;
      return;
   }
   int hit = -1;
   for (int r = t % rows; r < rows; r++) {
      for (int c = 0; c < cols; c++) {
         int v = m[r * cols + c];
         if (v < 0)
            return;      // a poisoned row ends the thread's search
         if (v == wanted) {
            hit = r * cols + c;
            goto done;
         }
      }
   }
done:
   where[t] = hit;
}

// Sums of runs, with a switch that falls through, continue and break in
// a loop whose trip count is the same for the whole block, so the
// barriers are reached by all threads.
extern "C" __global__ void
runs(const int *in, int *out, int steps)
{
   __shared__ int buf[256];
   int t = threadIdx.x;
   int acc = 0;
   for (int s = 0; s < steps; s++) {
      buf[t] = in[s * blockDim.x + t];
      __syncthreads();
      int v = buf[(t + s) % blockDim.x];
      switch (v & 7) {
      case 0:
         acc += 1;
         // fall through
      case 1:
         acc += v;
         break;
      case 2:
         acc -= v;
         // fall through
      case 3:
         acc ^= v;
         break;
      case 5:
         acc *= 3;
         break;
      default:
         acc += 7;
      }
      __syncthreads();
   }
   out[blockIdx.x * blockDim.x + t] = acc;
}

// A do-while with continue around a while loop, and a break from the
// inner loop's middle.
extern "C" __global__ void
collatz(const unsigned *in, unsigned *out, int n)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   if (t >= n)
      return;
   unsigned x = in[t], total = 0, round = 0;
   do {
      round++;
      if ((x & 1) == 0 && round < 3) {
         x >>= 1;
         continue;
      }
      unsigned steps = 0;
      while (x > 1) {
         x = (x & 1) ? 3 * x + 1 : x / 2;
         if (++steps > 1000)
            break;
      }
      total += steps;
      x = in[t] + round;
   } while (round < 4 && total < 5000);
   out[t] = total + x;
}

// A state machine with goto: states jump forwards and backwards.
extern "C" __global__ void
machine(const unsigned char *text, int len, int *counts)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   int i = t, words = 0, digits = 0;
space:
   if (i >= len)
      goto end;
   if (text[i] == ' ') {
      i++;
      goto space;
   }
   words++;
word:
   if (i >= len)
      goto end;
   if (text[i] >= '0' && text[i] <= '9') {
      digits++;
      i++;
      goto word;
   }
   if (text[i] == ' ')
      goto space;
   i++;
   goto word;
end:
   counts[2 * t] = words;
   counts[2 * t + 1] = digits;
}
