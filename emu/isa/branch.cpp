#include "emu/isa/common.h"

namespace emu::isa {
namespace {

// Extra cost of the serializing forms of BCR (R2 = 0). BCR 15,0 waits until every
// earlier store is visible to the other I-streams (GCC emits it for
// __sync_synchronize and seq_cst stores at -march=z10); BCR 14,0 (z196 fast
// serialization) skips the checkpoint synchronization and costs less. A one-CPU
// interpreter has nothing to drain, but lock code pays for these on real hardware.
constexpr uint64_t kSerializeCycles = 16;
constexpr uint64_t kFastSerializeCycles = 4;

// Does the M3 mask of a compare-and-branch or compare-and-trap select the relation
// of a to b? Mask bits: 8 equal, 4 first low, 2 first high (1 is ignored).
template <class T> inline bool relation_selected(T a, T b, unsigned m3) {
  return (m3 >> (3 - cc_compare(a, b))) & 1;
}

}  // namespace

// --- branch on condition -----------------------------------------------------------
// BCR with R2 = 0 does not branch; masks 14 and 15 with R2 = 0 serialize (14 is fast
// serialization). In a one-CPU interpreter both complete in order: only the cost stays.
void bcr(Cpu& c, const Insn& i) {
  if (i.r2) {
    if (cc_matches(c, i.r1)) c.psw_addr = c.gr[i.r2];
  } else if (i.r1 == 15) {
    c.charge(Cause::Instruction, kSerializeCycles);
  } else if (i.r1 == 14) {
    c.charge(Cause::Instruction, kFastSerializeCycles);
  }
}
void bc(Cpu& c, const Insn& i) {
  if (cc_matches(c, i.r1)) c.psw_addr = c.ea2(i);
}
// BRANCH INDIRECT ON CONDITION (miscellaneous-instruction-extensions 2, z14): the
// branch address is the doubleword at the second-operand address (the 64-bit
// addressing mode). M1 sits in the R1 field.
void bic(Cpu& c, const Insn& i) {
  if (cc_matches(c, i.r1)) c.psw_addr = mem2<uint64_t>(c, i);
}
void brc(Cpu& c, const Insn& i) {
  if (cc_matches(c, i.r1)) c.psw_addr = i.target;
}

// --- branch and link / save ----------------------------------------------------------
// In the 64-bit addressing mode BAL/BALR and BAS/BASR are the same: R1 receives the
// whole updated PSW address. The branch address is taken before R1 is replaced (R1
// may be the base, index or R2 register). BALR/BASR with R2 = 0 link without branching.
void basr(Cpu& c, const Insn& i) {
  uint64_t to = c.gr[i.r2];
  c.gr[i.r1] = c.psw_addr;
  if (i.r2) c.psw_addr = to;
}
void bas(Cpu& c, const Insn& i) {
  uint64_t to = c.ea2(i);
  c.gr[i.r1] = c.psw_addr;
  c.psw_addr = to;
}
void bras(Cpu& c, const Insn& i) {
  c.gr[i.r1] = c.psw_addr;
  c.psw_addr = i.target;
}

// --- branch on count -----------------------------------------------------------------
// R1 is decremented by one (bits 32-63 for the 32-bit forms, the rest unchanged;
// overflow is ignored) and the branch is taken when the result is not zero. The
// branch address is formed before R1 changes. BCTR/BCTGR with R2 = 0 only count.
void bctr(Cpu& c, const Insn& i) {
  uint64_t to = c.gr[i.r2];
  uint32_t v = c.r32(i.r1) - 1;
  c.set_r32(i.r1, v);
  if (v && i.r2) c.psw_addr = to;
}
void bct(Cpu& c, const Insn& i) {
  uint64_t to = c.ea2(i);
  uint32_t v = c.r32(i.r1) - 1;
  c.set_r32(i.r1, v);
  if (v) c.psw_addr = to;
}
void bctgr(Cpu& c, const Insn& i) {
  uint64_t to = c.gr[i.r2];
  uint64_t v = --c.gr[i.r1];
  if (v && i.r2) c.psw_addr = to;
}
void bctg(Cpu& c, const Insn& i) {
  uint64_t to = c.ea2(i);
  if (--c.gr[i.r1]) c.psw_addr = to;
}
void brct(Cpu& c, const Insn& i) {
  uint32_t v = c.r32(i.r1) - 1;
  c.set_r32(i.r1, v);
  if (v) c.psw_addr = i.target;
}
void brctg(Cpu& c, const Insn& i) {
  if (--c.gr[i.r1]) c.psw_addr = i.target;
}

// --- branch on index -----------------------------------------------------------------
// The increment is R3; the compare value is the odd register of the pair R3 names
// (R3 + 1 when R3 is even, R3 itself when odd). Both are read before the sum replaces
// R1, so R1 may coincide with either. Signed comparison, overflow ignored: BXH
// branches when the sum is high, BXLE when it is low or equal.
template <class S> static bool index_step(Cpu& c, const Insn& i) {
  S incr, cmp, sum;
  if constexpr (sizeof(S) == 4) {
    incr = S(c.r32(i.r3));
    cmp = S(c.r32(i.r3 | 1));
    sum = S(uint32_t(incr) + c.r32(i.r1));
    c.set_r32(i.r1, uint32_t(sum));
  } else {
    incr = S(c.gr[i.r3]);
    cmp = S(c.gr[i.r3 | 1]);
    sum = S(uint64_t(incr) + c.gr[i.r1]);
    c.gr[i.r1] = uint64_t(sum);
  }
  return sum > cmp;
}
void bxh(Cpu& c, const Insn& i) {
  uint64_t to = c.ea2(i);
  if (index_step<int32_t>(c, i)) c.psw_addr = to;
}
void bxle(Cpu& c, const Insn& i) {
  uint64_t to = c.ea2(i);
  if (!index_step<int32_t>(c, i)) c.psw_addr = to;
}
void bxhg(Cpu& c, const Insn& i) {
  uint64_t to = c.ea2(i);
  if (index_step<int64_t>(c, i)) c.psw_addr = to;
}
void bxleg(Cpu& c, const Insn& i) {
  uint64_t to = c.ea2(i);
  if (!index_step<int64_t>(c, i)) c.psw_addr = to;
}
void brxh(Cpu& c, const Insn& i) {
  if (index_step<int32_t>(c, i)) c.psw_addr = i.target;
}
void brxle(Cpu& c, const Insn& i) {
  if (!index_step<int32_t>(c, i)) c.psw_addr = i.target;
}
void brxhg(Cpu& c, const Insn& i) {
  if (index_step<int64_t>(c, i)) c.psw_addr = i.target;
}
void brxlg(Cpu& c, const Insn& i) {
  if (!index_step<int64_t>(c, i)) c.psw_addr = i.target;
}

// --- compare and branch (relative) ------------------------------------------------------
// The CC is unchanged. CIJ/CGIJ compare with a signed 8-bit immediate, CLIJ/CLGIJ
// with an unsigned one; the 32-bit forms compare bits 32-63 of R1.
void crj(Cpu& c, const Insn& i) {
  if (relation_selected(int32_t(c.r32(i.r1)), int32_t(c.r32(i.r2)), i.m3)) c.psw_addr = i.target;
}
void cgrj(Cpu& c, const Insn& i) {
  if (relation_selected(int64_t(c.gr[i.r1]), int64_t(c.gr[i.r2]), i.m3)) c.psw_addr = i.target;
}
void clrj(Cpu& c, const Insn& i) {
  if (relation_selected(c.r32(i.r1), c.r32(i.r2), i.m3)) c.psw_addr = i.target;
}
void clgrj(Cpu& c, const Insn& i) {
  if (relation_selected(c.gr[i.r1], c.gr[i.r2], i.m3)) c.psw_addr = i.target;
}
void cij(Cpu& c, const Insn& i) {
  if (relation_selected(int32_t(c.r32(i.r1)), int32_t(i.imm), i.m3)) c.psw_addr = i.target;
}
void cgij(Cpu& c, const Insn& i) {
  if (relation_selected(int64_t(c.gr[i.r1]), int64_t(i.imm), i.m3)) c.psw_addr = i.target;
}
void clij(Cpu& c, const Insn& i) {
  if (relation_selected(c.r32(i.r1), uint32_t(uint8_t(i.imm)), i.m3)) c.psw_addr = i.target;
}
void clgij(Cpu& c, const Insn& i) {
  if (relation_selected(c.gr[i.r1], uint64_t(uint8_t(i.imm)), i.m3)) c.psw_addr = i.target;
}

// --- compare and branch (base + displacement target; RRS/RIS put it in b2/d2) ---------
void crb(Cpu& c, const Insn& i) {
  if (relation_selected(int32_t(c.r32(i.r1)), int32_t(c.r32(i.r2)), i.m3)) c.psw_addr = c.ea2(i);
}
void cgrb(Cpu& c, const Insn& i) {
  if (relation_selected(int64_t(c.gr[i.r1]), int64_t(c.gr[i.r2]), i.m3)) c.psw_addr = c.ea2(i);
}
void clrb(Cpu& c, const Insn& i) {
  if (relation_selected(c.r32(i.r1), c.r32(i.r2), i.m3)) c.psw_addr = c.ea2(i);
}
void clgrb(Cpu& c, const Insn& i) {
  if (relation_selected(c.gr[i.r1], c.gr[i.r2], i.m3)) c.psw_addr = c.ea2(i);
}
void cib(Cpu& c, const Insn& i) {
  if (relation_selected(int32_t(c.r32(i.r1)), int32_t(i.imm), i.m3)) c.psw_addr = c.ea2(i);
}
void cgib(Cpu& c, const Insn& i) {
  if (relation_selected(int64_t(c.gr[i.r1]), int64_t(i.imm), i.m3)) c.psw_addr = c.ea2(i);
}
void clib(Cpu& c, const Insn& i) {
  if (relation_selected(c.r32(i.r1), uint32_t(uint8_t(i.imm)), i.m3)) c.psw_addr = c.ea2(i);
}
void clgib(Cpu& c, const Insn& i) {
  if (relation_selected(c.gr[i.r1], uint64_t(uint8_t(i.imm)), i.m3)) c.psw_addr = c.ea2(i);
}

// --- compare and trap -------------------------------------------------------------------
// A selected relation is a data exception (DXC FF, compare and trap); the CC is
// unchanged. CLFIT/CLGIT compare with an unsigned 16-bit immediate.
constexpr uint8_t kCompareAndTrap = 0xFF;
static void trap_if(bool selected) {
  if (selected) data_exception(kCompareAndTrap);
}
void crt(Cpu& c, const Insn& i) {
  trap_if(relation_selected(int32_t(c.r32(i.r1)), int32_t(c.r32(i.r2)), i.m3));
}
void cgrt(Cpu& c, const Insn& i) {
  trap_if(relation_selected(int64_t(c.gr[i.r1]), int64_t(c.gr[i.r2]), i.m3));
}
void clrt(Cpu& c, const Insn& i) { trap_if(relation_selected(c.r32(i.r1), c.r32(i.r2), i.m3)); }
void clgrt(Cpu& c, const Insn& i) { trap_if(relation_selected(c.gr[i.r1], c.gr[i.r2], i.m3)); }
void cit(Cpu& c, const Insn& i) {
  trap_if(relation_selected(int32_t(c.r32(i.r1)), int32_t(i.imm), i.m3));
}
void cgit(Cpu& c, const Insn& i) {
  trap_if(relation_selected(int64_t(c.gr[i.r1]), int64_t(i.imm), i.m3));
}
void clfit(Cpu& c, const Insn& i) {
  trap_if(relation_selected(c.r32(i.r1), uint32_t(uint16_t(i.imm)), i.m3));
}
void clgit(Cpu& c, const Insn& i) {
  trap_if(relation_selected(c.gr[i.r1], uint64_t(uint16_t(i.imm)), i.m3));
}

}  // namespace emu::isa
