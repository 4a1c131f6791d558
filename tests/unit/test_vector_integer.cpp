// The vector integer instructions' exceptions (emu/isa/vector_integer.cpp): element
// sizes past an instruction's range, the quadword-only and doubleword-only forms, the
// shift counts VSLD/VSRD reject, and what the machine level decides (VPOPCT's sizes,
// the vector-enhancements instructions). The results themselves are checked against
// QEMU by tests/guest/vector/integer_*.c.
#include <catch2/catch.hpp>

#include "harness.h"

using namespace test;

namespace {

// A six-byte vector instruction (0xE7xx) from its nibbles at bits 8-35 (n2..n8), as
// the Principles of Operation numbers them; registers 0-15 only (RXB zero).
Bytes vec(uint8_t op, unsigned n2, unsigned n3, unsigned n4, unsigned n5, unsigned n6, unsigned n7, unsigned n8) {
  return {0xE7, uint8_t(n2 << 4 | n3), uint8_t(n4 << 4 | n5), uint8_t(n6 << 4 | n7), uint8_t(n8 << 4), op};
}
// VRR-a: V1, V2, M5, M4, M3. VRR-b: V1, V2, V3, M5, M4. VRR-c: V1, V2, V3, M6, M5, M4.
// VRR-d: V1, V2, V3, M5, M6, V4.
// VRI-d: V1, V2, V3, I4, M5.
Bytes vrr_a(uint8_t op, unsigned v1, unsigned v2, unsigned m3) { return vec(op, v1, v2, 0, 0, 0, 0, m3); }
Bytes vrr_c(uint8_t op, unsigned v1, unsigned v2, unsigned v3, unsigned m4, unsigned m5 = 0) {
  return vec(op, v1, v2, v3, 0, 0, m5, m4);
}
Bytes vrr_b(uint8_t op, unsigned v1, unsigned v2, unsigned v3, unsigned m4, unsigned m5 = 0) {
  return vec(op, v1, v2, v3, 0, m5, 0, m4);
}
Bytes vrr_d(uint8_t op, unsigned v1, unsigned v2, unsigned v3, unsigned v4, unsigned m5, unsigned m6 = 0) {
  return vec(op, v1, v2, v3, m5, m6, 0, v4);
}
Bytes vri_d(uint8_t op, unsigned v1, unsigned v2, unsigned v3, unsigned i4, unsigned m5 = 0) {
  return vec(op, v1, v2, v3, 0, i4 >> 4, i4 & 15, m5);
}

bool runs(TestMachine& m, const Bytes& code) { return m.run(code).reason != emu::StopReason::ProgramCheck; }

}  // namespace

TEST_CASE("vector integer element sizes past the range are specification exceptions", "[vector_integer]") {
  TestMachine m;
  CHECK(runs(m, vrr_c(0xF3, 1, 2, 3, 4)));                                  // VA quadword
  CHECK(check_of(m, vrr_c(0xF3, 1, 2, 3, 5)) == emu::Pic::Specification);  // VA ES 5
  CHECK(check_of(m, vrr_c(0xFF, 1, 2, 3, 4)) == emu::Pic::Specification);  // VMX: no quadword
  CHECK(check_of(m, vrr_c(0xA2, 1, 2, 3, 3)) == emu::Pic::Specification);  // VML: no doubleword
  CHECK(check_of(m, vrr_c(0x94, 1, 2, 3, 0)) == emu::Pic::Specification);  // VPK: no byte source
  CHECK(check_of(m, vrr_c(0x94, 1, 2, 3, 4)) == emu::Pic::Specification);  // VPK: no quadword source
  CHECK(check_of(m, vrr_a(0xD7, 1, 2, 3)) == emu::Pic::Specification);     // VUPH: no doubleword source
  CHECK(check_of(m, vrr_c(0x64, 1, 2, 3, 2)) == emu::Pic::Specification);  // VSUM: bytes, halfwords
  CHECK(check_of(m, vrr_c(0x67, 1, 2, 3, 1)) == emu::Pic::Specification);  // VSUMQ: words, doublewords
}

TEST_CASE("the quadword and doubleword-only forms check their M5", "[vector_integer]") {
  TestMachine m;
  m.cpu.vr[2] = {~0ull, ~0ull};
  m.cpu.vr[3] = {0, 0};
  m.cpu.vr[4] = {0, 1};
  REQUIRE(runs(m, vrr_d(0xB9, 1, 2, 3, 4, 4)));  // VACCC: all ones + 0 + carry in 1
  CHECK(m.cpu.vr[1].hi == 0);
  CHECK(m.cpu.vr[1].lo == 1);
  CHECK(check_of(m, vrr_d(0xBB, 1, 2, 3, 4, 3)) == emu::Pic::Specification);  // VAC ES 3
  CHECK(check_of(m, vrr_d(0xBD, 1, 2, 3, 4, 0)) == emu::Pic::Specification);  // VSBCBI ES 0
  CHECK(check_of(m, vrr_d(0xB8, 1, 2, 3, 4, 2)) == emu::Pic::Specification);  // VMSL ES 2
}

TEST_CASE("VSLD and VSRD take bit counts 0-7, VSLDB byte counts 0-15", "[vector_integer]") {
  TestMachine m;
  m.cpu.vr[2] = {0x8000000000000000ull, 1};
  m.cpu.vr[3] = {0xC000000000000000ull, 0};
  REQUIRE(runs(m, vri_d(0x86, 1, 2, 3, 2)));  // VSLD by 2
  CHECK(m.cpu.vr[1].hi == 0);
  CHECK(m.cpu.vr[1].lo == 7);
  CHECK(check_of(m, vri_d(0x86, 1, 2, 3, 8)) == emu::Pic::Specification);
  CHECK(check_of(m, vri_d(0x87, 1, 2, 3, 0x80)) == emu::Pic::Specification);
  CHECK(runs(m, vri_d(0x77, 1, 2, 3, 15)));  // VSLDB: bytes 0-15
  CHECK(check_of(m, vri_d(0x77, 1, 2, 3, 16)) == emu::Pic::Specification);
}

TEST_CASE("VPOPCT counts wider elements only with vector-enhancements 1", "[vector_integer]") {
  TestMachine z13;
  z13.cpu.set_arch(emu::Generation::Z13);
  z13.cpu.vr[2] = {0xFFFF000100030007ull, 0};
  CHECK(runs(z13, vrr_a(0x50, 1, 2, 0)));
  CHECK(z13.cpu.vr[1].hi == 0x0808000100020003ull);
  CHECK(check_of(z13, vrr_a(0x50, 1, 2, 1)) == emu::Pic::Specification);

  TestMachine z14;
  z14.cpu.set_arch(emu::Generation::Z14);
  z14.cpu.vr[2] = {0xFFFF000100030007ull, 0};
  REQUIRE(runs(z14, vrr_a(0x50, 1, 2, 1)));
  CHECK(z14.cpu.vr[1].hi == 0x0010000100020003ull);
  CHECK(check_of(z14, vrr_a(0x50, 1, 2, 4)) == emu::Pic::Specification);
}

TEST_CASE("the vector-enhancements integer instructions need their machine level", "[vector_integer]") {
  TestMachine z13;
  z13.cpu.set_arch(emu::Generation::Z13);
  CHECK(check_of(z13, vrr_c(0x6E, 1, 2, 3, 0)) == emu::Pic::Operation);        // VNN
  CHECK(check_of(z13, vrr_d(0xB8, 1, 2, 3, 4, 3)) == emu::Pic::Operation);     // VMSL
  CHECK(check_of(z13, vrr_c(0x85, 1, 2, 3, 0)) == emu::Pic::Operation);        // VBPERM
  TestMachine z14;
  z14.cpu.set_arch(emu::Generation::Z14);
  CHECK(runs(z14, vrr_c(0x6E, 1, 2, 3, 0)));
  CHECK(check_of(z14, vri_d(0x86, 1, 2, 3, 1)) == emu::Pic::Operation);        // VSLD
  TestMachine z15;
  CHECK(runs(z15, vri_d(0x86, 1, 2, 3, 1)));
}

TEST_CASE("the CS forms set the condition code, the others keep it", "[vector_integer]") {
  TestMachine m;
  m.cpu.vr[2] = {1, 2};
  m.cpu.vr[3] = {1, 3};
  m.cpu.cc = 2;
  REQUIRE(runs(m, vrr_b(0xF8, 1, 2, 3, 3)));  // VCEQG
  CHECK(m.cpu.cc == 2);
  CHECK(m.cpu.vr[1].hi == ~0ull);
  CHECK(m.cpu.vr[1].lo == 0);
  REQUIRE(runs(m, vrr_b(0xF8, 1, 2, 3, 3, 1)));  // VCEQGS: mixed
  CHECK(m.cpu.cc == 1);
  REQUIRE(runs(m, vrr_b(0xF8, 1, 2, 2, 3, 1)));  // all equal
  CHECK(m.cpu.cc == 0);
  REQUIRE(runs(m, vrr_b(0xF9, 1, 2, 2, 3, 1)));  // VCHLGS: none high
  CHECK(m.cpu.cc == 3);
}
