/* String and memory functions. Built with -fno-tree-loop-distribute-patterns so GCC
   does not turn these loops back into calls to themselves. */
#include <stdint.h>
#include <string.h>

void *memcpy(void *restrict d, const void *restrict s, size_t n) {
  unsigned char *dp = d;
  const unsigned char *sp = s;
  if ((((uintptr_t)dp | (uintptr_t)sp) & 7) == 0) {
    for (; n >= 8; n -= 8, dp += 8, sp += 8) *(uint64_t *)dp = *(const uint64_t *)sp;
  }
  while (n--) *dp++ = *sp++;
  return d;
}

void *memmove(void *d, const void *s, size_t n) {
  unsigned char *dp = d;
  const unsigned char *sp = s;
  if (dp == sp || n == 0) return d;
  if (dp < sp || dp >= sp + n) return memcpy(d, s, n);
  while (n--) dp[n] = sp[n];
  return d;
}

void *memset(void *d, int c, size_t n) {
  unsigned char *dp = d;
  uint64_t pat = (unsigned char)c;
  pat |= pat << 8, pat |= pat << 16, pat |= pat << 32;
  while (n && ((uintptr_t)dp & 7)) *dp++ = (unsigned char)c, --n;
  for (; n >= 8; n -= 8, dp += 8) *(uint64_t *)dp = pat;
  while (n--) *dp++ = (unsigned char)c;
  return d;
}

int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *p = a, *q = b;
  for (; n; --n, ++p, ++q)
    if (*p != *q) return *p < *q ? -1 : 1;
  return 0;
}

void *memchr(const void *s, int c, size_t n) {
  const unsigned char *p = s;
  for (; n; --n, ++p)
    if (*p == (unsigned char)c) return (void *)p;
  return 0;
}

size_t strlen(const char *s) {
  const char *p = s;
  while (*p) ++p;
  return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t max) {
  size_t n = 0;
  while (n < max && s[n]) ++n;
  return n;
}

int strcmp(const char *a, const char *b) {
  while (*a && *a == *b) ++a, ++b;
  return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n) {
  for (; n; --n, ++a, ++b) {
    if (*a != *b) return (unsigned char)*a - (unsigned char)*b;
    if (!*a) return 0;
  }
  return 0;
}

char *strcpy(char *restrict d, const char *restrict s) {
  char *r = d;
  while ((*d++ = *s++)) {
  }
  return r;
}

char *strncpy(char *restrict d, const char *restrict s, size_t n) {
  size_t k = 0;
  for (; k < n && s[k]; ++k) d[k] = s[k];
  for (; k < n; ++k) d[k] = 0;
  return d;
}

char *strcat(char *restrict d, const char *restrict s) {
  strcpy(d + strlen(d), s);
  return d;
}

char *strchr(const char *s, int c) {
  for (;; ++s) {
    if (*s == (char)c) return (char *)s;
    if (!*s) return 0;
  }
}

char *strrchr(const char *s, int c) {
  const char *last = 0;
  for (;; ++s) {
    if (*s == (char)c) last = s;
    if (!*s) return (char *)last;
  }
}

char *strstr(const char *h, const char *n) {
  size_t ln = strlen(n);
  if (!ln) return (char *)h;
  for (; *h; ++h)
    if (*h == *n && strncmp(h, n, ln) == 0) return (char *)h;
  return 0;
}
