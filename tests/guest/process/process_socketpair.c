/* AF_UNIX socketpair: both directions, a parent and child talking over it, shutdown's
 * EOF, nonblocking EAGAIN, poll readiness. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static void check(const char *what, long rc) { printf("%s: %ld %s\n", what, rc, rc < 0 ? strerror(errno) : ""); }

int main(void) {
  int sv[2];
  check("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
  char buf[32] = {0};
  check("recv nonblocking", recv(sv[0], buf, sizeof buf, MSG_DONTWAIT));
  struct pollfd p = {.fd = sv[0], .events = POLLIN | POLLOUT};
  check("poll", poll(&p, 1, 0));
  printf("revents %#x\n", p.revents);
  if (fork() == 0) {
    close(sv[0]);
    write(sv[1], "ping", 5);
    read(sv[1], buf, sizeof buf);
    printf("child: %s\n", buf);
    fflush(stdout);
    shutdown(sv[1], SHUT_WR);
    return 0;
  }
  close(sv[1]);
  check("read", read(sv[0], buf, sizeof buf));
  printf("parent: %s\n", buf);
  check("write", write(sv[0], "pong", 5));
  check("read eof", read(sv[0], buf, sizeof buf));
  int status;
  wait(&status);
  check("socketpair inet", socketpair(AF_INET, SOCK_STREAM, 0, sv));
  return 0;
}
