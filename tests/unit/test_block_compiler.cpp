// The block compiler (machine.engine: compile) against the interpreter on the cases
// where a block must stop exactly where the interpreter does: run limits inside a
// block, a program check in the middle of a block, a store into the running block,
// blocks of one instruction. Registers, PSW, clock, instruction count and every
// slot's count and cycles must be equal (engines.same does the same on whole programs).
#include <memory>
#include <stdexcept>
#include <string>
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

// How a pair of runs is set up beyond the code: the data's size, the full timing
// model (caches and TLBs: loads and stores charge cycles), and a page-fault handler
// that maps the data page by page as the guest touches it.
struct Setup {
  unsigned block_length = 64;
  uint64_t cache_bytes = 1 << 20;
  uint64_t data_bytes = 0x1000;
  bool timing = false;
  bool map_on_fault = false;
  bool cosim = false;  // machine.engine: cosim (the compiled side)
};

// Maps a missing data page when the guest touches it and retries the instruction.
struct MapOnFault : emu::PageFaultHandler {
  emu::AddressSpace* space = nullptr;
  Action page_fault(emu::Cpu&, uint64_t address) override {
    space->map(address & ~emu::kPageMask, emu::kPageSize, emu::kProtRead | emu::kProtWrite);
    for (uint64_t k = 0; k < emu::kPageSize; k += 8) {
      const uint64_t a = (address & ~emu::kPageMask) + k;
      space->write_bytes(a, reinterpret_cast<const uint8_t*>(&a), 8);
    }
    return Action::Retry;
  }
};

struct Side {
  emu::Storage storage{1ull << 30};
  emu::AddressSpace space{storage};
  emu::Cpu cpu{space};
  std::shared_ptr<emu::jit::CodeCache> cache;
  std::unique_ptr<emu::MemoryHierarchy> caches;
  MapOnFault pager;
  Side(bool compiled, const Setup& setup, const Bytes& code) {
    // The code page is writable too, for the store into the running block.
    space.map(kCode, 0x4000, emu::kProtRead | emu::kProtWrite | emu::kProtExec);
    space.write_bytes(kCode, code.data(), code.size());
    if (setup.map_on_fault) {
      pager.space = &space;
      cpu.set_page_fault_handler(&pager);
    } else {
      space.map(kData, setup.data_bytes, emu::kProtRead | emu::kProtWrite);
      // Every doubleword holds its own address: loads read something that differs.
      for (uint64_t a = kData; a < kData + setup.data_bytes; a += 8)
        space.write_bytes(a, reinterpret_cast<const uint8_t*>(&a), 8);
    }
    if (setup.timing) {
      emu::MachineConfig m = emu::default_machine_config();
      m.istreams = 1;
      caches = std::make_unique<emu::MemoryHierarchy>(m);
      cpu.set_timing(emu::CpuTiming{caches.get(), 0, m.tlb4k, m.tlb1m, m.tlb_walk});
    }
    if (compiled) {
      cache = std::make_shared<emu::jit::CodeCache>(setup.cache_bytes, setup.block_length,
                                                    emu::Cpu::compiled_layout());
      cpu.set_code_cache(cache);
      cpu.set_cosim(setup.cosim);
    }
    cpu.psw_addr = kCode;
  }
  Side(bool compiled, unsigned block_length, const Bytes& code, uint64_t cache_bytes = 1 << 20)
      : Side(compiled, Setup{block_length, cache_bytes}, code) {}
  // Runs `chunk` instructions at a time until the PSW leaves the code or a program check.
  emu::RunResult run(uint64_t chunk, uint64_t end) {
    for (int k = 0; k < 100000; ++k) {
      emu::RunResult r = cpu.run(chunk);
      if (r.reason == emu::StopReason::ProgramCheck || cpu.psw_addr < kCode || cpu.psw_addr >= end) return r;
    }
    return emu::RunResult{emu::StopReason::Limit, {}};
  }
};

// Both sides' state as the run left it: registers, PSW, CC, clock, cycles by cause,
// instruction and page-fault totals, every slot's count and cycles, and the data's
// `data_bytes` from kData (0: none) as stored.
void same_state(Side& interpreted, Side& compiled, uint64_t data_bytes) {
  for (unsigned r = 0; r < 16; ++r) CHECK(interpreted.cpu.gr[r] == compiled.cpu.gr[r]);
  CHECK(interpreted.cpu.psw_addr == compiled.cpu.psw_addr);
  CHECK(interpreted.cpu.cc == compiled.cpu.cc);
  CHECK(interpreted.cpu.cycles == compiled.cpu.cycles);
  CHECK(interpreted.cpu.cycles_by_cause() == compiled.cpu.cycles_by_cause());
  CHECK(interpreted.cpu.instructions == compiled.cpu.instructions);
  CHECK(interpreted.cpu.page_faults == compiled.cpu.page_faults);
  const auto sa = emu::slot_counts(interpreted.space), sb = emu::slot_counts(compiled.space);
  REQUIRE(sa.size() == sb.size());
  for (size_t k = 0; k < sa.size(); ++k) {
    CAPTURE(sa[k].address);
    CHECK(std::tie(sa[k].address, sa[k].count, sa[k].spent, sa[k].id) ==
          std::tie(sb[k].address, sb[k].count, sb[k].spent, sb[k].id));
  }
  // The data as stored, page by page (a page one side lacks reads as missing on both):
  // every store landed in both, and only those.
  for (uint64_t page = kData; page < kData + data_bytes; page += emu::kPageSize) {
    CAPTURE(page);
    std::vector<uint8_t> da(emu::kPageSize), db(emu::kPageSize);
    const bool ra = interpreted.space.read_bytes(page, da.data(), da.size());
    const bool rb = compiled.space.read_bytes(page, db.data(), db.size());
    CHECK(ra == rb);
    CHECK(da == db);
  }
}

void same(const Bytes& code, uint64_t chunk, const Setup& setup) {
  Side interpreted(false, setup, code), compiled(true, setup, code);
  const emu::RunResult a = interpreted.run(chunk, kCode + code.size());
  const emu::RunResult b = compiled.run(chunk, kCode + code.size());
  const unsigned block_length = setup.block_length;
  const uint64_t cache_bytes = setup.cache_bytes;
  CAPTURE(chunk, block_length, setup.timing, setup.map_on_fault);
  CHECK(a.reason == b.reason);
  CHECK(a.check.insn_address == b.check.insn_address);
  CHECK(a.check.mnemonic == b.check.mnemonic);
  same_state(interpreted, compiled, setup.map_on_fault ? 0 : setup.data_bytes);
  // Blocks ran (a run limit below a block's length only lets the shortest in).
  if (emu::jit::CodeCache::available() && chunk >= 7) CHECK(compiled.cache->stats().blocks_compiled > 0);
  // A cache too small for two blocks drops one for each it compiles; counts stay exact.
  if (emu::jit::CodeCache::available() && cache_bytes < 64 && block_length == 1) CHECK(compiled.cache->stats().blocks_evicted > 0);
  // A cache of a few blocks over an arena of 8 KiB (blocks of one instruction, over 100
  // bytes each): 150 compiles wrap the ring of code at least twice, live blocks in it.
  if (emu::jit::CodeCache::available() && cache_bytes >= 64 && cache_bytes < 1024 && block_length == 1)
    CHECK(compiled.cache->stats().blocks_compiled > 150);
}

void same(const Bytes& code, uint64_t chunk, unsigned block_length = 64, uint64_t cache_bytes = 1 << 20) {
  same(code, chunk, Setup{block_length, cache_bytes});
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

// `code` run compiled to its program check, which must be at `mnemonic`: the side,
// for the state it left.
std::unique_ptr<Side> compiled_to_program_check(const Bytes& code, const char* mnemonic) {
  auto compiled = std::make_unique<Side>(true, 64, code);
  const emu::RunResult r = compiled->run(1000000, kCode + code.size());
  REQUIRE(r.reason == emu::StopReason::ProgramCheck);
  CHECK(r.check.mnemonic == mnemonic);
  return compiled;
}
}  // namespace

TEST_CASE("compiled blocks stop where the interpreter stops, at every run limit", "[jit]") {
  const Bytes code = loop_with({});
  // Every limit from 1 to 15 (the loop's block is 7 instructions: each run stops at every
  // place in it, and a block that loops to itself meets the limit at each), and more.
  for (uint64_t chunk = 1; chunk <= 15; ++chunk) same(code, chunk);
  for (uint64_t chunk : {64, 1000000}) same(code, chunk);
  same(code, 1000000, 1);     // blocks of one instruction
  same(code, 1000000, 1, 1);  // and a code cache of one byte: every compile evicts
  same(code, 1000000, 64, 1);
  same(code, 1000000, 1, 600);  // a few blocks live while the code ring wraps
}

TEST_CASE("each run stops after exactly its limit, blocks that loop to themselves included", "[jit]") {
  // The two sides run in step, chunk by chunk; after every run both are at the same
  // instruction with the same count (the final state alone would not show a run that
  // went one instruction further and the next one less).
  const Bytes code = loop_with({});
  for (uint64_t chunk = 1; chunk <= 15; ++chunk) {
    CAPTURE(chunk);
    Side interpreted(false, 64, code), compiled(true, 64, code);
    for (int k = 0; k < 2000 && interpreted.cpu.psw_addr < kCode + code.size(); ++k) {
      interpreted.cpu.run(chunk);
      compiled.cpu.run(chunk);
      REQUIRE(interpreted.cpu.instructions == compiled.cpu.instructions);
      REQUIRE(interpreted.cpu.psw_addr == compiled.cpu.psw_addr);
      REQUIRE(interpreted.cpu.cycles == compiled.cpu.cycles);
    }
    if (emu::jit::CodeCache::available()) CHECK(compiled.cache->stats().blocks_compiled > 0);
  }
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
  const std::unique_ptr<Side> compiled = compiled_to_program_check(code, "LG");
  CHECK(compiled->cpu.gr[11] == 127);
}

TEST_CASE("the CC an inline load's program check sees is the one set before it, though a later one replaces it", "[jit]") {
  // CHI sets CC 1 (r11 < 200); CR after the LG would replace it with 0, but the LG
  // faults first (past the data page, iteration 128): the program check's CC is CHI's,
  // 1 (AGHI's, the last stored before it otherwise, is 2), so the block must store
  // CHI's CC though the CR's follows in the same block.
  const Bytes extra = RRE(0xB904, 9, 6)           // LGR r9,r6
                      + RRE(0xB908, 9, 4)         // AGR r9,r4
                      + RI(0xA7E, 11, 200)        // CHI r11,200
                      + RXY(0xE304, 10, 0, 9, 0)  // LG r10,0(r9)
                      + RR(0x19, 3, 3)            // CR r3,r3: CC 0
                      + RI(0xA7B, 11, 1);         // AGHI r11,1
  const Bytes code = loop_with(extra);
  for (uint64_t chunk : {1, 4, 1000000}) same(code, chunk);
  const std::unique_ptr<Side> compiled = compiled_to_program_check(code, "LG");
  CHECK(compiled->cpu.cc == 1);
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

// A loop over one page after another (kData + 4096 * iteration): every inline load and
// store meets a page the micro-TLB does not hold yet, some operands cross into the next
// page, some lines are new to the cache model. Each leaves the inline path for the
// handler in the middle of the block.
Bytes page_walk(const Bytes& body_extra = {}) {
  Bytes body = RXY(0xE304, 5, 0, 6, 8)           // LG r5,8(r6): a new page (micro-TLB miss)
               + RXY(0xE304, 8, 0, 6, 4092)      // LG r8,4092(r6): crosses into the next page
               + RXY(0xE324, 5, 0, 6, 16)        // STG r5,16(r6): no write right yet
               + RX(0x48, 9, 0, 6, 4094)         // LH r9,4094(r6): crosses too
               + RX(0x50, 9, 0, 6, 24)           // ST r9,24(r6): the write right is there now
               + RXY(0xE390, 10, 0, 6, 17)       // LLGC r10,17(r6)
               + RX(0x43, 10, 0, 6, 2048)        // IC r10,2048(r6): another line of the page
               + RXY(0xE372, 10, 3, 6, 3000)     // STCY r10,3000(r3,r6): indexed
               + RRE(0xB908, 11, 5)              // AGR r11,r5
               + RXY(0xE302, 12, 0, 6, 0x88)     // LTG r12,0x88(r6): negative (CC 1)
               + RRE(0xB222, 9, 0) + RRE(0xB982, 11, 9)  // IPM r9; XGR r11,r9: the CC kept
               + RXY(0xE312, 12, 0, 6, 4094)     // LT r12,4094(r6): crosses
               + RRE(0xB222, 9, 0) + RRE(0xB982, 11, 9)  // IPM r9; XGR r11,r9
               + RXY(0xE308, 11, 0, 6, 0x88)     // AG r11,0x88(r6): negative, overflows now and then
               + RRE(0xB222, 9, 0) + RRE(0xB982, 11, 9)  // IPM r9; XGR r11,r9
               + RX(0x5B, 12, 0, 6, 0x90)        // S r12,0x90(r6)
               + RRE(0xB222, 9, 0) + RRE(0xB982, 11, 9)
               + RXY(0xE320, 12, 0, 6, 8)        // CG r12,8(r6)
               + RRE(0xB222, 9, 0) + RRE(0xB982, 11, 9)
               + RXY(0xE359, 12, 0, 6, 4092)     // CY r12,4092(r6)
               + RRE(0xB222, 9, 0) + RRE(0xB982, 11, 9)
               + RXY(0xE371, 6, 0, 6, 4096)      // LAY r6,4096(r6)
               + body_extra;
  const int back = -int(body.size()) / 2;
  Bytes head = RI(0xA79, 1, 60) + RI(0xA79, 3, 5)  // LGHI r1,60; LGHI r3,5
               + RIL(0xC0E, 6, 0) + RIL(0xC09, 6, int64_t(kData));
  return head + body + RI(0xA77, 1, back);          // BRCTG r1,loop
}

TEST_CASE("an inline load or store that misses the micro-TLB in the middle of a block is the handler's", "[jit]") {
  const Bytes code = page_walk();
  for (bool timing : {false, true}) {
    for (uint64_t chunk : {1, 3, 1000000}) same(code, chunk, Setup{64, 1 << 20, 62 * 0x1000, timing});
    same(code, 1000000, Setup{1, 1 << 20, 62 * 0x1000, timing});  // blocks of one instruction
  }
  // The same loop over one page (r6 does not move): after the first pass every access
  // hits the micro-TLB (and, with the full model, the line touched last, or not).
  Bytes still = page_walk(RXY(0xE371, 6, 0, 6, -4096));  // LAY r6,-4096(r6)
  for (bool timing : {false, true}) same(still, 1000000, Setup{64, 1 << 20, 2 * 0x1000, timing});
}

TEST_CASE("a page fault on an inline load or store is taken, retried and counted as the interpreter does", "[jit]") {
  // No data page is mapped: the first access to each faults, the handler maps it and the
  // instruction runs again (Retry), in the middle of a compiled block.
  const Bytes code = page_walk();
  for (bool timing : {false, true})
    for (uint64_t chunk : {1, 5, 1000000}) same(code, chunk, Setup{64, 1 << 20, 0, timing, true});
  Side compiled(true, Setup{64, 1 << 20, 0, false, true}, code);
  compiled.run(1000000, kCode + code.size());
  CHECK(compiled.cpu.page_faults == 61);  // 60 pages walked, and the page after the last
  if (emu::jit::CodeCache::available()) CHECK(compiled.cache->stats().blocks_compiled > 0);
}

TEST_CASE("an inline store into the running block takes the handler and the block leaves", "[jit]") {
  // STH of the loop counter over the immediate of the AHI three instructions on (as the
  // STC case above, with a halfword): the first two passes store into the data page,
  // the third, in the block compiled at the loop start's second arrival, into the AHI.
  // The inline store finds no write right (the frame holds decoded code), the handler
  // stores and drops the decoded page, and the block leaves before the old AHI runs.
  // The LH before it reads the same halfword, so that the micro-TLB holds the code
  // page for loads (rtag) but never for stores (wtag).
  Bytes code = RI(0xA79, 1, 40) + RIL(0xC0E, 12, 0) + RIL(0xC09, 12, int64_t(kData))  // r12 = kData
               + RIL(0xC0E, 14, 0) + RIL(0xC09, 14, int64_t(kData))                 // r14 = kData
               + RIL(0xC0E, 15, 0);
  const unsigned loop_at = unsigned(code.size() + 6);
  code = code + RIL(0xC09, 15, int64_t(kCode + loop_at + 16 + 2))  // r15 = the AHI's immediate
         + RX(0x48, 7, 0, 12, 0)                                   // loop: LH r7,0(r12)
         + RX(0x40, 1, 0, 12, 0)                                   // STH r1,0(r12)
         + RRE(0xB904, 12, 14)                                     // LGR r12,r14
         + RRE(0xB904, 14, 15)                                     // LGR r14,r15
         + RI(0xA7A, 13, 0)                                        // AHI r13,<r1>
         + RI(0xA77, 1, -10);                                      // BRCTG r1,loop
  for (uint64_t chunk : {1, 2, 1000000}) same(code, chunk);
  same(code, 1000000, Setup{64, 1 << 20, 0x1000, true});
  Side compiled(true, 64, code);
  compiled.run(1000000, kCode + code.size());
  CHECK(compiled.cpu.gr[13] == 38 * 39 / 2);
  if (emu::jit::CodeCache::available()) CHECK(compiled.cache->stats().blocks_compiled > 0);
}

TEST_CASE("inline ALU instructions set the registers and condition codes of their handlers", "[jit]") {
  // Each instruction's CC goes into a hash in r13 (IPM, RLLG, XGR) and its result into
  // the registers compared at the end; r2 runs into a 64-bit and r3 through 0 and into
  // a 32-bit overflow (CC 3, taken by the handler: the program mask is 0); the last
  // ones give zero results and equal operands.
  const Bytes hash = RRE(0xB222, 9, 0) + RSY(0xEB1C, 13, 13, 0, 3) + RRE(0xB982, 13, 9);
  const Bytes ops[] = {
      RI(0xA7B, 2, 1),            RI(0xA7A, 3, 1),           RIL(0xC29, 3, 0x7FFFFFD0 / 5),  // AGHI, AHI, AFI
      RR(0x1A, 4, 2),             RRE(0xB908, 5, 3),         RR(0x1B, 7, 3),    // AR, AGR, SR
      RRE(0xB909, 8, 2),          RR(0x19, 3, 4),            RRE(0xB920, 2, 5), // SGR, CR, CGR
      RI(0xA7E, 3, 5),            RI(0xA7F, 2, -1),          RIL(0xC2D, 4, -7), // CHI, CGHI, CFI
      RR(0x15, 3, 4),             RRE(0xB921, 2, 3),         RR(0x14, 10, 3),   // CLR, CLGR, NR
      RR(0x16, 10, 2),            RR(0x17, 10, 4),           RRE(0xB980, 11, 3),  // OR, XR, NGR
      RRE(0xB981, 11, 2),         RRE(0xB982, 11, 5),        RR(0x12, 12, 3),   // OGR, XGR, LTR
      RRE(0xB902, 12, 2),         RIEf(0xEC55, 12, 2, 40, 0x80 | 63, 8),    // LTGR, RISBG zero
      RIEf(0xEC55, 12, 3, 60, 3, 17),  RIEf(0xEC59, 14, 2, 0, 31, 32),      // RISBG wrapping, RISBGN
      RIEf(0xEC57, 14, 3, 32, 63, 5),  RIEf(0xEC54, 14, 2, 8, 40, 60),      // RXSBG, RNSBG
      RIEf(0xEC56, 14, 3, 50, 10, 1),  RIEf(0xEC57, 14, 2, 0x80 | 0, 63, 0), // ROSBG, RXSBG test
      RI(0xA71, 3, 0x00F0),       RI(0xA71, 3, 0),           RI(0xA71, 2, 0x8001),  // TMLL
      // Zero results and equal operands: r15 runs from -150 through 0.
      RI(0xA7A, 15, 1),           RR(0x19, 3, 3),            RRE(0xB920, 2, 2), // AHI, CR, CGR
      RR(0x1B, 7, 7),             RRE(0xB902, 12, 0),        RI(0xA7E, 15, 0),  // SR, LTGR, CHI
      RR(0x17, 10, 10),           RRE(0xB921, 15, 15),       RIEf(0xEC55, 12, 15, 0, 0x80 | 15, 0)};  // XR, CLGR, RISBG
  Bytes body;
  for (const Bytes& op : ops) body = body + op + hash;
  const int back = -int(body.size()) / 2;
  const Bytes code = RI(0xA79, 1, 300) + RIL(0xC0E, 2, 0x7FFFFFFF) + RIL(0xC09, 2, -200)  // r2 = 2^63 - 200
                     + RI(0xA79, 3, -100) + RI(0xA79, 15, -150) + body + RI(0xA77, 1, back);  // BRCTG r1,loop
  for (uint64_t chunk : {1, 3, 1000000}) same(code, chunk);
  same(code, 1000000, 1);  // blocks of one instruction
  Side compiled(true, 64, code);
  compiled.run(1000000, kCode + code.size());
  CHECK(compiled.cpu.gr[13] != 0);
}

TEST_CASE("inline multiplies, logical adds, field operations and shifts set what their handlers set", "[jit]") {
  // r2 (64 bits) and r3's low word run up through 2^64 and 2^32 by steps that carry some
  // passes; r4 and r5 are products and sums of them, r6 a field operand and r7 a zero.
  // Each CC goes into a hash in r13 (IPM, RLLG, XGR), each result into r12.
  const Bytes hash = RRE(0xB222, 9, 0) + RSY(0xEB1C, 13, 13, 0, 3) + RRE(0xB982, 13, 9)   // IPM; RLLG; XGR r13
                     + RSY(0xEB1C, 12, 12, 0, 7) + RRE(0xB982, 12, 4) + RRE(0xB982, 12, 5)  // r12 ^= r4, r5
                     + RRE(0xB982, 12, 6);                                                  // r12 ^= r6
  const Bytes r4_r2 = RRE(0xB904, 4, 2), r5_r3 = RRE(0xB904, 5, 3), r6_r2 = RRE(0xB904, 6, 2);
  const Bytes ops[] = {
      r4_r2 + RRE(0xB252, 4, 3),   r5_r3 + RRE(0xB90C, 5, 2),   r5_r3 + RRE(0xB91C, 5, 2),   // MSR, MSGR, MSGFR
      r4_r2 + RI(0xA7C, 4, -3),    r5_r3 + RI(0xA7D, 5, 7),     r4_r2 + RIL(0xC21, 4, 0x12345),  // MHI, MGHI, MSFI
      r5_r3 + RIL(0xC20, 5, -0x54321),                                                      // MSGFI
      r4_r2 + RR(0x1E, 4, 3),      r5_r3 + RRE(0xB90A, 5, 2),   r4_r2 + RR(0x1F, 4, 3),      // ALR, ALGR, SLR
      r5_r3 + RRE(0xB90B, 5, 2),   r4_r2 + RIL(0xC2B, 4, -0x10000000),                      // SLGR, ALFI
      r4_r2 + RIL(0xC25, 4, 0x7),  r5_r3 + RIL(0xC2A, 5, -1),   r5_r3 + RIL(0xC24, 5, -0x80000000),  // SLFI, ALGFI, SLGFI
      RR(0x1E, 7, 7),              RR(0x1F, 7, 7),              RRE(0xB90B, 7, 7),           // ALR, SLR, SLGR: zero
      r6_r2 + RIL(0xC0B, 6, int32_t(0xF0F0F0F0)), r6_r2 + RIL(0xC0A, 6, 0x0F0F0F0F),        // NILF, NIHF
      r6_r2 + RIL(0xC0D, 6, 0x11),  r6_r2 + RIL(0xC0C, 6, int32_t(0x80000000)),             // OILF, OIHF
      r6_r2 + RIL(0xC07, 6, -1),    r6_r2 + RIL(0xC06, 6, 0x5A5A),                          // XILF, XIHF
      r6_r2 + RI(0xA57, 6, 0x00FF), r6_r2 + RI(0xA56, 6, 0x0F00), r6_r2 + RI(0xA55, 6, 0x8001),  // NILL, NILH, NIHL
      r6_r2 + RI(0xA54, 6, 0x0100), r6_r2 + RI(0xA5B, 6, 0x0100), r6_r2 + RI(0xA5A, 6, 0x0001),  // NIHH, OILL, OILH
      r6_r2 + RI(0xA59, 6, 0x8000), r6_r2 + RI(0xA58, 6, 0x0400),                            // OIHL, OIHH
      RIL(0xC0B, 7, 0), RI(0xA57, 7, 0), RIL(0xC0D, 7, 0), RI(0xA5B, 7, 0),  // zero fields: NILF, NILL, OILF, OILL
      // Shifts by the loop count r1 (300 down to 1: counts 0-63, 32 and more among them)
      r4_r2 + RS(0x89, 4, 0, 1, 0),  r5_r3 + RS(0x88, 5, 0, 1, 3),       // SLL, SRL
      RSY(0xEBDF, 4, 2, 1, 0),       RSY(0xEBDE, 5, 3, 1, 1),            // SLLK, SRLK
      RSY(0xEB0A, 6, 2, 1, 0),       RSY(0xEB0A, 6, 3, 0, 63),           // SRAG (by r1, by 63)
      RRE(0xB903, 6, 2) + RSY(0xEB0A, 6, 6, 1, 0),                       // LCGR r6,r2; SRAG r6,r6 (negative)
      r4_r2 + RIL(0xC09, 4, 0x1234567), RRE(0xB3C1, 2, 2) + RRE(0xB3CD, 5, 2),  // IILF; LDGR f2,r2; LGDR r5,f2
      // R2's low word extended: AGFR, SGFR, CGFR, ALGFR, SLGFR, CLGFR
      r4_r2 + RRE(0xB918, 4, 3),  r5_r3 + RRE(0xB919, 5, 2),  RRE(0xB930, 2, 3),
      r4_r2 + RRE(0xB91A, 4, 3),  r5_r3 + RRE(0xB91B, 5, 2),  RRE(0xB931, 3, 2)};
  Bytes body;
  for (const Bytes& op : ops) body = body + op + hash;
  body = body + RIL(0xC28, 2, 0x51234567) + RIL(0xC29, 3, 0x71234567);  // AGFI r2; AFI r3 (overflow, mask off)
  const int back = -int(body.size()) / 2;
  const Bytes code = RI(0xA79, 1, 300) + RIL(0xC01, 2, -0x40000000)      // LGFI r2: 2^64 - 2^30
                     + RIL(0xC09, 3, -0x40000000) + RI(0xA79, 7, 0)      // IILF r3; LGHI r7,0
                     + body + RI(0xA77, 1, back);                        // BRCTG r1,loop
  for (uint64_t chunk : {1, 3, 1000000}) same(code, chunk);
  same(code, 1000000, 1);  // blocks of one instruction
  Side interpreted(false, 64, code);
  interpreted.run(1000000, kCode + code.size());
  CHECK(interpreted.cpu.gr[13] != 0);
  CHECK(interpreted.cpu.gr[12] != 0);
}

TEST_CASE("a signed overflow with the program mask's overflow bit on is the handler's interruption", "[jit]") {
  // SPM turns fixed-point overflow on (R1 bit 36); AHI r3 overflows on pass 37, in the
  // middle of the loop's block: the program check is where the interpreter's is, with
  // its result and CC 3 in place, AGHI r11 of that pass not done.
  const Bytes body = RI(0xA7B, 2, 1) + RI(0xA7A, 3, 0x7000) + RI(0xA7B, 11, 1);  // AGHI r2; AHI r3; AGHI r11
  const int back = -int(body.size()) / 2;
  const Bytes code = RI(0xA79, 1, 300) + RIL(0xC09, 7, 0x08000000) + RR(0x04, 7, 0)  // IILF r7; SPM r7
                     + RIL(0xC09, 3, 0x7FF00000) + body + RI(0xA77, 1, back);         // IILF r3; BRCTG
  for (uint64_t chunk : {1, 4, 1000000}) same(code, chunk);
  same(code, 1000000, 1);
  const std::unique_ptr<Side> compiled = compiled_to_program_check(code, "AHI");
  CHECK(compiled->cpu.cc == 3);
  CHECK(compiled->cpu.gr[11] == 36);
}

TEST_CASE("inline branches go where their handlers go, taken and not, for every mask", "[jit]") {
  // Each branch skips an AGHI r13,1 when taken; r13 is stirred after each (RLLG, AGR with
  // the loop count), so the conditions vary from iteration to iteration: the CC from
  // TMLL r13,3 (all four), the compared values from r13's low bits (-1 to 2: signed and
  // unsigned orders differ).
  const Bytes skipped = RI(0xA7B, 13, 1);                                   // AGHI r13,1
  const Bytes stir = RSY(0xEB1C, 13, 13, 0, 5) + RRE(0xB908, 13, 1);       // RLLG r13,r13,5; AGR r13,r1
  const Bytes tmll = RI(0xA71, 13, 3);
  const Bytes operands = RIEf(0xEC55, 6, 13, 62, 0x80 | 63, 0) + RI(0xA7B, 6, -1)   // r6 = (r13 & 3) - 1
                         + RIEf(0xEC55, 7, 13, 62, 0x80 | 63, 62) + RI(0xA7B, 7, -1);  // r7 = (r13 >> 2 & 3) - 1
  const Bytes count = RIEf(0xEC55, 5, 13, 62, 0x80 | 63, 0);                 // r5 = r13 & 3
  Bytes body;
  std::vector<uint64_t> skipped_at;  // offsets in the body of the AGHIs the branches skip
  auto diamond = [&](const Bytes& prep, const Bytes& branch, const Bytes& after = {}) {
    body = body + prep + branch;
    skipped_at.push_back(body.size());
    body = body + skipped + stir + after;
  };
  const int over4 = (4 + 4) / 2, over6 = (6 + 4) / 2;  // halfwords: the branch and the AGHI
  for (unsigned m = 0; m < 16; ++m) {
    diamond(tmll, RI(0xA74, m, over4));    // BRC
    diamond(tmll, RIL(0xC04, m, over6));   // BRCL
  }
  diamond(count, RI(0xA76, 5, over4), RRE(0xB908, 13, 5));   // BRCT r5
  diamond(count, RI(0xA77, 5, over4), RRE(0xB908, 13, 5));   // BRCTG r5
  diamond({}, RI(0xA75, 14, over4), RRE(0xB982, 13, 14));     // BRAS r14: the link in the hash
  diamond({}, RIL(0xC05, 14, over6), RRE(0xB982, 13, 14));    // BRASL r14
  for (unsigned m3 : {0u, 1u, 2u, 4u, 6u, 8u, 10u, 12u, 14u, 15u}) {
    const uint8_t mb = uint8_t(m3 << 4);
    diamond(operands, RIE(0xEC76, 6, 7, over6, mb));   // CRJ
    diamond(operands, RIE(0xEC64, 6, 7, over6, mb));   // CGRJ
    diamond(operands, RIE(0xEC77, 6, 7, over6, mb));   // CLRJ
    diamond(operands, RIE(0xEC65, 6, 7, over6, mb));   // CLGRJ
    diamond(operands, RIE(0xEC7E, 6, m3, over6, uint8_t(-1)));  // CIJ r6,-1
    diamond(operands, RIE(0xEC7C, 6, m3, over6, 1));            // CGIJ r6,1
    diamond(operands, RIE(0xEC7F, 6, m3, over6, 1));            // CLIJ r6,1
    diamond(operands, RIE(0xEC7D, 7, m3, over6, 2));            // CLGIJ r7,2
  }
  const int back = -int(body.size()) / 2;
  const Bytes head = RI(0xA79, 1, 300) + RIL(0xC0E, 13, 0x12345) + RIL(0xC09, 13, 0x6789ABCD);
  const Bytes code = head + body + RI(0xA77, 1, back);  // BRCTG r1,loop
  for (uint64_t chunk : {1, 3, 1000000}) same(code, chunk);
  same(code, 1000000, 1);  // blocks of one instruction
  same(code, 1000000, 2);
  // The conditions varied: most branches went both ways over the 300 iterations (the
  // AGHI they skip ran some of the times). Of the 116, 38 go one way by their masks
  // (BRC and BRCL 0 and 15, BRAS and BRASL, M3 0, 1, 14 and 15); 76 of the other 78 do.
  Side interpreted(false, 64, code);
  interpreted.run(1000000, kCode + code.size());
  unsigned both_ways = 0;
  for (const auto& row : emu::slot_counts(interpreted.space))
    for (uint64_t at : skipped_at)
      if (row.address == kCode + head.size() + at && row.count > 0 && row.count < 300) ++both_ways;
  CHECK(skipped_at.size() == 116);
  CHECK(both_ways >= 70);
}

// machine.engine: cosim on the cases above: every block is also interpreted in a copy
// of the process and compared, and no difference stops the run; the results are the
// compiled engine's (the same as the interpreter's).
TEST_CASE("co-simulation finds every block the same on the block compiler's cases", "[jit][cosim]") {
  if (!emu::jit::CodeCache::available()) return;
  const auto cosim = [](const Bytes& code, Setup setup) {
    setup.cosim = true;
    same(code, 1000000, setup);
    same(code, 3, setup);
    Side compiled(true, setup, code);
    compiled.run(1000000, kCode + code.size());
    CHECK(compiled.cpu.cosim_compared > 0);
  };
  for (bool timing : {false, true}) {
    cosim(loop_with({}), Setup{64, 1 << 20, 0x1000, timing});
    cosim(loop_with({}), Setup{1, 1 << 20, 0x1000, timing});
    cosim(page_walk(), Setup{64, 1 << 20, 62 * 0x1000, timing});
    cosim(page_walk(), Setup{64, 1 << 20, 0, timing, true});  // page faults in blocks
  }
  // A program check in the middle of a block (LG past the data page).
  cosim(loop_with(RRE(0xB904, 9, 6) + RRE(0xB908, 9, 4) + RXY(0xE304, 10, 0, 9, 0) + RI(0xA7B, 11, 1)), Setup{});
}

namespace {
// Sets emu::jit::g_miscompile_for_tests for one scope.
struct Miscompile {
  explicit Miscompile(int how) { emu::jit::g_miscompile_for_tests = how; }
  ~Miscompile() { emu::jit::g_miscompile_for_tests = 0; }
  Miscompile(const Miscompile&) = delete;
  Miscompile& operator=(const Miscompile&) = delete;
};

// Runs `code` compiled under co-simulation; returns the error it stopped with.
std::string cosim_error(const Bytes& code) {
  Setup setup;
  setup.cosim = true;
  Side compiled(true, setup, code);
  try {
    compiled.run(1000000, kCode + code.size());
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("co-simulation reports a miscompiled instruction: its block, the field and both values", "[jit][cosim]") {
  if (!emu::jit::CodeCache::available()) return;
  // loop_with's body starts at kCode + 16 (LGHI, LLIHF, IILF before it); LGHI r8,5 at
  // its end gives 6 when miscompiled.
  const Bytes code = loop_with(RI(0xA79, 8, 5));
  CHECK(cosim_error(code).empty());
  {
    const Miscompile wrong(emu::jit::kMiscompileLghi);
    const std::string e = cosim_error(code);
    CAPTURE(e);
    CHECK(e.find("the compiled block at 0x10010 differs from the interpreter") != std::string::npos);
    CHECK(e.find("gr8: interpreter 0x5, block 0x6") != std::string::npos);
    CHECK(e.find("0x10010  e33030010071  LAY") != std::string::npos);  // the block, disassembled
    CHECK(e.find("LGHI") != std::string::npos);
  }
  {
    // STG r2,8(r6), nothing loading it back: its bytes land one on, so the first
    // difference is the storage's, at the last byte of the doubleword (r2 = 3 * pass).
    const Bytes store = RI(0xA79, 1, 50) + RIL(0xC0E, 6, 0) + RIL(0xC09, 6, int64_t(kData))  // r6 = kData
                        + RI(0xA7B, 2, 3)                                                   // loop: AGHI r2,3
                        + RXY(0xE324, 2, 0, 6, 8)                                           // STG r2,8(r6)
                        + RI(0xA77, 1, -5);                                                 // BRCTG r1,loop
    const Miscompile wrong(emu::jit::kMiscompileStore);
    const std::string e = cosim_error(store);
    CAPTURE(e);
    CHECK(e.find("the compiled block at 0x10010 differs from the interpreter") != std::string::npos);
    CHECK(e.find("the storage byte at 0x4000f: interpreter 0x") != std::string::npos);
    CHECK(e.find(", block 0x0\n") != std::string::npos);
  }
}

namespace {
// A program in pieces, each written at its address (kCode's four pages), run by both
// engines in chunks until it leaves [kCode, kCode + 0x4000) or stops at a program check
// (the end marker 0000, an invalid opcode). `check` then sees both sides.
using Pieces = std::vector<std::pair<uint64_t, Bytes>>;
template <class Check>
void same_pieces(const Pieces& program, uint64_t chunk, const Setup& setup, Check check) {
  Side interpreted(false, setup, program.front().second), compiled(true, setup, program.front().second);
  for (Side* side : {&interpreted, &compiled})
    for (const auto& [address, bytes] : program) side->space.write_bytes(address, bytes.data(), bytes.size());
  const emu::RunResult a = interpreted.run(chunk, kCode + 0x4000);
  const emu::RunResult b = compiled.run(chunk, kCode + 0x4000);
  const unsigned block_length = setup.block_length;
  CAPTURE(chunk, block_length, setup.timing, setup.cosim);
  CHECK(a.reason == b.reason);
  CHECK(a.check.insn_address == b.check.insn_address);
  CHECK(a.check.mnemonic == b.check.mnemonic);
  same_state(interpreted, compiled, setup.data_bytes);
  check(interpreted, compiled);
}

const Bytes kEndMarker = {0x00, 0x00};  // an invalid opcode: the operation exception ends the run
}  // namespace

TEST_CASE("EXECUTE of a target stored into between executions runs the stored target", "[jit]") {
  // The target, AHI r13,<i2>, gets the loop counter as its immediate (STH r1) on every
  // fourth pass: the store's base rotates through r12 = T, r10, r11, r9 = the data page.
  // EX or EXRL then runs it, with R1 0 or r7 (0x20, ORed into the R1 field: AHI r15).
  // The target stands in the loop's block after the EX (run directly too), after the
  // program's end on the same page (only executed), or on the next code page, called
  // there as a block of its own by BRASL or only executed. The store is in the EX's
  // block or, after a BRC to the next instruction, in the block before it. Between two
  // stores, blocks compile (at their second arrival) and run with the target as stored.
  enum Target { kInLoopBlock, kSamePageNotRun, kOtherPageRun, kOtherPageNotRun };
  const uint64_t other_page = kCode + 0x1000 + 0x40;
  const Bytes target = RI(0xA7A, 13, 0);  // AHI r13,0
  for (const bool exrl : {false, true})
    for (const bool store_in_other_block : {false, true})
      for (const Target where : {kInLoopBlock, kSamePageNotRun, kOtherPageRun, kOtherPageNotRun})
        for (const unsigned ex_reg : {0u, 7u}) {
          Bytes head = RI(0xA79, 1, 40) + RI(0xA79, 7, 0x20)                           // LGHI r1,40; LGHI r7,0x20
                       + RIL(0xC0E, 10, 0) + RIL(0xC09, 10, int64_t(kData))             // r10, r11, r9 = kData
                       + RRE(0xB904, 11, 10) + RRE(0xB904, 9, 10)
                       + RIL(0xC0E, 12, 0) + RIL(0xC0E, 6, 0);                           // r12, r6 = T (below)
          const size_t t_high = head.size();                                             // IILF r12 and r6 follow
          head = head + RIL(0xC09, 12, 0) + RIL(0xC09, 6, 0);
          const uint64_t loop_at = kCode + head.size();
          Bytes body = RX(0x40, 1, 0, 12, 2)                                             // STH r1,2(r12)
                       + RRE(0xB904, 8, 12) + RRE(0xB904, 12, 10) + RRE(0xB904, 10, 11)  // rotate r12, r10, r11, r9
                       + RRE(0xB904, 11, 9) + RRE(0xB904, 9, 8);
          if (store_in_other_block) body = body + RI(0xA74, 15, 2);                      // BRC 15,next: the block ends
          const uint64_t ex_at = loop_at + body.size();
          body = body + (exrl ? RIL(0xC60, ex_reg, 0) : RX(0x44, ex_reg, 0, 6, 0));     // EXRL or EX r,0(r6)
          uint64_t t_at = 0;
          if (where == kInLoopBlock) t_at = loop_at + body.size(), body = body + target;
          if (where == kOtherPageRun) body = body + RIL(0xC05, 14, int64_t(other_page - (loop_at + body.size())) / 2);
          body = body + RI(0xA7B, 5, 1);                                                 // AGHI r5,1
          body = body + RI(0xA77, 1, -int(body.size()) / 2) + kEndMarker;                // BRCTG r1,loop
          if (where == kSamePageNotRun) t_at = loop_at + body.size() + 2, body = body + Bytes{0x07, 0x00} + target;
          if (where == kOtherPageRun || where == kOtherPageNotRun) t_at = other_page;
          // Patch in T: IILF's immediates and EXRL's halfwords.
          Bytes code = head + body;
          for (size_t at : {t_high + 2, t_high + 8})
            for (unsigned k = 0; k < 4; ++k) code[at + k] = uint8_t(uint32_t(t_at) >> (24 - 8 * k));
          if (exrl) {
            const uint32_t halfwords = uint32_t(int64_t(t_at - ex_at) / 2);
            for (unsigned k = 0; k < 4; ++k) code[ex_at - kCode + 2 + k] = uint8_t(halfwords >> (24 - 8 * k));
          }
          Pieces program{{kCode, code}};
          if (t_at == other_page) program.push_back({other_page, target + RR(0x07, 15, 14)});  // AHI; BR r14
          CAPTURE(exrl, store_in_other_block, int(where), ex_reg);
          const auto stored_and_compiled = [&](Side& interpreted, Side& compiled) {
            // The stored immediates ran: r13 (or r15 through R1's OR) sums loop counters.
            CHECK(interpreted.cpu.gr[ex_reg ? 15 : 13] > 40);
            CHECK(interpreted.cpu.gr[5] == 40);
            if (emu::jit::CodeCache::available()) CHECK(compiled.cache->stats().blocks_compiled > 0);
          };
          for (uint64_t chunk : {1, 3, 7, 1000000}) same_pieces(program, chunk, Setup{}, stored_and_compiled);
          same_pieces(program, 1000000, Setup{1}, stored_and_compiled);  // blocks of one instruction
          if (emu::jit::CodeCache::available()) {
            Setup cosim;
            cosim.cosim = true;
            same_pieces(program, 1000000, cosim, [&](Side& interpreted, Side& compiled) {
              stored_and_compiled(interpreted, compiled);
              CHECK(compiled.cpu.cosim_compared + compiled.cpu.cosim_unchecked > 0);
            });
          }
        }
}

TEST_CASE("a code page unmapped faults where the interpreter faults, and remapped runs its new code", "[jit]") {
  // The loop calls a subroutine on the third code page (BRASL r14): three AGHI r13,1 and
  // BR r14, compiled into blocks after its second call. The run stops after `before`
  // instructions (in the loop or inside the subroutine), the page is unmapped, and the
  // run goes on: the next fetch from it is a page-translation exception, at the same
  // instruction with the same counts under both engines. Then the page is mapped again
  // with other code at the same addresses (AGHI r12,1: r13 must not move again, so no
  // block of the old code runs), either at once (`remap_at_once`: no fault between) or
  // after the fault, and the run goes on to the end.
  const uint64_t sub = kCode + 0x2000;
  const Bytes old_sub = RI(0xA7B, 13, 1) + RI(0xA7B, 13, 1) + RI(0xA7B, 13, 1) + RR(0x07, 15, 14);
  const Bytes new_sub = RI(0xA7B, 12, 1) + RI(0xA7B, 12, 1) + RI(0xA7B, 12, 1) + RR(0x07, 15, 14);
  const Bytes head = RI(0xA79, 1, 30);                                          // LGHI r1,30
  Bytes body = RIL(0xC05, 14, int64_t(sub - (kCode + head.size())) / 2)         // loop: BRASL r14,sub
               + RI(0xA7B, 5, 1);                                               // AGHI r5,1
  body = body + RI(0xA77, 1, -int(body.size()) / 2);                            // BRCTG r1,loop
  const Bytes code = head + body + kEndMarker;
  const auto remap = [&](Side& side) {
    side.space.map(sub & ~emu::kPageMask, emu::kPageSize, emu::kProtRead | emu::kProtExec);
    side.space.write_bytes(sub, new_sub.data(), new_sub.size());
  };
  for (const bool timing : {false, true})
    for (const unsigned block_length : {64u, 1u})
      for (const bool remap_at_once : {false, true})
        for (uint64_t before = 40; before < 40 + 7; ++before) {  // 7 instructions a pass
          Setup setup{block_length};
          setup.timing = timing;
          CAPTURE(timing, block_length, remap_at_once, before);
          Side interpreted(false, setup, code), compiled(true, setup, code);
          uint64_t r13_before = 0;
          for (Side* side : {&interpreted, &compiled}) {
            side->space.write_bytes(sub, old_sub.data(), old_sub.size());
            side->cpu.run(before);
            if (side == &interpreted) r13_before = side->cpu.gr[13];
            side->space.unmap(sub & ~emu::kPageMask, emu::kPageSize);
          }
          same_state(interpreted, compiled, 0);
          if (emu::jit::CodeCache::available()) CHECK(compiled.cache->stats().blocks_compiled > 0);
          if (!remap_at_once) {
            const emu::RunResult a = interpreted.run(1000000, kCode + 0x4000);
            const emu::RunResult b = compiled.run(1000000, kCode + 0x4000);
            REQUIRE(a.reason == emu::StopReason::ProgramCheck);
            CHECK(a.check.interrupt.code == emu::Pic::PageTranslation);
            CHECK(b.reason == a.reason);
            CHECK(b.check.interrupt.code == a.check.interrupt.code);
            CHECK(b.check.insn_address == a.check.insn_address);
            same_state(interpreted, compiled, 0);
            // Nullified: the instruction is fetched again from the PSW at it.
            interpreted.cpu.psw_addr = a.check.insn_address;
            compiled.cpu.psw_addr = b.check.insn_address;
          }
          remap(interpreted);
          remap(compiled);
          const emu::RunResult a = interpreted.run(1000000, kCode + 0x4000);
          const emu::RunResult b = compiled.run(1000000, kCode + 0x4000);
          CHECK(a.reason == b.reason);
          CHECK(a.check.insn_address == kCode + code.size() - 2);  // the end marker
          CHECK(b.check.insn_address == a.check.insn_address);
          same_state(interpreted, compiled, 0);
          // The old code never ran again, the new code did.
          CHECK(interpreted.cpu.gr[13] == r13_before);
          CHECK(interpreted.cpu.gr[12] > 0);
          CHECK(compiled.cpu.gr[5] == 30);
        }
}

namespace {
// Stops the run at a page fault (Action::Wait, as the control program makes an ECB wait
// for a page-in) and remembers where: the PSW at the faulting instruction, the address.
struct WaitOnFault : emu::PageFaultHandler {
  uint64_t insn_address = 0, address = 0;
  Action page_fault(emu::Cpu& cpu, uint64_t a) override {
    insn_address = cpu.psw_addr, address = a;
    return Action::Wait;
  }
};

// One storage operand instruction of the block below: its bytes (r6 the base of its
// first page, r7 the page after), how many data pages its operands touch from r6's on,
// and which of them it stores into (bit k: page k).
struct StorageOperand {
  Bytes insn;
  unsigned pages;
  const char* mnemonic;
  unsigned stored_pages;
};
}  // namespace

TEST_CASE("a page fault at each storage operand of a block stops where the interpreter stops, then resumes", "[jit]") {
  // A loop of loads, stores, RX ALU forms (logical ones too), MVC, CLC, STM and LM (blocks
  // of 64 and of 5 instructions): each operand instruction on data pages of its own (r6
  // moves on a page after each; MVC and CLC have their second operand on the next page,
  // the last MVC's first operand crosses into it). For each data page in turn, after
  // three passes (the blocks compiled and run),
  // the page is unmapped (a page-translation exception; the fault handler waits), or,
  // for a store's page, made read-only (a protection exception, a program check): the
  // run must stop at that page's instruction with the interpreter's registers, counts,
  // cycles and stores done before it; then the page comes back and the run goes on
  // to the same end. A new operand in the list is covered without another case.
  const std::vector<StorageOperand> operands = {
      {RX(0x58, 2, 0, 6, 0), 1, "L", 0},             // L r2,0(r6)
      {RX(0x50, 2, 0, 6, 8), 1, "ST", 1},             // ST r2,8(r6)
      {RX(0x5A, 3, 0, 6, 16), 1, "A", 0},            // A r3,16(r6)
      {SS(0xD2, 7, 6, 32, 7, 40), 2, "MVC", 1},       // MVC 32(8,r6),40(r7)
      {SS(0xD5, 7, 6, 0, 7, 8), 2, "CLC", 0},        // CLC 0(8,r6),8(r7)
      {RS(0x90, 2, 5, 6, 64), 1, "STM", 1},           // STM r2,r5,64(r6)
      {RS(0x98, 8, 10, 6, 200), 1, "LM", 0},         // LM r8,r10,200(r6)
      {RXY(0xE304, 4, 0, 6, 24), 1, "LG", 0},        // LG r4,24(r6)
      {RXY(0xE324, 3, 0, 6, 32), 1, "STG", 1},        // STG r3,32(r6)
      {RXY(0xE308, 5, 0, 6, 40), 1, "AG", 0},        // AG r5,40(r6)
      {RX(0x42, 2, 0, 6, 7), 1, "STC", 1},            // STC r2,7(r6)
      {RX(0x5E, 3, 0, 6, 48), 1, "AL", 0},            // AL r3,48(r6)
      {RXY(0xE31B, 4, 0, 6, 56), 1, "SLGF", 0},       // SLGF r4,56(r6)
      {RXY(0xE382, 5, 0, 6, 64), 1, "XG", 0},         // XG r5,64(r6)
      {RX(0x55, 2, 0, 6, 72), 1, "CL", 0},            // CL r2,72(r6)
      {SI(0x95, 0x80, 6, 80), 1, "CLI", 0},          // CLI 80(r6),X'80'
      {SIY(0xEB55, 0x01, 6, 88), 1, "CLIY", 0},      // CLIY 88(r6),X'01'
      {SS(0xD2, 11, 6, 4090, 7, 100), 2, "MVC", 3}};  // MVC 4090(12,r6),100(r7): crosses
  // IPM r9; RLLG r11,r11,3; XGR r11,r9: a CC that differs on every pass cannot cancel out.
  const Bytes cc_hash = RRE(0xB222, 9, 0) + RSY(0xEB1C, 11, 11, 0, 3) + RRE(0xB982, 11, 9);
  const Bytes head = RI(0xA79, 1, 12) + RIL(0xC0E, 6, 0) + RIL(0xC09, 6, int64_t(kData));  // LGHI r1,12; r6 = kData
  Bytes body;
  struct Page {
    uint64_t insn_address;
    const char* mnemonic;
    bool stores;
  };
  std::vector<Page> pages;  // data page k's instruction
  for (const StorageOperand& op : operands) {
    body = body + RXY(0xE371, 7, 0, 6, 4096);  // LAY r7,4096(r6)
    for (unsigned k = 0; k < op.pages; ++k)
      pages.push_back({kCode + head.size() + body.size(), op.mnemonic, (op.stored_pages >> k & 1) != 0});
    body = body + op.insn + cc_hash + RI(0xA7B, 2, 7) + RXY(0xE371, 6, 0, 6, int(4096 * op.pages));  // AGHI r2,7; LAY
  }
  body = body + RXY(0xE371, 6, 0, 6, -int(4096 * pages.size()));  // back to the first page
  const unsigned body_insns = 7 * unsigned(operands.size()) + 1 + 1;  // and the BRCTG
  body = body + RI(0xA77, 1, -int(body.size()) / 2);                // BRCTG r1,loop
  const Bytes code = head + body + kEndMarker;
  const uint64_t data_bytes = pages.size() * emu::kPageSize;
  for (const bool timing : {false, true})
    for (const unsigned block_length : {64u, 5u})
      for (size_t page = 0; page < pages.size(); ++page)
        for (const bool protect : {false, true}) {
          if (protect && !pages[page].stores) continue;
          Setup setup{block_length, 1 << 20, data_bytes, timing};
          CAPTURE(timing, block_length, page, pages[page].mnemonic, protect);
          Side interpreted(false, setup, code), compiled(true, setup, code);
          WaitOnFault waits[2];
          const uint64_t page_at = kData + page * emu::kPageSize;
          emu::RunResult stopped[2];
          int s = 0;
          for (Side* side : {&interpreted, &compiled}) {
            side->cpu.set_page_fault_handler(&waits[s]);
            side->cpu.run(3 * body_insns + 3 + 3);  // the head, three passes and a bit
            if (protect) side->space.map(page_at, emu::kPageSize, emu::kProtRead);
            else side->space.unmap(page_at, emu::kPageSize);
            stopped[s++] = side->cpu.run(1000000);
          }
          if (emu::jit::CodeCache::available()) CHECK(compiled.cache->stats().blocks_compiled > 0);
          CHECK(stopped[0].reason == (protect ? emu::StopReason::ProgramCheck : emu::StopReason::Requested));
          CHECK(stopped[1].reason == stopped[0].reason);
          if (protect) {
            CHECK(stopped[0].check.interrupt.code == emu::Pic::Protection);
            CHECK(stopped[0].check.insn_address == pages[page].insn_address);
            CHECK(stopped[0].check.mnemonic == pages[page].mnemonic);
            CHECK(stopped[1].check.insn_address == stopped[0].check.insn_address);
            CHECK(stopped[1].check.mnemonic == stopped[0].check.mnemonic);
          } else {
            CHECK(waits[0].insn_address == pages[page].insn_address);
            CHECK(waits[0].address >> 12 == page_at >> 12);
            CHECK(waits[1].insn_address == waits[0].insn_address);
            CHECK(waits[1].address == waits[0].address);
          }
          same_state(interpreted, compiled, data_bytes);  // the partial stores too
          // The page comes back (unmapped: zero, as a new frame; protected: writable)
          // and the run resumes at the instruction.
          for (Side* side : {&interpreted, &compiled}) {
            side->space.map(page_at, emu::kPageSize, emu::kProtRead | emu::kProtWrite);
            if (protect) side->cpu.psw_addr = stopped[0].check.insn_address;
          }
          const emu::RunResult a = interpreted.run(1000000, kCode + 0x4000);
          const emu::RunResult b = compiled.run(1000000, kCode + 0x4000);
          CHECK(a.check.insn_address == kCode + code.size() - 2);  // the end marker
          CHECK(b.check.insn_address == a.check.insn_address);
          CHECK(interpreted.cpu.gr[1] == 0);
          same_state(interpreted, compiled, data_bytes);
        }
}

TEST_CASE("code rewritten in place by the host runs anew, with the interpreter's counts", "[jit]") {
  // As the case above, but the subroutine's page stays mapped and the host writes the
  // new code over the old (a loader, or a service writing into a page that holds code):
  // the frame's decoded instructions start afresh under both engines. The old blocks go
  // with them: their counts not folded yet land in the fresh slots, and each new
  // instruction's first decode overwrites its slot (a decode that kept the count fails
  // here).
  const uint64_t sub = kCode + 0x2000;
  const Bytes old_sub = RI(0xA7B, 13, 1) + RI(0xA7B, 13, 1) + RI(0xA7B, 13, 1) + RR(0x07, 15, 14);
  const Bytes new_sub = RI(0xA7B, 12, 1) + RI(0xA7B, 12, 1) + RI(0xA7B, 12, 1) + RR(0x07, 15, 14);
  const Bytes head = RI(0xA79, 1, 30);                                          // LGHI r1,30
  Bytes body = RIL(0xC05, 14, int64_t(sub - (kCode + head.size())) / 2)         // loop: BRASL r14,sub
               + RI(0xA7B, 5, 1);                                               // AGHI r5,1
  body = body + RI(0xA77, 1, -int(body.size()) / 2);                            // BRCTG r1,loop
  const Bytes code = head + body + kEndMarker;
  for (const unsigned block_length : {64u, 1u})
    for (uint64_t before = 40; before < 40 + 7; ++before) {
      CAPTURE(block_length, before);
      Side interpreted(false, Setup{block_length}, code), compiled(true, Setup{block_length}, code);
      uint64_t r13_before = 0;
      for (Side* side : {&interpreted, &compiled}) {
        side->space.write_bytes(sub, old_sub.data(), old_sub.size());
        side->cpu.run(before);
        if (side == &interpreted) r13_before = side->cpu.gr[13];
        side->space.write_bytes(sub, new_sub.data(), new_sub.size());
      }
      if (emu::jit::CodeCache::available()) CHECK(compiled.cache->stats().blocks_compiled > 0);
      const emu::RunResult a = interpreted.run(1000000, kCode + 0x4000);
      const emu::RunResult b = compiled.run(1000000, kCode + 0x4000);
      CHECK(a.check.insn_address == kCode + code.size() - 2);  // the end marker
      CHECK(b.check.insn_address == a.check.insn_address);
      same_state(interpreted, compiled, 0);
      CHECK(interpreted.cpu.gr[13] == r13_before);
      CHECK(interpreted.cpu.gr[12] > 0);
    }
}

TEST_CASE("inline logical RX forms set the registers and condition codes of their handlers", "[jit]") {
  // AL, SL, CL, N, O, X with their Y, G and GF forms, the second operand from storage:
  // r2 (64 bits) and r3's low word run through zero from just below 2^64 and 2^32, and
  // are stored each pass (STG r2,16; ST r3,24; STG r3,32), so the sums carry and the
  // differences borrow some of the passes, and some results are zero. Each CC goes into
  // a hash in r13, each result into r12.
  const Bytes hash = RRE(0xB222, 9, 0) + RSY(0xEB1C, 13, 13, 0, 3) + RRE(0xB982, 13, 9)   // IPM; RLLG; XGR r13
                     + RSY(0xEB1C, 12, 12, 0, 7) + RRE(0xB982, 12, 4) + RRE(0xB982, 12, 5);  // r12 ^= r4, r5
  const Bytes r4_r2 = RRE(0xB904, 4, 2), r5_r3 = RR(0x18, 5, 3);  // LGR r4,r2; LR r5,r3
  const Bytes ops[] = {
      r4_r2 + RXY(0xE30A, 4, 0, 6, 32),  r4_r2 + RXY(0xE30A, 4, 0, 6, 16),  // ALG: r2 + r3, r2 + r2
      r4_r2 + RXY(0xE31A, 4, 0, 6, 24),  r5_r3 + RX(0x5E, 5, 0, 6, 24),     // ALGF, AL: r3 + r3
      r5_r3 + RXY(0xE35E, 5, 0, 6, 4),   r4_r2 + RXY(0xE30B, 4, 0, 6, 32),  // ALY, SLG
      r4_r2 + RXY(0xE31B, 4, 0, 6, 24),  r5_r3 + RX(0x5F, 5, 0, 6, 4),      // SLGF, SL
      r5_r3 + RXY(0xE35F, 5, 0, 6, 24),  r4_r2 + RXY(0xE30B, 4, 0, 6, 16),  // SLY, SLG: zero results
      RX(0x55, 3, 0, 6, 24),             RXY(0xE355, 3, 0, 6, 4),           // CL (equal), CLY
      RXY(0xE321, 2, 0, 6, 32),          RXY(0xE331, 2, 0, 6, 24),          // CLG, CLGF
      r5_r3 + RX(0x54, 5, 0, 6, 4),      r5_r3 + RXY(0xE354, 5, 0, 6, 24),  // N, NY
      r4_r2 + RXY(0xE380, 4, 0, 6, 32),  r5_r3 + RX(0x56, 5, 0, 6, 4),      // NG, O
      r5_r3 + RXY(0xE356, 5, 0, 6, 28),  r4_r2 + RXY(0xE381, 4, 0, 6, 32),  // OY, OG
      r5_r3 + RX(0x57, 5, 0, 6, 24),     r5_r3 + RXY(0xE357, 5, 0, 6, 4),   // X (zero), XY
      r4_r2 + RXY(0xE382, 4, 0, 6, 16),  r4_r2 + RXY(0xE382, 4, 0, 6, 32)};  // XG (zero), XG
  Bytes body = RXY(0xE324, 2, 0, 6, 16) + RX(0x50, 3, 0, 6, 24) + RXY(0xE324, 3, 0, 6, 32);  // STG; ST; STG
  for (const Bytes& op : ops) body = body + op + hash;
  body = body + RI(0xA7B, 2, 0x7000) + RI(0xA7A, 3, 0x7000);  // AGHI r2; AHI r3
  const int back = -int(body.size()) / 2;
  const Bytes code = RI(0xA79, 1, 300) + RIL(0xC0E, 6, 0) + RIL(0xC09, 6, int64_t(kData))  // r6 = kData
                     + RIL(0xC01, 2, -0x400000)                      // LGFI r2: 2^64 - 0x400000
                     + RIL(0xC09, 3, -0x400000)                      // IILF r3: low word 2^32 - 0x400000
                     + body + RI(0xA77, 1, back);                    // BRCTG r1,loop
  for (uint64_t chunk : {1, 3, 1000000}) same(code, chunk);
  same(code, 1000000, 1);  // blocks of one instruction
  same(code, 1000000, Setup{64, 1 << 20, 0x1000, true});  // the full timing model
  Side interpreted(false, 64, code);
  interpreted.run(1000000, kCode + code.size());
  CHECK(interpreted.cpu.gr[13] != 0);
  CHECK(interpreted.cpu.gr[2] == uint64_t(-0x400000 + 300 * 0x7000));
}

TEST_CASE("BCR, BASR, the SIL moves and the floating-point loads and stores do what their handlers do", "[jit]") {
  // A subroutine (called by BASR r14,r7, back by BCR 15,r14) stores immediates of three
  // widths (MVHI, MVHHI, MVGHI) and a floating-point register holding r13 (STD, STDY),
  // loads two of them back (LD, LDY) into r13's hash. The loop's 16 diamonds branch by
  // BCR m,r8 over an AGHI, the CC from TMLL r13,3 (all four as r13 is stirred), the
  // target from LARL; BASR r11,0 links alone; BCR 15,0 and 14,0 serialize (the
  // handler's cycles).
  const Bytes sub = SIL(0xE54C, 6, 0, -2) + SIL(0xE544, 6, 8, 0x1234) + SIL(0xE548, 6, 16, -3)  // MVHI, MVHHI, MVGHI
                    + RRE(0xB3C1, 2, 13) + RX(0x60, 2, 0, 6, 24) + RXY(0xED67, 2, 0, 6, 40)     // LDGR f2,r13; STD; STDY
                    + RX(0x68, 4, 0, 6, 0) + RXY(0xED65, 5, 0, 6, 16)                            // LD f4; LDY f5
                    + RRE(0xB3CD, 9, 4) + RRE(0xB908, 13, 9) + RRE(0xB3CD, 9, 5) + RRE(0xB982, 13, 9)  // LGDR; AGR; LGDR; XGR
                    + RXY(0xE304, 10, 0, 6, 24) + RRE(0xB908, 13, 10)                            // LG r10,24(r6); AGR
                    + RR(0x07, 15, 14);                                                          // BCR 15,r14
  // A second subroutine is called by BASR r9,r9: the target is R2 as it was before
  // R1 (the same register) takes the link.
  const Bytes sub2 = RI(0xA7B, 13, 5) + RR(0x07, 15, 9);             // AGHI r13,5; BCR 15,r9
  const Bytes skipped = RI(0xA7B, 13, 1);                              // AGHI r13,1
  const Bytes stir = RSY(0xEB1C, 13, 13, 0, 5) + RRE(0xB908, 13, 1);  // RLLG r13,r13,5; AGR r13,r1
  const Bytes init = RIL(0xC00, 7, -int64_t(sub.size() + sub2.size()) / 2)  // LARL r7,sub
                     + RI(0xA79, 1, 300) + RIL(0xC0E, 6, 0) + RIL(0xC09, 6, int64_t(kData))
                     + RIL(0xC0E, 13, 0x12345) + RIL(0xC09, 13, 0x6789ABCD);
  const uint64_t loop = kCode + 4 + sub.size() + sub2.size() + init.size();
  Bytes body;
  for (unsigned m = 0; m < 16; ++m)  // TMLL r13,3; LARL r8,past the AGHI; BCR m,r8; AGHI; stir
    body = body + RI(0xA71, 13, 3) + RIL(0xC00, 8, (6 + 2 + 4) / 2) + RR(0x07, m, 8) + skipped + stir;
  body = body + RR(0x0D, 14, 7) + stir                  // BASR r14,r7: the subroutine
         + RR(0x0D, 11, 0) + RRE(0xB908, 13, 11)        // BASR r11,0: the link alone
         + RR(0x07, 15, 0) + RR(0x07, 14, 0);           // BCR 15,0; BCR 14,0
  const int64_t to_sub2 = int64_t(kCode + 4 + sub.size()) - int64_t(loop + body.size());
  body = body + RIL(0xC00, 9, to_sub2 / 2) + RR(0x0D, 9, 9);  // LARL r9,sub2; BASR r9,r9
  const int back = -int(body.size()) / 2;
  const Bytes over_sub = RI(0xA74, 15, int(4 + sub.size() + sub2.size()) / 2);  // J past the subroutines
  const Bytes code = over_sub + sub + sub2 + init + body + RI(0xA77, 1, back);  // BRCTG r1,loop
  for (uint64_t chunk : {1, 3, 1000000}) same(code, chunk);
  same(code, 1000000, 1);  // blocks of one instruction
  same(code, 1000000, Setup{64, 1 << 20, 0x1000, true});  // the full timing model
  // The BCRs went both ways: of the 16, masks 0 and 15 go one way; the AGHI after each of
  // the other 14 ran some of the 300 times and not others.
  Side interpreted(false, 64, code);
  interpreted.run(1000000, kCode + code.size());
  unsigned both_ways = 0;
  for (const auto& row : emu::slot_counts(interpreted.space))
    for (unsigned m = 0; m < 16; ++m)
      if (row.address == loop + m * 26 + 12 && row.count > 0 && row.count < 300) ++both_ways;
  CHECK(both_ways == 14);
}

TEST_CASE("inline LOAD and STORE MULTIPLE load and store what their handlers do, or leave it to them", "[jit]") {
  // STMG, LMG, STM, LM, STMY, LMY (some wrapping from 15 to 0) at r8 = kData + r7, r7
  // stepping by 56 through 8 KB: some passes cross the page (and, with the full timing
  // model, many cross a line), which is the handler's; the loaded values go into the
  // stored registers, so every pass stores something new.
  const Bytes body = RX(0x41, 8, 7, 6, 0)                                     // LA r8,0(r7,r6)
                     + RSY(0xEB24, 2, 5, 8, 0) + RSY(0xEB04, 10, 13, 8, 8)     // STMG r2,r5,0(r8); LMG r10,r13,8(r8)
                     + RRE(0xB908, 2, 10) + RRE(0xB982, 3, 11) + RRE(0xB908, 4, 13)  // AGR; XGR; AGR
                     + RS(0x90, 12, 3, 8, 4) + RSY(0xEB98, 9, 10, 8, 12)       // STM r12,r3,4(r8); LMY r9,r10,12(r8)
                     + RSY(0xEB04, 15, 0, 8, 16) + RRE(0xB908, 5, 0)           // LMG r15,r0,16(r8); AGR r5,r0
                     + RS(0x98, 11, 12, 8, 20) + RSY(0xEB90, 4, 5, 8, 44)      // LM r11,r12,20(r8); STMY r4,r5,44(r8)
                     + RRE(0xB908, 2, 9) + RRE(0xB908, 3, 12)                  // AGR r2,r9; AGR r3,r12
                     + RX(0x41, 7, 0, 7, 56) + RIL(0xC0B, 7, 0x1FFF);          // LA r7,56(r7); NILF r7,0x1FFF
  const int back = -int(body.size()) / 2;
  const Bytes code = RI(0xA79, 1, 300) + RIL(0xC0E, 6, 0) + RIL(0xC09, 6, int64_t(kData)) + RI(0xA79, 7, 0)
                     + RIL(0xC01, 2, 0x12345678) + RIL(0xC01, 3, -0x5432) + RIL(0xC01, 4, 77) + RIL(0xC01, 5, 0x7EADBEEF)
                     + body + RI(0xA77, 1, back);  // BRCTG r1,loop
  for (uint64_t chunk : {1, 3, 1000000}) same(code, chunk, Setup{64, 1 << 20, 0x3000});
  same(code, 1000000, Setup{1, 1 << 20, 0x3000});  // blocks of one instruction
  same(code, 1000000, Setup{64, 1 << 20, 0x3000, true});  // the full timing model
  Side interpreted(false, Setup{64, 1 << 20, 0x3000}, code);
  interpreted.run(1000000, kCode + code.size());
  CHECK(interpreted.cpu.gr[2] != 0x12345678);
  // With one page of data, the pass at r7 = 4088 is the first whose operands run past
  // it: STMG's (32 bytes at 4088) takes the addressing exception there, on both sides,
  // though each of its doublewords alone would start in the page.
  same(code, 1000000, Setup{64, 1 << 20, 0x1000});
  compiled_to_program_check(code, "STMG");
}
