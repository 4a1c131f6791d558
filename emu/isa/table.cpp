#include "emu/isa/table.h"

#include <array>
#include <stdexcept>
#include <string>

namespace emu::isa {
#define INSN(mnemonic, opcode, format, handler, cycles, facility, ...) void handler(Cpu&, const Insn&);
#include "emu/isa/all.def"
#undef INSN

// A privileged instruction's entry: the privileged-operation exception in the problem
// state (isa/system.cpp), then the handler. The check runs only for the lines marked
// Privileged: every other instruction's entry is its handler.
void check_privileged(Cpu& c);
template <Handler H> void privileged_entry(Cpu& c, const Insn& i) {
  check_privileged(c);
  H(c, i);
}
}  // namespace emu::isa

namespace emu {
namespace {

// A line's privilege: its seventh field when it has one, else None.
constexpr Privilege privilege_of() { return Privilege::None; }
constexpr Privilege privilege_of(Privilege p) { return p; }
template <Handler H> constexpr Handler entry_of(Privilege p) {
  return p == Privilege::Privileged ? &isa::privileged_entry<H> : H;
}

constexpr InsnDef kTable[] = {
#define INSN(mnemonic, opcode, format, handler, cycles, facility, ...)                                     \
  {#mnemonic, opcode, Format::format, entry_of<&isa::handler>(privilege_of(__VA_OPT__(Privilege::__VA_ARGS__))), \
   cycles, Facility::facility, privilege_of(__VA_OPT__(Privilege::__VA_ARGS__))},
#include "emu/isa/all.def"
#undef INSN
};

// Where the rest of the opcode sits, by first byte.
enum class Ext : uint8_t { None, Byte1, Nibble1, Byte5 };

Ext ext_of(const InsnDef& d) {
  switch (d.format) {
    case Format::RI: case Format::RIL: case Format::SSF: return Ext::Nibble1;
    default: break;
  }
  if (d.opcode <= 0xFF) return Ext::None;
  switch (d.opcode >> 8) {
    case 0xE3: case 0xE6: case 0xE7: case 0xEB: case 0xEC: case 0xED: return Ext::Byte5;
    default: return Ext::Byte1;
  }
}

uint8_t first_byte(const InsnDef& d, Ext e) {
  if (e == Ext::None) return uint8_t(d.opcode);
  if (e == Ext::Nibble1) return uint8_t(d.opcode >> 4);
  return uint8_t(d.opcode >> 8);
}

uint16_t key_of(const InsnDef& d, Ext e) {
  if (e == Ext::None) return uint16_t(d.opcode << 8);
  if (e == Ext::Nibble1) return uint16_t(((d.opcode >> 4) << 8) | (d.opcode & 0xF));
  return uint16_t(d.opcode);
}

struct Index {
  std::array<Ext, 256> ext{};
  std::array<uint16_t, 65536> id{};
  Index() {
    id.fill(kNoInsn);
    std::array<bool, 256> seen{};
    for (size_t i = 0; i < std::size(kTable); ++i) {
      const InsnDef& d = kTable[i];
      Ext e = ext_of(d);
      uint8_t op1 = first_byte(d, e);
      if (seen[op1] && ext[op1] != e)
        throw std::logic_error(std::string("instruction table: opcode byte class clash at ") + d.mnemonic);
      seen[op1] = true;
      ext[op1] = e;
      uint16_t k = key_of(d, e);
      if (id[k] != kNoInsn)
        throw std::logic_error(std::string("instruction table: duplicate opcode for ") + d.mnemonic +
                               " and " + kTable[id[k]].mnemonic);
      id[k] = uint16_t(i);
    }
  }
};

const Index& index() {
  static const Index idx;
  return idx;
}

}  // namespace

const char* format_name(Format f) {
  static constexpr const char* kNames[] = {"E", "I", "RR", "RRE", "RRF", "RRD", "RX", "RXE", "RXF", "RXY",
                                           "RS", "RSY", "RSI", "RSL", "RI", "RIL", "RIS", "RRS", "RIE-a",
                                           "RIE-b", "RIE-c", "RIE-d", "RIE-e", "RIE-f", "RIE-g",
                                           "SI", "SIY", "SIL", "SS", "SSE", "SSF", "S",
                                           "VRI-a", "VRI-b", "VRI-c", "VRI-d", "VRI-e", "VRR-a",
                                           "VRR-b", "VRR-c", "VRR-d", "VRR-e", "VRR-f", "VRS-a",
                                           "VRS-b", "VRS-c", "VRS-d", "VRV", "VRX", "VSI"};
  return kNames[static_cast<int>(f)];
}

std::span<const InsnDef> instruction_table() { return kTable; }

uint16_t lookup_opcode(const uint8_t* b) {
  const Index& idx = index();
  uint8_t op1 = b[0];
  switch (idx.ext[op1]) {
    case Ext::None: return idx.id[op1 << 8];
    case Ext::Byte1: return idx.id[(op1 << 8) | b[1]];
    case Ext::Nibble1: return idx.id[(op1 << 8) | (b[1] & 0xF)];
    case Ext::Byte5: return idx.id[(op1 << 8) | b[5]];
  }
  return kNoInsn;
}

}  // namespace emu
