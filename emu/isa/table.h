// The instruction table: every implemented instruction, one line each, in the
// group files isa/*.def. This header gives lookup by instruction bytes.
#pragma once
#include <cstdint>
#include <span>

#include "emu/isa/insn.h"

namespace emu {

std::span<const InsnDef> instruction_table();

// Table index for the opcode at `bytes` (at least the instruction's length), or
// kNoInsn when the opcode is not implemented.
constexpr uint16_t kNoInsn = 0xFFFF;
uint16_t lookup_opcode(const uint8_t* bytes);

// Instruction length from the first opcode byte (Principles of Operation: bits 0-1).
inline unsigned insn_length(uint8_t first) { return first < 0x40 ? 2 : first < 0xC0 ? 4 : 6; }

// Mnemonic of a table line, for reports.
inline const char* mnemonic(uint16_t id) { return instruction_table()[id].mnemonic; }

}  // namespace emu
