/* 128-bit division and remainder over a pseudo-random stream of operands of mixed
   magnitudes (small divisors, divisors above 2^64, negative operands), checked
   against the identity a == q*b + r with |r| < |b| and sign(r) == sign(a), and
   against a bit-by-bit shift-subtract long division written here. */
#include <stdint.h>
#include <stdio.h>

typedef unsigned __int128 u128;
typedef __int128 s128;

static uint64_t st = 0x243f6a8885a308d3ULL;
static uint64_t next(void) {
  st ^= st << 13, st ^= st >> 7, st ^= st << 17;
  return st;
}

static u128 rnd128(void) {
  u128 v = ((u128)next() << 64) | next();
  unsigned bits = (unsigned)(next() % 128) + 1;
  return bits == 128 ? v : v & (((u128)1 << bits) - 1);
}

static u128 slow_div(u128 n, u128 d, u128 *rem) {
  u128 q = 0, r = 0;
  for (int i = 127; i >= 0; --i) {
    r = (r << 1) | ((n >> i) & 1);
    if (r >= d) r -= d, q |= (u128)1 << i;
  }
  *rem = r;
  return q;
}

int main(void) {
  uint64_t hash = 0;
  unsigned bad = 0;
  for (int i = 0; i < 600; ++i) {
    u128 n = rnd128(), d = rnd128();
    if (d == 0) d = 7;
    u128 q = n / d, r = n % d, r2;
    u128 q2 = slow_div(n, d, &r2);
    if (q != q2 || r != r2 || q * d + r != n || r >= d) ++bad;
    s128 sn = (s128)n, sd = (s128)d;
    if (i & 1) sn = -sn;
    if (i & 2) sd = -sd;
    if (!(sd == -1 && sn == (s128)((u128)1 << 127))) {
      s128 sq = sn / sd, sr = sn % sd;
      if (sq * sd + sr != sn) ++bad;
      if (sr != 0 && ((sr < 0) != (sn < 0))) ++bad;
      u128 ar = sr < 0 ? (u128)0 - (u128)sr : (u128)sr, ad = sd < 0 ? (u128)0 - (u128)sd : (u128)sd;
      if (ar >= ad) ++bad;
      hash = hash * 1000003 ^ (uint64_t)sq ^ (uint64_t)((u128)sq >> 64) ^ (uint64_t)sr;
    }
    hash = hash * 1000003 ^ (uint64_t)q ^ (uint64_t)(q >> 64) ^ (uint64_t)r ^ (uint64_t)(r >> 64);
    if (i % 100 == 0)
      printf("%3d n=%016llx%016llx d=%016llx%016llx q=%016llx%016llx r=%016llx%016llx\n", i,
             (unsigned long long)(n >> 64), (unsigned long long)n, (unsigned long long)(d >> 64),
             (unsigned long long)d, (unsigned long long)(q >> 64), (unsigned long long)q,
             (unsigned long long)(r >> 64), (unsigned long long)r);
  }
  /* Division by powers of two and by 10 (decimal conversion of 2^128-1) */
  u128 m = ~(u128)0;
  char dec[50];
  int k = 0;
  while (m) dec[k++] = (char)('0' + (int)(m % 10)), m /= 10;
  printf("2^128-1 = ");
  while (k) putchar(dec[--k]);
  putchar('\n');
  printf("bad %u hash %016llx\n", bad, (unsigned long long)hash);
  return bad != 0;
}
