/* MOVE RIGHT TO LEFT takes its length from bits 56-63 of general register 0 alone;
   bits 0-55 are ignored [Principles of Operation, "MOVE RIGHT TO LEFT"]. Checked
   against general_mvcrl_r0.expected: QEMU 7.2 uses the whole register as the length
   (and stops on an assertion), a bug fixed in later QEMU. */
#include "general.h"

static uint8_t buf[64];

int main(void) {
  static const uint64_t junk[] = {0xdeadbeefcafe0000ull, 0x100ull, 0xffffffffffffff00ull, 0x8000000000000000ull};
  for (unsigned j = 0; j < 4; ++j)
    for (unsigned len = 1; len <= 9; len += 4) {
      for (unsigned k = 0; k < sizeof buf; ++k) buf[k] = (uint8_t)(k + 0x10);
      uint64_t r0 = junk[j] | (len - 1);
      __asm__ volatile(Z15("lgr %%r0,%2\n\tmvcrl 0(%0),0(%1)")
                       : : "a"(buf + 20), "a"(buf + 17), "d"(r0) : "r0", "memory");
      printf("r0 %016llx:", (unsigned long long)r0);
      for (unsigned k = 16; k < 32; ++k) printf(" %02x", buf[k]);
      printf("\n");
    }
  return 0;
}
