/* QPGT: a paging torture test. Message text "MB ROUNDS [vio]": GETSTOR MB megabytes
   (GETSTOR_VIO with "vio": virtual I/O storage, paged to DASD only), write
   every 4 KB page with a pattern of its own (this ECB, the page, the round), then
   ROUNDS times walk the pages in a scrambled order, checking each page's whole pattern
   and writing the next round's. With real storage smaller than the ECBs' pages
   (system.paging.real_storage) the pages go out to SCM or DASD and come back on their
   faults; a page whose contents are not what was written counts as bad. Logs the
   pages, rounds, bad pages and the simulated time it took. */
#include <stdint.h>
#include <stdlib.h>
#include <tpf.h>

tpf_program QPGT;

#define WORDS (4096 / 8)

static uint64_t word(uint64_t ecb, uint64_t page, uint64_t round, uint64_t w) {
  uint64_t x = ecb * 0x9E3779B97F4A7C15ull ^ page * 0xC2B2AE3D27D4EB4Full ^ round * 0x165667B19E3779F9ull ^ w;
  x ^= x >> 31;
  return x * 0x94D049BB133111EBull;
}

static uint64_t gcd(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t t = a % b;
    a = b, b = t;
  }
  return a;
}

int QPGT(void *msg, long len) {
  char text[32];
  long k = len < 31 ? len : 31;
  for (long i = 0; i < k; ++i) text[i] = ((char *)msg)[i];
  text[k] = 0;
  char *p = text;
  long mb = strtol(p, &p, 10), rounds = strtol(p, &p, 10);
  while (*p == ' ') ++p;
  const int vio = p[0] == 'v' && p[1] == 'i' && p[2] == 'o';
  if (mb <= 0 || mb > 200 || rounds < 0) {
    tpf_log("QPGT: \"%s\": MB 1..200, ROUNDS >= 0", text);
    return 1;
  }
  const uint64_t pages = (uint64_t)mb * 256, ecb = (uint64_t)tpf_ecb_info(TPF_INFO_ECB);
  uint64_t *base = vio ? tpf_getstor_vio((unsigned long)mb << 20) : tpf_getstor((unsigned long)mb << 20);
  if (!base) {
    tpf_log("QPGT: no storage for %ld MB", mb);
    return 1;
  }
  const long t0 = tpf_ecb_info(TPF_INFO_TIME_US);
  for (uint64_t pg = 0; pg < pages; ++pg)
    for (uint64_t w = 0; w < WORDS; ++w) base[pg * WORDS + w] = word(ecb, pg, 0, w);
  long bad = 0;
  for (long r = 0; r < rounds; ++r) {
    /* A stride prime to the page count visits every page once, in a scrambled order. */
    uint64_t stride = 2 * (uint64_t)r * 97 + 61;
    while (gcd(stride, pages) != 1) stride += 2;
    uint64_t pg = (uint64_t)r * 13 % pages;
    for (uint64_t n = 0; n < pages; ++n, pg = (pg + stride) % pages) {
      uint64_t *q = base + pg * WORDS;
      int ok = 1;
      for (uint64_t w = 0; w < WORDS; ++w) ok &= q[w] == word(ecb, pg, (uint64_t)r, w);
      bad += !ok;
      for (uint64_t w = 0; w < WORDS; ++w) q[w] = word(ecb, pg, (uint64_t)r + 1, w);
    }
  }
  const long t1 = tpf_ecb_info(TPF_INFO_TIME_US);
  tpf_log("QPGT: %lu pages, %ld rounds, %ld bad, %ld us", (unsigned long)pages, rounds, bad, t1 - t0);
  return 0;
}
