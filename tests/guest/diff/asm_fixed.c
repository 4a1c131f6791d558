/* Fixed-point and logical instructions that GCC rarely or never emits at -O2
   -march=z10, driven by inline assembly over a matrix of edge values, each result
   and condition code (by IPM) folded into one line per instruction: RR/RX/RXY
   add, subtract, logical with carry/borrow, halfword and fullword-extended forms,
   the distinct-operands forms (z196), multiply and divide into even/odd register
   pairs, double-register shifts, insert/AND/OR immediates, test under mask, load
   positive/negative/complement/test of sign-extended words, and compares of every
   storage form. No divide is ever by zero or overflowing. */
#include <stdint.h>
#include <stdio.h>

static const uint64_t V[] = {0,
                             1,
                             2,
                             0x7fffffffULL,
                             0x80000000ULL,
                             0xffffffffULL,
                             0x100000000ULL,
                             0x7fffffffffffffffULL,
                             0x8000000000000000ULL,
                             0xffffffffffffffffULL,
                             0xffffffff80000000ULL,
                             0x0123456789abcdefULL,
                             0xfedcba9876543210ULL,
                             0x000000000000ffffULL,
                             0xffffffffffff8000ULL};
#define NV (sizeof V / sizeof V[0])

struct acc {
  uint64_t h;
  unsigned cc[4];
};
static void add(struct acc *a, uint64_t r, unsigned cc) {
  a->h = (a->h ^ r) * 0x100000001b3ULL;
  a->h = (a->h ^ cc) * 0x100000001b3ULL;
  a->cc[cc & 3]++;
}
static void show(const char *name, const struct acc *a) {
  printf("%-7s %016llx cc %u/%u/%u/%u\n", name, (unsigned long long)a->h, a->cc[0], a->cc[1], a->cc[2], a->cc[3]);
}

/* register-register: r1 op= r2 */
#define RR(name)                                                                                  \
  do {                                                                                            \
    struct acc a = {0, {0}};                                                                      \
    for (unsigned i = 0; i < NV; ++i)                                                             \
      for (unsigned j = 0; j < NV; ++j) {                                                         \
        uint64_t r = V[i];                                                                        \
        unsigned cc;                                                                              \
        __asm__ volatile(#name " %0,%2\n\tipm %1\n\tsrl %1,28" : "+d"(r), "=d"(cc) : "d"(V[j]) : "cc"); \
        add(&a, r, cc);                                                                           \
      }                                                                                           \
    show(#name, &a);                                                                              \
  } while (0)

/* carry/borrow in: the CC is set first by an ALGR/SLGR of (c1, c2) */
#define RR_CARRY(name, setup)                                                                     \
  do {                                                                                            \
    struct acc a = {0, {0}};                                                                      \
    for (unsigned i = 0; i < NV; ++i)                                                             \
      for (unsigned j = 0; j < NV; ++j)                                                           \
        for (unsigned k = 0; k < 2; ++k) {                                                        \
          uint64_t r = V[i], t = k ? 1 : 0, u = k ? ~0ULL : 0;                                    \
          unsigned cc;                                                                            \
          __asm__ volatile(setup " %2,%4\n\t" #name " %0,%3\n\tipm %1\n\tsrl %1,28"               \
                           : "+d"(r), "=d"(cc), "+d"(t)                                           \
                           : "d"(V[j]), "d"(u)                                                    \
                           : "cc");                                                               \
          add(&a, r, cc);                                                                         \
        }                                                                                         \
    show(#name, &a);                                                                              \
  } while (0)

/* the same with a storage second operand (ALC, ALCG, SLB, SLBG) */
#define RX_CARRY(name, T, setup)                                                                  \
  do {                                                                                            \
    struct acc a = {0, {0}};                                                                      \
    for (unsigned i = 0; i < NV; ++i)                                                             \
      for (unsigned j = 0; j < NV; ++j)                                                           \
        for (unsigned k = 0; k < 2; ++k) {                                                        \
          uint64_t r = V[i], t = k ? 1 : 0, u = k ? ~0ULL : 0;                                    \
          T m = (T)V[j];                                                                          \
          unsigned cc;                                                                            \
          __asm__ volatile(setup " %2,%4\n\t" #name " %0,%3\n\tipm %1\n\tsrl %1,28"               \
                           : "+d"(r), "=d"(cc), "+d"(t)                                           \
                           : "T"(m), "d"(u)                                                       \
                           : "cc");                                                               \
          add(&a, r, cc);                                                                         \
        }                                                                                         \
    show(#name, &a);                                                                              \
  } while (0)

/* three-operand (distinct operands): r1 = r2 op r3 */
#define RRF(name)                                                                                 \
  do {                                                                                            \
    struct acc a = {0, {0}};                                                                      \
    for (unsigned i = 0; i < NV; ++i)                                                             \
      for (unsigned j = 0; j < NV; ++j) {                                                         \
        uint64_t r = 0x5555555555555555ULL;                                                       \
        unsigned cc;                                                                              \
        __asm__ volatile(".machine push\n\t.machine z196\n\t" #name " %0,%2,%3\n\t.machine pop\n\t" \
                         "ipm %1\n\tsrl %1,28"                                                    \
                         : "+d"(r), "=d"(cc)                                                      \
                         : "d"(V[i]), "d"(V[j])                                                   \
                         : "cc");                                                                 \
        add(&a, r, cc);                                                                           \
      }                                                                                           \
    show(#name, &a);                                                                              \
  } while (0)

/* storage operand of the given width (4: word, 2: halfword, 8: doubleword) */
#define RXW(name, T, cons)                                                                        \
  do {                                                                                            \
    struct acc a = {0, {0}};                                                                      \
    for (unsigned i = 0; i < NV; ++i)                                                             \
      for (unsigned j = 0; j < NV; ++j) {                                                         \
        uint64_t r = V[i];                                                                        \
        T m = (T)V[j];                                                                            \
        unsigned cc;                                                                              \
        __asm__ volatile(".machine push\n\t.machine z196\n\t" #name " %0,%2\n\t.machine pop\n\t" \
                         "ipm %1\n\tsrl %1,28"                                                    \
                         : "+d"(r), "=d"(cc)                                                      \
                         : cons(m)                                                                \
                         : "cc");                                                                 \
        add(&a, r, cc);                                                                           \
      }                                                                                           \
    show(#name, &a);                                                                              \
  } while (0)

/* register-immediate: the immediate is fixed per line */
#define RI(name, imm)                                                                             \
  do {                                                                                            \
    struct acc a = {0, {0}};                                                                      \
    for (unsigned i = 0; i < NV; ++i) {                                                           \
      uint64_t r = V[i];                                                                          \
      unsigned cc;                                                                                \
      __asm__ volatile(".machine push\n\t.machine z196\n\t" #name " %0," #imm "\n\t.machine pop\n\t" \
                       "ipm %1\n\tsrl %1,28"                                                      \
                       : "+d"(r), "=d"(cc)                                                        \
                       :                                                                          \
                       : "cc");                                                                   \
      add(&a, r, cc);                                                                             \
    }                                                                                             \
    show(#name " " #imm, &a);                                                                     \
  } while (0)

/* r1 = r3 op immediate (RIE-d, z196) */
#define RIE(name, imm)                                                                            \
  do {                                                                                            \
    struct acc a = {0, {0}};                                                                      \
    for (unsigned i = 0; i < NV; ++i) {                                                           \
      uint64_t r = 0xaaaaaaaaaaaaaaaaULL;                                                         \
      unsigned cc;                                                                                \
      __asm__ volatile(".machine push\n\t.machine z196\n\t" #name " %0,%2," #imm "\n\t.machine pop\n\t" \
                       "ipm %1\n\tsrl %1,28"                                                      \
                       : "+d"(r), "=d"(cc)                                                        \
                       : "d"(V[i])                                                                \
                       : "cc");                                                                   \
      add(&a, r, cc);                                                                             \
    }                                                                                             \
    show(#name " " #imm, &a);                                                                     \
  } while (0)

/* storage-immediate compare / add to storage (SIL and SIY) */
#define SI(name, T, imm)                                                                          \
  do {                                                                                            \
    struct acc a = {0, {0}};                                                                      \
    for (unsigned i = 0; i < NV; ++i) {                                                           \
      T m = (T)V[i];                                                                              \
      unsigned cc;                                                                                \
      __asm__ volatile(".machine push\n\t.machine z196\n\t" #name " %0," #imm "\n\t.machine pop\n\t" \
                       "ipm %1\n\tsrl %1,28"                                                      \
                       : "+S"(m), "=d"(cc)                                                        \
                       :                                                                          \
                       : "cc");                                                                   \
      add(&a, (uint64_t)m, cc);                                                                   \
    }                                                                                             \
    show(#name " " #imm, &a);                                                                     \
  } while (0)

#define MR "R"
#define MT "T"

int main(void) {
  /* 32-bit and 64-bit register forms */
  RR(ar); RR(sr); RR(alr); RR(slr); RR(agfr); RR(sgfr); RR(algfr); RR(slgfr); RR(cgfr); RR(clgfr);
  RR(msr); RR(msgfr); RR(nr); RR(or); RR(xr); RR(clr); RR(cr);
  RR(lpgfr); RR(lngfr); RR(lcgfr); RR(ltgfr); RR(lpr); RR(lnr); RR(lcr); RR(ltr); RR(llgtr); RR(lngr);
  RR_CARRY(alcr, "algr"); RR_CARRY(alcgr, "algr"); RR_CARRY(slbr, "slgr"); RR_CARRY(slbgr, "slgr");
  RX_CARRY(alc, uint32_t, "algr"); RX_CARRY(slb, uint32_t, "slgr"); RX_CARRY(alcg, uint64_t, "algr");
  RX_CARRY(slbg, uint64_t, "slgr");
  /* distinct-operands forms */
  RRF(ark); RRF(agrk); RRF(alrk); RRF(algrk); RRF(srk); RRF(sgrk); RRF(slrk); RRF(slgrk);
  RRF(nrk); RRF(ngrk); RRF(ork); RRF(ogrk); RRF(xrk); RRF(xgrk);
  /* storage forms */
  RXW(a, int32_t, MR); RXW(ay, int32_t, MT); RXW(ah, int16_t, MR); RXW(ahy, int16_t, MT); RXW(al, uint32_t, MR);
  RXW(aly, uint32_t, MT); RXW(s, int32_t, MR); RXW(sy, int32_t, MT); RXW(sh, int16_t, MR); RXW(shy, int16_t, MT);
  RXW(sl, uint32_t, MR); RXW(sly, uint32_t, MT); RXW(agf, int32_t, MT); RXW(sgf, int32_t, MT); RXW(algf, uint32_t, MT);
  RXW(slgf, uint32_t, MT); RXW(c, int32_t, MR); RXW(cy, int32_t, MT); RXW(ch, int16_t, MR); RXW(chy, int16_t, MT);
  RXW(cgh, int16_t, MT); RXW(cgf, int32_t, MT); RXW(clgf, uint32_t, MT); RXW(cl, uint32_t, MR); RXW(cly, uint32_t, MT);
  RXW(cg, uint64_t, MT); RXW(clg, uint64_t, MT); RXW(n, uint32_t, MR); RXW(ny, uint32_t, MT); RXW(o, uint32_t, MR);
  RXW(oy, uint32_t, MT); RXW(x, uint32_t, MR); RXW(xy, uint32_t, MT); RXW(ng, uint64_t, MT); RXW(og, uint64_t, MT);
  RXW(xg, uint64_t, MT); RXW(ms, int32_t, MR); RXW(msy, int32_t, MT); RXW(mh, int16_t, MR); RXW(mhy, int16_t, MT);
  RXW(msg, int64_t, MT); RXW(msgf, int32_t, MT); RXW(lgh, int16_t, MT); RXW(ltgf, int32_t, MT); RXW(llgt, uint32_t, MT);
  RXW(lrvh, uint16_t, MT); RXW(lrvg, uint64_t, MT); RXW(lrv, uint32_t, MT);
  /* immediates */
  RI(afi, -2147483648); RI(afi, 2147483647); RI(agfi, -1); RI(alfi, 4294967295); RI(algfi, 1);
  RI(slfi, 1); RI(slgfi, 4294967295); RI(cfi, -1); RI(cgfi, 2147483647); RI(clfi, 2147483648);
  RI(clgfi, 4294967295); RI(msfi, -7); RI(msgfi, 65537); RI(mhi, -32768); RI(mghi, 32767);
  RI(iihf, 0x89abcdef); RI(iilf, 0x01234567); RI(iihh, 0xbeef); RI(iihl, 0x1234); RI(iilh, 0xffff); RI(iill, 0);
  RI(nihf, 0x0f0f0f0f); RI(nilf, 0xffff0000); RI(nihh, 0x00ff); RI(nihl, 0xff00); RI(nilh, 0x8001); RI(nill, 0x7ffe);
  RI(oihf, 0x80000001); RI(oilf, 0x00010000); RI(oihh, 0x4000); RI(oihl, 0x0101); RI(oilh, 0xf000); RI(oill, 0x000f);
  RI(xihf, 0xffffffff); RI(xilf, 0x55555555);
  RI(tmll, 0x8001); RI(tmlh, 0xffff); RI(tmhl, 0x00f0); RI(tmhh, 0x8000); RI(tmll, 0);
  RI(chi, -1); RI(cghi, -32768); RI(ahi, 32767); RI(aghi, -32768);
  RIE(ahik, -1); RIE(aghik, 32767); RIE(alhsik, -32768); RIE(alghsik, 1); RIE(alghsik, -1);
  SI(chsi, int32_t, -1); SI(cghsi, int64_t, 32767); SI(chhsi, int16_t, -32768); SI(clhhsi, uint16_t, 65535);
  SI(clfhsi, uint32_t, 32768); SI(clghsi, uint64_t, 0); SI(asi, int32_t, -128); SI(agsi, int64_t, 127);
  SI(alsi, uint32_t, -1); SI(algsi, uint64_t, 1);
  /* multiply and divide into register pairs */
  {
    struct acc a = {0, {0}}, b = {0, {0}}, c = {0, {0}}, d = {0, {0}};
    for (unsigned i = 0; i < NV; ++i)
      for (unsigned j = 0; j < NV; ++j) {
        register uint64_t hi __asm__("r4") = 0xdeadbeef00000000ULL | (V[i] >> 32);
        register uint64_t lo __asm__("r5") = V[i];
        __asm__ volatile("mr %0,%2" : "+d"(hi), "+d"(lo) : "d"(V[j]));
        add(&a, hi, 0), add(&a, lo, 0);
        hi = 0xcafe, lo = V[i];
        __asm__ volatile("mlr %0,%2" : "+d"(hi), "+d"(lo) : "d"(V[j]));
        add(&b, hi, 0), add(&b, lo, 0);
        uint32_t mem = (uint32_t)V[j];
        hi = 1, lo = V[i];
        __asm__ volatile("m %0,%2" : "+d"(hi), "+d"(lo) : "R"(mem));
        add(&c, hi, 0), add(&c, lo, 0);
        hi = 2, lo = V[i];
        __asm__ volatile("ml %0,%2" : "+d"(hi), "+d"(lo) : "T"(mem));
        add(&c, hi, 0), add(&c, lo, 0);
        hi = 3, lo = V[i];
        __asm__ volatile("mfy %0,%2" : "+d"(hi), "+d"(lo) : "T"(mem));
        add(&d, hi, 0), add(&d, lo, 0);
        uint64_t mem64 = V[j];
        hi = 4, lo = V[i];
        __asm__ volatile("mlg %0,%2" : "+d"(hi), "+d"(lo) : "T"(mem64));
        add(&d, hi, 0), add(&d, lo, 0);
      }
    show("mr", &a), show("mlr", &b), show("m/ml", &c), show("mfy/mlg", &d);
  }
  {
    struct acc a = {0, {0}}, b = {0, {0}}, c = {0, {0}};
    for (unsigned i = 0; i < NV; ++i)
      for (unsigned j = 0; j < NV; ++j) {
        /* 32-bit signed: dividend = sign-extended 32-bit value in the pair, divisor small */
        int32_t dv = (int32_t)V[i], ds = (int32_t)(V[j] | 1);
        if (ds == -1 || (ds > -4 && ds < 4 && ds != 1)) ds = 7;
        int64_t dividend = dv;
        register uint64_t hi __asm__("r2") = (uint64_t)(dividend >> 32) | 0xffff000000000000ULL;
        register uint64_t lo __asm__("r3") = (uint32_t)dividend | 0x1234567800000000ULL;
        __asm__ volatile("dr %0,%2" : "+d"(hi), "+d"(lo) : "d"((uint64_t)(int64_t)ds));
        add(&a, hi, 0), add(&a, lo, 0);
        hi = (uint64_t)(dividend >> 32), lo = (uint32_t)dividend;
        __asm__ volatile("d %0,%2" : "+d"(hi), "+d"(lo) : "R"(ds));
        add(&a, hi, 0), add(&a, lo, 0);
        /* 32-bit logical: high word must be below the divisor */
        uint32_t ud = (uint32_t)V[j] | 0x80000000u;
        hi = (uint32_t)(V[i] >> 33), lo = (uint32_t)V[i];
        __asm__ volatile("dlr %0,%2" : "+d"(hi), "+d"(lo) : "d"((uint64_t)ud));
        add(&b, hi, 0), add(&b, lo, 0);
        hi = (uint32_t)(V[i] >> 40), lo = (uint32_t)V[i] ^ 0xf0f0f0f0u;
        __asm__ volatile("dl %0,%2" : "+d"(hi), "+d"(lo) : "T"(ud));
        add(&b, hi, 0), add(&b, lo, 0);
        /* 64-bit: DSG / DSGF / DLG */
        int64_t d64 = (int64_t)(V[j] | 3);
        if (d64 == -1) d64 = -3;
        hi = 0x77, lo = V[i];
        __asm__ volatile("dsg %0,%2" : "+d"(hi), "+d"(lo) : "T"(d64));
        add(&c, hi, 0), add(&c, lo, 0);
        int32_t d32 = ds;
        hi = 0x88, lo = V[i] & 0x7fffffffffffffffULL;
        __asm__ volatile("dsgf %0,%2" : "+d"(hi), "+d"(lo) : "T"(d32));
        add(&c, hi, 0), add(&c, lo, 0);
        uint64_t du = V[j] | 0x8000000000000000ULL;
        hi = V[i] >> 1, lo = V[j];
        __asm__ volatile("dlg %0,%2" : "+d"(hi), "+d"(lo) : "T"(du));
        add(&c, hi, 0), add(&c, lo, 0);
      }
    show("dr/d", &a), show("dlr/dl", &b), show("dsg/dlg", &c);
  }
  /* double-register shifts (the pair r4:r5) and single shifts with CC */
  {
    static const unsigned counts[] = {0, 1, 7, 31, 32, 33, 62, 63};
    struct acc a = {0, {0}}, b = {0, {0}};
    for (unsigned i = 0; i < NV; ++i)
      for (unsigned j = 0; j < NV; j += 3)
        for (unsigned k = 0; k < 8; ++k) {
          unsigned cc;
          register uint64_t hi __asm__("r4") = V[i];
          register uint64_t lo __asm__("r5") = V[j];
          __asm__ volatile("sldl %0,0(%2)" : "+d"(hi), "+d"(lo) : "a"((uint64_t)counts[k]));
          add(&a, hi, 0), add(&a, lo, 0);
          hi = V[i], lo = V[j];
          __asm__ volatile("srdl %0,0(%2)" : "+d"(hi), "+d"(lo) : "a"((uint64_t)counts[k]));
          add(&a, hi, 0), add(&a, lo, 0);
          hi = V[i], lo = V[j];
          __asm__ volatile("slda %0,0(%3)\n\tipm %2\n\tsrl %2,28" : "+d"(hi), "+d"(lo), "=d"(cc) : "a"((uint64_t)counts[k]) : "cc");
          add(&b, hi, cc), add(&b, lo, 0);
          hi = V[i], lo = V[j];
          __asm__ volatile("srda %0,0(%3)\n\tipm %2\n\tsrl %2,28" : "+d"(hi), "+d"(lo), "=d"(cc) : "a"((uint64_t)counts[k]) : "cc");
          add(&b, hi, cc), add(&b, lo, 0);
          uint64_t r = V[i];
          __asm__ volatile("sla %0,0(%2)\n\tipm %1\n\tsrl %1,28" : "+d"(r), "=d"(cc) : "a"((uint64_t)counts[k]) : "cc");
          add(&b, r, cc);
          r = V[i];
          __asm__ volatile("sra %0,0(%2)\n\tipm %1\n\tsrl %1,28" : "+d"(r), "=d"(cc) : "a"((uint64_t)counts[k]) : "cc");
          add(&b, r, cc);
          r = V[i];
          __asm__ volatile("sll %0,0(%1)" : "+d"(r) : "a"((uint64_t)counts[k]));
          add(&a, r, 0);
          r = V[i];
          __asm__ volatile("srl %0,0(%1)" : "+d"(r) : "a"((uint64_t)counts[k]));
          add(&a, r, 0);
          r = 0x1111;
          __asm__ volatile(".machine push\n\t.machine z196\n\tslak %0,%2,0(%3)\n\t.machine pop\n\tipm %1\n\tsrl %1,28"
                           : "+d"(r), "=d"(cc) : "d"(V[i]), "a"((uint64_t)counts[k]) : "cc");
          add(&b, r, cc);
          r = 0x2222;
          __asm__ volatile(".machine push\n\t.machine z196\n\tsllk %0,%1,0(%2)\n\tsrlk %0,%0,3\n\t.machine pop"
                           : "+d"(r) : "d"(V[i]), "a"((uint64_t)counts[k]));
          add(&a, r, 0);
          r = V[j];
          __asm__ volatile("slag %0,%2,0(%3)\n\tipm %1\n\tsrl %1,28" : "+d"(r), "=d"(cc) : "d"(V[i]), "a"((uint64_t)counts[k]) : "cc");
          add(&b, r, cc);
        }
    show("dbl/sgl shifts", &a), show("arith shifts", &b);
  }
  return 0;
}
