/* Branches and miscellaneous instructions by inline assembly: branch on count
   (BCT, BCTR, BCTG, BCTGR), branch on index (BXH, BXLE, BXHG, BXLEG and the
   relative BRXH, BRXLE, BRXHG, BRXLG), BC with index registers, the linkage
   branches (BAL, BALR, BAS, BASR, BRAS) checked against LARL, compare and branch
   to an address in a register (CRB...CLGIB), compare and trap that does not trap,
   load/store on condition (z196), SPM/IPM, access registers (SAR/EAR), TAM and
   SAM64, the TOD clock (only monotonicity and CC are printed), floating-point
   register moves used on bit patterns (CPSDR, LCDFR, LNDFR, LPDFR, LZER, LZXR, LXR,
   LEY/STEY, STDY), RISBGN/RISBHG/RISBLG (z196), TEST DECIMAL, LCBB (z13), PFD/PFDRL, and
   EXECUTE of MVC, CLC, XC, TR, OI and AHI with lengths/masks supplied at run time. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define CCOF(c) "ipm " c "\n\tsrl " c ",28"

static uint32_t fnv(const void *p, size_t n) {
  const unsigned char *b = p;
  uint32_t h = 2166136261u;
  while (n--) h = (h ^ *b++) * 16777619u;
  return h;
}

__asm__(".section .text\n"
        ".balign 8\n"
        "ex_mvc: mvc 0(1,%r2),0(%r3)\n"
        "ex_clc: clc 0(1,%r2),0(%r3)\n"
        "ex_xc: xc 0(1,%r2),0(%r2)\n"
        "ex_tr: tr 0(1,%r2),0(%r3)\n"
        "ex_oi: oi 0(%r2),0\n"
        "ex_ahi: ahi %r4,7\n"
        ".previous\n"
        ".section .data\n.balign 8\npfd_target: .quad 0\n.previous");

int main(void) {
  /* branch on count */
  {
    uint64_t n = 10, s = 0, r;
    __asm__ volatile("0: agr %1,%0\n\tbrct %0,0b" : "+d"(n), "+d"(s));
    printf("brct sum %llu end %llu\n", (unsigned long long)s, (unsigned long long)n);
    uint64_t cnt = 0x1234567800000005ULL, s2 = 0;
    __asm__ volatile("larl %%r1,1f\n1: aghi %1,3\n\tbct %0,0(%%r1)" : "+d"(cnt), "+d"(s2) : : "r1");
    printf("bct count %016llx sum %llu\n", (unsigned long long)cnt, (unsigned long long)s2);
    cnt = 0x0000000100000000ULL, s2 = 0; /* BCTG sees the whole 64 bits */
    __asm__ volatile("larl %%r1,1f\n\tlghi %1,0\n1: aghi %1,1\n\tcghi %1,5\n\tje 2f\n\tbctg %0,0(%%r1)\n2:"
                     : "+d"(cnt), "+d"(s2) : : "r1", "cc");
    printf("bctg count %016llx iterations %llu\n", (unsigned long long)cnt, (unsigned long long)s2);
    r = 3;
    uint64_t target, loops = 0;
    __asm__ volatile("larl %1,1f\n1: aghi %2,1\n\tbctr %0,%1" : "+d"(r), "=&a"(target), "+d"(loops));
    printf("bctr loops %llu\n", (unsigned long long)loops);
    r = 4, loops = 0;
    __asm__ volatile("larl %1,1f\n1: aghi %2,1\n\tbctgr %0,%1" : "+d"(r), "=&a"(target), "+d"(loops));
    printf("bctgr loops %llu\n", (unsigned long long)loops);
    r = 7;
    __asm__ volatile("bctr %0,0" : "+d"(r)); /* R2 = 0: decrement, never branch */
    printf("bctr r2=0: %llu\n", (unsigned long long)r);
  }
  /* branch on index: r1 += r3; compare with r3|1 */
  {
    register uint64_t i __asm__("r2") = 0;
    register uint64_t inc __asm__("r4") = 3;
    register uint64_t lim __asm__("r5") = 20;
    uint64_t visits = 0;
    __asm__ volatile("0: aghi %0,1\n\tbrxle %1,%2,0b" : "+d"(visits), "+d"(i) : "d"(inc), "d"(lim));
    printf("brxle visits %llu i %llu\n", (unsigned long long)visits, (unsigned long long)i);
    i = 100, inc = (uint64_t)-7, lim = 50, visits = 0;
    __asm__ volatile("0: aghi %0,1\n\tbrxh %1,%2,0b" : "+d"(visits), "+d"(i) : "d"(inc), "d"(lim));
    printf("brxh visits %llu i %lld\n", (unsigned long long)visits, (long long)i);
    i = 0xffffffff00000000ULL, inc = 0x100000000ULL, lim = 0x500000000ULL, visits = 0;
    __asm__ volatile("0: aghi %0,1\n\tbrxlg %1,%2,0b" : "+d"(visits), "+d"(i) : "d"(inc), "d"(lim));
    printf("brxlg visits %llu i %016llx\n", (unsigned long long)visits, (unsigned long long)i);
    i = 10, inc = (uint64_t)-1, lim = 0, visits = 0;
    __asm__ volatile("0: aghi %0,1\n\tbrxhg %1,%2,0b" : "+d"(visits), "+d"(i) : "d"(inc), "d"(lim));
    printf("brxhg visits %llu i %lld\n", (unsigned long long)visits, (long long)i);
    /* the same with BXLE/BXH/BXLEG/BXHG through a base register; the odd register
       as both increment and limit (r3 odd: compare value is r3 itself) */
    uint64_t t;
    i = 0, inc = 2, lim = 9, visits = 0;
    __asm__ volatile("larl %2,1f\n1: aghi %0,1\n\tbxle %1,%3,0(%2)" : "+d"(visits), "+d"(i), "=&a"(t) : "d"(inc), "d"(lim));
    printf("bxle visits %llu i %llu\n", (unsigned long long)visits, (unsigned long long)i);
    i = 0x80000000ULL + 5, inc = (uint64_t)-2, lim = 0, visits = 0; /* 32-bit: i is negative */
    __asm__ volatile("larl %2,1f\n1: aghi %0,1\n\tbxh %1,%3,0(%2)" : "+d"(visits), "+d"(i), "=&a"(t) : "d"(inc), "d"(lim));
    printf("bxh visits %llu i %016llx\n", (unsigned long long)visits, (unsigned long long)i);
    i = 1, inc = 4, lim = 17, visits = 0;
    __asm__ volatile("larl %2,1f\n1: aghi %0,1\n\tbxleg %1,%3,0(%2)" : "+d"(visits), "+d"(i), "=&a"(t) : "d"(inc), "d"(lim));
    printf("bxleg visits %llu i %llu\n", (unsigned long long)visits, (unsigned long long)i);
    i = 30, inc = (uint64_t)-4, lim = 3, visits = 0;
    __asm__ volatile("larl %2,1f\n1: aghi %0,1\n\tbxhg %1,%3,0(%2)" : "+d"(visits), "+d"(i), "=&a"(t) : "d"(inc), "d"(lim));
    printf("bxhg visits %llu i %lld\n", (unsigned long long)visits, (long long)i);
    register uint64_t odd __asm__("r3") = 5;
    i = 0, visits = 0;
    __asm__ volatile("0: aghi %0,1\n\tbrxle %1,%2,0b" : "+d"(visits), "+d"(i), "+d"(odd));
    printf("brxle odd r3 visits %llu i %llu\n", (unsigned long long)visits, (unsigned long long)i);
  }
  /* linkage: the return address equals the address of the next instruction */
  {
    uint64_t link, expect;
    __asm__ volatile("bras %0,1f\n1: larl %1,1b" : "=&d"(link), "=d"(expect));
    printf("bras link ok %d\n", link == expect);
    __asm__ volatile("larl %%r1,1f\n\tbasr %0,%%r1\n1: larl %1,1b" : "=&d"(link), "=d"(expect) : : "r1");
    printf("basr link ok %d\n", link == expect);
    __asm__ volatile("larl %%r1,1f\n\tbas %0,0(%%r1)\n1: larl %1,1b" : "=&d"(link), "=d"(expect) : : "r1");
    printf("bas link ok %d\n", link == expect);
    __asm__ volatile("larl %%r1,1f\n\tbalr %0,%%r1\n1: larl %1,1b" : "=&d"(link), "=d"(expect) : : "r1");
    printf("balr link ok %d\n", link == expect);
    __asm__ volatile("larl %%r1,1f\n\tbal %0,0(%%r1)\n1: larl %1,1b" : "=&d"(link), "=d"(expect) : : "r1");
    printf("bal link ok %d\n", link == expect);
    uint64_t keep = 0x1234;
    __asm__ volatile("balr %0,0" : "+d"(keep)); /* R2 = 0: no branch, link still set */
    __asm__ volatile("larl %0,0f\n0:" : "=d"(expect));
    printf("balr r2=0 sets link %d\n", keep != 0x1234);
    /* BC with an index register: jump table of two entries */
    uint64_t which, out;
    for (which = 0; which < 2; ++which) {
      __asm__ volatile("larl %%r1,2f\n\tsllg %%r2,%1,2\n\tbc 15,0(%%r2,%%r1)\n2: j 3f\n\tj 4f\n3: lghi %0,111\n\tj 5f\n4: lghi %0,222\n5:"
                       : "=d"(out) : "d"(which) : "r1", "r2");
      printf("bc indexed %llu -> %llu\n", (unsigned long long)which, (unsigned long long)out);
    }
  }
  /* compare and branch to an address (RRS/RIS), with every operand relation */
  {
    static const int64_t a[] = {-5, 0, 5, (int64_t)0x80000000ULL, -1};
    static const int64_t b[] = {5, 0, -5, 1, 1};
    for (int k = 0; k < 5; ++k) {
      unsigned bits = 0;
      uint64_t t;
#define CB(ins, op2, bit)                                                                              \
  __asm__ volatile(".machine push\n\t.machine z10\n\tlarl %1,1f\n\t" ins " %2," op2 ",0(%1)\n\tj 2f\n1: oill %0," #bit "\n2:\n\t.machine pop" \
                   : "+d"(bits), "=&a"(t) : "d"(a[k]), "d"(b[k]) : "cc")
      CB("crbl", "%3", 1); CB("crbh", "%3", 2); CB("crbe", "%3", 4);
      CB("cgrbl", "%3", 8); CB("clrbl", "%3", 16); CB("clgrbh", "%3", 32);
      CB("cibl", "0", 64); CB("cgibh", "-1", 128); CB("clibh", "200", 256); CB("clgibl", "255", 512);
      /* compare and trap: the conditions are chosen never to trap */
      __asm__ volatile("crth %0,%0\n\tcgrtl %0,%0\n\tcite %0,1234\n\tcgitl %0,-32768\n\tclfitl %0,0\n\tclgitl %0,0\n\tclrth %0,%0\n\tclgrtl %0,%0"
                       : : "d"(a[k]) : "cc");
      printf("cb %lld %lld -> %03x\n", (long long)a[k], (long long)b[k], bits);
    }
    /* the trap conditions above are false for every a[k]: r > r, r < r, r == 1234, r < -32768, unsigned r < 0 */
  }
  /* load/store on condition */
  {
    uint64_t h = 0;
    for (int k = 0; k < 4; ++k) {
      uint64_t x = 0x1111, y = 0x2222, z = 0x3333, w = 0x4444;
      uint64_t m64 = 0xaaaa;
      uint32_t m32 = 0xbbbb;
      uint64_t s64 = 0x5555;
      uint32_t s32 = 0x6666;
      uint64_t cc_in = (uint64_t)k << 28;
      __asm__ volatile(".machine push\n\t.machine z196\n\tspm %8\n\t"
                       "locr %0,%6,8\n\tlocgrh %1,%6\n\tloce %2,%7\n\tlocgnl %3,%9\n\tstocl %6,%4\n\tstocgnh %6,%5\n\t"
                       ".machine pop"
                       : "+d"(x), "+d"(y), "+d"(z), "+d"(w), "+S"(s32), "+S"(s64)
                       : "d"(0xffffffff9999ULL), "S"(m32), "d"(cc_in), "S"(m64)
                       : "cc");
      uint64_t v = 0x7777;
      __asm__ volatile(".machine push\n\t.machine z196\n\tspm %1\n\tlocgro %0,%2\n\t.machine pop" : "+d"(v) : "d"(cc_in), "d"(0x8888ULL) : "cc");
      printf("cc %d: %llx %llx %llx %llx %x %llx %llx\n", k, (unsigned long long)x, (unsigned long long)y,
             (unsigned long long)z, (unsigned long long)w, s32, (unsigned long long)s64, (unsigned long long)v);
      h = h * 31 + x + y + z + w + s32 + s64 + v;
    }
  }
  /* SPM / IPM round trip, including the program mask bits */
  {
    for (unsigned v = 0; v < 64; v += 9) {
      uint64_t in = (uint64_t)v << 26, out = 0xffffffffffffffffULL;
      __asm__ volatile("spm %1\n\tipm %0" : "+d"(out) : "d"(in) : "cc");
      printf("spm %02x -> ipm %016llx\n", v, (unsigned long long)out);
    }
    uint64_t clear = 0;
    __asm__ volatile("spm %0" : : "d"(clear) : "cc");
  }
  /* access registers */
  {
    uint64_t in = 0xfedcba9876543210ULL, out = 0x1111111111111111ULL, saved;
    __asm__ volatile("ear %0,%%a4" : "=d"(saved));
    __asm__ volatile("sar %%a4,%1\n\tear %0,%%a4" : "+d"(out) : "d"(in));
    __asm__ volatile("sar %%a4,%0" : : "d"(saved));
    printf("sar/ear %016llx\n", (unsigned long long)out);
  }
  /* addressing mode */
  {
    unsigned cc;
    __asm__ volatile("sam64\n\ttam\n\t" CCOF("%0") : "=d"(cc) : : "cc");
    printf("tam in 64-bit mode: cc %u\n", cc);
  }
  /* TOD clock: values are time dependent, so only relations are printed */
  {
    uint64_t t1 = 0, t2 = 0, t3 = 0;
    unsigned char e[16];
    unsigned c1, c2, c3;
    __asm__ volatile("stck %1\n\t" CCOF("%0") : "=d"(c1), "=Q"(t1) : : "cc");
    __asm__ volatile("stckf %1\n\t" CCOF("%0") : "=d"(c2), "=Q"(t2) : : "cc");
    __asm__ volatile("stcke %1\n\t" CCOF("%0") : "=d"(c3), "=Q"(e) : : "cc");
    memcpy(&t3, e + 1, 8); /* bits 8-71 of the extended value are the TOD clock */
    __asm__ volatile("stck %0" : "=Q"(t3) : : "cc");
    printf("tod cc %u %u %u, stckf >= stck %d, later >= earlier %d, nonzero %d\n", c1, c2, c3, t2 >= t1, t3 >= t1,
           t1 != 0);
  }
  /* floating-point registers as bit containers */
  {
    uint64_t in[4] = {0x3ff0000000000000ULL, 0xc008000000000000ULL, 0x8000000000000000ULL, 0x7ff8000000000001ULL};
    uint64_t h = 0;
    for (int k = 0; k < 4; ++k) {
      uint64_t a = in[k], b = in[(k + 1) % 4], r[6];
      __asm__ volatile("ldgr %%f2,%6\n\tldgr %%f4,%7\n\t"
                       "cpsdr %%f0,%%f4,%%f2\n\tlgdr %0,%%f0\n\t"
                       "lcdfr %%f0,%%f2\n\tlgdr %1,%%f0\n\t"
                       "lndfr %%f0,%%f2\n\tlgdr %2,%%f0\n\t"
                       "lpdfr %%f0,%%f2\n\tlgdr %3,%%f0\n\t"
                       "ldr %%f6,%%f2\n\tlzer %%f6\n\tlgdr %4,%%f6\n\t"
                       "ler %%f6,%%f4\n\tlgdr %5,%%f6"
                       : "=d"(r[0]), "=d"(r[1]), "=d"(r[2]), "=d"(r[3]), "=d"(r[4]), "=d"(r[5])
                       : "d"(a), "d"(b)
                       : "f0", "f2", "f4", "f6");
      printf("fpr %016llx %016llx: cpsdr %016llx lcdfr %016llx lndfr %016llx lpdfr %016llx lzer %016llx ler %016llx\n",
             (unsigned long long)a, (unsigned long long)b, (unsigned long long)r[0], (unsigned long long)r[1],
             (unsigned long long)r[2], (unsigned long long)r[3], (unsigned long long)r[4], (unsigned long long)r[5]);
      h ^= r[0] + r[1] + r[2] + r[3] + r[4] + r[5];
    }
    uint32_t e32 = 0x40490fdb, o32 = 0;
    uint64_t d64 = 0x400921fb54442d18ULL, o64 = 0, x0, x2;
    __asm__ volatile("ley %%f1,%2\n\tstey %%f1,%0\n\tldgr %%f3,%3\n\tstdy %%f3,%1" : "=T"(o32), "=T"(o64) : "T"(e32), "d"(d64) : "f1", "f3");
    __asm__ volatile("ldgr %%f0,%2\n\tldgr %%f2,%2\n\tlzxr %%f4\n\tlxr %%f0,%%f4\n\tlgdr %0,%%f0\n\tlgdr %1,%%f2"
                     : "=d"(x0), "=d"(x2) : "d"(d64) : "f0", "f2", "f4", "f6");
    printf("ley/stey %08x stdy %016llx lzxr/lxr %016llx %016llx hash %016llx\n", o32, (unsigned long long)o64,
           (unsigned long long)x0, (unsigned long long)x2, (unsigned long long)h);
  }
  /* rotate then insert: RISBGN (no CC), RISBHG/RISBLG (high/low words) */
  {
    uint64_t v = 0x0123456789abcdefULL, h = 0;
    for (int k = 0; k < 4; ++k) {
      uint64_t a = 0xffffffffffffffffULL, b = 0, c = 0x5555555555555555ULL, d = 0xaaaaaaaaaaaaaaaaULL;
      unsigned cc = 9;
      __asm__ volatile(".machine push\n\t.machine zEC12\n\tlghi %%r0,0\n\tltgr %%r0,%%r0\n\t"
                       "risbgn %0,%5,8,23,12\n\trisbgn %1,%5,60,3,4\n\t"
                       "risbhg %2,%5,0,15,32\n\trisblg %3,%5,16,31+128,24\n\t.machine pop\n\t" CCOF("%4")
                       : "+d"(a), "+d"(b), "+d"(c), "+d"(d), "=d"(cc)
                       : "d"(v)
                       : "r0", "cc");
      printf("risbgn %016llx %016llx risbhg %016llx risblg %016llx cc %u\n", (unsigned long long)a,
             (unsigned long long)b, (unsigned long long)c, (unsigned long long)d, cc);
      h += a ^ b ^ c ^ d;
      v = v * 0x9e3779b97f4a7c15ULL + 1;
    }
  }
  /* TEST DECIMAL on packed fields */
  {
    static const unsigned char f1[] = {0x12, 0x34, 0x5c};
    static const unsigned char f2[] = {0x12, 0x3a, 0x5c};
    static const unsigned char f3[] = {0x12, 0x34, 0x56};
    static const unsigned char f4[] = {0x1a, 0x34, 0x55};
    unsigned c[4];
    __asm__ volatile("tp 0(3,%1)\n\t" CCOF("%0") : "=d"(c[0]) : "a"(f1) : "cc");
    __asm__ volatile("tp 0(3,%1)\n\t" CCOF("%0") : "=d"(c[1]) : "a"(f2) : "cc");
    __asm__ volatile("tp 0(3,%1)\n\t" CCOF("%0") : "=d"(c[2]) : "a"(f3) : "cc");
    __asm__ volatile("tp 0(3,%1)\n\t" CCOF("%0") : "=d"(c[3]) : "a"(f4) : "cc");
    printf("tp %u %u %u %u\n", c[0], c[1], c[2], c[3]);
  }
  /* LOAD COUNT TO BLOCK BOUNDARY (z13): min(16, bytes to the next 2^(6+M3) boundary) */
  {
    static unsigned char blk[8192] __attribute__((aligned(4096)));
    static const unsigned offs[] = {0, 1, 15, 16, 48, 60, 63, 64, 127, 4090, 4095};
    for (unsigned i = 0; i < sizeof offs / sizeof offs[0]; ++i) {
      uint64_t n0 = 0xffffffff00000000ULL, n6 = 0xffffffff00000000ULL;
      unsigned c0, c6;
      __asm__ volatile(".machine push\n\t.machine z13\n\tlcbb %0,%2,0\n\t.machine pop\n\t" CCOF("%1")
                       : "+d"(n0), "=d"(c0) : "R"(blk[offs[i]]) : "cc");
      __asm__ volatile(".machine push\n\t.machine z13\n\tlcbb %0,%2,6\n\t.machine pop\n\t" CCOF("%1")
                       : "+d"(n6), "=d"(c6) : "R"(blk[offs[i]]) : "cc");
      printf("lcbb +%u: 64-byte blocks %016llx cc %u, 4K blocks %016llx cc %u\n", offs[i], (unsigned long long)n0, c0,
             (unsigned long long)n6, c6);
    }
  }
  /* prefetch data has no architected effect */
  {
    uint64_t x = 5;
    __asm__ volatile("pfd 1,%0\n\tpfd 2,%0\n\tpfdrl 1,pfd_target" : : "T"(x));
    printf("pfd ok\n");
  }
  /* EXECUTE with run-time lengths and masks (EX and EXRL) */
  {
    unsigned char dst[32], src[32], tab[256];
    for (int i = 0; i < 32; ++i) src[i] = (unsigned char)('A' + i), dst[i] = '.';
    for (int i = 0; i < 256; ++i) tab[i] = (unsigned char)(255 - i);
    uint64_t h = 0;
    for (uint64_t len = 0; len < 20; len += 3) {
      register uint64_t r2 __asm__("r2") = (uint64_t)dst;
      register uint64_t r3 __asm__("r3") = (uint64_t)src;
      unsigned cc;
      __asm__ volatile("exrl %0,ex_mvc" : : "a"(len), "d"(r2), "d"(r3) : "memory");
      h = h * 31 + fnv(dst, 32);
      __asm__ volatile("larl %%r1,ex_clc\n\tex %1,0(%%r1)\n\t" CCOF("%0") : "=d"(cc) : "a"(len + 1), "d"(r2), "d"(r3) : "r1", "cc");
      h = h * 31 + cc;
      __asm__ volatile("exrl %0,ex_tr" : : "a"(len), "d"(r2), "r"(r3 = (uint64_t)tab) : "memory");
      h = h * 31 + fnv(dst, 32);
      __asm__ volatile("exrl %0,ex_xc" : : "a"(len / 2), "d"(r2) : "memory");
      h = h * 31 + fnv(dst, 32);
      __asm__ volatile("exrl %0,ex_oi" : : "a"(len * 11 + 1), "d"(r2) : "memory");
      h = h * 31 + fnv(dst, 32);
      printf("ex len %2llu: %02x %02x %02x cc %u\n", (unsigned long long)len, dst[0], dst[1], dst[len], cc);
    }
    register uint64_t r4 __asm__("r4") = 100;
    __asm__ volatile("lghi %%r1,0\n\texrl %%r1,ex_ahi\n\texrl %%r1,ex_ahi" : "+d"(r4) : : "r1", "cc");
    printf("ex ahi %llu hash %016llx\n", (unsigned long long)r4, (unsigned long long)h);
  }
  return 0;
}
