/* Benchmark: binary floating point as GCC emits it: a damped oscillator in double
   (multiply, add, divide, compare), float accumulation, int/double conversions and a
   square root now and then. */
#include <stdint.h>
#include <stdio.h>

int main(void) {
  double x = 1.0, v = 0.0, energy = 0.0;
  const double dt = 1e-3, k = 4.0, damping = 0.01;
  float acc = 0.0f;
  long ticks = 0;
  for (long i = 0; i < 4000000; ++i) {
    double a = -k * x - damping * v;
    v += a * dt;
    x += v * dt;
    energy = 0.5 * v * v + 0.5 * k * x * x;
    acc += (float)(energy / (1.0 + (double)(i & 1023)));
    if (x > 0.5) ticks += (long)(x * 100.0);
    if ((i & 4095) == 0) {  /* SQDBR (the C library's sqrt is not in the guest runtime) */
      energy += 1.0;
      __asm__("sqdbr %0,%0" : "+f"(energy));
      acc -= (float)energy;
    }
  }
  printf("fp: x=%ld v=%ld acc=%ld ticks=%ld\n", (long)(x * 1e6), (long)(v * 1e6), (long)acc, ticks);
  return 0;
}
