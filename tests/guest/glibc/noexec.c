/* Execute rights: a jump into a page without PROT_EXEC (an mmap'd page, the stack, the
   data segment, a page whose exec right was taken away after it ran) is a SIGSEGV with
   SEGV_ACCERR and si_addr the page; with PROT_EXEC the same code runs. The handler
   leaves with siglongjmp, after checking that the PSW in the context is the jump target. */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

static const unsigned char kCode[] = {0xa7, 0x29, 0x00, 0x07, 0x07, 0xfe}; /* lghi %r2,7; br %r14 */
static unsigned char data_code[4096] __attribute__((aligned(4096)));
static sigjmp_buf back;
static volatile uintptr_t target;

static void on_segv(int sig, siginfo_t* si, void* ucv) {
  ucontext_t* uc = ucv;
  uintptr_t page = target & ~(uintptr_t)4095;
  printf("  SIGSEGV %d code %d si_addr is the page: %d, psw at the target: %d\n", sig, si->si_code,
         (uintptr_t)si->si_addr == page, (uintptr_t)uc->uc_mcontext.psw.addr == target);
  siglongjmp(back, 1);
}

static void try_call(const char* what, void* at) {
  target = (uintptr_t)at;
  printf("%s:\n", what);
  if (sigsetjmp(back, 1) == 0) {
    long r = ((long (*)(void))at)();
    printf("  ran, returned %ld\n", r);
  }
}

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigaction(SIGSEGV, &sa, NULL);

  unsigned char* p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  memcpy(p, kCode, sizeof kCode);
  try_call("read/write page", p);
  mprotect(p, 4096, PROT_READ | PROT_EXEC);
  try_call("after mprotect PROT_READ|PROT_EXEC", p);
  mprotect(p, 4096, PROT_READ);
  try_call("after mprotect PROT_READ (it ran before)", p);
  mprotect(p, 4096, PROT_NONE);
  try_call("PROT_NONE", p);
  /* An instruction that starts on an executable page and ends on one that is not. */
  mprotect(p, 8192, PROT_READ | PROT_WRITE | PROT_EXEC);
  memcpy(p + 4094, kCode, sizeof kCode);
  try_call("crossing, both executable", p + 4094);
  mprotect(p + 4096, 4096, PROT_READ | PROT_WRITE);
  target = (uintptr_t)p + 4096; /* the fault names the second page */
  printf("crossing into a page without exec:\n");
  if (sigsetjmp(back, 1) == 0) printf("  ran, returned %ld\n", ((long (*)(void))(p + 4094))());

  unsigned char stack_code[64] __attribute__((aligned(8)));
  memcpy(stack_code, kCode, sizeof kCode);
  try_call("the stack", stack_code);
  memcpy(data_code, kCode, sizeof kCode);
  try_call("the data segment", data_code);

  munmap(p, 8192);
  p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  memcpy(p, kCode, sizeof kCode);
  try_call("mmap PROT_EXEC", p);
  printf("done\n");
  return 0;
}
