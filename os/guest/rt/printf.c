/* printf and friends over a small formatting core; stdout is buffered and
   flushed at exit, like a C library's when output is not a terminal. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct sink {
  char *buf; /* NULL: stdout */
  size_t size, len;
};

static char out_buf[4096];
static size_t out_len;

void __rt_stdout_flush(void) {
  size_t off = 0;
  while (off < out_len) {
    long n = write(1, out_buf + off, out_len - off);
    if (n <= 0) break;
    off += (size_t)n;
  }
  out_len = 0;
}

static void put(struct sink *s, char c) {
  if (!s->buf) {
    if (out_len == sizeof out_buf) __rt_stdout_flush();
    out_buf[out_len++] = c;
  } else if (s->len + 1 < s->size) {
    s->buf[s->len] = c;
  }
  s->len++;
}

static void pad(struct sink *s, char c, int n) {
  while (n-- > 0) put(s, c);
}

static int format(struct sink *s, const char *f, va_list ap) {
  for (; *f; ++f) {
    if (*f != '%') {
      put(s, *f);
      continue;
    }
    int left = 0, zero = 0, plus = 0, space = 0, alt = 0, width = 0, prec = -1;
    for (;; ++f) {
      if (f[1] == '-') left = 1;
      else if (f[1] == '0') zero = 1;
      else if (f[1] == '+') plus = 1;
      else if (f[1] == ' ') space = 1;
      else if (f[1] == '#') alt = 1;
      else break;
    }
    ++f;
    if (*f == '*') {
      width = va_arg(ap, int);
      if (width < 0) left = 1, width = -width;
      ++f;
    } else {
      while (*f >= '0' && *f <= '9') width = width * 10 + (*f++ - '0');
    }
    if (*f == '.') {
      ++f;
      prec = 0;
      if (*f == '*') {
        prec = va_arg(ap, int);
        ++f;
      } else {
        while (*f >= '0' && *f <= '9') prec = prec * 10 + (*f++ - '0');
      }
    }
    int lng = 0; /* 0 int, -1 short, -2 char, 1 long, 2 long long */
    for (;; ++f) {
      if (*f == 'l') lng = lng < 1 ? 1 : 2;
      else if (*f == 'h') lng = lng == -1 ? -2 : -1;
      else if (*f == 'z' || *f == 'j' || *f == 't') lng = 1;
      else break;
    }
    char c = *f;
    if (!c) break;
    if (c == '%') {
      put(s, '%');
      continue;
    }
    if (c == 'c') {
      if (!left) pad(s, ' ', width - 1);
      put(s, (char)va_arg(ap, int));
      if (left) pad(s, ' ', width - 1);
      continue;
    }
    if (c == 's') {
      const char *str = va_arg(ap, const char *);
      if (!str) str = "(null)";
      int n = (int)(prec >= 0 ? strnlen(str, (size_t)prec) : strlen(str));
      if (!left) pad(s, ' ', width - n);
      for (int k = 0; k < n; ++k) put(s, str[k]);
      if (left) pad(s, ' ', width - n);
      continue;
    }
    unsigned base = 10, upper = 0, neg = 0, is_signed = 0;
    uint64_t v;
    if (c == 'd' || c == 'i') {
      int64_t sv = lng >= 1 ? va_arg(ap, long) : va_arg(ap, int);
      if (lng == -1) sv = (short)sv;
      if (lng == -2) sv = (signed char)sv;
      is_signed = 1;
      neg = sv < 0;
      v = neg ? (uint64_t)0 - (uint64_t)sv : (uint64_t)sv;
    } else if (c == 'u' || c == 'x' || c == 'X' || c == 'o' || c == 'p') {
      if (c == 'p') v = (uintptr_t)va_arg(ap, void *), lng = 1, alt = 1;
      else v = lng >= 1 ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int);
      if (lng == -1) v = (unsigned short)v;
      if (lng == -2) v = (unsigned char)v;
      base = c == 'o' ? 8 : c == 'u' ? 10 : 16;
      upper = c == 'X';
    } else {
      put(s, '%'), put(s, c); /* unknown conversion: echo it */
      continue;
    }
    char digits[24];
    int nd = 0;
    while (v) {
      unsigned d = (unsigned)(v % base);
      digits[nd++] = (char)(d < 10 ? '0' + d : (upper ? 'A' : 'a') + d - 10);
      v /= base;
    }
    int ndig = nd;
    if (prec >= 0) {
      zero = 0;
      if (ndig < prec) ndig = prec;
    } else if (nd == 0) {
      ndig = 1;
    }
    const char *prefix = "";
    if (is_signed) prefix = neg ? "-" : plus ? "+" : space ? " " : "";
    else if (alt && base == 16 && (nd || c == 'p')) prefix = upper ? "0X" : "0x";
    else if (alt && base == 8 && ndig <= nd) ndig = nd + 1; /* one leading zero */
    int plen = (int)strlen(prefix), total = plen + ndig;
    if (!left && !zero) pad(s, ' ', width - total);
    for (const char *p = prefix; *p; ++p) put(s, *p);
    if (!left && zero) pad(s, '0', width - total);
    pad(s, '0', ndig - nd);
    while (nd) put(s, digits[--nd]);
    if (left) pad(s, ' ', width - total);
  }
  return (int)s->len;
}

int vsnprintf(char *buf, size_t size, const char *f, va_list ap) {
  struct sink s = {buf, size, 0};
  char dummy;
  if (!buf || !size) s.buf = &dummy, s.size = 0;
  int n = format(&s, f, ap);
  if (size && buf) buf[s.len < size ? s.len : size - 1] = 0;
  return n;
}

int snprintf(char *buf, size_t size, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  int n = vsnprintf(buf, size, f, ap);
  va_end(ap);
  return n;
}

int vprintf(const char *f, va_list ap) {
  struct sink s = {0, 0, 0};
  return format(&s, f, ap);
}

int printf(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  int n = vprintf(f, ap);
  va_end(ap);
  return n;
}

int putchar(int c) {
  struct sink s = {0, 0, 0};
  put(&s, (char)c);
  return (unsigned char)c;
}

int puts(const char *str) {
  struct sink s = {0, 0, 0};
  while (*str) put(&s, *str++);
  put(&s, '\n');
  return 0;
}

int fflush(void *stream) {
  (void)stream;
  __rt_stdout_flush();
  return 0;
}
