/* Formatting through the runtime's snprintf: widths, precisions, flags - 0 + space
   #, * width and precision, length modifiers hh h l ll z, octal/hex/unsigned,
   chars and strings, the return value when truncating, and size 0. */
#include <limits.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

static void show(const char *fmt, int r, const char *buf) { printf("%-14s -> %2d [%s]\n", fmt, r, buf); }

#define T(fmt, ...)                                        \
  do {                                                     \
    char b[96];                                            \
    int r = snprintf(b, sizeof b, fmt, __VA_ARGS__);       \
    show(#fmt, r, b);                                      \
  } while (0)

int main(void) {
  T("%d", 0);
  T("%d", INT_MIN);
  T("%d", INT_MAX);
  T("%i|%i", -1, 1);
  T("%5d|%-5d|%05d", 42, 42, 42);
  T("%+d|%+d|% d|% d", 5, -5, 5, -5);
  T("%+05d|%-+6d|", 7, 7);
  T("%.3d|%.0d|%.0d", 7, 0, 1);
  T("%8.3d|%-8.3d|", -7, -7);
  T("%u", 4294967295u);
  T("%x|%X|%#x|%#X|%#x", 0xdeadbeefu, 0xdeadbeefu, 255u, 255u, 0u);
  T("%o|%#o|%#o", 8u, 8u, 0u);
  T("%08x|%-8x|%8X", 0xabcu, 0xabcu, 0xabcu);
  T("%ld|%lu|%lx", LONG_MIN, ULONG_MAX, 0x123456789abcdefUL);
  T("%lld|%llu", LLONG_MIN, ULLONG_MAX);
  T("%hd|%hu|%hx", -1, 65537, 0x12345);
  T("%hhd|%hhu|%hhx", 255, 257, 0x1ff);
  T("%zu|%zd", (size_t)123456789012ULL, (ptrdiff_t)-5);
  T("%c%c%c", 'a', 'B', '!');
  T("%3c|%-3c|", 'x', 'y');
  T("%s|%10s|%-10s|", "str", "right", "left");
  T("%.2s|%5.1s|%-5.3s|", "abcdef", "xyz", "hello");
  T("%*d|%-*d|%*d", 6, 1, 6, 2, -6, 3);
  T("%.*d|%*.*s|", 4, 9, 8, 3, "truncate");
  T("%%|%d%%", 50);
  T("%s", "");
  T("[%5s][%-5s]", "", "");
  /* truncation: the return value counts what would have been written */
  char small[6];
  int r = snprintf(small, sizeof small, "%d-%s", 123456, "abc");
  printf("truncated r=%d [%s]\n", r, small);
  r = snprintf(small, 1, "abc");
  printf("size1 r=%d [%s]\n", r, small);
  r = snprintf(0, 0, "%d %s", 42, "counted");
  printf("size0 r=%d\n", r);
  /* build a table with padding */
  static const char *names[] = {"alpha", "b", "gamma-delta", ""};
  static const long vals[] = {1, -22, 333333, 0};
  char line[80];
  for (int i = 0; i < 4; ++i) {
    snprintf(line, sizeof line, "|%-12s|%8ld|%08lx|%+6ld|", names[i], vals[i], (unsigned long)vals[i], vals[i]);
    puts(line);
  }
  return 0;
}
