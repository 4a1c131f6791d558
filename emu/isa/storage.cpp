#include "emu/isa/common.h"

namespace emu::isa {

// MOVE (character): bytes move left to right one at a time, so an overlap with
// the destination one byte ahead propagates the first byte (the classic fill idiom).
void mvc(Cpu& c, const Insn& i) {
  uint64_t d = c.ea1(i), s = c.ea2(i);
  unsigned n = unsigned(i.l1) + 1;
  uint8_t* dp = c.span(d, n, true);
  uint8_t* sp = c.span(s, n, false);
  if (dp && sp && (d <= s || d >= s + n)) {
    std::memmove(dp, sp, n);
    return;
  }
  for (unsigned k = 0; k < n; ++k) c.write<uint8_t>(d + k, c.read<uint8_t>(s + k));
}

}  // namespace emu::isa
