/* The virtual machine STSI 3.2.2 describes [Principles of Operation, "STORE SYSTEM
   INFORMATION", SYSIB 3.2.2]: its name, control-program identifier and UUID, and the
   extended name (UTF-8) when one is given. Printed as text so that one console is
   compared with another: tpfemu ipl --vm-name, --vm-uuid, --control-program against
   qemu-system-s390x -name and -uuid (whose control program is KVM/Linux). */
#include "system.h"

static uint8_t block[4096] __attribute__((aligned(4096)));

/* EBCDIC (code page 037) to ASCII for what SYSIB names hold; '?' for anything else. */
static char ascii(uint8_t e) {
  if (e >= 0xC1 && e <= 0xC9) return (char)('A' + e - 0xC1);
  if (e >= 0xD1 && e <= 0xD9) return (char)('J' + e - 0xD1);
  if (e >= 0xE2 && e <= 0xE9) return (char)('S' + e - 0xE2);
  if (e >= 0x81 && e <= 0x89) return (char)('a' + e - 0x81);
  if (e >= 0x91 && e <= 0x99) return (char)('j' + e - 0x91);
  if (e >= 0xA2 && e <= 0xA9) return (char)('s' + e - 0xA2);
  if (e >= 0xF0 && e <= 0xF9) return (char)('0' + e - 0xF0);
  switch (e) {
    case 0x40: return ' ';
    case 0x4B: return '.';
    case 0x60: return '-';
    case 0x61: return '/';
    case 0x6D: return '_';
    default: return '?';
  }
}

static void field(const char *what, const uint8_t *at, unsigned n) {
  char text[17];
  for (unsigned k = 0; k < n; ++k) text[k] = ascii(at[k]);
  text[n] = 0;
  print("%s: '%s'\n", what, text);
}

int start_c(void) {
  setup_interruptions();
  sclp_setup();
  print("tpfemu STSI 3.2.2 test\n");
  register uint64_t r0 __asm__("r0") = 0x30000002;
  register uint64_t r1 __asm__("r1") = 2;
  int cc;
  __asm__ volatile("stsi 0(%3)\n\tipm %0\n\tsrl %0,28" : "=d"(cc), "+d"(r0) : "d"(r1), "a"(block) : "cc", "memory");
  print("cc %d, %u description(s)\n", cc, block[31]);
  const uint8_t *vm = block + 32;
  field("name", vm + 12, 8);
  field("control program", vm + 24, 16);
  print("uuid: ");
  for (unsigned k = 0; k < 16; ++k) print("%02x", vm[48 + k]);
  print("\nextended name encoding: %u\n", vm[43]);
  if (vm[43] == 2) print("extended name: '%s'\n", (const char *)block + 2048);
  return 0;
}
