/* Benchmark: a tight integer ALU loop (xorshift, multiply, add, compare, branch). */
#include <stdint.h>
#include <stdio.h>

int main(void) {
  uint64_t x = 88172645463325252ull, acc = 0;
  uint32_t small = 1;
  for (long i = 0; i < 20000000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    acc += x * 0x9E3779B97F4A7C15ull;
    small = small * 1664525u + 1013904223u;
    if ((small & 0xFF) == 0) acc ^= small;
  }
  printf("alu: acc=%016llx small=%08x\n", (unsigned long long)acc, small);
  return 0;
}
