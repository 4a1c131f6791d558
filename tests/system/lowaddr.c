/* Low-address protection [Principles of Operation, chapter 3, "Low-Address Protection"]
   with CR0 bit 35: stores to 0-511 and 4096-4607 are protection exceptions (nothing
   stored) whatever the key, 4608 is not protected; STORE CPU ADDRESS under it, and its
   specification exception for an odd address; TPROT gives CC 1 (fetch only); TEST BLOCK
   clears a block (CC 0) and is refused block 4096. kvm-unit-tests' intercept and tprot
   tests check the same. */
#include "system.h"

#define CR0_LOW_ADDRESS_PROTECTION (1ULL << (63 - 35))

static void set_low_address_protection(int on) {
  uint64_t cr0;
  __asm__ volatile("stctg 0,0,%0" : "=Q"(cr0));
  cr0 = on ? cr0 | CR0_LOW_ADDRESS_PROTECTION : cr0 & ~CR0_LOW_ADDRESS_PROTECTION;
  __asm__ volatile("lctlg 0,0,%0" : : "Q"(cr0) : "memory");
}

static int test_block(uint64_t real) {
  int cc;
  __asm__ volatile("lghi 0,0\n\t.insn rre,0xb22c0000,0,%1\n\tipm %0\n\tsrl %0,28"
                   : "=d"(cc) : "a"(real) : "0", "cc", "memory");
  return cc;
}

static int tprot_key0(uint64_t a) {
  int cc;
  __asm__ volatile("tprot 0(%1),0\n\tipm %0\n\tsrl %0,28" : "=d"(cc) : "a"(a) : "cc");
  return cc;
}

void low_address_tests(void) {
  static uint8_t block[4096] __attribute__((aligned(4096)));
  /* 0x11f8 (in the lowcore's second page, unused by this kernel) is protected, 0x1200
     (the first byte past 4607) is not. */
  const uint64_t protected_at = 0x11f8, open_at = 0x1200;
  const uint64_t before_value = LC64(protected_at);
  unsigned before = last_program.count;
  set_low_address_protection(1);
  /* Plain stores, not probe_store: the handler must not store into the lowcore while
     it is protected (it goes on past a suppressed store by itself). */
  __asm__ volatile("stg %1,0(%0)" : : "a"(protected_at), "d"(~before_value) : "memory");
  const int refused = last_program.count == before + 1 && last_program.code == 0x0004;
  __asm__ volatile("stg %1,0(%0)" : : "a"(open_at), "d"(0x1234ULL) : "memory");
  const int open_ok = last_program.count == before + 1 && LC64(open_at) == 0x1234;
  set_low_address_protection(0);
  check(refused && LC64(protected_at) == before_value && open_ok,
        "low-address protection: a store to 4096-4607 is exception 0004, nothing stored; 4608 is not protected");
  LC64(protected_at) = before_value;

  before = last_program.count;
  uint16_t low_before = LC16(8);
  set_low_address_protection(1);
  __asm__ volatile("stap 0(%0)" : : "a"(8) : "memory");
  set_low_address_protection(0);
  const int stap_refused = last_program.count == before + 1 && last_program.code == 0x0004 && LC16(8) == low_before;
  static uint16_t halfwords[2] __attribute__((aligned(4)));
  __asm__ volatile("stap 0(%0)" : : "a"((uint8_t *)halfwords + 1) : "memory");
  check(stap_refused && last_program.count == before + 2 && last_program.code == 0x0006,
        "STAP: exception 0004 under low-address protection, 0006 at an odd address");

  set_low_address_protection(1);
  const int cc_low = tprot_key0(0), cc_open = tprot_key0(open_at);
  set_low_address_protection(0);
  check(cc_low == 1 && cc_open == 0, "TPROT under low-address protection: CC 1 for location 0, CC 0 for 4608");

  for (unsigned k = 0; k < sizeof block; ++k) block[k] = 0xaa;
  before = last_program.count;
  const int cc = test_block((uint64_t)(uintptr_t)block + 0x123);
  set_low_address_protection(1);
  test_block(4096);
  set_low_address_protection(0);
  check(cc == 0 && block[0] == 0 && block[4095] == 0 && last_program.count == before + 1 &&
            last_program.code == 0x0004,
        "TEST BLOCK: the block cleared, CC 0; block 4096 under low-address protection is exception 0004");
}
