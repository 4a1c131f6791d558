/* Division and remainder: signed (truncating toward zero) and unsigned, at 8, 16,
   32 and 64 bits, by constants (GCC turns these into multiply-high sequences) and by
   variables (DSGR, DLR, DLGR...). The divisor is never 0 and INT_MIN / -1 is never
   computed (both undefined). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

static volatile int64_t nums[] = {0, 1, -1, 7, -7, 100, -100, 12345, -12345, INT32_MAX, INT32_MIN,
                                  UINT32_MAX, 0x7fffffffffffLL, INT64_MAX, INT64_MIN, -0x123456789LL};
static volatile int64_t dens[] = {1, -1, 2, -2, 3, -3, 7, 10, -10, 255, 65536, 1000000007,
                                  INT32_MAX, INT32_MIN, 0x100000000LL, INT64_MAX, INT64_MIN};
#define NN (sizeof nums / sizeof nums[0])
#define ND (sizeof dens / sizeof dens[0])

static uint64_t h = 14695981039346656037ULL;
static void mix(uint64_t v) {
  for (int i = 0; i < 8; ++i) h = (h ^ ((v >> (8 * i)) & 0xff)) * 1099511628211ULL;
}

/* Constant divisors: each becomes a multiply by a magic number. */
static void by_constants(int64_t x) {
  uint64_t u = (uint64_t)x;
  int32_t s = (int32_t)x;
  uint32_t w = (uint32_t)x;
  mix((uint64_t)(x / 3)), mix((uint64_t)(x % 3)), mix((uint64_t)(x / 7)), mix((uint64_t)(x % 7));
  mix((uint64_t)(x / 10)), mix((uint64_t)(x % 10)), mix((uint64_t)(x / -16)), mix((uint64_t)(x % 16));
  mix(u / 3), mix(u % 3), mix(u / 10), mix(u % 1000), mix(u / 0x80000000ULL), mix(u % 641);
  mix((uint64_t)(int64_t)(s / 3)), mix((uint64_t)(int64_t)(s % 5)), mix((uint64_t)(int64_t)(s / 100)),
      mix((uint64_t)(int64_t)(s / -8)), mix((uint64_t)(int64_t)(s % 8));
  mix(w / 3), mix(w % 7), mix(w / 1000000), mix(w % 60);
}

int main(void) {
  unsigned shown = 0;
  for (unsigned i = 0; i < NN; ++i) {
    by_constants(nums[i]);
    for (unsigned j = 0; j < ND; ++j) {
      int64_t a = nums[i], b = dens[j];
      if (b == -1 && a == INT64_MIN) continue;
      int64_t q = a / b, r = a % b;
      uint64_t uq = (uint64_t)a / (uint64_t)b, ur = (uint64_t)a % (uint64_t)b;
      /* invariants of truncating division */
      if ((uint64_t)q * (uint64_t)b + (uint64_t)r != (uint64_t)a) printf("BAD signed %u %u\n", i, j);
      if (uq * (uint64_t)b + ur != (uint64_t)a || ur >= (uint64_t)b) printf("BAD unsigned %u %u\n", i, j);
      if (r != 0 && (r < 0) != (a < 0)) printf("BAD remainder sign %u %u\n", i, j);
      mix((uint64_t)q), mix((uint64_t)r), mix(uq), mix(ur);
      int32_t a32 = (int32_t)a, b32 = (int32_t)b;
      if (b32 != 0 && !(b32 == -1 && a32 == INT32_MIN)) {
        int32_t q32 = a32 / b32, r32 = a32 % b32;
        mix((uint64_t)(int64_t)q32), mix((uint64_t)(int64_t)r32);
        mix((uint32_t)a32 / (uint32_t)b32), mix((uint32_t)a32 % (uint32_t)b32);
        if (shown < 40 && (i + j) % 5 == 0) {
          printf("%lld/%lld=%lld r %lld | u %llu r %llu | 32: %d/%d=%d r %d\n", (long long)a, (long long)b,
                 (long long)q, (long long)r, (unsigned long long)uq, (unsigned long long)ur, a32, b32, q32, r32);
          ++shown;
        }
      }
      int16_t a16 = (int16_t)a, b16 = (int16_t)b;
      if (b16 != 0) mix((uint64_t)(int64_t)(a16 / b16)), mix((uint64_t)(int64_t)(a16 % b16));
      uint8_t a8 = (uint8_t)a, b8 = (uint8_t)b;
      if (b8 != 0) mix(a8 / b8), mix(a8 % b8);
      signed char c8 = (signed char)a, d8 = (signed char)b;
      if (d8 != 0) mix((uint64_t)(int64_t)(c8 / d8)), mix((uint64_t)(int64_t)(c8 % d8));
    }
  }
  volatile int32_t m = INT_MIN, p1 = 1, p2 = 2;
  printf("INT_MIN/1=%d INT_MIN/2=%d INT_MIN%%2=%d INT_MIN%%INT_MAX=%d\n", m / p1, m / p2, m % p2, m % INT_MAX);
  printf("hash %016llx\n", (unsigned long long)h);
  return 0;
}
