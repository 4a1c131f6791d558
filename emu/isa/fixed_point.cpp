#include "emu/isa/common.h"

namespace emu::isa {
namespace {

// --- signed results ------------------------------------------------------------------
// A signed add/subtract/complement sets CC 0/1/2 by the sign of the result, or 3 on
// overflow. A fixed-point overflow does not suppress the operation: the PoO completes
// it (the truncated result is in place) and then takes the interruption, if the program
// mask enables it. So these store first and raise last.
template <class S> void put(Cpu& c, unsigned r, S v) {
  if constexpr (sizeof(S) == 4) c.set_r32(r, uint32_t(v));
  else c.gr[r] = uint64_t(v);
}
template <class S> void set_signed(Cpu& c, unsigned r1, S r, bool overflow) {
  c.cc = overflow ? 3 : cc_signed(r);
  put<S>(c, r1, r);
  if (overflow) fixed_point_overflow(c);
}
template <class S> void add_reg(Cpu& c, unsigned r1, S a, S b) {
  S r;
  bool o = __builtin_add_overflow(a, b, &r);
  set_signed<S>(c, r1, r, o);
}
template <class S> void sub_reg(Cpu& c, unsigned r1, S a, S b) {
  S r;
  bool o = __builtin_sub_overflow(a, b, &r);
  set_signed<S>(c, r1, r, o);
}

// ADD IMMEDIATE to storage (ASI, AGSI): the CC changes only with the store, so that a
// protection exception leaves the CC as it was.
template <class S> void add_storage(Cpu& c, const Insn& i) {
  uint64_t a = c.ea1(i);
  S r;
  bool o = __builtin_add_overflow(c.read<S>(a), S(i.imm), &r);
  c.write<S>(a, r);
  c.cc = o ? 3 : cc_signed(r);
  if (o) fixed_point_overflow(c);
}
// ADD LOGICAL WITH SIGNED IMMEDIATE to storage. Adding the sign-extended immediate as
// an unsigned value gives the architected carry: for a negative immediate it is the
// "no borrow" of subtracting its magnitude.
template <class U> void add_logical_storage(Cpu& c, const Insn& i) {
  uint64_t a = c.ea1(i);
  uint8_t before = c.cc;
  U r = add_logical<U>(c, c.read<U>(a), U(i.imm));
  uint8_t after = c.cc;
  c.cc = before;
  c.write<U>(a, r);
  c.cc = after;
}

// Carry into ALC (CC 2 or 3) and borrow into SLB (CC 0 or 1), from the previous CC.
unsigned carry_in(const Cpu& c) { return c.cc >> 1; }
unsigned borrow_in(const Cpu& c) { return (c.cc >> 1) ^ 1; }

// Sign- and zero-extension of the low 32 bits of a register (the ...GF... forms).
int64_t sext32(uint64_t v) { return int32_t(v); }
uint64_t zext32(uint64_t v) { return uint32_t(v); }

// Multiply and divide on an even/odd register pair: R1 must be even.
void even_pair(const Insn& i) {
  if (i.r1 & 1) program_check(Pic::Specification);
}
// The 64-bit value held in the low halves of the pair R1 (high) : R1+1 (low).
uint64_t pair32(const Cpu& c, unsigned r1) { return uint64_t(c.r32(r1)) << 32 | c.r32(r1 + 1); }
void set_pair32(Cpu& c, unsigned r1, uint64_t v) {
  c.set_r32(r1, uint32_t(v >> 32));
  c.set_r32(r1 + 1, uint32_t(v));
}

template <class T> T rl(Cpu& c, const Insn& i) { return c.read<T>(aligned_target<T>(i)); }

// COMPARE LOGICAL CHARACTERS UNDER MASK: the register bytes selected by M3, left to
// right, against consecutive storage bytes; a zero mask compares equal.
void compare_under_mask(Cpu& c, const Insn& i, uint32_t v) {
  uint64_t a = c.ea2(i);
  for (int k = 0; k < 4; ++k) {
    if (!(i.m3 & (8 >> k))) continue;
    uint8_t reg = uint8_t(v >> (24 - 8 * k)), mem = c.read<uint8_t>(a++);
    if (reg != mem) {
      c.cc = reg < mem ? 1 : 2;
      return;
    }
  }
  c.cc = 0;
}

// DIVIDE: zero divisor or a quotient that does not fit is a fixed-point-divide
// exception, and the operation is suppressed (registers unchanged).
[[noreturn]] void divide_exception() { program_check(Pic::FixedPointDivide); }

// 32-bit signed divide of the pair's 64-bit dividend: remainder (sign of the
// dividend) to R1, quotient to R1+1.
void divide32(Cpu& c, const Insn& i, int32_t divisor) {
  int64_t dividend = int64_t(pair32(c, i.r1));
  if (divisor == 0 || (dividend == INT64_MIN && divisor == -1)) divide_exception();
  int64_t q = dividend / divisor, r = dividend % divisor;
  if (q < INT32_MIN || q > INT32_MAX) divide_exception();
  c.set_r32(i.r1, uint32_t(r));
  c.set_r32(i.r1 + 1, uint32_t(q));
}
void divide_logical32(Cpu& c, const Insn& i, uint32_t divisor) {
  uint64_t dividend = pair32(c, i.r1);
  if (divisor == 0 || (dividend >> 32) >= divisor) divide_exception();  // quotient > 32 bits
  c.set_r32(i.r1, uint32_t(dividend % divisor));
  c.set_r32(i.r1 + 1, uint32_t(dividend / divisor));
}
// DIVIDE SINGLE: the 64-bit dividend is R1+1 alone.
void divide_single(Cpu& c, const Insn& i, int64_t divisor) {
  int64_t dividend = int64_t(c.gr[i.r1 + 1]);
  if (divisor == 0 || (dividend == INT64_MIN && divisor == -1)) divide_exception();
  c.gr[i.r1] = uint64_t(dividend % divisor);
  c.gr[i.r1 + 1] = uint64_t(dividend / divisor);
}
void divide_logical64(Cpu& c, const Insn& i, uint64_t divisor) {
  uint64_t hi = c.gr[i.r1], lo = c.gr[i.r1 + 1];
  if (divisor == 0 || hi >= divisor) divide_exception();  // quotient > 64 bits
  unsigned __int128 dividend = (unsigned __int128)hi << 64 | lo;
  c.gr[i.r1] = uint64_t(dividend % divisor);
  c.gr[i.r1 + 1] = uint64_t(dividend / divisor);
}

}  // namespace

// --- add -------------------------------------------------------------------------------
void ar(Cpu& c, const Insn& i) { add_reg<int32_t>(c, i.r1, c.r32(i.r1), c.r32(i.r2)); }
void agr(Cpu& c, const Insn& i) { add_reg<int64_t>(c, i.r1, c.gr[i.r1], c.gr[i.r2]); }
void agfr(Cpu& c, const Insn& i) { add_reg<int64_t>(c, i.r1, c.gr[i.r1], sext32(c.gr[i.r2])); }
void a(Cpu& c, const Insn& i) { add_reg<int32_t>(c, i.r1, c.r32(i.r1), mem2<int32_t>(c, i)); }
void ag(Cpu& c, const Insn& i) { add_reg<int64_t>(c, i.r1, c.gr[i.r1], mem2<int64_t>(c, i)); }
void agf(Cpu& c, const Insn& i) { add_reg<int64_t>(c, i.r1, c.gr[i.r1], mem2<int32_t>(c, i)); }
void agh(Cpu& c, const Insn& i) { add_reg<int64_t>(c, i.r1, c.gr[i.r1], mem2<int16_t>(c, i)); }
void ah(Cpu& c, const Insn& i) { add_reg<int32_t>(c, i.r1, c.r32(i.r1), mem2<int16_t>(c, i)); }
// AHI/AGHI (16-bit) and AFI/AGFI (32-bit): the decoder sign-extends either immediate.
void ahi(Cpu& c, const Insn& i) { add_reg<int32_t>(c, i.r1, c.r32(i.r1), int32_t(i.imm)); }
void aghi(Cpu& c, const Insn& i) { add_reg<int64_t>(c, i.r1, c.gr[i.r1], i.imm); }
void ark(Cpu& c, const Insn& i) { add_reg<int32_t>(c, i.r1, c.r32(i.r2), c.r32(i.r3)); }
void agrk(Cpu& c, const Insn& i) { add_reg<int64_t>(c, i.r1, c.gr[i.r2], c.gr[i.r3]); }
void ahik(Cpu& c, const Insn& i) { add_reg<int32_t>(c, i.r1, c.r32(i.r3), int32_t(i.imm)); }
void aghik(Cpu& c, const Insn& i) { add_reg<int64_t>(c, i.r1, c.gr[i.r3], i.imm); }
void asi(Cpu& c, const Insn& i) { add_storage<int32_t>(c, i); }
void agsi(Cpu& c, const Insn& i) { add_storage<int64_t>(c, i); }

// --- add logical -------------------------------------------------------------------------
void alr(Cpu& c, const Insn& i) { c.set_r32(i.r1, add_logical<uint32_t>(c, c.r32(i.r1), c.r32(i.r2))); }
void algr(Cpu& c, const Insn& i) { c.gr[i.r1] = add_logical<uint64_t>(c, c.gr[i.r1], c.gr[i.r2]); }
void algfr(Cpu& c, const Insn& i) { c.gr[i.r1] = add_logical<uint64_t>(c, c.gr[i.r1], zext32(c.gr[i.r2])); }
void al(Cpu& c, const Insn& i) { c.set_r32(i.r1, add_logical<uint32_t>(c, c.r32(i.r1), mem2<uint32_t>(c, i))); }
void alg(Cpu& c, const Insn& i) { c.gr[i.r1] = add_logical<uint64_t>(c, c.gr[i.r1], mem2<uint64_t>(c, i)); }
void algf(Cpu& c, const Insn& i) { c.gr[i.r1] = add_logical<uint64_t>(c, c.gr[i.r1], mem2<uint32_t>(c, i)); }
void alfi(Cpu& c, const Insn& i) { c.set_r32(i.r1, add_logical<uint32_t>(c, c.r32(i.r1), uint32_t(i.imm))); }
void algfi(Cpu& c, const Insn& i) { c.gr[i.r1] = add_logical<uint64_t>(c, c.gr[i.r1], zext32(uint64_t(i.imm))); }
void alrk(Cpu& c, const Insn& i) { c.set_r32(i.r1, add_logical<uint32_t>(c, c.r32(i.r2), c.r32(i.r3))); }
void algrk(Cpu& c, const Insn& i) { c.gr[i.r1] = add_logical<uint64_t>(c, c.gr[i.r2], c.gr[i.r3]); }
// WITH SIGNED IMMEDIATE: the sign-extended immediate is added as an unsigned value.
void alhsik(Cpu& c, const Insn& i) { c.set_r32(i.r1, add_logical<uint32_t>(c, c.r32(i.r3), uint32_t(i.imm))); }
void alghsik(Cpu& c, const Insn& i) { c.gr[i.r1] = add_logical<uint64_t>(c, c.gr[i.r3], uint64_t(i.imm)); }
void alsi(Cpu& c, const Insn& i) { add_logical_storage<uint32_t>(c, i); }
void algsi(Cpu& c, const Insn& i) { add_logical_storage<uint64_t>(c, i); }
void alcr(Cpu& c, const Insn& i) { c.set_r32(i.r1, add_logical<uint32_t>(c, c.r32(i.r1), c.r32(i.r2), carry_in(c))); }
void alcgr(Cpu& c, const Insn& i) { c.gr[i.r1] = add_logical<uint64_t>(c, c.gr[i.r1], c.gr[i.r2], carry_in(c)); }
void alc(Cpu& c, const Insn& i) { c.set_r32(i.r1, add_logical<uint32_t>(c, c.r32(i.r1), mem2<uint32_t>(c, i), carry_in(c))); }
void alcg(Cpu& c, const Insn& i) { c.gr[i.r1] = add_logical<uint64_t>(c, c.gr[i.r1], mem2<uint64_t>(c, i), carry_in(c)); }

// --- subtract ----------------------------------------------------------------------------
void sr(Cpu& c, const Insn& i) { sub_reg<int32_t>(c, i.r1, c.r32(i.r1), c.r32(i.r2)); }
void sgr(Cpu& c, const Insn& i) { sub_reg<int64_t>(c, i.r1, c.gr[i.r1], c.gr[i.r2]); }
void sgfr(Cpu& c, const Insn& i) { sub_reg<int64_t>(c, i.r1, c.gr[i.r1], sext32(c.gr[i.r2])); }
void s(Cpu& c, const Insn& i) { sub_reg<int32_t>(c, i.r1, c.r32(i.r1), mem2<int32_t>(c, i)); }
void sg(Cpu& c, const Insn& i) { sub_reg<int64_t>(c, i.r1, c.gr[i.r1], mem2<int64_t>(c, i)); }
void sgf(Cpu& c, const Insn& i) { sub_reg<int64_t>(c, i.r1, c.gr[i.r1], mem2<int32_t>(c, i)); }
void sh(Cpu& c, const Insn& i) { sub_reg<int32_t>(c, i.r1, c.r32(i.r1), mem2<int16_t>(c, i)); }
void sgh(Cpu& c, const Insn& i) { sub_reg<int64_t>(c, i.r1, c.gr[i.r1], mem2<int16_t>(c, i)); }
void srk(Cpu& c, const Insn& i) { sub_reg<int32_t>(c, i.r1, c.r32(i.r2), c.r32(i.r3)); }
void sgrk(Cpu& c, const Insn& i) { sub_reg<int64_t>(c, i.r1, c.gr[i.r2], c.gr[i.r3]); }

// --- subtract logical ------------------------------------------------------------------
void slr(Cpu& c, const Insn& i) { c.set_r32(i.r1, sub_logical<uint32_t>(c, c.r32(i.r1), c.r32(i.r2))); }
void slgr(Cpu& c, const Insn& i) { c.gr[i.r1] = sub_logical<uint64_t>(c, c.gr[i.r1], c.gr[i.r2]); }
void slgfr(Cpu& c, const Insn& i) { c.gr[i.r1] = sub_logical<uint64_t>(c, c.gr[i.r1], zext32(c.gr[i.r2])); }
void sl(Cpu& c, const Insn& i) { c.set_r32(i.r1, sub_logical<uint32_t>(c, c.r32(i.r1), mem2<uint32_t>(c, i))); }
void slg(Cpu& c, const Insn& i) { c.gr[i.r1] = sub_logical<uint64_t>(c, c.gr[i.r1], mem2<uint64_t>(c, i)); }
void slgf(Cpu& c, const Insn& i) { c.gr[i.r1] = sub_logical<uint64_t>(c, c.gr[i.r1], mem2<uint32_t>(c, i)); }
void slfi(Cpu& c, const Insn& i) { c.set_r32(i.r1, sub_logical<uint32_t>(c, c.r32(i.r1), uint32_t(i.imm))); }
void slgfi(Cpu& c, const Insn& i) { c.gr[i.r1] = sub_logical<uint64_t>(c, c.gr[i.r1], zext32(uint64_t(i.imm))); }
void slrk(Cpu& c, const Insn& i) { c.set_r32(i.r1, sub_logical<uint32_t>(c, c.r32(i.r2), c.r32(i.r3))); }
void slgrk(Cpu& c, const Insn& i) { c.gr[i.r1] = sub_logical<uint64_t>(c, c.gr[i.r2], c.gr[i.r3]); }
void slbr(Cpu& c, const Insn& i) { c.set_r32(i.r1, sub_logical<uint32_t>(c, c.r32(i.r1), c.r32(i.r2), borrow_in(c))); }
void slbgr(Cpu& c, const Insn& i) { c.gr[i.r1] = sub_logical<uint64_t>(c, c.gr[i.r1], c.gr[i.r2], borrow_in(c)); }
void slb(Cpu& c, const Insn& i) { c.set_r32(i.r1, sub_logical<uint32_t>(c, c.r32(i.r1), mem2<uint32_t>(c, i), borrow_in(c))); }
void slbg(Cpu& c, const Insn& i) { c.gr[i.r1] = sub_logical<uint64_t>(c, c.gr[i.r1], mem2<uint64_t>(c, i), borrow_in(c)); }

// --- multiply ----------------------------------------------------------------------------
// MULTIPLY (MR, M, MFY): R1+1 times the operand, the signed 64-bit product in the pair.
void mr(Cpu& c, const Insn& i) {
  even_pair(i);
  set_pair32(c, i.r1, uint64_t(int64_t(int32_t(c.r32(i.r1 + 1))) * int32_t(c.r32(i.r2))));
}
void m(Cpu& c, const Insn& i) {
  even_pair(i);
  set_pair32(c, i.r1, uint64_t(int64_t(int32_t(c.r32(i.r1 + 1))) * mem2<int32_t>(c, i)));
}
// MULTIPLY SINGLE: the low half of the product, no CC, no overflow indication. The
// products are formed unsigned, which gives the same low bits without C++ overflow.
void msr(Cpu& c, const Insn& i) { c.set_r32(i.r1, c.r32(i.r1) * c.r32(i.r2)); }
void msgr(Cpu& c, const Insn& i) { c.gr[i.r1] *= c.gr[i.r2]; }
void msgfr(Cpu& c, const Insn& i) { c.gr[i.r1] *= uint64_t(sext32(c.gr[i.r2])); }
void ms(Cpu& c, const Insn& i) { c.set_r32(i.r1, c.r32(i.r1) * mem2<uint32_t>(c, i)); }
void msg(Cpu& c, const Insn& i) { c.gr[i.r1] *= mem2<uint64_t>(c, i); }
void msgf(Cpu& c, const Insn& i) { c.gr[i.r1] *= uint64_t(int64_t(mem2<int32_t>(c, i))); }
void mh(Cpu& c, const Insn& i) { c.set_r32(i.r1, c.r32(i.r1) * uint32_t(int32_t(mem2<int16_t>(c, i)))); }
// MHI/MGHI (16-bit) and MSFI/MSGFI (32-bit immediate), sign-extended by the decoder.
void mhi(Cpu& c, const Insn& i) { c.set_r32(i.r1, c.r32(i.r1) * uint32_t(i.imm)); }
void mghi(Cpu& c, const Insn& i) { c.gr[i.r1] *= uint64_t(i.imm); }
// MULTIPLY LOGICAL: unsigned, double-width product in the pair.
void mlr(Cpu& c, const Insn& i) {
  even_pair(i);
  set_pair32(c, i.r1, uint64_t(c.r32(i.r1 + 1)) * c.r32(i.r2));
}
void ml(Cpu& c, const Insn& i) {
  even_pair(i);
  set_pair32(c, i.r1, uint64_t(c.r32(i.r1 + 1)) * mem2<uint32_t>(c, i));
}
static void multiply_logical64(Cpu& c, const Insn& i, uint64_t v) {
  unsigned __int128 p = (unsigned __int128)c.gr[i.r1 + 1] * v;
  c.gr[i.r1] = uint64_t(p >> 64);
  c.gr[i.r1 + 1] = uint64_t(p);
}
void mlgr(Cpu& c, const Insn& i) { even_pair(i), multiply_logical64(c, i, c.gr[i.r2]); }
void mlg(Cpu& c, const Insn& i) { even_pair(i), multiply_logical64(c, i, mem2<uint64_t>(c, i)); }

// Miscellaneous-instruction-extensions facility 2 (z14) [Principles of Operation,
// "MULTIPLY", "MULTIPLY HALFWORD", "MULTIPLY SINGLE"].
// MULTIPLY HALFWORD (64): the low 64 bits of the product, no CC.
void mgh(Cpu& c, const Insn& i) { c.gr[i.r1] *= uint64_t(int64_t(mem2<int16_t>(c, i))); }
// MULTIPLY (64): the signed 128-bit product in the even/odd pair; it cannot overflow.
static void multiply_signed128(Cpu& c, unsigned r1, int64_t a, int64_t b) {
  __int128 p = __int128(a) * b;
  c.gr[r1] = uint64_t(uint64_t(p >> 64));
  c.gr[r1 + 1] = uint64_t(p);
}
void mg(Cpu& c, const Insn& i) {
  even_pair(i);
  multiply_signed128(c, i.r1, int64_t(c.gr[i.r1 + 1]), mem2<int64_t>(c, i));
}
void mgrk(Cpu& c, const Insn& i) {
  even_pair(i);
  multiply_signed128(c, i.r1, int64_t(c.gr[i.r2]), int64_t(c.gr[i.r3]));
}
// MULTIPLY SINGLE that sets the CC (MSC, MSRKC, MSGC, MSGRKC): CC by the sign of the
// product, 3 when it does not fit; then R1 holds its low bits and the overflow
// interruption follows, as for ADD.
template <class S> static void multiply_cc(Cpu& c, unsigned r1, S a, S b) {
  S r;
  bool o = __builtin_mul_overflow(a, b, &r);
  set_signed<S>(c, r1, r, o);
}
void msc(Cpu& c, const Insn& i) { multiply_cc<int32_t>(c, i.r1, c.r32(i.r1), mem2<int32_t>(c, i)); }
void msrkc(Cpu& c, const Insn& i) { multiply_cc<int32_t>(c, i.r1, c.r32(i.r2), c.r32(i.r3)); }
void msgc(Cpu& c, const Insn& i) { multiply_cc<int64_t>(c, i.r1, c.gr[i.r1], mem2<int64_t>(c, i)); }
void msgrkc(Cpu& c, const Insn& i) { multiply_cc<int64_t>(c, i.r1, c.gr[i.r2], c.gr[i.r3]); }

// --- divide -------------------------------------------------------------------------------
void dr(Cpu& c, const Insn& i) { even_pair(i), divide32(c, i, int32_t(c.r32(i.r2))); }
void d(Cpu& c, const Insn& i) { even_pair(i), divide32(c, i, mem2<int32_t>(c, i)); }
void dlr(Cpu& c, const Insn& i) { even_pair(i), divide_logical32(c, i, c.r32(i.r2)); }
void dl(Cpu& c, const Insn& i) { even_pair(i), divide_logical32(c, i, mem2<uint32_t>(c, i)); }
void dsgr(Cpu& c, const Insn& i) { even_pair(i), divide_single(c, i, int64_t(c.gr[i.r2])); }
void dsgfr(Cpu& c, const Insn& i) { even_pair(i), divide_single(c, i, sext32(c.gr[i.r2])); }
void dsg(Cpu& c, const Insn& i) { even_pair(i), divide_single(c, i, mem2<int64_t>(c, i)); }
void dsgf(Cpu& c, const Insn& i) { even_pair(i), divide_single(c, i, mem2<int32_t>(c, i)); }
void dlgr(Cpu& c, const Insn& i) { even_pair(i), divide_logical64(c, i, c.gr[i.r2]); }
void dlg(Cpu& c, const Insn& i) { even_pair(i), divide_logical64(c, i, mem2<uint64_t>(c, i)); }

// --- compare (signed) ----------------------------------------------------------------------
void cr(Cpu& c, const Insn& i) { c.cc = cc_compare(int32_t(c.r32(i.r1)), int32_t(c.r32(i.r2))); }
void cgr(Cpu& c, const Insn& i) { c.cc = cc_compare(int64_t(c.gr[i.r1]), int64_t(c.gr[i.r2])); }
void cgfr(Cpu& c, const Insn& i) { c.cc = cc_compare(int64_t(c.gr[i.r1]), sext32(c.gr[i.r2])); }
void c_(Cpu& c, const Insn& i) { c.cc = cc_compare(int32_t(c.r32(i.r1)), mem2<int32_t>(c, i)); }
void cg(Cpu& c, const Insn& i) { c.cc = cc_compare(int64_t(c.gr[i.r1]), mem2<int64_t>(c, i)); }
void cgf(Cpu& c, const Insn& i) { c.cc = cc_compare(int64_t(c.gr[i.r1]), int64_t(mem2<int32_t>(c, i))); }
void ch(Cpu& c, const Insn& i) { c.cc = cc_compare(int32_t(c.r32(i.r1)), int32_t(mem2<int16_t>(c, i))); }
void cgh(Cpu& c, const Insn& i) { c.cc = cc_compare(int64_t(c.gr[i.r1]), int64_t(mem2<int16_t>(c, i))); }
// CHI/CGHI (16-bit) and CFI/CGFI (32-bit immediate).
void chi(Cpu& c, const Insn& i) { c.cc = cc_compare(int32_t(c.r32(i.r1)), int32_t(i.imm)); }
void cghi(Cpu& c, const Insn& i) { c.cc = cc_compare(int64_t(c.gr[i.r1]), i.imm); }
// Storage against a sign-extended 16-bit immediate; the storage operand is first.
void chsi(Cpu& c, const Insn& i) { c.cc = cc_compare(c.read<int32_t>(c.ea1(i)), int32_t(i.imm)); }
void cghsi(Cpu& c, const Insn& i) { c.cc = cc_compare(c.read<int64_t>(c.ea1(i)), i.imm); }
void chhsi(Cpu& c, const Insn& i) { c.cc = cc_compare(c.read<int16_t>(c.ea1(i)), int16_t(i.imm)); }
void crl(Cpu& c, const Insn& i) { c.cc = cc_compare(int32_t(c.r32(i.r1)), rl<int32_t>(c, i)); }
void cgrl(Cpu& c, const Insn& i) { c.cc = cc_compare(int64_t(c.gr[i.r1]), rl<int64_t>(c, i)); }
void cgfrl(Cpu& c, const Insn& i) { c.cc = cc_compare(int64_t(c.gr[i.r1]), int64_t(rl<int32_t>(c, i))); }
void chrl(Cpu& c, const Insn& i) { c.cc = cc_compare(int32_t(c.r32(i.r1)), int32_t(rl<int16_t>(c, i))); }
void cghrl(Cpu& c, const Insn& i) { c.cc = cc_compare(int64_t(c.gr[i.r1]), int64_t(rl<int16_t>(c, i))); }

// --- compare logical ------------------------------------------------------------------------
void clr(Cpu& c, const Insn& i) { c.cc = cc_compare(c.r32(i.r1), c.r32(i.r2)); }
void clgr(Cpu& c, const Insn& i) { c.cc = cc_compare(c.gr[i.r1], c.gr[i.r2]); }
void clgfr(Cpu& c, const Insn& i) { c.cc = cc_compare(c.gr[i.r1], zext32(c.gr[i.r2])); }
void cl(Cpu& c, const Insn& i) { c.cc = cc_compare(c.r32(i.r1), mem2<uint32_t>(c, i)); }
void clg(Cpu& c, const Insn& i) { c.cc = cc_compare(c.gr[i.r1], mem2<uint64_t>(c, i)); }
void clgf(Cpu& c, const Insn& i) { c.cc = cc_compare(c.gr[i.r1], uint64_t(mem2<uint32_t>(c, i))); }
void clfi(Cpu& c, const Insn& i) { c.cc = cc_compare(c.r32(i.r1), uint32_t(i.imm)); }
void clgfi(Cpu& c, const Insn& i) { c.cc = cc_compare(c.gr[i.r1], zext32(uint64_t(i.imm))); }
// Storage against an unsigned immediate (the decoder sign-extends; cut it back).
void cli(Cpu& c, const Insn& i) { c.cc = cc_compare(c.read<uint8_t>(c.ea1(i)), uint8_t(i.imm)); }
void clfhsi(Cpu& c, const Insn& i) { c.cc = cc_compare(c.read<uint32_t>(c.ea1(i)), uint32_t(uint16_t(i.imm))); }
void clghsi(Cpu& c, const Insn& i) { c.cc = cc_compare(c.read<uint64_t>(c.ea1(i)), uint64_t(uint16_t(i.imm))); }
void clhhsi(Cpu& c, const Insn& i) { c.cc = cc_compare(c.read<uint16_t>(c.ea1(i)), uint16_t(i.imm)); }
void clrl(Cpu& c, const Insn& i) { c.cc = cc_compare(c.r32(i.r1), rl<uint32_t>(c, i)); }
void clgrl(Cpu& c, const Insn& i) { c.cc = cc_compare(c.gr[i.r1], rl<uint64_t>(c, i)); }
void clgfrl(Cpu& c, const Insn& i) { c.cc = cc_compare(c.gr[i.r1], uint64_t(rl<uint32_t>(c, i))); }
void clhrl(Cpu& c, const Insn& i) { c.cc = cc_compare(c.r32(i.r1), uint32_t(rl<uint16_t>(c, i))); }
void clghrl(Cpu& c, const Insn& i) { c.cc = cc_compare(c.gr[i.r1], uint64_t(rl<uint16_t>(c, i))); }
void clm(Cpu& c, const Insn& i) { compare_under_mask(c, i, c.r32(i.r1)); }
void clmh(Cpu& c, const Insn& i) { compare_under_mask(c, i, c.h32(i.r1)); }

// --- load complement / positive / negative --------------------------------------------------
// Only the maximum negative number overflows (LC, LP: CC 3, result unchanged). The
// ...GFR forms work on the sign-extended 32-bit value in 64 bits and cannot overflow.
template <class S> static void load_complement(Cpu& c, unsigned r1, S v) {
  S r;
  bool o = __builtin_sub_overflow(S(0), v, &r);
  set_signed<S>(c, r1, r, o);
}
template <class S> static void load_positive(Cpu& c, unsigned r1, S v) {
  if (v < 0) load_complement<S>(c, r1, v);
  else set_signed<S>(c, r1, v, false);
}
// LOAD NEGATIVE: CC 0 zero, 1 negative; never overflows.
template <class S> static void load_negative(Cpu& c, unsigned r1, S v) {
  S r = v > 0 ? S(-v) : v;
  set_signed<S>(c, r1, r, false);
}
void lcr(Cpu& c, const Insn& i) { load_complement<int32_t>(c, i.r1, c.r32(i.r2)); }
void lcgr(Cpu& c, const Insn& i) { load_complement<int64_t>(c, i.r1, c.gr[i.r2]); }
void lcgfr(Cpu& c, const Insn& i) { load_complement<int64_t>(c, i.r1, sext32(c.gr[i.r2])); }
void lnr(Cpu& c, const Insn& i) { load_negative<int32_t>(c, i.r1, c.r32(i.r2)); }
void lngr(Cpu& c, const Insn& i) { load_negative<int64_t>(c, i.r1, c.gr[i.r2]); }
void lngfr(Cpu& c, const Insn& i) { load_negative<int64_t>(c, i.r1, sext32(c.gr[i.r2])); }
void lpr(Cpu& c, const Insn& i) { load_positive<int32_t>(c, i.r1, c.r32(i.r2)); }
void lpgr(Cpu& c, const Insn& i) { load_positive<int64_t>(c, i.r1, c.gr[i.r2]); }
void lpgfr(Cpu& c, const Insn& i) { load_positive<int64_t>(c, i.r1, sext32(c.gr[i.r2])); }

}  // namespace emu::isa
