/* Floating point as GCC emits it for C at -O2 -march=z10: float and double
   arithmetic, comparisons of every kind (including with NaN), conversions to and from
   every integer type (unsigned 64-bit goes through the extended format at z10), rint,
   sqrt, fma, fabs and copysign, long double arithmetic, and a few numeric kernels
   (series, Newton iteration, a dot product, a small matrix solve). Results are printed
   as bit patterns. (floor, ceil, trunc, round and nearbyint are library calls at z10;
   bfp_convert.c covers the FIDBRA they become at z196.) */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t bd(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static uint32_t bf(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

/* GCC calls sqrt for a negative operand (to set errno); there is no libm here. */
double sqrt(double x) {
  __asm__("sqdbr %0,%0" : "+f"(x));
  return x;
}
float sqrtf(float x) {
  __asm__("sqebr %0,%0" : "+f"(x));
  return x;
}

/* noinline keeps the operations at run time, not folded by the compiler */
#define NI __attribute__((noinline))
NI static double add(double a, double b) { return a + b; }
NI static double sub(double a, double b) { return a - b; }
NI static double mul(double a, double b) { return a * b; }
NI static double dvd(double a, double b) { return a / b; }
NI static float addf(float a, float b) { return a + b; }
NI static float mulf(float a, float b) { return a * b; }
NI static float dvdf(float a, float b) { return a / b; }
NI static double muladd(double a, double b, double c) { return __builtin_fma(a, b, c); }
NI static float muladdf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
NI static double root(double a) { return __builtin_sqrt(a); }
NI static float rootf(float a) { return __builtin_sqrtf(a); }
NI static int cmp(double a, double b) {
  return (a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 | (a == b) << 4 | (a != b) << 5 |
         __builtin_isunordered(a, b) << 6 | __builtin_isless(a, b) << 7 | __builtin_islessgreater(a, b) << 8;
}
NI static int cmpf(float a, float b) { return (a < b) | (a == b) << 1 | (a > b) << 2 | (a != a) << 3; }
NI static long to_long(double a) { return (long)a; }
NI static int to_int(double a) { return (int)a; }
NI static unsigned to_uint(double a) { return (unsigned)a; }
NI static unsigned long to_ulong(double a) { return (unsigned long)a; }
NI static short to_short(float a) { return (short)a; }
NI static unsigned char to_uchar(float a) { return (unsigned char)a; }
NI static double from_long(long a) { return (double)a; }
NI static double from_ulong(unsigned long a) { return (double)a; }
NI static double from_int(int a) { return (double)a; }
NI static double from_uint(unsigned a) { return (double)a; }
NI static float from_longf(long a) { return (float)a; }
NI static float from_ulongf(unsigned long a) { return (float)a; }
NI static float narrow(double a) { return (float)a; }
NI static double widen(float a) { return (double)a; }
NI static double r_rint(double a) { return __builtin_rint(a); }
NI static double r_fabs(double a) { return __builtin_fabs(a); }
NI static double r_copysign(double a, double b) { return __builtin_copysign(a, b); }
NI static long double addl(long double a, long double b) { return a + b; }
NI static long double mull(long double a, long double b) { return a * b; }
NI static long double dvdl(long double a, long double b) { return a / b; }
NI static long double subl(long double a, long double b) { return a - b; }
NI static int cmpl(long double a, long double b) { return (a < b) | (a == b) << 1 | (a > b) << 2; }
NI static long to_longl(long double a) { return (long)a; }
NI static double narrowl(long double a) { return (double)a; }
NI static float narrowlf(long double a) { return (float)a; }
NI static int is_nan(double a) { return __builtin_isnan(a); }
NI static int is_inf(double a) { return __builtin_isinf(a); }
NI static int is_finite(double a) { return __builtin_isfinite(a); }
NI static int sign_bit(double a) { return __builtin_signbit(a); }

static const double vals[] = {0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.75, -1e10, 1e10, 2147483647.5,
                              -2147483648.75, 4294967295.9, 9.2e18, -9.3e18, 1.8e19, 1e300, -1e-310,
                              __builtin_inf(), -__builtin_inf(), __builtin_nan("")};
#define NV (sizeof vals / sizeof vals[0])

int main(void) {
  for (unsigned i = 0; i < NV; ++i) {
    double a = vals[i];
    printf("%016llx: add %llx sub %llx mul %llx div %llx sqrt %llx fma %llx\n", (unsigned long long)bd(a),
           (unsigned long long)bd(add(a, 0.1)), (unsigned long long)bd(sub(a, 1e-17)),
           (unsigned long long)bd(mul(a, 3.3)), (unsigned long long)bd(dvd(1.0, a)),
           (unsigned long long)bd(root(a)), (unsigned long long)bd(muladd(a, 1.1, -0.7)));
    float f = narrow(a);
    printf("  float %08x add %08x mul %08x div %08x sqrt %08x fma %08x widen %llx\n", bf(f), bf(addf(f, 0.1f)),
           bf(mulf(f, 3.3f)), bf(dvdf(1.0f, f)), bf(rootf(f)), bf(muladdf(f, 1.1f, -0.7f)),
           (unsigned long long)bd(widen(f)));
    printf("  rint %llx fabs %llx cs %llx\n", (unsigned long long)bd(r_rint(a)), (unsigned long long)bd(r_fabs(a)),
           (unsigned long long)bd(r_copysign(2.0, a)));
    long double l = a, third = dvdl(1.0L, 3.0L);
    long double sum = addl(l, third), prod = mull(l, third), quo = dvdl(l, 7.0L), dif = subl(l, third);
    printf("  long double %llx %llx %llx %llx %08x %llx %llx %x", (unsigned long long)bd(narrowl(sum)),
           (unsigned long long)bd(narrowl(prod)), (unsigned long long)bd(narrowl(quo)),
           (unsigned long long)bd(narrowl(dif)), bf(narrowlf(prod)), (unsigned long long)bd(narrowl(sum - l)),
           (unsigned long long)bd(narrowl(dif - l)), cmpl(l, third));
    if (a == a && a > -9.2e18 && a < 9.2e18) printf(" %ld", to_longl(l * 1.5L));
    printf("\n");
    printf("  class %d%d%d%d", is_nan(a), is_inf(a), is_finite(a), sign_bit(a) != 0);
    /* conversions to integers only where C defines them (in range) */
    if (a == a && a > -2147483649.0 && a < 2147483648.0) printf(" int %d", to_int(a));
    if (a == a && a > -1.0 && a < 4294967296.0) printf(" uint %u", to_uint(a));
    if (a == a && a >= -9.2233720368547758e18 && a < 9.2233720368547758e18) printf(" long %ld", to_long(a));
    if (a == a && a > -1.0 && a < 1.8446744073709552e19) printf(" ulong %lu", to_ulong(a));
    if (f == f && f > -32769.0f && f < 32768.0f) printf(" short %d", to_short(f));
    if (f == f && f > -1.0f && f < 256.0f) printf(" uchar %u", to_uchar(f));
    printf("\n  cmp");
    for (unsigned j = 0; j < NV; ++j) printf(" %x", cmp(a, vals[j]));
    printf("\n  cmpf");
    for (unsigned j = 0; j < NV; j += 2) printf(" %x", cmpf(f, narrow(vals[j])));
    printf("\n");
  }
  static const long longs[] = {0, 1, -1, 9007199254740993L, -9007199254740993L, 0x7FFFFFFFFFFFFFFFL,
                               (long)0x8000000000000000UL, 16777217, 123456789};
  for (unsigned i = 0; i < sizeof longs / sizeof longs[0]; ++i) {
    long v = longs[i];
    printf("from %ld: %llx %llx %llx %llx %08x %08x\n", v, (unsigned long long)bd(from_long(v)),
           (unsigned long long)bd(from_ulong((unsigned long)v)), (unsigned long long)bd(from_int((int)v)),
           (unsigned long long)bd(from_uint((unsigned)v)), bf(from_longf(v)), bf(from_ulongf((unsigned long)v)));
  }
  /* kernels */
  double s = 0, t = 1;
  for (int k = 1; k < 200; ++k) s += 1.0 / ((double)k * k), t *= 1.0001;
  double x = 2;
  for (int k = 0; k < 6; ++k) x = x - (x * x - 2) / (2 * x);
  float dot = 0;
  for (int k = 0; k < 100; ++k) dot += (float)k * 0.37f - (float)(k & 7);
  double m[3][4] = {{2, 1, -1, 8}, {-3, -1, 2, -11}, {-2, 1, 2, -3}};
  for (int c = 0; c < 3; ++c)
    for (int r = c + 1; r < 3; ++r) {
      double q = m[r][c] / m[c][c];
      for (int k = c; k < 4; ++k) m[r][k] -= q * m[c][k];
    }
  double z3 = m[2][3] / m[2][2], y3 = (m[1][3] - m[1][2] * z3) / m[1][1], x3 = (m[0][3] - m[0][2] * z3 - m[0][1] * y3) / m[0][0];
  printf("kernels %llx %llx %llx %08x %llx %llx %llx\n", (unsigned long long)bd(s), (unsigned long long)bd(t),
         (unsigned long long)bd(x), bf(dot), (unsigned long long)bd(x3), (unsigned long long)bd(y3),
         (unsigned long long)bd(z3));
  return 0;
}
