/* MOVE PAGE [Principles of Operation, chapter 10, "MOVE PAGE"], DAT off: a page copied,
   CC 0; GR0's key-function control 3 (both key controls) is a specification exception;
   an operand beyond storage is an addressing exception. kvm-unit-tests' mvpg test checks
   these and, with DAT, the condition-code option and the operand-access identification. */
#include "system.h"

static int move_page(uint64_t r0, void *dest, const void *src) {
  register uint64_t gr0 __asm__("0") = r0;
  int cc = 3;
  __asm__ volatile("mvpg %1,%2\n\tipm %0\n\tsrl %0,28" : "+d"(cc) : "a"(dest), "a"(src), "d"(gr0) : "cc", "memory");
  return cc;
}

void move_page_tests(void) {
  static uint8_t source[4096] __attribute__((aligned(4096)));
  static uint8_t dest[4096] __attribute__((aligned(4096)));
  for (unsigned k = 0; k < sizeof source; ++k) source[k] = (uint8_t)(k * 7 + 1), dest[k] = 0;
  unsigned before = last_program.count;
  const int cc = move_page(0, dest, source);
  int same = 1;
  for (unsigned k = 0; k < sizeof source; ++k) same = same && dest[k] == source[k];
  check(cc == 0 && same && last_program.count == before, "MVPG: the page moved, CC 0");
  move_page(3 << 10, dest, source);
  check(last_program.count == before + 1 && last_program.code == 0x0006,
        "MVPG: key-function control 3 is exception 0006");
  move_page(0, (void *)-4096L, source);
  check(last_program.count == before + 2 && last_program.code == 0x0005,
        "MVPG: a first operand beyond storage is exception 0005");
}
