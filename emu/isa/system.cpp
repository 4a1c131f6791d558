// The control instructions of system mode [Principles of Operation, chapter 10]. Each
// reaches the I-stream's supervisor state through system_of (emu/system/system_cpu.h).
#include <vector>

#include "emu/isa/common.h"
#include "emu/isa/facility.h"
#include "emu/system/system_cpu.h"
#include "emu/system/system_machine.h"

namespace emu::isa {

// The table's entry of every Privileged line (isa/table.cpp) [Principles of Operation,
// "Privileged-Operation Exception"]: in the problem state the operation is suppressed.
// Under a host control program there is no PSW of the machine's to ask: the handler's
// system_of decides (STAP, the one such instruction host programs use, needs none).
void check_privileged(Cpu& c) {
  if (const SystemCpu* s = c.system(); s && s->problem_state()) program_check(Pic::PrivilegedOperation);
}

namespace {

template <class T> uint64_t aligned(uint64_t a) {
  if (a & (sizeof(T) - 1)) program_check(Pic::Specification);
  return a;
}

// Control registers r1 through r3, wrapping from 15 to 0 [Principles of Operation,
// "LOAD CONTROL"]: each its own word (bits 32-63) or doubleword.
template <class T> void load_control(Cpu& c, const Insn& i, uint64_t a) {
  SystemCpu& s = system_of(c);
  aligned<T>(a);
  // Every operand is fetched before any register changes: an access exception leaves
  // them all as they were.
  uint64_t values[16];
  unsigned n = 0;
  for (unsigned r = i.r1;; r = (r + 1) & 15) {
    values[n] = c.read<T>(a + sizeof(T) * n);
    ++n;
    if (r == i.r3) break;
  }
  n = 0;
  for (unsigned r = i.r1;; r = (r + 1) & 15) {
    s.cr[r] = sizeof(T) == 8 ? values[n] : (s.cr[r] & 0xFFFFFFFF00000000ull) | values[n];
    ++n;
    if (r == i.r3) break;
  }
  s.control_changed();
}

template <class T> void store_control(Cpu& c, const Insn& i, uint64_t a) {
  SystemCpu& s = system_of(c);
  aligned<T>(a);
  unsigned n = 0;
  for (unsigned r = i.r1;; r = (r + 1) & 15) {
    c.write<T>(a + sizeof(T) * n++, T(s.cr[r]));
    if (r == i.r3) break;
  }
}

}  // namespace

void lctl(Cpu& c, const Insn& i) { load_control<uint32_t>(c, i, c.ea2(i)); }
void lctlg(Cpu& c, const Insn& i) { load_control<uint64_t>(c, i, c.ea2(i)); }
void stctl(Cpu& c, const Insn& i) { store_control<uint32_t>(c, i, c.ea2(i)); }
void stctg(Cpu& c, const Insn& i) { store_control<uint64_t>(c, i, c.ea2(i)); }

// LOAD PSW: an ESA/390 PSW (8 bytes, doubleword aligned) whose bit 12 must be one,
// else a specification exception and nothing loaded [Principles of Operation, "LOAD PSW"].
void lpsw(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint64_t v = c.read<uint64_t>(aligned<uint64_t>(c.ea1(i)));
  if (!(v & psw::kShortFormat)) program_check(Pic::Specification);
  s.load_psw(psw_from_short(v));
}

// LOAD PSW EXTENDED: the 16-byte PSW; its validity is checked as it is loaded (an early
// exception: the program old PSW is the invalid PSW, ILC 0).
void lpswe(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint64_t a = aligned<uint64_t>(c.gr[i.b2] + i.d2);
  const uint64_t mask = c.read<uint64_t>(a), addr = c.read<uint64_t>(a + 8);
  s.load_psw(Psw{mask, addr});
}

// SET SYSTEM MASK: PSW bits 0-7 from the byte at the operand; a special-operation
// exception when CR0's SSM-suppression control is on.
void ssm(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  if (s.cr[0] & kCr0SsmSuppression) program_check(Pic(0x0013));  // special operation
  s.set_system_mask(c.read<uint8_t>(c.ea1(i)));
}

// STORE THEN AND / OR SYSTEM MASK: PSW bits 0-7 stored at the operand, then ANDed or
// ORed with I2.
void stnsm(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint8_t old = uint8_t(s.mask() >> 56);
  c.write<uint8_t>(c.ea1(i), old);
  s.set_system_mask(old & uint8_t(i.imm));
}
void stosm(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint8_t old = uint8_t(s.mask() >> 56);
  c.write<uint8_t>(c.ea1(i), old);
  s.set_system_mask(old | uint8_t(i.imm));
}

// SET PSW KEY FROM ADDRESS: the key is bits 56-59 of the operand address. Semiprivileged:
// in the problem state, the key's bit of the PSW-key mask (CR3 bits 32-47) must be one.
void spka(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint8_t key = uint8_t((c.gr[i.b2] + i.d2) >> 4 & 0xF);
  if (s.problem_state() && !(s.cr[3] >> (31 - key) & 1)) program_check(Pic::PrivilegedOperation);
  s.set_key(key);
}

// INSERT PSW KEY: the key into bits 56-59 of GR2, bits 60-63 zero. Semiprivileged: in
// the problem state CR0's extraction-authority control must be on.
void ipk(Cpu& c, const Insn&) {
  SystemCpu& s = system_of(c);
  if (s.problem_state() && !(s.cr[0] & kCr0ExtractionAuthority)) program_check(Pic::PrivilegedOperation);
  c.gr[2] = (c.gr[2] & ~0xFFull) | uint64_t(s.key()) << 4;
}

// SET PREFIX: bits 1-18 of the word at the operand are the new prefix (a multiple of
// 8 KB); an addressing exception, and no change, when that area is not in storage.
void spx(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint32_t word = c.read<uint32_t>(aligned<uint32_t>(c.gr[i.b2] + i.d2));
  const uint32_t prefix = word & 0x7FFFE000u;
  if (prefix + 8192ull > s.real().size()) program_check(Pic::Addressing, prefix);
  s.set_prefix(prefix);
}
void stpx(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  c.write<uint32_t>(aligned<uint32_t>(c.gr[i.b2] + i.d2), s.prefix());
}

// STORE CPU ID: version code 0, the CPU identification (the CPU address in its first
// byte), machine type 8561 (z15), format 0 [Principles of Operation, "STORE CPU ID"].
void stidp(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint64_t id = uint64_t(s.address() & 0xFF) << 48 | 0x8561ull << 16;
  c.write<uint64_t>(aligned<uint64_t>(c.gr[i.b2] + i.d2), id);
}

// The clock comparator and the CPU timer (their interruptions: SystemCpu::deliver_pending).
void sckc(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  s.set_clock_comparator(c.read<uint64_t>(aligned<uint64_t>(c.gr[i.b2] + i.d2)));
}
void stckc(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  c.write<uint64_t>(aligned<uint64_t>(c.gr[i.b2] + i.d2), s.clock_comparator());
}
void spt(Cpu& c, const Insn& i) { system_of(c).set_cpu_timer(c.read<uint64_t>(aligned<uint64_t>(c.gr[i.b2] + i.d2))); }
void stpt(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  c.write<uint64_t>(aligned<uint64_t>(c.gr[i.b2] + i.d2), s.cpu_timer());
}

// PURGE TLB: this I-stream's TLBs.
void ptlb(Cpu& c, const Insn&) {
  system_of(c);
  c.flush_tlb();
}

// STORE FACILITY LIST: the first word of STFLE's list at real location 200.
void stfl(Cpu& c, const Insn&) {
  system_of(c);
  const std::vector<uint64_t> list = facility_list(c.arch());
  c.write<uint32_t>(lowcore::kFacilityList, uint32_t(list.empty() ? 0 : list[0] >> 32));
}

// SERVICE CALL: R1 the SCLP command word, R2 the SCCB's real address (emu/system/sclp.h).
void servc(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  c.cc = uint8_t(s.machine().sclp().service_call(s, c.r32(i.r1), c.gr[i.r2]));
  s.deliver_pending();
}

// SIGNAL PROCESSOR: the order is bits 56-63 of the second-operand address, the addressed
// CPU bits 48-63 of R3, the parameter in R1+1 (R1 odd: in R1); a CC 1's status replaces
// bits 32-63 of R1; CC 3 when no I-stream has that address [Principles of Operation,
// "SIGNAL PROCESSOR"]. The other I-stream is told at once (the machine interleaves the
// I-streams within a quantum: this one's slice ends, so that a started one runs soon).
void sigp(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  SystemMachine& m = s.machine();
  const unsigned order = unsigned(c.ea2(i) & 0xFF);
  const uint64_t target = c.gr[i.r3] & 0xFFFF;
  if (target >= m.machine().istreams()) {
    c.cc = 3;
    return;
  }
  const uint64_t parameter = c.gr[i.r1 | 1];
  uint32_t status = 0;
  c.cc = uint8_t(m.cpu(unsigned(target)).signal(order, parameter, s, status));
  if (c.cc == 1) c.set_r32(i.r1, status);
  c.end_slice();
}

// DIAGNOSE: the function code is bits 48-63 of the second-operand address. 0x44
// (voluntary time-slice end) and 0x9C (directed yield) do nothing on a machine of our
// own; 0x308 subcodes 0 and 1 (reset and re-IPL, R3's register) end the run, as the
// program asked to leave; anything else is a specification exception, as z/VM and KVM
// give for a code they do not know.
void diag(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint16_t code = uint16_t(c.ea2(i));
  switch (code) {
    case 0x44:
    case 0x9C: return;
    case 0x308: {
      const uint64_t subcode = c.gr[i.r3];
      if (subcode == 0 || subcode == 1) return s.machine().request_reset(s.address());
      program_check(Pic::Specification);
    }
    default: program_check(Pic::Specification);
  }
}

}  // namespace emu::isa
