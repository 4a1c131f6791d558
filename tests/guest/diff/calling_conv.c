/* Calling conventions: functions with 10+ integer arguments (five in r2-r6, the
   rest on the stack), mixed 32/64-bit and signed/unsigned arguments that the ABI
   extends to 64 bits, char and short returns, callee-saved registers r6-r13
   surviving calls that clobber many registers, a recursive function that keeps many
   values live across the recursive call, and indirect tail calls. */
#include <stdint.h>
#include <stdio.h>

static int64_t __attribute__((noinline)) ten(int64_t a, int32_t b, uint32_t c, int16_t d, uint16_t e, int8_t f,
                                             uint8_t g, int64_t h, int32_t i, uint64_t j) {
  return a + b + (int64_t)c * 3 + d * 5 + e * 7 + f * 11 + g * 13 + h * 17 + (int64_t)i * 19 + (int64_t)(j * 23);
}
static uint64_t __attribute__((noinline)) twelve(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e,
                                                 uint64_t f, uint64_t g, uint64_t h, uint64_t i, uint64_t j,
                                                 uint64_t k, uint64_t l) {
  return ((((((((((a * 3 + b) * 3 + c) * 3 + d) * 3 + e) * 3 + f) * 3 + g) * 3 + h) * 3 + i) * 3 + j) * 3 + k) * 3 + l;
}
static signed char __attribute__((noinline)) ret_sc(int x) { return (signed char)(x * 3); }
static unsigned char __attribute__((noinline)) ret_uc(int x) { return (unsigned char)(x * 3); }
static short __attribute__((noinline)) ret_s(int x) { return (short)(x * 1000); }
static unsigned short __attribute__((noinline)) ret_us(int x) { return (unsigned short)(x * 1000); }
static _Bool __attribute__((noinline)) ret_b(int x) { return x & 4; }

static uint64_t __attribute__((noinline)) clobber(uint64_t x) {
  /* many live values force use of every register */
  uint64_t a = x * 3, b = x ^ 0x55, c = x + 77, d = x << 3, e = x >> 2, f = ~x, g = x * x, h = x - 9, i = x | 0xf0,
           j = x & 0xff0f, k = x * 7 + 1;
  for (int n = 0; n < 5; ++n) {
    a += b, b ^= c, c += d, d ^= e, e += f, f ^= g, g += h, h ^= i, i += j, j ^= k, k += a;
  }
  return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h ^ i ^ j ^ k;
}
static uint64_t __attribute__((noinline)) keeps_live(uint64_t seed) {
  uint64_t v0 = seed, v1 = seed * 3, v2 = seed * 5, v3 = seed * 7, v4 = seed * 11, v5 = seed * 13, v6 = seed * 17,
           v7 = seed * 19;
  uint64_t r = clobber(seed);
  r ^= clobber(r);
  return r + v0 + (v1 << 1) + (v2 << 2) + (v3 << 3) + (v4 << 4) + (v5 << 5) + (v6 << 6) + (v7 << 7);
}
static uint64_t __attribute__((noinline)) rec(int depth, uint64_t a, uint64_t b, uint64_t c) {
  if (depth == 0) return a ^ b ^ c;
  uint64_t x = a + b, y = b * 3 + c, z = c ^ (a << 1), w = a - c;
  uint64_t r = rec(depth - 1, y, z, x);
  return r + x * 2 + y * 3 + z * 5 + w * 7; /* all four used after the call */
}
typedef uint64_t (*stepfn)(uint64_t, int);
static uint64_t step_a(uint64_t, int);
static uint64_t step_b(uint64_t, int);
static const stepfn steps[2] = {step_a, step_b};
static uint64_t step_a(uint64_t v, int n) { return n ? steps[v & 1](v * 3 + 1, n - 1) : v; }
static uint64_t step_b(uint64_t v, int n) { return n ? steps[(v >> 1) & 1](v / 2, n - 1) : v; }

int main(void) {
  printf("ten %lld %lld\n", (long long)ten(1, -2, 3, -4, 5, -6, 7, -8, 9, 10),
         (long long)ten(INT64_MAX / 64, INT32_MIN, UINT32_MAX, INT16_MIN, UINT16_MAX, INT8_MIN, UINT8_MAX, -1,
                        INT32_MAX, UINT64_MAX));
  printf("twelve %llu\n", (unsigned long long)twelve(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
  int sum = 0;
  for (int x = -100; x <= 100; x += 7)
    sum += ret_sc(x) + ret_uc(x) + ret_s(x) + ret_us(x) + ret_b(x);
  printf("narrow returns sum %d sc(50)=%d uc(-1)=%u s(40)=%d us(-1)=%u b=%d\n", sum, ret_sc(50), ret_uc(-1), ret_s(40),
         ret_us(-1), ret_b(12));
  uint64_t acc = 0;
  for (uint64_t s = 1; s < 50; ++s) acc = acc * 31 + keeps_live(s);
  printf("keeps_live %016llx\n", (unsigned long long)acc);
  printf("rec %016llx\n", (unsigned long long)rec(40, 1, 2, 3));
  printf("steps %llu %llu\n", (unsigned long long)step_a(27, 60), (unsigned long long)step_b(1000000, 30));
  return 0;
}
