/* VECTOR CHECKSUM (z13 vector facility) against the Principles of Operation, not
   QEMU: the four words of V2 and word 1 of V3 added with end-around carry (a carry out
   of bit 0 is added back at bit 31), the sum in word 1 of V1, the other words zero.
   QEMU 7.2 doubles the running sum at every step (its 64-bit add overwrites the
   element before adding the high halves): words {1,2,3,4} with 5 give 106, not 15. So
   integer_checksum.expected holds the output, and the program checks every result
   against a plain C model of the definition as well ("model ok"). */
#include "integer.h"

static uint32_t checksum_model(vb a, vb b) {
  union { vb v; uint32_t w[4]; } x = {a}, y = {b};
  uint64_t sum = y.w[1];
  for (int k = 0; k < 4; ++k) {
    sum += x.w[k];
    sum = (sum & 0xFFFFFFFFu) + (sum >> 32);
  }
  return (uint32_t)sum;
}

static void check(const char *name, vb a, vb b) {
  union { vb v; uint32_t w[4]; } r = {V3("vcksm %[r],%[a],%[b]", a, b)};
  int ok = r.w[0] == 0 && r.w[2] == 0 && r.w[3] == 0 && r.w[1] == checksum_model(a, b);
  printf("%s %08x%08x%08x%08x model %s\n", name, r.w[0], r.w[1], r.w[2], r.w[3], ok ? "ok" : "differs");
}

int main(void) {
  make_ops();
  vw small = {1, 2, 3, 4}, five = {0, 5, 0, 0}, zero = {0, 0, 0, 0};
  vw carry = {0xFFFFFFFF, 2, 0, 0}, ones = {~0u, ~0u, ~0u, ~0u}, others = {7, 0xFFFFFFFF, 9, 9};
  check("1+2+3+4+5", (vb)small, (vb)five);
  check("carry", (vb)carry, (vb)zero);
  check("only v3", (vb)zero, (vb)five);
  check("ones", (vb)ones, (vb)ones);
  check("v3 word 1 only", (vb)zero, (vb)others);
  for (int j = 0; j < NOPS; ++j) check("vcksm", op_a(j), op_b(j));
  return 0;
}
