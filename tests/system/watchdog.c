/* tpfemu ipl's diag288 watchdog test kernel (run with --watchdog inject-nmi, as QEMU's
   -device diag288 --watchdog-action inject-nmi): DIAGNOSE X'288''s specification
   exceptions (an odd R1, an action other than 0, an unknown function, change or cancel
   with no timer, fewer than 15 seconds), init, change and cancel, and the timer's
   expiry: 15 seconds of TOD-clock time later, the restart interruption ends an enabled
   wait. One line a check, PASS or FAIL; the exit status is the failures. */
#include "system.h"

enum { INIT = 0, CHANGE = 1, CANCEL = 2, RESTART = 0 };

/* DIAGNOSE X'288': function in R1 (GR0), seconds in R1+1 (GR1), action in R3 (GR2); the
   program interruptions it took. */
static unsigned diag288(uint64_t function, uint64_t seconds, uint64_t action) {
  register uint64_t r0 __asm__("r0") = function;
  register uint64_t r1 __asm__("r1") = seconds;
  register uint64_t r2 __asm__("r2") = action;
  unsigned before = last_program.count;
  __asm__ volatile("diag %0,%2,0x288" : : "d"(r0), "d"(r1), "d"(r2) : "memory");
  return last_program.count - before;
}

static int specification(unsigned taken) { return taken == 1 && last_program.code == 0x0006; }

static uint64_t stck(void) {
  uint64_t t;
  __asm__ volatile("stck %0" : "=Q"(t) : : "cc");
  return t;
}

int start_c(void) {
  setup_interruptions();
  sclp_setup();
  print("tpfemu diag288 watchdog test\n");
  unsigned before = last_program.count;
  __asm__ volatile("diag 1,2,0x288" : : : "memory");
  check(specification(last_program.count - before), "DIAGNOSE X'288' with an odd R1: exception 0006");
  check(specification(diag288(INIT, 15, 42)), "DIAGNOSE X'288' action 42: exception 0006");
  check(specification(diag288(42, 15, RESTART)), "DIAGNOSE X'288' function 42: exception 0006");
  check(specification(diag288(CANCEL, 15, RESTART)) && specification(diag288(CHANGE, 15, RESTART)),
        "DIAGNOSE X'288' cancel or change with no timer: exception 0006");
  check(specification(diag288(INIT, 14, RESTART)), "DIAGNOSE X'288' init for 14 seconds: exception 0006");
  check(diag288(INIT, 15, RESTART) == 0 && diag288(CHANGE, 60, RESTART) == 0 && diag288(CANCEL, 0, RESTART) == 0 &&
            specification(diag288(CANCEL, 0, RESTART)),
        "DIAGNOSE X'288' init, change, cancel; cancel again: exception 0006");

  /* The expiry: an enabled wait (nothing else pending) that the restart interruption
     ends; its new PSW disabled, as the watchdog's restart finds the program. */
  static uint64_t wait_psw[2] __attribute__((aligned(8))) = {0x0102000180000000ULL, 0};
  LC64(0x1a0) = PSW_MASK_64;
  const uint64_t start = stck();
  diag288(INIT, 15, RESTART);
  __asm__ volatile("larl %%r1,1f\n\tstg %%r1,0x1a8\n\tlpswe 0(%0)\n1:" : : "a"(wait_psw) : "r1", "memory");
  const uint64_t waited = stck() - start;
  uint8_t old;
  __asm__ volatile("stosm %0,0x01" : "=Q"(old) : : "memory"); /* external interruptions again: the console */
  check((LC64(0x120) & PSW_MASK_WAIT) && waited >= (15ULL * 1000000 << 12) && waited < (16ULL * 1000000 << 12),
        "the watchdog's expiry 15 seconds later: the restart interruption ends the enabled wait");

  /* The expiry while the CPU spins (nop; j, as kvm-unit-tests' diag288 waits), external
     interruptions off: the restart interruption 15 seconds on leaves the loop through the
     restart new PSW. (tpfemu once let a lone I-stream that spun run past the expiry, which
     DIAGNOSE had put on the machine's event queue after the run's end was chosen.) */
  const uint64_t spin_start = stck();
  diag288(INIT, 15, RESTART);
  __asm__ volatile("stnsm %0,0xfe\n\tlarl %%r1,1f\n\tstg %%r1,0x1a8\n0:\tnop\n\tj 0b\n1:" : "=Q"(old) : : "r1", "memory");
  const uint64_t spun = stck() - spin_start;
  __asm__ volatile("stosm %0,0x01" : "=Q"(old) : : "memory");
  check(spun >= (15ULL * 1000000 << 12) && spun < (16ULL * 1000000 << 12),
        "the watchdog's expiry 15 seconds later: the restart interruption ends a spin (nop; j)");
  print("%u failure(s)\n", failures);
  return (int)failures;
}
