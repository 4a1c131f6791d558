/* Variadic functions of our own: va_arg of int, unsigned, long, long long,
   pointers and a struct pointer mixed; more arguments than fit in registers (the
   rest on the stack); va_copy to walk the list twice; passing a va_list down to
   another function; and a mini formatter built on vsnprintf. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static long sum_ints(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; ++i) s += va_arg(ap, int);
  va_end(ap);
  return s;
}

/* format letters: i int, u unsigned, l long, q long long, p pointer to int, s string, c char */
static uint64_t walk(const char *fmt, va_list ap) {
  uint64_t h = 0;
  for (const char *f = fmt; *f; ++f) {
    switch (*f) {
    case 'i': h = h * 31 + (uint64_t)(int64_t)va_arg(ap, int); break;
    case 'u': h = h * 31 + va_arg(ap, unsigned); break;
    case 'l': h = h * 31 + (uint64_t)va_arg(ap, long); break;
    case 'q': h = h * 31 + (uint64_t)va_arg(ap, long long); break;
    case 'p': h = h * 31 + (uint64_t)*va_arg(ap, int *); break;
    case 's': for (const char *s = va_arg(ap, const char *); *s; ++s) h = h * 31 + (unsigned char)*s; break;
    case 'c': h = h * 31 + (unsigned char)va_arg(ap, int); break;
    }
  }
  return h;
}

static uint64_t mixed(const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  uint64_t a = walk(fmt, ap);
  uint64_t b = walk(fmt, ap2); /* the copy walks the same arguments again */
  va_end(ap2);
  va_end(ap);
  if (a != b) printf("BAD va_copy\n");
  return a;
}

static int fmt_into(char *buf, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vsnprintf(buf, n, fmt, ap);
  va_end(ap);
  return r;
}

struct point {
  int x, y;
};
static int sum_points(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; ++i) {
    struct point *p = va_arg(ap, struct point *);
    s += p->x * 10 + p->y;
  }
  va_end(ap);
  return s;
}

/* Variadic with a long fixed prefix: the named args use up the registers. */
static long many(long a, long b, long c, long d, int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = a + 2 * b + 3 * c + 4 * d;
  for (int i = 0; i < n; ++i) s = s * 7 + va_arg(ap, long);
  va_end(ap);
  return s;
}

/* Two passes over the list: count then sum, restarting with va_start. */
static int max_of(int first, ...) {
  va_list ap;
  int m = first, v;
  va_start(ap, first);
  while ((v = va_arg(ap, int)) != -1)
    if (v > m) m = v;
  va_end(ap);
  return m;
}

int main(void) {
  printf("sum_ints %ld %ld %ld\n", sum_ints(0), sum_ints(3, 1, 2, 3),
         sum_ints(12, 1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 0x7fffffff, -0x7fffffff - 1));
  int k = 77;
  printf("mixed %016llx\n", (unsigned long long)mixed("iulqpsc", -1, 0xffffffffu, -5L, 0x123456789abcLL, &k, "str", 'Z'));
  printf("mixed2 %016llx\n", (unsigned long long)mixed("qqqqiiiiuuuullllsscc", 1LL, 2LL, 3LL, 4LL, 5, 6, 7, 8, 9u, 10u,
                                                       11u, 12u, 13L, 14L, 15L, 16L, "a", "bc", 'd', 'e'));
  char buf[128];
  int r = fmt_into(buf, sizeof buf, "%s|%5d|%-5d|%05d|%x|%lld|%c", "hey", 42, 42, -42, 0xbeefu, -1234567890123LL, 'Q');
  printf("fmt_into %d [%s]\n", r, buf);
  r = fmt_into(buf, 8, "%s", "truncated string");
  printf("truncated %d [%s]\n", r, buf);
  struct point p1 = {1, 2}, p2 = {3, 4}, p3 = {-5, 6};
  printf("points %d\n", sum_points(3, &p1, &p2, &p3));
  printf("many %ld\n", many(1, 2, 3, 4, 6, 10L, 20L, 30L, -40L, 0x7fffffffffffL, -1L));
  printf("max_of %d %d\n", max_of(3, 9, 2, 12, 7, -1), max_of(-5, -1));
  return 0;
}
