// Helpers of the vector-facility handlers [Principles of Operation, chapters 21-24]:
// the fields the vector formats add (isa/insn.h says where decode puts them), and the
// elements of a vector register. Elements are numbered from the left: element 0 of
// byte size is bits 0-7. Element size codes (ES, the M fields): 0 byte, 1 halfword,
// 2 word, 3 doubleword, 4 quadword. Included only by isa/*.cpp.
#pragma once
#include <cstdint>

#include "emu/isa/common.h"

namespace emu::isa {

using u128 = unsigned __int128;

// The fields beyond R1-R3/M3/M4 (isa/insn.h).
inline unsigned v4(const Insn& i) { return i.i3; }
inline unsigned m5(const Insn& i) { return i.i4; }
inline unsigned m6(const Insn& i) { return i.i5; }

inline u128 whole(const VectorRegister& v) { return u128(v.hi) << 64 | v.lo; }
inline VectorRegister from_whole(u128 w) { return {uint64_t(w >> 64), uint64_t(w)}; }

// Elements of size code `es` (0-3) in a register.
inline unsigned element_count(unsigned es) { return 16u >> es; }
inline unsigned element_bits(unsigned es) { return 8u << es; }
inline uint64_t element_mask(unsigned es) { return es >= 3 ? ~0ull : (1ull << element_bits(es)) - 1; }

inline uint64_t element(const VectorRegister& v, unsigned es, unsigned k) {
  const unsigned bits = element_bits(es), shift = 128 - bits * (k + 1);
  return uint64_t(whole(v) >> shift) & element_mask(es);
}
inline int64_t signed_element(const VectorRegister& v, unsigned es, unsigned k) {
  const unsigned unused = 64 - element_bits(es);
  return int64_t(element(v, es, k) << unused) >> unused;
}
inline void set_element(VectorRegister& v, unsigned es, unsigned k, uint64_t value) {
  const unsigned bits = element_bits(es), shift = 128 - bits * (k + 1);
  const u128 mask = u128(element_mask(es)) << shift;
  v = from_whole((whole(v) & ~mask) | (u128(value & element_mask(es)) << shift));
}

// A register as the 16 bytes storage holds (byte 0 first) and back.
inline void to_bytes(const VectorRegister& v, uint8_t out[16]) {
  Cpu::store_be<uint64_t>(out, v.hi), Cpu::store_be<uint64_t>(out + 8, v.lo);
}
inline VectorRegister from_bytes(const uint8_t in[16]) {
  return {Cpu::load_be<uint64_t>(in), Cpu::load_be<uint64_t>(in + 8)};
}
inline uint8_t byte_of(const VectorRegister& v, unsigned k) { return uint8_t(element(v, 0, k)); }

// Element size code of the instruction's M field, or a specification exception when
// it exceeds `max` [each instruction's "Program Exceptions"].
inline unsigned element_size(unsigned m, unsigned max = 3) {
  if (m > max) program_check(Pic::Specification);
  return m;
}

// 16 bytes from or to storage, with every byte's access checked first (a vector
// store is all or nothing on an access exception).
VectorRegister load_vector(Cpu& c, uint64_t a);
void store_vector(Cpu& c, uint64_t a, const VectorRegister& v);
// The first `n` bytes (0-16) of a register from or to storage at `a`; the other
// bytes of a load are zero.
VectorRegister load_bytes(Cpu& c, uint64_t a, unsigned n);
void store_bytes(Cpu& c, uint64_t a, const VectorRegister& v, unsigned n);

}  // namespace emu::isa
