#include <algorithm>
#include <vector>

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
  bytes[0] = c.fetch_execute_target_byte(target);
  unsigned n = insn_length(bytes[0]);
  for (unsigned k = 1; k < n; ++k) bytes[k] = c.fetch_execute_target_byte(target + k);
  c.check_execute_target(target, n);
  if (r1) bytes[1] |= uint8_t(c.gr[r1]);
  Insn t;
  if (!decode(bytes, target, t, c.arch())) program_check(Pic::Operation);  // this machine.arch's, as any instruction
  if (t.fn == &ex || t.fn == &exrl) program_check(Pic::Execute);
  c.charge(Cause::Instruction, t.cycles);  // the target's own base cycles
  t.fn(c, t);
}

void ex(Cpu& c, const Insn& i) { execute_target(c, c.ea2(i), i.r1); }
void exrl(Cpu& c, const Insn& i) { execute_target(c, i.target, i.r1); }

void stck(Cpu& c, const Insn& i) {
  c.write<uint64_t>(c.gr[i.b2] + i.d2, c.tod_clock());
  c.cc = 0;
}
void stckf(Cpu& c, const Insn& i) { stck(c, i); }
// STORE CPU ADDRESS [Principles of Operation, "Store CPU Address"]: the halfword CPU
// address of this CPU, here the I-stream's number (z/TPF's I-stream is a CPU).
// Privileged: in system mode a problem-state program gets the privileged-operation
// exception; under a host control program (run, exec), which is the supervisor, it
// runs as it always did (the locks' guest code reads its I-stream so).
// STORE CPU ADDRESS: a halfword, on a halfword boundary (specification exception).
void stap(Cpu& c, const Insn& i) {
  const uint64_t a = c.gr[i.b2] + i.d2;
  if (a & 1) program_check(Pic::Specification);
  c.write<uint16_t>(a, uint16_t(c.istream()));
}
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

// STORE FACILITY LIST EXTENDED: GR0 bits 56-63 hold the doublewords the program gave
// minus one; at most that many of the list are stored, GR0's byte becomes the list's
// length minus one, and CC 3 says the list did not fit [Principles of Operation,
// "STORE FACILITY LIST EXTENDED"]. The operand must be on a doubleword boundary.
void stfle(Cpu& c, const Insn& i) {
  const uint64_t a = c.gr[i.b2] + i.d2;
  if (a & 7) program_check(Pic::Specification);
  // System mode announces what only its DAT models (instruction-execution protection).
  const std::vector<uint64_t> list = facility_list(c.arch(), c.system() != nullptr);
  const size_t given = (c.gr[0] & 0xFF) + 1;
  for (size_t k = 0; k < std::min(given, list.size()); ++k) c.write<uint64_t>(a + 8 * k, list[k]);
  c.gr[0] = (c.gr[0] & ~0xFFull) | (list.size() - 1);
  c.cc = given >= list.size() ? 0 : 3;
}

void ipm(Cpu& c, const Insn& i) {
  uint64_t byte = (uint64_t(c.cc) << 4 | c.prog_mask) << 24;
  c.gr[i.r1] = (c.gr[i.r1] & ~0xFF000000ull) | byte;
}
void spm(Cpu& c, const Insn& i) {
  c.cc = (c.gr[i.r1] >> 28) & 3;
  c.prog_mask = (c.gr[i.r1] >> 24) & 0xF;
}

// EXTRACT PSW: bits 0-31 of the PSW into R1, bits 32-63 into R2 (unless R2 is 0).
void epsw(Cpu& c, const Insn& i) {
  uint64_t m = c.psw_mask();
  c.set_r32(i.r1, uint32_t(m >> 32));
  if (i.r2) c.set_r32(i.r2, uint32_t(m));
}

// The core runs in 64-bit addressing mode only: TEST ADDRESSING MODE says so (CC 3),
// SET ADDRESSING MODE 64 keeps it; SAM24/SAM31 are not implemented.
void tam(Cpu& c, const Insn&) { c.cc = 3; }
void sam64(Cpu&, const Insn&) {}

// LOAD COUNT TO BLOCK BOUNDARY: bytes from the address to the next 64 << M3 byte
// boundary, at most 16; CC 0 when 16, 3 when fewer.
void lcbb(Cpu& c, const Insn& i) {
  if (i.m3 > 6) program_check(Pic::Specification);
  uint64_t block = 64ull << i.m3, a = c.ea2(i);
  uint32_t n = uint32_t(std::min<uint64_t>(16, block - (a & (block - 1))));
  c.set_r32(i.r1, n);
  c.cc = n == 16 ? 0 : 3;
}

// TEST DECIMAL: a packed field of L1+1 bytes, digits 0-9 and a sign A-F in the last
// nibble. CC 0 valid, 1 bad sign, 2 bad digit, 3 both.
void tp(Cpu& c, const Insn& i) {
  uint64_t a = c.ea1(i);
  bool bad_digit = false, bad_sign = false;
  for (unsigned k = 0; k <= i.l1; ++k) {
    uint8_t b = c.read<uint8_t>(a + k);
    bad_digit |= (b >> 4) > 9;
    if (k == i.l1) bad_sign = (b & 0xF) < 0xA;
    else bad_digit |= (b & 0xF) > 9;
  }
  c.cc = uint8_t(bad_sign | bad_digit << 1);
}

void ear(Cpu& c, const Insn& i) { c.set_r32(i.r1, c.ar[i.r2]); }
void sar(Cpu& c, const Insn& i) { c.ar[i.r1] = c.r32(i.r2); }

// Prefetch is a performance hint without architected effect.
void pfd(Cpu&, const Insn&) {}
void pfdrl(Cpu&, const Insn&) {}

}  // namespace emu::isa
