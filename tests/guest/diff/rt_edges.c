/* Runtime edge cases found in review: alternate-form octal, signed and prefixed
   strtol/strtoul (end pointers included). */
#include <stdio.h>
#include <stdlib.h>

static void conv(const char *s, int base) {
  char *end;
  long v = strtol(s, &end, base);
  unsigned long u = strtoul(s, 0, base);
  printf("strtol(\"%s\", %d) = %ld, consumed %d; strtoul = %lu\n", s, base, v, (int)(end - s), u);
}

int main(void) {
  printf("[%#o] [%#o] [%#5o] [%#.3o] [%#x] [%#X]\n", 8, 0, 8, 8, 255, 255);
  conv("-1", 10);
  conv("+42", 10);
  conv("0x", 16);
  conv("0x1f", 16);
  conv("0x1f", 0);
  conv("017", 0);
  conv("  -0x10", 0);
  conv("zz", 36);
  return 0;
}
