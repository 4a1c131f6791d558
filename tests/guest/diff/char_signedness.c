/* Character signedness: plain char is unsigned on s390x (zArchitecture ELF ABI), so
   (char)0xff is 255, bytes >= 0x80 compare above ASCII, char-to-int promotion
   zero-extends, while signed char sign-extends. Also character classification by
   hand and tables indexed by char. Both the emulator and QEMU run the same binary, so
   this pins down the loads GCC picks (LLC/IC vs LB). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

static int __attribute__((noinline)) as_int(char c) { return c; }
static int __attribute__((noinline)) as_int_s(signed char c) { return c; }
static int __attribute__((noinline)) as_int_u(unsigned char c) { return c; }
static long __attribute__((noinline)) sum_chars(const char *s) {
  long t = 0;
  while (*s) t += *s++;
  return t;
}
static long __attribute__((noinline)) sum_schars(const signed char *s) {
  long t = 0;
  while (*s) t += *s++;
  return t;
}

int main(void) {
  printf("CHAR_MIN=%d CHAR_MAX=%d SCHAR_MIN=%d char_is_signed=%d\n", CHAR_MIN, CHAR_MAX, SCHAR_MIN, (char)-1 < 0);
  volatile int v = 0xff;
  char c = (char)v;
  signed char sc = (signed char)v;
  unsigned char uc = (unsigned char)v;
  printf("c=%d sc=%d uc=%d as_int=%d %d %d\n", c, sc, uc, as_int(c), as_int_s(sc), as_int_u(uc));
  const char text[] = "A\x80z\xff\x7f~\xe9!";
  printf("sum char=%ld signed=%ld\n", sum_chars(text), sum_schars((const signed char *)text));
  int above = 0;
  for (const char *p = text; *p; ++p) above += *p > 'z';
  printf("bytes above 'z': %d\n", above);
  /* conversions through char */
  static const int vals[] = {0, 1, 127, 128, 200, 255, 256, -1, -128, -129, 1000};
  for (unsigned i = 0; i < sizeof vals / sizeof vals[0]; ++i) {
    char cc = (char)vals[i];
    signed char ss = (signed char)vals[i];
    printf("%d->%d/%d ", vals[i], cc, ss);
  }
  putchar('\n');
  /* a table indexed by char needs no offset because char is never negative */
  unsigned counts[256] = {0};
  char buf[512];
  for (int i = 0; i < 512; ++i) buf[i] = (char)(i * 7 + 3);
  for (int i = 0; i < 512; ++i) counts[(unsigned char)buf[i]]++;
  unsigned hi = 0;
  for (int i = 128; i < 256; ++i) hi += counts[i];
  printf("high bytes %u\n", hi);
  /* comparisons of mixed char types */
  char a = (char)0x90;
  signed char b = (signed char)0x90;
  printf("a>0:%d b>0:%d a==b:%d (unsigned char)b==a:%d a>b:%d\n", a > 0, b > 0, a == b, (unsigned char)b == a, a > b);
  /* arithmetic on chars promotes to int */
  char x = (char)250, y = (char)10;
  int s = x + y;
  char wrapped = (char)(x + y);
  printf("250+10 as int %d, as char %d; x*y=%d; x/y=%d; -x=%d; ~x=%d\n", s, wrapped, x * y, x / y, -x, ~x);
  /* classification by hand */
  unsigned up = 0, lo = 0, dig = 0, sp = 0, ctl = 0, other = 0;
  for (int i = 0; i < 256; ++i) {
    char ch = (char)i;
    if (ch >= 'A' && ch <= 'Z') ++up;
    else if (ch >= 'a' && ch <= 'z') ++lo;
    else if (ch >= '0' && ch <= '9') ++dig;
    else if (ch == ' ' || (ch >= '\t' && ch <= '\r')) ++sp;
    else if (ch < ' ' || ch == 127) ++ctl;
    else ++other;
  }
  printf("upper=%u lower=%u digit=%u space=%u ctrl=%u other=%u\n", up, lo, dig, sp, ctl, other);
  return 0;
}
