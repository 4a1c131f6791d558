/* Shifts by every count 0..width-1 at 8/16/32/64 bits, left and right, logical and
   arithmetic (right shift of a negative value is arithmetic in GCC), by constant and
   by variable counts, plus rotates written the portable way. Left shifts of negative
   values are done on the unsigned type (they would be undefined). */
#include <stdint.h>
#include <stdio.h>

static volatile uint64_t pats[] = {0x8000000000000001ULL, 0xfedcba9876543210ULL, 0x0123456789abcdefULL,
                                   0xffffffffffffffffULL, 0x7fffffff80000000ULL, 1};
#define NP (sizeof pats / sizeof pats[0])

static uint64_t acc;
static void mix(uint64_t v) { acc = ((acc << 7) | (acc >> 57)) ^ v; acc *= 0x9e3779b97f4a7c15ULL; }

static inline uint64_t rotl64(uint64_t x, unsigned n) { return (x << (n & 63)) | (x >> (-n & 63)); }
static inline uint32_t rotl32(uint32_t x, unsigned n) { return (x << (n & 31)) | (x >> (-n & 31)); }
static inline uint32_t rotr32(uint32_t x, unsigned n) { return (x >> (n & 31)) | (x << (-n & 31)); }
static inline uint16_t rotl16(uint16_t x, unsigned n) { return (uint16_t)((x << (n & 15)) | (x >> (-n & 15))); }

int main(void) {
  volatile unsigned vcount;
  for (unsigned p = 0; p < NP; ++p) {
    uint64_t u = pats[p];
    int64_t s = (int64_t)u;
    uint32_t u32 = (uint32_t)u;
    int32_t s32 = (int32_t)u32;
    uint16_t u16 = (uint16_t)u;
    int16_t s16 = (int16_t)u16;
    uint8_t u8 = (uint8_t)(u >> 56);
    int8_t s8 = (int8_t)u8;
    for (unsigned n = 0; n < 64; ++n) {
      vcount = n;
      unsigned c = vcount;
      mix(u << c), mix(u >> c), mix((uint64_t)(s >> c)), mix(rotl64(u, c));
      if (c < 32) {
        mix(u32 << c), mix(u32 >> c), mix((uint64_t)(int64_t)(s32 >> c)), mix(rotl32(u32, c)), mix(rotr32(u32, c));
        mix((uint32_t)((uint32_t)s32 << c));
      }
      if (c < 16) mix((uint16_t)(u16 << c)), mix(u16 >> c), mix((uint64_t)(int64_t)(s16 >> c)), mix(rotl16(u16, c));
      if (c < 8) mix((uint8_t)(u8 << c)), mix(u8 >> c), mix((uint64_t)(int64_t)(s8 >> c));
      if (p == 1 && (n % 9 == 0 || n == 63))
        printf("n=%2u sll=%016llx srl=%016llx sra=%016llx rot=%016llx | %08x %08x %08x %08x\n", n,
               (unsigned long long)(u << c), (unsigned long long)(u >> c), (unsigned long long)(s >> c),
               (unsigned long long)rotl64(u, c), c < 32 ? u32 << c : 0, c < 32 ? u32 >> c : 0,
               c < 32 ? (unsigned)(s32 >> c) : 0, rotl32(u32, c));
    }
    /* constant counts */
    mix(u << 1), mix(u << 13), mix(u << 63), mix(u >> 1), mix(u >> 31), mix(u >> 32), mix(u >> 63);
    mix((uint64_t)(s >> 1)), mix((uint64_t)(s >> 17)), mix((uint64_t)(s >> 63));
    mix(u32 << 5), mix(u32 >> 27), mix((uint64_t)(int64_t)(s32 >> 31)), mix(rotl64(u, 17)), mix(rotl32(u32, 9));
    /* shift-and-mask idioms GCC turns into rotate-then-insert instructions */
    mix((u >> 12) & 0xfff), mix((u << 4) & 0xff0), mix((u & 0xff00) >> 8), mix((u >> 3) & 0x1ffffffffULL);
    mix(((uint64_t)u32 << 32) | (u >> 32));
  }
  /* Double-width shifts assembled from two words */
  uint64_t hi = 0x0123456789abcdefULL, lo = 0xfedcba9876543210ULL;
  for (unsigned n = 1; n < 64; n += 7) {
    uint64_t nhi = (hi << n) | (lo >> (64 - n)), nlo = lo << n;
    printf("dshl %2u: %016llx%016llx\n", n, (unsigned long long)nhi, (unsigned long long)nlo);
  }
  printf("acc %016llx\n", (unsigned long long)acc);
  return 0;
}
