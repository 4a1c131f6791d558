// execve as Linux does it, seen from both sides. Run as `exec_probe` it prepares what an
// exec keeps and what it drops, then runs itself (/bin/probe under the test's root) as
// `probe child PID`; the new image prints what it finds. Then the ways execve fails.
// QEMU 7.2 cannot be the reference here (its execve runs the host's kernel, which cannot
// start an s390x program without binfmt_misc): the output is checked against
// exec_probe.expected, which is what Linux gives (each line says what it shows).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

static void on_usr2(int s) { (void)s; }

static int child(int argc, char** argv) {
  printf("new image: argc %d, argv:", argc);
  for (int k = 0; k < argc; ++k) printf(" [%s]", argv[k]);
  printf("\nenvironment:");
  for (char** e = environ; *e; ++e) printf(" [%s]", *e);
  printf("\nsame process: %s\n", atoi(argv[2]) == getpid() ? "yes" : "no");
  printf("fd 5 (kept) writes: %zd\n", write(5, "x", 1));
  errno = 0;
  printf("fd 6 (close-on-exec) is closed: %d %s\n", fcntl(6, F_GETFD), strerrorname_np(errno));
  struct sigaction sa;
  sigaction(SIGUSR1, NULL, &sa);
  printf("SIGUSR1 ignored before: still ignored %s\n", sa.sa_handler == SIG_IGN ? "yes" : "no");
  sigaction(SIGUSR2, NULL, &sa);
  printf("SIGUSR2 handled before: default now %s\n", sa.sa_handler == SIG_DFL ? "yes" : "no");
  sigset_t mask;
  sigprocmask(SIG_BLOCK, NULL, &mask);
  printf("blocked SIGTERM stays blocked: %d\n", sigismember(&mask, SIGTERM));
  char exe[64] = {0};
  readlink("/proc/self/exe", exe, sizeof exe - 1);
  printf("/proc/self/exe: %s\n", exe);
  fflush(stdout);
  return 33;
}

static void try_exec(const char* path) {
  char* args[] = {(char*)path, NULL};
  errno = 0;
  int r = execve(path, args, environ);
  printf("execve %s: %d %s\n", path, r, strerrorname_np(errno));
}

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "child") == 0) return child(argc, argv);
  int p[2];
  pipe(p);
  dup2(p[1], 5);
  int q[2];
  pipe2(q, O_CLOEXEC);
  dup3(q[1], 6, O_CLOEXEC);
  signal(SIGUSR1, SIG_IGN);
  signal(SIGUSR2, on_usr2);
  sigset_t term;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  sigprocmask(SIG_BLOCK, &term, NULL);
  try_exec("/bin/none");
  try_exec("/bin/not-executable");
  try_exec("/bin/text-file");
  try_exec("/bin");
  // Arguments past a quarter of the 8 MB stack (Linux's limit for argv and envp): E2BIG.
  static char big[100000];
  memset(big, 'a', sizeof big - 1);
  char* many[32];
  for (int k = 0; k < 31; ++k) many[k] = big;
  many[31] = NULL;
  errno = 0;
  printf("execve with 3 MB of arguments: %d %s\n", execve("/bin/probe", many, environ), strerrorname_np(errno));
  fflush(stdout);
  pid_t c = fork();
  if (c == 0) {
    char pid[16];
    snprintf(pid, sizeof pid, "%d", getpid());
    char* args[] = {"probe", "child", pid, "third argument", NULL};
    char* env[] = {"ONE=1", "TWO=two words", NULL};
    execve("/bin/probe", args, env);
    _exit(127);
  }
  close(p[1]), close(5), close(q[1]), close(6);
  int st;
  waitpid(c, &st, 0);
  char b[8];
  printf("the new image exited %d; it wrote %zd byte through fd 5\n", WEXITSTATUS(st), read(p[0], b, sizeof b));
  fflush(stdout);
  // fexecve (execveat with AT_EMPTY_PATH) and execveat relative to a directory.
  for (int how = 0; how < 2; ++how) {
    c = fork();
    if (c == 0) {
      char pid[16];
      snprintf(pid, sizeof pid, "%d", getpid());
      char* args[] = {"probe", "child", pid, how ? "execveat" : "fexecve", NULL};
      char* env[] = {NULL};
      if (how == 0) fexecve(open("/bin/probe", O_RDONLY | O_CLOEXEC), args, env);
      else syscall(SYS_execveat, open("/bin", O_RDONLY | O_DIRECTORY), "probe", args, env, 0);
      printf("failed: %s\n", strerrorname_np(errno));
      _exit(127);
    }
    waitpid(c, &st, 0);
    printf("exited %d\n", WEXITSTATUS(st));
    fflush(stdout);
  }
  return 0;
}
