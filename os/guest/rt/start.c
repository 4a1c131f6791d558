/* Process start and end, raw output, and the program break. */
#include <stdio.h>
#include <stdlib.h>
#include <tpfemu_syscall.h>
#include <unistd.h>

int main(int argc, char **argv);
void __rt_stdout_flush(void);

void __rt_start(long *sp) {
  int argc = (int)sp[0];
  char **argv = (char **)(sp + 1);
  exit(main(argc, argv));
}

long write(int fd, const void *buf, size_t n) { return __tpf_svc3(SYS_write, fd, buf, n); }

void _exit(int status) {
  for (;;) __tpf_svc3(SYS_exit_group, status, 0, 0);
}

void exit(int status) {
  __rt_stdout_flush();
  _exit(status);
}

void abort(void) {
  static const char msg[] = "abort() called\n";
  __rt_stdout_flush();
  write(2, msg, sizeof msg - 1);
  _exit(134);
}

void __assert_fail(const char *expr, const char *file, int line) {
  printf("assertion failed: %s (%s:%d)\n", expr, file, line);
  abort();
}

/* brk through SVC 0 with the number in r1, so both system call forms are used. */
static char *cur_brk;
void *sbrk(long inc) {
  if (!cur_brk) cur_brk = (char *)tpf_syscall_r1(SYS_brk, 0, 0, 0);
  char *old = cur_brk;
  if (inc == 0) return old;
  char *want = old + inc;
  char *got = (char *)tpf_syscall_r1(SYS_brk, (long)want, 0, 0);
  if (got != want) return (void *)-1;
  cur_brk = got;
  return old;
}
