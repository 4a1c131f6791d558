#include "emu/isa/common.h"

namespace emu::isa {

// BCR with R2 = 0 does not branch; masks 14 and 15 with R2 = 0 serialize (and
// 14 is fast serialization). In a one-CPU interpreter both complete in order.
void bcr(Cpu& c, const Insn& i) {
  if (i.r2 && cc_matches(c, i.r1)) c.psw_addr = c.gr[i.r2];
}
void bc(Cpu& c, const Insn& i) {
  if (cc_matches(c, i.r1)) c.psw_addr = c.ea2(i);
}
void brc(Cpu& c, const Insn& i) {
  if (cc_matches(c, i.r1)) c.psw_addr = i.target;
}
void basr(Cpu& c, const Insn& i) {
  uint64_t to = c.gr[i.r2];
  c.gr[i.r1] = c.psw_addr;
  if (i.r2) c.psw_addr = to;
}
void bras(Cpu& c, const Insn& i) {
  c.gr[i.r1] = c.psw_addr;
  c.psw_addr = i.target;
}

}  // namespace emu::isa
