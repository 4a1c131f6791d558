#ifndef TPFEMU_STDLIB_H
#define TPFEMU_STDLIB_H
#include <stddef.h>
void exit(int status) __attribute__((noreturn));
void _exit(int status) __attribute__((noreturn));
void abort(void) __attribute__((noreturn)); /* message on stderr, exit status 134 */
void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t n);
void free(void *p);
int abs(int v);
long labs(long v);
int atoi(const char *s);
long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
int rand(void); /* deterministic: the same sequence on every run */
void srand(unsigned seed);
#define RAND_MAX 0x7fffffff
#endif
