/* QZZ1: the fare of a booking request, against the fare table that every ECB
   shares (read-only, in the program image, as z/TPF keeps a global table).

   The request is cut into legs of LEG_BYTES (16) bytes, the last maybe shorter. A leg's key
   is its bytes hashed (FNV-1a); the fare table is 64 bands of keys, sorted, and a
   leg costs the fare of the band its key falls in (found by binary search, as a
   program looks up a sorted table). Returns the total in cents, at most INT_MAX;
   never negative, so a caller can tell it from tpf_enter's -1. */
#include "apps.h"

struct band {
  uint32_t from; /* first key of the band */
  uint32_t fare; /* cents */
};

/* Band i starts at i*i/4096 of the key space (narrow bands first, wide ones last)
   and costs 49.00 plus a spread of up to 451.00. */
#define BAND(i) {(uint32_t)(i) * (uint32_t)(i) * 1048576u, 4900u + (uint32_t)(i) * 7919u % 45100u}
#define BAND8(i) BAND(i), BAND(i + 1), BAND(i + 2), BAND(i + 3), BAND(i + 4), BAND(i + 5), BAND(i + 6), BAND(i + 7)
static const struct band fares[64] = {BAND8(0),  BAND8(8),  BAND8(16), BAND8(24),
                                      BAND8(32), BAND8(40), BAND8(48), BAND8(56)};

static uint32_t fare_of(uint32_t key) {
  unsigned lo = 0, hi = sizeof fares / sizeof fares[0]; /* fares[lo].from <= key < fares[hi].from */
  while (hi - lo > 1) {
    unsigned mid = (lo + hi) / 2;
    if (fares[mid].from <= key) lo = mid;
    else hi = mid;
  }
  return fares[lo].fare;
}

int QZZ1(void *msg, long len) {
  const unsigned char *p = msg;
  uint64_t total = 0;
  if (!p) len = 0;
  for (long off = 0; off < len; off += LEG_BYTES) {
    long end = off + LEG_BYTES < len ? off + LEG_BYTES : len;
    uint32_t key = 2166136261u;
    for (long k = off; k < end; ++k) key = (key ^ p[k]) * 16777619u;
    total += fare_of(key);
  }
  return total > 0x7fffffff ? 0x7fffffff : (int)total;
}
