/* Miscellaneous-instruction-extensions facility 2 (z14): AGH, SGH, MGH, MG, MGRK,
   the multiplies that set the CC (MSC, MSRKC, MSGC, MSGRKC: CC 3 and the truncated
   product on overflow) and BRANCH INDIRECT ON CONDITION, every mask with every CC.
   Edge values (the extremes whose products and sums overflow) then random ones; each
   result and CC on its own line. */
#include "general.h"

#define N 40

static void add_sub_halfword(void) {
  static int16_t h;
  for (unsigned i = 0; i < N; ++i)
    for (unsigned j = 0; j < 8; ++j) {
      uint64_t a = operand(i), s = a, m = a;
      h = (int16_t)(j < 4 ? (int16_t[]){0, 1, -1, -32768}[j] : (int16_t)rnd64());
      unsigned ca, cs;
      __asm__ volatile(Z15("agh %0,%2\n\t" IPM("%1")) : "+d"(a), "=d"(ca) : "T"(h) : "cc");
      __asm__ volatile(Z15("sgh %0,%2\n\t" IPM("%1")) : "+d"(s), "=d"(cs) : "T"(h) : "cc");
      __asm__ volatile(Z15("mgh %0,%1") : "+d"(m) : "T"(h));
      printf("agh %016llx %d cc %u | sgh %016llx cc %u | mgh %016llx\n", (unsigned long long)a, h, ca,
             (unsigned long long)s, cs, (unsigned long long)m);
    }
}

static void multiply_128(void) {
  static uint64_t mem;
  for (unsigned i = 0; i < N; ++i)
    for (unsigned j = 0; j < N; j += 3) {
      uint64_t a = operand(i), b = operand(j), hi, lo, hi2, lo2;
      mem = b;
      __asm__ volatile(Z15("lgr %%r1,%2\n\tmg %%r0,%3\n\tlgr %0,%%r0\n\tlgr %1,%%r1")
                       : "=d"(hi), "=d"(lo) : "d"(a), "T"(mem) : "r0", "r1");
      __asm__ volatile(Z15("mgrk %%r0,%2,%3\n\tlgr %0,%%r0\n\tlgr %1,%%r1")
                       : "=d"(hi2), "=d"(lo2) : "d"(a), "d"(b) : "r0", "r1");
      printf("mg %016llx*%016llx = %016llx%016llx | mgrk %016llx%016llx\n", (unsigned long long)a,
             (unsigned long long)b, (unsigned long long)hi, (unsigned long long)lo, (unsigned long long)hi2,
             (unsigned long long)lo2);
    }
  /* MGRK with R1 = R2: the operands are read before the pair is written. */
  uint64_t hi = 0, lo = 0;
  __asm__ volatile(Z15("lghi %%r0,-7\n\tlghi %%r1,9\n\tmgrk %%r0,%%r0,%%r1\n\tlgr %0,%%r0\n\tlgr %1,%%r1")
                   : "=d"(hi), "=d"(lo) : : "r0", "r1");
  printf("mgrk r0,r0,r1 %016llx%016llx\n", (unsigned long long)hi, (unsigned long long)lo);
}

static void multiply_cc(void) {
  static uint32_t w;
  static uint64_t g;
  for (unsigned i = 0; i < N; ++i)
    for (unsigned j = 0; j < N; ++j) {
      uint64_t a = operand(i), b = operand(j);
      uint64_t r1 = a, r2 = a, r3 = a, r4 = 0x5555555555555555ull;
      unsigned c1, c2, c3, c4;
      w = (uint32_t)b, g = b;
      __asm__ volatile(Z15("msc %0,%2\n\t" IPM("%1")) : "+d"(r1), "=d"(c1) : "T"(w) : "cc");
      __asm__ volatile(Z15("msrkc %0,%2,%3\n\t" IPM("%1")) : "+d"(r4), "=d"(c2) : "d"(a), "d"(b) : "cc");
      __asm__ volatile(Z15("msgc %0,%2\n\t" IPM("%1")) : "+d"(r2), "=d"(c3) : "T"(g) : "cc");
      __asm__ volatile(Z15("msgrkc %0,%2,%3\n\t" IPM("%1")) : "=&d"(r3), "=d"(c4) : "d"(a), "d"(b) : "cc");
      printf("msc %016llx %u msrkc %016llx %u msgc %016llx %u msgrkc %016llx %u\n", (unsigned long long)r1, c1,
             (unsigned long long)r4, c2, (unsigned long long)r2, c3, (unsigned long long)r3, c4);
    }
}

/* BIC M: taken (1) or not (0) for each CC. */
static uint64_t target;
#define BIC(M)                                                                             \
  for (unsigned cc = 0; cc < 4; ++cc) {                                                    \
    unsigned taken;                                                                        \
    __asm__ volatile(Z15("larl %%r1,1f\n\tstg %%r1,%2\n\tlhi %0,0\n\tspm %1\n\tbic " #M    \
                         ",%2\n\tj 2f\n1:\tlhi %0,1\n2:")                                  \
                     : "=&d"(taken) : "d"(cc_word(cc)), "T"(target) : "r1", "cc", "memory"); \
    printf("bic %d cc %u taken %u\n", M, cc, taken);                                       \
  }

int main(void) {
  add_sub_halfword();
  multiply_128();
  multiply_cc();
  MASKS(BIC)
  return 0;
}
