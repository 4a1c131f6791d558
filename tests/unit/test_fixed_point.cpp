// Fixed-point arithmetic: results and condition codes on edge values, as the
// Principles of Operation defines them.
#include <catch2/catch.hpp>

#include "harness.h"

using namespace test;
using emu::Pic;

namespace {

constexpr uint64_t kD = TestMachine::kData;
// RIL halfword offset from an instruction at kCode to `a` (relative-long operands).
constexpr int64_t rel(uint64_t a) { return int64_t(a - TestMachine::kCode) / 2; }



}  // namespace

// --- add ------------------------------------------------------------------------------

TEST_CASE("AR: CC by sign, CC 3 on overflow both ways, high half untouched", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[1] = 0xAAAAAAAA7FFFFFFFull, m.cpu.gr[2] = 0x5555555500000001ull;
  EXEC(m, RR(0x1A, 1, 2));
  CHECK(m.cpu.gr[1] == 0xAAAAAAAA80000000ull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[2] = 0xFFFFFFFF;  // -1: 0x80000000 - 1 overflows downwards
  EXEC(m, RR(0x1A, 1, 2));
  CHECK(m.cpu.gr[1] == 0xAAAAAAAA7FFFFFFFull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[1] = 5, m.cpu.gr[2] = uint32_t(-5);
  EXEC(m, RR(0x1A, 1, 2));
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[1] = 1, m.cpu.gr[2] = uint32_t(-3);
  EXEC(m, RR(0x1A, 1, 2));
  CHECK(m.cpu.gr[1] == 0xFFFFFFFEull);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[1] = 0xFFFFFFFF, m.cpu.gr[2] = 3;  // -1 + 3: positive, no overflow
  EXEC(m, RR(0x1A, 1, 2));
  CHECK(m.cpu.gr[1] == 2);
  CHECK(m.cpu.cc == 2);
}

TEST_CASE("64-bit and mixed-width adds", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[1] = 0x7FFFFFFFFFFFFFFFull, m.cpu.gr[2] = 1;
  EXEC(m, RRE(0xB908, 1, 2));  // AGR
  CHECK(m.cpu.gr[1] == 0x8000000000000000ull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[2] = 0xFFFFFFFFFFFFFFFFull;
  EXEC(m, RRE(0xB908, 1, 2));  // INT64_MIN + -1
  CHECK(m.cpu.gr[1] == 0x7FFFFFFFFFFFFFFFull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[1] = 10, m.cpu.gr[2] = 0x12345678FFFFFFF0ull;  // AGFR: only the low half, sign-extended (-16)
  EXEC(m, RRE(0xB918, 1, 2));
  CHECK(m.cpu.gr[1] == 0xFFFFFFFFFFFFFFFAull);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[1] = 0x7FFFFFFF, m.cpu.gr[2] = 1;  // 32-bit overflow is no 64-bit overflow
  EXEC(m, RRE(0xB918, 1, 2));
  CHECK(m.cpu.gr[1] == 0x80000000ull);
  CHECK(m.cpu.cc == 2);
}

TEST_CASE("adds from storage: A AY AG AGF AH AHY", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[5] = kD;
  m.poke<uint32_t>(kD, 0x80000000);
  m.poke<uint64_t>(kD + 8, 0xFFFFFFFFFFFFFFFFull);
  m.poke<uint16_t>(kD + 16, 0x8000);
  m.cpu.gr[1] = 0x11111111FFFFFFFFull;  // -1 + INT32_MIN
  EXEC(m, RX(0x5A, 1, 0, 5, 0));  // A
  CHECK(m.cpu.gr[1] == 0x111111117FFFFFFFull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[1] = 0x80000000, m.cpu.gr[4] = 0x10;
  EXEC(m, RXY(0xE35A, 1, 4, 5, -0x10));  // AY with index and negative displacement: 2 * INT32_MIN
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[1] = 1;
  EXEC(m, RXY(0xE308, 1, 0, 5, 8));  // AG: 1 + -1
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[1] = 0x100000000ull;
  EXEC(m, RXY(0xE318, 1, 0, 5, 0));  // AGF: the word sign-extended
  CHECK(m.cpu.gr[1] == 0x80000000ull);
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[1] = 0xABCD000000000000ull | 0x8000;
  EXEC(m, RX(0x4A, 1, 0, 5, 16));  // AH: 0x8000 + (-0x8000)
  CHECK(m.cpu.gr[1] == 0xABCD000000000000ull);
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[1] = 0;
  EXEC(m, RXY(0xE37A, 1, 0, 5, 16));  // AHY
  CHECK(m.cpu.gr[1] == 0xFFFF8000ull);
  CHECK(m.cpu.cc == 1);
}

TEST_CASE("add immediate: AHI AGHI AFI AGFI", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[1] = 0x999999997FFFFFFFull;
  EXEC(m, RI(0xA7A, 1, 1));  // AHI
  CHECK(m.cpu.gr[1] == 0x9999999980000000ull);
  CHECK(m.cpu.cc == 3);
  EXEC(m, RI(0xA7A, 1, -1));
  CHECK(m.cpu.gr[1] == 0x999999997FFFFFFFull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[1] = 0;
  EXEC(m, RI(0xA7B, 1, -1));  // AGHI
  CHECK(m.cpu.gr[1] == 0xFFFFFFFFFFFFFFFFull);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[1] = 1;
  EXEC(m, RIL(0xC29, 1, 0x7FFFFFFF));  // AFI
  CHECK(m.cpu.gr[1] == 0x80000000ull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[1] = 0x80000000ull;
  EXEC(m, RIL(0xC28, 1, -0x80000000LL));  // AGFI: the immediate is sign-extended to 64 bits
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[1] = 0x7FFFFFFFFFFFFFFFull;
  EXEC(m, RIL(0xC28, 1, 1));
  CHECK(m.cpu.cc == 3);
}

TEST_CASE("distinct-operands adds: ARK AGRK AHIK AGHIK", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[1] = 0xCCCCCCCCCCCCCCCCull, m.cpu.gr[2] = 0x1111111100000007ull, m.cpu.gr[3] = 0x22222222FFFFFFF0ull;
  EXEC(m, RRF(0xB9F8, 1, 2, 3));  // ARK r1,r2,r3: 7 + -16
  CHECK(m.cpu.gr[1] == 0xCCCCCCCCFFFFFFF7ull);
  CHECK(m.cpu.cc == 1);
  CHECK(m.cpu.gr[2] == 0x1111111100000007ull);
  CHECK(m.cpu.gr[3] == 0x22222222FFFFFFF0ull);
  m.cpu.gr[2] = 0x8000000000000000ull, m.cpu.gr[3] = 0x8000000000000000ull;
  EXEC(m, RRF(0xB9E8, 1, 2, 3));  // AGRK
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[3] = 0x7FFFFFF0;
  EXEC(m, RIE(0xECD8, 1, 3, 0x10, 0));  // AHIK r1,r3,16
  CHECK(m.cpu.gr[1] == 0x80000000ull);  // high half of r1 (0) untouched
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[3] = 5;
  EXEC(m, RIE(0xECD9, 1, 3, -5, 0));  // AGHIK
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 0);
  EXEC(m, RIE(0xECD9, 1, 3, -6, 0));
  CHECK(m.cpu.gr[1] == 0xFFFFFFFFFFFFFFFFull);
  CHECK(m.cpu.cc == 1);
}

TEST_CASE("add immediate to storage: ASI AGSI", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[6] = kD;
  m.poke<uint32_t>(kD, 0x7FFFFFFF);
  EXEC(m, SIY(0xEB6A, 1, 6, 0));  // ASI 0(r6),1
  CHECK(m.peek<uint32_t>(kD) == 0x80000000u);
  CHECK(m.cpu.cc == 3);
  EXEC(m, SIY(0xEB6A, uint8_t(-128), 6, 0));
  CHECK(m.peek<uint32_t>(kD) == 0x7FFFFF80u);
  CHECK(m.cpu.cc == 3);
  m.poke<uint32_t>(kD, 3);
  EXEC(m, SIY(0xEB6A, uint8_t(-3), 6, 0));
  CHECK(m.peek<uint32_t>(kD) == 0);
  CHECK(m.cpu.cc == 0);
  m.poke<uint64_t>(kD + 8, 0xFFFFFFFFFFFFFFFEull);
  EXEC(m, SIY(0xEB7A, 5, 6, 8));  // AGSI: -2 + 5
  CHECK(m.peek<uint64_t>(kD + 8) == 3);
  CHECK(m.cpu.cc == 2);
  m.poke<uint64_t>(kD + 8, 0x8000000000000000ull);
  EXEC(m, SIY(0xEB7A, uint8_t(-1), 6, 8));
  CHECK(m.peek<uint64_t>(kD + 8) == 0x7FFFFFFFFFFFFFFFull);
  CHECK(m.cpu.cc == 3);
  CHECK(m.peek<uint32_t>(kD) == 0);  // neighbour untouched
}

TEST_CASE("a storage-immediate add to a read-only page changes nothing", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[6] = TestMachine::kCode + 0x800;
  m.cpu.cc = 1;
  CHECK(check_of(m, SIY(0xEB6A, 1, 6, 0)) == Pic::Protection);  // ASI
  CHECK(check_of(m, SIY(0xEB6E, 1, 6, 0)) == Pic::Protection);  // ALSI
  CHECK(m.peek<uint32_t>(TestMachine::kCode + 0x800) == 0);
  CHECK(m.cpu.cc == 1);
}

TEST_CASE("an enabled fixed-point overflow interrupts after the result is stored", "[fixed_point]") {
  TestMachine m;
  m.cpu.prog_mask = 0x8;
  m.cpu.gr[1] = 0x7FFFFFFF, m.cpu.gr[2] = 1;
  CHECK(check_of(m, RR(0x1A, 1, 2)) == Pic::FixedPointOverflow);  // AR
  CHECK(m.cpu.gr[1] == 0x80000000ull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[3] = 0x8000000000000000ull;
  CHECK(check_of(m, RRE(0xB903, 4, 3)) == Pic::FixedPointOverflow);  // LCGR
  CHECK(m.cpu.gr[4] == 0x8000000000000000ull);
  m.cpu.gr[6] = kD;
  m.poke<uint32_t>(kD, 0x80000000);
  CHECK(check_of(m, SIY(0xEB6A, uint8_t(-1), 6, 0)) == Pic::FixedPointOverflow);  // ASI
  CHECK(m.peek<uint32_t>(kD) == 0x7FFFFFFFu);
  m.cpu.gr[1] = 1;
  EXEC(m, RR(0x1A, 1, 2));  // no overflow: no interruption
  CHECK(m.cpu.gr[1] == 2);
  m.cpu.prog_mask = 0;
  m.cpu.gr[1] = 0x7FFFFFFF;
  EXEC(m, RR(0x1A, 1, 2));  // masked off: CC 3 only
  CHECK(m.cpu.cc == 3);
}

// --- add logical ------------------------------------------------------------------------

TEST_CASE("ALR: all four CCs of add logical", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[1] = 0xDDDDDDDD00000000ull, m.cpu.gr[2] = 0;
  EXEC(m, RR(0x1E, 1, 2));
  CHECK(m.cpu.cc == 0);  // zero, no carry
  m.cpu.gr[2] = 0xEEEEEEEE00000001ull;
  EXEC(m, RR(0x1E, 1, 2));
  CHECK(m.cpu.gr[1] == 0xDDDDDDDD00000001ull);
  CHECK(m.cpu.cc == 1);  // not zero, no carry
  m.cpu.gr[1] = 0xDDDDDDDDFFFFFFFFull;
  EXEC(m, RR(0x1E, 1, 2));
  CHECK(m.cpu.gr[1] == 0xDDDDDDDD00000000ull);  // the carry does not reach the high half
  CHECK(m.cpu.cc == 2);  // zero, carry
  m.cpu.gr[1] = 0xFFFFFFFF, m.cpu.gr[2] = 0x80000001;
  EXEC(m, RR(0x1E, 1, 2));
  CHECK(m.cpu.gr[1] == 0x80000000ull);
  CHECK(m.cpu.cc == 3);  // not zero, carry
}

TEST_CASE("64-bit add logical: ALGR ALGFR ALG ALGF AL ALY", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[1] = 0xFFFFFFFFFFFFFFFFull, m.cpu.gr[2] = 1;
  EXEC(m, RRE(0xB90A, 1, 2));  // ALGR
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[1] = 1, m.cpu.gr[2] = 0xFFFFFFFFFFFFFFFFull;
  EXEC(m, RRE(0xB91A, 1, 2));  // ALGFR: zero-extended low half
  CHECK(m.cpu.gr[1] == 0x100000000ull);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[5] = kD;
  m.poke<uint64_t>(kD, 0x8000000000000000ull);
  m.poke<uint32_t>(kD + 8, 0xFFFFFFFF);
  m.cpu.gr[1] = 0x8000000000000001ull;
  EXEC(m, RXY(0xE30A, 1, 0, 5, 0));  // ALG
  CHECK(m.cpu.gr[1] == 1);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[1] = 0xFFFFFFFF00000001ull;
  EXEC(m, RXY(0xE31A, 1, 0, 5, 8));  // ALGF
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[1] = 0x1234567800000002ull;
  EXEC(m, RX(0x5E, 1, 0, 5, 8));  // AL
  CHECK(m.cpu.gr[1] == 0x1234567800000001ull);
  CHECK(m.cpu.cc == 3);
  EXEC(m, RXY(0xE35E, 1, 0, 5, 8));  // ALY
  CHECK(m.cpu.gr[1] == 0x1234567800000000ull);
  CHECK(m.cpu.cc == 2);
}

TEST_CASE("add logical immediates: ALFI ALGFI ALRK ALGRK", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[1] = 0x4444444400000001ull;
  EXEC(m, RIL(0xC2B, 1, 0xFFFFFFFF));  // ALFI: the immediate is unsigned
  CHECK(m.cpu.gr[1] == 0x4444444400000000ull);
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[1] = 1;
  EXEC(m, RIL(0xC2A, 1, 0xFFFFFFFF));  // ALGFI: zero-extended, no carry
  CHECK(m.cpu.gr[1] == 0x100000000ull);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[1] = 0x7777777777777777ull, m.cpu.gr[2] = 0xFFFFFFF0, m.cpu.gr[3] = 0x20;
  EXEC(m, RRF(0xB9FA, 1, 2, 3));  // ALRK
  CHECK(m.cpu.gr[1] == 0x7777777700000010ull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[2] = 0xFFFFFFFFFFFFFFF0ull;
  EXEC(m, RRF(0xB9EA, 1, 2, 3));  // ALGRK
  CHECK(m.cpu.gr[1] == 0x10);
  CHECK(m.cpu.cc == 3);
  CHECK(m.cpu.gr[2] == 0xFFFFFFFFFFFFFFF0ull);
}

TEST_CASE("add logical with signed immediate: a negative immediate gives carry unless it borrows",
          "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[3] = 5;
  EXEC(m, RIE(0xECDA, 1, 3, -5, 0));  // ALHSIK: 5 + 0xFFFFFFFB = 0, carry
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[3] = 0;
  EXEC(m, RIE(0xECDA, 1, 3, -1, 0));  // 0 - 1: wraps, no carry
  CHECK(m.cpu.gr[1] == 0xFFFFFFFFull);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[3] = 3;
  EXEC(m, RIE(0xECDA, 1, 3, -1, 0));
  CHECK(m.cpu.gr[1] == 2);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[3] = 0xFFFFFFFF;
  EXEC(m, RIE(0xECDA, 1, 3, 1, 0));
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[3] = 0;
  EXEC(m, RIE(0xECDA, 1, 3, 0, 0));
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[3] = 0x100000000ull;
  EXEC(m, RIE(0xECDB, 1, 3, -1, 0));  // ALGHSIK
  CHECK(m.cpu.gr[1] == 0xFFFFFFFFull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[3] = 0;
  EXEC(m, RIE(0xECDB, 1, 3, -0x8000, 0));
  CHECK(m.cpu.gr[1] == 0xFFFFFFFFFFFF8000ull);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[6] = kD;
  m.poke<uint32_t>(kD, 1);
  EXEC(m, SIY(0xEB6E, uint8_t(-1), 6, 0));  // ALSI
  CHECK(m.peek<uint32_t>(kD) == 0);
  CHECK(m.cpu.cc == 2);
  EXEC(m, SIY(0xEB6E, uint8_t(-1), 6, 0));
  CHECK(m.peek<uint32_t>(kD) == 0xFFFFFFFFu);
  CHECK(m.cpu.cc == 1);
  EXEC(m, SIY(0xEB6E, 127, 6, 0));
  CHECK(m.peek<uint32_t>(kD) == 126);
  CHECK(m.cpu.cc == 3);
  m.poke<uint64_t>(kD + 8, 0xFFFFFFFFFFFFFFFFull);
  EXEC(m, SIY(0xEB7E, 1, 6, 8));  // ALGSI
  CHECK(m.peek<uint64_t>(kD + 8) == 0);
  CHECK(m.cpu.cc == 2);
  EXEC(m, SIY(0xEB7E, uint8_t(-128), 6, 8));
  CHECK(m.peek<uint64_t>(kD + 8) == 0xFFFFFFFFFFFFFF80ull);
  CHECK(m.cpu.cc == 1);
}

TEST_CASE("add logical with carry: the carry comes from CC 2 and 3", "[fixed_point]") {
  TestMachine m;
  for (uint8_t cc : {0, 1, 2, 3}) {
    m.cpu.cc = cc;
    m.cpu.gr[1] = 0x5555555500000000ull, m.cpu.gr[2] = 0;
    EXEC(m, RRE(0xB998, 1, 2));  // ALCR 0 + 0 + carry
    CHECK(m.cpu.gr[1] == 0x5555555500000000ull + (cc >= 2));
    CHECK(m.cpu.cc == (cc >= 2 ? 1 : 0));
  }
  m.cpu.cc = 2;
  m.cpu.gr[1] = 0xFFFFFFFF, m.cpu.gr[2] = 0;
  EXEC(m, RRE(0xB998, 1, 2));  // the carry in alone carries out
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 2);
  m.cpu.cc = 3;
  m.cpu.gr[1] = 0xFFFFFFFFFFFFFFFFull, m.cpu.gr[2] = 0xFFFFFFFFFFFFFFFFull;
  EXEC(m, RRE(0xB988, 1, 2));  // ALCGR: max + max + 1
  CHECK(m.cpu.gr[1] == 0xFFFFFFFFFFFFFFFFull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[5] = kD;
  m.poke<uint32_t>(kD, 0x80000000);
  m.poke<uint64_t>(kD + 8, 0x8000000000000000ull);
  m.cpu.cc = 1;
  m.cpu.gr[1] = 0x80000000;
  EXEC(m, RXY(0xE398, 1, 0, 5, 0));  // ALC
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[1] = 0x8000000000000000ull;
  EXEC(m, RXY(0xE388, 1, 0, 5, 8));  // ALCG with the carry just produced
  CHECK(m.cpu.gr[1] == 1);
  CHECK(m.cpu.cc == 3);
}

TEST_CASE("128-bit addition with ALGR + ALCGR", "[fixed_point]") {
  TestMachine m;
  // (r2:r3) += (r4:r5): 0x1_FFFFFFFFFFFFFFFF + 0x0_0000000000000001
  m.cpu.gr[2] = 1, m.cpu.gr[3] = 0xFFFFFFFFFFFFFFFFull;
  m.cpu.gr[4] = 0, m.cpu.gr[5] = 1;
  EXEC(m, RRE(0xB90A, 3, 5) + RRE(0xB988, 2, 4));
  CHECK(m.cpu.gr[2] == 2);
  CHECK(m.cpu.gr[3] == 0);
  CHECK(m.cpu.cc == 1);
  // The top word overflows too: 0xFFFF...F:FFFF...F + 0:1 = 0:0 with carry out.
  m.cpu.gr[2] = 0xFFFFFFFFFFFFFFFFull, m.cpu.gr[3] = 0xFFFFFFFFFFFFFFFFull;
  EXEC(m, RRE(0xB90A, 3, 5) + RRE(0xB988, 2, 4));
  CHECK(m.cpu.gr[2] == 0);
  CHECK(m.cpu.gr[3] == 0);
  CHECK(m.cpu.cc == 2);
}

// --- subtract -----------------------------------------------------------------------------

TEST_CASE("SR SGR SGFR: CC by sign, CC 3 on overflow", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[1] = 0x3333333380000000ull, m.cpu.gr[2] = 1;
  EXEC(m, RR(0x1B, 1, 2));  // SR: INT32_MIN - 1
  CHECK(m.cpu.gr[1] == 0x333333337FFFFFFFull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[2] = 0xFFFFFFFF;
  EXEC(m, RR(0x1B, 1, 2));  // INT32_MAX - -1
  CHECK(m.cpu.gr[1] == 0x3333333380000000ull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[1] = 5, m.cpu.gr[2] = 5;
  EXEC(m, RR(0x1B, 1, 2));
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[1] = 3;
  EXEC(m, RR(0x1B, 1, 2));
  CHECK(m.cpu.gr[1] == 0xFFFFFFFEull);
  CHECK(m.cpu.cc == 1);
  EXEC(m, RR(0x1B, 1, 1));  // SR r1,r1 clears the low half
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[1] = 0x8000000000000000ull, m.cpu.gr[2] = 1;
  EXEC(m, RRE(0xB909, 1, 2));  // SGR
  CHECK(m.cpu.gr[1] == 0x7FFFFFFFFFFFFFFFull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[1] = 0, m.cpu.gr[2] = 0xFFFFFFFF80000000ull;
  EXEC(m, RRE(0xB909, 1, 2));
  CHECK(m.cpu.gr[1] == 0x80000000ull);
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[1] = 0, m.cpu.gr[2] = 0x0000000080000000ull;
  EXEC(m, RRE(0xB919, 1, 2));  // SGFR: 0 - (-2^31)
  CHECK(m.cpu.gr[1] == 0x80000000ull);
  CHECK(m.cpu.cc == 2);
}

TEST_CASE("subtract from storage and distinct operands: S SY SG SGF SH SHY SRK SGRK", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[5] = kD;
  m.poke<uint32_t>(kD, 0xFFFFFFFF);  // -1
  m.poke<uint64_t>(kD + 8, 2);
  m.poke<uint16_t>(kD + 16, 0xFFFE);  // -2
  m.cpu.gr[1] = 0x7FFFFFFF;
  EXEC(m, RX(0x5B, 1, 0, 5, 0));  // S
  CHECK(m.cpu.gr[1] == 0x80000000ull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[1] = 0xFFFFFFFF;
  EXEC(m, RXY(0xE35B, 1, 0, 5, 0));  // SY
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[1] = 1;
  EXEC(m, RXY(0xE309, 1, 0, 5, 8));  // SG
  CHECK(m.cpu.gr[1] == 0xFFFFFFFFFFFFFFFFull);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[1] = 0x7FFFFFFFFFFFFFFFull;
  EXEC(m, RXY(0xE319, 1, 0, 5, 0));  // SGF: - (-1)
  CHECK(m.cpu.gr[1] == 0x8000000000000000ull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[1] = 0xF0F0F0F000000000ull;
  EXEC(m, RX(0x4B, 1, 0, 5, 16));  // SH: 0 - (-2)
  CHECK(m.cpu.gr[1] == 0xF0F0F0F000000002ull);
  CHECK(m.cpu.cc == 2);
  EXEC(m, RXY(0xE37B, 1, 0, 5, 16));  // SHY
  CHECK(m.cpu.gr[1] == 0xF0F0F0F000000004ull);
  m.cpu.gr[2] = 10, m.cpu.gr[3] = 0x9999999900000011ull;
  EXEC(m, RRF(0xB9F9, 1, 2, 3));  // SRK r1 = r2 - r3
  CHECK(m.cpu.gr[1] == 0xF0F0F0F0FFFFFFF9ull);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[2] = 0x8000000000000000ull, m.cpu.gr[3] = 1;
  EXEC(m, RRF(0xB9E9, 1, 2, 3));  // SGRK
  CHECK(m.cpu.gr[1] == 0x7FFFFFFFFFFFFFFFull);
  CHECK(m.cpu.cc == 3);
  CHECK(m.cpu.gr[2] == 0x8000000000000000ull);
}

// --- subtract logical ------------------------------------------------------------------------

TEST_CASE("subtract logical: CC 1 borrow, 2 zero, 3 no borrow", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[1] = 0x8888888800000005ull, m.cpu.gr[2] = 3;
  EXEC(m, RR(0x1F, 1, 2));  // SLR
  CHECK(m.cpu.gr[1] == 0x8888888800000002ull);
  CHECK(m.cpu.cc == 3);
  EXEC(m, RR(0x1F, 1, 1));
  CHECK(m.cpu.gr[1] == 0x8888888800000000ull);
  CHECK(m.cpu.cc == 2);
  EXEC(m, RR(0x1F, 1, 2));
  CHECK(m.cpu.gr[1] == 0x88888888FFFFFFFDull);  // no borrow from the high half
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[1] = 0, m.cpu.gr[2] = 1;
  EXEC(m, RRE(0xB90B, 1, 2));  // SLGR
  CHECK(m.cpu.gr[1] == 0xFFFFFFFFFFFFFFFFull);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[1] = 0x100000000ull, m.cpu.gr[2] = 0xFFFFFFFFFFFFFFFFull;
  EXEC(m, RRE(0xB91B, 1, 2));  // SLGFR: the low half zero-extended
  CHECK(m.cpu.gr[1] == 1);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[5] = kD;
  m.poke<uint32_t>(kD, 0x80000000);
  m.poke<uint64_t>(kD + 8, 0x8000000000000000ull);
  m.cpu.gr[1] = 0x7FFFFFFF;
  EXEC(m, RX(0x5F, 1, 0, 5, 0));  // SL
  CHECK(m.cpu.gr[1] == 0xFFFFFFFFull);
  CHECK(m.cpu.cc == 1);
  EXEC(m, RXY(0xE35F, 1, 0, 5, 0));  // SLY
  CHECK(m.cpu.gr[1] == 0x7FFFFFFFull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[1] = 0x8000000000000000ull;
  EXEC(m, RXY(0xE30B, 1, 0, 5, 8));  // SLG
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[1] = 0x80000000;
  EXEC(m, RXY(0xE31B, 1, 0, 5, 0));  // SLGF
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[1] = 0x12345678FFFFFFFEull;
  EXEC(m, RIL(0xC25, 1, 0xFFFFFFFF));  // SLFI: unsigned immediate
  CHECK(m.cpu.gr[1] == 0x12345678FFFFFFFFull);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[1] = 0x100000000ull;
  EXEC(m, RIL(0xC24, 1, 0xFFFFFFFF));  // SLGFI: zero-extended
  CHECK(m.cpu.gr[1] == 1);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[2] = 7, m.cpu.gr[3] = 7;
  EXEC(m, RRF(0xB9FB, 1, 2, 3));  // SLRK
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[3] = 8;
  EXEC(m, RRF(0xB9EB, 1, 2, 3));  // SLGRK
  CHECK(m.cpu.gr[1] == 0xFFFFFFFFFFFFFFFFull);
  CHECK(m.cpu.cc == 1);
}

TEST_CASE("subtract logical with borrow: the borrow comes from CC 0 and 1", "[fixed_point]") {
  TestMachine m;
  for (uint8_t cc : {0, 1, 2, 3}) {
    m.cpu.cc = cc;
    m.cpu.gr[1] = 5, m.cpu.gr[2] = 3;
    EXEC(m, RRE(0xB999, 1, 2));  // SLBR
    CHECK(m.cpu.gr[1] == (cc < 2 ? 1u : 2u));
    CHECK(m.cpu.cc == 3);
  }
  m.cpu.cc = 1;
  m.cpu.gr[1] = 0, m.cpu.gr[2] = 0xFFFFFFFF;
  EXEC(m, RRE(0xB999, 1, 2));  // 0 - max - 1 = 0 with borrow: CC 0, only SLB gives it
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 0);
  m.cpu.cc = 0;
  m.cpu.gr[1] = 1, m.cpu.gr[2] = 0;
  EXEC(m, RRE(0xB999, 1, 2));  // 1 - 0 - 1
  CHECK(m.cpu.cc == 2);
  m.cpu.cc = 1;
  m.cpu.gr[1] = 0, m.cpu.gr[2] = 0;
  EXEC(m, RRE(0xB989, 1, 2));  // SLBGR: 0 - 0 - 1
  CHECK(m.cpu.gr[1] == 0xFFFFFFFFFFFFFFFFull);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[5] = kD;
  m.poke<uint32_t>(kD, 1);
  m.poke<uint64_t>(kD + 8, 0xFFFFFFFFFFFFFFFFull);
  m.cpu.cc = 3;
  m.cpu.gr[1] = 0x6666666600000001ull;
  EXEC(m, RXY(0xE399, 1, 0, 5, 0));  // SLB, no borrow in
  CHECK(m.cpu.gr[1] == 0x6666666600000000ull);
  CHECK(m.cpu.cc == 2);
  m.cpu.cc = 0;
  m.cpu.gr[1] = 0xFFFFFFFFFFFFFFFFull;
  EXEC(m, RXY(0xE389, 1, 0, 5, 8));  // SLBG: max - max - 1
  CHECK(m.cpu.gr[1] == 0xFFFFFFFFFFFFFFFFull);
  CHECK(m.cpu.cc == 1);
}

TEST_CASE("128-bit subtraction with SLGR + SLBGR", "[fixed_point]") {
  TestMachine m;
  // (r2:r3) -= (r4:r5): 0x1_0000000000000000 - 1
  m.cpu.gr[2] = 1, m.cpu.gr[3] = 0;
  m.cpu.gr[4] = 0, m.cpu.gr[5] = 1;
  EXEC(m, RRE(0xB90B, 3, 5) + RRE(0xB989, 2, 4));
  CHECK(m.cpu.gr[2] == 0);
  CHECK(m.cpu.gr[3] == 0xFFFFFFFFFFFFFFFFull);
  CHECK(m.cpu.cc == 2);  // high word zero, no borrow
  // 0 - 1 borrows out of the top word.
  m.cpu.gr[2] = 0, m.cpu.gr[3] = 0;
  EXEC(m, RRE(0xB90B, 3, 5) + RRE(0xB989, 2, 4));
  CHECK(m.cpu.gr[2] == 0xFFFFFFFFFFFFFFFFull);
  CHECK(m.cpu.gr[3] == 0xFFFFFFFFFFFFFFFFull);
  CHECK(m.cpu.cc == 1);
}

// --- multiply ------------------------------------------------------------------------------

TEST_CASE("MR M MFY: signed 64-bit product in the even/odd pair", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[2] = 0xAAAAAAAA12345678ull, m.cpu.gr[3] = 0xBBBBBBBBFFFFFFFEull, m.cpu.gr[5] = 3;
  m.cpu.cc = 2;
  EXEC(m, RR(0x1C, 2, 5));  // MR r2,r5: -2 * 3, r2's low half is ignored
  CHECK(m.cpu.gr[2] == 0xAAAAAAAAFFFFFFFFull);
  CHECK(m.cpu.gr[3] == 0xBBBBBBBBFFFFFFFAull);
  CHECK(m.cpu.cc == 2);  // unchanged
  m.cpu.gr[3] = 0x7FFFFFFF, m.cpu.gr[5] = 0x7FFFFFFF;
  EXEC(m, RR(0x1C, 2, 5));
  CHECK(m.cpu.r32(2) == 0x3FFFFFFFu);
  CHECK(m.cpu.r32(3) == 1u);
  m.cpu.gr[3] = 0x7FFFFFFF;
  EXEC(m, RR(0x1C, 2, 3));  // R2 = R1+1: the square
  CHECK(m.cpu.r32(2) == 0x3FFFFFFFu);
  CHECK(m.cpu.r32(3) == 1u);
  m.cpu.gr[6] = kD;
  m.poke<uint32_t>(kD, 0x80000000);
  m.cpu.gr[3] = 0x80000000;
  EXEC(m, RX(0x5C, 2, 0, 6, 0));  // M: INT32_MIN squared
  CHECK(m.cpu.r32(2) == 0x40000000u);
  CHECK(m.cpu.r32(3) == 0u);
  m.cpu.gr[3] = 1;
  EXEC(m, RXY(0xE35C, 2, 0, 6, 0));  // MFY
  CHECK(m.cpu.r32(2) == 0xFFFFFFFFu);
  CHECK(m.cpu.r32(3) == 0x80000000u);
  CHECK(check_of(m, RR(0x1C, 3, 5)) == Pic::Specification);
  CHECK(check_of(m, RX(0x5C, 1, 0, 6, 0)) == Pic::Specification);
  CHECK(check_of(m, RXY(0xE35C, 7, 0, 6, 0)) == Pic::Specification);
}

TEST_CASE("multiply single keeps the low bits and leaves the CC", "[fixed_point]") {
  TestMachine m;
  m.cpu.cc = 3;
  m.cpu.gr[1] = 0x5555555500010000ull, m.cpu.gr[2] = 0x10000;
  EXEC(m, RRE(0xB252, 1, 2));  // MSR: 2^32 truncates to 0
  CHECK(m.cpu.gr[1] == 0x5555555500000000ull);
  m.cpu.gr[1] = 0xFFFFFFFF, m.cpu.gr[2] = 0xFFFFFFFD;
  EXEC(m, RRE(0xB252, 1, 2));  // -1 * -3
  CHECK(m.cpu.gr[1] == 3);
  m.cpu.gr[1] = 0x100000000ull, m.cpu.gr[2] = 0x100000001ull;
  EXEC(m, RRE(0xB90C, 1, 2));  // MSGR: low 64 bits of 2^64 + 2^32
  CHECK(m.cpu.gr[1] == 0x100000000ull);
  m.cpu.gr[1] = 7, m.cpu.gr[2] = 0x12345678FFFFFFFFull;
  EXEC(m, RRE(0xB91C, 1, 2));  // MSGFR: times sign-extended -1
  CHECK(m.cpu.gr[1] == 0xFFFFFFFFFFFFFFF9ull);
  m.cpu.gr[5] = kD;
  m.poke<uint32_t>(kD, 0xFFFFFFFE);  // -2
  m.poke<uint64_t>(kD + 8, 0x8000000000000001ull);
  m.poke<uint16_t>(kD + 16, 0x8000);  // -32768
  m.cpu.gr[1] = 0x9999999940000001ull;
  EXEC(m, RX(0x71, 1, 0, 5, 0));  // MS
  CHECK(m.cpu.gr[1] == 0x999999997FFFFFFEull);
  EXEC(m, RXY(0xE351, 1, 0, 5, 0));  // MSY
  CHECK(m.cpu.gr[1] == 0x9999999900000004ull);
  m.cpu.gr[1] = 3;
  EXEC(m, RXY(0xE30C, 1, 0, 5, 8));  // MSG
  CHECK(m.cpu.gr[1] == 0x8000000000000003ull);
  m.cpu.gr[1] = 0x4000000000000000ull;
  EXEC(m, RXY(0xE31C, 1, 0, 5, 0));  // MSGF
  CHECK(m.cpu.gr[1] == 0x8000000000000000ull);
  m.cpu.gr[1] = 0xEEEEEEEE00000003ull;
  EXEC(m, RX(0x4C, 1, 0, 5, 16));  // MH: halfword sign-extended
  CHECK(m.cpu.gr[1] == 0xEEEEEEEEFFFE8000ull);
  m.cpu.gr[1] = 0x00010000;
  EXEC(m, RXY(0xE37C, 1, 0, 5, 16));  // MHY: -2^31 fits exactly
  CHECK(m.cpu.gr[1] == 0x80000000ull);
  m.cpu.gr[1] = 0x1111111100000007ull;
  EXEC(m, RI(0xA7C, 1, -6));  // MHI
  CHECK(m.cpu.gr[1] == 0x11111111FFFFFFD6ull);
  m.cpu.gr[1] = 0x100000000ull;
  EXEC(m, RI(0xA7D, 1, -1));  // MGHI
  CHECK(m.cpu.gr[1] == 0xFFFFFFFF00000000ull);
  m.cpu.gr[1] = 0x2222222200000003ull;
  EXEC(m, RIL(0xC21, 1, 0x55555555));  // MSFI
  CHECK(m.cpu.gr[1] == 0x22222222FFFFFFFFull);
  m.cpu.gr[1] = 0x100000000ull;
  EXEC(m, RIL(0xC20, 1, -0x80000000LL));  // MSGFI: 2^32 * -2^31
  CHECK(m.cpu.gr[1] == 0x8000000000000000ull);
  CHECK(m.cpu.cc == 3);
}

TEST_CASE("multiply logical: MLR ML MLGR MLG", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[4] = 0x1234567800000000ull, m.cpu.gr[5] = 0x87654321FFFFFFFFull, m.cpu.gr[7] = 0xFFFFFFFF;
  EXEC(m, RRE(0xB996, 4, 7));  // MLR: (2^32-1)^2, unsigned
  CHECK(m.cpu.gr[4] == 0x12345678FFFFFFFEull);
  CHECK(m.cpu.gr[5] == 0x8765432100000001ull);
  m.cpu.gr[6] = kD;
  m.poke<uint32_t>(kD, 0x80000000);
  m.poke<uint64_t>(kD + 8, 0x0FEDCBA987654321ull);
  m.cpu.gr[5] = 2;
  EXEC(m, RXY(0xE396, 4, 0, 6, 0));  // ML
  CHECK(m.cpu.r32(4) == 1u);
  CHECK(m.cpu.r32(5) == 0u);
  m.cpu.gr[5] = 0xFFFFFFFFFFFFFFFFull, m.cpu.gr[7] = 0xFFFFFFFFFFFFFFFFull;
  EXEC(m, RRE(0xB986, 4, 7));  // MLGR: 128-bit product
  CHECK(m.cpu.gr[4] == 0xFFFFFFFFFFFFFFFEull);
  CHECK(m.cpu.gr[5] == 0x0000000000000001ull);
  m.cpu.gr[5] = 0x123456789ABCDEF0ull;
  EXEC(m, RXY(0xE386, 4, 0, 6, 8));  // MLG
  CHECK(m.cpu.gr[4] == 0x0121FA00AD77D742ull);
  CHECK(m.cpu.gr[5] == 0x2236D88FE5618CF0ull);
  m.cpu.gr[5] = 0x10, m.cpu.gr[4] = 0x99;
  EXEC(m, RRE(0xB986, 4, 5));  // multiplier is R1+1 itself: 0x10^2
  CHECK(m.cpu.gr[4] == 0);
  CHECK(m.cpu.gr[5] == 0x100);
  CHECK(check_of(m, RRE(0xB996, 5, 7)) == Pic::Specification);
  CHECK(check_of(m, RRE(0xB986, 5, 7)) == Pic::Specification);
  CHECK(check_of(m, RXY(0xE386, 1, 0, 6, 8)) == Pic::Specification);
  CHECK(m.cpu.gr[5] == 0x100);  // unchanged
}

// --- divide --------------------------------------------------------------------------------

TEST_CASE("DR D: remainder has the dividend's sign", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[2] = 0xAAAAAAAAFFFFFFFFull, m.cpu.gr[3] = 0xBBBBBBBBFFFFFFF9ull, m.cpu.gr[5] = 2;  // -7 / 2
  m.cpu.cc = 1;
  EXEC(m, RR(0x1D, 2, 5));
  CHECK(m.cpu.gr[2] == 0xAAAAAAAAFFFFFFFFull);  // remainder -1
  CHECK(m.cpu.gr[3] == 0xBBBBBBBBFFFFFFFDull);  // quotient -3
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[2] = 0, m.cpu.gr[3] = 7, m.cpu.gr[5] = 0xFFFFFFFE;  // 7 / -2
  EXEC(m, RR(0x1D, 2, 5));
  CHECK(m.cpu.r32(2) == 1u);
  CHECK(m.cpu.r32(3) == 0xFFFFFFFDu);
  m.cpu.gr[6] = kD;
  m.poke<uint32_t>(kD, 0xFFFFFFF9);  // -7
  m.cpu.gr[2] = 0, m.cpu.gr[3] = 100;
  EXEC(m, RX(0x5D, 2, 0, 6, 0));  // D
  CHECK(m.cpu.r32(2) == 2u);
  CHECK(m.cpu.r32(3) == uint32_t(-14));
  m.cpu.gr[2] = 0xFFFFFFFF, m.cpu.gr[3] = 0x80000000, m.cpu.gr[5] = 1;  // INT32_MIN / 1 fits
  EXEC(m, RR(0x1D, 2, 5));
  CHECK(m.cpu.r32(2) == 0u);
  CHECK(m.cpu.r32(3) == 0x80000000u);
}

TEST_CASE("DR: zero divisor, quotient overflow and odd R1", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[2] = 0, m.cpu.gr[3] = 100, m.cpu.gr[5] = 0;
  CHECK(check_of(m, RR(0x1D, 2, 5)) == Pic::FixedPointDivide);
  CHECK(m.cpu.gr[3] == 100);  // suppressed
  m.cpu.gr[2] = 0xFFFFFFFF, m.cpu.gr[3] = 0x80000000, m.cpu.gr[5] = 0xFFFFFFFF;  // INT32_MIN / -1
  CHECK(check_of(m, RR(0x1D, 2, 5)) == Pic::FixedPointDivide);
  CHECK(m.cpu.gr[2] == 0xFFFFFFFF);
  CHECK(m.cpu.gr[3] == 0x80000000);
  m.cpu.gr[2] = 1, m.cpu.gr[3] = 0, m.cpu.gr[5] = 2;  // 2^32 / 2 = 2^31: too big
  CHECK(check_of(m, RR(0x1D, 2, 5)) == Pic::FixedPointDivide);
  m.cpu.gr[2] = 0x80000000, m.cpu.gr[3] = 0, m.cpu.gr[5] = 0xFFFFFFFF;  // INT64_MIN / -1
  CHECK(check_of(m, RR(0x1D, 2, 5)) == Pic::FixedPointDivide);
  CHECK(check_of(m, RR(0x1D, 3, 5)) == Pic::Specification);
}

TEST_CASE("DLR DL: unsigned 64 by 32", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[2] = 0x1111111100000001ull, m.cpu.gr[3] = 0x2222222200000001ull, m.cpu.gr[5] = 2;
  EXEC(m, RRE(0xB997, 2, 5));  // 0x1_00000001 / 2
  CHECK(m.cpu.gr[2] == 0x1111111100000001ull);
  CHECK(m.cpu.gr[3] == 0x2222222280000000ull);
  m.cpu.gr[6] = kD;
  m.poke<uint32_t>(kD, 0xFFFFFFFF);
  m.cpu.gr[2] = 0xFFFFFFFE, m.cpu.gr[3] = 0xFFFFFFFF;
  EXEC(m, RXY(0xE397, 2, 0, 6, 0));  // DL: (2^64 - 2^32 - 1) / (2^32 - 1)
  CHECK(m.cpu.r32(2) == 0xFFFFFFFEu);
  CHECK(m.cpu.r32(3) == 0xFFFFFFFFu);
  m.cpu.gr[2] = 2, m.cpu.gr[3] = 0, m.cpu.gr[5] = 2;  // quotient 2^32
  CHECK(check_of(m, RRE(0xB997, 2, 5)) == Pic::FixedPointDivide);
  m.cpu.gr[5] = 0;
  CHECK(check_of(m, RRE(0xB997, 2, 5)) == Pic::FixedPointDivide);
  CHECK(check_of(m, RXY(0xE397, 1, 0, 6, 0)) == Pic::Specification);
}

TEST_CASE("DSGR DSGFR DSG DSGF: 64-bit dividend from R1+1", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[2] = 0x123456789ull;  // ignored
  m.cpu.gr[3] = uint64_t(-7), m.cpu.gr[4] = 2;
  EXEC(m, RRE(0xB90D, 2, 4));  // DSGR
  CHECK(m.cpu.gr[2] == uint64_t(-1));
  CHECK(m.cpu.gr[3] == uint64_t(-3));
  m.cpu.gr[3] = 7, m.cpu.gr[4] = 0x12345678FFFFFFFEull;
  EXEC(m, RRE(0xB91D, 2, 4));  // DSGFR: the divisor is the sign-extended low half (-2)
  CHECK(m.cpu.gr[2] == 1);
  CHECK(m.cpu.gr[3] == uint64_t(-3));
  m.cpu.gr[6] = kD;
  m.poke<uint64_t>(kD, 0x100000000ull);
  m.poke<uint32_t>(kD + 8, 0xFFFFFFFF);
  m.cpu.gr[3] = 0x7FFFFFFFFFFFFFFFull;
  EXEC(m, RXY(0xE30D, 2, 0, 6, 0));  // DSG
  CHECK(m.cpu.gr[2] == 0xFFFFFFFFull);
  CHECK(m.cpu.gr[3] == 0x7FFFFFFFull);
  m.cpu.gr[3] = 0x8000000000000001ull;
  EXEC(m, RXY(0xE31D, 2, 0, 6, 8));  // DSGF by -1: fine except for INT64_MIN
  CHECK(m.cpu.gr[2] == 0);
  CHECK(m.cpu.gr[3] == 0x7FFFFFFFFFFFFFFFull);
  m.cpu.gr[3] = 0x8000000000000000ull, m.cpu.gr[4] = uint64_t(-1);
  CHECK(check_of(m, RRE(0xB90D, 2, 4)) == Pic::FixedPointDivide);
  CHECK(check_of(m, RXY(0xE31D, 2, 0, 6, 8)) == Pic::FixedPointDivide);
  CHECK(m.cpu.gr[3] == 0x8000000000000000ull);
  m.cpu.gr[4] = 0xFFFFFFFF00000000ull;  // DSGFR sees only the zero low half
  CHECK(check_of(m, RRE(0xB91D, 2, 4)) == Pic::FixedPointDivide);
  CHECK(check_of(m, RRE(0xB90D, 3, 4)) == Pic::Specification);
}

TEST_CASE("DLGR DLG: unsigned 128 by 64", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[2] = 1, m.cpu.gr[3] = 6, m.cpu.gr[4] = 3;  // (2^64 + 6) / 3
  EXEC(m, RRE(0xB987, 2, 4));
  CHECK(m.cpu.gr[2] == 1);
  CHECK(m.cpu.gr[3] == 0x5555555555555557ull);
  m.cpu.gr[6] = kD;
  m.poke<uint64_t>(kD, 0xFFFFFFFF00000001ull);
  m.cpu.gr[2] = 0x123456789ABCDEF0ull, m.cpu.gr[3] = 0xFEDCBA9876543210ull;
  EXEC(m, RXY(0xE387, 2, 0, 6, 0));  // DLG
  CHECK(m.cpu.gr[2] == 0x99999988C962FCA7ull);
  CHECK(m.cpu.gr[3] == 0x12345678ACF13569ull);
  m.cpu.gr[2] = 3, m.cpu.gr[3] = 0, m.cpu.gr[4] = 3;  // quotient 2^64
  CHECK(check_of(m, RRE(0xB987, 2, 4)) == Pic::FixedPointDivide);
  m.cpu.gr[2] = 0, m.cpu.gr[4] = 0;
  CHECK(check_of(m, RRE(0xB987, 2, 4)) == Pic::FixedPointDivide);
  CHECK(check_of(m, RRE(0xB987, 1, 4)) == Pic::Specification);
}

// --- compare -------------------------------------------------------------------------------

TEST_CASE("signed compares of registers, storage and immediates", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[1] = 0x00000000FFFFFFFFull, m.cpu.gr[2] = 0xFFFFFFFF00000001ull;
  EXEC(m, RR(0x19, 1, 2));  // CR: -1 < 1, only the low halves count
  CHECK(m.cpu.cc == 1);
  EXEC(m, RRE(0xB920, 1, 2));  // CGR
  CHECK(m.cpu.cc == 2);
  EXEC(m, RRE(0xB930, 1, 1));  // CGFR: 0xFFFFFFFF vs sign-extended -1
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[3] = 0xFFFFFFFFFFFFFFFFull;
  EXEC(m, RRE(0xB930, 3, 1));
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[5] = kD;
  m.poke<uint32_t>(kD, 0x80000000);
  m.poke<uint64_t>(kD + 8, 0x8000000000000000ull);
  m.poke<uint16_t>(kD + 16, 0xFFFF);
  m.cpu.gr[1] = 0x7FFFFFFF80000000ull;
  EXEC(m, RX(0x59, 1, 0, 5, 0));  // C
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[1] = 0;
  EXEC(m, RXY(0xE359, 1, 0, 5, 0));  // CY
  CHECK(m.cpu.cc == 2);
  EXEC(m, RXY(0xE320, 1, 0, 5, 8));  // CG
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[1] = 0xFFFFFFFF80000000ull;
  EXEC(m, RXY(0xE330, 1, 0, 5, 0));  // CGF
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[1] = 0xFFFFFFFE;
  EXEC(m, RX(0x49, 1, 0, 5, 16));  // CH: -2 < -1
  CHECK(m.cpu.cc == 1);
  EXEC(m, RXY(0xE379, 1, 0, 5, 16));  // CHY
  CHECK(m.cpu.cc == 1);
  EXEC(m, RXY(0xE334, 1, 0, 5, 16));  // CGH: 0xFFFFFFFE (positive in 64 bits) > -1
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[1] = 0xFFFFFFFF;
  EXEC(m, RI(0xA7E, 1, -1));  // CHI
  CHECK(m.cpu.cc == 0);
  EXEC(m, RI(0xA7F, 1, -1));  // CGHI
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[1] = 0x80000000;
  EXEC(m, RIL(0xC2D, 1, 0x7FFFFFFF));  // CFI
  CHECK(m.cpu.cc == 1);
  EXEC(m, RIL(0xC2C, 1, 0x7FFFFFFF));  // CGFI
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[1] = 0xFFFFFFFF80000000ull;
  EXEC(m, RIL(0xC2C, 1, -0x80000000LL));
  CHECK(m.cpu.cc == 0);
}

TEST_CASE("compare storage with a signed 16-bit immediate: CHSI CGHSI CHHSI", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[5] = kD;
  m.poke<uint32_t>(kD, uint32_t(-5));
  m.poke<uint64_t>(kD + 8, 0x0000000100000000ull);
  m.poke<uint16_t>(kD + 16, 0x8000);
  EXEC(m, SIL(0xE55C, 5, 0, -4));  // CHSI: -5 < -4
  CHECK(m.cpu.cc == 1);
  EXEC(m, SIL(0xE55C, 5, 0, -5));
  CHECK(m.cpu.cc == 0);
  EXEC(m, SIL(0xE558, 5, 8, 0x7FFF));  // CGHSI
  CHECK(m.cpu.cc == 2);
  EXEC(m, SIL(0xE558, 5, 0, -1));  // the doubleword 0xFFFFFFFB00000000 is negative
  CHECK(m.cpu.cc == 1);
  EXEC(m, SIL(0xE554, 5, 16, 0x7FFF));  // CHHSI: -32768 < 32767
  CHECK(m.cpu.cc == 1);
  EXEC(m, SIL(0xE554, 5, 16, -0x8000));
  CHECK(m.cpu.cc == 0);
  m.poke<uint16_t>(kD + 16, 0x0001);
  EXEC(m, SIL(0xE554, 5, 16, -1));
  CHECK(m.cpu.cc == 2);
}

TEST_CASE("compare relative long: CRL CGRL CGFRL CHRL CGHRL and alignment", "[fixed_point]") {
  TestMachine m;
  m.poke<uint32_t>(kD, 0xFFFFFFFF);
  m.poke<uint64_t>(kD + 8, 0x8000000000000000ull);
  m.poke<uint16_t>(kD + 16, 0xFFFF);
  m.cpu.gr[1] = 0x00000000FFFFFFFFull;
  EXEC(m, RIL(0xC6D, 1, rel(kD)));  // CRL
  CHECK(m.cpu.cc == 0);
  EXEC(m, RIL(0xC68, 1, rel(kD + 8)));  // CGRL
  CHECK(m.cpu.cc == 2);
  EXEC(m, RIL(0xC6C, 1, rel(kD)));  // CGFRL: 0xFFFFFFFF > -1
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[1] = 0xFFFFFFFE;
  EXEC(m, RIL(0xC65, 1, rel(kD + 16)));  // CHRL: -2 < -1
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[1] = 0xFFFFFFFFFFFFFFFFull;
  EXEC(m, RIL(0xC64, 1, rel(kD + 16)));  // CGHRL
  CHECK(m.cpu.cc == 0);
  CHECK(check_of(m, RIL(0xC6D, 1, rel(kD + 2))) == Pic::Specification);  // CRL needs a word
  CHECK(check_of(m, RIL(0xC68, 1, rel(kD + 4))) == Pic::Specification);  // CGRL a doubleword
  CHECK(check_of(m, RIL(0xC6C, 1, rel(kD + 6))) == Pic::Specification);
  EXEC(m, RIL(0xC65, 1, rel(kD + 2)));  // halfword targets are always aligned
}

TEST_CASE("logical compares of registers, storage and immediates", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[1] = 0xFFFFFFFF, m.cpu.gr[2] = 0x1234567800000001ull;
  EXEC(m, RR(0x15, 1, 2));  // CLR
  CHECK(m.cpu.cc == 2);
  EXEC(m, RRE(0xB921, 1, 2));  // CLGR
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[3] = 0xFFFFFFFFFFFFFFFFull;
  EXEC(m, RRE(0xB931, 1, 3));  // CLGFR: zero-extended low half
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[5] = kD;
  m.poke<uint32_t>(kD, 0x80000000);
  m.poke<uint64_t>(kD + 8, 0x8000000000000000ull);
  m.cpu.gr[1] = 0x7FFFFFFF;
  EXEC(m, RX(0x55, 1, 0, 5, 0));  // CL: unsigned, so 0x7FFFFFFF is low
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[1] = 0x80000001;
  EXEC(m, RXY(0xE355, 1, 0, 5, 0));  // CLY
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[1] = 0x8000000000000000ull;
  EXEC(m, RXY(0xE321, 1, 0, 5, 8));  // CLG
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[1] = 0x80000000;
  EXEC(m, RXY(0xE331, 1, 0, 5, 0));  // CLGF: zero-extended word
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[1] = 0x7FFFFFFF;
  EXEC(m, RIL(0xC2F, 1, 0xFFFFFFFF));  // CLFI
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[1] = 0x100000000ull;
  EXEC(m, RIL(0xC2E, 1, 0xFFFFFFFF));  // CLGFI: zero-extended
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[1] = 0xFFFFFFFF;
  EXEC(m, RIL(0xC2E, 1, 0xFFFFFFFF));
  CHECK(m.cpu.cc == 0);
}

TEST_CASE("compare logical storage immediates: CLI CLIY CLFHSI CLGHSI CLHHSI", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[5] = kD;
  m.poke<uint8_t>(kD, 0x80);
  m.poke<uint32_t>(kD + 4, 0x0000FFFF);
  m.poke<uint64_t>(kD + 8, 0x0000000000008000ull);
  m.poke<uint16_t>(kD + 16, 0x8000);
  EXEC(m, SI(0x95, 0x7F, 5, 0));  // CLI: 0x80 > 0x7F unsigned
  CHECK(m.cpu.cc == 2);
  EXEC(m, SI(0x95, 0xFF, 5, 0));
  CHECK(m.cpu.cc == 1);
  EXEC(m, SI(0x95, 0x80, 5, 0));
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[6] = kD + 0x100;
  EXEC(m, SIY(0xEB55, 0x81, 6, -0x100));  // CLIY, negative displacement
  CHECK(m.cpu.cc == 1);
  EXEC(m, SIL(0xE55D, 5, 4, 0xFFFF));  // CLFHSI: the immediate is zero-extended
  CHECK(m.cpu.cc == 0);
  EXEC(m, SIL(0xE55D, 5, 4, 0x8000));
  CHECK(m.cpu.cc == 2);
  EXEC(m, SIL(0xE559, 5, 8, 0x8000));  // CLGHSI
  CHECK(m.cpu.cc == 0);
  EXEC(m, SIL(0xE559, 5, 8, 0xFFFF));
  CHECK(m.cpu.cc == 1);
  EXEC(m, SIL(0xE555, 5, 16, 0xFFFF));  // CLHHSI: 0x8000 < 0xFFFF unsigned
  CHECK(m.cpu.cc == 1);
  EXEC(m, SIL(0xE555, 5, 16, 0x7FFF));
  CHECK(m.cpu.cc == 2);
  EXEC(m, SIL(0xE555, 5, 16, 0x8000));
  CHECK(m.cpu.cc == 0);
}

TEST_CASE("compare logical relative long: CLRL CLGRL CLGFRL CLHRL CLGHRL", "[fixed_point]") {
  TestMachine m;
  m.poke<uint32_t>(kD, 0x80000000);
  m.poke<uint64_t>(kD + 8, 0xFFFFFFFFFFFFFFFFull);
  m.poke<uint16_t>(kD + 16, 0xFFFF);
  m.cpu.gr[1] = 0x7FFFFFFF;
  EXEC(m, RIL(0xC6F, 1, rel(kD)));  // CLRL
  CHECK(m.cpu.cc == 1);
  EXEC(m, RIL(0xC6A, 1, rel(kD + 8)));  // CLGRL
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[1] = 0x80000000;
  EXEC(m, RIL(0xC6E, 1, rel(kD)));  // CLGFRL: zero-extended word
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[1] = 0xFFFFFFFF0000FFFFull;
  EXEC(m, RIL(0xC67, 1, rel(kD + 16)));  // CLHRL: 0x0000FFFF == zero-extended 0xFFFF
  CHECK(m.cpu.cc == 0);
  EXEC(m, RIL(0xC66, 1, rel(kD + 16)));  // CLGHRL: the whole register counts
  CHECK(m.cpu.cc == 2);
  CHECK(check_of(m, RIL(0xC6F, 1, rel(kD + 2))) == Pic::Specification);
  CHECK(check_of(m, RIL(0xC6A, 1, rel(kD + 12))) == Pic::Specification);
  CHECK(check_of(m, RIL(0xC6E, 1, rel(kD + 2))) == Pic::Specification);
}

TEST_CASE("compare logical characters under mask: CLM CLMY CLMH", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[5] = kD;
  m.poke<uint32_t>(kD, 0x11343344);
  m.cpu.gr[1] = 0xA1B2C3D411223344ull;
  EXEC(m, RS(0xBD, 1, 0b1010, 5, 0));  // bytes 11, 33 against 11, 34
  CHECK(m.cpu.cc == 1);
  EXEC(m, RS(0xBD, 1, 0b1010, 5, 2));  // 11, 33 against 33, 44
  CHECK(m.cpu.cc == 1);
  EXEC(m, RS(0xBD, 1, 0b0011, 5, 2));  // 33, 44 against 33, 44
  CHECK(m.cpu.cc == 0);
  EXEC(m, RS(0xBD, 1, 0b0001, 5, 0));  // 44 against 11
  CHECK(m.cpu.cc == 2);
  m.cpu.cc = 3;
  m.cpu.gr[6] = 0x7000000;  // unmapped: a zero mask compares nothing
  EXEC(m, RS(0xBD, 1, 0, 6, 0));
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[6] = kD + 0x1000;
  EXEC(m, RSY(0xEB21, 1, 0b1111, 6, -0x1000));  // CLMY: 11223344 vs 11343344
  CHECK(m.cpu.cc == 1);
  m.poke<uint32_t>(kD + 4, 0xA1C3FFFF);
  EXEC(m, RSY(0xEB20, 1, 0b1010, 5, 4));  // CLMH: bytes A1, C3 of the high half
  CHECK(m.cpu.cc == 0);
  EXEC(m, RSY(0xEB20, 1, 0b0101, 5, 4));  // B2, D4 against A1, C3
  CHECK(m.cpu.cc == 2);
  m.poke<uint8_t>(kD + 4, 0x00);
  EXEC(m, RSY(0xEB20, 1, 0b1000, 5, 4));  // A1 against 00: unsigned
  CHECK(m.cpu.cc == 2);
}

// --- complement, positive, negative -------------------------------------------------------------

TEST_CASE("load complement: CC by sign, CC 3 for the maximum negative number", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[1] = 0xCCCCCCCCCCCCCCCCull;
  m.cpu.gr[2] = 5;
  EXEC(m, RR(0x13, 1, 2));  // LCR
  CHECK(m.cpu.gr[1] == 0xCCCCCCCCFFFFFFFBull);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[2] = 0xFFFFFFFB;
  EXEC(m, RR(0x13, 1, 2));
  CHECK(m.cpu.gr[1] == 0xCCCCCCCC00000005ull);
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[2] = 0xFFFFFFFF00000000ull;
  EXEC(m, RR(0x13, 1, 2));
  CHECK(m.cpu.gr[1] == 0xCCCCCCCC00000000ull);
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[2] = 0x80000000;
  EXEC(m, RR(0x13, 1, 2));
  CHECK(m.cpu.gr[1] == 0xCCCCCCCC80000000ull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[2] = 0x8000000000000000ull;
  EXEC(m, RRE(0xB903, 1, 2));  // LCGR
  CHECK(m.cpu.gr[1] == 0x8000000000000000ull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[2] = 1;
  EXEC(m, RRE(0xB903, 1, 2));
  CHECK(m.cpu.gr[1] == 0xFFFFFFFFFFFFFFFFull);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[2] = 0x0000000080000000ull;
  EXEC(m, RRE(0xB913, 1, 2));  // LCGFR: -(-2^31) fits in 64 bits
  CHECK(m.cpu.gr[1] == 0x80000000ull);
  CHECK(m.cpu.cc == 2);
}

TEST_CASE("load negative: never overflows, CC 0 or 1", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[1] = 0xDDDDDDDD00000000ull;
  m.cpu.gr[2] = 7;
  EXEC(m, RR(0x11, 1, 2));  // LNR
  CHECK(m.cpu.gr[1] == 0xDDDDDDDDFFFFFFF9ull);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[2] = 0xFFFFFFF9;
  EXEC(m, RR(0x11, 1, 2));
  CHECK(m.cpu.r32(1) == 0xFFFFFFF9u);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[2] = 0x80000000;
  EXEC(m, RR(0x11, 1, 2));
  CHECK(m.cpu.r32(1) == 0x80000000u);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[2] = 0x1200000000ull;
  EXEC(m, RR(0x11, 1, 2));
  CHECK(m.cpu.gr[1] == 0xDDDDDDDD00000000ull);
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[2] = 0x7FFFFFFFFFFFFFFFull;
  EXEC(m, RRE(0xB901, 1, 2));  // LNGR
  CHECK(m.cpu.gr[1] == 0x8000000000000001ull);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[2] = 0x8000000000000000ull;
  EXEC(m, RRE(0xB901, 1, 2));
  CHECK(m.cpu.gr[1] == 0x8000000000000000ull);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[2] = 0x000000007FFFFFFFull;
  EXEC(m, RRE(0xB911, 1, 2));  // LNGFR
  CHECK(m.cpu.gr[1] == 0xFFFFFFFF80000001ull);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[2] = 0x1234567800000000ull;
  EXEC(m, RRE(0xB911, 1, 2));
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 0);
}

TEST_CASE("load positive: CC 0 or 2, CC 3 for the maximum negative number", "[fixed_point]") {
  TestMachine m;
  m.cpu.gr[1] = 0xEEEEEEEE00000000ull;
  m.cpu.gr[2] = 0xFFFFFFFB;
  EXEC(m, RR(0x10, 1, 2));  // LPR
  CHECK(m.cpu.gr[1] == 0xEEEEEEEE00000005ull);
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[2] = 5;
  EXEC(m, RR(0x10, 1, 2));
  CHECK(m.cpu.r32(1) == 5u);
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[2] = 0;
  EXEC(m, RR(0x10, 1, 2));
  CHECK(m.cpu.r32(1) == 0u);
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[2] = 0x80000000;
  EXEC(m, RR(0x10, 1, 2));
  CHECK(m.cpu.gr[1] == 0xEEEEEEEE80000000ull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[2] = 0x8000000000000000ull;
  EXEC(m, RRE(0xB900, 1, 2));  // LPGR
  CHECK(m.cpu.gr[1] == 0x8000000000000000ull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[2] = 0x8000000000000001ull;
  EXEC(m, RRE(0xB900, 1, 2));
  CHECK(m.cpu.gr[1] == 0x7FFFFFFFFFFFFFFFull);
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[2] = 0x0000000080000000ull;
  EXEC(m, RRE(0xB910, 1, 2));  // LPGFR: |-2^31| fits in 64 bits
  CHECK(m.cpu.gr[1] == 0x80000000ull);
  CHECK(m.cpu.cc == 2);
}
