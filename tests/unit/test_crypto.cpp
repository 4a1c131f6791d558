// The message-security assist (isa/crypto.cpp): each CPACF instruction's query function
// and the program checks before it [Principles of Operation, chapter 7, "Message-Security
// Assist"]. PCKMO is privileged: its query runs in system mode (test_system.cpp).
#include <catch2/catch.hpp>

#include "emu/isa/facility.h"
#include "harness.h"

using namespace test;
using emu::Pic;

namespace {

// Which operand fields the instruction checks (even, not 0), and whether GR0 bit 56 (the
// modifier) means something to it.
struct Cpacf {
  const char* mnemonic;
  uint16_t opcode;
  bool rrf;  // KMCTR and KMA have an R3 field (RRF-b)
  bool r1, r2, r3;
  bool modifier_allowed;
  emu::Generation first;
};

constexpr Cpacf kUnprivileged[] = {
    {"KMAC", 0xB91E, false, false, true, false, false, emu::Generation::Z990},
    {"KM", 0xB92E, false, true, true, false, true, emu::Generation::Z990},
    {"KMC", 0xB92F, false, true, true, false, true, emu::Generation::Z990},
    {"KIMD", 0xB93E, false, false, true, false, false, emu::Generation::Z990},
    {"KLMD", 0xB93F, false, false, true, false, false, emu::Generation::Z990},
    {"KMF", 0xB92A, false, true, true, false, true, emu::Generation::Z196},
    {"KMO", 0xB92B, false, true, true, false, true, emu::Generation::Z196},
    {"PCC", 0xB92C, false, false, false, false, false, emu::Generation::Z196},
    {"KMCTR", 0xB92D, true, true, true, true, true, emu::Generation::Z196},
    {"PRNO", 0xB93C, false, true, true, false, true, emu::Generation::ZEC12},
    {"KMA", 0xB929, true, true, true, true, true, emu::Generation::Z14},
};

Bytes encode(const Cpacf& d, unsigned r1, unsigned r2, unsigned r3) {
  return d.rrf ? RRF(d.opcode, r1, r2, r3) : RRE(d.opcode, r1, r2);
}

// The instruction with good operand fields (R1 2, R2 4, R3 6), GR0 `gr0`, GR1 `gr1`.
emu::RunResult run_query(TestMachine& m, const Cpacf& d, uint64_t gr0, uint64_t gr1, unsigned r1 = 2,
                         unsigned r2 = 4, unsigned r3 = 6) {
  m.cpu.gr[0] = gr0, m.cpu.gr[1] = gr1;
  return m.run(encode(d, r1, r2, r3));
}

Pic check(const emu::RunResult& r) {
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  return r.check.interrupt.code;
}

}  // namespace

TEST_CASE("each CPACF query stores the status word with the query function alone, CC 0", "[msa]") {
  for (const Cpacf& d : kUnprivileged) {
    INFO(d.mnemonic);
    TestMachine m;
    for (unsigned k = 0; k < 24; ++k) m.poke<uint8_t>(TestMachine::kData + k, 0xEE);
    m.cpu.cc = 3;
    const emu::RunResult r = run_query(m, d, 0, TestMachine::kData);
    REQUIRE(r.reason != emu::StopReason::ProgramCheck);
    CHECK(m.cpu.cc == 0);
    CHECK(m.peek<uint64_t>(TestMachine::kData) == 0x8000000000000000ull);  // bit 0: query
    CHECK(m.peek<uint64_t>(TestMachine::kData + 8) == 0);                  // nothing else
    CHECK(m.peek<uint64_t>(TestMachine::kData + 16) == 0xEEEEEEEEEEEEEEEEull);  // 16 bytes only
    CHECK(m.cpu.gr[0] == 0);
    CHECK(m.cpu.gr[1] == TestMachine::kData);
    // GR0 bits 0-55 are not looked at.
    CHECK(run_query(m, d, 0xFFFFFFFFFFFFFF00ull, TestMachine::kData).reason != emu::StopReason::ProgramCheck);
  }
}

TEST_CASE("a CPACF query across a page boundary stores 16 bytes; an unreachable page stores none", "[msa]") {
  for (const Cpacf& d : kUnprivileged) {
    INFO(d.mnemonic);
    TestMachine m;
    const uint64_t across = TestMachine::kData + 0x1000 - 5;
    REQUIRE(run_query(m, d, 0, across).reason != emu::StopReason::ProgramCheck);
    CHECK(m.peek<uint8_t>(across) == 0x80);
    for (unsigned k = 1; k < 16; ++k) CHECK(m.peek<uint8_t>(across + k) == 0);
    // The data area's last bytes, then a page that is not mapped: nothing stored.
    const uint64_t last = TestMachine::kData + 0x10000 - 8;
    m.poke<uint64_t>(last, 0x1122334455667788ull);
    CHECK(check(run_query(m, d, 0, last)) == Pic::PageTranslation);
    CHECK(m.peek<uint64_t>(last) == 0x1122334455667788ull);
    // The code page is read-only: protection.
    CHECK(check(run_query(m, d, 0, TestMachine::kCode + 0x800)) == Pic::Protection);
    CHECK(check(run_query(m, d, 0, emu::AddressSpace::kDefaultLimit)) == Pic::Addressing);
  }
}

TEST_CASE("CPACF operand fields: an odd or zero register pair is a specification exception", "[msa]") {
  for (const Cpacf& d : kUnprivileged) {
    INFO(d.mnemonic);
    TestMachine m;
    auto pic_of = [&](unsigned r1, unsigned r2, unsigned r3) {
      const emu::RunResult r = run_query(m, d, 0, TestMachine::kData, r1, r2, r3);
      return r.reason == emu::StopReason::ProgramCheck ? r.check.interrupt.code : Pic(0);
    };
    CHECK(pic_of(1, 4, 6) == (d.r1 ? Pic::Specification : Pic(0)));
    CHECK(pic_of(0, 4, 6) == (d.r1 ? Pic::Specification : Pic(0)));
    CHECK(pic_of(2, 3, 6) == (d.r2 ? Pic::Specification : Pic(0)));
    CHECK(pic_of(2, 0, 6) == (d.r2 ? Pic::Specification : Pic(0)));
    if (d.rrf) {
      CHECK(pic_of(2, 4, 5) == (d.r3 ? Pic::Specification : Pic(0)));
      CHECK(pic_of(2, 4, 0) == (d.r3 ? Pic::Specification : Pic(0)));
    }
  }
}

TEST_CASE("KMA's R3 pair must be apart from R1's and R2's; KMCTR's need not", "[msa]") {
  TestMachine m;
  const Cpacf& kmctr = kUnprivileged[8];
  const Cpacf& kma = kUnprivileged[10];
  REQUIRE(std::string(kma.mnemonic) == "KMA");
  CHECK(check(run_query(m, kma, 0, TestMachine::kData, 2, 4, 2)) == Pic::Specification);
  CHECK(check(run_query(m, kma, 0, TestMachine::kData, 2, 4, 4)) == Pic::Specification);
  CHECK(run_query(m, kmctr, 0, TestMachine::kData, 2, 4, 4).reason != emu::StopReason::ProgramCheck);
}

TEST_CASE("CPACF GR0: the modifier bit where it means nothing, and any function but the query, are "
          "specification exceptions",
          "[msa]") {
  for (const Cpacf& d : kUnprivileged) {
    INFO(d.mnemonic);
    TestMachine m;
    const emu::RunResult modified = run_query(m, d, 0x80, TestMachine::kData);
    if (d.modifier_allowed) CHECK(modified.reason != emu::StopReason::ProgramCheck);
    else CHECK(check(modified) == Pic::Specification);
    // 127 is unassigned; 1 (DEA, SHA-1, ...) and 3 (SHA-512, SHA-512-DRNG) are assigned
    // but not installed here, as the status word says.
    for (uint64_t function : {1, 3, 0x12, 0x72, 127}) {
      m.poke<uint64_t>(TestMachine::kData, 0);
      CHECK(check(run_query(m, d, function, TestMachine::kData)) == Pic::Specification);
      CHECK(m.peek<uint64_t>(TestMachine::kData) == 0);  // nothing stored
    }
    // Program checks in the PoO's order: the operand fields before GR0's bits, and those
    // before the parameter block is reached.
    if (d.r2) CHECK(check(run_query(m, d, 127, emu::AddressSpace::kDefaultLimit, 2, 3, 6)) == Pic::Specification);
    CHECK(check(run_query(m, d, 127, emu::AddressSpace::kDefaultLimit)) == Pic::Specification);
  }
}

TEST_CASE("the CPACF instructions by machine level, and PCKMO privileged under a host control program", "[msa]") {
  for (const Cpacf& d : kUnprivileged) {
    INFO(d.mnemonic);
    TestMachine before;
    before.cpu.set_arch(emu::Generation(int(d.first) - 1));
    CHECK(check(run_query(before, d, 0, TestMachine::kData)) == Pic::Operation);
    TestMachine first;
    first.cpu.set_arch(d.first);
    CHECK(run_query(first, d, 0, TestMachine::kData).reason != emu::StopReason::ProgramCheck);
  }
  TestMachine m;
  m.cpu.gr[0] = 0, m.cpu.gr[1] = TestMachine::kData;
  CHECK(check(m.run(RRE(0xB928, 0, 0))) == Pic::PrivilegedOperation);  // PCKMO
}

TEST_CASE("STFLE announces the message-security assist and extensions 3, 4, 5 and 8 with their instructions",
          "[msa][arch]") {
  auto has = [](emu::Generation g, unsigned bit) {
    const std::vector<uint64_t> list = emu::facility_list(g);
    return bit / 64 < list.size() && (list[bit / 64] >> (63 - bit % 64) & 1);
  };
  using emu::Generation;
  CHECK_FALSE(has(Generation::Z900, 17));
  CHECK(has(Generation::Z990, 17));
  CHECK_FALSE(has(Generation::Z9, 76));
  CHECK(has(Generation::Z10, 76));
  CHECK_FALSE(has(Generation::Z10, 77));
  CHECK(has(Generation::Z196, 77));
  CHECK_FALSE(has(Generation::Z196, 57));
  CHECK(has(Generation::ZEC12, 57));
  CHECK_FALSE(has(Generation::Z13, 146));
  CHECK(has(Generation::Z14, 146));
  // MSA 8 implies MSA 3 [PoO, "Facility Indications"], at every level.
  for (int g = 0; g <= int(emu::kNewestGeneration); ++g)
    if (has(Generation(g), 146)) CHECK(has(Generation(g), 76));
}
