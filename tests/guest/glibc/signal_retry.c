/* A SIGSEGV handler that grants the right and returns: the store runs again and
   succeeds (the signal frame's PSW points at the faulting instruction), as garbage
   collectors and copy-on-write schemes rely on. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

static char* volatile page;
static volatile int faults;

static void grant(int sig, siginfo_t* si, void* uc) {
  (void)sig, (void)uc;
  faults++;
  mprotect((void*)((unsigned long)si->si_addr & ~4095UL), 4096, PROT_READ | PROT_WRITE);
}

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = grant;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &sa, NULL);
  page = mmap(NULL, 2 * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  page[100] = 42;
  __asm__ volatile("" ::: "memory");
  int after_first = faults;
  page[101] = 43;   /* the same page: no fault now */
  page[4096] = 44;  /* the next page: one more */
  __asm__ volatile("" ::: "memory");
  printf("faults %d then %d, values %d %d %d\n", after_first, faults, page[100], page[101], page[4096]);
  return 0;
}
