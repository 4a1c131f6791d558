/* What the vector differential tests share: a deterministic pseudo-random source of
   operands (xorshift64*, so both emulators see the same numbers), and printing of
   vectors, so that every result and condition code lands in stdout, where compare.sh
   checks it against QEMU's. */
#ifndef VTEST_H
#define VTEST_H
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <vecintrin.h>

typedef __vector unsigned char vb;
typedef __vector unsigned short vh;
typedef __vector unsigned int vw;
typedef __vector unsigned long long vd;

static uint64_t vtest_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd64(void) {
  vtest_state ^= vtest_state >> 12;
  vtest_state ^= vtest_state << 25;
  vtest_state ^= vtest_state >> 27;
  return vtest_state * 0x2545F4914F6CDD1Dull;
}
/* Random bytes, with some runs of zeros, equal and extreme values, which is where the
   element boundaries and string searches differ. */
static vb rnd_vec(void) {
  union { vb v; uint64_t d[2]; uint8_t b[16]; } u;
  u.d[0] = rnd64(), u.d[1] = rnd64();
  uint64_t shape = rnd64();
  for (int k = 0; k < 16; ++k) {
    switch ((shape >> (4 * k)) & 15) {
      case 0: u.b[k] = 0; break;
      case 1: u.b[k] = 0xFF; break;
      case 2: u.b[k] = 0x80; break;
      case 3: u.b[k] = 0x7F; break;
      case 4: u.b[k] = 'a'; break;
      default: break;
    }
  }
  return u.v;
}
static void put_vec(const char *name, vb v) {
  union { vb v; uint64_t d[2]; } u = {v};
  printf("%s %016llx%016llx\n", name, (unsigned long long)u.d[0], (unsigned long long)u.d[1]);
}
#define PUT(name, v) put_vec(name, (vb)(v))
#endif
