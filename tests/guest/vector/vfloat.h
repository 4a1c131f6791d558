/* What the vector floating-point tests share (float_*.c): random operands of the three
   BFP formats with many special values (zeros, infinities, quiet and signaling NaNs,
   subnormals, values at the ends of the exponent range, small integers and halves
   where rounding ties), the FPC (its rounding mode set, its flags cleared and read back)
   and the condition code. The instructions are written out in inline assembly, so each
   M field is the one wanted. */
#ifndef VFLOAT_H
#define VFLOAT_H
#include "vtest.h"

/* A random value of a format whose sign, exponent (e bits) and leading fraction bits
   (f of them) fill the low 1 + e + f bits of 64 (the whole of a short or long value,
   the high half of an extended one); *kind tells what the rest of an extended value's
   fraction may be: 0 zeros, 1 anything, 2 anything not all zero (a signaling NaN
   whose leading fraction bits are zero). No 128-bit integers: GCC does those with
   vector instructions. */
static uint64_t rnd_fp_bits(int e, int f, int *kind) {
  const uint64_t sign = 1ull << (e + f), fraction = (1ull << f) - 1;
  const unsigned bias = (1u << (e - 1)) - 1, top = (1u << e) - 1;
  const uint64_t r = rnd64(), s = rnd64(), sgn = r & sign;
  *kind = 1;
  switch (s & 15) {
    case 0: *kind = 0; return sgn;
    case 1: *kind = 0; return sgn | (uint64_t)top << f;
    case 2: return sgn | (uint64_t)top << f | 1ull << (f - 1) | (r & (fraction >> 1));
    case 3:
      if (!(r & (fraction >> 1))) *kind = 2;
      return sgn | (uint64_t)top << f | (r & (fraction >> 1));
    case 4: return sgn | (r & fraction) >> (s >> 8 & 7);  /* subnormal */
    case 5: return sgn | (uint64_t)(1 + (s >> 8 & 1)) << f | (r & fraction);  /* smallest normals */
    case 6: return sgn | (uint64_t)(top - 1 - (s >> 8 & 1)) << f | (r & fraction);  /* largest */
    case 7: case 8: {  /* a small multiple of 1/4: exact, or a tie for the integer roundings */
      const int64_t n = (int64_t)(s >> 8 & 255) - 128;
      *kind = 0;
      if (!n) return sgn;
      const uint64_t m = (uint64_t)(n < 0 ? -n : n);
      int msb = 0;
      while (m >> (msb + 1)) ++msb;
      return (n < 0 ? sign : 0) | (uint64_t)(bias + msb - 2) << f | ((m << (f - msb)) & fraction);
    }
    default:  /* near 1, so that sums cancel and round */
      return sgn | (uint64_t)(bias - 4 + (s >> 8 & 7)) << f | (r & fraction);
  }
}

/* A register of random elements of size code es (2 words, 3 doublewords, 4 whole). */
static vb rnd_fpv(int es) {
  union { vb v; uint32_t w[4]; uint64_t d[2]; } u;
  int kind;
  if (es == 2) {
    for (int k = 0; k < 4; ++k) u.w[k] = (uint32_t)rnd_fp_bits(8, 23, &kind);
  } else if (es == 3) {
    for (int k = 0; k < 2; ++k) u.d[k] = rnd_fp_bits(11, 52, &kind);
  } else {
    u.d[0] = rnd_fp_bits(15, 48, &kind);
    u.d[1] = kind == 0 ? 0 : kind == 2 ? rnd64() | 1 : rnd64();
  }
  return u.v;
}

static void set_fpc(unsigned v) { __asm__ volatile("sfpc %0" : : "d"(v)); }
static unsigned get_fpc(void) {
  unsigned v;
  __asm__ volatile("efpc %0" : "=d"(v));
  return v;
}
/* The BFP rounding modes of the FPC: nearest, zero, +inf, -inf, prepare for shorter. */
static const unsigned fpc_modes[] = {0, 1, 2, 3, 7};

/* Prints a result with the FPC's flags, then clears them. */
static void put_fp(const char *name, vb v) {
  union { vb v; uint64_t d[2]; } u = {v};
  const unsigned fpc = get_fpc();
  printf("%s %016llx%016llx f%02x\n", name, (unsigned long long)u.d[0], (unsigned long long)u.d[1],
         (fpc >> 16) & 0xFF);
  set_fpc(fpc & ~0x00FF0000u);
}
static void put_fp_cc(const char *name, vb v, int cc) {
  printf("cc%d ", cc);
  put_fp(name, v);
}

#define ASM_PROLOGUE ".machine push\n\t.machine z15\n\t"
#define ASM_EPILOGUE "\n\t.machine pop"
#define CC_OUT "\n\tipm %[cc]\n\tsrl %[cc],28"

/* Instruction shapes: one function per mnemonic and M fields (constants). */
#define DEF2(fn, text)                                                     \
  static vb fn(vb a) {                                                    \
    vb r;                                                                 \
    __asm__ volatile(ASM_PROLOGUE text ASM_EPILOGUE : [r] "=v"(r) : [a] "v"(a)); \
    return r;                                                             \
  }
#define DEF3(fn, text)                                                     \
  static vb fn(vb a, vb b) {                                              \
    vb r;                                                                 \
    __asm__ volatile(ASM_PROLOGUE text ASM_EPILOGUE : [r] "=v"(r) : [a] "v"(a), [b] "v"(b)); \
    return r;                                                             \
  }
#define DEF3CC(fn, text)                                                   \
  static vb fn(vb a, vb b, int *cc) {                                     \
    vb r;                                                                 \
    __asm__ volatile(ASM_PROLOGUE text CC_OUT ASM_EPILOGUE                \
                     : [r] "=&v"(r), [cc] "=d"(*cc) : [a] "v"(a), [b] "v"(b) : "cc"); \
    return r;                                                             \
  }
#define DEF4(fn, text)                                                     \
  static vb fn(vb a, vb b, vb c) {                                        \
    vb r;                                                                 \
    __asm__ volatile(ASM_PROLOGUE text ASM_EPILOGUE                       \
                     : [r] "=v"(r) : [a] "v"(a), [b] "v"(b), [c] "v"(c)); \
    return r;                                                             \
  }
#endif
