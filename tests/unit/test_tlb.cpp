// The modelled TLB behaves as z's does (issue 24, item 1): entries tagged by the
// address space that formed them, common pages shared by every space, nothing purged
// by a map or a dispatch, and a page that becomes invalid or loses a right purged
// from every I-stream's TLB, and nothing else.
#include <catch2/catch.hpp>
#include <array>
#include <cstring>
#include <memory>

#include "emu/cpu.h"

namespace {

constexpr uint64_t kCode = 0x10000;
constexpr uint64_t kA = 0x20000, kB = 0x21000, kC = 0x5000000;
constexpr uint8_t kRX = emu::kProtRead | emu::kProtExec, kRW = emu::kProtRead | emu::kProtWrite;

// An I-stream with the modelled TLBs and no caches: a miss costs 100 cycles of cause tlb.
struct IStream {
  emu::Cpu cpu;
  explicit IStream(emu::AddressSpace& space) : cpu(space) {
    emu::CpuTiming t;
    t.tlb4k = {64, 4};
    t.tlb1m = {16, 2};
    t.tlb_walk = 100;
    cpu.set_timing(t);
  }
  // LG %r1,0(%r2) at kCode with r2 = `address`: one data access through DAT. Returns
  // the TLB misses it took.
  uint64_t load(uint64_t address) {
    const uint64_t before = cpu.tlb4k().misses + cpu.tlb1m().misses;
    cpu.gr[2] = address;
    cpu.psw_addr = kCode;
    REQUIRE(cpu.run(1).reason == emu::StopReason::Limit);
    return cpu.tlb4k().misses + cpu.tlb1m().misses - before;
  }
  bool holds(uint64_t address, uint64_t tag) const { return cpu.tlb4k().holds(address >> 12, tag); }
};

// A space with the load instruction on a common code page (as the image's programs are
// in every ECB's space) and private data pages A and B.
std::unique_ptr<emu::AddressSpace> ecb_space(emu::Storage& s, uint64_t code_frame) {
  auto space = std::make_unique<emu::AddressSpace>(s);
  space->map_shared(kCode, code_frame, kRX, true);
  REQUIRE(space->map(kA, 2 * emu::kPageSize, kRW));
  return space;
}

uint64_t code_frame(emu::Storage& s) {
  const uint64_t f = *s.allocate_4k();
  const uint8_t lg[] = {0xE3, 0x10, 0x20, 0x00, 0x00, 0x04};  // lg %r1,0(%r2)
  std::memcpy(s.frame(f).data.get(), lg, sizeof lg);
  return f;
}

}  // namespace

TEST_CASE("the TLB model matches on address and tag, in the set of the address", "[tlb]") {
  emu::TlbModel m;
  m.configure(8, 2);
  emu::TlbModel::Entry out;
  CHECK_FALSE(m.access(5, 1, out));
  CHECK(m.access(5, 1, out));
  CHECK_FALSE(m.access(5, 2, out));  // the same page of another space: its own entry
  CHECK(m.holds(5, 1));
  CHECK(m.holds(5, 2));
  CHECK_FALSE(m.access(9, 3, out));  // same set (9 % 4 == 5 % 4): evicts the least recently used
  CHECK(out.key == 5);
  CHECK(out.tag == 1);
  CHECK_FALSE(m.holds(5, 1));
  CHECK(m.purge(5, 2));
  CHECK_FALSE(m.purge(5, 2));
  CHECK(m.holds(9, 3));
  m.purge_tag(3);
  CHECK_FALSE(m.holds(9, 3));
  CHECK(m.purged == 2);
}

TEST_CASE("mapping pages purges nothing from the TLB", "[tlb]") {
  emu::Storage s(64ull << 20);
  auto space = ecb_space(s, code_frame(s));
  IStream is(*space);
  CHECK(is.load(kA) == 1);
  CHECK(is.load(kA) == 0);
  REQUIRE(space->map(kC, 64 * emu::kPageSize, kRW));  // a GETSTOR, a heap's growth
  space->map_shared(0x30000, *s.allocate_4k(), emu::kProtRead);
  REQUIRE(space->map(kA, emu::kPageSize, kRW | emu::kProtExec));  // a right more
  CHECK(is.holds(kA, space->serial()));
  is.cpu.flush_micro_tlb();  // the host's shortcut may go at any time: the model decides
  CHECK(is.load(kA) == 0);
  CHECK(is.cpu.tlb4k().purged == 0);
}

TEST_CASE("an invalidated page leaves every I-stream's TLB, and nothing else does", "[tlb]") {
  emu::Storage s(64ull << 20);
  auto space = ecb_space(s, code_frame(s));
  IStream one(*space), two(*space);
  for (IStream* is : {&one, &two}) {
    CHECK(is->load(kA) == 1);
    CHECK(is->load(kB) == 1);
  }
  space->unmap(kA, emu::kPageSize);  // IPTE
  for (IStream* is : {&one, &two}) {
    CHECK_FALSE(is->holds(kA, space->serial()));
    CHECK(is->holds(kB, space->serial()));
    CHECK(is->load(kB) == 0);
    CHECK(is->cpu.tlb4k().purged == 1);
  }
}

TEST_CASE("a page losing a right is purged; a store then sees the protection", "[tlb]") {
  emu::Storage s(64ull << 20);
  auto space = ecb_space(s, code_frame(s));
  IStream is(*space);
  CHECK(is.load(kA) == 1);
  REQUIRE(space->map(kA, emu::kPageSize, emu::kProtRead));
  CHECK_FALSE(is.holds(kA, space->serial()));
  CHECK(is.load(kA) == 1);  // formed again, read-only
}

TEST_CASE("a dispatch back to an earlier address space finds its entries", "[tlb]") {
  emu::Storage s(64ull << 20);
  const uint64_t code = code_frame(s);
  auto first = ecb_space(s, code), second = ecb_space(s, code);
  IStream is(*first);
  CHECK(is.load(kA) == 1);
  CHECK(is.load(kB) == 1);
  is.cpu.switch_address_space(*second);
  CHECK(is.load(kA) == 1);  // the same address in another space: a translation of its own
  is.cpu.switch_address_space(*first);
  CHECK(is.load(kA) == 0);  // still there: switching spaces purges nothing
  CHECK(is.load(kB) == 0);
  CHECK(is.holds(kA, first->serial()));
  CHECK(is.holds(kA, second->serial()));
}

TEST_CASE("a common page's entry serves every address space; a gone space's entries leave", "[tlb]") {
  emu::Storage s(64ull << 20);
  const uint64_t code = code_frame(s), shared = *s.allocate_4k();
  auto first = ecb_space(s, code), second = ecb_space(s, code);
  for (auto* sp : {first.get(), second.get()}) sp->map_shared(kC, shared, kRW, true);
  IStream one(*first), two(*second);
  CHECK(one.load(kC) == 1);
  one.cpu.switch_address_space(*second);
  CHECK(one.load(kC) == 0);
  CHECK(one.holds(kC, emu::TlbModel::kCommon));
  // A common page made invalid in one space is purged for all (z's IPTE of a common
  // segment's page): the control program takes it out of every space (os/evm.cpp).
  CHECK(two.load(kC) == 1);
  first->unmap(kC, emu::kPageSize);
  CHECK_FALSE(one.holds(kC, emu::TlbModel::kCommon));
  CHECK_FALSE(two.holds(kC, emu::TlbModel::kCommon));
  // The space's own entries go with it; the other space's stay.
  CHECK(two.load(kA) == 1);
  one.cpu.switch_address_space(*second);
  CHECK(one.load(kA) == 1);
  const uint64_t gone = first->serial();
  one.cpu.switch_address_space(*first);
  CHECK(one.load(kB) == 1);
  one.cpu.switch_address_space(*second);
  first.reset();
  CHECK_FALSE(one.holds(kB, gone));
  CHECK(one.holds(kA, second->serial()));
  CHECK(two.holds(kA, second->serial()));
}

TEST_CASE("an unmapped 1 MB segment leaves the 1 MB TLB of every I-stream", "[tlb]") {
  emu::Storage s(256ull << 20);
  auto space = ecb_space(s, code_frame(s));
  REQUIRE(space->map_large(kC, emu::kSegmentSize, kRW) == 1);
  IStream one(*space), two(*space);
  CHECK(one.load(kC + 0x1000) == 1);
  CHECK(two.load(kC + 0x80000) == 1);
  CHECK(one.load(kC + 0x2000) == 0);  // the same segment
  CHECK(one.load(kA) == 1);
  CHECK(one.cpu.tlb1m().holds(kC >> 20, space->serial()));
  space->unmap(kC, emu::kSegmentSize);  // IDTE
  CHECK_FALSE(one.cpu.tlb1m().holds(kC >> 20, space->serial()));
  CHECK_FALSE(two.cpu.tlb1m().holds(kC >> 20, space->serial()));
  CHECK(one.holds(kA, space->serial()));  // a 4 KB page outside the segment stays
  CHECK(one.load(kA) == 0);
}

TEST_CASE("a segment of shared frames (system mode's EDAT frame) takes one 1 MB TLB entry", "[tlb][dat]") {
  emu::Storage s(256ull << 20);
  auto space = ecb_space(s, code_frame(s));
  std::array<uint64_t, emu::kPagesPerSegment> frames;
  const uint64_t first = *s.allocate_1m();
  for (unsigned k = 0; k < emu::kPagesPerSegment; ++k) frames[k] = first + k;
  std::swap(frames[0], frames[1]);  // (prefixing may exchange pages: each page its own frame)
  std::memset(s.frame(first).data.get(), 0x11, 8);
  std::memset(s.frame(first + 1).data.get(), 0x22, 8);
  space->map_shared_segment(kC + 0x3000, frames, kRW);
  IStream one(*space);
  CHECK(one.load(kC) == 1);
  CHECK(one.cpu.gr[1] == 0x2222222222222222ull);
  CHECK(one.load(kC + 0x1000) == 0);  // another page, the same 1 MB entry
  CHECK(one.cpu.gr[1] == 0x1111111111111111ull);
  CHECK(one.cpu.tlb1m().hits >= 1);
  CHECK(one.cpu.tlb1m().holds(kC >> 20, space->serial()));
  space->unmap(kC + 0x2000, emu::kPageSize);  // (IPTE of any of its pages: the segment goes)
  CHECK_FALSE(one.cpu.tlb1m().holds(kC >> 20, space->serial()));
  CHECK(space->owned_frames() == 2);  // kA, kB: the shared frames are not the space's
}

TEST_CASE("instructions translate through the code space, operands through the data space", "[tlb][dat][system]") {
  // Secondary-space mode's two spaces [Principles of Operation, "Address-Space Control"]:
  // the code space has the load at kCode, the data space zeros there and its own kA.
  emu::Storage s(256ull << 20);
  auto code = ecb_space(s, code_frame(s));
  emu::AddressSpace data(s);
  REQUIRE(data.map(kCode, emu::kPageSize, kRW));  // zeros: an operation exception if fetched
  REQUIRE(data.map(kA, emu::kPageSize, kRW));
  const uint8_t value[8] = {0, 0, 0, 0, 0, 0, 0x12, 0x34};
  REQUIRE(data.write_bytes(kA, value, sizeof value));
  IStream one(*code);
  one.cpu.set_address_spaces(data, *code);
  CHECK(one.load(kA) == 1);
  CHECK(one.cpu.gr[1] == 0x1234);
  CHECK(&one.cpu.code_space() == code.get());
  // The code page leaves the code space: the next fetch faults, as an instruction fetch.
  code->unmap(kCode, emu::kPageSize);
  one.cpu.psw_addr = kCode;
  const emu::RunResult r = one.cpu.run(1);
  CHECK(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.interrupt.code == emu::Pic::PageTranslation);
  CHECK(one.cpu.fault_was_instruction_fetch());
  // One space again: the data space's zeros are fetched (an operation exception).
  one.cpu.set_address_space(data);
  one.cpu.psw_addr = kCode;
  CHECK(one.cpu.run(1).check.interrupt.code == emu::Pic::Operation);
}
