#ifndef TPFEMU_UNISTD_H
#define TPFEMU_UNISTD_H
#include <stddef.h>
long write(int fd, const void *buf, size_t n);
void *sbrk(long increment);
#endif
