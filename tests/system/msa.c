/* The message-security assist [Principles of Operation, chapter 7, "Message-Security
   Assist"]: STORE FACILITY LIST EXTENDED's bits for it and its extensions (and bits 3
   and 4, IDTE's), then for each CPACF instruction the query function (function code 0
   in GR0: CC 0, the 16-byte status word at GR1's address with bit 0, the query itself,
   one) and the program checks before it: an odd or zero register pair (R1, R2, R3 as
   the instruction uses them: specification), the modifier bit where it means nothing
   (specification), function code 127 (unassigned: specification), the parameter block
   beyond storage (addressing) and at 8 under low-address protection (protection).
   kvm-unit-tests' emulator test checks the same. Printed as text so that one console is
   compared with another: tpfemu ipl against qemu-system-s390x (tests/system/ipl_test.py).
   Only what both have is printed: not the rest of the status words (QEMU installs SHA
   and AES functions, tpfemu only the query). */
#include "system.h"

#define CR0_LOW_ADDRESS_PROTECTION (1ULL << (63 - 35))

static uint64_t facilities[4] __attribute__((aligned(8)));
static uint8_t status_word[16] __attribute__((aligned(8)));

static int facility(unsigned bit) { return (int)(facilities[bit / 64] >> (63 - bit % 64)) & 1; }

static void store_facility_list(void) {
  register uint64_t r0 __asm__("r0") = sizeof facilities / 8 - 1;
  __asm__ volatile(".insn s,0xb2b00000,%1" : "+d"(r0), "=Q"(facilities) : : "cc", "memory");
}

static void set_low_address_protection(int on) {
  uint64_t cr0;
  __asm__ volatile("stctg 0,0,%0" : "=Q"(cr0));
  cr0 = on ? cr0 | CR0_LOW_ADDRESS_PROTECTION : cr0 & ~CR0_LOW_ADDRESS_PROTECTION;
  __asm__ volatile("lctlg 0,0,%0" : : "Q"(cr0) : "memory");
}

/* The instruction `opcode` with register fields r1, r2 and r3 (bits 16-19, which an RRE
   instruction ignores), GR0 and GR1 as given: its CC, or the program-interruption code
   (as 0x10000 | code) when it took one (the handler goes on after it: every exception
   here suppresses the instruction). */
static inline __attribute__((always_inline)) unsigned cpacf(unsigned opcode, unsigned r1, unsigned r2, unsigned r3,
                                                            uint64_t gr0, uint64_t gr1) {
  register uint64_t r0_ __asm__("0") = gr0;
  register uint64_t r1_ __asm__("1") = gr1;
  const unsigned before = last_program.count;
  int cc = 0;
  __asm__ volatile(".insn rrf,%[opc] << 16,%[r1],%[r2],%[r3],0\n\tipm %[cc]\n\tsrl %[cc],28"
                   : [cc] "+d"(cc)
                   : "d"(r0_), "d"(r1_), [opc] "i"(opcode), [r1] "i"(r1), [r2] "i"(r2), [r3] "i"(r3)
                   : "cc", "memory");
  return last_program.count != before ? 0x10000u | last_program.code : (unsigned)cc;
}

/* One line per group of checks: "NAME: what CC n, what exception 000n, ...". */
static const char *separator;
static void line(const char *name) {
  print("%s", name);
  separator = ": ";
}
static void result(const char *what, unsigned r) {
  if (r & 0x10000) print("%s%s exception %04x", separator, what, r & 0xffff);
  else print("%s%s CC %u", separator, what, r);
  separator = ", ";
}

#define CHECK_CPACF(name, opcode)                                                               \
  do {                                                                                          \
    memset(status_word, 0xee, sizeof status_word);                                              \
    unsigned r = cpacf(opcode, 2, 4, 6, 0, (uint64_t)status_word);                               \
    line(name);                                                                                 \
    result("query", r);                                                                         \
    print(", query function %s\n", r == 0 && (status_word[0] & 0x80) ? "indicated" : "NOT indicated"); \
    line(name);                                                                                 \
    result("R1 odd", cpacf(opcode, 1, 4, 6, 0, (uint64_t)status_word));                        \
    result("R1 zero", cpacf(opcode, 0, 4, 6, 0, (uint64_t)status_word));                        \
    result("R2 odd", cpacf(opcode, 2, 3, 6, 0, (uint64_t)status_word));                         \
    result("R2 zero", cpacf(opcode, 2, 0, 6, 0, (uint64_t)status_word));                        \
    result("R3 odd", cpacf(opcode, 2, 4, 5, 0, (uint64_t)status_word));                         \
    result("R3 zero", cpacf(opcode, 2, 4, 0, 0, (uint64_t)status_word));                        \
    print("\n");                                                                                \
    line(name);                                                                                 \
    result("modifier bit", cpacf(opcode, 2, 4, 6, 0x80, (uint64_t)status_word));                \
    result("function 127", cpacf(opcode, 2, 4, 6, 127, (uint64_t)status_word));                 \
    result("block at -1", cpacf(opcode, 2, 4, 6, 0, ~0ULL));                                    \
    const uint64_t low_before = LC64(8);                                                        \
    set_low_address_protection(1);                                                              \
    r = cpacf(opcode, 2, 4, 6, 0, 8);                                                           \
    set_low_address_protection(0);                                                              \
    result("block at 8, low-address protected", r);                                             \
    print(", %s\n", LC64(8) == low_before ? "nothing stored" : "STORED");                       \
  } while (0)

int start_c(void) {
  setup_interruptions();
  sclp_setup();
  print("tpfemu message-security assist test\n");
  store_facility_list();
  static const unsigned bits[] = {3, 4, 17, 57, 76, 77, 146};
  print("facilities:");
  for (unsigned k = 0; k < sizeof bits / sizeof bits[0]; ++k) print(" %u=%d", bits[k], facility(bits[k]));
  print("\n");
  if (facility(17)) {
    CHECK_CPACF("KMAC", 0xb91e);
    CHECK_CPACF("KM", 0xb92e);
    CHECK_CPACF("KMC", 0xb92f);
    CHECK_CPACF("KIMD", 0xb93e);
    CHECK_CPACF("KLMD", 0xb93f);
  }
  if (facility(76)) CHECK_CPACF("PCKMO", 0xb928);
  if (facility(77)) {
    CHECK_CPACF("KMF", 0xb92a);
    CHECK_CPACF("KMO", 0xb92b);
    CHECK_CPACF("PCC", 0xb92c);
    CHECK_CPACF("KMCTR", 0xb92d);
  }
  if (facility(57)) CHECK_CPACF("PRNO", 0xb93c);
  if (facility(146)) CHECK_CPACF("KMA", 0xb929);
  return 0;
}
