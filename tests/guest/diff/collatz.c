/* A few million instructions of tight integer loops: Collatz sequence lengths for
   every n below 30,000 (the longest chain and a histogram of lengths), with
   64-bit intermediate values, plus the digit-sum of n*n for the same range. */
#include <stdint.h>
#include <stdio.h>

int main(void) {
  uint32_t best_n = 1, best_len = 1;
  uint64_t peak = 0, total = 0;
  unsigned hist[8] = {0};
  for (uint32_t n = 1; n < 30000; ++n) {
    uint64_t x = n;
    uint32_t len = 1;
    while (x != 1) {
      x = (x & 1) ? 3 * x + 1 : x >> 1;
      if (x > peak) peak = x;
      ++len;
    }
    total += len;
    if (len > best_len) best_len = len, best_n = n;
    hist[len < 400 ? len / 50 : 7]++;
  }
  printf("longest chain below 30000: n=%u len=%u peak=%llu total=%llu\n", best_n, best_len,
         (unsigned long long)peak, (unsigned long long)total);
  printf("histogram:");
  for (int i = 0; i < 8; ++i) printf(" %u", hist[i]);
  putchar('\n');
  uint64_t ds = 0;
  for (uint64_t n = 1; n < 30000; ++n)
    for (uint64_t sq = n * n; sq; sq /= 10) ds += sq % 10;
  printf("digit sum of squares: %llu\n", (unsigned long long)ds);
  return 0;
}
