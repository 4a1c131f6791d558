/* printf's integer conversions with their flags, widths, precisions and length
   modifiers, plus %c, %s and %%. */
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int main(void) {
  const long long values[] = {0, 1, -1, 42, -42, 255, 65535, 2147483647, -2147483647 - 1,
                              4294967295LL, LLONG_MAX, LLONG_MIN, 1234567890123LL};
  for (unsigned k = 0; k < sizeof values / sizeof values[0]; ++k) {
    long long v = values[k];
    printf("[%d|%i|%u|%x|%X|%o]\n", (int)v, (int)v, (unsigned)v, (unsigned)v, (unsigned)v, (unsigned)v);
    printf("[%lld|%llu|%llx|%#llo|%#llx]\n", v, (unsigned long long)v, (unsigned long long)v,
           (unsigned long long)v, (unsigned long long)v);
    printf("[%hhd|%hhu|%hd|%hu|%ld|%lu]\n", (signed char)v, (unsigned char)v, (short)v, (unsigned short)v,
           (long)v, (unsigned long)v);
    printf("[%+d|% d|%-8d|%8d|%08d|%.5d|%8.3d|%-+8.3d]\n", (int)v, (int)v, (int)v, (int)v, (int)v, (int)v,
           (int)v, (int)v);
    printf("[%zu|%zd|%jd|%ju|%td]\n", (size_t)v, (ptrdiff_t)v, (intmax_t)v, (uintmax_t)v, (ptrdiff_t)v);
    printf("[%" PRId64 "|%" PRIu32 "|%" PRIx16 "|%" PRIo8 "]\n", (int64_t)v, (uint32_t)v, (uint16_t)v,
           (uint8_t)v);
  }
  printf("[%c|%5c|%-5c|%s|%.3s|%10s|%-10s|%%]\n", 'A', 'b', 'c', "string", "truncated", "right", "left");
  printf("[%*d|%-*d|%.*d]\n", 6, 42, 6, 42, 4, 7);
  int n = 0;
  printf("counted%n\n", &n);
  printf("n=%d\n", n);
  char buf[16];
  volatile size_t room = sizeof buf;  /* truncation on purpose */
  int len = snprintf(buf, room, "%d-%d-%d-%d", 1000, 2000, 3000, 4000);
  printf("snprintf: %d \"%s\"\n", len, buf);
  return 0;
}
