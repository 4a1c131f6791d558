/* What the integer differential tests (integer_*.c) share: a fixed set of operands
   (the edge values of every element size, then random vectors) and macros that run
   one instruction through inline assembly, so that the test names the exact
   instruction and element size, whatever code GCC would choose for a builtin. The
   asm text names its operands %[r] (result), %[a], %[b], %[c] and %[cc]; the text
   doubles as the line's label. */
#ifndef INTEGER_H
#define INTEGER_H
#include "vtest.h"

#define NOPS 32
static vb ops[NOPS];

/* Element size es (0-3) filled with one value per element. */
static vb splat_es(int es, uint64_t v) {
  union { vb v; uint8_t b[16]; } u;
  int n = 1 << es;
  for (int k = 0; k < 16; ++k) u.b[k] = (uint8_t)(v >> (8 * (n - 1 - k % n)));
  return u.v;
}
/* Zero, all ones, the most negative and most positive signed value and one, for every
   element size; then random vectors. */
static void make_ops(void) {
  int n = 0;
  for (int es = 0; es < 4; ++es) {
    int bits = 8 << es;
    uint64_t min = 1ull << (bits - 1);
    ops[n++] = splat_es(es, min);
    ops[n++] = splat_es(es, min - 1);
    ops[n++] = splat_es(es, 1);
  }
  ops[n++] = splat_es(0, 0);
  ops[n++] = splat_es(0, 0xFF);
  while (n < NOPS) ops[n++] = rnd_vec();
}
static vb op_a(int j) { return ops[j]; }
static vb op_b(int j) { return ops[(j * 5 + 3) % NOPS]; }
static vb op_c(int j) { return ops[(j * 11 + 7) % NOPS]; }

#define PRE ".machine push\n.machine z15\n"
#define POST "\n.machine pop"
#define GETCC "\nipm %[cc]\nsrl %[cc],28"

#define V2(t, x) ({ vb r_; __asm__(PRE t POST : [r] "=v"(r_) : [a] "v"(x)); r_; })
#define V3(t, x, y) ({ vb r_; __asm__(PRE t POST : [r] "=v"(r_) : [a] "v"(x), [b] "v"(y)); r_; })
#define V4(t, x, y, z) \
  ({ vb r_; __asm__(PRE t POST : [r] "=v"(r_) : [a] "v"(x), [b] "v"(y), [c] "v"(z)); r_; })
/* The instruction's V1 is also an input (VERIM). */
#define V3IN(t, w, x, y) ({ vb r_ = (w); __asm__(PRE t POST : [r] "+v"(r_) : [a] "v"(x), [b] "v"(y)); r_; })
#define V3CC(t, x, y, ccv) \
  ({ vb r_; int cc_; \
     __asm__(PRE t GETCC POST : [r] "=v"(r_), [cc] "=d"(cc_) : [a] "v"(x), [b] "v"(y) : "cc"); \
     (ccv) = cc_; r_; })
/* Only a condition code (VEC, VECL, VTM). */
#define CC2(t, x, y) \
  ({ int cc_; __asm__(PRE t GETCC POST : [cc] "=d"(cc_) : [a] "v"(x), [b] "v"(y) : "cc"); cc_; })

/* Every operand pair (triple) through one instruction. */
#define T2(t) for (int j = 0; j < NOPS; ++j) PUT(t, V2(t, op_a(j)))
#define T3(t) for (int j = 0; j < NOPS; ++j) PUT(t, V3(t, op_a(j), op_b(j)))
#define T4(t) for (int j = 0; j < NOPS; ++j) PUT(t, V4(t, op_a(j), op_b(j), op_c(j)))
#define T3CC(t)                                     \
  for (int j = 0; j < NOPS; ++j) {                  \
    int cc;                                         \
    vb r = V3CC(t, op_a(j), op_b(j), cc);           \
    put_vec(t, r);                                  \
    printf("cc %d\n", cc);                          \
  }
#define TCC2(t) for (int j = 0; j < NOPS; ++j) printf("%s cc %d\n", t, CC2(t, op_a(j), op_b(j)))
#endif
