/* Date arithmetic in the proleptic Gregorian calendar: days from civil and civil
   from days (Howard Hinnant's algorithms, with negative years), weekday, leap years,
   ISO week numbers, adding months with end-of-month clamping, Unix time to
   broken-down UTC, and Julian Day Numbers. Round trips over 400 years of days. */
#include <stdint.h>
#include <stdio.h>

static int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  unsigned yoe = (unsigned)(y - era * 400);
  unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + (int64_t)doe - 719468;
}
static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d) {
  z += 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  unsigned doe = (unsigned)(z - era * 146097);
  unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t yy = (int64_t)yoe + era * 400;
  unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = yy + (*m <= 2);
}
static unsigned weekday(int64_t z) { return (unsigned)(z >= -4 ? (z + 4) % 7 : (z + 5) % 7 + 6); } /* 0 = Sunday */
static int is_leap(int64_t y) { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0); }
static unsigned last_day(int64_t y, unsigned m) {
  static const unsigned char dm[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : dm[m - 1];
}
static unsigned iso_week(int64_t y, unsigned m, unsigned d, int64_t *wy) {
  int64_t z = days_from_civil(y, m, d);
  unsigned wd = (weekday(z) + 6) % 7; /* Monday = 0 */
  int64_t thursday = z - wd + 3;
  int64_t ty;
  unsigned tm, td;
  civil_from_days(thursday, &ty, &tm, &td);
  *wy = ty;
  return (unsigned)((thursday - days_from_civil(ty, 1, 1)) / 7 + 1);
}
static void add_months(int64_t *y, unsigned *m, unsigned *d, int k) {
  int64_t total = *y * 12 + (*m - 1) + k;
  int64_t ny = total >= 0 ? total / 12 : -((-total + 11) / 12);
  *m = (unsigned)(total - ny * 12) + 1;
  *y = ny;
  unsigned ld = last_day(*y, *m);
  if (*d > ld) *d = ld;
}

int main(void) {
  static const char *wdn[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const int64_t ys[] = {1970, 2000, 2024, 1900, 1600, 1, 0, -1, -4713, 9999, 2038};
  static const unsigned ms[] = {1, 2, 2, 3, 12, 1, 3, 12, 11, 12, 1};
  static const unsigned ds[] = {1, 29, 29, 1, 31, 1, 1, 31, 24, 31, 19};
  for (unsigned i = 0; i < sizeof ys / sizeof ys[0]; ++i) {
    int64_t z = days_from_civil(ys[i], ms[i], ds[i]);
    int64_t wy;
    unsigned w = iso_week(ys[i], ms[i], ds[i], &wy);
    printf("%lld-%02u-%02u: day %lld %s leap=%d iso %lld-W%02u jdn %lld\n", (long long)ys[i], ms[i], ds[i],
           (long long)z, wdn[weekday(z)], is_leap(ys[i]), (long long)wy, w, (long long)(z + 2440588));
  }
  unsigned bad = 0;
  int64_t start = days_from_civil(1800, 1, 1), end = days_from_civil(2200, 1, 1);
  int64_t py = 1799;
  unsigned pm = 12, pd = 31;
  for (int64_t z = start; z < end; ++z) {
    int64_t y;
    unsigned m, d;
    civil_from_days(z, &y, &m, &d);
    if (days_from_civil(y, m, d) != z) ++bad;
    /* consecutive: either next day of month, or first of next month */
    int next_ok = (y == py && m == pm && d == pd + 1) || (d == 1 && pd == last_day(py, pm) &&
                                                          ((m == pm + 1 && y == py) || (m == 1 && pm == 12 && y == py + 1)));
    if (!next_ok) ++bad;
    py = y, pm = m, pd = d;
  }
  printf("146097-day cycle check: %lld days, bad=%u\n", (long long)(end - start), bad);
  int64_t y = 2024;
  unsigned m = 1, d = 31;
  for (int k = 0; k < 14; ++k) {
    int64_t yy = y;
    unsigned mm = m, dd = d;
    add_months(&yy, &mm, &dd, k * 5 - 20);
    printf("%lld-%02u-%02u%c", (long long)yy, mm, dd, k % 7 == 6 ? '\n' : ' ');
  }
  static const int64_t ts[] = {0, 951782400, 1700000000, 2147483647, 2147483648LL, -1, -86401, 253402300799LL};
  for (unsigned i = 0; i < sizeof ts / sizeof ts[0]; ++i) {
    int64_t t = ts[i], days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400), secs = t - days * 86400;
    int64_t yy;
    unsigned mm, dd;
    civil_from_days(days, &yy, &mm, &dd);
    printf("%lld -> %04lld-%02u-%02uT%02u:%02u:%02uZ %s\n", (long long)t, (long long)yy, mm, dd,
           (unsigned)(secs / 3600), (unsigned)(secs / 60 % 60), (unsigned)(secs % 60), wdn[weekday(days)]);
  }
  /* Friday the 13ths in the 20th century */
  unsigned f13 = 0;
  for (int64_t yy = 1901; yy <= 2000; ++yy)
    for (unsigned mm = 1; mm <= 12; ++mm) f13 += weekday(days_from_civil(yy, mm, 13)) == 5;
  printf("friday 13ths 1901-2000: %u\n", f13);
  return bad != 0;
}
