#include "emu/isa/common.h"

namespace emu::isa {

void ar(Cpu& c, const Insn& i) { c.set_r32(i.r1, uint32_t(add_signed<int32_t>(c, int32_t(c.gr[i.r1]), int32_t(c.gr[i.r2])))); }
void agr(Cpu& c, const Insn& i) { c.gr[i.r1] = uint64_t(add_signed<int64_t>(c, int64_t(c.gr[i.r1]), int64_t(c.gr[i.r2]))); }
void ahi(Cpu& c, const Insn& i) { c.set_r32(i.r1, uint32_t(add_signed<int32_t>(c, int32_t(c.gr[i.r1]), int32_t(i.imm)))); }
void aghi(Cpu& c, const Insn& i) { c.gr[i.r1] = uint64_t(add_signed<int64_t>(c, int64_t(c.gr[i.r1]), i.imm)); }
void sr(Cpu& c, const Insn& i) { c.set_r32(i.r1, uint32_t(sub_signed<int32_t>(c, int32_t(c.gr[i.r1]), int32_t(c.gr[i.r2])))); }
void sgr(Cpu& c, const Insn& i) { c.gr[i.r1] = uint64_t(sub_signed<int64_t>(c, int64_t(c.gr[i.r1]), int64_t(c.gr[i.r2]))); }
void cr(Cpu& c, const Insn& i) { c.cc = cc_compare(int32_t(c.gr[i.r1]), int32_t(c.gr[i.r2])); }
void cgr(Cpu& c, const Insn& i) { c.cc = cc_compare(int64_t(c.gr[i.r1]), int64_t(c.gr[i.r2])); }
void chi(Cpu& c, const Insn& i) { c.cc = cc_compare(int32_t(c.gr[i.r1]), int32_t(i.imm)); }
void cghi(Cpu& c, const Insn& i) { c.cc = cc_compare(int64_t(c.gr[i.r1]), i.imm); }
void clgr(Cpu& c, const Insn& i) { c.cc = cc_compare(c.gr[i.r1], c.gr[i.r2]); }

}  // namespace emu::isa
