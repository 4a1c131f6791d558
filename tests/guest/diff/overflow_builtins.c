/* __builtin_add/sub/mul_overflow on int, unsigned, long, unsigned long, short and
   mixed-type results, checked against a 128-bit reference computation. These map
   to condition-code checks after add/subtract (overflow CC) and to widening
   multiplies. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

typedef __int128 s128;

static volatile int64_t v[] = {0, 1, -1, 2, -2, 100, INT32_MAX, INT32_MIN, UINT32_MAX, INT64_MAX, INT64_MIN,
                               INT64_MAX / 2, INT64_MIN / 2 - 1, 0x7fff, -0x8000, 3037000499LL, 3037000500LL,
                               -3037000500LL, 65536, 46341};
#define NV (sizeof v / sizeof v[0])

static int fits_i32(s128 x) { return x >= INT32_MIN && x <= INT32_MAX; }
static int fits_u32(s128 x) { return x >= 0 && x <= UINT32_MAX; }
static int fits_i64(s128 x) { return x >= INT64_MIN && x <= INT64_MAX; }
static int fits_u64(s128 x) { return x >= 0 && x <= (s128)UINT64_MAX; }
static int fits_i16(s128 x) { return x >= SHRT_MIN && x <= SHRT_MAX; }

int main(void) {
  unsigned bad = 0, overflows = 0;
  uint64_t h = 0;
  for (unsigned i = 0; i < NV; ++i) {
    for (unsigned j = 0; j < NV; ++j) {
      int64_t a = v[i], b = v[j];
      int32_t a32 = (int32_t)a, b32 = (int32_t)b, r32;
      uint32_t ua32 = (uint32_t)a, ub32 = (uint32_t)b, ur32;
      int64_t r64;
      uint64_t ur64;
      int16_t r16;
      int o;
      o = __builtin_add_overflow(a32, b32, &r32);
      bad += o != !fits_i32((s128)a32 + b32), overflows += (unsigned)o, h = h * 31 + (uint32_t)r32;
      o = __builtin_sub_overflow(a32, b32, &r32);
      bad += o != !fits_i32((s128)a32 - b32), overflows += (unsigned)o, h = h * 31 + (uint32_t)r32;
      o = __builtin_mul_overflow(a32, b32, &r32);
      bad += o != !fits_i32((s128)a32 * b32), overflows += (unsigned)o, h = h * 31 + (uint32_t)r32;
      o = __builtin_add_overflow(ua32, ub32, &ur32);
      bad += o != !fits_u32((s128)ua32 + ub32), overflows += (unsigned)o, h = h * 31 + ur32;
      o = __builtin_sub_overflow(ua32, ub32, &ur32);
      bad += o != !fits_u32((s128)ua32 - ub32), overflows += (unsigned)o, h = h * 31 + ur32;
      o = __builtin_mul_overflow(ua32, ub32, &ur32);
      bad += o != !fits_u32((s128)ua32 * ub32), overflows += (unsigned)o, h = h * 31 + ur32;
      o = __builtin_add_overflow(a, b, &r64);
      bad += o != !fits_i64((s128)a + b), overflows += (unsigned)o, h = h * 31 + (uint64_t)r64;
      o = __builtin_sub_overflow(a, b, &r64);
      bad += o != !fits_i64((s128)a - b), overflows += (unsigned)o, h = h * 31 + (uint64_t)r64;
      o = __builtin_mul_overflow(a, b, &r64);
      bad += o != !fits_i64((s128)a * b), overflows += (unsigned)o, h = h * 31 + (uint64_t)r64;
      o = __builtin_add_overflow((uint64_t)a, (uint64_t)b, &ur64);
      bad += o != !fits_u64((s128)(uint64_t)a + (uint64_t)b), overflows += (unsigned)o, h = h * 31 + ur64;
      o = __builtin_sub_overflow((uint64_t)a, (uint64_t)b, &ur64);
      bad += o != !fits_u64((s128)(uint64_t)a - (s128)(uint64_t)b), overflows += (unsigned)o, h = h * 31 + ur64;
      o = __builtin_mul_overflow((uint64_t)a, (uint64_t)b, &ur64);
      bad += o != ((unsigned __int128)(uint64_t)a * (uint64_t)b > UINT64_MAX), overflows += (unsigned)o, h = h * 31 + ur64;
      /* mixed: signed operands, unsigned result; 64-bit operands, 16-bit result */
      o = __builtin_add_overflow(a32, b32, &ur64);
      bad += o != !fits_u64((s128)a32 + b32), overflows += (unsigned)o, h = h * 31 + ur64;
      o = __builtin_mul_overflow(a, b32, &r16);
      bad += o != !fits_i16((s128)a * b32), overflows += (unsigned)o, h = h * 31 + (uint16_t)r16;
    }
  }
  printf("pairs=%u overflows=%u bad=%u hash=%016llx\n", (unsigned)(NV * NV), overflows, bad, (unsigned long long)h);
  /* saturating add built on the overflow builtin */
  int32_t acc = 0;
  for (int k = 0; k < 40; ++k) {
    int32_t step = (k % 2 ? -1 : 1) * (int32_t)(1u << (k % 31));
    if (__builtin_add_overflow(acc, step, &acc)) acc = step > 0 ? INT32_MAX : INT32_MIN;
  }
  printf("saturated acc=%d\n", acc);
  return bad != 0;
}
