/* Integer wraparound and conversions at every width. Signed overflow is undefined
   in C, so every overflowing operation is done in the unsigned type and converted
   back (GCC defines that conversion as modulo 2^N). Operands come through volatile
   variables so GCC cannot fold the arithmetic away. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

static volatile int64_t vals64[] = {0, 1, -1, 2, -2, 127, -128, 255, 32767, -32768, 65535,
                                    INT32_MAX, INT32_MIN, UINT32_MAX, INT64_MAX, INT64_MIN,
                                    0x123456789abcdefLL, -0x7edcba9876543210LL};
#define N (sizeof vals64 / sizeof vals64[0])

static uint64_t sum;
static void mix(uint64_t v) { sum = (sum ^ v) * 0x100000001b3ULL; }

int main(void) {
  for (unsigned i = 0; i < N; ++i) {
    for (unsigned j = 0; j < N; ++j) {
      int64_t a = vals64[i], b = vals64[j];
      /* 64-bit */
      uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
      int64_t add64 = (int64_t)(ua + ub), sub64 = (int64_t)(ua - ub), mul64 = (int64_t)(ua * ub);
      /* 32-bit */
      int32_t a32 = (int32_t)a, b32 = (int32_t)b;
      int32_t add32 = (int32_t)((uint32_t)a32 + (uint32_t)b32);
      int32_t sub32 = (int32_t)((uint32_t)a32 - (uint32_t)b32);
      int32_t mul32 = (int32_t)((uint32_t)a32 * (uint32_t)b32);
      /* 16-bit and 8-bit: promoted to int, so only the truncation wraps */
      int16_t a16 = (int16_t)a, b16 = (int16_t)b;
      int16_t add16 = (int16_t)(a16 + b16), mul16 = (int16_t)((int32_t)a16 * b16);
      uint16_t uadd16 = (uint16_t)((uint16_t)a + (uint16_t)b);
      int8_t a8 = (int8_t)a, b8 = (int8_t)b;
      int8_t add8 = (int8_t)(a8 + b8), sub8 = (int8_t)(a8 - b8), mul8 = (int8_t)(a8 * b8);
      uint8_t umul8 = (uint8_t)((uint8_t)a * (uint8_t)b);
      mix((uint64_t)add64), mix((uint64_t)sub64), mix((uint64_t)mul64);
      mix((uint64_t)(int64_t)add32), mix((uint64_t)(int64_t)sub32), mix((uint64_t)(int64_t)mul32);
      mix((uint64_t)(int64_t)add16), mix((uint64_t)(int64_t)mul16), mix(uadd16);
      mix((uint64_t)(int64_t)add8), mix((uint64_t)(int64_t)sub8), mix((uint64_t)(int64_t)mul8), mix(umul8);
      /* mixed-sign comparisons: int vs unsigned converts the int */
      unsigned cmp = (a < b) | (ua < ub) << 1 | (a32 < b32) << 2 | ((uint32_t)a32 < (uint32_t)b32) << 3 |
                     (a16 < b16) << 4 | ((uint16_t)a16 < (uint16_t)b16) << 5 | (a8 < b8) << 6 |
                     ((uint8_t)a8 < (uint8_t)b8) << 7 | ((a32 < 0) == ((unsigned)a32 > INT_MAX)) << 8;
      mix(cmp);
      if (i == j || j == 0 || i == 3)
        printf("%2u %2u: %016llx %016llx %016llx | %08x %08x %08x | %04x %04x %04x | %02x %02x %02x %02x | %03x\n",
               i, j, (unsigned long long)add64, (unsigned long long)sub64, (unsigned long long)mul64,
               (unsigned)add32, (unsigned)sub32, (unsigned)mul32, (unsigned)(uint16_t)add16,
               (unsigned)(uint16_t)mul16, (unsigned)uadd16, (unsigned)(uint8_t)add8, (unsigned)(uint8_t)sub8,
               (unsigned)(uint8_t)mul8, (unsigned)umul8, cmp);
    }
  }
  /* Negation and abs at the edges, done in unsigned. */
  volatile int32_t imin = INT_MIN, one = 1;
  printf("INT_MIN/1=%d INT_MIN%%1=%d -INT_MIN(wrapped)=%d\n", imin / one, imin % one,
         (int32_t)(0u - (uint32_t)imin));
  volatile int64_t lmin = INT64_MIN, lone = 1, lmone = -1;
  printf("LLONG_MIN/1=%lld LLONG_MIN*-1(wrapped)=%lld\n", (long long)(lmin / lone),
         (long long)(int64_t)((uint64_t)lmin * (uint64_t)lmone));
  /* Widening and narrowing conversions */
  volatile uint32_t u32 = 0xfedcba98u;
  volatile int32_t s32 = -123456789;
  printf("zext=%llx sext=%llx u16=%x s16=%d u8=%x s8=%d\n", (unsigned long long)(uint64_t)u32,
         (unsigned long long)(int64_t)s32, (unsigned)(uint16_t)u32, (int)(int16_t)u32, (unsigned)(uint8_t)s32,
         (int)(int8_t)s32);
  /* Add with carry chains through unsigned compare */
  uint64_t lo = 0, hi = 0;
  for (unsigned i = 0; i < N; ++i) {
    uint64_t v = (uint64_t)vals64[i];
    uint64_t nlo = lo + v;
    hi += (nlo < lo);
    lo = nlo;
    uint64_t d = lo - v * 3;
    hi -= (d > lo);
    lo = d;
  }
  printf("carry chain: %016llx %016llx\n", (unsigned long long)hi, (unsigned long long)lo);
  printf("checksum %016llx\n", (unsigned long long)sum);
  return 0;
}
