/* Shared mappings: MAP_SHARED|MAP_ANONYMOUS, and MAP_SHARED file mappings whose stores
   reach the file on msync and on munmap (not beyond the file's end); mprotect of shared
   and private file mappings; a private file mapping leaves the file alone; a read-only
   descriptor gives no writable shared mapping. Runs in a scratch directory. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int file_byte(int fd, off_t at) {
  unsigned char b = 0;
  return pread(fd, &b, 1, at) == 1 ? b : -1;
}

int main(void) {
  unsigned char* a = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  printf("shared anonymous: %s, reads %d\n", a == MAP_FAILED ? "failed" : "mapped", a[5000]);
  a[5000] = 17;
  printf("mprotect read-only: %d, reads %d\n", mprotect(a, 3 * 4096, PROT_READ), a[5000]);
  printf("munmap of the middle page: %d, last page reads %d\n", munmap(a + 4096, 4096), a[2 * 4096]);
  munmap(a, 3 * 4096);

  char name[] = "sharedXXXXXX";
  int fd = mkstemp(name);
  unsigned char buf[6000];
  for (int k = 0; k < (int)sizeof buf; ++k) buf[k] = (unsigned char)(k % 251);
  if (write(fd, buf, sizeof buf) != sizeof buf) return printf("write failed\n"), 1;

  unsigned char* s = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  printf("shared file: reads %d %d\n", s[10], s[5000]);
  s[10] = 200, s[5000] = 201, s[7000] = 202; /* the last beyond the file's end */
  printf("msync: %d; file has %d %d\n", msync(s, 8192, MS_SYNC), file_byte(fd, 10), file_byte(fd, 5000));
  s[11] = 203;
  printf("mprotect read-only: %d, reads %d\n", mprotect(s, 8192, PROT_READ), s[11]);
  printf("mprotect read/write: %d\n", mprotect(s, 8192, PROT_READ | PROT_WRITE));
  s[12] = 204;
  printf("munmap: %d; file has %d %d\n", munmap(s, 8192), file_byte(fd, 11), file_byte(fd, 12));
  struct stat st;
  fstat(fd, &st);
  printf("file size still %lld\n", (long long)st.st_size);

  /* A mapping from an offset, its second page only unmapped. */
  s = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  s[4096 + 1] = 99;
  munmap(s + 4096, 4096);
  printf("second page unmapped: file has %d\n", file_byte(fd, 4097));
  s[1] = 98;
  munmap(s, 4096);
  printf("first page unmapped: file has %d\n", file_byte(fd, 1));

  unsigned char* pr = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
  printf("private file: mprotect %d\n", mprotect(pr, 4096, PROT_READ | PROT_WRITE));
  pr[20] = 1;
  munmap(pr, 4096);
  printf("private store leaves the file: %d\n", file_byte(fd, 20));
  close(fd);

  int ro = open(name, O_RDONLY);
  errno = 0;
  s = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, ro, 0);
  printf("read-only fd, shared PROT_WRITE: %s (%s)\n", s == MAP_FAILED ? "failed" : "mapped", strerror(errno));
  s = mmap(NULL, 4096, PROT_READ, MAP_SHARED, ro, 0);
  errno = 0;
  int r = mprotect(s, 4096, PROT_READ | PROT_WRITE);
  printf("shared read-only, mprotect PROT_WRITE: %d (%s), reads %d\n", r, strerror(errno), s[10]);
  pr = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, ro, 0);
  printf("read-only fd, private PROT_WRITE: %s\n", pr == MAP_FAILED ? "failed" : "mapped");
  close(ro);
  printf("after close the mapping still reads %d\n", s[10]);
  unlink(name);
  return 0;
}
