/* 128-bit integers: add/sub with carries, multiply (64x64->128 and full 128x128),
   division and remainder (libgcc's __udivti3/__divti3/__umodti3/__modti3, built for
   z196), shifts by every count, and compares. Values are printed with our own
   128-bit to decimal/hex conversion. */
#include <stdint.h>
#include <stdio.h>

typedef unsigned __int128 u128;
typedef __int128 s128;

static void put_hex(u128 v) { printf("%016llx%016llx", (unsigned long long)(v >> 64), (unsigned long long)v); }
static void put_udec(u128 v) {
  char buf[48];
  int n = 0;
  do {
    buf[n++] = (char)('0' + (int)(v % 10));
    v /= 10;
  } while (v);
  while (n) putchar(buf[--n]);
}
static void put_sdec(s128 v) {
  if (v < 0) {
    putchar('-');
    put_udec((u128)0 - (u128)v);
  } else {
    put_udec((u128)v);
  }
}

static volatile uint64_t seeds[] = {0, 1, 3, 0xffffffffffffffffULL, 0x8000000000000000ULL, 0x123456789abcdef0ULL,
                                    1000000007ULL, 0xfedcba9876543210ULL};
#define NS (sizeof seeds / sizeof seeds[0])

int main(void) {
  /* 64x64 -> 128 (GCC uses MLGR for the unsigned case) */
  for (unsigned i = 0; i < NS; ++i) {
    for (unsigned j = i; j < NS; ++j) {
      u128 p = (u128)seeds[i] * seeds[j];
      s128 sp = (s128)(int64_t)seeds[i] * (int64_t)seeds[j];
      printf("mul %u %u ", i, j);
      put_hex(p);
      putchar(' ');
      put_hex((u128)sp);
      putchar('\n');
    }
  }
  /* Full 128-bit products, sums, differences */
  u128 a = ((u128)0x0123456789abcdefULL << 64) | 0xfedcba9876543210ULL;
  u128 b = ((u128)0xffffffffULL << 64) | 0xffffffff00000001ULL;
  put_hex(a * b), putchar('\n');
  put_hex(a + b), putchar(' '), put_hex(a - b), putchar(' '), put_hex(b - a), putchar('\n');
  u128 max = ~(u128)0;
  put_hex(max + 1), putchar(' '), put_hex(max * max), putchar('\n');
  /* Decimal printing: 2^127-1, -2^127, 10^38 */
  s128 smax = (s128)(max >> 1), smin = -smax - 1;
  put_sdec(smax), putchar('\n'), put_sdec(smin), putchar('\n');
  u128 p10 = 1;
  for (int k = 0; k < 38; ++k) p10 *= 10;
  put_udec(p10), putchar(' '), put_udec(max), putchar('\n');
  /* Shifts by every count */
  uint64_t hs = 0;
  volatile unsigned vc;
  for (unsigned n = 0; n < 128; ++n) {
    vc = n;
    u128 l = a << vc, r = a >> vc;
    s128 sr = (s128)(a | ((u128)1 << 127)) >> vc;
    hs = hs * 31 + (uint64_t)(l >> 64) + (uint64_t)l + (uint64_t)(r >> 64) + (uint64_t)r + (uint64_t)(sr >> 64) +
         (uint64_t)sr;
    if (n % 37 == 0) {
      printf("shift %3u ", n);
      put_hex(l), putchar(' '), put_hex(r), putchar(' '), put_hex((u128)sr), putchar('\n');
    }
  }
  printf("shift hash %016llx\n", (unsigned long long)hs);
  /* Compares, signed and unsigned, including across the sign boundary */
  s128 vals[] = {0, 1, -1, smax, smin, (s128)a, -(s128)a, (s128)b, (s128)((u128)1 << 64), -(s128)((u128)1 << 64)};
  unsigned nv = sizeof vals / sizeof vals[0];
  for (unsigned i = 0; i < nv; ++i) {
    unsigned bits = 0;
    for (unsigned j = 0; j < nv; ++j) bits = bits << 2 | (vals[i] < vals[j]) << 1 | ((u128)vals[i] < (u128)vals[j]);
    printf("cmp %u %05x\n", i, bits);
  }
  /* Factorial 30 fits in 128 bits; divide it back down */
  u128 f = 1;
  for (unsigned k = 1; k <= 30; ++k) f *= k;
  put_udec(f), putchar('\n');
  for (unsigned k = 30; k >= 2; --k) {
    if (f % k != 0) printf("BAD factorial remainder at %u\n", k);
    f /= k;
  }
  printf("after dividing back: "), put_udec(f), putchar('\n');
  return 0;
}
