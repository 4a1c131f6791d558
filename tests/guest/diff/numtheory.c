/* Number theory: integer square root (Newton and bitwise) checked against
   isqrt^2 <= n < (isqrt+1)^2, gcd (Euclid and binary), lcm, extended Euclid and
   modular inverse, modular exponentiation with 128-bit intermediate products,
   deterministic Miller-Rabin for 64-bit n, Euler's totient, and integer cube root. */
#include <stdint.h>
#include <stdio.h>

typedef unsigned __int128 u128;

static uint64_t isqrt_newton(uint64_t n) {
  if (n < 2) return n;
  uint64_t x = n, y = (x + 1) / 2;
  while (y < x) x = y, y = (x + n / x) / 2;
  return x;
}
static uint64_t isqrt_bits(uint64_t n) {
  uint64_t r = 0, bit = (uint64_t)1 << 62;
  while (bit > n) bit >>= 2;
  while (bit) {
    if (n >= r + bit) n -= r + bit, r = (r >> 1) + bit;
    else r >>= 1;
    bit >>= 2;
  }
  return r;
}
static uint64_t gcd(uint64_t a, uint64_t b) {
  while (b) { uint64_t t = a % b; a = b; b = t; }
  return a;
}
static uint64_t gcd_binary(uint64_t a, uint64_t b) {
  if (!a) return b;
  if (!b) return a;
  int sh = __builtin_ctzll(a | b);
  a >>= __builtin_ctzll(a);
  do {
    b >>= __builtin_ctzll(b);
    if (a > b) { uint64_t t = a; a = b; b = t; }
    b -= a;
  } while (b);
  return a << sh;
}
static int64_t ext_gcd(int64_t a, int64_t b, int64_t *x, int64_t *y) {
  if (b == 0) { *x = 1, *y = 0; return a; }
  int64_t x1, y1, g = ext_gcd(b, a % b, &x1, &y1);
  *x = y1, *y = x1 - (a / b) * y1;
  return g;
}
static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m) { return (uint64_t)((u128)a * b % m); }
static uint64_t powmod(uint64_t b, uint64_t e, uint64_t m) {
  uint64_t r = 1 % m;
  b %= m;
  while (e) {
    if (e & 1) r = mulmod(r, b, m);
    b = mulmod(b, b, m);
    e >>= 1;
  }
  return r;
}
static int miller_rabin(uint64_t n) {
  if (n < 2) return 0;
  static const uint64_t small[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
  for (int i = 0; i < 12; ++i) {
    if (n == small[i]) return 1;
    if (n % small[i] == 0) return 0;
  }
  uint64_t d = n - 1;
  int s = 0;
  while (!(d & 1)) d >>= 1, ++s;
  for (int i = 0; i < 12; ++i) {
    uint64_t x = powmod(small[i], d, n);
    if (x == 1 || x == n - 1) continue;
    int comp = 1;
    for (int r = 1; r < s && comp; ++r) {
      x = mulmod(x, x, n);
      if (x == n - 1) comp = 0;
    }
    if (comp) return 0;
  }
  return 1;
}
static uint64_t totient(uint64_t n) {
  uint64_t r = n;
  for (uint64_t p = 2; p * p <= n; ++p)
    if (n % p == 0) {
      while (n % p == 0) n /= p;
      r -= r / p;
    }
  if (n > 1) r -= r / n;
  return r;
}
static uint64_t icbrt(uint64_t n) {
  uint64_t r = 0;
  for (int s = 63; s >= 0; s -= 3) {
    r <<= 1;
    uint64_t b = 3 * r * (r + 1) + 1;
    if ((n >> s) >= b) n -= b << s, r++;
  }
  return r;
}

int main(void) {
  unsigned bad = 0;
  uint64_t x = 0x2545f4914f6cdd1dULL;
  for (int i = 0; i < 3000; ++i) {
    x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
    uint64_t n = x >> (x % 64);
    uint64_t r1 = isqrt_newton(n), r2 = isqrt_bits(n);
    if (r1 != r2 || (u128)r1 * r1 > n || (u128)(r1 + 1) * (r1 + 1) <= n) ++bad;
    uint64_t c = icbrt(n);
    if ((u128)c * c * c > n || (u128)(c + 1) * (c + 1) * (c + 1) <= n) ++bad;
    uint64_t m = (x * 0x9e3779b97f4a7c15ULL) >> (x % 50);
    if (gcd(n, m) != gcd_binary(n, m)) ++bad;
  }
  printf("isqrt(2^64-1)=%llu isqrt(10^18)=%llu icbrt(2^64-1)=%llu\n", (unsigned long long)isqrt_bits(~0ULL),
         (unsigned long long)isqrt_newton(1000000000000000000ULL), (unsigned long long)icbrt(~0ULL));
  printf("gcd %llu %llu %llu lcm %llu\n", (unsigned long long)gcd(1071, 462),
         (unsigned long long)gcd_binary(0x8000000000000000ULL, 0xc000000000000000ULL),
         (unsigned long long)gcd(832040, 514229), (unsigned long long)(21 / gcd(21, 6) * 6));
  int64_t ex, ey;
  int64_t g = ext_gcd(240, 46, &ex, &ey);
  printf("ext_gcd(240,46)=%lld x=%lld y=%lld\n", (long long)g, (long long)ex, (long long)ey);
  const int64_t mod = 1000000007;
  for (int64_t a = 2; a < 2000000; a = a * 13 + 7) {
    int64_t ix, iy;
    ext_gcd(a % mod, mod, &ix, &iy);
    int64_t inv = ((ix % mod) + mod) % mod;
    if ((uint64_t)((u128)(uint64_t)(a % mod) * (uint64_t)inv % (uint64_t)mod) != 1) ++bad;
    if ((uint64_t)inv != powmod((uint64_t)a, (uint64_t)mod - 2, (uint64_t)mod)) ++bad;
  }
  printf("powmod %llu %llu %llu\n", (unsigned long long)powmod(2, 1000000, 1000000007),
         (unsigned long long)powmod(3, ~0ULL, 0xffffffffffffffc5ULL),
         (unsigned long long)powmod(0x123456789ULL, 0xabcdefULL, 0x7fffffffffffffe7ULL));
  static const uint64_t cands[] = {1, 2, 97, 561, 1105, 4294967291ULL, 4294967297ULL, 1000000007ULL,
                                   999999999989ULL, 3215031751ULL, 0xffffffffffffffc5ULL, 0xffffffffffffffffULL,
                                   18446744073709551557ULL, 2305843009213693951ULL, 3825123056546413051ULL};
  for (unsigned i = 0; i < sizeof cands / sizeof cands[0]; ++i)
    printf("%llu:%d ", (unsigned long long)cands[i], miller_rabin(cands[i]));
  putchar('\n');
  unsigned pc = 0;
  for (uint64_t n = 1000000000000ULL; n < 1000000000000ULL + 2000; ++n) pc += (unsigned)miller_rabin(n);
  printf("primes near 1e12: %u\n", pc);
  uint64_t ts = 0;
  for (uint64_t n = 1; n <= 300; ++n) ts += totient(n);
  printf("sum phi(1..300)=%llu phi(1e9+6)=%llu\n", (unsigned long long)ts, (unsigned long long)totient(1000000006));
  printf("bad %u\n", bad);
  return bad != 0;
}
