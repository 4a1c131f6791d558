#include <catch2/catch.hpp>

#include "harness.h"

using namespace test;

namespace {

constexpr uint64_t kCode = TestMachine::kCode;
// A branch target outside the test code (still in the mapped code region): the
// harness stops as soon as the PSW gets there, so psw_addr tells taken or not taken.
constexpr uint64_t kAway = kCode + 0x200;

// RSI (BRXH, BRXLE): op, R1 R3, 16-bit relative offset in halfwords.
Bytes RSI(uint8_t op, unsigned r1, unsigned r3, int ri) {
  return {op, uint8_t(r1 << 4 | r3), uint8_t(uint16_t(ri) >> 8), uint8_t(ri)};
}
// RRS (CRB ...): R1 R2, B4 D4, M3.
Bytes RRS(uint16_t op, unsigned r1, unsigned r2, unsigned b4, unsigned d4, unsigned m3) {
  return RIE(op, r1, r2, int(b4 << 12 | d4), uint8_t(m3 << 4));
}
// RIS (CIB ...): R1 M3, B4 D4, I2.
Bytes RIS(uint16_t op, unsigned r1, unsigned m3, unsigned b4, unsigned d4, uint8_t i2) {
  return RIE(op, r1, m3, int(b4 << 12 | d4), i2);
}

bool ok(const emu::RunResult& r) { return r.reason != emu::StopReason::ProgramCheck; }

}  // namespace

TEST_CASE("BRC and BRCL take the branch exactly when the mask selects the CC", "[branch]") {
  TestMachine m;
  for (unsigned mask = 0; mask < 16; ++mask) {
    for (uint8_t cc = 0; cc < 4; ++cc) {
      INFO("mask " << mask << " cc " << int(cc));
      bool taken = (mask == 15) || (mask & (8 >> cc));
      m.cpu.cc = cc;
      REQUIRE(ok(m.run(RI(0xA74, mask, 0x100))));  // BRC mask,*+0x200
      CHECK(m.cpu.psw_addr == (taken ? kAway : kCode + 4));
      CHECK(m.cpu.cc == cc);
      m.run(RIL(0xC04, mask, -0x800));  // BRCL backwards, out of the code
      CHECK(m.cpu.psw_addr == (taken ? kCode - 0x1000 : kCode + 6));
    }
  }
  m.cpu.cc = 0;
  m.run(RI(0xA74, 8, 0x100));
  CHECK(m.cpu.psw_addr == kAway);
  m.cpu.cc = 1;
  m.run(RI(0xA74, 8, 0x100));  // mask 8 selects only CC 0
  CHECK(m.cpu.psw_addr == kCode + 4);
  m.cpu.cc = 3;
  m.run(RI(0xA74, 1, 0x100));  // mask 1 selects CC 3
  CHECK(m.cpu.psw_addr == kAway);
  m.run(RI(0xA74, 0, 0x100));  // mask 0: never
  CHECK(m.cpu.psw_addr == kCode + 4);
}

TEST_CASE("BCR and BC branch to the register / effective address", "[branch]") {
  TestMachine m;
  m.cpu.gr[5] = kAway;
  m.cpu.cc = 2;
  m.run(RR(0x07, 2, 5));  // BCR 2,r5
  CHECK(m.cpu.psw_addr == kAway);
  m.run(RR(0x07, 15, 0));  // BCR 15,0: serialization, no branch
  CHECK(m.cpu.psw_addr == kCode + 2);
  m.run(RR(0x07, 0, 5));  // mask 0: no branch
  CHECK(m.cpu.psw_addr == kCode + 2);
  m.cpu.gr[6] = 0x100, m.cpu.gr[7] = kCode + 0x20;
  m.run(RX(0x47, 15, 6, 7, 0x10));  // BC 15,0x10(r6,r7)
  CHECK(m.cpu.psw_addr == kCode + 0x130);
  m.run(RX(0x47, 4, 6, 7, 0x10));  // CC 2 not selected by mask 4
  CHECK(m.cpu.psw_addr == kCode + 4);
}

TEST_CASE("serializing BCR costs more than a no-op BCR", "[branch]") {
  TestMachine m;
  uint64_t c0 = m.cpu.cycles;
  m.run(RR(0x07, 0, 0));
  uint64_t nop = m.cpu.cycles - c0;
  c0 = m.cpu.cycles;
  m.run(RR(0x07, 15, 0));
  uint64_t full = m.cpu.cycles - c0;
  c0 = m.cpu.cycles;
  m.run(RR(0x07, 14, 0));
  uint64_t fast = m.cpu.cycles - c0;
  CHECK(nop == 1);
  CHECK(full == 17);
  CHECK(fast == 5);
}

TEST_CASE("branch and link / save store the updated PSW address", "[branch]") {
  TestMachine m;
  m.cpu.gr[15] = kAway;
  m.cpu.gr[14] = 0xDEADBEEFDEADBEEFull;
  m.run(RR(0x05, 14, 15));  // BALR 14,15
  CHECK(m.cpu.gr[14] == kCode + 2);  // 64-bit mode: the whole address
  CHECK(m.cpu.psw_addr == kAway);
  m.cpu.gr[14] = 0;
  m.run(RR(0x0D, 14, 0));  // BASR 14,0: link, no branch
  CHECK(m.cpu.gr[14] == kCode + 2);
  CHECK(m.cpu.psw_addr == kCode + 2);
  m.cpu.gr[14] = 0;
  m.run(RR(0x05, 14, 0));  // BALR 14,0 likewise
  CHECK(m.cpu.gr[14] == kCode + 2);
  CHECK(m.cpu.psw_addr == kCode + 2);
  m.cpu.gr[3] = kAway;
  m.run(RR(0x0D, 3, 3));  // BASR 3,3: target read before the link replaces it
  CHECK(m.cpu.psw_addr == kAway);
  CHECK(m.cpu.gr[3] == kCode + 2);
  m.cpu.gr[4] = kCode + 0x300;
  m.run(RX(0x4D, 4, 0, 4, 8));  // BAS 4,8(r4)
  CHECK(m.cpu.psw_addr == kCode + 0x308);
  CHECK(m.cpu.gr[4] == kCode + 4);
  m.cpu.gr[4] = kCode + 0x300;
  m.run(RX(0x45, 4, 4, 0, 0x10));  // BAL 4,0x10(r4)
  CHECK(m.cpu.psw_addr == kCode + 0x310);
  CHECK(m.cpu.gr[4] == kCode + 4);
  m.run(RI(0xA75, 14, 0x100));  // BRAS
  CHECK(m.cpu.gr[14] == kCode + 4);
  CHECK(m.cpu.psw_addr == kAway);
  m.run(RIL(0xC05, 14, 0x10000));  // BRASL
  CHECK(m.cpu.gr[14] == kCode + 6);
  CHECK(m.cpu.psw_addr == kCode + 0x20000);
}

TEST_CASE("branch on count decrements first and branches on nonzero", "[branch]") {
  TestMachine m;
  m.cpu.gr[1] = 0xAAAAAAAA00000002ull;
  m.run(RI(0xA76, 1, 0x100));  // BRCT: 2 -> 1, taken
  CHECK(m.cpu.gr[1] == 0xAAAAAAAA00000001ull);
  CHECK(m.cpu.psw_addr == kAway);
  m.run(RI(0xA76, 1, 0x100));  // 1 -> 0, not taken
  CHECK(m.cpu.gr[1] == 0xAAAAAAAA00000000ull);
  CHECK(m.cpu.psw_addr == kCode + 4);
  m.run(RI(0xA76, 1, 0x100));  // 0 -> -1 (bits 32-63 only), taken
  CHECK(m.cpu.gr[1] == 0xAAAAAAAAFFFFFFFFull);
  CHECK(m.cpu.psw_addr == kAway);

  m.cpu.gr[2] = 1;
  m.run(RI(0xA77, 2, 0x100));  // BRCTG: 1 -> 0
  CHECK(m.cpu.gr[2] == 0);
  CHECK(m.cpu.psw_addr == kCode + 4);
  m.run(RI(0xA77, 2, 0x100));  // 0 -> -1 over all 64 bits
  CHECK(m.cpu.gr[2] == ~0ull);
  CHECK(m.cpu.psw_addr == kAway);

  m.cpu.gr[3] = 5, m.cpu.gr[4] = kAway;
  m.run(RR(0x06, 3, 0));  // BCTR 3,0: counts, never branches
  CHECK(m.cpu.gr[3] == 4);
  CHECK(m.cpu.psw_addr == kCode + 2);
  m.run(RR(0x06, 3, 4));  // BCTR 3,4
  CHECK(m.cpu.gr[3] == 3);
  CHECK(m.cpu.psw_addr == kAway);
  m.cpu.gr[3] = 0x100000000ull;  // BCTGR sees all 64 bits: not zero after decrement
  m.run(RRE(0xB946, 3, 4));
  CHECK(m.cpu.gr[3] == 0xFFFFFFFFull);
  CHECK(m.cpu.psw_addr == kAway);
  m.cpu.gr[3] = 1;
  m.run(RRE(0xB946, 3, 4));
  CHECK(m.cpu.psw_addr == kCode + 4);

  // BCT with R1 as the base: the branch address uses the value before the decrement.
  m.cpu.gr[5] = kCode + 0x300;
  m.run(RX(0x46, 5, 0, 5, 0x10));
  CHECK(m.cpu.gr[5] == kCode + 0x2FF);
  CHECK(m.cpu.psw_addr == kCode + 0x310);
  m.cpu.gr[5] = kCode + 0x300;
  m.run(RXY(0xE346, 5, 0, 5, -0x100));  // BCTG likewise
  CHECK(m.cpu.gr[5] == kCode + 0x2FF);
  CHECK(m.cpu.psw_addr == kCode + 0x200);
}

TEST_CASE("a BRCT loop runs its count", "[branch]") {
  TestMachine m;
  m.cpu.gr[2] = 0;
  m.cpu.gr[1] = 5;
  // loop: LA r2,3(r2) ; BRCT r1,loop
  auto r = m.run(RX(0x41, 2, 0, 2, 3) + RI(0xA76, 1, -2));
  REQUIRE(ok(r));
  CHECK(m.cpu.gr[2] == 15);
  CHECK(m.cpu.gr[1] == 0);
  CHECK(m.cpu.psw_addr == kCode + 8);
}

TEST_CASE("BXLE and BXH loops with an even-odd pair", "[branch]") {
  TestMachine m;
  // r1 index 0, r2 increment 4, r3 limit 16. loop: LA r5,1(r5) ; BXLE r1,r2,loop
  m.cpu.gr[1] = 0, m.cpu.gr[2] = 4, m.cpu.gr[3] = 16, m.cpu.gr[5] = 0, m.cpu.gr[6] = kCode;
  REQUIRE(ok(m.run(RX(0x41, 5, 0, 5, 1) + RS(0x87, 1, 2, 6, 0))));
  CHECK(m.cpu.gr[5] == 5);  // body at index 0,4,8,12,16
  CHECK(m.cpu.gr[1] == 20);
  // Counting down with BXH: r1 = 12, increment -4 (r2), compare 0 (r3).
  m.cpu.gr[1] = 12, m.cpu.gr[2] = uint64_t(-4), m.cpu.gr[3] = 0, m.cpu.gr[5] = 0;
  REQUIRE(ok(m.run(RX(0x41, 5, 0, 5, 1) + RS(0x86, 1, 2, 6, 0))));
  CHECK(m.cpu.gr[5] == 3);  // body at 12, 8, 4; 4-4 = 0 is not high
  CHECK(m.cpu.r32(1) == 0);
  // Relative forms: same loops.
  m.cpu.gr[1] = 0, m.cpu.gr[2] = 4, m.cpu.gr[3] = 16, m.cpu.gr[5] = 0;
  REQUIRE(ok(m.run(RX(0x41, 5, 0, 5, 1) + RSI(0x85, 1, 2, -2))));  // BRXLE
  CHECK(m.cpu.gr[5] == 5);
  m.cpu.gr[1] = 12, m.cpu.gr[2] = uint64_t(-4), m.cpu.gr[3] = 0, m.cpu.gr[5] = 0;
  REQUIRE(ok(m.run(RX(0x41, 5, 0, 5, 1) + RSI(0x84, 1, 2, -2))));  // BRXH
  CHECK(m.cpu.gr[5] == 3);
  m.cpu.gr[1] = 0, m.cpu.gr[2] = 4, m.cpu.gr[3] = 16, m.cpu.gr[5] = 0;
  REQUIRE(ok(m.run(RX(0x41, 5, 0, 5, 1) + RIE(0xEC45, 1, 2, -2, 0))));  // BRXLG
  CHECK(m.cpu.gr[5] == 5);
  m.cpu.gr[1] = 12, m.cpu.gr[2] = uint64_t(-4), m.cpu.gr[3] = 0, m.cpu.gr[5] = 0;
  REQUIRE(ok(m.run(RX(0x41, 5, 0, 5, 1) + RIE(0xEC44, 1, 2, -2, 0))));  // BRXHG
  CHECK(m.cpu.gr[5] == 3);
}

TEST_CASE("branch on index: odd R3, R1 = compare register, signed 32/64-bit", "[branch]") {
  TestMachine m;
  // R3 odd: increment and compare value are the same register.
  m.cpu.gr[1] = 10, m.cpu.gr[3] = 5;
  m.run(RS(0x86, 1, 3, 0, 0x300));  // BXH 1,3: 15 > 5
  CHECK(m.cpu.psw_addr == 0x300);
  CHECK(m.cpu.gr[1] == 15);
  // R1 is the compare register: the compare uses its value before the sum replaces it.
  m.cpu.gr[2] = 1, m.cpu.gr[3] = 5;
  m.run(RS(0x87, 3, 2, 0, 0x300));  // BXLE 3,2: 6 <= 5 is false
  CHECK(m.cpu.gr[3] == 6);
  CHECK(m.cpu.psw_addr == kCode + 4);
  m.cpu.gr[3] = 5;
  m.run(RS(0x86, 3, 2, 0, 0x300));  // BXH 3,2: 6 > 5
  CHECK(m.cpu.psw_addr == 0x300);
  // R1 = R3 (even): increment is R1 itself, compare R1+1.
  m.cpu.gr[4] = 3, m.cpu.gr[5] = 5;
  m.run(RS(0x87, 4, 4, 0, 0x300));  // 6 <= 5? no
  CHECK(m.cpu.gr[4] == 6);
  CHECK(m.cpu.psw_addr == kCode + 4);
  // 32-bit: the sum wraps to negative, compared signed; high halves untouched.
  m.cpu.gr[1] = 0x123456787FFFFFFFull, m.cpu.gr[2] = 1, m.cpu.gr[3] = 0;
  m.run(RS(0x86, 1, 2, 0, 0x300));  // BXH: 0x80000000 is negative, not high
  CHECK(m.cpu.gr[1] == 0x1234567880000000ull);
  CHECK(m.cpu.psw_addr == kCode + 4);
  // 64-bit forms use all 64 bits.
  m.cpu.gr[1] = 0x7FFFFFFF, m.cpu.gr[2] = 1, m.cpu.gr[3] = 0;
  m.run(RSY(0xEB44, 1, 2, 0, 0x300));  // BXHG: 0x80000000 > 0
  CHECK(m.cpu.gr[1] == 0x80000000ull);
  CHECK(m.cpu.psw_addr == 0x300);
  m.cpu.gr[1] = 0, m.cpu.gr[2] = uint64_t(-1), m.cpu.gr[3] = 0;
  m.run(RSY(0xEB45, 1, 2, 0, 0x300));  // BXLEG: -1 <= 0
  CHECK(m.cpu.gr[1] == ~0ull);
  CHECK(m.cpu.psw_addr == 0x300);
}

TEST_CASE("compare and branch: signed versus unsigned on the same bits", "[branch]") {
  TestMachine m;
  m.cpu.gr[1] = 0xFFFFFFFF;  // 32-bit -1, or 4294967295
  m.cpu.gr[2] = 1;
  m.cpu.cc = 3;
  m.run(RIE(0xEC76, 1, 2, 0x100, 4 << 4));  // CRJ low: -1 < 1
  CHECK(m.cpu.psw_addr == kAway);
  m.run(RIE(0xEC77, 1, 2, 0x100, 4 << 4));  // CLRJ low: no, it is high
  CHECK(m.cpu.psw_addr == kCode + 6);
  m.run(RIE(0xEC77, 1, 2, 0x100, 2 << 4));  // CLRJ high
  CHECK(m.cpu.psw_addr == kAway);
  m.run(RIE(0xEC64, 1, 2, 0x100, 2 << 4));  // CGRJ high: 0xFFFFFFFF > 1 in 64 bits
  CHECK(m.cpu.psw_addr == kAway);
  m.cpu.gr[3] = ~0ull;
  m.run(RIE(0xEC64, 3, 2, 0x100, 4 << 4));  // CGRJ low: -1 < 1
  CHECK(m.cpu.psw_addr == kAway);
  m.run(RIE(0xEC65, 3, 2, 0x100, 4 << 4));  // CLGRJ low: no
  CHECK(m.cpu.psw_addr == kCode + 6);
  m.run(RIE(0xEC7E, 1, 8, 0x100, 0xFF));  // CIJ r1,-1 equal
  CHECK(m.cpu.psw_addr == kAway);
  m.run(RIE(0xEC7F, 1, 8, 0x100, 0xFF));  // CLIJ r1,255 equal? no: 0xFFFFFFFF > 255
  CHECK(m.cpu.psw_addr == kCode + 6);
  m.run(RIE(0xEC7F, 1, 2, 0x100, 0xFF));  // CLIJ high
  CHECK(m.cpu.psw_addr == kAway);
  m.cpu.gr[4] = 200;
  m.run(RIE(0xEC7D, 4, 8, 0x100, 200));  // CLGIJ r4,200 equal (unsigned 8-bit immediate)
  CHECK(m.cpu.psw_addr == kAway);
  m.run(RIE(0xEC7C, 4, 8, 0x100, 200));  // CGIJ r4,-56 equal? no
  CHECK(m.cpu.psw_addr == kCode + 6);
  m.run(RIE(0xEC7C, 4, 2, 0x100, 200));  // CGIJ high: 200 > -56
  CHECK(m.cpu.psw_addr == kAway);
  m.run(RIE(0xEC7E, 4, 14, 0x100, 0));  // CIJ mask 14 (any relation)
  CHECK(m.cpu.psw_addr == kAway);
  m.run(RIE(0xEC7E, 4, 1, 0x100, 0));  // mask 1 alone selects nothing
  CHECK(m.cpu.psw_addr == kCode + 6);
  m.run(RIE(0xEC76, 1, 2, -0x800, 8 << 4));  // CRJ not equal, negative offset unused
  CHECK(m.cpu.psw_addr == kCode + 6);
  m.run(RIE(0xEC76, 1, 1, -0x800, 8 << 4));  // equal to itself, backwards
  CHECK(m.cpu.psw_addr == kCode - 0x1000);
  CHECK(m.cpu.cc == 3);  // compare and branch leaves the CC alone
}

TEST_CASE("compare and branch with a base-displacement target", "[branch]") {
  TestMachine m;
  m.cpu.gr[1] = 0x80000000;  // 32-bit negative
  m.cpu.gr[2] = 0x7FFFFFFF;
  m.cpu.gr[9] = kCode + 0x400;
  m.run(RRS(0xECF6, 1, 2, 9, 0x10, 4));  // CRB low
  CHECK(m.cpu.psw_addr == kCode + 0x410);
  m.run(RRS(0xECF7, 1, 2, 9, 0x10, 4));  // CLRB low? no
  CHECK(m.cpu.psw_addr == kCode + 6);
  m.run(RRS(0xECF7, 1, 2, 9, 0x20, 2));  // CLRB high
  CHECK(m.cpu.psw_addr == kCode + 0x420);
  m.run(RRS(0xECE4, 1, 2, 9, 0x30, 2));  // CGRB: 0x80000000 > 0x7FFFFFFF in 64 bits
  CHECK(m.cpu.psw_addr == kCode + 0x430);
  m.cpu.gr[3] = ~0ull;
  m.run(RRS(0xECE5, 3, 2, 9, 0x30, 2));  // CLGRB high
  CHECK(m.cpu.psw_addr == kCode + 0x430);
  m.run(RIS(0xECFE, 1, 4, 9, 0x40, 0x80));  // CIB r1,-128 low
  CHECK(m.cpu.psw_addr == kCode + 0x440);
  m.run(RIS(0xECFF, 1, 4, 9, 0x40, 0x80));  // CLIB r1,128 low? no
  CHECK(m.cpu.psw_addr == kCode + 6);
  m.run(RIS(0xECFC, 3, 8, 9, 0x50, 0xFF));  // CGIB r3,-1 equal
  CHECK(m.cpu.psw_addr == kCode + 0x450);
  m.run(RIS(0xECFD, 3, 8, 9, 0x50, 0xFF));  // CLGIB r3,255 equal? no
  CHECK(m.cpu.psw_addr == kCode + 6);
  m.run(RIS(0xECFD, 3, 2, 9, 0x50, 0xFF));  // CLGIB high
  CHECK(m.cpu.psw_addr == kCode + 0x450);
}

TEST_CASE("compare and trap raises a data exception when the relation is selected", "[branch]") {
  TestMachine m;
  m.cpu.gr[1] = 0xFFFFFFFF, m.cpu.gr[2] = 1;
  auto r = m.run(RRF(0xB972, 1, 2, 4));  // CRT low: -1 < 1, trap
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Data);
  CHECK(r.check.interrupt.dxc == 0xFF);  // compare and trap, also in FPC byte 2
  CHECK(m.cpu.fpc == 0x0000FF00u);
  CHECK(r.check.mnemonic == "CRT");
  CHECK(r.check.interrupt.dxc == 0xFF);  // compare and trap
  CHECK(m.cpu.fpc == 0x0000FF00);        // the DXC in byte 2 of the FPC, as Linux reads it
  CHECK(ok(m.run(RRF(0xB973, 1, 2, 4))));  // CLRT low: no trap
  CHECK(m.cpu.psw_addr == kCode + 4);
  r = m.run(RRF(0xB973, 1, 2, 2));  // CLRT high: trap
  CHECK(r.reason == emu::StopReason::ProgramCheck);
  CHECK(ok(m.run(RRF(0xB960, 1, 2, 4))));  // CGRT: 0xFFFFFFFF is high in 64 bits
  r = m.run(RRF(0xB960, 1, 2, 2));
  CHECK(r.check.interrupt.code == emu::Pic::Data);
  m.cpu.gr[3] = ~0ull;
  CHECK(ok(m.run(RRF(0xB961, 3, 2, 4))));  // CLGRT
  CHECK(m.run(RRF(0xB961, 3, 2, 2)).check.interrupt.code == emu::Pic::Data);
  CHECK(m.run(RIE(0xEC72, 1, 0, -1, 8 << 4)).check.interrupt.code == emu::Pic::Data);  // CIT r1,-1 equal
  CHECK(ok(m.run(RIE(0xEC72, 1, 0, -1, 6 << 4))));  // not low or high
  CHECK(m.run(RIE(0xEC70, 3, 0, -1, 8 << 4)).check.interrupt.code == emu::Pic::Data);  // CGIT
  m.cpu.gr[4] = 60000;
  CHECK(m.run(RIE(0xEC73, 4, 0, 60000, 8 << 4)).check.interrupt.code == emu::Pic::Data);  // CLFIT unsigned 16
  CHECK(ok(m.run(RIE(0xEC73, 4, 0, 60000, 6 << 4))));
  CHECK(m.run(RIE(0xEC71, 4, 0, 60000, 8 << 4)).check.interrupt.code == emu::Pic::Data);  // CLGIT
  m.cpu.gr[4] = uint64_t(int64_t(int16_t(60000)));  // the sign-extended reading must not match
  CHECK(ok(m.run(RIE(0xEC71, 4, 0, 60000, 8 << 4))));
  CHECK(ok(m.run(RRF(0xB972, 1, 2, 0))));  // mask 0 never traps
}
