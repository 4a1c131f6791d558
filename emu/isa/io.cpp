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

// STORE CHANNEL REPORT WORD: no channel report is ever pending here; zeros stored, CC 1.
void stcrw(Cpu& c, const Insn& i) {
  system_of(c);
  c.write<uint32_t>(word_aligned(c.ea2(i)), 0);
  c.cc = 1;
}

}  // namespace emu::isa
