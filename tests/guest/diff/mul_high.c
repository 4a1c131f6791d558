/* Multiplication: 64x64 -> 128 high halves (unsigned via __int128, MLGR; signed via
   __int128, or built from the unsigned product with corrections), checked against
   a product assembled from 32-bit halves; multiply by constants that GCC turns into
   shifts and adds; 32x32 -> 64 products; and multiplication-based division by
   invariant integers (Granlund-Montgomery) compared with real division. */
#include <stdint.h>
#include <stdio.h>

typedef unsigned __int128 u128;
typedef __int128 s128;

static uint64_t mulhi_u(uint64_t a, uint64_t b) { return (uint64_t)(((u128)a * b) >> 64); }
static int64_t mulhi_s(int64_t a, int64_t b) { return (int64_t)(((s128)a * b) >> 64); }
static uint64_t mulhi_halves(uint64_t a, uint64_t b) {
  uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
  uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
  return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
static int64_t mulhi_s_from_u(int64_t a, int64_t b) {
  uint64_t h = mulhi_u((uint64_t)a, (uint64_t)b);
  if (a < 0) h -= (uint64_t)b;
  if (b < 0) h -= (uint64_t)a;
  return (int64_t)h;
}

static uint64_t st = 0x1234567;
static uint64_t rnd(void) {
  st ^= st << 13, st ^= st >> 7, st ^= st << 17;
  return st;
}

int main(void) {
  unsigned bad = 0;
  uint64_t h = 0;
  for (int i = 0; i < 3000; ++i) {
    uint64_t a = rnd() >> (rnd() % 64), b = rnd();
    if (i % 3 == 0) b = ~b;
    if (mulhi_u(a, b) != mulhi_halves(a, b)) ++bad;
    if (mulhi_s((int64_t)a, (int64_t)b) != mulhi_s_from_u((int64_t)a, (int64_t)b)) ++bad;
    h = h * 31 + mulhi_u(a, b) + (uint64_t)mulhi_s((int64_t)a, (int64_t)b) + a * b;
    uint32_t x = (uint32_t)a, y = (uint32_t)b;
    int32_t sx = (int32_t)x, sy = (int32_t)y;
    h = h * 31 + (uint64_t)x * y + (uint64_t)((int64_t)sx * sy);
  }
  printf("mulhi bad=%u hash=%016llx\n", bad, (unsigned long long)h);
  /* multiply by constants */
  uint64_t c = 0;
  for (uint64_t v = 1; v < 5000000; v = v * 3 + 7) {
    c += v * 3 + v * 5 + v * 7 + v * 9 + v * 10 + v * 15 + v * 17 + v * 100 + v * 255 + v * 1000 + v * 65537 +
         v * 0x7fffffff + v * (uint64_t)-3;
    int64_t s = (int64_t)v * -7;
    c ^= (uint64_t)s;
  }
  printf("const muls %016llx\n", (unsigned long long)c);
  /* division by invariant integers via multiply-high */
  static const uint64_t divisors[] = {3, 7, 10, 641, 1000000007, 0x100000001ULL, 0xfffffffffffffffULL};
  for (unsigned k = 0; k < sizeof divisors / sizeof divisors[0]; ++k) {
    uint64_t d = divisors[k];
    int l = 64 - __builtin_clzll(d - 1); /* ceil(log2 d) */
    /* m = floor(2^64 * (2^l - d) / d) + 1 */
    uint64_t m = (uint64_t)((((u128)1 << 64) * (((u128)1 << l) - d)) / d) + 1;
    unsigned mism = 0;
    for (int i = 0; i < 500; ++i) {
      uint64_t n = rnd() >> (i % 64);
      uint64_t t = mulhi_u(m, n);
      uint64_t q = (t + ((n - t) >> 1)) >> (l - 1);
      if (q != n / d) ++mism;
    }
    printf("d=%llu l=%d m=%016llx mismatches=%u\n", (unsigned long long)d, l, (unsigned long long)m, mism);
    bad += mism;
  }
  return bad != 0;
}
