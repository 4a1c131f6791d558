/* Bitsets of 64-bit words: set/clear/test, union/intersection/difference, counting
   with popcount, iteration over set bits with ctz, range set and clear with masks,
   shifting a whole bitset, and a small bitset-based graph (transitive closure with
   Warshall's algorithm). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define NBITS 1000
#define NW ((NBITS + 63) / 64)
typedef struct {
  uint64_t w[NW];
} bitset;

static void bs_set(bitset *b, unsigned i) { b->w[i / 64] |= (uint64_t)1 << (i % 64); }
static void bs_clear(bitset *b, unsigned i) { b->w[i / 64] &= ~((uint64_t)1 << (i % 64)); }
static int bs_test(const bitset *b, unsigned i) { return (int)((b->w[i / 64] >> (i % 64)) & 1); }
static unsigned bs_count(const bitset *b) {
  unsigned n = 0;
  for (int i = 0; i < NW; ++i) n += (unsigned)__builtin_popcountll(b->w[i]);
  return n;
}
static void bs_set_range(bitset *b, unsigned lo, unsigned hi) { /* [lo, hi) */
  while (lo < hi) {
    unsigned wi = lo / 64, off = lo % 64, n = 64 - off;
    if (n > hi - lo) n = hi - lo;
    uint64_t mask = (n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1)) << off;
    b->w[wi] |= mask;
    lo += n;
  }
}
static void bs_shift_left(bitset *b, unsigned k) {
  unsigned ws = k / 64, bs = k % 64;
  for (int i = NW - 1; i >= 0; --i) {
    uint64_t v = 0;
    if (i - (int)ws >= 0) {
      v = b->w[i - ws] << bs;
      if (bs && i - (int)ws - 1 >= 0) v |= b->w[i - ws - 1] >> (64 - bs);
    }
    b->w[i] = v;
  }
  b->w[NW - 1] &= (((uint64_t)1 << (NBITS % 64)) - 1);
}
static uint32_t bs_hash(const bitset *b) {
  uint32_t h = 0;
  for (int i = 0; i < NW; ++i)
    for (uint64_t w = b->w[i]; w; w &= w - 1) h = h * 31 + (uint32_t)(i * 64 + __builtin_ctzll(w));
  return h;
}

int main(void) {
  bitset a, b, u, x, d;
  memset(&a, 0, sizeof a), memset(&b, 0, sizeof b);
  for (unsigned i = 0; i < NBITS; i += 3) bs_set(&a, i);
  for (unsigned i = 0; i < NBITS; i += 5) bs_set(&b, i);
  bs_clear(&a, 999), bs_clear(&a, 0), bs_clear(&b, 500);
  for (int i = 0; i < NW; ++i) u.w[i] = a.w[i] | b.w[i], x.w[i] = a.w[i] & b.w[i], d.w[i] = a.w[i] & ~b.w[i];
  printf("a=%u b=%u union=%u inter=%u diff=%u\n", bs_count(&a), bs_count(&b), bs_count(&u), bs_count(&x),
         bs_count(&d));
  printf("test 3:%d 15:%d 500:%d 999:%d hashes %08x %08x %08x\n", bs_test(&a, 3), bs_test(&x, 15), bs_test(&b, 500),
         bs_test(&a, 999), bs_hash(&u), bs_hash(&x), bs_hash(&d));
  bitset r;
  memset(&r, 0, sizeof r);
  bs_set_range(&r, 5, 70), bs_set_range(&r, 128, 192), bs_set_range(&r, 300, 301), bs_set_range(&r, 900, 1000);
  printf("range count=%u hash=%08x w0=%016llx w1=%016llx\n", bs_count(&r), bs_hash(&r), (unsigned long long)r.w[0],
         (unsigned long long)r.w[1]);
  for (unsigned k = 1; k < 200; k = k * 2 + 1) {
    bitset s = a;
    bs_shift_left(&s, k);
    int ok = 1;
    for (unsigned i = 0; i < NBITS; ++i) ok &= bs_test(&s, i) == (i >= k && bs_test(&a, i - k));
    printf("shift %u ok=%d count=%u\n", k, ok, bs_count(&s));
  }
  /* transitive closure of a 64-node graph, one word per row */
  uint64_t reach[64];
  for (int i = 0; i < 64; ++i) reach[i] = (uint64_t)1 << i;
  for (int i = 0; i < 64; ++i) {
    if (i % 7 != 6) reach[i] |= (uint64_t)1 << ((i * 5 + 3) % 64);
    if (i % 11 == 0) reach[i] |= (uint64_t)1 << ((i + 1) % 64);
  }
  for (int k = 0; k < 64; ++k)
    for (int i = 0; i < 64; ++i)
      if ((reach[i] >> k) & 1) reach[i] |= reach[k];
  uint32_t h = 0;
  unsigned total = 0;
  for (int i = 0; i < 64; ++i) h = h * 33 + (uint32_t)(reach[i] ^ (reach[i] >> 32)), total += (unsigned)__builtin_popcountll(reach[i]);
  printf("closure total=%u hash=%08x row0=%016llx\n", total, h, (unsigned long long)reach[0]);
  return 0;
}
