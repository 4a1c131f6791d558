/* QPCK: takes a program check on every message, so the control program must end
   the ECB with a report and keep the run going. Which check depends on the
   message (the parity of its byte sum), so a run sees both kinds:
     even: integer division by zero  -> fixed-point-divide exception (0009)
     odd:  a store through a wild pointer, far above every area of the ECB's
           address space (EVM)       -> a translation exception
   It logs which before it happens; the line after the check must never appear. */
#include "apps.h"

/* Above the 31-bit areas and far above the 64-bit heap, inside the address space's
   limit: mapped in no ECB. */
#define WILD_ADDRESS 0x00000BAD00000000ul

int QPCK(void *msg, long len) {
  const unsigned char *p = msg;
  unsigned long sum = 0;
  for (long k = 0; p && k < len; ++k) sum += p[k];
  if (sum & 1) {
    tpf_log("QPCK: storing through a wild pointer at %#lx", WILD_ADDRESS);
    *(volatile unsigned long *)WILD_ADDRESS = sum;
  } else {
    tpf_log("QPCK: dividing %lu by zero", sum);
    volatile long zero = 0;
    volatile long quotient = (long)sum / zero;
    (void)quotient;
  }
  tpf_log("QPCK: still running after the program check");
  return 1;
}
