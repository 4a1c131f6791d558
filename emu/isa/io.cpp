// The I/O instructions [Principles of Operation, chapter 14 "I/O Instructions"]: each
// checks its operands (GR1's subsystem-identification word, the operand's alignment)
// and hands the work to the machine's channel subsystem (emu/system/css.h).
#include "emu/isa/common.h"
#include "emu/system/css.h"
#include "emu/system/system_cpu.h"
#include "emu/system/system_machine.h"

namespace emu::isa {

namespace {

// GR1 bits 32-63, the subsystem-identification word [Principles of Operation, "Subsystem-
// Identification Word"]: bits 32-44 zero and bit 47 one (subchannel set 0: the
// multiple-subchannel-set facility is not installed, so bits 45-46 zero too), bits 48-63
// the subchannel number; otherwise an operand exception.
unsigned subchannel_of(Cpu& c) {
  const uint32_t sid = c.r32(1);
  if ((sid & 0xFFFF0000u) != 0x00010000u) program_check(kOperandException);
  return sid & 0xFFFF;
}

uint64_t word_aligned(uint64_t a) {
  if (a & 3) program_check(Pic::Specification);
  return a;
}

ChannelSubsystem390& css_of(SystemCpu& s) { return s.machine().css(); }

}  // namespace

// STORE SUBCHANNEL: the SCHIB (52 bytes, word aligned); CC 3 for a subchannel not provided.
void stsch(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const unsigned n = subchannel_of(c);
  const uint64_t schib = word_aligned(c.ea2(i));
  c.cc = uint8_t(css_of(s).store_subchannel(s, n, schib));
}

void msch(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const unsigned n = subchannel_of(c);
  c.cc = uint8_t(css_of(s).modify_subchannel(s, n, word_aligned(c.ea2(i))));
}

void ssch(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const unsigned n = subchannel_of(c);
  c.cc = uint8_t(css_of(s).start_subchannel(s, n, word_aligned(c.ea2(i))));
}

void tsch(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const unsigned n = subchannel_of(c);
  c.cc = uint8_t(css_of(s).test_subchannel(s, n, word_aligned(c.ea2(i))));
}

void csch(Cpu& c, const Insn&) {
  SystemCpu& s = system_of(c);
  c.cc = uint8_t(css_of(s).clear_subchannel(s, subchannel_of(c)));
}

void hsch(Cpu& c, const Insn&) {
  SystemCpu& s = system_of(c);
  c.cc = uint8_t(css_of(s).halt_subchannel(s, subchannel_of(c)));
}

void rsch(Cpu& c, const Insn&) {
  SystemCpu& s = system_of(c);
  c.cc = uint8_t(css_of(s).resume_subchannel(s, subchannel_of(c)));
}

// TEST PENDING INTERRUPTION [Principles of Operation, "TEST PENDING INTERRUPTION"]: an
// I/O interruption pending for a subclass CR6 enables (whatever the PSW's I/O mask) is
// cleared and its code stored: with a second-operand address of zero, the three words
// at real 0xB8 (as the interruption stores them); otherwise the first two at the
// operand (word aligned). CC 1 when one was, CC 0 when none is pending.
void tpi(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint64_t at = c.ea2(i);
  // An access exception of the operand is taken before any interruption is cleared.
  if (at) c.write<uint32_t>(word_aligned(at), c.read<uint32_t>(at)), c.write<uint32_t>(at + 4, c.read<uint32_t>(at + 4));
  unsigned n;
  if (!css_of(s).take_interruption(s.cr[6], n)) {
    c.cc = 0;
    return;
  }
  if (at) {
    c.write<uint32_t>(at, ChannelSubsystem390::subsystem_id(n));
    c.write<uint32_t>(at + 4, css_of(s).subchannel(n).interruption_parameter);
  } else {
    s.store_io_interruption_code(n);
  }
  c.cc = 1;
}

// STORE CHANNEL REPORT WORD [Principles of Operation, "STORE CHANNEL REPORT WORD"]: the
// oldest pending channel report stored, CC 0; with none, zeros stored, CC 1. (A pending
// report is not offered as a channel-report-pending machine check: the program asks.)
void stcrw(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint64_t at = word_aligned(c.ea2(i));
  c.read<uint32_t>(at);  // the store's access exceptions before the report is taken
  uint32_t crw = 0;
  c.cc = css_of(s).take_channel_report(crw) ? 0 : 1;
  c.write<uint32_t>(at, crw);
}

// RESET CHANNEL PATH [Principles of Operation, "RESET CHANNEL PATH"]: GR1 bits 56-63 the
// CHPID, bits 32-55 zero or an operand exception.
void rchp(Cpu& c, const Insn&) {
  SystemCpu& s = system_of(c);
  const uint32_t r1 = c.r32(1);
  if (r1 & 0xFFFFFF00u) program_check(kOperandException);
  c.cc = uint8_t(css_of(s).reset_channel_path(r1 & 0xFF));
}

// SET CHANNEL MONITOR [Principles of Operation, "SET CHANNEL MONITOR"]: GR1 bits 32-35
// the measurement-block key, bits 36-61 zero, bit 62 M (measurement-block update), bit
// 63 D (device-connect-time measurement); with M, GR2 the format-0 measurement-block
// area's origin, on a 32-byte boundary (bits 59-63 zero). Otherwise an operand exception.
void schm(Cpu& c, const Insn&) {
  SystemCpu& s = system_of(c);
  const uint32_t r1 = c.r32(1);
  const bool update = r1 & 2;
  const uint64_t origin = c.gr[2];
  if ((r1 & 0x0FFFFFFCu) || (update && (origin & 0x1F))) program_check(kOperandException);
  css_of(s).set_channel_monitor(uint8_t(r1 >> 28), update, origin);
}

// CHANNEL SUBSYSTEM CALL [Principles of Operation, "CHANNEL SUBSYSTEM CALL"]: R1 holds
// the command-request block's address, on a 4 KB boundary or a specification exception.
void chsc(Cpu& c, const Insn& i) {
  SystemCpu& s = system_of(c);
  const uint64_t block = c.gr[i.r1];
  if (block & 0xFFF) program_check(Pic::Specification);
  c.cc = uint8_t(css_of(s).call(s, block));
}

}  // namespace emu::isa
