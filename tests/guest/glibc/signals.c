/* Signals as Linux delivers them: a handler for a signal the program sends itself
   (with SA_SIGINFO's siginfo), a handler on an alternate stack, blocked signals
   that arrive when unblocked, and program checks turned into SIGSEGV, SIGFPE and
   SIGILL whose handlers leave with siglongjmp. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

static volatile sig_atomic_t got;
static volatile int info_code, info_signo;
static sigjmp_buf env;
static char altstack[65536];
static volatile int on_altstack;

static void on_usr1(int sig) { got = sig; }
static void on_info(int sig, siginfo_t* si, void* uc) {
  (void)uc;
  info_signo = si->si_signo, info_code = si->si_code, got = sig;
}
static void on_alt(int sig) {
  char here;
  on_altstack = &here >= altstack && &here < altstack + sizeof altstack;
  got = sig;
}
static volatile void* fault_addr;
static volatile unsigned fpc_dxc;
static void on_fault(int sig, siginfo_t* si, void* ucv) {
  ucontext_t* uc = ucv;
  info_signo = si->si_signo, info_code = si->si_code, fault_addr = si->si_addr;
  fpc_dxc = (uc->uc_mcontext.fpregs.fpc >> 8) & 0xFF;
  siglongjmp(env, sig);
}

static void install(int sig, void (*h)(int, siginfo_t*, void*)) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = h;
  sa.sa_flags = SA_SIGINFO;
  sigaction(sig, &sa, NULL);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  signal(SIGUSR1, on_usr1);
  raise(SIGUSR1);
  printf("SIGUSR1 handler ran: %d\n", got == SIGUSR1);

  install(SIGUSR2, on_info);
  got = 0;
  kill(getpid(), SIGUSR2);
  printf("SIGUSR2 siginfo: signo %d, code %s\n", info_signo, info_code == SI_USER ? "SI_USER" : "other");

  sigset_t set, old;
  sigemptyset(&set);
  sigaddset(&set, SIGUSR1);
  sigprocmask(SIG_BLOCK, &set, &old);
  got = 0;
  raise(SIGUSR1);
  printf("blocked: handler ran %d; pending %d\n", got != 0, (sigpending(&set), sigismember(&set, SIGUSR1)));
  sigprocmask(SIG_SETMASK, &old, NULL);
  printf("unblocked: handler ran %d\n", got == SIGUSR1);

  stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
  sigaltstack(&ss, NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alt;
  sa.sa_flags = SA_ONSTACK;
  sigaction(SIGTERM, &sa, NULL);
  raise(SIGTERM);
  printf("SIGTERM on the alternate stack: %d\n", on_altstack);

  install(SIGSEGV, on_fault);
  install(SIGFPE, on_fault);
  install(SIGILL, on_fault);
  int sig = sigsetjmp(env, 1);
  if (sig == 0) {
    int* volatile null_page = (int*)16;
    *null_page = 1;
  } else {
    printf("null store: signal %d code %d addr %p\n", sig, info_code, (void*)fault_addr);
  }
  sig = sigsetjmp(env, 1);
  if (sig == 0) {
    volatile long long a = 1, b = 0;
    printf("%lld\n", a / b);
  } else {
    printf("divide by zero: signal %d code %d\n", sig, info_code);
  }
  sig = sigsetjmp(env, 1);
  if (sig == 0) {
    __asm__ volatile(".long 0xb2ff0000");  /* no such instruction */
  } else {
    printf("invalid opcode: signal %d code %d\n", sig, info_code);
  }
  sig = sigsetjmp(env, 1);
  if (sig == 0) {
    volatile long v = 5;
    long r = v;
    __asm__ volatile("cgit %0,5,8" : : "d"(r));  /* compare and trap if equal */
  } else {
    printf("compare and trap: signal %d code %d dxc %02x\n", sig, info_code, fpc_dxc);
  }
  /* siglongjmp restored the mask: a signal after all that is still handled. */
  got = 0;
  raise(SIGUSR1);
  printf("after the faults SIGUSR1 handler ran: %d\n", got == SIGUSR1);
  return 0;
}
