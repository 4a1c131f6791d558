/* QEMU 7.2 treats MAP_FIXED_NOREPLACE as a hint (Linux since 4.17: EEXIST): mmap_fixed.expected holds Linux's output. */
/* MAP_FIXED replaces what is mapped there (anonymous and file mappings);
   MAP_FIXED_NOREPLACE fails with EEXIST on anything there and maps a free range.
   Runs in a scratch directory (a file is made and removed). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

static void show(const char* what, unsigned char* p, int pages) {
  printf("%s:", what);
  for (int k = 0; k < pages; ++k) printf(" %02x", p[k * 4096 + 10]);
  printf("\n");
}

int main(void) {
  unsigned char* p = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  memset(p, 0xaa, 4 * 4096);
  show("four pages", p, 4);
  unsigned char* q = mmap(p + 4096, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  printf("MAP_FIXED at page 1: %s\n", q == p + 4096 ? "at the address" : "elsewhere");
  show("after", p, 4);

  errno = 0;
  q = mmap(p + 2 * 4096, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  printf("MAP_FIXED_NOREPLACE over page 2: %s (%s)\n", q == MAP_FAILED ? "failed" : "mapped", strerror(errno));
  q = mmap(p + 3 * 4096, 2 * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  printf("MAP_FIXED_NOREPLACE half over page 3: %s (%s)\n", q == MAP_FAILED ? "failed" : "mapped", strerror(errno));
  show("unchanged", p, 4);
  munmap(p + 2 * 4096, 2 * 4096);
  q = mmap(p + 2 * 4096, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  printf("MAP_FIXED_NOREPLACE on the freed pages: %s\n", q == p + 2 * 4096 ? "at the address" : "failed");
  show("now", p, 4);
  errno = 0;
  q = mmap(p + 1, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  printf("MAP_FIXED unaligned: %s (%s)\n", q == MAP_FAILED ? "failed" : "mapped", strerror(errno));
  int stack_var = 1;
  errno = 0;
  q = mmap((void*)((unsigned long)&stack_var & ~4095ul), 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  printf("MAP_FIXED_NOREPLACE over the stack: %s (%s)\n", q == MAP_FAILED ? "failed" : "mapped", strerror(errno));

  /* A file's pages over anonymous ones, and anonymous ones over a file's. */
  char name[] = "fixedXXXXXX";
  int fd = mkstemp(name);
  unsigned char buf[3 * 4096];
  for (int k = 0; k < 3; ++k) memset(buf + k * 4096, 0x10 + k, 4096);
  if (write(fd, buf, sizeof buf) != sizeof buf) return printf("write failed\n"), 1;
  q = mmap(p + 4096, 2 * 4096, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 4096);
  printf("file at page 1 from offset 4096: %s\n", q == p + 4096 ? "at the address" : "elsewhere");
  show("with the file", p, 4);
  q = mmap(p + 2 * 4096, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  show("anonymous over the file's second page", p, 4);
  q = mmap(p, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 2 * 4096);
  show("shared file page over page 0", p, 4);
  p[10] = 0x77;
  munmap(p, 4 * 4096);
  unsigned char b = 0;
  pread(fd, &b, 1, 2 * 4096 + 10);
  printf("the file's byte after munmap: %02x\n", b);
  close(fd);
  unlink(name);
  printf("done\n");
  return 0;
}
