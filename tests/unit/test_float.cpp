#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "harness.h"
#include "linux/linux_process.h"

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
    CHECK(m.cpu.fpr(5) == v);
    CHECK(m.cpu.gr[4] == v);
  }
  CHECK(m.cpu.cc == 2);
}

TEST_CASE("LD/STD and LDY/STDY round-trip doublewords, unaligned too", "[float]") {
  TestMachine m;
  m.cpu.gr[2] = kData + 0x100;
  m.poke<uint64_t>(kData + 0x103, kSNaN);
  m.run(RX(0x68, 7, 0, 2, 3));  // LD f7,3(r2)
  CHECK(m.cpu.fpr(7) == kSNaN);
  m.run(RX(0x60, 7, 0, 2, 0x20));  // STD f7,0x20(r2)
  CHECK(m.peek<uint64_t>(kData + 0x120) == kSNaN);
  m.cpu.fpr(8) = kQNaN;
  m.run(RXY(0xED67, 8, 0, 2, -0x10));  // STDY f8,-16(r2)
  CHECK(m.peek<uint64_t>(kData + 0xF0) == kQNaN);
  m.run(RXY(0xED65, 9, 0, 2, -0x10));  // LDY f9,-16(r2)
  CHECK(m.cpu.fpr(9) == kQNaN);
  // Across a page boundary.
  m.cpu.fpr(1) = 0x1122334455667788ull;
  m.cpu.gr[2] = kData + 0xFFC;
  m.run(RX(0x60, 1, 0, 2, 0) + RX(0x68, 2, 0, 2, 0));
  CHECK(m.cpu.fpr(2) == 0x1122334455667788ull);
  CHECK(m.peek<uint32_t>(kData + 0x1000) == 0x55667788u);
}

TEST_CASE("short loads and stores use bits 0-31 and leave bits 32-63 alone", "[float]") {
  TestMachine m;
  m.cpu.gr[2] = kData;
  m.poke<uint32_t>(kData, 0x7FC00001);  // short quiet NaN with a payload
  m.poke<uint32_t>(kData + 4, 0xDEADBEEF);
  m.cpu.fpr(1) = 0x1111111122222222ull;
  m.run(RX(0x78, 1, 0, 2, 0));  // LE f1,0(r2)
  CHECK(m.cpu.fpr(1) == 0x7FC0000122222222ull);
  m.cpu.gr[3] = kData + 0x104;
  m.run(RXY(0xED64, 1, 0, 3, -0x100));  // LEY f1,-0x100(r3) = kData+4
  CHECK(m.cpu.fpr(1) == 0xDEADBEEF22222222ull);
  m.poke<uint64_t>(kData + 0x10, 0);
  m.run(RX(0x70, 1, 0, 2, 0x10));  // STE f1,0x10(r2): 4 bytes only
  CHECK(m.peek<uint64_t>(kData + 0x10) == 0xDEADBEEF00000000ull);
  m.run(RXY(0xED66, 1, 0, 2, 0x14));  // STEY
  CHECK(m.peek<uint64_t>(kData + 0x10) == 0xDEADBEEFDEADBEEFull);
}

TEST_CASE("register moves: LER keeps the low half, LDR copies all, LXR copies a pair", "[float]") {
  TestMachine m;
  m.cpu.fpr(2) = 0xAAAAAAAABBBBBBBBull;
  m.cpu.fpr(3) = 0xCCCCCCCCDDDDDDDDull;
  m.run(RR(0x38, 3, 2));  // LER f3,f2
  CHECK(m.cpu.fpr(3) == 0xAAAAAAAADDDDDDDDull);
  m.run(RR(0x28, 4, 2));  // LDR f4,f2
  CHECK(m.cpu.fpr(4) == 0xAAAAAAAABBBBBBBBull);
  m.cpu.fpr(0) = kQNaN, m.cpu.fpr(2) = kSNaN;
  m.cpu.fpr(13) = 1, m.cpu.fpr(15) = 2;
  m.run(RRE(0xB365, 13, 0));  // LXR f13,f0: f13 <- f0, f15 <- f2
  CHECK(m.cpu.fpr(13) == kQNaN);
  CHECK(m.cpu.fpr(15) == kSNaN);
  auto r = m.run(RRE(0xB365, 2, 0));  // f2 does not name a pair
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Specification);
  CHECK(m.run(RRE(0xB365, 1, 6)).check.interrupt.code == emu::Pic::Specification);
}

TEST_CASE("load zero: short, long and extended", "[float]") {
  TestMachine m;
  for (auto& v : m.cpu.vr) v.hi = 0x5555555566666666ull;
  m.run(RRE(0xB374, 3, 0));  // LZER f3
  CHECK(m.cpu.fpr(3) == 0x0000000066666666ull);
  m.run(RRE(0xB375, 4, 0));  // LZDR f4
  CHECK(m.cpu.fpr(4) == 0);
  m.run(RRE(0xB376, 9, 0));  // LZXR f9: f9 and f11
  CHECK(m.cpu.fpr(9) == 0);
  CHECK(m.cpu.fpr(11) == 0);
  CHECK(m.cpu.fpr(10) == 0x5555555566666666ull);
  CHECK(m.cpu.fpr(8) == 0x5555555566666666ull);
  auto r = m.run(RRE(0xB376, 14, 0));
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Specification);
  CHECK(m.cpu.fpr(14) == 0x5555555566666666ull);
}

TEST_CASE("sign operations change only bit 0 and leave the CC", "[float]") {
  TestMachine m;
  m.cpu.cc = 1;
  m.cpu.fpr(2) = kQNaN;
  m.run(RRE(0xB373, 1, 2));  // LCDFR
  CHECK(m.cpu.fpr(1) == 0xFFF8000000000001ull);
  m.run(RRE(0xB373, 1, 1));
  CHECK(m.cpu.fpr(1) == kQNaN);
  m.cpu.fpr(2) = 0xFFF0000000000001ull;  // negative signaling NaN
  m.run(RRE(0xB370, 3, 2));  // LPDFR
  CHECK(m.cpu.fpr(3) == kSNaN);
  m.run(RRE(0xB371, 4, 3));  // LNDFR
  CHECK(m.cpu.fpr(4) == 0xFFF0000000000001ull);
  m.cpu.fpr(5) = 0;
  m.run(RRE(0xB371, 5, 5));  // -0
  CHECK(m.cpu.fpr(5) == kNegZero);
  // CPSDR f6,f7,f8 (R3 = f7 gives the sign, R2 = f8 the rest).
  m.cpu.fpr(7) = 0x8000000000000000ull;
  m.cpu.fpr(8) = 0x3FF0000000000000ull;  // 1.0
  m.run(RRF(0xB372, 6, 8, 7));
  CHECK(m.cpu.fpr(6) == 0xBFF0000000000000ull);
  m.cpu.fpr(7) = 0x7FFFFFFFFFFFFFFFull;
  m.cpu.fpr(8) = 0xFFF8000000000001ull;
  m.run(RRF(0xB372, 6, 8, 7));
  CHECK(m.cpu.fpr(6) == kQNaN);
  CHECK(m.cpu.cc == 1);
}

// === binary floating point: what the differential tests cannot check, because QEMU
// 7.2 suppresses every IEEE trap (it stores no result) where the Principles of
// Operation complete overflow, underflow and inexact traps with a (scaled) result.
namespace {

uint64_t bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
double dbl(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
constexpr uint64_t kDblMax = 0x7FEFFFFFFFFFFFFFull, kDblMin = 0x0010000000000000ull;
constexpr uint64_t kOne = 0x3FF0000000000000ull, kThree = 0x4008000000000000ull;
constexpr uint32_t kMaskInvalid = 0x80000000u, kMaskDivide = 0x40000000u, kMaskOverflow = 0x20000000u,
                   kMaskUnderflow = 0x10000000u, kMaskInexact = 0x08000000u;
uint8_t dxc_of(const emu::Cpu& c) { return uint8_t(c.fpc >> 8); }
uint8_t flags_of(const emu::Cpu& c) { return uint8_t(c.fpc >> 16); }

}  // namespace

TEST_CASE("BFP: an enabled invalid or divide trap suppresses the operation", "[float][bfp]") {
  TestMachine m;
  m.cpu.fpc = kMaskInvalid | kMaskDivide;
  m.cpu.fpr(1) = 0, m.cpu.fpr(2) = 0, m.cpu.cc = 1;
  auto r = m.run(RRE(0xB31D, 1, 2));  // DDBR 0/0: invalid
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Data);
  CHECK(r.check.interrupt.dxc == 0x80);
  CHECK(linux_user::linux_signal_for(r.check, false).info.signo == 8);  // SIGFPE
  CHECK(dxc_of(m.cpu) == 0x80);
  CHECK(flags_of(m.cpu) == 0);
  CHECK(m.cpu.fpr(1) == 0);  // not stored
  m.cpu.fpr(1) = kOne;
  r = m.run(RRE(0xB31D, 1, 2));  // 1/0: divide by zero
  CHECK(r.check.interrupt.dxc == 0x40);
  CHECK(m.cpu.fpr(1) == kOne);
  m.cpu.fpr(3) = 0x7FF0000000000001ull;  // signaling NaN
  r = m.run(RRE(0xB31A, 1, 3));          // ADBR: invalid, CC unchanged
  CHECK(r.check.interrupt.dxc == 0x80);
  CHECK(m.cpu.cc == 1);
  CHECK(m.cpu.fpr(1) == kOne);
  // Masks off: flags, the default NaN (positive), the quieted NaN.
  m.cpu.fpc = 0;
  m.cpu.fpr(1) = 0;
  REQUIRE(m.run(RRE(0xB31D, 1, 2)).reason != emu::StopReason::ProgramCheck);
  CHECK(m.cpu.fpr(1) == 0x7FF8000000000000ull);
  CHECK(flags_of(m.cpu) == 0x80);
  m.cpu.fpr(1) = kOne;
  m.run(RRE(0xB31A, 1, 3));
  CHECK(m.cpu.fpr(1) == 0x7FF8000000000001ull);
  CHECK(m.cpu.cc == 3);
}

TEST_CASE("BFP: an enabled overflow trap completes with the result scaled by 2^-1536", "[float][bfp]") {
  TestMachine m;
  m.cpu.fpc = kMaskOverflow;
  m.cpu.fpr(1) = kDblMax, m.cpu.fpr(2) = 0x4000000000000000ull;  // max * 2: exact when scaled
  auto r = m.run(RRE(0xB31C, 1, 2));                              // MDBR
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.dxc == 0x20);
  CHECK(m.cpu.fpr(1) == bits(std::ldexp(dbl(kDblMax), 1 - 1536)));
  CHECK(m.cpu.psw_addr == TestMachine::kCode + 4);  // completed: the PSW points past it
  CHECK(flags_of(m.cpu) == 0);
  // max + 1.5 * 2^1023 = (1.75 - 2^-53) * 2^1024, a tie: to nearest even goes up to 1.75.
  constexpr uint64_t kOneAndHalfTop = 0x7FE8000000000000ull;
  m.cpu.fpr(1) = kDblMax, m.cpu.fpr(2) = kOneAndHalfTop;
  r = m.run(RRE(0xB31A, 1, 2));  // ADBR
  CHECK(r.check.interrupt.dxc == 0x2C);
  CHECK(m.cpu.fpr(1) == bits(std::ldexp(0x1.c000000000000p0, 1024 - 1536)));
  CHECK(m.cpu.cc == 2);
  // Round toward zero: truncated, not incremented.
  m.cpu.fpc = kMaskOverflow | 1;
  m.cpu.fpr(1) = kDblMax, m.cpu.fpr(2) = kOneAndHalfTop;
  r = m.run(RRE(0xB31A, 1, 2));
  CHECK(r.check.interrupt.dxc == 0x28);
  CHECK(m.cpu.fpr(1) == bits(std::ldexp(0x1.bffffffffffffp0, 1024 - 1536)));
}

TEST_CASE("BFP: underflow flags need inexact; an enabled trap scales by 2^1536, exact or not", "[float][bfp]") {
  TestMachine m;
  m.cpu.fpr(1) = kDblMin, m.cpu.fpr(2) = 0x4000000000000000ull;  // min / 2: tiny but exact
  m.run(RRE(0xB31D, 1, 2));
  CHECK(m.cpu.fpr(1) == 0x0008000000000000ull);
  CHECK(flags_of(m.cpu) == 0);  // exact: no underflow
  m.cpu.fpr(1) = kDblMin, m.cpu.fpr(2) = kThree;
  m.run(RRE(0xB31D, 1, 2));
  CHECK(flags_of(m.cpu) == 0x18);  // min / 3: underflow and inexact
  m.cpu.fpc = kMaskUnderflow;
  m.cpu.fpr(1) = kDblMin, m.cpu.fpr(2) = 0x4000000000000000ull;
  auto r = m.run(RRE(0xB31D, 1, 2));
  CHECK(r.check.interrupt.dxc == 0x10);
  CHECK(m.cpu.fpr(1) == bits(std::ldexp(dbl(kDblMin) / 2, 1536)));
  m.cpu.fpr(1) = kDblMin, m.cpu.fpr(2) = kThree;
  r = m.run(RRE(0xB31D, 1, 2));
  CHECK((r.check.interrupt.dxc & 0xF8) == 0x18);
  CHECK(m.cpu.fpr(1) == bits(std::ldexp(1.0 / 3.0, -1022 + 1536)));
}

TEST_CASE("BFP: an enabled inexact trap delivers the rounded result and tells incremented", "[float][bfp]") {
  TestMachine m;
  m.cpu.fpc = kMaskInexact;
  m.cpu.fpr(1) = kOne, m.cpu.fpr(2) = kThree;
  auto r = m.run(RRE(0xB31D, 1, 2));  // 1/3 rounds down to nearest
  CHECK(r.check.interrupt.dxc == 0x08);
  CHECK(m.cpu.fpr(1) == bits(1.0 / 3.0));
  m.cpu.fpr(1) = kOne, m.cpu.fpr(2) = 0x4024000000000000ull;  // 1/10 rounds up
  r = m.run(RRE(0xB31D, 1, 2));
  CHECK(r.check.interrupt.dxc == 0x0C);
  CHECK(m.cpu.fpr(1) == bits(0.1));
  CHECK(flags_of(m.cpu) == 0);
  // CGDBR of 2.5 (mode 4: to nearest even, 2): truncated; FIDBR M4=4 suppresses inexact.
  m.cpu.fpr(3) = bits(2.5);
  r = m.run(RRF(0xB3A9, 5, 3, 4));
  CHECK(r.check.interrupt.dxc == 0x08);
  CHECK(m.cpu.gr[5] == 2);
  CHECK(m.cpu.cc == 2);
  CHECK(m.run(RRF(0xB35F, 6, 3, 4, 4)).reason != emu::StopReason::ProgramCheck);
  CHECK(m.cpu.fpr(6) == bits(2.0));
}

TEST_CASE("BFP: the FPC rejects reserved bits and modes 4-6; SRNM and SRNMB set the mode", "[float][bfp]") {
  TestMachine m;
  m.cpu.gr[1] = 0x00000004;  // rounding mode 4 does not exist
  CHECK(m.run(RRE(0xB384, 1, 0)).check.interrupt.code == emu::Pic::Specification);
  m.cpu.gr[1] = 0x01000000;  // a reserved mask bit
  CHECK(m.run(RRE(0xB384, 1, 0)).check.interrupt.code == emu::Pic::Specification);
  m.cpu.gr[1] = 0xF8F8FF07;
  REQUIRE(m.run(RRE(0xB384, 1, 0)).reason != emu::StopReason::ProgramCheck);
  CHECK(m.cpu.fpc == 0xF8F8FF07u);
  REQUIRE(m.run(S(0xB299, 0, 0x3)).reason != emu::StopReason::ProgramCheck);  // SRNM 3 clears bit 29
  CHECK(m.cpu.fpc == 0xF8F8FF03u);
  CHECK(m.run(S(0xB2B8, 0, 0x5)).check.interrupt.code == emu::Pic::Specification);  // SRNMB 5
  REQUIRE(m.run(S(0xB2B8, 0, 0x7)).reason != emu::StopReason::ProgramCheck);
  CHECK(m.cpu.fpc == 0xF8F8FF07u);
  m.cpu.gr[2] = 0xDEADBEEF00000000ull;
  m.run(RRE(0xB38C, 2, 0));  // EFPC keeps bits 0-31 of the register
  CHECK(m.cpu.gr[2] == 0xDEADBEEFF8F8FF07ull);
}

TEST_CASE("BFP: SFASR keeps the flags and signals one whose new mask is on", "[float][bfp]") {
  TestMachine m;
  m.cpu.fpc = 0x00280000u;  // overflow and inexact flags
  m.cpu.gr[1] = 0x20000002u;  // overflow mask, round up
  auto r = m.run(RRE(0xB385, 1, 0));
  CHECK(r.check.interrupt.code == emu::Pic::Data);
  CHECK(r.check.interrupt.dxc == 0x23);  // overflow, simulated (the inexact mask is off)
  CHECK(m.cpu.fpc == 0x20282302u);
  m.cpu.fpc = 0x00280000u;
  m.cpu.gr[1] = 0x28000002u;  // overflow and inexact masks
  CHECK(m.run(RRE(0xB385, 1, 0)).check.interrupt.dxc == 0x2B);
  m.cpu.fpc = 0x00C00000u;  // invalid and divide flags
  m.cpu.gr[1] = 0xC0000000u;
  CHECK(m.run(RRE(0xB385, 1, 0)).check.interrupt.dxc == 0x83);
}

TEST_CASE("BFP: a data exception's dump shows the DXC and the FPC", "[float][bfp]") {
  TestMachine m;
  m.cpu.fpc = kMaskDivide;
  m.cpu.fpr(1) = kOne, m.cpu.fpr(2) = 0;
  auto r = m.run(RRE(0xB31D, 1, 2));
  const std::string dump = emu::format_program_check(m.cpu, r.check, nullptr, "t");
  CHECK(dump.find("DXC 40   FPC 40004000") != std::string::npos);
}

TEST_CASE("BFP: what QEMU 7.2 does otherwise: MDEBR, NaNs in multiply-and-add and to fixed", "[float][bfp]") {
  TestMachine m;
  // MDEBR: short times short, exact, into a long result (QEMU 7.2 reads op 1 as long).
  m.cpu.fpr(1) = 0xBF800000DEADBEEFull;  // -1.0f, the low half is not part of it
  m.cpu.fpr(2) = 0x3EAAAAAB00000000ull;  // 0.33333334f
  m.run(RRE(0xB30C, 1, 2));
  CHECK(m.cpu.fpr(1) == bits(-double(0x1.555556p-2f)));
  // MADBR r1,r3,r2: a signaling NaN first, then operands 3, 2, 1.
  constexpr uint64_t kQ2 = 0x7FF8000000000002ull, kQ3 = 0x7FF8000000000003ull, kS1 = 0x7FF0000000000001ull;
  auto madbr = [&](uint64_t op1, uint64_t op2, uint64_t op3) {
    m.cpu.fpr(1) = op1, m.cpu.fpr(2) = op2, m.cpu.fpr(3) = op3;
    m.run({0xB3, 0x1E, 0x10, 0x32});  // RRD: R1 at bits 16-19, R3 and R2 in the last byte
    return m.cpu.fpr(1);
  };
  CHECK(madbr(kOne, kQ2, kQ3) == kQ3);
  CHECK(madbr(kS1, kQ2, kQ3) == (kS1 | 1ull << 51));
  CHECK(madbr(kQ2, kOne, kThree) == kQ2);
  CHECK(madbr(kQ2, 0, 0x7FF0000000000000ull) == 0x7FF8000000000000ull);  // inf * 0: default NaN
  // CGDBR of a NaN: invalid and inexact, the most negative result, CC 3.
  m.cpu.fpc = 0;
  m.cpu.fpr(4) = kQ2;
  m.run(RRF(0xB3A9, 5, 4, 0));
  CHECK(m.cpu.gr[5] == 0x8000000000000000ull);
  CHECK(m.cpu.cc == 3);
  CHECK(flags_of(m.cpu) == 0x88);
}

TEST_CASE("BFP: LOAD AND TEST of a signaling NaN is invalid and yields it quiet", "[float][bfp]") {
  TestMachine m;
  m.cpu.fpr(2) = 0x7FF0000000000001ull;
  m.run(RRE(0xB312, 1, 2));  // LTDBR
  CHECK(m.cpu.fpr(1) == 0x7FF8000000000001ull);
  CHECK(m.cpu.cc == 3);
  CHECK(flags_of(m.cpu) == 0x80);
  m.cpu.fpc = kMaskInvalid;
  m.cpu.fpr(1) = 0;
  CHECK(m.run(RRE(0xB312, 1, 2)).check.interrupt.dxc == 0x80);
  CHECK(m.cpu.fpr(1) == 0);  // suppressed
}

TEST_CASE("BFP extended: MXDBR multiplies two longs exactly into a pair; pairs are checked", "[float][bfp]") {
  TestMachine m;
  m.cpu.fpr(4) = bits(1.0 / 3.0), m.cpu.fpr(6) = 0x1234;  // the low half of the pair is not an operand
  m.cpu.fpr(1) = bits(3.0);
  REQUIRE(m.run(RRE(0xB307, 4, 1)).reason != emu::StopReason::ProgramCheck);
  // 0x1.5555555555555p-2 * 3 = 0x1.fffffffffffffp-1 exactly: 1 - 2^-54 in extended.
  CHECK(m.cpu.fpr(4) == 0x3FFEFFFFFFFFFFFFull);
  CHECK(m.cpu.fpr(6) == 0xF800000000000000ull);  // 53 one bits of fraction: 48 + 5
  CHECK(m.run(RRE(0xB307, 2, 1)).check.interrupt.code == emu::Pic::Specification);  // 2 is no pair
  CHECK(m.run(RRE(0xB34A, 0, 3)).check.interrupt.code == emu::Pic::Specification);  // AXBR 0,3
  m.cpu.fpr(8) = 0x7FFF000000000000ull, m.cpu.fpr(10) = 1;  // signaling NaN
  m.run(RRE(0xB342, 12, 8));                                // LTXBR
  CHECK(m.cpu.fpr(12) == 0x7FFF800000000000ull);
  CHECK(m.cpu.fpr(14) == 1);
  CHECK(m.cpu.cc == 3);
}

TEST_CASE("BFP extended: SQXBR is correctly rounded in every mode", "[float][bfp]") {
  TestMachine m;
  // sqrt(2) is irrational: each mode's result must lie on its side of the root, and the
  // root between the result and its neighbour (checked with the host's extended squares).
  for (unsigned mode : {0u, 1u, 2u, 3u}) {
    m.cpu.fpc = mode;
    m.cpu.fpr(0) = 0x4000000000000000ull, m.cpu.fpr(2) = 0;  // 2.0
    m.run(RRE(0xB316, 4, 0));
    __float128 r;
    unsigned __int128 b = (unsigned __int128)m.cpu.fpr(4) << 64 | m.cpu.fpr(6);
    std::memcpy(&r, &b, 16);
    const unsigned __int128 up = b + 1;
    __float128 next;
    std::memcpy(&next, &up, 16);
    INFO("mode " << mode);
    // r^2 < 2 < next^2 (the root lies between r and its successor), or the other way.
    const bool below = r * r < 2;
    CHECK((below ? next * next > 2 : true));
    if (mode == 1 || mode == 3) CHECK(below);   // toward zero and down: not above the root
    if (mode == 2) CHECK(!below);               // up: not below it
    CHECK((m.cpu.fpc >> 16 & 0x08) == 0x08);    // inexact
  }
}
