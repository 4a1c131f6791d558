// Pipes and descriptors as Linux gives them: pipe/pipe2, blocking reads and writes,
// end of file, EPIPE and SIGPIPE, O_NONBLOCK and EAGAIN, the 64 KB a pipe holds,
// dup/dup2/dup3 and fcntl across fork (descriptions shared, close-on-exec per
// descriptor), poll/ppoll/select/pselect6 on pipes, /dev/null, and 10 MB through a pipe
// between two processes. Run under tpfemu exec and under qemu-s390x-static: the same
// output.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "say.h"

static const char* err(void) { return strerrorname_np(errno); }

static void basics(void) {
  int p[2];
  say("pipe: %d\n", pipe(p));
  say("write 5: %zd\n", write(p[1], "hello", 5));
  char b[16] = {0};
  say("read up to 16: %zd '%s'\n", read(p[0], b, sizeof b), b);
  close(p[1]);
  say("read at end of file: %zd\n", read(p[0], b, sizeof b));
  close(p[0]);
  errno = 0;
  say("read of a closed descriptor: %zd %s\n", read(p[0], b, 1), err());

  // EPIPE: with SIGPIPE ignored, the write fails; with the default, it kills.
  pipe(p);
  close(p[0]);
  signal(SIGPIPE, SIG_IGN);
  errno = 0;
  say("write with no reader, SIGPIPE ignored: %zd %s\n", write(p[1], "x", 1), err());
  signal(SIGPIPE, SIG_DFL);
  pid_t c = fork();
  if (c == 0) {
    write(p[1], "x", 1);
    _exit(0);
  }
  int st;
  waitpid(c, &st, 0);
  say("write with no reader, SIGPIPE default: killed by %d\n", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
  close(p[1]);
}

static void nonblocking(void) {
  int p[2];
  say("pipe2(O_NONBLOCK|O_CLOEXEC): %d\n", pipe2(p, O_NONBLOCK | O_CLOEXEC));
  say("flags: nonblock %d, cloexec %d %d\n", !!(fcntl(p[0], F_GETFL) & O_NONBLOCK), fcntl(p[0], F_GETFD),
      fcntl(p[1], F_GETFD));
  char b[8192];
  errno = 0;
  say("read of an empty pipe: %zd %s\n", read(p[0], b, 1), err());
  memset(b, 'a', sizeof b);
  long total = 0;
  for (;;) {
    ssize_t n = write(p[1], b, 4096);
    if (n < 0) break;
    total += n;
  }
  say("a pipe holds %ld bytes, then: %s\n", total, err());
  // Fewer than PIPE_BUF bytes go in whole or not at all; more may go in part.
  char one;
  read(p[0], &one, 1);
  errno = 0;
  say("100 bytes into 1 free: %zd %s\n", write(p[1], b, 100), err());
  say("8192 bytes into 1 free: %zd\n", write(p[1], b, 8192));
  fcntl(p[0], F_SETFL, 0);
  say("F_SETFL cleared O_NONBLOCK: %d\n", !!(fcntl(p[0], F_GETFL) & O_NONBLOCK));
  fcntl(p[0], F_SETFD, 0);
  say("F_SETFD cleared FD_CLOEXEC: %d\n", fcntl(p[0], F_GETFD));
  close(p[0]), close(p[1]);
}

static void dups(void) {
  int p[2];
  pipe(p);
  int d = dup(p[1]);
  say("dup is the lowest free: %s\n", d > p[1] ? "yes" : "no");
  say("dup2 onto 10: %d; dup3 onto 11 with O_CLOEXEC: %d, cloexec %d\n", dup2(p[1], 10),
      dup3(p[1], 11, O_CLOEXEC), fcntl(11, F_GETFD));
  errno = 0;
  say("dup3 onto itself: %d %s\n", dup3(10, 10, 0), err());
  say("dup2 onto itself: %d\n", dup2(10, 10));
  say("F_DUPFD from 20: %d; F_DUPFD_CLOEXEC from 30: %d\n", fcntl(p[1], F_DUPFD, 20), fcntl(p[1], F_DUPFD_CLOEXEC, 30));
  // Every copy is a writer: the reader sees end of file only when all are closed.
  write(10, "1", 1), write(11, "2", 1), write(d, "3", 1), write(20, "4", 1);
  int fds[] = {p[1], d, 10, 11, 20, 30};
  char b[8] = {0};
  read(p[0], b, 4);
  say("written through four copies: %s\n", b);
  for (unsigned k = 0; k < 5; ++k) close(fds[k]);
  struct pollfd pf = {p[0], POLLIN, 0};
  say("one writer left: poll %d revents %#x\n", poll(&pf, 1, 0), pf.revents);
  close(30);
  say("no writer left: poll %d revents %#x\n", poll(&pf, 1, 0), pf.revents);
  close(p[0]);

  // fork shares the description: the child's O_NONBLOCK is the parent's.
  pipe(p);
  pid_t c = fork();
  if (c == 0) {
    fcntl(p[0], F_SETFL, O_NONBLOCK);
    _exit(0);
  }
  waitpid(c, NULL, 0);
  say("O_NONBLOCK set in a child shows in the parent: %d\n", !!(fcntl(p[0], F_GETFL) & O_NONBLOCK));
  close(p[0]), close(p[1]);
}

static void polling(void) {
  int a[2], b[2];
  pipe(a), pipe(b);
  struct pollfd pf[3] = {{a[0], POLLIN, 0}, {b[0], POLLIN, 0}, {b[1], POLLOUT, 0}};
  say("poll, nothing to read: %d (%#x %#x %#x)\n", poll(pf, 3, 0), pf[0].revents, pf[1].revents, pf[2].revents);
  pid_t c = fork();
  if (c == 0) {
    // The parent waits in poll until the child writes.
    struct timespec ts = {0, 20000000};
    nanosleep(&ts, NULL);
    write(b[1], "z", 1);
    _exit(0);
  }
  pf[2].events = 0;
  say("poll waits for the child: %d (%#x %#x)\n", poll(pf, 2, -1), pf[0].revents, pf[1].revents);
  waitpid(c, NULL, 0);
  pf[0].fd = 1000;
  say("poll of a descriptor not open: %d (%#x)\n", poll(pf, 1, 0), pf[0].revents);
  pf[0].fd = -1;
  say("poll of a negative descriptor: %d (%#x)\n", poll(pf, 1, 0), pf[0].revents);
  struct timespec zero = {0, 0};
  pf[0].fd = b[0];
  say("ppoll with a zero timeout: %d (%#x)\n", ppoll(pf, 1, &zero, NULL), pf[0].revents);
  struct pollfd none = {a[0], POLLIN, 0};
  say("poll times out: %d\n", poll(&none, 1, 30));

  fd_set rd, wr;
  FD_ZERO(&rd);
  FD_ZERO(&wr);
  FD_SET(a[0], &rd), FD_SET(b[0], &rd), FD_SET(a[1], &wr);
  int n = select(b[0] + 1, &rd, &wr, NULL, NULL);
  say("select: %d, a readable %d, b readable %d, a writable %d\n", n, FD_ISSET(a[0], &rd), FD_ISSET(b[0], &rd),
      FD_ISSET(a[1], &wr));
  FD_ZERO(&rd);
  FD_SET(a[0], &rd);
  struct timeval tv = {0, 10000};
  say("select times out: %d\n", select(a[0] + 1, &rd, NULL, NULL, &tv));
  FD_ZERO(&rd);
  FD_SET(a[0], &rd);
  struct timespec ts = {0, 10000000};
  sigset_t mask;
  sigemptyset(&mask);
  say("pselect times out: %d\n", pselect(a[0] + 1, &rd, NULL, NULL, &ts, &mask));
  FD_ZERO(&rd);
  FD_SET(50, &rd);
  errno = 0;
  say("select of a descriptor not open: %d %s\n", select(51, &rd, NULL, NULL, &tv), err());
  close(a[0]), close(a[1]), close(b[0]), close(b[1]);
}

static void dev_null(void) {
  int fd = open("/dev/null", O_RDWR);
  char b[4];
  say("/dev/null: open %s, write %zd, read %zd\n", fd >= 0 ? "ok" : "failed", write(fd, "abc", 3), read(fd, b, 4));
  close(fd);
}

// 10 MB from a child to its parent, in writes of varied sizes, read in pieces of
// other sizes; the parent checks every byte.
static void ten_megabytes(void) {
  enum { kTotal = 10 << 20 };
  int p[2];
  pipe(p);
  pid_t c = fork();
  if (c == 0) {
    close(p[0]);
    static unsigned char buf[70000];
    uint32_t x = 1;
    long sent = 0;
    for (unsigned k = 0; sent < kTotal; ++k) {
      long n = 1 + (long)(k * 7919 % sizeof buf);
      if (n > kTotal - sent) n = kTotal - sent;
      for (long i = 0; i < n; ++i) x = x * 1103515245u + 12345u, buf[i] = (unsigned char)(x >> 16);
      if (write(p[1], buf, (size_t)n) != n) _exit(1);  // a blocking write returns when all is in
      sent += n;
    }
    _exit(0);
  }
  close(p[1]);
  uint32_t x = 1, sum = 0;
  long got = 0, reads = 0, bad = 0;
  static unsigned char buf[5000];
  for (;;) {
    ssize_t n = read(p[0], buf, 1 + (size_t)(reads * 31 % sizeof buf));
    if (n <= 0) break;
    ++reads;
    for (ssize_t i = 0; i < n; ++i) {
      x = x * 1103515245u + 12345u;
      if (buf[i] != (unsigned char)(x >> 16)) ++bad;
      sum = sum * 31 + buf[i];
    }
    got += n;
  }
  int st;
  waitpid(c, &st, 0);
  say("10 MB through a pipe: %ld bytes, %ld wrong, checksum %08x, writer %s\n", got, bad, sum,
      WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "ok" : "failed");
  close(p[0]);
}

int main(void) {
  basics();
  nonblocking();
  dups();
  polling();
  dev_null();
  ten_megabytes();
  return 0;
}
