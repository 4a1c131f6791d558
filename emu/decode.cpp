// Field extraction for every instruction format (Principles of Operation, chapter 5,
// "Instruction Formats"). Runs once per instruction address.
#include "emu/cpu.h"
#include "emu/isa/table.h"

namespace emu {
namespace {

uint8_t base(unsigned field) { return field ? uint8_t(field) : kZeroReg; }
int32_t disp12(const uint8_t* b, int at) { return ((b[at] & 0xF) << 8) | b[at + 1]; }
// Long displacement: DL (12 bits) at `at`, DH (8 bits, signed) two bytes later.
int32_t disp20(const uint8_t* b, int at) {
  return int32_t(int8_t(b[at + 2])) * 4096 + disp12(b, at);
}
int64_t i16(const uint8_t* b, int at) { return int16_t((b[at] << 8) | b[at + 1]); }
int64_t i32(const uint8_t* b, int at) {
  return int32_t(uint32_t(b[at]) << 24 | uint32_t(b[at + 1]) << 16 | uint32_t(b[at + 2]) << 8 | b[at + 3]);
}

// Vector register field at bit position `pos` (8, 12, 16 or 32), extended to five
// bits by its RXB bit (bit 36 for the field at 8, 37 for 12, 38 for 16, 39 for 32).
uint8_t vreg(const uint8_t* b, unsigned pos) {
  const unsigned nibble = (pos / 8 == 1 ? b[1] : pos / 8 == 2 ? b[2] : b[4]) >> (pos % 8 ? 0 : 4) & 0xF;
  const unsigned rxb_bit = pos == 8 ? 8 : pos == 12 ? 4 : pos == 16 ? 2 : 1;
  return uint8_t(nibble | ((b[4] & rxb_bit) ? 16 : 0));
}

// The vector formats (Principles of Operation, chapter 5, "Instruction Formats"): six
// bytes, E6 or E7 first, the opcode extension in byte 5, RXB in bits 36-39.
void decode_vector(const uint8_t* b, Format f, Insn& in) {
  const uint8_t n3 = b[1] & 0xF, n4 = b[2] >> 4, n5 = b[2] & 0xF, n6 = b[3] >> 4, n7 = b[3] & 0xF,
                n8 = b[4] >> 4;
  auto storage = [&] { in.b2 = base(n4), in.d2 = disp12(b, 2); };
  switch (f) {
    case Format::VRI_a: in.r1 = vreg(b, 8), in.imm = i16(b, 2), in.m3 = n8; break;
    case Format::VRI_b: in.r1 = vreg(b, 8), in.imm = b[2], in.i3 = b[3], in.m4 = n8; break;
    case Format::VRI_c: in.r1 = vreg(b, 8), in.r3 = vreg(b, 12), in.imm = i16(b, 2), in.m4 = n8; break;
    case Format::VRI_d:
      in.r1 = vreg(b, 8), in.r2 = vreg(b, 12), in.r3 = vreg(b, 16), in.imm = b[3], in.i4 = n8;
      break;
    case Format::VRI_e:
      in.r1 = vreg(b, 8), in.r2 = vreg(b, 12), in.imm = (b[2] << 4) | n6, in.i4 = n7, in.m4 = n8;
      break;
    case Format::VRR_a: in.r1 = vreg(b, 8), in.r2 = vreg(b, 12), in.i4 = n6, in.m4 = n7, in.m3 = n8; break;
    case Format::VRR_b:
      in.r1 = vreg(b, 8), in.r2 = vreg(b, 12), in.r3 = vreg(b, 16), in.i4 = n6, in.m4 = n8;
      break;
    case Format::VRR_c:
      in.r1 = vreg(b, 8), in.r2 = vreg(b, 12), in.r3 = vreg(b, 16);
      in.i5 = n6, in.i4 = n7, in.m4 = n8;
      break;
    case Format::VRR_d:
      in.r1 = vreg(b, 8), in.r2 = vreg(b, 12), in.r3 = vreg(b, 16);
      in.i4 = n5, in.i5 = n6, in.i3 = vreg(b, 32);
      break;
    case Format::VRR_e:
      in.r1 = vreg(b, 8), in.r2 = vreg(b, 12), in.r3 = vreg(b, 16);
      in.i5 = n5, in.i4 = n7, in.i3 = vreg(b, 32);
      break;
    case Format::VRR_f: in.r1 = vreg(b, 8), in.r2 = n3, in.r3 = n4; break;
    case Format::VRS_a: in.r1 = vreg(b, 8), in.r3 = vreg(b, 12), storage(), in.m4 = n8; break;
    case Format::VRS_b: in.r1 = vreg(b, 8), in.r3 = n3, storage(), in.m4 = n8; break;
    case Format::VRS_c: in.r1 = b[1] >> 4, in.r3 = vreg(b, 12), storage(), in.m4 = n8; break;
    case Format::VRS_d: in.r3 = n3, storage(), in.r1 = vreg(b, 32); break;
    case Format::VRV: in.r1 = vreg(b, 8), in.r2 = vreg(b, 12), storage(), in.m3 = n8; break;
    case Format::VRX: in.r1 = vreg(b, 8), in.x2 = base(n3), storage(), in.m3 = n8; break;
    case Format::VSI: in.imm = b[1], storage(), in.r1 = vreg(b, 32); break;
    default: break;
  }
}

}  // namespace

bool decode(const uint8_t* b, uint64_t a, Insn& in, Generation arch) {
  uint16_t id = lookup_opcode(b);
  if (id == kNoInsn) return false;
  const InsnDef& def = instruction_table()[id];
  if (!facility_installed(def.facility, arch)) return false;  // not on this machine: operation exception
  in = Insn{};
  in.fn = def.handler;
  in.id = id;
  in.cycles = def.cycles;
  in.len = uint8_t(insn_length(b[0]));
  const unsigned hi1 = b[1] >> 4, lo1 = b[1] & 0xF;
  auto relative = [&](int64_t halfwords) { in.target = a + uint64_t(halfwords * 2); };

  switch (def.format) {
    case Format::E: break;
    case Format::I: in.imm = b[1]; break;
    case Format::RR: in.r1 = hi1, in.r2 = lo1; break;
    case Format::RRE: in.r1 = b[3] >> 4, in.r2 = b[3] & 0xF; break;
    case Format::RRF:
      in.r3 = in.m3 = b[2] >> 4, in.m4 = b[2] & 0xF;
      in.r1 = b[3] >> 4, in.r2 = b[3] & 0xF;
      break;
    case Format::RRD: in.r1 = b[2] >> 4, in.r3 = b[3] >> 4, in.r2 = b[3] & 0xF; break;
    case Format::RXF:
      in.r3 = hi1, in.x2 = base(lo1), in.b2 = base(b[2] >> 4), in.d2 = disp12(b, 2);
      in.r1 = b[4] >> 4;
      break;
    case Format::RX:
    case Format::RXE:
      in.r1 = hi1, in.x2 = base(lo1), in.b2 = base(b[2] >> 4), in.d2 = disp12(b, 2);
      in.m3 = b[4] >> 4;
      break;
    case Format::RXY:
      in.r1 = hi1, in.x2 = base(lo1), in.b2 = base(b[2] >> 4), in.d2 = disp20(b, 2);
      break;
    case Format::RS:
      in.r1 = hi1, in.r3 = in.m3 = lo1, in.b2 = base(b[2] >> 4), in.d2 = disp12(b, 2);
      break;
    case Format::RSY:
      in.r1 = hi1, in.r3 = in.m3 = lo1, in.b2 = base(b[2] >> 4), in.d2 = disp20(b, 2);
      break;
    case Format::RSI: in.r1 = hi1, in.r3 = lo1, relative(i16(b, 2)); break;
    case Format::RSL: in.l1 = hi1, in.b1 = base(b[2] >> 4), in.d1 = disp12(b, 2); break;
    case Format::RI: in.r1 = hi1, in.imm = i16(b, 2), relative(in.imm); break;
    case Format::RIL: in.r1 = hi1, in.imm = i32(b, 2), relative(in.imm); break;
    case Format::RIS:
      in.r1 = hi1, in.m3 = lo1, in.b2 = base(b[2] >> 4), in.d2 = disp12(b, 2);
      in.imm = int8_t(b[4]);
      break;
    case Format::RRS:
      in.r1 = hi1, in.r2 = lo1, in.b2 = base(b[2] >> 4), in.d2 = disp12(b, 2);
      in.m3 = b[4] >> 4;
      break;
    case Format::RIE_a: in.r1 = hi1, in.imm = i16(b, 2), in.m3 = b[4] >> 4; break;
    case Format::RIE_b: in.r1 = hi1, in.r2 = lo1, relative(i16(b, 2)), in.m3 = b[4] >> 4; break;
    case Format::RIE_c: in.r1 = hi1, in.m3 = lo1, relative(i16(b, 2)), in.imm = int8_t(b[4]); break;
    case Format::RIE_d: in.r1 = hi1, in.r3 = lo1, in.imm = i16(b, 2); break;
    case Format::RIE_e: in.r1 = hi1, in.r3 = lo1, relative(i16(b, 2)); break;
    case Format::RIE_f: in.r1 = hi1, in.r2 = lo1, in.i3 = b[2], in.i4 = b[3], in.i5 = b[4]; break;
    case Format::RIE_g: in.r1 = hi1, in.m3 = lo1, in.imm = i16(b, 2); break;
    case Format::SI: in.imm = int8_t(b[1]), in.b1 = base(b[2] >> 4), in.d1 = disp12(b, 2); break;
    case Format::SIY: in.imm = int8_t(b[1]), in.b1 = base(b[2] >> 4), in.d1 = disp20(b, 2); break;
    case Format::SIL: in.b1 = base(b[2] >> 4), in.d1 = disp12(b, 2), in.imm = i16(b, 4); break;
    case Format::SS:
      in.l1 = b[1], in.r1 = hi1, in.r3 = lo1;
      in.b1 = base(b[2] >> 4), in.d1 = disp12(b, 2);
      in.b2 = base(b[4] >> 4), in.d2 = disp12(b, 4);
      break;
    case Format::SSE:
      in.b1 = base(b[2] >> 4), in.d1 = disp12(b, 2);
      in.b2 = base(b[4] >> 4), in.d2 = disp12(b, 4);
      break;
    case Format::SSF:  // R3, then the operand addresses as in SS
      in.r3 = hi1;
      in.b1 = base(b[2] >> 4), in.d1 = disp12(b, 2);
      in.b2 = base(b[4] >> 4), in.d2 = disp12(b, 4);
      break;
    case Format::S: in.b2 = base(b[2] >> 4), in.d2 = disp12(b, 2); break;
    default: decode_vector(b, def.format, in); break;
  }
  return true;
}

}  // namespace emu
