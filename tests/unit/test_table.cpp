#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "emu/isa/table.h"

namespace {

unsigned format_length(emu::Format f) {
  using F = emu::Format;
  switch (f) {
    case F::E: case F::I: case F::RR: return 2;
    case F::RRE: case F::RRF: case F::RRD: case F::RX: case F::RS: case F::RSI: case F::RI: case F::SI: case F::S: return 4;
    default: return 6;
  }
}

// The instruction bytes of a table line with all operand fields zero.
std::array<uint8_t, 6> encode(const emu::InsnDef& d) {
  std::array<uint8_t, 6> b{};
  using F = emu::Format;
  if (d.format == F::RI || d.format == F::RIL || d.format == F::SSF) {
    b[0] = uint8_t(d.opcode >> 4), b[1] = uint8_t(d.opcode & 0xF);
  } else if (d.opcode <= 0xFF) {
    b[0] = uint8_t(d.opcode);
  } else if (format_length(d.format) == 6 && d.format != F::SIL && d.format != F::SSE) {
    b[0] = uint8_t(d.opcode >> 8), b[5] = uint8_t(d.opcode);
  } else {
    b[0] = uint8_t(d.opcode >> 8), b[1] = uint8_t(d.opcode);
  }
  return b;
}

}  // namespace

TEST_CASE("every table line decodes back to itself with the length its format has", "[table]") {
  auto table = emu::instruction_table();
  REQUIRE(table.size() > 10);
  std::set<std::string> mnemonics;
  for (size_t k = 0; k < table.size(); ++k) {
    const auto& d = table[k];
    INFO(d.mnemonic << " opcode " << std::hex << d.opcode << " format " << emu::format_name(d.format));
    auto b = encode(d);
    CHECK(emu::lookup_opcode(b.data()) == k);
    CHECK(emu::insn_length(b[0]) == format_length(d.format));
    CHECK(d.cycles >= 1);
    CHECK(mnemonics.insert(d.mnemonic).second);  // one line per instruction
  }
}

TEST_CASE("an opcode that is not in the table is reported as such", "[table]") {
  const uint8_t unassigned[6] = {0xB2, 0xFF, 0, 0, 0, 0};
  CHECK(emu::lookup_opcode(unassigned) == emu::kNoInsn);
  const uint8_t zero[6] = {0, 0, 0, 0, 0, 0};
  CHECK(emu::lookup_opcode(zero) == emu::kNoInsn);
}
