/* A vector floating-point IEEE exception whose FPC mask is on: a vector-processing
   exception (program interruption 001B), which Linux turns into SIGFPE with si_code
   from the VXC (the element index and the exception in byte 2 of the FPC); the
   instruction is suppressed (its register unchanged, no flag set). The instructions
   are written out with .machine z14, so the program builds at -march=z10. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static sigjmp_buf back;
static volatile int code;

static void on_fpe(int sig, siginfo_t *si, void *uc) {
  (void)sig, (void)uc;
  code = si->si_code;
  siglongjmp(back, 1);
}

static uint64_t in1[2], in2[2], out[2] = {0x1111, 0x2222};

/* op: 0 VFDDB, 1 WFSQDB, 2 VFMDB, 3 VFASB; fpc: the FPC to run it under. */
static void run(const char *name, int op, unsigned fpc) {
  unsigned after = 0;
  out[0] = 0x1111, out[1] = 0x2222;
  code = -1;
  if (!sigsetjmp(back, 1)) {
    __asm__ volatile(".machine push\n\t.machine z14\n\t"
                     "sfpc %[fpc]\n\t"
                     "vl %%v16,%[a]\n\tvl %%v17,%[b]\n\tvl %%v18,%[o]\n\t"
                     "chi %[op],0\n\tjne 1f\n\tvfddb %%v18,%%v16,%%v17\n\tj 9f\n"
                     "1:\tchi %[op],1\n\tjne 2f\n\twfsqdb %%v18,%%v16\n\tj 9f\n"
                     "2:\tchi %[op],2\n\tjne 3f\n\tvfmdb %%v18,%%v16,%%v17\n\tj 9f\n"
                     "3:\tvfasb %%v18,%%v16,%%v17\n"
                     "9:\tvst %%v18,%[o]\n\t.machine pop"
                     : [o] "+Q"(out) : [a] "Q"(in1), [b] "Q"(in2), [fpc] "d"(fpc), [op] "d"(op)
                     : "v16", "v17", "v18", "cc", "memory");
  }
  __asm__ volatile("efpc %0\n\tsfpc %1" : "=&d"(after) : "d"(0));
  printf("%s: si_code %d fpc %08x out %016llx %016llx\n", name, code, after, (unsigned long long)out[0],
         (unsigned long long)out[1]);
}

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fpe;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGFPE, &sa, 0);
  in1[0] = 0x3FF0000000000000ull, in1[1] = 0x3FF0000000000000ull;  /* 1, 1 */
  in2[0] = 0x4000000000000000ull, in2[1] = 0;                       /* 2, 0 */
  run("vfddb 1/0 in element 1, divide masked on", 0, 0x40000000);
  run("vfddb 1/0 in element 1, masks off", 0, 0);
  in1[0] = 0xBFF0000000000000ull;  /* -1 */
  run("wfsqdb -1, invalid masked on", 1, 0x80000000);
  run("wfsqdb -1, masks off", 1, 0);
  in1[0] = 0x7FE0000000000000ull, in2[0] = 0x7FE0000000000000ull;  /* huge * huge */
  in1[1] = 0x3FF8000000000000ull, in2[1] = 0x3FF8000000000000ull;
  run("vfmdb overflow in element 0, overflow masked on", 2, 0x20000000);
  run("vfmdb overflow in element 0, inexact masked on", 2, 0x08000000);
  run("vfmdb overflow, masks off", 2, 0);
  in1[0] = 0x3F8000003F800000ull, in1[1] = 0x3F8000003F800000ull;  /* short 1.0 x4 */
  in2[0] = 0x3F80000033800000ull, in2[1] = 0x3F8000003F800000ull;  /* element 1: 2^-24 */
  run("vfasb 1 + 2^-24 inexact in element 1, inexact masked on", 3, 0x08000000);
  run("vfasb inexact, masks off, round up", 3, 2);
  return 0;
}
