/* The runtime's string functions (strlen, strcmp, strncmp, strcpy, strncpy, strcat,
   strchr, strrchr, strstr, memchr, strnlen) on edge cases: empty strings, bytes
   >= 0x80 (compared as unsigned char), embedded limits, and every alignment. */
#include <stdio.h>
#include <string.h>

static int sgn(int v) { return (v > 0) - (v < 0); }

int main(void) {
  static const char *words[] = {"", "a", "A", "ab", "abc", "abd", "abcd", "\x80", "\x7f", "\xff\x01", "zzz", "Zzz",
                                "hello world", "hello", "hello!"};
  unsigned nw = sizeof words / sizeof words[0];
  for (unsigned i = 0; i < nw; ++i) {
    printf("%2u len=%u:", i, (unsigned)strlen(words[i]));
    for (unsigned j = 0; j < nw; ++j) {
      int c = sgn(strcmp(words[i], words[j]));
      putchar(c < 0 ? '<' : c > 0 ? '>' : '=');
    }
    putchar(' ');
    for (unsigned j = 0; j < nw; ++j) {
      int c = sgn(strncmp(words[i], words[j], 3));
      putchar(c < 0 ? '<' : c > 0 ? '>' : '=');
    }
    putchar('\n');
  }
  /* Copies at every alignment */
  char buf[64], src[40];
  for (int i = 0; i < 39; ++i) src[i] = (char)('a' + i % 26);
  src[39] = 0;
  unsigned long sum = 0;
  for (int off = 0; off < 8; ++off) {
    for (int soff = 0; soff < 8; ++soff) {
      memset(buf, '#', sizeof buf);
      strcpy(buf + off, src + soff);
      sum = sum * 31 + strlen(buf + off) + (unsigned char)buf[off + 39 - soff + 1];
      if (strcmp(buf + off, src + soff) != 0) printf("BAD strcpy %d %d\n", off, soff);
    }
  }
  printf("copy sum %lu\n", sum);
  /* strncpy pads with NULs and does not terminate when the source is long */
  memset(buf, 'X', sizeof buf);
  strncpy(buf, "abc", 8);
  for (int i = 0; i < 10; ++i) printf("%02x", (unsigned char)buf[i]);
  putchar('\n');
  memset(buf, 'X', sizeof buf);
  strncpy(buf, "abcdefghij", 4);
  for (int i = 0; i < 6; ++i) printf("%02x", (unsigned char)buf[i]);
  putchar('\n');
  /* strcat chain */
  buf[0] = 0;
  for (int i = 0; i < 5; ++i) strcat(buf, words[4 + i]);
  printf("cat \"%s\" %u\n", buf, (unsigned)strlen(buf));
  /* searches */
  const char *text = "the quick brown fox jumps over the lazy dog; the end";
  printf("strchr q:%d z:%d nul:%d none:%s\n", (int)(strchr(text, 'q') - text), (int)(strchr(text, 'z') - text),
         (int)(strchr(text, 0) - text), strchr(text, '!') ? "found" : "null");
  printf("strrchr t:%d e:%d\n", (int)(strrchr(text, 't') - text), (int)(strrchr(text, 'e') - text));
  const char *needles[] = {"the", "fox", "dog;", "the end", "", "cat", "lazy dog; the end!", "o"};
  for (unsigned i = 0; i < sizeof needles / sizeof needles[0]; ++i) {
    const char *p = strstr(text, needles[i]);
    printf("strstr \"%s\" -> %d\n", needles[i], p ? (int)(p - text) : -1);
  }
  const char hi[] = "\x01\x80\xff\x7f";
  printf("memchr 80:%d ff:%d 7f:%d 00:%d 55:%s\n", (int)((const char *)memchr(hi, 0x80, 5) - hi),
         (int)((const char *)memchr(hi, 0xff, 5) - hi), (int)((const char *)memchr(hi, 0x7f, 5) - hi),
         (int)((const char *)memchr(hi, 0, 5) - hi), memchr(hi, 0x55, 5) ? "found" : "null");
  printf("strnlen %u %u %u\n", (unsigned)strnlen(text, 5), (unsigned)strnlen(text, 500), (unsigned)strnlen("", 3));
  return 0;
}
