/* Which NaN MULTIPLY AND ADD and MULTIPLY AND SUBTRACT (MAEBR, MADBR, MSEBR,
   MSDBR) deliver, with every mix of quiet NaN, signaling NaN, infinity, zero and
   one in the three operands. The Principles of Operation's table "Results: MULTIPLY
   AND ADD" decides: a signaling NaN before a quiet one, and among NaNs of a kind the
   third operand, then the second, then the first; infinity times zero with no NaN is
   the default NaN. The instructions are written out (GCC may order the multiplicands
   either way, and at -march=z13 and later uses the vector forms): MAEBR c, a, b
   computes a * b + c with the addend c as the first operand (R1), b the second (R2)
   and a the third (R3). Each NaN carries its variable's number (a 1, b 2, c 3) in its
   payload, so the output says which won.
   QEMU 7.2 takes the second operand's NaN first, quiet or not, so this program is
   checked against fma_nan.expected (compare.sh notes what QEMU says); QEMU 9.2
   follows the table. */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static float f_of(uint32_t bits) { float f; memcpy(&f, &bits, 4); return f; }
static uint32_t bits_of(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static double d_of(uint64_t bits) { double d; memcpy(&d, &bits, 8); return d; }
static uint64_t dbits_of(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }

/* Operand kinds; NaNs carry the operand number (1-3) in their low payload bits. */
enum { QNAN, SNAN, INF, ZERO, ONE, KINDS };
static const char *kind_name[KINDS] = {"qnan", "snan", "inf", "zero", "one"};

static float maebr(float a, float b, float c) {
  __asm__ volatile("maebr %0,%1,%2" : "+f"(c) : "f"(a), "f"(b));
  return c;
}
static float msebr(float a, float b, float c) {
  __asm__ volatile("msebr %0,%1,%2" : "+f"(c) : "f"(a), "f"(b));
  return c;
}
static double madbr(double a, double b, double c) {
  __asm__ volatile("madbr %0,%1,%2" : "+f"(c) : "f"(a), "f"(b));
  return c;
}
static double msdbr(double a, double b, double c) {
  __asm__ volatile("msdbr %0,%1,%2" : "+f"(c) : "f"(a), "f"(b));
  return c;
}

static uint32_t short_operand(int kind, int which) {
  switch (kind) {
    case QNAN: return 0x7FC00000u | (uint32_t)which;
    case SNAN: return 0x7F800000u | (uint32_t)which;
    case INF: return 0x7F800000u;
    case ZERO: return 0;
    default: return 0x3F800000u;
  }
}
static uint64_t long_operand(int kind, int which) {
  switch (kind) {
    case QNAN: return 0x7FF8000000000000ull | (uint64_t)which;
    case SNAN: return 0x7FF0000000000000ull | (uint64_t)which;
    case INF: return 0x7FF0000000000000ull;
    case ZERO: return 0;
    default: return 0x3FF0000000000000ull;
  }
}

int main(void) {
  for (int a = 0; a < KINDS; ++a)
    for (int b = 0; b < KINDS; ++b)
      for (int c = 0; c < KINDS; ++c) {
        if (a > SNAN && b > SNAN && c > SNAN && !((a == INF && b == ZERO) || (a == ZERO && b == INF)))
          continue; /* no NaN in and none made: nothing to choose */
        volatile float fa = f_of(short_operand(a, 1)), fb = f_of(short_operand(b, 2)),
                       fc = f_of(short_operand(c, 3));
        volatile double da = d_of(long_operand(a, 1)), db = d_of(long_operand(b, 2)),
                        dc = d_of(long_operand(c, 3));
        feclearexcept(FE_ALL_EXCEPT);
        uint32_t s_add = bits_of(maebr(fa, fb, fc));
        int s_invalid = fetestexcept(FE_INVALID) != 0;
        uint32_t s_sub = bits_of(msebr(fa, fb, fc));
        uint64_t l_add = dbits_of(madbr(da, db, dc));
        uint64_t l_sub = dbits_of(msdbr(da, db, dc));
        printf("%-4s * %-4s + %-4s: short %08x sub %08x long %016llx sub %016llx invalid %d\n",
               kind_name[a], kind_name[b], kind_name[c], s_add, s_sub, (unsigned long long)l_add,
               (unsigned long long)l_sub, s_invalid);
      }
  return 0;
}
