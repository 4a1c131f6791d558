#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "emu/cpu.h"
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

TEST_CASE("machine.arch: each table line decodes from its facility's generation on, and not before", "[table][arch]") {
  using emu::Generation;
  const std::span<const emu::InsnDef> table = emu::instruction_table();
  for (uint16_t id = 0; id < table.size(); ++id) {
    const emu::InsnDef& d = table[id];
    const Generation first = emu::facility_def(d.facility).first;
    std::array<uint8_t, 6> b = encode(d);
    emu::Insn in;
    INFO(d.mnemonic << " of " << emu::facility_def(d.facility).name);
    CHECK(emu::decode(b.data(), 0x1000, in, first));
    CHECK(emu::decode(b.data(), 0x1000, in, emu::kNewestGeneration));
    if (first > Generation::Z900) CHECK_FALSE(emu::decode(b.data(), 0x1000, in, Generation(int(first) - 1)));
  }
}

TEST_CASE("machine.arch: the levels by name, and what the table holds at each", "[table][arch]") {
  using emu::Generation;
  CHECK(emu::generation_named("zEC12") == Generation::ZEC12);
  CHECK(emu::generation_name(Generation::Z196) == "z196");
  CHECK_FALSE(emu::generation_named("z16").has_value());
  auto count_at = [](Generation g) {
    unsigned n = 0;
    for (const emu::InsnDef& d : emu::instruction_table()) n += emu::facility_installed(d.facility, g);
    return n;
  };
  // zEC12 adds two instructions to the default level (z196): RISBGN and PRNO (message-
  // security-assist extension 5); z13 adds the vector facility; z15, the newest, decodes
  // every line.
  CHECK(count_at(Generation::ZEC12) == count_at(Generation::Z196) + 2);
  CHECK(count_at(Generation::Z13) > count_at(Generation::ZEC12) + 20);
  CHECK(count_at(Generation::Z15) == emu::instruction_table().size());
  CHECK(count_at(Generation::Z10) < count_at(Generation::Z196));
  // ARK (distinct-operands) is z196's; AHI base z/Architecture.
  std::array<uint8_t, 6> ark = {0xB9, 0xF8, 0x30, 0x12};
  emu::Insn in;
  CHECK_FALSE(emu::decode(ark.data(), 0x1000, in, Generation::Z10));
  CHECK(emu::decode(ark.data(), 0x1000, in, Generation::Z196));
}
