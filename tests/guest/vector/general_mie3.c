/* Miscellaneous-instruction-extensions facility 3 (z15): the logical operations with
   a complement or a negation (NCRK, NCGRK, NNRK, NNGRK, NORK, NOGRK, NXRK, NXGRK,
   OCRK, OCGRK: result and CC 0/1), SELECT (SELR, SELGR, SELFHR) under every mask with
   every CC, POPULATION COUNT of the whole register (M3 = 8) beside the per-byte count,
   and MOVE RIGHT TO LEFT (MVCRL) at every length class with overlapping operands on
   both sides, which glibc's memmove relies on. */
#include "general.h"

#define N 24

#define LOGICAL(insn)                                                                       \
  do {                                                                                      \
    uint64_t r = 0xa5a5a5a5a5a5a5a5ull;                                                     \
    unsigned cc;                                                                            \
    __asm__ volatile(Z15(insn " %0,%2,%3\n\t" IPM("%1")) : "+d"(r), "=d"(cc) : "d"(a), "d"(b) : "cc"); \
    printf(" %s %016llx %u", insn, (unsigned long long)r, cc);                              \
  } while (0)

static void logical(void) {
  for (unsigned i = 0; i < N; ++i)
    for (unsigned j = 0; j < N; ++j) {
      uint64_t a = operand(i), b = (i + j) % 5 == 0 ? ~a : (i + j) % 7 == 0 ? a : operand(j);
      printf("%016llx %016llx", (unsigned long long)a, (unsigned long long)b);
      LOGICAL("ncrk"); LOGICAL("ncgrk"); LOGICAL("nnrk"); LOGICAL("nngrk"); LOGICAL("nork");
      printf("\n ");
      LOGICAL("nogrk"); LOGICAL("nxrk"); LOGICAL("nxgrk"); LOGICAL("ocrk"); LOGICAL("ocgrk");
      printf("\n");
    }
}

#define SELECT(M)                                                                           \
  for (unsigned cc = 0; cc < 4; ++cc) {                                                     \
    uint64_t a = rnd64(), b = rnd64(), r1 = rnd64(), r2 = r1, r3 = r1;                      \
    __asm__ volatile(Z15("spm %3\n\tselr %0,%4,%5," #M "\n\tselgr %1,%4,%5," #M             \
                         "\n\tselfhr %2,%4,%5," #M)                                         \
                     : "+&d"(r1), "+&d"(r2), "+&d"(r3) : "d"(cc_word(cc)), "d"(a), "d"(b) : "cc"); \
    printf("sel %d cc %u %016llx %016llx %016llx\n", M, cc, (unsigned long long)r1,         \
           (unsigned long long)r2, (unsigned long long)r3);                                 \
  }

static void population_count(void) {
  for (unsigned i = 0; i < N; ++i) {
    uint64_t v = operand(i), whole = 1, bytes = 1;
    unsigned cw, cb;
    __asm__ volatile(Z15("popcnt %0,%2,8\n\t" IPM("%1")) : "=&d"(whole), "=d"(cw) : "d"(v) : "cc");
    __asm__ volatile(Z15("popcnt %0,%2,0\n\t" IPM("%1")) : "=&d"(bytes), "=d"(cb) : "d"(v) : "cc");
    printf("popcnt %016llx %llu %u bytes %016llx %u\n", (unsigned long long)v, (unsigned long long)whole, cw,
           (unsigned long long)bytes, cb);
  }
}

static uint8_t buf[1024];
static void fill(void) {
  for (unsigned k = 0; k < sizeof buf; ++k) buf[k] = (uint8_t)(k * 7 + 3);
}
static uint64_t digest(void) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned k = 0; k < sizeof buf; ++k) h = (h ^ buf[k]) * 0x100000001b3ull;
  return h;
}
/* Bits 0-55 of register 0 are zero here: QEMU 7.2 takes the whole register as the
   length (general_mvcrl_r0.c checks that they are ignored). */
static void mvcrl(uint8_t *d, const uint8_t *s, unsigned len) {
  uint64_t r0 = len - 1;
  __asm__ volatile(Z15("lgr %%r0,%2\n\tmvcrl 0(%0),0(%1)") : : "a"(d), "a"(s), "d"(r0) : "r0", "memory");
}
static void move_right_to_left(void) {
  static const unsigned lens[] = {1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 100, 255, 256};
  static const int shifts[] = {-9, -3, -1, 0, 1, 3, 9, 300};
  for (unsigned l = 0; l < sizeof lens / sizeof lens[0]; ++l)
    for (unsigned s = 0; s < sizeof shifts / sizeof shifts[0]; ++s) {
      fill();
      mvcrl(buf + 400 + shifts[s], buf + 400, lens[l]);
      printf("mvcrl len %u shift %d %016llx", lens[l], shifts[s], (unsigned long long)digest());
      for (int k = -2; k < 6; ++k) printf(" %02x", buf[400 + shifts[s] + k]);
      printf("\n");
    }
}

int main(void) {
  logical();
  MASKS(SELECT)
  population_count();
  move_right_to_left();
  return 0;
}
