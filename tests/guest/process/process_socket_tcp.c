/* TCP on the loopback between a parent and its child: bind to an ephemeral port,
 * listen, connect, accept, send/recv both ways, EOF at close, addresses, socket
 * options, and the errors of the calls (refused, not connected, not a socket). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static void check(const char *what, long rc) { printf("%s: %ld %s\n", what, rc, rc < 0 ? strerror(errno) : ""); }

int main(void) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1, val = -1;
  socklen_t len = sizeof val;
  check("setsockopt", setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one));
  check("getsockopt type", getsockopt(s, SOL_SOCKET, SO_TYPE, &val, &len));
  printf("type %d len %d\n", val, (int)len);
  len = sizeof val;
  getsockopt(s, SOL_SOCKET, SO_REUSEADDR, &val, &len);
  printf("reuseaddr %d\n", val);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  check("bind", bind(s, (struct sockaddr *)&a, sizeof a));
  check("listen", listen(s, 4));
  len = sizeof a;
  check("getsockname", getsockname(s, (struct sockaddr *)&a, &len));
  printf("bound to %s, port nonzero %d\n", inet_ntoa(a.sin_addr), a.sin_port != 0);
  struct sockaddr_in peer;
  len = sizeof peer;
  check("getpeername unconnected", getpeername(s, (struct sockaddr *)&peer, &len));
  check("recv unconnected", recv(s, &val, 1, 0));
  check("send on a file", send(1, "x", 1, 0));
  int refused = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in none = a;
  none.sin_port = htons(ntohs(a.sin_port) + 1);
  check("connect refused", connect(refused, (struct sockaddr *)&none, sizeof none));
  close(refused);
  pid_t pid = fork();
  if (pid == 0) {
    int c = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(c, (struct sockaddr *)&a, sizeof a) < 0) return 1;
    const char msg[] = "hello over tcp";
    send(c, msg, sizeof msg, 0);
    char buf[64];
    ssize_t n = recv(c, buf, sizeof buf, 0);
    printf("child got %zd: %s\n", n, buf);
    fflush(stdout);
    close(c);
    return 0;
  }
  len = sizeof peer;
  int c = accept(s, (struct sockaddr *)&peer, &len);
  printf("accepted: len %d family %d from %s\n", (int)len, peer.sin_family, inet_ntoa(peer.sin_addr));
  char buf[64];
  ssize_t n = recv(c, buf, sizeof buf, 0);
  printf("parent got %zd: %s\n", n, buf);
  check("send reply", send(c, "reply", 6, 0));
  int status;
  waitpid(pid, &status, 0);
  printf("child status %d\n", WEXITSTATUS(status));
  check("recv at eof", recv(c, buf, sizeof buf, 0));
  check("close", close(c));
  check("close listener", close(s));
  return 0;
}
