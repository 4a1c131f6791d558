/* A program that ends in a fixed-point-divide exception: Linux delivers SIGFPE, so
   the process dies with status 128+8 = 136, under QEMU as under tpfemu (which prints
   its program-check dump to stderr). Output flushed before the exception must
   appear; nothing after it may. */
#include <stdint.h>
#include <stdio.h>

static volatile int64_t divisor = 0;

int main(void) {
  int64_t sum = 0;
  for (int64_t i = 1; i <= 10; ++i) sum += 1000 / i;
  printf("before the divide: sum=%lld\n", (long long)sum);
  fflush(stdout);
  printf("this line is still in the buffer when the program check happens\n");
  int64_t q = sum / divisor; /* DSGR with a zero divisor */
  printf("not reached %lld\n", (long long)q);
  return 0;
}
