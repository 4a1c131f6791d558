/* tpfemu ipl's waiting-loop test kernel: the CPU waits for a clock-comparator
   interruption 2 ms on in a loop of register-only instructions (j .; nop and j; a
   conditional branch back on a register that never changes; a count that goes up each
   pass), each left by the interruption itself: the external new PSW points past the
   loop, external interruptions off, as kvm-unit-tests' diag288 leaves its nop/j loop
   through the restart new PSW. tpfemu does the passes of the first three in one step
   (machine.skip_spin_loops, emu/spin_loop.h); ipl_test.py checks that the console, the
   counts and the ETIM report are the same byte for byte with it on and off, and the
   console the same as QEMU's. One line a check; the exit status is the failures. */
#include "system.h"

static uint64_t stck(void) {
  uint64_t t;
  __asm__ volatile("stck %0" : "=Q"(t) : : "cc");
  return t;
}

enum { WAIT_US = 2000 };
enum Loop { JUMP, NOP_JUMP, BRANCH_ON_REGISTER, COUNTING };

/* External interruptions on, then the loop; the interruption leaves it at 1:. */
#define LOOP(body, ...)                                                                     \
  __asm__ volatile("larl %%r1,1f\n\tstg %%r1,0x1b8\n\tstosm %[old],0x01\n0:\t" body "\n1:" \
                   : [old] "=Q"(old), ##__VA_ARGS__                                         \
                   :                                                                        \
                   : "r1", "cc", "memory")

/* Waits in `loop` for the interruption; the TOD clock's advance meanwhile. */
static uint64_t wait_in(enum Loop loop, uint64_t *passes) {
  const uint64_t saved_mask = LC64(LC_EXT_NEW_PSW), saved_address = LC64(LC_EXT_NEW_PSW + 8);
  LC64(LC_EXT_NEW_PSW) = PSW_MASK_64;
  LC16(LC_EXT_CODE) = 0;
  uint8_t old;
  /* The clock comparator WAIT_US microseconds on, and CR0's clock-comparator subclass
     mask (bit 52). */
  const uint64_t from = stck(), when = from + ((uint64_t)WAIT_US << 12);
  __asm__ volatile("sckc %0" : : "Q"(when));
  uint64_t cr0;
  __asm__ volatile("stctg 0,0,%0" : "=Q"(cr0));
  cr0 |= 1ULL << (63 - 52);
  __asm__ volatile("lctlg 0,0,%0" : : "Q"(cr0));
  register uint64_t r3 __asm__("r3") = 0;
  switch (loop) {
    case JUMP: LOOP("j 0b"); break;
    case NOP_JUMP: LOOP("nop\n\tj 0b"); break;
    case BRANCH_ON_REGISTER: LOOP("ltgr %%r3,%%r3\n\tjz 0b", "+d"(r3)); break;
    case COUNTING: LOOP("aghi %%r3,1\n\tj 0b", "+d"(r3)); break;
  }
  const uint64_t waited = stck() - from;
  const uint64_t never = ~0ULL;
  __asm__ volatile("sckc %0" : : "Q"(never)); /* the condition ends */
  LC64(LC_EXT_NEW_PSW) = saved_mask, LC64(LC_EXT_NEW_PSW + 8) = saved_address;
  __asm__ volatile("stosm %0,0x01" : "=Q"(old) : : "memory"); /* the console's service signals */
  *passes = r3;
  return LC16(LC_EXT_CODE) == 0x1004 ? waited : 0;
}

int start_c(void) {
  setup_interruptions();
  sclp_setup();
  print("tpfemu waiting-loop test\n");
  static const char *const names[] = {"j .", "nop; j", "ltgr; jz (a register that stays 0)",
                                      "aghi; j (a count that goes up)"};
  for (int loop = JUMP; loop <= COUNTING; ++loop) {
    uint64_t passes = 0;
    const uint64_t waited = wait_in((enum Loop)loop, &passes);
    print("%s: %s: the clock comparator's interruption ends it 2 ms on\n",
          waited >= ((uint64_t)WAIT_US << 12) && waited < ((uint64_t)1000000 << 12) ? "PASS" : "FAIL", names[loop]);
    failures += !(waited >= ((uint64_t)WAIT_US << 12) && waited < ((uint64_t)1000000 << 12));
    if (loop == COUNTING) check(passes > 0, "aghi; j: the count went up while it waited");
  }
  print("%u failure(s)\n", failures);
  return (int)failures;
}
