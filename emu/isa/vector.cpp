// Vector loads, stores, element moves and generates [Principles of Operation,
// chapter 21]. The M3 alignment hints of VL, VST, VLM and VSTM only tell the machine
// how the operand is aligned; they change nothing here.
#include "emu/isa/vector.h"

namespace emu::isa {

VectorRegister load_vector(Cpu& c, uint64_t a) { return load_bytes(c, a, 16); }
void store_vector(Cpu& c, uint64_t a, const VectorRegister& v) { store_bytes(c, a, v, 16); }

VectorRegister load_bytes(Cpu& c, uint64_t a, unsigned n) {
  uint8_t buf[16] = {};
  if (n) {
    HostBytes h = host_bytes(c, a, n, false);
    for (unsigned k = 0; k < n; ++k) buf[k] = h[k];
  }
  return from_bytes(buf);
}

void store_bytes(Cpu& c, uint64_t a, const VectorRegister& v, unsigned n) {
  if (!n) return;
  uint8_t buf[16];
  to_bytes(v, buf);
  HostBytes h = host_bytes(c, a, n, true);
  for (unsigned k = 0; k < n; ++k) h[k] = buf[k];
}

void vl(Cpu& c, const Insn& i) { c.vr[i.r1] = load_vector(c, c.ea2(i)); }
void vst(Cpu& c, const Insn& i) { store_vector(c, c.ea2(i), c.vr[i.r1]); }
void vlr(Cpu& c, const Insn& i) { c.vr[i.r1] = c.vr[i.r2]; }

// VECTOR LOAD/STORE MULTIPLE: V1 through V3, at most 16 registers, V3 not below V1.
unsigned multiple_count(const Insn& i) {
  if (i.r3 < i.r1 || i.r3 - i.r1 > 15) program_check(Pic::Specification);
  return i.r3 - i.r1 + 1u;
}
void vlm(Cpu& c, const Insn& i) {
  const unsigned n = multiple_count(i);
  const uint64_t a = c.ea2(i);
  VectorRegister loaded[16];  // all operands fetched before any register changes
  for (unsigned k = 0; k < n; ++k) loaded[k] = load_vector(c, a + 16 * k);
  for (unsigned k = 0; k < n; ++k) c.vr[i.r1 + k] = loaded[k];
}
void vstm(Cpu& c, const Insn& i) {
  const unsigned n = multiple_count(i);
  const uint64_t a = c.ea2(i);
  for (unsigned k = 0; k < n; ++k) host_bytes(c, a + 16 * k, 16, true);  // access checked first
  for (unsigned k = 0; k < n; ++k) store_vector(c, a + 16 * k, c.vr[i.r1 + k]);
}

// VECTOR LOAD/STORE WITH LENGTH: bits 32-63 of R3 are the highest byte index, so
// min(R3, 15) + 1 bytes move.
unsigned length_of(const Cpu& c, unsigned r3) { return unsigned(std::min<uint32_t>(c.r32(r3), 15)) + 1; }
void vll(Cpu& c, const Insn& i) { c.vr[i.r1] = load_bytes(c, c.ea2(i), length_of(c, i.r3)); }
void vstl(Cpu& c, const Insn& i) { store_bytes(c, c.ea2(i), c.vr[i.r1], length_of(c, i.r3)); }

// VECTOR LOAD TO BLOCK BOUNDARY: the bytes up to the boundary of the block M3 names
// (64 bytes << M3); the rest of the register is unpredictable, zero here (as QEMU).
void vlbb(Cpu& c, const Insn& i) {
  if (i.m3 > 6) program_check(Pic::Specification);
  const uint64_t block = 64ull << i.m3, a = c.ea2(i);
  const unsigned n = unsigned(std::min<uint64_t>(16, block - (a & (block - 1))));
  c.vr[i.r1] = load_bytes(c, a, n);
}

uint64_t load_element_of_size(Cpu& c, unsigned es, uint64_t a) {
  switch (es) {
    case 0: return c.read<uint8_t>(a);
    case 1: return c.read<uint16_t>(a);
    case 2: return c.read<uint32_t>(a);
    default: return c.read<uint64_t>(a);
  }
}

void vlrep(Cpu& c, const Insn& i) {
  const unsigned es = element_size(i.m3);
  const uint64_t v = load_element_of_size(c, es, c.ea2(i));
  VectorRegister r;
  for (unsigned k = 0; k < element_count(es); ++k) set_element(r, es, k, v);
  c.vr[i.r1] = r;
}

// VECTOR LOAD LOGICAL ELEMENT AND ZERO: the element goes to the rightmost element of
// the leftmost doubleword; M3 = 6 (vector-enhancements facility 1) puts a word in the
// leftmost word instead.
void vllez(Cpu& c, const Insn& i) {
  const bool left_word = i.m3 == 6 && facility_installed(Facility::VectorEnhancements1, c.arch());
  const unsigned es = left_word ? 2 : element_size(i.m3);
  const uint64_t v = load_element_of_size(c, es, c.ea2(i));
  VectorRegister r;
  set_element(r, es, left_word ? 0 : (8u >> es) - 1, v);
  c.vr[i.r1] = r;
}

// VECTOR LOAD/STORE ELEMENT: element M3 (a specification exception past the last).
template <unsigned Es> unsigned element_index(unsigned m) {
  if (m >= element_count(Es)) program_check(Pic::Specification);
  return m;
}
template <unsigned Es> void load_element_into(Cpu& c, const Insn& i) {
  const unsigned k = element_index<Es>(i.m3);
  set_element(c.vr[i.r1], Es, k, load_element_of_size(c, Es, c.ea2(i)));
}
template <unsigned Es> void store_element_from(Cpu& c, const Insn& i) {
  const unsigned k = element_index<Es>(i.m3);
  const uint64_t v = element(c.vr[i.r1], Es, k), a = c.ea2(i);
  switch (Es) {
    case 0: c.write<uint8_t>(a, uint8_t(v)); break;
    case 1: c.write<uint16_t>(a, uint16_t(v)); break;
    case 2: c.write<uint32_t>(a, uint32_t(v)); break;
    default: c.write<uint64_t>(a, v); break;
  }
}
void vleb(Cpu& c, const Insn& i) { load_element_into<0>(c, i); }
void vleh(Cpu& c, const Insn& i) { load_element_into<1>(c, i); }
void vlef(Cpu& c, const Insn& i) { load_element_into<2>(c, i); }
void vleg(Cpu& c, const Insn& i) { load_element_into<3>(c, i); }
void vsteb(Cpu& c, const Insn& i) { store_element_from<0>(c, i); }
void vsteh(Cpu& c, const Insn& i) { store_element_from<1>(c, i); }
void vstef(Cpu& c, const Insn& i) { store_element_from<2>(c, i); }
void vsteg(Cpu& c, const Insn& i) { store_element_from<3>(c, i); }

// VECTOR LOAD ELEMENT IMMEDIATE: I2 sign-extended into element M3.
template <unsigned Es> void load_immediate_into(Cpu& c, const Insn& i) {
  set_element(c.vr[i.r1], Es, element_index<Es>(i.m3), uint64_t(i.imm));
}
void vleib(Cpu& c, const Insn& i) { load_immediate_into<0>(c, i); }
void vleih(Cpu& c, const Insn& i) { load_immediate_into<1>(c, i); }
void vleif(Cpu& c, const Insn& i) { load_immediate_into<2>(c, i); }
void vleig(Cpu& c, const Insn& i) { load_immediate_into<3>(c, i); }

// VECTOR LOAD GR FROM VR ELEMENT / LOAD VR ELEMENT FROM GR: the second-operand
// address is not used for storage; its rightmost bits index the element (an index
// past the last element is unpredictable: taken modulo the count here, as QEMU).
unsigned element_from_address(const Cpu& c, const Insn& i, unsigned es) {
  return unsigned((c.gr[i.b2] + int64_t(i.d2)) & (element_count(es) - 1));
}
void vlgv(Cpu& c, const Insn& i) {
  const unsigned es = element_size(i.m4);
  c.gr[i.r1] = element(c.vr[i.r3], es, element_from_address(c, i, es));
}
void vlvg(Cpu& c, const Insn& i) {
  const unsigned es = element_size(i.m4);
  set_element(c.vr[i.r1], es, element_from_address(c, i, es), c.gr[i.r3]);
}
void vlvgp(Cpu& c, const Insn& i) { c.vr[i.r1] = {c.gr[i.r2], c.gr[i.r3]}; }

// VECTOR GATHER ELEMENT / SCATTER ELEMENT: element M3 of V2 plus B2 + D2 addresses
// element M3 of V1 in storage.
template <unsigned Es> uint64_t element_address(const Cpu& c, const Insn& i, unsigned k) {
  return element(c.vr[i.r2], Es, k) + c.gr[i.b2] + int64_t(i.d2);
}
template <unsigned Es> void gather(Cpu& c, const Insn& i) {
  const unsigned k = element_index<Es>(i.m3);
  set_element(c.vr[i.r1], Es, k, load_element_of_size(c, Es, element_address<Es>(c, i, k)));
}
template <unsigned Es> void scatter(Cpu& c, const Insn& i) {
  const unsigned k = element_index<Es>(i.m3);
  const uint64_t a = element_address<Es>(c, i, k), v = element(c.vr[i.r1], Es, k);
  if (Es == 2) c.write<uint32_t>(a, uint32_t(v));
  else c.write<uint64_t>(a, v);
}
void vgef(Cpu& c, const Insn& i) { gather<2>(c, i); }
void vgeg(Cpu& c, const Insn& i) { gather<3>(c, i); }
void vscef(Cpu& c, const Insn& i) { scatter<2>(c, i); }
void vsceg(Cpu& c, const Insn& i) { scatter<3>(c, i); }

// VECTOR GENERATE BYTE MASK: bit k of I2 sets byte k to all ones.
void vgbm(Cpu& c, const Insn& i) {
  VectorRegister r;
  for (unsigned k = 0; k < 16; ++k)
    if (i.imm >> (15 - k) & 1) set_element(r, 0, k, 0xFF);
  c.vr[i.r1] = r;
}

// VECTOR GENERATE MASK: in every element, ones from bit I2 to bit I3 (modulo the
// element size), wrapping around when I2 > I3.
void vgm(Cpu& c, const Insn& i) {
  const unsigned es = element_size(i.m4), bits = element_bits(es);
  const unsigned start = unsigned(i.imm) % bits, end = i.i3 % bits;
  uint64_t mask = 0;
  for (unsigned b = 0; b < bits; ++b) {
    const bool on = start <= end ? (b >= start && b <= end) : (b >= start || b <= end);
    if (on) mask |= 1ull << (bits - 1 - b);
  }
  VectorRegister r;
  for (unsigned k = 0; k < element_count(es); ++k) set_element(r, es, k, mask);
  c.vr[i.r1] = r;
}

// VECTOR REPLICATE IMMEDIATE: I2 sign-extended into every element.
void vrepi(Cpu& c, const Insn& i) {
  const unsigned es = element_size(i.m3);
  VectorRegister r;
  for (unsigned k = 0; k < element_count(es); ++k) set_element(r, es, k, uint64_t(i.imm));
  c.vr[i.r1] = r;
}

// VECTOR REPLICATE: element I2 of V3 into every element.
void vrep(Cpu& c, const Insn& i) {
  const unsigned es = element_size(i.m4);
  if (uint64_t(i.imm) >= element_count(es)) program_check(Pic::Specification);
  const uint64_t v = element(c.vr[i.r3], es, unsigned(i.imm));
  VectorRegister r;
  for (unsigned k = 0; k < element_count(es); ++k) set_element(r, es, k, v);
  c.vr[i.r1] = r;
}

}  // namespace emu::isa
