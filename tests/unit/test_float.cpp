#include <catch2/catch.hpp>

#include "harness.h"

using namespace test;

namespace {

constexpr uint64_t kData = TestMachine::kData;
constexpr uint64_t kQNaN = 0x7FF8000000000001ull;  // quiet NaN with a payload
constexpr uint64_t kSNaN = 0x7FF0000000000001ull;  // signaling NaN
constexpr uint64_t kNegZero = 0x8000000000000000ull;

}  // namespace

TEST_CASE("LDGR and LGDR move bit patterns unchanged", "[float]") {
  TestMachine m;
  m.cpu.cc = 2;
  const uint64_t patterns[] = {kQNaN, kSNaN, kNegZero, ~0ull, 0x0123456789ABCDEFull};
  for (uint64_t v : patterns) {
    m.cpu.gr[3] = v;
    m.cpu.gr[4] = 0;
    m.run(RRE(0xB3C1, 5, 3) + RRE(0xB3CD, 4, 5));  // LDGR f5,r3 ; LGDR r4,f5
    CHECK(m.cpu.fpr[5] == v);
    CHECK(m.cpu.gr[4] == v);
  }
  CHECK(m.cpu.cc == 2);
}

TEST_CASE("LD/STD and LDY/STDY round-trip doublewords, unaligned too", "[float]") {
  TestMachine m;
  m.cpu.gr[2] = kData + 0x100;
  m.poke<uint64_t>(kData + 0x103, kSNaN);
  m.run(RX(0x68, 7, 0, 2, 3));  // LD f7,3(r2)
  CHECK(m.cpu.fpr[7] == kSNaN);
  m.run(RX(0x60, 7, 0, 2, 0x20));  // STD f7,0x20(r2)
  CHECK(m.peek<uint64_t>(kData + 0x120) == kSNaN);
  m.cpu.fpr[8] = kQNaN;
  m.run(RXY(0xED67, 8, 0, 2, -0x10));  // STDY f8,-16(r2)
  CHECK(m.peek<uint64_t>(kData + 0xF0) == kQNaN);
  m.run(RXY(0xED65, 9, 0, 2, -0x10));  // LDY f9,-16(r2)
  CHECK(m.cpu.fpr[9] == kQNaN);
  // Across a page boundary.
  m.cpu.fpr[1] = 0x1122334455667788ull;
  m.cpu.gr[2] = kData + 0xFFC;
  m.run(RX(0x60, 1, 0, 2, 0) + RX(0x68, 2, 0, 2, 0));
  CHECK(m.cpu.fpr[2] == 0x1122334455667788ull);
  CHECK(m.peek<uint32_t>(kData + 0x1000) == 0x55667788u);
}

TEST_CASE("short loads and stores use bits 0-31 and leave bits 32-63 alone", "[float]") {
  TestMachine m;
  m.cpu.gr[2] = kData;
  m.poke<uint32_t>(kData, 0x7FC00001);  // short quiet NaN with a payload
  m.poke<uint32_t>(kData + 4, 0xDEADBEEF);
  m.cpu.fpr[1] = 0x1111111122222222ull;
  m.run(RX(0x78, 1, 0, 2, 0));  // LE f1,0(r2)
  CHECK(m.cpu.fpr[1] == 0x7FC0000122222222ull);
  m.cpu.gr[3] = kData + 0x104;
  m.run(RXY(0xED64, 1, 0, 3, -0x100));  // LEY f1,-0x100(r3) = kData+4
  CHECK(m.cpu.fpr[1] == 0xDEADBEEF22222222ull);
  m.poke<uint64_t>(kData + 0x10, 0);
  m.run(RX(0x70, 1, 0, 2, 0x10));  // STE f1,0x10(r2): 4 bytes only
  CHECK(m.peek<uint64_t>(kData + 0x10) == 0xDEADBEEF00000000ull);
  m.run(RXY(0xED66, 1, 0, 2, 0x14));  // STEY
  CHECK(m.peek<uint64_t>(kData + 0x10) == 0xDEADBEEFDEADBEEFull);
}

TEST_CASE("register moves: LER keeps the low half, LDR copies all, LXR copies a pair", "[float]") {
  TestMachine m;
  m.cpu.fpr[2] = 0xAAAAAAAABBBBBBBBull;
  m.cpu.fpr[3] = 0xCCCCCCCCDDDDDDDDull;
  m.run(RR(0x38, 3, 2));  // LER f3,f2
  CHECK(m.cpu.fpr[3] == 0xAAAAAAAADDDDDDDDull);
  m.run(RR(0x28, 4, 2));  // LDR f4,f2
  CHECK(m.cpu.fpr[4] == 0xAAAAAAAABBBBBBBBull);
  m.cpu.fpr[0] = kQNaN, m.cpu.fpr[2] = kSNaN;
  m.cpu.fpr[13] = 1, m.cpu.fpr[15] = 2;
  m.run(RRE(0xB365, 13, 0));  // LXR f13,f0: f13 <- f0, f15 <- f2
  CHECK(m.cpu.fpr[13] == kQNaN);
  CHECK(m.cpu.fpr[15] == kSNaN);
  auto r = m.run(RRE(0xB365, 2, 0));  // f2 does not name a pair
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Specification);
  CHECK(m.run(RRE(0xB365, 1, 6)).check.interrupt.code == emu::Pic::Specification);
}

TEST_CASE("load zero: short, long and extended", "[float]") {
  TestMachine m;
  for (auto& f : m.cpu.fpr) f = 0x5555555566666666ull;
  m.run(RRE(0xB374, 3, 0));  // LZER f3
  CHECK(m.cpu.fpr[3] == 0x0000000066666666ull);
  m.run(RRE(0xB375, 4, 0));  // LZDR f4
  CHECK(m.cpu.fpr[4] == 0);
  m.run(RRE(0xB376, 9, 0));  // LZXR f9: f9 and f11
  CHECK(m.cpu.fpr[9] == 0);
  CHECK(m.cpu.fpr[11] == 0);
  CHECK(m.cpu.fpr[10] == 0x5555555566666666ull);
  CHECK(m.cpu.fpr[8] == 0x5555555566666666ull);
  auto r = m.run(RRE(0xB376, 14, 0));
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Specification);
  CHECK(m.cpu.fpr[14] == 0x5555555566666666ull);
}

TEST_CASE("sign operations change only bit 0 and leave the CC", "[float]") {
  TestMachine m;
  m.cpu.cc = 1;
  m.cpu.fpr[2] = kQNaN;
  m.run(RRE(0xB373, 1, 2));  // LCDFR
  CHECK(m.cpu.fpr[1] == 0xFFF8000000000001ull);
  m.run(RRE(0xB373, 1, 1));
  CHECK(m.cpu.fpr[1] == kQNaN);
  m.cpu.fpr[2] = 0xFFF0000000000001ull;  // negative signaling NaN
  m.run(RRE(0xB370, 3, 2));  // LPDFR
  CHECK(m.cpu.fpr[3] == kSNaN);
  m.run(RRE(0xB371, 4, 3));  // LNDFR
  CHECK(m.cpu.fpr[4] == 0xFFF0000000000001ull);
  m.cpu.fpr[5] = 0;
  m.run(RRE(0xB371, 5, 5));  // -0
  CHECK(m.cpu.fpr[5] == kNegZero);
  // CPSDR f6,f7,f8 (R3 = f7 gives the sign, R2 = f8 the rest).
  m.cpu.fpr[7] = 0x8000000000000000ull;
  m.cpu.fpr[8] = 0x3FF0000000000000ull;  // 1.0
  m.run(RRF(0xB372, 6, 8, 7));
  CHECK(m.cpu.fpr[6] == 0xBFF0000000000000ull);
  m.cpu.fpr[7] = 0x7FFFFFFFFFFFFFFFull;
  m.cpu.fpr[8] = 0xFFF8000000000001ull;
  m.run(RRF(0xB372, 6, 8, 7));
  CHECK(m.cpu.fpr[6] == kQNaN);
  CHECK(m.cpu.cc == 1);
}
