#include <catch2/catch.hpp>

#include "harness.h"

using namespace test;

TEST_CASE("loads sign- and zero-extend from every width", "[load_store]") {
  TestMachine m;
  m.cpu.gr[2] = TestMachine::kData;
  m.poke<uint64_t>(TestMachine::kData, 0x8081828384858687ull);
  m.cpu.gr[1] = 0xFFFFFFFFFFFFFFFFull;
  REQUIRE(m.run(RX(0x48, 1, 0, 2, 0)).reason != emu::StopReason::ProgramCheck);  // LH
  CHECK(m.cpu.gr[1] == 0xFFFFFFFFFFFF8081ull);  // high half untouched, low half sign-extended
  m.run(RXY(0xE395, 1, 0, 2, 0));  // LLH
  CHECK(m.cpu.gr[1] == 0xFFFFFFFF00008081ull);
  m.run(RXY(0xE377, 3, 0, 2, 1));  // LGB
  CHECK(m.cpu.gr[3] == 0xFFFFFFFFFFFFFF81ull);
  m.run(RXY(0xE390, 3, 0, 2, 1));  // LLGC
  CHECK(m.cpu.gr[3] == 0x81);
  m.run(RXY(0xE314, 4, 0, 2, 0));  // LGF
  CHECK(m.cpu.gr[4] == 0xFFFFFFFF80818283ull);
  m.run(RXY(0xE316, 4, 0, 2, 4));  // LLGF
  CHECK(m.cpu.gr[4] == 0x84858687ull);
  m.run(RXY(0xE317, 4, 0, 2, 0));  // LLGT clears bit 32
  CHECK(m.cpu.gr[4] == 0x00818283ull);
}

TEST_CASE("long displacements are signed 20-bit", "[load_store]") {
  TestMachine m;
  m.cpu.gr[2] = TestMachine::kData + 0x1000;
  m.poke<uint64_t>(TestMachine::kData + 0x1000 - 8, 0x1122334455667788ull);
  m.run(RXY(0xE304, 5, 0, 2, -8));  // LG r5,-8(r2)
  CHECK(m.cpu.gr[5] == 0x1122334455667788ull);
}

TEST_CASE("load and test sets the condition code by sign", "[load_store]") {
  TestMachine m;
  m.cpu.gr[2] = 0x00000000FFFFFFFFull;
  m.run(RR(0x12, 1, 2));  // LTR: 32-bit -1
  CHECK(m.cpu.cc == 1);
  m.run(RRE(0xB902, 1, 2));  // LTGR: positive
  CHECK(m.cpu.cc == 2);
  m.cpu.gr[2] = 0;
  m.run(RRE(0xB902, 1, 2));
  CHECK(m.cpu.cc == 0);
}

TEST_CASE("insert characters under mask", "[load_store]") {
  TestMachine m;
  m.cpu.gr[2] = TestMachine::kData;
  m.poke<uint32_t>(TestMachine::kData, 0xF0001234);
  m.cpu.gr[1] = 0xAAAAAAAABBBBBBBBull;
  m.run(RS(0xBF, 1, 0b1010, 2, 0));  // ICM r1,b'1010': bytes F0, 00 into bytes 0 and 2
  CHECK(m.cpu.gr[1] == 0xAAAAAAAAF0BB00BBull);
  CHECK(m.cpu.cc == 1);  // leftmost inserted bit is one
  m.run(RS(0xBF, 1, 0b0100, 2, 1));  // a zero byte
  CHECK(m.cpu.cc == 0);
  m.run(RS(0xBF, 1, 0b0011, 2, 2));  // 0x1234: leftmost zero, not all zero
  CHECK(m.cpu.cc == 2);
  CHECK(m.cpu.r32(1) == 0xF0001234);
}

TEST_CASE("store and load multiple wrap from 15 to 0", "[load_store]") {
  TestMachine m;
  for (int r = 0; r < 16; ++r) m.cpu.gr[r] = 0x100 + r;
  m.cpu.gr[5] = TestMachine::kData;
  m.run(RSY(0xEB24, 14, 1, 5, 0));  // STMG r14,r1,0(r5): r14 r15 r0 r1
  CHECK(m.peek<uint64_t>(TestMachine::kData + 16) == 0x100);
  CHECK(m.peek<uint64_t>(TestMachine::kData + 24) == 0x101);
  m.cpu.gr[5] = TestMachine::kData;
  m.run(RSY(0xEB04, 6, 9, 5, 0));  // LMG r6,r9: loads 0x10E, 0x10F, 0x100, 0x101
  CHECK(m.cpu.gr[6] == 0x10E);
  CHECK(m.cpu.gr[9] == 0x101);
}

TEST_CASE("a store to a read-only page is a protection exception", "[load_store]") {
  TestMachine m;
  m.cpu.gr[2] = TestMachine::kCode + 0x800;
  auto r = m.run(RXY(0xE324, 1, 0, 2, 0));  // STG into the code page
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Protection);
  CHECK(r.check.mnemonic == "STG");
}

TEST_CASE("a reference to a page that is not present is a page-translation exception", "[load_store]") {
  TestMachine m;
  m.cpu.gr[2] = 0x7000000;
  auto r = m.run(RXY(0xE304, 1, 0, 2, 8));
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::PageTranslation);
  CHECK(r.check.interrupt.address == 0x7000008);  // the byte, not its page
}

TEST_CASE("a reference beyond the address space is an addressing exception", "[load_store]") {
  TestMachine m;
  m.cpu.gr[2] = emu::AddressSpace::kDefaultLimit;
  auto r = m.run(RXY(0xE304, 1, 0, 2, 0));
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Addressing);
  CHECK(r.check.interrupt.address == emu::AddressSpace::kDefaultLimit);
}

TEST_CASE("relative-long loads need natural alignment", "[load_store]") {
  TestMachine m;
  // LGRL r1, *+4 halfwords... target kCode+2*3 = kCode+6 is not 8-byte aligned.
  auto r = m.run(RIL(0xC48, 1, 3));
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::Specification);
}

TEST_CASE("load on condition loads only when the mask selects the CC", "[load_store]") {
  TestMachine m;
  m.cpu.gr[1] = 1, m.cpu.gr[2] = 2;
  m.cpu.cc = 2;
  m.run(RRF(0xB9E2, 1, 2, 0x8));  // LOCGR mask 8 (CC0): no
  CHECK(m.cpu.gr[1] == 1);
  m.run(RRF(0xB9E2, 1, 2, 0x2));  // mask 2 (CC2): yes
  CHECK(m.cpu.gr[1] == 2);
}

namespace {
// Resolves a fault by mapping the page, as the control program will (or not at all).
struct MapOnFault : emu::PageFaultHandler {
  emu::AddressSpace* space;
  bool resolve = true;
  std::vector<uint64_t> faults;
  Action page_fault(emu::Cpu&, uint64_t address) override {
    faults.push_back(address);
    if (!resolve) return Action::Fail;
    space->map(address & ~emu::kPageMask, emu::kPageSize, emu::kProtRead | emu::kProtWrite);
    return Action::Retry;
  }
};
}  // namespace

TEST_CASE("a page fault exits to the layer above, which can resolve it and retry", "[load_store][dat]") {
  TestMachine m;
  MapOnFault h;
  h.space = &m.space;
  m.cpu.set_page_fault_handler(&h);
  m.cpu.gr[2] = 0x7000000;
  m.cpu.gr[3] = 0x1122334455667788ull;
  // STG r3,8(r2) then LG r4,8(r2): one fault, resolved; the store is not lost.
  auto r = m.run(RXY(0xE324, 3, 0, 2, 8) + RXY(0xE304, 4, 0, 2, 8));
  REQUIRE(r.reason != emu::StopReason::ProgramCheck);
  CHECK(h.faults == std::vector<uint64_t>{0x7000008});
  CHECK(m.cpu.gr[4] == 0x1122334455667788ull);
  CHECK(m.cpu.page_faults == 1);
  CHECK(m.cpu.instructions == 2);  // the nullified attempt does not count

  TestMachine f;
  MapOnFault refuse;
  refuse.space = &f.space;
  refuse.resolve = false;
  f.cpu.set_page_fault_handler(&refuse);
  f.cpu.gr[2] = 0x9000000;
  auto rf = f.run(RXY(0xE304, 1, 0, 2, 0));
  REQUIRE(rf.reason == emu::StopReason::ProgramCheck);
  CHECK(rf.check.interrupt.code == emu::Pic::PageTranslation);
}

TEST_CASE("a handler that claims a fault resolved without mapping cannot loop forever", "[load_store][dat]") {
  struct Liar : emu::PageFaultHandler {
    int calls = 0;
    Action page_fault(emu::Cpu&, uint64_t) override { return ++calls, Action::Retry; }
  } liar;
  TestMachine m;
  m.cpu.set_page_fault_handler(&liar);
  m.cpu.gr[2] = 0x9000000;
  auto r = m.run(RXY(0xE304, 1, 0, 2, 0));
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::PageTranslation);
  CHECK(liar.calls == 1);
}

TEST_CASE("a page fault the layer above resolves later: the instruction waits, nullified, and runs once",
          "[load_store][dat]") {
  // As the paging subsystem does: the page is on auxiliary storage, the ECB waits for
  // its page-in while the I-stream runs others; the instruction runs when it comes back.
  struct PageIn : emu::PageFaultHandler {
    emu::AddressSpace* space;
    uint64_t psw_seen = 0;
    int calls = 0;
    Action page_fault(emu::Cpu& cpu, uint64_t address) override {
      ++calls;
      psw_seen = cpu.psw_addr;  // nullified: at the instruction, so the state can be saved
      space->map(address & ~emu::kPageMask, emu::kPageSize, emu::kProtRead | emu::kProtWrite);
      return Action::Wait;
    }
  } h;
  TestMachine m;
  h.space = &m.space;
  m.cpu.set_page_fault_handler(&h);
  m.cpu.gr[2] = 0x7000000;
  m.cpu.gr[3] = 0x1122334455667788ull;
  const auto code = RXY(0xE324, 3, 0, 2, 8) + RXY(0xE304, 4, 0, 2, 8);  // STG, LG
  m.space.write_bytes(TestMachine::kCode, code.data(), code.size());
  m.cpu.psw_addr = TestMachine::kCode;
  emu::RunResult r = m.cpu.run(10);
  CHECK(r.reason == emu::StopReason::Requested);
  CHECK(m.cpu.psw_addr == TestMachine::kCode);
  CHECK(h.psw_seen == TestMachine::kCode);
  CHECK(m.cpu.instructions == 0);
  CHECK(m.cpu.page_faults == 1);
  r = m.cpu.run(2);  // dispatched again
  CHECK(m.cpu.gr[4] == 0x1122334455667788ull);
  CHECK(m.cpu.instructions == 2);
  CHECK(h.calls == 1);
}

TEST_CASE("DAT sets a frame's reference bit on a load and its change bit on a store", "[load_store][dat]") {
  for (bool tracked : {false, true}) {
    TestMachine m;
    m.space.set_track_changes(tracked);
    emu::Translation t;
    REQUIRE(m.space.translate(TestMachine::kData, t) == emu::Translate::Ok);
    emu::Frame& f = *t.frame;
    f.clear_referenced(), f.set_changed(false);
    m.cpu.flush_micro_tlb();
    m.cpu.gr[2] = TestMachine::kData;
    m.run(RXY(0xE304, 1, 0, 2, 0));  // LG: referenced, not changed
    CHECK(f.referenced());
    CHECK_FALSE(f.changed());
    m.run(RXY(0xE324, 1, 0, 2, 8));  // STG to the same page
    // Tracked, the store after a load still translates for the store and sets the
    // change bit; untracked, the load's translation granted the store (no bit needed).
    CHECK(f.changed() == tracked);
  }
}
