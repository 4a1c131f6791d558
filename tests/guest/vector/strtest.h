/* What the vector string tests (string_*.c) share: operands whose elements repeat,
   are zero or equal often enough that every search outcome and condition code shows
   up, and the asm pieces that set the CC before an instruction (so that a form without
   the CS flag must leave it alone) and read it after. */
#ifndef STRTEST_H
#define STRTEST_H
/* Loops stay scalar: these programs need no vector instruction besides what they test. */
#pragma GCC optimize("no-tree-vectorize")
#include "vtest.h"

#define Z15(text) ".machine push\n\t.machine z15\n\t" text "\n\t.machine pop"
/* Sets the CC from %[ccw] (SPM), runs `insn`, reads the CC into %[cc] (IPM). */
#define CC_AROUND(insn) Z15("spm %[ccw]\n\t" insn "\n\tipm %[cc]\n\tsrl %[cc],28")

/* One element of size code es (0-2) from a small pool: zero now and then, a few
   letters, the extremes, and random values. */
static uint32_t pool_element(unsigned es) {
  static const uint32_t pool[] = {'a', 'b', 'c', 0x7f, 0x80, 0xff, 0xffffffffu, 0x61616161u};
  uint64_t r = rnd64();
  uint32_t mask = es == 0 ? 0xffu : es == 1 ? 0xffffu : 0xffffffffu;
  switch (r & 15) {
    case 0: return 0;
    case 1: case 2: case 3: return (uint32_t)(r >> 8) & mask;
    default: return pool[(r >> 4) & 7] & mask;
  }
}
static vb pool_vec(unsigned es, int zeros) {
  union { vb v; uint8_t b[16]; } u;
  unsigned n = 16u >> es, size = 1u << es;
  for (unsigned k = 0; k < n; ++k) {
    uint32_t e = pool_element(es);
    if (!zeros && e == 0) e = 'z';
    for (unsigned j = 0; j < size; ++j) u.b[k * size + j] = (uint8_t)(e >> (8 * (size - 1 - j)));
  }
  return u.v;
}
/* Element k of size code es set to value e. */
static vb with_element(vb v, unsigned es, unsigned k, uint32_t e) {
  union { vb v; uint8_t b[16]; } u = {v};
  unsigned size = 1u << es;
  for (unsigned j = 0; j < size; ++j) u.b[k * size + j] = (uint8_t)(e >> (8 * (size - 1 - j)));
  return u.v;
}
static void put3(const char *name, unsigned es, unsigned flags, unsigned cc, vb r) {
  union { vb v; uint64_t d[2]; } u = {r};
  printf("%s es %u f %2u cc %u %016llx%016llx\n", name, es, flags, cc, (unsigned long long)u.d[0],
         (unsigned long long)u.d[1]);
}
/* Expands X(es, flags) for the three element sizes and the 16 flag values. */
#define FLAGS_OF(X, es) X(es, 0) X(es, 1) X(es, 2) X(es, 3) X(es, 4) X(es, 5) X(es, 6) X(es, 7) \
  X(es, 8) X(es, 9) X(es, 10) X(es, 11) X(es, 12) X(es, 13) X(es, 14) X(es, 15)
#define ALL_FLAGS(X) FLAGS_OF(X, 0) FLAGS_OF(X, 1) FLAGS_OF(X, 2)
#endif
