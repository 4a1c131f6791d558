/* Storage instructions GCC rarely or never emits, by inline assembly: MVCL and
   MVCLE (padding, destructive overlap gives CC 3 and moves nothing), CLCL and CLCLE
   (padding compares), MVST, CLST and SRST with the terminator in r0, TR and TRT,
   MVN and MVZ, NC/OC/XC on storage, CS/CSY/CDS/CDSY, the interlocked-access
   LAA/LAAG/LAAL/LAALG/LAN/LANG/LAO/LAOG/LAX/LAXG (z196), LM/STM/LMY/STMY/LMH,
   ICM/ICMY/ICMH and STCM/STCMY/STCMH with every mask, CLM/CLMY/CLMH,
   STRV/STRVH, TM/TMY and NI/OI/XI/NIY/OIY/XIY, and the relative-long loads and
   compares on data placed by the assembler.
   STMH is not here: QEMU 7.2 stores zeros for it (op_stmh shifts the register left
   by 32 before a 32-bit store; the PoO stores bits 0-31), so it is checked against
   a hard-coded expectation in poo_edges.c instead. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t fnv(const void *p, size_t n) {
  const unsigned char *b = p;
  uint32_t h = 2166136261u;
  while (n--) h = (h ^ *b++) * 16777619u;
  return h;
}
#define GETCC(c) __asm__ volatile("ipm %0\n\tsrl %0,28" : "=d"(c) : : "cc")

/* Relative-long data, halfword aligned as the instructions require. */
__asm__(".section .data\n"
        ".balign 8\n"
        "rl_d: .quad 0x8000000000000001\n"
        "rl_w: .long 0xfffffffe\n"
        "rl_h: .short 0x8001\n"
        "rl_h2: .short 0x7ffe\n"
        ".previous");

static void mvcl_case(unsigned char *base, long dst, long dlen, long src, long slen, unsigned pad) {
  register uint64_t r2 __asm__("r2") = (uint64_t)(base + dst);
  register uint64_t r3 __asm__("r3") = (uint64_t)dlen;
  register uint64_t r4 __asm__("r4") = (uint64_t)(base + src);
  register uint64_t r5 __asm__("r5") = (uint64_t)slen | (uint64_t)pad << 24;
  unsigned cc;
  __asm__ volatile("mvcl %0,%2\n\tipm %4\n\tsrl %4,28" : "+d"(r2), "+d"(r3), "+d"(r4), "+d"(r5), "=d"(cc) : : "cc", "memory");
  printf("mvcl d=%ld/%ld s=%ld/%ld pad=%02x: cc=%u left d=%lu s=%lu moved=%ld/%ld h=%08x\n", dst, dlen, src, slen, pad,
         cc, (unsigned long)(r3 & 0xffffff), (unsigned long)(r5 & 0xffffff), (long)((unsigned char *)r2 - base),
         (long)((unsigned char *)r4 - base), fnv(base, 128));
}

int main(void) {
  static unsigned char buf[256];
  for (int i = 0; i < 256; ++i) buf[i] = (unsigned char)i;
  /* MVCL: shorter source padded; longer source truncated; overlap cases */
  mvcl_case(buf, 0, 20, 100, 5, 0xee);
  mvcl_case(buf, 30, 5, 120, 50, 0x00);
  mvcl_case(buf, 10, 30, 0, 30, 0x11);  /* destructive overlap: cc 3, nothing moved */
  mvcl_case(buf, 0, 30, 10, 30, 0x22);  /* source above destination: allowed */
  mvcl_case(buf, 50, 0, 0, 10, 0x33);   /* zero-length destination */
  mvcl_case(buf, 60, 10, 0, 0, 0x44);   /* zero-length source: pure padding */
  /* MVCLE: pad byte from the second-operand address, lengths 64-bit */
  {
    unsigned char d[40], s[16];
    memset(d, '.', sizeof d);
    memcpy(s, "MVCLE-source!!!!", 16);
    register uint64_t r2 __asm__("r2") = (uint64_t)d, r3 __asm__("r3") = 40;
    register uint64_t r4 __asm__("r4") = (uint64_t)s, r5 __asm__("r5") = 13;
    unsigned cc;
    do {
      __asm__ volatile("mvcle %0,%2,0x2a\n\tipm %4\n\tsrl %4,28" : "+d"(r2), "+d"(r3), "+d"(r4), "+d"(r5), "=d"(cc) : : "cc", "memory");
    } while (cc == 3);
    printf("mvcle cc=%u left %lu %lu: %.40s\n", cc, (unsigned long)r3, (unsigned long)r5, (const char *)d);
  }
  /* CLCL / CLCLE with padding */
  {
    static const char *pairs[][2] = {{"abc", "abc"}, {"abc", "abd"}, {"abc", "ab"}, {"ab  ", "ab"},
                                     {"ab", "ab\x01"}, {"", ""}, {"\xff", "\x01"}};
    for (unsigned i = 0; i < 7; ++i) {
      size_t l1 = strlen(pairs[i][0]), l2 = strlen(pairs[i][1]);
      register uint64_t r2 __asm__("r2") = (uint64_t)pairs[i][0], r3 __asm__("r3") = l1;
      register uint64_t r4 __asm__("r4") = (uint64_t)pairs[i][1], r5 __asm__("r5") = l2 | (uint64_t)' ' << 24;
      unsigned cc, cc2;
      __asm__ volatile("clcl %0,%2\n\tipm %4\n\tsrl %4,28" : "+d"(r2), "+d"(r3), "+d"(r4), "+d"(r5), "=d"(cc) : : "cc");
      long off = (long)((const char *)r2 - pairs[i][0]);
      r2 = (uint64_t)pairs[i][0], r3 = l1, r4 = (uint64_t)pairs[i][1], r5 = l2;
      do {
        __asm__ volatile("clcle %0,%2,0x20\n\tipm %4\n\tsrl %4,28" : "+d"(r2), "+d"(r3), "+d"(r4), "+d"(r5), "=d"(cc2) : : "cc");
      } while (cc2 == 3);
      printf("clcl \"%s\" \"%s\": cc=%u at %ld, clcle cc=%u left %lu %lu\n", pairs[i][0], pairs[i][1], cc, off, cc2,
             (unsigned long)r3, (unsigned long)r5);
    }
  }
  /* MVST / CLST / SRST with the ending character in r0 */
  {
    char dst[32];
    memset(dst, '#', sizeof dst);
    const char *src = "copy until semicolon; not this";
    register uint64_t r0 __asm__("r0") = ';';
    register uint64_t r2 __asm__("r2") = (uint64_t)dst, r3 __asm__("r3") = (uint64_t)src;
    unsigned cc;
    do {
      __asm__ volatile("mvst %1,%2\n\tipm %3\n\tsrl %3,28" : "+d"(r0), "+d"(r2), "+d"(r3), "=d"(cc) : : "cc", "memory");
    } while (cc == 3);
    printf("mvst cc=%u end=%ld: %.32s\n", cc, (long)((char *)r2 - dst), dst);
    static const char *a[] = {"alpha.", "alpha.", "alphb.", "alp.", "."};
    static const char *b[] = {"alpha.", "alphaz.", "alpha.", "alpha.", "."};
    for (int i = 0; i < 5; ++i) {
      r0 = '.';
      r2 = (uint64_t)a[i], r3 = (uint64_t)b[i];
      do {
        __asm__ volatile("clst %1,%2\n\tipm %3\n\tsrl %3,28" : "+d"(r0), "+d"(r2), "+d"(r3), "=d"(cc) : : "cc");
      } while (cc == 3);
      printf("clst %s %s: cc=%u at %ld/%ld\n", a[i], b[i], cc, (long)((const char *)r2 - a[i]), (long)((const char *)r3 - b[i]));
    }
    const char *hay = "find the letter q in here";
    const char *hay_end = hay + strlen(hay); /* before r0 is set: a call may clobber it */
    static const char targets[] = {'q', 'f', 'e', 'z'};
    for (int i = 0; i < 4; ++i) {
      r0 = (unsigned char)targets[i];
      r2 = (uint64_t)hay_end;
      r3 = (uint64_t)hay;
      do {
        __asm__ volatile("srst %1,%2\n\tipm %3\n\tsrl %3,28" : "+d"(r0), "+d"(r2), "+d"(r3), "=d"(cc) : : "cc");
      } while (cc == 3);
      printf("srst '%c': cc=%u pos=%ld\n", targets[i], cc, cc == 1 ? (long)((const char *)r2 - hay) : -1L);
    }
  }
  /* TR and TRT */
  {
    unsigned char table[256], text[32];
    for (int i = 0; i < 256; ++i) table[i] = (unsigned char)(i >= 'a' && i <= 'z' ? i - 32 : i);
    memcpy(text, "translate me, please: xyz 123!!", 32);
    __asm__ volatile("tr 0(31,%0),0(%1)" : : "a"(text), "a"(table) : "memory");
    printf("tr: %.31s\n", (const char *)text);
    unsigned char ftab[256];
    memset(ftab, 0, sizeof ftab);
    ftab[','] = 1, ftab['!'] = 2, ftab['1'] = 3;
    register uint64_t r1 __asm__("r1") = 0xdead;
    register uint64_t r2 __asm__("r2") = 0xffffffffffffff00ULL;
    unsigned cc;
    __asm__ volatile("trt 0(31,%3),0(%4)\n\tipm %2\n\tsrl %2,28" : "+d"(r1), "+d"(r2), "=d"(cc) : "a"(text), "a"(ftab) : "cc");
    printf("trt cc=%u at %ld fn=%llx\n", cc, (long)((unsigned char *)r1 - text), (unsigned long long)r2);
    memset(ftab, 0, sizeof ftab);
    r1 = 0xdead, r2 = 0x55;
    __asm__ volatile("trt 0(31,%3),0(%4)\n\tipm %2\n\tsrl %2,28" : "+d"(r1), "+d"(r2), "=d"(cc) : "a"(text), "a"(ftab) : "cc");
    printf("trt none cc=%u r1=%llx r2=%llx\n", cc, (unsigned long long)r1, (unsigned long long)r2);
  }
  /* MVN, MVZ, NC, OC, XC on storage (including overlapping XC to zero) */
  {
    unsigned char a[16], b[16];
    for (int i = 0; i < 16; ++i) a[i] = (unsigned char)(0x5a + i * 17), b[i] = (unsigned char)(0xc3 ^ i * 29);
    __asm__ volatile("mvn 0(8,%0),0(%1)" : : "a"(a), "a"(b) : "memory");
    __asm__ volatile("mvz 8(8,%0),8(%1)" : : "a"(a), "a"(b) : "memory");
    uint32_t h1 = fnv(a, 16);
    unsigned cc1, cc2, cc3, cc4;
    __asm__ volatile("nc 0(16,%1),0(%2)\n\tipm %0\n\tsrl %0,28" : "=d"(cc1) : "a"(a), "a"(b) : "cc", "memory");
    uint32_t h2 = fnv(a, 16);
    __asm__ volatile("oc 0(16,%1),0(%2)\n\tipm %0\n\tsrl %0,28" : "=d"(cc2) : "a"(a), "a"(b) : "cc", "memory");
    uint32_t h3 = fnv(a, 16);
    __asm__ volatile("xc 0(15,%1),1(%1)\n\tipm %0\n\tsrl %0,28" : "=d"(cc3) : "a"(a) : "cc", "memory");
    uint32_t h4 = fnv(a, 16);
    __asm__ volatile("xc 0(16,%1),0(%1)\n\tipm %0\n\tsrl %0,28" : "=d"(cc4) : "a"(b) : "cc", "memory");
    printf("mvn/mvz %08x nc %08x cc%u oc %08x cc%u xc-shift %08x cc%u xc-self %08x cc%u\n", h1, h2, cc1, h3, cc2, h4, cc3,
           fnv(b, 16), cc4);
  }
  /* compare and swap family */
  {
    static uint32_t w = 100;
    static uint64_t pair[2] __attribute__((aligned(16))) = {1, 2};
    static uint32_t wpair[2] __attribute__((aligned(8))) = {3, 4};
    uint64_t old = 99;
    unsigned cc;
    __asm__ volatile("cs %0,%3,%1\n\tipm %2\n\tsrl %2,28" : "+d"(old), "+Q"(w), "=d"(cc) : "d"(200ULL) : "cc");
    printf("cs fail cc=%u old=%llu w=%u\n", cc, (unsigned long long)old, w);
    __asm__ volatile("csy %0,%3,%1\n\tipm %2\n\tsrl %2,28" : "+d"(old), "+S"(w), "=d"(cc) : "d"(0xffffffffULL) : "cc");
    printf("csy ok cc=%u old=%llu w=%u\n", cc, (unsigned long long)old, w);
    register uint64_t e0 __asm__("r2") = 3, e1 __asm__("r3") = 4;
    register uint64_t n0 __asm__("r4") = 30, n1 __asm__("r5") = 40;
    __asm__ volatile("cds %0,%4,%2\n\tipm %1\n\tsrl %1,28" : "+d"(e0), "=d"(cc), "+Q"(wpair), "+d"(e1) : "d"(n0), "d"(n1) : "cc");
    printf("cds cc=%u pair=%u,%u\n", cc, wpair[0], wpair[1]);
    e0 = 3, e1 = 4;
    __asm__ volatile("cdsy %0,%4,%2\n\tipm %1\n\tsrl %1,28" : "+d"(e0), "=d"(cc), "+S"(wpair), "+d"(e1) : "d"(n0), "d"(n1) : "cc");
    printf("cdsy fail cc=%u got=%llu,%llu\n", cc, (unsigned long long)e0, (unsigned long long)e1);
    e0 = 1, e1 = 2, n0 = 0x1111, n1 = 0x2222;
    __asm__ volatile("cdsg %0,%4,%2\n\tipm %1\n\tsrl %1,28" : "+d"(e0), "=d"(cc), "+S"(pair), "+d"(e1) : "d"(n0), "d"(n1) : "cc");
    printf("cdsg cc=%u pair=%llx,%llx\n", cc, (unsigned long long)pair[0], (unsigned long long)pair[1]);
  }
  /* interlocked access: load and add/and/or/xor, logical forms */
  {
    static int32_t iw = 0x7ffffffe;
    static int64_t ig = -5;
    static uint32_t uw = 0xfffffffe;
    static uint64_t ug = 0xfffffffffffffffeULL;
    struct {
      const char *n;
      uint64_t old, val;
      unsigned cc;
    } r[12];
    int k = 0;
#define LA(ins, mem, cons, v)                                                                     \
  do {                                                                                            \
    uint64_t o;                                                                                   \
    __asm__ volatile(".machine push\n\t.machine z196\n\t" ins " %0,%3,%1\n\t.machine pop\n\tipm %2\n\tsrl %2,28" \
                     : "=d"(o), cons(mem), "=d"(r[k].cc)                                          \
                     : "d"((uint64_t)(v))                                                         \
                     : "cc");                                                                     \
    r[k].n = ins, r[k].old = o, r[k].val = (uint64_t)(mem), ++k;                                  \
  } while (0)
    LA("laa", iw, "+S", 1);
    LA("laa", iw, "+S", 1);
    LA("laag", ig, "+S", 5);
    LA("laag", ig, "+S", 0x8000000000000000ULL);
    LA("laal", uw, "+S", 1);
    LA("laal", uw, "+S", 1);
    LA("laalg", ug, "+S", 2);
    LA("lan", uw, "+S", 0xf0f0f0f0);
    LA("lang", ug, "+S", 0);
    LA("lao", uw, "+S", 0x0f0f0f0f);
    LA("laog", ug, "+S", 0x8000000000000000ULL);
    LA("lax", uw, "+S", 0xffffffff);
    for (int i = 0; i < k; ++i)
      printf("%-5s old=%016llx new=%016llx cc=%u\n", r[i].n, (unsigned long long)r[i].old, (unsigned long long)r[i].val,
             r[i].cc);
    uint64_t o;
    unsigned cc;
    __asm__ volatile(".machine push\n\t.machine z196\n\tlaxg %0,%3,%1\n\t.machine pop\n\tipm %2\n\tsrl %2,28"
                     : "=d"(o), "+S"(ug), "=d"(cc) : "d"(ug) : "cc");
    printf("laxg self old=%016llx new=%016llx cc=%u\n", (unsigned long long)o, (unsigned long long)ug, cc);
  }
  /* load/store multiple */
  {
    static uint32_t w[6] = {0x11111111, 0x22222222, 0x33333333, 0x44444444, 0x55555555, 0x66666666};
    static uint32_t out[6];
    register uint64_t r6 __asm__("r6") = 0xaaaaaaaa00000000ULL, r7 __asm__("r7") = 0xbbbbbbbb00000000ULL;
    register uint64_t r8 __asm__("r8") = 0xcccccccc00000000ULL;
    __asm__ volatile("lm %0,%2,%3" : "+d"(r6), "+d"(r7), "+d"(r8) : "Q"(w));
    printf("lm %016llx %016llx %016llx\n", (unsigned long long)r6, (unsigned long long)r7, (unsigned long long)r8);
    __asm__ volatile("lmy %0,%2,%3" : "+d"(r6), "+d"(r7), "+d"(r8) : "S"(w[3]));
    printf("lmy %016llx %016llx %016llx\n", (unsigned long long)r6, (unsigned long long)r7, (unsigned long long)r8);
    __asm__ volatile("lmh %0,%2,%3" : "+d"(r6), "+d"(r7), "+d"(r8) : "S"(w));
    printf("lmh %016llx %016llx %016llx\n", (unsigned long long)r6, (unsigned long long)r7, (unsigned long long)r8);
    __asm__ volatile("stm %1,%3,%0" : "=Q"(out) : "d"(r6), "d"(r7), "d"(r8));
    printf("stm %08x %08x %08x\n", out[0], out[1], out[2]);
    /* STMH is left to poo_edges.c: QEMU 7.2 stores zeros (it shifts left, not right) */
    __asm__ volatile("stmy %1,%2,%0" : "=S"(out[1]) : "d"(r7), "d"(r8));
    printf("stmy %08x %08x\n", out[1], out[2]);
  }
  /* insert / store characters under mask; compare logical characters under mask */
  {
    static const unsigned char src[4] = {0x80, 0x01, 0xff, 0x00};
    unsigned char dst[4];
    uint64_t h = 0;
    unsigned cch[4] = {0};
    for (unsigned mask = 0; mask < 16; ++mask) {
      uint64_t r = 0x0123456789abcdefULL;
      unsigned cc;
      switch (mask) { /* the mask is an immediate: one asm per value */
#define ICMCASE(M)                                                                                          \
  case M:                                                                                                   \
    __asm__ volatile("icm %0," #M ",%2\n\tipm %1\n\tsrl %1,28" : "+d"(r), "=d"(cc) : "Q"(src) : "cc");      \
    h = h * 31 + r + cc, cch[cc]++;                                                                         \
    r = 0x0123456789abcdefULL;                                                                              \
    __asm__ volatile("icmh %0," #M ",%2\n\tipm %1\n\tsrl %1,28" : "+d"(r), "=d"(cc) : "S"(src) : "cc");     \
    h = h * 31 + r + cc, cch[cc]++;                                                                         \
    r = 0xfedcba9876543210ULL;                                                                              \
    __asm__ volatile("icmy %0," #M ",%2\n\tipm %1\n\tsrl %1,28" : "+d"(r), "=d"(cc) : "S"(src[1]) : "cc");  \
    h = h * 31 + r + cc, cch[cc]++;                                                                         \
    memset(dst, 0x5e, 4);                                                                                   \
    __asm__ volatile("stcm %1," #M ",%0" : "=Q"(dst) : "d"(0x0123456789abcdefULL));                        \
    h = h * 31 + fnv(dst, 4);                                                                               \
    memset(dst, 0x5e, 4);                                                                                   \
    __asm__ volatile("stcmh %1," #M ",%0" : "=S"(dst) : "d"(0x0123456789abcdefULL));                       \
    h = h * 31 + fnv(dst, 4);                                                                               \
    memset(dst, 0x5e, 4);                                                                                   \
    __asm__ volatile("stcmy %1," #M ",%0" : "=S"(dst) : "d"(0x0123456789abcdefULL));                       \
    h = h * 31 + fnv(dst, 4);                                                                               \
    __asm__ volatile("clm %1," #M ",%2\n\tipm %0\n\tsrl %0,28" : "=d"(cc) : "d"(0xff80ff01ULL), "Q"(src) : "cc"); \
    h = h * 31 + cc, cch[cc]++;                                                                             \
    __asm__ volatile("clmy %1," #M ",%2\n\tipm %0\n\tsrl %0,28" : "=d"(cc) : "d"(0x80000000ULL), "S"(src) : "cc"); \
    h = h * 31 + cc, cch[cc]++;                                                                             \
    __asm__ volatile("clmh %1," #M ",%2\n\tipm %0\n\tsrl %0,28" : "=d"(cc) : "d"(0x8001ff0000000000ULL), "S"(src) : "cc"); \
    h = h * 31 + cc, cch[cc]++;                                                                             \
    break;
        ICMCASE(0) ICMCASE(1) ICMCASE(2) ICMCASE(3) ICMCASE(4) ICMCASE(5) ICMCASE(6) ICMCASE(7)
        ICMCASE(8) ICMCASE(9) ICMCASE(10) ICMCASE(11) ICMCASE(12) ICMCASE(13) ICMCASE(14) ICMCASE(15)
      }
      if (mask % 5 == 0) printf("mask %2u: h=%016llx\n", mask, (unsigned long long)h);
    }
    printf("under-mask hash %016llx cc %u/%u/%u/%u\n", (unsigned long long)h, cch[0], cch[1], cch[2], cch[3]);
  }
  /* store reversed */
  {
    uint16_t hw;
    uint32_t wd;
    uint64_t dw;
    __asm__ volatile("strvh %1,%0" : "=T"(hw) : "d"(0x1122334455667788ULL));
    __asm__ volatile("strv %1,%0" : "=T"(wd) : "d"(0x1122334455667788ULL));
    __asm__ volatile("strvg %1,%0" : "=T"(dw) : "d"(0x1122334455667788ULL));
    printf("strvh %04x strv %08x strvg %016llx\n", hw, wd, (unsigned long long)dw);
  }
  /* test under mask and storage immediates */
  {
    unsigned char b[4] = {0x00, 0xff, 0x5a, 0x80};
    unsigned ccs[8];
    __asm__ volatile("tm %1,0xff\n\tipm %0\n\tsrl %0,28" : "=d"(ccs[0]) : "Q"(b[0]) : "cc");
    __asm__ volatile("tm %1,0xff\n\tipm %0\n\tsrl %0,28" : "=d"(ccs[1]) : "Q"(b[1]) : "cc");
    __asm__ volatile("tm %1,0x0f\n\tipm %0\n\tsrl %0,28" : "=d"(ccs[2]) : "Q"(b[2]) : "cc");
    __asm__ volatile("tmy %1,0x81\n\tipm %0\n\tsrl %0,28" : "=d"(ccs[3]) : "S"(b[3]) : "cc");
    __asm__ volatile("tm %1,0\n\tipm %0\n\tsrl %0,28" : "=d"(ccs[4]) : "Q"(b[1]) : "cc");
    __asm__ volatile("ni %1,0x0f\n\tipm %0\n\tsrl %0,28" : "=d"(ccs[5]), "+Q"(b[1]) : : "cc");
    __asm__ volatile("oi %1,0x01\n\tipm %0\n\tsrl %0,28" : "=d"(ccs[6]), "+Q"(b[0]) : : "cc");
    __asm__ volatile("xi %1,0x5a\n\tipm %0\n\tsrl %0,28" : "=d"(ccs[7]), "+Q"(b[2]) : : "cc");
    printf("tm %u %u %u %u %u ni/oi/xi %u %u %u -> %02x %02x %02x %02x\n", ccs[0], ccs[1], ccs[2], ccs[3], ccs[4],
           ccs[5], ccs[6], ccs[7], b[0], b[1], b[2], b[3]);
    __asm__ volatile("niy %1,0xf0\n\tipm %0\n\tsrl %0,28" : "=d"(ccs[0]), "+S"(b[1]) : : "cc");
    __asm__ volatile("oiy %1,0x80\n\tipm %0\n\tsrl %0,28" : "=d"(ccs[1]), "+S"(b[2]) : : "cc");
    __asm__ volatile("xiy %1,0x80\n\tipm %0\n\tsrl %0,28" : "=d"(ccs[2]), "+S"(b[3]) : : "cc");
    printf("niy/oiy/xiy %u %u %u -> %02x %02x %02x %02x\n", ccs[0], ccs[1], ccs[2], b[0], b[1], b[2], b[3]);
  }
  /* relative-long loads and compares */
  {
    uint64_t v[6];
    __asm__ volatile("lgrl %0,rl_d" : "=d"(v[0]));
    __asm__ volatile("lgfrl %0,rl_w" : "=d"(v[1]));
    __asm__ volatile("llgfrl %0,rl_w" : "=d"(v[2]));
    __asm__ volatile("lghrl %0,rl_h" : "=d"(v[3]));
    __asm__ volatile("llhrl %0,rl_h" : "=d"(v[4]));
    v[5] = 0x1234567800000000ULL;
    __asm__ volatile("lhrl %0,rl_h" : "+d"(v[5]));
    for (int i = 0; i < 6; ++i) printf("%016llx ", (unsigned long long)v[i]);
    putchar('\n');
    static const int64_t probe[] = {-2, -32767, 32766, 0x7fffffff, (int64_t)0x8000000000000001ULL, 0xfffffffe};
    for (int i = 0; i < 6; ++i) {
      unsigned c[10];
      int64_t p = probe[i];
      __asm__ volatile("crl %1,rl_w\n\tipm %0\n\tsrl %0,28" : "=d"(c[0]) : "d"(p) : "cc");
      __asm__ volatile("cgrl %1,rl_d\n\tipm %0\n\tsrl %0,28" : "=d"(c[1]) : "d"(p) : "cc");
      __asm__ volatile("clrl %1,rl_w\n\tipm %0\n\tsrl %0,28" : "=d"(c[2]) : "d"(p) : "cc");
      __asm__ volatile("clgrl %1,rl_d\n\tipm %0\n\tsrl %0,28" : "=d"(c[3]) : "d"(p) : "cc");
      __asm__ volatile("cgfrl %1,rl_w\n\tipm %0\n\tsrl %0,28" : "=d"(c[4]) : "d"(p) : "cc");
      __asm__ volatile("clgfrl %1,rl_w\n\tipm %0\n\tsrl %0,28" : "=d"(c[5]) : "d"(p) : "cc");
      __asm__ volatile("clhrl %1,rl_h2\n\tipm %0\n\tsrl %0,28" : "=d"(c[6]) : "d"(p) : "cc");
      __asm__ volatile("clghrl %1,rl_h\n\tipm %0\n\tsrl %0,28" : "=d"(c[7]) : "d"(p) : "cc");
      __asm__ volatile("cghrl %1,rl_h2\n\tipm %0\n\tsrl %0,28" : "=d"(c[8]) : "d"(p) : "cc");
      __asm__ volatile("chrl %1,rl_h\n\tipm %0\n\tsrl %0,28" : "=d"(c[9]) : "d"(p) : "cc");
      printf("probe %lld: crl %u cgrl %u clrl %u clgrl %u cgfrl %u clgfrl %u clhrl %u clghrl %u cghrl %u chrl %u\n",
             (long long)p, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9]);
    }
  }
  return 0;
}
