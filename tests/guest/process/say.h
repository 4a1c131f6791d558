// say(): what the process tests print, written with write(2) at once, so that a line
// is never held in a stdio buffer that fork would copy, and lines of processes that
// print one after the other (ordered by their waits) come out in that order.
#pragma once
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

static inline void say(const char* fmt, ...) {
  char b[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(b, sizeof b, fmt, ap);
  va_end(ap);
  if (write(1, b, (size_t)n) != n) _exit(99);
}
