/* Load/store-on-condition facility 2 (z13): LOCHI, LOCGHI, LOCHHI, LOCFHR, LOCFH and
   STOCFH under every mask with every CC; load-and-zero-rightmost-byte (LZRF, LZRG,
   LLZRGF); and LOAD LENGTHENED (LDE, HFP short to long), which GCC uses to load a
   float into a whole floating-point register. */
#include "general.h"

static uint64_t mem[2];

#define LOC(M)                                                                              \
  for (unsigned cc = 0; cc < 4; ++cc) {                                                     \
    uint64_t r1 = rnd64(), r2 = r1, r3 = r1, r4 = r1, r5 = r1, src = rnd64();               \
    mem[0] = rnd64(), mem[1] = rnd64();                                                     \
    __asm__ volatile(Z15("spm %5\n\tlochi %0,-2," #M "\n\tlocghi %1,-32768," #M            \
                         "\n\tlochhi %2,32767," #M "\n\tlocfhr %3,%6," #M                  \
                         "\n\tlocfh %4,0(%7)," #M "\n\tstocfh %6,8(%7)," #M)                 \
                     : "+&d"(r1), "+&d"(r2), "+&d"(r3), "+&d"(r4), "+&d"(r5)                 \
                     : "d"(cc_word(cc)), "d"(src), "a"(mem) : "cc", "memory");              \
    printf("loc %2d cc %u %016llx %016llx %016llx %016llx %016llx %016llx\n", M, cc,        \
           (unsigned long long)r1, (unsigned long long)r2, (unsigned long long)r3,          \
           (unsigned long long)r4, (unsigned long long)r5, (unsigned long long)mem[1]);     \
  }

static void zero_rightmost(void) {
  static uint32_t w;
  for (unsigned k = 0; k < 24; ++k) {
    mem[0] = operand(k), w = (uint32_t)(mem[0] >> 8);
    uint64_t f = 0x1111111111111111ull, g = f, l = f;
    __asm__ volatile(Z15("lzrf %0,%3\n\tlzrg %1,%4\n\tllzrgf %2,%3")
                     : "+d"(f), "+d"(g), "+d"(l) : "T"(w), "T"(mem[0]));
    printf("lzr %016llx %016llx %016llx %016llx\n", (unsigned long long)mem[0], (unsigned long long)f,
           (unsigned long long)g, (unsigned long long)l);
  }
}

static void load_lengthened(void) {
  static uint32_t s;
  for (unsigned k = 0; k < 24; ++k) {
    s = (uint32_t)operand(k);
    uint64_t r, junk = rnd64();
    __asm__ volatile(Z15("ldgr %%f0,%2\n\tlde %%f0,%1\n\tlgdr %0,%%f0") : "=d"(r) : "R"(s), "d"(junk) : "f0");
    printf("lde %08x %016llx\n", s, (unsigned long long)r);
  }
  /* As GCC uses it: a float through a long FPR. */
  volatile float f = 1.5f;
  double d = f;
  printf("float %llx\n", (unsigned long long)(int64_t)(d * 4));
}

int main(void) {
  MASKS(LOC)
  zero_rightmost();
  load_lengthened();
  return 0;
}
