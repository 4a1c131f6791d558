// The general instructions of z13-z15 (load/store-on-condition 2, load and zero
// rightmost byte, miscellaneous-instruction-extensions 2 and 3) and LDE: edge values,
// the overflow interruption, register pairs, and the machine levels that lack them.
#include <catch2/catch.hpp>

#include "harness.h"

using namespace test;
using emu::Generation;
using emu::Pic;

namespace {

constexpr uint64_t kD = TestMachine::kData;



// RIE-g (LOCHI and friends): R1, M3, I2.
Bytes RIEg(uint16_t op, unsigned r1, unsigned m3, int i2) { return RIE(op, r1, m3, i2, 0); }

}  // namespace

TEST_CASE("MSGRKC/MSRKC: CC by sign, CC 3 and the low bits of the product on overflow", "[general_z15]") {
  TestMachine m;
  m.cpu.gr[2] = 0x4000000000000000ull, m.cpu.gr[3] = 2;
  EXEC(m, RRF(0xB9ED, 1, 2, 3));  // MSGRKC 1,2,3
  CHECK(m.cpu.gr[1] == 0x8000000000000000ull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[3] = uint64_t(-1);
  EXEC(m, RRF(0xB9ED, 1, 2, 3));
  CHECK(m.cpu.gr[1] == 0xC000000000000000ull);
  CHECK(m.cpu.cc == 1);
  m.cpu.gr[3] = 0;
  EXEC(m, RRF(0xB9ED, 1, 2, 3));
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 0);
  m.cpu.gr[1] = 0xAAAAAAAA00000000ull, m.cpu.gr[2] = 0x10000, m.cpu.gr[3] = 0x10000;  // 2^32: overflows 32 bits
  EXEC(m, RRF(0xB9FD, 1, 2, 3));                                                      // MSRKC
  CHECK(m.cpu.gr[1] == 0xAAAAAAAA00000000ull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[2] = 0xFFFFFFFF, m.cpu.gr[3] = 0xFFFFFFFF;  // -1 * -1
  EXEC(m, RRF(0xB9FD, 1, 2, 3));
  CHECK(m.cpu.gr[1] == 0xAAAAAAAA00000001ull);
  CHECK(m.cpu.cc == 2);
}

TEST_CASE("MSC/MSGC with the fixed-point-overflow mask on: stored, CC 3, then the interruption",
          "[general_z15]") {
  TestMachine m;
  m.cpu.prog_mask = 0x8;
  m.poke<uint32_t>(kD, 0x40000000);
  m.cpu.gr[1] = 4, m.cpu.gr[5] = kD;
  CHECK(check_of(m, RXY(0xE353, 1, 0, 5, 0)) == Pic::FixedPointOverflow);  // MSC
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.cc == 3);
  m.poke<uint64_t>(kD, 3);
  m.cpu.gr[1] = 5;
  EXEC(m, RXY(0xE383, 1, 0, 5, 0));  // MSGC, no overflow: no interruption
  CHECK(m.cpu.gr[1] == 15);
  CHECK(m.cpu.cc == 2);
}

TEST_CASE("MG/MGRK: the signed 128-bit product in the even/odd pair; odd R1 is a specification exception",
          "[general_z15]") {
  TestMachine m;
  m.cpu.gr[2] = uint64_t(-3), m.cpu.gr[3] = 0x7FFFFFFFFFFFFFFFull;
  EXEC(m, RRF(0xB9EC, 4, 2, 3));  // MGRK 4,2,3
  CHECK(m.cpu.gr[4] == 0xFFFFFFFFFFFFFFFEull);
  CHECK(m.cpu.gr[5] == 0x8000000000000003ull);
  m.poke<uint64_t>(kD, uint64_t(INT64_MIN));
  m.cpu.gr[5] = uint64_t(INT64_MIN), m.cpu.gr[6] = kD;
  EXEC(m, RXY(0xE384, 4, 0, 6, 0));  // MG 4: 2^126
  CHECK(m.cpu.gr[4] == 0x4000000000000000ull);
  CHECK(m.cpu.gr[5] == 0);
  CHECK(check_of(m, RRF(0xB9EC, 5, 2, 3)) == Pic::Specification);
  CHECK(check_of(m, RXY(0xE384, 3, 0, 6, 0)) == Pic::Specification);
}

TEST_CASE("AGH/SGH/MGH: a sign-extended halfword from storage", "[general_z15]") {
  TestMachine m;
  m.poke<uint16_t>(kD, 0x8000);
  m.cpu.gr[5] = kD;
  m.cpu.gr[1] = 0x8000000000000000ull;
  EXEC(m, RXY(0xE338, 1, 0, 5, 0));  // AGH: overflows downwards
  CHECK(m.cpu.gr[1] == 0x7FFFFFFFFFFF8000ull);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[1] = 5;
  EXEC(m, RXY(0xE339, 1, 0, 5, 0));  // SGH: 5 - (-32768)
  CHECK(m.cpu.gr[1] == 32773);
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[1] = 3;
  EXEC(m, RXY(0xE33C, 1, 0, 5, 0));  // MGH
  CHECK(m.cpu.gr[1] == uint64_t(-98304));
}

TEST_CASE("BIC branches to the doubleword at the operand address when the mask selects the CC",
          "[general_z15]") {
  TestMachine m;
  m.poke<uint64_t>(kD, 0x123456);
  m.cpu.gr[5] = kD;
  m.cpu.cc = 2;
  EXEC(m, RXY(0xE347, 8, 0, 5, 0));  // mask 8 (CC 0): falls through
  CHECK(m.cpu.psw_addr == TestMachine::kCode + 6);
  m.run(RXY(0xE347, 2, 0, 5, 0));  // mask 2 (CC 2): taken
  CHECK(m.cpu.psw_addr == 0x123456);
}

TEST_CASE("Load/store on condition 2: immediates, high words, no access when false", "[general_z15]") {
  TestMachine m;
  m.cpu.cc = 1;
  m.cpu.gr[1] = 0x1111111122222222ull;
  EXEC(m, RIEg(0xEC42, 1, 4, -2));  // LOCHI, mask 4 selects CC 1
  CHECK(m.cpu.gr[1] == 0x11111111FFFFFFFEull);
  EXEC(m, RIEg(0xEC4E, 1, 4, 0x7FFF));  // LOCHHI
  CHECK(m.cpu.gr[1] == 0x00007FFFFFFFFFFEull);
  EXEC(m, RIEg(0xEC46, 1, 8, -1));  // LOCGHI, mask 8: CC 0 only, not taken
  CHECK(m.cpu.gr[1] == 0x00007FFFFFFFFFFEull);
  m.cpu.gr[2] = 0xABCDEF0100000000ull;
  EXEC(m, RRF(0xB9E0, 1, 2, 4));  // LOCFHR
  CHECK(m.cpu.gr[1] == 0xABCDEF01FFFFFFFEull);
  m.cpu.gr[3] = 0x7FF00000;  // unmapped: a false condition must not touch it
  EXEC(m, RSY(0xEBE0, 1, 2, 3, 0));  // LOCFH, mask 2 (CC 2) not selected
  EXEC(m, RSY(0xEBE1, 1, 2, 3, 0));  // STOCFH
  m.cpu.gr[3] = kD;
  EXEC(m, RSY(0xEBE1, 1, 4, 3, 0));
  CHECK(m.peek<uint32_t>(kD) == 0xABCDEF01u);
}

TEST_CASE("LZRF/LZRG/LLZRGF zero the rightmost byte", "[general_z15]") {
  TestMachine m;
  m.poke<uint64_t>(kD, 0x8899AABBCCDDEEFFull);
  m.cpu.gr[5] = kD;
  m.cpu.gr[1] = m.cpu.gr[2] = m.cpu.gr[3] = 0x5555555555555555ull;
  EXEC(m, RXY(0xE33B, 1, 0, 5, 0) + RXY(0xE32A, 2, 0, 5, 0) + RXY(0xE33A, 3, 0, 5, 4));
  CHECK(m.cpu.gr[1] == 0x555555558899AA00ull);
  CHECK(m.cpu.gr[2] == 0x8899AABBCCDDEE00ull);
  CHECK(m.cpu.gr[3] == 0x00000000CCDDEE00ull);
}

TEST_CASE("Miscellaneous-instruction-extensions 3: complemented logic and SELECT", "[general_z15]") {
  TestMachine m;
  m.cpu.gr[2] = 0xF0F0F0F0FFFF0000ull, m.cpu.gr[3] = 0xFF00FF00FFFF0000ull;
  m.cpu.gr[1] = 0x1234567800000000ull;
  EXEC(m, RRF(0xB9E5, 1, 2, 3));  // NCGRK: 2 & ~3
  CHECK(m.cpu.gr[1] == 0x00F000F000000000ull);
  CHECK(m.cpu.cc == 1);
  EXEC(m, RRF(0xB976, 1, 2, 3));  // NORK (32-bit): ~(2 | 3), high half kept
  CHECK(m.cpu.gr[1] == 0x00F000F00000FFFFull);
  CHECK(m.cpu.cc == 1);
  EXEC(m, RRF(0xB975, 1, 2, 3));  // OCRK: 2 | ~3 = all ones
  CHECK(uint32_t(m.cpu.gr[1]) == 0xFFFFFFFFu);
  EXEC(m, RRF(0xB977, 1, 2, 2));  // NXRK of equal operands: all ones
  CHECK(uint32_t(m.cpu.gr[1]) == 0xFFFFFFFFu);
  EXEC(m, RRF(0xB964, 1, 2, 2));  // NNGRK of equal operands: ~2
  CHECK(m.cpu.gr[1] == ~m.cpu.gr[2]);
  m.cpu.gr[4] = 0, m.cpu.gr[5] = 0;
  EXEC(m, RRF(0xB967, 1, 4, 5));  // NXGRK: ~0
  CHECK(m.cpu.gr[1] == ~0ull);
  EXEC(m, RRF(0xB965, 1, 4, 4));  // OCGRK 0 | ~0: not zero
  CHECK(m.cpu.cc == 1);
  EXEC(m, RRF(0xB9F5, 1, 4, 5));  // NCRK: zero
  CHECK(m.cpu.cc == 0);
  m.cpu.cc = 2;
  EXEC(m, RRF(0xB9E3, 6, 2, 3, 2));  // SELGR 6,2,3 mask 2: CC 2 selects R2
  CHECK(m.cpu.gr[6] == m.cpu.gr[2]);
  EXEC(m, RRF(0xB9F0, 6, 4, 3, 8));  // SELR mask 8: R3's low half
  CHECK(m.cpu.gr[6] == 0xF0F0F0F0FFFF0000ull);
  EXEC(m, RRF(0xB9C0, 6, 4, 3, 8));  // SELFHR: R3's high half
  CHECK(m.cpu.gr[6] == 0xFF00FF00FFFF0000ull);
}

TEST_CASE("POPCNT M3 = 8 counts the whole register at z15 and is ignored before", "[general_z15]") {
  TestMachine m;
  m.cpu.gr[2] = 0xFF01000000000003ull;
  EXEC(m, RRF(0xB9E1, 1, 2, 8));
  CHECK(m.cpu.gr[1] == 11);
  m.cpu.set_arch(Generation::Z14);
  EXEC(m, RRF(0xB9E1, 1, 2, 8));
  CHECK(m.cpu.gr[1] == 0x0801000000000002ull);
}

TEST_CASE("MVCRL moves right to left: length from GR0, overlap to the right is a memmove",
          "[general_z15]") {
  TestMachine m;
  for (unsigned k = 0; k < 16; ++k) m.poke<uint8_t>(kD + k, uint8_t(k));
  m.cpu.gr[0] = 0xFFFFFFFFFFFFFF07ull;  // 8 bytes; bits 0-55 ignored
  m.cpu.gr[5] = kD;
  EXEC(m, SSE(0xE50A, 5, 2, 5, 0));  // MVCRL 2(8,5),0(5)
  for (unsigned k = 0; k < 8; ++k) CHECK(m.peek<uint8_t>(kD + 2 + k) == k);
  CHECK(m.peek<uint8_t>(kD + 10) == 10);
  // A destination one byte to the left of the source propagates the rightmost byte,
  // as MVC one byte to the right propagates the leftmost.
  for (unsigned k = 0; k < 16; ++k) m.poke<uint8_t>(kD + k, uint8_t(k));
  m.cpu.gr[0] = 3;
  EXEC(m, SSE(0xE50A, 5, 0, 5, 1));
  CHECK(m.peek<uint32_t>(kD) == 0x04040404u);
  CHECK(m.peek<uint8_t>(kD + 4) == 4);
}

TEST_CASE("LDE loads a short operand into the left half of an FPR and zeroes the right", "[general_z15]") {
  TestMachine m;
  m.poke<uint32_t>(kD, 0x3FC00000);
  m.cpu.gr[5] = kD;
  m.cpu.fpr(3) = 0x123456789ABCDEFull;
  EXEC(m, RXE(0xED24, 3, 0, 5, 0));
  CHECK(m.cpu.fpr(3) == 0x3FC0000000000000ull);
}

TEST_CASE("The z13-z15 general instructions are operation exceptions on older levels", "[general_z15]") {
  TestMachine m;
  m.cpu.set_arch(Generation::Z14);
  CHECK(check_of(m, RRF(0xB9F0, 1, 2, 3, 8)) == Pic::Operation);  // SELR (z15)
  CHECK(check_of(m, SSE(0xE50A, 5, 0, 5, 1)) == Pic::Operation);  // MVCRL (z15)
  m.cpu.set_arch(Generation::Z13);
  CHECK(check_of(m, RRF(0xB9ED, 1, 2, 3)) == Pic::Operation);  // MSGRKC (z14)
  m.cpu.set_arch(Generation::ZEC12);
  CHECK(check_of(m, RIEg(0xEC42, 1, 4, 0)) == Pic::Operation);  // LOCHI (z13)
}
