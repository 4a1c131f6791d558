#include "emu/isa/common.h"

namespace emu::isa {

// CC of a logical result: 0 zero, 1 not zero.
template <class T> static T logical_cc(Cpu& c, T v) {
  c.cc = v != 0;
  return v;
}
void nr(Cpu& c, const Insn& i) { c.set_r32(i.r1, logical_cc(c, c.r32(i.r1) & c.r32(i.r2))); }
void or_(Cpu& c, const Insn& i) { c.set_r32(i.r1, logical_cc(c, c.r32(i.r1) | c.r32(i.r2))); }
void xr(Cpu& c, const Insn& i) { c.set_r32(i.r1, logical_cc(c, c.r32(i.r1) ^ c.r32(i.r2))); }

// Shift amount: the low 6 bits of the second-operand address.
static unsigned shift_amount(const Cpu& c, const Insn& i) { return c.ea2(i) & 63; }
void sllg(Cpu& c, const Insn& i) { c.gr[i.r1] = c.gr[i.r3] << shift_amount(c, i); }
void srlg(Cpu& c, const Insn& i) { c.gr[i.r1] = c.gr[i.r3] >> shift_amount(c, i); }

}  // namespace emu::isa
