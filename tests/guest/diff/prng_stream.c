/* Checksums of pseudo-random streams from generators written here: xorshift32,
   xorshift64*, xorshift128+, splitmix64, a 64-bit LCG, PCG32 (with its rotate),
   and Park-Miller minimal standard (with 64-bit modulo and with Schrage's method).
   About a million generator steps in all, plus a chi-square-style bucket count. */
#include <stdint.h>
#include <stdio.h>

static uint32_t xs32(uint32_t *s) { uint32_t x = *s; x ^= x << 13; x ^= x >> 17; x ^= x << 5; return *s = x; }
static uint64_t xs64star(uint64_t *s) {
  uint64_t x = *s;
  x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
  *s = x;
  return x * 0x2545f4914f6cdd1dULL;
}
static uint64_t xs128p(uint64_t s[2]) {
  uint64_t a = s[0], b = s[1];
  s[0] = b;
  a ^= a << 23;
  s[1] = a ^ b ^ (a >> 17) ^ (b >> 26);
  return s[1] + b;
}
static uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static uint32_t pcg32(uint64_t *state, uint64_t inc) {
  uint64_t old = *state;
  *state = old * 6364136223846793005ULL + (inc | 1);
  uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
  uint32_t rot = (uint32_t)(old >> 59);
  return (xorshifted >> rot) | (xorshifted << ((-rot) & 31));
}
static uint32_t minstd(uint32_t *s) { return *s = (uint32_t)((uint64_t)*s * 16807 % 2147483647); }
static uint32_t minstd_schrage(int32_t *s) {
  const int32_t a = 16807, m = 2147483647, q = m / a, r = m % a;
  int32_t hi = *s / q, lo = *s % q;
  int32_t t = a * lo - r * hi;
  *s = t > 0 ? t : t + m;
  return (uint32_t)*s;
}

int main(void) {
  uint32_t s32 = 2463534242u, c32 = 0;
  for (int i = 0; i < 200000; ++i) c32 ^= xs32(&s32) + (uint32_t)i;
  printf("xorshift32 last=%08x check=%08x\n", s32, c32);
  uint64_t s64 = 88172645463325252ULL, c64 = 0;
  for (int i = 0; i < 200000; ++i) c64 = c64 * 31 + xs64star(&s64);
  printf("xorshift64* check=%016llx\n", (unsigned long long)c64);
  uint64_t s128[2] = {1, 2};
  c64 = 0;
  for (int i = 0; i < 100000; ++i) c64 += xs128p(s128) >> (i & 7);
  printf("xorshift128+ check=%016llx\n", (unsigned long long)c64);
  uint64_t sm = 0;
  c64 = 0;
  for (int i = 0; i < 100000; ++i) c64 ^= splitmix64(&sm) * (uint64_t)(i | 1);
  printf("splitmix64 check=%016llx first-after=%016llx\n", (unsigned long long)c64,
         (unsigned long long)splitmix64(&sm));
  uint64_t lcg = 1;
  for (int i = 0; i < 100000; ++i) lcg = lcg * 2862933555777941757ULL + 3037000493ULL;
  printf("lcg64 state=%016llx\n", (unsigned long long)lcg);
  uint64_t pst = 0x853c49e6748fea9bULL;
  pcg32(&pst, 0xda3e39cb94b95bdbULL);
  uint32_t first[6];
  for (int i = 0; i < 6; ++i) first[i] = pcg32(&pst, 0xda3e39cb94b95bdbULL);
  c32 = 0;
  for (int i = 0; i < 100000; ++i) c32 = c32 * 33 + pcg32(&pst, 0xda3e39cb94b95bdbULL);
  printf("pcg32 first %08x %08x %08x %08x %08x %08x check=%08x\n", first[0], first[1], first[2], first[3], first[4],
         first[5], c32);
  uint32_t ms = 1;
  int32_t ms2 = 1;
  unsigned mismatch = 0;
  for (int i = 0; i < 10000; ++i) mismatch += minstd(&ms) != minstd_schrage(&ms2);
  printf("minstd after 10000: %u (1043618065 expected) mismatches=%u\n", ms, mismatch);
  /* bucket counts of the top 4 bits of xorshift64* */
  unsigned b[16] = {0};
  for (int i = 0; i < 64000; ++i) b[xs64star(&s64) >> 60]++;
  uint64_t chi = 0;
  for (int i = 0; i < 16; ++i) chi += (uint64_t)((int64_t)b[i] - 4000) * (uint64_t)((int64_t)b[i] - 4000);
  printf("bucket chi*4000=%llu b0=%u b15=%u\n", (unsigned long long)chi, b[0], b[15]);
  return ms != 1043618065u || mismatch != 0;
}
