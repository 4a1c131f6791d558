#include <bit>
#include <functional>
#include <limits>
#include <type_traits>

#include "emu/isa/common.h"

namespace emu::isa {

// CC of a logical result: 0 zero, 1 not zero.
template <class T> static T logical_cc(Cpu& c, T v) {
  c.cc = v != 0;
  return v;
}

using And = std::bit_and<>;
using Or = std::bit_or<>;
using Xor = std::bit_xor<>;

// --- AND / OR / EXCLUSIVE OR -----------------------------------------------------------
// 32-bit forms write bits 32-63 only; the high half of R1 stays.
template <class Op> static void op32(Cpu& c, unsigned r1, uint32_t a, uint32_t b) {
  c.set_r32(r1, logical_cc(c, uint32_t(Op{}(a, b))));
}
template <class Op> static void op64(Cpu& c, unsigned r1, uint64_t a, uint64_t b) {
  c.gr[r1] = logical_cc(c, uint64_t(Op{}(a, b)));
}
// SI/SIY: one byte in storage, fetched and stored back.
template <class Op> static void op_byte(Cpu& c, const Insn& i) {
  uint64_t a = c.ea1(i);
  c.write<uint8_t>(a, logical_cc(c, uint8_t(Op{}(c.read<uint8_t>(a), uint8_t(i.imm)))));
}
// RI/RIL immediates change one 16- or 32-bit field of R1; the CC is of that field alone.
template <class Op, unsigned Shift, unsigned Bits> static void op_field(Cpu& c, const Insn& i) {
  constexpr uint64_t m = (1ull << Bits) - 1;
  uint64_t f = Op{}((c.gr[i.r1] >> Shift) & m, uint64_t(i.imm) & m);
  c.gr[i.r1] = (c.gr[i.r1] & ~(m << Shift)) | (logical_cc(c, f) << Shift);
}

void nr(Cpu& c, const Insn& i) { op32<And>(c, i.r1, c.r32(i.r1), c.r32(i.r2)); }
void ngr(Cpu& c, const Insn& i) { op64<And>(c, i.r1, c.gr[i.r1], c.gr[i.r2]); }
void n(Cpu& c, const Insn& i) { op32<And>(c, i.r1, c.r32(i.r1), mem2<uint32_t>(c, i)); }
void ng(Cpu& c, const Insn& i) { op64<And>(c, i.r1, c.gr[i.r1], mem2<uint64_t>(c, i)); }
void nrk(Cpu& c, const Insn& i) { op32<And>(c, i.r1, c.r32(i.r2), c.r32(i.r3)); }
void ngrk(Cpu& c, const Insn& i) { op64<And>(c, i.r1, c.gr[i.r2], c.gr[i.r3]); }
void ni(Cpu& c, const Insn& i) { op_byte<And>(c, i); }
void nilf(Cpu& c, const Insn& i) { op_field<And, 0, 32>(c, i); }
void nihf(Cpu& c, const Insn& i) { op_field<And, 32, 32>(c, i); }
void nill(Cpu& c, const Insn& i) { op_field<And, 0, 16>(c, i); }
void nilh(Cpu& c, const Insn& i) { op_field<And, 16, 16>(c, i); }
void nihl(Cpu& c, const Insn& i) { op_field<And, 32, 16>(c, i); }
void nihh(Cpu& c, const Insn& i) { op_field<And, 48, 16>(c, i); }

void or_(Cpu& c, const Insn& i) { op32<Or>(c, i.r1, c.r32(i.r1), c.r32(i.r2)); }
void ogr(Cpu& c, const Insn& i) { op64<Or>(c, i.r1, c.gr[i.r1], c.gr[i.r2]); }
void o(Cpu& c, const Insn& i) { op32<Or>(c, i.r1, c.r32(i.r1), mem2<uint32_t>(c, i)); }
void og(Cpu& c, const Insn& i) { op64<Or>(c, i.r1, c.gr[i.r1], mem2<uint64_t>(c, i)); }
void ork(Cpu& c, const Insn& i) { op32<Or>(c, i.r1, c.r32(i.r2), c.r32(i.r3)); }
void ogrk(Cpu& c, const Insn& i) { op64<Or>(c, i.r1, c.gr[i.r2], c.gr[i.r3]); }
void oi(Cpu& c, const Insn& i) { op_byte<Or>(c, i); }
void oilf(Cpu& c, const Insn& i) { op_field<Or, 0, 32>(c, i); }
void oihf(Cpu& c, const Insn& i) { op_field<Or, 32, 32>(c, i); }
void oill(Cpu& c, const Insn& i) { op_field<Or, 0, 16>(c, i); }
void oilh(Cpu& c, const Insn& i) { op_field<Or, 16, 16>(c, i); }
void oihl(Cpu& c, const Insn& i) { op_field<Or, 32, 16>(c, i); }
void oihh(Cpu& c, const Insn& i) { op_field<Or, 48, 16>(c, i); }

void xr(Cpu& c, const Insn& i) { op32<Xor>(c, i.r1, c.r32(i.r1), c.r32(i.r2)); }
void xgr(Cpu& c, const Insn& i) { op64<Xor>(c, i.r1, c.gr[i.r1], c.gr[i.r2]); }
void x(Cpu& c, const Insn& i) { op32<Xor>(c, i.r1, c.r32(i.r1), mem2<uint32_t>(c, i)); }
void xg(Cpu& c, const Insn& i) { op64<Xor>(c, i.r1, c.gr[i.r1], mem2<uint64_t>(c, i)); }
void xrk(Cpu& c, const Insn& i) { op32<Xor>(c, i.r1, c.r32(i.r2), c.r32(i.r3)); }
void xgrk(Cpu& c, const Insn& i) { op64<Xor>(c, i.r1, c.gr[i.r2], c.gr[i.r3]); }
void xi(Cpu& c, const Insn& i) { op_byte<Xor>(c, i); }
void xilf(Cpu& c, const Insn& i) { op_field<Xor, 0, 32>(c, i); }
void xihf(Cpu& c, const Insn& i) { op_field<Xor, 32, 32>(c, i); }

// Miscellaneous-instruction-extensions facility 3 (z15) [Principles of Operation,
// "AND WITH COMPLEMENT", "NAND", "NOR", "NOT EXCLUSIVE OR", "OR WITH COMPLEMENT"]:
// R2 op R3 into R1, the complement taken of R3 (...C...) or of the result (N...).
struct AndComplement {
  template <class T> T operator()(T a, T b) const { return a & ~b; }
};
struct OrComplement {
  template <class T> T operator()(T a, T b) const { return a | ~b; }
};
template <class Op> struct Not {
  template <class T> T operator()(T a, T b) const { return T(~Op{}(a, b)); }
};
void ncrk(Cpu& c, const Insn& i) { op32<AndComplement>(c, i.r1, c.r32(i.r2), c.r32(i.r3)); }
void ncgrk(Cpu& c, const Insn& i) { op64<AndComplement>(c, i.r1, c.gr[i.r2], c.gr[i.r3]); }
void ocrk(Cpu& c, const Insn& i) { op32<OrComplement>(c, i.r1, c.r32(i.r2), c.r32(i.r3)); }
void ocgrk(Cpu& c, const Insn& i) { op64<OrComplement>(c, i.r1, c.gr[i.r2], c.gr[i.r3]); }
void nnrk(Cpu& c, const Insn& i) { op32<Not<And>>(c, i.r1, c.r32(i.r2), c.r32(i.r3)); }
void nngrk(Cpu& c, const Insn& i) { op64<Not<And>>(c, i.r1, c.gr[i.r2], c.gr[i.r3]); }
void nork(Cpu& c, const Insn& i) { op32<Not<Or>>(c, i.r1, c.r32(i.r2), c.r32(i.r3)); }
void nogrk(Cpu& c, const Insn& i) { op64<Not<Or>>(c, i.r1, c.gr[i.r2], c.gr[i.r3]); }
void nxrk(Cpu& c, const Insn& i) { op32<Not<Xor>>(c, i.r1, c.r32(i.r2), c.r32(i.r3)); }
void nxgrk(Cpu& c, const Insn& i) { op64<Not<Xor>>(c, i.r1, c.gr[i.r2], c.gr[i.r3]); }

// --- TEST UNDER MASK -----------------------------------------------------------------------
// CC 0 selected bits all zero (or mask zero), 3 all one. Mixed: TM gives 1; the RI forms
// tell by the leftmost selected bit, 1 when it is zero and 2 when it is one.
void tm(Cpu& c, const Insn& i) {
  uint8_t mask = uint8_t(i.imm), sel = c.read<uint8_t>(c.ea1(i)) & mask;
  c.cc = sel == 0 ? 0 : sel == mask ? 3 : 1;
}
template <unsigned Shift> static void tm_half(Cpu& c, const Insn& i) {
  uint16_t mask = uint16_t(i.imm), sel = uint16_t(c.gr[i.r1] >> Shift) & mask;
  uint16_t leftmost = uint16_t(0x8000u >> std::countl_zero(mask));
  c.cc = sel == 0 ? 0 : sel == mask ? 3 : (sel & leftmost) ? 2 : 1;
}
void tmll(Cpu& c, const Insn& i) { tm_half<0>(c, i); }
void tmlh(Cpu& c, const Insn& i) { tm_half<16>(c, i); }
void tmhl(Cpu& c, const Insn& i) { tm_half<32>(c, i); }
void tmhh(Cpu& c, const Insn& i) { tm_half<48>(c, i); }

// --- shifts and rotates --------------------------------------------------------------------
// Shift amount: the low 6 bits of the second-operand address, so 32-bit shifts by
// 32-63 move every bit out. Shifting in 64 (or 128) bits keeps C++ shifts defined.
static unsigned shift_amount(const Cpu& c, const Insn& i) { return c.ea2(i) & 63; }

// Double shifts: bits 32-63 of the even/odd pair R1, R1+1 form one 64-bit operand.
static uint64_t pair(const Cpu& c, unsigned r1) {
  if (r1 & 1) program_check(Pic::Specification);
  return uint64_t(c.r32(r1)) << 32 | c.r32(r1 + 1);
}
static void set_pair(Cpu& c, unsigned r1, uint64_t v) {
  c.set_r32(r1, uint32_t(v >> 32));
  c.set_r32(r1 + 1, uint32_t(v));
}

// SHIFT LEFT (SINGLE/DOUBLE): the sign bit stays, the numeric bits move left with zeros
// in. A bit unlike the sign shifted out is an overflow: the result is still stored,
// CC 3, then the interruption if the program mask allows it. Otherwise CC by sign.
template <class S, class Store> static void shift_left_arith(Cpu& c, S v, unsigned n, Store store) {
  using U = std::make_unsigned_t<S>;
  constexpr U sign = U(1) << (8 * sizeof(S) - 1);
  __int128 wide = __int128(v) << n;  // exact: |v| < 2^63 and n < 64
  S r = S((U(v) & sign) | (U(wide) & ~sign));
  bool overflow = wide < std::numeric_limits<S>::min() || wide > std::numeric_limits<S>::max();
  store(r);
  c.cc = overflow ? 3 : cc_signed(r);
  if (overflow) fixed_point_overflow(c);
}
// SHIFT RIGHT arithmetic: sign fill, CC by sign.
template <class S> static S shift_right_arith(Cpu& c, S v, unsigned n) {
  S r = S(int64_t(v) >> n);
  c.cc = cc_signed(r);
  return r;
}

void sll(Cpu& c, const Insn& i) { c.set_r32(i.r1, uint32_t(uint64_t(c.r32(i.r1)) << shift_amount(c, i))); }
void srl(Cpu& c, const Insn& i) { c.set_r32(i.r1, uint32_t(uint64_t(c.r32(i.r1)) >> shift_amount(c, i))); }
void sllk(Cpu& c, const Insn& i) { c.set_r32(i.r1, uint32_t(uint64_t(c.r32(i.r3)) << shift_amount(c, i))); }
void srlk(Cpu& c, const Insn& i) { c.set_r32(i.r1, uint32_t(uint64_t(c.r32(i.r3)) >> shift_amount(c, i))); }
void sllg(Cpu& c, const Insn& i) { c.gr[i.r1] = c.gr[i.r3] << shift_amount(c, i); }
void srlg(Cpu& c, const Insn& i) { c.gr[i.r1] = c.gr[i.r3] >> shift_amount(c, i); }
void sldl(Cpu& c, const Insn& i) { set_pair(c, i.r1, pair(c, i.r1) << shift_amount(c, i)); }
void srdl(Cpu& c, const Insn& i) { set_pair(c, i.r1, pair(c, i.r1) >> shift_amount(c, i)); }

void sla(Cpu& c, const Insn& i) {
  shift_left_arith(c, int32_t(c.r32(i.r1)), shift_amount(c, i), [&](int32_t r) { c.set_r32(i.r1, uint32_t(r)); });
}
void slak(Cpu& c, const Insn& i) {
  shift_left_arith(c, int32_t(c.r32(i.r3)), shift_amount(c, i), [&](int32_t r) { c.set_r32(i.r1, uint32_t(r)); });
}
void slag(Cpu& c, const Insn& i) {
  shift_left_arith(c, int64_t(c.gr[i.r3]), shift_amount(c, i), [&](int64_t r) { c.gr[i.r1] = uint64_t(r); });
}
void slda(Cpu& c, const Insn& i) {
  shift_left_arith(c, int64_t(pair(c, i.r1)), shift_amount(c, i), [&](int64_t r) { set_pair(c, i.r1, uint64_t(r)); });
}
void sra(Cpu& c, const Insn& i) {
  c.set_r32(i.r1, uint32_t(shift_right_arith(c, int32_t(c.r32(i.r1)), shift_amount(c, i))));
}
void srak(Cpu& c, const Insn& i) {
  c.set_r32(i.r1, uint32_t(shift_right_arith(c, int32_t(c.r32(i.r3)), shift_amount(c, i))));
}
void srag(Cpu& c, const Insn& i) {
  c.gr[i.r1] = uint64_t(shift_right_arith(c, int64_t(c.gr[i.r3]), shift_amount(c, i)));
}
void srda(Cpu& c, const Insn& i) {
  set_pair(c, i.r1, uint64_t(shift_right_arith(c, int64_t(pair(c, i.r1)), shift_amount(c, i))));
}

// std::rotl reduces the count modulo the width: RLL by 33 rotates by 1.
void rll(Cpu& c, const Insn& i) { c.set_r32(i.r1, std::rotl(c.r32(i.r3), int(shift_amount(c, i)))); }
void rllg(Cpu& c, const Insn& i) { c.gr[i.r1] = std::rotl(c.gr[i.r3], int(shift_amount(c, i))); }

// --- rotate then insert / AND / OR / EXCLUSIVE OR selected bits ---------------------------
// Bits start..end (PoO numbering, bit 0 leftmost); when start > end the range wraps:
// start..63 and 0..end.
static uint64_t selected_bits(unsigned start, unsigned end) {
  uint64_t from_start = ~0ull >> start, to_end = ~0ull << (63 - end);
  return start <= end ? from_start & to_end : from_start | to_end;
}

// ROTATE THEN INSERT SELECTED BITS into the bits of `half` (all 64 for RISBG, one
// 32-bit half for RISBHG/RISBLG, whose other half is never changed). The Z bit (I4 bit
// 0) zeroes the unselected bits of `half`; otherwise they keep R1's value.
static void rotate_insert(Cpu& c, const Insn& i, uint64_t half, unsigned start, unsigned end) {
  uint64_t sel = selected_bits(start, end) & half;
  uint64_t keep = (i.i4 & 0x80) ? ~half : ~sel;
  c.gr[i.r1] = (c.gr[i.r1] & keep) | (std::rotl(c.gr[i.r2], i.i5 & 63) & sel);
}
void risbg(Cpu& c, const Insn& i) {
  rotate_insert(c, i, ~0ull, i.i3 & 63, i.i4 & 63);
  c.cc = cc_signed(int64_t(c.gr[i.r1]));
}
void risbgn(Cpu& c, const Insn& i) { rotate_insert(c, i, ~0ull, i.i3 & 63, i.i4 & 63); }
void risbhg(Cpu& c, const Insn& i) { rotate_insert(c, i, 0xFFFFFFFF00000000ull, i.i3 & 31, i.i4 & 31); }
void risblg(Cpu& c, const Insn& i) {
  rotate_insert(c, i, 0x00000000FFFFFFFFull, 32 + (i.i3 & 31), 32 + (i.i4 & 31));
}

// RNSBG/ROSBG/RXSBG: the operation applies to the selected bits only; CC 0 when the
// selected bits of the result are all zero, else 1. The T bit (I3 bit 0) makes it a
// test: CC set, R1 unchanged.
template <class Op> static void rotate_then(Cpu& c, const Insn& i) {
  uint64_t sel = selected_bits(i.i3 & 63, i.i4 & 63);
  uint64_t a = c.gr[i.r1], r = Op{}(a, std::rotl(c.gr[i.r2], i.i5 & 63));
  c.cc = (r & sel) != 0;
  if (!(i.i3 & 0x80)) c.gr[i.r1] = (a & ~sel) | (r & sel);
}
void rnsbg(Cpu& c, const Insn& i) { rotate_then<And>(c, i); }
void rosbg(Cpu& c, const Insn& i) { rotate_then<Or>(c, i); }
void rxsbg(Cpu& c, const Insn& i) { rotate_then<Xor>(c, i); }

// --- bit search and count ------------------------------------------------------------------
// FIND LEFTMOST ONE: R1 (even) = its bit number, 64 if none; R1+1 = R2 without it.
void flogr(Cpu& c, const Insn& i) {
  if (i.r1 & 1) program_check(Pic::Specification);
  uint64_t v = c.gr[i.r2];  // before R1 or R1+1 is written: R2 may be either
  unsigned pos = unsigned(std::countl_zero(v));
  c.gr[i.r1] = pos;
  c.gr[i.r1 + 1] = v == 0 ? 0 : v & ~(0x8000000000000000ull >> pos);
  c.cc = v == 0 ? 0 : 2;
}

// POPULATION COUNT: the count of one bits of each byte, in that byte. With M3 bit 0
// (miscellaneous-instruction-extensions 3, z15) the count of the whole register.
// CC 0 when the result (hence R2) is zero, 1 otherwise. Before z15 the M3 field is
// not part of the instruction: its bit changes nothing there.
void popcnt(Cpu& c, const Insn& i) {
  uint64_t v = c.gr[i.r2];
  if ((i.m3 & 8) && facility_installed(Facility::MiscInstructionExtensions3, c.arch())) {
    c.gr[i.r1] = logical_cc(c, uint64_t(std::popcount(v)));
    return;
  }
  v = v - ((v >> 1) & 0x5555555555555555ull);
  v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
  c.gr[i.r1] = logical_cc(c, (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Full);
}

}  // namespace emu::isa
