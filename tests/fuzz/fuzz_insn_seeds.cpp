// Writes the instruction fuzz target's seeds into a directory: one input per line of
// the instruction table (emu/isa/*.def), its opcode found through the decoder's own
// lookup, the other fields and the CPU state from a fixed pseudo-random sequence
// (the same seeds every time). Prints how many it wrote.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <vector>

#include "emu/isa/table.h"
#include "table_encodings.h"
#include "fuzz_insn.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_insn_seeds DIRECTORY\n");
    return 2;
  }
  const size_t count = emu::instruction_table().size();
  const std::vector<std::vector<uint8_t>> first = fuzz::first_encodings();
  std::filesystem::create_directories(argv[1]);
  std::mt19937_64 random(16);
  size_t written = 0;
  for (size_t id = 0; id < count; ++id) {
    if (first[id].empty()) continue;
    std::vector<uint8_t> in(fuzz_insn::kData + 256);
    for (auto& b : in) b = uint8_t(random());
    // Keep the opcode's bits; registers and displacements stay random. Byte 1's low
    // half belongs to the opcode for the 12-bit ones: keep the whole byte, as found.
    in[0] = first[id][0], in[1] = first[id][1], in[5] = first[id][5];
    in[fuzz_insn::kPlacement] = 0;
    in[fuzz_insn::kPointers] = in[fuzz_insn::kPointers + 1] = 0xFF;  // operands in the data area
    std::ofstream(std::filesystem::path(argv[1]) / emu::instruction_table()[id].mnemonic, std::ios::binary)
        .write(reinterpret_cast<const char*>(in.data()), std::streamsize(in.size()));
    ++written;
  }
  std::printf("wrote %zu seeds for %zu instructions\n", written, count);
  return written ? 0 : 1;
}
