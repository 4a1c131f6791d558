// For each line of the instruction table, the first 6-byte pattern (operand fields zero)
// the decoder's own lookup maps to it: opcodes sit in byte 0, the low half of byte 1, all
// of byte 1, or byte 5. Empty for a line no pattern reaches. Shared by the seed writers.
#pragma once
#include <cstdint>
#include <vector>

#include "emu/isa/table.h"

namespace fuzz {

inline std::vector<std::vector<uint8_t>> first_encodings() {
  const size_t count = emu::instruction_table().size();
  std::vector<std::vector<uint8_t>> first(count);
  size_t found = 0;
  for (unsigned b0 = 0; b0 < 256 && found < count; ++b0)
    for (unsigned b1 = 0; b1 < 256 && found < count; ++b1)
      for (unsigned b5 = 0; b5 < 256; ++b5) {
        const uint8_t bytes[6] = {uint8_t(b0), uint8_t(b1), 0, 0, 0, uint8_t(b5)};
        const uint16_t id = emu::lookup_opcode(bytes);
        if (id != emu::kNoInsn && id < count && first[id].empty()) first[id].assign(bytes, bytes + 6), ++found;
      }
  return first;
}

}  // namespace fuzz
