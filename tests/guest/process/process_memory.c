// Memory across fork, as Linux gives it: private pages (anonymous, the break, the stack,
// a private file mapping) become the child's own copies; MAP_SHARED anonymous memory,
// a MAP_SHARED file mapping and a System V segment stay one memory for both; a 1 MB
// private area the child writes does not change the parent's. Run under tpfemu exec and
// under qemu-s390x-static, with a root holding tmp/: the same output.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  volatile int* shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  volatile int* priv = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  char* big = malloc(1 << 20);
  memset(big, 'p', 1 << 20);
  volatile int on_stack = 1;
  int id = shmget(IPC_PRIVATE, 8192, IPC_CREAT | 0600);
  volatile int* seg = shmat(id, NULL, 0);
  char name[] = "tmp/memXXXXXX";
  int fd = mkstemp(name);
  if (fd < 0 || ftruncate(fd, 4096)) return 1;
  volatile char* file = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  volatile char* file_priv = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  shared[0] = priv[0] = seg[0] = 1;
  file[0] = 'a';
  pid_t c = fork();
  if (c == 0) {
    shared[0] = priv[0] = seg[0] = on_stack = 2;
    file[0] = 'b';
    file_priv[1] = 'z';
    memset(big, 'c', 1 << 20);
    _exit(shared[0] == 2 && priv[0] == 2 && big[12345] == 'c' ? 0 : 1);
  }
  int st;
  waitpid(c, &st, 0);
  printf("child exited %d\n", WEXITSTATUS(st));
  printf("MAP_SHARED anonymous: %d (the child's)\n", shared[0]);
  printf("MAP_PRIVATE anonymous: %d (the parent's own)\n", priv[0]);
  printf("stack: %d, heap: %c\n", on_stack, big[12345]);
  printf("System V segment: %d\n", seg[0]);
  printf("MAP_SHARED file: %c; private file mapping's byte 1 untouched: %d\n", file[0], file_priv[1] == 0);
  munmap((void*)file, 4096);
  char b = 0;
  pread(fd, &b, 1, 0);
  printf("the file holds the child's store after munmap: %c\n", b);
  shmdt((void*)seg);
  shmctl(id, IPC_RMID, NULL);
  close(fd);
  unlink(name);
  return 0;
}
