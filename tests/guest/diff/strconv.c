/* String to integer and back: the runtime's strtol/strtoul/atoi (bases 0, 2, 8, 10,
   16, 36, signs, leading blanks, the end pointer), hand-written itoa in every base
   2..36 with a round trip through strtoul, and decimal parsing with overflow
   detection done by hand. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *utoa_base(uint64_t v, unsigned base, char *buf) {
  char tmp[72];
  int n = 0;
  do {
    unsigned d = (unsigned)(v % base);
    tmp[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
    v /= base;
  } while (v);
  for (int i = 0; i < n; ++i) buf[i] = tmp[n - 1 - i];
  buf[n] = 0;
  return buf;
}

/* returns 0 on success, -1 on overflow or junk */
static int parse_i64(const char *s, int64_t *out) {
  int neg = 0;
  if (*s == '-' || *s == '+') neg = *s++ == '-';
  if (!*s) return -1;
  uint64_t lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, v = 0;
  for (; *s; ++s) {
    if (*s < '0' || *s > '9') return -1;
    unsigned d = (unsigned)(*s - '0');
    if (v > (lim - d) / 10) return -1;
    v = v * 10 + d;
  }
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return 0;
}

int main(void) {
  static const struct {
    const char *s;
    int base;
  } cases[] = {{"0", 10},       {"  42", 10},     {"-17xyz", 10},    {"+99", 10},       {"0x1F", 0},
               {"0X1f", 16},    {"1f", 16},       {"0777", 0},       {"777", 8},        {"1010", 2},
               {"zz", 36},      {"Zz", 36},       {"9", 8},          {"", 10},          {"   -0x10", 0},
               {"123456789012", 10}, {"7fffffffffffffff", 16}, {"-1", 10}, {"\t\n 5", 10}, {"0x", 16}};
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    char *end;
    long v = strtol(cases[i].s, &end, cases[i].base);
    unsigned long u = strtoul(cases[i].s, 0, cases[i].base);
    printf("strtol(\"%s\",%d)=%ld consumed=%d strtoul=%lu\n", cases[i].s, cases[i].base, v, (int)(end - cases[i].s), u);
  }
  printf("atoi %d %d %d %d\n", atoi("2147483647"), atoi("-2147483648"), atoi("  12abc"), atoi("abc"));
  char buf[80];
  unsigned bad = 0;
  uint64_t x = 0x9e3779b97f4a7c15ULL;
  for (unsigned base = 2; base <= 36; ++base) {
    for (int k = 0; k < 20; ++k) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      uint64_t v = x >> (k * 3);
      utoa_base(v, base, buf);
      if (strtoul(buf, 0, (int)base) != v) ++bad;
    }
    utoa_base(0xffffffffffffffffULL, base, buf);
    if (base == 2 || base == 8 || base == 10 || base == 16 || base == 36) printf("base %2u max %s\n", base, buf);
  }
  printf("round trips bad=%u\n", bad);
  const char *nums[] = {"9223372036854775807", "9223372036854775808", "-9223372036854775808",
                        "-9223372036854775809", "0", "-0", "12a", "", "+", "18446744073709551615"};
  for (unsigned i = 0; i < sizeof nums / sizeof nums[0]; ++i) {
    int64_t v = 0;
    int r = parse_i64(nums[i], &v);
    printf("parse \"%s\" -> %d %lld\n", nums[i], r, (long long)v);
  }
  return bad != 0;
}
