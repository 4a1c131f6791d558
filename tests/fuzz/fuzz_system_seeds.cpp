// Writes the supervisor-state fuzz target's seeds into a directory: for each privileged
// and semiprivileged line of the instruction table (and each line whose handler reads the
// PSW's state), three inputs: supervisor state with DAT off, supervisor state with DAT on
// through a segment table that maps the first 1 MB to itself, and problem state. The
// instruction's operand fields and registers come from a fixed pseudo-random sequence
// pointing into a data area (the same seeds every time); every new PSW in the lowcore is
// a disabled wait, so a seed ends at its first interruption. Prints how many it wrote.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "emu/isa/table.h"
#include "table_encodings.h"
#include "fuzz_system.h"

namespace {

using namespace fuzz_system;

void put64(std::vector<uint8_t>& v, size_t at, uint64_t x) {
  for (int k = 0; k < 8; ++k) v[at + k] = uint8_t(x >> (56 - 8 * k));
}

constexpr uint64_t kSupervisor64 = 0x0000000180000000ull;  // EA, BA
constexpr uint64_t kDat = 0x0400000000000000ull;           // PSW bit 5
constexpr uint64_t kProblem = 0x0001000000000000ull;       // PSW bit 15
constexpr uint64_t kDisabledWait = 0x0002000180000000ull;
// The new PSWs [Principles of Operation, "Assigned Storage Locations"]: restart, external,
// SVC, program, machine check, I/O.
constexpr uint64_t kNewPsws[] = {0x1A0, 0x1B0, 0x1C0, 0x1D0, 0x1E0, 0x1F0};

std::vector<uint8_t> seed(const std::vector<uint8_t>& insn, uint64_t psw_mask, std::mt19937_64& random) {
  std::vector<uint8_t> in(kStorage + kSeedPageTable + 0x800);
  for (auto& b : in) b = uint8_t(random());
  uint8_t* storage = in.data() + kStorage;
  std::fill(storage, storage + 0x200, 0);  // the lowcore, but for the new PSWs below
  for (uint64_t at : kNewPsws) {
    std::vector<uint8_t> psw(16);
    put64(psw, 0, kDisabledWait), put64(psw, 8, at);  // the wait's code: which interruption
    std::copy(psw.begin(), psw.end(), storage + at);
  }
  std::copy(insn.begin(), insn.end(), storage + kSeedCode);
  // The next instruction: LPSWE of a disabled wait with code 0xF00 (at 0xF00), so that an
  // instruction that completes also ends the run, told apart from an interruption.
  std::vector<uint8_t> done(16);
  put64(done, 0, kDisabledWait), put64(done, 8, 0xF00);
  std::copy(done.begin(), done.end(), storage + 0xF00);
  const uint8_t lpswe[] = {0xB2, 0xB2, 0x0F, 0x00};
  std::copy(lpswe, lpswe + 4, storage + kSeedCode + insn.size());
  // A segment table (DT 00, TL 0: 512 entries), entry 0 its page table, the rest invalid
  // [Principles of Operation, "Translation Tables"]; the page table maps 0-1 MB to itself.
  for (uint64_t e = 0; e < 512; ++e) {
    std::vector<uint8_t> entry(8);
    put64(entry, 0, e == 0 ? kSeedPageTable : 0x20);
    std::copy(entry.begin(), entry.end(), storage + kSeedSegmentTable + 8 * e);
  }
  for (uint64_t p = 0; p < 256; ++p) {
    std::vector<uint8_t> entry(8);
    put64(entry, 0, p << 12);
    std::copy(entry.begin(), entry.end(), storage + kSeedPageTable + 8 * p);
  }
  put64(in, kPsw, psw_mask), put64(in, kPsw + 8, kSeedCode);
  for (unsigned r = 0; r < 16; ++r) put64(in, kCr + 8 * r, 0);
  put64(in, kCr + 0 * 8, 0xE0);                 // CR0 after initial CPU reset
  put64(in, kCr + 1 * 8, kSeedSegmentTable);    // primary ASCE: the segment table
  put64(in, kCr + 14 * 8, 0xC2000000);
  for (unsigned r = 0; r < 16; ++r) put64(in, kGr + 8 * r, kSeedData + (random() % 0x1000 & ~7ull));
  in[kFlags] = uint8_t(random() & 3);
  return in;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_system_seeds DIRECTORY\n");
    return 2;
  }
  const auto& table = emu::instruction_table();
  const std::vector<std::vector<uint8_t>> first = fuzz::first_encodings();
  std::filesystem::create_directories(argv[1]);
  std::mt19937_64 random(46);
  size_t written = 0;
  for (size_t id = 0; id < table.size(); ++id) {
    if (first[id].empty() || table[id].privilege == emu::Privilege::None) continue;
    // Random operand fields: registers, displacements (the opcode's bits kept).
    std::vector<uint8_t> insn = first[id];
    insn[1] = (insn[1] & 0xF0) | uint8_t(random() & 0x0F);
    if (emu::lookup_opcode(insn.data()) != id) insn[1] = first[id][1];
    insn[2] = uint8_t(random() & 0xF0), insn[3] = uint8_t(random());
    insn[4] = uint8_t(random() & 0x0F);
    if (emu::lookup_opcode(insn.data()) != id) insn = first[id];
    // Its length by the first two bits of the opcode [Principles of Operation,
    // "Instruction Formats"]: 2, 4 or 6 bytes.
    insn.resize(insn[0] < 0x40 ? 2 : insn[0] < 0xC0 ? 4 : 6);
    const struct { const char* name; uint64_t mask; } states[] = {
        {"supervisor", kSupervisor64}, {"dat", kSupervisor64 | kDat}, {"problem", kSupervisor64 | kProblem}};
    for (const auto& s : states) {
      const auto in = seed(insn, s.mask, random);
      std::ofstream(std::filesystem::path(argv[1]) / (std::string(table[id].mnemonic) + "-" + s.name), std::ios::binary)
          .write(reinterpret_cast<const char*>(in.data()), std::streamsize(in.size()));
      ++written;
    }
  }
  std::printf("wrote %zu seeds\n", written);
  return written ? 0 : 1;
}
