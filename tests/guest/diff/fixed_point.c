/* Fixed-point arithmetic with no floating point: Q16.16 multiply and divide with
   rounding (64-bit intermediates), square root by Newton's method, sine and cosine
   by CORDIC in Q1.30, exp and log by series/shift-and-add in Q16.16, and a Mandelbrot
   set rendered in Q4.28 as ASCII art. */
#include <stdint.h>
#include <stdio.h>

typedef int32_t q16;
#define Q16(x) ((q16)((x) * 65536))
static q16 qmul(q16 a, q16 b) { return (q16)(((int64_t)a * b + 0x8000) >> 16); }
static q16 qdiv(q16 a, q16 b) { return (q16)(((int64_t)a * 65536 + (((a < 0) != (b < 0)) ? -(b / 2) : b / 2)) / b); }
static q16 qsqrt(q16 a) {
  if (a <= 0) return 0;
  uint64_t n = (uint64_t)a << 16, x = n, y = (x + 1) / 2;
  while (y < x) x = y, y = (x + n / x) / 2;
  return (q16)x;
}
static void print_q16(const char *label, q16 v) {
  uint32_t mag = v < 0 ? (uint32_t)0 - (uint32_t)v : (uint32_t)v;
  uint32_t frac = (uint32_t)(((uint64_t)(mag & 0xffff) * 100000 + 0x8000) >> 16);
  uint32_t ip = mag >> 16;
  if (frac >= 100000) frac -= 100000, ++ip;
  printf("%s=%s%u.%05u ", label, v < 0 ? "-" : "", ip, frac);
}

/* CORDIC in Q1.30: angles in Q1.30 radians */
static const int32_t atan_tab[30] = {
    843314857, 497837829, 263043837, 133525159, 67021687, 33543516, 16775851, 8388437, 4194283, 2097149,
    1048576,   524288,    262144,    131072,    65536,    32768,    16384,    8192,    4096,    2048,
    1024,      512,       256,       128,       64,       32,       16,       8,       4,       2};
static void cordic(int32_t angle, int32_t *s, int32_t *c) {
  int32_t x = 652032874, y = 0, z = angle; /* x = K = 0.607252935 in Q1.30 */
  for (int i = 0; i < 30; ++i) {
    int32_t dx = x >> i, dy = y >> i;
    if (z >= 0) x -= dy, y += dx, z -= atan_tab[i];
    else x += dy, y -= dx, z += atan_tab[i];
  }
  *s = y, *c = x;
}

static q16 qexp(q16 x) { /* Taylor series, good for |x| <= 4 */
  q16 term = Q16(1), sum = Q16(1);
  for (int n = 1; n < 30; ++n) {
    term = qdiv(qmul(term, x), Q16(n));
    sum += term;
    if (term == 0) break;
  }
  return sum;
}
static q16 qlog(q16 x) { /* x > 0: log by normalising to [1,2) and a series in atanh form */
  static const q16 LN2 = 45426;
  int k = 0;
  while (x >= Q16(2)) x >>= 1, ++k;
  while (x < Q16(1)) x <<= 1, --k;
  q16 t = qdiv(x - Q16(1), x + Q16(1)), t2 = qmul(t, t), term = t, sum = 0;
  for (int n = 1; n < 20; n += 2) {
    sum += qdiv(term, Q16(n));
    term = qmul(term, t2);
  }
  return 2 * sum + k * LN2;
}

int main(void) {
  print_q16("1.5*2.25", qmul(Q16(1.5), Q16(2.25)));
  print_q16("-3.75*0.5", qmul(-Q16(3.75), Q16(0.5)));
  print_q16("10/3", qdiv(Q16(10), Q16(3)));
  print_q16("-10/4", qdiv(-Q16(10), Q16(4)));
  putchar('\n');
  print_q16("sqrt2", qsqrt(Q16(2)));
  print_q16("sqrt1000", qsqrt(Q16(1000)));
  print_q16("sqrt0.25", qsqrt(Q16(0.25)));
  putchar('\n');
  for (int deg = -90; deg <= 90; deg += 30) {
    int32_t ang = (int32_t)((int64_t)deg * 1686629713 / 90), s, c; /* pi/2 = 1686629713 in Q1.30 */
    cordic(ang, &s, &c);
    printf("deg %3d sin=%11d cos=%11d\n", deg, s, c);
  }
  print_q16("e", qexp(Q16(1)));
  print_q16("e^-2", qexp(-Q16(2)));
  print_q16("e^3", qexp(Q16(3)));
  putchar('\n');
  print_q16("ln10", qlog(Q16(10)));
  print_q16("ln0.5", qlog(Q16(0.5)));
  print_q16("ln1", qlog(Q16(1)));
  putchar('\n');
  /* Mandelbrot in Q4.28 */
  const int64_t ONE = (int64_t)1 << 28;
  unsigned total_iter = 0;
  for (int row = 0; row < 20; ++row) {
    for (int col = 0; col < 60; ++col) {
      int64_t cr = -2 * ONE + (int64_t)col * (ONE * 3 / 60), ci = -ONE + (int64_t)row * (ONE * 2 / 20);
      int64_t zr = 0, zi = 0;
      int it = 0;
      while (it < 64) {
        int64_t zr2 = (zr * zr) >> 28, zi2 = (zi * zi) >> 28;
        if (zr2 + zi2 > 4 * ONE) break;
        zi = ((zr * zi) >> 27) + ci;
        zr = zr2 - zi2 + cr;
        ++it;
      }
      total_iter += (unsigned)it;
      putchar(" .:-=+*#%@"[it >= 64 ? 9 : it % 9]);
    }
    putchar('\n');
  }
  printf("mandelbrot iterations %u\n", total_iter);
  return 0;
}
