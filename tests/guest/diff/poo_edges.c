/* Instructions on which QEMU 7.2 (the reference of the other differential tests)
   is known to be wrong, checked instead against the Principles of Operation: every
   result is compared with a C model of the PoO definition and the expected output
   is hard-coded in poo_edges.expected (compare.sh does not use QEMU's output for
   this test; it only notes whether QEMU agrees).

   - ROTATE THEN AND/OR/EXCLUSIVE OR SELECTED BITS with the test-only bit T=1
     (RNSBG/ROSBG/RXSBG with I3 bit 0 set): the first operand is not changed and
     the CC reflects the selected bits of the result (PoO, "Rotate Then
     <Logical-Op> Selected Bits"). QEMU 7.2 aborts with "tcg fatal error" on them;
     fixed upstream later ("target/s390x: Fix R[NOX]SBG with T=1").
   - EXTRACT PSW: bits 18-19 of the PSW (the CC) and 20-23 (program mask) must
     appear in bits 50-51 and 52-55 of R1 (PoO, "Extract PSW"); QEMU 7.2 always
     reports CC 0 there.
   - STORE MULTIPLE HIGH: stores bits 0-31 of each register (PoO, "Store Multiple
     High"); QEMU 7.2 stores zeros (its op_stmh shifts left instead of right).
   The T=0 forms are checked against the same model for contrast. */
#include <stdint.h>
#include <stdio.h>

static uint64_t rotl(uint64_t v, unsigned n) {
  n &= 63;
  return n ? (v << n) | (v >> (64 - n)) : v;
}
/* bits I3..I4 in PoO numbering (bit 0 is the leftmost), wrapping past 63 */
static uint64_t sel_mask(unsigned i3, unsigned i4) {
  uint64_t m = 0;
  for (unsigned i = i3 & 63;; i = (i + 1) & 63) {
    m |= (uint64_t)1 << (63 - i);
    if (i == (i4 & 63)) break;
  }
  return m;
}
enum { OP_AND, OP_OR, OP_XOR };
static void model(int op, int test, unsigned i3, unsigned i4, unsigned i5, uint64_t r1, uint64_t r2, uint64_t *out,
                  unsigned *cc) {
  uint64_t m = sel_mask(i3, i4), rot = rotl(r2, i5);
  uint64_t res = op == OP_AND ? (r1 & rot) : op == OP_OR ? (r1 | rot) : (r1 ^ rot);
  res &= m;
  *cc = res != 0;
  *out = test ? r1 : (r1 & ~m) | res;
}

static const uint64_t V[] = {0, ~0ULL, 0x0123456789abcdefULL, 0xff00ff00ff00ff00ULL, 0x8000000000000001ULL,
                             0x00000000ffffffffULL};
#define NV (sizeof V / sizeof V[0])
static unsigned checked, wrong;

#define RSBG(ins, op, t, i3, i4, i5)                                                               \
  do {                                                                                             \
    unsigned ok = 0, n = 0;                                                                        \
    for (unsigned a = 0; a < NV; ++a)                                                              \
      for (unsigned b = 0; b < NV; ++b) {                                                          \
        uint64_t r1 = V[a], want;                                                                  \
        unsigned cc, wcc;                                                                          \
        __asm__ volatile(#ins " %0,%2," #i3 "+" #t "*128," #i4 "," #i5 "\n\tipm %1\n\tsrl %1,28"    \
                         : "+d"(r1), "=d"(cc) : "d"(V[b]) : "cc");                                  \
        model(op, t, i3, i4, i5, V[a], V[b], &want, &wcc);                                        \
        ++n, ok += r1 == want && cc == wcc;                                                        \
        if (r1 != want || cc != wcc)                                                               \
          printf("  MISMATCH %s r1=%016llx r2=%016llx: got %016llx cc %u, PoO %016llx cc %u\n", #ins, \
                 (unsigned long long)V[a], (unsigned long long)V[b], (unsigned long long)r1, cc,   \
                 (unsigned long long)want, wcc);                                                   \
      }                                                                                            \
    checked += n, wrong += n - ok;                                                                 \
    printf("%s T=%d I3=%d I4=%d I5=%d: %u/%u as the PoO says\n", #ins, t, i3, i4, i5, ok, n);      \
  } while (0)

int main(void) {
  /* T=0 for contrast, then T=1 (test only) */
  RSBG(rnsbg, OP_AND, 0, 0, 63, 0);
  RSBG(rnsbg, OP_AND, 1, 0, 63, 0);
  RSBG(rnsbg, OP_AND, 1, 8, 15, 4);
  RSBG(rnsbg, OP_AND, 1, 60, 3, 32);
  RSBG(rosbg, OP_OR, 0, 32, 63, 32);
  RSBG(rosbg, OP_OR, 1, 32, 63, 32);
  RSBG(rosbg, OP_OR, 1, 63, 0, 1);
  RSBG(rosbg, OP_OR, 1, 12, 12, 60);
  RSBG(rxsbg, OP_XOR, 0, 56, 7, 8);
  RSBG(rxsbg, OP_XOR, 1, 56, 7, 8);
  RSBG(rxsbg, OP_XOR, 1, 0, 31, 0);
  RSBG(rxsbg, OP_XOR, 1, 40, 47, 63);
  /* EXTRACT PSW after setting the CC and program mask with SPM */
  for (unsigned cc = 0; cc < 4; ++cc) {
    for (unsigned pm = 0; pm < 16; pm += 15) {
      uint64_t hi = 0xaaaaaaaa00000000ULL, lo = 0x5555555500000000ULL;
      uint64_t in = (uint64_t)(cc << 4 | pm) << 24, zero = 0;
      /* the program mask is cleared again at once: with it set, an overflow would trap */
      __asm__ volatile("spm %2\n\tepsw %0,%1\n\tspm %3" : "+d"(hi), "+d"(lo) : "d"(in), "d"(zero) : "cc");
      unsigned gcc = (unsigned)(hi >> 12) & 3, gpm = (unsigned)(hi >> 8) & 15;
      int keep = (hi >> 32) == 0xaaaaaaaa && (lo >> 32) == 0x55555555;
      int ok = gcc == cc && gpm == pm && keep;
      checked++, wrong += !ok;
      printf("epsw after spm cc=%u pm=%x: cc field %u, program mask %x, bits 0-31 kept %d: %s\n", cc, pm, gcc, gpm, keep,
             ok ? "as the PoO says" : "WRONG");
    }
  }
  /* STORE MULTIPLE HIGH */
  {
    register uint64_t r6 __asm__("r6") = 0x1111111144444444ULL;
    register uint64_t r7 __asm__("r7") = 0x2222222255555555ULL;
    register uint64_t r8 __asm__("r8") = 0x3333333366666666ULL;
    uint32_t out[4] = {0xdddddddd, 0xdddddddd, 0xdddddddd, 0xdddddddd};
    __asm__ volatile("stmh %1,%3,%0" : "=S"(*(uint32_t(*)[3])out) : "d"(r6), "d"(r7), "d"(r8));
    int ok = out[0] == 0x11111111 && out[1] == 0x22222222 && out[2] == 0x33333333 && out[3] == 0xdddddddd;
    checked++, wrong += !ok;
    printf("stmh r6-r8: %08x %08x %08x %08x: %s\n", out[0], out[1], out[2], out[3], ok ? "as the PoO says" : "WRONG");
    /* wrapping register range r15..r0 is not used: it would clobber the stack pointer */
  }
  printf("%u checks, %u differ from the PoO\n", checked, wrong);
  return wrong != 0;
}
