/* switch statements: dense ranges (GCC builds jump tables: an indexed load of an
   offset plus an indirect branch), dense ranges with holes and a default, a
   switch on a char, a switch that GCC turns into a value table lookup, and sparse
   switches (compare trees / binary search over case values, including negative and
   64-bit values). Every input in a range around the cases is tried. */
#include <stdint.h>
#include <stdio.h>

static int __attribute__((noinline)) dense(int x) {
  switch (x) {
  case 0: return 17;
  case 1: return x * 3 + 1;
  case 2: return -4;
  case 3: return 1000;
  case 4: return x << 5;
  case 5: return 55;
  case 6: return 12345;
  case 7: return -x;
  case 8: return 8 * 8;
  case 9: return 99;
  case 10: return 1 << 20;
  case 11: return 0;
  case 12: return 'c';
  case 13: return 31;
  case 14: return x ^ 0x55;
  case 15: return 15000;
  default: return -1;
  }
}

static const char *__attribute__((noinline)) holes(unsigned x) {
  switch (x) {
  case 100: return "hundred";
  case 101: return "hundred-one";
  case 103: return "hundred-three";
  case 104: return "hundred-four";
  case 106: return "hundred-six";
  case 107: case 108: case 109: return "107-109";
  case 112: return "hundred-twelve";
  default: return "other";
  }
}

static int __attribute__((noinline)) chars(char c) {
  switch (c) {
  case 'a': case 'e': case 'i': case 'o': case 'u': return 1;
  case 'y': return 2;
  case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9': return 3;
  case ' ': case '\t': case '\n': return 4;
  case '\xe9': return 5; /* a byte >= 0x80: char is unsigned on s390x */
  default: return 0;
  }
}

/* GCC can turn this into a table of constants (a switch conversion). */
static unsigned __attribute__((noinline)) days_in_month(unsigned m) {
  switch (m) {
  case 1: return 31; case 2: return 28; case 3: return 31; case 4: return 30;
  case 5: return 31; case 6: return 30; case 7: return 31; case 8: return 31;
  case 9: return 30; case 10: return 31; case 11: return 30; case 12: return 31;
  default: return 0;
  }
}

static int __attribute__((noinline)) sparse(int x) {
  switch (x) {
  case -1000000: return 1;
  case -77: return 2;
  case -1: return 3;
  case 0: return 4;
  case 13: return 5;
  case 255: return 6;
  case 256: return 7;
  case 4096: return 8;
  case 65535: return 9;
  case 1000000: return 10;
  case 0x7fffffff: return 11;
  default: return 0;
  }
}

static int __attribute__((noinline)) sparse64(uint64_t x) {
  switch (x) {
  case 0: return 1;
  case 0xffffffffULL: return 2;
  case 0x100000000ULL: return 3;
  case 0x8000000000000000ULL: return 4;
  case 0xffffffffffffffffULL: return 5;
  case 0x123456789ULL: return 6;
  default: return 0;
  }
}

/* A switch inside a loop with fall-through: a Duff's-device style copy. */
static void duff(unsigned char *to, const unsigned char *from, int count) {
  int n = (count + 7) / 8;
  if (count <= 0) return;
  switch (count % 8) {
  case 0: do { *to++ = *from++; /* fall through */
  case 7: *to++ = *from++; /* fall through */
  case 6: *to++ = *from++; /* fall through */
  case 5: *to++ = *from++; /* fall through */
  case 4: *to++ = *from++; /* fall through */
  case 3: *to++ = *from++; /* fall through */
  case 2: *to++ = *from++; /* fall through */
  case 1: *to++ = *from++;
          } while (--n > 0);
  }
}

int main(void) {
  long sum = 0;
  for (int x = -3; x < 20; ++x) printf("%d:%d ", x, dense(x)), sum += dense(x);
  printf("\nsum %ld\n", sum);
  for (unsigned x = 98; x < 115; ++x) printf("%u=%s ", x, holes(x));
  putchar('\n');
  const char *text = "Say: you owe me 42 \xe9" "clairs\ttoday\n";
  for (const char *p = text; *p; ++p) putchar('0' + chars(*p));
  putchar('\n');
  unsigned total = 0;
  for (unsigned m = 0; m < 14; ++m) total = total * 3 + days_in_month(m);
  printf("days %u\n", total);
  static const int probes[] = {-1000001, -1000000, -78, -77, -2, -1, 0, 1, 12, 13, 14, 254, 255, 256, 257,
                               4096, 65535, 65536, 999999, 1000000, 0x7ffffffe, 0x7fffffff};
  for (unsigned i = 0; i < sizeof probes / sizeof probes[0]; ++i) printf("%d", sparse(probes[i]) % 10);
  putchar('\n');
  static const uint64_t p64[] = {0, 1, 0xfffffffeULL, 0xffffffffULL, 0x100000000ULL, 0x100000001ULL,
                                 0x8000000000000000ULL, 0x7fffffffffffffffULL, ~0ULL, 0x123456789ULL};
  for (unsigned i = 0; i < sizeof p64 / sizeof p64[0]; ++i) printf("%d", sparse64(p64[i]));
  putchar('\n');
  unsigned char src[40], dst[40];
  for (int i = 0; i < 40; ++i) src[i] = (unsigned char)(i * 9);
  for (int c = 0; c <= 20; ++c) {
    for (int i = 0; i < 40; ++i) dst[i] = 0xee;
    duff(dst, src, c);
    unsigned h = 0;
    for (int i = 0; i < 40; ++i) h = h * 31 + dst[i];
    printf("%08x%c", h, c % 7 == 6 ? '\n' : ' ');
  }
  putchar('\n');
  return 0;
}
