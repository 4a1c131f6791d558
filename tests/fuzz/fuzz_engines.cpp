// Fuzz target: the two engines (machine.engine interpret and compile) against each
// other on random instruction sequences (issue 45; docs/speed.md, "Differential
// testing"). The input draws up to 24 instructions from the instruction table: half of
// them, on average, among those the block compiler emits natively or inline (loads,
// stores, ALU, register moves), the rest from every problem-state line of the table;
// valid encodings (the opcode set so that the decoder finds that line), operand fields
// from the input, long displacements kept under 4 KiB, so that most storage operands
// fall in a small mapped data area. A BRC back to the first instruction follows them,
// so that the blocks are compiled (at their second arrival) and run. The initial state
// (registers, most pointing into the data area, FPRs, FPC, CC, program mask), the
// block length, the run's chunk size and the full timing model are also the input's.
// Both engines run the same 400 instructions (a program check skips the instruction); any
// difference in registers, PSW, CC, counts, cycles by cause, per-address counts or the
// data area aborts with the sequence disassembled.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "emu/address_space.h"
#include "emu/cache.h"
#include "emu/cpu.h"
#include "emu/isa/table.h"
#include "emu/jit/block_cache.h"
#include "emu/machine_config.h"
#include "emu/profiler.h"
#include "emu/storage.h"

namespace {

constexpr uint64_t kDataArea = 0x1000, kDataSize = 0xF000;  // base + index + 4095 stays below kCode
constexpr uint64_t kCode = 0x40000, kCodeSize = 0x1000;
constexpr unsigned kMaxInsns = 24, kRunInsns = 400;

// The input's layout.
constexpr size_t kFlags = 0;     // bit 0: the full timing model; bits 1-6: block length - 1
constexpr size_t kChunk = 1;     // low 3 bits: the run's chunk (instructions per Cpu::run)
constexpr size_t kPointers = 2;  // 2 bytes: bit r set makes gr[r] an address in the data area
constexpr size_t kGr = 4;        // 16 x 8 bytes
constexpr size_t kFpr = kGr + 128;
constexpr size_t kFpc = kFpr + 128;  // 4 bytes
constexpr size_t kCc = kFpc + 4;     // the CC (low 2 bits), the program mask (high 4)
constexpr size_t kInsns = kCc + 1;   // 8 bytes each: 2 choose the line, 6 are its fields

// What the block compiler emits natively or inline (emu/jit/block_cache.cpp's lists).
constexpr std::string_view kCompiled[] = {
    "LR",  "LGR",  "LGFR", "LLGFR", "LHI",   "LGHI",  "LGFI",  "LLILF", "LLIHF", "LA",   "LAY",  "LARL",
    "SLLG", "SRLG", "AR",  "AGR",   "AHI",   "AGHI",  "AFI",   "AGFI",  "SR",    "SGR",  "CR",   "CGR",
    "CHI", "CGHI", "CFI",  "CGFI",  "CLR",   "CLGR",  "NR",    "NGR",   "OR",    "OGR",  "XR",   "XGR",
    "LTR", "LTGR", "RISBG", "RISBGN", "RNSBG", "ROSBG", "RXSBG", "TMLL", "L",    "LY",   "LG",   "LGF",
    "LLGF", "LH",  "LGH",  "LLH",   "LLGH",  "LB",    "LGB",   "LLC",   "LLGC",  "IC",   "ST",   "STY",
    "STG", "STH",  "STHY", "STC",   "STCY",  "LT",    "LTG",   "LTGF",  "A",     "AY",   "AG",   "AGF",
    "S",   "SY",   "SG",   "C",     "CY",    "CG",    "CGF",   "AL",    "ALY",   "ALG",  "ALGF", "SL",
    "SLY", "SLG",  "SLGF", "CL",    "CLY",   "CLG",   "CLGF",  "N",     "NY",    "NG",   "O",    "OY",
    "OG",  "X",    "XY",   "XG"};

// The table's lines a sequence may hold: problem state, and not the ones that hand the
// I-stream to a control program this target does not have (PR, the traps).
const std::vector<uint16_t>& drawable(bool compiled_only) {
  static const auto make = [](bool only) {
    std::vector<uint16_t> ids;
    const auto table = emu::instruction_table();
    for (uint16_t id = 0; id < table.size(); ++id) {
      const std::string_view m = table[id].mnemonic;
      if (table[id].privilege != emu::Privilege::None || m == "PR" || m == "TRAP2" || m == "TRAP4") continue;
      if (only && std::find(std::begin(kCompiled), std::end(kCompiled), m) == std::end(kCompiled)) continue;
      ids.push_back(id);
    }
    return ids;
  };
  static const std::vector<uint16_t> all = make(false), compiled = make(true);
  return compiled_only ? compiled : all;
}

// The instruction `id` with the other fields from `fields` (6 bytes): the opcode goes
// where the decoder looks for it (byte 0; byte 0 and byte 1's low half; bytes 0 and 1;
// bytes 0 and 5). Empty when no placement decodes to `id`.
std::vector<uint8_t> encode(uint16_t id, const uint8_t* fields) {
  const emu::InsnDef& def = emu::instruction_table()[id];
  const uint32_t op = def.opcode;
  for (int layout = 0; layout < 4; ++layout) {
    uint8_t b[6];
    std::memcpy(b, fields, 6);
    if (layout == 0 && op <= 0xFF) b[0] = uint8_t(op);
    else if (layout == 1 && op <= 0xFFF) b[0] = uint8_t(op >> 4), b[1] = uint8_t((b[1] & 0xF0) | (op & 0xF));
    else if (layout == 2 && op <= 0xFFFF) b[0] = uint8_t(op >> 8), b[1] = uint8_t(op);
    else if (layout == 3 && op <= 0xFFFF) b[0] = uint8_t(op >> 8), b[5] = uint8_t(op);
    else continue;
    const unsigned len = emu::insn_length(b[0]);
    // Long displacements (DH, byte 4) zero: the operand stays near its base.
    if (def.format == emu::Format::RXY || def.format == emu::Format::RSY || def.format == emu::Format::SIY) b[4] = 0;
    if (emu::lookup_opcode(b) == id) return std::vector<uint8_t>(b, b + len);
  }
  return {};
}

// A control program of one rule: an SVC ends the run (the next run goes on after it).
struct StopOnSvc : emu::SvcHandler {
  void supervisor_call(emu::Cpu& cpu, uint8_t) override { cpu.request_stop(); }
};

struct Machine {
  emu::Storage storage{1ull << 30};
  emu::AddressSpace space{storage};
  emu::Cpu cpu{space};
  std::shared_ptr<emu::jit::CodeCache> cache;
  std::unique_ptr<emu::MemoryHierarchy> caches;
  StopOnSvc svc;
  emu::RunResult last{emu::StopReason::Limit, {}};
  unsigned runs = 0, checks = 0;
};

std::string hex(uint64_t v) {
  char s[24];
  std::snprintf(s, sizeof s, "%#llx", static_cast<unsigned long long>(v));
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < kInsns + 8) return 0;
  const bool timing = data[kFlags] & 1;
  const unsigned block_length = 1 + (data[kFlags] >> 1 & 63);
  static constexpr uint64_t kChunks[] = {1, 2, 3, 5, 7, 13, 64, kRunInsns};
  const uint64_t chunk = kChunks[data[kChunk] & 7];
  // The sequence, and the BRC 15 back to its start.
  std::vector<uint8_t> code;
  std::vector<std::pair<uint64_t, uint16_t>> listing;  // address, line
  for (size_t at = kInsns; at + 8 <= size && listing.size() < kMaxInsns; at += 8) {
    const auto& ids = drawable(data[at] & 0x80);
    const uint16_t id = ids[(unsigned(data[at] & 0x7F) << 8 | data[at + 1]) % ids.size()];
    const std::vector<uint8_t> insn = encode(id, data + at + 2);
    if (insn.empty()) continue;
    listing.emplace_back(kCode + code.size(), id);
    code.insert(code.end(), insn.begin(), insn.end());
  }
  if (listing.empty()) return 0;
  const int16_t back = int16_t(-int(code.size() / 2));
  code.insert(code.end(), {0xA7, 0xF4, uint8_t(uint16_t(back) >> 8), uint8_t(back)});

  const auto set_up = [&](Machine& m, bool compiled) {
    m.space.map(kCode, kCodeSize, emu::kProtRead | emu::kProtExec);
    m.space.write_bytes(kCode, code.data(), code.size());
    m.space.map(kDataArea, kDataSize, emu::kProtRead | emu::kProtWrite);
    for (uint64_t a = kDataArea; a < kDataArea + kDataSize; a += 8)  // each doubleword its address
      m.space.write_bytes(a, reinterpret_cast<const uint8_t*>(&a), 8);
    const unsigned pointers = unsigned(data[kPointers]) << 8 | data[kPointers + 1];
    for (unsigned r = 0; r < 16; ++r) {
      const uint64_t raw = emu::Cpu::load_be<uint64_t>(data + kGr + 8 * r);
      m.cpu.gr[r] = (pointers >> r & 1) ? kDataArea + raw % 0x6000 : raw;
      m.cpu.fpr(r) = emu::Cpu::load_be<uint64_t>(data + kFpr + 8 * r);
    }
    m.cpu.fpc = emu::Cpu::load_be<uint32_t>(data + kFpc) & 0xF8F8FF07u;  // valid FPC bits only
    m.cpu.cc = data[kCc] & 3;
    m.cpu.prog_mask = data[kCc] >> 4;
    m.cpu.psw_addr = kCode;
    m.cpu.set_svc_handler(&m.svc);
    if (timing) {
      // Small caches: quick to set up for each input (the default L3 has a million
      // lines), and lines evicted within a sequence's 400 instructions.
      emu::MachineConfig config = emu::default_machine_config();
      config.istreams = 1;
      config.l1.size = 16 << 10, config.l2.size = 64 << 10, config.l3.size = 256 << 10;
      m.caches = std::make_unique<emu::MemoryHierarchy>(config);
      m.cpu.set_timing(emu::CpuTiming{m.caches.get(), 0, config.tlb4k, config.tlb1m, config.tlb_walk});
    }
    if (compiled && emu::jit::CodeCache::available()) {
      m.cache = std::make_shared<emu::jit::CodeCache>(1 << 20, block_length, emu::Cpu::compiled_layout());
      m.cpu.set_code_cache(m.cache);
    }
  };
  // A program check goes on after the instruction (as a signal handler that skips it
  // would), or at the start when the fetch failed or a branch left the code: random
  // instructions fault often, and the loop must run on for its blocks to be compiled.
  const auto run = [&](Machine& m) {
    while (m.cpu.instructions < kRunInsns && m.runs < 2 * kRunInsns) {
      ++m.runs;
      m.last = m.cpu.run(std::min(chunk, kRunInsns - m.cpu.instructions));
      if (m.last.reason != emu::StopReason::ProgramCheck) continue;
      ++m.checks;
      const emu::ProgramCheckInfo& check = m.last.check;
      const bool in_code = check.insn_address >= kCode && check.insn_address < kCode + code.size();
      m.cpu.psw_addr = in_code && check.insn_length ? check.insn_address + check.insn_length : kCode;
    }
  };
  Machine interpreted, compiled;
  set_up(interpreted, false);
  set_up(compiled, true);
  run(interpreted);
  run(compiled);

  std::string what;
  const auto differs = [&](const std::string& field, uint64_t a, uint64_t b) {
    if (what.empty() && a != b) what = field + ": interpreter " + hex(a) + ", compiler " + hex(b);
  };
  emu::Cpu &i = interpreted.cpu, &c = compiled.cpu;
  differs("runs", interpreted.runs, compiled.runs);
  differs("program checks", interpreted.checks, compiled.checks);
  differs("stop reason", unsigned(interpreted.last.reason), unsigned(compiled.last.reason));
  differs("program interrupt code", unsigned(interpreted.last.check.interrupt.code),
          unsigned(compiled.last.check.interrupt.code));
  differs("program check address", interpreted.last.check.insn_address, compiled.last.check.insn_address);
  differs("instructions", i.instructions, c.instructions);
  for (unsigned r = 0; r < 16; ++r) differs("gr" + std::to_string(r), i.gr[r], c.gr[r]);
  for (unsigned r = 0; r < 32; ++r) {
    differs("vr" + std::to_string(r) + " bits 0-63", i.vr[r].hi, c.vr[r].hi);
    differs("vr" + std::to_string(r) + " bits 64-127", i.vr[r].lo, c.vr[r].lo);
  }
  for (unsigned r = 0; r < 16; ++r) differs("ar" + std::to_string(r), i.ar[r], c.ar[r]);
  differs("fpc", i.fpc, c.fpc);
  differs("PSW address", i.psw_addr, c.psw_addr);
  differs("condition code", i.cc, c.cc);
  differs("program mask", i.prog_mask, c.prog_mask);
  differs("cycles", i.cycles, c.cycles);
  const emu::CyclesByCause ci = i.cycles_by_cause(), cc = c.cycles_by_cause();
  for (size_t k = 0; k < ci.size(); ++k) differs(std::string("cycles of ") + emu::cause_name(emu::Cause(k)), ci[k], cc[k]);
  differs("page faults", i.page_faults, c.page_faults);
  const auto si = emu::slot_counts(interpreted.space), sc = emu::slot_counts(compiled.space);
  differs("instructions with counts", si.size(), sc.size());
  for (size_t k = 0; k < std::min(si.size(), sc.size()); ++k) {
    differs("address of counted instruction " + std::to_string(k), si[k].address, sc[k].address);
    differs("executions at " + hex(si[k].address), si[k].count, sc[k].count);
    differs("cycles spent at " + hex(si[k].address), si[k].spent, sc[k].spent);
  }
  std::vector<uint8_t> di(kDataSize), dc(kDataSize);
  interpreted.space.read_bytes(kDataArea, di.data(), di.size());
  compiled.space.read_bytes(kDataArea, dc.data(), dc.size());
  for (size_t k = 0; k < kDataSize && what.empty(); ++k) differs("storage at " + hex(kDataArea + k), di[k], dc[k]);
  if (what.empty()) return 0;
  std::fprintf(stderr, "fuzz_engines: the engines differ: %s\n(block length %u, chunk %llu, %s)\n", what.c_str(),
               block_length, static_cast<unsigned long long>(chunk), timing ? "full timing model" : "no timing model");
  for (const auto& [address, id] : listing) {
    std::string bytes;
    const unsigned len = emu::insn_length(code[address - kCode]);
    for (unsigned k = 0; k < len; ++k) {
      char b[4];
      std::snprintf(b, sizeof b, "%02x", code[address - kCode + k]);
      bytes += b;
    }
    std::fprintf(stderr, "  %s  %-12s  %s\n", hex(address).c_str(), bytes.c_str(), emu::mnemonic(id));
  }
  std::fprintf(stderr, "  %s  a7f4%04x      BRC 15 (to the start)\n", hex(kCode + code.size() - 4).c_str(),
               unsigned(uint16_t(back)));
  std::abort();
}
