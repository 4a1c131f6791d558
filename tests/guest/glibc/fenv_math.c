/* <fenv.h> and <math.h> as a user's program calls them: the four rounding modes
   (fesetround, fegetround) on division, sqrt and conversion; the exception flags
   (feclearexcept, fetestexcept) after an inexact, a divide by zero, an overflow and
   an invalid operation; and libm's functions, printed in full (%a and %.17g). */
#include <fenv.h>
#include <math.h>
#include <stdio.h>

static const int modes[] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
static const char *names[] = {"nearest", "upward", "downward", "toward zero"};

int main(void) {
  volatile double one = 1.0, three = 3.0, two = 2.0, zero = 0.0, big = 1e308, m = -2.5;
  for (int k = 0; k < 4; ++k) {
    fesetround(modes[k]);
    printf("%-12s %d  1/3 %a  -1/3 %a  sqrt(2) %a  rint(-2.5) %g  lrint(2.5) %ld  (float)1/3 %a\n", names[k],
           fegetround() == modes[k], one / three, -one / three, sqrt(two), rint(m), lrint(2.5),
           (double)((float)one / (float)three));
  }
  fesetround(FE_TONEAREST);
  feclearexcept(FE_ALL_EXCEPT);
  volatile double r = one / three;
  printf("inexact %d\n", fetestexcept(FE_INEXACT) != 0);
  feclearexcept(FE_ALL_EXCEPT);
  r = one / zero;
  printf("divbyzero %d inf %d\n", fetestexcept(FE_DIVBYZERO) != 0, isinf(r));
  feclearexcept(FE_ALL_EXCEPT);
  r = big * big;
  printf("overflow %d\n", fetestexcept(FE_OVERFLOW) != 0);
  feclearexcept(FE_ALL_EXCEPT);
  r = zero / zero;
  printf("invalid %d nan %d\n", fetestexcept(FE_INVALID) != 0, isnan(r));
  const double xs[] = {0.5, 1.0, 2.0, 10.0, -3.25};
  for (int k = 0; k < 5; ++k) {
    const double x = xs[k];
    printf("x %g: sin %.17g cos %.17g exp %.17g log %.17g pow %.17g atan2 %.17g fmod %.17g floor %g\n", x, sin(x),
           cos(x), exp(x), log(fabs(x)), pow(fabs(x), 0.75), atan2(x, 3.0), fmod(x, 0.7), floor(x));
  }
  return 0;
}
