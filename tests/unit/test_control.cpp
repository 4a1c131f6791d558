#include <catch2/catch.hpp>

#include "harness.h"

using namespace test;

namespace {

struct RecordingSvc : emu::SvcHandler {
  std::vector<unsigned> numbers;
  void supervisor_call(emu::Cpu& c, uint8_t n) override {
    numbers.push_back(n);
    c.gr[2] = 100 + n;
  }
};

}  // namespace

TEST_CASE("SVC hands its number to the layer above", "[control]") {
  TestMachine m;
  RecordingSvc svc;
  m.cpu.set_svc_handler(&svc);
  auto r = m.run(I(0x0A, 4) + I(0x0A, 0));
  CHECK(r.reason != emu::StopReason::ProgramCheck);
  CHECK(svc.numbers == std::vector<unsigned>{4, 0});
  CHECK(m.cpu.gr[2] == 100);
}

TEST_CASE("SVC without a control program is an operation exception", "[control]") {
  TestMachine m;
  auto r = m.run(I(0x0A, 1));
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Operation);
}

TEST_CASE("EX runs its target with the length from a register", "[control]") {
  TestMachine m;
  const uint64_t d = TestMachine::kData;
  for (int k = 0; k < 16; ++k) m.poke<uint8_t>(d + k, uint8_t(0x41 + k));
  m.cpu.gr[1] = 4;  // MVC length code 4: five bytes
  m.cpu.gr[2] = d;
  // EX r1,0(r3) with r3 -> the MVC; J over the MVC; MVC 0x100(1,r2),0(r2).
  Bytes code = RX(0x44, 1, 0, 3, 0) + RI(0xA74, 15, 5) + SS(0xD2, 0, 2, 0x100, 2, 0);
  m.cpu.gr[3] = TestMachine::kCode + 8;
  auto r = m.run(code);
  REQUIRE(r.reason != emu::StopReason::ProgramCheck);
  CHECK(m.peek<uint32_t>(d + 0x100) == 0x41424344);
  CHECK(m.peek<uint8_t>(d + 0x104) == 0x45);
  CHECK(m.peek<uint8_t>(d + 0x105) == 0);
}

TEST_CASE("EXRL of a branch-and-save links past the EXRL", "[control]") {
  TestMachine m;
  // 0: EXRL r0,+12 ; 6: J +8 ; 10: (pad) ; 12: BRAS r14,+6 -> 18 ; 16 pad ; 18: end
  Bytes code = RIL(0xC60, 0, 6) + RI(0xA74, 15, 6) + Bytes{0x07, 0x00} + RI(0xA75, 14, 3) + Bytes{0x07, 0x00};
  auto r = m.run(code);
  REQUIRE(r.reason != emu::StopReason::ProgramCheck);
  CHECK(m.cpu.gr[14] == TestMachine::kCode + 6);  // the link is the instruction after EXRL
  CHECK(m.cpu.psw_addr == TestMachine::kCode + 18);
}

TEST_CASE("EX of EX is an execute exception", "[control]") {
  TestMachine m;
  m.cpu.gr[3] = TestMachine::kCode;
  auto r = m.run(RX(0x44, 0, 0, 3, 0));  // executes itself
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Execute);
}

TEST_CASE("STCK follows the simulated clock, not the host's", "[control]") {
  TestMachine a, b;
  a.cpu.gr[2] = b.cpu.gr[2] = TestMachine::kData;
  Bytes code = S(0xB205, 2, 0) + RI(0xA7B, 5, 1) + S(0xB205, 2, 8);
  a.run(code);
  b.run(code);
  uint64_t t0 = a.peek<uint64_t>(TestMachine::kData), t1 = a.peek<uint64_t>(TestMachine::kData + 8);
  CHECK(t1 > t0);
  CHECK(t0 == b.peek<uint64_t>(TestMachine::kData));  // same cycles, same clock
  // The stores see 20 and 41 cycles (STCK costs 20, AGHI 1): at 5.2 GHz and 4096 TOD
  // units per microsecond that is 15.75 and 32.29 units, truncated to 15 and 32.
  CHECK(t1 - t0 == 17);
  CHECK(a.cpu.cc == 0);
}

TEST_CASE("IPM, SPM and EPSW expose the condition code and program mask", "[control]") {
  TestMachine m;
  m.cpu.cc = 2;
  m.cpu.gr[1] = 0xFFFFFFFFFFFFFFFFull;
  m.run(RRE(0xB222, 1, 0));  // IPM
  CHECK(m.cpu.gr[1] == 0xFFFFFFFF20FFFFFFull);  // bits 32-33 zero, CC 2 in 34-35, mask 0
  m.cpu.gr[4] = 0x1C000000;  // CC 1, program mask 0xC
  m.run(RR(0x04, 4, 0));     // SPM
  CHECK(m.cpu.cc == 1);
  CHECK(m.cpu.prog_mask == 0xC);
  m.run(RRE(0xB98D, 6, 7));  // EPSW
  CHECK(m.cpu.r32(6) == 0x07051C01);
  CHECK(m.cpu.r32(7) == 0x80000000);
}

TEST_CASE("TAM, SAM64: the core runs in 64-bit addressing mode", "[control]") {
  TestMachine m;
  m.run(E(0x010E) + E(0x010B));
  CHECK(m.cpu.cc == 3);
}

TEST_CASE("LCBB counts to the block boundary", "[control]") {
  TestMachine m;
  m.cpu.gr[2] = 0x1000 - 5;
  m.run(RXE(0xE727, 1, 0, 2, 0, 6));  // 4K blocks: 5 bytes left
  CHECK(m.cpu.r32(1) == 5);
  CHECK(m.cpu.cc == 3);
  m.cpu.gr[2] = 0x1000;
  m.run(RXE(0xE727, 1, 0, 2, 0, 0));  // at a boundary: capped at 16
  CHECK(m.cpu.r32(1) == 16);
  CHECK(m.cpu.cc == 0);
  auto r = m.run(RXE(0xE727, 1, 0, 2, 0, 7));
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Specification);
}

TEST_CASE("TP tells valid, bad-sign and bad-digit packed fields apart", "[control]") {
  TestMachine m;
  const uint64_t d = TestMachine::kData;
  m.cpu.gr[3] = d;
  auto tp = [&](uint32_t field) {
    m.poke<uint32_t>(d, field);
    m.run(Bytes{0xEB, 0x30, 0x30, 0x00, 0x00, 0xC0});  // tp 0(4,%r3)
    return m.cpu.cc;
  };
  CHECK(tp(0x1234567C) == 0);
  CHECK(tp(0x12345679) == 1);
  CHECK(tp(0x1A34567C) == 2);
  CHECK(tp(0x1A345671) == 3);
}

TEST_CASE("machine.arch: an instruction of a later facility is an operation exception, run or EXecuted", "[control][arch]") {
  // ARK r1,r2,r3 (distinct-operands, z196) on a z10, directly and as the target of EX.
  const Bytes ark = {0xB9, 0xF8, 0x30, 0x12};
  TestMachine direct;
  direct.cpu.set_arch(emu::Generation::Z10);
  auto r = direct.run(ark);
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Operation);

  TestMachine executed;
  executed.cpu.set_arch(emu::Generation::Z10);
  executed.cpu.gr[3] = TestMachine::kCode + 8;
  // EX r0,0(r3) -> the ARK at +8; J over it.
  r = executed.run(RX(0x44, 0, 0, 3, 0) + RI(0xA74, 15, 4) + ark);
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Operation);

  TestMachine z196;
  z196.cpu.set_arch(emu::Generation::Z196);
  z196.cpu.gr[2] = 40, z196.cpu.gr[3] = 2;
  r = z196.run(ark);
  REQUIRE(r.reason != emu::StopReason::ProgramCheck);
  CHECK(z196.cpu.gr[1] == 42);
}

TEST_CASE("STFLE stores the facility list of the machine's level, as much as GR0 allows", "[control][arch]") {
  auto bit = [](unsigned b) { return 1ull << (63 - b); };
  auto bit2 = [](unsigned b) { return 1ull << (63 - (b - 64)); };
  auto bit3 = [](unsigned b) { return 1ull << (63 - (b - 128)); };
  // z196: N3, z/Architecture installed and active, DAT-enhancement 1 and IDTE's selective
  // clearing (3, 4), STFLE, ETF2, the message-security assist (17), long displacement (and
  // its high performance), extended immediate, ETF3, store-clock-fast, CSST, GIE,
  // execute-extensions, bit 41's FP facilities, bit 45's z196 facilities; MSA extensions
  // 3 and 4 (76, 77) in the second doubleword. Not bit 37, the floating-point extension:
  // its DFP instructions are not in the table.
  const uint64_t z196 = bit(0) | bit(1) | bit(2) | bit(3) | bit(4) | bit(7) | bit(16) | bit(17) | bit(18) |
                        bit(19) | bit(21) | bit(22) | bit(25) | bit(32) | bit(34) | bit(35) | bit(41) | bit(45);
  TestMachine m;
  m.cpu.set_arch(emu::Generation::Z196);
  m.cpu.gr[0] = 0;  // room for one doubleword
  m.cpu.gr[2] = TestMachine::kData;
  m.poke<uint64_t>(TestMachine::kData + 8, 0xEEEE);
  auto r = m.run(S(0xB2B0, 2, 0));
  REQUIRE(r.reason != emu::StopReason::ProgramCheck);
  CHECK(m.peek<uint64_t>(TestMachine::kData) == z196);
  CHECK(m.peek<uint64_t>(TestMachine::kData + 8) == 0xEEEE);  // only what GR0 gave room for
  CHECK(m.cpu.gr[0] == 1);  // the list is two doublewords
  CHECK(m.cpu.cc == 3);     // and did not fit
  m.cpu.gr[0] = 1;
  r = m.run(S(0xB2B0, 2, 0));
  REQUIRE(r.reason != emu::StopReason::ProgramCheck);
  CHECK(m.peek<uint64_t>(TestMachine::kData + 8) == (bit2(76) | bit2(77)));
  CHECK(m.cpu.cc == 0);

  // z10 has no bit 45 nor MSA 4 (77); zEC12 adds bit 49 and MSA 5 (57); z13 load/store-
  // on-condition 2 (53) and the vector facility (129, so the list is three doublewords);
  // z14 miscellaneous-instruction-extensions 2 (58), vector enhancements 1 (135) and MSA 8
  // (146); z15 miscellaneous-instruction-extensions 3 (61) and vector enhancements 2 (148).
  CHECK(emu::facility_list(emu::Generation::Z10) == std::vector<uint64_t>{z196 & ~bit(45), bit2(76)});
  const uint64_t zec12 = z196 | bit(49) | bit(57);
  const uint64_t msa34 = bit2(76) | bit2(77);
  CHECK(emu::facility_list(emu::Generation::ZEC12) == std::vector<uint64_t>{zec12, msa34});
  CHECK(emu::facility_list(emu::Generation::Z13) == std::vector<uint64_t>{zec12 | bit(53), msa34, bit3(129)});
  CHECK(emu::facility_list(emu::Generation::Z14) ==
        std::vector<uint64_t>{zec12 | bit(53) | bit(58), msa34, bit3(129) | bit3(135) | bit3(146)});
  CHECK(emu::facility_list(emu::Generation::Z15) ==
        std::vector<uint64_t>{zec12 | bit(53) | bit(58) | bit(61), msa34, bit3(129) | bit3(135) | bit3(146) | bit3(148)});
  // Instruction-execution protection (130, z14 on) is system mode's only: its DAT has
  // the IEP bit, run's and exec's spaces do not (the lists above stay theirs).
  CHECK(emu::facility_list(emu::Generation::Z15, true) ==
        std::vector<uint64_t>{zec12 | bit(53) | bit(58) | bit(61), msa34,
                              bit3(129) | bit3(130) | bit3(135) | bit3(146) | bit3(148)});
  CHECK(emu::facility_list(emu::Generation::Z13, true) == emu::facility_list(emu::Generation::Z13));

  TestMachine misaligned;
  misaligned.cpu.gr[2] = TestMachine::kData + 4;
  r = misaligned.run(S(0xB2B0, 2, 0));
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Specification);
}
