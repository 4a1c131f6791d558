/* GCC bit builtins (clz/ctz/popcount/parity/bswap at every width; FLOGR and LRVR
   and friends, or libgcc helpers) checked against plain loops, plus byte-reversal
   through loads and stores. clz/ctz of 0 is undefined, so 0 is skipped there. */
#include <stdint.h>
#include <stdio.h>

static int ref_clz64(uint64_t v) { int n = 0; while (!(v & 0x8000000000000000ULL)) v <<= 1, ++n; return n; }
static int ref_ctz64(uint64_t v) { int n = 0; while (!(v & 1)) v >>= 1, ++n; return n; }
static int ref_pop64(uint64_t v) { int n = 0; for (; v; v >>= 1) n += (int)(v & 1); return n; }
static uint64_t ref_bswap64(uint64_t v) {
  uint64_t r = 0;
  for (int i = 0; i < 8; ++i) r = (r << 8) | ((v >> (8 * i)) & 0xff);
  return r;
}

static uint64_t st = 88172645463325252ULL;
static uint64_t rnd(void) { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return st; }

int main(void) {
  unsigned bad = 0;
  uint64_t h = 0;
  for (int i = 0; i < 2000; ++i) {
    uint64_t v = rnd();
    v >>= rnd() % 64;          /* vary the magnitude */
    if (i & 1) v <<= rnd() % 64; /* and the trailing zeros */
    uint32_t w = (uint32_t)(v ^ (v >> 29));
    uint16_t s = (uint16_t)v;
    if (v) {
      if (__builtin_clzll(v) != ref_clz64(v)) ++bad;
      if (__builtin_ctzll(v) != ref_ctz64(v)) ++bad;
      h = h * 131 + (uint64_t)__builtin_clzll(v) * 64 + (uint64_t)__builtin_ctzll(v);
      if (__builtin_ffsll((long long)v) != ref_ctz64(v) + 1) ++bad;
    } else if (__builtin_ffsll(0) != 0) {
      ++bad;
    }
    if (w) {
      if (__builtin_clz(w) != ref_clz64(w) - 32) ++bad;
      if (__builtin_ctz(w) != ref_ctz64(w)) ++bad;
    }
    if (__builtin_popcountll(v) != ref_pop64(v)) ++bad;
    if (__builtin_popcount(w) != ref_pop64(w)) ++bad;
    if (__builtin_parityll(v) != (ref_pop64(v) & 1)) ++bad;
    if (__builtin_parity(w) != (ref_pop64(w) & 1)) ++bad;
    if (__builtin_bswap64(v) != ref_bswap64(v)) ++bad;
    if (__builtin_bswap32(w) != (uint32_t)(ref_bswap64(w) >> 32)) ++bad;
    if (__builtin_bswap16(s) != (uint16_t)(ref_bswap64(s) >> 48)) ++bad;
    if (__builtin_clrsbll((long long)v) != (v >> 63 ? (~v ? ref_clz64(~v) : 64) : (v ? ref_clz64(v) : 64)) - 1) ++bad;
    h = h * 131 + (uint64_t)__builtin_popcountll(v) + __builtin_bswap64(v) + __builtin_bswap32(w) +
        __builtin_bswap16(s) + (uint64_t)__builtin_parityll(v);
  }
  /* Fixed values, printed */
  static volatile uint64_t fixed[] = {1, 0x8000000000000000ULL, 0xffffffffffffffffULL, 0x00000000ffff0000ULL,
                                      0x0123456789abcdefULL, 0x100};
  for (unsigned i = 0; i < sizeof fixed / sizeof fixed[0]; ++i) {
    uint64_t v = fixed[i];
    printf("%016llx clz=%d ctz=%d pop=%d par=%d bswap=%016llx bswap32=%08x bswap16=%04x\n", (unsigned long long)v,
           __builtin_clzll(v), __builtin_ctzll(v), __builtin_popcountll(v), __builtin_parityll(v),
           (unsigned long long)__builtin_bswap64(v), __builtin_bswap32((uint32_t)v),
           (unsigned)__builtin_bswap16((uint16_t)v));
  }
  /* Byte reversal through memory (GCC may use LRV/STRV/LRVG) */
  uint32_t words[4] = {0x11223344, 0xa1b2c3d4, 0, 0xffff0000};
  uint64_t dwords[2] = {0x0102030405060708ULL, 0xf0e0d0c0b0a09080ULL};
  for (int i = 0; i < 4; ++i) words[i] = __builtin_bswap32(words[i]);
  for (int i = 0; i < 2; ++i) dwords[i] = __builtin_bswap64(dwords[i]);
  printf("%08x %08x %08x %08x %016llx %016llx\n", words[0], words[1], words[2], words[3],
         (unsigned long long)dwords[0], (unsigned long long)dwords[1]);
  /* Next power of two, log2, isolate lowest bit */
  for (uint64_t v = 3; v < 0x1000000000000ULL; v = v * 7 + 1) {
    uint64_t p2 = v <= 1 ? 1 : (uint64_t)1 << (64 - __builtin_clzll(v - 1));
    h = h * 31 + p2 + (v & -v) + (uint64_t)(63 - __builtin_clzll(v));
  }
  printf("bad %u hash %016llx\n", bad, (unsigned long long)h);
  return bad != 0;
}
