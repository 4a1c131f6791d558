/* QEMU 7.2 accepts any advice (Linux: EINVAL): madvise.expected holds Linux's output. */
/* madvise: MADV_DONTNEED makes private anonymous pages read as zero, private file pages
   read the file again, and leaves shared pages as they are; other advice changes nothing;
   bad advice and an unaligned start are EINVAL. Runs in a scratch directory. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void) {
  unsigned char* p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  printf("mprotect: %d\n", mprotect(p, 4096, PROT_READ | PROT_WRITE));
  p[0] = 42;
  printf("anonymous: DONTNEED %d, then %d\n", madvise(p, 4096, MADV_DONTNEED), p[0]);
  p[0] = 43;
  printf("written again: %d\n", p[0]);
  munmap(p, 4096);

  /* A larger range, every page touched; half of it dropped. */
  const size_t n = 512;
  unsigned char* big = mmap(NULL, n * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  for (size_t k = 0; k < n; ++k) big[k * 4096 + 1] = (unsigned char)(k | 1);
  printf("big: DONTNEED of pages 128-383: %d\n", madvise(big + 128 * 4096, 256 * 4096, MADV_DONTNEED));
  size_t zero = 0, kept = 0;
  for (size_t k = 0; k < n; ++k) big[k * 4096 + 1] == 0 ? ++zero : big[k * 4096 + 1] == (unsigned char)(k | 1) ? ++kept : 0;
  printf("big: %zu zero, %zu kept\n", zero, kept);
  mprotect(big, 64 * 4096, PROT_READ);
  printf("read-only pages: DONTNEED %d, then %d\n", madvise(big, 64 * 4096, MADV_DONTNEED), big[4096 + 1]);
  munmap(big, n * 4096);

  char name[] = "madvXXXXXX";
  int fd = mkstemp(name);
  char c = 42;
  if (write(fd, &c, 1) != 1 || ftruncate(fd, 4096) != 0) return printf("file setup failed\n"), 1;
  p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
  printf("file mprotect: %d\n", mprotect(p, 4096, PROT_READ | PROT_WRITE));
  p[0] = 0, p[100] = 9;
  printf("file: DONTNEED %d, then %d %d\n", madvise(p, 4096, MADV_DONTNEED), p[0], p[100]);
  munmap(p, 4096);

  p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  p[1] = 7;
  printf("shared file: DONTNEED %d, then %d %d\n", madvise(p, 4096, MADV_DONTNEED), p[0], p[1]);
  munmap(p, 4096);
  close(fd);
  unlink(name);

  p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  p[0] = 5;
  printf("shared anonymous: DONTNEED %d, then %d\n", madvise(p, 4096, MADV_DONTNEED), p[0]);
  printf("MADV_NORMAL %d, MADV_WILLNEED %d, MADV_SEQUENTIAL %d, then %d\n", madvise(p, 4096, MADV_NORMAL),
         madvise(p, 4096, MADV_WILLNEED), madvise(p, 4096, MADV_SEQUENTIAL), p[0]);
  errno = 0;
  int r = madvise(p, 4096, 999);
  printf("bad advice: %d %s\n", r, strerror(errno));
  errno = 0;
  r = madvise(p + 1, 100, MADV_DONTNEED);
  printf("unaligned: %d %s\n", r, strerror(errno));
  printf("length 0: %d\n", madvise(p, 0, MADV_DONTNEED));
  munmap(p, 4096);
  return 0;
}
