// The block compiler (machine.engine: compile) against the interpreter on the cases
// where a block must stop exactly where the interpreter does: run limits inside a
// block, a program check in the middle of a block, a store into the running block,
// blocks of one instruction. Registers, PSW, clock, instruction count and every
// slot's count and cycles must be equal (engines.same does the same on whole programs).
#include <memory>
#include <tuple>

#include "emu/jit/block_cache.h"
#include "emu/profiler.h"
#include "harness.h"

namespace {
using namespace test;

constexpr uint64_t kCode = 0x10000, kData = 0x40000;

struct Side {
  emu::Storage storage{1ull << 30};
  emu::AddressSpace space{storage};
  emu::Cpu cpu{space};
  std::shared_ptr<emu::jit::CodeCache> cache;
  explicit Side(bool compiled, unsigned block_length, const Bytes& code, uint64_t cache_bytes = 1 << 20) {
    // The code page is writable too, for the store into the running block.
    space.map(kCode, 0x4000, emu::kProtRead | emu::kProtWrite | emu::kProtExec);
    space.map(kData, 0x1000, emu::kProtRead | emu::kProtWrite);
    space.write_bytes(kCode, code.data(), code.size());
    if (compiled) {
      cache = std::make_shared<emu::jit::CodeCache>(cache_bytes, block_length, emu::Cpu::compiled_layout());
      cpu.set_code_cache(cache);
    }
    cpu.psw_addr = kCode;
  }
  // Runs `chunk` instructions at a time until the PSW leaves the code or a program check.
  emu::RunResult run(uint64_t chunk, uint64_t end) {
    for (int k = 0; k < 100000; ++k) {
      emu::RunResult r = cpu.run(chunk);
      if (r.reason == emu::StopReason::ProgramCheck || cpu.psw_addr < kCode || cpu.psw_addr >= end) return r;
    }
    return emu::RunResult{emu::StopReason::Limit, {}};
  }
};

void same(const Bytes& code, uint64_t chunk, unsigned block_length = 64, uint64_t cache_bytes = 1 << 20) {
  Side interpreted(false, block_length, code), compiled(true, block_length, code, cache_bytes);
  const emu::RunResult a = interpreted.run(chunk, kCode + code.size());
  const emu::RunResult b = compiled.run(chunk, kCode + code.size());
  CAPTURE(chunk, block_length);
  CHECK(a.reason == b.reason);
  CHECK(a.check.insn_address == b.check.insn_address);
  CHECK(a.check.mnemonic == b.check.mnemonic);
  for (unsigned r = 0; r < 16; ++r) CHECK(interpreted.cpu.gr[r] == compiled.cpu.gr[r]);
  CHECK(interpreted.cpu.psw_addr == compiled.cpu.psw_addr);
  CHECK(interpreted.cpu.cc == compiled.cpu.cc);
  CHECK(interpreted.cpu.cycles == compiled.cpu.cycles);
  CHECK(interpreted.cpu.instructions == compiled.cpu.instructions);
  const auto sa = emu::slot_counts(interpreted.space), sb = emu::slot_counts(compiled.space);
  REQUIRE(sa.size() == sb.size());
  for (size_t k = 0; k < sa.size(); ++k) {
    CAPTURE(sa[k].address);
    CHECK(std::tie(sa[k].address, sa[k].count, sa[k].spent, sa[k].id) ==
          std::tie(sb[k].address, sb[k].count, sb[k].spent, sb[k].id));
  }
  // Blocks ran (a run limit below a block's length only lets the shortest in).
  if (emu::jit::CodeCache::available() && chunk >= 7) CHECK(compiled.cache->stats().blocks_compiled > 0);
  // A cache too small for two blocks drops one for each it compiles; counts stay exact.
  if (emu::jit::CodeCache::available() && cache_bytes < 64 && block_length == 1) CHECK(compiled.cache->stats().blocks_evicted > 0);
}

// A loop of 200 iterations: native (LA, SLLG, LGR) and called (AGHI, STG, LG) instructions.
Bytes loop_with(const Bytes& body_extra) {
  Bytes body = RXY(0xE371, 3, 0, 3, 1)          // LAY r3,1(r3)
               + RI(0xA7B, 2, 3)                 // AGHI r2,3
               + RSY(0xEB0D, 4, 3, 0, 5)         // SLLG r4,r3,5
               + RXY(0xE324, 2, 0, 6, 0)         // STG r2,0(r6)
               + RXY(0xE304, 5, 0, 6, 0)         // LG r5,0(r6)
               + RRE(0xB904, 7, 5)               // LGR r7,r5
               + body_extra;
  const int back = -int(body.size() + 0) / 2;
  Bytes head = RI(0xA79, 1, 200)                 // LGHI r1,200
               + RIL(0xC0E, 6, 0) + RIL(0xC09, 6, int64_t(kData));  // LLIHF r6,0; IILF r6,kData
  return head + body + RI(0xA77, 1, back);       // BRCTG r1,loop
}

}  // namespace

TEST_CASE("compiled blocks stop where the interpreter stops, at every run limit", "[jit]") {
  const Bytes code = loop_with({});
  for (uint64_t chunk : {1, 2, 3, 5, 7, 13, 64, 1000000}) same(code, chunk);
  same(code, 1000000, 1);     // blocks of one instruction
  same(code, 1000000, 1, 1);  // and a code cache of one byte: every compile evicts
  same(code, 1000000, 64, 1);
}

TEST_CASE("a program check in the middle of a block leaves the interpreter's state and counts", "[jit]") {
  // LG from kData + 32 * iteration: past the data page (not mapped) at iteration 128,
  // in the middle of the loop's block.
  Bytes extra = RRE(0xB904, 9, 6)                // LGR r9,r6
                + RRE(0xB908, 9, 4)              // AGR r9,r4
                + RXY(0xE304, 10, 0, 9, 0)       // LG r10,0(r9)
                + RI(0xA7B, 11, 1);              // AGHI r11,1
  const Bytes code = loop_with(extra);
  for (uint64_t chunk : {1, 4, 1000000}) same(code, chunk);
  Side compiled(true, 64, code);
  const emu::RunResult r = compiled.run(1000000, kCode + code.size());
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.mnemonic == "LG");
  CHECK(compiled.cpu.gr[11] == 127);
}

TEST_CASE("a store into the running block takes effect on the next instruction", "[jit]") {
  // STC of the loop counter over the immediate of the AHI three instructions on. The
  // first two passes (interpreted; the second is the loop start's first arrival as a
  // branch target) store into the data page, every later one (the block, compiled at
  // the second arrival) into the AHI: a block that kept the old decoded AHI would add 1.
  Bytes code = RI(0xA79, 1, 50) + RIL(0xC0E, 12, 0) + RIL(0xC09, 12, int64_t(kData))  // r12 = kData
               + RIL(0xC0E, 14, 0) + RIL(0xC09, 14, int64_t(kData))                 // r14 = kData
               + RIL(0xC0E, 15, 0);
  const unsigned loop_at = unsigned(code.size() + 6);
  code = code + RIL(0xC09, 15, int64_t(kCode + loop_at + 12 + 3))  // r15 = the AHI's low immediate byte
         + RX(0x42, 1, 0, 12, 0)                                   // loop: STC r1,0(r12)
         + RRE(0xB904, 12, 14)                                     // LGR r12,r14
         + RRE(0xB904, 14, 15)                                     // LGR r14,r15
         + RI(0xA7A, 13, 1)                                        // AHI r13,1
         + RI(0xA77, 1, -8);                                       // BRCTG r1,loop
  for (uint64_t chunk : {1, 3, 1000000}) same(code, chunk);
  Side compiled(true, 64, code);
  compiled.run(1000000, kCode + code.size());
  CHECK(compiled.cpu.gr[13] == 2 + 48 * 49 / 2);
  if (emu::jit::CodeCache::available()) CHECK(compiled.cache->stats().blocks_compiled > 0);
}
