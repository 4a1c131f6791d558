/* Sieve of Eratosthenes: a byte sieve up to 200,000 and an odd-only bit sieve up to
   2,000,000 (a few million instructions), prime counts at powers of ten checked
   against pi(x), twin primes, the largest prime gap, and a segmented sieve window. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define LIMIT 2000000
static uint64_t bits[(LIMIT / 2) / 64 + 1]; /* bit i set: 2i+1 is composite */
static unsigned char bytes[200001];

static int is_prime_bits(uint32_t n) {
  if (n < 2) return 0;
  if (n == 2) return 1;
  if (!(n & 1)) return 0;
  uint32_t i = n / 2;
  return !((bits[i / 64] >> (i % 64)) & 1);
}

int main(void) {
  /* byte sieve */
  memset(bytes, 1, sizeof bytes);
  bytes[0] = bytes[1] = 0;
  for (uint32_t i = 2; i * i <= 200000; ++i)
    if (bytes[i])
      for (uint32_t j = i * i; j <= 200000; j += i) bytes[j] = 0;
  unsigned c = 0;
  for (uint32_t i = 0; i <= 200000; ++i) c += bytes[i];
  printf("pi(200000)=%u\n", c);
  /* odd-only bit sieve */
  bits[0] = 1; /* 1 is not prime */
  for (uint32_t p = 3; p * p <= LIMIT; p += 2) {
    uint32_t ip = p / 2;
    if ((bits[ip / 64] >> (ip % 64)) & 1) continue;
    for (uint32_t m = p * p; m <= LIMIT; m += 2 * p) {
      uint32_t im = m / 2;
      bits[im / 64] |= (uint64_t)1 << (im % 64);
    }
  }
  static const uint32_t checkpoints[] = {10, 100, 1000, 10000, 100000, 1000000, 2000000};
  static const unsigned expect[] = {4, 25, 168, 1229, 9592, 78498, 148933};
  unsigned count = 0, ci = 0, twins = 0, bad = 0;
  uint32_t prev = 0, gap = 0, gap_at = 0;
  for (uint32_t n = 2; n <= LIMIT; ++n) {
    if (is_prime_bits(n)) {
      ++count;
      if (prev && n - prev == 2) ++twins;
      if (prev && n - prev > gap) gap = n - prev, gap_at = prev;
      prev = n;
    }
    if (n == checkpoints[ci]) {
      printf("pi(%u)=%u%s\n", n, count, count == expect[ci] ? "" : " WRONG");
      bad += count != expect[ci];
      ++ci;
    }
  }
  printf("twin pairs=%u largest gap=%u after %u largest prime=%u\n", twins, gap, gap_at, prev);
  /* agreement of the two sieves */
  for (uint32_t n = 0; n <= 200000; ++n) bad += (unsigned)(bytes[n] != is_prime_bits(n));
  /* segmented sieve of [10^12, 10^12 + 10000) using primes up to 10^6 */
  const uint64_t lo = 1000000000000ULL;
  static unsigned char seg[10000];
  memset(seg, 1, sizeof seg);
  for (uint32_t p = 2; p <= 1000000; ++p) {
    if (!is_prime_bits(p)) continue;
    uint64_t start = (lo + p - 1) / p * p;
    for (uint64_t m = start; m < lo + 10000; m += p) seg[m - lo] = 0;
  }
  unsigned segc = 0;
  uint64_t first = 0;
  for (unsigned i = 0; i < 10000; ++i)
    if (seg[i]) {
      if (!segc) first = lo + i;
      ++segc;
    }
  printf("primes in [1e12, 1e12+10000): %u first %llu\n", segc, (unsigned long long)first);
  printf("bad %u\n", bad);
  return bad != 0;
}
