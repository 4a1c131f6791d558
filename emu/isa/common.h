// Helpers shared by the instruction handlers: condition codes and operand access
// as the Principles of Operation defines them. Included only by isa/*.cpp.
#pragma once
#include <algorithm>
#include <cstdint>

#include "emu/cpu.h"

namespace emu::isa {

// CC of a signed result: 0 zero, 1 negative, 2 positive.
template <class S> inline uint8_t cc_signed(S v) { return v == 0 ? 0 : v < 0 ? 1 : 2; }
// CC of a comparison: 0 equal, 1 first low, 2 first high.
template <class T> inline uint8_t cc_compare(T a, T b) { return a == b ? 0 : a < b ? 1 : 2; }

// Raises a fixed-point-overflow interruption when the PSW program mask enables it
// (Linux leaves it off). The PoO completes the operation first: call this after the
// result is stored and CC 3 set.
void fixed_point_overflow(Cpu& c);


// ADD LOGICAL (with carry in): CC = (result != 0) | carry << 1.
template <class U> inline U add_logical(Cpu& c, U a, U b, unsigned carry_in = 0) {
  U r1, r;
  bool c1 = __builtin_add_overflow(a, b, &r1);
  bool c2 = __builtin_add_overflow(r1, U(carry_in), &r);
  c.cc = uint8_t((r != 0) | ((c1 | c2) << 1));
  return r;
}
// SUBTRACT LOGICAL (with borrow in): CC = (result != 0) | (no borrow) << 1.
template <class U> inline U sub_logical(Cpu& c, U a, U b, unsigned borrow_in = 0) {
  U r1, r;
  bool b1 = __builtin_sub_overflow(a, b, &r1);
  bool b2 = __builtin_sub_overflow(r1, U(borrow_in), &r);
  c.cc = uint8_t((r != 0) | (!(b1 | b2) << 1));
  return r;
}

// Does branch mask M (4 bits, CC0 = 8) select the current CC?
inline bool cc_matches(const Cpu& c, unsigned mask) { return (mask >> (3 - c.cc)) & 1; }

// Relative-long storage operands must be aligned on their size (specification
// exception otherwise).
template <class T> inline uint64_t aligned_target(const Insn& i) {
  if (i.target & (sizeof(T) - 1)) program_check(Pic::Specification, i.target);
  return i.target;
}

// Bytes from `a` to the end of its page.
inline uint64_t page_rest(uint64_t a) { return kPageSize - (a & kPageMask); }

// An operand of 1..4096 bytes translated for its access type before anything is
// stored: at most two host pieces, because it crosses at most one page boundary.
// Translating up front makes an SS instruction all or nothing on an access exception.
struct HostBytes {
  uint8_t* p0 = nullptr;
  uint8_t* p1 = nullptr;
  unsigned n0 = 0, n = 0;
  bool contiguous() const { return n0 == n; }
  uint8_t& operator[](unsigned k) const { return k < n0 ? p0[k] : p1[k - n0]; }
};
inline HostBytes host_bytes(Cpu& c, uint64_t a, unsigned n, bool for_write) {
  HostBytes h;
  h.n = n;
  h.n0 = unsigned(std::min<uint64_t>(n, page_rest(a)));
  h.p0 = c.span(a, h.n0, for_write);
  if (h.n0 < n) h.p1 = c.span(a + h.n0, n - h.n0, for_write);
  return h;
}

// Operand 2 at the storage address of an RX/RXY/RS/RSY instruction.
template <class T> inline T mem2(Cpu& c, const Insn& i) { return c.read<T>(c.ea2(i)); }

}  // namespace emu::isa
