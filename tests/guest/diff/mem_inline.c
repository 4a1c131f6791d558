/* Memory operations GCC expands inline on s390x: memset to zero of a variable
   length (XC in a 256-byte loop plus an EXRL-executed XC for the remainder),
   memset to a non-zero byte of a constant length (MVI then an overlapping MVC that
   propagates the byte: this depends on MVC's byte-at-a-time semantics), constant
   size memcpy (MVC) and memcmp (CLC with the condition code turned into -1/0/1),
   and explicit overlapping copies through a struct. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t hash(const unsigned char *p, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 16777619u;
  return h;
}

static void __attribute__((noinline)) zero_var(unsigned char *p, size_t n) { __builtin_memset(p, 0, n); }
static void __attribute__((noinline)) fill_a5_37(unsigned char *p) { __builtin_memset(p, 0xa5, 37); }
static void __attribute__((noinline)) fill_var_300(unsigned char *p, int c) { __builtin_memset(p, c, 300); }
static void __attribute__((noinline)) copy_19(unsigned char *d, const unsigned char *s) { __builtin_memcpy(d, s, 19); }
static void __attribute__((noinline)) copy_600(unsigned char *d, const unsigned char *s) { __builtin_memcpy(d, s, 600); }
static int __attribute__((noinline)) cmp_8(const void *a, const void *b) { return __builtin_memcmp(a, b, 8); }
static int __attribute__((noinline)) cmp_24(const void *a, const void *b) { return __builtin_memcmp(a, b, 24) < 0; }
/* MVC with a destination one byte past the source: the byte ripples forward */
static void __attribute__((noinline)) ripple(unsigned char *p) {
  __asm__ volatile("mvc 1(40,%0),0(%0)" : : "a"(p) : "memory");
}
/* MVC with a destination 8 bytes past the source: an 8-byte pattern repeats */
static void __attribute__((noinline)) ripple8(unsigned char *p) {
  __asm__ volatile("mvc 8(64,%0),0(%0)" : : "a"(p) : "memory");
}

int main(void) {
  static unsigned char buf[1200], src[1200];
  for (int i = 0; i < 1200; ++i) src[i] = (unsigned char)(i * 13 + 7);
  uint32_t acc = 0;
  static const size_t lens[] = {0, 1, 2, 7, 8, 255, 256, 257, 511, 512, 513, 700, 1000};
  for (unsigned k = 0; k < sizeof lens / sizeof lens[0]; ++k) {
    for (size_t off = 0; off < 3; ++off) {
      memcpy(buf, src, sizeof buf);
      zero_var(buf + off, lens[k]);
      acc = acc * 31 + hash(buf, sizeof buf);
      unsigned zeros = 0;
      for (size_t i = 0; i < sizeof buf; ++i) zeros += buf[i] == 0;
      if (off == 1) printf("zero len %u: zeros=%u\n", (unsigned)lens[k], zeros);
    }
  }
  printf("zero acc %08x\n", acc);
  memcpy(buf, src, sizeof buf);
  fill_a5_37(buf + 3);
  printf("fill37 %08x %02x %02x %02x\n", hash(buf, 64), buf[2], buf[3], buf[40]);
  fill_var_300(buf + 1, 0x3c);
  printf("fill300 %08x %02x %02x %02x\n", hash(buf, 400), buf[0], buf[300], buf[301]);
  copy_19(buf + 5, src + 100);
  copy_600(buf + 401, src + 3);
  printf("copies %08x\n", hash(buf, sizeof buf));
  unsigned char a[24], b[24];
  memcpy(a, src, 24), memcpy(b, src, 24);
  printf("cmp equal %d %d", cmp_8(a, b), cmp_24(a, b));
  b[7] = (unsigned char)(a[7] + 1);
  printf(" b bigger %d", cmp_8(a, b) < 0);
  b[7] = a[7], b[20] = (unsigned char)(a[20] - 1);
  printf(" tail smaller %d %d", cmp_8(a, b), cmp_24(b, a));
  a[0] = 0x80, b[0] = 0x7f; /* unsigned comparison */
  printf(" high byte %d\n", cmp_8(a, b) > 0);
  for (int i = 0; i < 50; ++i) buf[i] = (unsigned char)i;
  ripple(buf);
  printf("ripple:");
  for (int i = 0; i < 45; ++i) printf(" %u", buf[i]);
  putchar('\n');
  for (int i = 0; i < 80; ++i) buf[i] = (unsigned char)(i + 100);
  ripple8(buf);
  printf("ripple8:");
  for (int i = 0; i < 76; ++i) printf(" %u", buf[i]);
  putchar('\n');
  return 0;
}
