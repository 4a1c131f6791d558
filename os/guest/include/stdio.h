#ifndef TPFEMU_STDIO_H
#define TPFEMU_STDIO_H
#include <stdarg.h>
#include <stddef.h>
/* Formatted output: %d %i %u %x %X %o %c %s %p %%, flags - 0 + space #, width and
   precision (also *), length modifiers hh h l ll z j t. No floating point. */
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int vprintf(const char *fmt, va_list ap);
int puts(const char *s);
int putchar(int c);
int fflush(void *stream); /* flushes stdout; the argument is ignored */
#define stdout ((void *)1)
#endif
