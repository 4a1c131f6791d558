// Packed/zoned decimal and the less common storage instructions, against results worked
// out by hand from the Principles of Operation, where QEMU 7.2 (the differential tests'
// reference) is wrong or lacks the instruction: UNPK and PKA when the leftmost source
// byte matters, CVB/CVD (not in QEMU 7.2), CSST's R3 with function code 0 and a 1-byte
// store.
#include <catch2/catch.hpp>

#include "harness.h"
#include "linux/linux_process.h"

using namespace test;

namespace {

constexpr uint64_t kData = TestMachine::kData;

void poke_bytes(TestMachine& m, uint64_t a, const Bytes& b) { m.space.write_bytes(a, b.data(), b.size()); }
Bytes peek_bytes(TestMachine& m, uint64_t a, size_t n) {
  Bytes b(n);
  m.space.read_bytes(a, b.data(), n);
  return b;
}
bool ok(const emu::RunResult& r) { return r.reason != emu::StopReason::ProgramCheck; }
// SS-b: lengths L1, L2 (as lengths, 1-16), operands at kData + d1 and kData + d2 (base 5).
Bytes SSb(uint8_t op, unsigned len1, unsigned len2, unsigned d1, unsigned d2) {
  return SS(op, uint8_t((len1 - 1) << 4 | (len2 - 1)), 5, d1, 5, d2);
}

}  // namespace

TEST_CASE("UNPK reads every source byte; PACK and MVO pad and keep the sign nibble", "[decimal]") {
  TestMachine m;
  m.cpu.gr[5] = kData;
  poke_bytes(m, kData + 0x100, {0x12, 0x34, 0x5C});
  REQUIRE(ok(m.run(SSb(0xF3, 5, 3, 0, 0x100))));  // UNPK 0(5),0x100(3)
  CHECK(peek_bytes(m, kData, 5) == Bytes{0xF1, 0xF2, 0xF3, 0xF4, 0xC5});
  REQUIRE(ok(m.run(SSb(0xF3, 8, 3, 0, 0x100))));
  CHECK(peek_bytes(m, kData, 8) == Bytes{0xF0, 0xF0, 0xF0, 0xF1, 0xF2, 0xF3, 0xF4, 0xC5});
  poke_bytes(m, kData + 0x200, {0xF1, 0xF2, 0xF3, 0xF4, 0xC5});
  REQUIRE(ok(m.run(SSb(0xF2, 3, 5, 0x20, 0x200))));  // PACK
  CHECK(peek_bytes(m, kData + 0x20, 3) == Bytes{0x12, 0x34, 0x5C});
  REQUIRE(ok(m.run(SSb(0xF2, 5, 2, 0x20, 0x200))));  // PACK into a longer field: zeros
  CHECK(peek_bytes(m, kData + 0x20, 5) == Bytes{0x00, 0x00, 0x00, 0x01, 0x2F});
  poke_bytes(m, kData + 0x40, {0x77, 0x88, 0x99, 0xAC});
  poke_bytes(m, kData + 0x300, {0x12, 0x34});
  REQUIRE(ok(m.run(SSb(0xF1, 4, 2, 0x40, 0x300))));  // MVO: the C of the last byte stays
  CHECK(peek_bytes(m, kData + 0x40, 4) == Bytes{0x00, 0x01, 0x23, 0x4C});
}

TEST_CASE("PKA packs every digit of a short operand; UNPKA sets the CC from the sign", "[decimal]") {
  TestMachine m;
  m.cpu.gr[5] = kData;
  poke_bytes(m, kData + 0x100, {'4', '5', '6', '7', '8'});
  REQUIRE(ok(m.run(SS(0xE9, 4, 5, 0, 5, 0x100))));  // PKA 0(5),0x100(5)
  Bytes expected(16, 0);
  expected[13] = 0x45, expected[14] = 0x67, expected[15] = 0x8C;
  CHECK(peek_bytes(m, kData, 16) == expected);
  CHECK(m.run(SS(0xE9, 32, 5, 0, 5, 0x100)).check.interrupt.code == emu::Pic::Specification);  // 33 bytes
  expected[15] = 0x8D;
  poke_bytes(m, kData, expected);
  REQUIRE(ok(m.run(SS(0xEA, 5, 5, 0x200, 5, 0))));  // UNPKA 0x200(6),0(5)
  CHECK(peek_bytes(m, kData + 0x200, 6) == Bytes{'0', '4', '5', '6', '7', '8'});
  CHECK(m.cpu.cc == 1);
}

TEST_CASE("CVD and CVB convert between binary and packed decimal", "[decimal]") {
  TestMachine m;
  m.cpu.gr[5] = kData;
  m.cpu.gr[1] = 123456789;
  REQUIRE(ok(m.run(RX(0x4E, 1, 0, 5, 0))));  // CVD 1,0(5)
  CHECK(peek_bytes(m, kData, 8) == Bytes{0x00, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78, 0x9C});
  m.cpu.gr[1] = 0xFFFFFFFF80000000ull;  // bits 32-63: INT32_MIN
  REQUIRE(ok(m.run(RXY(0xE326, 1, 0, 5, 8))));  // CVDY
  CHECK(peek_bytes(m, kData + 8, 8) == Bytes{0x00, 0x00, 0x02, 0x14, 0x74, 0x83, 0x64, 0x8D});
  m.cpu.gr[2] = 0xAAAAAAAA00000000ull;
  REQUIRE(ok(m.run(RX(0x4F, 2, 0, 5, 8))));  // CVB back
  CHECK(m.cpu.gr[2] == 0xAAAAAAAA80000000ull);
  poke_bytes(m, kData + 0x10, {0, 0, 0, 0, 0, 0x12, 0x34, 0x5B});  // sign B: minus
  REQUIRE(ok(m.run(RX(0x4F, 3, 0, 5, 0x10))));
  CHECK(int32_t(m.cpu.gr[3]) == -12345);
  // An invalid digit or sign: data exception, DXC 0, nothing stored.
  poke_bytes(m, kData + 0x18, {0, 0, 0, 0, 0, 0x1A, 0x34, 0x5C});
  m.cpu.gr[4] = 7;
  auto r = m.run(RX(0x4F, 4, 0, 5, 0x18));
  CHECK(r.check.interrupt.code == emu::Pic::Data);
  CHECK(r.check.interrupt.dxc == 0);
  CHECK(linux_user::linux_signal_for(r.check, false).info.signo == 4);  // SIGILL, as Linux for DXC 0
  CHECK(m.cpu.gr[4] == 7);
  poke_bytes(m, kData + 0x18, {0, 0, 0, 0, 0, 0x12, 0x34, 0x55});
  CHECK(m.run(RX(0x4F, 4, 0, 5, 0x18)).check.interrupt.code == emu::Pic::Data);
  // Too large for 32 bits: fixed-point divide, the low 32 bits stored.
  poke_bytes(m, kData + 0x20, {0x00, 0x00, 0x02, 0x14, 0x74, 0x83, 0x64, 0x8C});
  r = m.run(RX(0x4F, 4, 0, 5, 0x20));
  CHECK(r.check.interrupt.code == emu::Pic::FixedPointDivide);
  CHECK(uint32_t(m.cpu.gr[4]) == 0x80000000u);
  // CVDG / CVBG: 16 bytes, 31 digits.
  m.cpu.gr[6] = 0x8000000000000000ull;
  REQUIRE(ok(m.run(RXY(0xE32E, 6, 0, 5, 0x40))));
  // 12 zeros, the 19 digits of 9223372036854775808, sign D.
  CHECK(peek_bytes(m, kData + 0x40, 16) ==
        Bytes{0, 0, 0, 0, 0, 0, 0x92, 0x23, 0x37, 0x20, 0x36, 0x85, 0x47, 0x75, 0x80, 0x8D});
  REQUIRE(ok(m.run(RXY(0xE30E, 7, 0, 5, 0x40))));
  CHECK(m.cpu.gr[7] == 0x8000000000000000ull);
  poke_bytes(m, kData + 0x4F, {0x8C});  // +9223372036854775808: one too many
  m.cpu.gr[7] = 5;
  CHECK(m.run(RXY(0xE30E, 7, 0, 5, 0x40)).check.interrupt.code == emu::Pic::FixedPointDivide);
  CHECK(m.cpu.gr[7] == 5);  // suppressed
}

TEST_CASE("CSST: function code 0 uses bits 32-63 of R3; a 1-byte store", "[decimal][storage]") {
  TestMachine m;
  m.cpu.gr[5] = kData;
  m.poke<uint64_t>(kData, 0x1111222233334444ull);
  m.poke<uint64_t>(kData + 0x100, 0xAAAAAAAABBBBBBBBull);  // parameter list: replacement
  m.poke<uint64_t>(kData + 0x110, 0x0102030405060708ull);  // store value
  m.cpu.gr[1] = kData + 0x100;
  m.cpu.gr[0] = 0;  // fc 0, sc 0
  m.cpu.gr[3] = 0xDEADBEEF00000099ull;
  const Bytes csst = {0xC8, 0x32, 0x50, 0x00, 0x50, 0x20};  // CSST 0(5),0x20(5),3
  REQUIRE(ok(m.run(csst)));
  CHECK(m.cpu.cc == 1);
  CHECK(m.cpu.gr[3] == 0xDEADBEEF11112222ull);
  REQUIRE(ok(m.run(csst)));  // now equal
  CHECK(m.cpu.cc == 0);
  CHECK(m.peek<uint64_t>(kData) == 0xAAAAAAAA33334444ull);
  CHECK(m.peek<uint8_t>(kData + 0x20) == 0x01);
  CHECK(m.peek<uint8_t>(kData + 0x21) == 0x00);
  m.cpu.gr[0] = 3;  // no function code 3
  CHECK(m.run(csst).check.interrupt.code == emu::Pic::Specification);
}

TEST_CASE("CKSM adds words with end-around carry; TRE stops at the test byte", "[decimal][storage]") {
  TestMachine m;
  poke_bytes(m, kData, {0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x02, 0x80});
  m.cpu.gr[1] = 0x5555555500000000ull;
  m.cpu.gr[2] = kData, m.cpu.gr[3] = 9;
  REQUIRE(ok(m.run(RRE(0xB241, 1, 2))));
  // FFFFFFFF + 2 = 1_00000001 -> 00000002; + 80000000 (the short last word, padded).
  CHECK(m.cpu.gr[1] == 0x5555555580000002ull);
  CHECK(m.cpu.cc == 0);
  CHECK(m.cpu.gr[2] == kData + 9);
  CHECK(m.cpu.gr[3] == 0);
  for (unsigned k = 0; k < 256; ++k) m.poke<uint8_t>(kData + 0x100 + k, uint8_t(k + 1));
  poke_bytes(m, kData + 0x200, {1, 2, 3, 0xFF, 4});
  m.cpu.gr[0] = 0xFF;
  m.cpu.gr[4] = kData + 0x200, m.cpu.gr[5] = 5, m.cpu.gr[6] = kData + 0x100;
  REQUIRE(ok(m.run(RRE(0xB2A5, 4, 6))));
  CHECK(m.cpu.cc == 1);
  CHECK(m.cpu.gr[4] == kData + 0x203);
  CHECK(m.cpu.gr[5] == 2);
  CHECK(peek_bytes(m, kData + 0x200, 5) == Bytes{2, 3, 4, 0xFF, 4});
}
