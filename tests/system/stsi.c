/* STORE SYSTEM INFORMATION's basic levels [Principles of Operation, "STORE SYSTEM
   INFORMATION"]: the current level (function code 0), the 1.1.1, 2.2.2 and 3.2.2 blocks,
   CC 3 for a level or selectors with no block, and the specification exception of a
   reserved bit. */
#include "system.h"

static uint8_t block[4096] __attribute__((aligned(4096)));

static int stsi(uint64_t r0, uint64_t r1, uint64_t *r0_after) {
  register uint64_t g0 __asm__("r0") = r0;
  register uint64_t g1 __asm__("r1") = r1;
  int cc;
  __asm__ volatile("stsi 0(%3)\n\tipm %0\n\tsrl %0,28" : "=d"(cc), "+d"(g0) : "d"(g1), "a"(block) : "cc", "memory");
  *r0_after = g0;
  return cc;
}

void stsi_tests(void) {
  uint64_t r0;
  int cc = stsi(0, 0, &r0);
  unsigned level = (unsigned)(r0 >> 28 & 0xf);
  check(cc == 0 && level >= 1 && level <= 3, "STSI function code 0: the current configuration level");
  memset(block, 0, sizeof block);
  cc = stsi(0x10000001, 1, &r0);
  check(cc == 0 && block[32] != 0 && block[32] != 0x40, "STSI 1.1.1: the basic machine's manufacturer");
  memset(block, 0, sizeof block);
  cc = stsi(0x20000002, 2, &r0);
  uint16_t total = (uint16_t)(block[36] << 8 | block[37]);
  check(level < 2 || (cc == 0 && total >= 1), "STSI 2.2.2: the logical partition's CPUs");
  memset(block, 0, sizeof block);
  cc = stsi(0x30000002, 2, &r0);
  check(level < 3 || (cc == 0 && block[31] >= 1), "STSI 3.2.2: a virtual-machine description");
  check(stsi(0x40000000, 0, &r0) == 3 && stsi(0x10000001, 2, &r0) == 3,
        "STSI: CC 3 for a level past the current one and for selectors with no block");
  unsigned before = last_program.count;
  stsi(0x10000101, 1, &r0);
  check(last_program.count == before + 1 && last_program.code == 0x0006,
        "STSI with a reserved bit of GR0 on: specification exception");
}

/* SET CLOCK: STCK reads the value set, and time goes on from it. */
void sck_tests(void) {
  uint64_t before, set, after;
  int cc;
  __asm__ volatile("stck %0" : "=Q"(before) : : "cc");
  set = before + (1ULL << 40);
  __asm__ volatile("sck %1\n\tipm %0\n\tsrl %0,28" : "=d"(cc) : "Q"(set) : "cc");
  __asm__ volatile("stck %0" : "=Q"(after) : : "cc");
  check(cc == 0 && after >= set && after - set < (1ULL << 32), "SCK: the TOD clock goes on from the value set");
  set = after - (1ULL << 40);
  __asm__ volatile("sck %0" : : "Q"(set) : "cc");
}
