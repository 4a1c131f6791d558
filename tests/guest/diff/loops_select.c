/* Loop shapes and conditional selects: counted loops (BRCT/BRCTG), count-down
   loops, do-while, early exits, nested loops with continue/break, min/max/abs/clamp
   written as ternaries (branch or select), sign functions, conditional increments,
   and compare-with-immediate branches for immediates of 8, 16 and 32 bits. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

static volatile int64_t data[64];

static int64_t imin(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t imax(int64_t a, int64_t b) { return a > b ? a : b; }
static uint64_t umin(uint64_t a, uint64_t b) { return a < b ? a : b; }
static int64_t clamp(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }
static int sign(int64_t v) { return (v > 0) - (v < 0); }
static uint64_t absdiff(int64_t a, int64_t b) { return a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a; }

int main(void) {
  uint64_t x = 0x0123456789abcdefULL;
  for (int i = 0; i < 64; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    data[i] = (int64_t)x >> (i % 40);
  }
  data[5] = INT64_MIN, data[6] = INT64_MAX, data[7] = 0, data[8] = -1;
  int64_t mn = INT64_MAX, mx = INT64_MIN;
  uint64_t umn = UINT64_MAX, sad = 0;
  int signs = 0, clamped = 0;
  for (int i = 0; i < 64; ++i) {
    int64_t v = data[i];
    mn = imin(mn, v), mx = imax(mx, v), umn = umin(umn, (uint64_t)v);
    signs += sign(v) * (i + 1);
    clamped += (int)(clamp(v, -1000000, 1000000) / 1000);
    if (i) sad += absdiff(v, data[i - 1]) >> 8;
  }
  printf("min=%lld max=%lld umin=%llu signs=%d clamped=%d sad=%llu\n", (long long)mn, (long long)mx,
         (unsigned long long)umn, signs, clamped, (unsigned long long)sad);
  /* counted loops of 32 and 64 bits, count-down */
  uint32_t c32 = 0;
  for (int i = 1000; i > 0; --i) c32 += (uint32_t)i * (uint32_t)i;
  uint64_t c64 = 0;
  for (int64_t i = 100000; i != 0; --i) c64 += (uint64_t)i ^ (c64 >> 7);
  unsigned dw = 0, n = 12345;
  do {
    dw += n & 1;
    n >>= 1;
  } while (n);
  printf("c32=%u c64=%llu dowhile=%u\n", c32, (unsigned long long)c64, dw);
  /* nested loops with continue/break: pairs (i,j) with i*j a perfect square */
  unsigned pairs = 0, first_big = 0;
  for (unsigned i = 1; i < 200; ++i) {
    if (i % 10 == 0) continue;
    for (unsigned j = i; j < 200; ++j) {
      unsigned p = i * j, r = 0;
      while ((r + 1) * (r + 1) <= p) ++r;
      if (r * r != p) continue;
      ++pairs;
      if (p > 30000 && !first_big) {
        first_big = p;
        break;
      }
    }
  }
  printf("square pairs=%u first_big=%u\n", pairs, first_big);
  /* compare with immediates of different sizes */
  unsigned buckets[8] = {0};
  for (int i = 0; i < 64; ++i) {
    int64_t v = data[i];
    if (v == 0) buckets[0]++;
    else if (v < -100) buckets[1]++;
    else if (v < 127) buckets[2]++;
    else if (v < 30000) buckets[3]++;
    else if (v < 2000000000) buckets[4]++;
    else if ((uint64_t)v > 0xfffffffff0000000ULL) buckets[5]++;
    else if (v != INT64_MAX) buckets[6]++;
    else buckets[7]++;
    int32_t w = (int32_t)v;
    if (w > 32767) buckets[(unsigned)w % 8]++;
    if ((uint32_t)w < 65535u) buckets[7]++;
  }
  printf("buckets:");
  for (int i = 0; i < 8; ++i) printf(" %u", buckets[i]);
  putchar('\n');
  /* conditional increments and selects over bytes */
  unsigned char bytes[256];
  for (int i = 0; i < 256; ++i) bytes[i] = (unsigned char)(i * 167 + 13);
  unsigned gt = 0, sel = 0;
  for (int i = 0; i < 256; ++i) {
    gt += bytes[i] > 128;
    sel += bytes[i] & 1 ? bytes[i] : 255 - bytes[i];
  }
  printf("gt=%u sel=%u\n", gt, sel);
  return 0;
}
