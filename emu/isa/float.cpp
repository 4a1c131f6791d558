#include "emu/isa/common.h"

namespace emu::isa {

void ldgr(Cpu& c, const Insn& i) { c.fpr[i.r1] = c.gr[i.r2]; }
void lgdr(Cpu& c, const Insn& i) { c.gr[i.r1] = c.fpr[i.r2]; }

}  // namespace emu::isa
