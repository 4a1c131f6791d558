#include "emu/isa/common.h"
#include "emu/isa/table.h"

namespace emu::isa {

void fixed_point_overflow(Cpu& c) {
  if (c.prog_mask & 0x8) program_check(Pic::FixedPointOverflow);
}

void svc(Cpu& c, const Insn& i) {
  SvcHandler* h = c.svc_handler();
  if (!h) program_check(Pic::Operation);  // no control program to take the interruption
  h->supervisor_call(c, uint8_t(i.imm));
}

void ex(Cpu& c, const Insn& i);
void exrl(Cpu& c, const Insn& i);

// EXECUTE: the target instruction with bits 8-15 ORed with bits 56-63 of R1 (when
// R1 is not 0), run as if it stood at the target address; the PSW already points
// past the EX, which is what a branch-and-link in the target must save.
static void execute_target(Cpu& c, uint64_t target, unsigned r1) {
  if (target & 1) program_check(Pic::Specification, target);
  uint8_t bytes[6];
  bytes[0] = c.read<uint8_t>(target);
  unsigned n = insn_length(bytes[0]);
  for (unsigned k = 1; k < n; ++k) bytes[k] = c.read<uint8_t>(target + k);
  if (r1) bytes[1] |= uint8_t(c.gr[r1]);
  Insn t;
  if (!decode(bytes, target, t)) program_check(Pic::Operation);
  if (t.fn == &ex || t.fn == &exrl) program_check(Pic::Execute);
  c.cycles += t.cycles;
  t.fn(c, t);
}

void ex(Cpu& c, const Insn& i) { execute_target(c, c.ea2(i), i.r1); }
void exrl(Cpu& c, const Insn& i) { execute_target(c, i.target, i.r1); }

void stck(Cpu& c, const Insn& i) {
  c.write<uint64_t>(c.gr[i.b2] + i.d2, c.tod_clock());
  c.cc = 0;
}
void stckf(Cpu& c, const Insn& i) { stck(c, i); }
void stcke(Cpu& c, const Insn& i) {
  // 16 bytes: epoch index 0, the 64 TOD bits, then zero extension and programmable field.
  uint64_t a = c.gr[i.b2] + i.d2, tod = c.tod_clock();
  uint8_t* p = c.span(a, 16, true);
  uint8_t buf[16] = {};
  Cpu::store_be<uint64_t>(buf + 1, tod);
  if (p) std::memcpy(p, buf, 16);
  else for (unsigned k = 0; k < 16; ++k) c.write<uint8_t>(a + k, buf[k]);
  c.cc = 0;
}

void ipm(Cpu& c, const Insn& i) {
  uint64_t byte = (uint64_t(c.cc) << 4 | c.prog_mask) << 24;
  c.gr[i.r1] = (c.gr[i.r1] & ~0xFF000000ull) | byte;
}
void spm(Cpu& c, const Insn& i) {
  c.cc = (c.gr[i.r1] >> 28) & 3;
  c.prog_mask = (c.gr[i.r1] >> 24) & 0xF;
}

void ear(Cpu& c, const Insn& i) { c.set_r32(i.r1, c.ar[i.r2]); }
void sar(Cpu& c, const Insn& i) { c.ar[i.r1] = c.r32(i.r2); }

// Prefetch is a performance hint without architected effect.
void pfd(Cpu&, const Insn&) {}
void pfdrl(Cpu&, const Insn&) {}

}  // namespace emu::isa
