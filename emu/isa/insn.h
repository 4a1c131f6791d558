// The decoded form of one instruction, and the shape of one line of the
// instruction table. Decoding happens once per instruction address; the run
// loop then only reads these records.
#pragma once
#include "emu/isa/facility.h"
#include <cstdint>

namespace emu {

class Cpu;
struct Insn;
using Handler = void (*)(Cpu&, const Insn&);

// Instruction formats of the z/Architecture Principles of Operation. The variants
// of RRF, RS and SS put their fields in the same places, so one decoder fills them
// all and the handler reads the fields its variant defines; the RIE variants place
// fields differently and are told apart.
enum class Format : uint8_t {
  E, I, RR, RRE, RRF, RRD, RX, RXE, RXF, RXY, RS, RSY, RSI, RSL, RI, RIL, RIS, RRS,
  RIE_a, RIE_b, RIE_c, RIE_d, RIE_e, RIE_f, RIE_g,
  SI, SIY, SIL, SS, SSE, SSF, S,
  // Vector formats: four-bit register fields reach registers 16-31 through the RXB
  // field (bits 36-39), one bit per field position [Principles of Operation, "Vector
  // Register Designation"].
  VRI_a, VRI_b, VRI_c, VRI_d, VRI_e, VRR_a, VRR_b, VRR_c, VRR_d, VRR_e, VRR_f,
  VRS_a, VRS_b, VRS_c, VRS_d, VRV, VRX, VSI,
};
const char* format_name(Format f);

// Who may execute an instruction [Principles of Operation, "Privileged and
// Semiprivileged Instructions" in chapter 4]: privileged ones only in the supervisor
// state (the table's entry checks it before the handler runs: a privileged-operation
// exception otherwise); semiprivileged ones check their own authority (a control
// register's mask) in the problem state.
enum class Privilege : uint8_t { None, Privileged, Semiprivileged };

// One line of the instruction table: the single definition of an instruction.
struct InsnDef {
  const char* mnemonic;
  uint32_t opcode;     // as the Principles of Operation writes it: 0x18, 0xB904, 0xA7B, 0xE304
  Format format;
  Handler handler;
  uint8_t cycles;      // base cycles, before storage (cache, TLB) costs
  Facility facility;   // which machine.arch levels have it (isa/facility.h)
  Privilege privilege = Privilege::None;  // the line's optional seventh field
};

// Register field value 16 names the always-zero register, so that an effective
// address is gr[x2] + gr[b2] + d2 without tests for "no base" / "no index".
constexpr uint8_t kZeroReg = 16;

// One host cache line: the interpreter reads one line per instruction it executes.
struct alignas(64) Insn {
  Handler fn = nullptr;
  uint64_t count = 0;    // executions of the instruction at this address
  // Cycles those executions took beyond their base cycles (storage references,
  // per-byte costs, serialization): kept apart so that the common execution, which
  // costs its base cycles exactly, writes no counter but `count`.
  uint64_t extra = 0;
  uint64_t target = 0;   // relative operand: branch target or relative-long address
  int64_t imm = 0;       // main immediate, sign-extended from its field width
  int32_t d1 = 0, d2 = 0;  // displacements (long ones sign-extended from 20 bits)
  // Vector formats: r1, r2, r3 hold V1, V2, V3 (0-31; a general register where the
  // format has R2 or R3 there), i3 holds V4, i4 and i5 hold M5 and M6 (isa/vector.h
  // names them), imm holds the immediate (I2, or I3 of VRI-e and VSI, I4 of VRI-d),
  // and VRI-b's second immediate (I3) is in i3.
  uint8_t r1 = 0, r2 = 0, r3 = 0;  // r3 also holds M3 of RS-b/RRF-c/RIE-c
  uint8_t m3 = 0, m4 = 0;
  uint8_t x2 = kZeroReg, b1 = kZeroReg, b2 = kZeroReg;
  uint8_t i3 = 0, i4 = 0, i5 = 0;  // RIE-f (RISBG and friends)
  uint8_t l1 = 0;        // SS: the whole length byte (L, or L1|L2 nibbles)
  uint8_t len = 0;       // 2, 4 or 6 bytes
  uint8_t cycles = 0;
  uint16_t id = 0;       // index of the table line

  // Cycles the executions took, storage references included.
  uint64_t spent() const { return count * cycles + extra; }
};
static_assert(sizeof(Insn) == 64);

}  // namespace emu
