// Vector string instructions and the z14/z15 vector loads and stores: the
// specification exceptions of their M fields, and results the differential tests
// cannot reach through QEMU (registers 16-31 through RXB).
#include <catch2/catch.hpp>

#include "harness.h"

using namespace test;
using emu::Generation;
using emu::Pic;

namespace {

constexpr uint64_t kD = TestMachine::kData;



// RXB: the fifth bit of the register fields at bits 8, 12, 16 and 32.
uint8_t rxb(unsigned a, unsigned b, unsigned c, unsigned d) {
  return uint8_t((a & 16 ? 8 : 0) | (b & 16 ? 4 : 0) | (c & 16 ? 2 : 0) | (d & 16 ? 1 : 0));
}
// VRR-a (VISTR): V1, V2, M3 (bits 32-35), M5 (24-27).
Bytes VRRa(uint16_t op, unsigned v1, unsigned v2, unsigned m3, unsigned m5) {
  return {uint8_t(op >> 8), uint8_t((v1 & 15) << 4 | (v2 & 15)), 0, uint8_t(m5 << 4),
          uint8_t(m3 << 4 | rxb(v1, v2, 0, 0)), uint8_t(op)};
}
// VRR-b (VFAE, VFEE, VFENE): V1, V2, V3, M4 (bits 32-35), M5 (24-27).
Bytes VRRb(uint16_t op, unsigned v1, unsigned v2, unsigned v3, unsigned m4, unsigned m5) {
  return {uint8_t(op >> 8), uint8_t((v1 & 15) << 4 | (v2 & 15)), uint8_t((v3 & 15) << 4), uint8_t(m5 << 4),
          uint8_t(m4 << 4 | rxb(v1, v2, v3, 0)), uint8_t(op)};
}
// VRR-d (VSTRC, VSTRS): V1, V2, V3, V4, M5 (bits 20-23), M6 (24-27).
Bytes VRRd(uint16_t op, unsigned v1, unsigned v2, unsigned v3, unsigned v4, unsigned m5, unsigned m6) {
  return {uint8_t(op >> 8), uint8_t((v1 & 15) << 4 | (v2 & 15)), uint8_t((v3 & 15) << 4 | m5), uint8_t(m6 << 4),
          uint8_t((v4 & 15) << 4 | rxb(v1, v2, v3, v4)), uint8_t(op)};
}
// VRX: V1, X2, B2, D2, M3.
Bytes VRX(uint16_t op, unsigned v1, unsigned x2, unsigned b2, unsigned d2, unsigned m3) {
  return {uint8_t(op >> 8), uint8_t((v1 & 15) << 4 | x2), uint8_t(b2 << 4 | (d2 >> 8)), uint8_t(d2),
          uint8_t(m3 << 4 | rxb(v1, 0, 0, 0)), uint8_t(op)};
}
// VSI (VLRL, VSTRL): V1 in bits 32-35, I3, B2, D2.
Bytes VSI(uint16_t op, unsigned v1, unsigned i3, unsigned b2, unsigned d2) {
  return {uint8_t(op >> 8), uint8_t(i3), uint8_t(b2 << 4 | (d2 >> 8)), uint8_t(d2),
          uint8_t((v1 & 15) << 4 | rxb(0, 0, 0, v1)), uint8_t(op)};
}

emu::VectorRegister bytes(const char (&s)[17]) {
  uint64_t hi = 0, lo = 0;
  for (int k = 0; k < 8; ++k) hi = hi << 8 | uint8_t(s[k]), lo = lo << 8 | uint8_t(s[8 + k]);
  return {hi, lo};
}

}  // namespace

TEST_CASE("String instructions: element sizes past word and undefined flags are specification exceptions",
          "[vector_string]") {
  TestMachine m;
  CHECK(check_of(m, VRRb(0xE782, 1, 2, 3, 3, 0)) == Pic::Specification);  // VFAE doubleword
  CHECK(check_of(m, VRRb(0xE780, 1, 2, 3, 4, 0)) == Pic::Specification);  // VFEE quadword
  CHECK(check_of(m, VRRb(0xE780, 1, 2, 3, 0, 4)) == Pic::Specification);  // VFEE with RT
  CHECK(check_of(m, VRRb(0xE781, 1, 2, 3, 0, 8)) == Pic::Specification);  // VFENE with IN
  CHECK(check_of(m, VRRa(0xE75C, 1, 2, 3, 0)) == Pic::Specification);     // VISTR doubleword
  CHECK(check_of(m, VRRa(0xE75C, 1, 2, 0, 2)) == Pic::Specification);     // VISTR with ZS
  CHECK(check_of(m, VRRd(0xE78A, 1, 2, 3, 4, 3, 0)) == Pic::Specification);  // VSTRC doubleword
  CHECK(check_of(m, VRRd(0xE78B, 1, 2, 3, 4, 3, 0)) == Pic::Specification);  // VSTRS doubleword
  CHECK(check_of(m, VRRd(0xE78B, 1, 2, 3, 4, 0, 1)) == Pic::Specification);  // VSTRS with CS
}

TEST_CASE("Reversing loads and stores: element sizes and element numbers out of range", "[vector_string]") {
  TestMachine m;
  m.cpu.gr[5] = kD;
  CHECK(check_of(m, VRX(0xE606, 1, 0, 5, 0, 0)) == Pic::Specification);  // VLBR byte
  CHECK(check_of(m, VRX(0xE606, 1, 0, 5, 0, 5)) == Pic::Specification);
  CHECK(check_of(m, VRX(0xE607, 1, 0, 5, 0, 4)) == Pic::Specification);  // VLER quadword
  CHECK(check_of(m, VRX(0xE60F, 1, 0, 5, 0, 0)) == Pic::Specification);  // VSTER byte
  CHECK(check_of(m, VRX(0xE605, 1, 0, 5, 0, 4)) == Pic::Specification);  // VLBRREP quadword
  CHECK(check_of(m, VRX(0xE604, 1, 0, 5, 0, 5)) == Pic::Specification);  // VLLEBRZ 5
  CHECK(check_of(m, VRX(0xE601, 1, 0, 5, 0, 8)) == Pic::Specification);  // VLEBRH element 8
  CHECK(check_of(m, VRX(0xE603, 1, 0, 5, 0, 4)) == Pic::Specification);  // VLEBRF element 4
  CHECK(check_of(m, VRX(0xE60A, 1, 0, 5, 0, 2)) == Pic::Specification);  // VSTEBRG element 2
  EXEC(m, VRX(0xE606, 1, 0, 5, 0, 4));  // VLBR quadword is defined
}

TEST_CASE("VFENE through registers 16-31: index, CC by the lower element, zero search", "[vector_string]") {
  TestMachine m;
  m.cpu.vr[17] = bytes("abcdefgh\0jklmnop");
  m.cpu.vr[18] = bytes("abcdXfgh\0jklmnoq");
  EXEC(m, VRRb(0xE781, 20, 17, 18, 0, 3));  // VFENEZBS
  CHECK(m.cpu.vr[20].hi == 4);
  CHECK(m.cpu.vr[20].lo == 0);
  CHECK(m.cpu.cc == 2);  // 'e' > 'X'
  m.cpu.vr[18] = bytes("abcdefgh\0jklmnoq");
  EXEC(m, VRRb(0xE781, 20, 17, 18, 0, 3));
  CHECK(m.cpu.vr[20].hi == 8);  // equal up to the zero element
  CHECK(m.cpu.cc == 0);
  EXEC(m, VRRb(0xE781, 20, 17, 18, 0, 1));  // no zero search: the unequal last byte
  CHECK(m.cpu.vr[20].hi == 15);
  CHECK(m.cpu.cc == 1);
}

TEST_CASE("VISTR halfwords and VSTRS partial matches", "[vector_string]") {
  TestMachine m;
  m.cpu.vr[2] = {0x0041004200430000ull, 0x0045004600470048ull};
  m.cpu.cc = 2;
  EXEC(m, VRRa(0xE75C, 1, 2, 1, 0));  // VISTRH without CS: the CC stays
  CHECK(m.cpu.vr[1].hi == 0x0041004200430000ull);
  CHECK(m.cpu.vr[1].lo == 0);
  CHECK(m.cpu.cc == 2);
  m.cpu.vr[2] = bytes("xxxxxxxxxxxxxabc");
  m.cpu.vr[3] = bytes("abcdef\0\0\0\0\0\0\0\0\0\0");
  m.cpu.vr[4] = {6, 0};  // a substring of 6 bytes
  EXEC(m, VRRd(0xE78B, 1, 2, 3, 4, 0, 0));
  CHECK(m.cpu.vr[1].hi == 13);
  CHECK(m.cpu.cc == 3);  // "abc" runs up to the end of the register
  m.cpu.vr[2] = bytes("xxxx\0xxxxxxxxabc");
  EXEC(m, VRRd(0xE78B, 1, 2, 3, 4, 0, 2));  // with ZS: a match after the zero does not count
  CHECK(m.cpu.vr[1].hi == 16);
  CHECK(m.cpu.cc == 1);
}

TEST_CASE("VLRL/VSTRL need the vector-packed-decimal facility (z14)", "[vector_string]") {
  TestMachine m;
  m.cpu.gr[5] = kD;
  m.poke<uint64_t>(kD, 0x0102030405060708ull);
  EXEC(m, VSI(0xE635, 17, 2, 5, 0));  // VLRL V17, 3 bytes
  CHECK(m.cpu.vr[17].hi == 0);
  CHECK(m.cpu.vr[17].lo == 0x010203);
  m.cpu.set_arch(Generation::Z13);
  CHECK(check_of(m, VSI(0xE635, 17, 2, 5, 0)) == Pic::Operation);
  m.cpu.set_arch(Generation::Z14);
  CHECK(check_of(m, VRX(0xE606, 1, 0, 5, 0, 1)) == Pic::Operation);  // VLBR is z15
}
