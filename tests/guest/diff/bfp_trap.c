/* An enabled IEEE trap ends the program with SIGFPE (exit status 136 without a
   handler): the invalid-operation mask is set with SFPC, then 0/0 is a data exception
   with DXC 80 (tpfemu's dump on stderr shows it). The flags and results before it are
   printed first. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  volatile double zero = 0.0, one = 1.0;
  unsigned fpc;
  __asm__ volatile("sfpc %0" : : "d"(0x40000000u));  /* divide mask only */
  volatile double r = zero / zero;                   /* invalid: masked, flag set */
  uint64_t b;
  double v = r;
  memcpy(&b, &v, 8);
  __asm__ volatile("efpc %0" : "=d"(fpc));
  printf("0/0 = %llx, fpc %08x\n", (unsigned long long)b, fpc);
  __asm__ volatile("sfpc %0" : : "d"(0x80000000u));  /* invalid mask */
  printf("enabled\n");
  r = zero / zero;
  printf("not reached %d\n", (int)(r == one));
  return 0;
}
