/* Mask idioms: extract and insert bit ranges (GCC emits RISBG/RNSBG/ROSBG/RXSBG or
   NILL/OILH/NIHF and friends), test under mask, set/clear/toggle single bits, and
   branch on single-bit tests. Each result is checked against a generic bit loop. */
#include <stdint.h>
#include <stdio.h>

static uint64_t ref_extract(uint64_t v, unsigned lo, unsigned len) {
  uint64_t r = 0;
  for (unsigned i = 0; i < len; ++i) r |= ((v >> (lo + i)) & 1) << i;
  return r;
}
static uint64_t ref_insert(uint64_t v, uint64_t f, unsigned lo, unsigned len) {
  for (unsigned i = 0; i < len; ++i) {
    uint64_t bit = (uint64_t)1 << (lo + i);
    v = ((f >> i) & 1) ? (v | bit) : (v & ~bit);
  }
  return v;
}

/* Constant ranges so GCC picks immediate-mask instructions. */
#define EXTRACT(v, lo, len) (((v) >> (lo)) & ((((uint64_t)1) << (len)) - 1))
#define INSERT(v, f, lo, len) \
  (((v) & ~(((((uint64_t)1) << (len)) - 1) << (lo))) | (((f) & ((((uint64_t)1) << (len)) - 1)) << (lo)))

static uint64_t st = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void) {
  st += 0x9e3779b97f4a7c15ULL;
  uint64_t z = st;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

int main(void) {
  unsigned bad = 0;
  uint64_t h = 0;
  for (int i = 0; i < 500; ++i) {
    uint64_t v = rnd(), f = rnd();
    uint32_t w = (uint32_t)v;
#define CHK(lo, len)                                                                   \
  do {                                                                                 \
    uint64_t e = EXTRACT(v, lo, len), n = INSERT(v, f, lo, len);                       \
    if (e != ref_extract(v, lo, len) || n != ref_insert(v, f, lo, len)) ++bad;         \
    h = h * 33 + e + n;                                                                \
  } while (0)
    CHK(0, 1); CHK(0, 8); CHK(3, 5); CHK(8, 8); CHK(12, 20); CHK(16, 16); CHK(31, 2);
    CHK(32, 32); CHK(40, 24); CHK(60, 4); CHK(63, 1); CHK(1, 62); CHK(7, 49);
    /* 32-bit forms */
    uint32_t w1 = (w & 0xffff0000u) | (uint32_t)(f & 0xffff);
    uint32_t w2 = (w & ~0xff0u) | ((uint32_t)(f << 4) & 0xff0u);
    uint32_t w3 = w & 0x00fff000u, w4 = w | 0x80000001u, w5 = w ^ 0x0000ffffu;
    h = h * 33 + w1 + w2 + w3 + w4 + w5;
    /* AND/OR/XOR with 16-bit-halfword and 32-bit immediates of 64-bit values */
    h = h * 33 + (v & 0xffffffffffff00ffULL) + (v & 0x0000ffff00000000ULL) + (v | 0x00ff000000000000ULL) +
        (v ^ 0xffffffff00000000ULL) + (v & 0xfffffffffffffff0ULL) + (v | 0x8000) + (v & 0x00000000ffff0000ULL);
    /* Test under mask style branches */
    unsigned t = 0;
    if (v & 0x1) t |= 1;
    if (v & 0x8000) t |= 2;
    if ((v & 0xf0) == 0xf0) t |= 4;
    if ((v & 0xf0) == 0) t |= 8;
    if (v & 0x0001000000000000ULL) t |= 16;
    if ((int64_t)v < 0) t |= 32;
    if ((w & 0x0300u) == 0x0100u) t |= 64;
    if (!(w & 0x80000000u)) t |= 128;
    h = h * 33 + t;
    /* Set, clear, toggle by variable bit number */
    unsigned bn = (unsigned)(f % 64);
    uint64_t s = v | ((uint64_t)1 << bn), c = v & ~((uint64_t)1 << bn), x = v ^ ((uint64_t)1 << bn);
    if (((s >> bn) & 1) != 1 || ((c >> bn) & 1) != 0 || ((x ^ v) != (uint64_t)1 << bn)) ++bad;
    h = h * 33 + s + c + x;
    /* Sign-extending a bit field of a word */
    int64_t sx = (int64_t)(v << 44) >> 52; /* bits 8..19 sign extended */
    h = h * 33 + (uint64_t)sx;
    /* Low-bit tricks */
    uint64_t lowclear = v & (v - 1), lowfill = v | (v - 1), lowbit = v & (0 - v);
    h = h * 33 + lowclear + lowfill + lowbit;
  }
  volatile uint64_t v = 0x0123456789abcdefULL;
  printf("extract %llx %llx %llx %llx\n", (unsigned long long)EXTRACT(v, 4, 12), (unsigned long long)EXTRACT(v, 32, 16),
         (unsigned long long)EXTRACT(v, 56, 8), (unsigned long long)EXTRACT(v, 1, 63));
  printf("insert %016llx %016llx\n", (unsigned long long)INSERT(v, 0xfff, 20, 12),
         (unsigned long long)INSERT(v, 0, 8, 48));
  printf("bad %u hash %016llx\n", bad, (unsigned long long)h);
  return bad != 0;
}
