// Loops that wait without effect, done in one step (machine.skip_spin_loops,
// emu/spin_loop.h): with it on, every counter is what executing each pass gives --
// registers, PSW, CC, clock, cycles by cause, instructions, every slot's count, cycles
// and ZTRAP samples -- under both engines, with and without the timing model, at run
// limits and stop cycles that fall inside a pass; and a loop whose pass changes a
// register, or that stores, is executed pass by pass.
#include <memory>
#include <tuple>
#include <vector>

#include "emu/cache.h"
#include "emu/jit/block_cache.h"
#include "emu/machine_config.h"
#include "emu/profiler.h"
#include "harness.h"

namespace {
using namespace test;

constexpr uint64_t kCode = 0x10000, kData = 0x40000;

struct Run {
  emu::Storage storage{1ull << 30};
  emu::AddressSpace space{storage};
  emu::Cpu cpu{space};
  std::shared_ptr<emu::jit::CodeCache> cache;
  std::unique_ptr<emu::MemoryHierarchy> caches;
  Run(const Bytes& code, bool compiled, bool skip, bool timing) {
    space.map(kCode, 0x2000, emu::kProtRead | emu::kProtExec);
    space.write_bytes(kCode, code.data(), code.size());
    space.map(kData, 0x1000, emu::kProtRead | emu::kProtWrite);
    if (timing) {
      emu::MachineConfig m = emu::default_machine_config();
      m.istreams = 1;
      caches = std::make_unique<emu::MemoryHierarchy>(m);
      cpu.set_timing(emu::CpuTiming{caches.get(), 0, m.tlb4k, m.tlb1m, m.tlb_walk});
    }
    if (compiled && emu::jit::CodeCache::available()) {
      cache = std::make_shared<emu::jit::CodeCache>(1 << 20, 64, emu::Cpu::compiled_layout());
      cpu.set_code_cache(cache);
    }
    cpu.set_spin_skip(skip);
    cpu.set_sampling(997, 500);
    cpu.psw_addr = kCode;
    cpu.gr[12] = kData;
  }
  // Runs of `limit` instructions, each also stopping at the cycle `slice` on.
  void run(uint64_t total, uint64_t limit, uint64_t slice) {
    while (cpu.instructions < total) {
      const uint64_t start = cpu.instructions;
      cpu.run(std::min(limit, total - cpu.instructions), cpu.cycles + slice);
      if (cpu.instructions == start) FAIL("a run made no progress");
    }
  }
};

void same(Run& a, Run& b) {
  for (unsigned r = 0; r < 16; ++r) CHECK(a.cpu.gr[r] == b.cpu.gr[r]);
  CHECK(a.cpu.psw_addr == b.cpu.psw_addr);
  CHECK(a.cpu.cc == b.cpu.cc);
  CHECK(a.cpu.cycles == b.cpu.cycles);
  CHECK(a.cpu.cycles_by_cause() == b.cpu.cycles_by_cause());
  CHECK(a.cpu.instructions == b.cpu.instructions);
  const auto sa = emu::slot_counts(a.space), sb = emu::slot_counts(b.space);
  REQUIRE(sa.size() == sb.size());
  for (size_t k = 0; k < sa.size(); ++k) {
    CAPTURE(sa[k].address);
    CHECK(std::tie(sa[k].address, sa[k].count, sa[k].spent, sa[k].samples, sa[k].id) ==
          std::tie(sb[k].address, sb[k].count, sb[k].spent, sb[k].samples, sb[k].id));
  }
}

const Bytes kNop = RX(0x47, 0, 0, 0, 0);                   // NOP (BC 0)
const Bytes kSerialize = RR(0x07, 15, 0);                  // BCR 15,0: serializes, at a cost
Bytes jump_back(int halfwords) { return RI(0xA74, 15, halfwords); }  // J

struct Loop {
  const char* name;
  Bytes code;
  bool skippable;
};

std::vector<Loop> loops() {
  const Bytes head = RI(0xA79, 2, 0) + RI(0xA79, 3, 5);  // LGHI r2,0; LGHI r3,5 (8 bytes)
  return {
      {"j .", head + jump_back(0), true},
      {"nop; j", head + kNop + jump_back(-2), true},
      {"bcr 15,0; chi; jz (serializing, CC set each pass)", head + kSerialize + RI(0xA7E, 2, 0) + RI(0xA74, 8, -3), true},
      {"ltgr; lgr; brcl 8 (a register copied onto itself)",
       head + RRE(0xB902, 2, 2) + RRE(0xB904, 3, 3) + RIL(0xC04, 8, -4), true},
      {"aghi; j (a count: not a fixed point)", head + RI(0xA7B, 3, 1) + jump_back(-2), false},
      {"st; j (a store: not register-only)", head + RX(0x50, 3, 0, 12, 0) + jump_back(-2), false},
  };
}

TEST_CASE("spin loops: skipped passes add what executing them adds, under both engines", "[spin]") {
  for (const Loop& loop : loops()) {
    for (const bool timing : {false, true}) {
      for (const auto& [limit, slice] : {std::pair<uint64_t, uint64_t>{1'000'003, 1'000'000'007}, {7, 1'000'000},
                                         {1'000'000, 13}, {999'999, 4'001}}) {
        CAPTURE(loop.name, timing, limit, slice);
        Run executed(loop.code, false, false, timing);
        executed.run(2'000'001, limit, slice);
        for (const bool compiled : {false, true}) {
          CAPTURE(compiled);
          Run skipped(loop.code, compiled, true, timing);
          skipped.run(2'000'001, limit, slice);
          same(executed, skipped);
          CHECK(executed.cpu.spin_skipped == 0);
          // A run long enough for passes after the first two is skipped, if it can be.
          if (limit > 100 && slice > 100) CHECK((skipped.cpu.spin_skipped > 1'000'000) == loop.skippable);
          else if (!loop.skippable) CHECK(skipped.cpu.spin_skipped == 0);
        }
      }
    }
  }
}

TEST_CASE("spin loops: a loop is one straight run of register-only instructions", "[spin]") {
  // A conditional branch inside (not a NOP) could leave the loop: not skippable.
  const Bytes inner_branch = RI(0xA79, 2, 0) + RI(0xA74, 8, 4) + kNop + jump_back(-4);
  Run run(inner_branch, false, true, false);
  run.run(100'000, 100'000, 1'000'000'000);
  CHECK(run.cpu.spin_skipped == 0);
}

}  // namespace
