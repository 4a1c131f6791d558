// Processes as Linux gives them: fork, vfork, wait4/waitpid/waitid and the statuses they
// report, getpid/getppid, process groups and sessions, kill between processes and
// groups, SIGCHLD, and a process tree of depth 3. Run under tpfemu exec and under
// qemu-s390x-static: the same output. No pid is ever printed (QEMU's are the host's),
// only how pids relate; every line is printed by one process at a time, after the
// waits that order them, with write(2) (stdio's buffer would be copied by fork).
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "say.h"

static void describe(const char* what, int st) {
  if (WIFEXITED(st)) say("%s: exited %d\n", what, WEXITSTATUS(st));
  else if (WIFSIGNALED(st)) say("%s: killed by signal %d\n", what, WTERMSIG(st));
  else say("%s: status %#x\n", what, st);
}

static volatile sig_atomic_t chld_count, usr1_count;
static void on_chld(int s) { (void)s; chld_count++; }
static void on_usr1(int s) { (void)s; usr1_count++; }

// A child that waits for one byte on `gate` before it exits with `code`.
static pid_t gated_child(int gate, int code) {
  pid_t c = fork();
  if (c == 0) {
    char b;
    if (read(gate, &b, 1) != 1) _exit(98);
    _exit(code);
  }
  return c;
}

static void statuses(void) {
  pid_t me = getpid();
  for (int code = 0; code < 300; code += 97) {
    pid_t c = fork();
    if (c == 0) _exit(code);  // only the low 8 bits reach the parent
    int st;
    pid_t w = waitpid(c, &st, 0);
    char what[32];
    snprintf(what, sizeof what, "exit(%d)", code);
    describe(what, st);
    if (w != c) say("waitpid returned another pid\n");
  }
  int sigs[] = {SIGTERM, SIGKILL, SIGSEGV, SIGUSR2, SIGABRT};
  for (unsigned k = 0; k < sizeof sigs / sizeof *sigs; ++k) {
    pid_t c = fork();
    if (c == 0) {
      static int* volatile nowhere;  // 0: a store faults (a fault, not a kill)
      if (sigs[k] == SIGSEGV) *nowhere = 1;
      else if (sigs[k] == SIGABRT) abort();
      else kill(getpid(), sigs[k]);
      _exit(1);
    }
    int st;
    waitpid(c, &st, 0);
    describe(strsignal(sigs[k]), st);
  }
  pid_t c = fork();
  if (c == 0) _exit(getppid() == me ? 10 : 11);
  int st;
  waitpid(c, &st, 0);
  say("child's getppid is the parent: %s\n", WEXITSTATUS(st) == 10 ? "yes" : "no");
}

static void wait_kinds(void) {
  int gate[2];
  if (pipe(gate)) _exit(97);
  pid_t a = gated_child(gate[0], 3), b = gated_child(gate[0], 4);
  int st = 0;
  say("WNOHANG before either ends: %d\n", (int)waitpid(-1, &st, WNOHANG));
  if (write(gate[1], "xx", 2) != 2) _exit(96);
  pid_t first = waitpid(-1, &st, 0);
  int s1 = WEXITSTATUS(st);
  pid_t second = wait(&st);
  int s2 = WEXITSTATUS(st);
  say("wait(-1) twice: both children, codes sum %d, distinct %s\n", s1 + s2,
      first != second && (first == a || first == b) && (second == a || second == b) ? "yes" : "no");
  errno = 0;
  say("waitpid with no children: %d errno %s\n", (int)waitpid(-1, &st, 0), strerrorname_np(errno));
  pid_t c = fork();
  if (c == 0) _exit(5);
  siginfo_t si;
  memset(&si, 0, sizeof si);
  int r = waitid(P_PID, (id_t)c, &si, WEXITED | WNOWAIT);
  say("waitid WNOWAIT: %d signo %d code %d status %d pid ok %s\n", r, si.si_signo, si.si_code, si.si_status,
      si.si_pid == c ? "yes" : "no");
  memset(&si, 0, sizeof si);
  r = waitid(P_ALL, 0, &si, WEXITED);
  say("waitid again: %d code %d status %d\n", r, si.si_code, si.si_status);
  c = fork();
  if (c == 0) {
    kill(getpid(), SIGKILL);
    _exit(1);
  }
  memset(&si, 0, sizeof si);
  waitid(P_PID, (id_t)c, &si, WEXITED);
  say("waitid killed: code %s status %d\n", si.si_code == CLD_KILLED ? "CLD_KILLED" : "other", si.si_status);
  close(gate[0]), close(gate[1]);
}

static int tree(int depth) {
  if (depth == 0) return 1;
  int total = 1;
  for (int k = 0; k < 2; ++k) {
    pid_t c = fork();
    if (c == 0) _exit(tree(depth - 1));
    int st;
    waitpid(c, &st, 0);
    total += WEXITSTATUS(st);
  }
  return total;
}

static void groups(void) {
  pid_t me = getpid();
  say("getpgid(0) == getpgrp(): %s\n", getpgid(0) == getpgrp() ? "yes" : "no");
  int gate[2], back[2];
  if (pipe(gate) || pipe(back)) _exit(95);
  pid_t c = fork();
  if (c == 0) {
    // A new session: its own group and session, no longer the parent's.
    pid_t sid = setsid();
    char r = (sid == getpid() && getpgid(0) == getpid() && getsid(0) == getpid() && getpgid(0) != getpgid(getppid()))
                 ? 'y' : 'n';
    if (write(back[1], &r, 1) != 1) _exit(94);
    errno = 0;
    r = setpgid(0, 0) == -1 && errno == EPERM ? 'y' : 'n';  // a session leader keeps its group
    if (write(back[1], &r, 1) != 1) _exit(94);
    char b;
    if (read(gate[0], &b, 1) != 1) _exit(93);
    _exit(0);
  }
  char r1, r2;
  if (read(back[0], &r1, 1) != 1 || read(back[0], &r2, 1) != 1) _exit(92);
  say("setsid in a child: %c; setpgid of a session leader fails EPERM: %c\n", r1, r2);
  say("the parent's session is not the child's: %s\n", getsid(0) != getsid(c) ? "yes" : "no");
  if (write(gate[1], "g", 1) != 1) _exit(91);
  int st;
  waitpid(c, &st, 0);

  // A group of two children; kill(-pgid) reaches both, not the parent.
  signal(SIGUSR1, on_usr1);
  pid_t a = fork();
  if (a == 0) {
    setpgid(0, 0);
    pause();  // SIGTERM's default action ends it
    _exit(1);
  }
  setpgid(a, a);  // both sides set it: no race on who runs first
  pid_t b = fork();
  if (b == 0) {
    setpgid(0, a);
    pause();
    _exit(1);
  }
  setpgid(b, a);
  say("child b joined a's group: %s\n", getpgid(b) == a && getpgid(a) == a ? "yes" : "no");
  kill(-a, SIGTERM);
  int sa, sb;
  waitpid(a, &sa, 0), waitpid(b, &sb, 0);
  describe("group member a", sa);
  describe("group member b", sb);
  say("the parent was not signalled: %s\n", usr1_count == 0 ? "yes" : "no");
  errno = 0;
  say("kill of a reaped pid: %d %s\n", kill(a, 0), strerrorname_np(errno));
  (void)me;
}

static void signals_between(void) {
  // The child blocks SIGUSR1 before the fork, then sigsuspends; the parent sends it.
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGUSR1);
  sigprocmask(SIG_BLOCK, &block, &old);
  usr1_count = 0;
  signal(SIGUSR1, on_usr1);
  pid_t c = fork();
  if (c == 0) {
    sigset_t none;
    sigemptyset(&none);
    while (!usr1_count) sigsuspend(&none);
    _exit(usr1_count == 1 ? 20 : 21);
  }
  kill(c, SIGUSR1);
  int st;
  waitpid(c, &st, 0);
  describe("child woken by SIGUSR1 from its parent", st);
  sigprocmask(SIG_SETMASK, &old, NULL);

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_chld;
  sigaction(SIGCHLD, &sa, NULL);
  chld_count = 0;
  for (int k = 0; k < 3; ++k) {
    pid_t x = fork();
    if (x == 0) _exit(k);
    waitpid(x, &st, 0);
  }
  say("SIGCHLD handler ran for each child: %s\n", chld_count == 3 ? "yes" : "no");
  // SIGCHLD ignored: no zombies; wait finds no child.
  signal(SIGCHLD, SIG_IGN);
  pid_t x = fork();
  if (x == 0) _exit(0);
  errno = 0;
  int r = waitpid(x, &st, 0);
  say("with SIGCHLD ignored, waitpid: %d %s\n", r, strerrorname_np(errno));
  signal(SIGCHLD, SIG_DFL);
}

// (Whether the parent sees the child's stores is not printed: Linux's vfork shares the
// memory, QEMU 7.2's is a fork.)
static void vfork_test(void) {
  pid_t c = vfork();
  if (c == 0) _exit(6);
  int st;
  waitpid(c, &st, 0);
  describe("vfork child", st);
}

int main(void) {
  statuses();
  wait_kinds();
  say("process tree of depth 3: %d processes\n", tree(3));
  groups();
  signals_between();
  vfork_test();
  pid_t c = fork();
  if (c == 0) {
    char big[3000];
    memset(big, 'x', sizeof big);
    _exit(big[2999] == 'x' ? 0 : 1);
  }
  int st;
  waitpid(c, &st, 0);
  describe("last child", st);
  return 3;
}
