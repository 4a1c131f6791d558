// pl_shell "CMD ARGS | CMD ARGS | ...": a small shell's pipeline. Each stage is a
// process (fork), joined to the next by a pipe (pipe2 with O_CLOEXEC, dup2 onto 0 and 1)
// and running its program (execve, with this shell's environment). The shell waits for
// every stage and exits with the last one's status, as sh does; each stage's status goes
// to standard error. A stage that cannot be run exits 127, with the reason.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;
enum { kMaxStages = 16, kMaxArgs = 32 };

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: pl_shell \"CMD | CMD ...\"\n");
    return 2;
  }
  char* stages[kMaxStages];
  int n = 0;
  for (char* s = strtok(argv[1], "|"); s && n < kMaxStages; s = strtok(NULL, "|")) stages[n++] = s;
  pid_t pids[kMaxStages];
  int in = -1;
  for (int k = 0; k < n; ++k) {
    char* args[kMaxArgs];
    int a = 0;
    for (char* w = strtok(stages[k], " "); w && a < kMaxArgs - 1; w = strtok(NULL, " ")) args[a++] = w;
    args[a] = NULL;
    int p[2] = {-1, -1};
    if (k + 1 < n && pipe2(p, O_CLOEXEC)) {
      perror("pl_shell: pipe2");
      return 2;
    }
    pids[k] = fork();
    if (pids[k] < 0) {
      perror("pl_shell: fork");
      return 2;
    }
    if (pids[k] == 0) {
      if (in >= 0) dup2(in, 0);
      if (p[1] >= 0) dup2(p[1], 1);
      execve(args[0], args, environ);
      fprintf(stderr, "pl_shell: %s: %s\n", args[0], strerrorname_np(errno));
      _exit(127);
    }
    if (in >= 0) close(in);
    if (p[1] >= 0) close(p[1]);
    in = p[0];
  }
  int last = 0;
  for (int k = 0; k < n; ++k) {
    int st;
    waitpid(pids[k], &st, 0);
    if (WIFEXITED(st)) fprintf(stderr, "stage %d: exited %d\n", k + 1, WEXITSTATUS(st));
    else fprintf(stderr, "stage %d: killed by signal %d\n", k + 1, WTERMSIG(st));
    last = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  }
  return last;
}
